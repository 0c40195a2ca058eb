/*
 * snapshot.h - building snapshots (catalog.h) from result rows, whatever the database: the
 * bottom of the db modules, which both backends' loaders (lite_snapshot.c, pg_snapshot.c)
 * build on. Nothing here touches a connection.
 *
 * A snapshot under construction is owned by its builder: rows are appended with
 * snapshot_read_row or catalog_snapshot_share_row (a row of an earlier snapshot, its strings
 * shared and counted), aliases merged in with catalog_snapshot_add_alias, and
 * catalog_snapshot_finish hands it out (or frees it). Once handed out it is immutable.
 */
#ifndef GS_SNAPSHOT_H
#define GS_SNAPSHOT_H

#include "gs/status.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct catalog_snapshot;
struct catalog_gpu_names;

/* One result row: column `col` as text (NULL for SQL NULL), as a number (false for NULL)
 * and as an integer. Each backend reads its own rows through these. */
struct catalog_row_ops {
    const char *(*text)(const void *row, int col);
    bool (*number)(const void *row, int col, double *out);
    long long (*integer)(const void *row, int col);
};
struct catalog_row {
    const struct catalog_row_ops *ops;
    const void *row;
};

/* The columns catalog_snapshot_read_row expects, in order (SELECT lists valid in both
 * dialects). */
#define CATALOG_MODEL_COLUMNS                                                                      \
    "SELECT id, name, hf_id, family, parameters, parameters_source, config_json, config_source,"   \
    " created_at, updated_at, publisher, parameters_basis, revision, hub_revision, checkpoint_json," \
    " provenance_json FROM models"
#define CATALOG_GPU_COLUMNS                                                                        \
    "SELECT id, name, vendor, memory_bytes, memory_source, usable_memory_bytes,"                   \
    " usable_memory_source, memory_bandwidth_gb_s, bf16_tflops, fp8_tflops, tdp_watts,"           \
    " spec_source, price_per_hour, price_source, price_date, purchase_price,"                      \
    " purchase_price_source, purchase_price_date, created_at, updated_at, fp16_tflops,"            \
    " architecture, form_factor, memory_type, interconnect, interconnect_gb_s, pcie_gen,"          \
    " gpus_per_node, interconnect_source, revision, unified_memory, scale_out_gb_s,"               \
    " scale_out_source, sm_count, sm_count_source FROM gpus"

/* An empty snapshot (NULL when out of memory), owned by the caller until
 * catalog_snapshot_finish. Rows are appended sorted by id (strcmp order), aliases by target
 * id then alias. */
struct catalog_snapshot *catalog_snapshot_new(void);

/* Appends the row (CATALOG_MODEL_COLUMNS or CATALOG_GPU_COLUMNS) to the models (or GPUs),
 * every string copied; false when out of memory. */
bool catalog_snapshot_read_row(struct catalog_snapshot *s, bool models,
                               const struct catalog_row *row);

/* Appends a copy of `alias` to the row whose id is `target`, searching from *cursor on
 * (aliases come in target order); NULL target or alias: nothing. False only when out of
 * memory. */
bool catalog_snapshot_add_alias(struct catalog_snapshot *s, bool models, const char *target,
                                const char *alias, size_t *cursor);

/* A refresh's test: whether prev holds row `id` with the same revision and creation time,
 * searching from *at on (ids come in strcmp order; *at is left at the match). */
bool catalog_snapshot_unchanged(const struct catalog_snapshot *prev, bool models, const char *id,
                                uint64_t revision, const char *created, size_t *at);

/* Adds prev's row `prev_index` to s, sharing its strings (prev stays valid and
 * independent); false when out of memory. */
bool catalog_snapshot_share_row(struct catalog_snapshot *s, const struct catalog_snapshot *prev,
                                bool models, size_t prev_index);

/* The schema version a snapshot is read at, and whether `s` was read by the catalog at
 * `version`: a refresh shares rows only then (a migration may rewrite rows without new
 * revisions). */
void catalog_snapshot_set_schema_version(struct catalog_snapshot *s, int version);
bool catalog_snapshot_read_at(const struct catalog_snapshot *s, int version);

/* After loading with status `st`: every row owned and the snapshot handed out in *out (the
 * caller's, freed with catalog_snapshot_free), or it is freed and the status (or out of
 * memory) returned. */
enum gs_status catalog_snapshot_finish(struct catalog_snapshot *s, enum gs_status st,
                                       struct catalog_snapshot **out, struct gs_error *err);

/* Where a snapshot keeps the index of its GPU names that names.c builds on first lookup
 * (gpu_names.h; NULL for a snapshot the catalog did not make). The snapshot owns what the
 * slot holds and frees it with gpu_names_free. */
struct catalog_gpu_names **catalog_snapshot_gpu_names_slot(const struct catalog_snapshot *s);

#endif
