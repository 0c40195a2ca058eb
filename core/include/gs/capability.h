/*
 * capability.h - what a GPU generation can run: the weight formats, KV-cache
 * dtypes and compute types serving engines have kernels for on it. Used by
 * the estimate (a warning naming the rule), fit and the plan search (never
 * offer what cannot run) alike.
 *
 * One row per generation, keyed by the catalog's `architecture` text; each
 * row names its sources (vLLM's quantization hardware table,
 * docs/features/quantization/supported_hardware.md, and the checks in its
 * platform code). Pure data; nothing allocates.
 */
#ifndef GS_CAPABILITY_H
#define GS_CAPABILITY_H

#include "gs/inference.h"
#include "gs/precision.h"

#include <stdbool.h>

enum gs_hw {
    GS_HW_UNKNOWN, /* not in the table: nothing is refused */
    GS_HW_VOLTA,   /* SM 7.0 */
    GS_HW_TURING,  /* SM 7.5 */
    GS_HW_AMPERE,  /* SM 8.0 / 8.6 */
    GS_HW_ADA,     /* SM 8.9 */
    GS_HW_HOPPER,  /* SM 9.0 */
    GS_HW_BLACKWELL,
    GS_HW_CDNA2,   /* AMD MI200 */
    GS_HW_CDNA3,   /* AMD MI300 */
    GS_HW_GAUDI,   /* Intel Gaudi 2/3 */
    GS_HW_COUNT
};

/* The generation a catalog `architecture` names ("Hopper", "Ada Lovelace",
 * "Blackwell (sm_121)", "CDNA 3"); GS_HW_UNKNOWN when none matches. */
enum gs_hw gs_hw_from_architecture(const char *architecture);

/* Whether a GPU of generation `hw` computes in bf16 (the others run 16-bit
 * models in fp16). */
bool gs_hw_bf16(enum gs_hw hw);

/* Whether weights stored as `format` run on `hw`. On false, *rule (when not
 * NULL) says why, with the source. */
bool gs_hw_runs_format(enum gs_hw hw, enum gs_weight_format format, const char **rule);

/* Whether a `kv` cache runs on `hw`; *rule as above. */
bool gs_hw_runs_kv(enum gs_hw hw, enum gs_kv_dtype kv, const char **rule);

/* Whether `hw` is an NVIDIA generation older than `generation` (GS_HW_ADA: below compute
 * capability 8.9, no fp8 tensor cores; GS_HW_HOPPER: below 9.0). False for AMD, Gaudi and
 * GPUs not in the table. */
bool gs_hw_nvidia_before(enum gs_hw hw, enum gs_hw generation);

/* Whether fp8 weights run with fp8 tensor cores (W8A8) rather than as
 * weight-only fp8 dequantized to 16 bits (Marlin W8A16 on Ampere). */
bool gs_hw_fp8_compute(enum gs_hw hw);

#endif
