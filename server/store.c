/* store.c - the live catalog and its service swap (see store.h). */
#include "store.h"

#include "catalog_write.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

struct store {
    pthread_mutex_t writer;   /* the catalog connection and reloads */
    pthread_mutex_t current;  /* the service pointer only */
    struct catalog *catalog;
    struct service *service;
    long long data_version;
    long long checked_at;     /* last data_version check, monotonic milliseconds */
    long long loaded_at;      /* when the current service was built, monotonic ms (atomic) */
    unsigned long long reloads; /* services built after the first (atomic) */
};

/* Another process's write becomes visible within this long. */
#define STALE_CHECK_MS 100

static long long now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

enum gs_status store_create(struct catalog *catalog, struct service *service, struct store **out,
                            struct gs_error *err)
{
    struct store *s = calloc(1, sizeof(*s));
    if (s == NULL) {
        catalog_close(catalog);
        service_unref(service);
        return gs_error_add(err, GS_ERR_NOMEM, "", "out of memory");
    }
    pthread_mutex_init(&s->writer, NULL);
    pthread_mutex_init(&s->current, NULL);
    s->catalog = catalog;
    s->service = service;
    s->checked_at = now_ms();
    s->loaded_at = s->checked_at;
    if (catalog != NULL)
        catalog_data_version(catalog, &s->data_version, NULL);
    *out = s;
    return GS_OK;
}

void store_free(struct store *store)
{
    if (store == NULL)
        return;
    service_unref(store->service);
    catalog_close(store->catalog);
    pthread_mutex_destroy(&store->writer);
    pthread_mutex_destroy(&store->current);
    free(store);
}

/* Loads a new snapshot and swaps the service. Writer lock held. */
static enum gs_status reload(struct store *store, struct gs_error *err)
{
    /* the writer lock is held, so store->service is stable here: read the rows that
     * changed since it and derive only theirs (finding 9 of issue 17: rebuilding the whole
     * view on every write starved concurrent reads) */
    const struct service *prev = store->service;
    struct catalog_snapshot *snapshot = NULL;
    enum gs_status st = catalog_snapshot_refresh(
        store->catalog, prev != NULL ? service_snapshot(prev) : NULL, &snapshot, err);
    if (st != GS_OK)
        return st;
    struct service *next = NULL;
    struct gs_error unusable; /* rows whose config cannot be read stay out of estimates */
    gs_error_init(&unusable);
    st = service_create_next(prev, snapshot, &next, &unusable);
    if (st != GS_OK)
        return gs_error_add(err, st, "", "rebuilding the catalog view failed");
    pthread_mutex_lock(&store->current);
    struct service *old = store->service;
    store->service = next;
    pthread_mutex_unlock(&store->current);
    service_unref(old);
    catalog_data_version(store->catalog, &store->data_version, NULL);
    __atomic_store_n(&store->loaded_at, now_ms(), __ATOMIC_RELAXED);
    __atomic_add_fetch(&store->reloads, 1, __ATOMIC_RELAXED);
    return GS_OK;
}

void store_stats(struct store *store, struct store_stats *out)
{
    out->snapshot_age_ms = now_ms() - __atomic_load_n(&store->loaded_at, __ATOMIC_RELAXED);
    out->reloads = __atomic_load_n(&store->reloads, __ATOMIC_RELAXED);
}

/* Another process may have written the file: compare data_version, at most
 * every STALE_CHECK_MS, and only when no writer holds the connection (a
 * trylock, so readers never wait). */
static void refresh_if_stale(struct store *store)
{
    const long long now = now_ms();
    if (store->catalog == NULL ||
        now - __atomic_load_n(&store->checked_at, __ATOMIC_RELAXED) < STALE_CHECK_MS)
        return;
    if (pthread_mutex_trylock(&store->writer) != 0)
        return;
    __atomic_store_n(&store->checked_at, now, __ATOMIC_RELAXED);
    long long version = 0;
    if (catalog_data_version(store->catalog, &version, NULL) == GS_OK &&
        version != store->data_version)
        reload(store, NULL);
    pthread_mutex_unlock(&store->writer);
}

struct service *store_acquire(struct store *store)
{
    refresh_if_stale(store);
    pthread_mutex_lock(&store->current);
    struct service *s = service_ref(store->service);
    pthread_mutex_unlock(&store->current);
    return s;
}

void store_release(struct service *service)
{
    service_unref(service);
}

enum gs_status store_write(struct store *store, store_write_fn write, void *arg,
                           struct gs_error *err)
{
    if (store->catalog == NULL)
        return gs_error_add(err, GS_ERR_INTERNAL, "", "no catalog is open");
    pthread_mutex_lock(&store->writer);
    enum gs_status st = write(store->catalog, arg, err);
    /* a failed precondition means the file moved on since our snapshot (another process
     * wrote it): reload too, so the client's next read gets the version it must match */
    if (st == GS_OK || st == GS_ERR_PRECONDITION) {
        struct gs_error reload_err;
        gs_error_init(&reload_err);
        /* the write is committed; a failed reload leaves the old view for now and the
         * next data_version check retries it */
        if (reload(store, &reload_err) != GS_OK)
            store->data_version = -1;
    }
    pthread_mutex_unlock(&store->writer);
    return st;
}

enum gs_status store_read(struct store *store, store_write_fn fn, void *arg, struct gs_error *err)
{
    if (store->catalog == NULL)
        return gs_error_add(err, GS_ERR_INTERNAL, "", "no catalog is open");
    pthread_mutex_lock(&store->writer);
    enum gs_status st = fn(store->catalog, arg, err);
    pthread_mutex_unlock(&store->writer);
    return st;
}
