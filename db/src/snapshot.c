/*
 * snapshot.c - copying the catalog into memory and looking entries up
 * (see catalog.h). One query per table plus one per alias table; every
 * string is duplicated so the snapshot outlives the statements.
 */
#include "catalog.h"

#include "catalog_int.h"
#include "gs/text.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

static char *dup_text(sqlite3_stmt *stmt, int col, bool *oom)
{
    const unsigned char *text = sqlite3_column_text(stmt, col);
    if (text == NULL)
        return NULL;
    char *copy = strdup((const char *)text);
    if (copy == NULL)
        *oom = true;
    return copy;
}

static struct catalog_real real_col(sqlite3_stmt *stmt, int col)
{
    struct catalog_real r = {false, 0.0};
    if (sqlite3_column_type(stmt, col) != SQLITE_NULL) {
        r.present = true;
        r.value = sqlite3_column_double(stmt, col);
    }
    return r;
}

static uint64_t u64_col(sqlite3_stmt *stmt, int col)
{
    sqlite3_int64 v = sqlite3_column_int64(stmt, col);
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
    free(g->price_source);
    free(g->price_date);
    free(g->purchase_price_source);
    free(g->purchase_price_date);
    free(g->created_at);
    free(g->updated_at);
    free_aliases(g->aliases, g->alias_count);
}

void catalog_snapshot_free(struct catalog_snapshot *snapshot)
{
    if (snapshot == NULL)
        return;
    for (size_t i = 0; i < snapshot->model_count; i++)
        free_model(&snapshot->models[i]);
    for (size_t i = 0; i < snapshot->gpu_count; i++)
        free_gpu(&snapshot->gpus[i]);
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

static const char model_sql[] =
    "SELECT id, name, hf_id, family, parameters, parameters_source, config_json, config_source,"
    " created_at, updated_at, publisher, parameters_basis, revision, hub_revision, checkpoint_json,"
    " provenance_json FROM models ORDER BY id";

static enum gs_status load_models(sqlite3 *db, struct catalog_snapshot *s, struct gs_error *err)
{
    sqlite3_stmt *stmt = NULL;
    size_t cap = 0;
    bool oom = false;
    int rc;
    if (sqlite3_prepare_v2(db, model_sql, -1, &stmt, NULL) != SQLITE_OK)
        return gs_error_add(err, GS_ERR_DB, "", "reading models: %s", sqlite3_errmsg(db));
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
        if (!reserve((void **)&s->models, &cap, s->model_count, sizeof(*s->models))) {
            oom = true;
            break;
        }
        struct catalog_model *m = &s->models[s->model_count++];
        m->id = dup_text(stmt, 0, &oom);
        m->name = dup_text(stmt, 1, &oom);
        m->hf_id = dup_text(stmt, 2, &oom);
        m->family = dup_text(stmt, 3, &oom);
        m->parameters = u64_col(stmt, 4);
        m->parameters_source = dup_text(stmt, 5, &oom);
        m->config_json = dup_text(stmt, 6, &oom);
        m->config_source = dup_text(stmt, 7, &oom);
        m->created_at = dup_text(stmt, 8, &oom);
        m->updated_at = dup_text(stmt, 9, &oom);
        m->publisher = dup_text(stmt, 10, &oom);
        m->parameters_basis = dup_text(stmt, 11, &oom);
        m->revision = u64_col(stmt, 12);
        m->hub_revision = dup_text(stmt, 13, &oom);
        m->checkpoint_json = dup_text(stmt, 14, &oom);
        m->provenance_json = dup_text(stmt, 15, &oom);
        if (oom)
            break;
        catalog_etag(m->id, m->revision, m->created_at, m->etag);

    }
    sqlite3_finalize(stmt);
    if (oom)
        return gs_error_add(err, GS_ERR_NOMEM, "", "out of memory reading models");
    if (rc != SQLITE_DONE)
        return gs_error_add(err, GS_ERR_DB, "", "reading models: %s", sqlite3_errmsg(db));
    return GS_OK;
}

static const char gpu_sql[] =
    "SELECT id, name, vendor, memory_bytes, memory_source, usable_memory_bytes,"
    " usable_memory_source, memory_bandwidth_gb_s, bf16_tflops, fp8_tflops, tdp_watts,"
    " spec_source, price_per_hour, price_source, price_date, purchase_price,"
    " purchase_price_source, purchase_price_date, created_at, updated_at, fp16_tflops,"
    " architecture, form_factor, memory_type, interconnect, interconnect_gb_s, pcie_gen,"
    " gpus_per_node, interconnect_source, revision, unified_memory, scale_out_gb_s,"
    " scale_out_source FROM gpus ORDER BY id";

static void read_gpu_row(sqlite3_stmt *stmt, struct catalog_gpu *g, bool *oom)
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
    if (g->id != NULL && g->created_at != NULL)
        catalog_etag(g->id, g->revision, g->created_at, g->etag);
}

