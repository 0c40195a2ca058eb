/*
 * test_models_gemma.c - the readers of server/readers/gemma.c: exact parameter
 * counts against transformers' count (published figures or written-out
 * arithmetic in tests/fixtures/configs/<model_type>/README.md), active
 * parameters, the vision and audio parts, KV cache bytes per token at bf16
 * (tensor parallelism 1 and 2, with and without layers that share an earlier
 * layer's keys and values), and that a vLLM serving estimate runs.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "arch_fixture.h"
#include "gs/estimate.h"
#include "gs/inference.h"
#include "gs/model_support.h"
#include "readers/models.h"

#include <stdio.h>
#include <string.h>

/* ------------------------------------------------------------ helpers */

/* Decoder layers whose attention keeps its own cache, and those that read
 * an earlier layer's. */
static void assert_shared_layers(const struct gs_arch *a, uint64_t own, uint64_t shared)
{
    uint64_t counts[GS_BLOCKS_MAX];
    gs_arch_count_blocks(a, 0, a->num_hidden_layers, counts);
    uint64_t o = 0, s = 0;
    for (size_t b = 0; b < a->block_count; b++) {
        if (a->blocks[b].mixer != GS_MIXER_ATTENTION)
            continue;
        if (a->blocks[b].attn.kv_shared)
            s += counts[b];
        else
            o += counts[b];
    }
    assert_int_equal(o, own);
    assert_int_equal(s, shared);
}

/* layer_types of `layers` entries, every `period`-th full, as JSON. */
static void layer_types(char *out, size_t cap, unsigned layers, unsigned period)
{
    size_t n = (size_t)snprintf(out, cap, "[");
    for (unsigned l = 0; l < layers && n < cap; l++)
        n += (size_t)snprintf(out + n, cap - n, "%s\"%s\"", l ? "," : "",
                              (l + 1) % period ? "sliding_attention" : "full_attention");
    if (n < cap)
        snprintf(out + n, cap - n, "]");
}

/* An E-series Gemma 4 (gemma4/README.md, "E2B and E4B"): the text shapes
 * given, with the vision (16 layers of 768, 12 heads of 64) and audio
 * (Gemma4AudioConfig's defaults) towers both E models ship. */
static struct gs_arch gemma4_e_series(unsigned hidden, unsigned layers, unsigned kv_heads,
                                      unsigned intermediate, unsigned shared, unsigned period,
                                      bool double_wide)
{
    char types[64 * 24];
    layer_types(types, sizeof(types), layers, period);
    return fixture_arch(
        "{\"architectures\": [\"Gemma4ForConditionalGeneration\"], \"model_type\": \"gemma4\","
        " \"tie_word_embeddings\": true, \"vision_soft_tokens_per_image\": 280,"
        " \"text_config\": {\"hidden_size\": %u, \"num_hidden_layers\": %u,"
        " \"num_attention_heads\": 8, \"num_key_value_heads\": %u, \"head_dim\": 256,"
        " \"global_head_dim\": 512, \"num_global_key_value_heads\": null,"
        " \"attention_k_eq_v\": false, \"sliding_window\": 512, \"vocab_size\": 262144,"
        " \"vocab_size_per_layer_input\": 262144, \"hidden_size_per_layer_input\": 256,"
        " \"num_kv_shared_layers\": %u, \"use_double_wide_mlp\": %s,"
        " \"intermediate_size\": %u, \"max_position_embeddings\": 131072,"
        " \"enable_moe_block\": false, \"layer_types\": %s},"
        " \"vision_config\": {\"hidden_size\": 768, \"intermediate_size\": 3072,"
        " \"num_hidden_layers\": 16, \"num_attention_heads\": 12, \"num_key_value_heads\": 12,"
        " \"head_dim\": 64, \"patch_size\": 16, \"pooling_kernel_size\": 3,"
        " \"position_embedding_size\": 10240, \"use_clipped_linears\": true},"
        " \"audio_config\": {\"hidden_size\": 1024, \"num_hidden_layers\": 12,"
        " \"num_attention_heads\": 8, \"subsampling_conv_channels\": [128, 32],"
        " \"conv_kernel_size\": 5, \"output_proj_dims\": 1536}}",
        hidden, layers, kv_heads, shared, double_wide ? "true" : "false", intermediate, types);
}

/* ------------------------------------------------------------ gemma4 */

/* gemma4/README.md: google/gemma-4-26B-A4B. 30 layers of h 2816: 25 sliding
 * (16 heads, 8 KV heads of 256) and 5 full (heads of 512, 2 KV heads, K = V
 * so no v_proj); each a GeGLU MLP of 2112 beside 128 experts of 704 (top 8).
 * Text 25,233,141,760 (card "25.2B total"), vision 569,548,080 + projector
 * 3,244,032 = 572,792,112; total 25,805,933,872. Active (tied head, so the
 * embedding counts as the head): text minus 120 idle experts x 5,947,392 x 30
 * = 3,822,530,560 (card "3.8B active"). KV at bf16: 25 x 8 x 512 x 2 + 5 x 2 x
 * 1024 x 2 = 225,280 B/token; TP 2: 112,640 (TP 4 replicates the 2 global KV
 * heads: 25 x 2 x 512 x 2 + 5 x 1 x 1024 x 2 = 61,440). */
