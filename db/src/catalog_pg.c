/*
 * catalog_pg.c - connecting to the PostgreSQL catalog and migrating its
 * schema under an advisory lock (see catalog_pg.h).
 */
#include "catalog_pg.h"

#include "catalog.h"
#include "catalog_int.h"
#include "catalog_pg_int.h"
#include "embedded.h"

#include <errno.h>
#include <libpq-fe.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

extern const struct gs_embedded_file gs_pg_migrations_files[];

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

/* Reconnect attempts: 250 ms after a failure, doubling to 5 s. */
#define BACKOFF_FIRST_MS 250
#define BACKOFF_MAX_MS 5000

static long long mono_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

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
/* How long a statement may go without a byte of its answer at run time. lock_timeout (5 s) and
 * statement_timeout bound what the server does; a server that does nothing (stopped,
 * frozen, its host gone without a reset) answers nothing and its kernel still
 * acknowledges every byte, so only the client can bound the wait: past this the
 * connection is shut, the request answers 503 and the next one reconnects. Below
 * lock_timeout, so a wait for another replica's writer reads the same as a frozen
 * server: busy, retry shortly. */
#define STATEMENT_WAIT_MS 4000

static __thread bool statement_timed_out; /* the last bounded statement got no answer */

static enum gs_status pg_error(struct gs_error *err, enum gs_status st, const char *what,
                               const PGconn *conn, const PGresult *res)
{
    const char *msg = res != NULL ? PQresultErrorMessage(res) : PQerrorMessage(conn);
    if (res == NULL && statement_timed_out)
        msg = "no answer within 4 s (the server stopped or unreachable)";
    const size_t n = strcspn(msg != NULL ? msg : "", "\n");
    return gs_error_add(err, st, "", "PostgreSQL catalog: %s: %.*s", what, (int)n,
                        msg != NULL ? msg : "");
}

