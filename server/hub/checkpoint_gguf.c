/*
 * checkpoint_gguf.c - a GGUF file from its header (see checkpoint_gguf.h).
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
#include "hub/checkpoint_gguf.h"

#include "hub/checkpoint_tensor.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ggml's GGML_MAX_DIMS */
#define GGUF_DIMS_MAX   4
#define GGUF_KEY_MAX    65535u
#define GGUF_NAME_MAX   1024u
#define GGUF_STRING_MAX (UINT64_C(1) << 30)
#define GGUF_COUNT_MAX  (UINT64_C(1) << 26)
#define GGUF_DEPTH_MAX  3

/* ---- GGUF ------------------------------------------------------------------------------- */

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

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
    *v = checkpoint_tensor_le64(r->b + r->pos);
    r->pos += 8;
    return true;
}

static bool rd_fail(struct reader *r, enum gs_status status, const char *name, const char *what)
{
    if (r->status == GS_OK)
        r->status = checkpoint_tensor_error(r->err, status, name, "%s", what);
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
        v->u = checkpoint_tensor_le64(p);
        break;
    case GV_I64:
        v->negative = (int64_t)checkpoint_tensor_le64(p) < 0;
        v->u = checkpoint_tensor_le64(p);
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
        const uint64_t bits = checkpoint_tensor_le64(p);
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
    struct checkpoint_tensor x = {
        .name = name, .dtype = (enum checkpoint_dtype)tt->dtype, .ndims = ndims};
    x.elements = 1;
    for (uint32_t i = 0; i < ndims; i++) {
        if (dims[i] > CK_DIM_MAX || __builtin_mul_overflow(x.elements, dims[i], &x.elements))
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
    const enum gs_status st = checkpoint_tensor_account(
        t, &x, buffer ? 0 : x.elements, buffer ? TK_BUFFER : TK_PARAM, decoder, r->err);
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
    t->seen_flags |= CK_SEEN_GGUF;
    snprintf(t->gguf_architecture, sizeof(t->gguf_architecture), "%s", m->arch);
    gguf_file_type(t, m);
    *s = *t;
    gguf_config(m, config, config_cap);
out:
    free(m);
    free(t);
    return st;
}
