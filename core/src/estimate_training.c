/*
 * estimate_training.c - the training half of gs_estimate_compute (see
 * gs/estimate.h): model states by regime, optimizer and sharding (ZeRO, FSDP,
 * Megatron's split), LoRA and QLoRA bases, activations through
 * gs/activation.h, and the peak moment of a step (gs/train_peak.h). Sources:
 * the ZeRO paper and DeepSpeed's memory notes (bytes per parameter by regime
 * and optimizer), Megatron-LM (the most loaded stage, vocabulary padding),
 * PEFT and the QLoRA paper (adapters, 4-bit bases), PyTorch and NCCL (runtime
 * overheads).
 */
#include "estimate_training.h"

#include "estimate_notes.h"

#include "gs/activation.h"
#include "gs/arch_build.h"
#include "gs/capability.h"
#include "gs/device_map.h"
#include "gs/framework.h"
#include "gs/train_peak.h"
#include "gs/trl.h"
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

/* Parameters on the most loaded GPU, split into what tensor parallelism
 * shards (dense), the routed experts, and the linear weights (for QLoRA's
 * 4-bit base). */
struct shard {
    uint64_t dense;   /* everything but routed experts */
    uint64_t experts; /* routed experts on this GPU */
    uint64_t linear;  /* attention + MLP weights among `dense` (quantizable) */
    uint64_t head;    /* an untied output head's weights among `dense` (0: none on this GPU) */
    uint64_t vocab_padding; /* rows added to the embedding (and untied head) for TP */
    uint64_t vision;        /* the vision towers' weights among `dense` (on the first stage) */
    uint64_t busiest_active; /* pipeline stages: the parameters a token uses on the stage with
                                the most of them (its layers', the head on the last) */
};

static uint64_t ceil_div(uint64_t n, uint64_t d)
{
    return gs_div_ceil(n, d ? d : 1);
}

static uint64_t max_u64(uint64_t a, uint64_t b)
{
    return a > b ? a : b;
}

static uint64_t min_u64(uint64_t a, uint64_t b)
{
    return a < b ? a : b;
}

/* The parameters of `counts` layers of each block, from one layer of each (`block`), by part
 * and active. */
static void layers_params(const struct gs_arch *a, const struct gs_param_count *block,
                          const uint64_t *counts, struct gs_param_count *out, bool *ovf)
{
    memset(out, 0, sizeof(*out));
    for (size_t b = 0; b < a->block_count; b++) {
        if (counts[b] == 0)
            continue;
        const struct gs_param_count *one = &block[b];
        const uint64_t n = counts[b];
        out->embedding = gs_add(out->embedding, gs_mul(one->embedding, n, ovf), ovf);
        out->attention = gs_add(out->attention, gs_mul(one->attention, n, ovf), ovf);
        out->mlp = gs_add(out->mlp, gs_mul(one->mlp, n, ovf), ovf);
        out->experts = gs_add(out->experts, gs_mul(one->experts, n, ovf), ovf);
        out->norms = gs_add(out->norms, gs_mul(one->norms, n, ovf), ovf);
        out->other = gs_add(out->other, gs_mul(one->other, n, ovf), ovf);
        out->active = gs_add(out->active, gs_mul(one->active, n, ovf), ovf);
    }
}

/* One layer of each block, by part: the counts the model spec keeps (gs_model_spec.counted),
 * else counted into `own`. */
static const struct gs_param_count *block_params(const struct gs_model_spec *m,
                                                 struct gs_param_count *own, bool *ovf)
{
    if (m->counted)
        return m->block_counts;
    for (size_t b = 0; b < m->arch.block_count; b++)
        gs_arch_count_block(&m->arch, b, &own[b], ovf);
    return own;
}

/* The ranks an expert's shard is replicated over, which share its gradients and, sharded,
 * its states: a stage's tensor x context x data ranks over expert x expert_tensor
 * (Megatron-LM parallel_state.py: expert_data_parallel_size = world_size /
 * (expert_tensor x expert x pipeline); torchtitan parallel_dims.py: efsdp = dp_shard x cp x
 * tp / ep). */
static uint64_t expert_data_parallel(const struct gs_parallelism *par, bool *ovf)
{
    return ceil_div(gs_mul(gs_mul(par->tensor, par->context, ovf), par->data, ovf),
                    gs_mul(par->expert, par->expert_tensor, ovf));
}

/* Parameters on the most loaded GPU (Megatron-LM parallel_state.py, build_tokenizer.py):
 * each pipeline stage holds the decoder layers the framework's split gives it
 * (gs_workload_stage_split), counted layer by layer; projections, embeddings and head over
 * t; norms replicated within a stage; routed experts over e, each over its expert_tensor
 * ranks (Megatron-LM theoretical_memory_usage.py: expert_sharded_params / (expert_tensor x
 * expert_model parallel size)). With t > 1 the vocabulary is
 * padded to a multiple of 128 * t (build_tokenizer.py). The first stage holds the
 * embedding and the vision and audio encoders, the last the head (a copy of a tied
 * embedding); what else lies outside the decoder layers is spread over the stages. The
 * stage with the most parameters on a GPU counts. */
static struct shard shard_params(const struct gs_model_spec *m, const struct gs_estimate *e,
                                 const struct gs_parallelism *par, bool *ovf)
{
    struct shard s = {0, 0, 0, 0, 0, 0, 0};
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
    const uint64_t embedding = ceil_div(gs_add(c->embedding, s.vocab_padding, ovf), t);
    const uint64_t head_rows = c->lm_head ? c->lm_head : c->embedding;
    const uint64_t head = ceil_div(gs_add(head_rows, s.vocab_padding, ovf), t);
    /* vision and audio encoders run before the first decoder layer: the first stage holds
     * them, split over tensor ranks like the layers */
    const uint64_t towers = ceil_div(gs_add(c->vision, c->audio, ovf), t);
    uint64_t bounds[GS_LAYERS_MAX + 1];
    if (p == 1 || p > GS_LAYERS_MAX ||
        !gs_stage_bounds(&par->stages, a->num_hidden_layers, p, bounds)) {
        /* one stage holds it all (a split that cannot place the layers was refused before) */
        const uint64_t linear = gs_add(c->attention, c->mlp, ovf);
        s.dense = gs_add(gs_add(ceil_div(gs_add(linear, c->other, ovf), t), c->norms, ovf),
                         gs_add(embedding, towers, ovf), ovf);
        if (c->lm_head) {
            s.dense = gs_add(s.dense, head, ovf);
            s.head = head;
        }
        s.experts = ceil_div(c->experts, gs_mul(par->expert, par->expert_tensor, ovf));
        s.linear = ceil_div(linear, t);
        s.vision = ceil_div(c->vision, t);
        return s;
    }
    /* one layer of each block, by part; what all the decoder layers hold, and so what the
     * encoder towers of their own parts (T5's) and the model-level modules add: spread over
     * the stages, as the layers once were */
    struct gs_param_count own[GS_BLOCKS_MAX], layers;
    const struct gs_param_count *block = block_params(m, own, ovf);
    uint64_t counts[GS_BLOCKS_MAX];
    gs_arch_count_weight_blocks(a, 0, a->num_hidden_layers, counts);
    layers_params(a, block, counts, &layers, ovf);
    const uint64_t rest_linear = gs_add(c->attention, c->mlp, ovf) -
                                 gs_add(layers.attention, layers.mlp, ovf);
    const uint64_t rest_other = c->other - layers.other;
    const uint64_t rest_norms = c->norms - layers.norms;
    const uint64_t rest_experts = c->experts - layers.experts;
    /* the layers' own lookup tables (per-layer embeddings) stay with their layers */
    const uint64_t first_ends =
        gs_add(ceil_div(gs_add(c->embedding - layers.embedding, s.vocab_padding, ovf), t), towers,
               ovf);
    /* a tied head is a copy of the embedding on the last stage (Megatron-LM's
     * word_embeddings_for_head), but under a device_map the embedding itself on GPU 0 (accelerate
     * keeps tied weights on one device) */
    const uint64_t last_head =
        c->lm_head ? head
        : par->device_map
            ? 0
            : ceil_div(gs_add(c->embedding - layers.embedding, s.vocab_padding, ovf), t);
    /* the work each stage does a token: its layers' active parameters, the head's on the last
     * (the logits' matrix product), the rest of the model's spread */
    const uint64_t outside = c->active > layers.active ? c->active - layers.active : 0;
    uint64_t head_active = a->logits ? (c->lm_head ? c->lm_head : c->embedding - layers.embedding)
                                     : 0;
    head_active = head_active < outside ? head_active : outside;
    const uint64_t share_active = ceil_div(outside - head_active, p);
    const uint64_t share_linear = ceil_div(rest_linear, p), share_other = ceil_div(rest_other, p);
    const uint64_t share_norms = ceil_div(rest_norms, p), share_experts = ceil_div(rest_experts, p);
    uint64_t most = 0;
    for (uint64_t k = 0; k < p; k++) {
        struct gs_param_count mine;
        gs_arch_count_stage_blocks(a, &par->stages, bounds, p, k, counts);
        gs_arch_weight_counts(a, counts);
        layers_params(a, block, counts, &mine, ovf);
        const uint64_t linear =
            gs_add(gs_add(mine.attention, mine.mlp, ovf), share_linear, ovf);
        const uint64_t other = gs_add(gs_add(mine.other, mine.embedding, ovf), share_other, ovf);
        const uint64_t norms = gs_add(mine.norms, share_norms, ovf);
        const uint64_t experts = gs_add(mine.experts, share_experts, ovf);
        const uint64_t active =
            gs_add(gs_add(mine.active, share_active, ovf), k + 1 == p ? head_active : 0, ovf);
        if (active > s.busiest_active)
            s.busiest_active = active;
        const uint64_t ends = k == 0 ? first_ends : k + 1 == p ? last_head : 0;
        const uint64_t dense = gs_add(gs_add(ceil_div(gs_add(linear, other, ovf), t), norms, ovf),
                                      ends, ovf);
        const uint64_t routed = ceil_div(experts, gs_mul(par->expert, par->expert_tensor, ovf));
        if (k == 0 || gs_add(dense, routed, ovf) > most) {
            most = gs_add(dense, routed, ovf);
            s.dense = dense;
            s.experts = routed;
            s.linear = ceil_div(linear, t);
            s.head = k + 1 == p && c->lm_head ? head : 0;
            s.vision = k == 0 ? ceil_div(c->vision, t) : 0;
        }
    }
    return s;
}

struct train_plan {
    struct gs_training tr;
    struct gs_parallelism par;
    enum gs_regime regime;
    bool lora;
    bool frozen_fp32;  /* adapter training over an fp32 base: loaded so, or made so by
                          prepare_model_for_kbit_training (its 4-bit linears aside) */
    uint64_t adapters; /* LoRA adapter parameters (whole model) */
    uint64_t expert_adapters; /* of them, the routed experts' (gs_lora_expert_parameters: where
                                 the model code keeps experts as nn.Linear modules) */
    struct gs_lora_fused_experts wrapped; /* PEFT 0.19+'s ParamWrappers on fused experts
                                             (gs_lora_fused_experts; zero without them) */
    struct gs_framework_rules rules;
    bool deepspeed;    /* ZeRO stages run by DeepSpeed (buckets), not FSDP */
};

/* What the peak model needs beyond the per-GPU model states. */
struct state_extra {
    uint64_t unit_bytes;      /* one decoder layer's weights as FSDP gathers them */
    uint64_t unit_grad_bytes; /* one decoder layer's gradient at the reduce dtype */
    uint64_t root_bytes;      /* embedding, head and final norm as FSDP gathers them */
    uint64_t root_grad_bytes; /* the root's gradient at the reduce dtype, before reduce-scatter */
    uint64_t moment_bytes;    /* one optimizer moment for this GPU's trainable shard */
    uint64_t linear_params;   /* linear weights on this GPU (autocast copies them) */
    uint64_t gathered_module; /* DeepSpeed ZeRO-3: the largest module and its gradient */
    uint64_t no_sync_grads;   /* FSDP no_sync(): gradients held unsharded (FSDP1 units, FSDP2) */
    uint64_t gathered_all;    /* the weights as FSDP or ZeRO-3 gathers them, all of them */
    uint64_t reduced_grads;   /* the gradient one data-parallel reduction carries, whole */
    uint64_t updated_weights; /* the trainable weights at their working dtype (the gather of
                                 the updated shards after a ZeRO-1/2 step) */
    uint64_t previous_graph_bytes; /* what the previous micro-batch's graph still holds when
                                      this one's forward ends (rules.keeps_previous_graph) */
    uint64_t head_grad_bytes; /* full training: the output head weight's gradient as autograd
                                 makes it, this GPU's vocabulary share, unsharded */
    uint64_t head_autocast_copy;   /* a frozen fp32 head under autocast: the 16-bit copy of its
                                      weight its linear keeps */
    uint64_t embedding_grad_bytes; /* full training: the token embedding's gradient as its
                                      backward, the last, makes it (0: not modelled) */
    uint64_t embedding_backward_bytes; /* what that backward holds beside it (its kernel's
                                          input and scratch, embedding_backward_bytes()) */
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
    /* PEFT's prepare_model_for_kbit_training (peft/utils/other.py) casts every fp16 and bf16
     * parameter that is not a Params4bit to fp32, whatever the model */
    if (tr->kbit_prepared && tr->method != GS_METHOD_QLORA)
        return gs_error_add(err, GS_ERR_INVALID, "/training/prepare_model_for_kbit_training",
                            "PEFT's prepare_model_for_kbit_training casts every parameter that is "
                            "not 4-bit to fp32: without a 4-bit base that is the whole model, "
                            "which precision.weights fp32 sizes; it applies to method qlora");
    if (tr->kbit_prepared && tr->framework.framework != GS_FW_TRANSFORMERS &&
        tr->framework.framework != GS_FW_DEEPSPEED)
        return gs_error_add(err, GS_ERR_INVALID, "/training/prepare_model_for_kbit_training",
                            "prepare_model_for_kbit_training is PEFT's, for a transformers model "
                            "(framework transformers or deepspeed); %s builds and quantizes its "
                            "own",
                            gs_framework_name(tr->framework.framework));
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
    /* transformers before 5.0 and LitGPT keep routed experts as nn.Linear modules, which LoRA
     * adapts where a target names them (the attention path does not change that rule) */
    struct gs_framework_rules rules;
    gs_framework_resolve(&tr->framework, tr->attn_impl, &rules);
    tr->lora_hf_release = rules.hf_release; /* which routers are nn.Linear (router_bare) */
    const bool routed = gs_framework_expert_linears(&rules);
    /* PEFT 0.19 and later over transformers 5.x's fused experts: ParamWrappers on them */
    const enum gs_status resolved = gs_lora_peft_resolve(&m->arch, tr, !routed, err);
    if (resolved != GS_OK)
        return resolved;
    const enum gs_status st = gs_lora_parameters_routed(&m->arch, tr, routed, &plan->adapters, err);
    plan->expert_adapters = st == GS_OK && routed ? gs_lora_expert_parameters(&m->arch, tr) : 0;
    /* the wrappers' adapters shard with the experts, as the 4.x experts' do */
    if (st == GS_OK && gs_lora_fused_experts(&m->arch, tr, &plan->wrapped))
        plan->expert_adapters = plan->wrapped.expert_adapters;
    return st;
}

/* Whether the model has a vision tower: one described as a stack of layers, or vision weights
 * outside the layers (Gemma 3n's MobileNetV5, whose blocks differ in shape and are weighed a
 * stage at a time: its images are counted in the decoder and its forward is not modelled). */
static bool has_vision(const struct gs_arch *a)
{
    for (size_t i = 0; i < a->tower_count; i++)
        if (a->towers[i].part == GS_PART_VISION)
            return true;
    for (size_t i = 0; i < a->module_count; i++)
        if (a->modules[i].part == GS_PART_VISION)
            return true;
    return false;
}

/* Gemma4ImageProcessor's budgets of soft tokens an image (_SUPPORTED_SOFT_TOKENS: 70, 140, 280,
 * 560, 1,120): the config's default (vision_soft_tokens_per_image, 280) and its doublings above
 * it, the largest four times it (resolve_images bounds image_tokens there, image_patches picks
 * the budget that holds them) */
#define PADDED_ROW_LARGEST_BUDGET 4

/* The images a sample carries (training.images_per_sample, image_tokens): a vision tower to run
 * them, their tokens within the sequence, and the tokens of each (the processor's largest image
 * when not given, e->image_tokens). */
static enum gs_status resolve_images(const struct gs_model_spec *m, struct gs_training *tr,
                                     struct gs_estimate *e, struct gs_error *err)
{
    if (tr->freeze_vision_tower && (!m->has_arch || !has_vision(&m->arch)))
        return gs_error_add(err, GS_ERR_INVALID, "/training/freeze_vision_tower",
                            "%s has no vision tower to freeze",
                            m->has_arch ? "this model" : "a raw parameter count");
    if (tr->images_per_sample == 0) {
        if (tr->image_tokens)
            return gs_error_add(err, GS_ERR_INVALID, "/training/image_tokens",
                                "image_tokens sizes the images of training.images_per_sample, "
                                "which is 0 (text only)");
        return GS_OK;
    }
    if (!m->has_arch || !has_vision(&m->arch))
        return gs_error_add(err, GS_ERR_INVALID, "/training/images_per_sample",
                            "%s has no vision tower to run images through; images need a "
                            "vision-language model (a catalog id or its config.json)",
                            m->has_arch ? "this model" : "a raw parameter count");
    const bool largest = tr->image_tokens == 0;
    if (largest) /* a cross-attended image is one token in the text (MllamaProcessor's <|image|>) */
        tr->image_tokens =
            m->arch.mm_image.layout == GS_MM_CROSS_TILES ? 1 : m->arch.mm_image.tokens;
    if (tr->image_tokens == 0)
        return gs_error_add(err, GS_ERR_INVALID, "/training/image_tokens",
                            "gpusizer has not read the image size of this %s model's processor: "
                            "give the tokens each image takes",
                            m->arch.model_type);
    const struct gs_mm_item *it = &m->arch.mm_image;
    const uint64_t crop = it->crop_tokens ? it->crop_tokens : it->tokens;
    if (it->layout == GS_MM_CROPS && crop && tr->image_tokens % crop != 0)
        return gs_error_add(err, GS_ERR_INVALID, "/training/image_tokens",
                            "%s gives %s %llu tokens: image_tokens is a multiple of %llu "
                            "(%llu: one %s)",
                            m->arch.model_type,
                            it->crop_tokens
                                ? "every tile of an image, and its global tile past one tile,"
                                : "every image, and every pan-and-scan crop of it,",
                            (unsigned long long)crop, (unsigned long long)crop,
                            (unsigned long long)crop, it->crop_tokens ? "tile" : "crop");
    if (it->layout == GS_MM_PADDED_ROW && it->tokens &&
        tr->image_tokens > PADDED_ROW_LARGEST_BUDGET * it->tokens)
        return gs_error_add(err, GS_ERR_INVALID, "/training/image_tokens",
                            "%s's processor gives an image at most %llu soft tokens (its largest "
                            "max_soft_tokens, four times the config's %llu)",
                            m->arch.model_type,
                            (unsigned long long)(PADDED_ROW_LARGEST_BUDGET * it->tokens),
                            (unsigned long long)it->tokens);
    bool ovf = false;
    const uint64_t image = gs_mul(tr->images_per_sample, tr->image_tokens, &ovf);
    if (ovf || (tr->sequence_length && image > tr->sequence_length))
        return gs_error_add(
            err, GS_ERR_INVALID, "/training/images_per_sample",
            "%llu image%s of %llu tokens%s do%s not fit a sequence of %llu "
            "tokens: sequence_length counts the image tokens with the text%s",
            (unsigned long long)tr->images_per_sample, tr->images_per_sample == 1 ? "" : "s",
            (unsigned long long)tr->image_tokens,
            largest ? " (the largest image the processor accepts)" : "",
            tr->images_per_sample == 1 ? "es" : "", (unsigned long long)tr->sequence_length,
            largest ? "; give training.image_tokens, the tokens your images take" : "");
    e->image_tokens = tr->image_tokens;
    return GS_OK;
}

/* The sequence the vision tower runs for an image of `tokens` tokens, in patches, how many such
 * sequences the image is (`sequences`), and the pixel values of a patch, by the model's largest
 * image (gs_arch.mm_image): Qwen-VL merges merge^2 patches into a token, each channels x
 * temporal x patch^2 values, one sequence an image (Qwen3-Omni's processor is not read: its
 * mm_image is one token's); Gemma 3 runs the image and each of its
 * pan-and-scan crops as a sequence of its own, mm_tokens_per_image tokens each (resolve_images
 * has checked `tokens` is a whole number of them), Llama 4 each tile and the global tile;
 * Gemma 4 one row of its processor's budget whatever the image's tokens; Llama 3.2 Vision every
 * tile of the image, padded ones included, as one sequence. 0 where not read. The tower's
 * sequence adds mm_image.class_positions to these patches. */
static uint64_t image_patches(const struct gs_arch *a, uint64_t tokens, uint64_t *sequences,
                              uint64_t *pixels)
{
    const struct gs_mm_item *it = &a->mm_image;
    /* a processor whose largest image is not read: patches and pixels are one token's */
    const uint64_t unit = it->tokens ? it->tokens : 1;
    *pixels = 0;
    *sequences = 1;
    if (it->patches == 0 || it->patches % unit != 0 || it->pixels % it->patches != 0 ||
        (it->layout == GS_MM_CROPS && it->tokens == 0))
        return 0;
    *pixels = it->pixels / it->patches;
    if (it->layout == GS_MM_CROSS_TILES) /* every tile of the image, whatever its tokens */
        return it->patches;
    if (it->layout == GS_MM_CROPS) {
        /* the largest item's crops (Llama 4's 17 tiles: crop_tokens), each that share of its
         * patches */
        const uint64_t crop = it->crop_tokens ? it->crop_tokens : it->tokens;
        const uint64_t crops = it->tokens / crop;
        if (crops == 0 || it->patches % crops != 0) {
            *pixels = 0;
            return 0;
        }
        *sequences = tokens / crop;
        return it->patches / crops;
    }
    /* Gemma 4: one row of the processor's max_soft_tokens x pooling_kernel_size^2 patches an
     * image, the image's own patches and padding (Gemma4ImageProcessor._preprocess:
     * pad_along_first_dim(patches, positions, max_patches)); max_soft_tokens the config's
     * default, or where the image takes more the next budget that holds it (560, 1,120:
     * resolve_images has bounded it) */
    if (it->layout == GS_MM_PADDED_ROW) {
        uint64_t budget = it->tokens;
        while (budget < tokens && budget < PADDED_ROW_LARGEST_BUDGET * it->tokens)
            budget *= 2;
        return budget * (it->patches / it->tokens);
    }
    bool ovf = false;
    const uint64_t patches = gs_mul(tokens, it->patches / unit, &ovf);
    if (ovf) {
        *pixels = 0;
        return 0;
    }
    return patches;
}

