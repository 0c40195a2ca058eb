/*
 * training.h - the training workload and what it costs per GPU in model
 * states: weights, gradients and optimizer states for every regime and
 * optimizer (DeepSpeed docs/code-docs/source/memory.rst; the ZeRO paper, arXiv
 * 1910.02054), sharded by ZeRO stage over the data-parallel group, split by
 * tensor, pipeline and expert parallelism on the most loaded pipeline stage
 * (Megatron-LM theoretical_memory_usage.py), offloaded to the host
 * (ZeRO-Offload), and for LoRA/QLoRA a frozen base plus adapters (PEFT,
 * QLoRA arXiv 2305.14314).
 *
 * Pure functions over caller-owned structs; nothing allocates.
 */
#ifndef GS_TRAINING_H
#define GS_TRAINING_H

#include "gs/arch.h"
#include "gs/framework.h"
#include "gs/precision.h"
#include "gs/status.h"

#include <stdbool.h>
#include <stdint.h>

/* How training stores weights, gradients and optimizer states. */
enum gs_regime {
    GS_REGIME_NONE,       /* inference, or "derive it from the weight precision" */
    GS_REGIME_FP32,       /* fp32 weights and gradients, fp32 optimizer states */
    GS_REGIME_BF16_MIXED, /* bf16 weights and gradients, fp32 master weights and states */
    GS_REGIME_FP16_MIXED, /* the same with fp16 */
    GS_REGIME_BF16_PURE,  /* bf16 weights, gradients and states, no master copy */
    GS_REGIME_AMP,        /* PyTorch autocast: fp32 weights, gradients and states */
    GS_REGIME_COUNT
};

enum gs_optimizer {
    GS_OPT_ADAMW,
    GS_OPT_ADAM,
    GS_OPT_ADAMW_8BIT,   /* bitsandbytes: two uint8 states + fp32 absmax per 256 */
    GS_OPT_SGD,
    GS_OPT_SGD_MOMENTUM, /* one momentum buffer */
    GS_OPT_ADAFACTOR,    /* factored second moment, no first moment (HF default) */
    GS_OPT_LION,         /* one momentum buffer */
    GS_OPT_COUNT
};

/* Activation checkpointing. SELECTIVE is Megatron's (the attention core is
 * recomputed; torchtitan's "selective" is its per-op policy, see
 * gs/framework.h); OP_SELECTIVE is torchtitan's per-op policy: each layer
 * keeps its input, every other matmul output and the attention output. */
enum gs_recompute {
    GS_RECOMPUTE_NONE,
    GS_RECOMPUTE_SELECTIVE,
    GS_RECOMPUTE_FULL,
    GS_RECOMPUTE_OP_SELECTIVE
};

enum gs_method { GS_METHOD_FULL, GS_METHOD_LORA, GS_METHOD_QLORA };

/* enum gs_attn_impl (gs/framework.h): the attention implementation. */
/* "sdpa", "eager", "flash_attention_2", "flash_attention_3", "flex_attention", NULL: index =
 * enum value. */
extern const char *const gs_attn_impl_names[GS_ATTN_COUNT + 1];
/* Whether the implementation keeps the score matrix (eager) rather than a kernel's
 * log-sum-exp. */
bool gs_attn_impl_materializes(enum gs_attn_impl impl);

/* How the micro-batches are shaped, by the tokenizer's `padding` names (one source:
 * gs_padding_names): every micro-batch `sequence_length` tokens (padded to it, or packed), or
 * each padded to its own longest sample, so shapes change from step to step and the longest
 * reaches `sequence_length` (transformers' DataCollatorWithPadding default). */
enum gs_padding {
    GS_PADDING_MAX_LENGTH,
    GS_PADDING_LONGEST,
    GS_PADDING_COUNT
};
/* "max_length", "longest", NULL: index = enum value. */
extern const char *const gs_padding_names[GS_PADDING_COUNT + 1];

struct gs_training;
/* Whether the micro-batches carry padding tokens, which makes transformers hand its attention a
 * mask: as the request says, else where each is padded to its longest sample and holds more
 * than one (samples of different lengths); `max_length` is read as packed or full-length
 * samples unless the request says otherwise. */
bool gs_training_padding_mask(const struct gs_training *training);

