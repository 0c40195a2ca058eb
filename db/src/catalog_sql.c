/*
 * catalog_sql.c - statements and transactions over whichever database the catalog is
 * (see catalog_sql.h): each call goes to the backend's own (catalog_backend.h).
 */
#include "catalog_sql.h"

#include "catalog_backend.h"
#include "catalog_int.h"

#include <stdlib.h>
#include <string.h>

enum gs_status catalog_stmt_prepare(struct catalog *catalog, const char *sql,
                                    struct catalog_stmt **out, struct gs_error *err)
{
    *out = NULL;
    return catalog->backend->prepare(catalog->impl, sql, out, err);
}

void catalog_stmt_text(struct catalog_stmt *s, int i, const char *text)
{
    s->ops->bind_text(s, i, text);
}

void catalog_stmt_double(struct catalog_stmt *s, int i, double v)
{
    s->ops->bind_double(s, i, v);
}

void catalog_stmt_int64(struct catalog_stmt *s, int i, long long v)
{
    s->ops->bind_int64(s, i, v);
}

void catalog_stmt_null(struct catalog_stmt *s, int i)
{
    catalog_stmt_text(s, i, NULL);
}

enum catalog_step catalog_stmt_step(struct catalog_stmt *s)
{
    return s->ops->step(s);
}

bool catalog_stmt_column_null(struct catalog_stmt *s, int col)
{
    return s->ops->column_null(s, col);
}

const char *catalog_stmt_column_text(struct catalog_stmt *s, int col)
{
    return s->ops->column_text(s, col);
}

double catalog_stmt_column_double(struct catalog_stmt *s, int col)
{
    return s->ops->column_double(s, col);
}

long long catalog_stmt_column_int64(struct catalog_stmt *s, int col)
{
    return s->ops->column_int64(s, col);
}

enum gs_status catalog_stmt_fail(struct catalog_stmt *s, struct gs_error *err,
                                 const char *pointer, const char *what)
{
    return s->ops->fail(s, err, pointer, what);
}

void catalog_stmt_finalize(struct catalog_stmt *s)
{
    if (s != NULL)
        s->ops->finalize(s);
}

enum gs_status catalog_tx_begin(struct catalog *catalog, bool write, struct gs_error *err)
{
    return catalog->backend->tx_begin(catalog->impl, write, err);
}

enum gs_status catalog_tx_end(struct catalog *catalog, enum gs_status st, struct gs_error *err)
{
    return catalog->backend->tx_end(catalog->impl, st, err);
}

/* Markers and ? never appear inside the catalog's string literals, so a plain scan will do. */
char *catalog_sql_rewrite(const char *sql, const char *now, const char *today, char param)
{
    const size_t grow = strlen(today) > strlen(now) ? strlen(today) : strlen(now);
    size_t cap = strlen(sql) + 1;
    for (const char *p = sql; (p = strchr(p, '{')) != NULL; p++)
        cap += grow;
    char *out = malloc(cap);
    if (out == NULL)
        return NULL;
    size_t n = 0;
    for (const char *p = sql; *p != '\0';) {
        if (strncmp(p, "{now}", 5) == 0 || strncmp(p, "{today}", 7) == 0) {
            const bool is_now = p[1] == 'n';
            const char *with = is_now ? now : today;
            memcpy(out + n, with, strlen(with));
            n += strlen(with);
            p += is_now ? 5 : 7;
        } else if (*p == '?') {
            out[n++] = param;
            p++;
        } else {
            out[n++] = *p++;
        }
    }
    out[n] = '\0';
    return out;
}
