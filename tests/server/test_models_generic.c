/*
 * test_models_generic.c - the reader of last resort (server/readers/generic.c):
 * a config of a type no reader names is read from its standard keys, with
 * read_as "generic", counts equal to the Llama-layout arithmetic written out
 * below, the keys it did not understand named, KV bytes per token and
 * recurrent state per sequence (bf16, vLLM shapes) at tensor parallelism 1
 * and 2; and a config lacking what even that needs is refused naming the
 * missing keys.
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

#include <jansson.h>
#include <string.h>

static void assert_generic(const struct gs_arch *a, const char *model_type)
{
    assert_string_equal(a->model_type, model_type);
    assert_string_equal(a->read_as, "generic");
    assert_non_null(strstr(a->approximate, "approximate"));
}

static void assert_names(const struct gs_arch *a, const char *key)
{
    if (strstr(a->approximate, key) == NULL)
        fail_msg("\"%s\" not named in: %s", key, a->approximate);
}

static void assert_not_named(const struct gs_arch *a, const char *key)
{
    if (strstr(a->approximate, key) != NULL)
        fail_msg("\"%s\" named in: %s", key, a->approximate);
}

/* A made-up Llama-shaped type: H = 2048, L = 16, 32 heads (head_dim 64),
 * 8 KV heads, intermediate 8192, V = 128256, untied.
 * Layer: q 2048² + k 2048·512 + v 2048·512 + o 2048² = 10,485,760,
 * MLP 3 · 2048 · 8192 = 50,331,648, norms 4,096: 60,821,504; × 16 =
 * 973,144,064; embedding and head 2 · 262,668,288; final norm 2,048:
 * 1,498,482,688. Active leaves the untied input lookup out: 1,235,814,400.
 * KV: 16 layers · 2 · 8 · 64 · 2 B = 32,768 per token; TP 2 keeps 4 KV heads
 * a rank: 16,384. */
static void test_llama_shaped(void **state)
{
    (void)state;
    const struct gs_arch a = fixture_arch(
        "{\"model_type\": \"acme_lm\", \"architectures\": [\"AcmeLMForCausalLM\"],"
        " \"hidden_size\": 2048, \"num_hidden_layers\": 16, \"num_attention_heads\": 32,"
        " \"num_key_value_heads\": 8, \"intermediate_size\": 8192, \"vocab_size\": 128256,"
        " \"tie_word_embeddings\": false, \"max_position_embeddings\": 8192,"
        " \"rms_norm_eps\": 1e-5, \"rope_theta\": 500000, \"hidden_act\": \"silu\","
        " \"bos_token_id\": 1, \"eos_token_id\": [2, 3], \"torch_dtype\": \"bfloat16\","
        " \"initializer_range\": 0.02, \"transformers_version\": \"5.1.0\","
        " \"acme_gate_scale\": 1.5, \"acme_memory_tokens\": 64}");
    assert_generic(&a, "acme_lm");
    const struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.total, 1498482688ULL);
    assert_int_equal(c.active, 1235814400ULL);
    assert_int_equal(c.embedding, 262668288ULL);
    assert_int_equal(c.lm_head, 262668288ULL);
    assert_int_equal(c.attention, 16ULL * 10485760);
    assert_int_equal(c.mlp, 16ULL * 50331648);
    assert_int_equal(c.norms, 16ULL * 4096 + 2048);
    assert_int_equal(a.block_count, 1);
    fixture_assert_cache(&a, 1, 32768, 0);
    fixture_assert_cache(&a, 2, 16384, 0);
    assert_names(&a, "acme_gate_scale");
    assert_names(&a, "acme_memory_tokens");
    /* what was read and the harmless keys are not listed */
    assert_not_named(&a, "rope_theta");
    assert_not_named(&a, "eos_token_id");
    assert_not_named(&a, "intermediate_size");
    assert_not_named(&a, "torch_dtype");
}