static void test_gemma4_26b_a4b(void **state)
{
    (void)state;
    const struct gs_arch a = fixture_arch_file("gemma4/google__gemma-4-26B-A4B.json");
    const struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.total, 25805933872ULL);
    assert_int_equal(c.total - c.vision, 25233141760ULL);
    assert_int_equal(c.vision, 572792112ULL);
    assert_int_equal(c.audio, 0);
    assert_int_equal(c.embedding, 738197504ULL);
    assert_int_equal(c.lm_head, 0);
    assert_int_equal(c.attention, 1110197760ULL);
    assert_int_equal(c.mlp, 535265280ULL);
    assert_int_equal(c.experts, 22848887040ULL);
    assert_int_equal(c.norms, 594176ULL);
    assert_int_equal(c.active, 3822530560ULL);
    assert_int_equal(gs_arch_moe_layers(&a), 30);
    assert_shared_layers(&a, 30, 0);
    /* the full layers: 512-wide heads, 2 KV heads, k_proj but no v_proj */
    const struct gs_block *full = &a.blocks[a.layer_block[5]];
    assert_int_equal(full->attn.head_dim, 512);
    assert_int_equal(full->attn.kv_heads, 2);
    assert_int_equal(full->attn.span, GS_SPAN_FULL);
    assert_int_equal(a.blocks[a.layer_block[0]].attn.window, 1024);
    const struct gs_kv_layout kv = fixture_layout(&a, 1);
    assert_int_equal(kv.bytes_per_token, 225280);
    assert_int_equal(kv.full_token_bytes, 20480);
    assert_int_equal(kv.full_layers, 5);
    assert_int_equal(kv.window_layers, 25);
    assert_int_equal(fixture_layout(&a, 2).bytes_per_token, 112640);
    assert_int_equal(fixture_layout(&a, 4).bytes_per_token, 61440);
    assert_int_equal(kv.state_bytes_per_sequence, 0);
    /* 280 soft tokens of 9 pooled 16 x 16 RGB patches */
    assert_int_equal(a.mm_image.tokens, 280);
    assert_int_equal(a.mm_image.pixels, 280ULL * 9 * 768);
    /* 4096 tokens: 256 blocks of the full layers, 1024 + 8192 batched tokens of window */
    const uint64_t seq = fixture_assert_vllm_serving(&a, 8, 1, 141000000000ULL);
    assert_true(seq > 4096ULL * 20480);
}

/* gemma4/README.md: nvidia/Gemma-4-31B-IT-NVFP4, the architecture of
 * google/gemma-4-31B-it. 60 layers of h 5376: 50 sliding (32 heads, 16 KV
 * heads of 256), 10 full (4 KV heads of 512, K = V); GeGLU MLP 21504. Text
 * 30,697,345,280 (card "30.7B"), vision 569,548,080 + 1152 x 5376 =
 * 575,741,232; total 31,273,086,512. Dense and tied: active = text. KV at
 * bf16: 50 x 16 x 512 x 2 + 10 x 4 x 1024 x 2 = 901,120 B/token; TP 2
 * 450,560. */
static void test_gemma4_31b(void **state)
{
    (void)state;
    const struct gs_arch a = fixture_arch_file("gemma4/nvidia__Gemma-4-31B-IT-NVFP4.json");
    const struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.total, 31273086512ULL);
    assert_int_equal(c.vision, 575741232ULL);
    assert_int_equal(c.active, 30697345280ULL);
    assert_int_equal(c.embedding, 1409286144ULL);
    assert_int_equal(c.attention, 8477772800ULL);
    assert_int_equal(c.mlp, 20808990720ULL);
    assert_int_equal(c.experts, 0);
    assert_int_equal(c.norms, 1295616ULL);
    assert_int_equal(gs_arch_moe_layers(&a), 0);
    assert_int_equal(fixture_layout(&a, 1).bytes_per_token, 901120);
    assert_int_equal(fixture_layout(&a, 2).bytes_per_token, 450560);
    /* the NVFP4 checkpoint's quantization_config is read */
    assert_true(a.checkpoint.detail[0] != '\0');
    fixture_assert_vllm_serving(&a, 4, 1, 141000000000ULL);
}

/* gemma4/README.md, "E2B": 35 layers of h 1536, four sliding to one full, 1
 * KV head; the last 20 layers read the KV of layer 13 (sliding) or 14 (full)
 * and have twice-wide MLPs (12288). Text 4,628,569,344 of which the
 * per-layer embedding table is 262144 x 35 x 256 = 2,348,810,240; vision
 * 168,544,256, audio 307,183,904; total 5,104,297,504 (card "5.1B with
 * embeddings"). Active = text minus the per-layer table = 2,279,759,104 (card
 * "2.3B effective"). KV: only the 15 first layers cache, 12 sliding x 1 x 512
 * x 2 + 3 full x 1 x 1024 x 2 = 18,432 B/token (43,008 if the 20 shared layers
 * cached); TP 2 replicates the one KV head: 18,432. */
static void test_gemma4_e2b(void **state)
{
    (void)state;
    const struct gs_arch a = gemma4_e_series(1536, 35, 1, 6144, 20, 5, true);
    const struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.total, 5104297504ULL);
    assert_int_equal(c.vision, 168544256ULL);
    assert_int_equal(c.audio, 307183904ULL);
    assert_int_equal(c.total - c.vision - c.audio, 4628569344ULL);
    assert_int_equal(c.embedding, 402653184ULL + 2348810240ULL);
    assert_int_equal(c.active, 2279759104ULL);
    assert_shared_layers(&a, 15, 20);
    assert_int_equal(a.blocks[a.layer_block[34]].mlp.width, 12288);
    assert_int_equal(a.blocks[a.layer_block[0]].mlp.width, 6144);
    const struct gs_kv_layout kv = fixture_layout(&a, 1);
    assert_int_equal(kv.bytes_per_token, 18432);
    assert_int_equal(kv.full_layers, 3);
    assert_int_equal(kv.window_layers, 12);
    assert_int_equal(fixture_layout(&a, 2).bytes_per_token, 18432);
    fixture_assert_vllm_serving(&a, 16, 1, 141000000000ULL);
}

