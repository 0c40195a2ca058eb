/*
 * tensorrt_llm.c - TensorRT-LLM as an engine module (see gs/engine.h), by release
 * (inference.engine_version; default the newest modelled, 1.3):
 *  - before 1.0, the TensorRT engine path (trtllm-build, the C++ executor): the KV pool is
 *    kv_cache_free_gpu_mem_fraction (0.9) of the memory cudaMemGetInfo reports free once the
 *    engine, its execution context and the runtime buffers are in place
 *    (cpp/tensorrt_llm/batch_manager/kvCacheManager.cpp calculateFreeMemBytes), 64 tokens a
 *    block (the build's tokens_per_block); the engine's buffers follow vLLM's latest modelled
 *    profile (gs_vllm_other_engine_profile), TensorRT's own not being modelled;
 *  - from 1.0, the PyTorch backend, the default of trtllm-serve and the LLM API: KvCacheCreator
 *    (tensorrt_llm/_torch/pyexecutor/_util.py) builds the executor on a small cache, captures
 *    its CUDA graphs, runs one context forward of max_num_tokens tokens
 *    (_create_dummy_context_requests: requests of at most max_seq_len - 1 tokens, one output
 *    token each), takes the peak (torch's allocated peak plus everything outside torch: CUDA
 *    context, NCCL, cuBLAS, the graphs' pools, the small cache) and sizes the cache as
 *    free_gpu_memory_fraction x (total - peak + the small cache) (_cal_max_memory); 32 tokens a
 *    block, max_num_tokens 8192 and max_batch_size 2048 by default (llmapi/llm_args.py
 *    KvCacheConfig, TorchLlmArgs).
 *  - from 1.3 (its release candidates from rc22, July 2026: PRs #16399, #16432), MLA models
 *    with an fp8 KV cache hold back the context-MLA dequant workspace from that budget while
 *    block reuse is on and chunked prefill off, the defaults (mla_workspace_reserve below);
 *    release candidates are read as the release they lead to.
 * A hybrid's recurrent (Mamba, linear-attention) states are kept for max_batch_size sequences
 * whatever the batch (trtllm_state_pool below): from 1.0 as torch tensors allocated before the
 * profile, so they come out of the memory the fraction takes its share of; in 1.3 as blocks of
 * the KV pool, a fixed cost inside the budget.
 * Both lower max_seq_len to what the cache holds rather than refuse to start
 * (TrtGptModelInflightBatching::adjustMaxAttentionWindow; in the PyTorch backend
 * KVCacheManager's attention-window check, resource_manager.py: "Adjusted max_seq_len").
 */
#include "gs/capability.h"
#include "gs/engine.h"

#include "gs/runtime.h"
#include "gs/trtllm.h"
#include "gs/units.h"
#include "gs/vllm.h"
#include "gs/weights.h"

#include <stddef.h>

/* Where a hybrid's recurrent states live. */
enum trtllm_states {
    STATES_GENERIC, /* not read (the engine path): each sequence's states in the pool */
    STATES_BEFORE,  /* torch tensors for max_batch_size sequences, allocated before the
                       profile: in its peak, so outside the fraction's share */
    STATES_IN_POOL, /* blocks of the KV pool for max_batch_size x pp sequences and one CUDA
                       graph padding slot: a fixed cost inside the budget */
};

struct trtllm_release {
    uint32_t from;   /* major * 10000 + minor * 100 + patch */
    const char *name;
    bool pytorch;    /* the PyTorch backend's profiling rule, else the engine path's */
    uint64_t block_size;
    bool mla_workspace_reserve; /* the fp8 context-MLA workspace held back from the pool */
    enum trtllm_states states;
    bool states_v2; /* the hybrids whose model defaults pick MambaHybridCacheManagerV2 split the
                       quota between the state pool and the attention pool (v2_split) */
    enum gs_trtllm_spec_rules spec; /* speculative decoding (gs/trtllm.h) */
    const char *source;
};

static const struct trtllm_release releases[] = {
    {800, "0.8", false, 64, false, STATES_GENERIC, false, GS_TRTLLM_SPEC_UNSIZED,
     "TensorRT engine path: kv_cache_free_gpu_mem_fraction (default 0.9) of the memory free "
     "after the engine, its execution context and runtime buffers load "
     "(cpp/tensorrt_llm/batch_manager/kvCacheManager.cpp calculateFreeMemBytes, "
     "kDefaultGpuMemFraction); tokens_per_block 64 (the build's plugin config)"},
#define TRTLLM_1_0_SOURCE                                                                          \
    "PyTorch backend, the default from 1.0: KvCacheCreator profiles one context forward of "       \
    "max_num_tokens tokens with the CUDA graphs captured, then the cache is "                      \
    "free_gpu_memory_fraction x (total - peak + the estimation cache) "                            \
    "(tensorrt_llm/_torch/pyexecutor/_util.py _cal_max_memory); KvCacheConfig tokens_per_block "   \
    "32, max_num_tokens 8192, max_batch_size 2048 (tensorrt_llm/llmapi/llm_args.py); a "           \
    "hybrid's states in MambaHybridCacheManager's tensors for max_batch_size sequences, built "    \
    "before the profile (_torch/pyexecutor/mamba_cache_manager.py MambaCacheManager)"
    {10000, "1.0", true, 32, false, STATES_BEFORE, false, GS_TRTLLM_SPEC_1_0, TRTLLM_1_0_SOURCE},
    {10100, "1.1-1.2", true, 32, false, STATES_BEFORE, false, GS_TRTLLM_SPEC_1_1,
     TRTLLM_1_0_SOURCE "; speculative decoding as 1.0 but for EAGLE-3's and MTP-Eagle's draft KV "
                       "layers, as many as draft tokens (_torch/speculative/utils.py "
                       "get_num_spec_layers), and MTP-Eagle's extra KV tokens, none"},
    {10300, "1.3 (release candidates from rc22, July 2026)", true, 32, true, STATES_IN_POOL, true,
     GS_TRTLLM_SPEC_1_3,
     "PyTorch backend as 1.0, and for MLA models with an fp8 KV cache, block reuse on and "
     "chunked prefill off (the defaults) the context-MLA K/V dequant workspace held back from "
     "the cache (tensorrt_llm/_torch/pyexecutor/_util.py get_mla_context_workspace_reserve, "
     "configure_kv_cache_capacity; PRs #16399, #16432); a hybrid's states as blocks of the KV "
     "pool, (max_batch_size x pp + 1) of them a fixed cost of the budget "
     "(CppMambaHybridCacheManager, the default hybrid manager; _util.py CacheCost, "
     "mamba_cache_manager _estimate_mamba_hybrid_cache_cost; PRs #12185, #12896); a one-model "
     "draft's KV layers in a pool of their own holding as many tokens as the target's, the "
     "budget over both (_util.py _get_kv_size_per_token, PR #10502); Nemotron-H, Qwen3-Next and "
     "Qwen3.5 on MambaHybridCacheManagerV2 (their model defaults from rc24-rc25, PRs #16598, "
     "#17049, #16768): the budget a quota split by a typical step's bytes, the state pool "
     "floored at max_batch_size x pp + 1 slots (kv_cache/mamba_cache_manager/"
     "mamba_cache_manager_v2.py _build_cache_config; runtime/kv_cache_manager_v2 "
     "ratio_to_slot_count_list)"},
};

