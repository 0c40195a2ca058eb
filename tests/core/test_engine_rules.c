/*
 * test_engine_rules.c - the serving engines' rules by release (vLLM's profile
 * and release ranges, MLA padding and workspace, the sampler, MoE and
 * multimodal profile terms, MXFP4 layouts, non-torch memory, V0's buffers,
 * CUDA graphs, the hybrid allocator, max_model_len) and the budget terms
 * they share with SGLang and TGI (rotary tables, the allocator's rounding,
 * speculative reserves, all-to-all buffers), against the engines' code and
 * logs cited with each case. test_inference.c holds the KV cache, the weight
 * formats and each engine's pool rule.
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
#include "gs/estimate.h"
#include "gs/vllm.h"
#include "gs/sglang.h"
#include "gs/runtime.h"
#include "gs/units.h"
#include "gs/weights.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct gs_arch llama(uint64_t h, uint64_t L, uint64_t a, uint64_t k, uint64_t i, uint64_t V)
{
    return fixture_llama(h, L, a, k, i, V, false);
}

/* ------------------------------------------------ vLLM's rules by release */

static struct gs_vllm_profile profile(uint32_t version, uint64_t total, bool a100, uint64_t mml,
                                      bool windows, bool mla, uint8_t chunked)
{
    const struct gs_vllm_profile_input in = {total, a100, mml,   windows, mla,
                                             false, 0,    0,   chunked, false};
    struct gs_vllm_profile out;
    gs_vllm_profile(gs_vllm_release_for(version), &in, &out);
    return out;
}

/* V0 (vllm/config.py SchedulerConfig, vllm/engine/arg_utils.py
 * create_engine_config): chunked prefill on by default only past 32,768
 * tokens of context without sliding windows (and from 0.7 not for MLA);
 * then 512 tokens (0.6.x) or 2,048 (0.7 on), else max(max_model_len, 2048),
 * always 256 sequences. */
static void test_vllm_v0_profile(void **state)
{
    (void)state;
    const uint64_t h100 = 85061827297ULL;
    struct gs_vllm_profile p = profile(604, h100, false, 29000, false, false, 0);
    assert_false(p.chunked_prefill);
    assert_int_equal(p.tokens, 29000);
    assert_int_equal(p.seqs, 256);
    p = profile(604, h100, false, 1024, false, false, 0);
    assert_int_equal(p.tokens, 2048);
    p = profile(604, h100, false, 40000, false, false, 0);
    assert_true(p.chunked_prefill);
    assert_int_equal(p.tokens, 512);
    p = profile(703, h100, false, 40000, false, false, 0);
    assert_int_equal(p.tokens, 2048);
    p = profile(703, h100, false, 40000, true, false, 0); /* a sliding window: no chunking */
    assert_int_equal(p.tokens, 40000);
    p = profile(703, h100, false, 40000, false, true, 0); /* MLA from 0.7: no chunking */
    assert_int_equal(p.tokens, 40000);
    p = profile(703, h100, false, 8192, false, false, GS_CHUNKED_PREFILL_ON);
    assert_int_equal(p.tokens, 2048);
}

/* V1 (vllm/engine/arg_utils.py get_batch_defaults, OpenAI server): 8,192
 * tokens on GPUs of 70 GiB or more other than A100 (PR #17885), 2,048
 * otherwise; 1,024 sequences on the large GPUs from 0.10, 256 before and on
 * the others; without chunked prefill at least max_model_len tokens; never
 * more tokens than max_num_seqs x max_model_len. */
static void test_vllm_v1_profile(void **state)
{
    (void)state;
    const uint64_t h100 = 85061827297ULL, a100 = 84986665369ULL, l40s = 47695611822ULL;
    struct gs_vllm_profile p = profile(1900, h100, false, 8192, false, false, 0);
    assert_true(p.chunked_prefill);
    assert_int_equal(p.tokens, 8192);
    assert_int_equal(p.seqs, 1024);
    p = profile(1900, a100, true, 8192, false, false, 0);
    assert_int_equal(p.tokens, 2048);
    assert_int_equal(p.seqs, 256);
    p = profile(1900, l40s, false, 8192, false, false, 0);
    assert_int_equal(p.tokens, 2048);
    p = profile(905, h100, false, 8192, false, false, 0);
    assert_int_equal(p.seqs, 256);
    p = profile(1900, h100, false, 32768, false, false, GS_CHUNKED_PREFILL_OFF);
    assert_int_equal(p.tokens, 32768);
    p = profile(1900, h100, false, 4, false, false, 0); /* 1,024 sequences x 4 tokens */
    assert_int_equal(p.tokens, 4096);
    assert_int_equal(p.seqs, 1024);

    /* the Python LLM class (UsageContext.LLM_CLASS): 16,384 tokens on the H100, 8,192 on the
     * A100 and the L40S, the same sequences */
    struct gs_vllm_profile_input in = {h100, false, 8192, false, false, false, 0, 0, 0, true};
    gs_vllm_profile(gs_vllm_release_for(1900), &in, &p);
    assert_int_equal(p.tokens, 16384);
    assert_int_equal(p.seqs, 1024);
    in.gpu_total_bytes = a100;
    in.gpu_is_a100 = true;
    gs_vllm_profile(gs_vllm_release_for(1900), &in, &p);
    assert_int_equal(p.tokens, 8192);
    assert_int_equal(p.seqs, 256);
    in.gpu_total_bytes = l40s;
    in.gpu_is_a100 = false;
    gs_vllm_profile(gs_vllm_release_for(2600), &in, &p);
    assert_int_equal(p.tokens, 8192);
}

/* Which rules a release gets: V0 before 0.8; V1 from 0.8.0, but pipeline
 * parallelism falls back to V0 until 0.9.2; CUDA graphs subtracted and a
 * 0.92 utilization from 0.21 (PR #38284); before 0.6.4 not modeled. */
static void test_vllm_release_ranges(void **state)
{
    (void)state;
    assert_false(gs_vllm_release_for(604)->v1);
    assert_int_equal(gs_vllm_release_for(604)->non_torch, GS_VLLM_NT_DEVICE);
    assert_int_equal(gs_vllm_release_for(606)->non_torch, GS_VLLM_NT_GROWTH);
    assert_true(gs_vllm_release_for(702)->mla_pad);
    assert_true(gs_vllm_release_for(703)->mla_pad);
    assert_false(gs_vllm_release_for(701)->mla_pad);
    assert_true(gs_vllm_release_for(800)->v1);
    assert_false(gs_vllm_release_for(800)->mla_pad);
    assert_int_equal(gs_vllm_release_for(803)->non_torch, GS_VLLM_NT_DEVICE);
    assert_false(gs_vllm_release_for_layout(803, 2)->v1);
    assert_true(gs_vllm_release_for_layout(902, 2)->v1);
    assert_false(gs_vllm_release_for(2005)->graphs_subtracted);
    assert_true(gs_vllm_release_for(2100)->graphs_subtracted);
    assert_int_equal(gs_vllm_release_for(2100)->default_util_permille, 920);
    assert_int_equal(gs_vllm_release_for(0)->from, gs_vllm_release_for(GS_VLLM_LATEST_MODELED)->from);
    assert_false(gs_vllm_modeled(505));
    assert_true(gs_vllm_modeled(604));
}

/* V0 0.7.2-0.7.3 pads each MLA cache entry to a multiple of 256 bytes
 * (cache_engine.py _align_cache, PR #12676): DeepSeek-V3's 576-element bf16
 * latent, 1,152 bytes, takes 1,280 (640 elements); V1 does not. */
static void test_vllm_mla_padding(void **state)
{
    (void)state;
    struct gs_arch ds = fixture_deepseek_v3();
    struct gs_kv_layout kv;
    assert_int_equal(gs_kv_layout_stage(&ds, GS_KV_AUTO, 2, 1, 1, 0, true, &kv, NULL), GS_OK);
    assert_int_equal(kv.bytes_per_token, 61 * 1280);
    assert_int_equal(gs_kv_layout_stage(&ds, GS_KV_AUTO, 2, 1, 1, 0, false, &kv, NULL), GS_OK);
    assert_int_equal(kv.bytes_per_token, 61 * 1152);
    struct gs_inference_input in = fixture_llama3_8b_on_h100(&ds);
    in.weights_bytes = 40000000000ULL;
    in.engine.version = 703;
    struct gs_inference_result r;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_int_equal(r.kv.bytes_per_token, 61 * 1280);
    in.engine.version = 1900;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_int_equal(r.kv.bytes_per_token, 61 * 1152);
}

/* SGLang's default fraction with speculative decoding (server_args.py): on
 * an H100 (85,061,827,297 B = 81,121 MiB) at TP 1, the 0.5.3 rule reserves
 * 512 + 1.5 x 8192 + 2 x 256 + 1/8 x 1024 = 13,440 MiB (above the 10 GiB
 * floor), then 2,048 more for EAGLE/EAGLE3/NEXTN ((81121 - 15488) / 81121 =
 * 0.809), 6,144 for STANDALONE ((81121 - 19584) / 81121 = 0.759) and none
 * for NGRAM (0.834); the 0.4.8-0.5.2 rule reserves (9.5 + 1/2) GiB = 10,240
 * MiB (0.874), 2,048 more for any algorithm, NGRAM too ((81121 - 12288) /
 * 81121 = 0.849), 6,144 for STANDALONE (0.798). From 0.5.14 nothing more
 * (PR #23862: memory_hook.py has no speculative term). */
static void test_sglang_speculative_reserve(void **state)
{
    (void)state;
    const uint64_t h100 = 85061827297ULL;
    const struct gs_sglang_release *now = gs_sglang_release_for(503);
    const struct gs_sglang_release *mid = gs_sglang_release_for(408);
    assert_int_equal(gs_sglang_default_fraction_spec_permille(now, h100, 1, 1, 1, GS_SPEC_NONE), 834);
    assert_int_equal(gs_sglang_default_fraction_spec_permille(now, h100, 1, 1, 1, GS_SPEC_MTP), 809);
    assert_int_equal(gs_sglang_default_fraction_spec_permille(now, h100, 1, 1, 1, GS_SPEC_EAGLE3),
                     809);
    assert_int_equal(
        gs_sglang_default_fraction_spec_permille(now, h100, 1, 1, 1, GS_SPEC_DRAFT_MODEL), 759);
    assert_int_equal(gs_sglang_default_fraction_spec_permille(now, h100, 1, 1, 1, GS_SPEC_NGRAM),
                     834);
    assert_int_equal(gs_sglang_default_fraction_spec_permille(mid, h100, 1, 1, 1, GS_SPEC_NONE), 874);
    assert_int_equal(gs_sglang_default_fraction_spec_permille(mid, h100, 1, 1, 1, GS_SPEC_NGRAM),
                     849);
    assert_int_equal(
        gs_sglang_default_fraction_spec_permille(mid, h100, 1, 1, 1, GS_SPEC_DRAFT_MODEL), 798);
    /* PR #19418 (first in the v0.5.10 tag) reserves 4 GiB for EAGLE / NEXTN: H100 TP 1 at 0.5.10,
     * 13,904 MiB (test_sglang_fraction_prefill_graphs) + 4,096 = 18,000 -> 63,121 / 81,121 =
     * 0.77811 -> 0.778, the same at 0.5.13; 0.5.9 keeps 2 GiB (13,440 + 2,048: 0.809) */
    assert_int_equal(gs_sglang_default_fraction_spec_permille(gs_sglang_release_for(510), h100, 1,
                                                              1, 1, GS_SPEC_MTP),
                     778);
    assert_int_equal(gs_sglang_default_fraction_spec_permille(gs_sglang_release_for(513), h100, 1,
                                                              1, 1, GS_SPEC_EAGLE),
                     778);
    assert_int_equal(gs_sglang_default_fraction_spec_permille(gs_sglang_release_for(509), h100, 1,
                                                              1, 1, GS_SPEC_MTP),
                     809);
    /* from 0.5.14 the draft is budgeted inside the fraction: no reserve for any algorithm */
    const struct gs_sglang_release *inside = gs_sglang_release_for(514);
    const uint64_t none =
        gs_sglang_default_fraction_spec_permille(inside, h100, 1, 1, 1, GS_SPEC_NONE);
    for (int spec = GS_SPEC_MTP; spec < GS_SPEC_COUNT; spec++)
        assert_int_equal(gs_sglang_default_fraction_spec_permille(inside, h100, 1, 1, 1,
                                                                  (enum gs_spec_method)spec),
                         none);
    assert_false(gs_sglang_release_for(513)->draft_in_fraction);
    assert_true(gs_sglang_release_for(0)->draft_in_fraction);
}

/* SGLang's prefill CUDA graphs in the default fraction's reserve (0.5.10 on) and the 0.5.20
 * tier under 35 GiB. piecewise_cuda_graph_tokens as SGLang's logs print them: 4-32 by 4 (8),
 * 48-256 by 16 (14), 288-512 by 32 (8), 576-1,024 by 64 (8), 1,280-4,096 by 256 (12), then by
 * 512: 42 sizes to 2,048, 50 to 4,096, 58 to 8,192, 74 to 16,384; 3,000 is not a step: 45
 * below it and itself, 46. 8 MiB each (1.5 GiB for MLA, none on ROCm):
 *   H100 (81,121 MiB), 0.5.10, TP 1: 13,440 (test_sglang_fraction_0_5_3) + 58 x 8 = 13,904
 *     -> 67,217 / 81,121 = 0.82860 -> 0.829; TP 2: 14,032 -> 0.82702 -> 0.827;
 *   H100 MLA, TP 8: 14,848 + 1,536 = 16,384 -> 0.79803 -> 0.798;
 *   192 GiB (196,608 MiB), TP 1: 512 + 24,576 + 1,024 + 128 = 26,240 -> 0.86654 -> 0.867 on
 *     ROCm; on an NVIDIA part of that size 74 x 8 = 592 more -> 0.86353 -> 0.864.
 * Two logs: an RTX 4090 (nvidia-smi total 24,564 MiB) on SGLang main after PR #37898 printed
 * mem_fraction_static 0.704 with chunked_prefill_size 4096 at TP 1
 * (MuhammadHaseebUlHaqq/llm-inference-optimization, logs/sglang_cliff/server_default.log,
 * 2026-09-08): 512 + 6,144 + 128 + 2 x 48 + 50 x 8 = 7,280 -> 17,284 / 24,564 = 0.70363 ->
 * 0.704 with the 0.5.20 rule (0.5.10's 2,048 / 24: 4,096 -> 0.833). SGLang issue #29092
 * (2026-06-23) reports 0.828 on an H100 (nvidia-smi 81,559 MiB) for Qwen3-32B, its TP not
 * stated: at TP 2 the 0.5.10 rule gives 14,032 -> 0.82795 -> 0.828. */
static void test_sglang_fraction_prefill_graphs(void **state)
{
    (void)state;
    assert_int_equal(gs_sglang_prefill_capture_sizes(2048), 42);
    assert_int_equal(gs_sglang_prefill_capture_sizes(4096), 50);
    assert_int_equal(gs_sglang_prefill_capture_sizes(8192), 58);
    assert_int_equal(gs_sglang_prefill_capture_sizes(16384), 74);
    /* the list holds no size above the chunk and not the chunk itself: to 2,816 by 256 */
    assert_int_equal(gs_sglang_prefill_capture_sizes(3000), 45);
    assert_int_equal(gs_sglang_prefill_capture_sizes(4608), 51);
    assert_int_equal(gs_sglang_prefill_capture_sizes(5000), 51);
    assert_int_equal(gs_sglang_prefill_capture_sizes(0), 0);
    const struct gs_sglang_release *r510 = gs_sglang_release_for(510);
    const struct gs_sglang_release *r520 = gs_sglang_release_for(520);
    assert_string_equal(r510->name, "0.5.10");
    assert_false(gs_sglang_release_for(404)->spec_running_cap);
    assert_true(gs_sglang_release_for(405)->spec_running_cap);
    assert_string_equal(gs_sglang_release_for(512)->name, "0.5.12"); /* the padding row */
    assert_string_equal(gs_sglang_release_for(513)->name, "0.5.13"); /* the joint solve */
    assert_string_equal(gs_sglang_release_for(514)->name, "0.5.14");
    assert_string_equal(gs_sglang_release_for(516)->name, "0.5.16");
    assert_string_equal(gs_sglang_release_for(517)->name, "0.5.17"); /* PR #32184's tag */
    assert_string_equal(gs_sglang_release_for(519)->name, "0.5.18");
    assert_ptr_equal(gs_sglang_release_for(0), r520);
    const uint64_t h100 = 85061827297ULL;
    struct gs_sglang_fraction_input in = {.total_bytes = h100, .tensor = 1, .pipeline = 1};
    assert_int_equal(gs_sglang_default_fraction(r510, &in), 829);
    assert_int_equal(gs_sglang_default_fraction(r520, &in), 829);
    in.tensor = 2;
    assert_int_equal(gs_sglang_default_fraction(r510, &in), 827);
    in.total_bytes = 81559ULL * GS_MIB;
    assert_int_equal(gs_sglang_default_fraction(r510, &in), 828);
    in.total_bytes = h100;
    in.tensor = 8;
    in.mla = true;
    assert_int_equal(gs_sglang_default_fraction(r510, &in), 798);
    const struct gs_sglang_fraction_input big = {
        .total_bytes = 192 * GS_GIB, .tensor = 1, .pipeline = 1, .rocm = true};
    assert_int_equal(gs_sglang_default_fraction(r520, &big), 867);
    struct gs_sglang_fraction_input nvidia = big;
    nvidia.rocm = false;
    assert_int_equal(gs_sglang_default_fraction(r520, &nvidia), 864);
    const struct gs_sglang_fraction_input rtx4090 = {
        .total_bytes = 24564ULL * GS_MIB, .tensor = 1, .pipeline = 1};
    assert_int_equal(gs_sglang_default_fraction(r520, &rtx4090), 704);
    assert_int_equal(gs_sglang_default_fraction(r510, &rtx4090), 833);
    /* before 0.5.10 no prefill graphs: 0.5.3's 0.834 */
    in = (struct gs_sglang_fraction_input){.total_bytes = h100, .tensor = 1, .pipeline = 1};
    assert_int_equal(gs_sglang_default_fraction(gs_sglang_release_for(509), &in), 834);
}

