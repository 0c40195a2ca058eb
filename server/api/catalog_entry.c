/* catalog_entry.c - one catalog entry by its id or alias (see catalog_entry.h). */
#include "api/catalog_entry.h"

#include "api/codec_catalog.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *resource_name(enum catalog_resource what)
{
    return what == CATALOG_MODELS ? "model" : "GPU";
}

/* Refuses a write without the right key; true when it may go on. */
bool catalog_entry_authorized(const struct catalog_api *api, const struct api_request *req,
                              struct api_response *resp)
{
    switch (auth_check(api->auth, req->authorization)) {
    case AUTH_OK:
        return true;
    case AUTH_DISABLED:
        problem_set(&resp->problem, 403, "writes-disabled", "Catalog writes are disabled",
                    "this server has no API key configured; start it with GPUSIZER_API_KEY or "
                    "--api-key-file to allow catalog writes");
        break;
    case AUTH_MISSING:
        problem_set(&resp->problem, 401, "unauthorized", "Authentication required",
                    "catalog writes need \"Authorization: Bearer <API key>\"");
        resp->bearer_challenge = true;
        break;
    case AUTH_WRONG:
        problem_set(&resp->problem, 401, "unauthorized", "Authentication required",
                    "the API key is not valid");
        resp->bearer_challenge = true;
        break;
    }
    resp->status = resp->problem.status;
    return false;
}

/* ---------------------------------------------------------------- entries */

/* The snapshot index of an id or alias, or -1. */
long catalog_entry_find_row(const struct service *svc, bool models, const char *id)
{
    const struct catalog_snapshot *snap = service_snapshot(svc);
    if (models) {
        const struct catalog_model *m = catalog_snapshot_model(snap, id);
        return m != NULL ? (long)(m - snap->models) : -1;
    }
    const struct catalog_gpu *g = catalog_snapshot_gpu(snap, id);
    return g != NULL ? (long)(g - snap->gpus) : -1;
}

const char *catalog_entry_row_etag(const struct service *svc, bool models, long row)
{
    const struct catalog_snapshot *snap = service_snapshot(svc);
    return models ? snap->models[row].etag : snap->gpus[row].etag;
}

const char *catalog_entry_row_id(const struct service *svc, bool models, long row)
{
    const struct catalog_snapshot *snap = service_snapshot(svc);
    return models ? snap->models[row].id : snap->gpus[row].id;
}

/* The served representation of a row, parsed (new reference). */
json_t *catalog_entry_row_json(const struct service *svc, bool models, long row)
{
    size_t len = 0;
    const char *text = models ? service_model_item(svc, (size_t)row, &len)
                              : service_gpu_item(svc, (size_t)row, &len);
    return json_loadb(text, len, 0, NULL);
}

void catalog_entry_not_found(struct api_response *resp, bool models, const char *id)
{
    gs_error_add(&resp->problem.errors, GS_ERR_NOT_FOUND, "", "no %s \"%.100s\" in the catalog",
                 models ? "model" : "GPU", id);
    api_fail(resp, GS_ERR_NOT_FOUND);
}

/* Whether If-None-Match is * or lists `etag` (weak comparison, RFC 9110
 * 13.1.2: W/"x" matches "x"). */
bool catalog_entry_none_match_hit(const char *header, const char *etag)
{
    if (header == NULL)
        return false;
    return strcmp(header, "*") == 0 || strstr(header, etag) != NULL;
}

void catalog_entry_get(const struct service *svc, bool models, const struct api_request *req,
                       struct api_response *resp)
{
    const long row = catalog_entry_find_row(svc, models, req->id);
    if (row < 0) {
        catalog_entry_not_found(resp, models, req->id);
        return;
    }
    snprintf(resp->etag, sizeof(resp->etag), "%s", catalog_entry_row_etag(svc, models, row));
    if (catalog_entry_none_match_hit(req->if_none_match, resp->etag)) {
        resp->status = 304;
        return;
    }
    resp->borrowed = models ? service_model_item(svc, (size_t)row, &resp->length)
                            : service_gpu_item(svc, (size_t)row, &resp->length);
    resp->status = 200;
    resp->content_type = "application/json";
}

