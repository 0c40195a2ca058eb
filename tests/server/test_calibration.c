/*
 * test_calibration.c - gpusizer's vLLM KV capacity against real startup logs.
 *
 * Every run in tests/fixtures/calibration/vllm-startup-logs.json and
 * vllm-llmd-planner-logs.json (real vLLM
 * startup logs, each naming its public source) goes through /v1/estimate's
 * own path (service_estimate) with gpusizer's defaults and only what the
 * log says about the run (tests/fixtures/calibration/requests.json: the
 * model's config, the GPU as the catalog names it, the layout,
 * gpu_memory_utilization, max_model_len, the knobs the command line set
 * and the engine release), and the KV capacity it predicts is compared with
 * the capacity vLLM printed.
 *
 * With GS_CALIBRATION_REPORT set in the environment it prints one line per
 * run and a JSON summary (median and worst absolute error) that
 * bench/calibrate.sh stores as bench/calibration.json. SGLang's,
 * TensorRT-LLM's and TGI's logged capacities (sglang-, tensorrt-llm- and
 * tgi-startup-logs.json) go the same way, each within 5% or the tolerance its
 * entry gives with the reason.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "catalog.h"
#include "gs/runtime.h"
#include "gs/vllm.h"
#include "formats/problem.h"
#include "api/service.h"
#include "test_files.h"
#include "test_service.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef GS_FIXTURES_DIR
#error "GS_FIXTURES_DIR must name tests/fixtures/configs"
#endif

#define RUNS_MAX 160

static struct test_service fixture;

struct outcome {
    char id[96];
    long long logged, predicted;
    double error; /* (predicted - logged) / logged */
};

static int setup_group(void **state)
{
    (void)state;
    return test_service_open(&fixture, "gs-calibration", false);
}

static int teardown_group(void **state)
{
    (void)state;
    test_service_close(&fixture);
    return 0;
}

static json_t *load_path(const char *path)
{
    json_error_t jerr;
    json_t *doc = json_load_file(path, 0, &jerr);
    if (doc == NULL)
        fail_msg("%s: %s", path, jerr.text);
    return doc;
}

/* A file of tests/fixtures/calibration. */
static json_t *load(const char *name)
{
    char path[512];
    snprintf(path, sizeof(path), "%s/../calibration/%s", GS_FIXTURES_DIR, name);
    return load_path(path);
}

static const json_t *entry_for(const json_t *logs, const char *id)
{
    size_t i;
    const json_t *e;
    json_array_foreach(json_object_get(logs, "entries"), i, e) {
        if (strcmp(json_string_value(json_object_get(e, "id")), id) == 0)
            return e;
    }
    fail_msg("no log %s", id);
    return NULL;
}

/* The inference section of a run: the log's max_model_len and the knobs
 * its command line or non-default args set, nothing else. */
static json_t *run_inference(const json_t *run)
{
    static const char *const knobs[] = {"gpu_memory_utilization", "max_num_seqs",
                                        "max_num_batched_tokens", "engine_version",
                                        "enforce_eager", "enable_chunked_prefill",
                                        "enable_prefix_caching", "kv_cache_dtype", NULL};
    json_t *inference = json_pack("{s:i, s:O, s:s}", "batch_size", 1, "context_length",
                                  json_object_get(run, "max_model_len"), "engine", "vllm");
    for (const char *const *k = knobs; *k != NULL; k++) {
        json_t *v = json_object_get(run, *k);
        if (v != NULL)
            json_object_set(inference, *k, v);
    }
    return inference;
}

/* The request for one run of requests.json: its log's config as the model. */
static json_t *request_for(const json_t *run, const json_t *log)
{
    json_t *parallelism = json_pack("{s:O, s:O}", "tensor", json_object_get(run, "tensor"),
                                    "pipeline", json_object_get(run, "pipeline"));
    json_t *request = json_pack("{s:{s:O}, s:O, s:o, s:o}", "model", "config",
                                json_object_get(log, "config"), "gpu", json_object_get(run, "gpu"),
                                "parallelism", parallelism, "inference", run_inference(run));
    assert_non_null(request);
    return request;
}

/* A run of vllm-llmd-planner-logs.json: a catalog model in its weights' format (the
 * published checkpoint's own when the run names none). */
static json_t *catalog_request_for(const json_t *run)
{
    json_t *inference = run_inference(run);
    json_t *request = json_pack(
        "{s:O, s:O, s:{s:O, s:O}, s:o}", "model", json_object_get(run, "model"), "gpu",
        json_object_get(run, "gpu"), "parallelism", "tensor", json_object_get(run, "tensor"),
        "pipeline", json_object_get(run, "pipeline"), "inference", inference);
    assert_non_null(request);
    const json_t *weights = json_object_get(run, "weights");
    if (weights != NULL)
        assert_int_equal(json_object_set_new(request, "precision",
                                             json_pack("{s:O}", "weights", weights)),
                         0);
    return request;
}