/* An architecture of class `cls` (architectures[0]) */
static struct gs_arch as_class(struct gs_arch a, const char *cls, uint64_t vision_layers)
{
    snprintf(a.architecture, sizeof(a.architecture), "%s", cls);
    a.vision_config_layers = vision_layers;
    a.vision_config_hidden = vision_layers ? 1024 : 0;
    return a;
}

static bool graphs_on(uint32_t version, const struct gs_sglang_graph_case *c)
{
    struct gs_sglang_graph_case at = *c;
    at.version = version;
    return gs_sglang_prefill_graphs_off(gs_sglang_release_for(version), &at) == NULL;
}

/* Which releases capture prefill CUDA graphs - and reserve 8 MiB a capture size, 1.5 GiB for
 * MLA, for them - read at the tags v0.5.10-v0.5.18: _handle_piecewise_cuda_graph (0.5.10-0.5.13:
 * rule 2 "Speculative decoding" in v0.5.10 alone; is_deepseek_nsa in the class rule through
 * v0.5.12; DP attention, pipeline parallelism, multimodal, CPU offload, PD disaggregation),
 * _disable_tc_piecewise_cudagraph_if_incompatible (0.5.14: multimodal_piecewise_ allowlist),
 * breakable graphs by default on CUDA from v0.5.15 with _disable_breakable_cudagraph_if_
 * incompatible (v0.5.15-v0.5.16: MLA, DeepSeek-V4, DP attention, multimodal; v0.5.17: MLA
 * without DSA, Nemotron-H; v0.5.18: DeepSeek-V4 and unlisted multimodal classes alone), the
 * piecewise allowlisted classes back on piecewise graphs from v0.5.16. */
static void test_sglang_prefill_graphs_by_release(void **state)
{
    (void)state;
    const struct gs_arch dense =
        as_class(llama(4096, 32, 32, 8, 14336, 128256), "LlamaForCausalLM", 0);
    struct gs_sglang_graph_case c = {.arch = &dense, .pipeline = 1, .attention_data = 1};
    const uint32_t all[] = {510, 511, 513, 514, 515, 516, 517, 518, 520};
    for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
        assert_true(graphs_on(all[i], &c));
    assert_true(graphs_on(509, &c)); /* no prefill graphs to turn off before 0.5.10 */
    assert_null(gs_sglang_prefill_graphs_off(gs_sglang_release_for(509), &c));
    /* speculative decoding: 0.5.10 alone */
    c.spec = GS_SPEC_MTP;
    assert_false(graphs_on(510, &c));
    assert_true(graphs_on(511, &c));
    c.spec = GS_SPEC_NONE;
    /* DP attention: every piecewise release, the breakable ones of 0.5.15-0.5.16 */
    c.attention_data = 8;
    assert_false(graphs_on(514, &c));
    assert_false(graphs_on(516, &c));
    assert_true(graphs_on(517, &c));
    assert_true(graphs_on(520, &c));
    c.attention_data = 1;
    /* pipeline parallelism and CPU offload: the piecewise rules alone */
    c.pipeline = 2;
    assert_false(graphs_on(514, &c));
    assert_true(graphs_on(515, &c));
    c.pipeline = 1;
    c.cpu_offload = true;
    assert_false(graphs_on(513, &c));
    assert_true(graphs_on(520, &c));
    c.cpu_offload = false;
    /* ROCm keeps piecewise graphs as its default, which it turns off */
    c.rocm = true;
    assert_false(graphs_on(520, &c));
    c.rocm = false;
    /* DeepEP (--moe-a2a-backend deepep): no piecewise graphs, no breakable ones in
     * 0.5.15-0.5.16, breakable ones from 0.5.17 */
    c.deepep = true;
    assert_false(graphs_on(514, &c));
    assert_false(graphs_on(516, &c));
    assert_true(graphs_on(517, &c));
    assert_true(graphs_on(520, &c));
    c.deepep = false;
    /* --disable-cuda-graph: the prefill phase too from 0.5.14 */
    c.disable_cuda_graph = true;
    assert_true(graphs_on(513, &c));
    assert_false(graphs_on(514, &c));
    assert_false(graphs_on(520, &c));
    c.disable_cuda_graph = false;
    /* disaggregation: either role through 0.5.14 ("PD disaggregation"); a prefill worker's
     * --disable-cuda-graph in 0.5.14-0.5.15; a decode worker none from 0.5.15; a prefill worker
     * keeps them from 0.5.16 */
    c.role = GS_SGLANG_ROLE_PREFILL;
    assert_false(graphs_on(510, &c));
    assert_false(graphs_on(514, &c));
    assert_false(graphs_on(515, &c));
    assert_true(graphs_on(516, &c));
    assert_true(graphs_on(520, &c));
    c.role = GS_SGLANG_ROLE_DECODE;
    assert_false(graphs_on(513, &c));
    assert_false(graphs_on(515, &c));
    assert_false(graphs_on(520, &c));
    c.role = GS_SGLANG_ROLE_NONE;

    /* model classes */
    const struct gs_arch mla = as_class(fixture_deepseek_v3(), "DeepseekV3ForCausalLM", 0);
    struct gs_arch dsa = as_class(fixture_deepseek_v3(), "DeepseekV32ForCausalLM", 0);
    for (size_t i = 0; i < dsa.block_count; i++)
        if (dsa.blocks[i].mixer == GS_MIXER_MLA)
            dsa.blocks[i].attn.index_topk = 2048; /* DeepSeek-V3.2's config.json */
    const struct gs_arch dsv4 = as_class(dsa, "DeepseekV4ForCausalLM", 0);
    const struct gs_arch next = as_class(dense, "Qwen3NextForCausalLM", 0);
    const struct gs_arch nemotron_h = as_class(dense, "NemotronHForCausalLM", 0);
    c.arch = &mla; /* MLA: piecewise yes, breakable no in 0.5.15-0.5.17, yes from 0.5.18 */
    assert_true(graphs_on(514, &c));
    assert_false(graphs_on(515, &c));
    assert_false(graphs_on(517, &c));
    assert_true(graphs_on(518, &c));
    c.arch = &dsa; /* is_deepseek_nsa through 0.5.12; MLA in 0.5.15-0.5.16; DSA kept in 0.5.17 */
    assert_false(graphs_on(512, &c));
    assert_true(graphs_on(513, &c));
    assert_false(graphs_on(516, &c));
    assert_true(graphs_on(517, &c));
    c.arch = &dsv4; /* listed from its first release, 0.5.12; breakable's own rule from 0.5.15 */
    assert_false(graphs_on(512, &c));
    assert_false(graphs_on(520, &c));
    c.arch = &next; /* listed for piecewise graphs, none of breakable's rules */
    assert_false(graphs_on(514, &c));
    assert_true(graphs_on(515, &c));
    c.arch = &nemotron_h;
    assert_true(graphs_on(516, &c));
    assert_false(graphs_on(517, &c));
    assert_true(graphs_on(518, &c));

    /* multimodal classes (a vision tower) */
    const struct gs_arch vlm = as_class(dense, "Qwen2_5_VLForConditionalGeneration", 24);
    const struct gs_arch cohere = as_class(dense, "Cohere2VisionForConditionalGeneration", 24);
    const struct gs_arch qwen35 = as_class(dense, "Qwen3_5ForConditionalGeneration", 24);
    const struct gs_arch kimi25 = as_class(mla, "KimiK25ForConditionalGeneration", 24);
    c.arch = &vlm;
    for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
        assert_false(graphs_on(all[i], &c));
    c.arch = &cohere; /* piecewise allowlist from 0.5.14; back on piecewise graphs from 0.5.16 */
    assert_false(graphs_on(513, &c));
    assert_true(graphs_on(514, &c));
    assert_false(graphs_on(515, &c));
    assert_true(graphs_on(516, &c));
    c.attention_data = 8; /* ... under the piecewise rules */
    assert_false(graphs_on(518, &c));
    c.attention_data = 1;
    c.arch = &qwen35; /* breakable allowlist from 0.5.16 */
    assert_false(graphs_on(515, &c));
    assert_true(graphs_on(516, &c));
    c.arch = &kimi25; /* piecewise from 0.5.16 (MLA no bar there), breakable listed from 0.5.18 */
    assert_false(graphs_on(515, &c));
    assert_true(graphs_on(516, &c));
    assert_true(graphs_on(518, &c));
}

/* The reserve's terms with the server arguments a request names, by hand on an H100 (81,121
 * MiB, TP 1: chunked prefill 8,192 and cuda_graph_max_bs 256 by default) at 0.5.20 unless said:
 *   default: 512 + 1.5 x 8,192 + 2 x 256 + 128 + 58 x 8 = 13,904 -> 0.8286 -> 829;
 *   --chunked-prefill-size 4096: 512 + 6,144 + 512 + 128 + 50 x 8 = 7,696, the 10 GiB floor ->
 *     70,881 / 81,121 -> 874; 16384: 512 + 24,576 + 512 + 128 + 74 x 8 = 26,320 -> 676;
 *   chunked prefill off: max_prefill_tokens 16,384, no prefill sizes: 25,728 -> 683;
 *   --cuda-graph-max-bs 512: 512 + 12,288 + 1,024 + 128 + 464 = 14,416 -> 822;
 *   a decode worker: max(256 running x 1, 2048) -> 512 + 3,072 + 512 + 128 = 4,224, floor ->
 *     874; with --max-running-requests 4096 and 4 draft tokens: 16,384 tokens, 25,728 -> 683;
 *   a prefill worker: 512 + 12,288 + 128 + 464 = 13,392 -> 835; at 0.5.15 without its prefill
 *     graphs (its --disable-cuda-graph) 12,928 -> 841;
 *   at 0.5.14 a decode worker is sized as any: 512 + 12,288 + 512 + 128 = 13,440 (no prefill
 *     graphs, "PD disaggregation") -> 834;
 *   --disable-cuda-graph at 0.5.20: 12,928 -> 841; at 0.5.14 the decode graphs stay in (13,440
 *     -> 834); at 0.5.13 it changes nothing (829). */
static void test_sglang_reserve_arguments(void **state)
{
    (void)state;
    const struct gs_sglang_release *r = gs_sglang_release_for(520);
    const uint64_t h100 = 85061827297ULL;
    struct gs_sglang_fraction_input in = {.total_bytes = h100, .tensor = 1, .pipeline = 1};
    struct gs_sglang_reserve res;
    assert_int_equal(gs_sglang_default_fraction_reserve(r, &in, &res), 829);
    assert_int_equal(res.chunked_prefill_size, 8192);
    assert_int_equal(res.cuda_graph_max_bs, 256);
    assert_int_equal(res.activation_tokens, 8192);
    assert_int_equal(res.prefill_capture_sizes, 58);
    assert_true(res.total_mib == 13904.0);
    in.chunked_prefill_size = 4096;
    assert_int_equal(gs_sglang_default_fraction_reserve(r, &in, &res), 874);
    assert_true(res.floor_mib == 10240.0 - 7696.0);
    in.chunked_prefill_size = 16384;
    assert_int_equal(gs_sglang_default_fraction(r, &in), 676);
    in.chunked_prefill_size = -1;
    assert_int_equal(gs_sglang_default_fraction_reserve(r, &in, &res), 683);
    assert_int_equal(res.activation_tokens, 16384);
    assert_int_equal(res.prefill_capture_sizes, 0);
    in.chunked_prefill_size = 0;
    in.cuda_graph_max_bs = 512;
    assert_int_equal(gs_sglang_default_fraction(r, &in), 822);
    in.cuda_graph_max_bs = 0;
    in.role = GS_SGLANG_ROLE_DECODE;
    in.prefill_graphs_off = true; /* as gs_sglang_prefill_graphs_off says for a decode worker */
    assert_int_equal(gs_sglang_default_fraction_reserve(r, &in, &res), 874);
    assert_int_equal(res.activation_tokens, 2048);
    in.max_running_requests = 4096;
    in.draft_tokens = 4;
    assert_int_equal(gs_sglang_default_fraction_reserve(r, &in, &res), 683);
    assert_int_equal(res.activation_tokens, 16384);
    in.max_running_requests = 0;
    in.draft_tokens = 0;
    assert_int_equal(gs_sglang_default_fraction(gs_sglang_release_for(514), &in), 834);
    in.role = GS_SGLANG_ROLE_PREFILL;
    in.prefill_graphs_off = false;
    assert_int_equal(gs_sglang_default_fraction(r, &in), 835);
    in.prefill_graphs_off = true;
    assert_int_equal(gs_sglang_default_fraction(gs_sglang_release_for(515), &in), 841);
    in.role = GS_SGLANG_ROLE_NONE;
    in.disable_cuda_graph = true;
    assert_int_equal(gs_sglang_default_fraction(r, &in), 841);
    assert_int_equal(gs_sglang_default_fraction(gs_sglang_release_for(514), &in), 834);
    in.prefill_graphs_off = false;
    assert_int_equal(gs_sglang_default_fraction(gs_sglang_release_for(513), &in), 829);

    /* --moe-a2a-backend deepep at TP 8 (cuda_graph_max_bs 512): one engine reserves 512 +
     * 12,288 + 1,024 + 1,024 + 464 = 15,312 -> 811; with DeepEP at 0.5.20 the breakable prefill
     * graphs take 38 sizes (8-aligned to 2,048) x 8 = 304 and 1,024 more, then 2,048 above the
     * floor: 18,224 -> 775; 0.5.16 runs no breakable graphs with it, 14,848 + 2,048 = 16,896 ->
     * 792; 0.5.14 neither those nor the 2 GiB: 14,848 -> 817; a decode worker max(512, 2,048)
     * tokens: 512 + 3,072 + 1,024 + 1,024 = 5,632, floor 10,240, + 2,048 = 12,288 -> 849; a
     * prefill worker no decode graphs nor 2 GiB: 512 + 12,288 + 1,024 + 304 + 1,024 = 15,152 ->
     * 813 */
    assert_int_equal(gs_sglang_prefill_capture_sizes_deepep(), 38);
    in = (struct gs_sglang_fraction_input){.total_bytes = h100, .tensor = 8, .pipeline = 1};
    assert_int_equal(gs_sglang_default_fraction(r, &in), 811);
    in.deepep = true;
    assert_int_equal(gs_sglang_default_fraction_reserve(r, &in, &res), 775);
    assert_int_equal(res.prefill_capture_sizes, 38);
    assert_true(res.deepep_mib == 3072.0);
    in.prefill_graphs_off = true; /* as the rules of 0.5.14-0.5.16 say with DeepEP */
    assert_int_equal(gs_sglang_default_fraction(gs_sglang_release_for(516), &in), 792);
    assert_int_equal(gs_sglang_default_fraction(gs_sglang_release_for(514), &in), 817);
    in.role = GS_SGLANG_ROLE_DECODE;
    assert_int_equal(gs_sglang_default_fraction(r, &in), 849);
    in.role = GS_SGLANG_ROLE_PREFILL;
    in.prefill_graphs_off = false;
    assert_int_equal(gs_sglang_default_fraction(r, &in), 813);
}

/* TensorRT-LLM by release. From 1.0 (the PyTorch backend, the default): 32 tokens a block,
 * max_num_tokens 8192 and max_batch_size 2048 (llm_args.py), and the profiled forward is
 * 8,192 tokens in requests of at most max_seq_len - 1 (_create_dummy_context_requests): at a
 * 4,096-token context ceil(8,192 / 4,095) = 3 requests, so 3 rows of logits - the activation
 * is gs_vllm_activation_peak at 8,192 tokens and 3 sequences. Before 1.0 (the engine path):
 * 64 tokens a block, the server batch defaults (8,192 tokens, 1,024 sequences on an H100) and
 * the decoder's buffers sized by max_batch_size x vocabulary (tensorrt_llm.c engine_path_buffers).
 * Both start with max_seq_len lowered where one sequence of the context does not fit
 * (adjustMaxAttentionWindow): 600,000 tokens of 131,072 bytes = 78.6 GB against a pool of
 * about 60 GB starts, holds no sequence of that length and offers at most what the pool
 * holds; vLLM refuses to start. */