/* The kernels a recurrent layer runs under transformers (one source of names:
 * gs_recurrent_kernels_names): for Gated DeltaNet flash-linear-attention's
 * chunk_gated_delta_rule and causal-conv1d where both are installed (the model cards'
 * instruction), for Mamba and Mamba2 mamba-ssm and causal-conv1d; else transformers' torch
 * fallbacks (torch_chunk_gated_delta_rule, F.conv1d; the naive scans), which keep far more for
 * backward. */
enum gs_recurrent_kernels { GS_RECURRENT_FUSED, GS_RECURRENT_TORCH, GS_RECURRENT_COUNT };
/* "fused", "torch", NULL: index = enum value. */
extern const char *const gs_recurrent_kernels_names[GS_RECURRENT_COUNT + 1];

enum gs_offload { GS_OFFLOAD_NONE, GS_OFFLOAD_OPTIMIZER, GS_OFFLOAD_OPTIMIZER_AND_PARAMS };

/* LoRA targets: module names as PEFT's target_modules takes them ("q_proj",
 * "c_attn", "query_key_value", "in_proj"), or "all_linear". */

/* The PEFT releases whose rules differ for a MoE's fused experts under transformers 5.x
 * (major x 100 + minor): from 0.19 get_peft_model converts the v4 expert and router names to
 * target_parameters (tuners_utils.py inject_adapter: convert_peft_config_for_transformers), from
 * 0.20 all-linear too (PR #3232, _resolve_string_target_modules). */
#define GS_PEFT_CONVERTS_MOE        19
#define GS_PEFT_CONVERTS_ALL_LINEAR 20

/* What PEFT's conversion of a MoE's v4 names made of the targets (gs_training.lora_peft_moe):
 * the experts' names use Mixtral's style (w1, w3, w2) or Qwen2-MoE's (gate_proj, up_proj,
 * down_proj), the router is `gate` in both; each converted name leaves target_modules and names
 * a parameter instead, which one lora.ParamWrapper adapts in every MoE layer. */
enum gs_peft_moe {
    GS_PEFT_MOE_MIXTRAL = 1u << 0, /* the v4 names are Mixtral's */
    GS_PEFT_MOE_GATE_UP = 1u << 1, /* gate_up_proj (E x 2w x h), at rank 2r */
    GS_PEFT_MOE_DOWN = 1u << 2,    /* down_proj (E x h x w) */
    GS_PEFT_MOE_ROUTER = 1u << 3,  /* the router's gate.weight (E x h) */
};
#define GS_PEFT_MOE_WRAPPERS (GS_PEFT_MOE_GATE_UP | GS_PEFT_MOE_DOWN | GS_PEFT_MOE_ROUTER)
#define GS_LORA_TARGETS_MAX 16
#define GS_LORA_NAME_MAX 32
#define GS_LORA_ALL_LINEAR "all_linear"

