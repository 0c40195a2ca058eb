/*
 * trtllm_draft.c - what TensorRT-LLM's speculative decoding holds on one GPU, by release (see
 * gs/trtllm.h). Read in tensorrt_llm/_torch/speculative/utils.py (get_num_spec_layers,
 * get_num_extra_kv_tokens, update_spec_config_from_model_config), interface.py
 * (SpeculativeDecodingMode), mtp.py (MTPHiddenStatesManager), eagle3.py
 * (Eagle3OneModelSpecMetadata, Eagle3ResourceManager), models/modeling_speculative.py
 * (MTPForCausalLM, Eagle3DraftModel), models/modeling_deepseekv3.py (DeepseekV3MTP),
 * pyexecutor/_util.py (KvCacheCreator) and llmapi/llm_args.py (MTPDecodingConfig,
 * EagleDecodingConfig); docs/engines.md has the reasoning.
 */
#include "gs/trtllm.h"

#include "gs/arch.h"
#include "gs/units.h"
#include "gs/weights.h"

#include <string.h>

/* Whether any layer of `a` keeps a recurrent state (a hybrid), and whether every such layer is
 * a Mamba-2 or gated delta-rule mixer, whose speculative state buffers are read
 * (gs_trtllm_spec_states). */
static bool keeps_states(const struct gs_arch *a, bool *read)
{
    uint64_t counts[GS_BLOCKS_MAX];
    gs_arch_count_blocks(a, 0, a->num_hidden_layers, counts);
    bool any = false;
    *read = true;
    for (size_t i = 0; i < a->block_count; i++) {
        const struct gs_recurrent *r = &a->blocks[i].rec;
        if (counts[i] == 0 || (r->conv_channels == 0 && r->state_heads == 0))
            continue;
        any = true;
        *read = *read && (r->mamba2 || r->delta_rule);
    }
    return any;
}

