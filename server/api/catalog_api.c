/* catalog_api.c - catalog endpoints (see catalog_api.h). */
#define _GNU_SOURCE /* qsort_r */
#include "api/catalog_api.h"

#include "formats/json_lenient.h"

#include "catalog_write.h"
#include "api/codec.h"
#include "api/codec_catalog.h"
#include "formats/csv.h"
#include "formats/jsonv.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define LIMIT_DEFAULT 1000
#define LIMIT_MAX     1000
#define BULK_MAX      10000

static const char *resource_name(enum catalog_resource what)
{
    return what == CATALOG_MODELS ? "model" : "GPU";
}

/* ---------------------------------------------------------------- auth */

/* Refuses a write without the right key; true when it may go on. */
static bool authorized(const struct catalog_api *api, const struct api_request *req,
                       struct api_response *resp)
{
    switch (auth_check(api->auth, req->authorization)) {
    case AUTH_OK:
        return true;
    case AUTH_DISABLED:
        problem_set(&resp->problem, 403, "writes-disabled", "Catalog writes are disabled",
                    "this server has no API key configured; start it with GPUSIZER_API_KEY or "
                    "--api-key-file to allow catalog writes");
        break;
    case AUTH_MISSING:
        problem_set(&resp->problem, 401, "unauthorized", "Authentication required",
                    "catalog writes need \"Authorization: Bearer <API key>\"");
        resp->bearer_challenge = true;
        break;
    case AUTH_WRONG:
        problem_set(&resp->problem, 401, "unauthorized", "Authentication required",
                    "the API key is not valid");
        resp->bearer_challenge = true;
        break;
    }
    resp->status = resp->problem.status;
    return false;
}

/* ------------------------------------------------------------- listings */

enum sort_key {
    SORT_ID, SORT_NAME, SORT_PARAMETERS, SORT_FAMILY, SORT_PUBLISHER, SORT_UPDATED_AT,
    SORT_VENDOR, SORT_MEMORY, SORT_USABLE_MEMORY, SORT_BANDWIDTH, SORT_BF16, SORT_FP8,
    SORT_PRICE, SORT_PURCHASE_PRICE,
};

struct sort_name {
    const char *name;
    enum sort_key key;
    bool models, gpus;
};

static const struct sort_name sort_names[] = {
    {"id", SORT_ID, true, true},
    {"name", SORT_NAME, true, true},
    {"updated_at", SORT_UPDATED_AT, true, true},
    {"parameters", SORT_PARAMETERS, true, false},
    {"family", SORT_FAMILY, true, false},
    {"publisher", SORT_PUBLISHER, true, false},
    {"vendor", SORT_VENDOR, false, true},
    {"memory_bytes", SORT_MEMORY, false, true},
    {"usable_memory_bytes", SORT_USABLE_MEMORY, false, true},
    {"memory_bandwidth_gb_s", SORT_BANDWIDTH, false, true},
    {"bf16_tflops", SORT_BF16, false, true},
    {"fp8_tflops", SORT_FP8, false, true},
    {"price_per_hour", SORT_PRICE, false, true},
    {"purchase_price", SORT_PURCHASE_PRICE, false, true},
};

struct list_query {
    const char *q, *family, *vendor;
    uint64_t min_memory, min_usable_memory, min_parameters, max_parameters;
    double max_price;
    int has_price;  /* -1 any, 0 without, 1 with */
    enum sort_key sort;
    bool descending;
    uint64_t limit, offset;
    bool limit_given; /* a CSV export without one is the whole selection */
    bool csv;
};

static const char *const model_query_keys[] = {"q", "family", "vendor", "publisher",
                                               "min_parameters", "max_parameters", "sort",
                                               "limit", "offset", "format", NULL};
static const char *const gpu_query_keys[] = {"q", "vendor", "family", "architecture",
                                             "min_memory_bytes", "min_usable_memory_bytes",
                                             "max_price_per_hour", "has_price", "sort", "limit",
                                             "offset", "format", NULL};

static void query_error(struct gs_error *err, const char *key, const char *detail)
{
    char where[96];
    jsonv_pointer(where, sizeof(where), "/query", key);
    gs_error_add(err, GS_ERR_INVALID, where, "%s", detail);
}

static bool query_u64(const char *text, const char *key, uint64_t max, uint64_t *out,
                      struct gs_error *err)
{
    char *end = NULL;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (errno != 0 || end == text || *end != '\0' || text[0] == '-' || v > max) {
        char detail[96];
        snprintf(detail, sizeof(detail), "must be a whole number from 0 to %llu",
                 (unsigned long long)max);
        query_error(err, key, detail);
        return false;
    }
    *out = v;
    return true;
}

static bool parse_sort(const char *text, bool models, struct list_query *q, struct gs_error *err)
{
    q->descending = text[0] == '-';
    const char *name = text + (text[0] == '-' || text[0] == '+');
    for (size_t i = 0; i < sizeof(sort_names) / sizeof(sort_names[0]); i++) {
        if (strcmp(sort_names[i].name, name) == 0 &&
            (models ? sort_names[i].models : sort_names[i].gpus)) {
            q->sort = sort_names[i].key;
            return true;
        }
    }
    query_error(err, "sort",
                models ? "must be one of id, name, parameters, family, publisher, updated_at, "
                         "with - in front for descending order"
                       : "must be one of id, name, vendor, memory_bytes, usable_memory_bytes, "
                         "memory_bandwidth_gb_s, bf16_tflops, fp8_tflops, price_per_hour, "
                         "purchase_price, updated_at, with - in front for descending order");
    return false;
}

