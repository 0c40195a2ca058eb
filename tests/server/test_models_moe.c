/*
 * test_models_moe.c - the readers of server/readers/moe.c: exact parameter
 * counts against transformers' count (published figures or written-out
 * arithmetic in tests/fixtures/configs/<model_type>/README.md), active
 * parameters, KV cache bytes per token (bf16, tensor parallelism 1 and 4)
 * and a vLLM serving estimate.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "arch_fixture.h"
#include "gs/estimate.h"
#include "gs/inference.h"
#include "gs/perf.h"
#include "gs/vllm.h"
#include "readers/models.h"

#include <math.h>
#include <string.h>

/* ------------------------------------------------------------ helpers */

/* ------------------------------------------------------------ Hunyuan */

/* hunyuan_v1_dense/README.md (Hunyuan-7B-Instruct, architecture fields):
 * per layer attention 41,943,296 (q, o 4096x4096; k, v 4096x1024; the two
 * head_dim RMSNorms 256), MLP 3 x 4096 x 14336 = 176,160,768, norms 8,192;
 * x 32 + the tied embedding 128167 x 4096 = 524,972,032 + the final norm:
 * 7,504,568,320 ("7.5B"). Tied: active = total. KV 32 x 2 x 8 x 128 x 2 =
 * 131,072 B/token; TP 4 keeps 2 KV heads a GPU: 32,768. */
static void test_hunyuan_dense(void **state)
{
    (void)state;
    const struct gs_arch a =
        fixture_arch_file("hunyuan_v1_dense/tencent__Hunyuan-7B-Instruct.reduced.json");
    const struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.total, 7504568320ULL);
    assert_int_equal(c.active, 7504568320ULL);
    assert_int_equal(c.embedding, 524972032ULL);
    assert_int_equal(c.lm_head, 0);
    assert_int_equal(c.attention, 32ULL * 41943296);
    assert_int_equal(c.mlp, 32ULL * 176160768);
    assert_int_equal(c.norms, 65ULL * 4096);
    assert_int_equal(c.experts, 0);
    assert_string_equal(a.model_type, "hunyuan_v1_dense");
    assert_int_equal(gs_arch_moe_layers(&a), 0);
    fixture_assert_cache(&a, 1, 131072, 0);
    fixture_assert_cache(&a, 4, 32768, 0);
    fixture_assert_vllm_serving(&a, 4, 1, 80000000000ULL);
    /* attention_bias puts a bias on q, k, v and o: 4096 + 1024 + 1024 + 4096 a layer */
    const struct gs_arch biased = fixture_arch(
        "{\"model_type\": \"hunyuan_v1_dense\", \"hidden_size\": 4096, \"vocab_size\": 128167,"
        " \"num_hidden_layers\": 32, \"num_attention_heads\": 32, \"num_key_value_heads\": 8,"
        " \"intermediate_size\": 14336, \"tie_word_embeddings\": true, \"attention_bias\": true}");
    assert_int_equal(fixture_count(&biased).total, 7504568320ULL + 32ULL * 10240);
}

/* hunyuan_v1_moe/README.md (Hunyuan-A13B-Instruct, model_type "hunyuan" in
 * the GitHub copy, read by its class HunYuanMoEV1ForCausalLM): per layer
 * attention 41,943,296, router gate.wg 64 x 4096 = 262,144, 64 experts of
 * 3 x 4096 x 3072 = 37,748,736 each (2,415,919,104), the shared MLP
 * 37,748,736, norms 8,192: 2,495,881,472; x 32 + 524,972,032 + 4,096 =
 * 80,393,183,232 (README "80B total"). Active: 8 experts of 64 and the tied
 * head: 12,747,448,320 ("13B active"). KV as the dense model. */
static void test_hunyuan_moe(void **state)
{
    (void)state;
    const struct gs_arch a =
        fixture_arch_file("hunyuan_v1_moe/tencent__Hunyuan-A13B-Instruct.json");
    const struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.total, 80393183232ULL);
    assert_int_equal(c.active, 12747448320ULL);
    assert_int_equal(c.experts, 32ULL * (262144 + 2415919104ULL));
    assert_int_equal(c.mlp, 32ULL * 37748736);
    assert_int_equal(c.attention, 32ULL * 41943296);
    assert_int_equal(c.embedding, 524972032ULL);
    assert_int_equal(c.lm_head, 0);
    assert_int_equal(c.mtp, 0);
    assert_string_equal(a.model_type, "hunyuan");
    assert_string_equal(a.read_as, "hunyuan_v1_moe");
    assert_int_equal(gs_arch_moe_layers(&a), 32);
    const struct gs_block *moe = gs_arch_moe_block(&a);
    assert_non_null(moe);
    assert_int_equal(moe->mlp.experts, 64);
    assert_int_equal(moe->mlp.top_k, 8);
    assert_int_equal(moe->mlp.shared_width, 3072);
    fixture_assert_cache(&a, 1, 131072, 0);
    fixture_assert_cache(&a, 4, 32768, 0);
    fixture_assert_vllm_serving(&a, 8, 4, 80000000000ULL);
}

/* Per-layer lists must hold one value; cross-layer attention is refused. */
static void test_hunyuan_refusals(void **state)
{
    (void)state;
    fixture_assert_reader_error(
        "{\"model_type\": \"hunyuan_v1_moe\", \"hidden_size\": 64, \"vocab_size\": 100,"
        " \"num_hidden_layers\": 2, \"num_attention_heads\": 4, \"intermediate_size\": 32,"
        " \"num_experts\": 4, \"moe_topk\": [2, 1]}",
        "/moe_topk");
    fixture_assert_reader_error(
        "{\"model_type\": \"hunyuan_v1_dense\", \"hidden_size\": 64, \"vocab_size\": 100,"
        " \"num_hidden_layers\": 2, \"num_attention_heads\": 4, \"intermediate_size\": 32,"
        " \"use_cla\": true}",
        "/use_cla");
    fixture_assert_reader_error(
        "{\"model_type\": \"hunyuan_v1_moe\", \"hidden_size\": 64, \"vocab_size\": 100,"
        " \"num_hidden_layers\": 2, \"num_attention_heads\": 4, \"intermediate_size\": 32,"
        " \"num_experts\": \"many\"}",
        "/num_experts");
}

/* ------------------------------------------------------------ MiMo-V2 */

/* mimo_v2_flash/README.md (XiaomiMiMo/MiMo-V2-Flash): 9 full-attention
 * layers (4 KV heads) and 39 sliding (8 KV heads, sinks, window 128); layer
 * 0 dense (SwiGLU 16384), 47 routed (256 experts of 2048, top 8, no shared).
 * Attention 89,128,960 full / 94,371,904 sliding; total 308,778,768,832
 * ("309B"), active without the untied input lookup 14,820,972,992 ("15B").
 * KV (K 192 and V 128 wide): 9 x 4 x 320 x 2 + 39 x 8 x 320 x 2 = 222,720
 * B/token; TP 4: 1 and 2 KV heads a GPU, 55,680. */
