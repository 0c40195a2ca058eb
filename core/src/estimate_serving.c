/*
 * estimate_serving.c - the serving half of gs_estimate_compute (see
 * gs/estimate.h): weights as the checkpoint and engine load them, speculative
 * drafts, the engine's budget through its module (gs/engine.h), the fixes
 * that make a batch fit, and the text behind the answer.
 */
#include "estimate_serving.h"

#include "estimate_notes.h"

#include "gs/capability.h"
#include "gs/engines.h"
#include "gs/sglang.h"
#include "gs/trtllm.h"
#include "gs/units.h"
#include "gs/vllm.h"

#include <stddef.h>
#include <string.h>

/* The notes sink engine modules write through (gs/engine.h). */
static void note_assume(void *ctx, const char *name, const char *detail, const char *source)
{
    assume(ctx, name, detail, source);
}

static void note_assume_value(void *ctx, const char *name, uint64_t value, const char *detail,
                              const char *source)
{
    assume_value(ctx, name, value, detail, source);
}

static void note_warn(void *ctx, const char *code, const char *detail)
{
    warn(ctx, code, detail);
}

static struct gs_engine_notes notes_for(struct gs_estimate *e)
{
    return (struct gs_engine_notes){e, note_assume, note_assume_value, note_warn};
}

static void add_runtime_overheads(const struct gs_overrides *o, uint64_t world,
                                  struct gs_estimate *e, bool *ovf)
{
    const uint64_t cuda = overhead_value(o->has_cuda_context_bytes, o->cuda_context_bytes,
                                         GS_CUDA_CONTEXT_BYTES);
    const uint64_t cublas = overhead_value(o->has_cublas_workspace_bytes, o->cublas_workspace_bytes,
                                           GS_CUBLAS_WORKSPACE_BYTES);
    uint64_t total = gs_add(cuda, cublas, ovf);
    assume_context(e, o, cuda);
    assume_value(e, "cublas_workspace_bytes", cublas,
                 o->has_cublas_workspace_bytes
                     ? "cuBLAS workspace per GPU, as given in overrides"
                     : "cuBLAS workspace per GPU (PyTorch's Hopper default; older GPUs use about "
                       "8 MiB)",
                 "pytorch/pytorch PR #120925 and PR #89027");
    if (world > 1) {
        const uint64_t nccl = overhead_value(o->has_nccl_bytes, o->nccl_bytes, GS_NCCL_BYTES);
        total = gs_add(total, nccl, ovf);
        assume_value(e, "nccl_bytes", nccl,
                     "NCCL communicator buffers per GPU once it talks to other GPUs",
                     "vLLM non-torch memory 1.79 GiB -> 3.58 GiB from 1 to 2 GPUs (vllm PR "
                     "#10511); NCCL_BUFFSIZE 4 MB per channel per peer (NVIDIA/nccl #864, #986)");
    }
    e->per_gpu.overhead_bytes = gs_add(e->per_gpu.overhead_bytes, total, ovf);
}

enum gs_weight_format gs_workload_format(const struct gs_workload *w)
{
    if (w->format_given)
        return w->format;
    switch (w->weights) {
    case GS_DTYPE_FP32:
        return GS_WF_FP32;
    case GS_DTYPE_FP16:
        return GS_WF_FP16;
    case GS_DTYPE_INT8:
        return GS_WF_INT8;
    case GS_DTYPE_INT4:
        return GS_WF_INT4;
    case GS_DTYPE_BF16:
    case GS_DTYPE_COUNT:
        break;
    }
    return GS_WF_BF16;
}

static void assume_format(struct gs_estimate *e, enum gs_weight_format f)
{
    switch (f) {
    case GS_WF_FP32:
    case GS_WF_BF16:
    case GS_WF_FP16:
        assume(e, "weights_precision", "weights stored unquantized at the requested precision",
               "bytes per element of the format");
        return;
    case GS_WF_INT4:
        assume(e, "quantized_weights", "every parameter stored at exactly 4 bits; no scales",
               "plain bit width lists per-format overheads");
        warn(e, "quantization_overhead_not_counted",
             "plain int4 counts no scales and quantizes embeddings, norms and head too; name the "
             "format (gptq, awq, nf4, q4_k_m, ...) for the real layout");
        return;
    default:
        assume(e, "quantized_weights",
               "linear-layer weights in the named format with its scales and zero points "
               "(GPTQ/AWQ per group, LLM.int8 and fp8 per row or tensor or block, nf4 per 64, "
               "MXFP4 per 32, NVFP4 an fp8 scale per 16 and two fp32 scalars); embeddings, head, "
               "norms, routers and what a checkpoint's ignore list names in 16-bit; GGUF at the "
               "whole-file rate of its mix",
               "vLLM GPTQ/AWQ create_weights, bitsandbytes, llama.cpp block structs and "
               "quantize.cpp sizes");
        return;
    }
}

/* The whole bytes at or above `v`, a millionth of a byte of rounding error
 * aside: ceil(v - 1e-6). Not (uint64_t)(v + 0.999999), which where long
 * double has only double's 53 bits (valgrind runs x87 long double at double
 * precision; so do MSVC and 32-bit ARM) rounds an exact 31170895872 up to
 * ...873: above 2^33 a double's step exceeds 1e-6. */
static uint64_t whole_bytes(long double v)
{
    v -= 1e-6L;
    if (v <= 0)
        return 0;
    const uint64_t u = (uint64_t)v;
    return (long double)u < v ? u + 1 : u;
}

uint64_t gs_checkpoint_bytes_per_gpu(const struct gs_checkpoint_bytes *ck, uint64_t tensor,
                                     uint64_t pipeline)
{
    const uint64_t t = tensor ? tensor : 1, p = pipeline ? pipeline : 1;
    if (ck->tensor_bytes == 0)
        return 0;
    /* the stage's share of the model: its layers and everything outside them */
    const long double share =
        ((long double)ck->layer_bytes / (long double)p + (long double)ck->other_bytes) /
        (long double)ck->tensor_bytes;
    const long double rank = (long double)ck->matrix_bytes / (long double)t +
                             (long double)ck->vector_bytes;
    const long double bytes = share > 1 ? rank : rank * share;
    return whole_bytes(bytes);
}

/* Whether the checkpoint's bytes describe the weights as served in `f`. */
static bool checkpoint_applies(const struct gs_model_spec *m, const struct gs_workload *w,
                               enum gs_weight_format f)
{
    /* gpt-oss stores only its routed experts in mxfp4: its bytes describe that, not every
     * weight in mxfp4 */
    const bool experts_only_stored =
        m->has_arch && m->arch.checkpoint.quantized && m->arch.checkpoint.experts_only;
    return m->stored.present && m->stored.tensor_bytes > 0 && f == m->stored.format &&
           w->format_experts_only == experts_only_stored;
}

/* The checkpoint's bytes the target model loads: its MTP layers' tensors are skipped (vLLM
 * deepseek_v2.py load_weights: "skip spec decode layers for main model"; transformers
 * DeepseekV3PreTrainedModel._keys_to_ignore_on_load_unexpected), and the config's count leaves
 * them out too (gs_param_count.mtp). */
static uint64_t served_checkpoint_bytes(const struct gs_model_spec *m)
{
    const struct gs_checkpoint_bytes *ck = &m->stored;
    return ck->mtp_bytes < ck->tensor_bytes ? ck->tensor_bytes - ck->mtp_bytes : ck->tensor_bytes;
}

/* A layout's share of the checkpoint's bytes, by the config-derived split:
 * config_gpu of config_total becomes the same share of the tensors. */
static uint64_t scale_to_checkpoint(uint64_t config_gpu, uint64_t config_total,
                                    uint64_t tensor_bytes)
{
    if (config_total == 0)
        return config_gpu;
    const long double v = (long double)config_gpu * (long double)tensor_bytes /
                          (long double)config_total;
    return whole_bytes(v);
}

/* The engine's own split: TensorRT-LLM's pp_layers, vLLM's get_pp_indices for the rest. */
static struct gs_stage_plan engine_split(const struct gs_workload *w)
{
    return gs_stage_rule(w->serving.engine.engine == GS_ENGINE_TENSORRT_LLM ? GS_SPLIT_TRTLLM
                                                                             : GS_SPLIT_VLLM);
}

struct gs_stage_plan gs_workload_serving_stages(const struct gs_workload *w)
{
    return w->parallelism.stages.split == GS_SPLIT_GIVEN ? w->parallelism.stages
                                                         : engine_split(w);
}

/* The split of a layout of `p` stages: the request's list when it has that many stages (a
 * search's other layouts, and one stage, take the engine's rule). */
static struct gs_stage_plan stages_for(const struct gs_workload *w, uint64_t p)
{
    if (w->parallelism.stages.split == GS_SPLIT_GIVEN && w->parallelism.stages.given_count == p)
        return w->parallelism.stages;
    return engine_split(w);
}

static uint64_t config_total_bytes(const struct gs_model_spec *m, const struct gs_workload *w,
                                   const struct gs_estimate_scope *scope, enum gs_weight_format f)
{
    struct gs_weights_request whole = {f, w->group_size,    1,    1, w->format_experts_only,
                                       1, stages_for(w, 1), false};
    uint64_t total = 0;
    if (gs_weights_bytes_memo(&m->arch, &whole, scope->weights_memo, &total, NULL, NULL) != GS_OK)
        return 0;
    return total;
}

/* Whether the engine keeps the model's n-gram tables in host memory (DeepSeek-V4.1's Engram,
 * Qwen3.8-Flash-Next's PLE). */
static bool host_tables(const struct gs_model_spec *m, const struct gs_workload *w)
{
    return m->has_arch && gs_weights_has_host_tables(&m->arch) &&
           gs_engine_engram_tables_on_host(w->serving.engine.engine, w->serving.engine.version,
                                           w->serving.engine.engram_tables);
}

/* The weights request of the target model on `t` x `p` GPUs in format `f`, its Engram tables
 * where the engine keeps them. */
static struct gs_weights_request target_request(const struct gs_model_spec *m,
                                                const struct gs_workload *w,
                                                enum gs_weight_format f, uint64_t t, uint64_t p)
{
    return (struct gs_weights_request){f,
                                       w->group_size,
                                       t,
                                       p,
                                       w->format_experts_only,
                                       w->parallelism.expert,
                                       stages_for(w, p),
                                       host_tables(m, w)};
}

