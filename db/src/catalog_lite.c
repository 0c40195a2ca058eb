/*
 * catalog_lite.c - an SQLite catalog file: opened, migrated, probed (see catalog_lite.h).
 */
#include "catalog_lite.h"

#include "catalog.h"
#include "embedded.h"
#include "stmt_cache.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>

/* Embedded db/migrations/NNNN_*.sql, sorted by name (generated). */
extern const struct gs_embedded_file gs_migrations_files[];
extern const size_t gs_migrations_count;

#define BUSY_TIMEOUT_MS 5000

struct catalog_lite {
    sqlite3 *db;
    struct stmt_cache *cache; /* made once the schema is migrated; freed before db closes */
};

static enum gs_status db_error(struct catalog_lite *c, struct gs_error *err, const char *what)
{
    return gs_error_add(err, GS_ERR_DB, "", "%s: %s", what,
                        c != NULL && c->db != NULL ? sqlite3_errmsg(c->db) : "no connection");
}

sqlite3 *catalog_lite_db(struct catalog_lite *lite)
{
    return lite->db;
}

struct stmt_cache *catalog_lite_cache(struct catalog_lite *lite)
{
    return lite->cache;
}

int catalog_schema_latest(void)
{
    return (int)gs_migrations_count;
}

/* Runs every statement of a script through prepare/step, so migrations use
 * the same path as everything else and report the failing statement. */
static enum gs_status run_script(struct catalog_lite *c, const char *sql, const char *name,
                                 struct gs_error *err)
{
    const char *tail = sql;
    while (tail != NULL && *tail != '\0') {
        sqlite3_stmt *stmt = NULL;
        const char *next = NULL;
        if (sqlite3_prepare_v2(c->db, tail, -1, &stmt, &next) != SQLITE_OK)
            return gs_error_add(err, GS_ERR_DB, "", "migration %s: %s", name, sqlite3_errmsg(c->db));
        if (stmt == NULL) /* only whitespace or comments were left */
            break;
        int rc;
        do {
            rc = sqlite3_step(stmt);
        } while (rc == SQLITE_ROW);
        sqlite3_finalize(stmt);
        if (rc != SQLITE_DONE)
            return gs_error_add(err, GS_ERR_DB, "", "migration %s: %s", name, sqlite3_errmsg(c->db));
        tail = next;
    }
    return GS_OK;
}

static enum gs_status exec_simple(struct catalog_lite *c, const char *sql, struct gs_error *err)
{
    return run_script(c, sql, "pragma", err);
}

static enum gs_status read_user_version(struct catalog_lite *c, int *out, struct gs_error *err)
{
    sqlite3_stmt *stmt = NULL;
    enum gs_status st = GS_OK;
    if (sqlite3_prepare_v2(c->db, "PRAGMA user_version", -1, &stmt, NULL) != SQLITE_OK)
        return db_error(c, err, "reading the schema version");
    if (sqlite3_step(stmt) == SQLITE_ROW)
        *out = sqlite3_column_int(stmt, 0);
    else
        st = db_error(c, err, "reading the schema version");
    sqlite3_finalize(stmt);
    return st;
}

/* PRAGMA statements cannot take bound parameters; the version is an integer
 * we produce, never user input. */
static enum gs_status write_user_version(struct catalog_lite *c, int version, struct gs_error *err)
{
    char sql[64];
    snprintf(sql, sizeof(sql), "PRAGMA user_version = %d", version);
    return exec_simple(c, sql, err);
}

