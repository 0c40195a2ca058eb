/*
 * test_models_sparse_attention.c - the readers of server/readers/sparse_attention.c
 * (DeepSeek-V4, GLM-5, GLM-5.3-Flash): exact parameter counts against transformers 5's count
 * (the written-out arithmetic of tests/fixtures/configs/<model_type>/README.md,
 * which also compares the published totals), active parameters, the MTP layers
 * and the buffers the checkpoint stores beside them, the KV cache per token
 * (bf16 and fp8_ds_mla, tensor parallelism 1 and 8), the checkpoint's MXFP4
 * experts, reader errors, a vLLM serving estimate and SGLang's DeepSeek-V4 pools.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "arch_fixture.h"
#include "gs/activation.h"
#include "gs/capability.h"
#include "gs/estimate.h"
#include "gs/framework.h"
#include "gs/gpu.h"
#include "gs/inference.h"
#include "gs/model_support.h"
#include "gs/perf.h"
#include "gs/sglang.h"
#include "gs/speculative.h"
#include "gs/vllm.h"
#include "gs/weights.h"
#include "readers/models.h"

#include <math.h>
#include <string.h>

#define FLASH "deepseek_v4/deepseek-ai__DeepSeek-V4-Flash.json"
#define PRO   "deepseek_v4/deepseek-ai__DeepSeek-V4-Pro.json"
#define GLM5  "glm_moe_dsa/zai-org__GLM-5.json"
#define GLM51 "glm_moe_dsa/zai-org__GLM-5.1.json"
#define GLM52 "glm_moe_dsa/zai-org__GLM-5.2.json"
#define GLM53_FLASH "glm5_next/zai-org__GLM-5.3-Flash.json"

/* ------------------------------------------------------------ helpers */

struct counts {
    uint64_t total, active, mtp, buffers;
};

static void assert_counts(const struct gs_arch *a, struct counts want)
{
    const struct gs_param_count c = fixture_count(a);
    assert_int_equal(c.total, want.total);
    assert_int_equal(c.active, want.active);
    assert_int_equal(c.mtp, want.mtp);
    assert_int_equal(c.buffers, want.buffers);
    fixture_assert_parts_sum(&c);
}

/* Bytes per token on one GPU: the latent entries as if every layer held every token (windows
 * included), the compressed entries alone (they grow with the context), the indexer keys. */
static void assert_cache(const struct gs_arch *a, enum gs_kv_dtype dtype, uint64_t token_bytes,
                         uint64_t growing_bytes, uint64_t indexer_bytes)
{
    for (uint64_t t = 1; t <= 8; t *= 8) {
        const struct gs_kv_layout kv = fixture_layout_as(a, dtype, t);
        assert_int_equal(kv.bytes_per_token, token_bytes);
        assert_int_equal(kv.full_token_bytes, growing_bytes);
        assert_int_equal(kv.indexer_token_bytes, indexer_bytes);
        assert_int_equal(kv.state_bytes_per_sequence, 0);
        /* one latent head, replicated on every tensor rank (MLAAttentionSpec) */
        assert_int_equal(kv.bytes_per_token_total, t * token_bytes);
    }
}

/* Decoder layers whose attention keeps compressed entries at `ratio` (0: the window only),
 * and of those, the ones with their own indexer. */
static uint64_t layers_at_ratio(const struct gs_arch *a, uint64_t ratio, bool indexer)
{
    uint64_t counts[GS_BLOCKS_MAX], n = 0;
    gs_arch_count_blocks(a, 0, a->num_hidden_layers, counts);
    for (size_t b = 0; b < a->block_count; b++)
        if (a->blocks[b].attn.compress_ratio == ratio &&
            (a->blocks[b].attn.index_heads != 0) == indexer)
            n += counts[b];
    return n;
}

/* Decoder layers with a sparse-attention indexer of their own. */
static uint64_t indexer_layers(const struct gs_arch *a)
{
    uint64_t counts[GS_BLOCKS_MAX], n = 0;
    gs_arch_count_blocks(a, 0, a->num_hidden_layers, counts);
    for (size_t b = 0; b < a->block_count; b++)
        if (a->blocks[b].attn.index_heads)
            n += counts[b];
    return n;
}

/* ------------------------------------------------------------ registry */

static void test_types_listed(void **state)
{
    (void)state;
    const char *list = models_supported();
    assert_non_null(strstr(list, "deepseek_v4"));
    assert_non_null(strstr(list, "glm_moe_dsa"));
}

/* ------------------------------------------------------------ DeepSeek-V4 */

/* deepseek_v4/README.md: V4-Flash, 43 layers (2 sliding window, 21 compressed sparse with an
 * indexer, 20 heavily compressed), 3 hash-routed; 284,332,230,231 parameters (card "284B",
 * 13B activated); the MTP layer 6,610,048,891; buffers 3 x 129,280 x 6 tid2eid + 40 x 256
 * correction biases = 2,337,280. */
static void test_deepseek_v4_flash_counts(void **state)
{
    (void)state;
    const struct gs_arch a = fixture_arch_file(FLASH);
    assert_counts(&a, (struct counts){284332230231ULL, 13270091351ULL, 6610048891ULL, 2337280});
    const struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.embedding, 129280ULL * 4096);
    assert_int_equal(c.lm_head, 129280ULL * 4096);
    /* 43 x 106,956,352 attention + 21 x 19,142,272 + 20 x 4,260,352 compressors */
    assert_int_equal(c.attention, 5086317888ULL);
    /* 43 x (256 x 25,165,824 experts + the 256 x 4096 router) */
    assert_int_equal(c.experts, 277070479360ULL);
    assert_int_equal(c.mlp, 43ULL * 3 * 4096 * 2048); /* the shared expert */
    assert_int_equal(c.norms, 43ULL * 2 * 4096 + 4096);
    /* hyper-connections: 43 x 2 x (24 x 16,384 + 24 + 3), the head's 4 x 16,384 + 4 + 1 */
    assert_int_equal(c.other, 33884439ULL);
    assert_int_equal(layers_at_ratio(&a, 0, false), 2);
    assert_int_equal(layers_at_ratio(&a, 4, true), 21);
    assert_int_equal(layers_at_ratio(&a, 128, false), 20);
    assert_int_equal(gs_arch_moe_layers(&a), 43);
}

/* transformers runs V4 eager only (DeepseekV4PreTrainedModel: no SDPA, no flash-attn) through
 * eager_attention_with_sink, softmax at the scores' dtype: a training layer keeps its score matrix,
 * 2 bytes a score in bf16, over the sequence's own keys. V4-Flash's 64 heads, one sequence under
 * transformers 5.17: a layer at 32 tokens less two at 16 keeps 64 x (32^2 - 2 x 16^2) x 2 B =
 * 65,536 B (nothing else a layer keeps grows faster than the tokens). */
static void test_deepseek_v4_eager_only(void **state)
{
    (void)state;
    const struct gs_arch a = fixture_arch_file(FLASH);
    assert_true(a.attention_eager_only);
    assert_true(a.eager_softmax_native);
    struct gs_parallelism par;
    struct gs_training_knobs knobs;
    fixture_framework_release(&par, &knobs, GS_FW_TRANSFORMERS, 517);
    struct gs_framework_rules rules;
    gs_framework_resolve(&knobs, GS_ATTN_EAGER, &rules);
    struct gs_activation_input in = fixture_one_sequence(&a, &par, &rules, 16, false);
    struct gs_activation_result at16, at32;
    assert_true(gs_activation_bytes(&in, &at16));
    in.sequence_length = 32;
    assert_true(gs_activation_bytes(&in, &at32));
    assert_int_equal(at32.per_layer_bytes - 2 * at16.per_layer_bytes, 65536);
}

/* deepseek_v4/README.md: V4-Pro, 61 layers (30 compressed sparse, 31 heavily compressed);
 * 1,572,997,179,491 parameters, 1,598,837,325,470 with the MTP layer (card "1.6T", 49B
 * activated). */
static void test_deepseek_v4_pro_counts(void **state)
{
    (void)state;
    const struct gs_arch a = fixture_arch_file(PRO);
    assert_counts(&a, (struct counts){1572997179491ULL, 48852379747ULL, 25840145979ULL, 2349312});
    assert_int_equal(layers_at_ratio(&a, 0, false), 0);
    assert_int_equal(layers_at_ratio(&a, 4, true), 30);
    assert_int_equal(layers_at_ratio(&a, 128, false), 31);
}

/* Every layer keeps a 128-token window of 512-value entries (bf16: 1,024 bytes; V4's
 * fp8_ds_mla: 584), compressed layers one more entry per 4 or 128 tokens, the compressed
 * sparse layers' indexer one 132-byte key per 4 tokens (README, KV cache). Flash bf16:
 * 43 x 1,024 + 256 + 5,120 + 160 = 49,568, growing 5,536, indexer 33 + 660. */
static void test_deepseek_v4_cache(void **state)
{
    (void)state;
    const struct gs_arch flash = fixture_arch_file(FLASH);
    assert_cache(&flash, GS_KV_AUTO, 49568, 5536, 693);
    const struct gs_kv_layout kv = fixture_layout(&flash, 1);
    assert_int_equal(kv.window_count, 1);
    assert_int_equal(kv.windows[0].window, 128);
    assert_int_equal(kv.windows[0].layers, 43);
    assert_int_equal(kv.windows[0].token_bytes, 43 * 1024);
    assert_int_equal(gs_kv_fp8_for(&flash), GS_KV_FP8_DS_MLA);
    /* 43 x 584 + 146 + 2,920 + ceil(20 x 584 / 128) = 92 */
    assert_cache(&flash, GS_KV_FP8_DS_MLA, 28270, 3158, 693);

    const struct gs_arch pro = fixture_arch_file(PRO);
    /* 61 x 1,024 + 16 + 256 + 7,424 + 232; indexer 33 + 957 */
    assert_cache(&pro, GS_KV_AUTO, 70392, 7928, 990);
    assert_cache(&pro, GS_KV_FP8_DS_MLA, 40147, 4523, 990);
}

