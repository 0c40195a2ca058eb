/*
 * test_refresh.c - refreshing the catalog view after writes: the snapshot a
 * refresh builds shares unchanged rows with the previous one and reads the
 * changed ones (updates, prices, inserts, deletes, alias changes, writes by
 * another connection, a new schema version), and always equals a full load;
 * the service built from it shares decoded architectures and rendered items
 * and renders the same listings byte for byte as a service built from
 * scratch. Either generation may be freed first (ASan checks the rest).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "catalog_write.h"
#include "gs/arch.h"
#include "gs/inference.h"
#include "gs/weights.h"
#include "test_service.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* String literals into the catalog's char * fields (inputs, never written through). */
#define S(text) ((char *)(uintptr_t)(text))

static int setup(void **state)
{
    struct test_service *t = calloc(1, sizeof(*t));
    if (t == NULL || test_service_open(t, "gs-refresh", false) != 0) {
        free(t);
        return -1;
    }
    *state = t;
    return 0;
}

static int teardown(void **state)
{
    struct test_service *t = *state;
    test_service_close(t);
    free(t);
    return 0;
}

static void assert_same_text(const char *a, const char *b)
{
    if (a == NULL || b == NULL)
        assert_ptr_equal(a, b);
    else
        assert_string_equal(a, b);
}

static void assert_aliases_equal(char *const *a, size_t na, char *const *b, size_t nb)
{
    assert_int_equal(na, nb);
    for (size_t i = 0; i < na; i++)
        assert_string_equal(a[i], b[i]);
}

/* Every row of `got` equals the same row of `want`, field by field. */
static void assert_snapshots_equal(const struct catalog_snapshot *got,
                                   const struct catalog_snapshot *want)
{
    assert_int_equal(got->model_count, want->model_count);
    for (size_t i = 0; i < got->model_count; i++) {
        const struct catalog_model *a = &got->models[i], *b = &want->models[i];
        assert_string_equal(a->id, b->id);
        assert_same_text(a->name, b->name);
        assert_same_text(a->hf_id, b->hf_id);
        assert_same_text(a->publisher, b->publisher);
        assert_same_text(a->family, b->family);
        assert_int_equal(a->parameters, b->parameters);
        assert_same_text(a->config_json, b->config_json);
        assert_same_text(a->checkpoint_json, b->checkpoint_json);
        assert_int_equal(a->revision, b->revision);
        assert_same_text(a->created_at, b->created_at);
        assert_same_text(a->updated_at, b->updated_at);
        assert_string_equal(a->etag, b->etag);
        assert_aliases_equal(a->aliases, a->alias_count, b->aliases, b->alias_count);
    }
    assert_int_equal(got->gpu_count, want->gpu_count);
    for (size_t i = 0; i < got->gpu_count; i++) {
        const struct catalog_gpu *a = &got->gpus[i], *b = &want->gpus[i];
        assert_string_equal(a->id, b->id);
        assert_same_text(a->name, b->name);
        assert_int_equal(a->memory_bytes, b->memory_bytes);
        assert_int_equal(a->price_per_hour.present, b->price_per_hour.present);
        if (a->price_per_hour.present)
            assert_true(a->price_per_hour.value == b->price_per_hour.value);
        assert_same_text(a->price_source, b->price_source);
        assert_same_text(a->price_date, b->price_date);
        assert_int_equal(a->revision, b->revision);
        assert_same_text(a->updated_at, b->updated_at);
        assert_string_equal(a->etag, b->etag);
        assert_aliases_equal(a->aliases, a->alias_count, b->aliases, b->alias_count);
    }
}

static struct catalog_snapshot *full_load(struct catalog *c)
{
    struct catalog_snapshot *s = NULL;
    assert_int_equal(catalog_snapshot_load(c, &s, NULL), GS_OK);
    return s;
}

