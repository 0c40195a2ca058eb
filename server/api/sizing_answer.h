/*
 * sizing_answer.h - the pieces of a /v1/recommend or /v1/fit answer, written straight to
 * text (formats/json_out.h): a plan's layout and throughput, one ranked option with the
 * estimate request that reproduces it, why a GPU type was rejected, the assumptions and
 * warnings, and the demand as understood. sizing.c puts them together.
 */
#ifndef GS_SIZING_ANSWER_H
#define GS_SIZING_ANSWER_H

#include "api/sizing_request.h"
#include "formats/json_out.h"
#include "gs/plan.h"

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/* A plan's layout: GPUs, nodes, tensor x pipeline x data (and expert), per replica. */
void sizing_answer_plan(struct json_writer *w, const struct gs_plan *p, bool training);
/* After its key: v, or null when not `present`. */
void sizing_answer_nullable_real(struct json_writer *w, bool present, double v);
/* One option: the GPU, the plan, its memory, throughput and cost, and the estimate request
 * that asks /v1/estimate about it (`rank` from 1). */
void sizing_answer_option(struct json_writer *w, const struct sizing *s,
                          const struct catalog_gpu *g, const struct gs_plan_gpu *pg,
                          const struct gs_plan *p, size_t rank);
/* Why a GPU type has no option, in words. */
const char *sizing_answer_reject_detail(enum gs_plan_reject why, const struct sizing *s);
/* The search's own assumptions, then the estimate's (`fit`: /v1/fit's). */
void sizing_answer_assumptions(struct json_writer *w, const struct sizing *s, bool fit);
/* The request's own warnings (codec_write_request_warnings: a resolved model name, a GPU
 * default), then the estimate's warnings for it, less the one asking for a GPU (the search
 * sizes every candidate on its own GPU). */
void sizing_answer_probe_warnings(struct json_writer *w, const struct sizing *s);
/* The demand as the search read it (new reference, NULL on OOM). */
json_t *sizing_answer_demand(const struct sizing *s);

#endif
