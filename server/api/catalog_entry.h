/*
 * catalog_entry.h - one catalog entry by its id or alias: GET/HEAD with its
 * ETag, PUT (and the POST that creates), PATCH as a JSON merge patch, DELETE;
 * and what the other catalog endpoints (catalog_api.h) share of it: the state
 * they run with, the API key that guards writes, the snapshot row an id names
 * (its canonical id, ETag and served JSON), 404, If-None-Match and If-Match,
 * and the comparison that tells a write changes nothing.
 */
#ifndef GS_CATALOG_ENTRY_H
#define GS_CATALOG_ENTRY_H

#include "api/api.h"
#include "api/auth.h"
#include "api/service.h"
#include "api/store.h"
#include "catalog_write.h"

#include <jansson.h>
#include <stdbool.h>

struct catalog_api {
    struct store *store;
    const struct auth *auth;
};

enum catalog_resource { CATALOG_MODELS, CATALOG_GPUS };

/* Refuses a write without the right key; true when it may go on. */
bool catalog_entry_authorized(const struct catalog_api *api, const struct api_request *req,
                              struct api_response *resp);

/* The snapshot index of an id or alias, or -1. */
long catalog_entry_find_row(const struct service *svc, bool models, const char *id);

/* The ETag and the canonical id of the row at `row`. */
const char *catalog_entry_row_etag(const struct service *svc, bool models, long row);
const char *catalog_entry_row_id(const struct service *svc, bool models, long row);

/* The served representation of a row, parsed (new reference). */
json_t *catalog_entry_row_json(const struct service *svc, bool models, long row);

/* Fails `resp` with 404: no such model or GPU. */
void catalog_entry_not_found(struct api_response *resp, bool models, const char *id);

/* Whether If-None-Match is * or lists `etag` (weak comparison, RFC 9110
 * 13.1.2: W/"x" matches "x"). */
bool catalog_entry_none_match_hit(const char *header, const char *etag);

/* A body may name the entry by the alias the path used: it means the entry. */
void catalog_entry_canonical_body_id(json_t *doc, const char *named, const char *canonical);

/* Whether a write would change what an entry holds: JSON equality with numbers compared by
 * value and an absent member the same as null or []. */
bool catalog_entry_same_json(json_t *a, json_t *b);

/* The request's If-Match, and If-None-Match: * (create only), as a write's precondition. */
void catalog_entry_precondition_from(const struct api_request *req,
                                     struct catalog_precondition *pre);

/* GET/HEAD of the entry req->id names: its JSON with its ETag, or 304. */
void catalog_entry_get(const struct service *svc, bool models, const struct api_request *req,
                       struct api_response *resp);

/* PUT (and POST-create): the body replaces the entry `path_id` names (`create_only`: 409 when
 * it exists); the guard is the caller's. */
void catalog_entry_put(const struct catalog_api *api, const struct service *svc, bool models,
                       const char *path_id, bool create_only, const struct api_request *req,
                       struct api_response *resp);

/* PATCH: a JSON merge patch on the entry as served, written only if nobody changed it
 * meanwhile (the client's If-Match, else the version patched); the guard is the caller's. */
void catalog_entry_patch(const struct catalog_api *api, struct service *svc, bool models,
                         const struct api_request *req, struct api_response *resp);

/* DELETE, with If-Match; the guard is the caller's. */
void catalog_entry_delete(const struct catalog_api *api, bool models, const struct api_request *req,
                          struct api_response *resp);

#endif