static void test_mimo_v2_flash(void **state)
{
    (void)state;
    const struct gs_arch a = fixture_arch_file("mimo_v2_flash/XiaomiMiMo__MiMo-V2-Flash.json");
    const struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.total, 308778768832ULL);
    assert_int_equal(c.active, 14820972992ULL);
    assert_int_equal(c.attention, 9ULL * 89128960 + 39ULL * 94371904);
    assert_int_equal(c.experts, 47ULL * (256ULL * 4096 + 256ULL * 3 * 4096 * 2048));
    assert_int_equal(c.mlp, 3ULL * 4096 * 16384);
    assert_int_equal(c.lm_head, 152576ULL * 4096);
    /* MiMoV2FlashTopkRouter's e_score_correction_bias, an nn.Buffer the checkpoint stores */
    assert_int_equal(c.buffers, 47 * 256);
    assert_int_equal(gs_arch_moe_layers(&a), 47);
    assert_true(a.checkpoint.quantized);
    assert_int_equal(a.checkpoint.format, GS_WF_FP8_BLOCK);
    const struct gs_kv_layout kv = fixture_layout(&a, 1);
    assert_int_equal(kv.full_layers, 9);
    assert_int_equal(kv.full_token_bytes, 9ULL * 4 * 320 * 2);
    assert_int_equal(kv.window_count, 1);
    assert_int_equal(kv.windows[0].window, 128);
    assert_int_equal(kv.windows[0].token_bytes, 39ULL * 8 * 320 * 2);
    fixture_assert_cache(&a, 1, 222720, 0);
    fixture_assert_cache(&a, 4, 55680, 0);
    assert_int_equal(a.rope_table_count, 2);
    assert_int_equal(a.rope_tables[1].dim, 64);
    /* the sliding layers hold a window, not the 4096-token context */
    const uint64_t seq = fixture_assert_vllm_serving(&a, 4, 8, 0);
    assert_true(seq < 4096ULL * fixture_layout(&a, 8).bytes_per_token);
    /* layer_types and mlp_layer_types, as transformers 5 writes them, read the same */
    fixture_assert_reader_error(
        "{\"model_type\": \"mimo_v2_flash\", \"hidden_size\": 64, \"vocab_size\": 100,"
        " \"num_hidden_layers\": 2, \"num_attention_heads\": 4, \"num_key_value_heads\": 2,"
        " \"intermediate_size\": 32, \"n_routed_experts\": 4, \"num_experts_per_tok\": 2,"
        " \"moe_intermediate_size\": 16, \"hybrid_layer_pattern\": [0, 2]}",
        "/hybrid_layer_pattern");
}

/* ------------------------------------------------------------------ AFMoE */

/* afmoe/README.md (arcee-ai Trinity Nano): 6,120,003,328, active 818,927,360 (with the input
 * lookup 1.02B: "6B-A1B"); the two dense layers, every fourth layer full and without rope, the
 * sigmoid output gate's projection on every layer. KV 14 x 1,024 B full, 42 x 1,024 B over 2,048
 * tokens. Without num_dense_layers (AfmoeConfig's default 1) the second layer routes. */
static void test_afmoe(void **state)
{
    (void)state;
    const char *file = "afmoe/arcee-ai__Trinity-Nano-Preview.json";
    const struct gs_arch a = fixture_arch_file(file);
    const struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.total, 6120003328ULL);
    assert_int_equal(c.active, 818927360ULL);
    assert_int_equal(c.attention, 56ULL * 3670272); /* the q/k norms with it */
    assert_int_equal(gs_arch_moe_layers(&a), 54);
    const struct gs_kv_layout kv = fixture_layout(&a, 1);
    assert_int_equal(kv.full_layers, 14);
    assert_int_equal(kv.full_token_bytes, 14ULL * 1024);
    assert_int_equal(kv.windows[0].window, 2048);
    assert_int_equal(kv.windows[0].token_bytes, 42ULL * 1024);
    for (size_t b = 0; b < a.block_count; b++) {
        assert_int_equal(a.blocks[b].attn.output_gate, GS_GATE_SIGMOID);
        assert_int_equal(a.blocks[b].attn.nope, a.blocks[b].attn.span == GS_SPAN_FULL);
    }
    const struct gs_arch one = fixture_arch_file_set_in(file, NULL, "num_dense_layers", NULL);
    assert_int_equal(gs_arch_moe_layers(&one), 55);
}

/* EXAONE-MoE (exaone_moe; modular_exaone_moe.py) on a toy config, by hand: attention q 64 x 64, k
 * and v 64 x 32 each, o 64 x 64, q_norm and k_norm 16 each: 12,320; two norms 128; layer 0 dense
 * 3 x 64 x 128 = 24,576 (37,024); layers 1-3 routed: 4 experts 3 x 64 x 32 = 24,576, the shared
 * MLP 3 x 64 x 32 = 6,144, the router 4 x 64 = 256 (43,424 each, 130,272); embedding and head
 * 2 x 100 x 64 and the final norm 64: 180,160, and 3 x 4 correction-bias buffers. Layers 0-2 local
 * over 8 tokens, layer 3 global (sliding_window_pattern 4). The generic reading missed the shared
 * expert (K-EXAONE: 1.77B). */
static void test_exaone_moe(void **state)
{
    (void)state;
    const struct gs_arch a = fixture_arch(
        "{\"model_type\": \"exaone_moe\", \"hidden_size\": 64, \"intermediate_size\": 128,"
        " \"num_hidden_layers\": 4, \"num_attention_heads\": 4, \"num_key_value_heads\": 2,"
        " \"head_dim\": 16, \"vocab_size\": 100, \"num_experts\": 4, \"num_experts_per_tok\": 2,"
        " \"moe_intermediate_size\": 32, \"num_shared_experts\": 1, \"sliding_window\": 8,"
        " \"sliding_window_pattern\": 4}");
    const struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.total, 180160);
    assert_int_equal(c.buffers, 3 * 4);
    assert_int_equal(gs_arch_moe_layers(&a), 3);
    const struct gs_kv_layout kv = fixture_layout(&a, 1);
    assert_int_equal(kv.full_layers, 1);
    assert_int_equal(kv.windows[0].window, 8);
}

/* ------------------------------------------------------------ EXAONE 4 */

/* exaone4/README.md (EXAONE-4.0-1.2B architecture, in the published config
 * of a W4A16 quantization of it): per layer attention 10,485,888 (q, o 2048
 * x 2048; k, v 2048 x 512; per-head q/k norms 2 x 64), SwiGLU 3 x 2048 x
 * 4096 = 25,165,824, the two post-sublayer norms 4,096; x 30 + the tied
 * embedding 102400 x 2048 + the final norm: 1,279,391,488 (model card:
 * 1.07B without embeddings = 1,069,676,288). Every layer global (no
 * sliding_window): KV 30 x 2 x 8 x 64 x 2 = 61,440 B/token; TP 4, 2 KV
 * heads a GPU: 15,360. */
