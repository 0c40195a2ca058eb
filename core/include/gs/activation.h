/*
 * activation.h - training activation memory per GPU (estimation.md §3).
 *
 * Per layer, following Korthikanti et al.'s accounting generalized to
 * modern layers (§3.2): norm and GEMM inputs, Q/K/V and the out-projection
 * input, the MLP's saved tensors (gated or not), the attention core (softmax
 * output and dropout for eager attention, the fp32 log-sum-exp for flash
 * attention), 1-byte dropout masks only when the config's dropout is
 * non-zero. Tensor parallelism divides the partitioned terms, sequence
 * parallelism the rest; context parallelism splits the sequence. Selective
 * recomputation drops the attention core, full recomputation keeps only
 * each layer's input plus one layer's working set. The first pipeline stage
 * holds min(p, micro-batches) micro-batches in flight (§3.3); the stage with
 * the output layer holds the logits with HF's fp32 upcast (§3.4).
 */
#ifndef GS_ACTIVATION_H
#define GS_ACTIVATION_H

#include "gs/arch.h"
#include "gs/training.h"

#include <stdbool.h>
#include <stdint.h>

struct gs_activation_input {
    const struct gs_arch *arch;
    uint64_t batch_size;      /* micro-batch per GPU */
    uint64_t sequence_length;
    uint64_t micro_batches;   /* gradient accumulation steps */
    uint64_t element_bytes;   /* 2 for 16-bit activations, 4 for fp32 */
    enum gs_recompute recompute;
    bool flash_attention;
    const struct gs_parallelism *parallelism;
};

struct gs_activation_result {
    uint64_t per_layer_bytes;   /* one layer, one micro-batch, as stored for backward */
    uint64_t first_stage_bytes; /* layers x micro-batches in flight (+ embedding inputs) */
    uint64_t last_stage_bytes;  /* one micro-batch of layers + the logits and loss */
    uint64_t logits_bytes;
    uint64_t total_bytes;       /* the most loaded stage */
};

/* false when the arithmetic overflows 64 bits. */
bool gs_activation_bytes(const struct gs_activation_input *in, struct gs_activation_result *out);

#endif
