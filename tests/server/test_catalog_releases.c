/*
 * test_catalog_releases.c - the quantized and instruct releases of
 * db/migrations/0026_quantized_releases.sql (issue 30 item 6): every row is
 * in the seeded catalog, its stored config counts to its `parameters` (the
 * base row's count where the architecture is the same), and an estimate that
 * names no precision sizes the weights as the checkpoint stores them (the
 * config's quantization_config, or the hf_quant_config.json object merged
 * into it): ModelOpt NVFP4, ModelOpt FP8 with per-tensor scales, FP8 with
 * 128x128 block scales, compressed-tensors FP8, with the weight bytes written
 * out; the bf16 base rows stay bf16. NVIDIA Nemotron 3 Nano, the one new
 * architecture, has its count, cache and state written out. The rows of
 * db/migrations/0027_more_releases.sql likewise, with their new counts
 * written out and Laguna-S-2.1-FP8's count, cache and FP8-block weight bytes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "catalog.h"
#include "gs/arch.h"
#include "gs/inference.h"
#include "readers/models.h"
#include "formats/problem.h"
#include "api/service.h"
#include "test_service.h"

#include <jansson.h>
#include <stdio.h>
#include <string.h>

static struct test_service fixture;
static struct catalog_snapshot *snap;

static int setup_group(void **state)
{
    (void)state;
    if (test_service_open(&fixture, "gs-releases", false) != 0)
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

/* An estimate of catalog model `id` with no precision and no workload. */
static json_t *estimate_of(const char *id)
{
    char text[256];
    snprintf(text, sizeof(text), "{\"model\":\"%s\"}", id);
    json_t *request = json_loads(text, 0, NULL);
    assert_non_null(request);
    json_t *response = NULL;
    struct problem p;
    problem_init(&p);
    const int rc = service_estimate(fixture.service, request, &response, &p);
    json_decref(request);
    if (rc != 0)
        fail_msg("%s: %d %s", id, p.status, p.errors.count > 0 ? p.errors.items[0].detail : "");
    return response;
}

static const char *weights_format(const json_t *r)
{
    return json_string_value(json_object_get(json_object_get(r, "precision"), "weights"));
}

static json_int_t weights_bytes(const json_t *r)
{
    return json_integer_value(json_object_get(json_object_get(r, "per_gpu"), "weights_bytes"));
}

/* The detail of assumption `name`, or "". */
static const char *assumption(const json_t *r, const char *name)
{
    size_t i;
    const json_t *a;
    json_array_foreach(json_object_get(r, "assumptions"), i, a)
    {
        if (strcmp(json_string_value(json_object_get(a, "name")), name) == 0)
            return json_string_value(json_object_get(a, "detail"));
    }
    return "";
}

/* The architecture of catalog row `id`, read from its stored config. */
static struct gs_arch row_arch(const char *id)
{
    const struct catalog_model *m = catalog_snapshot_model(snap, id);
    if (m == NULL)
        fail_msg("no %s in the seeded catalog", id);
    json_t *config = json_loads(m->config_json, 0, NULL);
    assert_non_null(config);
    struct gs_arch arch;
    struct gs_error err;
    gs_error_init(&err);
    if (models_read(config, "", &arch, &err) != GS_OK)
        fail_msg("%s: %s", id, err.count > 0 ? err.items[0].detail : "unreadable config");
    json_decref(config);
    return arch;
}

/* Each row of 0026, the row whose architecture it shares (NULL for a new
 * one), and the weight format an estimate with no precision gives it. */
struct release {
    const char *id;
    const char *base;
    const char *format;
};

