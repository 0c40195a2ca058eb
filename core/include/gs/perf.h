/*
 * perf.h - how fast a layout runs: a roofline model of decode, prefill and
 * training throughput (Williams et al. 2009's roofline; training FLOPs as Megatron-LM's
 * num_floating_point_operations counts them), with every efficiency a named,
 * overridable assumption.
 *
 * Decode is memory-bound until the batch is large: one engine step reads
 * the weights each GPU holds (for MoE, only the experts the batch touches)
 * and the batch's KV cache, and does 2 * N_active + 4 * L * C * a * d FLOPs
 * per sequence; tensor parallelism adds two ring all-reduces of the hidden
 * state per layer. Prefill is compute-bound: 2 * N_active * T + 2 * L * T^2
 * * a * d FLOPs (causal). Training takes 6 * N * D FLOPs (4 * N * D with
 * LoRA, which skips the frozen weights' gradients; one more forward pass with
 * full recomputation), at a model-FLOPs utilization, less the pipeline bubble.
 *
 * Pure arithmetic on doubles: throughputs are estimates, not byte counts.
 */
#ifndef GS_PERF_H
#define GS_PERF_H

#include "gs/arch.h"
#include "gs/capability.h"
#include "gs/inference.h"
#include "gs/training.h"

#include <stdbool.h>
#include <stdint.h>

/* The accelerator figures the model needs (catalog units). */
struct gs_perf_gpu {
    double memory_bandwidth_gb_s; /* 0 = unknown */
    double bf16_tflops;           /* dense; 0 = unknown */
    double fp16_tflops;           /* dense; 0 = unknown */
    double interconnect_gb_s;     /* GPU-to-GPU, both directions; 0 = PCIe only or unknown */
    unsigned pcie_gen;            /* 0 = unknown */
};

/* Efficiencies in thousandths. Defaults: decode reaches
 * 700/1000 of memory bandwidth (0.6-0.8 typical), prefill 500 of peak FLOPS
 * (the section's worked example), training 400 MFU for dense models (Megatron
 * 41-48%, Llama 2 39-43%) and 300 for MoE (20-35%). */
struct gs_efficiency {
    uint64_t decode_bandwidth_permille;
    uint64_t decode_compute_permille;
    uint64_t prefill_permille;
    uint64_t training_mfu_permille;       /* 0 = by model kind: dense 400, MoE 300 */
    double allreduce_latency_us;          /* per all-reduce; default 10 (NVLink) or 25 (PCIe) */
    /* The efficiencies above are what NVIDIA GPUs reach; another vendor's generation reaches
     * these thousandths of them with its software stack, as published benchmarks compare them
     * (gs_efficiency_for_hw; 1000 = the same): memory bandwidth in decode, compute in decode
     * and prefill, and training MFU. */
    uint64_t stack_bandwidth_permille, stack_compute_permille, stack_training_permille;
    bool per_vendor; /* apply a generation's factors (default true) */
};

/* `eff` for a GPU of generation `hw`: its stack factors from the table of published
 * comparisons when eff->per_vendor, else 1000 each. */
void gs_efficiency_for_hw(struct gs_efficiency *eff, enum gs_hw hw);

/* Where the factors for `hw` come from, in words (NULL when it has none). */
const char *gs_efficiency_hw_source(enum gs_hw hw);

#define GS_DECODE_BANDWIDTH_PERMILLE 700
#define GS_DECODE_COMPUTE_PERMILLE   500
#define GS_PREFILL_PERMILLE          500
#define GS_TRAIN_MFU_DENSE_PERMILLE  400
#define GS_TRAIN_MFU_MOE_PERMILLE    300

void gs_efficiency_defaults(struct gs_efficiency *eff);

/* The dense tensor throughput used for a training regime, in FLOPS: BF16 (or
 * FP16 where BF16 is missing) for mixed and pure 16-bit regimes; fp32 and
 * AMP regimes on TF32 tensor cores at half of it. 0 when unknown. */
double gs_perf_peak_flops(const struct gs_perf_gpu *gpu, enum gs_regime regime);

/* GPU-to-GPU bandwidth one way, bytes/s: half the catalog's two-way figure,
 * else the PCIe x16 link of the GPU's generation (gen4 32 GB/s, gen5 64 GB/s
 * a direction), else gen4. */
