/*
 * inference.c - KV cache layout, paged sequence bytes, and the serving
 * budget run through the engine's module (see gs/inference.h and
 * gs/engine.h; sources in docs/vllm-kv-budget-research.md and docs/engines.md). No
 * engine is named here.
 */
#include "gs/inference.h"

#include "gs/engines.h"
#include "gs/model_support.h"

#include "gs/units.h"

#include <string.h>

static const char *const kv_names[GS_KV_COUNT] = {
    [GS_KV_AUTO] = "auto",
    [GS_KV_BF16] = "bf16",
    [GS_KV_FP16] = "fp16",
    [GS_KV_FP8] = "fp8",
    [GS_KV_FP8_E5M2] = "fp8_e5m2",
    [GS_KV_INT8_PER_TOKEN_HEAD] = "int8_per_token_head",
    [GS_KV_FP8_PER_TOKEN_HEAD] = "fp8_per_token_head",
    [GS_KV_FP8_DS_MLA] = "fp8_ds_mla",
    [GS_KV_INT8] = "int8",
    [GS_KV_NVFP4_DS_MLA] = "nvfp4_ds_mla",
};

const char *gs_kv_dtype_name(enum gs_kv_dtype d)
{
    return d < GS_KV_COUNT ? kv_names[d] : "auto";
}

enum gs_kv_dtype gs_kv_fp8_for(const struct gs_arch *arch)
{
    return gs_arch_has_sparse_mla(arch) ? GS_KV_FP8_DS_MLA : GS_KV_FP8;
}

static uint64_t ceil_div(uint64_t n, uint64_t d)
{
    return gs_div_ceil(n, d ? d : 1);
}

static uint64_t kv_element_bytes(enum gs_kv_dtype dtype, uint64_t model_bytes)
{
    switch (dtype) {
    case GS_KV_BF16:
    case GS_KV_FP16:
        return 2;
    case GS_KV_FP8:
    case GS_KV_FP8_E5M2:
    case GS_KV_INT8_PER_TOKEN_HEAD:
    case GS_KV_FP8_PER_TOKEN_HEAD:
    case GS_KV_FP8_DS_MLA:
    case GS_KV_NVFP4_DS_MLA:
    case GS_KV_INT8:
        return 1;
    case GS_KV_AUTO:
    case GS_KV_COUNT:
        break;
    }
    return model_bytes;
}

/* DeepSeek-V3.2's indexer keeps its keys in fp8 with one fp32 scale per 128
 * values (vLLM DeepseekV32IndexerCache: head_size = index_head_dim +
 * index_head_dim / 128 * 4, uint8), whatever the KV dtype; one per layer,
 * replicated on every tensor rank. */
static uint64_t indexer_bytes(const struct gs_attention *s)
{
    return s->index_head_dim + s->index_head_dim / 128 * 4;
}

/* DeepSeek-V4's attention: latent (MLA) layers that keep a sliding window of raw entries. */
static bool compressed_mla(const struct gs_block *b)
{
    return b->mixer == GS_MIXER_MLA && b->attn.span == GS_SPAN_SLIDING && b->attn.window > 0;
}

/* Whether any layer keeps DeepSeek-V4's windowed latent entries. */
static bool has_compressed_mla(const struct gs_arch *a)
{
    for (size_t b = 0; b < a->block_count; b++)
        if (compressed_mla(&a->blocks[b]))
            return true;
    return false;
}

/* A compressed entry of nvfp4_ds_mla (vLLM flash_mla_mega_attn.py: "288 V4.1 NVFP4"): 512
 * e2m1 values two a byte and an e4m3 scale a 16 (`one` bytes a window entry otherwise). */
static uint64_t compressed_entry_bytes(enum gs_kv_dtype dtype, uint64_t one)
{
    return dtype == GS_KV_NVFP4_DS_MLA ? 288 : one;
}

/* Bytes one token adds to one layer of this block on one GPU (0 for
 * recurrent and encoder-only layers). */
static uint64_t attention_token_bytes(const struct gs_block *b, enum gs_kv_dtype dtype,
                                      uint64_t e, uint64_t t, bool *ovf)
{
    const struct gs_attention *s = &b->attn;
    /* MLAAttentionSpec: one latent head on every tensor rank. fp8_ds_mla entries are the
     * latent in fp8 with an fp32 scale a 128 of its values and the rotary part in bf16 - 656
     * bytes for V3.2 and GLM-5 (512 fp8 + 4 scales + 64 bf16 rope), 528 for GLM-5.3-Flash, whose
     * latent has no rotary part - or, for DeepSeek-V4, 584 (448 fp8 nope + 64 bf16 rope + 8 scale
     * bytes; kv_cache_interface.py real_page_size_bytes) */
    if (b->mixer == GS_MIXER_MLA && dtype == GS_KV_FP8_DS_MLA)
        return compressed_mla(b) ? 584
                                 : gs_add(s->kv_lora_rank + s->kv_lora_rank / 128 * 4,
                                          gs_mul(s->qk_rope_head_dim, 2, ovf), ovf);
    /* vllm/models/deepseek_v41/attention.py swa_bytes_per_token: 528 with the V4.1 MXFP8
     * record (512 fp8 values, rope included, and 16 e8m0 scales), which nvfp4_ds_mla keeps for
     * the window (its compressed entries: compressed_entry_bytes) */
    if (b->mixer == GS_MIXER_MLA && dtype == GS_KV_NVFP4_DS_MLA)
        return 528;
    if (b->mixer == GS_MIXER_MLA)
        return gs_mul(s->kv_lora_rank + s->qk_rope_head_dim, e, ovf);
    if (b->mixer != GS_MIXER_ATTENTION)
        return 0;
    /* get_num_kv_heads: max(1, k // t), heads replicated past the tensor degree */
    const uint64_t per_gpu = s->kv_heads >= t ? s->kv_heads / t : 1;
    uint64_t bytes = gs_mul(gs_mul(per_gpu, s->head_dim + s->v_head_dim, ovf), e, ovf);
    if (dtype == GS_KV_INT8_PER_TOKEN_HEAD || dtype == GS_KV_FP8_PER_TOKEN_HEAD)
        bytes = gs_add(bytes, gs_mul(8, per_gpu, ovf), ovf);
    return bytes;
}

/* One layer's state: the conv window (channels x (kernel - 1)) in `conv_bytes` an element and
 * the recurrent state (heads x rows x cols) in `state_bytes` (each 0: the config's
 * config_state_bytes, else fp32 where fp32_state, else the model dtype `e`), channels and heads
 * split by tensor parallelism (vLLM MambaStateShapeCalculator, SGLang Mamba2StateShape). */