/* gemma4/README.md, "E4B": 42 layers of h 2560, five sliding to one full, 2
 * KV heads, MLP 10240, the last 18 layers shared (no double-wide MLP). Total
 * 7,941,100,832 (card "8B with embeddings"), active 4,644,441,088 (card
 * "4.5B effective"). KV: 20 sliding x 2 x 512 x 2 + 4 full x 2 x 1024 x 2 =
 * 57,344 B/token; TP 2: 28,672. */
static void test_gemma4_e4b(void **state)
{
    (void)state;
    const struct gs_arch a = gemma4_e_series(2560, 42, 2, 10240, 18, 6, false);
    const struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.total, 7941100832ULL);
    assert_int_equal(c.vision, 169330688ULL);
    assert_int_equal(c.audio, 308756768ULL);
    assert_int_equal(c.active, 4644441088ULL);
    assert_shared_layers(&a, 24, 18);
    assert_int_equal(fixture_layout(&a, 1).bytes_per_token, 57344);
    assert_int_equal(fixture_layout(&a, 2).bytes_per_token, 28672);
}

/* Gemma4ForCausalLM alone (gemma4_text): the 31B's text config counts its
 * text part, 30,697,345,280. */
static void test_gemma4_text(void **state)
{
    (void)state;
    char types[64 * 24];
    layer_types(types, sizeof(types), 60, 6);
    const struct gs_arch a = fixture_arch(
        "{\"model_type\": \"gemma4_text\", \"attention_k_eq_v\": true, \"global_head_dim\": 512,"
        " \"head_dim\": 256, \"hidden_size\": 5376, \"hidden_size_per_layer_input\": 0,"
        " \"intermediate_size\": 21504, \"num_attention_heads\": 32,"
        " \"num_global_key_value_heads\": 4, \"num_hidden_layers\": 60,"
        " \"num_key_value_heads\": 16, \"sliding_window\": 1024, \"vocab_size\": 262144,"
        " \"layer_types\": %s}",
        types);
    const struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.total, 30697345280ULL);
    assert_int_equal(a.tower_count, 0);
    /* Gemma4RMSNorm scales in fp32: normed_output * self.weight.float() */
    assert_true(a.norm_weight_fp32);
}

/* ------------------------------------------------------------ gemma4_unified */

/* google/gemma-4-12B, as transformers' convert_gemma4_unified_weights.py writes its config
 * (_VARIANT_GEMMA_4_12B: the Gemma 4 text stack at h 3840, 48 layers five sliding to one full,
 * 16 heads, 8 KV heads of 256 on the sliding layers, 1 KV head of 512 and K = V on the full
 * layers, GeGLU 15360, no per-layer embeddings, the keys kept "BC: not used by the model"; the
 * default vision and audio configs), in the older keys (global_head_dim,
 * num_global_key_value_heads) a hub file carries.
 *   sliding layer: q 3840 x 4096 = 15,728,640, k and v 3840 x 2048 = 7,864,320 each, o
 *     15,728,640, q_norm and k_norm 256 each: attention 47,186,432; MLP 3 x 3840 x 15360 =
 *     176,947,200; four norms 15,360.
 *   full layer: q 3840 x 8192 = 31,457,280, k 3840 x 512 = 1,966,080, no v_proj, o 31,457,280,
 *     norms 512 each: attention 64,881,664.
 *   attention 40 x 47,186,432 + 8 x 64,881,664 = 2,406,510,592; MLP 48 x 176,947,200 =
 *     8,493,465,600; norms 48 x 15,360 + 3,840 = 741,120; embedding 262144 x 3840 =
 *     1,006,632,960 (the head tied): text 11,907,350,272.
 *   vision: patch_ln1 2 x 6912 = 13,824, patch_dense 6912 x 3840 + 3840 = 26,545,920, patch_ln2
 *     and pos_norm 7,680 each, pos_embedding 1120 x 2 x 3840 = 8,601,600, projection 3840 x
 *     3840 = 14,745,600: 49,922,304. audio: 640 x 3840 = 2,457,600.
 *   total 11,959,730,176; with the 48 layer_scalar buffers 11,959,730,224, the element count the
 *     Hub gives google/gemma-4-12B's safetensors.
 * KV at bf16: 40 x 2 x 8 x 256 x 2 + 8 x 2 x 1 x 512 x 2 = 327,680 + 16,384 = 344,064 B a token;
 * TP 2 halves the sliding layers' and replicates the one full KV head: 163,840 + 16,384 =
 * 180,224. An image: 280 soft tokens of 48 x 48 x 3 = 6,912 pixel values. */
#define GEMMA4_12B_TEXT                                                                            \
    "{\"model_type\": \"gemma4_unified_text\", \"hidden_size\": 3840,"                             \
    " \"intermediate_size\": 15360, \"num_hidden_layers\": 48, \"num_attention_heads\": 16,"       \
    " \"num_key_value_heads\": 8, \"head_dim\": 256, \"global_head_dim\": 512,"                    \
    " \"num_global_key_value_heads\": 1, \"attention_k_eq_v\": true,"                              \
    " \"use_bidirectional_attention\": \"vision\", \"num_kv_shared_layers\": 0,"                   \
    " \"use_double_wide_mlp\": false, \"final_logit_softcapping\": 30.0,"                          \
    " \"vocab_size\": 262144, \"vocab_size_per_layer_input\": 262144,"                             \
    " \"hidden_size_per_layer_input\": 0, \"enable_moe_block\": false, \"layer_types\": %s}"
