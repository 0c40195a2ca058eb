/*
 * test_http.c - integration tests: a real `gpusizer serve` on 127.0.0.1 with
 * an ephemeral port and a temporary catalog, driven over HTTP with libcurl.
 *
 * usage: test_http /path/to/gpusizer
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "http_client.h"
#include "test_files.h"
#include "test_server.h"

#include <curl/curl.h>
#include <jansson.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

static const char *binary;
static struct test_server server;
static int port;
static struct test_db db;

#define reply http_reply

/* One request; body may be NULL. content_type NULL means no header;
 * extra_header is one more "Name: value" header or NULL. */
static struct reply request_with(const char *method, const char *path, const char *content_type,
                                 const char *body, size_t body_len, const char *extra_header)
{
    const char *headers[] = {extra_header, NULL};
    struct reply r = http_call(port, method, path, content_type, body, body_len, headers);
    if (r.status < 0)
        fail_msg("%s %s: no HTTP answer", method, path);
    return r;
}

static struct reply request(const char *method, const char *path, const char *content_type,
                            const char *body, size_t body_len)
{
    return request_with(method, path, content_type, body, body_len, NULL);
}

static struct reply post_json(const char *body)
{
    return request("POST", "/v1/estimate", "application/json", body, strlen(body));
}

static json_t *parse(const struct reply *r)
{
    json_error_t err;
    json_t *v = json_loadb(r->body != NULL ? r->body : "", r->length, 0, &err);
    if (v == NULL)
        fail_msg("response is not JSON (%s): %.200s", err.text, r->body ? r->body : "");
    return v;
}

/* Checks a problem+json reply: status, media type, and (when given) an error
 * at `pointer`. */
static void expect_problem(struct reply *r, long status, const char *pointer)
{
    if (r->status != status)
        fail_msg("expected %ld, got %ld: %.300s", status, r->status, r->body ? r->body : "");
    assert_string_equal(r->content_type, "application/problem+json");
    json_t *body = parse(r);
    assert_int_equal(json_integer_value(json_object_get(body, "status")), status);
    assert_non_null(json_string_value(json_object_get(body, "title")));
    assert_non_null(strstr(json_string_value(json_object_get(body, "type")), "urn:gpusizer:problem:"));
    json_t *errors = json_object_get(body, "errors");
    assert_true(json_is_array(errors));
    if (pointer != NULL) {
        bool found = false;
        size_t i;
        json_t *e;
        json_array_foreach(errors, i, e) found |=
            strcmp(json_string_value(json_object_get(e, "pointer")), pointer) == 0;
        if (!found)
            fail_msg("no error at %s: %s", pointer, r->body);
    }
    json_decref(body);
    free(r->body);
}

static int start_server(void **state)
{
    (void)state;
    if (test_db_make(&db, "gs-http") != 0 || test_server_start(&server, binary, db.path, NULL) != 0)
        return -1;
    port = server.port;
    return 0;
}

static int stop_server(void **state)
{
    (void)state;
    /* a clean stop on SIGTERM is part of the contract */
    const int rc = test_server_stop(&server);
    test_db_remove(&db);
    return rc;
}

static void test_health_and_ready(void **state)
{
    (void)state;
    struct reply r = request("GET", "/healthz", NULL, NULL, 0);
    assert_int_equal(r.status, 200);
    assert_string_equal(r.content_type, "application/json");
    assert_string_equal(r.body, "{\"status\":\"ok\"}");
    free(r.body);
    r = request("GET", "/readyz", NULL, NULL, 0);
    assert_int_equal(r.status, 200);
    json_t *body = parse(&r);
    assert_string_equal(json_string_value(json_object_get(body, "status")), "ready");
    /* the seed: at least 40 models and 25 GPUs (db/migrations/0002, 0004, 0005) */
    assert_true(json_integer_value(json_object_get(body, "models")) >= 40);
    assert_true(json_integer_value(json_object_get(body, "gpus")) >= 25);
    json_decref(body);
    free(r.body);
    r = request("HEAD", "/healthz", NULL, NULL, 0);
    assert_int_equal(r.status, 200);
    assert_int_equal(r.length, 0);
    free(r.body);
}

