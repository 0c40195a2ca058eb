/*
 * fuzz_common.h - what the libFuzzer targets share: a seeded catalog in a
 * temporary file and the service over it, built once per process.
 */
#ifndef GS_FUZZ_COMMON_H
#define GS_FUZZ_COMMON_H

#include "catalog.h"
#include "api/codec.h"
#include "formats/json_lenient.h"
#include "formats/json_out.h"
#include "formats/problem.h"
#include "api/service.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static struct service *fuzz_service(void)
{
    static struct service *service;
    if (service != NULL)
        return service;
    char path[] = "/tmp/gs-fuzz-XXXXXX";
    const int fd = mkstemp(path);
    if (fd < 0)
        abort();
    close(fd);
    unlink(path); /* catalog_open creates and seeds it */
    struct catalog *catalog = NULL;
    struct catalog_snapshot *snapshot = NULL;
    struct gs_error err;
    gs_error_init(&err);
    if (catalog_open(path, &catalog, &err) != GS_OK ||
        catalog_snapshot_load(catalog, &snapshot, &err) != GS_OK ||
        service_create(snapshot, &service, &err) != GS_OK) {
        fprintf(stderr, "fuzz: cannot build the catalog: %s\n",
                err.count ? err.items[0].detail : "?");
        abort();
    }
    catalog_close(catalog);
    unlink(path);
    return service;
}

/* The input as a request body, through the server's own lenient parser;
 * NULL when it is not JSON. */
static json_t *fuzz_request(const uint8_t *data, size_t size)
{
    json_error_t jerr;
    return json_load_lenient((const char *)data, size, JSON_REJECT_DUPLICATES, &jerr);
}

/* Differential check of the server's JSON writer: json_out_dumps must write exactly what
 * json_dumps does for any value - the fuzzed request itself (any strings, numbers, nesting
 * the parser takes), the answer, or the problem that echoes the input. Aborts otherwise. */
static void fuzz_check_dump(const json_t *value)
{
    if (value == NULL)
        return;
    char *want = json_dumps(value, JSON_OUT_FLAGS);
    size_t n = 0;
    char *got = json_out_dumps(value, &n);
    if ((want == NULL) != (got == NULL) ||
        (want != NULL && (n != strlen(want) || memcmp(want, got, n) != 0))) {
        fprintf(stderr, "fuzz: json_out_dumps differs from json_dumps\n  jansson: %.200s\n  ours:    %.200s\n",
                want ? want : "(null)", got ? got : "(null)");
        abort();
    }
    free(want);
    free(got);
}

/* The answer or, on failure, the problem document, through fuzz_check_dump. */
static void fuzz_check_answer(int rc, const json_t *response, const struct problem *p)
{
    if (rc == 0) {
        fuzz_check_dump(response);
        return;
    }
    json_t *doc = problem_to_json(p);
    fuzz_check_dump(doc);
    json_decref(doc);
}

#endif
