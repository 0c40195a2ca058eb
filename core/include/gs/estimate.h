/*
 * estimate.h - per-GPU memory for one model and one workload.
 *
 * Pure and allocation-free: the caller owns every struct, the result carries
 * the assumptions it made as static strings (valid for the program's life).
 *
 * Scope today: weights for every precision; for training, the model states
 * (weights, gradients, optimizer) of the fp32 and 16-bit mixed-precision Adam
 * regimes (estimation.md §2.1); a fixed runtime overhead (§4.5). The KV cache
 * and activations need a batch and a sequence length, which requests do not
 * carry yet; they are reported as 0 with a warning saying so.
 */
#ifndef GS_ESTIMATE_H
#define GS_ESTIMATE_H

#include "gs/arch.h"
#include "gs/precision.h"
#include "gs/status.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Largest raw parameter count accepted: 10^15, far beyond any model, small
 * enough that 16 bytes per parameter stays well inside 64 bits. */
#define GS_PARAMETERS_MAX ((uint64_t)1000000000000000)

/* CUDA context with lazy module loading (PyTorch >= 1.13, CUDA >= 11.7):
 * 287,047,680 bytes measured in pytorch/pytorch PR #86509. */
#define GS_CUDA_CONTEXT_BYTES ((uint64_t)287047680)
/* PyTorch's cuBLAS workspace on Hopper: 32 MiB (pytorch/pytorch PR #120925);
 * the pre-Hopper default is about 8 MiB, so this is the larger of the two. */
#define GS_CUBLAS_WORKSPACE_BYTES ((uint64_t)32 * 1024 * 1024)

enum gs_mode { GS_MODE_INFERENCE, GS_MODE_TRAINING };

/* How training stores weights, gradients and optimizer states. */
enum gs_regime {
    GS_REGIME_NONE,       /* inference */
    GS_REGIME_FP32,       /* fp32 weights and grads, Adam m and v in fp32: 4+4+8 B/param */
    GS_REGIME_BF16_MIXED, /* bf16 weights and grads, fp32 master + m + v: 2+2+12 B/param */
    GS_REGIME_FP16_MIXED, /* the same with fp16 */
};

/* A model is either a bare parameter count or an architecture. */
struct gs_model_spec {
    bool has_arch;
    struct gs_arch arch;  /* when has_arch */
    uint64_t parameters;  /* when !has_arch */
};

struct gs_workload {
    enum gs_mode mode;
    enum gs_dtype weights;
};

/* Bytes on each GPU, by component. total_bytes is the sum of the others. */
struct gs_memory {
    uint64_t weights_bytes;
    uint64_t kv_cache_bytes;
    uint64_t activations_bytes;
    uint64_t gradients_bytes;
    uint64_t optimizer_bytes;
    uint64_t overhead_bytes;
    uint64_t total_bytes;
};

struct gs_assumption {
    const char *name;   /* stable identifier, e.g. "training_regime" */
    const char *detail; /* what was assumed, with the numbers */
    const char *source; /* where the number comes from */
};

struct gs_warning {
    const char *code;   /* stable identifier, e.g. "kv_cache_not_estimated" */
    const char *detail;
};

#define GS_ESTIMATE_NOTES_MAX 16

struct gs_estimate {
    uint64_t parameters;
    bool has_breakdown;           /* params below is filled when the model had an architecture */
    struct gs_param_count params;
    enum gs_regime regime;
    uint64_t gpu_count;
    struct gs_memory per_gpu;
    size_t assumption_count;
    struct gs_assumption assumptions[GS_ESTIMATE_NOTES_MAX];
    size_t warning_count;
    struct gs_warning warnings[GS_ESTIMATE_NOTES_MAX];
};

/* The API name of a regime ("fp32", "bf16_mixed", ...), "" for none. */
const char *gs_regime_name(enum gs_regime regime);

/* The regime a training request gets for its weight precision: fp32 -> fp32,
 * bf16 -> bf16_mixed, fp16 -> fp16_mixed. GS_ERR_UNSUPPORTED for quantized
 * weights (those are fine-tuned through adapters, not trained in full). */
enum gs_status gs_regime_for(enum gs_dtype weights, enum gs_regime *out, struct gs_error *err);

/* Computes the estimate. Error pointers follow the request document the
 * structs mirror: "/model/parameters", "/model/config/<field>" for an
 * architecture, "/precision/weights". `out` is fully written on GS_OK. */
enum gs_status gs_estimate_compute(const struct gs_model_spec *model,
                                   const struct gs_workload *workload, struct gs_estimate *out,
                                   struct gs_error *err);

#endif
