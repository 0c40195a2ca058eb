/*
 * snapshot.c - copying the catalog into memory and looking entries up
 * (see catalog.h). One query per table plus one per alias table; every
 * string is duplicated so the snapshot outlives the statements.
 */
#include "catalog.h"

#include "catalog_int.h"
#include "catalog_pg.h"
#include "catalog_pg_int.h"
#include "gs/text.h"
#include "stmt_cache.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* SQLite rows for the readers below: values as SQLite stores them (a REAL read as a double,
 * never through text). */
static const char *sqlite_text(const void *row, int col)
{
    return (const char *)sqlite3_column_text((sqlite3_stmt *)(uintptr_t)row, col);
}

static bool sqlite_number(const void *row, int col, double *out)
{
    sqlite3_stmt *stmt = (sqlite3_stmt *)(uintptr_t)row;
    if (sqlite3_column_type(stmt, col) == SQLITE_NULL)
        return false;
    *out = sqlite3_column_double(stmt, col);
    return true;
}

static long long sqlite_integer(const void *row, int col)
{
    return sqlite3_column_int64((sqlite3_stmt *)(uintptr_t)row, col);
}

static const struct catalog_row_ops sqlite_row_ops = {sqlite_text, sqlite_number, sqlite_integer};

static char *dup_text(const struct catalog_row *r, int col, bool *oom)
{
    const char *text = r->ops->text(r->row, col);
    if (text == NULL)
        return NULL;
    char *copy = strdup(text);
    if (copy == NULL)
        *oom = true;
    return copy;
}

static struct catalog_real real_col(const struct catalog_row *r, int col)
{
    struct catalog_real v = {false, 0.0};
    v.present = r->ops->number(r->row, col, &v.value);
    if (!v.present)
        v.value = 0.0;
    return v;
}

static uint64_t u64_col(const struct catalog_row *r, int col)
{
    const long long v = r->ops->integer(r->row, col);
    return v > 0 ? (uint64_t)v : 0;
}

static void free_aliases(char **aliases, size_t count)
{
    for (size_t i = 0; i < count; i++)
        free(aliases[i]);
    free(aliases);
}

static void free_model(struct catalog_model *m)
{
    free(m->id);
    free(m->name);
    free(m->hf_id);
    free(m->publisher);
    free(m->family);
    free(m->parameters_basis);
    free(m->parameters_source);
    free(m->config_json);
    free(m->config_source);
    free(m->hub_revision);
    free(m->checkpoint_json);
    free(m->provenance_json);
    free(m->created_at);
    free(m->updated_at);
    free_aliases(m->aliases, m->alias_count);
}

static void free_gpu(struct catalog_gpu *g)
{
    free(g->id);
    free(g->name);
    free(g->vendor);
    free(g->memory_source);
    free(g->usable_memory_source);
    free(g->spec_source);
    free(g->architecture);
    free(g->form_factor);
    free(g->memory_type);
    free(g->interconnect);
    free(g->interconnect_source);
    free(g->scale_out_source);
    free(g->sm_count_source);
    free(g->price_source);
    free(g->price_date);
    free(g->purchase_price_source);
    free(g->purchase_price_date);
    free(g->created_at);
    free(g->updated_at);
    free_aliases(g->aliases, g->alias_count);
}

/* Rows are shared between a snapshot and the next one a refresh builds from it
 * (every unchanged row), so each row's strings carry a count of the snapshots
 * holding them; snapshots are freed on whichever thread drops the last
 * reference to them, hence atomics. */
struct catalog_snapshot_rows {
    int schema_version;   /* PRAGMA user_version the rows were read at */
    int **model_refs;     /* per row; NULL while the row is this snapshot's alone */
    int **gpu_refs;
    size_t model_cap, gpu_cap;
    struct catalog_gpu_names *gpu_names; /* names.c's, built on first lookup (atomic) */
};

struct catalog_gpu_names **catalog_snapshot_gpu_names_slot(const struct catalog_snapshot *s)
{
    return s->rows != NULL ? &s->rows->gpu_names : NULL;
}

/* Drops this snapshot's hold on a row; true when the row's strings go with it. */
static bool release_row(int *refs)
{
    if (refs == NULL)
        return true;
    if (__atomic_sub_fetch(refs, 1, __ATOMIC_ACQ_REL) > 0)
        return false;
    free(refs);
    return true;
}

