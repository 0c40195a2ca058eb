/*
 * plan.c - layout search for one GPU type (see gs/plan.h).
 */
#include "gs/plan.h"

#include "estimate_scope.h"
#include "plan_common.h"

#include "gs/capability.h"
#include "gs/engines.h"
#include "gs/gpu.h"
#include "gs/sglang.h"

#include <math.h>
#include <stddef.h>
#include <string.h>


void gs_plan_limits_defaults(struct gs_plan_limits *l)
{
    memset(l, 0, sizeof(*l));
    /* a bound on the search, not a claim about clusters: 128 eight-GPU nodes */
    l->max_gpus = 1024;
    /* a serving replica: tensor parallelism within a node, pipeline stages across at most
     * two (the widest open-weight deployments - DeepSeek-V3/R1 and Llama-3.1-405B in bf16 on
     * two 8 x H100 nodes - span two); more is a choice the request makes */
    l->max_nodes_per_replica = 2;
    l->allow_quantization = false;
    l->zero_stages = 0xf;
    l->recompute = (1u << GS_RECOMPUTE_NONE) | (1u << GS_RECOMPUTE_SELECTIVE) |
                   (1u << GS_RECOMPUTE_FULL);
    l->allow_offload = false;
    l->allow_expert = true;
    l->allow_disaggregation = true;
    l->allow_accumulation = true;
    l->allow_sync_each_batch = true;
    l->allow_lower_max_num_seqs = true;
}

const char *gs_plan_reject_code(enum gs_plan_reject why)
{
    switch (why) {
    case GS_REJECT_NONE:
        return "none";
    case GS_REJECT_DOES_NOT_FIT:
        return "does_not_fit";
    case GS_REJECT_MISSES_DEMAND:
        return "misses_demand";
    case GS_REJECT_OVER_BUDGET:
        return "over_budget";
    case GS_REJECT_NO_PRICE:
        return "no_price";
    case GS_REJECT_NO_THROUGHPUT:
        return "no_throughput_figures";
    case GS_REJECT_MISSES_LATENCY:
        return "misses_latency";
    case GS_REJECT_UNSUPPORTED:
        return "unsupported_precision";
    case GS_REJECT_COMM_BOUND:
        return "communication_bound";
    case GS_REJECT_ENGINE:
        return "unsupported_by_engine";
    case GS_REJECT_COUNT:
        break;
    }
    return "none";
}

/* ---------------------------------------------------------------- inference */

struct variant {
    enum gs_weight_format format;
    enum gs_kv_dtype kv;
};

/* The request's precision first, then (when allowed) an fp8 KV cache, fp8
 * weights and AWQ int4 weights, the gentlest change first - each only where
 * the engine runs it on the GPU (gs_engine_runs_format). A 16-bit model on a GPU without bf16
 * runs in fp16, as serving engines cast it. An MLA model's fp8 cache is the
 * plain fp8 latent, or fp8_ds_mla for DeepSeek's sparse attention (an
 * indexer in the layers). */
static size_t inference_variants(const struct gs_model_spec *m, const struct gs_workload *w,
                                 const struct gs_plan_limits *l, enum gs_hw hw,
                                 struct variant out[6])
{
    enum gs_weight_format base = gs_workload_format(w);
    enum gs_kv_dtype kv = w->serving.kv_dtype;
    if (base == GS_WF_BF16 && !gs_hw_bf16(hw))
        base = GS_WF_FP16;
    if (kv == GS_KV_BF16 && !gs_hw_bf16(hw))
        kv = GS_KV_FP16;
    const enum gs_kv_dtype fp8 = gs_kv_fp8_for(m->has_arch ? &m->arch : NULL);
    const bool kv_16 = kv == GS_KV_AUTO || kv == GS_KV_BF16 || kv == GS_KV_FP16;
    const bool w_16 = base == GS_WF_FP32 || base == GS_WF_BF16 || base == GS_WF_FP16;
    struct variant all[6];
    size_t n = 0;
    all[n++] = (struct variant){base, kv};
    if (l->allow_quantization) {
        if (kv_16)
            all[n++] = (struct variant){base, fp8};
        if (w_16) {
            all[n++] = (struct variant){GS_WF_FP8, kv};
            if (kv_16)
                all[n++] = (struct variant){GS_WF_FP8, fp8};
            all[n++] = (struct variant){GS_WF_AWQ, kv};
            if (kv_16)
                all[n++] = (struct variant){GS_WF_AWQ, fp8};
        }
    }
    size_t kept = 0;
    for (size_t i = 0; i < n; i++)
        if (gs_engine_runs_format(&w->serving.engine, hw, all[i].format, NULL) &&
            gs_hw_runs_kv(hw, all[i].kv, NULL))
            out[kept++] = all[i];
    return kept;
}

