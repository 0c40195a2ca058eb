/*
 * gpu.h - the accelerator facts the estimator needs, and the fit verdict.
 *
 * Fit uses the capacity the driver reports as total (estimation.md §0.5): an
 * "80 GB" H100 reports about 79.2 GiB. When that figure is unknown the
 * marketed capacity is used and the verdict says so.
 */
#ifndef GS_GPU_H
#define GS_GPU_H

#include "gs/status.h"

#include <stdbool.h>
#include <stdint.h>

struct gs_gpu {
    uint64_t memory_bytes;        /* marketed capacity */
    uint64_t usable_memory_bytes; /* driver-reported total; 0 when unknown */
};

struct gs_fit {
    uint64_t usable_bytes;    /* capacity the verdict was made against */
    bool usable_is_marketed;  /* true when usable_memory_bytes was unknown */
    bool fits;                /* required_bytes <= usable_bytes */
    int64_t headroom_bytes;   /* usable_bytes - required_bytes, negative when it does not fit */
};

/* Compares the per-GPU requirement with one GPU's capacity. GS_ERR_RANGE when
 * either figure exceeds INT64_MAX (the signed headroom could not hold it). */
enum gs_status gs_fit_check(uint64_t required_bytes, const struct gs_gpu *gpu, struct gs_fit *out,
                            struct gs_error *err);

#endif
