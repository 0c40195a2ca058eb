/*
 * http.c - libmicrohttpd glue (see http.h).
 *
 * The access handler runs in three phases per request: the first call
 * routes and checks method, media type and declared length (answering
 * 404/405/415/413 before any body is read); middle calls append body bytes
 * to a capped buffer; the last call dispatches. Per-request state is freed
 * in the completion callback only. What each phase does is in the modules
 * beside this one: route.h, intake.h, dispatch.h (and compute.h), respond.h;
 * exchange.h holds the state they share.
 */
#include "http/http.h"

#include "api/sizing.h"

#include "http/compute.h"
#include "http/conn_guard.h"
#include "http/dispatch.h"
#include "http/exchange.h"
#include "http/intake.h"
#include "http/metrics.h"
#include "http/offload.h"
#include "http/respond.h"
#include "http/route.h"

#include "formats/gzip.h"

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
#include <time.h>
#include <unistd.h>

/* Request ids: a per-process prefix from the start time, and a counter. */
static uint64_t id_prefix, id_counter;

static void new_request_id(struct request *req)
{
    const uint64_t n = __atomic_add_fetch(&id_counter, 1, __ATOMIC_RELAXED);
    snprintf(req->request_id, sizeof(req->request_id), "%06llx%010llx",
             (unsigned long long)(id_prefix & 0xffffff), (unsigned long long)n);
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
        req->started_ns = exchange_monotonic_ns();
        req->route_id = ROUTE_NONE;
        new_request_id(req);
        snprintf(req->method, sizeof(req->method), "%s", method);
        snprintf(req->path, sizeof(req->path), "%s", url);
        req->accept_gzip = gzip_accepted(exchange_header(conn, MHD_HTTP_HEADER_ACCEPT_ENCODING));
        enum MHD_Result ret;
        struct early_answer bad;
        if (intake_framing_rejected(conn, version, &bad)) {
            exchange_answering = req;
            ret = respond_early(conn, &bad);
            exchange_answering = NULL;
            return ret;
        }
        const struct gs_embedded_file *file = NULL;
        char id[ROUTE_ID_MAX] = "";
        const struct route *route = route_find(url, &file, id);
        if (route != NULL)
            req->route_id = route->id;
        const char *origin = exchange_header(conn, "Origin");
        if (intake_cors_allowed(srv, origin))
            snprintf(req->cors_origin, sizeof(req->cors_origin), "%s", origin);
        if (route != NULL && req->cors_origin[0] != '\0' && strcmp(method, "OPTIONS") == 0 &&
            exchange_header(conn, "Access-Control-Request-Method") != NULL) {
            exchange_answering = req;
            ret = respond_preflight(conn, route);
            exchange_answering = NULL;
            return ret;
        }
        struct early_answer early;
        bool rejected = intake_precheck(conn, srv, route, method, &early);
        /* a client that waits for 100 Continue has sent no body yet: the final answer goes
         * now, before any Continue (RFC 9110 10.1.1), rather than after draining */
        if (rejected && (!intake_drainable(conn) || intake_expects_continue(conn))) {
            exchange_answering = req;
            ret = respond_early(conn, &early);
            exchange_answering = NULL;
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
        exchange_answering = req;
        const enum MHD_Result ret = compute_send(conn, req->computing);
        exchange_answering = NULL;
        compute_job_free(req->computing);
        req->computing = NULL;
        return ret;
    }
    if (req->job != NULL) { /* resumed: the offloaded answer is ready */
        if (!__atomic_load_n(&req->job->done, __ATOMIC_ACQUIRE))
            return MHD_YES;
        exchange_answering = req;
        const enum MHD_Result ret = respond_api(conn, &req->job->out);
        exchange_answering = NULL;
        dispatch_catalog_job_free(req->job);
        req->job = NULL;
        return ret;
    }
    if (*upload_data_size > 0) {
        if (req->rejected) {
            req->drained += *upload_data_size;
            *upload_data_size = 0; /* dropped */
            return req->drained <= INTAKE_DRAIN_LIMIT ? MHD_YES : MHD_NO;
        }
        if (!intake_append_body(srv->guard, req, upload_data, *upload_data_size,
                                srv->max_body_bytes))
            return MHD_NO;
        *upload_data_size = 0;
        return MHD_YES;
    }
    conn_guard_body_done(conn);
    exchange_answering = req;
    const enum MHD_Result ret =
        req->rejected ? respond_early(conn, &req->early) : dispatch_request(conn, srv, req, method);
    exchange_answering = NULL;
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
        const uint64_t elapsed = exchange_monotonic_ns() - req->started_ns;
        metrics_request(req->route_id, req->status, elapsed);
        if (srv->access_log != NULL)
            log_access(srv, conn, req, elapsed);
    }
    dispatch_catalog_job_free(req->job); /* done: the pools are drained before connections close */
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