#define RELEASES (sizeof(releases) / sizeof(releases[0]))
#undef TRTLLM_1_0_SOURCE

/* The rules of release `version` (0: the newest modelled); releases before the first row
 * take its rules. */
static const struct trtllm_release *release_for(uint32_t version)
{
    if (version == 0)
        return &releases[RELEASES - 1];
    const struct trtllm_release *r = &releases[0];
    for (size_t i = 0; i < RELEASES; i++)
        if (releases[i].from <= version)
            r = &releases[i];
    return r;
}

enum gs_trtllm_spec_rules gs_trtllm_spec_rules_for(uint32_t version)
{
    return release_for(version)->spec;
}

/* The request's speculative mode (gs_trtllm_spec_for), false where it runs none or the request
 * was refused (estimate_serving.c answers that 400 before the engine runs). */
static bool spec_of(const struct gs_inference_input *in, struct gs_trtllm_spec *s)
{
    const struct gs_engine_config *c = &in->engine;
    return c->spec_method != GS_SPEC_NONE &&
           gs_trtllm_spec_for(in->arch, in->draft, (enum gs_spec_method)c->spec_method,
                              c->spec_tokens, c->version, in->pipeline, s, NULL) == GS_OK;
}

static void trtllm_defaults(const struct gs_inference_input *in, struct gs_inference_result *out)
{
    const struct gs_engine_config *c = &in->engine;
    const struct trtllm_release *rel = release_for(c->version);
    if (!rel->pytorch) {
        gs_engine_server_batch_defaults(in, out);
        return;
    }
    if (!c->block_size)
        out->block_size = rel->block_size;
    /* TorchLlmArgs: max_num_tokens 8192, max_batch_size 2048 */
    out->max_num_batched_tokens = c->max_num_batched_tokens ? c->max_num_batched_tokens : 8192;
    out->max_num_seqs = c->max_num_seqs ? c->max_num_seqs : 2048;
    /* KVCacheManager.prepare_resources: a request adds num_extra_kv_tokens and its draft tokens
     * beside its own, and keeps them while it runs (a verify step rewinds the rejected ones and
     * adds the next draft's) */
    struct gs_trtllm_spec s;
    if (spec_of(in, &s)) {
        out->seq_extra_tokens = s.extra_kv_tokens + s.draft_tokens;
        out->spec_mode = s.name;
        out->spec_target_tokens = s.target_tokens;
        /* Eagle3OneModelSpecMetadata is copied and rebuilt for each CUDA graph before PR #13920
         * (May 2026, in the 1.3 release candidates) */
        out->spec_graph_buffers = s.capture_layers && s.rules != GS_TRTLLM_SPEC_1_3;
        /* the draft's hidden-state buffers, built before the profile and kept: trtllm_load counts
         * them with the weights, in its peak */
        bool ovf = false;
        out->spec_buffer_bytes = gs_trtllm_spec_buffers(
            &s, in->arch, in->model_bytes ? in->model_bytes : 2, out->max_num_batched_tokens,
            out->max_num_seqs, gs_add(in->context_length, out->seq_extra_tokens, &ovf), &ovf);
        if (ovf) /* past 64 bits: trtllm_load's sum with the weights reports the overflow */
            out->spec_buffer_bytes = UINT64_MAX;
    }
    out->seqs_cap = "the batch is larger than max_num_seqs (TensorRT-LLM's max_batch_size), so "
                    "TensorRT-LLM runs at most that many requests at a time whatever the KV cache "
                    "holds";
}

/* TensorRT-LLM's state dtypes in out->kv: the conv windows in the model's dtype, the recurrent
 * states in the one kv_cache_config.mamba_ssm_cache_dtype names (the request's
 * mamba_ssm_dtype), else "auto": from 1.0 the model's torch_dtype
 * (validate_and_set_mamba_ssm_cache_dtype), in 1.3 the config's mamba_ssm_cache_dtype first
 * (config_utils.resolve_ssm_cache_dtype, which reads that key alone and not mamba_ssm_dtype -
 * so Qwen3.5's published float32 is not taken), then the model's dtype. */
static void trtllm_pages(const struct gs_inference_input *in, struct gs_inference_result *out)
{
    const struct trtllm_release *rel = release_for(in->engine.version);
    if (rel->states == STATES_GENERIC)
        return;
    const uint64_t e = in->model_bytes ? in->model_bytes : 2;
    const struct gs_state_dtypes dtypes = {
        e, e, in->engine.mamba_ssm_bytes,
        rel->states == STATES_IN_POOL ? GS_STATE_KEY_CACHE : GS_STATE_KEY_NONE, GS_STATE_REACH_ALL};
    gs_engine_state_bytes(in, &dtypes, &out->kv);
}

/* The model classes whose TensorRT-LLM model defaults resolve use_kv_cache_manager_v2 "auto" to
 * MambaHybridCacheManagerV2 in the 1.3 release candidates: Nemotron-H's text models (PR #17049,
 * July 2026), Qwen3-Next and Qwen3.5 (PR #16768, August 2026); the VL wrappers follow only in
 * September (PR #19140) and Kimi-Linear not at all (PR #19387 open), so they keep the C++ manager.
 */
static const char *const v2_classes[] = {"NemotronHForCausalLM", "Qwen3NextForCausalLM",
                                         "Qwen3_5ForConditionalGeneration",
                                         "Qwen3_5MoeForConditionalGeneration", NULL};