static void test_gemma4_unified_12b(void **state)
{
    (void)state;
    char types[64 * 24];
    layer_types(types, sizeof(types), 48, 6);
    const struct gs_arch a = fixture_arch(
        "{\"architectures\": [\"Gemma4UnifiedForConditionalGeneration\"],"
        " \"model_type\": \"gemma4_unified\", \"tie_word_embeddings\": true,"
        " \"text_config\": " GEMMA4_12B_TEXT ","
        " \"vision_config\": {\"model_type\": \"gemma4_unified_vision\", \"patch_size\": 16,"
        " \"pooling_kernel_size\": 3, \"model_patch_size\": 48, \"mm_embed_dim\": 3840,"
        " \"mm_posemb_size\": 1120, \"output_proj_dims\": 3840, \"num_soft_tokens\": 280},"
        " \"audio_config\": {\"model_type\": \"gemma4_unified_audio\", \"audio_embed_dim\": 640,"
        " \"audio_samples_per_token\": 640, \"hidden_size\": 640, \"output_proj_dims\": 640}}",
        types);
    const struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.total, 11959730176ULL);
    assert_int_equal(c.total - c.vision - c.audio, 11907350272ULL);
    assert_int_equal(c.vision, 49922304ULL);
    assert_int_equal(c.audio, 2457600ULL);
    assert_int_equal(c.attention, 2406510592ULL);
    assert_int_equal(c.mlp, 8493465600ULL);
    assert_int_equal(c.norms, 741120ULL);
    assert_int_equal(c.embedding, 1006632960ULL);
    assert_int_equal(c.lm_head, 0);
    assert_int_equal(c.experts, 0);
    assert_int_equal(c.other, 0); /* no per-layer embeddings, whatever the kept keys say */
    assert_int_equal(a.tower_count, 0);
    assert_int_equal(a.max_position_embeddings, 262144);
    assert_true(a.final_logit_softcap);
    const struct gs_block *full = &a.blocks[a.layer_block[5]];
    assert_int_equal(full->attn.head_dim, 512);
    assert_int_equal(full->attn.kv_heads, 1);
    assert_int_equal(a.blocks[a.layer_block[0]].attn.window, 1024);
    const struct gs_kv_layout kv = fixture_layout(&a, 1);
    assert_int_equal(kv.bytes_per_token, 344064);
    assert_int_equal(kv.full_layers, 8);
    assert_int_equal(kv.window_layers, 40);
    assert_int_equal(fixture_layout(&a, 2).bytes_per_token, 180224);
    assert_int_equal(a.mm_image.tokens, 280);
    assert_int_equal(a.mm_image.pixels, 280ULL * 6912);
    assert_int_equal(a.mm_image.patches, 0); /* no tower forward */
    fixture_assert_vllm_serving(&a, 4, 1, 80000000000ULL);
    /* the language model alone (Gemma4UnifiedForCausalLM) */
    const struct gs_arch t = fixture_arch(GEMMA4_12B_TEXT, types);
    assert_int_equal(fixture_count(&t).total, 11907350272ULL);
}
#undef GEMMA4_12B_TEXT

/* Gemma4UnifiedConfig's defaults (configuration_gemma4_unified.py): a text config alone, h 2304,
 * 30 layers (25 sliding, 5 full: head_dim 256 and 512, 4 KV heads on both as attention_k_eq_v
 * is off), 8 heads, GeGLU 9216, vocab 262144, window 1024, no per-layer embeddings.
 *   sliding layer: q 2304 x 2048 = 4,718,592, k and v 2304 x 1024 = 2,359,296 each, o 4,718,592,
 *     q/k norms 512, MLP 3 x 2304 x 9216 = 63,700,992, norms 9,216: 77,866,496.
 *   full layer: q 9,437,184, k and v 4,718,592 each, o 9,437,184, norms 1,024, MLP and norms as
 *     above: 92,022,784.
 *   25 x 77,866,496 + 5 x 92,022,784 + 262144 x 2304 + 2,304 = 3,010,758,400 (Gemma4TextConfig's
 *     same defaults add 2,066,419,456 of per-layer embeddings).
 * With the default vision config (the docstring's example) 6912 x 2 + 6912 x 3840 + 3840 +
 * 2 x 3840 x 3 + 1120 x 2 x 3840 + 3840 x 2304 = 44,024,064 and audio 640 x 2304 = 1,474,560 more:
 * 3,056,257,024. KV at bf16: 25 x 2 x 4 x 256 x 2 + 5 x 2 x 4 x 512 x 2 = 102,400 + 40,960 =
 * 143,360 B a token. */
static void test_gemma4_unified_defaults(void **state)
{
    (void)state;
    const struct gs_arch text = fixture_arch("{\"model_type\": \"gemma4_unified\"}");
    assert_int_equal(fixture_count(&text).total, 3010758400ULL);
    assert_int_equal(fixture_layout(&text, 1).bytes_per_token, 143360);
    assert_int_equal(text.blocks[text.layer_block[0]].attn.window, 1024);
    assert_int_equal(text.mm_image.tokens, 0);
    const struct gs_arch all = fixture_arch(
        "{\"model_type\": \"gemma4_unified\", \"vision_config\": {}, \"audio_config\": {}}");
    const struct gs_param_count c = fixture_count(&all);
    assert_int_equal(c.total, 3056257024ULL);
    assert_int_equal(c.vision, 44024064ULL);
    assert_int_equal(c.audio, 1474560ULL);
    /* the audio frame under any of the names its config's setters take */
    const struct gs_arch frames = fixture_arch(
        "{\"model_type\": \"gemma4_unified\", \"audio_config\": {\"hidden_size\": 320}}");
    assert_int_equal(fixture_count(&frames).audio, 320ULL * 2304);
    fixture_assert_reader_error("{\"model_type\": \"gemma4_unified\", \"vision_config\":"
                                " {\"mm_embed_dim\": 1024}}",
                                "/vision_config/output_proj_dims");
    fixture_assert_reader_error("{\"model_type\": \"gemma4_unified\", \"vision_config\":"
                                " {\"model_patch_size\": 32}}",
                                "/vision_config/model_patch_size");
}

/* ------------------------------------------------------------ gemma3n */

