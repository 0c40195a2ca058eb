/* json_out.c - a fast writer for jansson values (see json_out.h). */
#include "formats/json_out.h"


#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* jansson refuses to dump values nested this deep */
#define MAX_DEPTH 2048 /* jansson >= 2.14.1: JSON_PARSER_MAX_DEPTH, checked as depth >= it */

static bool reserve(struct json_writer *o, size_t n)
{
    if (o->failed)
        return false;
    if (o->length + n + 1 <= o->capacity)
        return true;
    size_t next = o->capacity ? o->capacity : 8192;
    while (next < o->length + n + 1)
        next *= 2;
    char *grown = realloc(o->data, next);
    if (grown == NULL) {
        o->failed = true;
        return false;
    }
    o->data = grown;
    o->capacity = next;
    return true;
}

static void put(struct json_writer *o, const char *bytes, size_t n)
{
    if (reserve(o, n)) {
        memcpy(o->data + o->length, bytes, n);
        o->length += n;
    }
}

static void put_char(struct json_writer *o, char c)
{
    if (reserve(o, 1))
        o->data[o->length++] = c;
}

/* Bytes a JSON string must escape: quote, backslash and the controls below 0x20. */
static const unsigned char needs_escape[256] = {
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0,
};

/* Whether none of the 8 bytes at p is a quote, a backslash or below 0x20
 * (the exact "has a byte below n" and "has a zero byte" word tests: no
 * false negatives, and a false positive only sends the word byte by byte). */
static bool word_is_plain(const char *p)
{
    const uint64_t ones = 0x0101010101010101ULL, high = 0x8080808080808080ULL;
    uint64_t w;
    memcpy(&w, p, 8);
    const uint64_t quote = w ^ (ones * '"'), backslash = w ^ (ones * '\\');
    const uint64_t hits = ((w - ones * 0x20) & ~w) | ((quote - ones) & ~quote) |
                          ((backslash - ones) & ~backslash);
    return (hits & high) == 0;
}

/* As jansson's dump_string without JSON_ENSURE_ASCII or JSON_ESCAPE_SLASH: \" \\ \b \f \n
 * \r \t, other controls as \u00XX (upper-case hex), everything else as it is. */
static void put_string(struct json_writer *o, const char *s, size_t n)
{
    static const char hex[] = "0123456789ABCDEF";
    put_char(o, '"');
    size_t run = 0;
    for (size_t i = 0; i < n; i++) {
        if (i % 8 == 0) /* skip 8 bytes at once while none needs escaping */
            while (i + 8 <= n && word_is_plain(s + i))
                i += 8;
        if (i >= n)
            break;
        const unsigned char c = (unsigned char)s[i];
        if (!needs_escape[c])
            continue;
        put(o, s + run, i - run);
        run = i + 1;
        char seq[6] = {'\\', 0, 0, 0, 0, 0};
        size_t len = 2;
        switch (c) {
        case '"': seq[1] = '"'; break;
        case '\\': seq[1] = '\\'; break;
        case '\b': seq[1] = 'b'; break;
        case '\f': seq[1] = 'f'; break;
        case '\n': seq[1] = 'n'; break;
        case '\r': seq[1] = 'r'; break;
        case '\t': seq[1] = 't'; break;
        default:
            seq[1] = 'u';
            seq[2] = '0';
            seq[3] = '0';
            seq[4] = hex[c >> 4];
            seq[5] = hex[c & 15];
            len = 6;
            break;
        }
        put(o, seq, len);
    }
    put(o, s + run, n - run);
    put_char(o, '"');
}

static void put_integer(struct json_writer *o, json_int_t value)
{
    char digits[24];
    size_t at = sizeof(digits);
    /* the magnitude as unsigned, so the most negative value has one too */
    uint64_t v = value < 0 ? (uint64_t)0 - (uint64_t)value : (uint64_t)value;
    do {
        digits[--at] = (char)('0' + v % 10);
        v /= 10;
    } while (v != 0);
    if (value < 0)
        digits[--at] = '-';
    put(o, digits + at, sizeof(digits) - at);
}

