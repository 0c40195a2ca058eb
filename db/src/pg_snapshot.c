/*
 * pg_snapshot.c - copying a PostgreSQL catalog into a snapshot, or refreshing one, in one
 * consistent read (see catalog_pg.h): the same structures, in the same order, that an
 * SQLite catalog gives (snapshot.h).
 */
#include "catalog_pg.h"

#include "catalog.h"
#include "catalog_pg_int.h"
#include "snapshot.h"

#include <libpq-fe.h>
#include <stdint.h>
#include <stdlib.h>

struct pg_row {
    const PGresult *res;
    int row;
};

static const char *pg_text(const void *row, int col)
{
    const struct pg_row *r = row;
    return PQgetisnull(r->res, r->row, col) ? NULL : PQgetvalue(r->res, r->row, col);
}

static bool pg_number(const void *row, int col, double *out)
{
    const char *text = pg_text(row, col);
    if (text == NULL)
        return false;
    *out = strtod(text, NULL); /* float8 prints the shortest text that reads back exactly */
    return true;
}

static long long pg_integer(const void *row, int col)
{
    const char *text = pg_text(row, col);
    return text != NULL ? strtoll(text, NULL, 10) : 0;
}

static const struct catalog_row_ops pg_row_ops = {pg_text, pg_number, pg_integer};

/* Every model (or GPU) onto the snapshot, in id order. */
static enum gs_status read_table(PGconn *conn, struct catalog_snapshot *s, bool models,
                                 struct gs_error *err)
{
    /* COLLATE "C": strcmp's order, which the alias merge and lookups expect */
    PGresult *res = catalog_pg_rows(conn,
                                    models ? CATALOG_MODEL_COLUMNS " ORDER BY id COLLATE \"C\""
                                           : CATALOG_GPU_COLUMNS " ORDER BY id COLLATE \"C\"",
                                    NULL, false, models ? "reading models" : "reading GPUs", err);
    if (res == NULL)
        return GS_ERR_DB;
    bool oom = false;
    for (int i = 0; i < PQntuples(res) && !oom; i++) {
        const struct pg_row pr = {res, i};
        const struct catalog_row row = {&pg_row_ops, &pr};
        oom = !catalog_snapshot_read_row(s, models, &row);
    }
    PQclear(res);
    return oom ? gs_error_add(err, GS_ERR_NOMEM, "", "out of memory reading the catalog") : GS_OK;
}

static enum gs_status read_aliases(PGconn *conn, struct catalog_snapshot *s, bool models,
                                   struct gs_error *err)
{
    /* SQLite orders aliases with NOCASE: lower() in strcmp's order */
    PGresult *res = catalog_pg_rows(
        conn,
        models ? "SELECT alias, model_id FROM model_aliases ORDER BY model_id COLLATE \"C\", "
                 "lower(alias) COLLATE \"C\""
               : "SELECT alias, gpu_id FROM gpu_aliases ORDER BY gpu_id COLLATE \"C\", "
                 "lower(alias) COLLATE \"C\"",
        NULL, false, "reading aliases", err);
    if (res == NULL)
        return GS_ERR_DB;
    size_t at = 0;
    enum gs_status st = GS_OK;
    for (int i = 0; i < PQntuples(res) && st == GS_OK; i++)
        if (!catalog_snapshot_add_alias(s, models, PQgetvalue(res, i, 1), PQgetvalue(res, i, 0),
                                        &at))
            st = gs_error_add(err, GS_ERR_NOMEM, "", "out of memory reading aliases");
    PQclear(res);
    return st;
}

enum gs_status catalog_pg_snapshot_load(struct catalog_pg *pg, struct catalog_snapshot **out,
                                        struct gs_error *err)
{
    return catalog_pg_snapshot_refresh(pg, NULL, out, err);
}

