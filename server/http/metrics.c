/* metrics.c - counters and their Prometheus exposition (metrics.h). */
#include "http/metrics.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

/* The statuses counted one by one; anything else is counted as "other". */
static const unsigned statuses[] = {200, 201, 204, 304, 400, 401, 403, 404, 405, 406,
                                    409, 412, 413, 415, 422, 429, 500, 502, 503};
#define STATUS_SLOTS (sizeof(statuses) / sizeof(statuses[0]) + 1)

/* Latency bucket bounds, seconds: from 100 µs (an estimate) to 10 s (an import). */
static const double bounds[] = {0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01,
                                0.025,  0.05,    0.1,    0.25,  0.5,    1,     2.5, 10};
#define BUCKETS (sizeof(bounds) / sizeof(bounds[0]))

static const char *const *names;
static unsigned name_count;
static uint64_t requests[METRICS_ROUTES][STATUS_SLOTS];
static uint64_t latency[METRICS_ROUTES][BUCKETS + 1]; /* last: +Inf */
static uint64_t latency_ns[METRICS_ROUTES];
static struct timespec started;

void metrics_init(const char *const *route_names, unsigned route_count)
{
    names = route_names;
    name_count = route_count < METRICS_ROUTES ? route_count : METRICS_ROUTES;
    clock_gettime(CLOCK_MONOTONIC, &started);
}

void metrics_request(unsigned route, unsigned status, uint64_t nanoseconds)
{
    if (route >= name_count)
        return;
    size_t slot = STATUS_SLOTS - 1;
    for (size_t i = 0; i + 1 < STATUS_SLOTS; i++)
        if (statuses[i] == status) {
            slot = i;
            break;
        }
    __atomic_add_fetch(&requests[route][slot], 1, __ATOMIC_RELAXED);
    const double seconds = (double)nanoseconds / 1e9;
    size_t b = 0;
    while (b < BUCKETS && seconds > bounds[b])
        b++;
    __atomic_add_fetch(&latency[route][b], 1, __ATOMIC_RELAXED);
    __atomic_add_fetch(&latency_ns[route], nanoseconds, __ATOMIC_RELAXED);
}

static uint64_t answer_hits, answer_misses;

void metrics_answer_cache(bool hit)
{
    __atomic_add_fetch(hit ? &answer_hits : &answer_misses, 1, __ATOMIC_RELAXED);
}

static uint64_t compute_rejected;

void metrics_compute_rejected(void)
{
    __atomic_add_fetch(&compute_rejected, 1, __ATOMIC_RELAXED);
}

