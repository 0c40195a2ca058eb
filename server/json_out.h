/*
 * json_out.h - JSON text of a jansson value, byte for byte what
 * json_dumps(value, CODEC_DUMP_FLAGS) writes (compact, reals to 15
 * significant digits, keys in insertion order), in a fraction of the time.
 *
 * Profiles of POST /v1/estimate put 59% of the server's instructions in
 * json_dumps (a UTF-8 decode per character and a callback per fragment);
 * this writer copies runs of plain bytes and formats integers without
 * printf. Strings are assumed valid UTF-8, as jansson's own constructors
 * ensure; reals are written exactly as jansson's "%.15g" would (integer
 * arithmetic, json_out_real) where that is fixed notation, through jansson
 * itself elsewhere.
 */
#ifndef GS_JSON_OUT_H
#define GS_JSON_OUT_H

#include <jansson.h>
#include <stddef.h>

/* A new NUL-terminated text (the caller frees) and its length; NULL when out
 * of memory, for a value that is not an object or array (as json_dumps), and
 * when nested 2048 deep (jansson from 2.14.1 on refuses those too; 2.14
 * recurses until the stack ends). */
char *json_out_dumps(const json_t *value, size_t *length);

/* The bytes json_dumps writes for json_real(v) under JSON_REAL_PRECISION(15), for 1e-4 <=
 * |v| < 1e15 (not NUL-terminated); 0 outside that range, or for a value "%.15g" rounds up
 * to 1e15 - json_out_dumps then asks jansson. */
#define JSON_OUT_REAL_MAX 40
size_t json_out_real(double v, char out[JSON_OUT_REAL_MAX]);

#endif
