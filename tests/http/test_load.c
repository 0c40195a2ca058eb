/*
 * test_load.c - a bounded mixed load on a real server over loopback (issue 17):
 * reader connections send estimates (serving and training), fits,
 * recommendations over the whole catalog, listings and single entries, on
 * keep-alive connections, while writer connections PATCH prices, add price
 * history and create/delete entries at about 5% of all requests.
 *
 * Checks: no unexpected status (no 5xx, no 412 for unconditional writes, no
 * transport error); every acknowledged write is what the catalog serves at the
 * end; the server's resident memory after warm-up stays within a stated bound
 * (RSS_GROWTH_MIB); and reads are not starved by writes: the read rate while
 * writers run is at least READ_SHARE_MIN of the read-only rate measured just
 * before, and the writes reach WRITE_SHARE_MIN of all requests (finding 9:
 * rebuilding the whole catalog view per write cut reads by 58%; here the old
 * code kept writes near 1% and reads at 0.6-0.7 of their rate).
 *
 * GPUSIZER_LOAD_SECONDS sets the mixed phase (default 45; the read-only phase
 * is a third of it). GPUSIZER_LOAD_STRICT=0 keeps the rate and memory checks out
 * (sanitizer and valgrind builds: instrumentation sets the pace, and ASan's
 * quarantine holds freed memory by design).
 * Prints the figures the closing note reports.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "test_files.h"
#include "test_server.h"

#include <curl/curl.h>
#include <jansson.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char *binary;
static struct test_server *running; /* stopped by the teardown when an assertion ends the test */

#define READERS 24
#define WRITERS 4
#define WRITE_PERCENT 5 /* writers hold back to this share of all requests */
#define WRITER_GPUS 4       /* GPUs each writer owns (PATCHed and priced) */
#define RSS_GROWTH_MIB 16   /* after warm-up: glibc arenas and caches settle within this */
/* read rate with writers / without: 0.55-0.85 measured on the 2-core CI machine across runs of
 * one build (the read-only phase alone swings 11-15k reads/s); the old full rebuild per write cut
 * reads by 58% (0.42), which this still fails */
#define READ_SHARE_MIN 0.50
/* Percent of requests the writers must reach. A share, so it falls as reads get cheaper: at
 * ~400-480 writes/s throughout, 3.8-5.0% when reads ran at 8k/s, 2.3-3.0% since the search
 * and encoder changes doubled them (Debug, RelWithDebInfo); since answers are written without
 * jansson trees (reads at 22-26k/s while writing) 1.4-3.4% at 450-820 writes/s. The old full
 * rebuild per write (6 ms of CPU each) held writes to about 1% when reads were a third as
 * fast (80-160 writes/s), under 0.6% at today's reads, so 1.0 still fails it. */
#define WRITE_SHARE_MIN 1.0
#define LATENCY_BUCKETS 2048 /* 0.1 ms each, the last one open */

static const char *const read_bodies[] = {
    "{\"model\":\"llama-3.1-70b\",\"gpu\":\"h100\",\"inference\":{\"batch_size\":32,"
    "\"context_length\":8192}}",
    "{\"model\":\"llama-3.1-70b\",\"mode\":\"training\",\"training\":{\"batch_size\":1,"
    "\"sequence_length\":4096,\"activation_checkpointing\":\"selective\"},\"parallelism\":"
    "{\"tensor\":8,\"pipeline\":4,\"data\":4,\"sequence_parallel\":true,\"zero_stage\":1},"
    "\"gpu\":\"h100\"}",
    "{\"model\":\"llama-3.1-8b\",\"mode\":\"training\",\"precision\":{\"weights\":\"int4\"},"
    "\"training\":{\"optimizer\":\"adamw_8bit\",\"lora\":{\"rank\":16,\"targets\":\"all_linear\"}},"
    "\"parity\":\"deepspeed\"}",
    "{\"model\":\"llama-3.1-70b\",\"gpu\":\"h100\",\"inference\":{\"batch_size\":32,"
    "\"context_length\":8192}}",
    "{\"model\":\"llama-3.1-70b\",\"inference\":{\"context_length\":8192},\"demand\":"
    "{\"output_tokens_per_s\":5000,\"prompt_tokens\":2000,\"output_tokens\":500},"
    "\"constraints\":{\"allow\":{\"quantization\":true},\"max_cost_per_hour\":200}}",
};

