/*
 * arch_count.c - exact parameter counts per architecture family.
 *
 * Each family is written as the sum of its PyTorch modules, as transformers
 * builds them: nn.Linear(in, out) = in*out (+ out with bias), nn.Embedding(V, h)
 * = V*h, LayerNorm = 2h, RMSNorm (and T5's weight-only LayerNorm) = h. The
 * formulas and the published counts they reproduce are in estimation.md §1.1;
 * tests/core/test_arch.c checks one or more published models per family.
 */
#include "arch_int.h"

#include "gs/units.h"

#include <string.h>

/* Running state: the sticky overflow flag and the largest module seen. */
struct tally {
    bool ovf;
    uint64_t largest;
};

static uint64_t mul(struct tally *t, uint64_t a, uint64_t b)
{
    return gs_mul(a, b, &t->ovf);
}

static uint64_t add(struct tally *t, uint64_t a, uint64_t b)
{
    return gs_add(a, b, &t->ovf);
}

static uint64_t module(struct tally *t, uint64_t params)
{
    if (params > t->largest)
        t->largest = params;
    return params;
}

static uint64_t linear(struct tally *t, uint64_t in, uint64_t out, bool bias)
{
    return module(t, add(t, mul(t, in, out), bias ? out : 0));
}

static uint64_t embedding(struct tally *t, uint64_t rows, uint64_t width)
{
    return module(t, mul(t, rows, width));
}

/* SwiGLU/GeGLU: gate and up (h -> i), down (i -> h). */
static uint64_t gated_mlp(struct tally *t, uint64_t h, uint64_t i, bool bias)
{
    return add(t, mul(t, 2, linear(t, h, i, bias)), linear(t, i, h, bias));
}

/* Two-matrix MLP: up (h -> i), down (i -> h). */
static uint64_t plain_mlp(struct tally *t, uint64_t h, uint64_t i, bool bias)
{
    return add(t, linear(t, h, i, bias), linear(t, i, h, bias));
}

/* q, k, v, o projections with grouped KV heads. */
static uint64_t gqa_attention(struct tally *t, const struct gs_arch *a, bool qkv_bias, bool o_bias)
{
    const uint64_t h = a->hidden_size;
    const uint64_t q = mul(t, a->num_attention_heads, a->head_dim);
    const uint64_t kv = mul(t, a->num_key_value_heads, a->head_dim);
    uint64_t n = add(t, linear(t, h, q, qkv_bias), mul(t, 2, linear(t, h, kv, qkv_bias)));
    return add(t, n, linear(t, q, h, o_bias));
}

/* DeepSeek's multi-head latent attention (estimation.md 1.1, MLA terms). */
static uint64_t mla_attention(struct tally *t, const struct gs_arch *a)
{
    const uint64_t h = a->hidden_size, heads = a->num_attention_heads;
    const uint64_t qk = add(t, a->qk_nope_head_dim, a->qk_rope_head_dim);
    const bool bias = a->attention_bias;
    uint64_t q;
    if (a->q_lora_rank == 0)
        q = linear(t, h, mul(t, heads, qk), false);
    else
        q = add(t, add(t, linear(t, h, a->q_lora_rank, bias), a->q_lora_rank),
                linear(t, a->q_lora_rank, mul(t, heads, qk), false));
    uint64_t kv = add(t, linear(t, h, add(t, a->kv_lora_rank, a->qk_rope_head_dim), bias),
                      a->kv_lora_rank);
    kv = add(t, kv, linear(t, a->kv_lora_rank, mul(t, heads, add(t, a->qk_nope_head_dim,
                                                                   a->v_head_dim)),
                           false));
    uint64_t o = linear(t, mul(t, heads, a->v_head_dim), h, bias);
    return add(t, add(t, q, kv), o);
}

/* Totals the components and derives `active`; `inactive` is what a token
 * does not touch (routed experts beyond top-k). */
static void finish(struct tally *t, struct gs_param_count *c, uint64_t token_embedding,
                   bool head_tied, uint64_t inactive)
{
    c->total = add(t, add(t, add(t, c->embedding, c->attention), add(t, c->mlp, c->experts)),
                   add(t, add(t, c->norms, c->lm_head), c->other));
    c->active = c->total - inactive;
    if (!head_tied)
        c->active -= token_embedding; /* §0.5: an untied input lookup is not compute */
    c->largest_module = t->largest;
}

