/*
 * store.h - the live catalog behind the HTTP server: one writer connection,
 * and the current immutable service (snapshot, decoded architectures,
 * rendered listings) that readers borrow.
 *
 * Readers never touch SQL: store_acquire hands out a reference to the current
 * service under a short mutex. Writers are serialized on the writer
 * connection; after a successful write the store refreshes the snapshot (only
 * rows whose revision changed are read and derived again), builds a new
 * service and swaps it in, and requests still holding the old one
 * finish with it. When another process writes the same file, the store
 * notices through PRAGMA data_version (checked at most every 100 ms, never
 * waiting on a writer) and reloads.
 *
 * On a shared (PostgreSQL) catalog a watcher thread does that instead, off
 * the request path: it LISTENs for other replicas' change notifications,
 * checks the change counter at least every second, and reloads when it
 * moved. While the database is unreachable the store keeps serving its last
 * view (writes fail with GS_ERR_BUSY) and reports it (store_stats); the
 * watch and the writer connection reconnect by themselves.
 */
#ifndef GS_STORE_H
#define GS_STORE_H

#include "catalog.h"
#include "api/service.h"

struct store;

/* Takes ownership of `catalog` and `service` (the service built from it). */
enum gs_status store_create(struct catalog *catalog, struct service *service, struct store **out,
                            struct gs_error *err);

/* Closes the catalog and drops the store's reference to the service. */
void store_free(struct store *store);

/* The current service, with a reference the caller drops (store_release). */
struct service *store_acquire(struct store *store);
void store_release(struct service *service);

/* Runs `write` on the writer connection with writes serialized; when it
 * returns GS_OK the catalog is reloaded and the new service swapped in
 * before store_write returns (so the writer's next read sees its change).
 * GS_ERR_PRECONDITION reloads too: the file is newer than the snapshot. */
typedef enum gs_status (*store_write_fn)(struct catalog *catalog, void *arg, struct gs_error *err);
enum gs_status store_write(struct store *store, store_write_fn write, void *arg,
                           struct gs_error *err);

/* Runs a read-only `fn` on the catalog connection under the writer lock (the
 * readiness probe, price history). */
enum gs_status store_read(struct store *store, store_write_fn fn, void *arg, struct gs_error *err);

/* For /metrics, /readyz and the Catalog-Age header: how long ago the served
 * catalog view was last known current (built, or checked against the
 * database), how many times it was rebuilt (after writes here, or another
 * process's), the change counter it was built at, the backend, and whether
 * the database answered the last check. */
struct store_stats {
    long long snapshot_age_ms;
    unsigned long long reloads;
    unsigned long long failed_reloads;
    long long data_version;
    const char *backend; /* "sqlite" or "postgresql" */
    bool reachable;
};
void store_stats(struct store *store, struct store_stats *out);

/* Whether the catalog is a shared (PostgreSQL) one, watched by a thread. */
bool store_shared(const struct store *store);

#endif
