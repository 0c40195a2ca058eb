/* advice.c - what to change when a workload does not fit (advice.h). */
#include "gs/advice.h"
#include "gs/trl.h"

#include "gs/capability.h"
#include "gs/engines.h"
#include "gs/estimate.h"

#include <string.h>

void gs_advice_own_limits(const struct gs_workload *w, uint64_t max_gpus,
                          struct gs_plan_limits *l)
{
    gs_plan_limits_defaults(l);
    l->max_gpus = max_gpus;
    l->max_nodes_per_replica = 0; /* the asked GPUs, however many nodes they take */
    l->allow_quantization = false;
    l->zero_stages = 1u << w->parallelism.zero_stage;
    l->recompute = 1u << w->training.recompute;
    l->allow_offload = w->parallelism.offload != GS_OFFLOAD_NONE;
    l->allow_expert = w->parallelism.expert > 1;
    l->allow_accumulation = false; /* the batch as asked; a smaller one is a change below */
    l->allow_sync_each_batch = false; /* likewise the gradient sync (the change sync_each_batch) */
    l->allow_lower_max_num_seqs = false; /* and max_num_seqs (the change lower_max_num_seqs) */
}

static void add_change(struct gs_fit_change *list, size_t *n, size_t cap, const char *code,
                       const char *detail, uint64_t value, const struct gs_workload *w,
                       const struct gs_plan_limits *l, bool any_count)
{
    if (*n < cap)
        list[(*n)++] = (struct gs_fit_change){code, detail, value, *w, *l, any_count};
}

static size_t serving_changes(const struct gs_model_spec *m, const struct gs_workload *w0,
                              const struct gs_plan_limits *own, struct gs_fit_change *out,
                              size_t cap)
{
    size_t n = 0;
    struct gs_workload w = *w0;
    const struct gs_plan_limits l = *own;
    const enum gs_weight_format f = gs_workload_format(w0);
    const bool w16 = f == GS_WF_BF16 || f == GS_WF_FP16 || f == GS_WF_FP32;
    const enum gs_kv_dtype kv = w0->serving.kv_dtype;
    const bool kv_16 =
        w0->serving.present && (kv == GS_KV_AUTO || kv == GS_KV_BF16 || kv == GS_KV_FP16);
    const enum gs_kv_dtype kv8 = gs_kv_fp8_for(m->has_arch ? &m->arch : NULL);
    const char *lower_seqs = w0->serving.present
                                 ? gs_engine_ops_for(w0->serving.engine.engine)->lower_seqs_detail
                                 : NULL;
    if (lower_seqs != NULL && w0->serving.engine.max_num_seqs == 0 && m->has_arch &&
        !gs_arch_attention_only(&m->arch)) {
        /* the gentlest change, a setting: the layouts that do not start or hold the batch only
         * for the engine's default max_num_seqs, with it lowered to what their pool holds (the
         * bound is on a recurrent state's blocks: vLLM from 0.19 with a hybrid model; on the
         * states TensorRT-LLM reserves for max_batch_size sequences); the value is the plan's,
         * set once it is sized */
        struct gs_plan_limits lower = l;
        lower.allow_lower_max_num_seqs = true;
        add_change(out, &n, cap, "lower_max_num_seqs", lower_seqs, 0, &w, &lower, false);
    }
    if (kv_16) {
        w.serving.kv_dtype = kv8;
        add_change(out, &n, cap, "fp8_kv_cache",
                   kv8 == GS_KV_FP8_DS_MLA ? "store the MLA cache as fp8_ds_mla"
                                           : "store the KV cache in fp8",
                   0, &w,
                   &l, false);
        w = *w0;
    }
    if (w16) {
        w.format_given = true;
        w.format = GS_WF_FP8;
        add_change(out, &n, cap, "fp8_weights", "serve fp8 weights (per-tensor scales)", 0, &w,
                   &l, false);
        w.format = GS_WF_AWQ;
        w.group_size = 0;
        add_change(out, &n, cap, "int4_weights", "serve AWQ int4 weights (group size 128)", 0, &w,
                   &l, false);
        if (kv_16) {
            w.serving.kv_dtype = kv8;
            add_change(out, &n, cap, "int4_weights_fp8_kv_cache",
                       "AWQ int4 weights and an fp8 KV cache together", 0, &w, &l, false);
        }
        w = *w0;
    }
    add_change(out, &n, cap, "more_gpus",
               "spread one replica over more GPUs: tensor parallelism within a node, pipeline "
               "stages across nodes",
               0, &w, &l, true);
    return n;
}

/* Whether the request accumulates its micro-batches' gradients unsharded under FSDP's
 * no_sync() in a loop that can be told to sync every micro-batch instead (the estimate's
 * sync_each_batch_helps, one source for the rule). */
