/*
 * test_catalog_http.c - catalog writes over HTTP against real servers: the API
 * key (401, 403), entity tags (ETag, If-None-Match 304, If-Match 412), price
 * history, and two server processes writing the same catalog file from many
 * parallel clients without losing an acknowledged write, each process seeing
 * the other's changes; with catalog_csv.c (CSV import and export, write validation, the
 * names people type), one executable run on SQLite and on PostgreSQL.
 *
 * usage: test_catalog_http /path/to/gpusizer
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "catalog_http.h"
#include "http_client.h"
#include "test_files.h"
#include "pg_server.h"
#include "test_server.h"

#include <curl/curl.h>
#include <jansson.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>


static const char *binary;
static struct test_db db;


struct test_server writer_a, writer_b, read_only;


/* One request to `s`; up to two extra "Name: value" headers. */
struct reply call(const struct test_server *s, const char *method, const char *path,
                  const char *type, const char *body, const char *h1, const char *h2)
{
    const char *headers[] = {h1, h1 != NULL ? h2 : NULL, NULL};
    return http_call(s->port, method, path, type, body, body != NULL ? strlen(body) : 0, headers);
}

json_t *parse(const struct reply *r)
{
    json_t *v = json_loadb(r->body != NULL ? r->body : "", r->length, 0, NULL);
    if (v == NULL)
        fail_msg("not JSON: %.200s", r->body != NULL ? r->body : "");
    return v;
}

void expect_status(struct reply *r, long status)
{
    if (r->status != status)
        fail_msg("expected %ld, got %ld: %.400s", status, r->status, r->body ? r->body : "");
}

/* Starts `gpusizer serve` on the shared catalog, with or without the key. */
static int spawn_server(struct test_server *s, bool with_key)
{
    return test_server_start(s, binary, db.path, with_key ? KEY : NULL);
}

static int stop(struct test_server *s)
{
    return test_server_stop(s);
}

/* The first server creates and seeds the catalog; the others open it as it is. */
static int spawn_all(void)
{
    if (spawn_server(&writer_a, true) != 0 || spawn_server(&writer_b, true) != 0 ||
        spawn_server(&read_only, false) != 0)
        return -1;
    return 0;
}

static int setup(void **state)
{
    (void)state;
    if (test_db_make(&db, "gs-cathttp") != 0)
        return -1;
    return spawn_all();
}

static int teardown(void **state)
{
    (void)state;
    int rc = stop(&writer_a) | stop(&writer_b) | stop(&read_only);
    test_db_remove(&db);
    return rc;
}

/* The same suite with the three servers on one PostgreSQL catalog (issue 16): a private
 * server this test starts, its URL where the file's path was. */
static struct pg_server pg;

static int setup_pg(void **state)
{
    (void)state;
    memset(&db, 0, sizeof(db));
    if (pg_server_start(&pg) != 0)
        return -1;
    snprintf(db.path, sizeof(db.path), "%s", pg.url);
    return spawn_all();
}

static int teardown_pg(void **state)
{
    (void)state;
    int rc = stop(&writer_a) | stop(&writer_b) | stop(&read_only);
    pg_server_destroy(&pg);
    return rc;
}

static const char lab_gpu[] =
    "{\"name\":\"Lab GPU\",\"vendor\":\"Acme\",\"memory_bytes\":48000000000,\"memory_source\":\"lab\","
    "\"tdp_watts\":1,\"spec_source\":\"counter for the test\",\"aliases\":[\"labby\"]}";

/* A raw exchange: the answer's headers (lower-cased names kept as sent) and body bytes. */
struct raw {
    long status;
    char headers[4096];
    size_t header_length;
    unsigned char *body;
    size_t length;
};

static size_t raw_header(char *data, size_t size, size_t n, void *user)
{
    struct raw *r = user;
    const size_t len = size * n;
    if (r->header_length + len < sizeof(r->headers)) {
        memcpy(r->headers + r->header_length, data, len);
        r->header_length += len;
        r->headers[r->header_length] = '\0';
    }
    return len;
}

static size_t raw_body(char *data, size_t size, size_t n, void *user)
{
    struct raw *r = user;
    const size_t len = size * n;
    unsigned char *grown = realloc(r->body, r->length + len + 1);
    if (grown == NULL)
        return 0;
    memcpy(grown + r->length, data, len);
    r->body = grown;
    r->length += len;
    return len;
}

/* GET (or POST `body` as JSON) with up to two extra headers; libcurl does not decode. */
static struct raw raw_call(int port, const char *path, const char *body, const char *h1,
                           const char *h2)
{
    struct raw r;
    memset(&r, 0, sizeof(r));
    CURL *curl = curl_easy_init();
    assert_non_null(curl);
    char url[512];
    snprintf(url, sizeof(url), "http://127.0.0.1:%d%s", port, path);
    struct curl_slist *list = NULL;
    if (h1 != NULL)
        list = curl_slist_append(list, h1);
    if (h2 != NULL)
        list = curl_slist_append(list, h2);
    if (body != NULL) {
        list = curl_slist_append(list, "Content-Type: application/json");
        curl_easy_setopt(curl, CURLOPT_POSTFIELDS, body);
    }
    curl_easy_setopt(curl, CURLOPT_URL, url);
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, list);
    curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, raw_header);
    curl_easy_setopt(curl, CURLOPT_HEADERDATA, &r);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, raw_body);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &r);
    assert_int_equal(curl_easy_perform(curl), CURLE_OK);
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &r.status);
    curl_slist_free_all(list);
    curl_easy_cleanup(curl);
    return r;
}