static const struct release RELEASES[] = {
    {"deepseek-v3.1-nvfp4", "deepseek-v3", "nvfp4"},
    {"deepseek-v3.2-nvfp4", "deepseek-v3.2", "nvfp4"},
    /* nvidia's DeepSeek-V4 NVFP4 config.json keeps quant_method fp8 and
     * expert_dtype fp4 beside its MIXED_PRECISION layer list; the reader
     * takes the expert_dtype (MXFP4 routed experts, 4.25 bits a weight
     * against NVFP4's 4.5) */
    {"deepseek-v4-flash-nvfp4", "deepseek-v4-flash", "mxfp4"},
    {"deepseek-v4-pro-nvfp4", "deepseek-v4-pro", "mxfp4"},
    {"glm-5-nvfp4", "glm-5", "nvfp4"},
    {"glm-5.1-nvfp4", "glm-5.1", "nvfp4"},
    {"glm-5.2-nvfp4", "glm-5.2", "nvfp4"},
    {"gemma-4-26b-a4b-nvfp4", "gemma-4-26b-a4b-it", "nvfp4"},
    {"gemma-4-31b-it-nvfp4", "gemma-4-31b-it", "nvfp4"},
    {"kimi-k2.5-nvfp4", "kimi-k2.5", "nvfp4"},
    {"kimi-k2.6-nvfp4", "kimi-k2.5", "nvfp4"},
    {"kimi-k2.7-code-nvfp4", "kimi-k2.5", "nvfp4"},
    {"llama-3.1-70b-instruct-fp8", "llama-3.1-70b", "fp8"},
    {"minimax-m2.5-nvfp4", "minimax-m2.5", "nvfp4"},
    {"minimax-m2.7-nvfp4", "minimax-m2.7", "nvfp4"},
    {"nemotron-3-nano-30b-a3b", NULL, "bf16"},
    {"nemotron-3-nano-30b-a3b-nvfp4", "nemotron-3-nano-30b-a3b", "nvfp4"},
    {"nemotron-3-super-120b-a12b-fp8", NULL, "fp8"},
    {"nemotron-3-super-120b-a12b-nvfp4", "nemotron-3-super-120b-a12b-fp8", "nvfp4"},
    {"nemotron-3-ultra-550b-a55b", NULL, "bf16"},
    {"nemotron-3-ultra-550b-a55b-fp8", "nemotron-3-ultra-550b-a55b", "fp8"},
    {"nemotron-3-ultra-550b-a55b-nvfp4", "nemotron-3-ultra-550b-a55b", "nvfp4"},
    {"qwen3-235b-a22b-nvfp4", "qwen3-235b-a22b", "nvfp4"},
    {"qwen3.5-122b-a10b-nvfp4", "qwen3.5-122b-a10b", "nvfp4"},
    {"qwen3.5-397b-a17b-nvfp4", "qwen3.5-397b-a17b", "nvfp4"},
    {"qwen3-235b-a22b-fp8", "qwen3-235b-a22b", "fp8_block"},
    {"qwen3-30b-a3b-fp8", "qwen3-30b-a3b", "fp8_block"},
    {"qwen3-32b-fp8", "qwen3-32b", "fp8_block"},
    {"deepseek-v4-flash-fp8", "deepseek-v4-flash", "fp8_block"},
    {"deepseek-v4-pro-fp8", "deepseek-v4-pro", "fp8_block"},
    {"glm-5-fp8", "glm-5", "fp8_block"},
    {"glm-5.1-fp8", "glm-5.1", "fp8_block"},
    {"glm-5.2-fp8", "glm-5.2", "fp8_block"},
    {"mixtral-8x22b-v0.1", NULL, "bf16"},
    {"qwen3-vl-32b-thinking", "qwen3-vl-32b-instruct", "bf16"},
    {"laguna-xs.2-fp8", "laguna-xs.2", "fp8_block"},
    {"deepseek-v3.1", "deepseek-v3", "fp8_block"},
    {"deepseek-v3-0324-nvfp4", "deepseek-v3", "nvfp4"},
    {"deepseek-r1-distill-qwen-32b", "qwen2.5-32b", "bf16"},
    {"qwen3-30b-a3b-nvfp4", "qwen3-30b-a3b", "nvfp4"},
    {"qwen3-32b-nvfp4", "qwen3-32b", "nvfp4"},
    {"qwen3-coder-30b-a3b-instruct", "qwen3-30b-a3b", "bf16"},
    /* 0033: ModelOpt MIXED_PRECISION, FP8 token mixers beside NVFP4 MLPs and head; the format
     * named is the narrowest part's */
    {"qwen3.6-27b-nvfp4", "qwen3.6-27b", "nvfp4"},
    {"qwen3.6-35b-a3b-nvfp4", "qwen3.6-35b-a3b", "nvfp4"},
    {"nemotron-3.5-lightning-30b-a3b", "nemotron-3-nano-30b-a3b", "bf16"},
    {"nemotron-3.5-lightning-30b-a3b-nvfp4", "nemotron-3.5-lightning-30b-a3b", "nvfp4"},
};

