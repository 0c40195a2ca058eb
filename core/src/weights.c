/*
 * weights.c - bytes of weights per GPU by storage format (see gs/weights.h;
 * tensor layouts from vLLM's GPTQ/AWQ create_weights,
 * bitsandbytes' quantize_4bit and int8_vectorwise_quant, llama.cpp's GGUF
 * blocks, DeepSeek-V3's README_WEIGHTS.md for 128x128 fp8 blocks).
 */
#include "gs/weights.h"

#include "gs/units.h"

#include <string.h>

static const char *const format_names[GS_WF_COUNT] = {
    [GS_WF_FP32] = "fp32",      [GS_WF_BF16] = "bf16",
    [GS_WF_FP16] = "fp16",      [GS_WF_INT8] = "int8",
    [GS_WF_INT4] = "int4",      [GS_WF_FP8] = "fp8",
    [GS_WF_FP8_PER_CHANNEL] = "fp8_per_channel", [GS_WF_FP8_BLOCK] = "fp8_block",
    [GS_WF_GPTQ] = "gptq",      [GS_WF_AWQ] = "awq",
    [GS_WF_NF4] = "nf4",        [GS_WF_NF4_DQ] = "nf4_dq",
    [GS_WF_GGUF_Q4_0] = "q4_0", [GS_WF_GGUF_Q4_K_M] = "q4_k_m",
    [GS_WF_GGUF_Q5_K_M] = "q5_k_m", [GS_WF_GGUF_Q6_K] = "q6_k",
    [GS_WF_GGUF_Q8_0] = "q8_0", [GS_WF_MXFP4] = "mxfp4",
    [GS_WF_NVFP4] = "nvfp4",    [GS_WF_MXFP8] = "mxfp8",
};

const char *gs_weight_format_name(enum gs_weight_format f)
{
    return f < GS_WF_COUNT ? format_names[f] : "unknown";
}

bool gs_weight_format_parse(const char *name, enum gs_weight_format *out)
{
    if (name == NULL)
        return false;
    for (int i = 0; i < GS_WF_COUNT; i++) {
        if (strcmp(name, format_names[i]) == 0) {
            *out = (enum gs_weight_format)i;
            return true;
        }
    }
    return false;
}

enum gs_dtype gs_weight_format_training_dtype(enum gs_weight_format f)
{
    switch (f) {
    case GS_WF_FP32:
        return GS_DTYPE_FP32;
    case GS_WF_BF16:
        return GS_DTYPE_BF16;
    case GS_WF_FP16:
        return GS_DTYPE_FP16;
    case GS_WF_INT8:
        return GS_DTYPE_INT8;
    case GS_WF_INT4:
    case GS_WF_NF4:
    case GS_WF_NF4_DQ:
        return GS_DTYPE_INT4;
    default:
        return GS_DTYPE_COUNT;
    }
}

bool gs_weight_format_grouped(enum gs_weight_format f)
{
    return f == GS_WF_GPTQ || f == GS_WF_AWQ;
}

bool gs_weight_format_fp8(enum gs_weight_format f)
{
    return f == GS_WF_FP8 || f == GS_WF_FP8_PER_CHANNEL || f == GS_WF_FP8_BLOCK;
}

/* GGUF files mix block types per tensor; these are whole-file rates in
 * thousandths of a bit per parameter: Q4_0 and Q8_0 block sizes (18 and 34
 * bytes per 32), Q4_K_M/Q5_K_M/Q6_K from llama.cpp quantize.cpp's sizes for
 * Llama-3-8B. Q8_0's block rate is 8.5; the file
 * rate 8.51. */
static uint64_t gguf_millibits(enum gs_weight_format f)
{
    switch (f) {
    case GS_WF_GGUF_Q4_0:
        return 4500;
    case GS_WF_GGUF_Q4_K_M:
        return 4900;
    case GS_WF_GGUF_Q5_K_M:
        return 5700;
    case GS_WF_GGUF_Q6_K:
        return 6570;
    case GS_WF_GGUF_Q8_0:
        return 8510;
    default:
        return 0;
    }
}

/* Bytes of `n` weights laid out as Linear(in, out) in format f (n = in * out
 * for a real layer; a raw count passes its own n with a nominal shape). */
