/*
 * catalog_write.c - catalog changes in single transactions (see
 * catalog_write.h), on either backend through catalog_sql.h: aliases are
 * compared with lower() on both sides (SQLite's NOCASE; PostgreSQL's unique
 * index is on lower(alias)). The data version and the writers' lock are the
 * backend's (catalog_backend.h).
 */
#include "catalog_write.h"

#include "catalog_backend.h"
#include "catalog_int.h"
#include "catalog_sql.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Steps a write statement to completion and finalizes it. */
static enum gs_status run(struct catalog_stmt *stmt, struct gs_error *err, const char *pointer,
                          const char *what)
{
    const enum catalog_step rc = catalog_stmt_step(stmt);
    enum gs_status st = rc != CATALOG_STEP_ERROR ? GS_OK
                                                 : catalog_stmt_fail(stmt, err, pointer, what);
    catalog_stmt_finalize(stmt);
    return st;
}

static void bind_real(struct catalog_stmt *stmt, int i, struct catalog_real r)
{
    if (r.present)
        catalog_stmt_double(stmt, i, r.value);
    else
        catalog_stmt_null(stmt, i);
}

static void bind_int_real(struct catalog_stmt *stmt, int i, struct catalog_real r)
{
    if (r.present)
        catalog_stmt_int64(stmt, i, (long long)r.value);
    else
        catalog_stmt_null(stmt, i);
}

static void bind_u64(struct catalog_stmt *stmt, int i, uint64_t v, bool null_when_zero)
{
    if (v == 0 && null_when_zero)
        catalog_stmt_null(stmt, i);
    else
        catalog_stmt_int64(stmt, i, (long long)v);
}

/* The row a path names: its id, revision and creation time. */
struct current {
    bool exists;
    char id[128];
    uint64_t revision;
    char created_at[40];
    char etag[CATALOG_ETAG_MAX];
    struct catalog_real price_per_hour, purchase_price;
};

static void copy_col(char *dst, size_t n, struct catalog_stmt *stmt, int col)
{
    snprintf(dst, n, "%s", catalog_stmt_column_text(stmt, col));
}

static enum gs_status find_current(struct catalog *db, bool models, const char *id_or_alias,
                                   struct current *cur, struct gs_error *err)
{
    static const char model_sql[] =
        "SELECT id, revision, created_at, NULL, NULL FROM models WHERE id = lower(?1)"
        " UNION ALL SELECT m.id, m.revision, m.created_at, NULL, NULL FROM model_aliases a"
        " JOIN models m ON m.id = a.model_id WHERE lower(a.alias) = lower(?1) LIMIT 1";
    static const char gpu_sql[] =
        "SELECT id, revision, created_at, price_per_hour, purchase_price FROM gpus"
        " WHERE id = lower(?1) UNION ALL"
        " SELECT g.id, g.revision, g.created_at, g.price_per_hour, g.purchase_price"
        " FROM gpu_aliases a JOIN gpus g ON g.id = a.gpu_id WHERE lower(a.alias) = lower(?1) LIMIT 1";
    struct catalog_stmt *stmt = NULL;
    memset(cur, 0, sizeof(*cur));
    enum gs_status st = catalog_stmt_prepare(db, models ? model_sql : gpu_sql, &stmt, err);
    if (st != GS_OK)
        return st;
    catalog_stmt_text(stmt, 1, id_or_alias);
    const enum catalog_step rc = catalog_stmt_step(stmt);
    if (rc == CATALOG_STEP_ROW) {
        cur->exists = true;
        copy_col(cur->id, sizeof(cur->id), stmt, 0);
        cur->revision = (uint64_t)catalog_stmt_column_int64(stmt, 1);
        copy_col(cur->created_at, sizeof(cur->created_at), stmt, 2);
        if (!catalog_stmt_column_null(stmt, 3))
            cur->price_per_hour = (struct catalog_real){true, catalog_stmt_column_double(stmt, 3)};
        if (!catalog_stmt_column_null(stmt, 4))
            cur->purchase_price = (struct catalog_real){true, catalog_stmt_column_double(stmt, 4)};
        catalog_etag(cur->id, cur->revision, cur->created_at, cur->etag);
    } else if (rc != CATALOG_STEP_DONE) {
        st = catalog_stmt_fail(stmt, err, "", "looking the entry up");
    }
    catalog_stmt_finalize(stmt);
    return st;
}

