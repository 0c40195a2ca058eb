/*
 * test_models_heterogeneous.c - the readers of server/readers/heterogeneous.c: exact parameter
 * counts against transformers' count (published figures or written-out
 * arithmetic in tests/fixtures/configs/<model_type>/README.md), active
 * parameters, the layer shapes, KV cache bytes per token at tensor
 * parallelism 1 and 4, and that a serving estimate runs.
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

#include <stdio.h>
#include <string.h>

/* ------------------------------------------------------------ nemotron-nas */

/* nemotron-nas/README.md: Llama-3.3-Nemotron-Super-49B-v1, 80 layers, h 8192,
 * 64 heads of 128. 49 layers attend (8 KV heads), 31 have no attention; the
 * FFN widths from ffn_mult are 28672 (49 layers), 7168 (10), 5632 (8),
 * 14336 (6), 2816 (6), 17920 (1), summing to 1,642,496. Embedding and head
 * 2 x 128256 x 8192 = 2,101,346,304; attention 49 x 150,994,944 =
 * 7,398,752,256; MLP 3 x 8192 x 1,642,496 = 40,365,981,696; norms (49
 * input, 80 post-attention, 1 final) 130 x 8192 = 1,064,960; total
 * 49,867,145,216 (card "49B"). Untied: active drops the input embedding.
 * KV at bf16: 49 x 2 x 8 x 128 x 2 = 200,704 bytes a token; TP 4 splits the
 * 8 KV heads: 50,176. */
static void test_nemotron_super_49b(void **state)
{
    (void)state;
    const struct gs_arch a =
        fixture_arch_file("nemotron-nas/nvidia__Llama-3_3-Nemotron-Super-49B-v1.json");
    const struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.total, 49867145216ULL);
    assert_int_equal(c.active, 49867145216ULL - 1050673152ULL);
    assert_int_equal(c.embedding, 1050673152ULL);
    assert_int_equal(c.lm_head, 1050673152ULL);
    assert_int_equal(c.attention, 7398752256ULL);
    assert_int_equal(c.mlp, 40365981696ULL);
    assert_int_equal(c.norms, 1064960ULL);
    assert_int_equal(a.num_hidden_layers, 80);
    assert_int_equal(a.block_count, 8);
    assert_int_equal(fixture_layer_kinds(&a).attention, 49);
    const struct gs_kv_layout kv1 = fixture_layout(&a, 1);
    assert_int_equal(kv1.bytes_per_token, 200704);
    assert_int_equal(kv1.full_layers, 49);
    assert_int_equal(kv1.state_bytes_per_sequence, 0);
    assert_int_equal(fixture_layout(&a, 4).bytes_per_token, 50176);
    assert_int_equal(fixture_assert_vllm_serving(&a, 16, 1, 141000000000ULL), 4096ULL * 200704);
}

/* A two-layer stack with each stand-in: replace_with_linear attention is one
 * h x h linear_attn (with its input_layernorm, no cache), replace_with_linear
 * FFN one h x h linear_mlp, a no_op FFN drops post_attention_layernorm, and
 * an explicit intermediate_size stands for ffn_mult. h 64, V 100, untied:
 * embeddings 2 x 6400; layer 0: 64 + 4096 + 64 + 4096; layer 1: 64 + q/o
 * 2 x 4096 + k/v 2 x 64 x 32 (2 KV heads of 16) = 12,352; final norm 64.
 * Total 12,800 + 8,320 + 12,352 + 64 = 33,536. */
