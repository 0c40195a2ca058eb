/*
 * json_build.c - building jansson answer trees without json_pack (see
 * json_build.h).
 */
#include "formats/json_build.h"

#include <stdarg.h>
#include <stdint.h>
#include <string.h>

json_t *json_build_string(const char *s)
{
    if (s == NULL)
        return NULL;
    size_t n = 0;
    unsigned char high = 0;
    for (; s[n] != '\0'; n++)
        high |= (unsigned char)s[n];
    return high & 0x80 ? json_stringn(s, n) : json_stringn_nocheck(s, n);
}

json_t *json_build_object(const char *key, json_t *value, ...)
{
    json_t *o = json_object();
    bool ok = o != NULL;
    va_list ap;
    va_start(ap, value);
    while (key != NULL) {
        if (ok && value != NULL)
            ok = json_object_set_new_nocheck(o, key, value) == 0; /* takes value either way */
        else {
            ok = false;
            json_decref(value);
        }
        key = va_arg(ap, const char *);
        if (key != NULL)
            value = va_arg(ap, json_t *);
    }
    va_end(ap);
    if (!ok) {
        json_decref(o);
        return NULL;
    }
    return o;
}

bool json_build_put(json_t *object, const char *key, json_t *value)
{
    return value != NULL && json_object_set_new_nocheck(object, key, value) == 0;
}

bool json_build_append(json_t *array, json_t *value)
{
    return value != NULL && json_array_append_new(array, value) == 0;
}

json_t *json_build_u64(uint64_t value)
{
    return json_integer(value > (uint64_t)INT64_MAX ? (json_int_t)INT64_MAX : (json_int_t)value);
}
