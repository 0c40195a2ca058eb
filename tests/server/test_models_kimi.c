/*
 * test_models_kimi.c - the readers of server/readers/kimi.c: exact parameter
 * counts against the written-out arithmetic in
 * tests/fixtures/configs/<model_type>/README.md (Kimi-K2.5's text model
 * also against the published Kimi-K2 checkpoint count), active parameters,
 * the vision tower, the per-part breakdown, the router-bias buffers, the MLA
 * cache per token and the KDA state per sequence (vLLM kda_state_shape, bf16 model dtype, fp32
 * recurrent state) at tensor parallelism 1 and 8, and a serving estimate.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "arch_fixture.h"
#include "gs/estimate.h"
#include "gs/inference.h"
#include "readers/models.h"

#include <string.h>

/* ------------------------------------------------------------ registry */

static void test_types_listed(void **state)
{
    (void)state;
    assert_non_null(strstr(models_supported(), "kimi_k25"));
    assert_non_null(strstr(models_supported(), "kimi_linear"));
    assert_non_null(strstr(models_supported(), "kimi_k3"));
}

/* ------------------------------------------------------------ Kimi-K2.5 */

/* kimi_k25/README.md: the text model is Kimi-K2's remote DeepseekV3 with the
 * router bias as a Parameter, 1,026,408,232,448 (the kimi_k2 README
 * reconciles it with the checkpoint's element count); the MoonViT tower
 * (27 layers x 15,239,504, patch_embed 678,528, pos_emb 4,718,592,
 * final_layernorm 2,304) and the patchmerger projector 54,277,888 add
 * 471,143,920. Active: 8 of 384 experts, no input lookup, no tower:
 * 31,687,095,808. MLA latent (512 + 64) x 2 B x 61 layers = 70,272 B per
 * token on every tensor rank; no recurrent state. */
static void test_kimi_k25(void **state)
{
    (void)state;
    const struct gs_arch a = fixture_arch_file("kimi_k25/moonshotai__Kimi-K2.5.json");
    const struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.total, 1026879376368ULL);
    assert_int_equal(c.vision, 471143920ULL);
    assert_int_equal(c.total - c.vision, 1026408232448ULL);
    assert_int_equal(c.active, 31687095808ULL);
    assert_int_equal(c.mtp, 0);
    assert_int_equal(c.buffers, 0);
    assert_int_equal(c.embedding, 163840ULL * 7168);
    assert_int_equal(c.lm_head, 163840ULL * 7168);
    fixture_assert_kinds(&a, (struct fixture_kinds){.mla = 61, .recurrent = 0, .moe = 60});
    assert_int_equal(a.tower_count, 1);
    assert_int_equal(a.towers[0].layers, 27);
    /* SGLang reads num_hidden_layers/hidden_size from vision_config literally: MoonViT spells
     * them vt_*, so its defaults 24 and 1024 stand */
    assert_int_equal(a.vision_config_layers, 24);
    fixture_assert_cache(&a, 1, 70272, 0);
    fixture_assert_cache(&a, 8, 70272, 0);
    fixture_assert_vllm_serving(&a, 8, 8, 141000000000ULL);
}

/* NVIDIA's NVFP4 repackaging names the text model deepseek_v3 but loads the
 * same remote class: the same count. */
static void test_kimi_k26_nvfp4(void **state)
{
    (void)state;
    const struct gs_arch a = fixture_arch_file("kimi_k25/nvidia__Kimi-K2.6-NVFP4.json");
    const struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.total, 1026879376368ULL);
    assert_int_equal(c.vision, 471143920ULL);
    assert_int_equal(c.active, 31687095808ULL);
}

/* ------------------------------------------------------------ Kimi-Linear */

/* kimi_linear/README.md: 20 KDA layers of 39,514,272 and 7 MLA layers of
 * 29,114,880 (q_lora_rank null); layer 0 dense (3 x 2304 x 9216), 26 MoE
 * layers of 256 experts (3 x 2304 x 1024 each), router 2304 x 256, one
 * shared expert; transformers 5's KimiLinearForCausalLM keeps the router's
 * correction bias (26 x 256 = 6,656) as a buffer: total 49,122,675,072
 * ("48B"), active 3,106,965,888 ("A3B"). Cache: 7 x 1,152 = 8,064 B per token at any tensor degree; state
 * per KDA layer conv 3 x 4096 x 3 x 2 = 73,728 + fp32 32 x 128 x 128 x 4 =
 * 2,097,152, x 20 = 43,417,600; t=8: (9,216 + 262,144) x 20 = 5,427,200. */