static void test_nemotron_nas_stand_ins(void **state)
{
    (void)state;
    const struct gs_arch a =
        fixture_arch("{\"model_type\": \"nemotron-nas\", \"hidden_size\": 64, \"vocab_size\": 100,"
                     " \"num_hidden_layers\": 2, \"num_attention_heads\": 4, \"block_configs\": ["
                     " {\"attention\": {\"replace_with_linear\": true}, \"ffn\": "
                     "{\"replace_with_linear\": true}},"
                     " {\"attention\": {\"n_heads_in_group\": 2}, \"ffn\": {\"no_op\": true}}]}");
    const struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.total, 33536);
    assert_int_equal(fixture_layer_kinds(&a).attention, 1);
    assert_int_equal(fixture_layout(&a, 1).bytes_per_token, 2 * 2 * 16 * 2);

    /* ffn_mult 1.0 at h 64: int(42.67) = 42, rounded up to 256; intermediate_size taken as is */
    const struct gs_arch b =
        fixture_arch("{\"model_type\": \"nemotron-nas\", \"hidden_size\": 64, \"vocab_size\": 100,"
                     " \"num_hidden_layers\": 2, \"num_attention_heads\": 4, \"block_configs\": ["
                     " {\"attention\": {\"no_op\": true}, \"ffn\": {\"ffn_mult\": 1.0}},"
                     " {\"attention\": {\"no_op\": true}, \"ffn\": {\"intermediate_size\": 96}}]}");
    assert_int_equal(fixture_count(&b).total, 12800 + 64 + 3 * 64 * 256 + 64 + 3 * 64 * 96 + 64);
    assert_int_equal(fixture_layer_kinds(&b).attention, 0);
    assert_int_equal(fixture_layout(&b, 1).bytes_per_token, 0);
}

/* Malformed block configs are refused at the field. */
static void test_nemotron_nas_errors(void **state)
{
    (void)state;
    fixture_assert_reader_error(
        "{\"model_type\": \"nemotron-nas\", \"hidden_size\": 64, \"vocab_size\": 100,"
        " \"num_hidden_layers\": 2, \"num_attention_heads\": 4}",
        "/block_configs");
    fixture_assert_reader_error(
        "{\"model_type\": \"nemotron-nas\", \"hidden_size\": 64, \"vocab_size\": 100,"
        " \"num_hidden_layers\": 1, \"num_attention_heads\": 4, \"block_configs\": ["
        " {\"attention\": {\"n_heads_in_group\": 3}, \"ffn\": {\"no_op\": true}}]}",
        "/block_configs/0/attention/n_heads_in_group");
    fixture_assert_reader_error(
        "{\"model_type\": \"nemotron-nas\", \"hidden_size\": 64, \"vocab_size\": 100,"
        " \"num_hidden_layers\": 1, \"num_attention_heads\": 4, \"block_configs\": ["
        " {\"attention\": {\"no_op\": true}, \"ffn\": {\"ffn_mult\": -2}}]}",
        "/block_configs/0/ffn/ffn_mult");
    fixture_assert_reader_error(
        "{\"model_type\": \"nemotron-nas\", \"hidden_size\": 64, \"vocab_size\": 100,"
        " \"num_hidden_layers\": 2, \"num_attention_heads\": 4, \"block_configs\": ["
        " {\"attention\": {\"no_op\": true}, \"ffn\": {\"no_op\": true}}, 7]}",
        "/block_configs");
}

/* ------------------------------------------------------------ laguna */

/* The Laguna-XS.2 architecture with its per-layer lists (filled in by the test). */
#define LAGUNA_XS2_CONFIG                                                                          \
    "{\"architectures\": [\"LagunaForCausalLM\"], \"model_type\": \"laguna\","                     \
    " \"vocab_size\": 100352, \"hidden_size\": 2048, \"intermediate_size\": 8192,"                 \
    " \"num_hidden_layers\": 40, \"num_attention_heads\": 48, \"num_key_value_heads\": 8,"         \
    " \"head_dim\": 128, \"max_position_embeddings\": 131072, \"sliding_window\": 512,"            \
    " \"num_experts\": 256, \"num_experts_per_tok\": 8, \"moe_intermediate_size\": 512,"           \
    " \"shared_expert_intermediate_size\": 512, \"gating\": \"per-head\","                         \
    " \"tie_word_embeddings\": false, \"layer_types\": [%s], \"num_attention_heads_per_layer\": "  \
    "[%s]}"