/* A decoded entry ready to write. */
struct put_job {
    bool models;
    struct codec_model_row model;
    struct codec_gpu_row gpu;
    struct catalog_precondition pre;
    struct catalog_put_result result;
};

static enum gs_status put_one(struct catalog *catalog, void *arg, struct gs_error *err)
{
    struct put_job *job = arg;
    return job->models ? catalog_model_put(catalog, &job->model.row, &job->pre, &job->result, err)
                       : catalog_gpu_put(catalog, &job->gpu.row, &job->pre, &job->result, err);
}

/* A body may name the entry by the alias the path used: it means the entry. */
void catalog_entry_canonical_body_id(json_t *doc, const char *named, const char *canonical)
{
    const json_t *id = json_object_get(doc, "id");
    if (json_is_string(id) && named != NULL && strcasecmp(json_string_value(id), named) == 0)
        json_object_set_new(doc, "id", json_string(canonical));
}

static enum gs_status decode_row(bool models, const json_t *doc, const char *id,
                                 struct put_job *job, struct gs_error *err)
{
    job->models = models;
    return models ? codec_decode_model_row(doc, id, &job->model, err)
                  : codec_decode_gpu_row(doc, id, &job->gpu, err);
}

static void free_job(struct put_job *job)
{
    codec_model_row_free(&job->model);
    codec_gpu_row_free(&job->gpu);
}

/* Answers a successful write with the entry as now stored. */
static void answer_written(const struct catalog_api *api, bool models,
                           const struct catalog_put_result *result, struct api_response *resp)
{
    struct service *now = store_acquire(api->store);
    const long row = catalog_entry_find_row(now, models, result->id);
    json_t *body = row >= 0 ? catalog_entry_row_json(now, models, row) : NULL;
    store_release(now);
    snprintf(resp->etag, sizeof(resp->etag), "%s", result->etag);
    if (result->created)
        snprintf(resp->location, sizeof(resp->location), "/v1/%s/%s", models ? "models" : "gpus",
                 result->id);
    if (body == NULL) {
        api_fail(resp, GS_ERR_NOMEM);
        return;
    }
    api_json(resp, result->created ? 201 : 200, body);
}

void catalog_entry_precondition_from(const struct api_request *req,
                                     struct catalog_precondition *pre)
{
    pre->if_match = req->if_match;
    pre->if_none_match = req->if_none_match != NULL && strcmp(req->if_none_match, "*") == 0;
}

/* PUT (and POST-create): the body replaces the entry. */
void catalog_entry_put(const struct catalog_api *api, const struct service *svc, bool models,
                       const char *path_id, bool create_only, const struct api_request *req,
                       struct api_response *resp)
{
    json_t *body = api_parse_body(req, resp);
    if (body == NULL)
        return;
    const long row = catalog_entry_find_row(svc, models, path_id);
    const char *id = row >= 0 ? catalog_entry_row_id(svc, models, row) : path_id;
    catalog_entry_canonical_body_id(body, path_id, id);
    struct put_job job;
    memset(&job, 0, sizeof(job));
    enum gs_status st = decode_row(models, body, id, &job, &resp->problem.errors);
    json_decref(body);
    if (st != GS_OK) {
        api_fail(resp, st);
        return;
    }
    catalog_entry_precondition_from(req, &job.pre);
    if (create_only)
        job.pre.if_none_match = true;
    st = store_write(api->store, put_one, &job, &resp->problem.errors);
    if (st == GS_ERR_PRECONDITION && create_only) {
        gs_error_init(&resp->problem.errors);
        gs_error_add(&resp->problem.errors, GS_ERR_CONFLICT, "/id",
                     "%s \"%s\" already exists; PUT /v1/%s/%s replaces it", resource_name(models ? CATALOG_MODELS : CATALOG_GPUS),
                     id, models ? "models" : "gpus", id);
        st = GS_ERR_CONFLICT;
    }
    if (st == GS_OK)
        answer_written(api, models, &job.result, resp);
    else
        api_fail(resp, st);
    free_job(&job);
}

