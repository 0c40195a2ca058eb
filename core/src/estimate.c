/*
 * estimate.c - per-GPU memory for a model and a workload (see gs/estimate.h).
 *
 * Sources: bytes per parameter by training regime, estimation.md §2.1
 * (DeepSpeed memory.rst for fp32 Adam, the ZeRO paper's K = 12 for mixed
 * precision); runtime overheads, §4.5.
 */
#include "gs/estimate.h"

#include "gs/units.h"

#include <string.h>

const char *gs_regime_name(enum gs_regime regime)
{
    switch (regime) {
    case GS_REGIME_NONE:
        return "";
    case GS_REGIME_FP32:
        return "fp32";
    case GS_REGIME_BF16_MIXED:
        return "bf16_mixed";
    case GS_REGIME_FP16_MIXED:
        return "fp16_mixed";
    }
    return "";
}

enum gs_status gs_regime_for(enum gs_dtype weights, enum gs_regime *out, struct gs_error *err)
{
    switch (weights) {
    case GS_DTYPE_FP32:
        *out = GS_REGIME_FP32;
        return GS_OK;
    case GS_DTYPE_BF16:
        *out = GS_REGIME_BF16_MIXED;
        return GS_OK;
    case GS_DTYPE_FP16:
        *out = GS_REGIME_FP16_MIXED;
        return GS_OK;
    case GS_DTYPE_INT8:
    case GS_DTYPE_INT4:
    case GS_DTYPE_COUNT:
        break;
    }
    return gs_error_add(err, GS_ERR_UNSUPPORTED, "/precision/weights",
                        "full training needs fp32, bf16 or fp16 weights; %s weights are frozen "
                        "bases that only adapters (LoRA/QLoRA) train",
                        gs_dtype_name(weights));
}

/* Bytes per trainable parameter for each regime (estimation.md §2.1). */
struct regime_bytes {
    uint64_t weights, gradients, optimizer;
    const char *detail;
    const char *source;
};

static const struct regime_bytes regime_table[] = {
    [GS_REGIME_NONE] = {0, 0, 0, "", ""},
    [GS_REGIME_FP32] = {4, 4, 8,
                        "fp32 training with Adam/AdamW: 4 bytes of weights, 4 of gradients and 8 of "
                        "optimizer state (exp_avg, exp_avg_sq) per parameter, 16 in all",
                        "DeepSpeed docs/code-docs/source/memory.rst (16 bytes per parameter for fp32); "
                        "estimation.md 2.1"},
    [GS_REGIME_BF16_MIXED] = {2, 2, 12,
                              "bf16 mixed precision with Adam/AdamW: 2 bytes of bf16 weights, 2 of "
                              "bf16 gradients and 12 of fp32 master weights, exp_avg and exp_avg_sq "
                              "per parameter, 16 in all",
                              "ZeRO paper (arXiv 1910.02054) section 3.1, K = 12; estimation.md 2.1"},
    [GS_REGIME_FP16_MIXED] = {2, 2, 12,
                              "fp16 mixed precision with Adam/AdamW: 2 bytes of fp16 weights, 2 of "
                              "fp16 gradients and 12 of fp32 master weights, exp_avg and exp_avg_sq "
                              "per parameter, 16 in all",
                              "ZeRO paper (arXiv 1910.02054) section 3.1, K = 12; estimation.md 2.1"},
};

static void assume(struct gs_estimate *e, const char *name, const char *detail, const char *source)
{
    if (e->assumption_count < GS_ESTIMATE_NOTES_MAX)
        e->assumptions[e->assumption_count++] = (struct gs_assumption){name, detail, source};
}

static void warn(struct gs_estimate *e, const char *code, const char *detail)
{
    if (e->warning_count < GS_ESTIMATE_NOTES_MAX)
        e->warnings[e->warning_count++] = (struct gs_warning){code, detail};
}

static enum gs_status resolve_parameters(const struct gs_model_spec *model, struct gs_estimate *e,
                                         struct gs_error *err)
{
    if (!model->has_arch) {
        if (model->parameters == 0)
            return gs_error_add(err, GS_ERR_INVALID, "/model/parameters", "must be at least 1");
        if (model->parameters > GS_PARAMETERS_MAX)
            return gs_error_add(err, GS_ERR_RANGE, "/model/parameters",
                                "%llu is above the limit of %llu parameters",
                                (unsigned long long)model->parameters,
                                (unsigned long long)GS_PARAMETERS_MAX);
        e->parameters = model->parameters;
        return GS_OK;
    }
    size_t first = err != NULL ? err->count : 0;
    enum gs_status st = gs_arch_count_params(&model->arch, &e->params, err);
    if (st != GS_OK) {
        gs_error_prefix(err, first, "/model/config");
        return st;
    }
    if (e->params.total > GS_PARAMETERS_MAX)
        return gs_error_add(err, GS_ERR_RANGE, "/model/config",
                            "the architecture has %llu parameters, above the limit of %llu",
                            (unsigned long long)e->params.total,
                            (unsigned long long)GS_PARAMETERS_MAX);
    e->has_breakdown = true;
    e->parameters = e->params.total;
    return GS_OK;
}

