/* alloc.c - glibc malloc settings for a process that answers requests (see alloc.h). */
#include "alloc.h"

#include <malloc.h>

#define KEPT_BYTES (1 << 20)

void alloc_tune_for_requests(void)
{
    /* M_TRIM_THRESHOLD: freed top-of-heap memory kept before returning it; setting it turns
     * off glibc's sliding mmap threshold, so M_MMAP_THRESHOLD is set alongside (mallopt(3)) */
    mallopt(M_TRIM_THRESHOLD, KEPT_BYTES);
    mallopt(M_MMAP_THRESHOLD, KEPT_BYTES);
}
