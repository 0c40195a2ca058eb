/*
 * checkpoint_safetensors.c - a safetensors shard from its header (see
 * checkpoint_safetensors.h).
 *
 * Safetensors (huggingface/safetensors, "Format" in its README): 8 bytes of
 * little-endian header length, a JSON object {name: {"dtype", "shape",
 * "data_offsets": [begin, end]}, "__metadata__": {...}}, then the data; the
 * offsets are relative to the data and, as the library's own validation
 * requires, cover it from 0 without gaps or overlaps.
 *
 * Every shard is read into a copy of the summary and copied back only when
 * the whole header is valid, so an error leaves the caller's summary as it
 * was.
 */
#include "hub/checkpoint_safetensors.h"

#include "hub/checkpoint_tensor.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* safetensors allows any rank; no real tensor has more than a handful */
#define ST_DIMS_MAX 16
/* 2^22 tensors is far beyond any real shard (a 64 MiB header holds ~1M) */
#define ST_TENSORS_MAX (UINT64_C(1) << 22)

/* Bytes per element of the safetensors dtypes (0: not a safetensors dtype). */
static const uint8_t st_elem_bytes[CK_DTYPE_COUNT] = {
    [CK_F64] = 8,     [CK_F32] = 4, [CK_F16] = 2, [CK_BF16] = 2, [CK_F8_E4M3] = 1, [CK_F8_E5M2] = 1,
    [CK_F8_E8M0] = 1, [CK_I64] = 8, [CK_I32] = 4, [CK_I16] = 2,  [CK_I8] = 1,      [CK_U64] = 8,
    [CK_U32] = 4,     [CK_U16] = 2, [CK_U8] = 1,  [CK_BOOL] = 1,
};