static struct catalog_snapshot *refresh(struct catalog *c, const struct catalog_snapshot *prev)
{
    struct catalog_snapshot *s = NULL;
    assert_int_equal(catalog_snapshot_refresh(c, prev, &s, NULL), GS_OK);
    /* whatever was shared, the result is what a full load reads */
    struct catalog_snapshot *want = full_load(c);
    assert_snapshots_equal(s, want);
    catalog_snapshot_free(want);
    return s;
}

static size_t shared_gpus(const struct catalog_snapshot *a, const struct catalog_snapshot *b)
{
    size_t n = 0;
    for (size_t i = 0; i < a->gpu_count; i++) {
        const struct catalog_gpu *other = catalog_snapshot_gpu(b, a->gpus[i].id);
        n += other != NULL && catalog_gpu_same_row(&a->gpus[i], other);
    }
    return n;
}

static size_t shared_models(const struct catalog_snapshot *a, const struct catalog_snapshot *b)
{
    size_t n = 0;
    for (size_t i = 0; i < a->model_count; i++) {
        const struct catalog_model *other = catalog_snapshot_model(b, a->models[i].id);
        n += other != NULL && catalog_model_same_row(&a->models[i], other);
    }
    return n;
}

/* Seeded undated prices are dated when recorded (the day before): a price dated today
 * becomes the current one. */
static void today_utc(char out[16])
{
    const time_t now = time(NULL);
    struct tm tm;
    strftime(out, 16, "%Y-%m-%d", gmtime_r(&now, &tm));
}

/* One GPU's price changes: only that row is read again; the old snapshot keeps the old
 * price and outlives nothing it shares. */
static void test_price_write_reads_one_row(void **state)
{
    struct test_service *t = *state;
    struct catalog *c = t->catalog;
    struct catalog_snapshot *a = full_load(c);
    const struct catalog_gpu *before = catalog_snapshot_gpu(a, "h100-sxm-80gb");
    assert_non_null(before);
    const uint64_t revision = before->revision;
    char today[16];
    today_utc(today);
    assert_int_equal(catalog_gpu_add_price(c, "h100-sxm-80gb", "on_demand", 1.23, today,
                                           "test quote", NULL, NULL, NULL),
                     GS_OK);
    struct catalog_snapshot *b = refresh(c, a);
    const struct catalog_gpu *after = catalog_snapshot_gpu(b, "h100-sxm-80gb");
    assert_true(after->price_per_hour.present && after->price_per_hour.value == 1.23);
    assert_int_equal(after->revision, revision + 1);
    assert_false(catalog_gpu_same_row(before, after));
    assert_int_equal(shared_gpus(a, b), a->gpu_count - 1);
    assert_int_equal(shared_models(a, b), a->model_count);
    /* the old generation is untouched */
    assert_int_equal(before->revision, revision);
    /* the old one goes first: the new one still reads every shared string */
    catalog_snapshot_free(a);
    struct catalog_snapshot *c2 = refresh(c, b);
    assert_int_equal(shared_gpus(b, c2), b->gpu_count); /* nothing changed: all shared */
    catalog_snapshot_free(b);
    catalog_snapshot_free(c2);
}

/* Inserts, deletes and alias changes, in both tables, then a model put back under an id
 * deleted before (a new creation time: never mistaken for the old row). */
