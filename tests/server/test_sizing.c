/*
 * test_sizing.c - /v1/recommend and /v1/fit over the seeded catalog, and the
 * invariants the issue names, checked over many generated requests:
 *   - a larger GPU never needs more GPUs under the same plan rules;
 *   - an option reported as fitting fits when sent to /v1/estimate;
 *   - raising the budget never removes an option;
 *   - options are ordered by their stated cost.
 * Requests come from a fixed-seed generator, so a failure reproduces.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "catalog.h"
#include "test_files.h"
#include "test_service.h"
#include "api/codec.h"
#include "gs/plan.h"
#include "gs/units.h"
#include "formats/problem.h"
#include "api/service.h"
#include "api/sizing.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static struct test_service fixture;

static int setup_group(void **state)
{
    (void)state;
    return test_service_open(&fixture, "gs-sizing", false);
}

static int teardown_group(void **state)
{
    (void)state;
    test_service_close(&fixture);
    return 0;
}

typedef enum gs_status (*operation)(const struct service *, const json_t *, json_t **,
                                    struct problem *);

static json_t *run(operation op, json_t *request)
{
    json_t *response = NULL;
    struct problem p;
    problem_init(&p);
    if (op(fixture.service, request, &response, &p) != 0) {
        char *text = json_dumps(request, JSON_COMPACT);
        fail_msg("%s failed (%d %s): %s: %s", text, p.status, p.title,
                 p.errors.count ? p.errors.items[0].pointer : "",
                 p.errors.count ? p.errors.items[0].detail : "");
    }
    return response;
}

static json_t *parse(const char *text)
{
    json_error_t e;
    json_t *v = json_loads(text, 0, &e);
    if (v == NULL)
        fail_msg("bad test JSON: %s", e.text);
    return v;
}

/* xorshift64*: a small, fixed-seed generator so failures reproduce */
/* True if the answer's warnings carry `code`. */
static bool has_warning(const json_t *answer, const char *code)
{
    size_t i;
    const json_t *warning;
    json_array_foreach(json_object_get(answer, "warnings"), i, warning) {
        const char *c = json_string_value(json_object_get(warning, "code"));
        if (c != NULL && strcmp(c, code) == 0)
            return true;
    }
    return false;
}

static uint64_t rng = 0x9e3779b97f4a7c15ULL;
static uint64_t next(uint64_t n)
{
    rng ^= rng >> 12;
    rng ^= rng << 25;
    rng ^= rng >> 27;
    return (rng * 0x2545f4914f6cdd1dULL) % n;
}

static const char *const inference_models[] = {"llama-3.1-8b", "mistral-7b-v0.1", "qwen2.5-14b",
                                                "mixtral-8x7b", "llama-3.1-70b", "gemma-2-9b",
                                                "phi-3-mini-4k", "deepseek-v2-lite"};
static const char *const training_models[] = {"llama-3.1-8b", "qwen2.5-7b", "mistral-7b-v0.1",
                                              "gemma-2-2b", "llama-3.2-1b"};

static json_t *inference_request(void)
{
    const uint64_t batch[] = {1, 4, 16, 64};
    const uint64_t context[] = {2048, 4096, 8192};
    json_t *r = json_pack("{s:s, s:s, s:{s:I, s:I}}", "model",
                          inference_models[next(sizeof(inference_models) / sizeof(char *))], "mode",
                          "inference", "inference", "batch_size", (json_int_t)batch[next(4)],
                          "context_length", (json_int_t)context[next(3)]);
    const uint64_t ctx = (uint64_t)json_integer_value(
        json_object_get(json_object_get(r, "inference"), "context_length"));
    if (next(3) > 0)
        json_object_set_new(r, "demand",
                            json_pack("{s:f, s:I, s:I}", "output_tokens_per_s",
                                      (double)(200 + next(20000)), "prompt_tokens",
                                      (json_int_t)(ctx / 2), "output_tokens", (json_int_t)(ctx / 4)));
    if (next(2))
        json_object_set_new(r, "constraints",
                            json_pack("{s:{s:b}}", "allow", "quantization", (int)next(2)));
    return r;
}

static json_t *training_request(void)
{
    const uint64_t seq[] = {1024, 2048, 4096};
    json_t *r = json_pack("{s:s, s:s, s:{s:I, s:I, s:I}, s:{s:f, s:f}}", "model",
                          training_models[next(sizeof(training_models) / sizeof(char *))], "mode",
                          "training", "training", "sequence_length", (json_int_t)seq[next(3)],
                          "batch_size", (json_int_t)(1 + next(2)), "gradient_accumulation_steps",
                          (json_int_t)(1 + next(16)), "demand", "training_tokens",
                          (double)(1 + next(50)) * 1e9, "deadline_days", (double)(3 + next(28)));
    return r;
}

/* The option's layout as an estimate request for its GPU. */

static double number(const json_t *o, const char *key)
{
    return json_number_value(json_object_get(o, key));
}

/* Checks one recommendation: ordering, arithmetic, and every option
 * re-estimated on its own. */
static void check_recommendation(const json_t *request, const json_t *response, bool training)
{
    const json_t *options = json_object_get(response, "options");
    double previous = -1;
    size_t i;
    const json_t *o;
    json_array_foreach(options, i, o)
    {
        assert_int_equal(json_integer_value(json_object_get(o, "rank")), (json_int_t)(i + 1));
        const double cost = training && json_object_get(o, "total_cost") != NULL
                                ? number(o, "total_cost")
                                : number(o, "cost_per_hour");
        assert_true(cost >= previous);
        previous = cost;
        const double count = number(o, "gpu_count");
        assert_true(fabs(number(o, "cost_per_hour") - number(o, "price_per_gpu_hour") * count) <=
                    1e-9 * number(o, "cost_per_hour"));
        const json_t *plan = json_object_get(o, "plan");
        if (!training && json_object_get(o, "throughput") != NULL) {
            /* no option waits on its all-reduces longer than it reads or computes */
            const json_t *per = json_object_get(json_object_get(o, "throughput"), "per_replica");
            assert_true(number(per, "comm_seconds") <=
                        fmax(number(per, "memory_seconds"), number(per, "compute_seconds")));
            /* no replica spans more than two nodes by default */
            const json_t *constraints = json_object_get(request, "constraints");
            if (json_object_get(constraints, "max_nodes_per_replica") == NULL) {
                const double group = number(plan, "tensor") * number(plan, "pipeline") *
                                     number(plan, "attention_data");
                assert_true(ceil(group / number(o, "gpus_per_node")) <= 2);
            }
        }
        if (!training) {
            /* a replica: tensor x pipeline GPUs, times its data-parallel attention ranks (each
             * holding experts / expert of every MoE layer); disaggregated, the prefill
             * instances have the same layout */
            assert_int_equal(json_integer_value(json_object_get(o, "gpu_count")),
                             (json_integer_value(json_object_get(o, "replicas")) +
                              json_integer_value(json_object_get(o, "prefill_replicas"))) *
                                 json_integer_value(json_object_get(plan, "tensor")) *
                                 json_integer_value(json_object_get(plan, "pipeline")) *
                                 json_integer_value(json_object_get(plan, "attention_data")));
            if (number(plan, "attention_data") > 1)
                assert_true(number(plan, "expert") ==
                            number(plan, "tensor") * number(plan, "attention_data"));
        } else {
            assert_int_equal(json_integer_value(json_object_get(o, "gpu_count")),
                             json_integer_value(json_object_get(plan, "tensor")) *
                                 json_integer_value(json_object_get(plan, "pipeline")) *
                                 json_integer_value(json_object_get(plan, "data")));
            const json_t *demand = json_object_get(request, "demand");
            const json_t *through = json_object_get(o, "throughput");
            assert_true(number(through, "wall_clock_days") <= number(demand, "deadline_days") + 1e-9);
        }
        const json_t *demand = json_object_get(request, "demand");
        if (!training && demand != NULL)
            assert_true(number(json_object_get(o, "throughput"), "output_tokens_per_s") >=
                        number(demand, "output_tokens_per_s") * (1 - 1e-9));
        /* the option's own estimate_request through /v1/estimate fits, with the same per-GPU
         * figures (one answer) */
        json_t *e = json_deep_copy(json_object_get(o, "estimate_request"));
        assert_non_null(e);
        json_t *est = run(service_estimate, e);
        const json_t *fit = json_object_get(est, "fit");
        if (!json_is_true(json_object_get(fit, "fits"))) {
            char *text = json_dumps(e, JSON_COMPACT);
            fail_msg("option %s does not fit when estimated: %s", json_string_value(json_object_get(o, "gpu")),
                     text);
        }
        if (!json_equal(json_object_get(est, "per_gpu"), json_object_get(o, "per_gpu"))) {
            char *text = json_dumps(e, JSON_COMPACT);
            fail_msg("option %s: /v1/estimate of %s gives other per_gpu figures",
                     json_string_value(json_object_get(o, "gpu")), text);
        }
        json_decref(est);
        json_decref(e);
    }
}

