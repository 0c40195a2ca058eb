/*
 * arch_build.c - filling a struct gs_arch (see gs/arch_build.h). Module
 * shapes follow the transformers modeling files named at each builder.
 */
#include "gs/arch_build.h"

#include <stdint.h>

#include <string.h>

const struct gs_attention_names GS_ATTENTION_NAMES = {"q_proj", "k_proj", "v_proj", "o_proj", NULL};
const struct gs_mlp_names GS_MLP_NAMES = {"gate_proj", "up_proj", "down_proj", NULL};
const struct gs_mlp_names GS_EXPERT_NAMES = {"experts.gate_proj", "experts.up_proj",
                                             "experts.down_proj", NULL};
/* transformers 4.x MixtralBlockSparseTop2MLP (and PhimoeBlockSparseTop2MLP, MiniMax-M2's remote
 * MiniMaxM2MLP): act_fn(w1(x)) * w3(x), then w2; the checkpoints keep those names (vLLM
 * mixtral.py make_expert_params_mapping(ckpt_gate_proj_name="w1", ckpt_down_proj_name="w2",
 * ckpt_up_proj_name="w3")) */
const struct gs_mlp_names GS_EXPERT_NAMES_W = {"experts.w1", "experts.w3", "experts.w2", NULL};

void gs_arch_init(struct gs_arch *a, const char *model_type, uint64_t hidden_size,
                  uint64_t vocab_size)
{
    memset(a, 0, sizeof(*a));
    if (model_type != NULL) {
        strncpy(a->model_type, model_type, sizeof(a->model_type) - 1);
        a->model_type[sizeof(a->model_type) - 1] = '\0';
    }
    a->hidden_size = hidden_size;
    a->vocab_size = vocab_size;
    a->logits = true;
}

size_t gs_arch_new_block(struct gs_arch *a)
{
    if (a->block_count >= GS_BLOCKS_MAX) {
        a->overflow = true;
        return GS_BLOCKS_MAX;
    }
    memset(&a->blocks[a->block_count], 0, sizeof(a->blocks[0]));
    return a->block_count++;
}

struct gs_block *gs_arch_block(struct gs_arch *a, size_t index)
{
    return index < a->block_count ? &a->blocks[index] : NULL;
}

void gs_arch_set_layers(struct gs_arch *a, uint64_t layers, size_t block)
{
    a->num_hidden_layers = layers;
    memset(a->block_layers, 0, sizeof(a->block_layers));
    if (layers > GS_LAYERS_MAX || block >= GS_BLOCKS_MAX) {
        a->overflow = true;
        return;
    }
    memset(a->layer_block, (int)block, (size_t)layers);
    a->block_layers[block] = layers;
}

void gs_arch_share_block_weights(struct gs_arch *a, size_t block, uint64_t copies)
{
    if (block >= GS_BLOCKS_MAX || copies == 0) {
        a->overflow = true;
        return;
    }
    a->block_weight_layers[block] = copies;
}

void gs_arch_set_layer(struct gs_arch *a, uint64_t layer, size_t block)
{
    if (layer >= a->num_hidden_layers || layer >= GS_LAYERS_MAX || block >= GS_BLOCKS_MAX) {
        a->overflow = true;
        return;
    }
    a->block_layers[a->layer_block[layer]]--;
    a->layer_block[layer] = (uint8_t)block;
    a->block_layers[block]++;
}

static void push(struct gs_arch *a, struct gs_module *list, size_t *n, size_t cap,
                 const char *name, enum gs_module_kind kind, enum gs_split split,
                 enum gs_part part, unsigned flags, uint64_t in, uint64_t out, uint64_t count)
{
    /* the module's fields are 32-bit (gs/arch.h): a larger value is no model, refused */
    if (*n >= cap || in > UINT32_MAX || out > UINT32_MAX || count > UINT32_MAX) {
        a->overflow = true;
        return;
    }
    list[(*n)++] = (struct gs_module){name,
                                      (uint8_t)kind,
                                      (uint8_t)split,
                                      (uint8_t)part,
                                      (uint16_t)flags,
                                      (uint32_t)in,
                                      (uint32_t)out,
                                      count == 0 ? 1 : (uint32_t)count};
}

void gs_arch_module(struct gs_arch *a, const char *name, enum gs_module_kind kind,
                    enum gs_split split, enum gs_part part, unsigned flags, uint64_t in,
                    uint64_t out, uint64_t count)
{
    push(a, a->modules, &a->module_count, GS_ARCH_MODULES_MAX, name, kind, split, part, flags, in,
         out, count);
}

