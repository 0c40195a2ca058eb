/*
 * vllm.c - vLLM's KV-cache accounting by release (see gs/vllm.h). Each rule
 * names the vLLM code and pull request it follows; the quotes and release
 * evidence are in docs/vllm-kv-budget-research.md.
 */
#include "gs/vllm.h"

#include "gs/capability.h"
#include "gs/inference.h"
#include "gs/units.h"

#include <stddef.h>

static const struct gs_vllm_release releases[] = {
    /* Worker.determine_num_available_blocks after PR #9352: torch's allocated peak plus
     * (device used - torch allocated), the CUDA context included. LlamaMLP still
     * `gate_up, _ = self.gate_up_proj(x)`, held through down_proj, until PR #10339 ("Reduce
     * peak memory usage of llama", 2024-11-15, landing after the 0.6.4 tag) */
    {
        .from = 604,
        .name =
            "vLLM 0.6.4 (V0; peak-based accounting: everything the device holds after profiling)",
        .v1 = false,
        .non_torch = GS_VLLM_NT_DEVICE,
        .v0_chunked_tokens = 512,
        .mla_pad = false,
        .moe_shared_cache = false,
        .big_gpu_seqs_1024 = false,
        .graphs_subtracted = false,
        .mla_workspace = GS_VLLM_MLA_WS_NONE,
        .mtp_own_head = true,
        .sampler_logit_bytes = 40,
        .sampler_adds = false,
        .gate_up_held = true,
        .mxfp4_triton = false,
        .sampler_triton_scratch = false,
        .moe_workspace_kept = false,
        .default_util_permille = 900,
        .source = "vllm/worker/worker.py determine_num_available_blocks (PR #9352)",
    },
    /* PR #10511: memory_profiling; weights + torch peak increase + non-torch increase since a
     * baseline taken after the CUDA context */
    {
        .from = 605,
        .name = "vLLM 0.6.5-0.6.6 (V0; memory_profiling, PR #10511)",
        .v1 = false,
        .non_torch = GS_VLLM_NT_GROWTH,
        .v0_chunked_tokens = 512,
        .mla_pad = false,
        .moe_shared_cache = false,
        .big_gpu_seqs_1024 = false,
        .graphs_subtracted = false,
        .mla_workspace = GS_VLLM_MLA_WS_NONE,
        .mtp_own_head = true,
        .sampler_logit_bytes = 40,
        .sampler_adds = false,
        .gate_up_held = false,
        .mxfp4_triton = false,
        .sampler_triton_scratch = false,
        .moe_workspace_kept = false,
        .default_util_permille = 900,
        .source = "vllm/utils.py memory_profiling (PR #10511)",
    },
    /* PRs #11809, #12126: non-torch measured against torch's reserved memory; chunked
     * prefill's default budget 2048 (SchedulerConfig._DEFAULT_MAX_NUM_BATCHED_TOKENS) */
    {
        .from = 700,
        .name = "vLLM 0.7.0-0.7.1 (V0)",
        .v1 = false,
        .non_torch = GS_VLLM_NT_GROWTH,
        .v0_chunked_tokens = 2048,
        .mla_pad = false,
        .moe_shared_cache = false,
        .big_gpu_seqs_1024 = false,
        .graphs_subtracted = false,
        .mla_workspace = GS_VLLM_MLA_WS_NONE,
        .mtp_own_head = true,
        .sampler_logit_bytes = 40,
        .sampler_adds = false,
        .gate_up_held = false,
        .mxfp4_triton = false,
        .sampler_triton_scratch = false,
        .moe_workspace_kept = false,
        .default_util_permille = 900,
        .source = "vllm/worker/worker.py determine_num_available_blocks (PRs #11809, #12126)",
    },
    /* PR #12676: MLA cache entries aligned to 256 bytes (576 -> 640 elements); removed by
     * PR #14842 */
    {
        .from = 702,
        .name = "vLLM 0.7.2-0.7.3 (V0; MLA cache entries padded to 256 bytes)",
        .v1 = false,
        .non_torch = GS_VLLM_NT_GROWTH,
        .v0_chunked_tokens = 2048,
        .mla_pad = true,
        .moe_shared_cache = false,
        .big_gpu_seqs_1024 = false,
        .graphs_subtracted = false,
        .mla_workspace = GS_VLLM_MLA_WS_NONE,
        .mtp_own_head = true,
        .sampler_logit_bytes = 40,
        .sampler_adds = false,
        .gate_up_held = false,
        .mxfp4_triton = false,
        .sampler_triton_scratch = false,
        .moe_workspace_kept = false,
        .default_util_permille = 900,
        .source = "vllm/worker/cache_engine.py _align_cache (PR #12676)",
    },
    /* V1 the default (VLLM_USE_V1); gpu_worker.determine_available_memory a copy of the
     * device-wide V0 formula; fused_moe shares caches 1 and 3 (PR #13625) */
    {
        .from = 800,
        .name = "vLLM 0.8.0-0.9.1 (V1; device-wide accounting)",
        .v1 = true,
        .non_torch = GS_VLLM_NT_DEVICE,
        .v0_chunked_tokens = 2048,
        .mla_pad = false,
        .moe_shared_cache = true,
        .big_gpu_seqs_1024 = false,
        .graphs_subtracted = false,
        .mla_workspace = GS_VLLM_MLA_WS_V1,
        .mtp_own_head = true,
        .sampler_logit_bytes = 14,
        .sampler_adds = false,
        .gate_up_held = false,
        .mxfp4_triton = false,
        .sampler_triton_scratch = false,
        .moe_workspace_kept = false,
        .default_util_permille = 900,
        .source = "vllm/v1/worker/gpu_worker.py determine_available_memory (0.8)",
    },
    /* PRs #18974, #19312: memory_profiling in V1, its snapshot taken after NCCL is set up */
    {
        .from = 902,
        .name = "vLLM 0.9.2-0.9.x (V1; memory_profiling after NCCL init, PR #19312)",
        .v1 = true,
        .non_torch = GS_VLLM_NT_GROWTH,
        .v0_chunked_tokens = 2048,
        .mla_pad = false,
        .moe_shared_cache = true,
        .big_gpu_seqs_1024 = false,
        .graphs_subtracted = false,
        .mla_workspace = GS_VLLM_MLA_WS_V1,
        .mtp_own_head = true,
        .sampler_logit_bytes = 14,
        .sampler_adds = false,
        .gate_up_held = false,
        .mxfp4_triton = false,
        .sampler_triton_scratch = false,
        .moe_workspace_kept = false,
        .default_util_permille = 900,
        .source =
            "vllm/v1/worker/gpu_worker.py init_device and determine_available_memory (PR #19312)",
    },
    /* get_batch_defaults: max_num_seqs 1024 on GPUs of 70 GiB or more (first release
     * unverified; 0.19.0 logs show it) */
    {
        .from = 1000,
        .name = "vLLM 0.10.0-0.11.0 (V1)",
        .v1 = true,
        .non_torch = GS_VLLM_NT_GROWTH,
        .v0_chunked_tokens = 2048,
        .mla_pad = false,
        .moe_shared_cache = true,
        .big_gpu_seqs_1024 = true,
        .graphs_subtracted = false,
        .mla_workspace = GS_VLLM_MLA_WS_V1,
        .mtp_own_head = true,
        .sampler_logit_bytes = 14,
        .sampler_adds = false,
        .gate_up_held = false,
        .mxfp4_triton = false,
        .sampler_triton_scratch = false,
        .moe_workspace_kept = false,
        .default_util_permille = 900,
        .source = "vllm/engine/arg_utils.py get_batch_defaults; vllm/v1/worker/gpu_worker.py",
    },
    /* PR #26859 (merged 2025-10-14, after 0.11.0): FlashInfer's top-k/top-p sampling opt-in
     * (VLLM_USE_FLASHINFER_SAMPLER), so the dummy sampler takes forward_native's sort path,
     * whose peak is torch.sort itself: bf16 and fp32 logits, the sorted values and int64
     * indices, and SortStable.cu's segmented radix sort temporaries (an int64 iota and cub's
     * alternate key and value buffers, 20 B) = 38 B per element */
    {
        .from = 1101,
        .name = "vLLM 0.11.1-0.11.x (V1; PyTorch sort-based top-k/top-p sampler)",
        .v1 = true,
        .non_torch = GS_VLLM_NT_GROWTH,
        .v0_chunked_tokens = 2048,
        .mla_pad = false,
        .moe_shared_cache = true,
        .big_gpu_seqs_1024 = true,
        .graphs_subtracted = false,
        .mla_workspace = GS_VLLM_MLA_WS_V1,
        .mtp_own_head = true,
        .sampler_logit_bytes = 38,
        .sampler_adds = false,
        .gate_up_held = false,
        .mxfp4_triton = false,
        .sampler_triton_scratch = false,
        .moe_workspace_kept = false,
        .default_util_permille = 900,
        .source = "vllm/v1/sample/ops/topk_topp_sampler.py (PR #26859)",
    },
    /* PR #28788 made triton_kernels a default dependency ("After we landed triton_kernels as a
     * default dep in #28788", PR #29339, 2025-11-24), so MXFP4 MoE on Hopper takes the Triton
     * backend; first release taken as 0.12.0. vLLM 0.10.1 logs Marlin on an H100 (issue #23278),
     * 0.14.1 "Using Triton backend" (issue #33155). */
    {
        .from = 1200,
        .name = "vLLM 0.12.0-0.16.x (V1; sort-based sampler, triton_kernels for MXFP4 on Hopper)",
        .v1 = true,
        .non_torch = GS_VLLM_NT_GROWTH,
        .v0_chunked_tokens = 2048,
        .mla_pad = false,
        .moe_shared_cache = true,
        .big_gpu_seqs_1024 = true,
        .graphs_subtracted = false,
        .mla_workspace = GS_VLLM_MLA_WS_V1,
        .mtp_own_head = true,
        .sampler_logit_bytes = 38,
        .sampler_adds = false,
        .gate_up_held = false,
        .mxfp4_triton = true,
        .sampler_triton_scratch = false,
        .moe_workspace_kept = false,
        .default_util_permille = 900,
        .source = "vllm/model_executor/layers/quantization/mxfp4.py get_mxfp4_backend (PR #28788)",
    },
    /* PR #34385: speculative mtp shares the target's head with the MTP layers
     * (llm_base_proposer.py _maybe_share_lm_head: "MTP models call compute_logits via
     * shared_head.head ... Always share it explicitly"); PR #33538 (merged 2026-02-17, first
     * release taken as 0.17 like #34385): top-k/top-p in place by a Triton kernel for
     * batches of 8 or more, so the sampler's peak is logits, fp32 logits, probs and q; the
     * fused-MoE workspaces live in v1/worker/workspace.py's global WorkspaceManager (grown to
     * the largest request, never freed; the 0.19 MoE logs show it beside the sampler - its
     * first release is not established, so it is charged from this row) */
    {
        .from = GS_VLLM_MTP_SHARED_HEAD,
        .name = "vLLM 0.17.0-0.20.x (V1; MTP layers share the target's head)",
        .v1 = true,
        .non_torch = GS_VLLM_NT_GROWTH,
        .v0_chunked_tokens = 2048,
        .mla_pad = false,
        .moe_shared_cache = true,
        .big_gpu_seqs_1024 = true,
        .graphs_subtracted = false,
        .mla_workspace = GS_VLLM_MLA_WS_V1,
        .mtp_own_head = false,
        .sampler_logit_bytes = 14,
        .sampler_adds = false,
        .gate_up_held = false,
        .mxfp4_triton = true,
        .sampler_triton_scratch = true,
        .moe_workspace_kept = true,
        .default_util_permille = 900,
        .source =
            "vllm/engine/arg_utils.py get_batch_defaults; "
            "vllm/v1/spec_decode/llm_base_proposer.py (PR #34385)",
    },
    /* PR #38284: the CUDA-graph memory estimate subtracted by default, utilization 0.92 */
    {
        .from = 2100,
        .name = "vLLM 0.21.0 on (V1; CUDA-graph estimate subtracted, utilization default 0.92)",
        .v1 = true,
        .non_torch = GS_VLLM_NT_GROWTH,
        .v0_chunked_tokens = 2048,
        .mla_pad = false,
        .moe_shared_cache = true,
        .big_gpu_seqs_1024 = true,
        .graphs_subtracted = true,
        .mla_workspace = GS_VLLM_MLA_WS_V1,
        .mtp_own_head = false,
        .sampler_logit_bytes = 14,
        .sampler_adds = false,
        .gate_up_held = false,
        .mxfp4_triton = true,
        .sampler_triton_scratch = true,
        .moe_workspace_kept = true,
        .default_util_permille = 920,
        .source = "vllm/v1/worker/gpu_worker.py determine_available_memory (PRs #30515, #38284)",
    },
};