static bool parse_query(const struct api_request *req, bool models, struct list_query *q,
                        struct gs_error *err)
{
    memset(q, 0, sizeof(*q));
    q->has_price = -1;
    q->limit = LIMIT_DEFAULT;
    q->max_price = -1;
    if (req->args_overflow) {
        gs_error_add(err, GS_ERR_INVALID, "/query", "has more than %d parameters", API_ARGS_MAX);
        return false;
    }
    const char *const *allowed = models ? model_query_keys : gpu_query_keys;
    bool ok = true;
    for (size_t i = 0; i < req->arg_count; i++) {
        const char *k = req->args[i].key, *v = req->args[i].value;
        bool known = false;
        for (const char *const *a = allowed; *a != NULL; a++)
            known = known || strcmp(*a, k) == 0;
        if (!known) {
            query_error(err, k, models ? "unknown query parameter; /v1/models takes q, family, "
                                         "vendor (publisher), min_parameters, max_parameters, "
                                         "sort, limit, offset"
                                       : "unknown query parameter; /v1/gpus takes q, vendor, "
                                         "family (architecture), min_memory_bytes, "
                                         "min_usable_memory_bytes, max_price_per_hour, "
                                         "has_price, sort, limit, offset, format");
            ok = false;
        } else if (strcmp(k, "q") == 0) {
            q->q = v;
        } else if (strcmp(k, "family") == 0 || strcmp(k, "architecture") == 0) {
            q->family = v;
        } else if (strcmp(k, "vendor") == 0 || strcmp(k, "publisher") == 0) {
            q->vendor = v;
        } else if (strcmp(k, "min_parameters") == 0) {
            ok = query_u64(v, k, GS_PARAMETERS_MAX, &q->min_parameters, err) && ok;
        } else if (strcmp(k, "max_parameters") == 0) {
            ok = query_u64(v, k, GS_PARAMETERS_MAX, &q->max_parameters, err) && ok;
        } else if (strcmp(k, "min_memory_bytes") == 0) {
            ok = query_u64(v, k, (uint64_t)1 << 50, &q->min_memory, err) && ok;
        } else if (strcmp(k, "min_usable_memory_bytes") == 0) {
            ok = query_u64(v, k, (uint64_t)1 << 50, &q->min_usable_memory, err) && ok;
        } else if (strcmp(k, "max_price_per_hour") == 0) {
            char *end = NULL;
            q->max_price = strtod(v, &end);
            if (end == v || *end != '\0' || !isfinite(q->max_price) || q->max_price < 0) {
                query_error(err, k, "must be a non-negative number (USD per GPU-hour)");
                ok = false;
            }
        } else if (strcmp(k, "has_price") == 0) {
            if (strcmp(v, "true") == 0)
                q->has_price = 1;
            else if (strcmp(v, "false") == 0)
                q->has_price = 0;
            else {
                query_error(err, k, "must be true or false");
                ok = false;
            }
        } else if (strcmp(k, "sort") == 0) {
            ok = parse_sort(v, models, q, err) && ok;
        } else if (strcmp(k, "limit") == 0) {
            ok = query_u64(v, k, LIMIT_MAX, &q->limit, err) && ok;
            q->limit_given = true;
            if (ok && q->limit == 0) {
                query_error(err, k, "must be at least 1");
                ok = false;
            }
        } else if (strcmp(k, "offset") == 0) {
            ok = query_u64(v, k, (uint64_t)1 << 32, &q->offset, err) && ok;
        } else if (strcmp(k, "format") == 0) {
            if (strcmp(v, "csv") == 0 && !models)
                q->csv = true;
            else if (strcmp(v, "json") != 0) {
                query_error(err, k, models ? "must be json" : "must be json or csv");
                ok = false;
            }
        }
    }
    return ok;
}

static bool contains_ci(const char *haystack, const char *needle)
{
    if (haystack == NULL)
        return false;
    const size_t n = strlen(needle);
    for (const char *p = haystack; *p != '\0'; p++) {
        if (strncasecmp(p, needle, n) == 0)
            return true;
    }
    return n == 0;
}

static bool aliases_contain(char *const *aliases, size_t count, const char *needle)
{
    for (size_t i = 0; i < count; i++) {
        if (contains_ci(aliases[i], needle))
            return true;
    }
    return false;
}

static bool eq_ci(const char *a, const char *b)
{
    return a != NULL && strcasecmp(a, b) == 0;
}

static bool model_matches(const struct catalog_model *m, const struct list_query *q)
{
    if (q->family != NULL && !eq_ci(m->family, q->family))
        return false;
    if (q->vendor != NULL && !eq_ci(m->publisher, q->vendor))
        return false;
    if (q->min_parameters && m->parameters < q->min_parameters)
        return false;
    if (q->max_parameters && m->parameters > q->max_parameters)
        return false;
    if (q->q != NULL && !contains_ci(m->id, q->q) && !contains_ci(m->name, q->q) &&
        !contains_ci(m->hf_id, q->q) && !contains_ci(m->publisher, q->q) &&
        !aliases_contain(m->aliases, m->alias_count, q->q))
        return false;
    return true;
}

static bool gpu_matches(const struct catalog_gpu *g, const struct list_query *q)
{
    if (q->vendor != NULL && !eq_ci(g->vendor, q->vendor))
        return false;
    if (q->family != NULL && !eq_ci(g->architecture, q->family))
        return false;
    if (q->min_memory && g->memory_bytes < q->min_memory)
        return false;
    if (q->min_usable_memory && g->usable_memory_bytes < q->min_usable_memory)
        return false;
    if (q->max_price >= 0 && (!g->price_per_hour.present || g->price_per_hour.value > q->max_price))
        return false;
    if (q->has_price >= 0 && g->price_per_hour.present != (q->has_price == 1))
        return false;
    if (q->q != NULL && !contains_ci(g->id, q->q) && !contains_ci(g->name, q->q) &&
        !contains_ci(g->vendor, q->q) && !contains_ci(g->architecture, q->q) &&
        !aliases_contain(g->aliases, g->alias_count, q->q))
        return false;
    return true;
}

struct sort_ctx {
    const struct catalog_snapshot *snap;
    bool models;
    enum sort_key key;
    bool descending;
};

/* -1/0/1 on present values; absent values sort last in either direction. */
static int cmp_real(struct catalog_real a, struct catalog_real b, bool desc)
{
    if (!a.present || !b.present)
        return a.present == b.present ? 0 : (a.present ? -1 : 1);
    int c = a.value < b.value ? -1 : a.value > b.value;
    return desc ? -c : c;
}

static int cmp_text(const char *a, const char *b, bool desc)
{
    if (a == NULL || b == NULL)
        return (a == NULL) == (b == NULL) ? 0 : (a != NULL ? -1 : 1);
    int c = strcasecmp(a, b);
    c = c < 0 ? -1 : c > 0;
    return desc ? -c : c;
}

static struct catalog_real real_of(uint64_t v)
{
    return (struct catalog_real){v != 0, (double)v};
}

