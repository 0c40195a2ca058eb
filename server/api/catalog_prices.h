/*
 * catalog_prices.h - a GPU's price history, GET /v1/gpus/{id}/prices by
 * pages, and the POST that adds a price (which may become the GPU's current
 * one).
 */
#ifndef GS_CATALOG_PRICES_H
#define GS_CATALOG_PRICES_H

#include "api/api.h"
#include "api/catalog_entry.h"
#include "api/service.h"

/* GET/HEAD/POST /v1/gpus/{id}/prices; the POST guarded by the API key (catalog_api_prices). */
void catalog_prices_answer(const struct catalog_api *api, struct service *service,
                           const struct api_request *req, struct api_response *resp);

#endif
