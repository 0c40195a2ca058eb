/*
 * test_models_qwen.c - the readers of server/readers/qwen.c (Qwen3-VL,
 * Qwen3-VL-MoE, Qwen3.5, Qwen3.5-MoE, Qwen3-Omni) against the published configs in
 * tests/fixtures/configs/<model_type>/ and the module-by-module arithmetic
 * in each fixture's README.md: exact parameter totals, the vision, audio and
 * MTP components, active parameters, layer kinds, KV cache bytes per token and
 * recurrent state bytes per sequence (bf16 model dtype) at tensor
 * parallelism 1 and above, and that a serving estimate runs.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "arch_fixture.h"
#include "gs/activation.h"
#include "gs/estimate.h"
#include "gs/framework.h"
#include "gs/inference.h"
#include "gs/model_support.h"
#include "gs/perf.h"

#include <math.h>
#include <string.h>

/* ------------------------------------------------------------ helpers */

/* The vision tower: one bidirectional block of `depth` layers, no KV cache. */
static void assert_vision_tower(const struct gs_arch *a, uint64_t depth)
{
    bool found = false;
    for (size_t i = 0; i < a->tower_count; i++) {
        const struct gs_tower *t = &a->towers[i];
        if (t->part != GS_PART_VISION)
            continue;
        found = true;
        assert_int_equal(t->layers, depth);
        assert_false(t->encoder);
        assert_int_equal(a->blocks[t->block].mixer, GS_MIXER_ATTENTION);
        assert_false(a->blocks[t->block].attn.cached);
    }
    assert_true(found);
}

/* ------------------------------------------------------------ Qwen3-VL */

/* qwen3_vl/README.md. Vision tower (24 or 27 blocks, 3 DeepStack mergers)
 * + Qwen3 text; 2B and 4B are tied (active = text), 8B and 32B untied
 * (active = text - V x h). KV: 2 x kv_heads x 128 x 2 B per layer. */
static void test_qwen3_vl_2b(void **state)
{
    (void)state;
    const struct gs_arch a = fixture_arch_file("qwen3_vl/Qwen__Qwen3-VL-2B-Instruct.json");
    const struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.total, 2127532032ULL);
    assert_int_equal(c.vision, 406957056ULL);
    assert_int_equal(c.active, 1720574976ULL);
    assert_int_equal(c.lm_head, 0);
    assert_int_equal(c.mtp, 0);
    assert_int_equal(c.attention, 28ULL * 12583168);
    fixture_assert_kinds(&a, (struct fixture_kinds){.attention = 28, .recurrent = 0, .moe = 0});
    assert_vision_tower(&a, 24);
    fixture_assert_cache(&a, 1, 114688, 0);
    fixture_assert_cache(&a, 2, 57344, 0);
    fixture_assert_vllm_serving(&a, 8, 1, 80000000000ULL);
}

static void test_qwen3_vl_dense_sizes(void **state)
{
    (void)state;
    struct gs_arch a = fixture_arch_file("qwen3_vl/Qwen__Qwen3-VL-4B-Instruct.json");
    struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.total, 4437815808ULL);
    assert_int_equal(c.vision, 415347712ULL);
    assert_int_equal(c.active, 4022468096ULL);
    fixture_assert_cache(&a, 1, 147456, 0);
    fixture_assert_cache(&a, 4, 36864, 0);

    a = fixture_arch_file("qwen3_vl/Qwen__Qwen3-VL-8B-Instruct.json");
    c = fixture_count(&a);
    assert_int_equal(c.total, 8767123696ULL);
    assert_int_equal(c.vision, 576388336ULL);
    assert_int_equal(c.active, 7568405504ULL);
    assert_int_equal(c.lm_head, 151936ULL * 4096);
    assert_vision_tower(&a, 27);
    fixture_assert_cache(&a, 1, 147456, 0);
    fixture_assert_cache(&a, 2, 73728, 0);
    fixture_assert_vllm_serving(&a, 4, 1, 80000000000ULL);

    a = fixture_arch_file("qwen3_vl/Qwen__Qwen3-VL-32B-Instruct.json");
    c = fixture_count(&a);
    assert_int_equal(c.total, 33357390064ULL);
    assert_int_equal(c.vision, 595266800ULL);
    assert_int_equal(c.active, 31984210944ULL);
    fixture_assert_kinds(&a, (struct fixture_kinds){.attention = 64, .recurrent = 0, .moe = 0});
    fixture_assert_cache(&a, 1, 262144, 0);
    fixture_assert_cache(&a, 4, 65536, 0);
}

/* cosmos3/README.md: Cosmos 3's reasoner is Qwen3-VL (Qwen3-VL-8B's shapes in Nano), under
 * model_type cosmos3_omni or its new name cosmos3; Edge's models under it are Edge's
 * (test_cosmos3_edge: 2,435,616,496). */
static void test_cosmos3(void **state)
{
    (void)state;
    struct gs_arch a = fixture_arch_file("cosmos3/Cosmos3-Nano-Reasoner.json");
    struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.total, 8767123696ULL);
    assert_int_equal(c.vision, 576388336ULL);
    assert_vision_tower(&a, 27);
    fixture_assert_cache(&a, 1, 147456, 0);
    a = fixture_arch_file_set_in("cosmos3/Cosmos3-Nano-Reasoner.json", NULL, "model_type",
                                 "\"cosmos3\"");
    assert_int_equal(fixture_count(&a).total, 8767123696ULL);
    a = fixture_arch("{\"model_type\": \"cosmos3_omni\", \"text_config\":"
                     " {\"model_type\": \"cosmos3_edge_text\"}}");
    assert_int_equal(fixture_count(&a).total, 2435616496ULL);
    a = fixture_arch("{\"model_type\": \"cosmos3\", \"projector_config\": {}}");
    assert_int_equal(fixture_count(&a).total, 2435616496ULL);
}

/* qwen3_vl_moe/README.md: every layer routes (decoder_sparse_step 1, no
 * mlp_only_layers); 30B-A3B = 31,070,754,032, active 3,041,867,776;
 * 235B-A22B = 235,670,022,896, active 21,568,433,664. */
static void test_qwen3_vl_moe(void **state)
{
    (void)state;
    struct gs_arch a = fixture_arch_file("qwen3_vl_moe/Qwen__Qwen3-VL-30B-A3B-Instruct.json");
    struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.total, 31070754032ULL);
    assert_int_equal(c.vision, 538631408ULL);
    assert_int_equal(c.active, 3041867776ULL);
    assert_int_equal(c.experts, 48ULL * (2048ULL * 128 + 128ULL * 3 * 2048 * 768));
    assert_int_equal(c.mlp, 0);
    fixture_assert_kinds(&a, (struct fixture_kinds){.attention = 48, .recurrent = 0, .moe = 48});
    assert_vision_tower(&a, 27);
    fixture_assert_cache(&a, 1, 98304, 0);
    fixture_assert_cache(&a, 2, 49152, 0);
    fixture_assert_cache(&a, 4, 24576, 0);
    fixture_assert_vllm_serving(&a, 4, 1, 80000000000ULL);

    a = fixture_arch_file("qwen3_vl_moe/Qwen__Qwen3-VL-235B-A22B-Instruct.json");
    c = fixture_count(&a);
    assert_int_equal(c.total, 235670022896ULL);
    assert_int_equal(c.vision, 576388336ULL);
    assert_int_equal(c.active, 21568433664ULL);
    fixture_assert_kinds(&a, (struct fixture_kinds){.attention = 94, .recurrent = 0, .moe = 94});
    fixture_assert_cache(&a, 1, 192512, 0);
    fixture_assert_cache(&a, 4, 48128, 0);
}