/* Whether `regime` keeps the trained parameters (a LoRA's adapters) in 16 bits on the model. */
static bool adapters_16bit(enum gs_regime regime)
{
    return regime == GS_REGIME_BF16_PURE || regime == GS_REGIME_BF16_MIXED ||
           regime == GS_REGIME_FP16_MIXED;
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

/* `n` weights in nf4 (blocks of 64 with an fp32 absmax: 4.5 bits; with double quantization the
 * absmax re-quantized to 8 bits per block of 256: 2113 bytes per 4096 weights). */
static uint64_t nf4_bytes(uint64_t n, bool double_quant, bool *ovf)
{
    return double_quant ? ceil_div(gs_mul(n, NF4_DQ_NUM, ovf), NF4_DQ_PER)
                        : bytes_of(n, NF4_BPP64, ovf);
}

/* Whether the model's transformers code keeps its experts as 3D parameters in every release
 * (gs_moe.experts_fused), which bitsandbytes' nn.Linear walker skips on 4.x rows too. */
static bool experts_fused(const struct gs_model_spec *m)
{
    for (size_t i = 0; m->has_arch && i < m->arch.block_count; i++)
        if (m->arch.blocks[i].mlp.experts_fused)
            return true;
    return false;
}

static uint64_t root_params(const struct gs_estimate *e, const struct shard *s, uint64_t tensor,
                            bool *ovf);

/* The frozen base of a LoRA/QLoRA run on one GPU, stored at its precision. *quant_state gets the
 * part of it that is QLoRA's quantization constants (the absmax of each block of 64, and with
 * double quantization their own constants): bitsandbytes keeps them in each Params4bit's
 * quant_state, a module attribute outside the parameter's storage (Params4bit._quantize:
 * self.module.quant_state = quant_state), so a sharder that partitions parameters (FSDP's flat
 * parameter, ZeRO-3) and its CPU offload leave them whole on every GPU. */
static uint64_t frozen_base_bytes(const struct gs_workload *w, const struct train_plan *plan,
                                  const struct shard *s, bool experts_fused, struct gs_estimate *e,
                                  uint64_t *quant_state, bool *ovf)
{
    const uint64_t params = gs_add(s->dense, s->experts, ovf);
    *quant_state = 0;
    if (plan->tr.method != GS_METHOD_QLORA)
        return gs_dtype_bytes(w->weights, params, ovf);
    /* QLoRA: linears in nf4, embeddings, norms and head in 16-bit; routed experts and their
     * router in nf4 where they are nn.Linear modules, 16-bit where the model keeps them as bare
     * parameters (transformers 5.x: fused 3D experts, a TopKRouter's weight), which
     * bitsandbytes' conversion (replace_with_bnb_linear) does not touch; shared experts are
     * nn.Linear MLPs either way */
    const bool experts_16bit = s->experts > 0 && (plan->rules.bnb_skips_fused_experts ||
                                                  (experts_fused && plan->rules.model_qkv_views));
    /* Lightning's BitsandbytesPrecision quantizes LitGPT's lm_head with the other linears */
    const uint64_t head = plan->rules.quantizes_head ? s->head : 0;
    const uint64_t linear =
        gs_add(experts_16bit ? s->linear : gs_add(s->linear, s->experts, ovf), head, ovf);
    const uint64_t rest = params - (linear < params ? linear : params);
    if (experts_16bit) {
        const uint64_t as_nf4 = nf4_bytes(s->experts, plan->tr.double_quant, ovf);
        const uint64_t sixteen = gs_mul(s->experts, 2, ovf);
        assume_value(
            e, "qlora_experts_16bit_bytes", sixteen > as_nf4 ? sixteen - as_nf4 : 0,
            "the routed experts and their router stay 16-bit under QLoRA: transformers "
            "keeps them as bare parameters (the experts' fused gate_up_proj and down_proj, "
            "the router's weight: every MoE from 5.0, GPT-OSS and Llama 4 before), and "
            "bitsandbytes' 4-bit conversion replaces nn.Linear modules only; this is what "
            "they hold beyond nf4",
            "bitsandbytes issue #1849 (fused experts silently stay 16-bit; the Experts4bit "
            "draft, PR #1965, unmerged); transformers integrations/bitsandbytes.py "
            "replace_with_bnb_linear");
        warn(e, "qlora_experts_16bit",
             "QLoRA quantizes this model's routed experts only where they are nn.Linear modules: "
             "here they are fused 3D parameters (every MoE under transformers 5.x; GPT-OSS and "
             "Llama 4 under 4.x too) that bitsandbytes leaves 16-bit "
             "(qlora_experts_16bit_bytes more weights). transformers 4.x (framework_version) "
             "kept one nn.Linear per expert for most other MoE models, and Unsloth quantizes "
             "the fused experts itself");
    }
    const uint64_t linear_bytes = nf4_bytes(linear, plan->tr.double_quant, ovf);
#define QLORA_HEAD_4BIT                                                                            \
    "; embeddings and norms stay 16-bit, the output head is 4-bit too (Lightning Fabric's "        \
    "BitsandbytesPrecision replaces every nn.Linear, LitGPT's lm_head among them)"
#define QLORA_HEAD_16BIT "; embeddings, norms and the head stay 16-bit"
    if (plan->tr.double_quant) {
        assume(e, "qlora_base",
               head ? "nf4 with double quantization: 4.127 bits per linear weight (4 + 8/64 + "
                      "32/(64*256))" QLORA_HEAD_4BIT
                    : "nf4 with double quantization: 4.127 bits per linear weight (4 + 8/64 + "
                      "32/(64*256))" QLORA_HEAD_16BIT,
               "bitsandbytes quantize_4bit (blocksize 64, absmax re-quantized per 256); QLoRA "
               "paper section 3");
    } else {
        assume(e, "qlora_base",
               head ? "nf4 without double quantization: 4.5 bits per linear weight (4 + "
                      "32/64)" QLORA_HEAD_4BIT
                    : "nf4 without double quantization: 4.5 bits per linear weight (4 + "
                      "32/64)" QLORA_HEAD_16BIT,
               "bitsandbytes quantize_4bit (blocksize 64, fp32 absmax)");
    }
#undef QLORA_HEAD_4BIT
#undef QLORA_HEAD_16BIT
    const uint64_t packed = ceil_div(linear, 2); /* two 4-bit values a byte */
    *quant_state = linear_bytes > packed ? linear_bytes - packed : 0;
    /* PEFT's prepare_model_for_kbit_training (peft/utils/other.py): `if (param.dtype ==
     * torch.float16) or (param.dtype == torch.bfloat16) and param.__class__.__name__ !=
     * "Params4bit": param.data = param.data.to(torch.float32)` - the embeddings, norms and head,
     * and the experts bitsandbytes left 16-bit, all in fp32 */
    if (plan->tr.kbit_prepared) {
        /* TRL before 0.26 then cast the embeddings and the head back to bf16 under bf16=True
         * (peft_module_casting_to_bf16: modules named lm_head, embed_tokens, wte, wpe) */
        uint64_t back = plan->tr.kbit_head_16bit ? root_params(e, s, plan->par.tensor, ovf) : 0;
        back = back < rest ? back : rest;
        const uint64_t fp32 = rest - back;
        assume_value(e, "kbit_prepared_fp32_bytes", gs_mul(fp32, 2, ovf),
                     plan->tr.kbit_head_16bit
                         ? "prepare_model_for_kbit_training casts every parameter that is not "
                           "4-bit to fp32, and TRL's peft_module_casting_to_bf16 puts the "
                           "embeddings and the head back in bf16: what the fp32 rest (norms, "
                           "experts left 16-bit) adds to the weights"
                         : "prepare_model_for_kbit_training casts every parameter that is not "
                           "4-bit (embeddings, norms, the head, experts left 16-bit) to fp32: "
                           "what that adds to the weights",
                     plan->tr.kbit_head_16bit
                         ? "peft/utils/other.py prepare_model_for_kbit_training; trl "
                           "peft_module_casting_to_bf16 (trl/models/utils.py, before 0.26)"
                         : "peft/utils/other.py prepare_model_for_kbit_training");
        return gs_add(gs_add(linear_bytes, gs_mul(fp32, 4, ovf), ovf), gs_mul(back, 2, ovf), ovf);
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

/* The FSDP a run shards with: the request's, else the framework's. */
static unsigned fsdp_version_of(const struct train_plan *plan)
{
    return plan->par.fsdp_version ? plan->par.fsdp_version : plan->rules.fsdp_version;
}

/* FSDP's root unit on this GPU in parameters: the embedding and the head (a tied head shares
 * the embedding), each with its vocabulary padding, over tensor parallelism. */
static uint64_t root_params(const struct gs_estimate *e, const struct shard *s, uint64_t tensor,
                            bool *ovf)
{
    const struct gs_param_count *c = &e->params;
    uint64_t root = ceil_div(gs_add(c->embedding, s->vocab_padding, ovf), tensor);
    if (c->lm_head)
        root = gs_add(root, ceil_div(gs_add(c->lm_head, s->vocab_padding, ovf), tensor), ovf);
    return root;
}

/* Whether FSDP1 puts each layer's frozen base and its adapters in one FlatParameter: the
 * request's use_orig_params=True, or the framework's own wrapping (LitGPT). */
static bool fsdp1_mixed_units(const struct train_plan *plan)
{
    return plan->par.fsdp_use_orig_params || plan->rules.fsdp_orig_params;
}

/* The gradient one data-parallel reduction carries, whole (before it is sharded), at the
 * reduce dtype, on this GPU's model-parallel part (`trainable` of its parameters train): the
 * trainable parameters' under DDP and DeepSpeed (their buckets hold gradients of trainable
 * parameters alone). FSDP reduce-scatters each unit's gradient as the unit holds it: FSDP1 a
 * FlatParameter's, every unit's in full training; with adapters, the adapters alone when they
 * are wrapped apart (PEFT's fsdp_auto_wrap_policy), or each layer's whole FlatParameter,
 * frozen base included, when it holds them (use_orig_params=True), and the root only when
 * the head is adapted. FSDP2 shards parameter by parameter, so a frozen one has no gradient:
 * the whole model in full training (at torchtitan's float32 reduce dtype there,
 * MixedPrecisionPolicy reduce_dtype), the adapters alone with them. */
static uint64_t reduced_gradient_bytes(const struct gs_model_spec *m,
                                       const struct train_plan *plan, struct gs_state_bytes bpp,
                                       uint64_t trainable, uint64_t gathered_all,
                                       uint64_t root_bytes, uint64_t all, bool *ovf)
{
    const struct gs_parallelism *par = &plan->par;
    if (plan->deepspeed || par->zero_stage < 2)
        return bytes_of(trainable, bpp.gradients, ovf); /* DDP's buckets, DeepSpeed's */
    if (fsdp_version_of(plan) == 2) {
        if (plan->lora)
            return bytes_of(trainable, bpp.gradients, ovf);
        if (plan->rules.framework == GS_FW_TORCHTITAN)
            return bytes_of(all, 4 * GS_BPP_UNIT, ovf);
        return gathered_all;
    }
    if (!plan->lora)
        return gathered_all;
    if (!fsdp1_mixed_units(plan))
        return bytes_of(trainable, bpp.gradients, ovf);
    uint64_t in = 0, out = 0; /* the root unit (embedding, head) trains where either is adapted */
    const bool root = m->has_arch && (gs_lora_head(&m->arch, &plan->tr, &in, &out) ||
                                      gs_lora_embedding(&m->arch, &plan->tr, NULL, NULL));
    return root || gathered_all < root_bytes ? gathered_all : gathered_all - root_bytes;
}

/* torchtitan's FSDP under pipeline parallelism: its apply_fsdp sets reshard_after_forward =
 * not pp_enabled ("to avoid per-microbatch all-gathers", reshard_after_forward_policy
 * "default"), and torch.distributed.pipelining's stage runs every micro-batch's backward with
 * set_reshard_after_backward(False) and set_requires_gradient_sync(False) (stage.py
 * backward_maybe_with_nosync), reducing and resharding once after the last. So from its
 * first forward to the step's last backward a stage holds every unit gathered and every
 * trainable parameter's gradient unsharded at the reduce dtype, whatever the sharding
 * strategy asked. */
static bool fsdp_pipeline_keeps_gathered(const struct train_plan *plan)
{
    return plan->rules.framework == GS_FW_TORCHTITAN && plan->par.pipeline > 1 &&
           !plan->deepspeed && plan->par.zero_stage >= 2 && fsdp_version_of(plan) == 2;
}

/* Whether the micro-batches before the last of an accumulation skip FSDP's gradient sync
 * and keep their gradients unsharded until the syncing micro-batch. FSDP1's no_sync()
 * (torch/distributed/fsdp/fully_sharded_data_parallel.py: "FSDP will accumulate the full
 * model gradients (instead of gradient shards) until the eventual sync"; _runtime_utils.py
 * _post_backward_hook returns before the reduce-scatter when not _sync_gradients): the HF
 * Trainer runs them under accelerator.no_sync (unless GradientAccumulationPlugin
 * sync_each_batch, where its release asks), LitGPT under fabric.no_backward_sync. FSDP2 under
 * set_requires_gradient_sync(False) (accelerate >= 1.11's no_sync): _fsdp_param_group.py
 * post_backward returns before the reduce-scatter when not reduce_grads, and each trainable
 * parameter keeps its unsharded gradient, upcast to the reduce dtype where that differs
 * (_fsdp_param.py to_accumulated_grad_if_needed). torchtitan's pipeline schedule does the same
 * for every micro-batch, however many (fsdp_pipeline_keeps_gathered). DeepSpeed ZeRO-2 and
 * ZeRO-3 have no such mode (engine.py no_sync asserts it is incompatible with gradient
 * partitioning). */
static bool fsdp_accumulates_unsynced(const struct train_plan *plan)
{
    const unsigned fsdp_version = fsdp_version_of(plan);
    if (fsdp_pipeline_keeps_gathered(plan))
        return true;
    if (plan->deepspeed || plan->par.zero_stage < 2 ||
        plan->tr.gradient_accumulation_steps < 2 || plan->rules.optimizer_in_backward)
        return false;
    return fsdp_version == 2 ? plan->rules.fsdp2_no_sync
                             : fsdp_version == 1 && plan->rules.fsdp_no_sync;
}

/* The gradient of a vocabulary matrix (`elements`: the head's or the token embedding's) as
 * autograd makes it on this GPU: its vocabulary share with the tensor-parallel padding, at the
 * gradient dtype. */
static uint64_t vocab_grad_bytes(uint64_t elements, const struct shard *s,
                                 const struct gs_parallelism *par, struct gs_state_bytes bpp,
                                 bool *ovf)
{
    return bytes_of(ceil_div(gs_add(elements, s->vocab_padding, ovf), par->tensor), bpp.gradients,
                    ovf);
}

/* Indices past which embedding_dense_backward_cuda sorts them rather than run its direct
 * kernel (aten/src/ATen/native/cuda/Embedding.cu: `num_indices <= 3072`). */
#define EMBEDDING_DIRECT_KERNEL_INDICES 3072

/* What the token embedding's backward (aten/src/ATen/native/cuda/Embedding.cu
 * embedding_dense_backward_cuda) holds beside the vocabulary x width gradient it makes, for
 * `tokens` indices of a `width`-wide embedding whose output (and so incoming gradient) has
 * `out_bpp` bytes an element (in 1/GS_BPP_UNIT): the incoming gradient, and past 3,072
 * indices the sorted path's (EmbeddingBackwardKernel.cu embedding_backward_cuda_kernel) fp32
 * partial sums (`grad_weight_per_segment`, indices x width, acc_type of a 16-bit gradient, a
 * float one's own) and six int64 index arrays of the indices' length (sorted_indices,
 * orig_indices, segment_offsets, partials_per_segment, partials_per_segment_offset,
 * partial_segment_offset; the sort's `range` is freed before). cub's scratch is not counted. */
static uint64_t embedding_backward_bytes(uint64_t tokens, uint64_t width, uint64_t out_bpp,
                                         bool *ovf)
{
    const uint64_t elements = gs_mul(tokens, width, ovf);
    uint64_t held = bytes_of(elements, out_bpp, ovf);
    if (tokens > EMBEDDING_DIRECT_KERNEL_INDICES)
        held = gs_add(held, gs_add(gs_mul(4, elements, ovf), gs_mul(6 * 8, tokens, ovf), ovf),
                      ovf);
    return held;
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
    const uint64_t trainable = gs_add(t_dense, plan->lora ? 0 : s->experts, ovf);
    /* one Adam moment per trainable parameter, at the state dtype (bf16_pure keeps bf16
     * states; every other regime fp32): torch's _multi_tensor_adamw takes
     * torch._foreach_sqrt(exp_avg_sqs), a new list as large as one moment */
    if (plan->tr.optimizer == GS_OPT_ADAMW || plan->tr.optimizer == GS_OPT_ADAM) {
        x->moment_bytes = gs_mul(trainable, plan->regime == GS_REGIME_BF16_PURE ? 2 : 4, ovf);
        if (shard_optimizer)
            x->moment_bytes = ceil_div(x->moment_bytes, dp);
    }
    x->linear_params = gs_add(s->linear, s->experts, ovf);
    const uint64_t all = gs_add(s->dense, s->experts, ovf);
    /* what FSDP gathers: the working dtype of full training, or the frozen base as stored
     * (16-bit, or 4-bit storage for QLoRA) with the adapters */
    uint64_t gathered_all;
    if (plan->lora)
        gathered_all = gs_add(frozen, bytes_of(t_dense, bpp.weights, ovf), ovf);
    else
        gathered_all = bytes_of(all, bpp.weights, ovf);
    x->gathered_all = gathered_all;
    x->updated_weights = bytes_of(trainable, bpp.weights, ovf);
    if (m->has_arch) {
        /* the units of the stage with the most layers */
        uint64_t layers = gs_stage_layers_max(&par->stages, m->arch.num_hidden_layers,
                                              par->pipeline);
        layers = layers ? layers : 1;
        const uint64_t root_all = root_params(e, s, par->tensor, ovf);
        const uint64_t body = all > root_all ? all - root_all : 0;
        const uint64_t root_bpp = plan->tr.kbit_prepared && !plan->tr.kbit_head_16bit
                                      ? 4 * GS_BPP_UNIT
                                  : plan->lora || bpp.weights < GS_BPP_UNIT * 4 ? 2 * GS_BPP_UNIT
                                                                                : bpp.weights;
        const uint64_t root_all_bytes = min_u64(bytes_of(root_all, root_bpp, ovf), gathered_all);
        x->unit_bytes = ceil_div(gathered_all - root_all_bytes, layers);
        /* the root unit, gathered once a micro-batch and reduce-scattered whole: the embedding
         * and the head; torchtitan >= 0.2 wraps them apart, and the unit gathered once (kept
         * from its forward to its backward, beside the layers' at backward start) is
         * [norm, output], while the embedding is gathered in forward and again at backward's
         * end like a layer (as large for an untied vocabulary: its gathers and its
         * reduce-scatter are the head's size) */
        uint64_t root = root_all;
        if (plan->rules.fsdp_root_split && e->params.lm_head && par->zero_stage >= 2)
            root = ceil_div(gs_add(e->params.lm_head, s->vocab_padding, ovf), par->tensor);
        x->root_bytes = min_u64(bytes_of(root, root_bpp, ovf), gathered_all);
        /* one unit's gradient before reduce-scatter, at the reduce dtype: fp32 under
         * torchtitan's MixedPrecisionPolicy(reduce_dtype=float32), else the gradient's own */
        const uint64_t trainable_body = plan->lora ? t_dense : body;
        const uint64_t grad_bpp = plan->rules.framework == GS_FW_TORCHTITAN ? 4 * GS_BPP_UNIT
                                                                            : bpp.gradients;
        x->unit_grad_bytes = ceil_div(bytes_of(trainable_body, grad_bpp, ovf), layers);
        if (!plan->lora)
            x->root_grad_bytes = bytes_of(root, grad_bpp, ovf);
        /* the head's rows: its own matrix, or the token embedding it is tied to */
        const struct gs_module *embed = gs_arch_token_embedding(&m->arch);
        const uint64_t tokens = embed != NULL ? gs_mul(embed->in, embed->out, ovf) : 0;
        const uint64_t width = embed != NULL ? embed->out : 0;
        const uint64_t head = e->params.lm_head ? e->params.lm_head : tokens;
        if (!plan->lora && m->arch.logits && head)
            x->head_grad_bytes = vocab_grad_bytes(head, s, par, bpp, ovf);
        /* a frozen fp32 head (an fp32 base's, or one prepare_model_for_kbit_training made fp32:
         * bitsandbytes leaves the output embedding unquantized, transformers
         * get_keys_to_not_convert) runs under autocast as F.linear over a 16-bit copy of its
         * weight, which it keeps for the input's gradient: a frozen weight is cast per call
         * (autocast caches leaves that require grad only) */
        if (plan->frozen_fp32 && plan->regime == GS_REGIME_AMP && m->arch.logits && head)
            x->head_autocast_copy =
                gs_mul(2, ceil_div(gs_add(head, s->vocab_padding, ovf), par->tensor), ovf);
        /* the token embedding's gradient, made by the last op of a decoder-only model's
         * backward (not modelled for an encoder-decoder, whose decoder embedding runs before
         * the encoder's backward, or under FSDP, whose units' parameters are views of one
         * flat parameter or shards) */
        bool cross_encoder = false;
        for (size_t i = 0; i < m->arch.tower_count; i++)
            cross_encoder = cross_encoder || m->arch.towers[i].encoder;
        if (!plan->lora && tokens && !cross_encoder && (par->zero_stage == 0 || plan->deepspeed)) {
            x->embedding_grad_bytes = vocab_grad_bytes(tokens, s, par, bpp, ovf);
            /* a micro-batch's indices on this GPU (its sequence share under context
             * parallelism); the embedding's output has its weight's dtype */
            const uint64_t indices =
                gs_mul(plan->tr.batch_size, ceil_div(plan->tr.sequence_length, par->context), ovf);
            x->embedding_backward_bytes =
                embedding_backward_bytes(indices, width, bpp.weights, ovf);
        }
    }
    x->reduced_grads =
        reduced_gradient_bytes(m, plan, bpp, trainable, gathered_all, x->root_bytes, all, ovf);
    /* FSDP's no_sync accumulation holds, unsharded, what the syncing reduction then carries */
    if (m->has_arch && fsdp_accumulates_unsynced(plan))
        x->no_sync_grads = x->reduced_grads;
}

/* What one data-parallel rank's collectives carry in an optimizer step, each by its whole
 * buffer, from the gradient a reduction carries (g, reduced_gradient_bytes), the weights as
 * gathered (w, the root unit's share `root`), the trainable weights (u) and the
 * micro-batches of a step (m):
 * - DDP all-reduces g (2 g) once a step: the loop runs the micro-batches before the last
 *   under no_sync (accelerate's accumulate and the Trainer's no_sync, Lightning's
 *   no_backward_sync, Megatron-LM's no_sync_func), or every micro-batch under sync_each_batch
 *   where the loop follows it. Megatron-LM's distributed optimizer reduce-scatters g and
 *   all-gathers the updated weights (distrib_optimizer.py).
 * - DeepSpeed (engine.py allreduce_gradients): ZeRO-0 and ZeRO-1 reduce at the accumulation
 *   boundary only, ZeRO-2 and ZeRO-3 every micro-batch ("ZeRO stage >= 2 communicates during
 *   non gradient accumulation boundaries as well"); ZeRO-1/2 then all-gather the updated
 *   16-bit partitions (stage_1_and_2.py step), ZeRO-3 gathers every module in each
 *   micro-batch's forward and again in its backward (partitioned_param_coordinator.py; the
 *   parameters it keeps for reuse, stage3_max_reuse_distance, are not modelled).
 * - FSDP reduce-scatters g every micro-batch, or once a step under no_sync
 *   (fsdp_accumulates_unsynced). FULL_SHARD gathers each layer unit in every micro-batch's
 *   forward and again in its backward, the root once (FSDP1 _post_forward_reshard does not
 *   free the root; fully_shard sets reshard_after_forward False on the root module).
 *   SHARD_GRAD_OP gathers once a micro-batch, but FSDP1 under no_sync keeps the units
 *   gathered until the syncing micro-batch (_runtime_utils.py _should_free_in_backward), so
 *   once a step there; FSDP2 reshards after every backward (reshard_after_backward).
 *   torchtitan's stages under pipeline parallelism gather once and reduce once a step
 *   (fsdp_pipeline_keeps_gathered). */
static uint64_t collective_bytes(const struct train_plan *plan, uint64_t g, uint64_t w,
                                 uint64_t root, uint64_t u, bool *ovf)
{
    const struct gs_parallelism *par = &plan->par;
    const uint64_t m = plan->tr.gradient_accumulation_steps ? plan->tr.gradient_accumulation_steps
                                                            : 1;
    if (plan->deepspeed) {
        switch (par->zero_stage) {
        case 0:
            return gs_mul(2, g, ovf);
        case 1:
            return gs_add(g, u, ovf);
        case 2:
            return gs_add(gs_mul(m, g, ovf), u, ovf);
        default:
            return gs_mul(m, gs_add(gs_mul(2, w, ovf), g, ovf), ovf);
        }
    }
    if (par->zero_stage < 2) {
        const bool each =
            plan->tr.framework.sync_each_batch == GS_KNOB_ON && plan->rules.sync_each_batch_option;
        const uint64_t reduced = gs_mul(each ? m : 1, g, ovf);
        return par->zero_stage == 1 || par->distributed_optimizer ? gs_add(reduced, u, ovf)
                                                                  : gs_mul(2, reduced, ovf);
    }
    const bool unsynced = fsdp_accumulates_unsynced(plan);
    const uint64_t reduced = gs_mul(unsynced ? 1 : m, g, ovf);
    if (fsdp_pipeline_keeps_gathered(plan))
        return gs_add(w, reduced, ovf); /* gathered once, kept until the last backward */
    if (par->zero_stage == 2) {
        const bool kept = unsynced && fsdp_version_of(plan) == 1;
        return gs_add(gs_mul(kept ? 1 : m, w, ovf), reduced, ovf);
    }
    const uint64_t per_micro = gs_add(gs_mul(2, w - root, ovf), root, ovf);
    return gs_add(gs_mul(m, per_micro, ovf), reduced, ovf);
}

/* What each GPU sends over its data-parallel links in an optimizer step: a ring all-gather
 * or reduce-scatter of B bytes over k ranks sends (k - 1)/k B from each, an all-reduce twice
 * that (Patarasuk and Yuan 2009; nccl-tests doc/PERFORMANCE.md, bus bandwidth). The dense
 * part's collectives run over the data (x context) ranks, a trained model's experts' over
 * their expert-data-parallel group (expert_data_parallel, the group their shards and
 * gradients are spread over in model_states); adapters train no expert. */
static uint64_t data_parallel_bytes(const struct gs_model_spec *m, const struct train_plan *plan,
                                    const struct shard *s, struct gs_state_bytes bpp,
                                    const struct state_extra *x)
{
    /* a throughput input: past 2^64 bytes (an absurd accumulation of a huge model) it
     * saturates rather than refusing the memory estimate */
    bool big = false, *ovf = &big;
    const struct gs_parallelism *par = &plan->par;
    const uint64_t dp = gs_mul(par->data, par->context, ovf);
    const uint64_t expert_dp = expert_data_parallel(par, ovf);
    uint64_t ge = 0, we = 0;
    if (!plan->lora && s->experts) {
        we = bytes_of(s->experts, bpp.weights, ovf);
        ge = reduced_gradient_bytes(m, plan, bpp, s->experts, we, 0, s->experts, ovf);
    }
    ge = ge < x->reduced_grads ? ge : x->reduced_grads;
    we = we < x->gathered_all ? we : x->gathered_all;
    const uint64_t ue = we < x->updated_weights ? we : x->updated_weights;
    const uint64_t w = x->gathered_all - we;
    const uint64_t dense = collective_bytes(plan, x->reduced_grads - ge, w,
                                            x->root_bytes < w ? x->root_bytes : w,
                                            x->updated_weights - ue, ovf);
    const uint64_t experts = collective_bytes(plan, ge, we, 0, ue, ovf);
    const double sent = (dp > 1 ? (double)dense * (double)(dp - 1) / (double)dp : 0) +
                        (expert_dp > 1 ? (double)experts * (double)(expert_dp - 1) /
                                             (double)expert_dp
                                       : 0);
    return big ? UINT64_MAX : gs_bytes_from_double(sent);
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
        } else if (m->kind == GS_MODULE_LINEAR && gs_lora_adapts(tr, b, m)) {
            /* lora_A and lora_B factored; DoRA's magnitude vector is 1-D, kept whole. LitGPT's
             * fused adapter: lora_A has r rows a part, lora_B the parts' width */
            const uint64_t r = tr->lora_rank ? tr->lora_rank : 8;
            const unsigned parts = gs_lora_qkv_parts(tr, b, m, NULL);
            const uint64_t a_rows = parts ? r * gs_qkv_part_count(parts) : r;
            const uint64_t width = gs_lora_width(tr, b, m);
            const uint64_t one = (uint64_t)m->in + width + (tr->lora_dora ? width : 0);
            n = gs_add(n, gs_mul(m->count ? m->count : 1, gs_add(one, a_rows + r, ovf), ovf), ovf);
        }
    }
    return gs_mul(n, layers, ovf);
}

static uint64_t adafactor_elements(const struct gs_arch *a, const struct gs_training *tr,
                                   bool lora, bool *ovf)
{
    uint64_t n = 0, counts[GS_BLOCKS_MAX];
    gs_arch_count_weight_blocks(a, 0, a->num_hidden_layers, counts);
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
    for (size_t i = 0; lora && i < a->module_count; i++) { /* adapted projectors and the like */
        const struct gs_module *m = &a->modules[i];
        if (m->kind == GS_MODULE_LINEAR && gs_lora_adapts(tr, NULL, m)) {
            const uint64_t r = tr->lora_rank ? tr->lora_rank : 8;
            const uint64_t one = (uint64_t)m->in + m->out + (tr->lora_dora ? m->out : 0);
            n = gs_add(n, gs_mul(m->count ? m->count : 1, gs_add(one, 2 * r, ovf), ovf), ovf);
        }
    }
    uint64_t head_in = 0, head_out = 0; /* an adapted output head: lora_A and lora_B, factored */
    for (int which = 0; lora && which < 2; which++) { /* and an adapted embedding alike */
        if (which == 0 ? !gs_lora_head(a, tr, &head_in, &head_out)
                       : !gs_lora_embedding(a, tr, &head_in, &head_out))
            continue;
        const uint64_t r = tr->lora_rank ? tr->lora_rank : 8;
        n = gs_add(n, gs_add(gs_add(head_in, head_out, ovf), 2 * r, ovf), ovf);
        if (tr->lora_dora)
            n = gs_add(n, head_out, ovf);
    }
    return n;
}

/* FSDP2 under a MixedPrecisionPolicy (fully_shard with param_dtype bf16/fp16, as torchtitan
 * applies it) keeps each sharded parameter in its original fp32 and casts only the copy it
 * all-gathers; the optimizer steps the fp32 shard itself, so there is no separate master
 * copy, and the sharded gradient takes the parameter's dtype (_fsdp_collectives.py
 * foreach_reduce: _to_dtype_if_needed(reduce_scatter_output, orig_dtype)). Other regimes and
 * sharders hold what they compute with. */
static struct gs_state_bytes held_state_bytes(const struct train_plan *plan,
                                              struct gs_state_bytes bpp)
{
    const struct gs_parallelism *par = &plan->par;
    const unsigned fsdp_version = fsdp_version_of(plan);
    const bool mixed = plan->regime == GS_REGIME_BF16_MIXED || plan->regime == GS_REGIME_FP16_MIXED;
    if (!mixed || plan->lora || plan->deepspeed || par->zero_stage != 3 || fsdp_version != 2 ||
        bpp.optimizer < 4 * GS_BPP_UNIT)
        return bpp;
    return (struct gs_state_bytes){4 * GS_BPP_UNIT, 4 * GS_BPP_UNIT,
                                   bpp.optimizer - 4 * GS_BPP_UNIT};
}

/* Model states on one GPU. */
static void model_states(const struct gs_model_spec *m, const struct gs_workload *w,
                         const struct train_plan *plan, struct gs_estimate *e,
                         struct state_extra *x, bool *ovf)
{
    const struct gs_parallelism *par = &plan->par;
    const struct shard s = shard_params(m, e, par, ovf);
    /* bpp: what a parameter costs as the step computes with it (the gathered dtype);
     * held: what this GPU keeps between steps */
    const struct gs_state_bytes bpp = gs_state_bytes_for(plan->regime, plan->tr.optimizer);
    const struct gs_state_bytes held = held_state_bytes(plan, bpp);
    if (held.weights != bpp.weights)
        assume(e, "fsdp2_mixed_precision",
               "FSDP2 mixed precision: the sharded parameters stay fp32 and are the ones the "
               "optimizer steps (no separate master copy), only the all-gathered copy is 16-bit, "
               "and the sharded gradients are fp32",
               "torch/distributed/fsdp/_fully_shard/_fsdp_param.py (MixedPrecisionPolicy "
               "param_dtype casts the all-gather input) and _fsdp_collectives.py foreach_reduce "
               "(_to_dtype_if_needed(reduce_scatter_output, orig_dtype)); torchtitan "
               "parallelize_llama.py apply_fsdp");
    const uint64_t dp = gs_mul(par->data, par->context, ovf);
    const uint64_t expert_dp = expert_data_parallel(par, ovf);
    const unsigned zero = par->zero_stage;
    const bool shard_optimizer = zero >= 1 || par->distributed_optimizer;
    e->parameters_per_gpu = gs_add(s.dense, s.experts, ovf);
    e->stage_flop_parameters = s.busiest_active;

    /* trainable parameters on this GPU: dense part and expert part */
    uint64_t t_dense = s.dense, t_experts = s.experts;
    uint64_t frozen = 0, quant_state = 0;
    if (plan->lora) {
        /* the adapters sit in the layers: a stage holds its layers' share of them (the stage
         * with the most layers, as an uneven split - a device_map's, Megatron-LM's ends - lays
         * them), over the tensor ranks */
        const uint64_t layers = m->has_arch ? m->arch.num_hidden_layers : 0;
        const uint64_t most = layers && par->pipeline > 1
                                  ? gs_stage_layers_max(&par->stages, layers, par->pipeline)
                                  : 0;
        /* the routed experts' adapters go with their experts: over the expert ranks and each
         * expert's tensor ranks, as the experts themselves (shard_params) */
        const uint64_t dense_adapters = plan->adapters - plan->expert_adapters;
        const uint64_t expert_ranks = gs_mul(par->expert, par->expert_tensor, ovf);
        t_dense =
            most ? ceil_div(gs_mul(dense_adapters, most, ovf), gs_mul(layers, par->tensor, ovf))
                 : ceil_div(dense_adapters, gs_mul(par->tensor, par->pipeline, ovf));
        t_experts = most
                        ? ceil_div(gs_mul(plan->expert_adapters, most, ovf),
                                   gs_mul(layers, expert_ranks, ovf))
                        : ceil_div(plan->expert_adapters, gs_mul(expert_ranks, par->pipeline, ovf));
        frozen = frozen_base_bytes(w, plan, &s, experts_fused(m), e, &quant_state, ovf);
    } else if (plan->tr.freeze_vision_tower) {
        /* a full fine-tune with the vision towers frozen (requires_grad False on their
         * parameters): they are held as the model holds them, 16-bit or fp32 by the regime,
         * outside the optimizer (no master copy, gradient or state) */
        const uint64_t vision = min_u64(s.vision, t_dense);
        t_dense -= vision;
        const bool fp32 = plan->regime == GS_REGIME_FP32 || plan->regime == GS_REGIME_AMP;
        frozen = gs_mul(vision, fp32 ? 4 : 2, ovf);
    }
    e->trainable_parameters = plan->lora ? plan->adapters
                              : plan->tr.freeze_vision_tower
                                  ? e->parameters - min_u64(e->params.vision, e->parameters)
                                  : e->parameters;

    uint64_t weights = gs_add(bytes_of(t_dense, held.weights, ovf), bytes_of(t_experts, held.weights, ovf),
                              ovf);
    weights = gs_add(weights, frozen, ovf);
    uint64_t grads_dense = bytes_of(t_dense, held.gradients, ovf);
    uint64_t grads_experts = bytes_of(t_experts, held.gradients, ovf);
    uint64_t opt_dense = bytes_of(t_dense, held.optimizer, ovf);
    uint64_t opt_experts = bytes_of(t_experts, held.optimizer, ovf);
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
        /* weights sharded: dense and frozen over dp, experts over their own group; QLoRA's
         * quantization constants stay whole on every GPU (frozen_base_bytes) */
        const uint64_t sharded =
            gs_add(bytes_of(t_dense, held.weights, ovf), frozen - quant_state, ovf);
        weights = gs_add(ceil_div(sharded, dp),
                         ceil_div(bytes_of(t_experts, held.weights, ovf), expert_dp), ovf);
        weights = gs_add(weights, quant_state, ovf);
        if (quant_state && dp > 1)
            assume_value(e, "qlora_quant_state_bytes", quant_state,
                         "QLoRA's quantization constants (absmax per 64 weights) on every GPU: "
                         "they live outside the parameters the sharder partitions and offloads",
                         "bitsandbytes Params4bit._quantize (module.quant_state); transformers "
                         "_load_state_dict_into_meta_model keeps quant_state on the device");
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
    const unsigned fsdp_version = fsdp_version_of(plan);
    if (plan->lora && par->fsdp && fsdp_version == 1 && fsdp1_mixed_units(plan)) {
        /* FSDP1 flattens a unit's parameters into one FlatParameter; with frozen and
         * trainable parameters in it (use_orig_params=True), its gradient covers the frozen
         * ones too (PyTorch's FullyShardedDataParallel notes on use_orig_params and frozen
         * parameters), sharded like the base. The root's FlatParameter (embedding, head)
         * holds frozen parameters alone unless the head or the embedding is adapted, and a
         * FlatParameter requires grad only when one of its parameters does; QLoRA's
         * quant_state is no parameter. */
        uint64_t in_units = frozen - quant_state, head_in = 0, head_out = 0;
        if (m->has_arch && !gs_lora_head(&m->arch, &plan->tr, &head_in, &head_out) &&
            !gs_lora_embedding(&m->arch, &plan->tr, NULL, NULL)) {
            const uint64_t root = bytes_of(root_params(e, &s, par->tensor, ovf), 2 * GS_BPP_UNIT,
                                           ovf);
            in_units = in_units > root ? in_units - root : 0;
        }
        const uint64_t frozen_grads = zero >= 2 ? ceil_div(in_units, dp) : in_units;
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
            /* the parameters go to the host; QLoRA's quant_state is no parameter and stays */
            const uint64_t kept = zero == 3 && weights > quant_state ? quant_state : 0;
            host = gs_add(host, weights - kept, ovf);
            weights = kept;
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
               "DeepSpeed estimate_zero2/zero3_model_states_mem_needs");
    }
    e->per_gpu.weights_bytes = weights;
    e->per_gpu.gradients_bytes = grads;
    e->per_gpu.optimizer_bytes = optim;
    /* FSDP gathers the flat parameter: QLoRA's quant_state is not in it */
    peak_extras(m, plan, e, &s, bpp, plan->lora ? gs_add(t_dense, t_experts, ovf) : t_dense,
                frozen - quant_state, x, ovf);
    e->data_parallel_bytes = data_parallel_bytes(m, plan, &s, bpp, x);

    if (zero == 3 && m->has_arch && plan->deepspeed) {
        /* the largest module is gathered whole, with its gradient (DeepSpeed: 4 * largest_layer) */
        x->gathered_module = bytes_of(e->params.largest_module, gs_add(bpp.weights, bpp.gradients, ovf), ovf);
        assume_value(e, "zero3_gathered_module_bytes", x->gathered_module,
                     "ZeRO-3 gathers the largest single module's weights and gradients whole",
                     "DeepSpeed estimate_zero3_model_states_mem_needs (largest_layer_memory = 4 * "
                     "largest_layer_params)");
    } else if (zero == 3 && !m->has_arch) {
        warn(e, "zero3_working_set_not_estimated",
             "a raw parameter count has no module sizes, so the gathered working set of ZeRO-3 "
             "or FSDP is not included");
    }
    if (s.vocab_padding)
        assume_value(e, "vocab_padding_parameters", s.vocab_padding,
                     "vocabulary padded to a multiple of 128 x tensor parallelism (embedding, and "
                     "the head when untied)",
                     "Megatron-LM build_tokenizer.py make_vocab_size_divisible_by");
}

