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

/* Widths of what the token mixer saves per token: Q and the out-projection
 * input, K and V; a recurrent mixer (Mamba, Gated DeltaNet) saves its
 * in_proj output, the conv output and the gated output out_proj reads. */
static void mixer_widths(const struct gs_block *b, uint64_t *q, uint64_t *k, uint64_t *v,
                         uint64_t *o)
{
    const struct gs_attention *s = &b->attn;
    *q = *k = *v = *o = 0;
    switch ((enum gs_mixer)b->mixer) {
    case GS_MIXER_MLA: {
        const uint64_t qk = s->qk_nope_head_dim + s->qk_rope_head_dim;
        *q = *k = s->heads * qk;
        *v = *o = s->heads * s->v_head_dim;
        return;
    }
    case GS_MIXER_ATTENTION:
        *q = s->heads * s->head_dim;
        *o = s->heads * s->v_head_dim;
        *k = s->kv_heads * s->head_dim;
        *v = s->kv_heads * s->v_head_dim;
        /* a parallel hybrid (Falcon-H1) also runs a recurrent mixer beside attention */
        *q += b->rec.in_width;
        *k += b->rec.conv_channels;
        *v += b->rec.inner;
        *o += b->rec.inner;
        return;
    case GS_MIXER_RECURRENT:
        *q = b->rec.in_width;
        *k = b->rec.conv_channels;
        *v = *o = b->rec.inner;
        return;
    case GS_MIXER_NONE:
        break;
    }
}

/* Norms over the hidden width in a block: their inputs are saved. */
static uint64_t hidden_norms(const struct gs_block *b, uint64_t h)
{
    uint64_t n = 0;
    for (size_t i = 0; i < b->module_count; i++)
        if (b->modules[i].kind == GS_MODULE_NORM && b->modules[i].part == GS_PART_NORMS &&
            b->modules[i].out == h)
            n += b->modules[i].count ? b->modules[i].count : 1;
    return n;
}

/* One layer's stored activations for one micro-batch on one GPU (no
 * recomputation), split into the parts tensor and sequence parallelism
 * divide. A layer with cross-attention adds a second attention block. */
struct layer_parts {
    uint64_t replicated;  /* divided by t only with sequence parallelism */
    uint64_t partitioned; /* divided by t */
    uint64_t core;        /* attention core, dropped by selective recomputation; divided by t */
};

