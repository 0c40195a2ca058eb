/*
 * catalog.c - opening the catalog (an SQLite file, migrated here, or a
 * PostgreSQL database, catalog_pg.c), its probes and its watch (see catalog.h).
 */
#include "catalog.h"

#include "catalog_int.h"
#include "catalog_pg.h"
#include "catalog_pg_int.h"

#include "embedded.h"
#include "stmt_cache.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Embedded db/migrations/NNNN_*.sql, sorted by name (generated). */
extern const struct gs_embedded_file gs_migrations_files[];
extern const size_t gs_migrations_count;

#define BUSY_TIMEOUT_MS 5000

/* One of the two backends: an SQLite file (db, with its statements kept in cache) or a
 * shared PostgreSQL database (pg). */
struct catalog {
    sqlite3 *db;
    struct stmt_cache *cache; /* made once the schema is migrated; freed before db closes */
    struct catalog_pg *pg;
};

struct catalog_pg *catalog_pg_of(struct catalog *catalog)
{
    return catalog->pg;
}

const char *catalog_backend(const struct catalog *catalog)
{
    return catalog->pg != NULL ? "postgresql" : "sqlite";
}

static enum gs_status db_error(struct catalog *c, struct gs_error *err, const char *what)
{
    return gs_error_add(err, GS_ERR_DB, "", "%s: %s", what,
                        c != NULL && c->db != NULL ? sqlite3_errmsg(c->db) : "no connection");
}

sqlite3 *catalog_db(struct catalog *catalog)
{
    return catalog->db;
}

struct stmt_cache *catalog_stmt_cache(struct catalog *catalog)
{
    return catalog->cache;
}

int catalog_schema_latest(void)
{
    return (int)gs_migrations_count;
}

/* Runs every statement of a script through prepare/step, so migrations use
 * the same path as everything else and report the failing statement. */
static enum gs_status run_script(struct catalog *c, const char *sql, const char *name,
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

static enum gs_status exec_simple(struct catalog *c, const char *sql, struct gs_error *err)
{
    return run_script(c, sql, "pragma", err);
}

static enum gs_status read_user_version(struct catalog *c, int *out, struct gs_error *err)
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
static enum gs_status write_user_version(struct catalog *c, int version, struct gs_error *err)
{
    char sql[64];
    snprintf(sql, sizeof(sql), "PRAGMA user_version = %d", version);
    return exec_simple(c, sql, err);
}

static enum gs_status migrate(struct catalog *c, int target, struct gs_error *err)
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

enum gs_status catalog_open_at_version(const char *path, int version, struct catalog **out,
                                       struct gs_error *err)
{
    if (version < 0 || version > (int)gs_migrations_count)
        return gs_error_add(err, GS_ERR_INTERNAL, "", "no schema version %d", version);
    struct catalog *c = calloc(1, sizeof(*c));
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
    catalog_close(c);
    return st;
}

enum gs_status catalog_open(const char *path, struct catalog **out, struct gs_error *err)
{
    return catalog_open_location(path, NULL, out, err);
}

enum gs_status catalog_open_location(const char *location, const char *password,
                                     struct catalog **out, struct gs_error *err)
{
    *out = NULL;
    if (!catalog_pg_is_url(location))
        return catalog_open_at_version(location, (int)gs_migrations_count, out, err);
    struct catalog *c = calloc(1, sizeof(*c));
    if (c == NULL)
        return gs_error_add(err, GS_ERR_NOMEM, "", "out of memory opening the catalog");
    enum gs_status st = catalog_pg_open_auth(location, password, &c->pg, err);
    if (st != GS_OK) {
        free(c);
        return st;
    }
    *out = c;
    return GS_OK;
}

void catalog_close(struct catalog *catalog)
{
    if (catalog == NULL)
        return;
    /* every statement finalized first, or sqlite3_close would fail with SQLITE_BUSY and
     * leave the connection open */
    stmt_cache_free(catalog->cache);
    sqlite3_close(catalog->db);
    catalog_pg_close(catalog->pg);
    free(catalog);
}

enum gs_status catalog_schema_version(struct catalog *catalog, int *out, struct gs_error *err)
{
    if (catalog->pg != NULL)
        return catalog_pg_schema_version(catalog->pg, out, err);
    return read_user_version(catalog, out, err);
}

/* The watch is the listener connection itself. */
struct catalog_watch {
    struct catalog_pg *pg;
};

enum gs_status catalog_watch_open(struct catalog *catalog, struct catalog_watch **out,
                                  struct gs_error *err)
{
    *out = NULL;
    if (catalog->pg == NULL)
        return gs_error_add(err, GS_ERR_UNSUPPORTED, "",
                            "an SQLite catalog is watched through PRAGMA data_version");
    struct catalog_watch *w = calloc(1, sizeof(*w));
    if (w == NULL)
        return gs_error_add(err, GS_ERR_NOMEM, "", "out of memory");
    enum gs_status st = catalog_pg_open_listener(catalog->pg, &w->pg, err);
    if (st != GS_OK) {
        free(w);
        return st;
    }
    *out = w;
    return GS_OK;
}

enum gs_status catalog_watch_wait(struct catalog_watch *w, int timeout_ms, bool *changed,
                                  struct gs_error *err)
{
    return catalog_pg_wait(w->pg, timeout_ms, changed, err);
}

enum gs_status catalog_watch_version(struct catalog_watch *w, long long *out,
                                     struct gs_error *err)
{
    return catalog_pg_data_version(w->pg, out, err);
}

void catalog_watch_close(struct catalog_watch *w)
{
    if (w == NULL)
        return;
    catalog_pg_close(w->pg);
    free(w);
}

static enum gs_status count_rows(struct catalog *c, const char *sql, size_t *out,
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

enum gs_status catalog_ping(struct catalog *catalog, size_t *models, size_t *gpus,
                            struct gs_error *err)
{
    if (catalog->pg != NULL)
        return catalog_pg_ping(catalog->pg, models, gpus, err);
    enum gs_status st = count_rows(catalog, "SELECT count(*) FROM models", models, err);
    if (st == GS_OK)
        st = count_rows(catalog, "SELECT count(*) FROM gpus", gpus, err);
    return st;
}

/* FNV-1a, 64 bits: enough to tell revisions apart, not a security boundary
 * (the If-Match check is an equality test on our own tags). */
static uint64_t fnv1a(uint64_t h, const void *data, size_t n)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}

void catalog_etag(const char *id, uint64_t revision, const char *created_at,
                  char out[CATALOG_ETAG_MAX])
{
    uint64_t h = 0xcbf29ce484222325ULL;
    h = fnv1a(h, id, strlen(id) + 1);
    h = fnv1a(h, &revision, sizeof(revision));
    if (created_at != NULL)
        h = fnv1a(h, created_at, strlen(created_at));
    snprintf(out, CATALOG_ETAG_MAX, "\"%016llx\"", (unsigned long long)h);
}
