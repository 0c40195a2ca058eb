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

/* Whether any layer of `a` keeps a recurrent state (a hybrid): gs_kv_state_bytes counts them. */
static bool keeps_states(const struct gs_arch *a)
{
    const struct gs_state_dtypes any = {2, 2, 0, GS_STATE_KEY_NONE, GS_STATE_REACH_ALL};
    uint64_t layers = 0;
    bool ovf = false;
    gs_kv_state_bytes(a, 1, &any, &layers, &ovf);
    return layers > 0;
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
    if (keeps_states(target))
        return gs_error_add(err, GS_ERR_INVALID, "/inference/speculative/method",
                            "TensorRT-LLM keeps a hybrid's intermediate recurrent states for "
                            "every draft token of every max_batch_size slot "
                            "(mamba_cache_manager.py; from 1.3 allocated after the KV cache "
                            "pool, outside its budget), which gpusizer does not size; vLLM's and "
                            "SGLang's mtp on a hybrid are sized");
    const uint64_t n = gs_weights_mtp_layers(target);
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
        st = gs_weights_mtp_bytes(target, request, false, &all, err);
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
                                             request->stages};
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