void catalog_snapshot_free(struct catalog_snapshot *snapshot)
{
    if (snapshot == NULL)
        return;
    struct catalog_snapshot_rows *rows = snapshot->rows;
    for (size_t i = 0; i < snapshot->model_count; i++)
        if (release_row(rows != NULL ? rows->model_refs[i] : NULL))
            free_model(&snapshot->models[i]);
    for (size_t i = 0; i < snapshot->gpu_count; i++)
        if (release_row(rows != NULL ? rows->gpu_refs[i] : NULL))
            free_gpu(&snapshot->gpus[i]);
    if (rows != NULL) {
        catalog_gpu_names_free(rows->gpu_names);
        free(rows->model_refs);
        free(rows->gpu_refs);
        free(rows);
    }
    free(snapshot->models);
    free(snapshot->gpus);
    free(snapshot);
}

/* Grows *array (of `elem` bytes each) so index `n` fits. */
static bool reserve(void **array, size_t *cap, size_t n, size_t elem)
{
    if (n < *cap)
        return true;
    size_t next = *cap == 0 ? 8 : *cap * 2;
    void *grown = realloc(*array, next * elem);
    if (grown == NULL)
        return false;
    memset((char *)grown + *cap * elem, 0, (next - *cap) * elem);
    *array = grown;
    *cap = next;
    return true;
}

/* A new row slot (zeroed) at the end of the models or GPUs, with its share count slot. */
struct catalog_model *catalog_snapshot_push_model(struct catalog_snapshot *s)
{
    struct catalog_snapshot_rows *r = s->rows;
    size_t cap = r->model_cap, refs_cap = r->model_cap;
    if (!reserve((void **)&s->models, &cap, s->model_count, sizeof(*s->models)) ||
        !reserve((void **)&r->model_refs, &refs_cap, s->model_count, sizeof(*r->model_refs)))
        return NULL;
    r->model_cap = cap < refs_cap ? cap : refs_cap;
    return &s->models[s->model_count++];
}

struct catalog_gpu *catalog_snapshot_push_gpu(struct catalog_snapshot *s)
{
    struct catalog_snapshot_rows *r = s->rows;
    size_t cap = r->gpu_cap, refs_cap = r->gpu_cap;
    if (!reserve((void **)&s->gpus, &cap, s->gpu_count, sizeof(*s->gpus)) ||
        !reserve((void **)&r->gpu_refs, &refs_cap, s->gpu_count, sizeof(*r->gpu_refs)))
        return NULL;
    r->gpu_cap = cap < refs_cap ? cap : refs_cap;
    return &s->gpus[s->gpu_count++];
}

/* Every row read by this snapshot (no count yet) gets a count of one. */
bool catalog_snapshot_own_rows(struct catalog_snapshot *s)
{
    for (size_t i = 0; i < s->model_count + s->gpu_count; i++) {
        int **slot = i < s->model_count ? &s->rows->model_refs[i]
                                        : &s->rows->gpu_refs[i - s->model_count];
        if (*slot != NULL)
            continue;
        *slot = malloc(sizeof(**slot));
        if (*slot == NULL)
            return false;
        **slot = 1;
    }
    return true;
}

#define MODEL_COLUMNS CATALOG_MODEL_COLUMNS
#define GPU_COLUMNS CATALOG_GPU_COLUMNS

void catalog_read_model_row(const struct catalog_row *stmt, struct catalog_model *m, bool *oom)
{
    m->id = dup_text(stmt, 0, oom);
    m->name = dup_text(stmt, 1, oom);
    m->hf_id = dup_text(stmt, 2, oom);
    m->family = dup_text(stmt, 3, oom);
    m->parameters = u64_col(stmt, 4);
    m->parameters_source = dup_text(stmt, 5, oom);
    m->config_json = dup_text(stmt, 6, oom);
    m->config_source = dup_text(stmt, 7, oom);
    m->created_at = dup_text(stmt, 8, oom);
    m->updated_at = dup_text(stmt, 9, oom);
    m->publisher = dup_text(stmt, 10, oom);
    m->parameters_basis = dup_text(stmt, 11, oom);
    m->revision = u64_col(stmt, 12);
    m->hub_revision = dup_text(stmt, 13, oom);
    m->checkpoint_json = dup_text(stmt, 14, oom);
    m->provenance_json = dup_text(stmt, 15, oom);
    if (m->id != NULL && m->created_at != NULL)
        catalog_etag(m->id, m->revision, m->created_at, m->etag);
}