/* The /v1/estimate answer to `request` (the caller owns it); a refusal fails the test. */
/* Whether the response carries the warning `code`. */
static bool has_warning(const json_t *response, const char *code)
{
    size_t i;
    const json_t *w;
    json_array_foreach(json_object_get(response, "warnings"), i, w) {
        const char *c = json_string_value(json_object_get(w, "code"));
        if (c != NULL && strcmp(c, code) == 0)
            return true;
    }
    return false;
}

static json_t *estimate_for(json_t *request, const char *id)
{
    json_t *response = NULL;
    struct problem p;
    problem_init(&p);
    if (service_estimate(fixture.service, request, &response, &p) != 0)
        fail_msg("%s: %d %s %s", id, p.status, p.errors.count ? p.errors.items[0].pointer : "",
                 p.errors.count ? p.errors.items[0].detail : "");
    return response;
}

static void run_one(json_t *request, const json_t *run, struct outcome *o)
{
    const char *id = json_string_value(json_object_get(run, "id"));
    json_t *response = estimate_for(request, id);
    snprintf(o->id, sizeof(o->id), "%s", id);
    o->logged = (long long)json_integer_value(json_object_get(run, "logged_tokens"));
    o->predicted = (long long)json_integer_value(
        json_object_get(json_object_get(response, "kv_cache"), "max_tokens"));
    o->error = o->logged ? (double)(o->predicted - o->logged) / (double)o->logged : 0;
    json_decref(response);
}

static size_t run_all(struct outcome *out)
{
    json_t *logs = load("vllm-startup-logs.json");
    json_t *runs = load("requests.json");
    size_t n = 0, i;
    const json_t *run;
    json_array_foreach(json_object_get(runs, "runs"), i, run) {
        if (n >= RUNS_MAX)
            break;
        const char *id = json_string_value(json_object_get(run, "id"));
        json_t *request = request_for(run, entry_for(logs, id));
        run_one(request, run, &out[n++]);
        json_decref(request);
    }
    json_decref(runs);
    json_decref(logs);
    json_t *more = load("vllm-llmd-planner-logs.json");
    json_array_foreach(json_object_get(more, "runs"), i, run) {
        if (n >= RUNS_MAX)
            break;
        json_t *request = catalog_request_for(run);
        run_one(request, run, &out[n++]);
        json_decref(request);
    }
    json_decref(more);
    return n;
}


struct summary {
    size_t runs, within5, within10;
    double median, worst; /* absolute relative errors */
};

static int by_abs(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* One engine's figures over its logs (`errors` are absolute relative
 * errors; sorted in place). With GS_CALIBRATION_REPORT set they are printed
 * as the JSON line bench/calibrate.sh stores; otherwise the stored file
 * bench/`stored` (what the server reports as kv_cache.accuracy) must be this
 * run's: rerun bench/calibrate.sh after a change to the rules. */
static struct summary summarize(const char *engine, double *errors, size_t n, const char *stored)
{
    assert_true(n > 0);
    qsort(errors, n, sizeof(errors[0]), by_abs);
    struct summary m = {n, 0, 0, 0, errors[n - 1]};
    for (size_t k = 0; k < n; k++) {
        m.within5 += errors[k] <= 0.05;
        m.within10 += errors[k] <= 0.10;
    }
    m.median = n % 2 ? errors[n / 2] : (errors[n / 2 - 1] + errors[n / 2]) / 2;
    if (getenv("GS_CALIBRATION_REPORT") != NULL) {
        printf("{\"engine\":\"%s\",\"runs\":%zu,\"within_5_percent\":%zu,"
               "\"within_10_percent\":%zu,\"median_abs_error\":%.4f,\"worst_abs_error\":%.4f}\n",
               engine, m.runs, m.within5, m.within10, m.median, m.worst);
        return m;
    }
    char path[512];
    snprintf(path, sizeof(path), "%s/../../../bench/%s", GS_FIXTURES_DIR, stored);
    json_t *doc = load_path(path);
    const bool same =
        (size_t)json_integer_value(json_object_get(doc, "runs")) == m.runs &&
        (size_t)json_integer_value(json_object_get(doc, "within_5_percent")) == m.within5 &&
        (size_t)json_integer_value(json_object_get(doc, "within_10_percent")) == m.within10 &&
        fabs(json_number_value(json_object_get(doc, "median_abs_error")) - m.median) < 5e-5 &&
        fabs(json_number_value(json_object_get(doc, "worst_abs_error")) - m.worst) < 5e-5;
    json_decref(doc);
    if (!same)
        fail_msg("bench/%s is not this build's measurement (median %.4f, worst %.4f, "
                 "%zu of %zu within 5%%): run bench/calibrate.sh",
                 stored, m.median, m.worst, m.within5, m.runs);
    return m;
}

/* The bar on the 10 shared logs (requests.json, run first): at
 * least 9 within 5% of the logged capacity and all within 10%; over all of
 * them with the 46 llm-d planner runs (vllm-llmd-planner-logs.json) at
 * least 90% within 5% and all within 10%; and the stored figures are the
 * measured ones. All within 5% since the catalog's H100 reads 79.19 GiB as
 * current drivers report it (db/migrations/0016); the worst, Kimi-Dev-72B
 * at TP 2, +4.4% of a 3 GiB pool. The DeepSeek-V2.5 16 x
 * A100-40GB log (vLLM 0.8.3 V0, TP 8 x PP 2), +36% before, is within 1.2%
 * since its least roomy worker - the last stage's first tensor rank, hidden
 * by Ray's log de-duplication - carries V0's logits-gather buffers
 * (docs/vllm-kv-budget-research.md section 14). */
