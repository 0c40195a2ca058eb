/*
 * respond.h - sending answers. Every response carries the security headers
 * and the answering request's id (its status noted for /metrics and the
 * access log), the CORS headers when its origin is allowed, Retry-After on a
 * 503 and, on a shared catalog, Catalog-Age; a large enough text body goes
 * gzip'd to a client that accepts it.
 */
#ifndef GS_RESPOND_H
#define GS_RESPOND_H

#include "api/api.h"
#include "formats/problem.h"
#include "http/exchange.h"

#include <jansson.h>
#include <microhttpd.h>
#include <stddef.h>

/* `length` bytes of media type `type`; `mode` as libmicrohttpd takes it (a MUST_FREE `data`
 * is freed, also when the answer cannot be made); `allow` is the Allow header, or NULL. */
enum MHD_Result respond_buffer(struct MHD_Connection *conn, unsigned status, const char *type,
                               const void *data, size_t length, enum MHD_ResponseMemoryMode mode,
                               const char *allow);

/* `body` as JSON of media type `type`. */
enum MHD_Result respond_json(struct MHD_Connection *conn, unsigned status, const json_t *body,
                             const char *type);

/* A problem+json answer; `allow` as for respond_buffer. */
enum MHD_Result respond_problem(struct MHD_Connection *conn, const struct problem *p,
                                const char *allow);

/* A problem+json answer with one detail. */
enum MHD_Result respond_simple_problem(struct MHD_Connection *conn, int status, const char *slug,
                                       const char *title, const char *allow, const char *detail);

/* An answer decided before the body was read (intake.h). */
enum MHD_Result respond_early(struct MHD_Connection *conn, const struct early_answer *a);

/* An operation's answer (api.h): its problem as problem+json when it failed without a body,
 * with the ETag, Location, Link, X-Total-Count and WWW-Authenticate it set. */
enum MHD_Result respond_api(struct MHD_Connection *conn, struct api_response *r);

/* A CORS preflight from an allowed origin: 204 with what may be sent. */
enum MHD_Result respond_preflight(struct MHD_Connection *conn, const struct route *route);

#endif