/* What a reader sends, by weight out of 20. */
struct read_kind {
    const char *method, *path;
    int body; /* index into read_bodies, -1 for none */
    int weight;
};
static const struct read_kind reads[] = {
    {"POST", "/v1/estimate", 0, 5},
    {"POST", "/v1/estimate", 1, 2},
    {"POST", "/v1/estimate", 2, 2},
    {"POST", "/v1/fit", 3, 3},
    {"POST", "/v1/recommend", 4, 1},
    {"GET", "/v1/gpus", -1, 2},
    {"GET", "/v1/models", -1, 2},
    {"GET", "/v1/gpus/h100-sxm-80gb", -1, 1},
    {"GET", "/v1/models/llama-3.1-8b", -1, 1},
    {"GET", "/v1/models?family=qwen2&sort=-parameters&limit=3", -1, 1},
};

struct shared {
    int port;
    volatile int phase;      /* 0 read-only, 1 mixed, 2 stop (atomic) */
    volatile int writers_go; /* atomic */
    unsigned long mixed_reads, mixed_writes; /* atomic: the writers' pace */
};

struct counts {
    unsigned long reads[3], writes, unexpected, transport;
    unsigned long latency[LATENCY_BUCKETS]; /* reads in the mixed phase */
    char first_error[256];
};

struct worker {
    pthread_t thread;
    struct shared *shared;
    int index;
    struct counts counts;
    /* writers: the last acknowledged price of each GPU they own, in cents */
    long acknowledged[WRITER_GPUS];
};

static size_t discard(char *ptr, size_t size, size_t nmemb, void *user)
{
    (void)ptr;
    (void)user;
    return size * nmemb;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* One request on the worker's keep-alive handle; the status, or -1. */
static long send_request(CURL *curl, const struct shared *sh, const char *method, const char *path,
                         const char *content_type, const char *body, struct curl_slist **headers,
                         const char *key_header)
{
    char url[256];
    snprintf(url, sizeof(url), "http://127.0.0.1:%d%s", sh->port, path);
    curl_slist_free_all(*headers);
    *headers = NULL;
    if (content_type != NULL) {
        char line[96];
        snprintf(line, sizeof(line), "Content-Type: %s", content_type);
        *headers = curl_slist_append(*headers, line);
    }
    if (key_header != NULL)
        *headers = curl_slist_append(*headers, key_header);
    curl_easy_setopt(curl, CURLOPT_URL, url);
    if (body != NULL) {
        curl_easy_setopt(curl, CURLOPT_POSTFIELDS, body);
        curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE, (long)strlen(body));
        curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, strcmp(method, "POST") == 0 ? NULL : method);
    } else {
        curl_easy_setopt(curl, CURLOPT_HTTPGET, 1L);
        curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, strcmp(method, "GET") == 0 ? NULL : method);
    }
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, *headers);
    if (curl_easy_perform(curl) != CURLE_OK)
        return -1;
    long status = 0;
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
    return status;
}

static CURL *new_handle(void)
{
    CURL *curl = curl_easy_init();
    if (curl != NULL) {
        curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, discard);
        curl_easy_setopt(curl, CURLOPT_TIMEOUT, 30L);
        curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
        curl_easy_setopt(curl, CURLOPT_TCP_NODELAY, 1L);
    }
    return curl;
}

static void note_unexpected(struct counts *c, const char *what, long status)
{
    if (status < 0)
        c->transport++;
    else
        c->unexpected++;
    if (c->first_error[0] == '\0')
        snprintf(c->first_error, sizeof(c->first_error), "%s -> %ld", what, status);
}

