/* codec_catalog.c - catalog entries in and out of JSON and CSV (see codec_catalog.h). */
#include "api/codec_catalog.h"

#include "formats/json_build.h"
#include "formats/json_out.h"
#include "gs/arch.h"
#include "gs/estimate.h"
#include "readers/models.h"
#include "formats/jsonv.h"

#include <ctype.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define ALIASES_MAX 32

enum field_kind { F_ID, F_TEXT, F_SOURCE, F_DATE, F_U64, F_REAL, F_INT, F_BOOL, F_ALIASES };

/* One writable GPU field: where it lives in struct catalog_gpu, its range,
 * and the field that must cite it. */
struct gpu_field {
    const char *name;
    enum field_kind kind;
    size_t offset;
    bool required;
    double max;         /* numbers: largest accepted value */
    const char *source; /* numbers: the field holding their source */
};

#define G(f) offsetof(struct catalog_gpu, f)

static const struct gpu_field gpu_fields[] = {
    {"id", F_ID, G(id), false, 0, NULL},
    {"name", F_TEXT, G(name), true, 0, NULL},
    {"vendor", F_TEXT, G(vendor), true, 0, NULL},
    {"architecture", F_TEXT, G(architecture), false, 0, NULL},
    {"form_factor", F_TEXT, G(form_factor), false, 0, NULL},
    {"memory_type", F_TEXT, G(memory_type), false, 0, NULL},
    {"unified_memory", F_BOOL, G(unified_memory), false, 0, "usable_memory_source"},
    {"memory_bytes", F_U64, G(memory_bytes), true, 1125899906842624.0, "memory_source"},
    {"memory_source", F_SOURCE, G(memory_source), false, 0, NULL},
    {"usable_memory_bytes", F_U64, G(usable_memory_bytes), false, 1125899906842624.0,
     "usable_memory_source"},
    {"usable_memory_source", F_SOURCE, G(usable_memory_source), false, 0, NULL},
    {"memory_bandwidth_gb_s", F_REAL, G(memory_bandwidth_gb_s), false, 1e6, "spec_source"},
    {"bf16_tflops", F_REAL, G(bf16_tflops), false, 1e6, "spec_source"},
    {"fp16_tflops", F_REAL, G(fp16_tflops), false, 1e6, "spec_source"},
    {"fp8_tflops", F_REAL, G(fp8_tflops), false, 1e6, "spec_source"},
    {"tdp_watts", F_INT, G(tdp_watts), false, 100000, "spec_source"},
    {"spec_source", F_SOURCE, G(spec_source), false, 0, NULL},
    {"interconnect", F_TEXT, G(interconnect), false, 0, NULL},
    {"interconnect_gb_s", F_REAL, G(interconnect_gb_s), false, 1e6, "interconnect_source"},
    {"pcie_gen", F_INT, G(pcie_gen), false, 7, "interconnect_source"},
    {"gpus_per_node", F_INT, G(gpus_per_node), false, 72, "interconnect_source"},
    {"interconnect_source", F_SOURCE, G(interconnect_source), false, 0, NULL},
    {"scale_out_gb_s", F_REAL, G(scale_out_gb_s), false, 1e6, "scale_out_source"},
    {"scale_out_source", F_SOURCE, G(scale_out_source), false, 0, NULL},
    {"sm_count", F_INT, G(sm_count), false, 1024, "sm_count_source"},
    {"sm_count_source", F_SOURCE, G(sm_count_source), false, 0, NULL},
    {"price_per_hour", F_REAL, G(price_per_hour), false, 1e4, "price_source"},
    {"price_source", F_SOURCE, G(price_source), false, 0, NULL},
    {"price_date", F_DATE, G(price_date), false, 0, NULL},
    {"purchase_price", F_REAL, G(purchase_price), false, 1e8, "purchase_price_source"},
    {"purchase_price_source", F_SOURCE, G(purchase_price_source), false, 0, NULL},
    {"purchase_price_date", F_DATE, G(purchase_price_date), false, 0, NULL},
    {"aliases", F_ALIASES, G(aliases), false, 0, NULL},
};

#define GPU_FIELD_COUNT (sizeof(gpu_fields) / sizeof(gpu_fields[0]))

const char *const codec_gpu_columns[] = {
    "id", "name", "vendor", "architecture", "form_factor", "memory_type", "memory_bytes",
    "memory_source", "usable_memory_bytes", "usable_memory_source", "memory_bandwidth_gb_s",
    "bf16_tflops", "fp16_tflops", "fp8_tflops", "tdp_watts", "spec_source", "interconnect",
    "interconnect_gb_s", "pcie_gen", "gpus_per_node", "interconnect_source", "price_per_hour",
    "price_source", "price_date", "purchase_price", "purchase_price_source", "purchase_price_date",
    "aliases", "unified_memory", "scale_out_gb_s", "scale_out_source", "sm_count",
    "sm_count_source", NULL};

