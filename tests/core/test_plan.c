/*
 * test_plan.c - the roofline throughput model and the plan search, against
 * the worked examples of docs/throughput.md and hand computations written
 * out beside each case.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "arch_fixture.h"
#include "gs/perf.h"
#include "gs/plan.h"
#include "gs/recommend.h"
#include "gs/sglang.h"
#include "gs/units.h"

#include <math.h>
#include <string.h>

static struct gs_arch llama(uint64_t h, uint64_t L, uint64_t a, uint64_t k, uint64_t i, uint64_t V)
{
    return fixture_llama(h, L, a, k, i, V, false);
}

/* H100 SXM as llm-analysis lists it (llm_analysis/gpu_configs/h100-sxm-80gb.json;
 * docs/throughput.md, GPU figures): 3,350 GB/s, 989 dense BF16 TFLOPS. */
static struct gs_perf_gpu h100(void)
{
    struct gs_perf_gpu g = {3350, 989, 989, 900, 5};
    return g;
}

static void close_to(double got, double want, double tolerance)
{
    if (fabs(got - want) > tolerance * fabs(want))
        fail_msg("got %.6g, want %.6g (within %.3g%%)", got, want, tolerance * 100);
}

/* Decode upper bounds (efficiency 1; docs/throughput.md, Decode): Llama-2-7B bf16, one
 * sequence: 13,476,831,232 bytes of weights / 3.35 TB/s = 4.023 ms -> 248.6
 * tokens/s ("<=249"); with a 4k context the KV cache adds 4,096 x 524,288 =
 * 2,147,483,648 bytes: 15,624,314,880 / 3.35e12 = 4.664 ms -> 214.4 ("<=214"). */
static void test_decode_upper_bounds(void **state)
{
    (void)state;
    struct gs_arch a = llama(4096, 32, 32, 32, 11008, 32000);
    struct gs_perf_gpu g = h100();
    struct gs_efficiency eff;
    gs_efficiency_defaults(&eff);
    eff.decode_bandwidth_permille = 1000;
    eff.decode_compute_permille = 1000;
    struct gs_decode_input in = {&a, 6607343616ULL, 6738415616ULL, 0, 13476831232ULL, 524288, 1, 1,
                                 1, 0, 0, NULL, 0, 0};
    struct gs_decode_result r;
    assert_true(gs_perf_decode(&in, &g, &eff, &r));
    close_to(r.decode_tokens_per_s, 3350e9 / 13476831232.0, 1e-9);
    close_to(r.decode_tokens_per_s, 248.6, 0.001);
    in.prompt_tokens = 4096; /* decode at a 4,096-token context (no output: the mean is the prompt) */
    assert_true(gs_perf_decode(&in, &g, &eff, &r));
    close_to(r.decode_tokens_per_s, 214.4, 0.001);
    /* memory-bound: the compute side is far smaller at batch 1 */
    assert_true(r.compute_seconds < r.memory_seconds / 50);
    /* the GPU must have the figures */
    struct gs_perf_gpu blank = {0, 0, 0, 0, 0};
    assert_false(gs_perf_decode(&in, &blank, &eff, &r));
}

/* Prefill (docs/throughput.md, Prefill): Llama-2-7B, T = 4,096 at 50% of 989 TFLOPS. Our
 * count uses the active parameters (the input embedding is a lookup, no
 * FLOPs): 2 x 6,607,343,616 x 4,096 = 54,127,358,902,272 plus causal
 * attention 2 x 32 x 4,096^2 x 32 x 128 = 4,398,046,511,104 -> 5.8525e13
 * FLOPs / 494.5e12 = 0.11835 s (counting all 6.74e9 parameters instead would
 * give 5.96e13 FLOPs and 0.12 s). */
static void test_prefill(void **state)
{
    (void)state;
    struct gs_arch a = llama(4096, 32, 32, 32, 11008, 32000);
    struct gs_perf_gpu g = h100();
    struct gs_efficiency eff;
    gs_efficiency_defaults(&eff);
    struct gs_decode_input in = {&a, 6607343616ULL, 6738415616ULL, 0, 13476831232ULL, 524288, 1, 1,
                                 1, 4096, 1, NULL, 0, 0};
    struct gs_decode_result r;
    assert_true(gs_perf_decode(&in, &g, &eff, &r));
    const double flops = 2.0 * 6607343616.0 * 4096 + 2.0 * 32 * 4096.0 * 4096 * 32 * 128;
    close_to(flops, 5.8525405e13, 1e-6);
    close_to(r.prefill_seconds, flops / (989e12 * 0.5), 1e-9);
    close_to(r.prefill_seconds, 0.11835, 0.001);
    /* tensor parallelism over 4 GPUs divides it by 4 */
    in.tensor = 4;
    struct gs_decode_result r4;
    assert_true(gs_perf_decode(&in, &g, &eff, &r4));
    close_to(r4.prefill_seconds, r.prefill_seconds / 4, 1e-9);
    /* and adds two all-reduces per layer: 64 x (10 us + 2 x 3/4 x 8,192 B / 450 GB/s) */
    close_to(r4.comm_seconds, 64 * (10e-6 + 1.5 * 8192 / 450e9), 1e-9);
}

/* The floor a plan search bounds a layout's replicas by before sizing it
 * (gs_perf_request_seconds_floor): a request costs its prefill and its
 * output tokens' share of steps at least compute-bound. Llama-3-70B on H100s
 * at tensor degrees 1-8, batches 1-1024, the mean and the last token, with
 * and without its KV layout: gs_perf_decode's cost per request (1 /
 * requests_per_s, the prefill plus output_tokens x step / batch, which is
 * also what the two pools of a disaggregated layout spend) is never below
 * it, and comes within 10% of it where the batch makes decode compute-bound
 * (5.7% at TP 1, batch 1,024).
 * By hand at TP 1 (prefill and decode compute at 50% of 989 TFLOPS): prefill
 * 2 x 69,503,287,296 x 2,000 + 4 x 80 x 64 x 128 x 2,000^2 / 2 (causal) =
 * 2.83256e14 FLOPs = 0.57281 s; decode 500 x (2 x 69,503,287,296 + 4 x 80 x
 * 8,192 x 2,000) = 7.21247e13 FLOPs = 0.14586 s. */
static void test_request_seconds_floor(void **state)
{
    (void)state;
    struct gs_arch a = llama(8192, 80, 64, 8, 28672, 128256);
    struct gs_perf_gpu g = h100();
    struct gs_efficiency eff;
    gs_efficiency_defaults(&eff);
    struct gs_decode_input in = {.arch = &a,
                                 .active_parameters = 69503287296ULL,
                                 .total_parameters = 70553706496ULL,
                                 .weights_bytes_per_gpu = 141107412992ULL,
                                 .kv_bytes_per_token_per_gpu = 327680,
                                 .tensor = 1,
                                 .pipeline = 1,
                                 .prompt_tokens = 2000,
                                 .output_tokens = 500};
    const double prefill = 2.0 * 69503287296.0 * 2000 + 4.0 * 80 * 64 * 128 * 2000 * 2000 / 2;
    const double decode = 500 * (2.0 * 69503287296.0 + 4.0 * 80 * 8192 * 2000);
    close_to(prefill, 2.83256e14, 1e-5);
    close_to(decode, 7.21247e13, 1e-5);
    close_to(gs_perf_request_seconds_floor(&in, &g, &eff), 0.57281 + 0.14586, 1e-4);
    bool close = false;
    for (uint64_t t = 1; t <= 8; t *= 2) {
        in.tensor = t;
        in.weights_bytes_per_gpu = 141107412992ULL / t;
        const double floor = gs_perf_request_seconds_floor(&in, &g, &eff);
        assert_true(floor > 0);
        for (uint64_t b = 1; b <= 1024; b *= 2) {
            for (int last = 0; last < 2; last++) {
                in.batch = b;
                in.output_fraction = last;
                struct gs_decode_result r;
                assert_true(gs_perf_decode(&in, &g, &eff, &r));
                const double per_request = 1 / r.requests_per_s;
                if (per_request < floor)
                    fail_msg("t=%llu b=%llu: %.9g s per request, below the floor %.9g",
                             (unsigned long long)t, (unsigned long long)b, per_request, floor);
                assert_true(r.prefill_seconds + 500 * r.step_seconds / (double)b >= floor);
                close |= per_request < floor * 1.10;
            }
        }
    }
    assert_true(close);
    /* no figures, no floor */
    struct gs_perf_gpu blank = {0, 0, 0, 0, 0};
    assert_true(gs_perf_request_seconds_floor(&in, &blank, &eff) == 0);
}

/* Mixtral's experts touched per layer with uniform routing (docs/throughput.md,
 * Experts a batch touches):
 * E (1 - (1 - k/E)^B) = 2.0 at B = 1, 5.5 at B = 4, 7.2 at B = 8. */
static void test_moe_experts_touched(void **state)
{
    (void)state;
    struct gs_arch a = fixture_mixtral_8x7b();
    struct gs_perf_gpu g = h100();
    struct gs_efficiency eff;
    gs_efficiency_defaults(&eff);
    const double want[] = {2.0, 5.5, 7.2};
    const uint64_t batch[] = {1, 4, 8};
    for (size_t i = 0; i < 3; i++) {
        struct gs_decode_input in = {&a, 12748853248ULL, 46702792704ULL, 45097156608ULL,
                                     93405585408ULL, 131072, 1, 1, batch[i], 0, 1, NULL, 0, 0};
        struct gs_decode_result r;
        assert_true(gs_perf_decode(&in, &g, &eff, &r));
        close_to(r.experts_touched, want[i], 0.01);
    }
    /* with identity experts beside them (gs_mlp.zero_experts: LongCat-Flash's), the top 2 of
     * 8 + 8 router outputs: E (1 - (1 - k/(E + Z))^B) = 8 (1 - (7/8)^B) = 1.0 at B = 1, 3.3 at
     * B = 4, 5.3 at B = 8 */
    const double with_zero[] = {1.0, 8 * (1 - 0.586182), 8 * (1 - 0.343609)};
    for (size_t i = 0; i < a.block_count; i++)
        a.blocks[i].mlp.zero_experts = a.blocks[i].mlp.kind == GS_MLP_MOE ? 8 : 0;
    for (size_t i = 0; i < 3; i++) {
        struct gs_decode_input in = {&a, 12748853248ULL, 46702792704ULL, 45097156608ULL,
                                     93405585408ULL, 131072, 1, 1, batch[i], 0, 1, NULL, 0, 0};
        struct gs_decode_result r;
        assert_true(gs_perf_decode(&in, &g, &eff, &r));
        close_to(r.experts_touched, with_zero[i], 0.01);
    }
}

/* Training time (C = 6ND, Kaplan et al. 2020; docs/throughput.md, Training
 * time): Llama-2-7B on 2T tokens, C = 6 x 6.74e9 x 2e12 = 8.09e22 FLOPs; 64
 * H100 at 40% MFU -> 887 hours (37 days), 56.8k GPU-hours. */
/* Efficiency by vendor (issue 34 point 4): with CDNA 3's factors gpusizer's roofline gives the
 * published ratios back. MLPerf Inference v4.1 Llama 2 70B: 8 x MI300X within 2-3% of 8 x H100
 * (0.975 taken). Bandwidth-bound decode (one sequence): 5,300 GB/s x 0.616 / 3,350 GB/s =
 * 0.9746 of H100's tokens/s; compute-bound prefill: 1,307.4 x 0.738 / 989.5 = 0.9751.
 * MLPerf Training v5.0 Llama 2 70B LoRA: 8 x MI325X up to 8% faster than 8 x H200:
 * 1,307.4 x 0.817 / 989.5 = 1.0795. NVIDIA generations, and any generation with
 * per_vendor false, are unscaled. */
static void test_vendor_efficiency(void **state)
{
    (void)state;
    struct gs_arch a = llama(8192, 80, 64, 8, 28672, 32000);
    const struct gs_perf_gpu h100_g = {3350, 989.5, 989.5, 900, 5};
    const struct gs_perf_gpu h200_g = {4800, 989.5, 989.5, 900, 5};
    const struct gs_perf_gpu mi300x = {5300, 1307.4, 1307.4, 896, 5};
    const struct gs_perf_gpu mi325x = {6000, 1307.4, 1307.4, 896, 5};
    struct gs_efficiency nv, amd;
    gs_efficiency_defaults(&nv);
    gs_efficiency_for_hw(&nv, GS_HW_HOPPER);
    assert_int_equal(nv.stack_bandwidth_permille, 1000);
    assert_int_equal(nv.stack_training_permille, 1000);
    gs_efficiency_defaults(&amd);
    gs_efficiency_for_hw(&amd, GS_HW_CDNA3);
    assert_non_null(gs_efficiency_hw_source(GS_HW_CDNA3));
    assert_null(gs_efficiency_hw_source(GS_HW_GAUDI));
    struct gs_decode_input in = {&a, 68976648192ULL, 68976648192ULL, 0, 68976648192ULL, 327680,
                                 1, 1, 1, 0, 0, NULL, 0, 0};
    struct gs_decode_result on_h100, on_mi300x;
    assert_true(gs_perf_decode(&in, &h100_g, &nv, &on_h100));
    assert_true(gs_perf_decode(&in, &mi300x, &amd, &on_mi300x));
    close_to(on_mi300x.decode_tokens_per_s / on_h100.decode_tokens_per_s, 0.975, 0.002);
    in.prompt_tokens = 2048;
    const double prefill_ratio = gs_perf_prefill_seconds(&in, &h100_g, &nv) /
                                 gs_perf_prefill_seconds(&in, &mi300x, &amd);
    close_to(prefill_ratio, 0.975, 0.002);
    struct gs_train_input t = {.flop_parameters = 68976648192ULL,
                               .method = GS_METHOD_LORA,
                               .recompute = GS_RECOMPUTE_NONE,
                               .regime = GS_REGIME_BF16_MIXED,
                               .gpus = 8,
                               .pipeline = 1,
                               .micro_batches = 1,
                               .tokens = 1e9};
    struct gs_train_result on_h200, on_mi325x;
    assert_true(gs_perf_train(&t, &h200_g, &nv, &on_h200));
    assert_true(gs_perf_train(&t, &mi325x, &amd, &on_mi325x));
    close_to(on_mi325x.tokens_per_s / on_h200.tokens_per_s, 1.08, 0.002);
    /* per_vendor false: MI300X at NVIDIA's efficiencies, 5,300 / 3,350 = 1.582 times H100 */
    amd.per_vendor = false;
    gs_efficiency_for_hw(&amd, GS_HW_CDNA3);
    in.prompt_tokens = 0;
    assert_true(gs_perf_decode(&in, &mi300x, &amd, &on_mi300x));
    close_to(on_mi300x.decode_tokens_per_s / on_h100.decode_tokens_per_s, 5300.0 / 3350, 1e-9);
}