static void test_tensorrt_releases(void **state)
{
    (void)state;
    const struct gs_arch a = llama(4096, 32, 32, 8, 14336, 128256);
    struct gs_inference_input in = fixture_llama3_8b_on_h100(&a);
    in.engine.engine = GS_ENGINE_TENSORRT_LLM;
    in.context_length = 4096;
    struct gs_inference_result r;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_int_equal(r.block_size, 32);
    assert_int_equal(r.max_num_batched_tokens, 8192);
    assert_int_equal(r.max_num_seqs, 2048);
    uint64_t counts[GS_BLOCKS_MAX];
    gs_arch_count_blocks(&a, 0, 32, counts);
    bool ovf = false;
    assert_int_equal(r.budget.activation_bytes,
                     gs_vllm_activation_peak(&a, gs_vllm_other_engine_profile(), counts, 8192, 3,
                                             1, 0, 0, true, &ovf));
    assert_int_equal(r.blocks, (uint64_t)r.budget.kv_bytes / (32 * 131072));
    const uint64_t pytorch_non_torch = r.budget.non_torch_bytes;
    in.engine.version = 1900; /* 0.19: the engine path */
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_int_equal(r.block_size, 64);
    assert_int_equal(r.max_num_batched_tokens, 8192);
    assert_int_equal(r.max_num_seqs, 1024);
    /* the forward without a sampler; the decoder's buffers instead, outside torch: 5 x 1,024
     * x 128,256 x 4 + 1,024 x 65,536 (top-k scratch) + 10 x 1,024 x 4,096 x 4 =
     * 2,626,682,880 + 67,108,864 + 167,772,160 = 2,861,563,904 */
    assert_int_equal(r.budget.activation_bytes,
                     gs_vllm_activation_peak(&a, gs_vllm_other_engine_profile(), counts, 8192,
                                             1024, 1, 0, 0, false, &ovf));
    assert_int_equal(r.budget.non_torch_bytes - pytorch_non_torch, 2861563904ULL);
    in.engine.version = 0;
    in.context_length = 600000;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_true(r.starts);
    assert_false(r.holds_batch);
    assert_true(r.max_context > 0 && r.max_context <= r.max_tokens);
    assert_non_null(strstr(r.binding, "lowered"));
    in.engine.engine = GS_ENGINE_VLLM;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_false(r.starts);
}

/* TensorRT-LLM 1.3's fp8 context-MLA reserve (PR #16399): with block reuse on and chunked
 * prefill off the pool keeps k / (k + w) of the budget. DeepSeek-V3 (61 MLA layers, latent 512
 * + rope 64; 128 heads, qk_nope 128, qk_rope 64, v 128) with an fp8 cache: k = 576 x 61 =
 * 35,136 B a token; under attention data parallelism (TP 1) w = 128 x 320 = 40,960, so the
 * reserve is budget x 40,960 / 76,096 unless w x L, L = min(max_batch_size, max_num_tokens)
 * x max_seq_len tokens attended at most, is less; at TP 8 w = 16 x 320 = 5,120. None before
 * 1.3, for a bf16 cache or with chunked prefill on. */
static void test_tensorrt_mla_workspace_reserve(void **state)
{
    (void)state;
    const struct gs_arch ds = fixture_deepseek_v3();
    struct gs_inference_input in = fixture_llama3_8b_on_h100(&ds);
    in.engine.engine = GS_ENGINE_TENSORRT_LLM;
    in.kv_dtype = GS_KV_FP8;
    in.gpu.total_bytes = 1ULL << 42; /* room beside DeepSeek-V3's weights on one GPU */
    struct gs_inference_result before, after;
    /* a budget past the worst case: w x min(2,048, 8,192) x 8,192 tokens attended at most */
    in.context_length = 8192;
    in.engine.version = 10300;
    assert_int_equal(gs_inference_compute(&in, &after, NULL), GS_OK);
    assert_int_equal(after.workspace_reserve_bytes, 40960ULL * 2048 * 8192);
    in.context_length = 131072;
    in.engine.version = 10200;
    assert_int_equal(gs_inference_compute(&in, &before, NULL), GS_OK);
    in.engine.version = 10300;
    assert_int_equal(gs_inference_compute(&in, &after, NULL), GS_OK);
    assert_int_equal(after.kv.bytes_per_token, 35136);
    assert_int_equal(before.workspace_reserve_bytes, 0);
    const uint64_t budget = (uint64_t)before.budget.kv_bytes;
    const uint64_t reserve = budget / 76096 * 40960 + budget % 76096 * 40960 / 76096;
    assert_int_equal(after.workspace_reserve_bytes, reserve);
    assert_int_equal((uint64_t)after.budget.kv_bytes, budget - reserve);
    in.tensor = 8;
    assert_int_equal(gs_inference_compute(&in, &after, NULL), GS_OK);
    const uint64_t tp8 = (uint64_t)after.budget.kv_bytes + after.workspace_reserve_bytes;
    assert_int_equal(after.workspace_reserve_bytes,
                     tp8 / (35136 + 5120) * 5120 + tp8 % (35136 + 5120) * 5120 / (35136 + 5120));
    in.engine.chunked_prefill = GS_CHUNKED_PREFILL_ON;
    assert_int_equal(gs_inference_compute(&in, &after, NULL), GS_OK);
    assert_int_equal(after.workspace_reserve_bytes, 0);
    in.engine.chunked_prefill = GS_CHUNKED_PREFILL_DEFAULT;
    in.kv_dtype = GS_KV_AUTO;
    assert_int_equal(gs_inference_compute(&in, &after, NULL), GS_OK);
    assert_int_equal(after.workspace_reserve_bytes, 0);
}

/* MLA's chunked-prefill context workspace in the profile run. Rows: V1
 * (MLACommonMetadataBuilder.determine_chunked_prefill_workspace_size)
 * min(max(8 x max_model_len, 4 x max_num_seqs x block_size), 64k), at least
 * max_num_seqs x block_size, always; V0 0.8.x (attention/backends/mla/
 * common.py MLACommonState) capped at 128k and only with chunked prefill or
 * prefix caching on; none before 0.8. MLACommonImpl.forward then allocates
 * [rows, heads per rank, qk_nope + v] in bf16 at every MLA layer.
 * DeepSeek-V3 (hidden 7168, 128 heads, q LoRA 1536, kv LoRA 512, rope 64,
 * qk_nope 128, v 128; experts 2048 wide, top 8, one shared) for 8,192
 * profile tokens, not the last stage:
 * - data-parallel attention (TP 1, V1): the layer holds, per token, 2 x 7168
 *   (residual, normed input) + 1536 + 512 + 64 (fused q/kv LoRA output) +
 *   1536 (normed q latent) + 512 (normed kv latent) + 128 x 192 (query) +
 *   128 x 128 (output buffer) = 59,456 elements, 118,912 B, x 8192 =
 *   974,127,104, plus 65,536 x 128 x 256 x 2 = 4,294,967,296: 5,269,094,400,
 *   above the MoE phase 8192 x 2 x (2 x 7168 + 8 x (7168 + 2048) + 3 x 2048)
 *   = 1,543,503,872;
 * - TP 8 (V1): 16 heads, 65,536 x 16 x 256 x 2 = 536,870,912 plus 8192 x 2 x
 *   (14336 + 1536 + 576 + 512 + 16 x 320) = 386,924,544 stay below the MoE
 *   phase 8192 x 2 x (14336 + 8 x (7168 + 256) + 3 x 256) = 1,220,542,464,
 *   which is the peak as without the workspace;
 * - TP 8, V0 0.8.x with prefix caching: the same MoE peak plus the kept
 *   latent workspace 65,536 x 576 x 2 = 75,497,472: 1,296,039,936. */
/* The rotary tables count with the weights the engine loads, on every GPU:
 * Llama 3.1 8B (llama3 scaling, 131,072 positions x head 128) holds
 * 16,777,216 values: 33,554,432 B in bf16 under vLLM, whose issue #10517 log
 * (0.6.4, an RTX 3090) reports "model weights 14.9888 GiB" = (16,060,522,496 +
 * 33,554,432) B; 67,108,864 B in SGLang's fp32 from 0.4.3, 33,554,432 B
 * before (vLLM's get_rope in the model dtype). With TP 2 every rank keeps
 * the whole table. TGI and TensorRT-LLM: none counted. */
/* The profile run's activation peak is the larger of the forward's layer
 * transients and the dummy sampler's live set, which runs after the forward
 * returns (V0 execute_model: compute_logits and sample after the model; V1
 * profile_run: _dummy_sampler_run after _dummy_run). Llama 3.1 8B (h 4,096,
 * gated MLP 14,336, vocabulary 128,256), one GPU:
 *   layer, 8,192 tokens: 8,192 x 2 x (2 x 4,096 + 3 x 14,336) = 838,860,800
 *   V1 0.17-0.20 (PR #33538's in-place Triton top-k/top-p): bf16 logits,
 *     fp32 logits, probs and the exponential q = 14 B per request x vocab;
 *     hidden [8,192 + 2 x 1,024 rows, 4,096] x 2 = 83,886,080; 1,024 x
 *     128,256 x 14 = 1,838,678,016 -> 1,922,564,096 (1.79 GiB; the 0.19 logs
 *     print 1.89: the Triton kernel's cached scratch, 4 x SMs x vocab, is not
 *     modelled)
 *   V1 0.11.1-0.16 (sort path; torch.sort's segmented radix sort holds its
 *     outputs, an int64 iota and cub's alternate buffers): 38 B -> 83,886,080
 *     + 4,990,697,472
 *   V0 0.6.5 (_apply_top_k_top_p: fp32 logits, sorted values, int64 indices,
 *     two masks, probs_sort, probs_sum, the inverse index and the gathered
 *     logits beside the bf16 logits = 40 B), 256 requests: (8,192 + 256) x
 *     4,096 x 2 + 256 x 128,256 x 40 = 1,382,547,456 = 1.288 GiB; PR #10511's
 *     log printed 1.26 GiB
 *   V0 0.6.4, 29,000 tokens (issue #10517, RTX 3090): LlamaMLP holds gate_up
 *     through down_proj, 29,000 x 2 x (3 x 4,096 + 3 x 14,336) =
 *     3,207,168,000 = 2.987 GiB; the log: peak 17.98 - weights 14.99 = 2.99
 *   other engines: the layer plus 10 B, 838,860,800 + 1,313,341,440. */
static void test_vllm_sampler_phase(void **state)
{
    (void)state;
    const struct gs_arch a = llama(4096, 32, 32, 8, 14336, 128256);
    uint64_t counts[GS_BLOCKS_MAX];
    gs_arch_count_blocks(&a, 0, 32, counts);
    bool ovf = false;
    const struct gs_vllm_release *v19 = gs_vllm_release_for(1900);
    assert_int_equal(v19->sampler_logit_bytes, 14);
    assert_int_equal(gs_vllm_activation_peak(&a, v19, counts, 8192, 1024, 1, 0, 0, true, &ovf),
                     1922564096ULL);
    /* with the GPU's SMs known, the Triton kernel's cached scratch: an H100 SXM's 132 x
     * 128,256 x 4 = 67,719,168 more (1.854 GiB; logged 1.89); none below 8 requests */
    assert_true(v19->sampler_triton_scratch);
    assert_int_equal(gs_vllm_activation_peak(&a, v19, counts, 8192, 1024, 1, 0, 132, true, &ovf),
                     1922564096ULL + 67719168ULL);
    assert_int_equal(gs_vllm_activation_peak(&a, v19, counts, 8192, 4, 1, 0, 132, true, &ovf),
                     gs_vllm_activation_peak(&a, v19, counts, 8192, 4, 1, 0, 0, true, &ovf));
    assert_false(gs_vllm_release_for(1401)->sampler_triton_scratch);
    assert_int_equal(gs_vllm_activation_peak(&a, v19, counts, 8192, 1024, 1, 0, 0, false, &ovf),
                     838860800ULL);
    assert_int_equal(gs_vllm_activation_peak(&a, gs_vllm_release_for(1200), counts, 8192, 1024,
                                             1, 0, 0, true, &ovf),
                     83886080ULL + 4990697472ULL);
    assert_int_equal(gs_vllm_release_for(1100)->sampler_logit_bytes, 14); /* FlashInfer default */
    assert_int_equal(gs_vllm_activation_peak(&a, gs_vllm_release_for(605), counts, 8192, 256, 1,
                                             0, 0, true, &ovf),
                     1382547456ULL);
    assert_int_equal(gs_vllm_activation_peak(&a, gs_vllm_release_for(604), counts, 29000, 256, 1,
                                             0, 0, true, &ovf),
                     3207168000ULL);
    assert_int_equal(gs_vllm_activation_peak(&a, gs_vllm_release_for(605), counts, 29000, 256, 1,
                                             0, 0, true, &ovf),
                     29000ULL * 102400);
    assert_int_equal(gs_vllm_activation_peak(&a, gs_vllm_other_engine_profile(), counts, 8192,
                                             1024, 1, 0, 0, true, &ovf),
                     838860800ULL + 1313341440ULL);
    assert_false(ovf);
}

/* vLLM's MXFP4 MoE layouts (quantization/mxfp4.py), per MoE layer and GPU,
 * written out for gpt-oss (hidden 2,880, expert width 2,880, biases):
 *   120b (128 experts, 36 layers), one H100, Triton (0.12 on): width already
 *     a multiple of 64; swizzled scales 128 x (5,888 x 90 + 3,072 x 90) =
 *     103,219,200; fp32 biases 128 x (5,760 x 4 + 2,880 x 2 - 5,760 x 2) =
 *     2,211,840 -> 105,431,040 x 36 = 3,795,517,440 B (3.53 GiB): with the
 *     60.78 GiB of weights, 64.32 GiB, where vLLM 0.14.1 logged "Model
 *     loading took 64.38 GiB" (issue #33155)
 *   the same with Marlin (0.10.1): 3 x 128 x (2,944 x 3,072 - 2,880 x 2,880)
 *     x 17 / 32 = 152,911,872 x 36 = 5,504,827,392 B: 65.91 GiB against the
 *     logged 65.9651 (issue #23278)
 *   20b (32 experts, 24 layers) at TP 2, Triton: width 1,440 -> 1,472:
 *     32 x 3 x 2,880 x 32 x 17 / 32 = 4,700,160; swizzled 32 x (3,072 x 90 +
 *     3,072 x 46) = 13,369,344; biases 32 x (2,944 x 4 + 2,880 x 2 - 2,880 x 2)
 *     = 376,832 -> 18,446,336 x 24 = 442,712,064 B
 *   Blackwell, bf16 weights: nothing. */
/* From 0.17 the fused-MoE workspaces are the global WorkspaceManager's
 * (v1/worker/workspace.py), grown by the profile run's first MoE layer and
 * never freed, so they sit beside the sampler: Qwen3-30B-A3B (hidden 2,048,
 * 128 experts of 768, top 8) at 8,192 tokens, workspace13 [8,192, 8,
 * max(768, 2,048)] and workspace2 [8,192, 8, max(1,536, 2,048)] in bf16 =
 * 536,870,912 B. The sampler phase: hidden (8,192 + 2 x 1,024) x 2,048 x 2 =
 * 41,943,040, logits 1,024 x 151,936 x 14 = 2,178,154,496, and the workspace:
 * 2,756,968,448 B = 2.57 GiB; the llm-d planner's 0.19 log printed 2.68. */
static void test_vllm_moe_workspace_kept(void **state)
{
    (void)state;
    struct gs_arch q = fixture_arch("{\"model_type\":\"qwen3_moe\",\"hidden_size\":2048,"
                                    "\"num_hidden_layers\":48,\"num_attention_heads\":32,"
                                    "\"num_key_value_heads\":4,\"head_dim\":128,"
                                    "\"intermediate_size\":6144,\"moe_intermediate_size\":768,"
                                    "\"num_experts\":128,\"num_experts_per_tok\":8,"
                                    "\"vocab_size\":151936,\"max_position_embeddings\":40960}");
    uint64_t counts[GS_BLOCKS_MAX];
    gs_arch_count_blocks(&q, 0, 48, counts);
    bool ovf = false;
    const struct gs_vllm_release *v19 = gs_vllm_release_for(1900);
    assert_true(v19->moe_workspace_kept);
    assert_int_equal(gs_vllm_activation_peak(&q, v19, counts, 8192, 1024, 1, 0, 0, true, &ovf),
                     2756968448ULL);
    /* 0.12-0.16: not charged (first release unknown), the sort-path sampler instead */
    const struct gs_vllm_release *v14 = gs_vllm_release_for(1401);
    assert_false(v14->moe_workspace_kept);
    assert_int_equal(gs_vllm_activation_peak(&q, v14, counts, 8192, 1024, 1, 0, 0, true, &ovf),
                     41943040ULL + 1024ULL * 151936 * 38);
    assert_false(ovf);
}

/* vLLM's Gemma4Attention builds its QKVParallelLinear (q, k and v slots) and k_norm in every
 * layer, KV-sharing or not, and loads a k_eq_v full layer's k_proj into the V slot as well
 * (gemma4.py Gemma4Attention.__init__, load_weights), where transformers' model, which gpusizer's
 * description follows, builds neither. Toy Gemma 4 text models of hidden 256, 4 layers of 4
 * heads, 2 KV heads of 64 on sliding layers and of 128 on full ones, the last layer full and
 * sharing the second's K and V, bf16, one GPU:
 * - the shared layer holds the second layer's k_proj and v_proj, 256 x 256 each, and k_norm 128:
 *   (2 x 65,536 + 128) x 2 = 262,400 B;
 * - with attention_k_eq_v and one global KV head of 128 the full layers' keys are their values:
 *   the second layer's V slot 256 x 128 x 2 = 65,536 B, the shared one's k_proj, k_norm and its
 *   V slot (2 x 32,768 + 128) x 2 = 131,328 B: 196,864 B;
 * - at tensor degree 2 each slot holds its KV heads' half, the k_norm whole: 256 x 128 x 2 x 2 +
 *   128 x 2 = 131,328 B for the first toy;
 * Gemma 3n's description holds every layer's own: nothing. SGLang's Gemma4Attention builds the
 * same slots and its load_weights duplicates a k_eq_v layer's k_proj into V (gemma4_causal.py
 * should_dup_k_to_v): both engines add them to what they load. TensorRT-LLM's PyTorch backend
 * builds a KV-sharing layer a Q-only projection beside its q_norm and k_norm
 * (modeling_gemma4.py _QOnlyLinear) and copies a k_eq_v layer's k_proj into v_proj: the second
 * layer's V slot 65,536 B and the shared layer's k_norm 256 B, 65,792 B. TGI's is not read. */
