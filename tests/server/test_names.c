/*
 * test_names.c - names people type (issue 30): GPUs as nvidia-smi, torch and
 * engine logs print them (db/src/names.c), the "did you mean" that keeps a
 * model number, and models by the Hugging Face id of an instruct, dated,
 * re-published or quantized repository, with the weight format the name
 * states and the warning that says what was inferred; the catalog rows of
 * db/migrations/0023_gpus_2026.sql and 0024_names.sql.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "catalog.h"
#include "gs/precision.h"
#include "gs/weights.h"
#include "formats/problem.h"
#include "api/service.h"
#include "test_service.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct test_service fixture;
static struct catalog_snapshot *snap;

static int setup_group(void **state)
{
    (void)state;
    if (test_service_open(&fixture, "gs-names", false) != 0)
        return -1;
    return catalog_snapshot_load(fixture.catalog, &snap, NULL) == GS_OK ? 0 : -1;
}

static int teardown_group(void **state)
{
    (void)state;
    catalog_snapshot_free(snap);
    test_service_close(&fixture);
    return 0;
}

static json_t *estimate(const char *request_text, struct problem *p)
{
    json_t *request = json_loads(request_text, 0, NULL);
    assert_non_null(request);
    json_t *response = NULL;
    problem_init(p);
    const int rc = service_estimate(fixture.service, request, &response, p);
    json_decref(request);
    return rc == 0 ? response : NULL;
}

static json_t *estimate_ok(const char *request_text)
{
    struct problem p;
    json_t *r = estimate(request_text, &p);
    if (r == NULL)
        fail_msg("%s: %d %s", request_text, p.status,
                 p.errors.count > 0 ? p.errors.items[0].detail : "");
    return r;
}

/* The detail of warning `code`, or NULL. */
static const char *warning(const json_t *r, const char *code)
{
    size_t i;
    const json_t *w;
    json_array_foreach(json_object_get(r, "warnings"), i, w)
    {
        if (strcmp(json_string_value(json_object_get(w, "code")), code) == 0)
            return json_string_value(json_object_get(w, "detail"));
    }
    return NULL;
}

static json_int_t member_int(const json_t *o, const char *a, const char *b)
{
    const json_t *v = json_object_get(json_object_get(o, a), b);
    if (!json_is_integer(v))
        fail_msg("%s.%s is not an integer", a, b);
    return json_integer_value(v);
}

/* The kv_cache object of a serving estimate, wherever the response nests it. */
static const json_t *find_kv_cache(const json_t *o)
{
    if (!json_is_object(o))
        return NULL;
    const json_t *kv = json_object_get(o, "kv_cache");
    if (json_is_object(kv) && json_object_get(kv, "bytes_per_token") != NULL)
        return kv;
    const char *key;
    const json_t *value;
    json_object_foreach((json_t *)(uintptr_t)o, key, value)
    {
        const json_t *found = find_kv_cache(value);
        if (found != NULL)
            return found;
    }
    return NULL;
}

static const char *gpu_id(const char *typed)
{
    const struct catalog_gpu_lookup l = catalog_snapshot_gpu_lookup(snap, typed);
    return l.gpu != NULL ? l.gpu->id : "(none)";
}

/* The strings nvidia-smi --query-gpu=name, torch.cuda.get_device_name() and
 * vLLM's logs print, brand words and suffixes included, each to its part. */