static void test_exaone4(void **state)
{
    (void)state;
    const struct gs_arch a = fixture_arch_file("exaone4/his0si__EXAONE-4.0-1.2B.json");
    const struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.total, 1279391488ULL);
    assert_int_equal(c.active, 1279391488ULL);
    assert_int_equal(c.total - c.embedding, 1069676288ULL);
    assert_int_equal(c.attention, 30ULL * 10485888);
    assert_int_equal(c.mlp, 30ULL * 25165824);
    assert_int_equal(c.norms, 61ULL * 2048);
    assert_int_equal(c.lm_head, 0);
    assert_true(a.checkpoint.quantized);
    assert_int_equal(fixture_layout(&a, 1).full_layers, 30);
    fixture_assert_cache(&a, 1, 61440, 0);
    fixture_assert_cache(&a, 4, 15360, 0);
    fixture_assert_vllm_serving(&a, 8, 1, 80000000000ULL);
    /* EXAONE-4.0-32B's dimensions (model card: 64 layers, GQA 40/8, 30.95B without embeddings)
     * with its LLLG pattern: 48 local layers of a 4096-token window, 16 global */
    const struct gs_arch big = fixture_arch(
        "{\"model_type\": \"exaone4\", \"hidden_size\": 5120, \"intermediate_size\": 27392,"
        " \"num_hidden_layers\": 64, \"num_attention_heads\": 40, \"num_key_value_heads\": 8,"
        " \"head_dim\": 128, \"vocab_size\": 102400, \"sliding_window\": 4096,"
        " \"sliding_window_pattern\": \"LLLG\", \"tie_word_embeddings\": false}");
    const struct gs_param_count bc = fixture_count(&big);
    assert_int_equal(bc.total - bc.embedding - bc.lm_head, 30954640384ULL);
    const struct gs_kv_layout kv = fixture_layout(&big, 1);
    assert_int_equal(kv.full_layers, 16);
    assert_int_equal(kv.full_token_bytes, 16ULL * 2 * 8 * 128 * 2);
    assert_int_equal(kv.window_count, 1);
    assert_int_equal(kv.windows[0].window, 4096);
    assert_int_equal(kv.windows[0].token_bytes, 48ULL * 2 * 8 * 128 * 2);
    /* the integer form and the class default (4) give the same layers */
    const struct gs_arch by_int = fixture_arch(
        "{\"model_type\": \"exaone4\", \"hidden_size\": 5120, \"intermediate_size\": 27392,"
        " \"num_hidden_layers\": 64, \"num_attention_heads\": 40, \"num_key_value_heads\": 8,"
        " \"head_dim\": 128, \"vocab_size\": 102400}");
    assert_int_equal(fixture_layout(&by_int, 1).full_layers, 16);
    fixture_assert_reader_error(
        "{\"model_type\": \"exaone4\", \"hidden_size\": 64, \"intermediate_size\": 128,"
        " \"num_hidden_layers\": 4, \"num_attention_heads\": 4, \"vocab_size\": 100,"
        " \"sliding_window\": 8, \"sliding_window_pattern\": \"LLXG\"}",
        "/sliding_window_pattern");
}

/* ------------------------------------------------------------ MiniMax */

/* minimax_m2/README.md: the published MiniMax-M2.5 and M2.7 configs read
 * with decoder.c's minimax_m2 reader: 62 x 3,668,718,592 + 2 x 200064 x
 * 3072 + 3072 = 228,689,748,992; active 10,415,940,608 (8 of 256 experts,
 * without the untied input lookup). KV 62 x 2 x 8 x 128 x 2 = 253,952
 * B/token; TP 4: 2 KV heads a GPU, 63,488. The checkpoints are fp8 with
 * 128x128 block scales. */
static void test_minimax_m2_successors(void **state)
{
    (void)state;
    const char *files[] = {"minimax_m2/MiniMaxAI__MiniMax-M2.5.json",
                           "minimax_m2/MiniMaxAI__MiniMax-M2.7.json"};
    for (size_t i = 0; i < 2; i++) {
        const struct gs_arch a = fixture_arch_file(files[i]);
        const struct gs_param_count c = fixture_count(&a);
        assert_int_equal(c.total, 228689748992ULL);
        assert_int_equal(c.active, 10415940608ULL);
        assert_int_equal(c.lm_head, 200064ULL * 3072);
        assert_int_equal(gs_arch_moe_layers(&a), 62);
        assert_true(a.checkpoint.quantized);
        assert_int_equal(a.checkpoint.format, GS_WF_FP8_BLOCK);
        fixture_assert_cache(&a, 1, 253952, 0);
        fixture_assert_cache(&a, 4, 63488, 0);
    }
    const struct gs_arch m27 = fixture_arch_file(files[1]);
    assert_int_equal(m27.max_position_embeddings, 204800);
    fixture_assert_vllm_serving(&m27, 2, 4, 80000000000ULL);
}

/* minimax_m3/README.md (MiniMaxAI/MiniMax-M3, the text config aiconfigurator
 * keeps): per layer attention 106,955,008 (q, o 6144 x 8192; k, v 6144 x
 * 512; per-head q/k norms 256); 57 sparse layers add the indexer 3,932,416
 * (index_q 6144 x 512, index_k 6144 x 128, two norms of 128); 3 dense layers
 * a SwiGLU of 12288 (226,492,416); 57 routed layers the gate 786,432, 128
 * experts of 3 x 6144 x 3072 and a shared one of 3072; norms 2 x 6144; the
 * untied embedding and head 200064 x 6144 each: 426,174,565,632 (model
 * card "~428B" with the vision tower and MTP, which this text config does
 * not describe). Active (4 of 128, no input lookup) 24,733,273,344.
 * e_score_correction_bias: 57 x 128 buffer values. KV 60 x 2 x 4 x 128 x 2
 * = 122,880 B/token, TP 4 (one KV head a GPU) 30,720; the indexer's bf16
 * keys 57 x 128 x 2 = 14,592 on every GPU. */
