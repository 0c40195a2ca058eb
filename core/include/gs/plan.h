/*
 * plan.h - the cheapest way to run a workload on one GPU type: which
 * parallel layout, how many GPUs, at what throughput and cost
 * (the roofline of perf.h and the layout rules below).
 *
 * The search follows the engines' hard rules (tensor parallelism divides
 * the heads and stays within a node, pipeline stages divide the layers,
 * expert parallelism divides the experts, quantization groups are not split;
 * gs_parallelism_validate and gs_weights_bytes enforce them) and the
 * preferences: the fewest GPUs that fit; for training, at a given count, the
 * smallest tensor degree, then pipeline, then data parallelism, with the
 * fewest memory-saving techniques (ZeRO stage, recomputation, offload); for
 * inference, tensor parallelism within a node and pipeline stages across
 * nodes, then replicas of that group to meet the demand.
 *
 * Every candidate is sized with gs_estimate_compute, so a plan reported as
 * fitting fits when the same layout is sent to /v1/estimate.
 */
#ifndef GS_PLAN_H
#define GS_PLAN_H

#include "gs/activation.h"
#include "gs/estimate.h"
#include "gs/inference.h"
#include "gs/perf.h"
#include "gs/weights.h"

#include <stdbool.h>
#include <stdint.h>

/* One GPU type as the search sees it. */
struct gs_plan_gpu {
    struct gs_gpu_view view;   /* the GPU (view.hw: formats and caches it cannot run are not
                                  offered) */
    uint64_t gpus_per_node;    /* tensor parallelism stays within it */
    double scale_out_bytes_per_s; /* network to other nodes per GPU, one direction (the
                                     catalog's scale_out_gb_s x 1e9); 0 = unknown: the
                                     board class's default */
    struct gs_perf_gpu perf;
    bool has_price;
    double price_per_gpu_hour; /* USD, on the caller's pricing basis */
};

/* What the search may use. */
struct gs_plan_limits {
    uint64_t max_gpus;          /* GPUs in all (replicas included) */
    uint64_t max_tensor;        /* 0 = up to the node size */
    uint64_t max_nodes_per_replica; /* serving: nodes one replica (tensor x pipeline) may span;
                                       0 = any */
    bool allow_quantization;    /* inference: fp8 or AWQ int4 weights, an fp8 KV cache */
    unsigned zero_stages;       /* training: bit s allows ZeRO stage s */
    unsigned recompute;         /* training: bit r allows enum gs_recompute r */
    bool allow_offload;         /* training: ZeRO-Offload of optimizer states (and parameters) */
    bool allow_expert;          /* training: expert parallelism for MoE models */
    bool allow_disaggregation;  /* inference: separate prefill and decode pools when a rate and
                                   a TPOT target make them cheaper */
    bool allow_accumulation;    /* training: where the request's micro-batch does not fit a
                                   layout, a smaller one with more gradient accumulation steps,
                                   the global batch kept (batch_size x accumulation) */
    bool allow_sync_each_batch; /* training: where FSDP's no_sync() accumulation keeps a layout
                                   from fitting, every micro-batch reduce-scattered instead
                                   (training.sync_each_batch, where the loop has the switch) */
    bool allow_lower_max_num_seqs; /* inference: where the engine does not start on a layout
                                      only because max_num_seqs is above what its pool holds
                                      (gs_inference_result.seqs_bound), the layout with
                                      max_num_seqs lowered to that bound - when the request names
                                      none and its batch stays within it */
    double max_cost_per_hour;   /* 0 = no budget */
    bool price_required;        /* a plan on a GPU without a price is rejected whatever it is
                                   (GS_REJECT_NO_PRICE, as under a budget): the search there
                                   stops at the first plan it finds */
};

void gs_plan_limits_defaults(struct gs_plan_limits *limits);

enum gs_demand_kind {
    GS_DEMAND_NONE,
    GS_DEMAND_OUTPUT_TOKENS, /* generated tokens per second, all replicas */
    GS_DEMAND_REQUESTS,      /* requests per second, all replicas */
    GS_DEMAND_TRAINING,      /* tokens to train on within a deadline */
};

