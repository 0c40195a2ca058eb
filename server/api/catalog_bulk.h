/*
 * catalog_bulk.h - POST /v1/gpus:bulk: many GPUs, as a JSON array or CSV,
 * written in one transaction; an existing GPU takes its record as a merge
 * patch, and a record that changes nothing is not written.
 */
#ifndef GS_CATALOG_BULK_H
#define GS_CATALOG_BULK_H

#include "api/api.h"
#include "api/catalog_entry.h"
#include "api/service.h"

/* POST /v1/gpus:bulk, guarded by the API key (catalog_api_bulk). */
void catalog_bulk_post(const struct catalog_api *api, struct service *service,
                       const struct api_request *req, struct api_response *resp);

#endif
