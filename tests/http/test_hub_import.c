/*
 * test_hub_import.c - models by their Hugging Face id, end to end: a real
 * `gpusizer serve` importing from a fixture hub on 127.0.0.1
 * (tests/support/hub_fixture.h, repositories in tests/fixtures/hub), the
 * stored checkpoint and provenance, estimates sized from the checkpoint's
 * own bytes, auto-import, the hub's failures as clear answers, concurrent
 * imports, and `gpusizer import`.
 *
 * usage: test_hub_import /path/to/gpusizer
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "http_client.h"
#include "hub_fixture.h"
#include "hub/sha256.h"
#include "test_files.h"
#include "test_server.h"

#include <jansson.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define KEY "hub-test-key-0123456789"
#define AUTH "Authorization: Bearer " KEY
#define JSON_TYPE "application/json"

static const char *binary;
static struct test_db db;
static struct hub_fixture *hub;
static struct test_server importer; /* API key, auto-import on */
static struct test_server plain;    /* no key, auto-import off (the server default) */

static struct http_reply post(const struct test_server *s, const char *path, const char *body,
                              const char *h1, const char *h2)
{
    const char *headers[] = {h1, h1 != NULL ? h2 : NULL, NULL};
    return http_call(s->port, "POST", path, JSON_TYPE, body, strlen(body), headers);
}

static json_t *parse(const struct http_reply *r)
{
    json_t *v = json_loadb(r->body != NULL ? r->body : "", r->length, 0, NULL);
    if (v == NULL)
        fail_msg("not JSON: %.300s", r->body != NULL ? r->body : "");
    return v;
}

static void expect_status(const struct http_reply *r, long status)
{
    if (r->status != status)
        fail_msg("expected %ld, got %ld: %.600s", status, r->status, r->body ? r->body : "");
}

static json_int_t integer_at(const json_t *o, const char *a, const char *b)
{
    const json_t *v = json_object_get(o, a);
    if (b != NULL)
        v = json_object_get(v, b);
    if (!json_is_integer(v))
        fail_msg("%s%s%s is not an integer", a, b ? "." : "", b ? b : "");
    return json_integer_value(v);
}

static const char *string_at(const json_t *o, const char *a, const char *b)
{
    const json_t *v = json_object_get(o, a);
    if (b != NULL)
        v = json_object_get(v, b);
    return json_is_string(v) ? json_string_value(v) : "";
}

/* The problem type's last segment. */
static void expect_problem(const struct http_reply *r, long status, const char *slug)
{
    expect_status(r, status);
    json_t *p = parse(r);
    const char *type = string_at(p, "type", NULL);
    if (strstr(type, slug) == NULL)
        fail_msg("expected a %s problem, got %s: %.400s", slug, type, r->body);
    json_decref(p);
}

static bool has_named(const json_t *list, const char *key, const char *name)
{
    size_t i;
    const json_t *item;
    json_array_foreach(list, i, item)
    {
        if (strcmp(string_at(item, key, NULL), name) == 0)
            return true;
    }
    return false;
}

static int setup(void **state)
{
    (void)state;
    if (hub_fixture_start(GS_HUB_FIXTURES, &hub) != 0 || test_db_make(&db, "gs-hubimport") != 0)
        return -1;
    char url[64];
    snprintf(url, sizeof(url), "http://127.0.0.1:%u", (unsigned)hub_fixture_port(hub));
    setenv("GPUSIZER_HUB_URL", url, 1);
    setenv("GPUSIZER_HUB_REDIRECT_HOSTS", "localhost", 1);
    /* below the fixture's 3 s slow answer; a wrapped (valgrind) server's own libcurl is
     * slower, so it gets more of those 3 s */
    setenv("GPUSIZER_HUB_TIMEOUT_MS", test_server_wrapped() ? "2500" : "800", 1);
    setenv("GPUSIZER_HUB_MAX_JSON_BYTES", "4194304", 1); /* Qwen3-30B-A3B-FP8's index is 2 MB */
    unsetenv("HF_TOKEN");
    unsetenv("GPUSIZER_HUB_TOKEN");
    setenv("GPUSIZER_AUTO_IMPORT", "1", 1);
    if (test_server_start(&importer, binary, db.path, KEY) != 0)
        return -1;
    unsetenv("GPUSIZER_AUTO_IMPORT");
    return test_server_start(&plain, binary, db.path, NULL);
}

