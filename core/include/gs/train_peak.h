/*
 * train_peak.h - the moment a training step peaks (docs/training-peaks.md).
 *
 * Memory is not the sum of everything a step ever holds: with
 * zero_grad(set_to_none=True) (PyTorch's default) and no accumulation,
 * gradients appear as backward frees the activations. The peak is the
 * largest of three moments:
 * - backward start: weights, optimizer states, the saved activations and the
 *   loss's backward over the logits, or the moments around it where larger:
 *   the forward's end just before (beside a previous micro-batch's graph a
 *   loop still holds), the output head's backward after it, or with full
 *   checkpointing the last layer's recomputation (plus gradients when they outlive the
 *   step, the unsharded FSDP units and autocast's 16-bit weight copies;
 *   under FSDP1's no_sync() accumulation, the unsharded gradients);
 * - backward end: weights, optimizer states, every gradient, one layer's
 *   working set and one unsharded unit with its gradient at the reduce dtype
 *   (under no_sync(), an accumulating micro-batch's end where larger: every
 *   unit's gradient unsharded);
 * - the optimizer step: weights, states, gradients and the step's
 *   temporaries (foreach implementations copy a whole state list).
 * Pure; nothing allocates.
 */
#ifndef GS_TRAIN_PEAK_H
#define GS_TRAIN_PEAK_H

#include <stdbool.h>
#include <stdint.h>

enum gs_peak_phase {
    GS_PHASE_BACKWARD_START,
    GS_PHASE_BACKWARD_END,
    GS_PHASE_OPTIMIZER_STEP,
    GS_PHASE_COUNT
};

struct gs_peak_input {
    uint64_t weights;          /* resident weights: shards, frozen base, adapters */
    uint64_t optimizer;        /* optimizer states (and master weights) on the GPU */
    uint64_t gradients;        /* every gradient this GPU keeps, at its dtype and sharding */
    bool grads_persist;        /* gradients stay allocated between steps or micro-batches */
    uint64_t no_sync_grads;    /* FSDP no_sync(): the gradients kept unsharded over
                                  the accumulating micro-batches (with what persists besides);
                                  held in place of the sharded ones when the syncing
                                  micro-batch's backward starts, and at an accumulating
                                  micro-batch's backward end (0: no such accumulation) */
    uint64_t no_sync_sharded;  /* of no_sync_grads, the sharded gradients that persist
                                  between steps beside the unsharded ones (FSDP2: in the
                                  reduce-scatter stream's pool) */
    uint64_t unsharded;        /* FSDP/ZeRO-3: units gathered whole in forward and backward */
    uint64_t unsharded_grad;   /* one unit's gradient before reduce-scatter */
    uint64_t stored;           /* saved activations when backward starts */
    uint64_t loss;             /* the loss's logits at its backward */
    uint64_t previous_graph;   /* what the previous micro-batch's graph still holds when this
                                  one's forward ends, beside every saved activation (its
                                  ctx-held 4-bit linear inputs) */
    uint64_t previous_logits;  /* the previous micro-batch's logits the loop still holds then
                                  (LitGPT's `logits`, rebound once the forward returns); 0 where
                                  no micro-batch precedes */
    uint64_t forward_logits;   /* what this forward's end holds of its own logits: the head's
                                  output and the caller's fp32 copy of it being made (Fabric's
                                  convert_output), both at once */
    uint64_t layer_working;    /* one layer's activations and gradients in backward */
    uint64_t layer_backward;   /* of that, what its backward makes beyond its saved tensors: the
                                  last layer's backward, beside every saved activation, is a
                                  moment of backward start where nothing recomputes */
    /* the output head's backward, after the loss's (its weight trains: head_grad > 0, or
       it is 4-bit: head_dequant > 0) */
    uint64_t head_grad;        /* the head weight's gradient (its vocabulary share) */
    uint64_t head_dequant;     /* a frozen 4-bit head's weight dequantized for each chunk's
                                  input gradient, with its cast to the compute dtype */
    uint64_t logits_held;      /* the logits the caller holds through backward (LitGPT's fp32
                                  chunks), still there at the head's backward */
    uint64_t logit_grads;      /* every chunk's logits gradient, which the loss leaves it */
    uint64_t loss_chunks;      /* the chunks the loss ran over the logits (0 and 1: one) */
    uint64_t head_kept;        /* what the final norms and the head (its input, its adapters)
                                  keep until after the head's backward */
    bool head_tied;            /* the head is the token embedding's matrix: its gradient waits
                                  for the embedding's, at the end of backward */
    uint64_t embedding_grad;   /* the token embedding's gradient, made by the last op of
                                  backward (the head's when head_tied and head_grad); 0: not
                                  modelled */
    uint64_t embedding_backward; /* what embedding_dense_backward holds beside the gradient it
                                    makes: its incoming gradient and, on the sorted path, its
                                    partial sums and index arrays (0 without embedding_grad) */
    bool recomputed;           /* full checkpointing: backward recomputes the last layer's
                                  activations (layer_working) while every checkpoint is held,
                                  once the loss's buffers are freed */
    uint64_t autocast_copies;  /* 16-bit weight copies autocast made and linears saved */
    uint64_t step_temporaries; /* optimizer.step() temporaries */
    uint64_t workspace;        /* cuBLAS workspace (allocated through PyTorch's allocator) */
    bool optimizer_in_backward; /* each gradient is applied and freed as it is produced */
    /* FSDP2 (fully_shard) runs its collectives on side streams, and the caching allocator
     * reuses a freed block only on the stream that allocated it
     * (c10/cuda/CUDACachingAllocator.cpp get_free_block), so memory the default stream
     * freed (the activations) is not reused for them: */
    bool reduce_stream;        /* the sharded gradients live in the reduce-scatter stream's
                                  pool (each reduce-scatter input, unsharded_grad, in the
                                  default stream's: torch >= 2.5) */
    uint64_t gather_pool;      /* the all-gather stream's pool: its largest gathers in flight */
};

