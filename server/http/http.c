/*
 * http.c - libmicrohttpd glue (see http.h).
 *
 * The access handler runs in three phases per request: the first call
 * routes and checks method, media type and declared length (answering
 * 404/405/415/413 before any body is read); middle calls append body bytes
 * to a capped buffer; the last call dispatches. Per-request state is freed
 * in the completion callback only.
 */
#include "http/http.h"
#include "readers/model_types.h"

#include "formats/gzip.h"
#include "formats/json_out.h"
#include "http/offload.h"

#include "http/conn_guard.h"
#include "http/metrics.h"
#include "api/hub_import.h"

#include "formats/json_lenient.h"

#include "api/answer_cache.h"
#include "api/api.h"

#include "api/codec.h"
#include "api/catalog_api.h"
#include "embedded.h"
#include "api/sizing.h"

#include <arpa/inet.h>
#include <malloc.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

extern const struct gs_embedded_file gs_web_files[];
extern const struct gs_embedded_file gs_openapi_files[];

struct http_server {
    struct MHD_Daemon *daemon;
    struct store *store;
    struct catalog_api api;
    struct hub_config hub;
    bool auto_import;
    struct conn_guard *guard;
    FILE *access_log;        /* NULL: none */
    char cors_origins[512];  /* comma-separated origins allowed cross-site, "" = none */
    pthread_mutex_t log_lock;
    size_t max_body_bytes;
    uint16_t port;
    struct offload *offload; /* runs catalog writes and imports off the connection threads */
    struct offload *compute; /* runs plan searches off them, bounded (see handle_compute) */
};

enum route_id {
    ROUTE_HEALTHZ,
    ROUTE_READYZ,
    ROUTE_MODELS,
    ROUTE_MODEL,
    ROUTE_GPUS,
    ROUTE_GPU,
    ROUTE_GPU_PRICES,
    ROUTE_GPUS_BULK,
    ROUTE_MODELS_IMPORT,
    ROUTE_ESTIMATE,
    ROUTE_RECOMMEND,
    ROUTE_FIT,
    ROUTE_OPENAPI,
    ROUTE_STATIC,
    ROUTE_METRICS,
    ROUTE_MODEL_TYPES,
    ROUTE_NONE, /* no route matched (404), or refused before routing */
    ROUTE_COUNT
};

/* Route names in /metrics and the access log (index = enum route_id). */
static const char *const route_names[ROUTE_COUNT] = {
    "healthz", "readyz", "models", "model", "gpus", "gpu", "gpu_prices", "gpus_bulk",
    "models_import", "estimate", "recommend", "fit", "openapi", "static", "metrics", "model_types",
    "none"};

struct route {
    const char *path; /* exact path, or the prefix before {id} */
    enum route_id id;
    const char *allow; /* methods, for 405 Allow */
};

#define READ_ONLY "GET, HEAD"
#define COLLECTION "GET, HEAD, POST"
#define ENTRY "GET, HEAD, PUT, PATCH, DELETE"

static const struct route routes[] = {
    {"/healthz", ROUTE_HEALTHZ, READ_ONLY},       {"/readyz", ROUTE_READYZ, READ_ONLY},
    {"/v1/models", ROUTE_MODELS, COLLECTION},     {"/v1/gpus", ROUTE_GPUS, COLLECTION},
    {"/v1/gpus:bulk", ROUTE_GPUS_BULK, "POST"},   {"/v1/estimate", ROUTE_ESTIMATE, "POST"},
    {"/v1/models:import", ROUTE_MODELS_IMPORT, "POST"},
    {"/v1/recommend", ROUTE_RECOMMEND, "POST"},   {"/v1/fit", ROUTE_FIT, "POST"},
    {"/openapi.json", ROUTE_OPENAPI, READ_ONLY},  {"/metrics", ROUTE_METRICS, READ_ONLY},
    {"/v1/model-types", ROUTE_MODEL_TYPES, READ_ONLY},
};

static const struct route model_route = {NULL, ROUTE_MODEL, ENTRY};
static const struct route gpu_route = {NULL, ROUTE_GPU, ENTRY};
static const struct route prices_route = {NULL, ROUTE_GPU_PRICES, COLLECTION};

/* An answer decided before the body was read (404, 405, 413, 415). */
struct early_answer {
    int status;
    const char *slug;
    const char *title;
    const char *allow;
    bool challenge; /* WWW-Authenticate: Bearer */
    bool close;     /* Connection: close - the request's framing cannot be trusted */
    char detail[128];
};

#define ID_MAX 160

/* Per-request state, from the first handler call to the completion callback. */
struct request {
    const struct route *route;
    const struct gs_embedded_file *file; /* ROUTE_STATIC */
    char id[ID_MAX];                     /* the {id} segment of entry routes */
    struct service *service;             /* held from dispatch to completion */
    char *body;
    size_t length;
    size_t capacity;
    bool rejected;            /* answer `early` once the body is drained */
    uint64_t drained;         /* body bytes dropped since the rejection */
    struct early_answer early;
    /* for /metrics and the access log */
    unsigned route_id;        /* enum route_id */
    unsigned status;          /* the answer queued (0 = none) */
    uint64_t started_ns;      /* the headers' arrival, monotonic */
    char request_id[20];      /* also sent as X-Request-Id */
    char method[12];
    char path[200];
    char cors_origin[200];    /* the request's Origin when CORS allows it, else "" */
    bool accept_gzip;         /* Accept-Encoding allows gzip */
    struct catalog_job *job;  /* a write running on the offload pool (connection suspended) */
    struct compute_job *computing; /* a sizing answer computed off this thread (suspended) */
    struct store *store;      /* the server's, for the Catalog-Age header */
};

/* A catalog write or import handed to the offload pool: its request as read, and the
 * answer the worker fills before it resumes the connection. */
struct catalog_job {
    struct MHD_Connection *conn;
    struct http_server *srv;
    struct request *req;
    struct api_request in;   /* borrows the connection's headers and req->body */
    struct api_response out;
    bool done;               /* atomic: `out` is complete */
};

/* A sizing request computed off the connection threads: its parsed body and operation, and
 * the answer the worker fills before it resumes the connection. */
struct compute_job {
    struct MHD_Connection *conn;
    struct http_server *srv;
    struct request *req;
    json_t *body;                  /* owned */
    service_text_operation writes;
    int cached;                    /* the answer cache's kind, -1 = not cached */
    uint64_t queued_ns;
    struct problem problem;        /* the answer when `failed` */
    bool failed;
    char *answer;                  /* else this JSON (owned) */
    size_t length;
    bool done;                     /* atomic: the answer is complete */
};

static uint64_t monotonic_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The request this thread is answering: the send functions stamp its status
 * and id on the response. libmicrohttpd runs a request's callbacks on one
 * worker thread, and a send happens inside them. */
static __thread struct request *answering;

/* Request ids: a per-process prefix from the start time, and a counter. */
static uint64_t id_prefix, id_counter;

