/*
 * compute.h - the POSTs that compute (/v1/estimate, /v1/recommend, /v1/fit):
 * the body parsed, a hub model it names imported first when auto-import is
 * on, the answer computed on the connection thread or, for plan searches and
 * imports, on a worker pool with the connection suspended; plan answers kept
 * in the catalog view's answer cache.
 */
#ifndef GS_COMPUTE_H
#define GS_COMPUTE_H

#include "api/service.h"
#include "formats/problem.h"
#include "http/exchange.h"

#include <jansson.h>
#include <microhttpd.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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

/* Answers `req` with `writes` over its body; `cached` is the answer cache's kind
 * (answer_cache.h), or negative for none. MHD_YES with the connection suspended when the
 * answer is computed off this thread (req->computing, then compute_send on resume). */
enum MHD_Result compute_handle(struct MHD_Connection *conn, struct http_server *srv,
                               struct request *req, service_text_operation writes, int cached);

/* Sends a computed answer: its problem, or its JSON (the response takes it). */
enum MHD_Result compute_send(struct MHD_Connection *conn, struct compute_job *job);

/* Frees a job; NULL is nothing. */
void compute_job_free(struct compute_job *job);

#endif
