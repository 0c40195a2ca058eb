/*
 * lite_sql.h - the catalog's statements and transactions (catalog_sql.h) on an SQLite
 * connection: statements come from the connection's cache (stmt_cache.h), prepared once
 * from the SQL written in SQLite's dialect, and go back to it, reset, when finalized.
 */
#ifndef GS_LITE_SQL_H
#define GS_LITE_SQL_H

#include "gs/status.h"

#include <stdbool.h>

struct catalog_stmt;
struct stmt_cache;

/* A statement for `sql` (*out, finalized by the caller with catalog_stmt_finalize) on the
 * connection of `cache` (borrowed until then). */
enum gs_status lite_sql_prepare(struct stmt_cache *cache, const char *sql,
                                struct catalog_stmt **out, struct gs_error *err);

/* BEGIN IMMEDIATE for a write, BEGIN for a read; the end commits when `st` is GS_OK, else
 * rolls back, and returns the final status. */
enum gs_status lite_sql_begin(struct stmt_cache *cache, bool write, struct gs_error *err);
enum gs_status lite_sql_end(struct stmt_cache *cache, enum gs_status st, struct gs_error *err);

#endif