void catalog_read_gpu_row(const struct catalog_row *stmt, struct catalog_gpu *g, bool *oom)
{
    g->id = dup_text(stmt, 0, oom);
    g->name = dup_text(stmt, 1, oom);
    g->vendor = dup_text(stmt, 2, oom);
    g->memory_bytes = u64_col(stmt, 3);
    g->memory_source = dup_text(stmt, 4, oom);
    g->usable_memory_bytes = u64_col(stmt, 5);
    g->usable_memory_source = dup_text(stmt, 6, oom);
    g->memory_bandwidth_gb_s = real_col(stmt, 7);
    g->bf16_tflops = real_col(stmt, 8);
    g->fp8_tflops = real_col(stmt, 9);
    g->tdp_watts = real_col(stmt, 10);
    g->spec_source = dup_text(stmt, 11, oom);
    g->price_per_hour = real_col(stmt, 12);
    g->price_source = dup_text(stmt, 13, oom);
    g->price_date = dup_text(stmt, 14, oom);
    g->purchase_price = real_col(stmt, 15);
    g->purchase_price_source = dup_text(stmt, 16, oom);
    g->purchase_price_date = dup_text(stmt, 17, oom);
    g->created_at = dup_text(stmt, 18, oom);
    g->updated_at = dup_text(stmt, 19, oom);
    g->fp16_tflops = real_col(stmt, 20);
    g->architecture = dup_text(stmt, 21, oom);
    g->form_factor = dup_text(stmt, 22, oom);
    g->memory_type = dup_text(stmt, 23, oom);
    g->interconnect = dup_text(stmt, 24, oom);
    g->interconnect_gb_s = real_col(stmt, 25);
    g->pcie_gen = real_col(stmt, 26);
    g->gpus_per_node = real_col(stmt, 27);
    g->interconnect_source = dup_text(stmt, 28, oom);
    g->revision = u64_col(stmt, 29);
    g->unified_memory = real_col(stmt, 30);
    g->scale_out_gb_s = real_col(stmt, 31);
    g->scale_out_source = dup_text(stmt, 32, oom);
    g->sm_count = real_col(stmt, 33);
    g->sm_count_source = dup_text(stmt, 34, oom);
    if (g->id != NULL && g->created_at != NULL)
        catalog_etag(g->id, g->revision, g->created_at, g->etag);
}

bool catalog_snapshot_read_row(struct catalog_snapshot *s, bool models, const struct catalog_row *row)
{
    bool oom = false;
    if (models) {
        struct catalog_model *m = catalog_snapshot_push_model(s);
        if (m == NULL)
            return false;
        catalog_read_model_row(row, m, &oom);
    } else {
        struct catalog_gpu *g = catalog_snapshot_push_gpu(s);
        if (g == NULL)
            return false;
        catalog_read_gpu_row(row, g, &oom);
    }
    return !oom;
}

/* Reads the rows `stmt` yields (every row, or the one bound to ?1) onto the end of the
 * snapshot's models (or GPUs). */
static enum gs_status read_rows(sqlite3 *db, sqlite3_stmt *stmt, struct catalog_snapshot *s,
                                bool models, struct gs_error *err)
{
    bool oom = false;
    int rc;
    const struct catalog_row row = {&sqlite_row_ops, stmt};
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
        if (!catalog_snapshot_read_row(s, models, &row)) {
            oom = true;
            break;
        }
    }
    if (oom)
        return gs_error_add(err, GS_ERR_NOMEM, "", "out of memory reading %s",
                            models ? "models" : "gpus");
    if (rc != SQLITE_DONE)
        return gs_error_add(err, GS_ERR_DB, "", "reading %s: %s", models ? "models" : "gpus",
                            sqlite3_errmsg(db));
    return GS_OK;
}

/* The statement for `sql` from the connection's cache (stmt_cache_release gives it back,
 * reset, on every path). */