/* The activation element sizes a run computes in: 16-bit unless the weights
 * train in fp32 (a LoRA base computes in its own dtype, whatever regime the
 * adapters take); autocast over fp32 weights keeps the residual stream in
 * fp32. */
static void activation_dtypes(const struct gs_workload *w, const struct train_plan *plan,
                              uint64_t *element, uint64_t *residual, bool *autocast)
{
    /* a QLoRA base prepare_model_for_kbit_training cast runs in fp32 but for its 4-bit linears:
     * the embedding's fp32 output is the residual stream, every fp32 norm keeps it fp32, and
     * bitsandbytes' Linear4bit casts its input to the compute dtype and its output back
     * (bitsandbytes/nn/modules.py Linear4bit.forward: x.to(self.compute_dtype), then
     * matmul_4bit(...).to(inp_dtype)), which from 0.43.2 keeps neither copy */
    const bool fp32_base = w->weights == GS_DTYPE_FP32 || plan->tr.kbit_prepared;
    *autocast = plan->regime == GS_REGIME_AMP;
    if (plan->lora) {
        *element = fp32_base && !*autocast ? 4 : 2;
        *residual = fp32_base ? 4 : 2;
        return;
    }
    *element = plan->regime == GS_REGIME_FP32 ? 4 : 2;
    *residual = plan->regime == GS_REGIME_FP32 || *autocast ? 4 : 2;
}

/* What padded micro-batches cost under transformers' SDPA, against the same micro-batches
 * without a mask (activation.c sdpa_masked): said where it is more, with what avoids it. */
