/*
 * test_models.c - published config.json files of current decoders read
 * through gpusizer's readers (server/readers/decoder.c, mla.c, classic.c):
 * exact parameter counts, active parameters, layer kinds, KV bytes per
 * token and the checkpoint's stored format.
 *
 * Each config is in tests/fixtures/configs/<model_type>/ as published, with
 * a README.md giving where the copy came from, the published count and the
 * module-by-module arithmetic the expected figures below repeat. "Published"
 * marks a figure read in the owner's material (model card, safetensors
 * index total_size divided by the bytes per element); "arithmetic" marks a
 * count written out in the README from the transformers modeling code,
 * where the owner published only a rounded figure (quoted beside it).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "arch_fixture.h"
#include "formats/json_lenient.h"
#include "gs/activation.h"
#include "gs/estimate.h"
#include "gs/framework.h"
#include "gs/inference.h"

#include <stdio.h>
#include <string.h>

struct expected {
    const char *file;
    uint64_t total;
    uint64_t active;          /* 0: not checked (dense: total minus an untied input embedding) */
    uint64_t kv_bytes_per_token; /* bf16, every attention layer, one GPU */
    uint64_t full_layers, window_layers;
    const char *source;
};

static void check(const struct expected *x)
{
    struct gs_arch a = fixture_arch_file(x->file);
    struct gs_param_count c = fixture_count(&a);
    if (c.total != x->total)
        fail_msg("%s: %llu parameters, expected %llu (%s)", x->file, (unsigned long long)c.total,
                 (unsigned long long)x->total, x->source);
    if (x->active && c.active != x->active)
        fail_msg("%s: %llu active, expected %llu (%s)", x->file, (unsigned long long)c.active,
                 (unsigned long long)x->active, x->source);
    const struct gs_kv_layout kv = fixture_layout_as(&a, GS_KV_BF16, 1);
    if (kv.bytes_per_token != x->kv_bytes_per_token)
        fail_msg("%s: %llu KV bytes per token, expected %llu", x->file,
                 (unsigned long long)kv.bytes_per_token, (unsigned long long)x->kv_bytes_per_token);
    assert_int_equal(kv.full_layers, x->full_layers);
    assert_int_equal(kv.window_layers, x->window_layers);
    fixture_assert_parts_sum(&c);
}

