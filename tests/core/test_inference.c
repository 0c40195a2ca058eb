/*
 * test_inference.c - KV cache bytes, weight formats and serving-engine
 * budgets, against the published figures cited with each case.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "arch_fixture.h"
#include "gs/capability.h"
#include "gs/inference.h"
#include "gs/engines.h"
#include "gs/vllm.h"
#include "gs/sglang.h"
#include "gs/units.h"
#include "gs/weights.h"

#include <stdlib.h>
#include <string.h>

static struct gs_arch llama(uint64_t h, uint64_t L, uint64_t a, uint64_t k, uint64_t i, uint64_t V)
{
    return fixture_llama(h, L, a, k, i, V, false);
}

static struct gs_arch deepseek_v3(void)
{
    return fixture_deepseek_v3();
}

static uint64_t per_token(const struct gs_arch *a, enum gs_kv_dtype d, uint64_t t)
{
    struct gs_kv_layout kv;
    assert_int_equal(gs_kv_layout_for(a, d, 2, t, 1, &kv, NULL), GS_OK);
    return kv.bytes_per_token;
}

/* vLLM paper: OPT-13B holds "800 KB" per token: 2 x 40 layers x 5120 x 2
 * bytes = 819,200. Llama-2-70B (GQA 8 x 128, 80 layers): 327,680 B/token,
 * 40 KiB per GPU at t = 8 and still 40 KiB at t = 16 (one KV head
 * replicated per rank, vLLM get_num_kv_heads). Llama-2-7B 512 KiB; Falcon-7B
 * (MQA, 64-wide heads) 8 KiB (docs/serving-memory.md, KV cache per token). */
static void test_kv_per_token(void **state)
{
    (void)state;
    struct gs_arch opt = fixture_arch("{\"model_type\":\"opt\",\"hidden_size\":5120,"
                                      "\"num_hidden_layers\":40,\"num_attention_heads\":40,"
                                      "\"ffn_dim\":20480,\"vocab_size\":50272}");
    assert_int_equal(per_token(&opt, GS_KV_AUTO, 1), 819200);
    struct gs_arch l70 = llama(8192, 80, 64, 8, 28672, 32000);
    assert_int_equal(per_token(&l70, GS_KV_BF16, 1), 327680);
    assert_int_equal(per_token(&l70, GS_KV_BF16, 8), 40960);
    assert_int_equal(per_token(&l70, GS_KV_BF16, 16), 40960);
    assert_int_equal(per_token(&l70, GS_KV_FP8, 1), 163840);
    assert_int_equal(per_token(&l70, GS_KV_INT8, 1), 163840);
    struct gs_arch l7 = llama(4096, 32, 32, 32, 11008, 32000);
    assert_int_equal(per_token(&l7, GS_KV_AUTO, 1), 524288);
    /* per-token-head int8: + an fp32 K and V scale per head = 2 x 32 x 4 per layer */
    assert_int_equal(per_token(&l7, GS_KV_INT8_PER_TOKEN_HEAD, 1), 32 * (2 * 32 * 128 + 2 * 32 * 4));
    struct gs_arch falcon = fixture_arch("{\"model_type\":\"falcon\",\"hidden_size\":4544,"
                                         "\"num_hidden_layers\":32,\"num_attention_heads\":71,"
                                         "\"vocab_size\":65024,\"multi_query\":true}");
    assert_int_equal(per_token(&falcon, GS_KV_AUTO, 1), 8192);
}

/* DeepSeek-V3's MLA latent: 61 x (512 + 64) x 2 = 70,272 B/token in bf16;
 * fp8_ds_mla 656 B per layer = 40,016 (vLLM MLAAttentionSpec;
 * docs/serving-memory.md, KV cache per token); replicated on every tensor
 * rank. */
static void test_kv_mla(void **state)
{
    (void)state;
    struct gs_arch ds = deepseek_v3();
    assert_int_equal(per_token(&ds, GS_KV_BF16, 1), 70272);
    assert_int_equal(per_token(&ds, GS_KV_FP8_DS_MLA, 1), 40016);
    assert_int_equal(per_token(&ds, GS_KV_BF16, 8), 70272);
    struct gs_kv_layout kv;
    struct gs_arch l7 = llama(4096, 32, 32, 32, 11008, 32000);
    assert_int_equal(gs_kv_layout_for(&l7, GS_KV_FP8_DS_MLA, 2, 1, 1, &kv, NULL), GS_ERR_INVALID);
}

/* Llama-2-70B, batch 128 x 2048 tokens: 128 x 2048 x 327,680 =
 * 85,899,345,920 bytes (80 GiB), the seed article's "approximately 80 GB". */
static void test_kv_batch_llama2_70b(void **state)
{
    (void)state;
    struct gs_arch l70 = llama(8192, 80, 64, 8, 28672, 32000);
    struct gs_inference_input in;
    memset(&in, 0, sizeof(in));
    in.arch = &l70;
    in.batch_size = 128;
    in.context_length = 2048;
    in.tensor = in.pipeline = 1;
    in.model_bytes = 2;
    struct gs_inference_result r;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_int_equal(r.kv_needed_bytes, 85899345920ULL);
    assert_int_equal(r.kv_needed_bytes, 80 * GS_GIB);
    assert_false(r.has_budget);
}

/* Mistral-7B-v0.1's window of 4096: a 32k-token sequence needs at most
 * cdiv(4095 + 8192, 16) + 1 = 769 blocks per windowed layer instead of
 * 2048 (vLLM SlidingWindowSpec.max_memory_usage_bytes; docs/serving-memory.md,
 * Sliding windows). One block of one layer: 16 x 8 x 128 x 2 x 2. */
static void test_sliding_window(void **state)
{
    (void)state;
    struct gs_arch m = fixture_arch("{\"model_type\":\"mistral\",\"hidden_size\":4096,"
                                    "\"num_hidden_layers\":32,\"num_attention_heads\":32,"
                                    "\"num_key_value_heads\":8,\"intermediate_size\":14336,"
                                    "\"vocab_size\":32000,\"sliding_window\":4096}");
    struct gs_kv_layout kv;
    assert_int_equal(gs_kv_layout_for(&m, GS_KV_AUTO, 2, 1, 1, &kv, NULL), GS_OK);
    assert_int_equal(kv.window_layers, 32);
    bool ovf = false;
    const uint64_t page = 16ULL * 8 * 128 * 2 * 2;
    assert_int_equal(gs_kv_sequence_bytes(&kv, 32768, 32768, 16, 8192, &ovf), 32 * 769 * page);
    /* short sequences are not capped: 1000 tokens = 63 blocks per layer */
    assert_int_equal(gs_kv_sequence_bytes(&kv, 1000, 1000, 16, 8192, &ovf), 32 * 63 * page);
    /* Gemma-2 windows every other layer */
    struct gs_arch g2 = fixture_typed("gemma2", 3584, 42, 16, 8, 14336, 256000, true, 256);
    assert_int_equal(gs_kv_layout_for(&g2, GS_KV_AUTO, 2, 1, 1, &kv, NULL), GS_OK);
    assert_int_equal(kv.window_layers, 21);
    assert_int_equal(kv.full_layers, 21);
    assert_int_equal(kv.bytes_per_token, 344064); /* 336 KiB: 42 x 8 x 256 x 2 x 2 */
}

/* The vLLM log for Meta-Llama-3-8B on one H100 (vllm PR #10511; its rule in
 * docs/vllm-kv-budget-research.md, 1.4 (b)): total 79.22 GiB x 0.90,
 * weights 14.96 GiB, non-torch 1.79 GiB, activation peak 1.26 GiB -> KV
 * 53.29 GiB -> 436,535 tokens. With the
 * logged figures as overrides: within 0.5%; with gpusizer's own activation
 * and non-torch defaults: within 10%. */
static void test_vllm_log_reproduced(void **state)
{
    (void)state;
    struct gs_arch a = llama(4096, 32, 32, 8, 14336, 128256);
    struct gs_inference_input in = fixture_llama3_8b_on_h100(&a);
    in.engine.has_activation_bytes = true;
    in.engine.activation_bytes = (uint64_t)(1.26 * (double)GS_GIB);
    in.engine.has_non_torch_bytes = true;
    in.engine.non_torch_bytes = (uint64_t)(1.79 * (double)GS_GIB);
    struct gs_inference_result r;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_true(r.has_budget);
    assert_true(r.starts);
    /* 53.29 GiB, as logged (two decimals) */
    assert_int_equal(((uint64_t)r.budget.kv_bytes * 100 + GS_GIB / 2) / GS_GIB, 5329);
    const double logged = 436535;
    double diff = ((double)r.max_tokens - logged) / logged;
    assert_true(diff < 0.005 && diff > -0.005);
    assert_int_equal(r.max_tokens % 16, 0);

    in.engine.has_activation_bytes = false;
    in.engine.has_non_torch_bytes = false;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    diff = ((double)r.max_tokens - logged) / logged;
    assert_true(diff < 0.10 && diff > -0.10);
    /* H100 gets the server defaults of large GPUs */
    assert_int_equal(r.max_num_batched_tokens, 8192);
    assert_int_equal(r.max_num_seqs, 1024);
}

/* The solver: the max concurrency and max context it returns fit the KV
 * budget, and one more sequence or one more token does not. */