static void test_training_time(void **state)
{
    (void)state;
    struct gs_perf_gpu g = h100();
    struct gs_efficiency eff;
    gs_efficiency_defaults(&eff);
    struct gs_train_input in = {.flop_parameters = 6738415616ULL,
                                .moe = false,
                                .method = GS_METHOD_FULL,
                                .recompute = GS_RECOMPUTE_NONE,
                                .regime = GS_REGIME_BF16_MIXED,
                                .gpus = 64,
                                .pipeline = 1,
                                .micro_batches = 1,
                                .tokens = 2e12};
    struct gs_train_result r;
    assert_true(gs_perf_train(&in, &g, &eff, &r));
    close_to(r.flops_per_token * 2e12, 8.086e22, 0.001);
    close_to(r.seconds / 3600, 887, 0.001);
    close_to(r.seconds / 86400, 37, 0.01);
    close_to(r.gpu_hours, 56.8e3, 0.001);
    const double seconds_on_64 = r.seconds;
    assert_true(r.stage_balance == 1.0);

    /* four pipeline stages whose busiest does 1,750,139,904 of the 6,607,343,616 active
     * parameters' work (Llama-2-7B's last stage: 8 layers and the head, test_training
     * test_stage_work): every stage keeps its pace, 1,651,835,904 / 1,750,139,904 of the mean */
    struct gs_train_input staged = in;
    staged.flop_parameters = 6607343616ULL;
    staged.pipeline = 4;
    staged.micro_batches = 64;
    struct gs_train_result even, uneven;
    assert_true(gs_perf_train(&staged, &g, &eff, &even));
    staged.stage_flop_parameters = 1750139904ULL;
    assert_true(gs_perf_train(&staged, &g, &eff, &uneven));
    close_to(uneven.stage_balance, 1651835904.0 / 1750139904.0, 1e-12);
    close_to(uneven.tokens_per_s / even.tokens_per_s, 1651835904.0 / 1750139904.0, 1e-12);
    close_to(uneven.bubble_factor, 64.0 / 67, 1e-12);
    /* the same four GPUs as a device_map: one works at a time, whatever the accumulation, and
     * none waits on another: the run goes at one GPU's pace, 1/4 of the four's */
    staged.in_turn = true;
    struct gs_train_result turns;
    assert_true(gs_perf_train(&staged, &g, &eff, &turns));
    close_to(turns.bubble_factor, 0.25, 1e-12);
    close_to(turns.stage_balance, 1, 1e-12);
    close_to(turns.tokens_per_s / even.tokens_per_s, (1 / 4.0) / (64.0 / 67), 1e-12);

    /* published run (Touvron et al. 2023, Llama 2, section 2.2.1, Table 2): Llama 2 7B took
     * 184,320 A100-80GB GPU-hours, which is 39% MFU at 312 TFLOPS:
     * 8.086e22 / (312e12 x 0.39) / 3600 = 184,600 GPU-hours */
    struct gs_perf_gpu a100 = {2039, 312, 312, 600, 4};
    eff.training_mfu_permille = 390;
    assert_true(gs_perf_train(&in, &a100, &eff, &r));
    close_to(r.gpu_hours, 184320, 0.005);

    /* Data-parallel traffic beyond the step's compute slows it (perf.c). ZeRO-3 over 64
     * ranks, 4096 tokens a rank per step: each rank's collectives carry 2 x 13,476,831,232
     * bytes of gathered weights and 13,476,831,232 of gradients, of which a ring sends 63/64
     * from each rank (the estimate's data_parallel_bytes: test_training
     * test_data_parallel_bytes); the step computes 64 x 4096 tokens x 6 x 6,738,415,616
     * FLOPs at 64 x 989e12 x 0.40. Over a 400 Gb/s NIC per GPU (50e9 B/s) the GPUs compute
     * compute / comm of the time; with less to move (ZeRO-1: the gradients and the updated
     * weights) less; at a single rank nothing is moved. */
    {
        struct gs_efficiency base = eff;
        base.training_mfu_permille = 0; /* the dense default, 0.40 */
        struct gs_train_input dp = in;
        dp.data_parallel = 64;
        dp.data_parallel_bytes = 63 * 3 * 13476831232ULL / 64;
        dp.tokens_per_step = 64.0 * 4096;
        dp.link_bytes_per_s = 50e9;
        struct gs_train_result slow;
        assert_true(gs_perf_train(&dp, &g, &base, &slow));
        const double compute = 64.0 * 4096 * 6 * 6738415616.0 / (64 * 989e12 * 0.4);
        const double comm = 63.0 / 64 * 3 * 13476831232.0 / 50e9;
        close_to(slow.comm_factor, compute / comm, 1e-9);
        close_to(slow.mfu, 0.4 * compute / comm, 1e-9);
        close_to(slow.seconds, seconds_on_64 * comm / compute, 1e-9);
        assert_int_equal(slow.data_parallel_bytes, 63 * 3 * 13476831232ULL / 64);
        dp.data_parallel_bytes = 63 * 2 * 13476831232ULL / 64;
        assert_true(gs_perf_train(&dp, &g, &base, &slow));
        close_to(slow.comm_factor, compute / (63.0 / 64 * 2 * 13476831232.0 / 50e9), 1e-9);
        dp.data_parallel = 1;
        assert_true(gs_perf_train(&dp, &g, &base, &slow));
        close_to(slow.comm_factor, 1, 1e-12);
        /* a larger step hides it behind backward */
        dp.data_parallel = 64;
        dp.tokens_per_step = 64.0 * 4096 * 64;
        assert_true(gs_perf_train(&dp, &g, &base, &slow));
        close_to(slow.comm_factor, 1, 1e-12);
        /* tensor parallelism 8 over PCIe (32e9 B/s a direction): four ring all-reduces of
         * each layer's tokens x 4096 bf16 activations per micro-batch, on the critical path:
         * 32 layers x 4 x 2 x 7/8 x (4096 x 64 tokens of one replica x 4096 x 2 B) / 32e9 */
        dp.data_parallel = 8;
        dp.tokens_per_step = 8.0 * 4096 * 64;
        dp.tensor = 8;
        dp.layers = 32;
        dp.hidden = 4096;
        dp.tensor_link_bytes_per_s = 32e9;
        dp.link_bytes_per_s = 0; /* data parallelism left out here */
        assert_true(gs_perf_train(&dp, &g, &base, &slow));
        const double step = 8.0 * 4096 * 64 * 6 * 6738415616.0 / (64 * 989e12 * 0.4);
        const double tp = 32 * 4 * 2 * 7.0 / 8 * (4096.0 * 64 * 4096 * 2) / 32e9;
        close_to(slow.comm_factor, step / (step + tp), 1e-9);
        /* expert parallelism 8 over NVLink (450e9 B/s), no tensor parallelism: each of 32 MoE
         * layers dispatches and combines every token's hidden state to its 2 experts, in
         * forward and backward, 7/8 of it leaving the GPU: 4 x 32 x (8 x 4096 x 64 / 8 tokens
         * of one rank) x 2 x 4096 x 2 B x 7/8 = 481,036,337,152 bytes a step */
        dp.tensor = 1;
        dp.expert = 8;
        dp.moe_layers = 32;
        dp.top_k = 2;
        dp.expert_link_bytes_per_s = 450e9;
        assert_true(gs_perf_train(&dp, &g, &base, &slow));
        const double a2a = 4.0 * 32 * (8.0 * 4096 * 64 / 8) * 2 * 4096 * 2 * 7 / 8;
        close_to(a2a, 481036337152.0, 1e-12);
        assert_int_equal(slow.expert_bytes, 481036337152ULL);
        close_to(slow.comm_factor, step / (step + a2a / 450e9), 1e-9);
        /* full recomputation runs the forward's two again */
        dp.recompute = GS_RECOMPUTE_FULL;
        assert_true(gs_perf_train(&dp, &g, &base, &slow));
        assert_int_equal(slow.expert_bytes, 481036337152ULL * 6 / 4);
        dp.recompute = in.recompute;
        dp.expert = 1;
        assert_true(gs_perf_train(&dp, &g, &base, &slow));
        assert_int_equal(slow.expert_bytes, 0);
        assert_int_equal(slow.expert_tensor_bytes, 0);
        /* expert tensor parallelism 8 with tensor 8 (Megatron-LM's default) over PCIe: each MoE
         * layer all-gathers the tokens routed to its experts over the 8 ranks and
         * reduce-scatters their outputs, forward and backward, each rank sending its top-2
         * copies of its 4096 x 64 / 8 tokens to the 7 others: 4 x 32 x 32,768 x 2 x 4096 x 2 B
         * x 7 = 481,036,337,152 bytes a step (the all-to-alls' figure above, whose ranks held 8
         * times the tokens and sent 7/8 of them), beside the tensor all-reduces */
        dp.tensor = 8;
        dp.expert_tensor = 8;
        dp.expert_tensor_link_bytes_per_s = 32e9;
        assert_true(gs_perf_train(&dp, &g, &base, &slow));
        const double gathers = 4.0 * 32 * (4096.0 * 64 / 8) * 2 * 4096 * 2 * 7;
        close_to(gathers, 481036337152.0, 1e-12);
        assert_int_equal(slow.expert_tensor_bytes, 481036337152ULL);
        assert_int_equal(slow.expert_bytes, 0);
        /* every layer routes here: the tensor group's collectives are attention's alone (the
         * routed tokens' gathers stand for the MLP's), half the dense layers' tp */
        close_to(slow.comm_factor, step / (step + tp / 2 + gathers / 32e9), 1e-9);
        dp.expert_tensor = 1;
        assert_true(gs_perf_train(&dp, &g, &base, &slow));
        assert_int_equal(slow.expert_tensor_bytes, 0);
        close_to(slow.comm_factor, step / (step + tp / 2), 1e-9);
        /* shared experts are a tensor-parallel MLP: their collective is back */
        dp.shared_experts = true;
        assert_true(gs_perf_train(&dp, &g, &base, &slow));
        close_to(slow.comm_factor, step / (step + tp), 1e-9);
        /* a rank of a 2-stage pipeline runs its 16 layers' collectives (the same tokens per
         * replica: dp 4 of 64 GPUs), and full recomputation their forward's again: 16 layers
         * x 2 x 3 passes x 2 x 7/8 x (4096 x 64 x 4096 x 2 B) / 32e9; the compute as 1F1B's
         * bubble leaves it, 64/65 at 2 stages and 64 micro-batches */
        dp.pipeline = 2;
        dp.micro_batches = 64;
        dp.data_parallel = 4;
        dp.tokens_per_step = 4.0 * 4096 * 64;
        dp.recompute = GS_RECOMPUTE_FULL;
        assert_true(gs_perf_train(&dp, &g, &base, &slow));
        const double staged_step = 4.0 * 4096 * 64 * 8 * 6738415616.0 / (64 * 989e12 * 0.4 * 64 / 65);
        const double staged_tp = 16 * 2 * 3 * 2 * 7.0 / 8 * (4096.0 * 64 * 4096 * 2) / 32e9;
        close_to(slow.comm_factor, staged_step / (staged_step + staged_tp), 1e-9);
    }

    /* the deadline sizing inverts it: that time at 40% MFU needs 64 GPUs, a little less 65 */
    eff.training_mfu_permille = 0;
    assert_int_equal(gs_perf_train_gpus_for(&in, &g, &eff, seconds_on_64 * (1 + 1e-9)), 64);
    assert_int_equal(gs_perf_train_gpus_for(&in, &g, &eff, seconds_on_64 * 0.99), 65);

    /* MoE default MFU 0.30; LoRA 4N; full recomputation 8N of work per 6N; the 1F1B bubble
     * with p = 4 and m = 16 is 16/19 */
    in.moe = true;
    in.method = GS_METHOD_LORA;
    in.recompute = GS_RECOMPUTE_FULL;
    in.pipeline = 4;
    in.micro_batches = 16;
    assert_true(gs_perf_train(&in, &g, &eff, &r));
    close_to(r.mfu, 0.30, 1e-12);
    close_to(r.flops_per_token, 4.0 * 6738415616.0, 1e-12);
    close_to(r.hardware_factor, 6.0 / 4.0, 1e-12);
    close_to(r.bubble_factor, 16.0 / 19.0, 1e-12);
    /* interleaved in 2 chunks a stage (Narayanan et al. 2021, section 2.2.2): the bubble's
     * p - 1 slots shrink to (p - 1) / 2 against 16 of work, 16 / 17.5 = 32 / 35 */
    in.virtual_stages = 2;
    assert_true(gs_perf_train(&in, &g, &eff, &r));
    close_to(r.bubble_factor, 32.0 / 35.0, 1e-12);
    in.pipeline = 1; /* nothing to interleave without a pipeline */
    assert_true(gs_perf_train(&in, &g, &eff, &r));
    close_to(r.bubble_factor, 1, 1e-12);
    in.pipeline = 4;
    in.virtual_stages = 0;
    /* fp32 regimes run on TF32 at half the BF16 rate */
    close_to(gs_perf_peak_flops(&g, GS_REGIME_FP32), 494.5e12, 1e-12);
}

