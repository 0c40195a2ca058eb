/*
 * codec_training.h - decoding the `training`, `parallelism` and `overrides`
 * sections of an estimate request into core structs (used by codec.c).
 */
#ifndef GS_CODEC_TRAINING_H
#define GS_CODEC_TRAINING_H

#include "gs/estimate.h"
#include "gs/status.h"

#include <jansson.h>
#include <stdbool.h>

/* Each borrows `section` (may be NULL: defaults stay), fills `out` from the
 * defaults already in it, and returns false after adding every problem to
 * `err` with a pointer under "/training", "/parallelism" or "/overrides". */
bool codec_decode_training(const json_t *section, struct gs_training *out, struct gs_error *err);
/* parallelism.stage_layers alone (serving reads it too): each pipeline stage's decoder layers;
 * it sets the pipeline degree when that is not in `section` and must agree with it when it is. */
bool codec_decode_stage_layers(const json_t *section, struct gs_parallelism *out,
                               struct gs_error *err);
bool codec_decode_parallelism(const json_t *section, struct gs_parallelism *out,
                              struct gs_error *err);
bool codec_decode_overrides(const json_t *section, struct gs_workload *out, struct gs_error *err);

/* API names, for encoding what was used. */
const char *codec_recompute_name(enum gs_recompute recompute);
const char *codec_method_name(enum gs_method method);
const char *codec_offload_name(enum gs_offload offload);

#endif
