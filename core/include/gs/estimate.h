/*
 * estimate.h - per-GPU memory for one model and one workload.
 *
 * Pure and allocation-free: the caller owns every struct, and the result
 * carries its assumptions and warnings as static strings (valid for the
 * program's life) plus the numbers they refer to.
 *
 * Inference: weights in their storage format split over tensor and pipeline
 * ranks; with serving settings (batch, context, engine) the KV cache the batch
 * needs, the engine's activation peak and non-torch memory, its KV budget on
 * the named GPU, and ranked fixes when it would not start or hold the batch
 * (gs/inference.h, gs/weights.h). Without them, weights plus a runtime
 * overhead, with a warning. Training: model states by regime,
 * optimizer, ZeRO stage and parallel layout (gs/training.h), activations
 * (gs/activation.h) when the batch and sequence length are known, LoRA and
 * QLoRA, host memory when offloading, and named runtime overheads that a
 * request can override.
 */
#ifndef GS_ESTIMATE_H
#define GS_ESTIMATE_H

#include "gs/arch.h"
#include "gs/inference.h"
#include "gs/precision.h"
#include "gs/runtime.h"
#include "gs/status.h"
#include "gs/train_peak.h"
#include "gs/training.h"
#include "gs/weights.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Largest raw parameter count accepted: 10^15, far beyond any model, small
 * enough that 16 bytes per parameter stays well inside 64 bits. */
#define GS_PARAMETERS_MAX ((uint64_t)1000000000000000)

/* NCCL communicator buffers once a GPU talks to others: vLLM's non-torch
 * memory grows from 1.79 GiB to 3.58 GiB going from 1 to 2 GPUs (vllm PR
 * #10511's log): floor(1.79 * 2^30). */
#define GS_NCCL_BYTES ((uint64_t)1921997864)
/* DeepSpeed ZeRO-1/2 communication buckets: reduce_bucket_size and
 * allgather_bucket_size default to 5e8 elements each (deepspeed
 * runtime/zero/config.py), 2 bytes per bf16/fp16 element. ZeRO-3 keeps
 * reduce_bucket_size (5e8) plus stage3_prefetch_bucket_size (5e7). */
#define GS_ZERO12_BUCKET_BYTES ((uint64_t)2000000000)
#define GS_ZERO3_BUCKET_BYTES  ((uint64_t)1100000000)

enum gs_mode { GS_MODE_INFERENCE, GS_MODE_TRAINING };

/* A model is either a bare parameter count or an architecture. */
/* What a checkpoint's own file headers say about its weights (safetensors or
 * GGUF headers read by the server's hub import): exact where the config can
 * only estimate (scales, zero points, unusual layouts, unknown model types). */
struct gs_checkpoint_bytes {
    bool present;
    enum gs_weight_format format; /* as stored */
    uint64_t parameters;          /* exact, counted from the tensors */
    uint64_t tensor_bytes;        /* every tensor as stored */
    uint64_t matrix_bytes;        /* tensors of 2+ dimensions: split by tensor parallelism */
    uint64_t vector_bytes;        /* norms and biases: whole on every rank */
    uint64_t layer_bytes;         /* the numbered layers together ... */
    uint64_t layers;              /* ... and how many there are */
    uint64_t other_bytes;         /* embeddings, head, final norm, towers */
    /* of tensor_bytes, the multi-token-prediction layers' (found by name, or numbered past the
     * decoder's layers): an engine's target model does not load them (vLLM skips them in
     * load_weights, transformers lists them in _keys_to_ignore_on_load_unexpected), so serving
     * the model weighs tensor_bytes - mtp_bytes; a speculative mtp draft is sized from the
     * config. 0 where the checkpoint stores none or they could not be told apart. */
    uint64_t mtp_bytes;
};

struct gs_model_spec {
    bool has_arch;
    struct gs_arch arch;  /* when has_arch */
    uint64_t parameters;  /* when !has_arch */
    struct gs_checkpoint_bytes stored; /* when known: serving in the stored format uses its bytes */
    /* Set by gs_model_spec_count: `arch` passed gs_arch_validate and `counts` are its
     * gs_arch_count_params, so estimates of this spec (a plan search sizes hundreds of
     * layouts; the server counts each catalog model once) skip both. Whoever changes `arch`
     * afterwards clears `counted`. */
    bool counted;
    struct gs_param_count counts;
    struct gs_param_count block_counts[GS_BLOCKS_MAX]; /* when counted: one layer of each
                                                          block (gs_arch_count_block), what
                                                          pipeline stages are weighed by */
};

