/*
 * pg_seed.h - the embedded seed in a PostgreSQL catalog (catalog_pg.h): an empty catalog
 * gets a copy of the embedded SQLite catalog's rows (its seed migrations applied in memory,
 * catalog_lite.h), once; a catalog seeded by an older gpusizer gets what the newer seed
 * changed - new entries added, entries no user wrote since they were seeded updated or
 * removed, the users' own left alone (gpusizer_seed_rows records what came from the seed
 * at which revision).
 */
#ifndef GS_PG_SEED_H
#define GS_PG_SEED_H

#include "gs/status.h"

#include <libpq-fe.h>
#include <stdbool.h>

/* What a seed did: copied the seed into an empty catalog, or added, updated and removed
 * entries of an older seed. */
struct pg_seed_result {
    bool seeded;
    int added, updated, removed;
};

/* Brings the catalog on `conn` (borrowed) to the embedded seed as of SQLite schema
 * `version` (0: the latest), in one transaction; the caller holds the migration lock.
 * *out says what it did (all zero when the catalog was seeded at `version` already). */
enum gs_status pg_seed_locked(PGconn *conn, int version, struct pg_seed_result *out,
                              struct gs_error *err);

#endif
