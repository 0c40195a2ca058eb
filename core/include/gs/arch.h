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
    GS_FAMILY_LLAMA,   /* LlamaForCausalLM: RMSNorm, SwiGLU, GQA */
    GS_FAMILY_MISTRAL, /* the Llama layout plus an optional sliding window */
    GS_FAMILY_QWEN2,   /* Llama layout with biases on q, k and v (not o) */
    GS_FAMILY_GEMMA,   /* Llama layout, explicit head_dim, GeGLU, tied by default */
    GS_FAMILY_GEMMA2,  /* Gemma with four RMSNorms per layer */
    GS_FAMILY_PHI3,    /* fused qkv_proj and gate_up_proj: same count as Llama */
    GS_FAMILY_COUNT
};

struct gs_arch {
    enum gs_family family;
    uint64_t hidden_size;
    uint64_t num_hidden_layers;
    uint64_t num_attention_heads;
    uint64_t num_key_value_heads;     /* equals num_attention_heads for MHA */
    uint64_t head_dim;                /* hidden_size / num_attention_heads unless given */
    uint64_t intermediate_size;
    uint64_t vocab_size;
    uint64_t max_position_embeddings; /* 0 when the config does not say */
    uint64_t sliding_window;          /* 0 = full attention on every layer */
    bool tie_word_embeddings;
    bool attention_bias;
    bool mlp_bias;
};

/* Parameter counts by component; the components sum to `total`. */
struct gs_param_count {
    uint64_t total;
    uint64_t embedding; /* input token embedding */
    uint64_t attention; /* all layers: q, k, v, o projections (and their biases) */
    uint64_t mlp;       /* all layers: gate, up, down projections */
    uint64_t norms;     /* all RMSNorm/LayerNorm weights, including the final norm */
    uint64_t lm_head;   /* 0 when tied to the embedding */
    uint64_t largest_module; /* parameters of the largest single module (ZeRO-3 gathers it whole) */
};

/* The config `model_type` for a family ("llama"). Never NULL. */
const char *gs_family_name(enum gs_family family);

/* Maps a config `model_type` to a family; false when unsupported. */
bool gs_family_parse(const char *model_type, enum gs_family *out);

/* Whether transformers ties the output head to the embedding when the
 * config does not say (GemmaConfig: true; the others: false). */
bool gs_family_ties_by_default(enum gs_family family);

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
