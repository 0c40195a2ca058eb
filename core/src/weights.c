/*
 * weights.c - bytes of weights per GPU by storage format (see gs/weights.h;
 * tensor layouts from estimation.md 4.1: vLLM's GPTQ/AWQ create_weights,
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

/* GGUF files mix block types per tensor; these are whole-file rates in
 * thousandths of a bit per parameter: Q4_0 and Q8_0 block sizes (18 and 34
 * bytes per 32), Q4_K_M/Q5_K_M/Q6_K from llama.cpp quantize.cpp's sizes for
 * Llama-3-8B (estimation.md 4.1, [D]). Q8_0's block rate is 8.5; the file
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

/* One kind of linear layer: shape on one GPU, and how many per model. */
struct shape {
    uint64_t in, out;   /* after tensor-parallel splitting */
    uint64_t per_layer; /* instances in a layer that has it */
    uint64_t layers;    /* layers that have it */
};

struct shapes {
    struct shape s[16];
    size_t n;
};

static void push(struct shapes *list, uint64_t in, uint64_t out, uint64_t per_layer,
                 uint64_t layers)
{
    if (list->n < sizeof(list->s) / sizeof(list->s[0]) && per_layer && layers)
        list->s[list->n++] = (struct shape){in, out, per_layer, layers};
}

/* Column-parallel splits the output, row-parallel the input. */
static uint64_t split(uint64_t dim, uint64_t t)
{
    return gs_div_ceil(dim, t);
}

/* Linear layers of the families whose module shapes gpusizer knows; false
 * for the others (their linears are then taken as hidden_size-wide). */
static bool known_shapes(const struct gs_arch *a, uint64_t t, struct shapes *out)
{
    const uint64_t h = a->hidden_size, L = a->num_hidden_layers;
    const uint64_t moe = gs_arch_moe_layers(a), dense = L - moe;
    if (!gs_family_has_kv_heads(a->family) && !gs_family_uses_mla(a->family))
        return false;
    if (a->family == GS_FAMILY_FALCON)
        return false;
    if (gs_family_uses_mla(a->family)) {
        const uint64_t heads = a->num_attention_heads;
        const uint64_t qk = a->qk_nope_head_dim + a->qk_rope_head_dim;
        if (a->q_lora_rank) {
            push(out, h, a->q_lora_rank, 1, L); /* replicated */
            push(out, a->q_lora_rank, split(heads * qk, t), 1, L);
        } else {
            push(out, h, split(heads * qk, t), 1, L);
        }
        push(out, h, a->kv_lora_rank + a->qk_rope_head_dim, 1, L); /* replicated */
        push(out, a->kv_lora_rank, split(heads * (a->qk_nope_head_dim + a->v_head_dim), t), 1, L);
        push(out, split(heads * a->v_head_dim, t), h, 1, L);
    } else {
        const uint64_t q = a->num_attention_heads * a->head_dim;
        const uint64_t kv_heads = a->num_key_value_heads >= t ? a->num_key_value_heads / t : 1;
        push(out, h, split(q, t), 1, L);                   /* q_proj */
        push(out, h, kv_heads * a->head_dim, 2, L);        /* k_proj, v_proj (replicated past k) */
        push(out, split(q, t), h, 1, L);                   /* o_proj */
    }
    push(out, h, split(a->intermediate_size, t), 2, dense); /* gate, up */
    push(out, split(a->intermediate_size, t), h, 1, dense); /* down */
    if (moe) {
        const uint64_t w = a->family == GS_FAMILY_MIXTRAL ? a->intermediate_size
                                                          : a->moe_intermediate_size;
        push(out, h, split(w, t), 2 * a->num_experts, moe);
        push(out, split(w, t), h, a->num_experts, moe);
        uint64_t shared = a->shared_expert_intermediate_size;
        if (a->n_shared_experts)
            shared = a->n_shared_experts * w;
        push(out, h, split(shared, t), 2, moe);
        push(out, split(shared, t), h, 1, moe);
    }
    return true;
}

static uint64_t ceil_div(uint64_t n, uint64_t d)
{
    return gs_div_ceil(n, d ? d : 1);
}

enum gs_status gs_weights_bytes(const struct gs_arch *a, const struct gs_param_count *c,
                                const struct gs_weights_request *r, uint64_t *out,
                                struct gs_error *err)
{
    bool ovf = false;
    const uint64_t t = r->tensor ? r->tensor : 1, p = r->pipeline ? r->pipeline : 1;
    const uint64_t g = r->group_size ? r->group_size : 128;
    struct shapes list = {.n = 0};
    uint64_t linear_total = 0; /* whole-model linear parameters, for the 16-bit remainder */
    uint64_t linear_gpu = 0;   /* bytes on one GPU */
    if (known_shapes(a, t, &list)) {
        for (size_t i = 0; i < list.n; i++) {
            const struct shape *s = &list.s[i];
            if (gs_weight_format_grouped(r->format) && t > 1 && s->in % g != 0)
                return gs_error_add(err, GS_ERR_INVALID, "/parallelism/tensor",
                                    "tensor parallelism %llu splits a layer's %llu-wide input "
                                    "into slices that are not a multiple of the group size %llu",
                                    (unsigned long long)t, (unsigned long long)(s->in * t),
                                    (unsigned long long)g);
            const uint64_t layers = ceil_div(s->layers, p);
            linear_gpu = gs_add(linear_gpu,
                                gs_mul(gs_mul(linear_bytes(r->format, s->in, s->out, g, &ovf),
                                              s->per_layer, &ovf),
                                       layers, &ovf),
                                &ovf);
        }
        struct shapes whole = {.n = 0};
        known_shapes(a, 1, &whole);
        for (size_t i = 0; i < whole.n; i++)
            linear_total = gs_add(linear_total,
                                  gs_mul(gs_mul(gs_mul(whole.s[i].in, whole.s[i].out, &ovf),
                                                whole.s[i].per_layer, &ovf),
                                         whole.s[i].layers, &ovf),
                                  &ovf);
    } else {
        /* unknown module shapes: linears taken as hidden_size-wide matrices */
        linear_total = gs_add(gs_add(c->attention, c->mlp, &ovf), c->experts, &ovf);
        const uint64_t per_gpu = ceil_div(ceil_div(linear_total, t), p);
        linear_gpu = weights_as(r->format, per_gpu, a->hidden_size, ceil_div(per_gpu, a->hidden_size), g,
                                  &ovf);
    }
    /* the rest stays unquantized: embedding on the first stage, head on the
     * last, norms/biases/routers spread with the layers */
    const uint64_t rest = c->total - (linear_total < c->total ? linear_total : c->total);
    const uint64_t ends = gs_add(c->embedding, c->lm_head, &ovf);
    const uint64_t layered_rest = rest > ends ? rest - ends : 0;
    uint64_t stage_rest = ceil_div(layered_rest, p);
    if (p == 1)
        stage_rest = gs_add(stage_rest, ceil_div(ends, t), &ovf);
    else
        stage_rest = gs_add(stage_rest,
                            ceil_div(c->embedding > c->lm_head ? c->embedding : c->lm_head, t),
                            &ovf);
    *out = gs_add(linear_gpu, other_bytes(r->format, stage_rest, &ovf), &ovf);
    if (ovf)
        return gs_error_add(err, GS_ERR_RANGE, "", "the weight bytes overflow 64 bits");
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
