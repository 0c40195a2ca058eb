/*
 * status.h - the status codes every gpusizer function returns, and the
 * error list that carries what went wrong back to the caller.
 *
 * Validation collects several errors at once (a user fixing a request wants
 * all of its problems, not one per round trip). Each error names the field
 * with a JSON Pointer (RFC 6901) and says what is wrong in a sentence that
 * starts lower-case and has no final period, ready to go into a 400 response.
 *
 * Core code does not know the request's JSON shape: pointers it writes are
 * relative to the object it was given (for an architecture, the Hugging Face
 * config field, e.g. "/hidden_size"); callers prefix them (see
 * gs_error_prefix).
 */
#ifndef GS_STATUS_H
#define GS_STATUS_H

#include <stdbool.h>
#include <stddef.h>

enum gs_status {
    GS_OK = 0,
    GS_ERR_INVALID,     /* input failed validation                  -> 400 */
    GS_ERR_NOT_FOUND,   /* no such catalog entry                    -> 404 (400 inside a request) */
    GS_ERR_UNSUPPORTED, /* valid input that gpusizer cannot size    -> 400 */
    GS_ERR_RANGE,       /* numbers so large the arithmetic overflows -> 400 */
    GS_ERR_TOO_LARGE,   /* body or value over a hard limit          -> 413 */
    GS_ERR_NOMEM,       /* allocation failed                        -> 503 */
    GS_ERR_DB,          /* the catalog database failed              -> 500 */
    GS_ERR_INTERNAL,    /* a bug                                    -> 500 */
    GS_ERR_CONFLICT,    /* the write collides with another entry    -> 409 */
    GS_ERR_PRECONDITION, /* If-Match / If-None-Match failed         -> 412 */
    GS_ERR_BUSY,        /* the catalog stayed locked too long       -> 503 */
    GS_ERR_UNKNOWN_MODEL, /* a config of a model type gpusizer cannot read -> 422 */
    GS_ERR_FULL,        /* the catalog's storage is full; nothing was written -> 507 */
    GS_ERR_UPSTREAM,    /* a service gpusizer relies on (the hub) failed or timed out -> 502 */
};

#define GS_ERROR_MAX         16
#define GS_ERROR_POINTER_MAX 160
#define GS_ERROR_DETAIL_MAX  768

struct gs_error_item {
    char pointer[GS_ERROR_POINTER_MAX]; /* JSON Pointer, "" for the whole document */
    char detail[GS_ERROR_DETAIL_MAX];
};

/* Caller-owned, fixed size, no allocation. Items beyond GS_ERROR_MAX are
 * counted in `dropped` and not stored. */
struct gs_error {
    size_t count;
    size_t dropped;
    struct gs_error_item items[GS_ERROR_MAX];
};

void gs_error_init(struct gs_error *err);

/* Appends one error when `err` is not NULL and returns `status`, so a check can
 * read `return gs_error_add(err, GS_ERR_INVALID, "/x", "must be positive");`.
 * Strings longer than the fixed buffers are truncated. */
enum gs_status gs_error_add(struct gs_error *err, enum gs_status status, const char *pointer,
                            const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* Prepends `prefix` (a JSON Pointer) to the pointers of items [from, count). */
void gs_error_prefix(struct gs_error *err, size_t from, const char *prefix);

#endif
