/*
 * activation.c - activation bytes per GPU (see gs/activation.h for the
 * model and estimation.md §3 for the sources of every term).
 */
#include "gs/activation.h"

#include "gs/units.h"

#include <string.h>

struct acc {
    bool ovf;
};

static uint64_t mul(struct acc *a, uint64_t x, uint64_t y)
{
    return gs_mul(x, y, &a->ovf);
}

static uint64_t add(struct acc *a, uint64_t x, uint64_t y)
{
    return gs_add(x, y, &a->ovf);
}

static uint64_t div_ceil(uint64_t n, uint64_t d)
{
    return gs_div_ceil(n, d ? d : 1);
}

/* Saved MLP tensors for `tokens` tokens of width `width`: gated eager
 * (gate out, up out, act out, down input) 4 elements, plain (act input,
 * fc2 input) 2 elements (estimation.md 3.2). */
static uint64_t mlp_terms(struct acc *c, bool is_gated, uint64_t tokens, uint64_t width, uint64_t e)
{
    return mul(c, mul(c, mul(c, is_gated ? 4 : 2, e), tokens), width);
}

/* Widths of what attention saves per token: Q and the out-projection input
 * (q_width each), K and V (k_width, v_width). */
static void attention_widths(const struct gs_arch *a, uint64_t *q, uint64_t *k, uint64_t *v,
                             uint64_t *o)
{
    if (gs_family_uses_mla(a->family)) {
        const uint64_t qk = a->qk_nope_head_dim + a->qk_rope_head_dim;
        *q = *k = a->num_attention_heads * qk;
        *v = *o = a->num_attention_heads * a->v_head_dim;
        return;
    }
    uint64_t kvh = gs_family_has_kv_heads(a->family) ? a->num_key_value_heads
                                                     : a->num_attention_heads;
    if (a->family == GS_FAMILY_FALCON && !a->new_decoder_architecture) /* old Falcon: MQA or MHA */
        kvh = a->multi_query ? 1 : a->num_attention_heads;
    *q = *o = a->num_attention_heads * a->head_dim;
    *k = *v = kvh * a->head_dim;
}

/* One layer's stored activations for one micro-batch on one GPU (no
 * recomputation), split into the parts tensor and sequence parallelism
 * divide. `cross` adds a decoder's cross-attention block. */
struct layer_parts {
    uint64_t replicated;  /* divided by t only with sequence parallelism */
    uint64_t partitioned; /* divided by t */
    uint64_t core;        /* attention core, dropped by selective recomputation; divided by t */
};

static struct layer_parts layer(struct acc *c, const struct gs_activation_input *in, bool cross)
{
    const struct gs_arch *a = in->arch;
    const uint64_t e = in->element_bytes, h = a->hidden_size;
    const uint64_t s = div_ceil(in->sequence_length, in->parallelism->context);
    const uint64_t tokens = mul(c, s, in->batch_size);
    const uint64_t sbh = mul(c, tokens, h);
    uint64_t q, k, v, o;
    attention_widths(a, &q, &k, &v, &o);
    struct layer_parts p = {0, 0, 0};
    const uint64_t norms = a->family == GS_FAMILY_GEMMA2 ? 4 : 2;
    /* norm inputs, the QKV GEMM input and the MLP input */
    p.replicated = mul(c, mul(c, norms + 2, e), sbh);
    if (a->hidden_dropout) /* 1-byte masks after attention and after the MLP */
        p.replicated = add(c, p.replicated, mul(c, 2, sbh));
    p.partitioned = mul(c, mul(c, e, tokens), q + k + v + o);

    const bool moe = gs_family_is_moe(a->family) && a->num_experts > 0;
    if (moe) {
        const uint64_t width = a->family == GS_FAMILY_MIXTRAL ? a->intermediate_size
                                                              : a->moe_intermediate_size;
        /* each token goes through top-k experts, plus its copies in the dispatch buffer */
        p.partitioned = add(c, p.partitioned,
                            mul(c, a->num_experts_per_tok, mlp_terms(c, true, tokens, width, e)));
        p.partitioned = add(c, p.partitioned, mul(c, mul(c, a->num_experts_per_tok, e), sbh));
        uint64_t shared = a->shared_expert_intermediate_size;
        if (a->n_shared_experts)
            shared = a->n_shared_experts * a->moe_intermediate_size;
        if (shared)
            p.partitioned = add(c, p.partitioned, mlp_terms(c, true, tokens, shared, e));
    } else {
        const uint64_t width = a->family == GS_FAMILY_BLOOM ? 4 * h : a->intermediate_size;
        p.partitioned = add(c, p.partitioned, mlp_terms(c, gs_arch_gated_mlp(a), tokens, width, e));
    }