/* The replica's layout in a workload inference_workload made. */
static void set_layout(const struct gs_plan_gpu *gpu, uint64_t t, uint64_t p, uint64_t dpa,
                       struct gs_workload *w)
{
    gs_parallelism_defaults(&w->parallelism);
    w->parallelism.tensor = t;
    w->parallelism.pipeline = p;
    if (dpa > 1) { /* vLLM --enable-expert-parallel over data-parallel attention ranks */
        w->parallelism.data = dpa;
        w->parallelism.expert = t * dpa;
    }
    w->parallelism.gpus_per_node = plan_node_size(gpu);
}

static void inference_workload(const struct gs_workload *base, const struct gs_plan_gpu *gpu,
                               const struct variant *v, uint64_t t, uint64_t p, uint64_t dpa,
                               struct gs_workload *w)
{
    *w = *base;
    set_layout(gpu, t, p, dpa, w);
    if (v->format != gs_workload_format(base)) {
        w->format_given = true;
        w->format = v->format;
        w->group_size = 0;
    }
    w->serving.kv_dtype = v->kv;
    w->gpu = gpu->view;
}

/* A disaggregated layout's decode pool as SGLang runs it: --disaggregation-mode decode workers,
 * whose default mem_fraction_static reserves less from 0.5.15 (gs_sglang_pd_reserve) and which
 * keep no radix cache; other engines size a decode worker as any (and a request that names a
 * role keeps it). */
static bool decode_role(struct gs_workload *w)
{
    if (w->serving.engine.engine != GS_ENGINE_SGLANG ||
        w->serving.engine.disaggregation != GS_SGLANG_ROLE_NONE)
        return false;
    w->serving.engine.disaggregation = GS_SGLANG_ROLE_DECODE;
    return true;
}

/* Sizes one replica; true when the engine starts and holds the batch (or,
 * without serving settings, when weights and overhead fit the GPU). */
static bool inference_fits(const struct gs_model_spec *m, const struct gs_workload *w,
                           const struct gs_estimate_scope *scope, struct gs_estimate *est)
{
    if (gs_estimate_compute_scoped(m, w, scope, est, NULL) != GS_OK)
        return false;
    if (!est->has_serving)
        return est->per_gpu.total_bytes <= w->gpu.total_bytes;
    return est->serving.has_budget && est->serving.holds_batch;
}

/* inference_fits, and where the engine does not start only because max_num_seqs is above what
 * the layout's pool holds (vLLM from 0.19 with a hybrid model: "max_num_seqs exceeds available
 * Mamba cache blocks"), the same layout with max_num_seqs at that bound, as the engine's message
 * says to do - when the limits allow it, the request leaves max_num_seqs to the engine and its
 * batch stays within the bound. Lowering it shrinks the profile's sampler rows, so the pool
 * only grows and the bound still holds. *lowered is the max_num_seqs set, 0 when none was. */
static bool inference_fits_lowering(const struct gs_model_spec *m, struct gs_workload *w,
                                    const struct gs_estimate_scope *scope,
                                    const struct gs_plan_limits *l, struct gs_estimate *est,
                                    uint64_t *lowered)
{
    *lowered = 0;
    if (inference_fits(m, w, scope, est))
        return true;
    const uint64_t bound = est->has_serving ? est->serving.seqs_bound : 0;
    const uint64_t batch = w->serving.batch_size ? w->serving.batch_size : 1;
    if (!l->allow_lower_max_num_seqs || w->serving.engine.max_num_seqs != 0 || bound < batch)
        return false;
    w->serving.engine.max_num_seqs = bound;
    const bool fits = inference_fits(m, w, scope, est);
    w->serving.engine.max_num_seqs = 0;
    if (fits)
        *lowered = bound;
    return fits;
}

/* The largest batch (at most *batch) that meets the targets (gs_perf_decode).
 * TPOT is the mean time per output token: with prefill and decode on the
 * same GPUs the step plus its share of the prompts prefilled meanwhile;
 * disaggregated, the decode step alone. TTFT is one prompt's prefill, the
 * KV cache's transfer when disaggregated, and the decode step it joins.
 * Both grow with the batch, so a bisection finds it. The median is held at
 * the batch's mean context, higher percentiles with every sequence at its
 * last token. */
static enum gs_plan_reject meet_latency(struct gs_decode_input *in, const struct gs_plan_gpu *gpu,
                                        const struct gs_efficiency *eff, const struct gs_demand *d,
                                        bool disaggregated, double transfer_seconds,
                                        uint64_t *batch)
{
    struct gs_decode_result r;
    const double fraction = d->percentile > 50 ? 1 : 0;
    const double saved = in->output_fraction;
    in->output_fraction = fraction;
    uint64_t lo = 0, hi = *batch;
    while (lo < hi) {
        const uint64_t mid = lo + (hi - lo + 1) / 2;
        in->batch = mid;
        if (!gs_perf_decode(in, &gpu->perf, eff, &r)) {
            in->output_fraction = saved;
            return GS_REJECT_NO_THROUGHPUT;
        }
        const double tpot = disaggregated ? r.step_seconds : r.tpot_seconds;
        const double ttft = r.prefill_seconds + transfer_seconds + r.step_seconds;
        const bool ok = (d->tpot_ms <= 0 || tpot * 1000 <= d->tpot_ms) &&
                        (d->ttft_ms <= 0 || ttft * 1000 <= d->ttft_ms);
        if (ok)
            lo = mid;
        else
            hi = mid - 1;
    }
    in->output_fraction = saved;
    if (lo == 0)
        return GS_REJECT_MISSES_LATENCY;
    *batch = lo;
    return GS_REJECT_NONE;
}