static bool accumulates_unsharded(const struct gs_model_spec *m, const struct gs_workload *w)
{
    if (w->training.gradient_accumulation_steps < 2)
        return false;
    struct gs_estimate e;
    struct gs_error err;
    gs_error_init(&err);
    return gs_estimate_compute(m, w, &e, &err) == GS_OK && e.sync_each_batch_helps;
}

/* The request with a fused attention path (flash_attention_2 or _3). */
static struct gs_workload with_attention(const struct gs_workload *w0, enum gs_attn_impl impl)
{
    struct gs_workload w = *w0;
    w.training.attn_impl = impl;
    w.training.attn_impl_given = true;
    w.training.flash_attention = true;
    return w;
}

/* Whether the request runs a described model through transformers' model code (transformers,
 * DeepSpeed), and then the attention path it asks (*impl: the older flash_attention flag read as
 * SDPA or eager where no attn_implementation is named). */
static bool transformers_attention(const struct gs_model_spec *m, const struct gs_workload *w,
                                   enum gs_attn_impl *impl)
{
    const struct gs_training *t = &w->training;
    const enum gs_framework fw = t->framework.framework;
    *impl = t->attn_impl_given ? t->attn_impl : t->flash_attention ? GS_ATTN_SDPA : GS_ATTN_EAGER;
    return m->has_arch && gs_framework_transformers_code(fw);
}

/* Whether the request runs eager attention because the model has no SDPA path (GPT-OSS's sinks:
 * GptOssPreTrainedModel._supports_sdpa False, so transformers defaults to eager), where the
 * kernels hub's sink-aware FlashAttention 3 (attn_implementation
 * "kernels-community/vllm-flash-attn3", which takes s_aux) keeps only its log-sum-exp. */
static bool sink_flash_helps(const struct gs_model_spec *m, const struct gs_workload *w)
{
    enum gs_attn_impl impl;
    return transformers_attention(m, w, &impl) && m->arch.attention_no_sdpa &&
           (impl == GS_ATTN_EAGER || impl == GS_ATTN_SDPA);
}

/* Whether flash_attention_2 keeps less than the attention path the request runs: where the
 * model's transformers code runs (transformers, DeepSpeed) with a flash path for the type, and
 * that path is eager (the score matrix per layer) or SDPA over padded micro-batches whose mask
 * costs more (the estimate's padding_mask_bytes: flash-attn unpads the batch and takes no
 * mask, modeling_flash_attention_utils.py _upad_input) than what flash-attn keeps instead: an
 * MLA model's V and output padded to the query's head width (activation.c), which can outweigh
 * the mask, so the two peaks are compared. */
static bool flash_attention_helps(const struct gs_model_spec *m, const struct gs_workload *w)
{
    enum gs_attn_impl impl;
    if (!transformers_attention(m, w, &impl) || m->arch.attention_eager_only ||
        m->arch.attention_no_sdpa)
        return false;
    if (impl == GS_ATTN_EAGER)
        return true;
    if (impl != GS_ATTN_SDPA || !gs_training_padding_mask(&w->training))
        return false;
    struct gs_estimate e;
    if (gs_estimate_compute(m, w, &e, NULL) != GS_OK || e.padding_mask_bytes == 0)
        return false;
    const uint64_t sdpa_peak = e.per_gpu.peak_allocated_bytes;
    const struct gs_workload flash = with_attention(w, GS_ATTN_FLASH2);
    return gs_estimate_compute(m, &flash, &e, NULL) == GS_OK &&
           e.per_gpu.peak_allocated_bytes < sdpa_peak;
}

/* Whether the request trains a recurrent model through transformers' torch fallback where the
 * fused kernels would run and keep less: Mamba's and Jamba's sequential scan (a request that asks
 * `torch`, or a Jamba config with use_mamba_kernels false), Mamba2's naive chunked SSD, Qwen3.5's
 * chunked Gated DeltaNet; the two peaks are compared. Not where the kernels refuse the request
 * (mamba-ssm's fp32 B and C under autocast: the estimate's warning). Where a
 * layer is not counted (sized by its projections, an undercount) the kernels are proposed only when
 * they keep less than even that. */
static bool fused_kernels_help(const struct gs_model_spec *m, const struct gs_workload *w)
{
    struct gs_estimate e;
    if (!m->has_arch || gs_estimate_compute(m, w, &e, NULL) != GS_OK ||
        !e.recurrent_kernels_sized || e.recurrent_kernels != GS_RECURRENT_TORCH)
        return false;
    const uint64_t torch_peak = e.per_gpu.peak_allocated_bytes;
    struct gs_workload fused = *w;
    fused.training.recurrent_kernels = GS_RECURRENT_FUSED;
    fused.training.recurrent_kernels_given = true;
    if (gs_estimate_compute(m, &fused, &e, NULL) != GS_OK)
        return false;
    for (size_t i = 0; i < e.warning_count; i++)
        if (strcmp(e.warnings[i].code, "recurrent_kernels_dtype") == 0 ||
            strcmp(e.warnings[i].code, "recurrent_scan_not_counted") == 0)
            return false;
    return e.per_gpu.peak_allocated_bytes < torch_peak;
}

