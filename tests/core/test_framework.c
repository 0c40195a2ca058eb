/*
 * test_framework.c - the training peak of named runs, every term written
 * out by hand with the framework code it comes from (core/src/framework.c,
 * activation.c, train_peak.c). Shapes from each model's config.json; all
 * runs use flash attention (SDPA / flash_attention_2), bf16 activations and
 * cuBLAS's 33,554,432-byte workspace, which PyTorch allocates through its
 * caching allocator.
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
#include "gs/runtime.h"
#include "gs/train_peak.h"

#include <string.h>

static const uint64_t ws = GS_CUBLAS_WORKSPACE_BYTES;

static struct gs_model_spec spec(struct gs_arch arch)
{
    return fixture_spec(&arch);
}

static struct gs_workload run(enum gs_framework fw, enum gs_dtype weights, uint64_t batch,
                              uint64_t seq)
{
    struct gs_workload w = fixture_workload(GS_MODE_TRAINING);
    w.weights = weights;
    w.training.framework.framework = fw;
    w.training.framework.framework_given = true;
    w.training.batch_size = batch;
    w.training.sequence_length = seq;
    return w;
}

static bool has_assumption(const struct gs_estimate *e, const char *name)
{
    return fixture_assumption(e, name) != NULL;
}

static bool has_warning(const struct gs_estimate *e, const char *code)
{
    for (size_t i = 0; i < e->warning_count; i++)
        if (strcmp(e->warnings[i].code, code) == 0)
            return true;
    return false;
}

static struct gs_estimate estimate(const struct gs_model_spec *m, const struct gs_workload *w)
{
    struct gs_estimate e;
    struct gs_error err;
    gs_error_init(&err);
    if (gs_estimate_compute(m, w, &e, &err) != GS_OK)
        fail_msg("%s: %s", err.items[0].pointer, err.items[0].detail);
    return e;
}

/* The first error of a request the estimate must refuse as invalid (a 400). */
static struct gs_error_item refusal(const struct gs_model_spec *m, const struct gs_workload *w)
{
    struct gs_estimate e;
    struct gs_error err;
    gs_error_init(&err);
    assert_int_equal(gs_estimate_compute(m, w, &e, &err), GS_ERR_INVALID);
    return err.items[0];
}

/* PEFT LoRA r8 on transformers 4.46 in pure bf16, one sequence of `seq` tokens. */
static struct gs_workload lora_446(uint64_t seq)
{
    struct gs_workload w = run(GS_FW_TRANSFORMERS, GS_DTYPE_BF16, 1, seq);
    w.training.framework.framework_version = 446;
    w.training.regime = GS_REGIME_BF16_PURE;
    w.training.method = GS_METHOD_LORA;
    w.training.method_given = true;
    w.training.lora_rank = 8;
    return w;
}

/* torchtune full_finetune_single_device, Llama-3.2-3B (hidden 3072, 28
 * layers, 24 heads / 8 KV heads of 128, FFN 8192, vocabulary 128,256,
 * tied: 3,212,749,824 parameters), dtype bf16 (bf16_pure: weights,
 * gradients and AdamW states in bf16, AdamW fused=True), batch 2 x 4096
 * packed = 8,192 tokens, one flag at a time as torchtune's README table
 * adds them.
 *   W = 2 x 3,212,749,824 = 6,425,499,648;  G = W;  O = 2 x W = 12,850,999,296
 * Baseline (eager, loss fp32): per token and layer, what autograd saves
 *   2 RMSNorms (rms_norm.py x.float()): fp32 input 4h + normalized 2h = 12h  36,864
 *   q/k/v input (norm output) 2h, MLP input 2h                               12,288
 *   Q 2x3072; K and V expanded to 24 heads 2 x 2 x 3072                      18,432
 *   attention output 2x3072, which o_proj reads as it is: torchtune ropes q on
 *   [b, s, n_h, h_d] before q.transpose(1, 2), the flash kernel lays its output out
 *   like its query, and output.transpose(1, 2).contiguous() copies nothing     6,144
 *   SwiGLU: gate, silu, up, product 4 x 2 x 8192                             65,536
 *   log-sum-exp 4 x 24                                                           96
 *   = 139,360 B/token -> 1,141,637,120 per layer; x 28 + 8 B of token ids
 *   per token = 31,965,904,896 saved.
 *   loss: output(h).float(), then del logits: 12 B x 8192 x 128,256 = 12,608,077,824
 *   backward start = W + O + saved + loss + ws = 63,884,036,096 (59.50 GiB;
 *   torchtune's README measured 60.0 GiB peak active).
 * The final norm, kept after the last layer, comes on top of every figure here: 8,192 x
 * 3,072 x 6 (its fp32 input and the normalized tensor), compiled or not (compile_model compiles
 * each layer, the final norm runs eager), none offloaded;
 * and the head's input (the norm's output, which F.linear keeps for the trained head's weight
 * gradient), 8,192 x 3,072 x 2, but under a fused linear-cross-entropy or offloading.
 * + compile: fused norms keep their 2h input, silu
 *   recomputed: 12,288 + 12,288 + 18,432 + 6,144 + 49,152 + 96 = 98,400
 *   B/token -> 806,092,800 per layer; saved 22,570,663,936;
 *   backward start 54,488,795,136.
 * + chunked loss (compiled, 8 chunks): 2 + 2/8 B per logit = 18/8 ->
 *   2,364,014,592 at the loss's backward; then the head's (train_peak.c): every chunk's
 *   16-bit logits gradient waits for it (8,192 x 128,256 x 2 = 2,101,346,304) and the
 *   second chunk's projection backward makes a full weight gradient (128,256 x 3,072 x 2 =
 *   788,004,864) beside the engine's buffer of the first's, 7/8 of the logits gradients
 *   left: 1,838,678,016 + 2 x 788,004,864 = 3,414,687,744, 1,050,673,152 more than the
 *   loss's: backward start 45,295,405,056 (42.24 GiB; measured 42.9). A fused
 *   linear-cross-entropy holds the head input's gradient (8,192 x 3,072 x 2) and the weight
 *   gradient instead: 42,719,053,824.
 * + activation checkpointing: saved = 28 x 8192 x 3072 x 2 + ids =
 *   1,409,351,680; backward start (the head's moment) 24,134,092,800; backward end = W + O
 *   + G + one layer (806,092,800 + the gradient pair 2 x 2 x 8192 x 8192 = 268,435,456) +
 *   ws = 26,810,081,280, the peak (24.97 GiB; measured 24.9).
 * + optimizer in backward: no gradients at backward end but the tied head's, which waits
 *   for the embedding's (20,384,581,632 + 788,004,864): the peak is backward start,
 *   24,134,092,800 (22.52 GiB; measured 23.1).
 * + activation offloading: only the token ids stay: 19,276,498,944 +
 *   65,536 + 3,414,687,744 + ws = 22,724,806,656. */
static void test_torchtune_llama32_3b_flags(void **state)
{
    (void)state;
    const struct gs_model_spec m = spec(fixture_llama(3072, 28, 24, 8, 8192, 128256, true));
    struct gs_workload w = run(GS_FW_TORCHTUNE, GS_DTYPE_BF16, 2, 4096);
    w.training.regime = GS_REGIME_BF16_PURE;
    struct gs_estimate e = estimate(&m, &w);
    assert_int_equal(e.parameters, 3212749824ULL);
    assert_int_equal(e.per_gpu.weights_bytes, 6425499648ULL);
    assert_int_equal(e.per_gpu.optimizer_bytes, 12850999296ULL);
    assert_int_equal(e.loss, GS_LOSS_FP32);
    /* the final norm (model.norm), kept after the last layer: its fp32 input and the
     * normalized tensor its trained weight multiplies, 8,192 x 3,072 x 6, compiled or not
     * (training/_compile.py compile_model compiles each TransformerSelfAttentionLayer) */
    const uint64_t fin = 8192ULL * 3072 * 6;
    /* and the trained head's input, the norm's output (F.linear saves it for dW) */
    const uint64_t hin = 8192ULL * 3072 * 2;
    assert_int_equal(e.saved_activation_bytes, 31965904896ULL + 12608077824ULL + fin + hin);
    assert_int_equal(e.peak_phase, GS_PHASE_BACKWARD_START);
    assert_int_equal(e.per_gpu.gradients_bytes, 0);
    const uint64_t peak = 63884036096ULL + fin + hin;
    assert_int_equal(e.per_gpu.peak_allocated_bytes, peak);
    /* no expandable segments: reserved = allocated + 10% */
    assert_int_equal(e.per_gpu.peak_reserved_bytes, peak + (peak * 100 + 999) / 1000);

    w.training.framework.compile = GS_KNOB_ON;
    e = estimate(&m, &w);
    assert_int_equal(e.saved_activation_bytes, 22570663936ULL + 12608077824ULL + fin + hin);
    assert_int_equal(e.per_gpu.peak_allocated_bytes, 54488795136ULL + fin + hin);

    w.training.framework.loss = GS_LOSS_CHUNKED;
    e = estimate(&m, &w);
    assert_int_equal(e.saved_activation_bytes, 22570663936ULL + 2364014592ULL + fin + hin);
    assert_int_equal(e.per_gpu.peak_allocated_bytes, 45295405056ULL + fin + hin);
    /* at the head's backward: one weight gradient, the second chunk's beside it */
    assert_int_equal(e.per_gpu.gradients_bytes, 788004864ULL);
    assert_int_equal(e.per_gpu.activations_bytes, 22570663936ULL + 1838678016ULL + fin + hin);
    /* a fused linear-cross-entropy holds no logits but makes the head input's gradient whole
     * (8,192 x 3,072 x 2 = 50,331,648) beside the weight gradient (788,004,864): 41,880,717,312
     * (weights, states, saved activations, workspace) + 838,336,512 + the final norm's input;
     * the last layer's backward then holds more: its MLP's gradient pair (2 x 2 x 8,192 x
     * 8,192 = 268,435,456) beside the head's gradient, 1,056,440,320 */
    w.training.framework.loss = GS_LOSS_FUSED;
    e = estimate(&m, &w);
    assert_int_equal(e.saved_activation_bytes, 22570663936ULL + fin);
    assert_int_equal(e.per_gpu.peak_allocated_bytes, 41880717312ULL + 1056440320ULL);
    assert_int_equal(e.per_gpu.activations_bytes, 22570663936ULL + 268435456ULL);
    assert_int_equal(e.peak.start, GS_START_LAST_LAYER);
    bool said = false; /* the peak's assumption says which moment it is */
    for (size_t i = 0; i < e.assumption_count; i++)
        said = said || (strcmp(e.assumptions[i].name, "peak_phase_bytes") == 0 &&
                        strstr(e.assumptions[i].detail, "the last layer's backward") != NULL);
    assert_true(said);
    assert_int_equal(e.per_gpu.gradients_bytes, 788004864ULL);
    w.training.framework.loss = GS_LOSS_CHUNKED;

    w.training.recompute = GS_RECOMPUTE_FULL;
    e = estimate(&m, &w);
    assert_int_equal(e.peak.phases[GS_PHASE_BACKWARD_START], 24134092800ULL + fin + hin);
    assert_int_equal(e.peak_phase, GS_PHASE_BACKWARD_END);
    assert_int_equal(e.per_gpu.gradients_bytes, 6425499648ULL);
    assert_int_equal(e.per_gpu.activations_bytes, 806092800ULL + 268435456ULL);
    assert_int_equal(e.per_gpu.peak_allocated_bytes, 26810081280ULL);

    w.training.framework.optimizer_in_backward = GS_KNOB_ON;
    e = estimate(&m, &w);
    /* the tied head's gradient (788,004,864) waits for the embedding's beside the first
     * layer's working set, the larger */
    assert_int_equal(e.peak.phases[GS_PHASE_BACKWARD_END], 20384581632ULL + 788004864ULL);
    assert_int_equal(e.peak.phases[GS_PHASE_OPTIMIZER_STEP], 6425499648ULL + 12850999296ULL + ws);
    assert_int_equal(e.peak_phase, GS_PHASE_BACKWARD_START);
    assert_int_equal(e.per_gpu.peak_allocated_bytes, 24134092800ULL + fin + hin);

    w.training.framework.activation_offloading = GS_KNOB_ON;
    e = estimate(&m, &w);
    assert_int_equal(e.per_gpu.peak_allocated_bytes, 22724806656ULL);

    /* LoRA: the head is frozen, its backward makes no weight gradient, the loss's moment
     * stays the peak's */
    w.training.framework.activation_offloading = GS_KNOB_DEFAULT;
    w.training.framework.optimizer_in_backward = GS_KNOB_DEFAULT;
    w.training.recompute = GS_RECOMPUTE_NONE;
    fixture_lora_qv(&w.training, 8);
    e = estimate(&m, &w);
    assert_int_equal(e.peak_phase, GS_PHASE_BACKWARD_START);
    assert_int_equal(e.per_gpu.gradients_bytes, 0);
}

/* torchtitan's tensor parallelism is sequence parallel with no switch (apply_tp: SequenceParallel
 * norms, wo and w2 RowwiseParallel(output_layouts=Shard(1))): under full recomputation each
 * layer keeps its input split over the tensor ranks, and the loss runs on the vocabulary shards
 * (framework.c gs_loss_eighths_per_logit). Llama-3.1-70B-shaped (h 8,192, 80 layers)
 * at TP 8, batch 16 x 8,192: a layer's checkpoint 16 x 8,192 x 8,192 x 2 / 8 = 268,435,456 B
 * rather than 2,147,483,648 - 80 x 1,879,048,192 = 150,323,855,360 B less saved, and the
 * final norm on its shard too (torchtitan 0.2's torch runs torch.nn.RMSNorm fused, keeping its
 * 16-bit input: 2 x 131,072 x 8,192 x 7/8 = 1,879,048,192 B less; the head's input is the
 * whole sequence either way). An explicit
 * false is the request's; under another framework the switch stays off. */
static void test_torchtitan_tensor_parallel_is_sequence_parallel(void **state)
{
    (void)state;
    const struct gs_model_spec m = spec(fixture_llama(8192, 80, 64, 8, 28672, 128256, false));
    struct gs_workload w = run(GS_FW_TORCHTITAN, GS_DTYPE_BF16, 16, 8192);
    w.training.recompute = GS_RECOMPUTE_FULL;
    w.parallelism.tensor = 8;
    w.parallelism.data = 32;
    w.parallelism.zero_stage = 3;
    w.parallelism.fsdp = true;
    const struct gs_estimate defaulted = estimate(&m, &w);
    assert_true(defaulted.sequence_parallel);
    assert_true(has_assumption(&defaulted, "sequence_parallel"));
    w.parallelism.sequence_parallel = false;
    w.parallelism.sequence_parallel_given = true;
    const struct gs_estimate off = estimate(&m, &w);
    assert_false(off.sequence_parallel);
    assert_false(has_assumption(&off, "sequence_parallel"));
    assert_int_equal(off.saved_activation_bytes - defaulted.saved_activation_bytes,
                     150323855360ULL + 1879048192ULL);
    w.parallelism.sequence_parallel = true;
    const struct gs_estimate on = estimate(&m, &w);
    assert_int_equal(on.saved_activation_bytes, defaulted.saved_activation_bytes);
    assert_false(has_assumption(&on, "sequence_parallel"));
    /* its loss runs on the vocabulary shards (loss_parallel): 16 bytes a logit, 16 x 131,072
     * x 16,032 (128,256 over 8 ranks) = 33,621,540,864 B over a fused linear-cross-entropy's
     * none; on one GPU the fused ATen kernels' 12 x 131,072 x 128,256 = 201,729,245,184. Both
     * with the head's input, which the fused kernel does not keep: 131,072 x 8,192 x 2 =
     * 2,147,483,648 */
    w.training.framework.loss = GS_LOSS_FUSED;
    assert_int_equal(on.saved_activation_bytes - estimate(&m, &w).saved_activation_bytes,
                     33621540864ULL + 2147483648ULL);
    w.parallelism.tensor = 1;
    w.parallelism.data = 256;
    w.parallelism.sequence_parallel_given = false;
    w.parallelism.sequence_parallel = false;
    const uint64_t fused_one = estimate(&m, &w).saved_activation_bytes;
    w.training.framework.loss = GS_LOSS_DEFAULT;
    assert_int_equal(estimate(&m, &w).saved_activation_bytes - fused_one,
                     201729245184ULL + 2147483648ULL);
    w = run(GS_FW_TRANSFORMERS, GS_DTYPE_BF16, 16, 8192);
    w.training.recompute = GS_RECOMPUTE_FULL;
    w.parallelism.tensor = 8;
    assert_false(estimate(&m, &w).sequence_parallel);
}

/* torchtitan Llama-3.1-8B (hidden 4096, 32 layers, 32 / 8 heads of 128, FFN
 * 14336, vocabulary 128,256, untied: 8,030,261,248 parameters; embedding
 * and output 525,336,576 each) on 8 GPUs, FSDP2 (full_shard over 8), bf16
 * MixedPrecisionPolicy (reduce fp32), batch 2 x 8192 = 16,384 tokens,
 * "selective" AC meaning torchtitan's per-op policy, loss
 * cross_entropy(pred.float()) then del pred.
 *   FSDP2's MixedPrecisionPolicy keeps the shards fp32 and steps them (no
 *   master copy): W = 4 B / 8 = 4,015,130,624; O = 8 B / 8 = 8,030,261,248;
 *   the sharded gradients fp32, 4,015,130,624
 *   FSDP: root (embedding + output, bf16) 2,101,346,304 + 2 units of
 *   (16,060,522,496 - 2,101,346,304) / 32 = 436,224,256 -> 2,973,794,816
 *   per op policy, per token and layer: the layer input 2 x 4096, the 1st,
 *   3rd, 5th and 7th matmul outputs (wq 4096, wv 1024, w1 14336, w2 4096)
 *   x 2 = 47,104, the SDPA output 2 x 4096 and log-sum-exp 4 x 32:
 *   63,616 B -> x 16,384 x 32 layers + 8 B ids x 16,384 = 33,353,236,480
 *   loss: 12 B x 16,384 x 128,256 = 25,216,155,648
 *   backward start = W + O + saved + loss + FSDP + ws = 73,622,133,248
 *   reserved: the default stream's peak + 5% (expandable segments,
 *   run_train.sh) = 73,622,133,248 + 3,681,106,663, and the side streams'
 *   pools: the reduce-scatter stream's sharded gradients 4,015,130,624 (the
 *   reduce-scatter input is the default stream's, pytorch PR #129721, and it
 *   exists only after the peak), the copy-in stream's largest gather, the
 *   root's 2,101,346,304: 83,419,716,839 (77.69 GiB; torchtitan's benchmark
 *   measured 82.4 GiB, and 67.0 GiB on 128 GPUs, where the same terms give
 *   63.15 GiB: the 4-5% under is not established).
 * With torch.compile (each block compiled after the policy wraps it) AOT autograd's
 * partitioner takes the policy and saves only what backward or its recomputation reads: w2's
 * output, which feeds only the residual add, is not kept (eager, the policy caches every
 * MUST_SAVE output as it runs): 4,294,967,296 B less (the page measured 77.0 GiB against
 * 82.4). The final norm comes on top of every figure: 16,384 x 4,096 x 6, compiled or not
 * (apply_compile compiles each TransformerBlock; the final norm runs eager), x 2 from 0.2,
 * whose torch nightlies run torch.nn.RMSNorm fused (it saves its 16-bit input), and the
 * trained head's input, 16,384 x 4,096 x 2. */
static void test_torchtitan_llama31_8b_fsdp(void **state)
{
    (void)state;
    const struct gs_model_spec m = spec(fixture_llama(4096, 32, 32, 8, 14336, 128256, false));
    struct gs_workload w = run(GS_FW_TORCHTITAN, GS_DTYPE_BF16, 2, 8192);
    w.training.recompute = GS_RECOMPUTE_SELECTIVE;
    w.parallelism.data = 8;
    w.parallelism.zero_stage = 3;
    w.parallelism.fsdp = true;
    w.training.framework.framework_version_given = true; /* "0.0": the benchmark's 9dec370 */
    struct gs_estimate e = estimate(&m, &w);
    assert_int_equal(e.parameters, 8030261248ULL);
    assert_int_equal(e.per_gpu.weights_bytes, 4015130624ULL);
    assert_int_equal(e.per_gpu.optimizer_bytes, 8030261248ULL);
    assert_int_equal(e.peak.moments[GS_PHASE_OPTIMIZER_STEP].gradients, 4015130624ULL);
    /* the final norm (9dec370's models/norms.py RMSNorm, x.float()), kept after the last
     * layer: its fp32 input and the normalized tensor its trained weight multiplies, 16,384 x
     * 4,096 x 6, compiled or not; fused (0.2's torch), its 16-bit input, x 2 */
    const uint64_t fin = 16384ULL * 4096 * 6, fin_fused = 16384ULL * 4096 * 2;
    const uint64_t hin = 16384ULL * 4096 * 2; /* the trained head's input, for its dW */
    assert_int_equal(e.saved_activation_bytes, 33353236480ULL + 25216155648ULL + fin + hin);
    assert_int_equal(e.peak_phase, GS_PHASE_BACKWARD_START);
    const uint64_t peak = 73622133248ULL + fin + hin;
    assert_int_equal(e.per_gpu.peak_allocated_bytes, peak);
    const uint64_t reserved = peak + (peak * 50 + 999) / 1000 + 4015130624ULL + 2101346304ULL;
    assert_int_equal(e.per_gpu.peak_reserved_bytes, reserved);
    /* the overhead at the peak: FSDP's gathered units, the workspace, the slack, the CUDA
     * context and NCCL's buffers (no GPU named: the PCIe class over 8 ranks) */
    assert_int_equal(e.per_gpu.overhead_bytes,
                     2973794816ULL + ws + (reserved - peak) + GS_CUDA_CONTEXT_BYTES +
                         gs_runtime_comm_bytes(GS_LINK_PCIE, 8, false));

    /* on 128 GPUs only the shards shrink: 12 B x 8,030,261,248 / 128 = 752,836,992 */
    w.parallelism.data = 128;
    e = estimate(&m, &w);
    assert_int_equal(e.per_gpu.peak_allocated_bytes,
                     peak - 4015130624ULL - 8030261248ULL + 752836992ULL);
    w.parallelism.data = 8;

    /* compiled, the partitioner saves only what backward reads: not w2's output (2 x 4,096 B
     * x 16,384 x 32 = 4,294,967,296); the final norm, outside the compiled blocks, as before;
     * the benchmark's commit (9dec370, before 0.1: "0.0") ran its loss eager */
    w.training.framework.compile = GS_KNOB_ON;
    e = estimate(&m, &w);
    assert_int_equal(e.per_gpu.peak_allocated_bytes, 73622133248ULL - 4294967296ULL + fin + hin);
    /* from 0.1 the loss is compiled too: 4 bytes a logit instead of 12, 8 x 16,384 x 128,256
     * = 16,810,770,432 B less at the loss's backward */
    w.training.framework.framework_version = 1;
    e = estimate(&m, &w);
    const uint64_t peak01 = 73622133248ULL - 4294967296ULL + fin + hin - 16810770432ULL;
    assert_int_equal(e.per_gpu.peak_allocated_bytes, peak01);
    const uint64_t reserved01 = e.per_gpu.peak_reserved_bytes;
    assert_int_equal(reserved01,
                     peak01 + (peak01 * 50 + 999) / 1000 + 4015130624ULL + 2101346304ULL);
    /* 0.2 wraps the embedding and [norm, output] apart (apply_fsdp, PR #1094): at backward start
     * the head's unit is gathered, 128,256 x 4,096 x 2 = 1,050,673,152 B, not the embedding's
     * too, and the copy-in stream's largest gather is the head's (1,050,673,152 against two
     * layers' 2 x 436,224,256); its torch's fused RMSNorm keeps the final norm's 16-bit input
     * alone (fin - fin_fused = 268,435,456 B less). 0.2.0 runs cuDNN's attention first, a
     * kernel its policy does not save (no GPU named: a datacenter NVIDIA one), so no layer keeps
     * the attention output and log-sum-exp: (2 x 4,096 + 4 x 32) x 16,384 x 32 = 4,362,076,160
     * B less; 0.2.1 saves them again (PR #2095), and so does 0.2.2, whose grouped K/V the
     * policy does not keep either way */
    w.training.framework.framework_version = 2;
    e = estimate(&m, &w);
    const uint64_t attention = (2ULL * 4096 + 4 * 32) * 16384 * 32;
    const uint64_t peak02 = peak01 - 1050673152ULL - (fin - fin_fused) - attention;
    assert_int_equal(e.per_gpu.peak_allocated_bytes, peak02);
    assert_int_equal(e.per_gpu.peak_reserved_bytes,
                     peak02 + (peak02 * 50 + 999) / 1000 + 4015130624ULL + 1050673152ULL);
    w.training.framework.framework_patch = 1;
    assert_int_equal(estimate(&m, &w).per_gpu.peak_allocated_bytes, peak02 + attention);
    w.training.framework.framework_patch = 2;
    assert_int_equal(estimate(&m, &w).per_gpu.peak_allocated_bytes, peak02 + attention);
    w.training.framework.framework_patch = 0;
    w.training.framework.framework_version = 0;

    /* DeepSpeed's ZeRO-3 for the same numbers has buckets, not FSDP units */
    w.parallelism.fsdp = false;
    w.training.framework.framework = GS_FW_DEEPSPEED;
    e = estimate(&m, &w);
    assert_int_not_equal(e.per_gpu.peak_allocated_bytes, peak);
}

/* Where torchtitan's per-op policy keeps the attention output, by release and GPU: the save
 * list names SDPA's flash and efficient kernels only until 0.2.1 (PR #2095), and cuDNN's kernel,
 * which it does not name, runs first on compute capability 10.0 and up in 0.1 (PR #1209) and on
 * every GPU in 0.2.0 (ScaledDotProductAttentionWrapper). A Llama-3.1-8B-shaped layer at batch 2
 * x 8,192 per GPU keeps the attention output and its fp32 log-sum-exp, (2 x 4,096 + 4 x 32) x
 * 16,384 = 136,314,880 B, x 32 layers = 4,362,076,160 B, where flash runs, and neither where
 * cuDNN's runs: 0.1 on a B200 but not on an H100, 0.2.0 on an H100 but not on an MI300X (no
 * cuDNN), none of it under full checkpointing. 0.2.2 hands grouped K/V to SDPA (enable_gqa, PR
 * #2259): without checkpointing each layer keeps K and V at 8 heads rather than 32, 2 x 2 x
 * (4,096 - 1,024) x 16,384 x 32 = 6,442,450,944 B less than 0.2.1. */