/* A Gemma 3n config as the published E2B/E4B files give their architecture
 * (gemma3n/README.md): `layers` layers of h 2048 with an intermediate_size
 * list of `width`, four sliding layers to one full, the last `shared` layers
 * sharing keys and values; the default vision (mobilenetv5_300m_enc) and
 * audio configs. */
static struct gs_arch gemma3n(unsigned layers, unsigned width, unsigned shared)
{
    char types[64 * 24], widths[16 * 64];
    layer_types(types, sizeof(types), layers, 5);
    size_t n = (size_t)snprintf(widths, sizeof(widths), "[");
    for (unsigned l = 0; l < layers && n < sizeof(widths); l++)
        n += (size_t)snprintf(widths + n, sizeof(widths) - n, "%s%u", l ? "," : "", width);
    if (n < sizeof(widths))
        snprintf(widths + n, sizeof(widths) - n, "]");
    return fixture_arch(
        "{\"architectures\": [\"Gemma3nForConditionalGeneration\"], \"model_type\": \"gemma3n\","
        " \"vision_soft_tokens_per_image\": 256, \"audio_soft_tokens_per_image\": 188,"
        " \"text_config\": {\"model_type\": \"gemma3n_text\", \"hidden_size\": 2048,"
        " \"num_hidden_layers\": %u, \"intermediate_size\": %s, \"num_attention_heads\": 8,"
        " \"num_key_value_heads\": 2, \"head_dim\": 256, \"vocab_size\": 262400,"
        " \"vocab_size_per_layer_input\": 262144, \"hidden_size_per_layer_input\": 256,"
        " \"altup_num_inputs\": 4, \"laurel_rank\": 64, \"num_kv_shared_layers\": %u,"
        " \"sliding_window\": 512, \"max_position_embeddings\": 32768, \"layer_types\": %s},"
        " \"vision_config\": {\"model_type\": \"gemma3n_vision\","
        " \"architecture\": \"mobilenetv5_300m_enc\", \"hidden_size\": 2048, \"vocab_size\": 128},"
        " \"audio_config\": {\"model_type\": \"gemma3n_audio\", \"hidden_size\": 1536,"
        " \"conf_num_hidden_layers\": 12, \"conf_num_attention_heads\": 8,"
        " \"conf_conv_kernel_size\": 5, \"input_feat_size\": 128,"
        " \"sscp_conv_channel_size\": [128, 32], \"vocab_size\": 128}}",
        layers, widths, shared, types);
}

/* gemma3n/README.md, "E4B": 35 layers of h 2048, MLP 16384, 15 shared.
 * Text 6,866,696,688 (per-layer table 262144 x 35 x 256 = 2,348,810,240);
 * vision: mobilenetv5_300m_enc 294,126,912 + embedder 4,460,544 =
 * 298,587,456; audio: encoder 681,348,640 + embedder 3,345,408 = 684,694,048;
 * total 7,849,978,192 (Hub "7.85B", recalled). Active = text - per-layer
 * table = 4,517,886,448. KV: 20 caching layers x 2 x 2 x 256 x 2 = 40,960
 * B/token (71,680 if the 15 shared layers cached); TP 2: 20,480. */
static void test_gemma3n_e4b(void **state)
{
    (void)state;
    const struct gs_arch a = gemma3n(35, 16384, 15);
    const struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.total, 7849978192ULL);
    assert_int_equal(c.vision, 298587456ULL);
    assert_int_equal(c.audio, 684694048ULL);
    assert_int_equal(c.total - c.vision - c.audio, 6866696688ULL);
    assert_int_equal(c.embedding, 537395200ULL + 2348810240ULL);
    assert_int_equal(c.active, 4517886448ULL);
    assert_shared_layers(&a, 20, 15);
    const struct gs_kv_layout kv = fixture_layout(&a, 1);
    assert_int_equal(kv.bytes_per_token, 40960);
    assert_int_equal(kv.full_layers, 4);
    assert_int_equal(kv.window_layers, 16);
    assert_int_equal(fixture_layout(&a, 2).bytes_per_token, 20480);
    assert_int_equal(a.mm_image.tokens, 256);
    fixture_assert_vllm_serving(&a, 16, 1, 141000000000ULL);
}

/* gemma3n/README.md, "E2B": 30 layers, MLP 8192, 10 shared. Text
 * 4,456,156,768 (per-layer table 2,013,265,920); total 5,439,438,272 (Hub
 * "5.44B", recalled); active 2,442,890,848. KV: the first 20 layers cache,
 * 40,960 B/token. */
static void test_gemma3n_e2b(void **state)
{
    (void)state;
    const struct gs_arch a = gemma3n(30, 8192, 10);
    const struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.total, 5439438272ULL);
    assert_int_equal(c.active, 2442890848ULL);
    assert_shared_layers(&a, 20, 10);
    assert_int_equal(fixture_layout(&a, 1).bytes_per_token, 40960);
}

/* vLLM's multimodal wrappers keep the scheduled tokens' per-layer inputs from __init__
 * (per_layer_embeddings: max_num_batched_tokens x layers x hidden_size_per_layer_input, model
 * dtype; gemma3n_mm.py from 0.10.1, gemma4_mm.py from its first release), counted in
 * budget.model_buffer_bytes: Gemma 3n E4B 35 x 256 = 8,960 values a token, T x 8,960 x 2 bytes
 * at T scheduled tokens; none in 0.10.0 (the class was gemma3n.py's text model); Gemma 4 E4B 42 x
 * 256; the 31B has no per-layer inputs. */