static int compare_rows(const void *pa, const void *pb, void *arg)
{
    const struct sort_ctx *c = arg;
    const size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
    int r = 0;
    if (c->models) {
        const struct catalog_model *x = &c->snap->models[a], *y = &c->snap->models[b];
        switch (c->key) {
        case SORT_NAME: r = cmp_text(x->name, y->name, c->descending); break;
        case SORT_PARAMETERS: r = cmp_real(real_of(x->parameters), real_of(y->parameters), c->descending); break;
        case SORT_FAMILY: r = cmp_text(x->family, y->family, c->descending); break;
        case SORT_PUBLISHER: r = cmp_text(x->publisher, y->publisher, c->descending); break;
        case SORT_UPDATED_AT: r = cmp_text(x->updated_at, y->updated_at, c->descending); break;
        default: r = cmp_text(x->id, y->id, c->descending); break;
        }
        return r != 0 ? r : strcmp(x->id, y->id);
    }
    const struct catalog_gpu *x = &c->snap->gpus[a], *y = &c->snap->gpus[b];
    switch (c->key) {
    case SORT_NAME: r = cmp_text(x->name, y->name, c->descending); break;
    case SORT_VENDOR: r = cmp_text(x->vendor, y->vendor, c->descending); break;
    case SORT_UPDATED_AT: r = cmp_text(x->updated_at, y->updated_at, c->descending); break;
    case SORT_MEMORY: r = cmp_real(real_of(x->memory_bytes), real_of(y->memory_bytes), c->descending); break;
    case SORT_USABLE_MEMORY:
        r = cmp_real(real_of(x->usable_memory_bytes), real_of(y->usable_memory_bytes), c->descending);
        break;
    case SORT_BANDWIDTH: r = cmp_real(x->memory_bandwidth_gb_s, y->memory_bandwidth_gb_s, c->descending); break;
    case SORT_BF16: r = cmp_real(x->bf16_tflops, y->bf16_tflops, c->descending); break;
    case SORT_FP8: r = cmp_real(x->fp8_tflops, y->fp8_tflops, c->descending); break;
    case SORT_PRICE: r = cmp_real(x->price_per_hour, y->price_per_hour, c->descending); break;
    case SORT_PURCHASE_PRICE: r = cmp_real(x->purchase_price, y->purchase_price, c->descending); break;
    default: r = cmp_text(x->id, y->id, c->descending); break;
    }
    return r != 0 ? r : strcmp(x->id, y->id);
}

static bool none_match_hit(const char *header, const char *etag);

/* A listing's entity tag (a hash of its bytes), and 304 when the client holds it already:
 * a dashboard polling the catalog gets a few hundred bytes instead of 150-220 KB. */
static void tag_listing(const struct api_request *req, struct api_response *resp)
{
    if (resp->etag[0] == '\0')
        service_text_etag(resp->body != NULL ? resp->body : resp->borrowed, resp->length, resp->etag);
    if (!none_match_hit(req->if_none_match, resp->etag))
        return;
    free(resp->body);
    resp->body = NULL;
    resp->borrowed = NULL;
    resp->borrowed_gzip = NULL;
    resp->length = 0;
    resp->status = 304;
}

static void next_link(const struct api_request *req, bool models, size_t next, char *out,
                      size_t n);

static void list(const struct service *svc, bool models, const struct api_request *req,
                 struct api_response *resp)
{
    const struct catalog_snapshot *snap = service_snapshot(svc);
    if (req->arg_count == 0 && !req->args_overflow) {
        /* the common case: the whole catalog, rendered once per snapshot, its tag and gzip
         * form made once too */
        struct service_listing l;
        service_listing(svc, models, req->accept_gzip, &l);
        resp->borrowed = l.body;
        resp->length = l.length;
        resp->borrowed_gzip = l.gzip;
        resp->borrowed_gzip_length = l.gzip_length;
        snprintf(resp->etag, sizeof(resp->etag), "%s", l.etag);
        resp->status = 200;
        resp->content_type = "application/json";
        tag_listing(req, resp);
        return;
    }
    struct list_query q;
    if (!parse_query(req, models, &q, &resp->problem.errors)) {
        api_fail(resp, GS_ERR_INVALID);
        return;
    }
    const size_t n = models ? snap->model_count : snap->gpu_count;
    size_t *rows = malloc((n > 0 ? n : 1) * sizeof(*rows));
    if (rows == NULL) {
        api_fail(resp, GS_ERR_NOMEM);
        return;
    }
    size_t matched = 0;
    for (size_t i = 0; i < n; i++) {
        if (models ? model_matches(&snap->models[i], &q) : gpu_matches(&snap->gpus[i], &q))
            rows[matched++] = i;
    }
    struct sort_ctx ctx = {snap, models, q.sort, q.descending};
    qsort_r(rows, matched, sizeof(*rows), compare_rows, &ctx);
    const size_t first = q.offset < matched ? (size_t)q.offset : matched;
    /* an export (CSV without a limit) is the whole selection, so the export-edit-reimport loop
     * keeps every row; a page says where the next one starts (Link, next_offset) */
    const size_t last = q.csv && !q.limit_given             ? matched
                        : matched - first > q.limit ? first + (size_t)q.limit
                                                    : matched;
    snprintf(resp->total_count, sizeof(resp->total_count), "%zu", matched);
    if (last < matched)
        next_link(req, models, last, resp->link, sizeof(resp->link));
    if (q.csv) {
        struct buf w = {NULL, 0, 0, false};
        codec_gpu_csv_header(&w);
        for (size_t i = first; i < last; i++)
            codec_gpu_csv_row(&w, &snap->gpus[rows[i]]);
        free(rows);
        if (w.failed) {
            free(w.data);
            api_fail(resp, GS_ERR_NOMEM);
            return;
        }
        resp->body = w.data;
        resp->length = w.length;
        resp->status = 200;
        resp->content_type = "text/csv; charset=utf-8; header=present";
        tag_listing(req, resp);
        return;
    }
    struct buf t = {NULL, 0, 0, false};
    buf_put(&t, "{\"items\":[", 10);
    for (size_t i = first; i < last; i++) {
        size_t len = 0;
        const char *item = models ? service_model_item(svc, rows[i], &len)
                                  : service_gpu_item(svc, rows[i], &len);
        if (i > first)
            buf_put(&t, ",", 1);
        buf_put(&t, item, len);
    }
    char tail[160];
    int k = snprintf(tail, sizeof(tail), "],\"total\":%zu,\"limit\":%llu,\"offset\":%llu", matched,
                     (unsigned long long)q.limit, (unsigned long long)q.offset);
    if (last < matched)
        k += snprintf(tail + k, sizeof(tail) - (size_t)k, ",\"next_offset\":%zu", last);
    snprintf(tail + k, sizeof(tail) - (size_t)k, "}");
    buf_put(&t, tail, strlen(tail));
    free(rows);
    if (t.failed) {
        free(t.data);
        api_fail(resp, GS_ERR_NOMEM);
        return;
    }
    resp->body = t.data;
    resp->length = t.length;
    resp->status = 200;
    resp->content_type = "application/json";
    tag_listing(req, resp);
}

/* RFC 3986 unreserved characters pass; every other byte is percent-encoded. */
static size_t put_encoded(char *out, size_t n, size_t at, const char *s)
{
    static const char hex[] = "0123456789ABCDEF";
    for (; *s != '\0' && at + 4 < n; s++) {
        const unsigned char c = (unsigned char)*s;
        if (isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~') {
            out[at++] = (char)c;
        } else {
            out[at++] = '%';
            out[at++] = hex[c >> 4];
            out[at++] = hex[c & 15];
        }
    }
    out[at < n ? at : n - 1] = '\0';
    return at;
}