static void test_vllm_gemma4_kv_slots(void **state)
{
    (void)state;
    static const char toy[] =
        "{\"model_type\":\"gemma4_text\",\"hidden_size\":256,\"num_hidden_layers\":4,"
        "\"num_attention_heads\":4,\"num_key_value_heads\":2,\"head_dim\":64,"
        "\"global_head_dim\":128,\"intermediate_size\":512,\"sliding_window\":64,"
        "\"num_kv_shared_layers\":1,\"attention_k_eq_v\":%s,\"num_global_key_value_heads\":%d,"
        "\"layer_types\":[\"sliding_attention\",\"full_attention\",\"sliding_attention\","
        "\"sliding_attention\"],\"vocab_size\":1000}";
    const struct gs_arch shared = fixture_arch(toy, "false", 2);
    const struct gs_arch keys = fixture_arch(toy, "true", 1);
    uint64_t counts[GS_BLOCKS_MAX];
    bool ovf = false;
    struct gs_weights_request r = {.format = GS_WF_BF16, .tensor = 1, .pipeline = 1};
    gs_arch_count_blocks(&shared, 0, 4, counts);
    assert_int_equal(gs_weights_kv_slot_bytes(&shared, &r, counts, true, &ovf), 262400);
    gs_arch_count_blocks(&keys, 0, 4, counts);
    assert_int_equal(gs_weights_kv_slot_bytes(&keys, &r, counts, true, &ovf), 196864);
    r.tensor = 2;
    gs_arch_count_blocks(&shared, 0, 4, counts);
    assert_int_equal(gs_weights_kv_slot_bytes(&shared, &r, counts, true, &ovf), 131328);
    const struct gs_arch gemma3n =
        fixture_arch("{\"model_type\":\"gemma3n_text\",\"hidden_size\":256,\"num_hidden_layers\":4,"
                     "\"num_attention_heads\":4,\"num_key_value_heads\":2,\"head_dim\":64,"
                     "\"intermediate_size\":[512,512,512,512],\"vocab_size\":1000,"
                     "\"vocab_size_per_layer_input\":1000,\"hidden_size_per_layer_input\":16,"
                     "\"num_kv_shared_layers\":1}");
    gs_arch_count_blocks(&gemma3n, 0, 4, counts);
    r.tensor = 1;
    assert_int_equal(gs_weights_kv_slot_bytes(&gemma3n, &r, counts, true, &ovf), 0);
    assert_false(ovf);
    struct gs_inference_input in = fixture_llama3_8b_on_h100(&keys);
    in.weights_bytes = 4000000;
    in.weight_format = GS_WF_BF16;
    in.context_length = 1024;
    const enum gs_engine engines[] = {GS_ENGINE_VLLM, GS_ENGINE_SGLANG, GS_ENGINE_TENSORRT_LLM,
                                      GS_ENGINE_TGI};
    const uint64_t slots[] = {196864, 196864, 65792, 0};
    for (size_t i = 0; i < sizeof(engines) / sizeof(engines[0]); i++) {
        struct gs_inference_result out;
        in.engine.engine = engines[i];
        assert_int_equal(gs_inference_compute(&in, &out, NULL), GS_OK);
        assert_int_equal(out.budget.kv_slot_bytes, slots[i]);
    }
}

/* vLLM's FusedMoE under data parallelism gathers every rank's tokens before the experts
 * (FusedMoE.forward_impl, NaiveAll2AllManager.dispatch); fused_experts_impl runs them in
 * chunks of 32,768 (VLLM_FUSED_MOE_CHUNK_SIZE), and block-fp8 w8a8 quantizes each chunk's
 * input and cache2 (per_token_group_quant_fp8). Qwen3-Coder-480B (hidden 6,144, 160 experts
 * of 2,560, top 8) on one of 8 data-parallel ranks under expert parallelism (whole experts,
 * N = 5,120), each rank profiling 8,192 tokens, vLLM 0.10:
 *   this rank's residual, normed input, router logits: 8,192 x (2 x 6,144 + 160) x 2 =
 *     203,948,032
 *   gathered hidden states and router logits: 65,536 x (6,144 + 160) x 2 = 826,277,888
 *   topk_weights + topk_ids: 65,536 x 8 x 8 = 4,194,304
 *   cache13 + cache2 for a chunk: 32,768 x 8 x (max(5,120, 6,144) + 2,560) x 2 =
 *     4,563,402,752
 *   fp8 input: 32,768 x (6,144 + 48 scales x 4) = 207,618,048
 *   fp8 cache2, the first chunk's and the second's: 2 x 262,144 x (2,560 + 20 x 4) =
 *     1,384,120,320
 *   = 7,189,561,344 B (6.70 GiB), above the sampler phase (2,303,983,616). Without fp8
 *   activations (bf16 weights) 5,597,822,976. With 4 ranks (32,768 tokens, one chunk): the
 *   gathered tensors and topk halve (413,138,944 + 2,097,152) and one fp8 cache2 is alive
 *   (692,060,160): 6,082,265,088. Under recipes PR #12's run (8 x H20-3e, 0.90) this is what
 *   moves the KV capacity from +11% to +1.6% of the logged 205,728 tokens. */
static void test_vllm_dp_moe_gather(void **state)
{
    (void)state;
    struct gs_arch q = fixture_arch("{\"model_type\":\"qwen3_moe\",\"hidden_size\":6144,"
                                    "\"num_hidden_layers\":62,\"num_attention_heads\":96,"
                                    "\"num_key_value_heads\":8,\"head_dim\":128,"
                                    "\"intermediate_size\":8192,\"moe_intermediate_size\":2560,"
                                    "\"num_experts\":160,\"num_experts_per_tok\":8,"
                                    "\"vocab_size\":151936,\"max_position_embeddings\":262144}");
    uint64_t counts[GS_BLOCKS_MAX];
    gs_arch_count_blocks(&q, 0, 62, counts);
    bool ovf = false;
    const struct gs_vllm_release *v10 = gs_vllm_release_for(1001);
    assert_true(v10->moe_chunked_gather);
    assert_false(gs_vllm_release_for(1101)->moe_chunked_gather); /* not read after 0.11.0 */
    assert_false(gs_vllm_release_for(902)->moe_chunked_gather);
    const struct gs_vllm_moe_run dp8 = {8, 1, GS_VLLM_FP8_ACT_GROUP128};
    assert_int_equal(gs_vllm_moe_activation_peak(&q, v10, counts, 8192, 1024, 1, 0, 78, true,
                                                 &dp8, &ovf),
                     7189561344ULL);
    const struct gs_vllm_moe_run dp8_bf16 = {8, 1, GS_VLLM_FP8_ACT_NONE};
    assert_int_equal(gs_vllm_moe_activation_peak(&q, v10, counts, 8192, 1024, 1, 0, 78, true,
                                                 &dp8_bf16, &ovf),
                     5597822976ULL);
    const struct gs_vllm_moe_run dp4 = {4, 1, GS_VLLM_FP8_ACT_GROUP128};
    assert_int_equal(gs_vllm_moe_activation_peak(&q, v10, counts, 8192, 1024, 1, 0, 78, true,
                                                 &dp4, &ovf),
                     6082265088ULL);
    /* one rank: the layers' peak stays under the sampler's */
    const struct gs_vllm_moe_run one = {1, 0, GS_VLLM_FP8_ACT_NONE};
    assert_int_equal(gs_vllm_moe_activation_peak(&q, v10, counts, 8192, 1024, 1, 0, 78, true,
                                                 &one, &ovf),
                     gs_vllm_activation_peak(&q, v10, counts, 8192, 1024, 1, 0, 78, true, &ovf));
    assert_int_equal(gs_vllm_activation_peak(&q, v10, counts, 8192, 1024, 1, 0, 78, true, &ovf),
                     2303983616ULL);
    assert_false(ovf);
}

static bool has_warning(const struct gs_estimate *e, const char *code)
{
    for (size_t i = 0; i < e->warning_count; i++)
        if (strcmp(e->warnings[i].code, code) == 0)
            return true;
    return false;
}

/* The answer says which: on 0.10 the gathered tokens are an assumption with their count
 * (2 ranks x the 8,192 profile tokens on an 80 GB GPU); on a later release, whose MoE path
 * was not read, a warning that the gather is not counted; with DeepEP, which dispatches
 * tokens to the experts' ranks only, neither. Mixtral-8x7B at data 2 x expert 2. */
static void test_vllm_dp_moe_notes(void **state)
{
    (void)state;
    const struct gs_arch a = fixture_mixtral_8x7b();
    struct gs_workload w = fixture_vllm_workload(4, 4096, 1, 85899345920ULL);
    w.parallelism.data = 2;
    w.parallelism.expert = 2;
    w.serving.engine.version = 1001;
    struct gs_estimate e = fixture_estimate(&a, &w);
    const struct gs_assumption *g = fixture_assumption(&e, "moe_gathered_tokens");
    assert_non_null(g);
    assert_int_equal(g->value, 2 * 8192);
    assert_false(has_warning(&e, "moe_gather_not_modeled"));
    const uint64_t gathered_peak = e.serving.budget.activation_bytes;
    w.parallelism.data = w.parallelism.expert = 1;
    e = fixture_estimate(&a, &w);
    assert_true(e.serving.budget.activation_bytes < gathered_peak);
    w.parallelism.data = w.parallelism.expert = 2;
    w.serving.engine.version = 0; /* the newest release modelled */
    e = fixture_estimate(&a, &w);
    assert_null(fixture_assumption(&e, "moe_gathered_tokens"));
    assert_true(has_warning(&e, "moe_gather_not_modeled"));
    w.serving.engine.all2all = GS_ALL2ALL_DEEPEP_HT;
    e = fixture_estimate(&a, &w);
    assert_false(has_warning(&e, "moe_gather_not_modeled"));
}

/* V1's profile run encodes a dummy batch of the largest images and keeps the
 * pixel batch and the encoder outputs (encoder_cache) through the text run and
 * the sampler; at 8,192 batched tokens, in bf16:
 *   Gemma 3 4B: 256 tokens per 896 x 896 image -> 32 images x (3 x 896^2 +
 *     256 x 2,560) x 2 = 196,083,712 B (0.18 GiB: 3.68 -> 3.86 GiB profiled,
 *     logged 3.89)
 *   Mistral-Small-3.1: (1,540 / 14 / 2)^2 = 3,025 tokens -> 2 images x (3 x
 *     1,540^2 + 3,025 x 5,120) x 2 = 90,411,200 B
 *   Llama 4 Scout: 17 tiles x (336 / 14)^2 x 0.5^2 = 2,448 tokens -> 3 images
 *     x (17 x 3 x 336^2 + 2,448 x 5,120) x 2 = 109,748,736 B
 * Not on V0 rows, nor on a later pipeline stage. */
static void test_vllm_mm_profile_kept(void **state)
{
    (void)state;
    static const struct {
        const char *file;
        uint64_t bytes;
    } cases[] = {
        {"gemma3/google__gemma-3-4b-it.json", 196083712ULL},
        {"mistral3/mistralai__Mistral-Small-3.1-24B-Instruct-2503.json", 90411200ULL},
        {"llama4/meta-llama__Llama-4-Scout-17B-16E-Instruct.json", 109748736ULL},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct gs_arch a = fixture_arch_file(cases[i].file);
        struct gs_inference_input in = fixture_llama3_8b_on_h100(&a);
        struct gs_inference_result r;
        in.engine.version = 1900;
        in.engine.max_num_batched_tokens = 8192;
        assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
        if (r.mm_profile_bytes != cases[i].bytes)
            fail_msg("%s: %llu bytes kept, expected %llu", cases[i].file,
                     (unsigned long long)r.mm_profile_bytes, (unsigned long long)cases[i].bytes);
        in.engine.version = 703; /* V0 */
        assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
        assert_int_equal(r.mm_profile_bytes, 0);
    }
}

/* Qwen3-VL-30B-A3B's profile dummy (gs_vllm_mm_profile) at 2,048 batched tokens, TP 4, bf16.
 * The checkpoints' processors: an image of 16,777,216 pixels = 16,384 embeddings of 4 patches
 * (65,536 patches), a video of 25,165,824 pixels over its frames = 12,288 embeddings (49,152
 * patches); 1,536 values a patch (3 x 2 x 16 x 16); an output row is the merger's 2,048 and
 * three DeepStack levels' = 8,192 values. The vision block (w 1,152, 16 heads of 72, LayerNorms,
 * MLP 4,304) per patch at TP 4 (w / 4 = 288, I / 4 = 1,076): the MLP max(3w + 2I, 4w + I) =
 * 5,684; the attention 3w + 8 x 288 = 5,760, or with 0.11.0's fp32 rotary 2w + 18 x 288 =
 * 7,488; plus the position embeddings (1,152) and the rotary tables (72) kept per patch.
 *   0.11.0: video, 12,288 x 12.5 = 153,600 tokens (> 16,384), one item; kept: pixels 49,152 x
 *     1,536 x 2 = 150,994,944, the output copied into 153,600 rows plus the output's own
 *     12,288, 165,888 x 16,384 = 2,717,908,992 -> 2,868,903,936. The tower: pixels + 49,152 x
 *     (7,488 + 1,224) x 2 + DeepStack 12,288 x 6,144 x 2 (150,994,944) = 1,158,414,336.
 *   0.14: the video's 12,288 tokens lose to the image's 16,384; kept 65,536 x 1,536 x 2 +
 *     16,384 x 16,384 = 469,762,048; the tower 201,326,592 + 65,536 x (5,760 + 1,224) x 2 +
 *     16,384 x 6,144 x 2 = 1,318,060,032, above what is kept: with no text peak it is what the
 *     dummy adds.
 *   0.8 (pixels in float32): kept 402,653,184 + 268,435,456 = 671,088,640; the tower adds the
 *     bf16 cast: 402,653,184 + 201,326,592 + 65,536 x 17,424 + 201,326,592 = 1,947,205,632. */
static void test_vllm_mm_video_profile(void **state)
{
    (void)state;
    struct gs_arch a = fixture_arch_file("qwen3_vl_moe/Qwen__Qwen3-VL-30B-A3B-Instruct.json");
    assert_int_equal(a.mm_image.tokens, 16384);
    assert_int_equal(a.mm_video.tokens, 12288);
    assert_int_equal(a.mm_embed_width, 8192);
    bool ovf = false;
    struct gs_vllm_mm_profile p =
        gs_vllm_mm_profile(&a, gs_vllm_release_for(1100), 2048, 65536, 4, 2, 0, 0, &ovf);
    assert_true(p.video);
    assert_int_equal(p.item_tokens, 153600);
    assert_int_equal(p.added_bytes, 2868903936ULL);
    assert_int_equal(p.encoder_bytes, 1158414336ULL);
    /* 0.12-0.13 copy into the item's tokens: one item, the same rows */
    p = gs_vllm_mm_profile(&a, gs_vllm_release_for(1200), 2048, 65536, 4, 2, 0, 0, &ovf);
    assert_int_equal(p.added_bytes, 2868903936ULL);
    p = gs_vllm_mm_profile(&a, gs_vllm_release_for(1400), 2048, 65536, 4, 2, 0, 0, &ovf);
    assert_false(p.video);
    assert_int_equal(p.item_tokens, 16384);
    assert_int_equal(p.encoder_bytes, 1318060032ULL);
    assert_int_equal(p.added_bytes, 1318060032ULL);
    /* under a text peak of 2 GiB what is kept binds */
    p = gs_vllm_mm_profile(&a, gs_vllm_release_for(1400), 2048, 65536, 4, 2, 2147483648ULL, 0, &ovf);
    assert_int_equal(p.added_bytes, 469762048ULL);
    /* --limit-mm-per-prompt '{"video": 0}' on 0.11.0: the image, 201,326,592 + 65,536 x 17,424
     * + 201,326,592 */
    p = gs_vllm_mm_profile(&a, gs_vllm_release_for(1100), 2048, 65536, 4, 2, 0, GS_MM_VIDEO, &ovf);
    assert_false(p.video);
    assert_int_equal(p.added_bytes, 1544552448ULL);
    p = gs_vllm_mm_profile(&a, gs_vllm_release_for(1100), 2048, 65536, 4, 2, 0,
                           GS_MM_VIDEO | GS_MM_IMAGE, &ovf);
    assert_int_equal(p.item_tokens, 0);
    assert_int_equal(p.added_bytes, 0);
    p = gs_vllm_mm_profile(&a, gs_vllm_release_for(800), 2048, 65536, 4, 2, 0, 0, &ovf);
    assert_int_equal(p.encoder_bytes, 1947205632ULL);
    p = gs_vllm_mm_profile(&a, gs_vllm_release_for(800), 2048, 65536, 4, 2, 2147483648ULL, 0, &ovf);
    assert_int_equal(p.added_bytes, 671088640ULL);
    assert_false(ovf);
}

/* Qwen2.5-VL-7B's profile dummy at max_model_len 128,000, 8,192 batched tokens, TP 1, bf16.
 * The processor's 12,845,056 pixels = 16,384 embeddings of 4 patches of 1,176 values
 * (3 x 2 x 14 x 14); a video is two-frame groups of that image, as many as the context holds:
 * 128,000 / 16,384 = 7 (the most, 14 frames) -> 114,688 tokens, 458,752 patches. The tower
 * (w 1,280, 16 heads of 80, RMSNorms, gated MLP 3,420) per patch: the MLP 4w + 3I + w =
 * 16,660 above the attention's 11w = 14,080 (0.11.0's fp32 rotary: 20w = 25,600), plus the
 * rotary tables' 80 -> 33,480 B; with the pixels (458,752 x 1,176 x 2 = 1,078,984,704):
 * 1,078,984,704 + 458,752 x 33,480 = 16,438,001,664. Kept through the text run: the pixels and
 * 114,688 rows of 3,584 x 2 = 1,901,068,288. Before 0.11 the dummy was built at the batched
 * tokens, one group, and the rotary ran in fp32: 154,140,672 + 65,536 x 51,360 =
 * 3,520,069,632; one group now: 154,140,672 + 65,536 x 33,480 = 2,348,285,952. */