static void test_gemma_per_layer_input_buffer(void **state)
{
    (void)state;
    const struct gs_arch e4b = gemma3n(35, 16384, 15);
    assert_int_equal(e4b.token_buffer_width, 35 * 256);
    assert_int_equal(e4b.token_buffer_since, 1001);
    struct gs_inference_input in = fixture_vllm_one_sequence(&e4b, 1, 24000000000ULL);
    struct gs_inference_result r;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_int_equal(r.budget.model_buffer_bytes, r.max_num_batched_tokens * 8960 * 2);
    in.engine.version = 1001;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_int_equal(r.budget.model_buffer_bytes, r.max_num_batched_tokens * 8960 * 2);
    in.engine.version = 1000;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_int_equal(r.budget.model_buffer_bytes, 0);
    const struct gs_arch g4 = gemma4_e_series(2560, 42, 2, 10240, 18, 6, false);
    assert_int_equal(g4.token_buffer_width, 42 * 256);
    assert_int_equal(g4.token_buffer_since, 0);
    const struct gs_arch g31 = fixture_arch_file("gemma4/nvidia__Gemma-4-31B-IT-NVFP4.json");
    assert_int_equal(g31.token_buffer_width, 0);
    /* the text classes keep none (only under kv_sharing_fast_prefill) */
    const struct gs_arch text = fixture_arch("{\"model_type\": \"gemma3n_text\"}");
    assert_int_equal(text.token_buffer_width, 0);
}

/* Gemma3nConfig's defaults build the E4B with its towers; the text class
 * alone (gemma3n_text) is the text part. */
static void test_gemma3n_defaults(void **state)
{
    (void)state;
    const struct gs_arch a = fixture_arch("{\"model_type\": \"gemma3n\"}");
    assert_int_equal(fixture_count(&a).total, 7849978192ULL);
    const struct gs_arch t = fixture_arch("{\"model_type\": \"gemma3n_text\"}");
    assert_int_equal(fixture_count(&t).total, 6866696688ULL);
    fixture_assert_reader_error("{\"model_type\": \"gemma3n\", \"vision_config\":"
                                " {\"architecture\": \"resnet50\"}}",
                                "/vision_config/architecture");
    fixture_assert_reader_error(
        "{\"model_type\": \"gemma3n_text\", \"num_hidden_layers\": 4, \"num_kv_shared_layers\": 0,"
        " \"intermediate_size\": [1, 2]}",
        "/intermediate_size");
    assert_true(gemma3n(35, 16384, 15).norm_weight_fp32); /* Gemma3nRMSNorm: in fp32 */
}

/* per_layer_config, as transformers from 5.15 saves a Gemma 4 config (PR #47384:
 * Gemma4TextConfig.__post_init__ turns global_head_dim and num_global_key_value_heads into an
 * entry a full layer, and Gemma4TextAttention reads config.per_layer_config[layer_idx]), reads as
 * the older keys did. A toy (h 256, 6 layers, the last full, 4 heads, 2 KV heads of 32; the full
 * layer 1 KV head of 64, k_eq_v): the same count and cache either way, the full layer 1 x 64 x 2 x
 * 2 = 256 B a token; rope entries change nothing. An override of a sliding layer is refused. */
static void test_gemma4_per_layer_config(void **state)
{
    (void)state;
#define GEMMA4_TOY(extra)                                                                          \
    "{\"model_type\": \"gemma4_text\", \"hidden_size\": 256, \"num_hidden_layers\": 6,"            \
    " \"num_attention_heads\": 4, \"num_key_value_heads\": 2, \"head_dim\": 32,"                   \
    " \"intermediate_size\": 512, \"vocab_size\": 1000, \"hidden_size_per_layer_input\": 0,"       \
    " \"attention_k_eq_v\": true" extra "}"
    const struct gs_arch old =
        fixture_arch(GEMMA4_TOY(", \"global_head_dim\": 64, \"num_global_key_value_heads\": 1"));
    const struct gs_arch saved = fixture_arch(GEMMA4_TOY(
        ", \"per_layer_config\": {\"5\": {\"head_dim\": 64, \"num_key_value_heads\": 1},"
        " \"full_attention\": {\"rope_type\": \"proportional\", \"partial_rotary_factor\": 0.25,"
        " \"rope_theta\": 1000000.0}, \"sliding_attention\": {\"rope_type\": \"default\","
        " \"rope_theta\": 10000.0}}"));
    assert_int_equal(fixture_count(&saved).total, fixture_count(&old).total);
    assert_int_equal(fixture_count(&saved).attention, fixture_count(&old).attention);
    const struct gs_kv_layout k = fixture_layout(&saved, 1);
    assert_int_equal(k.full_token_bytes, 256);
    assert_int_equal(k.window_layers, 5);
    assert_int_equal(k.bytes_per_token, fixture_layout(&old, 1).bytes_per_token);
    fixture_assert_reader_error(GEMMA4_TOY(", \"per_layer_config\": {\"0\": {\"head_dim\": 64}}"),
                                "/per_layer_config/0");
#undef GEMMA4_TOY
}

/* Errors point at the field. */
static void test_gemma4_errors(void **state)
{
    (void)state;
    fixture_assert_reader_error(
        "{\"model_type\": \"gemma4\", \"text_config\": {\"num_hidden_layers\": 4,"
        " \"num_kv_shared_layers\": 4}}",
        "/text_config/num_kv_shared_layers");
    /* the one shared full layer has no earlier full layer to read */
    fixture_assert_reader_error(
        "{\"model_type\": \"gemma4_text\", \"num_hidden_layers\": 4,"
        " \"num_kv_shared_layers\": 1, \"layer_types\": [\"sliding_attention\","
        " \"sliding_attention\", \"sliding_attention\", \"full_attention\"]}",
        "/num_kv_shared_layers");
    fixture_assert_reader_error(
        "{\"model_type\": \"gemma4\", \"text_config\": {\"enable_moe_block\": true}}",
        "/text_config/num_experts");
    fixture_assert_reader_error(
        "{\"model_type\": \"gemma4\", \"audio_config\": {\"subsampling_conv_channels\":"
        " [128]}}",
        "/audio_config/subsampling_conv_channels");
    fixture_assert_reader_error(
        "{\"model_type\": \"gemma4\", \"text_config\": {\"layer_types\": [1]}}",
        "/text_config/layer_types");
}