/* expert_dtype "fp4": MXFP4 routed experts (17 bytes per 32 values) beside fp8 linears in
 * 128x128 blocks (vLLM DeepseekV4FP8Config: "DeepSeek V4 checkpoints always use FP8 block
 * quantization for linear/attention layers"), the rest 16-bit, the buffers at 4 bytes (fp32
 * biases, int32 tid2eid). Flash at TP 1: 277,025,390,592 expert values -> 147,169,738,752
 * bytes; of the 7,306,839,639 other parameters the quantized attention and shared-expert
 * projections are 5,857,345,536 values, a byte each, with 357,504 block scales of 4 bytes
 * (1,430,016); the hyper-connections (43 x 786,486 and the head's 65,541: 33,884,439) and the
 * sinks (43 x 64 = 2,752) stay fp32 as the engines keep them, 4 bytes each, and the other
 * 1,415,606,912 16-bit; 2,337,280 buffer values x 4. Before the fp8 linears were read it was
 * 161,792,767,150 (every non-expert parameter 16-bit); before the fp32 ones 67,774,382 less. */
static void test_deepseek_v4_checkpoint(void **state)
{
    (void)state;
    const struct gs_arch a = fixture_arch_file(FLASH);
    assert_true(a.checkpoint.quantized);
    assert_int_equal(a.checkpoint.format, GS_WF_MXFP4);
    assert_false(a.checkpoint.experts_only);
    assert_int_equal(a.checkpoint.part_format[GS_PART_ATTENTION], GS_WF_FP8_BLOCK);
    assert_int_equal(a.checkpoint.part_format[GS_PART_MLP], GS_WF_FP8_BLOCK);
    assert_int_equal(a.checkpoint.part_format[GS_PART_EXPERTS], GS_WF_MXFP4);
    const struct gs_param_count c = fixture_count(&a);
    const struct gs_weights_request r = {.format = GS_WF_MXFP4, .tensor = 1, .pipeline = 1};
    uint64_t bytes = 0;
    struct gs_error err;
    gs_error_init(&err);
    assert_int_equal(gs_weights_bytes(&a, &c, &r, &bytes, &err), GS_OK);
    assert_int_equal(bytes, 147169738752ULL + 5857345536ULL + 1430016ULL +
                                4 * (33884439ULL + 2752) + 2 * 1415606912ULL + 4 * 2337280ULL);
    assert_int_equal(1415606912ULL + 33884439 + 2752, 1449494103ULL);
}

/* sgl-project's FP8 repacks (the catalog's deepseek-v4-flash-fp8 and deepseek-v4-pro-fp8; verbatim
 * configs from ai-dynamo/aiconfigurator at 0b077da5): model_type "deepseek_ref", as DeepSeek-V4's
 * release artifacts and SGLang's DeepSeekV4Config name it, read through architectures[0]
 * (DeepseekV4ForCausalLM) - every count the official config's - and a quantization_config
 * without expert_dtype, so the routed experts are fp8 with
 * 128 x 128 block scales like the other linears: Flash at TP 1 keeps test_deepseek_v4_checkpoint's
 * bytes with the experts' 277,025,390,592 values at a byte each (not MXFP4's 147,169,738,752
 * bytes) and 43 x 256 x 3 x 512 fp32 block scales (each 4,096 x 2,048 matrix is 32 x 16 blocks). */
static void test_deepseek_ref(void **state)
{
    (void)state;
    const struct gs_arch a =
        fixture_arch_file("deepseek_v4/sgl-project__DeepSeek-V4-Flash-FP8.json");
    const struct gs_arch official = fixture_arch_file(FLASH);
    const struct gs_param_count c = fixture_count(&a), o = fixture_count(&official);
    assert_int_equal(c.total, o.total);
    assert_int_equal(c.mtp, o.mtp);
    assert_int_equal(c.buffers, o.buffers);
    assert_true(a.checkpoint.quantized);
    assert_int_equal(a.checkpoint.format, GS_WF_FP8_BLOCK);
    const struct gs_weights_request r = {.format = GS_WF_FP8_BLOCK, .tensor = 1, .pipeline = 1};
    uint64_t bytes = 0;
    struct gs_error err;
    gs_error_init(&err);
    assert_int_equal(gs_weights_bytes(&a, &c, &r, &bytes, &err), GS_OK);
    assert_int_equal(bytes, 277025390592ULL + 43ULL * 256 * 3 * 512 * 4 + 5857345536ULL +
                                1430016ULL + 4 * (33884439ULL + 2752) + 2 * 1415606912ULL +
                                4 * 2337280ULL);
    const struct gs_arch pro =
        fixture_arch_file("deepseek_v4/sgl-project__DeepSeek-V4-Pro-FP8.json");
    const struct gs_arch pro_official = fixture_arch_file(PRO);
    assert_int_equal(fixture_count(&pro).total, fixture_count(&pro_official).total);
    assert_int_equal(fixture_count(&pro).mtp, fixture_count(&pro_official).mtp);
}

/* A config saved by transformers 5 (layer_types, mlp_layer_types, compress_rates) reads as the
 * legacy one; the rates set the compressed entries and the position biases. */
static void test_deepseek_v4_layer_types(void **state)
{
    (void)state;
    const struct gs_arch a = fixture_arch(
        "{\"model_type\":\"deepseek_v4\",\"hidden_size\":256,\"vocab_size\":1000,"
        "\"num_hidden_layers\":3,\"num_attention_heads\":8,\"head_dim\":64,\"q_lora_rank\":64,"
        "\"o_groups\":2,\"o_lora_rank\":32,\"index_n_heads\":4,\"index_head_dim\":32,"
        "\"qk_rope_head_dim\":16,\"n_routed_experts\":4,\"num_experts_per_tok\":2,"
        "\"moe_intermediate_size\":64,\"hc_mult\":2,\"num_nextn_predict_layers\":0,"
        "\"layer_types\":[\"sliding_attention\",\"compressed_sparse_attention\","
        "\"heavily_compressed_attention\"],\"mlp_layer_types\":[\"hash_moe\",\"moe\",\"moe\"],"
        "\"compress_rates\":{\"compressed_sparse_attention\":4,"
        "\"heavily_compressed_attention\":64}}");
    assert_int_equal(layers_at_ratio(&a, 0, false), 1);
    assert_int_equal(layers_at_ratio(&a, 4, true), 1);
    assert_int_equal(layers_at_ratio(&a, 64, false), 1);
    /* buffers: one hash layer's 1000 x 2 table, two layers' 4 biases */
    assert_int_equal(fixture_count(&a).buffers, 2008);
    /* 3 x 353,950 per layer (attention 98,440, experts, shared expert, router, norms, two
     * hyper-connections of 4,107) + the ratio-4 compressor and indexer 108,384 + the ratio-64
     * compressor 2 x 256 x 64 + 64 x 64 + 64 = 36,928 + 513,283 model-level */
    assert_int_equal(fixture_count(&a).total, 1720445);

    /* neither list: DeepseekV4Config's default, two heavily compressed layers and then heavily
     * compressed and compressed sparse in turn; the first 3 layers hash-routed */
    const struct gs_arch d = fixture_arch(
        "{\"model_type\":\"deepseek_v4\",\"hidden_size\":256,\"vocab_size\":1000,"
        "\"num_hidden_layers\":5,\"num_attention_heads\":8,\"head_dim\":64,\"q_lora_rank\":64,"
        "\"o_groups\":2,\"o_lora_rank\":32,\"index_n_heads\":4,\"index_head_dim\":32,"
        "\"qk_rope_head_dim\":16,\"n_routed_experts\":4,\"num_experts_per_tok\":2,"
        "\"moe_intermediate_size\":64,\"num_nextn_predict_layers\":0}");
    assert_int_equal(layers_at_ratio(&d, 128, false), 4);
    assert_int_equal(layers_at_ratio(&d, 4, true), 1);
    assert_int_equal(fixture_count(&d).buffers, 3 * 1000 * 2 + 2 * 4);
}

static void test_deepseek_v4_errors(void **state)
{
    (void)state;
    fixture_assert_reader_error(
        "{\"model_type\":\"deepseek_v4\",\"hidden_size\":256,\"vocab_size\":1000,"
        "\"num_hidden_layers\":2,\"num_attention_heads\":8,\"head_dim\":64,"
        "\"qk_rope_head_dim\":16,\"q_lora_rank\":64,\"o_groups\":2,\"o_lora_rank\":"
        "32,\"index_n_heads\":4,"
        "\"index_head_dim\":32,\"n_routed_experts\":4,\"num_experts_per_tok\":2,"
        "\"moe_intermediate_size\":64,\"compress_ratios\":[0,8]}",
        "/compress_ratios");
    fixture_assert_reader_error(
        "{\"model_type\":\"deepseek_v4\",\"hidden_size\":256,\"vocab_size\":1000,"
        "\"num_hidden_layers\":3,\"num_attention_heads\":8,\"head_dim\":64,"
        "\"qk_rope_head_dim\":16,\"q_lora_rank\":64,\"o_groups\":2,\"o_lora_rank\":"
        "32,\"index_n_heads\":4,"
        "\"index_head_dim\":32,\"n_routed_experts\":4,\"num_experts_per_tok\":2,"
        "\"moe_intermediate_size\":64,\"compress_ratios\":[0,4]}",
        "/compress_ratios");
    fixture_assert_reader_error(
        "{\"model_type\":\"deepseek_v4\",\"hidden_size\":256,\"vocab_size\":1000,"
        "\"num_hidden_layers\":2,\"num_attention_heads\":8,\"head_dim\":64,"
        "\"qk_rope_head_dim\":16,\"q_lora_rank\":64,\"o_groups\":3,\"o_lora_rank\":"
        "32,\"index_n_heads\":4,"
        "\"index_head_dim\":32,\"n_routed_experts\":4,\"num_experts_per_tok\":2,"
        "\"moe_intermediate_size\":64}",
        "/o_groups");
    fixture_assert_reader_error(
        "{\"model_type\":\"deepseek_v4\",\"hidden_size\":256,\"vocab_size\":1000,"
        "\"num_hidden_layers\":2,\"num_attention_heads\":8,\"head_dim\":64,"
        "\"q_lora_rank\":64,\"o_groups\":2,\"o_lora_rank\":32,\"index_n_heads\":4,"
        "\"index_head_dim\":32,\"n_routed_experts\":4,\"num_experts_per_tok\":2,"
        "\"moe_intermediate_size\":64}",
        "/qk_rope_head_dim");
    fixture_assert_reader_error(
        "{\"model_type\":\"deepseek_v4\",\"hidden_size\":256,\"vocab_size\":1000,"
        "\"num_hidden_layers\":2,\"num_attention_heads\":8,\"q_lora_rank\":64,"
        "\"o_groups\":2,\"o_lora_rank\":32,\"index_n_heads\":4,"
        "\"index_head_dim\":32,\"n_routed_experts\":4,\"num_experts_per_tok\":2,"
        "\"moe_intermediate_size\":64}",
        "/head_dim");
}

