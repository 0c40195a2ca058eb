/* precision.c - element formats and their byte costs (see gs/precision.h). */
#include "gs/precision.h"

#include "gs/units.h"

#include <string.h>

static const struct {
    const char *name;
    unsigned bits;
} dtypes[GS_DTYPE_COUNT] = {
    [GS_DTYPE_FP32] = {"fp32", 32}, [GS_DTYPE_BF16] = {"bf16", 16}, [GS_DTYPE_FP16] = {"fp16", 16},
    [GS_DTYPE_INT8] = {"int8", 8},  [GS_DTYPE_INT4] = {"int4", 4},
};

unsigned gs_dtype_bits(enum gs_dtype dtype)
{
    return dtype < GS_DTYPE_COUNT ? dtypes[dtype].bits : 0;
}

const char *gs_dtype_name(enum gs_dtype dtype)
{
    return dtype < GS_DTYPE_COUNT ? dtypes[dtype].name : "unknown";
}

bool gs_dtype_parse(const char *name, enum gs_dtype *out)
{
    if (name == NULL)
        return false;
    for (int i = 0; i < GS_DTYPE_COUNT; i++) {
        if (strcmp(name, dtypes[i].name) == 0) {
            *out = (enum gs_dtype)i;
            return true;
        }
    }
    return false;
}

bool gs_dtype_is_quantized(enum gs_dtype dtype)
{
    return dtype == GS_DTYPE_INT8 || dtype == GS_DTYPE_INT4;
}

uint64_t gs_dtype_bytes(enum gs_dtype dtype, uint64_t elements, bool *overflow)
{
    uint64_t bits = gs_mul(elements, gs_dtype_bits(dtype), overflow);
    return gs_div_ceil(bits, 8);
}