static void test_dense_decoders(void **state)
{
    (void)state;
    const struct expected cases[] = {
        /* arithmetic (README): 36 layers x (attention 2*4096*4096 + 2*4096*1024 + q/k norms
         * 2*128 + MLP 3*4096*12288 + 2 norms) + 2 x 151936 x 4096 + 4096; card "8.2B" */
        {"qwen3/Qwen__Qwen3-8B.json", 8190735360ULL, 0, 36 * 4096, 36, 0, "Qwen3-8B card 8.2B"},
        {"qwen3/Qwen__Qwen3-4B.json", 4022468096ULL, 0, 36 * 4096, 36, 0, "Qwen3-4B card 4.0B"},
        /* published: shard bytes 6,150,235,008 bf16 (6,150,197,248 tensor bytes) / 2 */
        {"smollm3/HuggingFaceTB__SmolLM3-3B.json", 3075098624ULL, 0, 73728, 36, 0,
         "SmolLM3-3B safetensors shards"},
        /* published: model.safetensors.index.json total_size 54,864,793,600 (fp32) / 4 */
        {"olmo2/allenai__OLMo-2-1124-13B.json", 13716198400ULL, 0, 819200, 40, 0,
         "OLMo-2-1124-13B index total_size / 4"},
        /* published: index total_size 11,118,735,360 (fp32) / 4 */
        {"phi/microsoft__phi-2.json", 2779683840ULL, 0, 327680, 32, 0, "phi-2 index total_size / 4"},
        /* arithmetic: 26 layers, 4 global (5, 11, 17, 23) and 22 with a 512-token window */
        {"gemma3_text/google__gemma-3-1b-it.json", 999885952ULL, 0, 26 * 1024, 4, 22,
         "gemma-3-1b card 1B"},
        {"granite/ibm-granite__granite-3.3-8b-instruct.json", 8170864640ULL, 0, 163840, 40, 0,
         "granite-3.3-8b card 8B"},
        /* arithmetic: c_attn h -> 3h with bias, w1/w2 h -> 11008, c_proj back; untied */
        {"qwen/Qwen__Qwen-7B.json", 7721324544ULL, 0, 524288, 32, 0, "Qwen-7B card 7.7B"},
        {"internlm2/internlm__internlm2_5-7b-chat.json", 7737708544ULL, 0, 131072, 32, 0,
         "InternLM2.5-7B card 7.74B"},
        {"cohere/CohereForAI__aya-23-8B.json", 8028033024ULL, 0, 131072, 32, 0,
         "aya-23-8B page 8.03B"},
        /* 8 global layers and 24 with a 4096-token window (sliding_window_pattern 4) */
        {"cohere2/CohereForAI__c4ai-command-r7b-12-2024.json", 8028033024ULL, 0, 32 * 4096, 8, 24,
         "command-r7b page 8.03B"},
        /* Seed-OSS-36B: Llama with q/k/v biases (no o bias); arithmetic in the README; HF 36.2B */
        {"seed_oss/ByteDance-Seed__Seed-OSS-36B-Instruct.reduced.json", 36151104512ULL, 0, 262144,
         64, 0, "Seed-OSS-36B 36.2B"},
        /* arithmetic; stabilityai's card prints 1,644,417,024, 98,304 = 24 x 2 x 2048 fewer: the
         * card omits one 2h-per-layer set of biases (README); parameters() counts them */
        {"stablelm/stabilityai__stablelm-2-zephyr-1_6b.json", 1644515328ULL, 0, 24 * 8192, 24, 0,
         "stablelm-2 arithmetic"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
        check(&cases[i]);
}

static void test_moe_decoders(void **state)
{
    (void)state;
    const struct expected cases[] = {
        /* published: 20.91B total / 3.61B active (model card); the README reproduces both to the
         * parameter, active counting the head but not the input embedding. 24 layers alternating
         * 128-token sliding and full attention. */
        {"gpt_oss/openai__gpt-oss-20b.json", 20914757184ULL, 3608307264ULL, 24 * 2048, 12, 12,
         "gpt-oss-20b card 20.91B / 3.61B"},
        {"gpt_oss/openai__gpt-oss-120b.json", 116829156672ULL, 5132849472ULL, 36 * 2048, 18, 18,
         "gpt-oss-120b card 116.83B / 5.13B"},
        /* published 6.9B / 1.3B; arithmetic in the README. AllenAI's 1.3B active counts the input
         * embedding (1,282,017,280 = 1,178,994,688 + 50,304 x 2,048); gpusizer's active
         * parameters never do (docs/parameter-counts.md, Active parameters; as DeepSeek's and
         * gpt-oss's figures) */
        {"olmoe/allenai__OLMoE-1B-7B-0924.json", 6919161856ULL, 1178994688ULL, 16 * 8192, 16, 0,
         "OLMoE-1B-7B 6.9B / 1.3B"},
        /* Phi-3.5-MoE: LayerNorms with bias, biased attention and lm_head; the HF page's 41.9B and
         * Microsoft's "6.6B active" (which counts the 131,334,144-parameter input embedding:
         * 6,640,999,744) - arithmetic in the README, fixture reduced to the architecture fields */
        {"phimoe/microsoft__Phi-3.5-MoE-instruct.reduced.json", 41873153344ULL, 6509665600ULL,
         131072, 32, 0, "Phi-3.5-MoE 41.9B / 6.6B"},
        /* MiniMax-M2: 230B / 10B (transformers docs); without the MTP modules transformers does
         * not build; the router's correction bias is a buffer */
        {"minimax_m2/MiniMaxAI__MiniMax-M2.reduced.json", 228689748992ULL, 10415940608ULL, 253952,
         62, 0, "MiniMax-M2 230B / 10B"},
        /* published 106B / 12B; e_score_correction_bias a buffer, the MTP layer not built */
        {"glm4_moe/zai-org__GLM-4.5-Air.json", 106852245504ULL, 12803366912ULL, 188416, 46, 0,
         "GLM-4.5-Air card 106B / 12B"},
        /* Solar Open 100B (solar_open): GLM-4.5's routed layers in all 48, Llama's attention
         * (q/o 4096 <-> 8192) without biases or q/k norms, no MTP; card 102.6B / 12B (which
         * counts the input embedding: 12,054,827,008); arithmetic in the README */
        {"solar_open/upstage__Solar-Open-100B.json", 102651793408ULL, 11249520640ULL, 196608, 48, 0,
         "Solar Open 100B card 102.6B / 12B"},
        /* Kimi-K2 as transformers 5's DeepseekV3ForCausalLM (the router bias a buffer): 1T /
         * 32B; the checkpoint's 1,026,470,731,056 stored elements add the 60 x 384 biases, fp8
         * scales and rotary buffers (README) */
        {"kimi_k2/moonshotai__Kimi-K2-Instruct.json", 1026408209408ULL, 31687072768ULL, 61 * 1152,
         61, 0, "Kimi-K2 card 1T / 32B"},
        /* DeepSeek-V3.2: 671B / 37B; with the MTP layer the checkpoint's 685,396,921,376 stored
         * elements are reproduced exactly (README) */
        {"deepseek_v32/deepseek-ai__DeepSeek-V3.2.json", 671877929216ULL, 37477128448ULL, 61 * 1152,
         61, 0, "DeepSeek-V3.2 card 671B / 37B"},
        /* GLM-4.7-Flash (glm4_moe_lite): MLA in GLM-4.5's layer, layer 0 dense, 46 routed; the
         * card's 30B-A3B. Hand count in the fixture's README; with the 46 x 64 correction-bias
         * buffers and the MTP layer it is the checkpoint's 31,221,488,576 stored elements
         * (test_glm4_moe_lite_checkpoint) */
        {"glm4_moe_lite/zai-org__GLM-4.7-Flash.json", 29943390976ULL, 3579568896ULL, 47 * 1152, 47,
         0, "GLM-4.7-Flash card 30B-A3B"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
        check(&cases[i]);
}

/* DeepSeek-V3.2's MTP layer as the checkpoint stores it (README: a full
 * MoE decoder layer with its indexer, eh_proj, enorm, hnorm, shared_head
 * norm and copies of the embedding and head): 13,477,385,728; and its
 * indexer's key cache, 132 B per layer per token in fp8 with a scale per
 * 128 (vLLM DeepseekV32IndexerCache), 61 x 132 = 8,052, counted in the
 * capacity beside the 70,272 B latent. */
static void test_deepseek_v32_mtp_and_indexer(void **state)
{
    (void)state;
    struct gs_arch a = fixture_arch_file("deepseek_v32/deepseek-ai__DeepSeek-V3.2.json");
    struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.mtp, 13477385728ULL);
    struct gs_kv_layout kv = fixture_layout_as(&a, GS_KV_BF16, 8);
    assert_int_equal(kv.bytes_per_token, 61 * 1152);
    assert_int_equal(kv.indexer_token_bytes, 61 * 132);
    kv = fixture_layout_as(&a, GS_KV_FP8_DS_MLA, 8);
    assert_int_equal(kv.bytes_per_token + kv.indexer_token_bytes, 61 * (656 + 132)); /* 48,068 */
    /* one sequence of 1,000 tokens at block 16: 63 blocks of latent and indexer keys */
    bool ovf = false;
    assert_int_equal(gs_kv_sequence_bytes(&kv, 1000, 0, 16, 8192, &ovf), 63ULL * 16 * 48068);
}

/* LongCat-Flash (longcat_flash) with LongcatFlashConfig's defaults, which are
 * meituan-longcat/LongCat-Flash-Chat's (the class documents that checkpoint; model card and
 * transformers' model_doc: "560B", "activates 18.6B-31.3B"). By hand, h = 6,144:
 * - an MLA sublayer: q_a 6,144 x 1,536 = 9,437,184, q_a_layernorm 1,536, q_b 1,536 x 64 x 192 =
 *   18,874,368, kv_a 6,144 x 576 = 3,538,944, kv_a_layernorm 512, kv_b 512 x 64 x 256 =
 *   8,388,608, o 8,192 x 6,144 = 50,331,648: 90,572,800;
 * - a dense SwiGLU 3 x 6,144 x 12,288 = 226,492,416;
 * - the MoE: 512 experts of 3 x 6,144 x 2,048 = 37,748,736: 19,327,352,832, the router
 *   6,144 x (512 + 256) = 4,718,592;
 * - a layer: 2 x 90,572,800 + 2 x 226,492,416 + 19,327,352,832 + 4,718,592 + 4 norms 24,576 =
 *   19,966,226,432; x 28 = 559,054,340,096;
 * - embedding and head 2 x 131,072 x 6,144 = 1,610,612,736, the final norm 6,144:
 *   560,664,958,976 (the card's 560B).
 * Active, every one of the 12 picks a routed expert: 560,664,958,976 - 512 x 28 x 37,748,736
 * - the embedding 805,306,368 + 12 x 28 x 37,748,736 = 31,377,348,608 (the card's upper 31.3B;
 * with no pick routed, 18,693,773,312, its lower 18.6B). Buffers: 28 x 768 correction biases.
 * The MTP layer: embed_tokens 805,306,368 + eh_proj 12,288 x 6,144 = 75,497,472 + an MLA
 * sublayer 90,572,800 + a dense MLP 226,492,416 + 5 norms 30,720 = 1,197,899,776. KV: 56 MLA
 * sublayers x (512 + 64) x 2 B = 64,512 a token, on every tensor-parallel rank. */
static void test_longcat_flash(void **state)
{
    (void)state;
#define LONGCAT_FLASH                                                                              \
    "{\"model_type\": \"longcat_flash\", \"hidden_size\": %d, \"num_layers\": %d,"                 \
    " \"num_attention_heads\": %d, \"ffn_hidden_size\": %d, \"expert_ffn_hidden_size\": %d,"       \
    " \"n_routed_experts\": %d, \"zero_expert_num\": %d, \"moe_topk\": %d,"                        \
    " \"q_lora_rank\": %d, \"kv_lora_rank\": %d, \"qk_nope_head_dim\": %d,"                        \
    " \"qk_rope_head_dim\": %d, \"v_head_dim\": %d, \"vocab_size\": %d}"
    struct gs_arch a = fixture_arch(LONGCAT_FLASH, 6144, 28, 64, 12288, 2048, 512, 256, 12, 1536,
                                    512, 128, 64, 128, 131072);
    struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.total, 560664958976ULL);
    assert_int_equal(c.active, 31377348608ULL);
    assert_int_equal(c.buffers, 28 * 768);
    assert_int_equal(c.mtp, 1197899776ULL);
    assert_int_equal(a.num_hidden_layers, 56);
    assert_int_equal(fixture_layout(&a, 8).bytes_per_token, 56 * 576 * 2);
    /* the router scores the identity experts too, and is still the router */
    const struct gs_block *moe = gs_arch_moe_block(&a);
    assert_non_null(moe);
    assert_int_equal(moe->mlp.experts, 512);
    assert_int_equal(gs_mlp_router_outputs(&moe->mlp), 768);
    size_t routers = 0;
    for (size_t i = 0; i < moe->module_count; i++)
        routers += gs_module_is_router(moe, &moe->modules[i]) ? 1 : 0;
    assert_int_equal(routers, 1);
    /* even sublayers carry the MoE, odd ones the dense MLP alone */
    assert_int_equal(a.blocks[a.layer_block[0]].mlp.kind, GS_MLP_MOE);
    assert_int_equal(a.blocks[a.layer_block[1]].mlp.kind, GS_MLP_DENSE);
    assert_int_equal(a.layer_block[0], a.layer_block[54]);
    assert_int_equal(a.layer_block[1], a.layer_block[55]);
    /* a toy by hand, h = 64, one layer: MLA q_a 64 x 16 + 16, q_b 16 x 2 x 16 = 512, kv_a
     * 64 x 24 = 1,536 + 16, kv_b 16 x 2 x 16 = 512, o 16 x 64 = 1,024: 4,640; MLP 3 x 64 x 128
     * = 24,576; 4 experts 3 x 64 x 32 = 24,576, router 64 x (4 + 2) = 384; 4 norms 256:
     * 2 x 4,640 + 2 x 24,576 + 24,576 + 384 + 256 = 83,648, + 2 x 100 x 64 + 64 = 96,512 */
    a = fixture_arch(LONGCAT_FLASH, 64, 1, 2, 128, 32, 4, 2, 2, 16, 16, 8, 8, 8, 100);
    assert_int_equal(fixture_count(&a).total, 96512);
    assert_int_equal(fixture_count(&a).buffers, 6);
    /* more picks than the router has outputs */
    char config[1024];
    snprintf(config, sizeof(config), LONGCAT_FLASH, 64, 1, 2, 128, 32, 4, 2, 7, 16, 16, 8, 8, 8,
             100);
    fixture_assert_reader_error(config, "/moe_topk");
#undef LONGCAT_FLASH
}

/* MiniCPM3 (minicpm3; MiniCPM3Config's defaults, documented as openbmb/MiniCPM3-4B's), by hand,
 * h = 2,560: attention q_a 2,560 x 768 + q_a_layernorm 768 + q_b 768 x 40 x 96 + kv_a 2,560 x
 * 288 + kv_a_layernorm 256 + kv_b 256 x 40 x 128 + o 40 x 64 x 2,560 = 13,517,824; SwiGLU
 * 3 x 2,560 x 6,400 = 49,152,000; norms 5,120: 62,674,944 a layer, x 62 =
 * 3,885,846,528, + the tied embedding 73,448 x 2,560 = 188,026,880 + the norm 2,560:
 * 4,073,875,968 (the hub's 4.07B). vLLM's cache: 62 x 2 x 40 x 96 x 2 B = 952,320 a token. */
static void test_minicpm3(void **state)
{
    (void)state;
    struct gs_arch a = fixture_arch(
        "{\"model_type\": \"minicpm3\", \"vocab_size\": 73448, \"hidden_size\": 2560,"
        " \"intermediate_size\": 6400, \"num_hidden_layers\": 62, \"num_attention_heads\": 40,"
        " \"num_key_value_heads\": 40, \"qk_nope_head_dim\": 64, \"qk_rope_head_dim\": 32,"
        " \"kv_lora_rank\": 256, \"q_lora_rank\": 768, \"scale_emb\": 12}");
    assert_int_equal(fixture_count(&a).total, 4073875968ULL);
    assert_int_equal(fixture_layout(&a, 1).bytes_per_token, 952320);
    assert_int_equal(fixture_layout(&a, 8).bytes_per_token, 952320 / 8);
}

/* GPTBigCode (gpt_bigcode; modeling_gpt_bigcode.py) with bigcode/starcoder's shapes (6,144 wide, 40
 * layers, 48 heads, n_inner 24,576, 8,192 positions, 49,152 tokens, multi_query), by hand:
 * c_attn 6,144 x (6,144 + 2 x 128) + 6,400 = 39,328,000, c_proj 6,144^2 + 6,144 = 37,754,880, c_fc
 * 6,144 x 24,576 + 24,576 = 151,019,520, c_proj 24,576 x 6,144 + 6,144 = 151,001,088, ln_1/ln_2
 * 24,576: 379,128,064 a layer, x 40 = 15,165,122,560; wte 49,152 x 6,144 = 301,989,888 (the head
 * tied), wpe 8,192 x 6,144 = 50,331,648, ln_f 12,288: 15,517,456,384 (the card's 15.5B). KV: one
 * head of 128, 40 x 2 x 128 x 2 B = 20,480 a token, on every rank; without multi_query every
 * head's. */
static void test_gpt_bigcode(void **state)
{
    (void)state;
#define STARCODER(extra)                                                                           \
    "{\"model_type\": \"gpt_bigcode\", \"n_embd\": 6144, \"n_layer\": 40, \"n_head\": 48,"         \
    " \"n_inner\": 24576, \"n_positions\": 8192, \"vocab_size\": 49152" extra "}"
    struct gs_arch a = fixture_arch(STARCODER(""));
    assert_int_equal(fixture_count(&a).total, 15517456384ULL);
    assert_int_equal(fixture_layout(&a, 1).bytes_per_token, 20480);
    assert_int_equal(fixture_layout(&a, 8).bytes_per_token, 20480);
    a = fixture_arch(STARCODER(", \"multi_query\": false"));
    assert_int_equal(fixture_count(&a).total,
                     15517456384ULL + 40ULL * (2 * 6144 * 6016 + 2 * 6016));
    assert_int_equal(fixture_layout(&a, 1).bytes_per_token, 40 * 2 * 6144 * 2);
#undef STARCODER
}

/* GPT-J, CodeGen and MPT (gptj, codegen, mpt) by hand.
 * GPT-J 6B's shapes (h 4,096, 28 layers, 16 heads, 50,400 tokens): q/k/v/out_proj 4 x 4,096^2 =
 * 67,108,864, fc_in/fc_out 2 x 4,096 x 16,384 + 16,384 + 4,096 = 134,238,208, ln_1 8,192:
 * 201,355,264 a layer, x 28 = 5,637,947,392; wte 206,438,400, the head with its bias 206,438,400 +
 * 50,400, ln_f 8,192: 6,050,882,784. CodeGen-2B's (h 2,560, 32 layers, 51,200 tokens): the fused
 * qkv_proj 3 x 2,560^2 and out_proj 2,560^2 = 26,214,400, fc 2 x 2,560 x 10,240 + 12,800 =
 * 52,441,600, ln_1 5,120: 78,661,120, x 32 = 2,517,155,840; wte 131,072,000, the head 131,072,000
 * + 51,200, ln_f 5,120: 2,779,356,160. MPT-7B's (h 4,096, 32 layers, 50,432 tokens): Wqkv and
 * out_proj 4 x 4,096^2 = 67,108,864, up/down 2 x 4,096 x 16,384 = 134,217,728, two weight-only
 * norms 8,192: 201,334,784, x 32 = 6,442,713,088; the tied wte 206,569,472, norm_f 4,096:
 * 6,649,286,656. */
static void test_gptj_codegen_mpt(void **state)
{
    (void)state;
    struct gs_arch a = fixture_arch("{\"model_type\": \"gptj\", \"n_embd\": 4096, \"n_layer\": 28,"
                                    " \"n_head\": 16, \"rotary_dim\": 64, \"vocab_size\": 50400}");
    assert_int_equal(fixture_count(&a).total, 6050882784ULL);
    assert_true(a.blocks[0].parallel_residual);
    a = fixture_arch("{\"model_type\": \"codegen\", \"n_embd\": 2560, \"n_layer\": 32,"
                     " \"n_head\": 32, \"rotary_dim\": 64, \"vocab_size\": 51200}");
    assert_int_equal(fixture_count(&a).total, 2779356160ULL);
    a = fixture_arch(
        "{\"model_type\": \"mpt\", \"d_model\": 4096, \"n_heads\": 32, \"n_layers\": 32,"
        " \"expansion_ratio\": 4, \"max_seq_len\": 2048, \"vocab_size\": 50432,"
        " \"attn_config\": {\"alibi\": true}}");
    assert_int_equal(fixture_count(&a).total, 6649286656ULL);
    assert_int_equal(fixture_layout(&a, 1).bytes_per_token, 32 * 2 * 4096 * 2);
    fixture_assert_reader_error("{\"model_type\": \"mpt\", \"d_model\": 64, \"n_heads\": 4,"
                                " \"attn_config\": {\"kv_n_heads\": 2}}",
                                "/attn_config");
}

/* Cohere2-MoE (cohere2_moe; modular_cohere2_moe.py) on a toy, by hand (h 64, 4 heads of 16, 2 KV
 * heads): attention q 64 x 64, k and v 2 x 64 x 32, o 64 x 64 = 12,288 a layer and its one
 * norm 64; layer 0 dense (first_k_dense_replace 1) at prefix_dense_intermediate_size 96,
 * 3 x 64 x 96 = 18,432; layers 1-3 routed: 4 experts 3 x 64 x 128 = 98,304, the router 4 x 64 =
 * 256, one shared expert 3 x 64 x 128 = 24,576 (123,136); the tied embedding 100 x 64 and the norm
 * 64: 4 x 12,352 + 18,432 + 3 x 123,136 + 6,400 + 64 = 443,712. The dense prefix follows
 * prefix_dense_sliding_window_pattern 1 (full), the rest sliding_window_pattern 4 counted from
 * layer 1: layers 1-3 sliding. */
static void test_cohere2_moe(void **state)
{
    (void)state;
    const struct gs_arch a = fixture_arch(
        "{\"model_type\": \"cohere2_moe\", \"hidden_size\": 64, \"intermediate_size\": 128,"
        " \"num_hidden_layers\": 4, \"num_attention_heads\": 4, \"num_key_value_heads\": 2,"
        " \"head_dim\": 16, \"vocab_size\": 100, \"num_experts\": 4, \"num_experts_per_tok\": 2,"
        " \"num_shared_experts\": 1, \"first_k_dense_replace\": 1,"
        " \"prefix_dense_intermediate_size\": 96, \"sliding_window\": 32}");
    assert_int_equal(fixture_count(&a).total, 443712);
    assert_int_equal(a.blocks[a.layer_block[0]].mlp.kind, GS_MLP_DENSE);
    assert_int_equal(a.blocks[a.layer_block[1]].mlp.kind, GS_MLP_MOE);
    assert_true(a.blocks[a.layer_block[1]].parallel_residual);
    const struct gs_kv_layout kv = fixture_layout(&a, 1);
    assert_int_equal(kv.full_token_bytes, 1 * 2 * 2 * 16 * 2);
}

/* nanochat (nanochat; modular_nanochat.py) with karpathy/nanochat-d32's shapes (depth 32, width
 * 2,048, 16 heads of 128, MLP 8,192, 65,536 tokens, untied), by hand: attention 4 x 2,048^2 =
 * 16,777,216, fc1/fc2 2 x 2,048 x 8,192 = 33,554,432, the norms no weight: 50,331,648 a layer,
 * x 32 = 1,610,612,736, + embedding and head 2 x 65,536 x 2,048 = 268,435,456: 1,879,048,192
 * ("d32, about 1.9B"). */
static void test_nanochat(void **state)
{
    (void)state;
    const struct gs_arch a = fixture_arch(
        "{\"model_type\": \"nanochat\", \"vocab_size\": 65536, \"hidden_size\": 2048,"
        " \"intermediate_size\": 8192, \"num_hidden_layers\": 32, \"num_attention_heads\": 16}");
    const struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.total, 1879048192ULL);
    assert_int_equal(c.norms, 0);
    assert_false(a.blocks[0].mlp.gated);
    assert_true(a.blocks[0].attn.qk_norm_bare);
    assert_true(a.final_logit_softcap);
}

/* hrm_text/README.md: HRM-Text-1B, 1,182,795,264 - 32 stored layers run as 128 passes, each pass
 * its own KV cache slot. */
static void test_hrm_text(void **state)
{
    (void)state;
    const char *file = "hrm_text/sapientinc__HRM-Text-1B.json";
    struct gs_arch a = fixture_arch_file(file);
    struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.total, 1182795264ULL);
    assert_int_equal(c.norms, 0);
    assert_int_equal(c.active, 1182795264ULL - 65536ULL * 1536);
    assert_int_equal(a.num_hidden_layers, 128);
    fixture_assert_kinds(&a, (struct fixture_kinds){.attention = 128});
    fixture_assert_cache(&a, 1, 786432, 0);
    /* the forward order: 3 L passes then an H pass, twice */
    assert_int_equal(a.layer_block[0], a.layer_block[47]);
    assert_int_not_equal(a.layer_block[47], a.layer_block[48]);
    assert_int_equal(a.layer_block[48], a.layer_block[127]);
    assert_int_equal(a.layer_block[64], a.layer_block[0]);
    assert_int_equal(a.blocks[a.layer_block[0]].attn.output_gate, GS_GATE_SIGMOID);
    /* transformers 5's saved form: the passes in num_hidden_layers, the depth apart */
    a = fixture_arch("{\"model_type\": \"hrm_text\", \"vocab_size\": 65536, \"hidden_size\": 1536,"
                     " \"intermediate_size\": 4096, \"num_hidden_layers\": 128,"
                     " \"num_layers_per_stack\": 16, \"num_attention_heads\": 12}");
    assert_int_equal(fixture_count(&a).total, 1182795264ULL);
    fixture_assert_cache(&a, 1, 786432, 0);
    /* 128 read as the depth, as HrmTextConfig would without num_layers_per_stack: 1,024 passes */
    fixture_assert_reader_error("{\"model_type\": \"hrm_text\", \"vocab_size\": 65536,"
                                " \"hidden_size\": 1536, \"intermediate_size\": 4096,"
                                " \"num_hidden_layers\": 128, \"num_attention_heads\": 12}",
                                "/num_hidden_layers");
    /* one H cycle of one L pass: 2 x 16 passes over the same 32 layers */
    a = fixture_arch("{\"model_type\": \"hrm_text\", \"vocab_size\": 65536, \"hidden_size\": 1536,"
                     " \"intermediate_size\": 4096, \"num_hidden_layers\": 16,"
                     " \"num_attention_heads\": 12, \"H_cycles\": 1, \"L_cycles\": 1}");
    assert_int_equal(fixture_count(&a).total, 1182795264ULL);
    fixture_assert_cache(&a, 1, 786432 / 4, 0);
}