static void test_kimi_linear(void **state)
{
    (void)state;
    const struct gs_arch a =
        fixture_arch_file("kimi_linear/moonshotai__Kimi-Linear-48B-A3B-Instruct.json");
    const struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.total, 49122675072ULL);
    assert_int_equal(c.buffers, 6656);
    assert_int_equal(c.active, 3106965888ULL);
    assert_int_equal(c.attention, 994089600ULL);
    assert_int_equal(c.experts, 47125757952ULL);
    assert_int_equal(c.mlp, 247726080ULL);
    assert_int_equal(c.norms, 126720);
    assert_int_equal(c.vision, 0);
    fixture_assert_kinds(&a, (struct fixture_kinds){.mla = 7, .recurrent = 20, .moe = 26});
    /* 1-based lists: layer 4 (index 3) is MLA, layer 27 (index 26) too, index 0 is KDA */
    assert_int_equal(a.blocks[a.layer_block[3]].mixer, GS_MIXER_MLA);
    assert_int_equal(a.blocks[a.layer_block[26]].mixer, GS_MIXER_MLA);
    assert_int_equal(a.blocks[a.layer_block[0]].mixer, GS_MIXER_RECURRENT);
    assert_int_equal(a.blocks[a.layer_block[0]].mlp.kind, GS_MLP_DENSE);
    /* transformers builds the KDA layer itself: training counts its scan */
    assert_int_equal(a.blocks[a.layer_block[0]].rec.scan, GS_SCAN_KIMI_DELTA);
    assert_int_equal(a.max_position_embeddings, 1048576);
    fixture_assert_cache(&a, 1, 8064, 43417600ULL);
    fixture_assert_cache(&a, 8, 8064, 5427200ULL);
    fixture_assert_vllm_serving(&a, 16, 1, 141000000000ULL);
}

/* ------------------------------------------------------------ Kimi-K3 */

/* kimi_k3/README.md: 69 KDA layers of 443,740,384 (full-rank output gate)
 * and 24 gated MLA layers of 232,196,096; layer 0 dense (3 x 7168 x 33792),
 * 92 latent-MoE layers of 896 experts 3 x 3584 x 3072 in the 3584-wide
 * latent, 2 shared experts at the hidden width; Block AttnRes adds 2 norms
 * and 2 h -> 1 projections per layer and one pair at the output. Text
 * 2,779,484,476,000; vision 447,358,976; total 2,779,931,834,976 ("2.8T").
 * Active 104,189,612,640 (16 of 896 experts, no input lookup, no tower).
 * Cache 24 x 1,152 = 27,648 B per token; state per KDA layer conv
 * 3 x 12288 x 3 x 2 = 221,184 + fp32 96 x 128 x 128 x 4 = 6,291,456, x 69 =
 * 449,372,160; t=8: (27,648 + 786,432) x 69 = 56,171,520. */
static void test_kimi_k3(void **state)
{
    (void)state;
    const struct gs_arch a = fixture_arch_file("kimi_k3/moonshotai__Kimi-K3.json");
    const struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.total, 2779931834976ULL);
    assert_int_equal(c.vision, 447358976ULL);
    assert_int_equal(c.buffers, 0);
    assert_int_equal(c.active, 104189612640ULL);
    assert_int_equal(c.attention, 36190792800ULL);
    assert_int_equal(c.experts, 2728059095552ULL);
    assert_int_equal(c.mlp, 12881756160ULL);
    assert_int_equal(c.norms, 2680832);
    assert_int_equal(c.other, 1340416);
    fixture_assert_kinds(&a, (struct fixture_kinds){.mla = 24, .recurrent = 69, .moe = 92});
    assert_int_equal(a.blocks[a.layer_block[91]].mixer, GS_MIXER_MLA);
    assert_int_equal(a.blocks[a.layer_block[92]].mixer, GS_MIXER_MLA);
    assert_int_equal(a.blocks[a.layer_block[90]].mixer, GS_MIXER_RECURRENT);
    assert_int_equal(a.blocks[a.layer_block[0]].rec.conv_channels, 3 * 12288);
    assert_true(a.blocks[a.layer_block[0]].rec.fp32_state);
    /* the remote modeling_kimi_linear.py is not read: sized by the projections */
    assert_int_equal(a.blocks[a.layer_block[0]].rec.scan, GS_SCAN_PROJECTIONS);
    fixture_assert_cache(&a, 1, 27648, 449372160ULL);
    fixture_assert_cache(&a, 8, 27648, 56171520ULL);
    fixture_assert_vllm_serving(&a, 8, 8, 141000000000ULL);
}