/* Every row: in the catalog with an alias, counted to its parameters from its
 * stored config, equal to its base row where it has one, a quantized row
 * keeping its quantization_config, and sized by default in its format. */
static void check_release_row(const struct release *rel)
{
    const struct catalog_model *m = catalog_snapshot_model(snap, rel->id);
    if (m == NULL)
        fail_msg("no %s in the seeded catalog", rel->id);
    assert_true(m->alias_count >= 1);
    const struct gs_arch arch = row_arch(rel->id);
    struct gs_param_count count;
    assert_int_equal(gs_arch_count_params(&arch, &count, NULL), GS_OK);
    if (count.total != m->parameters)
        fail_msg("%s: config counts %llu, row says %llu", rel->id,
                 (unsigned long long)count.total, (unsigned long long)m->parameters);
    if (rel->base != NULL) {
        const struct catalog_model *b = catalog_snapshot_model(snap, rel->base);
        if (b == NULL || b->parameters != m->parameters)
            fail_msg("%s: %llu parameters, its base %s %llu", rel->id,
                     (unsigned long long)m->parameters, rel->base,
                     b ? (unsigned long long)b->parameters : 0ULL);
    }
    const bool quantized = strcmp(rel->format, "bf16") != 0;
    if (quantized != (strstr(m->config_json, "\"quantization_config\"") != NULL))
        fail_msg("%s: quantization_config %s expected", rel->id, quantized ? "" : "not");
    json_t *r = estimate_of(rel->id);
    if (strcmp(weights_format(r), rel->format) != 0)
        fail_msg("%s: weights sized as %s, the checkpoint stores %s", rel->id,
                 weights_format(r), rel->format);
    json_decref(r);
}

static void test_every_release_row(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof(RELEASES) / sizeof(RELEASES[0]); i++)
        check_release_row(&RELEASES[i]);
}

/* Qwen3-32B's linear layers, per layer (hidden 5120, 64 query heads and 8
 * KV heads of 128, SwiGLU 25600), as {in, out}; 64 layers. */
static const uint64_t QWEN3_32B_LINEARS[][2] = {
    {5120, 8192}, {5120, 1024}, {5120, 1024}, {8192, 5120}, /* q, k, v, o */
    {5120, 25600}, {5120, 25600}, {25600, 5120},            /* gate, up, down */
};
#define QWEN3_32B_LAYERS 64

/* What Qwen3-32B keeps in bf16 (2 bytes each): embed_tokens and the untied
 * lm_head (151936 x 5120 each), per layer two RMSNorms of 5120 and the
 * per-head q_norm and k_norm of 128, and the final norm. */
static uint64_t qwen3_32b_bf16_bytes(void)
{
    const uint64_t embedding = 151936ULL * 5120;
    const uint64_t norms = QWEN3_32B_LAYERS * (2 * 5120 + 2 * 128) + 5120;
    return 2 * (2 * embedding + norms);
}

static uint64_t ceil_div(uint64_t a, uint64_t b)
{
    return (a + b - 1) / b;
}

/* nvidia/Qwen3-32B-NVFP4: hf_quant_config.json quant_algo NVFP4, group 16,
 * exclude_modules [lm_head], merged into the row's config. vLLM
 * ModelOptNvFp4LinearMethod.create_weights stores each linear as uint8
 * [out, in/2] (two e2m1 values a byte), an fp8 weight_scale [out, in/16]
 * and the fp32 weight_scale_2 and input_scale: in*out/2 + out*in/16 + 8. */