/* Poolside's Laguna-XS.2 (laguna/README.md): no verbatim config.json was
 * found, so the architecture is LagunaConfig's defaults (its docstring names
 * poolside/laguna-XS.2: V 100352, h 2048, 40 layers, 8 KV heads of 128,
 * dense width 8192, 256 experts of 512 top-8, a 512 shared expert, window
 * 512, layer 0 dense) with the card's 10 global and 30 sliding layers (every
 * 4th from layer 0 global) and the per-layer heads the published configs'
 * excerpts give: 48 on global layers, 64 on sliding ones.
 * Per layer: global attention q/o 2 x 2048 x 6144 + k/v 2 x 2048 x 1024 +
 * g_proj 2048 x 48 + q/k norms 256 = 29,458,688; sliding 2 x 2048 x 8192 +
 * 4,194,304 + 2048 x 64 + 256 = 37,880,064; dense MLP 3 x 2048 x 8192 =
 * 50,331,648; MoE 256 x 3 x 2048 x 512 + router 256 x 2048 + its
 * e_score_correction_bias 256 (an nn.Parameter in transformers) + shared
 * 3 x 2048 x 512 = 808,976,640; two norms 4,096.
 * Total 10 x 29,458,688 + 30 x 37,880,064 + 50,331,648 + 39 x 808,976,640 +
 * 40 x 4,096 + 2,048 + 2 x 100352 x 2048 = 33,442,617,088 (card: 33B).
 * Active: all but 248 of each MoE layer's experts and the input embedding:
 * 33,442,617,088 - 39 x 248 x 3,145,728 - 205,520,896 = 2,811,614,976
 * (card: 3B activated, 3.02B with the input embedding).
 * KV at bf16: 40 x 2 x 8 x 128 x 2 = 163,840 bytes a token as if every layer
 * held every token, 40,960 of them the 10 full layers'; TP 4: 40,960. */
static void test_laguna_xs2(void **state)
{
    (void)state;
    char types[40 * 24], heads[40 * 4];
    size_t tu = 0, hu = 0;
    for (int l = 0; l < 40; l++) {
        const bool global = l % 4 == 0;
        tu += (size_t)snprintf(types + tu, sizeof(types) - tu, "%s\"%s\"", l ? "," : "",
                               global ? "full_attention" : "sliding_attention");
        hu += (size_t)snprintf(heads + hu, sizeof(heads) - hu, "%s%d", l ? "," : "",
                               global ? 48 : 64);
    }
    const struct gs_arch a = fixture_arch(LAGUNA_XS2_CONFIG, types, heads);
    const struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.total, 33442617088ULL);
    assert_int_equal(c.active, 2811614976ULL);
    assert_int_equal(c.attention, 10ULL * 29458688 + 30ULL * 37880064);
    assert_int_equal(c.embedding, 205520896ULL);
    assert_int_equal(c.lm_head, 205520896ULL);
    assert_int_equal(c.experts, 39ULL * (805306368 + 524288 + 256));
    assert_int_equal(c.mlp, 50331648ULL + 39ULL * 3145728);
    /* (global, dense), (sliding, routed), (global, routed) */
    assert_int_equal(a.block_count, 3);
    assert_int_equal(fixture_layer_kinds(&a).attention, 40);
    const struct gs_kv_layout kv1 = fixture_layout(&a, 1);
    assert_int_equal(kv1.bytes_per_token, 163840);
    assert_int_equal(kv1.full_layers, 10);
    assert_int_equal(kv1.full_token_bytes, 40960);
    assert_int_equal(kv1.window_layers, 30);
    assert_int_equal(kv1.sliding_window, 512);
    assert_int_equal(fixture_layout(&a, 4).bytes_per_token, 40960);
    (void)fixture_assert_vllm_serving(&a, 16, 1, 141000000000ULL);
    /* with 512 tokens a step the 30 sliding layers hold 511 + 512 tokens, 64 blocks and one more
     * (SlidingWindowSpec): 65 x 16 x 122,880; the 10 full layers 256 x 16 x 40,960 */
    bool ovf = false;
    assert_int_equal(gs_kv_sequence_bytes(&kv1, 4096, 0, 16, 512, &ovf),
                     65ULL * 16 * 122880 + 256ULL * 16 * 40960);
}