static int teardown(void **state)
{
    (void)state;
    int rc = test_server_stop(&importer);
    rc |= test_server_stop(&plain);
    hub_fixture_stop(hub);
    test_db_remove(&db);
    return rc;
}

/* Llama-3.1-8B-Instruct in bf16, four shards: 8,030,261,248 parameters, 2
 * bytes each = 16,060,522,496 bytes; the commit, URLs and header digests
 * recorded; a re-import honours If-Match. */
static void test_import_dense_bf16(void **state)
{
    (void)state;
    struct http_reply r = post(&importer, "/v1/models:import",
                               "{\"hub_id\": \"meta-llama/Llama-3.1-8B-Instruct\"}", AUTH, NULL);
    expect_status(&r, 201);
    assert_string_equal(r.location, "/v1/models/meta-llama--llama-3.1-8b-instruct");
    json_t *m = parse(&r);
    assert_string_equal(string_at(m, "id", NULL), "meta-llama--llama-3.1-8b-instruct");
    assert_string_equal(string_at(m, "hf_id", NULL), "meta-llama/Llama-3.1-8B-Instruct");
    assert_string_equal(string_at(m, "family", NULL), "llama");
    assert_int_equal(integer_at(m, "parameters", NULL), 8030261248LL);
    assert_int_equal(integer_at(m, "checkpoint", "parameters"), 8030261248LL);
    assert_int_equal(integer_at(m, "checkpoint", "tensor_bytes"), 16060522496LL);
    assert_int_equal(integer_at(m, "checkpoint", "files"), 4);
    assert_string_equal(string_at(m, "checkpoint", "format"), "bf16");
    assert_int_equal(integer_at(json_object_get(m, "checkpoint"), "bytes_by_dtype", "BF16"),
                     16060522496LL);
    assert_int_equal(json_array_size(json_object_get(json_object_get(m, "checkpoint"),
                                                     "layer_bytes")),
                     32);
    const json_t *prov = json_object_get(m, "provenance");
    assert_string_equal(string_at(prov, "revision", NULL), "main");
    assert_int_equal(strlen(string_at(prov, "commit", NULL)), 40);
    const json_t *files = json_object_get(prov, "files");
    assert_int_equal(json_array_size(files), 4);
    /* each header's digest is the sha256 of the JSON the fixture serves */
    const json_t *first = json_array_get(files, 0);
    char path[512], digest[65];
    snprintf(path, sizeof(path), "%s/meta-llama/Llama-3.1-8B-Instruct/%s.header.json",
             GS_HUB_FIXTURES, string_at(first, "file", NULL));
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    static char text[1 << 20];
    const size_t n = fread(text, 1, sizeof(text), f);
    fclose(f);
    sha256_hex(text, n, digest);
    assert_string_equal(string_at(first, "header_sha256", NULL), digest);
    assert_int_equal(integer_at(first, "header_bytes", NULL), (json_int_t)n);
    assert_non_null(strstr(string_at(first, "url", NULL), "/resolve/"));
    assert_int_equal(strlen(string_at(prov, "config", "sha256")), 64);
    char etag[96];
    snprintf(etag, sizeof(etag), "If-Match: %s", r.etag);
    json_decref(m);
    free(r.body);

    /* a re-import of another version than the one read: 412; of the one read: 200 */
    r = post(&importer, "/v1/models:import", "{\"hub_id\": \"meta-llama/Llama-3.1-8B-Instruct\"}",
             AUTH, "If-Match: \"not-the-etag\"");
    expect_status(&r, 412);
    free(r.body);
    r = post(&importer, "/v1/models:import",
             "{\"hub_id\": \"meta-llama/Llama-3.1-8B-Instruct\", \"revision\": \"main\"}", AUTH,
             etag);
    expect_status(&r, 200);
    free(r.body);

    /* sized from the checkpoint's own bytes: one GPU holds all 16,060,522,496 */
    r = post(&importer, "/v1/estimate",
             "{\"model\": {\"hub_id\": \"meta-llama/Llama-3.1-8B-Instruct\"}, \"gpu\": \"h100\", "
             "\"inference\": {\"batch_size\": 4, \"context_length\": 4096}}",
             NULL, NULL);
    expect_status(&r, 200);
    json_t *e = parse(&r);
    assert_int_equal(integer_at(e, "per_gpu", "weights_bytes"), 16060522496LL);
    assert_true(has_named(json_object_get(e, "assumptions"), "name", "weights_from_checkpoint"));
    assert_false(has_named(json_object_get(e, "warnings"), "code", "checkpoint_mismatch"));
    json_decref(e);
    free(r.body);
}

