/*
 * stmt_cache.c - an SQLite connection's prepared statements, prepared once and
 * lent out again and again (see stmt_cache.h).
 */
#include "stmt_cache.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* More distinct statements than the catalog has (about 40): past this, statements are
 * prepared for each use and not kept, so built keys cannot grow a cache without bound. */
#define STMT_CACHE_MAX 128

struct stmt_cache_entry {
    uint64_t hash;      /* of key */
    char *key;          /* owned copy */
    sqlite3_stmt *stmt; /* owned */
    bool lent;
};

/* A few dozen entries: a scan of their hashes costs less than a table would save. */
struct stmt_cache {
    sqlite3 *db;                      /* borrowed */
    struct stmt_cache_entry *entries; /* count used of cap */
    size_t count, cap;
    size_t lent;                      /* statements lent out, cached or of their own */
};

/* FNV-1a, 64 bits. */
static uint64_t stmt_cache_hash(const char *key)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (const unsigned char *p = (const unsigned char *)key; *p != '\0'; p++) {
        h ^= *p;
        h *= 0x100000001b3ULL;
    }
    return h;
}

static struct stmt_cache_entry *stmt_cache_find(struct stmt_cache *cache, uint64_t hash,
                                                const char *key)
{
    for (size_t i = 0; i < cache->count; i++) {
        struct stmt_cache_entry *e = &cache->entries[i];
        if (e->hash == hash && strcmp(e->key, key) == 0)
            return e;
    }
    return NULL;
}

/* Lends a cached statement at rest, made ready for new bindings. */
static sqlite3_stmt *stmt_cache_lend(struct stmt_cache *cache, struct stmt_cache_entry *e)
{
    /* released statements are already reset; once more is cheap and leaves the
     * connection's last error as it was (the statement has not run since) */
    sqlite3_reset(e->stmt);
    sqlite3_clear_bindings(e->stmt);
    e->lent = true;
    cache->lent++;
    return e->stmt;
}

struct stmt_cache *stmt_cache_new(sqlite3 *db)
{
    struct stmt_cache *cache = calloc(1, sizeof(*cache));
    if (cache != NULL)
        cache->db = db;
    return cache;
}

void stmt_cache_free(struct stmt_cache *cache)
{
    if (cache == NULL)
        return;
    for (size_t i = 0; i < cache->count; i++) {
        sqlite3_finalize(cache->entries[i].stmt);
        free(cache->entries[i].key);
    }
    free(cache->entries);
    free(cache);
}

sqlite3 *stmt_cache_db(const struct stmt_cache *cache)
{
    return cache->db;
}

sqlite3_stmt *stmt_cache_lookup(struct stmt_cache *cache, const char *key)
{
    struct stmt_cache_entry *e = stmt_cache_find(cache, stmt_cache_hash(key), key);
    return e != NULL && !e->lent ? stmt_cache_lend(cache, e) : NULL;
}

/* A statement of the caller's own for `text` (finalized on release): a key already lent
 * out, or one the cache has no room or memory for. */
static int stmt_cache_prepare_own(struct stmt_cache *cache, const char *text, sqlite3_stmt **out)
{
    const int rc = sqlite3_prepare_v2(cache->db, text, -1, out, NULL);
    if (rc == SQLITE_OK && *out != NULL)
        cache->lent++;
    return rc;
}

int stmt_cache_prepare(struct stmt_cache *cache, const char *key, const char *text,
                       sqlite3_stmt **out)
{
    *out = NULL;
    const uint64_t hash = stmt_cache_hash(key);
    struct stmt_cache_entry *e = stmt_cache_find(cache, hash, key);
    if (e != NULL) {
        if (e->lent)
            return stmt_cache_prepare_own(cache, text, out);
        *out = stmt_cache_lend(cache, e);
        return SQLITE_OK;
    }
    if (cache->count == STMT_CACHE_MAX)
        return stmt_cache_prepare_own(cache, text, out);
    /* room and the key's copy first, so a statement once prepared is always kept */
    if (cache->count == cache->cap) {
        const size_t cap = cache->cap == 0 ? 16 : cache->cap * 2;
        struct stmt_cache_entry *grown = realloc(cache->entries, cap * sizeof(*grown));
        if (grown == NULL)
            return stmt_cache_prepare_own(cache, text, out);
        cache->entries = grown;
        cache->cap = cap;
    }
    char *copy = strdup(key);
    if (copy == NULL)
        return stmt_cache_prepare_own(cache, text, out);
    sqlite3_stmt *stmt = NULL;
    /* PERSISTENT: kept for the connection's life, so kept out of its small lookaside
     * memory; otherwise the same as sqlite3_prepare_v2 */
    const int rc = sqlite3_prepare_v3(cache->db, text, -1, SQLITE_PREPARE_PERSISTENT, &stmt, NULL);
    if (rc != SQLITE_OK || stmt == NULL) { /* an error, or only a comment: nothing to keep */
        free(copy);
        return rc;
    }
    e = &cache->entries[cache->count++];
    *e = (struct stmt_cache_entry){hash, copy, stmt, false};
    *out = stmt_cache_lend(cache, e);
    return SQLITE_OK;
}

int stmt_cache_acquire(struct stmt_cache *cache, const char *sql, sqlite3_stmt **out)
{
    *out = stmt_cache_lookup(cache, sql);
    return *out != NULL ? SQLITE_OK : stmt_cache_prepare(cache, sql, sql, out);
}

int stmt_cache_exec(struct stmt_cache *cache, const char *sql)
{
    sqlite3_stmt *stmt = NULL;
    int rc = stmt_cache_acquire(cache, sql, &stmt);
    if (rc != SQLITE_OK || stmt == NULL)
        return rc;
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW)
        ;
    stmt_cache_release(cache, stmt);
    return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

void stmt_cache_release(struct stmt_cache *cache, sqlite3_stmt *stmt)
{
    if (stmt == NULL)
        return;
    if (cache->lent > 0)
        cache->lent--;
    for (size_t i = 0; i < cache->count; i++) {
        struct stmt_cache_entry *e = &cache->entries[i];
        if (e->stmt == stmt) {
            /* at rest: no read transaction held, no bound copy of the caller's text */
            sqlite3_reset(stmt);
            sqlite3_clear_bindings(stmt);
            e->lent = false;
            return;
        }
    }
    sqlite3_finalize(stmt);
}

size_t stmt_cache_lent(const struct stmt_cache *cache)
{
    return cache->lent;
}
