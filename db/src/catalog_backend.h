/*
 * catalog_backend.h - what a database does for the catalog, as a table of operations: the
 * handle (catalog_handle.c), its statements (catalog_sql.c) and its writes
 * (catalog_write.c) call through the table of the handle's backend and never ask which
 * database is behind it.
 *
 * Two backends fill it: SQLite (lite_backend.c, over catalog_lite.h) and PostgreSQL
 * (pg_backend.c, over catalog_pg.h). Every operation takes back `impl`, the backend's own
 * connection (struct catalog_lite, struct catalog_pg), which the handle owns until it calls
 * `close`. The statuses and messages are the backend's: a caller passes them on as they are.
 */
#ifndef GS_CATALOG_BACKEND_H
#define GS_CATALOG_BACKEND_H

#include "gs/status.h"

#include <stdbool.h>
#include <stddef.h>

struct catalog_snapshot;
struct catalog_stmt;

struct catalog_backend {
    const char *name; /* what catalog_backend() says: "sqlite" or "postgresql" */

    /* Closes the connection and frees `impl` (NULL: nothing). */
    void (*close)(void *impl);

    /* catalog.h: the schema version, the readiness probe, a snapshot built from `prev`
     * (borrowed; NULL: every row read) in one consistent read. */
    enum gs_status (*schema_version)(void *impl, int *out, struct gs_error *err);
    enum gs_status (*ping)(void *impl, size_t *models, size_t *gpus, struct gs_error *err);
    enum gs_status (*snapshot)(void *impl, const struct catalog_snapshot *prev,
                               struct catalog_snapshot **out, struct gs_error *err);

    /* catalog_write.h: the change counter, and holding off other processes' writes. */
    enum gs_status (*data_version)(void *impl, long long *out, struct gs_error *err);
    enum gs_status (*writers_lock)(void *impl, struct gs_error *err);
    void (*writers_unlock)(void *impl);

    /* catalog_sql.h: a statement (the backend's own, behind struct catalog_stmt_ops) and
     * transactions. */
    enum gs_status (*prepare)(void *impl, const char *sql, struct catalog_stmt **out,
                              struct gs_error *err);
    enum gs_status (*tx_begin)(void *impl, bool write, struct gs_error *err);
    enum gs_status (*tx_end)(void *impl, enum gs_status st, struct gs_error *err);

    /* catalog.h's watch: a second connection told of other processes' changes (*out owned
     * by the caller until watch_close). A backend without one fails watch_open with
     * GS_ERR_UNSUPPORTED and leaves the other three NULL. */
    enum gs_status (*watch_open)(void *impl, void **out, struct gs_error *err);
    enum gs_status (*watch_wait)(void *watch, int timeout_ms, bool *changed,
                                 struct gs_error *err);
    enum gs_status (*watch_version)(void *watch, long long *out, struct gs_error *err);
    void (*watch_close)(void *watch);
};

/* The two backends (lite_backend.c, pg_backend.c). */
extern const struct catalog_backend lite_backend;
extern const struct catalog_backend pg_backend;

#endif