/* Whether `tag` is one of the comma-separated entity tags in `list` (strong
 * comparison: a weak W/ tag never matches, RFC 9110 13.1.1). */
static bool tag_listed(const char *list, const char *tag)
{
    const size_t n = strlen(tag);
    const char *p = list;
    while (*p != '\0') {
        while (*p == ' ' || *p == '\t' || *p == ',')
            p++;
        const char *start = p;
        while (*p != '\0' && *p != ',')
            p++;
        const char *end = p;
        while (end > start && (end[-1] == ' ' || end[-1] == '\t'))
            end--;
        if ((size_t)(end - start) == n && strncmp(start, tag, n) == 0)
            return true;
    }
    return false;
}

static enum gs_status check_precondition(const struct catalog_precondition *pre,
                                         const struct current *cur, struct gs_error *err)
{
    if (pre == NULL)
        return GS_OK;
    if (pre->if_none_match && cur->exists)
        return gs_error_add(err, GS_ERR_PRECONDITION, "",
                            "\"%s\" already exists (If-None-Match: *)", cur->id);
    if (pre->if_match == NULL)
        return GS_OK;
    if (!cur->exists)
        return gs_error_add(err, GS_ERR_PRECONDITION, "",
                            "nothing to match: the entry does not exist (If-Match)");
    if (strcmp(pre->if_match, "*") != 0 && !tag_listed(pre->if_match, cur->etag))
        return gs_error_add(err, GS_ERR_PRECONDITION, "",
                            "the entry is now at version %s, not the one in If-Match; read it "
                            "again and reapply the change",
                            cur->etag);
    return GS_OK;
}

/* Refuses an id or alias already naming another entry of the same table. */
static enum gs_status check_names(struct catalog *db, bool models, const char *id, char *const *aliases,
                                  size_t alias_count, struct gs_error *err)
{
    const char *id_taken =
        models ? "SELECT model_id FROM model_aliases WHERE lower(alias) = lower(?1) AND model_id <> ?1"
               : "SELECT gpu_id FROM gpu_aliases WHERE lower(alias) = lower(?1) AND gpu_id <> ?1";
    const char *alias_taken = models ? "SELECT id FROM models WHERE id = lower(?1) AND id <> ?2"
                                       " UNION ALL SELECT model_id FROM model_aliases"
                                       " WHERE lower(alias) = lower(?1) AND model_id <> ?2"
                                     : "SELECT id FROM gpus WHERE id = lower(?1) AND id <> ?2"
                                       " UNION ALL SELECT gpu_id FROM gpu_aliases"
                                       " WHERE lower(alias) = lower(?1) AND gpu_id <> ?2";
    struct catalog_stmt *stmt = NULL;
    enum gs_status st = catalog_stmt_prepare(db, id_taken, &stmt, err);
    if (st != GS_OK)
        return st;
    catalog_stmt_text(stmt, 1, id);
    if (catalog_stmt_step(stmt) == CATALOG_STEP_ROW)
        st = gs_error_add(err, GS_ERR_CONFLICT, "/id", "\"%s\" is already an alias of \"%s\"", id,
                          catalog_stmt_column_text(stmt, 0));
    catalog_stmt_finalize(stmt);
    for (size_t i = 0; st == GS_OK && i < alias_count; i++) {
        st = catalog_stmt_prepare(db, alias_taken, &stmt, err);
        if (st != GS_OK)
            return st;
        catalog_stmt_text(stmt, 1, aliases[i]);
        catalog_stmt_text(stmt, 2, id);
        if (catalog_stmt_step(stmt) == CATALOG_STEP_ROW) {
            char where[32];
            snprintf(where, sizeof(where), "/aliases/%zu", i);
            st = gs_error_add(err, GS_ERR_CONFLICT, where, "\"%s\" already names \"%s\"",
                              aliases[i], catalog_stmt_column_text(stmt, 0));
        }
        catalog_stmt_finalize(stmt);
    }
    return st;
}

