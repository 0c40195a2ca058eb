/*
 * test_estimate.c - per-GPU memory figures, each checked against a cited
 * number or a hand computation written out here.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "arch_fixture.h"
#include "estimate_scope.h" /* core/src: the plan search's scope of an estimate */
#include "gs/capability.h"
#include "gs/estimate.h"
#include "gs/gpu.h"
#include "gs/precision.h"
#include "gs/text.h"
#include "gs/units.h"
#include "gs/vllm.h"

#include <string.h>

static struct gs_model_spec raw(uint64_t parameters)
{
    struct gs_model_spec m;
    memset(&m, 0, sizeof(m));
    m.parameters = parameters;
    return m;
}

static struct gs_model_spec llama3_8b(void)
{
    const struct gs_arch arch = fixture_llama(4096, 32, 32, 8, 14336, 128256, false);
    return fixture_spec(&arch);
}

static const uint64_t overhead = GS_CUDA_CONTEXT_BYTES + GS_CUBLAS_WORKSPACE_BYTES;

static struct gs_workload workload(enum gs_mode mode, enum gs_dtype weights)
{
    struct gs_workload w = fixture_workload(mode);
    w.weights = weights;
    return w;
}

/* The issue's acceptance case. fp32 Adam = 4 + 4 + 8 bytes per parameter
 * (DeepSpeed docs/code-docs/source/memory.rst: "16b for fp32: 4b params, 4b
 * grads, 4b momentum and 4b variance"; docs/training-memory.md, Bytes per
 * parameter): 7e9 * 4 = 28e9 weights,
 * 28e9 gradients, 7e9 * 8 = 56e9 optimizer. */
static void test_fp32_adam_7b(void **state)
{
    (void)state;
    struct gs_model_spec m = raw(7000000000ULL);
    struct gs_workload w = workload(GS_MODE_TRAINING, GS_DTYPE_FP32);
    struct gs_estimate e;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    assert_int_equal(e.regime, GS_REGIME_FP32);
    assert_int_equal(e.per_gpu.weights_bytes, 28000000000ULL);
    assert_int_equal(e.per_gpu.gradients_bytes, 28000000000ULL);
    assert_int_equal(e.per_gpu.optimizer_bytes, 56000000000ULL);
    /* The peak (gs/train_peak.h) with transformers 5.x's defaults (the Trainer's fused AdamW,
     * gradients freed between steps) and no activations (no batch given), cuBLAS's
     * 33,554,432 B workspace inside the allocator:
     *   backward start  28e9 + 56e9 + ws               =  84,033,554,432
     *   backward end    + 28e9 gradients               = 112,033,554,432
     *   optimizer step  the same: the fused step makes no whole-model temporaries
     * The first of the equal moments is reported: backward end.
     * reserved: + ceil(112,033,554,432 x 100 / 1000) = 11,203,355,444 (no expandable
     * segments) = 123,236,909,876; the device adds the CUDA context (287,047,680). */
    assert_int_equal(e.peak_phase, GS_PHASE_BACKWARD_END);
    assert_int_equal(e.per_gpu.peak_allocated_bytes, 112033554432ULL);
    assert_int_equal(e.per_gpu.peak_reserved_bytes, 123236909876ULL);
    assert_int_equal(e.per_gpu.overhead_bytes,
                     GS_CUBLAS_WORKSPACE_BYTES + 11203355444ULL + GS_CUDA_CONTEXT_BYTES);
    assert_int_equal(e.per_gpu.total_bytes, 123236909876ULL + GS_CUDA_CONTEXT_BYTES);

    /* a foreach AdamW (torch.optim.AdamW(foreach=True), the Trainer's adamw_torch before
     * 5.x): the step's _foreach_sqrt of exp_avg_sq adds one moment, 28e9:
     *   optimizer step 140,033,554,432; reserved + 14,003,355,444 = 154,036,909,876 */
    w.training.framework.fused_optimizer = GS_KNOB_OFF;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    assert_int_equal(e.peak_phase, GS_PHASE_OPTIMIZER_STEP);
    assert_int_equal(e.per_gpu.peak_allocated_bytes, 140033554432ULL);
    assert_int_equal(e.per_gpu.peak_reserved_bytes, 154036909876ULL);
    assert_int_equal(e.per_gpu.overhead_bytes,
                     28000000000ULL + GS_CUBLAS_WORKSPACE_BYTES + 14003355444ULL +
                         GS_CUDA_CONTEXT_BYTES);
    assert_int_equal(e.per_gpu.total_bytes, 154036909876ULL + GS_CUDA_CONTEXT_BYTES);
    /* each moment by component (training.phases) */
    assert_int_equal(e.peak.moments[GS_PHASE_BACKWARD_START].allocated, 84033554432ULL);
    assert_int_equal(e.peak.moments[GS_PHASE_BACKWARD_END].gradients, 28000000000ULL);
    assert_int_equal(e.peak.moments[GS_PHASE_OPTIMIZER_STEP].transient,
                     28000000000ULL + GS_CUBLAS_WORKSPACE_BYTES);
    assert_int_equal(e.gpu_count, 1);
}

/* Adafactor keeps a factored second moment (transformers optimization.py: exp_avg_sq_row
 * of shape[:-1] and exp_avg_sq_col of shape[:-2] + shape[-1:] for a matrix, exp_avg_sq for a
 * vector), in fp32. A small Llama (h 64, 2 layers, 4 heads of 16, SwiGLU 128, vocabulary
 * 1,000, untied), elements:
 *   per layer q/k/v/o 4 x (64 + 64) = 512, gate and up 2 x (64 + 128) = 384, down 128 + 64 =
 *   192, two RMSNorm vectors 128: 1,216; two layers 2,432
 *   embed_tokens 1,000 + 64, lm_head 64 + 1,000, the final norm 64: 2,192
 *   = 4,624 x 4 bytes = 18,496 (the model has 210,240 parameters: 2 bytes a thousand of them).
 * Its step goes one parameter at a time in fp32 with two full-size temporaries beside the
 * update: the largest parameter (the embedding and the head, 64,000 each) x 4 B x 2 = 512,000,
 * so the step is the peak: weights and gradients 2 x 840,960, states 18,496, 512,000 and the
 * workspace = 2,212,416 + ws. In pure bf16 the parameter and its gradient are copied to fp32
 * first: 64,000 x 4 x 4 = 1,024,000. */
static void test_adafactor_factored_states(void **state)
{
    (void)state;
    const struct gs_arch arch = fixture_llama(64, 2, 4, 4, 128, 1000, false);
    const struct gs_model_spec m = fixture_spec(&arch);
    struct gs_workload w = workload(GS_MODE_TRAINING, GS_DTYPE_FP32);
    w.training.optimizer = GS_OPT_ADAFACTOR;
    struct gs_estimate e;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    assert_int_equal(e.parameters, 210240);
    assert_int_equal(e.per_gpu.optimizer_bytes, 18496);
    assert_int_equal(e.per_gpu.gradients_bytes, 4 * 210240);
    assert_int_equal(e.peak_phase, GS_PHASE_OPTIMIZER_STEP);
    assert_int_equal(e.per_gpu.peak_allocated_bytes, 2212416ULL + GS_CUBLAS_WORKSPACE_BYTES);
    assert_int_equal(e.peak.moments[GS_PHASE_OPTIMIZER_STEP].transient,
                     512000ULL + GS_CUBLAS_WORKSPACE_BYTES);
    w.weights = GS_DTYPE_BF16;
    w.training.regime = GS_REGIME_BF16_PURE;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    assert_int_equal(e.peak.moments[GS_PHASE_OPTIMIZER_STEP].transient,
                     1024000ULL + GS_CUBLAS_WORKSPACE_BYTES);
}

/* Mixed precision, ZeRO paper K = 12 (Rajbhandari et al. 2020, section 3.1):
 * 2 + 2 + 12 = 16 bytes per parameter (docs/training-memory.md, Bytes per
 * parameter). Llama-2-7B (6,738,415,616 params) at 16 B/param is
 * "107.81 GB": 6,738,415,616 * 16 = 107,814,649,856. */
static void test_bf16_mixed_llama2_7b(void **state)
{
    (void)state;
    struct gs_model_spec m = raw(6738415616ULL);
    struct gs_workload w = workload(GS_MODE_TRAINING, GS_DTYPE_BF16);
    struct gs_estimate e;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    assert_int_equal(e.regime, GS_REGIME_BF16_MIXED);
    assert_int_equal(e.per_gpu.weights_bytes, 2 * 6738415616ULL);
    assert_int_equal(e.per_gpu.gradients_bytes, 2 * 6738415616ULL);
    assert_int_equal(e.per_gpu.optimizer_bytes, 12 * 6738415616ULL);
    uint64_t states = e.per_gpu.weights_bytes + e.per_gpu.gradients_bytes + e.per_gpu.optimizer_bytes;
    assert_int_equal(states, 107814649856ULL);
}

/* vLLM's log for Meta-Llama-3-8B (vllm PR #10511, quoted in
 * docs/vllm-kv-budget-research.md, 1.4 (b)): "model weights take 14.96GiB"
 * = 8,030,261,248 * 2 bytes = 16,060,522,496. */
static void test_bf16_inference_weights_match_vllm_log(void **state)
{
    (void)state;
    struct gs_model_spec m = llama3_8b();
    struct gs_workload w = workload(GS_MODE_INFERENCE, GS_DTYPE_BF16);
    struct gs_estimate e;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    assert_int_equal(e.parameters, 8030261248ULL);
    assert_true(e.has_breakdown);
    assert_int_equal(e.per_gpu.weights_bytes, 16060522496ULL);
    /* 14.96 GiB as vLLM prints it (two decimals) */
    assert_int_equal((e.per_gpu.weights_bytes * 100 + GS_GIB / 2) / GS_GIB, 1496);
    assert_int_equal(e.per_gpu.gradients_bytes, 0);
    assert_int_equal(e.per_gpu.optimizer_bytes, 0);
    assert_int_equal(e.per_gpu.total_bytes, 16060522496ULL + overhead);
}

/* By hand: 7e9 params at plain 4 bits = 3.5e9 bytes; int8 is LLM.int8, one
 * byte each plus an fp32 scale per output row, rows taken 4096 wide for a
 * raw count: 7e9 + 4 * ceil(7e9 / 4096) = 7e9 + 6,835,940; an odd count at
 * 4 bits rounds up to whole bytes. */
static void test_quantized_widths(void **state)
{
    (void)state;
    struct gs_model_spec m = raw(7000000000ULL);
    struct gs_workload w = workload(GS_MODE_INFERENCE, GS_DTYPE_INT4);
    struct gs_estimate e;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    assert_int_equal(e.per_gpu.weights_bytes, 3500000000ULL);
    w.weights = GS_DTYPE_INT8;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    assert_int_equal(e.per_gpu.weights_bytes, 7000000000ULL + 6835940ULL);
    bool ovf = false;
    assert_int_equal(gs_dtype_bytes(GS_DTYPE_INT4, 3, &ovf), 2);
    assert_false(ovf);
    /* plain int4 says what it leaves out */
    w.weights = GS_DTYPE_INT4;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    bool warned = false;
    for (size_t i = 0; i < e.warning_count; i++)
        warned |= strcmp(e.warnings[i].code, "quantization_overhead_not_counted") == 0;
    assert_true(warned);
}

static void test_training_quantized_rejected(void **state)
{
    (void)state;
    struct gs_model_spec m = raw(7000000000ULL);
    struct gs_workload w = workload(GS_MODE_TRAINING, GS_DTYPE_INT4);
    struct gs_estimate e;
    struct gs_error err;
    gs_error_init(&err);
    /* a quantized base means adapters, which need the architecture */
    assert_int_equal(gs_estimate_compute(&m, &w, &e, &err), GS_ERR_INVALID);
    assert_string_equal(err.items[0].pointer, "/training/method");
    /* and full training of it is refused outright */
    w.training.method = GS_METHOD_FULL;
    w.training.method_given = true;
    gs_error_init(&err);
    assert_int_equal(gs_estimate_compute(&m, &w, &e, &err), GS_ERR_UNSUPPORTED);
    assert_string_equal(err.items[0].pointer, "/training/method");
    /* with no regime for int4 weights either */
    enum gs_regime r;
    gs_error_init(&err);
    assert_int_equal(gs_regime_for(GS_DTYPE_INT4, &r, &err), GS_ERR_UNSUPPORTED);
    assert_string_equal(err.items[0].pointer, "/precision/weights");
}

static void test_parameter_limits(void **state)
{
    (void)state;
    struct gs_workload w = workload(GS_MODE_TRAINING, GS_DTYPE_FP32);
    struct gs_estimate e;
    struct gs_error err;
    gs_error_init(&err);
    struct gs_model_spec m = raw(0);
    assert_int_equal(gs_estimate_compute(&m, &w, &e, &err), GS_ERR_INVALID);
    assert_string_equal(err.items[0].pointer, "/model/parameters");
    m = raw(GS_PARAMETERS_MAX + 1);
    assert_int_equal(gs_estimate_compute(&m, &w, &e, &err), GS_ERR_RANGE);
    /* at the limit, 16 bytes per parameter still fits 64 bits */
    m = raw(GS_PARAMETERS_MAX);
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    assert_int_equal(e.per_gpu.optimizer_bytes, 8 * GS_PARAMETERS_MAX);
}

static void test_arch_errors_are_prefixed(void **state)
{
    (void)state;
    struct gs_model_spec m = llama3_8b();
    m.arch.blocks[0].attn.heads = 0;
    struct gs_workload w = workload(GS_MODE_INFERENCE, GS_DTYPE_BF16);
    struct gs_estimate e;
    struct gs_error err;
    gs_error_init(&err);
    assert_int_equal(gs_estimate_compute(&m, &w, &e, &err), GS_ERR_INVALID);
    assert_string_equal(err.items[0].pointer, "/model/config/num_attention_heads");
}

/* Every estimate names its assumptions with a source. */
static void test_assumptions_have_sources(void **state)
{
    (void)state;
    struct gs_model_spec m = raw(1000);
    struct gs_workload w = workload(GS_MODE_TRAINING, GS_DTYPE_BF16);
    struct gs_estimate e;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    assert_true(e.assumption_count >= 3);
    for (size_t i = 0; i < e.assumption_count; i++) {
        assert_true(strlen(e.assumptions[i].name) > 0);
        assert_true(strlen(e.assumptions[i].detail) > 0);
        assert_true(strlen(e.assumptions[i].source) > 0);
    }
    bool cuda_named = false;
    for (size_t i = 0; i < e.assumption_count; i++) {
        if (strcmp(e.assumptions[i].name, "cuda_context_bytes") == 0) {
            cuda_named = true;
            assert_true(e.assumptions[i].has_value);
            assert_int_equal(e.assumptions[i].value, 287047680ULL);
        }
    }
    assert_true(cuda_named);
    /* inference carries no fragmentation allowance: exactly context + cuBLAS */
    w.mode = GS_MODE_INFERENCE;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    assert_int_equal(e.per_gpu.overhead_bytes, 287047680ULL + 33554432ULL);
}

/* Fit against H100 SXM's driver-reported 79.22 GiB (85,061,827,297 bytes in
 * the catalog): Llama-3-8B bf16 inference needs 16,060,522,496 + 320,602,112
 * = 16,381,124,608 bytes; headroom = 85,061,827,297 - 16,381,124,608
 * = 68,680,702,689. */
static void test_fit_headroom(void **state)
{
    (void)state;
    struct gs_gpu h100 = {80000000000ULL, 85061827297ULL};
    struct gs_fit fit;
    assert_int_equal(gs_fit_check(16381124608ULL, &h100, &fit, NULL), GS_OK);
    assert_true(fit.fits);
    assert_false(fit.usable_is_marketed);
    assert_int_equal(fit.headroom_bytes, 68680702689LL);
    /* 7e9 fp32 training, 112,320,602,112 bytes: does not fit, negative headroom */
    assert_int_equal(gs_fit_check(112320602112ULL, &h100, &fit, NULL), GS_OK);
    assert_false(fit.fits);
    assert_int_equal(fit.headroom_bytes, 85061827297LL - 112320602112LL);
    /* unknown usable capacity falls back to the marketed one and says so */
    struct gs_gpu a100 = {80000000000ULL, 0};
    assert_int_equal(gs_fit_check(80000000000ULL, &a100, &fit, NULL), GS_OK);
    assert_true(fit.usable_is_marketed);
    assert_true(fit.fits);
    assert_int_equal(fit.headroom_bytes, 0);
    assert_int_equal(gs_fit_check(UINT64_MAX, &a100, &fit, NULL), GS_ERR_RANGE);
}

static void test_precision_names(void **state)
{
    (void)state;
    enum gs_dtype d;
    const char *names[] = {"fp32", "bf16", "fp16", "int8", "int4"};
    const unsigned bits[] = {32, 16, 16, 8, 4};
    for (int i = 0; i < 5; i++) {
        assert_true(gs_dtype_parse(names[i], &d));
        assert_int_equal(d, i);
        assert_int_equal(gs_dtype_bits(d), bits[i]);
        assert_string_equal(gs_dtype_name(d), names[i]);
    }
    assert_false(gs_dtype_parse("fp64", &d));
    assert_true(gs_dtype_is_quantized(GS_DTYPE_INT4));
    assert_false(gs_dtype_is_quantized(GS_DTYPE_BF16));
}

static void test_checked_arithmetic(void **state)
{
    (void)state;
    bool ovf = false;
    assert_int_equal(gs_mul(UINT64_MAX / 2, 2, &ovf), UINT64_MAX - 1);
    assert_false(ovf);
    assert_int_equal(gs_mul(UINT64_MAX / 2 + 1, 2, &ovf), UINT64_MAX);
    assert_true(ovf);
    ovf = false;
    assert_int_equal(gs_add(UINT64_MAX, 1, &ovf), UINT64_MAX);
    assert_true(ovf);
    assert_int_equal(gs_div_ceil(7, 2), 4);
    assert_int_equal(gs_div_ceil(8, 2), 4);
    /* doubles to bytes: truncated, 0 below 1, saturated from 2^64 on */
    assert_int_equal(gs_bytes_from_double(481036337152.75), 481036337152ULL);
    assert_int_equal(gs_bytes_from_double(-3.0), 0);
    assert_int_equal(gs_bytes_from_double(18446744073709549568.0), UINT64_MAX);
    assert_int_equal(gs_bytes_from_double(18446744073709549568.0 / 2), 9223372036854774784ULL);
    assert_int_equal(gs_bytes_from_double(1e30), UINT64_MAX);
}

static void test_edit_distance(void **state)
{
    (void)state;
    assert_int_equal(gs_edit_distance("kitten", "sitting"), 3);
    assert_int_equal(gs_edit_distance("MODEL", "model"), 0);
    assert_int_equal(gs_edit_distance("", "abc"), 3);
    /* tokens: case, separators, the hub organisation and variant words aside */
    struct gs_token_match t = gs_text_token_match("meta-llama/Llama-3.1-8B-Instruct", "llama-3.1-8b");
    assert_true(t.valid && t.exact);
    t = gs_text_token_match("llama3.1 8b", "llama-3.1-8b");
    assert_true(t.exact);
    /* a size typed must match: 70b is not 8b */
    t = gs_text_token_match("llama-3.1-70b-instruct", "llama-3.1-8b");
    assert_false(t.valid);
    /* "a100" is not "a10", "h100" stays one token */
    assert_false(gs_text_token_match("a100", "a10").valid);
    t = gs_text_token_match("H100 80GB", "h100-sxm-80gb");
    assert_true(t.valid && !t.exact);
    assert_int_equal(t.extra, 1);
    assert_int_equal(t.score, 2 * 2 - 0 - 1);
    assert_true(gs_text_token_match("H100 80GB", "h100").covered);
    /* a shared number alone is no match ("r1" against "bloom-7b1") */
    assert_false(gs_text_token_match("deepseek-r1", "bloom-7b1").valid);
    assert_true(gs_text_is_close("modle", "model", NULL));
    assert_true(gs_text_is_close("h100", "h100-sxm-80gb", NULL)); /* prefix */
    assert_false(gs_text_is_close("precision", "gpu", NULL));
    char long_word[100];
    memset(long_word, 'a', sizeof(long_word) - 1);
    long_word[99] = '\0';
    assert_int_equal(gs_edit_distance(long_word, "a"), (size_t)-1);
}

/* Serving splits layers as vLLM's get_pp_indices does, so DeepSeek-V3's 61
 * layers run on 2 stages (31 + 30): the first holds layers 0-30 (3 dense,
 * 28 MoE) and the embedding, the second 30 MoE layers, the final norm and
 * the head. Per stage in bf16 at TP 1 (parameter counts from the
 * description): the most loaded GPU is the second, its 30 MoE layers
 * outweighing the first stage's 28 MoE and 3 dense layers, each with its
 * router's 256 correction-bias values (a buffer, not a parameter) at 4 bytes. Training
 * places the layers as its framework does (below). */
