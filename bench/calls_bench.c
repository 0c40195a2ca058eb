/*
 * calls_bench.c - the cost of one call of each API operation, for
 * bench/callgrind.sh (a benchmark program, not a test).
 *
 *   gs_bench_calls list
 *   gs_bench_calls CASE CALLS [ROUNDS] [CATALOG]
 *
 * Builds (or opens) the seeded catalog, makes one warm-up call of CASE
 * outside the measured code, then runs bench_measured(): CALLS calls,
 * ROUNDS times (default 1), and prints nanoseconds per call (best and
 * median round). Under `valgrind --tool=callgrind --toggle-collect=bench_measured`
 * the instructions counted are those of the CALLS calls only, so Ir / CALLS
 * is the cost of one call, repeatable on a shared machine.
 *
 * Cases: estimate-serving-core and estimate-training-core time
 * gs_estimate_compute alone (the request decoded once, up front);
 * estimate-serving, estimate-training, fit and recommend time what the
 * server does for the POST body apart from HTTP: parse the body text
 * (json_load_lenient), decode, compute, encode the response
 * (json_out_dumps, as the server does) and free it. The requests are the ones
 * bench/compare.sh sends.
 */
#include "catalog.h"
#include "api/codec.h"
#include "formats/json_out.h"
#include "gs/estimate.h"
#include "formats/json_lenient.h"
#include "formats/problem.h"
#include "api/service.h"
#include "api/sizing.h"

#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef enum gs_status (*operation)(const struct service *, const json_t *, json_t **,
                                    struct problem *);
typedef enum gs_status (*text_operation)(const struct service *, const json_t *, char **,
                                         size_t *, struct problem *);

#define SERVING                                                                                    \
    "{\"model\":\"llama-3.1-70b\",\"gpu\":\"h100\",\"inference\":{\"batch_size\":32,"             \
    "\"context_length\":8192}}"
#define TRAINING                                                                                   \
    "{\"model\":\"llama-3.1-70b\",\"mode\":\"training\",\"training\":{\"batch_size\":1,"          \
    "\"sequence_length\":4096,\"activation_checkpointing\":\"selective\"},\"parallelism\":"        \
    "{\"tensor\":8,\"pipeline\":4,\"data\":4,\"sequence_parallel\":true,\"zero_stage\":1},"      \
    "\"gpu\":\"h100\"}"
#define FIT                                                                                        \
    "{\"model\":\"llama-3.1-70b\",\"gpu\":\"h100\",\"inference\":{\"batch_size\":32,"             \
    "\"context_length\":8192}}"
#define RECOMMEND                                                                                  \
    "{\"model\":\"llama-3.1-70b\",\"inference\":{\"context_length\":8192},\"demand\":"            \
    "{\"output_tokens_per_s\":5000,\"prompt_tokens\":2000,\"output_tokens\":500},"               \
    "\"constraints\":{\"allow\":{\"quantization\":true},\"max_cost_per_hour\":200}}"

struct bench_case {
    const char *name;
    const char *request;
    operation op;        /* the answer as a tree, dumped as the server does */
    text_operation text; /* the answer written as text (the server's /v1/fit, /v1/recommend) */
};

static const struct bench_case cases[] = {
    {"estimate-serving-core", SERVING, NULL, NULL}, /* gs_estimate_compute alone */
    {"estimate-training-core", TRAINING, NULL, NULL},
    {"estimate-serving", SERVING, NULL, service_estimate_text},
    {"estimate-training", TRAINING, NULL, service_estimate_text},
    {"fit", FIT, NULL, sizing_fit_text},
    {"recommend", RECOMMEND, NULL, sizing_recommend_text},
};

