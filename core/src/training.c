/*
 * training.c - training workload defaults, parallel-layout validation, bytes
 * per parameter by regime and optimizer, and LoRA adapter counts
 * (see gs/training.h).
 */
#include "gs/training.h"

#include "gs/units.h"

#include <stdio.h>
#include <string.h>

void gs_training_defaults(struct gs_training *t)
{
    memset(t, 0, sizeof(*t));
    t->gradient_accumulation_steps = 1;
    t->optimizer = GS_OPT_ADAMW;
    t->recompute = GS_RECOMPUTE_NONE;
    t->flash_attention = true;
    t->attn_impl = GS_ATTN_SDPA;
    t->method = GS_METHOD_FULL;
    t->double_quant = true;
}

void gs_parallelism_defaults(struct gs_parallelism *p)
{
    memset(p, 0, sizeof(*p));
    p->tensor = p->pipeline = p->data = p->context = p->expert = 1;
    p->gpus_per_node = 8;
}

uint64_t gs_parallelism_world(const struct gs_parallelism *p)
{
    bool ovf = false;
    uint64_t w = gs_mul(gs_mul(p->tensor, p->pipeline, &ovf), gs_mul(p->context, p->data, &ovf),
                        &ovf);
    return ovf ? 0 : w;
}

static bool divides(uint64_t d, uint64_t n)
{
    return d != 0 && n % d == 0;
}

static void check_attention_split(const struct gs_parallelism *p, const struct gs_block *b,
                                  struct gs_error *err, bool *ok)
{
    const unsigned long long t = p->tensor;
    const uint64_t heads = b->attn.heads;
    const uint64_t kv_heads = b->mixer == GS_MIXER_ATTENTION ? b->attn.kv_heads : 0;
    if (!divides(p->tensor, heads)) {
        gs_error_add(err, GS_ERR_INVALID, "/parallelism/tensor",
                     "tensor parallelism %llu must divide the %llu attention heads", t,
                     (unsigned long long)heads);
        *ok = false;
    } else if (kv_heads && !divides(p->tensor, kv_heads) && !divides(kv_heads, p->tensor)) {
        gs_error_add(err, GS_ERR_INVALID, "/parallelism/tensor",
                     "tensor parallelism %llu must be a multiple or a divisor of the %llu KV heads",
                     t, (unsigned long long)kv_heads);
        *ok = false;
    }
}

/* An interleaved schedule: every stage's layers in equal chunks (Megatron-LM
 * transformer_block.py get_num_layers_to_build: num_layers_per_pipeline_rank % vp_size == 0). */
static void check_chunks(const struct gs_parallelism *p, const struct gs_arch *a,
                         struct gs_error *err, bool *ok)
{
    const uint64_t v = gs_stage_chunks(&p->stages);
    uint64_t bounds[GS_LAYERS_MAX + 1];
    if (v == 1 || !*ok || p->pipeline > GS_LAYERS_MAX ||
        !gs_stage_bounds(&p->stages, a->num_hidden_layers, p->pipeline, bounds) ||
        gs_stage_chunks_fit(&p->stages, bounds, p->pipeline))
        return;
    for (uint64_t s = 0; s < p->pipeline; s++) {
        const uint64_t n = bounds[s + 1] - bounds[s];
        if (n % v != 0) {
            gs_error_add(err, GS_ERR_INVALID, "/parallelism/virtual_stages",
                         "virtual_stages %llu must divide every pipeline stage's layers "
                         "(stage %llu holds %llu of the %llu: Megatron-LM's get_num_layers_to_build): "
                         "choose a count that divides them, or list every virtual stage's "
                         "layers in stage_layers",
                         (unsigned long long)v, (unsigned long long)s, (unsigned long long)n,
                         (unsigned long long)a->num_hidden_layers);
            *ok = false;
            return;
        }
    }
}

static void check_arch_layout(const struct gs_parallelism *p, const struct gs_arch *a,
                              struct gs_error *err, bool *ok)
{
    uint64_t counts[GS_BLOCKS_MAX];
    gs_arch_count_blocks(a, 0, a->num_hidden_layers, counts);
    for (size_t k = 0; k < a->block_count && *ok; k++) {
        const struct gs_block *b = &a->blocks[k];
        if (counts[k] > 0 && (b->mixer == GS_MIXER_ATTENTION || b->mixer == GS_MIXER_MLA))
            check_attention_split(p, b, err, ok);
        if (counts[k] > 0 && b->mixer == GS_MIXER_RECURRENT && b->rec.tensor_groups &&
            !divides(p->tensor, b->rec.tensor_groups)) {
            gs_error_add(
                err, GS_ERR_INVALID, "/parallelism/tensor",
                "tensor parallelism %llu must divide the %llu groups of the linear "
                "attention's output norm (group_norm_size), which tensor ranks split whole",
                (unsigned long long)p->tensor, (unsigned long long)b->rec.tensor_groups);
            *ok = false;
        }
    }
    uint64_t first, end;
    if (p->stages.split == GS_SPLIT_GIVEN) {
        if (!gs_stage_range(&p->stages, a->num_hidden_layers, p->pipeline, 0, &first, &end)) {
            gs_error_add(err, GS_ERR_INVALID, "/parallelism/stage_layers",
                         "must list %llu layer counts, one a %s, summing to the model's "
                         "%llu decoder layers%s",
                         (unsigned long long)(p->pipeline * gs_stage_chunks(&p->stages)),
                         gs_stage_chunks(&p->stages) > 1 ? "virtual stage" : "stage",
                         (unsigned long long)a->num_hidden_layers,
                         gs_stage_chunks(&p->stages) > 1 ? ""
                                                         : ", none 0 but the first and the last");
            *ok = false;
        }
    } else if (p->pipeline > a->num_hidden_layers) {
        gs_error_add(err, GS_ERR_INVALID, "/parallelism/pipeline",
                     "%llu pipeline stages for %llu layers: every stage needs at least one layer",
                     (unsigned long long)p->pipeline, (unsigned long long)a->num_hidden_layers);
        *ok = false;
    } else if (gs_stage_chunks(&p->stages) > 1 && p->stages.split == GS_SPLIT_TORCHTITAN &&
               !gs_stage_range(&p->stages, a->num_hidden_layers, p->pipeline, 0, &first, &end)) {
        gs_error_add(err, GS_ERR_INVALID, "/parallelism/virtual_stages",
                     "%llu pipeline stages x %llu virtual stages each for %llu layers: every "
                     "virtual stage needs at least one layer",
                     (unsigned long long)p->pipeline,
                     (unsigned long long)gs_stage_chunks(&p->stages),
                     (unsigned long long)a->num_hidden_layers);
        *ok = false;
    } else if (!gs_stage_range(&p->stages, a->num_hidden_layers, p->pipeline, 0, &first, &end)) {
        gs_error_add(err, GS_ERR_INVALID, "/parallelism/pipeline",
                     p->stages.split == GS_SPLIT_DIVIDES
                         ? "%llu pipeline stages must divide the %llu layers (Megatron-LM and "
                           "torchtitan place any count: training.framework megatron or "
                           "torchtitan)"
                         : "%llu pipeline stages cannot hold the %llu layers",
                     (unsigned long long)p->pipeline, (unsigned long long)a->num_hidden_layers);
        *ok = false;
    }
    check_chunks(p, a, err, ok);
    const struct gs_block *moe = gs_arch_moe_block(a);
    if (p->expert > 1 && moe == NULL) {
        gs_error_add(err, GS_ERR_INVALID, "/parallelism/expert",
                     "expert parallelism needs a mixture-of-experts model");
        *ok = false;
    } else if (p->expert > 1 && !divides(p->expert, moe->mlp.experts)) {
        gs_error_add(err, GS_ERR_INVALID, "/parallelism/expert",
                     "expert parallelism %llu must divide the %llu experts",
                     (unsigned long long)p->expert, (unsigned long long)moe->mlp.experts);
        *ok = false;
    }
    if (p->expert_tensor > 1 && moe == NULL) {
        gs_error_add(err, GS_ERR_INVALID, "/parallelism/expert_tensor",
                     "expert tensor parallelism needs a mixture-of-experts model");
        *ok = false;
    }
}

