/* exchange.c - what the front end's modules share of an HTTP exchange (see exchange.h). */
#include "http/exchange.h"

#include <time.h>

uint64_t exchange_monotonic_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

__thread struct request *exchange_answering; /* see exchange.h */

const char *exchange_header(struct MHD_Connection *conn, const char *name)
{
    return MHD_lookup_connection_value(conn, MHD_HEADER_KIND, name);
}