static uint64_t weights_as(enum gs_weight_format f, uint64_t n, uint64_t in, uint64_t out,
                           uint64_t g, bool *ovf)
{
    switch (f) {
    case GS_WF_FP32:
        return gs_mul(n, 4, ovf);
    case GS_WF_BF16:
    case GS_WF_FP16:
        return gs_mul(n, 2, ovf);
    case GS_WF_INT4:
        return gs_div_ceil(n, 2);
    case GS_WF_INT8:
    case GS_WF_FP8_PER_CHANNEL: /* one fp32 scale per output row */
        return gs_add(n, gs_mul(4, out, ovf), ovf);
    case GS_WF_FP8:
        return gs_add(n, 4, ovf);
    case GS_WF_FP8_BLOCK:
        return gs_add(n, gs_mul(4, gs_mul(gs_div_ceil(in, 128), gs_div_ceil(out, 128), ovf), ovf),
                      ovf);
    case GS_WF_GPTQ:
    case GS_WF_AWQ: {
        /* qweight 4 bits; qzeros int32 [in/g, out/8]; scales fp16 [in/g, out]; GPTQ g_idx int32 [in] */
        const uint64_t groups = gs_div_ceil(in, g);
        uint64_t b = gs_div_ceil(n, 2);
        b = gs_add(b, gs_mul(gs_mul(groups, gs_div_ceil(out, 8), ovf), 4, ovf), ovf);
        b = gs_add(b, gs_mul(gs_mul(groups, out, ovf), 2, ovf), ovf);
        if (f == GS_WF_GPTQ)
            b = gs_add(b, gs_mul(4, in, ovf), ovf);
        return b;
    }
    case GS_WF_NF4: /* 4 bits + an fp32 absmax per 64 = 36 bytes per 64 */
        return gs_div_ceil(gs_mul(n, 36, ovf), 64);
    case GS_WF_NF4_DQ: /* 4 + 8/64 + 32/(64*256) bits = 2113 bytes per 4096 */
        return gs_div_ceil(gs_mul(n, 2113, ovf), 4096);
    case GS_WF_MXFP4: /* 32 x 4 bits + one 8-bit scale = 17 bytes per 32 */
        return gs_div_ceil(gs_mul(n, 17, ovf), 32);
    case GS_WF_NVFP4:
        /* vLLM ModelOptNvFp4LinearMethod.create_weights: weight uint8 [out, in/2] (two e2m1
         * values a byte), weight_scale fp8 e4m3 [out, in/16], and the fp32 scalars
         * weight_scale_2 and input_scale */
        return gs_add(gs_add(gs_div_ceil(n, 2), gs_mul(out, gs_div_ceil(in, 16), ovf), ovf), 8,
                      ovf);
    case GS_WF_MXFP8:
        /* vLLM ModelOptMxFp8Config's linear and MoE create_weights: weight float8_e4m3fn
         * [out, in] and weight_scale e8m0 (one byte) [out, in / 32] (MXFP8_BLOCK_SIZE) */
        return gs_add(n, gs_mul(out, gs_div_ceil(in, 32), ovf), ovf);
    default: /* GGUF: whole-model rates, applied by the caller */
        return gs_div_ceil(gs_mul(n, gguf_millibits(f), ovf), 8000);
    }
}

static uint64_t linear_bytes(enum gs_weight_format f, uint64_t in, uint64_t out, uint64_t g,
                             bool *ovf)
{
    return weights_as(f, gs_mul(in, out, ovf), in, out, g, ovf);
}

/* Bytes per unquantized parameter (embeddings, head, norms, biases). */
static uint64_t other_bytes(enum gs_weight_format f, uint64_t n, bool *ovf)
{
    switch (f) {
    case GS_WF_FP32:
        return gs_mul(n, 4, ovf);
    case GS_WF_INT4:
        return gs_div_ceil(n, 2);
    default:
        if (gguf_millibits(f))
            return gs_div_ceil(gs_mul(n, gguf_millibits(f), ovf), 8000);
        return gs_mul(n, 2, ovf);
    }
}

static uint64_t ceil_div(uint64_t n, uint64_t d)
{
    return gs_div_ceil(n, d ? d : 1);
}

/* A module's (in, out) on one tensor rank: column-parallel layers split
 * their outputs, row-parallel ones their inputs, embeddings their rows
 * (VocabParallelEmbedding); k/v projections keep max(1, kv_heads / t) heads,
 * replicated once t exceeds the KV heads (vLLM QKVParallelLinear). */
static void rank_shape(const struct gs_module *m, const struct gs_block *b, uint64_t t,
                       uint64_t *in, uint64_t *out)
{
    *in = m->in;
    *out = m->out;
    const uint64_t kv = b != NULL ? b->attn.kv_heads : 0;
    const uint64_t kv_rank = kv >= t ? kv / t : 1;
    switch ((enum gs_split)m->split) {
    case GS_SPLIT_COLUMN:
        if (m->kind == GS_MODULE_EMBEDDING)
            *in = ceil_div(m->in, t);
        else
            *out = ceil_div(m->out, t);
        break;
    case GS_SPLIT_ROW:
        *in = ceil_div(m->in, t);
        break;
    case GS_SPLIT_KV:
        if (kv)
            *out = kv_rank * (m->out / kv);
        else
            *out = ceil_div(m->out, t);
        break;
    case GS_SPLIT_QKV:
        if (kv && b->attn.heads) {
            const uint64_t q = b->attn.heads * b->attn.head_dim;
            const uint64_t kv_width = m->out > q ? (m->out - q) / kv : 0;
            *out = ceil_div(q, t) + kv_rank * kv_width;
        } else {
            *out = ceil_div(m->out, t);
        }
        break;
    case GS_SPLIT_NONE:
        break;
    }
}

struct weigh {
    const struct gs_weights_request *r;
    uint64_t g;
    bool ovf;
    bool bad_group;         /* a quantized input slice is not a whole number of groups */
    uint64_t bad_in;
    uint16_t unquantized;   /* 1 << enum gs_part: parts the checkpoint's scheme leaves unquantized */
    bool unquantized_shared;         /* ... and its shared experts (struct gs_checkpoint) */
    const char *unquantized_modules; /* attention modules it names (struct gs_checkpoint) */
    uint8_t unquantized_mtp_layers;  /* the MTP layers it keeps whole (struct gs_checkpoint) */
    uint16_t mixed;                  /* parts a mixed-precision checkpoint stores in a format of
                                        their own (struct gs_checkpoint.mixed_parts) */
    const uint8_t *part_format;      /* their formats */
};

/* A weighing of `a` by request `r`. Served in the checkpoint's own format,
 * the parts its ignore/exclude list names stay at the checkpoint dtype
 * (struct gs_checkpoint.unquantized_parts); another format quantizes every
 * body linear. */
static struct weigh weigh_for(const struct gs_arch *a, const struct gs_weights_request *r)
{
    const struct gs_checkpoint *c = &a->checkpoint;
    const bool own = c->quantized && (enum gs_weight_format)c->format == r->format;
    return (struct weigh){r,
                          r->group_size ? r->group_size : 128,
                          false,
                          false,
                          0,
                          own ? c->unquantized_parts : 0,
                          own && c->unquantized_shared_experts,
                          own ? c->unquantized_modules : "",
                          own ? c->unquantized_mtp_layers : 0,
                          own ? c->mixed_parts : 0,
                          c->part_format};
}

