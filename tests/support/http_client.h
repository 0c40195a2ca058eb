/*
 * http_client.h - one HTTP request with libcurl for the integration tests,
 * and the parts of the reply they check: status, body, media type and the
 * Allow, ETag, Location, Retry-After, Catalog-Age, Link, X-Total-Count and
 * WWW-Authenticate headers.
 */
#ifndef GS_HTTP_CLIENT_H
#define GS_HTTP_CLIENT_H

#include <stdbool.h>
#include <stddef.h>

struct http_reply {
    long status;       /* -1 when the request failed below HTTP */
    char *body;        /* NUL-terminated, caller frees; NULL when empty */
    size_t length;
    char content_type[128];
    char allow[64];
    char etag[64];
    char location[128];
    char retry_after[16]; /* "" when absent, likewise catalog_age */
    char catalog_age[24];
    char link[256];       /* a listing's next page (Link), "" when absent */
    char total_count[24]; /* X-Total-Count */
    bool challenge;    /* a WWW-Authenticate header came back */
    char error[96];    /* libcurl's message when status is -1 */
};

/* Sends `method` to http://127.0.0.1:<port><path>. `content_type` NULL sends
 * no Content-Type; `body` may be NULL; `headers` is a NULL-terminated list of
 * extra "Name: value" lines (may be NULL). */
struct http_reply http_call(int port, const char *method, const char *path, const char *content_type,
                            const char *body, size_t body_length, const char *const *headers);

#endif