static enum gs_status inference_weights(const struct gs_model_spec *m, const struct gs_workload *w,
                                        const struct gs_estimate_scope *scope,
                                        const struct gs_estimate *e, uint64_t t, uint64_t p,
                                        enum gs_weight_format f, uint64_t *out,
                                        struct gs_error *err)
{
    struct gs_weights_request r = target_request(m, w, f, t, p);
    if (m->has_arch) {
        enum gs_status st =
            gs_weights_bytes_memo(&m->arch, &r, scope->weights_memo, out, NULL, err);
        if (st == GS_OK && checkpoint_applies(m, w, f))
            *out = scale_to_checkpoint(*out, config_total_bytes(m, w, scope, f),
                                       served_checkpoint_bytes(m));
        return st;
    }
    if (checkpoint_applies(m, w, f)) {
        *out = gs_checkpoint_bytes_per_gpu(&m->stored, t, p);
        return GS_OK;
    }
    bool ovf = false;
    *out = gs_weights_bytes_raw(e->parameters, &r, &ovf);
    return ovf ? gs_error_add(err, GS_ERR_RANGE, "", "the weight bytes overflow 64 bits") : GS_OK;
}

/* Says where the weights came from, and cross-checks the two counts. */
static void note_checkpoint(const struct gs_model_spec *m, const struct gs_workload *w,
                            const struct gs_estimate_scope *scope, struct gs_estimate *e,
                            enum gs_weight_format f)
{
    if (!checkpoint_applies(m, w, f))
        return;
    e->weights_from_checkpoint = true;
    e->checkpoint_bytes = served_checkpoint_bytes(m);
    e->checkpoint_mtp_bytes = m->stored.tensor_bytes - e->checkpoint_bytes;
    assume_value(e, "weights_from_checkpoint", e->checkpoint_bytes,
                 "the weights are the checkpoint's own tensors as stored (scales, zero points "
                 "and group indices included), split over the layout as the architecture splits "
                 "them",
                 "the checkpoint's safetensors or GGUF headers (dtype and shape of every tensor)");
    if (e->checkpoint_mtp_bytes > 0)
        assume_value(e, "checkpoint_mtp_bytes", e->checkpoint_mtp_bytes,
                     "the checkpoint's multi-token-prediction layers are left out of the "
                     "weights: the served model does not load them (a speculative mtp draft is "
                     "sized on its own)",
                     "vLLM deepseek_v2.py / glm4_moe.py get_spec_layer_idx_from_weight_name and "
                     "load_weights (\"skip spec decode layers for main model\"), mimo.py "
                     "load_weights (mtp_layers); transformers DeepseekV3PreTrainedModel."
                     "_keys_to_ignore_on_load_unexpected");
    if (!m->has_arch)
        return;
    e->config_bytes = config_total_bytes(m, w, scope, f);
    const uint64_t a = e->checkpoint_bytes, b = e->config_bytes;
    const uint64_t diff = a > b ? a - b : b - a;
    if (b > 0 && diff * 100 > a)
        e->checkpoint_mismatch = true;
}

/* SGLang's draft at tensor degree t in format f, where the request's release budgets it
 * inside mem_fraction_static and gpusizer sizes it (gs_sglang_draft); false otherwise. */
static bool sglang_draft_for(const struct gs_model_spec *m, const struct gs_workload *w, uint64_t t,
                             enum gs_weight_format f, struct gs_sglang_draft *out,
                             struct gs_error *err, enum gs_status *st)
{
    const struct gs_engine_config *c = &w->serving.engine;
    *st = GS_OK;
    if (c->engine != GS_ENGINE_SGLANG || c->spec_method == GS_SPEC_NONE ||
        !gs_sglang_release_for(c->version)->draft_in_fraction)
        return false;
    const struct gs_weights_request r = {
        f,    w->group_size, t, 1, w->format_experts_only, w->parallelism.expert, stages_for(w, 1),
        false};
    *st = gs_sglang_draft(&m->arch, w->serving.draft, (enum gs_spec_method)c->spec_method, &r, out,
                          err);
    return *st == GS_OK && out->unsized == NULL;
}

/* The attention layers vLLM's drafter adds to this GPU's KV cache, and
 * their bytes per token (0: each like the target's full-attention layers):
 * mtp one layer per MTP layer, reused for every step
 * (deepseek_mtp.py: spec_step_idx % num_mtp_layers); an EAGLE head or a
 * draft model its own layers, in the target's cache dtype
 * (_create_draft_vllm_config keeps cache_config.cache_dtype). */
static void draft_cache(const struct gs_model_spec *m, const struct gs_workload *w, uint64_t t,
                        struct gs_inference_input *in)
{
    uint64_t *layers = &in->draft_layers, *token_bytes = &in->draft_token_bytes,
             *window = &in->draft_window;
    *layers = 0;
    *token_bytes = 0;
    *window = 0;
    const struct gs_engine_config *c = &w->serving.engine;
    struct gs_sglang_draft sd;
    enum gs_status st;
    if (sglang_draft_for(m, w, t, (enum gs_weight_format)in->weight_format, &sd, NULL, &st)) {
        /* SGLang prices the draft's layers like the target's (gs_sglang_draft) */
        *layers = sd.cache_layers;
        in->draft_transient_bytes = sd.transient_bytes;
        return;
    }
    struct gs_trtllm_draft td;
    if (c->engine == GS_ENGINE_TENSORRT_LLM && c->spec_method != GS_SPEC_NONE) {
        /* the draft's layers priced like the target's, or in their own layout (gs_trtllm_draft):
         * either way each token of the pool holds them too */
        const struct gs_weights_request r = {(enum gs_weight_format)in->weight_format,
                                             w->group_size,
                                             t,
                                             1,
                                             w->format_experts_only,
                                             w->parallelism.expert,
                                             stages_for(w, 1),
                                             false};
        if (gs_trtllm_draft(&m->arch, w->serving.draft, (enum gs_spec_method)c->spec_method,
                            c->spec_tokens, c->version, &r, w->serving.kv_dtype, &td,
                            NULL) == GS_OK) {
            *layers = td.cache_layers;
            *token_bytes = td.cache_token_bytes;
        }
        return;
    }
    if (gs_engine_ops_for(c->engine)->spec != GS_ENGINE_SPEC_IN_BUDGET)
        return;
    if (c->spec_method == GS_SPEC_MTP) {
        /* a Gemma 4 assistant reads the target's cache (Gemma4Proposer._setup_gemma4_kv_sharing
         * sets kv_sharing_target_layer_name, and get_kv_cache_spec skips such layers) */
        if (w->serving.draft == NULL) {
            *layers = gs_weights_mtp_layers(&m->arch);
            *window = gs_weights_mtp_window(&m->arch);
        }
        return;
    }
    const bool drafts = c->spec_method == GS_SPEC_EAGLE || c->spec_method == GS_SPEC_EAGLE3 ||
                        c->spec_method == GS_SPEC_DRAFT_MODEL;
    struct gs_kv_layout kv;
    if (!drafts || w->serving.draft == NULL ||
        gs_kv_layout_for(w->serving.draft->arch, w->serving.kv_dtype, 2, t, 1, &kv, NULL) != GS_OK)
        return;
    *layers = kv.full_layers;
    *token_bytes = kv.full_layers ? gs_add(kv.bytes_per_token, kv.indexer_token_bytes,
                                           &(bool){false})
                                  : 0;
}

static void serving_input(const struct gs_model_spec *m, const struct gs_workload *w,
                          const struct gs_estimate_scope *scope, uint64_t weights, uint64_t t,
                          uint64_t p, enum gs_kv_dtype kv, uint64_t context,
                          struct gs_inference_input *in)
{
    memset(in, 0, sizeof(*in));
    in->arch = &m->arch;
    in->kv_memo = scope->kv_memo;
    in->weights_bytes = weights;
    /* data-parallel ranks each serve their share of the batch (vLLM DP attention) */
    const uint64_t dp = w->parallelism.data ? w->parallelism.data : 1;
    in->batch_size = div_up(w->serving.batch_size ? w->serving.batch_size : 1, dp);
    in->context_length = context;
    in->sequence_tokens = w->serving.sequence_tokens < context ? w->serving.sequence_tokens : 0;
    in->prompt_tokens = w->serving.prompt_tokens;
    in->tensor = t;
    in->pipeline = p;
    in->stages = stages_for(w, p);
    in->kv_dtype = kv;
    in->model_bytes = gs_workload_format(w) == GS_WF_FP32 ? 4 : 2; /* "auto" KV follows the model dtype */
    in->gpu = w->gpu;
    in->gpu.in_use_bytes = w->serving.memory_in_use_bytes;
    in->weight_format = (uint8_t)gs_workload_format(w);
    in->group_size = w->group_size;
    in->experts_only = w->format_experts_only;
    in->host_tables = host_tables(m, w);
    /* a replica wider than a node has groups that talk over the network: its tensor group,
     * or its pipeline groups (rank i of one stage and rank i of the next) */
    const uint64_t per_node = w->parallelism.gpus_per_node ? w->parallelism.gpus_per_node : 8;
    in->cross_node = t * p > per_node;
    in->data = dp;
    in->expert = w->parallelism.expert;
    in->expert_cross_node = w->parallelism.expert > per_node;
    in->engine = w->serving.engine;
    in->draft = w->serving.draft;
    /* vLLM's SpeculativeConfig.__post_init__: without num_speculative_tokens, mtp proposes as
     * many as the drafter predicts (n_predict: the model's MTP layers; a Gemma 4 assistant 1);
     * SGLang chooses its own (sglang.c speculative_draft_tokens) */
    if (gs_engine_ops_for(in->engine.engine)->spec == GS_ENGINE_SPEC_IN_BUDGET &&
        in->engine.spec_method == GS_SPEC_MTP && in->engine.spec_tokens == 0)
        in->engine.spec_tokens = w->serving.draft != NULL ? 1 : gs_weights_mtp_layers(&m->arch);
    draft_cache(m, w, t, in);
}

/* The KV layout of `a` at tensor degree t, refused (at `pointer`, with
 * `detail`) when it has layers vLLM would group with a draft's in ways not
 * modelled: recurrent or cross-attention layers always, sliding-window ones
 * unless `windows_ok` (a target's windowed layers and a draft's full ones
 * of the same page size are the hybrid allocator's padded groups, which
 * hybrid_capacity in inference.c follows - "gpt-oss-20b + eagle, with 12
 * sw + 13 full. We pad it to (13 sw, 13 full)", kv_cache_utils.py). */
static enum gs_status draft_layout(const struct gs_arch *a, const struct gs_workload *w,
                                   uint64_t t, bool windows_ok, const char *pointer,
                                   const char *detail, struct gs_kv_layout *kv,
                                   struct gs_error *err)
{
    enum gs_status st = gs_kv_layout_for(a, w->serving.kv_dtype, 2, t, 1, kv, err);
    if (st == GS_OK && ((kv->window_layers && !windows_ok) || kv->recurrent_layers ||
                        kv->cross_token_bytes))
        st = gs_error_add(err, GS_ERR_INVALID, pointer, "%s", detail);
    return st;
}