double gs_perf_link_bytes_per_s(const struct gs_perf_gpu *gpu);

/* One serving replica: tensor x pipeline GPUs. */
struct gs_decode_input {
    const struct gs_arch *arch;
    uint64_t active_parameters;     /* per token */
    uint64_t total_parameters;
    uint64_t expert_parameters;     /* routed experts (0 for dense) */
    uint64_t weights_bytes_per_gpu;
    uint64_t kv_bytes_per_token_per_gpu;
    uint64_t tensor, pipeline;
    uint64_t batch;                 /* concurrent sequences */
    uint64_t prompt_tokens, output_tokens;
    /* the KV layout on one GPU, when known: each step then reads the full layers' cache
     * over the context, windowed layers over their window, DeepSeek sparse attention's
     * top-k latents plus every indexer key, and recurrent state once (NULL: every layer
     * over the context at kv_bytes_per_token_per_gpu) */
    const struct gs_kv_layout *kv;
    /* how far into their answers the batch's sequences are: 0 = the steady-state mean (half
     * of output_tokens), 1 = every sequence at its last token */
    double output_fraction;
    /* data-parallel attention ranks sharing one expert-parallel group (vLLM
     * --enable-expert-parallel with data parallelism, SGLang's DP attention): `batch` is one
     * rank's, the experts each rank holds see every rank's tokens, and each MoE layer
     * dispatches and combines its tokens over the group; 0/1 = none */
    uint64_t attention_data;
};

struct gs_decode_result {
    double step_seconds;            /* one decode step of the whole batch */
    double tpot_seconds;            /* mean time per output token when prefill and decode share
                                       the GPUs: the step plus the prompts prefilled meanwhile
                                       (batch x prefill_seconds over output_tokens steps) */
    double memory_seconds, compute_seconds, comm_seconds;
    double decode_tokens_per_s;     /* generated tokens per second, the whole batch */
    double prefill_seconds;         /* one prompt */
    double prefill_tokens_per_s;
    double requests_per_s;          /* prompts prefilled and answered per second */
    double output_tokens_per_s;     /* generated tokens per second at that request rate */
    double experts_touched;         /* distinct experts per layer per step (MoE) */
};

/* Whether gs_perf_decode can answer on this GPU at all, whatever the input: the catalog
 * has its memory bandwidth and dense 16-bit FLOPS (and the bandwidth efficiency is not
 * zero). */
bool gs_perf_can_decode(const struct gs_perf_gpu *gpu, const struct gs_efficiency *eff);

/* false when the GPU lacks the bandwidth or FLOPS figures (!gs_perf_can_decode) or the
 * batch is 0. */
bool gs_perf_decode(const struct gs_decode_input *in, const struct gs_perf_gpu *gpu,
                    const struct gs_efficiency *eff, struct gs_decode_result *out);

/* gs_perf_decode's prefill_seconds: one prompt of in->prompt_tokens on the replica, from
 * arch, active_parameters, prompt_tokens, tensor and pipeline alone (compute-bound, whatever
 * the batch). 0 when !gs_perf_can_decode. */
double gs_perf_prefill_seconds(const struct gs_decode_input *in, const struct gs_perf_gpu *gpu,
                               const struct gs_efficiency *eff);

/* The least a request costs the replica whatever its batch: its prefill, and its
 * output_tokens' share of decode steps that are at least their compute (the step is the
 * larger of memory and compute time, plus communication; compute is the batch's tokens' FLOPs,
 * here at the shortest context, the prompt). gs_perf_decode's requests_per_s is at most its
 * inverse, and a disaggregated layout's prefill and decode pools together need at least as
 * many rank-seconds per request, which lets a plan search bound a layout's replicas before
 * sizing it. Reads what gs_perf_prefill_seconds does and output_tokens. 0 when
 * !gs_perf_can_decode. */
double gs_perf_request_seconds_floor(const struct gs_decode_input *in, const struct gs_perf_gpu *gpu,
                                     const struct gs_efficiency *eff);