/* ------------------------------------------------------------ GLM-5 */

/* glm_moe_dsa/README.md: 78 layers (3 dense, 75 routed), an indexer on every layer;
 * 743,911,199,232 parameters (card "744B", 40B active); the MTP layer 11,856,086,016; 75 x 256
 * correction biases. GLM-5.1 has the same shapes. */
static void test_glm5_counts(void **state)
{
    (void)state;
    const struct counts glm5 = {743911199232ULL, 40833126912ULL, 11856086016ULL, 19200};
    const struct gs_arch a = fixture_arch_file(GLM5);
    assert_counts(&a, glm5);
    assert_int_equal(indexer_layers(&a), 78);
    assert_int_equal(gs_arch_moe_layers(&a), 75);
    const struct gs_param_count c = fixture_count(&a);
    /* 78 x 165,022,208 MLA + 78 x 9,371,904 indexers */
    assert_int_equal(c.attention, 13602740736ULL);
    const struct gs_arch b = fixture_arch_file(GLM51);
    assert_counts(&b, glm5);
}

/* GLM-5's router is GlmMoeDsaTopkRouter (modeling_glm_moe_dsa.py): self.weight a bare parameter
 * scored in fp32, F.linear(hidden_states.type(torch.float32), self.weight.type(torch.float32)),
 * as DeepSeek-V3's: no LoRA target adapts it (a `gate` alone is a 400), and a full fine-tune
 * keeps its fp32 copies. */
static void test_glm5_router(void **state)
{
    (void)state;
    const struct gs_arch a = fixture_arch_file(GLM5);
    bool routed = false;
    for (size_t k = 0; k < a.block_count; k++) {
        if (a.blocks[k].mlp.kind != GS_MLP_MOE)
            continue;
        routed = true;
        assert_true(a.blocks[k].mlp.router_parameter);
        assert_true(a.blocks[k].mlp.router_fp32);
    }
    assert_true(routed);
}

/* GLM-5.2: indexer_types keeps an indexer on 21 layers (0-2, then every fourth); the other 57
 * reuse the previous full layer's top-k and build none: 57 x 9,371,904 fewer parameters. */
static void test_glm52_shared_indexer(void **state)
{
    (void)state;
    const struct gs_arch a = fixture_arch_file(GLM52);
    assert_counts(&a, (struct counts){743377000704ULL, 40298928384ULL, 11856086016ULL, 19200});
    assert_int_equal(indexer_layers(&a), 21);
    assert_int_equal(743911199232ULL - 743377000704ULL, 57ULL * 9371904);
}

/* The MLA latent 512 + 64 (bf16 1,152 bytes; fp8_ds_mla 656) on all 78 layers, the indexer's
 * 132-byte keys on the layers that have one. */
static void test_glm5_cache(void **state)
{
    (void)state;
    const struct gs_arch a = fixture_arch_file(GLM5);
    assert_cache(&a, GS_KV_AUTO, 78 * 1152, 78 * 1152, 78 * 132);
    assert_cache(&a, GS_KV_FP8_DS_MLA, 78 * 656, 78 * 656, 78 * 132);
    const struct gs_arch b = fixture_arch_file(GLM52);
    assert_cache(&b, GS_KV_AUTO, 78 * 1152, 78 * 1152, 21 * 132);
}

static void test_glm5_errors(void **state)
{
    (void)state;
    fixture_assert_reader_error(
        "{\"model_type\":\"glm_moe_dsa\",\"hidden_size\":256,\"vocab_size\":1000,"
        "\"num_hidden_layers\":2,\"num_attention_heads\":4,"
        "\"intermediate_size\":512,\"kv_lora_rank\":64,\"q_lora_rank\":64,"
        "\"qk_nope_head_dim\":32,\"qk_rope_head_dim\":16,\"v_head_dim\":32,"
        "\"index_n_heads\":4,\"index_head_dim\":32,\"n_routed_experts\":4,"
        "\"num_experts_per_tok\":2,\"moe_intermediate_size\":64,"
        "\"indexer_types\":[\"full\",\"sometimes\"]}",
        "/indexer_types");
    fixture_assert_reader_error(
        "{\"model_type\":\"glm_moe_dsa\",\"hidden_size\":256,\"vocab_size\":1000,"
        "\"num_hidden_layers\":2,\"num_attention_heads\":4,"
        "\"intermediate_size\":512,\"kv_lora_rank\":64,\"q_lora_rank\":64,"
        "\"qk_nope_head_dim\":32,\"qk_rope_head_dim\":16,\"v_head_dim\":32,"
        "\"index_n_heads\":4,\"index_head_dim\":32,\"n_routed_experts\":4,"
        "\"num_experts_per_tok\":2,\"moe_intermediate_size\":64,"
        "\"mlp_layer_types\":[\"dense\"]}",
        "/mlp_layer_types");
    /* index_topk_pattern: F runs the indexer, S shares the previous full layer's */
    const struct gs_arch a = fixture_arch(
        "{\"model_type\":\"glm_moe_dsa\",\"hidden_size\":256,\"vocab_size\":1000,"
        "\"num_hidden_layers\":4,\"num_attention_heads\":4,\"intermediate_size\":512,"
        "\"kv_lora_rank\":64,\"q_lora_rank\":64,\"qk_nope_head_dim\":32,\"qk_rope_head_dim\":16,"
        "\"v_head_dim\":32,\"index_n_heads\":4,\"index_head_dim\":32,\"n_routed_experts\":4,"
        "\"num_experts_per_tok\":2,\"moe_intermediate_size\":64,\"index_topk_pattern\":\"FSSF\"}");
    assert_int_equal(indexer_layers(&a), 2);
}

/* ------------------------------------------------------------ serving */

/* A vLLM estimate of 4 sequences of 4,096 tokens at TP 4 on 141 GB GPUs: the cache is the batch
 * times one sequence's blocks (gs_kv_sequence_bytes: the compressed entries and indexer keys
 * over the context, the window's blocks), in the fp8_ds_mla entries vLLM's default DeepSeek-V4
 * attention keeps for kv_cache_dtype auto (28,270 bytes a token: test_deepseek_v4_cache), and
 * the weights are the checkpoint's MXFP4 experts beside 16-bit linears. */
static void test_deepseek_v4_serving(void **state)
{
    (void)state;
    const struct gs_arch a = fixture_arch_file(FLASH);
    struct gs_workload w = fixture_vllm_workload(4, 4096, 4, 141000000000ULL);
    /* as a request naming no precision sizes it: the checkpoint's own format */
    w.format_given = true;
    w.format = a.checkpoint.format;
    w.format_experts_only = a.checkpoint.experts_only;
    w.format_from_checkpoint = true;
    const struct gs_estimate e = fixture_estimate(&a, &w);
    assert_true(e.has_serving);
    if (!e.serving.starts)
        fail_msg("weights %llu kv_bytes %lld act %llu nontorch %llu graph %llu binding %s",
                 (unsigned long long)e.per_gpu.weights_bytes, (long long)e.serving.budget.kv_bytes,
                 (unsigned long long)e.serving.budget.activation_bytes,
                 (unsigned long long)e.serving.budget.non_torch_bytes,
                 (unsigned long long)e.serving.budget.cuda_graph_bytes,
                 e.serving.binding ? e.serving.binding : "");
    bool ovf = false;
    const uint64_t seq = gs_kv_sequence_bytes(&e.serving.kv, 4096, 0, e.serving.block_size,
                                              e.serving.max_num_batched_tokens, &ovf);
    assert_false(ovf);
    assert_int_equal(e.serving.kv.bytes_per_token, 28270);
    assert_int_equal(e.serving.kv_needed_bytes, 4 * seq);
    /* the growing part alone: 4,096 tokens x (3,158 + 693) bytes */
    assert_true(seq >= 4096ULL * (3158 + 693));
    /* experts in ~4.25 bits: far below the 16-bit weights of the whole model */
    assert_true(e.per_gpu.weights_bytes < e.params.total / 2);
}

/* Buffers vLLM's DeepSeek sparse-attention models allocate with themselves (vllm.c
 * gs_vllm_sparse_buffer_bytes), in budget.sparse_buffer_bytes: topk_indices_buffer, T =
 * max_num_batched_tokens rows of index_topk int32 - DeepSeek-V4-Flash 512, -Pro 1,024, GLM-5
 * 2,048 - and
 * DeepSeek-V4's _mtp_hidden_buffer, T x hc_mult 4 x hidden 4,096 bf16 values, which 0.26 builds
 * always and later releases (PR #50312) only for a speculative method that reads it; an mtp
 * draft's own model a second index buffer (DeepSeekV4MultiTokenPredictor; DeepSeek-V3.2's and
 * GLM-5's deepseek_mtp one a MTP layer). At T =
 * 8,192: 16,777,216 and 268,435,456 bytes (DeepSeek-V4-Pro's 28,672-wide one, 469,762,048 = the
 * PR's "448 MiB"). */
