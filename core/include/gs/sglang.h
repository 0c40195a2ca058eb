/*
 * sglang.h - how SGLang sizes its KV pool.
 *
 * ModelRunner.init_torch_distributed measures the free memory after the
 * CUDA context and the process groups exist (min over ranks); after the
 * weights load, profile_max_num_token takes the free memory then, minus
 * that baseline x (1 - mem_fraction_static). The pool is therefore
 * fraction x (total - context - communication buffers) - weights;
 * activations and CUDA graphs live in the reserve outside the fraction and
 * are not subtracted. Pages are one token (server_args page_size 1).
 */
#ifndef GS_SGLANG_H
#define GS_SGLANG_H

#include "gs/runtime.h"

#include <stdbool.h>
#include <stdint.h>

/* SGLang's default mem_fraction_static in thousandths for a GPU of
 * `total_bytes` under tensor x pipeline parallelism (server_args.py:
 * capacity minus a reserve for activations and CUDA graphs that grows with
 * the GPU and the parallel size, over capacity, rounded to 3 places). */
uint64_t gs_sglang_default_fraction_permille(uint64_t total_bytes, uint64_t tensor,
                                             uint64_t pipeline);

/* What is gone from the device before SGLang's baseline: the CUDA context
 * and the communication buffers of a `tensor`-rank group over `link`. */
uint64_t gs_sglang_preload_bytes(enum gs_link link, uint64_t tensor, bool cross_node);

#endif