/* vLLM's eagle, eagle3 and draft_model: the draft the request names, on
 * every GPU (pipeline parallelism refused: vLLM puts the whole draft on the
 * last stage only from 0.16, for eagle3 alone), split over the same tensor
 * ranks. An EAGLE head (llama_eagle.py, llama_eagle3.py) holds its decoder
 * layers and fc, a Linear from 2 (EAGLE) or 3 (EAGLE-3: three of the
 * target's hidden states) x hidden to hidden, whole in 16 bits; EAGLE-3's
 * first layer reads [embeddings, hidden] so its q/k/v projections take 2 x
 * hidden inputs, and it keeps its own head over draft_vocab_size with the
 * draft-to-target id map (int64). Embedding and (EAGLE) head are the
 * target's (_maybe_share_embeddings / _maybe_share_lm_head: shared when the
 * head's checkpoint lacks them, as published heads do). draft_model is a
 * whole model sharing nothing (draft_model.py), in its own storage format. */
static enum gs_status draft_model(const struct gs_model_spec *m, const struct gs_workload *w,
                                  struct gs_estimate *e, uint64_t t, uint64_t p, uint64_t *weights,
                                  struct gs_error *err)
{
    (void)m;
    const enum gs_spec_method method = (enum gs_spec_method)w->serving.engine.spec_method;
    const struct gs_draft *d = w->serving.draft;
    if (d == NULL)
        return gs_error_add(err, GS_ERR_INVALID, "/inference/speculative/draft",
                            "vLLM's %s needs the draft: a catalog id, {\"hub_id\": ...} or "
                            "{\"config\": ...} (for an EAGLE head, its config.json)",
                            gs_spec_method_name(method));
    if (p > 1)
        return gs_error_add(err, GS_ERR_INVALID, "/parallelism/pipeline",
                            "vLLM puts a draft model on the last pipeline stage only, and not "
                            "before 0.16 (\"not composable with speculative decoding as of "
                            "vllm<=0.15.0\"); gpusizer sizes drafts with tensor parallelism");
    const struct gs_arch *a = d->arch;
    struct gs_kv_layout kv;
    enum gs_status st = draft_layout(a, w, t, false, "/inference/speculative/draft",
                                     "a draft with sliding-window, linear-attention or "
                                     "cross-attention layers is grouped by vLLM's hybrid "
                                     "allocator in ways gpusizer does not model",
                                     &kv, err);
    if (st != GS_OK)
        return st;
    const struct gs_weights_request r = {
        (enum gs_weight_format)d->format, d->group_size, t, 1, false, 0, stages_for(w, 1), false};
    bool ovf = false;
    uint64_t bytes = 0;
    if (method == GS_SPEC_DRAFT_MODEL) {
        st = gs_weights_bytes(a, NULL, &r, &bytes, err);
    } else {
        const bool eagle3 = method == GS_SPEC_EAGLE3;
        st = gs_weights_eagle_bytes(a, eagle3, d->target_hidden,
                                    eagle3 ? (d->draft_vocab ? d->draft_vocab : a->vocab_size) : 0,
                                    8, &r, &bytes, err);
    }
    if (st != GS_OK)
        return st;
    *weights = gs_add(*weights, bytes, &ovf);
    assume_value(e, "speculative_draft_weights_bytes", bytes,
                 method == GS_SPEC_DRAFT_MODEL
                     ? "vLLM draft_model: the whole draft model on every GPU at the target's "
                       "tensor-parallel size, sharing nothing"
                     : method == GS_SPEC_EAGLE3
                           ? "vLLM eagle3: the head's layers (its first reading 2 x hidden), fc "
                             "from 3 target hidden states, its own head over draft_vocab_size and "
                             "the id map; the embedding is the target's"
                           : "vLLM eagle: the head's layers and fc (2 x hidden to hidden); "
                             "embedding and head are the target's",
                 "vllm/model_executor/models/llama_eagle.py, llama_eagle3.py; "
                 "vllm/v1/spec_decode draft_model.py and _maybe_share_embeddings / "
                 "_maybe_share_lm_head");
    assume_value(e, "speculative_draft_layers", kv.full_layers,
                 "vLLM: the draft's attention layers, in the target's KV cache group (a block "
                 "holds the target's and the draft's pages)",
                 "vllm/v1/worker/gpu_model_runner.py get_kv_cache_spec; "
                 "v1/core/kv_cache_utils.py get_kv_cache_groups (UniformTypeKVCacheSpecs)");
    return ovf ? gs_error_add(err, GS_ERR_RANGE, "", "the weight bytes overflow 64 bits") : GS_OK;
}

/* vLLM's mtp with a Gemma 4 assistant as the draft (models/gemma4_mtp.py Gemma4MTP,
 * v1/spec_decode/gemma4.py Gemma4Proposer; SpeculativeConfig rewrites the assistant's type to
 * gemma4_mtp): on every GPU at the target's tensor-parallel size, its embedding replaced by the
 * target's (_maybe_share_embeddings) but the table kept as its own head (ParallelLMHead tied to
 * it, split by vocabulary; _maybe_share_lm_head leaves it), its q-only layers, pre_projection
 * and post_projection split like linears, the centroid head whole; with the centroid head and
 * more than one tensor rank, a gathered copy of the whole head on each
 * (_get_full_lm_head_weight). Its layers read the target's last non-shared layer of each kind
 * (kv_sharing_target_layer_name) and add nothing to the KV cache. */
static enum gs_status assistant_draft(const struct gs_model_spec *m, const struct gs_workload *w,
                                      struct gs_estimate *e, uint64_t t, uint64_t *weights,
                                      struct gs_error *err)
{
    const struct gs_draft *d = w->serving.draft;
    const struct gs_arch *a = d->arch;
    const struct gs_vllm_release *rel = gs_vllm_release_for(w->serving.engine.version);
    if (!rel->mtp_assistants)
        return gs_error_add(err, GS_ERR_INVALID, "/inference/speculative/draft",
                            "%s takes a Gemma 4 assistant for a draft_model and fails (vLLM issue "
                            "#42005); vLLM serves it as mtp from 0.21.0: name "
                            "inference.engine_version 0.21.0 or later",
                            rel->name);
    if (m->arch.hidden_size != a->drafts_for_hidden || m->arch.vocab_size != a->vocab_size)
        return gs_error_add(
            err, GS_ERR_INVALID, "/inference/speculative/draft",
            "this assistant drafts for a target %llu wide with %llu tokens; the "
            "model is %llu wide with %llu (an assistant pairs with the Gemma 4 "
            "it was trained beside)",
            (unsigned long long)a->drafts_for_hidden, (unsigned long long)a->vocab_size,
            (unsigned long long)m->arch.hidden_size, (unsigned long long)m->arch.vocab_size);
    const struct gs_weights_request r = {
        (enum gs_weight_format)d->format, d->group_size, t, 1, false, 0, stages_for(w, 1), false};
    uint64_t bytes = 0;
    enum gs_status st = gs_weights_bytes(a, NULL, &r, &bytes, err);
    if (st != GS_OK)
        return st;
    bool ovf = false;
    if (a->draft_gathers_head && t > 1)
        bytes = gs_add(bytes, gs_mul(gs_mul(a->vocab_size, a->hidden_size, &ovf), 2, &ovf), &ovf);
    *weights = gs_add(*weights, bytes, &ovf);
    assume_value(
        e, "speculative_draft_weights_bytes", bytes,
        a->draft_gathers_head && t > 1
            ? "vLLM mtp with a Gemma 4 assistant: its layers, projections and own head "
              "split over the tensor ranks, the centroid head whole, and a gathered "
              "copy of the whole head on each rank; the embedding is the target's"
            : "vLLM mtp with a Gemma 4 assistant: its layers, projections and own head "
              "split over the tensor ranks (the centroid head whole); the embedding is "
              "the target's",
        "vllm/model_executor/models/gemma4_mtp.py Gemma4MTP; vllm/v1/spec_decode/gemma4.py "
        "Gemma4Proposer (_maybe_share_embeddings, _get_full_lm_head_weight)");
    assume_value(e, "speculative_draft_layers", 0,
                 "vLLM mtp with a Gemma 4 assistant: its layers read the target's last "
                 "non-shared sliding and full layers' keys and values and add no cache",
                 "vllm/v1/spec_decode/gemma4.py _setup_gemma4_kv_sharing; "
                 "vllm/v1/worker/gpu_model_runner.py get_kv_cache_spec "
                 "(kv_sharing_target_layer_name)");
    return ovf ? gs_error_add(err, GS_ERR_RANGE, "", "the weight bytes overflow 64 bits") : GS_OK;
}

/* SGLang's draft where the release budgets it inside mem_fraction_static (gs_sglang_draft):
 * its weights added to *weights, its figures and what is not sized in the answer. */
static enum gs_status sglang_draft_weights(const struct gs_model_spec *m,
                                           const struct gs_workload *w, struct gs_estimate *e,
                                           uint64_t t, enum gs_weight_format f, uint64_t *weights,
                                           struct gs_error *err)
{
    struct gs_sglang_draft d = {0};
    enum gs_status st;
    if (!sglang_draft_for(m, w, t, f, &d, err, &st)) {
        /* d.unsized is set only where the release budgets the draft and gpusizer cannot */
        if (st == GS_OK && d.unsized != NULL)
            warn(e, "speculative_budget_not_modeled", d.unsized);
        return st;
    }
    if (w->serving.engine.spec_method == GS_SPEC_NGRAM)
        return GS_OK;
    bool ovf = false;
    *weights = gs_add(*weights, d.weights_bytes, &ovf);
    assume_value(e, "speculative_draft_weights_bytes", d.weights_bytes,
                 "SGLang: what the draft keeps on every GPU at the target's tensor-parallel size "
                 "(NEXTN the MTP layers, EAGLE the head's layers and fc, EAGLE-3 those, its own "
                 "head over draft_vocab_size and the hot-token map, STANDALONE the whole draft); "
                 "embedding and head are the target's where it shares them",
                 "sglang models/deepseek_nextn.py, llama_eagle.py, llama_eagle3.py; "
                 "speculative/eagle_worker_v2.py, standalone_worker_v2.py");
    if (d.transient_bytes)
        assume_value(e, "speculative_draft_transient_bytes", d.transient_bytes,
                     "SGLang: the draft's own embedding and head, built in the model dtype and "
                     "still resident when the target's pool is sized, then freed for the "
                     "target's (budget.draft_transient_bytes, taken from the pool)",
                     "sglang speculative/eagle_worker_v2.py init_lm_head (set_embed_and_head, "
                     "set_embed), called from alloc_memory_pool after init_target_memory_pool; "
                     "issue #36452");
    assume_value(e, "speculative_draft_layers", d.cache_layers,
                 "SGLang: the draft's layers, each priced like one of the target's attention "
                 "layers in every token's cell (cell x (1 + draft layers / layers)); the draft's "
                 "own pool takes the same number of tokens",
                 "sglang model_executor/pool_configurator.py (EAGLE/STANDALONE cell scaling); "
                 "spec_aux_hidden_state.py eagle_draft_num_layers");
    struct gs_kv_layout target, draft;
    if (gs_kv_layout_for(&m->arch, w->serving.kv_dtype, 2, t, 1, &target, NULL) != GS_OK)
        return ovf ? gs_error_add(err, GS_ERR_RANGE, "", "the weight bytes overflow 64 bits")
                   : GS_OK;
    if (w->serving.engine.spec_method == GS_SPEC_DRAFT_MODEL && target.full_layers &&
        gs_kv_layout_for(w->serving.draft->arch, w->serving.kv_dtype, 2, t, 1, &draft, NULL) ==
            GS_OK &&
        draft.full_layers &&
        draft.full_token_bytes / draft.full_layers != target.full_token_bytes / target.full_layers)
        warn(e, "draft_cache_priced_as_target",
             "SGLang prices each of the draft's layers like one of the target's when it sizes "
             "the pool (pool_configurator.py: \"Assumes draft and target share the same "
             "per-layer KV size\"); this draft's layers hold another size, so its own pool "
             "takes more or less memory than the pool priced for it");
    return ovf ? gs_error_add(err, GS_ERR_RANGE, "", "the weight bytes overflow 64 bits") : GS_OK;
}