static void test_sparse_mla_vllm_buffers(void **state)
{
    (void)state;
    const struct gs_arch flash = fixture_arch_file(FLASH);
    const struct gs_arch pro = fixture_arch_file(PRO);
    const struct gs_arch glm = fixture_arch_file(GLM5);
    bool ovf = false;
    const uint64_t t = 8192;
    assert_int_equal(gs_vllm_sparse_buffer_bytes(&flash, 0, GS_SPEC_NONE, t, 2, true, &ovf),
                     t * 512 * 4);
    assert_int_equal(gs_vllm_sparse_buffer_bytes(&flash, 2600, GS_SPEC_NONE, t, 2, true, &ovf),
                     t * 512 * 4 + t * 16384 * 2);
    assert_int_equal(gs_vllm_sparse_buffer_bytes(&flash, 2700, GS_SPEC_NONE, t, 2, true, &ovf),
                     t * 512 * 4);
    assert_int_equal(gs_vllm_sparse_buffer_bytes(&flash, 2700, GS_SPEC_MTP, t, 2, true, &ovf),
                     2 * t * 512 * 4 + t * 16384 * 2); /* the drafter's own index buffer */
    assert_int_equal(gs_vllm_sparse_buffer_bytes(&flash, 2700, GS_SPEC_EAGLE3, t, 2, true, &ovf),
                     t * 512 * 4 + t * 16384 * 2);
    assert_int_equal(gs_vllm_sparse_buffer_bytes(&flash, 0, GS_SPEC_NGRAM, t, 2, true, &ovf),
                     t * 512 * 4);
    /* only the last stage keeps the residual streams */
    assert_int_equal(gs_vllm_sparse_buffer_bytes(&flash, 2600, GS_SPEC_MTP, t, 2, false, &ovf),
                     2 * t * 512 * 4);
    assert_int_equal(gs_vllm_sparse_buffer_bytes(&pro, 2600, GS_SPEC_NONE, t, 2, true, &ovf),
                     t * 1024 * 4 + 469762048);
    assert_int_equal(gs_vllm_sparse_buffer_bytes(&glm, 2600, GS_SPEC_NONE, t, 2, true, &ovf),
                     t * 2048 * 4);
    /* DeepSeek-V3.2's and GLM-5's deepseek_mtp drafter: one more for its MTP layer */
    assert_int_equal(gs_vllm_sparse_buffer_bytes(&glm, 2600, GS_SPEC_MTP, t, 2, true, &ovf),
                     2 * t * 2048 * 4);
    const struct gs_arch v32 = fixture_arch_file("deepseek_v32/deepseek-ai__DeepSeek-V3.2.json");
    assert_int_equal(gs_vllm_sparse_buffer_bytes(&v32, 0, GS_SPEC_NONE, t, 2, true, &ovf),
                     t * 2048 * 4);
    assert_int_equal(gs_vllm_sparse_buffer_bytes(&v32, 0, GS_SPEC_MTP, t, 2, true, &ovf),
                     2 * t * 2048 * 4);
    assert_false(ovf);

    /* in an estimate: counted with the weights vLLM loads */
    struct gs_inference_input in = fixture_vllm_one_sequence(&flash, 8, 150000000000ULL);
    struct gs_inference_result r;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_int_equal(r.budget.sparse_buffer_bytes, r.max_num_batched_tokens * 512 * 4);
    assert_int_equal(r.budget.model_buffer_bytes, 0);
    in.engine.spec_method = GS_SPEC_MTP;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_int_equal(r.budget.sparse_buffer_bytes,
                     r.max_num_batched_tokens * (2 * 512 * 4 + 16384 * 2));
}

/* vLLM 0.27-0.28's DeepSeek-V4 eager scratch pool (vllm.c gs_vllm_dsv4_scratch_bytes;
 * eager_scratch.py DeepseekV4EagerScratchPool, PR #49236, reverted by PR #52836), by hand, T =
 * 8,192 tokens. Flash (64 heads of 512, 64 index heads of 128, top-k 512): the store's largest
 * family is the fp4 indexer's queries, 64 x (64 + 4 + 4) = 4,608 bytes a token (the top-k's 513 x
 * 4 = 2,052, the compressor's 512 x 4 = 2,048); the query output 64 padded heads x 512 x 2 =
 * 65,536 - at TP 1 and at TP 2 alike on FlashMLA (32 heads padded to 64): 8,192 x 70,144 =
 * 574,619,648 (548 MiB); on 12.x FlashInfer keeps 32: 8,192 x (32,768 + 4,608) = 306,184,192 (the
 * "256 MiB at TP=2" plus 36 MiB of aux a fork's comment gives). Pro (128 heads, top-k 1,024: 4,100
 * < 4,608) at TP 1: 8,192 x (131,072 + 4,608) = 1,111,490,560. */
static void test_deepseek_v4_vllm_scratch_pool(void **state)
{
    (void)state;
    const struct gs_arch flash = fixture_arch_file(FLASH);
    const struct gs_arch pro = fixture_arch_file(PRO);
    const struct gs_arch glm = fixture_arch_file(GLM5);
    bool ovf = false;
    const uint64_t t = 8192;
    assert_int_equal(gs_vllm_dsv4_scratch_bytes(&flash, 2700, t, 1, 9, false, &ovf), 574619648);
    assert_int_equal(gs_vllm_dsv4_scratch_bytes(&flash, 2800, t, 2, 9, false, &ovf), 574619648);
    assert_int_equal(gs_vllm_dsv4_scratch_bytes(&flash, 2800, t, 2, 12, false, &ovf), 306184192);
    assert_int_equal(gs_vllm_dsv4_scratch_bytes(&pro, 2800, t, 1, 10, false, &ovf), 1111490560);
    /* before PR #49236, after its revert, the latest, on ROCm, and other models: none */
    assert_int_equal(gs_vllm_dsv4_scratch_bytes(&flash, 2600, t, 1, 9, false, &ovf), 0);
    assert_int_equal(gs_vllm_dsv4_scratch_bytes(&flash, 2900, t, 1, 9, false, &ovf), 0);
    assert_int_equal(gs_vllm_dsv4_scratch_bytes(&flash, 0, t, 1, 9, false, &ovf), 0);
    assert_int_equal(gs_vllm_dsv4_scratch_bytes(&flash, 2800, t, 1, 9, true, &ovf), 0);
    assert_int_equal(gs_vllm_dsv4_scratch_bytes(&glm, 2800, t, 1, 9, false, &ovf), 0);
    assert_false(ovf);

    /* in an estimate on 0.28: with the weights vLLM loads, beside the top-k index buffer */
    struct gs_inference_input in = fixture_vllm_one_sequence(&flash, 8, 150000000000ULL);
    in.engine.version = 2800;
    in.gpu.sm_major = 9;
    struct gs_inference_result r;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    /* TP 8: 8 heads padded to 64 */
    assert_int_equal(r.budget.sparse_buffer_bytes,
                     r.max_num_batched_tokens * (512 * 4 + 65536 + 4608));
}

/* vLLM's DeepSeek-V4 cache format (vllm.c vllm_dsv4_kv_dtype): DeepseekV4Attention's default
 * classes store fp8_ds_mla entries and rewrite every fp8 kv_cache_dtype to it
 * (_resolve_dsv4_kv_cache_dtype); auto is sized so with a warning (some releases assert on it),
 * 16-bit rows are kept as asked with a warning (the FlashInfer class on 10.x alone stores them);
 * a model without DeepSeek-V4's class is untouched. Per-token bytes: test_deepseek_v4_cache. */
static void test_deepseek_v4_vllm_cache_dtype(void **state)
{
    (void)state;
    const struct gs_arch flash = fixture_arch_file(FLASH);
    struct gs_inference_input in;
    memset(&in, 0, sizeof(in));
    in.arch = &flash;
    in.batch_size = 1;
    in.context_length = 4096;
    in.tensor = in.pipeline = 1;
    in.model_bytes = 2;
    in.engine.engine = GS_ENGINE_VLLM;
    struct gs_inference_result r;
    const struct {
        enum gs_kv_dtype asked, held;
        uint64_t token_bytes;
        bool assumed, warned;
    } cases[] = {
        {GS_KV_AUTO, GS_KV_FP8_DS_MLA, 28270, true, true},
        {GS_KV_FP8, GS_KV_FP8_DS_MLA, 28270, true, false},
        {GS_KV_FP8_E5M2, GS_KV_FP8_DS_MLA, 28270, true, false},
        {GS_KV_FP8_DS_MLA, GS_KV_AUTO, 28270, false, false},
        {GS_KV_BF16, GS_KV_AUTO, 49568, false, true},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        in.kv_dtype = cases[i].asked;
        assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
        assert_int_equal(r.kv_dtype, cases[i].held);
        assert_int_equal(r.kv.bytes_per_token, cases[i].token_bytes);
        assert_int_equal(r.kv_dtype_detail != NULL, cases[i].assumed);
        assert_int_equal(r.kv_dtype_warning != NULL, cases[i].warned);
    }
    /* GLM-5 (DeepSeek sparse attention, not DeepSeek-V4): as asked */
    const struct gs_arch glm = fixture_arch_file(GLM5);
    in.arch = &glm;
    in.kv_dtype = GS_KV_FP8;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_int_equal(r.kv_dtype, GS_KV_AUTO);
    assert_null(r.kv_dtype_warning);
}

/* What a decode step reads of DeepSeek sparse attention's cache (perf.c cache_read_bytes): the
 * layers that attend to a top-k selection read the tokens it spans - DeepSeek-V4's ratio-4 layers
 * index_topk (512) compressed entries of 4 tokens, 2,048 tokens; its ratio-128 layers every entry;
 * DeepSeek-V3.2 / GLM-5 index_topk (2,048) latents - the indexer every key, a window its window.
 * Flash in fp8_ds_mla (test_deepseek_v4_cache): 3,158 compressed bytes a token, of which the
 * ratio-4 layers' 146 + 2,920 = 3,066; 43 x 584 in the 128-token window; 693 of indexer keys. At
 * 131,072 tokens, on a 3.35 TB/s GPU at full efficiency with no weights: (131,072 x (92 + 693) +
 * 2,048 x 3,066 + 128 x 25,112) / 3.35e12 s, where reading every compressed entry (the rule before
 * December 2026) took 131,072 x (3,158 + 693) + 128 x 25,112 bytes. */
