/*
 * lite_snapshot.c - copying an SQLite catalog into a snapshot (see lite_snapshot.h); every
 * string is duplicated (snapshot.h) so the snapshot outlives the statements.
 */
#include "lite_snapshot.h"

#include "catalog.h"
#include "snapshot.h"
#include "stmt_cache.h"

#include <sqlite3.h>
#include <stdint.h>

#define MODEL_COLUMNS CATALOG_MODEL_COLUMNS
#define GPU_COLUMNS CATALOG_GPU_COLUMNS

/* SQLite rows for the readers below: values as SQLite stores them (a REAL read as a double,
 * never through text). */
static const char *sqlite_text(const void *row, int col)
{
    return (const char *)sqlite3_column_text((sqlite3_stmt *)(uintptr_t)row, col);
}

static bool sqlite_number(const void *row, int col, double *out)
{
    sqlite3_stmt *stmt = (sqlite3_stmt *)(uintptr_t)row;
    if (sqlite3_column_type(stmt, col) == SQLITE_NULL)
        return false;
    *out = sqlite3_column_double(stmt, col);
    return true;
}

static long long sqlite_integer(const void *row, int col)
{
    return sqlite3_column_int64((sqlite3_stmt *)(uintptr_t)row, col);
}

static const struct catalog_row_ops sqlite_row_ops = {sqlite_text, sqlite_number, sqlite_integer};

/* Reads the rows `stmt` yields (every row, or the one bound to ?1) onto the end of the
 * snapshot's models (or GPUs). */
static enum gs_status read_rows(sqlite3 *db, sqlite3_stmt *stmt, struct catalog_snapshot *s,
                                bool models, struct gs_error *err)
{
    bool oom = false;
    int rc;
    const struct catalog_row row = {&sqlite_row_ops, stmt};
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
        if (!catalog_snapshot_read_row(s, models, &row)) {
            oom = true;
            break;
        }
    }
    if (oom)
        return gs_error_add(err, GS_ERR_NOMEM, "", "out of memory reading %s",
                            models ? "models" : "gpus");
    if (rc != SQLITE_DONE)
        return gs_error_add(err, GS_ERR_DB, "", "reading %s: %s", models ? "models" : "gpus",
                            sqlite3_errmsg(db));
    return GS_OK;
}

/* The statement for `sql` from the connection's cache (stmt_cache_release gives it back,
 * reset, on every path). */
static enum gs_status prepare(struct stmt_cache *cache, const char *sql, sqlite3_stmt **stmt,
                              struct gs_error *err)
{
    if (stmt_cache_acquire(cache, sql, stmt) != SQLITE_OK)
        return gs_error_add(err, GS_ERR_DB, "", "reading the catalog: %s",
                            sqlite3_errmsg(stmt_cache_db(cache)));
    return GS_OK;
}

static enum gs_status load_table(struct stmt_cache *cache, struct catalog_snapshot *s, bool models,
                                 struct gs_error *err)
{
    sqlite3_stmt *stmt = NULL;
    enum gs_status st = prepare(
        cache, models ? MODEL_COLUMNS " ORDER BY id" : GPU_COLUMNS " ORDER BY id", &stmt, err);
    if (st == GS_OK)
        st = read_rows(stmt_cache_db(cache), stmt, s, models, err);
    stmt_cache_release(cache, stmt);
    return st;
}

/* Every alias, onto rows found by id (rows and aliases both sorted by id: one merge). */
static enum gs_status load_aliases(struct stmt_cache *cache, struct catalog_snapshot *s,
                                   bool models, struct gs_error *err)
{
    const char *sql = models ? "SELECT alias, model_id FROM model_aliases ORDER BY model_id, alias"
                             : "SELECT alias, gpu_id FROM gpu_aliases ORDER BY gpu_id, alias";
    sqlite3_stmt *stmt = NULL;
    enum gs_status st = prepare(cache, sql, &stmt, err);
    if (st != GS_OK)
        return st;
    size_t at = 0;
    int rc;
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
        if (!catalog_snapshot_add_alias(s, models, (const char *)sqlite3_column_text(stmt, 1),
                                        (const char *)sqlite3_column_text(stmt, 0), &at)) {
            st = gs_error_add(err, GS_ERR_NOMEM, "", "out of memory reading aliases");
            break;
        }
    }
    if (st == GS_OK && rc != SQLITE_DONE)
        st = gs_error_add(err, GS_ERR_DB, "", "reading aliases: %s",
                          sqlite3_errmsg(stmt_cache_db(cache)));
    stmt_cache_release(cache, stmt);
    return st;
}