/* Read-only members of a served entry that a client may send back. */
static const char *const gpu_read_only[] = {"etag", "revision", "created_at", "updated_at",
                                            "sources", NULL};
static const char *const model_read_only[] = {"etag",       "revision",   "created_at",
                                              "updated_at", "architecture", "family",
                                              "checkpoint", "provenance", "hub_revision",
                                              NULL};

bool codec_valid_id(const char *id)
{
    size_t n = strlen(id);
    if (n == 0 || n > 64 || !(islower((unsigned char)id[0]) || isdigit((unsigned char)id[0])))
        return false;
    for (size_t i = 0; i < n; i++) {
        const unsigned char c = (unsigned char)id[i];
        if (!(islower(c) || isdigit(c) || c == '.' || c == '-' || c == '_'))
            return false;
    }
    return true;
}

static bool valid_alias(const char *a)
{
    size_t n = strlen(a);
    if (n == 0 || n > 128 || !isalnum((unsigned char)a[0]))
        return false;
    for (size_t i = 0; i < n; i++) {
        const unsigned char c = (unsigned char)a[i];
        if (!(isalnum(c) || c == '.' || c == '-' || c == '_' || c == '/' || c == '+' || c == ':'))
            return false;
    }
    return true;
}

/* The number `n` digits at `s` spell (all checked to be digits). */
static int digits(const char *s, int n)
{
    int v = 0;
    for (int i = 0; i < n; i++)
        v = v * 10 + (s[i] - '0');
    return v;
}

bool codec_valid_date(const char *d)
{
    /* by position, not sscanf: "%2d" would take " 1" or "+1" for a month */
    if (d == NULL || strlen(d) != 10 || d[4] != '-' || d[7] != '-')
        return false;
    for (int i = 0; i < 10; i++) {
        if (i != 4 && i != 7 && !isdigit((unsigned char)d[i]))
            return false;
    }
    const int y = digits(d, 4), m = digits(d + 5, 2), day = digits(d + 8, 2);
    if (y < 1990 || y > 2200 || m < 1 || m > 12 || day < 1)
        return false;
    static const int days[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    const bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    return day <= (m == 2 && !leap ? 28 : days[m - 1]);
}

bool codec_read_date(const json_t *v, const char *where, const char **out, struct gs_error *err)
{
    *out = NULL;
    if (v == NULL || json_is_null(v))
        return true;
    if (!json_is_string(v) || !codec_valid_date(json_string_value(v))) {
        gs_error_add(err, GS_ERR_INVALID, where,
                     "must be a calendar date, YYYY-MM-DD, from 1990-01-01 to 2200-12-31");
        return false;
    }
    *out = json_string_value(v);
    return true;
}

/* Printable text without control characters, at most `max` bytes. */
bool codec_read_text(const json_t *v, const char *where, size_t max, bool required,
                     const char **out, struct gs_error *err)
{
    *out = NULL;
    if (v == NULL || json_is_null(v)) {
        if (required)
            gs_error_add(err, GS_ERR_INVALID, where, "is required");
        return !required;
    }
    if (!json_is_string(v)) {
        gs_error_add(err, GS_ERR_INVALID, where, "must be a string, got %s", jsonv_type_name(v));
        return false;
    }
    const char *s = json_string_value(v);
    const size_t n = json_string_length(v);
    if (n == 0 && required) {
        gs_error_add(err, GS_ERR_INVALID, where, "must not be empty");
        return false;
    }
    if (n > max) {
        gs_error_add(err, GS_ERR_INVALID, where, "is longer than %zu characters", max);
        return false;
    }
    for (size_t i = 0; i < n; i++) {
        if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f) {
            gs_error_add(err, GS_ERR_INVALID, where, "must not contain control characters");
            return false;
        }
    }
    *out = n > 0 ? s : NULL;
    return true;
}

static bool read_real(const json_t *v, const char *where, double max, bool integer,
                      struct catalog_real *out, struct gs_error *err)
{
    out->present = false;
    if (v == NULL || json_is_null(v))
        return true;
    if (!json_is_number(v)) {
        gs_error_add(err, GS_ERR_INVALID, where, "must be a number or null, got %s",
                     jsonv_type_name(v));
        return false;
    }
    const double x = json_number_value(v);
    if (!isfinite(x) || x <= 0 || x > max) {
        gs_error_add(err, GS_ERR_INVALID, where, "must be above 0 and at most %g", max);
        return false;
    }
    if (integer && x != floor(x)) {
        gs_error_add(err, GS_ERR_INVALID, where, "must be a whole number");
        return false;
    }
    out->present = true;
    out->value = x;
    return true;
}

