/*
 * catalog_pg.h - the catalog's schema in PostgreSQL, for replicas that share
 * one database (GPUSIZER_DATABASE_URL, issue 16).
 *
 * The first parts of the PostgreSQL backend: connecting; the schema
 * migrations, safe with several replicas starting at once - each takes a
 * session advisory lock (CATALOG_PG_LOCK_KEY) before reading the schema
 * version, so the first applies the missing migrations (each in its own
 * transaction, with its version row) while the others wait, then find the
 * schema current and apply nothing; the seed - under the same lock, an empty
 * catalog gets a copy of the embedded SQLite catalog's rows, once, and a
 * catalog seeded by an older gpusizer gets what the newer seed changed
 * (SQLite's seed migrations, so both backends follow one seed): new entries
 * added, entries no user wrote since they were seeded updated or removed,
 * the users' own left alone (gpusizer_seed_rows records what came from the
 * seed at which revision); and
 * snapshots, the same structures the SQLite catalog loads. The migrations
 * are db/pg/NNNN_*.sql, compiled in; version 1 is the SQLite catalog's
 * schema version 14. Writes go through catalog_write.h like SQLite's (a
 * struct catalog opened on a URL, catalog.h); a second connection LISTENs
 * for other replicas' changes (catalog_pg_open_listener, catalog_pg_wait).
 *
 * A connection that breaks (the database restarted, failed over or became
 * unreachable) is reconnected by the next call that needs it, at most once
 * per backoff step (250 ms doubling to 5 s); until then calls fail fast with
 * GS_ERR_BUSY. Sessions run with lock_timeout 5 s, statement_timeout 30 s and
 * TCP keepalives.
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

/* Like catalog_pg_open, with a password from elsewhere (a file): used unless the URL
 * has one. Both are copied. */
enum gs_status catalog_pg_open_auth(const char *url, const char *password, struct catalog_pg **out,
                                    struct gs_error *err);

/* A second connection with `like`'s settings that LISTENs for changes (no migration). A
 * database that cannot be reached yet is not an error: catalog_pg_wait keeps reconnecting,
 * and reports a change after each reconnect (notifications sent meanwhile are lost). */
enum gs_status catalog_pg_open_listener(const struct catalog_pg *like, struct catalog_pg **out,
                                        struct gs_error *err);

/* Every row in one consistent read (REPEATABLE READ), as catalog_snapshot_load
 * reads an SQLite catalog: rows in id order, aliases attached. */
struct catalog_snapshot;
enum gs_status catalog_pg_snapshot_load(struct catalog_pg *pg, struct catalog_snapshot **out,
                                        struct gs_error *err);

/* Like catalog_pg_snapshot_load, sharing with `prev` every row whose (id,
 * revision, created_at) is unchanged (every write bumps the revision), as
 * catalog_snapshot_refresh does on SQLite; everything is read again when the
 * schema version differs. `prev` may be NULL. */
enum gs_status catalog_pg_snapshot_refresh(struct catalog_pg *pg, const struct catalog_snapshot *prev,
                                           struct catalog_snapshot **out, struct gs_error *err);

/* The catalog's change counter: every statement that changes a catalog table
 * bumps it (a trigger) and notifies channel gpusizer_catalog with it. */
enum gs_status catalog_pg_data_version(struct catalog_pg *pg, long long *out, struct gs_error *err);

/* LISTENs for changes on this connection; catalog_pg_wait then waits up to
 * `timeout_ms` (0: only what already arrived) and sets *changed when any
 * notification came (all pending ones are consumed). A lost connection is
 * GS_ERR_BUSY. */
enum gs_status catalog_pg_listen(struct catalog_pg *pg, struct gs_error *err);
enum gs_status catalog_pg_wait(struct catalog_pg *pg, int timeout_ms, bool *changed,
                               struct gs_error *err);

/* For tests of seed upgrades: opens like catalog_pg_open but seeds (or brings the seed up
 * to) the embedded SQLite seed as of SQLite schema `sqlite_version`, not the latest. */
enum gs_status catalog_pg_open_seed_at(const char *url, int sqlite_version,
                                       struct catalog_pg **out, struct gs_error *err);

/* What this connection's seed sync did to a catalog seeded by an older gpusizer: entries
 * added, updated (never written by a user since they were seeded) and removed. */
void catalog_pg_seed_changes(const struct catalog_pg *pg, int *added, int *updated, int *removed);

/* Whether this connection seeded the catalog (false: it was seeded before). */
bool catalog_pg_seeded(const struct catalog_pg *pg);

/* The schema version recorded in the database. */
enum gs_status catalog_pg_schema_version(struct catalog_pg *pg, int *out, struct gs_error *err);

/* How many times this connection applied a migration (0 when another replica
 * had already brought the schema up to date). */
int catalog_pg_applied(const struct catalog_pg *pg);

void catalog_pg_close(struct catalog_pg *pg);

#endif