static void test_gpus_by_device_name(void **state)
{
    (void)state;
    static const char *const cases[][2] = {
        {"NVIDIA GeForce RTX 3090", "rtx-3090"},
        {"NVIDIA H100 80GB HBM3", "h100-sxm-80gb"},
        {"NVIDIA A100-SXM4-80GB", "a100-sxm-80gb"},
        {"NVIDIA A100-SXM4-40GB", "a100-sxm-40gb"},
        {"NVIDIA A100 80GB PCIe", "a100-pcie-80gb"},
        {"NVIDIA A100-PCIE-40GB", "a100-pcie-40gb"},
        {"NVIDIA H200", "h200-sxm-141gb"},
        {"NVIDIA RTX PRO 6000 Blackwell Server Edition", "rtx-pro-6000-server"},
        {"NVIDIA RTX PRO 6000 Blackwell Workstation Edition", "rtx-pro-6000-workstation"},
        {"NVIDIA GeForce RTX 5090", "rtx-5090"},
        {"NVIDIA GeForce RTX 5080", "rtx-5080"},
        {"NVIDIA GeForce RTX 5070 Ti", "rtx-5070-ti"},
        {"NVIDIA GeForce RTX 5060 Ti", "rtx-5060-ti-16gb"},
        {"NVIDIA GeForce RTX 4080", "rtx-4080"},
        {"NVIDIA GeForce RTX 4070 Ti", "rtx-4070-ti"},
        {"NVIDIA GeForce RTX 4060 Ti", "rtx-4060-ti-16gb"},
        {"NVIDIA GeForce RTX 3060", "rtx-3060-12gb"},
        {"NVIDIA GeForce RTX 3080", "rtx-3080-10gb"},
        {"NVIDIA_GeForce_RTX_4090", "rtx-4090"}, /* vLLM's fused_moe config file names */
        {"AMD Instinct MI300X", "mi300x"},
        {"AMD Instinct MI355X", "mi355x"},
        {"AMD Instinct MI350X", "mi350x"},
        {"NVIDIA L40S", "l40s"},
        {"NVIDIA L20", "l20"},
        {"Tesla T4", "t4"},
        {"Tesla V100-SXM2-16GB", "v100-sxm-16gb"},
        {"NVIDIA A10G", "a10g"},
        {"NVIDIA H100 PCIe", "h100-pcie-80gb"},
        {"NVIDIA H100 NVL", "h100-nvl-94gb"},
        {"NVIDIA H20", "h20"},
        {"NVIDIA H20-3e", "h20-3e"},
        {"NVIDIA H800", "h800"},
        {"NVIDIA A800-SXM4-80GB", "a800-sxm-80gb"},
        {"NVIDIA B200", "b200"},
        {"NVIDIA B300 SXM6 AC", "b300"},
        {"NVIDIA GB200", "gb200"},
        {"NVIDIA GB300", "gb300"},
        {"NVIDIA GH200 480GB", "gh200"},
        {"NVIDIA GH200 144G HBM3e", "gh200-144gb"},
        {"rtx 5090", "rtx-5090"},
        {"rtx5090", "rtx-5090"},
        {"RTX-PRO-6000", "rtx-pro-6000-server"},
        {"h100_sxm5_80gb", "h100-sxm-80gb"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const struct catalog_gpu_lookup l = catalog_snapshot_gpu_lookup(snap, cases[i][0]);
        if (l.gpu == NULL || strcmp(l.gpu->id, cases[i][1]) != 0)
            fail_msg("\"%s\": expected %s, got %s", cases[i][0], cases[i][1],
                     l.gpu != NULL ? l.gpu->id : "(none)");
        if (l.fits != 1)
            fail_msg("\"%s\" fits %zu parts, expected one", cases[i][0], l.fits);
    }
}

/* A name without its memory or form factor keeps the catalog's default and
 * says how many parts it fits; with no default it is refused, naming them. */
static void test_ambiguous_gpu_names(void **state)
{
    (void)state;
    struct catalog_gpu_lookup l = catalog_snapshot_gpu_lookup(snap, "A100");
    assert_string_equal(l.gpu->id, "a100-sxm-80gb");
    assert_int_equal(l.fits, 4);
    l = catalog_snapshot_gpu_lookup(snap, "NVIDIA A100");
    assert_string_equal(l.gpu->id, "a100-sxm-80gb");
    assert_int_equal(l.fits, 4);
    l = catalog_snapshot_gpu_lookup(snap, "H100 80GB");
    assert_string_equal(l.gpu->id, "h100-sxm-80gb");
    assert_int_equal(l.fits, 2);
    l = catalog_snapshot_gpu_lookup(snap, "h100-sxm-80gb"); /* an id is one part */
    assert_int_equal(l.fits, 1);
    l = catalog_snapshot_gpu_lookup(snap, "V100");
    assert_null(l.gpu);
    assert_int_equal(l.fits, 2);
    assert_null(catalog_snapshot_gpu_lookup(snap, "NVIDIA GeForce RTX 5050").gpu);

    json_t *r = estimate_ok("{\"model\":\"llama-3.1-8b\",\"gpu\":\"A100\"}");
    const char *d = warning(r, "gpu_default");
    assert_non_null(d);
    assert_non_null(strstr(d, "fits 4 catalog GPUs"));
    assert_non_null(strstr(d, "a100-sxm-80gb"));
    json_decref(r);
    r = estimate_ok("{\"model\":\"llama-3.1-8b\",\"gpu\":\"NVIDIA H100 80GB HBM3\"}");
    assert_null(warning(r, "gpu_default"));
    json_decref(r);
    struct problem p;
    assert_null(estimate("{\"model\":\"llama-3.1-8b\",\"gpu\":\"Tesla V100\"}", &p));
    assert_int_equal(p.status, 400);
    assert_non_null(strstr(p.errors.items[0].detail, "v100-sxm-16gb, v100-sxm-32gb"));
}

/* "Did you mean" keeps the model number typed: no RTX 3090 for an RTX 5050. */
static void test_suggestions_keep_model_numbers(void **state)
{
    (void)state;
    assert_null(catalog_snapshot_gpu_suggest(snap, "rtx5050"));
    assert_string_equal(catalog_snapshot_gpu_suggest(snap, "rtx-5090-super"), "rtx-5090");
    assert_string_equal(catalog_snapshot_gpu_suggest(snap, "rtx5090d"), "rtx5090");
    assert_string_equal(catalog_snapshot_model_suggest(snap, "lama-3.1-8b"), "llama-3.1-8b");
}

struct model_case {
    const char *typed;
    const char *id;
    bool resolved;
    bool stated, sized;
    enum gs_weight_format format;
    uint64_t group_size;
};

/* The model ids of the vllm serve commands issue 30 lists, and their kin. */
static void test_models_by_hub_id(void **state)
{
    (void)state;
    static const struct model_case cases[] = {
        {"Qwen/Qwen3-4B-Instruct-2507", "qwen3-4b-instruct-2507", false, false, false, 0, 0},
        {"Qwen/Qwen3-4B-Instruct-2507-FP8", "qwen3-4b-instruct-2507", true, true, true,
         GS_WF_FP8_BLOCK, 0},
        {"unsloth/Qwen3-4B-Instruct-2507-FP8", "qwen3-4b-instruct-2507", true, true, true,
         GS_WF_FP8_BLOCK, 0},
        {"Qwen/Qwen2.5-7B-Instruct-AWQ", "qwen2.5-7b", true, true, true, GS_WF_AWQ, 128},
        {"Qwen/Qwen3-235B-A22B-Instruct-2507-FP8", "qwen3-235b-a22b", true, true, true,
         GS_WF_FP8_BLOCK, 0},
        {"TheBloke/Mistral-7B-Instruct-v0.2-GPTQ", "mistral-7b-instruct-v0.2", true, true, true,
         GS_WF_GPTQ, 128},
        {"unsloth/Llama-3.2-1B-Instruct-bnb-4bit", "llama-3.2-1b", true, true, true, GS_WF_NF4_DQ,
         0},
        {"RedHatAI/Meta-Llama-3.1-8B-Instruct-FP8", "llama-3.1-8b", true, true, true, GS_WF_FP8, 0},
        {"RedHatAI/Meta-Llama-3.1-8B-Instruct-FP8-dynamic", "llama-3.1-8b", true, true, true,
         GS_WF_FP8_PER_CHANNEL, 0},
        {"meta-llama/Llama-3.1-8B-Instruct", "llama-3.1-8b", true, false, false, 0, 0},
        {"meta-llama/Llama-3.1-70B-Instruct", "llama-3.1-70b", false, false, false, 0, 0},
        {"Qwen/Qwen2.5-7B-Instruct-GPTQ-Int4", "qwen2.5-7b", true, true, true, GS_WF_GPTQ, 128},
        {"Qwen/Qwen2.5-7B-Instruct-GPTQ-Int8", "qwen2.5-7b", true, true, false, GS_WF_BF16, 0},
        {"Qwen/Qwen2.5-7B-Instruct", "qwen2.5-7b", true, false, false, 0, 0},
        {"nvidia/Llama-3.1-8B-Instruct-NVFP4", "llama-3.1-8b", true, true, true, GS_WF_NVFP4, 16},
        {"nvidia/Llama-3.1-8B-Instruct-FP8", "llama-3.1-8b", true, true, true, GS_WF_FP8, 0},
        {"bartowski/Llama-3.2-1B-Instruct-GGUF", "llama-3.2-1b", true, true, false, GS_WF_BF16, 0},
        {"cyankiwi/Qwen2.5-7B-Instruct-AWQ-4bit", "qwen2.5-7b", true, true, true, GS_WF_AWQ, 128},
        {"mistralai/Mistral-7B-Instruct-v0.2", "mistral-7b-instruct-v0.2", false, false, false, 0,
         0},
        {"llama-3.1-8b", "llama-3.1-8b", false, false, false, 0, 0},
        /* the rest of the list: catalog rows of the 2026 readers, by their own ids */
        {"Qwen/Qwen3-VL-30B-A3B-Instruct", "qwen3-vl-30b-a3b-instruct", false, false, false, 0, 0},
        {"Qwen/Qwen3.5-9B", "qwen3.5-9b", false, false, false, 0, 0},
        {"google/gemma-4-E2B", "gemma-4-e2b-it", false, false, false, 0, 0},
        {"MiniMaxAI/MiniMax-M2.7", "minimax-m2.7", false, false, false, 0, 0},
        /* a release the catalog keeps as its own row is found by its id before any rule (its
         * name still states the format; the row's own quantization_config sizes it) */
        {"nvidia/GLM-5-NVFP4", "glm-5-nvfp4", false, true, true, GS_WF_NVFP4, 16},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const struct model_case *c = &cases[i];
        const struct catalog_model_lookup l = catalog_snapshot_model_lookup(snap, c->typed);
        if (l.model == NULL || strcmp(l.model->id, c->id) != 0)
            fail_msg("\"%s\": expected %s, got %s", c->typed, c->id,
                     l.model != NULL ? l.model->id : "(none)");
        if (l.resolved != c->resolved || l.quant.stated != c->stated || l.quant.sized != c->sized)
            fail_msg("\"%s\": resolved %d stated %d sized %d", c->typed, l.resolved, l.quant.stated,
                     l.quant.sized);
        if (c->sized && (l.quant.format != c->format || l.quant.group_size != c->group_size))
            fail_msg("\"%s\": format %s group %llu", c->typed,
                     gs_weight_format_name((enum gs_weight_format)l.quant.format),
                     (unsigned long long)l.quant.group_size);
    }
    const struct catalog_model_lookup dated =
        catalog_snapshot_model_lookup(snap, "Qwen/Qwen3-235B-A22B-Instruct-2507-FP8");
    assert_string_equal(dated.date, "2507");
    assert_null(catalog_snapshot_model_lookup(snap, "Qwen/Qwen2.5-9B-Instruct-AWQ").model);
}

/* Through the API: the name's format sizes the weights exactly as naming the
 * precision does, and the warning says what was inferred and how to get the
 * checkpoint's own bytes. */
static void test_inferred_precision_through_the_api(void **state)
{
    (void)state;
    json_t *named = estimate_ok("{\"model\":\"Qwen/Qwen2.5-7B-Instruct-AWQ\"}");
    json_t *given = estimate_ok("{\"model\":\"qwen2.5-7b\",\"precision\":{\"weights\":\"awq\"}}");
    assert_int_equal(member_int(named, "per_gpu", "weights_bytes"),
                     member_int(given, "per_gpu", "weights_bytes"));
    assert_string_equal(
        json_string_value(json_object_get(json_object_get(named, "precision"), "weights")), "awq");
    const char *d = warning(named, "model_resolved");
    assert_non_null(d);
    assert_non_null(strstr(d, "\"qwen2.5-7b\""));
    assert_non_null(strstr(d, "AWQ 4-bit, group size 128"));
    assert_non_null(strstr(d, "{\"hub_id\": \"Qwen/Qwen2.5-7B-Instruct-AWQ\"}"));
    json_decref(named);
    json_decref(given);

    named = estimate_ok("{\"model\":\"Qwen/Qwen3-235B-A22B-Instruct-2507-FP8\"}");
    given =
        estimate_ok("{\"model\":\"qwen3-235b-a22b\",\"precision\":{\"weights\":\"fp8_block\"}}");
    assert_int_equal(member_int(named, "per_gpu", "weights_bytes"),
                     member_int(given, "per_gpu", "weights_bytes"));
    d = warning(named, "model_resolved");
    assert_non_null(strstr(d, "\"2507\" read as a release date"));
    json_decref(named);
    json_decref(given);

    named = estimate_ok("{\"model\":\"unsloth/Llama-3.2-1B-Instruct-bnb-4bit\"}");
    assert_string_equal(
        json_string_value(json_object_get(json_object_get(named, "precision"), "weights")),
        "nf4_dq");
    json_decref(named);

    named = estimate_ok("{\"model\":\"nvidia/Llama-3.1-8B-Instruct-NVFP4\"}");
    given = estimate_ok("{\"model\":\"llama-3.1-8b\",\"precision\":{\"weights\":\"nvfp4\"}}");
    assert_int_equal(member_int(named, "per_gpu", "weights_bytes"),
                     member_int(given, "per_gpu", "weights_bytes"));
    json_decref(named);
    json_decref(given);

    /* 8-bit GPTQ is stated but not sized: bf16, and the warning says so */
    named = estimate_ok("{\"model\":\"Qwen/Qwen2.5-7B-Instruct-GPTQ-Int8\"}");
    given = estimate_ok("{\"model\":\"qwen2.5-7b\"}");
    assert_int_equal(member_int(named, "per_gpu", "weights_bytes"),
                     member_int(given, "per_gpu", "weights_bytes"));
    assert_non_null(strstr(warning(named, "model_resolved"), "not a format gpusizer sizes"));
    json_decref(named);
    json_decref(given);

    /* a name the catalog has under that id sizes as its row, with no warning */
    named = estimate_ok("{\"model\":\"meta-llama/Llama-3.2-1B-Instruct\"}");
    assert_null(warning(named, "model_resolved"));
    assert_int_equal(member_int(named, "model", "parameters"), 1235814400LL);
    json_decref(named);
}

/* The rows of 0024: exact counts (written out in the migration) and KV bytes
 * per token at bf16, 2 (K and V) x layers x KV heads x head size x 2 bytes,
 * divided by the tensor-parallel degree over the KV heads. */
static void test_new_model_rows(void **state)
{
    (void)state;
    const struct catalog_model *q = catalog_snapshot_model(snap, "qwen3-4b-instruct-2507");
    assert_non_null(q);
    assert_int_equal(q->parameters, 4022468096ULL); /* 36 x 100,930,816 + 388,956,160 + 2,560 */
    const struct catalog_model *m = catalog_snapshot_model(snap, "mistral-7b-instruct-v0.2");
    assert_non_null(m);
    assert_int_equal(m->parameters, 7241732096ULL); /* 32 x 218,112,000 + 262,144,000 + 4,096 */

    static const struct {
        const char *request;
        json_int_t bytes_per_token;
    } kv[] = {
        /* 2 x 36 x 8 x 128 x 2 = 147,456 (144 KiB: the per-token figure a vLLM log on an RTX
         * 5090 implies for Qwen3-4B-Instruct-2507, 18.96 GiB / 138,064 tokens) */
        {"{\"model\":\"Qwen/Qwen3-4B-Instruct-2507\",\"inference\":{\"batch_size\":1,"
         "\"context_length\":4096}}",
         147456},
        /* TP 2: 4 KV heads per GPU -> 73,728 */
        {"{\"model\":\"Qwen/Qwen3-4B-Instruct-2507\",\"parallelism\":{\"tensor\":2},"
         "\"inference\":{\"batch_size\":1,\"context_length\":4096}}",
         73728},
        /* 2 x 32 x 8 x 128 x 2 = 131,072, every layer full attention (no window in v0.2) */
        {"{\"model\":\"TheBloke/Mistral-7B-Instruct-v0.2-GPTQ\",\"inference\":{\"batch_size\":1,"
         "\"context_length\":4096}}",
         131072},
        {"{\"model\":\"mistral-7b-instruct-v0.2\",\"parallelism\":{\"tensor\":4},"
         "\"inference\":{\"batch_size\":1,\"context_length\":4096}}",
         32768},
    };
    for (size_t i = 0; i < sizeof(kv) / sizeof(kv[0]); i++) {
        json_t *r = estimate_ok(kv[i].request);
        const json_t *cache = find_kv_cache(r);
        if (cache == NULL)
            fail_msg("no kv_cache in the answer to %s", kv[i].request);
        const json_t *b = json_object_get(cache, "bytes_per_token");
        if (json_integer_value(b) != kv[i].bytes_per_token)
            fail_msg("%s: bytes_per_token %lld, expected %lld", kv[i].request,
                     (long long)json_integer_value(b), (long long)kv[i].bytes_per_token);
        if (strstr(kv[i].request, "mistral") != NULL)
            assert_int_equal(json_integer_value(json_object_get(cache, "window_layers")), 0);
        json_decref(r);
    }
}

/* The rows of 0023: driver totals where a log gave one (floor(GiB x 2^30)),
 * NULL where none did, and every number with its source. */
static void test_new_gpu_rows(void **state)
{
    (void)state;
    static const struct {
        const char *id;
        uint64_t memory, usable;
    } rows[] = {
        {"rtx-5090", 32000000000ULL, 33653216247ULL},             /* 31.342 GiB */
        {"rtx-4080", 16000000000ULL, 17169131765ULL},             /* 15.99 GiB */
        {"rtx-3060-12gb", 12000000000ULL, 12613245206ULL},        /* 11.747 GiB */
        {"rtx-pro-6000-server", 96000000000ULL, 101974334767ULL}, /* 94.971 GiB */
        {"rtx-pro-6000-workstation", 96000000000ULL, 0},
        {"rtx-5080", 16000000000ULL, 0},
        {"rtx-5070-ti", 16000000000ULL, 0},
        {"rtx-5060-ti-16gb", 16000000000ULL, 0},
        {"rtx-4070-ti", 12000000000ULL, 0},
        {"rtx-4060-ti-16gb", 16000000000ULL, 16720307683ULL}, /* 15.572 GiB */
        {"rtx-3080-10gb", 10000000000ULL, 0},
        {"h20", 96000000000ULL, 102010716160ULL}, /* torch total_memory=97285MB */
        {"h20-3e", 141000000000ULL, 150109945856ULL}, /* the H200's 143156 MiB (0031) */
        {"h800", 80000000000ULL, 0},
        {"a800-sxm-80gb", 80000000000ULL, 0},
        {"l20", 48000000000ULL, 0},
        {"b300", 288000000000ULL, 0},
        {"gb300", 288000000000ULL, 0},
        {"mi350x", 288000000000ULL, 0},
        {"mi355x", 288000000000ULL, 309220868096ULL}, /* rocminfo 301973504 KB (0030) */
    };
    for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        const struct catalog_gpu *g = catalog_snapshot_gpu(snap, rows[i].id);
        if (g == NULL)
            fail_msg("no %s in the catalog", rows[i].id);
        assert_int_equal(g->memory_bytes, rows[i].memory);
        assert_int_equal(g->usable_memory_bytes, rows[i].usable);
        assert_non_null(g->memory_source);
        assert_true(g->bf16_tflops.present && g->fp16_tflops.present);
        assert_non_null(g->spec_source);
        assert_non_null(g->interconnect_source);
        assert_true(g->sm_count.present == (g->sm_count_source != NULL));
    }
    /* migration 0030: the MI325X's driver total (rocminfo 268419072 KB) and both AMD parts'
     * reference nodes, one 400 Gb/s NIC a GPU */
    assert_int_equal(catalog_snapshot_gpu(snap, "mi325x")->usable_memory_bytes, 274861129728ULL);
    assert_true(catalog_snapshot_gpu(snap, "mi325x")->scale_out_gb_s.value == 50.0);
    assert_true(catalog_snapshot_gpu(snap, "mi355x")->scale_out_gb_s.value == 50.0);
    assert_int_equal((int)catalog_snapshot_gpu(snap, "rtx-5090")->sm_count.value, 170);
    assert_true(catalog_snapshot_gpu(snap, "rtx-5090")->fp8_tflops.value == 419.0);
    assert_false(catalog_snapshot_gpu(snap, "rtx-3060-12gb")->fp8_tflops.present); /* Ampere */
    assert_string_equal(gpu_id("geforce-rtx-5090"), "rtx-5090");
}

