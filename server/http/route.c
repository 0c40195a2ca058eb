/* route.c - the front end's routes (see route.h). */
#include "http/route.h"

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

extern const struct gs_embedded_file gs_web_files[];

/* Route names in /metrics and the access log (index = enum route_id). */
const char *const route_names[ROUTE_COUNT] = {
    "healthz", "readyz", "models", "model", "gpus", "gpu", "gpu_prices", "gpus_bulk",
    "models_import", "estimate", "recommend", "fit", "openapi", "static", "metrics", "model_types",
    "none"};

#define READ_ONLY "GET, HEAD"
#define COLLECTION "GET, HEAD, POST"
#define ENTRY "GET, HEAD, PUT, PATCH, DELETE"

static const struct route routes[] = {
    {"/healthz", ROUTE_HEALTHZ, READ_ONLY},       {"/readyz", ROUTE_READYZ, READ_ONLY},
    {"/v1/models", ROUTE_MODELS, COLLECTION},     {"/v1/gpus", ROUTE_GPUS, COLLECTION},
    {"/v1/gpus:bulk", ROUTE_GPUS_BULK, "POST"},   {"/v1/estimate", ROUTE_ESTIMATE, "POST"},
    {"/v1/models:import", ROUTE_MODELS_IMPORT, "POST"},
    {"/v1/recommend", ROUTE_RECOMMEND, "POST"},   {"/v1/fit", ROUTE_FIT, "POST"},
    {"/openapi.json", ROUTE_OPENAPI, READ_ONLY},  {"/metrics", ROUTE_METRICS, READ_ONLY},
    {"/v1/model-types", ROUTE_MODEL_TYPES, READ_ONLY},
};

static const struct route model_route = {NULL, ROUTE_MODEL, ENTRY};
static const struct route gpu_route = {NULL, ROUTE_GPU, ENTRY};
static const struct route prices_route = {NULL, ROUTE_GPU_PRICES, COLLECTION};

static const struct route static_route = {NULL, ROUTE_STATIC, "GET, HEAD"};

const char *route_content_type(const char *name)
{
    const char *dot = strrchr(name, '.');
    if (dot == NULL)
        return "application/octet-stream";
    if (strcmp(dot, ".html") == 0)
        return "text/html; charset=utf-8";
    if (strcmp(dot, ".js") == 0 || strcmp(dot, ".mjs") == 0)
        return "text/javascript; charset=utf-8";
    if (strcmp(dot, ".css") == 0)
        return "text/css; charset=utf-8";
    if (strcmp(dot, ".json") == 0)
        return "application/json";
    if (strcmp(dot, ".svg") == 0)
        return "image/svg+xml";
    if (strcmp(dot, ".png") == 0)
        return "image/png";
    if (strcmp(dot, ".ico") == 0)
        return "image/x-icon";
    return "application/octet-stream";
}

static const struct gs_embedded_file *find_static(const char *url)
{
    if (strcmp(url, "/") == 0)
        url = "/index.html";
    if (url[0] != '/' || strstr(url, "..") != NULL)
        return NULL;
    return gs_embedded_find(gs_web_files, url + 1);
}

/* Copies `n` bytes of the path into id; false when empty or too long. */
static bool take_id(const char *from, size_t n, char id[ROUTE_ID_MAX])
{
    if (n == 0 || n >= ROUTE_ID_MAX)
        return false;
    memcpy(id, from, n);
    id[n] = '\0';
    return true;
}

/* Entry routes take the rest of the path as the id, so an alias holding a
 * slash (a Hugging Face id such as meta-llama/Llama-3.1-8B, sent as is or as
 * %2F) names its entry; /v1/gpus/{id}/prices is told apart by its suffix. */
const struct route *route_find(const char *url, const struct gs_embedded_file **file,
                               char id[ROUTE_ID_MAX])
{
    for (size_t i = 0; i < sizeof(routes) / sizeof(routes[0]); i++) {
        if (strcmp(url, routes[i].path) == 0)
            return &routes[i];
    }
    if (strncmp(url, "/v1/models/", 11) == 0)
        return take_id(url + 11, strlen(url + 11), id) ? &model_route : NULL;
    if (strncmp(url, "/v1/gpus/", 9) == 0) {
        const char *rest = url + 9;
        const size_t n = strlen(rest), suffix = strlen("/prices");
        if (n > suffix && strcmp(rest + n - suffix, "/prices") == 0)
            return take_id(rest, n - suffix, id) ? &prices_route : NULL;
        return take_id(rest, n, id) ? &gpu_route : NULL;
    }
    *file = find_static(url);
    return *file != NULL ? &static_route : NULL;
}
