/*
 * catalog_sql.h - one statement interface over the catalog's two databases,
 * so the write path (catalog_write.c) is written once for SQLite and
 * PostgreSQL.
 *
 * SQL is written in SQLite's dialect with ?N parameters and two markers
 * each backend rewrites: {now} (the timestamp text the schema stores,
 * 2025-01-02T03:04:05.678Z) and {today} (YYYY-MM-DD, UTC). On PostgreSQL ?N
 * becomes $N and parameters are sent as text with their type (text, float8,
 * int8; NULL untyped, so the context types it).
 *
 * Transactions: catalog_tx_begin(write = true) is SQLite's BEGIN IMMEDIATE,
 * and on PostgreSQL a READ COMMITTED transaction that first takes the
 * catalog's transaction-level advisory lock, so writes through any replica
 * run one at a time and an If-Match compared inside the transaction is
 * compared with the row as the next writer will see it (linearisable per
 * entry, as on SQLite). A wait past lock_timeout, a serialization failure or
 * a lost connection is GS_ERR_BUSY (503, retry).
 *
 * Every call goes through the catalog's backend (catalog_backend.h): each backend makes
 * its own statements (lite_sql.c, pg_sql.c) behind struct catalog_stmt_ops, below.
 */
#ifndef GS_CATALOG_SQL_H
#define GS_CATALOG_SQL_H

#include "gs/status.h"

#include <stdbool.h>

struct catalog;
struct catalog_stmt;

enum catalog_step { CATALOG_STEP_ROW, CATALOG_STEP_DONE, CATALOG_STEP_ERROR };

/* A new statement (*out, finalized by the caller) for `sql`. */
enum gs_status catalog_stmt_prepare(struct catalog *catalog, const char *sql,
                                    struct catalog_stmt **out, struct gs_error *err);

/* Parameters are numbered from 1. Text is copied; NULL text binds SQL NULL. */
void catalog_stmt_text(struct catalog_stmt *s, int i, const char *text);
void catalog_stmt_double(struct catalog_stmt *s, int i, double v);
void catalog_stmt_int64(struct catalog_stmt *s, int i, long long v);
void catalog_stmt_null(struct catalog_stmt *s, int i);

/* Runs the statement (first call) or moves to its next row. */
enum catalog_step catalog_stmt_step(struct catalog_stmt *s);

/* Columns of the current row, numbered from 0. Text is borrowed until the
 * next step or finalize; "" stands for NULL in catalog_stmt_column_text. */
bool catalog_stmt_column_null(struct catalog_stmt *s, int col);
const char *catalog_stmt_column_text(struct catalog_stmt *s, int col);
double catalog_stmt_column_double(struct catalog_stmt *s, int col);
long long catalog_stmt_column_int64(struct catalog_stmt *s, int col);

/* The status of the failed step, recorded in `err`: unique violations are
 * GS_ERR_CONFLICT at `pointer`, other constraint failures GS_ERR_INVALID,
 * lock waits and lost connections GS_ERR_BUSY, the rest GS_ERR_DB. */
enum gs_status catalog_stmt_fail(struct catalog_stmt *s, struct gs_error *err,
                                 const char *pointer, const char *what);

void catalog_stmt_finalize(struct catalog_stmt *s);

/* Starts a transaction: a write (see above) or a consistent read. */
enum gs_status catalog_tx_begin(struct catalog *catalog, bool write, struct gs_error *err);

/* Commits when `st` is GS_OK, else rolls back; the final status. */
enum gs_status catalog_tx_end(struct catalog *catalog, enum gs_status st, struct gs_error *err);

/* ---- for the backends: what a statement is ---- */

/* The operations behind the calls above, one set per backend. */
struct catalog_stmt_ops {
    void (*bind_text)(struct catalog_stmt *s, int i, const char *text);
    void (*bind_double)(struct catalog_stmt *s, int i, double v);
    void (*bind_int64)(struct catalog_stmt *s, int i, long long v);
    enum catalog_step (*step)(struct catalog_stmt *s);
    bool (*column_null)(struct catalog_stmt *s, int col);
    const char *(*column_text)(struct catalog_stmt *s, int col);
    double (*column_double)(struct catalog_stmt *s, int col);
    long long (*column_int64)(struct catalog_stmt *s, int col);
    enum gs_status (*fail)(struct catalog_stmt *s, struct gs_error *err, const char *pointer,
                           const char *what);
    void (*finalize)(struct catalog_stmt *s); /* frees the statement */
};

/* The first member of every backend's statement. */
struct catalog_stmt {
    const struct catalog_stmt_ops *ops;
};

/* `sql` in a backend's dialect: the markers {now} and {today} replaced by `now` and
 * `today`, and every ? written `param` ('?' keeps SQLite's ?N, '$' makes PostgreSQL's $N).
 * A new string the caller frees; NULL when out of memory. */
char *catalog_sql_rewrite(const char *sql, const char *now, const char *today, char param);

#endif