enum gs_status gs_parallelism_validate(const struct gs_parallelism *p, const struct gs_arch *arch,
                                       struct gs_error *err)
{
    bool ok = true;
    const struct {
        const char *pointer;
        uint64_t value;
    } degrees[] = {{"/parallelism/tensor", p->tensor},     {"/parallelism/pipeline", p->pipeline},
                   {"/parallelism/data", p->data},         {"/parallelism/context", p->context},
                   {"/parallelism/expert", p->expert},     {"/parallelism/gpus_per_node", p->gpus_per_node}};
    for (size_t i = 0; i < sizeof(degrees) / sizeof(degrees[0]); i++) {
        if (degrees[i].value == 0 || degrees[i].value > ((uint64_t)1 << 20)) {
            gs_error_add(err, GS_ERR_RANGE, degrees[i].pointer, "must be between 1 and %llu",
                         (unsigned long long)1 << 20);
            ok = false;
        }
    }
    if (!ok)
        return GS_ERR_INVALID;
    const uint64_t world = gs_parallelism_world(p);
    if (world == 0 || world > ((uint64_t)1 << 24)) {
        return gs_error_add(err, GS_ERR_RANGE, "/parallelism",
                            "tensor x pipeline x context x data is more than %llu GPUs",
                            (unsigned long long)1 << 24);
    }
    if (p->zero_stage > 3) {
        gs_error_add(err, GS_ERR_INVALID, "/parallelism/zero_stage", "must be 0, 1, 2 or 3");
        ok = false;
    }
    if (p->stages.chunks > GS_STAGE_CHUNKS_MAX) {
        gs_error_add(err, GS_ERR_RANGE, "/parallelism/virtual_stages", "must be between 1 and %d",
                     GS_STAGE_CHUNKS_MAX);
        ok = false;
    } else if (gs_stage_chunks(&p->stages) > 1 && p->pipeline == 1) {
        gs_error_add(err, GS_ERR_INVALID, "/parallelism/virtual_stages",
                     "an interleaved schedule runs several model chunks on each pipeline stage: "
                     "it needs pipeline > 1");
        ok = false;
    }
    if (p->sequence_parallel && p->tensor == 1) {
        gs_error_add(err, GS_ERR_INVALID, "/parallelism/sequence_parallel",
                     "sequence parallelism splits along the tensor-parallel group; it needs "
                     "tensor > 1");
        ok = false;
    }
    if (p->offload != GS_OFFLOAD_NONE && p->zero_stage == 0) {
        gs_error_add(err, GS_ERR_INVALID, "/parallelism/offload",
                     "offloading is a ZeRO feature; set zero_stage 1, 2 or 3");
        ok = false;
    }
    if (p->offload == GS_OFFLOAD_OPTIMIZER_AND_PARAMS && p->zero_stage != 3) {
        gs_error_add(err, GS_ERR_INVALID, "/parallelism/offload",
                     "offloading parameters needs zero_stage 3");
        ok = false;
    }
    if (p->distributed_optimizer && p->zero_stage != 0) {
        gs_error_add(err, GS_ERR_INVALID, "/parallelism/distributed_optimizer",
                     "Megatron's distributed optimizer and DeepSpeed ZeRO both shard optimizer "
                     "states; choose one");
        ok = false;
    }
    /* Megatron-LM parallel_state.py initialize_model_parallel: the expert grid of a stage is
     * expert_tensor x expert x expert-data-parallel ranks, the stage's tensor x context x data
     * ranks rearranged ("world_size is not divisible by expert_tensor_model_pipeline_parallel
     * size") */
    const uint64_t expert_tensor = p->expert_tensor ? p->expert_tensor : 1;
    const uint64_t stage_ranks = p->tensor * p->context * p->data;
    if (p->expert_tensor > ((uint64_t)1 << 20)) {
        gs_error_add(err, GS_ERR_RANGE, "/parallelism/expert_tensor", "must be between 1 and %llu",
                     (unsigned long long)1 << 20);
        ok = false;
    } else if (expert_tensor == 1 && p->expert > 1 && !divides(p->expert, stage_ranks)) {
        gs_error_add(err, GS_ERR_INVALID, "/parallelism/expert",
                     "expert parallelism %llu must divide tensor x context x data = %llu",
                     (unsigned long long)p->expert, (unsigned long long)stage_ranks);
        ok = false;
    } else if (expert_tensor > 1 && !divides(p->expert * expert_tensor, stage_ranks)) {
        gs_error_add(err, GS_ERR_INVALID, "/parallelism/expert",
                     "expert x expert_tensor = %llu x %llu must divide tensor x context x data = "
                     "%llu (each expert's tensor ranks and the expert ranks share a stage's "
                     "ranks; expert_tensor 1 keeps experts whole)",
                     (unsigned long long)p->expert, (unsigned long long)expert_tensor,
                     (unsigned long long)stage_ranks);
        ok = false;
    }
    if (arch != NULL)
        check_arch_layout(p, arch, err, &ok);
    else if (p->stages.split == GS_SPLIT_GIVEN) {
        gs_error_add(err, GS_ERR_INVALID, "/parallelism/stage_layers",
                     "a layer partition needs the model's architecture, not a raw count");
        ok = false;
    } else if (gs_stage_chunks(&p->stages) > 1) {
        gs_error_add(err, GS_ERR_INVALID, "/parallelism/virtual_stages",
                     "an interleaved schedule needs the model's architecture, not a raw count");
        ok = false;
    } else if (p->expert > 1 || expert_tensor > 1) {
        gs_error_add(err, GS_ERR_INVALID,
                     p->expert > 1 ? "/parallelism/expert" : "/parallelism/expert_tensor",
                     "expert parallelism needs the model's architecture, not a raw count");
        ok = false;
    }
    return ok ? GS_OK : GS_ERR_INVALID;
}

/* In 1/64 bytes: 8-bit Adam keeps two uint8 states plus two fp32 absmax per
 * 256-element block (bitsandbytes Optimizer2State.init_state): 2 + 8/256
 * bytes = 130/64. */
#define B(x)          ((uint64_t)(x) * GS_BPP_UNIT)
#define ADAM_8BIT_BPP ((uint64_t)130)

/* Optimizer states excluding any master copy, in the states' own precision
 * (4-byte fp32 or 2-byte bf16 elements). */
static uint64_t moment_bytes(enum gs_optimizer o, uint64_t element)
{
    switch (o) {
    case GS_OPT_ADAMW:
    case GS_OPT_ADAM:
        return B(2 * element); /* exp_avg, exp_avg_sq */
    case GS_OPT_ADAMW_8BIT:
        return ADAM_8BIT_BPP;
    case GS_OPT_SGD:
    case GS_OPT_ADAFACTOR: /* factored rows/columns are added by the estimator */
        return 0;
    case GS_OPT_SGD_MOMENTUM:
    case GS_OPT_LION:
        return B(element); /* one momentum buffer */
    case GS_OPT_COUNT:
        break;
    }
    return 0;
}

struct gs_state_bytes gs_state_bytes_for(enum gs_regime regime, enum gs_optimizer optimizer)
{
    struct gs_state_bytes s = {0, 0, 0};
    switch (regime) {
    case GS_REGIME_FP32:
    case GS_REGIME_AMP: /* autocast keeps fp32 weights; low-precision copies are transient */
        s = (struct gs_state_bytes){B(4), B(4), moment_bytes(optimizer, 4)};
        break;
    case GS_REGIME_BF16_MIXED:
    case GS_REGIME_FP16_MIXED: /* fp32 master weights + fp32 states (ZeRO's K = 12 for Adam) */
        s = (struct gs_state_bytes){B(2), B(2), B(4) + moment_bytes(optimizer, 4)};
        break;
    case GS_REGIME_BF16_PURE: /* states kept in bf16, no master copy */
        s = (struct gs_state_bytes){B(2), B(2), moment_bytes(optimizer, 2)};
        break;
    case GS_REGIME_NONE:
    case GS_REGIME_COUNT:
        break;
    }
    return s;
}