static void new_request_id(struct request *req)
{
    const uint64_t n = __atomic_add_fetch(&id_counter, 1, __ATOMIC_RELAXED);
    snprintf(req->request_id, sizeof(req->request_id), "%06llx%010llx",
             (unsigned long long)(id_prefix & 0xffffff), (unsigned long long)n);
}

static void add_security_headers(struct MHD_Response *resp);

/* Queues `resp` with the headers every answer carries, and notes its status. */
static enum MHD_Result queue(struct MHD_Connection *conn, unsigned status, struct MHD_Response *resp)
{
    add_security_headers(resp);
    if (answering != NULL) {
        answering->status = status;
        MHD_add_response_header(resp, "X-Request-Id", answering->request_id);
        if (answering->cors_origin[0] != '\0') {
            MHD_add_response_header(resp, "Access-Control-Allow-Origin", answering->cors_origin);
            MHD_add_response_header(resp, "Vary", "Origin");
            MHD_add_response_header(resp, "Access-Control-Expose-Headers",
                                    "ETag, Location, X-Request-Id, Retry-After, Catalog-Age");
        }
        /* a replica of a shared catalog says how old its view may be: seconds since it was
         * last known current (it grows while the database is unreachable) */
        if (store_shared(answering->store)) {
            struct store_stats stats;
            store_stats(answering->store, &stats);
            char age[24];
            snprintf(age, sizeof(age), "%lld", stats.snapshot_age_ms / 1000);
            MHD_add_response_header(resp, "Catalog-Age", age);
        }
    }
    /* every 503 is temporary here (a busy or unreachable catalog, memory, a full server) */
    if (status == 503)
        MHD_add_response_header(resp, MHD_HTTP_HEADER_RETRY_AFTER, "1");
    return MHD_queue_response(conn, status, resp);
}

/* Bodies of rejected requests (including those found too large while
 * reading) are read and dropped up to this size before answering, so the
 * client sees the answer rather than a reset connection (closing with unread
 * data makes the kernel send RST). Past it, declared or while draining a
 * chunked body, the connection is closed. */
#define DRAIN_LIMIT ((uint64_t)64 << 20)

static const struct route static_route = {NULL, ROUTE_STATIC, "GET, HEAD"};

static const char *content_type_for(const char *name)
{
    const char *dot = strrchr(name, '.');
    if (dot == NULL)
        return "application/octet-stream";
    if (strcmp(dot, ".html") == 0)
        return "text/html; charset=utf-8";
    if (strcmp(dot, ".js") == 0 || strcmp(dot, ".mjs") == 0)
        return "text/javascript; charset=utf-8";
    if (strcmp(dot, ".css") == 0)
        return "text/css; charset=utf-8";
    if (strcmp(dot, ".json") == 0)
        return "application/json";
    if (strcmp(dot, ".svg") == 0)
        return "image/svg+xml";
    if (strcmp(dot, ".png") == 0)
        return "image/png";
    if (strcmp(dot, ".ico") == 0)
        return "image/x-icon";
    return "application/octet-stream";
}

static const struct gs_embedded_file *find_static(const char *url)
{
    if (strcmp(url, "/") == 0)
        url = "/index.html";
    if (url[0] != '/' || strstr(url, "..") != NULL)
        return NULL;
    return gs_embedded_find(gs_web_files, url + 1);
}

/* Copies `n` bytes of the path into id; false when empty or too long. */
static bool take_id(const char *from, size_t n, char id[ID_MAX])
{
    if (n == 0 || n >= ID_MAX)
        return false;
    memcpy(id, from, n);
    id[n] = '\0';
    return true;
}

/* Entry routes take the rest of the path as the id, so an alias holding a
 * slash (a Hugging Face id such as meta-llama/Llama-3.1-8B, sent as is or as
 * %2F) names its entry; /v1/gpus/{id}/prices is told apart by its suffix. */
static const struct route *find_route(const char *url, const struct gs_embedded_file **file,
                                      char id[ID_MAX])
{
    for (size_t i = 0; i < sizeof(routes) / sizeof(routes[0]); i++) {
        if (strcmp(url, routes[i].path) == 0)
            return &routes[i];
    }
    if (strncmp(url, "/v1/models/", 11) == 0)
        return take_id(url + 11, strlen(url + 11), id) ? &model_route : NULL;
    if (strncmp(url, "/v1/gpus/", 9) == 0) {
        const char *rest = url + 9;
        const size_t n = strlen(rest), suffix = strlen("/prices");
        if (n > suffix && strcmp(rest + n - suffix, "/prices") == 0)
            return take_id(rest, n - suffix, id) ? &prices_route : NULL;
        return take_id(rest, n, id) ? &gpu_route : NULL;
    }
    *file = find_static(url);
    return *file != NULL ? &static_route : NULL;
}

/* On every response: no MIME sniffing, no referrer to other sites, the page
 * and the API never framed by another site, and scripts, styles and images
 * from this server only (the web page has no inline script; SVG bars set
 * their geometry through attributes and the CSSOM). */
static void add_security_headers(struct MHD_Response *resp)
{
    MHD_add_response_header(resp, "X-Content-Type-Options", "nosniff");
    MHD_add_response_header(resp, "Referrer-Policy", "no-referrer");
    MHD_add_response_header(resp, "X-Frame-Options", "DENY");
    MHD_add_response_header(resp, "Content-Security-Policy",
                            "default-src 'self'; script-src 'self'; style-src 'self' "
                            "'unsafe-inline'; img-src 'self' data:; connect-src 'self'; "
                            "object-src 'none'; base-uri 'none'; form-action 'self'; "
                            "frame-ancestors 'none'");
}

/* Text worth compressing: JSON, HTML, scripts, styles, YAML. */
static bool compressible(const char *type)
{
    return type != NULL && (strncmp(type, "application/json", 16) == 0 ||
                            strncmp(type, "application/problem+json", 24) == 0 ||
                            strncmp(type, "text/", 5) == 0 || strstr(type, "yaml") != NULL);
}

/* A body about to be sent: gzip'd (zlib level 1: about 5x on our JSON at a fraction of a
 * millisecond per 100 KB) when the client accepts it and it is large enough to gain.
 * `gzip_ready` is an already compressed form of the same body, or NULL. Sets *encoded when
 * the result is gzip and *varies when the answer depends on Accept-Encoding. A body taken
 * with MUST_FREE is freed when replaced. */
struct outgoing {
    const void *data;
    size_t length;
    enum MHD_ResponseMemoryMode mode;
    bool encoded, varies;
};

static struct outgoing encode_body(unsigned status, const char *type, const void *data,
                                   size_t length, enum MHD_ResponseMemoryMode mode,
                                   const void *gzip_ready, size_t gzip_length)
{
    struct outgoing out = {data, length, mode, false, false};
    if (status == 304) /* what the 200 would have varied on (RFC 9110 15.4.5) */
        out.varies = true;
    if (status != 200 || length < GZIP_MIN_BYTES || !compressible(type))
        return out;
    out.varies = true;
    if (answering == NULL || !answering->accept_gzip)
        return out;
    if (gzip_ready != NULL) {
        if (mode == MHD_RESPMEM_MUST_FREE)
            free((void *)(uintptr_t)data);
        out = (struct outgoing){gzip_ready, gzip_length, MHD_RESPMEM_PERSISTENT, true, true};
        return out;
    }
    size_t n = 0;
    unsigned char *packed = gzip_compress(data, length, 1, &n);
    if (packed == NULL)
        return out; /* out of memory: the plain body still goes */
    if (mode == MHD_RESPMEM_MUST_FREE)
        free((void *)(uintptr_t)data);
    out = (struct outgoing){packed, n, MHD_RESPMEM_MUST_FREE, true, true};
    return out;
}

