/*
 * checkpoint_summary.c - the stored dtypes' names, and the stored format a
 * summary's tensors show (see checkpoint_summary.h).
 */
#include "hub/checkpoint_summary.h"

#include <string.h>

static const char *const dtype_names[CK_DTYPE_COUNT] = {
    [CK_F64] = "F64",
    [CK_F32] = "F32",
    [CK_F16] = "F16",
    [CK_BF16] = "BF16",
    [CK_F8_E4M3] = "F8_E4M3",
    [CK_F8_E5M2] = "F8_E5M2",
    [CK_F8_E8M0] = "F8_E8M0",
    [CK_I64] = "I64",
    [CK_I32] = "I32",
    [CK_I16] = "I16",
    [CK_I8] = "I8",
    [CK_U64] = "U64",
    [CK_U32] = "U32",
    [CK_U16] = "U16",
    [CK_U8] = "U8",
    [CK_BOOL] = "BOOL",
    [CK_GGUF_Q4_0] = "Q4_0",
    [CK_GGUF_Q4_1] = "Q4_1",
    [CK_GGUF_Q5_0] = "Q5_0",
    [CK_GGUF_Q5_1] = "Q5_1",
    [CK_GGUF_Q8_0] = "Q8_0",
    [CK_GGUF_Q2_K] = "Q2_K",
    [CK_GGUF_Q3_K] = "Q3_K",
    [CK_GGUF_Q4_K] = "Q4_K",
    [CK_GGUF_Q5_K] = "Q5_K",
    [CK_GGUF_Q6_K] = "Q6_K",
    [CK_GGUF_Q8_K] = "Q8_K",
    [CK_GGUF_IQ] = "IQ",
    [CK_GGUF_MXFP4] = "MXFP4",
};

const char *checkpoint_dtype_name(enum checkpoint_dtype dtype)
{
    if ((unsigned)dtype >= CK_DTYPE_COUNT)
        return "?";
    return dtype_names[dtype];
}

void checkpoint_summary_init(struct checkpoint_summary *s)
{
    memset(s, 0, sizeof(*s));
}

/* ---- format ------------------------------------------------------------------------------ */

static bool gguf_format(const char *file_type, enum gs_weight_format *out, uint64_t *group)
{
    static const struct {
        const char *name;
        enum gs_weight_format format;
        uint64_t group;
    } map[] = {
        {"Q4_0", GS_WF_GGUF_Q4_0, 32},
        {"Q4_K_M", GS_WF_GGUF_Q4_K_M, 256},
        {"Q5_K_M", GS_WF_GGUF_Q5_K_M, 256},
        {"Q6_K", GS_WF_GGUF_Q6_K, 256},
        {"Q8_0", GS_WF_GGUF_Q8_0, 32},
        {"F32", GS_WF_FP32, 0},
        {"F16", GS_WF_FP16, 0},
        {"BF16", GS_WF_BF16, 0},
        {"MXFP4_MOE", GS_WF_MXFP4, 32},
    };
    for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++) {
        if (strcmp(file_type, map[i].name) == 0) {
            *out = map[i].format;
            *group = map[i].group;
            return true;
        }
    }
    return false;
}

/* The float dtype holding the most matrix bytes. */
static bool dominant_float(const struct checkpoint_summary *s, enum gs_weight_format *out)
{
    static const enum gs_weight_format formats[CK_FLOAT_COUNT] = {[CK_FLOAT_F32] = GS_WF_FP32,
                                                                  [CK_FLOAT_F16] = GS_WF_FP16,
                                                                  [CK_FLOAT_BF16] = GS_WF_BF16,
                                                                  [CK_FLOAT_F8] = GS_WF_FP8};
    int best = CK_FLOAT_BF16;
    for (int i = 0; i < CK_FLOAT_COUNT; i++)
        if (s->float_matrix_bytes[i] > s->float_matrix_bytes[best])
            best = i;
    if (s->float_matrix_bytes[best] == 0)
        return false;
    *out = formats[best];
    return true;
}

void checkpoint_finish(struct checkpoint_summary *s)
{
    const uint64_t f = s->seen_flags;
    enum gs_weight_format format = GS_WF_BF16;
    bool known = true;
    if (f & CK_SEEN_GGUF) {
        uint64_t group = 0;
        known = gguf_format(s->gguf_file_type, &format, &group);
        s->group_size = known ? group : 0;
    } else if (f & CK_SEEN_MXFP4) {
        format = GS_WF_MXFP4;
        s->group_size = 32;
    } else if (f & CK_SEEN_NVFP4) {
        format = GS_WF_NVFP4;
        s->group_size = 16;
    } else if (f & CK_SEEN_QWEIGHT) {
        if ((f & CK_SEEN_G_IDX) || (f & CK_SEEN_LAYOUT_GPTQ))
            format = GS_WF_GPTQ;
        else if (f & CK_SEEN_LAYOUT_AWQ)
            format = GS_WF_AWQ;
        else
            known = false;
    } else if (f & (CK_SEEN_FP8_BLOCK128 | CK_SEEN_FP8_SCALE_OTHER | CK_SEEN_FP8_TENSOR |
                    CK_SEEN_FP8_CHANNEL)) {
        s->group_size = 0;
        if ((f & CK_SEEN_FP8_BLOCK128) && !(f & CK_SEEN_FP8_SCALE_OTHER))
            format = GS_WF_FP8_BLOCK;
        else if ((f & CK_SEEN_FP8_CHANNEL) && !(f & CK_SEEN_FP8_SCALE_OTHER))
            format = GS_WF_FP8_PER_CHANNEL;
        else if ((f & CK_SEEN_FP8_TENSOR) && !(f & CK_SEEN_FP8_SCALE_OTHER))
            format = GS_WF_FP8;
        else
            known = false;
    } else if (f & CK_SEEN_BNB4) {
        format = (f & CK_SEEN_BNB4_NESTED) ? GS_WF_NF4_DQ : GS_WF_NF4;
        s->group_size = 0;
    } else if (f & CK_SEEN_BNB8) {
        format = GS_WF_INT8;
        s->group_size = 0;
    } else {
        s->group_size = 0;
        known = dominant_float(s, &format);
    }
    s->format_known = known;
    s->format = known ? format : GS_WF_BF16;
}
