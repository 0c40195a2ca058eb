/*
 * parity.h - what other tools print for the same model, reproduced exactly,
 * so users can compare and see why the numbers differ.
 *
 *   DeepSpeed  estimate_zero2_model_states_mem_needs / estimate_zero3_... (deepspeed/
 *              runtime/zero/stage_1_and_2.py, stage3.py)
 *   Megatron   megatron/training/theoretical_memory_usage.py: weights + optimizer,
 *              activations
 *   accelerate `accelerate estimate-memory` (src/accelerate/commands/estimate.py)
 *
 * The tools compute in floating point and print GiB with two decimals; these
 * functions return bytes, computed with the same formulas in integers
 * (floor where the tool truncates or where the exact value is fractional).
 */
#ifndef GS_PARITY_H
#define GS_PARITY_H

#include "gs/arch.h"
#include "gs/training.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* --- DeepSpeed --------------------------------------------------------- */

struct gs_deepspeed_row {
    unsigned zero_stage;       /* 2 or 3 */
    const char *options;       /* e.g. "offload_param=cpu, offload_optimizer=cpu, zero_init=1" */
    uint64_t per_gpu_bytes;
    uint64_t per_cpu_bytes;    /* DeepSpeed's "per CPU": one node's host memory */
};

#define GS_DEEPSPEED_ROWS 8

struct gs_deepspeed_parity {
    uint64_t gpus_per_node, nodes;
    size_t row_count;          /* 8 with largest_layer known, else the 2 ZeRO-2 rows */
    struct gs_deepspeed_row rows[GS_DEEPSPEED_ROWS];
};

/* `largest_layer` 0 when unknown (raw parameter count): ZeRO-3 rows omitted.
 * false on overflow. */
bool gs_parity_deepspeed(uint64_t parameters, uint64_t largest_layer, uint64_t gpus_per_node,
                         uint64_t nodes, struct gs_deepspeed_parity *out);

/* --- Megatron-LM --------------------------------------------------------- */

struct gs_megatron_parity {
    uint64_t padded_vocab;
    uint64_t parameters_on_most_loaded_shard; /* dense + replicated on the first stage */
    uint64_t expert_parameters_on_shard;
    uint64_t weight_and_optimizer_bytes;      /* with the request's distributed_optimizer */
    uint64_t weight_and_optimizer_bytes_other; /* with it flipped, for comparison */
    bool has_activations;                     /* batch and sequence given */
    uint64_t activation_bytes;
    bool sequence_parallel_path;              /* compute_activation_memory vs _without_sp */
};

/* Needs an architecture. Activations use the training's batch and sequence
 * length and recomputation. Routed experts are split over expert x
 * expert_tensor ranks, expert_tensor 0 read as Megatron-LM's default, the
 * tensor degree. false on overflow. */
bool gs_parity_megatron(const struct gs_arch *arch, const struct gs_training *training,
                        const struct gs_parallelism *parallelism, struct gs_megatron_parity *out);

/* --- accelerate ------------------------------------------------------------ */

struct gs_accelerate_row {
    const char *dtype;         /* "float32", "float16/bfloat16", "int8", "int4" */
    uint64_t total_size_bytes; /* "Total Size" */
    uint64_t largest_layer_bytes;
    bool has_training;         /* false for int8/int4 ("N/A") */
    uint64_t training_bytes;   /* "Training using Adam": the maximum, not the sum */
};

struct gs_accelerate_parity {
    struct gs_accelerate_row rows[4];
};

/* `largest_layer` 0 when unknown. */
void gs_parity_accelerate(uint64_t parameters, uint64_t largest_layer,
                          struct gs_accelerate_parity *out);

#endif