/* Link: <the same listing at offset `next`>; rel="next" (RFC 8288). Left empty when the
 * query does not fit the header. */
static void next_link(const struct api_request *req, bool models, size_t next, char *out, size_t n)
{
    size_t at = (size_t)snprintf(out, n, "<%s?", models ? "/v1/models" : "/v1/gpus");
    for (size_t i = 0; i < req->arg_count && at < n; i++) {
        if (strcmp(req->args[i].key, "offset") == 0)
            continue;
        at = put_encoded(out, n, at, req->args[i].key);
        if (at + 1 < n)
            out[at++] = '=';
        at = put_encoded(out, n, at, req->args[i].value);
        if (at + 1 < n)
            out[at++] = '&';
    }
    const int k = at < n ? snprintf(out + at, n - at, "offset=%zu>; rel=\"next\"", next) : -1;
    if (k < 0 || at + (size_t)k >= n)
        out[0] = '\0';
}

/* ---------------------------------------------------------------- entries */

/* The snapshot index of an id or alias, or -1. */
static long find_row(const struct service *svc, bool models, const char *id)
{
    const struct catalog_snapshot *snap = service_snapshot(svc);
    if (models) {
        const struct catalog_model *m = catalog_snapshot_model(snap, id);
        return m != NULL ? (long)(m - snap->models) : -1;
    }
    const struct catalog_gpu *g = catalog_snapshot_gpu(snap, id);
    return g != NULL ? (long)(g - snap->gpus) : -1;
}

static const char *row_etag(const struct service *svc, bool models, long row)
{
    const struct catalog_snapshot *snap = service_snapshot(svc);
    return models ? snap->models[row].etag : snap->gpus[row].etag;
}

static const char *row_id(const struct service *svc, bool models, long row)
{
    const struct catalog_snapshot *snap = service_snapshot(svc);
    return models ? snap->models[row].id : snap->gpus[row].id;
}

/* The served representation of a row, parsed (new reference). */
static json_t *row_json(const struct service *svc, bool models, long row)
{
    size_t len = 0;
    const char *text = models ? service_model_item(svc, (size_t)row, &len)
                              : service_gpu_item(svc, (size_t)row, &len);
    return json_loadb(text, len, 0, NULL);
}

static void not_found(struct api_response *resp, bool models, const char *id)
{
    gs_error_add(&resp->problem.errors, GS_ERR_NOT_FOUND, "", "no %s \"%.100s\" in the catalog",
                 models ? "model" : "GPU", id);
    api_fail(resp, GS_ERR_NOT_FOUND);
}

/* Whether If-None-Match is * or lists `etag` (weak comparison, RFC 9110
 * 13.1.2: W/"x" matches "x"). */
static bool none_match_hit(const char *header, const char *etag)
{
    if (header == NULL)
        return false;
    return strcmp(header, "*") == 0 || strstr(header, etag) != NULL;
}

static void get_item(const struct service *svc, bool models, const struct api_request *req,
                     struct api_response *resp)
{
    const long row = find_row(svc, models, req->id);
    if (row < 0) {
        not_found(resp, models, req->id);
        return;
    }
    snprintf(resp->etag, sizeof(resp->etag), "%s", row_etag(svc, models, row));
    if (none_match_hit(req->if_none_match, resp->etag)) {
        resp->status = 304;
        return;
    }
    resp->borrowed = models ? service_model_item(svc, (size_t)row, &resp->length)
                            : service_gpu_item(svc, (size_t)row, &resp->length);
    resp->status = 200;
    resp->content_type = "application/json";
}

/* A decoded entry ready to write. */
struct put_job {
    bool models;
    struct codec_model_row model;
    struct codec_gpu_row gpu;
    struct catalog_precondition pre;
    struct catalog_put_result result;
};

static enum gs_status put_one(struct catalog *catalog, void *arg, struct gs_error *err)
{
    struct put_job *job = arg;
    return job->models ? catalog_model_put(catalog, &job->model.row, &job->pre, &job->result, err)
                       : catalog_gpu_put(catalog, &job->gpu.row, &job->pre, &job->result, err);
}

/* A body may name the entry by the alias the path used: it means the entry. */
static void canonical_body_id(json_t *doc, const char *named, const char *canonical)
{
    const json_t *id = json_object_get(doc, "id");
    if (json_is_string(id) && named != NULL && strcasecmp(json_string_value(id), named) == 0)
        json_object_set_new(doc, "id", json_string(canonical));
}

static enum gs_status decode_row(bool models, const json_t *doc, const char *id,
                                 struct put_job *job, struct gs_error *err)
{
    job->models = models;
    return models ? codec_decode_model_row(doc, id, &job->model, err)
                  : codec_decode_gpu_row(doc, id, &job->gpu, err);
}

static void free_job(struct put_job *job)
{
    codec_model_row_free(&job->model);
    codec_gpu_row_free(&job->gpu);
}

/* Answers a successful write with the entry as now stored. */
static void answer_written(const struct catalog_api *api, bool models,
                           const struct catalog_put_result *result, struct api_response *resp)
{
    struct service *now = store_acquire(api->store);
    const long row = find_row(now, models, result->id);
    json_t *body = row >= 0 ? row_json(now, models, row) : NULL;
    store_release(now);
    snprintf(resp->etag, sizeof(resp->etag), "%s", result->etag);
    if (result->created)
        snprintf(resp->location, sizeof(resp->location), "/v1/%s/%s", models ? "models" : "gpus",
                 result->id);
    if (body == NULL) {
        api_fail(resp, GS_ERR_NOMEM);
        return;
    }
    api_json(resp, result->created ? 201 : 200, body);
}

static void precondition_from(const struct api_request *req, struct catalog_precondition *pre)
{
    pre->if_match = req->if_match;
    pre->if_none_match = req->if_none_match != NULL && strcmp(req->if_none_match, "*") == 0;
}

/* PUT (and POST-create): the body replaces the entry. */
static void put_item(const struct catalog_api *api, const struct service *svc, bool models,
                     const char *path_id, bool create_only, const struct api_request *req,
                     struct api_response *resp)
{
    json_t *body = api_parse_body(req, resp);
    if (body == NULL)
        return;
    const long row = find_row(svc, models, path_id);
    const char *id = row >= 0 ? row_id(svc, models, row) : path_id;
    canonical_body_id(body, path_id, id);
    struct put_job job;
    memset(&job, 0, sizeof(job));
    enum gs_status st = decode_row(models, body, id, &job, &resp->problem.errors);
    json_decref(body);
    if (st != GS_OK) {
        api_fail(resp, st);
        return;
    }
    precondition_from(req, &job.pre);
    if (create_only)
        job.pre.if_none_match = true;
    st = store_write(api->store, put_one, &job, &resp->problem.errors);
    if (st == GS_ERR_PRECONDITION && create_only) {
        gs_error_init(&resp->problem.errors);
        gs_error_add(&resp->problem.errors, GS_ERR_CONFLICT, "/id",
                     "%s \"%s\" already exists; PUT /v1/%s/%s replaces it", resource_name(models ? CATALOG_MODELS : CATALOG_GPUS),
                     id, models ? "models" : "gpus", id);
        st = GS_ERR_CONFLICT;
    }
    if (st == GS_OK)
        answer_written(api, models, &job.result, resp);
    else
        api_fail(resp, st);
    free_job(&job);
}