/* Seconds to send one prompt's KV cache from a prefill instance to a decode
 * instance: every GPU sends its own shard to its counterpart at once, over
 * the scale-out network (vLLM's NixlConnector and Mooncake move it by RDMA
 * between nodes; a fleet sized by demand puts its pools on different
 * nodes). */
static double kv_transfer_seconds(const struct gs_plan_gpu *gpu, const struct gs_demand *d,
                                  uint64_t kv_bytes_per_token_per_gpu)
{
    const double link = plan_group_link(gpu, plan_node_size(gpu) + 1);
    return link > 0 ? (double)d->prompt_tokens * (double)kv_bytes_per_token_per_gpu / link : 0;
}

/* Replica throughput and the replicas the demand needs; `disaggregated`
 * sizes separate prefill and decode pools of this layout instead. */
static enum gs_plan_reject size_replicas(const struct gs_model_spec *m,
                                         const struct gs_workload *w, const struct gs_plan_gpu *gpu,
                                         const struct gs_plan_limits *l, const struct gs_demand *d,
                                         const struct gs_efficiency *eff, uint64_t exact,
                                         bool disaggregated, struct gs_plan *plan)
{
    const struct gs_estimate *est = &plan->estimate;
    const struct gs_inference_result *r = &est->serving;
    const bool rate = d->kind == GS_DEMAND_OUTPUT_TOKENS || d->kind == GS_DEMAND_REQUESTS;
    if (!est->has_serving) {
        /* without a batch and context there is no throughput to size replicas by */
        if (rate)
            return GS_REJECT_NO_THROUGHPUT;
        const uint64_t group = plan->tensor * plan->pipeline *
                               (plan->attention_data > 1 ? plan->attention_data : 1);
        plan->replicas = plan->data = exact ? exact / group : 1;
        plan->gpu_count = plan->replicas * group;
        plan->nodes = plan_nodes_for(plan->gpu_count, plan_node_size(gpu));
        return plan->gpu_count <= l->max_gpus ? GS_REJECT_NONE : GS_REJECT_DOES_NOT_FIT;
    }
    /* with data-parallel attention each rank is an engine of its own: max_concurrency and
     * max_num_seqs are one rank's, and `batch` below is one rank's */
    const uint64_t dpa = plan->attention_data > 1 ? plan->attention_data : 1;
    uint64_t batch = r->max_concurrency < r->max_num_seqs ? r->max_concurrency : r->max_num_seqs;
    if (batch == 0)
        batch = 1;
    plan->batch_per_replica = batch * dpa;
    struct gs_decode_input in = {
        .arch = &m->arch,
        .active_parameters = est->has_breakdown ? est->params.active : est->parameters,
        .total_parameters = est->parameters,
        .expert_parameters = est->has_breakdown ? est->params.experts : 0,
        .weights_bytes_per_gpu = est->per_gpu.weights_bytes,
        .kv_bytes_per_token_per_gpu = r->kv.bytes_per_token,
        .tensor = plan->tensor,
        .pipeline = plan->pipeline,
        .batch = batch,
        .prompt_tokens = d->prompt_tokens,
        .output_tokens = d->output_tokens ? d->output_tokens : 1,
        .kv = &r->kv,
        .attention_data = dpa,
    };
    const bool targets = d->ttft_ms > 0 || d->tpot_ms > 0;
    if (disaggregated) {
        if (!rate || exact)
            return GS_REJECT_MISSES_DEMAND; /* two pools are sized by a rate, not a count */
        plan->disaggregated = true;
        plan->kv_transfer_seconds = kv_transfer_seconds(gpu, d, r->kv.bytes_per_token);
    }
    if (targets) {
        const enum gs_plan_reject late =
            meet_latency(&in, gpu, eff, d, disaggregated, plan->kv_transfer_seconds, &batch);
        if (late != GS_REJECT_NONE)
            return late;
        plan->batch_per_replica = batch * dpa;
        in.batch = batch;
    }
    plan->estimate_batch = w->serving.batch_size; /* at_planned_batch() sizes the winner's */
    plan->has_throughput = gs_perf_decode(&in, &gpu->perf, eff, &plan->decode);
    if (plan->has_throughput && dpa > 1) { /* the replica's rates: every rank's together */
        plan->decode.decode_tokens_per_s *= (double)dpa;
        plan->decode.output_tokens_per_s *= (double)dpa;
        plan->decode.requests_per_s *= (double)dpa;
        plan->decode.prefill_tokens_per_s *= (double)dpa;
    }
    /* a layout whose step waits on its tensor-parallel all-reduces longer than it reads the
     * weights and cache or computes wastes its GPUs: another layout or GPU serves better */
    if (plan->has_throughput && plan->decode.comm_seconds >
                                    fmax(plan->decode.memory_seconds, plan->decode.compute_seconds))
        return GS_REJECT_COMM_BOUND;
    if (plan->has_throughput) {
        struct gs_decode_result at = plan->decode;
        if (d->percentile > 50) {
            in.output_fraction = 1;
            gs_perf_decode(&in, &gpu->perf, eff, &at);
            in.output_fraction = 0;
        }
        plan->tpot_seconds = disaggregated ? at.step_seconds : at.tpot_seconds;
        plan->ttft_seconds = at.prefill_seconds + plan->kv_transfer_seconds + at.step_seconds;
    }
    uint64_t replicas = 1;
    if (disaggregated) {
        if (!plan->has_throughput || plan->decode.decode_tokens_per_s <= 0 ||
            plan->decode.prefill_seconds <= 0)
            return GS_REJECT_NO_THROUGHPUT;
        const double out = (double)in.output_tokens;
        const double tokens = d->kind == GS_DEMAND_REQUESTS ? d->rate * out : d->rate;
        const double requests = tokens / out;
        /* decode instances generate at the pure step rate; each prefill instance runs one
         * prompt per rank at a time, compute-bound, so batching prompts does not raise it */
        const double decoders = ceil(tokens / plan->decode.decode_tokens_per_s - 1e-9);
        const double prefillers =
            ceil(requests * plan->decode.prefill_seconds / (double)dpa - 1e-9);
        if (decoders + prefillers > (double)l->max_gpus)
            return GS_REJECT_MISSES_DEMAND;
        const uint64_t group = plan->tensor * plan->pipeline * dpa;
        plan->replicas = plan->data = decoders < 1 ? 1 : (uint64_t)decoders;
        plan->prefill_replicas = prefillers < 1 ? 1 : (uint64_t)prefillers;
        plan->gpu_count = (plan->replicas + plan->prefill_replicas) * group;
        if (plan->gpu_count > l->max_gpus)
            return GS_REJECT_MISSES_DEMAND;
        const uint64_t node = plan_node_size(gpu);
        const uint64_t per_node = group <= node ? node / group * group : 0;
        plan->nodes = per_node ? plan_nodes_for(plan->replicas * group, per_node) +
                                     plan_nodes_for(plan->prefill_replicas * group, per_node)
                               : (plan->replicas + plan->prefill_replicas) * plan_nodes_for(group, node);
        if (per_node && plan->gpu_count <= per_node) {
            /* both pools fit one node (vLLM's and Dynamo's single-node 1P1D setups): the cache
             * crosses the node's own links; the batch, chosen for the network, still meets
             * the targets, sooner */
            const double within = plan_group_link(gpu, 2);
            const double moved = within > 0 ? (double)d->prompt_tokens *
                                                  (double)r->kv.bytes_per_token / within
                                            : plan->kv_transfer_seconds;
            if (plan->has_throughput)
                plan->ttft_seconds += moved - plan->kv_transfer_seconds;
            plan->kv_transfer_seconds = moved;
            plan->nodes = 1;
        }
        const double decoded = plan->decode.decode_tokens_per_s * (double)plan->replicas;
        const double prefilled =
            (double)plan->prefill_replicas * (double)dpa / plan->decode.prefill_seconds * out;
        plan->output_tokens_per_s = fmin(decoded, prefilled);
        plan->requests_per_s = plan->output_tokens_per_s / out;
        plan->prefill_tokens_per_s = plan->decode.prefill_tokens_per_s * (double)plan->prefill_replicas;
        return GS_REJECT_NONE;
    }
    if (rate) {
        if (!plan->has_throughput)
            return GS_REJECT_NO_THROUGHPUT;
        const double per = d->kind == GS_DEMAND_REQUESTS ? plan->decode.requests_per_s
                                                         : plan->decode.output_tokens_per_s;
        const double need = per > 0 ? ceil(d->rate / per - 1e-9) : 1e18;
        if (need > (double)l->max_gpus)
            return GS_REJECT_MISSES_DEMAND;
        replicas = need < 1 ? 1 : (uint64_t)need;
    }
    const uint64_t group = plan->tensor * plan->pipeline * dpa;
    if (exact && d->kind == GS_DEMAND_NONE)
        replicas = exact / group; /* as many replicas as the asked GPUs hold */
    if (replicas * group > l->max_gpus)
        return GS_REJECT_MISSES_DEMAND;
    plan->replicas = replicas;
    plan->data = replicas;
    plan->gpu_count = replicas * group;
    plan->nodes = group <= plan_node_size(gpu) ? plan_nodes_for(plan->gpu_count, plan_node_size(gpu) / group * group)
                                          : replicas * plan_nodes_for(group, plan_node_size(gpu));
    if (plan->has_throughput) {
        plan->output_tokens_per_s = plan->decode.output_tokens_per_s * (double)replicas;
        plan->requests_per_s = plan->decode.requests_per_s * (double)replicas;
        plan->prefill_tokens_per_s = plan->decode.prefill_tokens_per_s * (double)replicas;
    }
    return GS_REJECT_NONE;
}