/* How many of the L layers route to experts (closed form, so an absurd
 * layer count costs nothing): Mixtral every layer; Qwen-MoE every
 * decoder_sparse_step-th (layer l when (l+1) % step == 0); DeepSeek layers
 * l >= first_k_dense_replace with l % moe_layer_freq == 0. */
uint64_t gs_arch_moe_layers(const struct gs_arch *a)
{
    const uint64_t L = a->num_hidden_layers;
    if (!gs_family_is_moe(a->family) || a->num_experts == 0)
        return 0;
    switch (a->family) {
    case GS_FAMILY_QWEN2_MOE:
    case GS_FAMILY_QWEN3_MOE:
        return L / (a->decoder_sparse_step ? a->decoder_sparse_step : 1);
    case GS_FAMILY_DEEPSEEK_V2:
    case GS_FAMILY_DEEPSEEK_V3: {
        const uint64_t F = a->first_k_dense_replace, freq = a->moe_layer_freq ? a->moe_layer_freq : 1;
        if (F >= L)
            return 0;
        /* multiples of freq in [F, L-1] */
        return (L - 1) / freq + 1 - (F == 0 ? 0 : (F - 1) / freq + 1);
    }
    default:
        return L;
    }
}

/* Llama and every family built on its decoder layer, dense or MoE. */
static void count_decoder(struct tally *t, const struct gs_arch *a, struct gs_param_count *c)
{
    const uint64_t h = a->hidden_size, L = a->num_hidden_layers, E = a->num_experts;
    const bool qwen2_bias = a->family == GS_FAMILY_QWEN2 || a->family == GS_FAMILY_QWEN2_MOE;
    const uint64_t token = embedding(t, a->vocab_size, h);
    c->embedding = token;
    c->lm_head = a->tie_word_embeddings ? 0 : embedding(t, a->vocab_size, h);

    uint64_t attn;
    if (gs_family_uses_mla(a->family))
        attn = mla_attention(t, a);
    else
        attn = gqa_attention(t, a, a->attention_bias || qwen2_bias, a->attention_bias);
    if (a->family == GS_FAMILY_QWEN3_MOE)
        attn = add(t, attn, mul(t, 2, a->head_dim)); /* q_norm, k_norm over head_dim */
    c->attention = mul(t, L, attn);
    c->norms = add(t, mul(t, L, mul(t, a->family == GS_FAMILY_GEMMA2 ? 4 : 2, h)), h);

    /* Mixtral's experts are intermediate_size wide; the others name a separate width */
    const uint64_t expert_width =
        a->family == GS_FAMILY_MIXTRAL ? a->intermediate_size : a->moe_intermediate_size;
    const uint64_t sparse = gs_arch_moe_layers(a), dense = L - sparse;
    if (dense > 0) /* only count modules that exist: all-MoE configs still name a width */
        c->mlp = mul(t, dense, gated_mlp(t, h, a->intermediate_size, a->mlp_bias));
    uint64_t inactive = 0;
    if (sparse > 0) {
        const uint64_t expert = gated_mlp(t, h, expert_width, false);
        const uint64_t router = linear(t, h, E, false);
        uint64_t shared = 0;
        if (a->shared_expert_intermediate_size != 0) /* Qwen2-MoE: one gated shared expert */
            shared = add(t, gated_mlp(t, h, a->shared_expert_intermediate_size, false),
                         linear(t, h, 1, false));
        if (a->n_shared_experts != 0) /* DeepSeek: one MLP n_shared experts wide */
            shared = add(t, shared,
                         gated_mlp(t, h, mul(t, a->n_shared_experts, expert_width), false));
        c->experts = mul(t, sparse, add(t, router, mul(t, E, expert)));
        c->mlp = add(t, c->mlp, mul(t, sparse, shared));
        inactive = mul(t, sparse, mul(t, E - a->num_experts_per_tok, expert));
    }
    finish(t, c, token, a->tie_word_embeddings, inactive);
}

/* GPT-2 (estimation.md 1.1): Conv1D with biases, learned positions, tied. */
static void count_gpt2(struct tally *t, const struct gs_arch *a, struct gs_param_count *c)
{
    const uint64_t h = a->hidden_size, L = a->num_hidden_layers;
    const uint64_t token = embedding(t, a->vocab_size, h);
    c->embedding = add(t, token, embedding(t, a->max_position_embeddings, h));
    c->attention = mul(t, L, add(t, linear(t, h, mul(t, 3, h), true), linear(t, h, h, true)));
    c->mlp = mul(t, L, plain_mlp(t, h, a->intermediate_size, true));
    c->norms = add(t, mul(t, L, mul(t, 4, h)), mul(t, 2, h));
    finish(t, c, token, true, 0);
}

