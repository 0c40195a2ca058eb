/*
 * sizing_request.h - a /v1/recommend or /v1/fit request as the plan search takes it: the
 * estimate request inside it, the demand, the constraints (limits, GPU list, pricing and
 * ownership costs), the efficiencies, and each candidate GPU as the search sees it.
 */
#ifndef GS_SIZING_REQUEST_H
#define GS_SIZING_REQUEST_H

#include "api/codec_request.h"
#include "api/service.h"
#include "catalog.h"
#include "gs/cost.h"
#include "gs/inference.h"
#include "gs/plan.h"
#include "gs/weights.h"

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#define GPU_LIST_MAX     1024 /* constraints.gpus entries */
#define DEFAULT_SEQUENCE 4096
#define DEFAULT_NODE     8

/* constraints.max_options' ceiling (see write_rejections) */
#define RECOMMEND_OPTIONS_MAX 1000

struct sizing {
    const json_t *body;       /* the request as sent (borrowed for the call) */
    struct estimate_request req;
    struct gs_estimate probe; /* the request on one GPU: model facts and assumptions */
    struct gs_demand demand;
    struct gs_plan_limits limits;
    struct gs_efficiency eff;
    bool purchase;
    double amortization_years;
    struct gs_tco_params tco; /* purchase pricing: the owned cost's components */
    struct gs_tco_params tco_integrated; /* the same for integrated GPUs (gs_tco_integrated) */
    uint64_t gpus_per_node; /* 0 = the catalog's */
    uint64_t max_options;   /* /v1/recommend: options listed (constraints.max_options) */
    const struct catalog_gpu **candidates; /* owned: the GPU types to rank (every catalog GPU
                                              unless constraints.gpus names some) */
    size_t candidate_count;
    uint64_t fit_count; /* /v1/fit: GPUs asked about (0 = not given) */
    bool sequence_defaulted, shape_defaulted, parallelism_ignored;
    bool context_defaulted; /* /v1/fit: no context_length given, the model's own limit taken */
    bool latency_defaulted; /* /v1/recommend: a rate demand without a TPOT target got the default */
    json_t *echo_config; /* /v1/recommend: the pasted config the options echo, trimmed of what
                            its reading does not depend on (config_trim); NULL = as sent. Owned:
                            sizing_end releases it */
    size_t echo_trimmed_bytes;
    /* last: sizing_request_decode clears the members above and only the memos' counts */
    struct gs_plan_memo memo; /* the model's weight bytes and KV cache layouts by layout, for
                                 every search (one model per request) */
};

/* Decodes `body` into *s (cleared first, but for the memos' entries) for /v1/fit when `fit`,
 * else /v1/recommend, and sizes the request on one GPU (s->probe). GS_OK or a validation
 * status with every problem in `err`; s->candidates is owned by *s (free it). */
enum gs_status sizing_request_decode(const struct service *svc, const json_t *body, bool fit,
                                     struct sizing *s, struct gs_error *err);

/* A catalog number, 0 when absent. */
double sizing_request_real(struct catalog_real r);
/* Whether the GPU is integrated with its host (unified memory, as GB10 and Jetson). */
bool sizing_request_integrated(const struct catalog_gpu *g);
/* The ownership costs purchase pricing applies to `g`. */
const struct gs_tco_params *sizing_request_tco(const struct sizing *s, const struct catalog_gpu *g);
/* `g` as the plan search sees it: its view, node, price and costs. */
void sizing_request_plan_gpu(const struct sizing *s, const struct catalog_gpu *g,
                             struct gs_plan_gpu *out);

#endif
