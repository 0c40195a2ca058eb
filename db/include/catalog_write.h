/*
 * catalog_write.h - changes to the catalog: create, replace and delete models
 * and GPUs, bulk GPU upserts, and GPU price history.
 *
 * Every change runs in one BEGIN IMMEDIATE transaction (on PostgreSQL: a
 * transaction holding the catalog's advisory lock, catalog_sql.h), so
 * concurrent writers on other connections, processes or replicas wait for
 * the write lock (5 s, then GS_ERR_BUSY) instead of failing halfway, and a
 * failed change leaves nothing behind. Optimistic concurrency: a caller passes the entity tag it last saw
 * (struct catalog_precondition); the tag is compared with the stored row
 * inside the transaction, so two writers holding the same version cannot
 * both succeed (the second gets GS_ERR_PRECONDITION).
 *
 * Inputs are borrowed struct catalog_model / catalog_gpu rows: the caller
 * validates them first (types, ranges, sources beside numbers); this module
 * enforces what only the database can see - ids and aliases that collide with
 * other entries (GS_ERR_CONFLICT), missing rows (GS_ERR_NOT_FOUND), stale
 * tags (GS_ERR_PRECONDITION), and the schema's own constraints.
 * Error pointers name request fields ("/aliases/2", "/id").
 */
#ifndef GS_CATALOG_WRITE_H
#define GS_CATALOG_WRITE_H

#include "catalog.h"

#include <stdbool.h>
#include <stddef.h>

struct catalog_precondition {
    const char *if_match;  /* a tag the row must have, "*" = must exist, NULL = no check */
    bool if_none_match;    /* If-None-Match: * - the row must not exist yet */
};

/* The outcome of a put: whether it created the row, and the row's id and new
 * tag (ids are copied; `id` holds at most 128 bytes). */
struct catalog_put_result {
    bool created;
    char id[128];
    char etag[CATALOG_ETAG_MAX];
};

/* Creates or replaces the model `row->id` (resolving an alias to its model).
 * Every column is replaced; aliases become exactly row->aliases. Revision,
 * created_at and updated_at are maintained here, not taken from `row`. */
enum gs_status catalog_model_put(struct catalog *catalog, const struct catalog_model *row,
                                 const struct catalog_precondition *pre,
                                 struct catalog_put_result *out, struct gs_error *err);

/* Deletes a model by id or alias (its aliases go with it). */
enum gs_status catalog_model_delete(struct catalog *catalog, const char *id_or_alias,
                                    const struct catalog_precondition *pre, struct gs_error *err);

/* Creates or replaces a GPU like catalog_model_put. Prices: when
 * row->price_per_hour (or purchase_price) differs from the current one, a
 * history row is added, effective row->price_date (NULL = today, UTC) with
 * row->price_source; the current price is the history's latest by effective
 * date. Such a price may not be dated before the latest one of its kind
 * (GS_ERR_CONFLICT: it would not become current); backfill history with
 * catalog_gpu_add_price. An absent price withdraws the current one (history
 * is kept). */
enum gs_status catalog_gpu_put(struct catalog *catalog, const struct catalog_gpu *row,
                               const struct catalog_precondition *pre,
                               struct catalog_put_result *out, struct gs_error *err);

/* Puts `count` GPUs in one transaction: all or none. `pres` (may be NULL)
 * gives one precondition per row. On failure *failed_row is the index of the
 * row that failed and error pointers are relative to that row. */
enum gs_status catalog_gpu_put_many(struct catalog *catalog, const struct catalog_gpu *rows,
                                    const struct catalog_precondition *pres, size_t count,
                                    size_t *created, size_t *failed_row, struct gs_error *err);

enum gs_status catalog_gpu_delete(struct catalog *catalog, const char *id_or_alias,
                                  const struct catalog_precondition *pre, struct gs_error *err);

/* One entry of a GPU's price history. */
struct catalog_price {
    char kind[16];          /* "on_demand" (USD per GPU-hour) or "purchase" (USD per GPU) */
    double usd;
    char effective_date[16]; /* YYYY-MM-DD */
    char *source;
    char recorded_at[32];
    bool current;           /* the price the catalog uses now */
};

/* The price history of a GPU (id or alias), oldest first. *out is a new array
 * the caller frees with catalog_prices_free; GS_ERR_NOT_FOUND for no GPU. */
enum gs_status catalog_gpu_prices(struct catalog *catalog, const char *id_or_alias,
                                  struct catalog_price **out, size_t *count, struct gs_error *err);

/* Adds one price to a GPU's history (it becomes current when it is the
 * latest by effective date). `effective_date` NULL = today (UTC). */
enum gs_status catalog_gpu_add_price(struct catalog *catalog, const char *id_or_alias,
                                     const char *kind, double usd, const char *effective_date,
                                     const char *source, const struct catalog_precondition *pre,
                                     struct catalog_put_result *out, struct gs_error *err);

void catalog_prices_free(struct catalog_price *prices, size_t count);

/* PRAGMA data_version of this connection: it changes when another connection
 * commits, so a process can tell its snapshot is stale without reading rows. */
enum gs_status catalog_data_version(struct catalog *catalog, long long *out,
                                    struct gs_error *err);

/* Holds off every other process's catalog writes until catalog_writers_unlock, so a
 * writer can refresh its view and merge onto it with nothing landing in between. On
 * PostgreSQL the session's advisory lock on CATALOG_PG_LOCK_KEY, the key every write
 * transaction takes (waits at most the session's lock_timeout, 5 s: GS_ERR_BUSY); on
 * SQLite nothing (one process serves a catalog file; its writer lock serializes). */
enum gs_status catalog_writers_lock(struct catalog *catalog, struct gs_error *err);
void catalog_writers_unlock(struct catalog *catalog);

#endif