/* TensorRT-LLM's draft (gs_trtllm_draft): its weights added to *weights, the mode and the
 * draft's figures in the answer, or the 400 of a request it does not run. */
static enum gs_status trtllm_draft_weights(const struct gs_model_spec *m,
                                           const struct gs_workload *w, struct gs_estimate *e,
                                           uint64_t t, uint64_t p, enum gs_weight_format f,
                                           uint64_t *weights, struct gs_error *err)
{
    const struct gs_engine_config *c = &w->serving.engine;
    const struct gs_weights_request r = {
        f,    w->group_size, t, p, w->format_experts_only, w->parallelism.expert, stages_for(w, p),
        false};
    struct gs_trtllm_draft d;
    enum gs_status st =
        gs_trtllm_draft(&m->arch, w->serving.draft, (enum gs_spec_method)c->spec_method,
                        c->spec_tokens, c->version, &r, w->serving.kv_dtype, &d, err);
    if (st != GS_OK)
        return st;
    bool ovf = false;
    *weights = gs_add(*weights, d.weights_bytes, &ovf);
    const enum gs_trtllm_mode mode = d.spec.mode;
    if (mode != GS_TRTLLM_NGRAM)
        assume_value(
            e, "speculative_draft_weights_bytes", d.weights_bytes,
            mode == GS_TRTLLM_EAGLE3
                ? "TensorRT-LLM EAGLE-3: the head's layers split over the tensor ranks, fc from "
                  "the 3 captured target states whole on every rank, its own head over "
                  "draft_vocab_size and, where that vocabulary is not the target's, d2t (int32); "
                  "the embedding is the target's"
            : mode == GS_TRTLLM_DRAFT_TARGET
                ? "TensorRT-LLM draft/target: the whole draft in a second model engine at the "
                  "target's tensor-parallel size, sharing nothing"
                : "TensorRT-LLM MTP: the MTP layers MTPForCausalLM builds (MTP-Eagle the "
                  "checkpoint's one; vanilla MTP as many as draft tokens before 1.3, the "
                  "checkpoint's from 1.3), each a decoder layer split like the target's with "
                  "eh_proj (2 x hidden to hidden, 16-bit) split by rows - Nemotron-H's whole step "
                  "16-bit, built without the quant config; embedding and head are the target's",
            mode == GS_TRTLLM_EAGLE3
                ? "tensorrt_llm/_torch/models/modeling_speculative.py Eagle3DraftModel, "
                  "Eagle3ForCausalLM"
            : mode == GS_TRTLLM_DRAFT_TARGET
                ? "tensorrt_llm/_torch/pyexecutor/py_executor_creator.py (draft "
                  "PyTorchModelEngine)"
                : "tensorrt_llm/_torch/models/modeling_speculative.py MTPForCausalLM; "
                  "modeling_deepseekv3.py DeepseekV3MTP; modeling_nemotron_h.py NemotronHMTP");
    assume_value(e, "speculative_max_draft_len", d.spec.draft_tokens,
                 "TensorRT-LLM's max_draft_len: the request's num_speculative_tokens (MTP's "
                 "num_nextn_predict_layers before 1.3); for MTP without it 1, or from 1.3 a "
                 "vanilla checkpoint's MTP layers",
                 "tensorrt_llm/_torch/speculative/utils.py update_spec_config_from_model_config; "
                 "llmapi/llm_args.py MTPDecodingConfig, EagleDecodingConfig");
    if (mode != GS_TRTLLM_NGRAM)
        assume_value(e, "speculative_draft_layers", d.cache_layers,
                     d.cache_token_bytes
                         ? "TensorRT-LLM: the draft's attention layers in a KV cache manager of "
                           "their own layout holding as many tokens as the target's, the budget "
                           "shared by both (each token priced at target + draft bytes)"
                         : "TensorRT-LLM: draft KV layers priced like the target's in every "
                           "token (get_num_spec_layers: 1.0-1.2 in the target's manager - MTP "
                           "and, from 1.1, EAGLE-3 one a draft token - 1.3 in a draft pool, "
                           "MTP-Eagle's one layer)",
                     "tensorrt_llm/_torch/speculative/utils.py get_num_spec_layers; "
                     "_torch/pyexecutor/_util.py KvCacheCreator (_get_kv_size_per_token, "
                     "_create_one_model_draft_kv_cache_manager)");
    return ovf ? gs_error_add(err, GS_ERR_RANGE, "", "the weight bytes overflow 64 bits") : GS_OK;
}

/* Speculative decoding as the engine runs it (gs/speculative.h): which
 * methods gpusizer can size for it, and for vLLM's mtp the MTP layers'
 * weights on every GPU, added to *weights. */
static enum gs_status speculative(const struct gs_model_spec *m, const struct gs_workload *w,
                                  struct gs_estimate *e, uint64_t t, uint64_t p,
                                  enum gs_weight_format f, uint64_t *weights, struct gs_error *err)
{
    const struct gs_engine_config *c = &w->serving.engine;
    const enum gs_spec_method method = (enum gs_spec_method)c->spec_method;
    if (method == GS_SPEC_NONE)
        return GS_OK;
    const char *name = gs_spec_method_name(method);
    const struct gs_engine_ops *ops = gs_engine_ops_for(c->engine);
    const char *since = NULL, *source = NULL;
    const uint32_t from =
        method == GS_SPEC_MTP && w->serving.draft == NULL
            ? gs_spec_mtp_since(c->engine, &m->arch, gs_weight_format_fp8(f) || f == GS_WF_NVFP4,
                                &since, &source)
            : 0;
    if (from && c->version && c->version < from)
        return gs_error_add(err, GS_ERR_INVALID, "/inference/engine_version",
                            "%s builds this model's MTP layers as a draft from %s (%s); name "
                            "inference.engine_version %s or later, or another method",
                            ops->name, since, source, since);
    if (ops->spec == GS_ENGINE_SPEC_RESERVE) {
        const struct gs_engine_notes notes = notes_for(e);
        enum gs_status st = ops->speculative(c, &notes, err);
        if (st != GS_OK)
            return st;
        return sglang_draft_weights(m, w, e, t, f, weights, err);
    }
    if (ops->spec == GS_ENGINE_SPEC_MODULE)
        return trtllm_draft_weights(m, w, e, t, p, f, weights, err);
    if (ops->spec != GS_ENGINE_SPEC_IN_BUDGET)
        return gs_error_add(err, GS_ERR_INVALID, "/inference/speculative",
                            "speculative decoding is sized for vllm, sglang and tensorrt_llm, "
                            "not %s",
                            ops->name);
    if ((method == GS_SPEC_NGRAM || method == GS_SPEC_SUFFIX) && w->serving.draft != NULL)
        return gs_error_add(err, GS_ERR_INVALID, "/inference/speculative/draft",
                            "%s proposes from the text itself; it takes no draft model", name);
    if (method == GS_SPEC_NGRAM || method == GS_SPEC_SUFFIX) {
        assume(e, "speculative_decoding",
               "vLLM ngram / suffix: proposed on the CPU from the prompt and output; no draft "
               "weights or cache, the scheduler only reserves num_speculative_tokens lookahead "
               "slots per running sequence",
               "vllm/v1/core/sched/scheduler.py Scheduler.num_lookahead_tokens");
        return GS_OK;
    }
    struct gs_kv_layout kv;
    enum gs_status st = gs_kv_layout_for(&m->arch, w->serving.kv_dtype, 2, t, 1, &kv, err);
    /* the model's own MTP layers are full-attention layers that join its full-attention group
     * beside linear-attention ones (Qwen3-Next, Qwen3.5: vllm_pages' groups); another draft's
     * layers beside them, and any draft beside cross-attention, are not modelled */
    if (st == GS_OK && (kv.cross_token_bytes ||
                        (kv.recurrent_layers && (method != GS_SPEC_MTP || w->serving.draft))))
        st = gs_error_add(err, GS_ERR_INVALID, "/inference/speculative/method", "%s",
                          "vLLM's grouping of draft layers with cross-attention layers, or of a "
                          "draft model's layers with linear-attention (Mamba) ones, is not "
                          "modelled; mtp with the model's own MTP layers is");
    if (st != GS_OK)
        return st;
    if (method != GS_SPEC_MTP && w->serving.draft != NULL &&
        w->serving.draft->arch->drafts_for_hidden)
        return gs_error_add(err, GS_ERR_INVALID, "/inference/speculative/method",
                            "vLLM runs a Gemma 4 assistant as mtp (SpeculativeConfig rewrites "
                            "its type to gemma4_mtp); %s takes a standalone draft",
                            name);
    if (method != GS_SPEC_MTP)
        return draft_model(m, w, e, t, p, weights, err);
    if (w->serving.draft != NULL && !w->serving.draft->arch->drafts_for_hidden)
        return gs_error_add(err, GS_ERR_INVALID, "/inference/speculative/draft",
                            "mtp drafts with the model's own MTP layers or a Gemma 4 assistant; "
                            "another draft model goes with eagle, eagle3 or draft_model");
    if (w->serving.draft != NULL && p > 1)
        return gs_error_add(err, GS_ERR_INVALID, "/parallelism/pipeline",
                            "vLLM shares the target's embedding with a Gemma 4 assistant only "
                            "without pipeline parallelism (Gemma4Proposer._maybe_share_embeddings "
                            "returns early), and the assistant's own cannot feed its "
                            "pre_projection; serve with tensor parallelism");
    if (w->serving.draft != NULL)
        return assistant_draft(m, w, e, t, weights, err);
    const uint64_t layers = gs_weights_mtp_layers(&m->arch);
    if (layers == 0)
        return gs_error_add(err, GS_ERR_INVALID, "/inference/speculative/method",
                            "gpusizer has no description of this model's multi-token-prediction "
                            "layers (its config names none, or names layers gpusizer does not "
                            "read), so it cannot size vLLM's mtp; eagle, eagle3 or draft_model "
                            "take a draft, and mtp a Gemma 4 assistant as its draft");
    if (p > 1)
        return gs_error_add(err, GS_ERR_INVALID, "/parallelism/pipeline",
                            "vLLM cannot run mtp with pipeline parallelism (the draft's parallel "
                            "config copies pipeline_parallel_size and the MTP model refuses it: "
                            "vllm issue #52069); serve with tensor parallelism");
    const struct gs_vllm_release *rel = gs_vllm_release_for_layout(c->version, p);
    const struct gs_weights_request r = {
        f,    w->group_size, t, p, w->format_experts_only, w->parallelism.expert, stages_for(w, p),
        false};
    uint64_t bytes = 0;
    const bool own_head = gs_vllm_mtp_own_head(rel, &m->arch);
    st = gs_weights_mtp_bytes(&m->arch, &r, own_head, &bytes, err);
    if (st != GS_OK)
        return st;
    bool ovf = false;
    *weights = gs_add(*weights, bytes, &ovf);
    const bool own_by_class = own_head && !rel->mtp_own_head;
    assume_value(e, "speculative_draft_weights_bytes", bytes,
                 own_by_class
                     ? "vLLM mtp: the model's MTP layers on every GPU (split like its layers; "
                       "the fusion projection as the model's MTP code builds it), the embedding "
                       "shared with the target, each layer's own head kept (shared_head.output)"
                 : rel->mtp_own_head
                     ? "vLLM mtp: the model's MTP layers on every GPU (split like its layers; "
                       "the fusion projection as the model's MTP code builds it), the embedding "
                       "shared with the target, the layers' own head kept (shared_head.head)"
                     : "vLLM mtp: the model's MTP layers on every GPU (split like its layers; "
                       "the fusion projection as the model's MTP code builds it: DeepSeek's "
                       "eh_proj whole in 16 bits, Qwen3.5's fc and Nemotron-H's eh_proj split by "
                       "columns), the embedding and head shared with the target",
                 own_by_class ? "vllm/model_executor/models/step3p5_mtp.py; "
                                "vllm/v1/spec_decode/step3p5.py Step3p5MTPProposer (0.23 on)"
                              : "vllm/model_executor/models/deepseek_mtp.py; vllm/v1/spec_decode "
                                "_maybe_share_embeddings and _maybe_share_lm_head (PR #34385 "
                                "from 0.17)");
    assume_value(e, "speculative_draft_layers", layers,
                 gs_weights_mtp_window(&m->arch)
                     ? "vLLM mtp: sliding-window attention layers the draft adds (one per MTP "
                       "layer, the proposer running one a speculative token), which join the "
                       "model's layers of that window"
                     : "vLLM mtp: attention layers the draft adds to every KV block (one per MTP "
                       "layer, reused for every speculative token), in the target's cache group",
                 "vllm/v1/worker/gpu_model_runner.py get_kv_cache_spec; "
                 "v1/core/kv_cache_utils.py get_kv_cache_groups");
    return ovf ? gs_error_add(err, GS_ERR_RANGE, "", "the weight bytes overflow 64 bits") : GS_OK;
}