const struct gs_vllm_release *gs_vllm_release_for(uint32_t version)
{
    if (version == 0)
        version = GS_VLLM_LATEST_MODELED;
    /* the last row that applies; from the end, as most requests name a recent release (or
     * none, the latest) and every estimate of a plan search looks it up */
    for (size_t i = sizeof(releases) / sizeof(releases[0]); i-- > 1;)
        if (releases[i].from <= version)
            return &releases[i];
    return &releases[0];
}

static const struct gs_vllm_release v0_fallback = {
    .from = 800,
    .name = "vLLM 0.8.x V0 engine (pipeline parallelism falls back to V0)",
    .v1 = false,
    .non_torch = GS_VLLM_NT_GROWTH,
    .v0_chunked_tokens = 2048,
    .mla_pad = false,
    .moe_shared_cache = true,
    .big_gpu_seqs_1024 = false,
    .graphs_subtracted = false,
    .mla_workspace = GS_VLLM_MLA_WS_V0,
    .mtp_own_head = true,
    .sampler_logit_bytes = 40,
    .sampler_adds = false,
    .gate_up_held = false,
    .mxfp4_triton = false,
    .sampler_triton_scratch = false,
    .moe_workspace_kept = false,
    .default_util_permille = 900,
    .source = "vllm/engine/arg_utils.py _is_v1_supported_oracle (pipeline parallelism -> V0)",
};

