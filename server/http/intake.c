/* intake.c - a request up to its body (see intake.h). */
#include "http/intake.h"

#include "api/auth.h"
#include "http/conn_guard.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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
bool intake_precheck(struct MHD_Connection *conn, const struct http_server *srv,
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

/* Whether a rejected request has a body worth draining first: one of
 * unknown (chunked) or declared length within INTAKE_DRAIN_LIMIT. */
bool intake_expects_continue(struct MHD_Connection *conn)
{
    const char *expect = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Expect");
    return expect != NULL && strcasecmp(expect, "100-continue") == 0;
}

bool intake_drainable(struct MHD_Connection *conn)
{
    const char *length = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Content-Length");
    if (length == NULL)
        return MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "Transfer-Encoding") != NULL;
    return strtoull(length, NULL, 10) <= INTAKE_DRAIN_LIMIT;
}

/* Appends to the body, or turns the request into a 413 once it passes
 * `limit` (a chunked body declares no length up front). */
bool intake_append_body(struct conn_guard *guard, struct request *req, const char *data,
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
bool intake_framing_rejected(struct MHD_Connection *conn, const char *version,
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
bool intake_cors_allowed(const struct http_server *srv, const char *origin)
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