static bool padding_mask_cost(const struct gs_activation_input *in, struct gs_activation_memo *memo,
                              const struct gs_activation_result *masked, struct gs_estimate *e)
{
    struct gs_activation_input unmasked = *in;
    unmasked.padding_mask = false;
    struct gs_activation_result r;
    if (!gs_activation_bytes_memo(&unmasked, memo, &r))
        return false;
    if (masked->total_bytes <= r.total_bytes)
        return true;
    e->padding_mask_bytes = masked->total_bytes - r.total_bytes;
    assume_value(e, "padding_mask_activation_bytes", e->padding_mask_bytes,
                 "what padded micro-batches add under transformers' SDPA: in every layer K/V "
                 "repeated to every query head and the memory-efficient kernel's additive copy of "
                 "the mask (batch x sequence_length^2 at the query's dtype), and the model's mask "
                 "where it outlives the forward",
                 "transformers integrations/sdpa_attention.py use_gqa_in_sdpa (no GQA under a "
                 "mask), masking_utils.py sdpa_mask; aten attention.cpp "
                 "convert_boolean_attn_mask, preprocess_mask");
    for (size_t i = 0; i < in->arch->block_count; i++)
        if (in->arch->blocks[i].rec.padded_unfused && !unmasked.recurrent_torch &&
            gs_activation_counts_scan(&unmasked, &in->arch->blocks[i])) {
            assume(e, "padding_mask_mamba2",
                   "padded micro-batches also take the Mamba2 layers off the combined kernel: "
                   "causal_conv1d_fn, mamba_chunk_scan_combined, the gated norm and out_proj "
                   "run one by one and keep the in_proj and conv outputs, the masked input, the "
                   "scan's output and the norm's fp32 tensors a token: part of "
                   "padding_mask_activation_bytes",
                   "transformers modeling_nemotron_h.py cuda_kernels_forward (input_not_masked); "
                   "mamba_ssm ops/triton/ssd_combined.py MambaChunkScanCombinedFn.forward");
            break;
        }
    warn(e, "padding_mask_sdpa",
         "the micro-batches carry padding (training.padding_mask), so transformers' SDPA "
         "attention takes its masked path in every layer: padding_mask_activation_bytes more "
         "activations. flash_attention_2 takes padded batches without a mask (it unpads them), "
         "and packed samples with no padding need none");
    return true;
}

/* What PEFT's prepare_model_for_kbit_training changes, said where the request names it. */
static void kbit_notes(struct gs_estimate *e, const struct train_plan *plan)
{
    const struct gs_training *tr = &plan->tr;
    if (!tr->kbit_prepared)
        return;
    /* TRL ran it as its release does, with the checkpointing its config says:
     * trl_prepare_model_for_kbit_training tells the rest */
    const bool by_trl = (tr->trl_applied & GS_TRL_KBIT_PREPARED) != 0;
    if (!by_trl)
        assume(e, "prepare_model_for_kbit_training",
               "every parameter but the 4-bit weights in fp32 (kbit_prepared_fp32_bytes): the "
               "embedding's output, the residual stream and the norms' outputs are fp32, and "
               "each 4-bit linear casts its input to the compute dtype and its output back to "
               "fp32; under autocast (regime amp) the attention, the adapters and the head run "
               "on 16-bit copies",
               "peft/utils/other.py prepare_model_for_kbit_training; bitsandbytes/nn/modules.py "
               "Linear4bit.forward");
    if (plan->regime != GS_REGIME_AMP)
        warn(e, "kbit_prepared_fp32_activations",
             "after prepare_model_for_kbit_training everything but the 4-bit matmuls runs in "
             "fp32 without autocast, as sized here: the attention takes fp32 query, key and "
             "value (SDPA's math or memory-efficient kernel). The HF Trainer's bf16=True or "
             "fp16=True runs the forward under autocast: say regime amp for it");
    if (!by_trl && !tr->recompute_given && tr->recompute == GS_RECOMPUTE_NONE)
        warn(e, "kbit_prepared_checkpointing",
             "prepare_model_for_kbit_training turns gradient checkpointing on unless called with "
             "use_gradient_checkpointing=False; sized without it, as the request says nothing: "
             "set activation_checkpointing full for PEFT's default");
}

/* What TRL's defaults put on the request (gs_trl_resolve), one note each; an 8-bit model's
 * preparation, which is not counted, as a warning. */
static void trl_notes(struct gs_estimate *e, const struct gs_training *tr)
{
    for (uint32_t bit = 1; bit != 0 && bit <= tr->trl_applied; bit <<= 1) {
        const struct gs_trl_note *n = gs_trl_default_note((enum gs_trl_default)bit);
        if (!(tr->trl_applied & bit) || n == NULL)
            continue;
        if (bit == GS_TRL_KBIT_8BIT)
            warn(e, n->name, n->detail);
        else
            assume(e, n->name, n->detail, n->source);
    }
}

/* Which kernels the recurrent layers run (in->recurrent_torch) and what the estimate says of them.
 * Where the request names none: the fused ones (flash-linear-attention and causal-conv1d for Gated
 * DeltaNet and Kimi Delta Attention, mamba-ssm and causal-conv1d for Mamba2 and Mamba), as the
 * model cards ask, fp32 activations included (fla's chunk_gated_delta_rule refused fp32 until 0.4:
 * fla commit 38cc6191, October 2025, removed its "does not support float32" assertion, and the
 * saved set counted is fla 0.5's), except for a config that turns the kernels off (Jamba's
 * use_mamba_kernels). Layers whose scan the count does not follow (Kimi K3's own code, frameworks'
 * own model code, Jamba's Mamba kernels under autocast over fp32 weights) are sized by their
 * projections, and the estimate says so. */
static void recurrent_notes(struct gs_estimate *e, const struct gs_model_spec *m,
                            const struct gs_training *tr, struct gs_activation_input *in)
{
    bool gated_delta = false, mamba2 = false, mamba1 = false, next = false, jamba = false;
    bool kda = false, config_off = false;
    for (size_t i = 0; i < m->arch.block_count; i++) {
        const struct gs_block *b = &m->arch.blocks[i];
        config_off = config_off || (b->mixer == GS_MIXER_RECURRENT && b->rec.kernels_off);
        next = next || b->rec.scan == GS_SCAN_GATED_DELTA_NEXT;
        gated_delta = gated_delta || b->rec.scan == GS_SCAN_GATED_DELTA_RULE || next;
        mamba2 = mamba2 || b->rec.scan == GS_SCAN_MAMBA2_COMBINED;
        jamba = jamba || b->rec.scan == GS_SCAN_MAMBA1_SELECTIVE;
        kda = kda || b->rec.scan == GS_SCAN_KIMI_DELTA;
        mamba1 = mamba1 || b->rec.scan == GS_SCAN_MAMBA1_INNER || jamba;
    }
    in->recurrent_torch =
        tr->recurrent_kernels_given ? tr->recurrent_kernels == GS_RECURRENT_TORCH : config_off;
    if (config_off && !tr->recurrent_kernels_given && gs_activation_model_code(in))
        warn(e, "recurrent_kernels_config",
             "the model's config turns the Mamba kernels off (use_mamba_kernels false), so "
             "transformers runs its sequential torch scan, which keeps fp32 (batch, inner, "
             "state) tensors for every token, sized so; loaded with use_mamba_kernels=True "
             "(mamba-ssm and causal-conv1d installed) it trains through the kernels at a "
             "fraction of that: ask training.recurrent_kernels \"fused\"");
    bool counted = false, uncounted = false;
    for (size_t i = 0; i < m->arch.block_count; i++) {
        const struct gs_block *b = &m->arch.blocks[i];
        if (b->mixer != GS_MIXER_RECURRENT && b->rec.inner == 0)
            continue;
        if (gs_activation_counts_scan(in, b))
            counted = true;
        else
            uncounted = true;
    }
    if (uncounted)
        warn(e, "recurrent_scan_not_counted",
             "this model's linear-attention or state-space layers are sized by their "
             "projections: what their scan keeps for backward is not counted (Jamba's Mamba "
             "under autocast over fp32 weights, whose fp32 B and C mamba-ssm's scan refuses, "
             "Kimi K3's own code, code other than transformers' own). Fused kernels keep a few "
             "tensors a token; a torch fallback "
             "keeps chunk-sized fp32 tensors and states, which can exceed the rest of the "
             "layer");
    if (!gs_activation_model_code(in) || !(gated_delta || mamba2 || mamba1 || kda))
        return;
    /* JambaRMSNorm returns self.weight * hidden_states.to(input_dtype): an fp32 weight makes B and
     * C fp32 beside a 16-bit u, and selective_scan_fwd checks B.scalar_type() == input_type */
    if (jamba && !in->recurrent_torch && in->autocast && in->residual_bytes == 4)
        warn(e, "recurrent_kernels_dtype",
             "under autocast over fp32 weights Jamba's dt, B and C RMSNorms return fp32 B and C "
             "(an fp32 weight times a 16-bit tensor) beside the 16-bit conv output, and "
             "mamba-ssm's selective_scan_fn refuses them (selective_scan.cpp: B's type must be "
             "the input's): load the model in bf16, or run use_mamba_kernels false (the torch "
             "scan, sized with recurrent_kernels \"torch\"). Its Mamba layers are sized by "
             "their projections");
    e->recurrent_kernels_sized = true;
    e->recurrent_kernels = in->recurrent_torch ? GS_RECURRENT_TORCH : GS_RECURRENT_FUSED;
    if (!tr->recurrent_kernels_given && !in->recurrent_torch && counted)
        warn(e, "recurrent_kernels_assumed",
             kda ? "the Kimi Delta Attention layers are sized with flash-linear-attention and "
                   "causal-conv1d installed (training.recurrent_kernels \"fused\"); without fla "
                   "transformers runs its torch fallback (torch_chunk_kda), which keeps fp32 "
                   "pairwise decays and decayed keys of 64 x 64 x head_dim a chunk and head for "
                   "backward, many times the layer's activations: ask with recurrent_kernels "
                   "\"torch\""
             : gated_delta
                 ? "the Gated DeltaNet layers are sized with flash-linear-attention and "
                   "causal-conv1d installed (training.recurrent_kernels \"fused\"); without "
                   "them transformers runs its torch fallback, which keeps an fp32 recurrent "
                   "state for every 64 tokens and several times the layer's activations: ask "
                   "with recurrent_kernels \"torch\""
             : mamba2
                 ? "the Mamba2 layers are sized with mamba-ssm and causal-conv1d installed "
                   "(training.recurrent_kernels \"fused\"); without them transformers runs its "
                   "naive chunked scan in torch, which keeps fp32 (chunk x chunk x heads) "
                   "tensors a token and, in backward, gradients of (chunk x heads x state) "
                   "products, many times the layer's activations: ask with recurrent_kernels "
                   "\"torch\""
                 : "the Mamba layers are sized with mamba-ssm and causal-conv1d installed "
                   "(training.recurrent_kernels \"fused\"); without them transformers runs its "
                   "sequential scan in torch (Jamba's with use_mamba_kernels false), which keeps "
                   "fp32 (batch, inner, state) tensors for every token, many times the layer's "
                   "activations: ask with recurrent_kernels \"torch\"");
    if (!counted)
        return;
    if (kda && in->recurrent_torch)
        assume(e, "recurrent_kernels",
               "Kimi Delta Attention layers run transformers' torch functions: F.conv1d (its "
               "padded output kept), q and k l2-normalized in fp32, then per 64-token chunk the "
               "fp32 pairwise decays and decayed keys (64 x 64 x head_dim a chunk and head), the "
               "UT system, whose 63-step loop keeps every step's cloned row and block, "
               "intra-chunk attention, decays and the recurrent state, all kept for backward",
               "transformers models/kimi_linear/modeling_kimi_linear.py torch_chunk_kda, "
               "causal_conv1d_fn; docs/training-peaks.md");
    else if (kda)
        assume(e, "recurrent_kernels",
               "Kimi Delta Attention layers run causal-conv1d over the concatenated q, k and v "
               "(it keeps its input), the forget gate's fp32 softplus, flash-linear-attention's "
               "chunk_kda (it keeps normalized q and k, v, the per-channel gate and its cumsum in "
               "fp32, beta and the 64-wide Aqk and Akk a token) and the eager sigmoid-gated "
               "RMSNorm, as transformers' own KimiLinearForCausalLM runs them (the repository's "
               "modeling_kimi.py, loaded with trust_remote_code, runs fla's ShortConvolution, "
               "fused_kda_gate and FusedRMSNormGated instead, and its gate call fails on fla "
               "0.4.1 and later)",
               "transformers models/kimi_linear/modeling_kimi_linear.py "
               "KimiLinearDeltaAttention.forward, KimiLinearRMSNormGated; fla "
               "ops/kda/chunk.py ChunkKDAFunction.forward (0.5.0 to 0.5.2); "
               "docs/training-peaks.md");
    else if (gated_delta)
        assume(
            e, "recurrent_kernels",
            in->recurrent_torch
                ? (next ? "Gated DeltaNet layers run Qwen3-Next's older torch fallback: q and k "
                          "l2-normalized at the input dtype, then per 64-token chunk the fp32 UT "
                          "system, whose 63-step loop keeps every step's cloned row and block, "
                          "intra-chunk attention, decays and the recurrent state, all kept for "
                          "backward, and F.conv1d's output"
                        : "Gated DeltaNet layers run transformers' torch fallback: q and k "
                          "l2-normalized in fp32, then per 64-token chunk the fp32 UT system, "
                          "intra-chunk attention, decays and the recurrent state, all kept for "
                          "backward, and F.conv1d's output")
            : next ? "Gated DeltaNet layers run flash-linear-attention's chunk_gated_delta_rule "
                     "over q and k repeated to every value head (it keeps them normalized, v, the "
                     "gate's cumsum, beta and the 64-wide A a token), fla's FusedRMSNormGated (its "
                     "input, the gate and rstd) and causal-conv1d (its input)"
                   : "Gated DeltaNet layers run flash-linear-attention's chunk_gated_delta_rule "
                     "(it keeps normalized q and k, v, the gate's cumsum, beta and the 64-wide A "
                     "a token) and causal-conv1d (it keeps its input)",
            in->recurrent_torch
                ? (next ? "transformers modeling_qwen3_next.py torch_chunk_gated_delta_rule, "
                          "Qwen3NextRMSNormGated; docs/training-peaks.md"
                        : "transformers modeling_qwen3_5.py torch_chunk_gated_delta_rule, "
                          "causal_conv1d_fn; docs/training-peaks.md")
            : next ? "fla ops/gated_delta_rule/chunk.py ChunkGatedDeltaRuleFunction.forward, "
                     "fla modules/fused_norm_gate.py LayerNormGatedFunction; transformers "
                     "modeling_qwen3_next.py Qwen3NextGatedDeltaNet; docs/training-peaks.md"
                   : "fla ops/gated_delta_rule/chunk.py ChunkGatedDeltaRuleFunction.forward; "
                     "docs/training-peaks.md");
    else if (mamba1 && in->recurrent_torch)
        assume(e, "recurrent_kernels",
               "Mamba layers run transformers' sequential torch scan (slow_forward): it keeps "
               "discrete_A and discrete_B, (batch, inner, sequence, state) in fp32, each step's "
               "fp32 state and its copy at the input's dtype, the input's fp32 copy, and the "
               "conv, time-step and gate tensors a token",
               "transformers modeling_mamba.py MambaMixer.slow_forward, modeling_jamba.py "
               "JambaMambaMixer.slow_forward; docs/training-peaks.md");
    else if (jamba)
        assume(e, "recurrent_kernels",
               "Jamba's Mamba layers train through causal-conv1d's causal_conv1d_fn (it keeps "
               "the in_proj output it reads) and mamba-ssm's selective_scan_fn (it keeps "
               "contiguous copies of the conv output, the time step, B, C and the gate, the "
               "scan's output a token and its fp32 chunk states a sequence), with the dt, B and "
               "C RMSNorms' fp32 copies between them; x_proj, dt_proj and out_proj are called "
               "as modules and keep their inputs as any linear",
               "causal-conv1d causal_conv1d_interface.py CausalConv1dFn.forward; mamba_ssm "
               "ops/selective_scan_interface.py SelectiveScanFn.forward, csrc selective_scan.cpp "
               "selective_scan_fwd; transformers modeling_jamba.py "
               "JambaMambaMixer.cuda_kernels_forward; docs/training-peaks.md");
    else if (mamba2 && in->recurrent_torch)
        assume(e, "recurrent_kernels",
               "Mamba2 layers run transformers' naive chunked SSD in torch (torch_forward): it "
               "keeps in fp32 the input, B and C repeated to every head, the (chunk x chunk x "
               "heads) L, G and M, the chunk states and the gated norm's tensors, and in "
               "backward makes the gradients of its broadcasting products at their full "
               "(chunk x heads x state) shape, counted as the layer's backward working set",
               "transformers modeling_mamba2.py Mamba2Mixer.torch_forward, "
               "modeling_nemotron_h.py NemotronHMamba2Mixer.torch_forward, modeling_falcon_h1.py "
               "FalconH1Mixer.torch_forward; docs/training-peaks.md");
    else if (mamba1 && !mamba2)
        assume(e, "recurrent_kernels",
               "Mamba layers train through mamba-ssm's mamba_inner_fn: it keeps the in_proj "
               "output, x_proj's output with copies of B and C, the scan's output a token and "
               "its fp32 chunk states a sequence (the conv output and the time step are "
               "recomputed; x_proj, dt_proj and out_proj run inside on their weights, so LoRA "
               "adapters on them never run)",
               "mamba_ssm ops/selective_scan_interface.py MambaInnerFn.forward, csrc "
               "selective_scan.cpp selective_scan_fwd; transformers modeling_mamba.py "
               "MambaMixer.cuda_kernels_forward; docs/training-peaks.md");
    else
        assume(e, "recurrent_kernels",
               "Mamba2 layers train through mamba-ssm's mamba_split_conv1d_scan_combined: it "
               "keeps the in_proj output, the scan's output and the norm's rstd a token (out_proj "
               "runs inside, so its input is not kept, and a LoRA adapter on it never runs); "
               "Falcon-H1's beside attention, each half reading its own scaled copy of the "
               "layer's normed input",
               "mamba_ssm ops/triton/ssd_combined.py MambaSplitConv1dScanCombinedFn.forward; "
               "transformers modeling_nemotron_h.py cuda_kernels_forward, modeling_falcon_h1.py "
               "FalconH1DecoderLayer.forward; docs/training-peaks.md");
}

/* What the images of training.images_per_sample add, or that this model's tower is not
 * counted. */
static void vision_notes(struct gs_estimate *e, const struct gs_training *tr,
                         const struct gs_activation_result *r)
{
    if (tr->images_per_sample == 0)
        return;
    if (!r->vision_counted) {
        warn(e, "vision_activations_not_estimated",
             "the images' activations in this model's vision tower are not counted (its layers "
             "or its processor's image size are not described for the count; Qwen2.5-VL's, "
             "Qwen3-VL's, Qwen3.5's, Qwen3-Omni's, Gemma 3's, Gemma 4's, Llama 4's and "
             "Mistral 3's are, and Gemma 3n's where the run does not train it); their tokens in "
             "the decoder are, within sequence_length, and the tower's weights (and their "
             "gradients where they train)");
        return;
    }
    e->vision_bytes = r->vision_bytes;
    assume_value(e, "vision_activation_bytes", r->vision_bytes,
                 "of activations, the images': each image a sequence of its own through the "
                 "vision tower (image_tokens x the merged patches a token, or Gemma 3's crops of "
                 "mm_tokens_per_image tokens each, or Llama 4's tiles of 144 tokens, 577 "
                 "positions with the class embedding's, or Llama 3.2 Vision's every tile, padded "
                 "ones included, one sequence an image under an additive mask through encoders "
                 "that activation checkpointing does not reach; Pixtral runs a micro-batch's "
                 "images as one "
                 "sequence, with a block-diagonal mask under SDPA and eager attention; Gemma 4 "
                 "pads each image to one row of its processor's budget, max_soft_tokens x "
                 "pooling_kernel_size^2 patches, masked where the image leaves padding), whose "
                 "layers keep "
                 "what a decoder layer keeps at the tower's width where the tower trains or "
                 "carries adapters (a frozen tower keeps nothing), under the same checkpointing, "
                 "with Gemma 4's clamped linears' inputs and outputs and its pooler's fp32 "
                 "one-hot weights (and, before transformers 5.10.1, its position table's one-hot "
                 "where the table trains); the pixel values in fp32 (Llama 4's in the model's "
                 "dtype, which its patch embedding takes uncast), and their 16-bit cast (Llama 4's "
                 "unfolded copy) where the patch embedding trains; the merger's tensors are not "
                 "counted. Gemma 3n's MobileNetV5, which only a full fine-tune trains (its "
                 "projections are convolutions, which no LoRA target reaches), runs without a "
                 "graph otherwise: its fp32 pixels (3 x 768 x 768 an image) and the adapted "
                 "embedder's input (256 tokens an image). With them, where kept, what Llama 3.2 "
                 "Vision's cross-attention layers "
                 "read of the images: the projected states (6,404 positions an image), the "
                 "cross-attention mask (text x positions, in the model's dtype) and the "
                 "projector's 7,680-wide input; each cross-attention layer's keys and values over "
                 "those positions are among the layers' activations",
                 "transformers modeling_qwen2_5_vl.py Qwen2_5_VisionTransformerPretrainedModel "
                 "and modeling_qwen3_vl.py Qwen3VLVisionModel (per-image cu_seqlens, "
                 "PatchEmbed's cast, gradient-checkpointed blocks); modeling_siglip.py "
                 "SiglipVisionEmbeddings and SiglipEncoderLayer (Gemma 3); modeling_pixtral.py "
                 "PixtralVisionModel.forward, generate_block_attention_mask (Mistral 3); "
                 "modeling_gemma4.py Gemma4VisionModel, Gemma4ClippableLinear, "
                 "Gemma4VisionPooler, Gemma4VisionPatchEmbedder (PR #46176); modeling_llama4.py "
                 "Llama4VisionModel (class embedding, Llama4UnfoldConvolution); "
                 "modeling_mllama.py MllamaVisionModel (_prepare_aspect_ratio_attention_mask, "
                 "MllamaVisionEncoderLayer an nn.Module), MllamaModel.forward "
                 "(multi_modal_projector, _prepare_cross_attention_mask), "
                 "MllamaTextCrossAttention; "
                 "Qwen2VLImageProcessor, Gemma3ImageProcessor, PixtralImageProcessor, "
                 "Gemma4ImageProcessor, Llama4ImageProcessorFast (fp32 pixel_values); "
                 "modeling_gemma3n.py Gemma3nMultimodalEmbedder and timm layers/attention2d.py "
                 "MultiQueryAttention2d (1x1 create_conv2d projections: Gemma 3n)");
}

