/* dispatch.c - a routed request served once its body is in (see dispatch.h). */
#include "http/dispatch.h"

#include "api/answer_cache.h"
#include "api/catalog_api.h"
#include "api/hub_import.h"
#include "api/service.h"
#include "api/sizing.h"
#include "http/compute.h"
#include "http/conn_guard.h"
#include "http/metrics.h"
#include "http/offload.h"
#include "http/respond.h"
#include "readers/model_types.h"

#include <jansson.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

extern const struct gs_embedded_file gs_openapi_files[];

struct ping {
    size_t models, gpus;
};

static enum gs_status ping_catalog(struct catalog *catalog, void *arg, struct gs_error *err)
{
    struct ping *p = arg;
    return catalog_ping(catalog, &p->models, &p->gpus, err);
}

static enum MHD_Result handle_readyz(struct MHD_Connection *conn, struct http_server *srv,
                                     struct request *req)
{
    struct ping counts = {service_model_count(req->service), service_gpu_count(req->service)};
    /* an SQLite file is read for the answer; a shared catalog's replica answers from its
     * view and what its watcher last saw, so a database outage keeps it in the balancer */
    if (!store_shared(srv->store)) {
        struct gs_error err;
        gs_error_init(&err);
        if (store_read(srv->store, ping_catalog, &counts, &err) != GS_OK)
            return respond_simple_problem(conn, 503, "not-ready", "The catalog cannot be read",
                                          NULL,
                                          err.count > 0 ? err.items[0].detail : "catalog error");
    }
    struct store_stats stats;
    store_stats(srv->store, &stats);
    json_t *body = json_pack("{s:s, s:I, s:I, s:{s:s, s:b, s:f, s:I}}", "status", "ready", "models",
                             (json_int_t)counts.models, "gpus", (json_int_t)counts.gpus, "catalog",
                             "backend", stats.backend, "reachable", stats.reachable,
                             "snapshot_age_seconds", (double)stats.snapshot_age_ms / 1000.0,
                             "version", (json_int_t)stats.data_version);
    if (body == NULL)
        return MHD_NO;
    enum MHD_Result ret = respond_json(conn, 200, body, "application/json");
    json_decref(body);
    return ret;
}

static enum MHD_Result collect_arg(void *cls, enum MHD_ValueKind kind, const char *key,
                                   const char *value)
{
    (void)kind;
    struct api_request *r = cls;
    if (r->arg_count == API_ARGS_MAX) {
        r->args_overflow = true;
        return MHD_NO;
    }
    r->args[r->arg_count++] = (struct api_arg){key, value != NULL ? value : ""};
    return MHD_YES;
}

static void fill_api_request(struct MHD_Connection *conn, const char *method,
                             const struct request *req, struct api_request *out)
{
    memset(out, 0, sizeof(*out));
    out->method = method;
    out->id = req->id[0] != '\0' ? req->id : NULL;
    MHD_get_connection_values(conn, MHD_GET_ARGUMENT_KIND, collect_arg, out);
    out->content_type = exchange_header(conn, MHD_HTTP_HEADER_CONTENT_TYPE);
    out->accept = exchange_header(conn, MHD_HTTP_HEADER_ACCEPT);
    out->authorization = exchange_header(conn, MHD_HTTP_HEADER_AUTHORIZATION);
    out->if_match = exchange_header(conn, MHD_HTTP_HEADER_IF_MATCH);
    out->if_none_match = exchange_header(conn, MHD_HTTP_HEADER_IF_NONE_MATCH);
    out->accept_gzip = req->accept_gzip;
    out->body = req->body;
    out->body_length = req->length;
}

static void run_catalog(struct http_server *srv, struct request *req, const struct api_request *in,
                        struct api_response *out)
{
    switch (req->route->id) {
    case ROUTE_MODELS:
        catalog_api_collection(&srv->api, req->service, CATALOG_MODELS, in, out);
        break;
    case ROUTE_GPUS:
        catalog_api_collection(&srv->api, req->service, CATALOG_GPUS, in, out);
        break;
    case ROUTE_MODEL:
        catalog_api_item(&srv->api, req->service, CATALOG_MODELS, in, out);
        break;
    case ROUTE_GPU:
        catalog_api_item(&srv->api, req->service, CATALOG_GPUS, in, out);
        break;
    case ROUTE_GPU_PRICES:
        catalog_api_prices(&srv->api, req->service, in, out);
        break;
    case ROUTE_MODELS_IMPORT:
        hub_import_api(&srv->hub, srv->store, in, out);
        break;
    default:
        catalog_api_bulk(&srv->api, req->service, in, out);
        break;
    }
}

