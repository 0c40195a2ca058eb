/*
 * catalog_api.h - the catalog endpoints: listings with filters, sorting and
 * pagination (JSON, and CSV for GPUs), single entries with ETags, writes
 * guarded by the API key with If-Match / If-None-Match, bulk GPU upserts, and
 * GPU price history.
 *
 *   GET    /v1/models, /v1/gpus             ?q= &vendor= &family= ... &sort= &limit= &offset=
 *   POST   /v1/models, /v1/gpus             create (the body names the id)
 *   GET    /v1/models/{id}, /v1/gpus/{id}   ids and aliases resolve; ETag, If-None-Match
 *   PUT    ...                              create or replace
 *   PATCH  ...                              JSON merge patch (RFC 7396)
 *   DELETE ...
 *   POST   /v1/gpus:bulk                    JSON array or CSV, one transaction
 *   GET    /v1/gpus/{id}/prices, POST       price history
 *
 * Reads use the service the caller acquired (no SQL); writes go through the
 * store, which swaps in a fresh service before the response is built.
 */
#ifndef GS_CATALOG_API_H
#define GS_CATALOG_API_H

#include "api/api.h"
#include "api/auth.h"
#include "api/catalog_entry.h" /* struct catalog_api, enum catalog_resource */
#include "api/service.h"
#include "api/store.h"

/* GET/HEAD/POST on a collection. */
void catalog_api_collection(const struct catalog_api *api, struct service *service,
                            enum catalog_resource what, const struct api_request *req,
                            struct api_response *resp);

/* GET/HEAD/PUT/PATCH/DELETE on /v1/{models,gpus}/{id}. */
void catalog_api_item(const struct catalog_api *api, struct service *service,
                      enum catalog_resource what, const struct api_request *req,
                      struct api_response *resp);

/* POST /v1/gpus:bulk. */
void catalog_api_bulk(const struct catalog_api *api, struct service *service,
                      const struct api_request *req, struct api_response *resp);

/* GET/HEAD/POST /v1/gpus/{id}/prices. */
void catalog_api_prices(const struct catalog_api *api, struct service *service,
                        const struct api_request *req, struct api_response *resp);

#endif
