/*
 * arch_build.h - builders that fill a struct gs_arch (gs/arch.h).
 *
 * Config readers describe a model with these: a block per kind of layer,
 * each with its modules, then which block each decoder layer is. The
 * composite builders add the modules a standard piece owns (an attention's
 * q/k/v/o projections, a gated MLP, routed experts with their router and
 * shared experts, DeepSeek's MLA), named as transformers names them, so a
 * reader states only what its architecture does differently. Nothing here
 * allocates: a description that outgrows its fixed arrays sets
 * arch->overflow, which gs_arch_validate refuses.
 */
#ifndef GS_ARCH_BUILD_H
#define GS_ARCH_BUILD_H

#include "gs/arch.h"

/* Zeroes *arch and sets what every model has. `logits` starts true. */
void gs_arch_init(struct gs_arch *arch, const char *model_type, uint64_t hidden_size,
                  uint64_t vocab_size);

/* A new, empty block; its index, or GS_BLOCKS_MAX (and arch->overflow) when full. */
size_t gs_arch_new_block(struct gs_arch *arch);

/* The block at `index`, or NULL. */
struct gs_block *gs_arch_block(struct gs_arch *arch, size_t index);

/* Makes the decoder `layers` deep, every layer block `block`. A depth over
 * GS_LAYERS_MAX is kept in num_hidden_layers and flagged for validation. */
void gs_arch_set_layers(struct gs_arch *arch, uint64_t layers, size_t block);

/* Makes decoder layer `layer` (already within the depth) block `block`. */
void gs_arch_set_layer(struct gs_arch *arch, uint64_t layer, size_t block);

/* Adds a module to the model (embeddings, final norms, head, projectors) or
 * to block `block`. */
void gs_arch_module(struct gs_arch *arch, const char *name, enum gs_module_kind kind,
                    enum gs_split split, enum gs_part part, unsigned flags, uint64_t in,
                    uint64_t out, uint64_t count);
void gs_block_module(struct gs_arch *arch, size_t block, const char *name,
                     enum gs_module_kind kind, enum gs_split split, enum gs_part part,
                     unsigned flags, uint64_t in, uint64_t out, uint64_t count);

/* The layers of block `block` share `copies` sets of weights (gs_arch.block_weight_layers). */
void gs_arch_share_block_weights(struct gs_arch *arch, size_t block, uint64_t copies);

/* Adds a tower of `layers` blocks `block` (see struct gs_tower). */
void gs_arch_tower(struct gs_arch *arch, const char *name, size_t block, enum gs_part part,
                   uint64_t layers, bool encoder);

/* The token embedding (V x width, flagged GS_MOD_TOKENS) and, unless tied,
 * the output head named `head_name` ("lm_head" in most models). */
void gs_arch_embeddings(struct gs_arch *arch, uint64_t width, const char *head_name, bool head_bias);

/* Norms over the hidden width: `count` in the block (or the model, with
 * block GS_BLOCKS_MAX), with a shift vector when `bias` (LayerNorm). */
void gs_build_norms(struct gs_arch *arch, size_t block, const char *name, uint64_t count,
                    bool bias);

/* Names of an attention's projections; `qkv` set means one fused projection. */
struct gs_attention_names {
    const char *q, *k, *v, *o, *qkv;
};
extern const struct gs_attention_names GS_ATTENTION_NAMES; /* q_proj, k_proj, v_proj, o_proj */

/* Attention: sets the block's mixer and spec and adds q/k/v/o (or the fused
 * qkv and o) with the given biases. v_head_dim 0 means head_dim. */
void gs_build_attention(struct gs_arch *arch, size_t block, const struct gs_attention *spec,
                        const struct gs_attention_names *names, bool qkv_bias, bool o_bias);

/* Multi-head latent attention as DeepSeek-V2/V3 build it (q_a_proj,
 * q_a_layernorm, q_b_proj or q_proj; kv_a_proj_with_mqa, kv_a_layernorm,
 * kv_b_proj; o_proj) and, when spec->index_heads, DeepSeek-V3.2's indexer
 * (wq_b, wk, k_norm with bias, weights_proj). */
void gs_build_mla(struct gs_arch *arch, size_t block, const struct gs_attention *spec, bool bias);