static enum gs_status replace_aliases(struct catalog *db, bool models, const char *id,
                                      char *const *aliases, size_t alias_count,
                                      struct gs_error *err)
{
    struct catalog_stmt *stmt = NULL;
    enum gs_status st =
        catalog_stmt_prepare(db, models ? "DELETE FROM model_aliases WHERE model_id = ?1"
                           : "DELETE FROM gpu_aliases WHERE gpu_id = ?1",
                &stmt, err);
    if (st != GS_OK)
        return st;
    catalog_stmt_text(stmt, 1, id);
    st = run(stmt, err, "/aliases", "removing the old aliases");
    for (size_t i = 0; st == GS_OK && i < alias_count; i++) {
        st = catalog_stmt_prepare(db, models ? "INSERT INTO model_aliases (alias, model_id) VALUES (?1, ?2)"
                                : "INSERT INTO gpu_aliases (alias, gpu_id) VALUES (?1, ?2)",
                     &stmt, err);
        if (st != GS_OK)
            return st;
        catalog_stmt_text(stmt, 1, aliases[i]);
        catalog_stmt_text(stmt, 2, id);
        char where[32];
        snprintf(where, sizeof(where), "/aliases/%zu", i);
        st = run(stmt, err, where, "alias");
    }
    return st;
}

/* Reads the row's revision back and fills the put result. */
static enum gs_status finish_put(struct catalog *db, bool models, const char *id, bool created,
                                 struct catalog_put_result *out, struct gs_error *err)
{
    struct current cur;
    enum gs_status st = find_current(db, models, id, &cur, err);
    if (st != GS_OK)
        return st;
    if (!cur.exists)
        return gs_error_add(err, GS_ERR_INTERNAL, "", "the row just written is missing");
    if (out != NULL) {
        out->created = created;
        snprintf(out->id, sizeof(out->id), "%s", cur.id);
        memcpy(out->etag, cur.etag, sizeof(out->etag));
    }
    return GS_OK;
}

/* ------------------------------------------------------------------ models */

static enum gs_status model_put_locked(struct catalog *db, const struct catalog_model *m,
                                       const struct catalog_precondition *pre,
                                       struct catalog_put_result *out, struct gs_error *err)
{
    static const char insert_sql[] =
        "INSERT INTO models (id, name, hf_id, publisher, family, parameters, parameters_basis,"
        " parameters_source, config_json, config_source, hub_revision, checkpoint_json,"
        " provenance_json) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)";
    static const char update_sql[] =
        "UPDATE models SET name = ?2, hf_id = ?3, publisher = ?4, family = ?5, parameters = ?6,"
        " parameters_basis = ?7, parameters_source = ?8, config_json = ?9, config_source = ?10,"
        /* the CAST types ?12 for PostgreSQL, which cannot infer it from IS NULL */
        " hub_revision = CASE WHEN CAST(?12 AS TEXT) IS NULL THEN hub_revision ELSE ?11 END,"
        " checkpoint_json = coalesce(?12, checkpoint_json),"
        " provenance_json = CASE WHEN CAST(?12 AS TEXT) IS NULL THEN provenance_json ELSE ?13 END,"
        " revision = revision + 1, updated_at = " "{now}" " WHERE id = ?1";
    struct current cur;
    enum gs_status st = find_current(db, true, m->id, &cur, err);
    if (st == GS_OK)
        st = check_precondition(pre, &cur, err);
    const char *id = cur.exists ? cur.id : m->id;
    if (st == GS_OK)
        st = check_names(db, true, id, m->aliases, m->alias_count, err);
    struct catalog_stmt *stmt = NULL;
    if (st == GS_OK)
        st = catalog_stmt_prepare(db, cur.exists ? update_sql : insert_sql, &stmt, err);
    if (st != GS_OK)
        return st;
    catalog_stmt_text(stmt, 1, id);
    catalog_stmt_text(stmt, 2, m->name);
    catalog_stmt_text(stmt, 3, m->hf_id);
    catalog_stmt_text(stmt, 4, m->publisher);
    catalog_stmt_text(stmt, 5, m->family);
    bind_u64(stmt, 6, m->parameters, false);
    catalog_stmt_text(stmt, 7, m->parameters_basis != NULL ? m->parameters_basis : "derived");
    catalog_stmt_text(stmt, 8, m->parameters_source);
    catalog_stmt_text(stmt, 9, m->config_json);
    catalog_stmt_text(stmt, 10, m->config_source);
    catalog_stmt_text(stmt, 11, m->hub_revision);
    catalog_stmt_text(stmt, 12, m->checkpoint_json);
    catalog_stmt_text(stmt, 13, m->provenance_json);
    st = run(stmt, err, "", "writing the model");
    if (st == GS_OK)
        st = replace_aliases(db, true, id, m->aliases, m->alias_count, err);
    if (st == GS_OK)
        st = finish_put(db, true, id, !cur.exists, out, err);
    return st;
}