static void test_sparse_mla_decode_reads(void **state)
{
    (void)state;
    const struct gs_arch flash = fixture_arch_file(FLASH);
    struct gs_kv_layout kv, g;
    assert_int_equal(gs_kv_layout_for(&flash, GS_KV_FP8_DS_MLA, 2, 1, 1, &kv, NULL), GS_OK);
    assert_int_equal(kv.full_token_bytes, 3158);
    assert_int_equal(kv.topk_token_bytes, 3066);
    assert_int_equal(kv.topk_tokens, 2048);
    const struct gs_arch glm = fixture_arch_file(GLM5);
    assert_int_equal(gs_kv_layout_for(&glm, GS_KV_AUTO, 2, 1, 1, &g, NULL), GS_OK);
    assert_int_equal(g.topk_token_bytes, g.full_token_bytes);
    assert_int_equal(g.topk_tokens, 2048);

    struct fixture_perf p;
    fixture_perf_one_sequence(&p, &flash, &kv, 131072);
    struct gs_decode_result r;
    assert_true(gs_perf_decode(&p.in, &p.gpu, &p.eff, &r));
    const double read = 131072.0 * (92 + 693) + 2048.0 * 3066 + 128.0 * 43 * 584;
    if (fabs(r.memory_seconds - read / 3350e9) > 1e-9 * read / 3350e9)
        fail_msg("memory_seconds %.9g, want %.9g", r.memory_seconds, read / 3350e9);
}

/* Serving's attention FLOPs for DeepSeek sparse attention (perf.c attention_flops with `sparse`):
 * 4 a d per attended entry and 2 x index heads x index_head_dim per key the indexer scores. At a
 * 131,072-token context, a token of DeepSeek-V4-Flash (64 heads of 512): its 2 window-only layers
 * attend 128 tokens, 4 x 64 x 512 x 128 = 16,777,216; its 21 ratio-4 layers 128 + 512 entries,
 * 83,886,080, and score 32,768 compressed keys with 64 index heads of 128, 536,870,912; its 20
 * ratio-128 layers 128 + 1,024 entries, 150,994,944: 16,089,350,144 in all. GLM-5 (78 layers, each
 * with an indexer of 32 heads of 128): 2,048 latents and 131,072 keys a layer. Prefill is
 * compute-bound: with no parameters counted it is the mean over the prompt's positions p of a
 * token's FLOPs, x the prompt, over the peak - a count min(x p, cap) averages x L / 2 below its
 * cap, cap - cap^2 / (2 x L) past it (perf.c grown). V4-Flash: every window 128 - 128^2 / (2 x
 * 131,072) = 127.9375 tokens; the ratio-4 layers 512 - 512^2 / (2 x 32,768) = 508 entries and
 * 16,384 keys; the ratio-128 layers half their 1,024 entries, 512: 2 x 131,072 x 127.9375 + 21 x
 * (131,072 x 635.9375 + 16,384 x 16,384) + 20 x 131,072 x 639.9375 = 9,098,665,984 (half the
 * context-131,072 token's FLOPs, 8,044,675,072, before December 2026, when every bound was
 * halved too). GLM-5: 2,048 - 2,048^2 / 262,144 = 2,032 latents and 65,536 keys a layer. */
static void test_sparse_mla_attention_flops(void **state)
{
    (void)state;
    const struct gs_arch flash = fixture_arch_file(FLASH);
    const struct gs_arch glm = fixture_arch_file(GLM5);
    struct fixture_perf p;
    fixture_perf_one_sequence(&p, &flash, NULL, 131072);
    const double peak = gs_perf_peak_flops(&p.gpu, GS_REGIME_BF16_MIXED);
    double want = 9098665984.0 * 131072 / peak;
    double got = gs_perf_prefill_seconds(&p.in, &p.gpu, &p.eff);
    if (fabs(got - want) > 1e-9 * want)
        fail_msg("DeepSeek-V4-Flash prefill %.9g s, want %.9g", got, want);
    p.in.arch = &glm;
    const struct gs_block *b = gs_arch_attention_block(&glm);
    const double layer = 4.0 * 64 * (double)b->attn.head_dim * 2032 + 2.0 * 32 * 128 * 65536;
    want = 78 * layer * 131072 / peak;
    got = gs_perf_prefill_seconds(&p.in, &p.gpu, &p.eff);
    if (fabs(got - want) > 1e-9 * want)
        fail_msg("GLM-5 prefill %.9g s, want %.9g", got, want);
}

/* TensorRT-LLM 1.3's fp8 context-MLA reserve (tensorrt_llm.c mla_workspace_reserve) is dense
 * MLA's: DeepSeek-V4, whose first layers are window-only MLA without an indexer, and GLM-5 keep
 * none; DeepSeek-V3's is test_engine_rules' test_tensorrt_mla_workspace_reserve. */
static void test_sparse_mla_tensorrt_no_context_reserve(void **state)
{
    (void)state;
    const struct gs_arch flash = fixture_arch_file(FLASH);
    const struct gs_arch glm = fixture_arch_file(GLM5);
    const struct gs_arch *models[] = {&flash, &glm};
    for (size_t i = 0; i < 2; i++) {
        struct gs_inference_input in;
        memset(&in, 0, sizeof(in));
        in.arch = models[i];
        in.weights_bytes = 40000000000ULL;
        in.batch_size = 1;
        in.context_length = 131072;
        in.tensor = in.pipeline = 1;
        in.model_bytes = 2;
        in.kv_dtype = GS_KV_FP8;
        in.gpu.total_bytes = 1ULL << 42;
        in.engine.engine = GS_ENGINE_TENSORRT_LLM;
        in.engine.version = 10300;
        struct gs_inference_result r;
        assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
        assert_true(r.budget.kv_bytes > 0);
        assert_int_equal(r.workspace_reserve_bytes, 0);
    }
}

/* SGLang's inputs: 40 GB of weights on a 150 GB GPU, 1 GB outside torch, mem_fraction_static
 * 0.9, one sequence of 131,072 tokens; for DeepSeek-V4-Flash the pool rule leaves A =
 * 93,831,564,544 bytes (0.9 x 149e9 less the weights, the rotary tables and the allocator's
 * rounding: test_sglang_rule's arithmetic). */
static struct gs_inference_input sglang_on_150gb(const struct gs_arch *a, uint32_t version)
{
    struct gs_inference_input in;
    memset(&in, 0, sizeof(in));
    in.arch = a;
    in.weights_bytes = 40000000000ULL;
    in.batch_size = 1;
    in.context_length = 131072;
    in.tensor = in.pipeline = 1;
    in.model_bytes = 2;
    in.gpu.total_bytes = 150000000000ULL;
    in.engine.engine = GS_ENGINE_SGLANG;
    in.engine.version = version;
    in.engine.has_non_torch_bytes = true;
    in.engine.non_torch_bytes = 1000000000;
    in.engine.mem_fraction_static_permille = 900;
    return in;
}

#define SGLANG_FLASH_A 93831564544LL

/* SGLang sizes DeepSeek-V4's cache with DSV4PoolConfigurator (docs/engines.md, "DeepSeek-V4's
 * pools"). Flash's compress_ratios: [0, 0] + [4, 128] x 20 + [4] for the 43 layers and a 0 for
 * the MTP layer, so 21 layers of ratio 4 and 20 of ratio 128; entries of 448 + 2 x 64 + 8 = 584
 * bytes, indexer keys of 128 + 4 = 132, compressor state rows of 2 x 2 x 512 x 4 = 8,192 (ratio
 * 4), 2 x 2 x 128 x 4 = 2,048 (its indexer) and 2 x 512 x 4 = 4,096 (ratio 128), rings of 8 and
 * 128 slots per 128 window tokens; r = 0.1, pages of 256 tokens. */
