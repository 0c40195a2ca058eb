/*
 * estimate.c - per-GPU memory for a model and a workload (see gs/estimate.h):
 * the model's parameters, the notes every answer shares, the dispatch to the
 * serving half (estimate_serving.c) or the training half
 * (estimate_training.c), the capability warnings and the per-GPU total.
 */
#include "estimate_notes.h"
#include "estimate_scope.h"
#include "estimate_serving.h"
#include "estimate_training.h"

#include "gs/capability.h"
#include "gs/engines.h"
#include "gs/units.h"

#include <stddef.h>
#include <string.h>

/* gs_arch_count_params, its errors under "/model/config". */
static enum gs_status count_arch(const struct gs_arch *arch, struct gs_param_count *out,
                                 struct gs_error *err)
{
    const size_t first = err != NULL ? err->count : 0;
    const enum gs_status st = gs_arch_count_params(arch, out, err);
    if (st != GS_OK)
        gs_error_prefix(err, first, "/model/config");
    return st;
}

static enum gs_status resolve_parameters(const struct gs_model_spec *model, struct gs_estimate *e,
                                         struct gs_error *err)
{
    if (!model->has_arch) {
        if (model->parameters == 0)
            return gs_error_add(err, GS_ERR_INVALID, "/model/parameters", "must be at least 1");
        if (model->parameters > GS_PARAMETERS_MAX)
            return gs_error_add(err, GS_ERR_RANGE, "/model/parameters",
                                "%llu is above the limit of %llu parameters",
                                (unsigned long long)model->parameters,
                                (unsigned long long)GS_PARAMETERS_MAX);
        e->parameters = model->parameters;
        return GS_OK;
    }
    if (model->counted) {
        e->params = model->counts;
    } else {
        enum gs_status st = count_arch(&model->arch, &e->params, err);
        if (st != GS_OK)
            return st;
    }
    if (e->params.total > GS_PARAMETERS_MAX)
        return gs_error_add(err, GS_ERR_RANGE, "/model/config",
                            "the architecture has %llu parameters, above the limit of %llu",
                            (unsigned long long)e->params.total,
                            (unsigned long long)GS_PARAMETERS_MAX);
    e->has_breakdown = true;
    e->parameters = e->params.total;
    /* a reader that went by the standard keys alone says what it left out */
    if (model->arch.approximate[0] != '\0')
        warn(e, "architecture_approximate", model->arch.approximate);
    return GS_OK;
}

enum gs_status gs_model_spec_count(struct gs_model_spec *model, struct gs_error *err)
{
    model->counted = false;
    if (!model->has_arch)
        return GS_OK;
    const enum gs_status st = count_arch(&model->arch, &model->counts, err);
    bool ovf = false;
    for (size_t b = 0; st == GS_OK && b < model->arch.block_count; b++)
        gs_arch_count_block(&model->arch, b, &model->block_counts[b], &ovf);
    model->counted = st == GS_OK && !ovf;
    return st;
}

/* A format, cache or regime the named GPU has no kernels for: answered, with
 * the rule and its source (gs/capability.h), since the user may know better. */
static void capability_warnings(const struct gs_workload *w, struct gs_estimate *e)
{
    const char *rule = NULL;
    if (w->mode == GS_MODE_INFERENCE) {
        /* every GPU that runs a stage (parallelism.stage_gpus), else the named one */
        const uint64_t n = w->stage_gpu_count ? w->stage_gpu_count : 1;
        for (uint64_t i = 0; i < n; i++) {
            const enum gs_hw stage_hw =
                (enum gs_hw)(w->stage_gpu_count ? w->stage_gpus[i].hw : w->gpu.hw);
            if (stage_hw != GS_HW_UNKNOWN &&
                (!gs_engine_runs_format(&w->serving.engine, stage_hw, gs_workload_format(w),
                                        &rule) ||
                 (w->serving.present && !gs_hw_runs_kv(stage_hw, w->serving.kv_dtype, &rule)))) {
                warn(e, "unsupported_on_gpu", rule);
                return;
            }
        }
        return;
    }
    const enum gs_hw hw = (enum gs_hw)w->gpu.hw;
    if (hw == GS_HW_UNKNOWN)
        return;
    const bool bf16 = e->regime == GS_REGIME_BF16_MIXED || e->regime == GS_REGIME_BF16_PURE ||
                      w->weights == GS_DTYPE_BF16;
    if (bf16 && !gs_hw_bf16(hw))
        warn(e, "unsupported_on_gpu",
             "bf16 training needs compute capability 8.0 (Ampere) or newer: train in fp16 mixed "
             "precision on this GPU (torch.cuda.is_bf16_supported)");
    else if (e->method == GS_METHOD_QLORA && !gs_hw_runs_format(hw, GS_WF_NF4, &rule))
        warn(e, "unsupported_on_gpu", rule);
}

enum gs_status gs_estimate_compute(const struct gs_model_spec *model,
                                   const struct gs_workload *workload, struct gs_estimate *out,
                                   struct gs_error *err)
{
    return gs_estimate_compute_scoped(model, workload, NULL, out, err);
}