/* ------------------------------------------------------------- Qwen3.5 */

/* qwen3_5/README.md (Qwen3.5-27B): 48 Gated DeltaNet layers of 115,876,064
 * and 16 gated-attention layers of 104,858,112, each with a 267,386,880 MLP
 * and 2 norms; V x h embedding and head; vision 460,730,096 (27 blocks, no
 * DeepStack): 27,356,728,560. MTP (one full-attention layer, fc, 3 norms)
 * 424,699,392 apart. KV 16 x 2 x 4 x 256 x 2 = 65,536 B/token (t=2 32,768,
 * t=4 16,384). State: mamba_ssm_dtype float32, so per layer a bf16 conv
 * window 3 x 10,240 x 2 = 61,440 and an fp32 state 48 x 128 x 128 x 4 =
 * 3,145,728: x 48 = 153,944,064; t=2 76,972,032. */
static void test_qwen3_5_27b(void **state)
{
    (void)state;
    const struct gs_arch a = fixture_arch_file("qwen3_5/Qwen__Qwen3.5-27B.json");
    const struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.total, 27356728560ULL);
    assert_int_equal(c.vision, 460730096ULL);
    assert_int_equal(c.mtp, 424699392ULL);
    assert_int_equal(c.active, 25624600064ULL);
    assert_int_equal(c.attention, 48ULL * 115876064 + 16ULL * 104858112);
    assert_int_equal(c.mlp, 64ULL * 267386880);
    fixture_assert_kinds(&a, (struct fixture_kinds){.attention = 16, .recurrent = 48, .moe = 0});
    const struct gs_recurrent *r = &a.blocks[a.layer_block[0]].rec;
    assert_int_equal(r->conv_channels, 10240);
    assert_int_equal(r->state_heads, 48);
    assert_true(r->fp32_state);
    assert_int_equal(a.blocks[a.layer_block[3]].mixer, GS_MIXER_ATTENTION);
    assert_vision_tower(&a, 27);
    fixture_assert_cache(&a, 1, 65536, 153944064ULL);
    fixture_assert_cache(&a, 2, 32768, 76972032ULL);
    fixture_assert_cache(&a, 4, 16384, 38486016ULL);
    fixture_assert_vllm_serving(&a, 4, 1, 80000000000ULL);
}

/* qwen3_5/README.md (Qwen3.5-0.8B, tied): 18 GDN layers (v_heads 16) and 6
 * attention layers: text 752,393,024 + vision 100,592,896 (12 blocks of 768) =
 * 852,985,920; with the MTP layer 20,452,864 the Hub's 873,438,784. Tied, so
 * active = text. KV 6 x 2 x 2 x 256 x 2 = 12,288 (t=2 6,144); state (3 x 6,144
 * x 2 + 16 x 128 x 128 x 4) x 18 = 19,537,920 (t=2 9,768,960). */
static void test_qwen3_5_0_8b(void **state)
{
    (void)state;
    const struct gs_arch a = fixture_arch_file("qwen3_5/Qwen__Qwen3.5-0.8B.json");
    const struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.total, 852985920ULL);
    assert_int_equal(c.vision, 100592896ULL);
    assert_int_equal(c.mtp, 20452864ULL);
    assert_int_equal(c.active, 752393024ULL);
    assert_int_equal(c.lm_head, 0);
    fixture_assert_kinds(&a, (struct fixture_kinds){.attention = 6, .recurrent = 18, .moe = 0});
    assert_vision_tower(&a, 12);
    fixture_assert_cache(&a, 1, 12288, 19537920ULL);
    fixture_assert_cache(&a, 2, 6144, 9768960ULL);
    fixture_assert_vllm_serving(&a, 16, 1, 24000000000ULL);
}

/* qwen3_asr/README.md: Qwen3-ASR-0.6B, 782,426,112 in Qwen's layout; the same model in
 * transformers 5's flat layout (the -hf checkpoints: the tower's heads as num_attention_heads,
 * tied by Qwen3ASRConfig's default); Qwen3-ForcedAligner refused. */
static void test_qwen3_asr(void **state)
{
    (void)state;
    struct gs_arch a = fixture_arch_file("qwen3_asr/Qwen__Qwen3-ASR-0.6B.json");
    struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.total, 782426112ULL);
    assert_int_equal(c.audio, 184653952ULL + 803712 + 918528);
    assert_int_equal(c.lm_head, 0);
    fixture_assert_cache(&a, 1, 114688, 0);
    assert_true(a.rope_mrope);
    a = fixture_arch("{\"model_type\": \"qwen3_asr\", \"audio_config\": {\"d_model\": 896,"
                     " \"encoder_layers\": 18, \"num_attention_heads\": 14,"
                     " \"encoder_ffn_dim\": 3584, \"output_dim\": 1024}, \"text_config\":"
                     " {\"vocab_size\": 151936, \"hidden_size\": 1024, \"intermediate_size\": 3072,"
                     " \"num_hidden_layers\": 28, \"num_attention_heads\": 16,"
                     " \"num_key_value_heads\": 8, \"head_dim\": 128}}");
    assert_int_equal(fixture_count(&a).total, 782426112ULL);
    /* Qwen3ASREncoderConfig's defaults (1,024 wide, 24 layers, 16 heads, ffn 4,096): the tower
     * 314,328,704 (qwen3_asr/README.md's formulas), projector 1,024^2 + 1,024 and 1,024 x 1,024 +
     * 1,024 */
    a = fixture_arch(
        "{\"model_type\": \"qwen3_asr\", \"audio_config\": {\"output_dim\": 1024},"
        " \"text_config\": {\"vocab_size\": 151936, \"hidden_size\": 1024,"
        " \"intermediate_size\": 3072, \"num_hidden_layers\": 28,"
        " \"num_attention_heads\": 16, \"num_key_value_heads\": 8, \"head_dim\": 128}}");
    assert_int_equal(fixture_count(&a).audio, 314328704ULL + 2 * (1024ULL * 1024 + 1024));
    fixture_assert_reader_error(
        "{\"model_type\": \"qwen3_asr\", \"thinker_config\":"
        " {\"model_type\": \"qwen3_forced_aligner\", \"classify_num\": 5000}}",
        "/thinker_config/model_type");
    fixture_assert_reader_error("{\"model_type\": \"qwen3_asr\", \"thinker_config\": {}}",
                                "/thinker_config/text_config");
}

/* Qwen3_5ForCausalLM: the language model alone (model_type qwen3_5_text; MiniCPM-V 4.6's
 * text_config as a checkpoint of its own): Qwen3.5-0.8B's text shapes with a vocabulary of
 * 248,094, 752,393,024 - 226 x 1,024 = 752,161,600, its MTP layer 20,452,864 stored apart, and
 * its fp32 state as Qwen3.5's (test_qwen3_5_0_8b). */
