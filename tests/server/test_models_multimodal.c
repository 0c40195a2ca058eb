/*
 * test_models_multimodal.c - the vision and audio readers (server/readers/
 * multimodal.c) against the published configs in tests/fixtures/configs/
 * and the module-by-module arithmetic in each fixture's README.md: exact
 * parameter totals, the vision/audio component, active parameters, layer
 * kinds, KV bytes per token and a serving estimate.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "arch_fixture.h"
#include "gs/estimate.h"
#include "gs/inference.h"

#include <stdio.h>
#include <string.h>

/* Decoder layers whose block matches: attention span, cross-attention, MoE. */
static uint64_t layers_where(const struct gs_arch *a, int span, int cross, int moe)
{
    uint64_t n = 0;
    for (uint64_t l = 0; l < a->num_hidden_layers; l++) {
        const struct gs_block *b = &a->blocks[a->layer_block[l]];
        if ((span < 0 || b->attn.span == span) && (cross < 0 || b->attn.cross == (cross != 0)) &&
            (moe < 0 || (b->mlp.kind == GS_MLP_MOE) == (moe != 0)))
            n++;
    }
    return n;
}

/* Every tower is of `part` and attends bidirectionally (no KV cache). */
static void towers_are(const struct gs_arch *a, size_t count, enum gs_part part, bool encoder)
{
    assert_int_equal(a->tower_count, count);
    for (size_t i = 0; i < a->tower_count; i++) {
        const struct gs_tower *t = &a->towers[i];
        assert_int_equal(t->part, part);
        assert_int_equal(t->encoder, encoder);
        assert_int_equal(a->blocks[t->block].mixer, GS_MIXER_ATTENTION);
        assert_false(a->blocks[t->block].attn.cached);
    }
}

/* The per-GPU estimate for bf16 serving of `batch` sequences of `context`
 * tokens (`prompt` of them encoder tokens for cross-attention models) on
 * vLLM; checks it runs, weighs 2 bytes per parameter (towers are 16-bit
 * anyway) and returns the KV bytes it needs. */
static uint64_t serve(const struct gs_arch *a, uint64_t batch, uint64_t context, uint64_t prompt)
{
    struct gs_workload w = fixture_vllm_workload(batch, context, 1, 0);
    w.serving.prompt_tokens = prompt;
    w.serving.kv_dtype = GS_KV_AUTO;
    const struct gs_estimate e = fixture_estimate(a, &w);
    assert_true(e.has_serving);
    assert_true(e.has_breakdown);
    const struct gs_param_count c = fixture_count(a);
    assert_int_equal(e.parameters, c.total);
    assert_int_equal(e.per_gpu.weights_bytes, 2 * c.total);
    assert_int_equal(e.per_gpu.kv_cache_bytes, e.serving.kv_needed_bytes);
    return e.per_gpu.kv_cache_bytes;
}

/* gemma3/README.md: text 3,880,263,168 + SigLIP 416,866,032 + projector
 * 1152*2560 + 1152 = 2,950,272 = 4,300,079,472 ("4.3B"). Tied, so the
 * active count is the text model. 34 layers, (l+1) % 6 == 0 global: 29
 * sliding (window 1024) and 5 full; 2*4*256*2 = 4,096 B per layer-token. */
static void test_gemma3(void **state)
{
    (void)state;
    const struct gs_arch a = fixture_arch_file("gemma3/google__gemma-3-4b-it.json");
    const struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.total, 4300079472ULL);
    assert_int_equal(c.vision, 416866032ULL + 2950272ULL);
    assert_int_equal(c.active, 3880263168ULL);
    assert_int_equal(c.embedding, 671252480ULL); /* 262208 * 2560, defaulted vocab */
    assert_int_equal(c.lm_head, 0);
    assert_string_equal(a.model_type, "gemma3");
    assert_int_equal(a.num_hidden_layers, 34);
    assert_int_equal(layers_where(&a, GS_SPAN_SLIDING, -1, -1), 29);
    assert_int_equal(layers_where(&a, GS_SPAN_FULL, -1, -1), 5);
    towers_are(&a, 1, GS_PART_VISION, false);
    assert_int_equal(a.towers[0].layers, 27);
    const struct gs_kv_layout k = fixture_layout(&a, 1);
    assert_int_equal(k.layer_token_bytes, 4096);
    assert_int_equal(k.full_layers, 5);
    assert_int_equal(k.full_token_bytes, 5 * 4096);
    assert_int_equal(k.window_count, 1);
    assert_int_equal(k.windows[0].window, 1024);
    assert_int_equal(k.windows[0].token_bytes, 29 * 4096);
    assert_int_equal(k.bytes_per_token, 139264);
    assert_int_equal(k.cross_token_bytes, 0);
    /* 1,024 tokens: every layer holds all of them (the window covers the
     * context): 139,264 * 1,024 = 142,606,336 */
    assert_int_equal(serve(&a, 1, 1024, 0), 142606336ULL);
}

/* mistral3/README.md: text 23,572,403,200 + Pixtral 403,305,472 +
 * projector 35,652,608 = 24,011,361,280 ("24B"). Untied: active = text -
 * embedding 671,088,640 = 22,901,314,560. 40 full layers, 2*8*128*2 =
 * 4,096 B each: 163,840 B per token. */
static void test_mistral3(void **state)
{
    (void)state;
    const struct gs_arch a =
        fixture_arch_file("mistral3/mistralai__Mistral-Small-3.1-24B-Instruct-2503.json");
    const struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.total, 24011361280ULL);
    assert_int_equal(c.vision, 403305472ULL + 35652608ULL);
    assert_int_equal(c.active, 22901314560ULL);
    assert_int_equal(c.lm_head, 671088640ULL);
    assert_int_equal(layers_where(&a, GS_SPAN_FULL, 0, 0), 40);
    towers_are(&a, 1, GS_PART_VISION, false);
    const struct gs_kv_layout k = fixture_layout(&a, 1);
    assert_int_equal(k.bytes_per_token, 163840);
    assert_int_equal(k.full_token_bytes, 163840);
    assert_int_equal(k.window_layers, 0);
    /* 4,096 tokens: 163,840 * 4,096 = 671,088,640 */
    assert_int_equal(serve(&a, 1, 4096, 0), 671088640ULL);
}

/* The Mistral 3 family's other language models. Ministral 3 (text_config
 * model_type ministral3, Ministral3ForCausalLM = MistralForCausalLM's
 * modules) reads exactly as the mistral text model: Mistral Small 3.1's
 * config relabelled counts the same 24,011,361,280. A text-only ministral3
 * config (Devstral 2) counts as Llama's formula. Mistral Large 3's
 * text_config is DeepSeek-V3's (mla.c): the whole is that text model read
 * alone plus Pixtral and the projector - for a 2-layer, 64-wide tower:
 * 2 x (4 x 64^2 + 3 x 64 x 128 + 2 x 64) = 82,176, patch_conv 3 x 14^2 x 64
 * = 37,632, ln_pre 64, projector norm 64, merging 4 x 64^2 = 16,384,
 * linear_1 64 x 128 = 8,192, linear_2 128^2 = 16,384: 160,896. */
static void test_mistral3_family(void **state)
{
    (void)state;
    static const char small[] =
        "{\"model_type\": \"mistral3\", \"spatial_merge_size\": 2,"
        " \"text_config\": {\"model_type\": \"%s\", \"head_dim\": 128, \"hidden_size\": 5120,"
        " \"intermediate_size\": 32768, \"max_position_embeddings\": 131072,"
        " \"num_attention_heads\": 32, \"num_hidden_layers\": 40, \"num_key_value_heads\": 8,"
        " \"sliding_window\": null, \"vocab_size\": 131072},"
        " \"vision_config\": {\"head_dim\": 64, \"hidden_size\": 1024, \"image_size\": 1540,"
        " \"intermediate_size\": 4096, \"num_attention_heads\": 16, \"num_channels\": 3,"
        " \"num_hidden_layers\": 24, \"patch_size\": 14}, \"vision_feature_layer\": -1}";
    const struct gs_arch mistral = fixture_arch(small, "mistral");
    const struct gs_arch ministral = fixture_arch(small, "ministral3");
    assert_int_equal(fixture_count(&mistral).total, 24011361280ULL);
    assert_int_equal(fixture_count(&ministral).total, 24011361280ULL);
    assert_int_equal(fixture_count(&ministral).active, 22901314560ULL);
    assert_int_equal(fixture_layout(&ministral, 1).bytes_per_token, 163840);

    const struct gs_arch devstral = fixture_arch(
        "{\"model_type\": \"ministral3\", \"architectures\": [\"Ministral3ForCausalLM\"],"
        " \"hidden_size\": 512, \"intermediate_size\": 1024, \"num_hidden_layers\": 4,"
        " \"num_attention_heads\": 8, \"num_key_value_heads\": 2, \"head_dim\": 64,"
        " \"vocab_size\": 1000, \"tie_word_embeddings\": false}");
    const struct gs_arch llama = fixture_llama(512, 4, 8, 2, 1024, 1000, false);
    assert_int_equal(fixture_count(&devstral).total, fixture_count(&llama).total);
    assert_string_equal(devstral.model_type, "ministral3");

    static const char large_text[] =
        "{\"model_type\": \"deepseek_v3\", \"hidden_size\": 128, \"intermediate_size\": 256,"
        " \"moe_intermediate_size\": 32, \"num_hidden_layers\": 3, \"num_attention_heads\": 4,"
        " \"num_key_value_heads\": 4, \"n_routed_experts\": 8, \"n_shared_experts\": 1,"
        " \"num_experts_per_tok\": 2, \"first_k_dense_replace\": 1, \"q_lora_rank\": 64,"
        " \"kv_lora_rank\": 32, \"qk_nope_head_dim\": 16, \"qk_rope_head_dim\": 8,"
        " \"v_head_dim\": 16, \"vocab_size\": 1000}";
    const struct gs_arch text = fixture_arch("%s", large_text);
    const struct gs_arch large = fixture_arch(
        "{\"model_type\": \"mistral3\", \"text_config\": %s,"
        " \"vision_config\": {\"hidden_size\": 64, \"intermediate_size\": 128,"
        " \"num_hidden_layers\": 2, \"num_attention_heads\": 4, \"num_channels\": 3,"
        " \"patch_size\": 14, \"head_dim\": 16}}",
        large_text);
    const struct gs_param_count c = fixture_count(&large);
    assert_int_equal(c.vision, 160896);
    assert_int_equal(c.total, fixture_count(&text).total + 160896);
    assert_true(gs_arch_has_mla(&large));
    assert_int_equal(gs_arch_moe_layers(&large), 2);
    towers_are(&large, 1, GS_PART_VISION, false);
}

/* Mistral Small 4 (mistralai/Mistral-Small-4-119B-2603: Mistral3ForConditionalGeneration over a
 * mistral4 text_config, convert_mistral4_weight_to_hf.py convert_config), its language model
 * Mistral4Config's defaults (the docstring names that checkpoint) and, as no verbatim config is
 * in reach, Mistral Small 3.1's Pixtral tower. By hand, a layer (36, all routed as
 * first_k_dense_replace is 0): q_a 4,096 x 1,024 + q_a_layernorm 1,024 + q_b 1,024 x 32 x 128
 * + kv_a_proj_with_mqa 4,096 x (256 + 64) + kv_a_layernorm 256 + kv_b 256 x 32 x (64 + 128)
 * + o 32 x 128 x 4,096 = 28,050,688; norms 8,192; the shared expert 3 x 4,096 x 2,048 =
 * 25,165,824; 128 experts 3,221,225,472; the router 128 x 4,096 = 524,288 (no correction
 * bias): 3,274,974,464. x 36 + embedding and head 2 x 536,870,912 + norm 4,096 =
 * 118,972,826,624 (the card: "119B"). Active: a layer's attention, norms, router, shared and 4
 * experts 154,412,288 x 36 + head + norm = 6,095,717,376, and the tower 403,305,472 + projector
 * (norm 1,024, merging 4 x 1,024^2, linear_1 1,024 x 4,096, linear_2 4,096^2) 25,166,848 =
 * 428,472,320 ("6.5B active"). The cache: the latent and the rotary key, (256 + 64) x 2 B = 640
 * B a layer, 23,040 B a token. */