/* Reads an alias array into a new char* array borrowing the strings. */
static bool read_aliases(const json_t *v, const char *id, char ***out, size_t *count,
                         struct gs_error *err)
{
    *out = NULL;
    *count = 0;
    if (v == NULL || json_is_null(v))
        return true;
    if (!json_is_array(v)) {
        gs_error_add(err, GS_ERR_INVALID, "/aliases", "must be an array of strings, got %s",
                     jsonv_type_name(v));
        return false;
    }
    const size_t n = json_array_size(v);
    if (n > ALIASES_MAX) {
        gs_error_add(err, GS_ERR_INVALID, "/aliases", "has more than %d aliases", ALIASES_MAX);
        return false;
    }
    char **list = calloc(n > 0 ? n : 1, sizeof(*list));
    if (list == NULL) {
        gs_error_add(err, GS_ERR_NOMEM, "/aliases", "out of memory");
        return false;
    }
    bool ok = true;
    for (size_t i = 0; i < n; i++) {
        char where[32];
        snprintf(where, sizeof(where), "/aliases/%zu", i);
        const json_t *a = json_array_get(v, i);
        const char *s = json_is_string(a) ? json_string_value(a) : NULL;
        if (s == NULL || !valid_alias(s)) {
            gs_error_add(err, GS_ERR_INVALID, where,
                         "must be 1-128 letters, digits and . - _ / + :, starting with a "
                         "letter or digit");
            ok = false;
            continue;
        }
        if (id != NULL && strcasecmp(s, id) == 0) {
            gs_error_add(err, GS_ERR_INVALID, where, "is the entry's own id");
            ok = false;
        }
        for (size_t j = 0; j < i; j++) {
            if (list[j] != NULL && strcasecmp(list[j], s) == 0) {
                gs_error_add(err, GS_ERR_INVALID, where, "repeats alias %zu", j);
                ok = false;
            }
        }
        list[i] = (char *)(uintptr_t)s;
    }
    if (!ok) {
        free(list);
        return false;
    }
    *out = list;
    *count = n;
    return true;
}

/* Checks the body's id against the path's and that it is a valid id. */
static bool check_id(const json_t *body, const char *id, struct gs_error *err)
{
    const json_t *given = json_object_get(body, "id");
    if (given != NULL && !json_is_null(given) &&
        (!json_is_string(given) || strcasecmp(json_string_value(given), id) != 0)) {
        gs_error_add(err, GS_ERR_INVALID, "/id", "must be \"%s\", the id in the path (or left out)",
                     id);
        return false;
    }
    if (!codec_valid_id(id)) {
        gs_error_add(err, GS_ERR_INVALID, "/id",
                     "\"%.80s\" is not a valid id: 1-64 lower-case letters, digits, '.', '-' or "
                     "'_', starting with a letter or digit",
                     id);
        return false;
    }
    return true;
}

static bool only_keys(const json_t *body, const char *const *writable,
                      const char *const *read_only, struct gs_error *err)
{
    const char *allowed[64];
    size_t n = 0;
    for (const char *const *k = writable; *k != NULL && n < 62; k++)
        allowed[n++] = *k;
    for (const char *const *k = read_only; *k != NULL && n < 63; k++)
        allowed[n++] = *k;
    allowed[n] = NULL;
    return jsonv_only_keys(body, "", allowed, err);
}

/* ------------------------------------------------------------------- GPUs */

void codec_gpu_row_free(struct codec_gpu_row *r)
{
    if (r == NULL)
        return;
    free(r->row.aliases);
    json_decref(r->doc);
    memset(r, 0, sizeof(*r));
}

static bool gpu_field(const json_t *body, const struct gpu_field *f, struct catalog_gpu *g,
                      struct gs_error *err)
{
    char where[64];
    jsonv_pointer(where, sizeof(where), "", f->name);
    const json_t *v = json_object_get(body, f->name);
    char *base = (char *)g;
    switch (f->kind) {
    case F_ID:
    case F_ALIASES:
        return true; /* handled by the caller */
    case F_TEXT:
    case F_SOURCE:
        return codec_read_text(v, where, f->kind == F_TEXT ? CODEC_TEXT_MAX : CODEC_SOURCE_MAX,
                               f->required, (const char **)(void *)(base + f->offset), err);
    case F_DATE:
        return codec_read_date(v, where, (const char **)(void *)(base + f->offset), err);
    case F_U64: {
        uint64_t *out = (uint64_t *)(void *)(base + f->offset);
        *out = 0;
        if (v == NULL || json_is_null(v)) {
            if (f->required)
                gs_error_add(err, GS_ERR_INVALID, where, "is required");
            return !f->required;
        }
        return jsonv_uint(v, where, 1, (uint64_t)f->max, out, err);
    }
    case F_REAL:
    case F_INT:
        return read_real(v, where, f->max, f->kind == F_INT,
                         (struct catalog_real *)(void *)(base + f->offset), err);
    case F_BOOL: {
        struct catalog_real *out = (struct catalog_real *)(void *)(base + f->offset);
        out->present = false;
        if (v == NULL || json_is_null(v))
            return true;
        bool b = false;
        if (!jsonv_bool(v, where, &b, err))
            return false;
        *out = (struct catalog_real){true, b ? 1 : 0};
        return true;
    }
    }
    return false;
}