/* GPT-NeoX / Pythia: fused QKV and dense with biases, two LayerNorms per
 * layer, final LayerNorm, rotary positions, untied embed_out. */
static void count_gpt_neox(struct tally *t, const struct gs_arch *a, struct gs_param_count *c)
{
    const uint64_t h = a->hidden_size, L = a->num_hidden_layers;
    const bool bias = a->attention_bias;
    const uint64_t token = embedding(t, a->vocab_size, h);
    c->embedding = token;
    c->lm_head = a->tie_word_embeddings ? 0 : embedding(t, a->vocab_size, h);
    c->attention = mul(t, L, add(t, linear(t, h, mul(t, 3, h), bias), linear(t, h, h, bias)));
    c->mlp = mul(t, L, plain_mlp(t, h, a->intermediate_size, true));
    c->norms = add(t, mul(t, L, mul(t, 4, h)), mul(t, 2, h));
    finish(t, c, token, a->tie_word_embeddings, 0);
}

/* OPT (estimation.md 1.1): positions have 2 extra rows; project_in/out when
 * word_embed_proj_dim differs from hidden_size; final LayerNorm only with
 * do_layer_norm_before; the head is tied to the (projected) embedding. */
static void count_opt(struct tally *t, const struct gs_arch *a, struct gs_param_count *c)
{
    const uint64_t h = a->hidden_size, L = a->num_hidden_layers;
    const uint64_t w = a->word_embed_proj_dim ? a->word_embed_proj_dim : h;
    const uint64_t token = embedding(t, a->vocab_size, w);
    c->embedding = add(t, token, embedding(t, add(t, a->max_position_embeddings, 2), h));
    if (w != h)
        c->other = add(t, linear(t, w, h, false), linear(t, h, w, false));
    c->attention = mul(t, L, mul(t, 4, linear(t, h, h, a->attention_bias)));
    c->mlp = mul(t, L, plain_mlp(t, h, a->intermediate_size, a->mlp_bias));
    c->norms = add(t, mul(t, L, mul(t, 4, h)), a->final_layer_norm ? mul(t, 2, h) : 0);
    c->lm_head = a->tie_word_embeddings ? 0 : embedding(t, a->vocab_size, w);
    finish(t, c, token, a->tie_word_embeddings, 0);
}

/* BLOOM (estimation.md 1.1): N = V*h + 2h + L*(12h^2 + 13h) + 2h. */
static void count_bloom(struct tally *t, const struct gs_arch *a, struct gs_param_count *c)
{
    const uint64_t h = a->hidden_size, L = a->num_hidden_layers;
    const uint64_t token = embedding(t, a->vocab_size, h);
    c->embedding = token;
    c->attention = mul(t, L, add(t, linear(t, h, mul(t, 3, h), true), linear(t, h, h, true)));
    c->mlp = mul(t, L, plain_mlp(t, h, mul(t, 4, h), true));
    /* word_embeddings_layernorm, two per layer, ln_f */
    c->norms = add(t, mul(t, L, mul(t, 4, h)), mul(t, 4, h));
    c->lm_head = a->tie_word_embeddings ? 0 : embedding(t, a->vocab_size, h);
    finish(t, c, token, a->tie_word_embeddings, 0);
}

/* Falcon (estimation.md 1.1, FalconAttention): the fused QKV width depends
 * on the decoder architecture; parallel attention shares one LayerNorm. */
static void count_falcon(struct tally *t, const struct gs_arch *a, struct gs_param_count *c)
{
    const uint64_t h = a->hidden_size, L = a->num_hidden_layers, d = a->head_dim;
    const bool bias = a->attention_bias;
    uint64_t qkv_out;
    uint64_t norms_per_layer;
    if (a->new_decoder_architecture) {
        qkv_out = mul(t, add(t, a->num_attention_heads, mul(t, 2, a->num_key_value_heads)), d);
        norms_per_layer = a->num_ln_in_parallel_attn == 1 ? 1 : 2;
    } else {
        qkv_out = a->multi_query ? add(t, h, mul(t, 2, d)) : mul(t, 3, h);
        norms_per_layer = a->parallel_attn ? 1 : 2;
    }
    const uint64_t token = embedding(t, a->vocab_size, h);
    c->embedding = token;
    c->attention = mul(t, L, add(t, linear(t, h, qkv_out, bias), linear(t, h, h, bias)));
    c->mlp = mul(t, L, plain_mlp(t, h, a->intermediate_size, bias));
    c->norms = add(t, mul(t, L, mul(t, norms_per_layer, mul(t, 2, h))), mul(t, 2, h));
    c->lm_head = a->tie_word_embeddings ? 0 : embedding(t, a->vocab_size, h);
    finish(t, c, token, a->tie_word_embeddings, 0);
}