static void test_vllm_logs(void **state)
{
    (void)state;
    struct outcome out[RUNS_MAX];
    const size_t n = run_all(out);
    assert_true(n >= 10);
    double errors[RUNS_MAX];
    for (size_t i = 0; i < n; i++) {
        assert_true(out[i].predicted >= 0);
        errors[i] = fabs(out[i].error);
        if (getenv("GS_CALIBRATION_REPORT") != NULL)
            printf("%-48s logged %9lld predicted %9lld error %+6.1f%%\n", out[i].id, out[i].logged,
                   out[i].predicted, 100 * out[i].error);
    }
    size_t shared5 = 0;
    for (size_t i = 0; i < 10; i++) {
        shared5 += errors[i] <= 0.05;
        assert_true(errors[i] <= 0.10);
    }
    assert_true(shared5 >= 9);
    const struct summary m = summarize("vllm", errors, n, "calibration.json");
    assert_true(m.within5 * 10 >= m.runs * 9);
    assert_true(m.within10 == m.runs);
    assert_true(m.median <= 0.03);
}

/* Another engine's logged pools (`file` in tests/fixtures/calibration):
 * each entry sends its model (a config or a catalog id), GPU, tensor degree (or its
 * `parallelism`),
 * optional weight precision and its `inference` knobs with `engine`; every
 * capacity within 5%, or within the wider tolerance an entry gives with the
 * reason (its `gap`); the summary must be the stored `stored` file. */
static void run_engine_logs(const char *engine, const char *label, const char *file,
                            const char *stored, size_t at_least)
{
    json_t *logs = load(file);
    double errors[RUNS_MAX];
    size_t i, n = 0;
    const json_t *e;
    json_array_foreach(json_object_get(logs, "entries"), i, e) {
        if (n >= RUNS_MAX)
            break;
        const char *id = json_string_value(json_object_get(e, "id"));
        const json_t *config = json_object_get(e, "config");
        json_t *model = config ? json_pack("{s:O}", "config", config)
                               : json_deep_copy(json_object_get(e, "model"));
        json_t *inference = json_deep_copy(json_object_get(e, "inference"));
        if (inference == NULL)
            inference = json_object();
        json_object_set_new(inference, "engine", json_string(engine));
        if (json_object_get(inference, "context_length") == NULL)
            json_object_set_new(inference, "context_length", json_integer(4096));
        json_object_set_new(inference, "batch_size", json_integer(1));
        /* a run's layout: its `parallelism` (data-parallel and expert ranks) or its tensor
         * degree */
        const json_t *layout = json_object_get(e, "parallelism");
        json_t *parallelism = layout ? json_deep_copy(layout)
                                     : json_pack("{s:O}", "tensor", json_object_get(e, "tensor"));
        json_t *request = json_pack("{s:o, s:O, s:o, s:o}", "model", model, "gpu",
                                    json_object_get(e, "gpu"), "parallelism", parallelism,
                                    "inference", inference);
        assert_non_null(request);
        const json_t *weights = json_object_get(e, "weights");
        if (weights != NULL)
            json_object_set_new(request, "precision", json_pack("{s:O}", "weights", weights));
        json_t *response = estimate_for(request, id);
        const double logged = (double)json_integer_value(json_object_get(e, "logged_tokens"));
        /* the capacity as the engine's log prints it (vLLM from 0.21: max concurrency x
         * max_model_len; max_tokens otherwise) */
        const double predicted = (double)json_integer_value(
            json_object_get(json_object_get(response, "kv_cache"), "reported_tokens"));
        const double error = (predicted - logged) / logged;
        if (getenv("GS_CALIBRATION_REPORT") != NULL)
            printf("%-48s logged %9.0f predicted %9.0f error %+6.1f%%\n", id, logged, predicted,
                   100 * error);
        /* a wider tolerance only with the reason written next to it */
        const json_t *tolerance = json_object_get(e, "tolerance");
        const double bound = tolerance ? json_number_value(tolerance) : 0.05;
        assert_true(tolerance == NULL || json_is_string(json_object_get(e, "gap")));
        if (fabs(error) > bound)
            fail_msg("%s: logged %.0f tokens, gpusizer %.0f (%+.1f%%)", id, logged, predicted,
                     100 * error);
        errors[n++] = fabs(error);
        json_decref(response);
        json_decref(request);
    }
    json_decref(logs);
    assert_true(n >= at_least);
    summarize(label, errors, n, stored);
}

/* SGLang (model_runner.profile_max_num_token). */
/* The budget of one request through /v1/estimate (the caller owns it). */
static json_t *budget_of(json_t *request, const char *id)
{
    json_t *response = estimate_for(request, id);
    json_t *budget = json_incref(json_object_get(response, "budget"));
    json_decref(response);
    assert_non_null(budget);
    return budget;
}