enum gs_status gs_trtllm_spec_for(const struct gs_arch *target, const struct gs_draft *draft,
                                  enum gs_spec_method method, uint64_t tokens, uint32_t version,
                                  uint64_t pipeline, struct gs_trtllm_spec *out,
                                  struct gs_error *err)
{
    memset(out, 0, sizeof(*out));
    out->rules = gs_trtllm_spec_rules_for(version);
    const char *name = gs_spec_method_name(method);
    if (out->rules == GS_TRTLLM_SPEC_UNSIZED)
        return gs_error_add(err, GS_ERR_INVALID, "/inference/speculative",
                            "gpusizer sizes TensorRT-LLM's speculative decoding on the PyTorch "
                            "backend, from 1.0; the engine path before it builds its drafts into "
                            "the TensorRT engine");
    if (method == GS_SPEC_EAGLE || method == GS_SPEC_SUFFIX)
        return gs_error_add(err, GS_ERR_INVALID, "/inference/speculative/method",
                            "TensorRT-LLM's PyTorch backend runs mtp, eagle3 (EAGLE-3), "
                            "draft_model (draft/target) and ngram, not %s",
                            name);
    if (pipeline > 1)
        return gs_error_add(err, GS_ERR_INVALID, "/parallelism/pipeline",
                            "TensorRT-LLM's feature-combination matrix lists speculative "
                            "decoding with pipeline parallelism as not supported; serve with "
                            "tensor parallelism");
    /* 1.3's V2 manager of a Mamba-2 or Gated DeltaNet hybrid (Nemotron-H, Qwen3-Next, Qwen3.5)
     * with MTP-Eagle is read: the draft's own manager and the state buffers bound after each
     * pool (gs_trtllm_spec_states) */
    bool read = false;
    const bool hybrid = keeps_states(target, &read);
    const uint64_t n = gs_weights_mtp_layers(target);
    if (hybrid && (method != GS_SPEC_MTP || n > 1 || out->rules != GS_TRTLLM_SPEC_1_3 || !read ||
                   !gs_trtllm_states_v2(target, version)))
        return gs_error_add(err, GS_ERR_INVALID, "/inference/speculative/method",
                            "TensorRT-LLM keeps a hybrid's intermediate recurrent states for "
                            "every draft token of every max_batch_size slot "
                            "(mamba_cache_manager.py), outside the KV cache budget; gpusizer "
                            "sizes them for 1.3's MTP-Eagle (mtp with one MTP layer) on the "
                            "hybrids its V2 cache manager keeps (Nemotron-H, Qwen3-Next, "
                            "Qwen3.5), not for this model, method or release; vLLM's and SGLang's "
                            "mtp on a hybrid are sized");
    if (method == GS_SPEC_MTP) {
        if (draft != NULL)
            return gs_error_add(err, GS_ERR_INVALID, "/inference/speculative/draft",
                                "TensorRT-LLM's MTP drafts with the model's own MTP layers; a "
                                "named draft goes with eagle3 or draft_model");
        if (n == 0)
            return gs_error_add(err, GS_ERR_INVALID, "/inference/speculative/method",
                                "gpusizer has no description of this model's "
                                "multi-token-prediction layers, so it cannot size "
                                "TensorRT-LLM's MTP; eagle3 or draft_model take a draft");
        /* MTPDecodingConfig.spec_dec_mode: a checkpoint of one MTP layer runs MTP-Eagle one-model
         * (mtp_eagle_one_model and not use_mtp_vanilla, the defaults), several run vanilla MTP */
        const bool vanilla = n > 1;
        out->mode = vanilla ? GS_TRTLLM_MTP : GS_TRTLLM_MTP_EAGLE;
        out->name = vanilla ? "MTP" : "MTP_EAGLE_ONE_MODEL";
        if (out->rules == GS_TRTLLM_SPEC_1_3) {
            /* update_spec_config_from_model_config: num_nextn_predict_layers is the
             * checkpoint's; max_draft_len, not given, all of them (vanilla) or 1 (MTP-Eagle
             * replays its one layer), and vanilla clamps a given one to them */
            const uint64_t k = tokens ? tokens : (vanilla ? n : 1);
            out->draft_tokens = vanilla && k > n ? n : k;
            out->mtp_layers = n;
            out->target_layers = vanilla ? n : 1; /* get_num_spec_layers */
        } else {
            /* the request's num_nextn_predict_layers (default 1) is max_draft_len, and
             * MTPForCausalLM builds that many layers (one for MTP-Eagle), duplicating the
             * checkpoint's; get_num_spec_layers gives the KV cache as many whatever the mode */
            out->draft_tokens = tokens ? tokens : 1;
            out->mtp_layers = vanilla ? out->draft_tokens : 1;
            out->target_layers = out->draft_tokens;
        }
        /* get_num_extra_kv_tokens: 1.0 is_mtp_eagle, 1.1-1.2 EAGLE-3 alone, 1.3 every
         * one-model mode */
        const bool extra = out->rules == GS_TRTLLM_SPEC_1_3 ||
                           (out->rules == GS_TRTLLM_SPEC_1_0 && !vanilla);
        out->extra_kv_tokens = extra ? out->draft_tokens - 1 : 0;
        /* Eagle3OneModelSpecMetadata serves MTP-Eagle too, capturing the last layer */
        out->capture_layers = vanilla ? 0 : 1;
    } else {
        if (method == GS_SPEC_NGRAM && draft != NULL)
            return gs_error_add(err, GS_ERR_INVALID, "/inference/speculative/draft",
                                "ngram proposes from the text itself; it takes no draft model");
        if (method != GS_SPEC_NGRAM && draft == NULL)
            return gs_error_add(err, GS_ERR_INVALID, "/inference/speculative/draft",
                                "TensorRT-LLM's %s needs the draft (speculative_model): a "
                                "catalog id, {\"hub_id\": ...} or {\"config\": ...}",
                                name);
        if (draft != NULL && draft->arch->drafts_for_hidden)
            return gs_error_add(err, GS_ERR_INVALID, "/inference/speculative/draft",
                                "a Gemma 4 assistant is not an EAGLE-3 head or a standalone "
                                "draft");
        if (tokens == 0)
            return gs_error_add(err, GS_ERR_INVALID, "/inference/speculative/num_speculative_tokens",
                                "TensorRT-LLM's %s takes max_draft_len, which has no default: "
                                "name the draft tokens",
                                name);
        out->draft_tokens = tokens;
        if (method == GS_SPEC_EAGLE3) {
            out->mode = GS_TRTLLM_EAGLE3;
            out->name = "EAGLE3_ONE_MODEL";
            /* get_num_spec_layers: 1.0 one layer; 1.1 on num_eagle_layers, which
             * EagleDecodingConfig sets to max_draft_len (PR #15017, June 2026: "EAGLE3 is
             * allocating too much KV cache"); 1.3 the draft's own num_hidden_layers in the draft
             * pool */
            if (out->rules == GS_TRTLLM_SPEC_1_3)
                out->own_layout = true;
            else
                out->target_layers = out->rules == GS_TRTLLM_SPEC_1_0 ? 1 : tokens;
            out->extra_kv_tokens = tokens - 1;
            /* _get_eagle3_default_capture_layers: (1, L // 2 - 1, L - 4), one for a one-layer
             * target; "Not enough hidden layers for default EAGLE3 capture" between */
            const uint64_t layers = target->num_hidden_layers;
            if (layers > 1 && layers <= 5)
                return gs_error_add(err, GS_ERR_INVALID, "/inference/speculative/method",
                                    "TensorRT-LLM's EAGLE-3 captures the target's layers 1, L/2 - "
                                    "1 and L - 4 and refuses a target of 2 to 5 layers (\"Not "
                                    "enough hidden layers for default EAGLE3 capture\")");
            out->capture_layers = layers == 1 ? 1 : 3;
        } else if (method == GS_SPEC_DRAFT_MODEL) {
            out->mode = GS_TRTLLM_DRAFT_TARGET;
            out->name = "DRAFT_TARGET";
            out->own_layout = true; /* a second KV cache manager of the draft's layers */
        } else {
            out->mode = GS_TRTLLM_NGRAM;
            out->name = "NGRAM";
        }
    }
    out->target_tokens = out->rules != GS_TRTLLM_SPEC_1_3 && out->target_layers > 0;
    return GS_OK;
}

