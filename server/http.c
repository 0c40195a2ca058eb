/*
 * http.c - libmicrohttpd glue (see http.h).
 *
 * The access handler runs in three phases per request: the first call
 * routes and checks method, media type and declared length (answering
 * 404/405/415/413 before any body is read); middle calls append body bytes
 * to a capped buffer; the last call dispatches. Per-request state is freed
 * in the completion callback only.
 */
#include "http.h"

#include "catalog.h"
#include "embedded.h"

#include <arpa/inet.h>
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
    const struct service *service;
    struct catalog *catalog;
    pthread_mutex_t catalog_lock;
    size_t max_body_bytes;
    uint16_t port;
};

enum route_id {
    ROUTE_HEALTHZ,
    ROUTE_READYZ,
    ROUTE_MODELS,
    ROUTE_GPUS,
    ROUTE_ESTIMATE,
    ROUTE_OPENAPI,
    ROUTE_STATIC,
};

struct route {
    const char *path;
    enum route_id id;
    const char *allow; /* methods, for 405 Allow */
};

static const struct route routes[] = {
    {"/healthz", ROUTE_HEALTHZ, "GET, HEAD"},     {"/readyz", ROUTE_READYZ, "GET, HEAD"},
    {"/v1/models", ROUTE_MODELS, "GET, HEAD"},    {"/v1/gpus", ROUTE_GPUS, "GET, HEAD"},
    {"/v1/estimate", ROUTE_ESTIMATE, "POST"},     {"/openapi.json", ROUTE_OPENAPI, "GET, HEAD"},
};

/* An answer decided before the body was read (404, 405, 413, 415). */
struct early_answer {
    int status;
    const char *slug;
    const char *title;
    const char *allow;
    char detail[128];
};

/* Per-request state, from the first handler call to the completion callback. */
struct request {
    const struct route *route;
    const struct gs_embedded_file *file; /* ROUTE_STATIC */
    char *body;
    size_t length;
    size_t capacity;
    bool rejected;            /* answer `early` once the body is drained */
    uint64_t drained;         /* body bytes dropped since the rejection */
    struct early_answer early;
};

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

static const struct route *find_route(const char *url, const struct gs_embedded_file **file)
{
    for (size_t i = 0; i < sizeof(routes) / sizeof(routes[0]); i++) {
        if (strcmp(url, routes[i].path) == 0)
            return &routes[i];
    }
    *file = find_static(url);
    return *file != NULL ? &static_route : NULL;
}

static enum MHD_Result send_buffer(struct MHD_Connection *conn, unsigned status, const char *type,
                                   const void *data, size_t length, enum MHD_ResponseMemoryMode mode,
                                   const char *allow)
{
    struct MHD_Response *resp = MHD_create_response_from_buffer(length, (void *)(uintptr_t)data, mode);
    if (resp == NULL) {
        if (mode == MHD_RESPMEM_MUST_FREE)
            free((void *)(uintptr_t)data); /* MHD 0.9.75 leaves the buffer with us when it fails */
        return MHD_NO;
    }
    MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, type);
    MHD_add_response_header(resp, "X-Content-Type-Options", "nosniff");
    MHD_add_response_header(resp, MHD_HTTP_HEADER_CACHE_CONTROL, "no-cache");
    if (allow != NULL)
        MHD_add_response_header(resp, MHD_HTTP_HEADER_ALLOW, allow);
    enum MHD_Result ret = MHD_queue_response(conn, status, resp);
    MHD_destroy_response(resp);
    return ret;
}

static enum MHD_Result send_json(struct MHD_Connection *conn, unsigned status, const json_t *body,
                                 const char *type)
{
    char *text = json_dumps(body, JSON_COMPACT);
    if (text == NULL)
        return MHD_NO;
    return send_buffer(conn, status, type, text, strlen(text), MHD_RESPMEM_MUST_FREE, NULL);
}