static void test_qwen3_5_text(void **state)
{
    (void)state;
    static const char config[] =
        "{\"model_type\": \"qwen3_5_text\", \"hidden_size\": 1024, \"intermediate_size\": 3584,"
        " \"num_hidden_layers\": 24, \"num_attention_heads\": 8, \"num_key_value_heads\": 2,"
        " \"head_dim\": 256, \"linear_num_key_heads\": 16, \"linear_num_value_heads\": 16,"
        " \"vocab_size\": 248094, \"tie_word_embeddings\": true, \"mtp_num_hidden_layers\": 1,"
        " \"mamba_ssm_dtype\": \"float32\"}";
    const struct gs_arch a = fixture_arch(config);
    const struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.total, 752161600ULL);
    assert_int_equal(c.mtp, 20452864ULL);
    assert_int_equal(c.vision, 0);
    assert_true(a.rope_mrope);
    fixture_assert_cache(&a, 1, 12288, 19537920ULL);
}

/* NVIDIA's Qwen3.6-27B-NVFP4 keeps Qwen3.5-27B's architecture: the same
 * counts, and a quantization_config the reader records. */
static void test_qwen3_6_27b(void **state)
{
    (void)state;
    const struct gs_arch a = fixture_arch_file("qwen3_5/nvidia__Qwen3.6-27B-NVFP4.json");
    const struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.total, 27356728560ULL);
    assert_int_equal(c.mtp, 424699392ULL);
    fixture_assert_cache(&a, 1, 65536, 153944064ULL);
    assert_true(a.checkpoint.detail[0] != '\0');
}

/* qwen3_5_moe/README.md. 35B-A3B: 30 GDN (33,718,464) + 10 attention
 * (27,263,488) layers, MoE 808,978,432 each; + vision 446,571,248 =
 * 35,107,181,936; active 2,946,429,568; MTP 844,640,768. KV 10 x 2,048 =
 * 20,480 (t=2 10,240; t=4 replicates the 2 KV heads: 10,240). State
 * (49,152 + 32 x 128 x 128 x 4) x 30 = 64,389,120; t=2 32,194,560. */
static void test_qwen3_5_35b_a3b(void **state)
{
    (void)state;
    const struct gs_arch a = fixture_arch_file("qwen3_5_moe/Qwen__Qwen3.5-35B-A3B.json");
    const struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.total, 35107181936ULL);
    assert_int_equal(c.vision, 446571248ULL);
    assert_int_equal(c.active, 2946429568ULL);
    assert_int_equal(c.mtp, 844640768ULL);
    assert_int_equal(c.attention, 30ULL * 33718464 + 10ULL * 27263488);
    fixture_assert_kinds(&a, (struct fixture_kinds){.attention = 10, .recurrent = 30, .moe = 40});
    assert_vision_tower(&a, 27);
    fixture_assert_cache(&a, 1, 20480, 64389120ULL);
    fixture_assert_cache(&a, 2, 10240, 32194560ULL);
    fixture_assert_cache(&a, 4, 10240, 16097280ULL);
    fixture_assert_vllm_serving(&a, 4, 1, 80000000000ULL);

    const struct gs_arch q = fixture_arch_file("qwen3_5_moe/nvidia__Qwen3.6-35B-A3B-NVFP4.json");
    assert_int_equal(fixture_count(&q).total, 35107181936ULL);
    assert_int_equal(fixture_count(&q).mtp, 844640768ULL);
}

/* vLLM's hybrid pages, by hand from the configs (docs/serving-memory.md "vLLM's pages for
 * attention + recurrent models") and checked against two startup logs.
 *
 * Qwen3.6-35B-A3B (nvidia NVFP4 export, fp8 KV cache, one GPU): one attention layer's K and
 * V per token 2 x 2 heads x 256 x 1 B = 1,024 B; one GDN layer's state, in the model's bf16
 * whatever the KV cache's dtype, 3 x 8,192 x 2 + 32 x 128 x 128 x 4 (mamba_ssm_dtype
 * float32) = 2,146,304 B. Block 16 x ceil(2,146,304 / 16,384) = 2,096 tokens (vLLM logs
 * "Setting attention block size to 2096 tokens" for this model), page 2,096 x 1,024 =
 * 2,146,304 B, no padding. 10 attention and 30 GDN layers: groups of 10, one attention
 * group and three state groups, a block 10 pages = 21,463,040 B. With prefix caching
 * (mamba_cache_mode align) a sequence of 131,072 tokens takes ceil(131,072 / 2,096) = 63
 * attention blocks and 2 per state group: 69. The log (vLLM 0.24.0 on an RTX 5090, issue
 * noonghunna/club-3090#612) prints "Available KV cache memory: 5.98 GiB": 299 blocks,
 * concurrency 299 / 69 = 4.33 ("4.33x") and int(4.333 x 131,072) = 567,978 tokens - the
 * line "GPU KV cache size: 567,978 tokens" to the token.
 *
 * Qwen3.5-27B / Qwen3.6-27B (bf16, 16 attention and 48 GDN layers): 4,096 B per token and
 * layer, state 3 x 10,240 x 2 + 48 x 128 x 128 x 4 = 3,207,168 B; block 16 x ceil(3,207,168
 * / 65,536) = 784 ("Setting attention block size to 784 tokens", and "Padding mamba page
 * size by 0.13%": 784 x 4,096 = 3,211,264). Groups of 16: 1 + 3. vLLM 0.19.0 on an H20
 * (issue vllm-project/vllm#40691, max_model_len 32,768, no prefix caching) prints 290,864
 * tokens and 33.04x: 1,487 blocks, 1,487 // 4 x 784 = 290,864 and 1,487 / (42 + 3) =
 * 33.04; from 0.21 the same pool prints int(33.04 x 32,768) = 1,082,800. */