/* Without the per-layer lists LagunaConfig's defaults apply: every layer
 * full attention with num_attention_heads, layer 0 dense and the rest
 * routed; per-element gating widens g_proj to heads x head_dim. h 64, V 10,
 * 2 layers, 4 heads of 16, 2 KV heads, dense 128, 4 experts of 32 top-2,
 * shared 32, untied. Attention 2 x 64 x 64 + 2 x 64 x 32 + g_proj 64 x 64 +
 * norms 32 = 16,416 a layer; dense 3 x 64 x 128 = 24,576; MoE 4 x 3 x 64 x
 * 32 + 4 x 64 + 4 + 3 x 64 x 32 = 30,980; norms 2 x 2 x 64 + 64; embeddings
 * 2 x 640. Total 2 x 16,416 + 24,576 + 30,980 + 320 + 1,280 = 89,988. */
static void test_laguna_defaults(void **state)
{
    (void)state;
    const struct gs_arch a = fixture_arch(
        "{\"model_type\": \"laguna\", \"vocab_size\": 10, \"hidden_size\": 64,"
        " \"intermediate_size\": 128, \"num_hidden_layers\": 2, \"num_attention_heads\": 4,"
        " \"num_key_value_heads\": 2, \"head_dim\": 16, \"num_experts\": 4,"
        " \"num_experts_per_tok\": 2, \"moe_intermediate_size\": 32,"
        " \"shared_expert_intermediate_size\": 32, \"gating\": \"per-element\"}");
    assert_int_equal(fixture_count(&a).total, 89988);
    assert_int_equal(fixture_layout(&a, 1).window_layers, 0);
    fixture_assert_reader_error(
        "{\"model_type\": \"laguna\", \"num_hidden_layers\": 2,"
        " \"num_key_value_heads\": 8, \"num_attention_heads_per_layer\": [48, 60]}",
        "/num_attention_heads_per_layer");
    fixture_assert_reader_error("{\"model_type\": \"laguna\", \"num_hidden_layers\": 2,"
                                " \"mlp_layer_types\": [\"dense\", \"moe\"]}",
                                "/mlp_layer_types");
}

/* ------------------------------------------------------------ step3p5 */

/* Step-3.5-Flash's architecture in its release's keys (filled in by the test: layer_types and
 * partial_rotary_factors over the 45 layers and the 3 MTP layers after them, moe_layers_enum
 * naming layers 3 to 44 - the published configs' "3,4,...,44": the MTP layers' tensors are a
 * dense mlp.{gate,up,down}_proj in the checkpoint, which vLLM's moe_layers_enum rule loads). */
#define STEP35_CONFIG                                                                              \
    "{\"architectures\": [\"Step3p5ForCausalLM\"], \"model_type\": \"step3p5\","                   \
    " \"hidden_size\": 4096, \"intermediate_size\": 11264, \"num_hidden_layers\": 45,"             \
    " \"num_attention_heads\": 64, \"num_attention_groups\": 8, \"head_dim\": 128,"                \
    " \"vocab_size\": 128896, \"max_position_embeddings\": 262144, \"sliding_window\": 512,"       \
    " \"attention_other_setting\": {\"attention_type\": \"sliding_attention\","                    \
    " \"num_attention_heads\": 96, \"num_attention_groups\": 8, \"head_dim\": 128},"               \
    " \"moe_num_experts\": 288, \"moe_top_k\": 8, \"moe_intermediate_size\": 1280,"                \
    " \"share_expert_dim\": 1280, \"use_head_wise_attn_gate\": true, \"use_moe_router_bias\": "    \
    "true,"                                                                                        \
    " \"num_nextn_predict_layers\": 3, \"tie_word_embeddings\": false,"                            \
    " \"rope_scaling\": {\"rope_type\": \"llama3\", \"factor\": 2.0,"                              \
    " \"original_max_position_embeddings\": 131072, \"low_freq_factor\": 1.0,"                     \
    " \"high_freq_factor\": 32.0}, \"yarn_only_types\": [\"full_attention\"],"                     \
    " \"layer_types\": [%s], \"partial_rotary_factors\": [%s], \"moe_layers_enum\": \"%s\"}"