/* MambaHybridCacheManagerV2 (kv_cache/mamba_cache_manager/mamba_cache_manager_v2.py): the budget
 * is the GPU quota Q (KvCacheCreator sets max_gpu_total_bytes alone), split between the state pool
 * and the attention pool in the bytes of a typical step - max_batch_size x pp requests of
 * avg_seq_len tokens (unset: max_seq_len // 2, "Falling back to max_seq_len / 2 ... for
 * cache-pool sizing") and one dummy request, a state slot each (_build_cache_config,
 * _typical_request_descs) - with the state pool floored at m = max_batch_size x pp + 1 slots
 * (ssm_floor_slots; ratio_to_slot_count_list pins a pool under its floor to it). So the states
 * take m x slot where the step's bytes S + A reach Q, and Q x m / (S + A) slots beyond (idle
 * without block reuse) where Q is larger; the engine refuses a quota under m x slot + one
 * attention block ("The V2 Mamba GPU cache quota is too small for live recurrent states and
 * attention pages"). `typical` is one request's attention cache at the typical length, `block`
 * one block of it; *slots gets the state slots, and the return is false where it refuses. */
static bool v2_split(uint64_t quota, uint64_t batch, uint64_t pp, uint64_t slot, uint64_t typical,
                     uint64_t block, uint64_t *slots, bool *ovf)
{
    const uint64_t m = gs_add(gs_mul(batch, pp, ovf), 1, ovf);
    const uint64_t states = gs_mul(m, slot, ovf);
    const uint64_t step = gs_add(states, gs_mul(gs_mul(batch, pp, ovf), typical, ovf), ovf);
    *slots = m;
    if (quota > step && step)
        *slots = gs_mul(quota, m, ovf) / step;
    return quota >= gs_add(states, block, ovf);
}

bool gs_trtllm_states_v2(const struct gs_arch *target, uint32_t version)
{
    const struct trtllm_release *rel = release_for(version);
    return rel->states == STATES_IN_POOL && rel->states_v2 && gs_arch_class_in(target, v2_classes);
}

/* Whether the request runs a draft on a target whose states the V2 manager keeps (`s`, when
 * given, receives the draft). */
static bool drafts_on_v2_hybrid(const struct gs_inference_input *in, struct gs_trtllm_spec *s)
{
    struct gs_trtllm_spec own;
    struct gs_trtllm_spec *spec = s ? s : &own;
    return gs_trtllm_states_v2(in->arch, in->engine.version) && spec_of(in, spec) &&
           spec->draft_tokens > 0;
}

/* The target's speculative state buffers at max_batch_size `batch` and `slots` state slots
 * (gs_trtllm_spec_states): the replay strategy from SM 8.0 (an unnamed GPU is taken as one), the
 * SSM states in the dtype trtllm_pages gives them; 0 where the request runs no draft on a V2
 * hybrid. */
static uint64_t spec_states(const struct gs_inference_input *in, uint64_t batch, uint64_t slots,
                            bool *ovf)
{
    struct gs_trtllm_spec s;
    if (!drafts_on_v2_hybrid(in, &s))
        return 0;
    const bool replay = !gs_hw_nvidia_before((enum gs_hw)in->gpu.hw, GS_HW_AMPERE);
    return gs_trtllm_spec_states(&s, in->arch, in->tensor, in->model_bytes ? in->model_bytes : 2,
                                 in->engine.mamba_ssm_bytes, replay, batch, slots, ovf);
}

/* A V2 layout's figures: pipeline stages, one sequence's states, the target's attention cache
 * (a request of the typical length, one block, bytes a token) and the separate draft pool's
 * bytes a token (0: no draft pool). */
struct v2_shape {
    uint64_t pp, slot, typical, block, block_size, target_token, draft_token;
};

/* The pools of max_batch_size `batch` from `quota`. With a one-model draft in a manager of its
 * own (1.3's MTP-Eagle: _should_create_separate_draft_kv_cache; the draft's manager keeps one
 * attention layer and no states), _split_kv_cache_budget_for_draft first gives the draft
 * (quota - I_t) x s_d / (s_t + s_d), I_t the target's fixed cost (max_batch_size x pp + 1) x the
 * states (_estimate_mamba_hybrid_cache_cost), s_t and s_d the target's and the draft's attention
 * bytes a token (_compute_draft_budget_shares), refusing a quota at or under I_t ("KV cache GPU
 * budget ... is insufficient after the combined fixed cost"); the target's V2 manager splits the
 * rest (v2_split), its typical step its own layers' alone. A sequence takes as many blocks in
 * each pool, so *attention is the blocks both hold at target + draft bytes a block. *slots gets
 * the state slots, *draft the draft's share; false where the engine refuses to start. */
static bool v2_pools(const struct v2_shape *v, uint64_t quota, uint64_t batch, uint64_t *slots,
                     uint64_t *attention, uint64_t *draft, bool *ovf)
{
    const uint64_t m = gs_add(gs_mul(batch, v->pp, ovf), 1, ovf);
    const uint64_t fixed = gs_mul(m, v->slot, ovf);
    uint64_t target = quota;
    *draft = 0;
    *slots = m;
    *attention = 0;
    if (v->draft_token) {
        if (quota <= fixed)
            return false;
        *draft = gs_mul(quota - fixed, v->draft_token, ovf) / (v->target_token + v->draft_token);
        target = quota - *draft;
    }
    const bool starts = v2_split(target, batch, v->pp, v->slot, v->typical, v->block, slots, ovf);
    const uint64_t states = gs_mul(*slots, v->slot, ovf);
    const uint64_t left = starts && target > states ? target - states : 0;
    if (!v->draft_token) {
        *attention = left;
        return starts;
    }
    const uint64_t tb = gs_mul(v->block_size, v->target_token, ovf);
    const uint64_t db = gs_mul(v->block_size, v->draft_token, ovf);
    const uint64_t blocks = tb && left / tb < *draft / db ? left / tb : *draft / db;
    *attention = gs_mul(blocks, gs_add(tb, db, ovf), ovf);
    return starts && *draft >= db; /* the draft's manager needs one attention page */
}

/* The V2 manager's pools for the request (v2_pools), and, where the request leaves max_batch_size
 * at its default and the batch is not held, the most sequences of this context a lower one holds:
 * the largest b whose pools start and leave the attention pools b sequences (its quota the
 * larger by the fraction of the speculative state buffers it does not bind). `one` is the
 * attention cache's layout (a separate draft pool's layers in it), `each` one sequence of the
 * context in it. */