static void test_mistral_small_4(void **state)
{
    (void)state;
    static const char text[] =
        "{\"model_type\": \"mistral4\", \"vocab_size\": 131072, \"hidden_size\": 4096,"
        " \"intermediate_size\": 12288, \"moe_intermediate_size\": 2048,"
        " \"num_hidden_layers\": 36, \"num_attention_heads\": 32, \"num_key_value_heads\": 32,"
        " \"n_shared_experts\": 1, \"n_routed_experts\": 128, \"routed_scaling_factor\": 1.0,"
        " \"kv_lora_rank\": 256, \"q_lora_rank\": 1024, \"qk_rope_head_dim\": 64,"
        " \"v_head_dim\": 128, \"qk_nope_head_dim\": 64, \"n_group\": 1, \"topk_group\": 1,"
        " \"num_experts_per_tok\": 4, \"first_k_dense_replace\": 0, \"norm_topk_prob\": true,"
        " \"hidden_act\": \"silu\", \"max_position_embeddings\": 1048576,"
        " \"tie_word_embeddings\": false, \"rope_interleave\": true, \"attention_bias\": false,"
        " \"rope_parameters\": {\"type\": \"yarn\", \"rope_theta\": 10000.0, \"factor\": 128.0,"
        " \"original_max_position_embeddings\": 8192, \"llama_4_scaling_beta\": 0.1,"
        " \"partial_rotary_factor\": 0.5}}";
    const struct gs_arch lm = fixture_arch("%s", text);
    struct gs_param_count c = fixture_count(&lm);
    assert_int_equal(c.total, 118972826624ULL);
    assert_int_equal(c.active, 6095717376ULL);
    assert_int_equal(c.buffers, 0);
    assert_string_equal(lm.model_type, "mistral4");
    assert_string_equal(lm.approximate, "");
    assert_true(gs_arch_has_mla(&lm));
    assert_int_equal(gs_arch_moe_layers(&lm), 36);
    for (size_t k = 0; k < lm.block_count; k++)
        if (lm.blocks[k].mlp.kind == GS_MLP_MOE) {
            assert_true(lm.blocks[k].mlp.router_parameter);
            assert_false(lm.blocks[k].mlp.router_fp32);
        }
    assert_int_equal(fixture_layout(&lm, 1).bytes_per_token, 36 * 640);

    const struct gs_arch vl = fixture_arch(
        "{\"model_type\": \"mistral3\", \"architectures\": [\"Mistral3ForConditionalGeneration\"],"
        " \"spatial_merge_size\": 2, \"multimodal_projector_bias\": false,"
        " \"image_token_id\": 10, \"vision_feature_layer\": -1, \"text_config\": %s,"
        " \"vision_config\": {\"head_dim\": 64, \"hidden_act\": \"silu\", \"hidden_size\": 1024,"
        " \"image_size\": 1540, \"intermediate_size\": 4096, \"model_type\": \"pixtral\","
        " \"num_attention_heads\": 16, \"num_channels\": 3, \"num_hidden_layers\": 24,"
        " \"patch_size\": 14, \"rope_theta\": 10000.0}}",
        text);
    c = fixture_count(&vl);
    assert_int_equal(c.vision, 428472320ULL);
    assert_int_equal(c.total, 119401298944ULL);
    towers_are(&vl, 1, GS_PART_VISION, false);
    assert_int_equal(fixture_layout(&vl, 1).bytes_per_token, 36 * 640);
}

/* qwen2_5_vl/README.md: 3B = 3,754,622,976 (vision 668,684,288, tied, so
 * active = text 3,085,938,688); 7B = 8,292,166,656 (vision 676,550,144,
 * untied: active = 7,070,619,136 + 544,997,376 head - 544,997,376
 * embedding). KV: 3B 36 * 2*2*128*2 = 36,864 B; 7B 28 * 2,048 = 57,344 B. */
static void test_qwen2_5_vl(void **state)
{
    (void)state;
    const struct gs_arch s = fixture_arch_file("qwen2_5_vl/Qwen__Qwen2.5-VL-3B-Instruct.json");
    struct gs_param_count c = fixture_count(&s);
    assert_int_equal(c.total, 3754622976ULL);
    assert_int_equal(c.vision, 668684288ULL);
    assert_int_equal(c.active, 3085938688ULL);
    assert_int_equal(c.lm_head, 0);
    towers_are(&s, 1, GS_PART_VISION, false);
    assert_int_equal(s.towers[0].layers, 32);
    assert_int_equal(fixture_layout(&s, 1).bytes_per_token, 36864);
    /* 4,096 tokens: 36,864 * 4,096 = 150,994,944 */
    assert_int_equal(serve(&s, 1, 4096, 0), 150994944ULL);

    const struct gs_arch l = fixture_arch_file("qwen2_5_vl/Qwen__Qwen2.5-VL-7B-Instruct.json");
    c = fixture_count(&l);
    assert_int_equal(c.total, 8292166656ULL);
    assert_int_equal(c.vision, 676550144ULL);
    assert_int_equal(c.active, 7070619136ULL);
    assert_int_equal(c.lm_head, 544997376ULL);
    assert_int_equal(layers_where(&l, GS_SPAN_FULL, 0, 0), 28);
    assert_int_equal(fixture_layout(&l, 1).bytes_per_token, 57344);
    /* tensor 4 over 4 KV heads: one head, 2*1*128*2 = 512 B a layer */
    assert_int_equal(fixture_layout(&l, 4).bytes_per_token, 28 * 512);
}

/* EXAONE 4.5 (exaone4_5; modular_exaone4_5.py), Exaone4_5_Config's defaults (which are not the
 * 33B checkpoint's: Exaone4Config's text and Qwen2.5-VL's tower). Text, a layer: q/k/v/o 4 x
 * 4,096^2 + per-head q_norm and k_norm 2 x 128 + the MLP 3 x 4,096 x 16,384 + two post-norms
 * 8,192 = 268,443,904; x 32 + embedding and untied head 2 x 102,400 x 4,096 + the norm 4,096 =
 * 9,429,069,824. The tower, a block (3,584 wide, 16 heads of 224, 8 K/V heads): norms 7,168,
 * qkv 3,584 x (3,584 + 2 x 8 x 224) + bias = 25,697,280, proj 12,848,640, the gated MLP with
 * biases 2 x (3,584 x 3,420 + 3,420) + 3,420 x 3,584 + 3,584 = 36,782,264: 75,335,352; x 32 +
 * patch_embed 3,584 x 3 x 2 x 14^2 = 4,214,784 + the merger (ln_q 3,584, 14,336^2 + 14,336,
 * 14,336 x 3,584 + 3,584) 256,922,624 = 2,671,868,672. 12,100,938,496 in all. Layers: every
 * fourth sliding_window_pattern layer full (8), the others over 4,096 tokens; 2 x 32 x 128 x 2
 * = 16,384 B a layer and token. The top-level tie_word_embeddings ties the head; K/V heads as
 * many as the heads add 32 x (3,584^2 + 3,584) to qkv. */
static void test_exaone4_5(void **state)
{
    (void)state;
    const struct gs_arch a = fixture_arch("{\"model_type\": \"exaone4_5\"}");
    const struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.total, 12100938496ULL);
    assert_int_equal(c.vision, 2671868672ULL);
    assert_int_equal(c.lm_head, 419430400ULL);
    assert_int_equal(layers_where(&a, GS_SPAN_FULL, 0, 0), 8);
    towers_are(&a, 1, GS_PART_VISION, false);
    const struct gs_kv_layout k = fixture_layout(&a, 1);
    assert_int_equal(k.full_token_bytes, 8 * 16384);
    assert_int_equal(k.window_layers, 24);

    const struct gs_arch tied =
        fixture_arch("{\"model_type\": \"exaone4_5\","
                     " \"tie_word_embeddings\": true,"
                     " \"text_config\": {\"model_type\": \"exaone4_5_text\"}}");
    assert_int_equal(fixture_count(&tied).total, 12100938496ULL - 419430400ULL);
    const struct gs_arch mha = fixture_arch(
        "{\"model_type\": \"exaone4_5\", \"vision_config\": {\"num_key_value_heads\": 16}}");
    assert_int_equal(fixture_count(&mha).vision, 2671868672ULL + 32ULL * (3584 * 3584 + 3584));
}

/* Qwen2-VL (qwen2_vl; modeling_qwen2_vl.py): the Qwen2-7B text of Qwen2-VL-7B (the Qwen2.5-VL-7B
 * fixture's: 7,615,616,512 with q/k/v biases) and Qwen2VLVisionConfig's defaults, which are
 * Qwen2-VL-7B's ViT. The tower: patch_embed 1,280 x 1,176 = 1,505,280 (no bias); a block: norm1,
 * norm2 LayerNorms 5,120, qkv 1,280 x 3,840 + 3,840 = 4,919,040, proj 1,280^2 + 1,280 = 1,639,680,
 * fc1 1,280 x 5,120 + 5,120 and fc2 5,120 x 1,280 + 1,280 = 13,113,600: 19,677,440, x 32 =
 * 629,678,080; merger ln_q 2,560, mlp.0 5,120^2 + 5,120 = 26,219,520, mlp.2 5,120 x 3,584 + 3,584
 * = 18,353,664: 675,759,104. 8,291,375,616 in all - the "8.29B" Qwen2-VL-7B-Instruct is published
 * as. KV 28 x 2 x 4 x 128 x 2 = 57,344 B a token. */
static void test_qwen2_vl(void **state)
{
    (void)state;
    const struct gs_arch a = fixture_arch(
        "{\"model_type\": \"qwen2_vl\", \"hidden_size\": 3584, \"intermediate_size\": 18944,"
        " \"num_hidden_layers\": 28, \"num_attention_heads\": 28, \"num_key_value_heads\": 4,"
        " \"vocab_size\": 152064, \"max_position_embeddings\": 32768, \"tie_word_embeddings\":"
        " false, \"vision_config\": {}}");
    const struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.vision, 675759104ULL);
    assert_int_equal(c.total, 8291375616ULL);
    assert_int_equal(fixture_layout(&a, 1).full_token_bytes, 57344);
    towers_are(&a, 1, GS_PART_VISION, false);
    assert_false(a.blocks[a.towers[0].block].mlp.gated);
    assert_int_equal(a.mm_image.tokens, 16384); /* Qwen2.5-VL's processor bound, the same */
}

/* GLM-4.1V (glm4v; modeling_glm4v.py) at Glm4vConfig's defaults - GLM-4.1V-9B's and
 * GLM-4.6V-Flash's shapes. Text, a layer: q 4,096^2 + 4,096, k and v 4,096 x 256 + 256 each (biases
 * always; head_dim 4,096 / 32 = 128), o 4,096^2: 35,656,192; gate_up_proj 4,096 x 27,392 + down
 * 13,696 x 4,096: 168,296,448; four norms 16,384: 203,969,024; x 40 = 8,158,760,960, + embedding
 * and untied head 2 x 151,552 x 4,096 = 1,241,513,984 and the final norm 4,096: 9,400,279,040. The
 * tower (1,536 wide, 24 blocks; the block's MLP out_hidden_size 4,096 wide): positions 576 x 1,536
 * = 884,736, patch_embed 1,536 x 1,176 + 1,536 = 1,807,872, two norms 3,072, blocks 24 x 28,314,624
 * = 679,550,976, downsample 4,096 x 6,144 + 4,096 = 25,169,920, merger 4,096^2 + LayerNorm 8,192 +
 * 3 x 4,096 x 13,696 = 185,081,856: 892,498,432. 10,292,777,472 in all (GLM-GA's "~10B", the same
 * classes). KV 40 x 2 x 2 x 128 x 2 = 40,960 B a token. The largest image: 28 x 28 x 15,000 pixels
 * over temporal_patch_size 2 frames, 5,880,000 a frame, 7,500 tokens of 2 x 2 patches (30,000),
 * each 3 x 2 x 14^2 = 1,176 values. */
static void test_glm4v(void **state)
{
    (void)state;
    static const char *const types[] = {"glm4v", "glm46v", "glmga"};
    for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
        const struct gs_arch a = fixture_arch("{\"model_type\": \"%s\"}", types[i]);
        const struct gs_param_count c = fixture_count(&a);
        assert_int_equal(c.total, 10292777472ULL);
        assert_int_equal(c.vision, 892498432ULL);
        assert_int_equal(c.lm_head, 620756992ULL);
        towers_are(&a, 1, GS_PART_VISION, false);
        assert_int_equal(fixture_layout(&a, 1).full_token_bytes, 40960);
        assert_true(a.rope_mrope);
        assert_int_equal(a.mm_image.tokens, 6144);
        assert_int_equal(a.mm_image.patches, 24576);
        assert_int_equal(a.mm_image.pixels, 24576ULL * 1176);
        assert_int_equal(a.mm_embed_width, 4096);
    }
    /* Glm4vTextAttention takes head_dim from hidden_size / heads whatever the config says, and
     * biases q, k and v whatever attention_bias says */
    const struct gs_arch odd =
        fixture_arch("{\"model_type\": \"glm4v\", \"text_config\": {\"head_dim\": 256,"
                     " \"attention_bias\": false}}");
    assert_int_equal(fixture_count(&odd).total, 10292777472ULL);
    /* tied only where the top-level tie_word_embeddings says so */
    const struct gs_arch tied =
        fixture_arch("{\"model_type\": \"glm4v\", \"tie_word_embeddings\": true,"
                     " \"text_config\": {\"tie_word_embeddings\": false}}");
    assert_int_equal(fixture_count(&tied).total, 10292777472ULL - 620756992ULL);
    /* Glm4vVisionConfig's attention_bias puts a bias on the fused qkv: 24 x 4,608 */
    const struct gs_arch biased =
        fixture_arch("{\"model_type\": \"glm4v\", \"vision_config\": {\"attention_bias\": true}}");
    assert_int_equal(fixture_count(&biased).vision, 892498432ULL + 24 * 4608);
}

/* GLM-4.5V (glm4v_moe) as transformers loads it, and GLM-4.6V's glm46v wrapper naming the same
 * glm4v_moe_text model: 107,710,927,360 parameters, the vision tower 858,681,856 and 45 x 128
 * correction-bias buffers - the published safetensors inventory's 107,710,933,120 stored elements
 * (hand count in the fixture's README). Glm4vMoeTextAttention has no q/k norms whatever use_qk_norm
 * says (Glm4vMoeTextConfig deletes the key). */
static void test_glm4v_moe(void **state)
{
    (void)state;
    const char *file = "glm4v_moe/zai-org__GLM-4.5V.as-loaded.json";
    const struct gs_arch a = fixture_arch_file(file);
    const struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.total, 107710927360ULL);
    assert_int_equal(c.vision, 858681856ULL);
    assert_int_equal(c.buffers, 45 * 128);
    assert_int_equal(c.total + c.buffers, 107710933120ULL);
    assert_int_equal(c.active, 12803366912ULL);
    assert_int_equal(fixture_layout(&a, 1).full_token_bytes, 188416);
    assert_int_equal(a.mm_image.tokens, 6144);
    const struct gs_arch glm46v = fixture_arch_file_set(file, "model_type", "\"glm46v\"");
    assert_int_equal(fixture_count(&glm46v).total, 107710927360ULL);
    const struct gs_arch qk =
        fixture_arch("{\"model_type\": \"glm4v_moe\", \"text_config\": {\"use_qk_norm\": true}}");
    const struct gs_arch plain = fixture_arch("{\"model_type\": \"glm4v_moe\"}");
    assert_int_equal(fixture_count(&qk).total, fixture_count(&plain).total);
}