enum gs_status gs_estimate_compute_scoped(const struct gs_model_spec *model,
                                          const struct gs_workload *workload,
                                          const struct gs_estimate_scope *scope,
                                          struct gs_estimate *out, struct gs_error *err)
{
    static const struct gs_estimate_scope whole = {0};
    if (scope == NULL)
        scope = &whole;
    /* written in place (no copy of the whole answer per call: plan searches make hundreds);
     * on an error `out` holds a partial answer the caller does not read */
    struct gs_estimate *const e = out;
    /* everything but the notes' arrays, which are read only below their counts: they are
     * 60% of the answer, and a plan search computes hundreds of answers */
    memset(e, 0, offsetof(struct gs_estimate, assumptions));
    e->warning_count = 0;
    if (workload->weights >= GS_DTYPE_COUNT)
        return gs_error_add(err, GS_ERR_INVALID, "/precision/weights", "unknown precision");
    if (workload->overrides.has_fragmentation_permille &&
        workload->overrides.fragmentation_permille > 1000)
        return gs_error_add(err, GS_ERR_RANGE, "/overrides/fragmentation_fraction",
                            "must be between 0 and 1");
    if (model->has_arch && model->arch.drafts_for_hidden)
        return gs_error_add(err, GS_ERR_INVALID, "/model",
                            "this model is a drafter that runs only beside its target, reading "
                            "the target's KV cache and hidden states (Gemma 4's assistants): "
                            "size the target with inference.speculative {\"method\": \"mtp\", "
                            "\"draft\": this model}");
    /* a framework that builds the model its own way: a tied model with one matrix more, no
     * dropout */
    struct gs_model_spec own_copy;
    unsigned changes = 0;
    enum gs_status st = est_training_model(model, workload, &own_copy, &model, &changes, err);
    if (st != GS_OK)
        return st;
    const bool copied = model == &own_copy;
    st = resolve_parameters(model, e, err);
    if (st != GS_OK)
        return st;
    e->trainable_parameters = e->parameters;
    /* the copy lives in this frame: a plan search's memo keys activations by the
     * architecture's address, which another call's copy may share */
    st = workload->mode == GS_MODE_TRAINING
             ? est_compute_training(model, workload, copied ? NULL : scope->activation_memo, e, err)
             : est_compute_inference(model, workload, scope, e, err);
    if (st != GS_OK)
        return st;
    if (changes & EST_MODEL_NO_DROPOUT)
        assume(e, "model_without_dropout",
               "the framework trains its own implementation of the architecture, which has no "
               "dropout layer: the config's attention, hidden and MLP dropout are not applied, "
               "so no dropout mask or output is kept (LoRA's own dropout stays)",
               "litgpt/model.py (no nn.Dropout; scaled_dot_product_attention(..., "
               "dropout_p=0.0)); torchtune models/*/_model_builders.py (attn_dropout=0.0); "
               "torchtitan models/llama3/model.py (no dropout)");
    if (changes & EST_MODEL_GATE_UP_APART)
        assume(e, "gate_up_apart",
               "the framework's MLP runs the gate and the up projection as two linears where "
               "the checkpoint fuses them: two LoRA adapters, each over its own dropout of the "
               "input, and lora_A's rank x hidden parameters twice",
               "litgpt/model.py LLaMAMLP (fc_1, fc_2); litgpt/lora.py LLaMAMLP (each a "
               "LoRALinear); scripts/convert_hf_checkpoint.py splits gate_up_proj; torchtune "
               "FeedForward (gate_proj, up_proj: models/phi3/_component_builders.py)");
    if (changes & EST_MODEL_QKV_APART)
        assume(e, "qkv_apart",
               "the framework's attention runs the query, key and value projections as three "
               "linears where the checkpoint fuses them: LoRA targets name q_proj, k_proj and "
               "v_proj, each an adapter of its own",
               "torchtune models/phi3/_component_builders.py (MultiHeadAttention q_proj, k_proj, "
               "v_proj); models/phi3/_convert_weights.py splits qkv_proj");
    if (changes & EST_MODEL_SHARED_KV_DROPPED)
        assume(e, "shared_kv_layers_without_kv_weights",
               "the layers that share an earlier layer's keys and values hold no k_proj, v_proj "
               "or k_norm in the transformers release the run trains (the checkpoint's are "
               "skipped at load): no weights, gradients, states or LoRA adapters of theirs",
               "transformers modeling_gemma3n.py Gemma3nTextAttention.__init__ (`if not "
               "self.is_kv_shared_layer`, from 5.6.0, PR #45489); modeling_gemma4.py (from 5.5.2, "
               "PR #45336)");
    if (changes & EST_MODEL_SHARED_KV_BUILT)
        assume(e, "shared_kv_layers_with_kv_weights",
               "the layers that share an earlier layer's keys and values still build their own "
               "k_proj, v_proj and k_norm in the transformers release the run trains, as the "
               "layer they read from has them: weighed and trained (all-linear LoRA adapts them)",
               "transformers modeling_gemma4.py Gemma4TextAttention.__init__ in 5.5.0 and 5.5.1 "
               "(every layer; 5.5.2 builds them only `if not self.is_kv_shared_layer`, PR "
               "#45336)");
    if (changes & EST_MODEL_HEAD_UNTIED)
        assume(e, "head_untied",
               "the framework keeps its own output head: the checkpoint's head, tied to the "
               "token embedding, is loaded as a matrix of its own, so the head's vocabulary x "
               "hidden weights are counted apart (with their gradients and states where the "
               "head trains)",
               "litgpt/model.py GPT.__init__ (lm_head beside transformer.wte); "
               "scripts/convert_hf_checkpoint.py copies transformer.wte.weight into "
               "lm_head.weight");
    capability_warnings(workload, e);

    bool ovf = false;
    const struct gs_memory *m = &e->per_gpu;
    uint64_t total = gs_add(m->weights_bytes, m->kv_cache_bytes, &ovf);
    total = gs_add(total, m->activations_bytes, &ovf);
    total = gs_add(total, m->gradients_bytes, &ovf);
    total = gs_add(total, m->optimizer_bytes, &ovf);
    total = gs_add(total, m->overhead_bytes, &ovf);
    if (ovf)
        return gs_error_add(err, GS_ERR_RANGE, "", "the memory figures overflow 64 bits");
    e->per_gpu.total_bytes = total;
    return GS_OK;
}