static const struct bench_case *the_case;
static const struct service *the_service;
static struct estimate_request decoded;
static volatile uint64_t sink;

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* One call: the whole operation, or the core estimate alone. */
static void one_call(void)
{
    if (the_case->op == NULL && the_case->text == NULL) {
        struct gs_estimate e;
        if (gs_estimate_compute(&decoded.model, &decoded.workload, &e, NULL) != GS_OK) {
            fprintf(stderr, "gs_bench_calls: %s failed\n", the_case->name);
            exit(1);
        }
        sink += e.per_gpu.total_bytes;
        return;
    }
    json_error_t jerr;
    const size_t length = strlen(the_case->request);
    json_t *request = json_load_lenient(the_case->request, length, JSON_REJECT_DUPLICATES, &jerr);
    json_t *response = NULL;
    struct problem p;
    problem_init(&p);
    size_t text_length = 0;
    char *text = NULL;
    if (request == NULL ||
        (the_case->text != NULL
             ? the_case->text(the_service, request, &text, &text_length, &p)
             : the_case->op(the_service, request, &response, &p)) != 0) {
        fprintf(stderr, "gs_bench_calls: %s: %d %s\n", the_case->name, p.status, p.title);
        exit(1);
    }
    if (text == NULL)
        text = json_out_dumps(response, &text_length); /* as the server writes answers */
    if (text == NULL)
        exit(1);
    sink += text_length;
    free(text);
    json_decref(response);
    json_decref(request);
}

/* The code callgrind counts (--toggle-collect=bench_measured). */
__attribute__((noinline)) void bench_measured(long calls);
__attribute__((noinline)) void bench_measured(long calls)
{
    for (long i = 0; i < calls; i++)
        one_call();
}

static int compare(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "list") == 0) {
        for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++)
            printf("%s\n", cases[c].name);
        return 0;
    }
    if (argc < 3 || argc > 5) {
        fprintf(stderr, "usage: gs_bench_calls list | CASE CALLS [ROUNDS] [CATALOG]\n");
        return 2;
    }
    for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++)
        if (strcmp(argv[1], cases[c].name) == 0)
            the_case = &cases[c];
    const long calls = strtol(argv[2], NULL, 10);
    int rounds = argc > 3 ? atoi(argv[3]) : 1;
    if (the_case == NULL || calls < 0 || rounds < 1 || rounds > 1000) {
        fprintf(stderr, "gs_bench_calls: unknown case or bad count (try: gs_bench_calls list)\n");
        return 2;
    }

    char dir[] = "/tmp/gs-bench-XXXXXX", path[64];
    const char *db = argc > 4 ? argv[4] : NULL;
    if (db == NULL) {
        if (mkdtemp(dir) == NULL)
            return 1;
        snprintf(path, sizeof(path), "%s/catalog.db", dir);
        db = path;
    }
    struct catalog *catalog = NULL;
    struct catalog_snapshot *snap = NULL;
    struct service *service = NULL;
    if (catalog_open(db, &catalog, NULL) != GS_OK ||
        catalog_snapshot_load(catalog, &snap, NULL) != GS_OK ||
        service_create(snap, &service, NULL) != GS_OK) {
        fprintf(stderr, "gs_bench_calls: cannot open the catalog %s\n", db);
        return 1;
    }
    the_service = service;
    json_t *request = NULL; /* kept while `decoded` is used */
    if (the_case->op == NULL && the_case->text == NULL) {
        request = json_loads(the_case->request, 0, NULL);
        struct codec_arch_table archs;
        service_arch_table(service, &archs);
        struct gs_error err;
        gs_error_init(&err);
        if (request == NULL ||
            codec_decode_estimate(request, service_snapshot(service), &archs, &decoded, &err) !=
                GS_OK) {
            fprintf(stderr, "gs_bench_calls: cannot decode %s\n", the_case->request);
            return 1;
        }
    }

    one_call(); /* warm-up, not counted */
    double *per_call = calloc((size_t)rounds, sizeof(*per_call));
    if (per_call == NULL)
        return 1;
    for (int r = 0; r < rounds; r++) {
        const double start = now_ns();
        bench_measured(calls);
        per_call[r] = calls > 0 ? (now_ns() - start) / (double)calls : 0;
    }
    qsort(per_call, (size_t)rounds, sizeof(*per_call), compare);
    printf("%s calls=%ld rounds=%d best_ns=%.0f median_ns=%.0f\n", the_case->name, calls, rounds,
           per_call[0], per_call[rounds / 2]);
    free(per_call);

    json_decref(request);
    service_free(service);
    catalog_close(catalog);
    if (db == path) {
        char file[96];
        const char *suffixes[] = {"", "-wal", "-shm"};
        for (int i = 0; i < 3; i++) {
            snprintf(file, sizeof(file), "%s%s", path, suffixes[i]);
            unlink(file);
        }
        rmdir(dir);
    }
    return sink == 42 ? 1 : 0;
}