static void test_insert_delete_alias(void **state)
{
    struct test_service *t = *state;
    struct catalog *c = t->catalog;
    struct catalog_snapshot *a = full_load(c);
    assert_true(a->model_count > 2 && a->gpu_count > 2);

    struct catalog_gpu g = a->gpus[1]; /* a copy of a seeded row under a new id */
    char *gpu_aliases[] = {S("refresh-lab-alias")};
    g.id = S("refresh-lab-gpu");
    g.aliases = gpu_aliases;
    g.alias_count = 1;
    assert_int_equal(catalog_gpu_put(c, &g, NULL, NULL, NULL), GS_OK);
    struct catalog_model m = a->models[0];
    char *model_aliases[] = {S("refresh-renamed-alias")};
    m.aliases = model_aliases;
    m.alias_count = 1;
    assert_int_equal(catalog_model_put(c, &m, NULL, NULL, NULL), GS_OK);
    char *deleted = strdup(a->models[1].id);
    assert_non_null(deleted);
    assert_int_equal(catalog_model_delete(c, deleted, NULL, NULL), GS_OK);

    struct catalog_snapshot *b = refresh(c, a);
    assert_int_equal(b->gpu_count, a->gpu_count + 1);
    assert_int_equal(b->model_count, a->model_count - 1);
    assert_string_equal(catalog_snapshot_gpu(b, "refresh-lab-alias")->id, "refresh-lab-gpu");
    assert_string_equal(catalog_snapshot_model(b, "refresh-renamed-alias")->id, a->models[0].id);
    assert_null(catalog_snapshot_model(b, deleted));
    assert_int_equal(shared_models(b, a), b->model_count - 1); /* the re-aliased one is new */
    assert_int_equal(shared_gpus(a, b), a->gpu_count);

    /* the deleted model comes back with the same revision as before */
    struct catalog_model back = a->models[1];
    back.name = S("put back");
    assert_int_equal(catalog_model_put(c, &back, NULL, NULL, NULL), GS_OK);
    struct catalog_snapshot *d = refresh(c, b);
    assert_string_equal(catalog_snapshot_model(d, deleted)->name, "put back");
    catalog_snapshot_free(b);
    catalog_snapshot_free(a);
    catalog_snapshot_free(d);
    free(deleted);
}

/* Another connection (another process on the same file) writes; a refresh here sees it.
 * A new schema version (a migration elsewhere) makes the refresh read every row. */