/* A model given by its architecture alone. */
static struct gs_model_spec spec_of(struct gs_arch arch)
{
    struct gs_model_spec m;
    memset(&m, 0, sizeof(m));
    m.has_arch = true;
    m.arch = arch;
    return m;
}

static struct gs_plan_gpu plan_h100(void)
{
    struct gs_plan_gpu g;
    memset(&g, 0, sizeof(g));
    g.view.total_bytes = 85061827297ULL; /* 79.22 GiB, the vLLM log */
    g.gpus_per_node = 8;
    g.view.link = GS_LINK_NVSWITCH;
    g.perf = h100();
    g.has_price = true;
    g.price_per_gpu_hour = 2.5;
    return g;
}

static void serving(struct gs_workload *w, uint64_t batch, uint64_t context)
{
    memset(w, 0, sizeof(*w));
    w->mode = GS_MODE_INFERENCE;
    w->weights = GS_DTYPE_BF16;
    gs_training_defaults(&w->training);
    gs_parallelism_defaults(&w->parallelism);
    w->serving.present = true;
    w->serving.batch_size = batch;
    w->serving.context_length = context;
    w->serving.engine.engine = GS_ENGINE_VLLM;
}

/* Llama-3.1-70B bf16 serving two 8k sequences on H100 SXMs (vLLM 0.20 rules,
 * 0.9 of 79.22 GiB = 76.556e9 bytes). TP 2 holds 70.55e9 bytes of weights per
 * GPU; NVSwitch non-torch memory (2.07 GiB = 2.223e9) and the profile run's
 * peak (8,192 tokens x 118,784 B of MLP transients = 0.973e9, plus the
 * sampler over 1,024 requests x 128,256 x 10 B = 1.313e9) leave 1.50e9 for
 * the cache: one 8k sequence (8,192 x 163,840 B = 1.342e9), not two. TP 4
 * holds both. The search answers TP 4, 4 GPUs, $10/hour at $2.50 per
 * GPU-hour. */
static void test_smallest_serving_layout(void **state)
{
    (void)state;
    struct gs_model_spec m = spec_of(llama(8192, 80, 64, 8, 28672, 128256));
    struct gs_workload w;
    serving(&w, 2, 8192);
    struct gs_plan_gpu g = plan_h100();
    struct gs_plan_limits l;
    gs_plan_limits_defaults(&l);
    struct gs_demand d = {.kind = GS_DEMAND_NONE};
    struct gs_efficiency eff;
    gs_efficiency_defaults(&eff);
    struct gs_plan p;
    enum gs_plan_reject why;
    assert_int_equal(gs_plan_search(&m, &w, &g, &l, &d, &eff, 0, NULL, &p, &why, NULL), GS_OK);
    assert_int_equal(why, GS_REJECT_NONE);
    assert_int_equal(p.tensor, 4);
    assert_int_equal(p.pipeline, 1);
    assert_int_equal(p.gpu_count, 4);
    assert_int_equal(p.replicas, 1);
    assert_int_equal(p.nodes, 1);
    close_to(p.cost_per_hour, 10.0, 1e-12);
    assert_true(p.estimate.serving.holds_batch);
    /* the same layout through the estimate: the same per-GPU figures */
    struct gs_workload check = w;
    check.parallelism.tensor = 4;
    check.gpu.total_bytes = g.view.total_bytes;
    check.gpu.link = g.view.link;
    struct gs_estimate est;
    assert_int_equal(gs_estimate_compute(&m, &check, &est, NULL), GS_OK);
    assert_int_equal(est.per_gpu.total_bytes, p.estimate.per_gpu.total_bytes);
    /* TP 2 starts but holds one of the two sequences; the plan says why it is not chosen */
    check.parallelism.tensor = 2;
    assert_int_equal(gs_estimate_compute(&m, &check, &est, NULL), GS_OK);
    assert_true(est.serving.starts);
    assert_false(est.serving.holds_batch);
    assert_int_equal(est.serving.max_concurrency, 1);

    /* with quantization allowed, AWQ int4 on one GPU is cheaper */
    l.allow_quantization = true;
    assert_int_equal(gs_plan_search(&m, &w, &g, &l, &d, &eff, 0, NULL, &p, &why, NULL), GS_OK);
    assert_int_equal(p.gpu_count, 1);
    assert_int_equal(p.format, GS_WF_AWQ);

    /* a demand the layout cannot meet within 4 GPUs */
    l.allow_quantization = false;
    l.max_gpus = 4;
    struct gs_demand big = {
        .kind = GS_DEMAND_OUTPUT_TOKENS, .rate = 1e6, .prompt_tokens = 1000, .output_tokens = 200};
    assert_int_equal(gs_plan_search(&m, &w, &g, &l, &big, &eff, 0, NULL, &p, &why, NULL), GS_OK);
    assert_int_equal(why, GS_REJECT_MISSES_DEMAND);
    /* and one GPU of 24 GB cannot hold it at all */
    g.view.total_bytes = 24000000000ULL;
    l.max_gpus = 2;
    assert_int_equal(gs_plan_search(&m, &w, &g, &l, &d, &eff, 0, NULL, &p, &why, NULL), GS_OK);
    assert_int_equal(why, GS_REJECT_DOES_NOT_FIT);
}

/* A start bound is not a missing kernel: from vLLM 0.19 Qwen3.5-27B on one H100 at 8k tokens
 * leaves a few hundred blocks under the default max_num_seqs of 1,024 and does not start
 * (PR #38270). The search serves it on that one GPU with max_num_seqs lowered to the blocks, as
 * vLLM's message says; where it may not lower it (the request names max_num_seqs, or
 * allow_lower_max_num_seqs is off) it goes on to TP 2, where each GPU holds half the weights and
 * more blocks than 1,024. */
static void test_serving_past_a_start_bound(void **state)
{
    (void)state;
    const struct gs_arch a = fixture_arch_file("qwen3_5/Qwen__Qwen3.5-27B.json");
    const struct gs_model_spec m = fixture_spec(&a);
    struct gs_workload w;
    serving(&w, 8, 8192);
    w.serving.engine.version = 1900;
    struct gs_plan_gpu g = plan_h100();
    struct gs_plan_limits l;
    gs_plan_limits_defaults(&l);
    struct gs_demand d = {.kind = GS_DEMAND_NONE};
    struct gs_efficiency eff;
    gs_efficiency_defaults(&eff);
    static struct gs_plan p;
    enum gs_plan_reject why;
    /* on one GPU the engine stops at the bound, with the blocks it would have */
    struct gs_workload one = w;
    one.gpu.total_bytes = g.view.total_bytes;
    one.gpu.link = g.view.link;
    static struct gs_estimate e;
    assert_int_equal(gs_estimate_compute(&m, &one, &e, NULL), GS_OK);
    assert_false(e.serving.starts);
    assert_true(e.serving.blocks > 0 && e.serving.blocks < e.serving.max_num_seqs);
    assert_int_equal(e.serving.seqs_bound, e.serving.blocks);
    assert_null(e.serving.engine_refusal);
    /* by default the search lowers max_num_seqs to those blocks, as vLLM's message says, and
     * one GPU serves: the plan names the setting, and the layout sized with it starts */
    assert_int_equal(gs_plan_search(&m, &w, &g, &l, &d, &eff, 0, NULL, &p, &why, NULL), GS_OK);
    assert_int_equal(why, GS_REJECT_NONE);
    assert_int_equal(p.tensor, 1);
    assert_int_equal(p.max_num_seqs, e.serving.blocks);
    assert_true(p.estimate.serving.starts);
    assert_int_equal(p.estimate.serving.max_num_seqs, p.max_num_seqs);
    one.serving.engine.max_num_seqs = p.max_num_seqs;
    assert_int_equal(gs_estimate_compute(&m, &one, &e, NULL), GS_OK);
    assert_true(e.serving.starts && e.serving.holds_batch);
    /* a request that names max_num_seqs, or a search not allowed to lower it, goes on to
     * wider layouts instead: TP 2 starts at the default 1,024 */
    l.allow_lower_max_num_seqs = false;
    assert_int_equal(gs_plan_search(&m, &w, &g, &l, &d, &eff, 0, NULL, &p, &why, NULL), GS_OK);
    assert_int_equal(why, GS_REJECT_NONE);
    assert_int_equal(p.tensor, 2);
    assert_int_equal(p.max_num_seqs, 0);
    assert_true(p.estimate.serving.starts);
    assert_true(p.estimate.serving.blocks >= p.estimate.serving.max_num_seqs);
    l.allow_lower_max_num_seqs = true;
    w.serving.engine.max_num_seqs = 1024;
    assert_int_equal(gs_plan_search(&m, &w, &g, &l, &d, &eff, 0, NULL, &p, &why, NULL), GS_OK);
    assert_int_equal(p.tensor, 2);
    assert_int_equal(p.max_num_seqs, 0);
    /* a batch above the bound is not served by queueing it behind a lower max_num_seqs */
    w.serving.engine.max_num_seqs = 0;
    w.serving.batch_size = e.serving.blocks + 1;
    assert_int_equal(gs_plan_search(&m, &w, &g, &l, &d, &eff, 0, NULL, &p, &why, NULL), GS_OK);
    assert_true(why != GS_REJECT_NONE || p.tensor > 1);
    assert_int_equal(p.max_num_seqs, 0);
}

/* Replicas for a token demand: ceil(demand / one replica's rate), and cost
 * follows: Llama-3.1-8B on one H100 per replica. */
static void test_replicas_for_demand(void **state)
{
    (void)state;
    struct gs_model_spec m = spec_of(llama(4096, 32, 32, 8, 14336, 128256));
    struct gs_workload w;
    serving(&w, 1, 4096);
    struct gs_plan_gpu g = plan_h100();
    struct gs_plan_limits l;
    gs_plan_limits_defaults(&l);
    struct gs_efficiency eff;
    gs_efficiency_defaults(&eff);
    struct gs_demand d = {
        .kind = GS_DEMAND_OUTPUT_TOKENS, .rate = 1, .prompt_tokens = 2048, .output_tokens = 2048};
    struct gs_plan p;
    enum gs_plan_reject why;
    assert_int_equal(gs_plan_search(&m, &w, &g, &l, &d, &eff, 0, NULL, &p, &why, NULL), GS_OK);
    assert_int_equal(why, GS_REJECT_NONE);
    assert_int_equal(p.replicas, 1);
    const double one = p.decode.output_tokens_per_s;
    assert_true(one > 0);
    d.rate = one * 7.5;
    assert_int_equal(gs_plan_search(&m, &w, &g, &l, &d, &eff, 0, NULL, &p, &why, NULL), GS_OK);
    assert_int_equal(p.replicas, 8);
    assert_int_equal(p.gpu_count, 8 * p.tensor * p.pipeline);
    close_to(p.output_tokens_per_s, one * 8, 1e-9);
    close_to(p.cost_per_hour, 2.5 * (double)p.gpu_count, 1e-12);
    close_to(p.cost_per_million_tokens, p.cost_per_hour / (p.output_tokens_per_s * 3600) * 1e6,
             1e-12);
    /* the batch each replica runs is what its KV cache holds, at most max_num_seqs (1024) */
    assert_true(p.batch_per_replica <= p.estimate.serving.max_concurrency);
    assert_true(p.batch_per_replica <= 1024);
    /* a budget below the cost rejects it */
    l.max_cost_per_hour = p.cost_per_hour - 0.01;
    assert_int_equal(gs_plan_search(&m, &w, &g, &l, &d, &eff, 0, NULL, &p, &why, NULL), GS_OK);
    assert_int_equal(why, GS_REJECT_OVER_BUDGET);
}

/* One GPU at another price (a price list's offers): the search finds the same plan at any
 * price, so gs_plan_reprice of one search equals a search at the other price - the layout and
 * every figure the same, the cost the new price times the GPUs (or the GPU-hours), and the
 * budget's verdict taken at the new price. Serving under a token rate, and a training run. */