static void test_torchtitan_attention_by_release_and_gpu(void **state)
{
    (void)state;
    const struct gs_model_spec m = spec(fixture_llama(4096, 32, 32, 8, 14336, 128256, false));
    struct gs_workload w = run(GS_FW_TORCHTITAN, GS_DTYPE_BF16, 2, 8192);
    w.training.recompute = GS_RECOMPUTE_SELECTIVE;
    w.training.framework.framework_version = 1;
    w.gpu.total_bytes = 192ULL << 30;
    const uint64_t attention = (2ULL * 4096 + 4 * 32) * 16384 * 32;

    w.gpu.hw = GS_HW_HOPPER;
    const uint64_t h100 = estimate(&m, &w).saved_activation_bytes;
    w.gpu.hw = GS_HW_BLACKWELL;
    assert_int_equal(h100 - estimate(&m, &w).saved_activation_bytes, attention);

    w.training.framework.framework_version = 2; /* "0.2": 0.2.0 */
    w.gpu.hw = GS_HW_HOPPER;
    const uint64_t h100_020 = estimate(&m, &w).saved_activation_bytes;
    w.gpu.hw = GS_HW_CDNA3;
    assert_int_equal(estimate(&m, &w).saved_activation_bytes - h100_020, attention);
    w.gpu.hw = GS_HW_HOPPER;
    w.training.framework.framework_patch = 1;
    assert_int_equal(estimate(&m, &w).saved_activation_bytes - h100_020, attention);

    w.training.recompute = GS_RECOMPUTE_FULL;
    w.training.framework.framework_patch = 0;
    const uint64_t full_020 = estimate(&m, &w).saved_activation_bytes;
    w.training.framework.framework_patch = 1;
    assert_int_equal(estimate(&m, &w).saved_activation_bytes, full_020);

    w.training.recompute = GS_RECOMPUTE_NONE;
    const uint64_t none_021 = estimate(&m, &w).saved_activation_bytes;
    w.training.framework.framework_patch = 2;
    assert_int_equal(none_021 - estimate(&m, &w).saved_activation_bytes, 6442450944ULL);
}

/* torch.nn.RMSNorm by torch release, as torchtitan's releases run it: 0.1 pinned a torch 2.8
 * nightly, whose rms_norm upcasts (rms_norm_composite: the fp32 input pow and mul keep, and the
 * normalized 16-bit tensor the trained weight multiplies, 4 + 2 bytes a hidden element); 0.2 runs
 * the nightlies from 2.10, where rms_norm calls the fused kernel when weight and input share a
 * dtype and autograd keeps the 16-bit input and a per-row rstd (derivatives.yaml _fused_rms_norm).
 * Llama-3.1-8B-shaped on one GPU in bf16, batch 2 x 8,192, no checkpointing: two norms a layer,
 * (6 - 2) x 4,096 x 16,384 x 2 x 32 = 17,179,869,184 B less, and the final norm
 * 4 x 4,096 x 16,384 = 268,435,456. Under autocast (fp32 weights) the norms read the fp32
 * residual stream (the adds promote the 16-bit branch outputs), so the dtypes match too: the
 * fused kernel keeps that fp32 input itself (4 bytes), the composite the input and its fp32
 * normalized tensor (4 + 4): the same 4 bytes less. */
static void test_torchtitan_rms_norm_by_torch(void **state)
{
    (void)state;
    const struct gs_model_spec m = spec(fixture_llama(4096, 32, 32, 8, 14336, 128256, false));
    struct gs_workload w = run(GS_FW_TORCHTITAN, GS_DTYPE_BF16, 2, 8192);
    w.training.regime = GS_REGIME_BF16_PURE;
    w.training.framework.framework_version = 1;
    const uint64_t upcast = estimate(&m, &w).saved_activation_bytes;
    w.training.framework.framework_version = 2;
    const uint64_t fused = estimate(&m, &w).saved_activation_bytes;
    assert_int_equal(upcast - fused, 17179869184ULL + 268435456ULL);

    w.weights = GS_DTYPE_FP32;
    w.training.regime = GS_REGIME_AMP;
    w.training.framework.framework_version = 1;
    const uint64_t amp_upcast = estimate(&m, &w).saved_activation_bytes;
    w.training.framework.framework_version = 2;
    assert_int_equal(amp_upcast - estimate(&m, &w).saved_activation_bytes,
                     17179869184ULL + 268435456ULL);
}

/* A LitGPT bf16-true run with LoRA (or QLoRA) of rank `rank` on q and v. */
static struct gs_workload litgpt_qv(enum gs_dtype weights, enum gs_method method, uint64_t rank,
                                    uint64_t batch, uint64_t seq)
{
    struct gs_workload w = run(GS_FW_LITGPT, weights, batch, seq);
    w.training.regime = GS_REGIME_BF16_PURE;
    w.training.method = method;
    w.training.method_given = true;
    w.training.double_quant = false;
    w.training.lora_rank = rank;
    w.training.lora_target_count = 2;
    strcpy(w.training.lora_targets[0], "q_proj");
    strcpy(w.training.lora_targets[1], "v_proj");
    return w;
}

/* LitGPT's GPT keeps lm_head apart from transformer.wte (litgpt/model.py), and converting a
 * checkpoint whose head is tied copies the embedding into it (scripts/convert_hf_checkpoint.py),
 * so Llama-3.2-1B (hidden 2048, 16 layers, 32 heads / 8 KV heads of 64, FFN 8192, vocabulary
 * 128,256, tied: 1,235,814,400 parameters) trains with a head of 128,256 x 2,048 = 262,668,288
 * parameters more: 1,498,482,688. LoRA r32 on q and v in bf16 (the config hub's
 * llama-3.2-1B/lora.yaml): the frozen head's weights are 262,668,288 x 2 = 525,336,576 B more,
 * and nothing else changes (the head is frozen; its input is saved either way, chunk by chunk).
 * transformers' model ties the two, and an untied model is the same under both. */
static void test_litgpt_unties_head(void **state)
{
    (void)state;
    const struct gs_model_spec m = spec(fixture_llama(2048, 16, 32, 8, 8192, 128256, true));
    struct gs_workload w = litgpt_qv(GS_DTYPE_BF16, GS_METHOD_LORA, 32, 1, 512);
    const struct gs_estimate litgpt = estimate(&m, &w);
    assert_int_equal(litgpt.parameters, 1498482688ULL);
    assert_true(has_assumption(&litgpt, "head_untied"));

    w.training.framework.framework = GS_FW_TRANSFORMERS;
    const struct gs_estimate hf = estimate(&m, &w);
    assert_int_equal(hf.parameters, 1235814400ULL);
    assert_false(has_assumption(&hf, "head_untied"));
    assert_int_equal(litgpt.per_gpu.weights_bytes - hf.per_gpu.weights_bytes, 525336576ULL);

    /* the untied model: the same under LitGPT, with no assumption */
    const struct gs_model_spec untied = spec(fixture_llama(2048, 16, 32, 8, 8192, 128256, false));
    w.training.framework.framework = GS_FW_LITGPT;
    const struct gs_estimate own = estimate(&untied, &w);
    assert_int_equal(own.parameters, 1498482688ULL);
    assert_int_equal(own.per_gpu.weights_bytes, litgpt.per_gpu.weights_bytes);
    assert_int_equal(own.per_gpu.peak_allocated_bytes, litgpt.per_gpu.peak_allocated_bytes);
    assert_false(has_assumption(&own, "head_untied"));
}

/* bitsandbytes' MatMul4Bit (before 0.43.2) keeps its input on its ctx (ctx.tensors = (A, B)),
 * not through save_for_backward, so autograd does not release it after backward: it lives as
 * long as the graph, which LitGPT's loop keeps through its `logits` variable until the next
 * micro-batch's forward returns. Llama-2-7B QLoRA (nf4, LoRA r32 on q and v), micro-batches
 * of 2 x 512 = 1,024 tokens: per token and layer MatMul4Bit keeps the q/k/v input 2h, the MLP
 * input 2h, o_proj's input 2h and down's 2 x 11,008 = 46,592 B, none of it kept by anything
 * else, except in layer 0, whose input (the frozen embedding's output) needs no gradient, so
 * its q/k/v linear keeps nothing (needs_input_grad false): 46,592 x 1,024 x 32 - 8,192 x 1,024
 * = 1,518,338,048 B; and the 4-bit head's (LitGPT's lm_head is quantized too) the final norm's
 * output, which nothing else keeps (the head is not adapted): 1,024 x 4,096 x 2 = 8,388,608.
 * Together 1,526,726,656. The vocabulary's 32,000 make 32,768,000 logits in 4 chunks of 128
 * positions; the head's weight, quantized from an fp16 copy (Lightning's _Linear4bit.quantize),
 * dequantizes to fp16 and is cast to bf16: 4 x 131,072,000 = 524,288,000 at once.
 * - lit-gpt (0.1): the longest sample runs first, with no graph before it. The peak is the
 *   head's backward: the fp32 logits the loop holds (4 B a logit, 131,072,000), their bf16
 *   gradients (65,536,000) and the dequantized head: 720,896,000 beside the saved activations.
 * - LitGPT 0.2-0.5.4 (shuffled DataLoaders, bitsandbytes 0.42): the forward's end, where the
 *   previous micro-batch's graph (1,526,726,656) and its fp32 logits (131,072,000) are still
 *   bound to `logits`, beside the last chunk's projection: the three chunks before it in bf16
 *   (49,152,000) and the dequantized head (524,288,000), more than the head's output and its
 *   fp32 copy (6 B a logit, 196,608,000): 2,231,238,656, which is 1,510,342,656 more.
 * - LitGPT 0.5.5+ (bitsandbytes >= 0.44: ctx.tensors = (None, B)): no such input is kept at
 *   all, 1,526,726,656 less than lit-gpt, whose moment is the peak again (the forward's end
 *   holds 131,072,000 + 49,152,000 + 524,288,000 = 704,512,000 < 720,896,000). */
static void test_litgpt_previous_graph(void **state)
{
    (void)state;
    const struct gs_model_spec m = spec(fixture_llama(4096, 32, 32, 32, 11008, 32000, false));
    struct gs_workload w = litgpt_qv(GS_DTYPE_INT4, GS_METHOD_QLORA, 32, 2, 512);
    w.training.lora_dropout_permille = 50;
    w.training.framework.framework_version = 1; /* 0.1: lit-gpt */
    const struct gs_estimate first = estimate(&m, &w);
    w.training.framework.framework_version = 4; /* 0.4 */
    const struct gs_estimate kept = estimate(&m, &w);
    w.training.framework.framework_version = 5; /* 0.5.5 */
    w.training.framework.framework_patch = 5;
    const struct gs_estimate none = estimate(&m, &w);
    assert_int_equal(kept.per_gpu.peak_allocated_bytes - first.per_gpu.peak_allocated_bytes,
                     1510342656ULL);
    assert_int_equal(first.per_gpu.peak_allocated_bytes - none.per_gpu.peak_allocated_bytes,
                     1526726656ULL);
    assert_int_equal(kept.peak.start, GS_START_FORWARD_END);
    assert_int_equal(first.peak.start, GS_START_HEAD);
    assert_int_equal(none.peak.start, GS_START_HEAD);
    assert_true(has_assumption(&kept, "previous_graph_bytes"));
    assert_false(has_assumption(&first, "previous_graph_bytes"));
    assert_false(has_assumption(&none, "previous_graph_bytes"));
    /* a LoRA base in bf16 keeps no such input: no previous graph to count */
    w.weights = GS_DTYPE_BF16;
    w.training.method = GS_METHOD_LORA;
    w.training.framework.framework_version = 4;
    w.training.framework.framework_patch = 0;
    const struct gs_estimate lora = estimate(&m, &w);
    assert_false(has_assumption(&lora, "previous_graph_bytes"));
}

/* LitGPT finetune/lora.py with --quantize bnb.nf4 (no double
 * quantization), Llama-2-7B (4096, 32 layers, 32 heads, FFN 11008,
 * vocabulary 32,000), bf16-true, LoRA r8 on query and value with dropout
 * 0.05, micro-batch 1 at the longest Alpaca sample, 1,304 tokens.
 *   base: linears 6,476,005,376 and the head 131,072,000 (LitGPT's lm_head
 *   is an nn.Linear, which Fabric's BitsandbytesPrecision quantizes with
 *   the others) x 4.5 bits = 3,716,481,024, embedding and norms 131,338,240
 *   x 2 = 262,676,480; adapters 4,194,304 x 2 B -> W = 3,987,546,112;
 *   O = 2 x 2 x 4,194,304 = 16,777,216
 *   per token and layer:
 *     2 frozen RMSNorms (litgpt rmsnorm.py x.float()): 4h each       32,768
 *     bitsandbytes MatMul4Bit keeps A for every 4-bit linear: the q/k/v
 *     input 2h, the MLP input 2h, o_proj's contiguous input 2h and
 *     down's input 2 x 11008                                       46,592
 *     LitGPT's fused qkv adapter (lora.py LoRAQKVLinear): one
 *     lora_dropout output and mask for q and v together, 3 x 4096    12,288
 *     and zero_pad's index_copy source, the q and v deltas 2 x 8192  16,384
 *     Q, K, V and the attention output 4 x 2 x 4096                  32,768
 *     the fused qkv output that V (a view of it) keeps alive beside
 *     the rotated Q and K copies: the q and k widths 2 x 8192        16,384
 *     SwiGLU gate, silu, up 3 x 2 x 11008                            66,048
 *     log-sum-exp 4 x 32                                                128
 *   = 223,360 B x 1,304 x 32 + 8 B ids x 1,304 = 9,320,376,512
 *   loss: the logits split into 128-position chunks (11), which Fabric
 *   converts to fp32 (convert_output) and the loop holds (4), each chunk's
 *   fp32 log_softmax output (4) and one chunk's fp32 gradients (8/11):
 *   70/8 B x 1,304 x 32,000 = 365,120,000
 *   The first layer reads the frozen embedding's output, which needs no
 *   gradient: its input norm's fp32 copy (4h), MatMul4Bit's q/k/v input
 *   (2h) and the fused adapter's dropout mask (h) are not kept: 7 x 4,096 x
 *   1,304 = 37,388,288 less: saved 9,282,988,224.
 *   The final RMSNorm keeps its fp32 input (1,304 x 4,096 x 4 = 21,364,736)
 *   and the 4-bit head's MatMul4Bit its bf16 input, the norm's output
 *   (10,682,368), until the head's backward, which is the peak: every
 *   chunk's bf16 logits gradient (2 x 41,728,000 = 83,456,000) beside the
 *   fp32 chunks the loop holds (166,912,000) and the head's weight
 *   dequantized for the first chunk's input gradient - Lightning quantized
 *   an fp16 copy, so F.dequantize_4bit(...).to(bf16) holds the fp16 weight
 *   and its bf16 cast, 4 x 131,072,000 = 524,288,000: 806,703,104 (the
 *   loss's moment: 365,120,000 + 32,047,104).
 *   peak = W + O + saved + 806,703,104 + ws (32 MiB) = 14,127,569,088
 *   (13.16 GiB; LitGPT's resource table: 14.14 GB = 13.17 GiB max
 *   allocated). */
static void test_litgpt_qlora_llama2_7b(void **state)
{
    (void)state;
    const struct gs_model_spec m = spec(fixture_llama(4096, 32, 32, 32, 11008, 32000, false));
    struct gs_workload w = run(GS_FW_LITGPT, GS_DTYPE_INT4, 1, 1304);
    w.training.framework.framework_version = 1; /* 0.1: lit-gpt, bitsandbytes 0.41 */
    w.training.regime = GS_REGIME_BF16_PURE;
    w.training.method = GS_METHOD_QLORA;
    w.training.method_given = true;
    w.training.double_quant = false;
    w.training.lora_rank = 8;
    w.training.lora_target_count = 2;
    strcpy(w.training.lora_targets[0], "q_proj");
    strcpy(w.training.lora_targets[1], "v_proj");
    w.training.lora_dropout_permille = 50;
    struct gs_estimate e = estimate(&m, &w);
    assert_int_equal(e.per_gpu.weights_bytes, 3987546112ULL);
    assert_int_equal(e.per_gpu.optimizer_bytes, 16777216ULL);
    assert_int_equal(e.loss, GS_LOSS_CHUNKED);
    const uint64_t fin = 1304ULL * 4096 * 4, head_in = 1304ULL * 4096 * 2,
                   first = 7ULL * 4096 * 1304;
    assert_int_equal(e.saved_activation_bytes,
                     9320376512ULL + 365120000ULL + fin + head_in - first);
    assert_int_equal(e.per_gpu.peak_allocated_bytes, 14127569088ULL);
    assert_int_equal(e.peak.start, GS_START_HEAD);
    /* four sequences: LitGPT splits the logits along the sequence (x.split(128, dim=1)), so
     * still 11 chunks of 4 x 128 positions and 70/8 B a logit: 4 x (223,360 x 1,304 x 32 +
     * 8 x 1,304 + 365,120,000) = 38,741,986,048 */
    w.training.batch_size = 4;
    e = estimate(&m, &w);
    assert_int_equal(e.saved_activation_bytes, 38741986048ULL + 4 * (fin + head_in) - 4 * first);
    w.training.batch_size = 1;

    /* torchtune's QLoRA (torchao linear_nf4) keeps only the NF4 weight, not the input */
    w.training.framework.framework = GS_FW_TORCHTUNE;
    e = estimate(&m, &w);
    assert_true(e.saved_activation_bytes < 9320376512ULL);
}

/* The rules of `framework` at `version`, resolved for SDPA, with default parallelism in `par`
 * (fixture_framework_release). */
static struct gs_framework_rules sdpa_rules(enum gs_framework framework, uint32_t version,
                                            struct gs_parallelism *par)
{
    struct gs_training_knobs k;
    fixture_framework_release(par, &k, framework, version);
    struct gs_framework_rules rules;
    gs_framework_resolve(&k, GS_ATTN_SDPA, &rules);
    return rules;
}

/* A bf16 adapter run's activation input: fixture_one_sequence of `seq` tokens under SDPA,
 * training `adapters`. */
static struct gs_activation_input adapter_input(const struct gs_arch *arch, uint64_t seq,
                                                const struct gs_parallelism *par,
                                                const struct gs_framework_rules *rules,
                                                const struct gs_training *adapters)
{
    struct gs_activation_input in = fixture_one_sequence(arch, par, rules, seq, true);
    in.trainable = GS_TRAIN_ADAPTERS;
    in.adapters = adapters;
    return in;
}

/* What a matmul over a 4-bit weight holds while it runs: bitsandbytes' MatMul4Bit computes
 * F.dequantize_4bit(B, quant_state).to(A.dtype), whose first tensor has the dtype the weight was
 * quantized from. Lightning's _Linear4bit.quantize quantizes an fp16 copy
 * (weight.to(dtype=torch.half)), so under LitGPT's bf16-true the fp16 weight and its bf16 cast
 * are alive at once: 4 B a weight, 6 under 32-true. Llama-2-7B (hidden 4,096, FFN 11,008,
 * vocabulary 32,000), QLoRA r8 on q and v, 512 tokens:
 * - a layer's backward, its largest 4-bit linear (gate, up or down, 45,088,768 weights): 2 B a
 *   weight more than a weight dequantized at its own 16 bits, 90,177,536;
 * - the head, which Fabric quantizes too: 4 x 32,000 x 4,096 = 524,288,000 (786,432,000 in
 *   fp32; 2 B a weight, 262,144,000, were it quantized from its bf16 self);
 * - torchtune's output projection stays 16-bit: nothing to dequantize. */
static void test_litgpt_dequantized_weights(void **state)
{
    (void)state;
    const struct gs_model_spec m = spec(fixture_llama(4096, 32, 32, 32, 11008, 32000, false));
    struct gs_workload w = litgpt_qv(GS_DTYPE_INT4, GS_METHOD_QLORA, 8, 1, 512);
    w.training.lora_dropout_permille = 50;
    struct gs_parallelism par;
    struct gs_framework_rules rules = sdpa_rules(GS_FW_LITGPT, 4, &par);
    assert_true(rules.quantizes_head);
    assert_true(rules.quant_state_fp16);
    struct gs_activation_input in = adapter_input(&m.arch, 512, &par, &rules, &w.training);
    in.quantized_base = true;
    struct gs_activation_result fp16, own;
    assert_true(gs_activation_bytes(&in, &fp16));
    assert_int_equal(fp16.head_dequant_bytes, 524288000ULL);
    struct gs_framework_rules self = rules;
    self.quant_state_fp16 = false;
    in.rules = &self;
    assert_true(gs_activation_bytes(&in, &own));
    assert_int_equal(fp16.layer_working_bytes - own.layer_working_bytes, 90177536ULL);
    assert_int_equal(own.head_dequant_bytes, 262144000ULL);
    in.rules = &rules;
    in.element_bytes = 4;
    assert_true(gs_activation_bytes(&in, &fp16));
    assert_int_equal(fp16.head_dequant_bytes, 786432000ULL);
    rules = sdpa_rules(GS_FW_TORCHTUNE, 0, &par);
    in.element_bytes = 2;
    assert_true(gs_activation_bytes(&in, &own));
    assert_int_equal(own.head_dequant_bytes, 0);
}

/* A toy Qwen3-MoE: hidden 1,024, 2 layers, 8 heads of 128, 8 experts of 256, top 2, vocabulary
 * 1,000. */
static struct gs_model_spec toy_qwen3_moe(void)
{
    return spec(fixture_arch(
        "{\"model_type\":\"qwen3_moe\",\"hidden_size\":1024,\"num_hidden_layers\":2,"
        "\"num_attention_heads\":8,\"num_key_value_heads\":8,\"head_dim\":128,"
        "\"intermediate_size\":3072,\"moe_intermediate_size\":256,\"num_experts\":8,"
        "\"num_experts_per_tok\":2,\"vocab_size\":1000,\"tie_word_embeddings\":false}"));
}

/* transformers 4.x runs each routed expert as an MLP of nn.Linear modules
 * (modeling_qwen3_moe.py Qwen3MoeSparseMoeBlock: expert_layer(current_state), current_state =
 * hidden_states[None, top_x]), which PEFT adapts where a target names them. A toy Qwen3-MoE
 * (hidden 1,024, 2 layers, 8 experts of 256, top 2) in bf16 (adapters bf16 too), 128 tokens,
 * LoRA r8 with dropout 0.05 on q_proj, and then on the experts' gate_proj, up_proj and down_proj
 * as well:
 * - adapters: 8 x (1,024 + 256) per projection, 3 a expert, 8 experts, 2 layers: 491,520 more;
 * - a routed token: each adapter's lora_dropout keeps its 1-byte mask and bf16 output of the
 *   projection's input: 3 x 1,024 for gate_proj and for up_proj, 3 x 256 for down_proj: 6,912
 *   B, x 2 routed experts x 128 tokens x 2 layers = 3,538,944 B more saved;
 * - without dropout lora_A keeps the tensors it reads: the expert's gathered input (2 x 1,024,
 *   one tensor for gate's and up's) and the product down_proj reads (2 x 256): 2,560 B a routed
 *   token, 1,310,720 B. The router is an nn.Linear on 4.x too (self.gate), whose adapter keeps
 *   what a dense layer's keeps of the MLP's input. LitGPT's LLaMAMoE adapts its experts the
 *   same way (each a LLaMAMLP of
 *   LoRALinear modules). transformers 5.x fuses the experts into 3D parameters PEFT leaves
 *   alone: there the targets name no linear of this model. */
static void test_routed_expert_adapters(void **state)
{
    (void)state;
    const struct gs_model_spec m = toy_qwen3_moe();
    struct gs_workload w = lora_446(128);
    w.training.lora_dropout_permille = 50;
    w.training.lora_target_count = 1;
    strcpy(w.training.lora_targets[0], "q_proj");
    const struct gs_estimate attention = estimate(&m, &w);
    w.training.lora_target_count = 4;
    strcpy(w.training.lora_targets[1], "gate_proj");
    strcpy(w.training.lora_targets[2], "up_proj");
    strcpy(w.training.lora_targets[3], "down_proj");
    const struct gs_estimate experts = estimate(&m, &w);
    assert_int_equal(experts.trainable_parameters - attention.trainable_parameters, 491520);
    const struct gs_assumption *a = fixture_assumption(&experts, "expert_adapter_parameters");
    assert_non_null(a);
    assert_int_equal(a->value, 491520);
    assert_int_equal(experts.saved_activation_bytes - attention.saved_activation_bytes, 3538944);
    w.training.lora_dropout_permille = 0;
    const struct gs_estimate direct = estimate(&m, &w);
    w.training.lora_target_count = 1;
    const struct gs_estimate plain = estimate(&m, &w);
    assert_int_equal(direct.saved_activation_bytes - plain.saved_activation_bytes, 1310720);
    /* the router, an nn.Linear on 4.x (self.gate): its adapter's dropout keeps a mask and a copy
     * of the MLP's normed input, 3 x 1,024 B a token and layer: 786,432 B (8 x (1,024 + 8) x 2 =
     * 16,512 adapters) */
    w.training.lora_dropout_permille = 50;
    strcpy(w.training.lora_targets[1], "gate");
    w.training.lora_target_count = 2;
    const struct gs_estimate router = estimate(&m, &w);
    assert_int_equal(router.saved_activation_bytes - attention.saved_activation_bytes, 786432);
    assert_int_equal(router.trainable_parameters - attention.trainable_parameters, 16512);
    w.training.lora_dropout_permille = 0;
    strcpy(w.training.lora_targets[1], "gate_proj");
    /* LitGPT's LLaMAMoE keeps its experts as LLaMAMLPs of LoRALinear modules (lora.py) */
    w.training.framework.framework = GS_FW_LITGPT;
    w.training.framework.framework_version = 0;
    w.training.lora_target_count = 4;
    const struct gs_estimate litgpt = estimate(&m, &w);
    a = fixture_assumption(&litgpt, "expert_adapter_parameters");
    assert_non_null(a);
    assert_int_equal(a->value, 491520);
    w.training.framework.framework = GS_FW_TRANSFORMERS;
    /* 5.x: the experts are 3D parameters, and under PEFT before 0.19 gate_proj names nothing */
    w.training.framework.framework_version = 517;
    w.training.lora_target_count = 4;
    w.training.peft_version = 18;
    assert_string_equal(refusal(&m, &w).pointer, "/training/lora/targets");
    /* PEFT 0.19 and later put a ParamWrapper on each fused parameter: gate_up_proj at rank 16,
     * 16 x 8 x (1,024 + 512) = 196,608, and down_proj 8 x 8 x (256 + 1,024) = 81,920 a layer,
     * 557,056 in 2 layers, beside q_proj's */
    w.training.peft_version = 0;
    const struct gs_estimate wrapped = estimate(&m, &w);
    w.training.lora_target_count = 1;
    const struct gs_estimate q_only = estimate(&m, &w);
    assert_int_equal(wrapped.trainable_parameters - q_only.trainable_parameters, 557056);
    assert_int_equal(fixture_assumption(&wrapped, "peft_expert_adapter_parameters")->value, 557056);
}