struct gs_mlp_names {
    const char *gate, *up, *down, *gate_up; /* gate_up set: one fused projection */
};
extern const struct gs_mlp_names GS_MLP_NAMES; /* gate_proj, up_proj, down_proj */
/* The routed experts' projections as the model code names them, each "experts." and the
 * nn.Linear's attribute (PEFT matches a target against the name's last part): */
extern const struct gs_mlp_names GS_EXPERT_NAMES;   /* experts.gate_proj, .up_proj, .down_proj */
extern const struct gs_mlp_names GS_EXPERT_NAMES_W; /* Mixtral's experts.w1 (gate), .w3 (up),
                                                       .w2 (down) */

/* A dense MLP: gated (gate, up, down) or plain (up, down). */
void gs_build_mlp(struct gs_arch *arch, size_t block, uint64_t width, bool gated, bool bias,
                  const struct gs_mlp_names *names);

/* A transformers release as gs_moe.router_linear_from/until and gs_framework_rules.hf_release
 * count it: major x 10,000 + minor x 100 + patch. */
#define GS_HF_RELEASE(major, minor, patch) ((uint32_t)((major)*10000u + (minor)*100u + (patch)))

/* transformers 5.0's MoE rework made the routers of Mixtral, MiniMax(-M2), the Qwen MoEs, OLMoE
 * and Ernie 4.5 a TopKRouter holding a bare weight (modeling_mixtral.py MixtralTopKRouter:
 * `self.weight = nn.Parameter(torch.empty(self.num_experts, self.hidden_dim))`, F.linear on
 * it; 4.x's `self.gate = nn.Linear(self.hidden_dim, self.num_experts, bias=False)`). */
#define GS_ROUTER_TOPK_FROM_5 GS_HF_RELEASE(5, 0, 0)

struct gs_moe {
    uint64_t experts, top_k, width;
    uint64_t zero_experts;   /* "zero-computation" experts the router scores beside the routed ones
                                (LongCat-Flash's zero_expert_num, identity experts): the router is
                                experts + zero_experts wide, and a token sent to one gets its own
                                input back, scaled by its weight - no parameters, no compute. Of a
                                token's top_k picks, as many as land on them use no weights */
    bool gated;              /* experts are gated MLPs (all current MoE models but Nemotron's) */
    bool expert_bias;        /* gpt-oss: biases on the experts' projections */
    bool router_bias;        /* a Linear bias on the router (gpt-oss) */
    uint64_t router_extra;   /* extra router parameters per layer (e_score_correction_bias when
                                transformers registers it as a parameter) */
    uint64_t router_buffer;  /* e_score_correction_bias values the checkpoint stores per layer
                                where transformers registers them as a buffer (GS_MOD_BUFFER) */
    uint64_t shared_width;   /* one shared MLP this wide; 0 = none */
    bool shared_gate;        /* Qwen-MoE: a sigmoid gate Linear(h, 1) on the shared expert */
    bool router_fp32;        /* the router casts its input and weight to fp32 (DeepSeek-V3's and
                                GLM-4.5's TopkRouter) */
    const char *router_name; /* "gate" when NULL */
    const struct gs_mlp_names *expert_names; /* GS_EXPERT_NAMES when NULL */
    bool router_parameter;   /* the router module holds its weight as a bare parameter in every
                                release (GptOssTopKRouter, DeepseekV3TopkRouter,
                                Glm4MoeTopkRouter: F.linear on self.weight), not an nn.Linear */
    bool experts_fused;      /* transformers keeps the experts as fused 3D parameters in every
                                release, 4.x too (GPT-OSS's GptOssExperts, Llama 4's
                                Llama4TextExperts), not only from 5.0 */
    uint32_t router_linear_from, router_linear_until; /* the transformers releases (REL:
                                major x 10,000 + minor x 100 + patch) whose model code makes the
                                router an nn.Linear, from the first up to the second (excluded;
                                0: every later one); outside them it is a TopKRouter holding a
                                bare weight (transformers 5.0's MixtralTopKRouter and its kin);
                                both 0: an nn.Linear in every release */
};

/* Routed experts (each a gated MLP of `width`), the router, shared experts. */
void gs_build_moe(struct gs_arch *arch, size_t block, const struct gs_moe *moe);

#endif