static bool listed(const json_t *options, const char *gpu)
{
    size_t i;
    const json_t *o;
    json_array_foreach(options, i, o) if (strcmp(json_string_value(json_object_get(o, "gpu")), gpu) == 0)
        return true;
    return false;
}

/* Options under a budget are the options without one that cost at most it. */
static void check_budget_monotone(json_t *request, const json_t *response)
{
    const json_t *all = json_object_get(response, "options");
    if (json_array_size(all) < 2)
        return;
    const double mid = number(json_array_get(all, json_array_size(all) / 2), "cost_per_hour");
    const double budgets[] = {mid * 0.999, mid, mid * 4};
    json_t *previous = NULL;
    for (size_t b = 0; b < 3; b++) {
        json_t *r = json_deep_copy(request);
        json_t *c = json_object_get(r, "constraints");
        if (c == NULL) {
            c = json_object();
            json_object_set_new(r, "constraints", c);
        }
        json_object_set_new(c, "max_cost_per_hour", json_real(budgets[b]));
        json_t *out = run(sizing_recommend, r);
        const json_t *options = json_object_get(out, "options");
        size_t i;
        const json_t *o;
        json_array_foreach(options, i, o) assert_true(number(o, "cost_per_hour") <= budgets[b] * (1 + 1e-12));
        /* raising the budget never removes an option */
        if (previous != NULL)
            json_array_foreach(json_object_get(previous, "options"), i, o)
                assert_true(listed(options, json_string_value(json_object_get(o, "gpu"))));
        /* and every option of the unbudgeted answer within the budget is kept */
        json_array_foreach(all, i, o) if (number(o, "cost_per_hour") <= budgets[b])
            assert_true(listed(options, json_string_value(json_object_get(o, "gpu"))));
        json_decref(previous);
        previous = out;
        json_decref(r);
    }
    json_decref(previous);
}

static void test_generated_recommendations(void **state)
{
    (void)state;
    size_t checked = 0;
    for (int k = 0; k < 24; k++) {
        const bool training = k % 3 == 2;
        json_t *request = training ? training_request() : inference_request();
        json_t *response = run(sizing_recommend, request);
        check_recommendation(request, response, training);
        checked += json_array_size(json_object_get(response, "options"));
        if (k % 4 == 0)
            check_budget_monotone(request, response);
        json_decref(response);
        json_decref(request);
    }
    /* the generator must produce answers worth checking, not only rejections */
    if (checked < 100)
        fail_msg("only %zu options were checked", checked);
}

/* One answer, for every model of the catalog (the largest MoE models
 * included): a serving demand recommended over five GPU types, and every
 * option's estimate_request posted to /v1/estimate answers with the same
 * per-GPU figures and a fit (check_recommendation). */
static void test_every_catalog_model_one_answer(void **state)
{
    (void)state;
    struct catalog_snapshot *snap = NULL;
    assert_int_equal(catalog_snapshot_load(fixture.catalog, &snap, NULL), GS_OK);
    size_t models = 0, checked = 0;
    for (size_t i = 0; i < snap->model_count; i++) {
        const struct catalog_model *m = &snap->models[i];
        json_t *request = json_pack(
            "{s:s, s:{s:f, s:I, s:I, s:f}, s:{s:[s, s, s, s, s], s:{s:b}}}", "model", m->id,
            "demand", "output_tokens_per_s", (double)(500 + next(4000)), "prompt_tokens",
            (json_int_t)(256 + next(1024)), "output_tokens", (json_int_t)(64 + next(256)),
            "tpot_ms", 200.0, "constraints", "gpus", "h100-sxm-80gb", "h200-sxm-141gb",
            "a100-sxm-80gb", "l40s", "mi300x", "allow", "quantization", (int)next(2));
        json_t *response = run(sizing_recommend, request);
        check_recommendation(request, response, false);
        checked += json_array_size(json_object_get(response, "options"));
        models++;
        json_decref(response);
        json_decref(request);
    }
    catalog_snapshot_free(snap);
    assert_true(models >= 100);
    if (checked < models) /* most models have options */
        fail_msg("only %zu options over %zu models", checked, models);
}

/* A larger GPU never needs more GPUs under the same plan rules: synthetic
 * GPUs that differ only in capacity, on each side of vLLM's 70 GiB batch
 * default boundary, for generated workloads. */