const char *const gs_attn_impl_names[GS_ATTN_COUNT + 1] = {
    [GS_ATTN_SDPA] = "sdpa",
    [GS_ATTN_EAGER] = "eager",
    [GS_ATTN_FLASH2] = "flash_attention_2",
    [GS_ATTN_FLASH3] = "flash_attention_3",
    [GS_ATTN_FLEX] = "flex_attention",
    [GS_ATTN_COUNT] = NULL,
};

const char *const gs_recurrent_kernels_names[GS_RECURRENT_COUNT + 1] = {
    [GS_RECURRENT_FUSED] = "fused",
    [GS_RECURRENT_TORCH] = "torch",
    [GS_RECURRENT_COUNT] = NULL,
};

const char *const gs_padding_names[GS_PADDING_COUNT + 1] = {
    [GS_PADDING_MAX_LENGTH] = "max_length",
    [GS_PADDING_LONGEST] = "longest",
    [GS_PADDING_COUNT] = NULL,
};

bool gs_training_padding_mask(const struct gs_training *training)
{
    if (training->padding_mask != GS_KNOB_DEFAULT)
        return training->padding_mask == GS_KNOB_ON;
    return training->padding == GS_PADDING_LONGEST && training->batch_size > 1;
}

bool gs_attn_impl_materializes(enum gs_attn_impl impl)
{
    return impl == GS_ATTN_EAGER;
}

const char *gs_regime_name(enum gs_regime regime)
{
    static const char *const names[GS_REGIME_COUNT] = {
        [GS_REGIME_NONE] = "",           [GS_REGIME_FP32] = "fp32",
        [GS_REGIME_BF16_MIXED] = "bf16_mixed", [GS_REGIME_FP16_MIXED] = "fp16_mixed",
        [GS_REGIME_BF16_PURE] = "bf16_pure",   [GS_REGIME_AMP] = "amp",
    };
    return regime < GS_REGIME_COUNT ? names[regime] : "";
}

const char *gs_optimizer_name(enum gs_optimizer optimizer)
{
    static const char *const names[GS_OPT_COUNT] = {
        [GS_OPT_ADAMW] = "adamw",       [GS_OPT_ADAM] = "adam",
        [GS_OPT_ADAMW_8BIT] = "adamw_8bit", [GS_OPT_SGD] = "sgd",
        [GS_OPT_SGD_MOMENTUM] = "sgd_momentum", [GS_OPT_ADAFACTOR] = "adafactor",
        [GS_OPT_LION] = "lion",
    };
    return optimizer < GS_OPT_COUNT ? names[optimizer] : "";
}

enum gs_status gs_regime_for(enum gs_dtype weights, enum gs_regime *out, struct gs_error *err)
{
    switch (weights) {
    case GS_DTYPE_FP32:
        *out = GS_REGIME_FP32;
        return GS_OK;
    case GS_DTYPE_BF16:
        *out = GS_REGIME_BF16_MIXED;
        return GS_OK;
    case GS_DTYPE_FP16:
        *out = GS_REGIME_FP16_MIXED;
        return GS_OK;
    case GS_DTYPE_INT8:
    case GS_DTYPE_INT4:
    case GS_DTYPE_COUNT:
        break;
    }
    return gs_error_add(err, GS_ERR_UNSUPPORTED, "/precision/weights",
                        "full training needs fp32, bf16 or fp16 weights; %s weights are frozen "
                        "bases that only adapters (LoRA/QLoRA) train",
                        gs_dtype_name(weights));
}

/* Whether the first `len` characters of a target name module `name` as PEFT matches a name in
 * target_modules (check_target_module_exists: `key == target_key or key.endswith("." +
 * target_key)`): the whole name, or a tail of it after a dot ("q_proj", "self_attn.q_proj"). */
static bool names_tail(const char *name, const char *target, size_t len)
{
    const size_t n = strlen(name);
    if (n < len || strncmp(name + n - len, target, len) != 0)
        return false;
    return n == len || name[n - len - 1] == '.';
}

static bool names_module(const char *name, const char *target)
{
    return names_tail(name, target, strlen(target));
}

/* Whether `target` names the nn.Linear a wrapped module (GS_MOD_WRAPPED) holds at `.linear`:
 * "linear" alone, or the module's name with ".linear" after it ("q_proj.linear"), as PEFT
 * matches the inner module's full name ("...self_attn.q_proj.linear"). */
static bool names_inner_linear(const char *name, const char *target)
{
    static const char inner[] = "linear";
    const size_t n = strlen(target), k = sizeof(inner) - 1;
    if (n < k || strcmp(target + n - k, inner) != 0)
        return false;
    return n == k || (n > k + 1 && target[n - k - 1] == '.' && names_tail(name, target, n - k - 1));
}

/* Whether module `m` is a linear layer PEFT can adapt under `target`; a part of a fused
 * projection (GS_MOD_PART, "fused.part") answers to the fused name too. */
static bool lora_matches(const struct gs_module *m, const char *target)
{
    if (m->kind != GS_MODULE_LINEAR || (m->flags & GS_MOD_EXPERT) || m->part == GS_PART_LM_HEAD ||
        m->part == GS_PART_MTP)
        return false;
    if (strcmp(target, GS_LORA_ALL_LINEAR) == 0)
        return true;
    if (m->flags & GS_MOD_PART) {
        const char *dot = strchr(m->name, '.');
        const size_t n = strlen(target);
        if (dot != NULL && (size_t)(dot - m->name) == n && strncmp(m->name, target, n) == 0)
            return true;
    }
    return names_module(m->name, target);
}

/* Whether block `b`'s MoE router holds its weight as a bare parameter in the model code `tr`
 * trains: in every release (gs_mlp.router_parameter: GPT-OSS's, DeepSeek-V3's, GLM-4.5's
 * TopkRouter), or in the transformers releases outside those whose router is an nn.Linear
 * (gs_mlp.router_linear_from/until: 5.0 made Mixtral's, the Qwen MoEs', OLMoE's and Ernie 4.5's
 * a TopKRouter, `self.weight = nn.Parameter(...)` and F.linear on it, modeling_mixtral.py
 * MixtralTopKRouter; 5.13 GraniteMoeHybrid's and DeepSeek-V2's). Where the model code is not
 * known to be transformers' (tr->lora_hf_release 0: another framework's own models), the
 * router counts as the nn.Linear their MoE layers keep. */
static bool router_bare(const struct gs_training *tr, const struct gs_block *b)
{
    if (b->mlp.router_parameter)
        return true;
    const uint32_t release = tr->lora_hf_release;
    if (release == 0 || (b->mlp.router_linear_from == 0 && b->mlp.router_linear_until == 0))
        return false;
    return release < b->mlp.router_linear_from ||
           (b->mlp.router_linear_until != 0 && release >= b->mlp.router_linear_until);
}

/* Whether the run's LoRA is PEFT's over transformers' model code (the HF Trainer and the
 * DeepSpeed engine: gs_framework_transformers_code); other frameworks wrap their own models. */
static bool peft_wraps(const struct gs_training *tr)
{
    return gs_framework_transformers_code(tr->framework.framework);
}

/* Whether a name in `target` reaches wrapped module `m` (GS_MOD_WRAPPED) itself, not the
 * nn.Linear it holds, in transformers' model code (peft_wraps(tr): the DeepSpeed engine's too),
 * in every release that has the model, where stock PEFT refuses it: LoraModel._create_new_module's
 * dispatchers take an nn.Linear (or Embedding, Conv, Conv1D, MultiheadAttention), not a module
 * that holds one, and get_peft_model raises
 * "Target module Gemma4ClippableLinear(...) is not supported" (peft tuners/lora/model.py,
 * through its source of 2026-08-21; PEFT issues #3129 and #3130; transformers PR #45388, which
 * would have made Gemma4ClippableLinear an nn.Linear, was closed). all-linear collects the
 * inner linears by their full names and so adapts them. */
static bool wrapper_refused(const struct gs_training *tr, const struct gs_module *m,
                            const char *target)
{
    return (m->flags & GS_MOD_WRAPPED) && peft_wraps(tr) &&
           strcmp(target, GS_LORA_ALL_LINEAR) != 0 && lora_matches(m, target);
}

/* The v4 names PEFT's conversion maps, by style (peft utils/transformers_weight_conversion.py
 * _MOE_TARGET_MODULE_MAPPING): Qwen2-MoE's and Mixtral's expert projections, gate and up first
 * (fused into gate_up_proj, _MOE_FUSED_TARGETS), then down, then the router. */