void gs_block_module(struct gs_arch *a, size_t block, const char *name, enum gs_module_kind kind,
                     enum gs_split split, enum gs_part part, unsigned flags, uint64_t in,
                     uint64_t out, uint64_t count)
{
    struct gs_block *b = gs_arch_block(a, block);
    if (b == NULL) {
        a->overflow = true;
        return;
    }
    push(a, b->modules, &b->module_count, GS_BLOCK_MODULES_MAX, name, kind, split, part, flags,
         in, out, count);
}

void gs_arch_tower(struct gs_arch *a, const char *name, size_t block, enum gs_part part,
                   uint64_t layers, bool encoder)
{
    if (a->tower_count >= GS_TOWERS_MAX || block >= a->block_count) {
        a->overflow = true;
        return;
    }
    a->towers[a->tower_count++] = (struct gs_tower){name, (uint8_t)block, (uint8_t)part, layers,
                                                    encoder, 0, 0};
}

void gs_arch_embeddings(struct gs_arch *a, uint64_t width, const char *head_name, bool head_bias)
{
    gs_arch_module(a, "embed_tokens", GS_MODULE_EMBEDDING, GS_SPLIT_COLUMN, GS_PART_EMBEDDING,
                   GS_MOD_TOKENS, a->vocab_size, width, 1);
    if (!a->tie_word_embeddings)
        gs_arch_module(a, head_name, GS_MODULE_LINEAR, GS_SPLIT_COLUMN, GS_PART_LM_HEAD,
                       head_bias ? GS_MOD_BIAS : 0, width, a->vocab_size, 1);
}

void gs_build_norms(struct gs_arch *a, size_t block, const char *name, uint64_t count, bool bias)
{
    const unsigned flags = bias ? GS_MOD_BIAS : 0;
    if (block >= GS_BLOCKS_MAX)
        gs_arch_module(a, name, GS_MODULE_NORM, GS_SPLIT_NONE, GS_PART_NORMS, flags, 1,
                       a->hidden_size, count);
    else
        gs_block_module(a, block, name, GS_MODULE_NORM, GS_SPLIT_NONE, GS_PART_NORMS, flags, 1,
                        a->hidden_size, count);
}

/* LlamaAttention and its relatives: q_proj h -> a*d, k_proj and v_proj
 * h -> k*d, o_proj a*d_v -> h (modeling_llama.py); fused variants (Phi-3's
 * qkv_proj, Falcon's query_key_value) have the same shape in one matrix. */
void gs_build_attention(struct gs_arch *a, size_t block, const struct gs_attention *spec,
                        const struct gs_attention_names *n, bool qkv_bias, bool o_bias)
{
    struct gs_block *b = gs_arch_block(a, block);
    if (b == NULL) {
        a->overflow = true;
        return;
    }
    b->mixer = GS_MIXER_ATTENTION;
    b->attn = *spec;
    if (b->attn.v_head_dim == 0)
        b->attn.v_head_dim = b->attn.head_dim;
    const uint64_t h = a->hidden_size, d = b->attn.head_dim, dv = b->attn.v_head_dim;
    const uint64_t q = b->attn.heads * d, k = b->attn.kv_heads * d, v = b->attn.kv_heads * dv;
    const unsigned in_flags = GS_MOD_QUANT | (qkv_bias ? GS_MOD_BIAS : 0);
    if (n->qkv != NULL) {
        gs_block_module(a, block, n->qkv, GS_MODULE_LINEAR, GS_SPLIT_QKV, GS_PART_ATTENTION,
                        in_flags, h, q + k + v, 1);
    } else {
        gs_block_module(a, block, n->q, GS_MODULE_LINEAR, GS_SPLIT_COLUMN, GS_PART_ATTENTION,
                        in_flags, h, q, 1);
        gs_block_module(a, block, n->k, GS_MODULE_LINEAR, GS_SPLIT_KV, GS_PART_ATTENTION,
                        in_flags, h, k, 1);
        gs_block_module(a, block, n->v, GS_MODULE_LINEAR, GS_SPLIT_KV, GS_PART_ATTENTION,
                        in_flags, h, v, 1);
    }
    gs_block_module(a, block, n->o, GS_MODULE_LINEAR, GS_SPLIT_ROW, GS_PART_ATTENTION,
                    GS_MOD_QUANT | (o_bias ? GS_MOD_BIAS : 0), b->attn.heads * dv, h, 1);
}

/* DeepseekV3Attention (modeling_deepseek_v3.py, MLA):
 * q = q_a_proj h -> q_lora, q_a_layernorm, q_b_proj q_lora -> a*(nope+rope)
 * (or q_proj h -> a*(nope+rope) without a q_lora_rank); kv_a_proj_with_mqa
 * h -> kv_lora + rope, kv_a_layernorm, kv_b_proj kv_lora -> a*(nope+v);
 * o_proj a*v -> h. The latent projections are replicated on every tensor
 * rank (vLLM ReplicatedLinear). DeepSeek-V3.2's Indexer (DeepSeek-V3.2-Exp
 * inference/model.py): wq_b q_lora -> index_heads*index_head_dim, wk h ->
 * index_head_dim, k_norm LayerNorm(index_head_dim), weights_proj h ->
 * index_heads. */