static void check_weights(const char *id, double logged_gib, const json_t *budget, double tolerance)
{
    const double predicted =
        (double)json_integer_value(json_object_get(budget, "weights_bytes")) / (1024.0 * 1024 * 1024);
    const double error = (predicted - logged_gib) / logged_gib;
    if (getenv("GS_CALIBRATION_REPORT") != NULL)
        printf("%-48s weights logged %7.2f GiB predicted %7.2f GiB error %+5.2f%%\n", id, logged_gib,
               predicted, 100 * error);
    if (fabs(error) > tolerance)
        fail_msg("%s: loaded weights %.3f GiB, logged %.3f GiB", id, predicted, logged_gib);
}

/* The "non_torch_memory=X.XXGiB" of a run's "worker init memory snapshot" line. */
static double init_non_torch_gib(const json_t *runs, const char *id)
{
    size_t i, k;
    const json_t *run, *line;
    json_array_foreach(runs, i, run) {
        if (strcmp(json_string_value(json_object_get(run, "id")), id) != 0)
            continue;
        json_array_foreach(json_object_get(run, "quote"), k, line) {
            const char *at = strstr(json_string_value(line), "non_torch_memory=");
            if (at != NULL && strstr(json_string_value(line), "init memory snapshot") != NULL)
                return strtod(at + strlen("non_torch_memory="), NULL);
        }
    }
    fail_msg("%s: no init memory snapshot quoted", id);
    return 0;
}

/* "non_torch_memory takes X.XXGiB" of line `k` of one run's printed workers. */
static double printed_non_torch_gib(const json_t *workers, const char *run, size_t k)
{
    const char *line = json_string_value(json_array_get(json_object_get(workers, run), k));
    const char *at = line != NULL ? strstr(line, "non_torch_memory takes ") : NULL;
    if (at == NULL)
        fail_msg("deepseek-v2.5 %s line %zu: no non-torch figure", run, k);
    return strtod(at + strlen("non_torch_memory takes "), NULL);
}

/* The Ampere NVLink communicator and the cross-node term (runtime.c) against
 * the DeepSeek-V2.5 logs they come from: the first stage's TP rank 0, which
 * gathers nothing, prints 0.89 GiB over sockets (growth and one
 * communicator) and 0.93 over InfiniBand (and GPUDirect buffers); the same
 * differences hold on the other printed ranks (1.04 / 1.07, 2.11 / 2.15). */
static void test_nvlink_communicator(void **state)
{
    (void)state;
    json_t *logs = load("vllm-startup-logs.json");
    const json_t *workers = json_object_get(
        entry_for(logs, "vllm-deepseek-v25-16xa100-40gb-tp8-pp2"), "printed_workers");
    const struct gs_vllm_release *v0 = gs_vllm_release_for_layout(803, 2);
    bool ovf = false;
    const double gib = 1024.0 * 1024 * 1024;
    const double sockets =
        (double)gs_vllm_non_torch(v0, GS_LINK_NVLINK, 8, false, false, &ovf) / gib;
    const double ib = (double)gs_vllm_non_torch(v0, GS_LINK_NVLINK, 8, true, false, &ovf) / gib;
    assert_false(ovf);
    if (fabs(sockets - printed_non_torch_gib(workers, "sockets", 0)) > 0.005 ||
        fabs(ib - printed_non_torch_gib(workers, "infiniband", 0)) > 0.005)
        fail_msg("first rank %.3f / %.3f GiB, logged %.2f / %.2f", sockets, ib,
                 printed_non_torch_gib(workers, "sockets", 0),
                 printed_non_torch_gib(workers, "infiniband", 0));
    for (size_t k = 0; k < 3; k++) {
        const double d = printed_non_torch_gib(workers, "infiniband", k) -
                         printed_non_torch_gib(workers, "sockets", k);
        if (fabs(d - (ib - sockets)) > 0.0151)
            fail_msg("printed rank %zu: InfiniBand adds %.2f GiB, gpusizer %.3f", k, d,
                     ib - sockets);
    }
    json_decref(logs);
}

/* The second NCCL communicator V0's logits gather creates on a Hopper board
 * (runtime.c): one communicator with the custom all-reduce is what the
 * tensor group's setup leaves before vLLM 0.19's init snapshot, the TP 2
 * snapshot less the TP 1 one (the CUDA context) on the llm-d H100s. */
static void test_hopper_communicator(void **state)
{
    (void)state;
    json_t *logs = load("vllm-llmd-planner-logs.json");
    const json_t *runs = json_object_get(logs, "runs");
    const double one =
        init_non_torch_gib(runs, "llmd-meta-llama-llama-3-1-8b---h100-80gb--tp2pp1dp1--8192") -
        init_non_torch_gib(runs, "llmd-meta-llama-llama-3-1-8b---h100-80gb--tp1pp1dp1--8192");
    bool ovf = false;
    const double charged = (double)(gs_runtime_gather_root_bytes(GS_LINK_NVSWITCH, 2, &ovf) -
                                    32ULL * 6291456ULL + 18874368ULL) /
                           (1024.0 * 1024 * 1024);
    assert_false(ovf);
    if (fabs(charged - one) > 0.005)
        fail_msg("second communicator %.3f GiB, the snapshots say %.3f", charged, one);
    json_decref(logs);
}