static void catalog_job_run(void *arg)
{
    struct catalog_job *job = arg;
    run_catalog(job->srv, job->req, &job->in, &job->out);
    __atomic_store_n(&job->done, true, __ATOMIC_RELEASE);
    MHD_resume_connection(job->conn); /* the handler runs again and sends job->out */
}

void dispatch_catalog_job_free(struct catalog_job *job)
{
    if (job != NULL)
        free(job->out.body);
    free(job);
}

/* Reads answer on the connection's thread. Writes wait on the writer lock and fsync,
 * imports on the hub for seconds: they run on a pool (writes, or imports) with the connection
 * suspended, so the other connections of this thread are not held up. */
static enum MHD_Result handle_catalog(struct MHD_Connection *conn, struct http_server *srv,
                                      struct request *req, const char *method)
{
    const bool waits = strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0;
    /* an import waits on the hub: its own pool, apart from the writes (the pools are read only
     * for a request that waits, as http_stop clears them) */
    struct offload *pool = !waits                                 ? NULL
                           : req->route->id == ROUTE_MODELS_IMPORT ? srv->imports
                                                                   : srv->offload;
    if (pool != NULL) {
        struct catalog_job *job = calloc(1, sizeof(*job));
        if (job != NULL) {
            job->conn = conn;
            job->srv = srv;
            job->req = req;
            fill_api_request(conn, method, req, &job->in);
            api_response_init(&job->out);
            req->job = job;
            MHD_suspend_connection(conn);
            if (!offload_submit(pool, catalog_job_run, job))
                catalog_job_run(job); /* stopping: answer here, through the same resume */
            return MHD_YES;
        }
    }
    struct api_request in;
    struct api_response out;
    fill_api_request(conn, method, req, &in);
    api_response_init(&out);
    run_catalog(srv, req, &in, &out);
    return respond_api(conn, &out);
}

static enum MHD_Result handle_metrics(struct MHD_Connection *conn, struct http_server *srv,
                                      const struct request *req)
{
    struct store_stats stats;
    store_stats(srv->store, &stats);
    const struct metrics_gauges g = {
        conn_guard_open(srv->guard),
        conn_guard_expired(srv->guard),
        service_model_count(req->service),
        service_gpu_count(req->service),
        (double)stats.snapshot_age_ms / 1000.0,
        stats.reloads,
        stats.failed_reloads,
        stats.data_version,
        stats.backend,
        stats.reachable,
    };
    struct buf out = {0};
    metrics_render(&g, &out);
    if (out.failed || out.data == NULL) {
        free(out.data);
        return MHD_NO;
    }
    return respond_buffer(conn, 200, "text/plain; version=0.0.4; charset=utf-8", out.data,
                          out.length, MHD_RESPMEM_MUST_FREE, NULL);
}

enum MHD_Result dispatch_request(struct MHD_Connection *conn, struct http_server *srv,
                                 struct request *req, const char *method)
{
    static const char healthz[] = "{\"status\":\"ok\"}";
    switch (req->route->id) {
    case ROUTE_HEALTHZ:
        return respond_buffer(conn, 200, "application/json", healthz, sizeof(healthz) - 1,
                              MHD_RESPMEM_PERSISTENT, NULL);
    case ROUTE_OPENAPI:
        return respond_buffer(conn, 200, "application/json", gs_openapi_files[0].data,
                              gs_openapi_files[0].size, MHD_RESPMEM_PERSISTENT, NULL);
    case ROUTE_STATIC:
        return respond_buffer(conn, 200, route_content_type(req->file->name), req->file->data,
                              req->file->size, MHD_RESPMEM_PERSISTENT, NULL);
    case ROUTE_MODEL_TYPES: {
        size_t length = 0;
        const char *types = model_types_json(&length);
        return types != NULL ? respond_buffer(conn, 200, "application/json", types, length,
                                              MHD_RESPMEM_PERSISTENT, NULL)
                             : MHD_NO;
    }
    default:
        break;
    }
    req->service = store_acquire(srv->store); /* released in on_completed */
    switch (req->route->id) {
    case ROUTE_READYZ:
        return handle_readyz(conn, srv, req);
    case ROUTE_METRICS:
        return handle_metrics(conn, srv, req);
    case ROUTE_ESTIMATE:
        return compute_handle(conn, srv, req, service_estimate_text, -1);
    case ROUTE_RECOMMEND:
        return compute_handle(conn, srv, req, sizing_recommend_text, ANSWER_RECOMMEND);
    case ROUTE_FIT:
        return compute_handle(conn, srv, req, sizing_fit_text, ANSWER_FIT);
    default:
        return handle_catalog(conn, srv, req, method);
    }
}