static void test_deepseek_v4_sglang_pools(void **state)
{
    (void)state;
    const struct gs_arch a = fixture_arch_file(FLASH);
    struct gs_inference_input in = sglang_on_150gb(&a, 518);
    struct gs_inference_result r;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_int_equal(r.budget.kv_bytes, SGLANG_FLASH_A);
    /* the server defaults: page 256, 256 running requests, the fp8 layout (584 a layer) */
    assert_int_equal(r.block_size, 256);
    assert_int_equal(r.max_num_seqs, 256);
    assert_non_null(r.seqs_cap);
    assert_int_equal(r.kv_dtype, GS_KV_FP8_DS_MLA);
    assert_int_equal(r.kv.bytes_per_token, 28270);
    assert_true(r.window_dsv4);
    /* 0.5.18: 0.1 x 584 x 43 + 584 x 21 / 4 + 584 x 20 / 128 + 132 x 21 / 4 + 0.1 x 8 / 128 x
     * (8,192 + 2,048) x 21 = 2,511.2 + 3,066 + 91.25 + 693 + 1,344 = 7,705.45 bytes a token; the
     * ratio-128 states first: 257 slots x 128 + 129 = 33,025 rows, 33,152 in multiples of 128,
     * x 4,096 x 20 = 2,715,811,840; (A - that) / 7,705.45 = 11,824,816.7, 11,824,640 in pages,
     * the window pool int(0.1 x that) = 1,182,464 in pages */
    assert_int_equal(r.dsv4_state_bytes, 2715811840ULL);
    assert_int_equal(r.dsv4_token_bytes, 7706);
    assert_int_equal(r.max_tokens, 11824640);
    assert_int_equal(r.reported_tokens, 11824640);
    assert_int_equal(r.blocks, 11824640 / 256);
    assert_int_equal(r.window_pool_tokens, 1182464);
    /* a request holds at most 128 + 128 + 256 + 256 window-pool tokens: the sequences of 131,072
     * tokens are the capacity's, 11,824,640 / 131,072 = 90 */
    assert_int_equal(r.window_seq_tokens, 768);
    assert_int_equal(r.max_concurrency, 90);
    assert_true(r.starts);

    /* --swa-full-tokens-ratio 0.5: 0.5 x 584 x 43 + 3,066 + 91.25 + 693 + 0.5 x 0.0625 x 10,240
     * x 21 = 23,126.25; (A - 2,715,811,840) / that = 3,939,982.9, 3,939,840 in pages; window
     * 1,969,920 */
    in.engine.swa_full_tokens_ratio_permille = 500;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_int_equal(r.max_tokens, 3939840);
    assert_int_equal(r.window_pool_tokens, 1969920);
    in.engine.swa_full_tokens_ratio_permille = 0;

    /* a decode worker of 16 requests: 16 + 32 extra + 1 slots, 49 x 128 + 129 = 6,401 rows,
     * 6,528 in multiples of 128, x 4,096 x 20 = 534,773,760; (A - that) / 7,705.45 ->
     * 12,107,776 */
    in.engine.disaggregation = GS_SGLANG_ROLE_DECODE;
    in.engine.max_num_seqs = 16;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_int_equal(r.dsv4_state_bytes, 534773760ULL);
    assert_int_equal(r.max_tokens, 12107776);
    in.engine.disaggregation = 0;
    in.engine.max_num_seqs = 0;

    /* MTP: 48 running requests, rings of 16 and 256: 0.1 x 16 / 128 x 10,240 x 21 = 2,688, the
     * price 2,511.2 + 3,066 + 91.25 + 693 + 2,688 = 9,049.45 x 44 / 43 = 9,259.90; states 49 x
     * 256 + 257 = 12,801 rows, 12,928 x 4,096 x 20 = 1,059,061,760; -> 10,018,560 */
    in.engine.spec_method = GS_SPEC_MTP;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_int_equal(r.max_num_seqs, 48);
    assert_int_equal(r.dsv4_state_bytes, 1059061760ULL);
    assert_int_equal(r.max_tokens, 10018560);
    in.engine.spec_method = GS_SPEC_NONE;

    /* 0.5.12: the whole list, 44 entries with the MTP layer's, and the ratio-128 states priced
     * per window token: 0.1 x 584 x 44 + 3,066 + 91.25 + 693 + 1,344 + 0.1 x 128 / 128 x 4,096
     * x 20 = 15,955.85; A / that = 5,880,696.5 -> 5,880,576 */
    in.engine.version = 512;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_int_equal(r.dsv4_state_bytes, 0);
    assert_int_equal(r.max_tokens, 5880576);
    /* 0.5.13-0.5.14: the 43 layers' slice, 15,897.45 -> 5,902,080; under two pipeline stages
     * (layers 0-21 and 22-42) each its own slice, the second binding: 0.1 x 584 x 21 + 584 x 11
     * / 4 + 584 x 10 / 128 + 132 x 11 / 4 + 0.1 x 0.0625 x 10,240 x 11 + 0.1 x 4,096 x 10 =
     * 8,041.03 -> 11,668,992 */
    in.engine.version = 514;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_int_equal(r.max_tokens, 5902080);
    in.pipeline = 2;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_int_equal(r.max_tokens, 11668992);
    in.pipeline = 1;

    /* the formats SGLang takes for it: bf16 from 0.5.14 (the CUDA pool's entries the same 584
     * bytes), fp8_e4m3 alone before; fp16 never */
    in.kv_dtype = GS_KV_BF16;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_true(r.starts);
    assert_int_equal(r.kv.bytes_per_token, 28270);
    assert_int_equal(r.max_tokens, 5902080);
    in.engine.version = 513;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_false(r.starts);
    assert_non_null(strstr(r.binding, "fp8_e4m3"));
    in.engine.version = 518;
    in.kv_dtype = GS_KV_FP16;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_false(r.starts);
    in.kv_dtype = GS_KV_AUTO;

    /* inference.disable_hybrid_swa_memory: one pool, every layer every token (what SGLang does
     * with the flag for DeepSeek-V4 was not established) */
    in.engine.one_kv_pool = true;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_false(r.window_dsv4);
    assert_int_equal(r.window_pool_tokens, 0);
}

/* SGLang's cache for DeepSeek sparse attention (GLM-5, 78 layers), read at the tags
 * v0.5.3-v0.5.18: pages of 64; in 0.5.3-0.5.4 fp8_e4m3 on compute capability 10 and above
 * (Blackwell) whatever is asked, from 0.5.5 kv_cache_dtype auto is fp8_e4m3 there, bfloat16
 * below; an fp8 cache is stored with its scales (656 bytes a layer) unless the trtllm backend runs
 * it, the fp8 default on Blackwell from 0.5.10 (576, plain); any other dtype is refused from
 * 0.5.5. */
static void test_glm5_sglang_cache(void **state)
{
    (void)state;
    const struct gs_arch a = fixture_arch_file(GLM5);
    struct gs_inference_input in = sglang_on_150gb(&a, 504);
    in.context_length = 8192;
    in.gpu.hw = GS_HW_HOPPER;
    struct gs_inference_result r;
    struct {
        uint32_t version;
        uint8_t hw;
        enum gs_kv_dtype asked;
        uint64_t layer_bytes;
    } const cases[] = {
        {504, GS_HW_HOPPER, GS_KV_AUTO, 1152},    {504, GS_HW_HOPPER, GS_KV_FP8, 656},
        {504, GS_HW_BLACKWELL, GS_KV_AUTO, 656},  {504, GS_HW_BLACKWELL, GS_KV_BF16, 656},
        {504, GS_HW_BLACKWELL, GS_KV_FP8, 656},   {509, GS_HW_HOPPER, GS_KV_AUTO, 1152},
        {509, GS_HW_HOPPER, GS_KV_FP8, 656},      {509, GS_HW_BLACKWELL, GS_KV_AUTO, 656},
        {518, GS_HW_HOPPER, GS_KV_FP8, 656},      {518, GS_HW_HOPPER, GS_KV_BF16, 1152},
        {518, GS_HW_BLACKWELL, GS_KV_AUTO, 576},  {518, GS_HW_BLACKWELL, GS_KV_FP8, 576},
        {518, GS_HW_BLACKWELL, GS_KV_BF16, 1152},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        in.engine.version = cases[i].version;
        in.gpu.hw = cases[i].hw;
        in.kv_dtype = cases[i].asked;
        assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
        assert_int_equal(r.kv.bytes_per_token, 78 * cases[i].layer_bytes);
        assert_int_equal(r.kv.indexer_token_bytes, 78 * 132);
        assert_int_equal(r.block_size, 64);
        assert_true(r.starts);
    }
    /* GLM-5 on compute capability 12.x (an RTX PRO 6000): from 0.5.17 its fp8 cache runs
     * flashinfer_sparse_mla, scaled (656); 0.5.16 keeps trtllm's plain entry */
    in.gpu.hw = GS_HW_BLACKWELL;
    in.gpu.sm_major = 12;
    in.kv_dtype = GS_KV_AUTO;
    in.engine.version = 517;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_int_equal(r.kv.bytes_per_token, 78 * 656);
    in.engine.version = 516;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_int_equal(r.kv.bytes_per_token, 78 * 576);
    in.gpu.sm_major = 10;
    in.engine.version = 518;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_int_equal(r.kv.bytes_per_token, 78 * 576);
    in.gpu.sm_major = 0;
    in.gpu.hw = GS_HW_HOPPER;
    in.kv_dtype = GS_KV_BF16;
    /* fp8_e5m2: asserted against from 0.5.5; a given page size is kept */
    in.kv_dtype = GS_KV_FP8_E5M2;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_false(r.starts);
    assert_non_null(strstr(r.binding, "fp8_e4m3"));
    in.engine.version = 504;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_true(r.starts);
    in.engine.block_size = 32;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_int_equal(r.block_size, 32);
}

/* SGLang's count of DeepSeek sparse attention's tokens before 0.5.17 (sglang.c dsa_cell_price):
 * the cell prices a layer at kv_lora_rank + qk_rope_head_dim = 576 elements of the cache dtype
 * (one byte each in fp8, where the pool stores 656), with the indexer's 132 bytes a layer from
 * 0.5.4, and the pool holds max_total_num_tokens of the stored entries, past the fraction by
 * kv_unbudgeted_bytes; 0.5.17 prices the stored entry. 0.5.3 also sets mem_fraction_static 0.8
 * over the given 0.9. GLM-5: 78 layers, pages of 64. */