static void test_uneven_pipeline_stages(void **state)
{
    (void)state;
    const struct gs_arch arch = fixture_deepseek_v3();
    const struct gs_model_spec m = fixture_spec(&arch);
    struct gs_workload w = workload(GS_MODE_INFERENCE, GS_DTYPE_BF16);
    w.parallelism.pipeline = 2;
    struct gs_estimate e;
    struct gs_error err;
    gs_error_init(&err);
    assert_int_equal(gs_estimate_compute(&m, &w, &e, &err), GS_OK);
    assert_int_equal(e.gpu_count, 2);
    /* layer sizes from the count: every MoE layer is the same, so is every dense one */
    const struct gs_param_count c = e.params;
    const uint64_t moe_layer = (c.total - c.embedding - c.lm_head - 7168 -
                                3 * (c.attention / 61 + 3 * 7168ULL * 18432 + 2 * 7168)) / 58;
    const uint64_t dense_layer = c.attention / 61 + 3 * 7168ULL * 18432 + 2 * 7168;
    const uint64_t first = 3 * dense_layer + 28 * moe_layer + c.embedding;
    const uint64_t last = 30 * moe_layer + 7168 + c.lm_head;
    assert_true(last > first);
    assert_int_equal(e.per_gpu.weights_bytes, 2 * last + 30 * 256 * 4);
    /* Three stages split the 61 layers by the engine's rule (gs_workload_serving_stages): vLLM's
     * get_pp_indices 20, 21, 20 (the remainder to the stages before the last), TensorRT-LLM's
     * mapping.py pp_layers 21, 20, 20 (torch.tensor_split: to the first stages), a listed
     * partition as listed. Each stage's bytes by hand: bf16 parameters, and the fp32 routing
     * bias (256 x 4 bytes) of each MoE layer; the most loaded GPU counts. */
    const uint64_t vllm3[3] = {2 * (3 * dense_layer + 17 * moe_layer + c.embedding) + 17 * 1024,
                               2 * 21 * moe_layer + 21 * 1024,
                               2 * (20 * moe_layer + 7168 + c.lm_head) + 20 * 1024};
    const uint64_t trt3[3] = {2 * (3 * dense_layer + 18 * moe_layer + c.embedding) + 18 * 1024,
                              2 * 20 * moe_layer + 20 * 1024,
                              2 * (20 * moe_layer + 7168 + c.lm_head) + 20 * 1024};
    uint64_t vllm_most = 0, trt_most = 0;
    for (size_t k = 0; k < 3; k++) {
        vllm_most = vllm3[k] > vllm_most ? vllm3[k] : vllm_most;
        trt_most = trt3[k] > trt_most ? trt3[k] : trt_most;
    }
    w.parallelism.pipeline = 3;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    assert_int_equal(e.per_gpu.weights_bytes, vllm_most);
    assert_int_equal(e.stages.split, GS_SPLIT_VLLM);
    w.serving.engine.engine = GS_ENGINE_TENSORRT_LLM;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    assert_int_equal(e.per_gpu.weights_bytes, trt_most);
    assert_true(trt_most != vllm_most);
    w.serving.engine.engine = GS_ENGINE_VLLM; /* VLLM_PP_LAYER_PARTITION=21,20,20 */
    w.parallelism.stages = gs_stage_rule(GS_SPLIT_GIVEN);
    w.parallelism.stages.given_count = 3;
    w.parallelism.stages.given[0] = 21;
    w.parallelism.stages.given[1] = 20;
    w.parallelism.stages.given[2] = 20;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    assert_int_equal(e.per_gpu.weights_bytes, trt_most);
    w.parallelism.stages.given[2] = 19; /* 60 of 61 layers */
    gs_error_init(&err);
    assert_int_equal(gs_estimate_compute(&m, &w, &e, &err), GS_ERR_INVALID);
    assert_string_equal(err.items[0].pointer, "/parallelism/stage_layers");
    /* Training splits as the framework does (gs_workload_stage_split). Two stages: Megatron-LM
     * (and a request naming no framework) puts 30 layers on the first (3 dense, 27 MoE) and 31
     * on the last (--decoder-first/last-pipeline-num-layers 30, 31); torchtitan counts the
     * embedding and the head as a layer each, 63 slots: 31 layers (3 dense, 28 MoE) and 30.
     * The parameters of the most loaded GPU (buffers are not parameters; the final norm, outside
     * the layers, is spread over the stages): */
    w = workload(GS_MODE_TRAINING, GS_DTYPE_BF16);
    w.parallelism.pipeline = 2;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    assert_int_equal(e.parameters_per_gpu, 31 * moe_layer + 7168 / 2 + c.lm_head);
    assert_true(31 * moe_layer + c.lm_head > 3 * dense_layer + 27 * moe_layer + c.embedding);
    assert_int_equal(e.stage_layers, 61);
    assert_int_equal(e.stages.split, GS_SPLIT_MEGATRON);
    w.training.framework.framework = GS_FW_TORCHTITAN;
    w.training.framework.framework_given = true;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    assert_int_equal(e.parameters_per_gpu, 30 * moe_layer + 7168 / 2 + c.lm_head);
    assert_true(30 * moe_layer + c.lm_head > 3 * dense_layer + 28 * moe_layer + c.embedding);
    /* eight Megatron stages: 6, then 8 on each middle stage, 7; the middle ones count */
    w.training.framework.framework = GS_FW_MEGATRON;
    w.parallelism.pipeline = 8;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    assert_int_equal(e.parameters_per_gpu, 8 * moe_layer + 7168 / 8); /* the final norm's share */
    /* a listed partition (parallelism.stage_layers) places exactly its counts: 31 and 30 is
     * torchtitan's split, so its most loaded GPU; an embedding-only first stage and a head-only
     * last one around 30 and 31 leave the 31 MoE layers alone on a GPU, with a quarter of the
     * final norm */
    w.parallelism.pipeline = 2;
    w.parallelism.stages = gs_stage_rule(GS_SPLIT_GIVEN);
    w.parallelism.stages.given_count = 2;
    w.parallelism.stages.given[0] = 31;
    w.parallelism.stages.given[1] = 30;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    assert_int_equal(e.parameters_per_gpu, 30 * moe_layer + 7168 / 2 + c.lm_head);
    assert_int_equal(e.stages.split, GS_SPLIT_GIVEN);
    w.parallelism.pipeline = 4;
    w.parallelism.stages.given_count = 4;
    const uint16_t ends[4] = {0, 30, 31, 0};
    memcpy(w.parallelism.stages.given, ends, sizeof(ends));
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    assert_int_equal(e.parameters_per_gpu, 31 * moe_layer + 7168 / 4);
    w.parallelism.stages.given[2] = 30; /* 60 of the 61 layers */
    gs_error_init(&err);
    assert_int_equal(gs_estimate_compute(&m, &w, &e, &err), GS_ERR_INVALID);
    assert_string_equal(err.items[0].pointer, "/parallelism/stage_layers");
    w.parallelism.stages.given[2] = 31;
    w.training.framework.framework = GS_FW_TORCHTUNE; /* no schedule takes one */
    gs_error_init(&err);
    assert_int_equal(gs_estimate_compute(&m, &w, &e, &err), GS_ERR_INVALID);
    assert_string_equal(err.items[0].pointer, "/parallelism/stage_layers");
    /* Megatron-LM's DeepSeek-V3 layout at pipeline 16 in 2 chunks ("Et*3|(tt|)*29,m|L",
     * docs/user-guide/features/pipeline_parallel_layout.md): 32 virtual stages, 3 then 2 layers
     * each, the last two none. Stage 0 holds layers 0-2 (dense) and 33-34 with the embedding,
     * stages 1-13 four MoE layers, 14 and 15 two: four MoE layers and a sixteenth of the final
     * norm are the most. Under the rule the 61 layers take 3, 4 x 14, 2 (Megatron-LM's ends), and
     * 3 does not fall into 2 chunks. */
    w.training.framework.framework = GS_FW_MEGATRON;
    w.training.gradient_accumulation_steps = 16;
    w.parallelism.pipeline = 16;
    w.parallelism.stages = gs_stage_rule(GS_SPLIT_GIVEN);
    w.parallelism.stages.chunks = 2;
    w.parallelism.stages.given_count = 32;
    w.parallelism.stages.given[0] = 3;
    for (size_t j = 1; j < 30; j++)
        w.parallelism.stages.given[j] = 2;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    assert_int_equal(e.parameters_per_gpu, 4 * moe_layer + 7168 / 16);
    assert_int_equal(gs_stage_chunks(&e.stages), 2);
    const struct gs_stage_plan layout = w.parallelism.stages;
    w.parallelism.stages = gs_stage_rule(GS_SPLIT_MEGATRON);
    w.parallelism.stages.chunks = 2;
    gs_error_init(&err);
    assert_int_equal(gs_estimate_compute(&m, &w, &e, &err), GS_ERR_INVALID);
    assert_string_equal(err.items[0].pointer, "/parallelism/virtual_stages");
    /* the schedule's groups of 16 micro-batches; Megatron-LM's alone */
    w.parallelism.stages = layout;
    w.training.gradient_accumulation_steps = 24;
    gs_error_init(&err);
    assert_int_equal(gs_estimate_compute(&m, &w, &e, &err), GS_ERR_INVALID);
    assert_string_equal(err.items[0].pointer, "/training/gradient_accumulation_steps");
    w.training.gradient_accumulation_steps = 32;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    /* torchtitan lists the same 32 model parts (module_fqns_per_model_part) for its
     * Interleaved1F1B: the same most loaded GPU; its schedule runs 35 micro-batches in 2
     * rounds only if they are equal (torch's ScheduleInterleaved1F1B), and no other framework
     * has an interleaved schedule */
    w.training.framework.framework = GS_FW_TORCHTITAN;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    assert_int_equal(e.parameters_per_gpu, 4 * moe_layer + 7168 / 16);
    w.training.gradient_accumulation_steps = 35;
    gs_error_init(&err);
    assert_int_equal(gs_estimate_compute(&m, &w, &e, &err), GS_ERR_INVALID);
    assert_string_equal(err.items[0].pointer, "/training/gradient_accumulation_steps");
    w.training.gradient_accumulation_steps = 32;
    w.training.framework.framework = GS_FW_DEEPSPEED;
    w.parallelism.stages = gs_stage_rule(GS_SPLIT_MEGATRON); /* its own split, in 2 chunks */
    w.parallelism.stages.chunks = 2;
    gs_error_init(&err);
    assert_int_equal(gs_estimate_compute(&m, &w, &e, &err), GS_ERR_INVALID);
    assert_string_equal(err.items[0].pointer, "/parallelism/virtual_stages");
    w.training.framework.framework = GS_FW_MEGATRON;
    w.parallelism.pipeline = 1;
    w.parallelism.stages = gs_stage_rule(GS_SPLIT_MEGATRON);
    w.parallelism.stages.chunks = 2;
    gs_error_init(&err);
    assert_int_equal(gs_estimate_compute(&m, &w, &e, &err), GS_ERR_INVALID);
    assert_string_equal(err.items[0].pointer, "/parallelism/virtual_stages");
    w.training.gradient_accumulation_steps = 1;
    w.parallelism.stages = gs_stage_rule(GS_SPLIT_DIVIDES);
    /* a framework without a splitter of its own needs the stages to divide the layers */
    w.training.framework.framework = GS_FW_TORCHTUNE;
    w.parallelism.pipeline = 3;
    gs_error_init(&err);
    assert_int_equal(gs_estimate_compute(&m, &w, &e, &err), GS_ERR_INVALID);
    assert_string_equal(err.items[0].pointer, "/parallelism/pipeline");
    /* nor can serving run more stages than layers */
    w = workload(GS_MODE_INFERENCE, GS_DTYPE_BF16);
    w.parallelism.pipeline = 62;
    gs_error_init(&err);
    assert_int_equal(gs_estimate_compute(&m, &w, &e, &err), GS_ERR_INVALID);
    assert_string_equal(err.items[0].pointer, "/parallelism/pipeline");
}

/* Routed experts over expert x expert_tensor ranks (gs_workload_expert_tensor), DeepSeek-V3
 * (256 experts) trained at tensor 8. torchtitan keeps experts whole (its experts' mesh has no
 * tensor axis), so a GPU holds its dense share D and every routed expert X. Megatron-LM splits
 * each expert over the tensor ranks by default (arguments.py: expert_tensor_parallel_size =
 * tensor_model_parallel_size), as transformers' tensor-parallel plan does: D + X/8. With 8
 * expert ranks transformers keeps experts whole (X/8 each); Megatron-LM's default would need
 * 8 x 8 ranks a stage (parallel_state.py), so tensor 8 alone is refused and tensor 8 x data 8
 * gives each GPU X/64. Sharded states follow the expert-data-parallel group: tensor x data /
 * (expert x expert_tensor). */
static void test_expert_tensor_split(void **state)
{
    (void)state;
    const struct gs_arch arch = fixture_deepseek_v3();
    const struct gs_model_spec m = fixture_spec(&arch);
    struct gs_workload w = workload(GS_MODE_TRAINING, GS_DTYPE_BF16);
    w.parallelism.tensor = 8;
    w.training.framework.framework_given = true;
    w.training.framework.framework = GS_FW_TORCHTITAN;
    struct gs_estimate e;
    struct gs_error err;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    assert_int_equal(e.expert_tensor, 1);
    const uint64_t experts = e.params.experts;
    assert_true(experts > 600000000000ULL); /* 58 MoE layers x 256 x 3 x 7168 x 2048 and more */
    const uint64_t dense = e.parameters_per_gpu - experts;
    static const enum gs_framework splitting[] = {GS_FW_MEGATRON, GS_FW_TRANSFORMERS,
                                                  GS_FW_TORCHTUNE};
    for (size_t i = 0; i < 3; i++) {
        w.training.framework.framework = splitting[i];
        assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
        assert_int_equal(e.expert_tensor, 8);
        assert_int_equal(e.parameters_per_gpu, dense + gs_div_ceil(experts, 8));
    }
    w.training.framework.framework_given = false; /* transformers' defaults */
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    assert_int_equal(e.expert_tensor, 8);
    w.training.framework.framework = GS_FW_DEEPSPEED; /* AutoTP leaves 3-D experts whole */
    w.training.framework.framework_given = true;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    assert_int_equal(e.parameters_per_gpu, dense + experts);
    /* expert parallelism over the tensor ranks */
    w.training.framework.framework = GS_FW_TRANSFORMERS;
    w.parallelism.expert = 8;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    assert_int_equal(e.expert_tensor, 1);
    assert_int_equal(e.parameters_per_gpu, dense + gs_div_ceil(experts, 8));
    w.training.framework.framework = GS_FW_MEGATRON;
    gs_error_init(&err);
    assert_int_equal(gs_estimate_compute(&m, &w, &e, &err), GS_ERR_INVALID);
    assert_string_equal(err.items[0].pointer, "/parallelism/expert");
    w.parallelism.data = 8;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    assert_int_equal(e.expert_tensor, 8);
    assert_int_equal(e.parameters_per_gpu, dense + gs_div_ceil(experts, 64));
    w.parallelism.expert_tensor = 1; /* --expert-tensor-parallel-size 1 */
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    assert_int_equal(e.expert_tensor, 1);
    assert_int_equal(e.parameters_per_gpu, dense + gs_div_ceil(experts, 8));
    /* ZeRO-1, Adam under bf16 mixed precision (12 bytes a parameter: fp32 master, m, v): the
     * dense states over the 8 data ranks; expert 4 x expert_tensor 2 leaves each expert shard
     * 64 / 8 = 8 expert-data-parallel ranks */
    w.parallelism.expert = 4;
    w.parallelism.expert_tensor = 2;
    w.parallelism.zero_stage = 1;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    const uint64_t mine = gs_div_ceil(experts, 8);
    assert_int_equal(e.parameters_per_gpu, dense + mine);
    assert_int_equal(e.per_gpu.optimizer_bytes,
                     gs_div_ceil(12 * dense, 8) + gs_div_ceil(12 * mine, 8));
    /* Activations: with each expert over r tensor ranks the grouped MLP keeps its group's
     * all-gathered routed tokens (token_dispatcher.py gather_from_sequence_parallel_region):
     * one sequence of 4,096 tokens at tensor 8 (sequence parallel) keeps 8 x 2 x 4,096 x 7,168 /
     * 8 = 58,720,256 bytes of top-8 copies a MoE layer at r = 1, r times that at r; over the 58
     * MoE layers, r = 8 keeps 58 x 7 x 58,720,256 = 23,840,423,936 bytes more */
    w.parallelism.expert = 8;
    w.parallelism.zero_stage = 0;
    w.parallelism.sequence_parallel = true;
    w.parallelism.sequence_parallel_given = true;
    w.training.batch_size = 1;
    w.training.sequence_length = 4096;
    w.training.recompute = GS_RECOMPUTE_SELECTIVE;
    w.parallelism.expert_tensor = 1;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    const uint64_t whole_experts = e.saved_activation_bytes;
    w.parallelism.expert_tensor = 8;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    assert_int_equal(e.saved_activation_bytes - whole_experts, 23840423936ULL);
    w.training.batch_size = 0;
    w.training.sequence_length = 0;
    w.parallelism.expert = 4;
    w.parallelism.expert_tensor = 2;
    /* torchtitan has no expert tensor parallelism to ask for */
    w.training.framework.framework = GS_FW_TORCHTITAN;
    gs_error_init(&err);
    assert_int_equal(gs_estimate_compute(&m, &w, &e, &err), GS_ERR_INVALID);
    assert_string_equal(err.items[0].pointer, "/parallelism/expert_tensor");
    /* nor a grid it cannot fill: 4 x 4 into tensor 8 x data 1 */
    w.training.framework.framework = GS_FW_MEGATRON;
    w.parallelism.data = 1;
    w.parallelism.expert_tensor = 4;
    gs_error_init(&err);
    assert_int_equal(gs_estimate_compute(&m, &w, &e, &err), GS_ERR_INVALID);
    assert_string_equal(err.items[0].pointer, "/parallelism/expert");
}

/* Megatron-LM trains a MoE model at tensor > 1 only with sequence parallelism
 * (moe_layer.py MoELayer.forward raises without it): left unsaid it is on, said off it is a
 * 400; a dense model, or transformers' tensor-parallel plan, keeps the request's default (off).
 * With it on, each rank keeps its 1/t of the residual stream's saved tensors: the same request
 * keeps fewer activation bytes than sequence parallelism said off under transformers. */
static void test_megatron_moe_sequence_parallel(void **state)
{
    (void)state;
    const struct gs_arch arch = fixture_deepseek_v3();
    const struct gs_model_spec m = fixture_spec(&arch);
    struct gs_workload w = workload(GS_MODE_TRAINING, GS_DTYPE_BF16);
    w.parallelism.tensor = 8;
    w.parallelism.expert = 8;
    w.parallelism.data = 8;
    w.parallelism.expert_tensor = 1;
    w.training.batch_size = 1;
    w.training.sequence_length = 4096;
    w.training.framework.framework_given = true;
    w.training.framework.framework = GS_FW_MEGATRON;
    struct gs_estimate e;
    struct gs_error err;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    assert_true(e.sequence_parallel);
    bool named = false;
    for (size_t i = 0; i < e.assumption_count; i++)
        named |= strcmp(e.assumptions[i].name, "sequence_parallel") == 0;
    assert_true(named);
    const uint64_t sequence_parallel = e.saved_activation_bytes;
    w.parallelism.sequence_parallel_given = true; /* said on: the same */
    w.parallelism.sequence_parallel = true;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    assert_int_equal(e.saved_activation_bytes, sequence_parallel);
    w.parallelism.sequence_parallel = false; /* said off: Megatron-LM refuses */
    gs_error_init(&err);
    assert_int_equal(gs_estimate_compute(&m, &w, &e, &err), GS_ERR_INVALID);
    assert_string_equal(err.items[0].pointer, "/parallelism/sequence_parallel");
    w.training.framework.framework = GS_FW_TRANSFORMERS; /* no such rule */
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    assert_false(e.sequence_parallel);
    assert_true(e.saved_activation_bytes > sequence_parallel);
    w.parallelism.sequence_parallel_given = false;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    assert_false(e.sequence_parallel);
    /* a dense model under Megatron-LM: --sequence-parallel stays the request's (off) */
    const struct gs_arch dense = fixture_llama(8192, 80, 64, 8, 28672, 128256, false);
    const struct gs_model_spec dm = fixture_spec(&dense);
    w.training.framework.framework = GS_FW_MEGATRON;
    w.parallelism.expert = 1;
    assert_int_equal(gs_estimate_compute(&dm, &w, &e, NULL), GS_OK);
    assert_false(e.sequence_parallel);
}

/* A plan search asks for its layouts' estimates within a scope (estimate_scope.h, internal to
 * the core) with fitting_only: an estimate whose weights
 * alone leave the engine no KV cache stops at the verdict. Llama-3-70B
 * (bf16 weights 141.1 GB) at tensor degrees 1-8 and 2 pipeline stages, on a
 * 24 GB and an 80 GB GPU, under each engine: the verdict is always the full
 * estimate's, every layout that holds the batch gets the full figures, and
 * the cut is taken where the weights exceed the GPU. */
