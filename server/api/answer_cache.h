/*
 * answer_cache.h - recent answers of /v1/recommend and /v1/fit for one
 * catalog view, by request body.
 *
 * Both operations are pure functions of the request body and the catalog
 * view they read (struct service: the snapshot, its prices and decoded
 * architectures). A whole-catalog recommendation sizes hundreds of layouts
 * (about 0.6 ms of CPU); answering the same body again from here costs a
 * lookup and a copy. Each struct service owns one cache, so a catalog write
 * (which makes a new service) starts an empty one and no answer outlives the
 * prices it was computed from.
 *
 * Thread-safe: every call takes the cache's mutex. Bounded: at most
 * ANSWER_CACHE_SLOTS answers and `max_bytes` of keys and answers together,
 * the least recently used evicted first; an answer above a quarter of the
 * bound is not kept.
 */
#ifndef GS_ANSWER_CACHE_H
#define GS_ANSWER_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ANSWER_CACHE_SLOTS 64

enum answer_kind { ANSWER_RECOMMEND, ANSWER_FIT };

struct answer_cache;

/* NULL when max_bytes is 0 (caching off) or out of memory; every other
 * function accepts NULL and then does nothing. */
struct answer_cache *answer_cache_create(size_t max_bytes);
void answer_cache_free(struct answer_cache *cache);

/* A malloc'd, NUL-terminated copy of the answer to `body` (the caller
 * frees it), its length in *length; NULL when not cached. */
char *answer_cache_get(struct answer_cache *cache, enum answer_kind kind, const char *body,
                       size_t body_length, size_t *length);

/* Keeps a copy of `answer` (a 200 response body) for `body`. Failing to
 * allocate only means it is not kept. */
void answer_cache_put(struct answer_cache *cache, enum answer_kind kind, const char *body,
                      size_t body_length, const char *answer, size_t length);

struct answer_cache_stats {
    uint64_t hits, misses, entries, bytes;
};
void answer_cache_stats(struct answer_cache *cache, struct answer_cache_stats *out);

#endif