static void add_fix(struct gs_estimate *e, const char *code, const char *detail, uint64_t value,
                    const struct gs_inference_result *r)
{
    if (e->fix_count >= GS_FIXES_MAX)
        return;
    e->fixes[e->fix_count++] = (struct gs_fix){code, detail, value, r->starts, r->holds_batch,
                                               r->budget.kv_bytes, r->max_concurrency};
}

/* When the engine would not start or would queue part of the batch: the
 * smallest changes that would let it hold the batch, in order of how little
 * they change the deployment. */
static void suggest_fixes(const struct gs_model_spec *m, const struct gs_workload *w,
                          const struct gs_estimate_scope *scope, struct gs_estimate *e, uint64_t t,
                          uint64_t p, enum gs_weight_format f)
{
    const struct gs_inference_result *now = &e->serving;
    struct gs_inference_input in;
    struct gs_inference_result r;
    if (now->seqs_bound > 0) {
        /* the number the engine names (vLLM: "Please lower max_num_seqs to at most <blocks>") */
        serving_input(m, w, scope, e->per_gpu.weights_bytes, t, p, w->serving.kv_dtype,
                      w->serving.context_length, &in);
        in.engine.max_num_seqs = now->seqs_bound;
        const char *detail = gs_engine_ops_for(w->serving.engine.engine)->lower_seqs_detail;
        if (gs_inference_compute(&in, &r, NULL) == GS_OK && detail != NULL)
            add_fix(e, "lower_max_num_seqs", detail, now->seqs_bound, &r);
    }
    if (now->max_context > 0 && now->budget.kv_bytes > 0) {
        serving_input(m, w, scope, e->per_gpu.weights_bytes, t, p, w->serving.kv_dtype,
                      now->max_context, &in);
        if (gs_inference_compute(&in, &r, NULL) == GS_OK)
            add_fix(e, "lower_context", "serve a shorter maximum context (max_model_len)",
                    now->max_context, &r);
    }
    const enum gs_kv_dtype fp8 = gs_kv_fp8_for(&m->arch);
    /* (not where the engine keeps this model's cache in fp8 whatever is asked: now->kv_dtype) */
    if (w->serving.kv_dtype != fp8 && w->serving.kv_dtype != GS_KV_FP8 &&
        w->serving.kv_dtype != GS_KV_FP8_E5M2 && now->kv_dtype == GS_KV_AUTO) {
        serving_input(m, w, scope, e->per_gpu.weights_bytes, t, p, fp8, w->serving.context_length,
                      &in);
        if (gs_inference_compute(&in, &r, NULL) == GS_OK)
            add_fix(e, "fp8_kv_cache",
                    fp8 == GS_KV_FP8_DS_MLA ? "store the MLA cache as fp8_ds_mla"
                                            : "store the KV cache in fp8 (kv_cache_dtype fp8)",
                    0, &r);
    }
    /* the weights of another format or tensor degree carry the draft's at it too (its notes
     * are the answer's already: NULL writes none) */
    uint64_t weights = 0;
    if ((f == GS_WF_BF16 || f == GS_WF_FP16 || f == GS_WF_FP32) &&
        inference_weights(m, w, scope, e, t, p, GS_WF_AWQ, &weights, NULL) == GS_OK &&
        speculative(m, w, NULL, t, p, GS_WF_AWQ, &weights, NULL) == GS_OK) {
        serving_input(m, w, scope, weights, t, p, w->serving.kv_dtype, w->serving.context_length,
                      &in);
        if (gs_inference_compute(&in, &r, NULL) == GS_OK)
            add_fix(e, "int4_weights", "serve AWQ int4 weights (group size 128)", 0, &r);
    }
    /* the smallest tensor degree (within an 8-GPU node) that holds the batch, else the
     * smallest that at least starts */
    bool found = false;
    struct gs_inference_result first_start;
    uint64_t first_t = 0;
    for (uint64_t t2 = t * 2; t2 <= 8 && !found; t2 *= 2) {
        struct gs_parallelism par;
        gs_parallelism_defaults(&par);
        par.tensor = t2;
        par.pipeline = p;
        par.stages.split = GS_SPLIT_VLLM;
        if (gs_parallelism_validate(&par, &m->arch, NULL) != GS_OK ||
            inference_weights(m, w, scope, e, t2, p, f, &weights, NULL) != GS_OK ||
            speculative(m, w, NULL, t2, p, f, &weights, NULL) != GS_OK)
            continue;
        serving_input(m, w, scope, weights, t2, p, w->serving.kv_dtype, w->serving.context_length,
                      &in);
        if (gs_inference_compute(&in, &r, NULL) != GS_OK || !r.starts)
            continue;
        if (r.holds_batch) {
            found = true;
            first_start = r;
            first_t = t2;
        } else if (first_t == 0) {
            first_start = r;
            first_t = t2;
        }
    }
    if (first_t)
        add_fix(e, "more_tensor_parallelism",
                "spread the model over more GPUs with tensor parallelism (within a node)", first_t,
                &first_start);
}

/* vLLM sizes the pool from the worker with the fewest blocks (V1
 * kv_cache_utils.get_kv_cache_configs: "Change the num_blocks of each rank to
 * the smallest among all ranks"; V0 executors take min(num_gpu_blocks)):
 * every pipeline stage with its own weights, layers and profile (the last
 * with the sampler and, in V0, the logits gather's buffers on its first
 * tensor rank). The stage that binds becomes the answer. */
static enum gs_status least_roomy_worker(const struct gs_model_spec *m, const struct gs_workload *w,
                                         const struct gs_estimate_scope *scope, uint64_t t,
                                         uint64_t p, enum gs_weight_format f, uint64_t config_total,
                                         struct gs_inference_result *out, struct gs_error *err)
{
    if (p > GS_LAYERS_MAX) /* gs_parallelism_validate keeps stages within the layers */
        return gs_error_add(err, GS_ERR_RANGE, "/parallelism/pipeline", "more stages than layers");
    const struct gs_weights_request r = target_request(m, w, f, t, p);
    uint64_t stage_weights[GS_LAYERS_MAX], most;
    enum gs_status st =
        gs_weights_bytes_memo(&m->arch, &r, scope->weights_memo, &most, stage_weights, err);
    if (st != GS_OK)
        return st;
    bool first = true;
    for (uint64_t s = 0; s < p; s++) {
        uint64_t weights = stage_weights[s];
        if (checkpoint_applies(m, w, f)) /* the stage's share of the checkpoint's own bytes */
            weights = scale_to_checkpoint(weights, config_total, served_checkpoint_bytes(m));
        struct gs_inference_input in;
        struct gs_inference_result res;
        serving_input(m, w, scope, weights, t, p, w->serving.kv_dtype, w->serving.context_length,
                      &in);
        in.has_stage = true;
        in.stage = s;
        if (s < w->stage_gpu_count) { /* this stage's own GPU: its total, kernels and links */
            in.gpu = w->stage_gpus[s];
            in.gpu.in_use_bytes = w->serving.memory_in_use_bytes;
        }
        st = gs_inference_compute(&in, &res, err);
        if (st != GS_OK)
            return st;
        res.binding_stage = s;
        /* a stage whose GPU the engine cannot run binds whatever the others hold; among
         * stages alike in that, the one with the least cache (or the deepest shortfall) */
        const bool refused = res.engine_refusal != NULL, held = out->engine_refusal != NULL;
        const bool tighter =
            (res.budget.kv_bytes <= 0 || (out->budget.kv_bytes > 0 && res.blocks < out->blocks)) &&
            (out->budget.kv_bytes > 0 || res.budget.kv_bytes < out->budget.kv_bytes);
        if (first || (refused && !held) || (refused == held && tighter))
            *out = res;
        first = false;
    }
    return GS_OK;
}

