/* catalog_int.h - the catalog handle as the db modules see it, and nothing else but the
 * tests of the SQLite connection: a backend's table (catalog_backend.h) and that backend's
 * own connection. */
#ifndef GS_CATALOG_INT_H
#define GS_CATALOG_INT_H

#include <sqlite3.h>

struct catalog_backend;

struct catalog {
    const struct catalog_backend *backend; /* static, never NULL */
    void *impl;                            /* the backend's connection, owned */
};

/* The SQLite connection behind a handle (borrowed), NULL for a PostgreSQL catalog
 * (lite_backend.c). */
sqlite3 *catalog_db(struct catalog *catalog);

#endif