static void test_qwen3_5_vllm_pages(void **state)
{
    (void)state;
    const struct gs_arch a = fixture_arch_file("qwen3_5_moe/nvidia__Qwen3.6-35B-A3B-NVFP4.json");
    struct gs_workload w = fixture_vllm_workload(1, 131072, 1, 141000000000ULL);
    w.serving.kv_dtype = GS_KV_FP8;
    w.serving.engine.version = 2400;
    w.serving.engine.max_num_seqs = 1;
    w.serving.engine.max_num_batched_tokens = 8192;
    w.serving.engine.prefix_caching = GS_CHUNKED_PREFILL_ON;
    w.serving.engine.has_kv_cache_memory_bytes = true;
    w.serving.engine.kv_cache_memory_bytes = 6420976107ULL; /* 5.98 GiB */
    struct gs_estimate e = fixture_estimate(&a, &w);
    const struct gs_inference_result *r = &e.serving;
    assert_int_equal(r->block_size, 2096);
    assert_int_equal(r->pages.page_bytes, 2146304);
    assert_int_equal(r->pages.state_page_bytes, 2146304);
    assert_int_equal(r->pages.group_layers, 10);
    assert_int_equal(r->pages.full_groups, 1);
    assert_int_equal(r->pages.state_groups, 3);
    assert_int_equal(r->pages.state_cache, GS_STATE_CACHE_ALIGN);
    assert_string_equal(gs_state_cache_name(r->pages.state_cache), "align");
    assert_string_equal(gs_state_cache_name(GS_STATE_CACHE_COUNT), "");
    assert_int_equal(r->pages.state_blocks, 2);
    assert_int_equal(r->blocks, 299);
    assert_int_equal(r->max_concurrency, 4);
    assert_int_equal(r->reported_tokens, 567978);
    assert_int_equal(r->kv_needed_bytes, 69ULL * 21463040);
    /* without prefix caching one block per state group: 66 a sequence */
    w.serving.engine.prefix_caching = GS_CHUNKED_PREFILL_DEFAULT;
    e = fixture_estimate(&a, &w);
    assert_int_equal(e.serving.pages.state_blocks, 1);
    assert_int_equal(e.serving.kv_needed_bytes, 66ULL * 21463040);
    assert_int_equal(e.serving.reported_tokens, 299ULL * 131072 / 66);

    const struct gs_arch b = fixture_arch_file("qwen3_5/Qwen__Qwen3.5-27B.json");
    w = fixture_vllm_workload(1, 32768, 1, 141000000000ULL);
    w.serving.engine.version = 1900;
    w.serving.engine.max_num_seqs = 16;
    w.serving.engine.max_num_batched_tokens = 16384;
    w.serving.engine.has_kv_cache_memory_bytes = true;
    w.serving.engine.kv_cache_memory_bytes = 1487ULL * 16 * 784 * 4096;
    e = fixture_estimate(&b, &w);
    assert_int_equal(e.serving.block_size, 784);
    assert_int_equal(e.serving.pages.page_bytes, 3211264);
    assert_int_equal(e.serving.pages.state_page_bytes, 3207168);
    assert_int_equal(e.serving.pages.group_layers, 16);
    assert_int_equal(e.serving.blocks, 1487);
    assert_int_equal(e.serving.max_tokens, 290864);
    assert_int_equal(e.serving.reported_tokens, 290864);
    assert_int_equal(e.serving.max_concurrency, 33);
    w.serving.engine.version = 2100;
    e = fixture_estimate(&b, &w);
    assert_int_equal(e.serving.max_tokens, 290864);
    assert_int_equal(e.serving.reported_tokens, 1082800);
    /* before 0.10 hybrid models ran on V0 (PR #20016 brought them to V1): the plain layout */
    w.serving.engine.version = 902;
    e = fixture_estimate(&b, &w);
    assert_int_equal(e.serving.pages.page_bytes, 0);
    assert_int_equal(e.serving.block_size, 16);
}

/* 122B-A10B: 122,562,817,776 (vision 451,290,864), active 9,008,449,536,
 * MTP 2,523,679,232; KV 12 x 2,048 = 24,576; state (3 x 12,288 x 2 +
 * 64 x 128 x 128 x 4) x 36 = 153,649,152. 397B-A17B: 396,802,360,816
 * (vision 456,010,480), active 16,331,922,176, MTP 6,595,568,128; KV 15 x
 * 2,048 = 30,720; state x 45 = 192,061,440. */
static void test_qwen3_5_moe_large(void **state)
{
    (void)state;
    struct gs_arch a = fixture_arch_file("qwen3_5_moe/Qwen__Qwen3.5-122B-A10B.json");
    struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.total, 122562817776ULL);
    assert_int_equal(c.vision, 451290864ULL);
    assert_int_equal(c.active, 9008449536ULL);
    assert_int_equal(c.mtp, 2523679232ULL);
    fixture_assert_kinds(&a, (struct fixture_kinds){.attention = 12, .recurrent = 36, .moe = 48});
    fixture_assert_cache(&a, 1, 24576, 153649152ULL);
    fixture_assert_cache(&a, 2, 12288, 76824576ULL);

    a = fixture_arch_file("qwen3_5_moe/Qwen__Qwen3.5-397B-A17B.json");
    c = fixture_count(&a);
    assert_int_equal(c.total, 396802360816ULL);
    assert_int_equal(c.vision, 456010480ULL);
    assert_int_equal(c.active, 16331922176ULL);
    assert_int_equal(c.mtp, 6595568128ULL);
    fixture_assert_kinds(&a, (struct fixture_kinds){.attention = 15, .recurrent = 45, .moe = 60});
    fixture_assert_cache(&a, 1, 30720, 192061440ULL);
    fixture_assert_cache(&a, 4, 15360, 48015360ULL);
    fixture_assert_vllm_serving(&a, 2, 1, 1000000000000ULL);
}

/* qwen3_5_moe/README.md, Qwen3.8-2.4T-A95B-FP8 (text only, qwen3_5_moe_text): 69 Gated DeltaNet
 * and 23 full-attention layers, 512 experts top 10: 2,419,804,697,984, active 93,253,629,312,
 * MTP 26,378,027,520 apart. KV 23 x 2 x 4 x 256 x 2 = 94,208 B a token; state a sequence
 * (3 x 20,480 x 2 + 128 x 128 x 128 x 4) x 69 = 587,292,672; TP 4: 23,552 and 146,823,168. Its
 * quantization_config keeps everything but the routed experts in bf16. */
static void test_qwen3_8_max(void **state)
{
    (void)state;
    const struct gs_arch a = fixture_arch_file("qwen3_5_moe/Qwen__Qwen3.8-2.4T-A95B-FP8.json");
    const struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.total, 2419804697984ULL);
    assert_int_equal(c.vision, 0);
    assert_int_equal(c.active, 93253629312ULL);
    assert_int_equal(c.mtp, 26378027520ULL);
    assert_int_equal(c.experts, 92ULL * (512ULL * 3 * 8192 * 2048 + 8192 * 512));
    fixture_assert_kinds(&a, (struct fixture_kinds){.attention = 23, .recurrent = 69, .moe = 92});
    fixture_assert_cache(&a, 1, 94208, 587292672ULL);
    fixture_assert_cache(&a, 4, 23552, 146823168ULL);
}

/* qwen3_omni_moe/README.md (Qwen3-Omni-30B-A3B-Instruct): thinker text
 * 30,532,646,912 (48 Qwen3-MoE layers, vocab 152,064) + vision 538,631,408 +
 * audio encoder 647,927,168 + talker 3,324,596,480 (20 MoE layers with a
 * shared expert, projections, codec head, and the 5-layer code predictor with
 * 15 embeddings and heads) + code2wav 216,016,577 = 35,259,818,545, the
 * checkpoint's tensor total. The speech parts count under audio; active is
 * the thinker's: 48 x (18,874,624 + 262,144 + 8 x 4,718,592 + 4,096) +
 * lm_head 311,427,072 + norm 2,048 = 3,042,129,920. KV is the thinker's: 48 x
 * 2 x 4 x 128 x 2 = 98,304 B/token (t=2 49,152; t=4 24,576). Without
 * enable_audio_output only the thinker is built. */
static void test_qwen3_omni_moe(void **state)
{
    (void)state;
    struct gs_arch a =
        fixture_arch_file("qwen3_omni_moe/Qwen__Qwen3-Omni-30B-A3B-Instruct.reduced.json");
    struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.total, 35259818545ULL);
    assert_int_equal(c.vision, 538631408ULL);
    assert_int_equal(c.audio, 647927168ULL + 3324596480ULL + 216016577ULL);
    assert_int_equal(c.active, 3042129920ULL);
    assert_int_equal(c.mtp, 0);
    assert_int_equal(a.tower_count, 5);
    fixture_assert_kinds(&a, (struct fixture_kinds){.attention = 48, .recurrent = 0, .moe = 48});
    fixture_assert_cache(&a, 1, 98304, 0);
    fixture_assert_cache(&a, 2, 49152, 0);
    fixture_assert_cache(&a, 4, 24576, 0);
    fixture_assert_vllm_serving(&a, 4, 1, 141000000000ULL);

    a = fixture_arch("{\"model_type\": \"qwen3_omni_moe\", \"enable_audio_output\": false,"
                     " \"thinker_config\": {\"text_config\": {\"hidden_size\": 2048,"
                     " \"vocab_size\": 152064, \"num_hidden_layers\": 48,"
                     " \"num_attention_heads\": 32, \"num_key_value_heads\": 4, \"head_dim\": 128,"
                     " \"moe_intermediate_size\": 768, \"num_experts\": 128,"
                     " \"num_experts_per_tok\": 8}, \"vision_config\": {\"out_hidden_size\": 2048},"
                     " \"audio_config\": {\"output_dim\": 2048}}}");
    c = fixture_count(&a);
    assert_int_equal(c.total, 30532646912ULL + 538631408ULL + 647927168ULL);
    assert_int_equal(a.tower_count, 2);
}