static void test_fitting_only_verdicts(void **state)
{
    (void)state;
    const struct gs_estimate_scope figures = {.figures_only = true};
    const struct gs_estimate_scope fitting_scope = {.figures_only = true, .fitting_only = true};
    const struct gs_arch arch = fixture_llama(8192, 80, 64, 8, 28672, 128256, false);
    const struct gs_model_spec m = fixture_spec(&arch);
    static const enum gs_engine engines[] = {GS_ENGINE_VLLM, GS_ENGINE_SGLANG, GS_ENGINE_TGI,
                                             GS_ENGINE_TENSORRT_LLM, GS_ENGINE_GENERIC};
    static const uint64_t gpus[] = {24000000000ULL, 85899345920ULL};
    size_t cut = 0, held = 0;
    for (size_t e = 0; e < sizeof(engines) / sizeof(engines[0]); e++) {
        for (size_t g = 0; g < 2; g++) {
            for (uint64_t t = 1; t <= 8; t *= 2) {
                for (uint64_t p = 1; p <= 2; p++) {
                    if (p > 1 && engines[e] == GS_ENGINE_TGI)
                        continue; /* TGI runs no pipeline stages */
                    struct gs_workload w = workload(GS_MODE_INFERENCE, GS_DTYPE_BF16);
                    w.parallelism.tensor = t;
                    w.parallelism.pipeline = p;
                    w.serving.present = true;
                    w.serving.batch_size = 8;
                    w.serving.context_length = 8192;
                    w.serving.engine.engine = engines[e];
                    w.gpu.total_bytes = gpus[g];
                    struct gs_estimate full, fitting;
                    assert_int_equal(gs_estimate_compute_scoped(&m, &w, &figures, &full, NULL),
                                     GS_OK);
                    assert_int_equal(gs_estimate_compute_scoped(&m, &w, &fitting_scope, &fitting,
                                                                NULL),
                                     GS_OK);
                    assert_true(fitting.has_serving && fitting.serving.has_budget);
                    assert_int_equal(fitting.serving.starts, full.serving.starts);
                    assert_int_equal(fitting.serving.holds_batch, full.serving.holds_batch);
                    if (full.serving.holds_batch) {
                        held++;
                        assert_memory_equal(&fitting.per_gpu, &full.per_gpu, sizeof(full.per_gpu));
                        assert_int_equal(fitting.serving.budget.kv_bytes, full.serving.budget.kv_bytes);
                        assert_int_equal(fitting.serving.max_concurrency, full.serving.max_concurrency);
                    }
                    const uint64_t most = full.per_gpu.weights_bytes;
                    if (most > gpus[g]) {
                        cut++;
                        assert_string_equal(fitting.serving.binding, full.serving.binding);
                        assert_int_equal(fitting.serving.budget.activation_bytes, 0);
                        assert_true(full.serving.budget.activation_bytes > 0 ||
                                    engines[e] == GS_ENGINE_SGLANG);
                    }
                }
            }
        }
    }
    /* per engine: on 24 GB TP 1, 2, 4 with one stage (141.1, 70.6, 35.3 GB per GPU) and TP
     * 1, 2 with two; on 80 GiB TP 1 with one (TGI: the two-stage layouts are not sized) */
    assert_int_equal(cut, 5 * 6 - 2);
    assert_true(held > 0);
    /* vLLM with the pool given (--kv-cache-memory-bytes, 5 GB): the weights must fit beside
     * it - on 24 GB TP 8 (17.6 GB of weights, 22.6 with the pool) does; TP 4 (35.3 GB of
     * weights) is cut */
    size_t starts = 0;
    for (uint64_t t = 1; t <= 8; t *= 2) {
        struct gs_workload w = workload(GS_MODE_INFERENCE, GS_DTYPE_BF16);
        w.parallelism.tensor = t;
        w.serving.present = true;
        w.serving.batch_size = 1;
        w.serving.context_length = 8192;
        w.serving.engine.engine = GS_ENGINE_VLLM;
        w.serving.engine.has_kv_cache_memory_bytes = true;
        w.serving.engine.kv_cache_memory_bytes = 5000000000ULL;
        w.gpu.total_bytes = gpus[0];
        struct gs_estimate full, fitting;
        assert_int_equal(gs_estimate_compute_scoped(&m, &w, &figures, &full, NULL), GS_OK);
        assert_int_equal(gs_estimate_compute_scoped(&m, &w, &fitting_scope, &fitting, NULL),
                         GS_OK);
        assert_int_equal(fitting.serving.starts, full.serving.starts);
        assert_int_equal(fitting.serving.holds_batch, full.serving.holds_batch);
        starts += full.serving.starts;
    }
    assert_int_equal(starts, 1);
}

/* layout_checked: a plan search validates each layout once per GPU type
 * and its estimates do not again. The scope (internal to the core) trusts the search (tensor 3 does
 * not divide Llama-3-70B's 64 heads: refused without it, sized with it), but
 * the serving rule that the expert group is tensor x data still holds. */
static void test_layout_checked(void **state)
{
    (void)state;
    const struct gs_arch arch = fixture_llama(8192, 80, 64, 8, 28672, 128256, false);
    const struct gs_model_spec m = fixture_spec(&arch);
    struct gs_workload w = workload(GS_MODE_INFERENCE, GS_DTYPE_BF16);
    w.parallelism.tensor = 3;
    struct gs_estimate e;
    struct gs_error err;
    gs_error_init(&err);
    assert_int_equal(gs_estimate_compute(&m, &w, &e, &err), GS_ERR_INVALID);
    assert_string_equal(err.items[0].pointer, "/parallelism/tensor");
    const struct gs_estimate_scope checked = {.layout_checked = true};
    assert_int_equal(gs_estimate_compute_scoped(&m, &w, &checked, &e, NULL), GS_OK);
    w.parallelism.tensor = 2;
    w.parallelism.data = 2;
    w.parallelism.expert = 2;
    gs_error_init(&err);
    assert_int_equal(gs_estimate_compute_scoped(&m, &w, &checked, &e, &err), GS_ERR_INVALID);
    assert_string_equal(err.items[0].pointer, "/parallelism/expert");
}

/* Expert parallelism with data-parallel attention, as DeepSeek-V3 is served
 * on 8 GPUs (vLLM --data-parallel-size 8 --enable-expert-parallel): every
 * rank holds the attention, dense layers and embeddings whole and 32 of the
 * 256 experts of each of the 58 MoE layers, whole (FusedMoE
 * local_num_experts = 256 / 8). In fp8 with 128x128 block scales one
 * expert is 3 x (7168 x 2048 + 4 x 56 x 16) = 44,050,944 bytes, so the rank
 * holds 58 x 224 x 44,050,944 bytes fewer than one GPU with every expert.
 * The expert group must be tensor x data. */
static void test_expert_parallel_serving(void **state)
{
    (void)state;
    const struct gs_arch arch = fixture_deepseek_v3();
    const struct gs_model_spec m = fixture_spec(&arch);
    struct gs_workload w = workload(GS_MODE_INFERENCE, GS_DTYPE_BF16);
    w.format_given = true;
    w.format = GS_WF_FP8_BLOCK;
    struct gs_estimate one, ep;
    assert_int_equal(gs_estimate_compute(&m, &w, &one, NULL), GS_OK);
    w.parallelism.data = 8;
    w.parallelism.expert = 8;
    struct gs_error err;
    gs_error_init(&err);
    assert_int_equal(gs_estimate_compute(&m, &w, &ep, &err), GS_OK);
    assert_int_equal(ep.gpu_count, 8);
    assert_int_equal(one.per_gpu.weights_bytes - ep.per_gpu.weights_bytes,
                     58ULL * 224 * 44050944ULL);
    w.parallelism.expert = 4;
    gs_error_init(&err);
    assert_int_equal(gs_estimate_compute(&m, &w, &ep, &err), GS_ERR_INVALID);
    assert_string_equal(err.items[0].pointer, "/parallelism/expert");
}

/* Speculative decoding with vLLM's mtp (gs/speculative.h): DeepSeek-V3's MTP
 * layer on every GPU at TP 8 in bf16, as vLLM splits it (deepseek_mtp.py):
 *   MLA: q_a 7168 x 1536 + kv_a 7168 x 576 replicated (11,010,048 +
 *     4,128,768), their norms 1536 + 512, q_b 1536 x 24576 / 8 = 4,718,592,
 *     kv_b 512 x 32768 / 8 = 2,097,152, o 16384 x 7168 / 8 = 14,680,064:
 *     36,636,672;
 *   MoE: 256 experts x 3 x 7168 x 2048 / 8 = 1,409,286,144, the shared expert
 *     5,505,024, the router 7168 x 256 = 1,835,008 and its correction bias 256;
 *   the layer's two norms 14,336; eh_proj 14336 x 7168 = 102,760,448 whole
 *     (nn.Linear); enorm, hnorm, shared_head.norm 21,504;
 * 1,556,059,136 parameters at 2 bytes and the bias's 256 values at 4 (a
 * buffer, fp32 in vLLM): 3,112,119,296 bytes; the embedding is the
 * target's. Before vLLM PR #34385 (0.17) the layer keeps its own head,
 * 16,160 x 7168 x 2 = 231,669,760 bytes more. Its attention joins every KV
 * block: 62 x 1152 bytes per token instead of 61 x 1152. Pipeline
 * parallelism is refused (vLLM issue #52069), as is a model without MTP
 * layers, and vLLM's eagle3 without its draft. */
static void test_speculative_mtp(void **state)
{
    (void)state;
    /* DeepSeek-V3's config.json, num_nextn_predict_layers included */
    const struct gs_arch arch = fixture_deepseek_v3_with("\"num_nextn_predict_layers\":1,");
    const struct gs_model_spec m = fixture_spec(&arch);
    struct gs_workload w = workload(GS_MODE_INFERENCE, GS_DTYPE_BF16);
    w.parallelism.tensor = 8;
    w.serving.present = true;
    w.serving.batch_size = 1;
    w.serving.context_length = 8192;
    w.serving.engine.engine = GS_ENGINE_VLLM;
    w.serving.engine.version = 1900;
    w.gpu.total_bytes = 150754820096ULL; /* H200 */
    struct gs_estimate plain, mtp;
    assert_int_equal(gs_estimate_compute(&m, &w, &plain, NULL), GS_OK);
    w.serving.engine.spec_method = GS_SPEC_MTP;
    w.serving.engine.spec_tokens = 3;
    struct gs_error err;
    gs_error_init(&err);
    if (gs_estimate_compute(&m, &w, &mtp, &err) != GS_OK)
        fail_msg("%s %s", err.items[0].pointer, err.items[0].detail);
    assert_int_equal(mtp.per_gpu.weights_bytes - plain.per_gpu.weights_bytes, 3112119296ULL);
    assert_int_equal(plain.serving.kv.bytes_per_token, 61 * 1152);
    assert_int_equal(mtp.serving.kv.bytes_per_token, 62 * 1152);
    /* the draft's weights come out of the KV budget (bf16 V3 leaves none on H200s at TP 8) */
    assert_int_equal(plain.serving.budget.kv_bytes - mtp.serving.budget.kv_bytes, 3112119296LL);
    w.serving.engine.version = 1600;
    assert_int_equal(gs_estimate_compute(&m, &w, &mtp, NULL), GS_OK);
    assert_int_equal(mtp.per_gpu.weights_bytes - plain.per_gpu.weights_bytes,
                     3112119296ULL + 231669760ULL);

    w.parallelism.tensor = 4;
    w.parallelism.pipeline = 2;
    gs_error_init(&err);
    assert_int_equal(gs_estimate_compute(&m, &w, &mtp, &err), GS_ERR_INVALID);
    assert_string_equal(err.items[0].pointer, "/parallelism/pipeline");
    w.parallelism.tensor = 8;
    w.parallelism.pipeline = 1;
    w.serving.engine.spec_method = GS_SPEC_EAGLE3; /* without the draft it names */
    gs_error_init(&err);
    assert_int_equal(gs_estimate_compute(&m, &w, &mtp, &err), GS_ERR_INVALID);
    assert_string_equal(err.items[0].pointer, "/inference/speculative/draft");
    /* ngram proposes on the CPU: nothing changes */
    w.serving.engine.spec_method = GS_SPEC_NGRAM;
    assert_int_equal(gs_estimate_compute(&m, &w, &mtp, NULL), GS_OK);
    assert_int_equal(mtp.per_gpu.weights_bytes, plain.per_gpu.weights_bytes);
    assert_int_equal(mtp.serving.max_tokens, plain.serving.max_tokens);

    const struct gs_arch llama = fixture_llama(4096, 32, 32, 8, 14336, 128256, false);
    const struct gs_model_spec lm = fixture_spec(&llama);
    w.serving.engine.spec_method = GS_SPEC_MTP;
    gs_error_init(&err);
    assert_int_equal(gs_estimate_compute(&lm, &w, &mtp, &err), GS_ERR_INVALID);
    assert_string_equal(err.items[0].pointer, "/inference/speculative/method");
}

/* vLLM --cpu-offload-gb moves decoder layers' parameters to host memory until
 * the cap is reached (model_executor/models/utils.py maybe_offload_to_cpu,
 * called by make_layers): Llama-3-8B in bf16, 16,060,522,496 bytes. 4 GiB
 * offloaded: 4,294,967,296 bytes fewer on the GPU and as many more for the
 * KV cache. 100 GiB asked: only the layers move - per layer q 16,777,216, k
 * and v 4,194,304 each, o 16,777,216, the MLP 3 x 4096 x 14336 =
 * 176,160,768 and two norms 8,192: 218,112,000 x 32 layers, with the final
 * norm's 4,096 (counted with them) 6,979,588,096 parameters, 13,959,176,192
 * bytes - and the embedding and head stay: 2 x 128,256 x 4096 x 2 =
 * 2,101,346,304 bytes. */
static void test_vllm_cpu_offload(void **state)
{
    (void)state;
    const struct gs_model_spec m = llama3_8b();
    struct gs_workload w = workload(GS_MODE_INFERENCE, GS_DTYPE_BF16);
    w.serving.present = true;
    w.serving.batch_size = 1;
    w.serving.context_length = 8192;
    w.serving.engine.engine = GS_ENGINE_VLLM;
    w.serving.engine.version = 1900;
    w.gpu.total_bytes = 25386352640ULL; /* RTX 4090: 23.64 GiB */
    struct gs_estimate plain, offload;
    assert_int_equal(gs_estimate_compute(&m, &w, &plain, NULL), GS_OK);
    assert_int_equal(plain.per_gpu.weights_bytes, 16060522496ULL);
    w.serving.engine.cpu_offload_bytes = 4ULL << 30;
    assert_int_equal(gs_estimate_compute(&m, &w, &offload, NULL), GS_OK);
    assert_int_equal(offload.per_gpu.weights_bytes, 16060522496ULL - (4ULL << 30));
    assert_int_equal(offload.serving.budget.kv_bytes - plain.serving.budget.kv_bytes,
                     (int64_t)(4ULL << 30));
    assert_true(offload.serving.max_tokens > plain.serving.max_tokens);
    w.serving.engine.cpu_offload_bytes = 100ULL << 30;
    assert_int_equal(gs_estimate_compute(&m, &w, &offload, NULL), GS_OK);
    assert_int_equal(offload.per_gpu.weights_bytes, 2101346304ULL);
    assert_int_equal(offload.serving.budget.kv_bytes - plain.serving.budget.kv_bytes,
                     13959176192LL);
    /* SGLang's OffloaderV1 walks the same layers; TensorRT-LLM has no such option */
    w.serving.engine.engine = GS_ENGINE_SGLANG;
    w.serving.engine.version = 0;
    assert_int_equal(gs_estimate_compute(&m, &w, &offload, NULL), GS_OK);
    assert_int_equal(offload.per_gpu.weights_bytes, 2101346304ULL);
    w.serving.engine.engine = GS_ENGINE_TENSORRT_LLM;
    assert_int_equal(gs_estimate_compute(&m, &w, &offload, NULL), GS_OK);
    assert_int_equal(offload.per_gpu.weights_bytes, 16060522496ULL);
    bool warned = false;
    for (size_t i = 0; i < offload.warning_count; i++)
        warned |= strcmp(offload.warnings[i].code, "cpu_offload_not_supported") == 0;
    assert_true(warned);
}

/* Memory other processes hold when the engine starts (inference.memory_in_use_bytes), on an
 * RTX 3090 of 25,297,357,373 bytes with Llama-3-8B in bf16:
 * - vLLM 0.19 measures growth from a snapshot taken after its CUDA context: 1.5 GB in use
 *   leaves the pool as it is; with 3 GB the free memory at start, 25,297,357,373 -
 *   3,000,000,000 - 287,047,680 (the context; no communicator at TP 1 on PCIe) =
 *   22,010,309,693, is below 0.9 x total = 22,767,621,635: it refuses to start, 757,311,942
 *   bytes short;
 * - vLLM 0.8.3 counts device-wide used memory: the pool is 1.5 GB smaller;
 * - TGI 3.x and the generic profile read the free memory: 1.5 GB smaller;
 * - in use at or above the total is refused at its pointer. */
static void test_memory_in_use(void **state)
{
    (void)state;
    const struct gs_model_spec m = llama3_8b();
    struct gs_workload w = workload(GS_MODE_INFERENCE, GS_DTYPE_BF16);
    w.serving.present = true;
    w.serving.batch_size = 1;
    w.serving.context_length = 8192;
    w.serving.engine.engine = GS_ENGINE_VLLM;
    w.serving.engine.version = 1900;
    w.gpu.total_bytes = 25297357373ULL;
    w.gpu.link = GS_LINK_PCIE;
    struct gs_estimate plain, busy;
    assert_int_equal(gs_estimate_compute(&m, &w, &plain, NULL), GS_OK);
    w.serving.memory_in_use_bytes = 1500000000ULL;
    assert_int_equal(gs_estimate_compute(&m, &w, &busy, NULL), GS_OK);
    assert_int_equal(busy.serving.budget.kv_bytes, plain.serving.budget.kv_bytes);
    assert_true(busy.serving.starts);
    w.serving.memory_in_use_bytes = 3000000000ULL;
    assert_int_equal(gs_estimate_compute(&m, &w, &busy, NULL), GS_OK);
    assert_false(busy.serving.starts);
    assert_int_equal(busy.serving.budget.kv_bytes, -757311942LL);
    assert_non_null(strstr(busy.serving.binding, "refuses to start"));

    const enum gs_engine engines[] = {GS_ENGINE_VLLM, GS_ENGINE_TGI, GS_ENGINE_GENERIC};
    const uint32_t versions[] = {803, 0, 0};
    for (size_t i = 0; i < 3; i++) {
        w.serving.engine.engine = engines[i];
        w.serving.engine.version = versions[i];
        w.serving.memory_in_use_bytes = 0;
        assert_int_equal(gs_estimate_compute(&m, &w, &plain, NULL), GS_OK);
        w.serving.memory_in_use_bytes = 1500000000ULL;
        assert_int_equal(gs_estimate_compute(&m, &w, &busy, NULL), GS_OK);
        assert_int_equal(plain.serving.budget.kv_bytes - busy.serving.budget.kv_bytes,
                         1500000000LL);
    }

    w.serving.memory_in_use_bytes = w.gpu.total_bytes;
    struct gs_error err;
    gs_error_init(&err);
    assert_int_equal(gs_estimate_compute(&m, &w, &busy, &err), GS_ERR_INVALID);
    assert_string_equal(err.items[0].pointer, "/inference/memory_in_use_bytes");
}

/* Pipeline stages on unequal GPUs (parallelism.stage_gpus): vLLM sizes each stage's pool from
 * its own GPU (gpu_memory_utilization x that GPU's total, less the stage's weights and
 * profile) and keeps the smallest block count (kv_cache_utils.get_kv_cache_configs). Llama-3-70B
 * bf16 on two stages, vLLM 0.19, on a 48 GB and an 80 GB GPU: each stage on its GPU answers as
 * that stage does when every stage runs on the same GPU type, so the pool is the smaller of
 * the two and the answer names the stage that binds. A format is checked on every stage's
 * GPU. An engine that sizes every stage once (TGI here) refuses it, as does a count that is
 * not the pipeline's. */
