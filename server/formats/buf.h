/*
 * buf.h - a growing byte buffer for response bodies built piece by piece
 * (filtered listings, CSV exports). A failed allocation sets `failed` and
 * later writes are ignored, so a caller checks once at the end.
 */
#ifndef GS_BUF_H
#define GS_BUF_H

#include <stdbool.h>
#include <stddef.h>

struct buf {
    char *data;      /* NUL-terminated once anything is written; the caller frees */
    size_t length;
    size_t capacity;
    bool failed;
};

void buf_put(struct buf *b, const char *bytes, size_t n);

#endif
