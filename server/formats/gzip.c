/* gzip.c - gzip responses (see gzip.h). */
#include "formats/gzip.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <zlib.h>

/* q of one coding's parameters (";q=0.5"); 1 when absent. */
static double coding_q(const char *params, const char *end)
{
    const char *q = params;
    while (q < end) {
        while (q < end && (*q == ';' || *q == ' ' || *q == '\t'))
            q++;
        if (end - q >= 2 && (q[0] == 'q' || q[0] == 'Q') && q[1] == '=')
            return strtod(q + 2, NULL);
        while (q < end && *q != ';')
            q++;
    }
    return 1.0;
}

bool gzip_accepted(const char *value)
{
    if (value == NULL)
        return false;
    double gzip_q = -1, star_q = -1;
    const char *p = value;
    while (*p != '\0') {
        while (*p == ',' || *p == ' ' || *p == '\t')
            p++;
        const char *name = p;
        while (*p != '\0' && *p != ',' && *p != ';' && *p != ' ' && *p != '\t')
            p++;
        const size_t n = (size_t)(p - name);
        const char *params = p;
        while (*p != '\0' && *p != ',')
            p++;
        const double q = coding_q(params, p);
        if ((n == 4 && strncasecmp(name, "gzip", 4) == 0) ||
            (n == 6 && strncasecmp(name, "x-gzip", 6) == 0))
            gzip_q = q;
        else if (n == 1 && name[0] == '*')
            star_q = q;
    }
    if (gzip_q >= 0)
        return gzip_q > 0;
    return star_q > 0;
}

unsigned char *gzip_compress(const void *data, size_t length, int level, size_t *out_length)
{
    z_stream z;
    memset(&z, 0, sizeof(z));
    /* 15 window bits + 16: a gzip header and trailer rather than zlib's */
    if (deflateInit2(&z, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        return NULL;
    const uLong bound = deflateBound(&z, (uLong)length);
    unsigned char *out = malloc(bound > 0 ? bound : 1);
    if (out == NULL || length > (size_t)UINT32_MAX) {
        free(out);
        deflateEnd(&z);
        return NULL;
    }
    z.next_in = (Bytef *)(uintptr_t)data;
    z.avail_in = (uInt)length;
    z.next_out = out;
    z.avail_out = (uInt)bound;
    const int rc = deflate(&z, Z_FINISH);
    *out_length = (size_t)z.total_out;
    deflateEnd(&z);
    if (rc != Z_STREAM_END) {
        free(out);
        return NULL;
    }
    return out;
}
