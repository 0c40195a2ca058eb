/*
 * catalog_sql.c - statements and transactions over SQLite or PostgreSQL
 * (see catalog_sql.h).
 */
#include "catalog_sql.h"

#include "catalog_int.h"
#include "catalog_pg.h"
#include "catalog_pg_int.h"
#include "stmt_cache.h"

#include <libpq-fe.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The most parameters a catalog statement binds (a GPU row has 24). */
#define PARAMS_MAX 32

/* PostgreSQL's type OIDs for what we bind (pg_type.dat): text, int8, float8. */
#define OID_TEXT 25
#define OID_INT8 20
#define OID_FLOAT8 701

struct catalog_stmt {
    struct catalog *catalog;
    sqlite3 *db;            /* SQLite: the connection, the statement and the cache */
    sqlite3_stmt *lite;     /* it is borrowed from (and released to) */
    struct stmt_cache *cache;
    PGconn *conn;           /* PostgreSQL: the rewritten SQL, its parameters and result */
    char *sql;
    int params;             /* the highest parameter bound */
    char *values[PARAMS_MAX];
    unsigned types[PARAMS_MAX];
    PGresult *res;
    int row;                /* the current row of res, -1 before the first */
    bool failed;            /* a parameter could not be copied */
};

/* SQL with the markers replaced and, for PostgreSQL, ?N written $N (a new
 * string, NULL when out of memory). Markers and ?N never appear inside the
 * catalog's string literals. */
static char *rewrite(const char *sql, bool pg)
{
    const char *now = pg ? "gpusizer_now()" : "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";
    const char *today = pg ? "to_char(current_date AT TIME ZONE 'UTC', 'YYYY-MM-DD')"
                           : "date('now')";
    const size_t grow = strlen(today) > strlen(now) ? strlen(today) : strlen(now);
    size_t cap = strlen(sql) + 1;
    for (const char *p = sql; (p = strchr(p, '{')) != NULL; p++)
        cap += grow;
    char *out = malloc(cap);
    if (out == NULL)
        return NULL;
    size_t n = 0;
    for (const char *p = sql; *p != '\0';) {
        if (strncmp(p, "{now}", 5) == 0 || strncmp(p, "{today}", 7) == 0) {
            const bool is_now = p[1] == 'n';
            const char *with = is_now ? now : today;
            memcpy(out + n, with, strlen(with));
            n += strlen(with);
            p += is_now ? 5 : 7;
        } else if (pg && *p == '?') {
            out[n++] = '$';
            p++;
        } else {
            out[n++] = *p++;
        }
    }
    out[n] = '\0';
    return out;
}

/* SQLite: the statement for `sql` from the connection's cache, prepared (from the SQL
 * rewritten) when the cache has none at rest. */
static enum gs_status lite_prepare(struct catalog_stmt *s, const char *sql, struct gs_error *err)
{
    s->lite = stmt_cache_lookup(s->cache, sql);
    if (s->lite != NULL)
        return GS_OK;
    char *text = rewrite(sql, false);
    if (text == NULL)
        return gs_error_add(err, GS_ERR_NOMEM, "", "out of memory preparing a statement");
    const int rc = stmt_cache_prepare(s->cache, sql, text, &s->lite);
    free(text);
    if (rc != SQLITE_OK)
        return gs_error_add(err, GS_ERR_DB, "", "preparing a catalog statement: %s",
                            sqlite3_errmsg(s->db));
    return GS_OK;
}

enum gs_status catalog_stmt_prepare(struct catalog *catalog, const char *sql,
                                    struct catalog_stmt **out, struct gs_error *err)
{
    *out = NULL;
    struct catalog_stmt *s = calloc(1, sizeof(*s));
    struct catalog_pg *pg = catalog_pg_of(catalog);
    if (s != NULL && pg == NULL) {
        s->catalog = catalog;
        s->row = -1;
        s->db = catalog_db(catalog);
        s->cache = catalog_stmt_cache(catalog);
        const enum gs_status st = lite_prepare(s, sql, err);
        if (st != GS_OK) {
            free(s);
            return st;
        }
        *out = s;
        return GS_OK;
    }
    char *text = s != NULL ? rewrite(sql, true) : NULL;
    if (text == NULL) {
        free(s);
        return gs_error_add(err, GS_ERR_NOMEM, "", "out of memory preparing a statement");
    }
    s->catalog = catalog;
    s->row = -1;
    /* statements run inside a transaction catalog_tx_begin started (and reconnected for):
     * never reconnect between them */
    s->conn = catalog_pg_current(pg);
    s->sql = text;
    *out = s;
    return GS_OK;
}