/* Validates and counts `model->arch` once (see `counted`); nothing to do
 * without an architecture. Errors as gs_arch_count_params's, under
 * "/model/config". */
enum gs_status gs_model_spec_count(struct gs_model_spec *model, struct gs_error *err);

/* Weights per GPU from a checkpoint's own bytes when gpusizer cannot read
 * the architecture: matrices split over `tensor` ranks, vectors whole; the
 * numbered layers split over `pipeline` stages, the rest (embeddings, head,
 * towers) charged to every stage (an upper bound for the first and last). */
uint64_t gs_checkpoint_bytes_per_gpu(const struct gs_checkpoint_bytes *ck, uint64_t tensor,
                                     uint64_t pipeline);

/* Request-level replacements for the named defaults above. */
struct gs_overrides {
    bool has_cuda_context_bytes, has_cublas_workspace_bytes, has_nccl_bytes, has_zero_bucket_bytes,
        has_fragmentation_permille;
    uint64_t cuda_context_bytes, cublas_workspace_bytes, nccl_bytes, zero_bucket_bytes;
    uint64_t fragmentation_permille; /* 0..1000 */
};

/* Serving settings (inference mode). */
struct gs_serving {
    bool present;             /* the request had an inference section */
    uint64_t batch_size;      /* concurrent sequences, >= 1 */
    uint64_t context_length;  /* tokens per sequence, prompt + output */
    uint64_t prompt_tokens;   /* 0 when only context_length was given */
    uint64_t sequence_tokens; /* tokens each sequence holds in the paged cache (prompt + output);
                                 0 = context_length, which stays the admission limit */
    enum gs_kv_dtype kv_dtype;
    uint64_t memory_in_use_bytes; /* memory other processes hold on each GPU when the engine
                                     starts (a desktop, another model); 0 = none */
    struct gs_engine_config engine;
    const struct gs_draft *draft; /* speculative decoding's draft model, NULL: none named
                                     (borrowed from the request) */
};

/* The most pipeline stages a request may give a GPU each (parallelism.stage_gpus). */
#define GS_STAGE_GPUS_MAX 16

struct gs_workload {
    enum gs_mode mode;
    enum gs_dtype weights;            /* the plain type (training, and inference without a format) */
    bool format_given;                /* else the format follows `weights` */
    enum gs_weight_format format;     /* inference storage format */
    uint64_t group_size;              /* GPTQ/AWQ */
    bool format_experts_only;         /* only routed experts in `format` (gpt-oss mxfp4) */
    bool format_from_checkpoint;      /* the format is the checkpoint's (no precision given) */
    struct gs_serving serving;
    struct gs_gpu_view gpu;           /* the named GPU (gpu.total_bytes 0: none named; gpu.hw
                                         GS_HW_UNKNOWN: none named or not in the capability
                                         table) */
    uint64_t stage_gpu_count;         /* serving under pipeline parallelism over unequal GPUs:
                                         stage s runs on stage_gpus[s] (count = the pipeline
                                         degree; engines that size each stage); 0: every stage
                                         on `gpu` */
    struct gs_gpu_view stage_gpus[GS_STAGE_GPUS_MAX];
    struct gs_training training;       /* training only; zeroed fields take defaults */
    struct gs_parallelism parallelism; /* zeroed degrees count as 1 */
    struct gs_overrides overrides;
};

/* Bytes on each GPU, by component. total_bytes is the sum of the others:
 * the device's view (what nvidia-smi shows). In training the components
 * describe the peak moment (gs/train_peak.h), and the peak is also given as
 * PyTorch reports it: max_memory_allocated and max_memory_reserved. */
struct gs_memory {
    uint64_t weights_bytes;
    uint64_t kv_cache_bytes;
    uint64_t activations_bytes;
    uint64_t gradients_bytes;
    uint64_t optimizer_bytes;
    uint64_t overhead_bytes;
    uint64_t total_bytes;
    uint64_t peak_allocated_bytes; /* training: tensors at the peak (0 in inference) */
    uint64_t peak_reserved_bytes;  /* training: the caching allocator's segments at the peak */
    uint8_t peak_phase;            /* training: enum gs_peak_phase of the peak moment */
};

struct gs_assumption {
    const char *name;   /* stable identifier, e.g. "training_regime" */
    const char *detail; /* what was assumed */
    const char *source; /* where the number comes from */
    bool has_value;
    uint64_t value;     /* the number assumed, in the unit the name says (bytes, permille) */
};

struct gs_warning {
    const char *code;   /* stable identifier, e.g. "activations_not_estimated" */
    const char *detail;
};

#define GS_ESTIMATE_NOTES_MAX 32
#define GS_FIXES_MAX 4