/* PEFT 0.19 and later under transformers 5.x: the v4 names of a Qwen3-MoE's experts and router
 * become a ParamWrapper on each fused parameter (peft utils/transformers_weight_conversion.py
 * _convert_peft_config_moe; tuners/lora/layer.py ParamWrapper), whose forward merges its delta into
 * the weight (nn.utils.parametrize: W + delta_weight) and whose experts' grouped_mm keeps that
 * merged tensor (transformers integrations/moe.py grouped_mm_experts_forward). The toy Qwen3-MoE
 * of test_routed_expert_adapters (hidden 1,024, 2 layers, 8 experts of 256, top 2), bf16 weights
 * and adapters without autocast (regime bf16_pure), 128 tokens, LoRA r8 on q_proj, gate_proj,
 * up_proj, down_proj and gate against q_proj alone, what one layer keeps more:
 * - the merged weights at bf16: gate_up_proj 8 x 1,024 x 512 = 4,194,304, down_proj 8 x 1,024 x
 *   256 = 2,097,152, the router's 8 x 1,024 = 8,192: 6,299,648 elements, 12,599,296 B;
 * - a routed token's gathered input, which grouped_mm keeps for gate_up_proj's gradient (2 x
 *   1,024), and the product down_proj reads (2 x 256): 2,560 B x 2 experts x 128 tokens =
 *   655,360 B;
 * - the router's input, for its weight's gradient: 128 x 1,024 x 2 = 262,144 B;
 * 13,516,800 B a layer, 27,033,600 B in 2. Under checkpointing one layer's at a time, and its
 * backward's chain over gate_up_proj: the merged weight's bf16 gradient, which the add hands the
 * bf16 delta, and the scaling's product (MulBackward), 4 bytes an element at once, less the
 * merged weight it released: 2 x 4,194,304 = 8,388,608 B; 21,905,408 B more at backward's start
 * (the recomputed layer's moment). Adapters: 557,056 on the experts
 * (test_routed_expert_adapters) and the router's 8 x (1,024 + 8) x 2 = 16,512. Under expert
 * parallelism 2 (2 data ranks) a rank merges its own 4 experts and the whole router: 2,097,152 +
 * 1,048,576 + 8,192 elements, 6,307,840 B a layer, 12,582,912 B less in 2 than with the experts
 * whole on each rank. */
static void test_peft_param_wrappers(void **state)
{
    (void)state;
    const struct gs_model_spec m = toy_qwen3_moe();
    struct gs_workload w = lora_446(128);
    w.training.framework.framework_version = 517;
    w.training.lora_target_count = 1;
    strcpy(w.training.lora_targets[0], "q_proj");
    const struct gs_estimate attention = estimate(&m, &w);
    w.training.lora_target_count = 5;
    strcpy(w.training.lora_targets[1], "gate_proj");
    strcpy(w.training.lora_targets[2], "up_proj");
    strcpy(w.training.lora_targets[3], "down_proj");
    strcpy(w.training.lora_targets[4], "gate");
    const struct gs_estimate wrapped = estimate(&m, &w);
    assert_int_equal(wrapped.trainable_parameters - attention.trainable_parameters, 557056 + 16512);
    assert_int_equal(fixture_assumption(&wrapped, "peft_expert_merged_weight_bytes")->value,
                     12599296);
    assert_true(has_warning(&wrapped, "lora_experts_param_wrapper"));
    assert_false(has_warning(&attention, "lora_experts_param_wrapper"));
    assert_int_equal(wrapped.saved_activation_bytes - attention.saved_activation_bytes, 27033600);
    w.parallelism.data = 2;
    const struct gs_estimate whole = estimate(&m, &w);
    w.parallelism.expert = 2;
    const struct gs_estimate sharded = estimate(&m, &w);
    assert_int_equal(fixture_assumption(&sharded, "peft_expert_merged_weight_bytes")->value,
                     6307840);
    assert_int_equal(whole.saved_activation_bytes - sharded.saved_activation_bytes, 12582912);
    w.parallelism.data = 1;
    w.parallelism.expert = 1;
    w.training.recompute = GS_RECOMPUTE_FULL;
    w.training.recompute_given = true;
    const struct gs_estimate wrapped_ck = estimate(&m, &w);
    w.training.lora_target_count = 1;
    const struct gs_estimate attention_ck = estimate(&m, &w);
    assert_int_equal(wrapped_ck.peak.moments[GS_PHASE_BACKWARD_START].activations -
                         attention_ck.peak.moments[GS_PHASE_BACKWARD_START].activations,
                     21905408);
    /* before 0.19 the expert names name nothing of 5.x's model, and the router a bare weight */
    w.training.lora_target_count = 5;
    w.training.peft_version = 18;
    assert_string_equal(refusal(&m, &w).pointer, "/training/lora/targets");
    /* what a ParamWrapper refuses (lora.ParamWrapper.__init__) */
    w.training.peft_version = 0;
    w.training.lora_dropout_permille = 50;
    assert_string_equal(refusal(&m, &w).pointer, "/training/lora/dropout");
    w.training.lora_dropout_permille = 0;
    w.training.lora_dora = true;
    assert_string_equal(refusal(&m, &w).pointer, "/training/lora/use_dora");
    w.training.lora_dora = false;
    /* all-linear: converted from 0.20 (PR #3232); 0.19 reads the string as a set of characters */
    w.training.lora_target_count = 0;
    w.training.peft_version = 20;
    assert_int_equal(estimate(&m, &w).trainable_parameters,
                     wrapped.trainable_parameters + 2 * 3 * 8 * (1024 + 1024));
    w.training.peft_version = 19;
    assert_string_equal(refusal(&m, &w).pointer, "/training/lora/targets");

    /* Hunyuan's router is gate.wg (HunYuanMoEV1Gate's nn.Linear), so the converted `gate`
     * names a parameter, gate.weight, no module holds: PEFT warns ("no parameter was matched")
     * and makes no ParamWrapper, so nothing refuses the dropout q_proj's adapter keeps */
    const struct gs_model_spec hunyuan = spec(fixture_arch(
        "{\"model_type\":\"hunyuan_v1_moe\",\"hidden_size\":1024,\"num_hidden_layers\":2,"
        "\"num_attention_heads\":8,\"num_key_value_heads\":8,\"head_dim\":128,"
        "\"intermediate_size\":256,\"num_experts\":8,\"moe_topk\":2,"
        "\"vocab_size\":1000,\"tie_word_embeddings\":false}"));
    w.training.peft_version = 0;
    w.training.lora_dropout_permille = 50;
    w.training.lora_target_count = 2;
    strcpy(w.training.lora_targets[0], "q_proj");
    strcpy(w.training.lora_targets[1], "gate");
    const struct gs_estimate routerless = estimate(&hunyuan, &w);
    assert_null(fixture_assumption(&routerless, "peft_expert_adapter_parameters"));
    assert_int_equal(routerless.trainable_parameters, 2 * 8 * (1024 + 1024));
    /* its experts' names are converted all the same: down_proj makes a wrapper, which refuses */
    strcpy(w.training.lora_targets[1], "down_proj");
    assert_string_equal(refusal(&hunyuan, &w).pointer, "/training/lora/dropout");
}

/* A toy Gemma 4 text model: hidden 256, 4 layers of 4 heads, 2 KV heads of 64 on the sliding
 * layers and of 128 (global_head_dim) on the full ones; the last layer, full (as
 * Gemma4TextConfig.__post_init__ makes the last), shares the second's K and V. */
static struct gs_model_spec toy_gemma4_shared(void)
{
    return spec(fixture_arch(
        "%s", "{\"model_type\":\"gemma4_text\",\"hidden_size\":256,\"num_hidden_layers\":4,"
              "\"num_attention_heads\":4,\"num_key_value_heads\":2,\"head_dim\":64,"
              "\"global_head_dim\":128,\"intermediate_size\":512,\"sliding_window\":64,"
              "\"num_kv_shared_layers\":1,\"layer_types\":[\"sliding_attention\","
              "\"full_attention\",\"sliding_attention\",\"sliding_attention\"],"
              "\"vocab_size\":1000}"));
}

/* Gemma 4's and Gemma 3n's attention normalizes V with an RMSNorm that has no weight
 * (modeling_gemma4.py Gemma4TextAttention: self.v_norm = Gemma4RMSNorm(head_dim,
 * with_scale=False), value_states = self.v_norm(value_states) in every layer that computes its
 * own K and V; Gemma4RMSNorm.forward runs _norm(hidden_states.float()), whose pow and product
 * keep that fp32 copy; modeling_gemma3n.py alike). A toy Gemma 4 text model (hidden 256, 4
 * layers of 4 heads, 2 KV heads of 64 on the three sliding layers and of 128 on the full one,
 * none shared), bf16, LoRA on all linears, 128 tokens: 3 x 2 x 64 + 2 x 128 = 640 elements of
 * V a token, 4 bytes each: 327,680 B more than the same model without its v_norm. */
static void test_gemma_v_norm(void **state)
{
    (void)state;
    struct gs_model_spec m = spec(fixture_arch(
        "%s", "{\"model_type\":\"gemma4_text\",\"hidden_size\":256,\"num_hidden_layers\":4,"
              "\"num_attention_heads\":4,\"num_key_value_heads\":2,\"head_dim\":64,"
              "\"global_head_dim\":128,\"intermediate_size\":512,\"sliding_window\":64,"
              "\"num_kv_shared_layers\":0,\"layer_types\":[\"sliding_attention\","
              "\"sliding_attention\",\"sliding_attention\",\"full_attention\"],"
              "\"vocab_size\":1000}"));
    struct gs_workload w = lora_446(128);
    w.training.framework.framework_version = 517;
    const struct gs_estimate with = estimate(&m, &w);
    for (size_t k = 0; k < m.arch.block_count; k++) {
        assert_true(m.arch.blocks[k].attn.v_norm);
        m.arch.blocks[k].attn.v_norm = false;
    }
    const struct gs_estimate without = estimate(&m, &w);
    assert_int_equal(with.saved_activation_bytes - without.saved_activation_bytes, 327680);
    /* a layer sharing an earlier layer's K and V (num_kv_shared_layers) takes those tensors, in
     * training too from 5.5.2 (Gemma4TextAttention: shared_kv_states[self.layer_type], PR
     * #45312): no K, V or v_norm of its own. The toy's last layer (full attention, as
     * Gemma4TextConfig.__post_init__ makes the last) shares the second's; 32 tokens leave K and
     * V grouped (no mask, no repeat): against the same layer computing its own, 2 x 128 of V's
     * fp32 copy (4 B) and K and V, 2 x 2 x 128 at 2 B: 2,048 B a token, 65,536 B */
    struct gs_model_spec shared = toy_gemma4_shared();
    w.training.sequence_length = 32;
    const struct gs_estimate reused = estimate(&shared, &w);
    size_t shared_blocks = 0;
    for (size_t k = 0; k < shared.arch.block_count; k++)
        if (shared.arch.blocks[k].attn.kv_shared) {
            shared.arch.blocks[k].attn.kv_shared = false;
            shared_blocks++;
        }
    assert_int_equal(shared_blocks, 1);
    assert_int_equal(estimate(&shared, &w).saved_activation_bytes - reused.saved_activation_bytes,
                     65536);
}

/* Muse Glimmer's attention (modeling_muse_glimmer.py MuseGlimmerTextAttention.forward) normalizes
 * each head of Q and K with a weightless RMSNorm (qk_norm, MuseGlimmerRMSNorm(with_scale=False):
 * self._norm(hidden_states.float())), whose pow and product keep the fp32 copy, and gates its
 * output (attn_output * sigmoid(gate_proj(hidden_states)), then o_proj): sigmoid keeps its
 * output, the product keeps the attention output and that sigmoid, and o_proj's adapter the
 * product, a tensor of its own. A toy (hidden 256, 4 layers of 4 heads of 64, 2 KV heads), bf16,
 * LoRA on all linears, 128 tokens, transformers 5.17: the norms 4 B x (4 + 2) x 64 = 1,536 B a
 * token and layer, 786,432 B; the gate two more tensors of 4 x 64 at 2 B, 1,024 B a token and
 * layer, 524,288 B. Qwen3-Next's gate (the second half of q_proj) keeps the same, Step 3.7's
 * (g_proj, one a head) the sigmoid's 4 values and the product. */
static void test_attention_output_gate(void **state)
{
    (void)state;
    struct gs_model_spec m = spec(fixture_arch(
        "%s", "{\"model_type\":\"muse_glimmer\",\"text_config\":{\"hidden_size\":256,"
              "\"num_hidden_layers\":4,\"num_attention_heads\":4,\"num_key_value_heads\":2,"
              "\"head_dim\":64,\"intermediate_size\":512,\"sliding_window\":64,"
              "\"vocab_size\":1000}}"));
    struct gs_workload w = lora_446(128);
    w.training.framework.framework_version = 517;
    const struct gs_estimate with = estimate(&m, &w);
    size_t text_blocks = 0;
    for (size_t k = 0; k < m.arch.block_count; k++)
        if (m.arch.blocks[k].attn.cached) {
            assert_true(m.arch.blocks[k].attn.qk_norm_bare);
            assert_int_equal(m.arch.blocks[k].attn.output_gate, GS_GATE_SIGMOID);
            m.arch.blocks[k].attn.qk_norm_bare = false;
            text_blocks++;
        }
    assert_int_equal(text_blocks, 2); /* sliding and full */
    const struct gs_estimate ungated = estimate(&m, &w);
    assert_int_equal(with.saved_activation_bytes - ungated.saved_activation_bytes, 786432);
    for (size_t k = 0; k < m.arch.block_count; k++)
        m.arch.blocks[k].attn.output_gate = GS_GATE_NONE;
    assert_int_equal(ungated.saved_activation_bytes - estimate(&m, &w).saved_activation_bytes,
                     524288);

    /* Laguna's gate is softplus over an fp32 copy of g_proj's output, cast back
     * (modeling_laguna.py LagunaAttention.forward: F.softplus(self.g_proj(hidden_states).float())
     * .to(attn_output.dtype)): softplus keeps the fp32 copy, the product the 16-bit gate, o_proj's
     * adapter the product. A toy (hidden 256, 2 layers of 4 heads of 64, one dense, one MoE),
     * gated a channel: (4 + 2) x 256 + 2 x 256 = 2,048 B a token and layer, 524,288 B; gated a
     * head (its `gating` true): (4 + 2) x 4 + 2 x 256 = 536 B, 137,216 B. */
    const char *const gatings[] = {"\"per-channel\"", "true"};
    const uint64_t more[] = {524288, 137216};
    for (size_t i = 0; i < 2; i++) {
        struct gs_model_spec g = spec(
            fixture_arch("{\"model_type\":\"laguna\",\"hidden_size\":256,\"num_hidden_layers\":2,"
                         "\"num_attention_heads\":4,\"num_key_value_heads\":2,\"head_dim\":64,"
                         "\"intermediate_size\":512,\"vocab_size\":1000,\"num_experts\":4,"
                         "\"num_experts_per_tok\":2,\"moe_intermediate_size\":128,\"gating\":%s}",
                         gatings[i]));
        const struct gs_estimate gated = estimate(&g, &w);
        for (size_t k = 0; k < g.arch.block_count; k++) {
            assert_int_equal(g.arch.blocks[k].attn.output_gate, GS_GATE_SOFTPLUS_FP32);
            assert_int_equal(g.arch.blocks[k].attn.output_gate_per_head, i == 1);
            g.arch.blocks[k].attn.output_gate = GS_GATE_NONE;
        }
        assert_int_equal(gated.saved_activation_bytes - estimate(&g, &w).saved_activation_bytes,
                         more[i]);
    }
}

/* Inkling's attention adds a dense relative-position bias (modeling_inkling.py
 * InklingRelativeLogits: rel_logits.gather(-1, gather_index) keeps its int64 index, masked_fill
 * its boolean mask, a (q, k) matrix each, 9 bytes a pair) which transformers' SDPA takes as the
 * call's float mask (create_position_bias_mask), a (batch, heads, q, k) tensor at bf16 the
 * memory-efficient kernel keeps; and its four short convolutions run over fp32 copies of their
 * inputs (InklingShortConvolution: hidden_states.float()), 4 bytes an element where a 16-bit
 * tensor is 2. A toy (hidden 256, a sliding and a full layer of 4 heads of 64, 4 KV heads, so
 * nothing is repeated under the mask; window 64), bf16, LoRA on all linears, 32 tokens: the bias
 * 9 x 32^2 + 4 x 32^2 x 2 = 17,408 B a layer, 34,816; the convolutions 2 x (2 x 256 + 2 x 256) =
 * 2,048 B a token and layer, 131,072. */
static void test_position_bias_and_fp32_convs(void **state)
{
    (void)state;
    struct gs_model_spec m = spec(fixture_arch(
        "%s", "{\"model_type\":\"inkling_text\",\"hidden_size\":256,\"num_hidden_layers\":2,"
              "\"num_attention_heads\":4,\"num_key_value_heads\":4,\"head_dim\":64,"
              "\"swa_num_attention_heads\":4,\"swa_num_key_value_heads\":4,\"swa_head_dim\":64,"
              "\"sliding_window_size\":64,\"rel_extent\":64,\"layer_types\":[\"hybrid_sliding\","
              "\"hybrid\"],\"n_routed_experts\":4,\"num_experts_per_tok\":2,"
              "\"moe_intermediate_size\":128,\"n_shared_experts\":1,\"vocab_size\":1000}"));
    struct gs_workload w = lora_446(32);
    w.training.framework.framework_version = 517;
    const struct gs_estimate with = estimate(&m, &w);
    for (size_t k = 0; k < m.arch.block_count; k++) {
        assert_true(m.arch.blocks[k].attn.position_bias);
        m.arch.blocks[k].attn.position_bias = false;
    }
    const struct gs_estimate unbiased = estimate(&m, &w);
    assert_int_equal(with.saved_activation_bytes - unbiased.saved_activation_bytes, 34816);
    for (size_t k = 0; k < m.arch.block_count; k++)
        m.arch.blocks[k].rec.conv_fp32 = false;
    assert_int_equal(unbiased.saved_activation_bytes - estimate(&m, &w).saved_activation_bytes,
                     131072);
}

/* LFM2's short convolution has no scan to leave out (Lfm2ShortConv.forward: in_proj, B * x, the
 * depthwise causal conv, C * y, out_proj): what it keeps is its widths, B, C and x (3h, views the
 * products keep alive), the conv's input and output and out_proj's input (h each), so a training
 * estimate counts it whole and warns of nothing; sized as a recurrent mixer whose scan is not
 * counted it keeps the same bytes and warns. A toy (hidden 256, a conv and an attention layer),
 * LoRA, 64 tokens. */
static void test_short_conv_counted(void **state)
{
    (void)state;
    struct gs_model_spec m = spec(fixture_arch(
        "%s", "{\"model_type\":\"lfm2\",\"hidden_size\":256,\"num_hidden_layers\":2,"
              "\"num_attention_heads\":4,\"num_key_value_heads\":2,\"block_ff_dim\":768,"
              "\"layer_types\":[\"conv\",\"full_attention\"],\"vocab_size\":1000}"));
    struct gs_workload w = lora_446(64);
    w.training.framework.framework_version = 517;
    const struct gs_estimate counted = estimate(&m, &w);
    assert_false(has_warning(&counted, "recurrent_scan_not_counted"));
    m.arch.blocks[m.arch.layer_block[0]].rec.scan = GS_SCAN_PROJECTIONS;
    const struct gs_estimate unknown = estimate(&m, &w);
    assert_true(has_warning(&unknown, "recurrent_scan_not_counted"));
    assert_int_equal(unknown.saved_activation_bytes, counted.saved_activation_bytes);
}

/* The parameters and LoRA adapters of a model's KV-sharing layers change with the transformers
 * release: Gemma 4 built k_proj, v_proj and k_norm on every layer in 5.5.0 and 5.5.1 and, from
 * 5.5.2, only `if not self.is_kv_shared_layer` (modeling_gemma4.py Gemma4TextAttention.__init__,
 * PR #45336); Gemma 3n from 5.6.0 (modeling_gemma3n.py, PR #45489), before it on every layer as
 * its checkpoints store them. Toys of hidden 256 whose last layer shares the K and V of an
 * earlier layer of its kind, 2 KV heads: Gemma 3n's, sliding, of 64: its own k_proj and v_proj
 * are 256 x 128 each and k_norm 64, 65,600 parameters, and under LoRA r8 on all linears their
 * adapters 2 x 8 x (256 + 128) = 6,144; Gemma 4's, full (Gemma4TextConfig makes the last layer
 * full attention), of global_head_dim 128: 2 x 256 x 256 + 128 = 131,200 and
 * 2 x 8 x (256 + 256) = 8,192. */
static void test_shared_kv_weights_by_release(void **state)
{
    (void)state;
    const struct gs_model_spec gemma4 = toy_gemma4_shared();
    const struct gs_model_spec gemma3n = spec(fixture_arch(
        "%s", "{\"model_type\":\"gemma3n_text\",\"hidden_size\":256,\"num_hidden_layers\":4,"
              "\"num_attention_heads\":4,\"num_key_value_heads\":2,\"head_dim\":64,"
              "\"intermediate_size\":[512,512,512,512],\"sliding_window\":64,"
              "\"vocab_size\":1000,\"vocab_size_per_layer_input\":1000,"
              "\"hidden_size_per_layer_input\":16,\"altup_num_inputs\":4,\"laurel_rank\":8,"
              "\"num_kv_shared_layers\":1,\"layer_types\":[\"sliding_attention\","
              "\"full_attention\",\"sliding_attention\",\"sliding_attention\"]}"));
    struct gs_workload w = lora_446(128);
    w.training.lora_target_count = 0; /* all-linear */
    const struct {
        const struct gs_model_spec *m;
        uint32_t before,
            from; /* major*100 + minor, patch: the last release with them, the first without */
        uint32_t before_patch, from_patch;
        uint64_t parameters, adapters;
    } cases[] = {{&gemma4, 505, 505, 1, 2, 131200, 8192}, {&gemma3n, 505, 506, 4, 0, 65600, 6144}};
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        w.training.framework.framework_version = cases[i].before;
        w.training.framework.framework_patch = cases[i].before_patch;
        const struct gs_estimate own = estimate(cases[i].m, &w);
        w.training.framework.framework_version = cases[i].from;
        w.training.framework.framework_patch = cases[i].from_patch;
        const struct gs_estimate shared = estimate(cases[i].m, &w);
        assert_int_equal(own.parameters - shared.parameters, cases[i].parameters);
        assert_int_equal(own.trainable_parameters - shared.trainable_parameters, cases[i].adapters);
        /* each side says so where the description held the other (Gemma 4's reader follows
         * the latest release, Gemma 3n's the checkpoint) */
        assert_true((fixture_assumption(&own, "shared_kv_layers_with_kv_weights") != NULL) ==
                    (cases[i].m == &gemma4));
        assert_true((fixture_assumption(&shared, "shared_kv_layers_without_kv_weights") != NULL) ==
                    (cases[i].m == &gemma3n));
        /* the latest release (none named) shares them */
        w.training.framework.framework_version = 0;
        w.training.framework.framework_patch = 0;
        assert_int_equal(estimate(cases[i].m, &w).parameters, shared.parameters);
    }
}

/* A toy Mixtral: hidden 1,024, 2 layers, 8 heads, 8 experts of 256, vocabulary 1,000. */
static struct gs_model_spec toy_mixtral(void)
{
    return spec(fixture_arch(
        "{\"model_type\":\"mixtral\",\"hidden_size\":1024,\"num_hidden_layers\":2,"
        "\"num_attention_heads\":8,\"num_key_value_heads\":8,\"intermediate_size\":256,"
        "\"num_local_experts\":8,\"num_experts_per_tok\":2,\"vocab_size\":1000,"
        "\"tie_word_embeddings\":false}"));
}

/* Mixtral's experts (and PhiMoE's, MiniMax-M2's) name their projections w1, w3 and w2
 * (transformers 4.x MixtralBlockSparseTop2MLP: w2(act_fn(w1(x)) * w3(x))), so PEFT adapts them
 * under those targets and finds no gate_proj. A toy Mixtral (hidden 1,024, 2 layers, 8 experts
 * of 256) with LoRA r8 on q_proj, w1, w3 and w2 on transformers 4.46: the experts' adapters are
 * 8 x (1,024 + 256) per projection, 3 a expert, 8 experts, 2 layers: 491,520. gate_proj is a 400
 * whose message lists the experts' names beside the router's `gate` (not hidden by gate_proj's
 * name); on 5.x, where the experts are fused 3D parameters, w1 is a 400 that says so and that
 * PEFT 0.19 and later adapt them there (_convert_peft_config_moe), which is not sized. */
static void test_expert_projection_names(void **state)
{
    (void)state;
    const struct gs_model_spec m = toy_mixtral();
    struct gs_workload w = lora_446(128);
    w.training.lora_target_count = 4;
    strcpy(w.training.lora_targets[0], "q_proj");
    strcpy(w.training.lora_targets[1], "w1");
    strcpy(w.training.lora_targets[2], "w3");
    strcpy(w.training.lora_targets[3], "w2");
    const struct gs_estimate experts = estimate(&m, &w);
    const struct gs_assumption *a = fixture_assumption(&experts, "expert_adapter_parameters");
    assert_non_null(a);
    assert_int_equal(a->value, 491520);
    strcpy(w.training.lora_targets[1], "gate_proj");
    struct gs_error_item why = refusal(&m, &w);
    assert_string_equal(why.pointer, "/training/lora/targets");
    assert_non_null(strstr(why.detail, "o_proj, gate, w1, w3, w2, lm_head"));
    strcpy(w.training.lora_targets[1], "w1");
    w.training.framework.framework_version = 517;
    w.training.peft_version = 18;
    why = refusal(&m, &w);
    assert_non_null(strstr(why.detail, "\"w1\" names the routed experts"));
    assert_non_null(strstr(why.detail, "PEFT 0.19 and later"));
    /* PEFT 0.19 and later convert Mixtral's names too: w1 and w3 to gate_up_proj, w2 to
     * down_proj, as the Qwen MoEs' (the experts' 557,056 of test_routed_expert_adapters) */
    w.training.peft_version = 19;
    const struct gs_estimate wrapped = estimate(&m, &w);
    assert_int_equal(fixture_assumption(&wrapped, "peft_expert_adapter_parameters")->value, 557056);
    w.training.lora_target_count = 2; /* w1 without w3: PEFT cannot convert it */
    assert_string_equal(refusal(&m, &w).pointer, "/training/lora/targets");
}

