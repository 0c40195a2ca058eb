/* problem.c - problem details bodies (see problem.h). */
#include "formats/problem.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void problem_init(struct problem *p)
{
    p->status = 500;
    p->slug = "internal-error";
    p->title = "Internal server error";
    p->detail[0] = '\0';
    gs_error_init(&p->errors);
}

void problem_set(struct problem *p, int status, const char *slug, const char *title,
                 const char *detail_fmt, ...)
{
    p->status = status;
    p->slug = slug;
    p->title = title;
    p->detail[0] = '\0';
    if (detail_fmt != NULL) {
        va_list ap;
        va_start(ap, detail_fmt);
        vsnprintf(p->detail, sizeof(p->detail), detail_fmt, ap);
        va_end(ap);
    }
}

void problem_from_status(struct problem *p, enum gs_status status)
{
    switch (status) {
    case GS_OK:
    case GS_ERR_INVALID:
    case GS_ERR_UNSUPPORTED:
    case GS_ERR_RANGE:
        problem_set(p, 400, "invalid-request", "The request is not valid", NULL);
        break;
    case GS_ERR_NOT_FOUND: /* a missing resource named by the path; inside a body it is a 400 */
        problem_set(p, 404, "not-found", "Not found", NULL);
        break;
    case GS_ERR_CONFLICT:
        problem_set(p, 409, "conflict", "The change conflicts with the catalog", NULL);
        break;
    case GS_ERR_PRECONDITION:
        problem_set(p, 412, "precondition-failed",
                    "The resource changed since the version the request names", NULL);
        break;
    case GS_ERR_BUSY:
        problem_set(p, 503, "catalog-busy", "The catalog is busy; retry shortly", NULL);
        break;
    case GS_ERR_UNKNOWN_MODEL:
        problem_set(p, 422, "unsupported-model-type",
                    "The config's model type is not one gpusizer can read", NULL);
        break;
    case GS_ERR_TOO_LARGE:
        problem_set(p, 413, "payload-too-large", "The request body is too large", NULL);
        break;
    case GS_ERR_NOMEM:
        problem_set(p, 503, "out-of-memory", "The server is out of memory", NULL);
        break;
    case GS_ERR_DB:
        problem_set(p, 500, "catalog-error", "The catalog could not be read", NULL);
        break;
    case GS_ERR_UPSTREAM:
        problem_set(p, 502, "upstream-error", "A service gpusizer relies on failed", NULL);
        break;
    case GS_ERR_FULL: /* RFC 4918 11.5 Insufficient Storage */
        problem_set(p, 507, "catalog-full",
                    "The catalog's storage is full; the write was not made", NULL);
        break;
    case GS_ERR_INTERNAL:
        problem_set(p, 500, "internal-error", "Internal server error", NULL);
        break;
    }
}

json_t *problem_to_json(const struct problem *p)
{
    char type[96];
    snprintf(type, sizeof(type), "urn:gpusizer:problem:%s", p->slug);
    json_t *errors = json_array();
    json_t *body = json_pack("{s:s, s:s, s:i}", "type", type, "title", p->title, "status", p->status);
    if (errors == NULL || body == NULL)
        goto fail;
    if (p->detail[0] != '\0' && json_object_set_new(body, "detail", json_string(p->detail)) != 0)
        goto fail;
    for (size_t i = 0; i < p->errors.count; i++) {
        const struct gs_error_item *e = &p->errors.items[i];
        json_t *item = json_pack("{s:s, s:s}", "pointer", e->pointer, "detail", e->detail);
        if (item == NULL || json_array_append_new(errors, item) != 0)
            goto fail;
    }
    if (p->errors.dropped > 0) {
        char more[64];
        snprintf(more, sizeof(more), "%zu more errors not shown", p->errors.dropped);
        json_t *item = json_pack("{s:s, s:s}", "pointer", "", "detail", more);
        if (item == NULL || json_array_append_new(errors, item) != 0)
            goto fail;
    }
    if (json_object_set_new(body, "errors", errors) != 0) {
        errors = NULL; /* set_new consumed it even on failure */
        goto fail;
    }
    return body;
fail:
    json_decref(errors);
    json_decref(body);
    return NULL;
}

enum gs_status problem_status(const struct problem *p)
{
    switch (p->status) {
    case 400:
    case 403:
        return GS_ERR_INVALID;
    case 404:
        return GS_ERR_NOT_FOUND;
    case 409:
        return GS_ERR_CONFLICT;
    case 412:
        return GS_ERR_PRECONDITION;
    case 413:
        return GS_ERR_TOO_LARGE;
    case 422:
        return GS_ERR_UNKNOWN_MODEL;
    case 502:
    case 504:
        return GS_ERR_UPSTREAM;
    case 503:
        return p->slug != NULL && strcmp(p->slug, "out-of-memory") == 0 ? GS_ERR_NOMEM
                                                                        : GS_ERR_BUSY;
    case 507:
        return GS_ERR_FULL;
    default:
        return GS_ERR_INTERNAL;
    }
}
