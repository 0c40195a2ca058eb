/*
 * pg_seed.c - the embedded seed copied into a PostgreSQL catalog, or brought up to date
 * (see pg_seed.h).
 */
#include "pg_seed.h"

#include "catalog.h"
#include "catalog_lite.h"
#include "catalog_pg_int.h"

#include <libpq-fe.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
                            : catalog_pg_error(err, GS_ERR_DB, what, conn, res);
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
            st = catalog_pg_error(err, GS_ERR_DB, "seeding prices", conn, res);
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
            st = catalog_pg_error(err, GS_ERR_DB, "seeding", conn, res);
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
        st = catalog_pg_error(err, GS_ERR_DB, "seeding", conn, res);
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
enum gs_status pg_seed_locked(PGconn *conn, int version, struct pg_seed_result *out,
                              struct gs_error *err)
{
    *out = (struct pg_seed_result){false, 0, 0, 0};
    PGresult *res = catalog_pg_rows(conn,
                                    "SELECT coalesce(max(sqlite_schema_version), 0) FROM"
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
    struct catalog_lite *seed = NULL;
    enum gs_status st = catalog_lite_open(":memory:", version, &seed, err);
    if (st != GS_OK)
        return st;
    if (!catalog_pg_exec_ok(conn, "BEGIN", "starting the seed", err))
        st = GS_ERR_DB;
    struct seed_counts n = {0, 0, 0};
    if (seeded_at == 0) {
        for (size_t i = 0; st == GS_OK && i < sizeof(seed_tables) / sizeof(seed_tables[0]); i++)
            st = copy_rows(conn, catalog_lite_db(seed), seed_tables[i], NULL, NULL, err);
        if (st == GS_OK &&
            !catalog_pg_exec_ok(
                conn,
                "SELECT setval(pg_get_serial_sequence('gpu_prices', 'id'), "
                "coalesce((SELECT max(id) FROM gpu_prices), 0) + 1, false); "
                "INSERT INTO gpusizer_seed_rows (kind, id, revision) SELECT 'models', id,"
                " revision FROM models; INSERT INTO gpusizer_seed_rows (kind, id, revision)"
                " SELECT 'gpus', id, revision FROM gpus",
                "recording the seed", err))
            st = GS_ERR_DB;
    } else {
        st = sync_table(conn, catalog_lite_db(seed), false, &n, err);
        if (st == GS_OK)
            st = sync_table(conn, catalog_lite_db(seed), true, &n, err);
    }
    char mark[128];
    snprintf(mark, sizeof(mark), "INSERT INTO gpusizer_seeded (sqlite_schema_version) VALUES (%d)",
             version);
    if (st == GS_OK && (!catalog_pg_exec_ok(conn, mark, "recording the seed", err) ||
                        !catalog_pg_exec_ok(conn, "COMMIT", "committing the seed", err)))
        st = GS_ERR_DB;
    if (st != GS_OK) {
        catalog_pg_exec_ok(conn, "ROLLBACK", "rolling back the seed", NULL);
    } else {
        *out = (struct pg_seed_result){seeded_at == 0, n.added, n.updated, n.removed};
    }
    catalog_lite_close(seed);
    return st;
}