/* GLM-4.5's router is a Glm4MoeTopkRouter (as GPT-OSS's GptOssTopKRouter and DeepSeek-V3's
 * DeepseekV3TopkRouter) in every transformers release: an nn.Module holding self.weight, F.linear
 * on it, no nn.Linear PEFT can wrap. A toy GLM-4.5 (hidden 1,024, 2 routed layers, 8 heads of 128,
 * 8 experts of 256 and one shared) on transformers 4.46, LoRA r8 on all linears: q, k, v and o
 * 4 x 8 x (1,024 + 1,024) = 65,536 a layer, the routed experts' gate, up and down 8 x 3 x 8 x
 * (1,024 + 256) = 245,760, the shared expert's 3 x 8 x (1,024 + 256) = 30,720, no router: 342,016
 * a layer, 684,032 in all. `gate` names no linear of the model (a 400, as PEFT's "Target module
 * Glm4MoeTopkRouter() is not supported"). */
static void test_bare_router(void **state)
{
    (void)state;
    const struct gs_model_spec m = spec(fixture_arch(
        "{\"model_type\":\"glm4_moe\",\"hidden_size\":1024,\"num_hidden_layers\":2,"
        "\"num_attention_heads\":8,\"num_key_value_heads\":8,\"head_dim\":128,"
        "\"intermediate_size\":4096,\"moe_intermediate_size\":256,\"n_routed_experts\":8,"
        "\"num_experts_per_tok\":2,\"n_shared_experts\":1,\"first_k_dense_replace\":0,"
        "\"vocab_size\":1000,\"tie_word_embeddings\":false}"));
    struct gs_workload w = lora_446(128);
    const struct gs_estimate all = estimate(&m, &w);
    assert_int_equal(all.trainable_parameters, 684032);
    w.training.lora_target_count = 1;
    strcpy(w.training.lora_targets[0], "gate");
    assert_string_equal(refusal(&m, &w).pointer, "/training/lora/targets");
}

/* Nemotron-H's router is a NemotronHTopkRouter in transformers' code (a DeepseekV3TopkRouter)
 * and in the checkpoints' remote code alike: a bare weight, scored in fp32, that no LoRA target
 * adapts; its latent MoE's fc1_latent_proj and fc2_latent_proj, also of the experts' block, are
 * nn.Linear modules PEFT adapts. A toy Nemotron-H (hidden 256, an attention layer of 4 heads of
 * 64 and a MoE layer of 8 experts of 128 over a latent of 64, a shared expert of 128), LoRA r8 on
 * all linears: q, k, v and o 4 x 8 x (256 + 256) = 16,384; fc1_latent_proj 8 x (256 + 64) and
 * fc2_latent_proj 8 x (64 + 256), 5,120; the shared expert's up and down 2 x 8 x (256 + 128) =
 * 6,144; no router: 27,648 on 5.17, where the experts are fused 3D parameters, and on 4.46 their
 * nn.Linear up and down projections 8 experts x 2 x 8 x (64 + 128) = 24,576 more: 52,224.
 * `gate` is a 400 on either; fc1_latent_proj alone 2,560. */
static void test_latent_moe_router(void **state)
{
    (void)state;
    const struct gs_model_spec m = spec(fixture_arch(
        "{\"model_type\":\"nemotron_h\",\"hidden_size\":256,\"hybrid_override_pattern\":\"*E\","
        "\"num_attention_heads\":4,\"num_key_value_heads\":4,\"head_dim\":64,"
        "\"n_routed_experts\":8,\"num_experts_per_tok\":2,\"moe_intermediate_size\":128,"
        "\"moe_shared_expert_intermediate_size\":128,\"moe_latent_size\":64,"
        "\"vocab_size\":1000,\"tie_word_embeddings\":false}"));
    struct gs_workload w = lora_446(128);
    assert_int_equal(estimate(&m, &w).trainable_parameters, 52224);
    w.training.framework.framework_version = 517;
    assert_int_equal(estimate(&m, &w).trainable_parameters, 27648);
    w.training.lora_target_count = 1;
    strcpy(w.training.lora_targets[0], "fc1_latent_proj");
    assert_int_equal(estimate(&m, &w).trainable_parameters, 2560);
    strcpy(w.training.lora_targets[0], "gate");
    assert_string_equal(refusal(&m, &w).pointer, "/training/lora/targets");
    w.training.framework.framework_version = 446;
    assert_string_equal(refusal(&m, &w).pointer, "/training/lora/targets");
}

/* transformers 5.0 made Mixtral's router a MixtralTopKRouter (`self.weight =
 * nn.Parameter(...)`, F.linear on it; 4.x: `self.gate = nn.Linear(hidden, experts)`), as it did
 * the Qwen MoEs', OLMoE's, MiniMax's and Ernie 4.5's; PEFT wraps no such module. The toy Mixtral
 * of test_expert_projection_names (hidden 1,024, 2 layers, 8 heads, 8 experts of 256), LoRA r8 on
 * all linears:
 * - 4.46: q, k, v and o 4 x 8 x (1,024 + 1,024) = 65,536 a layer, the router 8 x (1,024 + 8) =
 *   8,256, the experts' w1, w3 and w2 3 x 8 x 8 x (1,024 + 256) = 245,760: 639,104 in 2 layers;
 * - 5.0 and the latest, under PEFT before 0.19 (peft_version 0.18): the experts are fused 3D
 *   parameters and the router a TopKRouter, so q, k, v and o alone: 131,072; `gate` names
 *   nothing there (a 400), and 16,512 on 4.46.
 * DeepSeek-V2's router went the other way and back: a DeepseekV2MoEGate (bare) in 4.x, `self.gate
 * = nn.Linear(...)` from 5.0, DeepseekV2TopkRouter (bare) from 5.13. A toy DeepSeek-V2 (hidden
 * 64, 2 MoE layers of 4 experts): 5.12 counts the router's 8 x (64 + 4) = 544 a layer, 1,088
 * more than 5.13 and than 4.46's run without its experts' adapters. */
static void test_router_topk_releases(void **state)
{
    (void)state;
    const struct gs_model_spec m = toy_mixtral();
    struct gs_workload w = lora_446(128);
    assert_int_equal(estimate(&m, &w).trainable_parameters, 639104);
    w.training.peft_version = 18; /* the modules alone: PEFT before its MoE conversion */
    static const uint32_t fives[] = {500, 0};
    for (size_t i = 0; i < 2; i++) {
        w.training.framework.framework_version = fives[i];
        assert_int_equal(estimate(&m, &w).trainable_parameters, 131072);
    }
    w.training.lora_target_count = 1;
    strcpy(w.training.lora_targets[0], "gate");
    assert_string_equal(refusal(&m, &w).pointer, "/training/lora/targets");
    w.training.framework.framework_version = 446;
    assert_int_equal(estimate(&m, &w).trainable_parameters, 16512);

    const struct gs_model_spec v2 = spec(
        fixture_arch("{\"model_type\":\"deepseek_v2\",\"hidden_size\":64,\"num_hidden_layers\":2,"
                     "\"num_attention_heads\":4,\"num_key_value_heads\":4,\"kv_lora_rank\":32,"
                     "\"q_lora_rank\":null,\"qk_nope_head_dim\":16,\"qk_rope_head_dim\":8,"
                     "\"v_head_dim\":16,\"intermediate_size\":128,\"moe_intermediate_size\":32,"
                     "\"n_routed_experts\":4,\"num_experts_per_tok\":2,\"n_shared_experts\":1,"
                     "\"first_k_dense_replace\":0,\"moe_layer_freq\":1,\"vocab_size\":1000,"
                     "\"tie_word_embeddings\":false}"));
    w.training.lora_target_count = 0;
    w.training.framework.framework_version = 512;
    const uint64_t linear = estimate(&v2, &w).trainable_parameters;
    w.training.framework.framework_version = 513;
    const uint64_t topk = estimate(&v2, &w).trainable_parameters;
    assert_int_equal(linear - topk, 1088);
    w.training.framework.framework_version = 446;
    const struct gs_estimate gated = estimate(&v2, &w);
    const struct gs_assumption *a = fixture_assumption(&gated, "expert_adapter_parameters");
    assert_non_null(a);
    assert_int_equal(gated.trainable_parameters - a->value, topk);
}

/* LoRA r8 on all linears under transformers 5.17, bf16, one image a sample of `seq` tokens,
 * checkpointed. */
static struct gs_workload image_lora(uint64_t seq)
{
    struct gs_workload w = lora_446(seq);
    w.training.framework.framework_version = 517;
    w.training.images_per_sample = 1;
    w.training.recompute = GS_RECOMPUTE_FULL;
    w.training.recompute_given = true;
    return w;
}

/* Gemma 4's images: Gemma4ImageProcessor pads every image's patches to max_soft_tokens x
 * pooling_kernel_size^2 (pad_along_first_dim, positions -1), one batch row an image, which the
 * tower masks where the image leaves padding; its pooler keeps fp32 one-hot weights (patches x
 * soft tokens a row); with use_clipped_linears every Gemma4ClippableLinear clamps its input and
 * output (torch.clamp with tensor bounds keeps its input). A toy Gemma 4 (vision tower 2 layers
 * of 64, 2 heads of 32, MLP 128, patch 4, pooling 3; 16 soft tokens an image: rows of 144
 * patches of 3 x 4 x 4 = 48 values), bf16, LoRA on all linears, one image a sample:
 * - checkpointed: the fp32 pixels 144 x 48 x 4 = 27,648, the pooler's weights 144 x 16 x 4 =
 *   9,216, and each layer's checkpoint 144 x 64 x 2 = 18,432, twice: 73,728 B;
 * - an image of 20 tokens takes the next budget, 32 (the processor's 560 over the config's
 *   280): rows of 288 patches, 55,296 + 36,864 + 73,728 = 165,888 B; more than 64 (1,120 over
 *   280) is a 400;
 * - the clamps, without checkpointing: per patch and layer each clamped linear's input and
 *   output at 2 bytes, q, k, v and o 4 x (64 + 64), gate and up 2 x (64 + 128), down 128 + 64:
 *   1,088 x 2 = 2,176 B, x 144 patches x 2 layers = 626,688 B against the tower unclamped;
 * - an image of 10 tokens leaves its row part padding, masked: more than the full image;
 * - a full fine-tune on transformers 5.10.0 reads the position table (64 positions an axis)
 *   through a one-hot matmul, which keeps the bf16 one-hot for the table's gradient: 144 x 2 x
 *   64 x 2 = 36,864 B more than on 5.10.1 (F.embedding, PR #46176). */
static void test_gemma4_vision_rows(void **state)
{
    (void)state;
    struct gs_model_spec m = spec(fixture_arch(
        "%s", "{\"model_type\":\"gemma4\",\"text_config\":{\"hidden_size\":128,"
              "\"num_hidden_layers\":2,\"num_attention_heads\":2,\"num_key_value_heads\":1,"
              "\"head_dim\":64,\"global_head_dim\":64,\"intermediate_size\":256,"
              "\"sliding_window\":64,\"num_kv_shared_layers\":0,\"hidden_size_per_layer_input\":0,"
              "\"layer_types\":[\"sliding_attention\",\"full_attention\"],\"vocab_size\":1000},"
              "\"vision_config\":{\"hidden_size\":64,\"intermediate_size\":128,"
              "\"num_hidden_layers\":2,\"num_attention_heads\":2,\"num_key_value_heads\":2,"
              "\"head_dim\":32,\"patch_size\":4,\"pooling_kernel_size\":3,"
              "\"position_embedding_size\":64,\"use_clipped_linears\":true},"
              "\"vision_soft_tokens_per_image\":16,\"audio_config\":null}"));
    assert_true(gs_activation_vision_counted(&m.arch));
    struct gs_workload w = image_lora(128);
    assert_int_equal(estimate(&m, &w).vision_bytes, 73728);
    w.training.image_tokens = 20;
    assert_int_equal(estimate(&m, &w).vision_bytes, 165888);
    w.training.image_tokens = 65;
    assert_string_equal(refusal(&m, &w).pointer, "/training/image_tokens");
    w.training.image_tokens = 0;
    w.training.recompute = GS_RECOMPUTE_NONE;
    const struct gs_estimate clamped = estimate(&m, &w);
    w.training.image_tokens = 10;
    assert_true(estimate(&m, &w).vision_bytes > clamped.vision_bytes);
    w.training.image_tokens = 0;
    size_t tower = GS_BLOCKS_MAX;
    for (size_t i = 0; i < m.arch.tower_count; i++)
        if (m.arch.towers[i].part == GS_PART_VISION)
            tower = m.arch.towers[i].block;
    assert_true(tower < m.arch.block_count && m.arch.blocks[tower].clamped_linears);
    m.arch.blocks[tower].clamped_linears = false;
    assert_int_equal(clamped.vision_bytes - estimate(&m, &w).vision_bytes, 626688);
    w.training.method = GS_METHOD_FULL;
    const uint64_t latest = estimate(&m, &w).vision_bytes; /* 5.17 */
    w.training.framework.framework_version = 510;
    w.training.framework.framework_patch = 1;
    assert_int_equal(estimate(&m, &w).vision_bytes, latest);
    w.training.framework.framework_patch = 0;
    assert_int_equal(estimate(&m, &w).vision_bytes - latest, 36864);
}

/* Llama 4's images: Llama4ImageProcessorFast cuts an image into tiles of image_size and, past
 * one tile, adds the global tile (vLLM's dummy image: 16 tiles and the global one), each tile
 * (image_size / patch_size)^2 x pixel_shuffle_ratio^2 tokens; Llama4VisionModel runs each tile as
 * a sequence of its patches (Llama4UnfoldConvolution) and the class embedding after them
 * (torch.cat([hidden_state, class_embedding], dim=1)). A toy Llama 4 (vision tower 2 layers of
 * 64, 2 heads, image_size 28, patch 7: 16 patches a tile, 4 tokens at ratio 0.5; 3 x 28 x 28 =
 * 2,352 pixel values a tile), bf16, LoRA on all linears, checkpointed, one image a sample:
 * - the largest, 17 tiles (68 tokens): the pixels, bf16 as the uncast patch embedding takes them
 *   (Llama4UnfoldConvolution's nn.Linear), 17 x 2,352 x 2 = 79,968, and each layer's checkpoint,
 *   17 tiles x 17 positions x 64 x 2 = 36,992, twice: 153,952 B;
 * - 3 tiles (12 tokens): 14,112 + 2 x 3 x 17 x 64 x 2 = 27,168 B;
 * - 10 tokens, not whole tiles, is a 400. */
static void test_llama4_vision_tiles(void **state)
{
    (void)state;
    const struct gs_model_spec m = spec(fixture_arch(
        "%s", "{\"model_type\":\"llama4\",\"text_config\":{\"hidden_size\":128,"
              "\"num_hidden_layers\":2,\"num_attention_heads\":2,\"num_key_value_heads\":1,"
              "\"head_dim\":64,\"intermediate_size\":128,\"intermediate_size_mlp\":256,"
              "\"num_local_experts\":2,\"num_experts_per_tok\":1,\"vocab_size\":1000},"
              "\"vision_config\":{\"hidden_size\":64,\"intermediate_size\":256,"
              "\"num_hidden_layers\":2,\"num_attention_heads\":2,\"num_channels\":3,"
              "\"image_size\":28,\"patch_size\":7,\"pixel_shuffle_ratio\":0.5,"
              "\"projector_input_dim\":64,\"projector_output_dim\":64,"
              "\"vision_output_dim\":64}}"));
    assert_true(gs_activation_vision_counted(&m.arch));
    assert_int_equal(m.arch.mm_image.tokens, 68);
    struct gs_workload w = image_lora(256);
    assert_int_equal(estimate(&m, &w).vision_bytes, 153952);
    w.training.image_tokens = 12;
    assert_int_equal(estimate(&m, &w).vision_bytes, 27168);
    w.training.image_tokens = 10;
    assert_string_equal(refusal(&m, &w).pointer, "/training/image_tokens");
}

/* A toy Mllama: 3 text layers of 256, the middle one cross-attention; a vision encoder of
 * `local` + 1 global layers of 64, 4 tiles of 28 x 28 in patches of 14. */
static struct gs_model_spec toy_mllama(unsigned local)
{
    return spec(fixture_arch(
        "{\"model_type\":\"mllama\",\"text_config\":{\"hidden_size\":256,"
        "\"num_hidden_layers\":3,\"num_attention_heads\":4,\"num_key_value_heads\":2,"
        "\"intermediate_size\":512,\"vocab_size\":1000,\"cross_attention_layers\":[1]},"
        "\"vision_config\":{\"hidden_size\":64,\"num_hidden_layers\":%u,"
        "\"num_global_layers\":1,\"attention_heads\":2,\"intermediate_size\":128,"
        "\"image_size\":28,\"patch_size\":14,\"max_num_tiles\":4,"
        "\"vision_output_dim\":128}}",
        local));
}

/* Llama 3.2 Vision on text alone: MllamaModel.forward runs the vision model only `if
 * pixel_values is not None`, and MllamaTextModel.forward `continue`s past each cross-attention
 * layer when cross_attention_states is None, so a text-only sample runs the self-attention
 * layers alone: the toy Mllama keeps what the same two Llama layers keep.
 * With an image (one <|image|> token in the text), MllamaImageProcessor pads it to its 4 tiles
 * and MllamaVisionModel runs them as one sequence: each tile 4 patches, the class embedding and
 * 3 zeros to a multiple of 8, 32 positions, under one (32 x 32) additive bf16 mask, which SDPA's
 * memory-efficient kernel keeps, 2,048 B, through encoder layers no checkpointing reaches
 * (MllamaVisionEncoderLayer is an nn.Module). Beside the fp32 pixels, 4 x 3 x 28 x 28 x 4 =
 * 37,632 B, every encoder layer keeps what one more local layer adds; all-linear adapts the
 * projector, whose lora_A keeps its input (bf16 adapters in a pure bf16 run read it as it is),
 * the vision model's 128-wide output over the 4 x 5 positions the cross-attention reads, 20 x
 * 128 x 2 = 5,120 B, and the cross layer's k_proj and v_proj, whose adapters keep the projected
 * states they read, 20 x 256 x 2 = 10,240 B: the image's bytes less 3 such layers are 55,040.
 * Checkpointing the decoder's layers keeps the encoders' bytes and adds the cross-attention mask
 * each checkpointed cross-attention layer holds as its input, 128 x 20 x 2 = 5,120 B (SDPA's
 * kernel keeps only its copy padded to 24 keys, counted in the layer). A frozen tower and
 * projector keep the pixels alone, beside the projected states the cross layer's adapters read. */
static void test_mllama_text_and_images(void **state)
{
    (void)state;
    const struct gs_model_spec mllama = toy_mllama(2);
    const struct gs_model_spec llama = spec(fixture_arch(
        "%s", "{\"model_type\":\"llama\",\"hidden_size\":256,\"num_hidden_layers\":2,"
              "\"num_attention_heads\":4,\"num_key_value_heads\":2,\"intermediate_size\":512,"
              "\"vocab_size\":1000,\"tie_word_embeddings\":false}"));
    struct gs_workload w = lora_446(128);
    w.training.framework.framework_version = 517;
    const struct gs_estimate text = estimate(&mllama, &w);
    assert_int_equal(text.saved_activation_bytes, estimate(&llama, &w).saved_activation_bytes);
    w.training.images_per_sample = 1;
    const struct gs_estimate image = estimate(&mllama, &w);
    assert_true(image.saved_activation_bytes > text.saved_activation_bytes);
    assert_false(has_warning(&image, "vision_activations_not_estimated"));
    const struct gs_model_spec deeper = toy_mllama(3);
    const uint64_t layer = estimate(&deeper, &w).vision_bytes - image.vision_bytes;
    assert_true(layer > 0);
    assert_int_equal(image.vision_bytes - 3 * layer, 37632 + 2048 + 5120 + 10240);
    w.training.recompute = GS_RECOMPUTE_FULL;
    w.training.recompute_given = true;
    assert_int_equal(estimate(&mllama, &w).vision_bytes, image.vision_bytes + 5120);
    w.training.recompute = GS_RECOMPUTE_NONE;
    w.training.freeze_vision_tower = true;
    assert_int_equal(estimate(&mllama, &w).vision_bytes, 37632 + 10240);
}

/* Llama 3.2 Vision's cross-attention layers over the images (modeling_mllama.py): MllamaModel
 * projects the vision model's output to the text's width, (batch, images x tiles x 1,601,
 * hidden), which each MllamaTextCrossAttention's k_proj and v_proj read; k_norm normalizes the
 * keys; the cross-attention mask, (batch, 1, text, images x tiles x 1,601) in the model's dtype,
 * sends transformers' SDPA down its masked path (repeat_kv: K and V repeated to every head, the
 * memory-efficient kernel, which keeps them and the mask, padded per call to 8-element rows).
 * The toy Mllama (text 256 wide, 4 heads and 2 KV heads of 64; a tile 2 x 2 patches and the
 * class embedding: 4 x 5 = 20 positions an image), bf16, 128 tokens, LoRA on q_proj and v_proj
 * with the tower and projector frozen, no checkpointing. An image's bytes in the cross layer:
 * K and V at 4 heads, 2 x 4 x 64 x 2 x 20 = 20,480, and the mask's copy padded from 20 to 24
 * keys, 128 x 24 x 2 = 6,144; once beside the tower: the fp32 pixels 37,632 and the projected
 * states v_proj's adapter reads, 20 x 256 x 2 = 10,240. Two images: 40 keys, 8-aligned, so the
 * kernels keep the one mask, 128 x 40 x 2 = 10,240, and no copy:
 *   (2 x 20,480) - 26,624 + 2 x 47,872 + 10,240 - 47,872 = 72,448 B more than one image.
 * - an adapter on the cross layer's k_proj gives the keys a gradient: k_norm (eager RMSNorm)
 *   keeps its fp32 input, 4 x 2 x 64 x 20 = 10,240 B;
 * - eager attention keeps each layer's scores over the images' keys: the fp32 softmax and its
 *   bf16 cast, 6 x 4 heads x 128 x 20 = 61,440 B an image, and no mask: two images keep
 *   2 x 20,480 + 2 x 61,440 - 81,920 + 47,872 = 129,792 B more than one;
 * - a full fine-tune trains the tanh gates (cross_attn_attn_gate, cross_attn_mlp_gate, and the
 *   global vision layer's gate_attn and gate_ffn), whose products keep the branches' outputs:
 *   2 x 128 x 256 x 2 = 131,072 in the cross layer and 2 x 32 x 64 x 2 = 8,192 in the global
 *   layer (32 positions an image: 4 tiles of 5, padded to 8). */
static void test_mllama_cross_attention_images(void **state)
{
    (void)state;
    const struct gs_model_spec m = toy_mllama(2);
    struct gs_workload w = lora_446(128);
    w.training.framework.framework_version = 517;
    fixture_lora_qv(&w.training, 8);
    w.training.freeze_vision_tower = true;
    w.training.images_per_sample = 1;
    const struct gs_estimate one = estimate(&m, &w);
    assert_int_equal(one.vision_bytes, 37632 + 10240);
    w.training.images_per_sample = 2;
    const struct gs_estimate two = estimate(&m, &w);
    assert_int_equal(two.vision_bytes, 2 * (37632 + 10240) + 10240);
    assert_int_equal(two.saved_activation_bytes - one.saved_activation_bytes, 72448);

    w.training.images_per_sample = 1;
    w.training.lora_target_count = 3;
    strcpy(w.training.lora_targets[2], "cross_attn.k_proj");
    assert_int_equal(estimate(&m, &w).saved_activation_bytes - one.saved_activation_bytes, 10240);
    w.training.lora_target_count = 2;

    w.training.attn_impl = GS_ATTN_EAGER;
    w.training.attn_impl_given = true;
    w.training.flash_attention = false;
    const struct gs_estimate eager_one = estimate(&m, &w);
    w.training.images_per_sample = 2;
    assert_int_equal(estimate(&m, &w).saved_activation_bytes - eager_one.saved_activation_bytes,
                     129792);

    struct gs_model_spec ungated = toy_mllama(2);
    for (size_t k = 0; k < ungated.arch.block_count; k++)
        ungated.arch.blocks[k].gated_branches = 0;
    w = lora_446(128);
    w.training.framework.framework_version = 517;
    w.training.method = GS_METHOD_FULL;
    w.training.images_per_sample = 1;
    assert_int_equal(estimate(&m, &w).saved_activation_bytes -
                         estimate(&ungated, &w).saved_activation_bytes,
                     131072 + 8192);

    /* the cross layer's backward makes dK and dV at the shape SDPA took them, 512 x 2 = 1,024 B
     * a position, beside K and V it keeps, as many: from 16 images (320 positions, 327,680 B of
     * gradients, more than the MLP's pair, 2 x 2 x 128 x 512 = 262,144) to 18 (360; both
     * 8-aligned, no mask copy) the largest layer's working set grows by 40 x 2 x 1,024 = 81,920 B
     * (40,960 without the gradients) */
    fixture_lora_qv(&w.training, 8);
    w.training.freeze_vision_tower = true;
    struct gs_parallelism par;
    struct gs_framework_rules rules = sdpa_rules(GS_FW_TRANSFORMERS, 517, &par);
    rules.adapters_fp32 = false; /* bf16 adapters, as a pure bf16 run keeps them */
    struct gs_activation_input in = adapter_input(&m.arch, 128, &par, &rules, &w.training);
    in.vision_images = 16;
    struct gs_activation_result sixteen, eighteen;
    assert_true(gs_activation_bytes(&in, &sixteen));
    in.vision_images = 18;
    assert_true(gs_activation_bytes(&in, &eighteen));
    assert_int_equal(eighteen.layer_working_bytes - sixteen.layer_working_bytes, 81920);
}