enum { PEFT_KEY_GATE, PEFT_KEY_UP, PEFT_KEY_DOWN, PEFT_KEY_ROUTER, PEFT_KEYS };
static const char *const peft_moe_keys[2][PEFT_KEYS] = {
    {"gate_proj", "up_proj", "down_proj", "gate"},
    {"w1", "w3", "w2", "gate"},
};

/* The v4 name `target` maps to as _convert_peft_config_moe matches it (`target == old_name or
 * target.endswith("." + old_name)`), a PEFT_KEY_*; -1 for none. */
static int peft_moe_key(bool mixtral, const char *target)
{
    for (int k = 0; k < PEFT_KEYS; k++)
        if (names_module(target, peft_moe_keys[mixtral][k]))
            return k;
    return -1;
}

/* Whether PEFT's conversion (tr->lora_peft_moe) took `target` out of target_modules for module
 * `m`: a converted name adapts no module (it names a parameter now), and all-linear, which 0.20
 * resolves to the leaf names of every nn.Linear plus the v4 names before converting them
 * (_resolve_string_target_modules), no longer reaches a linear whose leaf name is a v4 name:
 * a dense or shared-expert MLP's gate_proj, up_proj and down_proj, a router named gate. */
static bool peft_moved(const struct gs_training *tr, const struct gs_module *m, const char *target)
{
    if (!(tr->lora_peft_moe & GS_PEFT_MOE_WRAPPERS))
        return false;
    const bool mixtral = tr->lora_peft_moe & GS_PEFT_MOE_MIXTRAL;
    if (strcmp(target, GS_LORA_ALL_LINEAR) == 0) {
        const char *dot = strrchr(m->name, '.');
        return peft_moe_key(mixtral, dot != NULL ? dot + 1 : m->name) >= 0;
    }
    return peft_moe_key(mixtral, target) >= 0;
}

/* lora_matches for module `m` of block `b` in the model code `tr` trains: a MoE router that
 * holds its weight as a bare parameter (router_bare) is no nn.Linear PEFT wraps, whatever the
 * target (all-linear skips it; a name that reaches it is refused: "Target module ... is not
 * supported"); nor is a module wrapping its linear (wrapper_refused), whose inner linear a
 * target names as "<name>.linear". */
static bool block_lora_matches(const struct gs_training *tr, const struct gs_block *b,
                               const struct gs_module *m, const char *target)
{
    if (b != NULL && gs_module_is_router(b, m) && router_bare(tr, b))
        return false;
    if (peft_moved(tr, m, target))
        return false;
    if ((m->flags & GS_MOD_WRAPPED) && lora_matches(m, GS_LORA_ALL_LINEAR) &&
        names_inner_linear(m->name, target))
        return true;
    return !wrapper_refused(tr, m, target) && lora_matches(m, target);
}

/* Whether module `m` of block `b` is an attention's fused projection of queries, keys and
 * values under a framework that adapts their parts apart (gs_lora_qkv_parts), with the parts'
 * widths. */
static bool fused_qkv(const struct gs_training *tr, const struct gs_block *b,
                      const struct gs_module *m, uint64_t widths[3])
{
    if (b == NULL || b->mixer != GS_MIXER_ATTENTION || b->rec.inner ||
        m->kind != GS_MODULE_LINEAR || m->part != GS_PART_ATTENTION || m->split != GS_SPLIT_QKV ||
        (m->flags & GS_MOD_EXPERT) || !gs_framework_adapts_qkv_parts(tr->framework.framework))
        return false;
    gs_attention_qkv_widths(&b->attn, widths);
    return widths[0] && widths[1] && widths[2] && m->out == widths[0] + widths[1] + widths[2];
}

/* The part a target names, by transformers' names for the separate projections. */
static unsigned part_named(const char *target)
{
    static const char *const names[3] = {"q_proj", "k_proj", "v_proj"};
    for (unsigned p = 0; p < 3; p++)
        if (strcmp(target, names[p]) == 0)
            return 1u << p;
    return 0;
}

unsigned gs_lora_qkv_parts(const struct gs_training *tr, const struct gs_block *b,
                           const struct gs_module *m, uint64_t widths[3])
{
    uint64_t own[3];
    uint64_t *w = widths != NULL ? widths : own;
    if (!fused_qkv(tr, b, m, w))
        return 0;
    const size_t n = tr->lora_target_count;
    unsigned parts = 0;
    for (size_t i = 0; i < (n ? n : 1); i++) {
        const char *target = n ? tr->lora_targets[i] : GS_LORA_ALL_LINEAR;
        parts |= lora_matches(m, target) ? GS_QKV_ALL : part_named(target);
    }
    return parts;
}

unsigned gs_qkv_part_count(unsigned parts)
{
    return !!(parts & GS_QKV_Q) + !!(parts & GS_QKV_K) + !!(parts & GS_QKV_V);
}

uint64_t gs_lora_width(const struct gs_training *tr, const struct gs_block *b,
                       const struct gs_module *m)
{
    uint64_t w[3];
    if (fused_qkv(tr, b, m, w)) {
        const unsigned parts = gs_lora_qkv_parts(tr, b, m, w);
        uint64_t width = 0;
        for (unsigned p = 0; p < 3; p++)
            width += parts & (1u << p) ? w[p] : 0;
        return width;
    }
    return gs_lora_adapts(tr, b, m) ? m->out : 0;
}

/* Whether `m`, a module outside the layers, belongs to a frozen vision tower or its projector
 * (training.freeze_vision_tower: no adapters there). */
static bool frozen_projector(const struct gs_training *tr, const struct gs_module *m)
{
    return tr->freeze_vision_tower && m->part == GS_PART_VISION;
}

bool gs_lora_adapts(const struct gs_training *tr, const struct gs_block *b,
                    const struct gs_module *m)
{
    if (b == NULL && frozen_projector(tr, m))
        return false;
    if (gs_lora_qkv_parts(tr, b, m, NULL))
        return true;
    if (tr->lora_target_count == 0)
        return block_lora_matches(tr, b, m, GS_LORA_ALL_LINEAR);
    for (size_t i = 0; i < tr->lora_target_count; i++)
        if (block_lora_matches(tr, b, m, tr->lora_targets[i]))
            return true;
    return false;
}

/* The output head's name and shape: its own linear module, or with tied embeddings the
 * embedding's matrix read as transformers' lm_head (a Linear sharing the embedding's weight,
 * which PEFT adapts like any other nn.Linear). false when the model has no head. */
static bool head_of(const struct gs_arch *a, const char **name, uint64_t *in, uint64_t *out)
{
    if (!a->logits)
        return false;
    const struct gs_module *embedding = NULL;
    for (size_t i = 0; i < a->module_count; i++) {
        const struct gs_module *m = &a->modules[i];
        if (m->kind == GS_MODULE_LINEAR && m->part == GS_PART_LM_HEAD) {
            *name = m->name;
            *in = m->in;
            *out = m->out;
            return true;
        }
        if (m->kind == GS_MODULE_EMBEDDING && (m->flags & GS_MOD_TOKENS) && embedding == NULL)
            embedding = m;
    }
    if (!a->tie_word_embeddings || embedding == NULL)
        return false;
    *name = "lm_head";
    *in = embedding->out;
    *out = embedding->in;
    return true;
}

bool gs_lora_head(const struct gs_arch *a, const struct gs_training *tr, uint64_t *in,
                  uint64_t *out)
{
    const char *name = NULL;
    if (!head_of(a, &name, in, out))
        return false;
    /* all_linear leaves the head out (PEFT's "all-linear"); only a target naming it adapts it */
    for (size_t i = 0; i < tr->lora_target_count; i++)
        if (names_module(name, tr->lora_targets[i]))
            return true;
    return false;
}

/* The token embedding's name and shape (rows: the vocabulary, width: the hidden size); false
 * when the model has none. */