/* A.X-K2 (axk2) with AXK2Config's defaults written out (the "Light" shapes: h 2,048, 48 layers,
 * 32 heads, q_lora 384, kv_lora 128, nope/rope/v 64/32/64, 128 experts of 512 and one shared,
 * index 16 x 128, gated_norm_rank 16, vocabulary 163,840), by hand:
 * - attention: q_a_proj 2,048 x 384 + q_a_layernorm 384, q_gate_proj 768 x 32 x (96 + 64) =
 *   3,932,160, kv_a_proj 2,048 x 160, kv_a_layernorm 128, kv_b_proj 128 x 32 x 128, o_proj
 *   32 x 64 x 2,048: 9,765,376; the indexer wq_b 384 x 2,048, wk 2,048 x 128, k_norm 256,
 *   weights_proj 2,048 x 16: 1,081,600; a gated norm 2,048 + 2 x 2,048 x 16 = 67,584;
 * - layer 0 (first_k_dense_replace 1 by default): + the MLP 3 x 2,048 x 5,120 and the plain
 *   post-attention norm 2,048: 42,373,888;
 * - a routed layer: two gated norms, 128 experts of 3 x 2,048 x 512, the router 128 x 2,048, the
 *   shared MLP 3 x 2,048 x 512: 417,043,200, x 47;
 * - embedding and head 2 x 163,840 x 2,048, the norm 2,048: 20,314,494,976, and 47 x 128 fp32
 *   correction biases. Active: less 47 x 120 unused experts and the embedding: 2,237,044,736. */
static void test_axk2(void **state)
{
    (void)state;
#define AXK2                                                                                       \
    "{\"model_type\": \"axk2\", \"vocab_size\": 163840, \"hidden_size\": %d,"                      \
    " \"intermediate_size\": %d, \"moe_intermediate_size\": %d, \"num_hidden_layers\": %d,"        \
    " \"num_attention_heads\": %d, \"n_shared_experts\": 1, \"n_routed_experts\": %d,"             \
    " \"num_experts_per_tok\": %d, \"kv_lora_rank\": %d, \"q_lora_rank\": %d,"                     \
    " \"qk_rope_head_dim\": %d, \"qk_nope_head_dim\": 64, \"v_head_dim\": %d%s}"
    struct gs_arch a = fixture_arch(AXK2, 2048, 5120, 512, 48, 32, 128, 8, 128, 384, 32, 64, "");
    struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.total, 42373888ULL + 47 * 417043200ULL + 2 * 163840ULL * 2048 + 2048);
    assert_int_equal(c.total, 20314494976ULL);
    assert_int_equal(c.buffers, 47 * 128);
    assert_int_equal(c.active, 2237044736ULL);
    assert_int_equal(a.blocks[a.layer_block[1]].attn.output_gate, GS_GATE_SIGMOID);
    /* the latent and the rotary key, 160 x 2 bytes a layer, and the indexer's 132 */
    fixture_assert_cache(&a, 1, 48 * 160 * 2, 0);
    /* hf-tiny-v2's tiny AXK2 (its config.json: h 32, 2 layers as mlp_layer_types says, dense
     * then sparse; 8 experts of 16, index 2 x 64, gated_norm_rank 4): AXK2Model 5,313,664 and
     * the causal head 163,840 x 32 */
    a = fixture_arch(AXK2, 32, 32, 16, 2, 2, 8, 2, 32, 16, 64, 32,
                     ", \"index_n_heads\": 2, \"index_head_dim\": 64, \"gated_norm_rank\": 4,"
                     " \"mlp_layer_types\": [\"dense\", \"sparse\"]");
    assert_int_equal(fixture_count(&a).total, 5313664ULL + 163840ULL * 32);
#undef AXK2
}

/* mimo/README.md: MiMo-7B, Qwen2's model 7,622,619,136 and its MTP layer 210,790,400. */
static void test_mimo(void **state)
{
    (void)state;
    const struct gs_arch a = fixture_arch_file("mimo/XiaomiMiMo__MiMo-7B-Base.json");
    const struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.total, 36 * 177223680ULL + 2 * 151680ULL * 4096 + 4096);
    assert_int_equal(c.mtp, 177223680ULL + 3 * 4096 + 8192ULL * 4096);
    fixture_assert_cache(&a, 1, 147456, 0);
    assert_int_equal(gs_weights_mtp_layers(&a), 1);
}

/* InternLM3 (internlm3) with internlm/internlm3-8b-instruct's config (a public test file quotes it,
 * find_string id 55463440875), by hand: attention 2 x 4,096^2 + 2 x 4,096 x 256 = 35,651,584, MLP
 * 3 x 4,096 x 10,240 = 125,829,120, norms 8,192: 161,488,896 a layer, x 48 = 7,751,467,008, +
 * embedding and head 2 x 128,512 x 4,096 = 1,052,770,304 + the norm 4,096: 8,804,241,408 (8.8B).
 * The biases: q/k/v by qkv_bias, o_proj and the MLP by `bias`. */
static void test_internlm3(void **state)
{
    (void)state;
#define INTERNLM3(q, o)                                                                            \
    "{\"model_type\": \"internlm3\", \"bias\": " o ", \"qkv_bias\": " q ", \"head_dim\": 128,"     \
    " \"hidden_size\": 4096, \"intermediate_size\": 10240, \"num_attention_heads\": 32,"           \
    " \"num_hidden_layers\": 48, \"num_key_value_heads\": 2, \"tie_word_embeddings\": false,"      \
    " \"vocab_size\": 128512}"
    struct gs_arch a = fixture_arch(INTERNLM3("false", "false"));
    assert_int_equal(fixture_count(&a).total, 8804241408ULL);
    a = fixture_arch(INTERNLM3("true", "false"));
    assert_int_equal(fixture_count(&a).total, 8804241408ULL + 48ULL * (4096 + 2 * 256));
    a = fixture_arch(INTERNLM3("false", "true"));
    assert_int_equal(fixture_count(&a).total, 8804241408ULL + 48ULL * (4096 + 2 * 10240 + 4096));
#undef INTERNLM3
}