/* Whether torch.compile would lower the peak of a torchtitan or torchtune run that does not ask
 * for it: both recipes take one flag (torchtitan `--compile.enable`, 0.1's `--training.compile`;
 * torchtune's `compile: True`) that compiles every block and the loss (torchtitan from 0.1,
 * build_cross_entropy_loss; torchtune's training.compile_loss), so the fused code keeps no fp32
 * intermediates and torchtitan's loss 4 bytes a logit, torchtune's chunked one 2 and a chunk's
 * gradient, instead of 12 (framework.c gs_loss_eighths_per_logit); the two peaks are
 * compared. */
static bool compile_helps(const struct gs_model_spec *m, const struct gs_workload *w)
{
    const struct gs_training_knobs *k = &w->training.framework;
    if (!m->has_arch || !k->framework_given || k->compile == GS_KNOB_ON ||
        (k->framework != GS_FW_TORCHTITAN && k->framework != GS_FW_TORCHTUNE))
        return false;
    struct gs_estimate e;
    if (gs_estimate_compute(m, w, &e, NULL) != GS_OK)
        return false;
    const uint64_t eager_peak = e.per_gpu.peak_allocated_bytes;
    struct gs_workload compiled = *w;
    compiled.training.framework.compile = GS_KNOB_ON;
    return gs_estimate_compute(m, &compiled, &e, NULL) == GS_OK &&
           e.per_gpu.peak_allocated_bytes < eager_peak;
}

/* The workload's adapters over an nf4 base with double quantization, with what TRL makes of a
 * 4-bit model where the request runs TRL's SFTTrainer. */
static void to_qlora(struct gs_workload *w)
{
    w->training.method = GS_METHOD_QLORA;
    w->training.method_given = true;
    w->weights = GS_DTYPE_INT4;
    w->format_given = true;
    w->format = GS_WF_NF4_DQ;
    w->training.double_quant = true;
    gs_trl_redo(&w->training, &w->parallelism, w->weights);
}

