/*
 * pg_sql.c - the catalog's statements on PostgreSQL (see pg_sql.h).
 */
#include "pg_sql.h"

#include "catalog_pg_int.h"
#include "catalog_sql.h"

#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The most parameters a catalog statement binds (a GPU row has 24). */
#define PARAMS_MAX 32

/* PostgreSQL's type OIDs for what we bind (pg_type.dat): text, int8, float8. */
#define OID_TEXT 25
#define OID_INT8 20
#define OID_FLOAT8 701

struct pg_stmt {
    struct catalog_stmt base; /* first: what catalog_sql.c calls through */
    PGconn *conn;             /* the rewritten SQL, its parameters and result */
    char *sql;
    int params;               /* the highest parameter bound */
    char *values[PARAMS_MAX];
    unsigned types[PARAMS_MAX];
    PGresult *res;
    int row;                  /* the current row of res, -1 before the first */
    bool failed;              /* a parameter could not be copied, or the statement got no answer */
    bool unanswered;          /* ... the latter: the server did not answer in time, or the
                                 connection failed (catalog_pg_fail says which) */
};

static struct pg_stmt *pg(struct catalog_stmt *s)
{
    return (struct pg_stmt *)s;
}

/* Stores parameter i (from 1): a copy of `text` (NULL = SQL NULL). */
static void param(struct pg_stmt *s, int i, const char *text, unsigned type)
{
    if (i < 1 || i > PARAMS_MAX) {
        s->failed = true;
        return;
    }
    free(s->values[i - 1]);
    s->values[i - 1] = NULL;
    s->types[i - 1] = text != NULL ? type : 0;
    if (text != NULL && (s->values[i - 1] = strdup(text)) == NULL)
        s->failed = true;
    if (i > s->params)
        s->params = i;
}

static void bind_text(struct catalog_stmt *s, int i, const char *text)
{
    param(pg(s), i, text, OID_TEXT);
}

static void bind_double(struct catalog_stmt *s, int i, double v)
{
    char text[32];
    snprintf(text, sizeof(text), "%.17g", v); /* reads back as the same double */
    param(pg(s), i, text, OID_FLOAT8);
}

static void bind_int64(struct catalog_stmt *s, int i, long long v)
{
    char text[32];
    snprintf(text, sizeof(text), "%lld", v);
    param(pg(s), i, text, OID_INT8);
}

static enum catalog_step step(struct catalog_stmt *base)
{
    struct pg_stmt *s = pg(base);
    if (s->res == NULL) {
        if (s->failed)
            return CATALOG_STEP_ERROR;
        Oid types[PARAMS_MAX];
        for (int i = 0; i < s->params; i++)
            types[i] = (Oid)s->types[i];
        s->res = catalog_pg_exec_bounded(s->conn, s->sql, s->params, types,
                                         (const char *const *)s->values);
        if (s->res == NULL) { /* no answer in time, or the connection failed: not again */
            s->failed = s->unanswered = true;
            return CATALOG_STEP_ERROR;
        }
        const ExecStatusType status = PQresultStatus(s->res);
        if (status == PGRES_COMMAND_OK)
            return CATALOG_STEP_DONE;
        if (status != PGRES_TUPLES_OK)
            return CATALOG_STEP_ERROR;
    }
    if (PQresultStatus(s->res) != PGRES_TUPLES_OK)
        return PQresultStatus(s->res) == PGRES_COMMAND_OK ? CATALOG_STEP_DONE : CATALOG_STEP_ERROR;
    s->row++;
    return s->row < PQntuples(s->res) ? CATALOG_STEP_ROW : CATALOG_STEP_DONE;
}

static bool column_null(struct catalog_stmt *base, int col)
{
    const struct pg_stmt *s = pg(base);
    return s->res == NULL || s->row < 0 || PQgetisnull(s->res, s->row, col);
}

static const char *column_text(struct catalog_stmt *s, int col)
{
    return column_null(s, col) ? "" : PQgetvalue(pg(s)->res, pg(s)->row, col);
}

static double column_double(struct catalog_stmt *s, int col)
{
    /* float8 prints the shortest text that reads back as the same double */
    return column_null(s, col) ? 0 : strtod(PQgetvalue(pg(s)->res, pg(s)->row, col), NULL);
}

static long long column_int64(struct catalog_stmt *s, int col)
{
    return column_null(s, col) ? 0 : strtoll(PQgetvalue(pg(s)->res, pg(s)->row, col), NULL, 10);
}

static enum gs_status fail(struct catalog_stmt *base, struct gs_error *err, const char *pointer,
                           const char *what)
{
    struct pg_stmt *s = pg(base);
    if (s->failed && !s->unanswered)
        return gs_error_add(err, GS_ERR_NOMEM, "", "%s: out of memory binding a parameter", what);
    return catalog_pg_fail(s->conn, s->res, err, pointer, what);
}

static void finalize(struct catalog_stmt *base)
{
    struct pg_stmt *s = pg(base);
    PQclear(s->res);
    for (int i = 0; i < PARAMS_MAX; i++)
        free(s->values[i]);
    free(s->sql);
    free(s);
}

static const struct catalog_stmt_ops pg_ops = {
    bind_text,   bind_double,   bind_int64,   step, column_null,
    column_text, column_double, column_int64, fail, finalize,
};

enum gs_status pg_sql_prepare(struct catalog_pg *catalog, const char *sql,
                              struct catalog_stmt **out, struct gs_error *err)
{
    struct pg_stmt *s = calloc(1, sizeof(*s));
    char *text = s != NULL ? catalog_sql_rewrite(sql, "gpusizer_now()",
                                                 "to_char(current_date AT TIME ZONE 'UTC', "
                                                 "'YYYY-MM-DD')",
                                                 '$')
                           : NULL;
    if (text == NULL) {
        free(s);
        return gs_error_add(err, GS_ERR_NOMEM, "", "out of memory preparing a statement");
    }
    s->base.ops = &pg_ops;
    s->row = -1;
    /* statements run inside a transaction catalog_tx_begin started (and reconnected for):
     * never reconnect between them */
    s->conn = catalog_pg_current(catalog);
    s->sql = text;
    *out = &s->base;
    return GS_OK;
}