/* Whether `m` is a shared expert's projection the checkpoint's ignore list keeps (the builders
 * name them shared_expert.*, or shared_experts.* inside the MoE block). */
static bool shared_unquantized(const struct weigh *w, const struct gs_module *m)
{
    return w->unquantized_shared && m->part == GS_PART_MLP && m->name != NULL &&
           strstr(m->name, "shared_expert") != NULL;
}

/* Whether attention module `m` is one the checkpoint's ignore list names: its
 * name, its last component ("indexer.wk": "wk") or its first ("indexer"). */
static bool named_unquantized(const struct weigh *w, const struct gs_module *m)
{
    if (m->part != GS_PART_ATTENTION || w->unquantized_modules[0] == '\0' || m->name == NULL)
        return false;
    const char *dot = strrchr(m->name, '.');
    const size_t head = strcspn(m->name, ".");
    const char *list = w->unquantized_modules;
    for (const char *at = list; (at = strchr(at, ',')) != NULL && at[1] != '\0'; at++) {
        const size_t n = strcspn(at + 1, ",");
        const char *token = at + 1;
        if ((strlen(m->name) == n && strncmp(m->name, token, n) == 0) ||
            (dot != NULL && strlen(dot + 1) == n && strncmp(dot + 1, token, n) == 0) ||
            (head == n && strncmp(m->name, token, n) == 0))
            return true;
    }
    return false;
}

/* Whether module `m` is stored in the requested format (the body's
 * linears), rather than as an embedding, norm or tower parameter, or as a
 * part the checkpoint's scheme leaves unquantized. */
static bool in_format(const struct weigh *w, const struct gs_module *m, bool plain)
{
    const struct gs_weights_request *r = w->r;
    /* a mixed-precision checkpoint quantizes the parts it lists, the head among them where it
     * does (vLLM's ModelOptMixedPrecisionConfig takes ParallelLMHead with LinearBase) */
    const bool listed = w->mixed & (1u << m->part);
    if (plain || m->kind != GS_MODULE_LINEAR ||
        !((m->flags & GS_MOD_QUANT) || (listed && m->part == GS_PART_LM_HEAD)) ||
        gguf_millibits(r->format) != 0 || (w->unquantized & (1u << m->part)) ||
        named_unquantized(w, m) || shared_unquantized(w, m) || (w->mixed && !listed))
        return false;
    return !(r->experts_only && !(m->flags & GS_MOD_EXPERT));
}

/* The format module `m` is stored in when in_format: its part's in a mixed-precision
 * checkpoint, else the request's. */
static enum gs_weight_format module_format(const struct weigh *w, const struct gs_module *m)
{
    return w->mixed ? (enum gs_weight_format)w->part_format[m->part % GS_PART_COUNT] : w->r->format;
}

/* A module's (in, out) on one rank and how many of it the rank holds: with
 * expert parallelism each rank holds whole experts, E / ep of them
 * (FusedMoE: local_num_experts = global_num_experts // ep_size), otherwise
 * every instance split by tensor parallelism (rank_shape). Returns the
 * degree that splits it (1 for whole experts). */
static uint64_t module_on_rank(const struct gs_weights_request *r, const struct gs_module *m,
                               const struct gs_block *b, uint64_t *in, uint64_t *out,
                               uint64_t *count)
{
    const bool spread = r->expert > 1 && (m->flags & GS_MOD_EXPERT);
    const uint64_t t = spread ? 1 : (r->tensor ? r->tensor : 1);
    rank_shape(m, b, t, in, out);
    *count = spread ? gs_div_ceil(m->count ? m->count : 1, r->expert) : (m->count ? m->count : 1);
    return t;
}

/* Bytes of one module on one rank. `plain` keeps it unquantized (towers). */
static uint64_t module_bytes(struct weigh *w, const struct gs_module *m, const struct gs_block *b,
                             bool plain)
{
    const struct gs_weights_request *r = w->r;
    uint64_t in, out, count;
    const uint64_t t = module_on_rank(r, m, b, &in, &out, &count);
    if (m->flags & GS_MOD_BUFFER) /* fp32 correction biases, int32 hash tables (vLLM) */
        return gs_mul(gs_module_parameters(m, &w->ovf), 4, &w->ovf);
    if ((m->flags & GS_MOD_HOST_TABLE) && r->host_tables)
        return 0;
    if (m->flags & (GS_MOD_FP32 | GS_MOD_FP8_ROWS | GS_MOD_FP8_TENSOR)) {
        struct gs_module one = *m;
        one.in = in;
        one.out = out;
        one.count = count;
        if (m->flags & GS_MOD_FP32)
            return gs_mul(gs_module_parameters(&one, &w->ovf), 4, &w->ovf);
        if (m->flags & GS_MOD_FP8_TENSOR) /* the one scale left out: 4 bytes a tensor */
            return gs_module_parameters(&one, &w->ovf);
        /* a row of `out` e4m3 values and one e8m0 scale a 32 (inference/model.py's Engram
         * table: 256 + 8 bytes) */
        const uint64_t row = gs_add(out, gs_div_ceil(out, 32), &w->ovf);
        return gs_mul(gs_mul(in, row, &w->ovf), count, &w->ovf);
    }
    if (!in_format(w, m, plain)) {
        struct gs_module one = *m;
        one.in = in;
        one.out = out;
        one.count = count;
        return other_bytes(r->format, gs_module_parameters(&one, &w->ovf), &w->ovf);
    }
    const enum gs_weight_format f = module_format(w, m);
    if (gs_weight_format_grouped(f) && t > 1 && in % w->g != 0) {
        w->bad_group = true;
        w->bad_in = in * t;
    }
    uint64_t bytes = linear_bytes(f, in, out, w->g, &w->ovf);
    if (m->flags & GS_MOD_BIAS) /* biases stay 16-bit */
        bytes = gs_add(bytes, gs_mul(out, 2, &w->ovf), &w->ovf);
    return gs_mul(bytes, count, &w->ovf);
}