static void test_larger_gpu_never_needs_more(void **state)
{
    (void)state;
    const struct catalog_snapshot *snap = service_snapshot(fixture.service);
    struct codec_arch_table archs;
    service_arch_table(fixture.service, &archs);
    const uint64_t small[] = {16, 24, 40, 48, 64};   /* GiB, below 70 */
    const uint64_t large[] = {72, 80, 94, 141, 192}; /* at least 70 */
    for (int k = 0; k < 12; k++) {
        const bool training = k % 2 == 1;
        const char *id = training ? training_models[next(sizeof(training_models) / sizeof(char *))]
                                  : inference_models[next(sizeof(inference_models) / sizeof(char *))];
        const struct catalog_model *m = catalog_snapshot_model(snap, id);
        assert_non_null(m);
        struct gs_model_spec spec;
        memset(&spec, 0, sizeof(spec));
        spec.has_arch = true;
        spec.arch = archs.models[m - snap->models]->arch;
        struct gs_workload w;
        memset(&w, 0, sizeof(w));
        w.weights = GS_DTYPE_BF16;
        gs_training_defaults(&w.training);
        gs_parallelism_defaults(&w.parallelism);
        if (training) {
            w.mode = GS_MODE_TRAINING;
            w.training.batch_size = 1 + next(2);
            w.training.sequence_length = 1024u << next(3);
        } else {
            w.mode = GS_MODE_INFERENCE;
            w.serving.present = true;
            w.serving.batch_size = 1u << next(6);
            w.serving.context_length = 2048u << next(3);
            w.serving.engine.engine = GS_ENGINE_VLLM;
        }
        struct gs_plan_limits l;
        gs_plan_limits_defaults(&l);
        l.max_gpus = 64;
        struct gs_demand d = {.kind = GS_DEMAND_NONE};
        struct gs_efficiency eff;
        gs_efficiency_defaults(&eff);
        for (int side = 0; side < 2; side++) {
            uint64_t last = UINT64_MAX;
            for (size_t c = 0; c < 5; c++) {
                struct gs_plan_gpu g;
                memset(&g, 0, sizeof(g));
                g.view.total_bytes = (side ? large[c] : small[c]) * GS_GIB;
                g.gpus_per_node = 8;
                struct gs_plan p;
                enum gs_plan_reject why;
                assert_int_equal(gs_plan_search(&spec, &w, &g, &l, &d, &eff, 0, NULL, &p, &why, NULL), GS_OK);
                if (why != GS_REJECT_NONE) {
                    if (last != UINT64_MAX)
                        fail_msg("%s fits on %llu-GiB GPUs but not on larger ones", id,
                                 (unsigned long long)(side ? large[c - 1] : small[c - 1]));
                    continue;
                }
                if (p.gpu_count > last)
                    fail_msg("%s: %llu GPUs of %llu GiB but %llu of the smaller", id,
                             (unsigned long long)p.gpu_count,
                             (unsigned long long)(side ? large[c] : small[c]), (unsigned long long)last);
                last = p.gpu_count;
            }
        }
    }
}

/* /v1/fit says why no GPU count will do: fp8 weights on a T4 under vLLM 0.13 (no fp8 kernels
 * before Ada/Hopper but Marlin's, which reached Turing in 0.14.0, PR #29901), a context beyond Llama 3.1's 131,072 positions, which
 * no replica can start, and a model the engine has no kernels for there. */
static void test_fit_reason(void **state)
{
    (void)state;
    json_t *r = parse("{\"model\":\"llama-3.1-8b\",\"gpu\":\"t4\",\"precision\":{\"weights\":"
                      "\"fp8\"},\"inference\":{\"batch_size\":1,\"context_length\":4096,"
                      "\"engine_version\":\"0.13.0\"}}");
    json_t *out = run(sizing_fit, r);
    assert_true(json_is_null(json_object_get(out, "min_gpu_count")));
    const json_t *why = json_object_get(out, "min_plan_reason");
    assert_string_equal(json_string_value(json_object_get(why, "code")), "unsupported_precision");
    assert_int_equal(json_integer_value(json_object_get(why, "max_gpus")), 1024);
    json_decref(out);
    json_decref(r);
    /* the latest vLLM runs them on Marlin: one T4 */
    r = parse("{\"model\":\"llama-3.1-8b\",\"gpu\":\"t4\",\"precision\":{\"weights\":"
              "\"fp8\"},\"inference\":{\"batch_size\":1,\"context_length\":4096}}");
    out = run(sizing_fit, r);
    assert_int_equal(json_integer_value(json_object_get(out, "min_gpu_count")), 1);
    json_decref(out);
    json_decref(r);
    r = parse("{\"model\":\"llama-3.1-8b\",\"gpu\":\"h100\",\"inference\":{\"batch_size\":1,"
              "\"context_length\":1000000}}");
    out = run(sizing_fit, r);
    assert_true(json_is_null(json_object_get(out, "min_gpu_count")));
    why = json_object_get(out, "min_plan_reason");
    assert_string_equal(json_string_value(json_object_get(why, "code")), "does_not_fit");
    assert_non_null(strstr(json_string_value(json_object_get(why, "detail")), "max_gpus"));
    json_decref(out);
    json_decref(r);
    /* DeepSeek-V3.2's sparse attention has no vLLM backend before Hopper, whatever the count */
    r = parse("{\"model\":\"deepseek-v3.2\",\"gpu\":\"a100-sxm-80gb\",\"inference\":{"
              "\"batch_size\":1,\"context_length\":4096}}");
    out = run(sizing_fit, r);
    assert_true(json_is_null(json_object_get(out, "min_gpu_count")));
    why = json_object_get(out, "min_plan_reason");
    assert_string_equal(json_string_value(json_object_get(why, "code")), "unsupported_by_engine");
    json_decref(out);
    json_decref(r);
    /* vLLM has no T5 on any GPU (gs_model_support): the fit and the ranking say why, the ranking
     * in its warnings too */
    r = parse("{\"model\":\"flan-t5-base\",\"gpu\":\"h100\",\"inference\":{\"batch_size\":1,"
              "\"context_length\":512}}");
    out = run(sizing_fit, r);
    why = json_object_get(out, "min_plan_reason");
    assert_string_equal(json_string_value(json_object_get(why, "code")), "unsupported_by_engine");
    json_decref(out);
    json_decref(r);
    r = parse("{\"model\":\"flan-t5-base\",\"inference\":{\"batch_size\":1,"
              "\"context_length\":512}}");
    out = run(sizing_recommend, r);
    assert_int_equal(json_array_size(json_object_get(out, "options")), 0);
    const json_t *warnings = json_object_get(out, "warnings");
    bool named = false;
    for (size_t i = 0; i < json_array_size(warnings); i++) {
        const json_t *item = json_array_get(warnings, i);
        named = named || (strcmp(json_string_value(json_object_get(item, "code")),
                                 "unsupported_by_engine") == 0 &&
                          strstr(json_string_value(json_object_get(item, "detail")), "T5") != NULL);
    }
    assert_true(named);
    json_decref(out);
    json_decref(r);
}

/* The refusal `op` answers for `request`: its first error's pointer. */
static void assert_refused(operation op, const char *request, const char *pointer)
{
    json_t *r = parse(request);
    json_t *response = NULL;
    struct problem p;
    problem_init(&p);
    assert_int_not_equal(op(fixture.service, r, &response, &p), 0);
    assert_true(p.errors.count > 0);
    assert_string_equal(p.errors.items[0].pointer, pointer);
    json_decref(response);
    json_decref(r);
}

static void assert_fit_refused(const char *request, const char *pointer)
{
    assert_refused(sizing_fit, request, pointer);
}

static void assert_estimate_refused(const char *request, const char *pointer)
{
    assert_refused(service_estimate, request, pointer);
}

