/*
 * estimate.c - per-GPU memory for a model and a workload (see gs/estimate.h).
 *
 * Sources: bytes per parameter by regime and optimizer, estimation.md §2.1;
 * ZeRO sharding §2.2; offload §2.4; tensor/pipeline/expert split on the most
 * loaded stage and vocabulary padding §2.5; LoRA/QLoRA §2.7; activations §3;
 * runtime overheads §4.5.
 */
#include "gs/estimate.h"

#include "gs/activation.h"
#include "gs/capability.h"
#include "gs/engine.h"
#include "gs/framework.h"
#include "gs/train_peak.h"
#include "gs/units.h"

#include <stddef.h>
#include <string.h>

/* bitsandbytes quantize_4bit: 4-bit values, blocks of 64 with an fp32
 * absmax (4 + 32/64 = 4.5 bits); double quantization stores the absmax in
 * 8 bits with an fp32 constant per 256 blocks (4 + 8/64 + 32/(64*256) =
 * 4.127 bits). In 1/64 bytes per parameter: 4.5/8*64 = 36 and
 * 4.126953125/8*64 = 33.015625, kept exact as 2113/64 per 64 parameters. */
#define NF4_BPP64      36
#define NF4_DQ_NUM     2113 /* bytes per 4096 parameters */
#define NF4_DQ_PER     4096

static uint64_t div_up(uint64_t n, uint64_t d)
{
    return gs_div_ceil(n, d ? d : 1);
}

static void assume(struct gs_estimate *e, const char *name, const char *detail, const char *source)
{
    if (e->assumption_count < GS_ESTIMATE_NOTES_MAX)
        e->assumptions[e->assumption_count++] = (struct gs_assumption){name, detail, source, false, 0};
}

static void assume_value(struct gs_estimate *e, const char *name, uint64_t value,
                         const char *detail, const char *source)
{
    if (e->assumption_count < GS_ESTIMATE_NOTES_MAX)
        e->assumptions[e->assumption_count++] =
            (struct gs_assumption){name, detail, source, true, value};
}

static void warn(struct gs_estimate *e, const char *code, const char *detail)
{
    if (e->warning_count < GS_ESTIMATE_NOTES_MAX)
        e->warnings[e->warning_count++] = (struct gs_warning){code, detail};
}

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
    model->counted = st == GS_OK;
    return st;
}

/* Zeroed fields of a workload mean "default". */
static void normalize(const struct gs_workload *in, struct gs_training *t, struct gs_parallelism *p)
{
    *t = in->training;
    *p = in->parallelism;
    if (t->gradient_accumulation_steps == 0)
        t->gradient_accumulation_steps = 1;
    uint64_t *degrees[] = {&p->tensor, &p->pipeline, &p->data, &p->context, &p->expert};
    for (size_t i = 0; i < sizeof(degrees) / sizeof(degrees[0]); i++) {
        if (*degrees[i] == 0)
            *degrees[i] = 1;
    }
    if (p->gpus_per_node == 0)
        p->gpus_per_node = 8;
}

static uint64_t overhead_value(bool has, uint64_t value, uint64_t fallback)
{
    return has ? value : fallback;
}

static void assume_context(struct gs_estimate *e, const struct gs_overrides *o, uint64_t bytes)
{
    assume_value(e, "cuda_context_bytes", bytes,
                 o->has_cuda_context_bytes
                     ? "CUDA context per GPU, as given in overrides"
                     : "CUDA context with lazy module loading, per GPU (eager loading on older "
                       "CUDA/PyTorch costs 600 MB to over 1 GB)",
                 "pytorch/pytorch PR #86509 (287,047,680 B lazy vs 666,632,192 B eager); "
                 "estimation.md 4.5");
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
                 "pytorch/pytorch PR #120925 and PR #89027; estimation.md 4.5");
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

/* ---------------------------------------------------------------- inference */

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
               "plain bit width; estimation.md 4.1 lists per-format overheads");
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
               "quantize.cpp sizes; estimation.md 4.1");
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

static uint64_t config_total_bytes(const struct gs_model_spec *m, const struct gs_workload *w,
                                   enum gs_weight_format f)
{
    struct gs_weights_request whole = {f, w->group_size, 1, 1, w->format_experts_only, 1};
    uint64_t total = 0;
    if (gs_weights_bytes_memo(&m->arch, &whole, m->weights_memo, &total, NULL, NULL) != GS_OK)
        return 0;
    return total;
}

