/*
 * pg_open.c - opening a PostgreSQL catalog (see catalog_pg.h): connect, take the migration
 * lock, apply the missing schema migrations (db/pg/NNNN_*.sql, compiled in), seed, set the
 * session up.
 */
#include "catalog_pg.h"

#include "catalog.h"
#include "catalog_pg_int.h"
#include "embedded.h"
#include "pg_seed.h"

#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>

extern const struct gs_embedded_file gs_pg_migrations_files[];

/* NNNN of "NNNN_name.sql", 0 for anything else. */
static int file_version(const char *name)
{
    int v = 0;
    for (int i = 0; i < 4; i++) {
        if (name[i] < '0' || name[i] > '9')
            return 0;
        v = v * 10 + (name[i] - '0');
    }
    return name[4] == '_' ? v : 0;
}

int catalog_pg_schema_latest(void)
{
    int latest = 0;
    for (const struct gs_embedded_file *f = gs_pg_migrations_files; f->name != NULL; f++)
        if (file_version(f->name) > latest)
            latest = file_version(f->name);
    return latest;
}

/* Applies every migration above the recorded version, each in a transaction
 * with its version row; the caller holds the advisory lock. */
static enum gs_status migrate_locked(struct catalog_pg *pg, struct gs_error *err)
{
    if (!catalog_pg_exec_ok(pg->conn,
                            "CREATE TABLE IF NOT EXISTS gpusizer_schema (version INT PRIMARY KEY, "
                            "applied_at TIMESTAMPTZ NOT NULL DEFAULT now())",
                            "creating the schema version table", err))
        return GS_ERR_DB;
    int current = 0;
    enum gs_status st = catalog_pg_read_version(pg->conn, &current, err);
    if (st != GS_OK)
        return st;
    const int latest = catalog_pg_schema_latest();
    if (current > latest)
        return gs_error_add(err, GS_ERR_CONFLICT, "",
                            "PostgreSQL catalog: schema version %d is newer than this gpusizer "
                            "knows (%d); run the newer gpusizer",
                            current, latest);
    for (int v = current + 1; v <= latest; v++) {
        const struct gs_embedded_file *f = NULL;
        for (const struct gs_embedded_file *m = gs_pg_migrations_files; m->name != NULL; m++)
            if (file_version(m->name) == v)
                f = m;
        if (f == NULL)
            return gs_error_add(err, GS_ERR_INTERNAL, "",
                                "PostgreSQL catalog: migration %d is missing from this build", v);
        char record[96];
        snprintf(record, sizeof(record), "INSERT INTO gpusizer_schema (version) VALUES (%d)", v);
        if (!catalog_pg_exec_ok(pg->conn, "BEGIN", "starting a migration", err))
            return GS_ERR_DB;
        if (!catalog_pg_exec_ok(pg->conn, (const char *)f->data, f->name, err) ||
            !catalog_pg_exec_ok(pg->conn, record, "recording the schema version", err) ||
            !catalog_pg_exec_ok(pg->conn, "COMMIT", "committing a migration", err)) {
            catalog_pg_exec_ok(pg->conn, "ROLLBACK", "rolling back", NULL);
            return GS_ERR_DB;
        }
        pg->applied++;
    }
    return GS_OK;
}

/* The seed, under the migration lock; what it did is kept for catalog_pg_seeded and
 * catalog_pg_seed_changes. */
static enum gs_status seed_locked(struct catalog_pg *pg, int version, struct gs_error *err)
{
    struct pg_seed_result done;
    enum gs_status st = pg_seed_locked(pg->conn, version, &done, err);
    if (st == GS_OK) {
        pg->seeded = done.seeded;
        pg->seed_added = done.added;
        pg->seed_updated = done.updated;
        pg->seed_removed = done.removed;
    }
    return st;
}

static enum gs_status open_seeded(const char *url, const char *password, int seed_version,
                                  struct catalog_pg **out, struct gs_error *err)
{
    *out = NULL;
    if (!catalog_pg_is_url(url))
        return gs_error_add(err, GS_ERR_INVALID, "",
                            "a PostgreSQL catalog is named by a postgres:// or postgresql:// URL");
    struct catalog_pg *pg = catalog_pg_new(url, password);
    if (pg == NULL)
        return gs_error_add(err, GS_ERR_NOMEM, "", "out of memory");
    enum gs_status st = catalog_pg_connect(pg, err);
    if (st != GS_OK) {
        catalog_pg_close(pg);
        return st;
    }
    char lock[96];
    snprintf(lock, sizeof(lock), "SELECT pg_advisory_lock(%lld)", (long long)CATALOG_PG_LOCK_KEY);
    /* no lock timeout yet: a replica waits as long as another one migrates */
    if (!catalog_pg_exec_ok(pg->conn, "SET client_min_messages = warning",
                            "configuring the session", err) ||
        !catalog_pg_exec_ok(pg->conn, lock, "waiting for the migration lock", err)) {
        catalog_pg_close(pg);
        return GS_ERR_DB;
    }
    st = migrate_locked(pg, err);
    if (st == GS_OK)
        st = seed_locked(pg, seed_version, err);
    snprintf(lock, sizeof(lock), "SELECT pg_advisory_unlock(%lld)", (long long)CATALOG_PG_LOCK_KEY);
    if (!catalog_pg_exec_ok(pg->conn, lock, "releasing the migration lock", err) && st == GS_OK)
        st = GS_ERR_DB;
    if (st == GS_OK && !catalog_pg_session_setup(pg->conn, err))
        st = GS_ERR_DB;
    if (st != GS_OK) {
        catalog_pg_close(pg);
        return st;
    }
    *out = pg;
    return GS_OK;
}

enum gs_status catalog_pg_open_auth(const char *url, const char *password, struct catalog_pg **out,
                                    struct gs_error *err)
{
    return open_seeded(url, password, 0, out, err);
}

enum gs_status catalog_pg_open(const char *url, struct catalog_pg **out, struct gs_error *err)
{
    return open_seeded(url, NULL, 0, out, err);
}

enum gs_status catalog_pg_open_seed_at(const char *url, int sqlite_version,
                                       struct catalog_pg **out, struct gs_error *err)
{
    if (sqlite_version < 1 || sqlite_version > catalog_schema_latest())
        return gs_error_add(err, GS_ERR_INTERNAL, "", "no SQLite schema version %d",
                            sqlite_version);
    return open_seeded(url, NULL, sqlite_version, out, err);
}

void catalog_pg_seed_changes(const struct catalog_pg *pg, int *added, int *updated, int *removed)
{
    *added = pg->seed_added;
    *updated = pg->seed_updated;
    *removed = pg->seed_removed;
}

bool catalog_pg_seeded(const struct catalog_pg *pg)
{
    return pg->seeded;
}

int catalog_pg_applied(const struct catalog_pg *pg)
{
    return pg->applied;
}