static uint64_t state_bytes(const struct gs_recurrent *r, uint64_t e, uint64_t conv_bytes,
                            uint64_t state_element, uint64_t t, bool *ovf)
{
    const uint64_t conv =
        gs_mul(gs_mul(ceil_div(r->conv_channels, t), r->conv_kernel ? r->conv_kernel - 1 : 0, ovf),
               conv_bytes ? conv_bytes : e, ovf);
    const uint64_t element = state_element
                                 ? (r->config_state_bytes ? r->config_state_bytes : state_element)
                                 : (r->fp32_state ? 4 : e);
    const uint64_t state = gs_mul(gs_mul(ceil_div(r->state_heads, t), r->state_rows, ovf),
                                  gs_mul(r->state_cols ? r->state_cols : 1, element, ovf), ovf);
    return gs_add(conv, state, ovf);
}

bool gs_state_dtype_reaches(const struct gs_state_dtypes *d, const struct gs_recurrent *r)
{
    return d->given &&
           (d->reach == GS_STATE_REACH_ALL ||
            (!r->ssm_flag_ignored && (d->reach == GS_STATE_REACH_SSM || !r->delta_rule)));
}

uint64_t gs_kv_state_bytes(const struct gs_arch *a, uint64_t t, const struct gs_state_dtypes *d,
                           uint64_t *layers, bool *ovf)
{
    uint64_t counts[GS_BLOCKS_MAX];
    gs_arch_count_blocks(a, 0, a->num_hidden_layers, counts);
    uint64_t sum = 0;
    *layers = 0;
    for (size_t i = 0; i < a->block_count; i++) {
        struct gs_recurrent r = a->blocks[i].rec;
        if (counts[i] == 0 || (r.conv_channels == 0 && r.state_heads == 0))
            continue;
        uint64_t element = d->state;
        if (gs_state_dtype_reaches(d, &r)) {
            r.config_state_bytes = (uint8_t)d->given; /* the request's dtype wins */
            element = d->given;
        } else if (d->key == GS_STATE_KEY_CACHE) {
            r.config_state_bytes = r.cache_dtype_bytes;
        } else if (d->key == GS_STATE_KEY_NONE) {
            r.config_state_bytes = 0;
        }
        sum = gs_add(
            sum, gs_mul(state_bytes(&r, d->conv, d->conv, element, t, ovf), counts[i], ovf), ovf);
        *layers += counts[i];
    }
    return sum;
}

static void add_window(struct gs_kv_layout *out, const struct gs_attention *s, uint64_t layers,
                       uint64_t bytes, bool *ovf)
{
    const bool chunked = s->span == GS_SPAN_CHUNKED;
    for (size_t i = 0; i < out->window_count; i++) {
        struct gs_kv_window *w = &out->windows[i];
        if (w->window == s->window && w->chunked == chunked) {
            w->layers += layers;
            w->token_bytes = gs_add(w->token_bytes, bytes, ovf);
            return;
        }
    }
    if (out->window_count < GS_BLOCKS_MAX)
        out->windows[out->window_count++] =
            (struct gs_kv_window){s->window, chunked, layers, bytes, 0, 0};
    if (s->window > out->sliding_window)
        out->sliding_window = s->window;
}

/* A kv-shared block's layers (gs_kv_layout's shared fields): with their window kind, else with
 * the full layers. */
static void add_shared(struct gs_kv_layout *out, const struct gs_attention *s, uint64_t layers,
                       uint64_t bytes, bool *ovf)
{
    const bool windowed = s->span != GS_SPAN_FULL && s->window != 0;
    const bool chunked = s->span == GS_SPAN_CHUNKED;
    for (size_t i = 0; windowed && i < out->window_count; i++) {
        struct gs_kv_window *w = &out->windows[i];
        if (w->window == s->window && w->chunked == chunked) {
            w->shared_layers += layers;
            w->shared_token_bytes = gs_add(w->shared_token_bytes, bytes, ovf);
            return;
        }
    }
    out->shared_full_layers += layers;
    out->shared_full_token_bytes = gs_add(out->shared_full_token_bytes, bytes, ovf);
}

/* What the kv-shared layers of `kv` would hold a token on this GPU. */
static uint64_t shared_bytes(const struct gs_kv_layout *kv, bool *ovf)
{
    uint64_t all = kv->shared_full_token_bytes;
    for (size_t i = 0; i < kv->window_count; i++)
        all = gs_add(all, kv->windows[i].shared_token_bytes, ovf);
    return all;
}

void gs_kv_layout_with_shared(struct gs_kv_layout *kv)
{
    bool ovf = false; /* sums of figures the layout computed without overflow */
    const uint64_t all = shared_bytes(kv, &ovf);
    kv->full_layers += kv->shared_full_layers;
    kv->full_token_bytes = gs_add(kv->full_token_bytes, kv->shared_full_token_bytes, &ovf);
    for (size_t i = 0; i < kv->window_count; i++) {
        struct gs_kv_window *w = &kv->windows[i];
        w->layers += w->shared_layers;
        w->token_bytes = gs_add(w->token_bytes, w->shared_token_bytes, &ovf);
        kv->window_layers += w->shared_layers;
        w->shared_layers = w->shared_token_bytes = 0;
    }
    kv->bytes_per_token = gs_add(kv->bytes_per_token, all, &ovf);
    kv->bytes_per_token_total =
        gs_add(kv->bytes_per_token_total, kv->shared_token_bytes_total, &ovf);
    kv->shared_full_layers = kv->shared_full_token_bytes = kv->shared_token_bytes_total = 0;
    (void)ovf;
}

void gs_kv_layout_with_unpooled_indexer(struct gs_kv_layout *kv)
{
    bool ovf = false; /* a sum of figures the layout computed without overflow */
    kv->indexer_token_bytes = gs_add(kv->indexer_token_bytes, kv->indexer_pooled_token_bytes, &ovf);
    kv->indexer_pooled_token_bytes = 0;
    (void)ovf;
}

void gs_kv_layout_with_shared_indexer(struct gs_kv_layout *kv)
{
    bool ovf = false; /* a sum of figures the layout computed without overflow */
    kv->indexer_token_bytes = gs_add(kv->indexer_token_bytes, kv->indexer_shared_token_bytes, &ovf);
    kv->indexer_shared_layers = kv->indexer_shared_token_bytes = 0;
    (void)ovf;
}

