/* test_files.c - temporary catalog files for the C tests (see test_files.h). */
#include "test_files.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int test_db_make(struct test_db *db, const char *prefix)
{
    snprintf(db->dir, sizeof(db->dir), "/tmp/%s-XXXXXX", prefix);
    if (mkdtemp(db->dir) == NULL)
        return -1;
    snprintf(db->path, sizeof(db->path), "%s/catalog.db", db->dir);
    return 0;
}

void test_db_remove(const struct test_db *db)
{
    char path[sizeof(db->path) + 8];
    const char *suffixes[] = {"", "-wal", "-shm"};
    for (int i = 0; i < 3; i++) {
        snprintf(path, sizeof(path), "%s%s", db->path, suffixes[i]);
        unlink(path);
    }
    rmdir(db->dir);
}

int test_db_setup(void **state)
{
    struct test_db *db = calloc(1, sizeof(*db));
    if (db == NULL || test_db_make(db, "gs-test") != 0) {
        free(db);
        return -1;
    }
    *state = db;
    return 0;
}

int test_db_teardown(void **state)
{
    struct test_db *db = *state;
    test_db_remove(db);
    free(db);
    return 0;
}