static void *reader(void *arg)
{
    struct worker *w = arg;
    CURL *curl = new_handle();
    struct curl_slist *headers = NULL;
    unsigned seed = 2166136261u ^ (unsigned)w->index;
    int total_weight = 0;
    for (size_t i = 0; i < sizeof(reads) / sizeof(reads[0]); i++)
        total_weight += reads[i].weight;
    int phase;
    while (curl != NULL && (phase = __atomic_load_n(&w->shared->phase, __ATOMIC_ACQUIRE)) < 2) {
        int pick = (int)(rand_r(&seed) % (unsigned)total_weight);
        size_t k = 0;
        while (pick >= reads[k].weight)
            pick -= reads[k++].weight;
        const double t0 = now_s();
        const bool post = reads[k].body >= 0;
        const long status =
            send_request(curl, w->shared, reads[k].method, reads[k].path,
                         post ? "application/json" : NULL, post ? read_bodies[reads[k].body] : NULL,
                         &headers, NULL);
        const double ms = (now_s() - t0) * 1e3;
        if (status != 200) {
            note_unexpected(&w->counts, reads[k].path, status);
            continue;
        }
        __atomic_add_fetch(&w->counts.reads[phase], 1, __ATOMIC_RELAXED);
        if (phase == 1) {
            __atomic_add_fetch(&w->shared->mixed_reads, 1, __ATOMIC_RELAXED);
            size_t bucket = (size_t)(ms * 10.0);
            w->counts.latency[bucket < LATENCY_BUCKETS ? bucket : LATENCY_BUCKETS - 1]++;
        }
    }
    curl_slist_free_all(headers);
    curl_easy_cleanup(curl);
    return NULL;
}

static void *writer(void *arg)
{
    struct worker *w = arg;
    CURL *curl = new_handle();
    struct curl_slist *headers = NULL;
    static const char key[] = "Authorization: Bearer load-key";
    /* each writer owns copies of a seeded GPU under its own ids */
    for (int g = 0; curl != NULL && g < WRITER_GPUS; g++) {
        char path[96], body[512];
        snprintf(path, sizeof(path), "/v1/gpus/load-w%d-g%d", w->index, g);
        snprintf(body, sizeof(body),
                 "{\"name\":\"Load GPU %d/%d\",\"vendor\":\"NVIDIA\",\"memory_bytes\":80000000000,"
                 "\"memory_source\":\"load test\",\"price_per_hour\":1.00,"
                 "\"price_source\":\"load test\",\"price_date\":\"2026-01-01\"}",
                 w->index, g);
        const long st = send_request(curl, w->shared, "PUT", path, "application/json", body,
                                     &headers, key);
        if (st != 201)
            note_unexpected(&w->counts, path, st);
        w->acknowledged[g] = 100;
    }
    unsigned seed = 7u + (unsigned)w->index;
    long next_cents = 101;
    while (curl != NULL && __atomic_load_n(&w->shared->phase, __ATOMIC_ACQUIRE) < 2) {
        const unsigned long r = __atomic_load_n(&w->shared->mixed_reads, __ATOMIC_RELAXED);
        const unsigned long n = __atomic_load_n(&w->shared->mixed_writes, __ATOMIC_RELAXED);
        if (!__atomic_load_n(&w->shared->writers_go, __ATOMIC_ACQUIRE) ||
            n * (100 - WRITE_PERCENT) > r * WRITE_PERCENT) {
            usleep(1000);
            continue;
        }
        __atomic_add_fetch(&w->shared->mixed_writes, 1, __ATOMIC_RELAXED);
        const int g = (int)(rand_r(&seed) % WRITER_GPUS);
        const int kind = (int)(rand_r(&seed) % 4);
        char path[128], body[256];
        long st = 0, want = 200;
        if (kind <= 1) { /* an unconditional PATCH must never fail because of other writers */
            snprintf(path, sizeof(path), "/v1/gpus/load-w%d-g%d", w->index, g);
            snprintf(body, sizeof(body), "{\"price_per_hour\":%ld.%02ld}", next_cents / 100,
                     next_cents % 100);
            st = send_request(curl, w->shared, "PATCH", path, "application/merge-patch+json", body,
                              &headers, key);
        } else if (kind == 2) { /* a PATCH of a shared seeded GPU: contention with the other writer */
            snprintf(path, sizeof(path), "/v1/gpus/a100-sxm-80gb");
            snprintf(body, sizeof(body), "{\"tdp_watts\":%d}", 400 + (int)(next_cents % 2));
            st = send_request(curl, w->shared, "PATCH", path, "application/merge-patch+json", body,
                              &headers, key);
        } else { /* create and delete a scratch entry */
            snprintf(path, sizeof(path), "/v1/gpus/load-scratch-%d", w->index);
            st = send_request(curl, w->shared, "PUT", path, "application/json",
                              "{\"name\":\"Scratch\",\"vendor\":\"AMD\",\"memory_bytes\":1000000000,"
                              "\"memory_source\":\"load test\"}",
                              &headers, key);
            if (st == 201 || st == 200)
                st = send_request(curl, w->shared, "DELETE", path, NULL, NULL, &headers, key),
                want = 204;
            else
                want = 201;
        }
        if (st != want) {
            note_unexpected(&w->counts, path, st);
            continue;
        }
        if (kind <= 1)
            w->acknowledged[g] = next_cents;
        next_cents++;
        w->counts.writes++;
    }
    curl_slist_free_all(headers);
    curl_easy_cleanup(curl);
    return NULL;
}