/* ------------------------------------------------------------ errors */

static void test_errors(void **state)
{
    (void)state;
    fixture_assert_reader_error("{\"model_type\": \"kimi_k3\", \"vision_config\": {}}",
                                "/text_config");
    fixture_assert_reader_error(
        "{\"model_type\": \"kimi_linear\", \"hidden_size\": 64, \"vocab_size\": 100,"
        " \"num_hidden_layers\": 2, \"num_attention_heads\": 2, \"kv_lora_rank\": 8,"
        " \"qk_nope_head_dim\": 8, \"qk_rope_head_dim\": 8, \"v_head_dim\": 8,"
        " \"linear_attn_config\": {\"num_heads\": 2, \"head_dim\": 8,"
        " \"short_conv_kernel_size\": 4, \"kda_layers\": [0], \"full_attn_layers\": [2]}}",
        "/linear_attn_config/kda_layers");
    fixture_assert_reader_error(
        "{\"model_type\": \"kimi_linear\", \"hidden_size\": 64, \"vocab_size\": 100,"
        " \"num_hidden_layers\": 2, \"num_attention_heads\": 2, \"kv_lora_rank\": 8,"
        " \"qk_nope_head_dim\": 8, \"qk_rope_head_dim\": 8, \"v_head_dim\": 8,"
        " \"linear_attn_config\": {\"num_heads\": 2, \"head_dim\": 8,"
        " \"short_conv_kernel_size\": 4, \"kda_layers\": [1, 2], \"full_attn_layers\": [2]}}",
        "/linear_attn_config/full_attn_layers");
    fixture_assert_reader_error(
        "{\"model_type\": \"kimi_k3\", \"text_config\": {\"hidden_size\": 64,"
        " \"vocab_size\": 100, \"num_hidden_layers\": 1, \"num_attention_heads\": 2,"
        " \"kv_lora_rank\": 8, \"qk_nope_head_dim\": 8, \"qk_rope_head_dim\": 8,"
        " \"v_head_dim\": 8}, \"vision_config\": {\"vt_hidden_size\": 32,"
        " \"vt_intermediate_size\": 64, \"vt_num_attention_heads\": 2,"
        " \"vt_num_hidden_layers\": 1, \"mm_projector_type\": \"perceiver\"}}",
        "/vision_config/mm_projector_type");
    fixture_assert_reader_error(
        "{\"model_type\": \"kimi_k3\", \"text_config\": {\"hidden_size\": 64,"
        " \"vocab_size\": 100, \"num_hidden_layers\": 1, \"num_attention_heads\": 2,"
        " \"kv_lora_rank\": 8, \"qk_nope_head_dim\": 8, \"qk_rope_head_dim\": 8,"
        " \"v_head_dim\": 8}, \"vision_config\": {\"vt_hidden_size\": 32,"
        " \"vt_intermediate_size\": 64, \"vt_num_attention_heads\": 2,"
        " \"vt_num_hidden_layers\": 1, \"merge_kernel_size\": []}}",
        "/vision_config/merge_kernel_size");
    fixture_assert_reader_error(
        "{\"model_type\": \"kimi_k25\", \"text_config\": {\"model_type\": \"kimi_k2\"},"
        " \"vision_config\": {}}",
        "/text_config/hidden_size");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_types_listed),  cmocka_unit_test(test_kimi_k25),
        cmocka_unit_test(test_kimi_k26_nvfp4), cmocka_unit_test(test_kimi_linear),
        cmocka_unit_test(test_kimi_k3),       cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
