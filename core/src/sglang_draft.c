/*
 * sglang_draft.c - what SGLang's speculative draft worker holds on one GPU
 * where the release budgets it inside mem_fraction_static (see gs/sglang.h,
 * gs_sglang_draft).
 */
#include "gs/sglang.h"

#include "gs/arch.h"
#include "gs/status.h"
#include "gs/units.h"
#include "gs/weights.h"

#include <string.h>

/* One vocabulary-sized table (an embedding or a head) as SGLang builds it: VocabParallelEmbedding
 * and ParallelLMHead split over the tensor ranks, in the model dtype - the draft's
 * embed_tokens takes no quant_config, and a quantized config's get_quant_method gives an
 * embedding layer the unquantized method (sglang issue #36452). */
static uint64_t vocab_table_bytes(uint64_t vocab, uint64_t hidden,
                                  const struct gs_weights_request *r, bool *ovf)
{
    const uint64_t t = r->tensor ? r->tensor : 1;
    const uint64_t element = r->format == GS_WF_FP32 ? 4 : 2;
    return gs_mul(gs_mul(gs_div_ceil(vocab, t), hidden, ovf), element, ovf);
}

enum gs_status gs_sglang_draft(const struct gs_arch *target, const struct gs_draft *draft,
                               enum gs_spec_method method,
                               const struct gs_weights_request *request,
                               struct gs_sglang_draft *out, struct gs_error *err)
{
    memset(out, 0, sizeof(*out));
    bool ovf = false;
    enum gs_status st = GS_OK;
    if (method == GS_SPEC_NONE || method == GS_SPEC_NGRAM)
        return GS_OK; /* NGRAMWorker takes the target's pool and loads nothing */
    if (method == GS_SPEC_MTP) {
        if (draft != NULL && draft->arch->drafts_for_hidden) {
            out->unsized = "SGLang runs a Gemma 4 assistant through its own worker, whose "
                           "memory gpusizer does not size";
            return GS_OK;
        }
        if (draft != NULL) {
            out->unsized = "SGLang's NEXTN drafts with the model's own MTP layers; a named "
                           "draft goes with eagle, eagle3 or draft_model";
            return GS_OK;
        }
        out->cache_layers = gs_weights_mtp_layers(target);
        if (out->cache_layers == 0) {
            out->unsized = "gpusizer has no description of this model's multi-token-prediction "
                           "layers, so it cannot size SGLang's NEXTN draft";
            return GS_OK;
        }
        /* DeepseekV3ForCausalLMNextN, Qwen3_5ForCausalLMMTP: the MTP layers (eh_proj and the
         * norms), and their own embed_tokens and lm_head over the target's vocabulary until
         * set_embed_and_head */
        st = gs_weights_mtp_bytes(target, request, false, &out->weights_bytes, err);
        out->transient_bytes =
            gs_mul(vocab_table_bytes(target->vocab_size, target->hidden_size, request, &ovf), 2,
                   &ovf);
    } else {
        if (draft == NULL) {
            out->unsized = "SGLang's EAGLE, EAGLE-3 and STANDALONE drafts are sized from the "
                           "draft the request names (inference.speculative.draft)";
            return GS_OK;
        }
        const struct gs_arch *a = draft->arch;
        if (a->drafts_for_hidden) {
            out->unsized = "a Gemma 4 assistant is not an EAGLE head or a standalone draft";
            return GS_OK;
        }
        const struct gs_weights_request r = {(enum gs_weight_format)draft->format,
                                             draft->group_size,
                                             request->tensor,
                                             1,
                                             false,
                                             0,
                                             request->stages,
                                             false};
        /* spec_aux_hidden_state.py eagle_draft_num_layers: max(the draft's num_hidden_layers,
         * its attention layers) */
        out->cache_layers = a->num_hidden_layers;
        if (method == GS_SPEC_DRAFT_MODEL) {
            /* standalone_worker_v2.py: init_lm_head is a no-op, the draft shares nothing */
            st = gs_weights_bytes(a, NULL, &r, &out->weights_bytes, err);
        } else if (method == GS_SPEC_EAGLE) {
            /* llama_eagle.py: embedding and head built, then the target's (set_embed_and_head) */
            st = gs_weights_eagle_bytes(a, false, 0, 0, 0, &r, &out->weights_bytes, err);
            out->transient_bytes =
                gs_mul(vocab_table_bytes(a->vocab_size, a->hidden_size, &r, &ovf), 2, &ovf);
        } else {
            /* llama_eagle3.py: its own head over draft_vocab_size and hot_token_id (d2t; t2d is
             * skipped); the embedding built, then the target's (set_embed); without a draft
             * vocabulary load_lm_head_from_target builds a vocabulary-sized head and takes the
             * target's too (set_embed_and_head) */
            st = gs_weights_eagle_bytes(a, true, draft->target_hidden, draft->draft_vocab, 8, &r,
                                        &out->weights_bytes, err);
            out->transient_bytes = gs_mul(vocab_table_bytes(a->vocab_size, a->hidden_size, &r,
                                                            &ovf),
                                          draft->draft_vocab ? 1 : 2, &ovf);
        }
    }
    if (st != GS_OK)
        return st;
    return ovf ? gs_error_add(err, GS_ERR_RANGE, "", "the draft's bytes overflow 64 bits") : GS_OK;
}