/* StepFun's Step-3.5-Flash (step3p7/README.md): no verbatim config.json was found, so the
 * architecture is Step3p7TextConfig's defaults (its docstring names stepfun-ai/Step-3.7-Flash,
 * whose language model is Step 3.5's) in the keys the released configs use, as vLLM's
 * step3p5.py and the engines' tests read them: every 4th layer from 0 full attention with 64
 * heads, the others sliding (512 tokens) with 96, 8 KV heads of 128, layers 0-2 dense.
 * Per layer: full attention q/o 2 x 4096 x 8192 + k/v 2 x 4096 x 1024 + g_proj 4096 x 64 + q/k
 * norms 256 = 75,759,872; sliding 2 x 4096 x 12288 + 8,388,608 + 4096 x 96 + 256 =
 * 109,445,376; dense 3 x 4096 x 11264 = 138,412,032; MoE 288 x 3 x 4096 x 1280 + router
 * 288 x 4096 + shared 3 x 4096 x 1280 = 4,546,756,608 (e_score_correction_bias a buffer); two
 * norms 8,192. Total 12 x 75,759,872 + 33 x 109,445,376 + 3 x 138,412,032 + 42 x
 * 4,546,756,608 + 45 x 8,192 + 4,096 + 2 x 128896 x 4096 = 196,956,118,272 (vLLM's recipe and
 * SGLang's cookbook: "196B parameters"). Active: 42 x 280 experts of 15,728,640 and the input
 * embedding out, 11,459,353,856 ("11B active"). KV at bf16: 45 x 2 x 8 x 128 x 2 = 184,320
 * bytes a token as if every layer held every token, 49,152 of them the 12 full layers'; TP 4:
 * 46,080. */