/* A made-up vision-language MoE whose language model sits in text_config:
 * H = 1024, 4 layers typed full, sliding (window 512), linear, full; layer 0
 * dense (first_k_dense_replace 1), the others route to 16 experts of 512 (top
 * 4) with one shared expert of 512; q/k norms over head_dim 128; tied, V =
 * 32000.
 * attention: q 1024·1024 + k 1024·256 + v 1024·256 + o 1024·1024 + q/k norms
 * 2 · 128 = 2,621,696; Gated DeltaNet (4 key heads, 8 value heads, 64 wide,
 * kernel 4): in_proj_qkvz 1024 · 1536 + in_proj_ba 1024 · 16 + conv1d 1024 ·
 * 4 + dt_bias 8 + A_log 8 + norm 64 + out_proj 512 · 1024 = 2,117,712; dense
 * MLP 3 · 1024 · 3072 = 9,437,184; MoE: router 1024 · 16 + experts 16 · 3 ·
 * 1024 · 512 + shared 3 · 1024 · 512 = 26,755,072; norms 2,048 a layer.
 * Layers 12,060,928 + 29,378,816 + 28,874,832 + 29,378,816; embedding
 * 32,768,000; final norm 1,024: 132,462,416. Active: 12 of 16 experts idle
 * in 3 layers, 3 · 12 · 1,572,864 = 56,623,104 fewer: 75,839,312.
 * KV: 3 attention layers (one windowed) · 2 · 2 · 128 · 2 B = 3,072 per token
 * (TP 2: 1 KV head a rank, 1,536). State of the linear layer: conv 1024 · 3 ·
 * 2 + ssm 8 · 64 · 64 · 2 = 71,680 (TP 2: 35,840). */
static void test_nested_moe_hybrid(void **state)
{
    (void)state;
    const struct gs_arch a = fixture_arch(
        "{\"model_type\": \"acme_moe_vl\", \"architectures\": [\"AcmeMoeForConditionalGeneration\"],"
        " \"image_token_id\": 7, \"vision_config\": {\"depth\": 4, \"hidden_size\": 256},"
        " \"text_config\": {\"hidden_size\": 1024, \"num_hidden_layers\": 4,"
        " \"num_attention_heads\": 8, \"num_key_value_heads\": 2, \"head_dim\": 128,"
        " \"intermediate_size\": 3072, \"moe_intermediate_size\": 512, \"num_experts\": 16,"
        " \"num_experts_per_tok\": 4, \"n_shared_experts\": 1, \"first_k_dense_replace\": 1,"
        " \"layer_types\": [\"full_attention\", \"sliding_attention\", \"linear_attention\","
        " \"full_attention\"], \"sliding_window\": 512, \"linear_num_key_heads\": 4,"
        " \"linear_num_value_heads\": 8, \"linear_key_head_dim\": 64,"
        " \"linear_value_head_dim\": 64, \"linear_conv_kernel_dim\": 4, \"use_qk_norm\": true,"
        " \"vocab_size\": 32000, \"tie_word_embeddings\": true, \"rms_norm_eps\": 1e-6,"
        " \"acme_router_temperature\": 0.5}}");
    assert_generic(&a, "acme_moe_vl");
    const struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.total, 132462416ULL);
    assert_int_equal(c.active, 75839312ULL);
    assert_int_equal(c.embedding, 32768000ULL);
    assert_int_equal(c.lm_head, 0);
    assert_int_equal(c.attention, 3ULL * 2621696 + 2117712);
    assert_int_equal(c.experts, 3ULL * (16384 + 25165824));
    assert_int_equal(c.mlp, 9437184ULL + 3 * 1572864);
    assert_int_equal(a.blocks[a.layer_block[1]].attn.span, GS_SPAN_SLIDING);
    assert_int_equal(a.blocks[a.layer_block[1]].attn.window, 512);
    assert_int_equal(a.blocks[a.layer_block[2]].mixer, GS_MIXER_RECURRENT);
    assert_int_equal(a.blocks[a.layer_block[0]].mlp.kind, GS_MLP_DENSE);
    assert_int_equal(a.blocks[a.layer_block[3]].mlp.kind, GS_MLP_MOE);
    fixture_assert_cache(&a, 1, 3072, 71680);
    fixture_assert_cache(&a, 2, 1536, 35840);
    assert_names(&a, "vision_config");
    assert_names(&a, "image_token_id");
    assert_names(&a, "text_config.acme_router_temperature");
    assert_not_named(&a, "text_config.num_experts");
}

/* DeepSeek-style latent attention from kv_lora_rank: H = 1024, 2 layers, 8
 * heads, q_lora 256, kv_lora 128, nope 64, rope 32, v 64, intermediate 2048,
 * V = 1000, untied.
 * MLA: q_a 1024 · 256 + q_a_layernorm 256 + q_b 256 · 8 · 96 + kv_a 1024 · 160
 * + kv_a_layernorm 128 + kv_b 128 · 8 · 128 + o 8 · 64 · 1024 = 1,278,336;
 * MLP 3 · 1024 · 2048 = 6,291,456; norms 2,048: layer 7,571,840; × 2 +
 * 2 · 1,024,000 + 1,024 = 17,192,704. The cache holds the latent and the
 * rope key: (128 + 32) · 2 B · 2 layers = 640 per token, at any TP. */