/* Names that are no names: nothing crashes, nothing is found by accident. */
static void test_hostile_names(void **state)
{
    (void)state;
    char long_name[400];
    memset(long_name, 'x', sizeof(long_name) - 5);
    memcpy(long_name + sizeof(long_name) - 5, "-AWQ", 5);
    const char *const names[] = {"",
                                 "/",
                                 "-",
                                 "-FP8",
                                 "a/-FP8",
                                 "org/",
                                 "NVIDIA",
                                 "80GB",
                                 "((((",
                                 "))))",
                                 "\xff\xfe\x80",
                                 "gb gb 80 gb",
                                 "1234567890123456789",
                                 "99999gb",
                                 "sxm4 pcie hbm3",
                                 "NVIDIA (GeForce RTX 5090",
                                 "Qwen/-2507",
                                 "x-2507-FP8",
                                 "h100\t",
                                 "llama\n3.1-8b",
                                 "\xe2\x80\xaeh100",
                                 long_name};
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        const struct catalog_gpu_lookup g = catalog_snapshot_gpu_lookup(snap, names[i]);
        if (g.gpu != NULL)
            fail_msg("GPU name \"%.40s\" found %s", names[i], g.gpu->id);
        const struct catalog_model_lookup m = catalog_snapshot_model_lookup(snap, names[i]);
        if (m.model != NULL)
            fail_msg("model name \"%.40s\" found %s", names[i], m.model->id);
        (void)catalog_snapshot_gpu_suggest(snap, names[i]);
        (void)catalog_snapshot_model_suggest(snap, names[i]);
    }
    json_t *body = json_pack("{s:s, s:s}", "model", long_name, "gpu", long_name);
    json_t *response = NULL;
    struct problem p;
    problem_init(&p);
    assert_int_not_equal(service_estimate(fixture.service, body, &response, &p), 0);
    assert_int_equal(p.status, 400);
    json_decref(body);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gpus_by_device_name),
        cmocka_unit_test(test_ambiguous_gpu_names),
        cmocka_unit_test(test_suggestions_keep_model_numbers),
        cmocka_unit_test(test_models_by_hub_id),
        cmocka_unit_test(test_inferred_precision_through_the_api),
        cmocka_unit_test(test_new_model_rows),
        cmocka_unit_test(test_new_gpu_rows),
        cmocka_unit_test(test_hostile_names),
    };
    return cmocka_run_group_tests(tests, setup_group, teardown_group);
}