static void test_catalog_lists(void **state)
{
    (void)state;
    struct reply r = request("GET", "/v1/models", NULL, NULL, 0);
    assert_int_equal(r.status, 200);
    json_t *body = parse(&r);
    json_t *items = json_object_get(body, "items");
    assert_int_equal(json_integer_value(json_object_get(body, "total")), json_array_size(items));
    /* sorted by id, the first seed models among them */
    const char *want[] = {"llama-3.1-70b", "llama-3.1-8b", "mistral-7b-v0.1"};
    size_t found = 0;
    const char *previous = "";
    size_t i;
    json_t *item;
    json_array_foreach(items, i, item)
    {
        const char *id = json_string_value(json_object_get(item, "id"));
        assert_true(strcmp(previous, id) < 0);
        previous = id;
        for (size_t k = 0; k < 3; k++)
            found += strcmp(id, want[k]) == 0;
    }
    assert_int_equal(found, 3);
    json_decref(body);
    free(r.body);

    r = request("GET", "/v1/gpus", NULL, NULL, 0);
    assert_int_equal(r.status, 200);
    body = parse(&r);
    assert_true(json_integer_value(json_object_get(body, "total")) >= 25);
    json_t *first = json_array_get(json_object_get(body, "items"), 0);
    assert_non_null(json_object_get(first, "usable_memory_bytes"));
    assert_non_null(json_object_get(first, "sources"));
    json_decref(body);
    free(r.body);
}

static void test_estimate_acceptance(void **state)
{
    (void)state;
    struct reply r = post_json(
        "{\"model\":{\"parameters\":7000000000},\"mode\":\"training\",\"precision\":{\"weights\":\"fp32\"}}");
    assert_int_equal(r.status, 200);
    assert_string_equal(r.content_type, "application/json");
    json_t *body = parse(&r);
    json_t *per_gpu = json_object_get(body, "per_gpu");
    assert_int_equal(json_integer_value(json_object_get(per_gpu, "weights_bytes")), 28000000000LL);
    assert_int_equal(json_integer_value(json_object_get(per_gpu, "gradients_bytes")), 28000000000LL);
    assert_int_equal(json_integer_value(json_object_get(per_gpu, "optimizer_bytes")), 56000000000LL);
    assert_true(json_array_size(json_object_get(body, "assumptions")) > 0);
    json_decref(body);
    free(r.body);

    r = post_json("{\"model\":\"Meta-Llama/Llama-3.1-8B\",\"mode\":\"inference\","
                  "\"precision\":{\"weights\":\"bf16\"},\"gpu\":\"rtx-4090\"}");
    assert_int_equal(r.status, 200);
    body = parse(&r);
    assert_int_equal(json_integer_value(json_object_get(json_object_get(body, "model"), "parameters")),
                     8030261248LL);
    json_t *fit = json_object_get(body, "fit");
    assert_string_equal(json_string_value(json_object_get(fit, "gpu")), "rtx-4090");
    /* 16.06 GB of weights + 0.32 GB overhead fits the 23.527 GiB the 4090's
     * driver reports (floor(23.527 x 2^30), db/migrations/0005) */
    assert_true(json_is_true(json_object_get(fit, "fits")));
    assert_int_equal(json_integer_value(json_object_get(fit, "usable_bytes")), 25261923893LL);
    json_decref(body);
    free(r.body);

    /* a pasted config with Python's non-standard literals (Mamba configs carry
     * "time_step_limit": [0.0, Infinity]) is read, the literals as null */
    r = post_json("{\"model\":{\"config\":{\"model_type\":\"llama\",\"hidden_size\":4096,"
                  "\"num_hidden_layers\":32,\"num_attention_heads\":32,\"num_key_value_heads\":8,"
                  "\"intermediate_size\":14336,\"vocab_size\":128256,"
                  "\"time_step_limit\":[0.0,Infinity],\"rope_theta\":NaN}}}");
    assert_int_equal(r.status, 200);
    body = parse(&r);
    assert_int_equal(json_integer_value(json_object_get(json_object_get(body, "model"), "parameters")),
                     8030261248LL);
    json_decref(body);
    free(r.body);

    /* Llama 3.1 70B in bf16 does not fit one H100: negative headroom */
    r = post_json("{\"model\":\"llama-3.1-70b\",\"gpu\":\"h100\"}");
    assert_int_equal(r.status, 200);
    body = parse(&r);
    fit = json_object_get(body, "fit");
    assert_true(json_is_false(json_object_get(fit, "fits")));
    assert_true(json_integer_value(json_object_get(fit, "headroom_bytes")) < 0);
    json_decref(body);
    free(r.body);
}

