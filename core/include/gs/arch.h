/*
 * arch.h - a transformer's architecture and its exact parameter count.
 *
 * struct gs_arch holds the Hugging Face config.json fields the formulas need,
 * under the same names. Counts are what `sum(p.numel() for p in
 * model.parameters())` returns in transformers: a tied embedding is counted
 * once (estimation.md §0.5, §1).
 *
 * Error pointers written by this module are config field names
 * ("/hidden_size"); the caller prefixes where the config sits in its input.
 */
#ifndef GS_ARCH_H
#define GS_ARCH_H

#include "gs/status.h"

#include <stdbool.h>
#include <stdint.h>

enum gs_family {
    GS_FAMILY_LLAMA,     /* LlamaForCausalLM: RMSNorm, SwiGLU, GQA */
    GS_FAMILY_MISTRAL,   /* the Llama layout plus an optional sliding window */
    GS_FAMILY_QWEN2,     /* Llama layout with biases on q, k and v (not o) */
    GS_FAMILY_GEMMA,     /* Llama layout, explicit head_dim, GeGLU, tied by default */
    GS_FAMILY_GEMMA2,    /* Gemma with four RMSNorms per layer */
    GS_FAMILY_PHI3,      /* fused qkv_proj and gate_up_proj: same count as Llama */
    GS_FAMILY_MIXTRAL,   /* Llama attention, top-k routed SwiGLU experts */
    GS_FAMILY_QWEN2_MOE, /* Qwen2 attention, routed experts plus a gated shared expert */
    GS_FAMILY_QWEN3_MOE, /* q/k RMSNorm per head, routed experts, no biases */
    GS_FAMILY_DEEPSEEK_V2, /* MLA attention, shared + routed experts, first dense layers */
    GS_FAMILY_DEEPSEEK_V3,
    GS_FAMILY_GPT2,      /* Conv1D with biases, learned positions, LayerNorm, tied */
    GS_FAMILY_GPT_NEOX,  /* fused QKV with bias, LayerNorm, rotary, untied */
    GS_FAMILY_OPT,       /* biases, learned positions with offset 2, optional projections */
    GS_FAMILY_BLOOM,     /* ALiBi, fused QKV with bias, embedding LayerNorm, tied */
    GS_FAMILY_FALCON,    /* MQA/GQA fused QKV, parallel attention, tied */
    GS_FAMILY_T5,        /* encoder-decoder, relative position buckets, RMS-style LayerNorm */
    GS_FAMILY_BERT,      /* encoder only, learned positions and token types, pooler */
    GS_FAMILY_COUNT
};

struct gs_arch {
    enum gs_family family;
    /* shared by every family (config names; aliases such as n_embd or
     * d_model are mapped to these by the config reader) */
    uint64_t hidden_size;
    uint64_t num_hidden_layers;       /* T5: encoder layers */
    uint64_t num_attention_heads;
    uint64_t num_key_value_heads;     /* equals num_attention_heads for MHA */
    uint64_t head_dim;                /* hidden_size / num_attention_heads unless given */
    uint64_t intermediate_size;       /* dense MLP width (Mixtral: each expert's) */
    uint64_t vocab_size;
    uint64_t max_position_embeddings; /* 0 when the config does not say */
    uint64_t sliding_window;          /* 0 = full attention on every layer */
    bool tie_word_embeddings;
    bool attention_bias;
    bool mlp_bias;
    bool attention_dropout;           /* non-zero attention-probability dropout */
    bool hidden_dropout;              /* non-zero residual/hidden dropout */
    /* mixture of experts */
    uint64_t num_experts;             /* routed experts per MoE layer, 0 = dense */
    uint64_t num_experts_per_tok;
    uint64_t moe_intermediate_size;   /* each routed expert's width */
    uint64_t shared_expert_intermediate_size; /* Qwen2-MoE's one shared expert */
    uint64_t n_shared_experts;        /* DeepSeek: shared experts of moe width */
    uint64_t first_k_dense_replace;   /* DeepSeek: leading dense layers */
    uint64_t moe_layer_freq;          /* DeepSeek: every n-th layer is MoE (1) */
    uint64_t decoder_sparse_step;     /* Qwen-MoE: every n-th layer is MoE (1) */
    /* multi-head latent attention (DeepSeek) */
    uint64_t q_lora_rank;             /* 0 = a full q_proj */
    uint64_t kv_lora_rank;
    uint64_t qk_nope_head_dim;
    uint64_t qk_rope_head_dim;
    uint64_t v_head_dim;
    /* absolute positions, LayerNorm families */
    uint64_t type_vocab_size;         /* BERT token types */
    uint64_t word_embed_proj_dim;     /* OPT; 0 = hidden_size */
    bool final_layer_norm;            /* OPT: do_layer_norm_before */
    /* Falcon */
    bool multi_query;
    bool new_decoder_architecture;
    bool parallel_attn;
    uint64_t num_ln_in_parallel_attn; /* 0 = the architecture's default */
    /* T5 */
    uint64_t num_decoder_layers;
    uint64_t relative_attention_num_buckets;
    bool gated_mlp;                   /* feed_forward_proj "gated-*": wi_0, wi_1, wo */
};

