/*
 * catalog_handle.c - the catalog handle (see catalog.h): opening picks the backend the
 * location names (a postgres:// URL: PostgreSQL, catalog_pg.h; anything else: an SQLite
 * file, catalog_lite.h), and every other call goes through that backend's table
 * (catalog_backend.h).
 */
#include "catalog.h"

#include "catalog_backend.h"
#include "catalog_int.h"
#include "catalog_lite.h"
#include "catalog_pg.h"

#include <stdlib.h>

/* A handle for `backend` whose connection is still to be opened (NULL when out of memory):
 * made first, so that no database is touched for a handle that cannot be had. */
static struct catalog *new_handle(const struct catalog_backend *backend)
{
    struct catalog *c = calloc(1, sizeof(*c));
    if (c != NULL)
        c->backend = backend;
    return c;
}

enum gs_status catalog_open_at_version(const char *path, int version, struct catalog **out,
                                       struct gs_error *err)
{
    struct catalog *c = new_handle(&lite_backend);
    if (c == NULL)
        return gs_error_add(err, GS_ERR_NOMEM, "", "out of memory opening the catalog");
    struct catalog_lite *lite = NULL;
    const enum gs_status st = catalog_lite_open(path, version, &lite, err);
    if (st != GS_OK) {
        free(c);
        return st;
    }
    c->impl = lite;
    *out = c;
    return GS_OK;
}

enum gs_status catalog_open(const char *path, struct catalog **out, struct gs_error *err)
{
    return catalog_open_location(path, NULL, out, err);
}

enum gs_status catalog_open_location(const char *location, const char *password,
                                     struct catalog **out, struct gs_error *err)
{
    *out = NULL;
    if (!catalog_pg_is_url(location))
        return catalog_open_at_version(location, catalog_schema_latest(), out, err);
    struct catalog *c = new_handle(&pg_backend);
    if (c == NULL)
        return gs_error_add(err, GS_ERR_NOMEM, "", "out of memory opening the catalog");
    struct catalog_pg *pg = NULL;
    const enum gs_status st = catalog_pg_open_auth(location, password, &pg, err);
    if (st != GS_OK) {
        free(c);
        return st;
    }
    c->impl = pg;
    *out = c;
    return GS_OK;
}

const char *catalog_backend(const struct catalog *catalog)
{
    return catalog->backend->name;
}

void catalog_close(struct catalog *catalog)
{
    if (catalog == NULL)
        return;
    catalog->backend->close(catalog->impl);
    free(catalog);
}

enum gs_status catalog_schema_version(struct catalog *catalog, int *out, struct gs_error *err)
{
    return catalog->backend->schema_version(catalog->impl, out, err);
}

enum gs_status catalog_ping(struct catalog *catalog, size_t *models, size_t *gpus,
                            struct gs_error *err)
{
    return catalog->backend->ping(catalog->impl, models, gpus, err);
}

enum gs_status catalog_snapshot_load(struct catalog *catalog, struct catalog_snapshot **out,
                                     struct gs_error *err)
{
    return catalog->backend->snapshot(catalog->impl, NULL, out, err);
}

enum gs_status catalog_snapshot_refresh(struct catalog *catalog,
                                        const struct catalog_snapshot *prev,
                                        struct catalog_snapshot **out, struct gs_error *err)
{
    return catalog->backend->snapshot(catalog->impl, prev, out, err);
}

/* A watch is the backend's own (a PostgreSQL listener connection) with its table. */
struct catalog_watch {
    const struct catalog_backend *backend;
    void *impl;
};

enum gs_status catalog_watch_open(struct catalog *catalog, struct catalog_watch **out,
                                  struct gs_error *err)
{
    *out = NULL;
    void *impl = NULL;
    const enum gs_status st = catalog->backend->watch_open(catalog->impl, &impl, err);
    if (st != GS_OK)
        return st;
    struct catalog_watch *w = calloc(1, sizeof(*w));
    if (w == NULL) {
        catalog->backend->watch_close(impl);
        return gs_error_add(err, GS_ERR_NOMEM, "", "out of memory");
    }
    w->backend = catalog->backend;
    w->impl = impl;
    *out = w;
    return GS_OK;
}

enum gs_status catalog_watch_wait(struct catalog_watch *w, int timeout_ms, bool *changed,
                                  struct gs_error *err)
{
    return w->backend->watch_wait(w->impl, timeout_ms, changed, err);
}

enum gs_status catalog_watch_version(struct catalog_watch *w, long long *out,
                                     struct gs_error *err)
{
    return w->backend->watch_version(w->impl, out, err);
}

void catalog_watch_close(struct catalog_watch *w)
{
    if (w == NULL)
        return;
    w->backend->watch_close(w->impl);
    free(w);
}