static size_t training_changes(const struct gs_model_spec *m, const struct gs_workload *w0,
                               const struct gs_plan_limits *own, struct gs_fit_change *out,
                               size_t cap)
{
    size_t n = 0;
    struct gs_workload w = *w0;
    struct gs_plan_limits l = *own;
    if (w0->training.method == GS_METHOD_LORA && w0->weights == GS_DTYPE_FP32 && m->has_arch) {
        /* a frozen base loaded in fp32 (transformers 4.x's default, TRL's from 0.27): the gentlest
         * change of all, one loading argument */
        w.weights = GS_DTYPE_BF16;
        w.format_given = true;
        w.format = GS_WF_BF16;
        gs_trl_redo(&w.training, &w.parallelism, w.weights);
        add_change(out, &n, cap, "bf16_base",
                   "load the frozen base in bf16 (from_pretrained dtype=torch.bfloat16; under "
                   "TRL, model_init_kwargs={\"dtype\": \"bfloat16\"}): half its bytes, and "
                   "autocast makes no 16-bit copies of its weights",
                   0, &w, &l, false);
        w = *w0;
    }
    if (accumulates_unsharded(m, w0)) {
        /* the same micro-batches, each reduce-scattered: the gradients stay sharded */
        w.training.framework.sync_each_batch = GS_KNOB_ON;
        add_change(out, &n, cap, "sync_each_batch",
                   "reduce-scatter every micro-batch's gradients (accelerate's "
                   "GradientAccumulationPlugin(sync_each_batch=True)) instead of accumulating them "
                   "unsharded under FSDP's no_sync()",
                   0, &w, &l, false);
        w = *w0;
    }
    if (flash_attention_helps(m, w0)) {
        w = with_attention(w0, GS_ATTN_FLASH2);
        add_change(out, &n, cap, "flash_attention_2",
                   "attn_implementation \"flash_attention_2\" (the flash-attn package, Ampere or "
                   "newer): the kernel keeps a log-sum-exp, not the score matrix, and takes "
                   "padded micro-batches unpadded, without a mask",
                   0, &w, &l, false);
        w = *w0;
    }
    if (sink_flash_helps(m, w0)) {
        w = with_attention(w0, GS_ATTN_FLASH3);
        add_change(out, &n, cap, "flash_attention_3",
                   "attn_implementation \"kernels-community/vllm-flash-attn3\" (the kernels hub's "
                   "FlashAttention 3 with attention sinks, Hopper): the kernel keeps a "
                   "log-sum-exp, not the eager path's score matrix",
                   0, &w, &l, false);
        w = *w0;
    }
    if (fused_kernels_help(m, w0)) {
        w.training.recurrent_kernels = GS_RECURRENT_FUSED;
        w.training.recurrent_kernels_given = true;
        add_change(out, &n, cap, "recurrent_kernels_fused",
                   "train the recurrent layers through their fused kernels (training."
                   "recurrent_kernels \"fused\": mamba-ssm and causal-conv1d for Mamba, loaded "
                   "with use_mamba_kernels=True where the config turns them off; "
                   "flash-linear-attention for Gated DeltaNet and Kimi Delta Attention): a few "
                   "tensors a token rather than "
                   "the torch fallback's fp32 states",
                   0, &w, &l, false);
        w = *w0;
    }
    if (compile_helps(m, w0)) {
        w.training.framework.compile = GS_KNOB_ON;
        add_change(out, &n, cap, "compile",
                   "compile the model (torchtitan --compile.enable, torchtune compile: True): "
                   "the compiled blocks keep no fp32 intermediates, and the loss compiled with "
                   "them (torchtitan from 0.1, torchtune's chunked loss) keeps the logits at 16 "
                   "bits instead of fp32",
                   0, &w, &l, false);
        w = *w0;
    }
    if (w0->training.batch_size > 1) {
        /* the same optimization (sequences per optimizer step) in smaller passes: activations
         * shrink with the micro-batch, nothing else changes */
        l.allow_accumulation = true;
        add_change(out, &n, cap, "gradient_accumulation",
                   "a smaller micro-batch with more gradient accumulation steps, the global batch "
                   "kept (the plan's micro_batch_size and gradient_accumulation_steps)",
                   0, &w, &l, false);
        l = *own;
    }
    if (w0->training.recompute != GS_RECOMPUTE_FULL) {
        if (w0->training.recompute == GS_RECOMPUTE_NONE) {
            w.training.recompute = GS_RECOMPUTE_SELECTIVE;
            l.recompute = 1u << GS_RECOMPUTE_SELECTIVE;
            add_change(out, &n, cap, "selective_recomputation",
                       "recompute attention's softmax and dropout in the backward pass", 0, &w, &l,
                       false);
        }
        w = *w0;
        l = *own;
        w.training.recompute = GS_RECOMPUTE_FULL;
        l.recompute = 1u << GS_RECOMPUTE_FULL;
        add_change(out, &n, cap, "full_recomputation",
                   "checkpoint each layer's input and recompute the layer in the backward pass", 0,
                   &w, &l, false);
        if (w0->training.batch_size > 1) {
            /* the two together, the first recipe of every memory guide (transformers' "efficient
             * training on a single GPU": gradient accumulation, then gradient checkpointing):
             * what is left of the activations is one layer's working set and the checkpoints of
             * the smallest micro-batch */
            l.allow_accumulation = true;
            add_change(out, &n, cap, "full_recomputation_accumulation",
                       "checkpoint each layer's input and run smaller micro-batches, accumulating "
                       "the rest (the global batch kept)",
                       0, &w, &l, false);
        }
        w = *w0;
        l = *own;
    }
    if (w0->parallelism.zero_stage < 3) {
        l.zero_stages = 1u << 3;
        add_change(out, &n, cap, "zero_3",
                   "shard weights, gradients and optimizer states over the data-parallel GPUs "
                   "(ZeRO-3 / FSDP full_shard)",
                   3, &w, &l, false);
        l = *own;
    }
    if (w0->parallelism.offload == GS_OFFLOAD_NONE) {
        l.zero_stages = (1u << 2) | (1u << 3);
        l.allow_offload = true;
        add_change(out, &n, cap, "offload",
                   "ZeRO-Offload: optimizer states (and with ZeRO-3 the parameters) in host memory",
                   0, &w, &l, false);
        l = *own;
    }
    if (w0->training.optimizer == GS_OPT_ADAMW || w0->training.optimizer == GS_OPT_ADAM) {
        w.training.optimizer = GS_OPT_ADAMW_8BIT;
        add_change(out, &n, cap, "adamw_8bit", "bitsandbytes 8-bit AdamW states", 0, &w, &l, false);
        w = *w0;
    }
    if (w0->training.method == GS_METHOD_LORA && !gs_dtype_is_quantized(w0->weights) &&
        m->has_arch) {
        to_qlora(&w); /* the same adapters over a 4-bit base */
        const uint64_t rank = w.training.lora_rank ? w.training.lora_rank : 8;
        add_change(out, &n, cap, "qlora",
                   "QLoRA: the same adapters over an nf4 base with double quantization", rank, &w,
                   &l, false);
        if (w0->training.recompute != GS_RECOMPUTE_FULL) {
            /* the QLoRA paper's recipe (Dettmers et al. 2023, arXiv 2305.14314: a 65B model
             * finetuned on one 48 GB GPU, its activations held small by gradient checkpointing,
             * section 2): the 4-bit base's weights and one checkpoint a layer */
            w.training.recompute = GS_RECOMPUTE_FULL;
            l.recompute = 1u << GS_RECOMPUTE_FULL;
            add_change(out, &n, cap, "qlora_full_recomputation",
                       "QLoRA with full activation recomputation: the same adapters over an nf4 "
                       "base, each layer's input checkpointed",
                       rank, &w, &l, false);
            l = *own;
        }
        w = *w0;
    }
    if (w0->training.method == GS_METHOD_FULL && m->has_arch) {
        w.training.method = GS_METHOD_LORA;
        w.training.method_given = true;
        w.training.lora_rank = 16;
        w.training.lora_target_count = 0; /* all_linear */
        gs_trl_redo(&w.training, &w.parallelism, w.weights);
        add_change(out, &n, cap, "lora",
                   "LoRA r=16 on all linear layers instead of full fine-tuning", 16, &w, &l, false);
        to_qlora(&w);
        add_change(out, &n, cap, "qlora",
                   "QLoRA: an nf4 base with double quantization and LoRA r=16 adapters", 16, &w, &l,
                   false);
        if (w0->training.recompute != GS_RECOMPUTE_FULL) {
            w.training.recompute = GS_RECOMPUTE_FULL;
            l.recompute = 1u << GS_RECOMPUTE_FULL;
            add_change(out, &n, cap, "qlora_full_recomputation",
                       "QLoRA r=16 with full activation recomputation", 16, &w, &l, false);
            l = *own;
        }
        w = *w0;
    }
    add_change(out, &n, cap, "more_gpus",
               "more GPUs in the smallest layout that fits: tensor, then pipeline, then data "
               "parallelism",
               0, &w, &l, true);
    if (w0->training.recompute != GS_RECOMPUTE_FULL || w0->training.batch_size > 1) {
        /* more GPUs split weights and states, and a micro-batch's activations only as far as
         * tensor, context or pipeline parallelism do: the same search over the frugal settings,
         * listed where more_gpus does not fit or needs more GPUs (gs_advice_evaluate) */
        w.training.recompute = GS_RECOMPUTE_FULL;
        l.recompute = 1u << GS_RECOMPUTE_FULL;
        l.allow_accumulation = w0->training.batch_size > 1;
        add_change(out, &n, cap, "more_gpus_full_recomputation",
                   "more GPUs in the smallest layout that fits with full recomputation and, where "
                   "the batch allows, smaller micro-batches accumulated",
                   0, &w, &l, true);
    }
    return n;
}

