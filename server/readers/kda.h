/*
 * kda.h - Kimi Delta Attention's layer as the readers describe it. Moonshot's
 * Kimi-Linear and Kimi K3 (kimi.c) and inclusionAI's Ling 3.0 (moe.c,
 * BailingMoeV3ForCausalLM) build the same mixer, with low-rank or full-rank
 * gates.
 *
 * A KDA layer keeps a fixed state per sequence (vLLM
 * MambaStateShapeCalculator.kda_state_shape): the short-convolution window
 * of q, k and v, 3 x heads x head_dim channels x (kernel - 1) in the model
 * dtype, and the recurrent state heads x head_dim x head_dim in fp32
 * (MambaStateDtypeCalculator.kda_state_dtype), heads split by tensor
 * parallelism.
 */
#ifndef GS_READERS_KDA_H
#define GS_READERS_KDA_H

#include "gs/arch_build.h"

#include <stdbool.h>
#include <stdint.h>

struct kda_spec {
    uint64_t heads, head_dim, kernel;
    bool full_rank_gate;   /* g_proj h -> heads x head_dim (K3, Ling 3.0), else g_a_proj h ->
                              head_dim and g_b_proj head_dim -> heads x head_dim */
    bool full_rank_forget; /* f_proj h -> heads x head_dim (Ling 3.0's no_kda_lora), else f_a_proj
                              and f_b_proj through head_dim */
    bool transformers;     /* transformers builds the layer itself (KimiLinearDeltaAttention), so
                              training counts its scan; remote code's layers (K3's
                              modeling_kimi_linear.py, Ling 3.0's fla kernels) are sized by their
                              projections */
};

/* Sets block `block`'s mixer to KDA with its state, and adds the layer's modules:
 * q/k/v_proj h -> heads x head_dim, a depthwise ShortConvolution (no bias) on each, A_log per
 * head, the forget gate's projection(s) with dt_bias over heads x head_dim, b_proj h -> heads
 * (beta), the output gate's projection(s), o_norm FusedRMSNormGated(head_dim) shared by the
 * heads, o_proj back to h. */
void kda_build(struct gs_arch *arch, size_t block, const struct kda_spec *spec);

#endif