/* PATCH: a JSON merge patch on the entry as served, written only if nobody
 * changed it meanwhile (the client's If-Match, else the version patched). */
/* A PATCH, applied inside the writer's critical section: the base it merges
 * into is the version every earlier write of this process left (the store
 * reloads before releasing the writer), so writers here never make each
 * other fail; only a write by another process in between (caught by the
 * implicit If-Match inside the transaction) sends it round again. */
struct patch_job {
    struct store *store;
    bool models;
    const char *id;
    const json_t *patch;
    const char *if_match; /* the client's, or NULL */
    struct put_job put;
    bool decoded;         /* put holds a decoded row (free_job it) */
    bool not_found;
};

/* An absent member of an entry reads as null, or for a list as none (a merge patch's null
 * removes it, an empty CSV cell is null; the entry as served shows null or []). */
static bool empty_json(const json_t *v)
{
    return json_is_null(v) || (json_is_array(v) && json_array_size(v) == 0);
}

/* Whether a write would change what an entry holds: JSON equality with numbers compared by
 * value (a CSV cell "300" reads as the integer 300 where the entry holds 300.0) and an
 * absent member the same as an empty one (empty_json). */
static bool same_json(json_t *a, json_t *b)
{
    if (json_is_number(a) && json_is_number(b))
        return json_number_value(a) == json_number_value(b) &&
               (!json_is_integer(a) || !json_is_integer(b) ||
                json_integer_value(a) == json_integer_value(b));
    if (json_typeof(a) != json_typeof(b))
        return false;
    if (json_is_object(a)) {
        const char *key;
        json_t *v;
        json_object_foreach(a, key, v)
        {
            json_t *w = json_object_get(b, key);
            if (w == NULL ? !empty_json(v) : !same_json(v, w))
                return false;
        }
        json_object_foreach(b, key, v)
        {
            if (json_object_get(a, key) == NULL && !empty_json(v))
                return false;
        }
        return true;
    }
    if (json_is_array(a)) {
        if (json_array_size(a) != json_array_size(b))
            return false;
        for (size_t i = 0; i < json_array_size(a); i++)
            if (!same_json(json_array_get(a, i), json_array_get(b, i)))
                return false;
        return true;
    }
    return json_equal(a, b);
}

static enum gs_status patch_one(struct catalog *catalog, void *arg, struct gs_error *err)
{
    struct patch_job *pj = arg;
    struct service *svc = store_acquire(pj->store);
    enum gs_status st = GS_OK;
    const long row = find_row(svc, pj->models, pj->id);
    if (row < 0) {
        pj->not_found = true;
        store_release(svc);
        return GS_ERR_NOT_FOUND;
    }
    json_t *base = row_json(svc, pj->models, row);
    /* a new config re-derives a derived count unless the patch gives one */
    if (base != NULL && pj->models && json_object_get(pj->patch, "config") != NULL &&
        json_object_get(pj->patch, "parameters") == NULL &&
        json_is_string(json_object_get(base, "parameters_basis")) &&
        strcmp(json_string_value(json_object_get(base, "parameters_basis")), "derived") == 0) {
        json_object_del(base, "parameters");
        json_object_del(base, "parameters_source");
    }
    json_t *merged = base != NULL ? codec_merge_patch(base, pj->patch, err) : NULL;
    if (merged == NULL) {
        json_decref(base);
        store_release(svc);
        return err != NULL && err->count ? GS_ERR_INVALID : GS_ERR_NOMEM;
    }
    canonical_body_id(merged, pj->id, row_id(svc, pj->models, row));
    /* a patch that changes nothing writes nothing: the entry keeps its ETag, so other
     * clients' If-Match stays valid (unless this client's own If-Match is stale) */
    const char *etag = row_etag(svc, pj->models, row);
    if (same_json(merged, base) &&
        (pj->if_match == NULL || strcmp(pj->if_match, "*") == 0 || strstr(pj->if_match, etag))) {
        memset(&pj->put, 0, sizeof(pj->put));
        snprintf(pj->put.result.id, sizeof(pj->put.result.id), "%s", row_id(svc, pj->models, row));
        snprintf(pj->put.result.etag, sizeof(pj->put.result.etag), "%s", etag);
        json_decref(merged);
        json_decref(base);
        store_release(svc);
        return GS_OK;
    }
    json_decref(base);
    memset(&pj->put, 0, sizeof(pj->put));
    st = decode_row(pj->models, merged, row_id(svc, pj->models, row), &pj->put, err);
    json_decref(merged);
    pj->decoded = true;
    if (st == GS_OK) {
        /* the version merged into, unless the client named one */
        char implicit[CATALOG_ETAG_MAX];
        snprintf(implicit, sizeof(implicit), "%s", row_etag(svc, pj->models, row));
        pj->put.pre.if_match = pj->if_match != NULL ? pj->if_match : implicit;
        st = put_one(catalog, &pj->put, err);
    }
    store_release(svc);
    return st;
}

static void patch_item(const struct catalog_api *api, struct service *svc, bool models,
                       const struct api_request *req, struct api_response *resp)
{
    (void)svc;
    json_t *patch = api_parse_body(req, resp);
    if (patch == NULL)
        return;
    enum gs_status st = GS_OK;
    for (int attempt = 0; attempt < 3; attempt++) {
        struct patch_job pj = {api->store, models, req->id, patch, req->if_match, {0}, false,
                               false};
        gs_error_init(&resp->problem.errors);
        st = store_write(api->store, patch_one, &pj, &resp->problem.errors);
        if (st == GS_OK)
            answer_written(api, models, &pj.put.result, resp);
        if (pj.decoded)
            free_job(&pj.put);
        if (pj.not_found) {
            not_found(resp, models, req->id);
            break;
        }
        /* another process wrote the entry between our read and our write: patch its version */
        if (st == GS_ERR_PRECONDITION && req->if_match == NULL)
            continue;
        if (st != GS_OK)
            api_fail(resp, st);
        break;
    }
    if (st == GS_ERR_PRECONDITION && req->if_match == NULL) {
        gs_error_add(&resp->problem.errors, GS_ERR_PRECONDITION, "",
                     "other processes kept changing the entry while the patch was applied; send "
                     "it again");
        api_fail(resp, st);
    }
    json_decref(patch);
}