/* The latest row's layer rules (0.17-0.20) with the additive sampler term. */
static const struct gs_vllm_release other_engines = {
    .from = GS_VLLM_LATEST_MODELED,
    .name = "layer peak plus logits, an fp32 copy and probabilities (engines other than vLLM)",
    .v1 = true,
    .non_torch = GS_VLLM_NT_GROWTH,
    .v0_chunked_tokens = 2048,
    .mla_pad = false,
    .moe_shared_cache = true,
    .big_gpu_seqs_1024 = true,
    .graphs_subtracted = false,
    .mla_workspace = GS_VLLM_MLA_WS_V1,
    .mtp_own_head = false,
    .sampler_logit_bytes = 10,
    .sampler_adds = true,
    .gate_up_held = false,
    .mxfp4_triton = true,
    .sampler_triton_scratch = false,
    .moe_workspace_kept = false,
    .default_util_permille = 900,
    .source =
        "gpusizer's rule for TGI, TensorRT-LLM and generic serving (their logs in "
        "tests/fixtures/calibration)",
};

const struct gs_vllm_release *gs_vllm_other_engine_profile(void)
{
    return &other_engines;
}

const struct gs_vllm_release *gs_vllm_release_for_layout(uint32_t version, uint64_t pipeline)
{
    const struct gs_vllm_release *r = gs_vllm_release_for(version);
    if (r->v1 && r->from < 902 && pipeline > 1)
        return &v0_fallback;
    return r;
}