static void same_but_price(const struct gs_plan *a, const struct gs_plan *b)
{
    assert_int_equal(a->gpu_count, b->gpu_count);
    assert_int_equal(a->tensor, b->tensor);
    assert_int_equal(a->pipeline, b->pipeline);
    assert_int_equal(a->data, b->data);
    assert_int_equal(a->replicas, b->replicas);
    assert_int_equal(a->zero_stage, b->zero_stage);
    assert_int_equal(a->micro_batch, b->micro_batch);
    assert_int_equal(a->batch_per_replica, b->batch_per_replica);
    assert_int_equal(a->estimate.per_gpu.total_bytes, b->estimate.per_gpu.total_bytes);
    assert_true(a->has_price && b->has_price);
    assert_true(a->price_per_gpu_hour == b->price_per_gpu_hour);
    assert_true(a->cost_per_hour == b->cost_per_hour);
    assert_true(a->cost_per_million_tokens == b->cost_per_million_tokens);
    assert_true(a->total_cost == b->total_cost);
    assert_true(a->train.gpu_hours == b->train.gpu_hours);
}

static void test_reprice(void **state)
{
    (void)state;
    struct gs_model_spec m = spec_of(llama(4096, 32, 32, 8, 14336, 128256));
    struct gs_workload w;
    serving(&w, 1, 4096);
    struct gs_plan_gpu g = plan_h100(), dear = plan_h100();
    dear.price_per_gpu_hour = 7.13;
    struct gs_plan_limits l;
    gs_plan_limits_defaults(&l);
    struct gs_efficiency eff;
    gs_efficiency_defaults(&eff);
    struct gs_demand d = {
        .kind = GS_DEMAND_OUTPUT_TOKENS, .rate = 9000, .prompt_tokens = 2048, .output_tokens = 512};
    struct gs_plan p, direct;
    enum gs_plan_reject why, direct_why;
    assert_int_equal(gs_plan_search(&m, &w, &g, &l, &d, &eff, 0, NULL, &p, &why, NULL), GS_OK);
    assert_int_equal(why, GS_REJECT_NONE);
    assert_true(p.replicas > 1);
    assert_int_equal(gs_plan_search(&m, &w, &dear, &l, &d, &eff, 0, NULL, &direct, &direct_why,
                                    NULL),
                     GS_OK);
    assert_int_equal(gs_plan_reprice(&dear, &l, why, &p), direct_why);
    same_but_price(&p, &direct);
    close_to(p.cost_per_hour, 7.13 * (double)p.gpu_count, 1e-12);
    /* a budget between the two prices: the cheap entry qualifies, the dear one is over it */
    l.max_cost_per_hour = 5.0 * (double)p.gpu_count;
    assert_int_equal(gs_plan_reprice(&dear, &l, GS_REJECT_NONE, &p), GS_REJECT_OVER_BUDGET);
    assert_int_equal(gs_plan_reprice(&g, &l, GS_REJECT_OVER_BUDGET, &p), GS_REJECT_NONE);
    close_to(p.cost_per_hour, 2.5 * (double)p.gpu_count, 1e-12);
    /* no plan: the verdict stays */
    assert_int_equal(gs_plan_reprice(&dear, &l, GS_REJECT_DOES_NOT_FIT, &p), GS_REJECT_DOES_NOT_FIT);

    /* training: the run with the fewest GPU-hours, dollars the GPU-hours times the price */
    const struct gs_arch arch = llama(4096, 32, 32, 32, 11008, 32000);
    const struct gs_model_spec t = fixture_spec(&arch);
    struct gs_workload tw = fixture_workload(GS_MODE_TRAINING);
    tw.training.batch_size = 8;
    tw.training.sequence_length = 4096;
    gs_plan_limits_defaults(&l);
    const struct gs_demand run = {.kind = GS_DEMAND_TRAINING, .training_tokens = 1e11};
    assert_int_equal(gs_plan_search(&t, &tw, &g, &l, &run, &eff, 0, NULL, &p, &why, NULL), GS_OK);
    assert_int_equal(why, GS_REJECT_NONE);
    assert_true(p.has_throughput);
    assert_int_equal(gs_plan_search(&t, &tw, &dear, &l, &run, &eff, 0, NULL, &direct, &direct_why,
                                    NULL),
                     GS_OK);
    assert_int_equal(gs_plan_reprice(&dear, &l, why, &p), direct_why);
    same_but_price(&p, &direct);
    close_to(p.total_cost, p.train.gpu_hours * 7.13, 1e-12);
}

/* What attention's own products add to training's counted 6 N a token: a Llama-70B shape
 * (80 layers, 64 heads of 128) at 4,096 tokens, N = 70e9: 3 x 4 x 80 x 64 x 128 x 2,048
 * (the causal half) = 16,106,127,360 against 6 x 70e9 = 4.2e11: 3.835%; against LoRA's 4 N:
 * 5.752%. */
static void test_training_attention_share(void **state)
{
    (void)state;
    const struct gs_arch a = llama(8192, 80, 64, 8, 28672, 128256);
    close_to(gs_perf_train_attention_share(&a, 4096, 70000000000ULL, false),
             16106127360.0 / 4.2e11, 1e-12);
    close_to(gs_perf_train_attention_share(&a, 4096, 70000000000ULL, true),
             16106127360.0 / 2.8e11, 1e-12);
    assert_true(gs_perf_train_attention_share(&a, 4096, 0, false) == 0);
}

/* gs_recommend_search over four entries: an H100 at $2.50, the same H100 at $7.13 (the
 * same search inputs but for the price: one search, priced at its own), an H100 with 40 GB
 * less (a second search) and the H100 without a price. Three searches in all would be four
 * without the sharing; the order is the cheapest first and the unpriced one is no_price; a
 * stop before the second entry is GS_ERR_BUSY with one entry done. */
static struct gs_plan recommend_plans[8];

static struct gs_plan *recommend_plan(void *ctx, size_t index)
{
    (void)ctx;
    return index < 8 ? &recommend_plans[index] : NULL;
}

static bool stop_at_second(void *ctx, size_t next)
{
    (void)ctx;
    return next == 1;
}

static void test_recommend_search(void **state)
{
    (void)state;
    struct gs_model_spec m = spec_of(llama(4096, 32, 32, 8, 14336, 128256));
    struct gs_workload w;
    serving(&w, 8, 4096);
    struct gs_plan_limits l;
    gs_plan_limits_defaults(&l);
    struct gs_efficiency eff;
    gs_efficiency_defaults(&eff);
    const struct gs_demand d = {
        .kind = GS_DEMAND_OUTPUT_TOKENS, .rate = 9000, .prompt_tokens = 2048, .output_tokens = 512};
    struct gs_recommend_entry e[4];
    memset(e, 0, sizeof(e));
    e[0].spec = e[1].spec = e[2].spec = e[3].spec = plan_h100();
    e[1].spec.price_per_gpu_hour = 7.13;
    e[2].spec.view.total_bytes -= 40000000000ULL;
    e[3].spec.has_price = false;
    e[3].spec.price_per_gpu_hour = 0;
    e[0].id = "h100-a", e[1].id = "h100-b", e[2].id = "h100-small", e[3].id = "h100-unpriced";
    size_t slots[16] = {0};
    struct gs_recommend_memory mem = {slots, 16, recommend_plan, NULL, NULL};
    size_t searches = 0, done = 0;
    assert_int_equal(gs_recommend_search(&m, &w, &l, &d, &eff, NULL, e, 4, &mem, &searches, &done,
                                         NULL),
                     GS_OK);
    assert_int_equal(searches, 3);
    assert_int_equal(done, 4);
    assert_int_equal(e[1].searched, e[0].searched);
    assert_true(e[2].searched != e[0].searched);
    assert_int_equal(e[1].gpu_count, e[0].gpu_count);
    close_to(e[1].rank_cost, e[0].rank_cost * 7.13 / 2.5, 1e-12);
    /* a search at the dear price alone finds the same plan */
    struct gs_plan direct;
    enum gs_plan_reject why;
    assert_int_equal(gs_plan_search(&m, &w, &e[1].spec, &l, &d, &eff, 0, NULL, &direct, &why, NULL),
                     GS_OK);
    struct gs_plan priced;
    gs_recommend_plan(&e[1], &recommend_plans[e[1].searched], &l, &priced);
    same_but_price(&priced, &direct);
    struct gs_recommend_entry *order[4];
    const size_t good = gs_recommend_order(e, 4, order);
    assert_int_equal(e[3].why, GS_REJECT_NO_PRICE);
    assert_true(good == 2 || good == 3);
    assert_ptr_equal(order[0], e[0].rank_cost <= e[2].rank_cost ? &e[0] : &e[2]);
    for (size_t i = 1; i < good; i++)
        assert_true(order[i - 1]->rank_cost <= order[i]->rank_cost);
    /* the caller's stop, between two entries */
    memset(slots, 0, sizeof(slots));
    mem.stop = stop_at_second;
    assert_int_equal(gs_recommend_search(&m, &w, &l, &d, &eff, NULL, e, 4, &mem, &searches, &done,
                                         NULL),
                     GS_ERR_BUSY);
    assert_int_equal(done, 1);
    /* a table too small for the entries */
    mem.slot_count = 4;
    assert_int_equal(gs_recommend_search(&m, &w, &l, &d, &eff, NULL, e, 4, &mem, &searches, &done,
                                         NULL),
                     GS_ERR_NOMEM);
}

/* Verdicts that do not depend on the plan: the search may stop early (a GPU
 * without a price under price_required stops at its first plan; a demand
 * needing throughput on a GPU without the figures stops at its first fitting
 * layout), and must answer what the whole search answers. */
static void test_verdict_shortcuts(void **state)
{
    (void)state;
    struct gs_model_spec m = spec_of(llama(4096, 32, 32, 8, 14336, 128256));
    struct gs_workload w;
    serving(&w, 1, 4096);
    struct gs_plan_gpu g = plan_h100();
    struct gs_plan_limits l;
    gs_plan_limits_defaults(&l);
    l.allow_quantization = true;
    struct gs_efficiency eff;
    gs_efficiency_defaults(&eff);
    struct gs_demand d = {
        .kind = GS_DEMAND_OUTPUT_TOKENS, .rate = 2000, .prompt_tokens = 2048, .output_tokens = 512};
    struct gs_plan p;
    enum gs_plan_reject why;

    /* unpriced: the whole search finds a plan (and prices nothing); under price_required the
     * verdict is no_price */
    g.has_price = false;
    assert_int_equal(gs_plan_search(&m, &w, &g, &l, &d, &eff, 0, NULL, &p, &why, NULL), GS_OK);
    assert_int_equal(why, GS_REJECT_NONE);
    assert_false(p.has_price);
    l.price_required = true;
    assert_int_equal(gs_plan_search(&m, &w, &g, &l, &d, &eff, 0, NULL, &p, &why, NULL), GS_OK);
    assert_int_equal(why, GS_REJECT_NO_PRICE);
    /* without any plan the reason is the search's own, as without price_required */
    const uint64_t max_gpus = l.max_gpus;
    l.max_gpus = 2;
    d.rate = 1e9;
    assert_int_equal(gs_plan_search(&m, &w, &g, &l, &d, &eff, 0, NULL, &p, &why, NULL), GS_OK);
    assert_int_equal(why, GS_REJECT_MISSES_DEMAND);
    l.max_gpus = max_gpus;
    d.rate = 2000;
    /* a priced GPU is not affected */
    g.has_price = true;
    assert_int_equal(gs_plan_search(&m, &w, &g, &l, &d, &eff, 0, NULL, &p, &why, NULL), GS_OK);
    assert_int_equal(why, GS_REJECT_NONE);
    assert_true(p.cost_per_hour > 0);
    l.price_required = false;

    /* no bandwidth figure: a rate needs throughput, so no_throughput once a layout fits ... */
    g.perf.memory_bandwidth_gb_s = 0;
    assert_false(gs_perf_can_decode(&g.perf, &eff));
    assert_int_equal(gs_plan_search(&m, &w, &g, &l, &d, &eff, 0, NULL, &p, &why, NULL), GS_OK);
    assert_int_equal(why, GS_REJECT_NO_THROUGHPUT);
    /* ... and does_not_fit when none does */
    const uint64_t usable = g.view.total_bytes;
    g.view.total_bytes = 2000000000ULL;
    assert_int_equal(gs_plan_search(&m, &w, &g, &l, &d, &eff, 0, NULL, &p, &why, NULL), GS_OK);
    assert_int_equal(why, GS_REJECT_DOES_NOT_FIT);
    g.view.total_bytes = usable;
    /* without a demand the plan needs no throughput */
    struct gs_demand none = {.kind = GS_DEMAND_NONE};
    assert_int_equal(gs_plan_search(&m, &w, &g, &l, &none, &eff, 0, NULL, &p, &why, NULL), GS_OK);
    assert_int_equal(why, GS_REJECT_NONE);
    assert_false(p.has_throughput);
    g.perf = h100();
    assert_true(gs_perf_can_decode(&g.perf, &eff));
    eff.decode_bandwidth_permille = 0; /* an efficiency of zero gives no bandwidth either */
    assert_false(gs_perf_can_decode(&g.perf, &eff));
}

/* DeepSeek-V3 (fp8 blocks) on H200s at 5,000 tokens/s: the search tries
 * expert parallelism over data-parallel attention ranks (each rank an engine
 * with its own batch, the experts split over all of them) beside tensor and
 * pipeline layouts, and answers with one node's worth of GPUs - the
 * deployments DeepSeek-V3 runs on (8 x H200) - never a fleet; with expert
 * parallelism not allowed, only tensor/pipeline layouts. Each MoE layer's
 * dispatch and combine over the group is in the decode step. */