struct delete_job {
    bool models;
    const char *id;
    struct catalog_precondition pre;
};

static enum gs_status delete_one(struct catalog *catalog, void *arg, struct gs_error *err)
{
    struct delete_job *job = arg;
    return job->models ? catalog_model_delete(catalog, job->id, &job->pre, err)
                       : catalog_gpu_delete(catalog, job->id, &job->pre, err);
}

static void delete_item(const struct catalog_api *api, bool models, const struct api_request *req,
                        struct api_response *resp)
{
    struct delete_job job = {models, req->id, {NULL, false}};
    precondition_from(req, &job.pre);
    enum gs_status st = store_write(api->store, delete_one, &job, &resp->problem.errors);
    if (st != GS_OK) {
        api_fail(resp, st);
        return;
    }
    resp->status = 204;
}

void catalog_api_item(const struct catalog_api *api, struct service *service,
                      enum catalog_resource what, const struct api_request *req,
                      struct api_response *resp)
{
    const bool models = what == CATALOG_MODELS;
    if (strcmp(req->method, "GET") == 0 || strcmp(req->method, "HEAD") == 0) {
        get_item(service, models, req, resp);
        return;
    }
    if (!authorized(api, req, resp))
        return;
    if (strcmp(req->method, "PUT") == 0)
        put_item(api, service, models, req->id, false, req, resp);
    else if (strcmp(req->method, "PATCH") == 0)
        patch_item(api, service, models, req, resp);
    else
        delete_item(api, models, req, resp);
}

void catalog_api_collection(const struct catalog_api *api, struct service *service,
                            enum catalog_resource what, const struct api_request *req,
                            struct api_response *resp)
{
    const bool models = what == CATALOG_MODELS;
    if (strcmp(req->method, "POST") != 0) {
        list(service, models, req, resp);
        return;
    }
    if (!authorized(api, req, resp))
        return;
    json_t *body = api_parse_body(req, resp);
    if (body == NULL)
        return;
    const json_t *id = json_object_get(body, "id");
    char id_copy[128];
    const bool have_id = json_is_string(id) && json_string_length(id) < sizeof(id_copy);
    if (have_id)
        snprintf(id_copy, sizeof(id_copy), "%s", json_string_value(id));
    json_decref(body);
    if (!have_id) {
        gs_error_add(&resp->problem.errors, GS_ERR_INVALID, "/id",
                     "is required to create an entry (a lower-case slug)");
        api_fail(resp, GS_ERR_INVALID);
        return;
    }
    put_item(api, service, models, id_copy, true, req, resp);
}

/* ------------------------------------------------------------------- bulk */

struct bulk_job {
    struct codec_gpu_row *rows;
    struct catalog_gpu *gpus;
    struct catalog_precondition *pres;
    char (*etags)[CATALOG_ETAG_MAX];
    bool *unchanged;  /* the record changes nothing in its existing row: not written */
    size_t *written;  /* the records written, in order (the rest unchanged) */
    size_t count;
    size_t created, unchanged_count, failed_row;
};

/* Writes the records that change something, in one transaction; an unchanged row keeps
 * its revision and ETag (an export re-imported as it was changes nothing). */
static enum gs_status put_bulk(struct catalog *catalog, void *arg, struct gs_error *err)
{
    struct bulk_job *job = arg;
    struct catalog_gpu *gpus = calloc(job->count ? job->count : 1, sizeof(*gpus));
    struct catalog_precondition *pres = calloc(job->count ? job->count : 1, sizeof(*pres));
    enum gs_status st = GS_OK;
    if (gpus == NULL || pres == NULL) {
        st = gs_error_add(err, GS_ERR_NOMEM, "", "out of memory");
    } else {
        size_t n = 0;
        job->unchanged_count = 0;
        for (size_t i = 0; i < job->count; i++) {
            if (job->unchanged[i]) {
                job->unchanged_count++;
                continue;
            }
            gpus[n] = job->gpus[i];
            pres[n] = job->pres[i];
            job->written[n++] = i;
        }
        size_t failed = 0;
        job->created = 0;
        if (n > 0) {
            st = catalog_gpu_put_many(catalog, gpus, pres, n, &job->created, &failed, err);
            job->failed_row = failed < n ? job->written[failed] : 0;
        }
    }
    free(gpus);
    free(pres);
    return st;
}

/* The bulk body as a JSON array of GPU objects, from JSON or CSV. */
static json_t *bulk_records(const struct api_request *req, bool csv, struct api_response *resp)
{
    struct gs_error *err = &resp->problem.errors;
    if (!csv) {
        json_t *body = api_parse_body(req, resp);
        if (body == NULL)
            return NULL;
        json_t *items = json_is_object(body) ? json_object_get(body, "items") : body;
        if (!json_is_array(items)) {
            gs_error_add(err, GS_ERR_INVALID, "",
                         "the body must be an array of GPU objects (or {\"items\": [...]})");
            json_decref(body);
            api_fail(resp, GS_ERR_INVALID);
            return NULL;
        }
        json_incref(items);
        json_decref(body);
        return items;
    }
    struct csv_table table;
    enum gs_status st = csv_parse(req->body != NULL ? req->body : "", req->body_length, &table, err);
    if (st != GS_OK) {
        api_fail(resp, st);
        return NULL;
    }
    json_t *items = json_array();
    for (size_t r = 1; items != NULL && r < table.rows; r++) {
        const size_t first = err->count;
        json_t *record = codec_gpu_csv_record(&table, r, err);
        if (record == NULL) {
            char prefix[64];
            snprintf(prefix, sizeof(prefix), "/%zu", r - 1);
            gs_error_prefix(err, first, prefix);
            if (err->count > first)
                snprintf(resp->problem.detail, sizeof(resp->problem.detail),
                         "CSV line %zu (record %zu)", table.line[r], r - 1);
            json_decref(items);
            items = NULL;
            break;
        }
        json_array_append_new(items, record);
    }
    csv_table_free(&table);
    if (items == NULL) {
        char detail[256];
        snprintf(detail, sizeof(detail), "%s", resp->problem.detail);
        api_fail(resp, err->count ? GS_ERR_INVALID : GS_ERR_NOMEM);
        snprintf(resp->problem.detail, sizeof(resp->problem.detail), "%s", detail);
    }
    return items;
}

static void bulk_free(struct bulk_job *job)
{
    for (size_t i = 0; job->rows != NULL && i < job->count; i++)
        codec_gpu_row_free(&job->rows[i]);
    free(job->rows);
    free(job->gpus);
    free(job->pres);
    free(job->etags);
    free(job->unchanged);
    free(job->written);
    memset(job, 0, sizeof(*job));
}