static bool field_present(const struct gpu_field *f, const struct catalog_gpu *g)
{
    const char *base = (const char *)g;
    switch (f->kind) {
    case F_U64:
        return *(const uint64_t *)(const void *)(base + f->offset) != 0;
    case F_REAL:
    case F_INT:
    case F_BOOL:
        return ((const struct catalog_real *)(const void *)(base + f->offset))->present;
    default:
        return *(char *const *)(const void *)(base + f->offset) != NULL;
    }
}

static const struct gpu_field *find_gpu_field(const char *name)
{
    for (size_t i = 0; i < GPU_FIELD_COUNT; i++) {
        if (strcmp(gpu_fields[i].name, name) == 0)
            return &gpu_fields[i];
    }
    return NULL;
}

/* Every number needs the source field that cites it; a date needs its price. */
static bool gpu_sources(const struct catalog_gpu *g, struct gs_error *err)
{
    bool ok = true;
    for (size_t i = 0; i < GPU_FIELD_COUNT; i++) {
        const struct gpu_field *f = &gpu_fields[i];
        if (f->source == NULL || !field_present(f, g) ||
            field_present(find_gpu_field(f->source), g))
            continue;
        char where[64];
        jsonv_pointer(where, sizeof(where), "", f->source);
        gs_error_add(err, GS_ERR_INVALID, where, "is required when %s is given: every number in "
                                                 "the catalog cites its source",
                     f->name);
        ok = false;
    }
    if (g->usable_memory_bytes && g->memory_bytes &&
        !gs_gpu_usable_plausible(g->memory_bytes, g->usable_memory_bytes)) {
        gs_error_add(err, GS_ERR_INVALID, "/usable_memory_bytes",
                     "is %llu bytes, more than the marketed %llu read as binary units (x 2^30 / "
                     "10^9): no driver reports more than the board has; check the unit",
                     (unsigned long long)g->usable_memory_bytes,
                     (unsigned long long)g->memory_bytes);
        ok = false;
    }
    if (g->price_date != NULL && !g->price_per_hour.present) {
        gs_error_add(err, GS_ERR_INVALID, "/price_date", "is the date of price_per_hour, which is absent");
        ok = false;
    }
    if (g->purchase_price_date != NULL && !g->purchase_price.present) {
        gs_error_add(err, GS_ERR_INVALID, "/purchase_price_date",
                     "is the date of purchase_price, which is absent");
        ok = false;
    }
    return ok;
}

enum gs_status codec_decode_gpu_row(const json_t *body, const char *id, struct codec_gpu_row *out,
                                    struct gs_error *err)
{
    memset(out, 0, sizeof(*out));
    if (!json_is_object(body))
        return gs_error_add(err, GS_ERR_INVALID, "", "a GPU must be a JSON object, got %s",
                            jsonv_type_name(body));
    out->doc = json_incref((json_t *)(uintptr_t)body);
    bool ok = only_keys(body, codec_gpu_columns, gpu_read_only, err);
    ok = check_id(body, id, err) && ok;
    out->row.id = (char *)(uintptr_t)id;
    for (size_t i = 0; i < GPU_FIELD_COUNT; i++)
        ok = gpu_field(body, &gpu_fields[i], &out->row, err) && ok;
    ok = read_aliases(json_object_get(body, "aliases"), id, &out->row.aliases,
                      &out->row.alias_count, err) &&
         ok;
    if (ok)
        ok = gpu_sources(&out->row, err);
    if (!ok) {
        codec_gpu_row_free(out);
        return GS_ERR_INVALID;
    }
    return GS_OK;
}

/* Shortest decimal that reads back as the same double. */
static void format_real(char *buf, size_t n, double x)
{
    for (int digits = 6; digits <= 17; digits++) {
        snprintf(buf, n, "%.*g", digits, x);
        if (strtod(buf, NULL) == x)
            return;
    }
}