/* A model_type gpusizer cannot read (tests/fixtures/hub/acme/mystery-1b):
 * its tensors are 2 x 1,000 x 64 (embeddings, head) + 2 x 64 x 64 (layers)
 * matrices and 2 x 64 norms, 136,320 bf16 values = 272,640 bytes. Imported
 * all the same; weights are exact (TP 2: the 256 bytes of norms whole, the
 * 272,384 of matrices halved = 136,448); the KV cache is refused. */
static void test_unknown_model_type(void **state)
{
    (void)state;
    struct http_reply r =
        post(&importer, "/v1/models:import", "{\"hub_id\": \"acme/mystery-1b\"}", AUTH, NULL);
    expect_status(&r, 201);
    json_t *m = parse(&r);
    assert_string_equal(string_at(m, "family", NULL), "mystery");
    assert_int_equal(integer_at(m, "parameters", NULL), 136320);
    assert_int_equal(integer_at(m, "checkpoint", "tensor_bytes"), 272640);
    assert_int_equal(integer_at(m, "checkpoint", "vector_bytes"), 256);
    assert_null(json_object_get(m, "architecture"));
    json_decref(m);
    free(r.body);
    r = post(&importer, "/v1/estimate",
             "{\"model\": {\"hub_id\": \"acme/mystery-1b\"}, \"parallelism\": {\"tensor\": 2}}", NULL,
             NULL);
    expect_status(&r, 200);
    json_t *e = parse(&r);
    assert_int_equal(integer_at(e, "per_gpu", "weights_bytes"), 136448);
    json_decref(e);
    free(r.body);
    r = post(&importer, "/v1/estimate",
             "{\"model\": {\"hub_id\": \"acme/mystery-1b\"}, \"inference\": {\"batch_size\": 1, "
             "\"context_length\": 1024}}",
             NULL, NULL);
    expect_status(&r, 400);
    assert_non_null(strstr(r.body, "architecture"));
    free(r.body);
}

/* The other fixture families import with their stored format, exact
 * parameters and bytes (tests/fixtures/hub/README.md: each written out from
 * the tensors, against the published count), and an estimate in the stored
 * format (`precision` NULL: the one the config names) charges exactly their
 * tensor bytes. */
static void check_family(const char *hub_id, const char *format, const char *precision,
                         json_int_t parameters, json_int_t bytes, bool mismatch)
{
    char body[256];
    snprintf(body, sizeof(body), "{\"hub_id\": \"%s\"}", hub_id);
    struct http_reply r = post(&importer, "/v1/models:import", body, AUTH, NULL);
    if (r.status != 201 && r.status != 200)
        fail_msg("%s: %ld %.400s", hub_id, r.status, r.body ? r.body : "");
    json_t *m = parse(&r);
    assert_int_equal(integer_at(m, "checkpoint", "tensor_bytes"), bytes);
    assert_int_equal(integer_at(m, "checkpoint", "parameters"), parameters);
    if (strcmp(string_at(m, "checkpoint", "format"), format) != 0)
        fail_msg("%s: format %s, expected %s", hub_id, string_at(m, "checkpoint", "format"),
                 format);
    json_decref(m);
    free(r.body);
    if (precision != NULL)
        snprintf(body, sizeof(body),
                 "{\"model\": {\"hub_id\": \"%s\"}, \"precision\": {\"weights\": \"%s\"}}", hub_id,
                 precision);
    else
        snprintf(body, sizeof(body), "{\"model\": {\"hub_id\": \"%s\"}}", hub_id);
    r = post(&importer, "/v1/estimate", body, NULL, NULL);
    expect_status(&r, 200);
    json_t *e = parse(&r);
    if (integer_at(e, "per_gpu", "weights_bytes") != bytes)
        fail_msg("%s: weights %lld, checkpoint %lld: %.1500s", hub_id,
                 (long long)integer_at(e, "per_gpu", "weights_bytes"), (long long)bytes, r.body);
    /* cross-checked against the config's count in that format: GPTQ, fp8 block scales, mxfp4
     * experts and bf16 agree within 1%; llama.cpp's Q4_K_M keeps token_embd (tied) and half the
     * ffn_down and attn_v in Q6_K, which the format's average bits per weight do not capture */
    if (mismatch != has_named(json_object_get(e, "warnings"), "code", "checkpoint_mismatch"))
        fail_msg("%s: checkpoint_mismatch %s expected: %.600s", hub_id, mismatch ? "" : "not",
                 r.body);
    json_decref(e);
    free(r.body);
}