/* Stores parameter i (from 1) for PostgreSQL: a copy of `text` (NULL = SQL NULL). */
static void pg_param(struct catalog_stmt *s, int i, const char *text, unsigned type)
{
    if (i < 1 || i > PARAMS_MAX) {
        s->failed = true;
        return;
    }
    free(s->values[i - 1]);
    s->values[i - 1] = NULL;
    s->types[i - 1] = text != NULL ? type : 0;
    if (text != NULL && (s->values[i - 1] = strdup(text)) == NULL)
        s->failed = true;
    if (i > s->params)
        s->params = i;
}

void catalog_stmt_text(struct catalog_stmt *s, int i, const char *text)
{
    if (s->lite != NULL) {
        if (text != NULL)
            sqlite3_bind_text(s->lite, i, text, -1, SQLITE_TRANSIENT);
        else
            sqlite3_bind_null(s->lite, i);
        return;
    }
    pg_param(s, i, text, OID_TEXT);
}

void catalog_stmt_double(struct catalog_stmt *s, int i, double v)
{
    if (s->lite != NULL) {
        sqlite3_bind_double(s->lite, i, v);
        return;
    }
    char text[32];
    snprintf(text, sizeof(text), "%.17g", v); /* reads back as the same double */
    pg_param(s, i, text, OID_FLOAT8);
}

void catalog_stmt_int64(struct catalog_stmt *s, int i, long long v)
{
    if (s->lite != NULL) {
        sqlite3_bind_int64(s->lite, i, (sqlite3_int64)v);
        return;
    }
    char text[32];
    snprintf(text, sizeof(text), "%lld", v);
    pg_param(s, i, text, OID_INT8);
}

void catalog_stmt_null(struct catalog_stmt *s, int i)
{
    catalog_stmt_text(s, i, NULL);
}

enum catalog_step catalog_stmt_step(struct catalog_stmt *s)
{
    if (s->lite != NULL) {
        const int rc = sqlite3_step(s->lite);
        return rc == SQLITE_ROW ? CATALOG_STEP_ROW
               : rc == SQLITE_DONE ? CATALOG_STEP_DONE
                                   : CATALOG_STEP_ERROR;
    }
    if (s->res == NULL) {
        if (s->failed)
            return CATALOG_STEP_ERROR;
        Oid types[PARAMS_MAX];
        for (int i = 0; i < s->params; i++)
            types[i] = (Oid)s->types[i];
        s->res = catalog_pg_exec_bounded(s->conn, s->sql, s->params, types,
                                         (const char *const *)s->values);
        if (s->res == NULL) { /* no answer in time, or the connection failed: not again */
            s->failed = true;
            return CATALOG_STEP_ERROR;
        }
        const ExecStatusType status = PQresultStatus(s->res);
        if (status == PGRES_COMMAND_OK)
            return CATALOG_STEP_DONE;
        if (status != PGRES_TUPLES_OK)
            return CATALOG_STEP_ERROR;
    }
    if (PQresultStatus(s->res) != PGRES_TUPLES_OK)
        return PQresultStatus(s->res) == PGRES_COMMAND_OK ? CATALOG_STEP_DONE : CATALOG_STEP_ERROR;
    s->row++;
    return s->row < PQntuples(s->res) ? CATALOG_STEP_ROW : CATALOG_STEP_DONE;
}

bool catalog_stmt_column_null(struct catalog_stmt *s, int col)
{
    if (s->lite != NULL)
        return sqlite3_column_type(s->lite, col) == SQLITE_NULL;
    return s->res == NULL || s->row < 0 || PQgetisnull(s->res, s->row, col);
}

const char *catalog_stmt_column_text(struct catalog_stmt *s, int col)
{
    if (s->lite != NULL) {
        const unsigned char *t = sqlite3_column_text(s->lite, col);
        return t != NULL ? (const char *)t : "";
    }
    return catalog_stmt_column_null(s, col) ? "" : PQgetvalue(s->res, s->row, col);
}

