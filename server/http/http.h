/*
 * http.h - the HTTP front end: a libmicrohttpd daemon in thread-pool mode,
 * routing, body limits, media types and problem+json errors, over a
 * struct service.
 */
#ifndef GS_HTTP_H
#define GS_HTTP_H

#include "api/auth.h"
#include "hub/hub.h"
#include "api/store.h"

#include <stdbool.h>

#include <stddef.h>
#include <stdint.h>

struct http_config {
    const char *host;        /* address to bind, "0.0.0.0" or "::" for all */
    uint16_t port;           /* 0 picks a free port */
    unsigned threads;        /* thread-pool size, 0 = number of CPUs */
    size_t max_body_bytes;   /* larger request bodies get 413 */
    unsigned timeout_s;      /* idle connection timeout */
    const struct hub_config *hub; /* where POST /v1/models:import reads (copied); NULL: the
                                     defaults and the environment (hub_config_from_env) */
    bool auto_import;        /* a sizing request's {"hub_id"} model missing from the catalog is
                                imported first (GPUSIZER_AUTO_IMPORT; off by default) */
    /* slow and abusive clients (0 = the default in parentheses) */
    unsigned max_connections;        /* open connections in all (4096) */
    unsigned max_connections_per_ip; /* from one client address (256) */
    unsigned header_timeout_s;       /* a request's headers, from its start, however slowly they
                                        trickle (10; also an idle keep-alive connection's limit) */
    unsigned body_timeout_s;         /* its body, from its headers (30) */
    uint64_t max_buffered_bytes;     /* all unfinished bodies together (256 MiB); past it 503 */
    const char *access_log;          /* one JSON line per request: NULL, "", "1" or "stderr" to
                                        standard error, "0" or "off" for none, else a file
                                        appended to (GPUSIZER_ACCESS_LOG) */
    const char *cors_origins;        /* origins other sites' pages may call the API from, comma-
                                        separated, "*" for any; NULL or "" = none, the default
                                        (GPUSIZER_CORS_ORIGINS) */
    unsigned write_threads;          /* run catalog writes off the connection threads
                                        (GPUSIZER_WRITE_THREADS; 0 = 4) */
    unsigned compute_threads;        /* run plan searches (/v1/recommend, /v1/fit) off them
                                        (GPUSIZER_COMPUTE_THREADS; 0 = one per CPU) */
    unsigned compute_queue;          /* plan searches waiting for one, past which 503
                                        (GPUSIZER_COMPUTE_QUEUE; 0 = 64 per compute thread) */
    unsigned compute_budget_ms;      /* the time one /v1/recommend may search, past which 503
                                        search-budget (GPUSIZER_COMPUTE_BUDGET_MS; 0 = 20000) */
    unsigned import_threads;         /* run hub imports, apart from the writes, so imports waiting
                                        on the hub never hold a write back
                                        (GPUSIZER_IMPORT_THREADS; 0 = 4) */
};

struct http_server;

/* Starts serving the live catalog `store` (borrowed; must outlive the
 * server), with catalog writes guarded by `auth` (borrowed). False, with why
 * in `errbuf`, when it could not (an address it cannot bind, no memory). */
bool http_start(const struct http_config *config, struct store *store, const struct auth *auth,
                struct http_server **out, char *errbuf, size_t errlen);

/* The port actually bound (useful with port 0). */
uint16_t http_port(const struct http_server *server);

/* Stops accepting, finishes in-flight requests, frees the server. */
void http_stop(struct http_server *server);

#endif
