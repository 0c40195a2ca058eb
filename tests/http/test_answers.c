/*
 * test_answers.c - the answers gpusizer gives stay byte-identical unless a change means to
 * change them (issue 35: an optimisation or a restructuring that changes one byte of an
 * answer fails CI).
 *
 *   test_answers GPUSIZER SOURCE_DIR [--write]
 *
 * Starts the server on a fresh catalog (answer cache off) and asks it:
 *   - for every catalog model, each request shape of answers/shapes.tsv (recommend, fit and
 *     estimate shapes; bench/same-answers.sh asks the same between two builds);
 *   - every training request of the calibration set (calibration/h200-training.json and
 *     calibration/training-measured.json, the measured runs), as /v1/estimate;
 *   - every request example of the contract (openapi/openapi.json) on its own path.
 * Each answer (its status and body) is reduced to a 64-bit FNV-1a hash and compared with
 * answers/golden.tsv, one line per request: a label, the status, the hash. It prints each
 * request whose answer differs, is new or is gone, and exits 1 if any does.
 *
 * A change that is meant to change answers regenerates the file with --write and commits it
 * beside the change (tests/fixtures/answers/README.md); the diff then shows which answers
 * moved. GPUSIZER_ANSWER_THREADS sets the client threads (default 2).
 */
#include "http_client.h"
#include "test_files.h"
#include "test_server.h"

#include <jansson.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct ask {
    char *label;  /* "path model #shape", "path example:name", "path calibration:id" */
    const char *path;
    char *body;
    long status;  /* the answer */
    uint64_t hash;
};

struct work {
    struct ask *items;
    size_t count, cap;
    size_t next; /* the next to ask, under `lock` */
    pthread_mutex_t lock;
    int port;
};

static void die(const char *what)
{
    fprintf(stderr, "test_answers: %s\n", what);
    exit(2);
}

static char *dup_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *dup_printf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *s = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (s == NULL)
        die("out of memory");
    va_start(ap, fmt);
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return s;
}

static void add(struct work *w, char *label, const char *path, char *body)
{
    if (w->count == w->cap) {
        w->cap = w->cap ? 2 * w->cap : 1024;
        w->items = realloc(w->items, w->cap * sizeof(*w->items));
        if (w->items == NULL)
            die("out of memory");
    }
    w->items[w->count++] = (struct ask){.label = label, .path = path, .body = body};
}

static uint64_t fnv1a(uint64_t h, const void *data, size_t n)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}

static void *asker(void *arg)
{
    struct work *w = arg;
    for (;;) {
        pthread_mutex_lock(&w->lock);
        size_t i = w->next++;
        pthread_mutex_unlock(&w->lock);
        if (i >= w->count)
            return NULL;
        struct ask *a = &w->items[i];
        struct http_reply r = http_call(w->port, "POST", a->path, "application/json", a->body,
                                        strlen(a->body), NULL);
        a->status = r.status;
        a->hash = fnv1a(fnv1a(0xcbf29ce484222325ULL, &r.status, sizeof(r.status)),
                        r.body ? r.body : "", r.length);
        if (r.status < 0)
            fprintf(stderr, "test_answers: %s: %s\n", a->label, r.error);
        free(r.body);
    }
}

/* Every catalog model id, from the listing. */
static json_t *catalog_models(int port)
{
    struct http_reply r = http_call(port, "GET", "/v1/models?limit=1000", NULL, NULL, 0, NULL);
    json_t *doc = r.status == 200 ? json_loads(r.body, 0, NULL) : NULL;
    free(r.body);
    json_t *items = json_incref(json_object_get(doc, "items"));
    json_decref(doc);
    if (!json_is_array(items) || json_array_size(items) == 0)
        die("the model listing could not be read");
    if (r.total_count[0] != '\0' && strtoul(r.total_count, NULL, 10) != json_array_size(items))
        die("the model listing is paged: raise its limit");
    return items;
}