/* `needle` in `hay`, ignoring ASCII case. */
static const char *find_nocase(const char *hay, const char *needle)
{
    const size_t n = strlen(needle);
    for (; *hay != '\0'; hay++)
        if (strncasecmp(hay, needle, n) == 0)
            return hay;
    return NULL;
}

static bool has_header(const struct raw *r, const char *line)
{
    return find_nocase(r->headers, line) != NULL;
}

/* The value of header `name` (case-insensitive) into `out`. */
static void header_value(const struct raw *r, const char *name, char *out, size_t cap)
{
    out[0] = '\0';
    const char *at = find_nocase(r->headers, name);
    if (at == NULL)
        return;
    at += strlen(name);
    while (*at == ' ')
        at++;
    size_t n = strcspn(at, "\r\n");
    snprintf(out, cap, "%.*s", (int)(n < cap ? n : cap - 1), at);
}

/* Inflates a gzip member; the caller frees. */
static unsigned char *gunzip(const unsigned char *data, size_t length, size_t *out_length)
{
    z_stream z;
    memset(&z, 0, sizeof(z));
    assert_int_equal(inflateInit2(&z, 15 + 16), Z_OK);
    size_t cap = length * 16 + 1024;
    unsigned char *out = malloc(cap);
    assert_non_null(out);
    z.next_in = (Bytef *)(uintptr_t)data;
    z.avail_in = (uInt)length;
    z.next_out = out;
    z.avail_out = (uInt)cap;
    assert_int_equal(inflate(&z, Z_FINISH), Z_STREAM_END);
    *out_length = z.total_out;
    inflateEnd(&z);
    return out;
}

static void raw_free(struct raw *r)
{
    free(r->body);
}

/* gzip when asked (and only then), the same bytes once inflated; listings carry a tag that
 * answers 304 until a write changes them, filtered listings and CSV too. */
static void test_gzip_and_listing_tags(void **state)
{
    (void)state;
    static const char *const paths[] = {"/v1/models", "/v1/gpus", "/v1/gpus?format=csv",
                                        "/v1/models?family=llama&limit=5", "/"};
    for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
        struct raw plain = raw_call(read_only.port, paths[i], NULL, NULL, NULL);
        struct raw packed = raw_call(read_only.port, paths[i], NULL, "Accept-Encoding: gzip", NULL);
        struct raw refused =
            raw_call(read_only.port, paths[i], NULL, "Accept-Encoding: gzip;q=0, br", NULL);
        assert_int_equal(plain.status, 200);
        assert_int_equal(packed.status, 200);
        assert_false(has_header(&plain, "Content-Encoding"));
        assert_false(has_header(&refused, "Content-Encoding"));
        assert_true(has_header(&plain, "Vary: Accept-Encoding"));
        assert_true(has_header(&packed, "Content-Encoding: gzip"));
        if (packed.length >= plain.length / 2) /* JSON, CSV and HTML compress well */
            fail_msg("%s: %zu bytes gzip'd from %zu", paths[i], packed.length, plain.length);
        size_t n = 0;
        unsigned char *inflated = gunzip(packed.body, packed.length, &n);
        assert_int_equal(n, plain.length);
        assert_memory_equal(inflated, plain.body, n);
        free(inflated);
        if (i < 4) { /* the listings: the tag, then 304 without a body */
            char tag[64];
            header_value(&plain, "ETag:", tag, sizeof(tag));
            assert_true(tag[0] == '"');
            char cond[96];
            snprintf(cond, sizeof(cond), "If-None-Match: %s", tag);
            struct raw again = raw_call(read_only.port, paths[i], NULL, cond, "Accept-Encoding: gzip");
            assert_int_equal(again.status, 304);
            assert_int_equal(again.length, 0);
            assert_true(has_header(&again, tag));
            raw_free(&again);
        }
        raw_free(&plain);
        raw_free(&packed);
        raw_free(&refused);
    }
    /* computed answers too: an estimate asked with gzip */
    const char *estimate = "{\"model\":\"llama-3.1-70b\",\"gpu\":\"h100\"}";
    struct raw e = raw_call(read_only.port, "/v1/estimate", estimate, "Accept-Encoding: deflate, gzip", NULL);
    assert_int_equal(e.status, 200);
    assert_true(has_header(&e, "Content-Encoding: gzip"));
    size_t n = 0;
    unsigned char *inflated = gunzip(e.body, e.length, &n);
    json_t *v = json_loadb((const char *)inflated, n, 0, NULL);
    assert_non_null(v);
    assert_non_null(json_object_get(v, "per_gpu"));
    json_decref(v);
    free(inflated);
    raw_free(&e);

    /* a write changes the GPU listing's tag; the models' stays */
    struct raw before = raw_call(writer_a.port, "/v1/gpus", NULL, NULL, NULL);
    struct raw models_before = raw_call(writer_a.port, "/v1/models", NULL, NULL, NULL);
    char gpu_tag[64], model_tag[64];
    header_value(&before, "ETag:", gpu_tag, sizeof(gpu_tag));
    header_value(&models_before, "ETag:", model_tag, sizeof(model_tag));
    struct reply w = call(&writer_a, "PATCH", "/v1/gpus/l4", "application/merge-patch+json",
                          "{\"tdp_watts\":71}", AUTH, NULL);
    expect_status(&w, 200);
    free(w.body);
    char cond[96];
    snprintf(cond, sizeof(cond), "If-None-Match: %s", gpu_tag);
    struct raw after = raw_call(writer_a.port, "/v1/gpus", NULL, cond, NULL);
    assert_int_equal(after.status, 200);
    snprintf(cond, sizeof(cond), "If-None-Match: %s", model_tag);
    struct raw models_after = raw_call(writer_a.port, "/v1/models", NULL, cond, NULL);
    assert_int_equal(models_after.status, 304);
    raw_free(&before);
    raw_free(&models_before);
    raw_free(&after);
    raw_free(&models_after);
}