static enum gs_status load_gpus(sqlite3 *db, struct catalog_snapshot *s, struct gs_error *err)
{
    sqlite3_stmt *stmt = NULL;
    size_t cap = 0;
    bool oom = false;
    int rc;
    if (sqlite3_prepare_v2(db, gpu_sql, -1, &stmt, NULL) != SQLITE_OK)
        return gs_error_add(err, GS_ERR_DB, "", "reading gpus: %s", sqlite3_errmsg(db));
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
        if (!reserve((void **)&s->gpus, &cap, s->gpu_count, sizeof(*s->gpus))) {
            oom = true;
            break;
        }
        read_gpu_row(stmt, &s->gpus[s->gpu_count++], &oom);
        if (oom)
            break;
    }
    sqlite3_finalize(stmt);
    if (oom)
        return gs_error_add(err, GS_ERR_NOMEM, "", "out of memory reading gpus");
    if (rc != SQLITE_DONE)
        return gs_error_add(err, GS_ERR_DB, "", "reading gpus: %s", sqlite3_errmsg(db));
    return GS_OK;
}

/* Where the alias list of row `id` lives, for either table. */
struct alias_target {
    char ***aliases;
    size_t *count;
    size_t cap;
};

static struct alias_target find_target(struct catalog_snapshot *s, bool models, const char *id)
{
    struct alias_target t = {NULL, NULL, 0};
    size_t n = models ? s->model_count : s->gpu_count;
    for (size_t i = 0; i < n; i++) {
        const char *row_id = models ? s->models[i].id : s->gpus[i].id;
        if (strcmp(row_id, id) == 0) {
            t.aliases = models ? &s->models[i].aliases : &s->gpus[i].aliases;
            t.count = models ? &s->models[i].alias_count : &s->gpus[i].alias_count;
            t.cap = *t.count; /* lists are built in one run, grown one at a time */
        }
    }
    return t;
}

static enum gs_status load_aliases(sqlite3 *db, struct catalog_snapshot *s, bool models,
                                   struct gs_error *err)
{
    const char *sql = models ? "SELECT alias, model_id FROM model_aliases ORDER BY model_id, alias"
                             : "SELECT alias, gpu_id FROM gpu_aliases ORDER BY gpu_id, alias";
    sqlite3_stmt *stmt = NULL;
    bool oom = false;
    int rc;
    if (sqlite3_prepare_v2(db, sql, -1, &stmt, NULL) != SQLITE_OK)
        return gs_error_add(err, GS_ERR_DB, "", "reading aliases: %s", sqlite3_errmsg(db));
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
        const char *target_id = (const char *)sqlite3_column_text(stmt, 1);
        struct alias_target t = find_target(s, models, target_id != NULL ? target_id : "");
        if (t.aliases == NULL)
            continue; /* foreign keys make this impossible; skip rather than fail */
        char **grown = realloc(*t.aliases, (*t.count + 1) * sizeof(**t.aliases));
        if (grown == NULL) {
            oom = true;
            break;
        }
        *t.aliases = grown;
        grown[*t.count] = dup_text(stmt, 0, &oom);
        if (oom)
            break;
        (*t.count)++;
    }
    sqlite3_finalize(stmt);
    if (oom)
        return gs_error_add(err, GS_ERR_NOMEM, "", "out of memory reading aliases");
    if (rc != SQLITE_DONE)
        return gs_error_add(err, GS_ERR_DB, "", "reading aliases: %s", sqlite3_errmsg(db));
    return GS_OK;
}

enum gs_status catalog_snapshot_load(struct catalog *catalog, struct catalog_snapshot **out,
                                     struct gs_error *err)
{
    sqlite3 *db = catalog_db(catalog);
    struct catalog_snapshot *s = calloc(1, sizeof(*s));
    if (s == NULL)
        return gs_error_add(err, GS_ERR_NOMEM, "", "out of memory loading the catalog");
    /* one read transaction, so models, GPUs and aliases are a consistent view */
    enum gs_status st = GS_OK;
    if (sqlite3_exec(db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK)
        st = gs_error_add(err, GS_ERR_DB, "", "starting a read: %s", sqlite3_errmsg(db));
    if (st == GS_OK)
        st = load_models(db, s, err);
    if (st == GS_OK)
        st = load_gpus(db, s, err);
    if (st == GS_OK)
        st = load_aliases(db, s, true, err);
    if (st == GS_OK)
        st = load_aliases(db, s, false, err);
    sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
    if (st != GS_OK) {
        catalog_snapshot_free(s);
        return st;
    }
    *out = s;
    return GS_OK;
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

/* Keeps the closest of `candidate` and *best. */
static void consider(const char *name, const char *candidate, const char **best, size_t *best_d)
{
    size_t d = 0;
    if (gs_text_is_close(name, candidate, &d) && d < *best_d) {
        *best = candidate;
        *best_d = d;
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
    size_t best_d = (size_t)-1;
    for (size_t i = 0; i < snapshot->model_count; i++) {
        const struct catalog_model *m = &snapshot->models[i];
        consider(name, m->id, &closest, &best_d);
        for (size_t j = 0; j < m->alias_count; j++)
            consider(name, m->aliases[j], &closest, &best_d);
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
    const char *closest = NULL;
    size_t best_d = (size_t)-1;
    for (size_t i = 0; i < snapshot->gpu_count; i++) {
        const struct catalog_gpu *g = &snapshot->gpus[i];
        consider(name, g->id, &closest, &best_d);
        for (size_t j = 0; j < g->alias_count; j++)
            consider(name, g->aliases[j], &closest, &best_d);
    }
    return closest;
}
