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

/* What the search learned about one layout shape (its tensor, pipeline and expert degrees)
 * on this GPU type, to pass over the counts where that shape cannot succeed (shape_hopeless).
 * A count's layout of the shape differs from another's by its data-parallel degree alone. */
struct shape_note {
    uint64_t traffic; /* the least data-parallel bytes a step of any of its options sends at
                         degree traffic_dp (estimate data_parallel_bytes) */
    uint32_t tensor, pipeline, expert; /* the shape; tensor 0: a free slot */
    uint32_t unfit_dp;   /* its most frugal options fit at no data-parallel degree from 2 to
                            this one (0: none known), at counts on the same side of one node as
                            unfit_cross says */
    uint32_t traffic_dp; /* 0: no bound */
    uint16_t misses;     /* counts at which try_layout found nothing for it */
    bool unfit_cross, fit_probed, traffic_probed;
};

/* Slots of the search's notes (open addressing); a shape that finds none goes without. */
#define SHAPE_NOTES 4096

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
    struct gs_estimate scratch;     /* the request at one GPU: regime, method, parameter counts */
    bool use_deadline;
    unsigned failed;        /* estimates that answered an error (sized): a 400 is not "too large" */
    uint64_t node;          /* GPUs a node (plan_node_size) */
    const uint64_t *counts; /* the counts it tries, ascending */
    size_t count_n;
    unsigned missed_counts; /* counts first_count found no layout at */
    struct shape_note *shapes; /* SHAPE_NOTES of them, cleared on first use (shape_note) */
    bool shapes_ready;
};

/* An estimate of `w` in the search's scope; false, counted in c->failed, when it is an error. */
static bool sized(struct train_ctx *c, const struct gs_workload *w, struct gs_estimate *est)
{
    if (gs_estimate_compute_scoped(c->m, w, &c->scope, est, NULL) == GS_OK)
        return true;
    c->failed++;
    return false;
}

/* Whether the layout in `w` fits, its estimate in `est`. A pipeline that runs the request's
 * interleaved schedule and cannot (the stages' layers do not fall into the chunks,
 * Megatron-LM's accumulation is not a multiple of the stages, torch's rounds are unequal: the
 * estimate's 400s) or does not fit (its first stage holds more micro-batches' activations)
 * runs the plain one instead, and `w` says so. */
static bool training_fits(struct train_ctx *c, struct gs_workload *w, struct gs_estimate *est)
{
    if (sized(c, w, est) && est->per_gpu.total_bytes <= c->gpu->view.total_bytes)
        return true;
    if (w->parallelism.stages.chunks <= 1)
        return false;
    w->parallelism.stages.chunks = 0;
    return sized(c, w, est) && est->per_gpu.total_bytes <= c->gpu->view.total_bytes;
}

/* After training_fits said no: where FSDP's no_sync() accumulation kept the whole gradient
 * unsharded (`est`, that estimate) in a loop that has the switch, whether the layout fits with
 * every micro-batch reduce-scattered instead (the gradient stays sharded, for more traffic:
 * perf.c); `w` and `est` are left at that try. */
static bool fits_synced(struct train_ctx *c, struct gs_workload *w, struct gs_estimate *est)
{
    if (!est->sync_each_batch_helps || !c->l->allow_sync_each_batch)
        return false;
    w->training.framework.sync_each_batch = GS_KNOB_ON;
    return training_fits(c, w, est);
}

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

/* Micro-batches next_micro tries at most: the request's, then halvings of a 64-bit count. */
#define MICRO_TRIES 65

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

/* The options a layout's search runs through (try_layout), by its data-parallel degree: the
 * highest ZeRO stage, recomputation and offload the limits allow there. */
struct layout_tops {
    int zero, rc;
    enum gs_offload off;
    bool zero_free; /* ZeRO stages above 0 are tried */
};

static bool layout_tops(const struct train_ctx *c, uint64_t p, uint64_t dp, struct layout_tops *o)
{
    const uint64_t shards = dp; /* ZeRO shards over data x context; context is 1 here */
    o->zero = o->rc = -1;
    /* ZeRO needs shards to gain anything: with one data-parallel rank, stage 0 stands
     * for all of them unless the caller allows nothing else */
    o->zero_free = shards > 1 || !(c->l->zero_stages & 1u);
    for (int s = 3; s >= 0 && o->zero < 0; s--)
        if (c->l->zero_stages & (1u << s) && (s == 0 || o->zero_free))
            o->zero = s;
    for (int r = GS_RECOMPUTE_FULL; r >= 0 && o->rc < 0; r--)
        if (c->l->recompute & (1u << r))
            o->rc = r;
    if (o->zero < 0 || o->rc < 0)
        return false;
    /* a framework's pipeline runs only the ZeRO stages it allows (DeepSpeed 1) */
    if (p > 1 && o->zero > (int)gs_workload_pipeline_zero_max(c->request))
        o->zero = (int)gs_workload_pipeline_zero_max(c->request);
    o->off = !c->l->allow_offload || o->zero == 0 ? GS_OFFLOAD_NONE
             : o->zero == 3                       ? GS_OFFLOAD_OPTIMIZER_AND_PARAMS
                                                  : GS_OFFLOAD_OPTIMIZER;
    return true;
}

