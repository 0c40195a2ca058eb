/*
 * gpu.h - the accelerator facts the estimator needs, and the fit verdict.
 *
 * Fit uses the capacity the driver reports as total (nvidia-smi's memory.total,
 * torch.cuda.get_device_properties().total_memory; a gpusizer convention): an
 * "80 GB" H100 reports about 79.2 GiB. When that figure is unknown the
 * marketed capacity is used and the verdict says so.
 */
#ifndef GS_GPU_H
#define GS_GPU_H

#include "gs/inference.h"
#include "gs/status.h"

#include <stdbool.h>
#include <stdint.h>

struct gs_gpu {
    uint64_t memory_bytes;        /* marketed capacity */
    uint64_t usable_memory_bytes; /* driver-reported total; 0 when unknown */
};

enum gs_fit_basis {
    GS_FIT_CAPACITY,      /* the per-GPU total against the GPU's capacity */
    GS_FIT_ENGINE_BUDGET, /* the requested batch against the serving engine's KV budget */
};

struct gs_fit {
    uint64_t usable_bytes;    /* capacity the verdict was made against */
    bool usable_is_marketed;  /* true when usable_memory_bytes was unknown */
    enum gs_fit_basis basis;
    uint64_t limit_bytes;     /* what the total may reach: usable_bytes, or the part the engine claims */
    bool fits;                /* the total is within the limit (and the engine holds the batch) */
    int64_t headroom_bytes;   /* bytes to spare under the limit, negative when it does not fit */
};

/* Compares the per-GPU requirement with one GPU's capacity. GS_ERR_RANGE when
 * either figure exceeds INT64_MAX (the signed headroom could not hold it). */
enum gs_status gs_fit_check(uint64_t required_bytes, const struct gs_gpu *gpu, struct gs_fit *out,
                            struct gs_error *err);

/* Re-bases a capacity verdict on a serving engine's rule (when `serving`
 * has a budget): an engine claims its own share of the GPU (vLLM 0.9 of it by
 * default), so the batch fits when the engine starts and its KV budget holds
 * the whole batch; the headroom is the KV budget left after the batch (with what the engine's pool
 * holds past its budget, kv_unbudgeted_bytes). */
void gs_fit_apply_serving(struct gs_fit *fit, const struct gs_inference_result *serving);

/* Everything a serving engine with a budget may hold on the GPU: its KV budget plus what it
 * spends besides (weights as it loads them, activations, memory outside torch, CUDA graphs,
 * state memory past its budget, the tables it sizes from the pool); negative where its budget
 * is. The engine basis's limit_bytes (fit, plans). */
int64_t gs_fit_engine_limit(const struct gs_inference_result *serving);

#endif