static void trtllm_v2_pool(const struct gs_inference_input *in, struct gs_inference_result *out,
                           const struct gs_kv_layout *one, uint64_t each, uint64_t available,
                           uint64_t *attention)
{
    bool ovf = false;
    struct v2_shape v = {in->pipeline ? in->pipeline : 1,
                         out->kv.state_bytes_per_sequence,
                         0,
                         0,
                         out->block_size,
                         gs_add(one->bytes_per_token, one->indexer_token_bytes, &ovf),
                         0};
    /* the draft's layers (inference.c added them to the full-attention ones) in a pool of their
     * own: the target's typical step leaves them out */
    struct gs_kv_layout target = *one;
    if (in->draft_layers && one->full_layers > in->draft_layers) {
        v.draft_token = in->draft_token_bytes ? in->draft_token_bytes
                                              : gs_mul(one->full_token_bytes / one->full_layers,
                                                       in->draft_layers, &ovf);
        if (v.draft_token >= v.target_token)
            v.draft_token = 0;
        v.target_token -= v.draft_token;
        target.full_layers -= in->draft_layers;
        target.full_token_bytes -= v.draft_token;
        target.bytes_per_token -= v.draft_token;
    }
    const uint64_t batch = out->max_num_seqs ? out->max_num_seqs : 1;
    const uint64_t tokens = out->max_num_batched_tokens;
    const uint64_t cap = in->context_length / 2 ? in->context_length / 2 : 1;
    v.typical = gs_kv_sequence_bytes(&target, cap, 0, v.block_size, tokens, &ovf);
    v.block = gs_kv_sequence_bytes(&target, 1, 0, v.block_size, tokens, &ovf);
    uint64_t slots = 0, draft = 0;
    const bool starts = v2_pools(&v, available, batch, &slots, attention, &draft, &ovf);
    out->state_slots = slots;
    out->state_pool_bytes = gs_mul(slots, v.slot, &ovf);
    out->state_seqs = batch;
    out->state_split = true;
    out->draft_pool_bytes = draft;
    /* the final manager binds the speculative state buffers again at its own slot count: what
     * it has past the estimation manager's comes out of the headroom the fraction leaves */
    out->spec_state_bytes = spec_states(in, batch, slots, &ovf);
    const uint64_t fraction = out->budget.fraction_permille ? out->budget.fraction_permille : 1000;
    if (ovf)
        *attention = 0;
    if (!in->engine.max_num_seqs && !ovf && (!starts || *attention / (each ? each : 1) < batch)) {
        const uint64_t profiled = out->spec_state_profiled_bytes;
        uint64_t lo = 0, hi = batch;
        while (lo < hi) {
            const uint64_t b = lo + (hi - lo + 1) / 2;
            bool o = false;
            const uint64_t own = spec_states(in, b, gs_add(gs_mul(b, v.pp, &o), 1, &o), &o);
            const uint64_t freed =
                profiled > own ? gs_engine_permille_of(profiled - own, fraction, &o) : 0;
            /* the budget may be negative at max_batch_size: the buffers it frees come first */
            const uint64_t quota = out->budget.kv_bytes >= 0 ? gs_add(available, freed, &o)
                                   : freed > (uint64_t)-out->budget.kv_bytes
                                       ? freed - (uint64_t)-out->budget.kv_bytes
                                       : 0;
            uint64_t s = 0, room = 0, d = 0;
            const bool held =
                v2_pools(&v, quota, b, &s, &room, &d, &o) && room >= gs_mul(b, each, &o) && !o;
            if (held)
                lo = b;
            else
                hi = b - 1;
        }
        if (lo > 0 && lo < batch)
            out->seqs_bound = lo;
    }
    if (!starts)
        out->state_binding =
            v.draft_token &&
                    available <= gs_mul(gs_add(gs_mul(batch, v.pp, &ovf), 1, &ovf), v.slot, &ovf)
                ? "TensorRT-LLM keeps recurrent states for max_batch_size sequences and one dummy "
                  "request whatever the batch (max_num_seqs, 2048 by default), and they are more "
                  "than the KV budget it splits with the speculative draft's pool (\"KV cache GPU "
                  "budget ... is insufficient after the combined fixed cost\"); lower "
                  "max_batch_size"
                : "TensorRT-LLM's V2 hybrid cache manager keeps recurrent states for "
                  "max_batch_size sequences and one dummy request whatever the batch "
                  "(max_num_seqs, 2048 by default), and they are more than the KV budget (\"The "
                  "V2 Mamba GPU cache quota is too small for live recurrent states and attention "
                  "pages\"); lower max_batch_size";
    else if (*attention < each)
        out->state_binding =
            "TensorRT-LLM's V2 hybrid cache manager splits the KV budget between the recurrent "
            "states and the attention cache by a typical request of half max_seq_len, and the "
            "attention share holds no sequence of this context; lower max_batch_size";
}

/* A hybrid's recurrent states for max_batch_size sequences, whatever the batch:
 *  - 1.0-1.2: MambaCacheManager's conv_states [layers, max_batch_size, conv_dim / tp, d_conv - 1]
 *    and ssm_states [layers, max_batch_size, heads / tp, head_dim, d_state], allocated when the
 *    estimation's managers are built, before the profile, and again before the pool; the peak
 *    holds them and only the estimation cache is added back (_cal_max_memory), so the budget
 *    is the fraction of what is left after them: the fraction x their bytes less than without;
 *  - 1.3: blocks of the KV pool for max_batch_size x pp sequences and one CUDA-graph padding
 *    slot, a fixed cost the token count leaves out: tokens = (budget - intercept) // bytes a
 *    token (_util.py CacheCost.tokens_for_budget; _estimate_mamba_hybrid_cache_cost with
 *    num_reserved_dummy_slots 1; periodic snapshots off by default, so no cost a token);
 *    for the classes whose defaults pick MambaHybridCacheManagerV2, its split (trtllm_v2_pool).
 * The sequences at once are max_batch_size. Where the states keep the batch out and the request
 * leaves max_batch_size to the default, seqs_bound is the most sequences of this context the
 * budget holds with their states (the change lower_max_num_seqs). */