static void test_minimax_m3(void **state)
{
    (void)state;
    const struct gs_arch a = fixture_arch_file("minimax_m3/MiniMaxAI__MiniMax-M3.json");
    const struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.total, 426174565632ULL);
    assert_int_equal(c.active, 24733273344ULL);
    assert_int_equal(c.attention, 60ULL * 106955008 + 57ULL * 3932416);
    assert_int_equal(c.experts, 57ULL * (786432 + 128ULL * 56623104));
    assert_int_equal(c.mlp, 3ULL * 226492416 + 57ULL * 56623104);
    assert_int_equal(c.norms, 60ULL * 2 * 6144 + 6144);
    assert_int_equal(c.embedding, 200064ULL * 6144);
    assert_int_equal(c.lm_head, 200064ULL * 6144);
    assert_int_equal(c.buffers, 57ULL * 128);
    assert_int_equal(c.mtp, 0);
    assert_int_equal(gs_arch_moe_layers(&a), 57);
    const struct gs_block *moe = gs_arch_moe_block(&a);
    assert_non_null(moe);
    assert_int_equal(moe->mlp.experts, 128);
    assert_int_equal(moe->mlp.top_k, 4);
    assert_int_equal(moe->mlp.shared_width, 3072);
    assert_int_equal(moe->attn.index_heads, 4);
    assert_int_equal(moe->attn.index_head_dim, 128);
    fixture_assert_cache(&a, 1, 122880, 0);
    fixture_assert_cache(&a, 4, 30720, 0);
    assert_int_equal(fixture_layout(&a, 1).indexer_token_bytes, 57ULL * 128 * 2);
    assert_int_equal(fixture_layout(&a, 4).indexer_token_bytes, 57ULL * 128 * 2);
    assert_int_equal(fixture_layout(&a, 1).full_layers, 60);
    fixture_assert_vllm_serving(&a, 4, 8, 141000000000ULL);
    /* sparse_attention_freq must give every layer a 0 or 1 */
    fixture_assert_reader_error(
        "{\"model_type\": \"minimax_m3\", \"hidden_size\": 64, \"vocab_size\": 100,"
        " \"num_hidden_layers\": 2, \"num_attention_heads\": 4, \"num_key_value_heads\": 2,"
        " \"head_dim\": 16, \"intermediate_size\": 32, \"num_local_experts\": 4,"
        " \"num_experts_per_tok\": 2, \"sparse_attention_config\": {\"sparse_num_index_heads\": 2,"
        " \"sparse_index_dim\": 16, \"sparse_attention_freq\": [0]}}",
        "/sparse_attention_config/sparse_attention_freq");
}

/* MiniMax-M3's throughput (perf.c): each sparse layer's KV heads attend sparse_topk_blocks x
 * sparse_block_size = 2,048 tokens (the query's own block among them; vLLM
 * models/minimax_m3/common/ops/index_topk.py, sparse_attn.py), its indexer scores every key; the
 * 3 dense layers attend everything. bf16 at TP 1, one sequence at 131,072 tokens: a decode step
 * reads the dense layers' 3 x 2,048 bytes a token over the context, the sparse layers' 57 x 2,048
 * over 2,048 tokens and the index keys' 14,592 over the context. A prefill token of a
 * 131,072-token prompt costs on average (4 x 64 heads x 128 = 32,768 a attended token, 2 x 4 x 128
 * = 1,024 a scored key) 3 x 32,768 x 65,536 + 57 x (32,768 x (2,048 - 2,048^2 / 262,144) + 1,024
 * x 65,536) attention FLOPs; the rest is 2 x the active parameters. */
static void test_minimax_m3_throughput(void **state)
{
    (void)state;
    const struct gs_arch a = fixture_arch_file("minimax_m3/MiniMaxAI__MiniMax-M3.json");
    const struct gs_kv_layout kv = fixture_layout(&a, 1);
    assert_int_equal(kv.full_token_bytes, 60 * 2048);
    assert_int_equal(kv.topk_token_bytes, 57 * 2048);
    assert_int_equal(kv.topk_tokens, 2048);
    struct fixture_perf p;
    fixture_perf_one_sequence(&p, &a, &kv, 131072);
    struct gs_decode_result r;
    assert_true(gs_perf_decode(&p.in, &p.gpu, &p.eff, &r));
    const double read = 131072.0 * 3 * 2048 + 2048.0 * 57 * 2048 + 131072.0 * 14592;
    if (fabs(r.memory_seconds - read / 3350e9) > 1e-9 * read / 3350e9)
        fail_msg("memory_seconds %.9g, want %.9g", r.memory_seconds, read / 3350e9);
    const double flops = 3 * 32768.0 * 65536 + 57 * (32768.0 * 2032 + 1024.0 * 65536);
    const double want = flops * 131072 / gs_perf_peak_flops(&p.gpu, GS_REGIME_BF16_MIXED);
    const double got = gs_perf_prefill_seconds(&p.in, &p.gpu, &p.eff);
    if (fabs(got - want) > 1e-9 * want)
        fail_msg("prefill %.9g s, want %.9g", got, want);
}

/* vLLM's MiniMaxM3Model.__init__ (models/minimax_m3/nvidia/model.py, PR #45892) allocates one
 * topk_indices_buffer: int32 [max(1, sparse_num_index_heads 4 // tp), max_num_batched_tokens
 * rounded up to 4, sparse_topk_blocks 16]; the ROCm model does not round. By hand: TP 1, 8,192
 * tokens: 4 x 8,192 x 16 x 4 = 2,097,152 bytes; TP 2: 1,048,576; TP 8 keeps one head:
 * 524,288; 8,190 tokens round to 8,192 on NVIDIA, stay 8,190 on ROCm (4 x 8,190 x 64 =
 * 2,096,640). A DeepSeek model picks tokens, not blocks: none. */
static void test_minimax_m3_vllm_buffer(void **state)
{
    (void)state;
    const struct gs_arch a = fixture_arch_file("minimax_m3/MiniMaxAI__MiniMax-M3.json");
    bool ovf = false;
    assert_int_equal(gs_vllm_block_topk_buffer_bytes(&a, 8192, 1, false, &ovf), 2097152);
    assert_int_equal(gs_vllm_block_topk_buffer_bytes(&a, 8192, 2, false, &ovf), 1048576);
    assert_int_equal(gs_vllm_block_topk_buffer_bytes(&a, 8192, 8, false, &ovf), 524288);
    assert_int_equal(gs_vllm_block_topk_buffer_bytes(&a, 8190, 1, false, &ovf), 2097152);
    assert_int_equal(gs_vllm_block_topk_buffer_bytes(&a, 8190, 1, true, &ovf), 2096640);
    const struct gs_arch v32 = fixture_arch_file("deepseek_v32/deepseek-ai__DeepSeek-V3.2.json");
    assert_int_equal(gs_vllm_block_topk_buffer_bytes(&v32, 8192, 1, false, &ovf), 0);
    assert_false(ovf);

    /* in an estimate at TP 8 (one index head a GPU): counted with the weights vLLM loads */
    struct gs_inference_input in = fixture_vllm_one_sequence(&a, 8, 150000000000ULL);
    struct gs_inference_result r;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_int_equal(r.budget.sparse_buffer_bytes, (r.max_num_batched_tokens + 3) / 4 * 4 * 16 * 4);
}