static uint64_t block_bytes(struct weigh *w, const struct gs_block *b, bool plain)
{
    uint64_t sum = 0;
    for (size_t i = 0; i < b->module_count; i++)
        sum = gs_add(sum, module_bytes(w, &b->modules[i], b, plain), &w->ovf);
    return sum;
}

/* Model-level modules by where pipeline parallelism puts them: the head and
 * the final norms on the last stage, everything else (embeddings,
 * projectors) on the first. */
static bool on_last_stage(const struct gs_module *m)
{
    return m->part == GS_PART_LM_HEAD || m->part == GS_PART_NORMS;
}

/* Bytes on one GPU of pipeline stage `stage`, or of the most loaded stage
 * when `stage` is out of range; every stage's into `each` when not NULL
 * (the blocks are weighed once for all stages). */
static enum gs_status weights_on(const struct gs_arch *a, const struct gs_weights_request *r,
                                 uint64_t stage, uint64_t *out, uint64_t *each,
                                 struct gs_error *err)
{
    struct weigh w = weigh_for(a, r);
    const uint64_t p = r->pipeline ? r->pipeline : 1;
    uint64_t per_block[GS_BLOCKS_MAX];
    for (size_t b = 0; b < a->block_count; b++)
        per_block[b] = block_bytes(&w, &a->blocks[b], false);
    uint64_t towers = 0;
    for (size_t i = 0; i < a->tower_count; i++) {
        const struct gs_tower *tw = &a->towers[i];
        const bool plain = tw->part == GS_PART_VISION || tw->part == GS_PART_AUDIO ||
                           tw->part == GS_PART_MTP;
        if (tw->part == GS_PART_MTP || tw->block >= a->block_count)
            continue; /* loaded only for MTP speculative decoding */
        towers = gs_add(towers, gs_mul(block_bytes(&w, &a->blocks[tw->block], plain), tw->layers,
                                       &w.ovf),
                        &w.ovf);
    }
    uint64_t first_only = towers, last_only = 0, token_embedding = 0;
    for (size_t i = 0; i < a->module_count; i++) {
        const struct gs_module *m = &a->modules[i];
        const uint64_t bytes = module_bytes(&w, m, NULL, m->part == GS_PART_VISION ||
                                                             m->part == GS_PART_AUDIO);
        if (m->flags & GS_MOD_TOKENS)
            token_embedding = bytes;
        if (on_last_stage(m))
            last_only = gs_add(last_only, bytes, &w.ovf);
        else
            first_only = gs_add(first_only, bytes, &w.ovf);
    }
    /* with stages, a tied head is a copy of the embedding on the last stage */
    if (p > 1 && a->tie_word_embeddings && a->logits)
        last_only = gs_add(last_only, token_embedding, &w.ovf);
    uint64_t most = 0;
    for (uint64_t s = 0; s < p; s++) {
        if (each == NULL && stage < p && s != stage)
            continue;
        uint64_t first, end, counts[GS_BLOCKS_MAX];
        gs_arch_stage(a, &r->stages, p, s, &first, &end);
        gs_arch_count_weight_blocks(a, first, end, counts);
        uint64_t bytes = 0;
        for (size_t b = 0; b < a->block_count; b++)
            bytes = gs_add(bytes, gs_mul(per_block[b], counts[b], &w.ovf), &w.ovf);
        if (s == 0)
            bytes = gs_add(bytes, first_only, &w.ovf);
        if (s + 1 == p)
            bytes = gs_add(bytes, last_only, &w.ovf);
        if (each != NULL)
            each[s] = bytes;
        if (bytes > most && (stage >= p || s == stage))
            most = bytes;
    }
    if (w.bad_group)
        return gs_error_add(err, GS_ERR_INVALID, "/parallelism/tensor",
                            "tensor parallelism %llu splits a layer's %llu-wide input into slices "
                            "that are not a multiple of the group size %llu",
                            (unsigned long long)(r->tensor ? r->tensor : 1),
                            (unsigned long long)w.bad_in, (unsigned long long)w.g);
    if (w.ovf)
        return gs_error_add(err, GS_ERR_RANGE, "", "the weight bytes overflow 64 bits");
    *out = most;
    return GS_OK;
}

/* CUDACachingAllocator.cpp: kMinBlockSize 512, kMinLargeAlloc 10 MiB, kRoundLarge 2 MiB */
#define TORCH_MIN_BLOCK ((uint64_t)512)
#define TORCH_MIN_LARGE_ALLOC ((uint64_t)10 * 1024 * 1024)
#define TORCH_ROUND_LARGE ((uint64_t)2 * 1024 * 1024)

uint64_t gs_torch_segment_rounding(uint64_t bytes)
{
    const uint64_t size = (bytes + TORCH_MIN_BLOCK - 1) / TORCH_MIN_BLOCK * TORCH_MIN_BLOCK;
    if (size < TORCH_MIN_LARGE_ALLOC)
        return 0;
    return (size + TORCH_ROUND_LARGE - 1) / TORCH_ROUND_LARGE * TORCH_ROUND_LARGE - bytes;
}

/* Bytes of `values` weight values in format `f` without their scales: 4, 2
 * or 1 byte each, or half a byte for the 4-bit formats. */
