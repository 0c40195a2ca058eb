/*
 * route.h - the front end's routes: each path (or the prefix before an {id})
 * with the methods it takes, the web page's embedded files and their media
 * types, and the route names /metrics and the access log report.
 */
#ifndef GS_ROUTE_H
#define GS_ROUTE_H

#include "embedded.h"

enum route_id {
    ROUTE_HEALTHZ,
    ROUTE_READYZ,
    ROUTE_MODELS,
    ROUTE_MODEL,
    ROUTE_GPUS,
    ROUTE_GPU,
    ROUTE_GPU_PRICES,
    ROUTE_GPUS_BULK,
    ROUTE_MODELS_IMPORT,
    ROUTE_ESTIMATE,
    ROUTE_RECOMMEND,
    ROUTE_FIT,
    ROUTE_OPENAPI,
    ROUTE_STATIC,
    ROUTE_METRICS,
    ROUTE_MODEL_TYPES,
    ROUTE_NONE, /* no route matched (404), or refused before routing */
    ROUTE_COUNT
};

/* Route names in /metrics and the access log (index = enum route_id). */
extern const char *const route_names[ROUTE_COUNT];

struct route {
    const char *path; /* exact path, or the prefix before {id} */
    enum route_id id;
    const char *allow; /* methods, for 405 Allow */
};

#define ROUTE_ID_MAX 160

/* The route of a path, NULL when none matches (404): an exact path, an entry route with the
 * rest of the path as its id (copied into `id`; an alias may hold a slash), or a file of the
 * web page (*file set). */
const struct route *route_find(const char *url, const struct gs_embedded_file **file,
                               char id[ROUTE_ID_MAX]);

/* The Content-Type of an embedded file, by the extension of its name. */
const char *route_content_type(const char *name);

#endif