static void test_solver_boundaries(void **state)
{
    (void)state;
    struct gs_arch a = llama(4096, 32, 32, 8, 14336, 128256);
    struct gs_inference_input in = fixture_llama3_8b_on_h100(&a);
    in.batch_size = 37;
    in.context_length = 5000;
    struct gs_inference_result r;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    const uint64_t available = (uint64_t)r.budget.kv_bytes;
    bool ovf = false;
    const uint64_t seq = gs_kv_sequence_bytes(&r.kv, 5000, 5000, 16, 8192, &ovf);
    assert_true(r.max_concurrency * seq <= available);
    assert_true((r.max_concurrency + 1) * seq > available);
    const uint64_t at = gs_kv_sequence_bytes(&r.kv, r.max_context, r.max_context, 16, 8192, &ovf);
    const uint64_t past = gs_kv_sequence_bytes(&r.kv, r.max_context + 1, r.max_context + 1, 16, 8192, &ovf);
    assert_true(37 * at <= available);
    assert_true(37 * past > available);
}

/* No context past the model's own limit is offered: Llama-3-8B's cache on an H100 with 1 GB
 * of weights holds hundreds of thousands of tokens for one sequence, but a model of 8,192
 * positions (max_model_len) gets 8,192 as its longest context; with no limit known, the
 * cache decides. */
static void test_model_limit_caps_context(void **state)
{
    (void)state;
    struct gs_arch a = llama(4096, 32, 32, 8, 14336, 128256);
    struct gs_inference_input in = fixture_llama3_8b_on_h100(&a);
    in.weights_bytes = 1000000000ULL;
    in.batch_size = 1;
    in.context_length = 4096;
    struct gs_inference_result r;
    a.max_model_len = 0;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_true(r.max_context > 100000);
    a.max_model_len = 8192;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_int_equal(r.max_context, 8192);
    assert_true(r.starts);
}

/* The same boundary for every kind of cache the solver meets (every layer full, sliding
 * windows, an encoder's cross-attention, an MLA latent) over batches and memory sizes: the
 * context it returns fits `batch` sequences and one token more does not (or it is the
 * search's 64M-token cap). Full-attention caches are solved in closed form, the others by
 * bisection; both must land on the same boundary. */
static void test_solver_sweep(void **state)
{
    (void)state;
    const struct gs_arch archs[] = {
        llama(4096, 32, 32, 8, 14336, 128256),
        llama(8192, 80, 64, 8, 28672, 128256),
        fixture_arch_file("gemma3/google__gemma-3-4b-it.json"),
        fixture_arch_file("whisper/openai__whisper-large-v3.json"),
        fixture_deepseek_v3(),
    };
    const uint64_t batches[] = {1, 3, 37, 256, 5000};
    const uint64_t memories[] = {24000000000ULL, 85061827297ULL, 1000000000000ULL};
    size_t checked = 0;
    for (size_t i = 0; i < sizeof(archs) / sizeof(archs[0]); i++) {
        for (size_t b = 0; b < sizeof(batches) / sizeof(batches[0]); b++) {
            for (size_t g = 0; g < sizeof(memories) / sizeof(memories[0]); g++) {
                struct gs_inference_input in = fixture_llama3_8b_on_h100(&archs[i]);
                in.weights_bytes = 1000000000ULL;
                in.batch_size = batches[b];
                in.context_length = 4096;
                in.gpu.total_bytes = memories[g];
                struct gs_inference_result r;
                if (gs_inference_compute(&in, &r, NULL) != GS_OK || !r.has_budget ||
                    r.budget.kv_bytes <= 0)
                    continue;
                const uint64_t available = (uint64_t)r.budget.kv_bytes;
                const uint64_t c = r.max_context;
                bool ovf = false;
                /* as the solver counts: every token in the decoder's cache and, for an
                 * encoder-decoder without a prompt length, in the cross-attention cache too */
                const uint64_t enc = r.kv.cross_token_bytes ? c : 0;
                const uint64_t at = gs_kv_sequence_bytes(&r.kv, c, enc,
                                                         r.block_size, r.max_num_batched_tokens,
                                                         &ovf);
                assert_false(ovf);
                if (c > 0)
                    assert_true(at * batches[b] <= available);
                /* the model's own limit caps the answer (gemma-3-4b: 131,072 positions x
                 * linear rope scaling 8 = 1,048,576), checked in test_model_limit_caps_context */
                assert_true(archs[i].max_model_len == 0 || c <= archs[i].max_model_len);
                if (c < ((uint64_t)1 << 26) && c != archs[i].max_model_len) {
                    const uint64_t enc1 = r.kv.cross_token_bytes ? c + 1 : 0;
                    const uint64_t past = gs_kv_sequence_bytes(
                        &r.kv, c + 1, enc1, r.block_size,
                        r.max_num_batched_tokens, &ovf);
                    if (past * batches[b] <= available)
                        fail_msg("arch %zu batch %llu memory %llu: context %llu + 1 still fits", i,
                                 (unsigned long long)batches[b], (unsigned long long)memories[g],
                                 (unsigned long long)c);
                }
                checked++;
            }
        }
    }
    assert_true(checked >= 40);
}

/* An engine that cannot start: Llama-2-70B bf16 on one H100. */
static void test_does_not_start(void **state)
{
    (void)state;
    struct gs_arch a = llama(8192, 80, 64, 8, 28672, 32000);
    struct gs_inference_input in = fixture_llama3_8b_on_h100(&a);
    in.weights_bytes = 137953296384ULL;
    struct gs_inference_result r;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_false(r.starts);
    assert_true(r.budget.kv_bytes < 0);
    assert_non_null(r.binding);
    /* every engine refuses it */
    for (int e = 0; e < GS_ENGINE_COUNT; e++) {
        in.engine.engine = (enum gs_engine)e;
        assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
        assert_false(r.starts);
    }
}

/* gs_inference_weights_leave_no_cache, the plan search's cut: weights one
 * byte above the GPU's total leave no KV cache under any engine's rule and
 * release, even with every other term given as zero and each fraction at 1;
 * at the total itself or with --cpu-offload-gb taking a byte back the cut
 * does not apply. vLLM's --kv-cache-memory-bytes gives the pool outright,
 * bypassing the profile and gpu_memory_utilization, but the weights must be
 * loaded beside it: 1 GiB of pool starts beside loaded weights of the GPU's
 * total less 1 GiB, not beside a byte more, nor beside weights above the
 * total. */
static void test_weights_leave_no_cache(void **state)
{
    (void)state;
    struct gs_arch a = llama(4096, 32, 32, 8, 14336, 128256);
    struct gs_inference_input in = fixture_llama3_8b_on_h100(&a);
    const uint64_t total = in.gpu.total_bytes;
    in.weights_bytes = total + 1;
    in.engine.has_activation_bytes = in.engine.has_non_torch_bytes = true;
    in.engine.has_cuda_graph_bytes = true;
    in.context_length = 16;
    static const struct {
        enum gs_engine engine;
        uint32_t version;
    } cases[] = {
        {GS_ENGINE_VLLM, 0},        {GS_ENGINE_VLLM, 604},       {GS_ENGINE_VLLM, 1000},
        {GS_ENGINE_VLLM, 2100},     {GS_ENGINE_SGLANG, 0},       {GS_ENGINE_SGLANG, 400},
        {GS_ENGINE_SGLANG, 407},    {GS_ENGINE_SGLANG, 503},     {GS_ENGINE_TENSORRT_LLM, 0},
        {GS_ENGINE_TGI, 20200},     {GS_ENGINE_TGI, 30100},      {GS_ENGINE_GENERIC, 0},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        for (int full = 0; full < 2; full++) {
            struct gs_inference_input one = in;
            one.engine.engine = cases[i].engine;
            one.engine.version = cases[i].version;
            if (full) {
                one.engine.gpu_memory_utilization_permille = 1000;
                one.engine.mem_fraction_static_permille = 1000;
                one.engine.cuda_memory_fraction_permille = 1000;
                one.engine.free_memory_fraction_permille = 1000;
            }
            struct gs_inference_result r;
            assert_true(gs_inference_weights_leave_no_cache(&one.engine, one.weights_bytes, total));
            assert_int_equal(gs_inference_compute(&one, &r, NULL), GS_OK);
            assert_true(r.has_budget);
            assert_false(r.starts);
            assert_false(r.holds_batch);
            assert_true(r.budget.kv_bytes <= 0);
            assert_false(gs_inference_weights_leave_no_cache(&one.engine, total, total));
        }
    }
    assert_false(gs_inference_weights_leave_no_cache(&in.engine, total + 1, 0));
    struct gs_inference_input offload = in;
    offload.engine.cpu_offload_bytes = 1;
    assert_false(gs_inference_weights_leave_no_cache(&offload.engine, total + 1, total));
    struct gs_inference_input given = in;
    given.engine.has_kv_cache_memory_bytes = true;
    given.engine.kv_cache_memory_bytes = 1ULL << 30;
    assert_true(gs_inference_weights_leave_no_cache(&given.engine, total + 1, total));
    struct gs_inference_result r;
    assert_int_equal(gs_inference_compute(&given, &r, NULL), GS_OK);
    assert_false(r.starts);
    /* what the engine loads beside the checkpoint's weights (rotary tables, the allocator's
     * rounding), the same whatever the weights */
    given.weights_bytes = 1ULL << 30;
    assert_int_equal(gs_inference_compute(&given, &r, NULL), GS_OK);
    const uint64_t extra = r.budget.weights_bytes - given.weights_bytes;
    given.weights_bytes = total - (1ULL << 30) - extra;
    assert_int_equal(gs_inference_compute(&given, &r, NULL), GS_OK);
    assert_true(r.starts);
    assert_int_equal(r.budget.kv_bytes, 1LL << 30);
    given.weights_bytes++;
    assert_int_equal(gs_inference_compute(&given, &r, NULL), GS_OK);
    assert_false(r.starts);
    assert_int_equal(r.budget.kv_bytes, -1);
    struct gs_inference_input over = in;
    over.engine.gpu_memory_utilization_permille = 1001;
    assert_false(gs_inference_weights_leave_no_cache(&over.engine, total + 1, total));
}