static enum MHD_Result send_problem(struct MHD_Connection *conn, const struct problem *p,
                                    const char *allow)
{
    json_t *body = problem_to_json(p);
    if (body == NULL)
        return MHD_NO;
    char *text = json_dumps(body, JSON_COMPACT);
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

static bool is_json_media_type(const char *value)
{
    if (value == NULL)
        return false;
    size_t n = strlen("application/json");
    if (strncasecmp(value, "application/json", n) != 0)
        return false;
    return value[n] == '\0' || value[n] == ';' || value[n] == ' ';
}

static bool method_allowed(const struct route *r, const char *method)
{
    if (r->id == ROUTE_ESTIMATE)
        return strcmp(method, "POST") == 0;
    return strcmp(method, "GET") == 0 || strcmp(method, "HEAD") == 0;
}

static void reject(struct early_answer *a, int status, const char *slug, const char *title,
                   const char *allow, const char *detail)
{
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

/* First call: route, method, media type and declared length. Returns true
 * when the request is to be answered with `a` instead of being served. */
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
    if (r->id != ROUTE_ESTIMATE)
        return false;
    const char *type = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Content-Type");
    if (!is_json_media_type(type)) {
        reject(a, 415, "unsupported-media-type", "Unsupported media type", NULL,
               "send the request body as application/json");
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
    return send_simple_problem(conn, a->status, a->slug, a->title, a->allow, a->detail);
}

/* Whether a rejected request has a body worth draining first: one of
 * unknown (chunked) or declared length within DRAIN_LIMIT. */
static bool drainable(struct MHD_Connection *conn)
{
    const char *length = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Content-Length");
    if (length == NULL)
        return MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Transfer-Encoding") != NULL;
    return strtoull(length, NULL, 10) <= DRAIN_LIMIT;
}


/* Appends to the body, or turns the request into a 413 once it passes
 * `limit` (a chunked body declares no length up front). */
static bool append_body(struct request *req, const char *data, size_t size, size_t limit)
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
        char *grown = realloc(req->body, cap);
        if (grown == NULL)
            return false;
        req->body = grown;
        req->capacity = cap;
    }
    memcpy(req->body + req->length, data, size);
    req->length += size;
    req->body[req->length] = '\0';
    return true;
}

static enum MHD_Result handle_estimate(struct MHD_Connection *conn, struct http_server *srv,
                                       struct request *req)
{
    struct problem p;
    problem_init(&p);
    json_error_t jerr;
    json_t *body = json_loadb(req->body != NULL ? req->body : "", req->length,
                              JSON_REJECT_DUPLICATES, &jerr);
    if (body == NULL) {
        problem_set(&p, 400, "malformed-json", "The body is not valid JSON",
                    "line %d, column %d: %s", jerr.line, jerr.column, jerr.text);
        gs_error_add(&p.errors, GS_ERR_INVALID, "", "%s", jerr.text);
        return send_problem(conn, &p, NULL);
    }
    json_t *response = NULL;
    enum MHD_Result ret;
    if (service_estimate(srv->service, body, &response, &p) == 0)
        ret = send_json(conn, 200, response, "application/json");
    else
        ret = send_problem(conn, &p, NULL);
    json_decref(response);
    json_decref(body);
    return ret;
}

static enum MHD_Result handle_readyz(struct MHD_Connection *conn, struct http_server *srv)
{
    size_t models = service_model_count(srv->service), gpus = service_gpu_count(srv->service);
    if (srv->catalog != NULL) {
        struct gs_error err;
        gs_error_init(&err);
        pthread_mutex_lock(&srv->catalog_lock);
        enum gs_status st = catalog_ping(srv->catalog, &models, &gpus, &err);
        pthread_mutex_unlock(&srv->catalog_lock);
        if (st != GS_OK)
            return send_simple_problem(conn, 503, "not-ready", "The catalog cannot be read", NULL,
                                       err.count > 0 ? err.items[0].detail : "catalog error");
    }
    json_t *body = json_pack("{s:s, s:I, s:I}", "status", "ready", "models", (json_int_t)models,
                             "gpus", (json_int_t)gpus);
    if (body == NULL)
        return MHD_NO;
    enum MHD_Result ret = send_json(conn, 200, body, "application/json");
    json_decref(body);
    return ret;
}

