/*
 * checkpoint.c - what a checkpoint stores, from its safetensors or GGUF
 * headers (see checkpoint.h).
 *
 * Safetensors (huggingface/safetensors, "Format" in its README): 8 bytes of
 * little-endian header length, a JSON object {name: {"dtype", "shape",
 * "data_offsets": [begin, end]}, "__metadata__": {...}}, then the data; the
 * offsets are relative to the data and, as the library's own validation
 * requires, cover it from 0 without gaps or overlaps.
 *
 * GGUF (ggml-org/ggml docs/gguf.md): "GGUF", u32 version, u64 tensor count,
 * u64 metadata count, the key/value pairs, then per tensor its name, u32
 * n_dims, u64 dims[n_dims], u32 ggml type and u64 offset; bytes per tensor
 * from ggml's type traits (ggml/src/ggml.c, type_traits: block size and
 * block bytes), offsets checked as gguf.cpp checks them (each tensor starts
 * where the previous one, padded to general.alignment, ended).
 *
 * Every shard is read into a copy of the summary and copied back only when
 * the whole header is valid, so an error leaves the caller's summary as it
 * was.
 */
#include "hub/checkpoint.h"

#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* safetensors allows any rank; no real tensor has more than a handful */
#define ST_DIMS_MAX 16
/* a dimension above 2^48 elements describes no real tensor */
#define DIM_MAX (UINT64_C(1) << 48)
/* 2^22 tensors is far beyond any real shard (a 64 MiB header holds ~1M) */
#define ST_TENSORS_MAX (UINT64_C(1) << 22)
/* ggml's GGML_MAX_DIMS */
#define GGUF_DIMS_MAX   4
#define GGUF_KEY_MAX    65535u
#define GGUF_NAME_MAX   1024u
#define GGUF_STRING_MAX (UINT64_C(1) << 30)
#define GGUF_COUNT_MAX  (UINT64_C(1) << 26)
#define GGUF_DEPTH_MAX  3

/* seen_flags bits (detection state, see checkpoint_finish) */
enum {
    SEEN_QWEIGHT = 1 << 0,
    SEEN_QZEROS = 1 << 1,
    SEEN_GPTQ_SCALES = 1 << 2,
    SEEN_G_IDX = 1 << 3,
    SEEN_LAYOUT_GPTQ = 1 << 4,
    SEEN_LAYOUT_AWQ = 1 << 5,
    SEEN_FP8_BLOCK128 = 1 << 6,
    SEEN_FP8_SCALE_OTHER = 1 << 7,
    SEEN_FP8_TENSOR = 1 << 8,
    SEEN_FP8_CHANNEL = 1 << 9,
    SEEN_MXFP4 = 1 << 10,
    SEEN_BNB4 = 1 << 11,
    SEEN_BNB4_NESTED = 1 << 12,
    SEEN_BNB8 = 1 << 13,
    SEEN_GGUF = 1 << 14,
    SEEN_NVFP4 = 1 << 15,
};

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

/* Bytes per element of the safetensors dtypes (0: not a safetensors dtype). */
static const uint8_t st_elem_bytes[CK_DTYPE_COUNT] = {
    [CK_F64] = 8,     [CK_F32] = 4, [CK_F16] = 2, [CK_BF16] = 2, [CK_F8_E4M3] = 1, [CK_F8_E5M2] = 1,
    [CK_F8_E8M0] = 1, [CK_I64] = 8, [CK_I32] = 4, [CK_I16] = 2,  [CK_I8] = 1,      [CK_U64] = 8,
    [CK_U32] = 4,     [CK_U16] = 2, [CK_U8] = 1,  [CK_BOOL] = 1,
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

static uint64_t le64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = (v << 8) | p[i];
    return v;
}

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
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