/* SGLang 0.4.8-0.5.2 (PR #7054, after the v0.4.7 tag): (capacity - reserved) / capacity in MiB,
 * rounded to 3 decimals. H100 at 79.22 GiB = 81,121 MiB, TP 1: reserved (9.5
 * + 1/2) GiB = 10,240 MiB -> 70,881 / 81,121 = 0.87377 -> 0.874. TP 8: 13,824
 * MiB reserved -> 0.8296 -> 0.830. A 24 GB card reporting 23.58 GiB = 24,145
 * MiB: (2.8 + 0.1) GiB = 2,969.6 MiB -> 0.87701 -> 0.877. H200 (140 GiB
 * class): (12 + 0.5) GiB. B200: 32 GiB. */
static void test_sglang_fraction_0_4_8(void **state)
{
    (void)state;
    const struct gs_sglang_release *r = gs_sglang_release_for(408);
    assert_int_equal(r->rule, GS_SGLANG_RULE_GPU_CLASS);
    assert_int_equal(gs_sglang_release_for(502)->rule, r->rule); /* 0.5.1's row: the same rule */
    assert_int_equal(gs_sglang_default_fraction_permille(r, 85061827297ULL, 1, 1, 1), 874);
    assert_int_equal(gs_sglang_default_fraction_permille(r, 85061827297ULL, 8, 1, 1), 830);
    assert_int_equal(gs_sglang_default_fraction_permille(r, 85061827297ULL, 4, 2, 1), 830);
    assert_int_equal(gs_sglang_default_fraction_permille(r, 24145ULL * GS_MIB, 1, 1, 1), 877);
    /* 140 GiB = 143,360 MiB: 12.5 GiB = 12,800 MiB -> 130,560 / 143,360 = 0.91071 */
    assert_int_equal(gs_sglang_default_fraction_permille(r, 140 * GS_GIB, 1, 1, 1), 911);
    /* 178 GiB = 182,272 MiB: 32,768 reserved -> 149,504 / 182,272 = 0.82022 */
    assert_int_equal(gs_sglang_default_fraction_permille(r, 178 * GS_GIB, 8, 1, 1), 820);
    /* data-parallel attention reserves 4 GiB more (server_args.py: "if
     * self.enable_dp_attention: reserved_mem += 4 * 1024"): H100 TP 8 DP 8, 13,824 + 4,096 =
     * 17,920 MiB -> 63,201 / 81,121 = 0.77910; the B200 class 36,864 -> 145,408 / 182,272 =
     * 0.79775 */
    assert_int_equal(gs_sglang_default_fraction_permille(r, 85061827297ULL, 8, 1, 8), 779);
    assert_int_equal(gs_sglang_default_fraction_permille(r, 178 * GS_GIB, 8, 1, 8), 798);
}

/* SGLang 0.4.6 and 0.4.7 (server_args.py __post_init__ at their tags), in thousandths:
 *   - 0.4.6: the TP table up to 81,920 MiB; above, (capacity - 13,312) / capacity: 140 GiB =
 *     143,360 MiB -> 130,048 / 143,360 = 0.90714 -> 0.907; an H100's 81,121 MiB at TP 4: 0.85;
 *   - 0.4.7: the table by TP x PP up to 81,920 MiB (TP 4 x PP 2: 0.81, where 0.4.6 read 0.85
 *     by TP alone), 0.88 above; 143,360 MiB: min(0.88 + 49,152 x 0.12 / 143,360, 124,928 /
 *     143,360) = min(0.92114, 0.87143) -> 0.871, under speculative decoding 122,880 / 143,360
 *     = 0.85714 -> 0.857; 178 GiB = 182,272 MiB (over 180,000, CUDA): 0.79, on ROCm min(0.88
 *     + 49,152 x 0.12 / 182,272, 163,840 / 182,272) = min(0.91236, 0.89888) -> 0.899; a
 *     24,145 MiB card at TP 1 under speculative decoding 0.88 x 0.95 = 0.836. */
static void test_sglang_fraction_0_4_6_and_0_4_7(void **state)
{
    (void)state;
    const struct gs_sglang_release *r6 = gs_sglang_release_for(406);
    const struct gs_sglang_release *r7 = gs_sglang_release_for(407);
    assert_int_equal(r6->rule, GS_SGLANG_RULE_TENSOR_KEEP_13G);
    assert_int_equal(r7->rule, GS_SGLANG_RULE_TENSOR_BY_CAPACITY);
    assert_int_equal(gs_sglang_default_fraction_permille(r6, 140 * GS_GIB, 1, 1, 1), 907);
    assert_int_equal(gs_sglang_default_fraction_permille(r6, 85061827297ULL, 4, 2, 1), 850);
    assert_int_equal(gs_sglang_default_fraction_permille(r7, 85061827297ULL, 4, 2, 1), 810);
    assert_int_equal(gs_sglang_default_fraction_permille(r7, 85061827297ULL, 1, 1, 1), 880);
    assert_int_equal(gs_sglang_default_fraction_permille(r7, 140 * GS_GIB, 1, 1, 1), 871);
    assert_int_equal(
        gs_sglang_default_fraction_spec_permille(r7, 140 * GS_GIB, 1, 1, 1, GS_SPEC_MTP), 857);
    assert_int_equal(gs_sglang_default_fraction_permille(r7, 178 * GS_GIB, 8, 1, 1), 790);
    const struct gs_sglang_fraction_input mi = {
        .total_bytes = 178 * GS_GIB, .tensor = 8, .pipeline = 1, .rocm = true};
    assert_int_equal(gs_sglang_default_fraction(r7, &mi), 899);
    assert_int_equal(
        gs_sglang_default_fraction_spec_permille(r7, 24145ULL * GS_MIB, 1, 1, 1, GS_SPEC_MTP), 836);
}

/* SGLang up to 0.4.5 (server_args.py __post_init__ before PR #7054): by
 * tp_size alone, whatever the GPU - 0.88, 0.87 from TP 2, 0.85 from 4 (the
 * 0.85 SGLang 0.4.3 logged at TP 4 on L4s), 0.81 from 8, 0.79 from 16. */
static void test_sglang_fraction_0_4_0(void **state)
{
    (void)state;
    const struct gs_sglang_release *r = gs_sglang_release_for(400);
    assert_int_equal(r->rule, GS_SGLANG_RULE_TENSOR);
    assert_ptr_equal(gs_sglang_release_for(402), r);
    /* 0.4.3 keeps the rule; only its rotary tables turn fp32 (PR #3169, sgl_kernel rope) */
    const struct gs_sglang_release *r3 = gs_sglang_release_for(403);
    assert_ptr_equal(gs_sglang_release_for(404), r3);
    assert_int_equal(r3->rule, GS_SGLANG_RULE_TENSOR);
    /* 0.4.5 keeps both; it adds the 48-request bound under speculative decoding (PR #4908) */
    assert_int_equal(gs_sglang_release_for(405)->rule, GS_SGLANG_RULE_TENSOR);
    assert_int_equal(gs_sglang_release_for(405)->rope_element_bytes, 4);
    assert_int_equal(r->rope_element_bytes, 0);
    assert_int_equal(r3->rope_element_bytes, 4);
    assert_int_equal(gs_sglang_release_for(0)->rope_element_bytes, 4);
    static const uint64_t tp[] = {1, 2, 3, 4, 7, 8, 15, 16, 32};
    static const uint64_t want[] = {880, 870, 870, 850, 850, 810, 810, 790, 790};
    for (size_t i = 0; i < sizeof(tp) / sizeof(tp[0]); i++) {
        assert_int_equal(gs_sglang_default_fraction_permille(r, 24145ULL * GS_MIB, tp[i], 1, 1), want[i]);
        assert_int_equal(gs_sglang_default_fraction_permille(r, 85061827297ULL, tp[i], 2, 1), want[i]);
    }
    /* older releases get these rules, and say so */
    assert_ptr_equal(gs_sglang_release_for(305), r);
    assert_false(gs_sglang_modeled(305));
    assert_true(gs_sglang_modeled(400));
    assert_true(gs_sglang_modeled(0));
}

