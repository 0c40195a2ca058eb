/*
 * checkpoint_tensor.c - what the safetensors and GGUF readers share (see
 * checkpoint_tensor.h).
 */
#include "hub/checkpoint_tensor.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

uint64_t checkpoint_tensor_le64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = (v << 8) | p[i];
    return v;
}

/* "/" + name escaped per RFC 6901 ("~" -> "~0", "/" -> "~1"). */
static void name_pointer(const char *name, char *out, size_t cap)
{
    size_t o = 0;
    out[o++] = '/';
    for (const char *c = name; *c && o + 3 < cap; c++) {
        if (*c == '~' || *c == '/') {
            out[o++] = '~';
            out[o++] = *c == '~' ? '0' : '1';
        } else {
            out[o++] = *c;
        }
    }
    out[o] = '\0';
}

enum gs_status checkpoint_tensor_error(struct gs_error *err, enum gs_status status,
                                       const char *name, const char *fmt, ...)
{
    char pointer[GS_ERROR_POINTER_MAX];
    char detail[GS_ERROR_DETAIL_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(detail, sizeof(detail), fmt, ap);
    va_end(ap);
    if (name)
        name_pointer(name, pointer, sizeof(pointer));
    else
        pointer[0] = '\0';
    return gs_error_add(err, status, pointer, "%s", detail);
}

/* The index N of a numbered block: "layers.N.", "h.N.", "blocks.N.", "layer.N." or GGUF's
 * "blk.N.", at the start of the name or after a dot. */
static bool layer_index(const char *name, uint64_t *index)
{
    static const char *const patterns[] = {"layers.", "h.", "blocks.", "layer.", "blk."};
    for (const char *p = name; *p; p++) {
        if (p != name && p[-1] != '.')
            continue;
        for (size_t i = 0; i < sizeof(patterns) / sizeof(patterns[0]); i++) {
            const size_t k = strlen(patterns[i]);
            if (strncmp(p, patterns[i], k) != 0)
                continue;
            const char *q = p + k;
            uint64_t v = 0;
            int digits = 0;
            while (*q >= '0' && *q <= '9' && digits < 9) {
                v = v * 10 + (uint64_t)(*q - '0');
                q++;
                digits++;
            }
            if (digits > 0 && *q == '.') {
                *index = v;
                return true;
            }
        }
    }
    return false;
}

/* Towers and projectors of multimodal checkpoints: not decoder layers. */
static bool is_multimodal(const char *name)
{
    static const char *const parts[] = {"vision", "visual",       "audio",
                                        "image",  "mm_projector", "multi_modal"};
    for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++)
        if (strstr(name, parts[i]))
            return true;
    return false;
}

/* A multi-token-prediction layer's tensor by its name: a dotted component starting with "mtp"
 * (checkpoint_summary.mtp_bytes). */
static bool is_mtp(const char *name)
{
    for (const char *p = name; *p; p++)
        if ((p == name || p[-1] == '.') && strncmp(p, "mtp", 3) == 0)
            return true;
    return false;
}

/* Adds one classified tensor to `t`; GS_ERR_RANGE when a total would overflow. */
enum gs_status checkpoint_tensor_account(struct checkpoint_summary *t,
                                         const struct checkpoint_tensor *x, uint64_t params,
                                         enum checkpoint_tensor_kind kind, bool decoder_candidate,
                                         struct gs_error *err)
{
    if (t->tensor_bytes + x->bytes < t->tensor_bytes || t->parameters + params < t->parameters)
        return checkpoint_tensor_error(err, GS_ERR_RANGE, x->name,
                                       "the checkpoint's byte or parameter total "
                                       "overflows 64 bits");
    t->tensors++;
    t->tensor_bytes += x->bytes;
    t->bytes_by_dtype[x->dtype] += x->bytes;
    t->parameters += params;
    if (kind == TK_QUANT)
        t->quantization_bytes += x->bytes;
    if (x->ndims >= 2) {
        t->matrix_bytes += x->bytes;
        if (kind == TK_PARAM) {
            int slot = -1;
            switch (x->dtype) {
            case CK_F32:
                slot = CK_FLOAT_F32;
                break;
            case CK_F16:
                slot = CK_FLOAT_F16;
                break;
            case CK_BF16:
                slot = CK_FLOAT_BF16;
                break;
            case CK_F8_E4M3:
            case CK_F8_E5M2:
                slot = CK_FLOAT_F8;
                break;
            default:
                break;
            }
            if (slot >= 0)
                t->float_matrix_bytes[slot] += x->bytes;
        }
    } else {
        t->vector_bytes += x->bytes;
    }
    uint64_t layer = 0;
    const bool mtp = is_mtp(x->name);
    if (mtp)
        t->mtp_bytes += x->bytes;
    if (decoder_candidate && !mtp && !is_multimodal(x->name) && layer_index(x->name, &layer) &&
        layer < CHECKPOINT_LAYERS_MAX) {
        t->layer_bytes[layer] += x->bytes;
        if (layer + 1 > t->layers)
            t->layers = layer + 1;
    } else {
        t->other_bytes += x->bytes;
    }
    return GS_OK;
}