static double env_seconds(const char *name, double fallback)
{
    const char *v = getenv(name);
    const double s = v != NULL ? strtod(v, NULL) : fallback;
    return s > 0 ? s : fallback;
}

/* The price each writer last got acknowledged is the one the catalog serves. */
static void check_acknowledged(int port, const struct worker *writers)
{
    CURL *curl = new_handle();
    assert_non_null(curl);
    for (int w = 0; w < WRITERS; w++) {
        for (int g = 0; g < WRITER_GPUS; g++) {
            char url[128];
            snprintf(url, sizeof(url), "http://127.0.0.1:%d/v1/gpus/load-w%d-g%d", port, w, g);
            char *text = NULL;
            size_t len = 0;
            FILE *mem = open_memstream(&text, &len);
            assert_non_null(mem);
            curl_easy_setopt(curl, CURLOPT_URL, url);
            curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, NULL);
            curl_easy_setopt(curl, CURLOPT_WRITEDATA, mem);
            assert_int_equal(curl_easy_perform(curl), CURLE_OK);
            fclose(mem);
            json_t *gpu = json_loads(text, 0, NULL);
            assert_non_null(gpu);
            const double price = json_real_value(json_object_get(gpu, "price_per_hour")) +
                                 (double)json_integer_value(json_object_get(gpu, "price_per_hour"));
            const long cents = (long)(price * 100.0 + 0.5);
            if (cents != writers[w].acknowledged[g])
                fail_msg("load-w%d-g%d serves %ld cents, last acknowledged %ld", w, g, cents,
                         writers[w].acknowledged[g]);
            json_decref(gpu);
            free(text);
        }
    }
    curl_easy_cleanup(curl);
}