static enum gs_status prepare(struct stmt_cache *cache, const char *sql, sqlite3_stmt **stmt,
                              struct gs_error *err)
{
    if (stmt_cache_acquire(cache, sql, stmt) != SQLITE_OK)
        return gs_error_add(err, GS_ERR_DB, "", "reading the catalog: %s",
                            sqlite3_errmsg(stmt_cache_db(cache)));
    return GS_OK;
}

static enum gs_status load_table(struct stmt_cache *cache, struct catalog_snapshot *s, bool models,
                                 struct gs_error *err)
{
    sqlite3_stmt *stmt = NULL;
    enum gs_status st = prepare(
        cache, models ? MODEL_COLUMNS " ORDER BY id" : GPU_COLUMNS " ORDER BY id", &stmt, err);
    if (st == GS_OK)
        st = read_rows(stmt_cache_db(cache), stmt, s, models, err);
    stmt_cache_release(cache, stmt);
    return st;
}

/* Appends `alias` to a row's list. */
static bool add_alias(char ***aliases, size_t *count, const char *alias)
{
    if (alias == NULL)
        return true;
    char *copy = strdup(alias);
    if (copy == NULL)
        return false;
    char **grown = realloc(*aliases, (*count + 1) * sizeof(**aliases));
    if (grown == NULL) {
        free(copy);
        return false;
    }
    grown[(*count)++] = copy;
    *aliases = grown;
    return true;
}

bool catalog_snapshot_add_alias(struct catalog_snapshot *s, bool models, const char *target,
                                const char *alias, size_t *at)
{
    if (target == NULL)
        return true;
    const size_t n = models ? s->model_count : s->gpu_count;
    while (*at < n && strcmp(models ? s->models[*at].id : s->gpus[*at].id, target) < 0)
        (*at)++;
    if (*at == n || strcmp(models ? s->models[*at].id : s->gpus[*at].id, target) != 0)
        return true; /* foreign keys make this impossible; skip rather than fail */
    return add_alias(models ? &s->models[*at].aliases : &s->gpus[*at].aliases,
                     models ? &s->models[*at].alias_count : &s->gpus[*at].alias_count, alias);
}

/* Every alias, onto rows found by id (rows and aliases both sorted by id: one merge). */
static enum gs_status load_aliases(struct stmt_cache *cache, struct catalog_snapshot *s,
                                   bool models, struct gs_error *err)
{
    const char *sql = models ? "SELECT alias, model_id FROM model_aliases ORDER BY model_id, alias"
                             : "SELECT alias, gpu_id FROM gpu_aliases ORDER BY gpu_id, alias";
    sqlite3_stmt *stmt = NULL;
    enum gs_status st = prepare(cache, sql, &stmt, err);
    if (st != GS_OK)
        return st;
    size_t at = 0;
    int rc;
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
        if (!catalog_snapshot_add_alias(s, models, (const char *)sqlite3_column_text(stmt, 1),
                                        (const char *)sqlite3_column_text(stmt, 0), &at)) {
            st = gs_error_add(err, GS_ERR_NOMEM, "", "out of memory reading aliases");
            break;
        }
    }
    if (st == GS_OK && rc != SQLITE_DONE)
        st = gs_error_add(err, GS_ERR_DB, "", "reading aliases: %s",
                          sqlite3_errmsg(stmt_cache_db(cache)));
    stmt_cache_release(cache, stmt);
    return st;
}

static enum gs_status read_schema_version(struct stmt_cache *cache, int *out, struct gs_error *err)
{
    sqlite3_stmt *stmt = NULL;
    enum gs_status st = prepare(cache, "PRAGMA user_version", &stmt, err);
    if (st == GS_OK && sqlite3_step(stmt) == SQLITE_ROW)
        *out = sqlite3_column_int(stmt, 0);
    else if (st == GS_OK)
        st = gs_error_add(err, GS_ERR_DB, "", "reading the schema version: %s",
                          sqlite3_errmsg(stmt_cache_db(cache)));
    stmt_cache_release(cache, stmt);
    return st;
}

enum gs_status catalog_snapshot_finish(struct catalog_snapshot *s, enum gs_status st,
                                       struct catalog_snapshot **out, struct gs_error *err)
{
    if (st == GS_OK && !catalog_snapshot_own_rows(s))
        st = gs_error_add(err, GS_ERR_NOMEM, "", "out of memory loading the catalog");
    if (st != GS_OK) {
        catalog_snapshot_free(s);
        return st;
    }
    *out = s;
    return GS_OK;
}