struct gs_train_input {
    uint64_t flop_parameters;   /* parameters doing work per token (active for MoE) */
    bool moe;
    enum gs_method method;
    enum gs_recompute recompute;
    enum gs_regime regime;
    uint64_t gpus;
    uint64_t pipeline;
    uint64_t stage_flop_parameters; /* the busiest stage's share of flop_parameters (the
                                       layout's gs_estimate stage_flop_parameters); 0: the
                                       stages do even work */
    uint64_t micro_batches;     /* per optimizer step (gradient accumulation) */
    uint64_t virtual_stages;    /* model chunks each pipeline stage runs (an interleaved 1F1B
                                   schedule); 0 and 1: one */
    bool in_turn;               /* the stages are a device_map (gs_workload_device_map): one
                                   GPU works at a time, the step the sum of the stages' work */
    double tokens;              /* to train on */
    /* data-parallel communication per optimizer step (data_parallel <= 1 or link 0: none) */
    uint64_t data_parallel;     /* ranks the gradients are reduced over */
    uint64_t data_parallel_bytes; /* what each rank sends over the group's links in a step:
                                     the layout's gs_estimate data_parallel_bytes */
    double tokens_per_step;     /* tokens per optimizer step, all ranks */
    double link_bytes_per_s;    /* the group's slowest link per GPU, one direction */
    /* tensor parallelism's activation all-reduces (tensor <= 1: none) */
    uint64_t tensor;
    uint64_t layers, hidden;    /* the decoder's depth (MoE layers included) and width */
    double tensor_link_bytes_per_s; /* within the node, one direction */
    /* expert parallelism's token all-to-alls (expert <= 1 or no MoE layer: none) */
    uint64_t expert;            /* ranks the routed experts are spread over */
    uint64_t moe_layers, top_k; /* layers that route (of `layers`), experts each token reaches */
    bool shared_experts;        /* the MoE layers also run shared experts (a tensor-parallel MLP) */
    double expert_link_bytes_per_s; /* the expert group's slowest link, one direction */
    /* expert tensor parallelism's gathers of the routed tokens (expert_tensor <= 1 or no MoE
     * layer: none); moe_layers and top_k as above */
    uint64_t expert_tensor;     /* ranks each routed expert is split over */
    double expert_tensor_link_bytes_per_s; /* that group's slowest link, one direction */
};

struct gs_train_result {
    double flops_per_token;     /* model FLOPs (6N, 4N for LoRA), without recomputation */
    double hardware_factor;     /* extra work from recomputation: 4/3 full, 1 otherwise */
    double bubble_factor;       /* v m / (v m + p - 1) for v model chunks a stage (1: plain
                                   1F1B, m / (m + p - 1)); 1 without pipelining */
    double stage_balance;       /* the stages' mean work over the busiest stage's: every stage
                                   keeps the busiest one's pace; 1 when even */
    double mfu;                 /* effective: the model kind's MFU times comm_factor */
    double comm_factor;         /* the share of a step the GPUs compute rather than wait on
                                   communication: tensor parallelism's all-reduces, and the
                                   data-parallel traffic that does not hide behind backward */
    uint64_t data_parallel_bytes; /* the input's, where it counts (data parallelism over a
                                     link) */
    uint64_t expert_bytes;      /* what each GPU sends in the experts' all-to-alls in a step */
    uint64_t expert_tensor_bytes; /* what each GPU sends gathering and reduce-scattering the
                                     routed tokens over each expert's tensor ranks in a step */
    double tokens_per_s;
    double seconds;
    double gpu_hours;
};

bool gs_perf_train(const struct gs_train_input *in, const struct gs_perf_gpu *gpu,
                   const struct gs_efficiency *eff, struct gs_train_result *out);

/* The work training counts per token is 6 N (4 N with adapters): the attention products, QK^T
 * and AV, are not in it. This is what they add, as a share of that counted work, for sequences
 * of `sequence` tokens under a causal mask (each token attends to half the sequence on
 * average, its window at most): forward 4 a d per attended token on each attention layer,
 * backward twice that. 0 without attention layers or parameters. */
double gs_perf_train_attention_share(const struct gs_arch *arch, uint64_t sequence,
                                     uint64_t flop_parameters, bool adapters);

/* GPUs needed so that training finishes within `seconds`: the smallest n
 * with n x per-GPU throughput x (bubble, recompute) >= the work; 0 when the
 * GPU has no FLOPS figure. */
uint64_t gs_perf_train_gpus_for(const struct gs_train_input *in, const struct gs_perf_gpu *gpu,
                                const struct gs_efficiency *eff, double seconds);

#endif