/* Pipeline stages on unequal GPUs: Llama-3.1-8B in two stages under vLLM, an L4 (22.5 GiB)
 * and an L40S (44.4 GiB). vLLM keeps the smallest stage's block count, so the L4's stage
 * binds wherever it sits: the budget, the capacity and the fit are that stage's on the L4,
 * as when both stages run on L4s and the L4 holds the stage that binds there. With the L40S
 * alone the capacity is larger. A name that fits several parts ("a100") takes the catalog's
 * default with a gpu_default warning naming the stage. Refused: a count other than the
 * pipeline's, a name not in the catalog (at its index), a "gpu" that runs no stage, an
 * engine that sizes every stage once, and /v1/fit. */
static void stage_request(char *out, size_t size, const char *stages)
{
    snprintf(out, size,
             "{\"model\":\"llama-3.1-8b\",\"inference\":{\"engine\":\"vllm\","
             "\"engine_version\":\"0.19.0\",\"context_length\":8192,\"batch_size\":4},"
             "\"parallelism\":{\"pipeline\":2,\"stage_gpus\":%s}}",
             stages);
}

static const char *warning_detail(const json_t *answer, const char *code);

static void test_stage_gpus(void **state)
{
    (void)state;
    char text[512];
    stage_request(text, sizeof(text), "[\"l4\",\"l4\"]");
    json_t *request = parse(text);
    json_t *on_l4 = run(service_estimate, request);
    json_decref(request);
    const json_t *b = json_object_get(on_l4, "budget");
    const json_int_t binds = json_integer_value(json_object_get(b, "stage"));
    assert_string_equal(json_string_value(json_object_get(b, "stage_gpu")), "l4");
    const json_int_t l4_tokens =
        json_integer_value(json_object_get(json_object_get(on_l4, "kv_cache"), "max_tokens"));

    stage_request(text, sizeof(text), binds == 0 ? "[\"l4\",\"l40s\"]" : "[\"l40s\",\"l4\"]");
    request = parse(text);
    json_t *mixed = run(service_estimate, request);
    json_decref(request);
    b = json_object_get(mixed, "budget");
    assert_int_equal(json_integer_value(json_object_get(b, "stage")), binds);
    assert_string_equal(json_string_value(json_object_get(b, "stage_gpu")), "l4");
    assert_int_equal(json_integer_value(json_object_get(json_object_get(mixed, "kv_cache"),
                                                        "max_tokens")),
                     l4_tokens);
    assert_string_equal(json_string_value(json_object_get(json_object_get(mixed, "fit"), "gpu")),
                        "l4");
    assert_true(json_equal(json_object_get(mixed, "budget"), json_object_get(on_l4, "budget")));

    stage_request(text, sizeof(text), "[\"l40s\",\"l40s\"]");
    request = parse(text);
    json_t *on_l40s = run(service_estimate, request);
    json_decref(request);
    assert_true(json_integer_value(json_object_get(json_object_get(on_l40s, "kv_cache"),
                                                   "max_tokens")) > l4_tokens);
    json_decref(on_l40s);
    json_decref(mixed);
    json_decref(on_l4);

    /* an ambiguous name takes the catalog's default, with a warning naming the stage */
    stage_request(text, sizeof(text), "[\"a100\",\"l4\"]");
    request = parse(text);
    json_t *defaulted = run(service_estimate, request);
    json_decref(request);
    const char *d = warning_detail(defaulted, "gpu_default");
    assert_non_null(d);
    assert_non_null(strstr(d, "stage_gpus[0]"));
    assert_non_null(strstr(d, "a100-sxm-80gb"));
    json_decref(defaulted);

    stage_request(text, sizeof(text), "[\"l4\",\"l40s\",\"l4\"]");
    assert_estimate_refused(text, "/parallelism/stage_gpus");
    stage_request(text, sizeof(text), "[\"l4\",\"no-such-gpu\"]");
    assert_estimate_refused(text, "/parallelism/stage_gpus/1");
    stage_request(text, sizeof(text), "[\"l4\"]");
    assert_estimate_refused(text, "/parallelism/stage_gpus");
    assert_estimate_refused("{\"model\":\"llama-3.1-8b\",\"gpu\":\"h100\",\"parallelism\":"
                            "{\"pipeline\":2,\"stage_gpus\":[\"l4\",\"l40s\"]}}",
                            "/gpu");
    assert_estimate_refused("{\"model\":\"llama-3.1-8b\",\"inference\":{\"engine\":\"sglang\","
                            "\"context_length\":4096},\"parallelism\":{\"pipeline\":2,"
                            "\"stage_gpus\":[\"l4\",\"l40s\"]}}",
                            "/parallelism/stage_gpus");
    assert_fit_refused("{\"model\":\"llama-3.1-8b\",\"gpu\":\"l4\",\"inference\":"
                       "{\"context_length\":4096},\"parallelism\":"
                       "{\"pipeline\":2,\"stage_gpus\":[\"l4\",\"l40s\"]}}",
                       "/parallelism/stage_gpus");
}

/* /v1/fit judges a training layout named in parallelism as it is: Llama-3.1-8B, a
 * micro-batch of 8 at 4096 tokens, data parallel 8 with ZeRO-3 on H100s keeps 8 sequences'
 * activations on every GPU (269.6e9 bytes) and does not fit; the answer says so for that
 * layout (layout_given, plan.data 8) and offers a layout of the same 8 GPUs that fits as
 * alternative_plan. A gpu_count other than the layout's GPUs, and pipeline stages with
 * ZeRO-3 (DeepSpeed refuses them), are refused at their pointers. */
static void test_fit_keeps_the_layout(void **state)
{
    (void)state;
    json_t *r = parse("{\"model\":\"llama-3.1-8b\",\"gpu\":\"h100\",\"mode\":\"training\","
                      "\"training\":{\"batch_size\":8,\"sequence_length\":4096},"
                      "\"parallelism\":{\"data\":8,\"zero_stage\":3}}");
    json_t *out = run(sizing_fit, r);
    assert_true(json_is_false(json_object_get(out, "fits")));
    assert_true(json_is_true(json_object_get(out, "layout_given")));
    assert_int_equal(json_integer_value(json_object_get(out, "gpu_count")), 8);
    const json_t *plan = json_object_get(out, "plan");
    assert_int_equal(json_integer_value(json_object_get(plan, "data")), 8);
    assert_int_equal(json_integer_value(json_object_get(plan, "zero_stage")), 3);
    assert_true(json_integer_value(json_object_get(out, "headroom_bytes")) < 0);
    const json_t *alt = json_object_get(out, "alternative_plan");
    assert_non_null(alt);
    const json_t *alt_mem = json_object_get(out, "alternative_per_gpu");
    assert_true(json_integer_value(json_object_get(alt_mem, "total_bytes")) <=
                json_integer_value(json_object_get(out, "usable_bytes")));
    json_decref(out);
    json_decref(r);
    /* the same layout with a micro-batch of 1 fits, and is the answer's plan */
    r = parse("{\"model\":\"llama-3.1-8b\",\"gpu\":\"h100\",\"mode\":\"training\","
              "\"training\":{\"batch_size\":1,\"sequence_length\":2048},"
              "\"parallelism\":{\"data\":8,\"zero_stage\":3}}");
    out = run(sizing_fit, r);
    assert_true(json_is_true(json_object_get(out, "fits")));
    plan = json_object_get(out, "plan");
    assert_int_equal(json_integer_value(json_object_get(plan, "data")), 8);
    assert_int_equal(json_integer_value(json_object_get(plan, "tensor")), 1);
    assert_null(json_object_get(out, "alternative_plan"));
    json_decref(out);
    json_decref(r);
    assert_fit_refused("{\"model\":\"llama-3.1-8b\",\"gpu\":\"h100\",\"gpu_count\":4,"
                       "\"mode\":\"training\",\"training\":{\"batch_size\":1,"
                       "\"sequence_length\":2048},\"parallelism\":{\"data\":8}}",
                       "/gpu_count");
    assert_fit_refused("{\"model\":\"llama-3.1-8b\",\"gpu\":\"h100\",\"mode\":\"training\","
                       "\"training\":{\"batch_size\":1,\"sequence_length\":2048},"
                       "\"parallelism\":{\"pipeline\":8,\"zero_stage\":3}}",
                       "/parallelism/zero_stage");
}