/* The attention of the first DeepSeek sparse-attention block with an indexer of its own (NULL:
 * none): the keys a shared-indexer layer would hold are that indexer's. */
static const struct gs_attention *own_indexer(const struct gs_arch *a)
{
    for (size_t i = 0; i < a->block_count; i++)
        if (a->blocks[i].mixer == GS_MIXER_MLA && a->blocks[i].attn.index_heads &&
            !compressed_mla(&a->blocks[i]))
            return &a->blocks[i].attn;
    return NULL;
}

/* The layout of decoder layers [first, end) on one GPU. */
static void stage_layout(const struct gs_arch *a, enum gs_kv_dtype dtype, uint64_t e, uint64_t m,
                         uint64_t t, uint64_t first, uint64_t end, bool pad_mla,
                         struct gs_kv_layout *out, bool *ovf)
{
    uint64_t counts[GS_BLOCKS_MAX];
    gs_arch_count_blocks(a, first, end, counts);
    memset(out, 0, sizeof(*out));
    for (size_t i = 0; i < a->block_count; i++) {
        const struct gs_block *b = &a->blocks[i];
        const uint64_t n = counts[i];
        if (n == 0)
            continue;
        /* a recurrent mixer's state; a parallel hybrid (Falcon-H1: attention and Mamba-2 side
         * by side in one layer) holds both the state and the attention cache */
        const bool has_state = b->rec.conv_channels != 0 || b->rec.state_heads != 0;
        if (has_state) {
            out->state_rows_per_token = (b->rec.delta_rule || b->rec.mamba2) &&
                                        (out->recurrent_layers == 0 || out->state_rows_per_token);
            out->recurrent_layers += n;
            out->state_bytes_per_sequence =
                gs_add(out->state_bytes_per_sequence,
                       gs_mul(state_bytes(&b->rec, m, 0, 0, t, ovf), n, ovf), ovf);
            if (b->rec.conv_kernel)
                out->conv_row_bytes =
                    gs_add(out->conv_row_bytes,
                           gs_mul(gs_mul(ceil_div(b->rec.conv_channels, t), m, ovf), n, ovf), ovf);
        }
        if (b->mixer == GS_MIXER_RECURRENT)
            continue;
        uint64_t one = attention_token_bytes(b, dtype, e, t, ovf);
        if (pad_mla && b->mixer == GS_MIXER_MLA && dtype != GS_KV_FP8_DS_MLA &&
            dtype != GS_KV_NVFP4_DS_MLA)
            one = gs_div_ceil(one, 256) * 256; /* align_to_256bytes */
        if (one == 0 || (!b->attn.cached && b->mixer == GS_MIXER_ATTENTION))
            continue; /* encoder-only attention: no cache (EncoderOnlyAttentionSpec) */
        if (b->attn.kv_shared) {
            /* reads an earlier layer's cache: vLLM gives a layer with a
             * kv_sharing_target_layer_name no KV cache spec of its own; what it would hold is
             * kept apart (gs_kv_layout_with_shared) */
            add_shared(out, &b->attn, n, gs_mul(one, n, ovf), ovf);
            continue;
        }
        if (out->layer_token_bytes == 0)
            out->layer_token_bytes = one;
        const uint64_t bytes = gs_mul(one, n, ovf);
        if (b->attn.cross)
            out->cross_token_bytes = gs_add(out->cross_token_bytes, bytes, ovf);
        if (b->attn.cross && b->attn.cross_only)
            continue; /* CrossAttentionSpec only: nothing per decoder token */
        out->bytes_per_token = gs_add(out->bytes_per_token, bytes, ovf);
        /* DeepSeek-V4 (deepseek_v4_attention.py): one compressed entry per compress_ratio
         * tokens (MLAAttentionSpec compress_ratio: a page of block_size tokens stores
         * block_size / ratio entries), and the indexer one key per entry; whole bytes per
         * token over the block's layers, rounded up */
        const uint64_t ratio = compressed_mla(b) ? b->attn.compress_ratio : 0;
        /* DeepSeek sparse attention reads index_topk entries of these layers a step, and
         * MiniMax-M3's sparse GQA layers index_topk tokens (sparse_topk_blocks x
         * sparse_block_size, the query's own block among them: vLLM
         * models/minimax_m3/common/ops/sparse_attn.py reads each KV head's selected blocks) */
        const bool topk = gs_block_selects_topk(b) && b->attn.index_topk;
        if (topk) {
            const uint64_t spans = gs_mul(b->attn.index_topk, ratio ? ratio : 1, ovf);
            if (spans > out->topk_tokens)
                out->topk_tokens = spans;
        }
        if (ratio > 0) {
            const uint64_t compressed =
                gs_div_ceil(gs_mul(compressed_entry_bytes(dtype, one), n, ovf), ratio);
            out->bytes_per_token = gs_add(out->bytes_per_token, compressed, ovf);
            out->full_token_bytes = gs_add(out->full_token_bytes, compressed, ovf);
            if (topk)
                out->topk_token_bytes = gs_add(out->topk_token_bytes, compressed, ovf);
        }
        /* DeepSeek-V4.1: what a reading layer selects from its source's cache each step */
        if (compressed_mla(b) && b->attn.read_ratio > 0 && b->attn.read_ratio < GS_KV_READ_RATIOS) {
            uint64_t *r = &out->read_entry_bytes[b->attn.read_ratio];
            *r = gs_add(*r, gs_mul(compressed_entry_bytes(dtype, one), n, ovf), ovf);
            if (b->attn.read_topk > out->read_topk)
                out->read_topk = b->attn.read_topk;
        }
        /* GLM-5.3-Flash's kpool indexer: one key a pool of index_pool tokens (vLLM
         * models/glm5next/nvidia/attention.py: the indexer cache spec's tokens_per_state =
         * index_kpool, its storage block block_size / index_kpool entries) */
        if (b->mixer == GS_MIXER_MLA && b->attn.index_heads && !b->attn.index_keys_shared) {
            const uint64_t keys = gs_mul(indexer_bytes(&b->attn), n, ovf);
            const uint64_t pool = ratio ? ratio : b->attn.index_pool ? b->attn.index_pool : 1;
            const uint64_t kept = gs_div_ceil(keys, pool);
            out->indexer_token_bytes = gs_add(out->indexer_token_bytes, kept, ovf);
            if (!ratio)
                out->indexer_pooled_token_bytes =
                    gs_add(out->indexer_pooled_token_bytes, keys - kept, ovf);
        }
        /* a layer reusing an earlier layer's top-k: no keys (kept apart) */
        const struct gs_attention *own =
            b->mixer == GS_MIXER_MLA && b->attn.index_topk && !b->attn.index_heads && !ratio
                ? own_indexer(a)
                : NULL;
        if (own != NULL) {
            out->indexer_shared_layers += n;
            out->indexer_shared_token_bytes =
                gs_add(out->indexer_shared_token_bytes, gs_mul(indexer_bytes(own), n, ovf), ovf);
        }
        /* MiniMax-M3's indexer beside GQA attention: one key head of index_head_dim per
         * token, bf16 whatever the KV dtype (vLLM MiniMaxM3IndexerCache, indexer_kv_dtype
         * "bf16" by default), replicated on every tensor rank. Qwen3.8-Flash-Next's QSA
         * indexer keeps one such key a pool of index_pool tokens, their mean (vLLM
         * models/qwen4_exp common/qsa_cache.py QSACompressedKeyCache: tokens_per_state =
         * indexer_compress_ratio, indexer dtype bf16 by default; SGLang's QSATokenToKVPool
         * (size + page) / ratio keys a layer) */
        if (b->mixer == GS_MIXER_ATTENTION && b->attn.index_heads)
            out->indexer_token_bytes =
                gs_add(out->indexer_token_bytes,
                       gs_div_ceil(gs_mul(2 * b->attn.index_head_dim, n, ovf),
                                   b->attn.index_pool ? b->attn.index_pool : 1),
                       ovf);
        if (b->attn.span == GS_SPAN_FULL || b->attn.window == 0) {
            out->full_layers += n;
            out->full_token_bytes = gs_add(out->full_token_bytes, bytes, ovf);
            if (topk)
                out->topk_token_bytes = gs_add(out->topk_token_bytes, bytes, ovf);
        } else {
            out->window_layers += n;
            add_window(out, &b->attn, n, bytes, ovf);
        }
    }
}

