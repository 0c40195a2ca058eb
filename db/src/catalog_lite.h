/*
 * catalog_lite.h - an SQLite catalog file: opening it (created if absent, WAL, a busy
 * timeout, synchronous FULL), bringing its schema up through the embedded migrations
 * (db/migrations/NNNN_*.sql, compiled in and keyed by PRAGMA user_version, which also seed
 * the first entries), and its probes. The SQLite backend (lite_backend.c) serves a catalog
 * handle with it; the PostgreSQL seed (pg_seed.c) reads the embedded seed through it.
 *
 * A struct catalog_lite is one connection and its statement cache (stmt_cache.h): use it
 * from one thread at a time.
 */
#ifndef GS_CATALOG_LITE_H
#define GS_CATALOG_LITE_H

#include "gs/status.h"

#include <sqlite3.h>
#include <stddef.h>

struct catalog_lite;
struct stmt_cache;

/* Opens (creating if absent) the catalog at `path` and migrates it up to `version` (0 to
 * catalog_schema_latest(), catalog.h). On success *out is a new connection the caller
 * closes with catalog_lite_close; on failure *out is left as it was. */
enum gs_status catalog_lite_open(const char *path, int version, struct catalog_lite **out,
                                 struct gs_error *err);

/* Finalizes the cached statements, then closes the connection. NULL is a no-op. */
void catalog_lite_close(struct catalog_lite *lite);

/* The connection and its statement cache (borrowed; every statement borrowed from the cache
 * goes back to it before the connection closes). */
sqlite3 *catalog_lite_db(struct catalog_lite *lite);
struct stmt_cache *catalog_lite_cache(struct catalog_lite *lite);

/* PRAGMA user_version. */
enum gs_status catalog_lite_schema_version(struct catalog_lite *lite, int *out,
                                           struct gs_error *err);

/* Counts rows with one cheap query each: the readiness probe. */
enum gs_status catalog_lite_ping(struct catalog_lite *lite, size_t *models, size_t *gpus,
                                 struct gs_error *err);

#endif