static void test_stage_gpus(void **state)
{
    (void)state;
    const struct gs_arch arch = fixture_llama(8192, 80, 64, 8, 28672, 128256, false);
    const struct gs_model_spec m = fixture_spec(&arch);
    struct gs_workload w = workload(GS_MODE_INFERENCE, GS_DTYPE_BF16);
    w.serving.present = true;
    w.serving.batch_size = 1;
    w.serving.context_length = 8192;
    w.serving.engine.engine = GS_ENGINE_VLLM;
    w.serving.engine.version = 1900;
    w.parallelism.pipeline = 2;
    struct gs_gpu_view small = {0}, big = {0};
    small.total_bytes = 47697362944ULL; /* an L40S's driver total */
    small.link = GS_LINK_PCIE;
    small.hw = GS_HW_ADA;
    big.total_bytes = 85045870592ULL; /* an H100 80GB's */
    big.link = GS_LINK_NVSWITCH;
    big.hw = GS_HW_HOPPER;
    struct gs_estimate on_small, on_big, mixed, swapped;
    w.gpu = small;
    assert_int_equal(gs_estimate_compute(&m, &w, &on_small, NULL), GS_OK);
    w.gpu = big;
    assert_int_equal(gs_estimate_compute(&m, &w, &on_big, NULL), GS_OK);
    assert_true(on_big.serving.blocks > on_small.serving.blocks);
    /* the stage that binds on one GPU type binds on the smaller GPU in the mix too */
    const uint64_t binds = on_small.serving.binding_stage;
    w.stage_gpu_count = 2;
    w.stage_gpus[binds] = small;
    w.stage_gpus[1 - binds] = big;
    assert_int_equal(gs_estimate_compute(&m, &w, &mixed, NULL), GS_OK);
    assert_int_equal(mixed.serving.binding_stage, binds);
    assert_int_equal(mixed.serving.blocks, on_small.serving.blocks);
    assert_int_equal(mixed.serving.budget.kv_bytes, on_small.serving.budget.kv_bytes);
    /* the other way round the other stage is on the small GPU, with more room than the
     * binding one had there (and less than on the big GPU) */
    w.stage_gpus[binds] = big;
    w.stage_gpus[1 - binds] = small;
    assert_int_equal(gs_estimate_compute(&m, &w, &swapped, NULL), GS_OK);
    assert_int_equal(swapped.serving.binding_stage, 1 - binds);
    assert_true(swapped.serving.blocks >= on_small.serving.blocks);
    assert_true(swapped.serving.blocks <= on_big.serving.blocks);

    /* fp8 weights are checked on every stage's GPU: a Turing stage has no fp8 kernels before
     * vLLM 0.14.0 (PR #29901 built Marlin for it) */
    w.format_given = true;
    w.format = GS_WF_FP8;
    w.serving.engine.version = 1301;
    struct gs_estimate fp8;
    assert_int_equal(gs_estimate_compute(&m, &w, &fp8, NULL), GS_OK);
    bool warned = false;
    for (size_t i = 0; i < fp8.warning_count; i++)
        warned |= strcmp(fp8.warnings[i].code, "unsupported_on_gpu") == 0;
    assert_false(warned);
    w.stage_gpus[1].hw = GS_HW_TURING;
    assert_int_equal(gs_estimate_compute(&m, &w, &fp8, NULL), GS_OK);
    for (size_t i = 0; i < fp8.warning_count; i++)
        warned |= strcmp(fp8.warnings[i].code, "unsupported_on_gpu") == 0;
    assert_true(warned);
    /* the latest vLLM runs them there */
    w.serving.engine.version = 0;
    assert_int_equal(gs_estimate_compute(&m, &w, &fp8, NULL), GS_OK);
    warned = false;
    for (size_t i = 0; i < fp8.warning_count; i++)
        warned |= strcmp(fp8.warnings[i].code, "unsupported_on_gpu") == 0;
    assert_false(warned);
    w.serving.engine.version = 1900;
    w.format_given = false;

    struct gs_error err;
    gs_error_init(&err);
    w.stage_gpu_count = 3;
    w.stage_gpus[2] = big;
    assert_int_equal(gs_estimate_compute(&m, &w, &mixed, &err), GS_ERR_INVALID);
    assert_string_equal(err.items[0].pointer, "/parallelism/stage_gpus");
    gs_error_init(&err);
    w.stage_gpu_count = 2;
    w.serving.engine.engine = GS_ENGINE_SGLANG; /* one pool size for every stage */
    w.serving.engine.version = 0;
    assert_int_equal(gs_estimate_compute(&m, &w, &mixed, &err), GS_ERR_INVALID);
    assert_string_equal(err.items[0].pointer, "/parallelism/stage_gpus");
    gs_error_init(&err);
    w.serving.engine.engine = GS_ENGINE_TGI; /* no pipeline stages at all */
    assert_int_equal(gs_estimate_compute(&m, &w, &mixed, &err), GS_ERR_INVALID);
    assert_string_equal(err.items[0].pointer, "/parallelism/pipeline");
}

/* A stage on a GPU the engine cannot run binds the pipeline, whichever stage it is: DeepSeek-V3.2's
 * sparse attention has no vLLM backend below Hopper (gs_engine_ops.refusal), so an A100 stage
 * beside an H100 one does not start either way round, and the answer names that stage. */
static void test_stage_gpus_refused(void **state)
{
    (void)state;
    const struct gs_arch arch = fixture_arch_file("deepseek_v32/deepseek-ai__DeepSeek-V3.2.json");
    const struct gs_model_spec m = fixture_spec(&arch);
    struct gs_workload w = workload(GS_MODE_INFERENCE, GS_DTYPE_BF16);
    w.serving.present = true;
    w.serving.batch_size = 1;
    w.serving.context_length = 8192;
    w.serving.engine.engine = GS_ENGINE_VLLM;
    w.parallelism.tensor = 8;
    w.parallelism.pipeline = 2;
    struct gs_gpu_view ampere = {0}, hopper = {0};
    ampere.total_bytes = 85045870592ULL;
    ampere.link = GS_LINK_NVSWITCH;
    ampere.hw = GS_HW_AMPERE;
    hopper = ampere;
    hopper.hw = GS_HW_HOPPER;
    w.gpu = hopper;
    struct gs_estimate e;
    for (uint64_t refused_stage = 0; refused_stage < 2; refused_stage++) {
        w.stage_gpu_count = 2;
        w.stage_gpus[refused_stage] = ampere;
        w.stage_gpus[1 - refused_stage] = hopper;
        assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
        assert_false(e.serving.starts);
        assert_non_null(e.serving.engine_refusal);
        assert_int_equal(e.serving.binding_stage, refused_stage);
    }
    w.stage_gpus[0] = w.stage_gpus[1] = hopper; /* both on Hopper: no refusal */
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    assert_null(e.serving.engine_refusal);
}

/* Llama-3.2-1B's shapes: the drafts' standalone model. */
#define LLAMA_3_2_1B                                                                               \
    "{\"model_type\":\"llama\",\"hidden_size\":2048,\"num_hidden_layers\":16,"                     \
    "\"num_attention_heads\":32,\"num_key_value_heads\":8,\"head_dim\":64,"                        \
    "\"intermediate_size\":8192,\"vocab_size\":128256,\"tie_word_embeddings\":true}"

/* Llama-3-70B and Llama-3.2-1B as its draft, the draft_model pair of the vLLM and TensorRT-LLM
 * tests (static storage: the specs point into them). */
static const struct gs_model_spec *llama70_spec(void)
{
    static struct gs_arch arch;
    static struct gs_model_spec spec;
    if (arch.num_hidden_layers == 0) {
        arch = fixture_llama(8192, 80, 64, 8, 28672, 128256, false);
        spec = fixture_spec(&arch);
    }
    return &spec;
}

static const struct gs_draft *llama1b_draft(void)
{
    static struct gs_arch arch;
    static struct gs_draft draft;
    if (arch.num_hidden_layers == 0) {
        arch = fixture_arch(LLAMA_3_2_1B);
        draft = (struct gs_draft){&arch, GS_WF_BF16, 0, 0, 0};
    }
    return &draft;
}

/* vLLM's eagle3 and draft_model with the draft the request names.
 * An EAGLE-3 head for Llama-3.1-8B (config.json: hidden 4096, 1 layer, 32
 * heads, 8 KV heads, intermediate 14336, draft_vocab_size 32000), bf16, TP 1
 * (llama_eagle3.py): the layer's q/k/v read 2 x 4096 inputs, 8192 x (4096 +
 * 1024 + 1024) = 50,331,648, o 16,777,216, MLP 3 x 4096 x 14336 =
 * 176,160,768, its two norms 8,192; fc 3 x 4096 x 4096 = 50,331,648; the
 * head 32,000 x 4096 = 131,072,000; the final norm and hidden_norm 8,192:
 * 424,689,664 parameters, 849,379,328 bytes, plus the 32,000 int64 ids
 * (256,000): 849,635,328. Its attention layer joins the cache: 33 x 4096
 * bytes per token. Llama-3.2-1B (16 layers, 8 KV heads of 64, tied
 * embeddings: 1,235,814,400 parameters) as draft_model at TP 4: 2,471,628,800
 * / 4 = 617,907,200 bytes plus the norms each rank keeps whole (16 x 2 +
 * 1) x 2048 x 2 x 3 / 4 = 101,376 more: 618,008,576; its cache 16 x 2 x 64
 * x 2 x 2 = 8,192 bytes per token at TP 4. */
static void test_speculative_drafts(void **state)
{
    (void)state;
    const struct gs_arch target = fixture_llama(4096, 32, 32, 8, 14336, 128256, false);
    const struct gs_model_spec m = fixture_spec(&target);
    const struct gs_arch head = fixture_llama(4096, 1, 32, 8, 14336, 128256, false);
    const struct gs_draft eagle3 = {&head, GS_WF_BF16, 0, 32000, 0};
    struct gs_workload w = workload(GS_MODE_INFERENCE, GS_DTYPE_BF16);
    w.serving.present = true;
    w.serving.batch_size = 1;
    w.serving.context_length = 8192;
    w.serving.engine.engine = GS_ENGINE_VLLM;
    w.gpu.total_bytes = 85061827297ULL;
    struct gs_estimate plain, e;
    assert_int_equal(gs_estimate_compute(&m, &w, &plain, NULL), GS_OK);
    w.serving.engine.spec_method = GS_SPEC_EAGLE3;
    w.serving.draft = &eagle3;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    assert_int_equal(e.per_gpu.weights_bytes - plain.per_gpu.weights_bytes, 849635328ULL);
    assert_int_equal(e.serving.kv.bytes_per_token, 33 * 4096);

    const struct gs_model_spec big = *llama70_spec();
    const struct gs_draft small = *llama1b_draft();
    w.parallelism.tensor = 4;
    w.serving.engine.spec_method = GS_SPEC_NONE;
    w.serving.draft = NULL;
    assert_int_equal(gs_estimate_compute(&big, &w, &plain, NULL), GS_OK);
    w.serving.engine.spec_method = GS_SPEC_DRAFT_MODEL;
    w.serving.draft = &small;
    assert_int_equal(gs_estimate_compute(&big, &w, &e, NULL), GS_OK);
    assert_int_equal(e.per_gpu.weights_bytes - plain.per_gpu.weights_bytes, 618008576ULL);
    assert_int_equal(e.serving.kv.bytes_per_token - plain.serving.kv.bytes_per_token, 8192);
    /* drafts go with tensor parallelism only */
    w.parallelism.tensor = 2;
    w.parallelism.pipeline = 2;
    struct gs_error err;
    gs_error_init(&err);
    assert_int_equal(gs_estimate_compute(&big, &w, &e, &err), GS_ERR_INVALID);
    assert_string_equal(err.items[0].pointer, "/parallelism/pipeline");
}

static bool estimate_warned(const struct gs_estimate *e, const char *code)
{
    for (size_t i = 0; i < e->warning_count; i++)
        if (strcmp(e->warnings[i].code, code) == 0)
            return true;
    return false;
}

/* SGLang from 0.5.14 budgets the draft inside mem_fraction_static (gs/sglang.h gs_sglang_draft;
 * docs/engines.md): the default reserves nothing for it, the draft's weights and, until
 * init_lm_head swaps in the target's, its own embedding and head come out of the pool, and
 * every token's cell grows by its layers priced like the target's.
 *   - Llama-3.1-8B with the EAGLE-3 head of test_speculative_drafts on one H100: the head keeps
 *     849,635,328 bytes (as vLLM's), its embedding 128,256 x 4,096 x 2 = 1,050,673,152 bytes is
 *     freed after the pool is sized, and the cell is 32 x 4,096 x (1 + 1/32) = 33 x 4,096.
 *     0.5.10 keeps the draft in a 2 GiB reserve beside the fraction (lower), and sizes nothing.
 *   - DeepSeek-V3's NEXTN at TP 8 in bf16: the MTP layer 3,112,119,296 bytes a GPU (as vLLM's
 *     from 0.17: test_speculative_mtp), its own embedding and head 2 x 16,160 x 7,168 x 2 =
 *     463,339,520, one more MLA layer (62 x 1,152 bytes a token).
 *   - Qwen3.5-27B's NEXTN on one H100 (tests/fixtures/configs/qwen3_5/README.md): the MTP
 *     layer's 424,699,392 parameters, 849,398,784 bytes; its embed_tokens and lm_head 2 x
 *     248,320 x 5,120 x 2 = 5,085,593,600 (sglang PR #35567 counts the same "5,085,593,600
 *     bytes nominal"); together 5,934,992,384 = 5.53 GiB, and 0.79 GiB once shared, the
 *     draft footprints sglang PR #38147 reports for a Qwen3.8-27B of these shapes ("from 5.53
 *     GB to 0.80 GB"); the MTP layer joins the 16 full-attention layers (17 x 4,096 bytes a
 *     token), and the draft's linear-attention states are not sized (the answer says so).
 *   - Llama-3.2-1B as STANDALONE beside Llama-3.1-70B at TP 4: the whole draft (618,008,576
 *     bytes, as vLLM's draft_model), nothing freed, its 16 layers priced like the 70B's (16 x
 *     1,024 bytes a token at TP 4) although each holds 512: draft_cache_priced_as_target.
 *   - eagle3 naming no draft: nothing sized, and the answer says so. */
static void test_sglang_draft_in_fraction(void **state)
{
    (void)state;
    const struct gs_arch target = fixture_llama(4096, 32, 32, 8, 14336, 128256, false);
    const struct gs_model_spec m = fixture_spec(&target);
    const struct gs_arch head = fixture_llama(4096, 1, 32, 8, 14336, 128256, false);
    const struct gs_draft eagle3 = {&head, GS_WF_BF16, 0, 32000, 0};
    struct gs_workload w = fixture_vllm_workload(1, 8192, 1, 85061827297ULL);
    w.serving.engine.engine = GS_ENGINE_SGLANG;
    static struct gs_estimate plain, e;
    assert_int_equal(gs_estimate_compute(&m, &w, &plain, NULL), GS_OK);
    w.serving.engine.spec_method = GS_SPEC_EAGLE3;
    w.serving.draft = &eagle3;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    assert_int_equal(e.serving.budget.fraction_permille, plain.serving.budget.fraction_permille);
    assert_int_equal(e.per_gpu.weights_bytes - plain.per_gpu.weights_bytes, 849635328ULL);
    assert_int_equal(e.serving.budget.draft_transient_bytes, 1050673152ULL);
    assert_int_equal(plain.serving.budget.kv_bytes - e.serving.budget.kv_bytes,
                     849635328LL + 1050673152LL);
    assert_int_equal(e.serving.kv.bytes_per_token, 33 * 4096);
    assert_int_equal(e.serving.max_tokens, (uint64_t)e.serving.budget.kv_bytes / (33 * 4096));
    w.serving.engine.version = 510;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    assert_true(e.serving.budget.fraction_permille < plain.serving.budget.fraction_permille);
    assert_int_equal(e.per_gpu.weights_bytes, plain.per_gpu.weights_bytes);
    assert_int_equal(e.serving.budget.draft_transient_bytes, 0);
    assert_int_equal(e.serving.kv.bytes_per_token, 32 * 4096);
    w.serving.engine.version = 0;
    w.serving.draft = NULL;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    assert_int_equal(e.per_gpu.weights_bytes, plain.per_gpu.weights_bytes);
    assert_true(estimate_warned(&e, "speculative_budget_not_modeled"));

    const struct gs_arch v3 = fixture_deepseek_v3_with("\"num_nextn_predict_layers\":1,");
    const struct gs_model_spec dm = fixture_spec(&v3);
    w.parallelism.tensor = 8;
    w.gpu.total_bytes = 150754820096ULL; /* H200 */
    w.serving.engine.spec_method = GS_SPEC_NONE;
    assert_int_equal(gs_estimate_compute(&dm, &w, &plain, NULL), GS_OK);
    w.serving.engine.spec_method = GS_SPEC_MTP;
    assert_int_equal(gs_estimate_compute(&dm, &w, &e, NULL), GS_OK);
    assert_int_equal(e.per_gpu.weights_bytes - plain.per_gpu.weights_bytes, 3112119296ULL);
    assert_int_equal(e.serving.budget.draft_transient_bytes, 463339520ULL);
    assert_int_equal(e.serving.kv.bytes_per_token, 62 * 1152);
    assert_int_equal(plain.serving.budget.kv_bytes - e.serving.budget.kv_bytes,
                     3112119296LL + 463339520LL);

    const struct gs_arch q27 = fixture_arch_file("qwen3_5/Qwen__Qwen3.5-27B.json");
    const struct gs_model_spec qm = fixture_spec(&q27);
    w.parallelism.tensor = 1;
    w.gpu.total_bytes = 85061827297ULL;
    w.serving.engine.spec_method = GS_SPEC_NONE;
    assert_int_equal(gs_estimate_compute(&qm, &w, &plain, NULL), GS_OK);
    w.serving.engine.spec_method = GS_SPEC_MTP;
    assert_int_equal(gs_estimate_compute(&qm, &w, &e, NULL), GS_OK);
    assert_int_equal(e.per_gpu.weights_bytes - plain.per_gpu.weights_bytes, 849398784ULL);
    assert_int_equal(e.serving.budget.draft_transient_bytes, 5085593600ULL);
    assert_int_equal(e.serving.kv.bytes_per_token, 17 * 4096);
    assert_false(estimate_warned(&e, "speculative_state_not_modeled")); /* sized: below */

    const struct gs_arch l70 = fixture_llama(8192, 80, 64, 8, 28672, 128256, false);
    const struct gs_model_spec big = fixture_spec(&l70);
    const struct gs_arch l1 = fixture_arch(LLAMA_3_2_1B);
    const struct gs_draft small = {&l1, GS_WF_BF16, 0, 0, 0};
    w.parallelism.tensor = 4;
    w.gpu.total_bytes = 85061827297ULL;
    w.serving.engine.spec_method = GS_SPEC_NONE;
    assert_int_equal(gs_estimate_compute(&big, &w, &plain, NULL), GS_OK);
    w.serving.engine.spec_method = GS_SPEC_DRAFT_MODEL;
    w.serving.draft = &small;
    assert_int_equal(gs_estimate_compute(&big, &w, &e, NULL), GS_OK);
    assert_int_equal(e.per_gpu.weights_bytes - plain.per_gpu.weights_bytes, 618008576ULL);
    assert_int_equal(e.serving.budget.draft_transient_bytes, 0);
    assert_int_equal(e.serving.kv.bytes_per_token - plain.serving.kv.bytes_per_token, 16 * 1024);
    assert_true(estimate_warned(&e, "draft_cache_priced_as_target"));
}

/* SGLang serving one sequence of 8,192 tokens on one H200, the setting of the state-pool tests
 * below; Qwen3.5-27B's state slot there (48 linear layers x (10,240 x 3 x 2 conv + 48 x 128 x 128 x
 * 4 state) = 153,944,064 bytes in SGLang's dtypes). */
#define QWEN35_27B_SGLANG_SLOT 153944064ULL

static struct gs_workload sglang_h200_workload(void)
{
    struct gs_workload w = fixture_vllm_workload(1, 8192, 1, 150754820096ULL); /* H200 */
    w.serving.engine.engine = GS_ENGINE_SGLANG;
    return w;
}

/* SGLang keeps a hybrid's states in a pool of their own (kv_cache_configurator.py
 * _handle_max_mamba_cache, main of September 2026; docs/engines.md): mamba_full_memory_ratio
 * 0.9 / 1.9 of what the fraction leaves, in slots of one sequence's states, one more as padding
 * (PR #32184, first in the v0.5.17 tag); the attention cache is sized from the rest; a request
 * takes 5 slots for extra_buffer classes (Qwen3.5), 1 without the radix cache. The slot is
 * SGLang's: conv windows in bf16, recurrent states in the config's mamba_ssm_dtype else fp32.
 *   - Qwen3.5-27B (mamba_ssm_dtype float32) at TP 1: 48 x (10,240 x 3 x 2 + 48 x 128 x 128 x 4)
 *     = 153,944,064 bytes a slot, 16 x 4 x 512 x 2 = 65,536 bytes a token;
 *     slots = (kv x 9 / 19 - slot) / slot, (slots + 1) x slot taken, tokens = the rest / 65,536,
 *     sequences at once slots / 5 (prefix caching off: slots); 0.5.14, before the padding slot,
 *     slots = kv x 9 / 19 / slot, slots x slot taken and (slots + 1) x slot allocated.
 *   - Kimi-Linear: slots / 5 sequences at once from 0.5.16 (extra_buffer), slots / 3 in
 *     0.5.14-0.5.15 (no_buffer), one slot a request before 0.5.14 (no radix cache).
 *   - Qwen3-Next-80B (no mamba_ssm_dtype) at TP 1: 36 x (8,192 x 3 x 2 + 32 x 128 x 128 x 4) =
 *     77,266,944 bytes a slot under SGLang, where vLLM keeps the state in the model dtype
 *     (36 x (49,152 + 1,048,576) = 39,518,208). */