static struct layer_parts layer(struct acc *c, const struct gs_activation_input *in,
                                const struct gs_block *b)
{
    const struct gs_arch *a = in->arch;
    const uint64_t e = in->element_bytes, h = a->hidden_size;
    const uint64_t s = div_ceil(in->sequence_length, in->parallelism->context);
    const uint64_t tokens = mul(c, s, in->batch_size);
    const uint64_t sbh = mul(c, tokens, h);
    uint64_t q, k, v, o;
    mixer_widths(b, &q, &k, &v, &o);
    struct layer_parts p = {0, 0, 0};
    /* norm inputs, the mixer's input GEMM and the MLP input */
    p.replicated = mul(c, mul(c, hidden_norms(b, h) + 2, e), sbh);
    if (a->hidden_dropout) /* 1-byte masks after attention and after the MLP */
        p.replicated = add(c, p.replicated, mul(c, 2, sbh));
    p.partitioned = mul(c, mul(c, e, tokens), q + k + v + o);

    if (b->mlp.kind == GS_MLP_MOE) {
        /* each token goes through top-k experts, plus its copies in the dispatch buffer */
        p.partitioned = add(c, p.partitioned,
                            mul(c, b->mlp.top_k, mlp_terms(c, b->mlp.gated, tokens, b->mlp.width, e)));
        p.partitioned = add(c, p.partitioned, mul(c, mul(c, b->mlp.top_k, e), sbh));
        if (b->mlp.shared_width)
            p.partitioned = add(c, p.partitioned,
                                mlp_terms(c, true, tokens, b->mlp.shared_width, e));
    } else if (b->mlp.kind == GS_MLP_DENSE) {
        p.partitioned = add(c, p.partitioned, mlp_terms(c, b->mlp.gated, tokens, b->mlp.width, e));
    }

    if (b->mixer == GS_MIXER_ATTENTION || b->mixer == GS_MIXER_MLA) {
        const uint64_t heads = b->attn.heads;
        if (in->flash_attention) {
            p.core = mul(c, mul(c, 4, heads), tokens); /* fp32 softmax_lse */
        } else {
            /* softmax output a*s_q*s_k*b; with attention dropout a 1-byte mask and the dropout
             * output */
            const uint64_t scores = mul(c, mul(c, heads, tokens), in->sequence_length);
            p.core = mul(c, e, scores);
            if (a->attention_dropout)
                p.core = add(c, p.core, mul(c, e + 1, scores));
        }
    }
    if (b->attn.cross && !b->attn.cross_only) { /* a second attention block (its own Q/K/V/O
                                                   and core; its norm among the block's norms) */
        p.partitioned = add(c, p.partitioned, mul(c, mul(c, e, tokens), q + k + v + o));
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

/* Stored bytes of `layers` layers of each block, and the largest single
 * layer's working set. */
static uint64_t blocks_stored(struct acc *c, const struct gs_activation_input *in,
                              const uint64_t counts[GS_BLOCKS_MAX], uint64_t *working,
                              uint64_t *first_layer)
{
    const struct gs_arch *a = in->arch;
    uint64_t sum = 0;
    for (size_t k = 0; k < a->block_count; k++) {
        if (counts[k] == 0)
            continue;
        uint64_t w = 0;
        const uint64_t one = stored(c, in, layer(c, in, &a->blocks[k]), &w);
        if (*first_layer == 0)
            *first_layer = one;
        if (w > *working)
            *working = w;
        sum = add(c, sum, mul(c, one, counts[k]));
    }
    return sum;
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

    /* the layers of the most loaded stage (the first holds the most micro-batches, so the
     * first stage's layers); encoder towers run on the first stage too */
    uint64_t working = 0, per_layer = 0, first, end, counts[GS_BLOCKS_MAX];
    gs_arch_stage(a, p, 0, &first, &end);
    gs_arch_count_blocks(a, first, end, counts);
    uint64_t per_stage = blocks_stored(&c, in, counts, &working, &per_layer);
    uint64_t last_stage = per_stage;
    if (p > 1) {
        uint64_t w2 = 0, unused = 0;
        gs_arch_stage(a, p, p - 1, &first, &end);
        gs_arch_count_blocks(a, first, end, counts);
        last_stage = blocks_stored(&c, in, counts, &w2, &unused);
        if (w2 > working)
            working = w2;
    }
    for (size_t i = 0; i < a->tower_count; i++) {
        const struct gs_tower *tw = &a->towers[i];
        if (!tw->encoder || tw->block >= a->block_count)
            continue;
        uint64_t tower_counts[GS_BLOCKS_MAX] = {0};
        tower_counts[tw->block] = div_ceil(tw->layers, p);
        per_stage = add(&c, per_stage, blocks_stored(&c, in, tower_counts, &working, &per_layer));
    }
    /* token ids (int64) and, with embedding dropout, its 1-byte mask */
    uint64_t embedding_in = mul(&c, 8, tokens);
    if (a->hidden_dropout)
        embedding_in = add(&c, embedding_in, mul(&c, tokens, a->hidden_size));

    out->per_layer_bytes = per_layer;
    out->first_stage_bytes = mul(&c, add(&c, per_stage, embedding_in), in_flight);
    if (in->recompute == GS_RECOMPUTE_FULL)
        out->first_stage_bytes = add(&c, out->first_stage_bytes, working);

    /* logits: 16-bit (or fp32) output, HF's fp32 upcast, and the fp32
     * gradient of the loss, over a vocabulary split by tensor parallelism */
    out->logits_bytes = 0;
    if (a->logits)
        out->logits_bytes = div_ceil(mul(&c, mul(&c, tokens, a->vocab_size), in->element_bytes + 8),
                                     par->tensor);
    out->last_stage_bytes = add(&c, p > 1 ? last_stage : per_stage, out->logits_bytes);
    if (in->recompute == GS_RECOMPUTE_FULL)
        out->last_stage_bytes = add(&c, out->last_stage_bytes, working);
    if (p == 1) /* one stage holds both */
        out->total_bytes = add(&c, out->first_stage_bytes, out->logits_bytes);
    else
        out->total_bytes = out->first_stage_bytes > out->last_stage_bytes ? out->first_stage_bytes
                                                                          : out->last_stage_bytes;
    return !c.ovf;
}
