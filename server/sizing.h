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

#include "problem.h"
#include "service.h"

#include <jansson.h>

/* On success returns 0 and *response is a new reference; otherwise fills
 * `problem` and returns -1. `request` is borrowed. */
int sizing_recommend(const struct service *service, const json_t *request, json_t **response,
                     struct problem *problem);
int sizing_fit(const struct service *service, const json_t *request, json_t **response,
               struct problem *problem);

#endif