/* Says how the layers fall to the pipeline stages where it is not vLLM's own split (the
 * counts are inference.stage_layers in the answer). */
static void stage_split_notes(const struct gs_workload *w, struct gs_estimate *e, uint64_t p)
{
    if (e->stages.split == GS_SPLIT_GIVEN)
        assume(e, "pipeline_layer_partition",
               "the stages hold the layers parallelism.stage_layers lists; the first stage also "
               "holds the embedding, the last the final norm and the head",
               w->serving.engine.engine == GS_ENGINE_SGLANG
                   ? "SGLang SGLANG_PP_LAYER_PARTITION (python/sglang/srt/distributed/utils.py "
                     "get_pp_indices)"
               : w->serving.engine.engine == GS_ENGINE_TENSORRT_LLM
                   ? "TensorRT-LLM Mapping pp_partition (tensorrt_llm/mapping.py pp_layers)"
                   : "vLLM VLLM_PP_LAYER_PARTITION (vllm/distributed/utils.py get_pp_indices)");
    else if (e->stages.split == GS_SPLIT_TRTLLM && e->stage_layers % p != 0)
        assume(e, "pipeline_stage_layers",
               "TensorRT-LLM's split: the first stages one layer more where the stages do not "
               "divide the layers (vLLM and SGLang give it to the stages before the last)",
               "tensorrt_llm/mapping.py pp_layers (torch.tensor_split)");
}

/* DiffusionGemma under vLLM: each denoising step's sampler holds the canvas's logits - canvas x
 * vocabulary rows in bf16 and their fp32 soft-capped copy (diffusion_gemma.py compute_logits, the
 * sampler's softcap) - outside the budget vLLM sized the pool with (the profile run takes its
 * prefill path and never sees the canvas: open PR #46155), for every running request at once in
 * 0.24 and from 0.25 in groups sized to the memory free (PR #45672, merged 2026-07-07), one at
 * least. The sampler's own fp32 temporaries (about six copies more, vLLM issue #50699) come on
 * top and are not counted. */
/* The first vLLM release whose DiffusionGemma sampler runs the canvases a group at a time
 * (PR #45672, merged 2026-07-07, after 0.24.0's release on 2026-06-29) */
enum { GS_VLLM_DIFFUSION_GROUPED_SAMPLER = 2500 };

static void diffusion_notes(const struct gs_model_spec *m, const struct gs_workload *w,
                            struct gs_estimate *e)
{
    const struct gs_inference_result *r = &e->serving;
    if (!m->has_arch || m->arch.diffusion_canvas == 0 || w->serving.engine.engine != GS_ENGINE_VLLM)
        return;
    bool ovf = false;
    const uint64_t slots = gs_vllm_diffusion_buffer_bytes(&m->arch, r->max_num_seqs, &ovf);
    assume_value(e, "diffusion_request_buffer_bytes", slots,
                 "of model_buffer_bytes, the request slots' canvas buffers DiffusionGemma's model "
                 "state allocates before the pool is sized: a self-conditioning embedding "
                 "(canvas_length x hidden_size fp32) and a structured-output bitmask "
                 "(canvas_length x vocabulary / 32 int32) for each of max_num_seqs slots - "
                 "inference.max_num_seqs lowers it (vLLM's recipe for the model sets 4)",
                 "vLLM diffusion_gemma model state (PR #45163)");
    const uint32_t v = w->serving.engine.version;
    const uint64_t requests =
        v != 0 && v < GS_VLLM_DIFFUSION_GROUPED_SAMPLER && r->max_num_seqs ? r->max_num_seqs : 1;
    const uint64_t step =
        gs_mul(gs_mul(gs_mul(m->arch.diffusion_canvas, m->arch.vocab_size, &ovf), 2 + 4, &ovf),
               requests, &ovf);
    if (ovf)
        return;
    assume_value(e, "diffusion_sampler_step_bytes", step,
                 "what a denoising step's sampler holds beyond the pool: the canvas's logits in "
                 "bf16 and their fp32 soft-capped copy, canvas_length x vocabulary x 6 bytes a "
                 "request, for every running request in vLLM 0.24 and from 0.25 one group at a "
                 "time (one request at least); the sampler's fp32 temporaries come on top",
                 "vLLM diffusion_gemma.py (PR #45163), PR #45672 (per-group sampling), issue "
                 "#50699, PR #46155");
    const uint64_t headroom =
        r->budget.total_bytes / 1000 *
        (1000 - (r->budget.fraction_permille < 1000 ? r->budget.fraction_permille : 1000));
    if (r->has_budget && step > headroom)
        warn(e, "diffusion_sampler_exceeds_headroom",
             "a denoising step's canvas logits (assumption diffusion_sampler_step_bytes) are more "
             "than the memory gpu_memory_utilization leaves outside the pool, and vLLM sizes the "
             "pool without them: the first canvas (the warmup after the pool is allocated) runs "
             "out of memory. Lower gpu_memory_utilization (vLLM's recipe for DiffusionGemma uses "
             "0.85) or max_num_seqs (the recipe uses 4)");
    else
        warn(e, "diffusion_sampler_outside_budget",
             "vLLM sizes DiffusionGemma's pool without its sampler's per-step memory: the canvas "
             "logits (assumption diffusion_sampler_step_bytes) and several fp32 temporaries of "
             "the same size must fit in what gpu_memory_utilization leaves outside the pool "
             "(vLLM's recipe uses 0.85 and max_num_seqs 4)");
}

/* The text behind a serving answer: the engine's rule, its release and profile (the
 * engine's module writes those), and each term of the budget with its source. */
