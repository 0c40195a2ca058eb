/*
 * service.h - the application behind both the HTTP server and the CLI: a
 * catalog snapshot with its models' architectures decoded once, and the
 * operations the API offers on it.
 *
 * A struct service is immutable after service_create (but for its answer
 * cache, which locks itself), so any number of threads may use one at the
 * same time. It is reference counted: the live
 * server swaps in a new one after each catalog write (server/api/store.h) while
 * requests still holding the old one finish with it.
 */
#ifndef GS_SERVICE_H
#define GS_SERVICE_H

#include "catalog.h"
#include "formats/problem.h"

#include <jansson.h>
#include <stddef.h>

struct service;
struct answer_cache;

/* Bytes of /v1/recommend and /v1/fit answers each service keeps
 * (server/api/answer_cache.h); 0 turns the cache off. Set once, before the
 * first service is created (env GPUSIZER_ANSWER_CACHE_BYTES). */
#define SERVICE_ANSWER_CACHE_DEFAULT (4u << 20)
void service_set_answer_cache_bytes(size_t bytes);

/* The service's answer cache (NULL when off); its answers are valid for
 * this catalog view only, which is why each service has its own. */
struct answer_cache *service_answers(const struct service *service);

/* Takes ownership of `snapshot` (NULL means an empty catalog). Models whose
 * stored config cannot be read are kept out of estimates and reported in
 * `err` as warnings (the call still succeeds). */
enum gs_status service_create(struct catalog_snapshot *snapshot, struct service **out,
                              struct gs_error *err);

/* Like service_create, for the snapshot a refresh built from prev's
 * (catalog_snapshot_refresh): what prev decoded and rendered from a shared row
 * (architecture, listing item) is shared instead of derived again, and an
 * unchanged table keeps prev's listing. `prev` is borrowed and may be NULL.
 * Warnings about unusable configs name only the rows derived again. */
enum gs_status service_create_next(const struct service *prev, struct catalog_snapshot *snapshot,
                                   struct service **out, struct gs_error *err);

/* Drops a reference; the last one frees the service. NULL is a no-op.
 * service_free is the same call, for the single owner. */
void service_unref(struct service *service);
void service_free(struct service *service);

/* Takes another reference (for a reader that outlives the current holder). */
struct service *service_ref(struct service *service);

/* The snapshot behind the service (borrowed, lives as long as the service). */
const struct catalog_snapshot *service_snapshot(const struct service *service);

/* The decoded architecture of snapshot model `index`, or NULL when its
 * config cannot be read. */
const struct gs_arch *service_model_arch(const struct service *service, size_t index);

/* The decoded architectures of the snapshot's models (borrowed). */
struct codec_arch_table;
void service_arch_table(const struct service *service, struct codec_arch_table *out);

/* One listing item pre-rendered as compact JSON (borrowed, NUL-terminated). */
const char *service_model_item(const struct service *service, size_t index, size_t *length);
const char *service_gpu_item(const struct service *service, size_t index, size_t *length);

/* Runs POST /v1/estimate on a parsed body (borrowed). On success returns GS_OK
 * and *text is the answer's JSON text (new, NUL-terminated, the caller
 * frees) of *length bytes, written directly (json_out.h); otherwise fills
 * `problem` and returns its status (problem_status). The server answers with this. */
enum gs_status service_estimate_text(const struct service *service, const json_t *request, char **text,
                                     size_t *length, struct problem *problem);
/* The same answer as a tree (the CLI, tests): *response a new reference. */
enum gs_status service_estimate(const struct service *service, const json_t *request, json_t **response,
                     struct problem *problem);

/* An operation that writes its answer as text (service_estimate_text,
 * sizing_recommend_text, sizing_fit_text), and its answer as a tree: the
 * text parsed, for the CLI and tests (*response a new reference). */
typedef enum gs_status (*service_text_operation)(const struct service *service,
                                                 const json_t *request, char **text,
                                                 size_t *length, struct problem *problem);
enum gs_status service_answer_tree(service_text_operation writes, const struct service *service,
                                   const json_t *request, json_t **response,
                                   struct problem *problem);

/* Pre-rendered bodies of GET /v1/models and GET /v1/gpus (borrowed, NUL-terminated). */
const char *service_models_body(const struct service *service, size_t *length);
const char *service_gpus_body(const struct service *service, size_t *length);

/* The whole listing of GET /v1/models (models) or /v1/gpus, with its entity
 * tag and, when `want_gzip`, its gzip form (level 6, made by the first request
 * that asks and shared by every later one; NULL when out of memory). Borrowed:
 * valid as long as the service. */
struct service_listing {
    const char *body;
    size_t length;
    char etag[24];
    const void *gzip;
    size_t gzip_length;
};
void service_listing(const struct service *s, bool models, bool want_gzip,
                     struct service_listing *out);

/* The entity tag service_listing uses, for any other rendered text: a quoted
 * hash of its bytes. */
void service_text_etag(const char *text, size_t length, char out[24]);

/* Number of models and GPUs in the snapshot. */
size_t service_model_count(const struct service *service);
size_t service_gpu_count(const struct service *service);

#endif
