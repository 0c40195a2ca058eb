/*
 * catalog_api.c - catalog endpoints (see catalog_api.h): each request to the
 * module that serves it, catalog_listing.c, catalog_entry.c, catalog_bulk.c
 * and catalog_prices.c.
 */
#include "api/catalog_api.h"

#include "api/catalog_bulk.h"
#include "api/catalog_entry.h"
#include "api/catalog_listing.h"
#include "api/catalog_prices.h"

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

void catalog_api_item(const struct catalog_api *api, struct service *service,
                      enum catalog_resource what, const struct api_request *req,
                      struct api_response *resp)
{
    const bool models = what == CATALOG_MODELS;
    if (strcmp(req->method, "GET") == 0 || strcmp(req->method, "HEAD") == 0) {
        catalog_entry_get(service, models, req, resp);
        return;
    }
    if (!catalog_entry_authorized(api, req, resp))
        return;
    if (strcmp(req->method, "PUT") == 0)
        catalog_entry_put(api, service, models, req->id, false, req, resp);
    else if (strcmp(req->method, "PATCH") == 0)
        catalog_entry_patch(api, service, models, req, resp);
    else
        catalog_entry_delete(api, models, req, resp);
}

void catalog_api_collection(const struct catalog_api *api, struct service *service,
                            enum catalog_resource what, const struct api_request *req,
                            struct api_response *resp)
{
    const bool models = what == CATALOG_MODELS;
    if (strcmp(req->method, "POST") != 0) {
        catalog_listing_get(service, models, req, resp);
        return;
    }
    if (!catalog_entry_authorized(api, req, resp))
        return;
    json_t *body = api_parse_body(req, resp);
    if (body == NULL)
        return;
    const json_t *id = json_object_get(body, "id");
    char id_copy[128];
    const bool have_id = json_is_string(id) && json_string_length(id) < sizeof(id_copy);
    if (have_id)
        snprintf(id_copy, sizeof(id_copy), "%s", json_string_value(id));
    json_decref(body);
    if (!have_id) {
        gs_error_add(&resp->problem.errors, GS_ERR_INVALID, "/id",
                     "is required to create an entry (a lower-case slug)");
        api_fail(resp, GS_ERR_INVALID);
        return;
    }
    catalog_entry_put(api, service, models, id_copy, true, req, resp);
}

void catalog_api_bulk(const struct catalog_api *api, struct service *service,
                      const struct api_request *req, struct api_response *resp)
{
    catalog_bulk_post(api, service, req, resp);
}

void catalog_api_prices(const struct catalog_api *api, struct service *service,
                        const struct api_request *req, struct api_response *resp)
{
    catalog_prices_answer(api, service, req, resp);
}
