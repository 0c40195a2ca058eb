/*
 * dispatch.h - a routed request served once its body is in: the fixed answers
 * (/healthz, /openapi.json, the web page, /v1/model-types), /readyz, /metrics,
 * the POSTs that compute (compute.h), and the catalog endpoints and hub import
 * of api/, writes and imports on the offload pool with the connection
 * suspended.
 */
#ifndef GS_DISPATCH_H
#define GS_DISPATCH_H

#include "api/api.h"
#include "http/exchange.h"

#include <microhttpd.h>
#include <stdbool.h>

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

/* Serves `req` on its route (the last handler call, its body read). A request that waits
 * (a write, an import, a plan search) suspends the connection and is sent on resume. */
enum MHD_Result dispatch_request(struct MHD_Connection *conn, struct http_server *srv,
                                 struct request *req, const char *method);

/* Frees a job and its answer's body; NULL is nothing. */
void dispatch_catalog_job_free(struct catalog_job *job);

#endif