/* A Qwen2.5-VL sample's images run through the vision tower, each a sequence of its own
 * (cu_seqlens). A toy Qwen2.5-VL (text 512 wide, 2 layers; vision depth 2, 256 wide, patch 14,
 * merge 2, temporal 2: a token is 4 patches of 3 x 2 x 14 x 14 = 1,176 pixel values) in bf16,
 * 2,048 tokens of which 2 images of 256 tokens (1,024 patches each), gradient checkpointing:
 * - the pixel values, fp32 as the processor makes them: 2 x 1,024 x 1,176 x 4 = 9,633,792;
 * - LoRA on all linears adapts the tower's too (attn.qkv, attn.proj, mlp.*_proj), so each of its
 *   2 checkpointed layers keeps its bf16 input, 2,048 patches x 256 x 2: 2,097,152; 11,730,944;
 * - a full fine-tune adds the patch embedding's input, the pixels cast to bf16 (2 B each):
 *   4,816,896 more, 16,547,840;
 * - LoRA on q_proj and v_proj leaves the tower frozen: it runs without a graph, the pixels
 *   alone, 9,633,792; so does freeze_vision_tower, under LoRA (no adapter in the tower) and in a
 *   full fine-tune (no gradient, master copy or AdamW state for the tower's weights).
 * image_tokens without images, images on a text model and images longer than the sequence are
 * 400s. */
static void test_vision_tower_images(void **state)
{
    (void)state;
    const struct gs_model_spec m = spec(fixture_arch(
        "{\"model_type\":\"qwen2_5_vl\",\"hidden_size\":512,\"intermediate_size\":1024,"
        "\"num_hidden_layers\":2,\"num_attention_heads\":4,\"num_key_value_heads\":2,"
        "\"vocab_size\":1000,\"tie_word_embeddings\":true,\"rope_scaling\":{\"type\":"
        "\"mrope\",\"mrope_section\":[16,24,24]},\"vision_config\":{\"depth\":2,"
        "\"hidden_size\":256,\"intermediate_size\":512,\"num_heads\":4,\"in_chans\":3,"
        "\"out_hidden_size\":512,\"patch_size\":14,\"spatial_merge_size\":2,"
        "\"temporal_patch_size\":2}}"));
    assert_true(gs_activation_vision_counted(&m.arch));
    struct gs_workload w = run(GS_FW_TRANSFORMERS, GS_DTYPE_BF16, 1, 2048);
    w.training.regime = GS_REGIME_BF16_PURE;
    w.training.recompute = GS_RECOMPUTE_FULL;
    w.training.recompute_given = true;
    const struct gs_estimate text = estimate(&m, &w);
    assert_int_equal(text.vision_bytes, 0);
    w.training.images_per_sample = 2;
    w.training.image_tokens = 256;
    const struct gs_estimate full = estimate(&m, &w);
    assert_int_equal(full.vision_bytes, 16547840);
    assert_int_equal(full.image_tokens, 256);
    const struct gs_assumption *a = fixture_assumption(&full, "vision_activation_bytes");
    assert_non_null(a);
    assert_int_equal(a->value, 16547840);
    assert_int_equal(full.saved_activation_bytes - text.saved_activation_bytes, 16547840);
    w.training.method = GS_METHOD_LORA;
    w.training.method_given = true;
    w.training.lora_rank = 8;
    const struct gs_estimate adapted = estimate(&m, &w);
    assert_int_equal(adapted.vision_bytes, 11730944);
    w.training.lora_target_count = 2;
    strcpy(w.training.lora_targets[0], "q_proj");
    strcpy(w.training.lora_targets[1], "v_proj");
    const struct gs_estimate frozen = estimate(&m, &w);
    assert_int_equal(frozen.vision_bytes, 9633792);
    /* freeze_vision_tower: LoRA puts no adapter in the tower, whose r8 adapters on attn.qkv
     * (256 -> 768), attn.proj (256 -> 256), mlp.gate_proj and mlp.up_proj (256 -> 512) and
     * mlp.down_proj (512 -> 256) are 8 x (1,024 + 512 + 768 + 768 + 768) = 30,720 a layer,
     * 61,440 for both, and the merger's (all-linear adapts its nn.Linear mlp.0, 1,024 -> 1,024,
     * and mlp.2, 1,024 -> 512) 8 x (2,048 + 1,536) = 28,672, which the frozen projector drops
     * too; the tower records nothing, the pixels alone stay */
    w.training.lora_target_count = 0;
    w.training.freeze_vision_tower = true;
    const struct gs_estimate lora_frozen = estimate(&m, &w);
    assert_int_equal(adapted.trainable_parameters - lora_frozen.trainable_parameters,
                     61440 + 28672);
    assert_int_equal(lora_frozen.vision_bytes, 9633792);
    /* a full fine-tune with the tower frozen: its weights keep their bf16 copy, without a
     * gradient (2 B) or AdamW's two bf16 moments (4 B) */
    w.training.method = GS_METHOD_FULL;
    const struct gs_estimate full_frozen = estimate(&m, &w);
    const uint64_t v = full.params.vision;
    assert_true(v > 0);
    assert_int_equal(full.trainable_parameters - full_frozen.trainable_parameters, v);
    a = fixture_assumption(&full_frozen, "frozen_vision_parameters");
    assert_non_null(a);
    assert_int_equal(a->value, v);
    assert_int_equal(full_frozen.per_gpu.weights_bytes, full.per_gpu.weights_bytes);
    const enum gs_peak_phase step = GS_PHASE_OPTIMIZER_STEP;
    assert_int_equal(full.peak.moments[step].gradients - full_frozen.peak.moments[step].gradients,
                     2 * v);
    assert_int_equal(full.per_gpu.optimizer_bytes - full_frozen.per_gpu.optimizer_bytes, 4 * v);
    assert_int_equal(full_frozen.vision_bytes, 9633792);
    w.training.freeze_vision_tower = false;
    /* fp32 weights: under autocast the checkpoints are the fp32 residual stream (2 x 2,048 x 256 x
     * 4 = 4,194,304) and conv3d, on autocast's lower-precision list, keeps a bf16 copy of the
     * pixels (4,816,896): 18,644,992; an fp32 run keeps the pixels themselves: 13,828,096 */
    w.weights = GS_DTYPE_FP32;
    w.training.regime = GS_REGIME_AMP;
    assert_int_equal(estimate(&m, &w).vision_bytes, 18644992);
    w.training.regime = GS_REGIME_FP32;
    assert_int_equal(estimate(&m, &w).vision_bytes, 13828096);
    w.weights = GS_DTYPE_BF16;
    w.training.regime = GS_REGIME_BF16_PURE;
    w.training.method = GS_METHOD_LORA;
    w.training.lora_target_count = 2;
    /* the processor's largest image (max_pixels 12,845,056: 16,384 tokens) is the default */
    w.training.image_tokens = 0;
    w.training.images_per_sample = 1;
    w.training.sequence_length = 16384;
    const struct gs_estimate largest = estimate(&m, &w);
    assert_int_equal(largest.image_tokens, 16384);
    w.training.sequence_length = 16383;
    assert_string_equal(refusal(&m, &w).pointer, "/training/images_per_sample");
    w.training.images_per_sample = 0;
    w.training.image_tokens = 64;
    assert_string_equal(refusal(&m, &w).pointer, "/training/image_tokens");
    const struct gs_model_spec llama = spec(fixture_llama(512, 2, 4, 4, 1024, 1000, false));
    w.training.images_per_sample = 1;
    w.training.lora_target_count = 0;
    assert_string_equal(refusal(&llama, &w).pointer, "/training/images_per_sample");
    w.training.images_per_sample = 0;
    w.training.image_tokens = 0;
    w.training.freeze_vision_tower = true;
    assert_string_equal(refusal(&llama, &w).pointer, "/training/freeze_vision_tower");
}

/* Gemma 3n is a vision-language model whose MobileNetV5 tower is weighed a stage at a time, not
 * described as layers (its blocks differ in shape): a sample's images are taken, each its
 * processor's vision_soft_tokens_per_image tokens in the decoder (256: Gemma3nProcessor's
 * image_seq_length). A full fine-tune trains the tower, whose forward is not modelled: the
 * warning says so. Freezing it (the tower and embed_vision: 298,587,456 parameters out of the
 * trained ones, Gemma3nConfig's default, E4B's) or a LoRA, whose targets never reach its
 * convolutions (timm's MultiQueryAttention2d projects through 1x1 create_conv2d), runs it without
 * a graph: the image keeps its fp32 pixels, 3 x 768 x 768 x 4 = 7,077,888 B, and under LoRA on
 * all linears the embedder's embedding_projection adapter its input, 256 tokens x 2,048 x 2 B
 * (bf16 adapters in a pure bf16 run) = 1,048,576 B. */
static void test_gemma3n_images(void **state)
{
    (void)state;
    const struct gs_model_spec m = spec(fixture_arch("%s", "{\"model_type\":\"gemma3n\"}"));
    struct gs_workload w = run(GS_FW_TRANSFORMERS, GS_DTYPE_BF16, 1, 2048);
    w.training.regime = GS_REGIME_BF16_PURE;
    w.training.images_per_sample = 1;
    const struct gs_estimate full = estimate(&m, &w);
    assert_int_equal(full.image_tokens, 256);
    assert_int_equal(full.vision_bytes, 0);
    assert_true(has_warning(&full, "vision_activations_not_estimated"));
    assert_int_equal(full.params.vision, 298587456);
    w.training.freeze_vision_tower = true;
    const struct gs_estimate frozen = estimate(&m, &w);
    assert_int_equal(full.trainable_parameters - frozen.trainable_parameters, 298587456);
    assert_int_equal(frozen.vision_bytes, 7077888);
    assert_false(has_warning(&frozen, "vision_activations_not_estimated"));
    w.training.freeze_vision_tower = false;
    w.training.method = GS_METHOD_LORA;
    w.training.method_given = true;
    w.training.lora_rank = 8;
    assert_int_equal(estimate(&m, &w).vision_bytes, 7077888 + 1048576);
    w.training.images_per_sample = 9; /* 9 x 256 tokens do not fit 2,048 */
    assert_string_equal(refusal(&m, &w).pointer, "/training/images_per_sample");
}

/* An HF Trainer LoRA: Llama-2-7B in bf16, PEFT r16 on q_proj and v_proj,
 * lora_dropout 0.05, adapters upcast to fp32 (autocast_adapter_dtype), one
 * sequence of 2,048 tokens, flash_attention_2, no checkpointing.
 *   W = 2 x 6,738,415,616 + 4 x 8,388,608 adapters = 13,510,385,664;
 *   O = 8 x 8,388,608 = 67,108,864
 *   per token and layer: 2 frozen LlamaRMSNorms 4h each (32,768); the
 *   frozen bf16 q/k/v/o/gate/up/down keep no input; q's and v's dropout
 *   output and mask 2 x 3 x 4096 (24,576); Q, K, V, attention output 4 x
 *   2 x 4096 (32,768); SwiGLU gate, silu, up 3 x 2 x 11008 (66,048);
 *   log-sum-exp 128: 156,288 B x 2,048 x 32 + ids 16,384 = 10,242,506,752
 *   loss, transformers <= 4.45 (LlamaForCausalLM returns logits.float();
 *   Trainer.training_step drops the output before backward): log_softmax's
 *   output, its gradient and the input gradient, 12 B x 2,048 x 32,000 =
 *   786,432,000 (its forward: the fp32 logits, their shifted copy and
 *   log_softmax's output, 12 too); a loop that keeps the output keeps the
 *   fp32 logits: 16 B -> 1,048,576,000;
 *   transformers 4.46-4.48 (ForCausalLMLoss upcasts inside and copies the
 *   shifted logits: its forward holds the bf16 logits 2, the upcast 4, the
 *   copy 4 and log_softmax's output 4): 14 B -> 917,504,000
 *   backward start: 4.45 -> 24,639,987,712 (kept: 24,902,131,712); 4.46 ->
 *   24,771,059,712.
 *   From 4.46 PEFT casts each adapter's input to its fp32 dtype
 *   (LoraLayer._cast_input_dtype), so q's and v's dropout reads an fp32 copy:
 *   output and mask 2 x 5 x 4096 (40,960), +16,384 B x 2,048 x 32 =
 *   +1,073,741,824 -> 25,844,801,536.
 *   transformers 4.49 and 5.x shift the labels, not the logits (12 B per
 *   logit, 786,432,000): 25,713,729,536.
 * The final LlamaRMSNorm's fp32 input, 2,048 x 4,096 x 4, comes on top of every figure, and the
 * first layer, which reads the frozen embedding's output, keeps neither its input norm's fp32
 * copy (4h) nor q's and v's dropout masks (2h): 6 x 4,096 x 2,048 = 50,331,648 less in each. */
static void test_hf_trainer_lora_by_release(void **state)
{
    (void)state;
    const struct gs_model_spec m = spec(fixture_llama(4096, 32, 32, 32, 11008, 32000, false));
    struct gs_workload w = run(GS_FW_TRANSFORMERS, GS_DTYPE_BF16, 1, 2048);
    fixture_lora_qv(&w.training, 16);
    w.training.lora_dropout_permille = 50;
    w.training.framework.framework_version = 445;
    struct gs_estimate e = estimate(&m, &w);
    assert_int_equal(e.per_gpu.weights_bytes, 13510385664ULL);
    assert_int_equal(e.per_gpu.optimizer_bytes, 67108864ULL);
    assert_int_equal(e.loss, GS_LOSS_FP32);
    /* and the final LlamaRMSNorm's fp32 input (frozen weight), kept after the last layer:
     * 2,048 x 4,096 x 4 = 33,554,432 */
    const uint64_t fin = 2048ULL * 4096 * 4, first = 6ULL * 4096 * 2048;
    assert_int_equal(e.saved_activation_bytes, 10242506752ULL + 786432000ULL + fin - first);
    assert_int_equal(e.per_gpu.peak_allocated_bytes, 24639987712ULL + fin - first);
    w.training.framework.keeps_output = GS_KNOB_ON;
    e = estimate(&m, &w);
    assert_int_equal(e.saved_activation_bytes, 10242506752ULL + 1048576000ULL + fin - first);
    assert_int_equal(e.per_gpu.peak_allocated_bytes, 24902131712ULL + fin - first);
    w.training.framework.keeps_output = GS_KNOB_DEFAULT;

    w.training.framework.framework_version = 446;
    e = estimate(&m, &w);
    assert_int_equal(e.loss, GS_LOSS_FP32);
    assert_int_equal(e.per_gpu.peak_allocated_bytes, 24771059712ULL + 1073741824ULL + fin - first);

    w.training.framework.framework_version = 449;
    e = estimate(&m, &w);
    assert_int_equal(e.per_gpu.peak_allocated_bytes, 25713729536ULL + fin - first);

    w.training.framework.framework_version = 517;
    e = estimate(&m, &w);
    assert_int_equal(e.loss, GS_LOSS_FP32);
    assert_int_equal(e.per_gpu.peak_allocated_bytes, 25713729536ULL + fin - first);

    /* the output head adapted too (target_modules [q_proj, v_proj, lm_head]; torchtune's
     * apply_lora_to_output): 16 x (4,096 + 32,000) = 577,536 fp32 adapter parameters more
     * (4 B of weights, 8 B of AdamW states each), and the head's lora_A keeps its dropout's
     * mask and output over PEFT's fp32 copy of the final norm's output: 5 B x 4,096 x 2,048
     * = 41,943,040; the logits-sized temporaries of its forward and backward stay under the
     * loss's own backward, so the peak moves by exactly these */
    const struct gs_estimate qv = e;
    w.training.lora_target_count = 3;
    strcpy(w.training.lora_targets[2], "lm_head");
    e = estimate(&m, &w);
    assert_int_equal(e.trainable_parameters - qv.trainable_parameters, 577536);
    assert_int_equal(e.per_gpu.weights_bytes - qv.per_gpu.weights_bytes, 4 * 577536);
    assert_int_equal(e.per_gpu.optimizer_bytes - qv.per_gpu.optimizer_bytes, 8 * 577536);
    assert_int_equal(e.saved_activation_bytes - qv.saved_activation_bytes, 41943040);
    assert_int_equal(e.per_gpu.peak_allocated_bytes - qv.per_gpu.peak_allocated_bytes,
                     12 * 577536 + 41943040);
    w.training.lora_target_count = 2;

    /* DoRA (use_dora) on q_proj and v_proj: a magnitude vector of d_out per layer, 32 x 8,192 =
     * 262,144 fp32 parameters (12 B with their AdamW states); each product of
     * result_dora = (m/||W+dW|| - 1) * base + m/||W+dW|| * lora_result * scaling keeps its
     * full-size operand. With lora_dropout 0.05 DoRA recomputes the base output as
     * F.linear(dropout(x), W.to(fp32)): fp32 base and adapter outputs, 8 B x 8,192 x 2,048 x 32 =
     * 4,294,967,296, and each layer's fp32 weight copies, 4 x 2 x 4,096 x 4,096 x 32 =
     * 4,294,967,296 */
    w.training.lora_dora = true;
    e = estimate(&m, &w);
    assert_int_equal(e.trainable_parameters - qv.trainable_parameters, 262144);
    assert_int_equal(e.per_gpu.peak_allocated_bytes - qv.per_gpu.peak_allocated_bytes,
                     12 * 262144 + 4294967296ULL + 4294967296ULL);
    /* without dropout the base output is the base layer's own (bf16) and no weight copy is
     * kept: (2 + 4) B x 8,192 x 2,048 x 32 = 3,221,225,472; the adapters' dropout copies go too
     * (2 x 5 B -> the fp32 cast, 2 x 4 B: 2 x 4,096 x 2,048 x 31 = 520,093,696 less: the first
     * layer kept no mask) */
    w.training.lora_dropout_permille = 0;
    const struct gs_estimate lora0 = (w.training.lora_dora = false, estimate(&m, &w));
    w.training.lora_dora = true;
    e = estimate(&m, &w);
    assert_int_equal(e.per_gpu.peak_allocated_bytes - lora0.per_gpu.peak_allocated_bytes,
                     12 * 262144 + 3221225472ULL);
    assert_int_equal(qv.per_gpu.peak_allocated_bytes - lora0.per_gpu.peak_allocated_bytes,
                     520093696ULL);
    w.training.lora_dora = false;
    w.training.lora_dropout_permille = 50;

    /* torchtune's DoRALinear keeps the base output it computed before the dropout, and its
     * adapters are bf16 like the base: (2 + 2) B x 8,192 x 2,048 x 32 = 2,147,483,648 kept, no
     * weight copy */
    w.training.framework.framework = GS_FW_TORCHTUNE;
    const struct gs_estimate tune = estimate(&m, &w);
    w.training.lora_dora = true;
    e = estimate(&m, &w);
    assert_int_equal(e.saved_activation_bytes - tune.saved_activation_bytes, 2147483648ULL);
    w.training.lora_dora = false;
    w.training.framework.framework = GS_FW_TRANSFORMERS;

    /* a fused linear-cross-entropy (Liger) never holds the logits (the final norm's input
     * stays) */
    w.training.framework.loss = GS_LOSS_FUSED;
    e = estimate(&m, &w);
    assert_int_equal(e.saved_activation_bytes, 10242506752ULL + 1073741824ULL + fin - first);
}

/* FSDP1 with use_orig_params puts the frozen base and the adapters of a
 * layer in one FlatParameter, whose gradient covers both (PyTorch's FSDP
 * notes); FSDP2 and PEFT's own wrap policy allocate gradients for the
 * adapters only. Llama-2-7B in bf16, LoRA r64 on q, k, v, gate, up, down
 * over 2 GPUs with FULL_SHARD, one 2,048-token sequence:
 *   adapters per layer 64 x (3 x 8192 + 2 x 15104 + 15104) = 4,472,832,
 *   x 32 = 143,130,624 (fp32 under PEFT: gradients 4 B / 2 GPUs =
 *   286,261,248); under FSDP1 with use_orig_params the frozen base's
 *   gradient adds that of the layer units, 2 x (6,738,415,616 - 2 x
 *   131,072,000) / 2 = 6,476,271,616 per GPU: the root unit (embedding and
 *   head, 524,288,000 B) holds frozen parameters alone, and a FlatParameter
 *   requires grad only when one of its parameters does (the final norm's
 *   4,096 B a GPU counts with the layer units, as in FSDP's gathers). */
static void test_fsdp1_frozen_gradients(void **state)
{
    (void)state;
    const struct gs_model_spec m = spec(fixture_llama(4096, 32, 32, 32, 11008, 32000, false));
    struct gs_workload w = run(GS_FW_TRANSFORMERS, GS_DTYPE_BF16, 1, 2048);
    w.training.method = GS_METHOD_LORA;
    w.training.method_given = true;
    w.training.lora_rank = 64;
    const char *targets[] = {"q_proj", "k_proj", "v_proj", "gate_proj", "up_proj", "down_proj"};
    w.training.lora_target_count = 6;
    for (size_t i = 0; i < 6; i++)
        strcpy(w.training.lora_targets[i], targets[i]);
    w.parallelism.data = 2;
    w.parallelism.zero_stage = 3;
    w.parallelism.fsdp = true;
    const struct gs_estimate fsdp2 = estimate(&m, &w);
    assert_int_equal(fsdp2.trainable_parameters, 143130624ULL);
    assert_false(has_assumption(&fsdp2, "fsdp1_frozen_gradient_bytes"));
    w.parallelism.fsdp_version = 1;
    w.parallelism.fsdp_use_orig_params = true;
    const struct gs_estimate fsdp1 = estimate(&m, &w);
    assert_true(has_assumption(&fsdp1, "fsdp1_frozen_gradient_bytes"));
    /* every moment that holds gradients holds the frozen shard's too */
    assert_int_equal(fsdp1.peak.phases[GS_PHASE_BACKWARD_END],
                     fsdp2.peak.phases[GS_PHASE_BACKWARD_END] + 6476271616ULL);
    assert_int_equal(fsdp1.peak.phases[GS_PHASE_OPTIMIZER_STEP],
                     fsdp2.peak.phases[GS_PHASE_OPTIMIZER_STEP] + 6476271616ULL);
    assert_true(fsdp2.peak.phases[GS_PHASE_OPTIMIZER_STEP] >= 286261248ULL);
    /* without use_orig_params (PEFT's wrap policy) FSDP1 adds nothing */
    w.parallelism.fsdp_use_orig_params = false;
    const struct gs_estimate peft = estimate(&m, &w);
    assert_int_equal(peft.peak.phases[GS_PHASE_BACKWARD_END],
                     fsdp2.peak.phases[GS_PHASE_BACKWARD_END]);
}

/* FSDP1 gradient accumulation under no_sync() (fully_sharded_data_parallel.py no_sync: "FSDP
 * will accumulate the full model gradients (instead of gradient shards) until the eventual
 * sync"). LitGPT's multi-GPU LoRA (resource tables: Llama 2 7B on 2 x A100, micro-batch 1,
 * 22.18 GB): Fabric's FSDPStrategy keeps the original parameters, each Block a unit with its
 * LoRA weights; bf16-true, r8 on query and value, 1,304 tokens, Block checkpointing.
 *   frozen 6,738,415,616 x 2 = 13,476,831,232; adapters 32 x 2 x 8 x (4,096 + 4,096) =
 *   4,194,304 x 2 = 8,388,608; gathered whole 13,485,219,840; the root (embedding and
 *   head) 2 x 131,072,000 x 2 = 524,288,000, frozen, no gradient:
 *   unsharded gradients over the accumulating micro-batches 12,960,931,840;
 *   after the syncing micro-batch, sharded: (13,476,831,232 - 524,288,000) / 2 +
 *   8,388,608 / 2 = 6,480,465,920.
 * With sync_each_batch (or no accumulation) the backward start holds the sharded ones. */
