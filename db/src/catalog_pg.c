/*
 * catalog_pg.c - connecting to the PostgreSQL catalog and migrating its
 * schema under an advisory lock (see catalog_pg.h).
 */
#include "catalog_pg.h"

#include "embedded.h"

#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const struct gs_embedded_file gs_pg_migrations_files[];

struct catalog_pg {
    PGconn *conn;
    int applied;
};

bool catalog_pg_is_url(const char *location)
{
    return location != NULL &&
           (strncmp(location, "postgres://", 11) == 0 || strncmp(location, "postgresql://", 13) == 0);
}

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

/* The first line of libpq's message, without the URL (it never contains it). */
static enum gs_status pg_error(struct gs_error *err, enum gs_status st, const char *what,
                               const PGconn *conn, const PGresult *res)
{
    const char *msg = res != NULL ? PQresultErrorMessage(res) : PQerrorMessage(conn);
    const size_t n = strcspn(msg != NULL ? msg : "", "\n");
    return gs_error_add(err, st, "", "PostgreSQL catalog: %s: %.*s", what, (int)n,
                        msg != NULL ? msg : "");
}

/* Runs `sql`; true when it succeeded. */
static bool exec_ok(PGconn *conn, const char *sql, const char *what, struct gs_error *err)
{
    PGresult *res = PQexec(conn, sql);
    const ExecStatusType s = PQresultStatus(res);
    const bool ok = s == PGRES_COMMAND_OK || s == PGRES_TUPLES_OK;
    if (!ok)
        pg_error(err, GS_ERR_DB, what, conn, res);
    PQclear(res);
    return ok;
}

static enum gs_status read_version(PGconn *conn, int *out, struct gs_error *err)
{
    PGresult *res = PQexec(conn, "SELECT coalesce(max(version), 0) FROM gpusizer_schema");
    if (PQresultStatus(res) != PGRES_TUPLES_OK || PQntuples(res) != 1) {
        enum gs_status st = pg_error(err, GS_ERR_DB, "reading the schema version", conn, res);
        PQclear(res);
        return st;
    }
    *out = atoi(PQgetvalue(res, 0, 0));
    PQclear(res);
    return GS_OK;
}

/* Applies every migration above the recorded version, each in a transaction
 * with its version row; the caller holds the advisory lock. */
static enum gs_status migrate_locked(struct catalog_pg *pg, struct gs_error *err)
{
    if (!exec_ok(pg->conn,
                 "CREATE TABLE IF NOT EXISTS gpusizer_schema (version INT PRIMARY KEY, "
                 "applied_at TIMESTAMPTZ NOT NULL DEFAULT now())",
                 "creating the schema version table", err))
        return GS_ERR_DB;
    int current = 0;
    enum gs_status st = read_version(pg->conn, &current, err);
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
        if (!exec_ok(pg->conn, "BEGIN", "starting a migration", err))
            return GS_ERR_DB;
        if (!exec_ok(pg->conn, (const char *)f->data, f->name, err) ||
            !exec_ok(pg->conn, record, "recording the schema version", err) ||
            !exec_ok(pg->conn, "COMMIT", "committing a migration", err)) {
            exec_ok(pg->conn, "ROLLBACK", "rolling back", NULL);
            return GS_ERR_DB;
        }
        pg->applied++;
    }
    return GS_OK;
}

enum gs_status catalog_pg_open(const char *url, struct catalog_pg **out, struct gs_error *err)
{
    *out = NULL;
    if (!catalog_pg_is_url(url))
        return gs_error_add(err, GS_ERR_INVALID, "",
                            "a PostgreSQL catalog is named by a postgres:// or postgresql:// URL");
    struct catalog_pg *pg = calloc(1, sizeof(*pg));
    if (pg == NULL)
        return gs_error_add(err, GS_ERR_NOMEM, "", "out of memory");
    /* the URL's own settings come after the default timeout, so they win */
    const char *const keys[] = {"connect_timeout", "application_name", "dbname", NULL};
    const char *const values[] = {"5", "gpusizer", url, NULL};
    pg->conn = PQconnectdbParams(keys, values, 1);
    if (pg->conn == NULL || PQstatus(pg->conn) != CONNECTION_OK) {
        enum gs_status st = pg->conn != NULL
                                ? pg_error(err, GS_ERR_BUSY, "connecting", pg->conn, NULL)
                                : gs_error_add(err, GS_ERR_NOMEM, "", "out of memory");
        catalog_pg_close(pg);
        return st;
    }
    char lock[96];
    snprintf(lock, sizeof(lock), "SELECT pg_advisory_lock(%lld)", (long long)CATALOG_PG_LOCK_KEY);
    if (!exec_ok(pg->conn, "SET client_min_messages = warning", "configuring the session", err) ||
        !exec_ok(pg->conn, lock, "waiting for the migration lock", err)) {
        catalog_pg_close(pg);
        return GS_ERR_DB;
    }
    enum gs_status st = migrate_locked(pg, err);
    snprintf(lock, sizeof(lock), "SELECT pg_advisory_unlock(%lld)", (long long)CATALOG_PG_LOCK_KEY);
    if (!exec_ok(pg->conn, lock, "releasing the migration lock", err) && st == GS_OK)
        st = GS_ERR_DB;
    if (st != GS_OK) {
        catalog_pg_close(pg);
        return st;
    }
    *out = pg;
    return GS_OK;
}

enum gs_status catalog_pg_schema_version(struct catalog_pg *pg, int *out, struct gs_error *err)
{
    return read_version(pg->conn, out, err);
}

int catalog_pg_applied(const struct catalog_pg *pg)
{
    return pg->applied;
}

void catalog_pg_close(struct catalog_pg *pg)
{
    if (pg == NULL)
        return;
    if (pg->conn != NULL)
        PQfinish(pg->conn);
    free(pg);
}
