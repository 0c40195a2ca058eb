/*
 * plan.c - layout search for one GPU type (see gs/plan.h).
 */
#include "gs/plan.h"

#include "estimate_scope.h"

#include "gs/capability.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

#define COUNTS_MAX 256 /* GPU counts tried: every count up to a node, then whole nodes */

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
    }
    return "none";
}

static uint64_t node_size(const struct gs_plan_gpu *gpu)
{
    return gpu->gpus_per_node ? gpu->gpus_per_node : 8;
}

static uint64_t max_tensor(const struct gs_plan_gpu *gpu, const struct gs_plan_limits *l)
{
    const uint64_t node = node_size(gpu);
    return l->max_tensor && l->max_tensor < node ? l->max_tensor : node;
}

/* GPU counts in the order they are tried: every count up to a node, then
 * whole nodes. */
static size_t gpu_counts(uint64_t node, uint64_t max, uint64_t counts[COUNTS_MAX])
{
    size_t n = 0;
    for (uint64_t c = 1; c < node && c <= max && n < COUNTS_MAX; c++)
        counts[n++] = c;
    for (uint64_t k = 1; k * node <= max && n < COUNTS_MAX; k++)
        counts[n++] = k * node;
    return n;
}

static bool layout_valid(const struct gs_model_spec *m, const struct gs_parallelism *par)
{
    if (!m->has_arch)
        return par->tensor == 1 && par->pipeline == 1 && par->expert == 1;
    return gs_parallelism_validate(par, &m->arch, NULL) == GS_OK;
}

static uint64_t nodes_for(uint64_t gpus, uint64_t node)
{
    return (gpus + node - 1) / node;
}

/* ---------------------------------------------------------------- inference */

struct variant {
    enum gs_weight_format format;
    enum gs_kv_dtype kv;
};

/* The request's precision first, then (when allowed) an fp8 KV cache, fp8
 * weights and AWQ int4 weights, the gentlest change first - each only where
 * the GPU runs it (gs/capability.h). A 16-bit model on a GPU without bf16
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
        if (gs_hw_runs_format(hw, all[i].format, NULL) && gs_hw_runs_kv(hw, all[i].kv, NULL))
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
    w->parallelism.gpus_per_node = node_size(gpu);
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

static double group_link(const struct gs_plan_gpu *g, uint64_t gpus);

/* Seconds to send one prompt's KV cache from a prefill instance to a decode
 * instance: every GPU sends its own shard to its counterpart at once, over
 * the scale-out network (vLLM's NixlConnector and Mooncake move it by RDMA
 * between nodes; a fleet sized by demand puts its pools on different
 * nodes). */
static double kv_transfer_seconds(const struct gs_plan_gpu *gpu, const struct gs_demand *d,
                                  uint64_t kv_bytes_per_token_per_gpu)
{
    const double link = group_link(gpu, node_size(gpu) + 1);
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
        plan->nodes = nodes_for(plan->gpu_count, node_size(gpu));
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
        const uint64_t node = node_size(gpu);
        const uint64_t per_node = group <= node ? node / group * group : 0;
        plan->nodes = per_node ? nodes_for(plan->replicas * group, per_node) +
                                     nodes_for(plan->prefill_replicas * group, per_node)
                               : (plan->replicas + plan->prefill_replicas) * nodes_for(group, node);
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
    plan->nodes = group <= node_size(gpu) ? nodes_for(plan->gpu_count, node_size(gpu) / group * group)
                                          : replicas * nodes_for(group, node_size(gpu));
    if (plan->has_throughput) {
        plan->output_tokens_per_s = plan->decode.output_tokens_per_s * (double)replicas;
        plan->requests_per_s = plan->decode.requests_per_s * (double)replicas;
        plan->prefill_tokens_per_s = plan->decode.prefill_tokens_per_s * (double)replicas;
    }
    return GS_REJECT_NONE;
}

static void price_plan(const struct gs_plan_gpu *gpu, struct gs_plan *plan)
{
    plan->has_price = gpu->has_price;
    if (!gpu->has_price)
        return;
    plan->price_per_gpu_hour = gpu->price_per_gpu_hour;
    plan->cost_per_hour = gpu->price_per_gpu_hour * (double)plan->gpu_count;
    if (plan->output_tokens_per_s > 0)
        plan->cost_per_million_tokens = plan->cost_per_hour / (plan->output_tokens_per_s * 3600) * 1e6;
    if (plan->train.gpu_hours > 0)
        plan->total_cost = plan->train.gpu_hours * gpu->price_per_gpu_hour;
}