static void test_quantized_and_gguf(void **state)
{
    (void)state;
    check_family("TheBloke/Llama-2-7B-GPTQ", "gptq", "gptq", 6738415616LL, 3893862400LL, false);
    check_family("Qwen/Qwen3-30B-A3B-FP8", "fp8_block", NULL, 30532122624LL, 31170895872LL,
                 false);
    check_family("openai/gpt-oss-20b", "mxfp4", NULL, 20914757184LL, 13761264768LL, false);
    check_family("google/gemma-3-4b-it", "bf16", "bf16", 4300079472LL, 8600158944LL, false);
    check_family("bartowski/Llama-3.2-1B-Instruct-GGUF", "q4_k_m", "q4_k_m", 1235814400LL,
                 799862912LL, true);
    /* ModelOpt NVFP4 with its quantization in hf_quant_config.json, merged into the config */
    check_family("modelopt-tests/tiny-llama-nvfp4", "nvfp4", NULL, 1692928LL, 2255408LL, false);
}

/* A server that does not import on first use says how to import; the one
 * that does imports and answers. (A hub id the seeded catalog has, such as
 * google/gemma-3-4b-it, resolves to that entry without an import.) */
/* The weights of an estimate of `model` (a JSON object text) in bf16 at tensor degree `tensor`,
 * with the value of the assumption `assumption` (-1 when absent) and whether
 * checkpoint_mismatch was warned. */
static json_int_t weights_at(const char *model, int tensor, const char *assumption,
                             json_int_t *value, bool *mismatch)
{
    json_t *body =
        json_pack("{s:o, s:s, s:{s:s}, s:{s:i}, s:{s:i, s:i}}", "model", json_loads(model, 0, NULL),
                  "gpu", "h100", "precision", "weights", "bf16", "parallelism", "tensor", tensor,
                  "inference", "batch_size", 1, "context_length", 4096);
    char *text = json_dumps(body, JSON_COMPACT);
    json_decref(body);
    struct http_reply r = post(&importer, "/v1/estimate", text, NULL, NULL);
    free(text);
    expect_status(&r, 200);
    json_t *e = parse(&r);
    const json_int_t weights = integer_at(e, "per_gpu", "weights_bytes");
    *value = -1;
    size_t i;
    const json_t *a;
    json_array_foreach(json_object_get(e, "assumptions"), i, a)
    {
        if (strcmp(string_at(a, "name", NULL), assumption) == 0)
            *value = integer_at(a, "value", NULL);
    }
    *mismatch = has_named(json_object_get(e, "warnings"), "code", "checkpoint_mismatch");
    json_decref(e);
    free(r.body);
    return weights;
}

/* zai-org/GLM-4.7-Flash stores its MTP layer as model.layers.47 (tests/fixtures/hub/README.md):
 * 62,442,983,168 bytes, 2,556,189,440 of them the MTP layer's. The served model does not load
 * that layer (vLLM's get_spec_layer_idx_from_weight_name), so the checkpoint's weights are the
 * other 59,886,793,728 - what the config gives in bf16 (29,943,390,976 parameters x 2 and the 46
 * routers' fp32 biases, 11,776) - and split over 2 GPUs exactly as the config's are. */
