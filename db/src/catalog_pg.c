/*
 * catalog_pg.c - connecting to the PostgreSQL catalog and migrating its
 * schema under an advisory lock (see catalog_pg.h).
 */
#include "catalog_pg.h"

#include "catalog.h"
#include "catalog_int.h"
#include "embedded.h"

#include <errno.h>
#include <libpq-fe.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

extern const struct gs_embedded_file gs_pg_migrations_files[];

struct catalog_pg {
    PGconn *conn;
    int applied;
    bool seeded; /* this connection copied the seed in */
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

/* The rows of `sql` (with `id` as $1 when not NULL), or NULL with the error recorded;
 * `one_row`: exactly one row is expected. */
static PGresult *rows(PGconn *conn, const char *sql, const char *id, bool one_row,
                      const char *what, struct gs_error *err)
{
    const char *values[1] = {id};
    PGresult *res = id != NULL ? PQexecParams(conn, sql, 1, NULL, values, NULL, NULL, 0)
                               : PQexec(conn, sql);
    if (PQresultStatus(res) == PGRES_TUPLES_OK && (!one_row || PQntuples(res) == 1))
        return res;
    pg_error(err, GS_ERR_DB, what, conn, res);
    PQclear(res);
    return NULL;
}

static enum gs_status read_version(PGconn *conn, int *out, struct gs_error *err)
{
    PGresult *res = rows(conn, "SELECT coalesce(max(version), 0) FROM gpusizer_schema", NULL, true,
                         "reading the schema version", err);
    if (res == NULL)
        return GS_ERR_DB;
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

/* ---------------------------------------------------------------- seeding */

/* Tables in foreign-key order. */
static const char *const seed_tables[] = {"gpus", "gpu_aliases", "models", "model_aliases",
                                          "gpu_prices"};

/* Copies table `name` of the SQLite catalog `db` into PostgreSQL, every column as text
 * (reals with 17 significant digits, which read back as the same double). */
static enum gs_status copy_table(PGconn *conn, sqlite3 *db, const char *name, struct gs_error *err)
{
    char sql[128];
    snprintf(sql, sizeof(sql), "SELECT * FROM %s ORDER BY rowid", name);
    sqlite3_stmt *stmt = NULL;
    if (sqlite3_prepare_v2(db, sql, -1, &stmt, NULL) != SQLITE_OK)
        return gs_error_add(err, GS_ERR_DB, "", "seeding %s: %s", name, sqlite3_errmsg(db));
    const int n = sqlite3_column_count(stmt);
    char insert[2048];
    int at = snprintf(insert, sizeof(insert), "INSERT INTO %s (", name);
    for (int c = 0; c < n && at < (int)sizeof(insert); c++)
        at += snprintf(insert + at, sizeof(insert) - (size_t)at, "%s%s", c ? ", " : "",
                       sqlite3_column_name(stmt, c));
    for (int c = 0; c < n && at < (int)sizeof(insert); c++)
        at += snprintf(insert + at, sizeof(insert) - (size_t)at, "%s$%d", c ? ", " : ") VALUES (",
                       c + 1);
    if (at + 2 >= (int)sizeof(insert) || n > 64) {
        sqlite3_finalize(stmt);
        return gs_error_add(err, GS_ERR_INTERNAL, "", "seeding %s: too many columns", name);
    }
    insert[at++] = ')';
    insert[at] = '\0';
    enum gs_status st = GS_OK;
    char numbers[64][32];
    const char *values[64];
    int rc;
    while (st == GS_OK && (rc = sqlite3_step(stmt)) == SQLITE_ROW) {
        for (int c = 0; c < n; c++) {
            switch (sqlite3_column_type(stmt, c)) {
            case SQLITE_NULL:
                values[c] = NULL;
                break;
            case SQLITE_INTEGER:
                snprintf(numbers[c], sizeof(numbers[c]), "%lld",
                         (long long)sqlite3_column_int64(stmt, c));
                values[c] = numbers[c];
                break;
            case SQLITE_FLOAT:
                snprintf(numbers[c], sizeof(numbers[c]), "%.17g", sqlite3_column_double(stmt, c));
                values[c] = numbers[c];
                break;
            default:
                values[c] = (const char *)sqlite3_column_text(stmt, c);
                break;
            }
        }
        PGresult *res = PQexecParams(conn, insert, n, NULL, values, NULL, NULL, 0);
        if (PQresultStatus(res) != PGRES_COMMAND_OK)
            st = pg_error(err, GS_ERR_DB, "seeding the catalog", conn, res);
        PQclear(res);
    }
    if (st == GS_OK && rc != SQLITE_DONE)
        st = gs_error_add(err, GS_ERR_DB, "", "seeding %s: %s", name, sqlite3_errmsg(db));
    sqlite3_finalize(stmt);
    return st;
}

/* A new catalog starts as a copy of the embedded SQLite seed (the same migrations, applied
 * in memory): once, recorded in gpusizer_seeded; the caller holds the advisory lock. */
static enum gs_status seed_locked(struct catalog_pg *pg, struct gs_error *err)
{
    PGresult *res = rows(pg->conn, "SELECT count(*) FROM gpusizer_seeded", NULL, true,
                         "reading the seed marker", err);
    if (res == NULL)
        return GS_ERR_DB;
    const bool seeded = atoi(PQgetvalue(res, 0, 0)) > 0;
    PQclear(res);
    if (seeded)
        return GS_OK;
    struct catalog *seed = NULL;
    enum gs_status st = catalog_open(":memory:", &seed, err);
    if (st != GS_OK)
        return st;
    int sqlite_version = 0;
    st = catalog_schema_version(seed, &sqlite_version, err);
    if (st == GS_OK && !exec_ok(pg->conn, "BEGIN", "starting the seed", err))
        st = GS_ERR_DB;
    for (size_t i = 0; st == GS_OK && i < sizeof(seed_tables) / sizeof(seed_tables[0]); i++)
        st = copy_table(pg->conn, catalog_db(seed), seed_tables[i], err);
    char mark[320];
    snprintf(mark, sizeof(mark),
             "SELECT setval(pg_get_serial_sequence('gpu_prices', 'id'), "
             "coalesce((SELECT max(id) FROM gpu_prices), 0) + 1, false); "
             "INSERT INTO gpusizer_seeded (sqlite_schema_version) VALUES (%d)",
             sqlite_version);
    if (st == GS_OK && (!exec_ok(pg->conn, mark, "recording the seed", err) ||
                        !exec_ok(pg->conn, "COMMIT", "committing the seed", err)))
        st = GS_ERR_DB;
    if (st != GS_OK)
        exec_ok(pg->conn, "ROLLBACK", "rolling back the seed", NULL);
    else
        pg->seeded = true;
    catalog_close(seed);
    return st;
}

/* ---------------------------------------------------------------- snapshots */

struct pg_row {
    const PGresult *res;
    int row;
};

static const char *pg_text(const void *row, int col)
{
    const struct pg_row *r = row;
    return PQgetisnull(r->res, r->row, col) ? NULL : PQgetvalue(r->res, r->row, col);
}

static bool pg_number(const void *row, int col, double *out)
{
    const char *text = pg_text(row, col);
    if (text == NULL)
        return false;
    *out = strtod(text, NULL); /* float8 prints the shortest text that reads back exactly */
    return true;
}

static long long pg_integer(const void *row, int col)
{
    const char *text = pg_text(row, col);
    return text != NULL ? strtoll(text, NULL, 10) : 0;
}

static const struct catalog_row_ops pg_row_ops = {pg_text, pg_number, pg_integer};

/* Every model (or GPU) onto the snapshot, in id order. */
static enum gs_status read_table(PGconn *conn, struct catalog_snapshot *s, bool models,
                                 struct gs_error *err)
{
    /* COLLATE "C": strcmp's order, which the alias merge and lookups expect */
    PGresult *res = rows(conn, models ? CATALOG_MODEL_COLUMNS " ORDER BY id COLLATE \"C\""
                                      : CATALOG_GPU_COLUMNS " ORDER BY id COLLATE \"C\"",
                         NULL, false, models ? "reading models" : "reading GPUs", err);
    if (res == NULL)
        return GS_ERR_DB;
    bool oom = false;
    for (int i = 0; i < PQntuples(res) && !oom; i++) {
        const struct pg_row pr = {res, i};
        const struct catalog_row row = {&pg_row_ops, &pr};
        oom = !catalog_snapshot_read_row(s, models, &row);
    }
    PQclear(res);
    return oom ? gs_error_add(err, GS_ERR_NOMEM, "", "out of memory reading the catalog") : GS_OK;
}

static enum gs_status read_aliases(PGconn *conn, struct catalog_snapshot *s, bool models,
                                   struct gs_error *err)
{
    /* SQLite orders aliases with NOCASE: lower() in strcmp's order */
    PGresult *res = rows(
        conn, models ? "SELECT alias, model_id FROM model_aliases ORDER BY model_id COLLATE \"C\", "
                       "lower(alias) COLLATE \"C\""
                     : "SELECT alias, gpu_id FROM gpu_aliases ORDER BY gpu_id COLLATE \"C\", "
                       "lower(alias) COLLATE \"C\"",
        NULL, false, "reading aliases", err);
    if (res == NULL)
        return GS_ERR_DB;
    size_t at = 0;
    enum gs_status st = GS_OK;
    for (int i = 0; i < PQntuples(res) && st == GS_OK; i++)
        if (!catalog_snapshot_add_alias(s, models, PQgetvalue(res, i, 1), PQgetvalue(res, i, 0),
                                        &at))
            st = gs_error_add(err, GS_ERR_NOMEM, "", "out of memory reading aliases");
    PQclear(res);
    return st;
}

enum gs_status catalog_pg_snapshot_load(struct catalog_pg *pg, struct catalog_snapshot **out,
                                        struct gs_error *err)
{
    return catalog_pg_snapshot_refresh(pg, NULL, out, err);
}

/* ---------------------------------------------------------------- changes */

enum gs_status catalog_pg_data_version(struct catalog_pg *pg, long long *out, struct gs_error *err)
{
    PGresult *res = rows(pg->conn, "SELECT version FROM gpusizer_changes", NULL, true,
                         "reading the change counter", err);
    if (res == NULL)
        return GS_ERR_DB;
    *out = strtoll(PQgetvalue(res, 0, 0), NULL, 10);
    PQclear(res);
    return GS_OK;
}

enum gs_status catalog_pg_listen(struct catalog_pg *pg, struct gs_error *err)
{
    return exec_ok(pg->conn, "LISTEN gpusizer_catalog", "listening for changes", err) ? GS_OK
                                                                                      : GS_ERR_DB;
}

enum gs_status catalog_pg_wait(struct catalog_pg *pg, int timeout_ms, bool *changed,
                               struct gs_error *err)
{
    *changed = false;
    const int fd = PQsocket(pg->conn);
    if (fd < 0)
        return pg_error(err, GS_ERR_BUSY, "waiting for changes", pg->conn, NULL);
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    const long long deadline = now.tv_sec * 1000LL + now.tv_nsec / 1000000 + timeout_ms;
    for (;;) {
        /* input that is not a notification (a server's goodbye before it closes) keeps us
         * waiting: the close itself is what reports the loss */
        if (PQconsumeInput(pg->conn) == 0 || PQstatus(pg->conn) != CONNECTION_OK)
            return pg_error(err, GS_ERR_BUSY, "waiting for changes", pg->conn, NULL);
        PGnotify *n;
        while ((n = PQnotifies(pg->conn)) != NULL) {
            *changed = true;
            PQfreemem(n);
        }
        if (*changed)
            return GS_OK;
        clock_gettime(CLOCK_MONOTONIC, &now);
        const long long left = deadline - (now.tv_sec * 1000LL + now.tv_nsec / 1000000);
        if (left <= 0)
            return GS_OK;
        struct pollfd p = {fd, POLLIN, 0};
        if (poll(&p, 1, (int)left) < 0 && errno != EINTR)
            return gs_error_add(err, GS_ERR_BUSY, "", "PostgreSQL catalog: waiting for changes: %s",
                                strerror(errno));
    }
}

/* A changed (or new) row by id, with its aliases, onto the end of `s`. */
static enum gs_status read_one(PGconn *conn, struct catalog_snapshot *s, bool models,
                               const char *id, struct gs_error *err)
{
    PGresult *res = rows(conn, models ? CATALOG_MODEL_COLUMNS " WHERE id = $1"
                                      : CATALOG_GPU_COLUMNS " WHERE id = $1",
                         id, false, "reading a changed row", err);
    if (res == NULL)
        return GS_ERR_DB;
    bool ok = true;
    if (PQntuples(res) == 1) {
        const struct pg_row pr = {res, 0};
        const struct catalog_row row = {&pg_row_ops, &pr};
        ok = catalog_snapshot_read_row(s, models, &row);
    }
    PQclear(res);
    if (!ok)
        return gs_error_add(err, GS_ERR_NOMEM, "", "out of memory reading the catalog");
    res = rows(conn, models ? "SELECT alias, model_id FROM model_aliases WHERE model_id = $1"
                              " ORDER BY lower(alias) COLLATE \"C\""
                            : "SELECT alias, gpu_id FROM gpu_aliases WHERE gpu_id = $1"
                              " ORDER BY lower(alias) COLLATE \"C\"",
               id, false, "reading aliases", err);
    if (res == NULL)
        return GS_ERR_DB;
    /* the row just read is the last: start the merge there */
    size_t at = (models ? s->model_count : s->gpu_count);
    at = at > 0 ? at - 1 : 0;
    for (int i = 0; i < PQntuples(res) && ok; i++)
        ok = catalog_snapshot_add_alias(s, models, PQgetvalue(res, i, 1), PQgetvalue(res, i, 0), &at);
    PQclear(res);
    return ok ? GS_OK : gs_error_add(err, GS_ERR_NOMEM, "", "out of memory reading aliases");
}

/* One table of a refresh: rows whose (id, revision, created_at) prev holds are shared, the
 * rest read again (as catalog_snapshot_refresh does on SQLite). */
static enum gs_status refresh_table(PGconn *conn, struct catalog_snapshot *s,
                                    const struct catalog_snapshot *prev, bool models,
                                    struct gs_error *err)
{
    PGresult *res = rows(conn, models ? "SELECT id, revision, created_at FROM models"
                                        " ORDER BY id COLLATE \"C\""
                                      : "SELECT id, revision, created_at FROM gpus"
                                        " ORDER BY id COLLATE \"C\"",
                         NULL, false, "reading the catalog", err);
    if (res == NULL)
        return GS_ERR_DB;
    enum gs_status st = GS_OK;
    size_t at = 0;
    for (int i = 0; i < PQntuples(res) && st == GS_OK; i++) {
        const char *id = PQgetvalue(res, i, 0);
        const long long rev = strtoll(PQgetvalue(res, i, 1), NULL, 10);
        const char *created = PQgetisnull(res, i, 2) ? NULL : PQgetvalue(res, i, 2);
        if (catalog_snapshot_unchanged(prev, models, id, rev > 0 ? (uint64_t)rev : 0, created, &at))
            st = catalog_snapshot_share_row(s, prev, models, at)
                     ? GS_OK
                     : gs_error_add(err, GS_ERR_NOMEM, "", "out of memory loading the catalog");
        else
            st = read_one(conn, s, models, id, err);
    }
    PQclear(res);
    return st;
}

enum gs_status catalog_pg_snapshot_refresh(struct catalog_pg *pg, const struct catalog_snapshot *prev,
                                           struct catalog_snapshot **out, struct gs_error *err)
{
    *out = NULL;
    struct catalog_snapshot *s = catalog_snapshot_new();
    if (s == NULL)
        return gs_error_add(err, GS_ERR_NOMEM, "", "out of memory loading the catalog");
    /* one consistent view of every table */
    enum gs_status st = exec_ok(pg->conn, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY",
                                "starting a read", err)
                            ? GS_OK
                            : GS_ERR_DB;
    int version = 0;
    if (st == GS_OK)
        st = read_version(pg->conn, &version, err);
    if (st == GS_OK) {
        catalog_snapshot_set_schema_version(s, version);
        if (prev == NULL || catalog_snapshot_schema_version(prev) != version) {
            /* everything: a first load, or a migration (which may rewrite rows without new
             * revisions) */
            st = read_table(pg->conn, s, true, err);
            if (st == GS_OK)
                st = read_table(pg->conn, s, false, err);
            if (st == GS_OK)
                st = read_aliases(pg->conn, s, true, err);
            if (st == GS_OK)
                st = read_aliases(pg->conn, s, false, err);
        } else {
            st = refresh_table(pg->conn, s, prev, true, err);
            if (st == GS_OK)
                st = refresh_table(pg->conn, s, prev, false, err);
        }
    }
    exec_ok(pg->conn, st == GS_OK ? "COMMIT" : "ROLLBACK", "ending a read", NULL);
    return catalog_snapshot_finish(s, st, out, err);
}

bool catalog_pg_seeded(const struct catalog_pg *pg)
{
    return pg->seeded;
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
    if (st == GS_OK)
        st = seed_locked(pg, err);
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