static void test_modelopt_nvfp4_row(void **state)
{
    (void)state;
    json_t *r = estimate_of("qwen3-32b-nvfp4");
    assert_string_equal(weights_format(r), "nvfp4");
    assert_non_null(strstr(assumption(r, "checkpoint_precision"), "ModelOpt NVFP4"));
    uint64_t layer = 0;
    for (size_t i = 0; i < 7; i++) {
        const uint64_t in = QWEN3_32B_LINEARS[i][0], out = QWEN3_32B_LINEARS[i][1];
        layer += in * out / 2 + out * ceil_div(in, 16) + 8;
    }
    assert_int_equal(layer, 274268216ULL);
    const uint64_t expected = QWEN3_32B_LAYERS * layer + qwen3_32b_bf16_bytes();
    assert_int_equal(expected, 20666168832ULL);
    assert_int_equal(weights_bytes(r), (json_int_t)expected);
    json_decref(r);
}

/* Qwen/Qwen3-32B-FP8: quantization_config quant_method fp8,
 * weight_block_size [128, 128] (transformers FineGrainedFP8; vLLM
 * Fp8LinearMethod with block quantization): e4m3 weights, one byte each,
 * and an fp32 weight_scale_inv per 128x128 block. */
static void test_fp8_block_row(void **state)
{
    (void)state;
    json_t *r = estimate_of("qwen3-32b-fp8");
    assert_string_equal(weights_format(r), "fp8_block");
    assert_non_null(strstr(assumption(r, "checkpoint_precision"), "128x128 block"));
    uint64_t layer = 0;
    for (size_t i = 0; i < 7; i++) {
        const uint64_t in = QWEN3_32B_LINEARS[i][0], out = QWEN3_32B_LINEARS[i][1];
        layer += in * out + 4 * ceil_div(in, 128) * ceil_div(out, 128);
    }
    /* 487,587,840 weights and 29,760 blocks a layer */
    assert_int_equal(layer, 487587840ULL + 4 * 29760ULL);
    const uint64_t expected = QWEN3_32B_LAYERS * layer + qwen3_32b_bf16_bytes();
    assert_int_equal(expected, 34326243328ULL);
    assert_int_equal(weights_bytes(r), (json_int_t)expected);
    json_decref(r);
}

/* nvidia/Llama-3.1-70B-Instruct-FP8: hf_quant_config.json quant_algo FP8,
 * exclude_modules [lm_head] (vLLM ModelOptFp8LinearMethod: e4m3 weights
 * with one fp32 scale per tensor). 80 layers of q 8192->8192, k and v
 * 8192->1024, o 8192->8192, gate and up 8192->28672, down 28672->8192; the
 * embedding and lm_head (128256 x 8192 each) and the norms in bf16. */
static void test_modelopt_fp8_per_tensor_row(void **state)
{
    (void)state;
    json_t *r = estimate_of("llama-3.1-70b-instruct-fp8");
    assert_string_equal(weights_format(r), "fp8");
    assert_non_null(strstr(assumption(r, "checkpoint_precision"), "ModelOpt FP8"));
    const uint64_t layer_weights =
        8192ULL * 8192 * 2 + 8192ULL * 1024 * 2 + 8192ULL * 28672 * 3; /* 855,638,016 */
    const uint64_t fp8 = 80 * (layer_weights + 7 * 4);
    const uint64_t bf16 = 2 * (2 * 128256ULL * 8192 + 80 * 2 * 8192 + 8192);
    assert_int_equal(fp8 + bf16, 72656373952ULL);
    assert_int_equal(weights_bytes(r), (json_int_t)(fp8 + bf16));
    json_decref(r);
}

/* poolside/Laguna-XS.2-FP8: compressed-tensors, its first config group
 * 8-bit float weights with block strategy (vLLM compressed_tensors W8A8-FP8
 * block): sized as FP8 blocks, the ignore list's modules in 16-bit. */
static void test_compressed_tensors_fp8_row(void **state)
{
    (void)state;
    json_t *r = estimate_of("laguna-xs.2-fp8");
    assert_string_equal(weights_format(r), "fp8_block");
    assert_non_null(strstr(assumption(r, "checkpoint_precision"), "compressed-tensors W8A8-FP8"));
    json_decref(r);
}