/* Which of backward start's moments counts (train_peak.c): the loss's backward over the logits,
 * the last layer's recomputation (full checkpointing), the last layer's backward over the saved
 * activations, the output head's backward, or the forward's end just before (where the previous
 * micro-batch's graph is still held). */
enum gs_start_moment {
    GS_START_LOSS,
    GS_START_RECOMPUTE,
    GS_START_LAST_LAYER,
    GS_START_HEAD,
    GS_START_FORWARD_END /* the forward's end, beside the previous micro-batch's graph */
};

/* One moment of the step by component; weights, optimizer states and the workspace are
 * the same at every moment (gs_peak_input). */
struct gs_peak_moment {
    uint64_t gradients, activations, transient; /* transient as in gs_peak */
    uint64_t allocated;                         /* the moment's whole allocated bytes */
};

struct gs_peak {
    enum gs_peak_phase phase;       /* the moment that sets the peak */
    enum gs_start_moment start;     /* the moment backward start's figure is */
    uint64_t allocated;             /* max_memory_allocated at that moment */
    uint64_t phases[GS_PHASE_COUNT]; /* each moment's allocated bytes (0 when absent) */
    struct gs_peak_moment moments[GS_PHASE_COUNT]; /* each moment by component */
    /* the peak moment by component */
    uint64_t gradients, activations, transient; /* transient: unsharded units, copies,
                                                   temporaries and the workspace */
    /* the caching allocator's view: the default stream's own peak (allocated less what the
     * side streams hold at each moment) and the side streams' pools at their peaks; without
     * side streams these are the allocated peak and 0 */
    uint64_t default_stream_peak, side_pools;
};

/* false when the sum overflows 64 bits. */
bool gs_train_peak(const struct gs_peak_input *in, struct gs_peak *out);

/* "backward_start", "backward_end", "optimizer_step". */
const char *gs_peak_phase_name(enum gs_peak_phase phase);

#endif