static bool embedding_of(const struct gs_arch *a, const char **name, uint64_t *rows,
                         uint64_t *width)
{
    for (size_t i = 0; i < a->module_count; i++) {
        const struct gs_module *m = &a->modules[i];
        if (m->kind == GS_MODULE_EMBEDDING && (m->flags & GS_MOD_TOKENS)) {
            *name = m->name;
            *rows = m->in;
            *width = m->out;
            return true;
        }
    }
    return false;
}

bool gs_lora_embedding(const struct gs_arch *a, const struct gs_training *tr, uint64_t *rows,
                       uint64_t *width)
{
    const char *name = NULL;
    uint64_t r = 0, w = 0;
    if (!embedding_of(a, &name, &r, &w))
        return false;
    if (rows != NULL)
        *rows = r;
    if (width != NULL)
        *width = w;
    /* all_linear leaves embeddings out (PEFT's "all-linear" matches nn.Linear); only a target
     * naming the module adapts it (peft/tuners/lora/layer.py Embedding) */
    for (size_t i = 0; i < tr->lora_target_count; i++)
        if (names_module(name, tr->lora_targets[i]))
            return true;
    return false;
}

/* One adapter's parameters: r (d_in + d_out), and DoRA's magnitude over d_out (PEFT
 * LoraLayer.update_layer; DoraLinearLayer). The head's: d_out its vocabulary. An adapted
 * embedding's alike with d_in its vocabulary and d_out its width (lora.Embedding:
 * lora_embedding_A r x num_embeddings, lora_embedding_B embedding_dim x r; DoRA's magnitude
 * scales each of the embedding_dim columns, variants.py DoraEmbeddingVariant) */
static uint64_t one_adapter(const struct gs_training *tr, uint64_t in, uint64_t out, bool *ovf)
{
    return gs_add(gs_mul(tr->lora_rank, gs_add(in, out, ovf), ovf), tr->lora_dora ? out : 0, ovf);
}

/* The adapters of the modules adapted only when named: the output head and the token
 * embedding. */
static uint64_t named_adapters(const struct gs_arch *a, const struct gs_training *tr, bool *ovf)
{
    uint64_t n = 0, in = 0, out = 0;
    if (gs_lora_head(a, tr, &in, &out))
        n = gs_add(n, one_adapter(tr, in, out, ovf), ovf);
    if (gs_lora_embedding(a, tr, &in, &out))
        n = gs_add(n, one_adapter(tr, in, out, ovf), ovf);
    return n;
}

/* The adapters on `rows` inputs and `width` outputs (one_adapter) in each of a module's `count`
 * instances and `layers` layers. */
static uint64_t adapter_parameters(const struct gs_training *tr, uint64_t rows, uint64_t width,
                                   uint64_t count, uint64_t layers, bool *ovf)
{
    return gs_mul(gs_mul(one_adapter(tr, rows, width, ovf), count ? count : 1, ovf), layers, ovf);
}

/* The `k`th block LoRA may adapt, with the layers that run it: the layer blocks
 * (k < a->block_count, `counts` their layers) and then the towers but the MTP layers and a frozen
 * vision tower (training.freeze_vision_tower: no adapters there). NULL for a skipped tower. */
static const struct gs_block *adaptable_block(const struct gs_arch *a, const struct gs_training *tr,
                                              size_t k, const uint64_t *counts, uint64_t *layers)
{
    if (k < a->block_count) {
        *layers = counts[k];
        return &a->blocks[k];
    }
    const struct gs_tower *tw = &a->towers[k - a->block_count];
    if (tw->part == GS_PART_MTP || tw->block >= a->block_count ||
        (tw->part == GS_PART_VISION && tr->freeze_vision_tower))
        return NULL;
    *layers = tw->layers;
    return &a->blocks[tw->block];
}

/* r * (d_in + d_out) per adapted nn.Linear(d_in, d_out), and d_out more with DoRA, times its
 * layers. A fused projection whose parts the framework adapts apart is fused_adapters' (it
 * matches a target that names it or a part). */
static uint64_t lora_block(const struct gs_training *tr, const struct gs_block *b,
                           const char *target, uint64_t layers, bool *matched, bool *refused,
                           bool *ovf)
{
    uint64_t n = 0;
    for (size_t i = 0; i < b->module_count; i++) {
        const struct gs_module *m = &b->modules[i];
        uint64_t widths[3];
        if (fused_qkv(tr, b, m, widths)) {
            if (lora_matches(m, target) || part_named(target))
                *matched = true;
            continue;
        }
        if (wrapper_refused(tr, m, target))
            *refused = true;
        if (!block_lora_matches(tr, b, m, target))
            continue;
        *matched = true;
        n = gs_add(n, adapter_parameters(tr, m->in, m->out, m->count, layers, ovf), ovf);
    }
    return n;
}

/* The adapters `target` gives the linear modules outside the layers and towers (a projector, a
 * merger, Gemma's per_layer_model_projection, a pooler), each an nn.Linear PEFT wraps as any other
 * (all-linear collects every nn.Linear but the output embeddings:
 * _maybe_include_all_linear_layers); a frozen vision tower's projector takes none
 * (gs_lora_adapts). The output head and the embedding are named_adapters'. */
static uint64_t model_level_adapters(const struct gs_arch *a, const struct gs_training *tr,
                                     const char *target, bool *matched, bool *ovf)
{
    uint64_t n = 0;
    for (size_t i = 0; i < a->module_count; i++) {
        const struct gs_module *m = &a->modules[i];
        if (frozen_projector(tr, m) || !block_lora_matches(tr, NULL, m, target))
            continue;
        *matched = true;
        n = gs_add(n, adapter_parameters(tr, m->in, m->out, m->count, 1, ovf), ovf);
    }
    return n;
}

/* LitGPT's LoRAQKVLinear over a fused projection, in every layer: lora_A holds r rows for each
 * adapted part (r * sum(enable_lora) x d_in) and lora_B the adapted parts' outputs (their widths
 * x r), counted once whatever targets name it (lora.py LoRAQKVLinear.__init__). */
static uint64_t fused_adapters(const struct gs_arch *a, const struct gs_training *tr, bool *ovf)
{
    uint64_t n = 0, counts[GS_BLOCKS_MAX];
    gs_arch_count_weight_blocks(a, 0, a->num_hidden_layers, counts);
    for (size_t k = 0; k < a->block_count + a->tower_count; k++) {
        uint64_t layers = 0;
        const struct gs_block *b = adaptable_block(a, tr, k, counts, &layers);
        for (size_t i = 0; b != NULL && i < b->module_count; i++) {
            const struct gs_module *m = &b->modules[i];
            const unsigned parts = gs_lora_qkv_parts(tr, b, m, NULL);
            if (parts == 0)
                continue;
            const uint64_t rows = gs_qkv_part_count(parts) * (uint64_t)m->in;
            const uint64_t width = gs_lora_width(tr, b, m);
            n = gs_add(n, adapter_parameters(tr, rows, width, m->count, layers, ovf), ovf);
        }
    }
    return n;
}

/* Whether `target` (all_linear, or a name) names routed expert linear `m` of block `b`, one of
 * the nn.Linear modules a model code that keeps experts so has. */
static bool names_expert(const struct gs_block *b, const struct gs_module *m, const char *target)
{
    return b->mlp.kind == GS_MLP_MOE && !b->mlp.experts_fused && m->kind == GS_MODULE_LINEAR &&
           (m->flags & GS_MOD_EXPERT) &&
           (strcmp(target, GS_LORA_ALL_LINEAR) == 0 || names_module(m->name, target));
}

/* Whether `name` is one of the ", "-separated entries of `list` (not a part of one: "gate" is
 * not listed by "gate_proj"). */
static bool listed(const char *list, const char *name)
{
    const size_t n = strlen(name);
    for (const char *p = list; (p = strstr(p, name)) != NULL; p += n)
        if ((p == list || (p >= list + 2 && p[-2] == ',' && p[-1] == ' ')) &&
            (p[n] == '\0' || p[n] == ','))
            return true;
    return false;
}

/* The distinct linear module names of the model, for an error message (a wrapped module's as
 * PEFT names its linear, "post.linear"); with `routed`, the routed experts' linears too
 * (gs_framework_expert_linears). */