/* The bf16 base rows keep sizing weights in bf16 (Kimi-K2.5 and MiniMax-M2.5
 * are left out: their publishers' own checkpoints are int4 and FP8); a dense
 * model whose every weight is counted once takes two bytes a parameter. */
static void test_base_rows_stay_bf16(void **state)
{
    (void)state;
    static const char *const bases[] = {
        "qwen3-32b",          "llama-3.1-70b",           "qwen3-30b-a3b",
        "qwen3-235b-a22b",    "glm-5",                   "gemma-4-31b-it",
        "qwen3.5-397b-a17b",  "mixtral-8x22b-v0.1",      "nemotron-3-nano-30b-a3b",
        "nemotron-3-ultra-550b-a55b",
    };
    for (size_t i = 0; i < sizeof(bases) / sizeof(bases[0]); i++) {
        json_t *r = estimate_of(bases[i]);
        if (strcmp(weights_format(r), "bf16") != 0)
            fail_msg("%s: weights sized as %s", bases[i], weights_format(r));
        json_decref(r);
    }
    json_t *r = estimate_of("qwen3-32b");
    assert_int_equal(weights_bytes(r), 2 * 32762123264LL);
    json_decref(r);
}

/* NVIDIA Nemotron 3 Nano 30B-A3B (NemotronHForCausalLM, transformers
 * models/nemotron_h; vLLM model_executor/models/nemotron_h.py):
 * hybrid_override_pattern of 52 blocks, 23 Mamba-2 (M), 23 MoE (E), 6 GQA
 * attention (*), hidden 2688, vocabulary 131072, untied head.
 *   Mamba-2 mixer: in_proj 2688 x (2*4096 + 2*8*128 + 64) = 27,697,152,
 *     conv1d 6144 x 4 + bias 6144 = 30,720, dt_bias, A_log, D 3 x 64,
 *     gated norm 4096, out_proj 4096 x 2688 = 11,010,048: 38,742,208
 *   attention: q and o 2688 x 4096, k and v 2688 x 256: 23,396,352
 *   MoE: 128 experts of up and down 2688 x 1856 (relu2, no gate)
 *     = 1,277,165,568, shared expert 2 x 2688 x 3712 = 19,955,712,
 *     router 128 x 2688 = 344,064: 1,297,465,344
 *   a norm of 2688 per block, the final norm, embedding and head
 *     2 x 131072 x 2688 = 704,643,072
 *   23 x 38,742,208 + 6 x 23,396,352 + 23 x 1,297,465,344 + 53 x 2688
 *     + 704,643,072 = 31,577,937,344 (model card: 31.6B total).
 * Active: 6 of 128 experts, the head without the input lookup:
 * 3,227,751,872 (card: about 3.2B active, 3.6B with embeddings).
 * The cache at bf16: 6 attention layers x 2 KV heads x 128 x K and V x 2
 * bytes = 6,144 bytes a token (3,072 a GPU at TP 2, one KV head each). The
 * state a sequence: per Mamba layer the conv state 6144 x (4 - 1) x 2 bytes
 * = 36,864 and the SSM state 64 heads x 64 x 128 x 4 bytes
 * (mamba_ssm_cache_dtype float32) = 2,097,152: 23 x 2,134,016 = 49,082,368
 * (half of both at TP 2). */