/* SGLang from 0.5.3 (PR #10975), the default: reserved_mem (MiB) = 512 + 1.5 x
 * max(chunked_prefill_size, 2048) + 2 x cuda_graph_max_bs + tp x pp / 8 x
 * 1024, at least 10,240 above 60 GiB.
 *   H100, 81,121 MiB, TP 1: chunked 8192, max_bs 256: 512 + 12,288 + 512 +
 *     128 = 13,440 -> 67,681 / 81,121 = 0.83432 -> 0.834.
 *   TP 8: max_bs 512: 512 + 12,288 + 1,024 + 1,024 = 14,848 -> 0.81696 -> 0.817.
 *   L4-class 24,145 MiB, TP 4: chunked 2048, max_bs 80: 512 + 3,072 + 160 +
 *     512 = 4,256 -> 19,889 / 24,145 = 0.82373 -> 0.824 (no floor below 60 GiB).
 *   A 16 GiB card, TP 1: max_bs 8: 512 + 3,072 + 16 + 128 = 3,728 of 16,384
 *     -> 0.77246 -> 0.772.
 *   B200 182,272 MiB (178 GiB), TP 8: chunked 16,384, max_bs 512: 512 +
 *     24,576 + 1,024 + 1,024 = 27,136 -> 0.85113 -> 0.851.
 *   A 64 GiB card (65,536 MiB), TP 1: chunked 8192, max_bs 256: 13,440 ->
 *     52,096 / 65,536 = 0.79492 -> 0.795 (the 10 GiB floor cannot bind at the
 *     8k chunked prefill every class above 60 GiB defaults to).
 *   H100 TP 1 x DP 8 (tp_size 8, --dp 8): max_bs 512 (tp_size >= 4): 14,848
 *     + 3 x 512 x 8 + 1.5 x 512 x 8 = 14,848 + 12,288 + 6,144 = 33,280 ->
 *     47,841 / 81,121 = 0.58975 -> 0.590. */
static void test_sglang_fraction_0_5_3(void **state)
{
    (void)state;
    const struct gs_sglang_release *r = gs_sglang_release_for(503);
    assert_int_equal(r->rule, GS_SGLANG_RULE_RESERVE);
    assert_string_equal(r->name, "0.5.3");
    /* the fraction rule holds to 0.5.9; the rows between change the hybrids' state pool */
    assert_int_equal(gs_sglang_release_for(509)->rule, GS_SGLANG_RULE_RESERVE);
    assert_string_equal(gs_sglang_release_for(506)->name, "0.5.5");
    /* 20-35 GiB below TP 4: cuda_graph_max_bs 16 in 0.5.3-0.5.4, 24 from 0.5.5 (PR #12124):
     * 512 + 1.5 x 2,048 + 2 x 16 + 1 / 8 x 1,024 = 3,744 -> 20,401 / 24,145 = 0.84494 -> 0.845;
     * with 24, 3,760 -> 0.84427 -> 0.844 */
    assert_int_equal(gs_sglang_default_fraction_permille(r, 24145ULL * GS_MIB, 1, 1, 1), 845);
    assert_int_equal(
        gs_sglang_default_fraction_permille(gs_sglang_release_for(505), 24145ULL * GS_MIB, 1, 1, 1),
        844);
    assert_string_equal(gs_sglang_release_for(0)->name, "0.5.20"); /* the newest modelled */
    assert_int_equal(gs_sglang_default_fraction_permille(r, 85061827297ULL, 1, 1, 1), 834);
    assert_int_equal(gs_sglang_default_fraction_permille(r, 85061827297ULL, 8, 1, 1), 817);
    assert_int_equal(gs_sglang_default_fraction_permille(r, 24145ULL * GS_MIB, 4, 1, 1), 824);
    assert_int_equal(gs_sglang_default_fraction_permille(r, 16 * GS_GIB, 1, 1, 1), 772);
    assert_int_equal(gs_sglang_default_fraction_permille(r, 178 * GS_GIB, 8, 1, 1), 851);
    assert_int_equal(gs_sglang_default_fraction_permille(r, 64 * GS_GIB, 1, 1, 1), 795);
    assert_int_equal(gs_sglang_default_fraction_permille(r, 85061827297ULL, 8, 1, 8), 590);
}

/* SGLang's multimodal reduction (adjust_mem_fraction_for_vlm): 0.95 x
 * clamp(1 - 0.1 x (L x H^2 / (24 x 1024^2) - 1), 0.8, 1.05).
 *   ViT-L/14 (24 x 1024): ratio 1 -> 0.95: 834 -> 792.3 -> 792.
 *   24 x 1280 (Qwen2.5-VL read without its `depth`): ratio 1.5625 -> 0.94375
 *     x 0.95 = 0.896563 -> 747.73 -> 748.
 *   34 x 1408 (Llama 4 Scout): ratio 2.6777 -> 0.832227 x 0.95 = 0.790616 ->
 *     659.37 -> 659.
 *   a huge tower (48 x 3200): ratio 19.5 -> clamped 0.8 -> 0.76: 834 -> 634.
 *   a tiny one (12 x 512): ratio 0.125 -> 1.0875, clamped 1.05 -> 0.9975 -> 832. */
static void test_sglang_vlm_fraction(void **state)
{
    (void)state;
    assert_int_equal(gs_sglang_vlm_fraction_permille(834, 24, 1024), 792);
    assert_int_equal(gs_sglang_vlm_fraction_permille(834, 24, 1280), 748);
    assert_int_equal(gs_sglang_vlm_fraction_permille(834, 34, 1408), 659);
    assert_int_equal(gs_sglang_vlm_fraction_permille(834, 48, 3200), 634);
    assert_int_equal(gs_sglang_vlm_fraction_permille(834, 12, 512), 832);
    /* through the engine: only the default from the 0.5.3 rule on, never an explicit
     * fraction. The newest release reserves no prefill graphs for a multimodal class outside
     * its lists (_disable_breakable_cudagraph_if_incompatible "multimodal model"): 512 + 1.5 x
     * 8,192 + 2 x 256 + 128 = 13,440 MiB of 81,121 -> 834 (the 829 of a text model less its 58 x
     * 8 MiB of graphs) x 0.896563 = 747.73 -> 748, as 0.5.3, which had no prefill graphs */
    struct gs_arch a = llama(4096, 32, 32, 8, 14336, 128256);
    struct gs_inference_input in = fixture_llama3_8b_on_h100(&a);
    in.engine.engine = GS_ENGINE_SGLANG;
    a.vision_config_layers = 24; /* as the config reader leaves a vision model's */
    a.vision_config_hidden = 1280;
    struct gs_inference_result r;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_int_equal(r.budget.fraction_permille, 748);
    in.engine.version = 503;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_int_equal(r.budget.fraction_permille, 748);
    /* 0.4.10 (PR #6881) adjusts the default: 874 (test_sglang_fraction_0_4_8) x 0.95 x (1 - 0.1
     * x (24 x 1,280^2 / (24 x 1,024^2) - 1) = 0.94375) = 783.6 -> 784; 0.4.9 left it alone;
     * 0.4.5-0.4.8 scaled any fraction by 0.90 in model_runner.py (0.4.5: 880 -> 792, a given
     * 900 -> 810), 0.4.0-0.4.4 by 0.95 (880 -> 836) */
    in.engine.version = 410;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_int_equal(r.budget.fraction_permille, 784);
    in.engine.version = 409;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_int_equal(r.budget.fraction_permille, 874);
    in.engine.version = 408;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_int_equal(r.budget.fraction_permille, 787); /* 874 x 0.90 = 786.6 */
    in.engine.version = 405;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_int_equal(r.budget.fraction_permille, 792);
    in.engine.mem_fraction_static_permille = 900;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_int_equal(r.budget.fraction_permille, 810);
    in.engine.mem_fraction_static_permille = 0;
    in.engine.version = 404;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_int_equal(r.budget.fraction_permille, 836);
    in.engine.version = 0;
    in.engine.mem_fraction_static_permille = 900;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_int_equal(r.budget.fraction_permille, 900);
}

/* `a` on the H100 of fixture_llama3_8b_on_h100, served by SGLang with 1 GB outside torch. */
static struct gs_inference_input sglang_on_h100(const struct gs_arch *a)
{
    struct gs_inference_input in = fixture_llama3_8b_on_h100(a);
    in.engine.engine = GS_ENGINE_SGLANG;
    in.engine.has_non_torch_bytes = true;
    in.engine.non_torch_bytes = 1000000000;
    return in;
}

/* SGLang's pool (model_runner.profile_max_num_token): the memory free after
 * loading, minus baseline x (1 - fraction), the baseline being the memory
 * free before loading (total - non-torch): fraction x (total - non-torch) -
 * weights; activations and graphs live in the reserve. Page size 1. */
static void test_sglang_rule(void **state)
{
    (void)state;
    struct gs_arch a = llama(4096, 32, 32, 8, 14336, 128256);
    struct gs_inference_input in = sglang_on_h100(&a);
    struct gs_inference_result r;
    /* the default release (0.5.20): 0.829 on this H100 (test_sglang_fraction_prefill_graphs) */
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_int_equal(r.budget.fraction_permille, 829);
    assert_string_equal(r.sglang_release->name, "0.5.20");
    /* the pool's arithmetic at SGLang 0.4.8's 0.874 */
    in.engine.version = 408;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_string_equal(r.sglang_release->name, "0.4.8");
    assert_int_equal(r.budget.fraction_permille, 874);
    /* 84,061,827,297 x 0.874, floored */
    const uint64_t requested = 73470037057ULL;
    assert_int_equal(r.budget.requested_bytes, requested);
    assert_int_equal((uint64_t)r.budget.kv_bytes, requested - 16060522496ULL);
    assert_int_equal(r.block_size, 1);
    /* 131,072 bytes per token, one token per page */
    assert_int_equal(r.max_tokens, (uint64_t)r.budget.kv_bytes / 131072);
    /* an explicit fraction wins */
    in.engine.mem_fraction_static_permille = 500;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_int_equal(r.budget.fraction_permille, 500);
}

