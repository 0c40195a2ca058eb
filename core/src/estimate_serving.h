/*
 * estimate_serving.h - the serving half of gs_estimate_compute (not a public
 * header; estimate_serving.c).
 */
#ifndef GS_ESTIMATE_SERVING_H
#define GS_ESTIMATE_SERVING_H

#include "estimate_scope.h"
#include "gs/estimate.h"

/* Weights, the engine's budget, the fixes and the notes of a serving request; `e` holds the
 * model's parameters on entry. */
enum gs_status est_compute_inference(const struct gs_model_spec *m, const struct gs_workload *w,
                                     const struct gs_estimate_scope *scope, struct gs_estimate *e,
                                     struct gs_error *err);

#endif