static enum gs_status name_error(struct gs_error *err, enum gs_status status, const char *name,
                                 const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static enum gs_status name_error(struct gs_error *err, enum gs_status status, const char *name,
                                 const char *fmt, ...)
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

static bool ends_with(const char *name, const char *suffix, size_t *stem)
{
    const size_t n = strlen(name), k = strlen(suffix);
    if (n < k || memcmp(name + n - k, suffix, k) != 0)
        return false;
    if (stem)
        *stem = n - k;
    return true;
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

static void format_dims(const uint64_t *dims, unsigned n, char *out, size_t cap)
{
    size_t o = 0;
    o += (size_t)snprintf(out, cap, "[");
    for (unsigned i = 0; i < n && o < cap; i++)
        o += (size_t)snprintf(out + o, cap - o, "%s%llu", i ? ", " : "",
                              (unsigned long long)dims[i]);
    if (o < cap)
        snprintf(out + o, cap - o, "]");
}

/* Bytes, elements, parameters and kind of one tensor, the state every format shares. */
enum tensor_kind { TK_PARAM, TK_QUANT, TK_BUFFER };

struct tensor {
    const char *name;
    const json_t *info; /* safetensors: borrowed from the header */
    enum checkpoint_dtype dtype;
    unsigned ndims;
    uint64_t elements;
    uint64_t bytes;
    uint64_t begin, end; /* safetensors data_offsets */
};

/* Adds one classified tensor to `t`; GS_ERR_RANGE when a total would overflow. */
static enum gs_status account(struct checkpoint_summary *t, const struct tensor *x, uint64_t params,
                              enum tensor_kind kind, bool decoder_candidate, struct gs_error *err)
{
    if (t->tensor_bytes + x->bytes < t->tensor_bytes || t->parameters + params < t->parameters)
        return name_error(err, GS_ERR_RANGE, x->name,
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
    if (decoder_candidate && !is_multimodal(x->name) && layer_index(x->name, &layer) &&
        layer < CHECKPOINT_LAYERS_MAX) {
        t->layer_bytes[layer] += x->bytes;
        if (layer + 1 > t->layers)
            t->layers = layer + 1;
    } else {
        t->other_bytes += x->bytes;
    }
    return GS_OK;
}

/* ---- safetensors ------------------------------------------------------------------------ */

static bool st_dtype_parse(const char *name, enum checkpoint_dtype *out)
{
    for (int d = 0; d < CK_DTYPE_COUNT; d++) {
        if (st_elem_bytes[d] && strcmp(name, dtype_names[d]) == 0) {
            *out = (enum checkpoint_dtype)d;
            return true;
        }
    }
    return false;
}

/* The shape of an already validated tensor entry. */
static unsigned st_shape(const json_t *info, uint64_t dims[ST_DIMS_MAX])
{
    const json_t *shape = json_object_get(info, "shape");
    unsigned n = 0;
    size_t i;
    const json_t *d;
    json_array_foreach(shape, i, d)
    {
        if (n < ST_DIMS_MAX)
            dims[n++] = (uint64_t)json_integer_value(d);
    }
    return n;
}

static bool st_dtype_of(const json_t *info, enum checkpoint_dtype *out)
{
    const char *s = json_string_value(json_object_get(info, "dtype"));
    return s && st_dtype_parse(s, out);
}

/* One entry of the header: dtype, shape and data_offsets, consistent with each other. */
static enum gs_status st_read_tensor(const char *name, const json_t *info, struct tensor *x,
                                     struct gs_error *err)
{
    memset(x, 0, sizeof(*x));
    x->name = name;
    x->info = info;
    if (!json_is_object(info))
        return name_error(err, GS_ERR_INVALID, name,
                          "must be an object with dtype, shape and data_offsets");
    const json_t *dtype = json_object_get(info, "dtype");
    if (!json_is_string(dtype))
        return name_error(err, GS_ERR_INVALID, name, "dtype must be a string");
    if (!st_dtype_parse(json_string_value(dtype), &x->dtype))
        return name_error(err, GS_ERR_INVALID, name,
                          "unknown dtype \"%.40s\" (safetensors has BOOL, U8, I8, F8_E4M3, "
                          "F8_E5M2, F8_E8M0, I16, U16, F16, BF16, I32, U32, F32, F64, I64, U64)",
                          json_string_value(dtype));
    const json_t *shape = json_object_get(info, "shape");
    if (!json_is_array(shape))
        return name_error(err, GS_ERR_INVALID, name, "shape must be an array of dimensions");
    if (json_array_size(shape) > ST_DIMS_MAX)
        return name_error(err, GS_ERR_INVALID, name, "shape has %zu dimensions, more than %d",
                          json_array_size(shape), ST_DIMS_MAX);
    uint64_t dims[ST_DIMS_MAX];
    x->elements = 1;
    size_t i;
    const json_t *d;
    json_array_foreach(shape, i, d)
    {
        if (!json_is_integer(d) || json_integer_value(d) < 0 ||
            (uint64_t)json_integer_value(d) > DIM_MAX)
            return name_error(err, GS_ERR_INVALID, name,
                              "shape[%zu] must be an integer from 0 to 2^48", i);
        dims[i] = (uint64_t)json_integer_value(d);
        if (__builtin_mul_overflow(x->elements, dims[i], &x->elements))
            return name_error(err, GS_ERR_INVALID, name, "the shape's element count overflows");
    }
    x->ndims = (unsigned)json_array_size(shape);
    if (__builtin_mul_overflow(x->elements, (uint64_t)st_elem_bytes[x->dtype], &x->bytes))
        return name_error(err, GS_ERR_INVALID, name, "the tensor's byte count overflows");
    const json_t *offsets = json_object_get(info, "data_offsets");
    if (!json_is_array(offsets) || json_array_size(offsets) != 2 ||
        !json_is_integer(json_array_get(offsets, 0)) ||
        !json_is_integer(json_array_get(offsets, 1)) ||
        json_integer_value(json_array_get(offsets, 0)) < 0 ||
        json_integer_value(json_array_get(offsets, 1)) < 0)
        return name_error(err, GS_ERR_INVALID, name,
                          "data_offsets must be two non-negative integers [begin, end]");
    x->begin = (uint64_t)json_integer_value(json_array_get(offsets, 0));
    x->end = (uint64_t)json_integer_value(json_array_get(offsets, 1));
    if (x->end < x->begin)
        return name_error(err, GS_ERR_INVALID, name,
                          "data_offsets [%llu, %llu] end before they begin",
                          (unsigned long long)x->begin, (unsigned long long)x->end);
    if (x->end - x->begin != x->bytes) {
        char text[256];
        format_dims(dims, x->ndims, text, sizeof(text));
        return name_error(err, GS_ERR_INVALID, name,
                          "data_offsets [%llu, %llu] hold %llu bytes, but %s %s takes %llu "
                          "(%llu elements of %u bytes)",
                          (unsigned long long)x->begin, (unsigned long long)x->end,
                          (unsigned long long)(x->end - x->begin), dtype_names[x->dtype], text,
                          (unsigned long long)x->bytes, (unsigned long long)x->elements,
                          st_elem_bytes[x->dtype]);
    }
    return GS_OK;
}

static int st_by_offset(const void *a, const void *b)
{
    const struct tensor *x = a, *y = b;
    if (x->begin != y->begin)
        return x->begin < y->begin ? -1 : 1;
    if (x->end != y->end)
        return x->end < y->end ? -1 : 1;
    return 0;
}

/* The entry `stem` + `suffix` in the same header, or NULL. */
static const json_t *st_sibling(const json_t *root, const char *name, size_t stem,
                                const char *suffix)
{
    char key[1024];
    const size_t k = strlen(suffix);
    if (stem + k + 1 > sizeof(key))
        return NULL;
    memcpy(key, name, stem);
    memcpy(key + stem, suffix, k + 1);
    return json_object_get(root, key);
}

/* GPTQ packs along the input dimension (qweight [in*bits/32, out], AutoGPTQ/GPTQModel
 * QuantLinear), AWQ along the output (qweight [in, out*bits/32], AutoAWQ WQLinear_GEMM); both
 * store scales [in/group, out]. */
static void st_qweight_layout(struct checkpoint_summary *t, const json_t *root,
                              const struct tensor *x, size_t stem, unsigned bits)
{
    uint64_t q[ST_DIMS_MAX], sc[ST_DIMS_MAX];
    const json_t *scales = st_sibling(root, x->name, stem, ".scales");
    if (!scales || st_shape(x->info, q) != 2 || st_shape(scales, sc) != 2 || sc[0] == 0)
        return;
    uint64_t in = 0;
    if (q[1] == sc[1]) {
        t->seen_flags |= SEEN_LAYOUT_GPTQ;
        in = q[0] * 32 / bits;
    } else if (q[1] * 32 / bits == sc[1]) {
        t->seen_flags |= SEEN_LAYOUT_AWQ;
        in = q[0];
    }
    if (in && in % sc[0] == 0 && t->group_size == 0)
        t->group_size = in / sc[0];
}

static bool is_f8(enum checkpoint_dtype d)
{
    return d == CK_F8_E4M3 || d == CK_F8_E5M2;
}

/* fp8 scales next to an fp8 weight: one per 128x128 block (weight_scale_inv, DeepSeek-V3 and
 * Qwen's fp8 releases, transformers' FineGrainedFP8), one per tensor or one per output row
 * (weight_scale, llm-compressor / compressed-tensors and vLLM's fp8 checkpoints). */
static void st_fp8_scale(struct checkpoint_summary *t, const json_t *root, const struct tensor *x,
                         size_t stem, bool inverse)
{
    uint64_t w[ST_DIMS_MAX], sc[ST_DIMS_MAX];
    enum checkpoint_dtype wd = CK_DTYPE_COUNT;
    const json_t *weight = st_sibling(root, x->name, stem, ".weight");
    if (!weight || !st_dtype_of(weight, &wd) || !is_f8(wd)) {
        /* an NVFP4 weight's fp8 scales: its packed uint8 weight says the format */
        if (weight && wd != CK_U8)
            t->seen_flags |= SEEN_FP8_SCALE_OTHER;
        return;
    }
    const unsigned wn = st_shape(weight, w), sn = st_shape(x->info, sc);
    if (inverse) {
        bool block = wn >= 2 && sn == wn;
        for (unsigned i = 0; block && i < wn; i++) {
            const bool last2 = i + 2 >= wn;
            block = last2 ? sc[i] == (w[i] + 127) / 128 : sc[i] == w[i];
        }
        t->seen_flags |= block ? SEEN_FP8_BLOCK128 : SEEN_FP8_SCALE_OTHER;
    } else if (x->elements == 1) {
        t->seen_flags |= SEEN_FP8_TENSOR;
    } else if (wn >= 1 && sn >= 1 && sc[0] == w[0] && x->elements == w[0]) {
        t->seen_flags |= SEEN_FP8_CHANNEL;
    } else {
        t->seen_flags |= SEEN_FP8_SCALE_OTHER;
    }
}

/* bitsandbytes 4-bit (Params4bit / QuantState.as_dict): "<w>.weight" holds two 4-bit values per
 * byte next to "<w>.weight.absmax", ".quant_map", ".nested_absmax", ".nested_quant_map" and
 * ".quant_state.bitsandbytes__nf4|fp4". */
static bool bnb4_aux(const char *name, bool *nested)
{
    *nested = ends_with(name, ".nested_absmax", NULL) || ends_with(name, ".nested_quant_map", NULL);
    return *nested || ends_with(name, ".absmax", NULL) || ends_with(name, ".quant_map", NULL) ||
           strstr(name, ".quant_state.bitsandbytes__") != NULL;
}

static bool bnb4_weight(const json_t *root, const char *name)
{
    static const char *const aux[] = {".absmax", ".quant_map", ".quant_state.bitsandbytes__nf4",
                                      ".quant_state.bitsandbytes__fp4"};
    const size_t n = strlen(name);
    for (size_t i = 0; i < sizeof(aux) / sizeof(aux[0]); i++)
        if (st_sibling(root, name, n, aux[i]))
            return true;
    return false;
}

/* NVFP4 (NVIDIA ModelOpt, vLLM ModelOptNvFp4LinearMethod; compressed-tensors
 * nvfp4-pack-quantized): "<w>.weight" (ModelOpt) or "<w>.weight_packed"
 * (compressed-tensors), uint8 [out, in/2] holding two e2m1 values a byte,
 * beside an fp8 e4m3 "<w>.weight_scale" [out, in/16]; the fp32 scalars
 * "<w>.weight_scale_2" and "<w>.input_scale" (ModelOpt) or
 * "<w>.weight_global_scale" and "<w>.input_global_scale" (compressed-tensors). */
static bool nvfp4_weight(const json_t *root, const struct tensor *x, size_t stem)
{
    uint64_t w[ST_DIMS_MAX], sc[ST_DIMS_MAX];
    enum checkpoint_dtype sd;
    const json_t *scale = st_sibling(root, x->name, stem, ".weight_scale");
    if (x->dtype != CK_U8 || scale == NULL || !st_dtype_of(scale, &sd) || sd != CK_F8_E4M3)
        return false;
    const unsigned wn = st_shape(x->info, w), sn = st_shape(scale, sc);
    if (wn < 2 || sn != wn || sc[wn - 1] * 8 != w[wn - 1])
        return false;
    for (unsigned i = 0; i + 1 < wn; i++)
        if (sc[i] != w[i])
            return false;
    return true;
}

/* Parameters and kind of one safetensors tensor, and what it says of the format. */
static enum gs_status st_classify(struct checkpoint_summary *t, const json_t *root,
                                  const struct tensor *x, uint64_t *params, enum tensor_kind *kind,
                                  struct gs_error *err)
{
    const unsigned bits = t->pack_bits ? t->pack_bits : 4;
    const char *name = x->name;
    size_t stem = 0;
    bool nested = false;
    *params = x->elements;
    *kind = TK_PARAM;
    if (x->dtype == CK_I32 && ends_with(name, ".qweight", &stem)) {
        /* GPTQ (AutoGPTQ, GPTQModel) and AWQ (AutoAWQ): 32/bits values per int32 */
        uint64_t packed;
        if (bits == 0 || bits > 32 || __builtin_mul_overflow(x->elements, (uint64_t)32, &packed))
            return name_error(err, GS_ERR_RANGE, name, "the unpacked parameter count overflows");
        *params = packed / bits;
        t->seen_flags |= SEEN_QWEIGHT;
        st_qweight_layout(t, root, x, stem, bits);
    } else if (ends_with(name, ".qzeros", NULL)) {
        *kind = TK_QUANT; /* GPTQ/AWQ zero points, packed like qweight */
        t->seen_flags |= SEEN_QZEROS;
    } else if (ends_with(name, ".g_idx", NULL)) {
        *kind = TK_QUANT; /* GPTQ act-order group index per input channel */
        t->seen_flags |= SEEN_G_IDX;
    } else if (ends_with(name, ".scales", &stem) && st_sibling(root, name, stem, ".qweight")) {
        *kind = TK_QUANT; /* GPTQ/AWQ fp16 scales per group */
        t->seen_flags |= SEEN_GPTQ_SCALES;
    } else if (ends_with(name, ".weight_scale_inv", &stem)) {
        *kind = TK_QUANT;
        st_fp8_scale(t, root, x, stem, true);
    } else if (ends_with(name, ".weight_scale", &stem)) {
        *kind = TK_QUANT;
        st_fp8_scale(t, root, x, stem, false);
    } else if (ends_with(name, ".input_scale", NULL) || ends_with(name, ".k_scale", NULL) ||
               ends_with(name, ".v_scale", NULL)) {
        *kind = TK_QUANT; /* static fp8 activation and KV-cache scales (vLLM, llm-compressor) */
    } else if (ends_with(name, ".weight_scale_2", NULL) ||
               ends_with(name, ".weight_global_scale", NULL) ||
               ends_with(name, ".input_global_scale", NULL)) {
        *kind = TK_QUANT; /* NVFP4's fp32 per-tensor scales */
    } else if ((ends_with(name, ".weight", &stem) || ends_with(name, ".weight_packed", &stem)) &&
               nvfp4_weight(root, x, stem)) {
        if (__builtin_mul_overflow(x->elements, (uint64_t)2, params))
            return name_error(err, GS_ERR_RANGE, name, "the unpacked parameter count overflows");
        t->seen_flags |= SEEN_NVFP4;
    } else if (x->dtype == CK_U8 && ends_with(name, "_blocks", NULL)) {
        /* mxfp4 (openai/gpt-oss, transformers' Mxfp4 integration): two e2m1 values per byte */
        if (__builtin_mul_overflow(x->elements, (uint64_t)2, params))
            return name_error(err, GS_ERR_RANGE, name, "the unpacked parameter count overflows");
        t->seen_flags |= SEEN_MXFP4;
    } else if (x->dtype == CK_U8 && ends_with(name, "_scales", NULL)) {
        *kind = TK_QUANT; /* mxfp4 e8m0 scale per 32 values */
    } else if (bnb4_aux(name, &nested)) {
        *kind = TK_QUANT;
        t->seen_flags |= SEEN_BNB4 | (nested ? SEEN_BNB4_NESTED : 0);
    } else if (x->dtype == CK_U8 && ends_with(name, ".weight", NULL) && bnb4_weight(root, name)) {
        if (__builtin_mul_overflow(x->elements, (uint64_t)2, params))
            return name_error(err, GS_ERR_RANGE, name, "the unpacked parameter count overflows");
        t->seen_flags |= SEEN_BNB4;
    } else if (ends_with(name, ".SCB", NULL)) {
        *kind = TK_QUANT; /* bitsandbytes LLM.int8 (Int8Params): fp32 scale per output row */
        t->seen_flags |= SEEN_BNB8;
    } else if (ends_with(name, ".weight_format", NULL)) {
        *kind = TK_QUANT; /* bitsandbytes 8-bit layout tag */
    } else if (ends_with(name, ".rotary_emb.inv_freq", NULL)) {
        *kind = TK_BUFFER; /* a persisted buffer (transformers before 4.31), not a parameter */
    }
    if (*kind != TK_PARAM)
        *params = 0;
    return GS_OK;
}

enum gs_status checkpoint_safetensors_length(const uint8_t first8[8], uint64_t max,
                                             uint64_t *length, struct gs_error *err)
{
    const uint64_t n = le64(first8);
    if (n == 0)
        return gs_error_add(err, GS_ERR_INVALID, "", "the safetensors header length is 0");
    if (n > max)
        return gs_error_add(err, GS_ERR_TOO_LARGE, "",
                            "the safetensors header is %llu bytes, over the limit of %llu",
                            (unsigned long long)n, (unsigned long long)max);
    *length = n;
    return GS_OK;
}

/* Every entry valid, and the data ranges contiguous from 0 (no gap, no overlap). */
static enum gs_status st_read_all(const json_t *root, struct tensor **out, size_t *count,
                                  struct gs_error *err)
{
    enum gs_status st = GS_OK;
    struct tensor *list = NULL;
    size_t n = 0;
    const size_t cap = json_object_size(root);
    if (cap > ST_TENSORS_MAX) {
        st = gs_error_add(err, GS_ERR_TOO_LARGE, "", "the header names %zu tensors, more than %llu",
                          cap, (unsigned long long)ST_TENSORS_MAX);
        goto out;
    }
    list = calloc(cap ? cap : 1, sizeof(*list));
    if (!list) {
        st = gs_error_add(err, GS_ERR_NOMEM, "", "out of memory reading a safetensors header");
        goto out;
    }
    const char *key;
    const json_t *value;
    json_object_foreach((json_t *)(uintptr_t)root, key, value)
    {
        if (strcmp(key, "__metadata__") == 0)
            continue;
        st = st_read_tensor(key, value, &list[n], err);
        if (st != GS_OK)
            goto out;
        n++;
    }
    qsort(list, n, sizeof(*list), st_by_offset);
    uint64_t at = 0;
    for (size_t i = 0; i < n; i++) {
        if (list[i].begin != at) {
            st = name_error(err, GS_ERR_INVALID, list[i].name,
                            "data_offsets [%llu, %llu] %s: tensor data must follow the previous "
                            "tensor's, which ends at %llu (the data is one contiguous block)",
                            (unsigned long long)list[i].begin, (unsigned long long)list[i].end,
                            list[i].begin > at ? "leave a gap" : "overlap another tensor",
                            (unsigned long long)at);
            goto out;
        }
        at = list[i].end;
    }
out:
    if (st != GS_OK) {
        free(list);
        list = NULL;
        n = 0;
    }
    *out = list;
    *count = n;
    return st;
}

enum gs_status checkpoint_add_safetensors(struct checkpoint_summary *s, const char *json,
                                          size_t length, struct gs_error *err)
{
    enum gs_status st = GS_OK;
    json_t *root = NULL;
    struct tensor *list = NULL;
    size_t n = 0;
    json_error_t jerr;
    root = json_loadb(json, length, JSON_REJECT_DUPLICATES, &jerr);
    if (!root) {
        st = gs_error_add(err, GS_ERR_INVALID, "",
                          "the safetensors header is not valid JSON: %s (at byte %d)", jerr.text,
                          jerr.position);
        goto out;
    }
    if (!json_is_object(root)) {
        st = gs_error_add(err, GS_ERR_INVALID, "", "the safetensors header must be a JSON object");
        goto out;
    }
    st = st_read_all(root, &list, &n, err);
    if (st != GS_OK)
        goto out;
    struct checkpoint_summary t = *s;
    for (size_t i = 0; i < n; i++) {
        uint64_t params = 0;
        enum tensor_kind kind = TK_PARAM;
        st = st_classify(&t, root, &list[i], &params, &kind, err);
        if (st == GS_OK)
            st = account(&t, &list[i], params, kind, true, err);
        if (st != GS_OK)
            goto out;
    }
    t.files++;
    *s = t;
out:
    free(list);
    json_decref(root);
    return st;
}

/* ---- GGUF ------------------------------------------------------------------------------- */

/* ggml type traits (ggml/src/ggml.c type_traits): elements per block and bytes per block. */
struct ggml_traits {
    uint16_t block;
    uint16_t bytes;
    int8_t dtype; /* enum checkpoint_dtype */
};

#define GGML_TYPES 40
static const struct ggml_traits ggml_types[GGML_TYPES] = {
    [0] = {1, 4, CK_F32},            /* F32 */
    [1] = {1, 2, CK_F16},            /* F16 */
    [2] = {32, 18, CK_GGUF_Q4_0},    /* Q4_0 */
    [3] = {32, 20, CK_GGUF_Q4_1},    /* Q4_1 */
    [6] = {32, 22, CK_GGUF_Q5_0},    /* Q5_0 */
    [7] = {32, 24, CK_GGUF_Q5_1},    /* Q5_1 */
    [8] = {32, 34, CK_GGUF_Q8_0},    /* Q8_0 */
    [9] = {32, 36, CK_GGUF_IQ},      /* Q8_1 (an activation type; counted with the rare ones) */
    [10] = {256, 84, CK_GGUF_Q2_K},  /* Q2_K */
    [11] = {256, 110, CK_GGUF_Q3_K}, /* Q3_K */
    [12] = {256, 144, CK_GGUF_Q4_K}, /* Q4_K */
    [13] = {256, 176, CK_GGUF_Q5_K}, /* Q5_K */
    [14] = {256, 210, CK_GGUF_Q6_K}, /* Q6_K */
    [15] = {256, 292, CK_GGUF_Q8_K}, /* Q8_K */
    [16] = {256, 66, CK_GGUF_IQ},    /* IQ2_XXS */
    [17] = {256, 74, CK_GGUF_IQ},    /* IQ2_XS */
    [18] = {256, 98, CK_GGUF_IQ},    /* IQ3_XXS */
    [19] = {256, 50, CK_GGUF_IQ},    /* IQ1_S */
    [20] = {32, 18, CK_GGUF_IQ},     /* IQ4_NL */
    [21] = {256, 110, CK_GGUF_IQ},   /* IQ3_S */
    [22] = {256, 82, CK_GGUF_IQ},    /* IQ2_S */
    [23] = {256, 136, CK_GGUF_IQ},   /* IQ4_XS */
    [24] = {1, 1, CK_I8},            /* I8 */
    [25] = {1, 2, CK_I16},           /* I16 */
    [26] = {1, 4, CK_I32},           /* I32 */
    [27] = {1, 8, CK_I64},           /* I64 */
    [28] = {1, 8, CK_F64},           /* F64 */
    [29] = {256, 56, CK_GGUF_IQ},    /* IQ1_M */
    [30] = {1, 2, CK_BF16},          /* BF16 */
    [34] = {256, 54, CK_GGUF_IQ},    /* TQ1_0 */
    [35] = {256, 66, CK_GGUF_IQ},    /* TQ2_0 */
    [39] = {32, 17, CK_GGUF_MXFP4},  /* MXFP4 */
};

/* llama_ftype (include/llama.h) by the names llama-quantize takes (tools/quantize). */
static const char *const gguf_ftype_names[] = {
    [0] = "F32",     [1] = "F16",      [2] = "Q4_0",     [3] = "Q4_1",       [4] = "Q4_1_SOME_F16",
    [7] = "Q8_0",    [8] = "Q5_0",     [9] = "Q5_1",     [10] = "Q2_K",      [11] = "Q3_K_S",
    [12] = "Q3_K_M", [13] = "Q3_K_L",  [14] = "Q4_K_S",  [15] = "Q4_K_M",    [16] = "Q5_K_S",
    [17] = "Q5_K_M", [18] = "Q6_K",    [19] = "IQ2_XXS", [20] = "IQ2_XS",    [21] = "Q2_K_S",
    [22] = "IQ3_XS", [23] = "IQ3_XXS", [24] = "IQ1_S",   [25] = "IQ4_NL",    [26] = "IQ3_S",
    [27] = "IQ3_M",  [28] = "IQ2_S",   [29] = "IQ2_M",   [30] = "IQ4_XS",    [31] = "IQ1_M",
    [32] = "BF16",   [36] = "TQ1_0",   [37] = "TQ2_0",   [38] = "MXFP4_MOE", [39] = "NVFP4",
    [40] = "Q1_0",
};

/* GGUF metadata value types */
enum {
    GV_U8,
    GV_I8,
    GV_U16,
    GV_I16,
    GV_U32,
    GV_I32,
    GV_F32,
    GV_BOOL,
    GV_STRING,
    GV_ARRAY,
    GV_U64,
    GV_I64,
    GV_F64,
    GV_TYPES
};
static const uint8_t gv_size[GV_TYPES] = {1, 1, 2, 2, 4, 4, 4, 1, 0, 0, 8, 8, 8};

struct reader {
    const uint8_t *b;
    size_t len;
    size_t pos;
    bool short_;   /* the buffer ended before the header did */
    uint64_t want; /* a length known to be needed */
    enum gs_status status;
    struct gs_error *err;
};

/* true when n more bytes are there; otherwise records the shortfall */
static bool rd_has(struct reader *r, uint64_t n)
{
    if (r->short_ || r->status != GS_OK)
        return false;
    if (n <= r->len - r->pos)
        return true;
    r->short_ = true;
    r->want = n > UINT64_MAX - r->pos ? UINT64_MAX : r->pos + n;
    return false;
}

/* After a shortfall: `count` more items of at least `each` bytes are still to come. */
static void rd_more(struct reader *r, uint64_t count, uint64_t each)
{
    uint64_t more;
    if (!r->short_ || r->status != GS_OK)
        return;
    if (__builtin_mul_overflow(count, each, &more) || r->want > UINT64_MAX - more)
        r->want = UINT64_MAX;
    else
        r->want += more;
}

static bool rd_u32(struct reader *r, uint32_t *v)
{
    if (!rd_has(r, 4))
        return false;
    *v = le32(r->b + r->pos);
    r->pos += 4;
    return true;
}

static bool rd_u64(struct reader *r, uint64_t *v)
{
    if (!rd_has(r, 8))
        return false;
    *v = le64(r->b + r->pos);
    r->pos += 8;
    return true;
}

static bool rd_fail(struct reader *r, enum gs_status status, const char *name, const char *what)
{
    if (r->status == GS_OK)
        r->status = name_error(r->err, status, name, "%s", what);
    return false;
}

/* A GGUF string: u64 length, then the bytes (not NUL-terminated). */
static bool rd_string(struct reader *r, uint64_t max, const char *name, const uint8_t **s,
                      uint64_t *n)
{
    if (!rd_u64(r, n))
        return false;
    if (*n > max)
        return rd_fail(r, *n > GGUF_STRING_MAX ? GS_ERR_TOO_LARGE : GS_ERR_INVALID, name,
                       "a GGUF string is longer than its format allows");
    if (!rd_has(r, *n))
        return false;
    *s = r->b + r->pos;
    r->pos += (size_t)*n;
    return true;
}

/* One metadata value as read: scalars converted, strings pointed to, arrays counted. */
struct gvalue {
    uint32_t type;
    bool numeric, is_float, is_f32, negative;
    uint64_t u;
    double f;
    const uint8_t *str;
    uint64_t str_len;
    uint32_t elem_type;
    uint64_t count;
};

static bool rd_value(struct reader *r, uint32_t type, int depth, const char *key, struct gvalue *v)
{
    memset(v, 0, sizeof(*v));
    v->type = type;
    if (type >= GV_TYPES)
        return rd_fail(r, GS_ERR_INVALID, key, "unknown GGUF metadata value type");
    if (type == GV_STRING)
        return rd_string(r, GGUF_STRING_MAX, key, &v->str, &v->str_len);
    if (type == GV_ARRAY) {
        if (depth >= GGUF_DEPTH_MAX)
            return rd_fail(r, GS_ERR_INVALID, key, "GGUF arrays nest too deeply");
        if (!rd_u32(r, &v->elem_type) || !rd_u64(r, &v->count))
            return false;
        if (v->elem_type >= GV_TYPES)
            return rd_fail(r, GS_ERR_INVALID, key, "unknown GGUF array element type");
        if (v->count > GGUF_COUNT_MAX)
            return rd_fail(r, GS_ERR_INVALID, key, "a GGUF array has an absurd element count");
        if (gv_size[v->elem_type]) {
            const uint64_t bytes = v->count * gv_size[v->elem_type];
            if (!rd_has(r, bytes))
                return false;
            r->pos += (size_t)bytes;
            return true;
        }
        for (uint64_t i = 0; i < v->count; i++) {
            struct gvalue e;
            if (!rd_value(r, v->elem_type, depth + 1, key, &e)) {
                rd_more(r, v->count - i - 1, 8); /* each further element takes 8 bytes or more */
                return false;
            }
        }
        return true;
    }
    if (!rd_has(r, gv_size[type]))
        return false;
    const uint8_t *p = r->b + r->pos;
    r->pos += gv_size[type];
    v->numeric = true;
    switch (type) {
    case GV_U8:
        v->u = p[0];
        break;
    case GV_BOOL:
        v->u = p[0] != 0;
        break;
    case GV_I8:
        v->negative = (int8_t)p[0] < 0;
        v->u = (uint64_t)(int8_t)p[0];
        break;
    case GV_U16:
        v->u = (uint64_t)p[0] | (uint64_t)p[1] << 8;
        break;
    case GV_I16: {
        const int16_t x = (int16_t)(uint16_t)(p[0] | p[1] << 8);
        v->negative = x < 0;
        v->u = (uint64_t)x;
        break;
    }
    case GV_U32:
        v->u = le32(p);
        break;
    case GV_I32:
        v->negative = (int32_t)le32(p) < 0;
        v->u = (uint64_t)(int32_t)le32(p);
        break;
    case GV_U64:
        v->u = le64(p);
        break;
    case GV_I64:
        v->negative = (int64_t)le64(p) < 0;
        v->u = le64(p);
        break;
    case GV_F32: {
        const uint32_t bits = le32(p);
        float f;
        memcpy(&f, &bits, sizeof(f));
        v->is_float = v->is_f32 = true;
        v->f = f;
        break;
    }
    case GV_F64: {
        const uint64_t bits = le64(p);
        memcpy(&v->f, &bits, sizeof(v->f));
        v->is_float = true;
        break;
    }
    default:
        break;
    }
    if (!v->is_float)
        v->f = v->negative ? (double)(int64_t)v->u : (double)v->u;
    return true;
}

/* What the config needs from "<architecture>.<suffix>" keys. */
enum gguf_field {
    GF_EMBD,
    GF_BLOCKS,
    GF_FF,
    GF_HEADS,
    GF_KV_HEADS,
    GF_CTX,
    GF_EPS,
    GF_ROPE_BASE,
    GF_KEY_LEN,
    GF_VOCAB,
    GF_SWA,
    GF_COUNT
};
static const char *const gguf_field_suffix[GF_COUNT] = {
    "embedding_length",
    "block_count",
    "feed_forward_length",
    "attention.head_count",
    "attention.head_count_kv",
    "context_length",
    "attention.layer_norm_rms_epsilon",
    "rope.freq_base",
    "attention.key_length",
    "vocab_size",
    "attention.sliding_window",
};

struct gguf_meta {
    char arch[32];
    bool has_ftype;
    uint64_t ftype;
    uint64_t alignment;
    bool has_tokens;
    uint64_t tokens;
    struct {
        bool has;
        char prefix[32];
        struct gvalue v;
    } field[GF_COUNT];
    uint64_t embd_vocab; /* token_embd.weight's second dimension */
    bool has_output;
};

static bool key_is(const uint8_t *key, uint64_t n, const char *want)
{
    return n == strlen(want) && memcmp(key, want, (size_t)n) == 0;
}

static void copy_text(char *out, size_t cap, const uint8_t *s, uint64_t n)
{
    const size_t k = n < cap - 1 ? (size_t)n : cap - 1;
    memcpy(out, s, k);
    out[k] = '\0';
}

static bool gguf_capture(struct reader *r, struct gguf_meta *m, const uint8_t *key, uint64_t n,
                         const struct gvalue *v, const char *keyz)
{
    if (key_is(key, n, "general.architecture") && v->type == GV_STRING) {
        copy_text(m->arch, sizeof(m->arch), v->str, v->str_len);
    } else if (key_is(key, n, "general.file_type") && v->numeric && !v->is_float) {
        m->has_ftype = true;
        m->ftype = v->u;
    } else if (key_is(key, n, "general.alignment")) {
        if (!v->numeric || v->is_float || v->u == 0 || (v->u & (v->u - 1)) != 0 ||
            v->u > (UINT64_C(1) << 30))
            return rd_fail(r, GS_ERR_INVALID, keyz, "general.alignment must be a power of two");
        m->alignment = v->u;
    } else if (key_is(key, n, "tokenizer.ggml.tokens") && v->type == GV_ARRAY) {
        m->has_tokens = true;
        m->tokens = v->count;
    } else if (v->numeric) {
        const uint8_t *dot = memchr(key, '.', (size_t)n);
        if (!dot || (size_t)(dot - key) >= sizeof(m->field[0].prefix))
            return true;
        const uint64_t plen = (uint64_t)(dot - key);
        for (int f = 0; f < GF_COUNT; f++) {
            if (!key_is(dot + 1, n - plen - 1, gguf_field_suffix[f]))
                continue;
            m->field[f].has = true;
            copy_text(m->field[f].prefix, sizeof(m->field[f].prefix), key, plen);
            m->field[f].v = *v;
        }
    }
    return true;
}

/* A GGUF tensor name as a C string (names are short: ggml keeps 64 bytes). */
static bool rd_tensor_name(struct reader *r, char *name, size_t cap)
{
    const uint8_t *s = NULL;
    uint64_t n = 0;
    if (!rd_string(r, GGUF_NAME_MAX, NULL, &s, &n))
        return false;
    copy_text(name, cap, s, n);
    if (memchr(s, '\0', (size_t)n))
        return rd_fail(r, GS_ERR_INVALID, name, "a GGUF tensor name contains a NUL byte");
    return true;
}

static bool gguf_tensor(struct reader *r, struct checkpoint_summary *t, struct gguf_meta *m,
                        uint64_t *data_at)
{
    char name[GGUF_NAME_MAX + 1];
    uint32_t ndims = 0, type = 0;
    uint64_t dims[GGUF_DIMS_MAX] = {0}, offset = 0;
    if (!rd_tensor_name(r, name, sizeof(name)) || !rd_u32(r, &ndims))
        return false;
    if (ndims == 0 || ndims > GGUF_DIMS_MAX)
        return rd_fail(r, GS_ERR_INVALID, name, "a GGUF tensor has 1 to 4 dimensions");
    for (uint32_t i = 0; i < ndims; i++)
        if (!rd_u64(r, &dims[i]))
            return false;
    if (!rd_u32(r, &type) || !rd_u64(r, &offset))
        return false;
    if (type >= GGML_TYPES || ggml_types[type].block == 0) {
        char what[96];
        snprintf(what, sizeof(what), "unknown or unsupported ggml type %u", type);
        return rd_fail(r, type >= GGML_TYPES ? GS_ERR_UNSUPPORTED : GS_ERR_INVALID, name, what);
    }
    const struct ggml_traits *tt = &ggml_types[type];
    struct tensor x = {.name = name, .dtype = (enum checkpoint_dtype)tt->dtype, .ndims = ndims};
    x.elements = 1;
    for (uint32_t i = 0; i < ndims; i++) {
        if (dims[i] > DIM_MAX || __builtin_mul_overflow(x.elements, dims[i], &x.elements))
            return rd_fail(r, GS_ERR_INVALID, name, "the tensor's dimensions are absurd");
    }
    if (dims[0] % tt->block != 0) {
        char what[160];
        snprintf(what, sizeof(what),
                 "its first dimension (%llu) is not a multiple of the "
                 "%u-element block of its type",
                 (unsigned long long)dims[0], tt->block);
        return rd_fail(r, GS_ERR_INVALID, name, what);
    }
    if (__builtin_mul_overflow(x.elements / tt->block, (uint64_t)tt->bytes, &x.bytes))
        return rd_fail(r, GS_ERR_INVALID, name, "the tensor's byte count overflows");
    if (offset != *data_at) {
        char what[200];
        snprintf(what, sizeof(what),
                 "its data offset is %llu; the previous tensors end at %llu "
                 "(padded to %llu)",
                 (unsigned long long)offset, (unsigned long long)*data_at,
                 (unsigned long long)m->alignment);
        return rd_fail(r, GS_ERR_INVALID, name, what);
    }
    const uint64_t padded = (x.bytes + m->alignment - 1) / m->alignment * m->alignment;
    if (padded < x.bytes || *data_at + padded < *data_at)
        return rd_fail(r, GS_ERR_INVALID, name, "the tensor data overflows 64 bits");
    *data_at += padded;
    if (strcmp(name, "token_embd.weight") == 0 && ndims >= 2)
        m->embd_vocab = dims[1];
    if (strcmp(name, "output.weight") == 0)
        m->has_output = true;
    /* llama.cpp's rope_freqs (Llama 3.1+ rope scaling factors) is derived from the config */
    const bool buffer = strcmp(name, "rope_freqs.weight") == 0;
    /* a multimodal projector file (architecture "clip") has no decoder layers */
    const bool decoder = strcmp(m->arch, "clip") != 0;
    const enum gs_status st =
        account(t, &x, buffer ? 0 : x.elements, buffer ? TK_BUFFER : TK_PARAM, decoder, r->err);
    if (st != GS_OK) {
        r->status = st;
        return false;
    }
    return true;
}

/* ---- config.json from GGUF metadata ---------------------------------------------------- */

struct out {
    char *p;
    size_t cap, len;
    bool full;
};

static void out_add(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void out_add(struct out *o, const char *fmt, ...)
{
    if (o->full)
        return;
    va_list ap;
    va_start(ap, fmt);
    const int n = vsnprintf(o->p + o->len, o->cap - o->len, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= o->cap - o->len)
        o->full = true;
    else
        o->len += (size_t)n;
}

/* The shortest decimal that reads back as the stored value. */
static void format_real(const struct gvalue *v, char *buf, size_t cap)
{
    for (int p = 1; p <= 17; p++) {
        snprintf(buf, cap, "%.*g", p, v->f);
        const double back = strtod(buf, NULL);
        if (v->is_f32 ? (float)back == (float)v->f : back == v->f)
            return;
    }
}

static const struct gvalue *meta_field(const struct gguf_meta *m, enum gguf_field f)
{
    if (!m->field[f].has || strcmp(m->field[f].prefix, m->arch) != 0)
        return NULL;
    return &m->field[f].v;
}

static void config_int(struct out *o, const struct gguf_meta *m, enum gguf_field f, const char *key)
{
    const struct gvalue *v = meta_field(m, f);
    if (v && v->numeric && !v->is_float && !v->negative)
        out_add(o, ",\"%s\":%llu", key, (unsigned long long)v->u);
}

static void config_real(struct out *o, const struct gguf_meta *m, enum gguf_field f,
                        const char *key)
{
    const struct gvalue *v = meta_field(m, f);
    char num[40];
    if (!v || !v->numeric || !isfinite(v->f))
        return;
    format_real(v, num, sizeof(num));
    out_add(o, ",\"%s\":%s", key, num);
}

static void gguf_config(const struct gguf_meta *m, char *config, size_t cap)
{
    /* llama.cpp architecture -> transformers model_type and class */
    static const char *const map[][3] = {
        {"llama", "llama", "LlamaForCausalLM"},    {"qwen2", "qwen2", "Qwen2ForCausalLM"},
        {"qwen3", "qwen3", "Qwen3ForCausalLM"},    {"mistral", "mistral", "MistralForCausalLM"},
        {"gemma2", "gemma2", "Gemma2ForCausalLM"}, {"gemma3", "gemma3_text", "Gemma3ForCausalLM"},
        {"phi3", "phi3", "Phi3ForCausalLM"},
    };
    if (!config || cap == 0)
        return;
    config[0] = '\0';
    size_t i = 0;
    while (i < sizeof(map) / sizeof(map[0]) && strcmp(map[i][0], m->arch) != 0)
        i++;
    if (i == sizeof(map) / sizeof(map[0]))
        return;
    char buf[2048];
    struct out o = {buf, sizeof(buf), 0, false};
    out_add(&o, "{\"architectures\":[\"%s\"],\"model_type\":\"%s\"", map[i][2], map[i][1]);
    config_int(&o, m, GF_EMBD, "hidden_size");
    config_int(&o, m, GF_BLOCKS, "num_hidden_layers");
    config_int(&o, m, GF_FF, "intermediate_size");
    config_int(&o, m, GF_HEADS, "num_attention_heads");
    config_int(&o, m, GF_KV_HEADS, "num_key_value_heads");
    config_int(&o, m, GF_KEY_LEN, "head_dim");
    config_int(&o, m, GF_CTX, "max_position_embeddings");
    config_real(&o, m, GF_EPS, "rms_norm_eps");
    config_real(&o, m, GF_ROPE_BASE, "rope_theta");
    config_int(&o, m, GF_SWA, "sliding_window");
    const struct gvalue *vocab = meta_field(m, GF_VOCAB);
    if (m->has_tokens)
        out_add(&o, ",\"vocab_size\":%llu", (unsigned long long)m->tokens);
    else if (vocab && vocab->numeric && !vocab->is_float && !vocab->negative)
        out_add(&o, ",\"vocab_size\":%llu", (unsigned long long)vocab->u);
    else if (m->embd_vocab)
        out_add(&o, ",\"vocab_size\":%llu", (unsigned long long)m->embd_vocab);
    out_add(&o, ",\"tie_word_embeddings\":%s,\"torch_dtype\":\"bfloat16\"}",
            m->has_output ? "false" : "true");
    if (!o.full && o.len < cap)
        memcpy(config, buf, o.len + 1);
}

static void gguf_file_type(struct checkpoint_summary *t, const struct gguf_meta *m)
{
    t->gguf_file_type[0] = '\0';
    if (!m->has_ftype)
        return;
    const size_t n = sizeof(gguf_ftype_names) / sizeof(gguf_ftype_names[0]);
    if (m->ftype < n && gguf_ftype_names[m->ftype])
        snprintf(t->gguf_file_type, sizeof(t->gguf_file_type), "%s", gguf_ftype_names[m->ftype]);
    else
        snprintf(t->gguf_file_type, sizeof(t->gguf_file_type), "%llu",
                 (unsigned long long)m->ftype);
}

static bool gguf_preamble(struct reader *r, uint64_t *tensors, uint64_t *kvs)
{
    uint32_t version = 0;
    if (!rd_has(r, 4))
        return false;
    if (memcmp(r->b, "GGUF", 4) != 0)
        return rd_fail(r, GS_ERR_INVALID, NULL,
                       "not a GGUF file (it does not start with \"GGUF\")");
    r->pos = 4;
    if (!rd_u32(r, &version))
        return false;
    if (version == 1)
        return rd_fail(r, GS_ERR_UNSUPPORTED, NULL,
                       "GGUF version 1 is not supported (versions 2 and 3 are)");
    if (version > 0xffff && (version & 0xffff) == 0)
        return rd_fail(r, GS_ERR_UNSUPPORTED, NULL, "big-endian GGUF files are not supported");
    if (version != 2 && version != 3)
        return rd_fail(r, GS_ERR_UNSUPPORTED, NULL,
                       "unknown GGUF version (versions 2 and 3 are supported)");
    if (!rd_u64(r, tensors) || !rd_u64(r, kvs))
        return false;
    if (*tensors > GGUF_COUNT_MAX || *kvs > GGUF_COUNT_MAX)
        return rd_fail(r, GS_ERR_INVALID, NULL, "the GGUF header has absurd tensor or key counts");
    return true;
}

static bool gguf_kv(struct reader *r, struct gguf_meta *m)
{
    const uint8_t *key = NULL;
    uint64_t n = 0;
    uint32_t type = 0;
    char keyz[256];
    if (!rd_string(r, GGUF_KEY_MAX, NULL, &key, &n))
        return false;
    copy_text(keyz, sizeof(keyz), key, n);
    struct gvalue v;
    if (!rd_u32(r, &type) || !rd_value(r, type, 0, keyz, &v))
        return false;
    return gguf_capture(r, m, key, n, &v, keyz);
}

enum gs_status checkpoint_add_gguf(struct checkpoint_summary *s, const uint8_t *bytes,
                                   size_t length, size_t *needed, char *config, size_t config_cap,
                                   struct gs_error *err)
{
    struct reader r = {.b = bytes, .len = bytes ? length : 0, .err = err};
    struct gguf_meta *m = calloc(1, sizeof(*m));
    struct checkpoint_summary *t = malloc(sizeof(*t));
    uint64_t tensors = 0, kvs = 0, data_at = 0;
    enum gs_status st = GS_OK;
    *needed = 0;
    if (config && config_cap)
        config[0] = '\0';
    if (!m || !t) {
        st = gs_error_add(err, GS_ERR_NOMEM, "", "out of memory reading a GGUF header");
        goto out;
    }
    *t = *s;
    m->alignment = 32; /* GGUF_DEFAULT_ALIGNMENT */
    if (!gguf_preamble(&r, &tensors, &kvs))
        goto done;
    /* when the buffer ends, what is still to come needs at least 13 bytes a key/value pair and
     * 32 a tensor info */
    for (uint64_t i = 0; i < kvs; i++) {
        if (!gguf_kv(&r, m)) {
            rd_more(&r, kvs - i - 1, 13);
            rd_more(&r, tensors, 32);
            goto done;
        }
    }
    for (uint64_t i = 0; i < tensors; i++) {
        if (!gguf_tensor(&r, t, m, &data_at)) {
            rd_more(&r, tensors - i - 1, 32);
            goto done;
        }
    }
done:
    if (r.status != GS_OK) {
        st = r.status;
        goto out;
    }
    if (r.short_) {
        /* at least what the parse showed it needs, and at least twice what it had */
        uint64_t want = r.want;
        const uint64_t twice = length > UINT64_MAX / 2 ? UINT64_MAX : (uint64_t)length * 2;
        if (twice > want)
            want = twice;
        if (want < 4096)
            want = 4096;
        *needed = want > SIZE_MAX ? SIZE_MAX : (size_t)want;
        goto out;
    }
    t->files++;
    t->seen_flags |= SEEN_GGUF;
    snprintf(t->gguf_architecture, sizeof(t->gguf_architecture), "%s", m->arch);
    gguf_file_type(t, m);
    *s = *t;
    gguf_config(m, config, config_cap);
out:
    free(m);
    free(t);
    return st;
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
    if (f & SEEN_GGUF) {
        uint64_t group = 0;
        known = gguf_format(s->gguf_file_type, &format, &group);
        s->group_size = known ? group : 0;
    } else if (f & SEEN_MXFP4) {
        format = GS_WF_MXFP4;
        s->group_size = 32;
    } else if (f & SEEN_NVFP4) {
        format = GS_WF_NVFP4;
        s->group_size = 16;
    } else if (f & SEEN_QWEIGHT) {
        if ((f & SEEN_G_IDX) || (f & SEEN_LAYOUT_GPTQ))
            format = GS_WF_GPTQ;
        else if (f & SEEN_LAYOUT_AWQ)
            format = GS_WF_AWQ;
        else
            known = false;
    } else if (f &
               (SEEN_FP8_BLOCK128 | SEEN_FP8_SCALE_OTHER | SEEN_FP8_TENSOR | SEEN_FP8_CHANNEL)) {
        s->group_size = 0;
        if ((f & SEEN_FP8_BLOCK128) && !(f & SEEN_FP8_SCALE_OTHER))
            format = GS_WF_FP8_BLOCK;
        else if ((f & SEEN_FP8_CHANNEL) && !(f & SEEN_FP8_SCALE_OTHER))
            format = GS_WF_FP8_PER_CHANNEL;
        else if ((f & SEEN_FP8_TENSOR) && !(f & SEEN_FP8_SCALE_OTHER))
            format = GS_WF_FP8;
        else
            known = false;
    } else if (f & SEEN_BNB4) {
        format = (f & SEEN_BNB4_NESTED) ? GS_WF_NF4_DQ : GS_WF_NF4;
        s->group_size = 0;
    } else if (f & SEEN_BNB8) {
        format = GS_WF_INT8;
        s->group_size = 0;
    } else {
        s->group_size = 0;
        known = dominant_float(s, &format);
    }
    s->format_known = known;
    s->format = known ? format : GS_WF_BF16;
}