/* SGLang's hybrid SWA memory (docs/engines.md, "Sliding-window models: two pools"): a listed
 * class's cache in a full layers' pool and a window layers' pool of r x its tokens. gpt-oss-20b:
 * 12 full and 12 sliding layers (window 128), each 8 KV heads x 64 x (K + V) x 2 B = 2,048 B a
 * token, so F nf = S ns = 24,576 B; the budget A is the pool rule's (test_sglang_rule), page 1. */
static void test_sglang_hybrid_swa_pools(void **state)
{
    (void)state;
    const struct gs_arch a = fixture_arch_file("gpt_oss/openai__gpt-oss-20b.json");
    struct gs_inference_input in = sglang_on_h100(&a);
    struct gs_inference_result r;
    /* 0.5.11 on (HybridSWAPoolConfigurator): full = A / (F nf + 0.8 S ns) = A / 44,236.8 */
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    uint64_t A = (uint64_t)r.budget.kv_bytes;
    uint64_t full = A * 1000 / 44236800;
    assert_int_equal(r.max_tokens, full);
    assert_int_equal(r.reported_tokens, full);
    assert_int_equal(r.window_pool_tokens, full * 800 / 1000);
    assert_int_equal(r.window_ratio_permille, 800);
    /* a request holds the window, 128 tokens before its next eviction, a page and its decode
     * step's page (SWAChunkCapPoolConfigurator's per_request) */
    assert_int_equal(r.window_seq_tokens, 128 + 128 + 1 + 1);
    /* 8,192-token sequences: the full pool binds */
    assert_int_equal(r.max_concurrency, full / 8192);
    assert_int_equal(r.max_context, full < a.max_model_len ? full : a.max_model_len);
    assert_true(r.holds_batch);
    /* 200-token sequences take 200 tokens of each pool: the window pool (0.8 x) binds */
    in.context_length = 200;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_int_equal(r.max_concurrency, full * 800 / 1000 / 200);
    /* more sequences of the window's 258 tokens than the window pool holds: it bounds the
     * context at what each may keep of it */
    in.context_length = 8192;
    in.batch_size = full * 800 / 1000 / 258 + 1;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_int_equal(r.max_context, full * 800 / 1000 / in.batch_size);
    in.batch_size = 1;
    /* --disable-hybrid-swa-memory: one pool, every layer every token (49,152 B) */
    in.engine.one_kv_pool = true;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_int_equal(r.window_pool_tokens, 0);
    assert_int_equal(r.max_tokens, A / 49152);
    in.engine.one_kv_pool = false;
    /* --swa-full-tokens-ratio 0.5: A / (24,576 + 12,288) */
    in.engine.swa_full_tokens_ratio_permille = 500;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_int_equal(r.max_tokens, A / 36864);
    assert_int_equal(r.window_pool_tokens, A / 36864 / 2);
    in.engine.swa_full_tokens_ratio_permille = 0;
    /* 0.5.9-0.5.10: the tokens of F nf + S ns = 49,152 B, then x 49,152 / 44,236.8 */
    in.engine.version = 509;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    A = (uint64_t)r.budget.kv_bytes;
    assert_int_equal(r.max_tokens, A / 49152 * 49152 * 1000 / 44236800);
    /* 0.5.8: a uniform cell of 24 layers x 2,048 B, x 24 layers / (0.8 x 12 + 12) */
    in.engine.version = 508;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    A = (uint64_t)r.budget.kv_bytes;
    assert_int_equal(r.max_tokens, A / 49152 * 24 * 1000 / 21600);
    /* 0.5.7: gpt-oss set disable_hybrid_swa_memory - one pool, every layer every token */
    in.engine.version = 507;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_int_equal(r.window_pool_tokens, 0);
    assert_int_equal(r.max_tokens, (uint64_t)r.budget.kv_bytes / 49152);
    in.engine.version = 0;
    /* pipeline parallelism: the configurator counts the whole model's layers on each stage */
    in.pipeline = 2;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    A = (uint64_t)r.budget.kv_bytes;
    assert_int_equal(r.max_tokens, A * 1000 / 44236800);
    in.pipeline = 1;
    /* 0.5.14 on, --max-running-requests 64 with --disable-radix-cache
     * (SWAChunkCapPoolConfigurator): the window pool holds 64 x 258 + 2 x chunked_prefill_size
     * (8,192 on this H100) + a page, the full pool the rest at F nf */
    in.engine.max_num_seqs = 64;
    in.engine.prefix_caching = GS_CHUNKED_PREFILL_OFF;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    A = (uint64_t)r.budget.kv_bytes;
    assert_true(r.window_chunk_cap);
    assert_int_equal(r.window_pool_tokens, 64 * 258 + 2 * 8192 + 1);
    assert_int_equal(r.max_tokens, (A - 32897ULL * 24576) / 24576);
    /* ... --chunked-prefill-size 4096 */
    in.engine.max_num_batched_tokens = 4096;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_int_equal(r.window_pool_tokens, 64 * 258 + 2 * 4096 + 1);
    in.engine.max_num_batched_tokens = 0;
    /* 0.5.13 sizes the pools by the ratio whatever the requests */
    in.engine.version = 513;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_false(r.window_chunk_cap);
    assert_int_equal(r.max_tokens, (uint64_t)r.budget.kv_bytes * 1000 / 44236800);
    in.engine.version = 0;
    /* with the radix cache (the default) too */
    in.engine.prefix_caching = 0;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_false(r.window_chunk_cap);
    /* a decode worker (its chunk cache): 16 requests + 2 x 16 extra slots of window + page, no
     * prefill chunks; 64 requests, no extra slots */
    in.engine.disaggregation = GS_SGLANG_ROLE_DECODE;
    in.engine.max_num_seqs = 16;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_int_equal(r.window_pool_tokens, 16 * 258 + 32 * (128 + 1));
    in.engine.max_num_seqs = 64;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_int_equal(r.window_pool_tokens, 64 * 258);
    in.engine.disaggregation = GS_SGLANG_ROLE_NONE;
    in.engine.max_num_seqs = 0;
    /* Laguna-XS.2 (40 layers, 10 full, window 512; 8 x 128 x 2 x 2 = 4,096 B a layer):
     * listed from 0.5.12; 0.5.13 evicts every window's worth, 0.5.14 every 128 tokens */
    const struct gs_arch laguna = fixture_arch_file("laguna/poolside__Laguna-XS.2-FP8.json");
    in.arch = &laguna;
    in.engine.version = 511;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_int_equal(r.window_pool_tokens, 0);
    in.engine.version = 513;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    A = (uint64_t)r.budget.kv_bytes;
    assert_int_equal(r.max_tokens, A * 1000 / (40960ULL * 1000 + 122880ULL * 800));
    assert_int_equal(r.window_seq_tokens, 512 + 512 + 1);
    in.engine.version = 514;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_int_equal(r.window_seq_tokens, 512 + 128 + 1 + 1);
    /* Gemma 4 26B-A4B from 0.5.11, its config turned around (global layers full): 5 full
     * layers of 2 KV heads x (512 + 512) x 2 B = 4,096 B, 25 sliding of 8 x (256 + 256) x 2 B =
     * 8,192 B: F nf = 20,480, S ns = 204,800 */
    const struct gs_arch gemma4 = fixture_arch_file("gemma4/google__gemma-4-26B-A4B.json");
    in.arch = &gemma4;
    in.engine.version = 510;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_int_equal(r.window_pool_tokens, 0);
    in.engine.version = 0;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    A = (uint64_t)r.budget.kv_bytes;
    assert_int_equal(r.max_tokens, A * 1000 / (20480ULL * 1000 + 204800ULL * 800));
    assert_int_equal(r.window_seq_tokens, 1024 + 128 + 1 + 1);
    /* layers reading another's cache (num_kv_shared_layers, Gemma 4 E2B / E4B): SGLang's pools
     * keep a buffer for each of them all the same and its layer lists count them, so the last 10
     * layers shared change nothing: the same 5 full and 25 sliding layers, the same split */
    const uint64_t unshared_token_bytes = r.kv.bytes_per_token;
    const struct gs_arch shared = fixture_arch_file_set_in(
        "gemma4/google__gemma-4-26B-A4B.json", "text_config", "num_kv_shared_layers", "10");
    in.arch = &shared;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_int_equal(r.kv.full_layers, 5);
    assert_int_equal(r.kv.window_layers, 25);
    assert_int_equal(r.kv.bytes_per_token, unshared_token_bytes);
    A = (uint64_t)r.budget.kv_bytes;
    assert_int_equal(r.max_tokens, A * 1000 / (20480ULL * 1000 + 204800ULL * 800));
    assert_true(r.window_pool_tokens > 0);
    /* one pool (inference.disable_hybrid_swa_memory, or a model SGLang keeps in one): every
     * layer, the shared ones too, every token */
    in.engine.one_kv_pool = true;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_int_equal(r.window_pool_tokens, 0);
    assert_int_equal(r.max_tokens, (uint64_t)r.budget.kv_bytes / unshared_token_bytes);
    in.engine.one_kv_pool = false;
    /* vLLM gives them no cache: the first 20 layers' worth */
    in.engine.engine = GS_ENGINE_VLLM;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_int_equal(r.kv.full_layers + r.kv.window_layers, 20);
    in.engine.engine = GS_ENGINE_SGLANG;
}