static enum gs_status read_schema_version(struct stmt_cache *cache, int *out, struct gs_error *err)
{
    sqlite3_stmt *stmt = NULL;
    enum gs_status st = prepare(cache, "PRAGMA user_version", &stmt, err);
    if (st == GS_OK && sqlite3_step(stmt) == SQLITE_ROW)
        *out = sqlite3_column_int(stmt, 0);
    else if (st == GS_OK)
        st = gs_error_add(err, GS_ERR_DB, "", "reading the schema version: %s",
                          sqlite3_errmsg(stmt_cache_db(cache)));
    stmt_cache_release(cache, stmt);
    return st;
}

/* Every row, inside the caller's read transaction. */
static enum gs_status load_all(struct stmt_cache *cache, struct catalog_snapshot *s,
                               struct gs_error *err)
{
    int version = 0;
    enum gs_status st = read_schema_version(cache, &version, err);
    if (st == GS_OK) {
        catalog_snapshot_set_schema_version(s, version);
        st = load_table(cache, s, true, err);
    }
    if (st == GS_OK)
        st = load_table(cache, s, false, err);
    if (st == GS_OK)
        st = load_aliases(cache, s, true, err);
    if (st == GS_OK)
        st = load_aliases(cache, s, false, err);
    return st;
}

/* Runs `load` in one read transaction (models, GPUs and aliases: one consistent view) and
 * hands out the snapshot, or frees it. */
static enum gs_status
in_read_transaction(struct stmt_cache *cache,
                    enum gs_status (*load)(struct stmt_cache *, struct catalog_snapshot *,
                                           const struct catalog_snapshot *, struct gs_error *),
                    const struct catalog_snapshot *prev, struct catalog_snapshot **out,
                    struct gs_error *err)
{
    struct catalog_snapshot *s = catalog_snapshot_new();
    if (s == NULL)
        return gs_error_add(err, GS_ERR_NOMEM, "", "out of memory loading the catalog");
    enum gs_status st = GS_OK;
    if (stmt_cache_exec(cache, "BEGIN") != SQLITE_OK)
        st = gs_error_add(err, GS_ERR_DB, "", "starting a read: %s",
                          sqlite3_errmsg(stmt_cache_db(cache)));
    if (st == GS_OK)
        st = load(cache, s, prev, err);
    /* every statement of the read is back in the cache, reset: none is mid-step here */
    stmt_cache_exec(cache, "COMMIT");
    return catalog_snapshot_finish(s, st, out, err);
}

static enum gs_status load_everything(struct stmt_cache *cache, struct catalog_snapshot *s,
                                      const struct catalog_snapshot *prev, struct gs_error *err)
{
    (void)prev;
    return load_all(cache, s, err);
}