static void test_bad_requests(void **state)
{
    (void)state;
    struct reply r = post_json("{\"model\": ");
    expect_problem(&r, 400, "");
    r = post_json("{\"model\":\"llama-3.1-8b\",\"model\":\"x\"}"); /* duplicate key */
    expect_problem(&r, 400, NULL);
    r = post_json("{\"model\":\"llama-3.1-8b\",\"precission\":{\"weights\":\"bf16\"}}");
    expect_problem(&r, 400, "/precission");
    r = post_json("{\"model\":{\"parameters\":\"lots\"}}");
    expect_problem(&r, 400, "/model/parameters");
    r = post_json("{\"model\":{\"parameters\":10000000000000000}}");
    expect_problem(&r, 400, "/model/parameters");
    r = post_json("{\"model\":\"gpt-5\"}");
    expect_problem(&r, 400, "/model");
    r = post_json("{\"model\":\"llama-3.1-8b\",\"gpu\":\"tpu\"}");
    expect_problem(&r, 400, "/gpu");
    /* issue 34: gpu_count, as /v1/fit and the page send it, is the layout's GPU count - two
     * GPUs with no layout naming them is a 400 saying the layout takes one */
    r = post_json("{\"model\":\"llama-3.1-8b\",\"gpu\":\"h100\",\"gpu_count\":2}");
    assert_non_null(strstr(r.body != NULL ? r.body : "", "takes 1 GPU"));
    expect_problem(&r, 400, "/gpu_count");
    r = post_json("{\"model\":\"llama-3.1-8b\",\"gpu\":\"h100\",\"gpu_count\":2,"
                  "\"parallelism\":{\"tensor\":2}}");
    assert_int_equal(r.status, 200);
    assert_non_null(strstr(r.body, "\"gpu_count\":2"));
    free(r.body);
    /* a config of a model type gpusizer cannot read: 422, naming the type */
    r = post_json("{\"model\":{\"config\":{\"model_type\":\"rwkv7\",\"hidden_size\":8}}}");
    expect_problem(&r, 422, "/model/config/model_type");
    r = request("GET", "/v1/nothing", NULL, NULL, 0);
    expect_problem(&r, 404, NULL);
    r = request("GET", "/v1/estimate", NULL, NULL, 0);
    assert_string_equal(r.allow, "POST");
    expect_problem(&r, 405, NULL);
    r = request("DELETE", "/v1/models", NULL, NULL, 0);
    expect_problem(&r, 405, NULL);
    const char *text = "{\"model\":\"llama-3.1-8b\"}";
    r = request("POST", "/v1/estimate", "text/plain", text, strlen(text));
    expect_problem(&r, 415, NULL);
    r = request("POST", "/v1/estimate", NULL, text, strlen(text));
    expect_problem(&r, 415, NULL);
}

/* A config of a type no reader names, Llama-shaped (tests/server/test_models_generic.c
 * writes out its 1,498,482,688): an estimate read by the generic reader, marked approximate,
 * with a warning naming the key it did not understand; without hidden_size a 422 naming it. */
static void test_generic_config(void **state)
{
    (void)state;
    static const char *const config =
        "\"model_type\":\"acme_lm\",\"num_hidden_layers\":16,\"num_attention_heads\":32,"
        "\"num_key_value_heads\":8,\"intermediate_size\":8192,\"vocab_size\":128256,"
        "\"tie_word_embeddings\":false,\"acme_gate_scale\":1.5";
    char body[512];
    snprintf(body, sizeof(body), "{\"model\":{\"config\":{\"hidden_size\":2048,%s}}}", config);
    struct reply r = post_json(body);
    assert_int_equal(r.status, 200);
    json_t *doc = parse(&r);
    const json_t *model = json_object_get(doc, "model");
    assert_int_equal(json_integer_value(json_object_get(model, "parameters")), 1498482688LL);
    assert_string_equal(json_string_value(json_object_get(model, "read_as")), "generic");
    assert_string_equal(json_string_value(json_object_get(model, "accuracy")), "approximate");
    bool warned = false;
    size_t i;
    json_t *w;
    json_array_foreach(json_object_get(doc, "warnings"), i, w) warned |=
        strcmp(json_string_value(json_object_get(w, "code")), "architecture_approximate") == 0 &&
        strstr(json_string_value(json_object_get(w, "detail")), "acme_gate_scale") != NULL;
    assert_true(warned);
    json_decref(doc);
    free(r.body);

    snprintf(body, sizeof(body), "{\"model\":{\"config\":{%s}}}", config);
    r = post_json(body);
    assert_int_equal(r.status, 422);
    doc = parse(&r);
    assert_string_equal(json_string_value(json_object_get(doc, "type")),
                        "urn:gpusizer:problem:unsupported-model-type");
    const json_t *errors = json_object_get(doc, "errors");
    assert_string_equal(json_string_value(json_object_get(json_array_get(errors, 0), "pointer")),
                        "/model/config/model_type");
    assert_string_equal(json_string_value(json_object_get(json_array_get(errors, 1), "pointer")),
                        "/model/config/hidden_size");
    json_decref(doc);
    free(r.body);
}

static void test_oversized_body(void **state)
{
    (void)state;
    size_t n = (1u << 20) + 100;
    char *big = malloc(n + 1);
    assert_non_null(big);
    memset(big, ' ', n);
    big[0] = '{';
    big[n - 1] = '}';
    big[n] = '\0';
    struct reply r = post_json(big);
    expect_problem(&r, 413, NULL);
    /* chunked: no declared length, so the cap is found while reading */
    r = request_with("POST", "/v1/estimate", "application/json", big, n,
                     "Transfer-Encoding: chunked");
    expect_problem(&r, 413, NULL);
    free(big);
}