struct gs_demand {
    enum gs_demand_kind kind;
    double rate;               /* tokens/s or requests/s */
    uint64_t prompt_tokens;    /* per request (inference) */
    uint64_t output_tokens;
    double training_tokens;
    double deadline_days;      /* 0 = none */
    /* inference service-level targets (0 = none): time to first token and time per output
     * token, at a percentile. The median holds at the batch's mean context; a higher
     * percentile is held at the longest context (every sequence at prompt + output), the
     * slowest steady-state step. */
    double ttft_ms, tpot_ms;
    unsigned percentile;       /* 50 (default), 90, 95 or 99 */
};

/* The time per output token a serving recommendation holds when the request names no
 * latency target: 40 ms (25 tokens/s each user sees), MLPerf Inference's interactive
 * target for its 70B chat model (mlcommons/inference loadgen/mlperf.conf:
 * llama2-70b-interactive.Server.tpot_latency = 40; the throughput-only Server scenario's
 * 200 ms is 5 tokens/s, slower than people read). A request relaxes it with tpot_ms or
 * output_tokens_per_s_per_user, or drops it with "tpot_ms": null. */
#define GS_DEMAND_DEFAULT_TPOT_MS 40.0

enum gs_plan_reject {
    GS_REJECT_NONE,
    GS_REJECT_DOES_NOT_FIT,    /* not even at max_gpus */
    GS_REJECT_MISSES_DEMAND,   /* fits, but not fast enough within max_gpus */
    GS_REJECT_OVER_BUDGET,
    GS_REJECT_NO_PRICE,
    GS_REJECT_NO_THROUGHPUT,   /* the catalog lacks bandwidth or FLOPS figures for the demand */
    GS_REJECT_MISSES_LATENCY,  /* no layout meets the TTFT/TPOT targets, even at batch 1 */
    GS_REJECT_UNSUPPORTED,     /* the GPU has no kernels for the requested precision */
    GS_REJECT_COMM_BOUND,      /* every fitting layout waits on its all-reduces longer than it
                                  reads or computes */
    GS_REJECT_ENGINE,          /* the serving engine fails at startup on this GPU whatever the
                                  memory (gs_engine_ops.refusal) */
    GS_REJECT_COUNT
};

const char *gs_plan_reject_code(enum gs_plan_reject why);

struct gs_plan {
    /* the layout of one replica (inference) or the whole job (training) */
    uint64_t tensor, pipeline, data, expert;
    uint64_t expert_tensor;        /* training a model with routed experts: the ranks each
                                      expert is split over (the estimate's); 0 otherwise */
    unsigned zero_stage;
    enum gs_recompute recompute;
    enum gs_offload offload;
    uint64_t micro_batch;          /* training: sequences per data-parallel rank per step ... */
    uint64_t accumulation_steps;   /* ... and the steps accumulated: their product is the
                                      request's batch_size x gradient_accumulation_steps */
    bool sync_each_batch;          /* training: the search turned on training.sync_each_batch,
                                      the layout fitting only with every micro-batch's
                                      gradients reduce-scattered (FSDP with accumulation in a
                                      loop that has the switch) */
    uint64_t max_num_seqs;         /* inference: the max_num_seqs the search lowered the engine
                                      to (allow_lower_max_num_seqs); 0 = the request's */
    enum gs_weight_format format;  /* inference weights */
    enum gs_kv_dtype kv_dtype;
    uint64_t replicas;             /* inference: copies of the tensor x pipeline (x attention)
                                      group */
    uint64_t attention_data;       /* inference: data-parallel attention ranks in a replica, its
                                      experts split over them (expert = tensor x this); 1 = none */
    uint64_t gpu_count;            /* all GPUs */
    uint64_t nodes;
    /* inference: disaggregated prefill and decode (vLLM's KV connectors, SGLang's PD
     * disaggregation, NVIDIA Dynamo): `replicas` decode instances and `prefill_replicas`
     * prefill instances of the same layout, each prompt's KV cache sent from one to the
     * other over the scale-out network in kv_transfer_seconds */
    bool disaggregated;
    uint64_t prefill_replicas;
    double kv_transfer_seconds;
    struct gs_estimate estimate;   /* per GPU */
    uint64_t limit_bytes;          /* what the per-GPU total may reach */
    int64_t headroom_bytes;
    /* throughput (has_throughput when the GPU has the figures) */
    bool has_throughput;
    uint64_t batch_per_replica;    /* concurrent sequences each replica runs */
    uint64_t estimate_batch;       /* inference: the batch `estimate` holds (the request's, or
                                      batch_per_replica under a rate or latency demand) */
    struct gs_decode_result decode; /* one replica */
    double output_tokens_per_s, requests_per_s, prefill_tokens_per_s; /* all replicas */
    double tpot_seconds;           /* one decode step at the planned batch (at the percentile's
                                      context) */
    double ttft_seconds;           /* one prompt's prefill plus the decode step it waits for */
    struct gs_train_result train;
    /* cost */
    bool has_price;
    double price_per_gpu_hour, cost_per_hour;
    double cost_per_million_tokens; /* inference: per million generated tokens */
    double total_cost;              /* training: the whole run */
};