static void test_mixed_load(void **state)
{
    struct test_db *db = *state;
    struct test_server server;
    const char *ratio_env = getenv("GPUSIZER_LOAD_STRICT");
    const bool strict = ratio_env == NULL || strcmp(ratio_env, "0") != 0;
    /* The read-share check measures what writes cost reads that are computed. Every write
     * starts the catalog view's answer cache afresh by design (no answer outlives a price),
     * so with it on the write-free phase would be mostly cached recommendations and the
     * ratio would measure the cache instead: the strict run turns it off, the sanitizer
     * runs keep it on (its locking and freeing under concurrent writes). */
    if (strict)
        setenv("GPUSIZER_ANSWER_CACHE_MIB", "0", 1);
    assert_int_equal(test_server_start(&server, binary, db->path, "load-key"), 0);
    running = &server;
    const double mixed_s = env_seconds("GPUSIZER_LOAD_SECONDS", 45.0);
    const double read_only_s = mixed_s / 3.0;

    struct shared sh = {server.port, 0, 0, 0, 0};
    struct worker *workers = calloc(READERS + WRITERS, sizeof(*workers));
    assert_non_null(workers);
    for (int i = 0; i < READERS + WRITERS; i++) {
        workers[i].shared = &sh;
        workers[i].index = i < READERS ? i : i - READERS;
        assert_int_equal(pthread_create(&workers[i].thread, NULL, i < READERS ? reader : writer,
                                        &workers[i]),
                         0);
    }
    /* read-only phase: its first half warms up, its second half is the rate without writers */
    usleep((useconds_t)(read_only_s / 2 * 1e6));
    unsigned long base_reads = 0;
    for (int i = 0; i < READERS; i++)
        base_reads += __atomic_load_n(&workers[i].counts.reads[0], __ATOMIC_RELAXED);
    double t0 = now_s();
    usleep((useconds_t)(read_only_s / 2 * 1e6));
    unsigned long reads_alone = 0;
    for (int i = 0; i < READERS; i++)
        reads_alone += __atomic_load_n(&workers[i].counts.reads[0], __ATOMIC_RELAXED);
    const double alone_rate = (double)(reads_alone - base_reads) / (now_s() - t0);

    /* mixed phase; the RSS bound is checked from after the first fifth of it */
    __atomic_store_n(&sh.phase, 1, __ATOMIC_RELEASE);
    __atomic_store_n(&sh.writers_go, 1, __ATOMIC_RELEASE);
    t0 = now_s();
    long warm_rss = -1, peak_rss = 0, start_rss = test_server_rss_kib(&server);
    double fifth_rate[5] = {0, 0, 0, 0, 0};
    unsigned long fifth_start = 0;
    int fifth = 0;
    while (now_s() - t0 < mixed_s) {
        usleep(250000);
        if (now_s() - t0 >= mixed_s * (fifth + 1) / 5 && fifth < 5) {
            const unsigned long r = __atomic_load_n(&sh.mixed_reads, __ATOMIC_RELAXED);
            fifth_rate[fifth++] = (double)(r - fifth_start) / (mixed_s / 5);
            fifth_start = r;
        }
        const long rss = test_server_rss_kib(&server);
        if (warm_rss < 0 && now_s() - t0 >= mixed_s / 5)
            warm_rss = rss;
        if (warm_rss >= 0 && rss > peak_rss)
            peak_rss = rss;
    }
    const double mixed_elapsed = now_s() - t0;
    __atomic_store_n(&sh.phase, 2, __ATOMIC_RELEASE);
    for (int i = 0; i < READERS + WRITERS; i++)
        pthread_join(workers[i].thread, NULL);
    const long end_rss = test_server_rss_kib(&server);

    struct counts total;
    memset(&total, 0, sizeof(total));
    const char *first_error = "";
    for (int i = 0; i < READERS + WRITERS; i++) {
        const struct counts *c = &workers[i].counts;
        for (int p = 0; p < 3; p++)
            total.reads[p] += c->reads[p];
        total.writes += c->writes;
        total.unexpected += c->unexpected;
        total.transport += c->transport;
        for (size_t b = 0; b < LATENCY_BUCKETS; b++)
            total.latency[b] += c->latency[b];
        if (first_error[0] == '\0' && c->first_error[0] != '\0')
            first_error = c->first_error;
    }
    const double mixed_rate = (double)total.reads[1] / mixed_elapsed;
    const double write_share =
        (double)total.writes / (double)(total.writes + total.reads[1] > 0 ? total.writes + total.reads[1] : 1);
    unsigned long seen = 0, p99_bucket = 0;
    for (size_t b = 0; b < LATENCY_BUCKETS; b++) {
        seen += total.latency[b];
        if (seen * 100 >= total.reads[1] * 99) {
            p99_bucket = b;
            break;
        }
    }
    printf("load: %d readers + %d writers, %.0f s read-only then %.0f s mixed\n", READERS, WRITERS,
           read_only_s, mixed_elapsed);
    printf("load: reads alone %.0f/s; mixed %.0f reads/s (%.2f of alone) and %.1f writes/s (%.1f%% "
           "of requests); read p99 %.1f ms\n",
           alone_rate, mixed_rate, mixed_rate / alone_rate, (double)total.writes / mixed_elapsed,
           write_share * 100.0, (double)(p99_bucket + 1) / 10.0);
    printf("load: mixed reads/s by fifths of the phase: %.0f %.0f %.0f %.0f %.0f\n", fifth_rate[0],
           fifth_rate[1], fifth_rate[2], fifth_rate[3], fifth_rate[4]);
    printf("load: RSS at the mixed phase's start %ld KiB, after warm-up %ld KiB, peak %ld KiB, end "
           "%ld KiB (bound +%d MiB)\n",
           start_rss, warm_rss, peak_rss, end_rss, RSS_GROWTH_MIB);
    printf("load: unexpected statuses %lu, transport errors %lu%s%s\n", total.unexpected,
           total.transport, first_error[0] ? ", first: " : "", first_error);

    assert_int_equal(total.unexpected, 0);
    assert_int_equal(total.transport, 0);
    assert_true(total.writes > 0 && total.reads[1] > 0);
    check_acknowledged(server.port, workers + READERS);
    if (strict && peak_rss - warm_rss > RSS_GROWTH_MIB * 1024L)
        fail_msg("RSS grew %ld KiB after warm-up (bound %d MiB)", peak_rss - warm_rss,
                 RSS_GROWTH_MIB);
    if (strict && mixed_rate < READ_SHARE_MIN * alone_rate)
        fail_msg("reads starved by writes: %.0f/s mixed vs %.0f/s alone (< %.2f)", mixed_rate,
                 alone_rate, READ_SHARE_MIN);
    /* the old full rebuild per write held writes to about 1% (6 ms of CPU each) */
    if (strict && write_share * 100.0 < WRITE_SHARE_MIN)
        fail_msg("writes reached %.1f%% of requests (< %.1f%%): each costs too much", write_share * 100.0,
                 WRITE_SHARE_MIN);
    free(workers);
    running = NULL;
    assert_int_equal(test_server_stop(&server), 0);
}

