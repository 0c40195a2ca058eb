/* catalog_prices.c - a GPU's price history (see catalog_prices.h). */
#include "api/catalog_prices.h"

#include "api/catalog_listing.h"
#include "api/codec_catalog.h"
#include "formats/jsonv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct prices_job {
    const char *id;
    struct catalog_price *prices;
    size_t count;
    /* adding */
    const char *kind, *date, *source;
    double usd;
    struct catalog_precondition pre;
    struct catalog_put_result result;
};

static enum gs_status read_prices(struct catalog *catalog, void *arg, struct gs_error *err)
{
    struct prices_job *job = arg;
    return catalog_gpu_prices(catalog, job->id, &job->prices, &job->count, err);
}

static enum gs_status add_price(struct catalog *catalog, void *arg, struct gs_error *err)
{
    struct prices_job *job = arg;
    return catalog_gpu_add_price(catalog, job->id, job->kind, job->usd, job->date, job->source,
                                 &job->pre, &job->result, err);
}

/* A page of a price history: ?limit= (1..1000, default 1000) and ?offset=; any other query
 * parameter is a 400 at /query/<name>, as on the listings. */
static bool prices_page(const struct api_request *req, uint64_t *limit, uint64_t *offset,
                        struct gs_error *err)
{
    bool ok = true;
    *limit = CATALOG_LISTING_LIMIT_DEFAULT;
    *offset = 0;
    for (size_t i = 0; i < req->arg_count; i++) {
        const char *k = req->args[i].key, *v = req->args[i].value;
        if (strcmp(k, "limit") == 0) {
            ok = catalog_listing_query_u64(v, k, CATALOG_LISTING_LIMIT_MAX, limit, err) && ok;
            if (ok && *limit == 0) {
                catalog_listing_query_error(err, k, "must be at least 1");
                ok = false;
            }
        } else if (strcmp(k, "offset") == 0) {
            ok = catalog_listing_query_u64(v, k, (uint64_t)1 << 32, offset, err) && ok;
        } else {
            catalog_listing_query_error(err, k,
                                        "is not a parameter of a price history; use limit, offset");
            ok = false;
        }
    }
    return ok;
}

static json_t *prices_json(const char *gpu_id, const struct catalog_price *all, size_t total,
                           uint64_t limit, uint64_t offset)
{
    const size_t first = offset < total ? (size_t)offset : total;
    const size_t n = total - first > limit ? (size_t)limit : total - first;
    const struct catalog_price *p = all + first;
    json_t *items = json_array();
    for (size_t i = 0; items != NULL && i < n; i++) {
        json_t *item = json_pack("{s:s, s:f, s:s, s:s, s:s, s:b}", "kind", p[i].kind, "usd",
                                 p[i].usd, "effective_date", p[i].effective_date, "source",
                                 p[i].source, "recorded_at", p[i].recorded_at, "current",
                                 p[i].current);
        if (item == NULL || json_array_append_new(items, item) != 0) {
            json_decref(items);
            return NULL;
        }
    }
    json_t *out = items != NULL ? json_pack("{s:s, s:o, s:I, s:I, s:I}", "gpu", gpu_id, "items",
                                            items, "total", (json_int_t)total, "limit",
                                            (json_int_t)limit, "offset", (json_int_t)offset)
                                : NULL;
    if (out != NULL && first + n < total &&
        json_object_set_new(out, "next_offset", json_integer((json_int_t)(first + n))) != 0) {
        json_decref(out);
        return NULL;
    }
    return out;
}

static bool decode_price(const json_t *body, struct prices_job *job, struct gs_error *err)
{
    static const char *const keys[] = {"kind", "usd", "effective_date", "source", NULL};
    static const char *const kinds[] = {"on_demand", "purchase", NULL};
    if (!json_is_object(body)) {
        gs_error_add(err, GS_ERR_INVALID, "", "a price must be a JSON object");
        return false;
    }
    bool ok = jsonv_only_keys(body, "", keys, err);
    int kind = 0;
    const json_t *k = json_object_get(body, "kind");
    if (k == NULL)
        ok = gs_error_add(err, GS_ERR_INVALID, "/kind", "is required: on_demand or purchase") == GS_OK && ok;
    else if (!jsonv_enum(k, "/kind", kinds, &kind, err))
        ok = false;
    job->kind = kinds[kind];
    const json_t *usd = json_object_get(body, "usd");
    const double max = kind == 0 ? 1e4 : 1e8;
    if (!json_is_number(usd) || !(json_number_value(usd) > 0) || json_number_value(usd) > max) {
        gs_error_add(err, GS_ERR_INVALID, "/usd",
                     "is required: a positive number (USD per GPU-hour on demand, USD per GPU "
                     "to buy), at most %g", max);
        ok = false;
    } else {
        job->usd = json_number_value(usd);
    }
    /* the rules of the GPU's own price_source and price_date: this price may
     * become the entry's current one, which every later write sends back */
    const json_t *source = json_object_get(body, "source");
    if (source == NULL || json_is_null(source)) {
        gs_error_add(err, GS_ERR_INVALID, "/source", "is required: where the price comes from");
        ok = false;
    } else if (!codec_read_text(source, "/source", CODEC_SOURCE_MAX, true, &job->source, err)) {
        ok = false;
    }
    if (!codec_read_date(json_object_get(body, "effective_date"), "/effective_date", &job->date,
                         err))
        ok = false;
    return ok;
}

void catalog_prices_answer(const struct catalog_api *api, struct service *service,
                           const struct api_request *req, struct api_response *resp)
{
    struct prices_job job;
    memset(&job, 0, sizeof(job));
    const long row = catalog_entry_find_row(service, false, req->id);
    if (row < 0) {
        catalog_entry_not_found(resp, false, req->id);
        return;
    }
    job.id = catalog_entry_row_id(service, false, row);
    uint64_t limit = 0, offset = 0;
    if (!prices_page(req, &limit, &offset, &resp->problem.errors)) {
        api_fail(resp, GS_ERR_INVALID);
        return;
    }
    enum gs_status st = GS_OK;
    int status = 200;
    json_t *body = NULL;
    if (strcmp(req->method, "POST") == 0) {
        if (!catalog_entry_authorized(api, req, resp))
            return;
        body = api_parse_body(req, resp);
        if (body == NULL)
            return;
        if (!decode_price(body, &job, &resp->problem.errors)) {
            json_decref(body);
            api_fail(resp, GS_ERR_INVALID);
            return;
        }
        catalog_entry_precondition_from(req, &job.pre);
        st = store_write(api->store, add_price, &job, &resp->problem.errors);
        status = 201;
        if (st == GS_OK)
            snprintf(resp->etag, sizeof(resp->etag), "%s", job.result.etag);
    }
    if (st == GS_OK)
        st = store_read(api->store, read_prices, &job, &resp->problem.errors);
    json_decref(body);
    if (st != GS_OK) {
        api_fail(resp, st);
        return;
    }
    json_t *out = prices_json(job.id, job.prices, job.count, limit, offset);
    snprintf(resp->total_count, sizeof(resp->total_count), "%zu", job.count);
    catalog_prices_free(job.prices, job.count);
    api_json(resp, status, out);
}