static void add_shapes(struct work *w, const char *fixtures, const json_t *models)
{
    char path[1024];
    snprintf(path, sizeof(path), "%s/answers/shapes.tsv", fixtures);
    FILE *f = fopen(path, "r");
    if (f == NULL)
        die("answers/shapes.tsv cannot be opened");
    static char paths[64][32];
    char line[4096];
    size_t shape = 0;
    while (fgets(line, sizeof(line), f) != NULL) {
        line[strcspn(line, "\n")] = '\0';
        char *tab = strchr(line, '\t');
        if (line[0] == '#' || line[0] == '\0')
            continue;
        if (tab == NULL || shape == 64 || (size_t)(tab - line) >= sizeof(paths[0]))
            die("answers/shapes.tsv: a line is not PATH<TAB>MEMBERS, or there are over 64");
        *tab = '\0';
        memcpy(paths[shape], line, (size_t)(tab - line) + 1);
        size_t i;
        const json_t *m;
        json_array_foreach(models, i, m) {
            const char *id = json_string_value(json_object_get(m, "id"));
            add(w, dup_printf("%s %s #%zu", paths[shape], id, shape), paths[shape],
                dup_printf("{\"model\":\"%s\",%s}", id, tab + 1));
        }
        shape++;
    }
    fclose(f);
}

/* Every "request" member (an object) anywhere in a calibration file. */
static void add_requests_in(struct work *w, json_t *v, const char *file)
{
    if (json_is_array(v)) {
        size_t i;
        json_t *x;
        json_array_foreach(v, i, x) add_requests_in(w, x, file);
        return;
    }
    if (!json_is_object(v))
        return;
    const json_t *request = json_object_get(v, "request");
    if (json_is_object(request)) {
        const char *id = json_string_value(json_object_get(v, "id"));
        char *body = json_dumps(request, JSON_COMPACT | JSON_SORT_KEYS);
        if (id == NULL || body == NULL)
            die("a calibration request has no id");
        add(w, dup_printf("/v1/estimate calibration:%s:%s", file, id), "/v1/estimate", body);
        return;
    }
    const char *key;
    json_t *x;
    json_object_foreach(v, key, x) add_requests_in(w, x, file);
}

static void add_calibration(struct work *w, const char *fixtures)
{
    static const char *const files[] = {"h200-training.json", "training-measured.json"};
    for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
        char path[1024];
        snprintf(path, sizeof(path), "%s/calibration/%s", fixtures, files[i]);
        json_t *doc = json_load_file(path, 0, NULL);
        if (doc == NULL)
            die("a calibration file cannot be read");
        add_requests_in(w, doc, files[i]);
        json_decref(doc);
    }
}

static void add_examples(struct work *w, const char *source)
{
    static const char *const paths[] = {"/v1/estimate", "/v1/fit", "/v1/recommend"};
    char file[1024];
    snprintf(file, sizeof(file), "%s/openapi/openapi.json", source);
    json_t *doc = json_load_file(file, 0, NULL);
    if (doc == NULL)
        die("openapi/openapi.json cannot be read");
    for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
        json_t *examples = json_object_get(
            json_object_get(json_object_get(json_object_get(json_object_get(
                json_object_get(json_object_get(doc, "paths"), paths[i]), "post"),
                "requestBody"), "content"), "application/json"), "examples");
        if (json_object_size(examples) == 0)
            die("a sizing path of the contract has no request example");
        const char *name;
        json_t *example;
        json_object_foreach(examples, name, example) {
            char *body = json_dumps(json_object_get(example, "value"), JSON_COMPACT);
            if (body == NULL)
                die("an OpenAPI example has no value");
            add(w, dup_printf("%s example:%s", paths[i], name), paths[i], body);
        }
    }
    json_decref(doc);
}

static int by_label(const void *a, const void *b)
{
    return strcmp(((const struct ask *)a)->label, ((const struct ask *)b)->label);
}

/* Compares the answers with the golden file; the number of differences. */
static size_t compare(struct work *w, const char *golden)
{
    FILE *f = fopen(golden, "r");
    if (f == NULL) {
        fprintf(stderr, "test_answers: %s cannot be opened: write it with --write\n", golden);
        return 1;
    }
    unsigned char *seen = calloc(w->count, 1);
    if (seen == NULL)
        die("out of memory");
    size_t differing = 0, reported = 0;
    char line[2048];
    while (fgets(line, sizeof(line), f) != NULL) {
        line[strcspn(line, "\n")] = '\0';
        if (line[0] == '#' || line[0] == '\0')
            continue;
        char *t1 = strchr(line, '\t');
        char *t2 = t1 ? strchr(t1 + 1, '\t') : NULL;
        if (t2 == NULL)
            die("the golden file has a line that is not LABEL<TAB>STATUS<TAB>HASH");
        *t1 = *t2 = '\0';
        struct ask key = {.label = line};
        struct ask *a = bsearch(&key, w->items, w->count, sizeof(*w->items), by_label);
        const char *why = NULL;
        if (a == NULL)
            why = "no longer asked (shape, model or example removed)";
        else {
            seen[a - w->items] = 1;
            if (a->status != strtol(t1 + 1, NULL, 10) ||
                a->hash != strtoull(t2 + 1, NULL, 16))
                why = "answered differently";
        }
        if (why != NULL) {
            differing++;
            if (reported++ < 30)
                fprintf(stderr, "differs: %s: %s (golden status %s)%s%s\n", line, why, t1 + 1,
                        a ? "\n  body: " : "", a ? a->body : "");
        }
    }
    fclose(f);
    for (size_t i = 0; i < w->count; i++) {
        if (!seen[i]) {
            differing++;
            if (reported++ < 30)
                fprintf(stderr, "differs: %s: new, not in the golden file\n", w->items[i].label);
        }
    }
    free(seen);
    return differing;
}