/* Parameter counts by component; the components sum to `total`. */
struct gs_param_count {
    uint64_t total;
    uint64_t embedding; /* token, position and token-type embeddings */
    uint64_t attention; /* all layers: projections, their biases, MLA norms, relative position biases */
    uint64_t mlp;       /* dense MLPs and shared experts */
    uint64_t experts;   /* routed experts and their routers */
    uint64_t norms;     /* every LayerNorm/RMSNorm outside attention */
    uint64_t lm_head;   /* 0 when tied to the embedding */
    uint64_t other;     /* BERT's pooler, OPT's embedding projections */
    uint64_t active;    /* used per token (estimation.md 0.5): routed experts beyond top-k
                           and an untied input embedding excluded */
    uint64_t largest_module; /* parameters of the largest single module (ZeRO-3 gathers it whole) */
};

/* The config `model_type` for a family ("llama"). Never NULL. */
const char *gs_family_name(enum gs_family family);

/* Maps a config `model_type` to a family; false when unsupported. */
bool gs_family_parse(const char *model_type, enum gs_family *out);

/* Whether transformers ties the output head to the embedding when the
 * config does not say (true for Gemma, Gemma-2, GPT-2, OPT, BLOOM, Falcon
 * and T5, as their transformers configuration classes default it). */
bool gs_family_ties_by_default(enum gs_family family);

/* Whether the family routes tokens to experts / uses multi-head latent
 * attention / reads num_key_value_heads (grouped-query attention). */
bool gs_family_is_moe(enum gs_family family);
bool gs_family_uses_mla(enum gs_family family);
bool gs_family_has_kv_heads(enum gs_family family);

/* How many decoder layers route tokens to experts (0 for dense models). */
uint64_t gs_arch_moe_layers(const struct gs_arch *arch);

/* Whether the architecture's MLP is gated (SwiGLU/GeGLU: gate, up, down). */
bool gs_arch_gated_mlp(const struct gs_arch *arch);

/* Parameters per hidden unit of one norm: 2 for LayerNorm (weight and bias),
 * 1 for RMSNorm and T5's weight-only LayerNorm. */
unsigned gs_arch_norm_size(const struct gs_arch *arch);

/* The supported model_type names, comma separated, for error messages. */
const char *gs_family_supported(void);

/* Largest value accepted for any single dimension; beyond this a config is
 * a typo, not a model, and is rejected before any arithmetic. */
#define GS_ARCH_DIM_MAX ((uint64_t)1 << 24)

/* Checks the fields the family needs: present, positive, within
 * GS_ARCH_DIM_MAX, heads divisible by KV heads. Collects every problem. */
enum gs_status gs_arch_validate(const struct gs_arch *arch, struct gs_error *err);

/* Validates, then counts. `out` is written only on GS_OK. */
enum gs_status gs_arch_count_params(const struct gs_arch *arch, struct gs_param_count *out,
                                    struct gs_error *err);

#endif