size_t gs_advice_changes(const struct gs_model_spec *model, const struct gs_workload *workload,
                         const struct gs_plan_limits *own, struct gs_fit_change *out, size_t cap)
{
    if (workload->mode == GS_MODE_INFERENCE)
        return serving_changes(model, workload, own, out, cap);
    return training_changes(model, workload, own, out, cap);
}

static void set_gpu(struct gs_workload *w, const struct gs_plan_gpu *g)
{
    w->gpu = g->view;
}

/* Where a change that does not fit leaves the memory: sized on the asked
 * GPUs in a plain layout (the widest tensor parallelism within a node for
 * serving; data parallelism with the change's most frugal settings for
 * training). */
static bool change_at_count(const struct gs_model_spec *m, const struct gs_fit_change *c,
                            const struct gs_plan_gpu *g, uint64_t count, struct gs_plan *p)
{
    struct gs_workload w = c->workload;
    memset(p, 0, sizeof(*p));
    gs_parallelism_defaults(&w.parallelism);
    set_gpu(&w, g);
    p->tensor = p->pipeline = p->data = p->expert = 1;
    if (w.mode == GS_MODE_INFERENCE) {
        w.parallelism.stages.split = GS_SPLIT_VLLM;
        uint64_t t = 1;
        while (t * 2 <= count && t * 2 <= g->gpus_per_node)
            t *= 2;
        for (; t > 1; t /= 2) {
            w.parallelism.tensor = t;
            if (!m->has_arch || gs_parallelism_validate(&w.parallelism, &m->arch, NULL) == GS_OK)
                break;
        }
        w.parallelism.tensor = p->tensor = t;
    } else {
        /* FSDP or DeepSpeed, and which FSDP, as the request says (as the plan search keeps) */
        w.parallelism.fsdp = c->workload.parallelism.fsdp;
        w.parallelism.fsdp_version = c->workload.parallelism.fsdp_version;
        w.parallelism.fsdp_use_orig_params = c->workload.parallelism.fsdp_use_orig_params;
        w.parallelism.data = p->data = count;
        /* ZeRO shards nothing on one GPU, but ZeRO-Offload still moves states to the host */
        for (int z = 3; z >= 0; z--)
            if (c->limits.zero_stages & (1u << z) &&
                (z == 0 || count > 1 || c->limits.allow_offload)) {
                w.parallelism.zero_stage = p->zero_stage = (unsigned)z;
                break;
            }
        if (c->limits.allow_offload && w.parallelism.zero_stage >= 2)
            w.parallelism.offload = p->offload = w.parallelism.zero_stage == 3
                                                     ? GS_OFFLOAD_OPTIMIZER_AND_PARAMS
                                                     : GS_OFFLOAD_OPTIMIZER;
        for (int r = GS_RECOMPUTE_FULL; r >= 0; r--)
            if (c->limits.recompute & (1u << r)) {
                w.training.recompute = p->recompute = (enum gs_recompute)r;
                break;
            }
        /* accumulation at its extreme: one sequence per pass, the rest accumulated */
        const uint64_t batch = w.training.batch_size ? w.training.batch_size : 1;
        const uint64_t steps = w.training.gradient_accumulation_steps
                                   ? w.training.gradient_accumulation_steps
                                   : 1;
        if (c->limits.allow_accumulation && batch > 1) {
            w.training.batch_size = 1;
            w.training.gradient_accumulation_steps = steps * batch;
        }
        p->micro_batch = w.training.batch_size ? w.training.batch_size : 1;
        p->accumulation_steps = w.training.gradient_accumulation_steps
                                    ? w.training.gradient_accumulation_steps
                                    : 1;
    }
    if (gs_estimate_compute(m, &w, &p->estimate, NULL) != GS_OK)
        return false;
    p->gpu_count = count;
    const struct gs_estimate *e = &p->estimate;
    if (e->has_serving && e->serving.has_budget)
        p->headroom_bytes = e->serving.budget.kv_bytes - (int64_t)e->serving.kv_needed_bytes;
    else
        p->headroom_bytes = (int64_t)g->view.total_bytes - (int64_t)e->per_gpu.total_bytes;
    return true;
}