/* PATCH: a JSON merge patch on the entry as served, written only if nobody
 * changed it meanwhile (the client's If-Match, else the version patched). */
/* A PATCH, applied inside the writer's critical section: the base it merges
 * into is the version every earlier write of this process left (the store
 * reloads before releasing the writer), so writers here never make each
 * other fail; only a write by another process in between (caught by the
 * implicit If-Match inside the transaction) sends it round again. */
struct patch_job {
    struct store *store;
    bool models;
    const char *id;
    const json_t *patch;
    const char *if_match; /* the client's, or NULL */
    struct put_job put;
    bool decoded;         /* put holds a decoded row (free_job it) */
    bool not_found;
};

/* An absent member of an entry reads as null, or for a list as none (a merge patch's null
 * removes it, an empty CSV cell is null; the entry as served shows null or []). */
static bool empty_json(const json_t *v)
{
    return json_is_null(v) || (json_is_array(v) && json_array_size(v) == 0);
}

/* Whether a write would change what an entry holds: JSON equality with numbers compared by
 * value (a CSV cell "300" reads as the integer 300 where the entry holds 300.0) and an
 * absent member the same as an empty one (empty_json). */
bool catalog_entry_same_json(json_t *a, json_t *b)
{
    if (json_is_number(a) && json_is_number(b))
        return json_number_value(a) == json_number_value(b) &&
               (!json_is_integer(a) || !json_is_integer(b) ||
                json_integer_value(a) == json_integer_value(b));
    if (json_typeof(a) != json_typeof(b))
        return false;
    if (json_is_object(a)) {
        const char *key;
        json_t *v;
        json_object_foreach(a, key, v)
        {
            json_t *w = json_object_get(b, key);
            if (w == NULL ? !empty_json(v) : !catalog_entry_same_json(v, w))
                return false;
        }
        json_object_foreach(b, key, v)
        {
            if (json_object_get(a, key) == NULL && !empty_json(v))
                return false;
        }
        return true;
    }
    if (json_is_array(a)) {
        if (json_array_size(a) != json_array_size(b))
            return false;
        for (size_t i = 0; i < json_array_size(a); i++)
            if (!catalog_entry_same_json(json_array_get(a, i), json_array_get(b, i)))
                return false;
        return true;
    }
    return json_equal(a, b);
}

