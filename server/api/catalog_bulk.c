/* catalog_bulk.c - many GPUs in one transaction (see catalog_bulk.h). */
#include "api/catalog_bulk.h"

#include "api/codec_catalog.h"
#include "formats/csv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define BULK_MAX      10000

struct bulk_job {
    struct codec_gpu_row *rows;
    struct catalog_gpu *gpus;
    struct catalog_precondition *pres;
    char (*etags)[CATALOG_ETAG_MAX];
    bool *unchanged;  /* the record changes nothing in its existing row: not written */
    size_t *written;  /* the records written, in order (the rest unchanged) */
    size_t count;
    size_t created, unchanged_count, failed_row;
};

/* Writes the records that change something, in one transaction; an unchanged row keeps
 * its revision and ETag (an export re-imported as it was changes nothing). */
static enum gs_status put_bulk(struct catalog *catalog, void *arg, struct gs_error *err)
{
    struct bulk_job *job = arg;
    struct catalog_gpu *gpus = calloc(job->count ? job->count : 1, sizeof(*gpus));
    struct catalog_precondition *pres = calloc(job->count ? job->count : 1, sizeof(*pres));
    enum gs_status st = GS_OK;
    if (gpus == NULL || pres == NULL) {
        st = gs_error_add(err, GS_ERR_NOMEM, "", "out of memory");
    } else {
        size_t n = 0;
        job->unchanged_count = 0;
        for (size_t i = 0; i < job->count; i++) {
            if (job->unchanged[i]) {
                job->unchanged_count++;
                continue;
            }
            gpus[n] = job->gpus[i];
            pres[n] = job->pres[i];
            job->written[n++] = i;
        }
        size_t failed = 0;
        job->created = 0;
        if (n > 0) {
            st = catalog_gpu_put_many(catalog, gpus, pres, n, &job->created, &failed, err);
            job->failed_row = failed < n ? job->written[failed] : 0;
        }
    }
    free(gpus);
    free(pres);
    return st;
}

/* The bulk body as a JSON array of GPU objects, from JSON or CSV. */
static json_t *bulk_records(const struct api_request *req, bool csv, struct api_response *resp)
{
    struct gs_error *err = &resp->problem.errors;
    if (!csv) {
        json_t *body = api_parse_body(req, resp);
        if (body == NULL)
            return NULL;
        json_t *items = json_is_object(body) ? json_object_get(body, "items") : body;
        if (!json_is_array(items)) {
            gs_error_add(err, GS_ERR_INVALID, "",
                         "the body must be an array of GPU objects (or {\"items\": [...]})");
            json_decref(body);
            api_fail(resp, GS_ERR_INVALID);
            return NULL;
        }
        json_incref(items);
        json_decref(body);
        return items;
    }
    struct csv_table table;
    enum gs_status st = csv_parse(req->body != NULL ? req->body : "", req->body_length, &table, err);
    if (st != GS_OK) {
        api_fail(resp, st);
        return NULL;
    }
    json_t *items = json_array();
    for (size_t r = 1; items != NULL && r < table.rows; r++) {
        const size_t first = err->count;
        json_t *record = codec_gpu_csv_record(&table, r, err);
        if (record == NULL) {
            char prefix[64];
            snprintf(prefix, sizeof(prefix), "/%zu", r - 1);
            gs_error_prefix(err, first, prefix);
            if (err->count > first)
                snprintf(resp->problem.detail, sizeof(resp->problem.detail),
                         "CSV line %zu (record %zu)", table.line[r], r - 1);
            json_decref(items);
            items = NULL;
            break;
        }
        json_array_append_new(items, record);
    }
    csv_table_free(&table);
    if (items == NULL) {
        char detail[256];
        snprintf(detail, sizeof(detail), "%s", resp->problem.detail);
        api_fail(resp, err->count ? GS_ERR_INVALID : GS_ERR_NOMEM);
        snprintf(resp->problem.detail, sizeof(resp->problem.detail), "%s", detail);
    }
    return items;
}

static void bulk_free(struct bulk_job *job)
{
    for (size_t i = 0; job->rows != NULL && i < job->count; i++)
        codec_gpu_row_free(&job->rows[i]);
    free(job->rows);
    free(job->gpus);
    free(job->pres);
    free(job->etags);
    free(job->unchanged);
    free(job->written);
    memset(job, 0, sizeof(*job));
}

/* Decodes every record against `svc`: an existing GPU takes the record as a
 * merge patch (absent columns keep their values), a new one needs every
 * required field. Errors carry the record index. */
