/*
 * plan_training.c - the training plan search (see plan_common.h, plan_search_training): GPU
 * counts in ascending order, at each the layouts (tensor, pipeline, expert) in preference
 * order, at each the ZeRO stage, recomputation, micro-batch and offload that fit, and with a
 * training demand the cheapest run among up to four times the first count that fits.
 */
#include "plan_common.h"

#include "estimate_scope.h"

#include "gs/capability.h"
#include "gs/framework.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

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
    /* with expert parallelism whole experts, as MoE recipes run them (Megatron-LM's default
     * would split each over the tensor ranks too: the same bytes as expert degree e x t);
     * without, the framework's split */
    w->parallelism.expert_tensor = e > 1 ? 1 : 0;
    w->parallelism.zero_stage = zero;
    w->parallelism.offload = off;
    w->parallelism.sequence_parallel = t > 1;
    w->parallelism.gpus_per_node = plan_node_size(gpu);
    /* a pipeline runs the schedule the request names (parallelism.virtual_stages: model chunks
     * a stage), where the layout allows it (training_fits) */
    w->parallelism.stages.chunks = p > 1 ? base->parallelism.stages.chunks : 0;
    w->training.recompute = rc;
    w->gpu = gpu->view;
}

void gs_plan_training_workload(const struct gs_workload *request, const struct gs_plan *plan,
                               const struct gs_plan_gpu *gpu, struct gs_workload *out)
{
    training_workload(request, gpu, plan->tensor, plan->pipeline, plan->data,
                      plan->expert ? plan->expert : 1, plan->zero_stage, plan->recompute,
                      plan->offload, out);
    /* the schedule the layout ran (training_fits) */
    const uint64_t chunks = gs_stage_chunks(&plan->estimate.stages);
    out->parallelism.stages.chunks = plan->pipeline > 1 && chunks > 1 ? (uint16_t)chunks : 0;
    /* batch_split's micro-batch, where the request has a batch to split */
    if (request->training.batch_size && plan->micro_batch) {
        out->training.batch_size = plan->micro_batch;
        out->training.gradient_accumulation_steps = plan->accumulation_steps;
    }
    if (plan->sync_each_batch) /* fits_synced's switch */
        out->training.framework.sync_each_batch = GS_KNOB_ON;
}

/* Whether the layout in `w` fits, its estimate in `est`. A pipeline that runs the request's
 * interleaved schedule and cannot (the stages' layers do not fall into the chunks,
 * Megatron-LM's accumulation is not a multiple of the stages, torch's rounds are unequal: the
 * estimate's 400s) or does not fit (its first stage holds more micro-batches' activations)
 * runs the plain one instead, and `w` says so. */
static bool training_fits(const struct gs_model_spec *m, struct gs_workload *w,
                          const struct gs_plan_gpu *gpu, const struct gs_estimate_scope *scope,
                          struct gs_estimate *est)
{
    if (gs_estimate_compute_scoped(m, w, scope, est, NULL) == GS_OK &&
        est->per_gpu.total_bytes <= gpu->view.total_bytes)
        return true;
    if (w->parallelism.stages.chunks <= 1)
        return false;
    w->parallelism.stages.chunks = 0;
    return gs_estimate_compute_scoped(m, w, scope, est, NULL) == GS_OK &&
           est->per_gpu.total_bytes <= gpu->view.total_bytes;
}

/* After training_fits said no: where FSDP's no_sync() accumulation kept the whole gradient
 * unsharded (`est`, that estimate) in a loop that has the switch, whether the layout fits with
 * every micro-batch reduce-scattered instead (the gradient stays sharded, for more traffic:
 * perf.c); `w` and `est` are left at that try. */
static bool fits_synced(const struct gs_model_spec *m, struct gs_workload *w,
                        const struct gs_plan_gpu *gpu, const struct gs_plan_limits *l,
                        const struct gs_estimate_scope *scope, struct gs_estimate *est)
{
    if (!est->sync_each_batch_helps || !l->allow_sync_each_batch)
        return false;
    w->training.framework.sync_each_batch = GS_KNOB_ON;
    return training_fits(m, w, gpu, scope, est);
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
    struct gs_estimate_scope scope; /* the layouts' estimates, with the search's memo */
    struct gs_estimate scratch; /* the request at one GPU: regime, method, parameter counts */
    bool use_deadline;
};