/* GLM-OCR (glm_ocr; modeling_glm_ocr.py), zai-org/GLM-OCR's config (the fixture's README). Text, a
 * layer (16 heads and 8 KV heads of 128, no biases): q 1,536 x 2,048 = 3,145,728, k and v 1,536 x
 * 1,024 each, o 2,048 x 1,536: 9,437,184; gate_up 1,536 x 9,216 + down 4,608 x 1,536: 21,233,664;
 * four norms 6,144: 30,676,992; x 16 = 490,831,872, + embedding and head 2 x 59,392 x 1,536 =
 * 182,452,224 and the final norm 1,536: 673,285,632. The tower (1,024 wide, 16 heads of 64, biases
 * on): patch_embed 1,024 x 1,176 + 1,024 = 1,205,248 (no position table, no post-conv norm); a
 * block: norm1, norm2 2,048, qkv 1,024 x 3,072 + 3,072, proj 1,024^2 + 1,024, q_norm and k_norm
 * 128, the MLP 3 x 1,024 x 4,096 + 2 x 4,096 + 1,024 = 16,792,704, x 24 = 403,024,896;
 * post_layernorm 1,024; downsample 1,024 x 4 x 1,536 + 1,536 = 6,292,992; merger 1,536^2 + 3,072 +
 * 3 x 1,536 x 4,608 = 23,596,032: 434,120,192. 1,107,405,824 in all (the card's "0.9B" is 490.8M
 * of layers + 434.1M of tower, without the embeddings). The MTP layer the checkpoint stores: a layer
 * 30,676,992 + enorm, hnorm, shared_head.norm 4,608 + eh_proj 2 x 1,536^2 + embedding and head
 * 182,452,224 = 217,852,416. KV 16 x 2 x 8 x 128 x 2 = 65,536 B a token. */
static void test_glm_ocr(void **state)
{
    (void)state;
    const struct gs_arch a = fixture_arch_file("glm_ocr/zai-org__GLM-OCR.json");
    const struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.total, 1107405824ULL);
    assert_int_equal(c.vision, 434120192ULL);
    assert_int_equal(c.mtp, 217852416ULL);
    assert_int_equal(fixture_layout(&a, 1).full_token_bytes, 65536);
    assert_true(a.rope_mrope);
    assert_int_equal(a.mm_image.tokens, 6144);
    assert_int_equal(a.mm_embed_width, 1536);
    /* attention_bias off: 24 x (3,072 + 1,024 + 2 x 4,096 + 1,024) biases fewer */
    const struct gs_arch plain = fixture_arch_file_set(
        "glm_ocr/zai-org__GLM-OCR.json", "vision_config",
        "{\"hidden_size\": 1024, \"attention_bias\": false, \"intermediate_size\": 4096}");
    assert_int_equal(fixture_count(&plain).vision, 434120192ULL - 24ULL * 13312);
}

/* MiMo-V2.5 (mimo_v2), its config.json (the fixture's README), against the published safetensors
 * inventory: 310,775,040,000 stored elements = 309,768,490,432 parameters + 47 x 256
 * correction-bias buffers (12,032) + the fp8 scales (18,669,312 + 48,000) + the three model.mtp
 * layers (987,820,224), which the config does not count. The text is MiMo-V2-Flash's (its README:
 * 308,778,768,832; a fused qkv_proj of 64 x 192 + 2 x (4 or 8) x (192, 128) rows); the vision tower
 * a block: norm1, norm2 2,560, qkv 1,280 x 3,072 + 3,072, proj 2,048 x 1,280 + 1,280, the MLP 3 x
 * 1,280 x 4,608 + 2 x 4,608 + 1,280 = 24,265,728, x 28 = 679,440,384, sinks 24 x 32, ln_q 1,280,
 * mlp.0 5,120^2, mlp.2 5,120 x 4,096, patch_embed 1,280 x 3 x 2 x 16^2 = 1,966,080: 728,594,432;
 * the audio encoder: 20 x 1,280 x 1,024 speech embeddings 26,214,400, 6 layers of 2 x 1,024 norms
 * + q/k/v 3 x (1,024^2 + 1,024) + o 1,024^2 + 3 x 1,024 x 4,096 = 16,782,336 (100,694,016), the
 * final norm 1,024, the projection 2 x 4,096 x 16,384: 261,127,168. KV as MiMo-V2-Flash's. */
static void test_mimo_v2(void **state)
{
    (void)state;
    const struct gs_arch a = fixture_arch_file("mimo_v2/XiaomiMiMo__MiMo-V2.5.json");
    const struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.total, 309768490432ULL);
    assert_int_equal(c.vision, 728594432ULL);
    assert_int_equal(c.audio, 261127168ULL);
    assert_int_equal(c.buffers, 47 * 256);
    assert_int_equal(c.total - c.vision - c.audio, 308778768832ULL);
    fixture_assert_cache(&a, 1, 222720, 0);
    bool fused = false;
    for (size_t i = 0; i < a.blocks[a.layer_block[0]].module_count; i++)
        fused |= strcmp(a.blocks[a.layer_block[0]].modules[i].name, "qkv_proj") == 0;
    assert_true(fused);
    /* MiMo-V2.5-Pro (the README): the same classes, text only, 70 layers (10 full, 60 sliding,
     * 8 KV heads each): 1,021,248,099,840 + 69 x 384 buffers; with the fp8 scales (61,877,376)
     * and three MTP layers (1,934,715,264) its inventory's 1,023,244,718,976. KV 10 x 8 x 320 x 2
     * + 60 x 8 x 320 x 2 = 358,400 B a token. Both keep every o_proj in bf16
     * (quantization_config.ignored_layers). */
    const struct gs_arch pro = fixture_arch_file("mimo_v2/XiaomiMiMo__MiMo-V2.5-Pro.json");
    const struct gs_param_count p = fixture_count(&pro);
    assert_int_equal(p.total, 1021248099840ULL);
    assert_int_equal(p.buffers, 69 * 384);
    assert_int_equal(p.vision + p.audio, 0);
    fixture_assert_cache(&pro, 1, 358400, 0);
    assert_string_equal(pro.checkpoint.unquantized_modules, ",o_proj,");
    assert_string_equal(a.checkpoint.unquantized_modules, ",o_proj,");
    /* speech_vocab_size is written as a string; one that is not a number is refused */
    fixture_assert_reader_error("{\"model_type\": \"mimo_v2\", \"hidden_size\": 64,"
                                " \"vocab_size\": 100, \"num_hidden_layers\": 1,"
                                " \"num_attention_heads\": 4, \"num_key_value_heads\": 2,"
                                " \"intermediate_size\": 32, \"n_routed_experts\": 4,"
                                " \"num_experts_per_tok\": 2, \"moe_intermediate_size\": 16,"
                                " \"audio_config\": {\"audio_channels\": 2,"
                                " \"speech_vocab_size\": \"many\", \"input_local_dim\": 8,"
                                " \"input_local_layers\": 1, \"input_local_attn_heads\": 2,"
                                " \"input_local_intermediate_size\": 16, \"group_size\": 2,"
                                " \"out_hidden_size\": 64}}",
                                "/audio_config/speech_vocab_size");
}

/* DeepSeek-OCR (model_type deepseek_vl_v2, DeepseekOCRForCausalLM), its config.json against the
 * published safetensors inventory (the fixture's README): 3,336,106,240 elements, all parameters.
 * Text, 12 layers of 1,280: attention 4 x 1,280^2 = 6,553,600 (no MLA, no biases), two norms
 * 2,560; layer 0's SwiGLU 3 x 1,280 x 6,848 = 26,296,320; layers 1-11: 64 experts 3 x 1,280 x 896
 * = 220,200,960, two shared 3 x 1,280 x 1,792 = 6,881,280, the gate 64 x 1,280 = 81,920; embedding
 * and head 2 x 129,280 x 1,280 = 330,956,800, the final norm 1,280: 2,934,734,080. The encoder:
 * SAM ViT-B - patch 768 x 768 + 768 = 590,592, positions 64^2 x 768 = 3,145,728, 12 blocks of
 * 2 LayerNorms 3,072 + qkv 768 x 2,304 + 2,304 + proj 768^2 + 768 + lin1/lin2 2 x 768 x 3,072 +
 * 3,072 + 768 = 7,087,872 (85,054,464), rel_pos 2 x 64 x (8 x 27 + 4 x 127) = 92,672, neck 768 x
 * 256 + 512 + 256 x 256 x 9 + 512 = 787,456, net_2 256 x 9 x 512 = 1,179,648, net_3 512 x 9 x
 * 1,024 = 4,718,592: 95,569,152; CLIP-L - class 1,024, patch 588 x 1,024 = 602,112, 257
 * positions 263,168, pre_layrnorm 2,048, 24 layers of 2 LayerNorms 4,096 + qkv 1,024 x 3,072 +
 * 3,072 + out 1,024^2 + 1,024 + fc1/fc2 2 x 1,024 x 4,096 + 4,096 + 1,024 = 12,596,224
 * (302,309,376): 303,177,728; the projector 2,048 x 1,280 + 1,280 and two 1,280 rows: 2,625,280.
 * 401,372,160 in all. Active (6 of 64 experts, the head, not the input embedding) 574,127,360 -
 * the paper's "DeepSeek3B-MoE-A570M". KV: 12 x 2 x 10 x 128 x 2 = 61,440 B a token. */
static void test_deepseek_ocr(void **state)
{
    (void)state;
    const char *file = "deepseek_ocr/deepseek-ai__DeepSeek-OCR.json";
    const struct gs_arch a = fixture_arch_file(file);
    const struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.total, 3336106240ULL);
    assert_int_equal(c.vision, 401372160ULL);
    assert_int_equal(c.total - c.vision, 2934734080ULL);
    assert_int_equal(c.active, 574127360ULL);
    assert_int_equal(fixture_layout(&a, 1).full_token_bytes, 61440);
    assert_string_equal(a.read_as, "deepseek_ocr");
    /* an MLA language model is DeepSeek-VL2's, not this reader's; a missing encoder is refused */
#define TOY_DEEPSEEK_OCR(mla, vision)                                                              \
    "{\"model_type\": \"deepseek_vl_v2\", \"architectures\": [\"DeepseekOCRForCausalLM\"],"        \
    " \"language_config\": {\"hidden_size\": 64, \"intermediate_size\": 128,"                      \
    " \"num_hidden_layers\": 2, \"num_attention_heads\": 4, \"vocab_size\": 100,"                  \
    " \"n_routed_experts\": 4, \"num_experts_per_tok\": 2, \"moe_intermediate_size\": 32,"         \
    " \"use_mla\": " mla "}" vision "}"
    fixture_assert_refused(TOY_DEEPSEEK_OCR("true", ""), GS_ERR_INVALID,
                           FIXTURE_POINTERS("/model/config/language_config/use_mla"));
    fixture_assert_refused(TOY_DEEPSEEK_OCR("false", ""), GS_ERR_INVALID,
                           FIXTURE_POINTERS("/model/config/vision_config"));
    fixture_assert_refused(TOY_DEEPSEEK_OCR("false", ", \"vision_config\": []"), GS_ERR_INVALID,
                           FIXTURE_POINTERS("/model/config/vision_config"));
#undef TOY_DEEPSEEK_OCR
}

/* DeepSeek-OCR-2 (read by DeepseekOCR2ForCausalLM; the fixture's README), by hand:
 * - SAM ViT-B: patch 590,592, positions 64 x 64 x 768 = 3,145,728, 12 blocks of 7,087,872 (norms
 *   3,072, qkv 1,771,776, proj 590,592, lin1 2,362,368, lin2 2,360,064) = 85,054,464 and their
 *   relative-position tables 8 x 2 x 27 x 64 + 4 x 2 x 127 x 64 = 92,672, the neck 787,456, net_2
 *   256 x 512 x 9 = 1,179,648, net_3 512 x 896 x 9 = 4,128,768 (not the config's 1,024):
 *   94,979,328;
 * - the Qwen2 encoder: 24 layers of q 896^2 + 896, k and v 2 x (896 x 128 + 128), o 896^2, SwiGLU
 *   3 x 896 x 4,864, norms 1,792 = 14,912,384, the norm 896: 357,898,112; queries (144 + 256) x
 *   896 = 358,400;
 * - the projector 896 x 1,280 + 1,280 = 1,148,160, view_seperator 1,280;
 * - the language model (DeepSeek-OCR's shapes): 2,934,734,080.
 * 3,389,119,360 (the hub's metadata); active 574,127,360. The converter's native config reads the
 * same. */
static void test_deepseek_ocr2(void **state)
{
    (void)state;
    struct gs_arch a = fixture_arch_file("deepseek_ocr2/deepseek-ai__DeepSeek-OCR-2.json");
    struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.total, 3389119360ULL);
    assert_int_equal(c.active, 574127360ULL);
    assert_int_equal(c.vision, 94979328ULL + 357898112 + 358400 + 1148160 + 1280);
    assert_int_equal(a.mm_image.tokens, 256 + 6 * 144 + 1);
    assert_int_equal(fixture_layout(&a, 1).bytes_per_token, 12 * 2 * 10 * 128 * 2);
    a = fixture_arch_file("deepseek_ocr2/deepseek_ocr2-native.json");
    assert_int_equal(fixture_count(&a).total, 3389119360ULL);
    /* transformers' text config has no default for mlp_layer_types */
    fixture_assert_reader_error(
        "{\"model_type\": \"deepseek_ocr2\", \"text_config\": {\"hidden_size\": 64,"
        " \"num_hidden_layers\": 2, \"num_attention_heads\": 4, \"intermediate_size\": 128,"
        " \"vocab_size\": 100}, \"vision_config\": {}}",
        "/text_config/mlp_layer_types");
}

