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

/* What est_training_model changed in its copy of the model. */
enum est_model_change {
    EST_MODEL_HEAD_UNTIED = 1u << 0,       /* a head of its own beside the tied token embedding */
    EST_MODEL_NO_DROPOUT = 1u << 1,        /* the config's dropout not applied */
    EST_MODEL_GATE_UP_APART = 1u << 2,     /* a fused gate/up projection run as two linears */
    EST_MODEL_QKV_APART = 1u << 3,         /* a fused q/k/v projection run as three linears */
    EST_MODEL_SHARED_KV_DROPPED = 1u << 4, /* KV-sharing layers without K/V weights of their own */
    EST_MODEL_SHARED_KV_BUILT = 1u << 5,   /* KV-sharing layers with K/V weights of their own */
};

/* The model a training framework holds, in `*out`: `m` itself, or a copy of `m` in `scratch`
 * where the framework builds the architecture its own way - its own output head
 * (gs_framework_rules.head_untied) where `m`'s head is tied to the token embedding (the copy
 * counted; errors as gs_model_spec_count's), no dropout where its model has none
 * (model_without_dropout) and `m`'s config has some, a fused gate/up projection as two linears
 * (gate_up_apart), a fused q/k/v projection as three (qkv_apart) - or where the run's transformers
 * release builds `m`'s KV-sharing layers with (or without) K/V weights of their own
 * (GS_MOD_KV_OWN). `*changes`: the est_model_change bits. */
enum gs_status est_training_model(const struct gs_model_spec *m, const struct gs_workload *w,
                                  struct gs_model_spec *scratch, const struct gs_model_spec **out,
                                  unsigned *changes, struct gs_error *err);

#endif