static int write_golden(const struct work *w, const char *golden)
{
    FILE *f = fopen(golden, "w");
    if (f == NULL)
        return 1;
    fprintf(f, "# The answers test_answers expects (tests/fixtures/answers/README.md): label, "
               "status, FNV-1a 64 of the body.\n");
    for (size_t i = 0; i < w->count; i++)
        fprintf(f, "%s\t%ld\t%016llx\n", w->items[i].label, w->items[i].status,
                (unsigned long long)w->items[i].hash);
    return fclose(f) != 0;
}

int main(int argc, char **argv)
{
    if (argc < 3 || (argc == 4 && strcmp(argv[3], "--write") != 0) || argc > 4)
        die("usage: test_answers GPUSIZER SOURCE_DIR [--write]");
    const bool writing = argc == 4;
    char fixtures[900];
    snprintf(fixtures, sizeof(fixtures), "%s/tests/fixtures", argv[2]);
    setenv("GPUSIZER_ANSWER_CACHE_MIB", "0", 1);

    struct test_db db;
    struct test_server server;
    if (test_db_make(&db, "gs-answers") != 0 || test_server_start(&server, argv[1], db.path, NULL) != 0)
        die("the server did not start");

    struct work w = {.port = server.port};
    pthread_mutex_init(&w.lock, NULL);
    json_t *models = catalog_models(server.port);
    add_shapes(&w, fixtures, models);
    json_decref(models);
    add_calibration(&w, fixtures);
    add_examples(&w, argv[2]);
    qsort(w.items, w.count, sizeof(*w.items), by_label);
    for (size_t i = 1; i < w.count; i++)
        if (strcmp(w.items[i - 1].label, w.items[i].label) == 0)
            die("two requests have the same label");

    const char *env = getenv("GPUSIZER_ANSWER_THREADS");
    size_t threads = env ? strtoul(env, NULL, 10) : 2;
    if (threads < 1 || threads > 32)
        threads = 2;
    pthread_t tid[32];
    for (size_t t = 0; t < threads; t++)
        if (pthread_create(&tid[t], NULL, asker, &w) != 0)
            die("a thread could not start");
    for (size_t t = 0; t < threads; t++)
        pthread_join(tid[t], NULL);

    int failed = test_server_stop(&server) != 0;
    test_db_remove(&db);
    size_t unanswered = 0;
    for (size_t i = 0; i < w.count; i++)
        unanswered += w.items[i].status < 0 || w.items[i].status >= 500;
    if (unanswered > 0) {
        fprintf(stderr, "test_answers: %zu requests got no answer or a 5xx\n", unanswered);
        failed = 1;
    }

    char golden[1024];
    snprintf(golden, sizeof(golden), "%s/answers/golden.tsv", fixtures);
    if (writing) {
        if (failed || write_golden(&w, golden) != 0)
            die("the golden file was not written");
        printf("wrote %zu answers to %s\n", w.count, golden);
    } else {
        size_t differing = compare(&w, golden);
        printf("compared %zu answers, %zu differ\n", w.count, differing);
        if (differing > 0) {
            fprintf(stderr, "test_answers: answers changed. If the change means it, regenerate "
                            "the golden file (tests/fixtures/answers/README.md) and commit it; if "
                            "not, bench/same-answers.sh against the previous build shows the "
                            "answers in full.\n");
            failed = 1;
        }
    }
    for (size_t i = 0; i < w.count; i++) {
        free(w.items[i].label);
        free(w.items[i].body);
    }
    free(w.items);
    return failed;
}
