/* respond.c - sending answers (see respond.h). */
#include "http/respond.h"

#include "formats/gzip.h"
#include "formats/json_out.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void add_security_headers(struct MHD_Response *resp);

/* Queues `resp` with the headers every answer carries, and notes its status. */
static enum MHD_Result queue(struct MHD_Connection *conn, unsigned status, struct MHD_Response *resp)
{
    add_security_headers(resp);
    if (exchange_answering != NULL) {
        exchange_answering->status = status;
        MHD_add_response_header(resp, "X-Request-Id", exchange_answering->request_id);
        if (exchange_answering->cors_origin[0] != '\0') {
            MHD_add_response_header(resp, "Access-Control-Allow-Origin",
                                    exchange_answering->cors_origin);
            MHD_add_response_header(resp, "Vary", "Origin");
            MHD_add_response_header(resp, "Access-Control-Expose-Headers",
                                    "ETag, Location, X-Request-Id, Retry-After, Catalog-Age");
        }
        /* a replica of a shared catalog says how old its view may be: seconds since it was
         * last known current (it grows while the database is unreachable) */
        if (store_shared(exchange_answering->store)) {
            struct store_stats stats;
            store_stats(exchange_answering->store, &stats);
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
    if (exchange_answering == NULL || !exchange_answering->accept_gzip)
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

enum MHD_Result respond_buffer(struct MHD_Connection *conn, unsigned status, const char *type,
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

enum MHD_Result respond_json(struct MHD_Connection *conn, unsigned status, const json_t *body,
                             const char *type)
{
    size_t length = 0;
    char *text = json_out_dumps(body, &length);
    if (text == NULL)
        return MHD_NO;
    return respond_buffer(conn, status, type, text, length, MHD_RESPMEM_MUST_FREE, NULL);
}

enum MHD_Result respond_problem(struct MHD_Connection *conn, const struct problem *p,
                                const char *allow)
{
    json_t *body = problem_to_json(p);
    if (body == NULL)
        return MHD_NO;
    char *text = json_out_dumps(body, NULL);
    json_decref(body);
    if (text == NULL)
        return MHD_NO;
    return respond_buffer(conn, (unsigned)p->status, "application/problem+json", text, strlen(text),
                          MHD_RESPMEM_MUST_FREE, allow);
}

enum MHD_Result respond_simple_problem(struct MHD_Connection *conn, int status, const char *slug,
                                       const char *title, const char *allow, const char *detail)
{
    struct problem p;
    problem_init(&p);
    problem_set(&p, status, slug, title, "%s", detail);
    return respond_problem(conn, &p, allow);
}

enum MHD_Result respond_early(struct MHD_Connection *conn, const struct early_answer *a)
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

enum MHD_Result respond_api(struct MHD_Connection *conn, struct api_response *r)
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

/* A CORS preflight from an allowed origin: 204 with what may be sent. */
enum MHD_Result respond_preflight(struct MHD_Connection *conn, const struct route *route)
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