/* What a loop that keeps the previous step's graph until the next forward returns
 * (rules.keeps_previous_graph) holds of it then: the inputs bitsandbytes' MatMul4Bit keeps on
 * its ctx (ctx.tensors = (A, B), before 0.43.2), which autograd never releases, so they live
 * as long as the graph. They are the tensors only those linears keep: what this micro-batch's
 * layers (and a 4-bit head) store with them less what they store without. Not where the longest
 * micro-batch runs first, with no graph before it, nor across pipeline stages. The logits the
 * loop's variable holds besides are gs_peak_input.previous_logits. */
static bool previous_graph_bytes(const struct gs_activation_input *in,
                                 const struct train_plan *plan, struct gs_activation_memo *memo,
                                 const struct gs_activation_result *r, uint64_t *out)
{
    *out = 0;
    const struct gs_framework_rules *rules = &plan->rules;
    if (!rules->keeps_previous_graph || rules->longest_first || !rules->quant_saves_input ||
        !in->quantized_base || plan->par.pipeline > 1)
        return true;
    struct gs_framework_rules without = *rules;
    without.quant_saves_input = false;
    struct gs_activation_input unkept = *in;
    unkept.rules = &without;
    struct gs_activation_result r2;
    if (!gs_activation_bytes_memo(&unkept, memo, &r2))
        return false;
    *out = r->stored_bytes > r2.stored_bytes ? r->stored_bytes - r2.stored_bytes : 0;
    /* and a 4-bit head's input (LitGPT's, among the final norms' tensors) */
    bool ovf = false;
    if (r->final_norm_bytes > r2.final_norm_bytes)
        *out = gs_add(*out, r->final_norm_bytes - r2.final_norm_bytes, &ovf);
    return !ovf;
}

static bool activations(const struct gs_model_spec *m, const struct gs_workload *w,
                        const struct train_plan *plan, struct gs_activation_memo *memo,
                        struct gs_estimate *e, struct gs_activation_result *r,
                        uint64_t *previous_graph, bool *ovf)
{
    *previous_graph = 0;
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
        .padding_mask = gs_training_padding_mask(tr),
    };
    uint64_t sequences = 1;
    in.vision_patches = image_patches(&m->arch, tr->image_tokens, &sequences, &in.vision_pixels);
    if (m->arch.mm_image.layout == GS_MM_PADDED_ROW) /* a row the image leaves part padding */
        in.vision_tokens = tr->image_tokens;
    in.vision_images = gs_mul(tr->images_per_sample, sequences, ovf);
    recurrent_notes(e, m, tr, &in);
    kbit_notes(e, plan);
    if (!gs_activation_bytes_memo(&in, memo, r)) {
        *ovf = true;
        return false;
    }
    if (in.padding_mask && !padding_mask_cost(&in, memo, r, e)) {
        *ovf = true;
        return false;
    }
    if (!previous_graph_bytes(&in, plan, memo, r, previous_graph)) {
        *ovf = true;
        return false;
    }
    assume(e, "activations",
           "per layer, the tensors autograd saves: norm inputs (an eager RMSNorm's fp32 copy), "
           "the inputs of linears whose weight trains, carries an adapter or is a 4-bit "
           "bitsandbytes layer before 0.43.2, LoRA dropout copies, Q/K/V as the attention kernel "
           "takes them (repeated to every head where the framework repeats K/V; a V sliced from a "
           "fused QKV output keeps that output), the attention output (and o_proj's copy of it "
           "where the query reaches a flash kernel contiguous), the MLP's gate, activation (by "
           "what the function keeps), up and down inputs, q/k norms over Q and K, dropout masks, "
           "the fp32 log-sum-exp (SDPA, flash, flex) or eager attention's softmax output and its "
           "16-bit copy, and under transformers' SDPA the mask of a sliding-window layer once the "
           "keys reach the window, and of every layer of a padded batch (the additive copy aten "
           "makes, batch x sequence^2; K/V repeated then); PEFT's fp32 adapters keep their own "
           "copy of their input; autocast keeps 16-bit copies per linear (of a frozen fp32 "
           "weight too) and fp32 norms and softmax; compiled code keeps no fp32 intermediate",
           "Korthikanti et al. 2022 (arXiv 2205.05198), generalized per module in "
           "docs/training-peaks.md; the framework's code named in training_framework");
    vision_notes(e, tr, r);
    return true;
}

/* What backward start's figure holds, by the moment that counts (gs_train_peak). */
static const char *start_moment_text(enum gs_start_moment start)
{
    switch (start) {
    case GS_START_RECOMPUTE:
        return "the peak is at backward start: weights, optimizer states, every checkpoint and "
               "the last layer's recomputed activations with its backward's working set";
    case GS_START_LAST_LAYER:
        return "the peak is at backward start: weights, optimizer states, saved activations and "
               "the last layer's backward, what it holds beyond its saved tensors (its gradient "
               "pair, a torch scan's working set, a recomputed attention core)";
    case GS_START_HEAD:
        return "the peak is at backward start: weights, optimizer states, saved activations and "
               "the output head's backward (the logits' gradients and the head weight's)";
    case GS_START_FORWARD_END:
        return "the peak is at the forward's end, just before backward starts: weights, "
               "optimizer states, saved activations and this micro-batch's logits beside what "
               "the previous micro-batch's graph still holds (its logits, its 4-bit linears' "
               "inputs), with a 4-bit head's dequantized weight where its last chunk runs";
    case GS_START_LOSS:
        break;
    }
    return "the peak is at backward start: weights, optimizer states, saved activations and the "
           "loss's backward over the logits";
}

/* The allocator's slack over the allocated peak, in thousandths: about 5%
 * with expandable segments (segments grow in place, so freed blocks are
 * reused; Megatron-LM's 1.05 factor on its theoretical memory), 10%
 * without (the low end of the 10-25% reserved-over-allocated the measured
 * runs in tests/fixtures/calibration/training-measured.json show). */
#define FRAGMENTATION_EXPANDABLE_PERMILLE 50
#define FRAGMENTATION_PERMILLE 100

/* Micro-batches padded to their own longest sample change shape from step to step. The peak is
 * the longest one (sequence_length tokens), which the figures describe. The caching allocator
 * cuts a block from the smallest cached one that holds it and hands segments back to the
 * device only on empty_cache or when a cudaMalloc fails (c10/cuda/CUDACachingAllocator.cpp
 * get_free_block, release_cached_blocks), so each micro-batch longer than every one before
 * cudaMallocs new segments for its length-dependent blocks and the shorter ones stay reserved
 * (torch docs notes/cuda.rst, expandable_segments: "a job changing allocation sizes
 * frequently"). On a GPU with room to spare max_memory_reserved grows past the one-shape
 * figure; where room runs short the cached segments are freed and the run needs about that
 * figure (bench/allocator-lengths.py replays the allocator's rules: docs/training-peaks.md).
 * Expandable segments grow in place and avoid it. */
static void varying_shapes(const struct train_plan *plan, uint64_t loss_bytes,
                           uint64_t layer_working_bytes, struct gs_estimate *e)
{
    if (plan->tr.padding != GS_PADDING_LONGEST)
        return;
    assume(e, "padding",
           "micro-batches padded to their own longest sample: the figures are for the longest, "
           "sequence_length tokens, the step that sets the peak",
           "transformers DataCollatorWithPadding (padding=True, \"longest\")");
    if (plan->rules.expandable_segments)
        return;
    const bool loss_largest = loss_bytes >= layer_working_bytes;
    assume_value(e, "length_dependent_blocks_bytes",
                 loss_largest ? loss_bytes : layer_working_bytes,
                 loss_largest ? "the loss's blocks and the final norm's at the longest "
                                "micro-batch, the largest a step allocates whose size follows "
                                "its length"
                              : "one layer's working set at the longest micro-batch, the largest "
                                "blocks a step allocates whose size follows its length",
                 "c10/cuda/CUDACachingAllocator.cpp get_free_block (best fit), "
                 "release_cached_blocks; torch docs notes/cuda.rst expandable_segments");
    warn(e, "reserved_grows_with_lengths",
         "micro-batches change shape from step to step (padding \"longest\"): the caching "
         "allocator keeps the segments it cut for shorter ones, so on a GPU with memory to "
         "spare torch.cuda.max_memory_reserved and nvidia-smi grow past peak_reserved_bytes, "
         "by up to several times length_dependent_blocks_bytes over a run (the order of the "
         "lengths decides how much); they are freed when memory runs short, so the fit is "
         "judged on total_bytes, which counts peak_reserved_bytes. "
         "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True, packing or padding to max_length "
         "keep the reserved figure at it");
}

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
    if (rules->sync_each_batch_ignored && !plan->deepspeed && par->zero_stage >= 2 &&
        plan->tr.gradient_accumulation_steps > 1) {
        /* the request's sync_each_batch names what this release's loop cannot do */
        if (plan->tr.framework.sync_each_batch == GS_KNOB_ON)
            warn(e, "sync_each_batch_ignored",
                 rules->framework == GS_FW_TRANSFORMERS
                     ? "this release's Trainer runs every accumulating micro-batch but the "
                       "last under no_sync whatever sync_each_batch says (4.46 to 5.1: "
                       "transformers issue #29425, fixed by PR #43919 in 5.2; before 4.27 the "
                       "option did not exist): sized with the gradients kept unsharded; for "
                       "5.2 and later, or a loop of your own under accelerator.accumulate(), "
                       "give framework_version 5.2"
                     : "this framework's loop accumulates under no_sync with no switch for "
                       "syncing every micro-batch (LitGPT: fabric.no_backward_sync): sized with "
                       "the gradients kept unsharded");
        else
            warn(e, "sync_each_batch_ignored",
                 "this framework reduce-scatters every micro-batch's gradients and has no "
                 "no_sync accumulation: sync_each_batch false has no effect");
    }
    if (x->no_sync_grads) {
        /* no_sync(): the accumulating micro-batches' unsharded gradients, and the sharded ones
         * where the framework keeps them between steps */
        pk.no_sync_sharded = rules->grads_persist ? pk.gradients : 0;
        pk.no_sync_grads = gs_add(x->no_sync_grads, pk.no_sync_sharded, ovf);
        e->no_sync_gradient_bytes = x->no_sync_grads;
        e->sync_each_batch_helps = rules->sync_each_batch_option;
#define FSDP2_NO_SYNC_DETAIL                                                                     \
    "FSDP2 gradient accumulation with set_requires_gradient_sync(False): the micro-batches "      \
    "before the last keep every trainable parameter's gradient unsharded until the syncing "     \
    "micro-batch reduce-scatters them"
#define FSDP1_NO_SYNC_DETAIL                                                                     \
    "FSDP1 gradient accumulation under no_sync(): the micro-batches before the last keep every " \
    "unit's gradient unsharded (the whole layer unit, frozen base included, where adapters "     \
    "share its FlatParameter) until the syncing micro-batch reduce-scatters them"
#define SYNC_EACH_BATCH_REMEDY "; sync_each_batch avoids it"
        if (fsdp_pipeline_keeps_gathered(plan))
            assume_value(e, "fsdp2_no_sync_gradient_bytes", x->no_sync_grads,
                         "FSDP2 under torchtitan's pipeline schedule: every micro-batch's "
                         "backward runs with set_requires_gradient_sync(False), so each trainable "
                         "parameter's gradient stays unsharded at the reduce dtype until the last "
                         "backward reduce-scatters them",
                         "torch/distributed/pipelining/stage.py backward_maybe_with_nosync; "
                         "_fsdp_param.py to_accumulated_grad_if_needed");
        else if (fsdp_version_of(plan) == 2)
            assume_value(e, "fsdp2_no_sync_gradient_bytes", x->no_sync_grads,
                         rules->sync_each_batch_option ? FSDP2_NO_SYNC_DETAIL SYNC_EACH_BATCH_REMEDY
                                                       : FSDP2_NO_SYNC_DETAIL,
                         "torch/distributed/fsdp/_fully_shard/_fsdp_param_group.py post_backward "
                         "(no reduce-scatter when not reduce_grads), _fsdp_param.py "
                         "to_accumulated_grad_if_needed; accelerate >= 1.11 Accelerator.no_sync "
                         "(PR #3762)");
        else
            assume_value(e, "fsdp1_no_sync_gradient_bytes", x->no_sync_grads,
                         rules->sync_each_batch_option ? FSDP1_NO_SYNC_DETAIL SYNC_EACH_BATCH_REMEDY
                                                       : FSDP1_NO_SYNC_DETAIL,
                         "torch/distributed/fsdp/fully_sharded_data_parallel.py no_sync (\"FSDP "
                         "will accumulate the full model gradients (instead of gradient shards) "
                         "until the eventual sync\"); transformers Trainer accelerator.no_sync; "
                         "Lightning Fabric no_backward_sync");
#undef FSDP2_NO_SYNC_DETAIL
#undef FSDP1_NO_SYNC_DETAIL
#undef SYNC_EACH_BATCH_REMEDY
    }
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
                     "overlap_comm");
    } else if (par->zero_stage > 0) {
        /* FSDP: FULL_SHARD gathers the root (embedding, norm, head) and, in forward and
         * backward, the current and the prefetched unit; each unit's gradient exists whole
         * until its reduce-scatter (FSDP2 fully_shard, FSDP1 FlatParameter) */
        const bool kept = fsdp_pipeline_keeps_gathered(plan);
        if (kept && par->zero_stage == 3)
            pk.unsharded = x->gathered_all; /* the whole stage, from forward to backward end */
        else if (par->zero_stage == 3)
            pk.unsharded = gs_add(x->root_bytes, gs_mul(2, x->unit_bytes, ovf), ovf);
        /* the root unit's gradient is reduce-scattered last, once the embedding's exists */
        if (par->zero_stage >= 2)
            pk.unsharded_grad = max_u64(x->unit_grad_bytes, x->root_grad_bytes);
        const unsigned fsdp_version = fsdp_version_of(plan);
        if (fsdp_version == 2 && par->zero_stage >= 2) {
            /* fully_shard allocates each all-gather output in its copy-in stream and each
             * reduce-scatter output (the sharded gradients) in its reduce-scatter stream, the
             * reduce-scatter input in the default stream (_fsdp_collectives.py
             * foreach_all_gather, foreach_reduce, pytorch PR #129721): the gather pool holds
             * the root's gather or two layer units in flight (the current and the
             * prefetched) */
            pk.reduce_stream = true;
            pk.gather_pool = max_u64(x->root_bytes, gs_mul(2, x->unit_bytes, ovf));
        }
        assume_value(e, "fsdp_unsharded_bytes", gs_add(pk.unsharded, pk.unsharded_grad, ovf),
                     kept ? "FSDP under torchtitan's pipeline: every unit of the stage stays "
                            "gathered from its first forward to the step's last backward (no "
                            "reshard after forward or backward), whatever the sharding asked"
                          : "FSDP working set: the root unit plus the current and prefetched "
                            "layer units gathered at their working dtype, and one unit's "
                            "gradient at the reduce dtype; no DeepSpeed buckets",
                     kept ? "torchtitan parallelize.py apply_fsdp (reshard_after_forward = not "
                            "pp_enabled); torch/distributed/pipelining/stage.py "
                            "backward_maybe_with_nosync (set_reshard_after_backward(False))"
                          : "PyTorch FSDP2 fully_shard (reshard_after_forward, prefetch of the "
                            "next unit) and FSDP1 FULL_SHARD notes; torchtitan "
                            "MixedPrecisionPolicy reduce_dtype float32");
    }
    if (has_activations) {
        if (par->pipeline > 1) {
            pk.stored = act->total_bytes;
        } else {
            pk.stored = act->stored_bytes;
            pk.loss = act->logits_bytes;
            pk.previous_graph = x->previous_graph_bytes;
            if (pk.previous_graph)
                assume_value(e, "previous_graph_bytes", pk.previous_graph,
                             "the previous micro-batch's 4-bit linear inputs, still allocated "
                             "when this one's forward ends: bitsandbytes' MatMul4Bit keeps "
                             "them on its ctx, which autograd does not release after backward, "
                             "and the loop's output variable keeps that graph (and its logits) "
                             "until the next forward returns; counted at the forward's end, "
                             "as two consecutive micro-batches at the longest",
                             "bitsandbytes autograd/_functions.py MatMul4Bit.forward "
                             "(ctx.tensors = (A, B), before 0.43.2); litgpt finetune/lora.py "
                             "fit (logits = model(input_ids, lm_head_chunk_size=128))");
            pk.head_grad = x->head_grad_bytes;
            pk.head_dequant = act->head_dequant_bytes;
            /* the loop's `logits` still holds the previous micro-batch's (none before the
             * first: where the longest runs first, or across pipeline stages) */
            if (rules->keeps_previous_graph && !rules->longest_first)
                pk.previous_logits = act->logits_held_bytes;
            pk.forward_logits = act->forward_logits_bytes;
            pk.logits_held = act->logits_held_bytes;
            pk.logit_grads = act->logit_grads_bytes;
            pk.loss_chunks = act->loss_chunks;
            pk.head_kept = act->final_norm_bytes;
            pk.head_tied = e->params.lm_head == 0;
            pk.embedding_grad = x->embedding_grad_bytes;
            pk.embedding_backward = x->embedding_backward_bytes;
        }
        pk.layer_working = act->layer_working_bytes;
        pk.layer_backward = act->layer_backward_bytes;
        pk.recomputed = plan->tr.recompute == GS_RECOMPUTE_FULL && par->pipeline == 1;
    }
    if (x->head_autocast_copy) {
        pk.autocast_copies = x->head_autocast_copy;
        assume_value(e, "autocast_weight_copies_bytes", pk.autocast_copies,
                     "autocast's 16-bit copy of the frozen fp32 head's weight, saved by its "
                     "linear for backward (the layers' copies count with their activations)",
                     "aten/src/ATen/autocast_mode.cpp cached_cast (a frozen weight is cast per "
                     "call); F.linear saves its weight");
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
    const uint64_t slack = ceil_div(gs_mul(peak.default_stream_peak, permille, ovf), 1000);
    const uint64_t context = overhead_value(o->has_cuda_context_bytes, o->cuda_context_bytes,
                                            GS_CUDA_CONTEXT_BYTES);
    uint64_t comm = 0;
    /* a device_map's GPUs belong to one process, which opens no process group: its stages
     * pass activations with plain device-to-device copies */
    if (world > 1 && (!par->device_map || o->has_nccl_bytes))
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
    /* reserved: the default stream's peak with its slack, and the side streams' pools,
     * which that stream's freed blocks cannot serve; what the pools hold beyond the
     * allocated peak is reserved and unused at the peak moment, overhead like the slack */
    const uint64_t reserved =
        gs_add(gs_add(peak.default_stream_peak, slack, ovf), peak.side_pools, ovf);
    const uint64_t unused = reserved > peak.allocated ? reserved - peak.allocated : 0;
    e->per_gpu.peak_reserved_bytes = reserved;
    e->per_gpu.overhead_bytes = gs_add(gs_add(peak.transient, unused, ovf),
                                       gs_add(context, comm, ovf), ovf);
    if (peak.side_pools)
        assume_value(e, "fsdp2_stream_pools_bytes", peak.side_pools,
                     "FSDP2's side-stream pools, reserved beside the default stream's peak: the "
                     "sharded gradients (the reduce-scatter stream; each reduce-scatter's input "
                     "is the default stream's), the largest all-gather in flight (the copy-in "
                     "stream); the caching allocator reuses a freed block only on the stream "
                     "that allocated it",
                     "torch/distributed/fsdp/_fully_shard/_fsdp_collectives.py "
                     "foreach_all_gather, foreach_reduce (pytorch PR #129721); "
                     "c10/cuda/CUDACachingAllocator.cpp get_free_block");
    if (pk.step_temporaries && plan->tr.optimizer != GS_OPT_ADAFACTOR)
        assume_value(e, "optimizer_step_temporaries_bytes", pk.step_temporaries,
                     "the foreach AdamW step's temporary list, one moment's size "
                     "(torch._foreach_sqrt of exp_avg_sq)",
                     "torch/optim/adamw.py _multi_tensor_adamw");
    assume_value(e, "peak_phase_bytes", peak.allocated,
                 peak.phase == GS_PHASE_BACKWARD_START ? start_moment_text(peak.start)
                 : peak.phase == GS_PHASE_BACKWARD_END
                     ? "the peak is at backward end: weights, optimizer states, every gradient "
                       "and one layer's working set"
                     : "the peak is the optimizer step: weights, states, gradients and the step's "
                       "temporaries",
                 "docs/training-peaks.md; gs/train_peak.h");
    assume_value(e, "fragmentation_permille", permille,
                 "caching-allocator slack of reserved over allocated memory, in thousandths",
                 rules->expandable_segments
                     ? "expandable segments: Megatron-LM's 1.05 factor on theoretical memory"
                     : "no expandable segments: the low end of the 10-25% reserved-over-allocated "
                       "slack in measured runs (tests/fixtures/calibration/"
                       "training-measured.json)");
    varying_shapes(plan, pk.loss, pk.layer_working, e);
    assume_context(e, o, context);
    assume_value(e, "cublas_workspace_bytes", pk.workspace,
                 "cuBLAS workspace per GPU, allocated through PyTorch's caching allocator (so "
                 "inside max_memory_allocated)",
                 "pytorch/pytorch PR #120925 and PR #89027");
    if (world > 1 && par->device_map && !o->has_nccl_bytes)
        assume_value(e, "nccl_bytes", 0,
                     "none: a device_map's GPUs belong to one process, which opens no NCCL "
                     "communicator (hidden states move between GPUs as tensor copies)",
                     "accelerate hooks.py AlignDevicesHook.pre_forward (send_to_device)");
    else if (world > 1)
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
    if (r->sac_recomputes_attention && plan->tr.recompute == GS_RECOMPUTE_SELECTIVE)
        assume(e, "attention_recomputed",
               "the per-op checkpointing policy keeps no attention output: SDPA runs cuDNN's "
               "kernel first on this GPU, which the policy's save list does not name, so each "
               "layer's attention is recomputed in backward (layers whose heads cuDNN's kernel "
               "takes: at most 128 wide, no sliding window); from torchtitan 0.2.1 the list "
               "names it",
               "torchtitan models/attention.py (cuDNN first: 0.1 on compute capability 10.0 "
               "and up, 0.2.0 on every GPU) and parallelize.py _op_sac_save_list; PR #2095");
    e->loss = r->loss;
    assume(e, "loss",
           r->loss == GS_LOSS_FP32_RETAINED
               ? "fp32_retained: the fp32 logits the model returns stay alive through backward, "
                 "with log_softmax's output, its gradient and the input gradient (16 bytes per "
                 "logit)"
           : r->loss == GS_LOSS_FP32
               ? (r->loss_parallel && plan->par.tensor > 1
                      ? "fp32 on each rank's vocabulary shard (DTensor loss_parallel): its "
                        "backward holds log_softmax's output, the zeroed gradient, exp of the "
                        "output and their sum at once (16 bytes per logit)"
                  : r->compile && r->loss_compiled
                      ? "fp32 compiled with the model (torch.compile over the loss): the fused "
                        "kernel keeps its 16-bit input and each row's log-sum-exp, and its "
                        "backward writes the input's 16-bit gradient (4 bytes per logit)"
                  : r->logits_fp32_held
                      ? "fp32: log_softmax output, its gradient and the input gradient in fp32 "
                        "plus the fp32 logits the model returned, which the caller holds (16 "
                        "bytes per logit)"
                  : r->keeps_16bit_logits
                      ? "fp32: upcast inside the loss; log_softmax output, its gradient and the "
                        "input gradient in fp32 plus the 16-bit logits the caller holds (14 bytes "
                        "per logit)"
                  : r->loss_shift_copy && !r->returns_fp32_logits
                      ? "fp32: the loss's forward holds the 16-bit logits, their fp32 upcast, "
                        "its copy of the shifted logits and log_softmax's output (14 bytes per "
                        "logit), more than its backward (12)"
                      : "fp32: the logits dropped before backward; log_softmax output, its "
                        "gradient and the input gradient in fp32 (12 bytes per logit)")
           : r->loss == GS_LOSS_CHUNKED
               ? (r->compile ? "chunked and compiled: each chunk's fused kernel keeps its 16-bit "
                               "input, plus one chunk's 16-bit gradient"
                  : r->logits_fp32_held
                      ? "chunked: the fp32 logits the caller holds (Fabric converts "
                        "the model's output), every chunk's saved log_softmax "
                        "output and one chunk's gradients at a time"
                      : "chunked: every chunk's saved log_softmax output, one "
                        "chunk's gradients at a time, and the 16-bit logits when "
                        "the caller holds them")
           : r->loss == GS_LOSS_CHUNKED_NLL
               ? "chunked_nll (TRL's SFTTrainer): the head and the cross-entropy run over "
                 "checkpointed chunks of 256 tokens; one chunk's fp32 logits, their gradients and "
                 "the fp32 (under autocast also 16-bit) copy of the head's weight at a time, with "
                 "the packed hidden states and their gradient"
               : "fused linear-cross-entropy: the logits are never materialised whole",
           "framework.c gs_loss_eighths_per_logit; transformers loss_utils.py, torchtune "
           "CEWithChunkedOutputLoss, torchtitan build_cross_entropy_loss, LitGPT "
           "chunked_cross_entropy, Liger "
           "LigerFusedLinearCrossEntropyLoss, torch/distributed/tensor/parallel/loss.py, trl "
           "sft_trainer.py _chunked_cross_entropy_loss");
}