/* The MTP layers MTPForCausalLM builds: the checkpoint's n layers (mtp_bytes for all of them)
 * scaled to `layers`, each DeepseekV3MTP's eh_proj (2h -> h in the model dtype, `element` bytes,
 * no quant config) split by rows over the tensor ranks (TensorParallelMode.ROW), where the
 * description keeps it whole. */
static uint64_t mtp_layers_bytes(const struct gs_arch *target, uint64_t mtp_bytes, uint64_t layers,
                                 uint64_t t, uint64_t element, bool *ovf)
{
    const uint64_t n = gs_weights_mtp_layers(target);
    uint64_t one = n ? mtp_bytes / n : 0;
    for (size_t i = 0; i < target->tower_count; i++) {
        const struct gs_tower *tw = &target->towers[i];
        if (tw->part != GS_PART_MTP || tw->block >= target->block_count)
            continue;
        const struct gs_block *b = &target->blocks[tw->block];
        for (size_t k = 0; k < b->module_count; k++) {
            const struct gs_module *m = &b->modules[k];
            if (strcmp(m->name, "eh_proj") != 0 || m->split != GS_SPLIT_NONE)
                continue;
            const uint64_t whole = gs_mul(gs_mul(m->in, m->out, ovf), element, ovf);
            const uint64_t split = gs_mul(gs_mul(gs_div_ceil(m->in, t), m->out, ovf), element, ovf);
            if (one >= whole)
                one = gs_add(one - whole, split, ovf);
        }
        break;
    }
    return gs_mul(one, layers, ovf);
}