static void test_step35_flash(void **state)
{
    (void)state;
    char types[48 * 24], factors[48 * 6], routed[48 * 4];
    size_t tu = 0, fu = 0, ru = 0;
    for (int l = 0; l < 48; l++) {
        const bool full = l % 4 == 0;
        tu += (size_t)snprintf(types + tu, sizeof(types) - tu, "%s\"%s\"", l ? "," : "",
                               full ? "full_attention" : "sliding_attention");
        fu += (size_t)snprintf(factors + fu, sizeof(factors) - fu, "%s%s", l ? "," : "",
                               full ? "0.5" : "1.0");
        if (l >= 3 && l < 45)
            ru += (size_t)snprintf(routed + ru, sizeof(routed) - ru, "%s%d", l > 3 ? "," : "", l);
    }
    const struct gs_arch a = fixture_arch(STEP35_CONFIG, types, factors, routed);
    const struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.total, 196956118272ULL);
    assert_int_equal(c.active, 11459353856ULL);
    assert_int_equal(c.attention, 12ULL * 75759872 + 33ULL * 109445376);
    assert_int_equal(c.embedding, 527958016ULL);
    assert_int_equal(c.lm_head, 527958016ULL);
    assert_int_equal(c.mlp, 3ULL * 138412032 + 42ULL * 15728640);
    /* (full, dense), (sliding, dense), (sliding, routed), (full, routed), and the MTP layers'
     * (step3p5_mtp.py): a sliding layer of 96 heads with a dense SwiGLU, 109,445,376 + 138,412,032
     * + two norms 8,192, eh_proj 2 x 4096 x 4096 = 33,554,432, enorm, hnorm and shared_head.norm
     * 12,288 and its own head 128,896 x 4,096 = 527,958,016: 809,390,336 a layer, three stored
     * (809.39M: the technical report's "0.81B MTP head") */
    assert_int_equal(a.block_count, 5);
    assert_int_equal(c.mtp, 3ULL * 809390336);
    const struct gs_tower *mtp = &a.towers[a.tower_count - 1];
    assert_int_equal(mtp->part, GS_PART_MTP);
    assert_int_equal(mtp->layers, 3);
    assert_int_equal(a.blocks[mtp->block].attn.span, GS_SPAN_SLIDING);
    assert_int_equal(a.blocks[mtp->block].attn.heads, 96);
    assert_int_equal(a.blocks[mtp->block].mlp.experts, 0);
    const struct gs_kv_layout kv1 = fixture_layout(&a, 1);
    assert_int_equal(kv1.bytes_per_token, 184320);
    assert_int_equal(kv1.full_layers, 12);
    assert_int_equal(kv1.full_token_bytes, 49152);
    assert_int_equal(kv1.window_layers, 33);
    assert_int_equal(kv1.sliding_window, 512);
    assert_int_equal(fixture_layout(&a, 4).bytes_per_token, 46080);
    /* vLLM's ropes: the full layers' over 64 of 128 dims (the llama3 scaling keeps the table at
     * max_position_embeddings), the sliding layers' over all 128 */
    assert_int_equal(a.rope_table_count, 2);
    assert_int_equal(a.rope_tables[0].rows, 262144);
    assert_int_equal(a.rope_tables[0].dim, 64);
    assert_int_equal(a.rope_tables[1].rows, 262144);
    assert_int_equal(a.rope_tables[1].dim, 128);
    for (uint64_t l = 0; l < 45; l++)
        assert_int_equal(a.blocks[a.layer_block[l]].attn.rotary_partial, l % 4 == 0);
    (void)fixture_assert_vllm_serving(&a, 16, 4, 141000000000ULL);

    /* vLLM's mtp at TP 4 with fp8 weights (per-tensor scales): an MTP layer on one GPU holds q
     * and o 4,096 x 12,288 / 4 = 12,582,912 each, k and v 1,048,576 each, g_proj 98,304, the
     * MLP 3 x 11,534,336 (fp8, a 4-byte scale each of the 8: 61,964,320), the q/k norms 512 B,
     * two layer norms 16,384 B, eh_proj whole 2 x 4,096 x 4,096 x 2 = 67,108,864 B, enorm, hnorm
     * and shared_head.norm 24,576 B: 129,114,656 B, x 3 = 387,343,968 with the head shared
     * (0.22: the release's rule since PR #34385); from 0.23 Step3p5MTPProposer keeps each
     * layer's head, 128,896 x 4,096 / 4 x 2 = 263,979,008 B more a layer: 1,179,280,992. Their
     * cache: three sliding layers like the model's (2 KV heads of 128 a GPU, 1,024 B a token at
     * bf16), joining its sliding kind: 45 x 1,024 -> 48 x 1,024 bytes a token, 36 sliding. */
    struct gs_workload w = fixture_vllm_workload(4, 65536, 4, 150754820096ULL);
    w.format_given = true;
    w.format = GS_WF_FP8;
    w.serving.engine.version = 2200;
    const struct gs_estimate plain = fixture_estimate(&a, &w);
    w.serving.engine.spec_method = GS_SPEC_MTP;
    struct gs_estimate mtp_est = fixture_estimate(&a, &w);
    assert_int_equal(mtp_est.per_gpu.weights_bytes - plain.per_gpu.weights_bytes, 387343968ULL);
    assert_int_equal(plain.serving.kv.bytes_per_token, 45 * 1024);
    assert_int_equal(mtp_est.serving.kv.bytes_per_token, 48 * 1024);
    assert_int_equal(mtp_est.serving.kv.window_layers, 36);
    assert_int_equal(mtp_est.serving.kv.full_layers, 12);
    w.serving.engine.version = 2300;
    mtp_est = fixture_estimate(&a, &w);
    assert_int_equal(mtp_est.per_gpu.weights_bytes - plain.per_gpu.weights_bytes,
                     387343968ULL + 3 * 263979008ULL);
}

