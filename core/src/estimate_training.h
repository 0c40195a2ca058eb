/*
 * estimate_training.h - the training half of gs_estimate_compute (not a public
 * header; estimate_training.c).
 */
#ifndef GS_ESTIMATE_TRAINING_H
#define GS_ESTIMATE_TRAINING_H

#include "gs/activation.h"
#include "gs/estimate.h"

/* Model states, activations and the peak moment of a training step; `e` holds the model's
 * parameters on entry. The activations through `memo` (NULL: none). */
enum gs_status est_compute_training(const struct gs_model_spec *m, const struct gs_workload *w,
                                    struct gs_activation_memo *memo, struct gs_estimate *e,
                                    struct gs_error *err);

/* The model a training framework holds, in `*out`: `m` itself, or, where the framework keeps
 * its own output head (gs_framework_rules.head_untied) and `m`'s head is tied to the token
 * embedding, a copy of `m` in `scratch` with the head as a matrix of its own, counted (errors
 * as gs_model_spec_count's). */
enum gs_status est_training_model(const struct gs_model_spec *m, const struct gs_workload *w,
                                  struct gs_model_spec *scratch, const struct gs_model_spec **out,
                                  struct gs_error *err);

#endif