static void test_latent_attention(void **state)
{
    (void)state;
    const struct gs_arch a = fixture_arch(
        "{\"model_type\": \"acme_mla\", \"hidden_size\": 1024, \"num_hidden_layers\": 2,"
        " \"num_attention_heads\": 8, \"q_lora_rank\": 256, \"kv_lora_rank\": 128,"
        " \"qk_nope_head_dim\": 64, \"qk_rope_head_dim\": 32, \"v_head_dim\": 64,"
        " \"intermediate_size\": 2048, \"vocab_size\": 1000}");
    assert_generic(&a, "acme_mla");
    assert_int_equal(fixture_count(&a).total, 17192704ULL);
    assert_int_equal(a.blocks[0].mixer, GS_MIXER_MLA);
    fixture_assert_cache(&a, 1, 640, 0);
    fixture_assert_cache(&a, 2, 640, 0);
}

/* Known keys in shapes the reader does not expect are left out and named,
 * not refused: moe_layer_freq as MiniMax-M3's per-layer 0/1 list routes
 * layer 1 only; a sliding_window that is not a number slides nothing.
 * H 64, 2 layers, 4 heads of 16, intermediate 128, 4 experts of 32 (top 2),
 * V 100, untied: attention 4 · 64² = 16,384 a layer, norms 128 a layer,
 * layer 0's MLP 3 · 64 · 128 = 24,576, layer 1's router 64 · 4 + experts
 * 4 · 3 · 64 · 32 = 24,832; embedding and head 2 · 6,400, final norm 64:
 * 95,296. */
static void test_unexpected_shapes(void **state)
{
    (void)state;
    const struct gs_arch a = fixture_arch(
        "{\"model_type\": \"acme_shapes\", \"hidden_size\": 64, \"num_hidden_layers\": 2,"
        " \"num_attention_heads\": 4, \"intermediate_size\": 128, \"moe_intermediate_size\": 32,"
        " \"num_experts\": 4, \"num_experts_per_tok\": 2, \"moe_layer_freq\": [0, 1],"
        " \"sliding_window\": \"wide\", \"layer_types\": [\"full_attention\"], \"vocab_size\": 100}");
    assert_generic(&a, "acme_shapes");
    assert_int_equal(fixture_count(&a).total, 95296ULL);
    assert_int_equal(a.blocks[a.layer_block[0]].mlp.kind, GS_MLP_DENSE);
    assert_int_equal(a.blocks[a.layer_block[1]].mlp.kind, GS_MLP_MOE);
    assert_int_equal(a.blocks[a.layer_block[1]].attn.span, GS_SPAN_FULL);
    assert_names(&a, "sliding_window");
    assert_names(&a, "layer_types");
    assert_not_named(&a, "moe_layer_freq");
}

/* tests/fixtures/configs/mimo/README.md: XiaomiMiMo/MiMo-7B-Base's config under a model_type
 * and an architecture no reader names (mimo has a reader since), read as a Llama decoder with
 * biases on q, k, v and o:
 * 7,622,766,592 (the Qwen2 layout it really has counts 147,456 fewer: no o
 * bias); active without the untied lookup 7,001,485,312. KV 36 · 2 · 8 · 128
 * · 2 B = 147,456 per token; TP 2: 73,728; TP 8 (one KV head a rank): 18,432.
 * The MTP depth, max_window_layers and use_mrope are named as not understood. */