/* Replica layouts in order: tensor parallelism within the node (1, 2, 4 ...),
 * then pipeline stages across nodes at the widest valid tensor degree. */
/* Replica layouts in order: tensor parallelism within the node (1, 2, 4 ...);
 * for MoE models, expert parallelism over data-parallel attention ranks (2,
 * 4, ... ranks, each holding 1/ranks of the experts and its own share of the
 * batch, within max_nodes_per_replica); then pipeline stages across nodes at
 * the widest valid tensor degree. Columns: tensor, pipeline, attention ranks. */
static size_t replica_layouts(const struct gs_model_spec *m, const struct gs_plan_gpu *gpu,
                              const struct gs_plan_limits *l, uint64_t exact, bool pipelines,
                              uint64_t out[][3], size_t cap)
{
    const uint64_t tmax = plan_max_tensor(gpu, l);
    uint64_t widest = 0;
    size_t n = 0;
    for (uint64_t t = 1; t <= tmax; t *= 2) {
        struct gs_parallelism par;
        gs_parallelism_defaults(&par);
        par.tensor = t;
        par.stages.split = GS_SPLIT_VLLM;
        if (!plan_layout_valid(m, &par))
            continue;
        widest = t;
        if (t <= l->max_gpus && (!exact || t <= exact) && n < cap) {
            out[n][0] = t;
            out[n][1] = 1;
            out[n++][2] = 1;
        }
    }
    const uint64_t layers = m->has_arch ? m->arch.num_hidden_layers : 1;
    const uint64_t node = plan_node_size(gpu);
    const struct gs_block *moe = m->has_arch ? gs_arch_moe_block(&m->arch) : NULL;
    for (uint64_t d = 2; moe != NULL && l->allow_expert && d <= moe->mlp.experts &&
                         d <= l->max_gpus && n < cap;
         d *= 2) {
        if (l->max_nodes_per_replica && plan_nodes_for(d, node) > l->max_nodes_per_replica)
            break;
        if (moe->mlp.experts % d != 0 || (exact && d > exact))
            continue;
        struct gs_parallelism par;
        gs_parallelism_defaults(&par);
        par.data = d;
        par.expert = d;
        par.stages.split = GS_SPLIT_VLLM;
        if (!plan_layout_valid(m, &par))
            continue;
        out[n][0] = 1;
        out[n][1] = 1;
        out[n++][2] = d;
    }
    for (uint64_t p = 2; pipelines && widest && p <= layers && widest * p <= l->max_gpus && n < cap;
         p++) {
        if (l->max_nodes_per_replica && plan_nodes_for(widest * p, node) > l->max_nodes_per_replica)
            break;
        struct gs_parallelism par;
        gs_parallelism_defaults(&par);
        par.tensor = widest;
        par.pipeline = p;
        par.stages.split = GS_SPLIT_VLLM; /* serving: vLLM's get_pp_indices splits any layer count */
        if ((!exact || widest * p <= exact) && plan_layout_valid(m, &par)) {
            out[n][0] = widest;
            out[n][1] = p;
            out[n++][2] = 1;
        }
    }
    return n;
}