static void test_sglang_state_pool(void **state)
{
    (void)state;
    const struct gs_arch q27 = fixture_arch_file("qwen3_5/Qwen__Qwen3.5-27B.json");
    const struct gs_model_spec m = fixture_spec(&q27);
    struct gs_workload w = sglang_h200_workload();
    static struct gs_estimate e;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    const struct gs_inference_result *r = &e.serving;
    const uint64_t slot = QWEN35_27B_SGLANG_SLOT;
    assert_int_equal(r->kv.state_bytes_per_sequence, slot);
    const uint64_t kv = (uint64_t)r->budget.kv_bytes;
    const uint64_t budget = kv / 19 * 9 + kv % 19 * 9 / 19;
    const uint64_t slots = (budget - slot) / slot;
    assert_true(slots > 100);
    assert_int_equal(r->state_slots, slots);
    assert_int_equal(r->state_pool_bytes, (slots + 1) * slot);
    assert_int_equal(r->max_tokens, (kv - (slots + 1) * slot) / 65536);
    assert_int_equal(r->state_seqs, slots / 5);
    assert_int_equal(r->max_concurrency, slots / 5); /* 8,192 tokens each fit more */
    assert_true(r->holds_batch);
    w.serving.batch_size = slots / 5 + 1; /* one more than the slots run at once */
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    assert_false(e.serving.holds_batch);
    assert_int_equal(e.serving.max_context, 0);
    w.serving.engine.prefix_caching = GS_CHUNKED_PREFILL_OFF;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    assert_int_equal(e.serving.state_seqs, slots);
    assert_true(e.serving.holds_batch);
    w.serving.batch_size = 1;
    w.serving.engine.prefix_caching = GS_CHUNKED_PREFILL_DEFAULT;
    w.serving.engine.version = 514;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    const uint64_t kv514 = (uint64_t)e.serving.budget.kv_bytes;
    const uint64_t old_slots = (kv514 / 19 * 9 + kv514 % 19 * 9 / 19) / slot;
    assert_int_equal(e.serving.state_slots, old_slots);
    /* MambaPool allocates the padding slot in every release; before PR #32184 (first in the
     * v0.5.17 tag) the budget does not take it, so it is memory past the fraction */
    assert_int_equal(e.serving.state_pool_bytes, (old_slots + 1) * slot);
    assert_int_equal(e.serving.state_unbudgeted_bytes, slot);
    assert_int_equal(e.serving.max_tokens, (kv514 - old_slots * slot) / 65536);
    w.serving.engine.version = 516;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    assert_int_equal(e.serving.state_unbudgeted_bytes, slot);
    w.serving.engine.version = 517;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    assert_int_equal(e.serving.state_pool_bytes, (e.serving.state_slots + 1) * slot);
    assert_int_equal(e.serving.state_unbudgeted_bytes, 0);

    const struct gs_arch next =
        fixture_arch_file("qwen3_next/Qwen__Qwen3-Next-80B-A3B-Thinking.json");
    const struct gs_model_spec nm = fixture_spec(&next);
    w.serving.engine.version = 0;
    assert_int_equal(gs_estimate_compute(&nm, &w, &e, NULL), GS_OK);
    assert_int_equal(e.serving.kv.state_bytes_per_sequence, 77266944ULL);
    w.serving.engine.engine = GS_ENGINE_VLLM;
    assert_int_equal(gs_estimate_compute(&nm, &w, &e, NULL), GS_OK);
    assert_int_equal(e.serving.kv.state_bytes_per_sequence, 39518208ULL);

    /* Kimi-Linear: extra_buffer from 0.5.16 (5 slots a request), no_buffer in 0.5.14-0.5.15
     * (3), no radix cache before 0.5.14 (1) */
    const struct gs_arch kimi =
        fixture_arch_file("kimi_linear/moonshotai__Kimi-Linear-48B-A3B-Instruct.json");
    const struct gs_model_spec km = fixture_spec(&kimi);
    w.serving.engine.engine = GS_ENGINE_SGLANG;
    assert_int_equal(gs_estimate_compute(&km, &w, &e, NULL), GS_OK);
    assert_true(e.serving.state_slots > 5);
    assert_int_equal(e.serving.state_request_slots, 5);
    assert_int_equal(e.serving.state_seqs, e.serving.state_slots / 5);
    w.serving.engine.version = 515;
    assert_int_equal(gs_estimate_compute(&km, &w, &e, NULL), GS_OK);
    assert_int_equal(e.serving.state_request_slots, 3);
    assert_int_equal(e.serving.state_seqs, e.serving.state_slots / 3);
    w.serving.engine.version = 513;
    assert_int_equal(gs_estimate_compute(&km, &w, &e, NULL), GS_OK);
    assert_int_equal(e.serving.state_request_slots, 1);
}

/* SGLang under speculative decoding (kv_cache_configurator.py _handle_max_mamba_cache,
 * arg_groups/speculative_hook.py): each running request of a hybrid also keeps its draft's
 * intermediate states, D = speculative_num_draft_tokens of one sequence's states P, solved with
 * the state pool: K = (budget - P (1 + D)) x S / (P (S + D)) slots (budget = 9/19 of the pool,
 * S = 5 slots a request for Qwen3.5, D = 4 by _auto_choose_speculative_params), then
 * (min(48, K / S) + 1) x D x P reserved beside (K + 1) x P; max_running_requests is 48 unless
 * given. Qwen3.5-27B with NEXTN on one H200 at 8,192 tokens. */
static void test_sglang_spec_states(void **state)
{
    (void)state;
    const struct gs_arch q27 = fixture_arch_file("qwen3_5/Qwen__Qwen3.5-27B.json");
    const struct gs_model_spec m = fixture_spec(&q27);
    struct gs_workload w = sglang_h200_workload();
    w.serving.engine.spec_method = GS_SPEC_MTP;
    static struct gs_estimate e;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    const struct gs_inference_result *r = &e.serving;
    const uint64_t p = QWEN35_27B_SGLANG_SLOT, s = 5;
    uint64_t kv = (uint64_t)r->budget.kv_bytes;
    uint64_t budget = kv / 19 * 9 + kv % 19 * 9 / 19;
    uint64_t k = (budget - p * 5) * s / (p * (s + 4));
    assert_true(k / s < 48);
    assert_int_equal(r->max_num_seqs, 48);
    assert_int_equal(r->state_spec_tokens, 4);
    assert_int_equal(r->state_slots, k);
    assert_int_equal(r->state_pool_bytes, (k + 1) * p);
    assert_int_equal(r->state_spec_bytes, (k / s + 1) * 4 * p);
    assert_true(r->state_pool_bytes + r->state_spec_bytes <= budget);
    assert_int_equal(r->state_seqs, k / s);
    assert_int_equal(r->max_tokens, (kv - (k + 1) * p - (k / s + 1) * 4 * p) / (17 * 4096));
    assert_false(estimate_warned(&e, "speculative_state_not_modeled"));

    /* num_speculative_tokens 2 verifies 3; max_num_seqs 16 bounds the requests at once */
    w.serving.engine.spec_tokens = 2;
    w.serving.engine.max_num_seqs = 16;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    k = (budget - p * 4) * s / (p * (s + 3));
    assert_true(k / s > 16);
    assert_int_equal(r->state_slots, k);
    assert_int_equal(r->state_spec_bytes, 17 * 3 * p);
    assert_int_equal(r->state_seqs, 16);

    /* without the radix cache max_running_requests is the slot count: 48 slots, 49 x 4 held */
    w.serving.engine.spec_tokens = 0;
    w.serving.engine.max_num_seqs = 0;
    w.serving.engine.prefix_caching = GS_CHUNKED_PREFILL_OFF;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    assert_int_equal(r->state_slots, 48);
    assert_int_equal(r->state_pool_bytes, 49 * p);
    assert_int_equal(r->state_spec_bytes, 49 * 4 * p);
    assert_int_equal(r->state_seqs, 48);

    /* 0.5.14: the joint solve without the padding slot */
    w.serving.engine.prefix_caching = GS_CHUNKED_PREFILL_DEFAULT;
    w.serving.engine.version = 514;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    kv = (uint64_t)r->budget.kv_bytes;
    budget = kv / 19 * 9 + kv % 19 * 9 / 19;
    k = budget * s / (p * (s + 4));
    assert_int_equal(r->state_slots, k);
    /* allocated: the padding slot and the draft states' spare row, past the budget */
    assert_int_equal(r->state_pool_bytes, (k + 1) * p);
    assert_int_equal(r->state_spec_bytes, (k / s + 1) * 4 * p);
    assert_int_equal(r->state_unbudgeted_bytes, p + 4 * p);
    assert_int_equal(r->max_tokens, (kv - k * p - k / s * 4 * p) / (17 * 4096));

    /* 0.5.10-0.5.13 refuse speculative decoding over the radix cache (no_buffer) */
    w.serving.engine.version = 510;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    assert_false(r->starts);
    assert_non_null(strstr(r->binding, "--disable-radix-cache"));

    /* the 48 bound any SGLang target under speculative decoding: a batch of 64 queues */
    const struct gs_arch l8 = fixture_llama(4096, 32, 32, 8, 14336, 128256, false);
    const struct gs_model_spec lm = fixture_spec(&l8);
    w.serving.engine.version = 0;
    w.serving.engine.spec_method = GS_SPEC_NGRAM;
    w.serving.batch_size = 64;
    w.serving.context_length = 1024;
    assert_int_equal(gs_estimate_compute(&lm, &w, &e, NULL), GS_OK);
    assert_int_equal(r->max_num_seqs, 48);
    assert_true(estimate_warned(&e, "batch_exceeds_max_num_seqs"));
    w.serving.engine.spec_method = GS_SPEC_NONE;
    assert_int_equal(gs_estimate_compute(&lm, &w, &e, NULL), GS_OK);
    assert_false(estimate_warned(&e, "batch_exceeds_max_num_seqs"));
    /* the bound came with PR #4908 (first in the v0.4.5 tag) for EAGLE: 0.4.4 set none */
    const struct gs_arch head = fixture_llama(4096, 1, 32, 8, 14336, 128256, false);
    const struct gs_draft eagle = {&head, GS_WF_BF16, 0, 32000, 0};
    w.serving.engine.spec_method = GS_SPEC_EAGLE;
    w.serving.draft = &eagle;
    w.serving.engine.version = 404;
    assert_int_equal(gs_estimate_compute(&lm, &w, &e, NULL), GS_OK);
    assert_int_not_equal(r->max_num_seqs, 48);
    assert_false(estimate_warned(&e, "batch_exceeds_max_num_seqs"));
    w.serving.engine.version = 405;
    assert_int_equal(gs_estimate_compute(&lm, &w, &e, NULL), GS_OK);
    assert_int_equal(r->max_num_seqs, 48);
    assert_true(estimate_warned(&e, "batch_exceeds_max_num_seqs"));
    w.serving.draft = NULL;
}

/* SGLang's state-pool knobs (kv_cache_configurator.py _handle_max_mamba_cache,
 * configs/mamba_utils.py): --max-mamba-cache-size names the slots outright (40: 41 x P with the
 * padding slot, 8 requests at S = 5; under NEXTN (8 + 1) x D x P of draft states beside them),
 * --mamba-full-memory-ratio 0.3 gives the states 0.3 / 1.3 of the pool, and --mamba-ssm-dtype
 * bfloat16 keeps Qwen3.5-27B's recurrent states in 2 bytes: 48 layers x (10,240 x 3 conv + 48 x
 * 128 x 128 state) x 2 = 78,446,592 a slot. */
static void test_sglang_state_knobs(void **state)
{
    (void)state;
    const struct gs_arch q27 = fixture_arch_file("qwen3_5/Qwen__Qwen3.5-27B.json");
    const struct gs_model_spec m = fixture_spec(&q27);
    struct gs_workload w = sglang_h200_workload();
    static struct gs_estimate e;
    const struct gs_inference_result *r = &e.serving;
    const uint64_t p = QWEN35_27B_SGLANG_SLOT;
    w.serving.engine.max_mamba_cache_size = 40;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    assert_int_equal(r->state_slots, 40);
    assert_int_equal(r->state_pool_bytes, 41 * p);
    assert_int_equal(r->state_spec_bytes, 0);
    assert_int_equal(r->state_seqs, 8);
    assert_int_equal(r->max_tokens, ((uint64_t)r->budget.kv_bytes - 41 * p) / 65536);
    w.serving.engine.spec_method = GS_SPEC_MTP;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    assert_int_equal(r->state_slots, 40);
    assert_int_equal(r->state_spec_bytes, 9 * 4 * p);

    w.serving.engine.spec_method = GS_SPEC_NONE;
    w.serving.engine.max_mamba_cache_size = 0;
    w.serving.engine.mamba_full_memory_ratio_permille = 300;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    const uint64_t kv = (uint64_t)r->budget.kv_bytes;
    const uint64_t budget = kv / 1300 * 300 + kv % 1300 * 300 / 1300;
    assert_int_equal(r->state_slots, (budget - p) / p);

    w.serving.engine.mamba_full_memory_ratio_permille = 0;
    w.serving.engine.mamba_ssm_bytes = 2;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    assert_int_equal(r->kv.state_bytes_per_sequence, 78446592ULL);

    /* a config's mamba_ssm_dtype counts from 0.5.9 (mamba2_state_dtype(config)); before, the
     * flag's default float32 whatever the config says: Qwen3-Next with a bfloat16 state, 36 x
     * (8,192 x 3 x 2 + 32 x 128 x 128 x 2) = 39,518,208 bytes from 0.5.9, 77,266,944 in 0.5.8 */
    static struct gs_arch next;
    next = fixture_arch_file("qwen3_next/Qwen__Qwen3-Next-80B-A3B-Thinking.json");
    for (size_t i = 0; i < next.block_count; i++)
        if (next.blocks[i].rec.state_heads)
            next.blocks[i].rec.config_state_bytes = 2;
    const struct gs_model_spec nm = fixture_spec(&next);
    w.serving.engine.mamba_ssm_bytes = 0;
    w.serving.engine.version = 509;
    assert_int_equal(gs_estimate_compute(&nm, &w, &e, NULL), GS_OK);
    assert_int_equal(r->kv.state_bytes_per_sequence, 39518208ULL);
    w.serving.engine.version = 508;
    assert_int_equal(gs_estimate_compute(&nm, &w, &e, NULL), GS_OK);
    assert_int_equal(r->kv.state_bytes_per_sequence, 77266944ULL);
    w.serving.engine.mamba_ssm_bytes = 2; /* --mamba-ssm-dtype bfloat16 */
    assert_int_equal(gs_estimate_compute(&nm, &w, &e, NULL), GS_OK);
    assert_int_equal(r->kv.state_bytes_per_sequence, 39518208ULL);
}

/* bytes x 0.9 / 1.9, as sglang.c splits the pool (mamba_full_memory_ratio 0.9) */
static uint64_t sglang_state_share(uint64_t bytes)
{
    return bytes / 1900 * 900 + bytes % 1900 * 900 / 1900;
}

/* SGLang's hybrid state pool release by release (read at the tags v0.5.2-v0.5.18:
 * model_runner.py / model_runner_kv_cache_mixin.py handle_max_mamba_cache, memory_pool.py
 * MambaPool, server_args.py; docs/engines.md). Qwen3-Next-80B at TP 2 on H200s, 8,192 tokens:
 * one sequence's states P = 36 x (4,096 x 3 x 2 + 16 x 128 x 128 x 4) = 38,633,472 bytes a GPU,
 * 12,288 bytes a token of attention cache (12 layers x 2 x 1 head x 256 x 2). MambaPool holds
 * K + 1 slots and, under speculative decoding, (its request pool + 1) x D draft states; what the
 * release's budget does not take is state_unbudgeted_bytes. */
static void test_sglang_state_pool_by_release(void **state)
{
    (void)state;
    const struct gs_arch next =
        fixture_arch_file("qwen3_next/Qwen__Qwen3-Next-80B-A3B-Thinking.json");
    const struct gs_model_spec m = fixture_spec(&next);
    struct gs_workload w = fixture_vllm_workload(1, 8192, 2, 150754820096ULL);
    w.serving.engine.engine = GS_ENGINE_SGLANG;
    static struct gs_estimate e;
    const struct gs_inference_result *r = &e.serving;
    const uint64_t p = 38633472ULL, cell = 12288;
    uint64_t kv, k, seqs;

    /* 0.5.3: no radix cache, 512 slots (K P taken), one a request; the padding slot past it */
    w.serving.engine.version = 503;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    kv = (uint64_t)r->budget.kv_bytes;
    assert_int_equal(r->kv.state_bytes_per_sequence, p);
    assert_int_equal(r->state_slots, 512);
    assert_int_equal(r->state_request_slots, 1);
    assert_int_equal(r->state_pool_bytes, 513 * p);
    assert_int_equal(r->state_unbudgeted_bytes, p);
    assert_int_equal(r->max_tokens, (kv - 512 * p) / cell);
    /* NEXTN: 48 slots (max_running_requests), 8 draft tokens (auto_choose_speculative_params'
     * (5, 4, 8) for every class outside its list through 0.5.7), 49 x 8 draft states allocated
     * and none budgeted: 393 P past the fraction, more than the reserve leaves */
    w.serving.engine.spec_method = GS_SPEC_MTP;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    kv = (uint64_t)r->budget.kv_bytes;
    assert_int_equal(r->state_slots, 48);
    assert_int_equal(r->state_spec_tokens, 8);
    assert_int_equal(r->state_spec_bytes, 49 * 8 * p);
    assert_int_equal(r->state_unbudgeted_bytes, p + 49 * 8 * p);
    assert_int_equal(r->max_tokens, (kv - 48 * p) / cell);
    assert_true(estimate_warned(&e, "state_pool_past_reserve"));

    /* 0.5.6: the radix cache, K = share / P / (1 + D), K P (1 + D) taken, 3 slots a request */
    w.serving.engine.version = 506;
    w.serving.engine.spec_method = GS_SPEC_NONE;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    kv = (uint64_t)r->budget.kv_bytes;
    k = sglang_state_share(kv) / p;
    assert_int_equal(r->state_slots, k);
    assert_int_equal(r->state_request_slots, 3);
    assert_int_equal(r->state_seqs, k / 3);
    assert_int_equal(r->max_tokens, (kv - k * p) / cell);
    assert_int_equal(r->state_unbudgeted_bytes, p);
    w.serving.engine.spec_method = GS_SPEC_MTP;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    kv = (uint64_t)r->budget.kv_bytes;
    k = sglang_state_share(kv) / p / 9;
    assert_int_equal(r->state_slots, k);
    assert_int_equal(r->state_spec_bytes, (k + 1) * 8 * p);
    assert_int_equal(r->state_unbudgeted_bytes, 9 * p);
    assert_int_equal(r->max_tokens, (kv - 9 * k * p) / cell);
    assert_int_equal(r->state_seqs, k / 3 < 48 ? k / 3 : 48);
    assert_false(estimate_warned(&e, "state_pool_past_reserve"));

    /* 0.5.7: 48 x 8 draft states reserved first, the ratio of the rest, 3 + 2 slots a
     * request; the draft states allocated for min(48, K / 5) + 1 requests */
    w.serving.engine.version = 507;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    kv = (uint64_t)r->budget.kv_bytes;
    k = sglang_state_share(kv - 48 * 8 * p) / p;
    seqs = k / 5 < 48 ? k / 5 : 48;
    assert_int_equal(r->state_slots, k);
    assert_int_equal(r->state_request_slots, 5);
    assert_int_equal(r->state_spec_bytes, (seqs + 1) * 8 * p);
    assert_int_equal(r->max_tokens, (kv - 48 * 8 * p - k * p) / cell);

    /* 0.5.8: (3, 1, 4) now, 48 x 4 reserved first, 3 slots a request (no_buffer) */
    w.serving.engine.version = 508;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    kv = (uint64_t)r->budget.kv_bytes;
    k = sglang_state_share(kv - 48 * 4 * p) / p;
    seqs = k / 3 < 48 ? k / 3 : 48;
    assert_int_equal(r->state_spec_tokens, 4);
    assert_int_equal(r->state_slots, k);
    assert_int_equal(r->state_request_slots, 3);
    assert_int_equal(r->state_spec_bytes, (seqs + 1) * 4 * p);
    assert_int_equal(r->max_tokens, (kv - 48 * 4 * p - k * p) / cell);

    /* 0.5.9: speculative decoding turns the radix cache off: max_running_requests slots */
    w.serving.engine.version = 509;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    kv = (uint64_t)r->budget.kv_bytes;
    assert_int_equal(r->state_slots, 48);
    assert_int_equal(r->state_request_slots, 1);
    assert_int_equal(r->state_spec_bytes, 49 * 4 * p);
    assert_int_equal(r->state_unbudgeted_bytes, p + 4 * p);
    assert_int_equal(r->max_tokens, (kv - 48 * 4 * p - 48 * p) / cell);
    assert_true(r->starts);

    /* 0.5.10-0.5.13 raise instead; with prefix caching off they run as 0.5.9 */
    w.serving.engine.version = 513;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    assert_false(r->starts);
    assert_non_null(strstr(r->engine_refusal, "no_buffer"));
    w.serving.engine.prefix_caching = GS_CHUNKED_PREFILL_OFF;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    assert_true(r->starts);
    assert_int_equal(r->state_slots, 48);

    /* without the radix cache and without max_running_requests: 512 slots through 0.5.8, the
     * ratio from 0.5.9 */
    w.serving.engine.spec_method = GS_SPEC_NONE;
    w.serving.engine.version = 508;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    assert_int_equal(r->state_slots, 512);
    w.serving.engine.version = 509;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    kv = (uint64_t)r->budget.kv_bytes;
    assert_int_equal(r->state_slots, sglang_state_share(kv) / p);
    assert_int_equal(r->state_request_slots, 1);

    /* 0.5.13 with the radix cache: 3 slots a request (auto meant no_buffer); 0.5.14 picks
     * extra_buffer for Qwen3-Next: 5 */
    w.serving.engine.prefix_caching = GS_CHUNKED_PREFILL_DEFAULT;
    w.serving.engine.version = 513;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    assert_int_equal(r->state_request_slots, 3);
    w.serving.engine.version = 514;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    assert_int_equal(r->state_request_slots, 5);

    /* Nemotron-H: no radix cache through 0.5.6 (512 slots), kept from 0.5.7, turned off under
     * speculative decoding in 0.5.8 (ngram: 48 slots, one a request) */
    const struct gs_arch nh = fixture_arch_file("nemotron_h/nvidia__Nemotron-H-8B-Base-8K.json");
    const struct gs_model_spec nm = fixture_spec(&nh);
    w = sglang_h200_workload();
    w.serving.engine.version = 506;
    assert_int_equal(gs_estimate_compute(&nm, &w, &e, NULL), GS_OK);
    assert_int_equal(r->state_slots, 512);
    assert_int_equal(r->state_request_slots, 1);
    w.serving.engine.version = 507;
    assert_int_equal(gs_estimate_compute(&nm, &w, &e, NULL), GS_OK);
    assert_int_equal(r->state_request_slots, 5);
    w.serving.engine.version = 508;
    assert_int_equal(gs_estimate_compute(&nm, &w, &e, NULL), GS_OK);
    assert_int_equal(r->state_request_slots, 3);
    w.serving.engine.spec_method = GS_SPEC_NGRAM;
    assert_int_equal(gs_estimate_compute(&nm, &w, &e, NULL), GS_OK);
    assert_int_equal(r->state_request_slots, 1);
    assert_int_equal(r->state_slots, 48);
    assert_int_equal(r->state_spec_tokens, 12);

    /* Pipeline parallelism, two H200s, SGLANG_PP_LAYER_PARTITION=20,32: Nemotron-H 8B's 24
     * Mamba layers fall 9 and 15. The budget charges every layer's states a slot through 0.5.16
     * (mamba_cache_per_req), the largest stage's (15 / 24 of them) from 0.5.17; the pool holds
     * every layer's through 0.5.9, the stage's from 0.5.10. */
    w.serving.engine.spec_method = GS_SPEC_NONE;
    w.serving.engine.version = 517;
    assert_int_equal(gs_estimate_compute(&nm, &w, &e, NULL), GS_OK);
    const uint64_t p_all = r->kv.state_bytes_per_sequence, p_layer = p_all / 24;
    assert_int_equal(p_all % 24, 0);
    w.parallelism.pipeline = 2;
    w.parallelism.stages = gs_stage_rule(GS_SPLIT_GIVEN);
    w.parallelism.stages.given_count = 2;
    w.parallelism.stages.given[0] = 20;
    w.parallelism.stages.given[1] = 32;
    w.serving.engine.version = 509;
    assert_int_equal(gs_estimate_compute(&nm, &w, &e, NULL), GS_OK);
    const uint64_t p_stage = r->kv.state_bytes_per_sequence;
    assert_true(p_stage == 9 * p_layer || p_stage == 15 * p_layer);
    kv = (uint64_t)r->budget.kv_bytes;
    k = sglang_state_share(kv) / p_all;
    assert_int_equal(r->state_slots, k);
    assert_int_equal(r->state_slot_held_bytes, p_all);
    assert_int_equal(r->state_pool_bytes, (k + 1) * p_all);
    w.serving.engine.version = 516;
    assert_int_equal(gs_estimate_compute(&nm, &w, &e, NULL), GS_OK);
    kv = (uint64_t)r->budget.kv_bytes;
    k = sglang_state_share(kv) / p_all;
    assert_int_equal(r->state_slots, k);
    assert_int_equal(r->state_slot_charged_bytes, p_all);
    assert_int_equal(r->state_pool_bytes, (k + 1) * p_stage);
    assert_int_equal(r->state_unbudgeted_bytes, 0); /* the budget took more than it holds */
    w.serving.engine.version = 517;
    assert_int_equal(gs_estimate_compute(&nm, &w, &e, NULL), GS_OK);
    kv = (uint64_t)r->budget.kv_bytes;
    const uint64_t p_most = 15 * p_layer;
    k = (sglang_state_share(kv) - p_most) / p_most;
    assert_int_equal(r->state_slots, k);
    assert_int_equal(r->state_pool_bytes, (k + 1) * p_stage);

    /* 0.5.3-0.5.5 on SM 10.x: the hybrid GDN wrapper asserts triton where flashinfer is the
     * default (attention_registry.py); 0.5.6 sets triton itself; SM 12.x is not is_blackwell() */
    struct gs_workload wb = fixture_vllm_workload(1, 8192, 2, 191514935296ULL); /* B200 */
    wb.serving.engine.engine = GS_ENGINE_SGLANG;
    wb.gpu.hw = GS_HW_BLACKWELL;
    wb.serving.engine.version = 505;
    const struct gs_arch next0 =
        fixture_arch_file("qwen3_next/Qwen__Qwen3-Next-80B-A3B-Thinking.json");
    const struct gs_model_spec q0 = fixture_spec(&next0);
    assert_int_equal(gs_estimate_compute(&q0, &wb, &e, NULL), GS_OK);
    assert_false(r->starts);
    assert_non_null(strstr(r->engine_refusal, "--attention-backend triton"));
    wb.serving.engine.version = 506;
    assert_int_equal(gs_estimate_compute(&q0, &wb, &e, NULL), GS_OK);
    assert_true(r->starts);
    wb.serving.engine.version = 505;
    wb.gpu.sm_major = 12;
    assert_int_equal(gs_estimate_compute(&q0, &wb, &e, NULL), GS_OK);
    assert_true(r->starts);

    /* Qwen3-Next's code asserts one pipeline rank in every release */
    const struct gs_arch next1 =
        fixture_arch_file("qwen3_next/Qwen__Qwen3-Next-80B-A3B-Thinking.json");
    const struct gs_model_spec qm = fixture_spec(&next1);
    w.parallelism.stages = gs_stage_rule(GS_SPLIT_VLLM);
    assert_int_equal(gs_estimate_compute(&qm, &w, &e, NULL), GS_OK);
    assert_false(r->starts);
    assert_non_null(strstr(r->engine_refusal, "single pipeline rank"));
}