__extension__ typedef unsigned __int128 u128;

static const uint64_t pow10_u64[19] = {1ULL,
                                       10ULL,
                                       100ULL,
                                       1000ULL,
                                       10000ULL,
                                       100000ULL,
                                       1000000ULL,
                                       10000000ULL,
                                       100000000ULL,
                                       1000000000ULL,
                                       10000000000ULL,
                                       100000000000ULL,
                                       1000000000000ULL,
                                       10000000000000ULL,
                                       100000000000000ULL,
                                       1000000000000000ULL,
                                       10000000000000000ULL,
                                       100000000000000000ULL,
                                       1000000000000000000ULL};

/* The text jansson writes for a real under JSON_REAL_PRECISION(15): printf's "%.15g" (the
 * binary value rounded to 15 significant digits, ties to even, trailing zeros dropped), then
 * ".0" when that has neither '.' nor 'e'. Computed exactly with integers for the magnitudes
 * "%.15g" writes in fixed notation, 1e-4 <= |v| < 1e15 - every real an answer carries: v =
 * m / 2^s with a 53-bit m, so v x 10^f = m x 10^f / 2^s is an exact 128-bit quotient and
 * remainder. Returns the length, or 0 to leave the value to jansson (zero, other
 * magnitudes, a value that rounds up to 1e15). */
size_t json_out_real(double v, char out[JSON_OUT_REAL_MAX])
{
    const double a = v < 0 ? -v : v;
    if (!(a >= 1e-4 && a < 1e15))
        return 0;
    /* a is normal here: a = (2^52 + fraction) x 2^(biased - 1075), so with m the 53-bit
     * significand and exp2 = biased - 1022 (frexp's exponent), a = m x 2^(exp2 - 53) */
    uint64_t bits;
    memcpy(&bits, &a, sizeof(bits));
    const int exp2 = (int)((bits >> 52) & 0x7FF) - 1022;
    const uint64_t m = (bits & ((UINT64_C(1) << 52) - 1)) | (UINT64_C(1) << 52);
    const int s = 53 - exp2; /* 3 <= s <= 66 in this range */
    /* the decimal exponent: 2^(exp2 - 1) <= a < 2^exp2, so it is floor((exp2 - 1) log10 2)
     * or one more (1233 / 4096 = 0.30103 to five digits, exact for these exponents); the
     * loop below settles which. In this range it is -4 to 14 */
    const int scaled = (exp2 - 1) * 1233;
    int x = scaled >= 0 ? scaled / 4096 : -((-scaled + 4095) / 4096);
    x = x < -4 ? -4 : x > 14 ? 14 : x;
    uint64_t digits = 0;
    for (int tries = 0;; tries++) {
        const int f = 14 - x; /* fraction digits that leave 15 significant ones */
        if (tries == 3 || f < 0 || f > 18)
            return 0;
        const u128 p = (u128)m * pow10_u64[f];
        const u128 whole = p >> s;
        if (whole >= pow10_u64[15]) {
            x++;
            continue;
        }
        if (whole < pow10_u64[14]) {
            x--;
            continue;
        }
        const u128 rest = p & (((u128)1 << s) - 1), half = (u128)1 << (s - 1);
        digits = (uint64_t)whole;
        if (rest > half || (rest == half && (digits & 1)))
            digits++;
        if (digits == pow10_u64[15]) { /* rounded up to the next power of ten */
            digits = pow10_u64[14];
            x++;
        }
        break;
    }
    if (x >= 15) /* "%.15g" turns to exponent notation there */
        return 0;
    /* the 15 digits, then '0's: the runs below are copied 16 bytes at a time (copies of a
     * known size are plain moves; a byte loop becomes a memcpy call per run) and the length
     * set after, so `out` takes up to 1 + 16 + 16 bytes */
    char d[32];
    memset(d, '0', sizeof(d));
    for (int i = 14; i >= 0; i--, digits /= 10)
        d[i] = (char)('0' + digits % 10);
    int last = 14; /* the last significant digit kept */
    while (last > 0 && d[last] == '0')
        last--;
    size_t n = 0;
    if (v < 0)
        out[n++] = '-';
    if (x >= 0) {
        memcpy(out + n, d, 16); /* d[0..x] are the integer part */
        out[n + (size_t)x + 1] = '.';
        memcpy(out + n + x + 2, d + x + 1, 16); /* the fraction: x + 1 <= 15 */
        /* no fraction: jansson's ".0" (d[x + 1] is a '0' then) */
        n += (size_t)x + 2 + (size_t)(last > x ? last - x : 1);
    } else {
        memcpy(out + n, "0.0000", 6);   /* "0." and the -x - 1 <= 3 zeros after it */
        memcpy(out + n + 1 - x, d, 16); /* the digits from 1 - x + n */
        n += (size_t)(1 - x) + (size_t)last + 1;
    }
    return n;
}