struct gs_training {
    uint64_t batch_size;      /* micro-batch per GPU; 0 = not given */
    uint64_t sequence_length; /* 0 = not given */
    uint64_t gradient_accumulation_steps; /* micro-batches per step, >= 1 */
    enum gs_regime regime;    /* GS_REGIME_NONE: follow the weight precision */
    enum gs_optimizer optimizer;
    enum gs_recompute recompute;
    bool recompute_given;     /* the request named activation_checkpointing */
    bool flash_attention;     /* = !gs_attn_impl_materializes(attn_impl); kept in step */
    enum gs_attn_impl attn_impl;
    bool attn_impl_given;     /* the request named one (attn_implementation or flash_attention) */
    enum gs_recurrent_kernels recurrent_kernels; /* a Gated DeltaNet layer's kernels */
    bool recurrent_kernels_given;                /* the request named them */
    enum gs_method method;    /* a quantized base forces LoRA/QLoRA */
    bool method_given;
    uint64_t lora_rank;
    size_t lora_target_count; /* 0 = all_linear */
    char lora_targets[GS_LORA_TARGETS_MAX][GS_LORA_NAME_MAX];
    bool double_quant;        /* QLoRA: quantize the absmax constants too */
    bool kbit_prepared;       /* QLoRA: PEFT's prepare_model_for_kbit_training ran, casting
                                 every parameter but the 4-bit weights to fp32 */
    bool kbit_given;          /* the request named prepare_model_for_kbit_training */
    bool kbit_head_16bit;     /* after the preparation the embeddings and the head went back to
                                 16 bits (TRL before 0.26 under bf16: peft_module_casting_to_bf16) */
    uint32_t lora_dropout_permille; /* LoRA dropout in thousandths (PEFT's default 0) */
    enum gs_padding padding;  /* shapes fixed (default) or varying from step to step */
    bool padding_given;       /* the request named padding */
    enum gs_knob padding_mask; /* the micro-batches carry padding tokens, so the attention gets a
                                  mask (gs_training_padding_mask says what the default is) */
    uint64_t images_per_sample; /* images each sample carries through a VLM's vision towers
                                   (their tokens are part of sequence_length); 0 = text */
    uint64_t image_tokens;      /* prompt tokens each image takes (its merged patches); 0 = the
                                   largest image the model's processor accepts (gs_arch.mm_image) */
    bool freeze_vision_tower;   /* the vision towers stay frozen (LLaMA-Factory's
                                   freeze_vision_tower, Qwen-VL's finetune tune_mm_vision false):
                                   no gradients or optimizer states for their weights, no adapters
                                   in them, nothing recorded there */
    bool lora_dora;           /* PEFT use_dora: DoRA's magnitude vector per adapted layer and
                                 what its forward keeps (gs_activation_bytes) */
    uint32_t lora_hf_release; /* the transformers release of the model code LoRA wraps
                                 (gs_framework_rules.hf_release): set by the estimate, not read
                                 from a request; 0 = not known to be transformers' */
    uint32_t peft_version;    /* the PEFT release LoRA runs under (major x 100 + minor,
                                 training.lora.peft_version); 0 = the latest */
    unsigned lora_peft_moe;   /* GS_PEFT_MOE_* bits: the v4 names PEFT's conversion moved to
                                 target_parameters (gs_lora_peft_resolve; the blocks that hold
                                 those parameters get a ParamWrapper: gs_lora_param_wrappers):
                                 set by the estimate, not read from a request; 0 = none */
    struct gs_training_knobs framework; /* framework, loss and the switches it defaults */
    bool trl;                           /* the run is TRL's SFTTrainer (gs/trl.h) ... */
    uint32_t trl_version;               /* ... at this release (major x 100 + minor) */
    uint32_t trl_applied; /* enum gs_trl_default bits gs_trl_resolve put on the request */
};

struct gs_parallelism {
    uint64_t tensor, pipeline, data, context, expert; /* degrees, each >= 1 */
    uint64_t expert_tensor;   /* ranks each routed expert is split over (Megatron-LM
                                 --expert-tensor-parallel-size); 0 = the framework's
                                 (gs_workload_expert_tensor), read as 1 by the validation */
    bool sequence_parallel;
    bool sequence_parallel_given; /* the request set sequence_parallel (else the framework's
                                     default applies: torchtitan's under tensor parallelism) */
    unsigned zero_stage;      /* 0..3 */
    bool fsdp;                /* sharded by PyTorch FSDP (named no_shard / shard_grad_op /
                                 full_shard, or an FSDP version given) rather than DeepSpeed */
    unsigned fsdp_version;    /* 1 (FlatParameter) or 2 (per-parameter DTensor); 0 = the
                                 framework's */
    bool fsdp_use_orig_params; /* FSDP1: frozen and trainable parameters share a unit's
                                  FlatParameter (use_orig_params=True with a layer wrap policy)
                                  rather than adapters wrapped apart (PEFT's policy) */
    enum gs_offload offload;
    bool distributed_optimizer; /* Megatron: optimizer states sharded over data x context */
    uint64_t gpus_per_node;   /* for host memory per node */
    bool device_map;          /* training: the stages are transformers' device_map="auto" over
                                 one process's GPUs (accelerate's naive pipeline parallelism,
                                 gs/device_map.h): one micro-batch runs through them in turn,
                                 no process group; set by the estimate
                                 (gs_workload_device_map), not read from a request */
    struct gs_stage_plan stages; /* how decoder layers fall to pipeline stages (gs/arch.h):
                                    the request's list (GS_SPLIT_GIVEN, parallelism.stage_layers),
                                    else the engine's rule in serving
                                    (gs_workload_serving_stages), the framework's splitter in
                                    training (gs_workload_stage_split); the zero value is vLLM's */
};