static void test_import_mtp_layers(void **state)
{
    (void)state;
    const char *hub_model = "{\"hub_id\": \"zai-org/GLM-4.7-Flash\"}";
    struct http_reply r = post(&importer, "/v1/models:import", hub_model, AUTH, NULL);
    if (r.status != 201 && r.status != 200)
        fail_msg("%ld %.400s", r.status, r.body ? r.body : "");
    json_t *m = parse(&r);
    assert_string_equal(string_at(m, "family", NULL), "glm4_moe_lite");
    assert_int_equal(integer_at(m, "parameters", NULL), 29943390976LL);
    assert_int_equal(integer_at(m, "checkpoint", "parameters"), 31221488576LL);
    assert_int_equal(integer_at(m, "checkpoint", "tensor_bytes"), 62442983168LL);
    assert_int_equal(integer_at(m, "checkpoint", "mtp_bytes"), 0); /* numbered, not named */
    json_decref(m);
    free(r.body);

    json_int_t mtp = 0;
    bool mismatch = true;
    assert_int_equal(weights_at(hub_model, 1, "checkpoint_mtp_bytes", &mtp, &mismatch),
                     59886793728LL);
    assert_int_equal(mtp, 2556189440LL);
    assert_false(mismatch);
    const json_int_t imported = weights_at(hub_model, 2, "checkpoint_mtp_bytes", &mtp, &mismatch);
    assert_false(mismatch);
    char path[512];
    snprintf(path, sizeof(path), "%s/zai-org/GLM-4.7-Flash/config.json", GS_HUB_FIXTURES);
    json_t *config = json_load_file(path, 0, NULL);
    assert_non_null(config);
    json_t *model = json_pack("{s:o}", "config", config);
    char *model_text = json_dumps(model, JSON_COMPACT);
    json_decref(model);
    const json_int_t from_config =
        weights_at(model_text, 2, "checkpoint_mtp_bytes", &mtp, &mismatch);
    free(model_text);
    assert_int_equal(mtp, -1);
    assert_int_equal(imported, from_config);
}

static void test_auto_import(void **state)
{
    (void)state;
    struct http_reply seeded = post(&plain, "/v1/estimate",
                                    "{\"model\": {\"hub_id\": \"google/gemma-3-4b-it\"}}", NULL, NULL);
    expect_status(&seeded, 200);
    free(seeded.body);
    const char *request = "{\"model\": {\"hub_id\": \"fixture-tests/tiny\"}}";
    struct http_reply r = post(&plain, "/v1/estimate", request, NULL, NULL);
    expect_status(&r, 400);
    assert_non_null(strstr(r.body, "/model/hub_id"));
    assert_non_null(strstr(r.body, "import"));
    free(r.body);
    r = post(&importer, "/v1/estimate", request, NULL, NULL);
    expect_status(&r, 200);
    free(r.body);
    /* and the other server sees the import in the shared catalog */
    r = post(&plain, "/v1/estimate", request, NULL, NULL);
    for (int i = 0; i < 20 && r.status != 200; i++) {
        free(r.body);
        usleep(100000);
        r = post(&plain, "/v1/estimate", request, NULL, NULL);
    }
    expect_status(&r, 200);
    free(r.body);
}