/* `t` and `e` (the layout's tensor and expert degrees) and `layout` (its estimate) give the
 * communication; t == 0 or no estimate leaves it out (a lower bound on time). */
static void train_input(const struct train_ctx *c, uint64_t gpus, uint64_t p, enum gs_recompute rc,
                        uint64_t t, uint64_t e, const struct gs_estimate *layout,
                        struct gs_train_input *in)
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
    /* the layout's schedule; before its estimate, the request's (the fewest bubble slots) */
    in->virtual_stages = layout != NULL ? gs_stage_chunks(&layout->stages)
                                        : (p > 1 ? c->w->parallelism.stages.chunks : 0);
    in->in_turn = p > 1 && gs_workload_device_map(c->request);
    in->tokens = c->d->kind == GS_DEMAND_TRAINING ? c->d->training_tokens : 0;
    if (t == 0 || layout == NULL)
        return;
    const uint64_t model = t * (p ? p : 1);
    in->data_parallel = gpus / (model ? model : 1);
    /* the layout's own: its framework, ZeRO stage, accumulation and gradient sync */
    in->data_parallel_bytes = layout->data_parallel_bytes;
    in->stage_flop_parameters = layout->stage_flop_parameters;
    const struct gs_training *tr = &c->w->training;
    in->tokens_per_step = (double)tr->batch_size * (double)tr->sequence_length *
                          (double)(tr->gradient_accumulation_steps ? tr->gradient_accumulation_steps
                                                                   : 1) *
                          (double)in->data_parallel;
    in->link_bytes_per_s = plan_group_link(c->gpu, gpus);
    in->tensor = t;
    in->tensor_link_bytes_per_s = gs_perf_link_bytes_per_s(&c->gpu->perf);
    if (c->m->has_arch) {
        in->layers = c->m->arch.num_hidden_layers;
        in->hidden = c->m->arch.hidden_size;
        const struct gs_block *moe = gs_arch_moe_block(&c->m->arch);
        if (moe != NULL) {
            in->moe_layers = gs_arch_moe_layers(&c->m->arch);
            in->top_k = moe->mlp.top_k;
            in->shared_experts = moe->mlp.shared_width > 0;
        }
        if (moe != NULL && e > 1) {
            in->expert = e;
            in->expert_link_bytes_per_s = plan_group_link(c->gpu, in->expert);
        }
        if (moe != NULL && layout->expert_tensor > 1) {
            in->expert_tensor = layout->expert_tensor;
            in->expert_tensor_link_bytes_per_s = plan_group_link(c->gpu, in->expert_tensor);
        }
    }
}

static bool has_deadline(const struct gs_demand *d)
{
    return d->kind == GS_DEMAND_TRAINING && d->deadline_days > 0 && d->training_tokens > 0;
}

/* Whether the layout finishes in time (always, when the deadline is off); `layout` as for
 * train_input. */
