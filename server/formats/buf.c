/* buf.c - a growing byte buffer (see buf.h). */
#include "formats/buf.h"

#include <stdlib.h>
#include <string.h>

void buf_put(struct buf *b, const char *bytes, size_t n)
{
    if (b->failed)
        return;
    if (b->length + n + 1 > b->capacity) {
        size_t next = b->capacity ? b->capacity : 4096;
        while (next < b->length + n + 1)
            next *= 2;
        char *grown = realloc(b->data, next);
        if (grown == NULL) {
            b->failed = true;
            return;
        }
        b->data = grown;
        b->capacity = next;
    }
    memcpy(b->data + b->length, bytes, n);
    b->length += n;
    b->data[b->length] = '\0';
}