/* Reals as jansson writes them: json_out_real where it applies, else jansson's own formatter
 * (its dtoa or printf path, whichever it was built with). */
static void put_real(struct json_writer *o, const json_t *value)
{
    char text[64];
    size_t n = json_out_real(json_real_value(value), text);
    if (n == 0) {
        n = json_dumpb(value, text, sizeof(text), JSON_OUT_FLAGS | JSON_ENCODE_ANY);
        if (n == 0 || n > sizeof(text)) {
            o->failed = true;
            return;
        }
    }
    put(o, text, n);
}

static void put_value(struct json_writer *o, const json_t *v, int depth)
{
    if (depth >= MAX_DEPTH) {
        o->failed = true;
        return;
    }
    switch (json_typeof(v)) {
    case JSON_OBJECT: {
        put_char(o, '{');
        const char *key;
        json_t *member;
        bool first = true;
        void *iter = json_object_iter((json_t *)(uintptr_t)v);
        for (; iter != NULL && !o->failed;
             iter = json_object_iter_next((json_t *)(uintptr_t)v, iter)) {
            key = json_object_iter_key(iter);
            member = json_object_iter_value(iter);
            if (!first)
                put_char(o, ',');
            first = false;
            put_string(o, key, json_object_iter_key_len(iter));
            put_char(o, ':');
            put_value(o, member, depth + 1);
        }
        put_char(o, '}');
        break;
    }
    case JSON_ARRAY: {
        put_char(o, '[');
        const size_t n = json_array_size(v);
        for (size_t i = 0; i < n && !o->failed; i++) {
            if (i > 0)
                put_char(o, ',');
            put_value(o, json_array_get(v, i), depth + 1);
        }
        put_char(o, ']');
        break;
    }
    case JSON_STRING:
        put_string(o, json_string_value(v), json_string_length(v));
        break;
    case JSON_INTEGER:
        put_integer(o, json_integer_value(v));
        break;
    case JSON_REAL:
        put_real(o, v);
        break;
    case JSON_TRUE:
        put(o, "true", 4);
        break;
    case JSON_FALSE:
        put(o, "false", 5);
        break;
    case JSON_NULL:
        put(o, "null", 4);
        break;
    }
}

char *json_out_dumps(const json_t *value, size_t *length)
{
    /* json_dumps answers NULL for anything but an object or array without JSON_ENCODE_ANY */
    if (value == NULL || (!json_is_object(value) && !json_is_array(value)))
        return NULL;
    struct json_writer o = {.data = NULL};
    put_value(&o, value, 0);
    if (o.failed || !reserve(&o, 0)) {
        free(o.data);
        return NULL;
    }
    o.data[o.length] = '\0';
    if (length != NULL)
        *length = o.length;
    return o.data;
}