/* Persimmon (persimmon; modeling_persimmon.py) with adept/persimmon-8b's shapes (h 4,096, 36
 * layers, 64 heads of 64, MLP 16,384, 262,144 tokens, untied), by hand: query_key_value 4,096 x
 * 12,288 + 12,288, dense 4,096^2 + 4,096, dense_h_to_4h 4,096 x 16,384 + 16,384, dense_4h_to_h
 * 16,384 x 4,096 + 4,096, two LayerNorms 16,384, q/k LayerNorms 256: 201,380,096 a layer, x 36 =
 * 7,249,683,456, + embedding and head 2 x 262,144 x 4,096 = 2,147,483,648 + the final LayerNorm
 * 8,192: 9,397,175,296. */
static void test_persimmon(void **state)
{
    (void)state;
    const struct gs_arch a = fixture_arch(
        "{\"model_type\": \"persimmon\", \"vocab_size\": 262144, \"hidden_size\": 4096,"
        " \"intermediate_size\": 16384, \"num_hidden_layers\": 36, \"num_attention_heads\": 64,"
        " \"hidden_act\": \"relu2\", \"qk_layernorm\": true}");
    assert_int_equal(fixture_count(&a).total, 9397175296ULL);
    assert_false(a.blocks[0].mlp.gated);
}

/* Nemotron-4 (nemotron; modeling_nemotron.py) by hand. Nemotron-4 340B's shapes (h 18,432, 96
 * layers, 96 heads of 192, 8 KV heads, relu2 MLP 73,728 wide, 256,000 tokens, untied): attention
 * 2 x 18,432^2 + 2 x 18,432 x 1,536 = 736,100,352, up and down 2 x 18,432 x 73,728 =
 * 2,717,908,992, two LayerNorm1Ps 73,728: 3,454,083,072 a layer, x 96 = 331,591,974,912; embedding
 * and head 2 x 256,000 x 18,432 = 9,437,184,000, the final norm 36,864: 341,029,195,776 (the
 * paper's 340B). A toy with the biases on, h = 64: q/k/v/o 4 x (64 x 64 + 64) = 16,640, up/down
 * 2 x 64 x 128 + 128 + 64 = 16,576, norms 256: 33,472 a layer, + 2 x 100 x 64 + 128. */
static void test_nemotron(void **state)
{
    (void)state;
    struct gs_arch a = fixture_arch(
        "{\"model_type\": \"nemotron\", \"hidden_size\": 18432, \"intermediate_size\": 73728,"
        " \"num_hidden_layers\": 96, \"num_attention_heads\": 96, \"num_key_value_heads\": 8,"
        " \"vocab_size\": 256000, \"hidden_act\": \"relu2\"}");
    assert_int_equal(fixture_count(&a).total, 341029195776ULL);
    assert_false(a.blocks[0].mlp.gated);
    assert_int_equal(a.blocks[0].mlp.act, GS_ACT_RELU2);
    a = fixture_arch(
        "{\"model_type\": \"nemotron\", \"hidden_size\": 64, \"intermediate_size\": 128,"
        " \"num_hidden_layers\": 1, \"num_attention_heads\": 4, \"vocab_size\": 100,"
        " \"attention_bias\": true, \"mlp_bias\": true}");
    assert_int_equal(fixture_count(&a).total, 33472 + 2 * 100 * 64 + 128);
}

/* GLM (glm; modeling_glm.py), GLM-4-0414 (glm4; modeling_glm4.py) and Arcee on a toy config, by
 * hand: q 64 x 64 + 64, k and v 64 x 32 + 32 each (attention_bias true by default, o_proj
 * unbiased), o 64 x 64: 12,416; gate_up_proj 64 x 256 + down 128 x 64: 24,576; two norms 128:
 * 37,120 a layer, x 2 = 74,240, + embedding and head 2 x 100 x 64 and the final norm 64: 87,104.
 * Glm4 adds post_self_attn_layernorm and post_mlp_layernorm, 2 x 2 x 64 = 256; attention_bias false
 * drops 2 x (64 + 32 + 32) = 256. KV: 2 layers x 2 x 2 x 16 x 2 B = 256 a token. */
static void test_glm_dense(void **state)
{
    (void)state;
#define TOY_GLM                                                                                    \
    "{\"model_type\": \"%s\", \"hidden_size\": 64, \"intermediate_size\": 128,"                    \
    " \"num_hidden_layers\": 2, \"num_attention_heads\": 4, \"num_key_value_heads\": 2,"           \
    " \"head_dim\": 16, \"vocab_size\": 100%s}"
    struct gs_arch a = fixture_arch(TOY_GLM, "glm", "");
    assert_int_equal(fixture_count(&a).total, 87104);
    assert_int_equal(fixture_layout(&a, 1).full_token_bytes, 256);
    a = fixture_arch(TOY_GLM, "glm4", "");
    assert_int_equal(fixture_count(&a).total, 87104 + 256);
    a = fixture_arch(TOY_GLM, "glm4", ", \"attention_bias\": false");
    assert_int_equal(fixture_count(&a).total, 87104);
    /* Arcee (arcee; modular_arcee.py ArceeMLP = NemotronMLP): no biases, the MLP up and down only,
     * 2 x 64 x 128 = 16,384 for GLM's 24,576 - attention 12,288, two norms 128: 28,800 a layer,
     * x 2 + 12,800 + 64 = 70,464 (AFM-4.5B's shapes give 4,619,184,640: a survey's hand count) */
    a = fixture_arch(TOY_GLM, "arcee", "");
    assert_int_equal(fixture_count(&a).total, 70464);
    assert_false(a.blocks[0].mlp.gated);
#undef TOY_GLM
}

/* GLM-4.7-Flash as its checkpoint stores it (the fixture's README, from a published inventory of
 * the safetensors: 31,221,488,576 elements): the parameters, 46 x 64 fp32 e_score_correction_bias
 * buffers, and model.layers.47 - an MLA MoE layer 635,311,424 + its bias 64 + eh_proj 2 x
 * 2,048 x 2,048 + enorm, hnorm, shared_head.norm 3 x 2,048 + embed_tokens and shared_head.head
 * 2 x 154,880 x 2,048 = 1,278,094,656. */
static void test_glm4_moe_lite_checkpoint(void **state)
{
    (void)state;
    struct gs_arch a = fixture_arch_file("glm4_moe_lite/zai-org__GLM-4.7-Flash.json");
    struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.buffers, 46 * 64);
    assert_int_equal(c.mtp, 1278094656ULL);
    assert_int_equal(c.total + c.buffers + c.mtp, 31221488576ULL);
    /* mlp_layer_types, not first_k_dense_replace, places the routed layers: by default every
     * layer but the first, whatever first_k_dense_replace says */
    assert_int_equal(a.layer_block[0] == a.layer_block[1], false);
    assert_int_equal(a.layer_block[1], a.layer_block[46]);
#define TOY_GLM4_MOE_LITE                                                                          \
    "{\"model_type\": \"glm4_moe_lite\", \"hidden_size\": 64, \"intermediate_size\": 128,"         \
    " \"moe_intermediate_size\": 32, \"num_hidden_layers\": 3, \"num_attention_heads\": 2,"        \
    " \"vocab_size\": 100, \"n_routed_experts\": 4, \"num_experts_per_tok\": 2,"                   \
    " \"n_shared_experts\": 1, \"q_lora_rank\": 16, \"kv_lora_rank\": 16,"                         \
    " \"qk_nope_head_dim\": 8, \"qk_rope_head_dim\": 8, \"v_head_dim\": 8, %s}"
    a = fixture_arch(TOY_GLM4_MOE_LITE, "\"first_k_dense_replace\": 3");
    assert_int_equal(a.layer_block[0] == a.layer_block[1], false);
    assert_int_equal(a.layer_block[1], a.layer_block[2]);
    assert_int_equal(fixture_count(&a).buffers, 2 * 4);
    /* a list the config gives: two dense layers, then one routed */
    a = fixture_arch(TOY_GLM4_MOE_LITE, "\"mlp_layer_types\": [\"dense\", \"dense\", \"sparse\"]");
    assert_int_equal(a.layer_block[0], a.layer_block[1]);
    assert_int_equal(a.layer_block[1] == a.layer_block[2], false);
    assert_int_equal(fixture_count(&a).buffers, 4);
#undef TOY_GLM4_MOE_LITE
}

/* Youtu-LLM (youtu; transformers models/youtu/modular_youtu.py): Llama layers with DeepSeek-V3's
 * attention and Qwen3MLP, no experts. YoutuConfig's defaults (the docstring's
 * tencent/Youtu-LLM-2B) with DeepseekV3Config's MLA dimensions it inherits. By hand, a layer:
 * q_a 2,048 x 1,536 + q_a_layernorm 1,536 + q_b 1,536 x 16 x (128 + 64) + kv_a_proj_with_mqa
 * 2,048 x (512 + 64) + kv_a_layernorm 512 + kv_b 512 x 16 x (128 + 128) + o 16 x 128 x 2,048 =
 * 15,337,472; the MLP 3 x 2,048 x 6,144 = 37,748,736; two norms 4,096. x 32 + the tied embedding
 * 128,256 x 2,048 = 262,668,288 + the norm 2,048 = 1,961,560,064 ("2B"). The cache: the latent
 * and the rotary key, (512 + 64) x 2 B a layer. */
static void test_youtu(void **state)
{
    (void)state;
    const struct gs_arch a = fixture_arch(
        "{\"model_type\": \"youtu\", \"architectures\": [\"YoutuForCausalLM\"],"
        " \"vocab_size\": 128256, \"hidden_size\": 2048, \"intermediate_size\": 6144,"
        " \"num_hidden_layers\": 32, \"num_attention_heads\": 16, \"num_key_value_heads\": 16,"
        " \"max_position_embeddings\": 131072, \"tie_word_embeddings\": true,"
        " \"q_lora_rank\": 1536, \"kv_lora_rank\": 512, \"qk_rope_head_dim\": 64,"
        " \"v_head_dim\": 128, \"qk_nope_head_dim\": 128, \"rope_interleave\": true,"
        " \"embedding_initializer_range\": 0.02}");
    const struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.total, 1961560064ULL);
    assert_int_equal(c.active, 1961560064ULL); /* tied: the head is the embedding */
    assert_int_equal(c.experts, 0);
    assert_string_equal(a.approximate, "");
    assert_true(gs_arch_has_mla(&a));
    assert_int_equal(gs_arch_moe_layers(&a), 0);
    assert_int_equal(fixture_layout(&a, 1).bytes_per_token, 32 * 576 * 2);
}

/* A.X-K1 (axk1; modular_axk1.py), AXK1Config's defaults (the docstring's skt/A.X-K1): DeepSeek-V3's
 * layer with 64 heads, 192 experts (top 8), one dense layer, vocabulary 163,840, and an RMSNorm
 * on each MoE's output (post_mlp_layernorm). By hand: attention a layer q_a 7,168 x 1,536 +
 * 1,536 + q_b 1,536 x 64 x 192 + kv_a 7,168 x 576 + 512 + kv_b 512 x 64 x 256 + o 8,192 x 7,168 =
 * 101,124,096, two norms 14,336; the dense layer's MLP 3 x 7,168 x 18,432 = 396,361,728; a MoE
 * layer's 192 experts of 3 x 7,168 x 2,048 = 44,040,192, the router 192 x 7,168, the shared
 * expert 44,040,192 and the new norm 7,168: 8,602,278,912. 497,500,160 + 60 x 8,602,278,912 + 2
 * x 1,174,405,120 + 7,168 = 518,983,052,288 ("519B"); the correction biases 60 x 192 buffers.
 * Active without the input lookup: less 60 x 184 unrouted experts = 31,604,927,488. Without the
 * norm, 60 x 7,168 fewer (DeepSeek-V3's reading). */
