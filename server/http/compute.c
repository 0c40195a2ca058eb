/* compute.c - the POSTs that compute (see compute.h). */
#include "http/compute.h"

#include "api/answer_cache.h"
#include "api/hub_import.h"
#include "formats/json_lenient.h"
#include "http/metrics.h"
#include "http/offload.h"
#include "http/respond.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

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
    if (exchange_monotonic_ns() - job->queued_ns > COMPUTE_WAIT_LIMIT_NS) {
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

void compute_job_free(struct compute_job *job)
{
    if (job == NULL)
        return;
    json_decref(job->body);
    free(job->answer);
    free(job);
}

enum MHD_Result compute_send(struct MHD_Connection *conn, struct compute_job *job)
{
    if (job->failed)
        return respond_problem(conn, &job->problem, NULL);
    char *answer = job->answer;
    job->answer = NULL; /* the response owns it now */
    return respond_buffer(conn, 200, "application/json", answer, job->length, MHD_RESPMEM_MUST_FREE,
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
enum MHD_Result compute_handle(struct MHD_Connection *conn, struct http_server *srv,
                               struct request *req, service_text_operation writes, int cached)
{
    const char *text = req->body != NULL ? req->body : "";
    if (cached >= 0) {
        size_t length = 0;
        char *answer = answer_cache_get(service_answers(req->service), (enum answer_kind)cached,
                                        text, req->length, &length);
        metrics_answer_cache(answer != NULL);
        if (answer != NULL)
            return respond_buffer(conn, 200, "application/json", answer, length,
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
        return respond_problem(conn, &p, NULL);
    }
    struct compute_job *job = calloc(1, sizeof(*job));
    if (job == NULL) {
        json_decref(body);
        return respond_simple_problem(conn, 503, "out-of-memory", "The server is short of memory",
                                      NULL, "retry shortly");
    }
    job->conn = conn;
    job->srv = srv;
    job->req = req;
    job->body = body;
    job->writes = writes;
    job->cached = cached;
    const bool imports = hub_import_pending(srv->auto_import, body, req->service);
    struct offload *pool = imports ? srv->imports : cached >= 0 ? srv->compute : NULL;
    if (pool != NULL) {
        job->queued_ns = exchange_monotonic_ns();
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
    const enum MHD_Result ret = compute_send(conn, job);
    compute_job_free(job);
    return ret;
}