/* Replica layouts in order: tensor parallelism within the node (1, 2, 4 ...),
 * then pipeline stages across nodes at the widest valid tensor degree. */
/* Replica layouts in order: tensor parallelism within the node (1, 2, 4 ...);
 * for MoE models, expert parallelism over data-parallel attention ranks (2,
 * 4, ... ranks, each holding 1/ranks of the experts and its own share of the
 * batch, within max_nodes_per_replica); then pipeline stages across nodes at
 * the widest valid tensor degree. Columns: tensor, pipeline, attention ranks. */
static size_t replica_layouts(const struct gs_model_spec *m, const struct gs_plan_gpu *gpu,
                              const struct gs_plan_limits *l, uint64_t exact, uint64_t out[][3],
                              size_t cap)
{
    const uint64_t tmax = max_tensor(gpu, l);
    uint64_t widest = 0;
    size_t n = 0;
    for (uint64_t t = 1; t <= tmax; t *= 2) {
        struct gs_parallelism par;
        gs_parallelism_defaults(&par);
        par.tensor = t;
        par.uneven_stages = true;
        if (!layout_valid(m, &par))
            continue;
        widest = t;
        if (t <= l->max_gpus && (!exact || t <= exact) && n < cap) {
            out[n][0] = t;
            out[n][1] = 1;
            out[n++][2] = 1;
        }
    }
    const uint64_t layers = m->has_arch ? m->arch.num_hidden_layers : 1;
    const uint64_t node = node_size(gpu);
    const struct gs_block *moe = m->has_arch ? gs_arch_moe_block(&m->arch) : NULL;
    for (uint64_t d = 2; moe != NULL && l->allow_expert && d <= moe->mlp.experts &&
                         d <= l->max_gpus && n < cap;
         d *= 2) {
        if (l->max_nodes_per_replica && nodes_for(d, node) > l->max_nodes_per_replica)
            break;
        if (moe->mlp.experts % d != 0 || (exact && d > exact))
            continue;
        struct gs_parallelism par;
        gs_parallelism_defaults(&par);
        par.data = d;
        par.expert = d;
        par.uneven_stages = true;
        if (!layout_valid(m, &par))
            continue;
        out[n][0] = 1;
        out[n][1] = 1;
        out[n++][2] = d;
    }
    for (uint64_t p = 2; widest && p <= layers && widest * p <= l->max_gpus && n < cap; p++) {
        if (l->max_nodes_per_replica && nodes_for(widest * p, node) > l->max_nodes_per_replica)
            break;
        struct gs_parallelism par;
        gs_parallelism_defaults(&par);
        par.tensor = widest;
        par.pipeline = p;
        par.uneven_stages = true; /* serving: vLLM's get_pp_indices splits any layer count */
        if ((!exact || widest * p <= exact) && layout_valid(m, &par)) {
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

static bool better(const struct gs_plan *a, const struct gs_plan *b)
{
    if (a->has_price && b->has_price && a->cost_per_hour != b->cost_per_hour)
        return a->cost_per_hour < b->cost_per_hour;
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
        if (!inference_fits(m, &w, scope, &plan->estimate))
            continue;
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
            const enum gs_plan_reject r = size_replicas(m, &w, gpu, l, d, eff, exact, pass == 1, c);
            if (r == GS_REJECT_NO_THROUGHPUT && !found && !gs_perf_can_decode(&gpu->perf, eff)) {
                /* the demand needs throughput and this GPU has none to give: every layout of
                 * every variant meets the same verdict */
                *hopeless = true;
                return r;
            }
            if (r == GS_REJECT_NONE) {
                price_plan(gpu, c);
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
    at.serving.batch_size = plan->batch_per_replica; /* the estimate splits it over the ranks */
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
    const size_t nl = replica_layouts(m, gpu, l, exact, layouts, 96);
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

/* ----------------------------------------------------------------- training */

static void training_workload(const struct gs_workload *base, const struct gs_plan_gpu *gpu,
                              uint64_t t, uint64_t p, uint64_t dp, uint64_t e, unsigned zero,
                              enum gs_recompute rc, enum gs_offload off, struct gs_workload *w)
{
    *w = *base;
    gs_parallelism_defaults(&w->parallelism);
    /* FSDP or DeepSpeed, and which FSDP, as the request says */
    w->parallelism.fsdp = base->parallelism.fsdp;
    w->parallelism.fsdp_version = base->parallelism.fsdp_version;
    w->parallelism.fsdp_use_orig_params = base->parallelism.fsdp_use_orig_params;
    w->parallelism.tensor = t;
    w->parallelism.pipeline = p;
    w->parallelism.data = dp;
    w->parallelism.expert = e;
    w->parallelism.zero_stage = zero;
    w->parallelism.offload = off;
    w->parallelism.sequence_parallel = t > 1;
    w->parallelism.gpus_per_node = node_size(gpu);
    w->training.recompute = rc;
    w->gpu = gpu->view;
}

static bool training_fits(const struct gs_model_spec *m, const struct gs_workload *w,
                          const struct gs_plan_gpu *gpu, struct gs_estimate *est)
{
    return gs_estimate_compute(m, w, est, NULL) == GS_OK &&
           est->per_gpu.total_bytes <= gpu->view.total_bytes;
}

struct train_ctx {
    const struct gs_model_spec *m;
    const struct gs_workload *w;       /* the workload tried: the request's, or its split */
    const struct gs_workload *request; /* as asked */
    struct gs_workload split;          /* the request at a smaller micro-batch (batch_split) */
    const struct gs_plan_gpu *gpu;
    const struct gs_plan_limits *l;
    const struct gs_demand *d;
    const struct gs_efficiency *eff;
    struct gs_estimate scratch; /* the request at one GPU: regime, method, parameter counts */
    bool use_deadline;
};

/* The node's network per GPU, one direction, when the catalog has no figure
 * for the GPU: one 400 Gb/s NIC per GPU on Hopper and Blackwell NVSwitch
 * boards (NVIDIA DGX H100: eight ConnectX-7 400 Gb/s), one 200 Gb/s per GPU
 * on A100 boards (DGX A100: eight HDR 200 Gb/s), one 100 Gb/s uplink per
 * node for PCIe servers (AWS g5.48xlarge: 100 Gbps for eight A10G). */
static double default_scale_out(const struct gs_plan_gpu *g, uint64_t node)
{
    switch ((enum gs_link)g->view.link) {
    case GS_LINK_NVSWITCH:
        return 400e9 / 8;
    case GS_LINK_NVLINK:
        return 200e9 / 8;
    case GS_LINK_PCIE:
    default:
        return 100e9 / 8 / (double)node;
    }
}

/* The data-parallel group's slowest link per GPU, one direction: NVLink or PCIe
 * within a node; across nodes, the node's network: the GPU's scale-out figure
 * (the catalog's scale_out_gb_s), else the board class's default above. */
static double group_link(const struct gs_plan_gpu *g, uint64_t gpus)
{
    const double intra = gs_perf_link_bytes_per_s(&g->perf);
    const uint64_t node = node_size(g);
    if (gpus <= node)
        return intra;
    const double inter =
        g->scale_out_bytes_per_s > 0 ? g->scale_out_bytes_per_s : default_scale_out(g, node);
    return inter < intra ? inter : intra;
}

/* `t` and `zero` (the layout's tensor degree and ZeRO stage) give the
 * data-parallel communication; t == 0 leaves it out (a lower bound on time). */
static void train_input(const struct train_ctx *c, uint64_t gpus, uint64_t p, enum gs_recompute rc,
                        uint64_t t, unsigned zero, struct gs_train_input *in)
{
    const struct gs_model_spec *m = c->m;
    memset(in, 0, sizeof(*in));
    in->flop_parameters = c->scratch.has_breakdown ? c->scratch.params.active : c->scratch.parameters;
    in->moe = m->has_arch && gs_arch_moe_block(&m->arch) != NULL;
    in->method = c->scratch.method;
    in->recompute = rc;
    in->regime = c->scratch.regime;
    in->gpus = gpus;
    in->pipeline = p;
    in->micro_batches = c->w->training.gradient_accumulation_steps;
    in->tokens = c->d->kind == GS_DEMAND_TRAINING ? c->d->training_tokens : 0;
    if (t == 0)
        return;
    const uint64_t model = t * (p ? p : 1);
    in->data_parallel = gpus / (model ? model : 1);
    in->zero_stage = zero;
    const struct gs_estimate *one = &c->scratch; /* the whole model on one GPU */
    in->weight_bytes = (double)one->per_gpu.weights_bytes / (double)model;
    const double grad_bytes = c->scratch.regime == GS_REGIME_FP32 || c->scratch.regime == GS_REGIME_AMP
                                  ? 4
                                  : 2;
    in->gradient_bytes = (double)one->trainable_parameters * grad_bytes / (double)model;
    const struct gs_training *tr = &c->w->training;
    in->tokens_per_step = (double)tr->batch_size * (double)tr->sequence_length *
                          (double)(tr->gradient_accumulation_steps ? tr->gradient_accumulation_steps
                                                                   : 1) *
                          (double)in->data_parallel;
    in->link_bytes_per_s = group_link(c->gpu, gpus);
    in->tensor = t;
    in->tensor_link_bytes_per_s = gs_perf_link_bytes_per_s(&c->gpu->perf);
    if (c->m->has_arch) {
        in->layers = c->m->arch.num_hidden_layers;
        in->hidden = c->m->arch.hidden_size;
    }
}

static bool has_deadline(const struct gs_demand *d)
{
    return d->kind == GS_DEMAND_TRAINING && d->deadline_days > 0 && d->training_tokens > 0;
}

/* Whether the layout finishes in time (always, when the deadline is off). */
static bool meets_deadline(const struct train_ctx *c, uint64_t gpus, uint64_t p,
                           enum gs_recompute rc, uint64_t t, unsigned zero)
{
    if (!c->use_deadline)
        return true;
    struct gs_train_input in;
    struct gs_train_result r;
    train_input(c, gpus, p, rc, t, zero, &in);
    return gs_perf_train(&in, &c->gpu->perf, c->eff, &r) && r.seconds <= c->d->deadline_days * 86400;
}

/* The request's accumulation steps (0 counts as 1). */
static uint64_t accumulation_of(const struct gs_workload *w)
{
    return w->training.gradient_accumulation_steps ? w->training.gradient_accumulation_steps : 1;
}

/* Makes c->w the request at micro-batch `micro` (a divisor of its batch_size) with the
 * accumulation that keeps its global batch: the same sequences per optimizer step, so the
 * same optimization, in more, smaller forward and backward passes (HF Trainer
 * gradient_accumulation_steps, DeepSpeed gradient_accumulation_steps, Megatron-LM
 * --micro-batch-size under --global-batch-size). Memory is the micro-batch's: activations
 * scale with it, the gradients accumulate in place. */
static void batch_split(struct train_ctx *c, uint64_t micro)
{
    const uint64_t batch = c->request->training.batch_size ? c->request->training.batch_size : 1;
    if (micro >= batch) {
        c->w = c->request;
        return;
    }
    c->split = *c->request;
    c->split.training.batch_size = micro;
    c->split.training.gradient_accumulation_steps = accumulation_of(c->request) * (batch / micro);
    c->w = &c->split;
}

/* The micro-batch after `micro` to try when a layout does not fit: the next smaller divisor
 * of the request's batch_size by halving (b, b/2, b/4 ... while exact, then 1), 0 when none
 * is left or accumulation is not allowed. */
static uint64_t next_micro(const struct train_ctx *c, uint64_t micro)
{
    const uint64_t batch = c->request->training.batch_size ? c->request->training.batch_size : 1;
    if (!c->l->allow_accumulation || micro <= 1)
        return 0;
    if (micro % 2 == 0 && batch % (micro / 2) == 0)
        return micro / 2;
    return 1;
}

/* The plan's micro-batch and accumulation: the workload it was sized with. */
static void record_batch(const struct train_ctx *c, struct gs_plan *p)
{
    p->micro_batch = c->w->training.batch_size ? c->w->training.batch_size : 1;
    p->accumulation_steps = accumulation_of(c->w);
}

/* Tries the options of one layout in preference order: no recomputation before selective
 * before full; at each, the request's micro-batch before smaller ones (accumulating the rest:
 * a larger micro-batch runs larger matrix products, recomputation runs the forward twice);
 * then no ZeRO before ZeRO-1, 2, 3; offload last. The most frugal combination (the smallest
 * micro-batch too) is tried first to skip layouts that cannot fit at all. On success c->w is
 * the workload at the plan's micro-batch. */
static bool try_layout(struct train_ctx *c, uint64_t t, uint64_t p, uint64_t dp, uint64_t e,
                       struct gs_plan *out)
{
    struct gs_workload w;
    const uint64_t shards = dp; /* ZeRO shards over data x context; context is 1 here */
    int top_zero = -1, top_rc = -1;
    /* ZeRO needs shards to gain anything: with one data-parallel rank, stage 0 stands
     * for all of them unless the caller allows nothing else */
    const bool zero_free = shards > 1 || !(c->l->zero_stages & 1u);
    for (int s = 3; s >= 0 && top_zero < 0; s--)
        if (c->l->zero_stages & (1u << s) && (s == 0 || zero_free))
            top_zero = s;
    for (int r = GS_RECOMPUTE_FULL; r >= 0 && top_rc < 0; r--)
        if (c->l->recompute & (1u << r))
            top_rc = r;
    if (top_zero < 0 || top_rc < 0)
        return false;
    /* a framework's pipeline runs only the ZeRO stages it allows (DeepSpeed 1) */
    if (p > 1 && top_zero > (int)gs_workload_pipeline_zero_max(c->w))
        top_zero = (int)gs_workload_pipeline_zero_max(c->w);
    const enum gs_offload top_off = !c->l->allow_offload || top_zero == 0 ? GS_OFFLOAD_NONE
                                    : top_zero == 3 ? GS_OFFLOAD_OPTIMIZER_AND_PARAMS
                                                    : GS_OFFLOAD_OPTIMIZER;
    uint64_t smallest = c->request->training.batch_size ? c->request->training.batch_size : 1;
    for (uint64_t next = next_micro(c, smallest); next != 0; next = next_micro(c, next))
        smallest = next;
    batch_split(c, smallest);
    training_workload(c->w, c->gpu, t, p, dp, e, (unsigned)top_zero, (enum gs_recompute)top_rc,
                      top_off, &w);
    struct gs_estimate frugal;
    if (!training_fits(c->m, &w, c->gpu, &frugal))
        return false;
    /* recomputation costs time (full: a second forward pass), ZeRO stages and offload
     * only memory in this model, so the gentlest recomputation comes first */
    for (int r = GS_RECOMPUTE_NONE; r <= top_rc; r++) {
        if (!(c->l->recompute & (1u << r)))
            continue;
        /* a lower bound first (no communication, the smallest micro-batch's bubble): this
         * recomputation, or this pipeline's bubble, may be too slow already */
        batch_split(c, smallest);
        if (!meets_deadline(c, t * p * dp, p, (enum gs_recompute)r, 0, 0))
            continue;
        uint64_t micro = c->request->training.batch_size ? c->request->training.batch_size : 1;
        for (; micro != 0; micro = next_micro(c, micro)) {
            batch_split(c, micro);
            for (unsigned off = GS_OFFLOAD_NONE; off <= (unsigned)top_off; off++) {
                for (int s = 0; s <= top_zero; s++) {
                    if (!(c->l->zero_stages & (1u << s)) || (s > 0 && !zero_free))
                        continue;
                    if (off == GS_OFFLOAD_OPTIMIZER && s == 0)
                        continue;
                    if (off == GS_OFFLOAD_OPTIMIZER_AND_PARAMS && s != 3)
                        continue;
                    training_workload(c->w, c->gpu, t, p, dp, e, (unsigned)s, (enum gs_recompute)r,
                                      (enum gs_offload)off, &w);
                    if (!training_fits(c->m, &w, c->gpu, &out->estimate))
                        continue;
                    if (!meets_deadline(c, t * p * dp, p, (enum gs_recompute)r, t, (unsigned)s))
                        continue; /* the data-parallel traffic of this stage makes it too slow */
                    out->tensor = t;
                    out->pipeline = p;
                    out->data = dp;
                    out->expert = e;
                    out->zero_stage = (unsigned)s;
                    out->recompute = (enum gs_recompute)r;
                    out->offload = (enum gs_offload)off;
                    record_batch(c, out);
                    return true;
                }
            }
        }
    }
    return false;
}

/* Expert degrees to try for `dp` data-parallel ranks: 1, then (MoE, when
 * allowed) each that divides the experts and t x dp, smallest first. */
static size_t expert_degrees(const struct train_ctx *c, uint64_t t, uint64_t dp, uint64_t out[16])
{
    size_t n = 0;
    out[n++] = 1;
    const struct gs_block *moe = c->m->has_arch ? gs_arch_moe_block(&c->m->arch) : NULL;
    if (!c->l->allow_expert || moe == NULL || moe->mlp.experts < 2)
        return n;
    const uint64_t experts = moe->mlp.experts;
    for (uint64_t e = 2; e <= experts && e <= t * dp && n < 16; e *= 2)
        if (experts % e == 0 && (t * dp) % e == 0)
            out[n++] = e;
    return n;
}

/* GPU-hours per token relative to the ideal: recomputation's extra work over
 * the share of time the pipeline is busy and the GPUs are not waiting on
 * data-parallel communication. */
static double slowdown(const struct train_ctx *c, uint64_t n, const struct gs_plan *p)
{
    struct gs_train_input in;
    struct gs_train_result r;
    train_input(c, n, p->pipeline, p->recompute, p->tensor, p->zero_stage, &in);
    in.tokens = 1;
    if (!gs_perf_train(&in, &c->gpu->perf, c->eff, &r))
        return 1;
    return r.hardware_factor / (r.bubble_factor * r.comm_factor);
}

/* The layout for `n` GPUs: the first that fits in preference order (smallest
 * tensor degree, then pipeline, then expert degree); with a training demand,
 * the one that wastes the least time among those that fit, ties to the
 * earlier. */
static bool try_count(struct train_ctx *c, uint64_t n, struct gs_plan *out)
{
    /* too few GPUs for the deadline even at the fastest settings */
    c->w = c->request;
    if (!meets_deadline(c, n, 1, GS_RECOMPUTE_NONE, 0, 0))
        return false;
    const bool cheapest = c->d->kind == GS_DEMAND_TRAINING && c->d->training_tokens > 0;
    const uint64_t tmax = max_tensor(c->gpu, c->l);
    const uint64_t layers = c->m->has_arch ? c->m->arch.num_hidden_layers : 1;
    bool found = false;
    double best = 0;
    struct gs_plan candidate;
    for (uint64_t t = 1; t <= tmax && t <= n; t *= 2) {
        if (n % t != 0)
            continue;
        for (uint64_t p = 1; p <= n / t && p <= layers; p++) {
            if ((n / t) % p != 0)
                continue;
            const uint64_t dp = n / (t * p);
            uint64_t experts[16];
            const size_t ne = expert_degrees(c, t, dp, experts);
            for (size_t k = 0; k < ne; k++) {
                struct gs_parallelism par;
                gs_parallelism_defaults(&par);
                par.tensor = t;
                par.pipeline = p;
                par.data = dp;
                par.expert = experts[k];
                par.sequence_parallel = t > 1;
                if (!layout_valid(c->m, &par))
                    continue;
                memset(&candidate, 0, sizeof(candidate));
                if (!try_layout(c, t, p, dp, experts[k], &candidate))
                    continue;
                if (!cheapest) {
                    *out = candidate;
                    return true;
                }
                const double waste = slowdown(c, n, &candidate);
                if (!found || waste < best * (1 - 1e-12)) {
                    *out = candidate;
                    best = waste;
                    found = true;
                }
                if (best <= 1)
                    return true; /* nothing beats no waste */
            }
        }
    }
    return found;
}

/* The first count (ascending, from counts[*at]) with a layout that fits
 * and, when use_deadline, finishes in time; *at is left at its index. */
static bool first_count(struct train_ctx *c, const uint64_t *counts, size_t nc, size_t *at,
                        struct gs_plan *out)
{
    for (; *at < nc; (*at)++) {
        memset(out, 0, sizeof(*out));
        if (try_count(c, counts[*at], out))
            return true;
    }
    return false;
}

/* Fills what follows from the layout: counts, throughput (at the plan's micro-batch and
 * accumulation), price. */
static void complete_training(struct train_ctx *c, uint64_t gpus, struct gs_plan *out)
{
    batch_split(c, out->micro_batch);
    out->gpu_count = gpus;
    out->nodes = nodes_for(gpus, node_size(c->gpu));
    out->replicas = 1;
    out->format = gs_workload_format(c->w);
    if (c->d->kind == GS_DEMAND_TRAINING && c->d->training_tokens > 0) {
        struct gs_train_input in;
        train_input(c, gpus, out->pipeline, out->recompute, out->tensor, out->zero_stage, &in);
        out->has_throughput = gs_perf_train(&in, &c->gpu->perf, c->eff, &out->train);
    }
    price_plan(c->gpu, out);
}

/* What a whole run costs: dollars when priced, GPU-hours otherwise. */
static double run_cost(const struct gs_plan *p)
{
    return p->has_price ? p->total_cost : p->train.gpu_hours;
}

static enum gs_status search_training(const struct gs_model_spec *m, const struct gs_workload *w,
                                      const struct gs_plan_gpu *gpu,
                                      const struct gs_plan_limits *l, const struct gs_demand *d,
                                      const struct gs_efficiency *eff, uint64_t exact,
                                      struct gs_plan *out, enum gs_plan_reject *why,
                                      struct gs_error *err)
{
    struct train_ctx c = {.m = m, .w = w, .request = w, .gpu = gpu, .l = l, .d = d, .eff = eff,
                          .use_deadline = has_deadline(d)};
    /* one estimate at the request's own layout: it validates the request and gives the
     * regime, method and parameter counts the throughput model needs */
    struct gs_workload probe = *w;
    gs_parallelism_defaults(&probe.parallelism);
    enum gs_status st = gs_estimate_compute(m, &probe, &c.scratch, err);
    if (st != GS_OK)
        return st;
    const bool wants_speed = d->kind == GS_DEMAND_TRAINING && d->training_tokens > 0;
    if (wants_speed && gs_perf_peak_flops(&gpu->perf, c.scratch.regime) <= 0) {
        *why = GS_REJECT_NO_THROUGHPUT;
        return GS_OK;
    }
    uint64_t counts[COUNTS_MAX];
    size_t nc = 0;
    if (exact)
        counts[nc++] = exact;
    else
        nc = gpu_counts(node_size(gpu), l->max_gpus, counts);
    size_t at = 0;
    if (!first_count(&c, counts, nc, &at, out)) {
        /* fitting without the deadline means it is the deadline that is missed */
        struct gs_plan spare;
        size_t again = 0;
        c.use_deadline = false;
        *why = has_deadline(d) && first_count(&c, counts, nc, &again, &spare)
                   ? GS_REJECT_MISSES_DEMAND
                   : GS_REJECT_DOES_NOT_FIT;
        return GS_OK;
    }
    const uint64_t first = counts[at];
    complete_training(&c, first, out);
    /* without a price any plan is rejected: there is no cheaper run to look for */
    const bool first_plan = l->price_required && !gpu->has_price;
    if (wants_speed && out->has_throughput && !first_plan) {
        /* more GPUs can make a cheaper run: no recomputation, a shorter pipeline */
        struct gs_plan other;
        for (size_t i = at + 1; i < nc && counts[i] <= 4 * first; i++) {
            /* GPU-hours fall with more GPUs only through a smaller bubble or no
             * recomputation: with neither left, nothing can be cheaper */
            if (out->train.bubble_factor >= 1 && out->train.hardware_factor <= 1)
                break;
            memset(&other, 0, sizeof(other));
            if (!try_count(&c, counts[i], &other))
                continue;
            complete_training(&c, counts[i], &other);
            if (other.has_throughput && run_cost(&other) < run_cost(out) * (1 - 1e-9))
                *out = other;
        }
    }
    *why = GS_REJECT_NONE;
    return GS_OK;
}

/* ---------------------------------------------------------------- the entry */

static void finish(const struct gs_plan_gpu *gpu, struct gs_plan *plan)
{
    const struct gs_estimate *est = &plan->estimate;
    if (est->has_serving && est->serving.has_budget) {
        const struct gs_budget *b = &est->serving.budget;
        const int64_t spent = (int64_t)(b->weights_bytes + b->activation_bytes + b->non_torch_bytes +
                                        b->cuda_graph_bytes);
        plan->limit_bytes = b->kv_bytes + spent > 0 ? (uint64_t)(b->kv_bytes + spent) : 0;
        plan->headroom_bytes = b->kv_bytes - (int64_t)est->serving.kv_needed_bytes;
    } else {
        plan->limit_bytes = gpu->view.total_bytes;
        plan->headroom_bytes = (int64_t)gpu->view.total_bytes - (int64_t)est->per_gpu.total_bytes;
    }
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
        st = search_training(model, workload, gpu, limits, demand, eff, gpu_count, out, why, err);
    }
    if (st != GS_OK || *why != GS_REJECT_NONE)
        return st;
    finish(gpu, out);
    if (!out->has_price && (limits->max_cost_per_hour > 0 || limits->price_required))
        *why = GS_REJECT_NO_PRICE;
    else if (limits->max_cost_per_hour > 0 && out->cost_per_hour > limits->max_cost_per_hour)
        *why = GS_REJECT_OVER_BUDGET;
    return GS_OK;
}