static void test_fsdp1_no_sync_accumulation(void **state)
{
    (void)state;
    const struct gs_model_spec m = spec(fixture_llama(4096, 32, 32, 32, 11008, 32000, false));
    struct gs_workload w = run(GS_FW_LITGPT, GS_DTYPE_BF16, 1, 1304);
    w.training.regime = GS_REGIME_BF16_PURE;
    fixture_lora_qv(&w.training, 8);
    w.training.recompute = GS_RECOMPUTE_FULL;
    w.training.gradient_accumulation_steps = 128;
    w.parallelism.data = 2;
    w.parallelism.zero_stage = 3;
    w.parallelism.fsdp = true;
    const struct gs_estimate e = estimate(&m, &w);
    assert_int_equal(e.trainable_parameters, 4194304ULL);
    /* per_gpu shows the peak moment, the syncing micro-batch's backward start */
    assert_int_equal(e.per_gpu.gradients_bytes, 12960931840ULL);
    const struct gs_assumption *a = fixture_assumption(&e, "fsdp1_no_sync_gradient_bytes");
    assert_non_null(a);
    assert_int_equal(a->value, 12960931840ULL);
    assert_int_equal(e.peak.moments[GS_PHASE_BACKWARD_START].gradients, 12960931840ULL);
    assert_int_equal(e.peak.moments[GS_PHASE_BACKWARD_END].gradients, 12960931840ULL);
    assert_int_equal(e.peak.moments[GS_PHASE_OPTIMIZER_STEP].gradients, 6480465920ULL);

    /* LitGPT's finetune scripts have no switch (fabric.no_backward_sync(model,
     * enabled=is_accumulating)): asked to sync every micro-batch, it is sized as it runs */
    w.training.framework.sync_each_batch = GS_KNOB_ON;
    const struct gs_estimate lit_each = estimate(&m, &w);
    assert_true(has_warning(&lit_each, "sync_each_batch_ignored"));
    assert_int_equal(lit_each.per_gpu.gradients_bytes, 12960931840ULL);
    w.training.framework.sync_each_batch = GS_KNOB_DEFAULT;
    assert_false(has_warning(&e, "sync_each_batch_ignored"));
    w.training.gradient_accumulation_steps = 1;
    const struct gs_estimate one = estimate(&m, &w);
    assert_false(has_assumption(&one, "fsdp1_no_sync_gradient_bytes"));
    w.training.gradient_accumulation_steps = 128;

    /* the HF Trainer with use_orig_params=True: the same layer units, frozen base included */
    w.training.framework.framework = GS_FW_TRANSFORMERS;
    w.parallelism.fsdp_use_orig_params = true;
    const struct gs_estimate orig = estimate(&m, &w);
    a = fixture_assumption(&orig, "fsdp1_no_sync_gradient_bytes");
    assert_non_null(a);
    assert_int_equal(a->value, 12960931840ULL);
    /* reduce-scattered every micro-batch (5.2 on, transformers PR #43919): the sharded
     * gradients persist over accumulation */
    w.training.framework.sync_each_batch = GS_KNOB_ON;
    const struct gs_estimate each = estimate(&m, &w);
    assert_null(fixture_assumption(&each, "fsdp1_no_sync_gradient_bytes"));
    assert_false(has_warning(&each, "sync_each_batch_ignored"));
    assert_int_equal(each.peak.moments[GS_PHASE_BACKWARD_START].gradients, 6480465920ULL);
    assert_int_equal(orig.peak.phases[GS_PHASE_BACKWARD_START] -
                         each.peak.phases[GS_PHASE_BACKWARD_START],
                     12960931840ULL - 6480465920ULL);
    /* 4.46 to 5.1 run every accumulating micro-batch under accelerator.no_sync whatever the
     * plugin says (transformers issue #29425); 4.27-4.45 asked it (accelerator.accumulate) */
    static const struct {
        uint32_t version;
        bool honoured;
    } releases[] = {{420, false}, {445, true}, {446, false}, {449, false},
                    {500, false}, {501, false}, {502, true},  {517, true}};
    for (size_t i = 0; i < sizeof(releases) / sizeof(releases[0]); i++) {
        w.training.framework.framework_version = releases[i].version;
        const struct gs_estimate r = estimate(&m, &w);
        assert_int_equal(has_assumption(&r, "fsdp1_no_sync_gradient_bytes"),
                         !releases[i].honoured);
        assert_int_equal(has_warning(&r, "sync_each_batch_ignored"), !releases[i].honoured);
    }
    w.training.framework.framework_version = 0;
    w.training.framework.sync_each_batch = GS_KNOB_DEFAULT;
    w.parallelism.fsdp_use_orig_params = false;

    /* PEFT's wrap policy (adapters apart, use_orig_params=False): the adapters' gradients
     * alone, unsharded: 4,194,304 x 2 = 8,388,608 */
    const struct gs_estimate hf = estimate(&m, &w);
    a = fixture_assumption(&hf, "fsdp1_no_sync_gradient_bytes");
    assert_non_null(a);
    assert_int_equal(a->value, 8388608ULL);
    /* full fine-tuning: the whole model's gradient, unsharded, 13,476,831,232 */
    w.training.method = GS_METHOD_FULL;
    const struct gs_estimate full = estimate(&m, &w);
    a = fixture_assumption(&full, "fsdp1_no_sync_gradient_bytes");
    assert_non_null(a);
    assert_int_equal(a->value, 13476831232ULL);
    /* torchtune (FSDP2) reduce-scatters every micro-batch and has no no_sync accumulation */
    w.training.framework.framework = GS_FW_TORCHTUNE;
    const struct gs_estimate tune = estimate(&m, &w);
    assert_false(has_assumption(&tune, "fsdp1_no_sync_gradient_bytes"));
    assert_false(has_assumption(&tune, "fsdp2_no_sync_gradient_bytes"));
    w.training.framework.sync_each_batch = GS_KNOB_OFF;
    const struct gs_estimate tune_off = estimate(&m, &w);
    assert_false(has_assumption(&tune_off, "fsdp2_no_sync_gradient_bytes"));
    assert_true(has_warning(&tune_off, "sync_each_batch_ignored"));
    w.training.framework.sync_each_batch = GS_KNOB_DEFAULT;
}

/* FSDP2 under the HF Trainer: from transformers 5 (accelerate >= 1.11, PR #3762)
 * Accelerator.no_sync calls set_requires_gradient_sync(False), and fully_shard keeps every
 * trainable parameter's gradient unsharded until the syncing micro-batch
 * (_fsdp_param_group.py post_backward). Llama-2-7B shape on 2 GPUs, pure bf16. */
static void test_fsdp2_no_sync_accumulation(void **state)
{
    (void)state;
    const struct gs_model_spec m = spec(fixture_llama(4096, 32, 32, 32, 11008, 32000, false));
    struct gs_workload w = run(GS_FW_TRANSFORMERS, GS_DTYPE_BF16, 1, 1024);
    w.training.regime = GS_REGIME_BF16_PURE;
    w.training.recompute = GS_RECOMPUTE_FULL;
    w.training.gradient_accumulation_steps = 8;
    w.parallelism.data = 2;
    w.parallelism.zero_stage = 3;
    w.parallelism.fsdp = true;
    w.parallelism.fsdp_version = 2;
    /* full fine-tuning: 6,738,415,616 parameters x 2 bytes, unsharded on each GPU */
    const struct gs_estimate e = estimate(&m, &w);
    const struct gs_assumption *a = fixture_assumption(&e, "fsdp2_no_sync_gradient_bytes");
    assert_non_null(a);
    assert_int_equal(a->value, 13476831232ULL);
    assert_false(has_assumption(&e, "fsdp1_no_sync_gradient_bytes"));
    assert_int_equal(e.peak.moments[GS_PHASE_BACKWARD_START].gradients, 13476831232ULL);
    /* after the sync, half of it a GPU */
    assert_int_equal(e.peak.moments[GS_PHASE_OPTIMIZER_STEP].gradients, 6738415616ULL);
    /* the unsharded gradients are autograd's, on the default stream (not the reduce-scatter
     * stream's pool): the default stream's peak is the whole backward-start moment, and the
     * reserved figure is it with its 10% slack and the side pools - never under the
     * allocated peak */
    assert_int_equal(e.peak.default_stream_peak, e.peak.phases[GS_PHASE_BACKWARD_START]);
    assert_int_equal(e.per_gpu.peak_reserved_bytes,
                     e.peak.default_stream_peak + (e.peak.default_stream_peak * 100 + 999) / 1000 +
                         e.peak.side_pools);
    assert_true(e.per_gpu.peak_reserved_bytes >= e.per_gpu.peak_allocated_bytes);
    /* 5.2 with sync_each_batch: reduce-scattered every micro-batch */
    w.training.framework.sync_each_batch = GS_KNOB_ON;
    const struct gs_estimate each = estimate(&m, &w);
    assert_false(has_assumption(&each, "fsdp2_no_sync_gradient_bytes"));
    assert_int_equal(each.peak.moments[GS_PHASE_BACKWARD_START].gradients, 6738415616ULL);
    w.training.framework.sync_each_batch = GS_KNOB_DEFAULT;
    /* transformers 4.x ran with an accelerate whose no_sync looked for a `no_sync` method
     * fully_shard modules lack; sync_each_batch false says the loop skips the sync anyway */
    w.training.framework.framework_version = 449;
    const struct gs_estimate old = estimate(&m, &w);
    assert_false(has_assumption(&old, "fsdp2_no_sync_gradient_bytes"));
    w.training.framework.sync_each_batch = GS_KNOB_OFF;
    const struct gs_estimate old_off = estimate(&m, &w);
    a = fixture_assumption(&old_off, "fsdp2_no_sync_gradient_bytes");
    assert_non_null(a);
    assert_int_equal(a->value, 13476831232ULL);
    w.training.framework.sync_each_batch = GS_KNOB_DEFAULT;
    w.training.framework.framework_version = 0;
    /* LoRA: fully_shard shards parameter by parameter and frozen ones get no gradient: the
     * adapters' alone, 4,194,304 x 2 = 8,388,608 (use_orig_params means nothing here) */
    fixture_lora_qv(&w.training, 8);
    w.parallelism.fsdp_use_orig_params = true;
    const struct gs_estimate lora = estimate(&m, &w);
    a = fixture_assumption(&lora, "fsdp2_no_sync_gradient_bytes");
    assert_non_null(a);
    assert_int_equal(a->value, 8388608ULL);
    /* no accumulation, nothing held */
    w.training.gradient_accumulation_steps = 1;
    const struct gs_estimate one = estimate(&m, &w);
    assert_false(has_assumption(&one, "fsdp2_no_sync_gradient_bytes"));
}

/* The loss rules, bytes per logit in eighths (framework.c). */
static void test_loss_bytes_per_logit(void **state)
{
    (void)state;
    struct gs_training_knobs k;
    memset(&k, 0, sizeof(k));
    struct gs_framework_rules r;
    k.framework = GS_FW_TRANSFORMERS;
    /* by release and loop (the comment over gs_loss_eighths_per_logit):
     *           Trainer  keeps the output
     *   < 4.27     12      16 (fp32 logits)
     *   4.45       12      16
     *   4.46       14      14 (the loss's forward: 2 + 4 + 4 + 4)
     *   4.48       14      14
     *   4.49       12      14
     *   5.17       12      14 */
    static const struct {
        uint32_t version;
        uint64_t trainer, kept;
    } by_release[] = {{420, 12, 16}, {445, 12, 16}, {446, 14, 14},
                      {448, 14, 14}, {449, 12, 14}, {517, 12, 14}};
    for (size_t i = 0; i < sizeof(by_release) / sizeof(by_release[0]); i++) {
        k.framework_version = by_release[i].version;
        k.keeps_output = GS_KNOB_DEFAULT;
        gs_framework_resolve(&k, GS_ATTN_SDPA, &r);
        assert_int_equal(gs_loss_eighths_per_logit(&r, 0, 1), by_release[i].trainer * 8);
        k.keeps_output = GS_KNOB_OFF;
        gs_framework_resolve(&k, GS_ATTN_SDPA, &r);
        assert_int_equal(gs_loss_eighths_per_logit(&r, 0, 1), by_release[i].trainer * 8);
        k.keeps_output = GS_KNOB_ON;
        gs_framework_resolve(&k, GS_ATTN_SDPA, &r);
        assert_int_equal(gs_loss_eighths_per_logit(&r, 0, 1), by_release[i].kept * 8);
    }
    k.keeps_output = GS_KNOB_DEFAULT;
    /* a loop that keeps fp32 logits the model returned (torchtune before PR #1046) */
    k.framework_version = 517;
    k.loss = GS_LOSS_FP32_RETAINED;
    gs_framework_resolve(&k, GS_ATTN_SDPA, &r);
    assert_int_equal(gs_loss_eighths_per_logit(&r, 0, 1), 16 * 8);
    k.loss = GS_LOSS_DEFAULT;
    /* DeepSpeed's engine loops keep the output (14); the fp32 chunks Fabric's wrapper hands
     * LitGPT's loop stay held whatever keeps_output says */
    k.framework = GS_FW_DEEPSPEED;
    gs_framework_resolve(&k, GS_ATTN_SDPA, &r);
    assert_int_equal(gs_loss_eighths_per_logit(&r, 0, 1), 14 * 8);
    k.framework = GS_FW_LITGPT;
    gs_framework_resolve(&k, GS_ATTN_SDPA, &r);
    const uint64_t litgpt = gs_loss_eighths_per_logit(&r, 16, 1);
    k.keeps_output = GS_KNOB_OFF;
    gs_framework_resolve(&k, GS_ATTN_SDPA, &r);
    assert_true(r.logits_fp32_held);
    assert_int_equal(gs_loss_eighths_per_logit(&r, 16, 1), litgpt);
    k.keeps_output = GS_KNOB_DEFAULT;
    k.framework = GS_FW_TORCHTUNE;
    gs_framework_resolve(&k, GS_ATTN_SDPA, &r);
    assert_int_equal(gs_loss_eighths_per_logit(&r, 0, 1), 12 * 8);
    assert_int_equal(gs_loss_eighths_per_logit(&r, 0, 8), 12 * 8);
    /* torchtitan under tensor parallelism: DTensor's loss_parallel backward holds log_softmax's
     * output, zeros_like(x), exp(x) and their sum at once (4 x 4); without it, ATen's 12 */
    k.framework = GS_FW_TORCHTITAN;
    gs_framework_resolve(&k, GS_ATTN_SDPA, &r);
    assert_int_equal(gs_loss_eighths_per_logit(&r, 0, 1), 12 * 8);
    assert_int_equal(gs_loss_eighths_per_logit(&r, 0, 8), 16 * 8);
    /* compiled (torchtitan >= 0.1 wraps the loss in torch.compile with the model): the fused
     * kernel's 16-bit input saved and its 16-bit gradient, 2 + 2; before 0.1 ("0.0", the loss
     * eager whatever compile says) ATen's 12; under loss parallel sized as eager */
    k.compile = GS_KNOB_ON;
    gs_framework_resolve(&k, GS_ATTN_SDPA, &r);
    assert_true(r.loss_compiled);
    assert_int_equal(gs_loss_eighths_per_logit(&r, 0, 1), 4 * 8);
    assert_int_equal(gs_loss_eighths_per_logit(&r, 0, 8), 16 * 8);
    k.framework_version = 1; /* "0.1" */
    gs_framework_resolve(&k, GS_ATTN_SDPA, &r);
    assert_int_equal(gs_loss_eighths_per_logit(&r, 0, 1), 4 * 8);
    k.framework_version = 0;
    k.framework_version_given = true; /* "0.0" */
    gs_framework_resolve(&k, GS_ATTN_SDPA, &r);
    assert_false(r.loss_compiled);
    assert_int_equal(gs_loss_eighths_per_logit(&r, 0, 1), 12 * 8);
    k.framework_version_given = false;
    k.compile = GS_KNOB_OFF;
    gs_framework_resolve(&k, GS_ATTN_SDPA, &r);
    assert_int_equal(gs_loss_eighths_per_logit(&r, 0, 1), 12 * 8);
    k.compile = GS_KNOB_DEFAULT;
    k.framework = GS_FW_TORCHTUNE;
    gs_framework_resolve(&k, GS_ATTN_SDPA, &r);
    /* chunked, eager: every chunk's fp32 log-softmax (4) + one chunk's fp32 gradients 8/8 */
    k.loss = GS_LOSS_CHUNKED;
    gs_framework_resolve(&k, GS_ATTN_SDPA, &r);
    assert_int_equal(r.loss_chunks, 8);
    assert_int_equal(gs_loss_eighths_per_logit(&r, 8, 1), 5 * 8);
    k.compile = GS_KNOB_ON; /* 2 + 2/8 */
    gs_framework_resolve(&k, GS_ATTN_SDPA, &r);
    assert_int_equal(gs_loss_eighths_per_logit(&r, 8, 1), 18);
    k.loss = GS_LOSS_FUSED;
    gs_framework_resolve(&k, GS_ATTN_SDPA, &r);
    assert_int_equal(gs_loss_eighths_per_logit(&r, 8, 1), 0);
    /* transformers' flash_attention_2 keeps grouped K/V; eager and SDPA repeat them */
    k.framework = GS_FW_TRANSFORMERS;
    gs_framework_resolve(&k, GS_ATTN_SDPA, &r);
    assert_false(r.gqa_expanded);
    gs_framework_resolve(&k, GS_ATTN_EAGER, &r);
    assert_true(r.gqa_expanded);
}

static void test_version_parse(void **state)
{
    (void)state;
    uint32_t v = 0;
    assert_true(gs_framework_version_parse("4.45", &v));
    assert_int_equal(v, 445);
    assert_true(gs_framework_version_parse("4.46.3", &v));
    assert_int_equal(v, 446);
    assert_true(gs_framework_version_parse("4.57.0.dev0", &v));
    assert_int_equal(v, 457);
    assert_false(gs_framework_version_parse("4", &v));
    assert_false(gs_framework_version_parse("4.x", &v));
    assert_false(gs_framework_version_parse("4.460", &v));
    assert_false(gs_framework_version_parse("v4.45", &v));
    assert_false(gs_framework_version_parse("4.45 ", &v));
}

/* A 4-bit head and a loop that holds the previous micro-batch's graph (train_peak.c), small
 * numbers written out: weights 1000, states 2000, gradients 400, saved activations 300, the
 * loss 50, one layer's working set 20, the workspace 10; the logits in 4 chunks, 80 in bf16 (and
 * their gradients), 160 as the fp32 copy the loop holds; the final norm's kept tensors 5; the
 * head's weight dequantized with its cast 200.
 * - the head's backward: every chunk's gradient, the held logits, the norm's tensors and the
 *   dequantized weight: 80 + 160 + 5 + 200 = 445 over the loss's 50: 1000 + 2000 + 300 + 445 +
 *   10 = 3755;
 * - the previous micro-batch's graph (500) and logits (160) still held at the forward's end: the
 *   last chunk's projection holds the three chunks before it (60) and the dequantized weight
 *   (200), more than the head's output and its fp32 copy (240): 500 + 160 + 5 + 60 + 200 = 925,
 *   4235; with a 16-bit head (no dequantization, nor a head moment) 500 + 160 + 5 + 240 = 905,
 *   4215;
 * - neither: the loss's moment, 3360 (below backward end's 1000 + 2000 + 400 + 20 + 10). */
static void test_peak_quantized_head(void **state)
{
    (void)state;
    struct gs_peak_input in = {.weights = 1000,
                               .optimizer = 2000,
                               .gradients = 400,
                               .stored = 300,
                               .loss = 50,
                               .layer_working = 20,
                               .workspace = 10,
                               .logit_grads = 80,
                               .loss_chunks = 4,
                               .logits_held = 160,
                               .head_kept = 5,
                               .head_dequant = 200};
    struct gs_peak pk;
    assert_true(gs_train_peak(&in, &pk));
    assert_int_equal(pk.allocated, 3755);
    assert_int_equal(pk.start, GS_START_HEAD);
    assert_int_equal(pk.moments[GS_PHASE_BACKWARD_START].transient, 210);
    assert_int_equal(pk.moments[GS_PHASE_BACKWARD_START].activations, 300 + 245);
    in.previous_graph = 500;
    in.previous_logits = 160;
    in.forward_logits = 240;
    assert_true(gs_train_peak(&in, &pk));
    assert_int_equal(pk.allocated, 4235);
    assert_int_equal(pk.start, GS_START_FORWARD_END);
    assert_int_equal(pk.moments[GS_PHASE_BACKWARD_START].activations, 300 + 725);
    assert_int_equal(pk.moments[GS_PHASE_BACKWARD_START].transient, 210);
    in.head_dequant = 0;
    assert_true(gs_train_peak(&in, &pk));
    assert_int_equal(pk.allocated, 4215);
    assert_int_equal(pk.start, GS_START_FORWARD_END);
    in.previous_graph = in.previous_logits = 0;
    assert_true(gs_train_peak(&in, &pk));
    assert_int_equal(pk.phases[GS_PHASE_BACKWARD_START], 3360);
    assert_int_equal(pk.start, GS_START_LOSS);
}

/* The moments themselves (train_peak.c), small numbers written out:
 * weights 1000, states 2000, gradients 400, checkpoints 300, the loss 50, one
 * layer's working set 120, gathered units 70, a reduce-scatter input 40, the
 * workspace 10.
 * - backward start: the loss's backward (50) over every checkpoint, then,
 *   with full checkpointing, the last layer recomputed (120) once the loss's
 *   buffers are gone: 1000 + 2000 + 300 + max(50, 120) + 70 + 10 = 3500
 *   (3430 without recomputation);
 * - backward end: 1000 + 2000 + 400 + 120 + 70 + 40 + 10 = 3640, the peak;
 * - with FSDP2's side streams (reduce-scatter pool: the sharded gradients 400, the
 *   input 40 being the default stream's since torch 2.5, pytorch PR #129721;
 *   copy-in pool 90) the default stream's own peak is backward start's 3500
 *   (backward end less the 400 on the reduce-scatter stream: 3240), and the
 *   pools are 400 + 90 = 490. */
static void test_peak_moments(void **state)
{
    (void)state;
    struct gs_peak_input in = {.weights = 1000, .optimizer = 2000, .gradients = 400,
                               .stored = 300, .loss = 50, .layer_working = 120,
                               .unsharded = 70, .unsharded_grad = 40, .workspace = 10};
    struct gs_peak pk;
    assert_true(gs_train_peak(&in, &pk));
    assert_int_equal(pk.phases[GS_PHASE_BACKWARD_START], 3430);
    assert_int_equal(pk.start, GS_START_LOSS);
    /* without recomputation, the last layer's backward makes 60 beyond what it keeps (a torch
     * scan's product gradients): over the loss's 50, 3440; a recomputed layer's working set
     * holds it already */
    in.layer_backward = 60;
    assert_true(gs_train_peak(&in, &pk));
    assert_int_equal(pk.phases[GS_PHASE_BACKWARD_START], 3440);
    assert_int_equal(pk.moments[GS_PHASE_BACKWARD_START].activations, 300 + 60);
    assert_int_equal(pk.start, GS_START_LAST_LAYER);
    in.recomputed = true;
    assert_true(gs_train_peak(&in, &pk));
    assert_int_equal(pk.phases[GS_PHASE_BACKWARD_START], 3500);
    assert_int_equal(pk.start, GS_START_RECOMPUTE);
    assert_int_equal(pk.phases[GS_PHASE_BACKWARD_END], 3640);
    assert_int_equal(pk.phase, GS_PHASE_BACKWARD_END);
    assert_int_equal(pk.default_stream_peak, 3640);
    assert_int_equal(pk.side_pools, 0);
    in.reduce_stream = true;
    in.gather_pool = 90;
    assert_true(gs_train_peak(&in, &pk));
    assert_int_equal(pk.allocated, 3640);
    assert_int_equal(pk.default_stream_peak, 3500);
    assert_int_equal(pk.side_pools, 490);

    /* the head's backward, its weight trained: a weight gradient of 90, the chunks' logits
     * gradients 80, the final norm's input 5. Without recomputation, in one chunk: 80 + 90
     * beside the checkpoints, 300 + 5 + 80 + 90 = 475 over the loss's 300 + 50: 1000 + 2000 +
     * 475 + 70 + 10 = 3555. With it, the last layer's recomputation comes after the head's
     * backward, whose gradient stays: 300 + 120 + 90 = 510, 3590. In 8 chunks the second
     * chunk's moment, 70 + 90 + 90 = 250 (the first's 80 + 90 = 170): 1000 + 2000 + 300 + 5 +
     * 70 + 90 + 90 + 70 + 10 = 3635, below backward end's 3640 */
    in.reduce_stream = false;
    in.gather_pool = 0;
    in.head_grad = 90;
    in.logit_grads = 80;
    in.head_kept = 5;
    in.loss_chunks = 1;
    in.recomputed = false;
    assert_true(gs_train_peak(&in, &pk));
    assert_int_equal(pk.phases[GS_PHASE_BACKWARD_START], 3555);
    assert_int_equal(pk.moments[GS_PHASE_BACKWARD_START].gradients, 90);
    assert_int_equal(pk.start, GS_START_HEAD);
    in.recomputed = true;
    assert_true(gs_train_peak(&in, &pk));
    assert_int_equal(pk.phases[GS_PHASE_BACKWARD_START], 3590);
    assert_int_equal(pk.moments[GS_PHASE_BACKWARD_START].activations, 300 + 120);
    assert_int_equal(pk.moments[GS_PHASE_BACKWARD_START].gradients, 90);
    /* an optimizer-in-backward step frees an untied head's gradient before the layer; a tied
     * head's waits for the embedding's; gradients kept between steps hold it anyway */
    in.optimizer_in_backward = true;
    assert_true(gs_train_peak(&in, &pk));
    assert_int_equal(pk.phases[GS_PHASE_BACKWARD_START], 3555);
    in.head_tied = true;
    assert_true(gs_train_peak(&in, &pk));
    assert_int_equal(pk.phases[GS_PHASE_BACKWARD_START], 3590);
    in.optimizer_in_backward = false;
    in.head_tied = false;
    in.loss_chunks = 8;
    assert_true(gs_train_peak(&in, &pk));
    assert_int_equal(pk.phases[GS_PHASE_BACKWARD_START], 3635);
    assert_int_equal(pk.moments[GS_PHASE_BACKWARD_START].activations, 300 + 5 + 70);
    assert_int_equal(pk.moments[GS_PHASE_BACKWARD_START].gradients, 90);
    assert_int_equal(pk.moments[GS_PHASE_BACKWARD_START].transient, 90 + 70 + 10);
    assert_int_equal(pk.phase, GS_PHASE_BACKWARD_END);
    /* a small head: the recomputed layer's moment, with its gradient */
    in.head_grad = 1;
    assert_true(gs_train_peak(&in, &pk));
    assert_int_equal(pk.phases[GS_PHASE_BACKWARD_START], 3501);

    /* Backward ends with the token embedding's, a whole gradient of (here) 150, above the first
     * layer's working set (120). In one chunk:
     * - untied, gradients freed between steps (the 400 counts the embedding's as final): the
     *   first layer's moment holds 400 - 150 + 120 = 370, the embedding's 400 and no layer:
     *   1000 + 2000 + 400 + 70 + 40 + 10 = 3520 (3640 when the embedding is not modelled); with
     *   an embedding gradient of 100, below the layer: 400 - 100 + 120 = 420, 3540;
     * - untied, gradients kept (accumulation): the embedding's new gradient beside them, 550:
     *   3670; so is a classifier's (head_tied, as it has no lm_head, but no head gradient);
     * - tied, the head's gradient waits in the shared weight's input buffer for the
     *   embedding's, made beside it: freed between steps (the 400 counts the buffer), 400 + 150,
     *   3670; kept, the buffer apart from them through backward and the embedding's beside it,
     *   400 + 150 + 150 = 700, 3820, and at backward start the recomputed layer holds it too:
     *   300 + 120 over the checkpoints, 400 + 150: 1000 + 2000 + 550 + 420 + 70 + 10 = 4050 (the
     *   loss's and head's below: 300 + 5 + 80 with 550, 4015);
     * - an optimizer-in-backward step: untied, the embedding's alone, 150 (3270, over the
     *   layer's 120); tied, the buffer and the embedding's, 300: 3420; at 100 the first layer's
     *   moment with the buffer beside it: 1000 + 2000 + 100 + 120 + 70 + 40 + 10 = 3340;
     * - the embedding's kernel holds buffers of its own beside the gradient it makes (its
     *   incoming gradient; past 3,072 indices its partial sums), here 30, transient: untied and
     *   freed 3520 + 30 = 3550; at an embedding gradient of 100 the embedding's moment, 400 +
     *   30, is now above the first layer's (420): 3550, no activations; kept, 3670 + 30 = 3700;
     *   not modelled (no embedding gradient), no kernel either: 3640 */
    in.loss_chunks = 1;
    const struct {
        const char *what;
        bool persist, in_backward, tied;
        uint64_t head, embedding, kernel, end, end_grads, end_acts;
    } cases[] = {
        {"untied, freed", false, false, false, 150, 150, 0, 3520, 400, 0},
        {"untied, freed, below the layer", false, false, false, 150, 100, 0, 3540, 300, 120},
        {"not modelled", false, false, false, 150, 0, 0, 3640, 400, 120},
        {"untied, kept", true, false, false, 150, 150, 0, 3670, 550, 0},
        {"a classifier, kept", true, false, true, 0, 150, 0, 3670, 550, 0},
        {"tied, kept", true, false, true, 150, 150, 0, 3820, 700, 0},
        {"tied, freed", false, false, true, 150, 150, 0, 3670, 550, 0},
        {"tied, in backward", false, true, true, 150, 150, 0, 3420, 300, 0},
        {"untied, in backward", false, true, false, 150, 150, 0, 3270, 150, 0},
        {"tied, in backward, below the layer", false, true, true, 100, 100, 0, 3340, 100, 120},
        {"untied, freed, the kernel's buffers", false, false, false, 150, 150, 30, 3550, 400, 0},
        {"the kernel's buffers lift it over the layer", false, false, false, 150, 100, 30, 3550,
         400, 0},
        {"not modelled, no kernel", false, false, false, 150, 0, 30, 3640, 400, 120},
        {"untied, kept, the kernel's buffers", true, false, false, 150, 150, 30, 3700, 550, 0},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        in.grads_persist = cases[i].persist;
        in.optimizer_in_backward = cases[i].in_backward;
        in.head_tied = cases[i].tied;
        in.head_grad = cases[i].head;
        in.embedding_grad = cases[i].embedding;
        in.embedding_backward = cases[i].kernel;
        assert_true(gs_train_peak(&in, &pk));
        const struct gs_peak_moment *end = &pk.moments[GS_PHASE_BACKWARD_END];
        /* the embedding's moment holds its kernel's buffers as transient memory */
        const uint64_t end_trans = 70 + 40 + 10 + (cases[i].end_acts ? 0 : cases[i].kernel);
        if (pk.phases[GS_PHASE_BACKWARD_END] != cases[i].end ||
            end->gradients != cases[i].end_grads || end->activations != cases[i].end_acts ||
            end->transient != end_trans)
            fail_msg("%s: backward end %llu (gradients %llu, activations %llu)", cases[i].what,
                     (unsigned long long)pk.phases[GS_PHASE_BACKWARD_END],
                     (unsigned long long)end->gradients, (unsigned long long)end->activations);
        if (i == 5) { /* tied, kept: the recomputed layer holds the buffer at backward start */
            assert_int_equal(pk.phases[GS_PHASE_BACKWARD_START], 4050);
            assert_int_equal(pk.moments[GS_PHASE_BACKWARD_START].activations, 300 + 120);
        }
    }
}