static enum MHD_Result dispatch(struct MHD_Connection *conn, struct http_server *srv,
                                struct request *req)
{
    static const char healthz[] = "{\"status\":\"ok\"}";
    const char *body = NULL;
    size_t length = 0;
    switch (req->route->id) {
    case ROUTE_HEALTHZ:
        return send_buffer(conn, 200, "application/json", healthz, sizeof(healthz) - 1,
                           MHD_RESPMEM_PERSISTENT, NULL);
    case ROUTE_READYZ:
        return handle_readyz(conn, srv);
    case ROUTE_MODELS:
        body = service_models_body(srv->service, &length);
        return send_buffer(conn, 200, "application/json", body, length, MHD_RESPMEM_PERSISTENT,
                           NULL);
    case ROUTE_GPUS:
        body = service_gpus_body(srv->service, &length);
        return send_buffer(conn, 200, "application/json", body, length, MHD_RESPMEM_PERSISTENT,
                           NULL);
    case ROUTE_ESTIMATE:
        return handle_estimate(conn, srv, req);
    case ROUTE_OPENAPI:
        return send_buffer(conn, 200, "application/json", gs_openapi_files[0].data,
                           gs_openapi_files[0].size, MHD_RESPMEM_PERSISTENT, NULL);
    case ROUTE_STATIC:
        return send_buffer(conn, 200, content_type_for(req->file->name), req->file->data,
                           req->file->size, MHD_RESPMEM_PERSISTENT, NULL);
    }
    return MHD_NO;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *conn, const char *url,
                                  const char *method, const char *version, const char *upload_data,
                                  size_t *upload_data_size, void **con_cls)
{
    struct http_server *srv = cls;
    struct request *req = *con_cls;
    (void)version;
    if (req == NULL) {
        const struct gs_embedded_file *file = NULL;
        const struct route *route = find_route(url, &file);
        struct early_answer early;
        bool rejected = precheck(conn, srv, route, method, &early);
        if (rejected && !drainable(conn))
            return send_early(conn, &early);
        req = calloc(1, sizeof(*req));
        if (req == NULL)
            return MHD_NO;
        req->route = route;
        req->file = file;
        req->rejected = rejected;
        if (rejected)
            req->early = early;
        *con_cls = req;
        return MHD_YES;
    }
    if (*upload_data_size > 0) {
        if (req->rejected) {
            req->drained += *upload_data_size;
            *upload_data_size = 0; /* dropped */
            return req->drained <= DRAIN_LIMIT ? MHD_YES : MHD_NO;
        }
        if (!append_body(req, upload_data, *upload_data_size, srv->max_body_bytes))
            return MHD_NO;
        *upload_data_size = 0;
        return MHD_YES;
    }
    if (req->rejected)
        return send_early(conn, &req->early);
    return dispatch(conn, srv, req);
}

static void on_completed(void *cls, struct MHD_Connection *conn, void **con_cls,
                         enum MHD_RequestTerminationCode code)
{
    (void)cls;
    (void)conn;
    (void)code;
    struct request *req = *con_cls;
    if (req == NULL)
        return;
    free(req->body);
    free(req);
    *con_cls = NULL;
}

static unsigned cpu_count(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (unsigned)n : 1;
}

int http_start(const struct http_config *config, const struct service *service,
               struct catalog *catalog, struct http_server **out, char *errbuf, size_t errlen)
{
    struct sockaddr_in v4;
    struct sockaddr_in6 v6;
    struct sockaddr *addr = NULL;
    unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_USE_TURBO;
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
    srv->service = service;
    srv->catalog = catalog;
    srv->max_body_bytes = config->max_body_bytes;
    pthread_mutex_init(&srv->catalog_lock, NULL);
    unsigned threads = config->threads ? config->threads : cpu_count();
    srv->daemon = MHD_start_daemon(
        flags, config->port, NULL, NULL, &on_request, srv, MHD_OPTION_SOCK_ADDR, addr,
        MHD_OPTION_THREAD_POOL_SIZE, threads, MHD_OPTION_NOTIFY_COMPLETED, &on_completed, srv,
        MHD_OPTION_CONNECTION_TIMEOUT, config->timeout_s, MHD_OPTION_CONNECTION_LIMIT,
        (unsigned)4096, MHD_OPTION_LISTEN_BACKLOG_SIZE, (unsigned)1024, MHD_OPTION_END);
    if (srv->daemon == NULL) {
        snprintf(errbuf, errlen, "cannot listen on %s port %u (in use, or not permitted)",
                 config->host, (unsigned)config->port);
        pthread_mutex_destroy(&srv->catalog_lock);
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
    MHD_stop_daemon(server->daemon);
    pthread_mutex_destroy(&server->catalog_lock);
    free(server);
}