static void explain_serving(const struct gs_workload *w, const struct gs_engine_ops *ops,
                            struct gs_estimate *e)
{
    const struct gs_inference_result *r = &e->serving;
    assume(e, "engine_budget", r->budget.rule ? r->budget.rule : ops->name, ops->budget_source);
    assume_value(e, "block_size", r->block_size, "KV cache block (page) size in tokens",
                 w->serving.engine.block_size ? "as given in the request" : ops->block_source);
    const struct gs_engine_notes notes = notes_for(e);
    if (ops->notes != NULL)
        ops->notes(&w->serving.engine, r, w->parallelism.expert, &notes);
    if (r->engine_refusal != NULL || r->model_refusal != NULL)
        warn(e, "unsupported_by_engine",
             r->engine_refusal != NULL ? r->engine_refusal : r->model_refusal);
    if (r->release_lacks_model != NULL)
        warn(e, "model_not_in_release", r->release_lacks_model);
    if (ops->first_unread && w->serving.engine.version >= ops->first_unread)
        warn(e, "engine_release_not_modeled", ops->unread_detail);
    if (w->gpu.unified_memory)
        warn(e, "unified_memory",
             "this GPU's memory is the host's (unified memory): the engine's whole share must be "
             "free in host memory when it starts (vLLM measures the operating system's available "
             "memory on integrated GPUs and refuses to start below gpu_memory_utilization x total), "
             "and the operating system, page cache and every other process draw on the same pool; "
             "the answer assumes that share is free");
    else if (w->gpu.display && w->serving.memory_in_use_bytes == 0)
        warn(e, "display_memory_not_counted",
             "this card has display outputs: a desktop session or another program on it holds "
             "memory the engine cannot use (0.53 GiB on the RTX 3090 of a public SGLang 0.4.2 "
             "log), and the answer counts none; where the card drives a display or is shared, "
             "give inference.memory_in_use_bytes (nvidia-smi's memory.used before the engine "
             "starts): engines that size their pool from free memory shrink it by that much, and "
             "vLLM, by release, subtracts it or refuses to start unless gpu_memory_utilization x "
             "total is still free");
    assume_value(e, "activation_peak_bytes", r->budget.activation_bytes,
                 w->serving.engine.has_activation_bytes
                     ? "profiled activation peak, as given in the request"
                     : "profiled activation peak: the largest layer's transients for the profile "
                       "run's tokens (attention or MLP phase, fused-MoE caches), and on the last "
                       "pipeline stage the sampler over min(tokens, max_num_seqs) requests",
                 "vLLM profile_run / _dummy_sampler_run; fused_moe.py fused_experts_impl "
                 "intermediate caches; docs/vllm-kv-budget-research.md");
    assume_value(e, "non_torch_bytes", r->budget.non_torch_bytes,
                 "memory outside PyTorch's allocator the engine counts: kernel modules loaded while "
                 "profiling (and the CUDA context where the release counts device-wide memory), NCCL "
                 "and custom all-reduce buffers by interconnect, network buffers across nodes, "
                 "and under the V0 engine the logits gather's second NCCL communicator and "
                 "point-to-point receive buffers on the last stage's first tensor rank",
                 "core/src/vllm.c and runtime.c (vLLM memory_profiling; custom_all_reduce.py; "
                 "GroupCoordinator.gather; NCCL transport/p2p.cc; public startup logs: PR "
                 "#12126, issue #14447, llm-d planner and llm-k8s logs)");
    if (r->budget.rope_cache_bytes)
        assume_value(e, "rope_cache_bytes", r->budget.rope_cache_bytes,
                     "rotary cos/sin tables the engine builds with the model on every GPU, over "
                     "the config's max_position_embeddings (by rope scaling; 4 x for vLLM's "
                     "multimodal M-RoPE) x the rotary dimension; counted with the weights it "
                     "loads (budget.weights_bytes) and in overhead_bytes",
                     ops->rope_source);
    if (r->budget.model_buffer_bytes)
        assume_value(e, "model_buffer_bytes", r->budget.model_buffer_bytes,
                     "input buffers vLLM's model allocates when it is created, "
                     "max_num_batched_tokens rows in the model dtype on every GPU: Qwen3-VL's and "
                     "Granite 4.1 Vision's DeepStack levels (hidden_size each), Gemma 3n's and "
                     "Gemma 4's per-layer inputs (layers x hidden_size_per_layer_input; Gemma 3n "
                     "from 0.10.1), DeepSeek-V4.1's staged Engram rows (each Engram layer's hash "
                     "columns over the tensor ranks x engram_head_dim, bf16); counted with the "
                     "weights it loads (budget.weights_bytes) and in overhead_bytes",
                     "vLLM qwen3_vl.py, qwen3_vl_moe.py and qwen3_omni_moe_thinker.py "
                     "(deepstack_input_embeds in the model's __init__), a Qwen3-VL-30B-A3B "
                     "startup log on 4 x RTX 3090 (tests/fixtures/calibration); granite4_vision.py "
                     "(_ds_buffers); gemma3n_mm.py and gemma4_mm.py (per_layer_embeddings; PRs "
                     "#20495, #38826); models/deepseek_v41 common/engram.py (staged_rows)");
    if (r->budget.sparse_buffer_bytes)
        assume_value(
            e, "sparse_buffer_bytes", r->budget.sparse_buffer_bytes,
            "buffers vLLM's sparse-attention model allocates when it is created, "
            "max_num_batched_tokens rows: the top-k indices (DeepSeek's index_topk "
            "int32, every GPU, an mtp drafter building its own; DeepSeek-V4.1's candidate "
            "blocks, candidate_topk_blocks int32; MiniMax-M3's "
            "sparse_topk_blocks int32 per index head on the GPU) and DeepSeek-V4's "
            "residual streams for an MTP draft (hc_mult x hidden_size, model dtype, last "
            "stage; from 0.27 only when a speculative method reads them), and in 0.27-0.28 "
            "DeepSeek-V4's eager scratch pool (padded query heads x head_dim bf16 and the "
            "indexer's fp4 queries); counted with the weights it loads "
            "(budget.weights_bytes) and in overhead_bytes",
            "vLLM deepseek_v2.py DeepseekV2Model, deepseek_mtp.py, deepseek_v4 "
            "DeepseekV4Model and mtp.py (topk_indices_buffer, _mtp_hidden_buffer; PR "
            "#50312), eager_scratch.py (PRs #49236, #52836), models/deepseek_v41 model.py "
            "(candidate_block_buffer), models/minimax_m3 model.py "
            "MiniMaxM3Model (topk_indices_buffer; PR #45892)");
    if (r->budget.kv_slot_bytes)
        assume_value(e, "kv_slot_bytes", r->budget.kv_slot_bytes,
                     "K and V weights the engine's Gemma 4 holds beyond the model's parameters: "
                     "vLLM and SGLang build a QKVParallelLinear and k_norm in every layer, so "
                     "each KV-sharing layer holds the K and V projections and k_norm transformers "
                     "builds only in the layer it reads (TensorRT-LLM, which builds it a Q-only "
                     "projection, the k_norm alone), and all three a full layer whose keys are "
                     "its values (attention_k_eq_v) a V slot filled with a copy of its K; "
                     "counted with the weights it loads (budget.weights_bytes) and in "
                     "overhead_bytes",
                     "vLLM model_executor/models/gemma4.py Gemma4Attention.__init__ "
                     "(QKVParallelLinear, k_norm, whatever is_kv_shared_layer) and load_weights "
                     "(k_eq_v layers: k_proj yielded again as v_proj); SGLang "
                     "srt/models/gemma4_causal.py Gemma4Attention.__init__ and load_weights "
                     "(should_dup_k_to_v); TensorRT-LLM _torch/models/modeling_gemma4.py "
                     "Gemma4Attention (_QOnlyLinear) and gemma4_weight_mapper.py "
                     "(_handle_buffers_and_kvdup)");
    if (r->budget.segment_slack_bytes)
        assume_value(e, "segment_slack_bytes", r->budget.segment_slack_bytes, ops->slack_detail,
                     "c10/cuda/CUDACachingAllocator.cpp get_allocation_size (kMinLargeAlloc, "
                     "kRoundLarge); SGLang's 'Load weight end ... mem usage' for QwQ-32B on 4 x L4 "
                     "in tests/fixtures/calibration");
    const enum gs_weight_format f = gs_workload_format(w);
    if (r->budget.layout_bytes && ops->layout_detail != NULL) {
        const bool mxfp4 = f == GS_WF_MXFP4; /* else fp8 on Marlin */
        assume_value(e, mxfp4 ? "mxfp4_layout_bytes" : "fp8_marlin_layout_bytes",
                     r->budget.layout_bytes, ops->layout_detail(r, w->gpu.hw, (uint8_t)f),
                     mxfp4 ? "vLLM quantization/mxfp4.py Mxfp4MoEMethod (create_weights, "
                             "process_weights_after_loading); issues #33155 (Triton, 64.38 GiB) "
                             "and #23278 (Marlin, 65.97 GiB) for gpt-oss-120b on one H100"
                           : "vLLM and SGLang quantization/utils/marlin_utils_fp8.py "
                             "prepare_fp8_layer_for_marlin and prepare_moe_fp8_layer_for_marlin "
                             "(vLLM PRs #5975, #16850; SGLang PR #8990); a MiniMax-M2.7 startup "
                             "log on 4 x A100 (tests/fixtures/calibration)");
    }
    if (r->budget.router_fp32_bytes)
        assume_value(e, "router_fp32_bytes", r->budget.router_fp32_bytes,
                     "the MoE routers as the engine creates them, in fp32 whatever the model's "
                     "dtype (the checkpoint's 16-bit values upcast on loading), on every GPU: 2 "
                     "bytes more an element, in weights_bytes",
                     "vLLM models/glm4_moe.py Glm4MoE, minimax_m2.py MiniMaxM2MoE, "
                     "ernie45_moe.py Ernie4_5_MoeMoE, mimo_v2.py MiMoV2MoE, bailing_moe_linear.py, "
                     "hy_v3.py HYV3MoEFused (the gate's dtype / params_dtype torch.float32); "
                     "nemotron_h.py NemotronHMoE from 0.11.1, from 0.17.0 off SM 9.0 and 10.x "
                     "(fused_moe/router/gate_linear.py GateLinear, PR #35121)");
    assume_value(e, "cuda_graph_bytes", r->budget.cuda_graph_bytes,
                 "CUDA graph memory: 0 unless given; subtracted only where the release does "
                 "(vLLM 0.21 on)",
                 "vLLM PRs #30515 and #38284");
    if (!r->has_budget)
        warn(e, "engine_budget_needs_gpu",
             "name a gpu to get the engine's KV budget, blocks, capacity and start verdict");
    else if (r->starts && !r->holds_batch)
        warn(e, "requests_queue",
             "the KV cache holds fewer sequences at this context than the requested batch; the "
             "engine will queue the rest");
    if (r->seqs_cap != NULL && w->serving.batch_size > r->max_num_seqs)
        warn(e, "batch_exceeds_max_num_seqs", r->seqs_cap);
}

/* The fixes that hold the batch first, then those that let the engine start, each group in
 * the order found (smallest change first). */
static void order_fixes(struct gs_estimate *e)
{
    for (size_t i = 1; i < e->fix_count; i++) {
        struct gs_fix fix = e->fixes[i];
        const int rank = fix.holds_batch ? 2 : fix.starts ? 1 : 0;
        size_t j = i;
        while (j > 0 && rank > (e->fixes[j - 1].holds_batch ? 2 : e->fixes[j - 1].starts ? 1 : 0)) {
            e->fixes[j] = e->fixes[j - 1];
            j--;
        }
        e->fixes[j] = fix;
    }
}

/* vLLM --cpu-offload-gb (model_executor/models/utils.py maybe_offload_to_cpu; SGLang's
 * --cpu-offload-gb runs the same walk, srt/utils/offloader.py OffloaderV1): make_layers
 * passes each decoder layer of this GPU's stage to it in order, and it moves the layer's
 * parameters to pinned host memory one by one until the bytes moved reach the cap. Only the
 * decoder layers move: the embedding, the head and the final norm stay on the GPU, so the
 * offload is the cap or the stage's layers, whichever is smaller. The parameter that crosses
 * the cap moves whole, which can carry the offload past the cap by part of one parameter;
 * that remainder is not counted (the answer keeps the larger weights). */
static enum gs_status cpu_offloaded(const struct gs_model_spec *m, const struct gs_workload *w,
                                    uint64_t t, uint64_t p, enum gs_weight_format f,
                                    uint64_t *out, struct gs_error *err)
{
    const uint64_t cap = w->serving.engine.cpu_offload_bytes;
    *out = 0;
    if (cap == 0 || !gs_engine_ops_for(w->serving.engine.engine)->cpu_offload)
        return GS_OK;
    const struct gs_weights_request r = target_request(m, w, f, t, 1);
    uint64_t layers = 0;
    enum gs_status st = gs_weights_layers_bytes(&m->arch, &r, &layers, err);
    if (st != GS_OK)
        return st;
    /* the most loaded stage holds ceil(layers / p) of them (vLLM get_pp_indices) */
    const uint64_t n = m->arch.num_hidden_layers ? m->arch.num_hidden_layers : 1;
    bool ovf = false;
    const uint64_t stage = gs_div_ceil(gs_mul(layers, div_up(n, p), &ovf), n);
    if (ovf)
        return gs_error_add(err, GS_ERR_RANGE, "", "the weight bytes overflow 64 bits");
    *out = cap < stage ? cap : stage;
    return GS_OK;
}