/* T5 / Flan-T5: a shared embedding, encoder and decoder stacks of bias-free
 * attention (the decoder adds cross-attention), relative position buckets in
 * each stack's first layer, weight-only LayerNorms, gated FF for v1.1/Flan. */
static void count_t5(struct tally *t, const struct gs_arch *a, struct gs_param_count *c)
{
    const uint64_t d = a->hidden_size, inner = mul(t, a->num_attention_heads, a->head_dim);
    const uint64_t enc = a->num_hidden_layers;
    const uint64_t dec = a->num_decoder_layers ? a->num_decoder_layers : enc;
    const uint64_t buckets = a->relative_attention_num_buckets ? a->relative_attention_num_buckets
                                                               : 32;
    const uint64_t attn = add(t, mul(t, 3, linear(t, d, inner, false)), linear(t, inner, d, false));
    const uint64_t ff = a->gated_mlp ? gated_mlp(t, d, a->intermediate_size, false)
                                     : plain_mlp(t, d, a->intermediate_size, false);
    const uint64_t relative_bias = mul(t, 2, mul(t, buckets, a->num_attention_heads));
    const uint64_t token = embedding(t, a->vocab_size, d);
    c->embedding = token;
    c->attention = add(t, mul(t, add(t, enc, mul(t, 2, dec)), attn), relative_bias);
    c->mlp = mul(t, add(t, enc, dec), ff);
    /* encoder: 2 per layer + final; decoder: 3 per layer + final */
    c->norms = mul(t, add(t, add(t, mul(t, 2, enc), mul(t, 3, dec)), 2), d);
    c->lm_head = a->tie_word_embeddings ? 0 : embedding(t, a->vocab_size, d);
    finish(t, c, token, a->tie_word_embeddings, 0);
}

/* BERT (BertModel, with its pooler): word, position and token-type
 * embeddings and their LayerNorm; biased q/k/v/o and MLP; no output head. */
static void count_bert(struct tally *t, const struct gs_arch *a, struct gs_param_count *c)
{
    const uint64_t h = a->hidden_size, L = a->num_hidden_layers;
    const uint64_t types = a->type_vocab_size ? a->type_vocab_size : 2;
    const uint64_t token = embedding(t, a->vocab_size, h);
    c->embedding = add(t, add(t, token, embedding(t, a->max_position_embeddings, h)),
                       embedding(t, types, h));
    c->attention = mul(t, L, mul(t, 4, linear(t, h, h, true)));
    c->mlp = mul(t, L, plain_mlp(t, h, a->intermediate_size, true));
    c->norms = add(t, mul(t, L, mul(t, 4, h)), mul(t, 2, h));
    c->other = linear(t, h, h, true); /* pooler */
    finish(t, c, token, false, 0);
}

bool gs_arch_count_family(const struct gs_arch *a, struct gs_param_count *out)
{
    struct tally t = {false, 0};
    struct gs_param_count c;
    memset(&c, 0, sizeof(c));
    switch (a->family) {
    case GS_FAMILY_GPT2:
        count_gpt2(&t, a, &c);
        break;
    case GS_FAMILY_GPT_NEOX:
        count_gpt_neox(&t, a, &c);
        break;
    case GS_FAMILY_OPT:
        count_opt(&t, a, &c);
        break;
    case GS_FAMILY_BLOOM:
        count_bloom(&t, a, &c);
        break;
    case GS_FAMILY_FALCON:
        count_falcon(&t, a, &c);
        break;
    case GS_FAMILY_T5:
        count_t5(&t, a, &c);
        break;
    case GS_FAMILY_BERT:
        count_bert(&t, a, &c);
        break;
    default:
        count_decoder(&t, a, &c);
        break;
    }
    if (t.ovf)
        return false;
    *out = c;
    return true;
}
