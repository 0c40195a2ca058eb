/* store.c - the live catalog and its service swap (see store.h). */
#include "api/store.h"

#include "catalog_write.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct store {
    pthread_mutex_t writer;   /* the catalog connection and reloads */
    pthread_mutex_t current;  /* the service pointer only */
    struct catalog *catalog;
    struct service *service;
    long long data_version;   /* the catalog's change counter the service was built at */
    long long checked_at;     /* last data_version check, monotonic milliseconds */
    long long verified_at;    /* when the service was last known current, monotonic ms (atomic) */
    unsigned long long reloads; /* services built after the first (atomic) */
    /* a shared (PostgreSQL) catalog: the watcher thread and what it saw */
    struct catalog_watch *watch;
    pthread_t watcher;
    bool shared;              /* the catalog is PostgreSQL's (set once at creation) */
    bool watching;
    bool stopping;            /* atomic */
    bool unreachable;         /* atomic: the last contact with the database failed */
    unsigned long long failed_reloads; /* atomic */
};

/* Another process's write becomes visible within this long. */
#define STALE_CHECK_MS 100

/* A shared catalog's watcher waits this long for a notification before it checks the
 * change counter anyway (a notification can be lost with a connection). */
#define WATCH_CHECK_MS 1000

static long long now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void *watch_loop(void *arg);

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
    s->verified_at = s->checked_at;
    if (catalog != NULL)
        catalog_data_version(catalog, &s->data_version, NULL);
    s->shared = catalog != NULL && strcmp(catalog_backend(catalog), "postgresql") == 0;
    if (s->shared) {
        enum gs_status st = catalog_watch_open(catalog, &s->watch, err);
        if (st == GS_OK && pthread_create(&s->watcher, NULL, watch_loop, s) != 0)
            st = gs_error_add(err, GS_ERR_NOMEM, "", "cannot start the catalog watcher");
        if (st != GS_OK) {
            store_free(s);
            return st;
        }
        s->watching = true;
    }
    *out = s;
    return GS_OK;
}

