/*
 * metrics.h - what GET /metrics reports, in Prometheus' text format (0.0.4):
 * requests by route and status, a latency histogram per route, open
 * connections, the catalog's size, the age and reloads of the served view,
 * uptime. Counters are process-wide atomics: recording costs a few
 * relaxed increments.
 */
#ifndef GS_METRICS_H
#define GS_METRICS_H

#include "formats/buf.h"

#include <stdbool.h>
#include <stdint.h>

#define METRICS_ROUTES 24

/* Once, before the server starts: the route names (index = route id). */
void metrics_init(const char *const *route_names, unsigned route_count);

/* One answered request. */
void metrics_request(unsigned route, unsigned status, uint64_t nanoseconds);

/* One lookup in an answer cache (server/api/answer_cache.h). */
void metrics_answer_cache(bool hit);

/* A plan search answered 503 busy: the compute pool's queue full, or waited too long. */
void metrics_compute_rejected(void);

struct metrics_gauges {
    uint64_t connections;        /* open now */
    uint64_t deadline_closes;    /* connections closed at a header/body deadline */
    uint64_t models, gpus;       /* in the served catalog view */
    double snapshot_age_seconds; /* since the view was last known current */
    uint64_t reloads;
    uint64_t failed_reloads;
    int64_t data_version;        /* the catalog's change counter the view was built at */
    const char *backend;         /* "sqlite" or "postgresql" */
    bool reachable;              /* the database answered the last check */
};

/* Appends the whole exposition to `out`. */
void metrics_render(const struct metrics_gauges *g, struct buf *out);

#endif