/* Whether `s` is well-formed UTF-8 (no overlong forms, surrogates or code
 * points past U+10FFFF), as jansson requires of a string. */
bool json_utf8_valid(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    while (*p != '\0') {
        const unsigned char c = *p;
        size_t n = c < 0x80                 ? 0
                   : c >= 0xC2 && c <= 0xDF ? 1
                   : c >= 0xE0 && c <= 0xEF ? 2
                   : c >= 0xF0 && c <= 0xF4 ? 3
                                            : 4;
        if (n == 4)
            return false;
        unsigned long cp = n == 0 ? c : c & (0x3Fu >> n);
        for (size_t i = 1; i <= n; i++) {
            if ((p[i] & 0xC0) != 0x80)
                return false;
            cp = cp << 6 | (p[i] & 0x3Fu);
        }
        if ((n == 2 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) ||
            (n == 3 && (cp < 0x10000 || cp > 0x10FFFF)))
            return false;
        p += n + 1;
    }
    return true;
}

/* ------------------------------------------------------------ the writer */

/* The comma before an element (or a member's key: `key`), unless a value follows its key; a
 * value in an object without its key, or a key outside an object, fails the writer. */
static void separate(struct json_writer *w, bool key)
{
    const bool in_object = w->depth > 0 && w->in_object[w->depth - 1];
    if (w->after_key) {
        w->after_key = false;
        if (key)
            w->failed = true;
        return;
    }
    if (in_object != key) {
        w->failed = true;
        return;
    }
    if (w->depth == 0)
        return;
    if (w->has_member[w->depth - 1])
        put_char(w, ',');
    w->has_member[w->depth - 1] = true;
}

static void open_container(struct json_writer *w, char c)
{
    separate(w, false);
    if (w->depth >= JSON_WRITER_DEPTH) {
        w->failed = true;
        return;
    }
    w->in_object[w->depth] = c == '{';
    w->has_member[w->depth++] = false;
    put_char(w, c);
}

static void close_container(struct json_writer *w, char c)
{
    if (w->depth == 0 || w->after_key || w->in_object[w->depth - 1] != (c == '}')) {
        w->failed = true;
        return;
    }
    w->depth--;
    put_char(w, c);
}

void json_w_begin_object(struct json_writer *w)
{
    open_container(w, '{');
}

void json_w_end_object(struct json_writer *w)
{
    close_container(w, '}');
}

void json_w_begin_array(struct json_writer *w)
{
    open_container(w, '[');
}

void json_w_end_array(struct json_writer *w)
{
    close_container(w, ']');
}

/* Whether any byte of s[0..n) needs escaping, and whether all are ASCII: eight bytes at a
 * time (word_is_plain), the tail and any word that may hold one byte by byte. */
static void scan(const char *s, size_t n, bool *escapes, bool *ascii)
{
    const uint64_t high = 0x8080808080808080ULL;
    bool esc = false;
    uint64_t seen = 0;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t word;
        memcpy(&word, s + i, 8);
        seen |= word;
        if (!esc && !word_is_plain(s + i))
            for (size_t j = i; j < i + 8; j++)
                esc |= needs_escape[(unsigned char)s[j]] != 0;
    }
    for (; i < n; i++) {
        seen |= (unsigned char)s[i];
        esc |= needs_escape[(unsigned char)s[i]] != 0;
    }
    *escapes = esc;
    *ascii = (seen & high) == 0;
}

/* Whether no byte of s[0..n) needs escaping. */
static bool plain(const char *s, size_t n)
{
    bool escapes, ascii;
    scan(s, n, &escapes, &ascii);
    return !escapes;
}

/* "s" for a string without escapes (keys, most values), in one copy */
static void put_plain_string(struct json_writer *w, const char *s, size_t n, const char *tail,
                             size_t tail_length)
{
    if (!reserve(w, n + 2 + tail_length))
        return;
    char *at = w->data + w->length;
    *at++ = '"';
    memcpy(at, s, n);
    at += n;
    *at++ = '"';
    memcpy(at, tail, tail_length);
    w->length += n + 2 + tail_length;
}