static enum gs_status migrate(struct catalog_lite *c, int target, struct gs_error *err)
{
    /* DDL never runs beside a cached statement mid-step: the cache is made after the
     * migrations (this only guards that order) */
    if (c->cache != NULL && stmt_cache_lent(c->cache) > 0)
        return gs_error_add(err, GS_ERR_INTERNAL, "",
                            "cannot migrate the catalog while a statement is running");
    enum gs_status st = exec_simple(c, "BEGIN IMMEDIATE", err);
    if (st != GS_OK)
        return st;
    int current = 0;
    st = read_user_version(c, &current, err);
    if (st == GS_OK && current > (int)gs_migrations_count)
        st = gs_error_add(err, GS_ERR_DB, "",
                          "the catalog has schema version %d, newer than this gpusizer (%d)",
                          current, (int)gs_migrations_count);
    for (int v = current + 1; st == GS_OK && v <= target; v++) {
        const struct gs_embedded_file *m = &gs_migrations_files[v - 1];
        st = run_script(c, (const char *)m->data, m->name, err);
        if (st == GS_OK)
            st = write_user_version(c, v, err);
    }
    if (st == GS_OK)
        return exec_simple(c, "COMMIT", err);
    exec_simple(c, "ROLLBACK", NULL);
    return st;
}

enum gs_status catalog_lite_open(const char *path, int version, struct catalog_lite **out,
                                 struct gs_error *err)
{
    if (version < 0 || version > (int)gs_migrations_count)
        return gs_error_add(err, GS_ERR_INTERNAL, "", "no schema version %d", version);
    struct catalog_lite *c = calloc(1, sizeof(*c));
    if (c == NULL)
        return gs_error_add(err, GS_ERR_NOMEM, "", "out of memory opening the catalog");
    enum gs_status st = GS_OK;
    int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX;
    if (sqlite3_open_v2(path, &c->db, flags, NULL) != SQLITE_OK) {
        st = gs_error_add(err, GS_ERR_DB, "", "cannot open catalog %s: %s", path,
                          c->db != NULL ? sqlite3_errmsg(c->db) : "out of memory");
        goto fail;
    }
    sqlite3_busy_timeout(c->db, BUSY_TIMEOUT_MS);
    sqlite3_extended_result_codes(c->db, 1);
    st = exec_simple(c, "PRAGMA journal_mode = WAL", err);
    if (st == GS_OK)
        st = exec_simple(c, "PRAGMA foreign_keys = ON", err);
    if (st == GS_OK)
        /* FULL: an acknowledged write (a procurement tool's price) survives power loss too,
         * not only a crash of this process (which WAL with NORMAL already survives); writes
         * are rare, so the fsync per commit costs nothing readers see */
        st = exec_simple(c, "PRAGMA synchronous = FULL", err);
    if (st == GS_OK)
        st = migrate(c, version, err);
    if (st == GS_OK && (c->cache = stmt_cache_new(c->db)) == NULL)
        st = gs_error_add(err, GS_ERR_NOMEM, "", "out of memory opening the catalog");
    if (st != GS_OK)
        goto fail;
    *out = c;
    return GS_OK;
fail:
    catalog_lite_close(c);
    return st;
}

void catalog_lite_close(struct catalog_lite *lite)
{
    if (lite == NULL)
        return;
    /* every statement finalized first, or sqlite3_close would fail with SQLITE_BUSY and
     * leave the connection open */
    stmt_cache_free(lite->cache);
    sqlite3_close(lite->db);
    free(lite);
}

enum gs_status catalog_lite_schema_version(struct catalog_lite *lite, int *out,
                                           struct gs_error *err)
{
    return read_user_version(lite, out, err);
}

static enum gs_status count_rows(struct catalog_lite *c, const char *sql, size_t *out,
                                 struct gs_error *err)
{
    sqlite3_stmt *stmt = NULL;
    enum gs_status st = GS_OK;
    if (stmt_cache_acquire(c->cache, sql, &stmt) != SQLITE_OK)
        return db_error(c, err, "counting catalog rows");
    if (sqlite3_step(stmt) == SQLITE_ROW)
        *out = (size_t)sqlite3_column_int64(stmt, 0);
    else
        st = db_error(c, err, "counting catalog rows");
    stmt_cache_release(c->cache, stmt);
    return st;
}

enum gs_status catalog_lite_ping(struct catalog_lite *lite, size_t *models, size_t *gpus,
                                 struct gs_error *err)
{
    enum gs_status st = count_rows(lite, "SELECT count(*) FROM models", models, err);
    if (st == GS_OK)
        st = count_rows(lite, "SELECT count(*) FROM gpus", gpus, err);
    return st;
}