static enum gs_status patch_one(struct catalog *catalog, void *arg, struct gs_error *err)
{
    struct patch_job *pj = arg;
    struct service *svc = store_acquire(pj->store);
    enum gs_status st = GS_OK;
    const long row = catalog_entry_find_row(svc, pj->models, pj->id);
    if (row < 0) {
        pj->not_found = true;
        store_release(svc);
        return GS_ERR_NOT_FOUND;
    }
    json_t *base = catalog_entry_row_json(svc, pj->models, row);
    /* a new config re-derives a derived count unless the patch gives one */
    if (base != NULL && pj->models && json_object_get(pj->patch, "config") != NULL &&
        json_object_get(pj->patch, "parameters") == NULL &&
        json_is_string(json_object_get(base, "parameters_basis")) &&
        strcmp(json_string_value(json_object_get(base, "parameters_basis")), "derived") == 0) {
        json_object_del(base, "parameters");
        json_object_del(base, "parameters_source");
    }
    json_t *merged = base != NULL ? codec_merge_patch(base, pj->patch, err) : NULL;
    if (merged == NULL) {
        json_decref(base);
        store_release(svc);
        return err != NULL && err->count ? GS_ERR_INVALID : GS_ERR_NOMEM;
    }
    catalog_entry_canonical_body_id(merged, pj->id, catalog_entry_row_id(svc, pj->models, row));
    /* a patch that changes nothing writes nothing: the entry keeps its ETag, so other
     * clients' If-Match stays valid (unless this client's own If-Match is stale) */
    const char *etag = catalog_entry_row_etag(svc, pj->models, row);
    if (catalog_entry_same_json(merged, base) &&
        (pj->if_match == NULL || strcmp(pj->if_match, "*") == 0 || strstr(pj->if_match, etag))) {
        memset(&pj->put, 0, sizeof(pj->put));
        snprintf(pj->put.result.id, sizeof(pj->put.result.id), "%s",
                 catalog_entry_row_id(svc, pj->models, row));
        snprintf(pj->put.result.etag, sizeof(pj->put.result.etag), "%s", etag);
        json_decref(merged);
        json_decref(base);
        store_release(svc);
        return GS_OK;
    }
    json_decref(base);
    memset(&pj->put, 0, sizeof(pj->put));
    st = decode_row(pj->models, merged, catalog_entry_row_id(svc, pj->models, row), &pj->put, err);
    json_decref(merged);
    pj->decoded = true;
    if (st == GS_OK) {
        /* the version merged into, unless the client named one */
        char implicit[CATALOG_ETAG_MAX];
        snprintf(implicit, sizeof(implicit), "%s", catalog_entry_row_etag(svc, pj->models, row));
        pj->put.pre.if_match = pj->if_match != NULL ? pj->if_match : implicit;
        st = put_one(catalog, &pj->put, err);
    }
    store_release(svc);
    return st;
}

void catalog_entry_patch(const struct catalog_api *api, struct service *svc, bool models,
                         const struct api_request *req, struct api_response *resp)
{
    (void)svc;
    json_t *patch = api_parse_body(req, resp);
    if (patch == NULL)
        return;
    enum gs_status st = GS_OK;
    for (int attempt = 0; attempt < 3; attempt++) {
        struct patch_job pj = {api->store, models, req->id, patch, req->if_match, {0}, false,
                               false};
        gs_error_init(&resp->problem.errors);
        st = store_write(api->store, patch_one, &pj, &resp->problem.errors);
        if (st == GS_OK)
            answer_written(api, models, &pj.put.result, resp);
        if (pj.decoded)
            free_job(&pj.put);
        if (pj.not_found) {
            catalog_entry_not_found(resp, models, req->id);
            break;
        }
        /* another process wrote the entry between our read and our write: patch its version */
        if (st == GS_ERR_PRECONDITION && req->if_match == NULL)
            continue;
        if (st != GS_OK)
            api_fail(resp, st);
        break;
    }
    if (st == GS_ERR_PRECONDITION && req->if_match == NULL) {
        gs_error_add(&resp->problem.errors, GS_ERR_PRECONDITION, "",
                     "other processes kept changing the entry while the patch was applied; send "
                     "it again");
        api_fail(resp, st);
    }
    json_decref(patch);
}

struct delete_job {
    bool models;
    const char *id;
    struct catalog_precondition pre;
};

static enum gs_status delete_one(struct catalog *catalog, void *arg, struct gs_error *err)
{
    struct delete_job *job = arg;
    return job->models ? catalog_model_delete(catalog, job->id, &job->pre, err)
                       : catalog_gpu_delete(catalog, job->id, &job->pre, err);
}

void catalog_entry_delete(const struct catalog_api *api, bool models, const struct api_request *req,
                          struct api_response *resp)
{
    struct delete_job job = {models, req->id, {NULL, false}};
    catalog_entry_precondition_from(req, &job.pre);
    enum gs_status st = store_write(api->store, delete_one, &job, &resp->problem.errors);
    if (st != GS_OK) {
        api_fail(resp, st);
        return;
    }
    resp->status = 204;
}