/* Hy3 (hy_v3; modular_hy_v3.py), HYV3Config's defaults (the docstring's tencent/Hy3-preview): h
 * 4,096, 80 layers of 64 heads and 8 KV heads of 128, V 120,832, untied; layer 0 dense (13,312),
 * 79 sparse (192 experts of 1,536, top 8, one shared expert). By hand, attention a layer: q and
 * o 2 x 4,096 x 8,192 + k and v 2 x 4,096 x 1,024 + q_norm and k_norm 2 x 128 = 75,497,728;
 * norms 8,192. Dense layer: + 3 x 4,096 x 13,312 = 239,083,776. Sparse: 192 x 3 x 4,096 x 1,536
 * = 3,623,878,656 + the router 192 x 4,096 = 786,432 + the shared 3 x 4,096 x 1,536 =
 * 18,874,368: 3,719,045,376. 239,083,776 + 79 x 3,719,045,376 + 2 x 494,927,872 + 4,096 =
 * 295,033,528,320; active (8 experts, no lookup): 79 x 246,161,664 + 239,083,776 + 494,927,872 +
 * 4,096 = 20,180,787,200; 79 x 192 correction-bias buffers. The generic reader said
 * 297,003,520,000 (every layer routed, no shared expert, no q/k norms). KV 80 x 2 x 8 x 128 x 2
 * = 327,680 B a token. */
static void test_hy_v3(void **state)
{
    (void)state;
    const struct gs_arch a = fixture_arch(
        "%s", "{\"model_type\":\"hy_v3\",\"architectures\":[\"HYV3ForCausalLM\"],\"vocab_size\":"
              "120832,\"hidden_size\":4096,\"intermediate_size\":13312,\"num_hidden_layers\":80,"
              "\"num_attention_heads\":64,\"num_key_value_heads\":8,\"head_dim\":128,\"hidden_"
              "act\":\"silu\",\"max_position_embeddings\":131072,\"rms_norm_eps\":1e-5,\"tie_word_"
              "embeddings\":false,\"attention_bias\":false,\"mlp_bias\":false,\"num_experts\":192,"
              "\"num_experts_per_tok\":8,\"num_shared_experts\":1,\"moe_intermediate_size\":1536,"
              "\"router_scaling_factor\":2.826,\"enable_moe_fp32_combine\":true}");
    const struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.total, 295033528320ULL);
    assert_int_equal(c.active, 20180787200ULL);
    assert_int_equal(c.buffers, 79 * 192);
    assert_string_equal(a.approximate, "");
    assert_int_equal(gs_arch_moe_layers(&a), 79);
    assert_int_equal(fixture_layout(&a, 1).bytes_per_token, 327680);
    for (size_t k = 0; k < a.block_count; k++)
        if (a.blocks[k].mlp.kind == GS_MLP_MOE) {
            assert_true(a.blocks[k].mlp.router_parameter);
            assert_true(a.blocks[k].mlp.router_fp32);
        }
    /* a listed pattern wins: every layer sparse */
    const struct gs_arch all = fixture_arch(
        "{\"model_type\": \"hy_v3\", \"vocab_size\": 1000, \"hidden_size\": 64,"
        " \"intermediate_size\": 256, \"num_hidden_layers\": 2, \"num_attention_heads\": 4,"
        " \"num_key_value_heads\": 2, \"head_dim\": 16, \"num_experts\": 4,"
        " \"num_experts_per_tok\": 2, \"moe_intermediate_size\": 32,"
        " \"mlp_layer_types\": [\"sparse\", \"sparse\"]}");
    assert_int_equal(gs_arch_moe_layers(&all), 2);
}

/* Every type of the file's table is one models_supported() lists. */
static void test_types_listed(void **state)
{
    (void)state;
    const char *types = models_supported();
    assert_non_null(strstr(types, "hunyuan_v1_dense"));
    assert_non_null(strstr(types, "hunyuan_v1_moe"));
    assert_non_null(strstr(types, "mimo_v2_flash"));
    assert_non_null(strstr(types, "minimax_m3"));
    assert_non_null(strstr(types, "exaone4"));
    assert_non_null(strstr(types, "hy_v3"));
}

/* Inkling (inkling_mm_model; modeling_inkling.py), InklingConfig's defaults with the published
 * encoder's four vision layers (vision_config n_layers 4). Text, h 6,144:
 *   sliding layer (64 heads, 16 KV heads of 128): q 6,144 x 8,192 = 50,331,648, k and v 6,144 x
 *     2,048 = 12,582,912 each, r_proj 6,144 x 64 x 16 = 6,291,456, o 50,331,648, k/v short convs
 *     2 x 2,048 x 4 = 16,384, q/k norms 256, the bias bank 16 x 512 = 8,192: 132,145,408;
 *   full layer (8 KV heads): k and v 6,291,456 each, convs 2 x 1,024 x 4, bank 16 x 1,024:
 *     119,562,496;
 *   the MoE: router (256 + 2) x 6,144 = 1,585,152 + global_scale 1 + correction bias 256,
 *     experts 256 x 3 x 6,144 x 3,072 = 14,495,514,624, two shared 3 x 2 x 3,072 x 6,144 =
 *     113,246,208: 14,610,346,241; the layer's stream convs 2 x 6,144 x 4 and norms 2 x 6,144:
 *     61,440.
 *   55 x 14,742,553,089 + 11 x 14,729,970,177 = 972,870,091,842, + embedding and untied head 2 x
 *     201,024 x 6,144 = 2,470,182,912, embed_norm and norm 12,288: 975,340,287,042 ("975B").
 * Vision: plan_out_scales(2, 40, 4, 3) picks the grids (1,1,3), (1,5,128), (1,10,320), (1,40,4800),
 * (2,40,9600); linears 75 -> 128, 512 -> 320, 5,120 -> 4,800, 9,600 -> 6,144 and norms 128, 320,
 * 4,800 and the final 6,144: 83,743,232. Audio: 80 x 256 x 6,144 + 6,144 = 125,835,264. Total
 * 975,549,865,538. Active (6 of 256 experts, the lookup aside): 55 x 586,777,089 + 11 x
 * 574,194,177 + the head and two norms = 39,823,979,586 (41,059,071,042 with the embedding: the
 * card's "41B active"). KV a token at bf16: 11 x 2 x 8 x 128 x 2 + 55 x 2 x 16 x 128 x 2 = 45,056
 * + 450,560; TP 8: one KV head on the full layers, two on the sliding: 61,952. The four
 * convolutions' windows a sequence: (2 x 2,048 + 2 x 6,144) x 3 x 2 = 98,304 a sliding layer,
 * (2 x 1,024 + 2 x 6,144) x 3 x 2 = 86,016 a full one: 6,352,896. The class's own 24 vision
 * layers, planned with SGLang's and vLLM's channel rounding, come to 411,398,192. */