/* A --disaggregation-mode decode worker's state pool for a hybrid
 * (disaggregation/decode.py HybridMambaDecodeReqToTokenPool; docs/engines.md, "A decode
 * worker's state slots"): with 16 requests given (R; the radix cache off, so the budget takes
 * K = R slots), 2 R = 32 extra slots for requests still arriving from prefill workers. P one
 * sequence's states, the pool one padding slot more. */
static void test_sglang_decode_worker_states(void **state)
{
    (void)state;
    const struct gs_arch a = fixture_arch_file("qwen3_5/Qwen__Qwen3.5-27B.json");
    struct gs_inference_input in = sglang_on_h100(&a);
    in.engine.disaggregation = GS_SGLANG_ROLE_DECODE;
    in.engine.max_num_seqs = 16;
    struct gs_inference_result r;
    /* 0.5.11 on: max(K, R + E) = 48 slots held, the budget's 16 + its padding slot taken */
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    const uint64_t P = r.kv.state_bytes_per_sequence;
    assert_true(P > 0);
    assert_int_equal(r.state_slots, 16);
    assert_int_equal(r.state_decode_extra, 32);
    assert_int_equal(r.state_pool_bytes, 49 * P);
    assert_int_equal(r.state_unbudgeted_bytes, 32 * P);
    /* 64 requests: no extra slots (only up to 32) */
    in.engine.max_num_seqs = 64;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_int_equal(r.state_decode_extra, 0);
    assert_int_equal(r.state_pool_bytes, 65 * P);
    assert_int_equal(r.state_unbudgeted_bytes, 0);
    in.engine.max_num_seqs = 16;
    /* 0.5.10: min(K, R + E) = K, its padding slot outside the budget as on any worker */
    in.engine.version = 510;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_int_equal(r.state_pool_bytes, 17 * P);
    assert_int_equal(r.state_unbudgeted_bytes, P);
    /* 0.5.9: K + E = 48 */
    in.engine.version = 509;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_int_equal(r.state_pool_bytes, 49 * P);
    assert_int_equal(r.state_unbudgeted_bytes, 33 * P);
    /* a prefill worker keeps the budget's pool */
    in.engine.disaggregation = GS_SGLANG_ROLE_PREFILL;
    in.engine.version = 0;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_int_equal(r.state_decode_extra, 0);
}

/* SGLang's request-to-token table (docs/engines.md, "The request-to-token table"): rows of
 * int32 slots for context_len + 4 tokens, one row a request it can run. Llama 3.1 8B on the
 * H100 of test_sglang_rule. */
static void test_sglang_request_table(void **state)
{
    (void)state;
    struct gs_arch a = llama(4096, 32, 32, 8, 14336, 128256);
    struct gs_inference_input in = sglang_on_h100(&a);
    struct gs_inference_result r;
    /* 0.5.14 on: min(max(T / 8,192 x 512, 2,048), 4,096) requests - T is over 65,536 tokens,
     * so 4,096 - and a padding row */
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_true(r.max_tokens * 512 / 8192 > 4096);
    assert_int_equal(r.request_table_rows, 4097);
    assert_int_equal(r.request_table_bytes, 4097ULL * (8192 + 4) * 4);
    /* 131,072 tokens of context: T x 512 / 131,072 is under 2,048, so 2,048 (1.07 GB) */
    in.context_length = 131072;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_true(r.max_tokens * 512 / 131072 < 2048);
    assert_int_equal(r.request_table_bytes, 2049ULL * (131072 + 4) * 4);
    /* 0.5.10-0.5.11: no padding row; 0.4.0-0.4.6: "size=max_num_reqs + 1" */
    in.engine.version = 511;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_int_equal(r.request_table_rows, 2048);
    in.engine.version = 406;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_int_equal(r.request_table_rows, 2049);
    in.engine.version = 0;
    in.context_length = 8192;
    /* --max-running-requests 64 */
    in.engine.max_num_seqs = 64;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_int_equal(r.request_table_rows, 65);
    /* a decode worker of 16 requests: 2 x 16 rows more for requests still arriving */
    in.engine.max_num_seqs = 16;
    in.engine.disaggregation = GS_SGLANG_ROLE_DECODE;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_int_equal(r.request_table_rows, 16 + 1 + 32);
    in.engine.disaggregation = GS_SGLANG_ROLE_NONE;
    /* speculative decoding (EAGLE, 3 tokens: 4 verified) widens the rows by them; it caps the
     * requests at 48 where none are given */
    in.engine.max_num_seqs = 0;
    in.engine.spec_method = GS_SPEC_EAGLE;
    in.engine.spec_tokens = 3;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_int_equal(r.request_table_rows, 49);
    assert_int_equal(r.request_table_bytes, 49ULL * (8192 + 4 + 4) * 4);
}

/* SGLang's baseline (model_runner.init_torch_distributed): the CUDA
 * context and the process groups' buffers are gone before it is taken; no
 * profile growth (SGLang does not profile). */
static void test_sglang_preload(void **state)
{
    (void)state;
    assert_int_equal(gs_sglang_preload_bytes(GS_LINK_PCIE, 1, false), 287047680ULL);
    assert_int_equal(gs_sglang_preload_bytes(GS_LINK_PCIE, 4, false), 287047680ULL + 139586437ULL);
    assert_int_equal(gs_sglang_preload_bytes(GS_LINK_NVSWITCH, 8, false),
                     287047680ULL + 2050846883ULL);
    /* on 4 x L4 (22.161 GiB each) that leaves 21.76 GiB; the QwQ-32B log saw 21.63 */
    assert_int_equal(23795192561ULL - gs_sglang_preload_bytes(GS_LINK_PCIE, 4, false),
                     23368558444ULL);
}

static uint64_t permille(uint64_t bytes, uint64_t p)
{
    return bytes / 1000 * p + bytes % 1000 * p / 1000;
}

/* TGI 3.x (flash_causal_lm.warmup since PR #2808): get_free_memory(device,
 * MEMORY_FRACTION x TGI_WIGGLE_ROOM) after the warm-up prefill, the warm-up
 * batch's blocks added back, so the cache is fraction x wiggle x total minus
 * everything else, the wiggle 0.90 from 3.3 (PR #3189) and 0.93 in 3.1-3.2
 * (PR #2958); flashinfer's one-token pages. Not 0.9 x the free memory: with
 * 19 GB in use that would leave 1.9 GB more. */
static void test_tgi_rule(void **state)
{
    (void)state;
    struct gs_arch a = llama(4096, 32, 32, 8, 14336, 128256);
    struct gs_inference_input in = fixture_llama3_8b_on_h100(&a);
    in.engine.engine = GS_ENGINE_TGI;
    in.engine.has_activation_bytes = true;
    in.engine.activation_bytes = 1000000000;
    in.engine.has_non_torch_bytes = true;
    in.engine.non_torch_bytes = 2000000000;
    struct gs_inference_result r;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    const uint64_t used = 16060522496ULL + 1000000000 + 2000000000;
    assert_int_equal(r.block_size, 1);
    assert_int_equal((uint64_t)r.budget.kv_bytes, permille(85061827297ULL, 900) - used);
    assert_int_equal(r.max_tokens, (permille(85061827297ULL, 900) - used) / 131072);
    /* fraction 0.8: 0.8 x 0.9 of the total */
    in.engine.cuda_memory_fraction_permille = 800;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_int_equal((uint64_t)r.budget.kv_bytes,
                     permille(permille(85061827297ULL, 800), 900) - used);
    /* 3.1: TGI_WIGGLE_ROOM 0.93 */
    in.engine.cuda_memory_fraction_permille = 0;
    in.engine.version = 30100;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_int_equal((uint64_t)r.budget.kv_bytes, permille(85061827297ULL, 930) - used);
}

/* TGI before 3.0 (2.2.0's warmup): 0.95 x the memory free after the warm-up
 * prefill, measured with the warm-up batch's blocks allocated, which are then
 * added back; BLOCK_SIZE 16. The 2.x launcher defaults max_batch_prefill_tokens
 * to max_input_tokens + 50 (4,145 for max_total_tokens 4096), and the warm-up
 * requests ask for prefill logprobs: the logits and their log_softmax over all
 * 4,145 tokens stay reserved (2 x 4,145 x 128,256 x 2 bytes), and the unfused
 * MLP holds act(gate) next to gate_up and the product (4,145 x 14,336 x 2 more
 * than vLLM's figure). Llama 3.1 8B on an A10G: two warm-up requests (4,095
 * and 50 prompt tokens), each with 256 blocks of 16 x 131,072 bytes. */
static void test_tgi_warmup_before_3(void **state)
{
    (void)state;
    struct gs_arch a = llama(4096, 32, 32, 8, 14336, 128256);
    struct gs_inference_input in = fixture_llama3_8b_on_h100(&a);
    in.engine.engine = GS_ENGINE_TGI;
    in.engine.version = 20200;
    in.context_length = 4096;
    in.gpu.total_bytes = 23684186112ULL; /* A10G, torch total_memory 22587 MB */
    in.engine.has_non_torch_bytes = true;
    in.engine.non_torch_bytes = 458846371;
    struct gs_inference_result r;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_int_equal(r.block_size, 16);
    assert_int_equal(r.max_num_batched_tokens, 4145);
    assert_int_equal(r.max_num_seqs, 2);
    /* vLLM's per-token layer figure 2 x (2 x 4096 + 3 x 14336), the unfused product,
     * then the logits and log_softmax */
    const uint64_t act = 4145ULL * 2 * (2 * 4096 + 3 * 14336) + 4145ULL * 14336 * 2 +
                         2ULL * 4145 * 128256 * 2;
    assert_int_equal(r.budget.activation_bytes, act);
    const uint64_t warm = 512ULL * 16 * 131072;
    const uint64_t free_bytes = 23684186112ULL - 16060522496ULL - act - 458846371 - warm;
    assert_int_equal((uint64_t)r.budget.kv_bytes, permille(free_bytes, 950) + warm);
    assert_int_equal(r.max_tokens, (permille(free_bytes, 950) + warm) / (16 * 131072) * 16);
    /* 1.4.0 had no wiggle room: the warm-up blocks cancel */
    in.engine.version = 10400;
    in.engine.max_num_batched_tokens = 4145;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_int_equal((uint64_t)r.budget.kv_bytes, free_bytes + warm);
}