/* A changed (or new) row by id, with its aliases, onto the end of `s`. */
static enum gs_status read_one(PGconn *conn, struct catalog_snapshot *s, bool models,
                               const char *id, struct gs_error *err)
{
    PGresult *res = catalog_pg_rows(conn,
                                    models ? CATALOG_MODEL_COLUMNS " WHERE id = $1"
                                           : CATALOG_GPU_COLUMNS " WHERE id = $1",
                                    id, false, "reading a changed row", err);
    if (res == NULL)
        return GS_ERR_DB;
    bool ok = true;
    if (PQntuples(res) == 1) {
        const struct pg_row pr = {res, 0};
        const struct catalog_row row = {&pg_row_ops, &pr};
        ok = catalog_snapshot_read_row(s, models, &row);
    }
    PQclear(res);
    if (!ok)
        return gs_error_add(err, GS_ERR_NOMEM, "", "out of memory reading the catalog");
    res = catalog_pg_rows(conn,
                          models ? "SELECT alias, model_id FROM model_aliases WHERE model_id = $1"
                                   " ORDER BY lower(alias) COLLATE \"C\""
                                 : "SELECT alias, gpu_id FROM gpu_aliases WHERE gpu_id = $1"
                                   " ORDER BY lower(alias) COLLATE \"C\"",
                          id, false, "reading aliases", err);
    if (res == NULL)
        return GS_ERR_DB;
    /* the row just read is the last: start the merge there */
    size_t at = (models ? s->model_count : s->gpu_count);
    at = at > 0 ? at - 1 : 0;
    for (int i = 0; i < PQntuples(res) && ok; i++)
        ok = catalog_snapshot_add_alias(s, models, PQgetvalue(res, i, 1), PQgetvalue(res, i, 0), &at);
    PQclear(res);
    return ok ? GS_OK : gs_error_add(err, GS_ERR_NOMEM, "", "out of memory reading aliases");
}

/* One table of a refresh: rows whose (id, revision, created_at) prev holds are shared, the
 * rest read again (as catalog_snapshot_refresh does on SQLite). */
static enum gs_status refresh_table(PGconn *conn, struct catalog_snapshot *s,
                                    const struct catalog_snapshot *prev, bool models,
                                    struct gs_error *err)
{
    PGresult *res = catalog_pg_rows(conn,
                                    models ? "SELECT id, revision, created_at FROM models"
                                             " ORDER BY id COLLATE \"C\""
                                           : "SELECT id, revision, created_at FROM gpus"
                                             " ORDER BY id COLLATE \"C\"",
                                    NULL, false, "reading the catalog", err);
    if (res == NULL)
        return GS_ERR_DB;
    enum gs_status st = GS_OK;
    size_t at = 0;
    for (int i = 0; i < PQntuples(res) && st == GS_OK; i++) {
        const char *id = PQgetvalue(res, i, 0);
        const long long rev = strtoll(PQgetvalue(res, i, 1), NULL, 10);
        const char *created = PQgetisnull(res, i, 2) ? NULL : PQgetvalue(res, i, 2);
        if (catalog_snapshot_unchanged(prev, models, id, rev > 0 ? (uint64_t)rev : 0, created, &at))
            st = catalog_snapshot_share_row(s, prev, models, at)
                     ? GS_OK
                     : gs_error_add(err, GS_ERR_NOMEM, "", "out of memory loading the catalog");
        else
            st = read_one(conn, s, models, id, err);
    }
    PQclear(res);
    return st;
}

enum gs_status catalog_pg_snapshot_refresh(struct catalog_pg *pg, const struct catalog_snapshot *prev,
                                           struct catalog_snapshot **out, struct gs_error *err)
{
    *out = NULL;
    PGconn *conn = catalog_pg_conn(pg, err);
    if (conn == NULL)
        return GS_ERR_BUSY;
    struct catalog_snapshot *s = catalog_snapshot_new();
    if (s == NULL)
        return gs_error_add(err, GS_ERR_NOMEM, "", "out of memory loading the catalog");
    /* one consistent view of every table */
    enum gs_status st = catalog_pg_begin(pg, false, err);
    int version = 0;
    if (st == GS_OK)
        st = catalog_pg_read_version(conn, &version, err);
    if (st == GS_OK) {
        catalog_snapshot_set_schema_version(s, version);
        if (prev == NULL || !catalog_snapshot_read_at(prev, version)) {
            /* everything: a first load, or a migration (which may rewrite rows without new
             * revisions) */
            st = read_table(conn, s, true, err);
            if (st == GS_OK)
                st = read_table(conn, s, false, err);
            if (st == GS_OK)
                st = read_aliases(conn, s, true, err);
            if (st == GS_OK)
                st = read_aliases(conn, s, false, err);
        } else {
            st = refresh_table(conn, s, prev, true, err);
            if (st == GS_OK)
                st = refresh_table(conn, s, prev, false, err);
        }
    }
    if (st != GS_OK && PQstatus(conn) != CONNECTION_OK)
        st = GS_ERR_BUSY; /* the database went away mid-read: retry later */
    st = catalog_pg_end(pg, st, err);
    return catalog_snapshot_finish(s, st, out, err);
}