enum gs_status gs_trtllm_draft(const struct gs_arch *target, const struct gs_draft *draft,
                               enum gs_spec_method method, uint64_t tokens, uint32_t version,
                               const struct gs_weights_request *request, enum gs_kv_dtype kv,
                               struct gs_trtllm_draft *out, struct gs_error *err)
{
    memset(out, 0, sizeof(*out));
    enum gs_status st = gs_trtllm_spec_for(target, draft, method, tokens, version,
                                           request->pipeline, &out->spec, err);
    if (st != GS_OK)
        return st;
    const struct gs_trtllm_spec *s = &out->spec;
    const uint64_t t = request->tensor ? request->tensor : 1;
    bool ovf = false;
    out->cache_layers = s->target_layers;
    if (s->mode == GS_TRTLLM_MTP || s->mode == GS_TRTLLM_MTP_EAGLE) {
        /* the embedding and lm_head are the target's (MTPForCausalLM: self.lm_head = lm_head,
         * self.embed_tokens = model.embed_tokens) */
        uint64_t all = 0;
        /* NemotronHMTP builds its sublayers on a copy of the config with
         * QuantConfig(quant_algo=None) (modeling_nemotron_h.py): the step in the model's 16-bit
         * dtype whatever the checkpoint's format, only its KV cache quantized */
        static const char *const unquantized_mtp[] = {"NemotronHForCausalLM", NULL};
        struct gs_weights_request r = *request;
        if (gs_arch_class_in(target, unquantized_mtp) && r.format != GS_WF_FP32) {
            r.format = GS_WF_BF16;
            r.experts_only = false;
        }
        st = gs_weights_mtp_bytes(target, &r, false, &all, err);
        if (st != GS_OK)
            return st;
        out->weights_bytes = mtp_layers_bytes(target, all, s->mtp_layers, t,
                                              request->format == GS_WF_FP32 ? 4 : 2, &ovf);
    } else if (s->mode == GS_TRTLLM_EAGLE3 || s->mode == GS_TRTLLM_DRAFT_TARGET) {
        const struct gs_arch *a = draft->arch;
        const struct gs_weights_request r = {(enum gs_weight_format)draft->format,
                                             draft->group_size,
                                             t,
                                             1,
                                             false,
                                             0,
                                             request->stages,
                                             false};
        if (s->mode == GS_TRTLLM_DRAFT_TARGET) {
            st = gs_weights_bytes(a, NULL, &r, &out->weights_bytes, err); /* shares nothing */
        } else {
            /* Eagle3DraftModel: its layers, fc over the captured states (replicated), its own
             * lm_head over draft_vocab_size and d2t (int32) where that vocabulary is not the
             * target's; the embedding is the target's */
            const uint64_t vocab = draft->draft_vocab ? draft->draft_vocab : a->vocab_size;
            st = gs_weights_eagle_bytes(a, true, draft->target_hidden, vocab,
                                        vocab != target->vocab_size ? 4 : 0, &r,
                                        &out->weights_bytes, err);
        }
        if (st != GS_OK)
            return st;
        if (s->own_layout) {
            struct gs_kv_layout layout;
            st = gs_kv_layout_for(a, kv, 2, t, 1, &layout, err);
            if (st != GS_OK)
                return st;
            if (layout.window_layers || layout.recurrent_layers || layout.cross_token_bytes)
                return gs_error_add(err, GS_ERR_INVALID, "/inference/speculative/draft",
                                    "TensorRT-LLM's draft KV cache of sliding-window, recurrent "
                                    "or cross-attention layers is not modelled (a draft with "
                                    "sliding windows raises NotImplementedError)");
            out->cache_token_bytes = gs_add(layout.bytes_per_token, layout.indexer_token_bytes,
                                            &ovf);
            out->cache_layers = layout.full_layers;
        }
    }
    return ovf ? gs_error_add(err, GS_ERR_RANGE, "", "the draft's bytes overflow 64 bits") : GS_OK;
}

