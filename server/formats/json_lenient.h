/*
 * json_lenient.h - loading JSON that may carry the non-standard literals
 * NaN, Infinity and -Infinity.
 *
 * Python's json module writes them, and some published config.json files
 * contain them (Mamba's time_step_limit [0.0, Infinity]); users paste such
 * configs into requests as they are. Outside strings each such literal is
 * read as null, which config readers treat as "not given". Standard JSON
 * parses exactly as json_loadb does; the rewrite runs only after a first
 * parse fails.
 */
#ifndef GS_JSON_LENIENT_H
#define GS_JSON_LENIENT_H

#include <jansson.h>
#include <stddef.h>

/* As json_loadb(text, length, flags, error): a new reference or NULL. */
json_t *json_load_lenient(const char *text, size_t length, size_t flags, json_error_t *error);

#endif