bool gs_advice_layout_given(const struct gs_workload *workload)
{
    const struct gs_parallelism *p = &workload->parallelism;
    return p->tensor > 1 || p->pipeline > 1 || p->data > 1 || p->context > 1 || p->expert > 1;
}

enum gs_status gs_advice_own_layout(const struct gs_model_spec *model,
                                    const struct gs_workload *workload,
                                    const struct gs_plan_gpu *gpu, struct gs_plan *out,
                                    struct gs_error *err)
{
    struct gs_workload w = *workload;
    set_gpu(&w, gpu);
    memset(out, 0, sizeof(*out));
    const struct gs_parallelism *par = &w.parallelism;
    out->tensor = par->tensor ? par->tensor : 1;
    out->pipeline = par->pipeline ? par->pipeline : 1;
    out->data = par->data ? par->data : 1;
    out->expert = par->expert ? par->expert : 1;
    out->zero_stage = par->zero_stage;
    out->recompute = w.training.recompute;
    out->offload = par->offload;
    out->micro_batch = w.training.batch_size ? w.training.batch_size : 1;
    out->accumulation_steps = w.training.gradient_accumulation_steps
                                  ? w.training.gradient_accumulation_steps
                                  : 1;
    if (w.mode == GS_MODE_INFERENCE) {
        /* one engine instance of the layout: its data-parallel ranks are attention ranks whose
         * sequences the estimate already counts (max_concurrency over every rank) */
        out->attention_data = out->data;
        out->replicas = 1;
        out->format = gs_workload_format(&w);
        out->kv_dtype = w.serving.kv_dtype;
    }
    enum gs_status st = gs_estimate_compute(model, &w, &out->estimate, err);
    if (st != GS_OK)
        return st;
    out->gpu_count = out->estimate.gpu_count;
    out->limit_bytes = gpu->view.total_bytes;
    const struct gs_estimate *e = &out->estimate;
    if (e->has_serving && e->serving.has_budget)
        /* serving: what the engine's budget leaves for the cache against what the batch needs,
         * as a plan search judges a layout */
        out->headroom_bytes = e->serving.budget.kv_bytes - (int64_t)e->serving.kv_needed_bytes;
    else
        out->headroom_bytes = (int64_t)gpu->view.total_bytes - (int64_t)e->per_gpu.total_bytes;
    if (e->has_serving && e->serving.has_budget && !e->serving.starts && out->headroom_bytes >= 0)
        out->headroom_bytes = -1; /* the engine refuses to start whatever the cache holds */
    return GS_OK;
}

/* Whether outcome a comes nearer to fitting than b (unsized ones last). */
static bool closer(const struct gs_fit_outcome *a, const struct gs_fit_outcome *b)
{
    if (!a->sized || !b->sized)
        return a->sized && !b->sized;
    return a->plan.headroom_bytes > b->plan.headroom_bytes;
}

/* flash-attn 2 runs on NVIDIA Ampere and newer (its README: Ampere, Ada, Hopper; Turing and
 * Volta have FlashAttention 1 only) and on AMD Instinct through ROCm's build; not on Gaudi. */
