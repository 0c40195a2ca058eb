/* catalog_int.h - what the db modules share and nothing else sees. */
#ifndef GS_CATALOG_INT_H
#define GS_CATALOG_INT_H

#include "gs/status.h"

#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct catalog;

/* The connection behind a handle (borrowed). */
sqlite3 *catalog_db(struct catalog *catalog);

/* The SQLite connection's statement cache (borrowed; NULL for PostgreSQL): statements
 * borrowed from it go back to it before the catalog closes (stmt_cache.h). */
struct stmt_cache;
struct stmt_cache *catalog_stmt_cache(struct catalog *catalog);

/* ---- reading rows into snapshots, whatever the database (SQLite, PostgreSQL) ---- */

struct catalog_snapshot;
struct catalog_model;
struct catalog_gpu;

/* One result row: column `col` as text (NULL for SQL NULL), as a number (`present` false for
 * NULL) and as an integer. */
struct catalog_row_ops {
    const char *(*text)(const void *row, int col);
    bool (*number)(const void *row, int col, double *out);
    long long (*integer)(const void *row, int col);
};
struct catalog_row {
    const struct catalog_row_ops *ops;
    const void *row;
};

/* The columns catalog_read_model_row and catalog_read_gpu_row expect, in order (SELECT
 * lists valid in both dialects). */
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

void catalog_read_model_row(const struct catalog_row *r, struct catalog_model *m, bool *oom);
void catalog_read_gpu_row(const struct catalog_row *r, struct catalog_gpu *g, bool *oom);

/* An empty snapshot (NULL when out of memory); rows appended with push, aliases merged in
 * with add_alias (rows sorted by id with strcmp, aliases by target id then alias), then
 * own_rows gives every row its share count. */
struct catalog_snapshot *catalog_snapshot_new(void);
/* What names.c builds for a snapshot's GPU name lookups: where the snapshot keeps it (NULL
 * for a snapshot the catalog did not make), and how it goes (NULL: nothing). */
struct catalog_gpu_names;
struct catalog_gpu_names **catalog_snapshot_gpu_names_slot(const struct catalog_snapshot *s);
void catalog_gpu_names_free(struct catalog_gpu_names *names);
struct catalog_model *catalog_snapshot_push_model(struct catalog_snapshot *s);
struct catalog_gpu *catalog_snapshot_push_gpu(struct catalog_snapshot *s);
/* Appends the row to the models (or GPUs): push and read; false when out of memory. */
bool catalog_snapshot_read_row(struct catalog_snapshot *s, bool models, const struct catalog_row *row);
/* Appends `alias` to the row whose id is `target`, searching from *cursor on (aliases come
 * in target order); false only when out of memory. */
bool catalog_snapshot_add_alias(struct catalog_snapshot *s, bool models, const char *target,
                                const char *alias, size_t *cursor);
bool catalog_snapshot_own_rows(struct catalog_snapshot *s);
/* A refresh's test: whether prev holds row `id` with the same revision and creation time,
 * searching from *at on (ids come in strcmp order; *at is left at the match). */
bool catalog_snapshot_unchanged(const struct catalog_snapshot *prev, bool models, const char *id,
                                uint64_t revision, const char *created, size_t *at);
/* Adds prev's row `prev_index` to s, sharing its strings; false when out of memory. */
bool catalog_snapshot_share_row(struct catalog_snapshot *s, const struct catalog_snapshot *prev,
                                bool models, size_t prev_index);
/* The schema version a snapshot was read at (a different one means read everything). */
int catalog_snapshot_schema_version(const struct catalog_snapshot *s);
/* After loading with status `st`: every row owned and the snapshot handed out in *out, or
 * it is freed and the status (or out of memory) returned. */
enum gs_status catalog_snapshot_finish(struct catalog_snapshot *s, enum gs_status st,
                                       struct catalog_snapshot **out, struct gs_error *err);
void catalog_snapshot_set_schema_version(struct catalog_snapshot *s, int version);

#endif