static bool ends_with(const char *name, const char *suffix, size_t *stem)
{
    const size_t n = strlen(name), k = strlen(suffix);
    if (n < k || memcmp(name + n - k, suffix, k) != 0)
        return false;
    if (stem)
        *stem = n - k;
    return true;
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

static bool st_dtype_parse(const char *name, enum checkpoint_dtype *out)
{
    for (int d = 0; d < CK_DTYPE_COUNT; d++) {
        if (st_elem_bytes[d] &&
            strcmp(name, checkpoint_dtype_name((enum checkpoint_dtype)d)) == 0) {
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
static enum gs_status st_read_tensor(const char *name, const json_t *info,
                                     struct checkpoint_tensor *x, struct gs_error *err)
{
    memset(x, 0, sizeof(*x));
    x->name = name;
    x->info = info;
    if (!json_is_object(info))
        return checkpoint_tensor_error(err, GS_ERR_INVALID, name,
                                       "must be an object with dtype, shape and data_offsets");
    const json_t *dtype = json_object_get(info, "dtype");
    if (!json_is_string(dtype))
        return checkpoint_tensor_error(err, GS_ERR_INVALID, name, "dtype must be a string");
    if (!st_dtype_parse(json_string_value(dtype), &x->dtype))
        return checkpoint_tensor_error(
            err, GS_ERR_INVALID, name,
            "unknown dtype \"%.40s\" (safetensors has BOOL, U8, I8, F8_E4M3, "
            "F8_E5M2, F8_E8M0, I16, U16, F16, BF16, I32, U32, F32, F64, I64, U64)",
            json_string_value(dtype));
    const json_t *shape = json_object_get(info, "shape");
    if (!json_is_array(shape))
        return checkpoint_tensor_error(err, GS_ERR_INVALID, name,
                                       "shape must be an array of dimensions");
    if (json_array_size(shape) > ST_DIMS_MAX)
        return checkpoint_tensor_error(err, GS_ERR_INVALID, name,
                                       "shape has %zu dimensions, more than %d",
                                       json_array_size(shape), ST_DIMS_MAX);
    uint64_t dims[ST_DIMS_MAX];
    x->elements = 1;
    size_t i;
    const json_t *d;
    json_array_foreach(shape, i, d)
    {
        if (!json_is_integer(d) || json_integer_value(d) < 0 ||
            (uint64_t)json_integer_value(d) > CK_DIM_MAX)
            return checkpoint_tensor_error(err, GS_ERR_INVALID, name,
                                           "shape[%zu] must be an integer from 0 to 2^48", i);
        dims[i] = (uint64_t)json_integer_value(d);
        if (__builtin_mul_overflow(x->elements, dims[i], &x->elements))
            return checkpoint_tensor_error(err, GS_ERR_INVALID, name,
                                           "the shape's element count overflows");
    }
    x->ndims = (unsigned)json_array_size(shape);
    if (__builtin_mul_overflow(x->elements, (uint64_t)st_elem_bytes[x->dtype], &x->bytes))
        return checkpoint_tensor_error(err, GS_ERR_INVALID, name,
                                       "the tensor's byte count overflows");
    const json_t *offsets = json_object_get(info, "data_offsets");
    if (!json_is_array(offsets) || json_array_size(offsets) != 2 ||
        !json_is_integer(json_array_get(offsets, 0)) ||
        !json_is_integer(json_array_get(offsets, 1)) ||
        json_integer_value(json_array_get(offsets, 0)) < 0 ||
        json_integer_value(json_array_get(offsets, 1)) < 0)
        return checkpoint_tensor_error(
            err, GS_ERR_INVALID, name,
            "data_offsets must be two non-negative integers [begin, end]");
    x->begin = (uint64_t)json_integer_value(json_array_get(offsets, 0));
    x->end = (uint64_t)json_integer_value(json_array_get(offsets, 1));
    if (x->end < x->begin)
        return checkpoint_tensor_error(err, GS_ERR_INVALID, name,
                                       "data_offsets [%llu, %llu] end before they begin",
                                       (unsigned long long)x->begin, (unsigned long long)x->end);
    if (x->end - x->begin != x->bytes) {
        char text[256];
        format_dims(dims, x->ndims, text, sizeof(text));
        return checkpoint_tensor_error(
            err, GS_ERR_INVALID, name,
            "data_offsets [%llu, %llu] hold %llu bytes, but %s %s takes %llu "
            "(%llu elements of %u bytes)",
            (unsigned long long)x->begin, (unsigned long long)x->end,
            (unsigned long long)(x->end - x->begin), checkpoint_dtype_name(x->dtype), text,
            (unsigned long long)x->bytes, (unsigned long long)x->elements, st_elem_bytes[x->dtype]);
    }
    return GS_OK;
}

static int st_by_offset(const void *a, const void *b)
{
    const struct checkpoint_tensor *x = a, *y = b;
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
                              const struct checkpoint_tensor *x, size_t stem, unsigned bits)
{
    uint64_t q[ST_DIMS_MAX], sc[ST_DIMS_MAX];
    const json_t *scales = st_sibling(root, x->name, stem, ".scales");
    if (!scales || st_shape(x->info, q) != 2 || st_shape(scales, sc) != 2 || sc[0] == 0)
        return;
    uint64_t in = 0;
    if (q[1] == sc[1]) {
        t->seen_flags |= CK_SEEN_LAYOUT_GPTQ;
        in = q[0] * 32 / bits;
    } else if (q[1] * 32 / bits == sc[1]) {
        t->seen_flags |= CK_SEEN_LAYOUT_AWQ;
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
static void st_fp8_scale(struct checkpoint_summary *t, const json_t *root,
                         const struct checkpoint_tensor *x, size_t stem, bool inverse)
{
    uint64_t w[ST_DIMS_MAX], sc[ST_DIMS_MAX];
    enum checkpoint_dtype wd = CK_DTYPE_COUNT;
    const json_t *weight = st_sibling(root, x->name, stem, ".weight");
    if (!weight || !st_dtype_of(weight, &wd) || !is_f8(wd)) {
        /* an NVFP4 weight's fp8 scales: its packed uint8 weight says the format */
        if (weight && wd != CK_U8)
            t->seen_flags |= CK_SEEN_FP8_SCALE_OTHER;
        return;
    }
    const unsigned wn = st_shape(weight, w), sn = st_shape(x->info, sc);
    if (inverse) {
        bool block = wn >= 2 && sn == wn;
        for (unsigned i = 0; block && i < wn; i++) {
            const bool last2 = i + 2 >= wn;
            block = last2 ? sc[i] == (w[i] + 127) / 128 : sc[i] == w[i];
        }
        t->seen_flags |= block ? CK_SEEN_FP8_BLOCK128 : CK_SEEN_FP8_SCALE_OTHER;
    } else if (x->elements == 1) {
        t->seen_flags |= CK_SEEN_FP8_TENSOR;
    } else if (wn >= 1 && sn >= 1 && sc[0] == w[0] && x->elements == w[0]) {
        t->seen_flags |= CK_SEEN_FP8_CHANNEL;
    } else {
        t->seen_flags |= CK_SEEN_FP8_SCALE_OTHER;
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
static bool nvfp4_weight(const json_t *root, const struct checkpoint_tensor *x, size_t stem)
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
                                  const struct checkpoint_tensor *x, uint64_t *params,
                                  enum checkpoint_tensor_kind *kind, struct gs_error *err)
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
            return checkpoint_tensor_error(err, GS_ERR_RANGE, name,
                                           "the unpacked parameter count overflows");
        *params = packed / bits;
        t->seen_flags |= CK_SEEN_QWEIGHT;
        st_qweight_layout(t, root, x, stem, bits);
    } else if (ends_with(name, ".qzeros", NULL)) {
        *kind = TK_QUANT; /* GPTQ/AWQ zero points, packed like qweight */
        t->seen_flags |= CK_SEEN_QZEROS;
    } else if (ends_with(name, ".g_idx", NULL)) {
        *kind = TK_QUANT; /* GPTQ act-order group index per input channel */
        t->seen_flags |= CK_SEEN_G_IDX;
    } else if (ends_with(name, ".scales", &stem) && st_sibling(root, name, stem, ".qweight")) {
        *kind = TK_QUANT; /* GPTQ/AWQ fp16 scales per group */
        t->seen_flags |= CK_SEEN_GPTQ_SCALES;
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
            return checkpoint_tensor_error(err, GS_ERR_RANGE, name,
                                           "the unpacked parameter count overflows");
        t->seen_flags |= CK_SEEN_NVFP4;
    } else if (x->dtype == CK_U8 && ends_with(name, "_blocks", NULL)) {
        /* mxfp4 (openai/gpt-oss, transformers' Mxfp4 integration): two e2m1 values per byte */
        if (__builtin_mul_overflow(x->elements, (uint64_t)2, params))
            return checkpoint_tensor_error(err, GS_ERR_RANGE, name,
                                           "the unpacked parameter count overflows");
        t->seen_flags |= CK_SEEN_MXFP4;
    } else if (x->dtype == CK_U8 && ends_with(name, "_scales", NULL)) {
        *kind = TK_QUANT; /* mxfp4 e8m0 scale per 32 values */
    } else if (bnb4_aux(name, &nested)) {
        *kind = TK_QUANT;
        t->seen_flags |= CK_SEEN_BNB4 | (nested ? CK_SEEN_BNB4_NESTED : 0);
    } else if (x->dtype == CK_U8 && ends_with(name, ".weight", NULL) && bnb4_weight(root, name)) {
        if (__builtin_mul_overflow(x->elements, (uint64_t)2, params))
            return checkpoint_tensor_error(err, GS_ERR_RANGE, name,
                                           "the unpacked parameter count overflows");
        t->seen_flags |= CK_SEEN_BNB4;
    } else if (ends_with(name, ".SCB", NULL)) {
        *kind = TK_QUANT; /* bitsandbytes LLM.int8 (Int8Params): fp32 scale per output row */
        t->seen_flags |= CK_SEEN_BNB8;
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
    const uint64_t n = checkpoint_tensor_le64(first8);
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
static enum gs_status st_read_all(const json_t *root, struct checkpoint_tensor **out, size_t *count,
                                  struct gs_error *err)
{
    enum gs_status st = GS_OK;
    struct checkpoint_tensor *list = NULL;
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
            st = checkpoint_tensor_error(
                err, GS_ERR_INVALID, list[i].name,
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
    struct checkpoint_tensor *list = NULL;
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
        enum checkpoint_tensor_kind kind = TK_PARAM;
        st = st_classify(&t, root, &list[i], &params, &kind, err);
        if (st == GS_OK)
            st = checkpoint_tensor_account(&t, &list[i], params, kind, true, err);
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