static bool flash_attention_runs(const struct gs_plan_gpu *gpu)
{
    const enum gs_hw hw = (enum gs_hw)gpu->view.hw;
    return !gs_hw_nvidia_before(hw, GS_HW_AMPERE) && hw != GS_HW_GAUDI;
}

/* FlashAttention 3 is built for Hopper (its README: H100/H800, sm90); the kernels hub's
 * vllm-flash-attn3 build alike. A GPU whose generation is not in the table is not refused. */
static bool flash_attention_3_runs(const struct gs_plan_gpu *gpu)
{
    const enum gs_hw hw = (enum gs_hw)gpu->view.hw;
    return hw == GS_HW_HOPPER || hw == GS_HW_UNKNOWN;
}

size_t gs_advice_evaluate(const struct gs_model_spec *model, const struct gs_workload *workload,
                          const struct gs_plan_limits *own, const struct gs_plan_gpu *gpu,
                          const struct gs_efficiency *eff, uint64_t count,
                          struct gs_plan_memo *memo, struct gs_fit_outcome *out, size_t cap)
{
    struct gs_fit_change changes[GS_ADVICE_MAX];
    const size_t n = gs_advice_changes(model, workload, own, changes, GS_ADVICE_MAX);
    const struct gs_demand none = {.kind = GS_DEMAND_NONE};
    size_t fitting = 0, written = 0;
    uint64_t more_gpus_count = 0; /* GPUs more_gpus fits on, 0 when it does not */
    for (size_t i = 0; i < n && written < cap; i++) {
        struct gs_fit_outcome *o = &out[written];
        enum gs_plan_reject why = GS_REJECT_DOES_NOT_FIT;
        if (gs_plan_search(model, &changes[i].workload, gpu, &changes[i].limits, &none, eff,
                           changes[i].any_count ? 0 : count, memo, &o->plan, &why,
                           NULL) != GS_OK)
            continue; /* a change this model cannot take (LoRA targets unknown for its family) */
        o->fits = why == GS_REJECT_NONE;
        if (changes[i].any_count && (!o->fits || o->plan.gpu_count <= count))
            continue; /* more GPUs only helps when it needs more than asked */
        if (strcmp(changes[i].code, "more_gpus") == 0)
            more_gpus_count = o->plan.gpu_count;
        if (strcmp(changes[i].code, "more_gpus_full_recomputation") == 0 && more_gpus_count &&
            more_gpus_count <= o->plan.gpu_count)
            continue; /* more GPUs alone do it on as few */
        if (strcmp(changes[i].code, "flash_attention_2") == 0 && !flash_attention_runs(gpu))
            continue;
        if (strcmp(changes[i].code, "flash_attention_3") == 0 && !flash_attention_3_runs(gpu))
            continue;
        if (changes[i].limits.allow_lower_max_num_seqs && !own->allow_lower_max_num_seqs) {
            if (!o->fits || o->plan.max_num_seqs == 0)
                continue; /* it does not help, or the layout starts as asked */
            changes[i].value = o->plan.max_num_seqs;
        }
        if (o->fits && !changes[i].any_count && changes[i].limits.allow_accumulation &&
            !own->allow_accumulation &&
            o->plan.micro_batch >= changes[i].workload.training.batch_size)
            continue; /* it fits without a smaller micro-batch: another layout, not this change */
        o->change = changes[i];
        o->sized = o->fits || change_at_count(model, &changes[i], gpu, count, &o->plan);
        /* those that fit keep their order (gentlest first) ahead of those that do not, which
         * are kept closest-first: insert this one where it belongs */
        struct gs_fit_outcome item = *o;
        size_t j = written;
        if (item.fits) {
            while (j > fitting) {
                out[j] = out[j - 1];
                j--;
            }
            fitting++;
        } else {
            while (j > fitting && closer(&item, &out[j - 1])) {
                out[j] = out[j - 1];
                j--;
            }
        }
        out[j] = item;
        written++;
    }
    return written;
}

/* The workload whose batch or sequence the bisection moves, on `g`: the request as asked
 * (its own layout, `plan` NULL: its stage split, interleaving, FSDP and every other knob), or
 * the one a searched plan was sized with (gs_plan_training_workload). */
static void layout_workload(const struct gs_workload *w0, const struct gs_plan *plan,
                            const struct gs_plan_gpu *g, struct gs_workload *w)
{
    if (plan == NULL)
        *w = *w0;
    else
        gs_plan_training_workload(w0, plan, g, w);
    set_gpu(w, g);
}

static bool fits_with(const struct gs_model_spec *m, const struct gs_workload *w,
                      const struct gs_plan_gpu *g)
{
    struct gs_estimate est;
    return gs_estimate_compute(m, w, &est, NULL) == GS_OK &&
           est.per_gpu.total_bytes <= g->view.total_bytes;
}

