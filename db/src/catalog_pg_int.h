/* catalog_pg_int.h - what the PostgreSQL backend's files share and nothing else sees: the
 * connection (catalog_pg.c) that opening (pg_open.c), the seed (pg_seed.c), snapshots
 * (pg_snapshot.c), statements (pg_sql.c) and the backend table (pg_backend.c) use. */
#ifndef GS_CATALOG_PG_INT_H
#define GS_CATALOG_PG_INT_H

#include "gs/status.h"

#include <libpq-fe.h>
#include <stdbool.h>
#include <stddef.h>

struct catalog_pg {
    PGconn *conn;
    int applied;
    bool seeded;          /* this connection copied the seed in */
    int seed_added, seed_updated, seed_removed; /* and what a newer seed changed */
    bool listening;       /* LISTEN again after a reconnect */
    bool broken;          /* the socket failed while libpq still calls it connected */
    bool missed;          /* reconnected while listening: notifications may have been lost */
    int backoff_ms;       /* 0 while connected; the wait before the next reconnect */
    long long retry_at;   /* monotonic ms: no reconnect attempt before */
    char *url;            /* what to connect with again (a listener's second connection) */
    char *password;
};

/* A handle for `url` (and `password` unless NULL; both copied), not connected yet; NULL when
 * out of memory. Closed with catalog_pg_close. */
struct catalog_pg *catalog_pg_new(const char *url, const char *password);

/* Connects `pg`; GS_ERR_BUSY when the database cannot be reached. */
enum gs_status catalog_pg_connect(struct catalog_pg *pg, struct gs_error *err);

/* The settings every session gets (lock_timeout 5 s, statement_timeout 30 s); false with
 * the error recorded when they could not be set. */
bool catalog_pg_session_setup(PGconn *conn, struct gs_error *err);

/* The connection, reconnected first when it was lost (at most once per
 * backoff step: 250 ms doubling to 5 s); NULL with GS_ERR_BUSY recorded while
 * the database cannot be reached. */
PGconn *catalog_pg_conn(struct catalog_pg *pg, struct gs_error *err);

/* The connection as it is, never reconnected: inside a transaction a reconnect would run the
 * rest of it outside any transaction, so a lost connection must fail the statement. */
PGconn *catalog_pg_current(struct catalog_pg *pg);

/* `st`, recorded in `err` as "PostgreSQL catalog: <what>: " and the first line of libpq's
 * message for `res` (or the connection's when NULL), which never holds the URL. */
enum gs_status catalog_pg_error(struct gs_error *err, enum gs_status st, const char *what,
                                const PGconn *conn, const PGresult *res);

/* The status of a failed statement, recorded in `err` (see catalog_stmt_fail). */
enum gs_status catalog_pg_fail(PGconn *conn, const PGresult *res, struct gs_error *err,
                               const char *pointer, const char *what);

/* Runs `sql` with no time bound (startup: migrations, seeding); true when it succeeded, else
 * catalog_pg_error(GS_ERR_DB) recorded. */
bool catalog_pg_exec_ok(PGconn *conn, const char *sql, const char *what, struct gs_error *err);

/* The rows of `sql` (with `id` as $1 when not NULL), bounded like catalog_pg_exec_bounded, or
 * NULL with the error recorded; `one_row`: exactly one row is expected. The caller clears
 * the result. */
PGresult *catalog_pg_rows(PGconn *conn, const char *sql, const char *id, bool one_row,
                          const char *what, struct gs_error *err);

/* The schema version recorded in the database (gpusizer_schema). */
enum gs_status catalog_pg_read_version(PGconn *conn, int *out, struct gs_error *err);

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
