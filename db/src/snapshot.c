/*
 * snapshot.c - catalog rows in memory (see snapshot.h): read from any database's result
 * rows, tagged, shared between a snapshot and the next one a refresh builds from it, and
 * freed with the last snapshot holding them.
 */
#include "snapshot.h"

#include "catalog.h"
#include "gpu_names.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    int schema_version;   /* the schema version the rows were read at */
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
        gpu_names_free(rows->gpu_names);
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
static struct catalog_model *push_model(struct catalog_snapshot *s)
{
    struct catalog_snapshot_rows *r = s->rows;
    size_t cap = r->model_cap, refs_cap = r->model_cap;
    if (!reserve((void **)&s->models, &cap, s->model_count, sizeof(*s->models)) ||
        !reserve((void **)&r->model_refs, &refs_cap, s->model_count, sizeof(*r->model_refs)))
        return NULL;
    r->model_cap = cap < refs_cap ? cap : refs_cap;
    return &s->models[s->model_count++];
}

static struct catalog_gpu *push_gpu(struct catalog_snapshot *s)
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
static bool own_rows(struct catalog_snapshot *s)
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

/* Row readers: the columns of CATALOG_MODEL_COLUMNS and CATALOG_GPU_COLUMNS, in order. */
static void read_model_row(const struct catalog_row *stmt, struct catalog_model *m, bool *oom)
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

static void read_gpu_row(const struct catalog_row *stmt, struct catalog_gpu *g, bool *oom)
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
        struct catalog_model *m = push_model(s);
        if (m == NULL)
            return false;
        read_model_row(row, m, &oom);
    } else {
        struct catalog_gpu *g = push_gpu(s);
        if (g == NULL)
            return false;
        read_gpu_row(row, g, &oom);
    }
    return !oom;
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

enum gs_status catalog_snapshot_finish(struct catalog_snapshot *s, enum gs_status st,
                                       struct catalog_snapshot **out, struct gs_error *err)
{
    if (st == GS_OK && !own_rows(s))
        st = gs_error_add(err, GS_ERR_NOMEM, "", "out of memory loading the catalog");
    if (st != GS_OK) {
        catalog_snapshot_free(s);
        return st;
    }
    *out = s;
    return GS_OK;
}

void catalog_snapshot_set_schema_version(struct catalog_snapshot *s, int version)
{
    s->rows->schema_version = version;
}

bool catalog_snapshot_read_at(const struct catalog_snapshot *s, int version)
{
    return s->rows != NULL && s->rows->schema_version == version;
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
        struct catalog_model *m = push_model(s);
        if (m == NULL)
            return false;
        *m = prev->models[prev_index];
        s->rows->model_refs[s->model_count - 1] = refs;
    } else {
        struct catalog_gpu *g = push_gpu(s);
        if (g == NULL)
            return false;
        *g = prev->gpus[prev_index];
        s->rows->gpu_refs[s->gpu_count - 1] = refs;
    }
    __atomic_add_fetch(refs, 1, __ATOMIC_RELAXED);
    return true;
}

bool catalog_model_same_row(const struct catalog_model *a, const struct catalog_model *b)
{
    return a->id == b->id;
}

bool catalog_gpu_same_row(const struct catalog_gpu *a, const struct catalog_gpu *b)
{
    return a->id == b->id;
}

/* FNV-1a, 64 bits: enough to tell revisions apart, not a security boundary
 * (the If-Match check is an equality test on our own tags). */
static uint64_t fnv1a(uint64_t h, const void *data, size_t n)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}

void catalog_etag(const char *id, uint64_t revision, const char *created_at,
                  char out[CATALOG_ETAG_MAX])
{
    uint64_t h = 0xcbf29ce484222325ULL;
    h = fnv1a(h, id, strlen(id) + 1);
    h = fnv1a(h, &revision, sizeof(revision));
    if (created_at != NULL)
        h = fnv1a(h, created_at, strlen(created_at));
    snprintf(out, CATALOG_ETAG_MAX, "\"%016llx\"", (unsigned long long)h);
}
