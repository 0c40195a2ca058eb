/*
 * lite_snapshot.h - snapshots of an SQLite catalog (catalog_snapshot_load and
 * catalog_snapshot_refresh on SQLite): one query per table plus one per alias table, in one
 * read transaction; values read as SQLite stores them.
 */
#ifndef GS_LITE_SNAPSHOT_H
#define GS_LITE_SNAPSHOT_H

#include "gs/status.h"

struct catalog_snapshot;
struct stmt_cache;

/* A snapshot of the catalog behind `cache` (borrowed; its statements are back in it, reset,
 * on return) as it is now, built from `prev` (borrowed; NULL: every row read): rows whose
 * id, revision and creation time are unchanged are shared with prev, the rest read again;
 * a schema version other than prev's reads everything. *out is the caller's (freed with
 * catalog_snapshot_free); untouched on failure. */
enum gs_status lite_snapshot_load(struct stmt_cache *cache, const struct catalog_snapshot *prev,
                                  struct catalog_snapshot **out, struct gs_error *err);

#endif