/* Decodes every record against `svc`: an existing GPU takes the record as a
 * merge patch (absent columns keep their values), a new one needs every
 * required field. Errors carry the record index. */
static enum gs_status bulk_decode(const struct service *svc, const json_t *items,
                                  struct bulk_job *job, struct gs_error *err)
{
    const size_t n = json_array_size(items);
    job->count = n;
    job->rows = calloc(n ? n : 1, sizeof(*job->rows));
    job->gpus = calloc(n ? n : 1, sizeof(*job->gpus));
    job->pres = calloc(n ? n : 1, sizeof(*job->pres));
    job->etags = calloc(n ? n : 1, sizeof(*job->etags));
    job->unchanged = calloc(n ? n : 1, sizeof(*job->unchanged));
    job->written = calloc(n ? n : 1, sizeof(*job->written));
    if (job->rows == NULL || job->gpus == NULL || job->pres == NULL || job->etags == NULL ||
        job->unchanged == NULL || job->written == NULL)
        return gs_error_add(err, GS_ERR_NOMEM, "", "out of memory");
    enum gs_status result = GS_OK;
    for (size_t i = 0; i < n; i++) {
        char prefix[32];
        snprintf(prefix, sizeof(prefix), "/%zu", i);
        const size_t first = err->count;
        const json_t *record = json_array_get(items, i);
        const json_t *id = json_object_get(record, "id");
        enum gs_status st = GS_OK;
        if (!json_is_string(id)) {
            st = gs_error_add(err, GS_ERR_INVALID, "/id", "is required in every record");
        } else {
            const long row = find_row(svc, false, json_string_value(id));
            json_t *base = row >= 0 ? row_json(svc, false, row) : json_object();
            json_t *merged = base != NULL ? codec_merge_patch(base, record, err) : NULL;
            const char *canonical = row >= 0 ? row_id(svc, false, row) : json_string_value(id);
            if (merged != NULL)
                canonical_body_id(merged, json_string_value(id), canonical);
            job->unchanged[i] = row >= 0 && merged != NULL && same_json(merged, base);
            json_decref(base);
            st = merged != NULL ? codec_decode_gpu_row(merged, canonical, &job->rows[i], err)
                                : GS_ERR_INVALID;
            json_decref(merged);
            if (st == GS_OK) {
                job->gpus[i] = job->rows[i].row;
                if (row >= 0) {
                    snprintf(job->etags[i], CATALOG_ETAG_MAX, "%s", row_etag(svc, false, row));
                    job->pres[i].if_match = job->etags[i];
                } else {
                    job->pres[i].if_none_match = true;
                }
                for (size_t j = 0; j < i; j++) {
                    if (job->gpus[j].id != NULL && strcmp(job->gpus[j].id, canonical) == 0) {
                        st = gs_error_add(err, GS_ERR_INVALID, "/id",
                                          "GPU \"%s\" appears again (first in record %zu)",
                                          canonical, j);
                        break;
                    }
                }
            }
        }
        gs_error_prefix(err, first, prefix);
        if (st != GS_OK && result == GS_OK)
            result = st;
        if (err->count >= GS_ERROR_MAX)
            break;
    }
    return result;
}

/* A bulk write merged inside the write (store_write): onto the view as it is with the
 * writer lock, and on a shared catalog the other replicas' writes, held. */
struct bulk_write {
    struct store *store;
    const json_t *items;
    struct service *svc; /* the view decoded against: the rows borrow its ids (released by
                            the caller once the answer is built) */
    struct bulk_job job;
    bool written; /* decoded, and the rows went to the catalog */
};

static enum gs_status decode_and_put_bulk(struct catalog *catalog, void *arg,
                                          struct gs_error *err)
{
    struct bulk_write *bw = arg;
    bw->svc = store_acquire(bw->store);
    enum gs_status st = bulk_decode(bw->svc, bw->items, &bw->job, err);
    if (st == GS_OK) {
        bw->written = true;
        st = put_bulk(catalog, &bw->job, err);
    }
    return st;
}

void catalog_api_bulk(const struct catalog_api *api, struct service *service,
                      const struct api_request *req, struct api_response *resp)
{
    if (!authorized(api, req, resp))
        return;
    const bool csv = req->content_type != NULL && strncasecmp(req->content_type, "text/csv", 8) == 0;
    json_t *items = bulk_records(req, csv, resp);
    if (items == NULL)
        return;
    if (json_array_size(items) == 0 || json_array_size(items) > BULK_MAX) {
        gs_error_add(&resp->problem.errors, GS_ERR_INVALID, "",
                     "a bulk request carries 1 to %d GPUs", BULK_MAX);
        json_decref(items);
        api_fail(resp, GS_ERR_INVALID);
        return;
    }
    (void)service;
    struct bulk_write bw;
    enum gs_status st = GS_OK;
    for (int attempt = 0; attempt < 3; attempt++) {
        memset(&bw, 0, sizeof(bw));
        bw.store = api->store;
        bw.items = items;
        st = store_write(api->store, decode_and_put_bulk, &bw, &resp->problem.errors);
        if (st != GS_OK && st != GS_ERR_PRECONDITION && bw.written) {
            char prefix[32];
            snprintf(prefix, sizeof(prefix), "/%zu", bw.job.failed_row);
            gs_error_prefix(&resp->problem.errors, 0, prefix);
        }
        if (st != GS_ERR_PRECONDITION)
            break;
        /* another process changed a row between our read and our write (a writer that does
         * not hold the replicas' lock): merge onto the new rows */
        bulk_free(&bw.job);
        store_release(bw.svc);
        gs_error_init(&resp->problem.errors);
    }
    struct bulk_job job = bw.job;
    if (st == GS_OK) {
        json_t *ids = json_array();
        for (size_t i = 0; ids != NULL && i < job.count; i++)
            json_array_append_new(ids, json_string(job.gpus[i].id));
        json_t *body = json_pack("{s:I, s:I, s:I, s:o}", "created", (json_int_t)job.created,
                                 "updated",
                                 (json_int_t)(job.count - job.created - job.unchanged_count),
                                 "unchanged", (json_int_t)job.unchanged_count, "ids", ids);
        api_json(resp, 200, body);
    } else {
        if (csv && resp->problem.detail[0] == '\0')
            snprintf(resp->problem.detail, sizeof(resp->problem.detail),
                     "nothing was written; pointers are /<record>/<column>, record 0 being the "
                     "first line after the header");
        char detail[256];
        snprintf(detail, sizeof(detail), "%s", resp->problem.detail);
        api_fail(resp, st);
        snprintf(resp->problem.detail, sizeof(resp->problem.detail), "%s",
                 detail[0] ? detail : "nothing was written");
    }
    bulk_free(&job);
    store_release(bw.svc);
    json_decref(items);
}