/* TGI reads a tied lm_head again (TensorParallelHead.load on embed_tokens,
 * Weights.get_tensor copying to the device): a second vocab x hidden tensor,
 * split over the tensor ranks. */
static void test_tgi_tied_head_copy(void **state)
{
    (void)state;
    struct gs_arch a = fixture_llama(2048, 18, 8, 1, 16384, 256000, true);
    struct gs_inference_input in = fixture_llama3_8b_on_h100(&a);
    in.engine.engine = GS_ENGINE_TGI;
    in.weights_bytes = 5012344832ULL;
    struct gs_inference_result r;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_int_equal(r.budget.weights_bytes, 5012344832ULL + 256000ULL * 2048 * 2);
    in.tensor = 2;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_int_equal(r.budget.weights_bytes, 5012344832ULL + 128000ULL * 2048 * 2);
}

/* t5-large (24 decoder layers, 16 heads x 64, fp32 checkpoint): self-attention
 * caches 2 x 16 x 64 x 4 = 8,192 B per token per layer over the output
 * tokens; cross-attention holds the same per prompt token, computed once.
 * 512 prompt + 64 output tokens, page 1 (generic):
 * 24 x 8,192 x 64 + 24 x 8,192 x 512 = 113,246,208 bytes. */
static void test_encoder_decoder_cache(void **state)
{
    (void)state;
    struct gs_arch t5 = fixture_arch("{\"model_type\":\"t5\",\"d_model\":1024,\"num_layers\":24,"
                                     "\"num_heads\":16,\"d_kv\":64,\"d_ff\":4096,"
                                     "\"vocab_size\":32128,\"num_decoder_layers\":24}");
    struct gs_inference_input in;
    memset(&in, 0, sizeof(in));
    in.arch = &t5;
    in.batch_size = 1;
    in.context_length = 576;
    in.prompt_tokens = 512;
    in.tensor = in.pipeline = 1;
    in.model_bytes = 4;
    in.engine.engine = GS_ENGINE_GENERIC;
    struct gs_inference_result r;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_int_equal(r.kv.bytes_per_token, 24 * 8192);
    assert_int_equal(r.kv_needed_bytes, 113246208ULL);
}

/* TensorRT-LLM: 0.9 of the memory free after everything else (its
 * free_gpu_memory_fraction default, TensorRT-LLM KV cache docs). */
static void test_tensorrt_rule(void **state)
{
    (void)state;
    struct gs_arch a = llama(4096, 32, 32, 8, 14336, 128256);
    struct gs_inference_input in = fixture_llama3_8b_on_h100(&a);
    in.engine.engine = GS_ENGINE_TENSORRT_LLM;
    in.engine.has_activation_bytes = true;
    in.engine.activation_bytes = 1000000000;
    in.engine.has_non_torch_bytes = true;
    in.engine.non_torch_bytes = 2000000000;
    struct gs_inference_result r;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    const uint64_t free_bytes = 85061827297ULL - 16060522496ULL - 1000000000 - 2000000000;
    assert_int_equal((uint64_t)r.budget.kv_bytes, free_bytes / 1000 * 900 + free_bytes % 1000 * 900 / 1000);
}

/* Llama-2-70B by format (docs/serving-memory.md, Weights by format; GB =
 * 1e9): bf16 137.95, fp8 69.50, GPTQ g128 36.64, nf4+DQ 36.36. */
static void test_weight_formats_70b(void **state)
{
    (void)state;
    struct gs_arch a = llama(8192, 80, 64, 8, 28672, 32000);
    struct gs_param_count c;
    assert_int_equal(gs_arch_count_params(&a, &c, NULL), GS_OK);
    const struct {
        enum gs_weight_format f;
        uint64_t centi_gb;
    } rows[] = {{GS_WF_BF16, 13795}, {GS_WF_FP8, 6950}, {GS_WF_GPTQ, 3664}, {GS_WF_NF4_DQ, 3636}};
    for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        struct gs_weights_request r = {rows[i].f, 0, 1, 1, false, 0, {GS_SPLIT_VLLM, 0, {0}, 0},
                                       false};
        uint64_t bytes = 0;
        assert_int_equal(gs_weights_bytes(&a, &c, &r, &bytes, NULL), GS_OK);
        if ((bytes + 5000000) / 10000000 != rows[i].centi_gb)
            fail_msg("%s: %llu bytes", gs_weight_format_name(rows[i].f), (unsigned long long)bytes);
    }
    /* bf16 exactly 2 x 68,976,648,192; at TP 8 each GPU holds an eighth of every
     * sharded tensor plus its replicated norms */
    struct gs_weights_request bf16 = {GS_WF_BF16, 0, 1, 1, false, 0, {GS_SPLIT_VLLM, 0, {0}, 0},
                                      false};
    uint64_t whole = 0, shard = 0;
    assert_int_equal(gs_weights_bytes(&a, &c, &bf16, &whole, NULL), GS_OK);
    assert_int_equal(whole, 137953296384ULL);
    bf16.tensor = 8;
    assert_int_equal(gs_weights_bytes(&a, &c, &bf16, &shard, NULL), GS_OK);
    /* norms: 80 x 2 x 8192 + 8192 = 1,318,912 parameters stay whole on every GPU */
    assert_int_equal(shard, (137953296384ULL - 2 * 1318912ULL) / 8 + 2 * 1318912ULL);
}

/* Every stage's weights in one pass agree with each stage asked alone, and
 * add up: Llama-2-70B (80 layers) in 3 stages splits 27/27/26 (vLLM
 * get_pp_indices), the embedding on the first stage, the head and final norm
 * on the last. */
static void test_weight_stages_in_one_pass(void **state)
{
    (void)state;
    struct gs_arch a = llama(8192, 80, 64, 8, 28672, 32000);
    struct gs_param_count c;
    assert_int_equal(gs_arch_count_params(&a, &c, NULL), GS_OK);
    struct gs_weights_request r = {GS_WF_BF16, 0, 2, 3, false, 0, {GS_SPLIT_VLLM, 0, {0}, 0},
                                   false};
    uint64_t each[3] = {0, 0, 0}, most = 0, whole = 0, ignored = 0;
    assert_int_equal(gs_weights_bytes_memo(&a, &r, NULL, &ignored, each, NULL), GS_OK);
    assert_int_equal(gs_weights_bytes(&a, &c, &r, &most, NULL), GS_OK);
    uint64_t top = 0;
    for (uint64_t s = 0; s < 3; s++) {
        uint64_t alone = 0;
        assert_int_equal(gs_weights_bytes_stage(&a, &r, s, &alone, NULL), GS_OK);
        assert_int_equal(each[s], alone);
        top = each[s] > top ? each[s] : top;
    }
    assert_int_equal(top, most);
    /* the first two stages hold 27 layers each and differ only by the embedding */
    const uint64_t embed_rank = 32000ULL / 2 * 8192 * 2; /* vocab-parallel rows, bf16 */
    assert_int_equal(each[0] - each[1], embed_rank);
    /* at TP 1 the stages together hold the whole model exactly once */
    r.tensor = 1;
    assert_int_equal(gs_weights_bytes_memo(&a, &r, NULL, &ignored, each, NULL), GS_OK);
    struct gs_weights_request one = {GS_WF_BF16, 0, 1, 1, false, 0, {GS_SPLIT_VLLM, 0, {0}, 0},
                                     false};
    assert_int_equal(gs_weights_bytes(&a, &c, &one, &whole, NULL), GS_OK);
    assert_int_equal(each[0] + each[1] + each[2], whole);
}

/* The weights memo answers what gs_weights_bytes and _stages answer, from
 * its entry the second time (a poisoned entry shows it is read), keeps no
 * failure, and replaces its oldest entry when full. */