static void test_vllm_mm_qwen2_5_video(void **state)
{
    (void)state;
    struct gs_arch a = fixture_arch_file("qwen2_5_vl/Qwen__Qwen2.5-VL-7B-Instruct.json");
    assert_int_equal(a.mm_image.tokens, 16384);
    assert_int_equal(a.mm_video.patches, 65536);
    bool ovf = false;
    struct gs_vllm_mm_profile p =
        gs_vllm_mm_profile(&a, gs_vllm_release_for(1900), 8192, 128000, 1, 2, 0, 0, &ovf);
    assert_true(p.video);
    assert_int_equal(p.item_tokens, 114688);
    assert_int_equal(p.encoder_bytes, 16438001664ULL);
    assert_int_equal(p.added_bytes, 16438001664ULL);
    p = gs_vllm_mm_profile(&a, gs_vllm_release_for(1900), 8192, 128000, 1, 2, 16ULL << 30, 0,
                           &ovf);
    assert_int_equal(p.added_bytes, 1901068288ULL);
    p = gs_vllm_mm_profile(&a, gs_vllm_release_for(1000), 8192, 128000, 1, 2, 0, 0, &ovf);
    assert_int_equal(p.item_tokens, 16384);
    assert_int_equal(p.encoder_bytes, 3520069632ULL);
    /* a short context holds one group: the video is the image's size */
    p = gs_vllm_mm_profile(&a, gs_vllm_release_for(1900), 8192, 8192, 1, 2, 0, 0, &ovf);
    assert_int_equal(p.item_tokens, 16384);
    assert_int_equal(p.encoder_bytes, 2348285952ULL);
    /* {"video": 0}: the image */
    p = gs_vllm_mm_profile(&a, gs_vllm_release_for(1900), 8192, 128000, 1, 2, 0, GS_MM_VIDEO,
                           &ovf);
    assert_false(p.video);
    assert_int_equal(p.encoder_bytes, 2348285952ULL);
    assert_false(ovf);
}

/* Model Runner V2 (gs_vllm_runs_v2): from 0.25 the default for dense attention models
 * (vllm/config/vllm.py _is_default_v2_model_runner_model, PR #44443); MoE and hybrid models,
 * and speculative methods V2 lacks, stay on V1; VLLM_USE_V2_MODEL_RUNNER (model_runner)
 * decides first. On V2 a cuda_graph_bytes figure is not subtracted (profile_cudagraph_memory
 * returns 0) and no multimodal dummy is profiled: Gemma 3 4B's 196,083,712 bytes (see
 * test_vllm_mm_profile_kept) are gone. */
static void test_vllm_model_runner_v2(void **state)
{
    (void)state;
    struct gs_arch dense = fixture_arch_file("gemma3/google__gemma-3-4b-it.json");
    struct gs_arch moe = fixture_arch_file("mixtral/mistralai__Mixtral-8x22B-v0.1.json");
    struct gs_arch hybrid = fixture_arch_file("jamba/ai21labs__AI21-Jamba-1.5-Mini.json");
    struct gs_inference_input in = fixture_llama3_8b_on_h100(&dense);
    in.engine.max_num_batched_tokens = 8192;
    assert_true(gs_vllm_runs_v2(&in, gs_vllm_release_for(2500)));
    assert_false(gs_vllm_runs_v2(&in, gs_vllm_release_for(2400)));
    in.engine.spec_method = GS_SPEC_NGRAM;
    assert_false(gs_vllm_runs_v2(&in, gs_vllm_release_for(2500)));
    in.engine.spec_method = GS_SPEC_EAGLE3;
    assert_true(gs_vllm_runs_v2(&in, gs_vllm_release_for(2500)));
    in.engine.spec_method = GS_SPEC_NONE;
    in.engine.model_runner = GS_RUNNER_V1;
    assert_false(gs_vllm_runs_v2(&in, gs_vllm_release_for(2500)));
    in.engine.model_runner = GS_RUNNER_V2;
    assert_true(gs_vllm_runs_v2(&in, gs_vllm_release_for(2100)));
    assert_false(gs_vllm_runs_v2(&in, gs_vllm_release_for(2000)));
    in.engine.model_runner = GS_RUNNER_DEFAULT;
    struct gs_inference_input other = fixture_llama3_8b_on_h100(&moe);
    assert_false(gs_vllm_runs_v2(&other, gs_vllm_release_for(2500)));
    other = fixture_llama3_8b_on_h100(&hybrid);
    assert_false(gs_vllm_runs_v2(&other, gs_vllm_release_for(2500)));
    /* a parallel hybrid (Falcon-H1: a Mamba mixer beside each layer's attention) is hybrid too */
    struct gs_arch parallel = dense;
    parallel.blocks[parallel.layer_block[0]].rec.state_heads = 8;
    other = fixture_llama3_8b_on_h100(&parallel);
    assert_false(gs_vllm_runs_v2(&other, gs_vllm_release_for(2500)));

    struct gs_inference_result v1, v2;
    in.engine.has_cuda_graph_bytes = true;
    in.engine.cuda_graph_bytes = 1ULL << 30;
    in.engine.version = 2400;
    assert_int_equal(gs_inference_compute(&in, &v1, NULL), GS_OK);
    in.engine.version = 2500;
    assert_int_equal(gs_inference_compute(&in, &v2, NULL), GS_OK);
    assert_false(v1.model_runner_v2);
    assert_true(v2.model_runner_v2);
    assert_int_equal(v1.mm_profile_bytes, 196083712ULL);
    assert_int_equal(v2.mm_profile_bytes, 0);
    /* V2's dummy sampler on 0.25 (greedy, top-k and top-p off): the bf16 logits and their fp32
     * copy, 6 B x 1,024 requests x 262,208, beside the hidden states without V1's random rows,
     * (8,192 + 1,024) x 2,560 x 2, and the penalty state kept from load, 1,024 x (262,208 +
     * 262,208 / 32 rounded up) x 4: 1,611,005,952 + 47,185,920 + 1,107,566,592 */
    assert_int_equal(v2.v2_penalty_bytes, 1107566592ULL);
    assert_int_equal(v2.budget.activation_bytes, 2765758464ULL);
    /* the same budget but the graphs' gigabyte and the two profiles' peaks (V1's with the
     * dummy's bytes) */
    assert_int_equal(v2.budget.kv_bytes - v1.budget.kv_bytes,
                     (1ULL << 30) + v1.budget.activation_bytes - v2.budget.activation_bytes);
}

/* Before 0.25 Model Runner V2 took models by class name (vllm/config/vllm.py
 * DEFAULT_V2_MODEL_RUNNER_ARCHITECTURES, every entry of architectures): 0.22 Qwen3ForCausalLM,
 * 0.23 adds LlamaForCausalLM and MistralForCausalLM, both neither MoE nor quantized; 0.24 adds
 * DeepseekV2, Qwen2Moe and GraniteMoe and drops the MoE and quantization checks. */
static void test_vllm_model_runner_v2_by_class(void **state)
{
    (void)state;
    struct gs_arch qwen3 = fixture_arch_file("qwen3/Qwen__Qwen3-8B.json");
    struct gs_arch llama = fixture_arch_file("llama/TinyLlama__TinyLlama-1.1B-Chat-v1.0.json");
    struct gs_arch qwen3_moe = fixture_arch_file("qwen3_moe/Qwen__Qwen3-Coder-30B-A3B-Instruct.json");
    assert_string_equal(qwen3.architecture, "Qwen3ForCausalLM");
    assert_string_equal(llama.architecture, "LlamaForCausalLM");
    struct gs_inference_input in = fixture_llama3_8b_on_h100(&qwen3);
    assert_false(gs_vllm_runs_v2(&in, gs_vllm_release_for(2100)));
    assert_true(gs_vllm_runs_v2(&in, gs_vllm_release_for(2200)));
    in.weight_format = GS_WF_FP8_BLOCK; /* Qwen3-8B-FP8: quantized, V1 until 0.24 */
    assert_false(gs_vllm_runs_v2(&in, gs_vllm_release_for(2300)));
    assert_true(gs_vllm_runs_v2(&in, gs_vllm_release_for(2400)));
    in.weight_format = GS_WF_BF16;
    in.engine.spec_method = GS_SPEC_DRAFT_MODEL; /* a feature V2 lacks sends it back to V1 */
    assert_false(gs_vllm_runs_v2(&in, gs_vllm_release_for(2200)));

    in = fixture_llama3_8b_on_h100(&llama);
    assert_false(gs_vllm_runs_v2(&in, gs_vllm_release_for(2200)));
    assert_true(gs_vllm_runs_v2(&in, gs_vllm_release_for(2300)));

    /* MoE by name from 0.24: Qwen2-MoE is listed, Qwen3-MoE is not; 0.25's dense rule keeps the
     * list (_is_default_v2_model_runner_model: listed or not MoE) */
    in = fixture_llama3_8b_on_h100(&qwen3_moe);
    assert_false(gs_vllm_runs_v2(&in, gs_vllm_release_for(2400)));
    struct gs_arch qwen2_moe = qwen3_moe;
    strcpy(qwen2_moe.architecture, "Qwen2MoeForCausalLM");
    in = fixture_llama3_8b_on_h100(&qwen2_moe);
    assert_false(gs_vllm_runs_v2(&in, gs_vllm_release_for(2300)));
    assert_true(gs_vllm_runs_v2(&in, gs_vllm_release_for(2400)));
    assert_true(gs_vllm_runs_v2(&in, gs_vllm_release_for(2500)));

    /* through the budget on 0.23: V2 subtracts no graph estimate, so a graph size given for
     * V1 moves the pool by exactly that */
    in = fixture_llama3_8b_on_h100(&llama);
    in.engine.has_cuda_graph_bytes = true;
    in.engine.cuda_graph_bytes = 1ULL << 30;
    struct gs_inference_result v1, v2;
    in.engine.version = 2200;
    assert_int_equal(gs_inference_compute(&in, &v1, NULL), GS_OK);
    in.engine.version = 2300;
    assert_int_equal(gs_inference_compute(&in, &v2, NULL), GS_OK);
    assert_false(v1.model_runner_v2);
    assert_true(v2.model_runner_v2);
    /* V2's peak is the layer's, 8,192 x 2 x (2 x 2,048 + 3 x 5,632) = 343,932,928, above its
     * sampler's 6 x 1,024 x 32,000 + 9,216 x 4,096 = 234,356,736, plus the penalty state
     * 1,024 x (32,000 + 1,000) x 4 = 135,168,000 */
    assert_int_equal(v2.budget.activation_bytes, 343932928ULL + 135168000ULL);
    assert_int_equal(v2.budget.kv_bytes - v1.budget.kv_bytes,
                     (1ULL << 30) + v1.budget.activation_bytes - v2.budget.activation_bytes);
}

/* After 0.26 (docs/vllm-kv-budget-research.md section 18): 0.27 profiles the multimodal
 * dummy on Model Runner V2 too (PR #47985); 0.28 lists DeepSeek-V4 (V1 on ROCm) and Kimi-K3
 * (PRs #51768, #52401, #51653); 0.29 runs every model on V2 but the sparse-attention classes on
 * ROCm (PR #53183), and V2 subtracts its own graph estimate (PR #53306). */
static void test_vllm_model_runner_v2_after_0_26(void **state)
{
    (void)state;
    struct gs_arch qwen3_moe = fixture_arch_file("qwen3_moe/Qwen__Qwen3-Coder-30B-A3B-Instruct.json");
    struct gs_arch hybrid = fixture_arch_file("jamba/ai21labs__AI21-Jamba-1.5-Mini.json");
    struct gs_inference_input in = fixture_llama3_8b_on_h100(&qwen3_moe);
    assert_false(gs_vllm_runs_v2(&in, gs_vllm_release_for(2800)));
    assert_true(gs_vllm_runs_v2(&in, gs_vllm_release_for(2900)));
    in.engine.spec_method = GS_SPEC_NGRAM; /* a feature V2 lacks: V1 still */
    assert_false(gs_vllm_runs_v2(&in, gs_vllm_release_for(2900)));
    in = fixture_llama3_8b_on_h100(&hybrid);
    assert_false(gs_vllm_runs_v2(&in, gs_vllm_release_for(2800)));
    assert_true(gs_vllm_runs_v2(&in, gs_vllm_release_for(2900)));

    struct gs_arch dsv4 = qwen3_moe;
    strcpy(dsv4.architecture, "DeepseekV4ForCausalLM");
    in = fixture_llama3_8b_on_h100(&dsv4);
    assert_false(gs_vllm_runs_v2(&in, gs_vllm_release_for(2700)));
    assert_true(gs_vllm_runs_v2(&in, gs_vllm_release_for(2800)));
    assert_true(gs_vllm_runs_v2(&in, gs_vllm_release_for(3000)));
    in.gpu.rocm = true;
    assert_false(gs_vllm_runs_v2(&in, gs_vllm_release_for(2800)));
    assert_false(gs_vllm_runs_v2(&in, gs_vllm_release_for(2900)));
    struct gs_arch kimi = qwen3_moe;
    strcpy(kimi.architecture, "KimiK3ForConditionalGeneration");
    in = fixture_llama3_8b_on_h100(&kimi);
    in.gpu.rocm = true;
    assert_false(gs_vllm_runs_v2(&in, gs_vllm_release_for(2700)));
    assert_true(gs_vllm_runs_v2(&in, gs_vllm_release_for(2800)));

    /* Gemma 3 4B on V2: no multimodal dummy on 0.26, the same 196,083,712 bytes as V1's from
     * 0.27 (test_vllm_model_runner_v2); a given graph figure counts on V2 from 0.29 only */
    struct gs_arch gemma = fixture_arch_file("gemma3/google__gemma-3-4b-it.json");
    in = fixture_llama3_8b_on_h100(&gemma);
    in.engine.max_num_batched_tokens = 8192;
    in.engine.has_cuda_graph_bytes = true;
    in.engine.cuda_graph_bytes = 1ULL << 30;
    struct gs_inference_result r26, r27, r29;
    in.engine.version = 2600;
    assert_int_equal(gs_inference_compute(&in, &r26, NULL), GS_OK);
    in.engine.version = 2700;
    assert_int_equal(gs_inference_compute(&in, &r27, NULL), GS_OK);
    in.engine.version = 2900;
    assert_int_equal(gs_inference_compute(&in, &r29, NULL), GS_OK);
    assert_true(r26.model_runner_v2 && r27.model_runner_v2 && r29.model_runner_v2);
    assert_int_equal(r26.mm_profile_bytes, 0);
    assert_int_equal(r27.mm_profile_bytes, 196083712ULL);
    assert_int_equal(r29.mm_profile_bytes, 196083712ULL);
    assert_int_equal(r26.budget.kv_bytes - r27.budget.kv_bytes, 196083712ULL);
    /* from 0.28 the sampler keeps the logits alone (PR #47711): 2 x 1,024 x 262,208 + 47,185,920
     * = 584,187,904 falls below the layer's 8,192 x 2 x (2 x 2,560 + 3 x 10,240) = 587,202,560,
     * which with the dummy's bytes and the penalty state is the peak */
    assert_int_equal(r29.budget.activation_bytes, 587202560ULL + 196083712ULL + 1107566592ULL);
    assert_int_equal(r27.budget.kv_bytes - r29.budget.kv_bytes,
                     (int64_t)(1ULL << 30) -
                         (int64_t)(r27.budget.activation_bytes - r29.budget.activation_bytes));
    /* at TP 2 the all-gather of the logits' shards in compute_logits is the sampler phase's
     * peak: 1,024 x (4 x 262,208 + 2 x 131,104) = 1,342,504,960 beside the 47,185,920 of
     * hidden states, above the layer's 8,192 x 2 x (2 x 2,560 + 3 x 10,240 / 2) = 335,544,320;
     * then the dummy's bytes and the penalty state as at TP 1 */
    in.tensor = 2;
    assert_int_equal(gs_inference_compute(&in, &r29, NULL), GS_OK);
    assert_int_equal(r29.budget.activation_bytes,
                     1342504960ULL + 47185920ULL + 196083712ULL + 1107566592ULL);
}

/* 0.28's get_batch_defaults tier (PR #51726): vllm serve profiles 16,384 tokens on GPUs of
 * 160 GiB or more, by capacity alone (a B200's 180 GB, an MI300X's 192 GB; not an H200's
 * 141 GB); and its bitsandbytes loader is gone. */
static void test_vllm_0_28_defaults(void **state)
{
    (void)state;
    const uint64_t b200 = 180000000000ULL, mi300x = 192000000000ULL, h200 = 141000000000ULL;
    struct gs_vllm_profile p = profile(2700, b200, false, 8192, false, false, 0);
    assert_int_equal(p.tokens, 8192);
    assert_int_equal(p.seqs, 1024);
    p = profile(2800, b200, false, 8192, false, false, 0);
    assert_int_equal(p.tokens, 16384);
    assert_int_equal(p.seqs, 1024);
    p = profile(2900, mi300x, false, 8192, false, false, 0);
    assert_int_equal(p.tokens, 16384);
    p = profile(2800, h200, false, 8192, false, false, 0);
    assert_int_equal(p.tokens, 8192);

    struct gs_arch llama = fixture_arch_file("llama/TinyLlama__TinyLlama-1.1B-Chat-v1.0.json");
    struct gs_inference_input in = fixture_llama3_8b_on_h100(&llama);
    in.weight_format = GS_WF_NF4;
    in.context_length = 2048; /* TinyLlama's max_position_embeddings */
    struct gs_inference_result r;
    in.engine.version = 2700;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_false(r.loader_removed);
    assert_true(r.starts);
    assert_null(r.engine_refusal);
    in.engine.version = 2800; /* no loader: the engine does not start, whatever the memory */
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_true(r.loader_removed);
    assert_false(r.starts);
    assert_false(r.holds_batch);
    assert_non_null(r.engine_refusal);
    assert_string_equal(r.binding, r.engine_refusal);
    in.weight_format = GS_WF_AWQ;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_false(r.loader_removed);
    assert_true(r.starts);
}