/* FSDP1 accumulation under the HF Trainer (transformers 5.2 on) keeps the whole gradient
 * unsharded under no_sync(): full fine-tuning Llama-3.1-8B on L40S at FULL_SHARD, 8
 * micro-batches. The recommendation turns on sync_each_batch where a layout fits only with it
 * (4 GPUs, data 4), says so in the plan and in the estimate_request that reproduces it;
 * constraints.allow.sync_each_batch false keeps the accumulation as asked (the 4 GPUs then
 * split the model). /v1/fit judges the asked layout as it is (does not fit) and offers the
 * change, which fits. */
static void test_sync_each_batch_plans(void **state)
{
    (void)state;
#define SYNC_PLAN_BODY                                                                              \
    "{\"model\":\"llama-3.1-8b\",\"mode\":\"training\",\"training\":{\"batch_size\":1,"     \
    "\"sequence_length\":4096,\"gradient_accumulation_steps\":8},\"parallelism\":{"               \
    "\"zero_stage\":\"full_shard\",\"fsdp_version\":1},\"constraints\":{\"gpus\":"            \
    "[\"l40s\"],\"allow\":{\"zero_stages\":[3],\"offload\":false%s}}}"
    char text[1024];
    snprintf(text, sizeof(text), SYNC_PLAN_BODY, "");
    json_t *r = parse(text);
    json_t *out = run(sizing_recommend, r);
    const json_t *first = json_array_get(json_object_get(out, "options"), 0);
    assert_non_null(first);
    assert_int_equal(json_integer_value(json_object_get(first, "gpu_count")), 4);
    const json_t *plan = json_object_get(first, "plan");
    assert_int_equal(json_integer_value(json_object_get(plan, "data")), 4);
    assert_true(json_is_true(json_object_get(plan, "sync_each_batch")));
    const json_t *asked = json_object_get(json_object_get(first, "estimate_request"), "training");
    assert_true(json_is_true(json_object_get(asked, "sync_each_batch")));
    assert_true(has_warning(out, "sync_each_batch_planned"));
    json_decref(out);
    json_decref(r);
    snprintf(text, sizeof(text), SYNC_PLAN_BODY, ",\"sync_each_batch\":false");
#undef SYNC_PLAN_BODY
    r = parse(text);
    out = run(sizing_recommend, r);
    first = json_array_get(json_object_get(out, "options"), 0);
    assert_non_null(first);
    plan = json_object_get(first, "plan");
    assert_null(json_object_get(plan, "sync_each_batch"));
    assert_int_equal(json_integer_value(json_object_get(plan, "tensor")), 2);
    assert_false(has_warning(out, "sync_each_batch_planned"));
    json_decref(out);
    json_decref(r);
    r = parse("{\"model\":\"llama-3.1-8b\",\"gpu\":\"l40s\",\"mode\":\"training\","
              "\"training\":{\"batch_size\":1,\"sequence_length\":4096,"
              "\"gradient_accumulation_steps\":8,\"activation_checkpointing\":\"full\"},"
              "\"parallelism\":{\"data\":4,\"zero_stage\":\"full_shard\",\"fsdp_version\":1}}");
    out = run(sizing_fit, r);
    assert_true(json_is_false(json_object_get(out, "fits")));
    assert_null(json_object_get(json_object_get(out, "plan"), "sync_each_batch"));
    const json_t *change = json_array_get(json_object_get(out, "changes"), 0);
    assert_string_equal(json_string_value(json_object_get(change, "change")), "sync_each_batch");
    assert_true(json_is_true(json_object_get(change, "fits")));
    json_decref(out);
    json_decref(r);
}

/* A hybrid that vLLM (0.19 on) does not start at the default max_num_seqs on one GPU:
 * Qwen3.5-27B at 8,192 tokens on H100s holds fewer state blocks than the 1,024 sequences of a
 * 70 GiB+ GPU (test_plan test_serving_past_a_start_bound). The recommendation lowers
 * max_num_seqs to the blocks, as vLLM's message says, and serves on one GPU: the plan and the
 * estimate_request name it (which /v1/estimate answers as fitting, check_recommendation), with
 * the warning; constraints.allow.lower_max_num_seqs false keeps the default (2 GPUs). /v1/fit
 * judges the request as asked (one GPU does not start) and lists the change first. */
static void test_max_num_seqs_plans(void **state)
{
    (void)state;
#define SEQS_PLAN_BODY                                                                             \
    "{\"model\":\"qwen3.5-27b\",\"inference\":{\"context_length\":8192,\"batch_size\":8},"         \
    "\"constraints\":{\"gpus\":[\"h100\"]%s}}"
    char text[512];
    snprintf(text, sizeof(text), SEQS_PLAN_BODY, "");
    json_t *r = parse(text);
    json_t *out = run(sizing_recommend, r);
    check_recommendation(r, out, false);
    const json_t *first = json_array_get(json_object_get(out, "options"), 0);
    assert_non_null(first);
    assert_int_equal(json_integer_value(json_object_get(first, "gpu_count")), 1);
    const json_t *plan = json_object_get(first, "plan");
    const json_int_t seqs = json_integer_value(json_object_get(plan, "max_num_seqs"));
    assert_true(seqs > 8 && seqs < 1024);
    const json_t *asked = json_object_get(json_object_get(first, "estimate_request"), "inference");
    assert_int_equal(json_integer_value(json_object_get(asked, "max_num_seqs")), seqs);
    assert_true(has_warning(out, "max_num_seqs_planned"));
    json_decref(out);
    json_decref(r);
    snprintf(text, sizeof(text), SEQS_PLAN_BODY, ",\"allow\":{\"lower_max_num_seqs\":false}");
#undef SEQS_PLAN_BODY
    r = parse(text);
    out = run(sizing_recommend, r);
    first = json_array_get(json_object_get(out, "options"), 0);
    assert_non_null(first);
    assert_int_equal(json_integer_value(json_object_get(first, "gpu_count")), 2);
    assert_null(json_object_get(json_object_get(first, "plan"), "max_num_seqs"));
    assert_false(has_warning(out, "max_num_seqs_planned"));
    json_decref(out);
    json_decref(r);
    r = parse("{\"model\":\"qwen3.5-27b\",\"gpu\":\"h100\","
              "\"inference\":{\"context_length\":8192,\"batch_size\":8}}");
    out = run(sizing_fit, r);
    assert_true(json_is_false(json_object_get(out, "fits")));
    const json_t *change = json_array_get(json_object_get(out, "changes"), 0);
    assert_string_equal(json_string_value(json_object_get(change, "change")), "lower_max_num_seqs");
    assert_true(json_is_true(json_object_get(change, "fits")));
    assert_int_equal(json_integer_value(json_object_get(change, "value")), seqs);
    assert_int_equal(
        json_integer_value(json_object_get(json_object_get(change, "plan"), "max_num_seqs")), seqs);
    json_decref(out);
    json_decref(r);
}