static enum gs_status layout(const struct gs_arch *a, enum gs_kv_dtype dtype, uint64_t model_bytes,
                             uint64_t t, uint64_t p, uint64_t only, bool pad_mla,
                             const struct gs_stage_plan *stages, struct gs_kv_layout *out,
                             struct gs_error *err)
{
    bool ovf = false;
    memset(out, 0, sizeof(*out));
    t = t ? t : 1;
    p = p ? p : 1;
    const bool mla = gs_arch_has_mla(a);
    if (dtype == GS_KV_FP8_DS_MLA && !mla)
        return gs_error_add(err, GS_ERR_INVALID, "/inference/kv_cache_dtype",
                            "fp8_ds_mla is DeepSeek's MLA cache; %s has no latent attention",
                            a->model_type);
    if (dtype == GS_KV_NVFP4_DS_MLA && !has_compressed_mla(a))
        return gs_error_add(err, GS_ERR_INVALID, "/inference/kv_cache_dtype",
                            "nvfp4_ds_mla is DeepSeek-V4.1's compressed cache in vLLM; %s has no "
                            "compressed latent attention",
                            a->model_type);
    if (mla && (dtype == GS_KV_INT8_PER_TOKEN_HEAD || dtype == GS_KV_FP8_PER_TOKEN_HEAD))
        return gs_error_add(err, GS_ERR_INVALID, "/inference/kv_cache_dtype",
                            "per-token-head scales need KV heads; MLA caches one latent per token");
    const uint64_t e = kv_element_bytes(dtype, model_bytes);
    /* recurrent states keep the model's dtype whatever the KV cache's (vLLM
     * MambaStateDtypeCalculator: mamba_cache_dtype "auto" is the model dtype) */
    const uint64_t sm = model_bytes ? model_bytes : e;
    if (p == 1) { /* one stage of every layer, for this GPU and (times t) for all of them */
        stage_layout(a, dtype, e, sm, t, 0, a->num_hidden_layers, pad_mla, out, &ovf);
        out->bytes_per_token_total = gs_mul(out->bytes_per_token, t, &ovf);
        out->shared_token_bytes_total = gs_mul(shared_bytes(out, &ovf), t, &ovf);
        if (ovf)
            return gs_error_add(err, GS_ERR_RANGE, "", "the KV cache size overflows 64 bits");
        return GS_OK;
    }
    /* every stage, keeping the one whose cache grows fastest (the engine sizes the pool
     * for the worker with the least room) */
    for (uint64_t s = 0; s < p; s++) {
        uint64_t first, end;
        struct gs_kv_layout stage;
        if (only < p && s != only)
            continue;
        gs_arch_stage(a, stages, p, s, &first, &end);
        stage_layout(a, dtype, e, sm, t, first, end, pad_mla, &stage, &ovf);
        if (s == 0 || s == only || stage.bytes_per_token + stage.indexer_token_bytes >
                          out->bytes_per_token + out->indexer_token_bytes ||
            (stage.bytes_per_token == out->bytes_per_token &&
             stage.state_bytes_per_sequence > out->state_bytes_per_sequence))
            *out = stage;
    }
    /* all GPUs: every layer, every tensor rank (replicated heads counted on each) */
    struct gs_kv_layout whole;
    stage_layout(a, dtype, e, sm, t, 0, a->num_hidden_layers, pad_mla, &whole, &ovf);
    out->bytes_per_token_total = gs_mul(whole.bytes_per_token, t, &ovf);
    out->shared_token_bytes_total = gs_mul(shared_bytes(&whole, &ovf), t, &ovf);
    if (ovf)
        return gs_error_add(err, GS_ERR_RANGE, "", "the KV cache size overflows 64 bits");
    return GS_OK;
}

enum gs_status gs_kv_layout_for(const struct gs_arch *a, enum gs_kv_dtype dtype,
                                uint64_t model_bytes, uint64_t t, uint64_t p,
                                struct gs_kv_layout *out, struct gs_error *err)
{
    return layout(a, dtype, model_bytes, t, p, UINT64_MAX, false, NULL, out, err);
}

enum gs_status gs_kv_layout_stage(const struct gs_arch *a, enum gs_kv_dtype dtype,
                                  uint64_t model_bytes, uint64_t t, uint64_t p, uint64_t stage,
                                  bool pad_mla, struct gs_kv_layout *out, struct gs_error *err)
{
    return layout(a, dtype, model_bytes, t, p, stage, pad_mla, NULL, out, err);
}

