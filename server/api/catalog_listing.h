/*
 * catalog_listing.h - the catalog's listings, GET /v1/models and /v1/gpus:
 * the query's filters (q, family, vendor, sizes, price), sorting, pages with
 * their total, Link and next offset, JSON or, for GPUs, CSV; the whole catalog
 * as the service rendered it once when there is no query; ETags and 304. The
 * query parameters' errors are shared with the price history.
 */
#ifndef GS_CATALOG_LISTING_H
#define GS_CATALOG_LISTING_H

#include "api/api.h"
#include "api/service.h"
#include "gs/status.h"

#include <stdbool.h>
#include <stdint.h>

/* A page holds this many entries unless ?limit= says fewer, and never more. */
#define CATALOG_LISTING_LIMIT_DEFAULT 1000
#define CATALOG_LISTING_LIMIT_MAX     1000

/* GET/HEAD on the models' (`models`) or the GPUs' listing. */
void catalog_listing_get(const struct service *svc, bool models, const struct api_request *req,
                         struct api_response *resp);

/* An error at /query/<key>. */
void catalog_listing_query_error(struct gs_error *err, const char *key, const char *detail);

/* ?key= as a whole number from 0 to `max`; an error at /query/<key> otherwise. */
bool catalog_listing_query_u64(const char *text, const char *key, uint64_t max, uint64_t *out,
                               struct gs_error *err);

#endif