static void test_inkling(void **state)
{
    (void)state;
    const struct gs_arch a = fixture_arch(
        "{\"model_type\": \"inkling_mm_model\", \"vision_config\": {\"n_layers\": 4}}");
    const struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.total, 975549865538ULL);
    assert_int_equal(c.total - c.vision - c.audio, 975340287042ULL);
    assert_int_equal(c.vision, 83743232ULL);
    assert_int_equal(c.audio, 125835264ULL);
    assert_int_equal(c.lm_head, 201024ULL * 6144);
    assert_int_equal(c.active, 39823979586ULL);
    assert_int_equal(gs_arch_moe_layers(&a), 66);
    const struct gs_block *sliding = &a.blocks[a.layer_block[0]],
                          *full = &a.blocks[a.layer_block[5]];
    assert_int_equal(sliding->attn.span, GS_SPAN_SLIDING);
    assert_int_equal(sliding->attn.window, 512);
    assert_int_equal(sliding->attn.kv_heads, 16);
    assert_int_equal(full->attn.span, GS_SPAN_FULL);
    assert_int_equal(full->attn.kv_heads, 8);
    assert_true(full->attn.position_bias && full->rec.conv_fp32);
    const struct gs_kv_layout k = fixture_layout(&a, 1);
    assert_int_equal(k.bytes_per_token, 45056 + 450560);
    assert_int_equal(k.full_layers, 11);
    assert_int_equal(k.window_layers, 55);
    assert_int_equal(k.state_bytes_per_sequence, 6352896);
    assert_int_equal(fixture_layout(&a, 8).bytes_per_token, 61952);
    const struct gs_arch planned = fixture_arch("{\"model_type\": \"inkling_mm_model\"}");
    assert_int_equal(fixture_count(&planned).vision, 411398192ULL);
    /* layer_types from local_layer_ids, the rest full; a dense layer from dense_mlp_idx */
    const struct gs_arch ids = fixture_arch(
        "{\"model_type\": \"inkling_text\", \"num_hidden_layers\": 4, \"local_layer_ids\": [1],"
        " \"dense_mlp_idx\": 1}");
    assert_int_equal(fixture_layout(&ids, 1).window_layers, 1);
    assert_int_equal(gs_arch_moe_layers(&ids), 3);
    fixture_assert_reader_error("{\"model_type\": \"inkling_text\", \"num_hidden_layers\": 2,"
                                " \"layer_types\": [\"hybrid\", \"sliding\"]}",
                                "/layer_types");
    fixture_assert_reader_error("{\"model_type\": \"inkling_mm_model\", \"vision_config\":"
                                " {\"n_layers\": 40}}",
                                "/vision_config/n_layers");
}

/* ZAYA1 (zaya; modeling_zaya.py), ZayaConfig's defaults, Zyphra/ZAYA1-8B's shapes. A layer,
 * h 2,048: CCA q 2,048 x 1,024 = 2,097,152, k 2,048 x 256 = 524,288, v current and delayed 2,048
 * x 128 each, the depthwise conv 1,280 x 2 + 1,280 = 3,840, the grouped conv 1,280 x 128 x 2 +
 * 1,280 = 328,960, the key temperatures 2, o 1,024 x 2,048: 5,575,682; the router: down_proj
 * 2,048 x 256 + 256, the EDA scale 256 (not layer 0), its MLP's norm 256, fc1 and fc2 256 x 256 +
 * 256 each, out_proj 256 x 17: 660,992 (660,736 on layer 0); 16 experts of 3 x 2,048 x 2,048 =
 * 201,326,592; two norms 4,096 and two residual scalings 4 x 2,048 each, 16,384: 207,583,746 a
 * layer, 40 x that - 256 = 8,303,349,584; + the tied embedding 262,272 x 2,048 = 537,133,056, the
 * input scale and bias 4,096 and the norm 2,048: 8,840,488,784. Active (1 of 16 experts):
 * 8,840,488,784 - 40 x 15 x 12,582,912 = 1,290,741,584. Buffers: 40 x 17 balancing biases. KV
 * 40 x 2 x 2 x 128 x 2 = 40,960 B a token; a sequence's CCA state (1,280 x 2 + 128) x 2 x 40 =
 * 215,040 B. */
static void test_zaya(void **state)
{
    (void)state;
    const struct gs_arch a = fixture_arch("{\"model_type\": \"zaya\"}");
    const struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.total, 8840488784ULL);
    assert_int_equal(c.active, 1290741584ULL);
    assert_int_equal(c.embedding, 537133056ULL);
    assert_int_equal(c.lm_head, 0);
    assert_int_equal(c.attention, 40ULL * 5575682);
    assert_int_equal(c.buffers, 40 * 17);
    assert_true(a.residual_fp32);
    assert_int_equal(gs_arch_moe_layers(&a), 40);
    const struct gs_kv_layout k = fixture_layout(&a, 1);
    assert_int_equal(k.bytes_per_token, 40960);
    assert_int_equal(k.state_bytes_per_sequence, 215040);
    fixture_assert_vllm_serving(&a, 8, 1, 80000000000ULL);
    fixture_assert_reader_error("{\"model_type\": \"zaya\", \"num_experts_per_tok\": 2}",
                                "/num_experts_per_tok");
}

/* DBRX Instruct (dbrx; the fixture's README), by hand, h = 6,144: Wqkv 6,144 x (6,144 + 2 x 8 x
 * 128) = 50,331,648, out_proj 37,748,736, 16 experts of w1, v1 and w2 3 x 10,752 x 6,144 =
 * 198,180,864 each (3,170,893,824), the router 6,144 x 16 = 98,304, norm_1/norm_2 12,288:
 * 3,259,084,800 a layer, x 40 = 130,363,392,000; wte and the untied head 2 x 100,352 x 6,144 =
 * 1,233,125,376, norm_f 6,144: 131,596,523,520 (the card's 132B). Active: 12 experts fewer a layer
 * and the embedding: 131,596,523,520 - 40 x 12 x 198,180,864 - 616,562,688 = 35,853,146,112
 * (36B). KV: 40 x 2 x 8 x 128 x 2 B = 163,840 a token. */
static void test_dbrx(void **state)
{
    (void)state;
    const struct gs_arch a = fixture_arch_file("dbrx/databricks__dbrx-instruct.json");
    const struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.total, 131596523520ULL);
    assert_int_equal(c.active, 35853146112ULL);
    assert_int_equal(fixture_layout(&a, 1).bytes_per_token, 163840);
    fixture_assert_reader_error(
        "{\"model_type\": \"dbrx\", \"ffn_config\": {\"moe_num_experts\": 4,"
        " \"moe_top_k\": 5}}",
        "/ffn_config");
}

