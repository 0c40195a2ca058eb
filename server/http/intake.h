/*
 * intake.h - a request up to its body: what is refused before the body is
 * read (ambiguous framing, no route, a method the route does not take, a
 * write without the right key, a media type or declared length the route
 * does not accept), whether a refused request's body is drained first, and
 * the body appended to a capped buffer; the CORS origins allowed.
 */
#ifndef GS_INTAKE_H
#define GS_INTAKE_H

#include "http/exchange.h"

#include <microhttpd.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct conn_guard;

/* Bodies of rejected requests (including those found too large while
 * reading) are read and dropped up to this size before answering, so the
 * client sees the answer rather than a reset connection (closing with unread
 * data makes the kernel send RST). Past it, declared or while draining a
 * chunked body, the connection is closed. */
#define INTAKE_DRAIN_LIMIT ((uint64_t)64 << 20)

/* First call: route, method, credentials, media type and declared length. True when the
 * request is to be answered with `a` instead of being served. */
bool intake_precheck(struct MHD_Connection *conn, const struct http_server *srv,
                     const struct route *r, const char *method, struct early_answer *a);

/* Whether the client waits for 100 Continue before it sends the body. */
bool intake_expects_continue(struct MHD_Connection *conn);

/* Whether a rejected request has a body worth draining first: one of unknown (chunked) or
 * declared length within INTAKE_DRAIN_LIMIT. */
bool intake_drainable(struct MHD_Connection *conn);

/* Appends to the body, or turns the request into a 413 once it passes `limit` (503 when
 * every unfinished body together would pass the guard's budget); false when out of memory. */
bool intake_append_body(struct conn_guard *guard, struct request *req, const char *data,
                        size_t size, size_t limit);

/* A request whose framing cannot be trusted (RFC 9112: Content-Length with
 * Transfer-Encoding, conflicting lengths, an unknown coding, white space in a header name,
 * HTTP/1.1 without Host): true, with the 400 that closes the connection in `a`. */
bool intake_framing_rejected(struct MHD_Connection *conn, const char *version,
                             struct early_answer *a);

/* Whether `origin` is one of the configured CORS origins ("*" allows any). */
bool intake_cors_allowed(const struct http_server *srv, const char *origin);

#endif