static void test_mimo(void **state)
{
    (void)state;
    static const char config[] =
        "{\"architectures\": [\"MiMoUnreadForCausalLM\"], \"model_type\": \"mimo_unread\", "
        "\"num_hidden_layers\": 36, \"hidden_size\": 4096, \"num_attention_heads\": 32, "
        "\"num_key_value_heads\": 8, \"head_dim\": 128, \"intermediate_size\": 11008, "
        "\"vocab_size\": 151680, \"max_position_embeddings\": 32768, \"rope_theta\": 640000, "
        "\"rms_norm_eps\": 1e-05, \"hidden_act\": \"silu\", \"attention_bias\": true, "
        "\"attention_dropout\": 0.0, \"sliding_window\": 32768, \"max_window_layers\": 32, "
        "\"use_sliding_window\": false, \"use_mrope\": false, "
        "\"num_nextn_predict_layers\": 1, \"tie_word_embeddings\": false, "
        "\"torch_dtype\": \"bfloat16\", \"transformers_version\": \"4.40.1\", "
        "\"use_cache\": true}";
    const struct gs_arch a = fixture_arch("%s", config);
    assert_generic(&a, "mimo_unread");
    const struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.total, 7622766592ULL);
    assert_int_equal(c.active, 7001485312ULL);
    assert_int_equal(c.attention, 36ULL * 41953280);
    assert_int_equal(c.mtp, 0);
    fixture_assert_cache(&a, 1, 147456, 0);
    fixture_assert_cache(&a, 2, 73728, 0);
    fixture_assert_cache(&a, 8, 18432, 0);
    assert_names(&a, "num_nextn_predict_layers");
    assert_names(&a, "max_window_layers");
    assert_names(&a, "use_mrope");
    assert_not_named(&a, "sliding_window");
    /* use_sliding_window false: full attention on every layer */
    assert_int_equal(a.blocks[0].attn.span, GS_SPAN_FULL);
    /* an estimate of it carries the warning that names them */
    const struct gs_workload w = fixture_workload(GS_MODE_INFERENCE);
    const struct gs_estimate e = fixture_estimate(&a, &w);
    bool warned = false;
    for (size_t i = 0; i < e.warning_count; i++)
        if (strcmp(e.warnings[i].code, "architecture_approximate") == 0)
            warned = strstr(e.warnings[i].detail, "num_nextn_predict_layers") != NULL;
    assert_true(warned);
}

/* Without hidden_size (or an MLP width, or top-k beside experts) even the
 * generic reader cannot size it: 422's status, the unknown type first, then
 * each missing key at its pointer. A wrong type is a plain 400. */
static void test_refusals(void **state)
{
    (void)state;
    fixture_assert_refused(
        "{\"model_type\": \"acme_lm\", \"num_hidden_layers\": 2,"
        " \"num_attention_heads\": 4, \"intermediate_size\": 64, \"vocab_size\": 10}",
        GS_ERR_UNKNOWN_MODEL,
        FIXTURE_POINTERS("/model/config/model_type", "/model/config/hidden_size"));
    fixture_assert_refused(
        "{\"model_type\": \"acme_moe\", \"text_config\": {\"hidden_size\": 64,"
        " \"num_hidden_layers\": 2, \"num_attention_heads\": 4, \"vocab_size\": 10,"
        " \"num_experts\": 4}}",
        GS_ERR_UNKNOWN_MODEL,
        FIXTURE_POINTERS("/model/config/model_type", "/model/config/text_config/intermediate_size",
                         "/model/config/text_config/num_experts_per_tok"));
    fixture_assert_refused("{\"model_type\": \"acme_lm\", \"hidden_size\": \"wide\","
                           " \"num_hidden_layers\": 2, \"num_attention_heads\": 4,"
                           " \"intermediate_size\": 64, \"vocab_size\": 10}",
                           GS_ERR_INVALID, FIXTURE_POINTERS("/model/config/hidden_size"));
    json_error_t jerr;
    json_t *config = json_loads("{\"model_type\": \"acme_lm\"}", 0, &jerr);
    struct gs_arch arch;
    struct gs_error err;
    gs_error_init(&err);
    assert_int_equal(models_read(config, "", &arch, &err), GS_ERR_UNKNOWN_MODEL);
    json_decref(config);
    assert_non_null(strstr(err.items[0].detail, "is not one gpusizer can read"));
    assert_non_null(strstr(err.items[1].detail, "generic reader needs"));
}

/* Keys that state a structure the generic reader would misread are refused (422) at the key, not
 * answered "approximate": ERNIE-4.5-VL's per-modality experts (moe_num_experts [64, 64], moe_k; a
 * dense reading said 3.3B for 29.4B), experts given as a list, and Mamba layers (Zamba2's
 * layers_block_type, Bamba's attn_layer_indices and mamba_* keys) that it would size as
 * attention. A zero or null value states nothing and is read as before. */