static void linear_names(const struct gs_arch *a, const struct gs_training *tr, bool routed,
                         char *buf, size_t cap)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t k = 0; k < a->block_count; k++) {
        for (size_t i = 0; i < a->blocks[k].module_count; i++) {
            const struct gs_module *m = &a->blocks[k].modules[i];
            if (!block_lora_matches(tr, &a->blocks[k], m, GS_LORA_ALL_LINEAR) &&
                !(routed && names_expert(&a->blocks[k], m, GS_LORA_ALL_LINEAR)))
                continue;
            const char *dot = strrchr(m->name, '.');
            char name[GS_LORA_NAME_MAX + 8];
            /* a module holding its linear is named by it under PEFT (wrapper_refused) */
            snprintf(name, sizeof(name), "%s%s", dot != NULL ? dot + 1 : m->name,
                     (m->flags & GS_MOD_WRAPPED) && peft_wraps(tr) ? ".linear" : "");
            if (listed(buf, name))
                continue;
            const int w = snprintf(buf + used, cap - used, "%s%s", used ? ", " : "", name);
            if (w < 0 || (size_t)w >= cap - used) {
                buf[used] = '\0'; /* whole names only */
                return;
            }
            used += (size_t)w;
        }
    }
    for (size_t i = 0; i < a->module_count; i++) { /* outside the layers, by their whole names */
        const struct gs_module *m = &a->modules[i];
        const char *name = m->name;
        if (frozen_projector(tr, m) || !block_lora_matches(tr, NULL, m, GS_LORA_ALL_LINEAR) ||
            listed(buf, name))
            continue;
        const int w = snprintf(buf + used, cap - used, "%s%s", used ? ", " : "", name);
        if (w < 0 || (size_t)w >= cap - used) {
            buf[used] = '\0';
            return;
        }
        used += (size_t)w;
    }
    const char *head = NULL;
    uint64_t in = 0, out = 0;
    if (head_of(a, &head, &in, &out)) {
        const int w = snprintf(buf + used, cap - used, "%s%s (the output head, named only)",
                               used ? ", " : "", head);
        if (w < 0 || (size_t)w >= cap - used) {
            buf[used] = '\0';
            return;
        }
        used += (size_t)w;
    }
    const char *embedding = NULL;
    if (embedding_of(a, &embedding, &in, &out))
        snprintf(buf + used, cap - used, "%s%s (the token embedding, named only)", used ? ", " : "",
                 embedding);
}

bool gs_lora_adapts_expert(const struct gs_training *tr, const struct gs_block *b,
                           const struct gs_module *m)
{
    const size_t n = tr->lora_target_count;
    for (size_t t = 0; t < (n ? n : 1); t++)
        if (names_expert(b, m, n ? tr->lora_targets[t] : GS_LORA_ALL_LINEAR))
            return true;
    return false;
}

/* Whether `target` names a routed expert linear of the model's decoder blocks. */
static bool names_any_expert(const struct gs_arch *a, const char *target)
{
    for (size_t k = 0; k < a->block_count; k++)
        for (size_t i = 0; i < a->blocks[k].module_count; i++)
            if (names_expert(&a->blocks[k], &a->blocks[k].modules[i], target))
                return true;
    return false;
}

/* Whether `target` names a routed expert projection of the model that the framework does not
 * keep as nn.Linear modules (gs_lora_parameters_routed without `routed`, or experts_fused). */
static bool names_fused_expert(const struct gs_arch *a, const char *target)
{
    for (size_t k = 0; k < a->block_count; k++)
        for (size_t i = 0; i < a->blocks[k].module_count; i++) {
            const struct gs_module *m = &a->blocks[k].modules[i];
            if (a->blocks[k].mlp.kind == GS_MLP_MOE && m->kind == GS_MODULE_LINEAR &&
                (m->flags & GS_MOD_EXPERT) && names_module(m->name, target))
                return true;
        }
    return false;
}

uint64_t gs_lora_expert_parameters(const struct gs_arch *a, const struct gs_training *tr)
{
    bool ovf = false;
    uint64_t total = 0, counts[GS_BLOCKS_MAX];
    gs_arch_count_weight_blocks(a, 0, a->num_hidden_layers, counts);
    for (size_t k = 0; k < a->block_count; k++) {
        const struct gs_block *b = &a->blocks[k];
        if (counts[k] == 0)
            continue;
        for (size_t i = 0; i < b->module_count; i++) {
            const struct gs_module *m = &b->modules[i];
            if (!gs_lora_adapts_expert(tr, b, m))
                continue;
            total = gs_add(total, adapter_parameters(tr, m->in, m->out, m->count, counts[k], &ovf),
                           &ovf);
        }
    }
    return ovf ? UINT64_MAX : total;
}

/* The MoE model types whose v4 expert names PEFT maps onto the fused v5 parameters: transformers
 * conversion_mapping.py _MODEL_TO_CONVERSION_PATTERN's rows to "mixtral" and "qwen2_moe" (source
 * of 2026-08-21), with the two themselves, as peft utils/transformers_weight_conversion.py
 * _MOE_TARGET_MODULE_MAPPING reads them: Mixtral's style names the experts w1, w3 and w2,
 * Qwen2-MoE's gate_proj, up_proj and down_proj; both name the router gate. */
static const struct {
    const char *model_type;
    bool mixtral_names;
} peft_moe_types[] = {
    {"mixtral", true},         {"minimax", true},       {"minimax_m2", true},
    {"qwen2_moe", false},      {"afmoe", false},        {"deepseek_v2", false},
    {"deepseek_v3", false},    {"deepseek_v32", false}, {"dots1", false},
    {"ernie4_5_moe", false},   {"glm4_moe", false},     {"glm4_moe_lite", false},
    {"glm_moe_dsa", false},    {"glm4v_moe", false},    {"longcat_flash", false},
    {"solar_open", false},     {"mellum", false},       {"qwen3_moe", false},
    {"qwen3_omni_moe", false}, {"qwen3_next", false},   {"hunyuan_v1_moe", false},
    {"flex_olmo", false},      {"olmoe", false},        {"exaone_moe", false},
    {"cohere2_moe", false},
};

/* peft_moe_types' style for `model_type`: 1 Mixtral's names, 0 Qwen2-MoE's, -1 not converted. */
static int peft_moe_style(const char *model_type)
{
    for (size_t i = 0; i < sizeof(peft_moe_types) / sizeof(peft_moe_types[0]); i++)
        if (strcmp(model_type, peft_moe_types[i].model_type) == 0)
            return peft_moe_types[i].mixtral_names ? 1 : 0;
    return -1;
}

/* Whether PEFT's conversion (tr->lora_peft_moe) moved `target` to target_parameters: valid
 * whatever it matches, as PEFT only warns where a target parameter matches nothing ("were set
 * but no parameter was matched": a router module not named gate, Hunyuan's gate.wg), and fails
 * only where nothing at all is adapted (the total, below). */
static bool peft_converted_target(const struct gs_training *tr, const char *target)
{
    return (tr->lora_peft_moe & GS_PEFT_MOE_WRAPPERS) &&
           peft_moe_key(tr->lora_peft_moe & GS_PEFT_MOE_MIXTRAL, target) >= 0;
}

enum gs_status gs_lora_parameters(const struct gs_arch *a, const struct gs_training *tr,
                                  uint64_t *out, struct gs_error *err)
{
    return gs_lora_parameters_routed(a, tr, false, out, err);
}