void codec_gpu_csv_header(struct buf *w)
{
    for (size_t i = 0; codec_gpu_columns[i] != NULL; i++)
        csv_write_field(w, codec_gpu_columns[i], codec_gpu_columns[i + 1] == NULL);
}

void codec_gpu_csv_row(struct buf *w, const struct catalog_gpu *g)
{
    const char *base = (const char *)g;
    char buf[64];
    for (size_t i = 0; codec_gpu_columns[i] != NULL; i++) {
        const struct gpu_field *f = find_gpu_field(codec_gpu_columns[i]);
        const bool last = codec_gpu_columns[i + 1] == NULL;
        const char *text = NULL;
        char *joined = NULL;
        switch (f->kind) {
        case F_U64: {
            const uint64_t v = *(const uint64_t *)(const void *)(base + f->offset);
            if (v) {
                snprintf(buf, sizeof(buf), "%llu", (unsigned long long)v);
                text = buf;
            }
            break;
        }
        case F_REAL:
        case F_INT:
        case F_BOOL: {
            const struct catalog_real *r = (const struct catalog_real *)(const void *)(base + f->offset);
            if (r->present) {
                if (f->kind == F_BOOL)
                    snprintf(buf, sizeof(buf), "%s", r->value != 0 ? "true" : "false");
                else if (f->kind == F_INT)
                    snprintf(buf, sizeof(buf), "%.0f", r->value);
                else
                    format_real(buf, sizeof(buf), r->value);
                text = buf;
            }
            break;
        }
        case F_ALIASES: {
            size_t len = 1;
            for (size_t a = 0; a < g->alias_count; a++)
                len += strlen(g->aliases[a]) + 1;
            joined = calloc(1, len);
            if (joined == NULL) {
                w->failed = true;
                return;
            }
            for (size_t a = 0; a < g->alias_count; a++) {
                if (a > 0)
                    strcat(joined, ";");
                strcat(joined, g->aliases[a]);
            }
            text = joined;
            break;
        }
        default:
            text = *(char *const *)(const void *)(base + f->offset);
            break;
        }
        /* numbers are never prefixed; text a spreadsheet would run is */
        if (f->kind == F_U64 || f->kind == F_REAL || f->kind == F_INT || f->kind == F_BOOL)
            csv_write_field(w, text, last);
        else
            csv_write_text(w, text, last);
        free(joined);
    }
}

/* Whether `s` is a number as JSON writes one (RFC 8259 section 6): an
 * optional '-', digits without a leading zero, an optional fraction and an
 * optional exponent. Nothing else: no '+', spaces, hex, inf or nan. */
static bool json_number_text(const char *s)
{
    if (*s == '-')
        s++;
    if (*s == '0')
        s++;
    else if (*s >= '1' && *s <= '9')
        while (isdigit((unsigned char)*s))
            s++;
    else
        return false;
    if (*s == '.') {
        if (!isdigit((unsigned char)*++s))
            return false;
        while (isdigit((unsigned char)*s))
            s++;
    }
    if (*s == 'e' || *s == 'E') {
        s++;
        if (*s == '+' || *s == '-')
            s++;
        if (!isdigit((unsigned char)*s))
            return false;
        while (isdigit((unsigned char)*s))
            s++;
    }
    return *s == '\0';
}

/* A numeric cell as the JSON number a body would carry (an integer, or a
 * real when it has a fraction or an exponent), for the field's own checks. */
static json_t *cell_number(const char *cell, const char *where, struct gs_error *err)
{
    if (!json_number_text(cell)) {
        gs_error_add(err, GS_ERR_INVALID, where,
                     "\"%.40s\" is not a number as JSON writes one (digits with an optional "
                     "'-', fraction and exponent; no '+', spaces, hex, inf or nan)",
                     cell);
        return NULL;
    }
    json_error_t jerr;
    json_t *v = json_loads(cell, JSON_DECODE_ANY, &jerr);
    if (v == NULL)
        gs_error_add(err, GS_ERR_INVALID, where, "\"%.40s\" is out of range", cell);
    return v;
}

/* An aliases cell: the ';'-separated names, spaces around each trimmed. */
static json_t *cell_aliases(const char *cell)
{
    json_t *list = json_array();
    const char *p = cell;
    while (list != NULL) {
        const char *end = strchr(p, ';');
        size_t n = end != NULL ? (size_t)(end - p) : strlen(p);
        while (n > 0 && *p == ' ') {
            p++;
            n--;
        }
        while (n > 0 && p[n - 1] == ' ')
            n--;
        if (n > 0 && json_array_append_new(list, json_stringn(p, n)) != 0) {
            json_decref(list);
            return NULL;
        }
        if (end == NULL)
            break;
        p = end + 1;
    }
    return list;
}