    const uint64_t heads = a->num_attention_heads;
    if (in->flash_attention) {
        p.core = mul(c, mul(c, 4, heads), tokens); /* fp32 softmax_lse */
    } else {
        /* softmax output a*s_q*s_k*b; with attention dropout a 1-byte mask and the dropout output */
        const uint64_t scores = mul(c, mul(c, heads, tokens), in->sequence_length);
        p.core = mul(c, e, scores);
        if (a->attention_dropout)
            p.core = add(c, p.core, mul(c, e + 1, scores));
    }
    if (cross) { /* a second attention block (its own Q/K/V/O, norm and core) */
        p.partitioned = add(c, p.partitioned, mul(c, mul(c, e, tokens), q + k + v + o));
        p.replicated = add(c, p.replicated, mul(c, e, sbh));
        p.core = mul(c, 2, p.core);
    }
    return p;
}

/* Stored bytes of one layer under the recomputation mode; `working` gets
 * the full (unrecomputed) size, which full recomputation needs once. */
static uint64_t stored(struct acc *c, const struct gs_activation_input *in, struct layer_parts p,
                       uint64_t *working)
{
    const struct gs_parallelism *par = in->parallelism;
    const uint64_t t = par->tensor;
    const uint64_t replicated = par->sequence_parallel ? div_ceil(p.replicated, t) : p.replicated;
    const uint64_t partitioned = div_ceil(p.partitioned, t), core = div_ceil(p.core, t);
    *working = add(c, add(c, replicated, partitioned), core);
    switch (in->recompute) {
    case GS_RECOMPUTE_SELECTIVE:
        return add(c, replicated, partitioned);
    case GS_RECOMPUTE_FULL: {
        /* the layer input only (the checkpoint) */
        const uint64_t s = div_ceil(in->sequence_length, par->context);
        const uint64_t input = mul(c, mul(c, mul(c, s, in->batch_size), in->arch->hidden_size),
                                   in->element_bytes);
        return par->sequence_parallel ? div_ceil(input, t) : input;
    }
    case GS_RECOMPUTE_NONE:
        break;
    }
    return *working;
}

static bool has_logits(const struct gs_arch *a)
{
    return a->family != GS_FAMILY_BERT;
}

bool gs_activation_bytes(const struct gs_activation_input *in, struct gs_activation_result *out)
{
    struct acc c = {false};
    const struct gs_arch *a = in->arch;
    const struct gs_parallelism *par = in->parallelism;
    const uint64_t p = par->pipeline ? par->pipeline : 1;
    const uint64_t m = in->micro_batches ? in->micro_batches : 1;
    const uint64_t in_flight = m < p ? m : p;
    const uint64_t s = div_ceil(in->sequence_length, par->context);
    const uint64_t tokens = mul(&c, s, in->batch_size);

    uint64_t working = 0, working_dec = 0;
    const uint64_t enc_layer = stored(&c, in, layer(&c, in, false), &working);
    /* layers on one pipeline stage; T5's decoder layers add cross-attention */
    uint64_t per_stage = mul(&c, enc_layer, div_ceil(a->num_hidden_layers, p));
    if (a->family == GS_FAMILY_T5) {
        const uint64_t dec = a->num_decoder_layers ? a->num_decoder_layers : a->num_hidden_layers;
        const uint64_t dec_layer = stored(&c, in, layer(&c, in, true), &working_dec);
        per_stage = add(&c, per_stage, mul(&c, dec_layer, div_ceil(dec, p)));
        if (working_dec > working)
            working = working_dec;
    }
    /* token ids (int64) and, with embedding dropout, its 1-byte mask */
    uint64_t embedding_in = mul(&c, 8, tokens);
    if (a->hidden_dropout)
        embedding_in = add(&c, embedding_in, mul(&c, tokens, a->hidden_size));

    out->per_layer_bytes = enc_layer;
    out->first_stage_bytes = mul(&c, add(&c, per_stage, embedding_in), in_flight);
    if (in->recompute == GS_RECOMPUTE_FULL)
        out->first_stage_bytes = add(&c, out->first_stage_bytes, working);

    /* logits: 16-bit (or fp32) output, HF's fp32 upcast, and the fp32
     * gradient of the loss, over a vocabulary split by tensor parallelism */
    out->logits_bytes = 0;
    if (has_logits(a))
        out->logits_bytes = div_ceil(mul(&c, mul(&c, tokens, a->vocab_size), in->element_bytes + 8),
                                     par->tensor);
    out->last_stage_bytes = add(&c, per_stage, out->logits_bytes);
    if (in->recompute == GS_RECOMPUTE_FULL)
        out->last_stage_bytes = add(&c, out->last_stage_bytes, working);
    if (p == 1) /* one stage holds both */
        out->total_bytes = add(&c, out->first_stage_bytes, out->logits_bytes);
    else
        out->total_bytes = out->first_stage_bytes > out->last_stage_bytes ? out->first_stage_bytes
                                                                          : out->last_stage_bytes;
    return !c.ovf;
}