static void test_other_connection_and_schema(void **state)
{
    struct test_service *t = *state;
    struct catalog *c = t->catalog;
    struct catalog_snapshot *a = full_load(c);
    struct catalog *other = NULL;
    assert_int_equal(catalog_open(t->db.path, &other, NULL), GS_OK);
    char today[16];
    today_utc(today);
    assert_int_equal(catalog_gpu_add_price(other, a->gpus[0].id, "on_demand", 9.5, today,
                                           "other process", NULL, NULL, NULL),
                     GS_OK);
    catalog_close(other);
    struct catalog_snapshot *b = refresh(c, a);
    assert_true(b->gpus[0].price_per_hour.value == 9.5);
    assert_int_equal(shared_gpus(a, b), a->gpu_count - 1);

    sqlite3 *raw = NULL;
    assert_int_equal(sqlite3_open(t->db.path, &raw), SQLITE_OK);
    char sql[64];
    snprintf(sql, sizeof(sql), "PRAGMA user_version = %d", catalog_schema_latest() + 1);
    assert_int_equal(sqlite3_exec(raw, sql, NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(raw);
    struct catalog_snapshot *d = refresh(c, b);
    assert_int_equal(shared_gpus(b, d), 0);
    assert_int_equal(shared_models(b, d), 0);
    catalog_snapshot_free(a);
    catalog_snapshot_free(d);
    catalog_snapshot_free(b);
}

/* The service built from a refresh shares what it can and answers exactly as one built
 * from scratch: the same listings byte for byte, the same architectures. */

/* Two descriptions of the same config describe the same network: the same parameters by
 * part, KV bytes per token and weight bytes (not a byte comparison: struct padding copied by
 * assignment is not part of a description, and clang leaves it as it was). */
static void assert_same_arch(const struct gs_arch *x, const struct gs_arch *y)
{
    struct gs_param_count cx, cy;
    assert_int_equal(gs_arch_count_params(x, &cx, NULL), gs_arch_count_params(y, &cy, NULL));
    assert_int_equal(cx.total, cy.total);
    assert_int_equal(cx.attention, cy.attention);
    assert_int_equal(cx.mlp, cy.mlp);
    assert_int_equal(cx.experts, cy.experts);
    assert_int_equal(cx.embedding, cy.embedding);
    assert_int_equal(cx.lm_head, cy.lm_head);
    assert_string_equal(x->model_type, y->model_type);
    assert_int_equal(x->num_hidden_layers, y->num_hidden_layers);
    assert_int_equal(x->block_count, y->block_count);
    assert_int_equal(x->module_count, y->module_count);
    struct gs_kv_layout kx, ky;
    const enum gs_status sx = gs_kv_layout_for(x, GS_KV_AUTO, 2, 1, 1, &kx, NULL);
    assert_int_equal(sx, gs_kv_layout_for(y, GS_KV_AUTO, 2, 1, 1, &ky, NULL));
    if (sx == GS_OK) {
        assert_int_equal(kx.bytes_per_token, ky.bytes_per_token);
        assert_int_equal(kx.state_bytes_per_sequence, ky.state_bytes_per_sequence);
    }
    const struct gs_weights_request r = {GS_WF_BF16, 0, 1, 1, false, 0, {GS_SPLIT_VLLM, 0, {0}, 0},
                                         false};
    uint64_t wx = 0, wy = 0;
    assert_int_equal(gs_weights_bytes(x, NULL, &r, &wx, NULL), gs_weights_bytes(y, NULL, &r, &wy, NULL));
    assert_int_equal(wx, wy);
}

static void test_service_next_equals_fresh(void **state)
{
    struct test_service *t = *state;
    struct catalog *c = t->catalog;
    const struct service *prev = t->service;
    struct catalog_gpu g = service_snapshot(prev)->gpus[2];
    g.name = S("Renamed for the refresh test");
    assert_int_equal(catalog_gpu_put(c, &g, NULL, NULL, NULL), GS_OK);
    struct catalog_model m = service_snapshot(prev)->models[3];
    m.name = S("Renamed model");
    assert_int_equal(catalog_model_put(c, &m, NULL, NULL, NULL), GS_OK);

    struct catalog_snapshot *snap = NULL;
    assert_int_equal(catalog_snapshot_refresh(c, service_snapshot(prev), &snap, NULL), GS_OK);
    struct service *next = NULL;
    assert_int_equal(service_create_next(prev, snap, &next, NULL), GS_OK);
    struct service *fresh = NULL;
    assert_int_equal(service_create(full_load(c), &fresh, NULL), GS_OK);

    size_t la = 0, lb = 0;
    const char *a = service_models_body(next, &la), *b = service_models_body(fresh, &lb);
    assert_int_equal(la, lb);
    assert_memory_equal(a, b, la);
    assert_non_null(strstr(a, "Renamed model"));
    a = service_gpus_body(next, &la);
    b = service_gpus_body(fresh, &lb);
    assert_int_equal(la, lb);
    assert_memory_equal(a, b, la);
    assert_non_null(strstr(a, "Renamed for the refresh test"));
    for (size_t i = 0; i < service_model_count(next); i++) {
        const struct gs_arch *x = service_model_arch(next, i), *y = service_model_arch(fresh, i);
        assert_int_equal(x == NULL, y == NULL);
        if (x != NULL)
            assert_same_arch(x, y);
        size_t n1 = 0, n2 = 0;
        const char *i1 = service_model_item(next, i, &n1), *i2 = service_model_item(fresh, i, &n2);
        assert_int_equal(n1, n2);
        assert_memory_equal(i1, i2, n1);
    }
    /* unchanged items are the previous generation's own text, not copies */
    size_t n1 = 0, n2 = 0;
    assert_ptr_equal(service_gpu_item(next, 0, &n1), service_gpu_item(prev, 0, &n2));
    assert_ptr_not_equal(service_gpu_item(next, 2, &n1), service_gpu_item(prev, 2, &n2));

    /* the previous generation goes first; the next one still answers */
    service_unref(t->service);
    t->service = next;
    a = service_gpus_body(next, &la);
    assert_non_null(strstr(a, "h100-sxm-80gb"));
    service_unref(fresh);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_price_write_reads_one_row, setup, teardown),
        cmocka_unit_test_setup_teardown(test_insert_delete_alias, setup, teardown),
        cmocka_unit_test_setup_teardown(test_other_connection_and_schema, setup, teardown),
        cmocka_unit_test_setup_teardown(test_service_next_equals_fresh, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