enum gs_status gs_kv_layout_memo(const struct gs_arch *a, enum gs_kv_dtype dtype,
                                 uint64_t model_bytes, uint64_t t, uint64_t p, uint64_t stage,
                                 bool pad_mla, const struct gs_stage_plan *stages,
                                 struct gs_kv_memo *memo, struct gs_kv_layout *out,
                                 struct gs_error *err)
{
    static const struct gs_stage_plan vllm = {.split = GS_SPLIT_VLLM};
    const struct gs_stage_plan *plan = stages != NULL ? stages : &vllm;
    if (memo == NULL)
        return layout(a, dtype, model_bytes, t, p, stage, pad_mla, plan, out, err);
    for (unsigned i = 0; i < memo->count; i++) {
        const struct gs_kv_memo_entry *e = &memo->entries[i];
        if (e->dtype == dtype && e->pad_mla == pad_mla && e->model_bytes == model_bytes &&
            e->tensor == t && e->pipeline == p && e->stage == stage &&
            (p <= 1 || gs_stage_plan_same(&e->stages, plan))) {
            *out = e->layout;
            return GS_OK;
        }
    }
    const enum gs_status st = layout(a, dtype, model_bytes, t, p, stage, pad_mla, plan, out, err);
    if (st != GS_OK)
        return st;
    struct gs_kv_memo_entry *e;
    if (memo->count < GS_KV_MEMO_ENTRIES) {
        e = &memo->entries[memo->count++];
    } else {
        e = &memo->entries[memo->next];
        memo->next = (memo->next + 1) % GS_KV_MEMO_ENTRIES;
    }
    e->dtype = dtype;
    e->pad_mla = pad_mla;
    e->model_bytes = model_bytes;
    e->tensor = t;
    e->pipeline = p;
    e->stage = stage;
    e->stages = *plan;
    e->layout = *out;
    return GS_OK;
}

uint64_t gs_kv_sequence_bytes(const struct gs_kv_layout *kv, uint64_t context,
                              uint64_t encoder_tokens, uint64_t block, uint64_t batched,
                              bool *ovf)
{
    block = block ? block : 16;
    const uint64_t full_blocks = ceil_div(context, block);
    /* full layers and the indexer hold every token, in whole blocks */
    const uint64_t growing = gs_add(kv->full_token_bytes, kv->indexer_token_bytes, ovf);
    uint64_t bytes = gs_mul(gs_mul(block, growing, ovf), full_blocks, ovf);
    for (size_t i = 0; i < kv->window_count; i++) {
        const struct gs_kv_window *w = &kv->windows[i];
        uint64_t blocks;
        if (w->chunked) {
            uint64_t span = gs_add(w->window, batched, ovf);
            span = span < context ? span : context;
            blocks = ceil_div(span, block);
        } else {
            uint64_t span = gs_add(w->window - 1, batched, ovf);
            span = span < context ? span : context;
            blocks = ceil_div(span, block) + 1;
            blocks = blocks < full_blocks ? blocks : full_blocks;
        }
        bytes = gs_add(bytes, gs_mul(gs_mul(block, w->token_bytes, ovf), blocks, ovf), ovf);
    }
    bytes = gs_add(bytes, kv->state_bytes_per_sequence, ovf);
    if (kv->cross_token_bytes)
        bytes = gs_add(bytes, gs_mul(gs_mul(ceil_div(encoder_tokens, block), block, ovf),
                                     kv->cross_token_bytes, ovf),
                       ovf);
    return bytes;
}

/* The engine's budget on this worker: its load (weights as it measures them, the profiled
 * activation peak, memory outside torch), then its pool rule over what they leave. */
static enum gs_status budget(const struct gs_engine_ops *ops, const struct gs_inference_input *in,
                             struct gs_inference_result *out, bool *ovf)
{
    const struct gs_engine_config *c = &in->engine;
    struct gs_budget *b = &out->budget;
    const uint64_t t = in->tensor ? in->tensor : 1, p = in->pipeline ? in->pipeline : 1;
    b->total_bytes = in->gpu.total_bytes;
    /* --cpu-offload-gb keeps that much of the weights in host memory */
    b->weights_bytes = in->weights_bytes > c->cpu_offload_bytes
                           ? in->weights_bytes - c->cpu_offload_bytes
                           : 0;
    /* the layers the profile run passes through on this worker */
    uint64_t counts[GS_BLOCKS_MAX], first = 0, end = in->arch->num_hidden_layers;
    if (in->has_stage)
        gs_arch_stage(in->arch, &in->stages, p, in->stage, &first, &end);
    gs_arch_count_blocks(in->arch, first, end, counts);
    const struct gs_engine_stage stage = {counts, first, end, t, p,
                                          !in->has_stage || in->stage == 0,
                                          !in->has_stage || in->stage + 1 >= p};
    uint64_t non_torch = 0;
    ops->load(in, &stage, out, &non_torch, ovf);
    b->cuda_graph_bytes = c->has_cuda_graph_bytes ? c->cuda_graph_bytes : 0;
    b->non_torch_bytes = c->has_non_torch_bytes ? c->non_torch_bytes : non_torch;
    const uint64_t used =
        gs_add(gs_add(b->weights_bytes, b->activation_bytes, ovf),
               gs_add(b->non_torch_bytes,
                      ops->graphs_subtracted == NULL || ops->graphs_subtracted(out)
                          ? b->cuda_graph_bytes
                          : 0,
                      ovf),
               ovf);
    ops->pool(in, out, used, ovf);
    return GS_OK;
}

/* One sequence of `context` tokens in all: an encoder-decoder's prompt goes
 * to the cross-attention cache and only the rest through decoder
 * self-attention; a decoder-only model caches every token. */
static uint64_t sequence_bytes(const struct gs_inference_result *r,
                               const struct gs_inference_input *in, uint64_t context, bool *ovf)
{
    const struct gs_kv_pages *pg = &r->pages;
    if (pg->page_bytes) {
        /* an engine's pages (vLLM's hybrid allocator): each attention group takes a block
         * per block_size tokens, each recurrent group its fixed blocks (or as many as
         * attention, mamba_cache_mode all), and a block is a page of every layer slot */
        const uint64_t per_group =
            ceil_div(gs_add(context, r->seq_extra_tokens, ovf), r->block_size);
        const uint64_t blocks =
            gs_add(gs_mul(pg->full_groups, per_group, ovf),
                   gs_mul(pg->state_groups, pg->state_blocks ? pg->state_blocks : per_group, ovf),
                   ovf);
        return gs_mul(gs_mul(blocks, pg->page_bytes, ovf), pg->group_layers, ovf);
    }
    uint64_t encoder = 0, decoder = context;
    if (r->kv.cross_token_bytes) {
        encoder = in->prompt_tokens ? (in->prompt_tokens < context ? in->prompt_tokens : context)
                                    : context;
        if (in->prompt_tokens)
            decoder = context - encoder;
    }
    /* a sequence's tokens past its context (draft tokens) sit with its decoder tokens */
    return gs_kv_sequence_bytes(&r->kv, gs_add(decoder, r->seq_extra_tokens, ovf), encoder,
                                r->block_size, r->max_num_batched_tokens, ovf);
}