void gs_build_mla(struct gs_arch *a, size_t block, const struct gs_attention *spec, bool bias)
{
    struct gs_block *b = gs_arch_block(a, block);
    if (b == NULL) {
        a->overflow = true;
        return;
    }
    b->mixer = GS_MIXER_MLA;
    b->attn = *spec;
    struct gs_attention *s = &b->attn;
    s->head_dim = s->qk_nope_head_dim + s->qk_rope_head_dim;
    s->kv_heads = 1;
    /* k_pass, value_states = torch.split(kv_b_proj(...).view(...).transpose(1, 2),
     * [qk_nope_head_dim, v_head_dim], dim=-1) */
    s->qkv_views = true;
    const uint64_t h = a->hidden_size, heads = s->heads;
    const unsigned f = GS_MOD_QUANT | (bias ? GS_MOD_BIAS : 0);
    if (s->q_lora_rank) {
        gs_block_module(a, block, "q_a_proj", GS_MODULE_LINEAR, GS_SPLIT_NONE, GS_PART_ATTENTION, f,
                        h, s->q_lora_rank, 1);
        gs_block_module(a, block, "q_a_layernorm", GS_MODULE_NORM, GS_SPLIT_NONE,
                        GS_PART_ATTENTION, 0, 1, s->q_lora_rank, 1);
        gs_block_module(a, block, "q_b_proj", GS_MODULE_LINEAR, GS_SPLIT_COLUMN, GS_PART_ATTENTION,
                        GS_MOD_QUANT, s->q_lora_rank, heads * s->head_dim, 1);
    } else {
        gs_block_module(a, block, "q_proj", GS_MODULE_LINEAR, GS_SPLIT_COLUMN, GS_PART_ATTENTION,
                        GS_MOD_QUANT, h, heads * s->head_dim, 1);
    }
    gs_block_module(a, block, "kv_a_proj_with_mqa", GS_MODULE_LINEAR, GS_SPLIT_NONE,
                    GS_PART_ATTENTION, f, h, s->kv_lora_rank + s->qk_rope_head_dim, 1);
    gs_block_module(a, block, "kv_a_layernorm", GS_MODULE_NORM, GS_SPLIT_NONE, GS_PART_ATTENTION, 0,
                    1, s->kv_lora_rank, 1);
    gs_block_module(a, block, "kv_b_proj", GS_MODULE_LINEAR, GS_SPLIT_COLUMN, GS_PART_ATTENTION,
                    GS_MOD_QUANT, s->kv_lora_rank, heads * (s->qk_nope_head_dim + s->v_head_dim),
                    1);
    gs_block_module(a, block, "o_proj", GS_MODULE_LINEAR, GS_SPLIT_ROW, GS_PART_ATTENTION, f,
                    heads * s->v_head_dim, h, 1);
    if (s->index_heads) {
        const uint64_t q_in = s->q_lora_rank ? s->q_lora_rank : h;
        gs_block_module(a, block, "indexer.wq_b", GS_MODULE_LINEAR, GS_SPLIT_NONE,
                        GS_PART_ATTENTION, GS_MOD_QUANT, q_in, s->index_heads * s->index_head_dim,
                        1);
        gs_block_module(a, block, "indexer.wk", GS_MODULE_LINEAR, GS_SPLIT_NONE, GS_PART_ATTENTION,
                        GS_MOD_QUANT, h, s->index_head_dim, 1);
        gs_block_module(a, block, "indexer.k_norm", GS_MODULE_NORM, GS_SPLIT_NONE,
                        GS_PART_ATTENTION, GS_MOD_BIAS, 1, s->index_head_dim, 1);
        gs_block_module(a, block, "indexer.weights_proj", GS_MODULE_LINEAR, GS_SPLIT_NONE,
                        GS_PART_ATTENTION, 0, h, s->index_heads, 1);
    }
}

/* LlamaMLP: gate_proj and up_proj h -> i, down_proj i -> h; a plain MLP
 * (GPT-2, BERT, OPT) has only up (h -> i) and down (i -> h). */
