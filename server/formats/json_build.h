/*
 * json_build.h - building jansson answer trees without json_pack.
 *
 * json_pack parses its format string on every call and checks every key and
 * string value as UTF-8; an estimate's answer is ~200 members, so that was a
 * fifth of a POST /v1/estimate's instructions. These helpers take values
 * already built, set keys without the check (keys are always our own ASCII
 * literals), and check a string value only when it has a non-ASCII byte.
 */
#ifndef GS_JSON_BUILD_H
#define GS_JSON_BUILD_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

/* A JSON string of `s`: an ASCII string (almost everything an answer
 * carries) is taken as is, any other is checked by jansson. NULL when `s` is
 * NULL or not UTF-8, or out of memory. */
json_t *json_build_string(const char *s);

/* An object of the (key, value) pairs up to a NULL key. Takes every value,
 * also on failure; NULL when a value is NULL or out of memory. Keys must be
 * ASCII literals. */
json_t *json_build_object(const char *key, json_t *value, ...) __attribute__((sentinel));

/* object[key] = value, taking value; false when value is NULL or out of
 * memory. `key` must be an ASCII literal. */
bool json_build_put(json_t *object, const char *key, json_t *value);

/* Appends value, taking it; false when value is NULL or out of memory. */
bool json_build_append(json_t *array, json_t *value);

/* json_integer for byte counts and parameters; values above INT64_MAX
 * (never produced by the core's limits) saturate rather than wrap. */
json_t *json_build_u64(uint64_t value);

#endif
