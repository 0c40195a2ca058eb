/*
 * estimate_scope.h - how much of an estimate a plan search needs (internal to the core: not a
 * public header). A search sizes hundreds of layouts it has validated itself and reads only
 * whether each fits and its figures, so it asks for less than a caller of gs_estimate_compute
 * gets, and it lends the estimate its memory of the model's layouts; no caller outside the core
 * can skip a check.
 */
#ifndef GS_ESTIMATE_SCOPE_H
#define GS_ESTIMATE_SCOPE_H

#include "gs/activation.h"
#include "gs/estimate.h"
#include "gs/inference.h"
#include "gs/weights.h"

#include <stdbool.h>

struct gs_estimate_scope {
    bool figures_only;   /* the caller reads the figures and the verdict only: the fixes that
                            would let the engine hold the batch are not worked out */
    bool fitting_only;   /* ... and only when the engine starts and holds the batch: where the
                            weights alone leave the engine no KV cache
                            (gs_inference_weights_leave_no_cache) the estimate stops there, its
                            serving verdict has_budget with starts and holds_batch false and its
                            figures unset */
    bool layout_checked; /* the caller has validated these parallel degrees for this model
                            (gs_parallelism_validate: a plan search lists its layouts once per
                            GPU type), so a serving estimate does not again */
    /* the plan search's memory of this model (struct gs_plan_memo), written by the serving
     * estimate; NULL for none */
    struct gs_weights_memo *weights_memo;
    struct gs_kv_memo *kv_memo;
    /* the training plan search's memory of activation results (struct gs_plan_memo), written by
     * the training estimate; NULL for none */
    struct gs_activation_memo *activation_memo;
};

/* gs_estimate_compute within `scope` (NULL: the whole estimate, every check). */
enum gs_status gs_estimate_compute_scoped(const struct gs_model_spec *model,
                                          const struct gs_workload *workload,
                                          const struct gs_estimate_scope *scope,
                                          struct gs_estimate *out, struct gs_error *err);

#endif