int catalog_snapshot_schema_version(const struct catalog_snapshot *s)
{
    return s->rows != NULL ? s->rows->schema_version : -1;
}

void catalog_snapshot_set_schema_version(struct catalog_snapshot *s, int version)
{
    s->rows->schema_version = version;
}

struct catalog_snapshot *catalog_snapshot_new(void)
{
    struct catalog_snapshot *s = calloc(1, sizeof(*s));
    if (s != NULL && (s->rows = calloc(1, sizeof(*s->rows))) == NULL) {
        free(s);
        s = NULL;
    }
    return s;
}

/* Every row, inside the caller's read transaction. */
static enum gs_status load_all(struct stmt_cache *cache, struct catalog_snapshot *s,
                               struct gs_error *err)
{
    enum gs_status st = read_schema_version(cache, &s->rows->schema_version, err);
    if (st == GS_OK)
        st = load_table(cache, s, true, err);
    if (st == GS_OK)
        st = load_table(cache, s, false, err);
    if (st == GS_OK)
        st = load_aliases(cache, s, true, err);
    if (st == GS_OK)
        st = load_aliases(cache, s, false, err);
    return st;
}

/* Runs `load` in one read transaction (models, GPUs and aliases: one consistent view) and
 * hands out the snapshot, or frees it. */
static enum gs_status
in_read_transaction(struct catalog *catalog,
                    enum gs_status (*load)(struct stmt_cache *, struct catalog_snapshot *,
                                           const struct catalog_snapshot *, struct gs_error *),
                    const struct catalog_snapshot *prev, struct catalog_snapshot **out,
                    struct gs_error *err)
{
    struct stmt_cache *cache = catalog_stmt_cache(catalog);
    struct catalog_snapshot *s = catalog_snapshot_new();
    if (s == NULL)
        return gs_error_add(err, GS_ERR_NOMEM, "", "out of memory loading the catalog");
    enum gs_status st = GS_OK;
    if (stmt_cache_exec(cache, "BEGIN") != SQLITE_OK)
        st = gs_error_add(err, GS_ERR_DB, "", "starting a read: %s",
                          sqlite3_errmsg(stmt_cache_db(cache)));
    if (st == GS_OK)
        st = load(cache, s, prev, err);
    /* every statement of the read is back in the cache, reset: none is mid-step here */
    stmt_cache_exec(cache, "COMMIT");
    return catalog_snapshot_finish(s, st, out, err);
}

static enum gs_status load_everything(struct stmt_cache *cache, struct catalog_snapshot *s,
                                      const struct catalog_snapshot *prev, struct gs_error *err)
{
    (void)prev;
    return load_all(cache, s, err);
}

enum gs_status catalog_snapshot_load(struct catalog *catalog, struct catalog_snapshot **out,
                                     struct gs_error *err)
{
    if (catalog_pg_of(catalog) != NULL)
        return catalog_pg_snapshot_load(catalog_pg_of(catalog), out, err);
    return in_read_transaction(catalog, load_everything, NULL, out, err);
}

bool catalog_snapshot_unchanged(const struct catalog_snapshot *prev, bool models, const char *id,
                                uint64_t revision, const char *created, size_t *at)
{
    const size_t n = models ? prev->model_count : prev->gpu_count;
    while (*at < n && strcmp(models ? prev->models[*at].id : prev->gpus[*at].id, id) < 0)
        (*at)++;
    if (*at >= n)
        return false;
    const char *prev_id = models ? prev->models[*at].id : prev->gpus[*at].id;
    const char *prev_created = models ? prev->models[*at].created_at : prev->gpus[*at].created_at;
    const uint64_t prev_revision = models ? prev->models[*at].revision : prev->gpus[*at].revision;
    return strcmp(prev_id, id) == 0 && prev_revision == revision && created != NULL &&
           prev_created != NULL && strcmp(prev_created, created) == 0;
}