static void test_moe_expert_parallel_serving(void **state)
{
    (void)state;
    struct gs_model_spec m = spec_of(fixture_deepseek_v3());
    struct gs_workload w;
    serving(&w, 1, 2500);
    w.format_given = true;
    w.format = GS_WF_FP8_BLOCK;
    struct gs_plan_gpu g = plan_h100();
    g.view.total_bytes = 150011707392ULL; /* an H200's 139.7 GiB */
    g.perf.memory_bandwidth_gb_s = 4800;
    struct gs_plan_limits l;
    gs_plan_limits_defaults(&l);
    struct gs_efficiency eff;
    gs_efficiency_defaults(&eff);
    struct gs_demand d = {
        .kind = GS_DEMAND_OUTPUT_TOKENS, .rate = 5000, .prompt_tokens = 2000, .output_tokens = 500};
    struct gs_plan p;
    enum gs_plan_reject why;
    assert_int_equal(gs_plan_search(&m, &w, &g, &l, &d, &eff, 0, NULL, &p, &why, NULL), GS_OK);
    assert_int_equal(why, GS_REJECT_NONE);
    assert_true(p.output_tokens_per_s >= 5000 * (1 - 1e-9));
    /* one node: eight ranks of DP attention, each holding 32 of the 256 experts */
    assert_int_equal(p.gpu_count, 8);
    assert_int_equal(p.attention_data, 8);
    assert_int_equal(p.expert, 8);
    assert_int_equal(p.gpu_count, p.replicas * p.tensor * p.pipeline * p.attention_data);
    assert_true(p.decode.comm_seconds > 0); /* the all-to-all */
    /* without expert parallelism: tensor (and pipeline) layouts only, and more GPUs */
    l.allow_expert = false;
    struct gs_plan q;
    assert_int_equal(gs_plan_search(&m, &w, &g, &l, &d, &eff, 0, NULL, &q, &why, NULL), GS_OK);
    assert_int_equal(q.attention_data, 1);
    assert_true(q.gpu_count > p.gpu_count);
}

/* Latency targets bound the batch: the largest batch whose decode step (the
 * roofline of gs_perf_decode) meets tpot_ms, and whose first token - one
 * prompt's prefill plus the step in flight - meets ttft_ms; a target no
 * batch meets rejects the GPU. Llama-3.1-8B on H100s, 2,048 + 2,048 tokens. */
static void test_latency_targets(void **state)
{
    (void)state;
    struct gs_model_spec m = spec_of(llama(4096, 32, 32, 8, 14336, 128256));
    struct gs_workload w;
    serving(&w, 1, 4096);
    struct gs_plan_gpu g = plan_h100();
    struct gs_plan_limits l;
    gs_plan_limits_defaults(&l);
    struct gs_efficiency eff;
    gs_efficiency_defaults(&eff);
    struct gs_demand d = {
        .kind = GS_DEMAND_OUTPUT_TOKENS, .rate = 1, .prompt_tokens = 2048, .output_tokens = 2048};
    struct gs_plan free_run, p;
    enum gs_plan_reject why;
    assert_int_equal(gs_plan_search(&m, &w, &g, &l, &d, &eff, 0, NULL, &free_run, &why, NULL), GS_OK);
    assert_int_equal(why, GS_REJECT_NONE);
    /* without targets the batch is what the KV cache holds, and its step is slow; the mean
     * time per output token adds the prompts prefilled meanwhile: batch x prefill over the
     * output's 2,048 steps */
    const double free_tpot = free_run.tpot_seconds;
    close_to(free_tpot,
             free_run.decode.step_seconds + (double)free_run.batch_per_replica *
                                                free_run.decode.prefill_seconds / 2048,
             1e-12);
    assert_false(free_run.disaggregated);
    assert_int_equal(free_run.prefill_replicas, 0);
    close_to(free_run.ttft_seconds, free_run.decode.prefill_seconds + free_run.decode.step_seconds,
             1e-12);
    /* half that step time: a smaller batch, within the target, and the next batch misses it */
    d.tpot_ms = free_tpot * 1000 / 2;
    assert_int_equal(gs_plan_search(&m, &w, &g, &l, &d, &eff, 0, NULL, &p, &why, NULL), GS_OK);
    assert_int_equal(why, GS_REJECT_NONE);
    assert_true(p.batch_per_replica < free_run.batch_per_replica);
    assert_true(p.tpot_seconds * 1000 <= d.tpot_ms);
    struct gs_decode_input in = {&m.arch, p.estimate.params.active, p.estimate.parameters, 0,
                                 p.estimate.per_gpu.weights_bytes,
                                 p.estimate.serving.kv.bytes_per_token, p.tensor, p.pipeline,
                                 p.batch_per_replica + 1, 2048, 2048, &p.estimate.serving.kv, 0, 0};
    struct gs_decode_result next;
    assert_true(gs_perf_decode(&in, &g.perf, &eff, &next));
    assert_true(next.tpot_seconds * 1000 > d.tpot_ms);
    /* one tok/s needs one replica: two pools would cost more */
    assert_false(p.disaggregated);
    /* p99: held with every sequence at its last token, a slower step: a smaller batch */
    d.percentile = 99;
    struct gs_plan tail;
    assert_int_equal(gs_plan_search(&m, &w, &g, &l, &d, &eff, 0, NULL, &tail, &why, NULL), GS_OK);
    assert_true(tail.batch_per_replica < p.batch_per_replica);
    assert_true(tail.tpot_seconds * 1000 <= d.tpot_ms);
    /* a TTFT below one prompt's prefill is out of reach on any layout */
    d.percentile = 50;
    d.tpot_ms = 0;
    d.ttft_ms = free_run.decode.prefill_seconds * 1000 / 100;
    assert_int_equal(gs_plan_search(&m, &w, &g, &l, &d, &eff, 0, NULL, &p, &why, NULL), GS_OK);
    assert_int_equal(why, GS_REJECT_MISSES_LATENCY);
}

/* test_disaggregation's case: Llama-3.1-70B serving 2,048-token prompts and 128-token answers
 * at 20,000 output tokens/s and a 20 ms TPOT on H100s, disaggregation allowed */
struct split_case {
    struct gs_model_spec m;
    struct gs_workload w;
    struct gs_plan_gpu g;
    struct gs_plan_limits l;
    struct gs_efficiency eff;
    struct gs_demand d;
};

static void split_case(struct split_case *c)
{
    c->m = spec_of(llama(8192, 80, 64, 8, 28672, 128256));
    serving(&c->w, 1, 2048 + 128);
    c->g = plan_h100();
    gs_plan_limits_defaults(&c->l);
    gs_efficiency_defaults(&c->eff);
    c->d = (struct gs_demand){.kind = GS_DEMAND_OUTPUT_TOKENS,
                              .rate = 20000,
                              .prompt_tokens = 2048,
                              .output_tokens = 128,
                              .tpot_ms = 20};
}

/* Training Llama-2-7B (bf16 mixed, AdamW: 16 bytes a parameter, 107.8 GB of
 * states) on 80 GB GPUs: it cannot fit on one, and the search's first fit is
 * the smallest count; the layout it reports fits when estimated on its own,
 * and every smaller count does not fit with any allowed option. */
/* Disaggregated prefill and decode (DistServe, OSDI 2024): Llama-3.1-70B on
 * H100s, 2,048-token prompts and 128-token answers at 20,000 output tokens/s
 * with a 20 ms TPOT. A replica that does both prefills a batch of prompts
 * (tens of ms each at TP 8) every 128 steps, which stretches each step by
 * batch x prefill / 128, so it must run a small batch and read its 141 GB of
 * weights for few tokens; a decode pool runs the largest batch whose pure
 * step meets 20 ms, and a prefill pool is sized by prompts x prefill time.
 * The split needs far fewer GPUs (112 against 192 when written); the counts
 * and latencies follow from the roofline figures the plan reports. */
static void test_disaggregation(void **state)
{
    (void)state;
    struct split_case c;
    split_case(&c);
    struct gs_plan split, shared;
    enum gs_plan_reject why;
    assert_int_equal(
        gs_plan_search(&c.m, &c.w, &c.g, &c.l, &c.d, &c.eff, 0, NULL, &split, &why, NULL), GS_OK);
    assert_int_equal(why, GS_REJECT_NONE);
    c.l.allow_disaggregation = false;
    assert_int_equal(
        gs_plan_search(&c.m, &c.w, &c.g, &c.l, &c.d, &c.eff, 0, NULL, &shared, &why, NULL), GS_OK);
    assert_int_equal(why, GS_REJECT_NONE);
    assert_false(shared.disaggregated);
    assert_true(split.disaggregated);
    assert_true(split.gpu_count * 3 < shared.gpu_count * 2);
    assert_true(split.cost_per_hour < shared.cost_per_hour);

    /* the shared replica: its mean TPOT (step + batch x prefill / 128) meets 20 ms */
    close_to(shared.tpot_seconds,
             shared.decode.step_seconds +
                 (double)shared.batch_per_replica * shared.decode.prefill_seconds / 128,
             1e-12);
    assert_true(shared.tpot_seconds <= 0.020);
    /* the decode pool: the pure step meets it at a larger batch */
    close_to(split.tpot_seconds, split.decode.step_seconds, 1e-12);
    assert_true(split.tpot_seconds <= 0.020);
    assert_true(split.batch_per_replica > shared.batch_per_replica);
    /* decode instances: ceil(20,000 / (batch / step)); prefill instances: ceil(20,000 / 128
     * prompts/s x prefill seconds) */
    assert_int_equal(split.replicas,
                     (uint64_t)ceil(20000 / split.decode.decode_tokens_per_s - 1e-9));
    assert_int_equal(split.prefill_replicas,
                     (uint64_t)ceil(20000.0 / 128 * split.decode.prefill_seconds - 1e-9));
    assert_int_equal(split.gpu_count,
                     (split.replicas + split.prefill_replicas) * split.tensor * split.pipeline);
    assert_true(split.output_tokens_per_s >= 20000);
    /* the KV cache of one 2,048-token prompt: 2,048 x 327,680 B (80 layers x 8 KV heads x 128
     * x 2 x 2 B) over the tensor degree, over one 400 Gb/s NIC per GPU (50e9 B/s) */
    assert_int_equal(split.estimate.serving.kv.bytes_per_token, 327680 / split.tensor);
    close_to(split.kv_transfer_seconds, 2048.0 * (327680.0 / (double)split.tensor) / 50e9, 1e-12);
    close_to(split.ttft_seconds,
             split.decode.prefill_seconds + split.kv_transfer_seconds + split.decode.step_seconds,
             1e-12);
    /* at 400 tokens/s both pools fit one node (a TP 4 decode instance and a TP 4 prefill
     * instance): the cache crosses NVLink, 2,048 x 81,920 B at the node's link, not the
     * network, and the plan needs no network at all */
    c.l.allow_disaggregation = true;
    c.d.rate = 400;
    assert_int_equal(
        gs_plan_search(&c.m, &c.w, &c.g, &c.l, &c.d, &c.eff, 0, NULL, &split, &why, NULL), GS_OK);
    assert_true(split.disaggregated);
    assert_int_equal(split.gpu_count, 8);
    assert_int_equal(split.nodes, 1);
    close_to(split.kv_transfer_seconds,
             2048.0 * (327680.0 / (double)split.tensor) / gs_perf_link_bytes_per_s(&c.g.perf),
             1e-12);
    close_to(split.ttft_seconds,
             split.decode.prefill_seconds + split.kv_transfer_seconds + split.decode.step_seconds,
             1e-12);
    assert_false(gs_plan_crosses_nodes(&split, &c.g));
    c.d.rate = 20000;
    /* without a TPOT target there is nothing to gain: one pool */
    c.d.tpot_ms = 0;
    assert_int_equal(
        gs_plan_search(&c.m, &c.w, &c.g, &c.l, &c.d, &c.eff, 0, NULL, &split, &why, NULL), GS_OK);
    assert_false(split.disaggregated);
}

/* SGLang's decode pool runs --disaggregation-mode decode workers (test_engine_rules
 * test_sglang_reserve_arguments): on this H100 (81,121 MiB) at 0.5.20 their reserve is 512 + 1.5
 * x max(cuda_graph_max_bs, 2,048) + 2 x cuda_graph_max_bs + TP / 8 GiB, under the 10 GiB floor at
 * any TP -> (81,121 - 10,240) / 81,121 = 0.874, where one engine keeps 512 + 12,288 + 2 x
 * cuda_graph_max_bs (256 below TP 4, 512 from it) + TP / 8 GiB + 58 x 8 MiB of prefill graphs
 * (0.811 at TP 8). The split plan (test_disaggregation's demand) reports the decode workers'
 * estimate, which an estimate of the same layout with the role reproduces; the shared replica
 * keeps the engine's own. */
