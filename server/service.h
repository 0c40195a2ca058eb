/*
 * service.h - the application behind both the HTTP server and the CLI: a
 * catalog snapshot with its models' architectures decoded once, and the
 * operations the API offers on it.
 *
 * A struct service is immutable after service_create, so any number of
 * threads may use one at the same time.
 */
#ifndef GS_SERVICE_H
#define GS_SERVICE_H

#include "catalog.h"
#include "problem.h"

#include <jansson.h>
#include <stddef.h>

struct service;

/* Takes ownership of `snapshot` (NULL means an empty catalog). Models whose
 * stored config cannot be read are kept out of estimates and reported in
 * `err` as warnings (the call still succeeds). */
enum gs_status service_create(struct catalog_snapshot *snapshot, struct service **out,
                              struct gs_error *err);

void service_free(struct service *service);

/* Runs POST /v1/estimate on a parsed body (borrowed). On success returns 0
 * and *response is a new reference; otherwise fills `problem` and returns -1. */
int service_estimate(const struct service *service, const json_t *request, json_t **response,
                     struct problem *problem);

/* Pre-rendered bodies of GET /v1/models and GET /v1/gpus (borrowed, NUL-terminated). */
const char *service_models_body(const struct service *service, size_t *length);
const char *service_gpus_body(const struct service *service, size_t *length);

/* Number of models and GPUs in the snapshot. */
size_t service_model_count(const struct service *service);
size_t service_gpu_count(const struct service *service);

#endif
