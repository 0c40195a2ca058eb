/*
 * test_files.h - temporary catalog files for the C tests: a fresh directory
 * holding one SQLite path, and its removal with the WAL and shared-memory
 * files SQLite leaves beside it.
 */
#ifndef GS_TEST_FILES_H
#define GS_TEST_FILES_H

#include <stddef.h>

struct test_db {
    char dir[64];
    char path[192]; /* a file, or a postgres:// URL */
};

/* Makes /tmp/<prefix>-XXXXXX and names <dir>/catalog.db in it; 0 on success. */
int test_db_make(struct test_db *db, const char *prefix);

/* Removes the catalog, its -wal and -shm files, and the directory. */
void test_db_remove(const struct test_db *db);

/* cmocka setup and teardown: *state becomes a new struct test_db made with
 * the prefix "gs-test", and is removed and freed after the test. */
int test_db_setup(void **state);
int test_db_teardown(void **state);

#endif
