/*
 * test_service.h - a seeded temporary catalog and the service over its
 * snapshot, for tests that call the API's operations in-process.
 */
#ifndef GS_TEST_SERVICE_H
#define GS_TEST_SERVICE_H

#include "catalog.h"
#include "api/service.h"
#include "test_files.h"

struct test_service {
    struct test_db db;
    struct catalog *catalog;
    struct service *service;
};

/* Makes the catalog under /tmp/<prefix>-XXXXXX, seeds it and builds the
 * service; 0 on success. `strict`: every seeded config must also decode
 * without a warning. */
int test_service_open(struct test_service *t, const char *prefix, bool strict);

/* Frees the service and the catalog and removes the files. */
void test_service_close(struct test_service *t);

#endif