/* Adds row `prev_index` of `prev` to `s`, sharing its strings. */
bool catalog_snapshot_share_row(struct catalog_snapshot *s, const struct catalog_snapshot *prev,
                                bool models, size_t prev_index)
{
    int *refs = models ? prev->rows->model_refs[prev_index] : prev->rows->gpu_refs[prev_index];
    if (models) {
        struct catalog_model *m = catalog_snapshot_push_model(s);
        if (m == NULL)
            return false;
        *m = prev->models[prev_index];
        s->rows->model_refs[s->model_count - 1] = refs;
    } else {
        struct catalog_gpu *g = catalog_snapshot_push_gpu(s);
        if (g == NULL)
            return false;
        *g = prev->gpus[prev_index];
        s->rows->gpu_refs[s->gpu_count - 1] = refs;
    }
    __atomic_add_fetch(refs, 1, __ATOMIC_RELAXED);
    return true;
}

/* Reads one changed row by id, with its aliases, onto the end of `s`. */
static enum gs_status read_changed_row(struct stmt_cache *cache, struct catalog_snapshot *s,
                                       bool models, const char *id, struct gs_error *err)
{
    sqlite3_stmt *stmt = NULL;
    enum gs_status st = prepare(
        cache, models ? MODEL_COLUMNS " WHERE id = ?1" : GPU_COLUMNS " WHERE id = ?1", &stmt, err);
    const size_t before = models ? s->model_count : s->gpu_count;
    if (st == GS_OK) {
        sqlite3_bind_text(stmt, 1, id, -1, SQLITE_TRANSIENT);
        st = read_rows(stmt_cache_db(cache), stmt, s, models, err);
    }
    stmt_cache_release(cache, stmt);
    if (st != GS_OK || (models ? s->model_count : s->gpu_count) == before)
        return st; /* cannot vanish inside the transaction; nothing to add if it did */
    st = prepare(cache,
                 models ? "SELECT alias FROM model_aliases WHERE model_id = ?1 ORDER BY alias"
                        : "SELECT alias FROM gpu_aliases WHERE gpu_id = ?1 ORDER BY alias",
                 &stmt, err);
    if (st != GS_OK)
        return st;
    sqlite3_bind_text(stmt, 1, id, -1, SQLITE_TRANSIENT);
    char ***aliases = models ? &s->models[before].aliases : &s->gpus[before].aliases;
    size_t *count = models ? &s->models[before].alias_count : &s->gpus[before].alias_count;
    int rc;
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
        if (!add_alias(aliases, count, (const char *)sqlite3_column_text(stmt, 0))) {
            st = gs_error_add(err, GS_ERR_NOMEM, "", "out of memory reading aliases");
            break;
        }
    }
    if (st == GS_OK && rc != SQLITE_DONE)
        st = gs_error_add(err, GS_ERR_DB, "", "reading aliases: %s",
                          sqlite3_errmsg(stmt_cache_db(cache)));
    stmt_cache_release(cache, stmt);
    return st;
}

/* One table of a refresh: walks (id, revision, created_at) in id order beside the previous
 * snapshot's rows (also in id order); a row whose three are unchanged is shared, any other
 * is read again. Every write bumps the row's revision (the entity tag depends on it), and a
 * row deleted and created again has a new creation time. */
static enum gs_status refresh_table(struct stmt_cache *cache, struct catalog_snapshot *s,
                                    const struct catalog_snapshot *prev, bool models,
                                    struct gs_error *err)
{
    sqlite3_stmt *stmt = NULL;
    enum gs_status st = prepare(cache,
                                models ? "SELECT id, revision, created_at FROM models ORDER BY id"
                                       : "SELECT id, revision, created_at FROM gpus ORDER BY id",
                                &stmt, err);
    if (st != GS_OK)
        return st;
    size_t at = 0;
    int rc;
    while (st == GS_OK && (rc = sqlite3_step(stmt)) == SQLITE_ROW) {
        const char *id = (const char *)sqlite3_column_text(stmt, 0);
        const long long rev = sqlite3_column_int64(stmt, 1);
        const uint64_t revision = rev > 0 ? (uint64_t)rev : 0;
        const char *created = (const char *)sqlite3_column_text(stmt, 2);
        if (id == NULL)
            continue;
        if (catalog_snapshot_unchanged(prev, models, id, revision, created, &at))
            st = catalog_snapshot_share_row(s, prev, models, at)
                     ? GS_OK
                     : gs_error_add(err, GS_ERR_NOMEM, "", "out of memory loading the catalog");
        else
            st = read_changed_row(cache, s, models, id, err);
    }
    if (st == GS_OK && rc != SQLITE_DONE)
        st = gs_error_add(err, GS_ERR_DB, "", "reading the catalog: %s",
                          sqlite3_errmsg(stmt_cache_db(cache)));
    stmt_cache_release(cache, stmt);
    return st;
}