enum gs_status catalog_model_put(struct catalog *db, const struct catalog_model *row,
                                 const struct catalog_precondition *pre,
                                 struct catalog_put_result *out, struct gs_error *err)
{
    enum gs_status st = catalog_tx_begin(db, true, err);
    if (st != GS_OK)
        return st;
    return catalog_tx_end(db, model_put_locked(db, row, pre, out, err), err);
}

static enum gs_status delete_locked(struct catalog *db, bool models, const char *id_or_alias,
                                    const struct catalog_precondition *pre, struct gs_error *err)
{
    struct current cur;
    enum gs_status st = find_current(db, models, id_or_alias, &cur, err);
    if (st != GS_OK)
        return st;
    if (!cur.exists)
        return gs_error_add(err, GS_ERR_NOT_FOUND, "", "no %s \"%.100s\" in the catalog",
                            models ? "model" : "GPU", id_or_alias);
    st = check_precondition(pre, &cur, err);
    struct catalog_stmt *stmt = NULL;
    if (st == GS_OK)
        st = catalog_stmt_prepare(db, models ? "DELETE FROM models WHERE id = ?1" : "DELETE FROM gpus WHERE id = ?1",
                     &stmt, err);
    if (st != GS_OK)
        return st;
    catalog_stmt_text(stmt, 1, cur.id);
    return run(stmt, err, "", "deleting the entry");
}

enum gs_status catalog_model_delete(struct catalog *db, const char *id_or_alias,
                                    const struct catalog_precondition *pre, struct gs_error *err)
{
    enum gs_status st = catalog_tx_begin(db, true, err);
    if (st != GS_OK)
        return st;
    return catalog_tx_end(db, delete_locked(db, true, id_or_alias, pre, err), err);
}

/* -------------------------------------------------------------------- GPUs */

static enum gs_status add_price_locked(struct catalog *db, const char *id, const char *kind, double usd,
                                       const char *date, const char *source,
                                       struct gs_error *err)
{
    struct catalog_stmt *stmt = NULL;
    enum gs_status st = catalog_stmt_prepare(db,
                                "INSERT INTO gpu_prices (gpu_id, kind, usd, effective_date, source)"
                                " VALUES (?1, ?2, ?3, coalesce(?4, {today}), ?5)",
                                &stmt, err);
    if (st != GS_OK)
        return st;
    catalog_stmt_text(stmt, 1, id);
    catalog_stmt_text(stmt, 2, kind);
    catalog_stmt_double(stmt, 3, usd);
    catalog_stmt_text(stmt, 4, date);
    catalog_stmt_text(stmt, 5, source);
    const bool hourly = strcmp(kind, "on_demand") == 0;
    return run(stmt, err, hourly ? "/price_per_hour" : "/purchase_price", "recording the price");
}

/* A price set on the entry itself is meant to be the current one, so it may
 * not be dated before the latest price in the history (backfilling history
 * goes through the price history endpoint). */
static enum gs_status check_not_backdated(struct catalog *db, const char *id, const char *kind,
                                          const char *date, struct gs_error *err)
{
    struct catalog_stmt *stmt = NULL;
    enum gs_status st = catalog_stmt_prepare(db,
                                "SELECT effective_date, usd FROM gpu_prices WHERE gpu_id = ?1 AND"
                                " kind = ?2 AND effective_date > coalesce(?3, {today})"
                                " ORDER BY effective_date DESC LIMIT 1",
                                &stmt, err);
    if (st != GS_OK)
        return st;
    catalog_stmt_text(stmt, 1, id);
    catalog_stmt_text(stmt, 2, kind);
    catalog_stmt_text(stmt, 3, date);
    const bool hourly = strcmp(kind, "on_demand") == 0;
    if (catalog_stmt_step(stmt) == CATALOG_STEP_ROW)
        st = gs_error_add(err, GS_ERR_CONFLICT, hourly ? "/price_date" : "/purchase_price_date",
                          "a later price (%g USD from %s) is already current; date the new "
                          "price on or after it, or add it to the history with POST "
                          "/v1/gpus/%s/prices",
                          catalog_stmt_column_double(stmt, 1),
                          catalog_stmt_column_text(stmt, 0), id);
    catalog_stmt_finalize(stmt);
    return st;
}

