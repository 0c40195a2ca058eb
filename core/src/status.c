/* status.c - error list helpers (see gs/status.h). */
#include "gs/status.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void gs_error_init(struct gs_error *err)
{
    if (err == NULL)
        return;
    err->count = 0;
    err->dropped = 0;
}

enum gs_status gs_error_add(struct gs_error *err, enum gs_status status, const char *pointer,
                            const char *fmt, ...)
{
    if (err == NULL)
        return status;
    if (err->count >= GS_ERROR_MAX) {
        err->dropped++;
        return status;
    }
    struct gs_error_item *item = &err->items[err->count++];
    snprintf(item->pointer, sizeof(item->pointer), "%s", pointer != NULL ? pointer : "");
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(item->detail, sizeof(item->detail), fmt, ap);
    va_end(ap);
    return status;
}

void gs_error_prefix(struct gs_error *err, size_t from, const char *prefix)
{
    if (err == NULL || prefix == NULL)
        return;
    for (size_t i = from; i < err->count; i++) {
        char joined[GS_ERROR_POINTER_MAX];
        snprintf(joined, sizeof(joined), "%s%s", prefix, err->items[i].pointer);
        memcpy(err->items[i].pointer, joined, sizeof(joined));
    }
}