static uint64_t value_bytes(enum gs_weight_format f, uint64_t values, bool *ovf)
{
    switch (f) {
    case GS_WF_FP32:
        return gs_mul(values, 4, ovf);
    case GS_WF_BF16:
    case GS_WF_FP16:
        return gs_mul(values, 2, ovf);
    case GS_WF_INT8:
    case GS_WF_FP8:
    case GS_WF_FP8_PER_CHANNEL:
    case GS_WF_FP8_BLOCK:
    case GS_WF_MXFP8:
        return values;
    default:
        return gs_div_ceil(values, 2);
    }
}

/* The segment slack of one block's parameters on one rank: its modules
 * grouped into the engine's tensors (gs_weights_segment_slack). */
static uint64_t block_slack(struct weigh *w, const struct gs_block *b, bool plain)
{
    struct group {
        uint8_t kind; /* 0 a module alone, 1 fused column-parallel linears, 2 w13, 3 w2 */
        uint8_t part;
        uint64_t in, bytes, instances;
    } groups[GS_BLOCK_MODULES_MAX];
    size_t n = 0;
    for (size_t i = 0; i < b->module_count; i++) {
        struct gs_module m = b->modules[i];
        m.flags &= (uint8_t)~GS_MOD_BIAS; /* a bias is a small tensor of its own */
        const bool expert = (m.flags & GS_MOD_EXPERT) != 0;
        const bool column = m.kind == GS_MODULE_LINEAR &&
                            (m.split == GS_SPLIT_COLUMN || m.split == GS_SPLIT_KV ||
                             m.split == GS_SPLIT_QKV);
        const uint8_t kind = expert ? (m.split == GS_SPLIT_ROW ? 3 : 2) : column ? 1 : 0;
        size_t g = n;
        if (kind != 0)
            for (g = 0; g < n; g++)
                if (groups[g].kind == kind && groups[g].part == m.part &&
                    (kind != 1 || groups[g].in == m.in))
                    break;
        /* routed experts are one tensor for all experts; other repeated modules one each */
        const uint64_t instances = expert || m.count == 0 ? 1 : m.count;
        if (!expert)
            m.count = 1;
        uint64_t bytes;
        if (in_format(w, &m, plain)) {
            /* the values alone: a quantized format's scales, zeros and g_idx are tensors of
             * their own */
            const bool spread = w->r->expert > 1 && expert;
            uint64_t in, out;
            rank_shape(&m, b, spread ? 1 : (w->r->tensor ? w->r->tensor : 1), &in, &out);
            const uint64_t experts =
                !expert ? 1
                : spread ? gs_div_ceil(m.count ? m.count : 1, w->r->expert)
                         : (m.count ? m.count : 1);
            bytes = gs_mul(value_bytes(module_format(w, &m), gs_mul(in, out, &w->ovf), &w->ovf),
                           experts, &w->ovf);
        } else {
            bytes = module_bytes(w, &m, b, plain);
        }
        if (g == n) {
            groups[n++] = (struct group){kind, m.part, m.in, bytes, instances};
        } else {
            groups[g].bytes = gs_add(groups[g].bytes, bytes, &w->ovf);
        }
    }
    uint64_t slack = 0;
    for (size_t g = 0; g < n; g++)
        slack = gs_add(slack, gs_mul(gs_torch_segment_rounding(groups[g].bytes),
                                     groups[g].instances, &w->ovf),
                       &w->ovf);
    return slack;
}

uint64_t gs_weights_segment_slack(const struct gs_arch *a, const struct gs_weights_request *r,
                                  const uint64_t counts[GS_BLOCKS_MAX], bool first_stage,
                                  bool last_stage, bool *overflow)
{
    struct weigh w = weigh_for(a, r);
    uint64_t slack = 0;
    for (size_t b = 0; b < a->block_count; b++)
        if (counts[b])
            slack = gs_add(slack, gs_mul(block_slack(&w, &a->blocks[b], false), counts[b], &w.ovf),
                           &w.ovf);
    for (size_t i = 0; first_stage && i < a->tower_count; i++) {
        const struct gs_tower *tw = &a->towers[i];
        if (tw->part == GS_PART_MTP || tw->block >= a->block_count)
            continue;
        const bool plain = tw->part == GS_PART_VISION || tw->part == GS_PART_AUDIO;
        slack = gs_add(slack, gs_mul(block_slack(&w, &a->blocks[tw->block], plain), tw->layers,
                                     &w.ovf),
                       &w.ovf);
    }
    const uint64_t p = r->pipeline ? r->pipeline : 1;
    for (size_t i = 0; i < a->module_count; i++) {
        const struct gs_module *m = &a->modules[i];
        const bool here = on_last_stage(m) ? last_stage : first_stage;
        /* with stages, a tied head is a copy of the embedding on the last stage */
        const bool tied_copy = p > 1 && last_stage && a->tie_word_embeddings && a->logits &&
                               (m->flags & GS_MOD_TOKENS);
        if (!here && !tied_copy)
            continue;
        struct gs_module one = *m;
        one.flags &= (uint8_t)~GS_MOD_BIAS;
        const uint64_t bytes = module_bytes(&w, &one, NULL, m->part == GS_PART_VISION ||
                                                                m->part == GS_PART_AUDIO);
        const uint64_t each = gs_torch_segment_rounding(bytes / (one.count ? one.count : 1));
        const uint64_t copies = (here ? 1 : 0) + (tied_copy ? 1 : 0);
        slack = gs_add(slack, gs_mul(gs_mul(each, one.count ? one.count : 1, &w.ovf), copies,
                                     &w.ovf),
                       &w.ovf);
    }
    if (w.ovf)
        *overflow = true;
    return slack;
}

/* Marlin's scales of one fp8 module on one rank against the checkpoint's:
 * adds the first to *marlin and the second to *stored. */