/* Errors point into the nested config that holds the bad field. */
static void test_qwen_errors(void **state)
{
    (void)state;
    fixture_assert_reader_error(
        "{\"model_type\": \"qwen3_5\", \"text_config\": {\"hidden_size\": 1024,"
        " \"vocab_size\": 1000, \"num_hidden_layers\": 2, \"num_attention_heads\": 8,"
        " \"intermediate_size\": 2048, \"layer_types\": [\"linear_attention\", \"mamba\"]}}",
        "/text_config/layer_types");
    fixture_assert_reader_error(
        "{\"model_type\": \"qwen3_5_moe\", \"text_config\": {\"hidden_size\": 1024,"
        " \"vocab_size\": 1000, \"num_hidden_layers\": 2, \"num_attention_heads\": 8,"
        " \"num_experts\": 8, \"moe_intermediate_size\": 64}}",
        "/text_config/num_experts_per_tok");
    fixture_assert_reader_error(
        "{\"model_type\": \"qwen3_vl\", \"text_config\": {\"hidden_size\": 1024,"
        " \"vocab_size\": 1000, \"num_hidden_layers\": 2, \"num_attention_heads\": 8,"
        " \"intermediate_size\": 2048}, \"vision_config\": {\"hidden_size\": 100,"
        " \"num_heads\": 16}}",
        "/vision_config/num_heads");
    fixture_assert_reader_error("{\"model_type\": \"qwen3_vl_moe\", \"text_config\": 7}",
                                "/text_config");
    fixture_assert_reader_error("{\"model_type\": \"qwen3_omni_moe\"}", "/thinker_config");
    fixture_assert_reader_error(
        "{\"model_type\": \"qwen3_omni_moe\", \"thinker_config\": {\"text_config\":"
        " {\"hidden_size\": 64, \"vocab_size\": 10, \"num_hidden_layers\": 1,"
        " \"num_attention_heads\": 4, \"moe_intermediate_size\": 8, \"num_experts\": 2,"
        " \"num_experts_per_tok\": 1}, \"audio_config\": {\"d_model\": 100,"
        " \"encoder_attention_heads\": 16}}}",
        "/thinker_config/audio_config/encoder_attention_heads");
    fixture_assert_reader_error(
        "{\"model_type\": \"qwen3_omni_moe\", \"thinker_config\": {\"text_config\":"
        " {\"hidden_size\": 64, \"vocab_size\": 10, \"num_hidden_layers\": 1,"
        " \"num_attention_heads\": 4, \"moe_intermediate_size\": 8, \"num_experts\": 2,"
        " \"num_experts_per_tok\": 1}, \"audio_config\": {}}, \"talker_config\": {}}",
        "/talker_config/text_config");
}

/* A config without vision_config gets Qwen3VLVisionConfig's defaults (27
 * blocks of 1152, out_hidden_size 3584, three DeepStack mergers): blocks
 * 27 x 15,239,504, patch_embed 3 x 2 x 16 x 16 x 1152 + 1152 = 1,770,624,
 * pos_embed 2304 x 1152 = 2,654,208, merger norm 2,304 + fc1 4608^2 + 4608
 * = 21,238,272 + fc2 4608 x 3584 + 3584 = 16,518,656, and three DeepStack
 * mergers of norm 9,216 + the same fc1 and fc2. */
static void test_qwen3_vl_default_vision(void **state)
{
    (void)state;
    const struct gs_arch a = fixture_arch(
        "{\"model_type\": \"qwen3_vl\", \"tie_word_embeddings\": true, \"text_config\":"
        " {\"hidden_size\": 1024, \"vocab_size\": 1000, \"num_hidden_layers\": 2,"
        " \"num_attention_heads\": 8, \"head_dim\": 128, \"intermediate_size\": 2048}}");
    const struct gs_param_count c = fixture_count(&a);
    const uint64_t merger = 21238272ULL + 16518656ULL;
    assert_int_equal(c.vision, 27ULL * 15239504 + 1770624 + 2654208 + 2304 + merger +
                                   3ULL * (9216 + merger));
    assert_int_equal(c.lm_head, 0);
}

/* Which tie_word_embeddings wins when the composite config and its text_config disagree: the
 * top-level one, as transformers 5 ties by the model's own config - a Qwen3-VL-8B saved by
 * transformers 5 writes text_config.tie_word_embeddings true (the base default) beside the
 * untied top-level false, and stores lm_head.weight (a published inventory of Qwen3-VL-235B as
 * loaded: lm_head [151,936, 4,096]). The text_config's value counts where the top level has
 * none; the same for Qwen3.5. */
static void test_vl_tie_flags(void **state)
{
    (void)state;
    static const char *const files[] = {"qwen3_vl/Qwen__Qwen3-VL-8B-Instruct.json",
                                        "qwen3_5/Qwen__Qwen3.5-27B.json"};
    for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
        const struct gs_arch raw = fixture_arch_file(files[i]);
        const uint64_t head = fixture_count(&raw).lm_head;
        assert_true(head > 0);
        struct gs_arch a =
            fixture_arch_file_set_in(files[i], "text_config", "tie_word_embeddings", "true");
        assert_int_equal(fixture_count(&a).lm_head, head);
        /* without the top-level flag the class default (untied) stands */
        a = fixture_arch_file_set_in(files[i], NULL, "tie_word_embeddings", NULL);
        assert_int_equal(fixture_count(&a).lm_head, head);
    }
    /* no top-level flag: the text config's decides */
    const struct gs_arch lifted = fixture_arch(
        "{\"model_type\": \"qwen3_vl\", \"text_config\": {\"hidden_size\": 1024,"
        " \"vocab_size\": 1000, \"num_hidden_layers\": 2, \"num_attention_heads\": 8,"
        " \"head_dim\": 128, \"intermediate_size\": 2048, \"tie_word_embeddings\": true}}");
    assert_int_equal(fixture_count(&lifted).lm_head, 0);
}

/* ------------------------------------------------- Qwen3.8-Flash-Next */

#define FLASH_NEXT "qwen4_exp/config.json"

/* qwen4_exp/README.md, module by module: the embedding and the PLE layer's n-gram table
 * (16 heads of 160, 320,001,536 rows), 36 Gated DeltaNet layers of 57,958,624 and 12 QSA
 * attention layers of 51,446,528 (the indexer's index_qk_proj 640 x 2,560 and two norms
 * among them), 48 routed layers (router and 512 experts 2,517,893,120, shared expert and its
 * gate 4,917,760), 96 gated residuals of 6,604,800, the final mixer 6,563,840 and the PLE's
 * projections, norms and convolution 32,839,680 (under `other`), the untied head, the vision
 * tower 448,931,056; the MTP layer 2,607,150,848. total + mtp = 179,999,981,424, the "180B" the
 * release names (third-party quantizations' "125B" count it without the table and the tower). */