static bool trtllm_state_pool(const struct gs_inference_input *in, struct gs_inference_result *out,
                              uint64_t available, uint64_t *attention)
{
    const struct trtllm_release *rel = release_for(in->engine.version);
    const uint64_t slot = out->kv.state_bytes_per_sequence;
    if (rel->states == STATES_GENERIC || slot == 0 ||
        out->kv.full_layers + out->kv.window_layers == 0)
        return false;
    bool ovf = false;
    const uint64_t pp = in->pipeline ? in->pipeline : 1;
    const uint64_t batch = out->max_num_seqs ? out->max_num_seqs : 1;
    const uint64_t fraction = out->budget.fraction_permille;
    const bool in_pool = rel->states == STATES_IN_POOL;
    /* one sequence of the context beside its states: the fixed slot, then each sequence's
     * attention cache and its states (a pipeline stage's states for pp sequences in flight) */
    struct gs_kv_layout one = out->kv;
    one.state_bytes_per_sequence = 0;
    const uint64_t each = gs_kv_sequence_bytes(&one, in->context_length, 0, out->block_size,
                                               out->max_num_batched_tokens, &ovf);
    if (gs_trtllm_states_v2(in->arch, in->engine.version)) {
        trtllm_v2_pool(in, out, &one, each, available, attention);
        return true;
    }
    out->state_slots = in_pool ? gs_add(gs_mul(batch, pp, &ovf), 1, &ovf) : batch;
    out->state_pool_bytes = gs_mul(out->state_slots, slot, &ovf);
    out->state_seqs = batch;
    const uint64_t cost = in_pool ? out->state_pool_bytes
                                  : gs_engine_permille_of(out->state_pool_bytes, fraction, &ovf);
    *attention = !ovf && available > cost ? available - cost : 0;
    const uint64_t fixed = in_pool ? slot : 0;
    const uint64_t per_seq = gs_add(
        each, in_pool ? gs_mul(slot, pp, &ovf) : gs_engine_permille_of(slot, fraction, &ovf), &ovf);
    const uint64_t most = available > fixed && per_seq ? (available - fixed) / per_seq : 0;
    if (!in->engine.max_num_seqs && most < batch && most > 0 && !ovf)
        out->seqs_bound = most;
    if (*attention < each)
        out->state_binding =
            "TensorRT-LLM keeps a hybrid's recurrent states for max_batch_size sequences whatever "
            "the batch (max_num_seqs, 2048 by default), and they leave the KV cache no room for "
            "one sequence of this context; lower max_batch_size";
    return true;
}

/* The PyTorch backend's profiling requests: max_num_tokens prompt tokens in requests of at
 * most max_seq_len - 1 (_create_dummy_context_requests), each asking one output token, so the
 * head computes one row of logits a request. */
static uint64_t profile_requests(const struct gs_inference_input *in,
                                 const struct gs_inference_result *out)
{
    const uint64_t longest = in->context_length > 1 ? in->context_length - 1 : 1;
    const uint64_t tokens = out->max_num_batched_tokens ? out->max_num_batched_tokens : 1;
    const uint64_t chunk = tokens < longest ? tokens : longest;
    return gs_div_ceil(tokens, chunk);
}

/* The engine path's runtime and decoder buffers, allocated before the cache is sized
 * (TrtGptModelInflightBatching createBuffers and createDecoder, beam width 1, fp32 logits -
 * PretrainedConfig.logits_dtype - and the TopKTopP decoding mode with penalties): five
 * [max_batch_size, vocab] fp32 or int32 arrays - the logits (RuntimeBuffers), the embedding
 * bias (DecoderState), the decoding layer's logits and its top-k workspace
 * (DecodingLayerWorkspace; the top-k scratch adds max_batch_size x 2 x 1,024 x 8 x 4 bytes)
 * and the penalty layer's workspace - and ten [max_batch_size, max_seq_len] 4-byte arrays
 * (cache indirections, output ids, parent ids, log-probabilities and their slot copies). The
 * decoder lives on the last pipeline stage; its ten small arrays are counted there too. */
static uint64_t engine_path_buffers(const struct gs_inference_input *in,
                                    const struct gs_inference_result *out, bool *ovf)
{
    const uint64_t batch = out->max_num_seqs ? out->max_num_seqs : 1;
    const uint64_t vocab = gs_mul(gs_mul(batch, in->arch->vocab_size, ovf), 4, ovf);
    const uint64_t topk = gs_mul(batch, 2 * 1024 * 8 * 4, ovf);
    const uint64_t sequences = gs_mul(gs_mul(batch, in->context_length, ovf), 4 * 10, ovf);
    return gs_add(gs_add(gs_mul(vocab, 5, ovf), topk, ovf), sequences, ovf);
}

static void trtllm_load(const struct gs_inference_input *in, const struct gs_engine_stage *stage,
                        struct gs_inference_result *out, uint64_t *non_torch, bool *ovf)
{
    const struct gs_engine_config *c = &in->engine;
    const struct gs_vllm_release *profile = gs_vllm_other_engine_profile();
    const bool pytorch = release_for(c->version)->pytorch;
    if (pytorch && !c->has_activation_bytes)
        out->budget.activation_bytes = gs_vllm_activation_peak(
            in->arch, profile, stage->counts, out->max_num_batched_tokens,
            profile_requests(in, out), stage->tensor, out->mla_workspace_tokens, in->gpu.sm_count,
            stage->last_stage, ovf);
    else /* the engine path samples in its decoder's buffers, not in a profiled forward */
        out->budget.activation_bytes =
            gs_vllm_engine_peak(in, stage, out, profile, false, ovf);
    *non_torch = gs_vllm_non_torch(profile, (enum gs_link)in->gpu.link, stage->tensor,
                                   in->cross_node, stage->last_stage, ovf);
    /* the PyTorch backend's Gemma4Attention (_torch/models/modeling_gemma4.py) builds a KV-sharing
     * layer a Q-only projection (_QOnlyLinear) beside the q_norm and k_norm every
     * QKNormRoPEAttention builds, and its weight mapper copies a k_eq_v full layer's k_proj into
     * v_proj (gemma4_weight_mapper.py _handle_buffers_and_kvdup): the V slots and those k_norms */
    if (pytorch) {
        out->budget.kv_slot_bytes = gs_engine_kv_slot_bytes(in, stage, false, ovf);
        out->budget.weights_bytes =
            gs_add(out->budget.weights_bytes, out->budget.kv_slot_bytes, ovf);
    }
    if (!pytorch && stage->last_stage && in->arch->logits)
        *non_torch = gs_add(*non_torch, engine_path_buffers(in, out, ovf), ovf);
    /* the draft's hidden-state buffers (trtllm_defaults), in the profile's peak */
    out->budget.weights_bytes = gs_add(out->budget.weights_bytes, out->spec_buffer_bytes, ovf);
    /* and the speculative state buffers the estimation manager binds after its pool: that small
     * quota sits under the typical step of max_seq_len tokens (try_prepare_estimation sets
     * avg_seq_len to it), so its state pool is at the floor of max_batch_size x pp + 1 slots */
    const uint64_t batch = out->max_num_seqs ? out->max_num_seqs : 1;
    out->spec_state_profiled_bytes = spec_states(
        in, batch, gs_add(gs_mul(batch, in->pipeline ? in->pipeline : 1, ovf), 1, ovf), ovf);
    out->budget.weights_bytes =
        gs_add(out->budget.weights_bytes, out->spec_state_profiled_bytes, ovf);
}

