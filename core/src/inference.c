/*
 * inference.c - KV cache layout, paged sequence bytes and serving-engine
 * budgets (see gs/inference.h; sources in estimation.md 4.2-4.5).
 */
#include "gs/inference.h"
#include "gs/weights.h"
#include "gs/sglang.h"

#include "gs/units.h"

#include <string.h>

static const char *const kv_names[GS_KV_COUNT] = {
    [GS_KV_AUTO] = "auto", [GS_KV_BF16] = "bf16", [GS_KV_FP16] = "fp16", [GS_KV_FP8] = "fp8",
    [GS_KV_FP8_E5M2] = "fp8_e5m2", [GS_KV_INT8_PER_TOKEN_HEAD] = "int8_per_token_head",
    [GS_KV_FP8_PER_TOKEN_HEAD] = "fp8_per_token_head", [GS_KV_FP8_DS_MLA] = "fp8_ds_mla",
    [GS_KV_INT8] = "int8",
};

static const char *const engine_names[GS_ENGINE_COUNT] = {
    [GS_ENGINE_VLLM] = "vllm", [GS_ENGINE_SGLANG] = "sglang",
    [GS_ENGINE_TENSORRT_LLM] = "tensorrt_llm", [GS_ENGINE_TGI] = "tgi",
    [GS_ENGINE_GENERIC] = "generic",
};

const char *gs_kv_dtype_name(enum gs_kv_dtype d)
{
    return d < GS_KV_COUNT ? kv_names[d] : "auto";
}

enum gs_kv_dtype gs_kv_fp8_for(const struct gs_arch *arch)
{
    /* any sparse MLA layer: DeepSeek-V4's first layers attend through their window only */
    for (size_t b = 0; arch != NULL && b < arch->block_count; b++)
        if (arch->blocks[b].mixer == GS_MIXER_MLA && arch->blocks[b].attn.index_topk > 0)
            return GS_KV_FP8_DS_MLA;
    return GS_KV_FP8;
}

bool gs_kv_dtype_parse(const char *name, enum gs_kv_dtype *out)
{
    for (int i = 0; name != NULL && i < GS_KV_COUNT; i++) {
        if (strcmp(name, kv_names[i]) == 0) {
            *out = (enum gs_kv_dtype)i;
            return true;
        }
    }
    return false;
}

const char *gs_engine_name(enum gs_engine e)
{
    return e < GS_ENGINE_COUNT ? engine_names[e] : "generic";
}

bool gs_engine_parse(const char *name, enum gs_engine *out)
{
    for (int i = 0; name != NULL && i < GS_ENGINE_COUNT; i++) {
        if (strcmp(name, engine_names[i]) == 0) {
            *out = (enum gs_engine)i;
            return true;
        }
    }
    return false;
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

/* Bytes one token adds to one layer of this block on one GPU (0 for
 * recurrent and encoder-only layers). */
static uint64_t attention_token_bytes(const struct gs_block *b, enum gs_kv_dtype dtype,
                                      uint64_t e, uint64_t t, bool *ovf)
{
    const struct gs_attention *s = &b->attn;
    /* MLAAttentionSpec: one latent head on every tensor rank. fp8_ds_mla entries are 656
     * bytes (V3.2: 512 fp8 + 4 fp32 scales + 64 bf16 rope) or, for DeepSeek-V4, 584 (448 fp8
     * nope + 64 bf16 rope + 8 scale bytes; kv_cache_interface.py real_page_size_bytes) */
    if (b->mixer == GS_MIXER_MLA && dtype == GS_KV_FP8_DS_MLA)
        return compressed_mla(b) ? 584 : 656;
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

/* MambaSpec: the conv window (channels x (kernel - 1)) in the model dtype
 * and the recurrent state (heads x rows x cols), channels and heads split
 * by tensor parallelism (vLLM MambaStateShapeCalculator). */
static uint64_t state_bytes(const struct gs_recurrent *r, uint64_t e, uint64_t t, bool *ovf)
{
    const uint64_t conv = gs_mul(gs_mul(ceil_div(r->conv_channels, t),
                                        r->conv_kernel ? r->conv_kernel - 1 : 0, ovf),
                                 e, ovf);
    const uint64_t state = gs_mul(gs_mul(ceil_div(r->state_heads, t), r->state_rows, ovf),
                                  gs_mul(r->state_cols ? r->state_cols : 1,
                                         r->fp32_state ? 4 : e, ovf),
                                  ovf);
    return gs_add(conv, state, ovf);
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
        out->windows[out->window_count++] = (struct gs_kv_window){s->window, chunked, layers, bytes};
    if (s->window > out->sliding_window)
        out->sliding_window = s->window;
}

/* The layout of decoder layers [first, end) on one GPU. */
static void stage_layout(const struct gs_arch *a, enum gs_kv_dtype dtype, uint64_t e, uint64_t t,
                         uint64_t first, uint64_t end, bool pad_mla, struct gs_kv_layout *out,
                         bool *ovf)
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
            out->recurrent_layers += n;
            out->state_bytes_per_sequence = gs_add(out->state_bytes_per_sequence,
                                                   gs_mul(state_bytes(&b->rec, e, t, ovf), n, ovf),
                                                   ovf);
        }
        if (b->mixer == GS_MIXER_RECURRENT)
            continue;
        uint64_t one = attention_token_bytes(b, dtype, e, t, ovf);
        if (pad_mla && b->mixer == GS_MIXER_MLA && dtype != GS_KV_FP8_DS_MLA)
            one = gs_div_ceil(one, 256) * 256; /* align_to_256bytes */
        if (one == 0 || (!b->attn.cached && b->mixer == GS_MIXER_ATTENTION))
            continue; /* encoder-only attention: no cache (EncoderOnlyAttentionSpec) */
        if (b->attn.kv_shared)
            continue; /* reads an earlier layer's cache: vLLM gives a layer with a
                         kv_sharing_target_layer_name no KV cache spec of its own */
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
        if (ratio > 0) {
            const uint64_t compressed = gs_div_ceil(bytes, ratio);
            out->bytes_per_token = gs_add(out->bytes_per_token, compressed, ovf);
            out->full_token_bytes = gs_add(out->full_token_bytes, compressed, ovf);
        }
        if (b->mixer == GS_MIXER_MLA && b->attn.index_heads)
            out->indexer_token_bytes = gs_add(
                out->indexer_token_bytes,
                gs_div_ceil(gs_mul(indexer_bytes(&b->attn), n, ovf), ratio ? ratio : 1), ovf);
        /* MiniMax-M3's indexer beside GQA attention: one key head of index_head_dim per
         * token, bf16 whatever the KV dtype (vLLM MiniMaxM3IndexerCache, indexer_kv_dtype
         * "bf16" by default), replicated on every tensor rank */
        if (b->mixer == GS_MIXER_ATTENTION && b->attn.index_heads)
            out->indexer_token_bytes = gs_add(
                out->indexer_token_bytes, gs_mul(2 * b->attn.index_head_dim, n, ovf), ovf);
        if (b->attn.span == GS_SPAN_FULL || b->attn.window == 0) {
            out->full_layers += n;
            out->full_token_bytes = gs_add(out->full_token_bytes, bytes, ovf);
        } else {
            out->window_layers += n;
            add_window(out, &b->attn, n, bytes, ovf);
        }
    }
}