/* A CSV cell as JSON: numbers for numeric columns, null when empty, text
 * without the quote that neutralised a formula on export. */
static json_t *cell_value(const struct gpu_field *f, const char *cell, const char *where,
                          struct gs_error *err)
{
    if (cell[0] == '\0')
        return json_null();
    switch (f->kind) {
    case F_U64:
    case F_REAL:
    case F_INT:
        return cell_number(cell, where, err);
    case F_BOOL:
        if (strcmp(cell, "true") == 0 || strcmp(cell, "false") == 0)
            return json_boolean(strcmp(cell, "true") == 0);
        gs_error_add(err, GS_ERR_INVALID, where, "\"%.40s\" is not true or false", cell);
        return NULL;
    default:
        break;
    }
    if (!json_utf8_valid(cell)) {
        gs_error_add(err, GS_ERR_INVALID, where, "is not valid UTF-8");
        return NULL;
    }
    const char *text = csv_text_value(cell);
    json_t *v = f->kind == F_ALIASES ? cell_aliases(text) : json_string(text);
    if (v == NULL)
        gs_error_add(err, GS_ERR_NOMEM, where, "out of memory");
    return v;
}

/* The column of `t` named by header cell `c`, or NULL with an error. */
static const struct gpu_field *csv_column(const struct csv_table *t, size_t c, const json_t *seen,
                                          const char *where, struct gs_error *err)
{
    const char *column = t->cells[c];
    if (csv_cell_has_nul(t, c)) {
        gs_error_add(err, GS_ERR_INVALID, "",
                     "column %zu of the header holds a NUL byte, which a CSV cell may not", c + 1);
        return NULL;
    }
    const struct gpu_field *f = find_gpu_field(column);
    if (f == NULL) {
        gs_error_add(err, GS_ERR_INVALID, where,
                     "unknown column \"%.40s\"; the columns are those of GET "
                     "/v1/gpus?format=csv",
                     column);
        return NULL;
    }
    if (json_object_get(seen, column) != NULL) {
        gs_error_add(err, GS_ERR_INVALID, where, "column \"%.40s\" appears twice", column);
        return NULL;
    }
    return f;
}

json_t *codec_gpu_csv_record(const struct csv_table *t, size_t row, struct gs_error *err)
{
    json_t *obj = json_object();
    bool ok = obj != NULL;
    for (size_t c = 0; ok && c < t->columns; c++) {
        char where[64];
        jsonv_pointer(where, sizeof(where), "", t->cells[c]);
        const struct gpu_field *f = csv_column(t, c, obj, where, err);
        const size_t cell = row * t->columns + c;
        if (f != NULL && csv_cell_has_nul(t, cell)) {
            gs_error_add(err, GS_ERR_INVALID, where,
                         "holds a NUL byte (column %zu), which a CSV cell may not", c + 1);
            f = NULL;
        }
        json_t *v = f != NULL ? cell_value(f, t->cells[cell], where, err) : NULL;
        ok = v != NULL && json_object_set_new(obj, t->cells[c], v) == 0;
    }
    if (!ok) {
        json_decref(obj);
        return NULL;
    }
    return obj;
}

/* ----------------------------------------------------------------- models */

static const char *const model_writable[] = {"id",
                                             "name",
                                             "hf_id",
                                             "publisher",
                                             "parameters",
                                             "parameters_basis",
                                             "parameters_source",
                                             "config",
                                             "config_source",
                                             "aliases",
                                             NULL};

void codec_model_row_free(struct codec_model_row *r)
{
    if (r == NULL)
        return;
    free(r->row.aliases);
    free(r->config_json);
    json_decref(r->doc);
    memset(r, 0, sizeof(*r));
}

static bool valid_hf_id(const char *s)
{
    const char *slash = strchr(s, '/');
    if (slash == NULL || slash == s || slash[1] == '\0' || strchr(slash + 1, '/') != NULL)
        return false;
    for (const char *p = s; *p; p++) {
        const unsigned char c = (unsigned char)*p;
        if (!(isalnum(c) || c == '.' || c == '-' || c == '_' || c == '/'))
            return false;
    }
    return strlen(s) <= 200;
}