/* 1.3's fp8 context-MLA reserve (PR #16399; the backend contract of PR #16432). The context
 * MLA kernel dequantizes the attended fp8 latent cache into a workspace of w bytes per attended
 * token, one buffer reused by every layer; the profile's fresh prefill keeps it at its floor,
 * while with block reuse the attended KV of a step is no longer bounded by max_num_tokens. So,
 * with block reuse on and chunked prefill off (KvCacheConfig.enable_block_reuse True,
 * enable_chunked_prefill False: the defaults), configure_kv_cache_capacity holds back
 * min(w x L, budget x w / (k + w)) of the budget (get_mla_context_workspace_reserve), L the
 * worst case min(max_batch_size, max_num_tokens) x max_seq_len and k the cache's bytes per
 * token, and the scheduler caps a step's attended KV at what the reserve covers. w is the
 * attention heads on the rank times (qk_nope + qk_rope + v) head widths at one byte: the PR's
 * figure for Kimi-K2 under attention data parallelism, 20,480 B a token = 64 x (128 + 64 +
 * 128), read that way (the binding that computes it was not found). */
static uint64_t mla_workspace_reserve(const struct gs_inference_input *in,
                                      const struct gs_inference_result *out, bool *ovf)
{
    const struct gs_engine_config *c = &in->engine;
    const struct gs_attention *mla = NULL;
    /* dense MLA only: DeepSeek sparse attention (an indexer on some layer - DeepSeek-V3.2, GLM-5 -
     * or DeepSeek-V4, whose first layers are window-only MLA) attends through its own sparse
     * backends; the model, not its first attention block, decides */
    const struct gs_block *ab = gs_arch_attention_block(in->arch);
    if (ab != NULL && ab->mixer == GS_MIXER_MLA && !gs_arch_has_sparse_mla(in->arch))
        mla = &ab->attn;
    if (!release_for(c->version)->mla_workspace_reserve || mla == NULL ||
        in->kv_dtype != GS_KV_FP8 || c->chunked_prefill == GS_CHUNKED_PREFILL_ON ||
        c->prefix_caching == GS_CHUNKED_PREFILL_OFF || out->budget.kv_bytes <= 0)
        return 0;
    const uint64_t t = in->tensor ? in->tensor : 1;
    const uint64_t w = gs_mul(gs_div_ceil(mla->heads, t),
                              mla->qk_nope_head_dim + mla->qk_rope_head_dim + mla->v_head_dim, ovf);
    const uint64_t k = out->kv.bytes_per_token;
    const uint64_t budget = (uint64_t)out->budget.kv_bytes;
    const uint64_t batch = out->max_num_seqs < out->max_num_batched_tokens
                               ? out->max_num_seqs
                               : out->max_num_batched_tokens;
    const uint64_t worst = gs_mul(gs_mul(w, batch, ovf), in->context_length, ovf);
    if (w == 0 || k == 0)
        return 0;
    /* budget x w / (k + w), exactly for budgets below 2^64 / w */
    const uint64_t share = gs_mul(budget / (k + w), w, ovf) + budget % (k + w) * w / (k + w);
    return worst < share ? worst : share;
}

static void trtllm_pool(const struct gs_inference_input *in, struct gs_inference_result *out,
                        uint64_t used, bool *ovf)
{
    const struct gs_engine_config *c = &in->engine;
    struct gs_budget *b = &out->budget;
    /* the engine path's fraction is of cudaMemGetInfo's free memory, and the PyTorch
     * backend's peak counts whatever is outside torch on the device: other processes' memory
     * is spent either way */
    used = gs_add(used, in->gpu.in_use_bytes, ovf);
    b->rule = release_for(c->version)->pytorch
                  ? "TensorRT-LLM 1.x: free_gpu_memory_fraction x (total - the profiled peak: "
                    "weights, a max_num_tokens context forward, memory outside torch and the "
                    "CUDA graphs)"
                  : "TensorRT-LLM engine path: free_gpu_memory_fraction of the memory free after "
                    "weights, activations and the runtime and decoder buffers (five fp32 "
                    "[max_batch_size, vocab] arrays and ten [max_batch_size, max_seq_len] ones, in "
                    "non_torch_bytes)";
    b->fraction_permille = c->free_memory_fraction_permille ? c->free_memory_fraction_permille
                                                            : 900;
    b->requested_bytes = b->total_bytes;
    b->kv_bytes = used >= b->total_bytes
                      ? (int64_t)b->total_bytes - (int64_t)used
                      : (int64_t)gs_engine_permille_of(b->total_bytes - used, b->fraction_permille,
                                                       ovf);
    out->workspace_reserve_bytes = mla_workspace_reserve(in, out, ovf);
    b->kv_bytes -= (int64_t)out->workspace_reserve_bytes;
}

/* What fails TensorRT-LLM whatever the memory (gs_engine_ops.refusal): a GPU that is not
 * NVIDIA's, and its precision support by GPU generation (docs/source/reference/support-matrix.md:
 * Ampere SM 8.0/8.6 "FP32, FP16, BF16, INT8, INT4", FP8 from Ada SM 8.9, FP4 on Blackwell; Model
 * Optimizer's support matrix: FP8 "Ada and Later", FP4 "Blackwell and Later"). It has no
 * weight-only fallback like Marlin. */
static const char *trtllm_refusal(const struct gs_inference_input *in,
                                  const struct gs_inference_result *out)
{
    (void)out;
    const enum gs_hw hw = (enum gs_hw)in->gpu.hw;
    const enum gs_weight_format f = (enum gs_weight_format)in->weight_format;
    /* TensorRT-LLM is built on CUDA (its installation guide and support matrix name NVIDIA GPUs
     * alone); there is no ROCm or Gaudi build */
    if (in->gpu.rocm || hw == GS_HW_CDNA2 || hw == GS_HW_CDNA3 || hw == GS_HW_GAUDI)
        return "TensorRT-LLM runs on NVIDIA GPUs only (a CUDA build; its support matrix lists no "
               "AMD or Intel accelerator); serve with vLLM or SGLang on this GPU";
    if (gs_weight_format_fp8(f) && gs_hw_nvidia_before(hw, GS_HW_ADA))
        return "TensorRT-LLM runs FP8 weights on Ada, Hopper and Blackwell only (its support "
               "matrix: Ampere runs FP32, FP16, BF16, INT8 and INT4), with no weight-only "
               "fallback; serve a 16-bit, INT8 or INT4 (AWQ, GPTQ) checkpoint on this GPU";
    if (f == GS_WF_NVFP4 && gs_hw_nvidia_before(hw, GS_HW_BLACKWELL))
        return "TensorRT-LLM runs NVFP4 weights on Blackwell's FP4 tensor cores only (its "
               "support matrix), with no weight-only fallback; serve an FP8 or INT4 checkpoint "
               "on this GPU";
    /* MXFP8's per-32 e8m0 block scales are a Blackwell tensor-core mode (NVIDIA Transformer
     * Engine's MXFP8 recipe needs compute capability 10.0) */
    if (f == GS_WF_MXFP8 && gs_hw_nvidia_before(hw, GS_HW_BLACKWELL))
        return "TensorRT-LLM runs MXFP8 weights on Blackwell's tensor cores only (MX block "
               "scaling), with no weight-only fallback; serve an FP8 checkpoint on this GPU";
    /* MambaHybridCacheManagerV2.__init__ under the replay strategy: "replay state update
     * requires mamba_n_groups divisible by tp_size" */
    if (drafts_on_v2_hybrid(in, NULL) && !gs_hw_nvidia_before(hw, GS_HW_AMPERE) &&
        !gs_trtllm_replay_splits(in->arch, in->tensor))
        return "TensorRT-LLM's replay state update for speculative decoding on Mamba-2 layers "
               "asserts that the tensor-parallel size divides mamba_n_groups "
               "(MambaHybridCacheManagerV2); choose a tensor-parallel size that does";
    return NULL;
}

