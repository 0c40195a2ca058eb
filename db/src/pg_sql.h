/*
 * pg_sql.h - the catalog's statements (catalog_sql.h) on PostgreSQL: the SQL written in
 * PostgreSQL's dialect ($N parameters, {now} and {today} as the server computes them),
 * parameters sent as text with their type, run (bounded in time) on the connection as it
 * is, inside the transaction catalog_pg_begin started.
 */
#ifndef GS_PG_SQL_H
#define GS_PG_SQL_H

#include "gs/status.h"

struct catalog_pg;
struct catalog_stmt;

/* A statement for `sql` (*out, finalized by the caller with catalog_stmt_finalize) on
 * `pg`'s connection (borrowed until then). */
enum gs_status pg_sql_prepare(struct catalog_pg *pg, const char *sql, struct catalog_stmt **out,
                              struct gs_error *err);

#endif