static void test_axk1(void **state)
{
    (void)state;
    static const char config[] =
        "{\"architectures\":[\"AXK1ForCausalLM\"],\"attention_bias\":false,\"bos_token_id\":163691,"
        "\"eos_token_id\":163691,\"first_k_dense_replace\":1,\"head_dim\":64,\"hidden_act\":"
        "\"silu\",\"hidden_size\":7168,\"intermediate_size\":18432,\"kv_lora_rank\":512,\"max_"
        "position_embeddings\":32768,\"model_type\":\"%s\",\"moe_intermediate_size\":2048,\"n_"
        "group\":8,\"n_routed_experts\":192,\"n_shared_experts\":1,\"norm_topk_prob\":true,\"num_"
        "attention_heads\":64,\"num_experts_per_tok\":8,\"num_hidden_layers\":61,\"num_key_value_"
        "heads\":64,\"q_lora_rank\":1536,\"qk_head_dim\":192,\"qk_nope_head_dim\":128,\"qk_rope_"
        "head_dim\":64,\"rms_norm_eps\":1e-06,\"rope_interleave\":true,\"routed_scaling_factor\":2."
        "5,\"tie_word_embeddings\":false,\"topk_group\":4,\"v_head_dim\":128,\"vocab_size\":"
        "163840}";
    const struct gs_arch a = fixture_arch(config, "axk1");
    const struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.total, 518983052288ULL);
    assert_int_equal(c.active, 31604927488ULL);
    assert_int_equal(c.buffers, 60 * 192);
    assert_string_equal(a.approximate, "");
    assert_int_equal(gs_arch_moe_layers(&a), 60);
    assert_int_equal(fixture_layout(&a, 1).bytes_per_token, 61 * 576 * 2);
    const struct gs_arch d = fixture_arch(config, "deepseek_v3");
    assert_int_equal(fixture_count(&d).total, 518983052288ULL - 60 * 7168);
}

/* Routers whose e_score_correction_bias transformers registers as a persistent buffer, which the
 * checkpoint stores and the weights count apart from the parameters (model.breakdown.buffers):
 * MiniMaxM2SparseMoeBlock's (nn.Buffer(torch.zeros(num_local_experts))), 62 layers x 256, and
 * Glm4MoeTopkRouter's (fp32), GLM-4.5-Air's 45 routed layers x 128. */
static void test_correction_bias_buffers(void **state)
{
    (void)state;
    const struct gs_arch m = fixture_arch_file("minimax_m2/MiniMaxAI__MiniMax-M2.reduced.json");
    assert_int_equal(fixture_count(&m).buffers, 62 * 256);
    const struct gs_arch g = fixture_arch_file("glm4_moe/zai-org__GLM-4.5-Air.json");
    assert_int_equal(fixture_count(&g).buffers, 45 * 128);
    const struct gs_arch so = fixture_arch_file("solar_open/upstage__Solar-Open-100B.json");
    assert_int_equal(fixture_count(&so).buffers, 48 * 128);
}

/* Routers that hold their weight as a bare nn.Parameter (F.linear on self.weight), which no LoRA
 * target adapts (gs_mlp.router_parameter), and those that score in fp32 (router_fp32):
 * MiMoV2FlashTopkRouter (fp32), LagunaTopKRouter, DeepseekV4TopKRouter and DeepseekV4HashRouter
 * (modeling_mimo_v2_flash.py, modeling_laguna.py, modeling_deepseek_v4.py), and the Kimi
 * checkpoints' KimiMoEGate (fp32; their modeling_kimi.py). */
static void test_bare_routers(void **state)
{
    (void)state;
    static const struct {
        const char *file;
        bool fp32;
    } cases[] = {
        {"mimo_v2_flash/XiaomiMiMo__MiMo-V2-Flash.json", true},
        {"laguna/poolside__Laguna-XS.2-FP8.json", false},
        {"laguna/poolside__Laguna-S-2.1-FP8.json", false},
        {"deepseek_v4/deepseek-ai__DeepSeek-V4-Flash.json", false},
        {"kimi_linear/moonshotai__Kimi-Linear-48B-A3B-Instruct.json", true},
        {"kimi_k3/moonshotai__Kimi-K3.json", true},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const struct gs_arch a = fixture_arch_file(cases[i].file);
        size_t routed = 0;
        for (size_t k = 0; k < a.block_count; k++) {
            if (a.blocks[k].mlp.kind != GS_MLP_MOE)
                continue;
            routed++;
            if (!a.blocks[k].mlp.router_parameter || a.blocks[k].mlp.router_fp32 != cases[i].fp32)
                fail_msg("%s: block %zu's router", cases[i].file, k);
        }
        if (routed == 0)
            fail_msg("%s: no routed block", cases[i].file);
    }
}

/* With no precision in the request the weights are sized as the checkpoint
 * stores them: DeepSeek-V3.2's fp8 with 128x128 block scales, gpt-oss's
 * MXFP4 experts (everything else bf16). */
static void test_checkpoint_formats(void **state)
{
    (void)state;
    struct gs_arch ds = fixture_arch_file("deepseek_v32/deepseek-ai__DeepSeek-V3.2.json");
    assert_true(ds.checkpoint.quantized);
    assert_int_equal(ds.checkpoint.format, GS_WF_FP8_BLOCK);
    struct gs_arch oss = fixture_arch_file("gpt_oss/openai__gpt-oss-20b.json");
    assert_true(oss.checkpoint.quantized);
    assert_int_equal(oss.checkpoint.format, GS_WF_MXFP4);
    assert_true(oss.checkpoint.experts_only);
    struct gs_arch qwen = fixture_arch_file("qwen3/Qwen__Qwen3-8B.json");
    assert_false(qwen.checkpoint.quantized);
    struct gs_arch minimax = fixture_arch_file("minimax_m2/MiniMaxAI__MiniMax-M2.reduced.json");
    assert_int_equal(minimax.checkpoint.format, GS_WF_FP8_BLOCK);

    /* compressed-tensors (llm-compressor) schemes and GPTQ, read from quantization_config */
#define LLAMA_WITH(q)                                                                              \
    "{\"model_type\":\"llama\",\"hidden_size\":4096,\"num_hidden_layers\":32,"                       \
    "\"num_attention_heads\":32,\"num_key_value_heads\":8,\"intermediate_size\":14336,"              \
    "\"vocab_size\":128256,\"quantization_config\":" q "}"
    struct gs_arch q = fixture_arch(LLAMA_WITH("{\"quant_method\":\"compressed-tensors\",\"config_groups\":"
                                              "{\"group_0\":{\"weights\":{\"num_bits\":4,"
                                              "\"type\":\"int\",\"strategy\":\"group\","
                                              "\"group_size\":32}}}}"));
    assert_true(q.checkpoint.quantized);
    assert_int_equal(q.checkpoint.format, GS_WF_AWQ);
    assert_int_equal(q.checkpoint.group_size, 32);
    q = fixture_arch(LLAMA_WITH("{\"quant_method\":\"compressed-tensors\",\"config_groups\":"
                               "{\"group_0\":{\"weights\":{\"num_bits\":8,\"type\":\"float\","
                               "\"strategy\":\"channel\"}}}}"));
    assert_int_equal(q.checkpoint.format, GS_WF_FP8_PER_CHANNEL);
    q = fixture_arch(LLAMA_WITH("{\"quant_method\":\"gptq\",\"bits\":4,\"group_size\":64}"));
    assert_int_equal(q.checkpoint.format, GS_WF_GPTQ);
    assert_int_equal(q.checkpoint.group_size, 64);
    /* a scheme gpusizer does not size: bf16, and the detail says so */
    q = fixture_arch(LLAMA_WITH("{\"quant_method\":\"hqq\",\"nbits\":4}"));
    assert_false(q.checkpoint.quantized);
    assert_non_null(strstr(q.checkpoint.detail, "\"hqq\" is not a format gpusizer sizes"));

    /* gpt-oss-20b weights: experts 24 x 32 x (2880 x 5760 + 2880 x 2880) in MXFP4 (17 bytes per
     * 32) with their biases in bf16, everything else in bf16 */
    struct gs_param_count c = fixture_count(&oss);
    struct gs_weights_request r = {GS_WF_MXFP4, 0, 1, 1, true, 0, {GS_SPLIT_VLLM, 0, {0}, 0},
                                   false};
    uint64_t bytes = 0;
    assert_int_equal(gs_weights_bytes(&oss, &c, &r, &bytes, NULL), GS_OK);
    const uint64_t expert_weights = 24ULL * 32 * (2880ULL * 5760 + 2880ULL * 2880);
    const uint64_t expert_biases = 24ULL * 32 * (5760 + 2880);
    const uint64_t rest = c.total - expert_weights - expert_biases;
    assert_int_equal(bytes, expert_weights / 32 * 17 + 2 * expert_biases + 2 * rest);
    /* about 13.8 GB: the published checkpoint is 13.8 GB of safetensors */
    assert_true(bytes > 13000000000ULL && bytes < 14000000000ULL);
}

/* A model_type gpusizer does not know by name, whose architectures[0] it
 * does (Kimi-K2 declares kimi_k2 and DeepseekV3ForCausalLM), is read as that
 * class's layout, and says so. */
static void test_read_by_architecture(void **state)
{
    (void)state;
    struct gs_arch a = fixture_arch("{\"model_type\":\"my_llama\",\"architectures\":[\"LlamaForCausalLM\"],"
                                    "\"hidden_size\":4096,\"num_hidden_layers\":32,"
                                    "\"num_attention_heads\":32,\"num_key_value_heads\":8,"
                                    "\"intermediate_size\":14336,\"vocab_size\":128256}");
    assert_string_equal(a.model_type, "my_llama");
    assert_string_equal(a.read_as, "llama");
    assert_int_equal(fixture_count(&a).total, 8030261248ULL); /* Llama-3-8B */
}

/* Python's json writes NaN and Infinity; configs that contain them are read
 * with those members as null (here an unused field and a used one). */
static void test_nonstandard_literals(void **state)
{
    (void)state;
    const char *text = "{\"model_type\":\"llama\",\"hidden_size\":4096,\"num_hidden_layers\":32,"
                       "\"num_attention_heads\":32,\"num_key_value_heads\":8,"
                       "\"intermediate_size\":14336,\"vocab_size\":128256,"
                       "\"time_step_limit\":[0.0, Infinity],\"x\":-Infinity,\"y\":NaN,"
                       "\"note\":\"NaN and Infinity inside strings stay\",\"rope_theta\":NaN}";
    json_error_t jerr;
    json_t *config = json_load_lenient(text, strlen(text), JSON_REJECT_DUPLICATES, &jerr);
    assert_non_null(config);
    assert_true(json_is_null(json_array_get(json_object_get(config, "time_step_limit"), 1)));
    assert_string_equal(json_string_value(json_object_get(config, "note")),
                        "NaN and Infinity inside strings stay");
    json_decref(config);
    /* still invalid JSON is still refused */
    assert_null(json_load_lenient("{\"a\": Infinit}", 14, 0, &jerr));
    assert_null(json_load_lenient("{\"a\": 1", 7, 0, &jerr));
}

/* An estimate runs for every fixture, in both modes, with serving and
 * training sections: no model type is readable but unsizeable. */
