/*
 * precision.h - numeric formats of stored tensors and what they cost in bytes.
 *
 * The skeleton knows the plain formats; format families with scales and
 * group sizes (GPTQ, AWQ, nf4, GGUF, fp8 variants) extend this module.
 */
#ifndef GS_PRECISION_H
#define GS_PRECISION_H

#include <stdbool.h>
#include <stdint.h>

enum gs_dtype {
    GS_DTYPE_FP32,
    GS_DTYPE_BF16,
    GS_DTYPE_FP16,
    GS_DTYPE_INT8,
    GS_DTYPE_INT4,
    GS_DTYPE_COUNT
};

/* Storage formats of weights (see gs/weights.h for their layouts). */
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
    GS_WF_NVFP4,           /* 4-bit e2m1 + an fp8 e4m3 scale per 16 (4.5 bits) + two fp32
                              scalars per matrix (NVIDIA ModelOpt, compressed-tensors nvfp4) */
    GS_WF_MXFP8,           /* 8-bit e4m3 + an e8m0 scale per 32 inputs (8.25 bits): the OCP MX
                              format NVIDIA ModelOpt writes (MiniMax-M3-NVFP4's attention and
                              MLPs) */
    GS_WF_COUNT
};

/* Bits per element: 32, 16, 16, 8, 4. */
unsigned gs_dtype_bits(enum gs_dtype dtype);

/* The API name ("fp32", "bf16", ...). Never NULL. */
const char *gs_dtype_name(enum gs_dtype dtype);

/* Parses an API name; false when `name` is not one. */
bool gs_dtype_parse(const char *name, enum gs_dtype *out);

/* true for the integer formats, which need scales and cannot be trained directly. */
bool gs_dtype_is_quantized(enum gs_dtype dtype);

/* Bytes to store `elements` values: ceil(elements * bits / 8). Sets *overflow. */
uint64_t gs_dtype_bytes(enum gs_dtype dtype, uint64_t elements, bool *overflow);

#endif