static void test_nemotron_3_nano(void **state)
{
    (void)state;
    const uint64_t mamba = 2688ULL * (2 * 4096 + 2 * 8 * 128 + 64) + (6144 * 4 + 6144) + 3 * 64 +
                           4096 + 4096ULL * 2688;
    const uint64_t attention = 2 * 2688ULL * 4096 + 2 * 2688ULL * 256;
    const uint64_t moe = 128 * 2 * 2688ULL * 1856 + 2 * 2688ULL * 3712 + 128 * 2688;
    const uint64_t total =
        23 * mamba + 6 * attention + 23 * moe + 53 * 2688 + 2 * 131072ULL * 2688;
    assert_int_equal(mamba, 38742208ULL);
    assert_int_equal(attention, 23396352ULL);
    assert_int_equal(moe, 1297465344ULL);
    assert_int_equal(total, 31577937344ULL);

    const struct gs_arch arch = row_arch("nemotron-3-nano-30b-a3b");
    struct gs_param_count count;
    assert_int_equal(gs_arch_count_params(&arch, &count, NULL), GS_OK);
    assert_int_equal(count.total, total);
    json_t *r = estimate_of("nemotron-3-nano-30b-a3b");
    const json_t *model = json_object_get(r, "model");
    assert_int_equal(json_integer_value(json_object_get(model, "parameters")), (json_int_t)total);
    const uint64_t active =
        total - 131072ULL * 2688 - 23 * (128 - 6) * 2 * 2688ULL * 1856; /* 3,227,751,872 */
    assert_int_equal(active, 3227751872ULL);
    assert_int_equal(json_integer_value(json_object_get(model, "active_parameters")),
                     (json_int_t)active);
    const json_t *parts = json_object_get(model, "breakdown");
    /* the breakdown counts mixers as attention, shared experts as MLP, routers with experts */
    assert_int_equal(json_integer_value(json_object_get(parts, "attention")),
                     (json_int_t)(23 * mamba + 6 * attention));
    assert_int_equal(json_integer_value(json_object_get(parts, "mlp")),
                     (json_int_t)(23 * 2 * 2688ULL * 3712));
    assert_int_equal(json_integer_value(json_object_get(parts, "experts")),
                     (json_int_t)(23 * (128 * 2 * 2688ULL * 1856 + 128 * 2688)));
    json_decref(r);

    const uint64_t conv = 6144 * (4 - 1) * 2, ssm = 64 * 64 * 128 * 4;
    for (uint64_t tp = 1; tp <= 2; tp++) {
        struct gs_kv_layout kv;
        struct gs_error err;
        gs_error_init(&err);
        assert_int_equal(gs_kv_layout_for(&arch, GS_KV_AUTO, 2, tp, 1, &kv, &err), GS_OK);
        assert_int_equal(kv.bytes_per_token, 6 * 2 * 128 * 2 * 2 / tp);
        assert_int_equal(kv.state_bytes_per_sequence, 23 * (conv + ssm) / tp);
    }
}

/* The rows of db/migrations/0027_more_releases.sql, as RELEASES above: the
 * base is the catalog row with the same architecture fields, NULL where the
 * count is new (written out in the fixture READMEs and below). */
static const struct release MORE_RELEASES[] = {
    {"phi-3.5-mini-instruct", "phi-3-mini-4k", "bf16"},
    {"phi-4-mini-instruct", NULL, "bf16"},
    {"tinyllama-1.1b-chat-v1.0", NULL, "bf16"},
    {"codellama-7b", NULL, "bf16"},
    {"codellama-13b", NULL, "bf16"},
    {"codellama-34b", NULL, "bf16"},
    {"gemma-2-2b-jpn-it", "gemma-2-2b", "bf16"},
    {"qwen2-0.5b-instruct", "qwen2.5-0.5b", "bf16"},
    {"qwen2-1.5b-instruct", "qwen2.5-1.5b", "bf16"},
    {"qwen2-7b-instruct", "qwen2.5-7b", "bf16"},
    {"qwen2.5-3b-instruct", "qwen2.5-3b", "bf16"},
    {"smollm2-135m-instruct", NULL, "bf16"},
    {"smollm2-360m-instruct", NULL, "bf16"},
    {"starcoder2-7b", NULL, "bf16"},
    {"laguna-s-2.1-fp8", NULL, "fp8_block"},
};

/* The count of a Llama-layout decoder: `layers` of hidden h with `heads`
 * query and `kv` KV heads of `head_dim`, a SwiGLU of `mlp`, two RMSNorms a
 * layer and a final one, and a vocabulary of `vocab`, its head tied or not
 * (transformers LlamaForCausalLM; vLLM model_executor/models/llama.py). */
static uint64_t llama_count(uint64_t layers, uint64_t h, uint64_t heads, uint64_t kv,
                            uint64_t head_dim, uint64_t mlp, uint64_t vocab, bool tied)
{
    const uint64_t layer =
        2 * h * heads * head_dim + 2 * h * kv * head_dim + 3 * h * mlp + 2 * h;
    return layers * layer + (tied ? 1 : 2) * vocab * h + h;
}