static enum gs_status serve(const struct gs_model_spec *m, const struct gs_workload *given,
                            const struct gs_estimate_scope *scope, struct gs_estimate *e,
                            uint64_t t, uint64_t p, enum gs_weight_format f, struct gs_error *err)
{
    if (!m->has_arch)
        return gs_error_add(err, GS_ERR_INVALID, "/inference",
                            "the KV cache needs the architecture: name a catalog model or send its "
                            "config");
    if (given->serving.memory_in_use_bytes && given->gpu.total_bytes &&
        given->serving.memory_in_use_bytes >= given->gpu.total_bytes)
        return gs_error_add(err, GS_ERR_INVALID, "/inference/memory_in_use_bytes",
                            "is %llu bytes, not below the GPU's total of %llu: nothing would be "
                            "left for the engine",
                            (unsigned long long)given->serving.memory_in_use_bytes,
                            (unsigned long long)given->gpu.total_bytes);
    if (given->serving.memory_in_use_bytes)
        assume_value(e, "memory_in_use_bytes", given->serving.memory_in_use_bytes,
                     "memory other processes hold on each GPU when the engine starts: engines "
                     "that read the free memory size their pool without it, vLLM releases that "
                     "count device-wide memory subtract it, and later vLLM releases refuse to "
                     "start unless gpu_memory_utilization x total is still free",
                     "vLLM gpu_worker.py init_device (free memory check) and "
                     "determine_available_memory; SGLang get_available_gpu_memory; TGI "
                     "get_free_memory; TensorRT-LLM cudaMemGetInfo");
    const char *ssm = given->serving.engine.engine == GS_ENGINE_VLLM
                          ? gs_vllm_ssm_dtype_refusal(&given->serving.engine)
                          : NULL;
    if (ssm != NULL)
        return gs_error_add(err, GS_ERR_INVALID, "/inference/mamba_ssm_dtype", "%s", ssm);
    /* the engine sees the offload it will really make */
    struct gs_workload local = *given;
    const struct gs_workload *w = &local;
    uint64_t offloaded = 0;
    enum gs_status st = cpu_offloaded(m, given, t, p, f, &offloaded, err);
    if (st != GS_OK)
        return st;
    local.serving.engine.cpu_offload_bytes = offloaded;
    if (given->serving.engine.cpu_offload_bytes && offloaded == 0)
        warn(e, "cpu_offload_not_supported",
             "this engine has no --cpu-offload-gb: every weight stays on the GPU");
    if (scope->fitting_only &&
        gs_inference_weights_leave_no_cache(&w->serving.engine, e->per_gpu.weights_bytes,
                                            w->gpu.total_bytes)) {
        /* the target's weights on the most loaded GPU (a draft's only add to them) already
         * leave no cache: a plan search's layouts that cannot fit cost no engine budget. The
         * verdict is the one gs_inference_compute would give; the figures are not worked out
         * (a quarter of a whole-catalog recommendation's layouts) */
        e->has_serving = true;
        e->serving.has_budget = true;
        e->serving.starts = false;
        e->serving.holds_batch = false;
        e->serving.binding = gs_binding_no_cache;
        return GS_OK;
    }
    st = speculative(m, w, e, t, p, f, &e->per_gpu.weights_bytes, err);
    if (st != GS_OK)
        return st;
    const struct gs_engine_ops *ops = gs_engine_ops_for(w->serving.engine.engine);
    if (p > 1 && w->gpu.total_bytes && ops->sizes_each_stage) {
        /* every stage sized on its own, the least roomy one answering */
        st = least_roomy_worker(
            m, w, scope, t, p, f,
            checkpoint_applies(m, w, f) ? config_total_bytes(m, w, scope, f) : 0, &e->serving, err);
    } else {
        struct gs_inference_input in;
        serving_input(m, w, scope, e->per_gpu.weights_bytes, t, p, w->serving.kv_dtype,
                      w->serving.context_length, &in);
        st = gs_inference_compute(&in, &e->serving, err);
    }
    if (st != GS_OK)
        return st;
    /* each data-parallel rank holds its own share of the sequences */
    const uint64_t dp = w->parallelism.data ? w->parallelism.data : 1;
    e->serving.max_concurrency = gs_mul(e->serving.max_concurrency, dp, &(bool){false});
    if (dp > 1)
        assume_value(e, "data_parallel_ranks", dp,
                     "data-parallel attention: each rank serves batch / ranks sequences with its own "
                     "KV cache; max_concurrency counts all ranks, the other figures are per GPU",
                     "vLLM --data-parallel-size with --enable-expert-parallel");
    e->has_serving = true;
    const struct gs_inference_result *r = &e->serving;
    bool ovf = false;
    e->per_gpu.kv_cache_bytes = r->kv_needed_bytes;
    e->per_gpu.activations_bytes = r->budget.activation_bytes;
    e->per_gpu.overhead_bytes = gs_add(
        gs_add(r->budget.non_torch_bytes, r->budget.cuda_graph_bytes, &ovf),
        gs_add(gs_add(gs_add(gs_add(gs_add(r->budget.rope_cache_bytes,
                                           gs_add(r->budget.model_buffer_bytes,
                                                  r->budget.sparse_buffer_bytes, &ovf),
                                           &ovf),
                                    gs_add(gs_add(r->spec_buffer_bytes, r->spec_state_bytes, &ovf),
                                           gs_add(gs_add(r->state_unbudgeted_bytes,
                                                         r->kv_unbudgeted_bytes, &ovf),
                                                  r->request_table_bytes, &ovf),
                                           &ovf),
                                    &ovf),
                             r->budget.kv_slot_bytes, &ovf),
                      r->budget.layout_bytes, &ovf),
               /* vLLM 0.6.4 counts the rounding in its non-torch term */
               ops->slack_in_non_torch ? 0 : r->budget.segment_slack_bytes, &ovf),
        &ovf);
    explain_serving(w, ops, e);
    diffusion_notes(m, w, e);
    if (m->has_arch && p > 1) {
        e->stage_layers = m->arch.num_hidden_layers;
        e->stages = stages_for(w, p);
        stage_split_notes(w, e, p);
    }
    if (r->has_budget && !r->holds_batch && !scope->figures_only) {
        suggest_fixes(m, w, scope, e, t, p, f);
        order_fixes(e);
    }
    if (offloaded) {
        /* what stays on the GPU; the fixes above were sized from the whole weights, as the
         * engine's own budget is */
        e->per_gpu.weights_bytes =
            e->per_gpu.weights_bytes > offloaded ? e->per_gpu.weights_bytes - offloaded : 0;
        assume_value(e, "cpu_offload_bytes", offloaded,
                     "weights vLLM keeps in pinned host memory and reads over PCIe each forward "
                     "(--cpu-offload-gb, at most this GPU's decoder layers; per_gpu.weights_bytes "
                     "is what stays on the GPU)",
                     "vLLM model_executor/models/utils.py maybe_offload_to_cpu and make_layers");
    }
    return ovf ? gs_error_add(err, GS_ERR_RANGE, "", "the memory figures overflow 64 bits") : GS_OK;
}

enum gs_status est_compute_inference(const struct gs_model_spec *m, const struct gs_workload *w,
                                     const struct gs_estimate_scope *scope, struct gs_estimate *e,
                                     struct gs_error *err)
{
    bool ovf = false;
    const uint64_t t = w->parallelism.tensor ? w->parallelism.tensor : 1;
    const uint64_t p = w->parallelism.pipeline ? w->parallelism.pipeline : 1;
    const uint64_t dp = w->parallelism.data ? w->parallelism.data : 1;
    const uint64_t ep = w->parallelism.expert ? w->parallelism.expert : 1;
    if (p > 1 && gs_engine_ops_for(w->serving.engine.engine)->no_pipeline)
        return gs_error_add(err, GS_ERR_INVALID, "/parallelism/pipeline",
                            "%s shards a model over tensor ranks only (--num-shard): it has no "
                            "pipeline parallelism (text-generation-inference issues #1275, "
                            "#1742); use pipeline 1, or an engine with pipeline stages",
                            gs_engine_name(w->serving.engine.engine));
    if ((t > 1 || p > 1 || dp > 1 || ep > 1 || w->parallelism.stages.split == GS_SPLIT_GIVEN) &&
        !scope->layout_checked) {
        struct gs_parallelism par;
        gs_parallelism_defaults(&par);
        par.tensor = t;
        par.pipeline = p;
        par.data = dp;
        par.expert = ep;
        par.stages = gs_workload_serving_stages(w); /* the request's list, or the engine's */
        enum gs_status st = gs_parallelism_validate(&par, m->has_arch ? &m->arch : NULL, err);
        if (st != GS_OK)
            return st;
    }
    /* stages on unequal GPUs: one GPU a stage, for an engine that sizes each stage */
    if (w->stage_gpu_count && w->stage_gpu_count != p)
        return gs_error_add(err, GS_ERR_INVALID, "/parallelism/stage_gpus",
                            "names %llu GPUs for a pipeline of %llu stage%s: give one GPU a "
                            "stage (parallelism.pipeline)",
                            (unsigned long long)w->stage_gpu_count, (unsigned long long)p,
                            p == 1 ? "" : "s");
    if (w->stage_gpu_count && !gs_engine_ops_for(w->serving.engine.engine)->sizes_each_stage)
        return gs_error_add(err, GS_ERR_INVALID, "/parallelism/stage_gpus",
                            "%s is sized once for every pipeline stage here, so a GPU a stage "
                            "is not modelled for it; with vLLM each stage is sized on its own GPU",
                            gs_engine_ops_for(w->serving.engine.engine)->name);
    /* vLLM --enable-expert-parallel: the expert group is the tensor x data group */
    if (ep > 1 && ep != t * dp)
        return gs_error_add(err, GS_ERR_INVALID, "/parallelism/expert",
                            "serving spreads experts over the tensor x data ranks (vLLM "
                            "--enable-expert-parallel): expert must be %llu",
                            (unsigned long long)(t * dp));
    const enum gs_weight_format f = gs_workload_format(w);
    e->gpu_count = gs_mul(gs_mul(t, p, &ovf), dp, &ovf);
    e->parameters_per_gpu = div_up(e->parameters, e->gpu_count);
    enum gs_status st = inference_weights(m, w, scope, e, t, p, f, &e->per_gpu.weights_bytes, err);
    if (st != GS_OK)
        return st;
    assume_format(e, f);
    note_checkpoint(m, w, scope, e, f);
    if (m->has_arch && gs_weights_has_host_tables(&m->arch)) {
        /* DeepSeek-V4.1's Engram tables, Qwen3.8-Flash-Next's PLE table: a tensor rank's
         * shard of every layer's */
        const struct gs_weights_request r = target_request(m, w, f, t, p);
        const uint64_t tables = gs_weights_host_table_bytes(&m->arch, &r, &ovf);
        if (r.host_tables)
            assume_value(e, "engram_host_bytes", tables,
                         "the n-gram tables' shard this GPU's rank keeps in pinned host memory and "
                         "reads over UVA (not in per_gpu.weights_bytes; every rank of the node "
                         "keeps its own); inference.engram_tables device puts them on the GPU",
                         "vllm/config/engram.py EngramConfig.cpu_offload (default on from 0.30); "
                         "TensorRT-LLM _torch/models/modeling_deepseekv41.py DeepseekV41Engram");
        else
            assume_value(e, "engram_device_bytes", tables,
                         "the n-gram tables' shard this GPU holds, in per_gpu.weights_bytes, split "
                         "by rows over the tensor ranks (DeepSeek-V4.1's Engram rows in fp8 with "
                         "an e8m0 scale a 32, Qwen3.8-Flash-Next's PLE rows as the checkpoint "
                         "stores them); inference.engram_tables host moves them to pinned host "
                         "memory",
                         "SGLang python/sglang/srt/layers/engram.py EngramEmbedding (device by "
                         "default, SGLANG_ENABLE_DSV41_ENGRAM_HOST_TABLE) and models/qwen4_exp.py "
                         "Qwen4ExpNGramEmbedding (--ple-offload-embedding off by default); vLLM "
                         "0.29's PLEVocabParallelEmbedding (cpu_offload off or absent)");
    }
    if (w->format_from_checkpoint && m->has_arch)
        assume(e, "checkpoint_precision", m->arch.checkpoint.detail,
               "the model's config.json (torch_dtype, quantization_config): with no precision in "
               "the request, the weights are sized as the published checkpoint stores them");
    if (w->serving.present) {
        st = serve(m, w, scope, e, t, p, f, err);
        if (st != GS_OK)
            return st;
    } else {
        warn(e, "kv_cache_not_estimated",
             "the request gives no batch size or context length, so the KV cache and activation "
             "peak are not included in total_bytes");
        add_runtime_overheads(&w->overrides, e->gpu_count, e, &ovf);
    }
    if (ovf)
        return gs_error_add(err, GS_ERR_RANGE, "", "the memory figures overflow 64 bits");
    return GS_OK;
}
