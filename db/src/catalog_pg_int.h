/* catalog_pg_int.h - what the PostgreSQL backend shares with the other db
 * modules (catalog.c, catalog_sql.c) and nothing else sees. */
#ifndef GS_CATALOG_PG_INT_H
#define GS_CATALOG_PG_INT_H

#include "gs/status.h"

#include <libpq-fe.h>
#include <stdbool.h>

struct catalog;
struct catalog_pg;

/* The PostgreSQL backend of a catalog handle, NULL for an SQLite one (catalog.c). */
struct catalog_pg *catalog_pg_of(struct catalog *catalog);

/* The connection, reconnected first when it was lost (at most once per
 * backoff step: 250 ms doubling to 5 s); NULL with GS_ERR_BUSY recorded while
 * the database cannot be reached. */
PGconn *catalog_pg_conn(struct catalog_pg *pg, struct gs_error *err);

/* The connection as it is, never reconnected: inside a transaction a reconnect would run the
 * rest of it outside any transaction, so a lost connection must fail the statement. */
PGconn *catalog_pg_current(struct catalog_pg *pg);

/* The status of a failed statement, recorded in `err` (see catalog_stmt_fail). */
enum gs_status catalog_pg_fail(PGconn *conn, const PGresult *res, struct gs_error *err,
                               const char *pointer, const char *what);

/* A transaction: a write holds the catalog's advisory lock until it ends. */
enum gs_status catalog_pg_begin(struct catalog_pg *pg, bool write, struct gs_error *err);
enum gs_status catalog_pg_end(struct catalog_pg *pg, enum gs_status st, struct gs_error *err);

/* PQexec / PQexecParams (n > 0), giving up after 4 s without a byte of the answer: NULL then (the
 * connection is then shut, so the next use reconnects) or the connection failed;
 * catalog_pg_fail says which. The run-time path uses it; startup (migrations, seeding)
 * waits as long as the database takes. */
PGresult *catalog_pg_exec_bounded(PGconn *conn, const char *sql, int n, const Oid *types,
                                  const char *const *values);

/* The session-level advisory lock every write transaction's xact lock waits on (see
 * catalog_writers_lock); the unlock is a no-op on a lost connection, which dropped it. */
enum gs_status catalog_pg_writers_lock(struct catalog_pg *pg, struct gs_error *err);
void catalog_pg_writers_unlock(struct catalog_pg *pg);

/* Row counts, for the readiness probe. */
enum gs_status catalog_pg_ping(struct catalog_pg *pg, size_t *models, size_t *gpus,
                               struct gs_error *err);

#endif