static void add_overheads(struct gs_estimate *e)
{
    e->per_gpu.overhead_bytes = GS_CUDA_CONTEXT_BYTES + GS_CUBLAS_WORKSPACE_BYTES;
    assume(e, "cuda_context_bytes",
           "CUDA context with lazy module loading: 287,047,680 bytes per GPU (about 274 MiB); "
           "eager loading on older CUDA/PyTorch costs 600 MB to over 1 GB",
           "pytorch/pytorch PR #86509 (287,047,680 B lazy vs 666,632,192 B eager); estimation.md 4.5");
    assume(e, "cublas_workspace_bytes",
           "cuBLAS workspace: 32 MiB per GPU (PyTorch's Hopper default; older GPUs use about 8 MiB)",
           "pytorch/pytorch PR #120925 and PR #89027; estimation.md 4.5");
}

static enum gs_status compute_states(const struct gs_workload *w, struct gs_estimate *e,
                                     struct gs_error *err)
{
    bool ovf = false;
    const uint64_t n = e->parameters;
    if (w->mode == GS_MODE_INFERENCE) {
        e->regime = GS_REGIME_NONE;
        e->per_gpu.weights_bytes = gs_dtype_bytes(w->weights, n, &ovf);
        if (gs_dtype_is_quantized(w->weights)) {
            assume(e, "quantized_weights",
                   gs_dtype_bits(w->weights) == 4
                       ? "every parameter stored at exactly 4 bits; no scales or zero points"
                       : "every parameter stored at exactly 8 bits; no scales",
                   "plain bit width; estimation.md 4.1 lists per-format overheads");
            warn(e, "quantization_overhead_not_counted",
                 "real quantized checkpoints keep embeddings, norms and the output head in 16-bit "
                 "and store scales per group or row (GPTQ/AWQ g128: 4.16 bits per weight), so they "
                 "are a few percent to about 10% larger than this figure");
        } else {
            assume(e, "weights_precision", "weights stored unquantized at the requested precision",
                   "bytes per element of the format");
        }
        warn(e, "kv_cache_not_estimated",
             "the request gives no batch size or context length, so the KV cache and activation "
             "peak are not included in total_bytes");
    } else {
        enum gs_status st = gs_regime_for(w->weights, &e->regime, err);
        if (st != GS_OK)
            return st;
        const struct regime_bytes *r = &regime_table[e->regime];
        e->per_gpu.weights_bytes = gs_mul(n, r->weights, &ovf);
        e->per_gpu.gradients_bytes = gs_mul(n, r->gradients, &ovf);
        e->per_gpu.optimizer_bytes = gs_mul(n, r->optimizer, &ovf);
        assume(e, "training_regime", r->detail, r->source);
        assume(e, "data_parallel_replicas",
               "one GPU holds the whole model state: no ZeRO sharding, tensor or pipeline "
               "parallelism",
               "ZeRO paper baseline data parallelism; estimation.md 2.2");
        warn(e, "activations_not_estimated",
             "the request gives no micro-batch size or sequence length, so activations are not "
             "included in total_bytes");
    }
    if (ovf)
        return gs_error_add(err, GS_ERR_RANGE, "", "the memory figures overflow 64 bits");
    return GS_OK;
}

enum gs_status gs_estimate_compute(const struct gs_model_spec *model,
                                   const struct gs_workload *workload, struct gs_estimate *out,
                                   struct gs_error *err)
{
    struct gs_estimate e;
    memset(&e, 0, sizeof(e));
    if (workload->weights >= GS_DTYPE_COUNT)
        return gs_error_add(err, GS_ERR_INVALID, "/precision/weights", "unknown precision");
    enum gs_status st = resolve_parameters(model, &e, err);
    if (st != GS_OK)
        return st;
    st = compute_states(workload, &e, err);
    if (st != GS_OK)
        return st;
    add_overheads(&e);
    e.gpu_count = 1;

    bool ovf = false;
    const struct gs_memory *m = &e.per_gpu;
    uint64_t total = gs_add(m->weights_bytes, m->kv_cache_bytes, &ovf);
    total = gs_add(total, m->activations_bytes, &ovf);
    total = gs_add(total, m->gradients_bytes, &ovf);
    total = gs_add(total, m->optimizer_bytes, &ovf);
    total = gs_add(total, m->overhead_bytes, &ovf);
    if (ovf)
        return gs_error_add(err, GS_ERR_RANGE, "", "the memory figures overflow 64 bits");
    e.per_gpu.total_bytes = total;
    *out = e;
    return GS_OK;
}