static long long now_ms_mono(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

PGresult *catalog_pg_exec_bounded(PGconn *conn, const char *sql, int n, const Oid *types,
                                  const char *const *values)
{
    statement_timed_out = false;
    const int sent = n > 0 ? PQsendQueryParams(conn, sql, n, types, values, NULL, NULL, 0)
                           : PQsendQuery(conn, sql);
    if (!sent)
        return NULL;
    long long deadline = now_ms_mono() + STATEMENT_WAIT_MS;
    PGresult *last = NULL;
    bool failed = false;
    for (;;) {
        int flushed = PQflush(conn);
        while (!PQisBusy(conn) && flushed == 0) {
            PGresult *r = PQgetResult(conn);
            if (r == NULL)
                return last; /* every result read: the statement is done */
            /* as PQexec: the first error is the answer, the results after it dropped */
            if (failed) {
                PQclear(r);
                continue;
            }
            PQclear(last);
            last = r;
            const ExecStatusType st = PQresultStatus(r);
            failed = st == PGRES_FATAL_ERROR || st == PGRES_BAD_RESPONSE;
        }
        if (flushed < 0)
            break;
        const long long left = deadline - now_ms_mono();
        if (left <= 0) {
            statement_timed_out = true;
            break;
        }
        struct pollfd pfd = {PQsocket(conn), (short)(POLLIN | (flushed ? POLLOUT : 0)), 0};
        const int ready = poll(&pfd, 1, (int)left);
        if (ready < 0 && errno != EINTR)
            break;
        if (ready > 0 && !PQconsumeInput(conn))
            break;
        if (ready > 0) /* bytes came: the server is alive, however long its answer takes */
            deadline = now_ms_mono() + STATEMENT_WAIT_MS;
    }
    /* no answer in time, or the connection failed: shut the socket so libpq sees it closed
     * (status CONNECTION_BAD, and the next use reconnects), then drain what it reports */
    PQclear(last);
    if (statement_timed_out && PQsocket(conn) >= 0)
        shutdown(PQsocket(conn), SHUT_RDWR);
    PQconsumeInput(conn);
    for (PGresult *r = PQgetResult(conn); r != NULL; r = PQgetResult(conn))
        PQclear(r);
    return NULL;
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
    PGresult *res = catalog_pg_exec_bounded(conn, sql, id != NULL ? 1 : 0, NULL, values);
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

/* The current row of an SQLite statement as libpq text parameters: reals with 17 significant
 * digits, which read back as the same double. */
#define SEED_COLUMNS_MAX 64
struct lite_row {
    int n;
    const char *values[SEED_COLUMNS_MAX];
    char numbers[SEED_COLUMNS_MAX][32];
};

static void lite_values(sqlite3_stmt *stmt, struct lite_row *r)
{
    r->n = sqlite3_column_count(stmt);
    for (int c = 0; c < r->n && c < SEED_COLUMNS_MAX; c++) {
        switch (sqlite3_column_type(stmt, c)) {
        case SQLITE_NULL:
            r->values[c] = NULL;
            break;
        case SQLITE_INTEGER:
            snprintf(r->numbers[c], sizeof(r->numbers[c]), "%lld",
                     (long long)sqlite3_column_int64(stmt, c));
            r->values[c] = r->numbers[c];
            break;
        case SQLITE_FLOAT:
            snprintf(r->numbers[c], sizeof(r->numbers[c]), "%.17g",
                     sqlite3_column_double(stmt, c));
            r->values[c] = r->numbers[c];
            break;
        default:
            r->values[c] = (const char *)sqlite3_column_text(stmt, c);
            break;
        }
    }
}

/* "INSERT INTO name (columns of stmt) VALUES ($1, ...)" into `out`; false when too long. */
static bool insert_sql(sqlite3_stmt *stmt, const char *name, char *out, size_t cap)
{
    const int n = sqlite3_column_count(stmt);
    size_t at = (size_t)snprintf(out, cap, "INSERT INTO %s (", name);
    for (int c = 0; c < n && at < cap; c++)
        at += (size_t)snprintf(out + at, cap - at, "%s%s", c ? ", " : "",
                               sqlite3_column_name(stmt, c));
    for (int c = 0; c < n && at < cap; c++)
        at += (size_t)snprintf(out + at, cap - at, "%s$%d", c ? ", " : ") VALUES (", c + 1);
    if (at + 2 >= cap || n > SEED_COLUMNS_MAX)
        return false;
    out[at++] = ')';
    out[at] = '\0';
    return true;
}

static enum gs_status params_ok(PGconn *conn, const char *sql, int n, const char *const *values,
                                const char *what, struct gs_error *err)
{
    PGresult *res = PQexecParams(conn, sql, n, NULL, values, NULL, NULL, 0);
    const ExecStatusType s = PQresultStatus(res);
    enum gs_status st = s == PGRES_COMMAND_OK || s == PGRES_TUPLES_OK
                            ? GS_OK
                            : pg_error(err, GS_ERR_DB, what, conn, res);
    PQclear(res);
    return st;
}

/* Copies table `name` of the SQLite catalog `db` into PostgreSQL, every column as text;
 * `where` (may be NULL) selects the rows, with `id` as its ?1. */
static enum gs_status copy_rows(PGconn *conn, sqlite3 *db, const char *name, const char *where,
                                const char *id, struct gs_error *err)
{
    char sql[256];
    snprintf(sql, sizeof(sql), "SELECT * FROM %s%s%s ORDER BY rowid", name,
             where != NULL ? " WHERE " : "", where != NULL ? where : "");
    sqlite3_stmt *stmt = NULL;
    if (sqlite3_prepare_v2(db, sql, -1, &stmt, NULL) != SQLITE_OK)
        return gs_error_add(err, GS_ERR_DB, "", "seeding %s: %s", name, sqlite3_errmsg(db));
    if (id != NULL)
        sqlite3_bind_text(stmt, 1, id, -1, SQLITE_TRANSIENT);
    char insert[2048];
    if (!insert_sql(stmt, name, insert, sizeof(insert))) {
        sqlite3_finalize(stmt);
        return gs_error_add(err, GS_ERR_INTERNAL, "", "seeding %s: too many columns", name);
    }
    enum gs_status st = GS_OK;
    struct lite_row row;
    int rc;
    while (st == GS_OK && (rc = sqlite3_step(stmt)) == SQLITE_ROW) {
        lite_values(stmt, &row);
        st = params_ok(conn, insert, row.n, row.values, "seeding the catalog", err);
    }
    if (st == GS_OK && rc != SQLITE_DONE)
        st = gs_error_add(err, GS_ERR_DB, "", "seeding %s: %s", name, sqlite3_errmsg(db));
    sqlite3_finalize(stmt);
    return st;
}

/* What a seed sync did, for the tests and the log. */
struct seed_counts {
    int added, updated, removed;
};

/* Whether the seed row (the SQLite statement's current row) says something other than the
 * PostgreSQL row `id` of `table`: any column but the bookkeeping ones, compared as numbers
 * where SQLite holds numbers. */
static bool row_differs(PGconn *conn, sqlite3_stmt *seed, const char *table, const char *id,
                        bool *failed)
{
    char sql[2048];
    size_t at = (size_t)snprintf(sql, sizeof(sql), "SELECT ");
    const int n = sqlite3_column_count(seed);
    for (int c = 0; c < n && at < sizeof(sql); c++)
        at += (size_t)snprintf(sql + at, sizeof(sql) - at, "%s%s", c ? ", " : "",
                               sqlite3_column_name(seed, c));
    if (at < sizeof(sql))
        snprintf(sql + at, sizeof(sql) - at, " FROM %s WHERE id = $1", table);
    const char *values[1] = {id};
    PGresult *res = PQexecParams(conn, sql, 1, NULL, values, NULL, NULL, 0);
    if (PQresultStatus(res) != PGRES_TUPLES_OK || PQntuples(res) != 1) {
        *failed = true;
        PQclear(res);
        return false;
    }
    bool differs = false;
    for (int c = 0; c < n && !differs; c++) {
        const char *name = sqlite3_column_name(seed, c);
        if (strcmp(name, "created_at") == 0 || strcmp(name, "updated_at") == 0 ||
            strcmp(name, "revision") == 0)
            continue;
        const bool pg_null = PQgetisnull(res, 0, c);
        const int type = sqlite3_column_type(seed, c);
        if (pg_null || type == SQLITE_NULL) {
            differs = pg_null != (type == SQLITE_NULL);
            continue;
        }
        const char *text = PQgetvalue(res, 0, c);
        if (type == SQLITE_INTEGER)
            differs = strtoll(text, NULL, 10) != (long long)sqlite3_column_int64(seed, c);
        else if (type == SQLITE_FLOAT)
            differs = strtod(text, NULL) != sqlite3_column_double(seed, c);
        else
            differs = strcmp(text, (const char *)sqlite3_column_text(seed, c)) != 0;
    }
    PQclear(res);
    return differs;
}

/* Appends `line` and a newline to *out (of length *len); false (and *out freed) when out of
 * memory. */
static bool append_line(char **out, size_t *len, const char *line)
{
    char *grown = realloc(*out, *len + strlen(line) + 2);
    if (grown == NULL) {
        free(*out);
        *out = NULL;
        return false;
    }
    *out = grown;
    *len += (size_t)sprintf(grown + *len, "%s\n", line);
    return true;
}

/* The aliases of entry `id` one per line, in lower-case order: SQLite's seed (`db`) or
 * PostgreSQL's (`conn`); NULL when out of memory. */
static char *alias_list(PGconn *conn, sqlite3 *db, bool models, const char *id)
{
    const char *table = models ? "model_aliases" : "gpu_aliases";
    const char *target = models ? "model_id" : "gpu_id";
    char sql[192];
    size_t len = 0;
    char *out = calloc(1, 1);
    if (conn != NULL) {
        snprintf(sql, sizeof(sql), "SELECT alias FROM %s WHERE %s = $1 ORDER BY lower(alias) "
                                   "COLLATE \"C\"", table, target);
        const char *values[1] = {id};
        PGresult *res = PQexecParams(conn, sql, 1, NULL, values, NULL, NULL, 0);
        for (int i = 0; out != NULL && PQresultStatus(res) == PGRES_TUPLES_OK &&
                        i < PQntuples(res); i++)
            append_line(&out, &len, PQgetvalue(res, i, 0));
        PQclear(res);
        return out;
    }
    snprintf(sql, sizeof(sql), "SELECT alias FROM %s WHERE %s = ?1 ORDER BY lower(alias)", table,
             target);
    sqlite3_stmt *stmt = NULL;
    if (out == NULL || sqlite3_prepare_v2(db, sql, -1, &stmt, NULL) != SQLITE_OK) {
        free(out);
        return NULL;
    }
    sqlite3_bind_text(stmt, 1, id, -1, SQLITE_TRANSIENT);
    while (out != NULL && sqlite3_step(stmt) == SQLITE_ROW)
        append_line(&out, &len, (const char *)sqlite3_column_text(stmt, 0));
    sqlite3_finalize(stmt);
    return out;
}

/* Adds the seed's price-history rows of GPU `id` that PostgreSQL lacks (the current-price
 * trigger follows); *added counts them. */
static enum gs_status add_seed_prices(PGconn *conn, sqlite3 *db, const char *id, int *added,
                                      struct gs_error *err)
{
    sqlite3_stmt *stmt = NULL;
    if (sqlite3_prepare_v2(db,
                           "SELECT gpu_id, kind, usd, effective_date, source FROM gpu_prices"
                           " WHERE gpu_id = ?1 ORDER BY effective_date, id",
                           -1, &stmt, NULL) != SQLITE_OK)
        return gs_error_add(err, GS_ERR_DB, "", "seeding prices: %s", sqlite3_errmsg(db));
    sqlite3_bind_text(stmt, 1, id, -1, SQLITE_TRANSIENT);
    enum gs_status st = GS_OK;
    struct lite_row row;
    while (st == GS_OK && sqlite3_step(stmt) == SQLITE_ROW) {
        lite_values(stmt, &row);
        PGresult *res = PQexecParams(
            conn,
            "INSERT INTO gpu_prices (gpu_id, kind, usd, effective_date, source)"
            " SELECT $1, $2, $3::float8, $4, $5 WHERE NOT EXISTS (SELECT 1 FROM gpu_prices"
            " WHERE gpu_id = $1 AND kind = $2 AND usd = $3::float8 AND effective_date = $4"
            " AND source = $5)",
            5, NULL, row.values, NULL, NULL, 0);
        if (PQresultStatus(res) != PGRES_COMMAND_OK)
            st = pg_error(err, GS_ERR_DB, "seeding prices", conn, res);
        else
            *added += atoi(PQcmdTuples(res));
        PQclear(res);
    }
    sqlite3_finalize(stmt);
    return st;
}

/* The seed's aliases of entry `id`, replacing PostgreSQL's (one another entry already
 * uses is left out). */
static enum gs_status replace_seed_aliases(PGconn *conn, sqlite3 *db, bool models, const char *id,
                                           struct gs_error *err)
{
    const char *values[1] = {id};
    enum gs_status st = params_ok(conn,
                                  models ? "DELETE FROM model_aliases WHERE model_id = $1"
                                         : "DELETE FROM gpu_aliases WHERE gpu_id = $1",
                                  1, values, "seeding aliases", err);
    sqlite3_stmt *stmt = NULL;
    if (st == GS_OK &&
        sqlite3_prepare_v2(db,
                           models ? "SELECT alias, model_id FROM model_aliases WHERE model_id = ?1"
                                  : "SELECT alias, gpu_id FROM gpu_aliases WHERE gpu_id = ?1",
                           -1, &stmt, NULL) != SQLITE_OK)
        return gs_error_add(err, GS_ERR_DB, "", "seeding aliases: %s", sqlite3_errmsg(db));
    if (st != GS_OK)
        return st;
    sqlite3_bind_text(stmt, 1, id, -1, SQLITE_TRANSIENT);
    while (st == GS_OK && sqlite3_step(stmt) == SQLITE_ROW) {
        const char *pair[2] = {(const char *)sqlite3_column_text(stmt, 0),
                               (const char *)sqlite3_column_text(stmt, 1)};
        st = params_ok(conn,
                       models ? "INSERT INTO model_aliases (alias, model_id) VALUES ($1, $2)"
                                " ON CONFLICT DO NOTHING"
                              : "INSERT INTO gpu_aliases (alias, gpu_id) VALUES ($1, $2)"
                                " ON CONFLICT DO NOTHING",
                       2, pair, "seeding aliases", err);
    }
    sqlite3_finalize(stmt);
    return st;
}

/* Records (or moves) the seed revision of entry `id`: the revision it has now. */
static enum gs_status record_seed_row(PGconn *conn, bool models, const char *id,
                                      struct gs_error *err)
{
    const char *values[2] = {models ? "models" : "gpus", id};
    return params_ok(conn,
                     models ? "INSERT INTO gpusizer_seed_rows (kind, id, revision) SELECT $1, id,"
                              " revision FROM models WHERE id = $2 ON CONFLICT (kind, id) DO UPDATE"
                              " SET revision = excluded.revision"
                            : "INSERT INTO gpusizer_seed_rows (kind, id, revision) SELECT $1, id,"
                              " revision FROM gpus WHERE id = $2 ON CONFLICT (kind, id) DO UPDATE"
                              " SET revision = excluded.revision",
                     2, values, "recording the seed", err);
}

/* Brings one table's entries to the seed `db`: new seed entries are added (unless a user
 * deleted or created that id), entries nobody wrote since they were seeded take the seed's
 * columns, aliases and missing price history (their revision moves on, so snapshots and
 * tags notice), and such entries the seed no longer has are removed. */
static enum gs_status sync_table(PGconn *conn, sqlite3 *db, bool models, struct seed_counts *n,
                                 struct gs_error *err)
{
    const char *table = models ? "models" : "gpus";
    const char *kind[1] = {table};
    char sql[512];
    snprintf(sql, sizeof(sql), "SELECT * FROM %s ORDER BY id", table);
    sqlite3_stmt *stmt = NULL;
    if (sqlite3_prepare_v2(db, sql, -1, &stmt, NULL) != SQLITE_OK)
        return gs_error_add(err, GS_ERR_DB, "", "seeding %s: %s", table, sqlite3_errmsg(db));
    int id_col = -1;
    for (int c = 0; c < sqlite3_column_count(stmt); c++)
        if (strcmp(sqlite3_column_name(stmt, c), "id") == 0)
            id_col = c;
    enum gs_status st = id_col < 0 ? gs_error_add(err, GS_ERR_INTERNAL, "", "seed without ids")
                                   : GS_OK;
    /* the ids the seed has, to find what it dropped */
    st = st == GS_OK ? params_ok(conn, "CREATE TEMP TABLE seed_ids (id TEXT PRIMARY KEY)"
                                       " ON COMMIT DROP",
                                 0, NULL, "seeding", err)
                     : st;
    while (st == GS_OK && sqlite3_step(stmt) == SQLITE_ROW) {
        char id[256];
        snprintf(id, sizeof(id), "%s", (const char *)sqlite3_column_text(stmt, id_col));
        const char *one[1] = {id};
        const char *pair[2] = {table, id};
        st = params_ok(conn, "INSERT INTO seed_ids VALUES ($1)", 1, one, "seeding", err);
        if (st != GS_OK)
            break;
        snprintf(sql, sizeof(sql),
                 "SELECT t.revision, s.revision FROM (SELECT $2::text AS id) k"
                 " LEFT JOIN %s t ON t.id = k.id"
                 " LEFT JOIN gpusizer_seed_rows s ON s.kind = $1 AND s.id = k.id",
                 table);
        PGresult *res = PQexecParams(conn, sql, 2, NULL, pair, NULL, NULL, 0);
        if (PQresultStatus(res) != PGRES_TUPLES_OK || PQntuples(res) != 1) {
            st = pg_error(err, GS_ERR_DB, "seeding", conn, res);
            PQclear(res);
            break;
        }
        const bool present = !PQgetisnull(res, 0, 0), recorded = !PQgetisnull(res, 0, 1);
        const bool untouched =
            present && recorded && strcmp(PQgetvalue(res, 0, 0), PQgetvalue(res, 0, 1)) == 0;
        PQclear(res);
        if (!present && !recorded) {
            st = copy_rows(conn, db, table, "id = ?1", id, err);
            if (st == GS_OK)
                st = copy_rows(conn, db, models ? "model_aliases" : "gpu_aliases",
                               models ? "model_id = ?1" : "gpu_id = ?1", id, err);
            int prices = 0;
            if (st == GS_OK && !models)
                st = add_seed_prices(conn, db, id, &prices, err);
            if (st == GS_OK)
                st = record_seed_row(conn, models, id, err);
            n->added++;
            continue;
        }
        if (!untouched)
            continue; /* the user's: created, written or deleted by someone */
        bool failed = false;
        bool changed = row_differs(conn, stmt, table, id, &failed);
        char *mine = alias_list(conn, NULL, models, id), *theirs = alias_list(NULL, db, models, id);
        if (failed || mine == NULL || theirs == NULL)
            st = gs_error_add(err, GS_ERR_DB, "", "seeding %s: cannot compare %s", table, id);
        const bool aliases_changed = st == GS_OK && strcmp(mine, theirs) != 0;
        free(mine);
        free(theirs);
        if (st == GS_OK && changed) {
            /* the seed's columns, in place: delete and insert again would cascade */
            const int cols = sqlite3_column_count(stmt);
            struct lite_row row;
            lite_values(stmt, &row);
            char update[2048];
            size_t at = (size_t)snprintf(update, sizeof(update), "UPDATE %s SET ", table);
            int params = 0;
            const char *values[SEED_COLUMNS_MAX + 1];
            for (int c = 0; c < cols && at < sizeof(update); c++) {
                const char *name = sqlite3_column_name(stmt, c);
                if (strcmp(name, "id") == 0 || strcmp(name, "created_at") == 0 ||
                    strcmp(name, "updated_at") == 0 || strcmp(name, "revision") == 0)
                    continue;
                values[params++] = row.values[c];
                at += (size_t)snprintf(update + at, sizeof(update) - at, "%s = $%d, ", name,
                                       params);
            }
            values[params++] = id;
            if (at < sizeof(update))
                snprintf(update + at, sizeof(update) - at, "updated_at = gpusizer_now() "
                                                           "WHERE id = $%d", params);
            st = params_ok(conn, update, params, values, "seeding", err);
        }
        if (st == GS_OK && aliases_changed)
            st = replace_seed_aliases(conn, db, models, id, err);
        int prices = 0;
        if (st == GS_OK && !models)
            st = add_seed_prices(conn, db, id, &prices, err);
        if (st == GS_OK && (changed || aliases_changed || prices > 0)) {
            snprintf(sql, sizeof(sql), "UPDATE %s SET revision = revision + 1 WHERE id = $1",
                     table);
            st = params_ok(conn, sql, 1, (const char *const *)&pair[1], "seeding", err);
            if (st == GS_OK)
                st = record_seed_row(conn, models, id, err);
            n->updated++;
        }
    }
    sqlite3_finalize(stmt);
    if (st != GS_OK)
        return st;
    /* seed entries the seed dropped, still as seeded */
    snprintf(sql, sizeof(sql),
             "WITH gone AS (DELETE FROM %s t USING gpusizer_seed_rows s WHERE s.kind = $1"
             " AND s.id = t.id AND s.revision = t.revision AND t.id NOT IN"
             " (SELECT id FROM seed_ids) RETURNING t.id)"
             " DELETE FROM gpusizer_seed_rows WHERE kind = $1 AND id IN (SELECT id FROM gone)",
             table);
    PGresult *res = PQexecParams(conn, sql, 1, NULL, kind, NULL, NULL, 0);
    if (PQresultStatus(res) != PGRES_COMMAND_OK)
        st = pg_error(err, GS_ERR_DB, "seeding", conn, res);
    else
        n->removed += atoi(PQcmdTuples(res));
    PQclear(res);
    return params_ok(conn, "DROP TABLE seed_ids", 0, NULL, "seeding", err) == GS_OK ? st
                                                                                    : GS_ERR_DB;
}

/* Tables in foreign-key order. */
static const char *const seed_tables[] = {"gpus", "gpu_aliases", "models", "model_aliases",
                                          "gpu_prices"};

/* The embedded SQLite seed (the same migrations, applied in memory, up to `version`, 0 for
 * all) into the catalog, under the advisory lock: a new catalog gets a copy; one seeded
 * from an older seed gets what changed since (sync_table). gpusizer_seeded records each. */
static enum gs_status seed_locked(struct catalog_pg *pg, int version, struct gs_error *err)
{
    PGresult *res = rows(pg->conn, "SELECT coalesce(max(sqlite_schema_version), 0) FROM"
                                   " gpusizer_seeded",
                         NULL, true, "reading the seed marker", err);
    if (res == NULL)
        return GS_ERR_DB;
    const int seeded_at = atoi(PQgetvalue(res, 0, 0));
    PQclear(res);
    if (version <= 0)
        version = catalog_schema_latest();
    if (seeded_at >= version)
        return GS_OK;
    struct catalog *seed = NULL;
    enum gs_status st = catalog_open_at_version(":memory:", version, &seed, err);
    if (st != GS_OK)
        return st;
    if (!exec_ok(pg->conn, "BEGIN", "starting the seed", err))
        st = GS_ERR_DB;
    struct seed_counts n = {0, 0, 0};
    if (seeded_at == 0) {
        for (size_t i = 0; st == GS_OK && i < sizeof(seed_tables) / sizeof(seed_tables[0]); i++)
            st = copy_rows(pg->conn, catalog_db(seed), seed_tables[i], NULL, NULL, err);
        if (st == GS_OK &&
            !exec_ok(pg->conn,
                     "SELECT setval(pg_get_serial_sequence('gpu_prices', 'id'), "
                     "coalesce((SELECT max(id) FROM gpu_prices), 0) + 1, false); "
                     "INSERT INTO gpusizer_seed_rows (kind, id, revision) SELECT 'models', id,"
                     " revision FROM models; INSERT INTO gpusizer_seed_rows (kind, id, revision)"
                     " SELECT 'gpus', id, revision FROM gpus",
                     "recording the seed", err))
            st = GS_ERR_DB;
    } else {
        st = sync_table(pg->conn, catalog_db(seed), false, &n, err);
        if (st == GS_OK)
            st = sync_table(pg->conn, catalog_db(seed), true, &n, err);
    }
    char mark[128];
    snprintf(mark, sizeof(mark), "INSERT INTO gpusizer_seeded (sqlite_schema_version) VALUES (%d)",
             version);
    if (st == GS_OK && (!exec_ok(pg->conn, mark, "recording the seed", err) ||
                        !exec_ok(pg->conn, "COMMIT", "committing the seed", err)))
        st = GS_ERR_DB;
    if (st != GS_OK) {
        exec_ok(pg->conn, "ROLLBACK", "rolling back the seed", NULL);
    } else {
        pg->seeded = seeded_at == 0;
        pg->seed_added = n.added;
        pg->seed_updated = n.updated;
        pg->seed_removed = n.removed;
    }
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
    PGconn *conn = catalog_pg_conn(pg, err);
    if (conn == NULL)
        return GS_ERR_BUSY;
    PGresult *res = rows(conn, "SELECT version FROM gpusizer_changes", NULL, true,
                         "reading the change counter", err);
    if (res == NULL)
        return PQstatus(conn) == CONNECTION_OK ? GS_ERR_DB : GS_ERR_BUSY;
    *out = strtoll(PQgetvalue(res, 0, 0), NULL, 10);
    PQclear(res);
    return GS_OK;
}

enum gs_status catalog_pg_listen(struct catalog_pg *pg, struct gs_error *err)
{
    pg->listening = true;
    return exec_ok(pg->conn, "LISTEN gpusizer_catalog", "listening for changes", err) ? GS_OK
                                                                                      : GS_ERR_BUSY;
}

static void sleep_ms(long long ms)
{
    if (ms <= 0)
        return;
    struct timespec ts = {(time_t)(ms / 1000), (long)(ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
}

enum gs_status catalog_pg_wait(struct catalog_pg *pg, int timeout_ms, bool *changed,
                               struct gs_error *err)
{
    *changed = false;
    const long long deadline = mono_ms() + timeout_ms;
    if (PQstatus(pg->conn) != CONNECTION_OK || pg->broken) {
        /* a lost listener reconnects (with backoff) and reports a change: notifications sent
         * while it was away are gone, so the caller checks the version */
        if (catalog_pg_conn(pg, err) == NULL) {
            const long long left = deadline - mono_ms();
            sleep_ms(left < pg->retry_at - mono_ms() ? left : pg->retry_at - mono_ms());
            return GS_ERR_BUSY;
        }
    }
    if (pg->missed) {
        pg->missed = false;
        *changed = true;
        return GS_OK;
    }
    const int fd = PQsocket(pg->conn);
    if (fd < 0)
        return pg_error(err, GS_ERR_BUSY, "waiting for changes", pg->conn, NULL);
    for (;;) {
        /* input that is not a notification (a server's goodbye before it closes) keeps us
         * waiting: the close itself is what reports the loss */
        if (PQconsumeInput(pg->conn) == 0 || PQstatus(pg->conn) != CONNECTION_OK) {
            /* the next call reconnects (a half-read socket is no use) */
            pg->broken = true;
            return pg_error(err, GS_ERR_BUSY, "waiting for changes", pg->conn, NULL);
        }
        PGnotify *n;
        while ((n = PQnotifies(pg->conn)) != NULL) {
            *changed = true;
            PQfreemem(n);
        }
        if (*changed)
            return GS_OK;
        const long long left = deadline - mono_ms();
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
    PGconn *conn = catalog_pg_conn(pg, err);
    if (conn == NULL)
        return GS_ERR_BUSY;
    struct catalog_snapshot *s = catalog_snapshot_new();
    if (s == NULL)
        return gs_error_add(err, GS_ERR_NOMEM, "", "out of memory loading the catalog");
    /* one consistent view of every table */
    enum gs_status st = catalog_pg_begin(pg, false, err);
    int version = 0;
    if (st == GS_OK)
        st = read_version(conn, &version, err);
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
    if (st != GS_OK && PQstatus(conn) != CONNECTION_OK)
        st = GS_ERR_BUSY; /* the database went away mid-read: retry later */
    st = catalog_pg_end(pg, st, err);
    return catalog_snapshot_finish(s, st, out, err);
}

bool catalog_pg_seeded(const struct catalog_pg *pg)
{
    return pg->seeded;
}

/* Settings every session gets, on connect and after each reconnect: lock waits (a writer
 * behind another replica's write, catalog_pg_begin) end as GS_ERR_BUSY after 5 s, as
 * SQLite's busy timeout does; no statement or abandoned transaction holds the catalog for
 * long. */
static bool session_setup(PGconn *conn, struct gs_error *err)
{
    return exec_ok(conn,
                   "SET client_min_messages = warning; SET lock_timeout = '5s';"
                   " SET statement_timeout = '30s'; SET idle_in_transaction_session_timeout = '30s'",
                   "configuring the session", err);
}

/* A new connection with the handle's settings; the URL's own parameters come after the
 * defaults (so they win), a password from a file before them (so one in the URL wins).
 * Keepalives and tcp_user_timeout notice a database host that vanished without closing
 * the connection within about 15 s. */
static PGconn *connect_params(const char *url, const char *password)
{
    const char *keys[12], *values[12];
    int n = 0;
    keys[n] = "connect_timeout", values[n++] = "5";
    keys[n] = "application_name", values[n++] = "gpusizer";
    keys[n] = "keepalives", values[n++] = "1";
    keys[n] = "keepalives_idle", values[n++] = "10";
    keys[n] = "keepalives_interval", values[n++] = "5";
    keys[n] = "keepalives_count", values[n++] = "2";
    keys[n] = "tcp_user_timeout", values[n++] = "15000";
    if (password != NULL)
        keys[n] = "password", values[n++] = password;
    keys[n] = "dbname", values[n++] = url;
    keys[n] = NULL, values[n] = NULL;
    return PQconnectdbParams(keys, values, 1);
}

static struct catalog_pg *pg_new(const char *url, const char *password)
{
    struct catalog_pg *pg = calloc(1, sizeof(*pg));
    if (pg == NULL)
        return NULL;
    pg->url = strdup(url);
    pg->password = password != NULL ? strdup(password) : NULL;
    if (pg->url == NULL || (password != NULL && pg->password == NULL)) {
        catalog_pg_close(pg);
        return NULL;
    }
    return pg;
}

/* Connects `pg`; GS_ERR_BUSY when the database cannot be reached. */
static enum gs_status pg_connect(struct catalog_pg *pg, struct gs_error *err)
{
    pg->conn = connect_params(pg->url, pg->password);
    if (pg->conn == NULL)
        return gs_error_add(err, GS_ERR_NOMEM, "", "out of memory");
    if (PQstatus(pg->conn) != CONNECTION_OK)
        return pg_error(err, GS_ERR_BUSY, "connecting", pg->conn, NULL);
    return GS_OK;
}

static enum gs_status open_seeded(const char *url, const char *password, int seed_version,
                                  struct catalog_pg **out, struct gs_error *err)
{
    *out = NULL;
    if (!catalog_pg_is_url(url))
        return gs_error_add(err, GS_ERR_INVALID, "",
                            "a PostgreSQL catalog is named by a postgres:// or postgresql:// URL");
    struct catalog_pg *pg = pg_new(url, password);
    if (pg == NULL)
        return gs_error_add(err, GS_ERR_NOMEM, "", "out of memory");
    enum gs_status st = pg_connect(pg, err);
    if (st != GS_OK) {
        catalog_pg_close(pg);
        return st;
    }
    char lock[96];
    snprintf(lock, sizeof(lock), "SELECT pg_advisory_lock(%lld)", (long long)CATALOG_PG_LOCK_KEY);
    /* no lock timeout yet: a replica waits as long as another one migrates */
    if (!exec_ok(pg->conn, "SET client_min_messages = warning", "configuring the session", err) ||
        !exec_ok(pg->conn, lock, "waiting for the migration lock", err)) {
        catalog_pg_close(pg);
        return GS_ERR_DB;
    }
    st = migrate_locked(pg, err);
    if (st == GS_OK)
        st = seed_locked(pg, seed_version, err);
    snprintf(lock, sizeof(lock), "SELECT pg_advisory_unlock(%lld)", (long long)CATALOG_PG_LOCK_KEY);
    if (!exec_ok(pg->conn, lock, "releasing the migration lock", err) && st == GS_OK)
        st = GS_ERR_DB;
    if (st == GS_OK && !session_setup(pg->conn, err))
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

enum gs_status catalog_pg_open_listener(const struct catalog_pg *like, struct catalog_pg **out,
                                        struct gs_error *err)
{
    *out = NULL;
    struct catalog_pg *pg = pg_new(like->url, like->password);
    if (pg == NULL)
        return gs_error_add(err, GS_ERR_NOMEM, "", "out of memory");
    /* a listener that cannot connect yet keeps trying (catalog_pg_wait) */
    if (pg_connect(pg, NULL) == GS_OK && session_setup(pg->conn, NULL) &&
        catalog_pg_listen(pg, NULL) == GS_OK) {
        *out = pg;
        return GS_OK;
    }
    pg->listening = true;
    pg->missed = true;
    pg->backoff_ms = BACKOFF_FIRST_MS;
    pg->retry_at = mono_ms() + pg->backoff_ms;
    if (pg->conn == NULL) {
        catalog_pg_close(pg);
        return gs_error_add(err, GS_ERR_NOMEM, "", "out of memory");
    }
    *out = pg;
    return GS_OK;
}

PGconn *catalog_pg_current(struct catalog_pg *pg)
{
    return pg->conn;
}

PGconn *catalog_pg_conn(struct catalog_pg *pg, struct gs_error *err)
{
    if (PQstatus(pg->conn) == CONNECTION_OK && !pg->broken)
        return pg->conn;
    const long long now = mono_ms();
    if (pg->backoff_ms > 0 && now < pg->retry_at) {
        gs_error_add(err, GS_ERR_BUSY, "",
                     "PostgreSQL catalog: unreachable; the next connection attempt is in %lld ms",
                     pg->retry_at - now);
        return NULL;
    }
    PQreset(pg->conn);
    struct gs_error setup;
    gs_error_init(&setup);
    if (PQstatus(pg->conn) != CONNECTION_OK || !session_setup(pg->conn, &setup) ||
        (pg->listening && catalog_pg_listen(pg, &setup) != GS_OK)) {
        pg->backoff_ms = pg->backoff_ms == 0 ? BACKOFF_FIRST_MS
                         : pg->backoff_ms * 2 > BACKOFF_MAX_MS ? BACKOFF_MAX_MS
                                                               : pg->backoff_ms * 2;
        pg->retry_at = mono_ms() + pg->backoff_ms;
        /* said the way every other failure to reach the database is (catalog_pg_fail), so
         * a 503 reads the same whichever attempt the request met */
        const char *why = PQstatus(pg->conn) != CONNECTION_OK ? PQerrorMessage(pg->conn)
                          : setup.count > 0                   ? setup.items[0].detail
                                                              : "";
        gs_error_add(err, GS_ERR_BUSY, "",
                     "PostgreSQL catalog: unreachable (%.*s); the next connection attempt is in "
                     "%lld ms",
                     (int)strcspn(why != NULL ? why : "", "\n"), why != NULL ? why : "",
                     (long long)pg->backoff_ms);
        return NULL;
    }
    pg->backoff_ms = 0;
    pg->broken = false;
    pg->missed = pg->listening;
    return pg->conn;
}

/* SQLSTATEs (PostgreSQL's errcodes.txt): class 23 integrity constraint violations,
 * 23505 unique_violation; 40001 serialization_failure, 40P01 deadlock_detected, 55P03
 * lock_not_available (lock_timeout), 57014 query_canceled (statement_timeout), class 08
 * and 57P0x: the connection or the server went away. */
enum gs_status catalog_pg_fail(PGconn *conn, const PGresult *res, struct gs_error *err,
                               const char *pointer, const char *what)
{
    const char *state = res != NULL ? PQresultErrorField(res, PG_DIAG_SQLSTATE) : NULL;
    const char *msg = res != NULL ? PQresultErrorMessage(res) : PQerrorMessage(conn);
    msg = msg != NULL ? msg : "";
    /* "ERROR:  " leads the message; the primary text alone reads like SQLite's */
    const char *primary = res != NULL ? PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY) : NULL;
    const char *text = primary != NULL ? primary : msg;
    const int n = (int)strcspn(text, "\n");
    if (res == NULL && statement_timed_out)
        return gs_error_add(err, GS_ERR_BUSY, "",
                            "%s: the PostgreSQL catalog did not answer within %d s (the server "
                            "stopped, or another replica holding the catalog); retry shortly",
                            what, STATEMENT_WAIT_MS / 1000);
    if (PQstatus(conn) != CONNECTION_OK || state == NULL || strncmp(state, "08", 2) == 0 ||
        strncmp(state, "57P0", 4) == 0)
        return gs_error_add(err, GS_ERR_BUSY, "",
                            "%s: the PostgreSQL catalog is unreachable (%.*s); retry shortly",
                            what, n, text);
    if (strcmp(state, "40001") == 0 || strcmp(state, "40P01") == 0 ||
        strcmp(state, "55P03") == 0 || strcmp(state, "57014") == 0)
        return gs_error_add(err, GS_ERR_BUSY, "", "%s: the catalog is locked by another writer",
                            what);
    if (strcmp(state, "23505") == 0)
        return gs_error_add(err, GS_ERR_CONFLICT, pointer, "%s: already in use", what);
    /* class 53 insufficient resources: 53100 disk_full, 53200 out_of_memory */
    if (strcmp(state, "53100") == 0)
        return gs_error_add(err, GS_ERR_FULL, "",
                            "%s: the PostgreSQL server's disk is full (%.*s); nothing was written",
                            what, n, text);
    if (strncmp(state, "23", 2) == 0) {
        const char *constraint = PQresultErrorField(res, PG_DIAG_CONSTRAINT_NAME);
        return gs_error_add(err, GS_ERR_INVALID, pointer, "%s: %s%s%.*s", what,
                            constraint != NULL ? "constraint failed: " : "",
                            constraint != NULL ? constraint : "", constraint != NULL ? 0 : n,
                            text);
    }
    return gs_error_add(err, GS_ERR_DB, "", "%s: %.*s", what, n, text);
}

/* A session's first statement of a unit of work (a transaction, the writers' lock): when
 * it finds the connection gone (the server restarted, a pooler dropped it) nothing has
 * happened yet, so it reconnects and runs once more instead of failing the request.
 * Not after a statement timeout: a frozen server would make it wait twice. *conn NULL:
 * no connection could be made (err says why). */
static PGresult *first_statement(struct catalog_pg *pg, const char *sql, PGconn **conn,
                                 struct gs_error *err)
{
    *conn = catalog_pg_conn(pg, err);
    if (*conn == NULL)
        return NULL;
    PGresult *res = catalog_pg_exec_bounded(*conn, sql, 0, NULL, NULL);
    const ExecStatusType s = PQresultStatus(res);
    if (s == PGRES_COMMAND_OK || s == PGRES_TUPLES_OK || statement_timed_out ||
        PQstatus(*conn) == CONNECTION_OK)
        return res;
    PQclear(res);
    struct gs_error again;
    gs_error_init(&again);
    *conn = catalog_pg_conn(pg, &again);
    if (*conn == NULL) {
        if (again.count > 0)
            gs_error_add(err, GS_ERR_BUSY, "", "%s", again.items[0].detail);
        return NULL;
    }
    return catalog_pg_exec_bounded(*conn, sql, 0, NULL, NULL);
}

enum gs_status catalog_pg_begin(struct catalog_pg *pg, bool write, struct gs_error *err)
{
    char sql[160];
    if (write)
        /* one writer at a time over every replica: the lock the migrations hold, for this
         * transaction only (released by COMMIT or ROLLBACK) */
        snprintf(sql, sizeof(sql), "BEGIN ISOLATION LEVEL READ COMMITTED; "
                                   "SELECT pg_advisory_xact_lock(%lld)",
                 (long long)CATALOG_PG_LOCK_KEY);
    else
        snprintf(sql, sizeof(sql), "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
    PGconn *conn = NULL;
    PGresult *res = first_statement(pg, sql, &conn, err);
    if (conn == NULL) /* unreachable: catalog_pg_conn said so in err */
        return GS_ERR_BUSY;
    const ExecStatusType s = PQresultStatus(res);
    enum gs_status st = GS_OK;
    if (s != PGRES_COMMAND_OK && s != PGRES_TUPLES_OK) {
        st = catalog_pg_fail(conn, res, err, "", "starting a transaction");
        PQclear(res);
        res = PQstatus(conn) == CONNECTION_OK ? catalog_pg_exec_bounded(conn, "ROLLBACK", 0, NULL,
                                                                        NULL)
                                              : NULL;
    }
    PQclear(res);
    return st;
}

enum gs_status catalog_pg_writers_lock(struct catalog_pg *pg, struct gs_error *err)
{
    char sql[64];
    snprintf(sql, sizeof(sql), "SELECT pg_advisory_lock(%lld)", (long long)CATALOG_PG_LOCK_KEY);
    PGconn *conn = NULL;
    PGresult *res = first_statement(pg, sql, &conn, err);
    if (conn == NULL) /* unreachable: catalog_pg_conn said so in err */
        return GS_ERR_BUSY;
    enum gs_status st = GS_OK;
    if (PQresultStatus(res) != PGRES_TUPLES_OK)
        st = catalog_pg_fail(conn, res, err, "", "waiting for other replicas' writes");
    PQclear(res);
    return st;
}

void catalog_pg_writers_unlock(struct catalog_pg *pg)
{
    if (pg->conn == NULL || PQstatus(pg->conn) != CONNECTION_OK)
        return;
    char sql[64];
    snprintf(sql, sizeof(sql), "SELECT pg_advisory_unlock(%lld)", (long long)CATALOG_PG_LOCK_KEY);
    PQclear(catalog_pg_exec_bounded(pg->conn, sql, 0, NULL, NULL));
}

enum gs_status catalog_pg_end(struct catalog_pg *pg, enum gs_status st, struct gs_error *err)
{
    PGconn *conn = pg->conn;
    if (st == GS_OK) {
        PGresult *res = catalog_pg_exec_bounded(conn, "COMMIT", 0, NULL, NULL);
        /* a COMMIT of a failed transaction answers ROLLBACK, not an error */
        if (PQresultStatus(res) != PGRES_COMMAND_OK)
            st = catalog_pg_fail(conn, res, err, "", "committing");
        else if (strcmp(PQcmdStatus(res), "COMMIT") != 0)
            st = gs_error_add(err, GS_ERR_DB, "", "committing: the transaction had failed");
        PQclear(res);
    }
    if (st != GS_OK && PQstatus(conn) == CONNECTION_OK &&
        PQtransactionStatus(conn) != PQTRANS_IDLE)
        PQclear(catalog_pg_exec_bounded(conn, "ROLLBACK", 0, NULL, NULL));
    return st;
}

enum gs_status catalog_pg_ping(struct catalog_pg *pg, size_t *models, size_t *gpus,
                               struct gs_error *err)
{
    PGconn *conn = catalog_pg_conn(pg, err);
    if (conn == NULL)
        return GS_ERR_BUSY;
    PGresult *res = rows(conn, "SELECT (SELECT count(*) FROM models), (SELECT count(*) FROM gpus)",
                         NULL, true, "counting catalog rows", err);
    if (res == NULL)
        return PQstatus(conn) == CONNECTION_OK ? GS_ERR_DB : GS_ERR_BUSY;
    *models = (size_t)strtoull(PQgetvalue(res, 0, 0), NULL, 10);
    *gpus = (size_t)strtoull(PQgetvalue(res, 0, 1), NULL, 10);
    PQclear(res);
    return GS_OK;
}

enum gs_status catalog_pg_schema_version(struct catalog_pg *pg, int *out, struct gs_error *err)
{
    PGconn *conn = catalog_pg_conn(pg, err);
    return conn != NULL ? read_version(conn, out, err) : GS_ERR_BUSY;
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
    if (pg->password != NULL)
        explicit_bzero(pg->password, strlen(pg->password));
    free(pg->password);
    free(pg->url);
    free(pg);
}
