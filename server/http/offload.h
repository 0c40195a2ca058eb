/*
 * offload.h - worker threads for the requests a connection thread must not
 * run itself: catalog writes (the writer lock, fsync) and hub imports
 * (seconds of network) on one pool, plan searches (up to seconds of CPU) on
 * a bounded, lower-priority pool of their own.
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

/* Starts `threads` workers (at least 1) that take at most `queue_max` waiting jobs
 * (0 = no limit) and run at the scheduling niceness `nice` (Linux: per thread, so the
 * connection threads keep their share of the CPU; ignored where not permitted). */
struct offload *offload_start_limited(unsigned threads, unsigned queue_max, int nice);

/* Queues fn(arg) for a worker; false after offload_stop began (then the caller
 * runs the work itself). */
bool offload_submit(struct offload *pool, void (*fn)(void *arg), void *arg);

enum offload_result { OFFLOAD_QUEUED, OFFLOAD_FULL, OFFLOAD_STOPPING };

/* Queues fn(arg) unless `queue_max` jobs already wait (OFFLOAD_FULL), the pool is
 * stopping or memory is short (OFFLOAD_STOPPING); the caller then answers itself. */
enum offload_result offload_try_submit(struct offload *pool, void (*fn)(void *arg), void *arg);

/* Jobs waiting for a worker now (not those running). */
unsigned offload_waiting(struct offload *pool);

/* Runs every queued job to its end, then joins and frees the workers. NULL is
 * a no-op. */
void offload_stop(struct offload *pool);

#endif