static void test_vllm_mxfp4_layout(void **state)
{
    (void)state;
    struct gs_arch big = fixture_arch_file("gpt_oss/openai__gpt-oss-120b.json");
    struct gs_arch small = fixture_arch_file("gpt_oss/openai__gpt-oss-20b.json");
    uint64_t counts[GS_BLOCKS_MAX], small_counts[GS_BLOCKS_MAX];
    gs_arch_count_blocks(&big, 0, big.num_hidden_layers, counts);
    gs_arch_count_blocks(&small, 0, small.num_hidden_layers, small_counts);
    bool ovf = false;
    const struct gs_vllm_release *v14 = gs_vllm_release_for(1401), *v10 = gs_vllm_release_for(1001);
    assert_true(v14->mxfp4_triton);
    assert_false(v10->mxfp4_triton);
    assert_int_equal(gs_vllm_mxfp4_layout_bytes(&big, v14, GS_HW_HOPPER, counts, 1, 1, &ovf),
                     3795517440ULL);
    assert_int_equal(gs_vllm_mxfp4_layout_bytes(&big, v10, GS_HW_HOPPER, counts, 1, 1, &ovf),
                     5504827392ULL);
    assert_int_equal(gs_vllm_mxfp4_layout_bytes(&big, v14, GS_HW_AMPERE, counts, 1, 1, &ovf),
                     5504827392ULL); /* Marlin below SM 9.0 */
    assert_int_equal(gs_vllm_mxfp4_layout_bytes(&small, v14, GS_HW_HOPPER, small_counts, 2, 1,
                                                &ovf),
                     442712064ULL);
    assert_int_equal(gs_vllm_mxfp4_layout_bytes(&big, v14, GS_HW_BLACKWELL, counts, 1, 1, &ovf), 0);
    assert_false(ovf);

    /* through the budget: only MXFP4 weights under vLLM */
    struct gs_inference_input in = fixture_llama3_8b_on_h100(&big);
    struct gs_inference_result r;
    in.weights_bytes = 65263000000ULL;
    in.context_length = 8192;
    in.gpu.hw = GS_HW_HOPPER;
    in.weight_format = GS_WF_MXFP4;
    in.engine.version = 1401;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_int_equal(r.budget.layout_bytes, 3795517440ULL);
    assert_int_equal(r.budget.weights_bytes,
                     65263000000ULL + 3795517440ULL + r.budget.rope_cache_bytes);
    in.weight_format = GS_WF_BF16;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_int_equal(r.budget.layout_bytes, 0);
    in.weight_format = GS_WF_MXFP4;
    in.engine.engine = GS_ENGINE_SGLANG;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_int_equal(r.budget.layout_bytes, 0);
}

static void test_rope_tables_in_budget(void **state)
{
    (void)state;
    struct gs_arch a = fixture_arch("{\"model_type\":\"llama\",\"hidden_size\":4096,"
                                    "\"num_hidden_layers\":32,\"num_attention_heads\":32,"
                                    "\"num_key_value_heads\":8,\"intermediate_size\":14336,"
                                    "\"vocab_size\":128256,\"max_position_embeddings\":131072,"
                                    "\"rope_scaling\":{\"factor\":8.0,\"low_freq_factor\":1.0,"
                                    "\"high_freq_factor\":4.0,\"original_max_position_embeddings\":"
                                    "8192,\"rope_type\":\"llama3\"}}");
    assert_int_equal(a.rope_table_count, 1);
    struct gs_inference_input in = fixture_llama3_8b_on_h100(&a);
    struct gs_inference_result r;
    in.engine.version = 604;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_int_equal(r.budget.rope_cache_bytes, 33554432ULL);
    assert_int_equal(r.budget.weights_bytes, 16094076928ULL); /* 14.9888 GiB, as logged */
    in.tensor = 2;
    in.weights_bytes /= 2;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_int_equal(r.budget.rope_cache_bytes, 33554432ULL);
    in.tensor = 1;
    in.weights_bytes *= 2;
    in.engine.engine = GS_ENGINE_SGLANG;
    in.engine.version = 402;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_int_equal(r.budget.rope_cache_bytes, 33554432ULL);
    in.engine.version = 503;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_int_equal(r.budget.rope_cache_bytes, 67108864ULL);
    assert_int_equal(r.budget.weights_bytes, 16060522496ULL + 67108864ULL);
    static const enum gs_engine none[] = {GS_ENGINE_TGI, GS_ENGINE_TENSORRT_LLM, GS_ENGINE_GENERIC};
    for (size_t i = 0; i < 3; i++) {
        in.engine.engine = none[i];
        in.engine.version = 0;
        assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
        assert_int_equal(r.budget.rope_cache_bytes, 0);
    }
}

static void test_vllm_mla_workspace(void **state)
{
    (void)state;
    const struct gs_vllm_release *v1 = gs_vllm_release_for(1900);
    const struct gs_vllm_release *v0 = gs_vllm_release_for_layout(803, 2);
    assert_false(v0->v1);
    assert_int_equal(gs_vllm_mla_workspace_tokens(v1, 8192, 1024, 16, true, false), 65536);
    assert_int_equal(gs_vllm_mla_workspace_tokens(v1, 4096, 256, 16, true, false), 32768);
    assert_int_equal(gs_vllm_mla_workspace_tokens(v1, 1024, 256, 16, false, false), 16384);
    assert_int_equal(gs_vllm_mla_workspace_tokens(v1, 163840, 8192, 16, true, false), 131072);
    assert_int_equal(gs_vllm_mla_workspace_tokens(v0, 8192, 256, 16, false, false), 0);
    assert_int_equal(gs_vllm_mla_workspace_tokens(v0, 8192, 256, 16, false, true), 65536);
    assert_int_equal(gs_vllm_mla_workspace_tokens(v0, 32768, 256, 16, true, false), 131072);
    assert_int_equal(gs_vllm_mla_workspace_tokens(gs_vllm_release_for(703), 8192, 256, 16, true,
                                                  true), 0);

    const struct gs_arch ds = fixture_deepseek_v3();
    uint64_t counts[GS_BLOCKS_MAX];
    gs_arch_count_blocks(&ds, 3, 61, counts); /* MoE layers only: the MoE phase is the larger */
    bool ovf = false;
    assert_int_equal(gs_vllm_activation_peak(&ds, v1, counts, 8192, 1024, 1, 0, 0, false, &ovf),
                     1543503872ULL);
    assert_int_equal(gs_vllm_activation_peak(&ds, v1, counts, 8192, 1024, 1, 65536, 0, false, &ovf),
                     5269094400ULL);
    assert_int_equal(gs_vllm_activation_peak(&ds, v1, counts, 8192, 1024, 8, 0, 0, false, &ovf),
                     1220542464ULL);
    assert_int_equal(gs_vllm_activation_peak(&ds, v1, counts, 8192, 1024, 8, 65536, 0, false, &ovf),
                     1220542464ULL);
    /* V0 0.8.x keeps the up-projection (bound to `_`) through MLACommonImpl.forward, under
     * the prefill's transients; per token, in elements at TP 8 (16 heads): entry 2 x 7168 +
     * 2 x 1536 + 512 + 64 + 2 x 512 = 19,008; the impl's output buffer 7,168 + query 16 x 192
     * + at o_proj's all-reduce kv_b_proj 16 x 256 + key and padded value 2 x 16 x 192 +
     * unpadded output 16 x 128 + o_proj's and the all-reduce's outputs 2 x 7,168 = 36,864;
     * 8,192 x 55,872 x 2 = 915,406,848 + up-projection 65,536 x 16 x 256 x 2 = 536,870,912
     * = 1,452,277,760 (above the MoE phase, 1,220,542,464), + the kept latent workspace
     * 65,536 x 576 x 2 = 75,497,472 */
    assert_int_equal(gs_vllm_activation_peak(&ds, v0, counts, 8192, 256, 8, 65536, 0, false, &ovf),
                     1527775232ULL);
    /* without the workspace (0.7.x, or prefix caching and chunked prefill off) the impl's
     * transients alone: 915,406,848 stays under the MoE phase */
    assert_int_equal(gs_vllm_activation_peak(&ds, v0, counts, 8192, 256, 8, 0, 0, false, &ovf),
                     1220542464ULL);
    assert_false(ovf);
    /* a model without MLA never sees the term */
    const struct gs_arch l8 = llama(4096, 32, 32, 8, 14336, 128256);
    gs_arch_count_blocks(&l8, 0, 32, counts);
    assert_int_equal(gs_vllm_activation_peak(&l8, v1, counts, 8192, 1024, 1, 65536, 0, false, &ovf),
                     gs_vllm_activation_peak(&l8, v1, counts, 8192, 1024, 1, 0, 0, false, &ovf));

    /* through the budget (V1, max_model_len 8192, 1,024 sequences on an H200):
     * 65,536 rows for the MLA model, none for Llama */
    struct gs_inference_input in = fixture_llama3_8b_on_h100(&ds);
    in.weights_bytes = 90000000000ULL;
    in.gpu.total_bytes = 150754820096ULL; /* H200 */
    in.engine.version = 1900;
    struct gs_inference_result r;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_int_equal(r.mla_workspace_tokens, 65536);
    in.arch = &l8;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_int_equal(r.mla_workspace_tokens, 0);
}

/* Non-torch memory by release and interconnect (core/src/vllm.c, runtime.c): the
 * profile run's kernel-module growth (0.16 GiB, PR #12126's log), the CUDA
 * context where the release counts device-wide memory (287,047,680 B,
 * pytorch PR #86509), the communication buffers of a tensor-parallel rank
 * by board (PCIe 0.13 GiB as SGLang's 4 x L4 log measures it, Ampere NVLink
 * 0.73 GiB as the deepseek-v2.5 run over sockets prints it), and NCCL's
 * GPUDirect network buffers on a rank whose groups span nodes (0.04 GiB: the
 * same run over InfiniBand). */
static void test_vllm_non_torch(void **state)
{
    (void)state;
    bool ovf = false;
    const uint64_t growth = 171798691, context = 287047680;
    const struct gs_vllm_release *v1 = gs_vllm_release_for(1900);
    const struct gs_vllm_release *old = gs_vllm_release_for(604);
    assert_int_equal(gs_vllm_non_torch(v1, GS_LINK_NVSWITCH, 1, false, true, &ovf), growth);
    assert_int_equal(gs_vllm_non_torch(old, GS_LINK_PCIE, 1, false, true, &ovf), growth + context);
    assert_int_equal(gs_vllm_non_torch(v1, GS_LINK_NVSWITCH, 2, false, true, &ovf),
                     growth + 2050846883ULL);
    assert_int_equal(gs_vllm_non_torch(v1, GS_LINK_NVLINK, 8, false, true, &ovf),
                     growth + 783831531ULL);
    assert_int_equal(gs_vllm_non_torch(v1, GS_LINK_PCIE, 2, false, true, &ovf),
                     growth + 139586437ULL);
    assert_int_equal(gs_vllm_non_torch(v1, GS_LINK_NVLINK, 8, true, true, &ovf),
                     growth + 783831531ULL + 42949672ULL);
    assert_false(ovf);
}

/* QwQ-32B's shape (Qwen2.5-32B): 64 layers, h 5,120, 40 q and 8 kv heads, intermediate
 * 27,648, vocabulary 152,064, untied. */
static struct gs_arch qwq_32b_shape(void)
{
    return fixture_arch("{\"model_type\":\"qwen2\",\"hidden_size\":5120,"
                        "\"num_hidden_layers\":64,\"num_attention_heads\":40,"
                        "\"num_key_value_heads\":8,\"intermediate_size\":27648,"
                        "\"vocab_size\":152064,\"tie_word_embeddings\":false}");
}

/* PyTorch's caching allocator rounds each request of 10 MiB or more up to 2
 * MiB (CUDACachingAllocator.cpp get_allocation_size). Qwen2.5-32B at TP 4
 * (QwQ-32B's architecture), bf16, per layer per rank: fused q/k/v (40 + 2 x
 * 8 heads) / 4 x 128 x 5,120 x 2 = 17.5 MiB -> 18 (+0.5), o_proj 5,120 x
 * 1,280 x 2 = 12.5 MiB -> 14 (+1.5), fused gate/up 2 x 6,912 x 5,120 x 2 =
 * 135 MiB -> 136 (+1), down 67.5 MiB -> 68 (+0.5): 3.5 MiB x 64 = 224 MiB;
 * the embedding and the head 38,016 x 5,120 x 2 = 371.25 MiB each (+0.75):
 * 225.5 MiB = 236,453,888 B. SGLang 0.4.3.post4 logged 15.54 GiB loaded per
 * rank of 4 x L4 where the parameters and its fp32 rotary table are 15.32. */
static void test_segment_slack(void **state)
{
    (void)state;
    assert_int_equal(gs_torch_segment_rounding(9 * 1048576ULL), 0);
    assert_int_equal(gs_torch_segment_rounding(10 * 1048576ULL), 0);
    assert_int_equal(gs_torch_segment_rounding(12 * 1048576ULL + 1), 2 * 1048576ULL - 1);
    assert_int_equal(gs_torch_segment_rounding(13107200ULL), 1572864ULL);
    struct gs_arch q = qwq_32b_shape();
    uint64_t counts[GS_BLOCKS_MAX];
    gs_arch_count_blocks(&q, 0, 64, counts);
    bool ovf = false;
    struct gs_weights_request r = {GS_WF_BF16, 0, 4, 1, false, 1, {GS_SPLIT_VLLM, 0, {0}, 0},
                                   false};
    assert_int_equal(gs_weights_segment_slack(&q, &r, counts, true, true, &ovf), 236453888ULL);
    /* fp8 values are one byte: q/k/v 8.75 MiB and o_proj 6.25 MiB stay under 10 MiB, gate/up
     * 67.5 -> 68, down 33.75 -> 34 (+0.25): 0.75 MiB x 64 layers + the 16-bit embedding and
     * head (+0.75 each) = 49.5 MiB */
    r.format = GS_WF_FP8_BLOCK;
    assert_int_equal(gs_weights_segment_slack(&q, &r, counts, true, true, &ovf), 51904512ULL);
    assert_false(ovf);

    /* through the budget: SGLang and TGI count it with the weights, vLLM does not */
    struct gs_inference_input in = fixture_llama3_8b_on_h100(&q);
    struct gs_inference_result res;
    in.tensor = 4;
    in.weight_format = GS_WF_BF16;
    in.weights_bytes = 16400000000ULL;
    in.engine.engine = GS_ENGINE_SGLANG;
    assert_int_equal(gs_inference_compute(&in, &res, NULL), GS_OK);
    assert_int_equal(res.budget.segment_slack_bytes, 236453888ULL);
    assert_int_equal(res.budget.weights_bytes,
                     16400000000ULL + res.budget.rope_cache_bytes + 236453888ULL);
    in.engine.engine = GS_ENGINE_VLLM;
    assert_int_equal(gs_inference_compute(&in, &res, NULL), GS_OK);
    assert_int_equal(res.budget.segment_slack_bytes, 0);
    const uint64_t plain = res.budget.non_torch_bytes;
    /* vLLM 0.6.4: non_torch_allocations = used - torch's allocated bytes, after empty_cache */
    in.engine.version = 604;
    assert_int_equal(gs_inference_compute(&in, &res, NULL), GS_OK);
    assert_int_equal(res.budget.segment_slack_bytes, 236453888ULL);
    in.engine.version = 605;
    struct gs_inference_result later;
    assert_int_equal(gs_inference_compute(&in, &later, NULL), GS_OK);
    assert_int_equal(later.budget.segment_slack_bytes, 0);
    assert_int_equal(res.budget.non_torch_bytes - later.budget.non_torch_bytes,
                     287047680ULL + 236453888ULL); /* the CUDA context and the rounding */
    assert_true(plain > 0);
}

/* vLLM creates some classes' MoE routers in fp32 whatever the model's dtype (models/glm4_moe.py
 * Glm4MoE: nn.Linear(hidden, n_routed_experts, dtype=torch.float32); minimax_m2.py
 * MiniMaxM2MoE: ReplicatedLinear(..., params_dtype=torch.float32)), whole on every rank: 2 bytes
 * more an element than the 16-bit router gpusizer weighs. GLM-4.5-Air (46 layers, the first
 * dense, 128 experts, h 4,096): 45 x 128 x 4,096 x 2 = 47,185,920 B at any TP and for fp8
 * weights (routers never quantize); none for fp32 weights. MiniMax-M2.7 (62 layers, 256
 * experts, h 3,072): 62 x 256 x 3,072 x 2 = 97,517,568 B. A class vLLM builds in the model's
 * dtype (Qwen3-MoE's gate) and SGLang add nothing; Nemotron-H's by release and GPU. */