/* Sets the defaults a request starts from: batch and sequence unknown, one
 * accumulation step, AdamW, no recomputation, flash attention, full
 * training; every degree 1, ZeRO 0, no offload, 8 GPUs per node. */
void gs_training_defaults(struct gs_training *training);
void gs_parallelism_defaults(struct gs_parallelism *parallelism);

/* t * p * c * dp, or 0 on overflow. */
uint64_t gs_parallelism_world(const struct gs_parallelism *parallelism);

/* Checks the parallel layout against the architecture (the rules Megatron-LM's
 * parallel_state.py and vLLM's tensor-parallel layers enforce):
 * tensor divides attention heads and is a multiple or divisor of KV heads,
 * the split places the layers on the pipeline stages (at most one stage per layer; DIVIDES: the degree
 * divides them), expert divides the experts, expert x expert_tensor divides
 * tensor x context x data (Megatron-LM parallel_state.py's expert grid: the
 * expert ranks, each expert's tensor ranks and the expert-data-parallel rest
 * cover a pipeline stage's ranks), expert_tensor above 1 needs a mixture of
 * experts, sequence parallelism needs tensor > 1, offload
 * needs ZeRO, parameter offload needs ZeRO-3. Pointers are request paths
 * ("/parallelism/tensor"). `arch` may be NULL (raw parameter count). */
enum gs_status gs_parallelism_validate(const struct gs_parallelism *parallelism,
                                       const struct gs_arch *arch, struct gs_error *err);

/* Bytes per parameter, in 1/64 byte units so 8-bit optimizer states and
 * 4.127-bit weights stay exact. */
#define GS_BPP_UNIT 64

struct gs_state_bytes {
    uint64_t weights, gradients, optimizer; /* per trainable parameter, in 1/GS_BPP_UNIT bytes */
};

/* What one trainable parameter costs under a regime and optimizer. */
struct gs_state_bytes gs_state_bytes_for(enum gs_regime regime, enum gs_optimizer optimizer);

/* Names for the API ("bf16_mixed", "adamw_8bit", ...); never NULL. */
const char *gs_regime_name(enum gs_regime regime);
const char *gs_optimizer_name(enum gs_optimizer optimizer);

/* The regime a training request gets for its weight precision when none is
 * given: fp32 -> fp32, bf16 -> bf16_mixed, fp16 -> fp16_mixed. Quantized
 * weights have no full-training regime: GS_ERR_UNSUPPORTED. */
enum gs_status gs_regime_for(enum gs_dtype weights, enum gs_regime *out, struct gs_error *err);

/* LoRA adapter parameters r*(d_in + d_out) summed over every linear module
 * the targets name, in every layer and tower (PEFT LoraLayer). A target
 * matches a module whose name, or a dotted tail of it, equals it, as PEFT
 * matches target_modules; "all_linear" takes every linear module but
 * the output head, as PEFT's "all-linear" does. Routed experts are stored
 * as 3-D parameters in current transformers, not nn.Linear: PEFT before
 * 0.19 does not adapt them, PEFT 0.19 and later turn the names of the v4
 * experts and router into ParamWrappers on those parameters
 * (gs_lora_peft_resolve), whose adapters the total counts
 * (gs_lora_fused_experts) and whose names then adapt no module. A target
 * that names no linear module of the model is an error at
 * "/training/lora/targets/<i>" listing the names it has. */
/* Whether LoRA targets (none = all_linear) adapt module `m` of block `b` (NULL for a module
 * outside the blocks), by PEFT's matching rule described above, or a part of it
 * (gs_lora_qkv_parts). */
bool gs_lora_adapts(const struct gs_training *training, const struct gs_block *b,
                    const struct gs_module *m);

/* The adapter parameters the named targets would give modules that hold their nn.Linear at
 * `.linear` (GS_MOD_WRAPPED: Gemma 4's towers) in transformers' model code, where stock PEFT
 * refuses such a module as a target ("Target module ... is not supported") and gs_lora_adapts
 * leaves it out, sizing the run PEFT can make (its default for gemma4 targets the language
 * model alone); a target naming the inner linear ("q_proj.linear") or all_linear adapts them.
 * 0 when no named target reaches one. */
