/*
 * reader.c - the config-reading toolkit every reader uses (see reader.h): members read
 * the way transformers' configuration classes read them, errors at their JSON pointers.
 */
#include "readers/reader.h"

#include "gs/units.h"

#include "formats/jsonv.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

const json_t *rd_get(const struct model_reader *r, const char *name)
{
    const json_t *v = json_object_get(r->config, name);
    return v != NULL && !json_is_null(v) ? v : NULL;
}

bool rd_softcap(const struct model_reader *r, const char *name, bool absent)
{
    const json_t *v = json_object_get(r->config, name);
    if (v == NULL)
        return absent;
    return json_is_number(v) && json_number_value(v) > 0;
}

static void where(const struct model_reader *r, const char *name, char *out, size_t cap)
{
    if (name == NULL || name[0] == '\0')
        snprintf(out, cap, "%s", r->pointer);
    else
        jsonv_pointer(out, cap, r->pointer, name);
}

void rd_fail(struct model_reader *r, const char *name, enum gs_status status, const char *fmt, ...)
{
    char at[READER_POINTER_MAX];
    char detail[GS_ERROR_DETAIL_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(detail, sizeof(detail), fmt, ap);
    va_end(ap);
    where(r, name, at, sizeof(at));
    gs_error_add(r->err, status, at, "%s", detail);
    r->ok = false;
}

/* The first of `names` present and not null, an integer in min..GS_ARCH_DIM_MAX (an error at
 * its pointer otherwise); `fallback` when none is (an error when `required`). */
static uint64_t read_dim(struct model_reader *r, const char *const *names, uint64_t min,
                         bool required, uint64_t fallback)
{
    for (const char *const *n = names; *n != NULL; n++) {
        const json_t *v = rd_get(r, *n);
        if (v == NULL)
            continue;
        char at[READER_POINTER_MAX];
        uint64_t out = 0;
        where(r, *n, at, sizeof(at));
        if (!jsonv_uint(v, at, min, GS_ARCH_DIM_MAX, &out, r->err)) {
            r->ok = false;
            return fallback;
        }
        return out;
    }
    if (required)
        rd_fail(r, names[0], GS_ERR_INVALID, "is required for this model_type");
    return fallback;
}

uint64_t rd_dim(struct model_reader *r, const char *const *names, bool required, uint64_t fallback)
{
    return read_dim(r, names, required ? 1 : 0, required, fallback);
}

uint64_t rd_size(struct model_reader *r, const char *const *names, uint64_t fallback)
{
    return read_dim(r, names, 1, false, fallback);
}

bool rd_flag(struct model_reader *r, const char *name, bool fallback)
{
    const json_t *v = rd_get(r, name);
    if (v == NULL)
        return fallback;
    char at[READER_POINTER_MAX];
    bool out = fallback;
    where(r, name, at, sizeof(at));
    if (!jsonv_bool(v, at, &out, r->err))
        r->ok = false;
    return out;
}

double rd_number(struct model_reader *r, const char *name, double fallback)
{
    const json_t *v = rd_get(r, name);
    if (v == NULL)
        return fallback;
    if (!json_is_number(v)) {
        rd_fail(r, name, GS_ERR_INVALID, "must be a number, got %s", jsonv_type_name(v));
        return fallback;
    }
    return json_number_value(v);
}

const char *rd_string(const struct model_reader *r, const char *name)
{
    const json_t *v = rd_get(r, name);
    return json_is_string(v) ? json_string_value(v) : NULL;
}

uint8_t rd_dtype_bytes(const char *dtype)
{
    if (dtype == NULL)
        return 0;
    if (strcmp(dtype, "float32") == 0)
        return 4;
    return strcmp(dtype, "bfloat16") == 0 || strcmp(dtype, "float16") == 0 ? 2 : 0;
}

bool rd_dropout(const struct model_reader *r, const char *const *names)
{
    for (const char *const *n = names; *n != NULL; n++) {
        const json_t *v = rd_get(r, *n);
        if (json_is_number(v) && json_number_value(v) > 0)
            return true;
    }
    return false;
}

bool rd_dropout_or(const struct model_reader *r, const char *const *names, bool absent)
{
    for (const char *const *n = names; *n != NULL; n++)
        if (rd_get(r, *n) != NULL)
            return rd_dropout(r, names);
    return absent;
}

bool rd_sub(struct model_reader *r, const char *name, struct model_reader *sub)
{
    const json_t *v = rd_get(r, name);
    if (v == NULL)
        return false;
    if (!json_is_object(v)) {
        rd_fail(r, name, GS_ERR_INVALID, "must be an object, got %s", jsonv_type_name(v));
        return false;
    }
    sub->config = v;
    where(r, name, sub->pointer, sizeof(sub->pointer));
    sub->err = r->err;
    sub->ok = true;
    return true;
}

size_t rd_array(struct model_reader *r, const char *name, const json_t **out)
{
    const json_t *v = rd_get(r, name);
    *out = NULL;
    if (v == NULL)
        return 0;
    if (!json_is_array(v)) {
        rd_fail(r, name, GS_ERR_INVALID, "must be an array, got %s", jsonv_type_name(v));
        return 0;
    }
    *out = v;
    return json_array_size(v);
}

bool rd_kind_list(struct model_reader *r, const char *name, const char *match, const char *other,
                  uint64_t layers, bool out[GS_LAYERS_MAX])
{
    const json_t *list = NULL;
    const size_t n = rd_array(r, name, &list);
    if (list == NULL || !r->ok)
        return false;
    if (n != layers) {
        rd_fail(r, name, GS_ERR_INVALID, "has %zu entries for %llu layers", n,
                (unsigned long long)layers);
        return false;
    }
    for (size_t l = 0; l < n && l < GS_LAYERS_MAX; l++) {
        const char *kind = json_string_value(json_array_get(list, l));
        if (kind == NULL || (strcmp(kind, match) != 0 && strcmp(kind, other) != 0)) {
            rd_fail(r, name, GS_ERR_INVALID, "entry %zu must be \"%s\" or \"%s\"", l, match, other);
            return false;
        }
        out[l] = strcmp(kind, match) == 0;
    }
    return true;
}

static const char *first_architecture(const json_t *config)
{
    const json_t *list = json_object_get(config, "architectures");
    const json_t *first = json_is_array(list) ? json_array_get(list, 0) : NULL;
    return json_is_string(first) ? json_string_value(first) : NULL;
}

uint64_t rd_labels(const struct model_reader *r)
{
    const json_t *n = rd_get(r, "num_labels");
    if (json_is_integer(n) && json_integer_value(n) > 0 && json_integer_value(n) < (1 << 24))
        return (uint64_t)json_integer_value(n);
    const json_t *labels = rd_get(r, "id2label");
    const size_t size = json_is_object(labels) ? json_object_size(labels) : 0;
    return size > 0 ? size : 2;
}

const char *rd_architecture(const struct model_reader *r)
{
    return first_architecture(r->config);
}

uint64_t rd_member_u64(const json_t *o, const char *name, uint64_t fallback)
{
    const json_t *v = json_object_get(o, name);
    return json_is_integer(v) && json_integer_value(v) > 0 ? (uint64_t)json_integer_value(v)
                                                           : fallback;
}

struct gs_mm_item rd_qwen_vl_item(uint64_t max_pixels, uint64_t channels, uint64_t temporal,
                                  uint64_t patch, uint64_t merge)
{
    struct gs_mm_item item = {.layout = GS_MM_PER_IMAGE};
    bool ovf = false;
    const uint64_t unit = gs_mul(patch, merge, &ovf);
    const uint64_t area = gs_mul(unit, unit, &ovf);
    const uint64_t values =
        gs_mul(gs_mul(channels, temporal, &ovf), gs_mul(patch, patch, &ovf), &ovf);
    if (ovf || area == 0 || area > max_pixels)
        return item;
    item.tokens = max_pixels / area;
    item.patches = gs_mul(item.tokens, gs_mul(merge, merge, &ovf), &ovf);
    item.pixels = gs_mul(item.patches, values, &ovf);
    if (ovf)
        item = (struct gs_mm_item){.layout = GS_MM_PER_IMAGE};
    return item;
}