/* TensorRT-LLM's speculative decoding on the PyTorch backend (trtllm_draft.c, gs/trtllm.h).
 *   - DeepSeek-V3 (one MTP layer: MTP_EAGLE_ONE_MODEL) at TP 8 in bf16 with 3 draft tokens: the
 *     layer vLLM's test weighs at 3,112,119,296 bytes with eh_proj whole (14,336 x 7,168 x 2 =
 *     205,520,896), here split by rows (1,792 x 7,168 x 2 = 25,690,112): 2,932,288,512; the
 *     captured last-layer states, 8,192 tokens x 7,168 x 2 = 117,440,512 bytes, built before
 *     the profile; the KV cache 1.3 one layer more (62 x 1,152 bytes a token) and 3 - 1 + 3 = 5
 *     tokens a sequence more; 1.1-1.2 three layers (64 x 1,152; get_num_spec_layers =
 *     num_nextn_predict_layers) and 3 tokens, with the warnings that the token count and the
 *     per-graph buffers are estimated; 1.0 three layers and 5 tokens;
 *   - Llama-3.1-8B with a one-layer EAGLE-3 head (draft vocabulary 32,000) and 3 draft tokens on
 *     an H100: vLLM's 849,635,328 head bytes less half its int64 map (d2t is int32: 128,000
 *     fewer); 1.3: the head's own layer (4,096 bytes a token), Eagle3ResourceManager's
 *     (8,192 + 4 x 2,048) x 3 x 4,096 x 2 = 402,653,184 buffer bytes, a sequence of 8,192
 *     tokens 8,197 (257 blocks of 32); 1.2: three layers like the target's (35 x 4,096) and
 *     8,192 x 3 x 4,096 x 2 = 201,326,592 buffer bytes; the budget loses 0.9 x (draft weights +
 *     buffers);
 *   - draft_model: Llama-3.2-1B beside Llama-3-70B at TP 4 (vLLM's figures: 618,008,576 bytes,
 *     8,192 bytes a token), 4 draft tokens a sequence; ngram: 4 tokens, nothing else;
 *   - refused: eagle (EAGLE-1/2), pipeline parallelism, EAGLE-3 without max_draft_len, the
 *     engine path (0.8), a hybrid target. */
static void test_trtllm_speculative(void **state)
{
    (void)state;
    static struct gs_estimate plain, e;
    struct gs_error err;
    const struct gs_arch v3 = fixture_deepseek_v3_with("\"num_nextn_predict_layers\":1,");
    const struct gs_model_spec m = fixture_spec(&v3);
    struct gs_workload w = workload(GS_MODE_INFERENCE, GS_DTYPE_BF16);
    w.parallelism.tensor = 8;
    w.serving.present = true;
    w.serving.batch_size = 1;
    w.serving.context_length = 8192;
    w.serving.engine.engine = GS_ENGINE_TENSORRT_LLM;
    w.gpu.total_bytes = 150754820096ULL; /* H200 */
    assert_int_equal(gs_estimate_compute(&m, &w, &plain, NULL), GS_OK);
    w.serving.engine.spec_method = GS_SPEC_MTP;
    w.serving.engine.spec_tokens = 3;
    gs_error_init(&err);
    if (gs_estimate_compute(&m, &w, &e, &err) != GS_OK)
        fail_msg("%s %s", err.items[0].pointer, err.items[0].detail);
    assert_int_equal(e.serving.spec_buffer_bytes, 117440512ULL);
    assert_int_equal(e.per_gpu.weights_bytes - plain.per_gpu.weights_bytes, 2932288512ULL);
    assert_int_equal(e.serving.budget.weights_bytes - plain.serving.budget.weights_bytes,
                     2932288512ULL + 117440512ULL);
    assert_int_equal(e.serving.kv.bytes_per_token, 62 * 1152);
    assert_int_equal(e.serving.seq_extra_tokens, 5);
    assert_string_equal(e.serving.spec_mode, "MTP_EAGLE_ONE_MODEL");
    assert_false(estimate_warned(&e, "speculative_pool_estimated"));
    w.serving.engine.version = 10200;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    assert_int_equal(e.per_gpu.weights_bytes - plain.per_gpu.weights_bytes, 2932288512ULL);
    assert_int_equal(e.serving.kv.bytes_per_token, 64 * 1152);
    assert_int_equal(e.serving.seq_extra_tokens, 3);
    assert_true(estimate_warned(&e, "speculative_pool_estimated"));
    assert_true(estimate_warned(&e, "speculative_graph_buffers_not_modeled"));
    w.serving.engine.version = 10000;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    assert_int_equal(e.serving.kv.bytes_per_token, 64 * 1152);
    assert_int_equal(e.serving.seq_extra_tokens, 5);
    w.serving.engine.version = 800; /* the engine path */
    gs_error_init(&err);
    assert_int_equal(gs_estimate_compute(&m, &w, &e, &err), GS_ERR_INVALID);
    assert_string_equal(err.items[0].pointer, "/inference/speculative");
    w.serving.engine.version = 0;
    w.parallelism.tensor = 4;
    w.parallelism.pipeline = 2;
    gs_error_init(&err);
    assert_int_equal(gs_estimate_compute(&m, &w, &e, &err), GS_ERR_INVALID);
    assert_string_equal(err.items[0].pointer, "/parallelism/pipeline");

    const struct gs_arch target = fixture_llama(4096, 32, 32, 8, 14336, 128256, false);
    const struct gs_model_spec lm = fixture_spec(&target);
    const struct gs_arch head = fixture_llama(4096, 1, 32, 8, 14336, 128256, false);
    const struct gs_draft eagle3 = {&head, GS_WF_BF16, 0, 32000, 0};
    w.parallelism.tensor = 1;
    w.parallelism.pipeline = 1;
    w.gpu.total_bytes = 85061827297ULL; /* H100 */
    w.serving.engine.spec_method = GS_SPEC_NONE;
    assert_int_equal(gs_estimate_compute(&lm, &w, &plain, NULL), GS_OK);
    w.serving.engine.spec_method = GS_SPEC_EAGLE3;
    w.serving.draft = &eagle3;
    assert_int_equal(gs_estimate_compute(&lm, &w, &e, NULL), GS_OK);
    const uint64_t head_bytes = 849635328ULL - 128000ULL;
    assert_int_equal(e.per_gpu.weights_bytes - plain.per_gpu.weights_bytes, head_bytes);
    assert_int_equal(e.serving.spec_buffer_bytes, 402653184ULL);
    assert_int_equal(e.serving.kv.bytes_per_token, 33 * 4096);
    assert_int_equal(e.serving.seq_extra_tokens, 5);
    const int64_t lost = plain.serving.budget.kv_bytes - e.serving.budget.kv_bytes;
    const int64_t expect = (int64_t)((head_bytes + 402653184ULL) / 1000 * 900);
    assert_true(lost >= expect - 900 && lost <= expect + 900);
    assert_int_equal(e.serving.max_concurrency,
                     (uint64_t)e.serving.budget.kv_bytes / (257 * 32 * 33 * 4096ULL));
    w.serving.engine.version = 10200;
    assert_int_equal(gs_estimate_compute(&lm, &w, &e, NULL), GS_OK);
    assert_int_equal(e.serving.kv.bytes_per_token, 35 * 4096);
    assert_int_equal(e.serving.spec_buffer_bytes, 201326592ULL);
    w.serving.engine.version = 0;
    w.serving.engine.spec_tokens = 0; /* max_draft_len has no default */
    gs_error_init(&err);
    assert_int_equal(gs_estimate_compute(&lm, &w, &e, &err), GS_ERR_INVALID);
    assert_string_equal(err.items[0].pointer, "/inference/speculative/num_speculative_tokens");
    w.serving.engine.spec_tokens = 3;
    w.serving.engine.spec_method = GS_SPEC_EAGLE;
    gs_error_init(&err);
    assert_int_equal(gs_estimate_compute(&lm, &w, &e, &err), GS_ERR_INVALID);
    assert_string_equal(err.items[0].pointer, "/inference/speculative/method");

    const struct gs_model_spec big = *llama70_spec();
    const struct gs_draft small = *llama1b_draft();
    w.parallelism.tensor = 4;
    w.serving.engine.spec_method = GS_SPEC_NONE;
    w.serving.draft = NULL;
    assert_int_equal(gs_estimate_compute(&big, &w, &plain, NULL), GS_OK);
    w.serving.engine.spec_method = GS_SPEC_DRAFT_MODEL;
    w.serving.engine.spec_tokens = 4;
    w.serving.draft = &small;
    assert_int_equal(gs_estimate_compute(&big, &w, &e, NULL), GS_OK);
    assert_int_equal(e.per_gpu.weights_bytes - plain.per_gpu.weights_bytes, 618008576ULL);
    assert_int_equal(e.serving.kv.bytes_per_token - plain.serving.kv.bytes_per_token, 8192);
    assert_int_equal(e.serving.seq_extra_tokens, 4);
    assert_int_equal(e.serving.spec_buffer_bytes, 0);
    w.serving.engine.spec_method = GS_SPEC_NGRAM;
    w.serving.draft = NULL;
    assert_int_equal(gs_estimate_compute(&big, &w, &e, NULL), GS_OK);
    assert_int_equal(e.per_gpu.weights_bytes, plain.per_gpu.weights_bytes);
    assert_int_equal(e.serving.kv.bytes_per_token, plain.serving.kv.bytes_per_token);
    assert_int_equal(e.serving.seq_extra_tokens, 4);

    const struct gs_arch nano =
        fixture_arch_file("nemotron_h/nvidia__NVIDIA-Nemotron-3-Nano-30B-A3B-BF16.json");
    const struct gs_model_spec mh = fixture_spec(&nano);
    w.parallelism.tensor = 1;
    w.serving.engine.spec_method = GS_SPEC_NGRAM;
    gs_error_init(&err);
    assert_int_equal(gs_estimate_compute(&mh, &w, &e, &err), GS_ERR_INVALID);
    assert_string_equal(err.items[0].pointer, "/inference/speculative/method");
}

/* vLLM's --mamba-ssm-cache-dtype (vllm.c vllm_state_dtype; MambaStateDtypeCalculator in
 * layers/mamba/mamba_utils.py): the conv windows stay in the model's dtype, the ssm states take
 * the flag over the config's key, and the attention block grows until it holds a state's page
 * (16 x ceil(state / (16 x one token of one layer))).
 *   - Qwen3.5-27B (48 Gated DeltaNet layers: conv 10,240 x 3, state 48 heads x 128 x 128; 16
 *     attention layers of 4,096 bytes a token): its mamba_ssm_dtype float32 by default,
 *     48 x (61,440 + 3,145,728) = 153,944,064 bytes, a block of 16 x ceil(3,207,168 / 65,536) =
 *     784 tokens; bfloat16 48 x (61,440 + 1,572,864) = 78,446,592, 16 x 25 = 400 tokens;
 *     bfloat16 is refused before 0.22 and float16 before 0.13 (400 at the field);
 *   - Qwen3-Next-80B-A3B (36 Gated DeltaNet layers: conv 8,192 x 3, state 32 x 128 x 128): the
 *     model's bf16 by default, 36 x (49,152 + 1,048,576) = 39,518,208; float32 36 x (49,152 +
 *     2,097,152) = 77,266,944 from 0.17, unchanged with a warning on 0.16;
 *   - Nemotron-3-Nano (23 Mamba-2 layers): bfloat16 23 x (36,864 + 64 x 64 x 128 x 2) =
 *     24,965,120 against the config's float32, 49,082,368; without the flag its config's
 *     mamba_ssm_cache_dtype float32 from 0.13 (NemotronHForCausalLMConfig), bf16 before;
 *     Nemotron-H-8B (24 layers, conv 10,240 x 3, state 128 x 64 x 128), whose config names no
 *     dtype: float16 from 0.13 to 0.19, 24 x (61,440 + 2,097,152) = 51,806,208, float32 from 0.20,
 *     24 x (61,440 + 4,194,304) = 102,137,856;
 *   - Kimi-Linear: Kimi Delta Attention's fp32 state ignores the flag (a warning). */
static void test_vllm_ssm_dtype(void **state)
{
    (void)state;
    static struct gs_estimate e;
    const struct gs_inference_result *r = &e.serving;
    struct gs_error err;
    const struct gs_arch q27 = fixture_arch_file("qwen3_5/Qwen__Qwen3.5-27B.json");
    const struct gs_model_spec m = fixture_spec(&q27);
    struct gs_workload w = fixture_vllm_workload(1, 8192, 1, 150754820096ULL); /* H200 */
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    assert_int_equal(r->kv.state_bytes_per_sequence, 153944064ULL);
    assert_int_equal(r->block_size, 784);
    w.serving.engine.mamba_ssm_bytes = 2;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    assert_int_equal(r->kv.state_bytes_per_sequence, 78446592ULL);
    assert_int_equal(r->pages.state_page_bytes, 78446592ULL / 48);
    assert_int_equal(r->block_size, 400);
    assert_false(estimate_warned(&e, "mamba_ssm_dtype_ignored"));
    w.serving.engine.version = 2100;
    gs_error_init(&err);
    assert_int_equal(gs_estimate_compute(&m, &w, &e, &err), GS_ERR_INVALID);
    assert_string_equal(err.items[0].pointer, "/inference/mamba_ssm_dtype");
    w.serving.engine.mamba_ssm_float16 = true; /* float16 from 0.13 */
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    assert_int_equal(r->kv.state_bytes_per_sequence, 78446592ULL);
    w.serving.engine.version = 1200;
    gs_error_init(&err);
    assert_int_equal(gs_estimate_compute(&m, &w, &e, &err), GS_ERR_INVALID);
    assert_string_equal(err.items[0].pointer, "/inference/mamba_ssm_dtype");

    const struct gs_arch next =
        fixture_arch_file("qwen3_next/Qwen__Qwen3-Next-80B-A3B-Thinking.json");
    const struct gs_model_spec mn = fixture_spec(&next);
    w = fixture_vllm_workload(1, 8192, 2, 150754820096ULL);
    assert_int_equal(gs_estimate_compute(&mn, &w, &e, NULL), GS_OK);
    assert_int_equal(r->kv.state_bytes_per_sequence, 39518208ULL / 2);
    w.serving.engine.mamba_ssm_bytes = 4;
    assert_int_equal(gs_estimate_compute(&mn, &w, &e, NULL), GS_OK);
    assert_int_equal(r->kv.state_bytes_per_sequence, 77266944ULL / 2);
    w.serving.engine.version = 1600;
    assert_int_equal(gs_estimate_compute(&mn, &w, &e, NULL), GS_OK);
    assert_int_equal(r->kv.state_bytes_per_sequence, 39518208ULL / 2);
    assert_true(estimate_warned(&e, "mamba_ssm_dtype_ignored"));

    const struct gs_arch nano =
        fixture_arch_file("nemotron_h/nvidia__NVIDIA-Nemotron-3-Nano-30B-A3B-BF16.json");
    const struct gs_model_spec mh = fixture_spec(&nano);
    w = fixture_vllm_workload(1, 8192, 1, 150754820096ULL);
    assert_int_equal(gs_estimate_compute(&mh, &w, &e, NULL), GS_OK);
    assert_int_equal(r->kv.state_bytes_per_sequence, 49082368ULL);
    w.serving.engine.mamba_ssm_bytes = 2;
    assert_int_equal(gs_estimate_compute(&mh, &w, &e, NULL), GS_OK);
    assert_int_equal(r->kv.state_bytes_per_sequence, 24965120ULL);
    w.serving.engine.mamba_ssm_bytes = 0;
    w.serving.engine.version = 1200;
    assert_int_equal(gs_estimate_compute(&mh, &w, &e, NULL), GS_OK);
    assert_int_equal(r->kv.state_bytes_per_sequence, 24965120ULL);
    w.serving.engine.version = 1900;
    assert_int_equal(gs_estimate_compute(&mh, &w, &e, NULL), GS_OK);
    assert_int_equal(r->kv.state_bytes_per_sequence, 49082368ULL);
    const struct gs_arch h8 = fixture_arch_file("nemotron_h/nvidia__Nemotron-H-8B-Base-8K.json");
    const struct gs_model_spec m8 = fixture_spec(&h8);
    assert_int_equal(gs_estimate_compute(&m8, &w, &e, NULL), GS_OK);
    assert_int_equal(r->kv.state_bytes_per_sequence, 51806208ULL);
    w.serving.engine.version = 2000;
    assert_int_equal(gs_estimate_compute(&m8, &w, &e, NULL), GS_OK);
    assert_int_equal(r->kv.state_bytes_per_sequence, 102137856ULL);

    const struct gs_arch kimi =
        fixture_arch_file("kimi_linear/moonshotai__Kimi-Linear-48B-A3B-Instruct.json");
    const struct gs_model_spec mk = fixture_spec(&kimi);
    w = fixture_vllm_workload(1, 8192, 1, 150754820096ULL);
    assert_int_equal(gs_estimate_compute(&mk, &w, &e, NULL), GS_OK);
    const uint64_t kda = r->kv.state_bytes_per_sequence;
    assert_false(estimate_warned(&e, "mamba_ssm_dtype_ignored"));
    w.serving.engine.mamba_ssm_bytes = 2;
    assert_int_equal(gs_estimate_compute(&mk, &w, &e, NULL), GS_OK);
    assert_int_equal(r->kv.state_bytes_per_sequence, kda);
    assert_true(estimate_warned(&e, "mamba_ssm_dtype_ignored"));
}