/* Gemma 4's assistants (the fixtures' README, by hand): E2B 77,731,328 (transformers' count
 * for the checkpoint), E4B 78,517,760, 26B-A4B 419,711,232, 31B 469,518,592, 12B 422,856,960;
 * no layer caches anything (each reads the target's keys and values), and the E2B/E4B centroid
 * head keeps token_ordering, 262,144 values, as a buffer. */
static void test_gemma4_assistants(void **state)
{
    (void)state;
    static const struct {
        const char *file;
        uint64_t total, buffers, backbone;
    } want[] = {
        {"gemma4_assistant/google__gemma-4-E2B-it-assistant.json", 77731328ULL, 262144, 1536},
        {"gemma4_assistant/google__gemma-4-E4B-it-assistant.json", 78517760ULL, 262144, 2560},
        {"gemma4_assistant/google__gemma-4-26B-A4B-it-assistant.json", 419711232ULL, 0, 2816},
        {"gemma4_assistant/google__gemma-4-31B-it-assistant.json", 469518592ULL, 0, 5376},
        {"gemma4_assistant/google__gemma-4-12B-it-assistant.json", 422856960ULL, 0, 3840},
    };
    for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
        const struct gs_arch a = fixture_arch_file(want[i].file);
        const struct gs_param_count c = fixture_count(&a);
        assert_int_equal(c.total, want[i].total);
        assert_int_equal(c.buffers, want[i].buffers);
        assert_int_equal(a.drafts_for_hidden, want[i].backbone);
        assert_int_equal(a.draft_gathers_head, want[i].buffers > 0);
        const struct gs_kv_layout k = fixture_layout(&a, 1);
        assert_int_equal(k.bytes_per_token, 0);
    }
    /* what Gemma4AssistantConfig.validate_architecture refuses */
#define ASSISTANT(text)                                                                            \
    "{\"model_type\": \"gemma4_assistant\", \"text_config\": {\"hidden_size\": 256,"               \
    " \"num_hidden_layers\": 4, \"num_attention_heads\": 4" text "}}"
    fixture_assert_reader_error(ASSISTANT(", \"hidden_size_per_layer_input\": 256"),
                                "/text_config/hidden_size_per_layer_input");
    fixture_assert_reader_error(ASSISTANT(", \"enable_moe_block\": true"),
                                "/text_config/enable_moe_block");
    fixture_assert_reader_error(ASSISTANT(", \"num_kv_shared_layers\": 2"),
                                "/text_config/num_kv_shared_layers");
#undef ASSISTANT
    fixture_assert_reader_error("{\"model_type\": \"gemma4_assistant\"}", "/text_config");
}

/* Every type of the file's table is one models_supported() lists. */
static void test_types_listed(void **state)
{
    (void)state;
    assert_non_null(strstr(models_supported(), "gemma4"));
    assert_non_null(strstr(models_supported(), "gemma4_text"));
    assert_non_null(strstr(models_supported(), "gemma4_unified"));
    assert_non_null(strstr(models_supported(), "gemma4_unified_text"));
    assert_non_null(strstr(models_supported(), "gemma3n"));
    assert_non_null(strstr(models_supported(), "gemma3n_text"));
}

/* Logit soft-capping as the configs set it: Gemma 2's config has both (50.0 on the scores,
 * 30.0 on the logits; Gemma2Config's defaults when absent, off when null), Gemma 3's text config
 * nulls both, Gemma 4's and 3n's cap the logits (30.0, their default). */
static void test_gemma_softcapping(void **state)
{
    (void)state;
    const struct gs_arch g2 = fixture_arch_file("gemma2/google__gemma-2-2b-jpn-it.json");
    assert_true(g2.attn_logit_softcap);
    assert_true(g2.final_logit_softcap);
    const struct gs_arch g3 = fixture_arch_file("gemma3_text/google__gemma-3-1b-it.json");
    assert_false(g3.attn_logit_softcap);
    assert_false(g3.final_logit_softcap);
    const struct gs_arch g4 = fixture_arch_file("gemma4/google__gemma-4-26B-A4B.json");
    assert_false(g4.attn_logit_softcap);
    assert_true(g4.final_logit_softcap);
    assert_true(gemma3n(35, 16384, 15).final_logit_softcap);
#define G2_SMALL                                                                                   \
    "{\"model_type\":\"gemma2\",\"hidden_size\":64,\"intermediate_size\":128,"                     \
    "\"num_attention_heads\":4,\"num_key_value_heads\":2,\"head_dim\":16,"                         \
    "\"num_hidden_layers\":2,\"vocab_size\":1000%s}"
    struct gs_arch a = fixture_arch(G2_SMALL, "");
    assert_true(a.attn_logit_softcap && a.final_logit_softcap);
    a = fixture_arch(G2_SMALL, ",\"attn_logit_softcapping\":null,\"final_logit_softcapping\":null");
    assert_false(a.attn_logit_softcap || a.final_logit_softcap);
    a = fixture_arch(G2_SMALL, ",\"final_logit_softcapping\":0");
#undef G2_SMALL
    assert_true(a.attn_logit_softcap);
    assert_false(a.final_logit_softcap);
}

/* VaultGemma (vaultgemma; modular_vaultgemma.py) with google/vaultgemma-1b's shapes (h 1,152, 26
 * layers, 4 heads and 4 KV heads of 256, GeGLU 6,912, 256,000 tokens, no tie key), by hand:
 * attention 4 x 1,152 x 1,024 = 4,718,592, MLP 3 x 1,152 x 6,912 = 23,887,872, the two remaining
 * norms 2,304: 28,608,768 a layer, x 26 = 743,827,968, + the tied embedding 294,912,000 + the norm
 * 1,152: 1,038,741,120. Every layer full (its layer_types): 26 x 2 x 4 x 256 x 2 B = 106,496 a
 * token. */
