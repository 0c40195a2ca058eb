/*
 * stmt_cache.h - an SQLite connection's prepared statements, kept for the
 * life of the connection so the catalog prepares each of its statements once
 * rather than at every use (preparing was ~12% of the server's CPU under a
 * mixed read/write load, every catalog write preparing each statement again).
 *
 * Statements are found by the content of their key (the SQL the caller
 * wrote), never its address, so a built string cannot stand for another.
 * A lent statement comes reset with no bindings, and stmt_cache_release
 * resets it and clears its bindings again: a statement at rest holds no read
 * transaction (which would hold back WAL checkpoints and schema changes).
 * A key whose statement is already lent out, or that the cache has no room or
 * memory for, gets a statement of its own, finalized on release: the cache
 * saves work and never changes what a statement does. A statement prepared
 * before a schema change is prepared again by SQLite on its next step (the
 * sqlite3_prepare_v2 rules).
 *
 * Ownership: the cache borrows the connection, and its owner closes it after
 * stmt_cache_free. The cache owns every statement it prepared, lent or not,
 * and a copy of each key. A caller borrows a statement from stmt_cache_acquire
 * (or stmt_cache_lookup, stmt_cache_prepare) until its stmt_cache_release, and
 * releases it before stmt_cache_free.
 *
 * No lock of its own: like the connection it serves (opened with
 * SQLITE_OPEN_NOMUTEX), a cache is used by one thread at a time (in the
 * server, under the store's writer lock).
 */
#ifndef GS_STMT_CACHE_H
#define GS_STMT_CACHE_H

#include <sqlite3.h>
#include <stddef.h>

struct stmt_cache;

/* A new, empty cache over `db`; NULL when out of memory. */
struct stmt_cache *stmt_cache_new(sqlite3 *db);

/* Finalizes every statement of the cache and frees it (NULL: nothing). Every
 * lent statement must be released first; then closing the connection cannot
 * fail on a statement of the cache. */
void stmt_cache_free(struct stmt_cache *cache);

/* The connection (borrowed). */
sqlite3 *stmt_cache_db(const struct stmt_cache *cache);

/* The statement for `sql` (the key and the text prepared), reset with no bindings, in
 * *out: SQLITE_OK, or what preparing returned (*out NULL, sqlite3_errmsg says why). */
int stmt_cache_acquire(struct stmt_cache *cache, const char *sql, sqlite3_stmt **out);

/* The cached statement for `key` when it is at rest (lent, reset with no bindings), else
 * NULL: then stmt_cache_prepare it. */
sqlite3_stmt *stmt_cache_lookup(struct stmt_cache *cache, const char *key);

/* Prepares `text` as the statement for `key` (for a key that is not the text itself, such as
 * SQL with markers the caller rewrites; the same key must always give the same text) and
 * lends it in *out: SQLITE_OK, or what preparing returned (*out NULL). */
int stmt_cache_prepare(struct stmt_cache *cache, const char *key, const char *text,
                       sqlite3_stmt **out);

/* Steps a statement that returns no rows worth reading (BEGIN, COMMIT) to its end, as
 * sqlite3_exec would: SQLITE_OK, or the error (sqlite3_errmsg says why). */
int stmt_cache_exec(struct stmt_cache *cache, const char *sql);

/* Takes back a lent statement (NULL: nothing): a cached one is reset with its bindings
 * cleared, one of its own finalized. */
void stmt_cache_release(struct stmt_cache *cache, sqlite3_stmt *stmt);

/* How many statements are lent out now (schema changes wait for none). */
size_t stmt_cache_lent(const struct stmt_cache *cache);

#endif