static enum gs_status layout(const struct gs_arch *a, enum gs_kv_dtype dtype, uint64_t model_bytes,
                             uint64_t t, uint64_t p, uint64_t only, bool pad_mla,
                             struct gs_kv_layout *out, struct gs_error *err)
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
    if (mla && (dtype == GS_KV_INT8_PER_TOKEN_HEAD || dtype == GS_KV_FP8_PER_TOKEN_HEAD))
        return gs_error_add(err, GS_ERR_INVALID, "/inference/kv_cache_dtype",
                            "per-token-head scales need KV heads; MLA caches one latent per token");
    const uint64_t e = kv_element_bytes(dtype, model_bytes);
    if (p == 1) { /* one stage of every layer, for this GPU and (times t) for all of them */
        stage_layout(a, dtype, e, t, 0, a->num_hidden_layers, pad_mla, out, &ovf);
        out->bytes_per_token_total = gs_mul(out->bytes_per_token, t, &ovf);
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
        gs_arch_stage(a, p, s, &first, &end);
        stage_layout(a, dtype, e, t, first, end, pad_mla, &stage, &ovf);
        if (s == 0 || s == only || stage.bytes_per_token + stage.indexer_token_bytes >
                          out->bytes_per_token + out->indexer_token_bytes ||
            (stage.bytes_per_token == out->bytes_per_token &&
             stage.state_bytes_per_sequence > out->state_bytes_per_sequence))
            *out = stage;
    }
    /* all GPUs: every layer, every tensor rank (replicated heads counted on each) */
    struct gs_kv_layout whole;
    stage_layout(a, dtype, e, t, 0, a->num_hidden_layers, pad_mla, &whole, &ovf);
    out->bytes_per_token_total = gs_mul(whole.bytes_per_token, t, &ovf);
    if (ovf)
        return gs_error_add(err, GS_ERR_RANGE, "", "the KV cache size overflows 64 bits");
    return GS_OK;
}

enum gs_status gs_kv_layout_for(const struct gs_arch *a, enum gs_kv_dtype dtype,
                                uint64_t model_bytes, uint64_t t, uint64_t p,
                                struct gs_kv_layout *out, struct gs_error *err)
{
    return layout(a, dtype, model_bytes, t, p, UINT64_MAX, false, out, err);
}

enum gs_status gs_kv_layout_stage(const struct gs_arch *a, enum gs_kv_dtype dtype,
                                  uint64_t model_bytes, uint64_t t, uint64_t p, uint64_t stage,
                                  bool pad_mla, struct gs_kv_layout *out, struct gs_error *err)
{
    return layout(a, dtype, model_bytes, t, p, stage, pad_mla, out, err);
}