/* Writes need the key; a server without one refuses them outright. */
static void test_writes_need_the_key(void **state)
{
    (void)state;
    struct reply r = call(&writer_a, "PUT", "/v1/gpus/lab-gpu", "application/json", lab_gpu, NULL,
                          NULL);
    expect_status(&r, 401);
    assert_true(r.challenge);
    free(r.body);
    r = call(&writer_a, "PUT", "/v1/gpus/lab-gpu", "application/json", lab_gpu,
             "Authorization: Bearer not-the-key", NULL);
    expect_status(&r, 401);
    assert_null(strstr(r.body, KEY)); /* the key is never echoed */
    free(r.body);
    r = call(&read_only, "PUT", "/v1/gpus/lab-gpu", "application/json", lab_gpu, AUTH, NULL);
    expect_status(&r, 403);
    assert_non_null(strstr(r.body, "writes-disabled"));
    free(r.body);
    /* reads need nothing */
    r = call(&read_only, "GET", "/v1/gpus/h100", NULL, NULL, NULL, NULL);
    expect_status(&r, 200);
    free(r.body);
}

/* Create, read with ETag, 304 on If-None-Match, 412 on a stale If-Match. */
static void test_entity_tags(void **state)
{
    (void)state;
    struct reply r = call(&writer_a, "PUT", "/v1/gpus/lab-gpu", "application/json", lab_gpu, AUTH,
                          "If-None-Match: *");
    expect_status(&r, 201);
    assert_string_equal(r.location, "/v1/gpus/lab-gpu");
    char created_tag[64];
    snprintf(created_tag, sizeof(created_tag), "%s", r.etag);
    assert_true(created_tag[0] == '"');
    free(r.body);
    r = call(&writer_a, "GET", "/v1/gpus/LABBY", NULL, NULL, NULL, NULL);
    expect_status(&r, 200);
    assert_string_equal(r.etag, created_tag);
    json_t *body = parse(&r);
    assert_string_equal(json_string_value(json_object_get(body, "id")), "lab-gpu");
    assert_string_equal(json_string_value(json_object_get(body, "etag")), created_tag);
    json_decref(body);
    free(r.body);
    char inm[96];
    snprintf(inm, sizeof(inm), "If-None-Match: %s", created_tag);
    r = call(&writer_a, "GET", "/v1/gpus/lab-gpu", NULL, NULL, inm, NULL);
    expect_status(&r, 304);
    free(r.body);

    char im[96];
    snprintf(im, sizeof(im), "If-Match: %s", created_tag);
    r = call(&writer_a, "PATCH", "/v1/gpus/lab-gpu", "application/merge-patch+json",
             "{\"name\":\"Lab GPU B\"}", AUTH, im);
    expect_status(&r, 200);
    assert_string_not_equal(r.etag, created_tag);
    free(r.body);
    /* the same stale tag again: refused, nothing written */
    r = call(&writer_a, "PATCH", "/v1/gpus/lab-gpu", "application/merge-patch+json",
             "{\"name\":\"lost\"}", AUTH, im);
    expect_status(&r, 412);
    free(r.body);
    r = call(&writer_a, "GET", "/v1/gpus/lab-gpu", NULL, NULL, NULL, NULL);
    body = parse(&r);
    assert_string_equal(json_string_value(json_object_get(body, "name")), "Lab GPU B");
    json_decref(body);
    free(r.body);
}

/* A price change through PATCH is a history row and the current price. */
static void test_price_history(void **state)
{
    (void)state;
    struct reply r = call(&writer_a, "PATCH", "/v1/gpus/lab-gpu", "application/json",
                          "{\"price_per_hour\":1.8,\"price_source\":\"quote\","
                          "\"price_date\":\"2026-10-01\"}",
                          AUTH, NULL);
    expect_status(&r, 200);
    free(r.body);
    r = call(&writer_a, "POST", "/v1/gpus/lab-gpu/prices", "application/json",
             "{\"kind\":\"on_demand\",\"usd\":1.6,\"effective_date\":\"2026-11-01\","
             "\"source\":\"new quote\"}",
             AUTH, NULL);
    expect_status(&r, 201);
    json_t *body = parse(&r);
    json_t *items = json_object_get(body, "items");
    assert_int_equal(json_array_size(items), 2);
    assert_true(json_is_true(json_object_get(json_array_get(items, 1), "current")));
    json_decref(body);
    free(r.body);
    r = call(&writer_a, "GET", "/v1/gpus/lab-gpu", NULL, NULL, NULL, NULL);
    body = parse(&r);
    assert_true(json_real_value(json_object_get(body, "price_per_hour")) == 1.6);
    assert_string_equal(json_string_value(json_object_get(body, "price_date")), "2026-11-01");
    json_decref(body);
    free(r.body);
    /* paged (issue 33: the history was unpaged): one price a page, the next page named */
    r = call(&writer_a, "GET", "/v1/gpus/lab-gpu/prices?limit=1", NULL, NULL, NULL, NULL);
    expect_status(&r, 200);
    body = parse(&r);
    assert_int_equal(json_array_size(json_object_get(body, "items")), 1);
    assert_int_equal(json_integer_value(json_object_get(body, "total")), 2);
    assert_int_equal(json_integer_value(json_object_get(body, "next_offset")), 1);
    assert_string_equal(r.total_count, "2");
    json_decref(body);
    free(r.body);
    r = call(&writer_a, "GET", "/v1/gpus/lab-gpu/prices?limit=1&offset=1", NULL, NULL, NULL, NULL);
    body = parse(&r);
    assert_true(json_is_true(json_object_get(json_array_get(json_object_get(body, "items"), 0),
                                             "current")));
    assert_null(json_object_get(body, "next_offset"));
    json_decref(body);
    free(r.body);
    r = call(&writer_a, "GET", "/v1/gpus/lab-gpu/prices?page=2", NULL, NULL, NULL, NULL);
    expect_status(&r, 400);
    free(r.body);
}

