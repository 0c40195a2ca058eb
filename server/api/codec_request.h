/*
 * codec_request.h - a decoded sizing request: what codec_decode_estimate fills
 * (codec.h) and the section codecs (codec_parity.h, ...) read and complete.
 */
#ifndef GS_CODEC_REQUEST_H
#define GS_CODEC_REQUEST_H

#include "catalog.h"
#include "gs/estimate.h"

#include <stdbool.h>
#include <stdint.h>

enum codec_model_source { CODEC_MODEL_CATALOG, CODEC_MODEL_PARAMETERS, CODEC_MODEL_CONFIG };

/* Another tool's estimate to reproduce beside gpusizer's own. */
enum codec_parity {
    CODEC_PARITY_NONE,
    CODEC_PARITY_DEEPSPEED,
    CODEC_PARITY_MEGATRON,
    CODEC_PARITY_ACCELERATE
};

/* A decoded estimate request. Pointers borrow from the snapshot passed to
 * codec_decode_estimate and live as long as it. */
struct estimate_request {
    enum codec_model_source source;
    const struct catalog_model *catalog_model; /* CODEC_MODEL_CATALOG */
    struct gs_model_spec model;
    struct gs_workload workload;
    bool mode_defaulted;
    bool precision_defaulted;
    bool model_resolved;           /* the catalog model was found by its tokens, not its name */
    const struct catalog_gpu *gpu; /* NULL when no "gpu" */
    enum codec_parity parity;
    bool format_trainable;       /* the weight format can be a training base */
    enum gs_status model_status; /* how reading the model's config went */
    struct gs_draft draft;       /* inference.speculative.draft, when workload.serving.draft */
    char model_name[128];        /* the catalog name as typed, when model_resolved or
                                    model_quant_inferred */
    bool model_quant_inferred;   /* the name's quantization suffix set the checkpoint format */
    struct catalog_model_lookup model_lookup; /* how it was found (catalog.h) */
    struct catalog_gpu_lookup gpu_lookup;     /* how "gpu" was found; fits > 1: a default */
    char gpu_name[96];                        /* "gpu" as typed */
    uint64_t gpu_count; /* /v1/estimate's "gpu_count" as given, 0 when absent: the
                           GPUs the layout in parallelism must take */
    const struct catalog_gpu *stage_gpu[GS_STAGE_GPUS_MAX]; /* parallelism.stage_gpus, in stage
                                                               order (workload.stage_gpu_count) */
    uint8_t stage_gpu_fits[GS_STAGE_GPUS_MAX]; /* the parts each stage's name fits; > 1: the
                                                  catalog's default was taken (gpu_default) */
    const struct catalog_gpu *fit_gpu; /* the GPU the answer's fit names: the binding stage's
                                          with stage_gpus; NULL: "gpu" */
    /* last: not cleared by codec_decode_estimate, valid only while draft.arch points here */
    struct gs_arch draft_arch; /* a draft given as {"config": ...} */
};

#endif