/* The attention path sized: the request's (SDPA by default), except that a model whose
 * transformers code has no fused path (T5's relative-position bias is added to the scores:
 * modeling_t5.py T5Attention, no _supports_sdpa; DeepSeek-V4's sink logits and 512-wide heads:
 * modeling_deepseek_v4.py, _supports_sdpa and _supports_flash_attn False) runs eager whatever
 * is asked. */
static void attention_path(const struct gs_model_spec *m, struct gs_training *tr,
                           struct gs_estimate *e)
{
    if (!tr->attn_impl_given) /* callers that set only the older flag */
        tr->attn_impl = tr->flash_attention ? GS_ATTN_SDPA : GS_ATTN_EAGER;
    const enum gs_framework fw = tr->framework.framework;
    const bool transformers_code = gs_framework_transformers_code(fw);
    if (m->has_arch && m->arch.attention_eager_only && transformers_code &&
        !gs_attn_impl_materializes(tr->attn_impl)) {
        warn(e, "attention_eager_only",
             "this model type has only an eager attention path in transformers (T5 adds a "
             "position bias to the score matrix; no fused kernel takes DeepSeek-V4's sink logits "
             "and 512-wide heads), so it is sized as attn_implementation \"eager\" whatever the "
             "request asks: each layer's score matrix over the sequence's own keys (DeepSeek-V4's "
             "compressed entries, appended to the keys in its compressed layers, are not "
             "counted)");
        tr->attn_impl = GS_ATTN_EAGER;
    }
    /* transformers picks eager for a type without SDPA when none is named
     * (PreTrainedModel._check_and_adjust_attn_implementation) */
    if (m->has_arch && m->arch.attention_no_sdpa && transformers_code &&
        tr->attn_impl == GS_ATTN_SDPA) {
        warn(e, "attention_no_sdpa",
             "this model type has no SDPA path in transformers (GPT-OSS's attention sinks), so "
             "it runs eager by default and is sized as attn_implementation \"eager\", which "
             "keeps each layer's score matrix; flash_attention_3 (the kernels hub's sink-aware "
             "kernel) or flex_attention keep only the kernel's log-sum-exp");
        tr->attn_impl = GS_ATTN_EAGER;
    }
    /* LitGPT computes soft-capped attention by hand: "with softcapping we cannot use SDPA"
     * (litgpt/model.py CausalSelfAttention.scaled_dot_product_attention: q @ k.mT,
     * do_softcapping, the mask, softmax in fp32 cast back, @ v) */
    if (m->has_arch && m->arch.attn_logit_softcap && fw == GS_FW_LITGPT &&
        !gs_attn_impl_materializes(tr->attn_impl)) {
        warn(e, "attention_softcap_eager",
             "LitGPT computes soft-capped attention (attention_logit_softcapping) with plain "
             "matmuls, not SDPA, so it is sized as eager: each layer keeps its score matrix");
        tr->attn_impl = GS_ATTN_EAGER;
    }
    tr->flash_attention = !gs_attn_impl_materializes(tr->attn_impl);
    e->attn_impl = tr->attn_impl;
}

/* Grouped K/V handed to SDPA with enable_gqa (transformers' sdpa_attention.py, a release with
 * use_gqa_in_sdpa, no window mask), where no fused kernel takes them, and SDPA runs its math
 * kernel, which keeps the score matrix (activation.c sizes what it can tell): in fp32 every
 * layer (sized so: the warning says why and what avoids it); heads wider than 256 are sized as
 * PR #46960 runs them (repeated, the memory-efficient kernel), with what releases before it keep
 * more on the math kernel said beside. */
static void sdpa_kernel_notes(const struct gs_model_spec *m, const struct gs_workload *w,
                              const struct train_plan *plan, struct gs_estimate *e)
{
    const struct gs_training *tr = &plan->tr;
    if (!m->has_arch || !plan->rules.transformers_sdpa || !plan->rules.sdpa_gqa_native)
        return;
    uint64_t element, residual;
    bool autocast;
    activation_dtypes(w, plan, &element, &residual, &autocast);
    const bool fp32 = element == 4 && !autocast;
    const struct gs_arch *a = &m->arch;
    uint64_t scores = 0;
    bool ovf = false, math = false;
    for (size_t k = 0; k < a->block_count; k++) {
        const struct gs_block *b = &a->blocks[k];
        if (b->mixer != GS_MIXER_ATTENTION || !b->attn.kv_heads ||
            b->attn.kv_heads >= b->attn.heads || a->block_layers[k] == 0 ||
            (b->attn.span != GS_SPAN_FULL && b->attn.window &&
             tr->sequence_length >= b->attn.window))
            continue;
        if (b->attn.head_dim <= 256) {
            math = math || fp32;
            continue;
        }
        const uint64_t per_layer =
            gs_mul(gs_mul(b->attn.heads, tr->batch_size, &ovf),
                   gs_mul(tr->sequence_length, tr->sequence_length, &ovf), &ovf);
        scores = gs_add(scores, gs_mul(per_layer, a->block_layers[k], &ovf), &ovf);
    }
    if (math)
        warn(e, "sdpa_math_kernel",
             "in fp32 transformers' SDPA hands grouped K/V over with enable_gqa, and neither "
             "fused kernel that takes grouped heads (flash, cuDNN) runs fp32, so torch runs its "
             "math kernel, which keeps every layer's score matrix as eager attention does; it "
             "is sized so. Autocast (regime amp) or 16-bit weights keep the flash kernel");
    if (scores == 0 || ovf)
        return;
    warn(e, "sdpa_head_dim_over_256",
         "layers with grouped heads wider than 256 are sized as transformers' SDPA runs them "
         "from PR #46960 (merged 2026-06-29): K/V repeated to every head and the "
         "memory-efficient kernel. Releases before it pass enable_gqa, which no fused kernel "
         "takes at that width, and torch silently runs the math kernel, which also keeps "
         "those layers' score matrix (sdpa_math_kernel_scores_bytes, per micro-batch)");
    assume_value(e, "sdpa_math_kernel_scores_bytes", gs_mul(scores, 4, &ovf),
                 "what SDPA's math kernel keeps more on transformers releases before PR #46960: "
                 "the softmax output, in fp32 (torch >= 2.5 computes the math kernel in fp32 for "
                 "16-bit inputs), heads x sequence^2 a layer with heads wider than 256",
                 "aten attention.cpp _scaled_dot_product_attention_math; transformers "
                 "sdpa_attention.py use_gqa_in_sdpa");
}

/* torchtitan's tensor-parallel plan is tensor and sequence parallelism together, with no switch:
 * parallelize_llama's apply_tp puts SequenceParallel on the norms and RowwiseParallel(output_
 * layouts=Shard(1)) on wo and w2, so the residual stream between the blocks - what full
 * recomputation keeps - is split along the sequence over the tensor ranks. Other frameworks'
 * switch (Megatron-LM --sequence-parallel) is the request's. */
static enum gs_status sequence_parallel_default(const struct gs_model_spec *m,
                                                struct train_plan *plan, struct gs_estimate *e,
                                                struct gs_error *err)
{
    /* Megatron-LM's MoE layer trains with tensor parallelism only over a sequence-parallel
     * residual stream: MoELayer.forward raises otherwise (megatron/core/transformer/moe/
     * moe_layer.py: "During training, performance may degrade if MoE and tensor parallelism
     * are enabled without also enabling sequence parallelism") */
    const bool megatron_moe = plan->tr.framework.framework == GS_FW_MEGATRON &&
                              plan->tr.framework.framework_given && m->has_arch &&
                              gs_arch_moe_block(&m->arch) != NULL && plan->par.tensor > 1;
    if (megatron_moe && plan->par.sequence_parallel_given && !plan->par.sequence_parallel)
        return gs_error_add(err, GS_ERR_INVALID, "/parallelism/sequence_parallel",
                            "Megatron-LM's MoE layer refuses to train with tensor parallelism "
                            "but no sequence parallelism (moe_layer.py MoELayer.forward raises); "
                            "set sequence_parallel true, or tensor 1");
    if (megatron_moe && !plan->par.sequence_parallel_given) {
        plan->par.sequence_parallel = true;
        assume(e, "sequence_parallel",
               "Megatron-LM trains a mixture-of-experts model with tensor parallelism only with "
               "sequence parallelism (--sequence-parallel): its MoE layer raises otherwise",
               "Megatron-LM megatron/core/transformer/moe/moe_layer.py MoELayer.forward");
    }
    if (!plan->par.sequence_parallel_given && plan->par.tensor > 1 &&
        plan->tr.framework.framework == GS_FW_TORCHTITAN) {
        plan->par.sequence_parallel = true;
        assume(e, "sequence_parallel",
               "torchtitan splits the residual stream along the sequence over the tensor ranks "
               "(its tensor-parallel plan always includes sequence parallelism)",
               "torchtitan models/llama3/infra/parallelize.py apply_tp: SequenceParallel on "
               "attention_norm, ffn_norm and norm; RowwiseParallel(output_layouts=Shard(1)) on "
               "wo and w2");
    }
    e->sequence_parallel = plan->par.sequence_parallel;
    return GS_OK;
}

bool gs_workload_pipelines(const struct gs_workload *w)
{
    /* transformers' Trainer (trainer.py) wraps the model for DDP, FSDP, DeepSpeed ZeRO or
     * tensor parallelism, never a pipeline schedule; it spreads layers over GPUs only as a
     * device_map loads them (gs_workload_device_map), which DeepSpeed refuses
     * (integrations/accelerate.py check_and_set_device_map: "DeepSpeed Zero-3 is not
     * compatible with passing a `device_map`"; accelerate's prepare_model refuses a
     * multi-GPU device_map in any distributed mode) */
    const struct gs_training_knobs *f = &w->training.framework;
    if (w->training.trl)
        return !(f->framework_given && f->framework == GS_FW_DEEPSPEED);
    /* torchtune's recipes lay a model out over data (replicated or sharded), tensor and context
     * ranks (training/_distributed.py ParallelDims: no pipeline dimension), and LitGPT's over
     * Fabric's DDP, FSDP or DeepSpeed ZeRO strategies: neither has a pipeline */
    return !(f->framework_given &&
             (f->framework == GS_FW_TORCHTUNE || f->framework == GS_FW_LITGPT));
}

bool gs_workload_device_map(const struct gs_workload *w)
{
    const struct gs_training_knobs *f = &w->training.framework;
    if (w->mode != GS_MODE_TRAINING)
        return false;
    if (w->training.trl)
        return !f->framework_given || f->framework == GS_FW_TRANSFORMERS;
    return f->framework_given && f->framework == GS_FW_TRANSFORMERS;
}

/* The bytes transformers counts for `n` parameters of a part when it places a device_map
 * (compute_module_sizes: numel x element size, HfQuantizer.param_element_size 0.5 for a
 * bitsandbytes 4-bit weight, 1 for an 8-bit one; what it does not quantize at the load dtype). */
static uint64_t map_bytes(uint64_t n, bool quantized_part, enum gs_dtype weights, bool *ovf)
{
    if (quantized_part && weights == GS_DTYPE_INT4)
        return n / 2;
    if (quantized_part && weights == GS_DTYPE_INT8)
        return n;
    return gs_mul(n, weights == GS_DTYPE_FP32 ? 4 : 2, ovf);
}

/* The stages of a device_map="auto" over `par->pipeline` GPUs (gs/device_map.h), as listed
 * counts in par->stages unless the request listed its own (a device_map it writes itself). */
static enum gs_status device_map_stages(const struct gs_model_spec *m, const struct gs_workload *w,
                                        struct gs_estimate *e, struct gs_parallelism *par,
                                        struct gs_error *err)
{
#define DEVICE_MAP_ONE_PROCESS                                                                     \
    "a model loaded with device_map over %llu GPUs trains in one process (the HF Trainer's "       \
    "is_model_parallel; accelerate's prepare_model: \"You can't train a model that has been "      \
    "loaded with `device_map='auto'` in any distributed mode\"): "
    const unsigned long long p = (unsigned long long)par->pipeline;
    if (par->tensor > 1 || par->data > 1 || par->context > 1 || par->expert > 1)
        return gs_error_add(err, GS_ERR_INVALID,
                            par->tensor > 1    ? "/parallelism/tensor"
                            : par->data > 1    ? "/parallelism/data"
                            : par->context > 1 ? "/parallelism/context"
                                               : "/parallelism/expert",
                            DEVICE_MAP_ONE_PROCESS "use tensor, data, context and expert 1 with "
                                                   "it, or pipeline 1 with data parallelism, FSDP "
                                                   "or ZeRO",
                            p);
    if (par->zero_stage > 0 || par->offload != GS_OFFLOAD_NONE)
        return gs_error_add(err, GS_ERR_INVALID,
                            par->zero_stage > 0 ? "/parallelism/zero_stage"
                                                : "/parallelism/offload",
                            DEVICE_MAP_ONE_PROCESS "FSDP and ZeRO shard a model held whole by "
                                                   "each process: use pipeline 1 with them",
                            p);
    if (gs_stage_chunks(&par->stages) > 1)
        return gs_error_add(err, GS_ERR_INVALID, "/parallelism/virtual_stages",
                            "a device_map runs each GPU's layers once a step, one GPU after "
                            "another: there is no schedule to interleave");
#undef DEVICE_MAP_ONE_PROCESS
    par->device_map = true;
    if (par->stages.split == GS_SPLIT_GIVEN || !m->has_arch)
        return GS_OK; /* the request's own map, or no layers to place */
    const struct gs_arch *a = &m->arch;
    if (par->pipeline > GS_STAGES_GIVEN_MAX || par->pipeline > a->num_hidden_layers)
        return gs_error_add(err, GS_ERR_RANGE, "/parallelism/pipeline", "more stages than layers");
    bool ovf = false;
    const enum gs_dtype dt = w->weights;
    struct gs_param_count own[GS_BLOCKS_MAX];
    const struct gs_param_count *block = block_params(m, own, &ovf);
    uint64_t block_bytes[GS_BLOCKS_MAX], layer_bytes[GS_LAYERS_MAX], leaves = 0;
    for (size_t b = 0; b < a->block_count; b++) {
        const struct gs_param_count *c = &block[b];
        /* bitsandbytes quantizes the nn.Linear modules; fused 3-D experts stay at the load
         * dtype (replace_with_bnb_linear) */
        const uint64_t experts = a->blocks[b].mlp.experts_fused ? 0 : c->experts;
        block_bytes[b] = gs_add(
            map_bytes(gs_add(gs_add(c->attention, c->mlp, &ovf), experts, &ovf), true, dt, &ovf),
            map_bytes(gs_add(gs_add(c->norms, c->other, &ovf),
                             gs_add(c->embedding, c->experts - experts, &ovf), &ovf),
                      false, dt, &ovf),
            &ovf);
    }
    /* get_balanced_memory's no-split block: the first layer of each decoder-layer class
     * (_no_split_modules), taken as the first layer of each mixer */
    uint64_t no_split = 0, total = 0;
    bool seen[GS_MIXER_RECURRENT + 1] = {false};
    for (uint64_t i = 0; i < a->num_hidden_layers; i++) {
        const uint8_t b = a->layer_block[i];
        layer_bytes[i] = block_bytes[b];
        total = gs_add(total, layer_bytes[i], &ovf);
        leaves += a->blocks[b].module_count;
        const uint8_t mixer = a->blocks[b].mixer;
        if (mixer <= GS_MIXER_RECURRENT && !seen[mixer]) {
            seen[mixer] = true;
            no_split = layer_bytes[i] > no_split ? layer_bytes[i] : no_split;
        }
    }
    /* what lies outside the layers: the model's parts less the layers' own */
    uint64_t counts[GS_BLOCKS_MAX];
    struct gs_param_count in_layers;
    gs_arch_count_weight_blocks(a, 0, a->num_hidden_layers, counts);
    layers_params(a, block, counts, &in_layers, &ovf);
    const struct gs_param_count *c = &e->params;
    struct gs_device_map_input in = {
        .gpus = par->pipeline,
        .layers = a->num_hidden_layers,
        .layer_bytes = layer_bytes,
        /* the encoder towers run before the decoder, on GPU 0 with the embedding */
        .embedding_bytes = map_bytes(
            gs_add(c->embedding > in_layers.embedding ? c->embedding - in_layers.embedding : 0,
                   gs_add(c->vision, c->audio, &ovf), &ovf),
            false, dt, &ovf),
        .norm_bytes =
            map_bytes(c->norms > in_layers.norms ? c->norms - in_layers.norms : 0, false, dt, &ovf),
        .head_bytes = map_bytes(c->lm_head, false, dt, &ovf),
        .head_tied = c->lm_head == 0,
        .bitsandbytes = dt == GS_DTYPE_INT4 || dt == GS_DTYPE_INT8,
        .no_split_bytes = no_split,
    };
    total = gs_add(gs_add(total, in.embedding_bytes, &ovf),
                   gs_add(in.norm_bytes, in.head_bytes, &ovf), &ovf);
    in.mean_leaf_bytes = total / (leaves + (in.head_tied ? 2 : 3));
    struct gs_device_map map;
    if (ovf)
        return gs_error_add(err, GS_ERR_RANGE, "/model", "the model's sizes overflow");
    if (!gs_device_map_place(&in, &map))
        return gs_error_add(err, GS_ERR_INVALID, "/parallelism/pipeline",
                            "device_map=\"auto\" places this model on fewer than %llu GPUs "
                            "(GPU %llu gets no module: transformers' get_balanced_memory gives "
                            "each GPU the model's size / GPUs and a layer's room): use fewer "
                            "stages",
                            p, (unsigned long long)map.unused_gpu);
    for (uint64_t k = 1; k + 1 < par->pipeline; k++)
        if (map.layers_on[k] == 0)
            return gs_error_add(err, GS_ERR_INVALID, "/parallelism/pipeline",
                                "device_map=\"auto\" puts no decoder layer on GPU %llu of %llu "
                                "for this model: use fewer stages",
                                (unsigned long long)k, p);
    par->stages.split = GS_SPLIT_GIVEN;
    par->stages.given_count = (uint32_t)par->pipeline;
    for (uint64_t k = 0; k < par->pipeline; k++)
        par->stages.given[k] = map.layers_on[k];
    assume_value(e, "device_map_balanced_bytes", map.per_gpu_bytes,
                 "device_map=\"auto\" places the modules in order (embedding, decoder layers, "
                 "final norm, head), each on the current GPU while its weights stay within this "
                 "budget - the model's bytes / GPUs plus 1.25 decoder layers, 0.9 of that "
                 "under bitsandbytes (a 4-bit weight counted at half a byte) - GPU 0 keeping "
                 "room for the largest "
                 "module still to place, the last GPU taking the rest; parallelism.stage_layers "
                 "lists the result (list your own device_map there)",
                 "transformers integrations/accelerate.py get_balanced_memory and "
                 "infer_auto_device_map (from accelerate utils/modeling.py); "
                 "HfQuantizer.param_element_size; quantizer_bnb_4bit.py adjust_max_memory");
    return GS_OK;
}