/* The hub's failures, each a clear answer; writes need the key. */
static void test_failures(void **state)
{
    (void)state;
    struct http_reply r = post(&plain, "/v1/models:import", "{\"hub_id\": \"acme/mystery-1b\"}",
                               NULL, NULL);
    assert_true(r.status == 401 || r.status == 403);
    free(r.body);
    static const struct {
        const char *body;
        long status;
        const char *slug;
    } cases[] = {
        {"{\"hub_id\": \"gated/model\"}", 403, "hub-gated"},
        {"{\"hub_id\": \"forbidden/model\"}", 403, "hub-gated"},
        {"{\"hub_id\": \"acme/no-such-model\"}", 404, "hub-not-found"},
        {"{\"hub_id\": \"acme/mystery-1b\", \"revision\": \"v9\"}", 404, "hub-not-found"},
        {"{\"hub_id\": \"slow/model\"}", 502, "hub-timeout"},
        {"{\"hub_id\": \"redirect-out/model\"}", 502, "hub-redirect-refused"},
        {"{\"hub_id\": \"loop/model\"}", 502, "hub-redirect-refused"},
        {"{\"hub_id\": \"flaky/model\"}", 502, "hub-failed"},
        {"{\"hub_id\": \"badjson/model\"}", 502, "hub-malformed"},
        {"{\"hub_id\": \"oversized/model\"}", 502, "hub-too-large"},
        {"{\"hub_id\": \"broken/bad-header\"}", 502, "malformed-checkpoint"},
        {"{\"hub_id\": \"../etc\"}", 400, "invalid-request"},
        {"{\"hub_id\": \"a/b\", \"revision\": \"../x\"}", 400, "invalid-request"},
        {"{\"hub_id\": \"a/b\", \"extra\": 1}", 400, "invalid-request"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        r = post(&importer, "/v1/models:import", cases[i].body, AUTH, NULL);
        if (r.status != cases[i].status || r.body == NULL || strstr(r.body, cases[i].slug) == NULL)
            fail_msg("%s: expected %ld %s, got %ld %.400s", cases[i].body, cases[i].status,
                     cases[i].slug, r.status, r.body ? r.body : "");
        free(r.body);
    }
    /* a hub failure during an auto-import is the request's answer */
    r = post(&importer, "/v1/estimate", "{\"model\": {\"hub_id\": \"gated/model\"}}", NULL, NULL);
    expect_problem(&r, 403, "hub-gated");
    free(r.body);
}

static void *import_gpt_oss(void *arg)
{
    (void)arg;
    struct http_reply *r = malloc(sizeof(*r));
    *r = post(&importer, "/v1/models:import", "{\"hub_id\": \"openai/gpt-oss-20b\"}", AUTH, NULL);
    return r;
}

/* Two imports of one id at once: both succeed, one catalog entry (besides
 * the seeded gpt-oss-20b, which keeps its curated figures). */
static void test_concurrent_imports(void **state)
{
    (void)state;
    pthread_t a, b;
    assert_int_equal(pthread_create(&a, NULL, import_gpt_oss, NULL), 0);
    assert_int_equal(pthread_create(&b, NULL, import_gpt_oss, NULL), 0);
    void *ra = NULL, *rb = NULL;
    pthread_join(a, &ra);
    pthread_join(b, &rb);
    struct http_reply *x = ra, *y = rb;
    assert_true(x->status == 200 || x->status == 201);
    assert_true(y->status == 200 || y->status == 201);
    free(x->body);
    free(y->body);
    free(x);
    free(y);
    struct http_reply r = http_call(importer.port, "GET", "/v1/models?limit=1000", NULL, NULL, 0,
                                    NULL);
    expect_status(&r, 200);
    json_t *list = parse(&r);
    size_t i, count = 0;
    const json_t *item;
    json_array_foreach(json_object_get(list, "items"), i, item)
    {
        if (strcmp(string_at(item, "id", NULL), "openai--gpt-oss-20b") == 0)
            count++;
    }
    assert_int_equal(count, 1);
    json_decref(list);
    free(r.body);
}

static void *import_slow(void *arg)
{
    long *status = arg;
    struct http_reply r = post(&importer, "/v1/models:import", "{\"hub_id\": \"slow/model\"}", AUTH,
                               NULL);
    *status = r.status;
    free(r.body);
    return NULL;
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* Eight imports wait on a slow hub at once (0.8 s each, then 502), more than the server
 * has connection threads (4) or import threads (4): reads and estimates keep answering
 * meanwhile, because imports and writes run on their own threads with the connection
 * suspended (before, each import held its connection thread, and every connection on it,
 * for the wait); and a catalog write (a GPU's price) does not queue behind them, because
 * imports have a pool of their own (before, they shared the four write threads and a price
 * PATCH waited out two rounds of imports). */
static void test_slow_imports_do_not_block_reads(void **state)
{
    (void)state;
    enum { IMPORTS = 8 };
    pthread_t threads[IMPORTS];
    long status[IMPORTS];
    for (int i = 0; i < IMPORTS; i++)
        assert_int_equal(pthread_create(&threads[i], NULL, import_slow, &status[i]), 0);
    usleep(150000); /* the imports are in, waiting on the hub */
    double worst = 0;
    const double until = now_ms() + 700;
    int reads = 0;
    while (now_ms() < until) {
        const double t0 = now_ms();
        struct http_reply r = http_call(importer.port, "GET", "/healthz", NULL, NULL, 0, NULL);
        expect_status(&r, 200);
        free(r.body);
        r = post(&importer, "/v1/estimate", "{\"model\": \"llama-3.1-8b\", \"gpu\": \"l4\"}", NULL,
                 NULL);
        expect_status(&r, 200);
        free(r.body);
        r = http_call(importer.port, "GET", "/v1/gpus/h100", NULL, NULL, 0, NULL);
        expect_status(&r, 200);
        free(r.body);
        if (reads == 0) { /* a write while every import thread waits on the hub */
            const char *headers[] = {AUTH, NULL};
            const char *patch = "{\"price_per_hour\":2.5,\"price_source\":\"quote during imports\","
                                "\"price_date\":\"2026-11-29\"}";
            r = http_call(importer.port, "PATCH", "/v1/gpus/h100", JSON_TYPE, patch,
                          strlen(patch), headers);
            expect_status(&r, 200);
            free(r.body);
        }
        const double ms = now_ms() - t0;
        worst = ms > worst ? ms : worst;
        reads++;
    }
    for (int i = 0; i < IMPORTS; i++) {
        pthread_join(threads[i], NULL);
        assert_int_equal(status[i], 502); /* hub-timeout, as test_failures checks */
    }
    print_message("%d read rounds during %d slow imports, worst %.1f ms\n", reads, IMPORTS, worst);
    /* before: 650-800 ms, the hub's wait; an instrumented server is several times slower;
     * under a wrapper (valgrind memcheck, 20-50 times slower) 1.5 s, still below the 2.5 s
     * the hub makes an import wait there (setup), so a read stuck behind an import fails */
    const double bound = test_server_wrapped() ? 1500 : test_server_instrumented() ? 600 : 300;
    assert_true(worst < bound);
}

/* gpusizer import org/name: the CLI prints the stored entry. */
static void test_cli_import(void **state)
{
    (void)state;
    char command[1024];
    /* under the servers' wrapper too (valgrind's error exit code fails the status checks) */
    snprintf(command, sizeof(command), "%s %s import acme/mystery-1b@main --db %s",
             test_server_wrapper(), binary, db.path);
    FILE *out = popen(command, "r");
    assert_non_null(out);
    static char text[1 << 16];
    const size_t n = fread(text, 1, sizeof(text) - 1, out);
    text[n] = '\0';
    const int status = pclose(out);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    json_t *m = json_loads(text, 0, NULL);
    assert_non_null(m);
    assert_int_equal(integer_at(m, "checkpoint", "tensor_bytes"), 272640);
    json_decref(m);
    snprintf(command, sizeof(command), "%s %s import not-an-id --db %s 2>/dev/null",
             test_server_wrapper(), binary, db.path);
    const int bad = system(command);
    assert_true(WIFEXITED(bad) && WEXITSTATUS(bad) == 2);
    /* issue 33: an import ends by its overall deadline, however many shards it has (seven
     * here; 1 ms is gone once the first header is read) and stores nothing */
    snprintf(command, sizeof(command),
             "GPUSIZER_HUB_IMPORT_DEADLINE_MS=1 %s %s import Qwen/Qwen3-30B-A3B-FP8 --db %s 2>&1",
             test_server_wrapper(), binary, db.path);
    out = popen(command, "r");
    assert_non_null(out);
    const size_t got = fread(text, 1, sizeof(text) - 1, out);
    text[got] = '\0';
    const int late = pclose(out);
    assert_true(WIFEXITED(late) && WEXITSTATUS(late) != 0);
    assert_non_null(strstr(text, "the import's limit"));
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s /path/to/gpusizer\n", argv[0]);
        return 2;
    }
    binary = argv[1];
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_import_dense_bf16),
        cmocka_unit_test(test_unknown_model_type),
        cmocka_unit_test(test_quantized_and_gguf),
        cmocka_unit_test(test_import_mtp_layers),
        cmocka_unit_test(test_auto_import),
        cmocka_unit_test(test_failures),
        cmocka_unit_test(test_concurrent_imports),
        cmocka_unit_test(test_slow_imports_do_not_block_reads),
        cmocka_unit_test(test_cli_import),
    };
    const int failed = cmocka_run_group_tests(tests, setup, teardown);
    return failed + test_server_failures(); /* a failed teardown alone exits 0 */
}