/* /v1/fit judges a serving layout named in parallelism as it is too (issue 34: it used to
 * search its own). Llama-3.1-70B in bf16 at tensor 2 on H100s: 70.6e9 bytes of weights on
 * each GPU leave less than nothing of vLLM's 0.9 x 85.06e9 once the profile run and non-torch
 * memory are counted, so the layout does not fit (negative headroom), and no other layout of
 * 2 GPUs does either (no alternative_plan); 4 GPUs are the fewest. At tensor 4 it fits, and
 * the largest batch is that layout's own: the max_concurrency /v1/estimate gives for the same
 * request. */
static void test_fit_keeps_the_serving_layout(void **state)
{
    (void)state;
    json_t *r = parse("{\"model\":\"llama-3.1-70b\",\"gpu\":\"h100\","
                      "\"inference\":{\"context_length\":8192,\"batch_size\":16},"
                      "\"parallelism\":{\"tensor\":2}}");
    json_t *out = run(sizing_fit, r);
    assert_true(json_is_false(json_object_get(out, "fits")));
    assert_true(json_is_true(json_object_get(out, "layout_given")));
    assert_int_equal(json_integer_value(json_object_get(out, "gpu_count")), 2);
    assert_int_equal(json_integer_value(json_object_get(json_object_get(out, "plan"), "tensor")),
                     2);
    assert_true(json_integer_value(json_object_get(out, "headroom_bytes")) < 0);
    assert_null(json_object_get(out, "alternative_plan"));
    assert_int_equal(json_integer_value(json_object_get(out, "min_gpu_count")), 4);
    json_decref(out);
    json_decref(r);
    r = parse("{\"model\":\"llama-3.1-70b\",\"gpu\":\"h100\","
              "\"inference\":{\"context_length\":8192,\"batch_size\":16},"
              "\"parallelism\":{\"tensor\":4}}");
    out = run(sizing_fit, r);
    assert_true(json_is_true(json_object_get(out, "fits")));
    const json_t *plan = json_object_get(out, "plan");
    assert_int_equal(json_integer_value(json_object_get(plan, "tensor")), 4);
    assert_int_equal(json_integer_value(json_object_get(plan, "pipeline")), 1);
    json_t *est = run(service_estimate, r);
    assert_int_equal(json_integer_value(json_object_get(out, "max_batch")),
                     json_integer_value(json_object_get(json_object_get(est, "kv_cache"),
                                                        "max_concurrency")));
    assert_true(json_integer_value(json_object_get(out, "headroom_bytes")) ==
                json_integer_value(json_object_get(json_object_get(est, "budget"), "kv_bytes")) -
                    json_integer_value(json_object_get(json_object_get(est, "kv_cache"),
                                                       "needed_bytes")));
    json_decref(est);
    json_decref(out);
    json_decref(r);
}

/* /v1/fit without a context_length answers "how long a context, how many sequences": the
 * context is the model's own limit (Llama-3.1-8B: 131,072 positions, the max_model_len vLLM
 * takes by default), named in assumption context_length; max_context never passes it and
 * max_batch is at it. A model with no position limit (a raw parameter count) still needs
 * context_length. */
static void test_fit_without_context(void **state)
{
    (void)state;
    json_t *r = parse("{\"model\":\"llama-3.1-8b\",\"gpu\":\"h200\",\"inference\":"
                      "{\"batch_size\":1}}");
    json_t *out = run(sizing_fit, r);
    assert_true(json_is_true(json_object_get(out, "fits")));
    const json_int_t max_context = json_integer_value(json_object_get(out, "max_context"));
    assert_true(max_context > 0 && max_context <= 131072);
    assert_true(json_integer_value(json_object_get(out, "max_batch")) >= 1);
    bool named = false;
    size_t i;
    json_t *a;
    json_array_foreach(json_object_get(out, "assumptions"), i, a) {
        if (strcmp(json_string_value(json_object_get(a, "name")), "context_length") == 0) {
            named = true;
            assert_int_equal((json_int_t)json_number_value(json_object_get(a, "value")), 131072);
        }
    }
    assert_true(named);
    /* the request itself is left as sent */
    assert_null(json_object_get(json_object_get(r, "inference"), "context_length"));
    json_decref(out);
    json_decref(r);
    assert_fit_refused("{\"model\":{\"parameters\":8000000000},\"gpu\":\"h100\","
                       "\"inference\":{\"batch_size\":1}}",
                       "/inference/context_length");
}

/* The warning a request earns does not depend on the endpoint (issue 34: /v1/fit dropped
 * model_resolved): a model name the catalog resolves by its words and a GPU name that fits
 * several entries are named on /v1/fit and /v1/recommend as on /v1/estimate, and the import
 * suggested is the catalog model's own repository, not the words typed. */
static const char *warning_detail(const json_t *answer, const char *code)
{
    size_t i;
    const json_t *w;
    json_array_foreach(json_object_get(answer, "warnings"), i, w) {
        if (strcmp(json_string_value(json_object_get(w, "code")), code) == 0)
            return json_string_value(json_object_get(w, "detail"));
    }
    return NULL;
}

static void test_request_warnings_everywhere(void **state)
{
    (void)state;
    json_t *r = parse("{\"model\":\"llama 3.1 8b\",\"gpu\":\"h100\",\"inference\":"
                      "{\"batch_size\":1,\"context_length\":4096}}");
    json_t *fit = run(sizing_fit, r);
    const char *resolved = warning_detail(fit, "model_resolved");
    assert_non_null(resolved);
    assert_non_null(strstr(resolved, "{\"hub_id\": \"meta-llama/Llama-3.1-8B\"}"));
    assert_null(strstr(resolved, "{\"hub_id\": \"llama 3.1 8b\"}"));
    assert_non_null(warning_detail(fit, "gpu_default"));
    json_decref(fit);
    json_object_del(r, "gpu");
    json_t *rec = run(sizing_recommend, r);
    assert_non_null(warning_detail(rec, "model_resolved"));
    assert_null(warning_detail(rec, "gpu_default"));
    json_decref(rec);
    json_decref(r);
}