/* The catalog lives in memory (/dev/shm) when the machine has it: a commit's fsync then
 * costs nothing, so writes reach their 5% share and the test measures what the server's
 * CPU does per write (durability has its own test: test_hostile's SIGKILL run). */
static int setup(void **state)
{
    struct test_db *db = calloc(1, sizeof(*db));
    if (db == NULL)
        return -1;
    snprintf(db->dir, sizeof(db->dir), "/dev/shm/gs-load-XXXXXX");
    if (access("/dev/shm", W_OK) != 0 || mkdtemp(db->dir) == NULL) {
        free(db);
        return test_db_setup(state);
    }
    snprintf(db->path, sizeof(db->path), "%s/catalog.db", db->dir);
    *state = db;
    return 0;
}

static int teardown(void **state)
{
    if (running != NULL) {
        test_server_stop(running);
        running = NULL;
    }
    return test_db_teardown(state);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s path/to/gpusizer\n", argv[0]);
        return 2;
    }
    binary = argv[1];
    curl_global_init(CURL_GLOBAL_DEFAULT);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_mixed_load, setup, teardown),
    };
    const int failed = cmocka_run_group_tests(tests, NULL, NULL);
    curl_global_cleanup();
    return failed + test_server_failures(); /* a teardown's failed stop does not count in cmocka */
}
