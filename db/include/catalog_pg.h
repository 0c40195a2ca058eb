/*
 * catalog_pg.h - the catalog's schema in PostgreSQL, for replicas that share
 * one database (GPUSIZER_DATABASE_URL, issue 16).
 *
 * This is the first part of the PostgreSQL backend: connecting, and the
 * schema migrations, which are safe with several replicas starting at once -
 * each takes a session advisory lock (CATALOG_PG_LOCK_KEY) before reading the
 * schema version, so the first applies the missing migrations (each in its
 * own transaction, with its version row) while the others wait, then find
 * the schema current and apply nothing. The migrations are db/pg/NNNN_*.sql,
 * compiled in; version 1 is the SQLite catalog's schema version 14.
 * Reads, writes and the snapshot refresh come next (the closing notes of
 * issue 16 say where it stands).
 */
#ifndef GS_CATALOG_PG_H
#define GS_CATALOG_PG_H

#include "gs/status.h"

#include <stdbool.h>
#include <stdint.h>

/* "gpusizer" in ASCII: the advisory lock migrations hold. */
#define CATALOG_PG_LOCK_KEY 0x677075736970657aLL

struct catalog_pg;

/* Whether `location` names a PostgreSQL database (postgres:// or
 * postgresql://) rather than an SQLite file. */
bool catalog_pg_is_url(const char *location);

/* The newest schema version this build knows. */
int catalog_pg_schema_latest(void);

/* Connects to `url` (libpq's URI form; connect_timeout 5 s unless the URL
 * sets one) and brings its schema to the latest version. Errors never repeat
 * the URL, which may hold a password. */
enum gs_status catalog_pg_open(const char *url, struct catalog_pg **out, struct gs_error *err);

/* The schema version recorded in the database. */
enum gs_status catalog_pg_schema_version(struct catalog_pg *pg, int *out, struct gs_error *err);

/* How many times this connection applied a migration (0 when another replica
 * had already brought the schema up to date). */
int catalog_pg_applied(const struct catalog_pg *pg);

void catalog_pg_close(struct catalog_pg *pg);

#endif