/* Muse Glimmer (muse_glimmer; modeling_muse_glimmer.py), MuseGlimmerConfig's defaults, which are
 * meta-models/Muse-Glimmer-30B's shapes (its converter changes only the rope theta). Text, a layer:
 * q 6,656 x 4,096 = 27,262,976, k and v 6,656 x 256 = 1,703,936 each, the output gate's
 * gate_proj 27,262,976, o 27,262,976 (the q/k norm has no weight): attention 85,196,800; the
 * SwiGLU MLP 3 x 6,656 x 19,968 = 398,721,024; four norms 26,624: 483,944,448; x 52 =
 * 25,165,111,296, + embedding 202,048 x 6,656 = 1,344,831,488, the final norm 6,656 and the untied
 * head 1,344,831,488: 27,854,780,928. The tower, a block (1,536 wide, 16 heads of 96): two
 * LayerNorms 6,144, q/k/v/proj 4 x (1,536^2 + 1,536) = 9,443,328, fc1 1,536 x 8,960 + 8,960 =
 * 13,771,520, fc2 8,960 x 1,536 + 1,536 = 13,764,096: 36,985,088; x 50 = 1,849,254,400, +
 * patch_embedding 2 x 3 x 14^2 x 1,536 = 1,806,336, the 32 x 32 position table 1,572,864, ln_pre
 * and ln_post 6,144: 1,852,639,744; the projector 6,144 x 4,096 + 4,096^2 + 4,096 x 6,656 =
 * 69,206,016. 29,776,626,688 in all ("30B"); active (the head, not the lookup) 26,509,949,440.
 * Layers: every fourth from the last full (3, 7, ..., 51: 13) and without rope, the other 39
 * over 2,048 tokens; 2 x 2 x 128 x 2 = 1,024 B a layer and token, 53,248 for all 52; TP 4
 * replicates the 2 KV heads, 512 a layer. An image at most 4,096 tokens of 2 x 2 patches, each
 * 2 x 3 x 14^2 = 1,176 values. */
static void test_muse_glimmer(void **state)
{
    (void)state;
    const struct gs_arch a = fixture_arch("{\"model_type\": \"muse_glimmer\"}");
    const struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.total, 29776626688ULL);
    assert_int_equal(c.vision, 1852639744ULL + 69206016ULL);
    assert_int_equal(c.attention, 52ULL * 85196800);
    assert_int_equal(c.mlp, 52ULL * 398721024);
    assert_int_equal(c.norms, 52ULL * 26624 + 6656);
    assert_int_equal(c.lm_head, 1344831488ULL);
    assert_int_equal(c.active, 26509949440ULL);
    assert_true(a.final_logit_softcap);
    assert_false(a.tie_word_embeddings);
    assert_int_equal(layers_where(&a, GS_SPAN_FULL, 0, 0), 13);
    assert_int_equal(a.blocks[a.layer_block[51]].attn.span, GS_SPAN_FULL);
    assert_true(a.blocks[a.layer_block[51]].attn.nope);
    assert_int_equal(a.blocks[a.layer_block[0]].attn.window, 2048);
    assert_false(a.blocks[a.layer_block[0]].attn.nope);
    towers_are(&a, 1, GS_PART_VISION, false);
    const struct gs_kv_layout k = fixture_layout(&a, 1);
    assert_int_equal(k.bytes_per_token, 53248);
    assert_int_equal(k.full_token_bytes, 13 * 1024);
    assert_int_equal(k.window_layers, 39);
    assert_int_equal(fixture_layout(&a, 4).bytes_per_token, 52 * 512);
    assert_int_equal(a.mm_image.tokens, 4096);
    assert_int_equal(a.mm_image.patches, 4096 * 4);
    assert_int_equal(a.mm_image.pixels, 4096ULL * 4 * 1176);
    fixture_assert_vllm_serving(&a, 4, 1, 80000000000ULL);
    /* a top-level tie_word_embeddings ties the head (get_expanded_tied_weights_keys reads it) */
    const struct gs_arch tied =
        fixture_arch("{\"model_type\": \"muse_glimmer\", \"tie_word_embeddings\": true}");
    assert_int_equal(fixture_count(&tied).total, 29776626688ULL - 1344831488ULL);
    fixture_assert_reader_error("{\"model_type\": \"muse_glimmer\", \"out_hidden_size\": 4096}",
                                "/out_hidden_size");
}

/* PaddleOCR-VL (paddleocr_vl; the fixture's README), by hand:
 * - text (ERNIE 4.5, h 1,024, 16 heads of 128, 2 KV heads): q and o 1,024 x 2,048 = 2,097,152
 *   each, k and v 262,144 each, SwiGLU 3 x 1,024 x 3,072 = 9,437,184, norms 2,048: 14,157,824 a
 *   layer, x 18 = 254,840,832; embedding and the untied head 105,906,176 each, the norm 1,024:
 *   466,654,208;
 * - the tower: patch 1,152 x 588 + 1,152 = 678,528, positions 729 x 1,152 = 839,808, 27 SigLIP
 *   layers of 4 x (1,152^2 + 1,152) + 1,152 x 4,304 + 4,304 + 4,304 x 1,152 + 1,152 + 2 x 2,304
 *   = 15,239,504, post_layernorm 2,304: 412,987,248;
 * - the projector: pre_norm 2,304, linear_1 4,608^2 + 4,608, linear_2 4,608 x 1,024 + 1,024:
 *   25,960,192.
 * 905,601,648; the checkpoint's packing_position_embedding 37,748,736 and pooling head 15,238,352
 * make its header's 958,588,736. An image: 1,680^2 pixels, 3,600 tokens of 4 patches. */
static void test_paddleocr_vl(void **state)
{
    (void)state;
    struct gs_arch a = fixture_arch_file("paddleocr_vl/PaddlePaddle__PaddleOCR-VL.json");
    struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.total, 905601648ULL);
    assert_int_equal(c.total + 37748736 + 15238352, 958588736ULL);
    assert_int_equal(c.vision, 412987248ULL + 25960192);
    assert_int_equal(a.mm_image.tokens, 3600);
    assert_int_equal(a.mm_image.patches, 14400);
    assert_int_equal(fixture_layout(&a, 1).bytes_per_token, 18 * 2 * 2 * 128 * 2);
    /* the top-level flag ties the head, as PaddleOCRVLConfig's default does */
    a = fixture_arch_file_set_in("paddleocr_vl/PaddlePaddle__PaddleOCR-VL.json", NULL,
                                 "tie_word_embeddings", NULL);
    assert_int_equal(fixture_count(&a).total, 905601648ULL - 105906176);
}

/* HunyuanOCR 1.5 (hunyuan_vl; the fixture's README), by hand:
 * - text (HunYuanDenseV1, h 1,024, 16 heads of 128, 8 KV heads): q and o 2,097,152 each, k and v
 *   1,048,576 each, query/key norms 256, SwiGLU 3 x 1,024 x 3,584 = 11,010,048, norms 2,048:
 *   17,303,808 a layer, x 24 = 415,291,392; the tied embedding 120,818 x 1,024 = 123,717,632, the
 *   norm 1,024: 539,010,048;
 * - the tower: patch 1,152 x 768 + 1,152 = 885,888, positions (2,048 / 16)^2 + 1 = 16,385 x 1,152
 *   = 18,875,520, 27 layers of 15,239,504 (as PaddleOCR-VL's): 411,466,608;
 * - the merger: before_rms 1,152, proj_conv 2,304 x 1,152 x 4 + 2,304 = 10,619,136, proj_out
 *   4,608 x 2,304 + 4,608 = 10,621,440, mlp 4,608 x 1,024 + 1,024 = 4,719,616, image_newline
 *   4,608, begin/end/sep 3,072, after_rms 1,024: 25,970,048.
 * 996,208,112 (transformers' loaded count). The flat 1.0 layout (the text keys at the top level,
 * attention_head_dim) reads the same. vLLM's profile image: 512 x 32 patches, 256 x 17 + 2 =
 * 4,354 tokens. */
static void test_hunyuan_vl(void **state)
{
    (void)state;
    struct gs_arch a = fixture_arch_file("hunyuan_vl/tencent__HunyuanOCR.json");
    struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.total, 996208112ULL);
    assert_int_equal(c.vision, 885888ULL + 18875520 + 411466608 + 25970048);
    assert_int_equal(a.mm_image.tokens, 4354);
    assert_int_equal(a.mm_image.patches, 16384);
    a = fixture_arch(
        "{\"model_type\": \"hunyuan_vl\", \"hidden_size\": 1024, \"num_hidden_layers\": 24,"
        " \"num_attention_heads\": 16, \"num_key_value_heads\": 8, \"attention_head_dim\": 128,"
        " \"intermediate_size\": 3584, \"vocab_size\": 120818, \"tie_word_embeddings\": true,"
        " \"vision_config\": {\"hidden_size\": 1152, \"intermediate_size\": 4304,"
        " \"num_hidden_layers\": 27, \"num_attention_heads\": 16, \"patch_size\": 16,"
        " \"spatial_merge_size\": 2, \"max_image_size\": 2048}}");
    assert_int_equal(fixture_count(&a).total, 996208112ULL);
}

/* Qianfan-OCR: InternVL's -HF tensors with QianfanOCRConfig's defaults (q/k/v biased in the tower,
 * a Qwen3 language model, the head untied). Its card's shapes (no published config.json was
 * found): InternViT-300M 304,012,288; the projector LayerNorm 2 x 4,096, linear_1 4,096 x 2,560 +
 * 2,560, linear_2 2,560 x 2,560 + 2,560 = 17,052,672; Qwen3-4B's layer q 2,560 x 4,096, k and v
 * 2 x 2,560 x 1,024, o 4,096 x 2,560, q/k norms 256, MLP 3 x 2,560 x 9,728, norms 5,120 =
 * 100,930,816, x 36 = 3,633,509,376 (the card's "3.6B non-embedding"), embedding and head
 * 2 x 151,936 x 2,560 = 777,912,320, the norm 2,560: 4,732,489,216. */
#define QIANFAN                                                                                    \
    "{\"model_type\": \"qianfan_ocr\"%s, \"text_config\": {%s\"vocab_size\": 151936,"              \
    " \"hidden_size\": 2560, \"intermediate_size\": 9728, \"num_hidden_layers\": 36,"              \
    " \"num_attention_heads\": 32, \"num_key_value_heads\": 8, \"head_dim\": 128},"                \
    " \"vision_config\": {%s}}"
static void test_qianfan_ocr(void **state)
{
    (void)state;
    const uint64_t text = 100930816ULL * 36 + 2 * 151936ULL * 2560 + 2560;
    const uint64_t projector = 2 * 4096 + 4096 * 2560 + 2560 + 2560 * 2560 + 2560;
    /* every default: the tower's q/k/v biased, the text model Qwen3 (its q/k norms counted),
     * untied */
    struct gs_arch a = fixture_arch(QIANFAN, "", "", "");
    struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.total, 4732489216ULL);
    assert_int_equal(c.total, 304012288ULL + projector + text);
    assert_int_equal(c.vision, 304012288ULL + projector);
    assert_int_equal(c.lm_head, 151936ULL * 2560);
    /* 12 tiles and a thumbnail of 256 tokens (vLLM's QianfanOCRConfig defaults) */
    assert_int_equal(a.mm_image.tokens, 13 * 256);
    assert_int_equal(a.mm_image.layout, GS_MM_CROPS);
    /* the transformers names written out, and vLLM's remote names for the same tower */
    a = fixture_arch(QIANFAN, ", \"tie_word_embeddings\": false", "\"model_type\": \"qwen3\", ",
                     "\"attention_bias\": true, \"use_qk_norm\": false");
    assert_int_equal(fixture_count(&a).total, 4732489216ULL);
    a = fixture_arch(QIANFAN, ", \"max_dynamic_patch\": 6", "",
                     "\"qkv_bias\": true, \"qk_normalization\": false");
    assert_int_equal(fixture_count(&a).total, 4732489216ULL);
    assert_int_equal(a.mm_image.tokens, 7 * 256);
    /* InternVL's defaults would drop the biases: 24 layers x 3 x 1,024 */
    a = fixture_arch(QIANFAN, "", "", "\"attention_bias\": false");
    assert_int_equal(fixture_count(&a).total, 4732489216ULL - 24 * 3 * 1024);
    /* the wrapper's flag ties (transformers 5), not the text config's */
    a = fixture_arch(QIANFAN, "", "\"tie_word_embeddings\": true, ", "");
    assert_int_equal(fixture_count(&a).total, 4732489216ULL);
    a = fixture_arch(QIANFAN, ", \"tie_word_embeddings\": true", "", "");
    assert_int_equal(fixture_count(&a).total, 4732489216ULL - 151936ULL * 2560);
}
#undef QIANFAN