/* Applies one kind of price: a changed value becomes a history row, an absent
 * one withdraws the current price. */
static enum gs_status apply_price(struct catalog *db, const char *id, bool hourly, struct catalog_real now,
                                  struct catalog_real next, const char *date, const char *source,
                                  struct gs_error *err)
{
    if (next.present) {
        if (now.present && now.value == next.value)
            return GS_OK;
        const char *kind = hourly ? "on_demand" : "purchase";
        enum gs_status st = check_not_backdated(db, id, kind, date, err);
        if (st != GS_OK)
            return st;
        return add_price_locked(db, id, kind, next.value, date, source, err);
    }
    if (!now.present)
        return GS_OK;
    struct catalog_stmt *stmt = NULL;
    enum gs_status st = catalog_stmt_prepare(
        db,
        hourly ? "UPDATE gpus SET price_per_hour = NULL, price_source = NULL, price_date = NULL"
                 " WHERE id = ?1"
               : "UPDATE gpus SET purchase_price = NULL, purchase_price_source = NULL,"
                 " purchase_price_date = NULL WHERE id = ?1",
        &stmt, err);
    if (st != GS_OK)
        return st;
    catalog_stmt_text(stmt, 1, id);
    return run(stmt, err, "", "withdrawing the price");
}

static void bind_gpu(struct catalog_stmt *stmt, const char *id, const struct catalog_gpu *g)
{
    catalog_stmt_text(stmt, 1, id);
    catalog_stmt_text(stmt, 2, g->name);
    catalog_stmt_text(stmt, 3, g->vendor);
    bind_u64(stmt, 4, g->memory_bytes, false);
    catalog_stmt_text(stmt, 5, g->memory_source);
    bind_u64(stmt, 6, g->usable_memory_bytes, true);
    catalog_stmt_text(stmt, 7, g->usable_memory_source);
    bind_real(stmt, 8, g->memory_bandwidth_gb_s);
    bind_real(stmt, 9, g->bf16_tflops);
    bind_real(stmt, 10, g->fp8_tflops);
    bind_int_real(stmt, 11, g->tdp_watts);
    catalog_stmt_text(stmt, 12, g->spec_source);
    bind_real(stmt, 13, g->fp16_tflops);
    catalog_stmt_text(stmt, 14, g->architecture);
    catalog_stmt_text(stmt, 15, g->form_factor);
    catalog_stmt_text(stmt, 16, g->memory_type);
    catalog_stmt_text(stmt, 17, g->interconnect);
    bind_real(stmt, 18, g->interconnect_gb_s);
    bind_int_real(stmt, 19, g->pcie_gen);
    bind_int_real(stmt, 20, g->gpus_per_node);
    catalog_stmt_text(stmt, 21, g->interconnect_source);
    bind_int_real(stmt, 22, g->unified_memory);
    bind_real(stmt, 23, g->scale_out_gb_s);
    catalog_stmt_text(stmt, 24, g->scale_out_source);
    bind_int_real(stmt, 25, g->sm_count);
    catalog_stmt_text(stmt, 26, g->sm_count_source);
}