uint64_t gs_trtllm_spec_buffers(const struct gs_trtllm_spec *s, const struct gs_arch *target,
                                uint64_t element, uint64_t tokens, uint64_t batch,
                                uint64_t max_seq_len, bool *ovf)
{
    const uint64_t h = target->hidden_size;
    if (s->mode == GS_TRTLLM_MTP) {
        /* MTPHiddenStatesManager: mtp_past_hidden_states_pool (max_num_requests,
         * num_nextn_predict_layers, hidden) in the model dtype and mtp_past_tokens_pool
         * (max_num_requests, num_nextn_predict_layers) int32 */
        const uint64_t rows = gs_mul(batch, s->mtp_layers, ovf);
        return gs_add(gs_mul(gs_mul(rows, h, ovf), element, ovf), gs_mul(rows, 4, ovf), ovf);
    }
    if (s->capture_layers == 0)
        return 0;
    const uint64_t row = gs_mul(gs_mul(h, s->capture_layers, ovf), element, ovf);
    if (s->mode == GS_TRTLLM_EAGLE3 && s->rules == GS_TRTLLM_SPEC_1_3) {
        /* from PR #13920 (May 2026) the one-model flow always builds Eagle3ResourceManager and
         * reads its hidden_states: min(max_num_tokens, max_num_requests x max_seq_len) +
         * (max_total_draft_tokens + 1) x max_num_requests rows */
        const uint64_t most = gs_mul(batch, max_seq_len, ovf);
        const uint64_t rows =
            gs_add(tokens < most ? tokens : most, gs_mul(s->draft_tokens + 1, batch, ovf), ovf);
        return gs_mul(rows, row, ovf);
    }
    /* Eagle3OneModelSpecMetadata.__post_init__: hidden_states (max_num_tokens, hidden x the
     * captured layers), once for the first forward (releases before PR #13920 make another for
     * each CUDA graph they capture: the warning speculative_graph_buffers_not_modeled) */
    return gs_mul(tokens, row, ovf);
}

bool gs_trtllm_replay_splits(const struct gs_arch *target, uint64_t tensor)
{
    const uint64_t t = tensor ? tensor : 1;
    for (size_t i = 0; i < target->block_count; i++)
        if (target->blocks[i].rec.mamba2 && gs_recurrent_groups(&target->blocks[i].rec) % t != 0)
            return false;
    return true;
}

/* MambaHybridCacheManagerV2 binds its state-update strategy right after it builds its pool
 * (kv_cache/mamba_cache_manager/mamba_cache_manager_v2.py __init__: with_slot_capacity, then
 * state_update_strategy.bind), as plain torch.zeros outside the pool's quota (the strategies add
 * nothing to bytes_per_slot or buffer_configs, nor _estimate_mamba_hybrid_cache_cost), so the
 * estimation manager's buffers are in the profile's peak and the final manager's are allocated
 * again at its own slot count. Under speculative decoding, T = max_draft_len + 1 tokens a
 * generation step (tokens_per_gen_step):
 *  - Mamba-2 layers (_util.py's Nemotron-H branch) take the replay strategy from SM 8.0
 *    (TRTLLM_USE_MAMBA_REPLAY "1"): modules/mamba/cache_manager.py
 *    Mamba2ReplayStateUpdateStrategy.bind allocates intermediate_conv [layers, max_batch_size, T,
 *    conv_dim / tp, d_conv - 1] in the conv dtype, and for each of the pool's slots rand_seed
 *    int64, prev_num_accepted_tokens and cache_buf_idx int32, old_x [layers, slots, 2, H, heads /
 *    tp, head_dim] and old_B [layers, slots, 2, H, n_groups / tp, d_state] in the model dtype,
 *    old_dt and old_dA_cumsum [layers, slots, 2, heads / tp, H] in fp32, H = max(16, T), and
 *    _dummy_mask [max_batch_size + 1] bool;
 *  - Gated DeltaNet layers (the Qwen3-Next branch, build_gdn_state_update_strategy) replay only
 *    where TRTLLM_USE_GDN_REPLAY=1; by default, as Mamba-2 layers before SM 8.0, the strategy keeps
 *    intermediate_ssm [layers, max_batch_size, T, heads / tp, rows, cols] in the SSM cache dtype
 *    beside the same conv windows, and nothing a slot;
 * and under either intermediate_indices [max_batch_size] int32. The SSM cache dtype is the
 * request's mamba_ssm_cache_dtype (`ssm_element`), else the config's mamba_ssm_cache_dtype, else
 * the model's (config_utils.resolve_ssm_cache_dtype). */
