/*
 * gzip.h - Content-Encoding: gzip for responses (zlib), when the client
 * asks for it in Accept-Encoding (RFC 9110 12.5.3). Catalog listings are
 * large and compress about 8x; the web page and procurement tools read them
 * whole.
 */
#ifndef GS_GZIP_H
#define GS_GZIP_H

#include <stdbool.h>
#include <stddef.h>

/* Bodies shorter than this are sent as they are: the header costs more than it saves. */
#define GZIP_MIN_BYTES 1024

/* Whether an Accept-Encoding value accepts gzip: a "gzip" (or "x-gzip") or "*"
 * coding whose q is not 0, and no "gzip;q=0". NULL or "" accept nothing. */
bool gzip_accepted(const char *accept_encoding);

/* The gzip member of `data` at zlib `level` (1 fast .. 9 small); NULL when out
 * of memory. The caller frees the result and gets its length in *out_length. */
unsigned char *gzip_compress(const void *data, size_t length, int level, size_t *out_length);

#endif