enum gs_status gs_kv_layout_memo(const struct gs_arch *a, enum gs_kv_dtype dtype,
                                 uint64_t model_bytes, uint64_t t, uint64_t p, uint64_t stage,
                                 bool pad_mla, struct gs_kv_memo *memo, struct gs_kv_layout *out,
                                 struct gs_error *err)
{
    if (memo == NULL)
        return layout(a, dtype, model_bytes, t, p, stage, pad_mla, out, err);
    for (unsigned i = 0; i < memo->count; i++) {
        const struct gs_kv_memo_entry *e = &memo->entries[i];
        if (e->dtype == dtype && e->pad_mla == pad_mla && e->model_bytes == model_bytes &&
            e->tensor == t && e->pipeline == p && e->stage == stage) {
            *out = e->layout;
            return GS_OK;
        }
    }
    const enum gs_status st = layout(a, dtype, model_bytes, t, p, stage, pad_mla, out, err);
    if (st != GS_OK)
        return st;
    struct gs_kv_memo_entry *e;
    if (memo->count < GS_KV_MEMO_ENTRIES) {
        e = &memo->entries[memo->count++];
    } else {
        e = &memo->entries[memo->next];
        memo->next = (memo->next + 1) % GS_KV_MEMO_ENTRIES;
    }
    *e = (struct gs_kv_memo_entry){dtype, pad_mla, model_bytes, t, p, stage, *out};
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

/* The generic profile's CUDA context + cuBLAS workspace (gs/runtime.h). */
#define GENERIC_OVERHEAD (GS_CUDA_CONTEXT_BYTES + GS_CUBLAS_WORKSPACE_BYTES)

/* TGI's warm-up by release (text-generation-inference,
 * server/text_generation_server/models/flash_causal_lm.py FlashCausalLM.warmup,
 * read at each tag). The router warms up with one batch of
 * max_batch_prefill_tokens prompt tokens (requests of max_input_tokens,
 * router/client warmup); the shard allocates that batch's KV blocks, runs its
 * prefill, then reads torch.cuda.mem_get_info - device-wide free memory, so
 * the CUDA context counts and the prefill's transients stay reserved by
 * torch's caching allocator (no empty_cache in between) - and sizes the cache:
 *  - before 3.0: num_blocks = (free - (1 - cuda_memory_fraction) x total)
 *    x wiggle // block_bytes + the warm-up batch's blocks, the wiggle 1.0
 *    until 1.4.0, "free_memory * 0.95" from 1.4.1 (PR #1428), TGI_WIGGLE_ROOM
 *    0.95 in 2.3 (PR #2449) and 0.90 in 2.4 (PR #2600);
 *  - from 3.0 (PR #2808): get_free_memory(device, MEMORY_FRACTION x
 *    TGI_WIGGLE_ROOM), i.e. free - (1 - fraction x wiggle) x total, plus the
 *    warm-up blocks: the cache is fraction x wiggle x total minus everything
 *    else; TGI_WIGGLE_ROOM 0.95 in 3.0, 0.93 from 3.1 (PR #2958), 0.90 from
 *    3.3 (PR #3189).
 * Until 3.0 the warm-up requests ask for prefill logprobs (router client
 * warmup prefill_logprobs: true), so the prefill computes the logits of every
 * prompt token and their log_softmax (generate_token); 3.0 ignores them unless
 * REQUEST_LOGPROBS is set (PR #2797) and the lm_head sees one token a
 * request. BLOCK_SIZE (models/globals.py) is 16 with paged attention until
 * 2.3, then 1 with flashinfer, the launcher's default (resolve_attention);
 * head dims other than 64, 128 and 256 fall back to flashdecoding's 256. The
 * launcher's max_batch_prefill_tokens default is 4096 until 2.0,
 * max_input_tokens + 50 in 2.x, and in 3.x a FLOPs-based figure for the cards
 * it knows, else 4096 (gemma3 8000), capped by VRAM: gpusizer takes 4096. */
struct tgi_release {
    uint32_t from;           /* major * 10000 + minor * 100 + patch */
    uint16_t wiggle_permille;
    bool of_total;           /* 3.x: the wiggle scales the fraction of the total */
    bool prefill_logprobs;   /* the warm-up computes logits for every prefill token */
    uint8_t block_size;      /* the default attention's BLOCK_SIZE */
};

static const struct tgi_release tgi_releases[] = {
    {0, 1000, false, true, 16},      {10401, 950, false, true, 16},
    {20300, 950, false, true, 1},    {20400, 900, false, true, 1},
    {30000, 950, true, false, 1},    {30100, 930, true, false, 1},
    {30300, 900, true, false, 1},
};

/* The rules of TGI release `version` (0: the latest modelled, 3.3). */
static const struct tgi_release *tgi_release_for(uint32_t version)
{
    const size_t n = sizeof(tgi_releases) / sizeof(tgi_releases[0]);
    if (version == 0)
        return &tgi_releases[n - 1];
    const struct tgi_release *r = &tgi_releases[0];
    for (size_t i = 0; i < n; i++)
        if (tgi_releases[i].from <= version)
            r = &tgi_releases[i];
    return r;
}

/* flashinfer's shared workspace, allocated when the model is built
 * (layers/attention/flashinfer.py get_workspace: 128 MiB, 2.3 onwards). */
#define TGI_FLASHINFER_WORKSPACE_BYTES ((uint64_t)128 << 20)

static uint64_t permille_of(uint64_t bytes, uint64_t permille, bool *ovf)
{
    /* bytes * permille / 1000 without overflow for realistic sizes */
    return gs_add(gs_mul(bytes / 1000, permille, ovf), (bytes % 1000) * permille / 1000, ovf);
}

/* Tokens per KV block as each engine ships: vLLM 16 (CacheConfig), SGLang
 * page_size 1, TensorRT-LLM tokens_per_block 64, TGI 1 with its default
 * flashinfer attention (16 with paged, 256 with flashdecoding), and none for
 * the generic profile. */
static uint64_t default_block_size(enum gs_engine engine)
{
    switch (engine) {
    case GS_ENGINE_VLLM:
        return 16;
    case GS_ENGINE_TENSORRT_LLM:
        return 64;
    case GS_ENGINE_SGLANG:
    case GS_ENGINE_TGI:
    case GS_ENGINE_GENERIC:
    case GS_ENGINE_COUNT:
        break;
    }
    return 1;
}

uint64_t gs_engine_default_block_size(enum gs_engine engine)
{
    return default_block_size(engine);
}

/* Whether any decoder layer attends through a window. */
static bool has_windows(const struct gs_arch *a)
{
    for (size_t k = 0; k < a->block_count; k++)
        if (a->block_layers[k] && a->blocks[k].attn.span != GS_SPAN_FULL && a->blocks[k].attn.window)
            return true;
    return false;
}

static bool has_towers(const struct gs_arch *a)
{
    for (size_t i = 0; i < a->tower_count; i++)
        if (a->towers[i].part == GS_PART_VISION || a->towers[i].part == GS_PART_AUDIO)
            return true;
    return false;
}

/* The attention head width TGI's launcher looks at (config head_dim). */
static uint64_t tgi_head_dim(const struct gs_arch *a)
{
    for (size_t k = 0; k < a->block_count; k++)
        if (a->block_layers[k] && a->blocks[k].mixer == GS_MIXER_ATTENTION)
            return a->blocks[k].attn.head_dim;
    return 0;
}

/* max_input_tokens: the request's prompt_tokens, else the launcher's default
 * max_total_tokens - 1 (at least 1). */
static uint64_t tgi_max_input(const struct gs_inference_input *in)
{
    if (in->prompt_tokens && in->prompt_tokens < in->context_length)
        return in->prompt_tokens;
    return in->context_length > 1 ? in->context_length - 1 : 1;
}

static void defaults(const struct gs_inference_input *in, struct gs_inference_result *out)
{
    const struct gs_engine_config *c = &in->engine;
    out->block_size = c->block_size ? c->block_size : default_block_size(c->engine);
    if (c->engine == GS_ENGINE_VLLM) {
        /* the release's profile run (gs_vllm_profile) */
        out->release = gs_vllm_release_for_layout(c->version, in->pipeline ? in->pipeline : 1);
        const struct gs_vllm_profile_input pin = {in->gpu_total_bytes, in->gpu_is_a100,
                                                  in->context_length, has_windows(in->arch),
                                                  gs_arch_has_mla(in->arch), has_towers(in->arch),
                                                  c->max_num_batched_tokens, c->max_num_seqs,
                                                  c->chunked_prefill};
        struct gs_vllm_profile prof;
        gs_vllm_profile(out->release, &pin, &prof);
        out->max_num_batched_tokens = prof.tokens;
        out->max_num_seqs = prof.seqs;
        out->chunked_prefill = prof.chunked_prefill;
        if (pin.mla)
            out->mla_workspace_tokens = gs_vllm_mla_workspace_tokens(
                out->release, in->context_length, prof.seqs, out->block_size, prof.chunked_prefill,
                c->prefix_caching == GS_CHUNKED_PREFILL_ON);
        return;
    }
    if (c->engine == GS_ENGINE_TGI) {
        const struct tgi_release *rel = tgi_release_for(c->version);
        if (!c->block_size) {
            out->block_size = rel->block_size;
            const uint64_t head = tgi_head_dim(in->arch);
            if (out->block_size == 1 && head && head != 64 && head != 128 && head != 256)
                out->block_size = 256; /* resolve_attention: flashdecoding */
        }
        /* the warm-up batch: max_batch_prefill_tokens in requests of max_input_tokens
         * (prompt_tokens, else TGI's default max_total_tokens - 1) */
        const uint64_t input = tgi_max_input(in);
        const uint32_t version = c->version ? c->version : rel->from;
        out->max_num_batched_tokens = c->max_num_batched_tokens ? c->max_num_batched_tokens
                                      : version >= 30000        ? 4096
                                      : version >= 20000        ? input + 50
                                                                : 4096;
        out->max_num_seqs = c->max_num_seqs ? c->max_num_seqs
                                            : ceil_div(out->max_num_batched_tokens, input);
        return;
    }
    /* vLLM EngineArgs.get_batch_defaults, OpenAI server: 8192 / 1024 on GPUs of at least
     * 70 GiB other than A100; 2048 / 256 otherwise */
    const bool large = in->gpu_total_bytes >= (uint64_t)70 * GS_GIB && !in->gpu_is_a100;
    out->max_num_batched_tokens = c->max_num_batched_tokens ? c->max_num_batched_tokens
                                                            : (large ? 8192 : 2048);
    out->max_num_seqs = c->max_num_seqs ? c->max_num_seqs : (large ? 1024 : 256);
}

/* Memory outside torch's allocator on one worker, as each engine counts it:
 * vLLM its non-torch term (vllm.c) plus, under expert parallelism, the
 * expert group's own communicator when it is wider than the tensor group
 * (data-parallel attention) and DeepEP's all-to-all buffers, both allocated
 * outside torch by the profile run; SGLang what is gone before its
 * baseline (sglang.c); the generic profile the context and cuBLAS
 * workspace; TGI device-wide memory (the CUDA context and vLLM's latest
 * growth and communication terms). TensorRT-LLM takes vLLM's latest term. */
static uint64_t engine_non_torch(const struct gs_inference_input *in,
                                 const struct gs_vllm_release *rel, uint64_t t, bool last_stage,
                                 bool *ovf)
{
    const enum gs_link link = (enum gs_link)in->link;
    switch (in->engine.engine) {
    case GS_ENGINE_GENERIC:
        return GENERIC_OVERHEAD;
    case GS_ENGINE_SGLANG:
        return gs_sglang_preload_bytes(link, t, in->cross_node);
    case GS_ENGINE_VLLM: {
        uint64_t bytes = gs_vllm_non_torch(rel, link, t, in->cross_node, last_stage, ovf);
        if (in->expert > t)
            bytes = gs_add(bytes, gs_runtime_comm_bytes(link, in->expert, in->expert_cross_node),
                           ovf);
        if (in->expert > 1) {
            const struct gs_block *moe = gs_arch_moe_block(in->arch);
            bytes = gs_add(bytes,
                           gs_runtime_all2all_bytes((enum gs_all2all)in->engine.all2all,
                                                    in->arch->hidden_size,
                                                    moe ? moe->mlp.experts : 0,
                                                    in->expert_cross_node, ovf),
                           ovf);
        }
        return bytes;
    }
    case GS_ENGINE_TGI:
        /* get_free_memory reads torch.cuda.mem_get_info: the device's free memory, so the
         * CUDA context counts along with what loads while warming up */
        return gs_add(GS_CUDA_CONTEXT_BYTES,
                      gs_vllm_non_torch(rel, link, t, in->cross_node, last_stage, ovf), ovf);
    case GS_ENGINE_TENSORRT_LLM:
    case GS_ENGINE_COUNT:
        break;
    }
    return gs_vllm_non_torch(rel, link, t, in->cross_node, last_stage, ovf);
}

/* Before TGI 3.0 the warm-up prefill keeps, at its peak, the logits of every
 * prompt token and their log_softmax (generate_token: out, then
 * torch.log_softmax(out, -1)), in the model dtype: 2 x tokens x vocab
 * elements; under tensor parallelism the head gathers the whole vocabulary
 * (TensorParallelHead: world_out [vocab, tokens], returned transposed) and
 * log_softmax first makes a contiguous copy, a third such tensor. */
static uint64_t tgi_logprob_bytes(const struct gs_inference_input *in, uint64_t tokens, uint64_t t,
                                  bool *ovf)
{
    const uint64_t e = in->model_bytes ? in->model_bytes : 2;
    return gs_mul(gs_mul(tokens, in->arch->vocab_size, ovf), gs_mul(t > 1 ? 3 : 2, e, ovf), ovf);
}

/* TGI's gated MLPs run unfused on CUDA (LlamaMLP.forward and its kin:
 * self.act(gate_up[:, 0]) * gate_up[:, 1], the fused kernel only on ROCm for
 * one token): the activation's output sits next to the gate_up output and
 * the product, one intermediate-wide tensor per token more than vLLM's
 * SiluAndMul, whose figure gs_vllm_activation_peak gives. */
static uint64_t tgi_unfused_mlp_bytes(const struct gs_arch *a, const uint64_t counts[GS_BLOCKS_MAX],
                                      uint64_t tokens, uint64_t t, bool *ovf)
{
    uint64_t width = 0;
    for (size_t k = 0; k < a->block_count; k++) {
        const struct gs_mlp *m = &a->blocks[k].mlp;
        if (counts[k] && m->kind == GS_MLP_DENSE && m->gated && m->width > width)
            width = m->width;
    }
    return gs_mul(gs_mul(tokens, ceil_div(width, t ? t : 1), ovf), 2, ovf);
}

/* What vLLM's M-RoPE table holds beyond the plain one: MRotaryEmbedding enlarges its cos/sin
 * cache to 4 x max_position rows for video positions (rotary_embedding/mrope.py,
 * MRotaryEmbedding.__init__: "In Qwen2.5-VL, the maximum index value is related to the duration
 * of the input video. We enlarge max_position_embeddings to 4 times", cache_max_position_num =
 * max_position_embeddings * 4), three more copies of table 0's rows. */
static uint64_t vllm_mrope_extra_bytes(const struct gs_arch *a, uint64_t element_bytes, bool *ovf)
{
    if (!a->rope_mrope || a->rope_table_count == 0)
        return 0;
    const struct gs_rope_table *t = &a->rope_tables[0];
    return gs_mul(gs_mul(gs_mul(t->rows, t->dim, ovf), element_bytes, ovf), 3, ovf);
}

/* The warm-up batch's KV blocks: max_batch_prefill_tokens in requests of
 * max_input_tokens, each reserving blocks for max_total_tokens - 1 tokens
 * (FlashCausalLMBatch.from_pb: input + max_new_tokens - 1, the router asking
 * max_total_tokens - truncate new tokens). */
static uint64_t tgi_warmup_kv_bytes(const struct gs_inference_input *in,
                                    const struct gs_inference_result *out, bool *ovf)
{
    const uint64_t reqs = ceil_div(out->max_num_batched_tokens, tgi_max_input(in));
    const uint64_t total = in->context_length > 1 ? in->context_length - 1 : 1;
    const uint64_t block_bytes =
        gs_mul(out->block_size, gs_add(out->kv.bytes_per_token, out->kv.indexer_token_bytes, ovf),
               ovf);
    return gs_mul(gs_mul(reqs, ceil_div(total, out->block_size), ovf), block_bytes, ovf);
}

static enum gs_status budget(const struct gs_inference_input *in, struct gs_inference_result *out,
                             struct gs_error *err, bool *ovf)
{
    (void)err;
    const struct gs_engine_config *c = &in->engine;
    struct gs_budget *b = &out->budget;
    const uint64_t t = in->tensor ? in->tensor : 1, p = in->pipeline ? in->pipeline : 1;
    b->total_bytes = in->gpu_total_bytes;
    /* --cpu-offload-gb keeps that much of the weights in host memory */
    b->weights_bytes = in->weights_bytes > c->cpu_offload_bytes
                           ? in->weights_bytes - c->cpu_offload_bytes
                           : 0;
    /* the layers the profile run passes through on this worker */
    uint64_t counts[GS_BLOCKS_MAX], first = 0, end = in->arch->num_hidden_layers;
    if (in->has_stage)
        gs_arch_stage(in->arch, p, in->stage, &first, &end);
    gs_arch_count_blocks(in->arch, first, end, counts);
    const bool last_stage = !in->has_stage || in->stage + 1 >= p;
    const struct gs_vllm_release *rel = out->release ? out->release : gs_vllm_other_engine_profile();
    const struct tgi_release *tgi = c->engine == GS_ENGINE_TGI ? tgi_release_for(c->version) : NULL;
    b->activation_bytes = c->has_activation_bytes
                              ? c->activation_bytes
                              : gs_vllm_activation_peak(in->arch, rel, counts,
                                                        out->max_num_batched_tokens,
                                                        out->max_num_seqs, t,
                                                        out->mla_workspace_tokens,
                                                        in->gpu_sm_count,
                                                        last_stage && !(tgi && tgi->prefill_logprobs),
                                                        ovf);
    /* V0 profile_run on a stage after the first (worker/model_runner.py): the dummy
     * IntermediateTensors, torch.zeros [tokens, hidden] for the hidden states and the residual
     * (make_empty_intermediate_tensors, batch_size the profile's tokens), stay referenced by
     * the caller through the forward. The residual is the one fused_add_rms_norm updates in
     * place, and the hidden states are the first layer's normed input, but from the second
     * layer on the received hidden states are one more hidden-wide tensor per token */
    if (c->engine == GS_ENGINE_VLLM && !rel->v1 && !c->has_activation_bytes && in->has_stage &&
        in->stage > 0 && end - first > 1)
        b->activation_bytes =
            gs_add(b->activation_bytes,
                   gs_mul(gs_mul(out->max_num_batched_tokens, in->arch->hidden_size, ovf),
                          in->model_bytes ? in->model_bytes : 2, ovf),
                   ovf);
    /* V1 profile_run encodes a dummy batch of the largest images first (encoder budget
     * max(max_num_batched_tokens, tokens per image) / tokens per image items, one
     * embed_multimodal call) and keeps the pixel batch and the encoder outputs in
     * encoder_cache until the text run and the dummy sampler are done: they sit under both
     * phases on the worker that runs the encoder (the first pipeline stage) */
    if (c->engine == GS_ENGINE_VLLM && rel->v1 && !c->has_activation_bytes &&
        in->arch->mm_dummy_tokens && (!in->has_stage || in->stage == 0)) {
        const uint64_t per = in->arch->mm_dummy_tokens;
        const uint64_t budget_tokens =
            out->max_num_batched_tokens > per ? out->max_num_batched_tokens : per;
        const uint64_t items = budget_tokens / per;
        const uint64_t elems = gs_add(in->arch->mm_dummy_pixels,
                                      gs_mul(per, in->arch->hidden_size, ovf), ovf);
        out->mm_profile_bytes =
            gs_mul(gs_mul(items, elems, ovf), in->model_bytes ? in->model_bytes : 2, ovf);
        b->activation_bytes = gs_add(b->activation_bytes, out->mm_profile_bytes, ovf);
    }
    uint64_t non_torch = engine_non_torch(in, rel, t, last_stage, ovf);
    /* The rotary cos/sin tables are buffers created with the model, so the weights the engine
     * measures after loading include them on every GPU: vLLM in the model dtype
     * (RotaryEmbeddingBase: cache.to(dtype), get_rope's dtype the default dtype), SGLang by
     * release (gs_sglang_release.rope_element_bytes). Both build them over the config's
     * max_position_embeddings whatever max_model_len is: 2.5 GiB for Llama 4 Scout's 10M
     * positions. TGI computes its cos/sin lazily up to the longest batch (small);
     * TensorRT-LLM's are in the engine, not modelled. */
    const uint64_t model_bytes = in->model_bytes ? in->model_bytes : 2;
    if (c->engine == GS_ENGINE_VLLM) {
        b->rope_cache_bytes = gs_arch_rope_table_bytes(in->arch, model_bytes, ovf);
        b->rope_cache_bytes =
            gs_add(b->rope_cache_bytes, vllm_mrope_extra_bytes(in->arch, model_bytes, ovf), ovf);
        /* buffers the model creates with itself (Qwen3-VL's DeepStack inputs, sized by the
         * scheduler's max_num_batched_tokens) are allocated inside load_model's
         * DeviceMemoryProfiler, so the logged weights include them */
        b->model_buffer_bytes =
            gs_mul(gs_mul(out->max_num_batched_tokens, in->arch->token_buffer_width, ovf),
                   model_bytes, ovf);
        b->weights_bytes = gs_add(b->weights_bytes, b->model_buffer_bytes, ovf);
    }
    if (c->engine == GS_ENGINE_SGLANG) {
        out->sglang_release = gs_sglang_release_for(c->version);
        const uint8_t rope_bytes = out->sglang_release->rope_element_bytes;
        b->rope_cache_bytes =
            gs_arch_rope_table_bytes(in->arch, rope_bytes ? rope_bytes : model_bytes, ovf);
    }
    b->weights_bytes = gs_add(b->weights_bytes, b->rope_cache_bytes, ovf);
    if (c->engine == GS_ENGINE_VLLM && in->weight_format == GS_WF_MXFP4)
        b->layout_bytes = gs_vllm_mxfp4_layout_bytes(in->arch, rel, in->gpu_hw, counts, t,
                                                     in->expert, ovf);
    b->weights_bytes = gs_add(b->weights_bytes, b->layout_bytes, ovf);
    /* SGLang (get_available_gpu_memory after loading) and TGI (get_free_memory in warmup) read
     * the device's free memory, so the caching allocator's segment rounding of each weight
     * tensor is used memory to them, loaded with the weights. vLLM's weights are torch's
     * allocated bytes; its non-torch term leaves the rounding out (memory_reserved) except in
     * 0.6.4, whose non_torch_allocations are the device's used bytes less torch's allocated
     * ones (worker.py determine_num_available_blocks, after empty_cache) */
    const bool v0_device = c->engine == GS_ENGINE_VLLM && !rel->v1 &&
                           rel->non_torch == GS_VLLM_NT_DEVICE;
    if (c->engine == GS_ENGINE_SGLANG || c->engine == GS_ENGINE_TGI || v0_device) {
        const struct gs_weights_request wr = {(enum gs_weight_format)in->weight_format,
                                              in->group_size, t, p, in->experts_only,
                                              in->expert};
        b->segment_slack_bytes = gs_weights_segment_slack(
            in->arch, &wr, counts, !in->has_stage || in->stage == 0, last_stage, ovf);
        if (v0_device)
            non_torch = gs_add(non_torch, b->segment_slack_bytes, ovf);
        else
            b->weights_bytes = gs_add(b->weights_bytes, b->segment_slack_bytes, ovf);
    }
    if (tgi) {
        if (!c->has_activation_bytes) {
            b->activation_bytes = gs_add(b->activation_bytes,
                                         tgi_unfused_mlp_bytes(in->arch, counts,
                                                               out->max_num_batched_tokens, t, ovf),
                                         ovf);
            if (tgi->prefill_logprobs && in->arch->logits)
                b->activation_bytes =
                    gs_add(b->activation_bytes,
                           tgi_logprob_bytes(in, out->max_num_batched_tokens, t, ovf), ovf);
        }
        /* the lm_head of a model with tied embeddings is a tensor of its own
         * (TensorParallelHead.load reads embed_tokens again; Weights.get_tensor copies each
         * read to the device), split over the tensor ranks like the embedding */
        if (in->arch->tie_word_embeddings && in->arch->logits)
            b->weights_bytes = gs_add(b->weights_bytes,
                                      gs_mul(gs_mul(ceil_div(in->arch->vocab_size, t),
                                                    in->arch->hidden_size, ovf),
                                             in->model_bytes ? in->model_bytes : 2, ovf),
                                      ovf);
        if (out->block_size == 1) /* flashinfer */
            non_torch = gs_add(non_torch, TGI_FLASHINFER_WORKSPACE_BYTES, ovf);
    }
    b->cuda_graph_bytes = c->has_cuda_graph_bytes ? c->cuda_graph_bytes : 0;
    b->non_torch_bytes = c->has_non_torch_bytes ? c->non_torch_bytes : non_torch;
    /* vLLM subtracts CUDA graphs only from 0.21 (PR #38284); before, a given figure is shown
     * but the graphs are captured after the KV cache is allocated, as TGI does (warmup
     * captures them after init_kv_cache) */
    const bool graphs = c->engine == GS_ENGINE_VLLM ? rel->graphs_subtracted
                                                    : c->engine != GS_ENGINE_TGI;
    const uint64_t used = gs_add(gs_add(b->weights_bytes, b->activation_bytes, ovf),
                                 gs_add(b->non_torch_bytes, graphs ? b->cuda_graph_bytes : 0, ovf),
                                 ovf);
    switch (c->engine) {
    case GS_ENGINE_VLLM:
        b->rule = "vLLM: gpu_memory_utilization x total GPU memory, minus weights, the profiled "
                  "activation peak, non-torch memory (and from 0.21 the CUDA-graph estimate), for "
                  "the least roomy worker";
        b->fraction_permille = c->gpu_memory_utilization_permille ? c->gpu_memory_utilization_permille
                                                                  : rel->default_util_permille;
        b->requested_bytes = permille_of(b->total_bytes, b->fraction_permille, ovf);
        b->kv_bytes = (int64_t)b->requested_bytes - (int64_t)used;
        if (c->has_kv_cache_memory_bytes) {
            /* --kv-cache-memory-bytes bypasses the profile and gpu_memory_utilization
             * (gpu_worker.determine_available_memory returns it as it is), but the loaded
             * weights and the pool it allocates must both be on the GPU: past its total the
             * allocation fails ("If OOM'ed, check the difference of initial free memory",
             * vLLM's message there). That deficit is the budget then. */
            const uint64_t held = gs_add(b->weights_bytes, c->kv_cache_memory_bytes, ovf);
            b->kv_bytes = held > b->total_bytes ? (int64_t)b->total_bytes - (int64_t)held
                                                : (int64_t)c->kv_cache_memory_bytes;
        }
        break;
    case GS_ENGINE_SGLANG: {
        b->rule = "SGLang: mem_fraction_static x the memory free once the CUDA context and the "
                  "process groups exist holds the weights and the KV pool; activations and CUDA "
                  "graphs live in the reserve outside the fraction";
        /* under data-parallel attention the expert group is every rank (tensor x data), which
         * SGLang's tp_size counts (--tp N --dp D --enable-dp-attention) */
        const uint64_t dp = in->expert > t ? in->expert / t : 1;
        b->fraction_permille =
            c->mem_fraction_static_permille
                ? c->mem_fraction_static_permille
                : gs_sglang_default_fraction_spec_permille(out->sglang_release, b->total_bytes,
                                                           t * dp, p, dp,
                                                           (enum gs_spec_method)c->spec_method);
        if (!c->mem_fraction_static_permille && in->arch->vision_config_layers &&
            out->sglang_release->rule == GS_SGLANG_RULE_RESERVE)
            b->fraction_permille = gs_sglang_vlm_fraction_permille(
                b->fraction_permille, in->arch->vision_config_layers, in->arch->vision_config_hidden);
        /* model_runner.profile_max_num_token: rest = free after loading - baseline x (1 -
         * fraction), the baseline being the free memory before loading (init_torch_distributed),
         * so rest = fraction x baseline - weights */
        const uint64_t baseline =
            b->total_bytes > b->non_torch_bytes ? b->total_bytes - b->non_torch_bytes : 0;
        b->requested_bytes = permille_of(baseline, b->fraction_permille, ovf);
        b->kv_bytes = (int64_t)b->requested_bytes - (int64_t)b->weights_bytes;
        break;
    }
    case GS_ENGINE_TENSORRT_LLM:
        b->rule = "TensorRT-LLM: free_gpu_memory_fraction of the memory free after weights, "
                  "activations and runtime buffers";
        b->fraction_permille = c->free_memory_fraction_permille ? c->free_memory_fraction_permille
                                                                : 900;
        b->requested_bytes = b->total_bytes;
        b->kv_bytes = used >= b->total_bytes
                          ? (int64_t)b->total_bytes - (int64_t)used
                          : (int64_t)permille_of(b->total_bytes - used, b->fraction_permille, ovf);
        break;
    case GS_ENGINE_TGI: {
        b->fraction_permille = c->cuda_memory_fraction_permille ? c->cuda_memory_fraction_permille
                                                                : 1000;
        if (tgi->of_total) {
            /* 3.x: free - (1 - fraction x wiggle) x total, the warm-up blocks added back:
             * fraction x wiggle x total - used */
            b->rule = "TGI 3.x: cuda_memory_fraction x TGI_WIGGLE_ROOM x total GPU memory, minus "
                      "weights, the CUDA context, the warm-up prefill's reserved transients "
                      "(max_batch_prefill_tokens) and flashinfer's workspace";
            b->requested_bytes = permille_of(permille_of(b->total_bytes, b->fraction_permille, ovf),
                                             tgi->wiggle_permille, ovf);
            b->kv_bytes = (int64_t)b->requested_bytes - (int64_t)used;
            break;
        }
        /* before 3.0: (free - (1 - fraction) x total) x wiggle, measured with the warm-up
         * batch's blocks allocated, which are then added back */
        b->rule = "TGI before 3.0: the wiggle room (1.0, 0.95 from 1.4.1, 0.90 in 2.4) of the "
                  "memory free within cuda_memory_fraction x total after the warm-up prefill "
                  "(its logits and log_softmax over every prompt token stay reserved), plus the "
                  "warm-up batch's own blocks";
        b->requested_bytes = permille_of(b->total_bytes, b->fraction_permille, ovf);
        const uint64_t warm = tgi_warmup_kv_bytes(in, out, ovf);
        const uint64_t held = gs_add(used, warm, ovf);
        b->kv_bytes = held >= b->requested_bytes
                          ? (int64_t)b->requested_bytes - (int64_t)held /* the warm-up OOMs */
                          : (int64_t)gs_add(permille_of(b->requested_bytes - held,
                                                        tgi->wiggle_permille, ovf),
                                            warm, ovf);
        break;
    }
    case GS_ENGINE_GENERIC:
    case GS_ENGINE_COUNT:
        b->rule = "generic: everything the GPU reports, minus weights, the activation peak and "
                  "the CUDA context with cuBLAS workspace";
        b->fraction_permille = 1000;
        b->requested_bytes = b->total_bytes;
        b->kv_bytes = (int64_t)b->total_bytes - (int64_t)used;
        break;
    }
    return GS_OK;
}

/* One sequence of `context` tokens in all: an encoder-decoder's prompt goes
 * to the cross-attention cache and only the rest through decoder
 * self-attention; a decoder-only model caches every token. */
static uint64_t sequence_bytes(const struct gs_inference_result *r,
                               const struct gs_inference_input *in, uint64_t context, bool *ovf)
{
    uint64_t encoder = 0, decoder = context;
    if (r->kv.cross_token_bytes) {
        encoder = in->prompt_tokens ? (in->prompt_tokens < context ? in->prompt_tokens : context)
                                    : context;
        if (in->prompt_tokens)
            decoder = context - encoder;
    }
    return gs_kv_sequence_bytes(&r->kv, decoder, encoder, r->block_size,
                                r->max_num_batched_tokens, ovf);
}

/* vLLM's hybrid KV-cache allocator (V1, kv_cache_utils.py
 * _get_kv_cache_groups_uniform_page_size and get_kv_cache_config_from_groups):
 * layers of each attention kind are cut into groups of group_size layers
 * (the fewest of any kind, or the most when that is under 1.5 times the
 * fewest), a kind's last group padded to full size; every group gets
 * num_blocks = available // page // group_size pages, and the log prints
 * (num_blocks // groups) x block_size tokens. With no padding this is the
 * plain all-layers figure; Gemma 3's 52 local and 10 global layers make 7
 * groups of 10, charged as 70 layers. */
static void hybrid_capacity(const struct gs_inference_input *in, struct gs_inference_result *out,
                            uint64_t available)
{
    const struct gs_kv_layout *kv = &out->kv;
    if (in->engine.engine != GS_ENGINE_VLLM || out->release == NULL || !out->release->v1 ||
        out->release->from < 1000 || kv->window_count == 0 || kv->indexer_token_bytes)
        return;
    uint64_t kinds[GS_BLOCKS_MAX + 1], n = 0, fewest = UINT64_MAX, most = 0;
    if (kv->full_layers)
        kinds[n++] = kv->full_layers;
    for (size_t i = 0; i < kv->window_count && n <= GS_BLOCKS_MAX; i++)
        kinds[n++] = kv->windows[i].layers;
    const uint64_t layers = kv->full_layers + kv->window_layers;
    if (n < 2 || layers == 0 || kv->bytes_per_token % layers != 0)
        return; /* one kind, or pages of different sizes: not modelled */
    for (uint64_t i = 0; i < n; i++) {
        fewest = kinds[i] < fewest ? kinds[i] : fewest;
        most = kinds[i] > most ? kinds[i] : most;
    }
    const uint64_t group = 2 * most < 3 * fewest ? most : fewest;
    uint64_t groups = 0;
    for (uint64_t i = 0; i < n; i++)
        groups += ceil_div(kinds[i], group);
    const uint64_t page = out->block_size * (kv->bytes_per_token / layers);
    out->kv_groups = groups;
    out->kv_group_layers = group;
    out->blocks = available / page / group;
    out->max_tokens = out->blocks / groups * out->block_size;
}

#define CONTEXT_SEARCH_MAX ((uint64_t)1 << 26) /* 64M tokens: beyond any model's window */

/* The longest context whose `batch` sequences fit in `available` bytes. */
static uint64_t solve_context(const struct gs_inference_result *r, const struct gs_inference_input *in,
                              uint64_t batch, uint64_t available, bool *ovf)
{
    const struct gs_kv_layout *kv = &r->kv;
    const uint64_t block = r->block_size ? r->block_size : 16; /* as gs_kv_sequence_bytes */
    const uint64_t growing = kv->full_token_bytes + kv->indexer_token_bytes;
    if (kv->window_count == 0 && kv->cross_token_bytes == 0 && growing != 0) {
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
    const struct gs_vllm_release *rel =
        in->engine.engine == GS_ENGINE_VLLM
            ? gs_vllm_release_for_layout(in->engine.version, in->pipeline ? in->pipeline : 1)
            : NULL;
    enum gs_status st = gs_kv_layout_memo(in->arch, in->kv_dtype, in->model_bytes, in->tensor,
                                          in->pipeline, in->has_stage ? in->stage : UINT64_MAX,
                                          rel != NULL && rel->mla_pad, in->kv_memo, &out->kv,
                                          err);
    if (st != GS_OK)
        return st;
    if (in->draft_layers && out->kv.full_layers) {
        /* the draft's attention layers are layers of the same static forward context:
         * get_kv_cache_spec collects them with the target's, and with the same spec they
         * join its group (kv_cache_utils.get_kv_cache_groups), each block one layer larger */
        const uint64_t layer = out->kv.full_token_bytes / out->kv.full_layers;
        const uint64_t index = in->draft_token_bytes
                                   ? 0
                                   : out->kv.indexer_token_bytes / out->kv.full_layers;
        /* a draft of another shape (an EAGLE head, a small model) forms one group with the
         * target's layers whose block is the sum of their pages (UniformTypeKVCacheSpecs,
         * PR #25101): per token, the draft's bytes add all the same */
        const uint64_t add = in->draft_token_bytes ? in->draft_token_bytes
                                                   : gs_mul(layer, in->draft_layers, &ovf);
        out->kv.full_layers = gs_add(out->kv.full_layers, in->draft_layers, &ovf);
        out->kv.full_token_bytes = gs_add(out->kv.full_token_bytes, add, &ovf);
        out->kv.bytes_per_token = gs_add(out->kv.bytes_per_token, add, &ovf);
        out->kv.indexer_token_bytes =
            gs_add(out->kv.indexer_token_bytes, gs_mul(index, in->draft_layers, &ovf), &ovf);
        out->kv.bytes_per_token_total =
            gs_add(out->kv.bytes_per_token_total,
                   gs_mul(gs_add(add, gs_mul(index, in->draft_layers, &ovf), &ovf),
                          in->tensor ? in->tensor : 1, &ovf),
                   &ovf);
    }
    defaults(in, out);
    if (rel != NULL)
        out->release = rel;
    /* the engine admits sequences up to max_model_len (one must fit to start); paged
     * allocation gives each only the blocks its tokens fill */
    const uint64_t seq_max = sequence_bytes(out, in, in->context_length, &ovf);
    const uint64_t seq = in->sequence_tokens && in->sequence_tokens < in->context_length
                             ? sequence_bytes(out, in, in->sequence_tokens, &ovf)
                             : seq_max;
    out->kv_needed_bytes = gs_mul(seq, in->batch_size, &ovf);
    out->starts = true;
    /* the components are known without a GPU; the verdict needs its capacity */
    st = budget(in, out, err, &ovf);
    if (st != GS_OK)
        return st;
    if (in->gpu_total_bytes == 0)
        return ovf ? gs_error_add(err, GS_ERR_RANGE, "", "the KV cache size overflows 64 bits")
                   : GS_OK;
    out->has_budget = true;
    const int64_t kv = out->budget.kv_bytes;
    const uint64_t available = kv > 0 ? (uint64_t)kv : 0;
    const uint64_t growing = gs_add(out->kv.bytes_per_token, out->kv.indexer_token_bytes, &ovf);
    const uint64_t block_bytes = gs_mul(out->block_size, growing, &ovf);
    const bool cached = block_bytes != 0 || out->kv.state_bytes_per_sequence != 0;
    if (block_bytes) {
        out->blocks = available / block_bytes; /* get_num_blocks */
        out->max_tokens = gs_mul(out->blocks, out->block_size, &ovf);
        hybrid_capacity(in, out, available);
        out->max_concurrency = seq ? available / seq : 0;
        out->max_context = solve_context(out, in, in->batch_size ? in->batch_size : 1, available, &ovf);
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
    if (in->engine.engine == GS_ENGINE_VLLM && in->arch->max_model_len &&
        in->context_length > in->arch->max_model_len) {
        /* vLLM's _get_and_verify_max_len refuses a longer max_model_len (unless
         * VLLM_ALLOW_LONG_MAX_MODEL_LEN is set) */
        out->starts = false;
        out->binding = "max_model_len is above the model's maximum (max_position_embeddings with "
                       "its rope scaling); vLLM refuses to start";
    } else if (kv <= 0) {
        out->starts = false;
        out->binding = gs_binding_no_cache;
    } else if (cached && seq_max > available) {
        out->starts = false;
        out->binding = "the KV cache cannot hold one sequence of the requested context length";
    }
    out->holds_batch = out->starts && out->max_concurrency >= in->batch_size;
    if (out->starts && !out->holds_batch)
        out->binding = "the KV cache holds fewer sequences of this context than the requested "
                       "batch; the engine would queue the rest";
    if (ovf)
        return gs_error_add(err, GS_ERR_RANGE, "", "the KV cache size overflows 64 bits");
    return GS_OK;
}
