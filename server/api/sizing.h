/*
 * sizing.h - POST /v1/recommend and POST /v1/fit: which GPU, how many, in
 * which layout, at what throughput and cost; and whether one GPU type fits,
 * the smallest count that does, the largest batch and context, and what to
 * change to fit.
 *
 * Requests are the /v1/estimate request (model, mode, precision, training,
 * inference, overrides) plus `demand`, `constraints` and `efficiency`
 * (recommend) or `gpu` and `gpu_count` (fit). The search itself is
 * gs_plan_search in core; this module reads the catalog's GPUs and prices,
 * ranks the options and encodes the answer.
 */
#ifndef GS_SIZING_H
#define GS_SIZING_H

#include "formats/problem.h"
#include "api/service.h"

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

/* The time one /v1/recommend may search, in milliseconds (0, the default: no bound). The
 * server sets it once before it starts (GPUSIZER_COMPUTE_BUDGET_MS); past it, between two GPU
 * types' searches, the answer is 503 `search-budget`, naming how many of how many GPU types
 * were searched. Each distinct GPU entry costs one plan search (about 1 ms for serving, 10 ms
 * for training a large model), so only a catalog of thousands of entries reaches a budget of
 * seconds. */
void sizing_set_budget_ms(uint64_t ms);

/* The answer's JSON text (written directly, json_out.h): on success returns
 * GS_OK with *text a new NUL-terminated string (the caller frees) of *length
 * bytes; otherwise fills `problem` and returns its status (problem_status).
 * The server answers with these. `request` is borrowed. */
enum gs_status sizing_recommend_text(const struct service *service, const json_t *request,
                                     char **text, size_t *length, struct problem *problem);
enum gs_status sizing_fit_text(const struct service *service, const json_t *request, char **text,
                               size_t *length, struct problem *problem);

/* The same answers as trees (the CLI, tests): on success returns GS_OK and
 * *response is a new reference; otherwise fills `problem` and returns its status. */
enum gs_status sizing_recommend(const struct service *service, const json_t *request,
                                json_t **response, struct problem *problem);
enum gs_status sizing_fit(const struct service *service, const json_t *request,
                          json_t **response, struct problem *problem);

#endif