/* minicpmv4_6/README.md: openbmb/MiniCPM-V-4.6, 1,300,428,016 (the Hub's safetensors total). */
static void test_minicpmv4_6(void **state)
{
    (void)state;
    const char *file = "minicpmv4_6/openbmb__MiniCPM-V-4.6.json";
    struct gs_arch a = fixture_arch_file(file);
    struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.total, 1300428016ULL);
    assert_int_equal(c.vision, 522299312ULL + 25967104);
    assert_int_equal(c.active, 752161600ULL);
    assert_int_equal(c.lm_head, 0);
    assert_int_equal(c.mtp, 0);
    towers_are(&a, 1, GS_PART_VISION, false);
    assert_int_equal(a.towers[0].layers, 27);
    fixture_assert_kinds(&a, (struct fixture_kinds){.attention = 6, .recurrent = 18, .moe = 0});
    /* the state in the model's dtype: (3 x 6,144 + 16 x 128 x 128) x 2 x 18 */
    assert_false(a.blocks[a.layer_block[0]].rec.fp32_state);
    fixture_assert_cache(&a, 1, 12288, 10100736ULL);
    assert_int_equal(a.mm_image.tokens, 648);
    assert_int_equal(a.mm_image.patches, 10368);
    assert_int_equal(a.mm_image.pixels, 10368ULL * 3 * 14 * 14);
    assert_int_equal(a.mm_embed_width, 1024);
    fixture_assert_vllm_serving(&a, 16, 1, 24000000000ULL);
    /* without the wrapper's flag transformers 5 unties (MiniCPMV4_6Config's default), whatever
     * text_config says */
    a = fixture_arch_file_set_in(file, NULL, "tie_word_embeddings", "false");
    assert_int_equal(fixture_count(&a).total, 1300428016ULL + 248094ULL * 1024);
    /* a second DownsampleMLP: pre_norm 4,608, linear_1 4,608^2 + 4,608, linear_2 4,608 x
     * 1,152 + 1,152 before the last */
    a = fixture_arch_file_set_in(file, NULL, "merger_times", "2");
    assert_int_equal(fixture_count(&a).total,
                     1300428016ULL + 9216 + 4608ULL * 4608 + 4608 + 4608ULL * 1152 + 1152);
}

/* Cosmos 3 Edge's reasoner, Cosmos3EdgeConfig's defaults (the shapes of every published Edge
 * config; none was found verbatim): text - embedding and untied head 2 x 131,072 x 2,048 =
 * 536,870,912, a layer q and o 2 x 2,048^2, k and v 2 x 2,048 x 1,024, fc1 and fc2 2 x 2,048 x
 * 9,216, norms 4,096 = 50,335,744, x 28 = 1,409,400,832, the norm 2,048: 1,946,273,792; tower -
 * patch nn.Linear 768 x 1,152 + 1,152, 256 positions x 1,152, 27 layers of 15,239,504,
 * post_layernorm 2,304: 412,649,712; merger - norm 2,304, linear_fc1 4,608 x 11,520 + 11,520,
 * linear_fc2 11,520 x 2,048 + 2,048: 76,692,992. 2,435,616,496 (a published measurement of the
 * understanding model, transformers 5.19: 2.4356B). KV 28 x 2 x 8 x 128 x 2 = 114,688. */
static void test_cosmos3_edge(void **state)
{
    (void)state;
    struct gs_arch a = fixture_arch("{\"model_type\": \"cosmos3_edge\"}");
    struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.total, 2435616496ULL);
    assert_int_equal(c.vision, 412649712ULL + 76692992);
    assert_int_equal(c.active, 1946273792ULL - 131072ULL * 2048);
    assert_int_equal(c.lm_head, 131072ULL * 2048);
    assert_int_equal(c.mlp, 28ULL * 2 * 2048 * 9216);
    fixture_assert_kinds(&a, (struct fixture_kinds){.attention = 28, .recurrent = 0, .moe = 0});
    fixture_assert_cache(&a, 1, 114688, 0);
    /* 4,096 x 4,096 pixels: 256 x 256 patches of 16, merged 2 x 2 */
    assert_int_equal(a.mm_image.tokens, 16384);
    assert_int_equal(a.mm_image.patches, 65536);
    assert_true(a.rope_mrope);
    fixture_assert_vllm_serving(&a, 8, 1, 80000000000ULL);
    /* the older layout: the text a nemotron_h config of 56 half-layers, the merger's width under
     * projector_config's misspelt key */
    a = fixture_arch("{\"model_type\": \"cosmos3_edge\", \"text_config\": {\"model_type\":"
                     " \"nemotron_h\", \"hidden_size\": 2048, \"num_hidden_layers\": 56,"
                     " \"hybrid_override_pattern\": \"*-*-*-*-*-*-*-*-*-*-*-*-*-*-*-*-*-*-*-*-*-"
                     "*-*-*-*-*-*-*-\", \"num_attention_heads\": 16, \"num_key_value_heads\": 8,"
                     " \"head_dim\": 128, \"intermediate_size\": 9216, \"vocab_size\": 131072,"
                     " \"mlp_hidden_act\": \"relu2\"}, \"projector_config\":"
                     " {\"merger_intermedia\": 11520}}");
    assert_int_equal(fixture_count(&a).total, 2435616496ULL);
    fixture_assert_cache(&a, 1, 114688, 0);
    a = fixture_arch("{\"model_type\": \"cosmos3_edge\", \"projector_hidden_size\": 5760}");
    assert_int_equal(fixture_count(&a).total,
                     2435616496ULL - 4608ULL * 5760 - 5760 - 5760ULL * 2048);
    fixture_assert_reader_error("{\"model_type\": \"cosmos3_edge\", \"text_config\":"
                                " {\"model_type\": \"llama\"}}",
                                "/text_config/model_type");
}

/* granite4_vision/README.md: granite-4.0-3b-vision, 3,997,206,464 tied. */
static void test_granite4_vision(void **state)
{
    (void)state;
    const char *file = "granite4_vision/ibm-granite__granite-4.0-3b-vision.json";
    struct gs_arch a = fixture_arch_file(file);
    struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.total, 3997206464ULL);
    assert_int_equal(c.vision, 428256704ULL + 8 * 20763520ULL + 2560);
    assert_int_equal(c.lm_head, 0);
    fixture_assert_kinds(&a, (struct fixture_kinds){.attention = 40, .recurrent = 0, .moe = 0});
    fixture_assert_cache(&a, 1, 81920, 0);
    assert_int_equal(a.mm_image.tokens, 1704);
    assert_int_equal(a.mm_image.crop_tokens, 144);
    assert_int_equal(a.mm_image.patches, 11 * 576);
    assert_int_equal(a.mm_image.pixels, 11ULL * 3 * 384 * 384);
    /* vLLM's _ds_buffers and packed encoder rows: 4 deepstack and 4 spatial levels */
    assert_int_equal(a.token_buffer_width, 8 * 2560);
    assert_int_equal(a.mm_embed_width, 8 * 2560);
    fixture_assert_vllm_serving(&a, 8, 1, 80000000000ULL);
    /* the wrapper's flag ties (default false), not the text config's */
    a = fixture_arch_file_set_in(file, NULL, "tie_word_embeddings", "false");
    assert_int_equal(fixture_count(&a).total, 4254110144ULL);
    /* a two-layer Q-Former with cross-attention every second layer: its second layer lacks the
     * cross-attention's 5,315,328, so 12,399,744 more a downsampler */
    a = fixture_arch_file_set_in(
        file, NULL, "qformer_config",
        "{\"hidden_size\": 1152, \"num_hidden_layers\": 2,"
        " \"cross_attention_frequency\": 2, \"encoder_hidden_size\": 1152}");
    assert_int_equal(fixture_count(&a).total, 3997206464ULL + 8 * 12399744ULL);
    /* two levels: six downsamplers */
    a = fixture_arch_file_set_in(file, NULL, "deepstack_layer_map", "[[-1, 0], [-7, 3]]");
    assert_int_equal(fixture_count(&a).total, 3997206464ULL - 2 * 20763520ULL);
    fixture_assert_reader_error("{\"model_type\": \"granite4_vision\", \"deepstack_layer_map\": [],"
                                " \"text_config\": {}}",
                                "/downsample_rate");
    fixture_assert_reader_error(
        "{\"model_type\": \"granite4_vision\", \"downsample_rate\": \"4/8\","
        " \"deepstack_layer_map\": [], \"text_config\": {},"
        " \"vision_config\": {\"hidden_size\": 1024}}",
        "/vision_config/model_type");
    fixture_assert_reader_error(
        "{\"model_type\": \"granite4_vision\", \"downsample_rate\": \"4/8\","
        " \"deepstack_layer_map\": []}",
        "/text_config");
}

/* Voxtral (voxtral) with VoxtralConfig's defaults, Voxtral-Mini-3B-2507's shapes (no published
 * config.json or exact total was found), by hand: the text model (Llama, 3,072 wide, 30 layers,
 * 32 heads and 8 KV heads of 128, MLP 8,192, untied) a layer 31,457,280 + 75,497,472 + 6,144 =
 * 106,960,896, x 30, embedding and head 2 x 131,072 x 3,072, the norm: 4,014,136,320; the
 * encoder (Whisper's: 1,280 wide, 32 layers, 20 heads, ffn 5,120, 128 mel bins) conv1
 * 128 x 1,280 x 3 + 1,280, conv2 1,280^2 x 3 + 1,280, 1,500 positions x 1,280, a layer
 * 3 x (1,280^2 + 1,280) + 1,280^2 + 5,120 (norms) + fc1 and fc2 13,113,600 = 19,676,160, x 32, the
 * final norm 2,560: 636,968,960; the projector 5,120 x 3,072 + 3,072^2 = 25,165,824: 4,676,271,104.
 * KV: 30 x 2 x 8 x 128 x 2 = 122,880 a token. */
static void test_voxtral(void **state)
{
    (void)state;
    struct gs_arch a = fixture_arch("{\"model_type\": \"voxtral\"}");
    struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.total, 4676271104ULL);
    assert_int_equal(c.audio, 636968960ULL + 25165824);
    assert_int_equal(c.lm_head, 131072ULL * 3072);
    fixture_assert_cache(&a, 1, 122880, 0);
    fixture_assert_vllm_serving(&a, 8, 1, 80000000000ULL);
    /* the text defaults apply to a text_config that leaves keys out (VoxtralConfig merges them),
     * and the head stays untied whatever it says */
    a = fixture_arch("{\"model_type\": \"voxtral\", \"text_config\": {\"num_hidden_layers\": 2,"
                     " \"tie_word_embeddings\": true}}");
    assert_int_equal(fixture_count(&a).total, 4676271104ULL - 28 * 106960896ULL);
}

/* granite_speech/README.md: granite-4.0-1b-speech, 2,313,141,596 and 65,536 BatchNorm buffer
 * values; GraniteSpeechConfig's defaults by the same formulas (encoder 10 layers: 274,808,106;
 * the default Q-Former 768 wide, 12 layers, cross-attention every second over 1,408-wide states:
 * 105,137,664, query 3 x 768, linear 768 x 4,096 + 4,096; GraniteConfig's text 6,607,343,616,
 * tied by default): 6,990,441,514. */
static void test_granite_speech(void **state)
{
    (void)state;
    const char *file = "granite_speech/ibm-granite__granite-4.0-1b-speech.json";
    struct gs_arch a = fixture_arch_file(file);
    struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.total, 2313141596ULL);
    assert_int_equal(c.audio, 440168796ULL + 35697664);
    assert_int_equal(c.buffers, 16 * 2 * 2048);
    assert_int_equal(c.lm_head, 100353ULL * 2048);
    fixture_assert_cache(&a, 1, 81920, 0);
    fixture_assert_vllm_serving(&a, 8, 1, 80000000000ULL);
    a = fixture_arch("{\"model_type\": \"granite_speech\"}");
    assert_int_equal(fixture_count(&a).total, 6990441514ULL);
    assert_int_equal(fixture_count(&a).lm_head, 0);
    /* the plus model: cat_hidden_layers [3] widen the cross-attention's keys and values to
     * 2 x 1,024 - 2 layers x 2 x 1,024^2 more */
    a = fixture_arch_file_set_in(file, NULL, "model_type", "\"granite_speech_plus\"");
    struct gs_arch b =
        fixture_arch_file_set_in(file, "projector_config", "encoder_hidden_size", "2048");
    assert_int_equal(fixture_count(&a).total, 2313141596ULL);
    assert_int_equal(fixture_count(&b).total, 2313141596ULL + 2 * 2 * 1024ULL * 1024);
}

/* ERNIE-4.5-VL-28B-A3B (ernie4_5_vl_moe with Ernie4_5_VLMoeConfig's defaults, documented as the
 * checkpoint's; ernie4_5_moe_vl with the checkpoint's own keys), by hand, h = 2,560:
 * - text: embedding 103,424 x 2,560 = 264,765,440 (the head tied); 28 x (attention 2,560^2 +
 *   2 x 2,560 x 512 + 2,560^2 = 15,728,640, norms 5,120) = 440,545,280; layer 0's MLP
 *   3 x 2,560 x 12,288 = 94,371,840; 27 sparse layers of 64 text experts 3 x 2,560 x 1,536
 *   (754,974,720), 64 vision experts 3 x 2,560 x 512 (251,658,240), the shared MLP
 *   3 x 2,560 x 3,072 (23,592,960), two routers 2 x 64 x 2,560 and two correction biases 2 x 64:
 *   1,030,553,728 each, 27,824,950,656; the final norm 2,560: 28,624,635,776;
 * - the tower: patch_embed 588 x 1,280 = 752,640, 32 blocks of norms 5,120, qkv 1,280 x 3,840 +
 *   3,840, proj 1,280^2 + 1,280, fc1 1,280 x 5,120 + 5,120, fc2 5,120 x 1,280 + 1,280
 *   (19,677,440), ln 2,560: 630,433,280;
 * - the resampler over 5,120: spatial 2 x (5,120^2 + 5,120) + 10,240 = 52,449,280, temporal
 *   10,240 x 5,120 + 5,120 + 5,120^2 + 5,120 + 10,240 = 78,663,680, mlp 5,120 x 2,560 + 2,560,
 *   after_norm 2,560: 144,225,280.
 * 29,399,294,336 (Megatron-Bridge's inventory: 29.4B). Active for a text token: 440,545,280 +
 * 94,371,840 + 27 x (6 x 11,796,480 + 23,592,960 + 163,840 + 64) + 2,560 + the head 264,765,440 =
 * 3,352,150,208. An image: 28 x 28 x 6,177 pixels, 6,177 tokens of 4 patches. */