/* Zeroes a candidate but its estimate, which gs_estimate_compute writes in full (and a plan
 * is nine parts estimate: a whole-catalog search clears hundreds). */
static void plan_clear(struct gs_plan *p)
{
    const size_t from = offsetof(struct gs_plan, estimate) + sizeof(p->estimate);
    memset(p, 0, offsetof(struct gs_plan, estimate));
    memset((char *)p + from, 0, sizeof(*p) - from);
}

/* The fewest replicas of a one-stage layout (tensor t, dpa attention ranks) a rate demand can
 * need, before the layout is sized: a rank spends at least gs_perf_request_seconds_floor on a
 * request (size_replicas: each costs its prefill plus its share of the decode steps; a
 * disaggregated layout's prefill pool runs one prompt per rank at a time and its decode pool
 * generates at most the compute-bound rate, so its two pools together need no fewer), so a
 * replica serves at most dpa / floor requests a second, whatever its batch. `est` is any
 * estimate of the model (for its parameters). A millionth below the quotient, as the
 * sizing's own divisions round either way. */
static uint64_t replicas_at_least(const struct gs_model_spec *m, const struct gs_estimate *est,
                                  const struct gs_plan_gpu *gpu, const struct gs_demand *d,
                                  const struct gs_efficiency *eff, uint64_t t, uint64_t dpa)
{
    const struct gs_decode_input in = {
        .arch = &m->arch,
        .active_parameters = est->has_breakdown ? est->params.active : est->parameters,
        .tensor = t,
        .pipeline = 1,
        .prompt_tokens = d->prompt_tokens,
        .output_tokens = d->output_tokens ? d->output_tokens : 1,
    };
    const double floor = gs_perf_request_seconds_floor(&in, &gpu->perf, eff);
    const double out = (double)in.output_tokens;
    const double requests = d->kind == GS_DEMAND_REQUESTS ? d->rate : d->rate / out;
    const double x = requests * floor / (double)dpa * (1 - 1e-6) - 1e-6;
    if (!(x > 1))
        return 1;
    return x < 4294967296.0 ? (uint64_t)ceil(x) : (uint64_t)1 << 32;
}

