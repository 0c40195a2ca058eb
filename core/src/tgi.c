/*
 * tgi.c - Hugging Face's text-generation-inference as an engine module (see
 * gs/engine.h): its warm-up, its free-memory rule by release and what its
 * model code holds beside vLLM's profile.
 */
#include "gs/engine.h"

#include "gs/runtime.h"
#include "gs/units.h"
#include "gs/vllm.h"

static uint64_t ceil_div(uint64_t n, uint64_t d)
{
    return gs_div_ceil(n, d ? d : 1);
}

/* TGI's warm-up by release (text-generation-inference,
 * server/text_generation_server/readers/flash_causal_lm.py FlashCausalLM.warmup,
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

static void tgi_defaults(const struct gs_inference_input *in, struct gs_inference_result *out)
{
    const struct gs_engine_config *c = &in->engine;
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
}

/* The profile of vLLM's latest modelled release (gs_vllm_other_engine_profile) without the
 * sampler where the warm-up computes prompt logprobs instead; get_free_memory reads
 * torch.cuda.mem_get_info, the device's free memory, so the CUDA context counts along with
 * what loads while warming up, and so does the allocator's rounding of the weights. */
static void tgi_load(const struct gs_inference_input *in, const struct gs_engine_stage *stage,
                     struct gs_inference_result *out, uint64_t *non_torch, bool *ovf)
{
    const struct gs_engine_config *c = &in->engine;
    const struct gs_vllm_release *profile = gs_vllm_other_engine_profile();
    const struct tgi_release *tgi = tgi_release_for(c->version);
    const uint64_t t = stage->tensor;
    struct gs_budget *b = &out->budget;
    b->activation_bytes = gs_vllm_engine_peak(in, stage, out, profile,
                                              stage->last_stage && !tgi->prefill_logprobs, ovf);
    *non_torch = gs_add(GS_CUDA_CONTEXT_BYTES,
                        gs_vllm_non_torch(profile, (enum gs_link)in->gpu.link, t, in->cross_node,
                                          stage->last_stage, ovf),
                        ovf);
    b->segment_slack_bytes = gs_engine_segment_slack(in, stage, ovf);
    b->weights_bytes = gs_add(b->weights_bytes, b->segment_slack_bytes, ovf);
    if (!c->has_activation_bytes) {
        b->activation_bytes = gs_add(b->activation_bytes,
                                     tgi_unfused_mlp_bytes(in->arch, stage->counts,
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
        *non_torch = gs_add(*non_torch, TGI_FLASHINFER_WORKSPACE_BYTES, ovf);
}

/* warmup captures the CUDA graphs after init_kv_cache: a given figure is shown, not counted */
static bool tgi_graphs(const struct gs_inference_result *out)
{
    (void)out;
    return false;
}

static void tgi_pool(const struct gs_inference_input *in, struct gs_inference_result *out,
                     uint64_t used, bool *ovf)
{
    const struct gs_engine_config *c = &in->engine;
    const struct tgi_release *tgi = tgi_release_for(c->version);
    struct gs_budget *b = &out->budget;
    /* get_free_memory reads torch.cuda.mem_get_info: other processes' memory is not free */
    used = gs_add(used, in->gpu.in_use_bytes, ovf);
    b->fraction_permille = c->cuda_memory_fraction_permille ? c->cuda_memory_fraction_permille
                                                            : 1000;
    if (tgi->of_total) {
        /* 3.x: free - (1 - fraction x wiggle) x total, the warm-up blocks added back:
         * fraction x wiggle x total - used */
        b->rule = "TGI 3.x: cuda_memory_fraction x TGI_WIGGLE_ROOM x total GPU memory, minus "
                  "weights, the CUDA context, the warm-up prefill's reserved transients "
                  "(max_batch_prefill_tokens) and flashinfer's workspace";
        b->requested_bytes = gs_engine_permille_of(
            gs_engine_permille_of(b->total_bytes, b->fraction_permille, ovf), tgi->wiggle_permille,
            ovf);
        b->kv_bytes = (int64_t)b->requested_bytes - (int64_t)used;
        return;
    }
    /* before 3.0: (free - (1 - fraction) x total) x wiggle, measured with the warm-up
     * batch's blocks allocated, which are then added back */
    b->rule = "TGI before 3.0: the wiggle room (1.0, 0.95 from 1.4.1, 0.90 in 2.4) of the "
              "memory free within cuda_memory_fraction x total after the warm-up prefill "
              "(its logits and log_softmax over every prompt token stay reserved), plus the "
              "warm-up batch's own blocks";
    b->requested_bytes = gs_engine_permille_of(b->total_bytes, b->fraction_permille, ovf);
    const uint64_t warm = tgi_warmup_kv_bytes(in, out, ovf);
    const uint64_t held = gs_add(used, warm, ovf);
    b->kv_bytes = held >= b->requested_bytes
                      ? (int64_t)b->requested_bytes - (int64_t)held /* the warm-up OOMs */
                      : (int64_t)gs_add(gs_engine_permille_of(b->requested_bytes - held,
                                                              tgi->wiggle_permille, ovf),
                                        warm, ovf);
}

const struct gs_engine_ops gs_engine_tgi = {
    .engine = GS_ENGINE_TGI,
    .name = "tgi",
    .block_size = 1,
    .budget_source =
        "TGI flash_causal_lm.warmup and get_free_memory by release (inference.engine_version, "
        "default 3.3): cuda_memory_fraction (launcher default 1.0) x TGI_WIGGLE_ROOM (0.90 "
        "from 3.3, models/globals.py) x total from 3.0, the wiggle x the free memory before; "
        "the warm-up prefill of max_batch_prefill_tokens (inference.max_num_batched_tokens; "
        "default 4096, max_input_tokens + 50 in 2.x) with its prompt logprobs before 3.0; "
        "core/src/tgi.c",
    .block_source = "TGI BLOCK_SIZE (models/globals.py): 1 with flashinfer, the launcher's "
                    "default from 2.3; 16 with paged attention before; 256 with flashdecoding "
                    "for head dims other than 64, 128 and 256",
    .slack_detail = GS_ENGINE_SLACK_FREE_MEMORY,
    /* the launcher shards with --num-shard (tensor parallelism); pipeline parallelism was
     * declined (text-generation-inference issues #1275 and #1742) */
    .no_pipeline = true,
    .spec = GS_ENGINE_SPEC_NONE,
    .defaults = tgi_defaults,
    .load = tgi_load,
    .graphs_subtracted = tgi_graphs,
    .pool = tgi_pool,
};