/* The largest value in [1, hi] for which the layout fits, by bisection: a
 * larger batch or sequence never needs less memory. `sequence` picks which. */
static uint64_t largest(const struct gs_model_spec *m, const struct gs_workload *w0,
                        const struct gs_plan *plan, const struct gs_plan_gpu *g, uint64_t hi,
                        bool sequence)
{
    struct gs_workload w;
    layout_workload(w0, plan, g, &w);
    uint64_t lo = 0;
    while (lo < hi) {
        const uint64_t mid = lo + (hi - lo + 1) / 2;
        if (sequence)
            w.training.sequence_length = mid;
        else
            w.training.batch_size = mid;
        if (fits_with(m, &w, g))
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

uint64_t gs_advice_max_batch(const struct gs_model_spec *model, const struct gs_workload *workload,
                             const struct gs_plan *plan, const struct gs_plan_gpu *gpu,
                             uint64_t max)
{
    return largest(model, workload, plan, gpu, max, false);
}

uint64_t gs_advice_max_sequence(const struct gs_model_spec *model,
                                const struct gs_workload *workload, const struct gs_plan *plan,
                                const struct gs_plan_gpu *gpu, uint64_t max)
{
    return largest(model, workload, plan, gpu, max, true);
}

const struct gs_plan *gs_fit_plan(const struct gs_fit_verdict *v, enum gs_fit_which which)
{
    switch (which) {
    case GS_FIT_OWN:
        return &v->own;
    case GS_FIT_AT:
        return &v->at;
    case GS_FIT_LEAST:
        return &v->least;
    case GS_FIT_NONE:
        break;
    }
    return NULL;
}

enum gs_status gs_advice_fit(const struct gs_model_spec *model, const struct gs_workload *workload,
                             const struct gs_plan_gpu *gpu, const struct gs_plan_limits *own,
                             const struct gs_efficiency *eff, uint64_t count,
                             struct gs_plan_memo *memo, struct gs_fit_verdict *out,
                             struct gs_error *err)
{
    memset(out, 0, sizeof(*out));
    out->why_at = out->why_least = GS_REJECT_DOES_NOT_FIT;
    /* a layout named in parallelism is judged as it is, on the GPUs it takes */
    out->layout_given = gs_advice_layout_given(workload);
    const uint64_t world = gs_parallelism_world(&workload->parallelism);
    if (out->layout_given && count && count != world)
        return gs_error_add(err, GS_ERR_INVALID, "/gpu_count",
                            "is %llu, but the layout in parallelism takes %llu GPUs (tensor x "
                            "pipeline x context x data); give that count or leave gpu_count out",
                            (unsigned long long)count, (unsigned long long)world);
    out->count = out->layout_given ? world : count ? count : 1;
    enum gs_status st = GS_OK;
    if (out->layout_given)
        st = gs_advice_own_layout(model, workload, gpu, &out->own, err);
    const struct gs_demand none = {.kind = GS_DEMAND_NONE};
    if (st == GS_OK)
        st = gs_plan_search(model, workload, gpu, own, &none, eff, out->count, memo, &out->at,
                            &out->why_at, err);
    if (st == GS_OK)
        st = gs_plan_search(model, workload, gpu, own, &none, eff, 0, memo, &out->least,
                            &out->why_least, err);
    if (st != GS_OK)
        return st;
    out->fits = out->layout_given ? out->own.headroom_bytes >= 0 : out->why_at == GS_REJECT_NONE;
    out->plan = out->layout_given ? GS_FIT_OWN : out->fits ? GS_FIT_AT : GS_FIT_NONE;
    out->alternative = out->layout_given && !out->fits && out->why_at == GS_REJECT_NONE;
    /* the largest batch and context at the verdict's layout (or the smallest that fits) */
    out->max_at = out->fits ? out->plan
                  : out->why_least == GS_REJECT_NONE ? GS_FIT_LEAST
                                                     : GS_FIT_NONE;
    const struct gs_plan *ref = gs_fit_plan(out, out->max_at);
    if (ref != NULL && workload->mode != GS_MODE_TRAINING && ref->estimate.has_serving) {
        /* every replica of the layout holds its own sequences */
        out->max_batch = ref->estimate.serving.max_concurrency * (ref->replicas ? ref->replicas : 1);
        out->max_context = ref->estimate.serving.max_context;
    } else if (ref != NULL && workload->mode == GS_MODE_TRAINING) {
        /* the own layout as the request gives it, not as a searched plan would be rebuilt */
        const struct gs_plan *layout = out->max_at == GS_FIT_OWN ? NULL : ref;
        out->max_batch = gs_advice_max_batch(model, workload, layout, gpu, 4096);
        out->max_context =
            gs_advice_max_sequence(model, workload, layout, gpu, (uint64_t)1 << 22);
    } else {
        out->max_at = GS_FIT_NONE; /* a serving plan without a cache to count */
    }
    return GS_OK;
}
