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