void json_w_key_checked(struct json_writer *w, const char *key, size_t n)
{
#ifndef NDEBUG
    if (!plain(key, n)) {
        w->failed = true;
        return;
    }
#endif
    if (w->after_key || w->depth == 0 || !w->in_object[w->depth - 1]) {
        separate(w, true); /* misplaced: marks the writer failed */
        return;
    }
    if (!reserve(w, n + 4))
        return;
    char *at = w->data + w->length;
    if (w->has_member[w->depth - 1])
        *at++ = ',';
    w->has_member[w->depth - 1] = true;
    *at++ = '"';
    memcpy(at, key, n);
    at += n;
    *at++ = '"';
    *at++ = ':';
    w->length = (size_t)(at - w->data);
    w->after_key = true;
}

void json_w_key_text(struct json_writer *w, const char *key)
{
    separate(w, true);
    const size_t n = strlen(key);
    if (plain(key, n)) {
        put_plain_string(w, key, n, ":", 1);
    } else {
        put_string(w, key, n);
        put_char(w, ':');
    }
    w->after_key = true;
}

void json_w_string(struct json_writer *w, const char *s)
{
    if (s == NULL) {
        w->failed = true;
        return;
    }
    const size_t n = strlen(s);
    bool escapes, ascii;
    scan(s, n, &escapes, &ascii);
    if (!ascii && !json_utf8_valid(s)) { /* jansson's constructors refuse it */
        w->failed = true;
        return;
    }
    separate(w, false);
    if (escapes)
        put_string(w, s, n);
    else
        put_plain_string(w, s, n, "", 0);
}

void json_w_int(struct json_writer *w, json_int_t v)
{
    separate(w, false);
    put_integer(w, v);
}

void json_w_u64(struct json_writer *w, uint64_t v)
{
    json_w_int(w, v > (uint64_t)INT64_MAX ? (json_int_t)INT64_MAX : (json_int_t)v);
}

void json_w_real(struct json_writer *w, double v)
{
    if (!isfinite(v)) { /* json_real refuses them */
        w->failed = true;
        return;
    }
    char text[64];
    size_t n = json_out_real(v, text);
    if (n == 0) {
        json_t *r = json_real(v);
        n = r != NULL ? json_dumpb(r, text, sizeof(text), JSON_OUT_FLAGS | JSON_ENCODE_ANY) : 0;
        json_decref(r);
        if (n == 0 || n > sizeof(text)) {
            w->failed = true;
            return;
        }
    }
    separate(w, false);
    put(w, text, n);
}

void json_w_bool(struct json_writer *w, bool v)
{
    separate(w, false);
    if (v)
        put(w, "true", 4);
    else
        put(w, "false", 5);
}

void json_w_null(struct json_writer *w)
{
    separate(w, false);
    put(w, "null", 4);
}

void json_w_value(struct json_writer *w, const json_t *v)
{
    if (v == NULL) {
        w->failed = true;
        return;
    }
    separate(w, false);
    put_value(w, v, (int)w->depth);
}

void json_w_take(struct json_writer *w, json_t *v)
{
    json_w_value(w, v);
    json_decref(v);
}

char *json_w_finish(struct json_writer *w, size_t *length)
{
    if (w->failed || w->depth != 0 || w->after_key || !reserve(w, 0)) {
        free(w->data);
        memset(w, 0, sizeof(*w));
        return NULL;
    }
    char *text = w->data;
    text[w->length] = '\0';
    if (length != NULL)
        *length = w->length;
    memset(w, 0, sizeof(*w));
    return text;
}

void json_w_discard(struct json_writer *w)
{
    free(w->data);
    memset(w, 0, sizeof(*w));
}