static void marlin_scales(struct weigh *w, const struct gs_module *m, const struct gs_block *b,
                          bool plain, uint64_t *marlin, uint64_t *stored)
{
    if (!in_format(w, m, plain) || (m->flags & GS_MOD_BUFFER))
        return;
    uint64_t in, out, count;
    module_on_rank(w->r, m, b, &in, &out, &count);
    const enum gs_weight_format f = module_format(w, m);
    /* block scales become group scales of 128 inputs by output column, other fp8 scales one
     * per column, in the model's 16-bit dtype */
    const uint64_t groups = f == GS_WF_FP8_BLOCK ? gs_div_ceil(in, 128) : 1;
    const uint64_t values = gs_mul(in, out, &w->ovf);
    *marlin = gs_add(*marlin, gs_mul(gs_mul(gs_mul(groups, out, &w->ovf), 2, &w->ovf), count,
                                     &w->ovf),
                     &w->ovf);
    *stored = gs_add(*stored, gs_mul(weights_as(f, values, in, out, w->g, &w->ovf) - values,
                                     count, &w->ovf),
                     &w->ovf);
}

uint64_t gs_weights_fp8_marlin_growth(const struct gs_arch *a, const struct gs_weights_request *r,
                                      const uint64_t counts[GS_BLOCKS_MAX], bool first_stage,
                                      bool last_stage, bool *overflow)
{
    if (!gs_weight_format_fp8(r->format))
        return 0;
    struct weigh w = weigh_for(a, r);
    uint64_t marlin = 0, stored = 0;
    for (size_t k = 0; k < a->block_count; k++) {
        uint64_t block_marlin = 0, block_stored = 0;
        const struct gs_block *b = &a->blocks[k];
        for (size_t i = 0; counts[k] && i < b->module_count; i++)
            marlin_scales(&w, &b->modules[i], b, false, &block_marlin, &block_stored);
        marlin = gs_add(marlin, gs_mul(block_marlin, counts[k], &w.ovf), &w.ovf);
        stored = gs_add(stored, gs_mul(block_stored, counts[k], &w.ovf), &w.ovf);
    }
    for (size_t i = 0; first_stage && i < a->tower_count; i++) {
        const struct gs_tower *tw = &a->towers[i];
        if (tw->part == GS_PART_MTP || tw->block >= a->block_count)
            continue;
        const bool plain = tw->part == GS_PART_VISION || tw->part == GS_PART_AUDIO;
        const struct gs_block *b = &a->blocks[tw->block];
        uint64_t tower_marlin = 0, tower_stored = 0;
        for (size_t m = 0; m < b->module_count; m++)
            marlin_scales(&w, &b->modules[m], b, plain, &tower_marlin, &tower_stored);
        marlin = gs_add(marlin, gs_mul(tower_marlin, tw->layers, &w.ovf), &w.ovf);
        stored = gs_add(stored, gs_mul(tower_stored, tw->layers, &w.ovf), &w.ovf);
    }
    for (size_t i = 0; i < a->module_count; i++) {
        const struct gs_module *m = &a->modules[i];
        if (on_last_stage(m) ? last_stage : first_stage)
            marlin_scales(&w, m, NULL, m->part == GS_PART_VISION || m->part == GS_PART_AUDIO,
                          &marlin, &stored);
    }
    if (w.ovf)
        *overflow = true;
    return marlin > stored ? marlin - stored : 0;
}

uint64_t gs_weights_kv_slot_bytes(const struct gs_arch *a, const struct gs_weights_request *r,
                                  const uint64_t counts[GS_BLOCKS_MAX], bool shared_projections,
                                  bool *overflow)
{
    struct weigh w = weigh_for(a, r);
    uint64_t sum = 0;
    for (size_t k = 0; k < a->block_count; k++) {
        const struct gs_block *b = &a->blocks[k];
        if (counts[k] == 0 || b->mixer != GS_MIXER_ATTENTION)
            continue;
        /* the block whose K/V weights the layer holds: its own, or, described without them,
         * those of the layer it reads, all of them counted here */
        const struct gs_block *own = gs_block_holds_kv_own(b) ? b
                                     : b->attn.kv_shared      ? gs_arch_kv_source(a, b)
                                                              : NULL;
        if (own == NULL)
            continue;
        uint64_t slots = 0;
        const struct gs_module *only = NULL;
        size_t projections = 0;
        for (size_t i = 0; i < own->module_count; i++) {
            const struct gs_module *m = &own->modules[i];
            if (!(m->flags & GS_MOD_KV_OWN))
                continue;
            const bool projection = m->kind == GS_MODULE_LINEAR;
            if (own != b && (shared_projections || !projection))
                slots = gs_add(slots, module_bytes(&w, m, own, false), &w.ovf);
            if (projection) {
                only = m;
                projections++;
            }
        }
        /* keys that are the values: one K/V projection, whose copy fills the V slot (not in a
         * shared layer built without projections of its own) */
        if (projections == 1 && (own == b || shared_projections))
            slots = gs_add(slots, module_bytes(&w, only, own, false), &w.ovf);
        sum = gs_add(sum, gs_mul(slots, counts[k], &w.ovf), &w.ovf);
    }
    if (w.ovf)
        *overflow = true;
    return sum;
}