/* Polls `s` until GET path answers `status` (another process wrote it):
 * for `seconds` times test_server_time_factor(). */
static bool eventually(const struct test_server *s, const char *path, long status, int seconds)
{
    for (int i = 0; i < seconds * 20 * test_server_time_factor(); i++) {
        struct reply r = call(s, "GET", path, NULL, NULL, NULL, NULL);
        free(r.body);
        if (r.status == status)
            return true;
        usleep(50000);
    }
    return false;
}

struct client {
    int index;
    int increments;   /* acknowledged (200) increments of the shared counter */
    int created;      /* acknowledged creations of its own GPUs */
    int errors;
};

/* Reads the counter GPU's tdp_watts and tag through `s`. */
static bool read_counter(const struct test_server *s, long long *value, char *etag, size_t cap)
{
    struct reply r = call(s, "GET", "/v1/gpus/counter-gpu", NULL, NULL, NULL, NULL);
    bool ok = r.status == 200;
    if (ok) {
        json_t *body = json_loadb(r.body, r.length, 0, NULL);
        ok = body != NULL;
        if (ok)
            *value = json_integer_value(json_object_get(body, "tdp_watts"));
        json_decref(body);
        snprintf(etag, cap, "%s", r.etag);
    }
    free(r.body);
    return ok;
}

/* The many-writers workload: 6 clients of 10 rounds each, unless
 * GPUSIZER_TEST_WRITER_CLIENTS (2-6) and GPUSIZER_TEST_WRITER_ROUNDS (1-10)
 * ask for less, for a server slowed by instrumentation: each write and each
 * process's catalog refresh is 20-50 times slower under memcheck (when a
 * write still rebuilt the whole catalog view, 60 contended If-Match
 * increments starved a client for over a minute there). */
static int workload(const char *name, int most, int least)
{
    const char *v = getenv(name);
    const int n = v != NULL ? atoi(v) : most;
    return n < least ? least : n > most ? most : n;
}

static int rounds;

/* Each client alternates between the two server processes: it creates GPUs
 * of its own and increments the shared counter with If-Match, re-reading and
 * retrying on 412. */
static void *client_loop(void *arg)
{
    struct client *c = arg;
    for (int i = 0; i < rounds; i++) {
        const struct test_server *s = (i + c->index) % 2 ? &writer_a : &writer_b;
        char path[64], body[256];
        snprintf(path, sizeof(path), "/v1/gpus/c%d-gpu-%d", c->index, i);
        snprintf(body, sizeof(body),
                 "{\"name\":\"client %d GPU %d\",\"vendor\":\"Acme\",\"memory_bytes\":%d000000000,"
                 "\"memory_source\":\"test\"}",
                 c->index, i, 16 + i);
        struct reply r = call(s, "PUT", path, "application/json", body, AUTH, NULL);
        if (r.status == 201) {
            c->created++;
        } else {
            c->errors++;
            print_message("client %d: PUT %s: %ld %.300s\n", c->index, path, r.status,
                          r.body != NULL ? r.body : "");
        }
        free(r.body);
        bool done = false;
        const time_t give_up = time(NULL) + 60;
        while (!done && time(NULL) < give_up) {
            long long value = 0;
            char etag[64], im[96], patch[96];
            if (!read_counter(s, &value, etag, sizeof(etag))) {
                c->errors++;
                print_message("client %d: reading the counter failed\n", c->index);
                break;
            }
            snprintf(im, sizeof(im), "If-Match: %s", etag);
            snprintf(patch, sizeof(patch), "{\"tdp_watts\":%lld}", value + 1);
            r = call(s, "PATCH", "/v1/gpus/counter-gpu", "application/merge-patch+json", patch, AUTH,
                     im);
            if (r.status == 200) {
                c->increments++;
                done = true;
            } else if (r.status != 412) {
                c->errors++;
                print_message("client %d: PATCH counter: %ld %.300s\n", c->index, r.status,
                              r.body != NULL ? r.body : "");
                done = true;
            } else {
                usleep(1000 + (unsigned)(rand() % 10000)); /* another writer won: read again */
            }
            free(r.body);
        }
        if (!done) {
            c->errors++; /* starved for a minute: a failure, not a pass */
            print_message("client %d: starved for a minute\n", c->index);
        }
    }
    return NULL;
}