static void test_glm5_sglang_cell_price(void **state)
{
    (void)state;
    const struct gs_arch a = fixture_arch_file(GLM5);
    struct gs_inference_input in = sglang_on_150gb(&a, 509);
    in.context_length = 8192;
    in.gpu.hw = GS_HW_HOPPER;
    struct gs_inference_result r;
    const struct {
        uint32_t version;
        enum gs_kv_dtype asked;
        uint64_t price, held, fraction;
    } cases[] = {
        /* fp8: 78 x (576 + 132) priced, 78 x (656 + 132) held */
        {509, GS_KV_FP8, 78 * (576 + 132), 78 * (656 + 132), 900},
        {516, GS_KV_FP8, 78 * (576 + 132), 78 * (656 + 132), 900},
        {504, GS_KV_FP8, 78 * (576 + 132), 78 * (656 + 132), 900},
        /* 0.5.3: no indexer keys in the cell, the fraction 0.8 */
        {503, GS_KV_FP8, 78 * 576, 78 * (656 + 132), 800},
        {503, GS_KV_AUTO, 78 * 1152, 78 * (1152 + 132), 800},
        /* bf16 from 0.5.4, and fp8 from 0.5.17: priced as held */
        {509, GS_KV_AUTO, 0, 78 * (1152 + 132), 900},
        {517, GS_KV_FP8, 0, 78 * (656 + 132), 900},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        in.engine.version = cases[i].version;
        in.kv_dtype = cases[i].asked;
        assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
        assert_int_equal(r.kv.bytes_per_token + r.kv.indexer_token_bytes, cases[i].held);
        assert_int_equal(r.kv_priced_token_bytes, cases[i].price);
        assert_int_equal(r.budget.fraction_permille, cases[i].fraction);
        assert_true(r.budget.kv_bytes > 0);
        const uint64_t budget = (uint64_t)r.budget.kv_bytes;
        const uint64_t price = cases[i].price ? cases[i].price : cases[i].held;
        const uint64_t blocks = budget / (64 * price);
        assert_int_equal(r.max_tokens, blocks * 64);
        const uint64_t pool = cases[i].price ? blocks * 64 * cases[i].held : budget;
        assert_int_equal(r.kv_unbudgeted_bytes, pool > budget ? pool - budget : 0);
        if (cases[i].price)
            assert_true(r.kv_unbudgeted_bytes > 0);
        /* sequences of 8,192 tokens (128 pages) in the pool as held */
        assert_int_equal(r.max_concurrency, pool / (128 * 64 * cases[i].held));
        /* the fit's headroom and limit count the pool past the budget */
        struct gs_fit fit;
        memset(&fit, 0, sizeof(fit));
        gs_fit_apply_serving(&fit, &r);
        assert_int_equal(fit.headroom_bytes, (int64_t)pool - (int64_t)r.kv_needed_bytes);
        assert_int_equal(gs_fit_engine_limit(&r) - r.budget.kv_bytes,
                         (int64_t)(r.budget.weights_bytes + r.budget.activation_bytes +
                                   r.budget.non_torch_bytes + r.budget.cuda_graph_bytes +
                                   r.state_unbudgeted_bytes + r.kv_unbudgeted_bytes +
                                   r.request_table_bytes));
    }
    /* what the fraction is given is kept outside 0.5.3 */
    in.engine.version = 504;
    in.engine.mem_fraction_static_permille = 850;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_int_equal(r.budget.fraction_permille, 850);
    assert_false(r.sglang_fraction_forced);
    in.engine.version = 503;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_int_equal(r.budget.fraction_permille, 800);
    assert_true(r.sglang_fraction_forced);
}

/* GLM-5.2's shared-indexer layers (57 of 78 reuse an earlier layer's top-k, 21 keep indexer keys:
 * test_glm52_shared_indexer): vLLM's layout gives them no keys; SGLang's DSATokenToKVPool keeps
 * 132 bytes a token for every layer until 0.5.18 (PR #30531), and from it in a disaggregated
 * worker (_should_elide_dsa_index_k). */
static void test_glm52_sglang_indexer(void **state)
{
    (void)state;
    const struct gs_arch a = fixture_arch_file(GLM52);
    struct gs_kv_layout kv;
    assert_int_equal(gs_kv_layout_for(&a, GS_KV_AUTO, 2, 1, 1, &kv, NULL), GS_OK);
    assert_int_equal(kv.indexer_token_bytes, 21 * 132);
    assert_int_equal(kv.indexer_shared_layers, 57);
    assert_int_equal(kv.indexer_shared_token_bytes, 57 * 132);
    gs_kv_layout_with_shared_indexer(&kv);
    assert_int_equal(kv.indexer_token_bytes, 78 * 132);
    gs_kv_layout_with_shared_indexer(&kv); /* a second call changes nothing */
    assert_int_equal(kv.indexer_token_bytes, 78 * 132);

    struct gs_inference_input in = sglang_on_150gb(&a, 517);
    in.context_length = 8192;
    in.gpu.hw = GS_HW_HOPPER;
    struct gs_inference_result r;
    const struct {
        uint32_t version;
        enum gs_sglang_role role;
        uint64_t indexer_layers;
    } cases[] = {
        {517, GS_SGLANG_ROLE_NONE, 78},    {518, GS_SGLANG_ROLE_NONE, 21},
        {520, GS_SGLANG_ROLE_NONE, 21},    {520, GS_SGLANG_ROLE_DECODE, 78},
        {520, GS_SGLANG_ROLE_PREFILL, 78}, {515, GS_SGLANG_ROLE_NONE, 78},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        in.engine.version = cases[i].version;
        in.engine.disaggregation = (uint8_t)cases[i].role;
        assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
        assert_int_equal(r.kv.indexer_token_bytes, cases[i].indexer_layers * 132);
        assert_int_equal(r.kv.bytes_per_token, 78 * 1152); /* bf16 on Hopper */
    }
    /* vLLM: the 21 layers' keys */
    in.engine.engine = GS_ENGINE_VLLM;
    in.engine.version = 0;
    in.engine.disaggregation = 0;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_int_equal(r.kv.indexer_token_bytes, 21 * 132);
}

/* ------------------------------------------------------------ GLM-5.3-Flash */

/* Decoder layers whose mixer is `mixer`. */
static uint64_t layers_of(const struct gs_arch *a, enum gs_mixer mixer)
{
    uint64_t counts[GS_BLOCKS_MAX], n = 0;
    gs_arch_count_blocks(a, 0, a->num_hidden_layers, counts);
    for (size_t b = 0; b < a->block_count; b++)
        if (a->blocks[b].mixer == mixer)
            n += counts[b];
    return n;
}

/* glm5_next/README.md: 34 KDA layers of 137,732,288 attention parameters, 11 NoPE MLA layers of
 * 117,442,560 and an indexer of 7,471,872 (its kpool gate 524,288 and offsets 512 among them),
 * 3 dense MLPs of 150,994,944 and 42 routed layers of 7,274,102,784 (and 288 correction biases,
 * a buffer), two hyper-connections a layer, 393,243 each, GLM-OCR's vision tower with a 10,240-wide
 * merger, 563,627,008; the MTP layer 7,432,592,416 with its bias. total + mtp + buffers is the
 * checkpoint's 321,323,031,390 (its shard headers' parameters: F8_E4M3 314,396,639,232 + BF16
 * 6,926,096,640 + the 295,518 F32 parameters among its 19,484,766 F32 elements, the rest block
 * scales); the card's "18B active" counts the vision tower and the input embedding, which
 * gpusizer's active leaves out. */
static void test_glm53_flash_counts(void **state)
{
    (void)state;
    const struct gs_arch a = fixture_arch_file(GLM53_FLASH);
    assert_counts(&a, (struct counts){313890426878ULL, 16742321150ULL, 7432592416ULL, 42 * 288});
    assert_int_equal(313890426878ULL + 7432592416ULL + 42 * 288, 321323031390ULL);
    assert_int_equal(314396639232ULL + 6926096640ULL + 295518, 321323031390ULL);
    const struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.vision, 563627008);
    assert_int_equal(c.other, 45ULL * 2 * (24 * 16384 + 24 + 3)); /* the hyper-connections */
    assert_int_equal(c.attention, 34ULL * 137732288 + 11ULL * (117442560 + 7471872));
    assert_int_equal(layers_of(&a, GS_MIXER_RECURRENT), 34);
    assert_int_equal(layers_of(&a, GS_MIXER_MLA), 11);
    assert_int_equal(indexer_layers(&a), 11);
    assert_int_equal(gs_arch_moe_layers(&a), 42);
    /* layer 3 is the first MLA layer; every fourth after it */
    for (uint64_t l = 0; l < 45; l++)
        assert_int_equal(a.blocks[a.layer_block[l]].mixer == GS_MIXER_MLA, l % 4 == 3);
    /* NoPE: no rotary table, one 512-wide latent */
    assert_int_equal(a.rope_table_count, 0);
    /* without vision_config (a flat or text-only config) the language model alone */
    const struct gs_arch t = fixture_arch_file_set_in(GLM53_FLASH, NULL, "vision_config", NULL);
    assert_int_equal(fixture_count(&t).total, 313890426878ULL - 563627008);
}

/* Per token and GPU: the 11 MLA layers' 512-value latent (bf16 11 x 1,024 bytes; fp8_ds_mla
 * 512 fp8 + 4 x 4 scale bytes, no rotary part: 11 x 528), replicated on every tensor rank; the
 * indexer's 132-byte fp8 keys, one a pool of index_kpool 4 tokens: ceil(11 x 132 / 4) = 363
 * (vLLM's Glm5NextIndexerCache, tokens_per_state 4), 1,089 more at a key a token (SGLang); and
 * each sequence's KDA state over the 34 layers, split by tensor rank: the q/k/v convolution
 * window 3 x 8,192 x 3 bf16 (147,456 bytes) and the fp32 state 64 x 128 x 128 (4,194,304):
 * 147,619,840 bytes at TP 1, 18,452,480 at TP 8. */
static void test_glm53_flash_cache(void **state)
{
    (void)state;
    const struct gs_arch a = fixture_arch_file(GLM53_FLASH);
    const uint64_t per_seq = 34ULL * (3 * 8192 * 3 * 2 + 64ULL * 128 * 128 * 4);
    assert_int_equal(per_seq, 147619840);
    for (uint64_t t = 1; t <= 8; t *= 8) {
        const struct gs_kv_layout kv = fixture_layout_as(&a, GS_KV_AUTO, t);
        assert_int_equal(kv.bytes_per_token, 11 * 1024);
        assert_int_equal(kv.full_layers, 11);
        assert_int_equal(kv.recurrent_layers, 34);
        assert_int_equal(kv.indexer_token_bytes, 363);
        assert_int_equal(kv.indexer_pooled_token_bytes, 11 * 132 - 363);
        assert_int_equal(kv.state_bytes_per_sequence, per_seq / t);
        assert_int_equal(kv.topk_tokens, 2048);
        const struct gs_kv_layout fp8 = fixture_layout_as(&a, GS_KV_FP8_DS_MLA, t);
        assert_int_equal(fp8.bytes_per_token, 11 * 528);
    }
    struct gs_kv_layout kv = fixture_layout_as(&a, GS_KV_AUTO, 1);
    gs_kv_layout_with_unpooled_indexer(&kv);
    assert_int_equal(kv.indexer_token_bytes, 11 * 132);
    gs_kv_layout_with_unpooled_indexer(&kv); /* a second call changes nothing */
    assert_int_equal(kv.indexer_token_bytes, 11 * 132);
    /* GLM-5's indexer keeps a key a token: nothing pooled */
    const struct gs_arch glm5 = fixture_arch_file(GLM5);
    assert_int_equal(fixture_layout_as(&glm5, GS_KV_AUTO, 1).indexer_pooled_token_bytes, 0);
}