unsigned gs_workload_pipeline_zero_max(const struct gs_workload *w)
{
    if (gs_workload_device_map(w))
        return 0;
    /* torchtitan shards with fully_shard whatever the stage is called (its ZeRO stages mean
     * FSDP, est_compute_training) */
    if (w->training.framework.framework == GS_FW_TORCHTITAN && w->training.framework.framework_given)
        return 3;
    return w->parallelism.fsdp ? 0 : 1;
}

/* Says how the decoder layers fall to the pipeline stages (the counts themselves are
 * parallelism.stage_layers in the response) and, where Megatron-LM needs flags for it, which. */
static void pipeline_split_notes(const struct gs_parallelism *par, uint64_t layers, bool titan,
                                 struct gs_estimate *e)
{
    uint64_t first = 0, last = 0;
    switch (par->stages.split) {
    case GS_SPLIT_TORCHTITAN:
        assume(e, "pipeline_stage_layers",
               "torchtitan's split: the embedding and the final norm with the head each take a "
               "layer's place, the first stages one layer more where the count leaves a "
               "remainder",
               "torchtitan/distributed/pipeline_parallel.py _generate_llm_fqn_per_model_part; "
               "config/configs.py pipeline_parallel_first_stage_less_layers and "
               "pipeline_parallel_last_stage_less_layers (default 1)");
        break;
    case GS_SPLIT_MEGATRON:
        if (gs_stage_megatron_ends(layers, par->pipeline, &first, &last))
            assume_value(e, "megatron_uneven_pipeline", first,
                         "the stages do not divide the layers: Megatron-LM runs them with "
                         "--decoder-first-pipeline-num-layers (this value) and "
                         "--decoder-last-pipeline-num-layers (the last of parallelism."
                         "stage_layers), the middle stages holding the rest evenly; sized with "
                         "the split whose fullest stage holds the fewest layers, the first "
                         "stage the smaller end (it keeps the most micro-batches in flight)",
                         "Megatron-LM megatron/core/transformer/transformer_block.py "
                         "get_num_layers_to_build; transformer_config.py (both ends at least "
                         "one layer, the middle layers divisible by the middle stages)");
        break;
    case GS_SPLIT_GIVEN:
        assume(e, "pipeline_layer_partition",
               "the stages hold the layers parallelism.stage_layers lists, as the request gives "
               "them; the first stage also holds the embedding, the last the final norm and the "
               "head",
               "Megatron-LM --pipeline-model-parallel-layout (megatron/core/transformer/"
               "pipeline_parallel_layer_layout.py); torchtitan config/configs.py "
               "module_fqns_per_model_part");
        break;
    case GS_SPLIT_DIVIDES:
    case GS_SPLIT_VLLM:
    case GS_SPLIT_TRTLLM:
    case GS_SPLIT_DEVICE_MAP:
        break;
    }
    if (gs_stage_chunks(&par->stages) > 1 && titan)
        assume_value(e, "interleaved_pipeline_schedule", gs_stage_chunks(&par->stages),
                     "torchtitan's Interleaved1F1B with this many stages a rank "
                     "(pipeline_parallel_layers_per_stage giving pipeline x this many virtual "
                     "stages): its split over the virtual stages, the embedding and the head "
                     "each taking a layer's place (or the model parts listed), rank s holding "
                     "stages s, s + pipeline, ...; "
                     "rank s runs 2 (pipeline - s - 1) + (chunks - 1) x the round's micro-batches "
                     "warm-up forwards and one more before its first backward, each keeping its "
                     "stage's saved tensors",
                     "torchtitan/distributed/pipeline_parallel.py _get_pipeline_metadata and "
                     "_get_pp_rank_to_stage_indices_mapping; torch/distributed/pipelining/"
                     "schedules.py ScheduleInterleaved1F1B get_rank_warmup_ops");
    else if (gs_stage_chunks(&par->stages) > 1)
        assume_value(e, "interleaved_pipeline_schedule", gs_stage_chunks(&par->stages),
                     "Megatron-LM's interleaved 1F1B schedule with this many model chunks a "
                     "stage: each stage's layers in equal chunks, chunk c of stage s the "
                     "(c x pipeline + s)-th of the virtual stages; stage s runs 2 (pipeline - s "
                     "- 1) + (chunks - 1) x pipeline warm-up forwards and one more before its "
                     "first backward, each keeping its chunk's saved tensors (the first stage 1 + "
                     "(pipeline - 1) / (pipeline x chunks) times a non-interleaved first stage's)",
                     "Megatron-LM megatron/core/pipeline_parallel/schedules.py "
                     "get_pp_rank_microbatches and get_schedule_table; megatron/core/transformer/"
                     "transformer_layer.py get_transformer_layer_offset; megatron/training/"
                     "theoretical_memory_usage.py interleaved_schedule_memory_penalty");
}

enum gs_stage_split gs_workload_stage_split(const struct gs_workload *w)
{
    const struct gs_training_knobs *f = &w->training.framework;
    if (w->mode != GS_MODE_TRAINING)
        return GS_SPLIT_VLLM;
    if (gs_workload_device_map(w))
        return GS_SPLIT_DEVICE_MAP;
    if (!f->framework_given || f->framework == GS_FW_MEGATRON)
        return GS_SPLIT_MEGATRON;
    return f->framework == GS_FW_TORCHTITAN ? GS_SPLIT_TORCHTITAN : GS_SPLIT_DIVIDES;
}

/* The framework a training request runs under: the one it names, else transformers (the
 * contract's default for training.framework). */
static enum gs_framework framework_of(const struct gs_workload *w)
{
    const struct gs_training_knobs *f = &w->training.framework;
    return f->framework_given ? f->framework : GS_FW_TRANSFORMERS;
}

/* The names of a fused projection's parts as a framework that runs them apart builds them,
 * "fused.part" (GS_MOD_PART), by the checkpoint's name for the fused one: q/k/v (then gate/up)
 * names, static storage. */
static const struct {
    const char *fused;
    const char *parts[3];
} part_names[] = {
    {"qkv_proj", {"qkv_proj.q_proj", "qkv_proj.k_proj", "qkv_proj.v_proj"}},
    {"query_key_value",
     {"query_key_value.q_proj", "query_key_value.k_proj", "query_key_value.v_proj"}},
    {"c_attn", {"c_attn.q_proj", "c_attn.k_proj", "c_attn.v_proj"}},
    {"Wqkv", {"Wqkv.q_proj", "Wqkv.k_proj", "Wqkv.v_proj"}},
    {"wqkv", {"wqkv.q_proj", "wqkv.k_proj", "wqkv.v_proj"}},
    {"W_pack", {"W_pack.q_proj", "W_pack.k_proj", "W_pack.v_proj"}},
    {"gate_up_proj", {"gate_up_proj.gate_proj", "gate_up_proj.up_proj", NULL}},
};

/* The name of part `i` of fused module `fused`: from part_names, else the part's own name
 * (`plain`) and no GS_MOD_PART. */
static const char *part_name(const char *fused, size_t i, const char *plain, unsigned *flag)
{
    for (size_t k = 0; k < sizeof(part_names) / sizeof(part_names[0]); k++)
        if (strcmp(part_names[k].fused, fused) == 0 && part_names[k].parts[i] != NULL) {
            *flag = GS_MOD_PART;
            return part_names[k].parts[i];
        }
    *flag = 0;
    return plain;
}

/* The index of a dense gated MLP's fused gate/up projection in block `b` (Phi-3's gate_up_proj:
 * one linear h -> 2 x width), or b->module_count. */
static size_t fused_gate_up(const struct gs_block *b)
{
    if (b->mlp.kind != GS_MLP_DENSE || !b->mlp.gated)
        return b->module_count;
    for (size_t i = 0; i < b->module_count; i++) {
        const struct gs_module *m = &b->modules[i];
        if (m->kind == GS_MODULE_LINEAR && m->part == GS_PART_MLP && m->split == GS_SPLIT_COLUMN &&
            !(m->flags & GS_MOD_EXPERT) && m->out == 2 * b->mlp.width)
            return i;
    }
    return b->module_count;
}

/* Whether some block of `a` has the module `find` finds (an index below its module count). */
static bool some_block_has(const struct gs_arch *a, size_t (*find)(const struct gs_block *))
{
    for (size_t k = 0; k < a->block_count; k++)
        if (find(&a->blocks[k]) < a->blocks[k].module_count)
            return true;
    return false;
}

/* Runs each fused gate/up projection as LitGPT's LLaMAMLP does: fc_1 (the gate) and fc_2 (the
 * up projection), h -> width each; the same parameters. */
static void split_gate_up(struct gs_arch *a)
{
    for (size_t k = 0; k < a->block_count; k++) {
        const size_t i = fused_gate_up(&a->blocks[k]);
        if (i >= a->blocks[k].module_count)
            continue;
        struct gs_module *m = &a->blocks[k].modules[i];
        const struct gs_module fused = *m;
        unsigned gate_flag = 0, up_flag = 0;
        m->name = part_name(fused.name, 0, "gate_proj", &gate_flag);
        m->flags = (uint16_t)(fused.flags | gate_flag);
        m->out = fused.out / 2;
        const char *up = part_name(fused.name, 1, "up_proj", &up_flag);
        gs_block_module(a, k, up, GS_MODULE_LINEAR, GS_SPLIT_COLUMN, GS_PART_MLP,
                        fused.flags | up_flag, fused.in, fused.out / 2,
                        fused.count ? fused.count : 1);
    }
}

/* The index of an attention block's fused q/k/v projection (GS_SPLIT_QKV, as wide as its
 * queries, keys and values), or b->module_count. */
static size_t fused_qkv_projection(const struct gs_block *b)
{
    if (b->mixer != GS_MIXER_ATTENTION || b->rec.inner)
        return b->module_count;
    uint64_t w[3];
    gs_attention_qkv_widths(&b->attn, w);
    const uint64_t width = w[0] + w[1] + w[2];
    for (size_t i = 0; i < b->module_count; i++)
        if (b->modules[i].kind == GS_MODULE_LINEAR && b->modules[i].split == GS_SPLIT_QKV &&
            b->modules[i].part == GS_PART_ATTENTION && b->modules[i].out == width)
            return i;
    return b->module_count;
}

/* Runs each fused q/k/v projection as torchtune's MultiHeadAttention does: q_proj, k_proj and
 * v_proj, each from the hidden state to its heads' width, and no views of one output. */
static void split_qkv(struct gs_arch *a)
{
    for (size_t k = 0; k < a->block_count; k++) {
        struct gs_block *b = &a->blocks[k];
        const size_t i = fused_qkv_projection(b);
        if (i >= b->module_count)
            continue;
        const struct gs_module fused = b->modules[i];
        uint64_t w[3];
        gs_attention_qkv_widths(&b->attn, w);
        /* as gs_build_attention lays separate projections out: q split by heads, k and v by
         * KV heads */
        struct gs_module *m = &b->modules[i];
        unsigned q_flag = 0, k_flag = 0, v_flag = 0;
        m->name = part_name(fused.name, 0, "q_proj", &q_flag);
        m->flags = (uint16_t)(fused.flags | q_flag);
        m->split = GS_SPLIT_COLUMN;
        m->out = (uint32_t)w[0];
        const char *k_name = part_name(fused.name, 1, "k_proj", &k_flag);
        const char *v_name = part_name(fused.name, 2, "v_proj", &v_flag);
        gs_block_module(a, k, k_name, GS_MODULE_LINEAR, GS_SPLIT_KV, GS_PART_ATTENTION,
                        fused.flags | k_flag, fused.in, w[1], fused.count ? fused.count : 1);
        gs_block_module(a, k, v_name, GS_MODULE_LINEAR, GS_SPLIT_KV, GS_PART_ATTENTION,
                        fused.flags | v_flag, fused.in, w[2], fused.count ? fused.count : 1);
        a->blocks[k].attn.qkv_views = false;
    }
}

/* What block `b`'s K/V weights must become under transformers release `release`: the
 * est_model_change bit (SHARED_KV_DROPPED where a KV-sharing layer reuses the earlier layer's
 * K and V but the description holds its own, SHARED_KV_BUILT where it computes its own but the
 * description holds none), or 0. */
static unsigned kv_own_change(const struct gs_arch *a, const struct gs_block *b, uint32_t release)
{
    if (b->mixer != GS_MIXER_ATTENTION || !b->attn.kv_shared)
        return 0;
    const bool holds = gs_block_holds_kv_own(b);
    if (gs_attention_reuses_kv(&b->attn, release))
        return holds ? EST_MODEL_SHARED_KV_DROPPED : 0;
    return !holds && gs_arch_kv_source(a, b) != NULL ? EST_MODEL_SHARED_KV_BUILT : 0;
}

/* Gives each KV-sharing layer of `a` the K/V weights transformers release `release` builds
 * (Gemma 3n and Gemma 4, whose readers describe them as the checkpoint and vLLM hold them):
 * none from the release that shares K and V in training (gs_attention.kv_shared_from: the
 * layer's __init__ builds k_proj, v_proj and k_norm only `if not self.is_kv_shared_layer`,
 * modeling_gemma4.py from 5.5.2, PR #45336; modeling_gemma3n.py from 5.6.0, PR #45489), and
 * before it those of the layer it reads (every layer built them). Returns the change bits. */
static unsigned kv_own_by_release(struct gs_arch *a, uint32_t release)
{
    unsigned changes = 0;
    for (size_t k = 0; k < a->block_count; k++) {
        struct gs_block *b = &a->blocks[k];
        const unsigned change = kv_own_change(a, b, release);
        if (change == EST_MODEL_SHARED_KV_DROPPED) {
            size_t kept = 0;
            for (size_t i = 0; i < b->module_count; i++)
                if (!(b->modules[i].flags & GS_MOD_KV_OWN))
                    b->modules[kept++] = b->modules[i];
            b->module_count = kept;
        } else if (change == EST_MODEL_SHARED_KV_BUILT) {
            const struct gs_block *src = gs_arch_kv_source(a, b);
            for (size_t i = 0; i < src->module_count; i++) {
                const struct gs_module *m = &src->modules[i];
                if (m->flags & GS_MOD_KV_OWN)
                    gs_block_module(a, k, m->name, (enum gs_module_kind)m->kind,
                                    (enum gs_split)m->split, (enum gs_part)m->part, m->flags, m->in,
                                    m->out, m->count ? m->count : 1);
            }
        }
        changes |= change;
    }
    return changes;
}

enum gs_status est_training_model(const struct gs_model_spec *m, const struct gs_workload *w,
                                  struct gs_model_spec *scratch, const struct gs_model_spec **out,
                                  unsigned *changes, struct gs_error *err)
{
    *out = m;
    *changes = 0;
    if (w->mode != GS_MODE_TRAINING || !m->has_arch)
        return GS_OK;
    struct gs_framework_rules rules;
    gs_framework_resolve(&w->training.framework, w->training.attn_impl, &rules);
    const struct gs_arch *a = &m->arch;
    /* the token embedding's width (V x d, GS_MOD_TOKENS): the head LitGPT's GPT holds beside
     * transformer.wte maps it back to the vocabulary, as gs_arch_embeddings adds an untied one */
    const struct gs_module *tokens = rules.head_untied && a->tie_word_embeddings && a->logits
                                         ? gs_arch_token_embedding(a)
                                         : NULL;
    const bool dropout = rules.model_without_dropout &&
                         (a->attention_dropout || a->hidden_dropout || a->mlp_dropout ||
                          a->embedding_dropout);
    const bool split = rules.gate_up_apart && some_block_has(a, fused_gate_up);
    const bool qkv = rules.qkv_apart && some_block_has(a, fused_qkv_projection);
    unsigned kv_own = 0;
    for (size_t k = 0; k < a->block_count; k++)
        kv_own |= kv_own_change(a, &a->blocks[k], rules.hf_release);
    if (tokens == NULL && !dropout && !split && !qkv && kv_own == 0)
        return GS_OK;
    *scratch = *m;
    struct gs_arch *copy = &scratch->arch;
    if (dropout) {
        copy->attention_dropout = copy->hidden_dropout = copy->mlp_dropout = false;
        copy->embedding_dropout = false;
        *changes |= EST_MODEL_NO_DROPOUT;
    }
    if (split) {
        split_gate_up(copy);
        *changes |= EST_MODEL_GATE_UP_APART;
    }
    if (qkv) {
        split_qkv(copy);
        *changes |= EST_MODEL_QKV_APART;
    }
    if (kv_own != 0)
        *changes |= kv_own_by_release(copy, rules.hf_release);
    if (tokens != NULL) {
        copy->tie_word_embeddings = false;
        gs_arch_module(copy, "lm_head", GS_MODULE_LINEAR, GS_SPLIT_COLUMN, GS_PART_LM_HEAD, 0,
                       tokens->out, tokens->in, 1);
        *changes |= EST_MODEL_HEAD_UNTIED;
    }
    scratch->counted = false;
    const enum gs_status st = gs_model_spec_count(scratch, err);
    if (st == GS_OK)
        *out = scratch;
    return st;
}

uint64_t gs_workload_expert_tensor(const struct gs_model_spec *m, const struct gs_workload *w)
{
    const struct gs_parallelism *p = &w->parallelism;
    if (p->expert_tensor)
        return p->expert_tensor;
    if (w->mode != GS_MODE_TRAINING || m == NULL || !m->has_arch ||
        gs_arch_moe_block(&m->arch) == NULL)
        return 1;
    const uint64_t t = p->tensor ? p->tensor : 1;
    switch (framework_of(w)) {
    case GS_FW_MEGATRON:
        return t;
    case GS_FW_TRANSFORMERS:
    case GS_FW_TORCHTUNE:
        return p->expert > 1 ? 1 : t;
    default:
        return 1;
    }
}

/* Says how the routed experts are split, where it matters (tensor or expert-tensor ranks
 * above one), with the code the split follows. */
static void expert_split_notes(const struct gs_workload *w, const struct train_plan *plan,
                               struct gs_estimate *e)
{
    const struct gs_parallelism *par = &plan->par;
    if (e->expert_tensor == 0 || (par->tensor == 1 && par->expert_tensor == 1))
        return;
    const enum gs_framework fw = framework_of(w);
    if (w->parallelism.expert_tensor)
        assume_value(e, "expert_tensor_parallel", par->expert_tensor,
                     par->expert_tensor > 1
                         ? "each routed expert split over this many ranks (parallelism."
                           "expert_tensor), its optimizer states and gradients over the "
                           "expert-data-parallel rest of the stage's ranks"
                         : "routed experts whole on their expert rank (parallelism."
                           "expert_tensor 1)",
                     "Megatron-LM parallel_state.py initialize_model_parallel (the expert grid) "
                     "and theoretical_memory_usage.py");
    else if (fw == GS_FW_MEGATRON)
        assume_value(e, "expert_tensor_parallel", par->expert_tensor,
                     "Megatron-LM splits each routed expert over the tensor ranks unless "
                     "--expert-tensor-parallel-size says otherwise (parallelism.expert_tensor); "
                     "MoE recipes often set 1 for whole experts",
                     "megatron/training/arguments.py validate_args (expert_tensor_parallel_size "
                     "defaults to tensor_model_parallel_size)");
    else if (par->expert_tensor > 1)
        assume_value(e, "expert_tensor_parallel", par->expert_tensor,
                     "the tensor-parallel plan shards each routed expert over the tensor ranks, "
                     "like any MLP",
                     fw == GS_FW_TORCHTUNE
                         ? "torchtune modules/moe/_parallelism.py ExpertTensorParallel (llama4 "
                           "_parallelism.py)"
                         : "transformers base_model_tp_plan (mlp.experts.gate_up_proj "
                           "packed_colwise, down_proj rowwise: models/deepseek_v3, glm4_moe, "
                           "qwen3_moe configuration files)");
    else
        assume_value(e, "expert_tensor_parallel", 1,
                     par->expert > 1 ? "routed experts whole on their expert rank"
                                     : "routed experts whole, a copy on every tensor rank",
                     fw == GS_FW_TORCHTITAN
                         ? "torchtitan distributed/parallel_dims.py (the experts' mesh is "
                           "pipeline x dp_replicate x efsdp x ep: no tensor axis)"
                     : fw == GS_FW_DEEPSPEED
                         ? "DeepSpeed AutoTP shards nn.Linear modules (module_inject/auto_tp.py); "
                           "transformers keeps routed experts as 3-D parameters"
                     : fw == GS_FW_LITGPT ? "LitGPT has no tensor parallelism of its own for "
                                            "training"
                                          : "transformers base_model_ep_plan (mlp.experts "
                                            "grouped_gemm: experts split whole over the ranks)");
}

/* What PEFT 0.19 and later put on the fused experts (gs_lora_peft_resolve), said beside the
 * totals that count it: the ParamWrappers' parameters, one layer's merged weights, and the
 * adapters the converted names no longer give the modules of those names (a dense or
 * shared-expert MLP's), the difference from the same targets without the conversion. */