static void test_two_processes_many_writers(void **state)
{
    (void)state;
    struct reply r = call(&writer_a, "PUT", "/v1/gpus/counter-gpu", "application/json",
                          "{\"name\":\"Counter\",\"vendor\":\"Acme\",\"memory_bytes\":1000000000,"
                          "\"memory_source\":\"test\",\"tdp_watts\":1,\"spec_source\":\"counter\"}",
                          AUTH, NULL);
    expect_status(&r, 201);
    free(r.body);
    /* the other process sees it once it notices the file changed */
    assert_true(eventually(&writer_b, "/v1/gpus/counter-gpu", 200, 5));

    enum { MOST_CLIENTS = 6 };
    const int CLIENTS = workload("GPUSIZER_TEST_WRITER_CLIENTS", MOST_CLIENTS, 2);
    rounds = workload("GPUSIZER_TEST_WRITER_ROUNDS", 10, 1);
    if (CLIENTS < MOST_CLIENTS || rounds < 10)
        print_message("a lighter workload: %d clients of %d rounds\n", CLIENTS, rounds);
    pthread_t threads[MOST_CLIENTS];
    struct client clients[MOST_CLIENTS];
    for (int i = 0; i < CLIENTS; i++) {
        clients[i] = (struct client){i, 0, 0, 0};
        assert_int_equal(pthread_create(&threads[i], NULL, client_loop, &clients[i]), 0);
    }
    int increments = 0, created = 0;
    for (int i = 0; i < CLIENTS; i++) {
        pthread_join(threads[i], NULL);
        assert_int_equal(clients[i].errors, 0);
        increments += clients[i].increments;
        created += clients[i].created;
    }
    assert_int_equal(increments, CLIENTS * rounds);
    assert_int_equal(created, CLIENTS * rounds);
    /* every acknowledged increment is in the file, as both processes see it */
    long long value = 0;
    char etag[64];
    char last[64];
    snprintf(last, sizeof(last), "/v1/gpus/c%d-gpu-%d", CLIENTS - 1, rounds - 1);
    assert_true(eventually(&writer_b, last, 200, 5));
    for (int tries = 0; tries < 60 * test_server_time_factor(); tries++) {
        assert_true(read_counter(&writer_b, &value, etag, sizeof(etag)));
        if (value == 1 + increments)
            break;
        usleep(50000);
    }
    assert_int_equal(value, 1 + increments);
    for (int tries = 0; tries < 60 * test_server_time_factor(); tries++) {
        assert_true(read_counter(&writer_a, &value, etag, sizeof(etag)));
        if (value == 1 + increments)
            break;
        usleep(50000);
    }
    assert_int_equal(value, 1 + increments);
    r = call(&writer_a, "GET", "/v1/gpus?q=c1-gpu&limit=100", NULL, NULL, NULL, NULL);
    json_t *body = parse(&r);
    assert_int_equal(json_integer_value(json_object_get(body, "total")), rounds);
    json_decref(body);
    free(r.body);
}

/* DELETE, then the entry is gone for both processes. */
static void test_delete(void **state)
{
    (void)state;
    struct reply r = call(&writer_b, "DELETE", "/v1/gpus/labby", NULL, NULL, AUTH, NULL);
    expect_status(&r, 204);
    free(r.body);
    r = call(&writer_b, "GET", "/v1/gpus/lab-gpu", NULL, NULL, NULL, NULL);
    expect_status(&r, 404);
    free(r.body);
    assert_true(eventually(&writer_a, "/v1/gpus/lab-gpu", 404, 5));
    r = call(&writer_a, "DELETE", "/v1/gpus/lab-gpu", NULL, NULL, AUTH, NULL);
    expect_status(&r, 404);
    free(r.body);
}

/* GET `path` from `s`: 200 and a JSON body, returned. */
json_t *get_json(const struct test_server *s, const char *path)
{
    struct reply r = call(s, "GET", path, NULL, NULL, NULL, NULL);
    expect_status(&r, 200);
    json_t *v = parse(&r);
    free(r.body);
    return v;
}

/* Unified memory (migration 0008): the DGX Spark's GB10 is seeded with it, a
 * discrete GPU leaves it null, writing it needs usable_memory_source (its
 * citation), CSV carries true/false, and a serving estimate on such a GPU
 * warns that the engine's share must be free in host memory. */
static void test_unified_memory(void **state)
{
    (void)state;
    json_t *g = get_json(&writer_a, "/v1/gpus/dgx-spark");
    assert_true(json_is_true(json_object_get(g, "unified_memory")));
    assert_int_equal(json_integer_value(json_object_get(g, "usable_memory_bytes")), 130663642562LL);
    json_decref(g);
    g = get_json(&writer_a, "/v1/gpus/h100-sxm-80gb");
    assert_true(json_is_null(json_object_get(g, "unified_memory")));
    json_decref(g);
    /* migration 0009: the Jetson AGX Thor is unified (125748 MiB x 2^20); a
     * GH200's GPU has its own HBM, stated false (floor(95.00 x 2^30)) */
    g = get_json(&writer_a, "/v1/gpus/jetson-agx-thor");
    assert_true(json_is_true(json_object_get(g, "unified_memory")));
    assert_int_equal(json_integer_value(json_object_get(g, "usable_memory_bytes")), 131856334848LL);
    json_decref(g);
    g = get_json(&writer_a, "/v1/gpus/gh200-480gb");
    assert_true(json_is_false(json_object_get(g, "unified_memory")));
    assert_int_equal(json_integer_value(json_object_get(g, "usable_memory_bytes")), 102005473280LL);
    json_decref(g);

    static const char uncited[] =
        "{\"name\":\"Lab SoC\",\"vendor\":\"Acme\",\"memory_bytes\":64000000000,"
        "\"memory_source\":\"lab\",\"unified_memory\":true}";
    struct reply r = call(&writer_a, "PUT", "/v1/gpus/lab-soc", "application/json", uncited, AUTH, NULL);
    expect_status(&r, 400);
    assert_non_null(strstr(r.body, "/usable_memory_source"));
    free(r.body);
    static const char cited[] =
        "{\"name\":\"Lab SoC\",\"vendor\":\"Acme\",\"memory_bytes\":64000000000,"
        "\"memory_source\":\"lab\",\"usable_memory_bytes\":60000000000,"
        "\"usable_memory_source\":\"lab driver\",\"unified_memory\":true}";
    r = call(&writer_a, "PUT", "/v1/gpus/lab-soc", "application/json", cited, AUTH, NULL);
    assert_true(r.status == 200 || r.status == 201);
    free(r.body);
    r = call(&writer_a, "GET", "/v1/gpus?format=csv", NULL, NULL, NULL, NULL);
    expect_status(&r, 200);
    /* the column comes after aliases, so earlier columns keep their places (the two
     * scale-out columns of 0013 and the two SM-count columns of 0015 follow it, empty here) */
    assert_non_null(strstr(r.body, ",aliases,unified_memory,"));
    const char *row = strstr(r.body, "\nlab-soc,");
    assert_non_null(row);
    const char *eol = strchr(row + 1, '\n');
    assert_non_null(eol);
    assert_true(eol - row > 10 && strncmp(eol - (eol[-1] == '\r' ? 10 : 9), ",true,,,,", 9) == 0);
    free(r.body);

    static const char serving[] =
        "{\"model\":\"llama-3.1-8b\",\"gpu\":\"dgx-spark\",\"inference\":{\"engine\":\"vllm\","
        "\"context_length\":8192,\"batch_size\":4}}";
    r = call(&writer_a, "POST", "/v1/estimate", "application/json", serving, NULL, NULL);
    expect_status(&r, 200);
    json_t *estimate = parse(&r);
    free(r.body);
    bool warned = false;
    size_t i;
    const json_t *w;
    json_array_foreach(json_object_get(estimate, "warnings"), i, w) {
        warned = warned || strcmp(json_string_value(json_object_get(w, "code")), "unified_memory") == 0;
    }
    json_decref(estimate);
    assert_true(warned);
    r = call(&writer_a, "DELETE", "/v1/gpus/lab-soc", NULL, NULL, AUTH, NULL);
    expect_status(&r, 204);
    free(r.body);
}