bool gs_vllm_modeled(uint32_t version)
{
    return version == 0 || version >= GS_VLLM_OLDEST_MODELED;
}

static uint64_t max_u64(uint64_t a, uint64_t b)
{
    return a > b ? a : b;
}

static uint64_t min_u64(uint64_t a, uint64_t b)
{
    return a < b ? a : b;
}

void gs_vllm_profile(const struct gs_vllm_release *r, const struct gs_vllm_profile_input *in,
                     struct gs_vllm_profile *out)
{
    const uint64_t mml = in->max_model_len ? in->max_model_len : 1;
    if (!r->v1) {
        /* EngineArgs.create_engine_config: use_long_context = max_model_len > 32768; chunked
         * prefill only on GPUs, without sliding windows, from 0.7 not for MLA or multimodal */
        bool chunked = mml > 32768 && !in->sliding_window &&
                       !(r->from >= 700 && (in->mla || in->multimodal));
        if (in->chunked_prefill != GS_CHUNKED_PREFILL_DEFAULT)
            chunked = in->chunked_prefill == GS_CHUNKED_PREFILL_ON;
        out->chunked_prefill = chunked;
        out->tokens = in->max_num_batched_tokens ? in->max_num_batched_tokens
                      : chunked ? r->v0_chunked_tokens
                                : max_u64(mml, 2048);
        out->seqs = in->max_num_seqs ? in->max_num_seqs : 256; /* EngineArgs.max_num_seqs */
        return;
    }
    /* get_batch_defaults (OpenAI server): 8192 tokens on GPUs of 70 GiB or more but A100
     * (PR #17885), 2048 otherwise; then _set_default_max_num_seqs_and_batched_tokens_args */
    const bool big = in->gpu_total_bytes >= (uint64_t)70 * GS_GIB && !in->gpu_is_a100;
    out->chunked_prefill = in->chunked_prefill != GS_CHUNKED_PREFILL_OFF;
    uint64_t seqs = in->max_num_seqs ? in->max_num_seqs : (big && r->big_gpu_seqs_1024 ? 1024 : 256);
    uint64_t tokens = in->max_num_batched_tokens;
    if (tokens == 0) {
        tokens = big ? 8192 : 2048;
        if (!out->chunked_prefill)
            tokens = max_u64(mml, tokens);
        tokens = min_u64(tokens, seqs * mml);
    }
    if (in->max_num_seqs == 0)
        seqs = min_u64(seqs, tokens);
    out->tokens = tokens;
    out->seqs = seqs;
}