/* TensorRT-LLM keeps a hybrid's recurrent states for max_batch_size sequences whatever the
 * batch (tensorrt_llm.c trtllm_state_pool). Nemotron-3-Nano-30B-A3B (23 Mamba layers of 64 heads
 * x 64 x 128, conv 6,144 x 3; six attention layers of 2 KV heads x 128: 6,144 bytes a token) on
 * one H100 at 8,192 tokens:
 *   - 1.3 (MambaHybridCacheManagerV2, Nemotron-H's default; the config's mamba_ssm_cache_dtype
 *     float32 kept): a slot is 23 x (6,144 x 3 x 2 + 64 x 64 x 128 x 4) = 49,082,368 bytes, the
 *     floor of 2,048 + 1 of them (100.6 GB) more than the budget Q: it does not start. With b
 *     sequences the quota splits by a typical step, (b + 1) slots and b requests of 4,096 tokens
 *     (each/2 bytes, each = 8,192 x 6,144): the states take Q x (b + 1) / ((b + 1) slot + b each/2)
 *     slots, the attention Q x A / (S + A) of it, which holds b sequences while
 *     b <= (Q - 2 slot) / (2 slot + each) - the fix lower_max_num_seqs (that bound, or one more
 *     where the slots' rounding down leaves the room), with which it starts and holds the batch,
 *     and one more sequence is not held;
 *   - 1.3's C++ manager for a hybrid outside V2's defaults (Jamba-1.5-Mini on an H200,
 *     max_batch_size 16): the states a fixed cost, 17 slots, the tokens what they leave;
 *   - 1.2 (tensors before the profile, "auto" = the model's bf16): 23 x (36,864 + 1,048,576) =
 *     24,965,120 bytes a slot, for max_batch_size 256 sequences, of which the budget loses 0.9;
 *   - Qwen3.5-27B on 1.3: mamba_ssm_dtype float32 is not TensorRT-LLM's key, so bf16:
 *     78,446,592 a slot; named float32 by the request, 153,944,064. */
static void test_trtllm_hybrid_states(void **state)
{
    (void)state;
    const struct gs_arch nano =
        fixture_arch_file("nemotron_h/nvidia__NVIDIA-Nemotron-3-Nano-30B-A3B-BF16.json");
    const struct gs_model_spec m = fixture_spec(&nano);
    struct gs_workload w = fixture_vllm_workload(8, 8192, 1, 85061827297ULL); /* H100 */
    w.serving.engine.engine = GS_ENGINE_TENSORRT_LLM;
    static struct gs_estimate e;
    const struct gs_inference_result *r = &e.serving;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    const uint64_t slot = 49082368ULL, each = 8192ULL * 6144;
    assert_int_equal(r->kv.state_bytes_per_sequence, slot);
    assert_int_equal(r->state_slots, 2049);
    assert_int_equal(r->state_pool_bytes, 2049 * slot);
    assert_true(r->state_split);
    assert_false(r->starts);
    assert_non_null(r->state_binding);
    const uint64_t kv = (uint64_t)r->budget.kv_bytes;
    const uint64_t bound = (kv - 2 * slot) / (2 * slot + each);
    const uint64_t most = r->seqs_bound;
    assert_true(bound >= 8 && bound < 2048);
    assert_true(most == bound || most == bound + 1);
    bool fixed = false;
    for (size_t i = 0; i < e.fix_count; i++)
        if (strcmp(e.fixes[i].code, "lower_max_num_seqs") == 0) {
            assert_int_equal(e.fixes[i].value, most);
            assert_true(e.fixes[i].holds_batch);
            fixed = true;
        }
    assert_true(fixed);
    w.serving.engine.max_num_seqs = most;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    assert_true(r->starts && r->holds_batch);
    const uint64_t step = (most + 1) * slot + most * (each / 2);
    assert_true(kv > step); /* the quota above the typical step: the states grow with it */
    const uint64_t slots = kv * (most + 1) / step;
    assert_int_equal(r->state_slots, slots);
    assert_true(kv - slots * slot >= most * each);
    assert_int_equal(r->max_tokens, (kv - slots * slot) / (6144 * 32) * 32);
    assert_int_equal(r->seqs_bound, 0); /* the request names it */
    w.serving.engine.max_num_seqs = most + 1;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    assert_true(kv - r->state_pool_bytes < (most + 1) * each);

    const struct gs_arch jamba = fixture_arch_file("jamba/ai21labs__AI21-Jamba-1.5-Mini.json");
    const struct gs_model_spec mj = fixture_spec(&jamba);
    struct gs_workload wj = fixture_vllm_workload(8, 8192, 1, 150754820096ULL); /* H200 */
    wj.serving.engine.engine = GS_ENGINE_TENSORRT_LLM;
    wj.serving.engine.max_num_seqs = 16;
    assert_int_equal(gs_estimate_compute(&mj, &wj, &e, NULL), GS_OK);
    const uint64_t js = r->kv.state_bytes_per_sequence, jkv = (uint64_t)r->budget.kv_bytes;
    assert_false(r->state_split);
    assert_int_equal(r->state_slots, 17);
    assert_int_equal(r->state_pool_bytes, 17 * js);
    assert_int_equal(r->max_tokens, (jkv - 17 * js) / (r->kv.bytes_per_token * 32) * 32);

    w.serving.engine.max_num_seqs = 256;
    w.serving.engine.version = 10200;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    assert_int_equal(r->kv.state_bytes_per_sequence, 24965120ULL);
    assert_int_equal(r->state_slots, 256);
    const uint64_t kv12 = (uint64_t)r->budget.kv_bytes;
    const uint64_t states = 256 * 24965120ULL;
    const uint64_t cost = states / 1000 * 900 + states % 1000 * 900 / 1000;
    assert_true(kv12 > cost);
    assert_int_equal(r->max_tokens, (kv12 - cost) / (6144 * 32) * 32);

    const struct gs_arch q27 = fixture_arch_file("qwen3_5/Qwen__Qwen3.5-27B.json");
    const struct gs_model_spec qm = fixture_spec(&q27);
    w.serving.engine.version = 0;
    assert_int_equal(gs_estimate_compute(&qm, &w, &e, NULL), GS_OK);
    assert_int_equal(r->kv.state_bytes_per_sequence, 78446592ULL);
    w.serving.engine.mamba_ssm_bytes = 4;
    assert_int_equal(gs_estimate_compute(&qm, &w, &e, NULL), GS_OK);
    assert_int_equal(r->kv.state_bytes_per_sequence, QWEN35_27B_SGLANG_SLOT);
}

/* A fix that moves to more GPUs or to int4 weights keeps the draft: its figures are the estimate
 * of that layout with the draft's weights in it (vLLM eagle3 and SGLang's from 0.5.14 alike).
 * Llama-3.1-70B in bf16 with the EAGLE-3 head of test_speculative_drafts and 64 sequences of
 * 8,192 tokens on one H100 does not start; the more_tensor_parallelism fix's kv_bytes is the
 * estimate's at its tensor degree, and the int4_weights fix's the estimate's in AWQ. */
static void test_fixes_keep_the_draft(void **state)
{
    (void)state;
    const struct gs_arch l70 = fixture_llama(8192, 80, 64, 8, 28672, 128256, false);
    const struct gs_model_spec m = fixture_spec(&l70);
    const struct gs_arch head = fixture_llama(8192, 1, 64, 8, 28672, 128256, false);
    const struct gs_draft eagle3 = {&head, GS_WF_BF16, 0, 32000, 0};
    for (int engine = 0; engine < 2; engine++) {
        struct gs_workload w = fixture_vllm_workload(64, 8192, 1, 85061827297ULL);
        w.serving.engine.engine = engine ? GS_ENGINE_SGLANG : GS_ENGINE_VLLM;
        w.serving.engine.spec_method = GS_SPEC_EAGLE3;
        w.serving.draft = &eagle3;
        static struct gs_estimate e, at;
        assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
        assert_false(e.serving.starts);
        bool wider = false, int4 = false;
        for (size_t i = 0; i < e.fix_count; i++) {
            struct gs_workload w2 = w;
            if (strcmp(e.fixes[i].code, "more_tensor_parallelism") == 0) {
                w2.parallelism.tensor = e.fixes[i].value;
                wider = true;
            } else if (strcmp(e.fixes[i].code, "int4_weights") == 0) {
                w2.format_given = true;
                w2.format = GS_WF_AWQ;
                int4 = true;
            } else {
                continue;
            }
            assert_int_equal(gs_estimate_compute(&m, &w2, &at, NULL), GS_OK);
            assert_int_equal(e.fixes[i].kv_bytes, at.serving.budget.kv_bytes);
        }
        assert_true(wider);
        assert_true(int4);
    }
}

/* vLLM's mtp with a Gemma 4 assistant as its draft (gemma4_mtp.py, spec_decode/gemma4.py;
 * tests/fixtures/configs/gemma4_assistant/README.md): gemma-4-26B-A4B with its assistant adds
 * 419,711,232 x 2 = 839,422,464 bytes at TP 1 and 419,729,920 a rank at TP 2 (the table and the
 * projections split, the norms whole), and nothing to the cache. With the centroid head (E2B's
 * kind, here on the 26B's shapes) a rank at TP 2 also keeps the centroids 1,024 x 2,048 x 2 =
 * 4,194,304, token_ordering 262,144 x 4 = 1,048,576 and the gathered head 262,144 x 1,024 x 2 =
 * 536,870,912. Refused: before 0.21, with pipeline parallelism, under eagle, as the model itself,
 * and beside a target of another width. */
static void test_speculative_gemma4_assistant(void **state)
{
    (void)state;
    const struct gs_arch target = fixture_arch_file("gemma4/google__gemma-4-26B-A4B.json");
    const struct gs_model_spec m = fixture_spec(&target);
    const struct gs_arch assistant =
        fixture_arch_file("gemma4_assistant/google__gemma-4-26B-A4B-it-assistant.json");
    const struct gs_arch ordered = fixture_arch(
        "{\"model_type\": \"gemma4_assistant\", \"backbone_hidden_size\": 2816,"
        " \"use_ordered_embeddings\": true, \"text_config\": {\"hidden_size\": 1024,"
        " \"intermediate_size\": 8192, \"num_attention_heads\": 16, \"num_key_value_heads\": 8,"
        " \"num_hidden_layers\": 4, \"hidden_size_per_layer_input\": 0}}");
    const struct gs_draft draft = {&assistant, GS_WF_BF16, 0, 0, 0};
    const struct gs_draft draft_ordered = {&ordered, GS_WF_BF16, 0, 0, 0};
    struct gs_workload w = fixture_vllm_workload(4, 8192, 1, 85061827297ULL);
    w.serving.engine.version = 2100;
    static struct gs_estimate plain, e;
    for (uint64_t t = 1; t <= 2; t++) {
        w.parallelism.tensor = t;
        w.serving.engine.spec_method = GS_SPEC_NONE;
        w.serving.draft = NULL;
        assert_int_equal(gs_estimate_compute(&m, &w, &plain, NULL), GS_OK);
        w.serving.engine.spec_method = GS_SPEC_MTP;
        w.serving.draft = &draft;
        assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
        assert_int_equal(e.per_gpu.weights_bytes - plain.per_gpu.weights_bytes,
                         t == 1 ? 839422464ULL : 419729920ULL);
        assert_int_equal(e.serving.kv.bytes_per_token, plain.serving.kv.bytes_per_token);
        assert_int_equal(e.serving.kv.state_bytes_per_sequence,
                         plain.serving.kv.state_bytes_per_sequence);
    }
    w.serving.draft = &draft_ordered;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    assert_int_equal(e.per_gpu.weights_bytes - plain.per_gpu.weights_bytes,
                     419729920ULL + 4194304 + 1048576 + 536870912);
    struct gs_error err;
    const struct {
        uint32_t version;
        uint64_t pipeline;
        enum gs_spec_method method;
        const char *pointer;
    } refused[] = {
        {2001, 1, GS_SPEC_MTP, "/inference/speculative/draft"},
        {2100, 2, GS_SPEC_MTP, "/parallelism/pipeline"},
        {2100, 1, GS_SPEC_EAGLE, "/inference/speculative/method"},
    };
    w.serving.draft = &draft;
    w.parallelism.tensor = 1;
    for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
        w.serving.engine.version = refused[i].version;
        w.parallelism.pipeline = refused[i].pipeline;
        w.serving.engine.spec_method = refused[i].method;
        gs_error_init(&err);
        assert_int_equal(gs_estimate_compute(&m, &w, &e, &err), GS_ERR_INVALID);
        assert_string_equal(err.items[0].pointer, refused[i].pointer);
    }
    w.serving.engine.version = 2100;
    w.parallelism.pipeline = 1;
    w.serving.engine.spec_method = GS_SPEC_MTP;
    const struct gs_arch llama = fixture_llama(4096, 32, 32, 8, 14336, 262144, false);
    const struct gs_model_spec other = fixture_spec(&llama);
    gs_error_init(&err);
    assert_int_equal(gs_estimate_compute(&other, &w, &e, &err), GS_ERR_INVALID);
    assert_string_equal(err.items[0].pointer, "/inference/speculative/draft");
    const struct gs_model_spec alone = fixture_spec(&assistant);
    w.serving.engine.spec_method = GS_SPEC_NONE;
    w.serving.draft = NULL;
    gs_error_init(&err);
    assert_int_equal(gs_estimate_compute(&alone, &w, &e, &err), GS_ERR_INVALID);
    assert_string_equal(err.items[0].pointer, "/model");
}

/* vLLM's mtp on a Gated DeltaNet hybrid (Qwen3.5-27B: 16 full-attention and 48 GDN layers, one
 * MTP layer; qwen3_5_mtp.py), TP 2, max_model_len 262,144, prefix caching on (align), as a
 * published 0.2x startup log shows it. Without speculative decoding: a full-attention token
 * 2 x 2 heads x 256 x 2 = 2,048 bytes a layer, a GDN state (conv 3 x 10,240 / 2 x 2 = 30,720,
 * fp32 temporal 24 x 128 x 128 x 4 = 1,572,864) 1,603,584, the block 16 x ceil(1,603,584 /
 * 32,768) = 784 tokens, groups of 16 (1 full + 3 GDN), a sequence ceil(262,144 / 784) = 335
 * blocks + 3 x 2 state blocks = 341; 540 blocks (the log's 12.93 GiB) print
 * 540 x 262,144 / 341 = 415,125 tokens. With mtp k = 2: the MTP layer joins the full group
 * (17 + 48: groups of 17, the GDN groups padded), the conv window keeps 3 + 2 rows (state
 * 1,624,064: block 800), each GDN group 2 + 2 blocks a sequence: 328 + 12 = 340; 473 blocks
 * (the log's 12.29 GiB) print 473 x 262,144 / 340 = 364,688 tokens, as logged. The MTP layer's
 * weights (424,699,392 parameters, norms 5 x 5,120 + 2 x 256 whole on each rank):
 * ((424,699,392 - 26,112) / 2 + 26,112) x 2 = 424,725,504 bytes a rank. */
static void test_speculative_mtp_hybrid(void **state)
{
    (void)state;
    const struct gs_arch a = fixture_arch_file("qwen3_5/Qwen__Qwen3.5-27B.json");
    const struct gs_model_spec m = fixture_spec(&a);
    struct gs_workload w = fixture_vllm_workload(1, 262144, 2, 85029615042ULL);
    w.serving.engine.version = 2100;
    w.serving.engine.prefix_caching = GS_CHUNKED_PREFILL_ON;
    w.serving.engine.has_kv_cache_memory_bytes = true;
    static struct gs_estimate plain, e;
    w.serving.engine.kv_cache_memory_bytes = 540ULL * 16 * 784 * 2048;
    assert_int_equal(gs_estimate_compute(&m, &w, &plain, NULL), GS_OK);
    assert_int_equal(plain.serving.pages.group_layers, 16);
    assert_int_equal(plain.serving.block_size, 784);
    assert_int_equal(plain.serving.blocks, 540);
    assert_int_equal(plain.serving.reported_tokens, 415125);
    w.serving.engine.spec_method = GS_SPEC_MTP;
    w.serving.engine.spec_tokens = 2;
    w.serving.engine.kv_cache_memory_bytes = 473ULL * 17 * 800 * 2048;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    assert_int_equal(e.serving.kv.full_layers, 17);
    assert_int_equal(e.serving.kv.state_bytes_per_sequence, 48ULL * 1624064);
    assert_int_equal(e.serving.pages.group_layers, 17);
    assert_int_equal(e.serving.pages.full_groups, 1);
    assert_int_equal(e.serving.pages.state_groups, 3);
    assert_int_equal(e.serving.pages.state_blocks, 4);
    assert_int_equal(e.serving.block_size, 800);
    assert_int_equal(e.serving.blocks, 473);
    assert_int_equal(e.serving.reported_tokens, 364688);
    assert_int_equal(e.per_gpu.weights_bytes - plain.per_gpu.weights_bytes, 424725504ULL);
    /* without num_speculative_tokens, mtp proposes its one layer's worth (n_predict): k = 1 */
    w.serving.engine.spec_tokens = 0;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    assert_int_equal(e.serving.pages.state_blocks, 3);
    /* prefix caching unset: off for hybrids through 0.27 (one state block a GDN group and
     * sequence, two more with k = 2), on from 0.28 in align mode (PR #50991: two, four) */
    w.serving.engine.prefix_caching = GS_CHUNKED_PREFILL_DEFAULT;
    w.serving.engine.spec_tokens = 2;
    const struct {
        uint32_t version;
        enum gs_spec_method method;
        uint64_t blocks;
    } defaults[] = {{2700, GS_SPEC_NONE, 1},
                    {2700, GS_SPEC_MTP, 3},
                    {2800, GS_SPEC_NONE, 2},
                    {2800, GS_SPEC_MTP, 4}};
    for (size_t i = 0; i < sizeof(defaults) / sizeof(defaults[0]); i++) {
        w.serving.engine.version = defaults[i].version;
        w.serving.engine.spec_method = defaults[i].method;
        assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
        assert_int_equal(e.serving.pages.state_blocks, defaults[i].blocks);
    }
    w.serving.engine.version = 2100;
    /* a draft model beside linear-attention layers stays refused */
    w.serving.engine.spec_method = GS_SPEC_NGRAM;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    w.serving.engine.spec_method = GS_SPEC_EAGLE;
    struct gs_error err;
    gs_error_init(&err);
    assert_int_equal(gs_estimate_compute(&m, &w, &e, &err), GS_ERR_INVALID);
    assert_string_equal(err.items[0].pointer, "/inference/speculative/method");
}

/* vLLM's and SGLang's mtp on a Mamba-2 hybrid: Nemotron 3 Super (nemotron_h_mtp.py
 * NemotronHMultiTokenPredictor, one step of mtp_hybrid_override_pattern "*E": an attention layer
 * with enorm, hnorm and eh_proj, then a MoE layer with final_layernorm; PR #33726), in bf16 at
 * TP 2 on H200s, 32,768 tokens, vLLM 0.21. The MTP step on a rank: q and o 4,096 x 2,048 each,
 * k and v 4,096 x 128 each (2 KV heads of 128 split), the router 4,096 x 512 and the latent
 * projections 2 x 4,096 x 1,024 whole, 512 experts' up and down 1,024 x 1,344 each, the shared
 * expert's 4,096 x 2,688 each, eh_proj 2,048 x 8,192 (a ColumnParallelLinear), five norms of
 * 4,096: 1,476,415,488 parameters, 2,952,830,976 bytes. The attention layer joins the model's 8
 * (9), and each of the 40 Mamba-2 layers' convolution window keeps 3 + k rows
 * (mamba2_state_shape's num_spec): conv (8,192 + 2 x 8 x 128) / 2 x 6 x 2 = 61,440 beside the
 * fp32 SSM state 64 x 64 x 128 x 4 = 2,097,152: 2,158,592 a layer at k = 3, where it was
 * 2,127,872. The page: 16 x ceil(2,158,592 / (16 x 512)) = 4,224 tokens (4,160 without), and
 * each sequence 1 + k state blocks in each of its state groups. SGLang's NEXTN loads the same
 * bytes, and its own embedding and head until it takes the target's: 2 x 131,072 x 4,096 / 2 x 2
 * = 1,073,741,824. */
