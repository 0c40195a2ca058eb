/*
 * json_lenient.c - see json_lenient.h.
 */
#include "formats/json_lenient.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* The literal at text[i] outside a string, or 0: its length. */
static size_t literal_at(const char *text, size_t length, size_t i)
{
    static const char *const literals[] = {"-Infinity", "Infinity", "NaN"};
    for (size_t k = 0; k < sizeof(literals) / sizeof(literals[0]); k++) {
        const size_t n = strlen(literals[k]);
        if (i + n <= length && memcmp(text + i, literals[k], n) == 0)
            return n;
    }
    return 0;
}

/* A copy of `text` with every literal outside strings replaced by null;
 * NULL when there is none (or no memory). */
static char *rewrite(const char *text, size_t length, size_t *out_length)
{
    char *out = NULL;
    size_t used = 0;
    bool in_string = false, found = false;
    /* null (4) is at most one byte longer than any literal it replaces */
    out = malloc(length + length / 3 + 2);
    if (out == NULL)
        return NULL;
    for (size_t i = 0; i < length; i++) {
        const char c = text[i];
        if (in_string) {
            out[used++] = c;
            if (c == '\\' && i + 1 < length)
                out[used++] = text[++i];
            else if (c == '"')
                in_string = false;
            continue;
        }
        if (c == '"') {
            in_string = true;
            out[used++] = c;
            continue;
        }
        const size_t n = literal_at(text, length, i);
        if (n > 0) {
            memcpy(out + used, "null", 4);
            used += 4;
            i += n - 1;
            found = true;
            continue;
        }
        out[used++] = c;
    }
    if (!found) {
        free(out);
        return NULL;
    }
    *out_length = used;
    return out;
}

json_t *json_load_lenient(const char *text, size_t length, size_t flags, json_error_t *error)
{
    json_t *value = json_loadb(text, length, flags, error);
    if (value != NULL)
        return value;
    size_t n = 0;
    char *copy = rewrite(text, length, &n);
    if (copy == NULL)
        return NULL; /* the first parse's error stands */
    json_error_t second;
    value = json_loadb(copy, n, flags, &second);
    free(copy);
    return value;
}
