/* jsonv.c - JSON validation helpers (see jsonv.h). */
#include "formats/jsonv.h"

#include "gs/text.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

void jsonv_pointer(char *out, size_t cap, const char *base, const char *key)
{
    size_t n = (size_t)snprintf(out, cap, "%s/", base);
    for (const char *k = key; *k != '\0' && n < cap; k++) {
        bool escape = *k == '~' || *k == '/';
        if (n + (escape ? 2 : 1) >= cap)
            break;
        if (escape) {
            out[n++] = '~';
            out[n++] = *k == '~' ? '0' : '1';
        } else {
            out[n++] = *k;
        }
    }
    if (n >= cap)
        n = cap - 1;
    out[n] = '\0';
}

const char *jsonv_type_name(const json_t *value)
{
    switch (json_typeof(value)) {
    case JSON_OBJECT:
        return "an object";
    case JSON_ARRAY:
        return "an array";
    case JSON_STRING:
        return "a string";
    case JSON_INTEGER:
        return "an integer";
    case JSON_REAL:
        return "a number";
    case JSON_TRUE:
    case JSON_FALSE:
        return "a boolean";
    case JSON_NULL:
        return "null";
    }
    return "unknown";
}

static const char *closest(const char *typed, const char *const *choices)
{
    const char *best = NULL;
    size_t best_d = (size_t)-1;
    for (const char *const *c = choices; *c != NULL; c++) {
        size_t d = 0;
        if (gs_text_is_close(typed, *c, &d) && d < best_d) {
            best = *c;
            best_d = d;
        }
    }
    return best;
}

static bool listed(const char *key, const char *const *allowed)
{
    for (const char *const *a = allowed; *a != NULL; a++) {
        if (strcmp(key, *a) == 0)
            return true;
    }
    return false;
}

/* "a, b, c" into buf. */
static void join_choices(char *buf, size_t cap, const char *const *choices)
{
    size_t n = 0;
    buf[0] = '\0';
    for (const char *const *c = choices; *c != NULL && n < cap; c++)
        n += (size_t)snprintf(buf + n, cap - n, "%s%s", c == choices ? "" : ", ", *c);
}

bool jsonv_only_keys(const json_t *object, const char *pointer, const char *const *allowed,
                     struct gs_error *err)
{
    bool ok = true;
    const char *key;
    json_t *value;
    char where[JSONV_POINTER_MAX];
    /* jansson's iteration API is not const-correct; it does not modify */
    json_t *iterable = (json_t *)(uintptr_t)object;
    json_object_foreach(iterable, key, value) {
        (void)value;
        if (listed(key, allowed))
            continue;
        ok = false;
        if (err == NULL)
            return false; /* the caller only wants the verdict */
        if (err->count >= GS_ERROR_MAX) {
            /* the list is full: count the rest, and spend no edit distances on them (15k
             * unknown keys in one body must not cost 100 ms) */
            err->dropped++;
            continue;
        }
        jsonv_pointer(where, sizeof(where), pointer, key);
        /* a hint only for names a person could have mistyped */
        const char *hint = strlen(key) <= 64 ? closest(key, allowed) : NULL;
        if (hint != NULL) {
            gs_error_add(err, GS_ERR_INVALID, where, "unknown field \"%s\"; did you mean \"%s\"?",
                         key, hint);
        } else {
            char names[200];
            join_choices(names, sizeof(names), allowed);
            gs_error_add(err, GS_ERR_INVALID, where, "unknown field \"%s\"; allowed here: %s", key,
                         names);
        }
    }
    return ok;
}

bool jsonv_uint(const json_t *value, const char *pointer, uint64_t min, uint64_t max,
                uint64_t *out, struct gs_error *err)
{
    if (value == NULL) {
        gs_error_add(err, GS_ERR_INVALID, pointer, "is required");
        return false;
    }
    double real = 0;
    if (json_is_integer(value)) {
        json_int_t v = json_integer_value(value);
        if (v < 0 || (uint64_t)v < min) {
            gs_error_add(err, GS_ERR_INVALID, pointer, "must be at least %llu, got %lld",
                         (unsigned long long)min, (long long)v);
            return false;
        }
        if ((uint64_t)v > max) {
            gs_error_add(err, GS_ERR_RANGE, pointer, "must be at most %llu, got %lld",
                         (unsigned long long)max, (long long)v);
            return false;
        }
        *out = (uint64_t)v;
        return true;
    }
    if (!json_is_real(value)) {
        gs_error_add(err, GS_ERR_INVALID, pointer, "must be an integer, got %s",
                     jsonv_type_name(value));
        return false;
    }
    real = json_real_value(value);
    if (real != floor(real)) {
        gs_error_add(err, GS_ERR_INVALID, pointer, "must be a whole number, got %g", real);
        return false;
    }
    if (real < (double)min) {
        gs_error_add(err, GS_ERR_INVALID, pointer, "must be at least %llu, got %g",
                     (unsigned long long)min, real);
        return false;
    }
    if (real > (double)max || real >= 9007199254740992.0) { /* 2^53: exact doubles end here */
        gs_error_add(err, GS_ERR_RANGE, pointer, "must be at most %llu, got %g",
                     (unsigned long long)max, real);
        return false;
    }
    *out = (uint64_t)real;
    return true;
}

bool jsonv_enum(const json_t *value, const char *pointer, const char *const *choices, int *out,
                struct gs_error *err)
{
    char names[240];
    join_choices(names, sizeof(names), choices);
    if (!json_is_string(value)) {
        gs_error_add(err, GS_ERR_INVALID, pointer, "must be a string, one of: %s; got %s", names,
                     value != NULL ? jsonv_type_name(value) : "nothing");
        return false;
    }
    const char *s = json_string_value(value);
    for (int i = 0; choices[i] != NULL; i++) {
        if (strcmp(s, choices[i]) == 0) {
            *out = i;
            return true;
        }
    }
    const char *hint = closest(s, choices);
    if (hint != NULL)
        gs_error_add(err, GS_ERR_INVALID, pointer, "\"%.60s\" is not one of: %s; did you mean \"%s\"?",
                     s, names, hint);
    else
        gs_error_add(err, GS_ERR_INVALID, pointer, "\"%.60s\" is not one of: %s", s, names);
    return false;
}

bool jsonv_bool(const json_t *value, const char *pointer, bool *out, struct gs_error *err)
{
    if (!json_is_boolean(value)) {
        gs_error_add(err, GS_ERR_INVALID, pointer, "must be true or false, got %s",
                     value != NULL ? jsonv_type_name(value) : "nothing");
        return false;
    }
    *out = json_is_true(value);
    return true;
}

bool jsonv_number(const json_t *value, const char *pointer, double above, double max, double *out,
                  struct gs_error *err)
{
    if (!json_is_number(value)) {
        gs_error_add(err, GS_ERR_INVALID, pointer, "must be a number, got %s",
                     jsonv_type_name(value));
        return false;
    }
    const double x = json_number_value(value);
    if (!isfinite(x) || x <= above || x > max) {
        gs_error_add(err, GS_ERR_INVALID, pointer, "must be above %g and at most %g", above, max);
        return false;
    }
    *out = x;
    return true;
}