static void test_vaultgemma(void **state)
{
    (void)state;
    char types[1024] = "[";
    for (int l = 0; l < 26; l++)
        strcat(types, l ? ", \"full_attention\"" : "\"full_attention\"");
    strcat(types, "]");
    const struct gs_arch a = fixture_arch(
        "{\"model_type\": \"vaultgemma\", \"hidden_size\": 1152, \"intermediate_size\": 6912,"
        " \"num_hidden_layers\": 26, \"num_attention_heads\": 4, \"num_key_value_heads\": 4,"
        " \"head_dim\": 256, \"vocab_size\": 256000, \"layer_types\": %s}",
        types);
    assert_int_equal(fixture_count(&a).total, 1038741120ULL);
    assert_int_equal(fixture_layout(&a, 1).bytes_per_token, 106496);
}

/* diffusion_gemma/README.md: DiffusionGemma 26B-A4B is Gemma 4 26B-A4B's text model once (the
 * encoder's text weights are tied to the decoder's) and vision tower, 25,805,933,872, plus the
 * decoder's self-conditioning MLP (pre_norm 2,816, gate/up 2 x 2,112 x 2,816, down 2,816 x 2,112
 * = 17,844,992): 25,823,778,864, the checkpoint index's total_parameters. The same cache as Gemma
 * 4 26B-A4B (only the encoder writes it). vLLM allocates with the model an input-embedding row a
 * scheduled token (8,192 x 2,816 x 2) and a request slot's self-conditioning embedding (256 x
 * 2,816 x 4) and bitmask (256 x 262,144 / 32 x 4): 91,226,112 bytes for 4 slots; a denoising
 * step's logits, 256 x 262,144 x (2 + 4) bytes a request, sit outside its budget - in 0.24 for
 * every running request at once. Served by vLLM from 0.24.0, by no SGLang release; no training. */
static void test_diffusion_gemma(void **state)
{
    (void)state;
    const struct gs_arch a = fixture_arch_file("diffusion_gemma/config.json");
    const struct gs_arch g = fixture_arch_file("gemma4/google__gemma-4-26B-A4B.json");
    const struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.total, 25823778864ULL);
    assert_int_equal(c.total - fixture_count(&g).total, 17844992);
    assert_int_equal(c.other, 2816 + 2ULL * 2112 * 2816 + 2816ULL * 2112);
    assert_int_equal(c.vision, 572792112ULL);
    assert_int_equal(c.lm_head, 0);
    assert_int_equal(a.diffusion_canvas, 256);
    assert_int_equal(fixture_layout(&a, 1).bytes_per_token, 225280);
    assert_non_null(a.training_refusal);

    struct gs_workload w = fixture_vllm_workload(4, 8192, 1, 141ULL * 1000 * 1000 * 1000);
    w.serving.engine.max_num_seqs = 4;
    w.serving.engine.max_num_batched_tokens = 8192;
    struct gs_estimate e = fixture_estimate(&a, &w);
    assert_int_equal(e.serving.budget.model_buffer_bytes,
                     8192ULL * 2816 * 2 + 4ULL * 256 * (2816 * 4 + 262144 / 32 * 4));
    assert_int_equal(fixture_assumption(&e, "diffusion_request_buffer_bytes")->value,
                     4ULL * 256 * (2816 * 4 + 262144 / 32 * 4));
    const struct gs_assumption *step = fixture_assumption(&e, "diffusion_sampler_step_bytes");
    assert_non_null(step);
    assert_int_equal(step->value, 256ULL * 262144 * 6);
    assert_true(fixture_warned(&e, "diffusion_sampler_outside_budget"));
    w.serving.engine.version = 2400;
    e = fixture_estimate(&a, &w);
    assert_int_equal(fixture_assumption(&e, "diffusion_sampler_step_bytes")->value,
                     4ULL * 256 * 262144 * 6);

    bool refuses = false;
    assert_non_null(gs_model_support(GS_ENGINE_VLLM, &a, 2300, &refuses));
    assert_true(refuses);
    assert_null(gs_model_support(GS_ENGINE_VLLM, &a, 2400, &refuses));
    assert_non_null(gs_model_support(GS_ENGINE_SGLANG, &a, 0, &refuses));
    assert_true(refuses);

    struct gs_model_spec m = fixture_spec(&a);
    struct gs_workload t = fixture_workload(GS_MODE_TRAINING);
    struct gs_estimate te;
    struct gs_error err;
    gs_error_init(&err);
    assert_int_equal(gs_estimate_compute(&m, &t, &te, &err), GS_ERR_UNSUPPORTED);
    assert_string_equal(err.items[0].pointer, "/mode");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vaultgemma),
        cmocka_unit_test(test_gemma4_26b_a4b),
        cmocka_unit_test(test_gemma4_31b),
        cmocka_unit_test(test_gemma4_e2b),
        cmocka_unit_test(test_gemma4_e4b),
        cmocka_unit_test(test_gemma4_text),
        cmocka_unit_test(test_gemma4_errors),
        cmocka_unit_test(test_gemma4_per_layer_config),
        cmocka_unit_test(test_gemma4_unified_12b),
        cmocka_unit_test(test_gemma4_unified_defaults),
        cmocka_unit_test(test_gemma3n_e4b),
        cmocka_unit_test(test_gemma3n_e2b),
        cmocka_unit_test(test_gemma_per_layer_input_buffer),
        cmocka_unit_test(test_gemma3n_defaults),
        cmocka_unit_test(test_gemma_softcapping),
        cmocka_unit_test(test_types_listed),
        cmocka_unit_test(test_gemma4_assistants),
        cmocka_unit_test(test_diffusion_gemma),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