static void test_vllm_fp32_routers(void **state)
{
    (void)state;
    struct gs_arch glm = fixture_arch_file("glm4_moe/zai-org__GLM-4.5-Air.json");
    uint64_t counts[GS_BLOCKS_MAX];
    gs_arch_count_blocks(&glm, 0, glm.num_hidden_layers, counts);
    bool ovf = false;
    struct gs_weights_request r = {GS_WF_BF16, 0, 1, 1, false, 1, {GS_SPLIT_VLLM, 0, {0}, 0},
                                   false};
    assert_int_equal(gs_weights_router_fp32_growth(&glm, &r, counts, &ovf), 47185920ULL);
    r.tensor = 4;
    assert_int_equal(gs_weights_router_fp32_growth(&glm, &r, counts, &ovf), 47185920ULL);
    r.format = GS_WF_FP8_BLOCK;
    assert_int_equal(gs_weights_router_fp32_growth(&glm, &r, counts, &ovf), 47185920ULL);
    r.format = GS_WF_FP32;
    assert_int_equal(gs_weights_router_fp32_growth(&glm, &r, counts, &ovf), 0);
    struct gs_arch mm = fixture_arch_file("minimax_m2/MiniMaxAI__MiniMax-M2.7.json");
    uint64_t mm_counts[GS_BLOCKS_MAX];
    gs_arch_count_blocks(&mm, 0, mm.num_hidden_layers, mm_counts);
    r.format = GS_WF_FP8_BLOCK;
    assert_int_equal(gs_weights_router_fp32_growth(&mm, &r, mm_counts, &ovf), 97517568ULL);
    assert_false(ovf);

    /* through vLLM's budget, in the weights it loads */
    struct gs_inference_input in = fixture_llama3_8b_on_h100(&glm);
    struct gs_inference_result res;
    in.weights_bytes = 40000000000ULL;
    in.weight_format = GS_WF_BF16;
    assert_int_equal(gs_inference_compute(&in, &res, NULL), GS_OK);
    assert_int_equal(res.budget.router_fp32_bytes, 47185920ULL);
    assert_int_equal(res.budget.weights_bytes,
                     40000000000ULL + 47185920ULL + res.budget.rope_cache_bytes);
    in.engine.engine = GS_ENGINE_SGLANG;
    assert_int_equal(gs_inference_compute(&in, &res, NULL), GS_OK);
    assert_int_equal(res.budget.router_fp32_bytes, 0);
    in.engine.engine = GS_ENGINE_VLLM;
    in.weight_format = GS_WF_FP32;
    assert_int_equal(gs_inference_compute(&in, &res, NULL), GS_OK);
    assert_int_equal(res.budget.router_fp32_bytes, 0);
    in.weight_format = GS_WF_BF16;
    strcpy(glm.architecture, "Qwen3MoeForCausalLM");
    assert_int_equal(gs_inference_compute(&in, &res, NULL), GS_OK);
    assert_int_equal(res.budget.router_fp32_bytes, 0);

    /* Hy3-preview (HYV3ForCausalLM, hy_v3.py GateLinear params_dtype fp32): 79 routed layers of
     * 192 x 4,096 = 79 x 192 x 4,096 x 2 = 124,256,256 B; its correction biases are buffers */
    const struct gs_arch hy = fixture_arch(
        "%s", "{\"model_type\":\"hy_v3\",\"architectures\":[\"HYV3ForCausalLM\"],\"vocab_size\":"
              "120832,\"hidden_size\":4096,\"intermediate_size\":13312,\"num_hidden_layers\":80,"
              "\"num_attention_heads\":64,\"num_key_value_heads\":8,\"head_dim\":128,"
              "\"tie_word_embeddings\":false,\"num_experts\":192,\"num_experts_per_tok\":8,"
              "\"num_shared_experts\":1,\"moe_intermediate_size\":1536}");
    uint64_t hy_counts[GS_BLOCKS_MAX];
    gs_arch_count_blocks(&hy, 0, hy.num_hidden_layers, hy_counts);
    r.format = GS_WF_BF16;
    r.tensor = 8;
    assert_int_equal(gs_weights_router_fp32_growth(&hy, &r, hy_counts, &ovf), 124256256ULL);
    in = fixture_llama3_8b_on_h100(&hy);
    in.weights_bytes = 40000000000ULL;
    in.weight_format = GS_WF_FP8_BLOCK;
    assert_int_equal(gs_inference_compute(&in, &res, NULL), GS_OK);
    assert_int_equal(res.budget.router_fp32_bytes, 124256256ULL);

    /* Nemotron 3 Nano's NemotronHMoE gate (23 MoE layers of 128 x 2,688: 23 x 128 x 2,688 x 2 =
     * 15,826,944 B): ReplicatedLinear in fp32 from 0.11.1 on every GPU; from 0.17.0 (PR #35121)
     * GateLinear, in the model dtype on SM 9.0 and 10.x and fp32 on the others */
    const struct gs_arch nano =
        fixture_arch_file("nemotron_h/nvidia__NVIDIA-Nemotron-3-Nano-30B-A3B-BF16.json");
    in = fixture_llama3_8b_on_h100(&nano);
    in.weights_bytes = 40000000000ULL;
    in.weight_format = GS_WF_BF16;
    const struct {
        uint32_t version;
        enum gs_hw hw;
        uint8_t sm_major;
        bool rocm;
        uint64_t bytes;
    } gates[] = {
        {1600, GS_HW_HOPPER, 0, false, 15826944ULL},
        {1700, GS_HW_HOPPER, 0, false, 0},
        {0, GS_HW_BLACKWELL, 0, false, 0},
        {0, GS_HW_BLACKWELL, 10, false, 0},
        {0, GS_HW_BLACKWELL, 12, false, 15826944ULL},
        {0, GS_HW_AMPERE, 0, false, 15826944ULL},
        {0, GS_HW_CDNA3, 0, true, 15826944ULL},
        {1001, GS_HW_AMPERE, 0, false, 0},
    };
    for (size_t i = 0; i < sizeof(gates) / sizeof(gates[0]); i++) {
        in.engine.version = gates[i].version;
        in.gpu.hw = gates[i].hw;
        in.gpu.sm_major = gates[i].sm_major;
        in.gpu.rocm = gates[i].rocm;
        assert_int_equal(gs_inference_compute(&in, &res, NULL), GS_OK);
        assert_int_equal(res.budget.router_fp32_bytes, gates[i].bytes);
    }
}

/* fp8 on Marlin (vLLM marlin_utils_fp8.py prepare_fp8_layer_for_marlin,
 * prepare_moe_fp8_layer_for_marlin): scales of 2 bytes per output column and
 * 128 inputs (block) or per output column (tensor), for the checkpoint's 4
 * bytes per 128 x 128 block or per tensor.
 * QwQ-32B's shape at TP 4 (h 5,120, 40 q and 8 kv heads, intermediate
 * 27,648), block scales: q 2 x 1,280 x 40 = 102,400 for 4 x 10 x 40 = 1,600;
 * k and v 2 x 256 x 40 = 20,480 for 320 each; o 2 x 5,120 x 10 = 102,400
 * for 1,600; gate, up and down 2 x 6,912 x 40 = 2 x 5,120 x 54 = 552,960 for
 * 8,640 each: 1,904,640 - 29,760 = 1,874,880 a layer, x 64 = 119,992,320.
 * Tensor scales: 2 x (1,280 + 256 + 256 + 5,120 + 6,912 + 6,912 + 5,120) -
 * 7 x 4 = 51,684 a layer, x 64 = 3,307,776. Per-channel scales shrink: 0.
 * MiniMax-M2.7 at TP 4 (h 3,072, 48 q and 8 kv heads of 128, 256 experts of
 * 1,536): an expert's gate and up 2 x 384 x 24 = 18,432 for 4 x 3 x 24 = 288
 * each, down 2 x 3,072 x 3 = 18,432 for 288: 54,432 x 256 = 13,934,592;
 * attention q 2 x 1,536 x 24 = 73,728 for 1,152, k and v 2 x 256 x 24 =
 * 12,288 for 192 each, o 2 x 3,072 x 12 = 73,728 for 1,152: 169,344; the
 * router stays bf16: 14,103,936 a layer, x 62 = 874,444,032 (0.81 GiB,
 * what the MiniMax-M2.7 log on 4 x A100 lacked: +8.9% before, +3.2% after,
 * tests/fixtures/calibration/vllm-2026-startup-logs.json). */
static void test_vllm_fp8_marlin_layout(void **state)
{
    (void)state;
    struct gs_arch q = qwq_32b_shape();
    uint64_t counts[GS_BLOCKS_MAX];
    gs_arch_count_blocks(&q, 0, 64, counts);
    bool ovf = false;
    struct gs_weights_request r = {
        GS_WF_FP8_BLOCK, 0, 4, 1, false, 1, {GS_SPLIT_VLLM, 0, {0}, 0}, false};
    assert_int_equal(gs_weights_fp8_marlin_growth(&q, &r, counts, true, true, &ovf),
                     119992320ULL);
    r.format = GS_WF_FP8;
    assert_int_equal(gs_weights_fp8_marlin_growth(&q, &r, counts, true, true, &ovf), 3307776ULL);
    r.format = GS_WF_FP8_PER_CHANNEL;
    assert_int_equal(gs_weights_fp8_marlin_growth(&q, &r, counts, true, true, &ovf), 0);
    r.format = GS_WF_AWQ;
    assert_int_equal(gs_weights_fp8_marlin_growth(&q, &r, counts, true, true, &ovf), 0);
    struct gs_arch mm = fixture_arch_file("minimax_m2/MiniMaxAI__MiniMax-M2.7.json");
    uint64_t mm_counts[GS_BLOCKS_MAX];
    gs_arch_count_blocks(&mm, 0, mm.num_hidden_layers, mm_counts);
    r.format = GS_WF_FP8_BLOCK;
    assert_int_equal(gs_weights_fp8_marlin_growth(&mm, &r, mm_counts, true, true, &ovf),
                     874444032ULL);
    assert_false(ovf);

    /* through the budget: vLLM below compute capability 8.9 only */
    struct gs_inference_input in = fixture_llama3_8b_on_h100(&q);
    struct gs_inference_result res;
    in.tensor = 4;
    in.weight_format = GS_WF_FP8_BLOCK;
    in.weights_bytes = 18000000000ULL;
    in.gpu.hw = GS_HW_AMPERE;
    assert_int_equal(gs_inference_compute(&in, &res, NULL), GS_OK);
    assert_int_equal(res.budget.layout_bytes, 119992320ULL);
    assert_int_equal(res.budget.weights_bytes,
                     18000000000ULL + 119992320ULL + res.budget.rope_cache_bytes);
    in.gpu.hw = GS_HW_HOPPER; /* fp8 tensor cores: the checkpoint's scales as they are */
    assert_int_equal(gs_inference_compute(&in, &res, NULL), GS_OK);
    assert_int_equal(res.budget.layout_bytes, 0);
    in.gpu.hw = GS_HW_ADA;
    assert_int_equal(gs_inference_compute(&in, &res, NULL), GS_OK);
    assert_int_equal(res.budget.layout_bytes, 0);
    in.gpu.hw = GS_HW_AMPERE;
    in.weight_format = GS_WF_BF16;
    assert_int_equal(gs_inference_compute(&in, &res, NULL), GS_OK);
    assert_int_equal(res.budget.layout_bytes, 0);

    /* SGLang: its fp8 linears on Marlin from PR #8990 (0.5.1), the same scales; counted with
     * the weights it loads, which its pool is what is left of */
    in.engine.engine = GS_ENGINE_SGLANG;
    in.weight_format = GS_WF_FP8_BLOCK;
    assert_int_equal(gs_inference_compute(&in, &res, NULL), GS_OK);
    assert_int_equal(res.budget.layout_bytes, 119992320ULL);
    assert_int_equal(res.budget.weights_bytes, 18000000000ULL + 119992320ULL +
                                                   res.budget.rope_cache_bytes +
                                                   res.budget.segment_slack_bytes);
    in.engine.version = 500;
    assert_int_equal(gs_inference_compute(&in, &res, NULL), GS_OK);
    assert_int_equal(res.budget.layout_bytes, 0);
    in.engine.version = 501;
    in.gpu.hw = GS_HW_ADA;
    assert_int_equal(gs_inference_compute(&in, &res, NULL), GS_OK);
    assert_int_equal(res.budget.layout_bytes, 0);
}

/* Formats an engine runs beyond the capability table's row (gs_engine_runs_format): vLLM's
 * Marlin for Turing (PR #29901, first in 0.14.0: is_fp8_marlin_supported became
 * has_device_capability(75)) runs fp8 and NVFP4 checkpoints weight-only on a T4 from 0.14.0
 * and on the latest release (version 0); 0.13.x and the other engines keep the table's refusal,
 * and Volta
 * (SM 7.0) has no Marlin in any release. */
static void test_engine_formats_beyond_table(void **state)
{
    (void)state;
    struct gs_engine_config c;
    memset(&c, 0, sizeof(c));
    const char *rule = NULL;
    c.engine = GS_ENGINE_VLLM;
    assert_false(gs_hw_runs_format(GS_HW_TURING, GS_WF_FP8_BLOCK, &rule));
    assert_true(gs_engine_runs_format(&c, GS_HW_TURING, GS_WF_FP8_BLOCK, NULL));
    c.version = 1400;
    assert_true(gs_engine_runs_format(&c, GS_HW_TURING, GS_WF_FP8, NULL));
    assert_true(gs_engine_runs_format(&c, GS_HW_TURING, GS_WF_FP8_PER_CHANNEL, NULL));
    c.version = 1301;
    rule = NULL;
    assert_false(gs_engine_runs_format(&c, GS_HW_TURING, GS_WF_FP8, &rule));
    assert_non_null(rule);
    c.version = 0;
    assert_false(gs_engine_runs_format(&c, GS_HW_VOLTA, GS_WF_FP8, NULL));
    /* NVFP4 too (the PR's "Supported Weights"); MXFP4 needs bf16 activations */
    assert_false(gs_hw_runs_format(GS_HW_TURING, GS_WF_NVFP4, NULL));
    assert_true(gs_engine_runs_format(&c, GS_HW_TURING, GS_WF_NVFP4, NULL));
    assert_false(gs_engine_runs_format(&c, GS_HW_TURING, GS_WF_MXFP4, NULL));
    const enum gs_engine others[] = {GS_ENGINE_SGLANG, GS_ENGINE_TENSORRT_LLM, GS_ENGINE_TGI};
    for (size_t i = 0; i < sizeof(others) / sizeof(others[0]); i++) {
        c.engine = others[i];
        assert_false(gs_engine_runs_format(&c, GS_HW_TURING, GS_WF_FP8, NULL));
        assert_true(gs_engine_runs_format(&c, GS_HW_AMPERE, GS_WF_FP8, NULL));
    }
}

/* What fails an engine at startup whatever the memory (gs_engine_ops.refusal): the answer
 * says it does not start, with the reason as its binding.
 * - DeepSeek sparse attention: every vLLM sparse MLA backend accepts compute capability 9 or
 *   10 (12 for FlashInfer's SM120 one), SGLang's DSA kernels Hopper and Blackwell: refused on
 *   Ampere and Ada, started on Hopper and on AMD (vLLM's and SGLang's ROCm paths).
 * - fp8 MoE below compute capability 8.9: vLLM's Triton fused MoE until PR #16850 (0.9.0)
 *   gave Marlin; SGLang's Fp8MoEMethod has no Marlin path. Dense fp8 runs on Marlin in both.
 * - TensorRT-LLM's precision support matrix: FP8 from Ada, FP4 on Blackwell. */
static void test_engine_refusals(void **state)
{
    (void)state;
    struct gs_arch dsa = fixture_arch_file("deepseek_v32/deepseek-ai__DeepSeek-V3.2.json");
    struct gs_inference_input in = fixture_llama3_8b_on_h100(&dsa);
    struct gs_inference_result r;
    in.weights_bytes = 40000000000ULL; /* a share of the weights that fits */
    in.tensor = 8;
    in.pipeline = 2;
    in.weight_format = GS_WF_FP8_BLOCK;
    const enum gs_hw hopper_up[] = {GS_HW_HOPPER, GS_HW_BLACKWELL, GS_HW_CDNA3};
    for (size_t i = 0; i < sizeof(hopper_up) / sizeof(hopper_up[0]); i++)
        for (int engine = GS_ENGINE_VLLM; engine <= GS_ENGINE_SGLANG; engine++) {
            in.engine.engine = (enum gs_engine)engine;
            in.gpu.hw = hopper_up[i];
            assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
            assert_null(r.engine_refusal);
            assert_true(r.starts);
        }
    const enum gs_hw older[] = {GS_HW_AMPERE, GS_HW_ADA};
    for (size_t i = 0; i < 2; i++)
        for (int engine = GS_ENGINE_VLLM; engine <= GS_ENGINE_SGLANG; engine++) {
            in.engine.engine = (enum gs_engine)engine;
            in.gpu.hw = older[i];
            assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
            assert_non_null(r.engine_refusal);
            assert_non_null(strstr(r.engine_refusal, "compute capability 9.0"));
            assert_false(r.starts);
            assert_false(r.holds_batch);
            assert_string_equal(r.binding, r.engine_refusal);
        }
    in.weight_format = GS_WF_BF16; /* whatever the weights and the cache */
    in.kv_dtype = GS_KV_FP8;
    in.engine.engine = GS_ENGINE_VLLM;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_false(r.starts);

    struct gs_arch moe = fixture_arch_file("qwen3_moe/Qwen__Qwen3-Coder-30B-A3B-Instruct.json");
    in = fixture_llama3_8b_on_h100(&moe);
    in.weights_bytes = 32000000000ULL;
    in.weight_format = GS_WF_FP8_BLOCK;
    in.gpu.hw = GS_HW_AMPERE;
    in.engine.version = 805; /* vLLM 0.8.5: Triton only */
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_non_null(r.engine_refusal);
    assert_non_null(strstr(r.engine_refusal, "before 0.9.0"));
    assert_false(r.starts);
    in.engine.version = 900; /* Marlin */
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_null(r.engine_refusal);
    assert_true(r.starts);
    in.gpu.hw = GS_HW_ADA; /* fp8 tensor cores: Triton w8a8 */
    in.engine.version = 805;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_true(r.starts);
    in.engine.engine = GS_ENGINE_SGLANG;
    in.engine.version = 0;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_true(r.starts);
    in.gpu.hw = GS_HW_AMPERE;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_non_null(r.engine_refusal);
    assert_non_null(strstr(r.engine_refusal, "fp8e4nv"));
    assert_false(r.starts);
    in.weight_format = GS_WF_AWQ;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_true(r.starts);

    struct gs_arch dense = llama(4096, 32, 32, 8, 14336, 128256); /* dense fp8: Marlin's linears */
    in = fixture_llama3_8b_on_h100(&dense);
    in.weights_bytes = 9000000000ULL;
    in.weight_format = GS_WF_FP8;
    in.gpu.hw = GS_HW_AMPERE;
    for (int engine = GS_ENGINE_VLLM; engine <= GS_ENGINE_SGLANG; engine++) {
        in.engine.engine = (enum gs_engine)engine;
        assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
        assert_null(r.engine_refusal);
        assert_true(r.starts);
    }
    /* TensorRT-LLM's support matrix: no FP8 on Ampere, FP4 on Blackwell only, no fallback */
    in.engine.engine = GS_ENGINE_TENSORRT_LLM;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_non_null(r.engine_refusal);
    assert_non_null(strstr(r.engine_refusal, "FP8"));
    assert_false(r.starts);
    in.gpu.hw = GS_HW_ADA;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_true(r.starts);
    in.weight_format = GS_WF_NVFP4;
    in.weights_bytes = 5000000000ULL;
    in.gpu.hw = GS_HW_HOPPER;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_non_null(r.engine_refusal);
    assert_non_null(strstr(r.engine_refusal, "NVFP4"));
    in.gpu.hw = GS_HW_BLACKWELL;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_null(r.engine_refusal);
    /* MXFP8's e8m0 block scales: Blackwell tensor cores in TensorRT-LLM, no fallback */
    in.weight_format = GS_WF_MXFP8;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_null(r.engine_refusal);
    in.gpu.hw = GS_HW_HOPPER;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_non_null(r.engine_refusal);
    assert_non_null(strstr(r.engine_refusal, "MXFP8"));
    in.weight_format = GS_WF_AWQ;
    in.gpu.hw = GS_HW_AMPERE;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_null(r.engine_refusal);
    assert_true(r.starts);
}

