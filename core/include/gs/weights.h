/*
 * weights.h - weight storage formats and the bytes one GPU holds for them
 * (estimation.md 4.1): plain fp32/bf16/fp16, fp8 (per tensor, per channel,
 * 128x128 blocks), LLM.int8, GPTQ and AWQ int4 with a group size, bnb nf4
 * (with or without double quantization), GGUF types, MXFP4, and plain int4.
 *
 * Quantized formats store linear-layer weights quantized; embeddings, the
 * output head, norms and routers stay 16-bit, counted as such. Tensor
 * parallelism splits column-parallel layers by output and row-parallel ones
 * by input, replicating KV heads when there are fewer than ranks (vLLM's
 * QKVParallelLinear); pipeline parallelism splits the layers, the first
 * stage holding the embedding and the last the head.
 */
#ifndef GS_WEIGHTS_H
#define GS_WEIGHTS_H

#include "gs/arch.h"
#include "gs/precision.h"
#include "gs/status.h"

#include <stdbool.h>
#include <stdint.h>

enum gs_weight_format {
    GS_WF_FP32,
    GS_WF_BF16,
    GS_WF_FP16,
    GS_WF_INT8,            /* LLM.int8: int8 + an fp32 scale per output row */
    GS_WF_INT4,            /* plain 4 bits on every parameter, no scales */
    GS_WF_FP8,             /* per tensor: 1 byte + one fp32 scale per tensor */
    GS_WF_FP8_PER_CHANNEL, /* 1 byte + an fp32 scale per output row */
    GS_WF_FP8_BLOCK,       /* 1 byte + an fp32 scale per 128x128 block (DeepSeek-V3) */
    GS_WF_GPTQ,            /* int4 qweight, int32 qzeros, fp16 scales per group, int32 g_idx */
    GS_WF_AWQ,             /* int4 qweight, int32 qzeros, fp16 scales per group */
    GS_WF_NF4,             /* bnb 4-bit, fp32 absmax per 64: 4.5 bits */
    GS_WF_NF4_DQ,          /* with double quantization: 4.127 bits */
    GS_WF_GGUF_Q4_0,
    GS_WF_GGUF_Q4_K_M,
    GS_WF_GGUF_Q5_K_M,
    GS_WF_GGUF_Q6_K,
    GS_WF_GGUF_Q8_0,
    GS_WF_MXFP4,           /* 4-bit e2m1 + an 8-bit scale per 32: 4.25 bits */
    GS_WF_COUNT
};

/* API name ("gptq", "q4_k_m", ...); never NULL. */
const char *gs_weight_format_name(enum gs_weight_format format);
bool gs_weight_format_parse(const char *name, enum gs_weight_format *out);

/* The plain element type a format stands for in training (QLoRA's 4-bit
 * base is int4); GS_DTYPE_COUNT when it cannot be a training base. */
enum gs_dtype gs_weight_format_training_dtype(enum gs_weight_format format);

/* GPTQ and AWQ take a group size (default 128). */
bool gs_weight_format_grouped(enum gs_weight_format format);

struct gs_weights_request {
    enum gs_weight_format format;
    uint64_t group_size;  /* GPTQ/AWQ; 0 = 128 */
    uint64_t tensor;      /* tensor-parallel degree, >= 1 */
    uint64_t pipeline;    /* pipeline stages, >= 1 */
};

/* Bytes of weights on the most loaded GPU, for a model with an
 * architecture. Checks that tensor parallelism does not split a
 * quantization group (vLLM: input_size_per_partition % group_size == 0),
 * with a pointer at "/parallelism/tensor". */
enum gs_status gs_weights_bytes(const struct gs_arch *arch, const struct gs_param_count *params,
                                const struct gs_weights_request *request, uint64_t *out,
                                struct gs_error *err);

/* The same for a raw parameter count (no shapes): every parameter at the
 * format's rate, split evenly over tensor x pipeline ranks. */
uint64_t gs_weights_bytes_raw(uint64_t parameters, const struct gs_weights_request *request,
                              bool *overflow);

#endif