/* The CSV line of GPU `id` in an export, without its line end (a new string), or NULL. */
char *csv_line(const char *csv, const char *id)
{
    char key[80];
    snprintf(key, sizeof(key), "\n%s,", id);
    const char *row = strstr(csv, key);
    if (row == NULL)
        return NULL;
    row++;
    size_t n = strcspn(row, "\r\n");
    return strndup(row, n);
}

/* A copy of the seed H100 under `id`, with the scale-out figure `gb_s` (0: none),
 * written with PUT. */
static void put_h100_copy(const char *id, double gb_s)
{
    json_t *g = get_json(&writer_a, "/v1/gpus/h100-sxm-80gb");
    json_object_set_new(g, "name", json_string(id));
    json_object_set_new(g, "aliases", json_array());
    json_object_del(g, "id");
    json_object_set_new(g, "scale_out_gb_s", gb_s > 0 ? json_real(gb_s) : json_null());
    json_object_set_new(g, "scale_out_source", gb_s > 0 ? json_string("test") : json_null());
    char *body = json_dumps(g, JSON_COMPACT);
    json_decref(g);
    char path[96];
    snprintf(path, sizeof(path), "/v1/gpus/%s", id);
    struct reply r = call(&writer_a, "PUT", path, "application/json", body, AUTH, NULL);
    free(body);
    expect_status(&r, 201);
    free(r.body);
}

static double metrics_value(const char *series)
{
    struct reply r = call(&writer_a, "GET", "/metrics", NULL, NULL, NULL, NULL);
    expect_status(&r, 200);
    const char *at = strstr(r.body, series);
    const double v = at != NULL ? strtod(at + strlen(series), NULL) : -1;
    free(r.body);
    return v;
}

/* The answer cache (server/api/answer_cache.h): the same /v1/recommend body twice
 * is answered with the same bytes, the second from the cache; after a price
 * write the next answer uses the new price (each catalog view has its own
 * cache), and a body written differently is computed, never mixed up. */
static void test_answers_follow_prices(void **state)
{
    (void)state;
    put_h100_copy("cache-gpu", 0);
    struct reply r = call(&writer_a, "PATCH", "/v1/gpus/cache-gpu", "application/merge-patch+json",
                          "{\"price_per_hour\":2,\"price_source\":\"quote\","
                          "\"price_date\":\"2026-11-24\"}",
                          AUTH, NULL);
    expect_status(&r, 200);
    free(r.body);
    static const char request[] =
        "{\"model\":\"llama-3.1-8b\",\"inference\":{\"context_length\":8192},"
        "\"demand\":{\"output_tokens_per_s\":20000,\"prompt_tokens\":1000,\"output_tokens\":200},"
        "\"constraints\":{\"gpus\":[\"cache-gpu\"]}}";
    const char *hit = "gpusizer_answer_cache_total{result=\"hit\"} ";
    const char *miss = "gpusizer_answer_cache_total{result=\"miss\"} ";
    const double hits0 = metrics_value(hit), misses0 = metrics_value(miss);
    struct reply first = call(&writer_a, "POST", "/v1/recommend", "application/json", request, NULL, NULL);
    struct reply again = call(&writer_a, "POST", "/v1/recommend", "application/json", request, NULL, NULL);
    expect_status(&first, 200);
    expect_status(&again, 200);
    assert_string_equal(first.body, again.body);
    assert_true(metrics_value(miss) == misses0 + 1);
    assert_true(metrics_value(hit) == hits0 + 1);
    json_t *answer = parse(&first);
    const json_t *option = json_array_get(json_object_get(answer, "options"), 0);
    assert_true(json_number_value(json_object_get(option, "price_per_gpu_hour")) == 2);
    const double gpus = (double)json_integer_value(json_object_get(option, "gpu_count"));
    assert_true(gpus >= 1);
    assert_true(json_number_value(json_object_get(option, "cost_per_hour")) == 2 * gpus);
    json_decref(answer);
    free(first.body);
    free(again.body);

    r = call(&writer_a, "PATCH", "/v1/gpus/cache-gpu", "application/merge-patch+json",
             "{\"price_per_hour\":3,\"price_source\":\"new quote\",\"price_date\":\"2026-11-24\"}",
             AUTH, NULL);
    expect_status(&r, 200);
    free(r.body);
    r = call(&writer_a, "POST", "/v1/recommend", "application/json", request, NULL, NULL);
    expect_status(&r, 200);
    answer = parse(&r);
    free(r.body);
    option = json_array_get(json_object_get(answer, "options"), 0);
    assert_true(json_number_value(json_object_get(option, "price_per_gpu_hour")) == 3);
    assert_true(json_number_value(json_object_get(option, "cost_per_hour")) == 3 * gpus);
    json_decref(answer);

    /* the same request with a space more is another key: computed, and the same answer */
    char spaced[sizeof(request) + 1];
    snprintf(spaced, sizeof(spaced), " %s", request);
    const double misses1 = metrics_value(miss);
    struct reply a = call(&writer_a, "POST", "/v1/recommend", "application/json", request, NULL, NULL);
    struct reply b = call(&writer_a, "POST", "/v1/recommend", "application/json", spaced, NULL, NULL);
    expect_status(&b, 200);
    assert_string_equal(a.body, b.body);
    assert_true(metrics_value(miss) == misses1 + 1);
    free(a.body);
    free(b.body);
    r = call(&writer_a, "DELETE", "/v1/gpus/cache-gpu", NULL, NULL, AUTH, NULL);
    expect_status(&r, 204);
    free(r.body);
}