/* What plan searches remember of one model between them: its weight bytes and its KV cache
 * layouts by layout (gs/weights.h, gs/inference.h), which every GPU type's search asks for
 * again, and a training workload's activations by layout (gs/activation.h), which every ZeRO
 * stage, offload, GPU count and type the training search tries asks for again. Memory the
 * caller owns (the core allocates nothing): for one model and one thread at a time, zeroed
 * before its first search; pass NULL for none, with the same answers. */
struct gs_plan_memo {
    struct gs_weights_memo weights;
    struct gs_kv_memo kv;
    struct gs_activation_memo activation;
};

/* Finds the plan for one GPU type. GS_OK with *why == GS_REJECT_NONE and
 * `out` filled when one qualifies; GS_OK with *why saying why not otherwise;
 * an error status for an invalid request (err says which field). The
 * workload's parallelism is replaced by the search's. `gpu_count` non-zero
 * restricts the search to that many GPUs: for training exactly that many;
 * for serving the smallest replica that fits within them, replicated as
 * many times as it fits. With a training demand the cheapest run is chosen
 * among counts up to four times the smallest that fits (a layout without
 * recomputation or with a shorter pipeline can cost less in GPU-hours). `memo` (NULL for
 * none) is written: see struct gs_plan_memo. */
enum gs_status gs_plan_search(const struct gs_model_spec *model, const struct gs_workload *workload,
                              const struct gs_plan_gpu *gpu, const struct gs_plan_limits *limits,
                              const struct gs_demand *demand, const struct gs_efficiency *eff,
                              uint64_t gpu_count, struct gs_plan_memo *memo, struct gs_plan *out,
                              enum gs_plan_reject *why, struct gs_error *err);

/* The training workload a plan of gs_plan_search was sized with: `request` with the plan's
 * layout (the search's parallelism, keeping the request's choice of FSDP and its version),
 * ZeRO stage, recomputation, offload, micro-batch and accumulation (where the request gives a
 * batch) and gradient sync, on `gpu`. gs_estimate_compute of it gives the plan's estimate. */
void gs_plan_training_workload(const struct gs_workload *request, const struct gs_plan *plan,
                               const struct gs_plan_gpu *gpu, struct gs_workload *out);

/* The network between nodes the search takes for `gpu`, per GPU and one direction, bytes/s:
 * the catalog's scale-out figure, else its board class's default (*assumed then true). */
double gs_plan_scale_out(const struct gs_plan_gpu *gpu, bool *assumed);

/* Whether a plan's figures depend on that network: a training job across nodes, a serving
 * replica across nodes, or a disaggregated plan's KV transfer between its pools. */
bool gs_plan_crosses_nodes(const struct gs_plan *plan, const struct gs_plan_gpu *gpu);

/* The plan gs_plan_search found on one GPU, priced for another whose search inputs are the
 * same but for price_per_gpu_hour (has_price the same): a catalog lists one GPU at many prices
 * (a row per provider or region). The search never compares dollars, only GPU counts and
 * GPU-hours on one GPU type (its cost is the price times either), so it finds the same plan
 * at any price; what changes are the plan's price figures (plan_price) and the budget's
 * verdict (limits->max_cost_per_hour). `why` is the verdict on the GPU searched; returns the
 * verdict at `gpu`'s price, with `plan` re-priced when it qualifies there. */
enum gs_plan_reject gs_plan_reprice(const struct gs_plan_gpu *gpu,
                                    const struct gs_plan_limits *limits, enum gs_plan_reject why,
                                    struct gs_plan *plan);

#endif
