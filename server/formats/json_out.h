/*
 * json_out.h - JSON text of a jansson value, byte for byte what
 * json_dumps(value, JSON_OUT_FLAGS) writes (compact, reals to 15
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
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* How response bodies are printed: compact, with reals at 15 significant
 * digits so a price of 2.49 reads "2.49", not jansson's 17-digit
 * 2.4900000000000002 (15 digits round-trip every decimal of up to 15). */
#define JSON_OUT_FLAGS (JSON_COMPACT | JSON_REAL_PRECISION(15))

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

/* Whether `s` is well-formed UTF-8 (no overlong forms, surrogates or code
 * points past U+10FFFF), as jansson requires of a string. */
bool json_utf8_valid(const char *s);

/* A JSON text written as it is produced, without a jansson tree: the same
 * bytes json_out_dumps writes for the tree the same calls would have built
 * (compact, keys in call order, integers and reals as jansson writes them).
 * Answers of hundreds of members (/v1/recommend) cost a fifth of what
 * building, dumping and freeing their tree did. Zero-initialize; a failed
 * allocation, a NULL string or value, a real that is not finite (json_real
 * refuses those), a string that is not UTF-8 or a misplaced call (a value in an
 * object without its key, a key in an array, the wrong container closed) marks the
 * writer failed, and json_w_finish then answers NULL. */
#define JSON_WRITER_DEPTH 32
struct json_writer {
    char *data; /* owned until json_w_finish */
    size_t length, capacity;
    bool failed;
    bool after_key;                          /* a key was written, its value is next */
    unsigned depth;                          /* open objects and arrays */
    bool has_member[JSON_WRITER_DEPTH];      /* per open container: a comma goes first */
    bool in_object[JSON_WRITER_DEPTH];       /* per open container: an object (keys) or array */
};

void json_w_begin_object(struct json_writer *w);
void json_w_end_object(struct json_writer *w);
void json_w_begin_array(struct json_writer *w);
void json_w_end_array(struct json_writer *w);
/* A key from data: NUL-terminated, escaped as any string. */
void json_w_key_text(struct json_writer *w, const char *key);
/* A key of `length` bytes that needs no escaping (no quote, backslash or control
 * character; debug builds check, failing the writer). Through json_w_key. */
void json_w_key_checked(struct json_writer *w, const char *key, size_t length);
/* json_w_key_checked, inline where the key goes in as it is: a literal's length is then
 * known where it is copied, a few moves instead of a memcpy call (an answer has hundreds of
 * keys). Debug builds take the checked path every time. */
static inline void json_w_key_n(struct json_writer *w, const char *key, size_t length)
{
#ifdef NDEBUG
    const unsigned top = w->depth - 1; /* read below only when depth > 0 */
    if (!w->failed && !w->after_key && w->depth > 0 && w->in_object[top] &&
        w->length + length + 5 <= w->capacity) { /* ,"key": and the NUL reserve keeps */
        char *at = w->data + w->length;
        if (w->has_member[top])
            *at++ = ',';
        w->has_member[top] = true;
        *at++ = '"';
        memcpy(at, key, length);
        at += length;
        *at++ = '"';
        *at++ = ':';
        w->length = (size_t)(at - w->data);
        w->after_key = true;
        return;
    }
#endif
    json_w_key_checked(w, key, length);
}
/* A key spelled as a string literal in the code - the answers' own schema, most of what an
 * answer writes: its length is known when compiling and it is not scanned (a non-literal
 * does not compile; use json_w_key_text). */
#define json_w_key(w, literal) json_w_key_n((w), "" literal "", sizeof(literal) - 1)
void json_w_string(struct json_writer *w, const char *s);
void json_w_int(struct json_writer *w, json_int_t v);
/* As json_build_u64: values above INT64_MAX are written as INT64_MAX. */
void json_w_u64(struct json_writer *w, uint64_t v);
void json_w_real(struct json_writer *w, double v);
void json_w_bool(struct json_writer *w, bool v);
void json_w_null(struct json_writer *w);
/* A jansson value as json_out_dumps writes it (borrowed; NULL fails). */
void json_w_value(struct json_writer *w, const json_t *v);
/* json_w_value, then json_decref(v): for a subtree built for the answer. */
void json_w_take(struct json_writer *w, json_t *v);
/* A member named by a string literal: json_w_key, then the value. */
#define json_w_member_int(w, literal, v)                                                           \
    do {                                                                                           \
        json_w_key(w, literal);                                                                    \
        json_w_int((w), (v));                                                                      \
    } while (0)
#define json_w_member_u64(w, literal, v)                                                           \
    do {                                                                                           \
        json_w_key(w, literal);                                                                    \
        json_w_u64((w), (v));                                                                      \
    } while (0)
#define json_w_member_real(w, literal, v)                                                          \
    do {                                                                                           \
        json_w_key(w, literal);                                                                    \
        json_w_real((w), (v));                                                                     \
    } while (0)
#define json_w_member_string(w, literal, v)                                                        \
    do {                                                                                           \
        json_w_key(w, literal);                                                                    \
        json_w_string((w), (v));                                                                   \
    } while (0)
#define json_w_member_bool(w, literal, v)                                                          \
    do {                                                                                           \
        json_w_key(w, literal);                                                                    \
        json_w_bool((w), (v));                                                                     \
    } while (0)
/* The NUL-terminated text (the caller frees) and its length; NULL when the
 * writer failed or a container is open. Either way the writer is reset. */
char *json_w_finish(struct json_writer *w, size_t *length);
/* Frees what was written. */
void json_w_discard(struct json_writer *w);

#endif