/* Every 0027 row is in the catalog with its Hugging Face id as an alias, and
 * the new counts are the written-out ones of the fixture READMEs. */
static void test_more_release_rows(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof(MORE_RELEASES) / sizeof(MORE_RELEASES[0]); i++) {
        check_release_row(&MORE_RELEASES[i]);
        const struct catalog_model *m = catalog_snapshot_model(snap, MORE_RELEASES[i].id);
        if (catalog_snapshot_model(snap, m->hf_id) != m)
            fail_msg("%s does not resolve to %s", m->hf_id, m->id);
    }
    static const struct {
        const char *id;
        uint64_t parameters;
    } counts[] = {
        {"tinyllama-1.1b-chat-v1.0", 1100048384ULL},
        {"codellama-7b", 6738546688ULL},
        {"codellama-13b", 13016028160ULL},
        {"codellama-34b", 33744232448ULL},
        {"smollm2-135m-instruct", 134515008ULL},
        {"smollm2-360m-instruct", 361821120ULL},
        {"phi-4-mini-instruct", 3836021760ULL},
        {"starcoder2-7b", 7173923840ULL},
    };
    assert_int_equal(llama_count(22, 2048, 32, 4, 64, 5632, 32000, false), counts[0].parameters);
    assert_int_equal(llama_count(32, 4096, 32, 32, 128, 11008, 32016, false), counts[1].parameters);
    assert_int_equal(llama_count(40, 5120, 40, 40, 128, 13824, 32016, false), counts[2].parameters);
    assert_int_equal(llama_count(48, 8192, 64, 8, 128, 22016, 32016, false), counts[3].parameters);
    assert_int_equal(llama_count(30, 576, 9, 3, 64, 1536, 49152, true), counts[4].parameters);
    assert_int_equal(llama_count(32, 960, 15, 5, 64, 2560, 49152, true), counts[5].parameters);
    /* Phi-4-mini (Phi3ForCausalLM): fused qkv and gate_up hold the same weights */
    assert_int_equal(llama_count(32, 3072, 24, 8, 128, 8192, 200064, true), counts[6].parameters);
    /* StarCoder2 7B: q, k, v, o and an ungated MLP (c_fc, c_proj), all with biases, two
     * LayerNorms with biases a layer and a final one, tied head */
    const uint64_t sc2_layer = 2 * (4608ULL * 4608 + 4608) + 2 * (4608ULL * 512 + 512) +
                               (4608ULL * 18432 + 18432) + (18432ULL * 4608 + 4608) + 4 * 4608;
    assert_int_equal(sc2_layer, 217106944ULL);
    assert_int_equal(32 * sc2_layer + 49152ULL * 4608 + 2 * 4608, counts[7].parameters);
    for (size_t i = 0; i < sizeof(counts) / sizeof(counts[0]); i++) {
        const struct catalog_model *m = catalog_snapshot_model(snap, counts[i].id);
        if (m->parameters != counts[i].parameters)
            fail_msg("%s: %llu, written out %llu", counts[i].id,
                     (unsigned long long)m->parameters, (unsigned long long)counts[i].parameters);
    }
    /* a bf16 row with every weight counted once takes two bytes a parameter */
    json_t *r = estimate_of("smollm2-135m-instruct");
    assert_int_equal(weights_bytes(r), 2 * 134515008LL);
    json_decref(r);
}

/* poolside/Laguna-S-2.1-FP8 (LagunaForCausalLM, transformers
 * models/laguna/modeling_laguna.py; vLLM model_executor/models/laguna.py),
 * tests/fixtures/configs/laguna/README.md: h 3072, 48 layers, 12 global of 48
 * query heads and 36 sliding (window 512) of 72, 8 KV heads of 128, a g_proj
 * of one gate a head, q/k norms; layer 0 a dense SwiGLU of 12288, 47 MoE
 * layers of 256 experts of 1024 (top 10) with a router, its correction-bias
 * parameter and a shared expert of 1024; vocabulary 100352, untied head.
 * Its compressed-tensors config group 0 is FP8 in 128x128 blocks (vLLM
 * compressed_tensors W8A8-FP8 block); the ignore list keeps the attention
 * projections, layer 0's MLP, the routers, the shared experts and lm_head in
 * 16-bit, so only the routed experts are FP8: one byte a weight and an fp32
 * scale per block (gate and up 1024 x 3072, down 3072 x 1024: 3 x 8 x 24
 * blocks an expert). */