/* Transient bytes one token needs in one layer of block `b` on one tensor
 * rank, bf16 activations: the larger of the attention phase (the residual
 * and its normed copy, the q/k/v projection output and the attention
 * output) and the MLP phase (the residual and normed copy, then the gated
 * MLP's gate_up output and activation, or the fused-MoE kernel's
 * intermediate caches: fused_moe.py fused_experts_impl cache1 [M, top_k, N]
 * and cache3 [M, top_k, hidden] - one shared buffer since PR #13625 - and
 * cache2 [M * top_k, N / 2], N = 2 x the expert width / t). */
static uint64_t layer_token_bytes(const struct gs_arch *a, const struct gs_block *b,
                                  const struct gs_vllm_release *r, uint64_t t, bool *ovf)
{
    const uint64_t h = a->hidden_size, e = 2;
    const struct gs_attention *s = &b->attn;
    uint64_t mixer = 0;
    if (b->mixer == GS_MIXER_ATTENTION) {
        const uint64_t q = s->heads * s->head_dim, kv = s->kv_heads * (s->head_dim + s->v_head_dim);
        mixer = gs_div_ceil(q + kv, t) + gs_div_ceil(s->heads * s->v_head_dim, t);
    } else if (b->mixer == GS_MIXER_MLA) {
        const uint64_t q = s->heads * (s->qk_nope_head_dim + s->qk_rope_head_dim);
        const uint64_t kv = s->heads * (s->qk_nope_head_dim + s->v_head_dim);
        mixer = gs_div_ceil(q + kv, t) + s->kv_lora_rank + s->qk_rope_head_dim +
                gs_div_ceil(s->heads * s->v_head_dim, t);
    }
    if (b->rec.conv_channels || b->rec.in_width)
        mixer = gs_add(mixer, gs_div_ceil(b->rec.in_width + b->rec.conv_channels + b->rec.inner, t),
                       ovf);
    const uint64_t attention_phase = gs_mul(e, gs_add(2 * h, mixer, ovf), ovf);
    uint64_t mlp = 0;
    if (b->mlp.kind == GS_MLP_DENSE) {
        mlp = gs_mul(b->mlp.gated ? 3 : 2, gs_div_ceil(b->mlp.width, t), ovf);
        /* gate_up still held when down_proj writes its output: one more hidden-wide tensor */
        if (b->mlp.gated && r->gate_up_held)
            mlp = gs_add(mlp, h, ovf);
    } else if (b->mlp.kind == GS_MLP_MOE) {
        const uint64_t n = (b->mlp.gated ? 2 : 1) * gs_div_ceil(b->mlp.width, t);
        uint64_t per_topk = (n > h ? n : h) + n / 2;
        if (!r->moe_shared_cache)
            per_topk += h; /* cache3 a buffer of its own before PR #13625 */
        mlp = gs_mul(b->mlp.top_k, per_topk, ovf);
        if (b->mlp.shared_width)
            mlp = gs_add(mlp, gs_mul(3, gs_div_ceil(b->mlp.shared_width, t), ovf), ovf);
    }
    const uint64_t mlp_phase = gs_mul(e, gs_add(2 * h, mlp, ovf), ovf);
    return attention_phase > mlp_phase ? attention_phase : mlp_phase;
}

uint64_t gs_vllm_mla_workspace_tokens(const struct gs_vllm_release *r, uint64_t max_model_len,
                                      uint64_t max_num_seqs, uint64_t block_size,
                                      bool chunked_prefill, bool prefix_caching)
{
    if (r->mla_workspace == GS_VLLM_MLA_WS_NONE ||
        (r->mla_workspace == GS_VLLM_MLA_WS_V0 && !chunked_prefill && !prefix_caching))
        return 0;
    /* "enough for 8 full length request or at least 4 pages of cache per request",
     * "limiting it to 64k tokens" (V1) or 128k (V0's MLACommonState) */
    bool ovf = false;
    const uint64_t pages = gs_mul(max_num_seqs, block_size, &ovf);
    uint64_t rows = max_u64(gs_mul(8, max_model_len, &ovf), gs_mul(4, pages, &ovf));
    if (ovf) /* beyond any workspace: the caps below apply */
        rows = UINT64_MAX;
    if (r->mla_workspace == GS_VLLM_MLA_WS_V0)
        return min_u64(rows, 128 * 1024);
    /* V1: "Enforce that we enough for at least 1 page per request" */
    return max_u64(min_u64(rows, 64 * 1024), pages);
}