static enum gs_status gpu_put_locked(struct catalog *db, const struct catalog_gpu *g,
                                     const struct catalog_precondition *pre,
                                     struct catalog_put_result *out, struct gs_error *err)
{
    static const char insert_sql[] =
        "INSERT INTO gpus (id, name, vendor, memory_bytes, memory_source, usable_memory_bytes,"
        " usable_memory_source, memory_bandwidth_gb_s, bf16_tflops, fp8_tflops, tdp_watts,"
        " spec_source, fp16_tflops, architecture, form_factor, memory_type, interconnect,"
        " interconnect_gb_s, pcie_gen, gpus_per_node, interconnect_source, unified_memory,"
        " scale_out_gb_s, scale_out_source, sm_count, sm_count_source) VALUES"
        " (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19,"
        " ?20, ?21, ?22, ?23, ?24, ?25, ?26)";
    static const char update_sql[] =
        "UPDATE gpus SET name = ?2, vendor = ?3, memory_bytes = ?4, memory_source = ?5,"
        " usable_memory_bytes = ?6, usable_memory_source = ?7, memory_bandwidth_gb_s = ?8,"
        " bf16_tflops = ?9, fp8_tflops = ?10, tdp_watts = ?11, spec_source = ?12,"
        " fp16_tflops = ?13, architecture = ?14, form_factor = ?15, memory_type = ?16,"
        " interconnect = ?17, interconnect_gb_s = ?18, pcie_gen = ?19, gpus_per_node = ?20,"
        " interconnect_source = ?21, unified_memory = ?22, scale_out_gb_s = ?23,"
        " scale_out_source = ?24, sm_count = ?25, sm_count_source = ?26, revision = revision + 1,"
        " updated_at = " "{now}"
        " WHERE id = ?1";
    struct current cur;
    enum gs_status st = find_current(db, false, g->id, &cur, err);
    if (st == GS_OK)
        st = check_precondition(pre, &cur, err);
    const char *id = cur.exists ? cur.id : g->id;
    if (st == GS_OK)
        st = check_names(db, false, id, g->aliases, g->alias_count, err);
    struct catalog_stmt *stmt = NULL;
    if (st == GS_OK)
        st = catalog_stmt_prepare(db, cur.exists ? update_sql : insert_sql, &stmt, err);
    if (st != GS_OK)
        return st;
    bind_gpu(stmt, id, g);
    st = run(stmt, err, "", "writing the GPU");
    if (st == GS_OK)
        st = replace_aliases(db, false, id, g->aliases, g->alias_count, err);
    if (st == GS_OK)
        st = apply_price(db, id, true, cur.price_per_hour, g->price_per_hour, g->price_date,
                         g->price_source, err);
    if (st == GS_OK)
        st = apply_price(db, id, false, cur.purchase_price, g->purchase_price,
                         g->purchase_price_date, g->purchase_price_source, err);
    if (st == GS_OK)
        st = finish_put(db, false, id, !cur.exists, out, err);
    return st;
}

enum gs_status catalog_gpu_put(struct catalog *db, const struct catalog_gpu *row,
                               const struct catalog_precondition *pre,
                               struct catalog_put_result *out, struct gs_error *err)
{
    enum gs_status st = catalog_tx_begin(db, true, err);
    if (st != GS_OK)
        return st;
    return catalog_tx_end(db, gpu_put_locked(db, row, pre, out, err), err);
}

enum gs_status catalog_gpu_put_many(struct catalog *db, const struct catalog_gpu *rows,
                                    const struct catalog_precondition *pres, size_t count,
                                    size_t *created, size_t *failed_row, struct gs_error *err)
{
    *created = 0;
    *failed_row = 0;
    enum gs_status st = catalog_tx_begin(db, true, err);
    if (st != GS_OK)
        return st;
    for (size_t i = 0; st == GS_OK && i < count; i++) {
        struct catalog_put_result one;
        st = gpu_put_locked(db, &rows[i], pres != NULL ? &pres[i] : NULL, &one, err);
        if (st != GS_OK)
            *failed_row = i;
        else if (one.created)
            (*created)++;
    }
    return catalog_tx_end(db, st, err);
}

enum gs_status catalog_gpu_delete(struct catalog *db, const char *id_or_alias,
                                  const struct catalog_precondition *pre, struct gs_error *err)
{
    enum gs_status st = catalog_tx_begin(db, true, err);
    if (st != GS_OK)
        return st;
    return catalog_tx_end(db, delete_locked(db, false, id_or_alias, pre, err), err);
}

/* ------------------------------------------------------------------ prices */

void catalog_prices_free(struct catalog_price *prices, size_t count)
{
    for (size_t i = 0; prices != NULL && i < count; i++)
        free(prices[i].source);
    free(prices);
}