/* Issue 33: recommend echoes the request's model into every option's estimate_request; a
 * pasted config padded with what no reader reads (a classifier's id2label, 120 KB here) is
 * echoed without it (warning config_trimmed), and the option posted back gives the estimate
 * the whole config gives, byte for byte. A config of ordinary size is echoed as sent. */
static void test_pasted_config_echo_trimmed(void **state)
{
    (void)state;
    json_t *config = parse(
        "{\"architectures\":[\"LlamaForCausalLM\"],\"model_type\":\"llama\",\"hidden_size\":4096,"
        "\"intermediate_size\":14336,\"num_attention_heads\":32,\"num_hidden_layers\":32,"
        "\"num_key_value_heads\":8,\"vocab_size\":128256,\"max_position_embeddings\":131072,"
        "\"rope_theta\":500000.0,\"rms_norm_eps\":1e-05,\"tie_word_embeddings\":false,"
        "\"torch_dtype\":\"bfloat16\",\"hidden_act\":\"silu\"}");
    json_t *plain = json_pack("{s:{s:O},s:{s:i,s:i}}", "model", "config", config, "inference",
                              "batch_size", 8, "context_length", 4096);
    json_t *rec = run(sizing_recommend, plain);
    assert_null(warning_detail(rec, "config_trimmed"));
    const json_t *echo = json_object_get(
        json_object_get(json_array_get(json_object_get(rec, "options"), 0), "estimate_request"),
        "model");
    assert_true(json_equal(echo, json_object_get(plain, "model")));
    json_decref(rec);

    json_t *labels = json_object();
    for (int i = 0; i < 6000; i++) {
        char key[16], value[32];
        snprintf(key, sizeof(key), "%d", i);
        snprintf(value, sizeof(value), "LABEL_%d", i);
        json_object_set_new(labels, key, json_string(value));
    }
    json_object_set_new(config, "id2label", labels);
    json_t *padded = json_pack("{s:{s:O},s:{s:i,s:i}}", "model", "config", config, "inference",
                               "batch_size", 8, "context_length", 4096);
    rec = run(sizing_recommend, padded);
    assert_non_null(warning_detail(rec, "config_trimmed"));
    const json_t *options = json_object_get(rec, "options");
    assert_true(json_array_size(options) > 10);
    json_t *again = json_deep_copy(
        json_object_get(json_array_get(options, 0), "estimate_request"));
    const json_t *trimmed = json_object_get(json_object_get(again, "model"), "config");
    assert_null(json_object_get(trimmed, "id2label"));
    assert_int_equal(json_integer_value(json_object_get(trimmed, "hidden_size")), 4096);
    char *text = json_dumps(rec, JSON_COMPACT);
    assert_true(strlen(text) < 120000); /* the id2label alone is 120 KB */
    free(text);
    json_t *short_answer = run(service_estimate, again);
    json_object_set(again, "model", json_object_get(padded, "model"));
    json_t *whole_answer = run(service_estimate, again);
    assert_true(json_equal(short_answer, whole_answer));
    json_decref(short_answer);
    json_decref(whole_answer);
    json_decref(again);
    json_decref(rec);
    json_decref(padded);
    json_decref(plain);
    json_decref(config);
}

/* Issue 34 (point 5): an option whose figures rest on the network between nodes (a training
 * job over several nodes here) on a GPU without a catalog scale-out figure says so, with the
 * board class's default it took: an L40S server's one 100 Gb/s uplink shared by 8 GPUs,
 * 100e9 / 8 / 8 = 1.5625e9 B/s a GPU; a GPU with a figure (the H100 SXM's 50 GB/s) is not
 * named. */
static void test_assumed_network_named(void **state)
{
    (void)state;
    json_t *r = parse("{\"model\":\"llama-3.1-70b\",\"mode\":\"training\",\"training\":"
                      "{\"batch_size\":8,\"sequence_length\":4096},\"demand\":"
                      "{\"training_tokens\":1e10,\"deadline_days\":30},\"constraints\":"
                      "{\"gpus\":[\"l40s\",\"h100-sxm-80gb\"]}}");
    json_t *rec = run(sizing_recommend, r);
    size_t i;
    const json_t *o;
    bool l40s_across = false;
    json_array_foreach(json_object_get(rec, "options"), i, o) {
        if (strcmp(json_string_value(json_object_get(o, "gpu")), "l40s") == 0)
            l40s_across = json_integer_value(json_object_get(o, "nodes")) > 1;
    }
    assert_true(l40s_across);
    const char *detail = warning_detail(rec, "scale_out_assumed");
    assert_non_null(detail);
    assert_non_null(strstr(detail, "l40s (#"));
    assert_non_null(strstr(detail, "1.56 GB/s"));
    assert_null(strstr(detail, "h100-sxm-80gb"));
    /* and what training's 6 N D leaves out is said, for this model and sequence: 80 layers x
     * 64 heads x 128 at 4,096 tokens, 6 x 80 x 8,192 x 4,096 over 6 x 70.55e9, about 3.9% */
    bool flops_named = false;
    json_array_foreach(json_object_get(rec, "assumptions"), i, o) {
        if (strcmp(json_string_value(json_object_get(o, "name")), "training_flops") != 0)
            continue;
        flops_named = true;
        const double share = json_number_value(json_object_get(o, "value"));
        assert_true(share > 0.037 && share < 0.040);
        assert_non_null(strstr(json_string_value(json_object_get(o, "detail")), "4096 tokens"));
    }
    assert_true(flops_named);
    json_decref(rec);
    json_decref(r);
}

