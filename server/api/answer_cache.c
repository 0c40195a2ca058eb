/*
 * answer_cache.c - recent /v1/recommend and /v1/fit answers by request body
 * (see answer_cache.h).
 *
 * A small table scanned under a mutex: 64 slots compare a 64-bit hash
 * before the bytes, which costs far less than one estimate. Keys are the
 * exact body bytes, so a body written differently (spacing, member order) is
 * a different key - never a wrong answer.
 */
#include "api/answer_cache.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct slot {
    char *key; /* the request body; NULL = empty slot */
    size_t key_length;
    char *answer;
    size_t length;
    uint64_t hash;
    uint64_t used; /* tick of the last hit or put */
    enum answer_kind kind;
};

struct answer_cache {
    pthread_mutex_t lock;
    size_t max_bytes, bytes;
    uint64_t tick, hits, misses;
    struct slot slots[ANSWER_CACHE_SLOTS];
};

/* FNV-1a over the kind and the body. */
static uint64_t hash_of(enum answer_kind kind, const char *body, size_t length)
{
    uint64_t h = 14695981039346656037ULL ^ (uint64_t)kind;
    for (size_t i = 0; i < length; i++) {
        h ^= (unsigned char)body[i];
        h *= 1099511628211ULL;
    }
    return h;
}

struct answer_cache *answer_cache_create(size_t max_bytes)
{
    if (max_bytes == 0)
        return NULL;
    struct answer_cache *c = calloc(1, sizeof(*c));
    if (c == NULL)
        return NULL;
    if (pthread_mutex_init(&c->lock, NULL) != 0) {
        free(c);
        return NULL;
    }
    c->max_bytes = max_bytes;
    return c;
}

static void clear(struct answer_cache *c, struct slot *s)
{
    c->bytes -= s->key_length + s->length;
    free(s->key);
    free(s->answer);
    memset(s, 0, sizeof(*s));
}

void answer_cache_free(struct answer_cache *c)
{
    if (c == NULL)
        return;
    for (size_t i = 0; i < ANSWER_CACHE_SLOTS; i++)
        if (c->slots[i].key != NULL)
            clear(c, &c->slots[i]);
    pthread_mutex_destroy(&c->lock);
    free(c);
}

static struct slot *find(struct answer_cache *c, enum answer_kind kind, uint64_t hash,
                         const char *body, size_t length)
{
    for (size_t i = 0; i < ANSWER_CACHE_SLOTS; i++) {
        struct slot *s = &c->slots[i];
        if (s->key != NULL && s->hash == hash && s->kind == kind && s->key_length == length &&
            memcmp(s->key, body, length) == 0)
            return s;
    }
    return NULL;
}

char *answer_cache_get(struct answer_cache *c, enum answer_kind kind, const char *body,
                       size_t body_length, size_t *length)
{
    if (c == NULL)
        return NULL;
    const uint64_t hash = hash_of(kind, body, body_length);
    char *copy = NULL;
    pthread_mutex_lock(&c->lock);
    struct slot *s = find(c, kind, hash, body, body_length);
    if (s != NULL) {
        copy = malloc(s->length + 1);
        if (copy != NULL) {
            memcpy(copy, s->answer, s->length + 1);
            *length = s->length;
            s->used = ++c->tick;
        }
    }
    if (copy != NULL)
        c->hits++;
    else
        c->misses++;
    pthread_mutex_unlock(&c->lock);
    return copy;
}

/* The least recently used occupied slot, or NULL when all are empty. */
static struct slot *oldest(struct answer_cache *c)
{
    struct slot *old = NULL;
    for (size_t i = 0; i < ANSWER_CACHE_SLOTS; i++) {
        struct slot *s = &c->slots[i];
        if (s->key != NULL && (old == NULL || s->used < old->used))
            old = s;
    }
    return old;
}

void answer_cache_put(struct answer_cache *c, enum answer_kind kind, const char *body,
                      size_t body_length, const char *answer, size_t length)
{
    if (c == NULL || body_length + length > c->max_bytes / 4)
        return;
    const uint64_t hash = hash_of(kind, body, body_length);
    char *key = malloc(body_length ? body_length : 1);
    char *text = malloc(length + 1);
    if (key == NULL || text == NULL) {
        free(key);
        free(text);
        return;
    }
    memcpy(key, body, body_length);
    memcpy(text, answer, length);
    text[length] = '\0';
    pthread_mutex_lock(&c->lock);
    struct slot *s = find(c, kind, hash, body, body_length);
    if (s != NULL) /* another thread computed it meanwhile: keep theirs */
        goto keep_theirs;
    while (c->bytes + body_length + length > c->max_bytes)
        clear(c, oldest(c)); /* bytes > 0, so some slot is occupied */
    for (size_t i = 0; i < ANSWER_CACHE_SLOTS && s == NULL; i++)
        if (c->slots[i].key == NULL)
            s = &c->slots[i];
    if (s == NULL) {
        s = oldest(c);
        clear(c, s);
    }
    *s = (struct slot){key, body_length, text, length, hash, ++c->tick, kind};
    c->bytes += body_length + length;
    pthread_mutex_unlock(&c->lock);
    return;
keep_theirs:
    pthread_mutex_unlock(&c->lock);
    free(key);
    free(text);
}

void answer_cache_stats(struct answer_cache *c, struct answer_cache_stats *out)
{
    memset(out, 0, sizeof(*out));
    if (c == NULL)
        return;
    pthread_mutex_lock(&c->lock);
    out->hits = c->hits;
    out->misses = c->misses;
    out->bytes = c->bytes;
    for (size_t i = 0; i < ANSWER_CACHE_SLOTS; i++)
        out->entries += c->slots[i].key != NULL;
    pthread_mutex_unlock(&c->lock);
}