/* One change that would let the engine start, and what it gives. */
struct gs_fix {
    const char *code; /* "lower_context", "fp8_kv_cache", "int4_weights", "more_tensor_parallelism",
                         "lower_max_num_seqs" */
    const char *detail;
    uint64_t value; /* the new context length, tensor degree or max_num_seqs */
    bool starts;
    bool holds_batch;     /* the engine starts and holds the requested batch at once */
    int64_t kv_bytes;
    uint64_t max_concurrency;
};

struct gs_estimate {
    uint64_t parameters;
    /* serving in the stored format of a model with checkpoint bytes: the weights are the
     * checkpoint's (checkpoint_bytes, the whole model but its MTP layers); with an architecture
     * too, its own count (config_bytes) is cross-checked and checkpoint_mismatch set when they
     * differ by more than rounding (1%) */
    bool weights_from_checkpoint, checkpoint_mismatch;
    uint64_t checkpoint_bytes, config_bytes;
    uint64_t checkpoint_mtp_bytes;  /* the checkpoint's MTP layers, left out of checkpoint_bytes
                                       (gs_checkpoint_bytes.mtp_bytes) */
    uint64_t trainable_parameters;  /* all of them for full training; the adapters for LoRA */
    bool has_breakdown;             /* params below is filled when the model had an architecture */
    struct gs_param_count params;
    enum gs_regime regime;          /* training only */
    enum gs_optimizer optimizer;    /* training only */
    enum gs_method method;          /* training only */
    enum gs_loss loss;              /* training only: the loss rule applied */
    enum gs_attn_impl attn_impl;    /* training only: the attention path sized (a model with
                                       no fused path is sized as eager) */
    bool recurrent_kernels_sized;   /* training only: the model's Gated DeltaNet or Mamba2
                                       layers were sized by the kernels in recurrent_kernels */
    enum gs_recurrent_kernels recurrent_kernels;
    bool sequence_parallel;         /* training only: sequence parallelism as sized (given, or
                                       the framework's under tensor parallelism) */
    uint64_t stage_layers;          /* training with pipeline stages over a described model:
                                       the decoder layers split, 0 otherwise */
    struct gs_stage_plan stages;    /* training: how they fall to the stages (gs_stage_range) */
    bool device_map;                /* training: the stages are transformers' device_map over
                                       one process's GPUs (gs_workload_device_map) */
    uint64_t expert_tensor;         /* training a model with routed experts: the ranks each
                                       expert is split over (gs_workload_expert_tensor); 0
                                       otherwise */
    uint64_t stage_flop_parameters; /* training with pipeline stages over a described model:
                                       the parameters a token uses on the busiest stage (its
                                       layers', the head's on the last), whose pace the
                                       pipeline keeps; 0 otherwise */
    bool has_peak;                  /* training: peak_phase and the peak figures are set */
    enum gs_peak_phase peak_phase;
    struct gs_peak peak;            /* training: every moment's allocated bytes */
    uint64_t saved_activation_bytes; /* training: activations saved for backward plus the loss's
                                        logits, when backward starts */
    uint64_t no_sync_gradient_bytes; /* training: the gradients the micro-batches before the
                                        last keep unsharded under FSDP's no_sync() (0: none) */
    uint64_t data_parallel_bytes;   /* training: what each GPU sends over its data-parallel
                                       links in an optimizer step (the gradients reduced, the
                                       weights gathered, a ring's share of each); 0 without
                                       data parallelism (estimate_training.c) */
    uint64_t vision_bytes;          /* training: what a micro-batch's images keep in the vision
                                       towers (the assumption vision_activation_bytes); 0 for
                                       text */
    uint64_t image_tokens;          /* training with images: the tokens each image takes, the
                                       request's or the processor's largest image's */
    uint64_t padding_mask_bytes;    /* training: what padded micro-batches add under
                                       transformers' SDPA (the assumption
                                       padding_mask_activation_bytes); 0 where nothing */
    bool sync_each_batch_helps;     /* training: the micro-batches before the last keep their
                                       gradients unsharded under FSDP's no_sync() (the
                                       assumption fsdp1_/fsdp2_no_sync_gradient_bytes) in a loop
                                       that training.sync_each_batch turns to reduce-scatter
                                       every micro-batch */
    uint64_t gpu_count;             /* tensor * pipeline * context * data */
    uint64_t parameters_per_gpu;    /* on the most loaded GPU, before ZeRO sharding */
    struct gs_memory per_gpu;
    uint64_t host_bytes_per_node;   /* CPU memory for offloaded states, 0 without offload */
    bool has_serving;               /* inference with an inference section */
    struct gs_inference_result serving;
    size_t fix_count;
    struct gs_fix fixes[GS_FIXES_MAX];
    size_t assumption_count;
    struct gs_assumption assumptions[GS_ESTIMATE_NOTES_MAX];
    size_t warning_count;
    struct gs_warning warnings[GS_ESTIMATE_NOTES_MAX];
};