uint64_t gs_trtllm_spec_states(const struct gs_trtllm_spec *s, const struct gs_arch *target,
                               uint64_t tensor, uint64_t element, uint64_t ssm_element, bool replay,
                               uint64_t batch, uint64_t slots, bool *ovf)
{
    if (s->draft_tokens == 0)
        return 0;
    const uint64_t t = tensor ? tensor : 1;
    const uint64_t steps = s->draft_tokens + 1;
    const uint64_t history = steps > 16 ? steps : 16;
    uint64_t counts[GS_BLOCKS_MAX];
    gs_arch_count_blocks(target, 0, target->num_hidden_layers, counts);
    uint64_t per_batch = 0, per_slot = 0;
    bool replays = false, any = false;
    for (size_t i = 0; i < target->block_count; i++) {
        const struct gs_recurrent *r = &target->blocks[i].rec;
        if (counts[i] == 0 || !(r->mamba2 || r->delta_rule))
            continue;
        any = true;
        const uint64_t heads = gs_div_ceil(r->state_heads, t);
        const uint64_t conv = gs_mul(
            gs_mul(gs_div_ceil(r->conv_channels, t), r->conv_kernel ? r->conv_kernel - 1 : 0, ovf),
            element, ovf);
        uint64_t batch_layer = gs_mul(steps, conv, ovf);
        uint64_t slot_layer = 0;
        if (replay && r->mamba2) {
            replays = true;
            const uint64_t x = gs_mul(gs_mul(heads, r->state_rows, ovf), element, ovf);
            const uint64_t b = gs_mul(
                gs_mul(gs_div_ceil(gs_recurrent_groups(r), t), r->state_cols, ovf), element, ovf);
            slot_layer =
                gs_mul(2 * history, gs_add(gs_add(x, b, ovf), gs_mul(heads, 8, ovf), ovf), ovf);
        } else {
            const uint64_t e = ssm_element            ? ssm_element
                               : r->cache_dtype_bytes ? r->cache_dtype_bytes
                                                      : element;
            const uint64_t ssm = gs_mul(gs_mul(heads, r->state_rows, ovf),
                                        gs_mul(r->state_cols ? r->state_cols : 1, e, ovf), ovf);
            batch_layer = gs_add(batch_layer, gs_mul(steps, ssm, ovf), ovf);
        }
        per_batch = gs_add(per_batch, gs_mul(batch_layer, counts[i], ovf), ovf);
        per_slot = gs_add(per_slot, gs_mul(slot_layer, counts[i], ovf), ovf);
    }
    if (!any)
        return 0;
    uint64_t fixed = gs_mul(batch, 4, ovf); /* intermediate_indices */
    if (replays) {
        per_slot = gs_add(per_slot, 8 + 4 + 4, ovf);
        fixed = gs_add(fixed, gs_add(batch, 1, ovf), ovf); /* _dummy_mask */
    }
    return gs_add(gs_add(gs_mul(per_batch, batch, ovf), gs_mul(per_slot, slots, ovf), ovf), fixed,
                  ovf);
}