/* The token embedding's backward (aten/src/ATen/native/cuda/Embedding.cu
 * embedding_dense_backward_cuda), the last of a decoder-only model's, holds beside the whole
 * vocabulary x width gradient it makes its incoming gradient (tokens x width at the
 * embedding's output dtype) and, past 3,072 indices, the sorted path's fp32 partial sums
 * (EmbeddingBackwardKernel.cu grad_weight_per_segment, tokens x width x 4) and six int64 index
 * arrays (tokens x 48). A Qwen3-8B-shaped model (hidden 4096, 36 layers, vocabulary 151,936,
 * untied) under transformers 5.17's Trainer (fused AdamW, gradients freed between steps), pure
 * bf16, batch 1 x 4096, full checkpointing, as the H200 Trainer run of
 * tests/fixtures/calibration/h200-training.json (measured 65,641,202,176 B): the peak is the
 * embedding's moment: weights, gradients and AdamW's two bf16 moments (4 x the weights) and no
 * activation; its transient holds the workspace and
 *   4096 x 4096 x 2 = 33,554,432 + 4096 x 4096 x 4 = 67,108,864 + 4096 x 48 = 196,608,
 * 100,859,904 B (the run measured 106,852,864 B over four times the weights it allocated).
 * At 3,072 tokens the direct kernel: the incoming gradient alone, 3072 x 4096 x 2 = 25,165,824;
 * under autocast (fp32 weights, so an fp32 embedding output) 50,331,648. */
static void test_embedding_backward_kernel(void **state)
{
    (void)state;
    const struct gs_model_spec m = spec(fixture_llama(4096, 36, 32, 8, 12288, 151936, false));
    struct gs_workload w = run(GS_FW_TRANSFORMERS, GS_DTYPE_BF16, 1, 4096);
    w.training.framework.framework_version = 517;
    w.training.regime = GS_REGIME_BF16_PURE;
    w.training.recompute = GS_RECOMPUTE_FULL;
    struct gs_estimate e = estimate(&m, &w);
    const struct gs_peak_moment *end = &e.peak.moments[GS_PHASE_BACKWARD_END];
    assert_int_equal(e.peak_phase, GS_PHASE_BACKWARD_END);
    assert_int_equal(end->gradients, e.per_gpu.weights_bytes);
    assert_int_equal(end->activations, 0);
    assert_int_equal(end->transient, ws + 33554432ULL + 67108864ULL + 196608ULL);
    assert_int_equal(e.per_gpu.peak_allocated_bytes,
                     4 * e.per_gpu.weights_bytes + 100859904ULL + ws);

    w.training.sequence_length = 3072;
    e = estimate(&m, &w);
    assert_int_equal(e.peak_phase, GS_PHASE_BACKWARD_END);
    assert_int_equal(e.peak.moments[GS_PHASE_BACKWARD_END].transient, ws + 25165824ULL);

    w.weights = GS_DTYPE_FP32;
    w.training.regime = GS_REGIME_AMP;
    e = estimate(&m, &w);
    assert_int_equal(e.peak.moments[GS_PHASE_BACKWARD_END].activations, 0);
    assert_int_equal(e.peak.moments[GS_PHASE_BACKWARD_END].transient, ws + 50331648ULL);
}

/* Micro-batches padded to their own longest sample (training.padding "longest"): the figures are
 * the longest micro-batch's, byte for byte the one-shape answer, and the estimate names the
 * blocks whose size follows the length, which the caching allocator cuts anew for every longer
 * micro-batch and keeps (docs/training-peaks.md; bench/allocator-lengths.py). torchtune's
 * Llama-3.2-3B run above, batch 2 x 4096: the loss keeps 12 B a logit (output(h).float(), then
 * del logits), 12 x 8,192 x 128,256 = 12,608,077,824 B, with the final norm the head reads
 * (eager: its fp32 input and the normalized tensor, 8,192 x 3,072 x 6 = 150,994,944 B) and the
 * head's input (8,192 x 3,072 x 2 = 50,331,648 B), more than one layer's working set.
 * With the chunked loss (compiled, 8 chunks: 2,364,014,592 B, the final norm, eager outside
 * the compiled layers, 150,994,944 B, and the head's input) the loss's are still the larger; with a
 * fused loss (none) and full recomputation one layer's working set is: 806,092,800 + the gradient
 * pair 268,435,456 = 1,074,528,256 B.
 * torchtitan sets expandable segments, whose segments grow in place: no growth to warn of. */
static void test_varying_lengths(void **state)
{
    (void)state;
    const struct gs_model_spec m = spec(fixture_llama(3072, 28, 24, 8, 8192, 128256, true));
    struct gs_workload w = run(GS_FW_TORCHTUNE, GS_DTYPE_BF16, 2, 4096);
    w.training.regime = GS_REGIME_BF16_PURE;
    const struct gs_estimate fixed = estimate(&m, &w);
    assert_null(fixture_assumption(&fixed, "padding"));
    assert_false(has_warning(&fixed, "reserved_grows_with_lengths"));

    w.training.padding = GS_PADDING_LONGEST;
    struct gs_estimate e = estimate(&m, &w);
    assert_memory_equal(&e.per_gpu, &fixed.per_gpu, sizeof(e.per_gpu));
    assert_non_null(fixture_assumption(&e, "padding"));
    const struct gs_assumption *blocks = fixture_assumption(&e, "length_dependent_blocks_bytes");
    assert_non_null(blocks);
    assert_int_equal(blocks->value, 12608077824ULL + 8192ULL * 3072 * 6 + 8192ULL * 3072 * 2);
    assert_true(has_warning(&e, "reserved_grows_with_lengths"));

    w.training.framework.compile = GS_KNOB_ON;
    w.training.framework.loss = GS_LOSS_CHUNKED;
    e = estimate(&m, &w);
    blocks = fixture_assumption(&e, "length_dependent_blocks_bytes");
    assert_non_null(blocks);
    assert_int_equal(blocks->value, 2364014592ULL + 8192ULL * 3072 * 6 + 8192ULL * 3072 * 2);
    w.training.framework.loss = GS_LOSS_FUSED;
    w.training.recompute = GS_RECOMPUTE_FULL;
    e = estimate(&m, &w);
    blocks = fixture_assumption(&e, "length_dependent_blocks_bytes");
    assert_non_null(blocks);
    assert_int_equal(blocks->value, 806092800ULL + 268435456ULL);

    w = run(GS_FW_TORCHTITAN, GS_DTYPE_BF16, 2, 4096);
    w.training.padding = GS_PADDING_LONGEST;
    e = estimate(&m, &w);
    assert_non_null(fixture_assumption(&e, "padding"));
    assert_null(fixture_assumption(&e, "length_dependent_blocks_bytes"));
    assert_false(has_warning(&e, "reserved_grows_with_lengths"));
}

/* What each GPU sends over its data-parallel links in an optimizer step (the estimate's
 * data_parallel_bytes, estimate_training.c: collective_bytes, data_parallel_bytes): Llama-2-7B
 * (6,738,415,616 parameters) in bf16, so weights, gradients and updated weights are each
 * P = 13,476,831,232 bytes, the root unit (embedding and head, 2 x 131,072,000) R =
 * 524,288,000 bytes; 8 data-parallel ranks, each sending 7/8 of a collective's buffer, and 4
 * micro-batches a step:
 *   DeepSpeed ZeRO-3, every micro-batch gathers twice and reduces: 7/8 x 4 x 3P
 *   DeepSpeed ZeRO-2, a reduction a micro-batch, one gather of the update: 7/8 x 5P
 *   DeepSpeed ZeRO-1, one reduction at the boundary and the gather: 7/8 x 2P
 *   DDP (the HF Trainer, no_sync accumulation): one all-reduce, 7/8 x 2P; under
 *     sync_each_batch (4.45, accelerator.accumulate) one a micro-batch: 7/8 x 8P
 *   FSDP1 FULL_SHARD under no_sync (4.49): layer units gathered twice a micro-batch, the
 *     root once, one reduce-scatter: 7/8 x (4 x (2(P - R) + R) + P)
 *   FSDP2 FULL_SHARD in 4.49 (no no_sync reaches fully_shard): 7/8 x 4 x (2(P - R) + R + P)
 *   FSDP1 SHARD_GRAD_OP under no_sync, units kept gathered until the sync: 7/8 x 2P;
 *     FSDP2 reshards after every backward: 7/8 x 4 x 2P */
static void test_data_parallel_bytes(void **state)
{
    (void)state;
    const struct gs_model_spec m = spec(fixture_llama(4096, 32, 32, 32, 11008, 32000, false));
    const uint64_t P = 13476831232ULL, R = 524288000ULL;
    struct gs_workload w = run(GS_FW_TRANSFORMERS, GS_DTYPE_BF16, 1, 1024);
    w.training.regime = GS_REGIME_BF16_PURE;
    w.training.gradient_accumulation_steps = 4;
    w.parallelism.data = 8;
    w.training.framework.framework_version = 449;
    assert_int_equal(estimate(&m, &w).data_parallel_bytes, 7 * 2 * P / 8);
    w.training.framework.framework_version = 445;
    w.training.framework.sync_each_batch = GS_KNOB_ON;
    assert_int_equal(estimate(&m, &w).data_parallel_bytes, 7 * 8 * P / 8);
    w.training.framework.sync_each_batch = GS_KNOB_DEFAULT;
    w.training.framework.framework_version = 449;

    w.parallelism.fsdp = true;
    w.parallelism.zero_stage = 3;
    w.parallelism.fsdp_version = 1;
    assert_int_equal(estimate(&m, &w).data_parallel_bytes, 7 * (4 * (2 * (P - R) + R) + P) / 8);
    w.parallelism.fsdp_version = 2;
    assert_int_equal(estimate(&m, &w).data_parallel_bytes, 7 * 4 * (2 * (P - R) + R + P) / 8);
    w.parallelism.zero_stage = 2;
    assert_int_equal(estimate(&m, &w).data_parallel_bytes, 7 * 4 * 2 * P / 8);
    w.parallelism.fsdp_version = 1;
    assert_int_equal(estimate(&m, &w).data_parallel_bytes, 7 * 2 * P / 8);

    /* DeepSpeed: ZeRO stages given as numbers, no framework named */
    struct gs_workload ds = fixture_workload(GS_MODE_TRAINING);
    ds.weights = GS_DTYPE_BF16;
    ds.training.regime = GS_REGIME_BF16_PURE;
    ds.training.batch_size = 1;
    ds.training.sequence_length = 1024;
    ds.training.gradient_accumulation_steps = 4;
    ds.parallelism.data = 8;
    static const uint64_t per_stage[4] = {2, 2, 5, 12}; /* in P */
    for (unsigned z = 0; z < 4; z++) {
        ds.parallelism.zero_stage = z;
        assert_int_equal(estimate(&m, &ds).data_parallel_bytes, 7 * per_stage[z] * P / 8);
    }
    ds.parallelism.data = 1;
    assert_int_equal(estimate(&m, &ds).data_parallel_bytes, 0);

    /* LitGPT's FSDP1 with LoRA on q/v (r 8: 4,194,304 adapter parameters, 8,388,608 bytes):
     * each layer unit's FlatParameter holds its frozen base, so a unit's gradient is the
     * unit's size, G = P + 8,388,608 - R = 12,960,931,840 (the no_sync figure of
     * test_fsdp1_no_sync_accumulation); 2 ranks, 128 micro-batches, one reduce-scatter:
     * 1/2 x (128 x (2G + R) + G) = 1,699,034,173,440 */
    struct gs_workload lit = run(GS_FW_LITGPT, GS_DTYPE_BF16, 1, 1304);
    lit.training.regime = GS_REGIME_BF16_PURE;
    fixture_lora_qv(&lit.training, 8);
    lit.training.gradient_accumulation_steps = 128;
    lit.parallelism.data = 2;
    lit.parallelism.zero_stage = 3;
    lit.parallelism.fsdp = true;
    const uint64_t G = 12960931840ULL;
    assert_int_equal(estimate(&m, &lit).data_parallel_bytes, (128 * (2 * G + R) + G) / 2);
    assert_int_equal(1699034173440ULL, (128 * (2 * G + R) + G) / 2);

    /* Mixtral-8x7B under DDP over 8 ranks: the experts' gradients are reduced over their
     * expert-data-parallel group, data x tensor / expert ranks. Expert 8: a group of one, so
     * only the dense part's all-reduce leaves the GPU, 7/8 x 2 x 2 x dense parameters; expert
     * 4: groups of 2 add 1/2 x 2 x 2 x (45,098,205,184 / 4) */
    const struct gs_model_spec mix = spec(fixture_mixtral_8x7b());
    struct gs_workload moe = run(GS_FW_TRANSFORMERS, GS_DTYPE_BF16, 1, 1024);
    moe.training.regime = GS_REGIME_BF16_PURE;
    moe.parallelism.data = 8;
    moe.parallelism.expert = 8;
    const struct gs_estimate e8 = estimate(&mix, &moe);
    const uint64_t dense = e8.parameters - 45098205184ULL;
    assert_int_equal(e8.data_parallel_bytes, 7 * 4 * dense / 8);
    moe.parallelism.expert = 4;
    assert_int_equal(estimate(&mix, &moe).data_parallel_bytes,
                     7 * 4 * dense / 8 + 4 * (45098205184ULL / 4) / 2);
}

/* torchtitan's FSDP under pipeline parallelism (estimate_training.c
 * fsdp_pipeline_keeps_gathered): apply_fsdp sets reshard_after_forward = not pp_enabled, and
 * the pipelining stage runs every micro-batch's backward with set_reshard_after_backward(False)
 * and set_requires_gradient_sync(False), so a stage keeps all its units gathered and every
 * gradient unsharded until the step's last backward. Llama-2-7B over 2 stages and 2
 * data-parallel ranks, ZeRO stage given as a number (3: FSDP under torchtitan), 4
 * micro-batches; P the most loaded stage's parameters:
 *   backward start: the stage gathered in bf16 (2P) beside the cuBLAS workspace, the
 *     earlier micro-batches' gradients unsharded in fp32 (4P, MixedPrecisionPolicy
 *     reduce_dtype float32);
 *   the optimizer step: the fp32 gradients sharded, 4P / 2;
 *   data-parallel traffic: one gather (2P) and one reduce-scatter (4P) a step, half of each
 *     sent: 3P. */
static void test_torchtitan_pipeline_fsdp(void **state)
{
    (void)state;
    const struct gs_model_spec m = spec(fixture_llama(4096, 32, 32, 32, 11008, 32000, false));
    struct gs_workload w = run(GS_FW_TORCHTITAN, GS_DTYPE_BF16, 1, 2048);
    w.training.recompute = GS_RECOMPUTE_FULL;
    w.training.gradient_accumulation_steps = 4;
    w.parallelism.pipeline = 2;
    w.parallelism.data = 2;
    w.parallelism.zero_stage = 3;
    const struct gs_estimate e = estimate(&m, &w);
    const uint64_t P = e.parameters_per_gpu;
    assert_true(P >= 6738415616ULL / 2 && P < 6738415616ULL / 2 + 131072000ULL);
    const struct gs_peak_moment *start = &e.peak.moments[GS_PHASE_BACKWARD_START];
    assert_int_equal(start->transient, 2 * P + ws);
    assert_int_equal(start->gradients, 4 * P);
    const struct gs_assumption *a = fixture_assumption(&e, "fsdp2_no_sync_gradient_bytes");
    assert_non_null(a);
    assert_int_equal(a->value, 4 * P);
    assert_int_equal(e.peak.moments[GS_PHASE_OPTIMIZER_STEP].gradients, 4 * P / 2);
    assert_int_equal(e.data_parallel_bytes, 3 * P);
    assert_true(e.per_gpu.peak_reserved_bytes >= e.per_gpu.peak_allocated_bytes);
    /* without the pipeline the same FULL_SHARD reshards: the root and two units gathered,
     * each unit's gradient reduce-scattered as it comes */
    w.parallelism.pipeline = 1;
    const struct gs_estimate flat = estimate(&m, &w);
    assert_true(flat.peak.moments[GS_PHASE_BACKWARD_START].transient < 2 * P / 4);
    assert_null(fixture_assumption(&flat, "fsdp2_no_sync_gradient_bytes"));
}

/* A linear-attention or state-space mixer is sized by its projections: a training estimate of a
 * model with one says its scan's saved tensors are not counted (recurrent_scan_not_counted); a
 * model with attention alone does not. */
static void test_recurrent_scan_warning(void **state)
{
    (void)state;
    struct gs_arch arch = fixture_llama(64, 2, 4, 4, 128, 1000, false);
    struct gs_workload w = run(GS_FW_TRANSFORMERS, GS_DTYPE_BF16, 1, 16);
    const struct gs_model_spec plain = spec(arch);
    const struct gs_estimate attention = estimate(&plain, &w);
    assert_false(has_warning(&attention, "recurrent_scan_not_counted"));
    arch.blocks[0].mixer = GS_MIXER_RECURRENT;
    arch.blocks[0].rec.inner = 64;
    arch.blocks[0].rec.in_width = 192;
    arch.blocks[0].rec.conv_channels = 192;
    const struct gs_model_spec hybrid = spec(arch);
    const struct gs_estimate recurrent = estimate(&hybrid, &w);
    assert_true(has_warning(&recurrent, "recurrent_scan_not_counted"));
    assert_false(recurrent.recurrent_kernels_sized);

    /* a Gated DeltaNet under transformers' code is counted by its kernels: fla and causal-conv1d
     * unless asked otherwise (a warning says so), fp32 activations too (fla takes them from 0.4:
     * commit 38cc6191 dropped chunk_gated_delta_rule's float32 assertion) */
    arch.blocks[0].rec = (struct gs_recurrent){.conv_channels = 192,
                                               .conv_kernel = 4,
                                               .state_heads = 4,
                                               .state_rows = 16,
                                               .state_cols = 16,
                                               .in_width = 264,
                                               .inner = 64,
                                               .delta_rule = true,
                                               .scan = GS_SCAN_GATED_DELTA_RULE};
    const struct gs_model_spec gdn = spec(arch);
    const struct gs_estimate fused = estimate(&gdn, &w);
    assert_false(has_warning(&fused, "recurrent_scan_not_counted"));
    assert_true(has_warning(&fused, "recurrent_kernels_assumed"));
    assert_true(fused.recurrent_kernels_sized);
    assert_int_equal(fused.recurrent_kernels, GS_RECURRENT_FUSED);
    w.training.recurrent_kernels = GS_RECURRENT_TORCH;
    w.training.recurrent_kernels_given = true;
    const struct gs_estimate torch = estimate(&gdn, &w);
    assert_false(has_warning(&torch, "recurrent_kernels_assumed"));
    assert_int_equal(torch.recurrent_kernels, GS_RECURRENT_TORCH);
    assert_true(torch.per_gpu.activations_bytes > fused.per_gpu.activations_bytes);
    w.training.recurrent_kernels_given = false;
    w.training.regime = GS_REGIME_FP32;
    const struct gs_estimate fp32 = estimate(&gdn, &w);
    assert_int_equal(fp32.recurrent_kernels, GS_RECURRENT_FUSED);
    assert_true(has_warning(&fp32, "recurrent_kernels_assumed"));
    w.training.recurrent_kernels = GS_RECURRENT_TORCH;
    w.training.recurrent_kernels_given = true;
    const struct gs_estimate fp32_torch = estimate(&gdn, &w);
    assert_true(fp32_torch.per_gpu.activations_bytes > fp32.per_gpu.activations_bytes);
    w.training.recurrent_kernels = GS_RECURRENT_FUSED;
    /* LitGPT runs its own model code, whose scan is not followed */
    w.training.regime = GS_REGIME_BF16_MIXED;
    w.training.framework.framework = GS_FW_LITGPT;
    const struct gs_estimate lit = estimate(&gdn, &w);
    assert_true(has_warning(&lit, "recurrent_scan_not_counted"));
    assert_false(lit.recurrent_kernels_sized);

    /* Jamba's Mamba layers with a config that turns the kernels off (use_mamba_kernels
     * false): the sequential torch scan, many times the kernels' tensors,
     * unless the request asks for the kernels; under autocast over fp32 weights the scan kernel
     * refuses the norms' fp32 B and C */
    const struct gs_model_spec jamba = spec(fixture_arch(
        "%s", "{\"model_type\":\"jamba\",\"hidden_size\":64,\"intermediate_size\":128,"
              "\"num_attention_heads\":4,\"num_key_value_heads\":2,\"num_hidden_layers\":2,"
              "\"attn_layer_period\":2,\"attn_layer_offset\":1,\"num_experts\":1,"
              "\"use_mamba_kernels\":false,\"vocab_size\":1000}"));
    w = run(GS_FW_TRANSFORMERS, GS_DTYPE_BF16, 1, 16);
    const struct gs_estimate off = estimate(&jamba, &w);
    assert_true(has_warning(&off, "recurrent_kernels_config"));
    assert_false(has_warning(&off, "recurrent_scan_not_counted"));
    assert_non_null(strstr(fixture_assumption(&off, "recurrent_kernels")->detail, "slow_forward"));
    assert_int_equal(off.recurrent_kernels, GS_RECURRENT_TORCH);
    w.training.recurrent_kernels = GS_RECURRENT_FUSED;
    w.training.recurrent_kernels_given = true;
    const struct gs_estimate on = estimate(&jamba, &w);
    assert_false(has_warning(&on, "recurrent_kernels_config"));
    assert_false(has_warning(&on, "recurrent_scan_not_counted"));
    assert_non_null(fixture_assumption(&on, "recurrent_kernels"));
    assert_true(on.peak.moments[GS_PHASE_BACKWARD_START].activations <
                off.peak.moments[GS_PHASE_BACKWARD_START].activations);
    w.training.regime = GS_REGIME_AMP;
    const struct gs_estimate amp = estimate(&jamba, &w);
    assert_true(has_warning(&amp, "recurrent_kernels_dtype"));
    assert_true(has_warning(&amp, "recurrent_scan_not_counted"));
}

/* QLoRA under transformers 5.x leaves routed experts 16-bit: the model keeps them as fused 3D
 * parameters, and its router as a bare weight parameter (Qwen3MoeTopKRouter: self.weight =
 * nn.Parameter(...), F.linear), which bitsandbytes' nn.Linear walker skips (bitsandbytes issue
 * #1849); 4.x kept an nn.Linear per expert and a Linear gate, which it quantizes. A small
 * Qwen3-MoE (h 64, 2 layers of 4 experts of 32, SwiGLU): 2 x 4 x 3 x 64 x 32 = 49,152 expert
 * weights and 2 x 64 x 4 = 512 router weights, 49,664: 27,936 B in nf4 (4.5 bits), 99,328 B in
 * bf16: 71,392 B more weights on 5.17, said by the assumption and a warning. */
static void test_qlora_fused_experts(void **state)
{
    (void)state;
    const struct gs_arch arch = fixture_arch(
        "%s", "{\"model_type\":\"qwen3_moe\",\"hidden_size\":64,\"intermediate_size\":128,"
              "\"num_attention_heads\":4,\"num_key_value_heads\":2,\"head_dim\":16,"
              "\"num_hidden_layers\":2,\"num_experts\":4,\"num_experts_per_tok\":2,"
              "\"moe_intermediate_size\":32,\"vocab_size\":1000}");
    const struct gs_model_spec m = spec(arch);
    struct gs_workload w = run(GS_FW_TRANSFORMERS, GS_DTYPE_INT4, 1, 16);
    w.training.method = GS_METHOD_QLORA;
    w.training.method_given = true;
    w.training.double_quant = false;
    /* adapters on the attention alone: on 4.x all_linear would adapt the experts too */
    w.training.lora_target_count = 1;
    strcpy(w.training.lora_targets[0], "q_proj");
    w.training.framework.framework_version = 457;
    const struct gs_estimate v4 = estimate(&m, &w);
    assert_false(has_warning(&v4, "qlora_experts_16bit"));
    w.training.framework.framework_version = 517;
    const struct gs_estimate v5 = estimate(&m, &w);
    assert_true(has_warning(&v5, "qlora_experts_16bit"));
    assert_int_equal(v5.per_gpu.weights_bytes - v4.per_gpu.weights_bytes, 71392);
    assert_int_equal(fixture_assumption(&v5, "qlora_experts_16bit_bytes")->value, 71392);
    /* GPT-OSS kept its experts fused (GptOssExperts) on 4.x too */
    const struct gs_model_spec oss = spec(fixture_arch(
        "%s", "{\"model_type\":\"gpt_oss\",\"hidden_size\":64,\"intermediate_size\":64,"
              "\"num_attention_heads\":4,\"num_key_value_heads\":2,\"head_dim\":16,"
              "\"num_hidden_layers\":2,\"num_local_experts\":4,\"num_experts_per_tok\":2,"
              "\"vocab_size\":1000}"));
    w.training.framework.framework_version = 457;
    const struct gs_estimate oss4 = estimate(&oss, &w);
    assert_true(has_warning(&oss4, "qlora_experts_16bit"));
    w.training.framework.framework_version = 517;
    /* LoRA over a 16-bit base is untouched */
    w.training.method = GS_METHOD_LORA;
    w.weights = GS_DTYPE_BF16;
    const struct gs_estimate lora = estimate(&m, &w);
    assert_false(has_warning(&lora, "qlora_experts_16bit"));
}