static void param_wrapper_notes(struct gs_estimate *e, const struct gs_model_spec *m,
                                const struct gs_workload *w, const struct train_plan *plan)
{
    const struct gs_lora_fused_experts *fused = &plan->wrapped;
    assume_value(e, "peft_expert_adapter_parameters", fused->adapters,
                 "in lora_adapter_parameters: the adapters PEFT 0.19 and later put on the "
                 "fused experts and the router (a ParamWrapper on each parameter: r x experts "
                 "x (d_in + d_out), gate_up_proj at rank 2r; the router's 2D weight r x "
                 "(hidden + experts)), over every MoE layer",
                 "peft utils/transformers_weight_conversion.py _convert_peft_config_moe "
                 "(_MOE_TARGET_MODULE_MAPPING, _MOE_FUSED_TARGETS); tuners/lora/layer.py "
                 "ParamWrapper.update_layer (lora_A in x r*num_experts, lora_B r*num_experts x "
                 "out)");
    /* the frozen weights' dtype, as the activations count the merged copies (activation_dtypes'
     * residual: fp32 over an fp32 base or one prepare_model_for_kbit_training made fp32) */
    uint64_t element = 0, weight = 0;
    bool autocast = false;
    activation_dtypes(w, plan, &element, &weight, &autocast);
    bool merged_ovf = false; /* a figure beside the totals: its overflow refuses nothing */
    /* a rank's: under expert parallelism its own experts' (E / ep), the router's whole */
    const uint64_t ep = w->parallelism.expert > 1 ? w->parallelism.expert : 1;
    const uint64_t per_expert =
        fused->merged_experts ? fused->merged_expert_elements / fused->merged_experts : 0;
    const uint64_t local = gs_mul(per_expert, ceil_div(fused->merged_experts, ep), &merged_ovf);
    const uint64_t elements =
        fused->merged_elements == UINT64_MAX
            ? UINT64_MAX
            : gs_add(fused->merged_elements - fused->merged_expert_elements, local, &merged_ovf);
    const uint64_t merged = gs_mul(elements, weight, &merged_ovf);
    assume_value(e, "peft_expert_merged_weight_bytes", merged_ovf ? UINT64_MAX : merged,
                 "in activations_bytes: one MoE layer's wrapped weights on this GPU (under expert "
                 "parallelism its own experts' and the router's) with the adapters' "
                 "delta merged in (W + delta, at the weights' dtype), which each forward "
                 "builds and the experts' grouped matmuls keep until that layer's backward: "
                 "every MoE layer's at once without activation checkpointing, one layer's at "
                 "a time with it; the backward of the largest adds its gradient's casts",
                 "peft tuners/lora/layer.py ParamWrapper._activate_lora "
                 "(nn.utils.parametrize.register_parametrization with _LoraParameterProxy: "
                 "W + delta_weight under parametrize.cached()); transformers "
                 "integrations/moe.py grouped_mm_experts_forward");
    const uint64_t dropped = gs_lora_converted_modules(&m->arch, &plan->tr);
    if (dropped)
        assume_value(e, "peft_converted_module_adapters", dropped,
                     "not in lora_adapter_parameters: the adapters the same targets gave the "
                     "dense and shared-expert MLPs' linears of the converted names (gate_proj, "
                     "up_proj, down_proj; w1, w3, w2) before PEFT 0.19, which the conversion "
                     "takes out of target_modules (they name parameters now)",
                     "peft utils/transformers_weight_conversion.py _convert_peft_config_moe "
                     "(remaining_target_modules)");
    warn(e, "lora_experts_param_wrapper",
         "PEFT 0.19 and later (0.20 for all_linear, PR #3232) turn the targets naming this MoE's "
         "expert projections or router into LoRA on its fused expert parameters (a ParamWrapper "
         "on each: peft_expert_adapter_parameters), and the same names stop adapting any dense "
         "or shared-expert MLP of those names (peft_converted_module_adapters, where there is "
         "one). Each MoE layer keeps its merged expert weights until its backward "
         "(peft_expert_merged_weight_bytes a layer): activation checkpointing keeps one "
         "layer's, targeting the attention projections alone none; peft_version below 0.19 "
         "sizes the experts frozen");
}

enum gs_status est_compute_training(const struct gs_model_spec *m, const struct gs_workload *w,
                                    struct gs_activation_memo *memo, struct gs_estimate *e,
                                    struct gs_error *err)
{
    if (m->has_arch && m->arch.training_refusal != NULL)
        return gs_error_add(err, GS_ERR_UNSUPPORTED, "/mode", "%s", m->arch.training_refusal);
    struct train_plan plan;
    memset(&plan, 0, sizeof(plan));
    normalize(w, &plan.tr, &plan.par);
    if (plan.par.stages.split == GS_SPLIT_GIVEN) {
        /* a listed partition: the frameworks that take one */
        const struct gs_training_knobs *f = &w->training.framework;
        if (f->framework_given && f->framework != GS_FW_MEGATRON &&
            f->framework != GS_FW_TORCHTITAN && !gs_workload_device_map(w))
            return gs_error_add(err, GS_ERR_INVALID, "/parallelism/stage_layers",
                                "%s has no pipeline schedule that takes a layer partition: "
                                "Megatron-LM (--pipeline-model-parallel-layout), torchtitan "
                                "(module_fqns_per_model_part) and transformers' device_map do",
                                gs_framework_name(f->framework));
    } else {
        plan.par.stages = gs_stage_rule(gs_workload_stage_split(w));
        plan.par.stages.chunks = w->parallelism.stages.chunks;
    }
    if (plan.par.pipeline > 1 && !gs_workload_pipelines(w))
        return gs_error_add(err, GS_ERR_INVALID, "/parallelism/pipeline", "%s",
                            w->training.trl
                                ? "TRL's SFTTrainer under DeepSpeed has no pipeline schedule (the "
                                  "HF Trainer's DeepSpeed engine runs ZeRO, and transformers "
                                  "refuses a device_map beside it): use pipeline 1 with "
                                  "zero_stage 3, or framework transformers for a device_map over "
                                  "the GPUs"
                            : w->training.framework.framework == GS_FW_TORCHTUNE
                                ? "torchtune has no pipeline parallelism (its ParallelDims are "
                                  "data, tensor and context ranks): use pipeline 1 with FSDP "
                                  "(zero_stage 3) or tensor parallelism"
                                : "LitGPT has no pipeline parallelism (Fabric's DDP, FSDP and "
                                  "DeepSpeed strategies): use pipeline 1 with FSDP (zero_stage 3)");
    if (plan.par.pipeline > 1 && gs_workload_device_map(w)) {
        const enum gs_status dm = device_map_stages(m, w, e, &plan.par, err);
        if (dm != GS_OK)
            return dm;
    }
    if (gs_stage_chunks(&plan.par.stages) > 1) {
        /* an interleaved schedule: Megatron-LM's (also when no framework is named), or
         * torchtitan's Interleaved1F1B */
        const struct gs_training_knobs *f = &w->training.framework;
        const uint64_t p = plan.par.pipeline ? plan.par.pipeline : 1;
        const uint64_t m_steps = plan.tr.gradient_accumulation_steps;
        const bool titan = framework_of(w) == GS_FW_TORCHTITAN;
        if (f->framework_given && f->framework != GS_FW_MEGATRON && !titan)
            return gs_error_add(err, GS_ERR_INVALID, "/parallelism/virtual_stages",
                                "%s has no interleaved pipeline schedule: Megatron-LM "
                                "(--num-virtual-stages-per-pipeline-rank) and torchtitan "
                                "(pipeline_parallel_schedule Interleaved1F1B) have",
                                gs_framework_name(f->framework));
        /* torch.distributed.pipelining ScheduleInterleaved1F1B: the micro-batches in
         * max(1, m / p) rounds of equal size */
        const uint64_t rounds = m_steps / p > 1 ? m_steps / p : 1;
        if (titan && p > 1 && m_steps % rounds != 0)
            return gs_error_add(err, GS_ERR_INVALID, "/training/gradient_accumulation_steps",
                                "torch's ScheduleInterleaved1F1B (torchtitan's) runs the %llu "
                                "micro-batches in %llu rounds of equal size "
                                "(torch/distributed/pipelining/schedules.py: n_microbatches "
                                "must be a multiple of the number of rounds)",
                                (unsigned long long)m_steps, (unsigned long long)rounds);
        /* schedules.py forward_backward_pipelining_with_interleaving: groups of
         * microbatch_group_size_per_vp_stage (default p) micro-batches, between p and M, the
         * last group full or at least p */
        if (!titan && p > 1 && (m_steps < p || m_steps % p != 0))
            return gs_error_add(err, GS_ERR_INVALID, "/training/gradient_accumulation_steps",
                                "Megatron-LM's interleaved schedule runs the micro-batches in "
                                "groups of the %llu pipeline stages (pipeline_parallel/"
                                "schedules.py): gradient_accumulation_steps must be a multiple "
                                "of %llu, not %llu",
                                (unsigned long long)p, (unsigned long long)p,
                                (unsigned long long)m_steps);
    }
    plan.par.expert_tensor = gs_workload_expert_tensor(m, w);
    if (w->parallelism.expert_tensor > 1 && framework_of(w) == GS_FW_TORCHTITAN)
        return gs_error_add(err, GS_ERR_INVALID, "/parallelism/expert_tensor",
                            "torchtitan has no expert tensor parallelism (distributed/"
                            "parallel_dims.py: the experts' mesh is pipeline x dp_replicate x "
                            "efsdp x ep): use expert_tensor 1, or expert parallelism");
    /* an expert grid Megatron-LM's default cannot lay out (only its default is above 1 with
     * expert parallelism) gets the reason; degrees so large the products pass 64 bits are
     * left to gs_parallelism_validate, which refuses them */
    bool wrapped = false;
    const uint64_t stage_ranks =
        gs_mul(gs_mul(plan.par.tensor, plan.par.context, &wrapped), plan.par.data, &wrapped);
    const uint64_t expert_grid = gs_mul(plan.par.expert, plan.par.expert_tensor, &wrapped);
    if (!wrapped && w->parallelism.expert_tensor == 0 && plan.par.expert > 1 &&
        plan.par.expert_tensor > 1 && stage_ranks % expert_grid != 0)
        return gs_error_add(err, GS_ERR_INVALID, "/parallelism/expert",
                            "Megatron-LM splits each expert over the %llu tensor ranks unless "
                            "--expert-tensor-parallel-size says otherwise (arguments.py), so "
                            "expert parallelism %llu must divide context x data = %llu "
                            "(parallel_state.py: expert x expert tensor ranks share a stage's "
                            "tensor x context x data); set parallelism.expert_tensor 1 for whole "
                            "experts",
                            (unsigned long long)plan.par.expert_tensor,
                            (unsigned long long)plan.par.expert,
                            (unsigned long long)(plan.par.context * plan.par.data));
    enum gs_status st =
        gs_parallelism_validate(&plan.par, m->has_arch ? &m->arch : NULL, err);
    if (st != GS_OK)
        return st;
    if (m->has_arch && gs_arch_moe_block(&m->arch) != NULL)
        e->expert_tensor = plan.par.expert_tensor;
    st = resolve_method(m, w, &plan, e, err);
    if (st == GS_OK)
        st = resolve_images(m, &plan.tr, e, err);
    if (st == GS_OK)
        st = resolve_regime(w, &plan, e, err);
    /* a frozen fp32 head: an fp32 base's, or one prepare_model_for_kbit_training made fp32
     * that TRL's bf16 casting did not put back */
    plan.frozen_fp32 = plan.lora && (w->weights == GS_DTYPE_FP32 ||
                                     (plan.tr.kbit_prepared && !plan.tr.kbit_head_16bit));
    if (st != GS_OK)
        return st;
    attention_path(m, &plan.tr, e);
    gs_framework_resolve(&plan.tr.framework, plan.tr.attn_impl, &plan.rules);
    {
        uint64_t element = 0, residual = 0;
        bool autocast = false;
        activation_dtypes(w, &plan, &element, &residual, &autocast);
        gs_framework_resolve_gpu(&plan.rules, (enum gs_hw)w->gpu.hw, w->gpu.total_bytes != 0,
                                 element == 2 || autocast);
    }
    /* PEFT casts an adapter's input only where its dtype differs from the adapter's
     * (tuners_utils.py BaseTunerLayer._cast_input_dtype: `x.dtype == dtype` returns x), so
     * adapters a regime keeps in 16 bits (bf16_pure, bf16_mixed, fp16_mixed; TRL's SFTTrainer
     * casts a quantized model's trainable parameters to bf16 from 0.26, trl PR #4577) read the
     * 16-bit input itself and keep no copy of it */
    if (plan.lora && adapters_16bit(plan.regime))
        plan.rules.adapters_fp32 = false;
    /* TRL's chunked_nll reads the head's weight itself: sft_trainer.py raises a ValueError when
     * a PEFT adapter wraps lm_head, and the loss runs in TRL's trainer over transformers' model */
    uint64_t head_in = 0, head_out = 0;
    if (plan.rules.loss == GS_LOSS_CHUNKED_NLL && plan.rules.framework != GS_FW_TRANSFORMERS &&
        plan.rules.framework != GS_FW_DEEPSPEED)
        return gs_error_add(err, GS_ERR_INVALID, "/training/loss",
                            "chunked_nll is TRL's SFTTrainer loss, over a transformers model "
                            "(framework transformers or deepspeed), not %s's",
                            gs_framework_name(plan.rules.framework));
    if (plan.rules.loss == GS_LOSS_CHUNKED_NLL && plan.lora && m->has_arch &&
        gs_lora_head(&m->arch, &plan.tr, &head_in, &head_out))
        return gs_error_add(err, GS_ERR_INVALID, "/training/loss",
                            "TRL's chunked_nll reads the head's weight itself and refuses a PEFT "
                            "adapter on lm_head (sft_trainer.py): leave the head out of "
                            "lora.targets, or use loss fp32 (TRL's loss_type nll)");
    sdpa_kernel_notes(m, w, &plan, e);
    st = sequence_parallel_default(m, &plan, e, err);
    if (st != GS_OK)
        return st;
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
    const bool has_activations =
        activations(m, w, &plan, memo, e, &act, &extra.previous_graph_bytes, &ovf);
    explain_rules(&plan, e);
    trl_notes(e, &plan.tr);

    assume(e, "training_regime", regime_detail(plan.regime),
           !plan.lora || plan.tr.regime != GS_REGIME_NONE
               ? "DeepSpeed memory.rst (fp32: 16 B/param with Adam); ZeRO paper K = 12 for mixed "
                 "precision"
           : plan.tr.method == GS_METHOD_QLORA
               ? "PEFT get_peft_model autocast_adapter_dtype=True upcasts adapters to fp32; "
                 "TRL's SFTTrainer (0.26 on, trl PR #4577) casts a quantized model's adapters "
                 "back to bf16: say regime bf16_pure for it"
               : "PEFT get_peft_model autocast_adapter_dtype=True upcasts adapters to fp32");
    assume(e, "optimizer", optimizer_detail(plan.tr.optimizer),
           "PyTorch and bitsandbytes optimizer state layouts");
    if (plan.lora)
        assume_value(e, "lora_adapter_parameters", plan.adapters,
                     plan.tr.lora_dora
                         ? "r * (d_in + d_out) + d_out per adapted linear layer (DoRA's "
                           "magnitude vector); the base is frozen (weights only, no gradients or "
                           "optimizer states)"
                         : "r * (d_in + d_out) per adapted linear layer; the base is frozen "
                           "(weights only, no gradients or optimizer states)",
                     "PEFT LoRA (lora_A r x d_in, lora_B d_out x r)");
    /* Gemma 4's towers build their projections as Gemma4ClippableLinear, which PEFT refuses
     * under a target name (gs_lora_refused_wrapped) */
    const uint64_t refused = plan.lora ? gs_lora_refused_wrapped(&m->arch, &plan.tr) : 0;
    if (refused) {
        assume_value(e, "lora_refused_wrapper_parameters", refused,
                     "not in lora_adapter_parameters: the adapters the named targets would give "
                     "the towers' projections, which the model code builds as a module holding "
                     "its nn.Linear at .linear (Gemma4ClippableLinear) and PEFT does not adapt "
                     "under a name (\"q_proj.linear\" or all_linear adapts them)",
                     "transformers modeling_gemma4.py Gemma4ClippableLinear (an nn.Module with "
                     "self.linear); peft tuners/lora/model.py LoraModel._create_new_module; PEFT "
                     "issue #3129");
        warn(e, "lora_targets_reach_wrapped_linears",
             "a target also names projections of the vision or audio towers that this model "
             "builds as a module holding its nn.Linear (Gemma4ClippableLinear), which stock PEFT "
             "refuses: get_peft_model raises \"Target module Gemma4ClippableLinear(...) is not "
             "supported\". Sized as the run PEFT can make, the language model's layers adapted "
             "and the towers' not: give PEFT the names within the language model, as its own "
             "default for gemma4 does (target_modules=r\".*language_model\\..*\\.(q_proj|"
             "v_proj)\"). To adapt the towers too, target the linear they hold (\"q_proj.linear\")"
             " or all_linear; lora_refused_wrapper_parameters says what they would add");
    }
    /* PEFT 0.19 on: LoRA on the fused experts through target_parameters (gs_lora_peft_resolve) */
    if (plan.lora && plan.wrapped.adapters)
        param_wrapper_notes(e, m, w, &plan);
    if (plan.tr.freeze_vision_tower)
        assume_value(e, "frozen_vision_parameters", e->params.vision,
                     plan.lora ? "the vision towers' parameters with their projector (the "
                                 "merger), frozen with no adapter in their layers"
                               : "the vision towers' parameters with their projector (the "
                                 "merger), frozen: held at the model's dtype, without "
                                 "gradients, master copies or optimizer states",
                     "LLaMA-Factory freeze_vision_tower and freeze_multi_modal_projector, both "
                     "true by default (requires_grad_(False); LoRA's target modules then skip "
                     "them); Qwen2.5-VL finetune tune_mm_vision (its tune_mm_mlp trains the "
                     "merger)");
    /* transformers before 5.0 keeps routed experts as a ModuleList of nn.Linear MLPs, which
     * PEFT adapts where a target names them (gs_framework_expert_linears) */
    if (plan.expert_adapters)
        assume_value(e, "expert_adapter_parameters", plan.expert_adapters,
                     "of lora_adapter_parameters, the routed experts': transformers before 5.0 "
                     "and LitGPT keep each expert as nn.Linear modules (a ModuleList of MLPs a "
                     "layer), which LoRA adapts where a target names them (all_linear, or the "
                     "projections' names: gate_proj/up_proj/down_proj, Mixtral's, PhiMoE's and "
                     "MiniMax-M2's w1/w3/w2): r * (d_in + d_out) per adapted projection, "
                     "times the experts and layers, with their gradients and optimizer states "
                     "over the expert ranks, and each routed token's adapter inputs among the "
                     "activations. transformers 5.x fuses the experts into 3D parameters, which "
                     "PEFT leaves alone",
                     "transformers 4.x modeling_mixtral.py (MixtralBlockSparseTop2MLP: w1, w2, "
                     "w3) / modeling_qwen3_moe.py (self.experts = nn.ModuleList of MLPs); PEFT "
                     "all-linear "
                     "(_maybe_include_all_linear_layers: every nn.Linear but the output layer); "
                     "litgpt lora.py LLaMAMoE (experts of LLaMAMLP, LoRALinear under lora_mlp)");
    if (plan.lora && plan.tr.lora_dora)
        assume(e, "dora",
               "DoRA (PEFT use_dora): each adapted layer keeps its base output and its adapter "
               "output for the magnitude's products (two more outputs a token); with dropout the "
               "base output is recomputed at the adapter's dtype and the weight copy it read "
               "is kept until backward",
               "peft/tuners/lora/dora.py DoraLinearLayer.forward; variants.py "
               "DoraLinearVariant.forward");
    if (plan.par.zero_stage > 0)
        assume(e, "zero_sharding",
               plan.par.zero_stage == 1   ? "ZeRO-1: optimizer states sharded over data x context"
               : plan.par.zero_stage == 2 ? "ZeRO-2 / SHARD_GRAD_OP: optimizer states and "
                                            "gradients sharded over data x context"
                                          : "ZeRO-3 / FULL_SHARD: optimizer states, gradients and "
                                            "weights sharded over data x context",
               "ZeRO paper (arXiv 1910.02054) Figure 1 formulas");
    else if (plan.par.distributed_optimizer)
        assume(e, "zero_sharding",
               "Megatron distributed optimizer: optimizer states (with fp32 master weights) "
               "sharded over data x context",
               "Megatron-LM docs/user-guide/features/dist_optimizer.md");
    if (plan.par.tensor > 1 || plan.par.pipeline > 1 || plan.par.expert > 1 ||
        plan.par.expert_tensor > 1)
        assume(e, "model_parallel_split",
               "the most loaded GPU: the layers each pipeline stage holds (parallelism."
               "stage_layers), projections and embeddings over tensor ranks, norms replicated, "
               "routed experts over expert x expert_tensor ranks; the first stage holds the "
               "embedding, the last the head",
               "Megatron-LM compute_weight_and_optimizer_memory");
    expert_split_notes(w, &plan, e);
    if (m->has_arch && plan.par.pipeline > 1) {
        e->stage_layers = m->arch.num_hidden_layers;
        e->stages = plan.par.stages;
        if (!plan.par.device_map)
            pipeline_split_notes(&plan.par, m->arch.num_hidden_layers,
                                 plan.rules.framework == GS_FW_TORCHTITAN, e);
    }
    e->device_map = plan.par.device_map;
    if (plan.par.device_map)
        assume_value(e, "device_map_pipeline", plan.par.pipeline,
                     "transformers' device_map over this many GPUs of one process (accelerate's "
                     "naive pipeline parallelism): each GPU holds its layers' weights, adapters, "
                     "gradients and optimizer states, and the activations of one micro-batch "
                     "at a time - every GPU runs its layers in turn, so a step takes as long as "
                     "on one GPU; the embedding on GPU 0, an untied head and the loss on the last "
                     "(a tied head with the embedding), and the logits returned to GPU 0; no "
                     "NCCL",
                     "transformers trainer.py (is_model_parallel for an hf_device_map over several "
                     "GPUs: no DataParallel/DDP wrapping); accelerate hooks.py AlignDevicesHook "
                     "(io_same_device on the root module)");
    if (!m->has_arch && (plan.par.tensor > 1 || plan.par.pipeline > 1))
        warn(e, "even_split_assumed",
             "a raw parameter count is split evenly over tensor x pipeline ranks; real stages are "
             "uneven (embeddings and head), so the most loaded GPU holds more");

    training_overheads(w, &plan, &extra, &act, has_activations, e, &ovf);
    if (ovf)
        return gs_error_add(err, GS_ERR_RANGE, "", "the memory figures overflow 64 bits");
    return GS_OK;
}