/* Scale-out bandwidth (migration 0013): seeded from the vendor's reference
 * node (DGX H100: 8 x 400 Gb/s for 8 GPUs = 50 GB/s), null for a PCIe card,
 * cited in `sources`; written with PUT and PATCH, read back, carried by the
 * CSV export and import; refused without its source; and used by the plan
 * search: an H100 whose nodes have one 50 Gb/s (6.25 GB/s) link per GPU trains
 * across two nodes with a lower comm_factor than with none given (the
 * NVSwitch default, 400 Gb/s) or with 50 GB/s given, which two agree. */
static void test_scale_out(void **state)
{
    (void)state;
    json_t *g = get_json(&writer_a, "/v1/gpus/h100");
    assert_true(json_number_value(json_object_get(g, "scale_out_gb_s")) == 50);
    const char *src = json_string_value(json_object_get(g, "scale_out_source"));
    assert_non_null(src);
    assert_non_null(strstr(src, "DGX H100"));
    const json_t *cited = json_object_get(json_object_get(g, "sources"), "scale_out_gb_s");
    assert_true(json_is_string(cited) && strcmp(json_string_value(cited), src) == 0);
    json_decref(g);
    g = get_json(&writer_a, "/v1/gpus/l4");
    assert_true(json_is_null(json_object_get(g, "scale_out_gb_s")));
    assert_true(json_is_null(json_object_get(g, "scale_out_source")));
    json_decref(g);

    static const char uncited[] =
        "{\"name\":\"Lab Net\",\"vendor\":\"Acme\",\"memory_bytes\":64000000000,"
        "\"memory_source\":\"lab\",\"scale_out_gb_s\":12.5}";
    struct reply r =
        call(&writer_a, "PUT", "/v1/gpus/lab-net", "application/json", uncited, AUTH, NULL);
    expect_status(&r, 400);
    assert_non_null(strstr(r.body, "/scale_out_source"));
    free(r.body);
    r = call(&writer_a, "GET", "/v1/gpus/lab-net", NULL, NULL, NULL, NULL);
    expect_status(&r, 404);
    free(r.body);
    static const char with_source[] =
        "{\"name\":\"Lab Net\",\"vendor\":\"Acme\",\"memory_bytes\":64000000000,"
        "\"memory_source\":\"lab\",\"scale_out_gb_s\":12.5,"
        "\"scale_out_source\":\"lab rack: one 100 Gb/s NIC per GPU\"}";
    r = call(&writer_a, "PUT", "/v1/gpus/lab-net", "application/json", with_source, AUTH, NULL);
    expect_status(&r, 201);
    free(r.body);
    g = get_json(&writer_a, "/v1/gpus/lab-net");
    assert_true(json_number_value(json_object_get(g, "scale_out_gb_s")) == 12.5);
    assert_string_equal(json_string_value(json_object_get(g, "scale_out_source")),
                        "lab rack: one 100 Gb/s NIC per GPU");
    json_decref(g);

    /* PATCH: a new figure keeps its source; dropping the source alone is refused */
    r = call(&writer_a, "PATCH", "/v1/gpus/lab-net", "application/merge-patch+json",
             "{\"scale_out_gb_s\":25}", AUTH, NULL);
    expect_status(&r, 200);
    free(r.body);
    r = call(&writer_a, "PATCH", "/v1/gpus/lab-net", "application/merge-patch+json",
             "{\"scale_out_source\":null}", AUTH, NULL);
    expect_status(&r, 400);
    assert_non_null(strstr(r.body, "/scale_out_source"));
    free(r.body);
    g = get_json(&writer_a, "/v1/gpus/lab-net");
    assert_true(json_number_value(json_object_get(g, "scale_out_gb_s")) == 25);
    json_decref(g);

    /* CSV: the two columns come after unified_memory (0015's SM count last); the export
     * carries them, an import writes them */
    r = call(&writer_a, "GET", "/v1/gpus?format=csv", NULL, NULL, NULL, NULL);
    expect_status(&r, 200);
    assert_non_null(strstr(r.body, ",unified_memory,scale_out_gb_s,scale_out_source,sm_count,"
                                   "sm_count_source\r\n"));
    char *line = csv_line(r.body, "lab-net");
    assert_non_null(line);
    assert_non_null(strstr(line, ",25,lab rack: one 100 Gb/s NIC per GPU,"));
    free(line);
    line = csv_line(r.body, "l4"); /* no scale-out figure; 58 SMs */
    assert_non_null(line);
    assert_non_null(strstr(line, ",,,58,"));
    free(line);
    free(r.body);
    r = call(&writer_a, "POST", "/v1/gpus:bulk", "text/csv",
             "id,scale_out_gb_s,scale_out_source\r\nlab-net,6.25,csv import\r\n", AUTH, NULL);
    expect_status(&r, 200);
    free(r.body);
    g = get_json(&writer_a, "/v1/gpus/lab-net");
    assert_true(json_number_value(json_object_get(g, "scale_out_gb_s")) == 6.25);
    assert_string_equal(json_string_value(json_object_get(g, "scale_out_source")), "csv import");
    json_decref(g);
    r = call(&writer_a, "POST", "/v1/gpus:bulk", "text/csv",
             "id,scale_out_gb_s,scale_out_source\r\nlab-net,3,\r\n", AUTH, NULL);
    expect_status(&r, 400);
    assert_non_null(strstr(r.body, "/0/scale_out_source"));
    free(r.body);
    r = call(&writer_a, "DELETE", "/v1/gpus/lab-net", NULL, NULL, AUTH, NULL);
    expect_status(&r, 204);
    free(r.body);

    /* the plan search: Llama 3.1 8B, 1e11 tokens in 10 days needs two 8-GPU nodes */
    put_h100_copy("lab-net-default", 0);
    put_h100_copy("lab-net-50", 50);
    put_h100_copy("lab-net-6", 6.25);
    static const char recommend[] =
        "{\"model\":\"llama-3.1-8b\",\"mode\":\"training\",\"training\":{\"sequence_length\":4096},"
        "\"demand\":{\"training_tokens\":1e11,\"deadline_days\":10},"
        "\"constraints\":{\"gpus\":[\"lab-net-default\",\"lab-net-50\",\"lab-net-6\"]}}";
    r = call(&writer_a, "POST", "/v1/recommend", "application/json", recommend, NULL, NULL);
    expect_status(&r, 200);
    json_t *answer = parse(&r);
    free(r.body);
    static const char *const copies[] = {"lab-net-default", "lab-net-50", "lab-net-6"};
    double comm[3] = {-1, -1, -1};
    json_int_t nodes[3] = {0, 0, 0}, dp_bytes[3] = {0, 0, 0};
    size_t i;
    const json_t *o;
    json_array_foreach(json_object_get(answer, "options"), i, o) {
        const char *id = json_string_value(json_object_get(o, "gpu"));
        const json_t *speed = json_object_get(o, "throughput");
        assert_true(json_integer_value(json_object_get(o, "nodes")) >= 2);
        for (size_t k = 0; k < 3; k++)
            if (strcmp(id, copies[k]) == 0) {
                comm[k] = json_number_value(json_object_get(speed, "comm_factor"));
                nodes[k] = json_integer_value(json_object_get(o, "nodes"));
                dp_bytes[k] = json_integer_value(
                    json_object_get(speed, "data_parallel_bytes_per_step"));
            }
    }
    json_decref(answer);
    assert_true(comm[0] > 0 && comm[1] > 0);
    assert_true(comm[0] == comm[1]);
    /* 6.25 GB/s a GPU: the deadline now takes many more nodes, over which the search pipelines
     * the model to send less across the slow network (a bubble it pays for in GPUs) */
    assert_true(comm[2] > 0);
    assert_true(nodes[2] > 2 * nodes[1]);
    assert_true(dp_bytes[2] > 0 && dp_bytes[2] < dp_bytes[1]);
    for (size_t k = 0; k < 3; k++) {
        char path[96];
        snprintf(path, sizeof(path), "/v1/gpus/%s", copies[k]);
        r = call(&writer_a, "DELETE", path, NULL, NULL, AUTH, NULL);
        expect_status(&r, 204);
        free(r.body);
    }
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s /path/to/gpusizer\n", argv[0]);
        return 2;
    }
    binary = argv[1];
    srand((unsigned)time(NULL));
    curl_global_init(CURL_GLOBAL_DEFAULT);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_writes_need_the_key),
        cmocka_unit_test(test_entity_tags),
        cmocka_unit_test(test_price_history),
        cmocka_unit_test(test_two_processes_many_writers),
        cmocka_unit_test(test_delete),
        cmocka_unit_test(test_unified_memory),
        cmocka_unit_test(test_names_people_type),
        cmocka_unit_test(test_scale_out),
        cmocka_unit_test(test_answers_follow_prices),
        cmocka_unit_test(test_csv_formula_injection),
        cmocka_unit_test(test_price_validation),
        cmocka_unit_test(test_price_round_trip),
        cmocka_unit_test(test_csv_cells),
        cmocka_unit_test(test_gzip_and_listing_tags),
        cmocka_unit_test(test_noop_writes_keep_etags),
        cmocka_unit_test(test_csv_export_is_complete),
    };
    int failed = cmocka_run_group_tests_name("sqlite", tests, setup, teardown);
    failed += cmocka_run_group_tests_name("postgresql", tests, setup_pg, teardown_pg);
    curl_global_cleanup();
    return failed + test_server_failures(); /* a failed teardown alone exits 0 */
}
