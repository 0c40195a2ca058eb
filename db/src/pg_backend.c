/*
 * pg_backend.c - the PostgreSQL catalog as a backend (catalog_backend.h): its connection
 * (catalog_pg.c), snapshots (pg_snapshot.c) and statements (pg_sql.c), and a second
 * connection that LISTENs for other replicas' changes as the handle's watch.
 */
#include "catalog_backend.h"

#include "catalog_pg.h"
#include "catalog_pg_int.h"
#include "pg_sql.h"

static void pg_close(void *impl)
{
    catalog_pg_close(impl);
}

static enum gs_status pg_schema_version(void *impl, int *out, struct gs_error *err)
{
    return catalog_pg_schema_version(impl, out, err);
}

static enum gs_status pg_ping(void *impl, size_t *models, size_t *gpus, struct gs_error *err)
{
    return catalog_pg_ping(impl, models, gpus, err);
}

static enum gs_status pg_snapshot(void *impl, const struct catalog_snapshot *prev,
                                  struct catalog_snapshot **out, struct gs_error *err)
{
    return catalog_pg_snapshot_refresh(impl, prev, out, err);
}

/* The change counter every statement that changes a catalog table bumps. */
static enum gs_status pg_data_version(void *impl, long long *out, struct gs_error *err)
{
    return catalog_pg_data_version(impl, out, err);
}

static enum gs_status pg_writers_lock(void *impl, struct gs_error *err)
{
    return catalog_pg_writers_lock(impl, err);
}

static void pg_writers_unlock(void *impl)
{
    catalog_pg_writers_unlock(impl);
}

static enum gs_status pg_prepare(void *impl, const char *sql, struct catalog_stmt **out,
                                 struct gs_error *err)
{
    return pg_sql_prepare(impl, sql, out, err);
}

static enum gs_status pg_tx_begin(void *impl, bool write, struct gs_error *err)
{
    return catalog_pg_begin(impl, write, err);
}

static enum gs_status pg_tx_end(void *impl, enum gs_status st, struct gs_error *err)
{
    return catalog_pg_end(impl, st, err);
}

/* The watch is a listener connection with the catalog's settings. */
static enum gs_status pg_watch_open(void *impl, void **out, struct gs_error *err)
{
    struct catalog_pg *listener = NULL;
    const enum gs_status st = catalog_pg_open_listener(impl, &listener, err);
    if (st == GS_OK)
        *out = listener;
    return st;
}

static enum gs_status pg_watch_wait(void *watch, int timeout_ms, bool *changed,
                                    struct gs_error *err)
{
    return catalog_pg_wait(watch, timeout_ms, changed, err);
}

static enum gs_status pg_watch_version(void *watch, long long *out, struct gs_error *err)
{
    return catalog_pg_data_version(watch, out, err);
}

static void pg_watch_close(void *watch)
{
    catalog_pg_close(watch);
}

const struct catalog_backend pg_backend = {
    .name = "postgresql",
    .close = pg_close,
    .schema_version = pg_schema_version,
    .ping = pg_ping,
    .snapshot = pg_snapshot,
    .data_version = pg_data_version,
    .writers_lock = pg_writers_lock,
    .writers_unlock = pg_writers_unlock,
    .prepare = pg_prepare,
    .tx_begin = pg_tx_begin,
    .tx_end = pg_tx_end,
    .watch_open = pg_watch_open,
    .watch_wait = pg_watch_wait,
    .watch_version = pg_watch_version,
    .watch_close = pg_watch_close,
};