static void test_unread_structure_refused(void **state)
{
    (void)state;
#define ACME(extra)                                                                                \
    "{\"model_type\": \"acme_lm\", \"hidden_size\": 64, \"num_hidden_layers\": 2,"                 \
    " \"num_attention_heads\": 4, \"intermediate_size\": 128, \"vocab_size\": 100" extra "}"
    static const struct {
        const char *config;
        const char *pointer;
    } refused[] = {
        {ACME(", \"moe_num_experts\": [64, 64], \"moe_k\": 6, \"moe_intermediate_size\": [32, 16]"),
         "/model/config/moe_num_experts"},
        {ACME(", \"num_experts\": [8, 8], \"num_experts_per_tok\": 2"),
         "/model/config/num_experts"},
        {ACME(", \"layers_block_type\": [\"mamba\", \"hybrid\"]"),
         "/model/config/layers_block_type"},
        {ACME(", \"attn_layer_indices\": [1], \"mamba_d_state\": 128"),
         "/model/config/attn_layer_indices"},
        {ACME(", \"ssm_state_size\": 128"), "/model/config/ssm_state_size"},
        {ACME(", \"block_types\": [\"recurrent\", \"recurrent\", \"attention\"]"),
         "/model/config/block_types"},
        {ACME(", \"is_moe\": false, \"num_experts\": 16384, \"num_experts_per_tok\": 64"),
         "/model/config/is_moe"},
        /* Voxtral Realtime's wrapper key beside a readable text_config */
        {"{\"model_type\": \"voxtral_realtime\", \"audio_length_per_tok\": 8, \"text_config\":"
         " {\"hidden_size\": 64, \"num_hidden_layers\": 2, \"num_attention_heads\": 4,"
         " \"intermediate_size\": 128, \"vocab_size\": 100}}",
         "/model/config/audio_length_per_tok"},
    };
    for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++)
        fixture_assert_refused(refused[i].config, GS_ERR_UNKNOWN_MODEL,
                               FIXTURE_POINTERS("/model/config/model_type", refused[i].pointer));
    const struct gs_arch a = fixture_arch(ACME(", \"moe_k\": 0, \"mamba_d_state\": null"));
    assert_int_equal(fixture_count(&a).total,
                     2ULL * (4 * 64 * 64 + 3 * 64 * 128 + 128) + 64 + 2ULL * 100 * 64);
#undef ACME
}

/* Shared experts under the other names a config gives them: num_shared_experts MLPs of
 * moe_intermediate_size, or of moe_shared_expert_intermediate_size where given (Bailing's and
 * EXAONE-MoE's keys). A toy, h 64, two layers of 4 heads, MLP 128, 4 experts of 32 routed top 2:
 * attention 16,384, experts 4 x 3 x 64 x 32 = 24,576, the router 256, norms 128 a layer; one shared
 * MLP 3 x 64 x 32 = 6,144, or of 48: 9,216. */
static void test_shared_expert_names(void **state)
{
    (void)state;
#define ACME_MOE(extra)                                                                            \
    "{\"model_type\": \"acme_moe\", \"hidden_size\": 64, \"num_hidden_layers\": 2,"                \
    " \"num_attention_heads\": 4, \"intermediate_size\": 128, \"moe_intermediate_size\": 32,"      \
    " \"num_experts\": 4, \"num_experts_per_tok\": 2, \"vocab_size\": 100" extra "}"
    const uint64_t base = 2ULL * (16384 + 24576 + 256 + 128) + 64 + 2 * 100 * 64;
    struct gs_arch a = fixture_arch(ACME_MOE(""));
    assert_int_equal(fixture_count(&a).total, base);
    a = fixture_arch(ACME_MOE(", \"num_shared_experts\": 1"));
    assert_int_equal(fixture_count(&a).total, base + 2 * 6144);
    a = fixture_arch(ACME_MOE(", \"num_shared_experts\": 1,"
                              " \"moe_shared_expert_intermediate_size\": 48"));
    assert_int_equal(fixture_count(&a).total, base + 2 * 9216);
#undef ACME_MOE
}

/* A type a reader names keeps its exact read: no read_as, nothing approximate. */
static void test_known_type_untouched(void **state)
{
    (void)state;
    const struct gs_arch a = fixture_llama(2048, 16, 32, 8, 8192, 128256, false);
    assert_string_equal(a.read_as, "");
    assert_string_equal(a.approximate, "");
    assert_int_equal(fixture_count(&a).total, 1498482688ULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_llama_shaped),
        cmocka_unit_test(test_nested_moe_hybrid),
        cmocka_unit_test(test_latent_attention),
        cmocka_unit_test(test_mimo),
        cmocka_unit_test(test_unexpected_shapes),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_known_type_untouched),
        cmocka_unit_test(test_unread_structure_refused),
        cmocka_unit_test(test_shared_expert_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