/* What vLLM's weights take once loaded - the checkpoint's tensors, the
 * rotary tables and the kernels' layouts (budget.weights_bytes) - against
 * the figure each log prints: the llm-d planner's single-stage runs within
 * 1% ("weights memory: N GiB", two decimals), and the gpt-oss-120b issue
 * logs of vllm-loaded-weights-logs.json within 0.5% (Triton and Marlin MXFP4
 * layouts), with the available KV memory where a log gives it. */
static void test_vllm_loaded_weights(void **state)
{
    (void)state;
    json_t *more = load("vllm-llmd-planner-logs.json");
    size_t i, checked = 0;
    const json_t *run;
    json_array_foreach(json_object_get(more, "runs"), i, run) {
        if (json_integer_value(json_object_get(run, "pipeline")) != 1)
            continue; /* the budget shows the least roomy stage, the log another */
        double logged = 0;
        size_t j;
        const json_t *line;
        json_array_foreach(json_object_get(run, "quote"), j, line) {
            const char *at = strstr(json_string_value(line), "weights memory: ");
            if (at != NULL)
                logged = strtod(at + strlen("weights memory: "), NULL);
        }
        if (logged <= 0)
            continue;
        const char *id = json_string_value(json_object_get(run, "id"));
        json_t *request = catalog_request_for(run);
        json_t *budget = budget_of(request, id);
        check_weights(id, logged, budget, 0.01);
        json_decref(budget);
        json_decref(request);
        checked++;
    }
    json_decref(more);
    assert_true(checked >= 40);
    json_t *logs = load("vllm-loaded-weights-logs.json");
    json_array_foreach(json_object_get(logs, "entries"), i, run) {
        const char *id = json_string_value(json_object_get(run, "id"));
        json_t *request = catalog_request_for(run);
        json_t *budget = budget_of(request, id);
        const json_t *w = json_object_get(run, "logged_weights_gib");
        if (w != NULL)
            check_weights(id, json_number_value(w), budget, 0.005);
        const json_t *kv = json_object_get(run, "logged_available_kv_gib");
        if (kv != NULL) {
            const double predicted = (double)json_integer_value(json_object_get(budget, "kv_bytes")) /
                                     (1024.0 * 1024 * 1024);
            if (getenv("GS_CALIBRATION_REPORT") != NULL)
                printf("%-48s available KV logged %6.2f GiB predicted %6.2f GiB\n", id,
                       json_number_value(kv), predicted);
            if (fabs(predicted - json_number_value(kv)) >
                json_number_value(json_object_get(run, "kv_tolerance_gib")))
                fail_msg("%s: %.3f GiB left for the KV cache, logged %.2f", id, predicted,
                         json_number_value(kv));
        }
        json_decref(budget);
        json_decref(request);
    }
    json_decref(logs);
}

/* The value of the assumption `name` in an estimate response (0 when absent). */
static long long assumption_value(const json_t *response, const char *name)
{
    size_t i;
    const json_t *a;
    json_array_foreach(json_object_get(response, "assumptions"), i, a) {
        if (strcmp(json_string_value(json_object_get(a, "name")), name) == 0)
            return (long long)json_integer_value(json_object_get(a, "value"));
    }
    return 0;
}

/* What vLLM 0.11.0 loaded for Qwen3-VL-30B-A3B on each of 4 RTX 3090 (the
 * sipeed log of vllm-loaded-weights-logs.json, "Model loading took 14.7708
 * GiB"), term by term:
 *   weights (bf16, TP 4): text 7,642,626,048 parameters per rank - per layer
 *     q 2048x1024 + k, v 2048x128 + o 1024x2048 + q/k norms 256 (4,718,848),
 *     the replicated router 2048x128 (262,144), 128 experts x 3 x 2048x192
 *     (150,994,944), 2 norms (4,096), x 48; embedding and head 37,984 rows x
 *     2048 each; the final norm - and vision 138,145,052 (27 blocks of
 *     3,815,060, patch and position embeddings 4,424,832 replicated, merger
 *     7,673,216, 3 DeepStack mergers 7,680,128): 7,780,771,100 x 2 B =
 *     15,561,542,200 B;
 *   M-RoPE cos/sin table: vLLM's MRotaryEmbedding covers 4 x 262,144
 *     positions x 128 values x 2 B = 268,435,456 B (a plain rope: a quarter);
 *   DeepStack input buffers: 3 levels x max_num_batched_tokens 2,048 x
 *     hidden 2,048 x 2 B = 25,165,824 B;
 * 15,855,143,480 B = 14.7661 GiB, 4.7 MiB under the logged figure. */