static void test_disaggregation_sglang_decode_workers(void **state)
{
    (void)state;
    struct split_case c;
    split_case(&c);
    c.w.serving.engine.engine = GS_ENGINE_SGLANG;
    struct gs_plan split, shared;
    enum gs_plan_reject why;
    assert_int_equal(
        gs_plan_search(&c.m, &c.w, &c.g, &c.l, &c.d, &c.eff, 0, NULL, &split, &why, NULL), GS_OK);
    assert_true(split.disaggregated);
    assert_int_equal(split.estimate.serving.budget.fraction_permille, 874);
    c.l.allow_disaggregation = false;
    assert_int_equal(
        gs_plan_search(&c.m, &c.w, &c.g, &c.l, &c.d, &c.eff, 0, NULL, &shared, &why, NULL), GS_OK);
    assert_false(shared.disaggregated);
    const double t = (double)shared.tensor;
    const double reserve = 512 + 12288 + 2.0 * (shared.tensor < 4 ? 256 : 512) + t * 128 + 464;
    assert_int_equal(shared.estimate.serving.budget.fraction_permille,
                     (uint64_t)((81121 - reserve) / 81121 * 1000 + 0.5));
    /* the decode workers of the split plan, estimated as a request naming the role */
    struct gs_workload role = c.w;
    role.parallelism.tensor = split.tensor;
    role.parallelism.pipeline = split.pipeline;
    role.parallelism.gpus_per_node = 8;
    role.gpu = c.g.view;
    role.serving.batch_size = split.estimate_batch;
    role.serving.engine.disaggregation = GS_SGLANG_ROLE_DECODE;
    struct gs_estimate e;
    assert_int_equal(gs_estimate_compute(&c.m, &role, &e, NULL), GS_OK);
    assert_int_equal(e.serving.budget.fraction_permille, 874);
    assert_int_equal(e.serving.budget.kv_bytes, split.estimate.serving.budget.kv_bytes);
    assert_int_equal(e.serving.max_concurrency, split.estimate.serving.max_concurrency);
}

/* Pipeline parallelism with sharded states only as the frameworks run it: with tensor
 * parallelism kept to 1 and every ZeRO stage allowed, a 70B full fine-tune on H100s is
 * spread by pipeline and data parallelism, and a plan with pipeline stages never has ZeRO 2
 * or 3 under DeepSpeed (deepspeed/runtime/pipe/engine.py asserts stage < 2); an estimate
 * asking for it is refused at /parallelism/zero_stage, and FSDP with pipeline stages
 * outside torchtitan too. */
static void test_pipeline_zero_rules(void **state)
{
    (void)state;
    const struct gs_arch arch = llama(8192, 80, 64, 8, 28672, 128256);
    const struct gs_model_spec m = fixture_spec(&arch);
    struct gs_workload w = fixture_workload(GS_MODE_TRAINING);
    w.training.batch_size = 1;
    w.training.sequence_length = 4096;
    struct gs_plan_gpu g = plan_h100();
    struct gs_plan_limits l;
    gs_plan_limits_defaults(&l);
    l.max_tensor = 1;
    struct gs_demand d = {.kind = GS_DEMAND_NONE};
    struct gs_efficiency eff;
    gs_efficiency_defaults(&eff);
    struct gs_plan p;
    enum gs_plan_reject why;
    for (uint64_t n = 8; n <= 64; n *= 2) {
        assert_int_equal(gs_plan_search(&m, &w, &g, &l, &d, &eff, n, NULL, &p, &why, NULL), GS_OK);
        if (why == GS_REJECT_NONE && p.pipeline > 1)
            assert_true(p.zero_stage <= 1);
    }

    struct gs_workload e = w;
    e.parallelism.pipeline = 8;
    e.parallelism.data = 2;
    e.parallelism.zero_stage = 3;
    struct gs_estimate est;
    struct gs_error err;
    gs_error_init(&err);
    assert_int_equal(gs_estimate_compute(&m, &e, &est, &err), GS_ERR_INVALID);
    assert_string_equal(err.items[0].pointer, "/parallelism/zero_stage");
    e.parallelism.zero_stage = 1;
    assert_int_equal(gs_estimate_compute(&m, &e, &est, NULL), GS_OK);
    /* FSDP: under torchtitan each stage is sharded; under the HF Trainer there is no pipeline */
    e.parallelism.zero_stage = 3;
    e.parallelism.fsdp = true;
    gs_error_init(&err);
    assert_int_equal(gs_estimate_compute(&m, &e, &est, &err), GS_ERR_INVALID);
    e.training.framework.framework = GS_FW_TORCHTITAN;
    e.training.framework.framework_given = true;
    assert_int_equal(gs_estimate_compute(&m, &e, &est, NULL), GS_OK);
}

/* gs_plan_training_workload rebuilds the workload a searched plan was sized with: its estimate
 * is the plan's, byte for byte (what /v1/fit's boundaries bisect on). */
static void assert_rebuilt(const struct gs_model_spec *m, const struct gs_workload *request,
                           const struct gs_plan *p, const struct gs_plan_gpu *g)
{
    struct gs_workload rebuilt;
    gs_plan_training_workload(request, p, g, &rebuilt);
    struct gs_estimate est;
    assert_int_equal(gs_estimate_compute(m, &rebuilt, &est, NULL), GS_OK);
    assert_int_equal(est.per_gpu.total_bytes, p->estimate.per_gpu.total_bytes);
    assert_int_equal(est.per_gpu.activations_bytes, p->estimate.per_gpu.activations_bytes);
    assert_int_equal(rebuilt.training.batch_size * rebuilt.training.gradient_accumulation_steps,
                     (request->training.batch_size ? request->training.batch_size : 1) *
                         (request->training.gradient_accumulation_steps
                              ? request->training.gradient_accumulation_steps
                              : 1));
}

static void test_training_layout(void **state)
{
    (void)state;
    const struct gs_arch arch = llama(4096, 32, 32, 32, 11008, 32000);
    const struct gs_model_spec m = fixture_spec(&arch);
    struct gs_workload w = fixture_workload(GS_MODE_TRAINING);
    w.training.batch_size = 1;
    w.training.sequence_length = 4096;
    struct gs_plan_gpu g = plan_h100();
    struct gs_plan_limits l;
    gs_plan_limits_defaults(&l);
    struct gs_demand d = {.kind = GS_DEMAND_NONE};
    struct gs_efficiency eff;
    gs_efficiency_defaults(&eff);
    struct gs_plan p;
    enum gs_plan_reject why;
    assert_int_equal(gs_plan_search(&m, &w, &g, &l, &d, &eff, 0, NULL, &p, &why, NULL), GS_OK);
    assert_int_equal(why, GS_REJECT_NONE);
    assert_true(p.gpu_count > 1);
    assert_true(p.estimate.per_gpu.total_bytes <= g.view.total_bytes);
    assert_int_equal(p.gpu_count, p.tensor * p.pipeline * p.data);
    struct gs_plan q;
    for (uint64_t n = 1; n < p.gpu_count; n *= 2) {
        assert_int_equal(gs_plan_search(&m, &w, &g, &l, &d, &eff, n, NULL, &q, &why, NULL), GS_OK);
        assert_int_equal(why, GS_REJECT_DOES_NOT_FIT);
    }
    /* the layout as an estimate request fits with the same total */
    struct gs_workload check = w;
    check.parallelism.tensor = p.tensor;
    check.parallelism.pipeline = p.pipeline;
    check.parallelism.data = p.data;
    check.parallelism.zero_stage = p.zero_stage;
    check.parallelism.sequence_parallel = p.tensor > 1;
    check.training.recompute = p.recompute;
    check.parallelism.gpus_per_node = 8;
    check.gpu.link = g.view.link; /* NCCL's buffers follow the board's interconnect */
    struct gs_estimate est;
    assert_int_equal(gs_estimate_compute(&m, &check, &est, NULL), GS_OK);
    assert_int_equal(est.per_gpu.total_bytes, p.estimate.per_gpu.total_bytes);
    assert_rebuilt(&m, &w, &p, &g);

    /* a deadline: 100e9 tokens in 7 days. 6 x 6,607,343,616 x 1e11 = 3.9644e21 FLOPs at
     * 989e12 x 0.4 per GPU = 10.022 GPU-days, so at least 2 GPUs, and the plan meets it */
    struct gs_demand deadline = {
        .kind = GS_DEMAND_TRAINING, .training_tokens = 1e10, .deadline_days = 7};
    assert_int_equal(gs_plan_search(&m, &w, &g, &l, &deadline, &eff, 0, NULL, &p, &why, NULL), GS_OK);
    assert_int_equal(why, GS_REJECT_NONE);
    assert_true(p.has_throughput);
    assert_true(p.train.seconds <= 7 * 86400);
    close_to(p.total_cost, p.train.gpu_hours * 2.5, 1e-12);
    /* and an impossible one within 8 GPUs */
    l.max_gpus = 8;
    deadline.deadline_days = 0.1;
    assert_int_equal(gs_plan_search(&m, &w, &g, &l, &deadline, &eff, 0, NULL, &p, &why, NULL), GS_OK);
    assert_int_equal(why, GS_REJECT_MISSES_DEMAND);
}

/* Gradient accumulation in the training search (issue 34): full fine-tuning Llama-2-7B at
 * batch 8 x 4,096 tokens a rank. Where a layout does not hold 8 sequences' activations the
 * search takes the largest smaller micro-batch (halving) that fits, with the accumulation
 * steps that keep the 8 sequences per optimizer step, so it needs no more GPUs than with the
 * batch held, and the layout at the plan's micro-batch is what /v1/estimate sizes. Without
 * allow_accumulation (and as /v1/fit judges a user's own layout) the batch is as asked. */
static void test_training_accumulation(void **state)
{
    (void)state;
    const struct gs_arch arch = llama(4096, 32, 32, 32, 11008, 32000);
    const struct gs_model_spec m = fixture_spec(&arch);
    struct gs_workload w = fixture_workload(GS_MODE_TRAINING);
    w.training.batch_size = 8;
    w.training.sequence_length = 4096;
    struct gs_plan_gpu g = plan_h100();
    struct gs_plan_limits l;
    gs_plan_limits_defaults(&l);
    assert_true(l.allow_accumulation); /* on by default */
    /* without recomputation, so activations decide (full recomputation would hold 8 such
     * sequences on as few GPUs) */
    l.recompute = 1u << GS_RECOMPUTE_NONE;
    struct gs_demand d = {.kind = GS_DEMAND_NONE};
    struct gs_efficiency eff;
    gs_efficiency_defaults(&eff);
    enum gs_plan_reject why;
    struct gs_plan held, split;
    l.allow_accumulation = false;
    assert_int_equal(gs_plan_search(&m, &w, &g, &l, &d, &eff, 0, NULL, &held, &why, NULL), GS_OK);
    assert_int_equal(why, GS_REJECT_NONE);
    assert_int_equal(held.micro_batch, 8);
    assert_int_equal(held.accumulation_steps, 1);
    l.allow_accumulation = true;
    assert_int_equal(gs_plan_search(&m, &w, &g, &l, &d, &eff, 0, NULL, &split, &why, NULL), GS_OK);
    assert_int_equal(why, GS_REJECT_NONE);
    assert_true(split.gpu_count <= held.gpu_count);
    assert_int_equal(split.micro_batch * split.accumulation_steps, 8);
    assert_true(split.micro_batch < 8); /* here the activations of 8 sequences set the count */
    assert_true(split.gpu_count < held.gpu_count);
    /* the split layout is what an estimate at its micro-batch and accumulation sizes */
    struct gs_workload check = w;
    check.training.batch_size = split.micro_batch;
    check.training.gradient_accumulation_steps = split.accumulation_steps;
    check.parallelism.tensor = split.tensor;
    check.parallelism.pipeline = split.pipeline;
    check.parallelism.data = split.data;
    check.parallelism.zero_stage = split.zero_stage;
    check.parallelism.sequence_parallel = split.tensor > 1;
    check.training.recompute = split.recompute;
    check.parallelism.gpus_per_node = 8;
    check.gpu.link = g.view.link;
    struct gs_estimate est;
    assert_int_equal(gs_estimate_compute(&m, &check, &est, NULL), GS_OK);
    assert_int_equal(est.per_gpu.total_bytes, split.estimate.per_gpu.total_bytes);
    assert_true(est.per_gpu.total_bytes <= g.view.total_bytes);
    assert_rebuilt(&m, &w, &split, &g);
    /* ... and the same layout at the whole batch does not fit: the split was needed */
    check.training.batch_size = 8;
    check.training.gradient_accumulation_steps = 1;
    assert_int_equal(gs_estimate_compute(&m, &check, &est, NULL), GS_OK);
    assert_true(est.per_gpu.total_bytes > g.view.total_bytes);
    /* a batch of 1 has nothing to split */
    w.training.batch_size = 1;
    assert_int_equal(gs_plan_search(&m, &w, &g, &l, &d, &eff, 0, NULL, &split, &why, NULL), GS_OK);
    assert_int_equal(split.micro_batch, 1);
    assert_int_equal(split.accumulation_steps, 1);
}

/* The request at data 2, FULL_SHARD, full recomputation on `g`: the layout the search is
 * expected to take in test_training_sync_each_batch. */
static struct gs_workload full_shard_on_two(const struct gs_workload *w, const struct gs_plan_gpu *g)
{
    struct gs_workload at = *w;
    at.parallelism.data = 2;
    at.parallelism.zero_stage = 3;
    at.parallelism.gpus_per_node = 8;
    at.training.recompute = GS_RECOMPUTE_FULL;
    at.gpu = g->view;
    return at;
}