/* Bailing (bailing_moe, bailing_moe_linear) by hand.
 * Ling-lite-1.5 (the fixture; v1, every layer routed): attention query_key_value 2,048 x 24 x 128 =
 * 6,291,456 and dense 2,048^2 = 4,194,304, norms 4,096; 64 experts 3 x 2,048 x 1,408 = 553,648,128,
 * the shared MLP 2 x 1,408 wide 17,301,504, the gate 131,072: 581,570,560 a layer, x 28 =
 * 16,283,975,680; embedding and head 2 x 126,464 x 2,048 = 517,996,544, the norm 2,048:
 * 16,801,974,272 (16.8B).
 * Ling-flash-2.0's shapes (h 4,096, 32 layers, 32 heads and 4 KV heads of 128, dense layer 0 of
 * 9,216, 256 experts of 1,024, one shared of 1,024, q/k norms, expert_bias): attention 20,971,520 +
 * 16,777,216 + 256 = 37,748,992, norms 8,192; the dense MLP 113,246,208; the MoE 3,221,225,472 +
 * 12,582,912 + 1,048,576 = 3,234,856,960; 32 x 37,757,184 + 113,246,208 + 31 x 3,234,856,960 +
 * 2 x 157,184 x 4,096 + 4,096 = 102,889,697,280 and 31 x 256 stored expert_bias values: the Hub's
 * safetensors count (BF16 102,889,697,280, F32 7,936); no MTP layer though the config names one.
 * Ring-mini-linear-2.0 (layer_group_size 5: layers 4, 9, 14, 19 full): a linear layer's
 * query_key_value 3 x 16 x 128 x 2,048 = 12,582,912, g_proj and dense 2 x 4,194,304, g_norm 2,048
 * and q/k norms 256 (20,973,824); a full layer's 10,486,016; 20 x 4,096 norms, the dense MLP
 * 31,457,280, 19 MoE layers of 808,976,384, embedding and head 643,825,664, the norm 2,048:
 * 16,423,443,456 and 19 x 256 expert_bias values. Its linear layers hold 16 x 128 x 128 x 2 B a
 * sequence each: 8,388,608 with the 4 full layers' KV, 8,192 B a token. */
static void test_bailing(void **state)
{
    (void)state;
    struct gs_arch a = fixture_arch_file("bailing_moe/inclusionAI__Ling-lite-1.5.json");
    assert_int_equal(fixture_count(&a).total, 16801974272ULL);
    assert_int_equal(fixture_layout(&a, 1).bytes_per_token, 28 * 2 * 4 * 128 * 2);
#define BAILING                                                                                    \
    "{\"model_type\": \"%s\", \"hidden_size\": %d, \"num_hidden_layers\": %d,"                     \
    " \"num_attention_heads\": %d, \"num_key_value_heads\": 4, \"head_dim\": 128,"                 \
    " \"intermediate_size\": %d, \"first_k_dense_replace\": 1, \"num_experts\": 256,"              \
    " \"num_experts_per_tok\": 8, \"moe_intermediate_size\": %d,"                                  \
    " \"moe_shared_expert_intermediate_size\": %d, \"num_shared_experts\": 1,"                     \
    " \"vocab_size\": 157184, \"tie_word_embeddings\": false, \"use_qk_norm\": true,"              \
    " \"moe_router_enable_expert_bias\": true, \"use_bias\": false, \"use_qkv_bias\": false,"      \
    " \"num_nextn_predict_layers\": %d, \"layer_group_size\": 5}"
    a = fixture_arch(BAILING, "bailing_moe", 4096, 32, 32, 9216, 1024, 1024, 1);
    struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.total, 102889697280ULL);
    assert_int_equal(c.buffers, 7936);
    assert_int_equal(c.mtp, 0);
    a = fixture_arch(BAILING, "bailing_moe_linear", 2048, 20, 16, 5120, 512, 512, 0);
    c = fixture_count(&a);
    assert_int_equal(c.total, 16423443456ULL);
    assert_int_equal(c.buffers, 19 * 256);
    fixture_assert_cache(&a, 1, 4 * 2 * 4 * 128 * 2, 16ULL * 16 * 128 * 128 * 2);
#undef BAILING
    /* use_bias unstated: the remote config classes' true */
    a = fixture_arch(
        "{\"model_type\": \"bailing_moe\", \"hidden_size\": 64, \"num_hidden_layers\": 1,"
        " \"num_attention_heads\": 4, \"intermediate_size\": 128, \"num_experts\": 2,"
        " \"num_experts_per_tok\": 1, \"moe_intermediate_size\": 32, \"vocab_size\": 100}");
    assert_int_equal(fixture_count(&a).total, (3 * 64 * 64 + 192) + (64 * 64 + 64) +
                                                  2 * (3 * 64 * 32 + 2 * 32 + 64) + 2 * 64 + 128 +
                                                  2 * 100 * 64 + 64);
}

/* Bailing hybrid (bailing_hybrid) by hand (the fixtures' README): Ling-3.0-tiny
 * (BailingMoeV3ForCausalLM, KDA and gated MLA) 7,893,389,856 parameters and 2,944 expert_bias
 * values; its cache 6 x 576 x 2 = 6,912 B a token and 18 x (3 x 2,048 x 3 x 2 + 16 x 128^2 x 4) =
 * 19,537,920 B a sequence. Ling-2.6-flash (BailingMoeV2_5ForCausalLM, lightning attention and MLA)
 * 104,186,907,648 and 7,936, its MTP layer 3,307,493,376 + 256; 4 x 1,152 = 4,608 B a token and
 * 28 x 32 x 128^2 x 2 = 29,360,128 B a sequence, halved per GPU at tensor parallelism 2 (the MLA
 * latent is not split). */
static void test_bailing_hybrid(void **state)
{
    (void)state;
    struct gs_arch a = fixture_arch_file("bailing_hybrid/inclusionAI__Ling-3.0-tiny.json");
    struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.total, 7893389856ULL);
    assert_int_equal(c.buffers, 23 * 128);
    assert_int_equal(c.mtp, 0);
    fixture_assert_parts_sum(&c);
    fixture_assert_kinds(&a, (struct fixture_kinds){.mla = 6, .recurrent = 18, .moe = 23});
    fixture_assert_cache(&a, 1, 6912, 19537920);
    a = fixture_arch_file("bailing_hybrid/inclusionAI__Ling-2.6-flash.json");
    c = fixture_count(&a);
    assert_int_equal(c.total, 104186907648ULL);
    assert_int_equal(c.buffers, 7936);
    assert_int_equal(c.mtp, 3307493376ULL + 256);
    fixture_assert_kinds(&a, (struct fixture_kinds){.mla = 4, .recurrent = 28, .moe = 31});
    fixture_assert_cache(&a, 1, 4608, 29360128);
    fixture_assert_cache(&a, 2, 4608, 29360128 / 2);
    /* group_norm_size 4: vLLM serves it at TP 4, not 8 (BailingMoELinearAttention's assert) */
    fixture_assert_vllm_serving(&a, 4, 4, 141ULL << 30);
    {
        const struct gs_model_spec m = fixture_spec(&a);
        const struct gs_workload w = fixture_vllm_workload(1, 4096, 8, 141ULL << 30);
        static struct gs_estimate e;
        struct gs_error err;
        gs_error_init(&err);
        assert_int_equal(gs_estimate_compute(&m, &w, &e, &err), GS_ERR_INVALID);
        assert_string_equal(err.items[0].pointer, "/parallelism/tensor");
    }
    /* Ling 3.0's tail rule (vLLM _is_kda_layer): 10 layers in groups of 4 make layers 3, 7, 8 and
     * 9 MLA; Ling 2.5's vLLM model has none: 3 and 7 */