/* What an MLA layer holds, per token on one tensor rank, when its
 * attention starts: the decoder layer's residual and normed input, the
 * latent projections (q_a's output and its normed copy with a q LoRA, the
 * kv_a output of kv_lora + rope, the normed kv latent) and, in V1, the
 * query up-projection and the attention's output buffer
 * (layers/mla.py MultiHeadLatentAttentionWrapper.forward, MLAAttention's
 * output = torch.empty(output_shape)); in V0 0.8.x the impl's forward starts
 * before the query projection (attention/backends/mla/common.py
 * MLACommonImpl.forward) and the kv latent is normed from a contiguous copy
 * (models/deepseek_v2.py DeepseekV2MLAAttention.forward). */
static uint64_t mla_entry_token_bytes(const struct gs_arch *a, const struct gs_attention *s,
                                      bool v1, uint64_t t, bool *ovf)
{
    uint64_t n = 2 * a->hidden_size + 2 * s->q_lora_rank + s->kv_lora_rank + s->qk_rope_head_dim;
    n = gs_add(n, v1 ? s->kv_lora_rank : 2 * s->kv_lora_rank, ovf);
    if (v1)
        n = gs_add(n, gs_div_ceil(s->heads * (s->qk_nope_head_dim + s->qk_rope_head_dim + s->v_head_dim),
                                  t), ovf);
    return gs_mul(n, 2, ovf);
}

/* What V0's MLA implementation adds, per token on one tensor rank, at its
 * peak inside the attention (attention/backends/mla/common.py
 * MLACommonImpl.forward and _forward_prefill, 0.7.1-0.8.x): the output
 * buffer it allocates before the prefill (torch.empty(tokens,
 * o_proj.output_size), hidden wide), the projected query [heads, qk_nope +
 * rope], then in _forward_prefill, whose locals all live until it returns,
 * kv_b_proj's output [heads, qk_nope + v], the concatenated key and the
 * zero-padded value [heads, qk_nope + rope] each, and the largest of: the
 * attention output [heads, qk_nope + rope] with, next, its unpadded copy
 * [heads, v]; or, once the attention output is rebound to that copy,
 * o_proj's output and, under tensor parallelism, the all-reduce's
 * out-of-place result (hidden wide each). */
static uint64_t mla_v0_impl_token_elems(const struct gs_arch *a, const struct gs_attention *s,
                                        uint64_t t)
{
    const uint64_t heads = (s->heads + t - 1) / t, h = a->hidden_size;
    const uint64_t qk = heads * (s->qk_nope_head_dim + s->qk_rope_head_dim);
    const uint64_t kv_nope = heads * (s->qk_nope_head_dim + s->v_head_dim);
    const uint64_t unpadded = heads * s->v_head_dim;
    const uint64_t held = kv_nope + 2 * qk; /* kv_nope, k, v_padded */
    const uint64_t at_attention = held + qk + unpadded;
    const uint64_t at_o_proj = held + unpadded + h + (t > 1 ? h : 0);
    return h + qk + max_u64(at_attention, at_o_proj);
}

/* The fused-MoE workspaces TritonExperts asks the WorkspaceManager for at
 * `tokens` (modular_kernel.py _allocate_buffers, fused_moe.py
 * TritonExperts.workspace_shapes): workspace13 [M, top_k, max(N / 2, K)]
 * (fused_out shares it) and workspace2 [M, top_k, max(N, K)] in bf16, N =
 * 2 x the expert width per rank, K = hidden; the largest MoE block's. */
static uint64_t moe_workspace(const struct gs_arch *a, const uint64_t counts[GS_BLOCKS_MAX],
                              uint64_t tokens, uint64_t t, bool *ovf)
{
    uint64_t most = 0;
    const uint64_t k_dim = a->hidden_size;
    for (size_t k = 0; k < a->block_count; k++) {
        const struct gs_block *b = &a->blocks[k];
        if (counts[k] == 0 || b->mlp.kind != GS_MLP_MOE)
            continue;
        const uint64_t width = gs_div_ceil(b->mlp.width, t);
        const uint64_t n = b->mlp.gated ? 2 * width : width;
        const uint64_t per_slot = gs_add(max_u64(n / 2, k_dim), max_u64(n, k_dim), ovf);
        most = max_u64(most, gs_mul(gs_mul(gs_mul(tokens, b->mlp.top_k, ovf), per_slot, ovf), 2,
                                    ovf));
    }
    return most;
}