/* FSDP1 under the HF Trainer (transformers 5.2 on) with accumulation: the micro-batches
 * before the last keep the whole gradient unsharded under no_sync(), so on 2 H100s full
 * fine-tuning Llama-2-7B at FULL_SHARD in 70 GB a GPU fits only with every micro-batch
 * reduce-scattered (6,738,415,616 of the 13,476,831,232 bf16 gradient bytes fewer). The
 * search turns on training.sync_each_batch there and says so; the layout is what an estimate
 * with it sizes. The Trainer of 4.46-5.1 ignores the switch (transformers issue #29425): the
 * search does not use it. And under LitGPT, which has no switch, a batch the search would
 * split into accumulated micro-batches is still tried whole: the split's unsharded gradients
 * make the smallest micro-batch not the most frugal. */
static void test_training_sync_each_batch(void **state)
{
    (void)state;
    const struct gs_arch arch = llama(4096, 32, 32, 32, 11008, 32000);
    const struct gs_model_spec m = fixture_spec(&arch);
    struct gs_workload w = fixture_workload(GS_MODE_TRAINING);
    w.training.batch_size = 1;
    w.training.sequence_length = 4096;
    w.training.gradient_accumulation_steps = 8;
    w.parallelism.fsdp = true;
    w.parallelism.fsdp_version = 1;
    struct gs_plan_gpu g = plan_h100();
    g.view.total_bytes = 70000000000ULL; /* an H100 with 70 GB left to the run */
    struct gs_plan_limits l;
    gs_plan_limits_defaults(&l);
    l.zero_stages = 1u << 3; /* FULL_SHARD, as asked */
    l.recompute = 1u << GS_RECOMPUTE_FULL;
    l.allow_offload = false;
    struct gs_demand d = {.kind = GS_DEMAND_NONE};
    struct gs_efficiency eff;
    gs_efficiency_defaults(&eff);
    enum gs_plan_reject why;
    struct gs_plan p;
    /* the layout at 2 GPUs, by the estimate: no_sync does not fit, sync_each_batch does */
    struct gs_workload at = full_shard_on_two(&w, &g);
    struct gs_estimate held, each;
    assert_int_equal(gs_estimate_compute(&m, &at, &held, NULL), GS_OK);
    assert_true(held.sync_each_batch_helps);
    assert_true(held.per_gpu.total_bytes > g.view.total_bytes);
    at.training.framework.sync_each_batch = GS_KNOB_ON;
    assert_int_equal(gs_estimate_compute(&m, &at, &each, NULL), GS_OK);
    assert_false(each.sync_each_batch_helps);
    assert_true(each.per_gpu.total_bytes <= g.view.total_bytes);
    assert_int_equal(gs_plan_search(&m, &w, &g, &l, &d, &eff, 2, NULL, &p, &why, NULL), GS_OK);
    assert_int_equal(why, GS_REJECT_NONE);
    assert_true(p.sync_each_batch);
    assert_int_equal(p.data, 2);
    assert_int_equal(p.zero_stage, 3);
    assert_int_equal(p.accumulation_steps, 8);
    assert_int_equal(p.estimate.per_gpu.total_bytes, each.per_gpu.total_bytes);
    assert_rebuilt(&m, &w, &p, &g); /* FSDP1, sync_each_batch, accumulation 8 */
    /* the Trainer of 5.1 would not follow it: the 2 GPUs split the model instead */
    w.training.framework.framework_version = 501;
    assert_int_equal(gs_plan_search(&m, &w, &g, &l, &d, &eff, 2, NULL, &p, &why, NULL), GS_OK);
    assert_int_equal(why, GS_REJECT_NONE);
    assert_false(p.sync_each_batch);
    assert_int_equal(p.data, 1);
    assert_int_equal(p.tensor * p.pipeline, 2);
    w.training.framework.framework_version = 0;
    /* a request that says it syncs every micro-batch needs no help: the plan does not say it */
    w.training.framework.sync_each_batch = GS_KNOB_ON;
    assert_int_equal(gs_plan_search(&m, &w, &g, &l, &d, &eff, 2, NULL, &p, &why, NULL), GS_OK);
    assert_int_equal(why, GS_REJECT_NONE);
    assert_false(p.sync_each_batch);
    w.training.framework.sync_each_batch = GS_KNOB_DEFAULT;

    /* LitGPT LoRA, batch 2 without accumulation, on 2 GPUs of 24 GB: split into 2 x 1 it
     * would keep every Block's gradient unsharded, frozen base included (Fabric's
     * use_orig_params=True; no switch), and not fit; whole it keeps none and fits */
    w.training.framework.framework = GS_FW_LITGPT;
    w.training.framework.framework_given = true;
    w.training.batch_size = 2;
    w.training.gradient_accumulation_steps = 1;
    fixture_lora_qv(&w.training, 8);
    g.view.total_bytes = 24000000000ULL;
    at = full_shard_on_two(&w, &g);
    assert_int_equal(gs_estimate_compute(&m, &at, &held, NULL), GS_OK);
    at.training.batch_size = 1;
    at.training.gradient_accumulation_steps = 2;
    assert_int_equal(gs_estimate_compute(&m, &at, &each, NULL), GS_OK);
    assert_true(each.no_sync_gradient_bytes > 0);
    assert_false(each.sync_each_batch_helps);
    assert_true(each.per_gpu.total_bytes > g.view.total_bytes);
    assert_int_equal(gs_plan_search(&m, &w, &g, &l, &d, &eff, 2, NULL, &p, &why, NULL), GS_OK);
    assert_int_equal(why, GS_REJECT_NONE);
    assert_int_equal(p.data, 2);
    assert_int_equal(p.zero_stage, 3);
    assert_int_equal(p.micro_batch, 2);
    assert_int_equal(p.accumulation_steps, 1);
    assert_false(p.sync_each_batch);
    assert_int_equal(p.estimate.per_gpu.total_bytes, held.per_gpu.total_bytes);
    assert_rebuilt(&m, &w, &p, &g);
}

/* A run that waits on communication at the first GPU count that fits may be cheaper on more
 * GPUs with another layout (plan_training.c: the counts up to 4 x the first are tried while
 * the plan's comm_factor is below 1, as for its bubble and recomputation). Llama-3.2-3B-shaped
 * full training in mixed precision (16 bytes a parameter, 51 GB) on 48 GiB PCIe GPUs: the
 * first count that fits leans on tensor parallelism, whose all-reduces wait on PCIe in every
 * layer; a count above it runs data-parallel, which hides behind the step, for fewer GPU-hours
 * in all. */
static void test_training_more_gpus_less_waiting(void **state)
{
    (void)state;
    const struct gs_arch arch = llama(3072, 28, 24, 8, 8192, 128256);
    const struct gs_model_spec m = fixture_spec(&arch);
    struct gs_workload w = fixture_workload(GS_MODE_TRAINING);
    w.training.batch_size = 1;
    w.training.sequence_length = 4096;
    struct gs_plan_gpu g;
    memset(&g, 0, sizeof(g));
    g.view.total_bytes = 48ULL << 30;
    g.gpus_per_node = 8;
    g.view.link = GS_LINK_PCIE;
    g.perf = (struct gs_perf_gpu){864, 362, 362, 0, 4}; /* L40S: PCIe 4.0, no NVLink */
    g.has_price = true;
    g.price_per_gpu_hour = 1;
    struct gs_plan_limits l;
    gs_plan_limits_defaults(&l);
    const struct gs_demand d = {.kind = GS_DEMAND_TRAINING, .training_tokens = 1e10,
                                .deadline_days = 30};
    struct gs_efficiency eff;
    gs_efficiency_defaults(&eff);
    struct gs_plan first, best;
    enum gs_plan_reject why = GS_REJECT_DOES_NOT_FIT;
    uint64_t n = 0;
    while (why != GS_REJECT_NONE && n < 8) {
        n++;
        assert_int_equal(gs_plan_search(&m, &w, &g, &l, &d, &eff, n, NULL, &first, &why, NULL),
                         GS_OK);
    }
    assert_int_equal(why, GS_REJECT_NONE);
    assert_true(first.has_throughput);
    /* nothing but communication wastes its time: the old rule would have stopped here */
    assert_true(first.train.comm_factor < 1);
    close_to(first.train.bubble_factor, 1, 1e-12);
    close_to(first.train.hardware_factor, 1, 1e-12);
    assert_int_equal(gs_plan_search(&m, &w, &g, &l, &d, &eff, 0, NULL, &best, &why, NULL), GS_OK);
    assert_int_equal(why, GS_REJECT_NONE);
    assert_true(best.gpu_count > first.gpu_count);
    assert_true(best.gpu_count <= 4 * first.gpu_count);
    assert_true(best.train.gpu_hours < first.train.gpu_hours);
    assert_true(best.tensor < first.tensor);
}

/* Training across two nodes uses the GPU's scale-out figure for the data-parallel
 * traffic between them (core/src/plan.c, group_link). Llama-2-7B on exactly 16 H100s
 * (two 8-GPU nodes), tensor parallelism held at 1 so the layout stays the same: data
 * parallelism 16 with ZeRO-1, batch 1 x 4,096 tokens a rank. A step computes
 * 16 x 4,096 x 6 x 6,607,343,616 FLOPs (the active, non-embedding parameters) at
 * 16 x 989e12 x 0.40: 0.410470 s. Each rank moves 15/16 x 2 x 13,476,831,232 bytes of
 * bf16 gradients (6,738,415,616 trainable parameters x 2 B) = 25,269,058,560 B over
 * its link to the other node:
 *   no figure (the NVSwitch default, 400 Gb/s = 50e9 B/s): 0.505381 s -> comm_factor
 *     0.410470 / 0.505381 = 0.8122, 159,660.7 x 0.8122 = 129,676 tokens/s;
 *   40e9 B/s (320 Gb/s): 0.631726 s -> 0.6498, 103,741 tokens/s;
 *   100e9 B/s (800 Gb/s): 0.252691 s, hidden behind the step -> 1, 159,661 tokens/s
 * (159,660.7 = 16 x 989e12 x 0.40 / (6 x 6,607,343,616)). Within one node the figure
 * plays no part: 8 GPUs talk over NVLink (450e9 B/s a direction) either way. */
static void test_training_scale_out(void **state)
{
    (void)state;
    const struct gs_arch arch = llama(4096, 32, 32, 32, 11008, 32000);
    const struct gs_model_spec m = fixture_spec(&arch);
    struct gs_workload w = fixture_workload(GS_MODE_TRAINING);
    w.training.batch_size = 1;
    w.training.sequence_length = 4096;
    struct gs_plan_gpu g = plan_h100();
    struct gs_plan_limits l;
    gs_plan_limits_defaults(&l);
    l.max_tensor = 1;
    const struct gs_demand d = {.kind = GS_DEMAND_TRAINING, .training_tokens = 1e11};
    struct gs_efficiency eff;
    gs_efficiency_defaults(&eff);

    const double compute = 16.0 * 4096 * 6 * 6607343616.0 / (16 * 989e12 * 0.40);
    const double moved = 15.0 / 16 * 2 * 13476831232.0;
    const double ideal = 16 * 989e12 * 0.40 / (6 * 6607343616.0);
    static const struct {
        double scale_out; /* bytes/s, 0 = none in the catalog */
        double link;      /* what the search should use */
    } cases[] = {{0, 50e9}, {40e9, 40e9}, {100e9, 100e9}};
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        g.scale_out_bytes_per_s = cases[i].scale_out;
        struct gs_plan p;
        enum gs_plan_reject why;
        assert_int_equal(gs_plan_search(&m, &w, &g, &l, &d, &eff, 16, NULL, &p, &why, NULL), GS_OK);
        assert_int_equal(why, GS_REJECT_NONE);
        assert_int_equal(p.nodes, 2);
        assert_int_equal(p.tensor, 1);
        assert_int_equal(p.pipeline, 1);
        assert_int_equal(p.data, 16);
        assert_int_equal(p.zero_stage, 1);
        assert_true(p.has_throughput);
        const double comm = moved / cases[i].link;
        const double factor = comm > compute ? compute / comm : 1;
        close_to(p.train.comm_factor, factor, 1e-9);
        close_to(p.train.tokens_per_s, ideal * factor, 1e-9);
    }
    close_to(0.410470366, compute, 1e-8);
    close_to(moved / 50e9, 0.5053811712, 1e-9);

    /* one node: NVLink, whatever the network */
    struct gs_plan inside[2];
    enum gs_plan_reject why;
    for (size_t i = 0; i < 2; i++) {
        g.scale_out_bytes_per_s = i == 0 ? 0 : 40e9;
        assert_int_equal(gs_plan_search(&m, &w, &g, &l, &d, &eff, 8, NULL, &inside[i], &why, NULL),
                         GS_OK);
        assert_int_equal(why, GS_REJECT_NONE);
        assert_int_equal(inside[i].nodes, 1);
    }
    assert_true(inside[0].train.comm_factor == inside[1].train.comm_factor);
    assert_true(inside[0].train.tokens_per_s == inside[1].train.tokens_per_s);
}

