/*
 * lite_backend.c - the SQLite catalog as a backend (catalog_backend.h): a catalog file
 * (catalog_lite.h), its snapshots (lite_snapshot.h) and its statements (lite_sql.h). One
 * process serves a catalog file, so its writer lock is all the writers' lock there is, and
 * it has no watch: PRAGMA data_version tells a process that its snapshot is stale.
 */
#include "catalog_backend.h"

#include "catalog_int.h"
#include "catalog_lite.h"
#include "catalog_sql.h"
#include "lite_snapshot.h"
#include "lite_sql.h"

static void lite_close(void *impl)
{
    catalog_lite_close(impl);
}

static enum gs_status lite_schema_version(void *impl, int *out, struct gs_error *err)
{
    return catalog_lite_schema_version(impl, out, err);
}

static enum gs_status lite_ping(void *impl, size_t *models, size_t *gpus, struct gs_error *err)
{
    return catalog_lite_ping(impl, models, gpus, err);
}

static enum gs_status lite_snapshot(void *impl, const struct catalog_snapshot *prev,
                                    struct catalog_snapshot **out, struct gs_error *err)
{
    return lite_snapshot_load(catalog_lite_cache(impl), prev, out, err);
}

/* PRAGMA data_version of this connection: it changes when another connection commits. */
static enum gs_status lite_data_version(void *impl, long long *out, struct gs_error *err)
{
    struct catalog_stmt *stmt = NULL;
    enum gs_status st = lite_sql_prepare(catalog_lite_cache(impl), "PRAGMA data_version", &stmt,
                                         err);
    if (st != GS_OK)
        return st;
    if (catalog_stmt_step(stmt) == CATALOG_STEP_ROW)
        *out = catalog_stmt_column_int64(stmt, 0);
    else
        st = catalog_stmt_fail(stmt, err, "", "reading the data version");
    catalog_stmt_finalize(stmt);
    return st;
}

/* Nothing to hold: one process serves the file, and its writer lock serializes. */
static enum gs_status lite_writers_lock(void *impl, struct gs_error *err)
{
    (void)impl;
    (void)err;
    return GS_OK;
}

static void lite_writers_unlock(void *impl)
{
    (void)impl;
}

static enum gs_status lite_prepare(void *impl, const char *sql, struct catalog_stmt **out,
                                   struct gs_error *err)
{
    return lite_sql_prepare(catalog_lite_cache(impl), sql, out, err);
}

static enum gs_status lite_tx_begin(void *impl, bool write, struct gs_error *err)
{
    return lite_sql_begin(catalog_lite_cache(impl), write, err);
}

static enum gs_status lite_tx_end(void *impl, enum gs_status st, struct gs_error *err)
{
    return lite_sql_end(catalog_lite_cache(impl), st, err);
}

static enum gs_status lite_watch_open(void *impl, void **out, struct gs_error *err)
{
    (void)impl;
    (void)out;
    return gs_error_add(err, GS_ERR_UNSUPPORTED, "",
                        "an SQLite catalog is watched through PRAGMA data_version");
}

const struct catalog_backend lite_backend = {
    .name = "sqlite",
    .close = lite_close,
    .schema_version = lite_schema_version,
    .ping = lite_ping,
    .snapshot = lite_snapshot,
    .data_version = lite_data_version,
    .writers_lock = lite_writers_lock,
    .writers_unlock = lite_writers_unlock,
    .prepare = lite_prepare,
    .tx_begin = lite_tx_begin,
    .tx_end = lite_tx_end,
    .watch_open = lite_watch_open,
    /* no watch is ever opened: nothing to wait on, read or close */
    .watch_wait = NULL,
    .watch_version = NULL,
    .watch_close = NULL,
};

sqlite3 *catalog_db(struct catalog *catalog)
{
    return catalog->backend == &lite_backend ? catalog_lite_db(catalog->impl) : NULL;
}