static void test_ernie45_vl(void **state)
{
    (void)state;
    struct gs_arch a = fixture_arch("{\"model_type\": \"ernie4_5_vl_moe\"}");
    struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.total, 29399294336ULL);
    assert_int_equal(c.active, 3352150208ULL);
    assert_int_equal(c.vision, 27ULL * (251658240 + 163840 + 64) + 630433280 + 144225280);
    assert_int_equal(a.mm_image.tokens, 6177);
    assert_int_equal(a.mm_image.patches, 4 * 6177);
    assert_int_equal(fixture_layout(&a, 1).bytes_per_token, 2 * 28 * 4 * 128 * 2);
    a = fixture_arch("{\"model_type\": \"ernie4_5_vl_moe\", \"tie_word_embeddings\": false}");
    assert_int_equal(fixture_count(&a).total, 29399294336ULL + 264765440);
#define ERNIE45_MOE_VL                                                                             \
    "{\"model_type\": \"ernie4_5_moe_vl\", \"hidden_size\": 2560, \"intermediate_size\": 12288,"   \
    " \"num_hidden_layers\": 28, \"num_attention_heads\": 20, \"num_key_value_heads\": 4,"         \
    " \"vocab_size\": 103424, \"moe_num_experts\": %s, \"moe_intermediate_size\": [1536, 512],"    \
    " \"moe_k\": 6, \"moe_layer_start_index\": [1, 1], \"moe_layer_end_index\": %s,"               \
    " \"moe_layer_interval\": 1, \"moe_num_shared_experts\": 2, \"tie_word_embeddings\": true,"    \
    " \"pixel_hidden_size\": 1280, \"spatial_conv_size\": 2, \"temporal_conv_size\": 2,"           \
    " \"use_temporal_conv\": %s, \"vision_config\": {\"depth\": 32, \"embed_dim\": 1280,"          \
    " \"hidden_size\": 3584, \"mlp_ratio\": 4, \"num_heads\": 16, \"in_channels\": 3,"             \
    " \"patch_size\": 14, \"spatial_merge_size\": 2}}"
    a = fixture_arch(ERNIE45_MOE_VL, "[64, 64]", "[29, 28]", "true");
    c = fixture_count(&a);
    assert_int_equal(c.total, 29399294336ULL);
    assert_int_equal(c.active, 3352150208ULL);
    a = fixture_arch(ERNIE45_MOE_VL, "[64, 64]", "[29, 28]", "false");
    assert_int_equal(fixture_count(&a).total, 29399294336ULL - 78663680);
    /* text and vision expert counts must agree; a routed layer outside one modality's range */
    char config[2048];
    snprintf(config, sizeof(config), ERNIE45_MOE_VL, "[64, 32]", "[29, 28]", "true");
    fixture_assert_reader_error(config, "/moe_num_experts");
    snprintf(config, sizeof(config), ERNIE45_MOE_VL, "[64, 64]", "[29, 20]", "true");
    fixture_assert_reader_error(config, "/moe_layer_start_index");
#undef ERNIE45_MOE_VL
}

/* LightOnOCR (lighton_ocr) with LightOnOcrConfig's defaults, by hand: the Pixtral tower, 24 layers
 * of attention 4 x 1,024^2 and a gated MLP 3 x 1,024 x 4,096 and two norms (16,779,264), the patch
 * conv 3 x 14 x 14 x 1,024 = 602,112, ln_pre 1,024: 403,305,472; the projector's norm 1,024, patch
 * merger 4,096 x 1,024, linear_1 and linear_2 1,024^2 each without biases: 6,292,480; Qwen3 (h
 * 1,024, 28 layers, 16 heads and 8 KV heads of 128, MLP 3,072): q and o 2 x 2,097,152, k and v
 * 2 x 1,048,576, q/k norms 256, MLP 9,437,184, norms 2,048 (15,730,944) x 28 = 440,466,432, the
 * tied embedding 151,936 x 1,024 = 155,582,464, the norm 1,024: 1,005,647,872. A 1,540-px image:
 * (1,540 / 14 / 2)^2 = 3,025 tokens. */
static void test_lighton_ocr(void **state)
{
    (void)state;
    struct gs_arch a = fixture_arch("{\"model_type\": \"lighton_ocr\"}");
    assert_int_equal(fixture_count(&a).total, 1005647872ULL);
    assert_int_equal(a.mm_image.tokens, 3025);
    a = fixture_arch("{\"model_type\": \"lighton_ocr\", \"tie_word_embeddings\": false}");
    assert_int_equal(fixture_count(&a).total, 1005647872ULL + 155582464);
}

/* InternVL (internvl, internvl_chat; the fixture's README), by hand:
 * - InternViT-300M (h 1,024, 24 layers, I 4,096, LayerNorm, qkv biased): patch conv
 *   1,024 x 3 x 14 x 14 + 1,024 = 603,136, class token 1,024, positions 1,025 x 1,024 =
 *   1,049,600; a layer q/k/v 3 x (1,024^2 + 1,024) = 3,148,800, projection 1,049,600, fc1
 *   4,198,400, fc2 4,195,328, norm1/norm2 4,096, lambda_1/lambda_2 2,048: 12,598,272, x 24;
 *   304,012,288 in all;
 * - the projector over 4 x 1,024 = 4,096 to T: LayerNorm 8,192 + 4,096 T + T + T^2 + T; T = 896:
 *   4,482,816;
 * - Qwen2.5-0.5B with 151,674 tokens, untied: a layer q 896^2 + 896, k and v 2 x (896 x 128 +
 *   128), o 896^2, MLP 3 x 896 x 4,864, norms 1,792: 14,912,384, x 24 = 357,897,216; embedding and
 *   head 2 x 135,899,904, final norm 896: 629,697,920.
 * InternVL3-1B (= InternVL2.5-1B's shapes): 938,193,024, the published InternVL2_5-1B total, in
 * both forms. With Qwen2.5-3B (2,048 wide, 36 layers, 16 heads, 2 KV, I 11,008; its own config
 * tied, the InternVL checkpoint not): text 36 x 77,076,992 + 2 x 310,628,352 + 2,048 =
 * 3,396,030,464, projector 12,595,200: 3,712,637,952, the published InternVL2_5-4B. With
 * InternViT-6B (3,200 wide, 45 layers, 25 heads, I 12,800, RMSNorm, q/k norms over 3,200, no qkv
 * bias: a layer 30,720,000 + 10,243,200 + 6,400 + 40,972,800 + 40,963,200 + 6,400 + 6,400 =
 * 122,918,400; embeddings 1,884,800 + 3,200 + 3,280,000: 5,536,496,000) and Qwen2.5-72B: projector
 * 25,600 + 104,857,600 + 8,192 + 67,108,864 + 8,192 = 172,008,448, text 72,699,813,888:
 * 78,408,318,336, the published InternVL2_5-78B. An image: 12 tiles and a thumbnail of
 * (448 / 14)^2 / 4 = 256 tokens, 13 x 1,024 patches through the tower. */
static void test_internvl(void **state)
{
    (void)state;
    struct gs_arch a = fixture_arch_file("internvl/OpenGVLab__InternVL3-1B.json");
    struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.total, 938193024ULL);
    assert_int_equal(c.vision, 304012288ULL + 4482816);
    assert_int_equal(a.mm_image.tokens, 13 * 256);
    assert_int_equal(a.mm_image.crop_tokens, 256);
    assert_int_equal(a.mm_image.patches, 13 * 1024);
    assert_int_equal(a.mm_image.layout, GS_MM_CROPS);
    assert_int_equal(a.mm_embed_width, 896);
    a = fixture_arch_file("internvl/OpenGVLab__InternVL3-1B-hf.json");
    assert_int_equal(fixture_count(&a).total, 938193024ULL);
    assert_int_equal(a.mm_image.tokens, 13 * 256);
    /* the chat form without dynamic tiling: one tile */
    a = fixture_arch_file_set_in("internvl/OpenGVLab__InternVL3-1B.json", NULL,
                                 "dynamic_image_size", "false");
    assert_int_equal(a.mm_image.tokens, 256);
#define INTERNVL_CHAT                                                                              \
    "{\"model_type\": \"internvl_chat\", \"downsample_ratio\": 0.5,"                               \
    " \"llm_config\": {\"model_type\": \"qwen2\", \"hidden_size\": %d,"                            \
    " \"num_hidden_layers\": %d, \"num_attention_heads\": %d, \"num_key_value_heads\": %d,"        \
    " \"intermediate_size\": %d, \"vocab_size\": 151674, \"tie_word_embeddings\": true},"          \
    " \"vision_config\": {\"hidden_size\": %d, \"num_hidden_layers\": %d,"                         \
    " \"num_attention_heads\": %d, \"intermediate_size\": %d, \"image_size\": 448,"                \
    " \"patch_size\": 14, \"qkv_bias\": %s, \"qk_normalization\": %s, \"norm_type\": \"%s\"}}"
    a = fixture_arch(INTERNVL_CHAT, 2048, 36, 16, 2, 11008, 1024, 24, 16, 4096, "true", "false",
                     "layer_norm");
    assert_int_equal(fixture_count(&a).total, 3712637952ULL);
    a = fixture_arch(INTERNVL_CHAT, 8192, 80, 64, 8, 29568, 3200, 45, 25, 12800, "false", "true",
                     "rms_norm");
    c = fixture_count(&a);
    assert_int_equal(c.total, 78408318336ULL);
    assert_int_equal(c.vision, 5536496000ULL + 172008448);
#undef INTERNVL_CHAT
    /* InternVL3-9B's language model is InternLM3, read by its own reader: a toy of one layer,
     * h 64, q/k/v/o 4 x 64 x 64, MLP 3 x 64 x 128, norms 128 (41,088), embedding and head
     * 2 x 100 x 64 and the norm; InternViT-300M and the projector to 64 as above */
    a = fixture_arch("{\"model_type\": \"internvl_chat\", \"llm_config\": {\"model_type\":"
                     " \"internlm3\", \"hidden_size\": 64, \"num_hidden_layers\": 1,"
                     " \"num_attention_heads\": 4, \"intermediate_size\": 128,"
                     " \"vocab_size\": 100}, \"vision_config\": {\"hidden_size\": 1024,"
                     " \"num_hidden_layers\": 24, \"num_attention_heads\": 16,"
                     " \"intermediate_size\": 4096, \"image_size\": 448, \"patch_size\": 14,"
                     " \"qkv_bias\": true, \"qk_normalization\": false,"
                     " \"norm_type\": \"layer_norm\"}}");
    assert_int_equal(fixture_count(&a).total, 41088ULL + 2 * 100 * 64 + 64 + 304012288 +
                                                  (8192 + 4096 * 64 + 64 + 64 * 64 + 64));
    /* a model wrapped in LoRA at load, and the remote vision config's missing shapes */
    fixture_assert_refused("{\"model_type\": \"internvl_chat\", \"use_backbone_lora\": 16,"
                           " \"llm_config\": {}, \"vision_config\": {}}",
                           GS_ERR_INVALID, FIXTURE_POINTERS("/model/config/use_backbone_lora"));
    fixture_assert_reader_error(
        "{\"model_type\": \"internvl_chat\", \"llm_config\": {\"model_type\":"
        " \"qwen2\", \"hidden_size\": 64, \"num_hidden_layers\": 1,"
        " \"num_attention_heads\": 4, \"intermediate_size\": 128,"
        " \"vocab_size\": 100}, \"vision_config\": {}}",
        "/vision_config/hidden_size");
}

/* LFM2-VL (lfm2_vl; modeling_lfm2_vl.py) in the shapes its two published checkpoints' configs
 * give (a third-party reader's pinned copy, whose tensor inventories, 589 and 349 tensors, these
 * modules reproduce): LFM2-1.2B's or LFM2-350M's language model (test_lfm2), a Siglip2 tower
 * without its pooling head and a projector without its LayerNorm.
 *   1.6B: the so400m tower, 27 layers of 1,152 (16 heads), MLP 4,304: a layer 4 x (1,152^2 +
 *   1,152) + 1,152 x 4,304 + 4,304 + 4,304 x 1,152 + 1,152 + 4 x 1,152 = 15,239,504, x 27 =
 *   411,466,608; the patch Linear 768 x 1,152 + 1,152, 256 positions x 1,152, post_layernorm
 *   2,304: 412,649,712. Projector: 4 x 1,152 = 4,608 -> 2,048 -> 2,048 with biases:
 *   13,635,584. 1,170,340,608 + 412,649,712 + 13,635,584 = 1,596,625,904 ("1.6B").
 *   450M: the base tower, 12 layers of 768: 12 x 7,087,872 + 590,592 + 196,608 + 1,536 =
 *   85,843,200; projector 3,072 -> 2,048 -> 1,024: 8,391,680; with LFM2-350M 354,483,968:
 *   448,718,848 ("450M").
 * An image at its largest: ten 512 x 512 tiles and the thumbnail, 256 tokens each, a token 2 x 2
 * patches of 3 x 16 x 16: 2,816 tokens over 11,264 patches. */