static void trtllm_notes(const struct gs_engine_config *c, const struct gs_inference_result *r,
                         uint64_t expert, const struct gs_engine_notes *n)
{
    (void)expert;
    const struct trtllm_release *rel = release_for(c->version);
    if (n->assume)
        n->assume(n->ctx, "engine_release", rel->name, rel->source);
    if (r->state_pool_bytes && n->assume_value) {
        n->assume_value(
            n->ctx, "state_slots", r->state_slots,
            r->state_split ? "TensorRT-LLM's V2 hybrid cache manager (MambaHybridCacheManagerV2, "
                             "this model's default from the 1.3 release candidates) splits the KV "
                             "budget between the recurrent states and the attention cache in the "
                             "bytes of a typical step - max_batch_size x pipeline stages requests "
                             "of half max_seq_len (avg_seq_len unset) and one dummy request - "
                             "with the state pool floored at max_batch_size x stages + 1 slots; "
                             "slots past the floor stay idle without block reuse"
            : rel->states == STATES_IN_POOL
                ? "TensorRT-LLM keeps a hybrid's recurrent states in blocks of the KV "
                  "pool for max_batch_size x pipeline stages sequences and one "
                  "CUDA-graph padding slot, whatever the batch: a fixed cost the "
                  "token count leaves out (conv windows in the model's dtype, "
                  "recurrent states in kv_cache_config.mamba_ssm_cache_dtype, else "
                  "the config's mamba_ssm_cache_dtype, else the model's dtype)"
                : "TensorRT-LLM keeps a hybrid's recurrent states for max_batch_size "
                  "sequences whatever the batch, in tensors allocated before the "
                  "profile, so the cache gets free_gpu_memory_fraction of what they "
                  "leave (conv windows and recurrent states in the model's dtype "
                  "unless kv_cache_config.mamba_ssm_cache_dtype says otherwise)",
            r->state_split ? "tensorrt_llm/_torch/pyexecutor/kv_cache/mamba_cache_manager/"
                             "mamba_cache_manager_v2.py _build_cache_config; "
                             "runtime/kv_cache_manager_v2 ratio_to_slot_count_list"
            : rel->states == STATES_IN_POOL
                ? "tensorrt_llm/_torch/pyexecutor/mamba_cache_manager.py "
                  "CppMambaHybridCacheManager, _estimate_mamba_hybrid_cache_cost; "
                  "_util.py CacheCost.tokens_for_budget"
                : "tensorrt_llm/_torch/pyexecutor/mamba_cache_manager.py "
                  "MambaCacheManager; _util.py KvCacheCreator._cal_max_memory");
        n->assume_value(n->ctx, "state_pool_bytes", r->state_pool_bytes,
                        "TensorRT-LLM: the recurrent states' bytes on each GPU (state_slots x one "
                        "sequence's states)",
                        "tensorrt_llm/_torch/pyexecutor/mamba_cache_manager.py");
    }
    if (r->draft_pool_bytes && n->assume_value)
        n->assume_value(
            n->ctx, "speculative_draft_pool_bytes", r->draft_pool_bytes,
            "TensorRT-LLM 1.3 on a V2 hybrid: the one-model draft's own cache manager (its MTP "
            "layer's attention, no states) takes (budget - the target's fixed state cost of "
            "max_batch_size + 1 slots) x draft bytes a token / (target + draft bytes a token) "
            "before the target splits the rest between its states and its attention; a sequence "
            "takes as many blocks in both pools",
            "tensorrt_llm/_torch/pyexecutor/_util.py _split_kv_cache_budget_for_draft, "
            "_compute_draft_budget_shares, _create_one_model_draft_kv_cache_manager");
    if (r->spec_state_bytes && n->assume_value)
        n->assume_value(
            n->ctx, "speculative_state_bytes", r->spec_state_bytes,
            "TensorRT-LLM 1.3 on a V2 hybrid: the target's speculative state buffers, bound after "
            "each cache pool outside its budget - intermediate conv windows for every "
            "max_batch_size slot and draft step, and on Mamba-2 layers from SM 8.0 a replay "
            "history (16 steps or k + 1) for every state slot, else intermediate SSM states for "
            "every max_batch_size slot and draft step (Gated DeltaNet's by default); the "
            "estimation pool's (max_batch_size + 1 slots) are in the profiled peak "
            "(budget.weights_bytes), the final pool's, counted here and in overhead_bytes, are "
            "bound again at state_slots",
            "tensorrt_llm/_torch/modules/mamba/cache_manager.py "
            "Mamba2ReplayStateUpdateStrategy.bind; kv_cache/mamba_cache_manager/"
            "mamba_cache_manager_v2.py __init__; _torch/pyexecutor/_util.py "
            "(TRTLLM_USE_MAMBA_REPLAY, build_gdn_state_update_strategy)");
    if (r->spec_state_bytes > r->spec_state_profiled_bytes && r->budget.kv_bytes > 0 &&
        r->budget.fraction_permille && r->budget.fraction_permille < 1000 && n->warn) {
        bool ovf = false;
        const uint64_t f = r->budget.fraction_permille;
        const uint64_t headroom = gs_mul((uint64_t)r->budget.kv_bytes, 1000 - f, &ovf) / f;
        if (!ovf && r->spec_state_bytes - r->spec_state_profiled_bytes > headroom)
            n->warn(n->ctx, "speculative_states_past_headroom",
                    "TensorRT-LLM binds the speculative state buffers again for the final pool's "
                    "state slots, more than the estimation pool's the profile saw, with no check: "
                    "the difference is more than the 1 - free_gpu_memory_fraction of memory the "
                    "budget leaves, so the engine may run out of memory at startup or under "
                    "load; a lower free_gpu_memory_fraction leaves more and sizes fewer idle "
                    "state slots");
    }
    if (r->spec_mode != NULL && n->assume_value) {
        n->assume_value(n->ctx, "speculative_extra_tokens", r->seq_extra_tokens,
                        "TensorRT-LLM: the tokens each sequence holds in the KV cache beyond its "
                        "context under speculative decoding - its draft tokens (max_draft_len) and "
                        "a one-model draft's num_extra_kv_tokens (max_draft_len - 1: 1.3 every "
                        "one-model mode, 1.0 EAGLE-3 and MTP-Eagle, 1.1-1.2 EAGLE-3)",
                        "tensorrt_llm/_torch/speculative/utils.py get_num_extra_kv_tokens; "
                        "_torch/pyexecutor/resource_manager.py KVCacheManager.prepare_resources");
        if (r->spec_buffer_bytes)
            n->assume_value(n->ctx, "speculative_buffer_bytes", r->spec_buffer_bytes,
                            "TensorRT-LLM: the draft's hidden-state buffers, built before the "
                            "profile and kept (counted with the weights and in overhead_bytes): "
                            "vanilla MTP's past hidden states (max_batch_size x MTP layers x "
                            "hidden), a one-model draft's captured target states (max_num_tokens "
                            "x hidden x captured layers: EAGLE-3 3, MTP-Eagle 1; from 1.3 "
                            "EAGLE-3's Eagle3ResourceManager, (max_draft_len + 1) x "
                            "max_batch_size rows more)",
                            "tensorrt_llm/_torch/speculative/mtp.py MTPHiddenStatesManager; "
                            "eagle3.py Eagle3OneModelSpecMetadata, Eagle3ResourceManager (PR "
                            "#13920)");
    }
    if (r->spec_mode != NULL && n->assume)
        n->assume(
            n->ctx, "speculative_mode", r->spec_mode,
            "TensorRT-LLM's SpeculativeDecodingMode for the request: mtp with a checkpoint of "
            "one MTP layer runs MTP_EAGLE_ONE_MODEL (the layer replayed for each draft "
            "token), of several vanilla MTP; eagle3 EAGLE3_ONE_MODEL (eagle3_one_model, the "
            "default); draft_model DRAFT_TARGET (a second model engine and KV cache "
            "manager); ngram NGRAM (no draft on the GPU) - "
            "tensorrt_llm/_torch/speculative/interface.py SpeculativeDecodingMode, "
            "llmapi/llm_args.py MTPDecodingConfig.spec_dec_mode");
    if (r->spec_target_tokens && n->warn)
        n->warn(n->ctx, "speculative_pool_estimated",
                "this release turns the KV budget into tokens at the target's layers alone "
                "(_util.py _get_kv_size_per_token) while the pool also holds the draft's layers "
                "(get_num_spec_layers): gpusizer prices the draft's layers into every token, so "
                "the engine may hold up to draft layers / target layers more tokens than shown, "
                "its pool past the budget by as much, inside the headroom the fraction leaves");
    if (r->spec_graph_buffers && n->warn)
        n->warn(n->ctx, "speculative_graph_buffers_not_modeled",
                "this release allocates the one-model draft's hidden-state buffer again for each "
                "CUDA graph it captures (issue #13909: about 183 MiB a capture on Qwen3-235B, "
                "fixed by PR #13920 in the 1.3 release candidates); gpusizer counts one buffer "
                "(speculative_buffer_bytes)");
    if (r->workspace_reserve_bytes && n->assume_value)
        n->assume_value(n->ctx, "mla_workspace_reserve_bytes", r->workspace_reserve_bytes,
                        "the fp8 context-MLA K/V dequant workspace held back from the cache (block "
                        "reuse on, chunked prefill off): the budget x w / (k + w), w the rank's "
                        "attention heads x (qk_nope + qk_rope + v) bytes a token (read from the "
                        "PR's Kimi-K2 figure, 20,480), k the cache's bytes a token; release "
                        "candidates before rc22 hold none, and chunked prefill on "
                        "(enable_chunked_prefill) removes it",
                        "tensorrt_llm/_torch/pyexecutor/_util.py get_mla_context_workspace_reserve "
                        "(PRs #16399, #16432)");
    if (c->version && c->version < releases[0].from && n->warn)
        n->warn(n->ctx, "engine_release_not_modeled",
                "TensorRT-LLM releases before 0.8 are sized with the 0.8 rules, which gpusizer "
                "has not checked against them");
}