static void test_every_fixture_estimates(void **state)
{
    (void)state;
    static const char *const files[] = {
        "qwen3/Qwen__Qwen3-8B.json", "smollm3/HuggingFaceTB__SmolLM3-3B.json",
        "olmo2/allenai__OLMo-2-1124-13B.json", "phi/microsoft__phi-2.json",
        "gemma3_text/google__gemma-3-1b-it.json", "granite/ibm-granite__granite-3.3-8b-instruct.json",
        "qwen/Qwen__Qwen-7B.json", "internlm2/internlm__internlm2_5-7b-chat.json",
        "cohere/CohereForAI__aya-23-8B.json", "cohere2/CohereForAI__c4ai-command-r7b-12-2024.json",
        "stablelm/stabilityai__stablelm-2-zephyr-1_6b.json", "gpt_oss/openai__gpt-oss-20b.json",
        "olmoe/allenai__OLMoE-1B-7B-0924.json", "glm4_moe/zai-org__GLM-4.5-Air.json",
        "kimi_k2/moonshotai__Kimi-K2-Instruct.json", "deepseek_v32/deepseek-ai__DeepSeek-V3.2.json",
        "phimoe/microsoft__Phi-3.5-MoE-instruct.reduced.json",
        "minimax_m2/MiniMaxAI__MiniMax-M2.reduced.json",
        "seed_oss/ByteDance-Seed__Seed-OSS-36B-Instruct.reduced.json",
    };
    for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
        const struct gs_arch arch = fixture_arch_file(files[i]);
        struct gs_workload w = fixture_vllm_workload(8, 4096, 1, 85061827297ULL);
        struct gs_estimate e = fixture_estimate(&arch, &w);
        assert_true(e.per_gpu.kv_cache_bytes > 0);
        assert_true(e.serving.kv.bytes_per_token > 0);
        w.mode = GS_MODE_TRAINING;
        w.training.batch_size = 1;
        w.training.sequence_length = 2048;
        e = fixture_estimate(&arch, &w);
        assert_true(e.saved_activation_bytes > 0);
        /* LoRA over every linear layer works for every family */
        w.training.method = GS_METHOD_LORA;
        w.training.method_given = true;
        e = fixture_estimate(&arch, &w);
        assert_true(e.trainable_parameters > 0);
        assert_true(e.trainable_parameters < e.parameters / 50);
    }
}

/* Gemma 3 (text): five local layers of 512 tokens to every global one; a
 * 32k-token sequence holds the 4 global layers in full and the 22 local
 * ones within cdiv(511 + 2048, 16) + 1 = 161 blocks each (vLLM
 * SlidingWindowSpec.max_memory_usage_bytes with 2,048 batched tokens). */
static void test_gemma3_local_global(void **state)
{
    (void)state;
    struct gs_arch a = fixture_arch_file("gemma3_text/google__gemma-3-1b-it.json");
    const struct gs_kv_layout kv = fixture_layout_as(&a, GS_KV_BF16, 1);
    assert_int_equal(kv.window_count, 1);
    assert_int_equal(kv.windows[0].window, 512);
    assert_int_equal(kv.windows[0].layers, 22);
    bool ovf = false;
    const uint64_t page = 16 * 1024; /* one block of one layer: 16 tokens x 1,024 B */
    assert_int_equal(gs_kv_sequence_bytes(&kv, 32768, 0, 16, 2048, &ovf),
                     4 * 2048 * page + 22 * 161 * page);
}

/* The rotary cos/sin tables vLLM builds with each model (get_rope; bytes in
 * the model dtype), by rope scaling type, written out per config:
 *   Llama 4 Scout: llama3 scaling, max_position_embeddings 10,485,760 x head 128
 *     = 1,342,177,280 values, 2.5 GiB in bf16 - the 2.49 GiB by which vLLM 0.19's
 *     "weights memory: 53.12GiB" (llm-d planner log, TP 4) exceeds the weights
 *   Gemma 3 4B: linear factor 8 over 131,072 positions, and the local layers'
 *     unscaled table: (1,048,576 + 131,072) x 256
 *   gpt-oss-20b: YaRN, original 4,096 x factor 32 = 131,072 x head 64
 *   DeepSeek-V3.2: DeepSeek YaRN 4,096 x 40 = 163,840 x qk_rope_head_dim 64
 *   phi-2: 2,048 x int(80 x 0.4) = 32; Qwen3-Next: 262,144 x int(256 x 0.25) = 64
 *   MiniMax-M2: rotary_dim 64 of head 128; InternLM2.5: dynamic NTK factor 2
 *   over 32,768; Qwen2.5-VL: mrope over max_position_embeddings 128,000
 *   Jamba, Nemotron-H (no positions), Mamba (no attention), Whisper (learned
 *     positions): none. */
static void test_rope_tables(void **state)
{
    (void)state;
    static const struct {
        const char *file;
        size_t tables;
        uint64_t rows0, dim, rows1;
    } cases[] = {
        {"llama4/meta-llama__Llama-4-Scout-17B-16E-Instruct.json", 1, 10485760, 128, 0},
        {"gemma3/google__gemma-3-4b-it.json", 2, 1048576, 256, 131072},
        {"gemma3_text/google__gemma-3-1b-it.json", 2, 32768, 256, 32768},
        {"gpt_oss/openai__gpt-oss-20b.json", 1, 131072, 64, 0},
        {"deepseek_v32/deepseek-ai__DeepSeek-V3.2.json", 1, 163840, 64, 0},
        {"phi/microsoft__phi-2.json", 1, 2048, 32, 0},
        {"qwen3_next/Qwen__Qwen3-Next-80B-A3B-Thinking.json", 1, 262144, 64, 0},
        {"minimax_m2/MiniMaxAI__MiniMax-M2.reduced.json", 1, 196608, 64, 0},
        {"internlm2/internlm__internlm2_5-7b-chat.json", 1, 65536, 128, 0},
        {"qwen2_5_vl/Qwen__Qwen2.5-VL-7B-Instruct.json", 1, 128000, 128, 0},
        {"jamba/ai21labs__AI21-Jamba-1.5-Mini.json", 0, 0, 0, 0},
        {"nemotron_h/nvidia__Nemotron-H-8B-Base-8K.json", 0, 0, 0, 0},
        {"mamba/state-spaces__mamba-130m-hf.json", 0, 0, 0, 0},
        {"whisper/openai__whisper-small.json", 0, 0, 0, 0},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct gs_arch a = fixture_arch_file(cases[i].file);
        if (a.rope_table_count != cases[i].tables)
            fail_msg("%s: %zu rotary tables, expected %zu", cases[i].file, a.rope_table_count,
                     cases[i].tables);
        if (cases[i].tables == 0)
            continue;
        if (a.rope_tables[0].rows != cases[i].rows0 || a.rope_tables[0].dim != cases[i].dim)
            fail_msg("%s: table of %llu x %llu, expected %llu x %llu", cases[i].file,
                     (unsigned long long)a.rope_tables[0].rows,
                     (unsigned long long)a.rope_tables[0].dim,
                     (unsigned long long)cases[i].rows0, (unsigned long long)cases[i].dim);
        if (cases[i].tables > 1)
            assert_int_equal(a.rope_tables[1].rows, cases[i].rows1);
    }
    bool ovf = false;
    struct gs_arch scout = fixture_arch_file("llama4/meta-llama__Llama-4-Scout-17B-16E-Instruct.json");
    assert_int_equal(gs_arch_rope_table_bytes(&scout, 2, &ovf), (uint64_t)5 << 29); /* 2.5 GiB */
    struct gs_arch gemma = fixture_arch_file("gemma3/google__gemma-3-4b-it.json");
    assert_int_equal(gs_arch_rope_table_bytes(&gemma, 2, &ovf), (1048576 + 131072) * 256 * 2);
    assert_false(ovf);
}

/* Whether a model's attention blocks rotate only part of each head and concatenate the rest
 * back (transformers apply_rotary_pos_emb: torch.cat([q_embed, q_pass], dim=-1)), which makes
 * the query a new contiguous (batch, heads, seq, dim) tensor in training: phi-2 (0.4 of 80),
 * Phi-3/4-mini (0.75), Qwen3-Next (0.25 of 256), MiniMax-M2 (rotary_dim 64 of 128); not a whole
 * rotary (Llama 4, Qwen3), nor Gemma 4's "proportional" rope, which rotates every value with
 * zero frequencies past the rotary part. */
static void test_rotary_partial(void **state)
{
    (void)state;
    static const struct {
        const char *file;
        bool partial;
    } cases[] = {
        {"phi/microsoft__phi-2.json", true},
        {"qwen3_next/Qwen__Qwen3-Next-80B-A3B-Thinking.json", true},
        {"minimax_m2/MiniMaxAI__MiniMax-M2.reduced.json", true},
        {"llama4/meta-llama__Llama-4-Scout-17B-16E-Instruct.json", false},
        {"gemma4/google__gemma-4-26B-A4B.json", false},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const struct gs_arch a = fixture_arch_file(cases[i].file);
        size_t attention = 0, partial = 0;
        for (size_t b = 0; b < a.block_count; b++) {
            if (a.blocks[b].mixer != GS_MIXER_ATTENTION || a.blocks[b].attn.nope)
                continue;
            attention++;
            partial += a.blocks[b].attn.rotary_partial;
        }
        if (attention == 0 || partial != (cases[i].partial ? attention : 0))
            fail_msg("%s: %zu of %zu attention blocks partial", cases[i].file, partial,
                     attention);
    }
    const struct gs_arch phi3 = fixture_arch("{\"model_type\":\"phi3\",\"hidden_size\":3072,"
                                             "\"intermediate_size\":8192,"
                                             "\"num_attention_heads\":24,"
                                             "\"num_key_value_heads\":8,"
                                             "\"num_hidden_layers\":2,\"vocab_size\":200064,"
                                             "\"max_position_embeddings\":131072,"
                                             "\"partial_rotary_factor\":0.75}");
    assert_true(phi3.blocks[0].attn.rotary_partial);
}

/* ------------------------------------------------------------ 2025-26 decoders (issue 30) */

/* One architecture given inline (no verbatim config.json of these was found; the fields
 * and their sources are in tests/fixtures/configs/<model_type>/README.md): its count,
 * active count, KV bytes per token at bf16 on one GPU and on each of 4, and the full and
 * windowed layers. */
struct inline_case {
    const char *json;
    uint64_t total, active, kv_tp1, kv_tp4, full_layers, window_layers;
};

static void check_inline(const struct inline_case *x)
{
    const struct gs_arch a = fixture_arch("%s", x->json);
    const struct gs_param_count c = fixture_count(&a);
    if (c.total != x->total || c.active != x->active)
        fail_msg("%.60s: %llu / %llu parameters, expected %llu / %llu", x->json,
                 (unsigned long long)c.total, (unsigned long long)c.active,
                 (unsigned long long)x->total, (unsigned long long)x->active);
    const struct gs_kv_layout kv = fixture_layout_as(&a, GS_KV_BF16, 1);
    assert_int_equal(kv.bytes_per_token, x->kv_tp1);
    assert_int_equal(kv.full_layers, x->full_layers);
    assert_int_equal(kv.window_layers, x->window_layers);
    assert_int_equal(fixture_layout_as(&a, GS_KV_BF16, 4).bytes_per_token, x->kv_tp4);
    fixture_assert_parts_sum(&c);

    /* a vLLM serving estimate of 8 sequences of 4,096 tokens runs and holds their blocks */
    fixture_assert_vllm_serving(&a, 8, 1, 150000000000ULL);
}

/* olmo3/README.md. 7B: h 4096, 32 layers of 32 heads (MHA) x 128, MLP 11008, V 100278,
 * untied: 32 x (4 x 4096^2 + q/k norms 2 x 4096 + 3 x 4096 x 11008 + 2 x 4096) + 2 x V x h
 * + h = 7,298,011,136 (card 7B, HF 7.3B); 8 full layers (3, 7, ... 31) and 24 with a
 * 4096-token window; KV 32 x 2 x 4096 x 2 = 524,288 a token. 32B: h 5120, 64 layers of 40
 * heads, 8 KV heads, MLP 27648: 64 x 487,604,224 + 2 x 100278 x 5120 + 5120 =
 * 32,233,522,176 (card 32B); KV 64 x 2 x 1024 x 2 = 262,144. */
