/*
 * advice.h - what to change when a workload does not fit the GPUs asked
 * about: the changes an engineer would try (gentlest first: an fp8 KV cache
 * before int4 weights, recomputation before ZeRO-3 before LoRA), each sized
 * on the asked GPU; and how large a batch or context a layout still holds.
 *
 * Pure: no allocation; the caller passes the arrays. Every outcome is sized
 * with gs_plan_search or gs_estimate_compute, so a change reported as fitting
 * fits when its workload and plan are sent to /v1/estimate.
 */
#ifndef GS_ADVICE_H
#define GS_ADVICE_H

#include "gs/plan.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The most changes gs_advice_changes proposes for one workload. */
#define GS_ADVICE_MAX 20

/* One change to try: the workload and search limits with it applied. */
struct gs_fit_change {
    const char *code;   /* stable identifier (API field `change`): "fp8_kv_cache", "zero_3", ... */
    const char *detail; /* what it means, in words */
    uint64_t value;     /* the change's figure where it has one (LoRA rank, ZeRO stage); 0 = none */
    struct gs_workload workload;
    struct gs_plan_limits limits;
    bool any_count;     /* search the smallest GPU count instead of the asked one */
};

/* A change as sized on the asked GPU. */
struct gs_fit_outcome {
    struct gs_fit_change change;
    bool fits;          /* at the asked count (or, for any_count, at plan.gpu_count) */
    bool sized;         /* plan holds the memory (a change that fails may not be sizeable) */
    struct gs_plan plan;
};

/* Limits that keep the request's own techniques: its ZeRO stage,
 * recomputation and offload, its weight and KV formats; `max_gpus` bounds
 * the count. Any number of nodes is allowed: the user asked for these GPUs. */
void gs_advice_own_limits(const struct gs_workload *workload, uint64_t max_gpus,
                          struct gs_plan_limits *limits);

/* Writes the changes worth trying for this workload, gentlest first, into
 * `out` (at most `cap`), and returns how many. Serving: an fp8 KV cache
 * (fp8_ds_mla for MLA models), fp8 then AWQ int4 weights, both, more GPUs.
 * Training: a LoRA base loaded in fp32 loaded in bf16, a smaller micro-batch with gradient
 * accumulation (batch_size > 1), selective then full recomputation, ZeRO-3, ZeRO-Offload, 8-bit
 * AdamW, LoRA and QLoRA (models with an architecture; QLoRA from LoRA too), more GPUs. */
size_t gs_advice_changes(const struct gs_model_spec *model, const struct gs_workload *workload,
                         const struct gs_plan_limits *own, struct gs_fit_change *out, size_t cap);

/* Sizes every change on `gpu` at `count` GPUs and writes the outcomes into
 * `out` (at most `cap`): those that fit first, gentlest first, then those
 * that do not, the closest to fitting (largest headroom) first, unsized ones
 * last. Changes the model cannot take (LoRA on a model without module
 * names) and "more GPUs" when it does not need more than `count` are left
 * out. `memo` (NULL for none) is the plan searches' (gs/plan.h). Returns how many were
 * written. */
size_t gs_advice_evaluate(const struct gs_model_spec *model, const struct gs_workload *workload,
                          const struct gs_plan_limits *own, const struct gs_plan_gpu *gpu,
                          const struct gs_efficiency *eff, uint64_t count,
                          struct gs_plan_memo *memo, struct gs_fit_outcome *out, size_t cap);

/* Whether a request's parallelism names a layout of its own (a degree above
 * 1), which /v1/fit then judges as it is rather than searching. */
bool gs_advice_layout_given(const struct gs_workload *workload);

/* The request's own layout on `gpu`, as a plan: its degrees (and for
 * training its ZeRO stage, recomputation and offload), sized by
 * gs_estimate_compute (its errors, such as a combination the framework
 * refuses, in `err`); out->headroom_bytes < 0 when it does not fit - for
 * serving, when the engine would not start or its cache would not hold the
 * batch (the budget's kv_bytes less the batch's cache). */
enum gs_status gs_advice_own_layout(const struct gs_model_spec *model,
                                    const struct gs_workload *workload,
                                    const struct gs_plan_gpu *gpu, struct gs_plan *out,
                                    struct gs_error *err);

/* Which plan of a gs_fit_verdict an answer is about. */
enum gs_fit_which { GS_FIT_NONE, GS_FIT_OWN, GS_FIT_AT, GS_FIT_LEAST };

/* /v1/fit's verdict on a workload and one GPU type, decided here so the server only writes it.
 * A layout named in parallelism (gs_advice_layout_given) is judged as it is on the GPUs it
 * takes; otherwise the best layout of `count` GPUs is searched. */
struct gs_fit_verdict {
    bool layout_given;
    uint64_t count;                 /* the GPUs asked about: the layout's, or the request's count
                                       (1 when none) */
    bool fits;
    struct gs_plan own;             /* the request's own layout (layout_given) */
    struct gs_plan at;              /* the best layout of `count` GPUs (why_at NONE) */
    struct gs_plan least;           /* the fewest GPUs that fit (why_least NONE) */
    enum gs_plan_reject why_at, why_least;
    enum gs_fit_which plan;         /* the layout the verdict is about: the own one, else `at`
                                       when it fits; NONE: no plan (the request as sized on one
                                       GPU shows how far off it is) */
    bool alternative;               /* the own layout does not fit and `at`, another layout of
                                       the same GPUs, does */
    enum gs_fit_which max_at;       /* the layout max_batch and max_context are at: the verdict's
                                       when it fits, else the fewest GPUs that fit; NONE: none */
    uint64_t max_batch, max_context; /* serving: sequences at once (every replica's) and the
                                        longest context; training: the largest micro-batch (up
                                        to 4,096) and sequence (up to 4M tokens) */
};

/* Decides /v1/fit for `workload` on `gpu`: `count` GPUs asked (0: one; with a layout named in
 * parallelism 0 or the layout's own, else a 400 at "/gpu_count"), `own` the request's
 * techniques (gs_advice_own_limits), `memo` the plan searches' (NULL for none). */
enum gs_status gs_advice_fit(const struct gs_model_spec *model, const struct gs_workload *workload,
                             const struct gs_plan_gpu *gpu, const struct gs_plan_limits *own,
                             const struct gs_efficiency *eff, uint64_t count,
                             struct gs_plan_memo *memo, struct gs_fit_verdict *out,
                             struct gs_error *err);

/* The plan of `v` that `which` names (NULL for GS_FIT_NONE). */
const struct gs_plan *gs_fit_plan(const struct gs_fit_verdict *v, enum gs_fit_which which);

/* The largest training micro-batch (up to `max`) and sequence length (up to
 * `max`) that fit `gpu` in `plan`'s layout (a plan of gs_plan_search, sized as
 * gs_plan_training_workload rebuilds it), or with `plan` NULL in the workload's own;
 * 0 when not even one does. */
uint64_t gs_advice_max_batch(const struct gs_model_spec *model, const struct gs_workload *workload,
                             const struct gs_plan *plan, const struct gs_plan_gpu *gpu,
                             uint64_t max);
uint64_t gs_advice_max_sequence(const struct gs_model_spec *model,
                                const struct gs_workload *workload, const struct gs_plan *plan,
                                const struct gs_plan_gpu *gpu, uint64_t max);

#endif