static enum gs_status bulk_decode(const struct service *svc, const json_t *items,
                                  struct bulk_job *job, struct gs_error *err)
{
    const size_t n = json_array_size(items);
    job->count = n;
    job->rows = calloc(n ? n : 1, sizeof(*job->rows));
    job->gpus = calloc(n ? n : 1, sizeof(*job->gpus));
    job->pres = calloc(n ? n : 1, sizeof(*job->pres));
    job->etags = calloc(n ? n : 1, sizeof(*job->etags));
    job->unchanged = calloc(n ? n : 1, sizeof(*job->unchanged));
    job->written = calloc(n ? n : 1, sizeof(*job->written));
    if (job->rows == NULL || job->gpus == NULL || job->pres == NULL || job->etags == NULL ||
        job->unchanged == NULL || job->written == NULL)
        return gs_error_add(err, GS_ERR_NOMEM, "", "out of memory");
    enum gs_status result = GS_OK;
    for (size_t i = 0; i < n; i++) {
        char prefix[32];
        snprintf(prefix, sizeof(prefix), "/%zu", i);
        const size_t first = err->count;
        const json_t *record = json_array_get(items, i);
        const json_t *id = json_object_get(record, "id");
        enum gs_status st = GS_OK;
        if (!json_is_string(id)) {
            st = gs_error_add(err, GS_ERR_INVALID, "/id", "is required in every record");
        } else {
            const long row = catalog_entry_find_row(svc, false, json_string_value(id));
            json_t *base = row >= 0 ? catalog_entry_row_json(svc, false, row) : json_object();
            json_t *merged = base != NULL ? codec_merge_patch(base, record, err) : NULL;
            const char *canonical =
                row >= 0 ? catalog_entry_row_id(svc, false, row) : json_string_value(id);
            if (merged != NULL)
                catalog_entry_canonical_body_id(merged, json_string_value(id), canonical);
            job->unchanged[i] = row >= 0 && merged != NULL && catalog_entry_same_json(merged, base);
            json_decref(base);
            st = merged != NULL ? codec_decode_gpu_row(merged, canonical, &job->rows[i], err)
                                : GS_ERR_INVALID;
            json_decref(merged);
            if (st == GS_OK) {
                job->gpus[i] = job->rows[i].row;
                if (row >= 0) {
                    snprintf(job->etags[i], CATALOG_ETAG_MAX, "%s",
                             catalog_entry_row_etag(svc, false, row));
                    job->pres[i].if_match = job->etags[i];
                } else {
                    job->pres[i].if_none_match = true;
                }
                for (size_t j = 0; j < i; j++) {
                    if (job->gpus[j].id != NULL && strcmp(job->gpus[j].id, canonical) == 0) {
                        st = gs_error_add(err, GS_ERR_INVALID, "/id",
                                          "GPU \"%s\" appears again (first in record %zu)",
                                          canonical, j);
                        break;
                    }
                }
            }
        }
        gs_error_prefix(err, first, prefix);
        if (st != GS_OK && result == GS_OK)
            result = st;
        if (err->count >= GS_ERROR_MAX)
            break;
    }
    return result;
}

/* A bulk write merged inside the write (store_write): onto the view as it is with the
 * writer lock, and on a shared catalog the other replicas' writes, held. */
struct bulk_write {
    struct store *store;
    const json_t *items;
    struct service *svc; /* the view decoded against: the rows borrow its ids (released by
                            the caller once the answer is built) */
    struct bulk_job job;
    bool written; /* decoded, and the rows went to the catalog */
};

static enum gs_status decode_and_put_bulk(struct catalog *catalog, void *arg,
                                          struct gs_error *err)
{
    struct bulk_write *bw = arg;
    bw->svc = store_acquire(bw->store);
    enum gs_status st = bulk_decode(bw->svc, bw->items, &bw->job, err);
    if (st == GS_OK) {
        bw->written = true;
        st = put_bulk(catalog, &bw->job, err);
    }
    return st;
}

void catalog_bulk_post(const struct catalog_api *api, struct service *service,
                       const struct api_request *req, struct api_response *resp)
{
    if (!catalog_entry_authorized(api, req, resp))
        return;
    const bool csv = req->content_type != NULL && strncasecmp(req->content_type, "text/csv", 8) == 0;
    json_t *items = bulk_records(req, csv, resp);
    if (items == NULL)
        return;
    if (json_array_size(items) == 0 || json_array_size(items) > BULK_MAX) {
        gs_error_add(&resp->problem.errors, GS_ERR_INVALID, "",
                     "a bulk request carries 1 to %d GPUs", BULK_MAX);
        json_decref(items);
        api_fail(resp, GS_ERR_INVALID);
        return;
    }
    (void)service;
    struct bulk_write bw;
    enum gs_status st = GS_OK;
    for (int attempt = 0; attempt < 3; attempt++) {
        memset(&bw, 0, sizeof(bw));
        bw.store = api->store;
        bw.items = items;
        st = store_write(api->store, decode_and_put_bulk, &bw, &resp->problem.errors);
        if (st != GS_OK && st != GS_ERR_PRECONDITION && bw.written) {
            char prefix[32];
            snprintf(prefix, sizeof(prefix), "/%zu", bw.job.failed_row);
            gs_error_prefix(&resp->problem.errors, 0, prefix);
        }
        if (st != GS_ERR_PRECONDITION)
            break;
        /* another process changed a row between our read and our write (a writer that does
         * not hold the replicas' lock): merge onto the new rows */
        bulk_free(&bw.job);
        store_release(bw.svc);
        gs_error_init(&resp->problem.errors);
    }
    struct bulk_job job = bw.job;
    if (st == GS_OK) {
        json_t *ids = json_array();
        for (size_t i = 0; ids != NULL && i < job.count; i++)
            json_array_append_new(ids, json_string(job.gpus[i].id));
        json_t *body = json_pack("{s:I, s:I, s:I, s:o}", "created", (json_int_t)job.created,
                                 "updated",
                                 (json_int_t)(job.count - job.created - job.unchanged_count),
                                 "unchanged", (json_int_t)job.unchanged_count, "ids", ids);
        api_json(resp, 200, body);
    } else {
        if (csv && resp->problem.detail[0] == '\0')
            snprintf(resp->problem.detail, sizeof(resp->problem.detail),
                     "nothing was written; pointers are /<record>/<column>, record 0 being the "
                     "first line after the header");
        char detail[256];
        snprintf(detail, sizeof(detail), "%s", resp->problem.detail);
        api_fail(resp, st);
        snprintf(resp->problem.detail, sizeof(resp->problem.detail), "%s",
                 detail[0] ? detail : "nothing was written");
    }
    bulk_free(&job);
    store_release(bw.svc);
    json_decref(items);
}