void store_free(struct store *store)
{
    if (store == NULL)
        return;
    if (store->watching) {
        __atomic_store_n(&store->stopping, true, __ATOMIC_RELEASE);
        pthread_join(store->watcher, NULL);
    }
    catalog_watch_close(store->watch);
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
    /* the counter before the rows: a write landing between the two makes the next check
     * reload again, never miss it */
    long long version = store->data_version;
    enum gs_status st = catalog_data_version(store->catalog, &version, err);
    if (st != GS_OK)
        return st;
    struct catalog_snapshot *snapshot = NULL;
    st = catalog_snapshot_refresh(
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
    __atomic_store_n(&store->data_version, version, __ATOMIC_RELAXED);
    __atomic_store_n(&store->verified_at, now_ms(), __ATOMIC_RELAXED);
    __atomic_add_fetch(&store->reloads, 1, __ATOMIC_RELAXED);
    return GS_OK;
}

bool store_shared(const struct store *store)
{
    return store->shared;
}

void store_stats(struct store *store, struct store_stats *out)
{
    out->snapshot_age_ms = now_ms() - __atomic_load_n(&store->verified_at, __ATOMIC_RELAXED);
    out->reloads = __atomic_load_n(&store->reloads, __ATOMIC_RELAXED);
    out->failed_reloads = __atomic_load_n(&store->failed_reloads, __ATOMIC_RELAXED);
    out->data_version = __atomic_load_n(&store->data_version, __ATOMIC_RELAXED);
    out->backend = store->catalog != NULL ? catalog_backend(store->catalog) : "none";
    out->reachable = !__atomic_load_n(&store->unreachable, __ATOMIC_RELAXED);
}

/* A shared catalog's watcher: waits for another replica's change notification (or
 * WATCH_CHECK_MS), compares the change counter with the served view's, and reloads
 * when they differ. Every successful check marks the view current; a failed one marks
 * the database unreachable (reads go on from the view; writes fail with 503) until a
 * check succeeds again - the watch reconnects by itself. */
static void *watch_loop(void *arg)
{
    struct store *store = arg;
    while (!__atomic_load_n(&store->stopping, __ATOMIC_ACQUIRE)) {
        bool changed = false;
        long long version = 0;
        struct gs_error err;
        gs_error_init(&err);
        if (catalog_watch_wait(store->watch, WATCH_CHECK_MS, &changed, &err) != GS_OK ||
            catalog_watch_version(store->watch, &version, &err) != GS_OK) {
            /* said once per outage, for the operator's log */
            if (!__atomic_exchange_n(&store->unreachable, true, __ATOMIC_RELAXED))
                fprintf(stderr, "gpusizer: catalog database unreachable, serving the last "
                                "view: %s\n",
                        err.count ? err.items[0].detail : "");
            continue;
        }
        if (__atomic_exchange_n(&store->unreachable, false, __ATOMIC_RELAXED))
            fprintf(stderr, "gpusizer: catalog database reachable again\n");
        if (version == __atomic_load_n(&store->data_version, __ATOMIC_RELAXED)) {
            __atomic_store_n(&store->verified_at, now_ms(), __ATOMIC_RELAXED);
            continue;
        }
        pthread_mutex_lock(&store->writer);
        /* a write through this replica may have reloaded meanwhile, past the version read
         * above: read it again under the lock, or that write's own notification would
         * rebuild the same view a second time (and empty its answer cache) */
        if (catalog_watch_version(store->watch, &version, &err) == GS_OK &&
            version != store->data_version && reload(store, &err) != GS_OK)
            __atomic_add_fetch(&store->failed_reloads, 1, __ATOMIC_RELAXED);
        pthread_mutex_unlock(&store->writer);
    }
    return NULL;
}

/* Another process may have written the file: compare data_version, at most
 * every STALE_CHECK_MS, and only when no writer holds the connection (a
 * trylock, so readers never wait). */
static void refresh_if_stale(struct store *store)
{
    const long long now = now_ms();
    if (store->catalog == NULL || store->watching ||
        now - __atomic_load_n(&store->checked_at, __ATOMIC_RELAXED) < STALE_CHECK_MS)
        return;
    if (pthread_mutex_trylock(&store->writer) != 0)
        return;
    __atomic_store_n(&store->checked_at, now, __ATOMIC_RELAXED);
    long long version = 0;
    if (catalog_data_version(store->catalog, &version, NULL) == GS_OK) {
        if (version != store->data_version)
            reload(store, NULL);
        else
            __atomic_store_n(&store->verified_at, now, __ATOMIC_RELAXED);
    }
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
    /* a shared catalog: hold the other replicas' writes off and bring the view up to date
     * first, so a write merged onto the view (a PATCH, a bulk import without If-Match) is
     * merged onto the current rows and its implicit If-Match cannot fail */
    bool locked = false;
    if (store->shared) {
        enum gs_status lock = catalog_writers_lock(store->catalog, err);
        if (lock != GS_OK) {
            pthread_mutex_unlock(&store->writer);
            return lock;
        }
        locked = true;
        long long version = 0;
        struct gs_error stale;
        gs_error_init(&stale);
        if (catalog_data_version(store->catalog, &version, &stale) == GS_OK &&
            version != __atomic_load_n(&store->data_version, __ATOMIC_RELAXED) &&
            reload(store, &stale) != GS_OK)
            __atomic_store_n(&store->data_version, -1, __ATOMIC_RELAXED);
    }
    enum gs_status st = write(store->catalog, arg, err);
    /* a failed precondition means the file moved on since our snapshot (another process
     * wrote it): reload too, so the client's next read gets the version it must match */
    if (st == GS_OK || st == GS_ERR_PRECONDITION) {
        struct gs_error reload_err;
        gs_error_init(&reload_err);
        /* the write is committed; a failed reload leaves the old view for now and the
         * next data_version check retries it */
        if (reload(store, &reload_err) != GS_OK)
            __atomic_store_n(&store->data_version, -1, __ATOMIC_RELAXED);
    }
    if (locked)
        catalog_writers_unlock(store->catalog);
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
