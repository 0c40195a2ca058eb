/*
 * jsonv.h - validating decoded JSON against what an endpoint accepts, with
 * JSON Pointers (RFC 6901) to every offending field.
 *
 * Every function here borrows its json_t arguments and reports problems by
 * appending to a struct gs_error; none of them allocates.
 */
#ifndef GS_JSONV_H
#define GS_JSONV_H

#include "gs/status.h"

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define JSONV_POINTER_MAX GS_ERROR_POINTER_MAX

/* Writes `base` + "/" + escaped `key` into `out` (~ -> ~0, / -> ~1). */
void jsonv_pointer(char *out, size_t cap, const char *base, const char *key);

/* The JSON type name of a value ("object", "string", "integer"...), for messages. */
const char *jsonv_type_name(const json_t *value);

/* Rejects every member of `object` not listed in `allowed` (NULL-terminated),
 * suggesting the closest allowed name. false when any was rejected. */
bool jsonv_only_keys(const json_t *object, const char *pointer, const char *const *allowed,
                     struct gs_error *err);

/* Reads a whole number in [min, max] (an integral JSON real such as 7e9 is
 * accepted). false with an error when absent-but-required, of the wrong
 * type, fractional or out of range. */
bool jsonv_uint(const json_t *value, const char *pointer, uint64_t min, uint64_t max,
                uint64_t *out, struct gs_error *err);

/* Reads a string member of one of `choices` (NULL-terminated) and returns its
 * index through *out; suggests the closest choice when not one. */
bool jsonv_enum(const json_t *value, const char *pointer, const char *const *choices, int *out,
                struct gs_error *err);

/* Reads a finite number in (above, max]. */
bool jsonv_number(const json_t *value, const char *pointer, double above, double max, double *out,
                  struct gs_error *err);

/* Reads a boolean. */
bool jsonv_bool(const json_t *value, const char *pointer, bool *out, struct gs_error *err);

/* Fills `names` (room for count - first + 1 pointers) with name_fn(first) ... name_fn(count - 1)
 * and a NULL: the choices jsonv_enum offers, taken from the one table that names the enum (the
 * core's name function), so the API and the core cannot disagree on a name. Choice i is the
 * enum value first + i. */
#define JSONV_ENUM_NAMES(names, first, count, name_fn, type)                                     \
    do {                                                                                         \
        for (int jsonv_i_ = (first); jsonv_i_ < (count); jsonv_i_++)                             \
            (names)[jsonv_i_ - (first)] = name_fn((type)jsonv_i_);                               \
        (names)[(count) - (first)] = NULL;                                                       \
    } while (0)

#endif