/* The config: readable by gpusizer, its exact parameter count and family. */
static bool model_config(const json_t *config, struct codec_model_row *out, uint64_t *count,
                         struct gs_error *err)
{
    if (config == NULL || json_is_null(config)) {
        gs_error_add(err, GS_ERR_INVALID, "/config",
                     "is required: the model's Hugging Face config.json (its architecture fields)");
        return false;
    }
    if (!json_is_object(config)) {
        gs_error_add(err, GS_ERR_INVALID, "/config", "must be an object, got %s",
                     jsonv_type_name(config));
        return false;
    }
    struct gs_arch arch;
    struct gs_param_count params;
    if (models_read(config, "/config", &arch, err) != GS_OK)
        return false;
    /* the catalog keeps exact counts: a config only the generic reader reads is for estimates */
    if (arch.approximate[0] != '\0') {
        gs_error_add(err, GS_ERR_INVALID, "/config/model_type",
                     "model_type \"%s\" has no reader in gpusizer and the catalog keeps only "
                     "exact counts: estimate it with {\"model\": {\"config\": ...}} (read "
                     "approximately) or import its hub repository; supported: %s",
                     arch.model_type, models_supported());
        return false;
    }
    size_t first = err != NULL ? err->count : 0;
    if (gs_arch_count_params(&arch, &params, err) != GS_OK) {
        if (err != NULL)
            gs_error_prefix(err, first, "/config");
        return false;
    }
    *count = params.total;
    snprintf(out->family, sizeof(out->family), "%s", arch.model_type);
    out->row.family = out->family;
    out->config_json = json_dumps(config, JSON_COMPACT | JSON_PRESERVE_ORDER);
    if (out->config_json == NULL) {
        gs_error_add(err, GS_ERR_NOMEM, "/config", "out of memory");
        return false;
    }
    out->row.config_json = out->config_json;
    return true;
}

static bool model_parameters(const json_t *body, uint64_t count, struct codec_model_row *out,
                             struct gs_error *err)
{
    const json_t *given = json_object_get(body, "parameters");
    const json_t *basis = json_object_get(body, "parameters_basis");
    static const char *const bases[] = {"published", "derived", NULL};
    int b = -1;
    bool ok = true;
    if (basis != NULL && !json_is_null(basis) &&
        !jsonv_enum(basis, "/parameters_basis", bases, &b, err))
        ok = false;
    if (given != NULL && !json_is_null(given)) {
        uint64_t n = 0;
        if (!jsonv_uint(given, "/parameters", 1, GS_PARAMETERS_MAX, &n, err)) {
            ok = false;
        } else if (n != count) {
            gs_error_add(err, GS_ERR_INVALID, "/parameters",
                         "is %llu but the config gives exactly %llu parameters; the catalog keeps "
                         "counts its configs reproduce (send the count transformers' "
                         "model.parameters() returns, or leave it out)",
                         (unsigned long long)n, (unsigned long long)count);
            ok = false;
        }
        if (b < 0)
            b = 0;
    } else if (b == 0) {
        gs_error_add(err, GS_ERR_INVALID, "/parameters", "is required when parameters_basis is published");
        ok = false;
    }
    if (b < 0)
        b = 1;
    out->row.parameters = count;
    out->row.parameters_basis = (char *)(uintptr_t)bases[b];
    const char *source = NULL;
    if (!codec_read_text(json_object_get(body, "parameters_source"), "/parameters_source",
                         CODEC_SOURCE_MAX, b == 0, &source, err))
        ok = false;
    out->row.parameters_source =
        (char *)(uintptr_t)(source != NULL ? source
                                           : "derived: the exact count of the stored config "
                                             "(gpusizer's formula for its model_type)");
    return ok;
}

enum gs_status codec_decode_model_row(const json_t *body, const char *id,
                                      struct codec_model_row *out, struct gs_error *err)
{
    memset(out, 0, sizeof(*out));
    if (!json_is_object(body))
        return gs_error_add(err, GS_ERR_INVALID, "", "a model must be a JSON object, got %s",
                            jsonv_type_name(body));
    out->doc = json_incref((json_t *)(uintptr_t)body);
    bool ok = only_keys(body, model_writable, model_read_only, err);
    ok = check_id(body, id, err) && ok;
    out->row.id = (char *)(uintptr_t)id;
    const char *text = NULL;
    ok =
        codec_read_text(json_object_get(body, "name"), "/name", CODEC_TEXT_MAX, true, &text, err) &&
        ok;
    out->row.name = (char *)(uintptr_t)text;
    ok = codec_read_text(json_object_get(body, "publisher"), "/publisher", CODEC_TEXT_MAX, false,
                         &text, err) &&
         ok;
    out->row.publisher = (char *)(uintptr_t)text;
    if (codec_read_text(json_object_get(body, "hf_id"), "/hf_id", CODEC_TEXT_MAX, false, &text,
                        err)) {
        if (text != NULL && !valid_hf_id(text)) {
            gs_error_add(err, GS_ERR_INVALID, "/hf_id",
                         "must be a Hugging Face repository id, owner/name");
            ok = false;
        }
        out->row.hf_id = (char *)(uintptr_t)text;
    } else {
        ok = false;
    }
    ok = codec_read_text(json_object_get(body, "config_source"), "/config_source", CODEC_SOURCE_MAX,
                         true, &text, err) &&
         ok;
    out->row.config_source = (char *)(uintptr_t)text;
    uint64_t count = 0;
    if (model_config(json_object_get(body, "config"), out, &count, err))
        ok = model_parameters(body, count, out, err) && ok;
    else
        ok = false;
    ok = read_aliases(json_object_get(body, "aliases"), id, &out->row.aliases,
                      &out->row.alias_count, err) &&
         ok;
    if (!ok) {
        codec_model_row_free(out);
        return GS_ERR_INVALID;
    }
    return GS_OK;
}

