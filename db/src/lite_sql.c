/*
 * lite_sql.c - the catalog's statements and transactions on SQLite (see lite_sql.h).
 */
#include "lite_sql.h"

#include "catalog_sql.h"
#include "stmt_cache.h"

#include <sqlite3.h>
#include <stdlib.h>

struct lite_stmt {
    struct catalog_stmt base; /* first: what catalog_sql.c calls through */
    sqlite3 *db;
    sqlite3_stmt *lite;       /* borrowed from (and released to) the cache */
    struct stmt_cache *cache;
};

static struct lite_stmt *lite(struct catalog_stmt *s)
{
    return (struct lite_stmt *)s;
}

static void bind_text(struct catalog_stmt *s, int i, const char *text)
{
    if (text != NULL)
        sqlite3_bind_text(lite(s)->lite, i, text, -1, SQLITE_TRANSIENT);
    else
        sqlite3_bind_null(lite(s)->lite, i);
}

static void bind_double(struct catalog_stmt *s, int i, double v)
{
    sqlite3_bind_double(lite(s)->lite, i, v);
}

static void bind_int64(struct catalog_stmt *s, int i, long long v)
{
    sqlite3_bind_int64(lite(s)->lite, i, (sqlite3_int64)v);
}

static enum catalog_step step(struct catalog_stmt *s)
{
    const int rc = sqlite3_step(lite(s)->lite);
    return rc == SQLITE_ROW ? CATALOG_STEP_ROW
           : rc == SQLITE_DONE ? CATALOG_STEP_DONE
                               : CATALOG_STEP_ERROR;
}

static bool column_null(struct catalog_stmt *s, int col)
{
    return sqlite3_column_type(lite(s)->lite, col) == SQLITE_NULL;
}

static const char *column_text(struct catalog_stmt *s, int col)
{
    const unsigned char *t = sqlite3_column_text(lite(s)->lite, col);
    return t != NULL ? (const char *)t : "";
}

static double column_double(struct catalog_stmt *s, int col)
{
    return sqlite3_column_double(lite(s)->lite, col);
}

static long long column_int64(struct catalog_stmt *s, int col)
{
    return (long long)sqlite3_column_int64(lite(s)->lite, col);
}

/* Lock waits past the busy timeout are "busy", constraint failures the caller's data. */
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

static enum gs_status fail(struct catalog_stmt *s, struct gs_error *err, const char *pointer,
                           const char *what)
{
    return lite_fail(lite(s)->db, err, pointer, what);
}

/* Back to the cache, reset: it holds no read transaction. */
static void finalize(struct catalog_stmt *s)
{
    stmt_cache_release(lite(s)->cache, lite(s)->lite);
    free(s);
}

static const struct catalog_stmt_ops lite_ops = {
    bind_text,   bind_double,   bind_int64,   step, column_null,
    column_text, column_double, column_int64, fail, finalize,
};

enum gs_status lite_sql_prepare(struct stmt_cache *cache, const char *sql,
                                struct catalog_stmt **out, struct gs_error *err)
{
    struct lite_stmt *s = calloc(1, sizeof(*s));
    if (s == NULL)
        return gs_error_add(err, GS_ERR_NOMEM, "", "out of memory preparing a statement");
    s->base.ops = &lite_ops;
    s->db = stmt_cache_db(cache);
    s->cache = cache;
    /* the statement at rest in the cache, else one prepared (from the SQL rewritten) */
    s->lite = stmt_cache_lookup(cache, sql);
    if (s->lite == NULL) {
        char *text = catalog_sql_rewrite(sql, "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')",
                                         "date('now')", '?');
        if (text == NULL) {
            free(s);
            return gs_error_add(err, GS_ERR_NOMEM, "", "out of memory preparing a statement");
        }
        const int rc = stmt_cache_prepare(cache, sql, text, &s->lite);
        free(text);
        if (rc != SQLITE_OK) {
            free(s);
            return gs_error_add(err, GS_ERR_DB, "", "preparing a catalog statement: %s",
                                sqlite3_errmsg(stmt_cache_db(cache)));
        }
    }
    *out = &s->base;
    return GS_OK;
}

/* BEGIN and COMMIT, through the connection's statement cache. */
static enum gs_status lite_exec(struct stmt_cache *cache, const char *sql, struct gs_error *err)
{
    if (stmt_cache_exec(cache, sql) == SQLITE_OK)
        return GS_OK;
    return lite_fail(stmt_cache_db(cache), err, "", sql);
}

enum gs_status lite_sql_begin(struct stmt_cache *cache, bool write, struct gs_error *err)
{
    return lite_exec(cache, write ? "BEGIN IMMEDIATE" : "BEGIN", err);
}

enum gs_status lite_sql_end(struct stmt_cache *cache, enum gs_status st, struct gs_error *err)
{
    sqlite3 *db = stmt_cache_db(cache);
    if (st == GS_OK)
        st = lite_exec(cache, "COMMIT", err);
    if (st != GS_OK && !sqlite3_get_autocommit(db))
        sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
    return st;
}