#define TAIL(arch)                                                                                 \
    "{\"model_type\": \"bailing_hybrid\", \"architectures\": [\"" arch "\"],"                      \
    " \"hidden_size\": 64, \"intermediate_size\": 128, \"num_hidden_layers\": 10,"                 \
    " \"num_attention_heads\": 4, \"head_dim\": 16, \"vocab_size\": 100, \"num_experts\": 4,"      \
    " \"num_experts_per_tok\": 2, \"moe_intermediate_size\": 32, \"num_shared_experts\": 1,"       \
    " \"moe_shared_expert_intermediate_size\": 32, \"first_k_dense_replace\": 1,"                  \
    " \"layer_group_size\": 4, \"short_conv_kernel_size\": 4, \"kv_lora_rank\": 32,"               \
    " \"qk_rope_head_dim\": 8, \"qk_nope_head_dim\": 16, \"v_head_dim\": 16}"
    a = fixture_arch(TAIL("BailingMoeV3ForCausalLM"));
    fixture_assert_kinds(&a, (struct fixture_kinds){.mla = 4, .recurrent = 6, .moe = 9});
    a = fixture_arch(TAIL("BailingMoeV2_5ForCausalLM"));
    fixture_assert_kinds(&a, (struct fixture_kinds){.mla = 2, .recurrent = 8, .moe = 9});
#undef TAIL
    /* BailingMoeV2_5Config's defaults: layer_group_size 5 (20 layers: 4 MLA), head_dim 128, 256
     * experts of 512, one shared, q/k norms, expert_bias. A lightning layer: query_key_value
     * 3 x 2,048 x 2,048, g_proj and dense 2 x 2,048^2, g_norm 2,048, q/k norms 256 = 20,973,824;
     * an MLA layer (q_lora_rank none): q_proj 2,048 x 16 x 192 = 6,291,456, kv_a_proj_with_mqa
     * 2,048 x 576 = 1,179,648, kv_a_layernorm 512, kv_b_proj 512 x 16 x 256 = 2,097,152, dense
     * 2,048^2 = 4,194,304: 13,763,072; the MoE 256 x 3 x
     * 2,048 x 512 + 256 x 2,048 + 3 x 2,048 x 512 = 808,976,384; the dense layer 3 x 2,048 x
     * 5,120 = 31,457,280 */
    a = fixture_arch("{\"model_type\": \"bailing_hybrid\", \"architectures\":"
                     " [\"BailingMoeV2_5ForCausalLM\"], \"hidden_size\": 2048,"
                     " \"intermediate_size\": 5120, \"num_hidden_layers\": 20,"
                     " \"num_attention_heads\": 16, \"vocab_size\": 157184}");
    c = fixture_count(&a);
    assert_int_equal(c.total, 20ULL * 4096 + 16ULL * 20973824 + 4ULL * 13763072 + 31457280 +
                                  19ULL * 808976384 + 2ULL * 157184 * 2048 + 2048);
    assert_int_equal(c.buffers, 19 * 256);
    fixture_assert_reader_error("{\"model_type\": \"bailing_hybrid\", \"architectures\":"
                                " [\"BailingHybridForCausalLM\"], \"hidden_size\": 64}",
                                "/architectures");
    fixture_assert_reader_error(
        "{\"model_type\": \"bailing_hybrid\", \"architectures\": [\"BailingMoeV3ForCausalLM\"],"
        " \"hidden_size\": 64, \"intermediate_size\": 128, \"num_hidden_layers\": 4,"
        " \"num_attention_heads\": 4, \"head_dim\": 16, \"vocab_size\": 100, \"num_experts\": 4,"
        " \"num_experts_per_tok\": 2, \"moe_intermediate_size\": 32, \"num_shared_experts\": 1,"
        " \"moe_shared_expert_intermediate_size\": 32, \"first_k_dense_replace\": 1,"
        " \"layer_group_size\": 4, \"short_conv_kernel_size\": 4, \"no_kda_lora\": false}",
        "/no_kda_lora");
}

/* Mellum (mellum; modular_mellum.py) with MellumConfig's defaults (the class documents
 * JetBrains/Mellum2-12B-A2.5B-Base), by hand, h = 2,304: attention q and o 2 x 2,304 x 4,096,
 * k and v 2 x 2,304 x 512, q/k norms 256 (21,233,920), norms 4,608; 64 experts of
 * 3 x 2,304 x 896 and the router 2,304 x 64 (396,509,184): 417,747,712 a layer, x 28 =
 * 11,696,935,936, + embedding and head 2 x 98,304 x 2,304 + the norm: 12,149,923,072 (12B).
 * With mlp_layer_types naming two dense layers of 7,168 (3 x 2,304 x 7,168 = 49,545,216 each for
 * 396,509,184): 11,455,995,136; layer_types' sliding layers window their KV. */
static void test_mellum(void **state)
{
    (void)state;
#define MELLUM(extra)                                                                              \
    "{\"model_type\": \"mellum\", \"vocab_size\": 98304, \"hidden_size\": 2304,"                   \
    " \"intermediate_size\": 7168, \"num_hidden_layers\": 28, \"num_attention_heads\": 32,"        \
    " \"num_key_value_heads\": 4, \"moe_intermediate_size\": 896, \"num_experts_per_tok\": 8,"     \
    " \"num_experts\": 64" extra "}"
    struct gs_arch a = fixture_arch(MELLUM(""));
    assert_int_equal(fixture_count(&a).total, 12149923072ULL);
    a = fixture_arch(
        MELLUM(", \"mlp_layer_types\": [\"dense\", \"dense\", \"sparse\", \"sparse\","
               " \"sparse\", \"sparse\", \"sparse\", \"sparse\", \"sparse\", \"sparse\","
               " \"sparse\", \"sparse\", \"sparse\", \"sparse\", \"sparse\", \"sparse\","
               " \"sparse\", \"sparse\", \"sparse\", \"sparse\", \"sparse\", \"sparse\","
               " \"sparse\", \"sparse\", \"sparse\", \"sparse\", \"sparse\", \"sparse\"]"));
    assert_int_equal(fixture_count(&a).total, 11455995136ULL);
#undef MELLUM
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mellum),
        cmocka_unit_test(test_bailing),
        cmocka_unit_test(test_bailing_hybrid),
        cmocka_unit_test(test_dbrx),
        cmocka_unit_test(test_hunyuan_dense),
        cmocka_unit_test(test_hunyuan_moe),
        cmocka_unit_test(test_hunyuan_refusals),
        cmocka_unit_test(test_mimo_v2_flash),
        cmocka_unit_test(test_afmoe),
        cmocka_unit_test(test_exaone_moe),
        cmocka_unit_test(test_minimax_m2_successors),
        cmocka_unit_test(test_minimax_m3),
        cmocka_unit_test(test_minimax_m3_throughput),
        cmocka_unit_test(test_minimax_m3_vllm_buffer),
        cmocka_unit_test(test_exaone4),
        cmocka_unit_test(test_hy_v3),
        cmocka_unit_test(test_inkling),
        cmocka_unit_test(test_zaya),
        cmocka_unit_test(test_types_listed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