uint64_t gs_vllm_activation_peak(const struct gs_arch *a, const struct gs_vllm_release *r,
                                 const uint64_t counts[GS_BLOCKS_MAX], uint64_t tokens,
                                 uint64_t seqs, uint64_t t, uint64_t mla_workspace_tokens,
                                 uint64_t gpu_sm_count, bool last_stage, bool *ovf)
{
    t = t ? t : 1;
    uint64_t per_token = 0, mla_peak = 0, mla_kept = 0;
    for (size_t k = 0; k < a->block_count; k++) {
        if (counts[k] == 0)
            continue;
        const struct gs_block *b = &a->blocks[k];
        const uint64_t one = layer_token_bytes(a, b, r, t, ovf);
        if (one > per_token)
            per_token = one;
        if (b->mixer != GS_MIXER_MLA || (r->v1 && mla_workspace_tokens == 0))
            continue;
        /* MLACommonImpl.forward in the profile run: "simulate to worse case output size for
         * self.kv_b_proj(kv_c_normed) in _compute_prefill_context": torch.empty((workspace
         * rows, num_heads, qk_nope_head_dim + v_head_dim)), the heads this rank holds. V0
         * binds it to the local `_`, alive until forward returns, so it sits under the
         * prefill's own transients (mla_v0_impl_token_elems) */
        const struct gs_attention *s = &b->attn;
        const uint64_t up = gs_mul(gs_mul(mla_workspace_tokens,
                                          gs_div_ceil(s->heads, t), ovf),
                                   gs_mul(s->qk_nope_head_dim + s->v_head_dim, 2, ovf), ovf);
        uint64_t entry = mla_entry_token_bytes(a, s, r->v1, t, ovf);
        if (!r->v1)
            entry = gs_add(entry, gs_mul(mla_v0_impl_token_elems(a, s, t), 2, ovf), ovf);
        const uint64_t at = gs_add(gs_mul(tokens, entry, ovf), up, ovf);
        mla_peak = max_u64(mla_peak, at);
        /* V0: MLACommonState.begin_forward allocates the workspace itself,
         * [rows, kv_lora_rank + rope] in the model dtype, at the profile run's first step */
        if (!r->v1 && mla_workspace_tokens)
            mla_kept = gs_mul(gs_mul(mla_workspace_tokens,
                                     s->kv_lora_rank + s->qk_rope_head_dim, ovf), 2, ovf);
    }
    uint64_t peak = gs_add(max_u64(gs_mul(tokens, per_token, ovf), mla_peak), mla_kept, ovf);
    if (last_stage && a->logits) {
        /* V0 profile_run (execute_model: compute_logits and sample after the model returns)
         * and V1 _dummy_sampler_run: logits for the last token of each of the
         * min(max_num_seqs, tokens) dummy requests, gathered whole on the sampling rank, with
         * top_k = vocab - 1 and top_p < 1 so the top-k/top-p path runs. Alive at its peak:
         * the model's output hidden states [tokens, h] and the requests' rows [reqs, h] (V1
         * also torch.rand_like of them), and sampler_logit_bytes per request x vocabulary
         * element (gs_vllm_release) */
        const uint64_t reqs = tokens < seqs ? tokens : seqs;
        const uint64_t h = a->hidden_size;
        uint64_t logits = gs_mul(gs_mul(reqs, a->vocab_size, ovf), r->sampler_logit_bytes, ovf);
        /* topk_topp_triton.py: buffer = logits.new_empty((min(next_power_of_2(programs),
         * num_sm), vocab)), programs = min(num_sm, requests), cached in _TRITON_BUFFER_CACHE;
         * the kernel runs for 8 requests or more */
        if (r->sampler_triton_scratch && gpu_sm_count && reqs >= 8)
            logits = gs_add(logits, gs_mul(gs_mul(min_u64(gpu_sm_count, reqs), a->vocab_size, ovf),
                                           4, ovf),
                            ovf);
        if (r->sampler_adds)
            return gs_add(peak, logits, ovf);
        const uint64_t hidden = gs_mul(gs_add(tokens, gs_mul(reqs, r->v1 ? 2 : 1, ovf), ovf),
                                       gs_mul(h, 2, ovf), ovf);
        const uint64_t kept =
            gs_add(mla_kept, r->moe_workspace_kept ? moe_workspace(a, counts, tokens, t, ovf) : 0,
                   ovf);
        peak = max_u64(peak, gs_add(gs_add(hidden, logits, ovf), kept, ovf));
    }
    return peak;
}

static uint64_t round_up(uint64_t n, uint64_t m)
{
    return (n + m - 1) / m * m;
}

