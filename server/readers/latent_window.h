/*
 * latent_window.h - DeepSeek-V4's latent attention as the DeepSeek-V4 and DeepSeek-V4.1 readers
 * (sparse_attention.c, deepseek_v41.c) both build it: one latent head of head_dim with its rope
 * part, a q LoRA, a grouped output LoRA, a sink per head, a sliding window and compressed
 * entries beside it.
 */
#ifndef GS_READERS_LATENT_WINDOW_H
#define GS_READERS_LATENT_WINDOW_H

#include "readers/reader.h"

struct latent_window {
    uint64_t hidden, heads, head_dim, rope, q_lora, o_groups, o_lora, window;
    uint64_t index_heads, index_head_dim, index_topk;
    uint64_t streams; /* hc_mult residual streams */
};

/* Reads head_dim, qk_rope_head_dim, q_lora_rank, o_groups, o_lora_rank, sliding_window,
 * index_n_heads, index_head_dim, index_topk and hc_mult for a model `hidden` wide with `heads`
 * heads, and checks that the rope part is inside a head and the groups divide the heads. */
bool latent_window_read(struct model_reader *r, uint64_t hidden, uint64_t heads,
                        struct latent_window *out);

/* The modules' names: the query LoRA and its norm, the query up-projection, the latent's
 * projection and norm, the grouped output LoRA, the sinks. */
struct latent_window_names {
    const char *q_a, *q_norm, *q_b, *kv, *kv_norm, *o_a, *o_b, *sinks;
};

/* Sets block `b`'s attention - MLA over one latent head, the window, one compressed entry per
 * `ratio` tokens beside it (0: none), an indexer with keys of its own when `indexer` - and adds
 * its projections (fp8-quantizable; q_b and o_a split by columns, o_b by rows, the rest
 * replicated) and the sinks, fp32 whatever the weights' format as DeepSeek's checkpoints store
 * them and the engines keep them (vLLM DeepseekV4Attention.attn_sink, dtype=torch.float32). */
void latent_window_build(struct gs_arch *a, size_t b, const struct latent_window *w, uint64_t ratio,
                         bool indexer, const struct latent_window_names *names);

#endif