uint64_t gs_weights_router_fp32_growth(const struct gs_arch *a, const struct gs_weights_request *r,
                                       const uint64_t counts[GS_BLOCKS_MAX], bool *overflow)
{
    struct weigh w = weigh_for(a, r);
    uint64_t sum = 0;
    for (size_t k = 0; k < a->block_count; k++) {
        const struct gs_block *b = &a->blocks[k];
        if (counts[k] == 0 || !b->mlp.experts)
            continue;
        for (size_t i = 0; i < b->module_count; i++) {
            const struct gs_module *m = &b->modules[i];
            if (!gs_module_is_router(b, m) || (m->flags & GS_MOD_BUFFER))
                continue;
            uint64_t in, out, count;
            (void)module_on_rank(r, m, b, &in, &out, &count);
            const uint64_t fp32 = gs_mul(gs_mul(gs_mul(in, out, &w.ovf), count, &w.ovf), 4, &w.ovf);
            const uint64_t weighed = module_bytes(&w, m, b, false);
            if (fp32 > weighed)
                sum = gs_add(sum, gs_mul(fp32 - weighed, counts[k], &w.ovf), &w.ovf);
        }
    }
    if (w.ovf)
        *overflow = true;
    return sum;
}

bool gs_weights_has_host_tables(const struct gs_arch *a)
{
    for (size_t k = 0; a != NULL && k < a->block_count; k++)
        if (gs_block_has_host_table(&a->blocks[k]))
            return true;
    return false;
}

uint64_t gs_weights_host_table_bytes(const struct gs_arch *a, const struct gs_weights_request *r,
                                     bool *overflow)
{
    struct gs_weights_request on_gpu = *r;
    on_gpu.host_tables = false;
    struct weigh w = weigh_for(a, &on_gpu);
    uint64_t counts[GS_BLOCKS_MAX];
    gs_arch_count_weight_blocks(a, 0, a->num_hidden_layers, counts);
    uint64_t sum = 0;
    for (size_t k = 0; k < a->block_count; k++) {
        const struct gs_block *b = &a->blocks[k];
        for (size_t i = 0; counts[k] && i < b->module_count; i++)
            if (b->modules[i].flags & GS_MOD_HOST_TABLE)
                sum = gs_add(sum,
                             gs_mul(module_bytes(&w, &b->modules[i], b, false), counts[k], &w.ovf),
                             &w.ovf);
    }
    if (w.ovf)
        *overflow = true;
    return sum;
}

enum gs_status gs_weights_layers_bytes(const struct gs_arch *a, const struct gs_weights_request *r,
                                       uint64_t *out, struct gs_error *err)
{
    struct weigh w = weigh_for(a, r);
    uint64_t counts[GS_BLOCKS_MAX];
    gs_arch_count_weight_blocks(a, 0, a->num_hidden_layers, counts);
    uint64_t sum = 0;
    for (size_t b = 0; b < a->block_count; b++)
        if (counts[b])
            sum = gs_add(sum, gs_mul(block_bytes(&w, &a->blocks[b], false), counts[b], &w.ovf),
                         &w.ovf);
    for (size_t i = 0; i < a->module_count; i++)
        if (a->modules[i].part == GS_PART_NORMS)
            sum = gs_add(sum, module_bytes(&w, &a->modules[i], NULL, false), &w.ovf);
    if (w.ovf)
        return gs_error_add(err, GS_ERR_RANGE, "", "the weight bytes overflow 64 bits");
    *out = sum;
    return GS_OK;
}

enum gs_status gs_weights_eagle_bytes(const struct gs_arch *a, bool eagle3, uint64_t target_hidden,
                                      uint64_t head_vocab, uint64_t map_element,
                                      const struct gs_weights_request *r, uint64_t *out,
                                      struct gs_error *err)
{
    uint64_t bytes = 0;
    enum gs_status st = gs_weights_layers_bytes(a, r, &bytes, err);
    if (st != GS_OK)
        return st;
    bool ovf = false;
    const uint64_t t = r->tensor ? r->tensor : 1;
    const uint64_t h = a->hidden_size;
    const uint64_t from = target_hidden ? target_hidden : h;
    /* fc: nn.Linear(2h, h) (EAGLE), ReplicatedLinear(3 x target hidden, h) (EAGLE-3) */
    const uint64_t fc = eagle3 ? gs_mul(3 * from, h, &ovf) : gs_mul(2 * h, h, &ovf);
    bytes = gs_add(bytes, gs_mul(fc, 2, &ovf), &ovf);
    if (eagle3) {
        /* the first layer's q/k/v read 2 x hidden: h more inputs per output column */
        const struct gs_attention *s = NULL;
        for (size_t k = 0; k < a->block_count && s == NULL; k++)
            if (a->blocks[k].mixer == GS_MIXER_ATTENTION)
                s = &a->blocks[k].attn;
        if (s != NULL) {
            const uint64_t cols = gs_div_ceil(s->heads * s->head_dim, t) +
                                  2 * gs_div_ceil(s->kv_heads * s->head_dim, t);
            bytes = gs_add(bytes, gs_mul(gs_mul(cols, h, &ovf), 2, &ovf), &ovf);
        }
        bytes = gs_add(bytes, gs_mul(h, 2, &ovf), &ovf); /* hidden_norm */
    }
    if (head_vocab) {
        /* ParallelLMHead(draft_vocab_size, hidden) and the draft-to-target id map (d2t) */
        bytes = gs_add(bytes, gs_mul(gs_mul(gs_div_ceil(head_vocab, t), h, &ovf), 2, &ovf), &ovf);
        bytes = gs_add(bytes, gs_mul(head_vocab, map_element, &ovf), &ovf);
    }
    if (ovf)
        return gs_error_add(err, GS_ERR_RANGE, "", "the weight bytes overflow 64 bits");
    *out = bytes;
    return GS_OK;
}

uint64_t gs_weights_mtp_layers(const struct gs_arch *a)
{
    uint64_t layers = 0;
    for (size_t i = 0; i < a->tower_count; i++)
        if (a->towers[i].part == GS_PART_MTP && a->towers[i].block < a->block_count)
            layers += a->towers[i].layers;
    return layers;
}