static void add_encoding_headers(struct MHD_Response *resp, const struct outgoing *out)
{
    if (out->encoded)
        MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_ENCODING, "gzip");
    if (out->varies)
        MHD_add_response_header(resp, MHD_HTTP_HEADER_VARY, "Accept-Encoding");
}

static enum MHD_Result send_buffer(struct MHD_Connection *conn, unsigned status, const char *type,
                                   const void *data, size_t length, enum MHD_ResponseMemoryMode mode,
                                   const char *allow)
{
    const struct outgoing out = encode_body(status, type, data, length, mode, NULL, 0);
    struct MHD_Response *resp =
        MHD_create_response_from_buffer(out.length, (void *)(uintptr_t)out.data, out.mode);
    if (resp == NULL) {
        if (out.mode == MHD_RESPMEM_MUST_FREE)
            free((void *)(uintptr_t)out.data); /* MHD 0.9.75 leaves the buffer with us when it fails */
        return MHD_NO;
    }
    add_encoding_headers(resp, &out);
    MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, type);
    MHD_add_response_header(resp, MHD_HTTP_HEADER_CACHE_CONTROL, "no-cache");
    if (allow != NULL)
        MHD_add_response_header(resp, MHD_HTTP_HEADER_ALLOW, allow);
    enum MHD_Result ret = queue(conn, status, resp);
    MHD_destroy_response(resp);
    return ret;
}

static enum MHD_Result send_json(struct MHD_Connection *conn, unsigned status, const json_t *body,
                                 const char *type)
{
    size_t length = 0;
    char *text = json_out_dumps(body, &length);
    if (text == NULL)
        return MHD_NO;
    return send_buffer(conn, status, type, text, length, MHD_RESPMEM_MUST_FREE, NULL);
}

static enum MHD_Result send_problem(struct MHD_Connection *conn, const struct problem *p,
                                    const char *allow)
{
    json_t *body = problem_to_json(p);
    if (body == NULL)
        return MHD_NO;
    char *text = json_out_dumps(body, NULL);
    json_decref(body);
    if (text == NULL)
        return MHD_NO;
    return send_buffer(conn, (unsigned)p->status, "application/problem+json", text, strlen(text),
                       MHD_RESPMEM_MUST_FREE, allow);
}

static enum MHD_Result send_simple_problem(struct MHD_Connection *conn, int status,
                                           const char *slug, const char *title, const char *allow,
                                           const char *detail)
{
    struct problem p;
    problem_init(&p);
    problem_set(&p, status, slug, title, "%s", detail);
    return send_problem(conn, &p, allow);
}

/* Whether a Content-Type value is `type` (parameters such as charset allowed). */
static bool media_type_is(const char *value, const char *type)
{
    if (value == NULL)
        return false;
    size_t n = strlen(type);
    if (strncasecmp(value, type, n) != 0)
        return false;
    return value[n] == '\0' || value[n] == ';' || value[n] == ' ';
}

static bool is_json_media_type(const char *value)
{
    return media_type_is(value, "application/json");
}

static bool method_allowed(const struct route *r, const char *method)
{
    const size_t n = strlen(method);
    for (const char *p = r->allow; (p = strstr(p, method)) != NULL; p += n) {
        if ((p == r->allow || p[-2] == ',') && (p[n] == '\0' || p[n] == ','))
            return true;
    }
    return false;
}

static bool has_body(const char *method)
{
    return strcmp(method, "POST") == 0 || strcmp(method, "PUT") == 0 ||
           strcmp(method, "PATCH") == 0;
}

/* The media types a request body may have on this route and method, for the
 * 415 check; NULL when any JSON will do. */
static bool body_type_ok(const struct route *r, const char *method, const char *type)
{
    if (r->id == ROUTE_GPUS_BULK)
        return is_json_media_type(type) || media_type_is(type, "text/csv");
    if (strcmp(method, "PATCH") == 0)
        return is_json_media_type(type) || media_type_is(type, "application/merge-patch+json");
    return is_json_media_type(type);
}

static const char *body_types(const struct route *r, const char *method)
{
    if (r->id == ROUTE_GPUS_BULK)
        return "send the body as application/json or text/csv";
    if (strcmp(method, "PATCH") == 0)
        return "send the patch as application/merge-patch+json (or application/json)";
    return "send the request body as application/json";
}

static void reject(struct early_answer *a, int status, const char *slug, const char *title,
                   const char *allow, const char *detail)
{
    a->challenge = false;
    a->close = false;
    a->status = status;
    a->slug = slug;
    a->title = title;
    a->allow = allow;
    snprintf(a->detail, sizeof(a->detail), "%s", detail);
}

static void reject_too_large(struct early_answer *a, size_t limit)
{
    char detail[96];
    snprintf(detail, sizeof(detail), "request bodies are limited to %zu bytes", limit);
    reject(a, 413, "payload-too-large", "Payload too large", NULL, detail);
}

/* A write to the catalog: refused before its body is read when the key is wrong. */
static bool is_catalog_write(const struct route *r, const char *method)
{
    return r->id != ROUTE_ESTIMATE && r->id != ROUTE_RECOMMEND && r->id != ROUTE_FIT &&
           r->id != ROUTE_STATIC && strcmp(method, "GET") != 0 &&
           strcmp(method, "HEAD") != 0;
}

/* First call: route, method, credentials, media type and declared length.
 * Returns true when the request is to be answered with `a` instead of being
 * served. */
static bool precheck(struct MHD_Connection *conn, const struct http_server *srv,
                     const struct route *r, const char *method, struct early_answer *a)
{
    char detail[96];
    if (r == NULL) {
        reject(a, 404, "not-found", "Not found", NULL, "no resource at this path; see /openapi.json");
        return true;
    }
    if (!method_allowed(r, method)) {
        snprintf(detail, sizeof(detail), "this resource accepts %s", r->allow);
        reject(a, 405, "method-not-allowed", "Method not allowed", r->allow, detail);
        return true;
    }
    if (is_catalog_write(r, method)) {
        const char *authorization =
            MHD_lookup_connection_value(conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_AUTHORIZATION);
        switch (auth_check(srv->api.auth, authorization)) {
        case AUTH_OK:
            break;
        case AUTH_DISABLED:
            reject(a, 403, "writes-disabled", "Catalog writes are disabled", NULL,
                   "no API key is configured; set GPUSIZER_API_KEY or --api-key-file");
            return true;
        case AUTH_MISSING:
        case AUTH_WRONG:
            reject(a, 401, "unauthorized", "Authentication required", NULL,
                   "catalog writes need \"Authorization: Bearer <API key>\" with a valid key");
            a->challenge = true;
            return true;
        }
    }
    if (!has_body(method))
        return false;
    const char *type = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Content-Type");
    if (!body_type_ok(r, method, type)) {
        reject(a, 415, "unsupported-media-type", "Unsupported media type", NULL,
               body_types(r, method));
        return true;
    }
    const char *length = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Content-Length");
    if (length != NULL && strtoull(length, NULL, 10) > srv->max_body_bytes) {
        reject_too_large(a, srv->max_body_bytes);
        return true;
    }
    return false;
}