static void test_qwen3_vl_loaded_weights(void **state)
{
    (void)state;
    json_t *logs = load("vllm-loaded-weights-logs.json");
    const char *id = "sipeed-cua-qwen3-vl-30b-a3b-rtx3090-tp4-0.11.0";
    json_t *request = catalog_request_for(entry_for(logs, id));
    json_t *response = estimate_for(request, id);
    const json_t *budget = json_object_get(response, "budget");
    assert_int_equal(json_integer_value(json_object_get(json_object_get(response, "per_gpu"),
                                                        "weights_bytes")),
                     15561542200LL);
    assert_int_equal(json_integer_value(json_object_get(budget, "rope_cache_bytes")), 268435456LL);
    assert_int_equal(assumption_value(response, "model_buffer_bytes"), 25165824LL);
    assert_int_equal(json_integer_value(json_object_get(budget, "weights_bytes")),
                     15561542200LL + 268435456LL + 25165824LL);
    json_decref(response);
    json_decref(request);
    json_decref(logs);
}

static void test_sglang_logs(void **state)
{
    (void)state;
    run_engine_logs("sglang", "sglang", "sglang-startup-logs.json", "calibration-sglang.json", 3);
}

/* TensorRT-LLM (free_gpu_memory_fraction of the memory free after the engine
 * and its runtime buffers). */
static void test_tensorrt_llm_logs(void **state)
{
    (void)state;
    run_engine_logs("tensorrt_llm", "tensorrt_llm", "tensorrt-llm-startup-logs.json",
                    "calibration-tensorrt-llm.json", 1);
}

/* TGI (flash_causal_lm.warmup by release: the memory free after the warm-up
 * prefill, the wiggle room, the warm-up batch's blocks added back). */
static void test_tgi_logs(void **state)
{
    (void)state;
    run_engine_logs("tgi", "tgi", "tgi-startup-logs.json", "calibration-tgi.json", 3);
}

/* vLLM's 2025-26 releases (0.11-0.26): the capacity as each release prints it
 * (vllm-2026-startup-logs.json), each within the tolerance its entry gives with the reason;
 * bench/calibration-vllm-2026.json holds the measured summary. */
static void test_vllm_2026_logs(void **state)
{
    (void)state;
    run_engine_logs("vllm", "vllm_2026", "vllm-2026-startup-logs.json",
                    "calibration-vllm-2026.json", 5);
}

/* Logs whose run did not start print no capacity, only the memory left for the cache
 * ("Available KV cache memory: -14.28 GiB"): gpusizer's budget.kv_bytes, less the CUDA-graph
 * estimate the log prints (which gpusizer does not model), within 5% of the requested memory
 * (vllm-2026-startup-logs.json profile_logs). */
static void test_vllm_profile_logs(void **state)
{
    (void)state;
    json_t *logs = load("vllm-2026-startup-logs.json");
    size_t i;
    const json_t *e;
    size_t n = 0;
    json_array_foreach(json_object_get(logs, "profile_logs"), i, e) {
        const char *id = json_string_value(json_object_get(e, "id"));
        json_t *inference = json_deep_copy(json_object_get(e, "inference"));
        json_object_set_new(inference, "engine", json_string("vllm"));
        json_t *request = json_pack("{s:O, s:O, s:{s:O}, s:o}", "model", json_object_get(e, "model"),
                                    "gpu", json_object_get(e, "gpu"), "parallelism", "tensor",
                                    json_object_get(e, "tensor"), "inference", inference);
        assert_non_null(request);
        json_t *response = estimate_for(request, id);
        const json_t *budget = json_object_get(response, "budget");
        const double gib = 1073741824.0;
        const double requested =
            (double)json_integer_value(json_object_get(budget, "requested_bytes")) / gib;
        const double available =
            (double)json_integer_value(json_object_get(budget, "kv_bytes")) / gib -
            json_number_value(json_object_get(e, "logged_cuda_graph_gib"));
        const double logged = json_number_value(json_object_get(e, "logged_available_gib"));
        if (getenv("GS_CALIBRATION_REPORT") != NULL)
            printf("%-48s available logged %6.2f GiB predicted %6.2f GiB (%+.1f%% of %.2f)\n", id,
                   logged, available, 100 * (available - logged) / requested, requested);
        if (fabs(available - logged) > 0.05 * requested)
            fail_msg("%s: %.2f GiB available logged, gpusizer %.2f", id, logged, available);
        json_decref(response);
        json_decref(request);
        n++;
    }
    assert_true(n >= 1);
    json_decref(logs);
}

/* ------------------------------------------------------------- training */

/* What a measurement measured (training-measured.json measurement_types):
 * nvidia-smi's "used" is the device view, torch's reserved and allocated
 * peaks are the peak fields. */
static double predicted_for(const json_t *per_gpu, const char *kind)
{
    const char *field = strcmp(kind, "nvml_used") == 0      ? "total_bytes"
                        : strcmp(kind, "max_reserved") == 0 ? "peak_reserved_bytes"
                                                            : "peak_allocated_bytes";
    return (double)json_integer_value(json_object_get(per_gpu, field));
}

#define FRAMEWORKS_MAX 8

struct framework_errors {
    char name[32];
    double errors[RUNS_MAX];
    size_t n;
};

