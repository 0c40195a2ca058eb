/*
 * conn_guard.h - what libmicrohttpd does not do against slow and abusive
 * clients: absolute deadlines (a request's headers must arrive within
 * header_timeout_s of its start, its body within body_timeout_s of its
 * headers, however slowly the bytes trickle - libmicrohttpd's own timeout
 * restarts with every byte), and a cap on the memory all unfinished bodies
 * may hold together. Connection counts overall and per client address are
 * libmicrohttpd options (http.c).
 *
 * A watchdog thread shuts down (shutdown(2)) the sockets past their
 * deadline; libmicrohttpd then closes them as it would a client's
 * disconnect.
 */
#ifndef GS_CONN_GUARD_H
#define GS_CONN_GUARD_H

#include <microhttpd.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct conn_guard_config {
    unsigned header_timeout_s;   /* 0 = none */
    unsigned body_timeout_s;     /* 0 = none */
    uint64_t max_buffered_bytes; /* all request bodies being read, together; 0 = no cap */
};

struct conn_guard;

/* Starts the watchdog. NULL on failure (out of memory, no thread). */
struct conn_guard *conn_guard_start(const struct conn_guard_config *config);

/* Stops the watchdog and frees; call after the daemon has stopped. */
void conn_guard_stop(struct conn_guard *guard);

/* The MHD_OPTION_NOTIFY_CONNECTION callback (cls = the guard). */
void conn_guard_notify(void *cls, struct MHD_Connection *connection, void **socket_context,
                       enum MHD_ConnectionNotificationCode code);

/* A request's headers are in: its body deadline starts. */
void conn_guard_headers_done(struct MHD_Connection *connection);

/* Its body is in: no deadline while it is answered. */
void conn_guard_body_done(struct MHD_Connection *connection);

/* Its answer is sent: the next request's header deadline starts (an idle
 * keep-alive connection is closed after header_timeout_s). */
void conn_guard_request_done(struct MHD_Connection *connection);

/* Takes `bytes` of the shared body budget; false (nothing taken) when it
 * would go over the cap. */
bool conn_guard_reserve(struct conn_guard *guard, size_t bytes);
void conn_guard_release(struct conn_guard *guard, size_t bytes);

/* Connections shut down for a deadline so far, and open now (for metrics). */
uint64_t conn_guard_expired(const struct conn_guard *guard);
uint64_t conn_guard_open(const struct conn_guard *guard);

#endif