static void test_lfm2_vl(void **state)
{
    (void)state;
#define LFM2_VL(text, vision)                                                                      \
    "{\"model_type\": \"lfm2_vl\", \"downsample_factor\": 2, \"projector_hidden_size\": 2048,"     \
    " \"projector_bias\": true, \"projector_use_layernorm\": false, \"tie_word_embeddings\": "     \
    "true,"                                                                                        \
    " \"text_config\": {\"model_type\": \"lfm2\", \"vocab_size\": 65536, " text ","                \
    " \"num_hidden_layers\": 16, \"num_key_value_heads\": 8, \"block_auto_adjust_ff_dim\": true,"  \
    " \"block_ffn_dim_multiplier\": 1.0, \"block_multiple_of\": 256, \"conv_L_cache\": 3,"         \
    " \"full_attn_idxs\": [2, 5, 8, 10, 12, 14]},"                                                 \
    " \"vision_config\": {\"model_type\": \"siglip2_vision_model\", " vision ","                   \
    " \"num_channels\": 3, \"patch_size\": 16, \"num_patches\": 256, \"vision_use_head\": false}}"
    const struct gs_arch big = fixture_arch(
        LFM2_VL("\"hidden_size\": 2048, \"num_attention_heads\": 32, \"block_ff_dim\": 12288",
                "\"hidden_size\": 1152, \"intermediate_size\": 4304, \"num_hidden_layers\": 27,"
                " \"num_attention_heads\": 16"));
    const struct gs_param_count c = fixture_count(&big);
    assert_int_equal(c.total, 1596625904ULL);
    assert_int_equal(c.vision, 412649712ULL + 13635584ULL);
    assert_int_equal(c.active, 1170340608ULL);
    towers_are(&big, 1, GS_PART_VISION, false);
    assert_int_equal(big.mm_image.tokens, 2816);
    assert_int_equal(big.mm_image.crop_tokens, 256);
    assert_int_equal(big.mm_image.patches, 11264);
    assert_int_equal(big.mm_image.pixels, 11264ULL * 768);
    assert_int_equal(fixture_layout(&big, 1).state_bytes_per_sequence, 81920);
    fixture_assert_vllm_serving(&big, 4, 1, 80000000000ULL);
    const struct gs_arch small = fixture_arch(
        LFM2_VL("\"hidden_size\": 1024, \"num_attention_heads\": 16, \"block_ff_dim\": 6656",
                "\"hidden_size\": 768, \"intermediate_size\": 3072, \"num_hidden_layers\": 12,"
                " \"num_attention_heads\": 12"));
    assert_int_equal(fixture_count(&small).total, 448718848ULL);
#undef LFM2_VL
    /* sizes whose image overflows 64 bits are refused, not wrapped */
    fixture_assert_reader_error(
        "{\"model_type\": \"lfm2_vl\", \"downsample_factor\": 16000000,"
        " \"vision_config\": {\"patch_size\": 16000000}}",
        "/downsample_factor");
}

/* mllama/README.md: text 9,775,192,080 + vision 863,567,379 + projector
 * 31,461,376 = 10,670,220,835 ("10.7B"). Active = text - the 128,264-row
 * embedding 525,369,344 = 9,249,822,736. Layers: 8 cross-attention (in
 * place of self-attention at [3, 8, ..., 38]) and 32 self-attention. KV per
 * vision token: 8 cross layers * 4,096 = 32,768 B; per text token the 32
 * self-attention layers hold 32 * 4,096 = 131,072 B (README); the cross
 * layers cache no text tokens. */
static void test_mllama(void **state)
{
    (void)state;
    const struct gs_arch a =
        fixture_arch_file("mllama/meta-llama__Llama-3.2-11B-Vision-Instruct.json");
    const struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.total, 10670220835ULL);
    assert_int_equal(c.vision, 863567379ULL + 31461376ULL);
    assert_int_equal(c.active, 9249822736ULL);
    assert_int_equal(c.embedding, 128264ULL * 4096);
    assert_int_equal(c.lm_head, 128256ULL * 4096);
    assert_int_equal(layers_where(&a, -1, 1, -1), 8);
    assert_int_equal(layers_where(&a, -1, 0, -1), 32);
    assert_true(a.blocks[a.layer_block[3]].attn.cross);
    assert_false(a.blocks[a.layer_block[4]].attn.cross);
    assert_true(a.blocks[a.layer_block[38]].attn.cross);
    towers_are(&a, 2, GS_PART_VISION, true);
    assert_int_equal(a.towers[0].layers + a.towers[1].layers, 32 + 8);
    const struct gs_kv_layout k = fixture_layout(&a, 1);
    assert_int_equal(k.layer_token_bytes, 4096);
    assert_int_equal(k.cross_token_bytes, 32768);
    assert_int_equal(k.bytes_per_token, 131072);
    assert_int_equal(k.full_layers, 32);
    /* 4 tiles = 6,404 vision tokens + 4,096 text tokens: text 256 blocks *
     * 16 * 131,072 = 536,870,912; vision ceil(6404/16) = 401 blocks * 16 *
     * 32,768 = 210,239,488; together 747,110,400 */
    assert_int_equal(serve(&a, 1, 6404 + 4096, 6404), 747110400ULL);
}

/* llama4/README.md: text 107,769,861,120 + vision 850,960,896 + projector
 * 20,971,520 = 108,641,793,536 ("109B"); active without the untied input
 * embedding 16,138,408,960 ("17B" with it: 17,172,894,720). Every layer
 * routes (interleave_moe_layer_step 1); no_rope_layers defaults to NoPE on
 * every 4th layer: 12 full, 36 chunked (8192). 4,096 B a layer-token:
 * full 49,152, chunked 147,456. */
static void test_llama4(void **state)
{
    (void)state;
    const struct gs_arch a =
        fixture_arch_file("llama4/meta-llama__Llama-4-Scout-17B-16E-Instruct.json");
    const struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.total, 108641793536ULL);
    assert_int_equal(c.vision, 850960896ULL + 20971520ULL);
    assert_int_equal(c.active, 16138408960ULL);
    assert_int_equal(c.active + 202048ULL * 5120, 17172894720ULL);
    /* experts: 48 * (16 * 3*5120*8192 + router 5120*16) */
    assert_int_equal(c.experts, 48ULL * (16ULL * 3 * 5120 * 8192 + 5120 * 16));
    assert_int_equal(gs_arch_moe_layers(&a), 48);
    assert_int_equal(layers_where(&a, -1, -1, 0), 0);
    assert_int_equal(layers_where(&a, GS_SPAN_CHUNKED, -1, 1), 36);
    assert_int_equal(layers_where(&a, GS_SPAN_FULL, -1, 1), 12);
    for (uint64_t l = 0; l < 48; l++) { /* layers 3, 7, ..., 47 are NoPE and global */
        const struct gs_attention *s = &a.blocks[a.layer_block[l]].attn;
        assert_int_equal(s->nope, (l + 1) % 4 == 0);
        assert_int_equal(s->span == GS_SPAN_FULL, (l + 1) % 4 == 0);
    }
    towers_are(&a, 1, GS_PART_VISION, false);
    const struct gs_kv_layout k = fixture_layout(&a, 1);
    assert_int_equal(k.full_layers, 12);
    assert_int_equal(k.full_token_bytes, 49152);
    assert_int_equal(k.window_count, 1);
    assert_true(k.windows[0].chunked);
    assert_int_equal(k.windows[0].window, 8192);
    assert_int_equal(k.windows[0].token_bytes, 147456);
    assert_int_equal(k.bytes_per_token, 196608);
    /* tensor 8 over 8 KV heads: 512 B a layer on each GPU, 8x that in all */
    const struct gs_kv_layout k8 = fixture_layout(&a, 8);
    assert_int_equal(k8.bytes_per_token, 48 * 512);
    assert_int_equal(k8.bytes_per_token_total, 196608);
    /* 4,096 tokens, below the chunk: all 48 layers hold them,
     * 196,608 * 4,096 = 805,306,368 */
    assert_int_equal(serve(&a, 1, 4096, 0), 805306368ULL);
}

/* llama4/README.md, Maverick: the file is aiconfigurator's text-only copy (no vision_config, so
 * its tower is Llama4VisionConfig's defaults, not counted here). interleave_moe_layer_step 2 routes
 * layers 1, 3, ..., 47 through 128 experts (+ router 5120 x 128 and the shared expert), the other
 * 24 are dense MLPs of 16,384: text 400,711,848,960; active without the input embedding
 * 16,150,205,440. The KV layout is Scout's: 12 NoPE full layers (every 4th, all routed), 36
 * chunked over 8,192. */
static void test_llama4_maverick(void **state)
{
    (void)state;
    const struct gs_arch a =
        fixture_arch_file("llama4/meta-llama__Llama-4-Maverick-17B-128E-Instruct.json");
    const struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.total - c.vision, 400711848960ULL);
    assert_int_equal(c.active, 16150205440ULL);
    assert_int_equal(c.experts, 24ULL * (128ULL * 3 * 5120 * 8192 + 5120 * 128));
    assert_int_equal(gs_arch_moe_layers(&a), 24);
    for (uint64_t l = 0; l < 48; l++)
        assert_int_equal(a.blocks[a.layer_block[l]].mlp.kind == GS_MLP_MOE, l % 2 == 1);
    assert_int_equal(layers_where(&a, GS_SPAN_FULL, -1, 1), 12);
    assert_int_equal(layers_where(&a, GS_SPAN_CHUNKED, -1, 1), 12);
    assert_int_equal(layers_where(&a, GS_SPAN_CHUNKED, -1, 0), 24);
    const struct gs_kv_layout k = fixture_layout(&a, 1);
    assert_int_equal(k.full_token_bytes, 49152);
    assert_int_equal(k.windows[0].token_bytes, 147456);
    assert_int_equal(k.bytes_per_token, 196608);
}

/* whisper/README.md: large-v3 = 1,543,490,560 (encoder 636,968,960 as
 * audio; tied proj_out, so active = decoder 906,521,600); small =
 * 241,734,912 (encoder 88,154,112). KV per decoder token and per encoder
 * token alike: layers * 4d B = 32 * 5,120 = 163,840 (large-v3), 12 * 3,072 =
 * 36,864 (small). */
static void test_whisper(void **state)
{
    (void)state;
    const struct gs_arch a = fixture_arch_file("whisper/openai__whisper-large-v3.json");
    const struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.total, 1543490560ULL);
    assert_int_equal(c.audio, 636968960ULL);
    assert_int_equal(c.vision, 0);
    assert_int_equal(c.active, 906521600ULL);
    assert_int_equal(c.lm_head, 0);
    assert_int_equal(a.num_hidden_layers, 32);
    assert_int_equal(layers_where(&a, -1, 1, -1), 32);
    towers_are(&a, 1, GS_PART_AUDIO, true);
    assert_int_equal(a.towers[0].layers, 32);
    const struct gs_kv_layout k = fixture_layout(&a, 1);
    assert_int_equal(k.bytes_per_token, 163840);
    assert_int_equal(k.cross_token_bytes, 163840);
    /* 30 s of audio (1,500 encoder tokens) + 448 decoder tokens: 28 blocks
     * * 16 * 163,840 = 73,400,320 + ceil(1500/16) = 94 blocks * 16 *
     * 163,840 = 246,415,360; together 319,815,680 */
    assert_int_equal(serve(&a, 1, 1500 + 448, 1500), 319815680ULL);

    const struct gs_arch s = fixture_arch_file("whisper/openai__whisper-small.json");
    const struct gs_param_count cs = fixture_count(&s);
    assert_int_equal(cs.total, 241734912ULL);
    assert_int_equal(cs.audio, 88154112ULL);
    const struct gs_kv_layout ks = fixture_layout(&s, 1);
    assert_int_equal(ks.bytes_per_token, 36864);
    assert_int_equal(ks.cross_token_bytes, 36864);
}

/* WhisperConfig's defaults are whisper-tiny's (d 384, 4 + 4 layers, 6
 * heads, ffn 1536, vocab 51865, 80 mels). Attention 4d^2 + 3d = 590,976;
 * encoder layer + 2 LayerNorms 1,536 + fc1 591,360 + fc2 590,208 =
 * 1,774,080; decoder layer 2 * 590,976 + 2,304 + 1,181,568 = 2,365,824;
 * encoder conv1 92,544 + conv2 442,752 + positions 576,000 + 4 layers
 * 7,096,320 + norm 768 = 8,208,384; decoder embed 19,916,160 + positions
 * 172,032 + 4 layers 9,463,296 + norm 768 = 29,552,256; total 37,760,640
 * (the HF page's "37.8M" for openai/whisper-tiny). */
static void test_whisper_defaults(void **state)
{
    (void)state;
    const struct gs_arch a = fixture_arch("{\"model_type\": \"whisper\"}");
    const struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.audio, 8208384ULL);
    assert_int_equal(c.total, 37760640ULL);
}

/* Gemma 3 with no vision_config builds SiglipVisionConfig() (768 wide, 12
 * layers, 224 px / 16 = 196 patches) with its attention-pooling head:
 * patch conv 3*16*16*768 + 768 = 590,592; positions 196*768 = 150,528;
 * layer 4*(768^2+768) 2,362,368 + fc1 2,362,368 + fc2 2,360,064 + 2 LN
 * 3,072 = 7,087,872, x 12 = 85,054,464; post_layernorm 1,536; head: probe
 * 768 + in_proj 3*768^2 + 3*768 = 1,771,776 + out_proj 590,592 + LN 1,536 +
 * mlp 4,722,432 = 7,087,104; projector 768*2560 + 768 = 1,966,848. */
static void test_gemma3_default_vision(void **state)
{
    (void)state;
    const struct gs_arch a = fixture_arch(
        "{\"model_type\": \"gemma3\", \"text_config\": {\"hidden_size\": 2560,"
        " \"intermediate_size\": 10240, \"num_hidden_layers\": 34, \"sliding_window\": 1024}}");
    const struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.vision, 590592ULL + 150528 + 85054464 + 1536 + 7087104 + 1966848);
    assert_int_equal(c.total - c.vision, 3880263168ULL);
}

/* Errors point where the field sits in the nested config, with the status
 * models_read gives any reader error. */