/* Step3p7TextConfig's defaults where a config names nothing: every layer full attention with
 * num_attention_heads, layers 3 on routed, one shared expert of share_expert_dim, the per-head
 * gate. h 64, V 10, 4 layers, 4 heads of 16, 2 KV heads (num_key_value_heads), dense 128, 4
 * experts of 32 top-2, shared 16. Attention 2 x 64 x 64 + 2 x 64 x 32 + g_proj 64 x 4 + norms
 * 32 = 12,576 a layer; dense 3 x 64 x 128 = 24,576; MoE 4 x 3 x 64 x 32 + router 4 x 64 +
 * shared 3 x 64 x 16 = 27,904; norms 4 x 128 + 64; embeddings 2 x 640. Total 4 x 12,576 +
 * 3 x 24,576 + 27,904 + 576 + 1,280 = 153,792. */
static void test_step35_defaults(void **state)
{
    (void)state;
    const struct gs_arch a = fixture_arch(
        "{\"model_type\": \"step3p5\", \"vocab_size\": 10, \"hidden_size\": 64,"
        " \"intermediate_size\": 128, \"num_hidden_layers\": 4, \"num_attention_heads\": 4,"
        " \"num_key_value_heads\": 2, \"head_dim\": 16, \"n_routed_experts\": 4,"
        " \"num_experts_per_tok\": 2, \"moe_intermediate_size\": 32, \"share_expert_dim\": 16}");
    assert_int_equal(fixture_count(&a).total, 153792);
    assert_int_equal(fixture_layout(&a, 1).window_layers, 0);
    /* moe_layers_enum as a list (layers 1-3 routed: two dense MLPs fewer, two MoE blocks more),
     * and sliding layers without a window attend in full */
    const struct gs_arch b = fixture_arch(
        "{\"model_type\": \"step3p5\", \"vocab_size\": 10, \"hidden_size\": 64,"
        " \"intermediate_size\": 128, \"num_hidden_layers\": 4, \"num_attention_heads\": 4,"
        " \"num_key_value_heads\": 2, \"head_dim\": 16, \"n_routed_experts\": 4,"
        " \"num_experts_per_tok\": 2, \"moe_intermediate_size\": 32, \"share_expert_dim\": 16,"
        " \"moe_layers_enum\": [1, 2, 3], \"layer_types\": [\"full_attention\","
        " \"sliding_attention\", \"full_attention\", \"sliding_attention\"]}");
    assert_int_equal(fixture_count(&b).total, 153792 - 2 * 24576 + 2 * 27904);
    assert_int_equal(fixture_layout(&b, 1).window_layers, 0);
    fixture_assert_reader_error("{\"model_type\": \"step3p5\", \"num_hidden_layers\": 4,"
                                " \"attention_other_setting\": {\"num_attention_heads\": 96,"
                                " \"num_attention_groups\": 4}}",
                                "/attention_other_setting/num_attention_groups");
    fixture_assert_reader_error("{\"model_type\": \"step3p5\", \"num_hidden_layers\": 4,"
                                " \"attention_other_setting\": {\"num_attention_heads\": 60}}",
                                "/num_attention_heads");
    fixture_assert_reader_error(
        "{\"model_type\": \"step3p5\", \"num_hidden_layers\": 4, \"moe_layers_enum\": \"3,x\"}",
        "/moe_layers_enum");
    fixture_assert_reader_error("{\"model_type\": \"step3p5\", \"num_hidden_layers\": 4,"
                                " \"num_nextn_predict_layers\": 1, \"layer_types\": ["
                                "\"full_attention\", \"full_attention\"]}",
                                "/layer_types");
}

/* Every type of the file's table is one models_supported() lists. */
static void test_types_listed(void **state)
{
    (void)state;
    assert_non_null(strstr(models_supported(), "nemotron-nas"));
    assert_non_null(strstr(models_supported(), "laguna"));
    assert_non_null(strstr(models_supported(), "step3p5"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nemotron_super_49b),  cmocka_unit_test(test_nemotron_nas_stand_ins),
        cmocka_unit_test(test_nemotron_nas_errors), cmocka_unit_test(test_laguna_xs2),
        cmocka_unit_test(test_laguna_defaults),     cmocka_unit_test(test_step35_flash),
        cmocka_unit_test(test_step35_defaults),     cmocka_unit_test(test_types_listed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