bool http_start(const struct http_config *config, struct store *store, const struct auth *auth,
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
        return false;
    }
    struct http_server *srv = calloc(1, sizeof(*srv));
    if (srv == NULL) {
        snprintf(errbuf, errlen, "out of memory");
        return false;
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
            return false;
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
        return false;
    }
    /* writes serialize on the catalog's writer lock anyway; several workers keep a quick
     * price write from queueing behind a large bulk one */
    srv->offload = offload_start(config->write_threads ? config->write_threads : 4);
    /* hub imports wait on the network for seconds to minutes: a pool of their own, so four
     * slow imports never hold the catalog's writes back (their own write still takes the
     * writer lock, for milliseconds, at the end) */
    srv->imports = offload_start(config->import_threads ? config->import_threads : 4);
    if (srv->offload == NULL || srv->imports == NULL) {
        offload_stop(srv->imports);
        offload_stop(srv->offload);
        conn_guard_stop(srv->guard);
        snprintf(errbuf, errlen, "cannot start the write threads");
        free(srv);
        return false;
    }
    /* plan searches: one worker per CPU by default at niceness 5, so the connection threads
     * answering probes keep most of a busy CPU; at most 64 waiting per worker (more than
     * the clients a server of this size serves at once: past it the answer is 503) */
    /* a whole-catalog search is 1-10 ms a distinct GPU entry: 20 s bounds a catalog of thousands
     * (the documented bulk load, 13,818 entries, took 30 s for a large model's training plan) */
    sizing_set_budget_ms(config->compute_budget_ms ? config->compute_budget_ms : 20000);
    const unsigned compute_threads = config->compute_threads ? config->compute_threads
                                                             : cpu_count();
    srv->compute = offload_start_limited(
        compute_threads, config->compute_queue ? config->compute_queue : 64 * compute_threads, 5);
    if (srv->compute == NULL) {
        offload_stop(srv->imports);
        offload_stop(srv->offload);
        conn_guard_stop(srv->guard);
        snprintf(errbuf, errlen, "cannot start the compute threads");
        free(srv);
        return false;
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
        offload_stop(srv->imports);
        offload_stop(srv->offload);
        conn_guard_stop(srv->guard);
        snprintf(errbuf, errlen, "cannot listen on %s port %u (in use, or not permitted)",
                 config->host, (unsigned)config->port);
        free(srv);
        return false;
    }
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(srv->daemon, MHD_DAEMON_INFO_BIND_PORT);
    srv->port = info != NULL ? info->port : config->port;
    *out = srv;
    return true;
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
    offload_stop(server->imports);
    server->imports = NULL;
    offload_stop(server->offload);
    server->offload = NULL;
    MHD_stop_daemon(server->daemon);
    conn_guard_stop(server->guard);
    if (server->access_log != NULL && server->access_log != stderr)
        fclose(server->access_log);
    pthread_mutex_destroy(&server->log_lock);
    free(server);
}
