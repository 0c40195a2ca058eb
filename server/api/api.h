/*
 * api.h - one HTTP exchange as plain data, so the catalog endpoints (and the
 * later sizing endpoints) are functions of a request and can be tested
 * without a socket. server/http/dispatch.c fills a struct api_request from
 * libmicrohttpd and sends back the struct api_response.
 */
#ifndef GS_API_H
#define GS_API_H

#include "catalog.h"
#include "formats/problem.h"

#include <stdbool.h>
#include <stddef.h>

#define API_ARGS_MAX 32

struct api_arg {
    const char *key;
    const char *value; /* "" for a bare ?key */
};

/* Borrowed strings, valid for the call. */
struct api_request {
    const char *method;
    const char *id;              /* the {id} path segment, NULL for collections */
    struct api_arg args[API_ARGS_MAX];
    size_t arg_count;
    bool args_overflow;          /* more than API_ARGS_MAX query parameters */
    const char *content_type;
    const char *accept;
    const char *authorization;
    const char *if_match;
    const char *if_none_match;
    bool accept_gzip;            /* Accept-Encoding allows gzip */
    const char *body;
    size_t body_length;
};

struct api_response {
    int status;
    const char *content_type;
    char *body;                  /* owned (malloc), or NULL with `borrowed` */
    const char *borrowed;        /* a body owned by the service the request holds */
    size_t length;
    const void *borrowed_gzip;   /* its gzip form, when the service has one (or NULL) */
    size_t borrowed_gzip_length;
    char etag[CATALOG_ETAG_MAX]; /* "" for none */
    char location[192];          /* "" for none */
    char link[768];              /* a Link header (the next page of a listing), "" for none */
    char total_count[24];        /* X-Total-Count: a listing's matches before paging, "" for none */
    bool bearer_challenge;       /* add WWW-Authenticate: Bearer */
    struct problem problem;      /* the body when status >= 400 and body == NULL */
};

void api_response_init(struct api_response *r);

/* Fills `r` as a problem response from a status and the errors already in
 * r->problem.errors. */
void api_fail(struct api_response *r, enum gs_status status);

/* Makes a JSON value the body (consumes `value`); false on OOM (then 503). */
bool api_json(struct api_response *r, int status, json_t *value);

/* A request's JSON body (new reference; NaN and Infinity read leniently, duplicate keys
 * refused), or NULL with a 400 malformed-json problem in `resp`. */
json_t *api_parse_body(const struct api_request *req, struct api_response *resp);

/* The value of query parameter `key`, or NULL. */
const char *api_arg(const struct api_request *req, const char *key);

#endif