const struct gs_engine_ops gs_engine_tensorrt_llm = {
    .engine = GS_ENGINE_TENSORRT_LLM,
    .name = "tensorrt_llm",
    .block_size = 64,
    .budget_source =
        "TensorRT-LLM by release (inference.engine_version, default 1.3): "
        "free_gpu_memory_fraction (default 0.9) of the memory free after the engine loads "
        "before 1.0; of the total less the peak the PyTorch backend profiles (a max_num_tokens "
        "context forward, CUDA graphs captured) from 1.0 (_torch/pyexecutor/_util.py "
        "_cal_max_memory), less 1.3's fp8 context-MLA workspace reserve; "
        "core/src/tensorrt_llm.c",
    .block_source = "TensorRT-LLM tokens_per_block: 64 on the engine path (the build's plugin "
                    "config), 32 from 1.0 (KvCacheConfig, llmapi/llm_args.py)",
    .lowers_long_context = true,
    .spec = GS_ENGINE_SPEC_MODULE,
    .lower_seqs_detail = "reserve recurrent states for fewer sequences: max_batch_size "
                         "(max_num_seqs) lowered to the most sequences of this context the cache "
                         "holds beside their states",
    .defaults = trtllm_defaults,
    .pages = trtllm_pages,
    .load = trtllm_load,
    .pool = trtllm_pool,
    .state_pool = trtllm_state_pool,
    .notes = trtllm_notes,
    .refusal = trtllm_refusal,
    /* read through the 1.3 release candidates of September 2026 (rc27); 1.4's changes were not */
    .first_unread = 10400,
    .unread_detail = "this TensorRT-LLM release is newer than the releases gpusizer has read "
                     "(through the 1.3 release candidates); it is sized with the 1.3 rules",
};
