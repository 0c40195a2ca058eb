/*
 * exchange.h - what the front end's modules share of an HTTP exchange: the
 * server's state, one request's state from the first handler call to the
 * completion callback, an answer decided before the body was read, the
 * request this thread is answering, and the clock requests are timed by.
 */
#ifndef GS_EXCHANGE_H
#define GS_EXCHANGE_H

#include "api/catalog_api.h"
#include "api/store.h"
#include "http/route.h"
#include "hub/hub.h"

#include <microhttpd.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct catalog_job; /* http/dispatch.h */
struct compute_job; /* http/compute.h */
struct conn_guard;
struct offload;

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
    struct offload *offload; /* runs catalog writes off the connection threads */
    struct offload *imports; /* runs hub imports off them (a sizing request's own too), apart
                                from the writes: an import waits on the network for seconds */
    struct offload *compute; /* runs plan searches off them, bounded (see compute_handle) */
};

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

/* Per-request state, from the first handler call to the completion callback. */
struct request {
    const struct route *route;
    const struct gs_embedded_file *file; /* ROUTE_STATIC */
    char id[ROUTE_ID_MAX];               /* the {id} segment of entry routes */
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

/* The request this thread is answering: the send functions (respond.h) stamp its status
 * and id on the response. libmicrohttpd runs a request's callbacks on one worker thread,
 * and a send happens inside them. */
extern __thread struct request *exchange_answering;

/* CLOCK_MONOTONIC in nanoseconds. */
uint64_t exchange_monotonic_ns(void);

/* The request header `name`, NULL when absent. */
const char *exchange_header(struct MHD_Connection *conn, const char *name);

#endif