static bool meets_deadline(const struct train_ctx *c, uint64_t gpus, uint64_t p,
                           enum gs_recompute rc, uint64_t t, uint64_t e,
                           const struct gs_estimate *layout)
{
    if (!c->use_deadline)
        return true;
    struct gs_train_input in;
    struct gs_train_result r;
    train_input(c, gpus, p, rc, t, e, layout, &in);
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

/* The smallest micro-batch the search may split the request's batch into (next_micro to the
 * end): the most micro-batches a step, the smallest pipeline bubble. */
static uint64_t smallest_micro(const struct train_ctx *c)
{
    uint64_t smallest = c->request->training.batch_size ? c->request->training.batch_size : 1;
    for (uint64_t next = next_micro(c, smallest); next != 0; next = next_micro(c, next))
        smallest = next;
    return smallest;
}

/* The least recomputation the limits allow (full when they allow none, which nothing fits). */
static enum gs_recompute gentlest_recompute(const struct train_ctx *c)
{
    for (int r = GS_RECOMPUTE_NONE; r <= GS_RECOMPUTE_FULL; r++)
        if (c->l->recompute & (1u << r))
            return (enum gs_recompute)r;
    return GS_RECOMPUTE_FULL;
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
    const uint64_t smallest = smallest_micro(c);
    batch_split(c, smallest);
    /* the deadline's lower bound below at the gentlest recomputation, before any estimate:
     * a layout that misses it there misses it at every option (same answers, fewer
     * estimates: a long pipeline's bubble rules most out) */
    if (!meets_deadline(c, t * p * dp, p, gentlest_recompute(c), 0, 0, NULL))
        return false;
    training_workload(c->w, c->gpu, t, p, dp, e, (unsigned)top_zero, (enum gs_recompute)top_rc,
                      top_off, &w);
    struct gs_estimate frugal;
    if (!training_fits(c->m, &w, c->gpu, &c->scope, &frugal)) {
        /* FSDP's no_sync() accumulation holds the whole gradient unsharded, so the smallest
         * micro-batch is not the most frugal there: splitting the batch starts it, and the
         * request's own micro-batch may fit where the split does not */
        const uint64_t held = frugal.no_sync_gradient_bytes;
        if (!fits_synced(c->m, &w, c->gpu, c->l, &c->scope, &frugal)) {
            if (!held || c->w == c->request)
                return false;
            batch_split(c, UINT64_MAX); /* the request's own micro-batch */
            training_workload(c->w, c->gpu, t, p, dp, e, (unsigned)top_zero,
                              (enum gs_recompute)top_rc, top_off, &w);
            if (!training_fits(c->m, &w, c->gpu, &c->scope, &frugal) &&
                !fits_synced(c->m, &w, c->gpu, c->l, &c->scope, &frugal))
                return false;
        }
    }
    /* recomputation costs time (full: a second forward pass), ZeRO stages and offload
     * only memory in this model, so the gentlest recomputation comes first */
    for (int r = GS_RECOMPUTE_NONE; r <= top_rc; r++) {
        if (!(c->l->recompute & (1u << r)))
            continue;
        /* a lower bound first (no communication, the smallest micro-batch's bubble): this
         * recomputation, or this pipeline's bubble, may be too slow already */
        batch_split(c, smallest);
        if (!meets_deadline(c, t * p * dp, p, (enum gs_recompute)r, 0, 0, NULL))
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
                    bool synced = false;
                    if (!training_fits(c->m, &w, c->gpu, &c->scope, &out->estimate)) {
                        if (!fits_synced(c->m, &w, c->gpu, c->l, &c->scope, &out->estimate))
                            continue;
                        synced = true;
                    }
                    /* the data-parallel traffic of this stage may make it too slow */
                    if (!meets_deadline(c, t * p * dp, p, (enum gs_recompute)r, t, e, &out->estimate))
                        continue;
                    out->sync_each_batch = synced;
                    out->tensor = t;
                    out->pipeline = p;
                    out->data = dp;
                    out->expert = e;
                    out->expert_tensor = out->estimate.expert_tensor;
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
 * the share of time the pipeline is busy (its bubble, and its stages waiting on the
 * busiest) and the GPUs are not waiting on data-parallel communication. */
static double slowdown(const struct train_ctx *c, uint64_t n, const struct gs_plan *p)
{
    struct gs_train_input in;
    struct gs_train_result r;
    train_input(c, n, p->pipeline, p->recompute, p->tensor, p->expert, &p->estimate, &in);
    in.tokens = 1;
    if (!gs_perf_train(&in, &c->gpu->perf, c->eff, &r))
        return 1;
    return r.hardware_factor / (r.bubble_factor * r.stage_balance * r.comm_factor);
}

/* A lower bound on slowdown() for any layout of `n` GPUs with `p` stages: the bubble at the
 * smallest micro-batch the search may split the batch into (the most micro-batches), the
 * gentlest recomputation allowed, even stages and no time waiting on communication
 * (stage_balance and comm_factor 1). Leaves c->w the request. */
static double bubble_bound(struct train_ctx *c, uint64_t n, uint64_t p)
{
    batch_split(c, smallest_micro(c));
    struct gs_train_input in;
    struct gs_train_result r;
    train_input(c, n, p, gentlest_recompute(c), 0, 0, NULL, &in);
    in.tokens = 1;
    c->w = c->request;
    if (!gs_perf_train(&in, &c->gpu->perf, c->eff, &r))
        return 0; /* no bound: try the layout */
    return r.hardware_factor / r.bubble_factor;
}

/* The layout for `n` GPUs: the first that fits in preference order (smallest
 * tensor degree, then pipeline, then expert degree); with a training demand,
 * the one that wastes the least time among those that fit, ties to the
 * earlier. */
static bool try_count(struct train_ctx *c, uint64_t n, struct gs_plan *out)
{
    /* too few GPUs for the deadline even at the fastest settings */
    c->w = c->request;
    if (!meets_deadline(c, n, 1, GS_RECOMPUTE_NONE, 0, 0, NULL))
        return false;
    const bool cheapest = c->d->kind == GS_DEMAND_TRAINING && c->d->training_tokens > 0;
    const uint64_t tmax = plan_max_tensor(c->gpu, c->l);
    const uint64_t layers = c->m->has_arch ? c->m->arch.num_hidden_layers : 1;
    bool found = false;
    double best = 0;
    struct gs_plan candidate;
    for (uint64_t t = 1; t <= tmax && t <= n; t *= 2) {
        if (n % t != 0)
            continue;
        const uint64_t pmax = gs_workload_pipelines(c->request) ? layers : 1;
        for (uint64_t p = 1; p <= n / t && p <= pmax; p++) {
            if ((n / t) % p != 0)
                continue;
            const uint64_t dp = n / (t * p);
            /* a device_map is one process's GPUs, nothing beside it (gs_workload_device_map) */
            if (p > 1 && (t > 1 || dp > 1) && gs_workload_device_map(c->request))
                continue;
            /* the least this pipeline can waste (its bubble at the most micro-batches, the
             * gentlest recomputation, no communication) cannot beat the best so far */
            if (cheapest && found && p > 1 && bubble_bound(c, n, p) >= best * (1 - 1e-12))
                continue;
            uint64_t experts[16];
            const size_t ne = expert_degrees(c, t, dp, experts);
            for (size_t k = 0; k < ne; k++) {
                if (p > 1 && experts[k] > 1 && gs_workload_device_map(c->request))
                    continue;
                struct gs_parallelism par;
                gs_parallelism_defaults(&par);
                par.tensor = t;
                par.pipeline = p;
                par.data = dp;
                par.expert = experts[k];
                par.expert_tensor = experts[k] > 1 ? 1 : 0;
                par.sequence_parallel = t > 1;
                par.stages.split = gs_workload_stage_split(c->request);
                if (!plan_layout_valid(c->m, &par))
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
    out->nodes = plan_nodes_for(gpus, plan_node_size(c->gpu));
    out->replicas = 1;
    out->format = gs_workload_format(c->w);
    if (c->d->kind == GS_DEMAND_TRAINING && c->d->training_tokens > 0) {
        struct gs_train_input in;
        train_input(c, gpus, out->pipeline, out->recompute, out->tensor, out->expert,
                    &out->estimate, &in);
        out->has_throughput = gs_perf_train(&in, &c->gpu->perf, c->eff, &out->train);
    }
    plan_price(c->gpu, out);
}

/* What a whole run costs on this GPU type, in GPU-hours: priced, its dollars are the
 * GPU-hours times the one price (plan_price), so the order is the same at any price and the
 * choice never depends on it (gs_plan_reprice relies on it). */
static double run_cost(const struct gs_plan *p)
{
    return p->train.gpu_hours;
}

enum gs_status plan_search_training(const struct gs_model_spec *m, const struct gs_workload *w,
                                    const struct gs_plan_gpu *gpu, const struct gs_plan_limits *l,
                                    const struct gs_demand *d, const struct gs_efficiency *eff,
                                    uint64_t exact, struct gs_plan_memo *memo, struct gs_plan *out,
                                    enum gs_plan_reject *why, struct gs_error *err)
{
    struct train_ctx c = {.m = m, .w = w, .request = w, .gpu = gpu, .l = l, .d = d, .eff = eff,
                          .use_deadline = has_deadline(d)};
    c.scope.activation_memo = memo != NULL ? &memo->activation : NULL;
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
    uint64_t counts[PLAN_COUNTS_MAX];
    size_t nc = 0;
    if (exact)
        counts[nc++] = exact;
    else
        nc = plan_gpu_counts(plan_node_size(gpu), l->max_gpus, counts);
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
            /* GPU-hours fall with more GPUs only through a smaller bubble, no
             * recomputation, or less waiting on communication (a layout with less tensor
             * parallelism, or the experts over more ranks): with none left, nothing can be
             * cheaper */
            if (out->train.bubble_factor >= 1 && out->train.hardware_factor <= 1 &&
                out->train.comm_factor >= 1)
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