uint64_t gs_lora_refused_wrapped(const struct gs_arch *a, const struct gs_training *training);

/* PEFT's conversion of a MoE's targets under transformers 5.x (peft
 * utils/transformers_weight_conversion.py _convert_peft_config_moe, run by get_peft_model from
 * PEFT 0.19): for a model type transformers' conversion mapping lists (Mixtral's or Qwen2-MoE's
 * layout), with `experts_fused` (the model code keeps routed experts as 3D parameters:
 * !gs_framework_expert_linears) and PEFT over transformers' model code (framework transformers or
 * deepspeed), sets training->lora_peft_moe to the ParamWrappers the targets make: a target equal
 * to a v4 expert or router name, or ending in "." and one, leaves target_modules and names the
 * fused parameter (gate_proj and up_proj both gate_up_proj, at rank 2r; down_proj; gate the
 * router's gate.weight); all-linear names all of them from 0.20. Errors, as PEFT raises them:
 * one of gate_proj and up_proj without the other ("Cannot convert PEFT target(s) ..."),
 * all-linear under 0.19 (its conversion reads the string as a set of characters, and
 * get_peft_model finds no "Target modules ..."), lora_dropout or use_dora with a ParamWrapper
 * (lora.ParamWrapper "does not work with lora_dropout != 0", "... with use_dora=True"). 0 and
 * GS_OK where PEFT converts nothing (before 0.19, another model type, transformers 4.x). */
enum gs_status gs_lora_peft_resolve(const struct gs_arch *a, struct gs_training *training,
                                    bool experts_fused, struct gs_error *err);

/* The GS_PEFT_MOE_* ParamWrappers of training->lora_peft_moe block `b` carries: those of a
 * block with routed experts (gate_up_proj where its experts are gated); the router's where its
 * module is named `gate` (PEFT's gate.weight matches a parameter by its name's tail). 0 for any
 * other block. */
unsigned gs_lora_param_wrappers(const struct gs_training *training, const struct gs_block *b);

/* What PEFT's ParamWrappers on the fused experts add (gs_lora_param_wrappers): their parameters
 * over every MoE layer, counted in gs_lora_parameters' total (lora.ParamWrapper.update_layer:
 * lora_A d_in x r*E, lora_B r*E x d_out, E the experts of a 3D parameter and 1 for the router's
 * 2D weight), and one layer's merged weights, W + delta of each wrapped parameter (E x d_in x
 * d_out elements), which the experts' forward builds and keeps until that layer's backward. */
struct gs_lora_fused_experts {
    uint64_t adapters;        /* every MoE layer's ParamWrapper parameters */
    uint64_t expert_adapters; /* of them, the routed experts' (not the router's), which expert
                                 parallelism shards with the experts */
    uint64_t merged_elements; /* the largest MoE layer's merged weights */
    uint64_t merged_expert_elements; /* of them, the routed experts' (not the router's) */
    uint64_t merged_experts;         /* that layer's experts, over which expert parallelism
                                        shards merged_expert_elements */
};

/* Fills `out` from training->lora_peft_moe; false (and `out` zeroed) where it is 0. Counts
 * saturate at UINT64_MAX. */
bool gs_lora_fused_experts(const struct gs_arch *a, const struct gs_training *training,
                           struct gs_lora_fused_experts *out);

/* The adapters the targets gave modules whose names PEFT's conversion took out of
 * target_modules (training->lora_peft_moe): a dense or shared-expert MLP's gate_proj, up_proj and
 * down_proj (Mixtral's w1, w3, w2) and a linear router's, which now adapt no module (a router named
 * gate takes its adapter as a ParamWrapper instead, not counted here). 0 without a conversion. */
uint64_t gs_lora_converted_modules(const struct gs_arch *a, const struct gs_training *training);

/* The parts of an attention projection. */
enum gs_qkv_part { GS_QKV_Q = 1u, GS_QKV_K = 2u, GS_QKV_V = 4u, GS_QKV_ALL = 7u };