static enum gs_status inference_weights(const struct gs_model_spec *m, const struct gs_workload *w,
                                        const struct gs_estimate *e, uint64_t t, uint64_t p,
                                        enum gs_weight_format f, uint64_t *out, struct gs_error *err)
{
    struct gs_weights_request r = {f, w->group_size, t, p, w->format_experts_only,
                                   w->parallelism.expert};
    if (m->has_arch) {
        enum gs_status st = gs_weights_bytes_memo(&m->arch, &r, m->weights_memo, out, NULL, err);
        if (st == GS_OK && checkpoint_applies(m, w, f))
            *out = scale_to_checkpoint(*out, config_total_bytes(m, w, f),
                                       m->stored.tensor_bytes);
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
                            struct gs_estimate *e, enum gs_weight_format f)
{
    if (!checkpoint_applies(m, w, f))
        return;
    e->weights_from_checkpoint = true;
    e->checkpoint_bytes = m->stored.tensor_bytes;
    assume_value(e, "weights_from_checkpoint", m->stored.tensor_bytes,
                 "the weights are the checkpoint's own tensors as stored (scales, zero points "
                 "and group indices included), split over the layout as the architecture splits "
                 "them",
                 "the checkpoint's safetensors or GGUF headers (dtype and shape of every tensor)");
    if (!m->has_arch)
        return;
    e->config_bytes = config_total_bytes(m, w, f);
    const uint64_t a = e->checkpoint_bytes, b = e->config_bytes;
    const uint64_t diff = a > b ? a - b : b - a;
    if (b > 0 && diff * 100 > a)
        e->checkpoint_mismatch = true;
}

/* The attention layers vLLM's drafter adds to this GPU's KV cache, and
 * their bytes per token (0: each like the target's full-attention layers):
 * mtp one layer per MTP layer, reused for every step
 * (deepseek_mtp.py: spec_step_idx % num_mtp_layers); an EAGLE head or a
 * draft model its own layers, in the target's cache dtype
 * (_create_draft_vllm_config keeps cache_config.cache_dtype). */
static void draft_cache(const struct gs_model_spec *m, const struct gs_workload *w, uint64_t t,
                        uint64_t *layers, uint64_t *token_bytes)
{
    *layers = 0;
    *token_bytes = 0;
    const struct gs_engine_config *c = &w->serving.engine;
    if (gs_engine_ops_for(c->engine)->spec != GS_ENGINE_SPEC_IN_BUDGET)
        return;
    if (c->spec_method == GS_SPEC_MTP) {
        *layers = gs_weights_mtp_layers(&m->arch);
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
                          uint64_t weights, uint64_t t, uint64_t p, enum gs_kv_dtype kv,
                          uint64_t context, struct gs_inference_input *in)
{
    memset(in, 0, sizeof(*in));
    in->arch = &m->arch;
    in->kv_memo = m->kv_memo;
    in->weights_bytes = weights;
    /* data-parallel ranks each serve their share of the batch (vLLM DP attention) */
    const uint64_t dp = w->parallelism.data ? w->parallelism.data : 1;
    in->batch_size = div_up(w->serving.batch_size ? w->serving.batch_size : 1, dp);
    in->context_length = context;
    in->sequence_tokens = w->serving.sequence_tokens < context ? w->serving.sequence_tokens : 0;
    in->prompt_tokens = w->serving.prompt_tokens;
    in->tensor = t;
    in->pipeline = p;
    in->kv_dtype = kv;
    in->model_bytes = gs_workload_format(w) == GS_WF_FP32 ? 4 : 2; /* "auto" KV follows the model dtype */
    in->gpu = w->gpu;
    in->gpu.in_use_bytes = w->serving.memory_in_use_bytes;
    in->weight_format = (uint8_t)gs_workload_format(w);
    in->group_size = w->group_size;
    in->experts_only = w->format_experts_only;
    /* a replica wider than a node has groups that talk over the network: its tensor group,
     * or its pipeline groups (rank i of one stage and rank i of the next) */
    const uint64_t per_node = w->parallelism.gpus_per_node ? w->parallelism.gpus_per_node : 8;
    in->cross_node = t * p > per_node;
    in->expert = w->parallelism.expert;
    in->expert_cross_node = w->parallelism.expert > per_node;
    in->engine = w->serving.engine;
    draft_cache(m, w, t, &in->draft_layers, &in->draft_token_bytes);
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
    const struct gs_weights_request r = {(enum gs_weight_format)d->format, d->group_size, t, 1,
                                         false, 0};
    bool ovf = false;
    uint64_t bytes = 0;
    if (method == GS_SPEC_DRAFT_MODEL) {
        st = gs_weights_bytes(a, NULL, &r, &bytes, err);
    } else {
        st = gs_weights_layers_bytes(a, &r, &bytes, err);
        const uint64_t h = a->hidden_size;
        const uint64_t target_h = d->target_hidden ? d->target_hidden : h;
        /* fc: nn.Linear(2h, h) (EAGLE), ReplicatedLinear(3 x target hidden, h) (EAGLE-3) */
        const uint64_t fc = method == GS_SPEC_EAGLE3 ? gs_mul(3 * target_h, h, &ovf)
                                                     : gs_mul(2 * h, h, &ovf);
        bytes = gs_add(bytes, gs_mul(fc, 2, &ovf), &ovf);
        if (method == GS_SPEC_EAGLE3) {
            const uint64_t vocab = d->draft_vocab ? d->draft_vocab : a->vocab_size;
            /* the first layer's q/k/v read 2 x hidden: h more inputs per output column */
            const struct gs_attention *s = NULL;
            for (size_t k = 0; k < a->block_count && s == NULL; k++)
                if (a->blocks[k].mixer == GS_MIXER_ATTENTION)
                    s = &a->blocks[k].attn;
            if (s != NULL) {
                const uint64_t cols = gs_div_ceil(s->heads * s->head_dim, t) +
                                      2 * gs_div_ceil(s->kv_heads * s->head_dim, t);
                bytes = gs_add(bytes, gs_mul(gs_mul(cols, h, &ovf), 2, &ovf), &ovf);
            }
            /* ParallelLMHead(draft_vocab_size, hidden), hidden_norm, d2t (int64) */
            bytes = gs_add(bytes, gs_mul(gs_mul(gs_div_ceil(vocab, t), h, &ovf), 2, &ovf), &ovf);
            bytes = gs_add(bytes, gs_add(gs_mul(h, 2, &ovf), gs_mul(vocab, 8, &ovf), &ovf), &ovf);
        }
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
    if (ops->spec == GS_ENGINE_SPEC_RESERVE) {
        const struct gs_engine_notes notes = notes_for(e);
        return ops->speculative(c, &notes, err);
    }
    if (ops->spec != GS_ENGINE_SPEC_IN_BUDGET)
        return gs_error_add(err, GS_ERR_INVALID, "/inference/speculative",
                            "speculative decoding is sized for vllm and sglang, not %s",
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
    enum gs_status st = draft_layout(
        &m->arch, w, t, true, "/inference/speculative/method",
        "vLLM's grouping of draft layers with linear-attention (Mamba) or cross-attention layers "
        "is not modelled; drafts are sized for models whose layers attend, fully or in windows",
        &kv, err);
    if (st != GS_OK)
        return st;
    if (method != GS_SPEC_MTP)
        return draft_model(m, w, e, t, p, weights, err);
    if (w->serving.draft != NULL)
        return gs_error_add(err, GS_ERR_INVALID, "/inference/speculative/draft",
                            "mtp drafts with the model's own MTP layers; a draft model goes with "
                            "eagle, eagle3 or draft_model");
    const uint64_t layers = gs_weights_mtp_layers(&m->arch);
    if (layers == 0)
        return gs_error_add(err, GS_ERR_INVALID, "/inference/speculative/method",
                            "this model has no multi-token-prediction layers "
                            "(num_nextn_predict_layers in its config) for vLLM's mtp");
    if (p > 1)
        return gs_error_add(err, GS_ERR_INVALID, "/parallelism/pipeline",
                            "vLLM cannot run mtp with pipeline parallelism (the draft's parallel "
                            "config copies pipeline_parallel_size and the MTP model refuses it: "
                            "vllm issue #52069); serve with tensor parallelism");
    const struct gs_vllm_release *rel = gs_vllm_release_for_layout(c->version, p);
    const struct gs_weights_request r = {f, w->group_size, t, p, w->format_experts_only,
                                         w->parallelism.expert};
    uint64_t bytes = 0;
    st = gs_weights_mtp_bytes(&m->arch, &r, rel->mtp_own_head, &bytes, err);
    if (st != GS_OK)
        return st;
    bool ovf = false;
    *weights = gs_add(*weights, bytes, &ovf);
    assume_value(e, "speculative_draft_weights_bytes", bytes,
                 rel->mtp_own_head
                     ? "vLLM mtp: the model's MTP layers on every GPU (split like its layers; "
                       "eh_proj whole in 16 bits), the embedding shared with the target, the "
                       "layers' own head kept (shared_head.head)"
                     : "vLLM mtp: the model's MTP layers on every GPU (split like its layers; "
                       "eh_proj whole in 16 bits), the embedding and head shared with the target",
                 "vllm/model_executor/models/deepseek_mtp.py; vllm/v1/spec_decode "
                 "_maybe_share_embeddings and _maybe_share_lm_head (PR #34385 from 0.17)");
    assume_value(e, "speculative_draft_layers", layers,
                 "vLLM mtp: attention layers the draft adds to every KV block (one per MTP layer, "
                 "reused for every speculative token), in the target's cache group",
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
                          struct gs_estimate *e, uint64_t t, uint64_t p, enum gs_weight_format f)
{
    const struct gs_inference_result *now = &e->serving;
    struct gs_inference_input in;
    struct gs_inference_result r;
    if (now->max_context > 0 && now->budget.kv_bytes > 0) {
        serving_input(m, w, e->per_gpu.weights_bytes, t, p, w->serving.kv_dtype, now->max_context,
                      &in);
        if (gs_inference_compute(&in, &r, NULL) == GS_OK)
            add_fix(e, "lower_context", "serve a shorter maximum context (max_model_len)",
                    now->max_context, &r);
    }
    const enum gs_kv_dtype fp8 = gs_kv_fp8_for(&m->arch);
    if (w->serving.kv_dtype != fp8 && w->serving.kv_dtype != GS_KV_FP8 &&
        w->serving.kv_dtype != GS_KV_FP8_E5M2) {
        serving_input(m, w, e->per_gpu.weights_bytes, t, p, fp8, w->serving.context_length, &in);
        if (gs_inference_compute(&in, &r, NULL) == GS_OK)
            add_fix(e, "fp8_kv_cache",
                    fp8 == GS_KV_FP8_DS_MLA ? "store the MLA cache as fp8_ds_mla"
                                            : "store the KV cache in fp8 (kv_cache_dtype fp8)",
                    0, &r);
    }
    uint64_t weights = 0;
    if ((f == GS_WF_BF16 || f == GS_WF_FP16 || f == GS_WF_FP32) &&
        inference_weights(m, w, e, t, p, GS_WF_AWQ, &weights, NULL) == GS_OK) {
        serving_input(m, w, weights, t, p, w->serving.kv_dtype, w->serving.context_length, &in);
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
        par.uneven_stages = true;
        if (gs_parallelism_validate(&par, &m->arch, NULL) != GS_OK ||
            inference_weights(m, w, e, t2, p, f, &weights, NULL) != GS_OK)
            continue;
        serving_input(m, w, weights, t2, p, w->serving.kv_dtype, w->serving.context_length, &in);
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
                                         uint64_t t, uint64_t p, enum gs_weight_format f,
                                         uint64_t config_total, struct gs_inference_result *out,
                                         struct gs_error *err)
{
    if (p > GS_LAYERS_MAX) /* gs_parallelism_validate keeps stages within the layers */
        return gs_error_add(err, GS_ERR_RANGE, "/parallelism/pipeline", "more stages than layers");
    const struct gs_weights_request r = {f, w->group_size, t, p, w->format_experts_only,
                                         w->parallelism.expert};
    uint64_t stage_weights[GS_LAYERS_MAX], most;
    enum gs_status st =
        gs_weights_bytes_memo(&m->arch, &r, m->weights_memo, &most, stage_weights, err);
    if (st != GS_OK)
        return st;
    bool first = true;
    for (uint64_t s = 0; s < p; s++) {
        uint64_t weights = stage_weights[s];
        if (checkpoint_applies(m, w, f)) /* the stage's share of the checkpoint's own bytes */
            weights = scale_to_checkpoint(weights, config_total, m->stored.tensor_bytes);
        struct gs_inference_input in;
        struct gs_inference_result res;
        serving_input(m, w, weights, t, p, w->serving.kv_dtype, w->serving.context_length, &in);
        in.has_stage = true;
        in.stage = s;
        st = gs_inference_compute(&in, &res, err);
        if (st != GS_OK)
            return st;
        if (first || res.budget.kv_bytes <= 0 || (out->budget.kv_bytes > 0 && res.blocks < out->blocks)) {
            if (first || out->budget.kv_bytes > 0 || res.budget.kv_bytes < out->budget.kv_bytes)
                *out = res;
        }
        first = false;
    }
    return GS_OK;
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
    if (w->gpu.unified_memory)
        warn(e, "unified_memory",
             "this GPU's memory is the host's (unified memory): the engine's whole share must be "
             "free in host memory when it starts (vLLM measures the operating system's available "
             "memory on integrated GPUs and refuses to start below gpu_memory_utilization x total), "
             "and the operating system, page cache and every other process draw on the same pool; "
             "the answer assumes that share is free");
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
                     "DeepStack input buffers vLLM's Qwen3-VL model allocates when it is created "
                     "(max_num_batched_tokens x hidden_size per DeepStack level, model dtype) and "
                     "keeps on every GPU; counted with the weights it loads "
                     "(budget.weights_bytes) and in overhead_bytes",
                     "vLLM qwen3_vl.py, qwen3_vl_moe.py and qwen3_omni_moe_thinker.py "
                     "(deepstack_input_embeds in the model's __init__); a Qwen3-VL-30B-A3B "
                     "startup log on 4 x RTX 3090 (tests/fixtures/calibration)");
    if (r->budget.segment_slack_bytes)
        assume_value(e, "segment_slack_bytes", r->budget.segment_slack_bytes, ops->slack_detail,
                     "c10/cuda/CUDACachingAllocator.cpp get_allocation_size (kMinLargeAlloc, "
                     "kRoundLarge); SGLang's 'Load weight end ... mem usage' for QwQ-32B on 4 x L4 "
                     "in tests/fixtures/calibration");
    if (r->budget.layout_bytes && ops->layout_detail != NULL)
        assume_value(e, "mxfp4_layout_bytes", r->budget.layout_bytes,
                     ops->layout_detail(r, w->gpu.hw),
                     "vLLM quantization/mxfp4.py Mxfp4MoEMethod (create_weights, "
                     "process_weights_after_loading); issues #33155 (Triton, 64.38 GiB) and "
                     "#23278 (Marlin, 65.97 GiB) for gpt-oss-120b on one H100");
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
    if (ops->queues_past_max_num_seqs && w->serving.batch_size > r->max_num_seqs)
        warn(e, "batch_exceeds_max_num_seqs",
             "the batch is larger than max_num_seqs, so vLLM runs at most max_num_seqs "
             "sequences at a time whatever the KV cache holds");
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
    const struct gs_weights_request r = {f, w->group_size, t, 1, w->format_experts_only,
                                         w->parallelism.expert};
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
                            struct gs_estimate *e, uint64_t t, uint64_t p, enum gs_weight_format f,
                            struct gs_error *err)
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
    if (w->fitting_only &&
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
        st = least_roomy_worker(m, w, t, p, f,
                                checkpoint_applies(m, w, f) ? config_total_bytes(m, w, f) : 0,
                                &e->serving, err);
    } else {
        struct gs_inference_input in;
        serving_input(m, w, e->per_gpu.weights_bytes, t, p, w->serving.kv_dtype,
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
    e->per_gpu.overhead_bytes =
        gs_add(gs_add(r->budget.non_torch_bytes, r->budget.cuda_graph_bytes, &ovf),
               gs_add(gs_add(gs_add(r->budget.rope_cache_bytes, r->budget.model_buffer_bytes,
                                    &ovf),
                             r->budget.layout_bytes, &ovf),
                      /* vLLM 0.6.4 counts the rounding in its non-torch term */
                      ops->slack_in_non_torch ? 0 : r->budget.segment_slack_bytes,
                      &ovf),
               &ovf);
    explain_serving(w, ops, e);
    if (r->has_budget && !r->holds_batch && !w->figures_only) {
        suggest_fixes(m, w, e, t, p, f);
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

static enum gs_status compute_inference(const struct gs_model_spec *m, const struct gs_workload *w,
                                        struct gs_estimate *e, struct gs_error *err)
{
    bool ovf = false;
    const uint64_t t = w->parallelism.tensor ? w->parallelism.tensor : 1;
    const uint64_t p = w->parallelism.pipeline ? w->parallelism.pipeline : 1;
    const uint64_t dp = w->parallelism.data ? w->parallelism.data : 1;
    const uint64_t ep = w->parallelism.expert ? w->parallelism.expert : 1;
    if ((t > 1 || p > 1 || dp > 1 || ep > 1) && !w->layout_checked) {
        struct gs_parallelism par;
        gs_parallelism_defaults(&par);
        par.tensor = t;
        par.pipeline = p;
        par.data = dp;
        par.expert = ep;
        par.uneven_stages = true; /* vLLM splits layers as evenly as it can (get_pp_indices) */
        enum gs_status st = gs_parallelism_validate(&par, m->has_arch ? &m->arch : NULL, err);
        if (st != GS_OK)
            return st;
    }
    /* vLLM --enable-expert-parallel: the expert group is the tensor x data group */
    if (ep > 1 && ep != t * dp)
        return gs_error_add(err, GS_ERR_INVALID, "/parallelism/expert",
                            "serving spreads experts over the tensor x data ranks (vLLM "
                            "--enable-expert-parallel): expert must be %llu",
                            (unsigned long long)(t * dp));
    const enum gs_weight_format f = gs_workload_format(w);
    e->gpu_count = gs_mul(gs_mul(t, p, &ovf), dp, &ovf);
    e->parameters_per_gpu = div_up(e->parameters, e->gpu_count);
    enum gs_status st = inference_weights(m, w, e, t, p, f, &e->per_gpu.weights_bytes, err);
    if (st != GS_OK)
        return st;
    assume_format(e, f);
    note_checkpoint(m, w, e, f);
    if (w->format_from_checkpoint && m->has_arch)
        assume(e, "checkpoint_precision", m->arch.checkpoint.detail,
               "the model's config.json (torch_dtype, quantization_config): with no precision in "
               "the request, the weights are sized as the published checkpoint stores them");
    if (w->serving.present) {
        st = serve(m, w, e, t, p, f, err);
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

/* ---------------------------------------------------------------- training */

/* Parameters on the most loaded GPU, split into what tensor parallelism
 * shards (dense), the routed experts, and the linear weights (for QLoRA's
 * 4-bit base). */
struct shard {
    uint64_t dense;   /* everything but routed experts */
    uint64_t experts; /* routed experts on this GPU */
    uint64_t linear;  /* attention + MLP weights among `dense` (quantizable) */
    uint64_t vocab_padding; /* rows added to the embedding (and untied head) for TP */
};

static uint64_t ceil_div(uint64_t n, uint64_t d)
{
    return gs_div_ceil(n, d ? d : 1);
}

static uint64_t max_u64(uint64_t a, uint64_t b)
{
    return a > b ? a : b;
}

/* Megatron's split (estimation.md 2.5): layers over p stages; projections,
 * embeddings and head over t; norms replicated within a stage; routed
 * experts over e. With t > 1 the vocabulary is padded to a multiple of
 * 128 * t (build_tokenizer.py). The first stage holds the embedding, the
 * last the head (a copy of a tied embedding); the larger of the two counts. */
static struct shard shard_params(const struct gs_model_spec *m, const struct gs_estimate *e,
                                 const struct gs_parallelism *par, bool *ovf)
{
    struct shard s = {0, 0, 0, 0};
    const uint64_t t = par->tensor, p = par->pipeline;
    if (!m->has_arch) {
        s.dense = ceil_div(e->parameters, gs_mul(t, p, ovf));
        return s;
    }
    const struct gs_arch *a = &m->arch;
    const struct gs_param_count *c = &e->params;
    uint64_t width = a->hidden_size; /* the token embedding's width (OPT: word_embed_proj_dim) */
    for (size_t i = 0; i < a->module_count; i++)
        if (a->modules[i].flags & GS_MOD_TOKENS)
            width = a->modules[i].out;
    if (t > 1) {
        const uint64_t multiple = gs_mul(128, t, ovf);
        const uint64_t padded = gs_mul(ceil_div(a->vocab_size, multiple), multiple, ovf);
        s.vocab_padding = gs_mul(padded - a->vocab_size, width, ovf);
    }
    const uint64_t layers = ceil_div(ceil_div(gs_add(gs_add(c->attention, c->mlp, ovf), c->other, ovf),
                                              p),
                                     t);
    const uint64_t norms = ceil_div(c->norms, p);
    const uint64_t embedding = ceil_div(gs_add(c->embedding, s.vocab_padding, ovf), t);
    const uint64_t head_rows = c->lm_head ? c->lm_head : c->embedding;
    const uint64_t head = ceil_div(gs_add(head_rows, s.vocab_padding, ovf), t);
    /* vision and audio encoders run before the first decoder layer: the first stage holds
     * them, split over tensor ranks like the layers */
    const uint64_t towers = ceil_div(gs_add(c->vision, c->audio, ovf), t);
    uint64_t first = gs_add(gs_add(gs_add(layers, norms, ovf), embedding, ovf), towers, ovf);
    if (p == 1 && c->lm_head)
        first = gs_add(first, head, ovf);
    const uint64_t last = p > 1 ? gs_add(gs_add(layers, norms, ovf), head, ovf) : 0;
    s.dense = max_u64(first, last);
    s.experts = ceil_div(c->experts, gs_mul(p, par->expert, ovf));
    s.linear = ceil_div(ceil_div(gs_add(c->attention, c->mlp, ovf), p), t);
    return s;
}

struct train_plan {
    struct gs_training tr;
    struct gs_parallelism par;
    enum gs_regime regime;
    bool lora;
    uint64_t adapters; /* LoRA adapter parameters (whole model) */
    struct gs_framework_rules rules;
    bool deepspeed;    /* ZeRO stages run by DeepSpeed (buckets), not FSDP */
};

/* What the peak model needs beyond the per-GPU model states. */
struct state_extra {
    uint64_t unit_bytes;      /* one decoder layer's weights as FSDP gathers them */
    uint64_t unit_grad_bytes; /* one decoder layer's gradient at the reduce dtype */
    uint64_t root_bytes;      /* embedding, head and final norm as FSDP gathers them */
    uint64_t moment_bytes;    /* one optimizer moment for this GPU's trainable shard */
    uint64_t linear_params;   /* linear weights on this GPU (autocast copies them) */
    uint64_t gathered_module; /* DeepSpeed ZeRO-3: the largest module and its gradient */
};

static enum gs_status resolve_method(const struct gs_model_spec *m, const struct gs_workload *w,
                                     struct train_plan *plan, struct gs_estimate *e,
                                     struct gs_error *err)
{
    struct gs_training *tr = &plan->tr;
    const bool quantized = gs_dtype_is_quantized(w->weights);
    if (!tr->method_given && quantized) /* a quantized base is trained through adapters */
        tr->method = w->weights == GS_DTYPE_INT4 ? GS_METHOD_QLORA : GS_METHOD_LORA;
    if (tr->method == GS_METHOD_FULL && quantized)
        return gs_error_add(err, GS_ERR_UNSUPPORTED, "/training/method",
                            "%s weights are a frozen base: train them with lora or qlora",
                            gs_dtype_name(w->weights));
    if (tr->method == GS_METHOD_QLORA && w->weights != GS_DTYPE_INT4)
        return gs_error_add(err, GS_ERR_INVALID, "/training/method",
                            "qlora trains adapters over a 4-bit (nf4) base; set precision.weights "
                            "to int4, or use lora");
    e->method = tr->method;
    plan->lora = tr->method != GS_METHOD_FULL;
    if (!plan->lora)
        return GS_OK;
    if (!m->has_arch)
        return gs_error_add(err, GS_ERR_INVALID, "/training/method",
                            "LoRA needs the model's architecture (a catalog id or config) to know "
                            "the adapted modules");
    if (tr->lora_rank == 0)
        tr->lora_rank = 8; /* PEFT LoraConfig default r */
    return gs_lora_parameters(&m->arch, tr, &plan->adapters, err);
}

static enum gs_status resolve_regime(const struct gs_workload *w, struct train_plan *plan,
                                     struct gs_estimate *e, struct gs_error *err)
{
    if (plan->tr.regime != GS_REGIME_NONE) {
        plan->regime = plan->tr.regime;
    } else if (plan->lora) {
        plan->regime = GS_REGIME_FP32; /* PEFT autocast_adapter_dtype=True upcasts adapters */
    } else {
        enum gs_status st = gs_regime_for(w->weights, &plan->regime, err);
        if (st != GS_OK)
            return st;
    }
    e->regime = plan->regime;
    e->optimizer = plan->tr.optimizer;
    return GS_OK;
}

/* Bytes of `n` parameters at `bpp64` sixty-fourths of a byte each. */
static uint64_t bytes_of(uint64_t n, uint64_t bpp64, bool *ovf)
{
    return ceil_div(gs_mul(n, bpp64, ovf), GS_BPP_UNIT);
}

/* The frozen base of a LoRA/QLoRA run on one GPU, stored at its precision. */
static uint64_t frozen_base_bytes(const struct gs_workload *w, const struct train_plan *plan,
                                  const struct shard *s, struct gs_estimate *e, bool *ovf)
{
    const uint64_t params = gs_add(s->dense, s->experts, ovf);
    if (plan->tr.method != GS_METHOD_QLORA)
        return gs_dtype_bytes(w->weights, params, ovf);
    /* QLoRA: linears in nf4, embeddings, norms and head in 16-bit */
    const uint64_t linear = gs_add(s->linear, s->experts, ovf);
    const uint64_t rest = params - (linear < params ? linear : params);
    uint64_t linear_bytes;
    if (plan->tr.double_quant) {
        linear_bytes = ceil_div(gs_mul(linear, NF4_DQ_NUM, ovf), NF4_DQ_PER);
        assume(e, "qlora_base",
               "nf4 with double quantization: 4.127 bits per linear weight (4 + 8/64 + "
               "32/(64*256)); embeddings, norms and the head stay 16-bit",
               "bitsandbytes quantize_4bit (blocksize 64, absmax re-quantized per 256); QLoRA "
               "paper section 3; estimation.md 2.7");
    } else {
        linear_bytes = bytes_of(linear, NF4_BPP64, ovf);
        assume(e, "qlora_base",
               "nf4 without double quantization: 4.5 bits per linear weight (4 + 32/64); "
               "embeddings, norms and the head stay 16-bit",
               "bitsandbytes quantize_4bit (blocksize 64, fp32 absmax); estimation.md 2.7");
    }
    return gs_add(linear_bytes, gs_mul(rest, 2, ovf), ovf);
}

static const char *regime_detail(enum gs_regime r)
{
    switch (r) {
    case GS_REGIME_FP32:
        return "fp32 weights, gradients and optimizer states";
    case GS_REGIME_BF16_MIXED:
        return "bf16 weights and gradients with fp32 master weights and optimizer states";
    case GS_REGIME_FP16_MIXED:
        return "fp16 weights and gradients with fp32 master weights and optimizer states";
    case GS_REGIME_BF16_PURE:
        return "bf16 weights, gradients and optimizer states, no fp32 master copy";
    case GS_REGIME_AMP:
        return "autocast: fp32 weights, gradients and optimizer states; 16-bit copies are "
               "transient";
    case GS_REGIME_NONE:
    case GS_REGIME_COUNT:
        break;
    }
    return "";
}

static const char *optimizer_detail(enum gs_optimizer o)
{
    switch (o) {
    case GS_OPT_ADAMW:
    case GS_OPT_ADAM:
        return "Adam/AdamW: exp_avg and exp_avg_sq per parameter";
    case GS_OPT_ADAMW_8BIT:
        return "8-bit AdamW: two uint8 states plus an fp32 absmax per 256-element block "
               "(2.03 bytes per parameter); tensors under 4,096 elements keep fp32 states, "
               "not counted";
    case GS_OPT_SGD:
        return "SGD without momentum: no optimizer state";
    case GS_OPT_SGD_MOMENTUM:
        return "SGD with momentum: one momentum buffer per parameter";
    case GS_OPT_ADAFACTOR:
        return "Adafactor (beta1 unset): factored second moment in fp32, rows plus columns of "
               "every matrix and every vector whole (transformers Adafactor: exp_avg_sq_row, "
               "exp_avg_sq_col, exp_avg_sq)";
    case GS_OPT_LION:
        return "Lion: one momentum buffer per parameter";
    case GS_OPT_COUNT:
        break;
    }
    return "";
}

/* The sizes the peak model needs (gs/train_peak.h): FSDP's units (one
 * decoder layer each, as torchtitan's fully_shard per block and the
 * transformer auto-wrap policy of accelerate/torchtune wrap them, and the
 * root: embedding, final norm and head), one optimizer moment for the
 * foreach step, and the linear weights autocast copies. */
static void peak_extras(const struct gs_model_spec *m, const struct train_plan *plan,
                        const struct gs_estimate *e, const struct shard *s,
                        struct gs_state_bytes bpp, uint64_t t_dense, uint64_t frozen,
                        struct state_extra *x, bool *ovf)
{
    const struct gs_parallelism *par = &plan->par;
    const uint64_t dp = gs_mul(par->data, par->context, ovf);
    const bool shard_optimizer = par->zero_stage >= 1 || par->distributed_optimizer;
    memset(x, 0, sizeof(*x));
    /* one Adam moment per trainable parameter, at the state dtype (bf16_pure keeps bf16
     * states; every other regime fp32): torch's _multi_tensor_adamw takes
     * torch._foreach_sqrt(exp_avg_sqs), a new list as large as one moment */
    if (plan->tr.optimizer == GS_OPT_ADAMW || plan->tr.optimizer == GS_OPT_ADAM) {
        const uint64_t trainable = gs_add(t_dense, plan->lora ? 0 : s->experts, ovf);
        x->moment_bytes = gs_mul(trainable, plan->regime == GS_REGIME_BF16_PURE ? 2 : 4, ovf);
        if (shard_optimizer)
            x->moment_bytes = ceil_div(x->moment_bytes, dp);
    }
    x->linear_params = gs_add(s->linear, s->experts, ovf);
    if (!m->has_arch)
        return;
    const struct gs_param_count *c = &e->params;
    const uint64_t t = par->tensor, p = par->pipeline;
    const uint64_t layers = ceil_div(m->arch.num_hidden_layers, p);
    /* the root: the embedding and the head on this GPU (a tied head shares the embedding) */
    uint64_t root = ceil_div(gs_add(c->embedding, s->vocab_padding, ovf), t);
    if (c->lm_head)
        root = gs_add(root, ceil_div(gs_add(c->lm_head, s->vocab_padding, ovf), t), ovf);
    const uint64_t all = gs_add(s->dense, s->experts, ovf);
    const uint64_t body = all > root ? all - root : 0;
    /* what FSDP gathers: the working dtype of full training, or the frozen base as stored
     * (16-bit, or 4-bit storage for QLoRA) with the adapters */
    uint64_t gathered_all;
    if (plan->lora)
        gathered_all = gs_add(frozen, bytes_of(t_dense, bpp.weights, ovf), ovf);
    else
        gathered_all = bytes_of(all, bpp.weights, ovf);
    x->root_bytes = bytes_of(root, plan->lora || bpp.weights < GS_BPP_UNIT * 4 ? 2 * GS_BPP_UNIT
                                                                               : bpp.weights,
                             ovf);
    if (x->root_bytes > gathered_all)
        x->root_bytes = gathered_all;
    x->unit_bytes = ceil_div(gathered_all - x->root_bytes, layers);
    /* one unit's gradient before reduce-scatter, at the reduce dtype: fp32 under torchtitan's
     * MixedPrecisionPolicy(reduce_dtype=float32), else the gradient's own */
    const uint64_t trainable_body = plan->lora ? t_dense : body;
    const uint64_t grad_bpp = plan->rules.framework == GS_FW_TORCHTITAN ? 4 * GS_BPP_UNIT
                                                                        : bpp.gradients;
    x->unit_grad_bytes = ceil_div(bytes_of(trainable_body, grad_bpp, ovf), layers);
}

/* Adafactor's second-moment elements (transformers optimization.py Adafactor.step, beta1
 * unset, the default): a parameter of two or more dimensions keeps exp_avg_sq_row
 * (shape[:-1]) and exp_avg_sq_col (shape[:-2] + shape[-1:]), rows plus columns; a vector
 * keeps exp_avg_sq whole. Full training: every module (a Linear's weight out x in and its
 * bias, an Embedding rows x width, norms and other vectors whole); LoRA: each adapted
 * linear's lora_A (r x in) and lora_B (out x r). The states follow the gradient, upcast to
 * fp32 (`grad = grad.float()`), so the caller takes 4 bytes each. */
static uint64_t module_factored(const struct gs_module *m, bool *ovf)
{
    const uint64_t count = m->count ? m->count : 1;
    switch ((enum gs_module_kind)m->kind) {
    case GS_MODULE_LINEAR:
        return gs_mul(count, gs_add((uint64_t)m->in + m->out, (m->flags & GS_MOD_BIAS) ? m->out : 0,
                                    ovf),
                      ovf);
    case GS_MODULE_EMBEDDING:
        return gs_mul(count, (uint64_t)m->in + m->out, ovf);
    case GS_MODULE_TENSOR:
        if (m->in > 1 && m->out > 1)
            return gs_mul(count, (uint64_t)m->in + m->out, ovf);
        break;
    case GS_MODULE_NORM:
        break;
    }
    return gs_module_parameters(m, ovf);
}

static uint64_t block_factored(const struct gs_block *b, const struct gs_training *tr, bool lora,
                               uint64_t layers, bool *ovf)
{
    uint64_t n = 0;
    for (size_t i = 0; i < b->module_count; i++) {
        const struct gs_module *m = &b->modules[i];
        if (m->flags & GS_MOD_BUFFER)
            continue;
        if (!lora) {
            n = gs_add(n, module_factored(m, ovf), ovf);
        } else if (m->kind == GS_MODULE_LINEAR && gs_lora_adapts(tr, m)) {
            const uint64_t r = tr->lora_rank ? tr->lora_rank : 8;
            n = gs_add(n, gs_mul(m->count ? m->count : 1,
                                 gs_add((uint64_t)m->in + m->out, 2 * r, ovf), ovf),
                       ovf);
        }
    }
    return gs_mul(n, layers, ovf);
}

static uint64_t adafactor_elements(const struct gs_arch *a, const struct gs_training *tr,
                                   bool lora, bool *ovf)
{
    uint64_t n = 0, counts[GS_BLOCKS_MAX];
    gs_arch_count_blocks(a, 0, a->num_hidden_layers, counts);
    for (size_t k = 0; k < a->block_count; k++)
        n = gs_add(n, block_factored(&a->blocks[k], tr, lora, counts[k], ovf), ovf);
    for (size_t k = 0; k < a->tower_count; k++) {
        const struct gs_tower *tw = &a->towers[k];
        if (tw->block < a->block_count && tw->part != GS_PART_MTP)
            n = gs_add(n, block_factored(&a->blocks[tw->block], tr, lora, tw->layers, ovf), ovf);
    }
    for (size_t i = 0; !lora && i < a->module_count; i++)
        if (!(a->modules[i].flags & GS_MOD_BUFFER))
            n = gs_add(n, module_factored(&a->modules[i], ovf), ovf);
    return n;
}

/* Model states on one GPU. */
static void model_states(const struct gs_model_spec *m, const struct gs_workload *w,
                         const struct train_plan *plan, struct gs_estimate *e,
                         struct state_extra *x, bool *ovf)
{
    const struct gs_parallelism *par = &plan->par;
    const struct shard s = shard_params(m, e, par, ovf);
    const struct gs_state_bytes bpp = gs_state_bytes_for(plan->regime, plan->tr.optimizer);
    const uint64_t dp = gs_mul(par->data, par->context, ovf);
    const uint64_t expert_dp = ceil_div(gs_mul(gs_mul(par->tensor, par->context, ovf), par->data, ovf),
                                        par->expert);
    const unsigned zero = par->zero_stage;
    const bool shard_optimizer = zero >= 1 || par->distributed_optimizer;
    e->parameters_per_gpu = gs_add(s.dense, s.experts, ovf);

    /* trainable parameters on this GPU: dense part and expert part */
    uint64_t t_dense = s.dense, t_experts = s.experts;
    uint64_t frozen = 0;
    if (plan->lora) {
        t_dense = ceil_div(plan->adapters, gs_mul(par->tensor, par->pipeline, ovf));
        t_experts = 0;
        frozen = frozen_base_bytes(w, plan, &s, e, ovf);
    }
    e->trainable_parameters = plan->lora ? plan->adapters : e->parameters;

    uint64_t weights = gs_add(bytes_of(t_dense, bpp.weights, ovf), bytes_of(t_experts, bpp.weights, ovf),
                              ovf);
    weights = gs_add(weights, frozen, ovf);
    uint64_t grads_dense = bytes_of(t_dense, bpp.gradients, ovf);
    uint64_t grads_experts = bytes_of(t_experts, bpp.gradients, ovf);
    uint64_t opt_dense = bytes_of(t_dense, bpp.optimizer, ovf);
    uint64_t opt_experts = bytes_of(t_experts, bpp.optimizer, ovf);
    if (plan->tr.optimizer == GS_OPT_ADAFACTOR && m->has_arch) {
        /* the factored second moment of the model, this GPU's share of it (exact without
         * tensor or pipeline parallelism, in proportion to the parameters with them) */
        const uint64_t whole = adafactor_elements(&m->arch, &plan->tr, plan->lora, ovf);
        const uint64_t trainable = plan->lora ? plan->adapters : e->parameters;
        const uint64_t mine = gs_add(t_dense, t_experts, ovf);
        const uint64_t share = trainable > 0 && mine < trainable
                                   ? ceil_div(gs_mul(whole, mine, ovf), trainable)
                                   : whole;
        opt_dense = gs_add(opt_dense, gs_mul(4, share, ovf), ovf);
    }
    if (zero == 3) {
        /* weights sharded: dense and frozen over dp, experts over their own group */
        weights = gs_add(ceil_div(gs_add(bytes_of(t_dense, bpp.weights, ovf), frozen, ovf), dp),
                         ceil_div(bytes_of(t_experts, bpp.weights, ovf), expert_dp), ovf);
    }
    if (zero >= 2) {
        grads_dense = ceil_div(grads_dense, dp);
        grads_experts = ceil_div(grads_experts, expert_dp);
    }
    if (shard_optimizer) {
        opt_dense = ceil_div(opt_dense, dp);
        opt_experts = ceil_div(opt_experts, expert_dp);
    }
    uint64_t grads = gs_add(grads_dense, grads_experts, ovf);
    uint64_t optim = gs_add(opt_dense, opt_experts, ovf);
    const unsigned fsdp_version = par->fsdp_version ? par->fsdp_version : plan->rules.fsdp_version;
    if (plan->lora && par->fsdp && fsdp_version == 1 && par->fsdp_use_orig_params) {
        /* FSDP1 flattens a unit's parameters into one FlatParameter; with frozen and
         * trainable parameters in it (use_orig_params=True), its gradient covers the frozen
         * ones too (PyTorch's FullyShardedDataParallel notes on use_orig_params and frozen
         * parameters), sharded like the base */
        const uint64_t frozen_grads = zero >= 2 ? ceil_div(frozen, dp) : frozen;
        grads = gs_add(grads, frozen_grads, ovf);
        assume_value(e, "fsdp1_frozen_gradient_bytes", frozen_grads,
                     "FSDP1 with use_orig_params: each unit's FlatParameter mixes the frozen base "
                     "and the adapters, so its gradient is allocated for the frozen parameters "
                     "too",
                     "PyTorch FullyShardedDataParallel docs (use_orig_params, frozen parameters); "
                     "FSDP2's per-parameter sharding allocates none");
    }

    uint64_t host = 0;
    if (par->offload != GS_OFFLOAD_NONE) {
        /* ZeRO-Offload: optimizer states and fp32 gradients live on the host */
        const uint64_t fp32_grads = ceil_div(gs_mul(gs_add(t_dense, t_experts, ovf), 4, ovf), dp);
        host = gs_add(optim, fp32_grads, ovf);
        optim = 0;
        grads = 0;
        if (par->offload == GS_OFFLOAD_OPTIMIZER_AND_PARAMS) {
            host = gs_add(host, weights, ovf);
            weights = 0;
        }
        const uint64_t world = gs_parallelism_world(par);
        e->host_bytes_per_node = gs_mul(host, par->gpus_per_node < world ? par->gpus_per_node : world,
                                        ovf);
        assume(e, "offload",
               par->offload == GS_OFFLOAD_OPTIMIZER
                   ? "ZeRO-Offload: optimizer states and fp32 gradients on the host; the GPU "
                     "keeps the 16-bit weights and gradient buckets"
                   : "ZeRO-Infinity (CPU): weights, optimizer states and fp32 gradients on the "
                     "host; the GPU keeps the gathered working set",
               "DeepSpeed estimate_zero2/zero3_model_states_mem_needs; estimation.md 2.4");
    }
    e->per_gpu.weights_bytes = weights;
    e->per_gpu.gradients_bytes = grads;
    e->per_gpu.optimizer_bytes = optim;
    peak_extras(m, plan, e, &s, bpp, t_dense, frozen, x, ovf);

    if (zero == 3 && m->has_arch && plan->deepspeed) {
        /* the largest module is gathered whole, with its gradient (DeepSpeed: 4 * largest_layer) */
        x->gathered_module = bytes_of(e->params.largest_module, gs_add(bpp.weights, bpp.gradients, ovf), ovf);
        assume_value(e, "zero3_gathered_module_bytes", x->gathered_module,
                     "ZeRO-3 gathers the largest single module's weights and gradients whole",
                     "DeepSpeed estimate_zero3_model_states_mem_needs (largest_layer_memory = 4 * "
                     "largest_layer_params); estimation.md 2.3");
    } else if (zero == 3 && !m->has_arch) {
        warn(e, "zero3_working_set_not_estimated",
             "a raw parameter count has no module sizes, so the gathered working set of ZeRO-3 "
             "or FSDP is not included");
    }
    if (s.vocab_padding)
        assume_value(e, "vocab_padding_parameters", s.vocab_padding,
                     "vocabulary padded to a multiple of 128 x tensor parallelism (embedding, and "
                     "the head when untied)",
                     "Megatron-LM build_tokenizer.py make_vocab_size_divisible_by; estimation.md 2.5");
}

/* The activation element sizes a run computes in: 16-bit unless the weights
 * train in fp32 (a LoRA base computes in its own dtype, whatever regime the
 * adapters take); autocast over fp32 weights keeps the residual stream in
 * fp32. */
static void activation_dtypes(const struct gs_workload *w, const struct train_plan *plan,
                              uint64_t *element, uint64_t *residual, bool *autocast)
{
    const bool fp32_base = w->weights == GS_DTYPE_FP32;
    *autocast = plan->regime == GS_REGIME_AMP;
    if (plan->lora) {
        *element = fp32_base && !*autocast ? 4 : 2;
        *residual = fp32_base ? 4 : 2;
        return;
    }
    *element = plan->regime == GS_REGIME_FP32 ? 4 : 2;
    *residual = plan->regime == GS_REGIME_FP32 || *autocast ? 4 : 2;
}

static bool activations(const struct gs_model_spec *m, const struct gs_workload *w,
                        const struct train_plan *plan, struct gs_estimate *e,
                        struct gs_activation_result *r, bool *ovf)
{
    const struct gs_training *tr = &plan->tr;
    memset(r, 0, sizeof(*r));
    if (!m->has_arch) {
        warn(e, "activations_not_estimated",
             "a raw parameter count has no layer shapes, so activations are not included in "
             "total_bytes; name a catalog model or send its config");
        return false;
    }
    if (tr->batch_size == 0 || tr->sequence_length == 0) {
        warn(e, "activations_not_estimated",
             "the request gives no training.batch_size or training.sequence_length, so "
             "activations are not included in total_bytes");
        return false;
    }
    uint64_t element, residual;
    bool autocast;
    activation_dtypes(w, plan, &element, &residual, &autocast);
    struct gs_activation_input in = {
        .arch = &m->arch,
        .batch_size = tr->batch_size,
        .sequence_length = tr->sequence_length,
        .micro_batches = tr->gradient_accumulation_steps,
        .element_bytes = element,
        .recompute = tr->recompute,
        .flash_attention = tr->flash_attention,
        .parallelism = &plan->par,
        .rules = &plan->rules,
        .autocast = autocast,
        .residual_bytes = residual,
        .trainable = plan->lora ? GS_TRAIN_ADAPTERS : GS_TRAIN_ALL,
        .adapters = tr,
        .quantized_base = tr->method == GS_METHOD_QLORA,
    };
    if (!gs_activation_bytes(&in, r)) {
        *ovf = true;
        return false;
    }
    assume(e, "activations",
           "per layer, the tensors autograd saves: norm inputs (an eager RMSNorm's fp32 copy), "
           "the inputs of linears whose weight trains, carries an adapter or is a 4-bit "
           "bitsandbytes layer, LoRA dropout copies, Q/K/V as the attention kernel takes them "
           "(repeated to every head where the framework repeats K/V), the attention output and "
           "o_proj's contiguous copy, the MLP's gate, activation (by what the function keeps), up "
           "and down inputs, q/k norms over Q and K, dropout masks, the fp32 log-sum-exp (SDPA, "
           "flash, flex) or eager attention's softmax output and its 16-bit copy; PEFT's fp32 "
           "adapters keep their own copy of their input; autocast keeps 16-bit copies per linear "
           "and fp32 norms and softmax; compiled code keeps no fp32 intermediate",
           "Korthikanti et al. 2022 (arXiv 2205.05198) generalized in estimation.md 3.2-3.5; the "
           "framework's code named in training_framework");
    return true;
}

/* The allocator's slack over the allocated peak, in thousandths: about 5%
 * with expandable segments (segments grow in place, so freed blocks are
 * reused; Megatron-LM's 1.05 factor on its theoretical memory), 10%
 * without (the low end of the 10-25% reserved-over-allocated the measured
 * runs in tests/fixtures/calibration/training-measured.json show). */
#define FRAGMENTATION_EXPANDABLE_PERMILLE 50
#define FRAGMENTATION_PERMILLE 100

static void training_overheads(const struct gs_workload *w, const struct train_plan *plan,
                               const struct state_extra *x, const struct gs_activation_result *act,
                               bool has_activations, struct gs_estimate *e, bool *ovf)
{
    const struct gs_overrides *o = &w->overrides;
    const struct gs_parallelism *par = &plan->par;
    const struct gs_framework_rules *rules = &plan->rules;
    const uint64_t world = e->gpu_count;
    struct gs_peak_input pk;
    memset(&pk, 0, sizeof(pk));
    pk.weights = e->per_gpu.weights_bytes;
    pk.optimizer = e->per_gpu.optimizer_bytes;
    pk.gradients = e->per_gpu.gradients_bytes;
    /* gradients outlive backward with accumulation (they sum over micro-batches), when the
     * framework keeps them (zero_grad without set_to_none, Megatron's buffer, DeepSpeed's
     * partitions) */
    pk.grads_persist = rules->grads_persist || plan->tr.gradient_accumulation_steps > 1 ||
                       (plan->deepspeed && par->zero_stage > 0);
    if (plan->deepspeed && par->zero_stage > 0) {
        const uint64_t buckets =
            o->has_zero_bucket_bytes ? o->zero_bucket_bytes
            : par->zero_stage == 3   ? GS_ZERO3_BUCKET_BYTES
                                     : GS_ZERO12_BUCKET_BYTES;
        pk.unsharded = gs_add(buckets, x->gathered_module, ovf);
        assume_value(e, "zero_bucket_bytes", buckets,
                     par->zero_stage == 3 ? "ZeRO-3 reduce bucket (5e8 elements) and prefetch "
                                            "bucket (5e7 elements) at 2 bytes each"
                                          : "ZeRO-1/2 reduce and allgather buckets, 5e8 elements "
                                            "each at 2 bytes (overlap_comm off; it multiplies "
                                            "them by 4.5)",
                     "deepspeed/runtime/zero/config.py defaults; HF DeepSpeed docs on "
                     "overlap_comm; estimation.md 2.4");
    } else if (par->zero_stage > 0) {
        /* FSDP: FULL_SHARD gathers the root (embedding, norm, head) and, in forward and
         * backward, the current and the prefetched unit; each unit's gradient exists whole
         * until its reduce-scatter (FSDP2 fully_shard, FSDP1 FlatParameter) */
        if (par->zero_stage == 3)
            pk.unsharded = gs_add(x->root_bytes, gs_mul(2, x->unit_bytes, ovf), ovf);
        if (par->zero_stage >= 2)
            pk.unsharded_grad = x->unit_grad_bytes;
        assume_value(e, "fsdp_unsharded_bytes", gs_add(pk.unsharded, pk.unsharded_grad, ovf),
                     "FSDP working set: the root unit plus the current and prefetched layer units "
                     "gathered at their working dtype, and one unit's gradient at the reduce "
                     "dtype; no DeepSpeed buckets",
                     "PyTorch FSDP2 fully_shard (reshard_after_forward, prefetch of the next "
                     "unit) and FSDP1 FULL_SHARD notes; torchtitan MixedPrecisionPolicy "
                     "reduce_dtype float32");
    }
    if (has_activations) {
        if (par->pipeline > 1) {
            pk.stored = act->total_bytes;
        } else {
            pk.stored = act->stored_bytes;
            pk.loss = act->logits_bytes;
        }
        pk.layer_working = act->layer_working_bytes;
    }
    if (plan->regime == GS_REGIME_AMP && !plan->lora) {
        /* autocast casts each fp32 weight to 16 bits once per forward (its weight cache) and
         * F.linear saves that copy for the input gradient until the layer's backward */
        pk.autocast_copies = gs_mul(2, x->linear_params, ovf);
        assume_value(e, "autocast_weight_copies_bytes", pk.autocast_copies,
                     "autocast's 16-bit copies of the linear weights, saved by each linear for "
                     "backward",
                     "torch/csrc/autograd autocast weight cache (cached_cast); F.linear saves "
                     "its weight");
    }
    /* DeepSpeed steps with its fused (or, offloaded, CPU) Adam; an offloaded optimizer runs
     * on the host */
    const bool steps_here = !rules->optimizer_in_backward && !plan->deepspeed &&
                            par->offload == GS_OFFLOAD_NONE;
    if (plan->tr.optimizer == GS_OPT_ADAFACTOR && e->has_breakdown && !plan->lora && steps_here) {
        /* transformers' Adafactor steps one parameter at a time, each in fp32: a 16-bit
         * parameter and its gradient are copied to fp32 (p.float(), grad.float()), and
         * `(grad**2) + eps`, _approx_sq_grad's product and `-update` each make a full-size
         * temporary beside `update`: two at once. The largest parameter sets it. */
        const uint64_t copies = plan->regime == GS_REGIME_BF16_PURE ? 4 : 2;
        pk.step_temporaries = gs_mul(gs_mul(e->params.largest_module, 4, ovf), copies, ovf);
        assume_value(e, "optimizer_step_temporaries_bytes", pk.step_temporaries,
                     "Adafactor's step over the largest parameter: two fp32 full-size "
                     "temporaries (and fp32 copies of a 16-bit parameter and its gradient)",
                     "transformers optimization.py Adafactor.step");
    } else if (rules->foreach_step && steps_here) {
        pk.step_temporaries = x->moment_bytes;
    }
    pk.workspace = overhead_value(o->has_cublas_workspace_bytes, o->cublas_workspace_bytes,
                                  GS_CUBLAS_WORKSPACE_BYTES);
    pk.optimizer_in_backward = rules->optimizer_in_backward;
    struct gs_peak peak;
    if (!gs_train_peak(&pk, &peak)) {
        *ovf = true;
        return;
    }
    const uint64_t permille = o->has_fragmentation_permille ? o->fragmentation_permille
                              : rules->expandable_segments ? FRAGMENTATION_EXPANDABLE_PERMILLE
                                                           : FRAGMENTATION_PERMILLE;
    const uint64_t slack = ceil_div(gs_mul(peak.allocated, permille, ovf), 1000);
    const uint64_t context = overhead_value(o->has_cuda_context_bytes, o->cuda_context_bytes,
                                            GS_CUDA_CONTEXT_BYTES);
    uint64_t comm = 0;
    if (world > 1)
        comm = o->has_nccl_bytes ? o->nccl_bytes
                                 : gs_runtime_comm_bytes((enum gs_link)w->gpu.link, world,
                                                         world > par->gpus_per_node);
    e->has_peak = true;
    e->peak_phase = peak.phase;
    e->peak = peak;
    e->saved_activation_bytes = gs_add(pk.stored, pk.loss, ovf);
    e->per_gpu.gradients_bytes = peak.gradients;
    e->per_gpu.activations_bytes = peak.activations;
    e->per_gpu.peak_allocated_bytes = peak.allocated;
    e->per_gpu.peak_phase = (uint8_t)peak.phase;
    e->per_gpu.peak_reserved_bytes = gs_add(peak.allocated, slack, ovf);
    e->per_gpu.overhead_bytes = gs_add(gs_add(peak.transient, slack, ovf),
                                       gs_add(context, comm, ovf), ovf);
    if (pk.step_temporaries && plan->tr.optimizer != GS_OPT_ADAFACTOR)
        assume_value(e, "optimizer_step_temporaries_bytes", pk.step_temporaries,
                     "the foreach AdamW step's temporary list, one moment's size "
                     "(torch._foreach_sqrt of exp_avg_sq)",
                     "torch/optim/adamw.py _multi_tensor_adamw");
    assume_value(e, "peak_phase_bytes", peak.allocated,
                 peak.phase == GS_PHASE_BACKWARD_START
                     ? "the peak is at backward start: weights, optimizer states, saved "
                       "activations and the loss's backward over the logits"
                 : peak.phase == GS_PHASE_BACKWARD_END
                     ? "the peak is at backward end: weights, optimizer states, every gradient "
                       "and one layer's working set"
                     : "the peak is the optimizer step: weights, states, gradients and the step's "
                       "temporaries",
                 "estimation.md 3.4; gs/train_peak.h");
    assume_value(e, "fragmentation_permille", permille,
                 "caching-allocator slack of reserved over allocated memory, in thousandths",
                 rules->expandable_segments
                     ? "expandable segments: Megatron-LM's 1.05 factor on theoretical memory"
                     : "no expandable segments: the low end of the 10-25% reserved-over-allocated "
                       "slack in measured runs (tests/fixtures/calibration/"
                       "training-measured.json)");
    assume_context(e, o, context);
    assume_value(e, "cublas_workspace_bytes", pk.workspace,
                 "cuBLAS workspace per GPU, allocated through PyTorch's caching allocator (so "
                 "inside max_memory_allocated)",
                 "pytorch/pytorch PR #120925 and PR #89027; estimation.md 4.5");
    if (world > 1)
        assume_value(e, "nccl_bytes", comm,
                     o->has_nccl_bytes ? "NCCL buffers per GPU, as given in overrides"
                                       : "NCCL buffers per GPU by the interconnect of the named "
                                         "GPU's board (PCIe when none is named) and whether the "
                                         "group spans nodes",
                     "gs/runtime.h gs_runtime_comm_bytes; NCCL_BUFFSIZE 4 MB per channel per "
                     "peer (NVIDIA/nccl #864, #986)");
}

static void explain_rules(const struct train_plan *plan, struct gs_estimate *e)
{
    const struct gs_framework_rules *r = &plan->rules;
    assume(e, "training_framework", r->label, r->source);
    e->loss = r->loss;
    assume(e, "loss",
           r->loss == GS_LOSS_FP32_RETAINED
               ? "fp32_retained: the fp32 logits the model returns stay alive through backward, "
                 "with log_softmax's output, its gradient and the input gradient (16 bytes per "
                 "logit)"
           : r->loss == GS_LOSS_FP32
               ? (r->keeps_16bit_logits
                      ? "fp32: upcast inside the loss; log_softmax output, its gradient and the "
                        "input gradient in fp32 plus the 16-bit logits the caller holds (14 bytes "
                        "per logit)"
                      : "fp32: upcast inside the loss, the logits deleted; log_softmax output, "
                        "its gradient and the input gradient in fp32 (12 bytes per logit)")
           : r->loss == GS_LOSS_CHUNKED
               ? (r->compile ? "chunked and compiled: each chunk's fused kernel keeps its 16-bit "
                               "input, plus one chunk's 16-bit gradient"
                             : "chunked: every chunk's saved log_softmax output, one chunk's "
                               "gradients at a time, and the 16-bit logits when the caller holds "
                               "them")
               : "fused linear-cross-entropy: the logits are never materialised whole",
           "framework.c gs_loss_eighths_per_logit; transformers loss_utils.py, torchtune "
           "CEWithChunkedOutputLoss, LitGPT chunked_cross_entropy, Liger "
           "LigerFusedLinearCrossEntropyLoss");
}

/* The attention path sized: the request's (SDPA by default), except that a model whose
 * transformers code has no fused path (T5's relative-position bias is added to the scores:
 * modeling_t5.py T5Attention, no _supports_sdpa) runs eager whatever is asked. */
static void attention_path(const struct gs_model_spec *m, struct gs_training *tr,
                           struct gs_estimate *e)
{
    if (!tr->attn_impl_given) /* callers that set only the older flag */
        tr->attn_impl = tr->flash_attention ? GS_ATTN_SDPA : GS_ATTN_EAGER;
    const enum gs_framework fw = tr->framework.framework;
    const bool transformers_code = fw == GS_FW_TRANSFORMERS || fw == GS_FW_DEEPSPEED;
    if (m->has_arch && m->arch.attention_eager_only && transformers_code &&
        !gs_attn_impl_materializes(tr->attn_impl)) {
        warn(e, "attention_eager_only",
             "this model type has only an eager attention path in transformers (the position "
             "bias is added to the score matrix), so it is sized as attn_implementation "
             "\"eager\" whatever the request asks");
        tr->attn_impl = GS_ATTN_EAGER;
    }
    tr->flash_attention = !gs_attn_impl_materializes(tr->attn_impl);
    e->attn_impl = tr->attn_impl;
}

unsigned gs_workload_pipeline_zero_max(const struct gs_workload *w)
{
    if (!w->parallelism.fsdp)
        return 1;
    return w->training.framework.framework == GS_FW_TORCHTITAN ? 3 : 0;
}

static enum gs_status compute_training(const struct gs_model_spec *m, const struct gs_workload *w,
                                       struct gs_estimate *e, struct gs_error *err)
{
    struct train_plan plan;
    memset(&plan, 0, sizeof(plan));
    normalize(w, &plan.tr, &plan.par);
    enum gs_status st =
        gs_parallelism_validate(&plan.par, m->has_arch ? &m->arch : NULL, err);
    if (st != GS_OK)
        return st;
    st = resolve_method(m, w, &plan, e, err);
    if (st == GS_OK)
        st = resolve_regime(w, &plan, e, err);
    if (st != GS_OK)
        return st;
    attention_path(m, &plan.tr, e);
    gs_framework_resolve(&plan.tr.framework, plan.tr.flash_attention, &plan.rules);
    /* ZeRO stages given as numbers without a framework keep their DeepSpeed meaning; FSDP's
     * names (or a framework that shards with FSDP) mean FSDP */
    plan.deepspeed = plan.rules.deepspeed_buckets ||
                     (!plan.tr.framework.framework_given && !plan.par.fsdp &&
                      (plan.par.zero_stage > 0 || plan.par.offload != GS_OFFLOAD_NONE));
    if (plan.par.pipeline > 1 && plan.par.zero_stage > gs_workload_pipeline_zero_max(w))
        return gs_error_add(
            err, GS_ERR_INVALID, "/parallelism/zero_stage",
            plan.par.fsdp ? "FSDP shards a pipeline-parallel model only under torchtitan (its "
                            "parallelize applies fully_shard to each stage's model part); %s has "
                            "no pipeline schedule for it: use pipeline 1, or framework torchtitan"
                          : "DeepSpeed's pipeline engine runs ZeRO stage 0 or 1 only "
                            "(deepspeed/runtime/pipe/engine.py: ZeRO-2 and ZeRO-3 are "
                            "incompatible with pipeline parallelism): use zero_stage 1, or "
                            "pipeline 1%s",
            plan.par.fsdp ? plan.rules.label : "");

    bool ovf = false;
    e->gpu_count = gs_parallelism_world(&plan.par);
    struct state_extra extra;
    model_states(m, w, &plan, e, &extra, &ovf);
    struct gs_activation_result act;
    const bool has_activations = activations(m, w, &plan, e, &act, &ovf);
    explain_rules(&plan, e);

    assume(e, "training_regime", regime_detail(plan.regime),
           plan.lora && plan.tr.regime == GS_REGIME_NONE
               ? "PEFT get_peft_model autocast_adapter_dtype=True upcasts adapters to fp32; "
                 "estimation.md 2.7"
               : "DeepSpeed memory.rst (fp32: 16 B/param with Adam); ZeRO paper K = 12 for mixed "
                 "precision; estimation.md 2.1");
    assume(e, "optimizer", optimizer_detail(plan.tr.optimizer),
           "PyTorch and bitsandbytes optimizer state layouts; estimation.md 2.1");
    if (plan.lora)
        assume_value(e, "lora_adapter_parameters", plan.adapters,
                     "r * (d_in + d_out) per adapted linear layer; the base is frozen (weights "
                     "only, no gradients or optimizer states)",
                     "PEFT LoRA (lora_A r x d_in, lora_B d_out x r); estimation.md 2.7");
    if (plan.par.zero_stage > 0)
        assume(e, "zero_sharding",
               plan.par.zero_stage == 1   ? "ZeRO-1: optimizer states sharded over data x context"
               : plan.par.zero_stage == 2 ? "ZeRO-2 / SHARD_GRAD_OP: optimizer states and "
                                            "gradients sharded over data x context"
                                          : "ZeRO-3 / FULL_SHARD: optimizer states, gradients and "
                                            "weights sharded over data x context",
               "ZeRO paper (arXiv 1910.02054) Figure 1 formulas; estimation.md 2.2");
    else if (plan.par.distributed_optimizer)
        assume(e, "zero_sharding",
               "Megatron distributed optimizer: optimizer states (with fp32 master weights) "
               "sharded over data x context",
               "Megatron-LM docs/user-guide/features/dist_optimizer.md; estimation.md 2.5");
    if (plan.par.tensor > 1 || plan.par.pipeline > 1 || plan.par.expert > 1)
        assume(e, "model_parallel_split",
               "the most loaded GPU: layers split evenly over pipeline stages, projections and "
               "embeddings over tensor ranks, norms replicated, routed experts over expert ranks; "
               "the first stage holds the embedding, the last the head",
               "Megatron-LM compute_weight_and_optimizer_memory; estimation.md 2.5");
    if (!m->has_arch && (plan.par.tensor > 1 || plan.par.pipeline > 1))
        warn(e, "even_split_assumed",
             "a raw parameter count is split evenly over tensor x pipeline ranks; real stages are "
             "uneven (embeddings and head), so the most loaded GPU holds more");

    training_overheads(w, &plan, &extra, &act, has_activations, e, &ovf);
    if (ovf)
        return gs_error_add(err, GS_ERR_RANGE, "", "the memory figures overflow 64 bits");
    return GS_OK;
}

/* A format, cache or regime the named GPU has no kernels for: answered, with
 * the rule and its source (gs/capability.h), since the user may know better. */
static void capability_warnings(const struct gs_workload *w, struct gs_estimate *e)
{
    const enum gs_hw hw = (enum gs_hw)w->gpu.hw;
    if (hw == GS_HW_UNKNOWN)
        return;
    const char *rule = NULL;
    if (w->mode == GS_MODE_INFERENCE) {
        if (!gs_hw_runs_format(hw, gs_workload_format(w), &rule) ||
            (w->serving.present && !gs_hw_runs_kv(hw, w->serving.kv_dtype, &rule)))
            warn(e, "unsupported_on_gpu", rule);
        return;
    }
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
    enum gs_status st = resolve_parameters(model, e, err);
    if (st != GS_OK)
        return st;
    e->trainable_parameters = e->parameters;
    st = workload->mode == GS_MODE_TRAINING ? compute_training(model, workload, e, err)
                                            : compute_inference(model, workload, e, err);
    if (st != GS_OK)
        return st;
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