/* Reads one changed row by id, with its aliases, onto the end of `s`. */
static enum gs_status read_changed_row(struct stmt_cache *cache, struct catalog_snapshot *s,
                                       bool models, const char *id, struct gs_error *err)
{
    sqlite3_stmt *stmt = NULL;
    enum gs_status st = prepare(
        cache, models ? MODEL_COLUMNS " WHERE id = ?1" : GPU_COLUMNS " WHERE id = ?1", &stmt, err);
    const size_t before = models ? s->model_count : s->gpu_count;
    if (st == GS_OK) {
        sqlite3_bind_text(stmt, 1, id, -1, SQLITE_TRANSIENT);
        st = read_rows(stmt_cache_db(cache), stmt, s, models, err);
    }
    stmt_cache_release(cache, stmt);
    if (st != GS_OK || (models ? s->model_count : s->gpu_count) == before)
        return st; /* cannot vanish inside the transaction; nothing to add if it did */
    st = prepare(cache,
                 models ? "SELECT alias FROM model_aliases WHERE model_id = ?1 ORDER BY alias"
                        : "SELECT alias FROM gpu_aliases WHERE gpu_id = ?1 ORDER BY alias",
                 &stmt, err);
    if (st != GS_OK)
        return st;
    sqlite3_bind_text(stmt, 1, id, -1, SQLITE_TRANSIENT);
    size_t at = before; /* the row just read */
    int rc;
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
        if (!catalog_snapshot_add_alias(s, models, id, (const char *)sqlite3_column_text(stmt, 0),
                                        &at)) {
            st = gs_error_add(err, GS_ERR_NOMEM, "", "out of memory reading aliases");
            break;
        }
    }
    if (st == GS_OK && rc != SQLITE_DONE)
        st = gs_error_add(err, GS_ERR_DB, "", "reading aliases: %s",
                          sqlite3_errmsg(stmt_cache_db(cache)));
    stmt_cache_release(cache, stmt);
    return st;
}

/* One table of a refresh: walks (id, revision, created_at) in id order beside the previous
 * snapshot's rows (also in id order); a row whose three are unchanged is shared, any other
 * is read again. Every write bumps the row's revision (the entity tag depends on it), and a
 * row deleted and created again has a new creation time. */
static enum gs_status refresh_table(struct stmt_cache *cache, struct catalog_snapshot *s,
                                    const struct catalog_snapshot *prev, bool models,
                                    struct gs_error *err)
{
    sqlite3_stmt *stmt = NULL;
    enum gs_status st = prepare(cache,
                                models ? "SELECT id, revision, created_at FROM models ORDER BY id"
                                       : "SELECT id, revision, created_at FROM gpus ORDER BY id",
                                &stmt, err);
    if (st != GS_OK)
        return st;
    size_t at = 0;
    int rc;
    while (st == GS_OK && (rc = sqlite3_step(stmt)) == SQLITE_ROW) {
        const char *id = (const char *)sqlite3_column_text(stmt, 0);
        const long long rev = sqlite3_column_int64(stmt, 1);
        const uint64_t revision = rev > 0 ? (uint64_t)rev : 0;
        const char *created = (const char *)sqlite3_column_text(stmt, 2);
        if (id == NULL)
            continue;
        if (catalog_snapshot_unchanged(prev, models, id, revision, created, &at))
            st = catalog_snapshot_share_row(s, prev, models, at)
                     ? GS_OK
                     : gs_error_add(err, GS_ERR_NOMEM, "", "out of memory loading the catalog");
        else
            st = read_changed_row(cache, s, models, id, err);
    }
    if (st == GS_OK && rc != SQLITE_DONE)
        st = gs_error_add(err, GS_ERR_DB, "", "reading the catalog: %s",
                          sqlite3_errmsg(stmt_cache_db(cache)));
    stmt_cache_release(cache, stmt);
    return st;
}

static enum gs_status load_changes(struct stmt_cache *cache, struct catalog_snapshot *s,
                                   const struct catalog_snapshot *prev, struct gs_error *err)
{
    int version = 0;
    enum gs_status st = read_schema_version(cache, &version, err);
    if (st != GS_OK)
        return st;
    catalog_snapshot_set_schema_version(s, version);
    /* a migration by another process may rewrite rows without new revisions */
    if (!catalog_snapshot_read_at(prev, version))
        return load_all(cache, s, err);
    st = refresh_table(cache, s, prev, true, err);
    if (st == GS_OK)
        st = refresh_table(cache, s, prev, false, err);
    return st;
}

enum gs_status lite_snapshot_load(struct stmt_cache *cache, const struct catalog_snapshot *prev,
                                  struct catalog_snapshot **out, struct gs_error *err)
{
    if (prev == NULL)
        return in_read_transaction(cache, load_everything, NULL, out, err);
    return in_read_transaction(cache, load_changes, prev, out, err);
}