/* V0 profile_run on a stage after the first (inference.c): the dummy
 * IntermediateTensors' hidden states stay referenced by the caller while the
 * layers replace them, one hidden-wide tensor per profile token more than on
 * the first stage: 8,192 tokens (max(max_model_len, 2048), chunked prefill
 * off) x 4,096 x 2 = 67,108,864 B. Llama 3 8B in three stages of 11, 11 and
 * 10 layers: the first two differ by exactly that; V1 keeps no such term. */
static void test_vllm_v0_intermediate_tensors(void **state)
{
    (void)state;
    struct gs_arch a = llama(4096, 32, 32, 8, 14336, 128256);
    struct gs_inference_input in = fixture_llama3_8b_on_h100(&a);
    struct gs_inference_result first, second;
    in.pipeline = 3;
    in.has_stage = true;
    in.engine.version = 803; /* pipeline parallelism: the V0 engine */
    in.stage = 0;
    assert_int_equal(gs_inference_compute(&in, &first, NULL), GS_OK);
    in.stage = 1;
    assert_int_equal(gs_inference_compute(&in, &second, NULL), GS_OK);
    assert_false(first.release->v1);
    assert_int_equal(first.max_num_batched_tokens, 8192);
    assert_int_equal(second.budget.activation_bytes - first.budget.activation_bytes, 67108864ULL);
    in.engine.version = 1900;
    assert_int_equal(gs_inference_compute(&in, &second, NULL), GS_OK);
    in.stage = 0;
    assert_int_equal(gs_inference_compute(&in, &first, NULL), GS_OK);
    assert_int_equal(second.budget.activation_bytes, first.budget.activation_bytes);
}

/* V0's logits gather (vllm.c gs_vllm_non_torch, runtime.c): on the last
 * stage's first tensor rank, torch.distributed.gather creates torch's own
 * NCCL communicator for the tensor group and NCCL connects the other ranks'
 * 32 channels each to it, 6 MiB of receive buffers per connection over
 * NVLink (LL 512 KiB + LL128 4,800 KiB + header, rounded to 2 MiB). By hand,
 * 8 x A100 (Ampere NVLink, 0.8.3 V0):
 *   second communicator 783,831,531 - 18 MiB custom all-reduce = 764,957,163
 *   receive buffers 7 x 32 x 6 MiB = 1,409,286,144
 * so 171,798,691 + 783,831,531 + 764,957,163 + 1,409,286,144 = 3,129,873,529
 * B (2.91 GiB) on the last stage, and the plain figure elsewhere. The
 * deepseek-v2.5 logs print 0.93 GiB on the first stage's first rank, 2.15
 * GiB on a later rank of the last stage (a sender, not modelled) and leave
 * 2.73 GiB of KV on the hidden one (test_calibration). V1 all-gathers
 * instead (its figures carry that), PCIe cards keep NCCL's buffers in host
 * memory, and one rank gathers nothing. */
static void test_vllm_v0_gather_root(void **state)
{
    (void)state;
    bool ovf = false;
    const uint64_t growth = 171798691, comm = 783831531;
    const struct gs_vllm_release *v0 = gs_vllm_release_for_layout(803, 2);
    const struct gs_vllm_release *v1 = gs_vllm_release_for(1900);
    assert_false(v0->v1);
    assert_int_equal(gs_vllm_non_torch(v0, GS_LINK_NVLINK, 8, false, true, &ovf), 3129873529ULL);
    assert_int_equal(gs_vllm_non_torch(v0, GS_LINK_NVLINK, 8, false, false, &ovf), growth + comm);
    assert_int_equal(gs_vllm_non_torch(v1, GS_LINK_NVLINK, 8, false, true, &ovf), growth + comm);
    assert_int_equal(gs_vllm_non_torch(v0, GS_LINK_PCIE, 2, false, true, &ovf),
                     growth + 139586437ULL);
    assert_int_equal(gs_vllm_non_torch(v0, GS_LINK_NVLINK, 1, false, true, &ovf), growth);
    /* two ranks: one peer's 32 connections */
    assert_int_equal(gs_runtime_gather_root_bytes(GS_LINK_NVLINK, 2, &ovf),
                     comm - 18874368ULL + 32ULL * 6291456ULL);
    /* Hopper: one communicator as vLLM 0.19's init snapshots measure it, 1 GiB less the
     * custom all-reduce's 18 MiB (test_calibration), not the V1 class figure */
    assert_int_equal(gs_runtime_gather_root_bytes(GS_LINK_NVSWITCH, 8, &ovf),
                     1073741824ULL - 18874368ULL + 7ULL * 32ULL * 6291456ULL);
    assert_false(ovf);
}

/* vLLM 0.21 on: 0.92 of the GPU by default, and a given CUDA-graph figure is
 * subtracted; before 0.21 the graphs are captured after the cache is sized
 * (PRs #30515, #38284). */
static void test_vllm_graphs_by_release(void **state)
{
    (void)state;
    struct gs_arch a = llama(4096, 32, 32, 8, 14336, 128256);
    struct gs_inference_input in = fixture_llama3_8b_on_h100(&a);
    in.engine.has_cuda_graph_bytes = true;
    in.engine.cuda_graph_bytes = 1000000000;
    struct gs_inference_result before, after;
    in.engine.version = 1900;
    assert_int_equal(gs_inference_compute(&in, &before, NULL), GS_OK);
    in.engine.version = 2100;
    assert_int_equal(gs_inference_compute(&in, &after, NULL), GS_OK);
    assert_int_equal(before.budget.fraction_permille, 900);
    assert_int_equal(after.budget.fraction_permille, 920);
    const uint64_t total = 85061827297ULL;
    const int64_t more = (int64_t)((total / 1000 * 920 + total % 1000 * 920 / 1000) -
                                   (total / 1000 * 900 + total % 1000 * 900 / 1000));
    assert_int_equal(after.budget.kv_bytes - before.budget.kv_bytes, more - 1000000000);
}

/* The hybrid allocator (kv_cache_utils.py): Gemma 3 27B's 52 local and 10
 * global layers make groups of 10 - 6 local groups (8 padding layers) and
 * 1 global - and the log prints (num_blocks // 7) x 16 tokens with
 * num_blocks = available // page // 10: charged as 70 layers, not 62.
 * Gemma 2's 21 + 21 layers need no padding: the plain figure. */
static void test_vllm_hybrid_allocator(void **state)
{
    (void)state;
    struct gs_arch g3 = fixture_arch("{\"model_type\":\"gemma3_text\",\"hidden_size\":5376,"
                                     "\"num_hidden_layers\":62,\"num_attention_heads\":32,"
                                     "\"num_key_value_heads\":16,\"head_dim\":128,"
                                     "\"intermediate_size\":21504,\"vocab_size\":262208,"
                                     "\"sliding_window\":1024,\"sliding_window_pattern\":6}");
    struct gs_inference_input in = fixture_llama3_8b_on_h100(&g3);
    in.weights_bytes = 54000000000ULL;
    in.engine.has_activation_bytes = true;
    in.engine.activation_bytes = 0;
    in.engine.has_non_torch_bytes = true;
    in.engine.non_torch_bytes = 0;
    struct gs_inference_result r;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_int_equal(r.kv.full_layers, 10);
    assert_int_equal(r.kv.window_layers, 52);
    assert_int_equal(r.kv_groups, 7);
    assert_int_equal(r.kv_group_layers, 10);
    const uint64_t available = (uint64_t)r.budget.kv_bytes;
    const uint64_t page = 16 * (2 * 16 * 128 * 2); /* one layer, one block */
    assert_int_equal(r.max_tokens, available / page / 10 / 7 * 16);
    assert_true(r.max_tokens < available / (page * 62) * 16); /* the plain figure */

    struct gs_arch g2 = fixture_typed("gemma2", 3584, 42, 16, 8, 14336, 256000, true, 256);
    in = fixture_llama3_8b_on_h100(&g2);
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_int_equal(r.kv_groups, 2);
    assert_int_equal(r.kv_group_layers, 21);
    assert_int_equal(r.max_tokens, (uint64_t)r.budget.kv_bytes / (16 * 8192) / 21 / 2 * 16);
}

/* vLLM refuses a max_model_len above the model's (_get_and_verify_max_len):
 * Llama-3-8B's 8,192 positions; Qwen2.5-7B's 32,768 scaled by its yarn
 * factor 4 over original_max_position_embeddings 32,768 = 131,072; llama3
 * scaling (Llama 3.1) already states its 131,072. */
static void test_vllm_max_model_len(void **state)
{
    (void)state;
    struct gs_arch a = fixture_arch("{\"model_type\":\"llama\",\"hidden_size\":4096,"
                                    "\"num_hidden_layers\":32,\"num_attention_heads\":32,"
                                    "\"num_key_value_heads\":8,\"intermediate_size\":14336,"
                                    "\"vocab_size\":128256,\"max_position_embeddings\":8192}");
    assert_int_equal(a.max_model_len, 8192);
    struct gs_inference_input in = fixture_llama3_8b_on_h100(&a);
    struct gs_inference_result r;
    in.context_length = 16384;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_false(r.starts);
    assert_non_null(strstr(r.binding, "max_model_len"));
    in.context_length = 8192;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_true(r.starts);
    struct gs_arch q = fixture_arch("{\"model_type\":\"qwen2\",\"hidden_size\":3584,"
                                    "\"num_hidden_layers\":28,\"num_attention_heads\":28,"
                                    "\"num_key_value_heads\":4,\"intermediate_size\":18944,"
                                    "\"vocab_size\":152064,\"max_position_embeddings\":32768,"
                                    "\"rope_scaling\":{\"type\":\"yarn\",\"factor\":4.0,"
                                    "\"original_max_position_embeddings\":32768}}");
    assert_int_equal(q.max_model_len, 131072);
    struct gs_arch l31 = fixture_arch("{\"model_type\":\"llama\",\"hidden_size\":4096,"
                                      "\"num_hidden_layers\":32,\"num_attention_heads\":32,"
                                      "\"num_key_value_heads\":8,\"intermediate_size\":14336,"
                                      "\"vocab_size\":128256,\"max_position_embeddings\":131072,"
                                      "\"rope_scaling\":{\"rope_type\":\"llama3\",\"factor\":8.0}}");
    assert_int_equal(l31.max_model_len, 131072);
}

/* vLLM's all-to-all under expert parallelism (all2all.py DeepEP managers,
 * envs.py VLLM_DEEPEP_BUFFER_SIZE_MB = 1024, VLLM_MOE_DP_CHUNK_SIZE = 256;
 * DeepEP csrc/config.hpp LowLatencyLayout). For DeepSeek-V3 (hidden 7168,
 * 256 experts) the low-latency RDMA buffer is, by hand: dispatch message
 * 16 + max(14336, 7168 + 56 x 4) = 14,352 B, combine 14,336 + 56 x 4 =
 * 14,560 B; send max(256 x 14,352, 256 x 256 x 14,560) = 954,204,160,
 * receive max(256 x 256 x 14,352, 954,204,160) = 954,204,160, signaling
 * 1,024; twice each = 3,816,818,688, rounded past 128 = 3,816,818,816. */
static void test_all2all_buffers(void **state)
{
    (void)state;
    bool ovf = false;
    assert_int_equal(gs_runtime_all2all_bytes(GS_ALL2ALL_NCCL, 7168, 256, true, &ovf), 0);
    assert_int_equal(gs_runtime_all2all_bytes(GS_ALL2ALL_DEEPEP_HT, 7168, 256, false, &ovf),
                     1073741824ULL);
    assert_int_equal(gs_runtime_all2all_bytes(GS_ALL2ALL_DEEPEP_HT, 7168, 256, true, &ovf),
                     2147483648ULL);
    assert_int_equal(gs_runtime_all2all_bytes(GS_ALL2ALL_DEEPEP_LL, 7168, 256, false, &ovf),
                     1073741824ULL + 3816818816ULL);
    assert_false(ovf);
    /* in the budget: EP 8 over DP 8 at TP 1 on NVSwitch adds the expert group's NCCL
     * buffers and DeepEP's to the profile growth */
    struct gs_arch a = fixture_deepseek_v3();
    struct gs_inference_input in;
    memset(&in, 0, sizeof(in));
    in.arch = &a;
    in.weights_bytes = 90000000000ULL;
    in.batch_size = 1;
    in.context_length = 4096;
    in.tensor = 1;
    in.pipeline = 1;
    in.model_bytes = 2;
    in.gpu.total_bytes = 150109945856ULL;
    in.gpu.link = GS_LINK_NVSWITCH;
    in.expert = 8;
    in.engine.engine = GS_ENGINE_VLLM;
    in.engine.all2all = GS_ALL2ALL_DEEPEP_HT;
    struct gs_inference_result r;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_int_equal(r.budget.non_torch_bytes, 171798691ULL + 2050846883ULL + 1073741824ULL);
    in.engine.all2all = GS_ALL2ALL_NCCL;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_int_equal(r.budget.non_torch_bytes, 171798691ULL + 2050846883ULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vllm_v0_profile),
        cmocka_unit_test(test_vllm_v1_profile),
        cmocka_unit_test(test_vllm_release_ranges),
        cmocka_unit_test(test_vllm_mla_padding),
        cmocka_unit_test(test_sglang_speculative_reserve),
        cmocka_unit_test(test_sglang_fraction_prefill_graphs),
        cmocka_unit_test(test_sglang_prefill_graphs_by_release),
        cmocka_unit_test(test_sglang_reserve_arguments),
        cmocka_unit_test(test_tensorrt_releases),
        cmocka_unit_test(test_tensorrt_mla_workspace_reserve),
        cmocka_unit_test(test_vllm_sampler_phase),
        cmocka_unit_test(test_vllm_moe_workspace_kept),
        cmocka_unit_test(test_vllm_dp_moe_gather),
        cmocka_unit_test(test_vllm_dp_moe_notes),
        cmocka_unit_test(test_vllm_mm_profile_kept),
        cmocka_unit_test(test_vllm_mm_video_profile),
        cmocka_unit_test(test_vllm_mm_qwen2_5_video),
        cmocka_unit_test(test_vllm_model_runner_v2),
        cmocka_unit_test(test_vllm_model_runner_v2_by_class),
        cmocka_unit_test(test_vllm_model_runner_v2_after_0_26),
        cmocka_unit_test(test_vllm_0_28_defaults),
        cmocka_unit_test(test_vllm_mxfp4_layout),
        cmocka_unit_test(test_rope_tables_in_budget),
        cmocka_unit_test(test_vllm_mla_workspace),
        cmocka_unit_test(test_vllm_non_torch),
        cmocka_unit_test(test_segment_slack),
        cmocka_unit_test(test_vllm_fp32_routers),
        cmocka_unit_test(test_vllm_fp8_marlin_layout),
        cmocka_unit_test(test_engine_refusals),
        cmocka_unit_test(test_engine_formats_beyond_table),
        cmocka_unit_test(test_vllm_v0_intermediate_tensors),
        cmocka_unit_test(test_vllm_v0_gather_root),
        cmocka_unit_test(test_vllm_graphs_by_release),
        cmocka_unit_test(test_vllm_hybrid_allocator),
        cmocka_unit_test(test_vllm_max_model_len),
        cmocka_unit_test(test_all2all_buffers),
        cmocka_unit_test(test_vllm_gemma4_kv_slots),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