/* On one GPU type a plan costs its price times its GPUs (plan_price): fewer GPUs is cheaper,
 * at any price, so the choice never depends on the price (gs_plan_reprice relies on it). */
static bool better(const struct gs_plan *a, const struct gs_plan *b)
{
    return a->gpu_count < b->gpu_count;
}

/* The best replica for one precision variant: every layout that starts and
 * holds the batch is sized for the demand, and the cheapest wins (the
 * fewest GPUs without a price), ties going to the earlier layout. Pipeline
 * layouts stop at the first that fits: more stages only add GPUs.
 *
 * `bound` is the GPU count of the best plan found so far on this GPU type
 * (another variant's; UINT64_MAX for none). On one GPU type every plan's
 * cost is the same price times its GPUs, so "cheaper" is "fewer GPUs", and a
 * layout of g GPUs a replica is never fewer than g: a layout whose replica
 * alone has as many GPUs as the best plan cannot win and is not sized.
 *
 * Under a rate, a one-stage layout whose replicas_at_least times its GPUs
 * reaches that count is not sized either (`known` is an estimate of the
 * model from the plan that set `bound`, NULL without one).
 *
 * `layouts` are the GPU's replica layouts (replica_layouts, the same for
 * every variant), `least` their replicas_at_least as far as worked out (0 =
 * not yet); candidates are sized in the caller's three `slot` plans and
 * *best points at the winner among them. With `first_plan` the first plan
 * found ends the search (its verdict cannot change); *hopeless is set when a
 * layout fits but the GPU can give no throughput the demand needs, which no
 * layout or variant can change either. */
static enum gs_plan_reject
best_replica(const struct gs_model_spec *m, const struct gs_workload *base,
             const struct gs_estimate_scope *scope, const struct gs_plan_gpu *gpu,
             const struct gs_plan_limits *l,
             const struct gs_demand *d, const struct gs_efficiency *eff, const struct variant *v,
             uint64_t exact, uint64_t bound, const struct gs_estimate *known,
             const uint64_t (*layouts)[3], uint64_t *least, size_t n, bool first_plan,
             bool *hopeless, struct gs_plan *const slot[3], struct gs_plan **best)
{
    enum gs_plan_reject why = GS_REJECT_DOES_NOT_FIT;
    bool found = false, made = false;
    struct gs_workload w;
    /* prefill and decode together, then (under a rate and a TPOT target, where prefill's
     * interference shrinks the batch a shared replica may run) in separate pools */
    const bool rate = d->kind == GS_DEMAND_OUTPUT_TOKENS || d->kind == GS_DEMAND_REQUESTS;
    const bool split = l->allow_disaggregation && d->tpot_ms > 0 && exact == 0 && rate;
    /* candidates are sized in place in the caller's three slots and the best kept by index:
     * a plan is 3 KiB, and a whole-catalog search sizes hundreds */
    size_t fitted = 0, free_slot = 1, best_slot = 2;
    for (size_t i = 0; i < n; i++) {
        const uint64_t t = layouts[i][0], p = layouts[i][1], dpa = layouts[i][2];
        const uint64_t fewest = found && slot[best_slot]->gpu_count < bound
                                    ? slot[best_slot]->gpu_count
                                    : bound;
        if (t * p * dpa >= fewest) {
            if (p > 1)
                break; /* more stages only add GPUs */
            continue;
        }
        /* (pipeline layouts are left to the search: whether one fits decides whether the next
         * is tried) */
        const struct gs_estimate *sized = found ? &slot[best_slot]->estimate : known;
        if (rate && p == 1 && sized != NULL && fewest != UINT64_MAX) {
            if (least[i] == 0) /* the same for every variant: worked out once per GPU type */
                least[i] = replicas_at_least(m, sized, gpu, d, eff, t, dpa);
            if (least[i] * t * dpa >= fewest)
                continue;
        }
        struct gs_plan *plan = slot[fitted];
        plan_clear(plan);
        if (!made) /* the variant's workload on this GPU, once; each layout sets its own */
            inference_workload(base, gpu, v, t, p, dpa, &w);
        else
            set_layout(gpu, t, p, dpa, &w);
        made = true;
        uint64_t lowered = 0;
        if (!inference_fits_lowering(m, &w, scope, l, &plan->estimate, &lowered)) {
            /* what the engine lacks for the model, weights and GPU holds for every layout */
            if (plan->estimate.has_serving && plan->estimate.serving.engine_refusal != NULL)
                return GS_REJECT_ENGINE;
            continue;
        }
        plan->max_num_seqs = lowered;
        plan->tensor = t;
        plan->pipeline = p;
        plan->attention_data = dpa;
        plan->expert = dpa > 1 ? t * dpa : 1;
        plan->format = v->format;
        plan->kv_dtype = v->kv;
        for (int pass = 0; pass < (split ? 2 : 1); pass++) {
            /* the last pass may size the fitted candidate itself */
            size_t at = fitted;
            if (pass + 1 < (split ? 2 : 1)) {
                at = free_slot;
                *slot[at] = *plan;
            }
            struct gs_plan *c = slot[at];
            struct gs_workload decode = w;
            if (pass == 1 && decode_role(&decode)) {
                /* the decode pool sized by its own workers' estimate */
                if (lowered)
                    decode.serving.engine.max_num_seqs = lowered;
                if (!inference_fits(m, &decode, scope, &c->estimate))
                    continue;
            }
            const enum gs_plan_reject r = size_replicas(m, &w, gpu, l, d, eff, exact, pass == 1, c);
            if (r == GS_REJECT_NO_THROUGHPUT && !found && !gs_perf_can_decode(&gpu->perf, eff)) {
                /* the demand needs throughput and this GPU has none to give: every layout of
                 * every variant meets the same verdict */
                *hopeless = true;
                return r;
            }
            if (r == GS_REJECT_NONE) {
                plan_price(gpu, c);
                if (!found || better(c, slot[best_slot])) {
                    if (at == fitted)
                        fitted = best_slot;
                    else
                        free_slot = best_slot;
                    best_slot = at;
                    found = true;
                }
            } else if (!found && pass == 0) {
                why = r;
            }
        }
        if (p > 1 || (found && first_plan))
            break;
    }
    if (found)
        *best = slot[best_slot];
    return found ? GS_REJECT_NONE : why;
}