#define CONTEXT_SEARCH_MAX ((uint64_t)1 << 26) /* 64M tokens: beyond any model's window */

/* The longest context whose `batch` sequences fit in `available` bytes. */
static uint64_t solve_context(const struct gs_inference_result *r, const struct gs_inference_input *in,
                              uint64_t batch, uint64_t available, bool *ovf)
{
    const struct gs_kv_layout *kv = &r->kv;
    const uint64_t block = r->block_size ? r->block_size : 16; /* as gs_kv_sequence_bytes */
    const uint64_t growing = kv->full_token_bytes + kv->indexer_token_bytes;
    if (kv->window_count == 0 && kv->cross_token_bytes == 0 && growing != 0 &&
        r->pages.page_bytes == 0) {
        /* every layer holds every token, in whole blocks: a sequence of c tokens takes
         * block x growing x ceil(c / block) + state bytes, so batch of them fit while
         * ceil(c / block) <= (available / batch - state) / (block x growing). The search
         * below would first try 2^25 tokens and report an overflow there: so does this. */
        (void)gs_mul(batch, sequence_bytes(r, in, CONTEXT_SEARCH_MAX / 2, ovf), ovf);
        const uint64_t per_sequence = available / batch;
        bool local = false;
        const uint64_t block_bytes = gs_mul(block, growing, &local);
        if (local || per_sequence < kv->state_bytes_per_sequence)
            return 0;
        const uint64_t blocks = (per_sequence - kv->state_bytes_per_sequence) / block_bytes;
        /* the search's cap: the whole of it when its last block fits */
        return blocks >= ceil_div(CONTEXT_SEARCH_MAX, block) ? CONTEXT_SEARCH_MAX : blocks * block;
    }
    uint64_t lo = 0, hi = CONTEXT_SEARCH_MAX;
    while (lo < hi) {
        const uint64_t mid = lo + (hi - lo + 1) / 2;
        const uint64_t need = gs_mul(batch, sequence_bytes(r, in, mid, ovf), ovf);
        if (need <= available)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

/* Capacity where the engine keeps the window layers in a pool of their own (ops->window_pool
 * set out->max_tokens, the full pool, and window_pool_tokens): a sequence of c tokens takes
 * c tokens of the full pool, in whole pages, and min(that, window_seq_tokens) of the window
 * pool; the sequences at once and the longest context are what both pools hold. Returns whether
 * one sequence of the context fits. */
static bool window_capacity(const struct gs_inference_input *in, struct gs_inference_result *out)
{
    const uint64_t page = out->block_size ? out->block_size : 1;
    const uint64_t full = out->max_tokens, window = out->window_pool_tokens;
    const uint64_t cap = out->window_seq_tokens;
    const uint64_t context = in->context_length;
    const uint64_t each_tokens =
        in->sequence_tokens && in->sequence_tokens < context ? in->sequence_tokens : context;
    const uint64_t each = ceil_div(each_tokens, page) * page;
    const uint64_t each_window = each < cap ? each : cap;
    out->max_concurrency = 0;
    if (each != 0) {
        const uint64_t by_full = full / each, by_window = window / each_window;
        out->max_concurrency = by_full < by_window ? by_full : by_window;
    }
    const uint64_t batch = in->batch_size ? in->batch_size : 1;
    /* the full pool bounds the context; the window pool too where batch sequences of the
     * window's cap do not fit it */
    uint64_t per = full / batch;
    if (batch > window / (cap ? cap : 1) && window / batch < per)
        per = window / batch;
    per = per / page * page;
    out->max_context = per < CONTEXT_SEARCH_MAX ? per : CONTEXT_SEARCH_MAX;
    const uint64_t seq = ceil_div(context, page) * page;
    return seq <= full && (seq < cap ? seq : cap) <= window;
}

const char gs_binding_no_cache[] =
    "weights, activation peak and runtime memory leave nothing for the KV cache";

bool gs_inference_weights_leave_no_cache(const struct gs_engine_config *c, uint64_t weights_bytes,
                                         uint64_t gpu_total_bytes)
{
    /* budget(): vLLM gives util x total to weights + activations + the rest (or, with
     * --kv-cache-memory-bytes, the whole total to the weights and the given pool); SGLang
     * mem_fraction_static x (total - non-torch) to weights + pool; TensorRT-LLM a fraction of
     * what total - used leaves; TGI fraction (x wiggle) x total, the warm-up's blocks added back
     * only when something is left; generic the total. Each fraction is at most 1 (the engines'
     * defaults, and the codec's bound on given ones), so with the weights above the total no
     * rule leaves a positive kv_bytes. */
    if (gpu_total_bytes == 0)
        return false;
    if (c->gpu_memory_utilization_permille > 1000 || c->mem_fraction_static_permille > 1000 ||
        c->cuda_memory_fraction_permille > 1000)
        return false;
    const uint64_t loaded =
        weights_bytes > c->cpu_offload_bytes ? weights_bytes - c->cpu_offload_bytes : 0;
    return loaded > gpu_total_bytes;
}

enum gs_status gs_inference_compute(const struct gs_inference_input *in,
                                    struct gs_inference_result *out, struct gs_error *err)
{
    bool ovf = false;
    memset(out, 0, sizeof(*out));
    const struct gs_engine_ops *ops = gs_engine_ops_for(in->engine.engine);
    /* the engine's release, the batch its profile runs and the format it keeps the cache in
     * (they decide the cache's layout: vLLM V0 padded MLA entries, SGLang's fp8 DeepSeek-V4
     * cache) */
    out->block_size = in->engine.block_size ? in->engine.block_size : ops->block_size;
    ops->defaults(in, out);
    /* whether the release has the model's class: known without a GPU */
    bool class_refused = false;
    const char *class_support =
        gs_model_support(in->engine.engine, in->arch, in->engine.version, &class_refused);
    out->model_refusal = class_refused ? class_support : NULL;
    out->release_lacks_model = class_refused ? NULL : class_support;
    const enum gs_kv_dtype kv_dtype = out->kv_dtype != GS_KV_AUTO ? out->kv_dtype : in->kv_dtype;
    enum gs_status st = gs_kv_layout_memo(in->arch, kv_dtype, in->model_bytes, in->tensor,
                                          in->pipeline, in->has_stage ? in->stage : UINT64_MAX,
                                          out->pad_mla, &in->stages, in->kv_memo, &out->kv, err);
    if (st != GS_OK)
        return st;
    struct gs_kv_window *draft_kind = NULL;
    for (size_t i = 0; in->draft_window && i < out->kv.window_count; i++)
        if (out->kv.windows[i].window == in->draft_window && !out->kv.windows[i].chunked &&
            out->kv.windows[i].layers)
            draft_kind = &out->kv.windows[i];
    if (in->draft_layers && draft_kind != NULL) {
        /* sliding-window draft layers with the spec of the model's layers of that window
         * (SlidingWindowSpec) join their kind the same way */
        const uint64_t add =
            gs_mul(draft_kind->token_bytes / draft_kind->layers, in->draft_layers, &ovf);
        draft_kind->layers = gs_add(draft_kind->layers, in->draft_layers, &ovf);
        draft_kind->token_bytes = gs_add(draft_kind->token_bytes, add, &ovf);
        out->kv.window_layers = gs_add(out->kv.window_layers, in->draft_layers, &ovf);
        out->kv.bytes_per_token = gs_add(out->kv.bytes_per_token, add, &ovf);
        out->kv.bytes_per_token_total = gs_add(
            out->kv.bytes_per_token_total, gs_mul(add, in->tensor ? in->tensor : 1, &ovf), &ovf);
    } else if (in->draft_layers && out->kv.full_layers) {
        /* the draft's attention layers are layers of the same static forward context:
         * get_kv_cache_spec collects them with the target's, and with the same spec they
         * join its group (kv_cache_utils.get_kv_cache_groups), each block one layer larger */
        const uint64_t layer = out->kv.full_token_bytes / out->kv.full_layers;
        const uint64_t index = in->draft_token_bytes
                                   ? 0
                                   : out->kv.indexer_token_bytes / out->kv.full_layers;
        const uint64_t pooled =
            in->draft_token_bytes ? 0 : out->kv.indexer_pooled_token_bytes / out->kv.full_layers;
        /* a draft of another shape (an EAGLE head, a small model) forms one group with the
         * target's layers whose block is the sum of their pages (UniformTypeKVCacheSpecs,
         * PR #25101): per token, the draft's bytes add all the same */
        const uint64_t add = in->draft_token_bytes ? in->draft_token_bytes
                                                   : gs_mul(layer, in->draft_layers, &ovf);
        /* (an MTP layer of a sparse-attention model attends as the model's layers do) */
        if (!in->draft_token_bytes && out->kv.topk_token_bytes == out->kv.full_token_bytes)
            out->kv.topk_token_bytes = gs_add(out->kv.topk_token_bytes, add, &ovf);
        out->kv.full_layers = gs_add(out->kv.full_layers, in->draft_layers, &ovf);
        out->kv.full_token_bytes = gs_add(out->kv.full_token_bytes, add, &ovf);
        out->kv.bytes_per_token = gs_add(out->kv.bytes_per_token, add, &ovf);
        out->kv.indexer_token_bytes =
            gs_add(out->kv.indexer_token_bytes, gs_mul(index, in->draft_layers, &ovf), &ovf);
        out->kv.indexer_pooled_token_bytes = gs_add(out->kv.indexer_pooled_token_bytes,
                                                    gs_mul(pooled, in->draft_layers, &ovf), &ovf);
        out->kv.bytes_per_token_total =
            gs_add(out->kv.bytes_per_token_total,
                   gs_mul(gs_add(add, gs_mul(index, in->draft_layers, &ovf), &ovf),
                          in->tensor ? in->tensor : 1, &ovf),
                   &ovf);
    }
    if (ops->pages != NULL)
        ops->pages(in, out);
    /* the engine admits sequences up to max_model_len (one must fit to start); paged
     * allocation gives each only the blocks its tokens fill */
    const uint64_t seq_max = sequence_bytes(out, in, in->context_length, &ovf);
    uint64_t attention = 0; /* what an engine's own state pool leaves the attention cache */
    const char *pool_binding = NULL; /* why that pool holds no sequence */
    const uint64_t seq = in->sequence_tokens && in->sequence_tokens < in->context_length
                             ? sequence_bytes(out, in, in->sequence_tokens, &ovf)
                             : seq_max;
    out->kv_needed_bytes = gs_mul(seq, in->batch_size, &ovf);
    out->starts = true;
    /* the components are known without a GPU; the verdict needs its capacity */
    st = budget(ops, in, out, &ovf);
    if (st != GS_OK)
        return st;
    if (in->gpu.total_bytes == 0)
        return ovf ? gs_error_add(err, GS_ERR_RANGE, "", "the KV cache size overflows 64 bits")
                   : GS_OK;
    out->has_budget = true;
    const int64_t kv = out->budget.kv_bytes;
    const uint64_t available = kv > 0 ? (uint64_t)kv : 0;
    const uint64_t growing = gs_add(out->kv.bytes_per_token, out->kv.indexer_token_bytes, &ovf);
    const uint64_t block_bytes = gs_mul(out->block_size, growing, &ovf);
    const bool cached = block_bytes != 0 || out->kv.state_bytes_per_sequence != 0;
    bool one_fits = seq_max <= available; /* one sequence of the context */
    if (out->pages.page_bytes) {
        /* get_num_blocks over the shared pool: a block is a page of every layer slot; the log
         * before vLLM 0.21 printed num_blocks // groups x the smallest block size (a recurrent
         * group's is max_model_len when its states are not cached per block) */
        const struct gs_kv_pages *pg = &out->pages;
        out->blocks = available / gs_mul(pg->page_bytes, pg->group_layers, &ovf);
        uint64_t smallest = out->block_size;
        if (pg->state_cache == GS_STATE_CACHE_NONE && in->context_length < smallest)
            smallest = in->context_length; /* "none": mamba_block_size = max_model_len */
        out->max_tokens = gs_mul(out->blocks / (pg->full_groups + pg->state_groups), smallest, &ovf);
        out->kv_groups = pg->full_groups + pg->state_groups;
        out->kv_group_layers = pg->group_layers;
        out->reported_tokens = out->max_tokens;
        if (ops->capacity != NULL)
            ops->capacity(in, out, available);
        out->max_concurrency = seq ? available / seq : 0;
        out->max_context = solve_context(out, in, in->batch_size ? in->batch_size : 1, available, &ovf);
    } else if (block_bytes && ops->state_pool != NULL && out->kv.state_bytes_per_sequence &&
               ops->state_pool(in, out, available, &attention)) {
        /* the states in a pool of their own (SGLang): the attention cache is sized from what
         * it leaves, and the state slots bound the sequences at once */
        const uint64_t state = out->kv.state_bytes_per_sequence;
        out->blocks = attention / block_bytes;
        out->max_tokens = gs_mul(out->blocks, out->block_size, &ovf);
        out->reported_tokens = out->max_tokens;
        out->kv.state_bytes_per_sequence = 0; /* a sequence's attention cache alone */
        const uint64_t tokens = sequence_bytes(out, in, in->context_length, &ovf);
        const uint64_t each = in->sequence_tokens && in->sequence_tokens < in->context_length
                                  ? sequence_bytes(out, in, in->sequence_tokens, &ovf)
                                  : tokens;
        out->max_concurrency = each ? attention / each : out->state_seqs;
        if (out->max_concurrency > out->state_seqs)
            out->max_concurrency = out->state_seqs;
        const uint64_t batch = in->batch_size ? in->batch_size : 1;
        out->max_context =
            batch <= out->state_seqs ? solve_context(out, in, batch, attention, &ovf) : 0;
        out->kv.state_bytes_per_sequence = state;
        one_fits = tokens <= attention && out->state_seqs > 0;
        pool_binding = out->state_binding;
    } else if (block_bytes && ops->window_pool != NULL && out->kv.window_count &&
               ops->window_pool(in, out, available)) {
        one_fits = window_capacity(in, out);
    } else if (block_bytes) {
        /* get_num_blocks; where the engine prices a token otherwise (kv_priced_token_bytes),
         * its pool is that count of tokens as they are held, within the budget or past it */
        const uint64_t priced = out->kv_priced_token_bytes
                                    ? gs_mul(out->block_size, out->kv_priced_token_bytes, &ovf)
                                    : block_bytes;
        out->blocks = priced ? available / priced : 0;
        out->max_tokens = gs_mul(out->blocks, out->block_size, &ovf);
        out->reported_tokens = out->max_tokens;
        const uint64_t pool =
            out->kv_priced_token_bytes ? gs_mul(out->blocks, block_bytes, &ovf) : available;
        out->kv_unbudgeted_bytes = pool > available ? pool - available : 0;
        one_fits = seq_max <= pool;
        if (ops->capacity != NULL)
            ops->capacity(in, out, available);
        out->max_concurrency = seq ? pool / seq : 0;
        out->max_context = solve_context(out, in, in->batch_size ? in->batch_size : 1, pool, &ovf);
    } else if (cached) {
        /* only recurrent layers: a fixed state per sequence, whatever its length */
        out->max_concurrency = available / out->kv.state_bytes_per_sequence;
        out->max_context = out->max_concurrency >= (in->batch_size ? in->batch_size : 1)
                               ? in->context_length
                               : 0;
    } else {
        /* encoder-only: no KV cache, so the cache never limits the batch or the context;
         * the scheduler's max_num_seqs and the request's own context do */
        out->max_concurrency = out->max_num_seqs;
        out->max_context = in->context_length;
    }
    /* no sequence runs past the model's own limit (max_position_embeddings with its rope
     * scaling, as vLLM's _get_and_verify_max_len derives it; SGLang and TGI refuse a longer
     * context too), so the longest context offered is at most that, whatever the cache holds */
    if (in->arch->max_model_len && out->max_context > in->arch->max_model_len)
        out->max_context = in->arch->max_model_len;
    if (ops->refuses_long_context && in->arch->max_model_len &&
        in->context_length > in->arch->max_model_len) {
        /* vLLM's _get_and_verify_max_len refuses a longer max_model_len (unless
         * VLLM_ALLOW_LONG_MAX_MODEL_LEN is set) */
        out->starts = false;
        out->binding = "max_model_len is above the model's maximum (max_position_embeddings with "
                       "its rope scaling); vLLM refuses to start";
    } else if (kv <= 0) {
        out->starts = false;
        out->binding = out->budget.refusal != NULL ? out->budget.refusal : gs_binding_no_cache;
    } else if (cached && !one_fits && ops->lowers_long_context && out->max_tokens) {
        out->binding = "the KV cache cannot hold one sequence of the requested context length; "
                       "the engine starts with its maximum sequence length lowered to what the "
                       "cache holds (max_context), so no sequence of this context runs";
    } else if (cached && !one_fits) {
        out->starts = false;
        out->binding =
            pool_binding != NULL
                ? pool_binding
                : "the KV cache cannot hold one sequence of the requested context length";
    }
    /* a release without the model's class, or a loader, kernel or attention backend the
     * engine lacks, fails it at startup before any memory is measured */
    out->engine_refusal = out->model_refusal != NULL ? out->model_refusal
                          : ops->refusal != NULL     ? ops->refusal(in, out)
                                                     : NULL;
    if (out->engine_refusal != NULL) {
        out->starts = false;
        out->binding = out->engine_refusal;
    }
    if (ops->tables != NULL)
        ops->tables(in, out);
    const char *bound = out->starts && ops->start_bound != NULL
                            ? ops->start_bound(in, out, &out->seqs_bound)
                            : NULL;
    if (bound != NULL) {
        out->starts = false;
        out->binding = bound;
    }
    out->holds_batch = out->starts && out->max_concurrency >= in->batch_size;
    if (out->starts && !out->holds_batch && out->max_concurrency > 0)
        out->binding = "the KV cache holds fewer sequences of this context than the requested "
                       "batch; the engine would queue the rest";
    if (ovf)
        return gs_error_add(err, GS_ERR_RANGE, "", "the KV cache size overflows 64 bits");
    return GS_OK;
}

const char *gs_state_cache_name(enum gs_state_cache mode)
{
    /* vllm/config/cache.py MambaCacheMode */
    static const char *const names[GS_STATE_CACHE_COUNT] = {"none", "align", "all"};
    return mode < GS_STATE_CACHE_COUNT ? names[mode] : "";
}