static void test_qwen38_flash_next_counts(void **state)
{
    (void)state;
    const struct gs_arch a = fixture_arch_file(FLASH_NEXT);
    const struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.embedding, 248320ULL * 2560 + 320001536ULL * 160);
    assert_int_equal(c.attention, 36ULL * 57958624 + 12ULL * 51446528);
    assert_int_equal(c.experts, 48ULL * (512ULL * 2560 + 512ULL * 3 * 640 * 2560));
    assert_int_equal(c.mlp, 48ULL * (3ULL * 640 * 2560 + 2560));
    assert_int_equal(c.other, 96ULL * 6604800 + 6563840 + 32839680);
    assert_int_equal(c.lm_head, 248320ULL * 2560);
    assert_int_equal(c.vision, 448931056ULL);
    assert_int_equal(c.norms, 0); /* the gated residuals' hc_norm replaces the layer norms */
    assert_int_equal(c.total, 177392830576ULL);
    assert_int_equal(c.mtp, 2607150848ULL);
    assert_int_equal(c.total + c.mtp, 179999981424ULL);
    assert_int_equal(c.total - 320001536ULL * 160 - c.vision, 125743653760ULL);
    fixture_assert_parts_sum(&c);
    fixture_assert_kinds(&a, (struct fixture_kinds){.attention = 12, .recurrent = 36, .moe = 48});
    assert_vision_tower(&a, 27);
    /* every fourth layer attends; the PLE's table sits in layer 1 (ple_layer_ids [2]) */
    for (uint64_t l = 0; l < 48; l++) {
        const struct gs_block *b = &a.blocks[a.layer_block[l]];
        assert_int_equal(b->mixer == GS_MIXER_ATTENTION, l % 4 == 3);
        assert_int_equal(gs_block_has_host_table(b), l == 1);
    }
    /* without vision_config the composite config builds Qwen4ExpVisionConfig's defaults (as
     * Qwen3-VL's: out_hidden_size 3584, so the merger's fc2 is 4608 x 3584 + 3584) */
    const struct gs_arch t = fixture_arch_file_set_in(FLASH_NEXT, NULL, "vision_config", NULL);
    assert_int_equal(fixture_count(&t).vision, 448931056ULL + 4608ULL * 1024 + 1024);
}

/* Per token: the 12 QSA layers' K and V, 2 x 2 heads x 256 x 2 bytes (one head a rank from TP 2:
 * vLLM replicates the two KV heads), and their pooled indexer keys, 128 bf16 values a pool of 4
 * tokens (12 x 256 / 4 = 768 on every rank); per sequence the 36 Gated DeltaNet layers'
 * convolution window 3 x 10,240 bf16 and fp32 state 48 x 128 x 128 (mamba_ssm_dtype float32),
 * split by rank. A query reads indexer_budget 2,048 tokens. */
static void test_qwen38_flash_next_cache(void **state)
{
    (void)state;
    const struct gs_arch a = fixture_arch_file(FLASH_NEXT);
    const uint64_t state_bytes = 36ULL * (3 * 10240 * 2 + 48ULL * 128 * 128 * 4);
    assert_int_equal(state_bytes, 115458048);
    const uint64_t tensors[] = {1, 2, 8};
    for (size_t i = 0; i < 3; i++) {
        const uint64_t t = tensors[i];
        const struct gs_kv_layout kv = fixture_layout(&a, t);
        assert_int_equal(kv.bytes_per_token, 12ULL * 2 * (t == 1 ? 2 : 1) * 256 * 2);
        assert_int_equal(kv.indexer_token_bytes, 12 * 256 / 4);
        assert_int_equal(kv.state_bytes_per_sequence, state_bytes / t);
        assert_int_equal(kv.full_layers, 12);
        assert_int_equal(kv.recurrent_layers, 36);
        assert_int_equal(kv.topk_tokens, 2048);
    }
}

/* Where the n-gram table lives: a rank's shard is 320,001,536 / 8 rows x 160 x 2 bytes =
 * 12,800,061,440 at TP 8. vLLM keeps it in pinned host memory from 0.30 (EngramConfig.
 * cpu_offload) and on the GPU in 0.29; SGLang on the GPU. vLLM loads the model from 0.29.0,
 * SGLang from 0.5.20; TensorRT-LLM in no release gpusizer models. */
static void test_qwen38_flash_next_engines(void **state)
{
    (void)state;
    const struct gs_arch a = fixture_arch_file(FLASH_NEXT);
    const uint64_t shard = 320001536ULL / 8 * 160 * 2;
    struct gs_workload w = fixture_vllm_workload(1, 8192, 8, 141ULL * 1000 * 1000 * 1000);
    struct gs_estimate host = fixture_estimate(&a, &w);
    const struct gs_assumption *g = fixture_assumption(&host, "engram_host_bytes");
    assert_non_null(g);
    assert_int_equal(g->value, shard);
    w.serving.engine.version = 2900;
    struct gs_estimate v29 = fixture_estimate(&a, &w);
    g = fixture_assumption(&v29, "engram_device_bytes");
    assert_non_null(g);
    assert_int_equal(g->value, shard);
    assert_int_equal(v29.per_gpu.weights_bytes - host.per_gpu.weights_bytes, shard);
    w.serving.engine.version = 0;
    w.serving.engine.engine = GS_ENGINE_SGLANG;
    struct gs_estimate sglang = fixture_estimate(&a, &w);
    assert_int_equal(sglang.per_gpu.weights_bytes, v29.per_gpu.weights_bytes);

    /* SGLang with an fp8 cache and the MTP draft's layer, at TP 1: K and V of 13 layers (the
     * target's 12 and the draft's), 2 heads x 256 x 2 x 1 byte each = 13,312 a token, and their
     * pooled indexer keys in bf16, 13 x 256 / 4 = 832, which SGLang's cell adds
     * (pool_configurator.py _compute_qsa_cell_size: QSATokenToKVPool.qsa_bytes_per_token) */
    struct gs_workload sg = fixture_vllm_workload(1, 8192, 1, 96ULL * 1000 * 1000 * 1000);
    sg.serving.engine.engine = GS_ENGINE_SGLANG;
    sg.serving.kv_dtype = GS_KV_FP8;
    sg.serving.engine.spec_method = GS_SPEC_MTP;
    const struct gs_estimate priced = fixture_estimate(&a, &sg);
    assert_int_equal(priced.serving.kv.bytes_per_token, 13312);
    assert_int_equal(priced.serving.kv.indexer_token_bytes, 13 * 64);

    bool refuses = false;
    assert_non_null(gs_model_support(GS_ENGINE_VLLM, &a, 2800, &refuses));
    assert_true(refuses); /* recurrent layers: no Transformers backend */
    assert_null(gs_model_support(GS_ENGINE_VLLM, &a, 2900, &refuses));
    assert_non_null(gs_model_support(GS_ENGINE_SGLANG, &a, 519, &refuses));
    assert_true(refuses);
    assert_null(gs_model_support(GS_ENGINE_SGLANG, &a, 520, &refuses));
    assert_non_null(gs_model_support(GS_ENGINE_TENSORRT_LLM, &a, 10300, &refuses));
    assert_true(refuses);
}