static void test_weights_memo(void **state)
{
    (void)state;
    struct gs_arch a = llama(8192, 80, 64, 8, 28672, 32000);
    struct gs_param_count c;
    assert_int_equal(gs_arch_count_params(&a, &c, NULL), GS_OK);
    static struct gs_weights_memo memo; /* zeroed */
    memset(&memo, 0, sizeof(memo));
    struct gs_weights_request r = {GS_WF_AWQ, 0, 4, 2, false, 0, {GS_SPLIT_VLLM, 0, {0}, 0}, false};
    uint64_t most = 0, plain = 0, each[2] = {0, 0}, alone[2] = {0, 0};
    assert_int_equal(gs_weights_bytes_memo(&a, &r, &memo, &most, NULL, NULL), GS_OK);
    assert_int_equal(gs_weights_bytes(&a, &c, &r, &plain, NULL), GS_OK);
    assert_int_equal(most, plain);
    assert_int_equal(memo.count, 1);
    uint64_t ignored = 0;
    assert_int_equal(gs_weights_bytes_memo(&a, &r, NULL, &ignored, alone, NULL), GS_OK);
    assert_int_equal(gs_weights_bytes_memo(&a, &r, &memo, &most, each, NULL), GS_OK);
    assert_int_equal(each[0], alone[0]);
    assert_int_equal(each[1], alone[1]);
    assert_int_equal(memo.count, 1); /* the first pass kept the stages too */
    memo.entries[0].most = 7;
    memo.entries[0].stages[1] = 9;
    assert_int_equal(gs_weights_bytes_memo(&a, &r, &memo, &most, each, NULL), GS_OK);
    assert_int_equal(most, 7);
    assert_int_equal(each[1], 9);
    /* another request is another entry; a failing one (AWQ at TP 3 splits a group) is not kept */
    r.format = GS_WF_BF16;
    assert_int_equal(gs_weights_bytes_memo(&a, &r, &memo, &most, NULL, NULL), GS_OK);
    assert_true(most > 7); /* computed, not entry 0's 7 */
    assert_int_equal(memo.count, 2);
    struct gs_weights_request bad = {GS_WF_AWQ, 0, 3, 1, false, 0, {GS_SPLIT_VLLM, 0, {0}, 0},
                                     false};
    struct gs_error err;
    gs_error_init(&err);
    assert_int_equal(gs_weights_bytes_memo(&a, &bad, &memo, &most, NULL, &err), GS_ERR_INVALID);
    assert_string_equal(err.items[0].pointer, "/parallelism/tensor");
    assert_int_equal(memo.count, 2);
    /* full: the oldest entry (the poisoned one) goes first */
    for (uint64_t p = 1; memo.count < GS_WEIGHTS_MEMO_ENTRIES; p++) {
        struct gs_weights_request more = {GS_WF_FP8, 0, 1, p, false, 0, {GS_SPLIT_VLLM, 0, {0}, 0},
                                          false};
        assert_int_equal(gs_weights_bytes_memo(&a, &more, &memo, &most, NULL, NULL), GS_OK);
    }
    struct gs_weights_request last = {GS_WF_FP8, 0, 2, 1, false, 0, {GS_SPLIT_VLLM, 0, {0}, 0},
                                      false};
    assert_int_equal(gs_weights_bytes_memo(&a, &last, &memo, &most, NULL, NULL), GS_OK);
    r.format = GS_WF_AWQ;
    assert_int_equal(gs_weights_bytes_memo(&a, &r, &memo, &most, NULL, NULL), GS_OK);
    assert_int_equal(most, plain);
    /* no memo: computed as gs_weights_bytes does */
    assert_int_equal(gs_weights_bytes_memo(&a, &r, NULL, &most, each, NULL), GS_OK);
    assert_int_equal(most, plain);
    assert_int_equal(each[1], alone[1]);
}

/* Weights by format (docs/serving-memory.md, Weights by format; GB = 1e9):
 * Llama-2-7B bf16 13.48, GPTQ g128 3.89, nf4+DQ 3.87; a TP degree that
 * splits a GPTQ group is a 400. */
static void test_weight_formats(void **state)
{
    (void)state;
    struct gs_arch a = llama(4096, 32, 32, 32, 11008, 32000);
    struct gs_param_count c;
    assert_int_equal(gs_arch_count_params(&a, &c, NULL), GS_OK);
    const struct {
        enum gs_weight_format f;
        uint64_t centi_gb;
    } rows[] = {{GS_WF_BF16, 1348}, {GS_WF_FP8, 700},   {GS_WF_INT8, 701},
                {GS_WF_GPTQ, 389},  {GS_WF_AWQ, 389},   {GS_WF_NF4, 417},
                {GS_WF_NF4_DQ, 387}};
    for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        struct gs_weights_request r = {rows[i].f, 0, 1, 1, false, 0, {GS_SPLIT_VLLM, 0, {0}, 0},
                                       false};
        uint64_t bytes = 0;
        assert_int_equal(gs_weights_bytes(&a, &c, &r, &bytes, NULL), GS_OK);
        if ((bytes + 5000000) / 10000000 != rows[i].centi_gb)
            fail_msg("%s: %llu bytes", gs_weight_format_name(rows[i].f), (unsigned long long)bytes);
    }
    /* exact: nf4+DQ = ceil(6,476,005,376 x 2113/4096) + 262,410,240 x 2 */
    struct gs_weights_request nf4 = {GS_WF_NF4_DQ, 0, 1, 1, false, 0, {GS_SPLIT_VLLM, 0, {0}, 0},
                                     false};
    uint64_t bytes = 0;
    assert_int_equal(gs_weights_bytes(&a, &c, &nf4, &bytes, NULL), GS_OK);
    assert_int_equal(bytes, 3865591808ULL);
    /* TP 2 halves the linears: 11008/2 = 5504 = 43 x 128, fine; TP 8: 1376 is not a multiple of 128 */
    struct gs_weights_request gptq = {GS_WF_GPTQ, 128, 8, 1, false, 0, {GS_SPLIT_VLLM, 0, {0}, 0},
                                      false};
    struct gs_error err;
    gs_error_init(&err);
    assert_int_equal(gs_weights_bytes(&a, &c, &gptq, &bytes, &err), GS_ERR_INVALID);
    assert_string_equal(err.items[0].pointer, "/parallelism/tensor");
    gptq.tensor = 2;
    assert_int_equal(gs_weights_bytes(&a, &c, &gptq, &bytes, NULL), GS_OK);
}

/* The layout memo answers what gs_kv_layout_stage answers, for every key it
 * holds and after it has replaced its oldest entries; a layout that fails is
 * not remembered (it fails again, with its error). */
static void test_kv_layout_memo(void **state)
{
    (void)state;
    struct gs_arch l70 = llama(8192, 80, 64, 8, 28672, 32000);
    struct gs_kv_memo *memo = calloc(1, sizeof(*memo));
    assert_non_null(memo);
    for (int round = 0; round < 3; round++) {
        for (uint64_t t = 1; t <= 8; t *= 2) {
            for (uint64_t p = 1; p <= 5; p++) {
                for (int d = 0; d < 2; d++) {
                    const enum gs_kv_dtype dtype = d ? GS_KV_FP8 : GS_KV_AUTO;
                    const uint64_t stage = p > 1 ? p - 1 : UINT64_MAX;
                    struct gs_kv_layout want, got;
                    assert_int_equal(
                        gs_kv_layout_stage(&l70, dtype, 2, t, p, stage, false, &want, NULL), GS_OK);
                    assert_int_equal(gs_kv_layout_memo(&l70, dtype, 2, t, p, stage, false, NULL, memo,
                                                       &got, NULL),
                                     GS_OK);
                    assert_int_equal(got.bytes_per_token, want.bytes_per_token);
                    assert_int_equal(got.bytes_per_token_total, want.bytes_per_token_total);
                    assert_int_equal(got.full_layers, want.full_layers);
                    assert_int_equal(got.full_token_bytes, want.full_token_bytes);
                    assert_int_equal(got.layer_token_bytes, want.layer_token_bytes);
                }
            }
        }
        /* 40 keys: the memo keeps 32 and has replaced the oldest */
        assert_int_equal(memo->count, GS_KV_MEMO_ENTRIES);
    }
    struct gs_kv_layout kv;
    const unsigned held = memo->count;
    const unsigned next = memo->next;
    assert_int_equal(gs_kv_layout_memo(&l70, GS_KV_FP8_DS_MLA, 2, 1, 1, UINT64_MAX, false, NULL, memo,
                                       &kv, NULL),
                     GS_ERR_INVALID);
    assert_int_equal(memo->count, held);
    assert_int_equal(memo->next, next);
    free(memo);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kv_per_token),
        cmocka_unit_test(test_weight_stages_in_one_pass),
        cmocka_unit_test(test_weights_memo),
        cmocka_unit_test(test_kv_mla),
        cmocka_unit_test(test_kv_batch_llama2_70b),
        cmocka_unit_test(test_sliding_window),
        cmocka_unit_test(test_vllm_log_reproduced),
        cmocka_unit_test(test_solver_boundaries),
        cmocka_unit_test(test_solver_sweep),
        cmocka_unit_test(test_model_limit_caps_context),
        cmocka_unit_test(test_does_not_start),
        cmocka_unit_test(test_weights_leave_no_cache),
        cmocka_unit_test(test_tensorrt_rule),
        cmocka_unit_test(test_weight_formats),
        cmocka_unit_test(test_weight_formats_70b),
        cmocka_unit_test(test_sglang_fraction_0_4_0),
        cmocka_unit_test(test_sglang_fraction_0_4_8),
        cmocka_unit_test(test_sglang_fraction_0_4_6_and_0_4_7),
        cmocka_unit_test(test_sglang_fraction_0_5_3),
        cmocka_unit_test(test_sglang_vlm_fraction),
        cmocka_unit_test(test_sglang_rule),
        cmocka_unit_test(test_sglang_hybrid_swa_pools),
        cmocka_unit_test(test_sglang_decode_worker_states),
        cmocka_unit_test(test_sglang_request_table),
        cmocka_unit_test(test_sglang_preload),
        cmocka_unit_test(test_tgi_rule),
        cmocka_unit_test(test_tgi_warmup_before_3),
        cmocka_unit_test(test_tgi_tied_head_copy),
        cmocka_unit_test(test_encoder_decoder_cache),
        cmocka_unit_test(test_kv_layout_memo),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