/* The chosen replica as it runs for the demand: under a rate or latency
 * target its per-GPU figures hold the planned batch's KV cache, so the option
 * and /v1/estimate with the same batch agree. Only the winner is re-sized:
 * the batch changes neither the layout's fit (it was sized at the request's
 * batch) nor its throughput (computed from the per-token cache), so no
 * choice depends on it. */
static void at_planned_batch(const struct gs_model_spec *m, const struct gs_workload *base,
                             const struct gs_estimate_scope *scope,
                             const struct gs_plan_gpu *gpu, const struct gs_demand *d,
                             struct gs_plan *plan)
{
    const bool rate = d->kind == GS_DEMAND_OUTPUT_TOKENS || d->kind == GS_DEMAND_REQUESTS;
    const bool targets = d->ttft_ms > 0 || d->tpot_ms > 0;
    if (!plan->estimate.has_serving || !(rate || targets) ||
        plan->batch_per_replica == base->serving.batch_size)
        return;
    const struct variant v = {plan->format, plan->kv_dtype};
    struct gs_workload at;
    inference_workload(base, gpu, &v, plan->tensor, plan->pipeline, plan->attention_data, &at);
    if (plan->disaggregated)
        decode_role(&at);
    at.serving.batch_size = plan->batch_per_replica; /* the estimate splits it over the ranks */
    if (plan->max_num_seqs)
        at.serving.engine.max_num_seqs = plan->max_num_seqs;
    struct gs_estimate sized;
    if (gs_estimate_compute_scoped(m, &at, scope, &sized, NULL) == GS_OK &&
        sized.has_serving && sized.serving.holds_batch) {
        plan->estimate = sized;
        plan->estimate_batch = plan->batch_per_replica;
    }
}

static enum gs_status search_inference(const struct gs_model_spec *m, const struct gs_workload *w,
                                       const struct gs_estimate_scope *scope,
                                       const struct gs_plan_gpu *gpu,
                                       const struct gs_plan_limits *l, const struct gs_demand *d,
                                       const struct gs_efficiency *eff, uint64_t exact,
                                       struct gs_plan *out, enum gs_plan_reject *why)
{
    struct variant variants[6];
    const size_t nv = inference_variants(m, w, l, (enum gs_hw)gpu->view.hw, variants);
    /* without a price any plan is rejected: whether there is one is all that counts */
    const bool first_plan = l->price_required && !gpu->has_price;
    uint64_t layouts[96][3]; /* the same for every variant */
    const size_t nl = replica_layouts(
        m, gpu, l, exact, !gs_engine_ops_for(w->serving.engine.engine)->no_pipeline, layouts, 96);
    uint64_t least[96] = {0};
    bool found = false, hopeless = false;
    enum gs_plan_reject worst = nv == 0 ? GS_REJECT_UNSUPPORTED : GS_REJECT_DOES_NOT_FIT;
    /* every variant's candidates are sized in three of these four plans, the fourth holding
     * the best so far: no plan is copied until the GPU's best is known */
    struct gs_plan pool[4];
    struct gs_plan *best = NULL;
    for (size_t i = 0; i < nv && !hopeless && !(found && first_plan); i++) {
        struct gs_plan *free_plans[3];
        size_t k = 0;
        for (size_t j = 0; j < 4; j++)
            if (&pool[j] != best && k < 3)
                free_plans[k++] = &pool[j];
        struct gs_plan *won = NULL;
        const enum gs_plan_reject r = best_replica(
            m, w, scope, gpu, l, d, eff, &variants[i], exact, found ? best->gpu_count : UINT64_MAX,
            found ? &best->estimate : NULL, (const uint64_t(*)[3])layouts, least, nl, first_plan,
            &hopeless, free_plans, &won);
        if (r != GS_REJECT_NONE) {
            if (worst == GS_REJECT_DOES_NOT_FIT)
                worst = r;
            continue;
        }
        if (!found || better(won, best)) {
            best = won;
            found = true;
        }
    }
    if (found) {
        *out = *best;
        if (!first_plan)
            at_planned_batch(m, w, scope, gpu, d, out);
    }
    *why = found ? GS_REJECT_NONE : worst;
    return GS_OK;
}