static void test_laguna_s_2_1_fp8(void **state)
{
    (void)state;
    const uint64_t h = 3072, vocab = 100352;
    const uint64_t global = 2 * h * 48 * 128 + 2 * h * 8 * 128 + h * 48 + 2 * 128;
    const uint64_t sliding = 2 * h * 72 * 128 + 2 * h * 8 * 128 + h * 72 + 2 * 128;
    const uint64_t dense = 3 * h * 12288;
    const uint64_t expert = 3 * h * 1024;
    const uint64_t moe = 256 * expert + 256 * h + 256 + expert;
    assert_int_equal(global, 44187904ULL);
    assert_int_equal(sliding, 63136000ULL);
    assert_int_equal(moe, 2426142976ULL);
    const uint64_t total =
        12 * global + 36 * sliding + dense + 47 * moe + 48 * 2 * h + h + 2 * vocab * h;
    assert_int_equal(total, 117561977600ULL);
    const uint64_t active = total - 47 * (256 - 10) * expert - vocab * h;
    assert_int_equal(active, 8140974848ULL);

    const struct gs_arch arch = row_arch("laguna-s-2.1-fp8");
    struct gs_param_count c;
    assert_int_equal(gs_arch_count_params(&arch, &c, NULL), GS_OK);
    assert_int_equal(c.total, total);
    assert_int_equal(c.active, active);
    assert_int_equal(c.attention, 12 * global + 36 * sliding);
    assert_int_equal(c.embedding, vocab * h);
    assert_int_equal(c.lm_head, vocab * h);
    assert_int_equal(c.experts, 47 * (256 * expert + 256 * h + 256));
    assert_int_equal(c.mlp, dense + 47 * expert);

    /* K and V of 8 heads of 128 at 2 bytes in each of 48 layers, as if every layer held every
     * token; the 12 global layers 49,152; at TP 4 two KV heads a GPU */
    for (uint64_t tp = 1; tp <= 4; tp *= 4) {
        struct gs_kv_layout kv;
        struct gs_error err;
        gs_error_init(&err);
        assert_int_equal(gs_kv_layout_for(&arch, GS_KV_AUTO, 2, tp, 1, &kv, &err), GS_OK);
        assert_int_equal(kv.bytes_per_token, 48 * 2 * 8 * 128 * 2 / tp);
        assert_int_equal(kv.full_layers, 12);
        assert_int_equal(kv.full_token_bytes, 12 * 2 * 8 * 128 * 2 / tp);
        assert_int_equal(kv.window_layers, 36);
        assert_int_equal(kv.sliding_window, 512);
    }

    json_t *r = estimate_of("laguna-s-2.1-fp8");
    assert_string_equal(weights_format(r), "fp8_block");
    assert_non_null(strstr(assumption(r, "checkpoint_precision"), "compressed-tensors W8A8-FP8"));
    const uint64_t routed = 47 * 256 * expert;
    const uint64_t expected = routed + 47 * 256 * 4 * (3 * 8 * 24) + 2 * (total - routed);
    assert_int_equal(expected, 121603479040ULL);
    assert_int_equal(weights_bytes(r), (json_int_t)expected);
    json_decref(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_release_row),
        cmocka_unit_test(test_modelopt_nvfp4_row),
        cmocka_unit_test(test_fp8_block_row),
        cmocka_unit_test(test_modelopt_fp8_per_tensor_row),
        cmocka_unit_test(test_compressed_tensors_fp8_row),
        cmocka_unit_test(test_base_rows_stay_bf16),
        cmocka_unit_test(test_nemotron_3_nano),
        cmocka_unit_test(test_more_release_rows),
        cmocka_unit_test(test_laguna_s_2_1_fp8),
    };
    return cmocka_run_group_tests(tests, setup_group, teardown_group);
}