/* The search runs a pipeline with the schedule the request names: Llama-2-7B full training
 * under Megatron-LM at 8 micro-batches of 1 x 2,048 on 2 H100s, tensor parallelism and ZeRO
 * off, so the two GPUs must pipeline (data parallelism would hold 16 bytes x 6.7e9 each). With
 * virtual_stages 2 each stage's 16 layers run in 2 chunks of 8 and the bubble's single slot
 * halves: 16 / 17 (plain: 8 / 9); the plan is what an estimate of its workload sizes. At 7
 * micro-batches Megatron-LM cannot interleave (schedules.py: the micro-batches must be a
 * multiple of the stages), so the same layout runs the plain schedule, 7 / 8; and where the
 * interleaved layout does not fit, the plain one does. */
/* Two training searches answered the same plan: its count, layout, options, memory and time. */
static void assert_same_plan(const struct gs_plan *p, const struct gs_plan *q)
{
    assert_int_equal(p->gpu_count, q->gpu_count);
    assert_int_equal(p->tensor, q->tensor);
    assert_int_equal(p->pipeline, q->pipeline);
    assert_int_equal(p->data, q->data);
    assert_int_equal(p->expert, q->expert);
    assert_int_equal(p->zero_stage, q->zero_stage);
    assert_int_equal(p->recompute, q->recompute);
    assert_int_equal(p->offload, q->offload);
    assert_int_equal(p->micro_batch, q->micro_batch);
    assert_memory_equal(&p->estimate.per_gpu, &q->estimate.per_gpu, sizeof(q->estimate.per_gpu));
    assert_true(p->train.gpu_hours == q->train.gpu_hours);
}

/* The plan memo (gs_plan_memo: activations by layout for the training search) changes no
 * answer: Mixtral-8x7B, whose search tries every expert degree of a layout at the same
 * activations, with a deadline (every layout of every count up to four times the first),
 * searched without a memo, with a fresh one, again with the one the first search filled, and
 * on a GPU of half the memory with it still. */
static void test_training_memo(void **state)
{
    (void)state;
    const struct gs_arch arch = fixture_mixtral_8x7b();
    const struct gs_model_spec m = fixture_spec(&arch);
    struct gs_workload w = fixture_workload(GS_MODE_TRAINING);
    w.training.batch_size = 4;
    w.training.sequence_length = 4096;
    w.training.gradient_accumulation_steps = 8;
    struct gs_plan_gpu g = plan_h100();
    struct gs_plan_limits l;
    gs_plan_limits_defaults(&l);
    const struct gs_demand d = {
        .kind = GS_DEMAND_TRAINING, .training_tokens = 1e10, .deadline_days = 7};
    struct gs_efficiency eff;
    gs_efficiency_defaults(&eff);
    static struct gs_plan_memo memo; /* zeroed */
    for (int gpu = 0; gpu < 2; gpu++) {
        if (gpu == 1)
            g.view.total_bytes /= 2;
        static struct gs_plan bare, fresh, warm;
        enum gs_plan_reject why_bare, why_fresh, why_warm;
        assert_int_equal(gs_plan_search(&m, &w, &g, &l, &d, &eff, 0, NULL, &bare, &why_bare, NULL),
                         GS_OK);
        assert_int_equal(why_bare, GS_REJECT_NONE);
        if (gpu == 0)
            assert_true(bare.expert > 1); /* the memo's case: expert degrees at one layout */
        assert_int_equal(
            gs_plan_search(&m, &w, &g, &l, &d, &eff, 0, &memo, &fresh, &why_fresh, NULL), GS_OK);
        assert_true(gpu == 1 || memo.activation.count > 0);
        assert_int_equal(gs_plan_search(&m, &w, &g, &l, &d, &eff, 0, &memo, &warm, &why_warm, NULL),
                         GS_OK);
        const struct gs_plan *with[] = {&fresh, &warm};
        for (size_t i = 0; i < 2; i++) {
            assert_int_equal(why_fresh, why_bare);
            assert_int_equal(why_warm, why_bare);
            assert_same_plan(with[i], &bare);
        }
    }
}

/* The training search's notes on layout shapes (plan_training.c shape_hopeless: a shape whose
 * most frugal options do not fit at its widest layout fits at no narrower one; one whose least
 * data-parallel traffic alone misses the deadline misses it with fewer replicas too) skip
 * estimates, never a plan. The reference is the search of each count alone (gpu_count: one
 * count, so no shape misses twice and no note is taken): the whole search answers the first
 * count that finds a layout alone or, with a training demand, the cheapest run (fewest
 * GPU-hours, the earlier count on a tie) of the counts up to four times that one, with that
 * count's layout; where no count finds one, it answers as they do. */
static void search_as_counts_alone(const struct gs_model_spec *m, const struct gs_workload *w,
                                   const struct gs_plan_limits *l, const struct gs_demand *d,
                                   enum gs_plan_reject want, uint64_t want_count)
{
    const struct gs_plan_gpu g = plan_h100();
    struct gs_efficiency eff;
    gs_efficiency_defaults(&eff);
    static struct gs_plan whole, alone, best;
    enum gs_plan_reject why, why_alone;
    assert_int_equal(gs_plan_search(m, w, &g, l, d, &eff, 0, NULL, &whole, &why, NULL), GS_OK);
    assert_int_equal(why, want);
    const bool cheapest = d->kind == GS_DEMAND_TRAINING && d->training_tokens > 0;
    uint64_t first = 0;
    memset(&best, 0, sizeof(best));
    for (uint64_t n = 1; n <= l->max_gpus && (!first || (cheapest && n <= 4 * first));
         n = n < 8 ? n + 1 : n + 8) {
        assert_int_equal(gs_plan_search(m, w, &g, l, d, &eff, n, NULL, &alone, &why_alone, NULL),
                         GS_OK);
        if (why_alone != GS_REJECT_NONE)
            continue;
        if (!first) {
            first = n;
            best = alone;
            /* the whole search looks further while a run can still get cheaper */
            assert_false(cheapest && alone.train.bubble_factor >= 1 &&
                         alone.train.hardware_factor <= 1 && alone.train.comm_factor >= 1);
        } else if (alone.train.gpu_hours < best.train.gpu_hours * (1 - 1e-9)) {
            best = alone;
        }
    }
    if (want != GS_REJECT_NONE) {
        assert_int_equal(first, 0);
        return;
    }
    assert_int_equal(best.gpu_count, want_count);
    assert_same_plan(&whole, &best);
}

static void test_training_search_notes(void **state)
{
    (void)state;
    struct gs_plan_limits l;
    gs_plan_limits_defaults(&l);
    l.max_tensor = 1; /* no tensor parallelism to hide the traffic behind */
    /* Llama-2-7B at one sequence of 16 tokens a step, 1e10 tokens in a week: every step
     * reduces the whole gradient for 16 tokens a replica, so it takes hundreds of GPUs, and
     * the search runs through every count below (traffic notes) */
    const struct gs_arch small = llama(4096, 32, 32, 32, 11008, 32000);
    const struct gs_model_spec m7 = fixture_spec(&small);
    struct gs_workload w = fixture_workload(GS_MODE_TRAINING);
    w.training.batch_size = 1;
    w.training.sequence_length = 16;
    struct gs_demand d = {.kind = GS_DEMAND_TRAINING, .training_tokens = 1e10, .deadline_days = 7};
    search_as_counts_alone(&m7, &w, &l, &d, GS_REJECT_NONE, 680);
    /* in a day no count up to 1,024 does */
    d.deadline_days = 1;
    search_as_counts_alone(&m7, &w, &l, &d, GS_REJECT_MISSES_DEMAND, 0);

    /* Llama-3-70B-like at 64K tokens a sequence without a demand: the first count that holds it
     * (fit notes) */
    gs_plan_limits_defaults(&l);
    l.max_tensor = 1;
    const struct gs_arch large = llama(8192, 80, 64, 8, 28672, 128256);
    const struct gs_model_spec m70 = fixture_spec(&large);
    w.training.sequence_length = 16384;
    const struct gs_demand none = {.kind = GS_DEMAND_NONE};
    search_as_counts_alone(&m70, &w, &l, &none, GS_REJECT_NONE, 40);
    /* at 4M tokens a sequence none up to 64 does */
    w.training.sequence_length = 4194304;
    l.max_gpus = 64;
    search_as_counts_alone(&m70, &w, &l, &none, GS_REJECT_DOES_NOT_FIT, 0);
}

static void test_training_interleaved_search(void **state)
{
    (void)state;
    const struct gs_arch arch = llama(4096, 32, 32, 32, 11008, 32000);
    const struct gs_model_spec m = fixture_spec(&arch);
    struct gs_workload w = fixture_workload(GS_MODE_TRAINING);
    w.training.batch_size = 1;
    w.training.sequence_length = 2048;
    w.training.gradient_accumulation_steps = 8;
    w.training.framework.framework = GS_FW_MEGATRON;
    w.training.framework.framework_given = true;
    w.parallelism.stages.chunks = 2;
    struct gs_plan_gpu g = plan_h100();
    struct gs_plan_limits l;
    gs_plan_limits_defaults(&l);
    l.max_tensor = 1;
    l.zero_stages = 1u << 0;
    l.allow_offload = false;
    const struct gs_demand d = {.kind = GS_DEMAND_TRAINING, .training_tokens = 1e10};
    struct gs_efficiency eff;
    gs_efficiency_defaults(&eff);
    struct gs_plan p;
    enum gs_plan_reject why;
    assert_int_equal(gs_plan_search(&m, &w, &g, &l, &d, &eff, 2, NULL, &p, &why, NULL), GS_OK);
    assert_int_equal(why, GS_REJECT_NONE);
    assert_int_equal(p.pipeline, 2);
    assert_int_equal(p.data, 1);
    assert_int_equal(gs_stage_chunks(&p.estimate.stages), 2);
    assert_true(p.has_throughput);
    close_to(p.train.bubble_factor, 16.0 / 17.0, 1e-12);
    assert_rebuilt(&m, &w, &p, &g);
    struct gs_workload rebuilt;
    gs_plan_training_workload(&w, &p, &g, &rebuilt);
    assert_int_equal(rebuilt.parallelism.stages.chunks, 2);

    w.parallelism.stages.chunks = 0;
    struct gs_plan plain;
    assert_int_equal(gs_plan_search(&m, &w, &g, &l, &d, &eff, 2, NULL, &plain, &why, NULL), GS_OK);
    assert_int_equal(plain.pipeline, 2);
    assert_int_equal(gs_stage_chunks(&plain.estimate.stages), 1);
    close_to(plain.train.bubble_factor, 8.0 / 9.0, 1e-12);
    /* the interleaved first stage holds more activations: 1 + 1/4 times a plain one's warm-up */
    assert_true(p.estimate.per_gpu.activations_bytes > plain.estimate.per_gpu.activations_bytes);
    assert_true(p.train.gpu_hours < plain.train.gpu_hours);

    w.parallelism.stages.chunks = 2;
    w.training.gradient_accumulation_steps = 7;
    assert_int_equal(gs_plan_search(&m, &w, &g, &l, &d, &eff, 2, NULL, &p, &why, NULL), GS_OK);
    assert_int_equal(why, GS_REJECT_NONE);
    assert_int_equal(p.pipeline, 2);
    assert_int_equal(gs_stage_chunks(&p.estimate.stages), 1);
    close_to(p.train.bubble_factor, 7.0 / 8.0, 1e-12);
    assert_rebuilt(&m, &w, &p, &g);

    /* at 4,096 tokens the interleaved first stage needs 89.4 GB without recomputation (an
     * estimate of pipeline 2, virtual_stages 2), the plain one fits: the layout runs plain
     * before it recomputes (interleaving is tried within each recomputation, innermost) */
    w.training.gradient_accumulation_steps = 8;
    w.training.sequence_length = 4096;
    assert_int_equal(gs_plan_search(&m, &w, &g, &l, &d, &eff, 2, NULL, &p, &why, NULL), GS_OK);
    assert_int_equal(why, GS_REJECT_NONE);
    assert_int_equal(p.pipeline, 2);
    assert_int_equal(p.recompute, GS_RECOMPUTE_NONE);
    assert_int_equal(gs_stage_chunks(&p.estimate.stages), 1);
    close_to(p.train.bubble_factor, 8.0 / 9.0, 1e-12);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_decode_upper_bounds),
        cmocka_unit_test(test_prefill),
        cmocka_unit_test(test_moe_experts_touched),
        cmocka_unit_test(test_training_time),
        cmocka_unit_test(test_smallest_serving_layout),
        cmocka_unit_test(test_serving_past_a_start_bound),
        cmocka_unit_test(test_replicas_for_demand),
        cmocka_unit_test(test_latency_targets),
        cmocka_unit_test(test_moe_expert_parallel_serving),
        cmocka_unit_test(test_disaggregation),
        cmocka_unit_test(test_disaggregation_sglang_decode_workers),
        cmocka_unit_test(test_verdict_shortcuts),
        cmocka_unit_test(test_request_seconds_floor),
        cmocka_unit_test(test_vendor_efficiency),
        cmocka_unit_test(test_training_layout),
        cmocka_unit_test(test_training_accumulation),
        cmocka_unit_test(test_training_sync_each_batch),
        cmocka_unit_test(test_training_more_gpus_less_waiting),
        cmocka_unit_test(test_pipeline_zero_rules),
        cmocka_unit_test(test_training_scale_out),
        cmocka_unit_test(test_training_interleaved_search),
        cmocka_unit_test(test_training_memo),
        cmocka_unit_test(test_training_search_notes),
        cmocka_unit_test(test_reprice),
        cmocka_unit_test(test_recommend_search),
        cmocka_unit_test(test_training_attention_share),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