/* ---------------------------------------------------------------- the entry */

static void finish(const struct gs_plan_gpu *gpu, struct gs_plan *plan)
{
    const struct gs_estimate *est = &plan->estimate;
    if (est->has_serving && est->serving.has_budget) {
        const int64_t limit = gs_fit_engine_limit(&est->serving);
        plan->limit_bytes = limit > 0 ? (uint64_t)limit : 0;
        plan->headroom_bytes = est->serving.budget.kv_bytes - (int64_t)est->serving.kv_needed_bytes;
    } else {
        plan->limit_bytes = gpu->view.total_bytes;
        plan->headroom_bytes = (int64_t)gpu->view.total_bytes - (int64_t)est->per_gpu.total_bytes;
    }
}

/* The verdict on a plan that qualifies but for its price. */
static enum gs_plan_reject price_verdict(const struct gs_plan_limits *limits,
                                         const struct gs_plan *plan)
{
    if (!plan->has_price && (limits->max_cost_per_hour > 0 || limits->price_required))
        return GS_REJECT_NO_PRICE;
    if (limits->max_cost_per_hour > 0 && plan->cost_per_hour > limits->max_cost_per_hour)
        return GS_REJECT_OVER_BUDGET;
    return GS_REJECT_NONE;
}

enum gs_status gs_plan_search(const struct gs_model_spec *model, const struct gs_workload *workload,
                              const struct gs_plan_gpu *gpu, const struct gs_plan_limits *limits,
                              const struct gs_demand *demand, const struct gs_efficiency *eff,
                              uint64_t gpu_count, struct gs_plan_memo *memo, struct gs_plan *out,
                              enum gs_plan_reject *why, struct gs_error *err)
{
    /* the request's own estimate is whole; a layout's is what the search reads of it: no fixes,
     * nor the figures of a layout that does not fit, and no layout check (every layout comes
     * from replica_layouts, which validated it) */
    const struct gs_estimate_scope whole = {
        .weights_memo = memo != NULL ? &memo->weights : NULL,
        .kv_memo = memo != NULL ? &memo->kv : NULL};
    struct gs_estimate_scope layouts = whole;
    layouts.figures_only = layouts.fitting_only = layouts.layout_checked = true;
    /* the efficiencies this GPU's generation reaches (gs_efficiency_for_hw) */
    struct gs_efficiency own_eff = *eff;
    gs_efficiency_for_hw(&own_eff, (enum gs_hw)gpu->view.hw);
    eff = &own_eff;
    memset(out, 0, sizeof(*out));
    *why = GS_REJECT_DOES_NOT_FIT;
    if (gpu->view.total_bytes == 0)
        return gs_error_add(err, GS_ERR_INVALID, "/gpu", "the GPU has no memory capacity on record");
    enum gs_status st;
    if (workload->mode == GS_MODE_INFERENCE) {
        /* validate the request once at one GPU, so errors name the request's fields */
        struct gs_workload probe = *workload;
        gs_parallelism_defaults(&probe.parallelism);
        st = gs_estimate_compute_scoped(model, &probe, &whole, &out->estimate, err);
        if (st != GS_OK)
            return st;
        st = search_inference(model, workload, &layouts, gpu, limits, demand, eff, gpu_count, out,
                              why);
    } else {
        st = plan_search_training(model, workload, gpu, limits, demand, eff, gpu_count, memo, out,
                                  why, err);
    }
    if (st != GS_OK || *why != GS_REJECT_NONE)
        return st;
    finish(gpu, out);
    *why = price_verdict(limits, out);
    return GS_OK;
}

enum gs_plan_reject gs_plan_reprice(const struct gs_plan_gpu *gpu,
                                    const struct gs_plan_limits *limits, enum gs_plan_reject why,
                                    struct gs_plan *plan)
{
    if (why != GS_REJECT_NONE && why != GS_REJECT_OVER_BUDGET)
        return why; /* no plan, or none priced (has_price is the same): the same verdict */
    plan_price(gpu, plan);
    return price_verdict(limits, plan);
}