static double median_of(double *errors, size_t n)
{
    qsort(errors, n, sizeof(errors[0]), by_abs);
    return n % 2 ? errors[n / 2] : (errors[n / 2 - 1] + errors[n / 2]) / 2;
}

/* The summary line bench/calibrate.sh stores as bench/calibration-training.json
 * and the server reports as training.accuracy.calibration. */
static char *training_summary(struct framework_errors *all, struct framework_errors *fw,
                              size_t frameworks)
{
    size_t within15 = 0, within25 = 0;
    for (size_t k = 0; k < all->n; k++) {
        within15 += all->errors[k] <= 0.15;
        within25 += all->errors[k] <= 0.25;
    }
    const double median = median_of(all->errors, all->n), worst = all->errors[all->n - 1];
    json_t *per = json_object();
    for (size_t f = 0; f < frameworks; f++) {
        const double m = median_of(fw[f].errors, fw[f].n);
        json_object_set_new(per, fw[f].name,
                            json_pack("{s:i, s:f, s:f}", "runs", (int)fw[f].n, "median_abs_error",
                                      round(m * 1e4) / 1e4, "worst_abs_error",
                                      round(fw[f].errors[fw[f].n - 1] * 1e4) / 1e4));
    }
    json_t *doc = json_pack("{s:i, s:i, s:i, s:f, s:f, s:o}", "runs",
                            (int)all->n, "within_15_percent", (int)within15, "within_25_percent",
                            (int)within25, "median_abs_error", round(median * 1e4) / 1e4,
                            "worst_abs_error", round(worst * 1e4) / 1e4, "frameworks", per);
    char *text = json_dumps(doc, JSON_COMPACT | JSON_SORT_KEYS | JSON_REAL_PRECISION(6));
    json_decref(doc);
    return text;
}

/* Every measured training run (tests/fixtures/calibration/training-measured.json,
 * each naming its public source) through /v1/estimate, compared as its
 * measurement defines it: at least 7 in 8 within 15% (the 14 of 16),
 * and bench/calibration-training.json is this build's measurement (every run
 * counts in it). Every run whose figure the workload sets is within 25%.
 *
 * A run padded to its longest sample whose figure is max_memory_reserved is
 * not set by the workload alone: the caching allocator keeps the segments it
 * cut for shorter steps, so the figure depends on the order of the lengths.
 * Such a run must carry the warning that says so (reserved_grows_with_lengths);
 * above peak_reserved_bytes, as the warning says it may be, it may lie by up to
 * six times length_dependent_blocks_bytes, the top of the range
 * bench/allocator-lengths.py replays for such a step (2 to 6 times over
 * orders of the lengths, docs/training-peaks.md); below it, within 25% as any
 * run (PEFT's MetaMathQA runs empty the cache every 10 steps). The one above:
 * ms-swift's Qwen-7B LoRA (27.74 GiB reserved on an 80 GB A100, gpusizer's
 * reserved figure about 27% under, 2.1 times the blocks; its entry's notes say
 * what the code holds). */
static void test_training_runs(void **state)
{
    (void)state;
    json_t *doc = load("training-measured.json");
    static struct framework_errors all, fw[FRAMEWORKS_MAX];
    memset(&all, 0, sizeof(all));
    size_t frameworks = 0, i;
    const json_t *e;
    json_array_foreach(json_object_get(doc, "entries"), i, e) {
        assert_true(all.n < RUNS_MAX);
        const char *id = json_string_value(json_object_get(e, "id"));
        const json_t *measured = json_object_get(e, "measured");
        const char *kind = json_string_value(json_object_get(measured, "kind"));
        const double bytes = (double)json_integer_value(json_object_get(measured, "bytes"));
        json_t *request = json_deep_copy(json_object_get(e, "request"));
        json_t *response = estimate_for(request, id);
        const double predicted = predicted_for(json_object_get(response, "per_gpu"), kind);
        const double error = (predicted - bytes) / bytes;
        if (getenv("GS_CALIBRATION_REPORT") != NULL)
            printf("%-48s %-13s measured %6.2f GiB predicted %6.2f GiB error %+6.1f%%\n", id, kind,
                   bytes / 1073741824.0, predicted / 1073741824.0, 100 * error);
        const char *padding = json_string_value(
            json_object_get(json_object_get(request, "training"), "padding"));
        const bool order_dependent = padding != NULL && strcmp(padding, "longest") == 0 &&
                                     strcmp(kind, "max_reserved") == 0;
        if (order_dependent) {
            if (!has_warning(response, "reserved_grows_with_lengths"))
                fail_msg("%s: steps of varying length without the warning "
                         "reserved_grows_with_lengths",
                         id);
            const double blocks =
                (double)assumption_value(response, "length_dependent_blocks_bytes");
            if (error < 0 && bytes - predicted > 6 * blocks)
                fail_msg("%s: measured %.0f, gpusizer %.0f, %.0f over it where the warning "
                         "allows up to 6 x %.0f",
                         id, bytes, predicted, bytes - predicted, blocks);
        }
        if (fabs(error) > 0.25 && !(order_dependent && error < 0)) {
            fail_msg("%s: measured %.0f, gpusizer %.0f (%+.1f%%)", id, bytes, predicted,
                     100 * error);
        }
        all.errors[all.n++] = fabs(error);
        const char *name = json_string_value(
            json_object_get(json_object_get(request, "training"), "framework"));
        assert_non_null(name);
        size_t f = 0;
        while (f < frameworks && strcmp(fw[f].name, name) != 0)
            f++;
        if (f == frameworks) {
            assert_true(frameworks < FRAMEWORKS_MAX);
            memset(&fw[frameworks], 0, sizeof(fw[frameworks]));
            snprintf(fw[frameworks].name, sizeof(fw[frameworks].name), "%s", name);
            frameworks++;
        }
        fw[f].errors[fw[f].n++] = fabs(error);
        json_decref(response);
        json_decref(request);
    }
    assert_true(all.n >= 26);
    char *summary = training_summary(&all, fw, frameworks);
    assert_non_null(summary);
    size_t within15 = 0;
    for (size_t k = 0; k < all.n; k++)
        within15 += all.errors[k] <= 0.15;
    assert_true(within15 * 8 >= all.n * 7); /* the 14 of 16, kept as more runs join */
    if (getenv("GS_CALIBRATION_REPORT") != NULL) {
        printf("%s\n", summary);
    } else {
        char path[512];
        snprintf(path, sizeof(path), "%s/../../../bench/calibration-training.json",
                 GS_FIXTURES_DIR);
        json_t *stored = load_path(path);
        char *text = json_dumps(stored, JSON_COMPACT | JSON_SORT_KEYS | JSON_REAL_PRECISION(6));
        if (text == NULL || strcmp(text, summary) != 0)
            fail_msg("bench/calibration-training.json is not this build's measurement (%s): run "
                     "bench/calibrate.sh",
                     summary);
        free(text);
        json_decref(stored);
    }
    free(summary);
    json_decref(doc);
}