/* The storage format inference uses: the named format, else the one the
 * plain weight precision stands for (int8 is LLM.int8, int4 plain 4 bits). */
enum gs_weight_format gs_workload_format(const struct gs_workload *workload);

/* The highest ZeRO stage a training framework runs under pipeline parallelism:
 * DeepSpeed's pipeline engine 1 (deepspeed/runtime/pipe/engine.py asserts
 * "ZeRO-2 and ZeRO-3 are incompatible with pipeline parallelism"); 3 under
 * torchtitan, which shards each stage's model part with fully_shard (its
 * stages named by number or by FSDP's names), and
 * 0 elsewhere (FSDP1 under the HF Trainer or accelerate has no pipeline
 * schedule). gs_estimate_compute refuses a stage above it (400 at
 * /parallelism/zero_stage); plan searches do not try one. */
unsigned gs_workload_pipeline_zero_max(const struct gs_workload *workload);

/* Whether the training loop can lay layers over GPUs as stages: every loop but TRL's
 * SFTTrainer under DeepSpeed (the HF Trainer has no pipeline engine, and DeepSpeed refuses a
 * device_map), torchtune's and LitGPT's (no pipeline parallelism). gs_estimate_compute refuses a pipeline degree above 1 where it cannot (400 at
 * /parallelism/pipeline); plan searches do not try one. */
bool gs_workload_pipelines(const struct gs_workload *workload);

/* Whether a training workload's pipeline stages (pipeline above 1) are transformers'
 * device_map="auto" (naive pipeline parallelism, gs/device_map.h) rather than a pipeline
 * schedule: the HF Trainer and TRL's SFTTrainer (framework transformers named, or a TRL
 * release) have no schedule, and load a model over several GPUs only so - one process, no
 * data, tensor, context or expert parallelism, no ZeRO/FSDP (accelerate's prepare_model
 * refuses a multi-GPU device_map in any distributed mode). */
bool gs_workload_device_map(const struct gs_workload *workload);

/* How a training workload's framework assigns decoder layers to pipeline
 * stages (gs/arch.h enum gs_stage_split): torchtitan its own splitter,
 * Megatron-LM and a request naming no framework Megatron's (any count, the
 * uneven ends set by flags), transformers' device_map by the modules' bytes
 * (gs_workload_device_map), the others the even split that needs the
 * degree to divide the layers. Serving splits as vLLM does. */
enum gs_stage_split gs_workload_stage_split(const struct gs_workload *workload);

/* How a serving workload's decoder layers fall to its pipeline stages: the
 * request's parallelism.stage_layers (vLLM VLLM_PP_LAYER_PARTITION, SGLang
 * SGLANG_PP_LAYER_PARTITION, TensorRT-LLM pp_partition), else the engine's
 * rule: TensorRT-LLM's mapping.py pp_layers (torch.tensor_split), vLLM's
 * get_pp_indices for the others (SGLang's is the same). */
struct gs_stage_plan gs_workload_serving_stages(const struct gs_workload *workload);

/* The ranks each routed expert of a training workload is split over: the
 * request's parallelism.expert_tensor, else the framework's. Megatron-LM:
 * tensor (arguments.py: expert_tensor_parallel_size defaults to
 * tensor_model_parallel_size). transformers (and a request naming no
 * framework) and torchtune: tensor without expert parallelism (their
 * tensor-parallel plans shard the experts like any MLP), 1 with it
 * (transformers' expert-parallel plan keeps experts whole). torchtitan,
 * LitGPT and the DeepSpeed engine: 1 (whole experts). 1 for serving and for
 * a model without routed experts (`model` NULL: none). */
uint64_t gs_workload_expert_tensor(const struct gs_model_spec *model,
                                   const struct gs_workload *workload);

/* Computes the estimate. Error pointers follow the request document the
 * structs mirror: "/model/parameters", "/model/config/<field>" for an
 * architecture, "/precision/weights", "/training/...", "/parallelism/...".
 * `out` is fully written on GS_OK; after an error its content is unspecified. */
enum gs_status gs_estimate_compute(const struct gs_model_spec *model,
                                   const struct gs_workload *workload, struct gs_estimate *out,
                                   struct gs_error *err);

#endif