/* /v1/fit: the acceptance-style cases written out. */
static void test_fit(void **state)
{
    (void)state;
    /* Llama-3.1-8B bf16 on one H100: 16.06e9 bytes of weights, fits on one GPU */
    json_t *r = parse("{\"model\":\"llama-3.1-8b\",\"gpu\":\"h100\",\"inference\":{\"batch_size\":8,"
                      "\"context_length\":8192}}");
    json_t *out = run(sizing_fit, r);
    assert_true(json_is_true(json_object_get(out, "fits")));
    assert_int_equal(json_integer_value(json_object_get(out, "min_gpu_count")), 1);
    assert_true(json_integer_value(json_object_get(out, "max_batch")) >= 8);
    assert_true(json_integer_value(json_object_get(out, "max_context")) >= 8192);
    json_decref(out);
    json_decref(r);
    /* Llama-3.1-70B bf16 (141e9 bytes) cannot fit one H100; the smallest group is TP 4 */
    r = parse("{\"model\":\"llama-3.1-70b\",\"gpu\":\"h100\",\"inference\":{\"batch_size\":32,"
              "\"context_length\":8192}}");
    out = run(sizing_fit, r);
    assert_true(json_is_false(json_object_get(out, "fits")));
    assert_int_equal(json_integer_value(json_object_get(out, "min_gpu_count")), 4);
    assert_null(json_object_get(out, "min_plan_reason")); /* only when no count will do */
    const json_t *first = json_array_get(json_object_get(out, "changes"), 0);
    assert_string_equal(json_string_value(json_object_get(first, "change")), "more_gpus");
    assert_true(json_is_true(json_object_get(first, "fits")));
    /* every change reports the memory it leads to */
    size_t i;
    const json_t *c;
    json_array_foreach(json_object_get(out, "changes"), i, c)
        assert_non_null(json_object_get(c, "per_gpu"));
    json_decref(out);
    json_decref(r);
    /* asked on 4 GPUs it fits, in TP 4 */
    r = parse("{\"model\":\"llama-3.1-70b\",\"gpu\":\"h100\",\"gpu_count\":4,\"inference\":"
              "{\"batch_size\":32,\"context_length\":8192}}");
    out = run(sizing_fit, r);
    assert_true(json_is_true(json_object_get(out, "fits")));
    assert_int_equal(json_integer_value(json_object_get(json_object_get(out, "plan"), "tensor")), 4);
    json_decref(out);
    json_decref(r);
    /* training an 8B model on one 24 GB card: not as asked; LoRA and QLoRA are among the
     * changes, and the largest micro-batch at the smallest fitting layout is an integer */
    r = parse("{\"model\":\"llama-3.1-8b\",\"mode\":\"training\",\"gpu\":\"rtx-4090\","
              "\"training\":{\"sequence_length\":2048,\"batch_size\":1}}");
    out = run(sizing_fit, r);
    assert_true(json_is_false(json_object_get(out, "fits")));
    bool qlora = false;
    json_array_foreach(json_object_get(out, "changes"), i, c)
        qlora |= strncmp(json_string_value(json_object_get(c, "change")), "qlora", 5) == 0;
    assert_true(qlora);
    assert_true(json_is_integer(json_object_get(out, "max_batch")));
    assert_true(json_is_integer(json_object_get(out, "max_context")));
    json_decref(out);
    json_decref(r);
}

/* DeepSeek-V3 (fp8 checkpoint) as it is served: 8 x H200 at TP 8, 16 x H100
 * at TP 8 x PP 2 (61 layers split 31 + 30 as vLLM's get_pp_indices does),
 * and 8 x H200 with EP 8 + DP attention. Each starts and answers per GPU.
 * MLA caches one 576-element latent per layer and token on every rank
 * (bf16: 1,152 bytes, V1 pads nothing): 61 x 1,152 at TP 8; the least
 * roomy worker of the PP 2 layout is the second stage (30 MoE layers, the
 * head and the sampler), 30 x 1,152. Under EP + DP every rank holds the
 * attention whole, so its weights exceed TP 8's. */
static void test_deepseek_v3_layouts(void **state)
{
    (void)state;
    static const char *const requests[] = {
        "{\"model\":\"deepseek-v3\",\"gpu\":\"h200-sxm-141gb\",\"parallelism\":{\"tensor\":8},"
        "\"inference\":{\"engine\":\"vllm\",\"context_length\":8192,\"batch_size\":16}}",
        "{\"model\":\"deepseek-v3\",\"gpu\":\"h100-sxm-80gb\",\"parallelism\":{\"tensor\":8,"
        "\"pipeline\":2},\"inference\":{\"engine\":\"vllm\",\"context_length\":8192,\"batch_size\":16}}",
        "{\"model\":\"deepseek-v3\",\"gpu\":\"h200-sxm-141gb\",\"parallelism\":{\"tensor\":1,"
        "\"data\":8,\"expert\":8},\"inference\":{\"engine\":\"vllm\",\"context_length\":8192,"
        "\"batch_size\":16}}"};
    static const long long gpus[] = {8, 16, 8};
    static const long long per_token[] = {61 * 1152, 30 * 1152, 61 * 1152};
    long long weights[3];
    for (size_t i = 0; i < 3; i++) {
        json_t *request = parse(requests[i]);
        json_t *response = run(service_estimate, request);
        assert_true(json_is_true(json_object_get(response, "starts")));
        assert_int_equal(json_integer_value(json_object_get(response, "gpu_count")), gpus[i]);
        const json_t *per_gpu = json_object_get(response, "per_gpu");
        weights[i] = json_integer_value(json_object_get(per_gpu, "weights_bytes"));
        assert_true(weights[i] > 0);
        assert_true(json_integer_value(json_object_get(per_gpu, "kv_cache_bytes")) > 0);
        const json_t *kv = json_object_get(response, "kv_cache");
        assert_int_equal(json_integer_value(json_object_get(kv, "bytes_per_token")), per_token[i]);
        assert_true(json_integer_value(json_object_get(kv, "max_tokens")) >= 16 * 8192);
        json_decref(response);
        json_decref(request);
    }
    assert_true(weights[2] > weights[0]);
}

/* Purchase pricing charges no server share for an integrated GPU (GB10:
 * the DGX Spark's $3,999 is the whole desktop), and still does for a card
 * that goes in a host (RTX 4090). */
static void test_integrated_gpu_bought_whole(void **state)
{
    (void)state;
    json_t *request = parse(
        "{\"model\":\"llama-3.1-8b\",\"inference\":{\"context_length\":4096,\"batch_size\":1},"
        "\"constraints\":{\"gpus\":[\"gb10\",\"rtx-4090\"],\"pricing\":\"purchase\"}}");
    json_t *response = run(sizing_recommend, request);
    size_t i;
    const json_t *o;
    int seen = 0;
    json_array_foreach(json_object_get(response, "options"), i, o) {
        const char *gpu = json_string_value(json_object_get(o, "gpu"));
        const json_t *tco = json_object_get(o, "tco");
        const double price = json_number_value(json_object_get(tco, "gpu_usd"));
        const double server = json_number_value(json_object_get(tco, "server_usd"));
        if (strcmp(gpu, "gb10") == 0) {
            assert_true(price == 3999);
            assert_true(server == 0);
            seen |= 1;
        } else {
            assert_true(price > 0 && server == price * 0.5);
            seen |= 2;
        }
    }
    assert_int_equal(seen, 3);
    json_decref(response);
    json_decref(request);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_generated_recommendations),
        cmocka_unit_test(test_request_warnings_everywhere),
        cmocka_unit_test(test_pasted_config_echo_trimmed),
        cmocka_unit_test(test_assumed_network_named),
        cmocka_unit_test(test_every_catalog_model_one_answer),
        cmocka_unit_test(test_deepseek_v3_layouts),
        cmocka_unit_test(test_integrated_gpu_bought_whole),
        cmocka_unit_test(test_larger_gpu_never_needs_more),
        cmocka_unit_test(test_fit),
        cmocka_unit_test(test_fit_keeps_the_layout),
        cmocka_unit_test(test_sync_each_batch_plans),
        cmocka_unit_test(test_max_num_seqs_plans),
        cmocka_unit_test(test_stage_gpus),
        cmocka_unit_test(test_fit_keeps_the_serving_layout),
        cmocka_unit_test(test_fit_without_context),
        cmocka_unit_test(test_fit_reason),
    };
    return cmocka_run_group_tests(tests, setup_group, teardown_group);
}