static enum MHD_Result send_early(struct MHD_Connection *conn, const struct early_answer *a)
{
    struct problem p;
    problem_init(&p);
    problem_set(&p, a->status, a->slug, a->title, "%s", a->detail);
    json_t *body = problem_to_json(&p);
    char *text = body != NULL ? json_out_dumps(body, NULL) : NULL;
    json_decref(body);
    if (text == NULL)
        return MHD_NO;
    struct MHD_Response *resp = MHD_create_response_from_buffer(strlen(text), text,
                                                                MHD_RESPMEM_MUST_FREE);
    if (resp == NULL) {
        free(text);
        return MHD_NO;
    }
    MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, "application/problem+json");
    if (a->allow != NULL)
        MHD_add_response_header(resp, MHD_HTTP_HEADER_ALLOW, a->allow);
    if (a->challenge)
        MHD_add_response_header(resp, MHD_HTTP_HEADER_WWW_AUTHENTICATE,
                                "Bearer realm=\"gpusizer catalog\"");
    if (a->close)
        MHD_add_response_header(resp, MHD_HTTP_HEADER_CONNECTION, "close");
    enum MHD_Result ret = queue(conn, (unsigned)a->status, resp);
    MHD_destroy_response(resp);
    return ret;
}

/* Whether a rejected request has a body worth draining first: one of
 * unknown (chunked) or declared length within DRAIN_LIMIT. */
static bool expects_continue(struct MHD_Connection *conn)
{
    const char *expect = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Expect");
    return expect != NULL && strcasecmp(expect, "100-continue") == 0;
}

static bool drainable(struct MHD_Connection *conn)
{
    const char *length = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Content-Length");
    if (length == NULL)
        return MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Transfer-Encoding") != NULL;
    return strtoull(length, NULL, 10) <= DRAIN_LIMIT;
}


/* Appends to the body, or turns the request into a 413 once it passes
 * `limit` (a chunked body declares no length up front). */
static bool append_body(struct conn_guard *guard, struct request *req, const char *data,
                        size_t size, size_t limit)
{
    if (size > limit - req->length) {
        req->rejected = true;
        reject_too_large(&req->early, limit);
        return true;
    }
    if (req->length + size + 1 > req->capacity) {
        size_t cap = req->capacity ? req->capacity : 1024;
        while (cap < req->length + size + 1)
            cap *= 2;
        /* every unfinished body shares one budget: many half-sent bodies cannot take the
         * server's memory */
        if (!conn_guard_reserve(guard, cap - req->capacity)) {
            req->rejected = true;
            reject(&req->early, 503, "busy", "The server is holding too many unfinished requests",
                   NULL, "try again shortly");
            return true;
        }
        char *grown = realloc(req->body, cap);
        if (grown == NULL) {
            conn_guard_release(guard, cap - req->capacity);
            return false;
        }
        req->body = grown;
        req->capacity = cap;
    }
    memcpy(req->body + req->length, data, size);
    req->length += size;
    req->body[req->length] = '\0';
    return true;
}

/* How long a sizing request may wait for a compute worker before it is answered 503
 * rather than computed: a client that waited this long has usually given up, and the work
 * would only delay the requests behind it. */
#define COMPUTE_WAIT_LIMIT_NS (10ull * 1000000000ull)

/* Computes a sizing answer into `job` (on a compute worker, or on the connection thread
 * when the request is cheap). */
static void compute_answer(struct compute_job *job)
{
    struct request *req = job->req;
    struct http_server *srv = job->srv;
    const char *text = req->body != NULL ? req->body : "";
    problem_init(&job->problem);
    if (hub_import_prepare(&srv->hub, srv->store, srv->auto_import, job->body, &req->service,
                           &job->problem) != 0 ||
        job->writes(req->service, job->body, &job->answer, &job->length, &job->problem) != 0) {
        job->failed = true;
        return;
    }
    if (job->answer == NULL) {
        problem_set(&job->problem, 503, "out-of-memory", "The answer could not be built",
                    "%s", "the server is short of memory; retry shortly");
        job->failed = true;
        return;
    }
    if (job->cached >= 0) /* kept for this very body */
        answer_cache_put(service_answers(req->service), (enum answer_kind)job->cached, text,
                         req->length, job->answer, job->length);
}

static void compute_job_finish(struct compute_job *job)
{
    __atomic_store_n(&job->done, true, __ATOMIC_RELEASE);
    MHD_resume_connection(job->conn); /* the handler runs again and sends the answer */
}

static void compute_job_run(void *arg)
{
    struct compute_job *job = arg;
    if (monotonic_ns() - job->queued_ns > COMPUTE_WAIT_LIMIT_NS) {
        metrics_compute_rejected();
        problem_init(&job->problem);
        problem_set(&job->problem, 503, "busy", "The server is busy",
                    "the request waited more than %llu s for a compute worker; retry shortly",
                    COMPUTE_WAIT_LIMIT_NS / 1000000000ull);
        job->failed = true;
    } else {
        compute_answer(job);
    }
    compute_job_finish(job);
}

static void compute_job_free(struct compute_job *job)
{
    if (job == NULL)
        return;
    json_decref(job->body);
    free(job->answer);
    free(job);
}

static enum MHD_Result send_computed(struct MHD_Connection *conn, struct compute_job *job)
{
    if (job->failed)
        return send_problem(conn, &job->problem, NULL);
    char *answer = job->answer;
    job->answer = NULL; /* the response owns it now */
    return send_buffer(conn, 200, "application/json", answer, job->length, MHD_RESPMEM_MUST_FREE,
                       NULL);
}

/* A POST that computes: parse the JSON body, import a hub model it names when auto-import
 * is on, run the operation, answer. `cached` names the answer cache to use
 * (answer_cache.h), or is negative: estimates cost less to compute than to look up and
 * copy. A cached answer was computed from this very catalog view, whose model list already
 * held the request's model (so hub_import_prepare has nothing to do for it).
 *
 * /v1/estimate is microseconds of CPU and answers on the connection thread; plan searches (/v1/recommend, /v1/fit: up to seconds of CPU on a large catalog)
 * and any request that first imports its model from the hub (seconds of network) run on
 * worker pools with the connection suspended, so the connection threads stay free for
 * /healthz, /readyz, /metrics and the cheap requests. Plan searches share a bounded
 * compute pool at a lower CPU priority: when it is full the answer is 503 with
 * Retry-After at once. */