static void test_speculative_mtp_nemotron_h(void **state)
{
    (void)state;
    const struct gs_arch a =
        fixture_arch_file("nemotron_h/nvidia__NVIDIA-Nemotron-3-Super-120B-A12B-FP8.json");
    const struct gs_model_spec m = fixture_spec(&a);
    struct gs_workload w = fixture_vllm_workload(1, 32768, 2, 150754820096ULL);
    w.serving.engine.version = 2100;
    static struct gs_estimate plain, e;
    assert_int_equal(gs_estimate_compute(&m, &w, &plain, NULL), GS_OK);
    assert_int_equal(plain.serving.kv.full_layers, 8);
    assert_int_equal(plain.serving.kv.state_bytes_per_sequence, 40ULL * 2127872);
    assert_int_equal(plain.serving.block_size, 4160);
    w.serving.engine.spec_method = GS_SPEC_MTP;
    w.serving.engine.spec_tokens = 3;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    assert_int_equal(e.per_gpu.weights_bytes - plain.per_gpu.weights_bytes, 2952830976ULL);
    assert_int_equal(e.serving.kv.full_layers, 9);
    assert_int_equal(e.serving.kv.state_bytes_per_sequence, 40ULL * 2158592);
    assert_int_equal(e.serving.block_size, 4224);
    assert_int_equal(e.serving.pages.state_blocks, 4);
    w.serving.engine.engine = GS_ENGINE_SGLANG;
    w.serving.engine.version = 0;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    assert_int_equal(e.per_gpu.weights_bytes - plain.per_gpu.weights_bytes, 2952830976ULL);
    assert_int_equal(e.serving.budget.draft_transient_bytes, 1073741824ULL);
    /* the releases that build NemotronHMTP: vLLM from 0.17.0 (PR #33726), SGLang from 0.5.8 (PR
     * #17013); the ones before answer the release's field */
    const struct {
        enum gs_engine engine;
        uint32_t version;
        bool runs;
    } releases[] = {{GS_ENGINE_VLLM, 1601, false},
                    {GS_ENGINE_VLLM, 1700, true},
                    {GS_ENGINE_SGLANG, 507, false},
                    {GS_ENGINE_SGLANG, 508, true},
                    {GS_ENGINE_SGLANG, 0, true}};
    for (size_t i = 0; i < sizeof(releases) / sizeof(releases[0]); i++) {
        w.serving.engine.engine = releases[i].engine;
        w.serving.engine.version = releases[i].version;
        struct gs_error err;
        gs_error_init(&err);
        const enum gs_status st = gs_estimate_compute(&m, &w, &e, &err);
        assert_int_equal(st, releases[i].runs ? GS_OK : GS_ERR_INVALID);
        if (!releases[i].runs)
            assert_string_equal(err.items[0].pointer, "/inference/engine_version");
    }
    /* SGLang built the MTP layers of a ModelOpt FP8 or NVFP4 checkpoint quantized, under a prefix
     * its exclude_modules ("mtp*") missed, until PR #19433 (first in 0.5.10) */
    w.serving.engine.engine = GS_ENGINE_SGLANG;
    w.format_given = true;
    w.format = GS_WF_FP8;
    for (uint32_t version = 508; version <= 510; version++) {
        w.serving.engine.version = version;
        struct gs_error err;
        gs_error_init(&err);
        const enum gs_status st = gs_estimate_compute(&m, &w, &e, &err);
        assert_int_equal(st, version >= 510 ? GS_OK : GS_ERR_INVALID);
        if (version < 510)
            assert_non_null(strstr(err.items[0].detail, "PR #19433"));
    }
}

/* TensorRT-LLM 1.3's MTP-Eagle on a V2 hybrid: Nemotron 3 Super (NemotronHMTP, built with
 * QuantConfig(quant_algo=None), so its step is 16-bit whatever the checkpoint: the 2,952,830,976
 * bytes a rank of test_speculative_mtp_nemotron_h at TP 2, eh_proj [4,096, 8,192 / 2] split by
 * rows as vLLM's by columns), FP8 weights at TP 2 on H200s, max_batch_size 64, k = 3, 32,768
 * tokens. A rank: 40 Mamba-2 layers of 64 heads x 64 x 128 (fp32 states: the config's
 * mamba_ssm_cache_dtype), 4 of the 8 groups, conv_dim 10,240 / 2 = 5,120, kernel 4; 8 attention
 * layers of one 128-wide KV head, 512 bytes a token each, the draft's own manager one more.
 * The replay strategy (SM 8.0 on, T = k + 1 = 4, H = 16) binds after each pool:
 *  - every max_batch_size slot: intermediate_conv 40 x 4 x 5,120 x 3 x 2 = 4,915,200, an int32
 *    index, and _dummy_mask 64 + 1 bytes;
 *  - every state slot: old_x 2 x 16 x 64 x 64 x 2 = 262,144, old_B 2 x 16 x 4 x 128 x 2 = 32,768,
 *    old_dt and old_dA_cumsum 2 x (2 x 64 x 16 x 4) = 16,384 a layer (311,296; x 40 =
 *    12,451,840) and 8 + 4 + 4 bytes of seeds and indices: 12,451,856;
 * so the estimation pool's 65 slots bind 64 x 4,915,204 + 65 + 65 x 12,451,856 = 1,123,943,761
 * bytes in the profile's peak. The budget Q: the draft gets (Q - 65 x 85,114,880) x 512 / 4,608
 * (_split_kv_cache_budget_for_draft), the target's V2 manager splits the rest by its own typical
 * step (64 requests of 16,384 tokens x 4,096 bytes beside 65 states), and both pools hold the
 * same blocks. Gated DeltaNet layers (Qwen3.5-27B at TP 2: 24 of 48 value heads of 128 x 128,
 * the model dtype - TensorRT-LLM does not read mamba_ssm_dtype - conv 10,240 / 2) keep
 * intermediate SSM states, no replay by default: 48 x 4 x (24 x 128 x 128 x 2 + 5,120 x 3 x 2) =
 * 156,893,184 bytes and an int32 index a max_batch_size slot. */
static void test_trtllm_speculative_hybrid(void **state)
{
    (void)state;
    const struct gs_arch a =
        fixture_arch_file("nemotron_h/nvidia__NVIDIA-Nemotron-3-Super-120B-A12B-FP8.json");
    const struct gs_model_spec m = fixture_spec(&a);
    struct gs_workload w = fixture_vllm_workload(8, 32768, 2, 150754820096ULL); /* H200 */
    w.serving.engine.engine = GS_ENGINE_TENSORRT_LLM;
    w.serving.engine.max_num_seqs = 64;
    w.format_given = true;
    w.format = GS_WF_FP8;
    static struct gs_estimate plain, e;
    const struct gs_inference_result *r = &e.serving;
    struct gs_error err;
    assert_int_equal(gs_estimate_compute(&m, &w, &plain, NULL), GS_OK);
    w.serving.engine.spec_method = GS_SPEC_MTP;
    w.serving.engine.spec_tokens = 3;
    gs_error_init(&err);
    if (gs_estimate_compute(&m, &w, &e, &err) != GS_OK)
        fail_msg("%s %s", err.items[0].pointer, err.items[0].detail);
    assert_string_equal(r->spec_mode, "MTP_EAGLE_ONE_MODEL");
    assert_int_equal(e.per_gpu.weights_bytes - plain.per_gpu.weights_bytes, 2952830976ULL);
    const uint64_t profiled = 64 * 4915204ULL + 65 + 65 * 12451856ULL;
    assert_int_equal(profiled, 1123943761ULL);
    assert_int_equal(r->spec_state_profiled_bytes, profiled);
    assert_int_equal(r->budget.weights_bytes - plain.serving.budget.weights_bytes,
                     2952830976ULL + 8192 * 4096 * 2 + profiled);
    const uint64_t slot = 40ULL * 2127872;
    assert_int_equal(r->kv.state_bytes_per_sequence, slot);
    assert_int_equal(r->kv.full_layers, 9);
    assert_int_equal(r->kv.bytes_per_token, 9 * 512);
    const uint64_t q = (uint64_t)r->budget.kv_bytes;
    const uint64_t fixed = 65 * slot;
    const uint64_t draft = (q - fixed) * 512 / 4608, target = q - draft;
    assert_int_equal(r->draft_pool_bytes, draft);
    const uint64_t step = fixed + 64 * 16384ULL * 4096;
    assert_true(target > step); /* the proportional branch: idle slots past the floor */
    const uint64_t slots = target * 65 / step;
    assert_int_equal(r->state_slots, slots);
    assert_int_equal(r->state_pool_bytes, slots * slot);
    const uint64_t tb = (target - slots * slot) / (32 * 4096), db = draft / (32 * 512);
    assert_int_equal(r->blocks, tb < db ? tb : db);
    assert_int_equal(r->max_tokens, (tb < db ? tb : db) * 32);
    assert_int_equal(r->spec_state_bytes, 64 * 4915204ULL + 65 + slots * 12451856ULL);
    assert_int_equal(e.per_gpu.overhead_bytes - plain.per_gpu.overhead_bytes,
                     8192 * 4096 * 2 + r->spec_state_bytes);
    assert_true(r->starts && r->holds_batch);
    assert_false(estimate_warned(&e, "speculative_states_past_headroom"));
    /* few short sequences: the quota far above the typical step, the idle slots' replay history
     * past the tenth the fraction leaves */
    w.serving.engine.max_num_seqs = 8;
    w.serving.context_length = 2048;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    const uint64_t over = r->spec_state_bytes - r->spec_state_profiled_bytes;
    assert_int_equal(over, (r->state_slots - 9) * 12451856ULL);
    assert_true(over > (uint64_t)r->budget.kv_bytes / 9);
    assert_true(estimate_warned(&e, "speculative_states_past_headroom"));
    /* before SM 8.0 the Mamba-2 layers keep intermediate SSM states, fp32 here, instead */
    w.gpu.hw = GS_HW_TURING;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    assert_int_equal(r->spec_state_profiled_bytes, 8 * (4915200ULL + 40 * 4 * 2097152 + 4));
    assert_int_equal(r->spec_state_bytes, r->spec_state_profiled_bytes);
    w.gpu.hw = GS_HW_UNKNOWN;
    /* the default max_batch_size: its states and buffers keep the batch out of a lower bound */
    w.serving.engine.max_num_seqs = 0;
    w.serving.context_length = 262144;
    w.serving.batch_size = 64;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    const uint64_t most = r->seqs_bound;
    assert_true(most > 0 && most < 2048);
    w.serving.engine.max_num_seqs = most;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    assert_true(r->starts);
    assert_true(r->max_concurrency >= most);
    w.serving.engine.max_num_seqs = most + 1;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    assert_true(!r->starts || r->max_concurrency < most + 1);
    /* the replay strategy asserts tp divides n_groups (8) */
    w.serving.engine.max_num_seqs = 64;
    w.serving.context_length = 32768;
    w.parallelism.tensor = 16;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    assert_false(r->starts);
    assert_non_null(r->engine_refusal);
    w.parallelism.tensor = 2;
    /* refused: vanilla MTP's several layers, another method, a release before 1.3 */
    const struct {
        uint32_t version;
        enum gs_spec_method method;
    } refused[] = {{10200, GS_SPEC_MTP}, {0, GS_SPEC_NGRAM}};
    for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
        w.serving.engine.version = refused[i].version;
        w.serving.engine.spec_method = refused[i].method;
        gs_error_init(&err);
        assert_int_equal(gs_estimate_compute(&m, &w, &e, &err), GS_ERR_INVALID);
        assert_string_equal(err.items[0].pointer, "/inference/speculative/method");
    }

    const struct gs_arch q27 = fixture_arch_file("qwen3_5/Qwen__Qwen3.5-27B.json");
    const struct gs_model_spec qm = fixture_spec(&q27);
    struct gs_workload wq = fixture_vllm_workload(8, 32768, 2, 150754820096ULL);
    wq.serving.engine.engine = GS_ENGINE_TENSORRT_LLM;
    wq.serving.engine.max_num_seqs = 64;
    wq.serving.engine.spec_method = GS_SPEC_MTP;
    wq.serving.engine.spec_tokens = 3;
    gs_error_init(&err);
    if (gs_estimate_compute(&qm, &wq, &e, &err) != GS_OK)
        fail_msg("%s %s", err.items[0].pointer, err.items[0].detail);
    assert_int_equal(48ULL * 4 * (24 * 128 * 128 * 2 + 5120 * 3 * 2), 156893184ULL);
    assert_int_equal(r->spec_state_profiled_bytes, 64 * (156893184ULL + 4));
    assert_int_equal(r->spec_state_bytes, r->spec_state_profiled_bytes);
    assert_true(r->draft_pool_bytes > 0);
}

/* vLLM from 0.19 (PR #38270) fails a hybrid at startup when max_num_seqs is above the pool's
 * blocks ("max_num_seqs (1024) exceeds available Mamba cache blocks (B)"): Qwen3.5-27B on one
 * 80 GB H100 at 32,768 tokens holds a few hundred blocks, under the default 1,024 of a 70 GiB+
 * GPU. 0.18 capped its CUDA graphs instead and started; enforce_eager captures none; the fix
 * admits as many sequences as there are blocks. */
static void test_vllm_hybrid_seqs_bound(void **state)
{
    (void)state;
    const struct gs_arch a = fixture_arch_file("qwen3_5/Qwen__Qwen3.5-27B.json");
    const struct gs_model_spec m = fixture_spec(&a);
    struct gs_workload w = fixture_vllm_workload(1, 32768, 1, 85029615042ULL);
    w.serving.engine.version = 1900;
    static struct gs_estimate e;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    assert_true(e.serving.blocks > 0 && e.serving.blocks < 1024);
    assert_int_equal(e.serving.max_num_seqs, 1024);
    assert_false(e.serving.starts);
    assert_ptr_equal(e.serving.binding, gs_vllm_refusal_mamba_seqs);
    assert_null(e.serving.engine_refusal);
    assert_int_equal(e.serving.seqs_bound, e.serving.blocks);
    const uint64_t blocks = e.serving.blocks;
    bool fixed = false;
    for (size_t i = 0; i < e.fix_count; i++)
        if (strcmp(e.fixes[i].code, "lower_max_num_seqs") == 0)
            fixed = e.fixes[i].value == blocks && e.fixes[i].starts;
    assert_true(fixed);
    w.serving.engine.max_num_seqs = blocks;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    assert_true(e.serving.starts);
    assert_int_equal(e.serving.seqs_bound, 0);
    /* fewer sequences shrink the profile's sampler and so add blocks: the bound is the run's own */
    for (uint64_t seqs = blocks; seqs <= blocks + 64; seqs += 8) {
        w.serving.engine.max_num_seqs = seqs;
        assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
        assert_int_equal(e.serving.starts, seqs <= e.serving.blocks);
    }
    w.serving.engine.max_num_seqs = 0;
    w.serving.engine.enforce_eager = true;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    assert_true(e.serving.starts);
    w.serving.engine.enforce_eager = false;
    w.serving.engine.version = 1800;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    assert_true(e.serving.starts);
}

/* A checkpoint's own bytes (hub import, server/hub/checkpoint.h) stand for the
 * weights when serving in its stored format. Llama-3.1-8B in bf16:
 * 8,030,261,248 parameters x 2 = 16,060,522,496 bytes; vectors are the 65
 * RMSNorm weights (32 layers x 2 + the final one) x 4,096 x 2 B = 532,480;
 * outside the layers: embeddings and lm_head 2 x 128,256 x 4,096 x 2 B =
 * 2,101,346,304 plus the final norm 8,192 = 2,101,354,496; the 32 layers hold
 * the other 13,959,168,000. */
static void test_weights_from_checkpoint(void **state)
{
    (void)state;
    const struct gs_checkpoint_bytes ck = {
        .present = true,
        .format = GS_WF_BF16,
        .parameters = 8030261248ULL,
        .tensor_bytes = 16060522496ULL,
        .matrix_bytes = 16060522496ULL - 532480,
        .vector_bytes = 532480,
        .layer_bytes = 13959168000ULL,
        .layers = 32,
        .other_bytes = 2101354496ULL,
    };
    assert_int_equal(ck.layer_bytes + ck.other_bytes, ck.tensor_bytes);
    /* one GPU: every byte; TP 2: vectors whole, matrices halved */
    assert_int_equal(gs_checkpoint_bytes_per_gpu(&ck, 1, 1), 16060522496ULL);
    assert_int_equal(gs_checkpoint_bytes_per_gpu(&ck, 2, 1), 532480 + (16060522496ULL - 532480) / 2);
    /* PP 2: half the layers and everything outside them, 6,979,584,000 + 2,101,354,496 */
    assert_int_equal(gs_checkpoint_bytes_per_gpu(&ck, 1, 2), 9080938496ULL);

    /* a model gpusizer cannot read: the checkpoint's bytes are the weights */
    struct gs_model_spec raw;
    memset(&raw, 0, sizeof(raw));
    raw.parameters = ck.parameters;
    raw.stored = ck;
    struct gs_workload w = fixture_workload(GS_MODE_INFERENCE);
    w.format_given = true;
    w.format = GS_WF_BF16;
    struct gs_estimate e;
    assert_int_equal(gs_estimate_compute(&raw, &w, &e, NULL), GS_OK);
    assert_int_equal(e.per_gpu.weights_bytes, 16060522496ULL);
    assert_true(e.weights_from_checkpoint);
    assert_false(e.checkpoint_mismatch);
    w.parallelism.tensor = 2;
    assert_int_equal(gs_estimate_compute(&raw, &w, &e, NULL), GS_OK);
    assert_int_equal(e.per_gpu.weights_bytes, 532480 + (16060522496ULL - 532480) / 2);
    /* served in another format, the checkpoint's bytes say nothing: sized from the count */
    w.parallelism.tensor = 1;
    w.format = GS_WF_FP8;
    assert_int_equal(gs_estimate_compute(&raw, &w, &e, NULL), GS_OK);
    assert_false(e.weights_from_checkpoint);

    /* with the architecture: the same bytes, cross-checked; 5% more in the checkpoint is
     * named, and each GPU's share follows the architecture's split */
    const struct gs_arch arch = fixture_llama(4096, 32, 32, 8, 14336, 128256, false);
    struct gs_model_spec m = fixture_spec(&arch);
    m.stored = ck;
    w.format = GS_WF_BF16;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    assert_true(e.weights_from_checkpoint);
    assert_int_equal(e.config_bytes, 16060522496ULL);
    assert_false(e.checkpoint_mismatch);
    assert_int_equal(e.per_gpu.weights_bytes, 16060522496ULL);
    w.parallelism.tensor = 2;
    struct gs_estimate plain;
    struct gs_model_spec bare = fixture_spec(&arch);
    assert_int_equal(gs_estimate_compute(&bare, &w, &plain, NULL), GS_OK);
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    assert_int_equal(e.per_gpu.weights_bytes, plain.per_gpu.weights_bytes);
    m.stored.tensor_bytes = 16060522496ULL / 20 * 21;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    assert_true(e.checkpoint_mismatch);
    assert_int_equal(e.checkpoint_bytes, 16060522496ULL / 20 * 21);
    assert_true(e.per_gpu.weights_bytes > plain.per_gpu.weights_bytes / 100 * 104);
    /* the same 5% as MTP layers the checkpoint stores (gs_checkpoint_bytes.mtp_bytes): the
     * served model does not load them - the config's bytes again, no mismatch, and the layers'
     * bytes named */
    m.stored.mtp_bytes = 16060522496ULL / 20;
    m.stored.tensor_bytes = 16060522496ULL + m.stored.mtp_bytes;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    assert_false(e.checkpoint_mismatch);
    assert_int_equal(e.checkpoint_bytes, 16060522496ULL);
    assert_int_equal(e.checkpoint_mtp_bytes, 16060522496ULL / 20);
    assert_int_equal(e.per_gpu.weights_bytes, plain.per_gpu.weights_bytes);
    const struct gs_assumption *mtp = NULL;
    for (size_t i = 0; i < e.assumption_count; i++)
        if (strcmp(e.assumptions[i].name, "checkpoint_mtp_bytes") == 0)
            mtp = &e.assumptions[i];
    assert_non_null(mtp);
    assert_int_equal(mtp->value, 16060522496ULL / 20);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fp32_adam_7b),
        cmocka_unit_test(test_adafactor_factored_states),
        cmocka_unit_test(test_bf16_mixed_llama2_7b),
        cmocka_unit_test(test_bf16_inference_weights_match_vllm_log),
        cmocka_unit_test(test_quantized_widths),
        cmocka_unit_test(test_training_quantized_rejected),
        cmocka_unit_test(test_parameter_limits),
        cmocka_unit_test(test_arch_errors_are_prefixed),
        cmocka_unit_test(test_assumptions_have_sources),
        cmocka_unit_test(test_fit_headroom),
        cmocka_unit_test(test_precision_names),
        cmocka_unit_test(test_checked_arithmetic),
        cmocka_unit_test(test_edit_distance),
        cmocka_unit_test(test_uneven_pipeline_stages),
        cmocka_unit_test(test_expert_tensor_split),
        cmocka_unit_test(test_megatron_moe_sequence_parallel),
        cmocka_unit_test(test_fitting_only_verdicts),
        cmocka_unit_test(test_layout_checked),
        cmocka_unit_test(test_expert_parallel_serving),
        cmocka_unit_test(test_speculative_mtp),
        cmocka_unit_test(test_speculative_drafts),
        cmocka_unit_test(test_sglang_draft_in_fraction),
        cmocka_unit_test(test_fixes_keep_the_draft),
        cmocka_unit_test(test_sglang_state_pool),
        cmocka_unit_test(test_sglang_spec_states),
        cmocka_unit_test(test_sglang_state_knobs),
        cmocka_unit_test(test_sglang_state_pool_by_release),
        cmocka_unit_test(test_trtllm_hybrid_states),
        cmocka_unit_test(test_vllm_ssm_dtype),
        cmocka_unit_test(test_trtllm_speculative),
        cmocka_unit_test(test_speculative_gemma4_assistant),
        cmocka_unit_test(test_speculative_mtp_hybrid),
        cmocka_unit_test(test_speculative_mtp_nemotron_h),
        cmocka_unit_test(test_trtllm_speculative_hybrid),
        cmocka_unit_test(test_vllm_hybrid_seqs_bound),
        cmocka_unit_test(test_vllm_cpu_offload),
        cmocka_unit_test(test_memory_in_use),
        cmocka_unit_test(test_stage_gpus),
        cmocka_unit_test(test_stage_gpus_refused),
        cmocka_unit_test(test_weights_from_checkpoint),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