static void test_olmo3(void **state)
{
    (void)state;
    const struct inline_case cases[] = {
        {"{\"architectures\": [\"Olmo3ForCausalLM\"], \"model_type\": \"olmo3\", \"hidden_size\": "
         "4096, \"intermediate_size\": 11008, \"num_hidden_layers\": 32, \"num_attention_heads\": "
         "32, \"num_key_value_heads\": 32, \"vocab_size\": 100278, \"max_position_embeddings\": "
         "65536, \"sliding_window\": 4096, \"tie_word_embeddings\": false, \"rope_scaling\": "
         "{\"rope_type\": \"yarn\", \"factor\": 8.0, \"original_max_position_embeddings\": 8192}}",
         7298011136ULL, 7298011136ULL - 410738688ULL, 524288, 131072, 8, 24},
        {"{\"architectures\": [\"Olmo3ForCausalLM\"], \"model_type\": \"olmo3\", \"hidden_size\": "
         "5120, \"intermediate_size\": 27648, \"num_hidden_layers\": 64, \"num_attention_heads\": "
         "40, \"num_key_value_heads\": 8, \"vocab_size\": 100278, \"max_position_embeddings\": "
         "65536, \"sliding_window\": 4096, \"tie_word_embeddings\": false}",
         32233522176ULL, 32233522176ULL - 513423360ULL, 262144, 65536, 16, 48},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
        check_inline(&cases[i]);
    /* the sliding layers get a rope table of their own when the full ones are scaled */
    const struct gs_arch a = fixture_arch("%s", cases[0].json);
    assert_int_equal(a.rope_table_count, 2);
    assert_int_equal(a.rope_tables[1].rows, 65536);
}

/* apertus/README.md. 8B: h 4096, 32 layers, 32 heads, 8 KV heads x 128, an ungated MLP of
 * 21504 through xIELU (alpha_p, alpha_n: 2 parameters a layer), q/k norms over 128, untied
 * V 131072: 32 x (41,943,040 + 256 + 2 x 4096 x 21504 + 2 + 8192) + 2 x 131072 x 4096 + 4096
 * = 8,053,338,176 (HF 8.05B). 70B: h 8192, 80 layers, 64 heads, 8 KV heads, MLP 43008:
 * 70,599,864,480 (HF 70.6B). KV 32 x 2 x 1024 x 2 = 131,072; 80 x 4096 = 327,680. */
static void test_apertus(void **state)
{
    (void)state;
    const struct inline_case cases[] = {
        {"{\"architectures\": [\"ApertusForCausalLM\"], \"model_type\": \"apertus\", "
         "\"hidden_size\": 4096, \"intermediate_size\": 21504, \"num_hidden_layers\": 32, "
         "\"num_attention_heads\": 32, \"num_key_value_heads\": 8, \"vocab_size\": 131072, "
         "\"hidden_act\": \"xielu\", \"max_position_embeddings\": 65536, \"tie_word_embeddings\": "
         "false, \"qk_norm\": true}",
         8053338176ULL, 8053338176ULL - 536870912ULL, 131072, 32768, 32, 0},
        {"{\"architectures\": [\"ApertusForCausalLM\"], \"model_type\": \"apertus\", "
         "\"hidden_size\": 8192, \"intermediate_size\": 43008, \"num_hidden_layers\": 80, "
         "\"num_attention_heads\": 64, \"num_key_value_heads\": 8, \"vocab_size\": 131072, "
         "\"hidden_act\": \"xielu\", \"max_position_embeddings\": 65536, \"tie_word_embeddings\": "
         "false}",
         70599864480ULL, 70599864480ULL - 1073741824ULL, 327680, 81920, 80, 0},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
        check_inline(&cases[i]);
    /* another activation has no parameters: 32 x 2 fewer */
    const struct gs_arch silu = fixture_arch(
        "{\"model_type\": \"apertus\", \"hidden_size\": 4096, \"intermediate_size\": 21504,"
        " \"num_hidden_layers\": 32, \"num_attention_heads\": 32, \"num_key_value_heads\": 8,"
        " \"vocab_size\": 131072, \"hidden_act\": \"relu2\"}");
    assert_int_equal(fixture_count(&silu).total, 8053338176ULL - 64);
}

/* starcoder2/README.md: the 3B and 7B architecture fields (TensorRT-LLM's StarCoder2 test
 * configs "based on HuggingFace configs", full depth), every layer windowed, tied head. 3B:
 * 30 x 95,979,008 + 49152 x 3072 + 6144 = 3,030,371,328; 7B: 32 x 217,106,944 + 49152 x 4608 +
 * 9216 = 7,173,923,840. KV 30 x 2 x 256 x 2 = 30,720 (TP 4: one replicated KV head, 15,360);
 * 32 x 2 x 512 x 2 = 65,536 (TP 4: 16,384). */
static void test_starcoder2(void **state)
{
    (void)state;
    const struct inline_case cases[] = {
        {"{\"architectures\": [\"Starcoder2ForCausalLM\"], \"model_type\": \"starcoder2\", "
         "\"hidden_size\": 3072, \"intermediate_size\": 12288, \"num_hidden_layers\": 30, "
         "\"num_attention_heads\": 24, \"num_key_value_heads\": 2, \"vocab_size\": 49152, "
         "\"max_position_embeddings\": 16384, \"sliding_window\": 4096, \"use_bias\": true, "
         "\"hidden_act\": \"gelu_pytorch_tanh\", \"norm_epsilon\": 1e-5}",
         3030371328ULL, 3030371328ULL, 30720, 15360, 0, 30},
        {"{\"architectures\": [\"Starcoder2ForCausalLM\"], \"model_type\": \"starcoder2\", "
         "\"hidden_size\": 4608, \"intermediate_size\": 18432, \"num_hidden_layers\": 32, "
         "\"num_attention_heads\": 36, \"num_key_value_heads\": 4, \"vocab_size\": 49152, "
         "\"max_position_embeddings\": 16384, \"sliding_window\": 4096, \"use_bias\": true}",
         7173923840ULL, 7173923840ULL, 65536, 16384, 0, 32},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
        check_inline(&cases[i]);
    /* without biases: 30 x (2 x 3072 + 2 x 256 + 12288 + 3072) fewer */
    const struct gs_arch plain = fixture_arch(
        "{\"model_type\": \"starcoder2\", \"hidden_size\": 3072, \"intermediate_size\": 12288,"
        " \"num_hidden_layers\": 30, \"num_attention_heads\": 24, \"num_key_value_heads\": 2,"
        " \"vocab_size\": 49152, \"use_bias\": false}");
    assert_int_equal(fixture_count(&plain).total, 3030371328ULL - 30ULL * 22016ULL);
}

/* Jais 2 (jais2; modular_jais2.py), Jais2Config's defaults (the docstring's
 * inceptionai/Jais-2-8B-Chat): h 3,328, 32 layers of 26 heads (KV heads the same) x 128, MLP
 * 26,624, V 150,272, untied. A layer by hand: q/k/v/o 4 x 3,328^2 + their biases 4 x 3,328 =
 * 44,315,648; the ungated up/down 2 x 3,328 x 26,624 + biases 26,624 + 3,328 = 177,239,296;
 * two LayerNorms 4 x 3,328 = 13,312: 221,568,256. x 32 + embedding and head 2 x 500,105,216 +
 * the final LayerNorm 6,656 = 8,090,401,280 ("8B"); a Llama reading (gated MLP, RMSNorms, no
 * biases) would say 10.9B. Active: less the embedding, 7,590,296,064. KV 32 x 2 x 26 x 128 x 2
 * = 425,984 B a token; TP 2, 13 heads a GPU: 212,992. Without biases: 32 x (4 x 3,328 + 26,624
 * + 3,328) fewer. */
static void test_jais2(void **state)
{
    (void)state;
    static const char config[] =
        "{\"model_type\": \"jais2\", \"architectures\": [\"Jais2ForCausalLM\"],"
        " \"vocab_size\": 150272, \"hidden_size\": 3328, \"intermediate_size\": 26624,"
        " \"num_hidden_layers\": 32, \"num_attention_heads\": 26, \"hidden_act\": \"relu2\","
        " \"max_position_embeddings\": 8192, \"layer_norm_eps\": 1e-5,"
        " \"tie_word_embeddings\": false%s}";
    const struct gs_arch a = fixture_arch(config, "");
    const struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.total, 8090401280ULL);
    assert_int_equal(c.active, 7590296064ULL);
    assert_int_equal(c.lm_head, 500105216ULL);
    assert_string_equal(a.approximate, "");
    assert_int_equal(fixture_layout(&a, 1).bytes_per_token, 425984);
    assert_int_equal(fixture_layout(&a, 2).bytes_per_token, 212992);
    const struct gs_arch plain =
        fixture_arch(config, ", \"attention_bias\": false, \"mlp_bias\": false");
    assert_int_equal(fixture_count(&plain).total,
                     8090401280ULL - 32ULL * (4 * 3328 + 26624 + 3328));
}

/* HyperCLOVA X SEED (hyperclovax; modular_hyperclovax.py): Granite's layer with Peri-LN's
 * post_norm1 and post_norm2 (use_post_norm, on by default). With GraniteConfig's default dims
 * (h 4,096, 32 layers, 32 heads, MLP 11,008, V 32,000, untied) that is Llama-2-7B's
 * 6,738,415,616 and two more 4,096-wide norms a layer: + 32 x 8,192 = 6,738,677,760; with
 * use_post_norm false, Llama-2-7B's count. */
static void test_hyperclovax(void **state)
{
    (void)state;
    static const char config[] =
        "{\"model_type\": \"hyperclovax\", \"architectures\": [\"HyperCLOVAXForCausalLM\"],"
        " \"vocab_size\": 32000, \"hidden_size\": 4096, \"intermediate_size\": 11008,"
        " \"num_hidden_layers\": 32, \"num_attention_heads\": 32, \"num_key_value_heads\": 32,"
        " \"embedding_multiplier\": 1.0, \"logits_scaling\": 1.0, \"residual_multiplier\": 1.0%s}";
    const struct gs_arch a = fixture_arch(config, "");
    assert_int_equal(fixture_count(&a).total, 6738677760ULL);
    assert_int_equal(fixture_count(&a).norms, 32ULL * 4 * 4096 + 4096);
    assert_string_equal(a.approximate, "");
    const struct gs_arch plain = fixture_arch(config, ", \"use_post_norm\": false");
    assert_int_equal(fixture_count(&plain).total, 6738415616ULL);
}

/* Granite SWA (granite_swa; modular_granite_swa.py), GraniteSWAConfig's defaults (the
 * docstring's ibm-granite/granite-swash-2b): h 2,560, 24 layers of 20 heads, 4 KV heads x 128,
 * MLP 8,192, V 100,352, tied. A layer: q and o 2 x 2,560^2, k and v 2 x 2,560 x 512, the sinks
 * 20, the MLP 3 x 2,560 x 8,192, two norms 5,120 = 78,648,340; x 24 + the embedding 256,901,120
 * + the norm 2,560 = 2,144,463,840. Without layer_types the layers i % 4 == 0 are full (6), the
 * others slide over 128 tokens: 2 x 4 x 128 x 2 = 2,048 B a layer and token. No SDPA path: eager
 * by default, whose sinks (sigmoid(logsumexp(scores) - sink) x output) keep, in bf16 without
 * autocast, the masked scores (2 B a score) and per token and head the unscaled output (128 x 2
 * B), logsumexp's result (2), the fp32 sigmoid (4) and its bf16 copy (2): at 16 tokens a layer
 * keeps 20 x 16 x 16 x 2 + 16 x 20 x 264 = 94,720 B more than Llama's eager code would. */
static void test_granite_swa(void **state)
{
    (void)state;
    const struct gs_arch a = fixture_arch(
        "{\"model_type\": \"granite_swa\", \"architectures\": [\"GraniteSWAForCausalLM\"],"
        " \"vocab_size\": 100352, \"hidden_size\": 2560, \"intermediate_size\": 8192,"
        " \"num_hidden_layers\": 24, \"num_attention_heads\": 20, \"num_key_value_heads\": 4,"
        " \"max_position_embeddings\": 8192, \"tie_word_embeddings\": true,"
        " \"sliding_window\": 128}");
    assert_int_equal(fixture_count(&a).total, 2144463840ULL);
    assert_string_equal(a.approximate, "");
    const struct gs_kv_layout k = fixture_layout(&a, 1);
    assert_int_equal(k.full_token_bytes, 6 * 2048);
    assert_int_equal(k.window_layers, 18);
    assert_true(a.attention_no_sdpa);
    assert_true(a.eager_sink_lse);

    struct gs_parallelism par;
    struct gs_training_knobs knobs;
    fixture_framework_release(&par, &knobs, GS_FW_TRANSFORMERS, 0);
    struct gs_framework_rules rules;
    gs_framework_resolve(&knobs, GS_ATTN_EAGER, &rules);
    struct gs_arch llama_eager = a;
    llama_eager.eager_sink_lse = false;
    struct gs_activation_input in = fixture_one_sequence(&a, &par, &rules, 16, false);
    struct gs_activation_result sinks, plain;
    assert_true(gs_activation_bytes(&in, &sinks));
    in.arch = &llama_eager;
    assert_true(gs_activation_bytes(&in, &plain));
    assert_int_equal(sinks.per_layer_bytes - plain.per_layer_bytes, 94720);
}

/* GraniteMoeSWA (granitemoe_swa; modular_granitemoe_swa.py): GraniteSWA's attention beside
 * GraniteMoeShared's MoE. No published config is in reach (ibm-granite/granite-swash-3b-a600m's
 * shared_intermediate_size is 1,280 by a third-party note), so a toy written out: h 1,024, 4
 * layers of 8 heads, 4 KV heads of 128, 8 experts of 512 (top 2), a shared MLP of 256, vocab
 * 1,000, untied. A layer: q and o 1,024^2 each, k and v 1,024 x 512 each, 8 sinks: 3,145,736;
 * the router 8 x 1,024 = 8,192; experts 8 x 3 x 1,024 x 512 = 12,582,912; shared_mlp 3 x 1,024 x
 * 256 = 786,432; two norms 2,048: 16,525,320; x 4 + embedding and head 2 x 1,024,000 + the norm
 * 1,024 = 68,150,304; active (2 of 8 experts, the lookup aside) 68,150,304 - 4 x 6 x 1,572,864 -
 * 1,024,000 = 29,377,568. Layer 0 full, 1 to 3 over 128 tokens (i % 4 == 0 full); KV 2 x 4 x
 * 128 x 2 = 2,048 B a layer and token. Eager-only, sinks applied after the softmax. */
static void test_granitemoe_swa(void **state)
{
    (void)state;
    const struct gs_arch a = fixture_arch(
        "{\"model_type\": \"granitemoe_swa\", \"hidden_size\": 1024, \"num_hidden_layers\": 4,"
        " \"num_attention_heads\": 8, \"num_key_value_heads\": 4, \"intermediate_size\": 512,"
        " \"num_local_experts\": 8, \"num_experts_per_tok\": 2, \"shared_intermediate_size\": 256,"
        " \"vocab_size\": 1000}");
    const struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.total, 68150304ULL);
    assert_int_equal(c.active, 29377568ULL);
    assert_int_equal(gs_arch_moe_layers(&a), 4);
    assert_true(a.attention_no_sdpa && a.eager_sink_lse);
    const struct gs_kv_layout k = fixture_layout(&a, 1);
    assert_int_equal(k.full_layers, 1);
    assert_int_equal(k.window_layers, 3);
    assert_int_equal(k.full_token_bytes, 2048);
    /* GraniteMoeShared (and GraniteMoe without shared_intermediate_size): the same modules but
     * the sinks (8 x 4 = 32 fewer), full attention on every layer, SDPA; the generic reader had
     * missed shared_mlp (4 x 786,432) */
    const struct gs_arch shared = fixture_arch(
        "{\"model_type\": \"granitemoeshared\", \"hidden_size\": 1024, \"num_hidden_layers\": 4,"
        " \"num_attention_heads\": 8, \"num_key_value_heads\": 4, \"intermediate_size\": 512,"
        " \"num_local_experts\": 8, \"num_experts_per_tok\": 2, \"shared_intermediate_size\": 256,"
        " \"vocab_size\": 1000}");
    assert_int_equal(fixture_count(&shared).total, 68150304ULL - 32);
    assert_false(shared.attention_no_sdpa);
    assert_int_equal(fixture_layout(&shared, 1).window_layers, 0);
    const struct gs_arch plain = fixture_arch(
        "{\"model_type\": \"granitemoe\", \"hidden_size\": 1024, \"num_hidden_layers\": 4,"
        " \"num_attention_heads\": 8, \"num_key_value_heads\": 4, \"intermediate_size\": 512,"
        " \"num_local_experts\": 8, \"num_experts_per_tok\": 2, \"vocab_size\": 1000}");
    assert_int_equal(fixture_count(&plain).total, 68150304ULL - 32 - 4 * 786432);
    fixture_assert_reader_error("{\"model_type\": \"granitemoe_swa\", \"hidden_size\": 64,"
                                " \"num_hidden_layers\": 2, \"num_attention_heads\": 4,"
                                " \"intermediate_size\": 64, \"vocab_size\": 100,"
                                " \"num_experts_per_tok\": 9}",
                                "/num_experts_per_tok");
}

/* ernie4_5 and ernie4_5_moe READMEs. 0.3B: h 1024, 18 layers, 16 heads, 2 KV heads x 128,
 * MLP 3072, tied V 103424: 18 x 14,157,824 + 103424 x 1024 + 1024 = 360,748,032 (card
 * 0.36B); KV 18 x 2 x 256 x 2 = 18,432, TP 4 one replicated KV head a GPU: 9,216.
 * 21B-A3B: h 2560, 28 layers of 20 heads, 4 KV heads; layer 0 dense (12288), layers 1-27
 * route to 64 experts of 1536 (top 6) with 2 shared (one 3072 MLP) behind a router with its
 * e_score_correction_bias parameter (64): 28 x 15,728,640 + 94,371,840 + 27 x 778,731,584 +
 * 28 x 5120 + 2560 + 103424 x 2560 tied = 21,825,437,888 (card 21B, HF 21.8B); active 6 of
 * 64 experts: 3,352,150,208 (card A3B). 300B-A47B: h 8192, 54 layers of 64 heads, 8 KV
 * heads, layers 0-2 dense (28672), 3-53 route to 64 experts of 3584 (top 8), no shared
 * expert, untied: 299,484,163,264 / 47,079,337,152 (card 300B / A47B). */
static void test_ernie4_5(void **state)
{
    (void)state;
    const struct inline_case cases[] = {
        {"{\"architectures\": [\"Ernie4_5ForCausalLM\"], \"model_type\": \"ernie4_5\", "
         "\"hidden_size\": 1024, \"intermediate_size\": 3072, \"num_hidden_layers\": 18, "
         "\"num_attention_heads\": 16, \"num_key_value_heads\": 2, \"head_dim\": 128, "
         "\"vocab_size\": 103424, \"use_bias\": false, \"max_position_embeddings\": 131072, "
         "\"tie_word_embeddings\": true}",
         360748032ULL, 360748032ULL, 18432, 9216, 18, 0},
        {"{\"architectures\": [\"Ernie4_5_MoeForCausalLM\"], \"model_type\": \"ernie4_5_moe\", "
         "\"hidden_size\": 2560, \"intermediate_size\": 12288, \"num_hidden_layers\": 28, "
         "\"num_attention_heads\": 20, \"num_key_value_heads\": 4, \"vocab_size\": 103424, "
         "\"moe_num_experts\": 64, \"moe_k\": 6, \"moe_intermediate_size\": 1536, "
         "\"moe_num_shared_experts\": 2, \"moe_layer_start_index\": 1, \"moe_layer_end_index\": "
         "27, \"moe_layer_interval\": 1, \"use_bias\": false, \"tie_word_embeddings\": true, "
         "\"max_position_embeddings\": 131072}",
         21825437888ULL, 3352150208ULL, 57344, 14336, 28, 0},
        {"{\"architectures\": [\"Ernie4_5_MoeForCausalLM\"], \"model_type\": \"ernie4_5_moe\", "
         "\"hidden_size\": 8192, \"intermediate_size\": 28672, \"num_hidden_layers\": 54, "
         "\"num_attention_heads\": 64, \"num_key_value_heads\": 8, \"vocab_size\": 103424, "
         "\"moe_num_experts\": 64, \"moe_k\": 8, \"moe_intermediate_size\": 3584, "
         "\"moe_num_shared_experts\": 0, \"moe_layer_start_index\": 3, \"moe_layer_end_index\": "
         "53, \"moe_layer_interval\": 1, \"use_bias\": false, \"tie_word_embeddings\": false, "
         "\"num_nextn_predict_layers\": 1, \"max_position_embeddings\": 131072}",
         299484163264ULL, 47079337152ULL, 221184, 55296, 54, 0},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
        check_inline(&cases[i]);
    /* the 21B's experts: 27 layers x (64 x 3 x 2560 x 1536 + router 64 x 2560 + its bias 64) */
    const struct gs_arch a = fixture_arch("%s", cases[1].json);
    assert_int_equal(fixture_count(&a).experts, 27ULL * (754974720 + 163840 + 64));
    assert_int_equal(gs_arch_moe_layers(&a), 27);
    /* moe_layer_end_index -1 (or null) means the last layer; every 2nd layer with interval 2 */
    const struct gs_arch b = fixture_arch(
        "{\"model_type\": \"ernie4_5_moe\", \"hidden_size\": 64, \"intermediate_size\": 96,"
        " \"num_hidden_layers\": 6, \"num_attention_heads\": 4, \"num_key_value_heads\": 2,"
        " \"vocab_size\": 100, \"moe_num_experts\": 4, \"moe_k\": 2, \"moe_intermediate_size\": 32,"
        " \"moe_layer_start_index\": 0, \"moe_layer_end_index\": -1, \"moe_layer_interval\": 2}");
    assert_int_equal(gs_arch_moe_layers(&b), 3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dense_decoders),
        cmocka_unit_test(test_moe_decoders),
        cmocka_unit_test(test_deepseek_v32_mtp_and_indexer),
        cmocka_unit_test(test_glm4_moe_lite_checkpoint),
        cmocka_unit_test(test_longcat_flash),
        cmocka_unit_test(test_gpt_bigcode),
        cmocka_unit_test(test_gptj_codegen_mpt),
        cmocka_unit_test(test_cohere2_moe),
        cmocka_unit_test(test_nanochat),
        cmocka_unit_test(test_internlm3),
        cmocka_unit_test(test_hrm_text),
        cmocka_unit_test(test_axk2),
        cmocka_unit_test(test_mimo),
        cmocka_unit_test(test_persimmon),
        cmocka_unit_test(test_nemotron),
        cmocka_unit_test(test_minicpm3),
        cmocka_unit_test(test_glm_dense),
        cmocka_unit_test(test_bare_routers),
        cmocka_unit_test(test_correction_bias_buffers),
        cmocka_unit_test(test_youtu),
        cmocka_unit_test(test_axk1),
        cmocka_unit_test(test_checkpoint_formats),
        cmocka_unit_test(test_read_by_architecture),
        cmocka_unit_test(test_nonstandard_literals),
        cmocka_unit_test(test_every_fixture_estimates),
        cmocka_unit_test(test_gemma3_local_global),
        cmocka_unit_test(test_rope_tables),
        cmocka_unit_test(test_rotary_partial),
        cmocka_unit_test(test_olmo3),
        cmocka_unit_test(test_apertus),
        cmocka_unit_test(test_starcoder2),
        cmocka_unit_test(test_jais2),
        cmocka_unit_test(test_hyperclovax),
        cmocka_unit_test(test_granite_swa),
        cmocka_unit_test(test_granitemoe_swa),
        cmocka_unit_test(test_ernie4_5),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
