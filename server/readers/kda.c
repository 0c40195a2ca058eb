/*
 * kda.c - Kimi Delta Attention's layer (see kda.h).
 */
#include "readers/kda.h"

static void kda_linear(struct gs_arch *a, size_t b, const char *name, enum gs_split split,
                       uint64_t in, uint64_t out)
{
    gs_block_module(a, b, name, GS_MODULE_LINEAR, split, GS_PART_ATTENTION, GS_MOD_QUANT, in, out,
                    1);
}

static void kda_tensor(struct gs_arch *a, size_t b, const char *name, uint64_t rows, uint64_t cols)
{
    gs_block_module(a, b, name, GS_MODULE_TENSOR, GS_SPLIT_COLUMN, GS_PART_ATTENTION, 0, rows, cols,
                    1);
}

/* Moonshot's KimiDeltaAttention (the checkpoints' modeling_kimi.py; transformers 5
 * models/kimi_linear) and Ling 3.0's BailingMoeV3KimiDeltaAttention (vLLM
 * models/bailing_moe_v3.py; its no_kda_lora layer projects the forget gate and the output gate
 * at full rank, f_proj and g_proj h -> heads x head_dim). vLLM splits the projections and
 * per-head tensors by tensor rank and replicates the low-rank f_a_proj and g_a_proj
 * (layers/kda.py). */
void kda_build(struct gs_arch *a, size_t b, const struct kda_spec *k)
{
    struct gs_block *blk = gs_arch_block(a, b);
    if (blk == NULL)
        return;
    const uint64_t h = a->hidden_size, d = k->head_dim, n = k->heads, p = n * d;
    blk->mixer = GS_MIXER_RECURRENT;
    /* in_width: q, k, v, the forget gate and the output gate, plus beta */
    blk->rec = (struct gs_recurrent){.conv_channels = 3 * p,
                                     .conv_kernel = k->kernel,
                                     .state_heads = n,
                                     .state_rows = d,
                                     .state_cols = d,
                                     .in_width = 5 * p + n,
                                     .inner = p,
                                     .fp32_state = true,
                                     .delta_rule = true,
                                     .ssm_flag_ignored = true};
    blk->rec.scan = k->transformers ? GS_SCAN_KIMI_DELTA : GS_SCAN_PROJECTIONS;
    kda_linear(a, b, "q_proj", GS_SPLIT_COLUMN, h, p);
    kda_linear(a, b, "k_proj", GS_SPLIT_COLUMN, h, p);
    kda_linear(a, b, "v_proj", GS_SPLIT_COLUMN, h, p);
    kda_tensor(a, b, "q_conv1d", k->kernel, p);
    kda_tensor(a, b, "k_conv1d", k->kernel, p);
    kda_tensor(a, b, "v_conv1d", k->kernel, p);
    kda_tensor(a, b, "A_log", 1, n);
    if (k->full_rank_forget) {
        kda_linear(a, b, "f_proj", GS_SPLIT_COLUMN, h, p);
    } else {
        kda_linear(a, b, "f_a_proj", GS_SPLIT_NONE, h, d);
        kda_linear(a, b, "f_b_proj", GS_SPLIT_COLUMN, d, p);
    }
    kda_tensor(a, b, "dt_bias", 1, p);
    kda_linear(a, b, "b_proj", GS_SPLIT_COLUMN, h, n);
    if (k->full_rank_gate) {
        kda_linear(a, b, "g_proj", GS_SPLIT_COLUMN, h, p);
    } else {
        kda_linear(a, b, "g_a_proj", GS_SPLIT_NONE, h, d);
        kda_linear(a, b, "g_b_proj", GS_SPLIT_COLUMN, d, p);
    }
    gs_block_module(a, b, "o_norm", GS_MODULE_NORM, GS_SPLIT_NONE, GS_PART_ATTENTION, 0, 1, d, 1);
    kda_linear(a, b, "o_proj", GS_SPLIT_ROW, p, h);
}