uint64_t gs_vllm_mxfp4_layout_bytes(const struct gs_arch *a, const struct gs_vllm_release *r,
                                    uint8_t hw, const uint64_t counts[GS_BLOCKS_MAX], uint64_t t,
                                    uint64_t ep, bool *ovf)
{
    const bool triton = hw == GS_HW_HOPPER && r->mxfp4_triton;
    const bool marlin = !triton && (hw == GS_HW_AMPERE || hw == GS_HW_ADA || hw == GS_HW_HOPPER);
    if (!triton && !marlin)
        return 0;
    t = t ? t : 1;
    const uint64_t h = a->hidden_size;
    uint64_t total = 0;
    for (size_t k = 0; k < a->block_count; k++) {
        const struct gs_block *b = &a->blocks[k];
        if (counts[k] == 0 || b->mlp.kind != GS_MLP_MOE || b->mlp.experts == 0 || !b->mlp.gated)
            continue;
        /* under expert parallelism each rank holds whole experts (FusedMoE's tp_size 1) */
        const uint64_t e = ep > 1 ? gs_div_ceil(b->mlp.experts, ep) : b->mlp.experts;
        const uint64_t width = ep > 1 ? b->mlp.width : gs_div_ceil(b->mlp.width, t);
        bool bias = false;
        for (size_t m = 0; m < b->module_count; m++)
            bias = bias || ((b->modules[m].flags & GS_MOD_EXPERT) &&
                            (b->modules[m].flags & GS_MOD_BIAS));
        uint64_t layer;
        if (triton) {
            /* intermediate_size_per_partition rounded up to 64, hidden unpadded: the values and
             * the registered scales grow by the padding (17 bytes per 32 values) */
            const uint64_t wp = round_up(width, 64);
            layer = gs_div_ceil(gs_mul(gs_mul(gs_mul(e, 3, ovf), h, ovf), (wp - width) * 17, ovf),
                                32);
            /* HopperMXScaleLayout: a second, swizzled copy of the scales, rows padded to 256:
             * w13 [2 x wp -> 256] x h / 32, w2 [h -> 256] x wp / 32 */
            layer = gs_add(layer,
                           gs_mul(e, gs_add(gs_mul(round_up(2 * wp, 256), h / 32, ovf),
                                            gs_mul(round_up(h, 256), wp / 32, ovf), ovf),
                                  ovf),
                           ovf);
            /* biases .to(torch.float32) at the padded width, where gpusizer counts bf16 */
            if (bias)
                layer = gs_add(layer,
                               gs_mul(e, gs_add(gs_mul(2 * wp, 4, ovf), gs_mul(h, 2, ovf), ovf),
                                      ovf) - gs_mul(e, gs_mul(2 * width, 2, ovf), ovf),
                               ovf);
        } else {
            /* Marlin: width rounded up to 128 and hidden to 256, values and one-byte scales */
            const uint64_t wp = round_up(width, 128), hp = round_up(h, 256);
            const uint64_t grown = gs_mul(wp, hp, ovf) - gs_mul(width, h, ovf);
            layer = gs_div_ceil(gs_mul(gs_mul(e, 3, ovf), gs_mul(grown, 17, ovf), ovf), 32);
        }
        total = gs_add(total, gs_mul(layer, counts[k], ovf), ovf);
    }
    return total;
}

/* What grows outside torch while the profile run first launches the model's
 * kernels (CUDA lazy loading maps their modules) and creates cuBLAS
 * handles: 0.16 GiB in vLLM PR #12126's single-GPU log (non_torch 0.16
 * GiB), floor(0.16 x 2^30). */
#define PROFILE_GROWTH_BYTES ((uint64_t)171798691)

uint64_t gs_vllm_non_torch(const struct gs_vllm_release *r, enum gs_link link, uint64_t t,
                           bool cross_node, bool last_stage, bool *overflow)
{
    /* device-wide accounting also counts the CUDA context, created before any baseline */
    uint64_t bytes = PROFILE_GROWTH_BYTES + gs_runtime_comm_bytes(link, t, cross_node);
    if (r->non_torch == GS_VLLM_NT_DEVICE)
        bytes += GS_CUDA_CONTEXT_BYTES;
    /* V0's LogitsProcessor gathers the vocabulary shards to the first tensor rank of the last
     * stage (use_all_gather only under V1 or external_launcher: platforms/interface.py;
     * before 0.8 use_gather = not TPU) through GroupCoordinator.gather, which calls
     * torch.distributed.gather on the device group: the profile run's dummy forward creates
     * torch's NCCL communicator for the group there and NCCL connects every other rank to
     * that one, after the baseline, so the driver worker of the last stage is the least
     * roomy (docs/vllm-kv-budget-research.md section 14) */
    if (!r->v1 && last_stage)
        bytes = gs_add(bytes, gs_runtime_gather_root_bytes(link, t, overflow), overflow);
    return bytes;
}