enum gs_status catalog_gpu_prices(struct catalog *db, const char *id_or_alias,
                                  struct catalog_price **out, size_t *count, struct gs_error *err)
{
    *out = NULL;
    *count = 0;
    struct current cur;
    /* one read transaction: the row and its history agree */
    enum gs_status st = catalog_tx_begin(db, false, err);
    if (st != GS_OK)
        return st;
    st = find_current(db, false, id_or_alias, &cur, err);
    if (st == GS_OK && !cur.exists)
        st = gs_error_add(err, GS_ERR_NOT_FOUND, "", "no GPU \"%.100s\" in the catalog",
                          id_or_alias);
    struct catalog_stmt *stmt = NULL;
    if (st == GS_OK)
        st = catalog_stmt_prepare(db,
                     "SELECT kind, usd, effective_date, source, recorded_at FROM gpu_prices"
                     " WHERE gpu_id = ?1 ORDER BY effective_date, id",
                     &stmt, err);
    struct catalog_price *list = NULL;
    size_t n = 0, cap = 0;
    int latest[2] = {-1, -1}; /* index of the latest on-demand and purchase rows */
    enum catalog_step rc = CATALOG_STEP_DONE;
    if (st == GS_OK) {
        catalog_stmt_text(stmt, 1, cur.id);
        while ((rc = catalog_stmt_step(stmt)) == CATALOG_STEP_ROW) {
            if (n == cap) {
                size_t next = cap ? cap * 2 : 8;
                struct catalog_price *grown = realloc(list, next * sizeof(*list));
                if (grown == NULL) {
                    st = gs_error_add(err, GS_ERR_NOMEM, "", "out of memory reading prices");
                    break;
                }
                list = grown;
                cap = next;
            }
            struct catalog_price *p = &list[n];
            memset(p, 0, sizeof(*p));
            copy_col(p->kind, sizeof(p->kind), stmt, 0);
            p->usd = catalog_stmt_column_double(stmt, 1);
            copy_col(p->effective_date, sizeof(p->effective_date), stmt, 2);
            p->source = strdup(catalog_stmt_column_text(stmt, 3));
            copy_col(p->recorded_at, sizeof(p->recorded_at), stmt, 4);
            if (p->source == NULL) {
                st = gs_error_add(err, GS_ERR_NOMEM, "", "out of memory reading prices");
                break;
            }
            latest[strcmp(p->kind, "on_demand") == 0 ? 0 : 1] = (int)n;
            n++;
        }
        if (st == GS_OK && rc != CATALOG_STEP_DONE)
            st = catalog_stmt_fail(stmt, err, "", "reading prices");
    }
    catalog_stmt_finalize(stmt);
    st = catalog_tx_end(db, st, err);
    if (st != GS_OK) {
        catalog_prices_free(list, n);
        return st;
    }
    if (latest[0] >= 0 && cur.price_per_hour.present)
        list[latest[0]].current = true;
    if (latest[1] >= 0 && cur.purchase_price.present)
        list[latest[1]].current = true;
    *out = list;
    *count = n;
    return GS_OK;
}

static enum gs_status add_price_tx(struct catalog *db, const char *id_or_alias, const char *kind,
                                   double usd, const char *date, const char *source,
                                   const struct catalog_precondition *pre,
                                   struct catalog_put_result *out, struct gs_error *err)
{
    struct current cur;
    enum gs_status st = find_current(db, false, id_or_alias, &cur, err);
    if (st == GS_OK && !cur.exists)
        st = gs_error_add(err, GS_ERR_NOT_FOUND, "", "no GPU \"%.100s\" in the catalog",
                          id_or_alias);
    if (st == GS_OK)
        st = check_precondition(pre, &cur, err);
    if (st == GS_OK)
        st = add_price_locked(db, cur.id, kind, usd, date, source, err);
    struct catalog_stmt *stmt = NULL;
    if (st == GS_OK)
        st = catalog_stmt_prepare(db,
                     "UPDATE gpus SET revision = revision + 1, updated_at = " "{now}"
                     " WHERE id = ?1",
                     &stmt, err);
    if (st != GS_OK)
        return st;
    catalog_stmt_text(stmt, 1, cur.id);
    st = run(stmt, err, "", "updating the GPU");
    if (st == GS_OK)
        st = finish_put(db, false, cur.id, false, out, err);
    return st;
}

enum gs_status catalog_gpu_add_price(struct catalog *db, const char *id_or_alias,
                                     const char *kind, double usd, const char *effective_date,
                                     const char *source, const struct catalog_precondition *pre,
                                     struct catalog_put_result *out, struct gs_error *err)
{
    enum gs_status st = catalog_tx_begin(db, true, err);
    if (st != GS_OK)
        return st;
    return catalog_tx_end(db, add_price_tx(db, id_or_alias, kind, usd, effective_date, source, pre, out, err),
                  err);
}

enum gs_status catalog_writers_lock(struct catalog *catalog, struct gs_error *err)
{
    return catalog->backend->writers_lock(catalog->impl, err);
}

void catalog_writers_unlock(struct catalog *catalog)
{
    catalog->backend->writers_unlock(catalog->impl);
}

enum gs_status catalog_data_version(struct catalog *catalog, long long *out, struct gs_error *err)
{
    return catalog->backend->data_version(catalog->impl, out, err);
}