/* A small qwen4_exp_text config: 4 layers (the fourth QSA), PLE on layer 2, 4 hash heads. */
#define QWEN4_SMALL(ple, extra)                                                                    \
    "{\"model_type\":\"qwen4_exp_text\",\"hidden_size\":64,\"vocab_size\":100,"                    \
    "\"num_hidden_layers\":4,\"num_attention_heads\":4,\"num_key_value_heads\":2,"                 \
    "\"head_dim\":16,\"num_experts\":4,\"num_experts_per_tok\":2,\"moe_intermediate_size\":32,"    \
    "\"linear_num_key_heads\":2,\"linear_num_value_heads\":4,\"linear_key_head_dim\":16,"          \
    "\"linear_value_head_dim\":16,\"hc_count\":2,\"hc_lowrank\":8,\"indexer_n_heads\":2,"          \
    "\"indexer_kv_heads\":1,\"indexer_head_dim\":16,\"indexer_budget\":64,"                        \
    "\"indexer_compress_ratio\":4,\"ple_layer_ids\":" ple ","                                      \
    "\"ple_embed_dim\":64,\"ngram_size\":3,\"heads_per_ngram\":2" extra "}"

/* The table's rows by hand: 4 heads, the 1st to 4th primes from ngram_vocab_size_base 10 -
 * 11, 13, 17, 19 - 60 rows, padded to make_ngram_vocab_size_divisible_by (1, or 128); 16 values
 * a row (64 / 4 heads). And what the reader refuses. */
static void test_qwen4_exp_small(void **state)
{
    (void)state;
    const struct gs_arch plain = fixture_arch(QWEN4_SMALL("[]", ""));
    const struct gs_arch one = fixture_arch(QWEN4_SMALL(
        "[2]", ",\"ngram_vocab_size_base\":10,\"make_ngram_vocab_size_divisible_by\":1"));
    const struct gs_arch padded = fixture_arch(QWEN4_SMALL(
        "[2]", ",\"ngram_vocab_size_base\":10,\"make_ngram_vocab_size_divisible_by\":128"));
    const uint64_t dense =
        64ULL * 128 + 64ULL * 64 + 3 * 128 + 4 * 128; /* key, value, norms, conv */
    assert_int_equal(fixture_count(&one).embedding - fixture_count(&plain).embedding, 60 * 16);
    assert_int_equal(fixture_count(&padded).embedding - fixture_count(&plain).embedding, 128 * 16);
    assert_int_equal(fixture_count(&one).other - fixture_count(&plain).other, dense);
    assert_true(gs_block_has_host_table(&one.blocks[one.layer_block[1]]));
    assert_false(gs_block_has_host_table(&one.blocks[one.layer_block[0]]));

    /* the FP8 release's table: fp8 rows with one scale (1 byte an element on the GPU) unless the
     * ignore list names it; the NVFP4 releases say so with ple_embedding_dtype */
#define QWEN4_FP8(skip)                                                                            \
    QWEN4_SMALL("[2]", ",\"ngram_vocab_size_base\":10,\"make_ngram_vocab_size_divisible_by\":1,"   \
                       "\"quantization_config\":{\"quant_method\":\"fp8\",\"weight_block_size\":"  \
                       "[128,128],\"modules_to_not_convert\":[\"lm_head\"" skip "]}")
    const struct gs_arch fp8 = fixture_arch(QWEN4_FP8(""));
    const struct gs_arch kept = fixture_arch(QWEN4_FP8(",\"ple.ple_embedding.ngram_embedding\""));
    const struct gs_arch dtype = fixture_arch(QWEN4_SMALL(
        "[2]", ",\"ngram_vocab_size_base\":10,\"ple_embedding_dtype\":\"float8_e4m3fn\""));
    struct gs_workload w = fixture_vllm_workload(1, 1024, 1, 80ULL * 1000 * 1000 * 1000);
    w.serving.engine.engram_tables = GS_TABLES_DEVICE;
    const struct gs_estimate e8 = fixture_estimate(&fp8, &w);
    const struct gs_estimate e16 = fixture_estimate(&kept, &w);
    assert_int_equal(e16.per_gpu.weights_bytes - e8.per_gpu.weights_bytes, 60 * 16);
    assert_non_null(fixture_assumption(&e8, "engram_device_bytes"));
    assert_int_equal(fixture_assumption(&e8, "engram_device_bytes")->value, 60 * 16);
    assert_int_equal(fixture_assumption(&e16, "engram_device_bytes")->value, 60 * 16 * 2);
    const struct gs_estimate ed = fixture_estimate(&dtype, &w);
    assert_int_equal(fixture_assumption(&ed, "engram_device_bytes")->value, 128 * 16);
    const struct gs_estimate e = fixture_estimate(&padded, &w);
    assert_int_equal(fixture_assumption(&e, "engram_device_bytes")->value, 128 * 16 * 2);

    /* without ngram_vocab_size_base and the divisor, Qwen4ExpTextConfig's 20,000,000 and 128:
     * 20,000,003 + 20,000,023 + 20,000,033 + 20,000,047 = 80,000,106, padded to 80,000,128 */
    const struct gs_arch defaults = fixture_arch(QWEN4_SMALL("[2]", ""));
    assert_int_equal(fixture_count(&defaults).embedding - fixture_count(&plain).embedding,
                     80000128ULL * 16);
    fixture_assert_reader_error(QWEN4_SMALL("[2]", ",\"ngram_vocab_size_base\":\"big\""),
                                "/ngram_vocab_size_base");
    fixture_assert_reader_error(QWEN4_SMALL("[]", ",\"indexer_budget\":null"), "/indexer_budget");
    fixture_assert_reader_error(QWEN4_SMALL("[2]", ",\"ngram_vocab_size_base\":1e30"),
                                "/ngram_vocab_size_base");
    fixture_assert_reader_error(QWEN4_SMALL("[5]", ",\"ngram_vocab_size_base\":10"),
                                "/ple_layer_ids");
    fixture_assert_reader_error(QWEN4_SMALL("[1, 2]", ",\"ngram_vocab_size_base\":10"),
                                "/ple_layer_ids");
    fixture_assert_reader_error(
        QWEN4_SMALL("[2]", ",\"ngram_vocab_size_base\":10,\"ngram_size\":1"), "/ngram_size");
    fixture_assert_reader_error(
        QWEN4_SMALL("[2]", ",\"ngram_vocab_size_base\":10,\"heads_per_ngram\":1000"),
        "/heads_per_ngram");
    fixture_assert_reader_error(QWEN4_SMALL("[]", ",\"indexer_kv_heads\":2"), "/indexer_kv_heads");
    fixture_assert_reader_error(
        QWEN4_SMALL("[]", ",\"layer_types\":[\"linear_attention\",\"linear_attention\","
                          "\"linear_attention\",\"mamba\"]"),
        "/layer_types");
}