static enum gs_status load_changes(struct stmt_cache *cache, struct catalog_snapshot *s,
                                   const struct catalog_snapshot *prev, struct gs_error *err)
{
    enum gs_status st = read_schema_version(cache, &s->rows->schema_version, err);
    if (st != GS_OK)
        return st;
    /* a migration by another process may rewrite rows without new revisions */
    if (prev->rows == NULL || prev->rows->schema_version != s->rows->schema_version)
        return load_all(cache, s, err);
    st = refresh_table(cache, s, prev, true, err);
    if (st == GS_OK)
        st = refresh_table(cache, s, prev, false, err);
    return st;
}

enum gs_status catalog_snapshot_refresh(struct catalog *catalog,
                                        const struct catalog_snapshot *prev,
                                        struct catalog_snapshot **out, struct gs_error *err)
{
    if (catalog_pg_of(catalog) != NULL)
        return catalog_pg_snapshot_refresh(catalog_pg_of(catalog), prev, out, err);
    if (prev == NULL)
        return catalog_snapshot_load(catalog, out, err);
    return in_read_transaction(catalog, load_changes, prev, out, err);
}

bool catalog_model_same_row(const struct catalog_model *a, const struct catalog_model *b)
{
    return a->id == b->id;
}

bool catalog_gpu_same_row(const struct catalog_gpu *a, const struct catalog_gpu *b)
{
    return a->id == b->id;
}

static bool matches(const char *id, char *const *aliases, size_t alias_count, const char *key)
{
    if (strcasecmp(id, key) == 0)
        return true;
    for (size_t i = 0; i < alias_count; i++) {
        if (strcasecmp(aliases[i], key) == 0)
            return true;
    }
    return false;
}

const struct catalog_model *catalog_snapshot_model(const struct catalog_snapshot *snapshot,
                                                   const char *id_or_alias)
{
    for (size_t i = 0; i < snapshot->model_count; i++) {
        const struct catalog_model *m = &snapshot->models[i];
        if (matches(m->id, m->aliases, m->alias_count, id_or_alias))
            return m;
    }
    return NULL;
}

const struct catalog_gpu *catalog_snapshot_gpu(const struct catalog_snapshot *snapshot,
                                               const char *id_or_alias)
{
    for (size_t i = 0; i < snapshot->gpu_count; i++) {
        const struct catalog_gpu *g = &snapshot->gpus[i];
        if (matches(g->id, g->aliases, g->alias_count, id_or_alias))
            return g;
    }
    return NULL;
}

/* Whether the run of digits at `run` (n of them) is also a run of digits in `text`. */
static bool has_digit_run(const char *text, const char *run, size_t n)
{
    for (const char *p = text; *p != '\0';) {
        const size_t k = strspn(p, "0123456789");
        if (k == n && strncmp(p, run, n) == 0)
            return true;
        p += k > 0 ? k : 1;
    }
    return false;
}

/* How many of the digit runs of `typed` `candidate` has, and whether it lacks
 * one that is a model number (three digits or more: "5090" of "rtx5090"),
 * which a near spelling must keep: an RTX 5090 is no RTX 3090. */
static size_t shared_digits(const char *typed, const char *candidate, bool *misses_number)
{
    size_t shared = 0;
    *misses_number = false;
    for (const char *p = typed; *p != '\0';) {
        const size_t k = strspn(p, "0123456789");
        if (k > 0 && has_digit_run(candidate, p, k))
            shared++;
        else if (k >= 3)
            *misses_number = true;
        p += k > 0 ? k : 1;
    }
    return shared;
}

/* Keeps the better of `candidate` and *best: close in spelling, the typed model
 * numbers kept, then the most digit runs in common, then the nearest. */
static void consider(const char *name, const char *candidate, const char **best, size_t *best_d,
                     size_t *best_shared)
{
    size_t d = 0;
    bool misses_number = false;
    if (!gs_text_is_close(name, candidate, &d))
        return;
    const size_t shared = shared_digits(name, candidate, &misses_number);
    if (misses_number)
        return;
    if (*best == NULL || shared > *best_shared || (shared == *best_shared && d < *best_d)) {
        *best = candidate;
        *best_d = d;
        *best_shared = shared;
    }
}