/* The runs measured on an H200 (tests/fixtures/calibration/h200-training.json: transformers
 * 5.17, torch 2.11, PEFT 0.21; full fine-tunes in fp32, AMP and pure bf16, LoRA, gradient
 * checkpointing, SGD and foreach/fused AdamW, eager and SDPA attention; Llama, Qwen3, GPT-2,
 * BERT, T5, Phi-4-mini, OLMo-2, Whisper), each through /v1/estimate with the request it
 * keeps: per_gpu.peak_allocated_bytes within 10% of the measured max_memory_allocated of
 * every run (the bar). GS_CALIBRATION_REPORT prints each error and the median and
 * worst the README quotes. */
static void test_h200_training_runs(void **state)
{
    (void)state;
    json_t *doc = load("h200-training.json");
    double errors[RUNS_MAX];
    size_t n = 0, i;
    const json_t *e;
    json_array_foreach(json_object_get(doc, "entries"), i, e) {
        assert_true(n < RUNS_MAX);
        const char *id = json_string_value(json_object_get(e, "id"));
        const double bytes =
            (double)json_integer_value(json_object_get(json_object_get(e, "measured"), "bytes"));
        json_t *request = json_deep_copy(json_object_get(e, "request"));
        json_t *response = estimate_for(request, id);
        const json_t *per_gpu = json_object_get(response, "per_gpu");
        const double predicted = predicted_for(per_gpu, "max_allocated");
        const double error = (predicted - bytes) / bytes;
        if (getenv("GS_CALIBRATION_REPORT") != NULL)
            printf("h200 %-28s measured %6.2f GiB predicted %6.2f GiB error %+5.1f%% (%s)\n", id,
                   bytes / 1073741824.0, predicted / 1073741824.0, 100 * error,
                   json_string_value(json_object_get(per_gpu, "peak_phase")));
        if (fabs(error) > 0.10)
            fail_msg("%s: measured %.0f, gpusizer %.0f (%+.1f%%)", id, bytes, predicted,
                     100 * error);
        errors[n++] = fabs(error);
        json_decref(response);
        json_decref(request);
    }
    assert_true(n >= 12);
    const double median = median_of(errors, n);
    if (getenv("GS_CALIBRATION_REPORT") != NULL)
        printf("h200: %zu runs, median abs error %.4f, worst %.4f\n", n, median, errors[n - 1]);
    json_decref(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vllm_logs),
        cmocka_unit_test(test_vllm_loaded_weights),
        cmocka_unit_test(test_qwen3_vl_loaded_weights),
        cmocka_unit_test(test_hopper_communicator),
        cmocka_unit_test(test_nvlink_communicator),
        cmocka_unit_test(test_sglang_logs),
        cmocka_unit_test(test_tensorrt_llm_logs),
        cmocka_unit_test(test_tgi_logs),
        cmocka_unit_test(test_vllm_2026_logs),
        cmocka_unit_test(test_vllm_profile_logs),
        cmocka_unit_test(test_training_runs),
        cmocka_unit_test(test_h200_training_runs),
    };
    return cmocka_run_group_tests(tests, setup_group, teardown_group);
}