/* The gated residuals, the final mixer and the PLE layer in training, by hand from
 * Qwen4ExpTextGatedResidual.forward and Qwen4ExpTextPLELayer.forward (activation.c
 * gated_residual_site_bytes, ple_bytes), per token and site of the small config (h 64), two sites a
 * layer, 16 tokens, full training under transformers 5.17's rules (eager RMSNorm: an fp32 copy of
 * its input and, the weight applied as 1 + w in fp32, the fp32 normalized tensor). Going from 2 to
 * 4 streams adds 2 x 64 elements to what the site keeps a stream element - pure bf16: the norm's 4
 * + 4, the normalized input cast back 2, the sigmoid's mix 2 = 12 - and 2 injection weights of 2
 * bytes: (12 x 128 + 4) x 2 x 16 = 49,280. Under autocast over fp32 weights: 4 + 4, the cast back
 * 4, the two linears' 16-bit copies 2 + 2, the mix 2 = 18: (18 x 128 + 4) x 32 = 73,856. hc_lowrank
 * 8 to 16: the silu's input and up's input, 2 bytes each: 8 x 4 x 32 = 1,024. With checkpointing a
 * layer keeps its input, the n h streams: 16 x 4 x 64 x 2 = 8,192. */
static void test_qwen4_exp_training(void **state)
{
    (void)state;
    const struct gs_arch two = fixture_arch(QWEN4_SMALL("[]", ""));
    const struct gs_arch four = fixture_arch(QWEN4_SMALL("[]", ",\"hc_count\":4"));
    const struct gs_arch wide = fixture_arch(QWEN4_SMALL("[]", ",\"hc_lowrank\":16"));
    struct gs_parallelism par;
    struct gs_training_knobs knobs;
    fixture_framework_release(&par, &knobs, GS_FW_TRANSFORMERS, 517);
    struct gs_framework_rules rules;
    gs_framework_resolve(&knobs, GS_ATTN_SDPA, &rules);
    struct gs_activation_input a2 = fixture_one_sequence(&two, &par, &rules, 16, true);
    struct gs_activation_input a4 = fixture_one_sequence(&four, &par, &rules, 16, true);
    struct gs_activation_input aw = fixture_one_sequence(&wide, &par, &rules, 16, true);
    struct gs_activation_result r2, r4, rw;
    assert_true(gs_activation_bytes(&a2, &r2));
    assert_true(gs_activation_bytes(&a4, &r4));
    assert_true(gs_activation_bytes(&aw, &rw));
    assert_int_equal(r4.per_layer_bytes - r2.per_layer_bytes, (12 * 128 + 4) * 2 * 16);
    assert_int_equal(rw.per_layer_bytes - r2.per_layer_bytes, 8 * 4 * 32);
    a2.autocast = a4.autocast = true;
    a2.residual_bytes = a4.residual_bytes = 4;
    assert_true(gs_activation_bytes(&a2, &r2));
    assert_true(gs_activation_bytes(&a4, &r4));
    assert_int_equal(r4.per_layer_bytes - r2.per_layer_bytes, (18 * 128 + 4) * 2 * 16);
    a4.autocast = false;
    a4.residual_bytes = 0;
    a4.recompute = GS_RECOMPUTE_FULL;
    assert_true(gs_activation_bytes(&a4, &r4));
    assert_int_equal(r4.per_layer_bytes, 16 * 4 * 64 * 2);
    /* the final hyper_connection_mixer, kept with the final norms: one site without an injection,
     * 12 bytes a stream element in bf16 - 2 to 4 streams add 12 x 128 a token */
    a2.autocast = false;
    a2.residual_bytes = 0;
    a4.recompute = GS_RECOMPUTE_NONE;
    assert_true(gs_activation_bytes(&a2, &r2));
    assert_true(gs_activation_bytes(&a4, &r4));
    assert_int_equal(r4.logits_bytes - r2.logits_bytes, 16 * 12 * 128);
    /* the PLE layer (Qwen4ExpTextPLELayer.forward) over n h = 128 streams, ple_embed_dim 64:
     * norm_query and norm_conv 8 bytes an element each, norm_key 8 (its weight trains), key_normed
     * 2 and the query kept for it 2, the padded convolution input and the silu's input 2 each,
     * value_proj's output 2 x 64, the looked-up rows 2 x 64: (8 x 3 + 2 x 4) x 128 + 2 x 64 + 2 x
     * 64 = 4,352 a token, 69,632 over the 16 */
    const struct gs_arch ple = fixture_arch(QWEN4_SMALL("[2]", ",\"ngram_vocab_size_base\":10"));
    struct gs_activation_input ap = fixture_one_sequence(&ple, &par, &rules, 16, true);
    struct gs_activation_result rp;
    assert_true(gs_activation_bytes(&ap, &rp));
    assert_int_equal(rp.stored_bytes - r2.stored_bytes, 16 * 4352);
}

/* The QSA indexer scores one pooled key a indexer_compress_ratio tokens (perf.c attention_flops):
 * over a 131,072-token prefill the mean query scores 65,536 / 4 = 16,384 pooled keys where a key a
 * token would be 65,536, so the small config's one QSA layer (2 index heads of 16) does
 * 2 x 2 x 16 x (65,536 - 16,384) FLOPs a token fewer than the same config pooling nothing;
 * parameters and the 64 attended tokens are the same. */
static void test_qwen4_exp_indexer_flops(void **state)
{
    (void)state;
    const struct gs_arch pooled = fixture_arch(QWEN4_SMALL("[]", ""));
    const struct gs_arch flat = fixture_arch(QWEN4_SMALL("[]", ",\"indexer_compress_ratio\":1"));
    struct fixture_perf p;
    fixture_perf_one_sequence(&p, &pooled, NULL, 131072);
    const double peak = gs_perf_peak_flops(&p.gpu, GS_REGIME_BF16_MIXED);
    const double four = gs_perf_prefill_seconds(&p.in, &p.gpu, &p.eff);
    p.in.arch = &flat;
    const double one = gs_perf_prefill_seconds(&p.in, &p.gpu, &p.eff);
    const double want = 2.0 * 2 * 16 * (65536 - 16384) * 131072 / peak;
    if (fabs((one - four) - want) > 1e-9 * want)
        fail_msg("pooled indexer saves %.9g s, want %.9g", one - four, want);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_qwen3_vl_2b),
        cmocka_unit_test(test_vl_tie_flags),
        cmocka_unit_test(test_qwen3_vl_dense_sizes),
        cmocka_unit_test(test_qwen3_vl_moe),
        cmocka_unit_test(test_qwen3_5_text),
        cmocka_unit_test(test_qwen3_asr),
        cmocka_unit_test(test_cosmos3),
        cmocka_unit_test(test_qwen3_5_27b),
        cmocka_unit_test(test_qwen3_5_0_8b),
        cmocka_unit_test(test_qwen3_6_27b),
        cmocka_unit_test(test_qwen3_5_35b_a3b),
        cmocka_unit_test(test_qwen3_5_vllm_pages),
        cmocka_unit_test(test_qwen3_5_moe_large),
        cmocka_unit_test(test_qwen3_8_max),
        cmocka_unit_test(test_qwen3_omni_moe),
        cmocka_unit_test(test_qwen_errors),
        cmocka_unit_test(test_qwen3_vl_default_vision),
        cmocka_unit_test(test_qwen38_flash_next_counts),
        cmocka_unit_test(test_qwen38_flash_next_cache),
        cmocka_unit_test(test_qwen38_flash_next_engines),
        cmocka_unit_test(test_qwen4_exp_small),
        cmocka_unit_test(test_qwen4_exp_training),
        cmocka_unit_test(test_qwen4_exp_indexer_flops),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