double catalog_stmt_column_double(struct catalog_stmt *s, int col)
{
    if (s->lite != NULL)
        return sqlite3_column_double(s->lite, col);
    /* float8 prints the shortest text that reads back as the same double */
    return catalog_stmt_column_null(s, col) ? 0 : strtod(PQgetvalue(s->res, s->row, col), NULL);
}

long long catalog_stmt_column_int64(struct catalog_stmt *s, int col)
{
    if (s->lite != NULL)
        return (long long)sqlite3_column_int64(s->lite, col);
    return catalog_stmt_column_null(s, col) ? 0
                                            : strtoll(PQgetvalue(s->res, s->row, col), NULL, 10);
}

/* SQLite: lock waits past the busy timeout are "busy", constraint failures the caller's data. */
static enum gs_status lite_fail(sqlite3 *db, struct gs_error *err, const char *pointer,
                                const char *what)
{
    const int code = sqlite3_extended_errcode(db);
    const int primary = code & 0xff;
    if (primary == SQLITE_BUSY || primary == SQLITE_LOCKED)
        return gs_error_add(err, GS_ERR_BUSY, "", "%s: the catalog is locked by another writer",
                            what);
    if (code == SQLITE_CONSTRAINT_PRIMARYKEY || code == SQLITE_CONSTRAINT_UNIQUE)
        return gs_error_add(err, GS_ERR_CONFLICT, pointer, "%s: already in use", what);
    if (primary == SQLITE_CONSTRAINT)
        return gs_error_add(err, GS_ERR_INVALID, pointer, "%s: %s", what, sqlite3_errmsg(db));
    if (primary == SQLITE_FULL) /* the disk (or max_page_count) is full: the transaction rolls back */
        return gs_error_add(err, GS_ERR_FULL, "",
                            "%s: the catalog's disk is full (%s); nothing was written - free "
                            "space on the volume that holds the catalog file",
                            what, sqlite3_errmsg(db));
    return gs_error_add(err, GS_ERR_DB, "", "%s: %s", what, sqlite3_errmsg(db));
}

enum gs_status catalog_stmt_fail(struct catalog_stmt *s, struct gs_error *err,
                                 const char *pointer, const char *what)
{
    if (s->lite != NULL)
        return lite_fail(s->db, err, pointer, what);
    if (s->failed)
        return gs_error_add(err, GS_ERR_NOMEM, "", "%s: out of memory binding a parameter", what);
    return catalog_pg_fail(s->conn, s->res, err, pointer, what);
}

void catalog_stmt_finalize(struct catalog_stmt *s)
{
    if (s == NULL)
        return;
    if (s->lite != NULL) /* back to the cache, reset: it holds no read transaction */
        stmt_cache_release(s->cache, s->lite);
    PQclear(s->res);
    for (int i = 0; i < PARAMS_MAX; i++)
        free(s->values[i]);
    free(s->sql);
    free(s);
}

/* BEGIN and COMMIT, through the connection's statement cache. */
static enum gs_status lite_exec(struct catalog *catalog, const char *sql, struct gs_error *err)
{
    if (stmt_cache_exec(catalog_stmt_cache(catalog), sql) == SQLITE_OK)
        return GS_OK;
    return lite_fail(catalog_db(catalog), err, "", sql);
}

enum gs_status catalog_tx_begin(struct catalog *catalog, bool write, struct gs_error *err)
{
    struct catalog_pg *pg = catalog_pg_of(catalog);
    if (pg == NULL)
        return lite_exec(catalog, write ? "BEGIN IMMEDIATE" : "BEGIN", err);
    return catalog_pg_begin(pg, write, err);
}

enum gs_status catalog_tx_end(struct catalog *catalog, enum gs_status st, struct gs_error *err)
{
    struct catalog_pg *pg = catalog_pg_of(catalog);
    if (pg != NULL)
        return catalog_pg_end(pg, st, err);
    sqlite3 *db = catalog_db(catalog);
    if (st == GS_OK)
        st = lite_exec(catalog, "COMMIT", err);
    if (st != GS_OK && !sqlite3_get_autocommit(db))
        sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
    return st;
}
