/*
 * problem.h - RFC 9457 problem details: the body of every error response.
 *
 *   {"type": "urn:gpusizer:problem:<slug>", "title", "status", "detail"?,
 *    "errors": [{"pointer": "/json/pointer", "detail": "..."}]}
 *
 * A struct problem is caller-owned and fixed-size; its error list is the
 * core's struct gs_error, so validation errors flow into it unchanged.
 */
#ifndef GS_PROBLEM_H
#define GS_PROBLEM_H

#include "gs/status.h"

#include <jansson.h>

struct problem {
    int status;          /* HTTP status */
    const char *slug;    /* static string, e.g. "invalid-request" */
    const char *title;   /* static string, e.g. "The request is not valid" */
    char detail[256];    /* optional, "" when absent */
    struct gs_error errors;
};

void problem_init(struct problem *p);

/* Sets status, slug and title (static strings) and an optional printf detail. */
void problem_set(struct problem *p, int status, const char *slug, const char *title,
                 const char *detail_fmt, ...) __attribute__((format(printf, 5, 6)));

/* Fills status/slug/title from a core status (400 for validation, 500 for
 * internal faults...), keeping the error list already in p->errors. */
void problem_from_status(struct problem *p, enum gs_status status);

/* The core status a problem's HTTP status stands for (GS_ERR_INTERNAL for one it does not
 * name; never GS_OK): what an operation that filled `p` returns. */
enum gs_status problem_status(const struct problem *p);

/* The JSON body (new reference, NULL on allocation failure). */
json_t *problem_to_json(const struct problem *p);

#endif
