/*
 * offload.h - a few threads that run the requests which may wait: catalog
 * writes (the writer lock, fsync) and hub imports (seconds of network).
 *
 * libmicrohttpd serves many connections per thread; a handler that blocks
 * blocks every connection of its thread. The server suspends such a
 * connection, submits the work here, and the job resumes the connection when
 * its answer is ready, so estimates and reads on the same thread keep going.
 */
#ifndef GS_OFFLOAD_H
#define GS_OFFLOAD_H

#include <stdbool.h>

struct offload;

/* Starts `threads` workers (at least 1). NULL when out of memory or threads. */
struct offload *offload_start(unsigned threads);

/* Queues fn(arg) for a worker; false after offload_stop began (then the caller
 * runs the work itself). */
bool offload_submit(struct offload *pool, void (*fn)(void *arg), void *arg);

/* Runs every queued job to its end, then joins and frees the workers. NULL is
 * a no-op. */
void offload_stop(struct offload *pool);

#endif