static void line(struct buf *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void line(struct buf *out, const char *fmt, ...)
{
    char text[256];
    va_list ap;
    va_start(ap, fmt);
    const int n = vsnprintf(text, sizeof(text), fmt, ap);
    va_end(ap);
    if (n > 0)
        buf_put(out, text, (size_t)n < sizeof(text) ? (size_t)n : sizeof(text) - 1);
}

void metrics_render(const struct metrics_gauges *g, struct buf *out)
{
    line(out, "# HELP gpusizer_requests_total Requests answered, by route and status.\n");
    line(out, "# TYPE gpusizer_requests_total counter\n");
    for (unsigned r = 0; r < name_count; r++)
        for (size_t s = 0; s < STATUS_SLOTS; s++) {
            const uint64_t n = __atomic_load_n(&requests[r][s], __ATOMIC_RELAXED);
            if (n == 0)
                continue;
            if (s + 1 < STATUS_SLOTS)
                line(out, "gpusizer_requests_total{route=\"%s\",status=\"%u\"} %llu\n", names[r],
                     statuses[s], (unsigned long long)n);
            else
                line(out, "gpusizer_requests_total{route=\"%s\",status=\"other\"} %llu\n",
                     names[r], (unsigned long long)n);
        }
    line(out, "# HELP gpusizer_request_duration_seconds Time from a request's headers to its "
              "answer being queued, by route.\n");
    line(out, "# TYPE gpusizer_request_duration_seconds histogram\n");
    for (unsigned r = 0; r < name_count; r++) {
        uint64_t cumulative = 0;
        for (size_t b = 0; b <= BUCKETS; b++)
            cumulative += __atomic_load_n(&latency[r][b], __ATOMIC_RELAXED);
        if (cumulative == 0)
            continue;
        uint64_t running = 0;
        for (size_t b = 0; b < BUCKETS; b++) {
            running += __atomic_load_n(&latency[r][b], __ATOMIC_RELAXED);
            line(out, "gpusizer_request_duration_seconds_bucket{route=\"%s\",le=\"%g\"} %llu\n",
                 names[r], bounds[b], (unsigned long long)running);
        }
        line(out, "gpusizer_request_duration_seconds_bucket{route=\"%s\",le=\"+Inf\"} %llu\n",
             names[r], (unsigned long long)cumulative);
        line(out, "gpusizer_request_duration_seconds_sum{route=\"%s\"} %.9f\n", names[r],
             (double)__atomic_load_n(&latency_ns[r], __ATOMIC_RELAXED) / 1e9);
        line(out, "gpusizer_request_duration_seconds_count{route=\"%s\"} %llu\n", names[r],
             (unsigned long long)cumulative);
    }
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    const double uptime = (double)(now.tv_sec - started.tv_sec) +
                          (double)(now.tv_nsec - started.tv_nsec) / 1e9;
    line(out, "# HELP gpusizer_connections Open client connections.\n"
              "# TYPE gpusizer_connections gauge\ngpusizer_connections %llu\n",
         (unsigned long long)g->connections);
    line(out, "# HELP gpusizer_deadline_closes_total Connections closed at a header or body "
              "deadline.\n# TYPE gpusizer_deadline_closes_total counter\n"
              "gpusizer_deadline_closes_total %llu\n",
         (unsigned long long)g->deadline_closes);
    line(out, "# HELP gpusizer_catalog_entries Entries in the served catalog view.\n"
              "# TYPE gpusizer_catalog_entries gauge\n"
              "gpusizer_catalog_entries{kind=\"model\",backend=\"%s\"} %llu\n",
         g->backend, (unsigned long long)g->models);
    line(out, "gpusizer_catalog_entries{kind=\"gpu\",backend=\"%s\"} %llu\n", g->backend,
         (unsigned long long)g->gpus);
    line(out, "# HELP gpusizer_catalog_backend The catalog's database.\n"
              "# TYPE gpusizer_catalog_backend gauge\n"
              "gpusizer_catalog_backend{backend=\"%s\"} 1\n",
         g->backend);
    line(out, "# HELP gpusizer_catalog_reachable Whether the catalog's database answered the "
              "last check (0: serving the last view).\n# TYPE gpusizer_catalog_reachable gauge\n"
              "gpusizer_catalog_reachable %d\n",
         g->reachable ? 1 : 0);
    line(out, "# HELP gpusizer_catalog_snapshot_age_seconds Since the served catalog view was "
              "last known current (built, or checked against the database).\n"
              "# TYPE gpusizer_catalog_snapshot_age_seconds gauge\n"
              "gpusizer_catalog_snapshot_age_seconds %.3f\n",
         g->snapshot_age_seconds);
    line(out, "# HELP gpusizer_catalog_version The catalog's change counter the served view was "
              "built at (replicas that converged show the same).\n"
              "# TYPE gpusizer_catalog_version gauge\ngpusizer_catalog_version %lld\n",
         (long long)g->data_version);
    line(out, "# HELP gpusizer_catalog_reloads_total Catalog views rebuilt after a write here or "
              "in another process.\n# TYPE gpusizer_catalog_reloads_total counter\n"
              "gpusizer_catalog_reloads_total %llu\n",
         (unsigned long long)g->reloads);
    line(out, "# HELP gpusizer_catalog_reload_failures_total Rebuilds that failed (the last view "
              "kept; retried at the next check).\n"
              "# TYPE gpusizer_catalog_reload_failures_total counter\n"
              "gpusizer_catalog_reload_failures_total %llu\n",
         (unsigned long long)g->failed_reloads);
    line(out, "# HELP gpusizer_answer_cache_total /v1/recommend and /v1/fit answers looked up "
              "in the catalog view's answer cache.\n# TYPE gpusizer_answer_cache_total counter\n"
              "gpusizer_answer_cache_total{result=\"hit\"} %llu\n"
              "gpusizer_answer_cache_total{result=\"miss\"} %llu\n",
         (unsigned long long)__atomic_load_n(&answer_hits, __ATOMIC_RELAXED),
         (unsigned long long)__atomic_load_n(&answer_misses, __ATOMIC_RELAXED));
    line(out, "# HELP gpusizer_compute_rejected_total Plan searches answered 503 busy: the "
              "compute queue full, or 10 s waited.\n"
              "# TYPE gpusizer_compute_rejected_total counter\n"
              "gpusizer_compute_rejected_total %llu\n",
         (unsigned long long)__atomic_load_n(&compute_rejected, __ATOMIC_RELAXED));
    line(out, "# HELP gpusizer_uptime_seconds Since the server started.\n"
              "# TYPE gpusizer_uptime_seconds gauge\ngpusizer_uptime_seconds %.3f\n",
         uptime);
}