/* Where the framework adapts the query, key and value parts of its one attention projection one
 * by one (gs_framework_adapts_qkv_parts: LitGPT's LoRAQKVLinear, lora_query, lora_key and
 * lora_value) and module `m` of block `b` is a fused projection of all three (GPT-NeoX's and
 * Falcon's query_key_value, Phi-3's qkv_proj, GPT-2's c_attn): which parts the targets adapt,
 * GS_QKV_* bits. The targets q_proj, k_proj and v_proj name the parts whatever the checkpoint
 * calls the fused module; the module's own name and all_linear name all three. 0 for any other
 * module, or where the framework adapts whole modules (PEFT). `widths` (may be NULL) gets the
 * parts' output widths. */
unsigned gs_lora_qkv_parts(const struct gs_training *training, const struct gs_block *b,
                           const struct gs_module *m, uint64_t widths[3]);

/* How many parts GS_QKV_* bits name. */
unsigned gs_qkv_part_count(unsigned parts);

/* The output width of module `m`'s adapter: the module's, or the adapted parts' of a fused
 * projection (gs_lora_qkv_parts); 0 when nothing adapts it. */
uint64_t gs_lora_width(const struct gs_training *training, const struct gs_block *b,
                       const struct gs_module *m);

/* Adapter parameters as above, plus r*(d_in + d_out) for the output head or the token embedding
 * when a target names it (gs_lora_head, gs_lora_embedding); with DoRA (lora_dora) each adapted
 * layer adds its magnitude vector, d_out parameters (peft/tuners/lora/dora.py
 * DoraLinearLayer.weight). */
enum gs_status gs_lora_parameters(const struct gs_arch *arch, const struct gs_training *training,
                                  uint64_t *out, struct gs_error *err);

/* gs_lora_parameters where the model code keeps routed experts as nn.Linear modules
 * (`routed_experts`, gs_framework_expert_linears): the routed experts' adapters
 * (gs_lora_expert_parameters) are counted too, and a target that names only them is valid. */
enum gs_status gs_lora_parameters_routed(const struct gs_arch *arch,
                                         const struct gs_training *training, bool routed_experts,
                                         uint64_t *out, struct gs_error *err);

/* Whether a LoRA target adapts routed expert linear `m` of block `b` where the model code keeps
 * experts as nn.Linear modules (gs_framework_expert_linears): all_linear, or the projection's
 * own name (gate_proj, up_proj, down_proj as gpusizer names them). */
bool gs_lora_adapts_expert(const struct gs_training *training, const struct gs_block *b,
                           const struct gs_module *m);

/* The adapter parameters PEFT adds to routed experts where the model code keeps each expert as
 * nn.Linear modules (transformers before 5.0: a ModuleList of MLPs a layer), which
 * gs_lora_parameters leaves out (5.x's fused 3D experts PEFT before 0.19 does not adapt):
 * r (d_in + d_out), and d_out with DoRA, per expert projection a target names
 * (gs_lora_adapts_expert), times the experts and layers. Experts the model keeps as 3D parameters
 * in every release (GPT-OSS, Llama 4) add nothing. UINT64_MAX on overflow. */
uint64_t gs_lora_expert_parameters(const struct gs_arch *arch, const struct gs_training *training);

/* Whether a target names the output head (lm_head, or the model's own name for it: InternLM2's
 * output), which PEFT then adapts like any nn.Linear (torchtune apply_lora_to_output, LitGPT
 * lora_head); "all_linear" never includes it. With tied embeddings the head is transformers'
 * lm_head over the embedding's matrix. Sets its input width and vocabulary. */
bool gs_lora_head(const struct gs_arch *arch, const struct gs_training *training, uint64_t *in,
                  uint64_t *out);

/* Whether a target names the token embedding (embed_tokens, Mamba's embeddings, GPT-2's wte...),
 * which PEFT then adapts with lora.Embedding (lora_embedding_A r x vocabulary, lora_embedding_B
 * width x r: transformers' Mamba fine-tuning example targets it); "all_linear" never includes it.
 * Sets its rows (the vocabulary) and width where not NULL. */
bool gs_lora_embedding(const struct gs_arch *arch, const struct gs_training *training,
                       uint64_t *rows, uint64_t *width);

#endif