static enum MHD_Result handle_compute(struct MHD_Connection *conn, struct http_server *srv,
                                      struct request *req, service_text_operation writes,
                                      int cached)
{
    const char *text = req->body != NULL ? req->body : "";
    if (cached >= 0) {
        size_t length = 0;
        char *answer = answer_cache_get(service_answers(req->service), (enum answer_kind)cached,
                                        text, req->length, &length);
        metrics_answer_cache(answer != NULL);
        if (answer != NULL)
            return send_buffer(conn, 200, "application/json", answer, length,
                               MHD_RESPMEM_MUST_FREE, NULL);
    }
    struct problem p;
    problem_init(&p);
    json_error_t jerr;
    json_t *body = json_load_lenient(text, req->length, JSON_REJECT_DUPLICATES, &jerr);
    if (body == NULL) {
        problem_set(&p, 400, "malformed-json", "The body is not valid JSON",
                    "line %d, column %d: %s", jerr.line, jerr.column, jerr.text);
        gs_error_add(&p.errors, GS_ERR_INVALID, "", "%s", jerr.text);
        return send_problem(conn, &p, NULL);
    }
    struct compute_job *job = calloc(1, sizeof(*job));
    if (job == NULL) {
        json_decref(body);
        return send_simple_problem(conn, 503, "out-of-memory", "The server is short of memory",
                                   NULL, "retry shortly");
    }
    job->conn = conn;
    job->srv = srv;
    job->req = req;
    job->body = body;
    job->writes = writes;
    job->cached = cached;
    const bool imports = hub_import_pending(srv->auto_import, body, req->service);
    struct offload *pool = imports ? srv->offload : cached >= 0 ? srv->compute : NULL;
    if (pool != NULL) {
        job->queued_ns = monotonic_ns();
        req->computing = job;
        MHD_suspend_connection(conn);
        switch (offload_try_submit(pool, compute_job_run, job)) {
        case OFFLOAD_QUEUED:
            return MHD_YES;
        case OFFLOAD_FULL:
            metrics_compute_rejected();
            problem_init(&job->problem);
            problem_set(&job->problem, 503, "busy", "The server is busy",
                        "%u plan searches are already waiting for a compute worker; retry "
                        "shortly",
                        offload_waiting(pool));
            job->failed = true;
            compute_job_finish(job);
            return MHD_YES;
        case OFFLOAD_STOPPING: /* answer here, through the same resume */
            compute_job_run(job);
            return MHD_YES;
        }
    }
    compute_answer(job);
    const enum MHD_Result ret = send_computed(conn, job);
    compute_job_free(job);
    return ret;
}

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
            return send_simple_problem(conn, 503, "not-ready", "The catalog cannot be read", NULL,
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
    enum MHD_Result ret = send_json(conn, 200, body, "application/json");
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

static const char *header(struct MHD_Connection *conn, const char *name)
{
    return MHD_lookup_connection_value(conn, MHD_HEADER_KIND, name);
}

static void fill_api_request(struct MHD_Connection *conn, const char *method,
                             const struct request *req, struct api_request *out)
{
    memset(out, 0, sizeof(*out));
    out->method = method;
    out->id = req->id[0] != '\0' ? req->id : NULL;
    MHD_get_connection_values(conn, MHD_GET_ARGUMENT_KIND, collect_arg, out);
    out->content_type = header(conn, MHD_HTTP_HEADER_CONTENT_TYPE);
    out->accept = header(conn, MHD_HTTP_HEADER_ACCEPT);
    out->authorization = header(conn, MHD_HTTP_HEADER_AUTHORIZATION);
    out->if_match = header(conn, MHD_HTTP_HEADER_IF_MATCH);
    out->if_none_match = header(conn, MHD_HTTP_HEADER_IF_NONE_MATCH);
    out->accept_gzip = req->accept_gzip;
    out->body = req->body;
    out->body_length = req->length;
}

static enum MHD_Result send_api(struct MHD_Connection *conn, struct api_response *r)
{
    if (r->status >= 400 && r->body == NULL && r->borrowed == NULL) {
        json_t *body = problem_to_json(&r->problem);
        r->body = body != NULL ? json_out_dumps(body, NULL) : NULL;
        json_decref(body);
        if (r->body == NULL)
            return MHD_NO;
        r->length = strlen(r->body);
        r->content_type = "application/problem+json";
        r->status = r->problem.status;
    }
    /* borrowed bodies (and their gzip forms) belong to the service this request holds
     * until it completes */
    const struct outgoing out =
        r->body != NULL
            ? encode_body((unsigned)r->status, r->content_type, r->body, r->length,
                          MHD_RESPMEM_MUST_FREE, NULL, 0)
            : encode_body((unsigned)r->status, r->content_type,
                          r->borrowed != NULL ? r->borrowed : "", r->borrowed != NULL ? r->length : 0,
                          MHD_RESPMEM_PERSISTENT, r->borrowed_gzip, r->borrowed_gzip_length);
    r->body = NULL;
    struct MHD_Response *resp =
        MHD_create_response_from_buffer(out.length, (void *)(uintptr_t)out.data, out.mode);
    if (resp == NULL && out.mode == MHD_RESPMEM_MUST_FREE)
        free((void *)(uintptr_t)out.data);
    if (resp == NULL)
        return MHD_NO;
    add_encoding_headers(resp, &out);
    if (r->content_type != NULL)
        MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, r->content_type);
    MHD_add_response_header(resp, MHD_HTTP_HEADER_CACHE_CONTROL, "no-cache");
    if (r->etag[0] != '\0')
        MHD_add_response_header(resp, MHD_HTTP_HEADER_ETAG, r->etag);
    if (r->location[0] != '\0')
        MHD_add_response_header(resp, MHD_HTTP_HEADER_LOCATION, r->location);
    if (r->link[0] != '\0')
        MHD_add_response_header(resp, "Link", r->link);
    if (r->total_count[0] != '\0')
        MHD_add_response_header(resp, "X-Total-Count", r->total_count);
    if (r->bearer_challenge)
        MHD_add_response_header(resp, MHD_HTTP_HEADER_WWW_AUTHENTICATE,
                                "Bearer realm=\"gpusizer catalog\"");
    enum MHD_Result ret = queue(conn, (unsigned)r->status, resp);
    MHD_destroy_response(resp);
    return ret;
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

static void catalog_job_free(struct catalog_job *job)
{
    if (job != NULL)
        free(job->out.body);
    free(job);
}

/* Reads answer on the connection's thread. Writes wait on the writer lock and fsync,
 * imports on the hub for seconds: they run on the offload pool with the connection
 * suspended, so the other connections of this thread are not held up. */
static enum MHD_Result handle_catalog(struct MHD_Connection *conn, struct http_server *srv,
                                      struct request *req, const char *method)
{
    const bool waits = strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0;
    if (waits && srv->offload != NULL) {
        struct catalog_job *job = calloc(1, sizeof(*job));
        if (job != NULL) {
            job->conn = conn;
            job->srv = srv;
            job->req = req;
            fill_api_request(conn, method, req, &job->in);
            api_response_init(&job->out);
            req->job = job;
            MHD_suspend_connection(conn);
            if (!offload_submit(srv->offload, catalog_job_run, job))
                catalog_job_run(job); /* stopping: answer here, through the same resume */
            return MHD_YES;
        }
    }
    struct api_request in;
    struct api_response out;
    fill_api_request(conn, method, req, &in);
    api_response_init(&out);
    run_catalog(srv, req, &in, &out);
    return send_api(conn, &out);
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
    return send_buffer(conn, 200, "text/plain; version=0.0.4; charset=utf-8", out.data,
                       out.length, MHD_RESPMEM_MUST_FREE, NULL);
}

static enum MHD_Result dispatch(struct MHD_Connection *conn, struct http_server *srv,
                                struct request *req, const char *method)
{
    static const char healthz[] = "{\"status\":\"ok\"}";
    switch (req->route->id) {
    case ROUTE_HEALTHZ:
        return send_buffer(conn, 200, "application/json", healthz, sizeof(healthz) - 1,
                           MHD_RESPMEM_PERSISTENT, NULL);
    case ROUTE_OPENAPI:
        return send_buffer(conn, 200, "application/json", gs_openapi_files[0].data,
                           gs_openapi_files[0].size, MHD_RESPMEM_PERSISTENT, NULL);
    case ROUTE_STATIC:
        return send_buffer(conn, 200, content_type_for(req->file->name), req->file->data,
                           req->file->size, MHD_RESPMEM_PERSISTENT, NULL);
    case ROUTE_MODEL_TYPES: {
        size_t length = 0;
        const char *types = model_types_json(&length);
        return types != NULL ? send_buffer(conn, 200, "application/json", types, length,
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
        return handle_compute(conn, srv, req, service_estimate_text, -1);
    case ROUTE_RECOMMEND:
        return handle_compute(conn, srv, req, sizing_recommend_text, ANSWER_RECOMMEND);
    case ROUTE_FIT:
        return handle_compute(conn, srv, req, sizing_fit_text, ANSWER_FIT);
    default:
        return handle_catalog(conn, srv, req, method);
    }
}

/* What the request's framing headers say (every occurrence, as sent). */
struct framing {
    unsigned content_lengths;
    char content_length[32]; /* the first one */
    bool lengths_differ;
    unsigned transfer_encodings;
    bool unknown_coding;     /* a transfer coding other than chunked */
    bool host;
    bool bad_name;           /* a header name with white space ("Host : x") */
};

static enum MHD_Result collect_framing(void *cls, enum MHD_ValueKind kind, const char *key,
                                       const char *value)
{
    struct framing *f = cls;
    (void)kind;
    if (key == NULL)
        return MHD_YES;
    if (strpbrk(key, " \t") != NULL)
        f->bad_name = true;
    if (strcasecmp(key, MHD_HTTP_HEADER_CONTENT_LENGTH) == 0) {
        if (f->content_lengths++ == 0)
            snprintf(f->content_length, sizeof(f->content_length), "%s", value ? value : "");
        else if (value == NULL || strcmp(value, f->content_length) != 0)
            f->lengths_differ = true;
    } else if (strcasecmp(key, MHD_HTTP_HEADER_TRANSFER_ENCODING) == 0) {
        f->transfer_encodings++;
        if (value == NULL || strcasecmp(value, "chunked") != 0)
            f->unknown_coding = true;
    } else if (strcasecmp(key, MHD_HTTP_HEADER_HOST) == 0) {
        f->host = true;
    }
    return MHD_YES;
}

/* RFC 9112 6.3 and 3.2: a message with both Content-Length and
 * Transfer-Encoding, conflicting lengths or a coding the server does not
 * know cannot be framed safely (request smuggling); HTTP/1.1 requires Host.
 * Such a request is answered 400 and the connection closed, whatever the
 * HTTP library would have done. */
static bool framing_rejected(struct MHD_Connection *conn, const char *version,
                             struct early_answer *a)
{
    struct framing f;
    memset(&f, 0, sizeof(f));
    MHD_get_connection_values(conn, MHD_HEADER_KIND, collect_framing, &f);
    const char *why = NULL;
    if (f.content_lengths > 0 && f.transfer_encodings > 0)
        why = "Content-Length together with Transfer-Encoding";
    else if (f.lengths_differ)
        why = "conflicting Content-Length headers";
    else if (f.transfer_encodings > 1 || f.unknown_coding)
        why = "a transfer coding other than a single chunked";
    else if (f.bad_name)
        why = "white space in a header name";
    else if (!f.host && version != NULL && strcmp(version, MHD_HTTP_VERSION_1_1) == 0)
        why = "HTTP/1.1 without Host";
    if (why == NULL)
        return false;
    memset(a, 0, sizeof(*a));
    a->status = 400;
    a->slug = "bad-framing";
    a->title = "The request's framing is ambiguous";
    a->close = true;
    snprintf(a->detail, sizeof(a->detail), "%s (RFC 9112); the connection is closed", why);
    return true;
}

/* Whether `origin` is one of the configured CORS origins ("*" allows any). */
static bool cors_allowed(const struct http_server *srv, const char *origin)
{
    if (origin == NULL || origin[0] == '\0' || srv->cors_origins[0] == '\0' || strlen(origin) >= 200)
        return false;
    const size_t n = strlen(origin);
    for (const char *p = srv->cors_origins; *p != '\0';) {
        const char *end = strchr(p, ',');
        const size_t len = end != NULL ? (size_t)(end - p) : strlen(p);
        if ((len == 1 && p[0] == '*') || (len == n && strncmp(p, origin, n) == 0))
            return true;
        p += len + (end != NULL);
    }
    return false;
}

/* A CORS preflight from an allowed origin: 204 with what may be sent. */
static enum MHD_Result send_preflight(struct MHD_Connection *conn, const struct route *route)
{
    struct MHD_Response *resp = MHD_create_response_from_buffer(0, (void *)(uintptr_t) "",
                                                                MHD_RESPMEM_PERSISTENT);
    if (resp == NULL)
        return MHD_NO;
    MHD_add_response_header(resp, "Access-Control-Allow-Methods", route->allow);
    MHD_add_response_header(resp, "Access-Control-Allow-Headers",
                            "Content-Type, Authorization, If-Match, If-None-Match");
    MHD_add_response_header(resp, "Access-Control-Max-Age", "600");
    const enum MHD_Result ret = queue(conn, 204, resp);
    MHD_destroy_response(resp);
    return ret;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *conn, const char *url,
                                  const char *method, const char *version, const char *upload_data,
                                  size_t *upload_data_size, void **con_cls)
{
    struct http_server *srv = cls;
    struct request *req = *con_cls;
    if (req == NULL) {
        conn_guard_headers_done(conn);
        req = calloc(1, sizeof(*req));
        if (req == NULL)
            return MHD_NO;
        *con_cls = req;
        req->store = srv->store;
        req->started_ns = monotonic_ns();
        req->route_id = ROUTE_NONE;
        new_request_id(req);
        snprintf(req->method, sizeof(req->method), "%s", method);
        snprintf(req->path, sizeof(req->path), "%s", url);
        req->accept_gzip = gzip_accepted(header(conn, MHD_HTTP_HEADER_ACCEPT_ENCODING));
        enum MHD_Result ret;
        struct early_answer bad;
        if (framing_rejected(conn, version, &bad)) {
            answering = req;
            ret = send_early(conn, &bad);
            answering = NULL;
            return ret;
        }
        const struct gs_embedded_file *file = NULL;
        char id[ID_MAX] = "";
        const struct route *route = find_route(url, &file, id);
        if (route != NULL)
            req->route_id = route->id;
        const char *origin = header(conn, "Origin");
        if (cors_allowed(srv, origin))
            snprintf(req->cors_origin, sizeof(req->cors_origin), "%s", origin);
        if (route != NULL && req->cors_origin[0] != '\0' && strcmp(method, "OPTIONS") == 0 &&
            header(conn, "Access-Control-Request-Method") != NULL) {
            answering = req;
            ret = send_preflight(conn, route);
            answering = NULL;
            return ret;
        }
        struct early_answer early;
        bool rejected = precheck(conn, srv, route, method, &early);
        /* a client that waits for 100 Continue has sent no body yet: the final answer goes
         * now, before any Continue (RFC 9110 10.1.1), rather than after draining */
        if (rejected && (!drainable(conn) || expects_continue(conn))) {
            answering = req;
            ret = send_early(conn, &early);
            answering = NULL;
            return ret;
        }
        req->route = route;
        req->file = file;
        memcpy(req->id, id, sizeof(id));
        req->rejected = rejected;
        if (rejected)
            req->early = early;
        return MHD_YES;
    }
    if (req->computing != NULL) { /* resumed: the computed answer is ready */
        if (!__atomic_load_n(&req->computing->done, __ATOMIC_ACQUIRE))
            return MHD_YES;
        answering = req;
        const enum MHD_Result ret = send_computed(conn, req->computing);
        answering = NULL;
        compute_job_free(req->computing);
        req->computing = NULL;
        return ret;
    }
    if (req->job != NULL) { /* resumed: the offloaded answer is ready */
        if (!__atomic_load_n(&req->job->done, __ATOMIC_ACQUIRE))
            return MHD_YES;
        answering = req;
        const enum MHD_Result ret = send_api(conn, &req->job->out);
        answering = NULL;
        catalog_job_free(req->job);
        req->job = NULL;
        return ret;
    }
    if (*upload_data_size > 0) {
        if (req->rejected) {
            req->drained += *upload_data_size;
            *upload_data_size = 0; /* dropped */
            return req->drained <= DRAIN_LIMIT ? MHD_YES : MHD_NO;
        }
        if (!append_body(srv->guard, req, upload_data, *upload_data_size, srv->max_body_bytes))
            return MHD_NO;
        *upload_data_size = 0;
        return MHD_YES;
    }
    conn_guard_body_done(conn);
    answering = req;
    const enum MHD_Result ret =
        req->rejected ? send_early(conn, &req->early) : dispatch(conn, srv, req, method);
    answering = NULL;
    return ret;
}

/* `in` as the inside of a JSON string: quotes, backslashes and control
 * characters escaped, and bytes past ASCII as \u00XX, so a path that is not
 * UTF-8 still makes a valid line. Truncated to fit `cap`. */
static void json_escape(const char *in, char *out, size_t cap)
{
    static const char hex[] = "0123456789abcdef";
    size_t n = 0;
    for (const unsigned char *c = (const unsigned char *)in; *c != '\0' && n + 7 < cap; c++) {
        if (*c == '"' || *c == '\\') {
            out[n++] = '\\';
            out[n++] = (char)*c;
        } else if (*c < 0x20 || *c >= 0x7f) {
            memcpy(out + n, "\\u00", 4);
            out[n + 4] = hex[*c >> 4];
            out[n + 5] = hex[*c & 15];
            n += 6;
        } else {
            out[n++] = (char)*c;
        }
    }
    out[n] = '\0';
}

/* One JSON line per answered request: never a body, a query string or a
 * header (keys and tokens travel in headers). */
static void log_access(struct http_server *srv, struct MHD_Connection *conn,
                       const struct request *req, uint64_t elapsed_ns)
{
    char remote[INET6_ADDRSTRLEN] = "";
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (info != NULL && info->client_addr != NULL) {
        const struct sockaddr *sa = info->client_addr;
        if (sa->sa_family == AF_INET)
            inet_ntop(AF_INET, &((const struct sockaddr_in *)(const void *)sa)->sin_addr, remote,
                      sizeof(remote));
        else if (sa->sa_family == AF_INET6)
            inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)(const void *)sa)->sin6_addr,
                      remote, sizeof(remote));
    }
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    struct tm tm;
    gmtime_r(&now.tv_sec, &tm);
    char when[40];
    const size_t n = strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%S", &tm);
    snprintf(when + n, sizeof(when) - n, ".%03ldZ", now.tv_nsec / 1000000);
    char method[64], path[1300], line[1700];
    json_escape(req->method, method, sizeof(method));
    json_escape(req->path, path, sizeof(path));
    const int len = snprintf(
        line, sizeof(line),
        "{\"time\":\"%s\",\"request_id\":\"%s\",\"remote\":\"%s\",\"method\":\"%s\","
        "\"path\":\"%s\",\"route\":\"%s\",\"status\":%u,\"duration_ms\":%.3f,"
        "\"bytes_in\":%zu}\n",
        when, req->request_id, remote, method, path,
        route_names[req->route_id < ROUTE_COUNT ? req->route_id : ROUTE_NONE], req->status,
        (double)elapsed_ns / 1e6, req->length);
    if (len <= 0 || (size_t)len >= sizeof(line))
        return;
    /* one write per line, so lines from different threads never interleave */
    pthread_mutex_lock(&srv->log_lock);
    fwrite(line, 1, (size_t)len, srv->access_log);
    if (srv->access_log != stderr) /* stderr is unbuffered; a file is flushed per line */
        fflush(srv->access_log);
    pthread_mutex_unlock(&srv->log_lock);
}