/* ----------------------------------------------------------------- prices */

struct prices_job {
    const char *id;
    struct catalog_price *prices;
    size_t count;
    /* adding */
    const char *kind, *date, *source;
    double usd;
    struct catalog_precondition pre;
    struct catalog_put_result result;
};

static enum gs_status read_prices(struct catalog *catalog, void *arg, struct gs_error *err)
{
    struct prices_job *job = arg;
    return catalog_gpu_prices(catalog, job->id, &job->prices, &job->count, err);
}

static enum gs_status add_price(struct catalog *catalog, void *arg, struct gs_error *err)
{
    struct prices_job *job = arg;
    return catalog_gpu_add_price(catalog, job->id, job->kind, job->usd, job->date, job->source,
                                 &job->pre, &job->result, err);
}

/* A page of a price history: ?limit= (1..1000, default 1000) and ?offset=; any other query
 * parameter is a 400 at /query/<name>, as on the listings. */
static bool prices_page(const struct api_request *req, uint64_t *limit, uint64_t *offset,
                        struct gs_error *err)
{
    bool ok = true;
    *limit = LIMIT_DEFAULT;
    *offset = 0;
    for (size_t i = 0; i < req->arg_count; i++) {
        const char *k = req->args[i].key, *v = req->args[i].value;
        if (strcmp(k, "limit") == 0) {
            ok = query_u64(v, k, LIMIT_MAX, limit, err) && ok;
            if (ok && *limit == 0) {
                query_error(err, k, "must be at least 1");
                ok = false;
            }
        } else if (strcmp(k, "offset") == 0) {
            ok = query_u64(v, k, (uint64_t)1 << 32, offset, err) && ok;
        } else {
            query_error(err, k, "is not a parameter of a price history; use limit, offset");
            ok = false;
        }
    }
    return ok;
}

static json_t *prices_json(const char *gpu_id, const struct catalog_price *all, size_t total,
                           uint64_t limit, uint64_t offset)
{
    const size_t first = offset < total ? (size_t)offset : total;
    const size_t n = total - first > limit ? (size_t)limit : total - first;
    const struct catalog_price *p = all + first;
    json_t *items = json_array();
    for (size_t i = 0; items != NULL && i < n; i++) {
        json_t *item = json_pack("{s:s, s:f, s:s, s:s, s:s, s:b}", "kind", p[i].kind, "usd",
                                 p[i].usd, "effective_date", p[i].effective_date, "source",
                                 p[i].source, "recorded_at", p[i].recorded_at, "current",
                                 p[i].current);
        if (item == NULL || json_array_append_new(items, item) != 0) {
            json_decref(items);
            return NULL;
        }
    }
    json_t *out = items != NULL ? json_pack("{s:s, s:o, s:I, s:I, s:I}", "gpu", gpu_id, "items",
                                            items, "total", (json_int_t)total, "limit",
                                            (json_int_t)limit, "offset", (json_int_t)offset)
                                : NULL;
    if (out != NULL && first + n < total &&
        json_object_set_new(out, "next_offset", json_integer((json_int_t)(first + n))) != 0) {
        json_decref(out);
        return NULL;
    }
    return out;
}

static bool decode_price(const json_t *body, struct prices_job *job, struct gs_error *err)
{
    static const char *const keys[] = {"kind", "usd", "effective_date", "source", NULL};
    static const char *const kinds[] = {"on_demand", "purchase", NULL};
    if (!json_is_object(body)) {
        gs_error_add(err, GS_ERR_INVALID, "", "a price must be a JSON object");
        return false;
    }
    bool ok = jsonv_only_keys(body, "", keys, err);
    int kind = 0;
    const json_t *k = json_object_get(body, "kind");
    if (k == NULL)
        ok = gs_error_add(err, GS_ERR_INVALID, "/kind", "is required: on_demand or purchase") == GS_OK && ok;
    else if (!jsonv_enum(k, "/kind", kinds, &kind, err))
        ok = false;
    job->kind = kinds[kind];
    const json_t *usd = json_object_get(body, "usd");
    const double max = kind == 0 ? 1e4 : 1e8;
    if (!json_is_number(usd) || !(json_number_value(usd) > 0) || json_number_value(usd) > max) {
        gs_error_add(err, GS_ERR_INVALID, "/usd",
                     "is required: a positive number (USD per GPU-hour on demand, USD per GPU "
                     "to buy), at most %g", max);
        ok = false;
    } else {
        job->usd = json_number_value(usd);
    }
    /* the rules of the GPU's own price_source and price_date: this price may
     * become the entry's current one, which every later write sends back */
    const json_t *source = json_object_get(body, "source");
    if (source == NULL || json_is_null(source)) {
        gs_error_add(err, GS_ERR_INVALID, "/source", "is required: where the price comes from");
        ok = false;
    } else if (!codec_read_text(source, "/source", CODEC_SOURCE_MAX, true, &job->source, err)) {
        ok = false;
    }
    if (!codec_read_date(json_object_get(body, "effective_date"), "/effective_date", &job->date,
                         err))
        ok = false;
    return ok;
}

void catalog_api_prices(const struct catalog_api *api, struct service *service,
                        const struct api_request *req, struct api_response *resp)
{
    struct prices_job job;
    memset(&job, 0, sizeof(job));
    const long row = find_row(service, false, req->id);
    if (row < 0) {
        not_found(resp, false, req->id);
        return;
    }
    job.id = row_id(service, false, row);
    uint64_t limit = 0, offset = 0;
    if (!prices_page(req, &limit, &offset, &resp->problem.errors)) {
        api_fail(resp, GS_ERR_INVALID);
        return;
    }
    enum gs_status st = GS_OK;
    int status = 200;
    json_t *body = NULL;
    if (strcmp(req->method, "POST") == 0) {
        if (!authorized(api, req, resp))
            return;
        body = api_parse_body(req, resp);
        if (body == NULL)
            return;
        if (!decode_price(body, &job, &resp->problem.errors)) {
            json_decref(body);
            api_fail(resp, GS_ERR_INVALID);
            return;
        }
        precondition_from(req, &job.pre);
        st = store_write(api->store, add_price, &job, &resp->problem.errors);
        status = 201;
        if (st == GS_OK)
            snprintf(resp->etag, sizeof(resp->etag), "%s", job.result.etag);
    }
    if (st == GS_OK)
        st = store_read(api->store, read_prices, &job, &resp->problem.errors);
    json_decref(body);
    if (st != GS_OK) {
        api_fail(resp, st);
        return;
    }
    json_t *out = prices_json(job.id, job.prices, job.count, limit, offset);
    snprintf(resp->total_count, sizeof(resp->total_count), "%zu", job.count);
    catalog_prices_free(job.prices, job.count);
    api_json(resp, status, out);
}
