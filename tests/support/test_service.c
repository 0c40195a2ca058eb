/*
 * test_service.c - see test_service.h.
 */
#include "test_service.h"

int test_service_open(struct test_service *t, const char *prefix, bool strict)
{
    t->catalog = NULL;
    t->service = NULL;
    if (test_db_make(&t->db, prefix) != 0)
        return -1;
    struct catalog_snapshot *snap = NULL;
    struct gs_error err;
    gs_error_init(&err);
    if (catalog_open(t->db.path, &t->catalog, &err) != GS_OK ||
        catalog_snapshot_load(t->catalog, &snap, &err) != GS_OK ||
        service_create(snap, &t->service, &err) != GS_OK)
        return -1;
    return strict && err.count != 0 ? -1 : 0;
}

void test_service_close(struct test_service *t)
{
    service_free(t->service);
    catalog_close(t->catalog);
    test_db_remove(&t->db);
}
