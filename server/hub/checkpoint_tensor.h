/*
 * checkpoint_tensor.h - what the safetensors and GGUF readers share: one
 * tensor's bytes, parameters and kind added to a summary (matrix or vector,
 * numbered layer or not), the errors that name a tensor by a JSON pointer,
 * and little-endian numbers.
 */
#ifndef GS_CHECKPOINT_TENSOR_H
#define GS_CHECKPOINT_TENSOR_H

#include "gs/status.h"
#include "hub/checkpoint_summary.h"

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

/* a dimension above 2^48 elements describes no real tensor */
#define CK_DIM_MAX (UINT64_C(1) << 48)

/* Bytes, elements, parameters and kind of one tensor, the state every format shares. */
enum checkpoint_tensor_kind { TK_PARAM, TK_QUANT, TK_BUFFER };

struct checkpoint_tensor {
    const char *name;
    const json_t *info; /* safetensors: borrowed from the header */
    enum checkpoint_dtype dtype;
    unsigned ndims;
    uint64_t elements;
    uint64_t bytes;
    uint64_t begin, end; /* safetensors data_offsets */
};

/* Adds one classified tensor to `t` (a numbered layer's bytes only when `decoder_candidate`);
 * GS_ERR_RANGE when a total would overflow. */
enum gs_status checkpoint_tensor_account(struct checkpoint_summary *t,
                                         const struct checkpoint_tensor *x, uint64_t params,
                                         enum checkpoint_tensor_kind kind, bool decoder_candidate,
                                         struct gs_error *err);

/* Adds an error at the pointer "/<name>" (RFC 6901), or "" when `name` is NULL; returns
 * `status`. */
enum gs_status checkpoint_tensor_error(struct gs_error *err, enum gs_status status,
                                       const char *name, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* The little-endian 64-bit number at `p`. */
uint64_t checkpoint_tensor_le64(const uint8_t *p);

#endif