/* Which releases load GLM-5.3-Flash (model_support.c): SGLang from 0.5.20 (PR #36507), vLLM from
 * 0.30.0 (PR #53906, not in 0.29.0), TensorRT-LLM in no release gpusizer models (1.3's
 * _arch_index.py has no Glm5Next); its KDA layers keep a state no Transformers backend holds,
 * so an earlier release fails at startup. SGLang prices the indexer keys a token
 * (pool_configurator.py), vLLM a pool of 4. */
static void test_glm53_flash_engines(void **state)
{
    (void)state;
    const struct gs_arch a = fixture_arch_file(GLM53_FLASH);
    bool refuses = false;
    assert_non_null(gs_model_support(GS_ENGINE_SGLANG, &a, 518, &refuses));
    assert_true(refuses);
    assert_null(gs_model_support(GS_ENGINE_SGLANG, &a, 520, &refuses));
    assert_non_null(gs_model_support(GS_ENGINE_VLLM, &a, 2900, &refuses));
    assert_true(refuses);
    assert_null(gs_model_support(GS_ENGINE_VLLM, &a, 3000, &refuses));
    assert_null(gs_model_support(GS_ENGINE_VLLM, &a, 0, &refuses));
    assert_non_null(gs_model_support(GS_ENGINE_TENSORRT_LLM, &a, 10300, &refuses));
    assert_true(refuses);

    struct gs_inference_input in = sglang_on_150gb(&a, 520);
    in.context_length = 8192;
    in.gpu.hw = GS_HW_HOPPER;
    struct gs_inference_result r;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_true(r.starts);
    assert_int_equal(r.kv.bytes_per_token, 11 * 1024); /* bf16 on Hopper */
    assert_int_equal(r.kv.indexer_token_bytes, 11 * 132);
    in.engine.engine = GS_ENGINE_VLLM;
    in.engine.version = 0;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_int_equal(r.kv.indexer_token_bytes, 363);
    in.engine.version = 2900;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_false(r.starts);
    assert_non_null(r.model_refusal);
}

/* A small GLM-5 Next text config (glm5_next_text, the flat form): 4 layers, the fourth MLA. */
#define GLM5_NEXT_SMALL(extra)                                                                     \
    "{\"model_type\":\"glm5_next_text\",\"hidden_size\":256,\"vocab_size\":1000,"                  \
    "\"num_hidden_layers\":4,\"num_attention_heads\":4,\"intermediate_size\":512,"                 \
    "\"kv_lora_rank\":64,\"q_lora_rank\":64,\"qk_nope_head_dim\":32,\"qk_rope_head_dim\":0,"       \
    "\"v_head_dim\":32,\"index_n_heads\":4,\"index_head_dim\":32,\"index_kpool\":4,"               \
    "\"n_routed_experts\":4,\"num_experts_per_tok\":2,\"moe_intermediate_size\":64,"               \
    "\"first_k_dense_replace\":1,\"hc_mult\":2,"                                                   \
    "\"linear_attn_config\":{\"num_heads\":4,\"head_dim\":32,\"short_conv_kernel_size\":4}" extra  \
    "}"

/* layer_types names each layer linear_attention, deepseek_sparse_attention or full_attention,
 * one a layer; index_kpool is at least 1. Without layer_types every fourth layer is MLA
 * (Glm5NextTextConfig.__post_init__); mhc false builds no hyper-connection. */
static void test_glm53_flash_errors(void **state)
{
    (void)state;
    fixture_assert_reader_error(GLM5_NEXT_SMALL(",\"layer_types\":[\"linear_attention\"]"),
                                "/layer_types");
    fixture_assert_reader_error(
        GLM5_NEXT_SMALL(",\"layer_types\":[\"linear_attention\",\"linear_attention\","
                        "\"sliding_attention\",\"full_attention\"]"),
        "/layer_types");
    fixture_assert_reader_error(GLM5_NEXT_SMALL(",\"index_kpool\":0"), "/index_kpool");
    const struct gs_arch a = fixture_arch(GLM5_NEXT_SMALL(""));
    assert_int_equal(layers_of(&a, GS_MIXER_RECURRENT), 3);
    assert_int_equal(a.blocks[a.layer_block[3]].mixer, GS_MIXER_MLA);
    assert_int_equal(a.blocks[a.layer_block[3]].attn.index_pool, 4);
    /* two hyper-connections a layer of (2 + 2) x 2 x 2 x 256 + 8 + 3 */
    assert_int_equal(fixture_count(&a).other, 4ULL * 2 * (8 * 512 + 8 + 3));
    const struct gs_arch plain = fixture_arch(GLM5_NEXT_SMALL(",\"mhc\":false"));
    assert_int_equal(fixture_count(&plain).other, 0);
}

/* Training with hyper-connections (transformers DeepseekV4HyperConnection, GLM-5.3-Flash's too;
 * activation.c hc_site_bytes): the small config's n = 2 streams of h = 256 against the same
 * config with mhc false, one 16-token sequence, full training in bf16. Each of a layer's two sites
 * keeps the sublayer's output (2 x 256 bytes a token), the streams (2 x 512), input_norm's fp32
 * copy (4 x 512) and, fn training, F.linear's fp32 input (4 x 512): 5,632 bytes a token, 2 x 16 x
 * 5,632 = 180,224 a layer. Under autocast over an fp32 stream: the output 2 x 256, the fp32
 * streams 4 x 512 (input_norm's .float() is that tensor), matmul's 16-bit copy 2 x 512 and
 * F.linear's 16-bit input 2 x 512: 4,608 a token, 147,456 a layer. A checkpointed layer keeps its
 * input, the n streams: 16 x 512 x 2 bytes where a plain residual keeps 16 x 256 x 2. */
static void test_hyper_connection_activations(void **state)
{
    (void)state;
    const struct gs_arch hc = fixture_arch(GLM5_NEXT_SMALL(""));
    const struct gs_arch plain = fixture_arch(GLM5_NEXT_SMALL(",\"mhc\":false"));
    struct gs_parallelism par;
    struct gs_training_knobs knobs;
    fixture_framework_release(&par, &knobs, GS_FW_TRANSFORMERS, 517);
    struct gs_framework_rules rules;
    gs_framework_resolve(&knobs, GS_ATTN_SDPA, &rules);
    struct gs_activation_input with = fixture_one_sequence(&hc, &par, &rules, 16, true);
    struct gs_activation_input without = fixture_one_sequence(&plain, &par, &rules, 16, true);
    struct gs_activation_result a, b;
    assert_true(gs_activation_bytes(&with, &a));
    assert_true(gs_activation_bytes(&without, &b));
    assert_int_equal(a.per_layer_bytes - b.per_layer_bytes, 2 * 16 * 5632);
    with.autocast = without.autocast = true;
    with.residual_bytes = without.residual_bytes = 4;
    assert_true(gs_activation_bytes(&with, &a));
    assert_true(gs_activation_bytes(&without, &b));
    assert_int_equal(a.per_layer_bytes - b.per_layer_bytes, 2 * 16 * 4608);
    with.autocast = without.autocast = false;
    with.residual_bytes = without.residual_bytes = 0;
    with.recompute = without.recompute = GS_RECOMPUTE_FULL;
    assert_true(gs_activation_bytes(&with, &a));
    assert_true(gs_activation_bytes(&without, &b));
    assert_int_equal(a.per_layer_bytes, 16 * 512 * 2);
    assert_int_equal(b.per_layer_bytes, 16 * 256 * 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_types_listed),
        cmocka_unit_test(test_deepseek_v4_flash_counts),
        cmocka_unit_test(test_deepseek_v4_pro_counts),
        cmocka_unit_test(test_deepseek_v4_eager_only),
        cmocka_unit_test(test_deepseek_v4_cache),
        cmocka_unit_test(test_deepseek_v4_checkpoint),
        cmocka_unit_test(test_deepseek_ref),
        cmocka_unit_test(test_deepseek_v4_layer_types),
        cmocka_unit_test(test_deepseek_v4_errors),
        cmocka_unit_test(test_glm5_counts),
        cmocka_unit_test(test_glm5_router),
        cmocka_unit_test(test_glm52_shared_indexer),
        cmocka_unit_test(test_glm5_cache),
        cmocka_unit_test(test_glm5_errors),
        cmocka_unit_test(test_deepseek_v4_serving),
        cmocka_unit_test(test_deepseek_v4_vllm_cache_dtype),
        cmocka_unit_test(test_sparse_mla_tensorrt_no_context_reserve),
        cmocka_unit_test(test_sparse_mla_decode_reads),
        cmocka_unit_test(test_sparse_mla_attention_flops),
        cmocka_unit_test(test_sparse_mla_vllm_buffers),
        cmocka_unit_test(test_deepseek_v4_vllm_scratch_pool),
        cmocka_unit_test(test_deepseek_v4_sglang_pools),
        cmocka_unit_test(test_glm5_sglang_cache),
        cmocka_unit_test(test_glm5_sglang_cell_price),
        cmocka_unit_test(test_glm52_sglang_indexer),
        cmocka_unit_test(test_glm53_flash_counts),
        cmocka_unit_test(test_glm53_flash_cache),
        cmocka_unit_test(test_glm53_flash_engines),
        cmocka_unit_test(test_glm53_flash_errors),
        cmocka_unit_test(test_hyper_connection_activations),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