/* PEFT's prepare_model_for_kbit_training (peft/utils/other.py) casts every fp16/bf16 parameter
 * that is not a Params4bit to fp32. Llama 2 7B under QLoRA (q, v, r 16, dropout 0.05), 1 x 2,048:
 * the embedding and the untied head, 2 x 32,000 x 4,096, and 65 norms of 4,096 (two a layer and
 * the final one) = 262,410,240 parameters go from 2 to 4 bytes, 524,820,480 B more. Their model
 * then runs in fp32 but for the 4-bit matmuls: the embedding's fp32 output is the residual
 * stream, each fp32 norm keeps it fp32, and bitsandbytes' Linear4bit casts its output back to its
 * input's dtype, so what the layers keep is what an fp32 base keeps under the same adapters (the
 * 4-bit linears keep no input from bitsandbytes 0.43.2 on). Under autocast (regime amp, the
 * Trainer's bf16=True) the fp32 head's F.linear keeps a 16-bit copy of its weight, 2 x 32,000 x
 * 4,096 = 262,144,000 B, as over a base loaded in fp32 (whose layers' linears, not 4-bit, keep
 * theirs too: test_autocast_frozen_weight_copies). A small Qwen3-MoE under 5.x keeps its fused
 * experts 16-bit under QLoRA, so they turn fp32 too: 2 layers x (4 experts x 3 x 64 x 32 + a router
 * of 4 x 64) = 49,664, embedding and head 2 x 1,000 x 64, norms 2 x (64 + 64) + 64: 177,984
 * parameters, 355,968 B more (q_norm and k_norm, 2 x 32 more, count with the attention's
 * parameters, which QLoRA sizes in nf4: a simplification of 64 parameters here,
 * docs/training-memory.md). */
static void test_kbit_prepared(void **state)
{
    (void)state;
    const struct gs_model_spec m = spec(fixture_llama(4096, 32, 32, 32, 11008, 32000, false));
    struct gs_workload w = run(GS_FW_TRANSFORMERS, GS_DTYPE_INT4, 1, 2048);
    fixture_lora_qv(&w.training, 16);
    w.training.method = GS_METHOD_QLORA;
    w.training.lora_dropout_permille = 50;
    w.training.framework.framework_version = 517;
    const struct gs_estimate plain = estimate(&m, &w);
    w.training.kbit_prepared = true;
    const struct gs_estimate prepared = estimate(&m, &w);
    assert_int_equal(prepared.per_gpu.weights_bytes - plain.per_gpu.weights_bytes, 524820480ULL);
    assert_int_equal(fixture_assumption(&prepared, "kbit_prepared_fp32_bytes")->value,
                     524820480ULL);
    assert_true(has_warning(&prepared, "kbit_prepared_fp32_activations"));
    assert_true(has_warning(&prepared, "kbit_prepared_checkpointing"));
    assert_false(has_warning(&plain, "kbit_prepared_checkpointing"));
    struct gs_workload fp32 = w;
    fp32.weights = GS_DTYPE_FP32;
    fp32.training.method = GS_METHOD_LORA;
    fp32.training.kbit_prepared = false;
    const struct gs_estimate fp32_base = estimate(&m, &fp32);
    assert_int_equal(prepared.saved_activation_bytes, fp32_base.saved_activation_bytes);
    assert_true(prepared.saved_activation_bytes > plain.saved_activation_bytes);

    w.training.regime = GS_REGIME_AMP;
    w.training.recompute = GS_RECOMPUTE_FULL;
    w.training.recompute_given = true;
    const struct gs_estimate amp = estimate(&m, &w);
    assert_int_equal(fixture_assumption(&amp, "autocast_weight_copies_bytes")->value, 262144000ULL);
    assert_false(has_warning(&amp, "kbit_prepared_fp32_activations"));
    assert_false(has_warning(&amp, "kbit_prepared_checkpointing"));
    fp32.training.regime = GS_REGIME_AMP;
    fp32.training.recompute = GS_RECOMPUTE_FULL;
    const struct gs_estimate fp32_amp = estimate(&m, &fp32);
    assert_int_equal(amp.saved_activation_bytes, fp32_amp.saved_activation_bytes);
    /* a base loaded in fp32 runs its frozen head the same way */
    assert_int_equal(fixture_assumption(&fp32_amp, "autocast_weight_copies_bytes")->value,
                     262144000ULL);

    const struct gs_model_spec moe = spec(fixture_arch(
        "%s", "{\"model_type\":\"qwen3_moe\",\"hidden_size\":64,\"intermediate_size\":128,"
              "\"num_attention_heads\":4,\"num_key_value_heads\":2,\"head_dim\":16,"
              "\"num_hidden_layers\":2,\"num_experts\":4,\"num_experts_per_tok\":2,"
              "\"moe_intermediate_size\":32,\"vocab_size\":1000}"));
    w.training.lora_target_count = 0;
    w.training.lora_dropout_permille = 0; /* PEFT's ParamWrapper on the experts refuses dropout */
    w.training.kbit_prepared = false;
    const struct gs_estimate moe_plain = estimate(&moe, &w);
    w.training.kbit_prepared = true;
    const struct gs_estimate moe_prepared = estimate(&moe, &w);
    assert_int_equal(moe_prepared.per_gpu.weights_bytes - moe_plain.per_gpu.weights_bytes, 355968);

    /* what it is not: a 16-bit base (the whole model would be fp32), another framework's code */
    struct gs_error err;
    struct gs_estimate e;
    w.weights = GS_DTYPE_BF16;
    w.training.method = GS_METHOD_LORA;
    gs_error_init(&err);
    assert_int_not_equal(gs_estimate_compute(&m, &w, &e, &err), GS_OK);
    assert_string_equal(err.items[0].pointer, "/training/prepare_model_for_kbit_training");
    w.weights = GS_DTYPE_INT4;
    w.training.method = GS_METHOD_QLORA;
    w.training.framework.framework = GS_FW_TORCHTUNE;
    gs_error_init(&err);
    assert_int_not_equal(gs_estimate_compute(&m, &w, &e, &err), GS_OK);
    assert_string_equal(err.items[0].pointer, "/training/prepare_model_for_kbit_training");
}

/* LitGPT computes soft-capped attention by hand, not through SDPA (litgpt/model.py
 * scaled_dot_product_attention: "with softcapping we cannot use SDPA"), so a model with
 * attn_logit_softcapping (Gemma 2) is sized eager under LitGPT, with a warning; transformers'
 * SDPA path drops the cap and stays SDPA. Each score then keeps tanh's output (2 B in bf16),
 * the fp32 softmax (4) and its bf16 copy (2): 8 B, so a layer at 32 tokens less two at 16 keeps
 * 4 heads x (32^2 - 2 x 16^2) x 8 = 16,384 B more (the small Llama, h 64, 4 heads). */
static void test_litgpt_softcap_eager(void **state)
{
    (void)state;
    struct gs_arch arch = fixture_llama(64, 2, 4, 4, 128, 1000, false);
    arch.attn_logit_softcap = true;
    const struct gs_model_spec m = spec(arch);
    struct gs_workload w = run(GS_FW_LITGPT, GS_DTYPE_BF16, 1, 16);
    w.training.regime = GS_REGIME_BF16_PURE;
    const struct gs_estimate lit = estimate(&m, &w);
    assert_int_equal(lit.attn_impl, GS_ATTN_EAGER);
    assert_true(has_warning(&lit, "attention_softcap_eager"));
    w.training.framework.framework = GS_FW_TRANSFORMERS;
    const struct gs_estimate hf = estimate(&m, &w);
    assert_int_equal(hf.attn_impl, GS_ATTN_SDPA);
    assert_false(has_warning(&hf, "attention_softcap_eager"));

    struct gs_parallelism par;
    struct gs_training_knobs knobs;
    fixture_framework_release(&par, &knobs, GS_FW_LITGPT, 0);
    struct gs_framework_rules rules;
    gs_framework_resolve(&knobs, GS_ATTN_EAGER, &rules);
    struct gs_activation_input in = fixture_one_sequence(&m.arch, &par, &rules, 16, false);
    struct gs_activation_result at16, at32;
    assert_true(gs_activation_bytes(&in, &at16));
    in.sequence_length = 32;
    assert_true(gs_activation_bytes(&in, &at32));
    assert_int_equal(at32.per_layer_bytes - 2 * at16.per_layer_bytes, 16384);
}

/* LitGPT, torchtune and torchtitan train their own implementation of the architecture, which
 * has no dropout layer whatever config.json says (litgpt/model.py: no nn.Dropout, SDPA with
 * dropout_p=0.0; torchtune's model builders pass attn_dropout=0.0; torchtitan's models have
 * none): a config with dropout (Phi-2's resid_pdrop 0.1) is sized as the same config without,
 * byte for byte, and says so (model_without_dropout). transformers builds the config's
 * modules: each residual dropout keeps a 1-byte mask, after the attention and after the MLP
 * in every layer: 2 x 2 x 512 tokens x 64 = 131,072 B for the small Llama (h 64, 2 layers) at
 * 512 tokens, LoRA on q and v. The embedding's dropout keeps none there: its input, the frozen
 * embedding's output, needs no gradient (native_dropout saves its mask for the input's
 * backward only); trained in full it keeps one more, 512 x 64 = 32,768 B. */
static void test_framework_model_without_dropout(void **state)
{
    (void)state;
    struct gs_arch plain = fixture_llama(64, 2, 4, 4, 128, 1000, false);
    struct gs_arch dropped = plain;
    dropped.hidden_dropout = dropped.embedding_dropout = true;
    const struct gs_model_spec without = spec(plain), with = spec(dropped);

    struct gs_workload w = litgpt_qv(GS_DTYPE_BF16, GS_METHOD_LORA, 8, 1, 512);
    const struct gs_estimate lit = estimate(&with, &w), lit_plain = estimate(&without, &w);
    assert_true(has_assumption(&lit, "model_without_dropout"));
    assert_false(has_assumption(&lit_plain, "model_without_dropout"));
    assert_int_equal(lit.per_gpu.activations_bytes, lit_plain.per_gpu.activations_bytes);
    assert_int_equal(lit.per_gpu.peak_allocated_bytes, lit_plain.per_gpu.peak_allocated_bytes);

    w.training.framework.framework = GS_FW_TRANSFORMERS;
    const struct gs_estimate hf = estimate(&with, &w), hf_plain = estimate(&without, &w);
    assert_false(has_assumption(&hf, "model_without_dropout"));
    assert_int_equal(hf.per_gpu.activations_bytes - hf_plain.per_gpu.activations_bytes, 131072);
    struct gs_workload trained = run(GS_FW_TRANSFORMERS, GS_DTYPE_BF16, 1, 512);
    trained.training.regime = GS_REGIME_BF16_PURE;
    const struct gs_estimate trained_e = estimate(&with, &trained),
                             full_plain = estimate(&without, &trained);
    assert_int_equal(trained_e.peak.phases[GS_PHASE_BACKWARD_START] -
                         full_plain.peak.phases[GS_PHASE_BACKWARD_START],
                     163840);

    /* every dropout the arch names, full training under torchtitan and torchtune */
    dropped.attention_dropout = dropped.mlp_dropout = true;
    const struct gs_model_spec all = spec(dropped);
    const enum gs_framework own[] = {GS_FW_TORCHTITAN, GS_FW_TORCHTUNE};
    for (size_t i = 0; i < sizeof own / sizeof own[0]; i++) {
        struct gs_workload full = run(own[i], GS_DTYPE_BF16, 2, 256);
        full.training.regime = GS_REGIME_BF16_PURE;
        const struct gs_estimate a = estimate(&all, &full), b = estimate(&without, &full);
        assert_true(has_assumption(&a, "model_without_dropout"));
        assert_int_equal(a.per_gpu.peak_allocated_bytes, b.per_gpu.peak_allocated_bytes);
    }
}

/* Phi-2 (hidden 2560, 32 layers, 32 heads of 80, FFN 10240, vocabulary 51,200): one LayerNorm
 * feeds both branches of its parallel block (LitGPT's shared_attention_norm: n_2 = n_1), so the
 * fused q/k/v linear and the MLP's fc read the same tensor, which both keep once. QLoRA on
 * every linear and the head in LitGPT 0.4 (bitsandbytes 0.42: MatMul4Bit keeps its input on
 * its ctx), LoRA dropout 0.05 (lora_A reads its own copy), 4 x 512 tokens: the previous
 * micro-batch's 4-bit inputs per token and layer are the normed input 2h (q/k/v's and fc's), the
 * attention output proj reads 2h and fc2's input 2 x 10,240: 30,720 B; layer 0's normed input needs
 * no gradient (the frozen embedding and norm), so neither linear keeps it: 30,720 x 2,048 x 32 -
 * 5,120 x 2,048 = 2,002,780,160 B; and the 4-bit head's (Fabric quantizes LitGPT's lm_head too)
 * the final norm's output, 2 x 2,560 x 2,048 = 10,485,760 (its adapter's dropout reads the input
 * and keeps its own copy): 2,013,265,920 (the config hub's row: 13.29 GiB measured). */
static void test_litgpt_shared_norm_input(void **state)
{
    (void)state;
    const struct gs_arch phi2 = fixture_arch(
        "{\"architectures\":[\"PhiForCausalLM\"],\"model_type\":\"phi\",\"hidden_size\":2560,"
        "\"intermediate_size\":10240,\"num_hidden_layers\":32,\"num_attention_heads\":32,"
        "\"num_key_value_heads\":32,\"partial_rotary_factor\":0.4,\"hidden_act\":\"gelu_new\","
        "\"vocab_size\":51200,\"tie_word_embeddings\":false,\"resid_pdrop\":0.1}");
    const struct gs_model_spec m = spec(phi2);
    struct gs_workload w = litgpt_qv(GS_DTYPE_INT4, GS_METHOD_QLORA, 8, 4, 512);
    w.training.framework.framework_version = 4; /* 0.4 */
    w.training.lora_dropout_permille = 50;
    strcpy(w.training.lora_targets[0], "all_linear");
    strcpy(w.training.lora_targets[1], "lm_head");
    const struct gs_estimate e = estimate(&m, &w);
    const struct gs_assumption *previous = fixture_assumption(&e, "previous_graph_bytes");
    assert_non_null(previous);
    assert_int_equal(previous->value, 2013265920ULL);
    assert_true(has_assumption(&e, "model_without_dropout"));
}

/* LitGPT adapts the query, key and value parts of its one attention projection apart
 * (LoRAQKVLinear: lora_query, lora_key, lora_value), which a request names q_proj, k_proj and
 * v_proj whatever the checkpoint calls the fused module. StableLM-Alpha 3B (GPT-NeoX: hidden
 * 4096, 16 layers, 32 heads, query_key_value fused) with LoRA r8 on q and v: lora_A r rows a
 * part (2 x 8 x 4,096) and lora_B the parts' width (8,192 x 8): 131,072 a layer, 2,097,152 in
 * all, the trainable count lit-gpt's resource table prints. zero_pad merges the q and v deltas
 * into the fused width and its index_copy keeps them: 2 B x 8,192 a token and layer; with all
 * three parts adapted zero_pad returns its input ("if all(self.enable_lora): return x") and
 * keeps nothing: 2 x 8,192 x 1,034 x 16 = 271,056,896 B less at 1,034 tokens. transformers'
 * PEFT has no q_proj in this model. */
static void test_litgpt_qkv_parts(void **state)
{
    (void)state;
    const struct gs_arch neox =
        fixture_arch("{\"architectures\":[\"GPTNeoXForCausalLM\"],\"model_type\":\"gpt_neox\","
                     "\"hidden_size\":4096,\"intermediate_size\":16384,\"num_hidden_layers\":16,"
                     "\"num_attention_heads\":32,\"rotary_pct\":0.25,\"vocab_size\":50688,"
                     "\"use_parallel_residual\":true,\"tie_word_embeddings\":false}");
    const struct gs_model_spec m = spec(neox);
    struct gs_workload w = litgpt_qv(GS_DTYPE_BF16, GS_METHOD_LORA, 8, 1, 1034);
    w.training.lora_dropout_permille = 50;
    const struct gs_estimate qv = estimate(&m, &w);
    const struct gs_assumption *adapters = fixture_assumption(&qv, "lora_adapter_parameters");
    assert_non_null(adapters);
    assert_int_equal(adapters->value, 2097152ULL);

    w.training.lora_target_count = 3;
    strcpy(w.training.lora_targets[2], "k_proj");
    const struct gs_estimate qkv = estimate(&m, &w);
    assert_int_equal(qv.per_gpu.activations_bytes - qkv.per_gpu.activations_bytes, 271056896ULL);
    w.training.lora_target_count = 1;
    strcpy(w.training.lora_targets[0], "query_key_value");
    const struct gs_estimate fused = estimate(&m, &w);
    assert_int_equal(fused.per_gpu.peak_allocated_bytes, qkv.per_gpu.peak_allocated_bytes);

    w.training.framework.framework = GS_FW_TRANSFORMERS;
    strcpy(w.training.lora_targets[0], "q_proj");
    struct gs_estimate e;
    struct gs_error err;
    gs_error_init(&err);
    assert_int_equal(gs_estimate_compute(&m, &w, &e, &err), GS_ERR_INVALID);
    assert_string_equal(err.items[0].pointer, "/training/lora/targets");
}

/* LitGPT's and torchtune's MLP run the gate and the up projection as two linears, each its own
 * adapter, where Phi-3's checkpoint fuses them (gate_up_proj), and its attention as LitGPT's one
 * projection with an lora_A of r rows a part (torchtune's as three linears). Phi-3-mini (hidden
 * 3072, 32 layers, 32 heads, FFN 8192), LoRA r8 on every linear: a layer's adapters under LitGPT
 * are q/k/v 8 x (3 x 3,072 + 9,216), o_proj 8 x (3,072 + 3,072), gate and up 2 x 8 x (3,072 +
 * 8,192) and down 8 x (8,192 + 3,072) = 466,944; under PEFT qkv_proj's and gate_up_proj's one
 * adapter each make it 393,216; 32 layers: 14,942,208 and 12,582,912. */
static void test_framework_own_projections(void **state)
{
    (void)state;
    const struct gs_arch phi3 = fixture_arch(
        "{\"architectures\":[\"Phi3ForCausalLM\"],\"model_type\":\"phi3\",\"hidden_size\":3072,"
        "\"intermediate_size\":8192,\"num_hidden_layers\":32,\"num_attention_heads\":32,"
        "\"num_key_value_heads\":32,\"vocab_size\":32064,\"tie_word_embeddings\":false}");
    const struct gs_model_spec m = spec(phi3);
    struct gs_workload w = litgpt_qv(GS_DTYPE_BF16, GS_METHOD_LORA, 8, 4, 512);
    w.training.lora_target_count = 1;
    strcpy(w.training.lora_targets[0], "all_linear");
    const struct gs_estimate lit = estimate(&m, &w);
    assert_true(has_assumption(&lit, "gate_up_apart"));
    assert_int_equal(fixture_assumption(&lit, "lora_adapter_parameters")->value, 14942208ULL);
    w.training.framework.framework = GS_FW_TRANSFORMERS;
    const struct gs_estimate hf = estimate(&m, &w);
    assert_false(has_assumption(&hf, "gate_up_apart"));
    assert_int_equal(fixture_assumption(&hf, "lora_adapter_parameters")->value, 12582912ULL);
    assert_int_equal(lit.parameters, hf.parameters);

    /* torchtune runs q_proj, k_proj and v_proj as linears of their own (qkv_apart): the same
     * 14,942,208 adapters on every linear, and q and v alone name two of them, 32 x 8 x 2 x
     * (3,072 + 3,072) = 3,145,728 */
    w.training.framework.framework = GS_FW_TORCHTUNE;
    const struct gs_estimate tune = estimate(&m, &w);
    assert_true(has_assumption(&tune, "qkv_apart"));
    assert_true(has_assumption(&tune, "gate_up_apart"));
    assert_int_equal(fixture_assumption(&tune, "lora_adapter_parameters")->value, 14942208ULL);
    w.training.lora_target_count = 2;
    strcpy(w.training.lora_targets[0], "q_proj");
    strcpy(w.training.lora_targets[1], "v_proj");
    const struct gs_estimate qv = estimate(&m, &w);
    assert_int_equal(fixture_assumption(&qv, "lora_adapter_parameters")->value, 3145728ULL);
    assert_int_equal(qv.parameters, hf.parameters);

    /* the checkpoint's names still name the parts (GS_MOD_PART): qkv_proj all three under
     * torchtune, 32 x 8 x 3 x (3,072 + 3,072) = 4,718,592; gate_up_proj both halves under
     * LitGPT, 32 x 8 x 2 x (3,072 + 8,192) = 5,767,168 */
    w.training.lora_target_count = 1;
    strcpy(w.training.lora_targets[0], "qkv_proj");
    const struct gs_estimate fused_qkv = estimate(&m, &w);
    assert_int_equal(fixture_assumption(&fused_qkv, "lora_adapter_parameters")->value, 4718592ULL);
    w.training.framework.framework = GS_FW_LITGPT;
    strcpy(w.training.lora_targets[0], "gate_up_proj");
    const struct gs_estimate fused_mlp = estimate(&m, &w);
    assert_int_equal(fixture_assumption(&fused_mlp, "lora_adapter_parameters")->value, 5767168ULL);
}

/* LitGPT's LoRA model before 0.5.5 returns the head's chunks without the final logit
 * soft-capping (lora.py GPT.forward: return [self.lm_head(x_i) for x_i in x.split(...)] comes
 * before it); 0.5.5 caps each chunk (model.py clamp_head, commit 17a58dfa), whose tanh keeps
 * its 16-bit output until the loss's backward: 512 tokens x 32,000 x 2 B = 32,768,000 B more at
 * backward start (a small Llama shape, h 64, 2 layers, soft-capped as Gemma 2's config says). */
static void test_litgpt_uncapped_chunks(void **state)
{
    (void)state;
    struct gs_arch arch = fixture_llama(64, 2, 4, 4, 128, 32000, false);
    arch.final_logit_softcap = true;
    const struct gs_model_spec m = spec(arch);
    struct gs_workload w = litgpt_qv(GS_DTYPE_BF16, GS_METHOD_LORA, 8, 1, 512);
    w.training.framework.framework_version = 4; /* 0.4 */
    const struct gs_estimate uncapped = estimate(&m, &w);
    w.training.framework.framework_version = 5; /* 0.5.5 */
    w.training.framework.framework_patch = 5;
    const struct gs_estimate capped = estimate(&m, &w);
    assert_int_equal(capped.per_gpu.peak_allocated_bytes - uncapped.per_gpu.peak_allocated_bytes,
                     32768000ULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_torchtune_llama32_3b_flags),
        cmocka_unit_test(test_torchtitan_llama31_8b_fsdp),
        cmocka_unit_test(test_torchtitan_rms_norm_by_torch),
        cmocka_unit_test(test_litgpt_unties_head),
        cmocka_unit_test(test_litgpt_previous_graph),
        cmocka_unit_test(test_litgpt_dequantized_weights),
        cmocka_unit_test(test_routed_expert_adapters),
        cmocka_unit_test(test_peft_param_wrappers),
        cmocka_unit_test(test_gemma_v_norm),
        cmocka_unit_test(test_attention_output_gate),
        cmocka_unit_test(test_position_bias_and_fp32_convs),
        cmocka_unit_test(test_short_conv_counted),
        cmocka_unit_test(test_shared_kv_weights_by_release),
        cmocka_unit_test(test_expert_projection_names),
        cmocka_unit_test(test_bare_router),
        cmocka_unit_test(test_latent_moe_router),
        cmocka_unit_test(test_router_topk_releases),
        cmocka_unit_test(test_vision_tower_images),
        cmocka_unit_test(test_gemma4_vision_rows),
        cmocka_unit_test(test_llama4_vision_tiles),
        cmocka_unit_test(test_mllama_text_and_images),
        cmocka_unit_test(test_mllama_cross_attention_images),
        cmocka_unit_test(test_gemma3n_images),
        cmocka_unit_test(test_torchtitan_attention_by_release_and_gpu),
        cmocka_unit_test(test_torchtitan_tensor_parallel_is_sequence_parallel),
        cmocka_unit_test(test_litgpt_qlora_llama2_7b),
        cmocka_unit_test(test_hf_trainer_lora_by_release),
        cmocka_unit_test(test_fsdp1_frozen_gradients),
        cmocka_unit_test(test_fsdp1_no_sync_accumulation),
        cmocka_unit_test(test_litgpt_softcap_eager),
        cmocka_unit_test(test_framework_model_without_dropout),
        cmocka_unit_test(test_litgpt_shared_norm_input),
        cmocka_unit_test(test_litgpt_qkv_parts),
        cmocka_unit_test(test_litgpt_uncapped_chunks),
        cmocka_unit_test(test_framework_own_projections),
        cmocka_unit_test(test_recurrent_scan_warning),
        cmocka_unit_test(test_qlora_fused_experts),
        cmocka_unit_test(test_kbit_prepared),
        cmocka_unit_test(test_fsdp2_no_sync_accumulation),
        cmocka_unit_test(test_data_parallel_bytes),
        cmocka_unit_test(test_torchtitan_pipeline_fsdp),
        cmocka_unit_test(test_loss_bytes_per_logit),
        cmocka_unit_test(test_version_parse),
        cmocka_unit_test(test_peak_moments),
        cmocka_unit_test(test_peak_quantized_head),
        cmocka_unit_test(test_embedding_backward_kernel),
        cmocka_unit_test(test_varying_lengths),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