/* How well an entry's id or one of its aliases matches `name` by tokens
 * (gs_text_token_match): the best score of its names, one more when a name
 * of it is wholly within what was typed ("h100" in "H100 80GB"), and
 * whether a name has exactly the typed tokens. */
struct entry_match {
    int valid, exact, score;
    size_t extra;
};

static struct entry_match entry_match(const char *name, const char *id, char *const *aliases,
                                      size_t alias_count)
{
    struct entry_match e = {0, 0, 0, 0};
    int covered = 0;
    for (size_t i = 0; i <= alias_count; i++) {
        const struct gs_token_match m = gs_text_token_match(name, i == 0 ? id : aliases[i - 1]);
        covered |= m.covered;
        if (!m.valid)
            continue;
        if (!e.valid || m.score > e.score || (m.score == e.score && m.extra < e.extra)) {
            e.valid = 1;
            e.score = m.score;
            e.extra = m.extra;
        }
        e.exact |= m.exact;
    }
    e.score += covered;
    return e;
}

/* Keeps `e` (entry `index`) when it beats *best. */
static void keep_better(struct entry_match e, size_t index, struct entry_match *best, size_t *at)
{
    if (!e.valid)
        return;
    if (!best->valid || e.score > best->score || (e.score == best->score && e.extra < best->extra)) {
        *best = e;
        *at = index;
    }
}

const struct catalog_model *catalog_snapshot_model_resolve(const struct catalog_snapshot *snapshot,
                                                           const char *name)
{
    const struct catalog_model *found = NULL;
    for (size_t i = 0; i < snapshot->model_count; i++) {
        const struct catalog_model *m = &snapshot->models[i];
        if (entry_match(name, m->id, m->aliases, m->alias_count).exact) {
            if (found != NULL)
                return NULL; /* two models answer: the name is ambiguous */
            found = m;
        }
    }
    return found;
}

const char *catalog_snapshot_model_suggest(const struct catalog_snapshot *snapshot,
                                           const char *name)
{
    struct entry_match best = {0, 0, 0, 0};
    size_t at = 0;
    for (size_t i = 0; i < snapshot->model_count; i++) {
        const struct catalog_model *m = &snapshot->models[i];
        keep_better(entry_match(name, m->id, m->aliases, m->alias_count), i, &best, &at);
    }
    if (best.valid)
        return snapshot->models[at].id;
    const char *closest = NULL;
    size_t best_d = (size_t)-1, best_shared = 0;
    for (size_t i = 0; i < snapshot->model_count; i++) {
        const struct catalog_model *m = &snapshot->models[i];
        consider(name, m->id, &closest, &best_d, &best_shared);
        for (size_t j = 0; j < m->alias_count; j++)
            consider(name, m->aliases[j], &closest, &best_d, &best_shared);
    }
    return closest;
}

const char *catalog_snapshot_gpu_suggest(const struct catalog_snapshot *snapshot, const char *name)
{
    struct entry_match best = {0, 0, 0, 0};
    size_t at = 0;
    for (size_t i = 0; i < snapshot->gpu_count; i++) {
        const struct catalog_gpu *g = &snapshot->gpus[i];
        keep_better(entry_match(name, g->id, g->aliases, g->alias_count), i, &best, &at);
    }
    if (best.valid)
        return snapshot->gpus[at].id;
    /* a name that fits several parts and is the default of none ("V100") */
    const struct catalog_gpu_lookup by_name = catalog_snapshot_gpu_lookup(snapshot, name);
    if (by_name.fits > 0)
        return by_name.gpu != NULL ? by_name.gpu->id : by_name.fitting[0]->id;
    const char *closest = NULL;
    size_t best_d = (size_t)-1, best_shared = 0;
    for (size_t i = 0; i < snapshot->gpu_count; i++) {
        const struct catalog_gpu *g = &snapshot->gpus[i];
        consider(name, g->id, &closest, &best_d, &best_shared);
        for (size_t j = 0; j < g->alias_count; j++)
            consider(name, g->aliases[j], &closest, &best_d, &best_shared);
    }
    return closest;
}