enum gs_status gs_lora_parameters_routed(const struct gs_arch *a, const struct gs_training *tr,
                                         bool routed, uint64_t *out, struct gs_error *err)
{
    bool ovf = false;
    uint64_t total = 0, counts[GS_BLOCKS_MAX];
    const size_t n = tr->lora_target_count;
    gs_arch_count_weight_blocks(a, 0, a->num_hidden_layers, counts);
    for (size_t i = 0; i < (n ? n : 1); i++) {
        const char *target = n ? tr->lora_targets[i] : GS_LORA_ALL_LINEAR;
        bool matched = false, refused = false;
        /* all_linear already covers every name: a list that repeats it adds nothing */
        if (n > 1 && strcmp(target, GS_LORA_ALL_LINEAR) == 0)
            continue;
        for (size_t k = 0; k < a->block_count + a->tower_count; k++) {
            uint64_t layers = 0;
            const struct gs_block *b = adaptable_block(a, tr, k, counts, &layers);
            if (b != NULL)
                total = gs_add(total, lora_block(tr, b, target, layers, &matched, &refused, &ovf),
                               &ovf);
        }
        total = gs_add(total, model_level_adapters(a, tr, target, &matched, &ovf), &ovf);
        const char *head = NULL, *embedding = NULL;
        uint64_t head_in = 0, head_out = 0;
        if (head_of(a, &head, &head_in, &head_out) && names_module(head, target))
            matched = true; /* counted once, below */
        if (embedding_of(a, &embedding, &head_in, &head_out) && names_module(embedding, target))
            matched = true; /* likewise */
        if (routed && names_any_expert(a, target))
            matched = true; /* the routed experts' adapters, below */
        if (peft_converted_target(tr, target))
            matched = true; /* PEFT's ParamWrappers on the fused experts, below */
        if (!matched && refused)
            return gs_error_add(
                err, GS_ERR_INVALID, "/training/lora/targets",
                "\"%s\" names only modules this %s model builds around an nn.Linear (Gemma 4's "
                "Gemma4ClippableLinear, in its vision and audio towers), which PEFT refuses as "
                "targets (\"Target module ... is not supported\": LoraModel._create_new_module "
                "takes the nn.Linear, not a module holding one; PEFT issue #3129); name the "
                "linear they hold, \"%s.linear\", or use all_linear, which adapts it",
                target, a->model_type, target);
        if (!matched) {
            char names[640];
            linear_names(a, tr, routed, names, sizeof(names));
            const int style = peft_wraps(tr) && !routed ? peft_moe_style(a->model_type) : -1;
            if (style >= 0 && (names_fused_expert(a, target) || names_module(target, "gate")))
                return gs_error_add(
                    err, GS_ERR_INVALID, "/training/lora/targets",
                    "\"%s\" names the routed experts or the router of this %s model, which "
                    "transformers 5.x keeps as fused parameters: PEFT before 0.19 (peft_version) "
                    "finds no nn.Linear of that name (\"not found\", or the router's \"not "
                    "supported\"); PEFT 0.19 and later adapt the fused parameters "
                    "(target_parameters, a ParamWrapper each: _convert_peft_config_moe), as "
                    "gpusizer sizes them with a later peft_version; its linear layers are %s (or "
                    "all_linear; a 4.x framework_version for per-expert nn.Linear modules)",
                    target, a->model_type, names);
            if (names_fused_expert(a, target))
                return gs_error_add(
                    err, GS_ERR_INVALID, "/training/lora/targets",
                    "\"%s\" names the routed experts of this %s model, which its code keeps here "
                    "as fused 3D parameters, not the nn.Linear modules LoRA wraps (transformers "
                    "5.x; gpt-oss and Llama 4 in every release; transformers 4.x and LitGPT keep "
                    "the others as nn.Linear); its linear layers are %s (or all_linear)",
                    target, a->model_type, names);
            return gs_error_add(err, GS_ERR_INVALID, "/training/lora/targets",
                                "\"%s\" names no linear layer of this %s model; its linear layers "
                                "are %s (or all_linear)",
                                target, a->model_type, names);
        }
    }
    for (size_t i = 0; n > 1 && i < n; i++) /* all_linear in a longer list: every linear once */
        if (strcmp(tr->lora_targets[i], GS_LORA_ALL_LINEAR) == 0) {
            struct gs_training all = *tr;
            all.lora_target_count = 0;
            const enum gs_status st = gs_lora_parameters_routed(a, &all, routed, out, err);
            if (st == GS_OK) /* the head and the embedding, when the list names them too */
                *out = gs_add(*out, named_adapters(a, tr, &ovf), &ovf);
            return ovf ? gs_error_add(err, GS_ERR_RANGE, "/training/lora/rank",
                                      "the adapter count overflows")
                       : st;
        }
    total = gs_add(total, named_adapters(a, tr, &ovf), &ovf);
    total = gs_add(total, fused_adapters(a, tr, &ovf), &ovf);
    struct gs_lora_fused_experts wrapped;
    if (gs_lora_fused_experts(a, tr, &wrapped))
        total = gs_add(total, wrapped.adapters, &ovf);
    if (routed)
        total = gs_add(total, gs_lora_expert_parameters(a, tr), &ovf);
    if (total == 0)
        return gs_error_add(err, GS_ERR_INVALID, "/training/lora/targets",
                            "names no module to adapt");
    if (ovf)
        return gs_error_add(err, GS_ERR_RANGE, "/training/lora/rank", "the adapter count overflows");
    *out = total;
    return GS_OK;
}

enum gs_status gs_lora_peft_resolve(const struct gs_arch *a, struct gs_training *tr,
                                    bool experts_fused, struct gs_error *err)
{
    tr->lora_peft_moe = 0;
    const int style = peft_moe_style(a->model_type);
    if (style < 0 || !experts_fused || !peft_wraps(tr) ||
        (tr->peft_version != 0 && tr->peft_version < GS_PEFT_CONVERTS_MOE))
        return GS_OK;
    const bool mixtral = style == 1;
    bool named[PEFT_KEYS] = {false, false, false, false}, all_linear = tr->lora_target_count == 0;
    for (size_t i = 0; i < tr->lora_target_count; i++) {
        if (strcmp(tr->lora_targets[i], GS_LORA_ALL_LINEAR) == 0) {
            all_linear = true;
            continue;
        }
        const int k = peft_moe_key(mixtral, tr->lora_targets[i]);
        if (k >= 0)
            named[k] = true;
    }
    if (all_linear && tr->peft_version != 0 && tr->peft_version < GS_PEFT_CONVERTS_ALL_LINEAR)
        return gs_error_add(
            err, GS_ERR_INVALID, "/training/lora/targets",
            "PEFT 0.19 cannot put all-linear on this %s model: converting its targets for "
            "transformers 5.x's fused experts reads the string as a set of its characters "
            "(transformers_weight_conversion.py _convert_peft_config_moe: "
            "set(peft_config.target_modules)), and get_peft_model then finds no \"Target "
            "modules {'a', 'l', ...}\". PEFT 0.20 resolves all-linear first (PR #3232): set "
            "peft_version to 0.20 or later, or name the modules",
            a->model_type);
    for (int k = 0; k < PEFT_KEYS; k++)
        named[k] = named[k] || all_linear;
    if (named[PEFT_KEY_GATE] != named[PEFT_KEY_UP])
        return gs_error_add(
            err, GS_ERR_INVALID, "/training/lora/targets",
            "PEFT 0.19 and later turn the expert names of this %s model into LoRA on its fused "
            "parameters, and raise \"Cannot convert PEFT target(s) %s without also targeting %s "
            "because they are fused into gate_up_proj\" (transformers_weight_conversion.py "
            "_convert_peft_config_moe): name both, or neither (peft_version below 0.19 leaves "
            "the experts frozen)",
            a->model_type,
            peft_moe_keys[mixtral][named[PEFT_KEY_GATE] ? PEFT_KEY_GATE : PEFT_KEY_UP],
            peft_moe_keys[mixtral][named[PEFT_KEY_GATE] ? PEFT_KEY_UP : PEFT_KEY_GATE]);
    unsigned bits = 0;
    if (named[PEFT_KEY_GATE] && named[PEFT_KEY_UP])
        bits |= GS_PEFT_MOE_GATE_UP;
    if (named[PEFT_KEY_DOWN])
        bits |= GS_PEFT_MOE_DOWN;
    if (named[PEFT_KEY_ROUTER])
        bits |= GS_PEFT_MOE_ROUTER;
    if (bits == 0)
        return GS_OK;
    tr->lora_peft_moe = bits | (mixtral ? GS_PEFT_MOE_MIXTRAL : 0);
    /* the converted names leave target_modules whatever they match; a ParamWrapper exists only
     * where a block holds the parameter (a router not named gate holds no gate.weight) */
    unsigned wrappers = 0;
    for (size_t k = 0; k < a->block_count; k++)
        wrappers |= gs_lora_param_wrappers(tr, &a->blocks[k]);
    if (wrappers == 0)
        return GS_OK;
    /* lora.ParamWrapper.__init__ and update_layer (peft tuners/lora/layer.py) */
    if (tr->lora_dropout_permille > 0)
        return gs_error_add(
            err, GS_ERR_INVALID, "/training/lora/dropout",
            "the targets put LoRA on the fused experts or router of this %s model, which PEFT "
            "0.19 and later adapt with lora.ParamWrapper, and it raises \"lora.ParamWrapper "
            "does not work with lora_dropout != 0\" (it adds the adapters' product to the "
            "weight, where no dropout of the input can apply): set dropout 0, target the "
            "attention projections alone, or peft_version below 0.19 (experts frozen)",
            a->model_type);
    if (tr->lora_dora)
        return gs_error_add(
            err, GS_ERR_INVALID, "/training/lora/use_dora",
            "the targets put LoRA on the fused experts or router of this %s model, which PEFT "
            "0.19 and later adapt with lora.ParamWrapper, and it raises \"lora.ParamWrapper "
            "does not work with use_dora=True\": drop use_dora, target the attention "
            "projections alone, or peft_version below 0.19 (experts frozen)",
            a->model_type);
    return GS_OK;
}