static void test_nested_error_pointers(void **state)
{
    (void)state;
    fixture_assert_refused(
        "{\"model_type\": \"gemma3\", \"text_config\": {\"num_hidden_layers\": \"x\"}}",
        GS_ERR_INVALID, FIXTURE_POINTERS("/model/config/text_config/num_hidden_layers"));
    fixture_assert_refused("{\"model_type\": \"gemma3\", \"vision_config\": {\"patch_size\": 0}}",
                           GS_ERR_INVALID,
                           FIXTURE_POINTERS("/model/config/vision_config/patch_size"));
    fixture_assert_refused("{\"model_type\": \"mllama\","
                           " \"text_config\": {\"cross_attention_layers\": [3, 99]}}",
                           GS_ERR_INVALID,
                           FIXTURE_POINTERS("/model/config/text_config/cross_attention_layers"));
    fixture_assert_refused(
        "{\"model_type\": \"mistral3\", \"text_config\": {\"model_type\": \"t5\"}}", GS_ERR_INVALID,
        FIXTURE_POINTERS("/model/config/text_config/model_type"));
    fixture_assert_refused("{\"model_type\": \"llama4\", \"vision_config\": [1]}", GS_ERR_INVALID,
                           FIXTURE_POINTERS("/model/config/vision_config"));
    fixture_assert_refused(
        "{\"model_type\": \"qwen2_5_vl\", \"hidden_size\": 2048, \"vocab_size\": 10,"
        " \"num_hidden_layers\": 2, \"num_attention_heads\": 16,"
        " \"intermediate_size\": 64, \"vision_config\": {\"depth\": -1}}",
        GS_ERR_INVALID, FIXTURE_POINTERS("/model/config/vision_config/depth"));
    fixture_assert_refused("{\"model_type\": \"whisper\", \"d_model\": 0}", GS_ERR_INVALID,
                           FIXTURE_POINTERS("/model/config/d_model"));
}

/* step3p7/README.md, the vision-language model: Step3p7VisionConfig's defaults in the
 * release's keys (width 1536, 47 layers, 16 heads, 728 px images of 14 px patches) and a toy
 * text_config (read as step3p5; h 64, V 10, 1 full-attention layer, 4 heads of 16, 2 KV heads,
 * dense 128: attention 12,576 + MLP 24,576 + norms 128, embeddings 1,280 + final norm 64 =
 * 38,624). Vision: patch_embedding 3 x 14 x 14 x 1536 = 903,168; position_embedding 52^2 x
 * 1536 = 4,153,344; pre_layernorm 3,072; a layer q/k/v/out_proj 4 x (1536^2 + 1536) =
 * 9,443,328, fc1/fc2 (1536 x 8960 + 8960) + (8960 x 1536 + 1536) = 27,535,616 (8960 =
 * int(1536 x 8960 / 1536)), two LayerNorms 6,144, lambda_1/2 3,072: 36,988,160, x 47 =
 * 1,738,443,520; downsampler1 3072 x 1536 x 9 + 3072 = 42,470,400; downsampler2 6144 x 3072 x
 * 9 + 6144 = 169,875,456: 1,955,848,960. Projector 6144 x 64 (no bias) = 393,216. An image is
 * 52 -> 26 -> 13 patches a side: 169 tokens, 3 x 728^2 pixel values. */
static void test_step3p7(void **state)
{
    (void)state;
    const struct gs_arch a = fixture_arch(
        "{\"architectures\": [\"Step3p7ForConditionalGeneration\"], \"model_type\": \"step3p7\","
        " \"vision_config\": {\"model_type\": \"perception_encoder\", \"image_size\": 728,"
        " \"patch_size\": 14, \"width\": 1536, \"layers\": 47, \"heads\": 16},"
        " \"text_config\": {\"model_type\": \"step3p5\", \"vocab_size\": 10, \"hidden_size\": 64,"
        " \"intermediate_size\": 128, \"num_hidden_layers\": 1, \"num_attention_heads\": 4,"
        " \"num_attention_groups\": 2, \"head_dim\": 16}}");
    const struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.vision, 1955848960ULL + 393216);
    assert_int_equal(c.total - c.vision, 38624);
    assert_string_equal(a.model_type, "step3p7");
    assert_int_equal(a.mm_image.tokens, 169);
    assert_int_equal(a.mm_image.pixels, 3ULL * 728 * 728);
    assert_int_equal(a.mm_image.patches, 0); /* the tower's forward is not modelled */
    /* the vision layers' MLP runs quick_gelu (QuickGELUActivation, Python ops) */
    assert_int_equal(a.blocks[a.towers[0].block].mlp.act, GS_ACT_QUICK_GELU);
    /* mlp_ratio sets the MLP's width; a nonsense one is refused at its pointer */
    const struct gs_arch b = fixture_arch(
        "{\"model_type\": \"step3p7\", \"vision_config\": {\"width\": 32, \"layers\": 1,"
        " \"heads\": 2, \"mlp_ratio\": 2.0, \"image_size\": 28, \"patch_size\": 14},"
        " \"text_config\": {\"vocab_size\": 10, \"hidden_size\": 64, \"intermediate_size\": 128,"
        " \"num_hidden_layers\": 1, \"num_attention_heads\": 4, \"num_attention_groups\": 2,"
        " \"head_dim\": 16}}");
    /* 3 x 14 x 14 x 32 + 4 x 32 + 64 + layer (4 x 1,056 + 32 x 64 + 64 + 64 x 32 + 32 + 128 +
     * 64) + downsamplers (64 x 32 x 9 + 64) + (128 x 64 x 9 + 128) + projector 128 x 64 */
    assert_int_equal(fixture_count(&b).vision, 18816ULL + 128 + 64 + 8608 + 18496 + 73856 + 8192);
    assert_int_equal(b.mm_image.tokens, 1);
    fixture_assert_reader_error(
        "{\"model_type\": \"step3p7\", \"vision_config\": {\"mlp_ratio\": -1},"
        " \"text_config\": {}}",
        "/vision_config/mlp_ratio");
}

/* step3p7/README.md: NVIDIA aiconfigurator's flattened Step-3.7-Flash (no text_config, no
 * vision_config, architecture Step3p7FlashForCausalLM) is the language model alone, read as
 * step3p5; it names no attention_other_setting, so its sliding layers keep the 64 heads:
 * 45 x 75,759,872 + 3 x 138,412,032 + 42 x 4,546,756,608 + 45 x 8,192 + 4,096 + 2 x 128896 x
 * 4096 = 195,844,496,640. */
static void test_step3p7_flattened(void **state)
{
    (void)state;
    const struct gs_arch a = fixture_arch_file("step3p7/stepfun-ai__Step-3.7-Flash.json");
    const struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.total, 195844496640ULL);
    assert_int_equal(c.vision, 0);
    assert_int_equal(c.active, 195844496640ULL - 42ULL * 280 * 15728640 - 527958016ULL);
    const struct gs_kv_layout kv = fixture_layout(&a, 1);
    assert_int_equal(kv.full_layers, 12);
    assert_int_equal(kv.window_layers, 33);
    assert_int_equal(kv.sliding_window, 512);
}

/* minimax_m3_vl/README.md: MiniMax-M3 as released (NVIDIA's NVFP4 config, its
 * quantization_config removed). The language model is minimax_m3's count (426,174,565,632,
 * minimax_m3/README.md); vision: embeddings.proj 3 x 2 x 14 x 14 x 1280 = 1,505,280,
 * pre_layrnorm 2,560, 32 layers of q/k/v/out_proj 4 x (1280^2 + 1280) = 6,558,720, fc1
 * 1280 x 5120 + 5120 = 6,558,720, fc2 5120 x 1280 + 1280 = 6,554,880, two LayerNorms 5,120:
 * 19,677,440 a layer, 629,678,080; projector linear_1 1280 x 6144 + 6144 = 7,870,464, linear_2
 * 6144^2 + 6144 = 37,754,880, merge_linear_1 24576 x 6144 + 6144 = 151,001,088,
 * merge_linear_2 37,754,880: 234,381,312. Vision 865,567,232; total 427,040,132,864 (card
 * "~428B", Baseten "427B"). The largest image: 672^2 pixels, 576 tokens of 4 patches. */
static void test_minimax_m3_vl(void **state)
{
    (void)state;
    const struct gs_arch a =
        fixture_arch_file("minimax_m3_vl/nvidia__MiniMax-M3-NVFP4.reduced.json");
    const struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.total, 427040132864ULL);
    assert_int_equal(c.vision, 865567232ULL);
    assert_int_equal(c.active, 24733273344ULL);
    assert_int_equal(a.mm_image.tokens, 576);
    assert_int_equal(a.mm_image.pixels, 2304ULL * 3 * 2 * 14 * 14);
    assert_int_equal(a.mm_image.patches, 0); /* the tower's forward is not modelled */
    /* the language model's clamped GLU (hidden_act swigluoai) runs in its MLPs and experts,
     * not in the vision tower, whose fc1/fc2 run gelu */
    for (size_t b = 0; b < a.block_count; b++) {
        const bool tower = b == a.towers[0].block;
        assert_int_equal(a.blocks[b].mlp.act, tower ? GS_ACT_SAVES_INPUT : GS_ACT_GPT_OSS_GLU);
    }
    /* KV as minimax_m3's: 60 x 2 x 4 x 128 x 2 */
    assert_int_equal(fixture_layout(&a, 1).bytes_per_token, 122880);
}

/* MiniMaxM3VLTextConfig as transformers saves it: layer_types ("minimax_m3_sparse"),
 * mlp_layer_types and the flat index_* keys instead of the release's sparse_attention_config
 * and moe_layer_freq; what the config omits is the class's default (the vision tower and the
 * text model's widths). A toy language model: h 64, V 10, 2 layers, 4 heads of 16, 2 KV heads,
 * intermediate 32, dense 48, shared 16, 4 experts top-2, index 2 heads of 8. Layer 0 (full,
 * dense): attention 2 x 64 x 64 + 2 x 64 x 32 + q/k norms 32 = 12,320, MLP 3 x 64 x 48 = 9,216,
 * norms 128; layer 1 (sparse, routed): 12,320 + indexer 64 x 16 + 64 x 8 + 16 = 1,552, router
 * 4 x 64 = 256, experts 4 x 3 x 64 x 32 = 24,576, shared 3 x 64 x 16 = 3,072, norms 128;
 * embeddings 2 x 640, final norm 64: 64,912. */
static void test_minimax_m3_vl_saved_layout(void **state)
{
    (void)state;
    const struct gs_arch a = fixture_arch(
        "{\"model_type\": \"minimax_m3_vl\", \"text_config\": {\"vocab_size\": 10,"
        " \"hidden_size\": 64, \"intermediate_size\": 32, \"dense_intermediate_size\": 48,"
        " \"shared_intermediate_size\": 16, \"num_hidden_layers\": 2, \"num_attention_heads\": 4,"
        " \"num_key_value_heads\": 2, \"head_dim\": 16, \"num_local_experts\": 4,"
        " \"num_experts_per_tok\": 2, \"index_n_heads\": 2, \"index_head_dim\": 8,"
        " \"layer_types\": [\"full_attention\", \"minimax_m3_sparse\"],"
        " \"mlp_layer_types\": [\"dense\", \"sparse\"]}}");
    const struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.total - c.vision, 64912);
    assert_int_equal(c.vision, 865567232ULL - 234381312ULL + (1280ULL * 6144 + 6144) +
                                   (6144ULL * 64 + 64) + (256ULL * 6144 + 6144) +
                                   (6144ULL * 64 + 64));
    assert_int_equal(a.block_count, 3);
    assert_int_equal(c.lm_head, 640);
    /* the top-level tie_word_embeddings ties the head though the text config does not */
    const struct gs_arch tied = fixture_arch(
        "{\"model_type\": \"minimax_m3_vl\", \"tie_word_embeddings\": true, \"text_config\": {"
        "\"vocab_size\": 10, \"hidden_size\": 64, \"num_hidden_layers\": 1,"
        " \"num_attention_heads\": 4, \"num_key_value_heads\": 2, \"head_dim\": 16,"
        " \"mlp_layer_types\": [\"dense\"]}}");
    assert_int_equal(fixture_count(&tied).lm_head, 0);
    fixture_assert_reader_error("{\"model_type\": \"minimax_m3_vl\", \"text_config\": {"
                                "\"num_hidden_layers\": 2, \"layer_types\": [\"full_attention\","
                                " \"sliding_attention\"]}}",
                                "/text_config/layer_types");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gemma3),
        cmocka_unit_test(test_gemma3_default_vision),
        cmocka_unit_test(test_mistral3),
        cmocka_unit_test(test_mistral3_family),
        cmocka_unit_test(test_mistral_small_4),
        cmocka_unit_test(test_qwen2_5_vl),
        cmocka_unit_test(test_qwen2_vl),
        cmocka_unit_test(test_exaone4_5),
        cmocka_unit_test(test_glm4v),
        cmocka_unit_test(test_glm4v_moe),
        cmocka_unit_test(test_glm_ocr),
        cmocka_unit_test(test_mimo_v2),
        cmocka_unit_test(test_deepseek_ocr),
        cmocka_unit_test(test_deepseek_ocr2),
        cmocka_unit_test(test_muse_glimmer),
        cmocka_unit_test(test_lfm2_vl),
        cmocka_unit_test(test_lighton_ocr),
        cmocka_unit_test(test_internvl),
        cmocka_unit_test(test_qianfan_ocr),
        cmocka_unit_test(test_minicpmv4_6),
        cmocka_unit_test(test_cosmos3_edge),
        cmocka_unit_test(test_granite4_vision),
        cmocka_unit_test(test_voxtral),
        cmocka_unit_test(test_granite_speech),
        cmocka_unit_test(test_ernie45_vl),
        cmocka_unit_test(test_paddleocr_vl),
        cmocka_unit_test(test_hunyuan_vl),
        cmocka_unit_test(test_mllama),
        cmocka_unit_test(test_llama4),
        cmocka_unit_test(test_llama4_maverick),
        cmocka_unit_test(test_step3p7),
        cmocka_unit_test(test_step3p7_flattened),
        cmocka_unit_test(test_minimax_m3_vl),
        cmocka_unit_test(test_minimax_m3_vl_saved_layout),
        cmocka_unit_test(test_whisper),
        cmocka_unit_test(test_whisper_defaults),
        cmocka_unit_test(test_nested_error_pointers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