void gs_build_mlp(struct gs_arch *a, size_t block, uint64_t width, bool gated, bool bias,
                  const struct gs_mlp_names *n)
{
    struct gs_block *b = gs_arch_block(a, block);
    if (b == NULL) {
        a->overflow = true;
        return;
    }
    b->mlp.kind = GS_MLP_DENSE;
    b->mlp.gated = gated;
    b->mlp.width = width;
    const uint64_t h = a->hidden_size;
    const unsigned f = GS_MOD_QUANT | (bias ? GS_MOD_BIAS : 0);
    if (gated && n->gate_up != NULL) {
        gs_block_module(a, block, n->gate_up, GS_MODULE_LINEAR, GS_SPLIT_COLUMN, GS_PART_MLP, f, h,
                        2 * width, 1);
    } else {
        if (gated)
            gs_block_module(a, block, n->gate, GS_MODULE_LINEAR, GS_SPLIT_COLUMN, GS_PART_MLP, f,
                            h, width, 1);
        gs_block_module(a, block, n->up, GS_MODULE_LINEAR, GS_SPLIT_COLUMN, GS_PART_MLP, f, h,
                        width, 1);
    }
    gs_block_module(a, block, n->down, GS_MODULE_LINEAR, GS_SPLIT_ROW, GS_PART_MLP, f, width, h, 1);
}

/* MixtralSparseMoeBlock / Qwen2MoeSparseMoeBlock / DeepseekV3MoE: a router
 * Linear(h, E) and E experts of gate/up (h -> w) and down (w -> h); shared
 * experts as one gated MLP (DeepSeek: n_shared_experts x moe width wide;
 * Qwen-MoE: shared_expert_intermediate_size, gated by Linear(h, 1)). The
 * experts are stored as fused 3-D tensors in newer transformers; the count
 * is the same. */
void gs_build_moe(struct gs_arch *a, size_t block, const struct gs_moe *m)
{
    struct gs_block *b = gs_arch_block(a, block);
    if (b == NULL) {
        a->overflow = true;
        return;
    }
    b->mlp.kind = GS_MLP_MOE;
    b->mlp.gated = m->gated;
    b->mlp.width = m->width;
    b->mlp.experts = m->experts;
    b->mlp.top_k = m->top_k;
    b->mlp.zero_experts = m->zero_experts;
    b->mlp.shared_width = m->shared_width;
    b->mlp.shared_gated = m->shared_width && m->shared_gate;
    b->mlp.router_fp32 = m->router_fp32;
    b->mlp.router_parameter = m->router_parameter;
    b->mlp.router_linear_from = m->router_linear_from;
    b->mlp.router_linear_until = m->router_linear_until;
    b->mlp.experts_fused = m->experts_fused;
    const uint64_t h = a->hidden_size, E = m->experts;
    const unsigned f = GS_MOD_QUANT | GS_MOD_EXPERT | (m->expert_bias ? GS_MOD_BIAS : 0);
    gs_block_module(a, block, m->router_name ? m->router_name : "gate", GS_MODULE_LINEAR,
                    GS_SPLIT_NONE, GS_PART_EXPERTS, m->router_bias ? GS_MOD_BIAS : 0, h,
                    gs_mlp_router_outputs(&b->mlp), 1);
    if (m->router_extra)
        gs_block_module(a, block, "e_score_correction_bias", GS_MODULE_TENSOR, GS_SPLIT_NONE,
                        GS_PART_EXPERTS, 0, 1, m->router_extra, 1);
    if (m->router_buffer)
        gs_block_module(a, block, "e_score_correction_bias", GS_MODULE_TENSOR, GS_SPLIT_NONE,
                        GS_PART_EXPERTS, GS_MOD_BUFFER, 1, m->router_buffer, 1);
    const struct gs_mlp_names *names = m->expert_names ? m->expert_names : &GS_EXPERT_NAMES;
    if (m->gated)
        gs_block_module(a, block, names->gate, GS_MODULE_LINEAR, GS_SPLIT_COLUMN, GS_PART_EXPERTS,
                        f, h, m->width, E);
    gs_block_module(a, block, names->up, GS_MODULE_LINEAR, GS_SPLIT_COLUMN, GS_PART_EXPERTS, f, h,
                    m->width, E);
    gs_block_module(a, block, names->down, GS_MODULE_LINEAR, GS_SPLIT_ROW, GS_PART_EXPERTS, f,
                    m->width, h, E);
    if (m->shared_width) {
        gs_block_module(a, block, "shared_expert.gate_proj", GS_MODULE_LINEAR, GS_SPLIT_COLUMN,
                        GS_PART_MLP, GS_MOD_QUANT, h, m->shared_width, 1);
        gs_block_module(a, block, "shared_expert.up_proj", GS_MODULE_LINEAR, GS_SPLIT_COLUMN,
                        GS_PART_MLP, GS_MOD_QUANT, h, m->shared_width, 1);
        gs_block_module(a, block, "shared_expert.down_proj", GS_MODULE_LINEAR, GS_SPLIT_ROW,
                        GS_PART_MLP, GS_MOD_QUANT, m->shared_width, h, 1);
        if (m->shared_gate)
            gs_block_module(a, block, "shared_expert_gate", GS_MODULE_LINEAR, GS_SPLIT_NONE,
                            GS_PART_MLP, 0, h, 1, 1);
    }
}