/* Whether a layout's search tries ZeRO stage `s` with offload `off` (try_layout's options). */
static bool option_allowed(const struct train_ctx *c, const struct layout_tops *o, unsigned off,
                           int s)
{
    if (!(c->l->zero_stages & (1u << s)) || (s > 0 && !o->zero_free))
        return false;
    if (off == GS_OFFLOAD_OPTIMIZER && s == 0)
        return false;
    return off != GS_OFFLOAD_OPTIMIZER_AND_PARAMS || s == 3;
}

/* Whether the layout's most frugal options fit: the smallest micro-batch at the highest ZeRO
 * stage, recomputation and offload allowed (each micro-batch synced where that helps), or the
 * request's own micro-batch where FSDP's no_sync accumulation makes the split the larger.
 * Where they do not, no option of the layout fits (try_layout). Leaves c->w at the last
 * micro-batch tried. */
static bool frugal_fits(struct train_ctx *c, uint64_t t, uint64_t p, uint64_t dp, uint64_t e,
                        const struct layout_tops *o)
{
    struct gs_workload w;
    struct gs_estimate frugal;
    batch_split(c, smallest_micro(c));
    training_workload(c->w, c->gpu, t, p, dp, e, (unsigned)o->zero, (enum gs_recompute)o->rc,
                      o->off, &w);
    if (training_fits(c, &w, &frugal))
        return true;
    /* FSDP's no_sync() accumulation holds the whole gradient unsharded, so the smallest
     * micro-batch is not the most frugal there: splitting the batch starts it, and the
     * request's own micro-batch may fit where the split does not */
    const uint64_t held = frugal.no_sync_gradient_bytes;
    if (fits_synced(c, &w, &frugal))
        return true;
    if (!held || c->w == c->request)
        return false;
    batch_split(c, UINT64_MAX); /* the request's own micro-batch */
    training_workload(c->w, c->gpu, t, p, dp, e, (unsigned)o->zero, (enum gs_recompute)o->rc,
                      o->off, &w);
    return training_fits(c, &w, &frugal) || fits_synced(c, &w, &frugal);
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
    struct layout_tops tops;
    if (!layout_tops(c, p, dp, &tops))
        return false;
    const int top_zero = tops.zero, top_rc = tops.rc;
    const enum gs_offload top_off = tops.off;
    const uint64_t smallest = smallest_micro(c);
    batch_split(c, smallest);
    /* the deadline's lower bound below at the gentlest recomputation, before any estimate:
     * a layout that misses it there misses it at every option (same answers, fewer
     * estimates: a long pipeline's bubble rules most out) */
    if (!meets_deadline(c, t * p * dp, p, gentlest_recompute(c), 0, 0, NULL))
        return false;
    if (!frugal_fits(c, t, p, dp, e, &tops))
        return false;
    /* An option (micro-batch, offload, ZeRO stage) that fit without syncing every micro-batch
     * and still missed the deadline misses it under every heavier recomputation: what its
     * time reads from the estimate (the data-parallel traffic, the busiest stage's parameters,
     * the expert tensor degree) comes from the model states and the layout, not from the
     * activations, and the time gs_perf_train gives grows with recomputation (the hardware
     * factor and the passes that run a layer's collectives: perf.c work_per_token,
     * comm_passes; syncing each micro-batch only adds traffic). So it is skipped there without
     * an estimate, one bit an option (offload x 4 + stage) for each micro-batch tried. Not
     * where an interleaved pipeline may fall back to the plain schedule (training_fits), whose
     * stages differ. */
    uint16_t slow[MICRO_TRIES] = {0};
    const bool memo_slow =
        c->use_deadline && (p == 1 || c->request->parallelism.stages.chunks <= 1);
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
        for (size_t tried = 0; micro != 0; micro = next_micro(c, micro), tried++) {
            batch_split(c, micro);
            for (unsigned off = GS_OFFLOAD_NONE; off <= (unsigned)top_off; off++) {
                for (int s = 0; s <= top_zero; s++) {
                    if (!option_allowed(c, &tops, off, s))
                        continue;
                    const uint16_t option = (uint16_t)(1u << (off * 4 + (unsigned)s));
                    if (tried < MICRO_TRIES && (slow[tried] & option))
                        continue;
                    training_workload(c->w, c->gpu, t, p, dp, e, (unsigned)s, (enum gs_recompute)r,
                                      (enum gs_offload)off, &w);
                    bool synced = false;
                    if (!training_fits(c, &w, &out->estimate)) {
                        if (!fits_synced(c, &w, &out->estimate))
                            continue;
                        synced = true;
                    }
                    /* the data-parallel traffic of this stage may make it too slow */
                    if (!meets_deadline(c, t * p * dp, p, (enum gs_recompute)r, t, e,
                                        &out->estimate)) {
                        if (memo_slow && !synced && tried < MICRO_TRIES)
                            slow[tried] |= option;
                        continue;
                    }
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

/* The note on a layout shape, made on first use; NULL past the table's reach (degrees beyond
 * 32 bits, or eight slots taken in a row), and until the search has missed a count: one that
 * ends at its first count (a gpu_count's search, most searches) neither needs notes nor clears
 * the table. */
static struct shape_note *shape_note(struct train_ctx *c, uint64_t t, uint64_t p, uint64_t e)
{
    if (c->missed_counts == 0 || t > UINT32_MAX || p > UINT32_MAX || e > UINT32_MAX)
        return NULL;
    if (!c->shapes_ready) {
        memset(c->shapes, 0, sizeof(struct shape_note) * SHAPE_NOTES);
        c->shapes_ready = true;
    }
    uint64_t h =
        (t * 0x9E3779B97F4A7C15ull) ^ (p * 0xC2B2AE3D27D4EB4Full) ^ (e * 0x165667B19E3779F9ull);
    h ^= h >> 29;
    for (unsigned i = 0; i < 8; i++) {
        struct shape_note *s = &c->shapes[(h + i) % SHAPE_NOTES];
        if (s->tensor == t && s->pipeline == p && s->expert == e)
            return s;
        if (s->tensor == 0) {
            s->tensor = (uint32_t)t;
            s->pipeline = (uint32_t)p;
            s->expert = (uint32_t)e;
            return s;
        }
    }
    return NULL;
}

/* The shape's widest layout among the counts the search tries: its largest valid
 * data-parallel degree of 2 or more (0: none) and that layout's count. */
static uint64_t widest_dp(const struct train_ctx *c, const struct shape_note *s, uint64_t *count)
{
    const uint64_t model = s->tensor * s->pipeline;
    for (size_t i = c->count_n; i-- > 0;) {
        const uint64_t n = c->counts[i];
        if (n % model != 0 || n / model < 2 || (s->tensor * (n / model)) % s->expert != 0)
            continue;
        struct gs_parallelism par;
        gs_parallelism_defaults(&par);
        par.tensor = s->tensor;
        par.pipeline = s->pipeline;
        par.data = n / model;
        par.expert = s->expert;
        par.expert_tensor = s->expert > 1 ? 1 : 0;
        par.sequence_parallel = s->tensor > 1;
        par.stages.split = gs_workload_stage_split(c->request);
        if (!plan_layout_valid(c->m, &par))
            continue;
        *count = n;
        return n / model;
    }
    return 0;
}

/* Memory falls as the data-parallel degree grows (ZeRO's and FSDP's shards are ceil(x / d);
 * the activations, the gathered units and the buffers do not depend on it), except NCCL's
 * buffers for a world past one node (gs_runtime_comm_bytes). So where the shape's most
 * frugal options do not fit at its widest layout, they fit at none of its narrower ones on the
 * same side of one node, and try_layout would answer no there after an estimate each. An
 * estimate that answers an error proves nothing. */
static void probe_fit(struct train_ctx *c, struct shape_note *s)
{
    s->fit_probed = true;
    uint64_t count = 0;
    const uint64_t dp = widest_dp(c, s, &count);
    struct layout_tops tops;
    if (dp == 0 || !layout_tops(c, s->pipeline, dp, &tops))
        return;
    const unsigned failed = c->failed;
    const bool fits = frugal_fits(c, s->tensor, s->pipeline, dp, s->expert, &tops);
    c->w = c->request;
    if (!fits && c->failed == failed && dp <= UINT32_MAX) {
        s->unfit_dp = (uint32_t)dp;
        s->unfit_cross = count > c->node;
    }
}

/* The least data-parallel traffic a step of the shape's options sends at degree `dp`: every
 * option try_layout may run (micro-batch, offload, ZeRO stage), unsynced. A collective
 * carries whole buffers whatever the degree, so a GPU's share, (k - 1)/k of them over k
 * ranks, only grows with the degree (estimate_training.c data_parallel_bytes); it depends on
 * the model states and the layout, not on recomputation; syncing each micro-batch only adds
 * to it. Not probed where an interleaved pipeline may fall back to the plain schedule
 * (training_fits), whose stages hold other parameters. */
static void probe_traffic(struct train_ctx *c, struct shape_note *s, uint64_t dp)
{
    s->traffic_probed = true;
    struct layout_tops tops;
    if ((s->pipeline > 1 && c->request->parallelism.stages.chunks > 1) ||
        !layout_tops(c, s->pipeline, dp, &tops))
        return;
    uint64_t least = UINT64_MAX;
    struct gs_workload w;
    struct gs_estimate est;
    uint64_t micro = c->request->training.batch_size ? c->request->training.batch_size : 1;
    for (; micro != 0; micro = next_micro(c, micro)) {
        batch_split(c, micro);
        for (unsigned off = GS_OFFLOAD_NONE; off <= (unsigned)tops.off; off++)
            for (int z = 0; z <= tops.zero; z++) {
                if (!option_allowed(c, &tops, off, z))
                    continue;
                training_workload(c->w, c->gpu, s->tensor, s->pipeline, dp, s->expert, (unsigned)z,
                                  gentlest_recompute(c), (enum gs_offload)off, &w);
                if (!sized(c, &w, &est)) {
                    c->w = c->request;
                    return; /* an option unmeasured: no bound */
                }
                if (est.data_parallel_bytes < least)
                    least = est.data_parallel_bytes;
            }
    }
    c->w = c->request;
    if (least != UINT64_MAX && dp <= UINT32_MAX) {
        s->traffic_dp = (uint32_t)dp;
        s->traffic = least;
    }
}

/* Whether `bytes` of data-parallel traffic a step alone miss the deadline at `n` GPUs, `dp`
 * of them data-parallel: gs_perf_train's step lasts at least its traffic over the group's
 * link once the step computes (a step's time is the longer of the two), and the run takes
 * training_tokens over the tokens of a step (the request's batch, however it is split) of
 * them. A margin keeps the rounding of that other order of operations out. */
static bool traffic_misses(const struct train_ctx *c, uint64_t n, uint64_t dp, uint64_t bytes)
{
    const struct gs_training *tr = &c->request->training;
    const double step_tokens = (double)tr->batch_size * (double)tr->sequence_length *
                               (double)accumulation_of(c->request) * (double)dp;
    const double link = plan_group_link(c->gpu, n);
    if (!(step_tokens > 0) || !(link > 0))
        return false;
    const double seconds = c->d->training_tokens / step_tokens * ((double)bytes / link);
    return seconds > c->d->deadline_days * 86400 * (1 + 1e-6);
}

/* Misses of a shape, or counts the search found nothing at, before it probes a shape: a
 * search that ends at one of the first counts it tries pays for no probe, one that goes on
 * pays one estimate for a shape that cannot fit rather than one at each count. */
#define SHAPE_PROBE_AFTER  1
#define COUNTS_PROBE_AFTER 2

/* Whether the shape's layout at `n` GPUs, `dp` of them data-parallel, cannot succeed by what
 * the notes show: its frugal options do not fit, or its least traffic misses the deadline.
 * try_layout would answer no there; this answers without its estimates. */
static bool shape_hopeless(struct train_ctx *c, struct shape_note *s, uint64_t dp, uint64_t n)
{
    if (dp < 2 || (s->misses < SHAPE_PROBE_AFTER && c->missed_counts < COUNTS_PROBE_AFTER))
        return false;
    if (!s->fit_probed)
        probe_fit(c, s);
    if (s->unfit_dp && dp <= s->unfit_dp && (n > c->node) == s->unfit_cross)
        return true;
    if (!c->use_deadline)
        return false;
    if (!s->traffic_probed)
        probe_traffic(c, s, dp);
    return s->traffic_dp && dp >= s->traffic_dp && traffic_misses(c, n, dp, s->traffic);
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
                /* the notes first: they skip the validation too */
                struct shape_note *note = shape_note(c, t, p, experts[k]);
                if ((note != NULL && shape_hopeless(c, note, dp, n)) ||
                    !plan_layout_valid(c->m, &par))
                    continue;
                memset(&candidate, 0, sizeof(candidate));
                if (!try_layout(c, t, p, dp, experts[k], &candidate)) {
                    if (note != NULL && note->misses < UINT16_MAX)
                        note->misses++;
                    continue;
                }
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
        c->missed_counts++;
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
    struct shape_note shapes[SHAPE_NOTES]; /* cleared when first needed */
    c.shapes = shapes;
    c.node = plan_node_size(gpu);
    c.counts = counts;
    c.count_n = nc;
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