uint64_t gs_weights_mtp_window(const struct gs_arch *a)
{
    for (size_t i = 0; i < a->tower_count; i++) {
        const struct gs_tower *tw = &a->towers[i];
        if (tw->part != GS_PART_MTP || tw->block >= a->block_count)
            continue;
        const struct gs_attention *s = &a->blocks[tw->block].attn;
        return s->span == GS_SPAN_SLIDING ? s->window : 0;
    }
    return 0;
}

enum gs_status gs_weights_mtp_bytes(const struct gs_arch *a, const struct gs_weights_request *r,
                                    bool own_head, uint64_t *out, struct gs_error *err)
{
    struct weigh w = weigh_for(a, r);
    /* served as stored, the layers the checkpoint's ignore list keeps whole stay at its dtype
     * (ModelOpt's is_layer_excluded gives them the unquantized method) */
    const uint8_t kept = w.unquantized_mtp_layers;
    uint64_t sum = 0, index = 0; /* the first layer of each tower among all MTP layers */
    for (size_t i = 0; i < a->tower_count; i++) {
        const struct gs_tower *tw = &a->towers[i];
        if (tw->part != GS_PART_MTP || tw->block >= a->block_count)
            continue;
        const struct gs_block *b = &a->blocks[tw->block];
        uint64_t layer[2] = {0, 0}; /* as the format stores it, and kept at the dtype */
        for (size_t k = 0; k < b->module_count; k++) {
            const struct gs_module *m = &b->modules[k];
            if (m->part == GS_PART_EMBEDDING || (m->part == GS_PART_LM_HEAD && !own_head))
                continue;
            for (int plain = 0; plain < 2; plain++)
                layer[plain] = gs_add(layer[plain], module_bytes(&w, m, b, plain), &w.ovf);
        }
        uint64_t whole = 0; /* of this tower's layers index .. index + layers - 1 */
        for (uint64_t l = index; l < 8 && l < index + tw->layers; l++)
            whole += (kept >> l) & 1u;
        if (kept == UINT8_MAX)
            whole = tw->layers;
        index += tw->layers;
        sum = gs_add(sum, gs_mul(layer[0], tw->layers - whole, &w.ovf), &w.ovf);
        sum = gs_add(sum, gs_mul(layer[1], whole, &w.ovf), &w.ovf);
    }
    if (w.ovf)
        return gs_error_add(err, GS_ERR_RANGE, "", "the weight bytes overflow 64 bits");
    *out = sum;
    return GS_OK;
}

enum gs_status gs_weights_bytes(const struct gs_arch *a, const struct gs_param_count *c,
                                const struct gs_weights_request *r, uint64_t *out,
                                struct gs_error *err)
{
    (void)c;
    return weights_on(a, r, UINT64_MAX, out, NULL, err);
}

enum gs_status gs_weights_bytes_stage(const struct gs_arch *a, const struct gs_weights_request *r,
                                      uint64_t stage, uint64_t *out, struct gs_error *err)
{
    return weights_on(a, r, stage, out, NULL, err);
}

static bool same_request(const struct gs_weights_request *a, const struct gs_weights_request *b)
{
    return a->format == b->format && a->group_size == b->group_size && a->tensor == b->tensor &&
           a->pipeline == b->pipeline && a->experts_only == b->experts_only &&
           a->expert == b->expert && a->host_tables == b->host_tables &&
           gs_stage_plan_same(&a->stages, &b->stages);
}

enum gs_status gs_weights_bytes_memo(const struct gs_arch *a, const struct gs_weights_request *r,
                                     struct gs_weights_memo *memo, uint64_t *most, uint64_t *each,
                                     struct gs_error *err)
{
    const uint64_t p = r->pipeline ? r->pipeline : 1;
    if (memo == NULL)
        return weights_on(a, r, UINT64_MAX, most, each, err);
    for (unsigned i = 0; i < memo->count; i++) {
        const struct gs_weights_memo_entry *e = &memo->entries[i];
        if (!same_request(&e->request, r) || (each != NULL && !e->has_stages))
            continue;
        *most = e->most;
        if (each != NULL)
            memcpy(each, e->stages, p * sizeof(*each));
        return GS_OK;
    }
    /* every stage is weighed in the same pass as the most loaded one: keep them all */
    uint64_t stages[GS_WEIGHTS_MEMO_STAGES];
    const bool keep_stages = p <= GS_WEIGHTS_MEMO_STAGES;
    enum gs_status st = weights_on(a, r, UINT64_MAX, most, keep_stages ? stages : each, err);
    if (st != GS_OK)
        return st;
    if (each != NULL && keep_stages)
        memcpy(each, stages, p * sizeof(*each));
    struct gs_weights_memo_entry *e;
    if (memo->count < GS_WEIGHTS_MEMO_ENTRIES) {
        e = &memo->entries[memo->count++];
    } else {
        e = &memo->entries[memo->next];
        memo->next = (memo->next + 1) % GS_WEIGHTS_MEMO_ENTRIES;
    }
    e->request = *r;
    e->most = *most;
    e->has_stages = keep_stages;
    if (keep_stages)
        memcpy(e->stages, stages, p * sizeof(*stages));
    return GS_OK;
}

uint64_t gs_weights_bytes_raw(uint64_t parameters, const struct gs_weights_request *r,
                              bool *ovf)
{
    const uint64_t t = r->tensor ? r->tensor : 1, p = r->pipeline ? r->pipeline : 1;
    const uint64_t per_gpu = ceil_div(parameters, gs_mul(t, p, ovf));
    const uint64_t g = r->group_size ? r->group_size : 128;
    if (gguf_millibits(r->format))
        return other_bytes(r->format, per_gpu, ovf);
    /* every parameter in the format; scales counted as if rows were 4096 wide */
    return weights_as(r->format, per_gpu, 4096, ceil_div(per_gpu, 4096), g, ovf);
}