/* ------------------------------------------------------------ merge patch */

json_t *codec_merge_patch(const json_t *target, const json_t *patch, struct gs_error *err)
{
    if (!json_is_object(patch)) {
        gs_error_add(err, GS_ERR_INVALID, "",
                     "a merge patch (RFC 7396) must be a JSON object, got %s",
                     jsonv_type_name(patch));
        return NULL;
    }
    json_t *result = json_is_object(target) ? json_deep_copy(target) : json_object();
    if (result == NULL)
        return NULL;
    const char *key;
    json_t *value;
    json_object_foreach((json_t *)(uintptr_t)patch, key, value)
    {
        if (json_is_null(value)) {
            json_object_del(result, key);
            continue;
        }
        json_t *merged = json_is_object(value)
                             ? codec_merge_patch(json_object_get(result, key), value, err)
                             : json_deep_copy(value);
        if (merged == NULL || json_object_set_new(result, key, merged) != 0) {
            json_decref(result);
            return NULL;
        }
    }
    return result;
}

/* ----------------------------------------------------------------- encode */

static json_t *gpu_field_json(const struct gpu_field *f, const struct catalog_gpu *g)
{
    const char *base = (const char *)g;
    switch (f->kind) {
    case F_U64: {
        const uint64_t v = *(const uint64_t *)(const void *)(base + f->offset);
        return v ? json_build_u64(v) : json_null();
    }
    case F_REAL:
    case F_INT: {
        const struct catalog_real *r = (const struct catalog_real *)(const void *)(base + f->offset);
        if (!r->present)
            return json_null();
        return f->kind == F_INT ? json_integer((json_int_t)r->value) : json_real(r->value);
    }
    case F_BOOL: {
        const struct catalog_real *r = (const struct catalog_real *)(const void *)(base + f->offset);
        return r->present ? json_boolean(r->value != 0) : json_null();
    }
    case F_ALIASES: {
        json_t *list = json_array();
        for (size_t i = 0; list != NULL && i < g->alias_count; i++) {
            if (json_array_append_new(list, json_string(g->aliases[i])) != 0) {
                json_decref(list);
                return NULL;
            }
        }
        return list;
    }
    default: {
        const char *text = *(char *const *)(const void *)(base + f->offset);
        return text != NULL ? json_string(text) : json_null();
    }
    }
}

/* field -> its source, for every number the GPU has (a per-field view of the
 * *_source columns). */
static json_t *gpu_sources_map(const struct catalog_gpu *g)
{
    json_t *map = json_object();
    for (size_t i = 0; map != NULL && i < GPU_FIELD_COUNT; i++) {
        const struct gpu_field *f = &gpu_fields[i];
        if (f->source == NULL || !field_present(f, g))
            continue;
        const struct gpu_field *src = find_gpu_field(f->source);
        const char *text = *(char *const *)(const void *)((const char *)g + src->offset);
        if (text != NULL && json_object_set_new(map, f->name, json_string(text)) != 0) {
            json_decref(map);
            return NULL;
        }
    }
    return map;
}

json_t *codec_encode_gpu(const struct catalog_gpu *g)
{
    json_t *item = json_object();
    bool ok = item != NULL;
    for (size_t i = 0; ok && i < GPU_FIELD_COUNT; i++) {
        json_t *v = gpu_field_json(&gpu_fields[i], g);
        ok = v != NULL && json_object_set_new(item, gpu_fields[i].name, v) == 0;
    }
    if (ok) {
        json_t *sources = gpu_sources_map(g);
        ok = sources != NULL && json_object_set_new(item, "sources", sources) == 0;
    }
    ok = ok && json_object_set_new(item, "etag", json_string(g->etag)) == 0 &&
         json_object_set_new(item, "revision", json_build_u64(g->revision)) == 0 &&
         json_object_set_new(item, "created_at", json_string(g->created_at ? g->created_at : "")) == 0 &&
         json_object_set_new(item, "updated_at", json_string(g->updated_at ? g->updated_at : "")) == 0;
    if (!ok) {
        json_decref(item);
        return NULL;
    }
    return item;
}