/* Sizing over HTTP: a recommendation ranked by cost, a fit verdict, and the
 * methods the routes accept. */
static void test_recommend_and_fit(void **state)
{
    (void)state;
    const char *rec = "{\"model\":\"llama-3.1-8b\",\"inference\":{\"context_length\":4096},"
                      "\"demand\":{\"output_tokens_per_s\":2000,\"prompt_tokens\":1024,"
                      "\"output_tokens\":256},\"constraints\":{\"gpus\":[\"h100\",\"l4\",\"t4\"]}}";
    struct reply r = request("POST", "/v1/recommend", "application/json", rec, strlen(rec));
    assert_int_equal(r.status, 200);
    json_t *body = parse(&r);
    json_t *options = json_object_get(body, "options");
    assert_true(json_array_size(options) >= 1);
    assert_true(json_array_size(options) + json_array_size(json_object_get(body, "rejected")) == 3);
    double previous = 0;
    size_t i;
    json_t *o;
    json_array_foreach(options, i, o)
    {
        const double cost = json_number_value(json_object_get(o, "cost_per_hour"));
        assert_true(cost >= previous);
        previous = cost;
    }
    json_decref(body);
    free(r.body);

    const char *fit = "{\"model\":\"llama-3.1-8b\",\"gpu\":\"h100\"}";
    r = request("POST", "/v1/fit", "application/json", fit, strlen(fit));
    assert_int_equal(r.status, 200);
    body = parse(&r);
    assert_true(json_is_true(json_object_get(body, "fits")));
    json_decref(body);
    free(r.body);

    const char *no_gpu = "{\"model\":\"llama-3.1-8b\"}";
    r = request("POST", "/v1/fit", "application/json", no_gpu, strlen(no_gpu));
    expect_problem(&r, 400, "/gpu");
    r = request("GET", "/v1/recommend", NULL, NULL, 0);
    expect_problem(&r, 405, NULL);
}

static void test_contract_and_web_form(void **state)
{
    (void)state;
    struct reply r = request("GET", "/openapi.json", NULL, NULL, 0);
    assert_int_equal(r.status, 200);
    json_t *spec = parse(&r);
    assert_string_equal(json_string_value(json_object_get(spec, "openapi")), "3.1.0");
    assert_non_null(json_object_get(json_object_get(spec, "paths"), "/v1/estimate"));
    json_decref(spec);
    free(r.body);

    r = request("GET", "/", NULL, NULL, 0);
    assert_int_equal(r.status, 200);
    assert_non_null(strstr(r.content_type, "text/html"));
    assert_non_null(strstr(r.body, "<form"));
    free(r.body);
    r = request("GET", "/../etc/passwd", NULL, NULL, 0);
    assert_true(r.status == 404 || r.status == 400);
    free(r.body);
}

struct worker {
    int ok;
};

static void *hammer(void *arg)
{
    struct worker *w = arg;
    for (int i = 0; i < 50; i++) {
        struct reply r = post_json("{\"model\":\"mistral-7b-v0.1\",\"mode\":\"training\"}");
        if (r.status == 200 && r.body != NULL && strstr(r.body, "\"parameters\":7241732096") != NULL)
            w->ok++;
        free(r.body);
    }
    return NULL;
}

/* Eight clients at once, 400 requests: every answer complete and correct. */
static void test_concurrent_clients(void **state)
{
    (void)state;
    pthread_t threads[8];
    struct worker workers[8];
    memset(workers, 0, sizeof(workers));
    for (int i = 0; i < 8; i++)
        assert_int_equal(pthread_create(&threads[i], NULL, hammer, &workers[i]), 0);
    int ok = 0;
    for (int i = 0; i < 8; i++) {
        pthread_join(threads[i], NULL);
        ok += workers[i].ok;
    }
    assert_int_equal(ok, 400);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s /path/to/gpusizer\n", argv[0]);
        return 2;
    }
    binary = argv[1];
    curl_global_init(CURL_GLOBAL_DEFAULT);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_health_and_ready),
        cmocka_unit_test(test_catalog_lists),
        cmocka_unit_test(test_estimate_acceptance),
        cmocka_unit_test(test_bad_requests),
        cmocka_unit_test(test_generic_config),
        cmocka_unit_test(test_oversized_body),
        cmocka_unit_test(test_recommend_and_fit),
        cmocka_unit_test(test_contract_and_web_form),
        cmocka_unit_test(test_concurrent_clients),
    };
    int failed = cmocka_run_group_tests(tests, start_server, stop_server);
    curl_global_cleanup();
    return failed + test_server_failures(); /* a failed teardown alone exits 0 */
}
