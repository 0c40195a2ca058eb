/*
 * latent_window.c - DeepSeek-V4's latent attention for the readers that share it (see
 * latent_window.h): transformers models/deepseek_v4/modeling_deepseek_v4.py
 * DeepseekV4Attention, DeepSeek's inference/model.py Attention, vLLM models/deepseek_v4 and
 * models/deepseek_v41 (fused_wqa_wkv replicated, wq_b and wo_a split by columns, wo_b by rows).
 */
#include "readers/latent_window.h"

#include <string.h>

bool latent_window_read(struct model_reader *r, uint64_t hidden, uint64_t heads,
                        struct latent_window *out)
{
    memset(out, 0, sizeof(*out));
    out->hidden = hidden;
    out->heads = heads;
    out->head_dim = rd_dim(r, NAMES("head_dim"), true, 0);
    out->rope = rd_dim(r, NAMES("qk_rope_head_dim"), false, 64);
    out->q_lora = rd_dim(r, NAMES("q_lora_rank"), true, 0);
    out->o_groups = rd_dim(r, NAMES("o_groups"), true, 0);
    out->o_lora = rd_dim(r, NAMES("o_lora_rank"), true, 0);
    out->window = rd_dim(r, NAMES("sliding_window"), false, 128);
    out->index_heads = rd_dim(r, NAMES("index_n_heads"), true, 0);
    out->index_head_dim = rd_dim(r, NAMES("index_head_dim"), true, 0);
    out->index_topk = rd_dim(r, NAMES("index_topk"), false, 512);
    out->streams = rd_dim(r, NAMES("hc_mult"), false, 4);
    if (r->ok && out->rope >= out->head_dim)
        rd_fail(r, "qk_rope_head_dim", GS_ERR_INVALID,
                "must be less than head_dim (%llu): the rotary part of each head",
                (unsigned long long)out->head_dim);
    if (r->ok && heads % out->o_groups != 0)
        rd_fail(r, "o_groups", GS_ERR_INVALID,
                "must divide num_attention_heads (%llu): the output projection groups heads",
                (unsigned long long)heads);
    return r->ok;
}

/* q_a h -> q_lora, its norm, q_b q_lora -> heads x head_dim (then an unweighted norm), one
 * shared key/value head kv h -> head_dim with its norm, the grouped output o_a (each of o_groups
 * groups of heads x head_dim / o_groups -> o_lora) and o_b o_groups x o_lora -> h, and a sink
 * logit per head. The cache: one head_dim entry per token, rope included (kv_lora + rope
 * below), for the window and for every compressed entry. */
void latent_window_build(struct gs_arch *a, size_t b, const struct latent_window *w, uint64_t ratio,
                         bool indexer, const struct latent_window_names *n)
{
    struct gs_block *blk = gs_arch_block(a, b);
    if (blk == NULL)
        return;
    const uint64_t h = w->hidden, q = w->heads * w->head_dim, d = w->head_dim;
    blk->mixer = GS_MIXER_MLA;
    blk->attn = (struct gs_attention){.heads = w->heads,
                                      .kv_heads = 1,
                                      .head_dim = d,
                                      .v_head_dim = d,
                                      .span = GS_SPAN_SLIDING,
                                      .window = w->window,
                                      .cached = true,
                                      .q_lora_rank = w->q_lora,
                                      .kv_lora_rank = d - w->rope,
                                      .qk_nope_head_dim = d - w->rope,
                                      .qk_rope_head_dim = w->rope,
                                      .compress_ratio = ratio};
    if (indexer) {
        blk->attn.index_heads = w->index_heads;
        blk->attn.index_head_dim = w->index_head_dim;
        blk->attn.index_topk = w->index_topk;
    }
    const unsigned f = GS_MOD_QUANT;
    gs_block_module(a, b, n->q_a, GS_MODULE_LINEAR, GS_SPLIT_NONE, GS_PART_ATTENTION, f, h,
                    w->q_lora, 1);
    gs_block_module(a, b, n->q_norm, GS_MODULE_NORM, GS_SPLIT_NONE, GS_PART_ATTENTION, 0, 1,
                    w->q_lora, 1);
    gs_block_module(a, b, n->q_b, GS_MODULE_LINEAR, GS_SPLIT_COLUMN, GS_PART_ATTENTION, f,
                    w->q_lora, q, 1);
    gs_block_module(a, b, n->kv, GS_MODULE_LINEAR, GS_SPLIT_NONE, GS_PART_ATTENTION, f, h, d, 1);
    gs_block_module(a, b, n->kv_norm, GS_MODULE_NORM, GS_SPLIT_NONE, GS_PART_ATTENTION, 0, 1, d, 1);
    gs_block_module(a, b, n->o_a, GS_MODULE_LINEAR, GS_SPLIT_COLUMN, GS_PART_ATTENTION, f,
                    q / w->o_groups, w->o_groups * w->o_lora, 1);
    gs_block_module(a, b, n->o_b, GS_MODULE_LINEAR, GS_SPLIT_ROW, GS_PART_ATTENTION, f,
                    w->o_groups * w->o_lora, h, 1);
    gs_block_module(a, b, n->sinks, GS_MODULE_TENSOR, GS_SPLIT_COLUMN, GS_PART_ATTENTION,
                    GS_MOD_FP32, 1, w->heads, 1);
}