/* Block `b`'s router module, where it is named as PEFT's gate.weight matches (NULL otherwise). */
static const struct gs_module *router_named_gate(const struct gs_block *b)
{
    for (size_t i = 0; i < b->module_count; i++)
        if (gs_module_is_router(b, &b->modules[i]))
            return names_module(b->modules[i].name, "gate") ? &b->modules[i] : NULL;
    return NULL;
}

unsigned gs_lora_param_wrappers(const struct gs_training *tr, const struct gs_block *b)
{
    if (!(tr->lora_peft_moe & GS_PEFT_MOE_WRAPPERS) || b->mlp.kind != GS_MLP_MOE ||
        b->mlp.experts == 0)
        return 0;
    unsigned bits = tr->lora_peft_moe & (GS_PEFT_MOE_DOWN | GS_PEFT_MOE_ROUTER);
    if (b->mlp.gated) /* a gated expert's gate and up are one fused parameter */
        bits |= tr->lora_peft_moe & GS_PEFT_MOE_GATE_UP;
    if (router_named_gate(b) == NULL)
        bits &= ~(unsigned)GS_PEFT_MOE_ROUTER;
    return bits;
}

bool gs_lora_fused_experts(const struct gs_arch *a, const struct gs_training *tr,
                           struct gs_lora_fused_experts *out)
{
    *out = (struct gs_lora_fused_experts){0, 0, 0, 0, 0};
    if (!(tr->lora_peft_moe & GS_PEFT_MOE_WRAPPERS))
        return false;
    bool ovf = false, any = false;
    uint64_t counts[GS_BLOCKS_MAX];
    gs_arch_count_weight_blocks(a, 0, a->num_hidden_layers, counts);
    for (size_t k = 0; k < a->block_count; k++) {
        const struct gs_block *b = &a->blocks[k];
        const unsigned bits = counts[k] ? gs_lora_param_wrappers(tr, b) : 0;
        if (bits == 0)
            continue;
        any = true;
        const uint64_t e = b->mlp.experts, h = a->hidden_size, w = b->mlp.width;
        uint64_t experts = 0, router = 0, merged = 0, merged_experts = 0;
        /* ParamWrapper.update_layer: lora_A (in, r * num_experts), lora_B (r * num_experts,
         * out); the fused gate and up at rank 2r (rank_pattern r * 2) */
        if (bits & GS_PEFT_MOE_GATE_UP) {
            experts = gs_add(
                experts, gs_mul(gs_mul(2 * tr->lora_rank, e, &ovf), gs_add(h, 2 * w, &ovf), &ovf),
                &ovf);
            merged = gs_add(merged, gs_mul(gs_mul(e, h, &ovf), 2 * w, &ovf), &ovf);
        }
        if (bits & GS_PEFT_MOE_DOWN) {
            experts = gs_add(
                experts, gs_mul(gs_mul(tr->lora_rank, e, &ovf), gs_add(w, h, &ovf), &ovf), &ovf);
            merged = gs_add(merged, gs_mul(gs_mul(e, h, &ovf), w, &ovf), &ovf);
        }
        merged_experts = merged;
        if (bits & GS_PEFT_MOE_ROUTER) { /* a 2D weight: one "expert" of E outputs */
            router = gs_mul(tr->lora_rank, gs_add(h, e, &ovf), &ovf);
            merged = gs_add(merged, gs_mul(e, h, &ovf), &ovf);
        }
        out->expert_adapters = gs_add(out->expert_adapters, gs_mul(experts, counts[k], &ovf), &ovf);
        out->adapters =
            gs_add(out->adapters, gs_mul(gs_add(experts, router, &ovf), counts[k], &ovf), &ovf);
        if (merged > out->merged_elements) {
            out->merged_elements = merged;
            out->merged_expert_elements = merged_experts;
            out->merged_experts = e;
        }
    }
    if (ovf)
        out->adapters = out->expert_adapters = out->merged_elements = UINT64_MAX;
    return any;
}

/* The adapters (adapter_parameters) of the layers' and towers' modules `keep` selects, over the
 * layers that run them (adaptable_block); `ctx` is keep's. UINT64_MAX on overflow. */
static uint64_t adapters_where(const struct gs_arch *a, const struct gs_training *tr,
                               bool (*keep)(const struct gs_training *tr, const struct gs_block *b,
                                            const struct gs_module *m, const void *ctx),
                               const void *ctx)
{
    bool ovf = false;
    uint64_t total = 0, counts[GS_BLOCKS_MAX];
    gs_arch_count_weight_blocks(a, 0, a->num_hidden_layers, counts);
    for (size_t k = 0; k < a->block_count + a->tower_count; k++) {
        uint64_t layers = 0;
        const struct gs_block *b = adaptable_block(a, tr, k, counts, &layers);
        for (size_t i = 0; b != NULL && i < b->module_count; i++) {
            const struct gs_module *m = &b->modules[i];
            if (keep(tr, b, m, ctx))
                total = gs_add(total, adapter_parameters(tr, m->in, m->out, m->count, layers, &ovf),
                               &ovf);
        }
    }
    return ovf ? UINT64_MAX : total;
}

/* A module the same targets adapted before PEFT's conversion (`ctx`: the training without it) and
 * adapt no more; a router named gate keeps its adapter, as a ParamWrapper on its weight. */
static bool converted_module(const struct gs_training *tr, const struct gs_block *b,
                             const struct gs_module *m, const void *ctx)
{
    if (b != NULL && gs_module_is_router(b, m) &&
        (gs_lora_param_wrappers(tr, b) & GS_PEFT_MOE_ROUTER))
        return false;
    return gs_lora_adapts(ctx, b, m) && !gs_lora_adapts(tr, b, m);
}

uint64_t gs_lora_converted_modules(const struct gs_arch *a, const struct gs_training *tr)
{
    if (!(tr->lora_peft_moe & GS_PEFT_MOE_WRAPPERS))
        return 0;
    struct gs_training before = *tr;
    before.lora_peft_moe = 0;
    bool ovf = false;
    uint64_t total = adapters_where(a, tr, converted_module, &before);
    for (size_t i = 0; i < a->module_count; i++) /* the modules outside the layers */
        if (converted_module(tr, NULL, &a->modules[i], &before))
            total = gs_add(total,
                           adapter_parameters(tr, a->modules[i].in, a->modules[i].out,
                                              a->modules[i].count, 1, &ovf),
                           &ovf);
    return ovf ? UINT64_MAX : total;
}

/* A wrapped module a named target reaches that stock PEFT refuses, and no inner-linear target
 * adapts (wrapper_refused). */
static bool refused_module(const struct gs_training *tr, const struct gs_block *b,
                           const struct gs_module *m, const void *ctx)
{
    (void)ctx;
    bool refused = false;
    for (size_t t = 0; t < tr->lora_target_count; t++)
        refused = refused || wrapper_refused(tr, m, tr->lora_targets[t]);
    return refused && !gs_lora_adapts(tr, b, m);
}

uint64_t gs_lora_refused_wrapped(const struct gs_arch *a, const struct gs_training *tr)
{
    return adapters_where(a, tr, refused_module, NULL);
}