static void on_completed(void *cls, struct MHD_Connection *conn, void **con_cls,
                         enum MHD_RequestTerminationCode code)
{
    struct http_server *srv = cls;
    (void)code;
    conn_guard_request_done(conn);
    struct request *req = *con_cls;
    if (req == NULL)
        return;
    if (req->status != 0) {
        const uint64_t elapsed = monotonic_ns() - req->started_ns;
        metrics_request(req->route_id, req->status, elapsed);
        if (srv->access_log != NULL)
            log_access(srv, conn, req, elapsed);
    }
    catalog_job_free(req->job); /* done: the pools are drained before connections close */
    compute_job_free(req->computing);
    store_release(req->service);
    free(req->body);
    conn_guard_release(srv->guard, req->capacity);
    /* give large bodies' pages back to the system, so resident memory returns to its
     * baseline after a burst (glibc keeps freed heap otherwise) */
    if (req->capacity >= ((size_t)1 << 20))
        malloc_trim(0);
    free(req);
    *con_cls = NULL;
}

static unsigned cpu_count(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (unsigned)n : 1;
}

static int hex_value(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* Percent-decoding of the path and query, in place, except that %00 stays as
 * it is: a decoded NUL would end the C string early, so "/index.html%00.js"
 * would be served as "/index.html" (the classic NUL-byte truncation). */
static size_t unescape(void *cls, struct MHD_Connection *conn, char *s)
{
    (void)cls;
    (void)conn;
    char *out = s;
    for (const char *in = s; *in != '\0'; in++) {
        const int hi = in[0] == '%' ? hex_value(in[1]) : -1;
        const int lo = hi >= 0 ? hex_value(in[2]) : -1;
        if (hi >= 0 && lo >= 0 && (hi | lo) != 0) {
            *out++ = (char)(hi * 16 + lo);
            in += 2;
        } else {
            *out++ = *in;
        }
    }
    *out = '\0';
    return (size_t)(out - s);
}

int http_start(const struct http_config *config, struct store *store, const struct auth *auth,
               struct http_server **out, char *errbuf, size_t errlen)
{
    struct sockaddr_in v4;
    struct sockaddr_in6 v6;
    struct sockaddr *addr = NULL;
    unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_USE_TURBO |
                     MHD_ALLOW_SUSPEND_RESUME;
    memset(&v4, 0, sizeof(v4));
    memset(&v6, 0, sizeof(v6));
    if (inet_pton(AF_INET, config->host, &v4.sin_addr) == 1) {
        v4.sin_family = AF_INET;
        v4.sin_port = htons(config->port);
        addr = (struct sockaddr *)&v4;
    } else if (inet_pton(AF_INET6, config->host, &v6.sin6_addr) == 1) {
        v6.sin6_family = AF_INET6;
        v6.sin6_port = htons(config->port);
        addr = (struct sockaddr *)&v6;
        flags |= MHD_USE_IPv6;
    } else {
        snprintf(errbuf, errlen, "--host %s is not an IPv4 or IPv6 address", config->host);
        return -1;
    }
    struct http_server *srv = calloc(1, sizeof(*srv));
    if (srv == NULL) {
        snprintf(errbuf, errlen, "out of memory");
        return -1;
    }
    srv->store = store;
    srv->api.store = store;
    srv->api.auth = auth;
    srv->max_body_bytes = config->max_body_bytes;
    if (config->hub != NULL) {
        srv->hub = *config->hub;
    } else {
        hub_config_defaults(&srv->hub);
        hub_config_from_env(&srv->hub);
    }
    srv->auto_import = config->auto_import;
    snprintf(srv->cors_origins, sizeof(srv->cors_origins), "%s",
             config->cors_origins != NULL ? config->cors_origins : "");
    hub_global_init(); /* before the worker threads start */
    metrics_init(route_names, ROUTE_COUNT);
    id_prefix = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 16);
    pthread_mutex_init(&srv->log_lock, NULL);
    const char *log = config->access_log;
    if (log == NULL || strcmp(log, "") == 0 || strcmp(log, "1") == 0 ||
        strcmp(log, "stderr") == 0) {
        srv->access_log = stderr;
    } else if (strcmp(log, "0") == 0 || strcmp(log, "off") == 0) {
        srv->access_log = NULL;
    } else {
        srv->access_log = fopen(log, "a");
        if (srv->access_log == NULL) {
            snprintf(errbuf, errlen, "cannot open the access log %s", log);
            free(srv);
            return -1;
        }
    }
    unsigned threads = config->threads ? config->threads : cpu_count();
    const struct conn_guard_config guard = {
        config->header_timeout_s ? config->header_timeout_s : 10,
        config->body_timeout_s ? config->body_timeout_s : 30,
        config->max_buffered_bytes ? config->max_buffered_bytes : (uint64_t)256 << 20};
    srv->guard = conn_guard_start(&guard);
    if (srv->guard == NULL) {
        snprintf(errbuf, errlen, "cannot start the connection watchdog");
        free(srv);
        return -1;
    }
    /* writes serialize on the catalog's writer lock anyway; several workers let hub imports
     * (network-bound) overlap and keep a quick price write from queueing behind one */
    srv->offload = offload_start(config->write_threads ? config->write_threads : 4);
    if (srv->offload == NULL) {
        conn_guard_stop(srv->guard);
        snprintf(errbuf, errlen, "cannot start the write threads");
        free(srv);
        return -1;
    }
    /* plan searches: one worker per CPU by default at niceness 5, so the connection threads
     * answering probes keep most of a busy CPU; at most 64 waiting per worker (more than
     * the clients a server of this size serves at once: past it the answer is 503) */
    const unsigned compute_threads = config->compute_threads ? config->compute_threads
                                                             : cpu_count();
    srv->compute = offload_start_limited(
        compute_threads, config->compute_queue ? config->compute_queue : 64 * compute_threads, 5);
    if (srv->compute == NULL) {
        offload_stop(srv->offload);
        conn_guard_stop(srv->guard);
        snprintf(errbuf, errlen, "cannot start the compute threads");
        free(srv);
        return -1;
    }
    srv->daemon = MHD_start_daemon(
        flags, config->port, NULL, NULL, &on_request, srv, MHD_OPTION_SOCK_ADDR, addr,
        MHD_OPTION_THREAD_POOL_SIZE, threads, MHD_OPTION_NOTIFY_COMPLETED, &on_completed, srv,
        MHD_OPTION_NOTIFY_CONNECTION, &conn_guard_notify, srv->guard,
        MHD_OPTION_CONNECTION_TIMEOUT, config->timeout_s, MHD_OPTION_CONNECTION_LIMIT,
        config->max_connections ? config->max_connections : 4096u,
        MHD_OPTION_PER_IP_CONNECTION_LIMIT,
        config->max_connections_per_ip ? config->max_connections_per_ip : 256u,
        MHD_OPTION_LISTEN_BACKLOG_SIZE, (unsigned)1024, MHD_OPTION_UNESCAPE_CALLBACK, &unescape,
        NULL, MHD_OPTION_END);
    if (srv->daemon == NULL) {
        offload_stop(srv->compute);
        offload_stop(srv->offload);
        conn_guard_stop(srv->guard);
        snprintf(errbuf, errlen, "cannot listen on %s port %u (in use, or not permitted)",
                 config->host, (unsigned)config->port);
        free(srv);
        return -1;
    }
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(srv->daemon, MHD_DAEMON_INFO_BIND_PORT);
    srv->port = info != NULL ? info->port : config->port;
    *out = srv;
    return 0;
}

uint16_t http_port(const struct http_server *server)
{
    return server->port;
}

void http_stop(struct http_server *server)
{
    if (server == NULL)
        return;
    /* answer every write already taken (each resumes its connection), then close */
    offload_stop(server->compute);
    server->compute = NULL;
    offload_stop(server->offload);
    server->offload = NULL;
    MHD_stop_daemon(server->daemon);
    conn_guard_stop(server->guard);
    if (server->access_log != NULL && server->access_log != stderr)
        fclose(server->access_log);
    pthread_mutex_destroy(&server->log_lock);
    free(server);
}
