/* catalog_listing.c - the catalog's listings (see catalog_listing.h). */
#define _GNU_SOURCE /* qsort_r */
#include "api/catalog_listing.h"

#include "api/catalog_entry.h"
#include "api/codec_catalog.h"
#include "formats/jsonv.h"
#include "gs/estimate.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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

void catalog_listing_query_error(struct gs_error *err, const char *key, const char *detail)
{
    char where[96];
    jsonv_pointer(where, sizeof(where), "/query", key);
    gs_error_add(err, GS_ERR_INVALID, where, "%s", detail);
}

bool catalog_listing_query_u64(const char *text, const char *key, uint64_t max, uint64_t *out,
                               struct gs_error *err)
{
    char *end = NULL;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (errno != 0 || end == text || *end != '\0' || text[0] == '-' || v > max) {
        char detail[96];
        snprintf(detail, sizeof(detail), "must be a whole number from 0 to %llu",
                 (unsigned long long)max);
        catalog_listing_query_error(err, key, detail);
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
    catalog_listing_query_error(
        err, "sort",
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
    q->limit = CATALOG_LISTING_LIMIT_DEFAULT;
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
            catalog_listing_query_error(
                err, k,
                models ? "unknown query parameter; /v1/models takes q, family, "
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
            ok = catalog_listing_query_u64(v, k, GS_PARAMETERS_MAX, &q->min_parameters, err) && ok;
        } else if (strcmp(k, "max_parameters") == 0) {
            ok = catalog_listing_query_u64(v, k, GS_PARAMETERS_MAX, &q->max_parameters, err) && ok;
        } else if (strcmp(k, "min_memory_bytes") == 0) {
            ok = catalog_listing_query_u64(v, k, (uint64_t)1 << 50, &q->min_memory, err) && ok;
        } else if (strcmp(k, "min_usable_memory_bytes") == 0) {
            ok = catalog_listing_query_u64(v, k, (uint64_t)1 << 50, &q->min_usable_memory, err) &&
                 ok;
        } else if (strcmp(k, "max_price_per_hour") == 0) {
            char *end = NULL;
            q->max_price = strtod(v, &end);
            if (end == v || *end != '\0' || !isfinite(q->max_price) || q->max_price < 0) {
                catalog_listing_query_error(err, k,
                                            "must be a non-negative number (USD per GPU-hour)");
                ok = false;
            }
        } else if (strcmp(k, "has_price") == 0) {
            if (strcmp(v, "true") == 0)
                q->has_price = 1;
            else if (strcmp(v, "false") == 0)
                q->has_price = 0;
            else {
                catalog_listing_query_error(err, k, "must be true or false");
                ok = false;
            }
        } else if (strcmp(k, "sort") == 0) {
            ok = parse_sort(v, models, q, err) && ok;
        } else if (strcmp(k, "limit") == 0) {
            ok = catalog_listing_query_u64(v, k, CATALOG_LISTING_LIMIT_MAX, &q->limit, err) && ok;
            q->limit_given = true;
            if (ok && q->limit == 0) {
                catalog_listing_query_error(err, k, "must be at least 1");
                ok = false;
            }
        } else if (strcmp(k, "offset") == 0) {
            ok = catalog_listing_query_u64(v, k, (uint64_t)1 << 32, &q->offset, err) && ok;
        } else if (strcmp(k, "format") == 0) {
            if (strcmp(v, "csv") == 0 && !models)
                q->csv = true;
            else if (strcmp(v, "json") != 0) {
                catalog_listing_query_error(err, k,
                                            models ? "must be json" : "must be json or csv");
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

/* A listing's entity tag (a hash of its bytes), and 304 when the client holds it already:
 * a dashboard polling the catalog gets a few hundred bytes instead of 150-220 KB. */
static void tag_listing(const struct api_request *req, struct api_response *resp)
{
    if (resp->etag[0] == '\0')
        service_text_etag(resp->body != NULL ? resp->body : resp->borrowed, resp->length, resp->etag);
    if (!catalog_entry_none_match_hit(req->if_none_match, resp->etag))
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

void catalog_listing_get(const struct service *svc, bool models, const struct api_request *req,
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
