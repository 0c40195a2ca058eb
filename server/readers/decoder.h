/*
 * decoder.h - the Llama-style decoder reader the model-type readers share.
 *
 * Most decoders since Llama differ only in a handful of traits: biases,
 * norms (how many, LayerNorm or RMSNorm, q/k norms), fused projections,
 * which layers attend through a window, which route to experts. A reader
 * states its traits, reads its layer pattern into a plan, and
 * decoder_build turns the plan into blocks - one per distinct kind of
 * layer - and the model-level modules.
 */
#ifndef GS_MODELS_DECODER_H
#define GS_MODELS_DECODER_H

#include "readers/reader.h"

enum qk_norm {
    QK_NONE,
    QK_HEAD, /* RMSNorm(head_dim) on q and on k (Qwen3, Gemma 3, GLM-4.5) */
    QK_FULL, /* a norm over all of q (heads*d) and all of k (kv_heads*d) (OLMo 2, OLMoE) */
    QK_HEADS /* one weight per head and dim (Cohere, StableLM: heads*d and kv_heads*d) */
};

struct decoder_traits {
    unsigned norms;          /* norms over the hidden width per layer */
    bool norm_bias;          /* LayerNorm weight + bias (else RMSNorm / weight-only) */
    uint8_t qk_norm;         /* enum qk_norm */
    bool qkv_bias, o_bias, mlp_bias;
    bool head_bias;          /* lm_head with a bias (PhiMoE) */
    bool sinks;              /* a learned sink logit per head (gpt-oss) */
    const struct gs_attention_names *attn_names; /* GS_ATTENTION_NAMES when NULL */
    const struct gs_mlp_names *mlp_names;        /* GS_MLP_NAMES when NULL */
    const char *head_name;   /* "lm_head" when NULL */
    bool plain_mlp;          /* the dense MLP is up and down only, no gate (Apertus) */
    bool parallel;           /* attention and MLP in parallel off the layer's input
                                (gs_block.parallel_residual) */
    uint64_t act_params;     /* parameters of a learned activation, per layer (Apertus xIELU) */
};

/* A dense MLP whose gate and up projections are one nn.Linear 2 x intermediate wide
 * (gate_up_proj, then down_proj: Phi-3, GLM). */
extern const struct gs_mlp_names DECODER_GATE_UP_NAMES;

/* What the config says about the stack. Fill with decoder_read_dims, then
 * set the per-layer flags. */
struct decoder_plan {
    uint64_t layers, heads, kv_heads, head_dim, intermediate;
    uint64_t window;             /* sliding window or chunk size */
    bool sliding[GS_LAYERS_MAX]; /* this layer attends through the window */
    bool chunked;                /* windowed layers are chunked (Llama 4), not sliding */
    bool moe[GS_LAYERS_MAX];     /* this layer routes to experts */
    struct gs_moe experts;       /* their shape */
    uint64_t gated_norm_rank;    /* A.X-K2's gated RMSNorms' gate width (gated_norm_rank) */
};

/* Reads hidden_size, vocab_size, num_hidden_layers, heads, KV heads,
 * head_dim (default hidden / heads, or `head_dim` when non-zero), the MLP
 * width (required unless `intermediate_optional`), max positions, tie
 * (default `tie`) and dropouts; starts the arch. */
void decoder_read_dims(struct model_reader *r, struct gs_arch *a, struct decoder_plan *plan,
                       bool tie, uint64_t head_dim, bool intermediate_optional);

/* Llama's layer with an ungated MLP (up and down under `mlp`'s names, hidden_act between them),
 * biases where attention_bias and mlp_bias say, untied: Arcee's AFM (NemotronMLP's up_proj and
 * down_proj) and Cosmos 3 Edge's text model (fc1, fc2); `head_dim` as decoder_read_dims takes it.
 */
void decoder_read_ungated(struct model_reader *r, struct gs_arch *a, const struct gs_mlp_names *mlp,
                          uint64_t head_dim);

/* DeepSeek's multi-head latent attention as its configs name it (DeepseekV2Config): q_lora_rank
 * (absent or 0: the query uncompressed), kv_lora_rank, qk_nope_head_dim, qk_rope_head_dim and
 * v_head_dim (required); `heads` heads, cached. `s` is cleared first. */
void decoder_read_mla(struct model_reader *r, struct gs_attention *s, uint64_t heads);
/* DeepSeek-V3.2's lightning indexer (DeepseekV32Config): index_n_heads and index_head_dim
 * (required), and index_topk, the tokens each query attends (`topk_default` when absent). */
void decoder_read_indexer(struct model_reader *r, struct gs_attention *s, uint64_t topk_default);

/* Layer patterns as configs state them. */
/* layer_types ["sliding_attention", "full_attention", "chunked_attention", ...]:
 * true when present (and the plan's sliding[] filled). */
bool decoder_read_layer_types(struct model_reader *r, struct decoder_plan *plan);
/* Every `pattern`-th layer full, the others windowed: (l + 1) % pattern != 0. */
void decoder_window_pattern(struct decoder_plan *plan, uint64_t pattern);
/* Every layer windowed. */
void decoder_window_all(struct decoder_plan *plan);

/* Routed experts read under the usual names (num_local_experts /
 * num_experts / n_routed_experts, num_experts_per_tok, moe_intermediate_size
 * or intermediate_size when `width_is_intermediate`). */
void decoder_read_experts(struct model_reader *r, struct decoder_plan *plan,
                          bool width_is_intermediate);
/* Layers l with (l + 1) % step == 0 route, except those in mlp_only_layers. */
void decoder_moe_every(struct model_reader *r, struct decoder_plan *plan, uint64_t step);
/* Layers from `first_dense` on route (DeepSeek's first_k_dense_replace). */
void decoder_moe_from(struct decoder_plan *plan, uint64_t first_dense);

/* Builds the blocks, the layer map, the embeddings, the final norm and the
 * head. Returns the index of the first block built. */
void decoder_build(struct model_reader *r, struct gs_arch *a, const struct decoder_plan *plan,
                   const struct decoder_traits *traits);

/* The checkpoint's `layers` multi-token-prediction layers (DeepSeek-style
 * num_nextn_predict_layers: a routed decoder layer of the plan plus enorm,
 * hnorm, eh_proj (2h -> h), the shared head's norm, and copies of the
 * embedding and head), reported as the mtp tower; transformers does not
 * build them, vLLM's MTP drafter does (gs_weights_mtp_bytes). */
void decoder_build_mtp(struct model_reader *r, struct gs_arch *a, const struct decoder_plan *plan,
                       const struct decoder_traits *traits, uint64_t layers);

/* What surrounds an MTP layer's decoder block `b` in the DeepSeek-style drafters (vLLM
 * deepseek_mtp.py, glm4_moe_mtp.py, step3p5_mtp.py): enorm and hnorm, eh_proj (2h -> h, whole on
 * every rank), the shared head's norm, an embedding copy where the checkpoint stores one, and the
 * shared head `head_name` (split by vocabulary); then the mtp tower of `layers` such layers. */
void decoder_mtp_fusion(struct gs_arch *a, size_t b, bool embedding, const char *head_name,
                        uint64_t layers);

/* The norm and q/k-norm modules of a traits set, added to `block`. */
void decoder_add_norms(struct gs_arch *a, size_t block, const struct decoder_plan *plan,
                       const struct decoder_traits *traits);

#endif
