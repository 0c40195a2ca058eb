/*
 * test_catalog_write.c - catalog writes: entity tags and preconditions, id and
 * alias conflicts, all-or-nothing bulk puts, price history, upgrades from the
 * previous schema with user rows, scale-out bandwidth and its source, and
 * concurrent writers on several connections.
 *
 * Every test runs twice: on an SQLite file, then on a fresh database of a
 * real PostgreSQL server the test starts (tests/support/pg_server.h) - the
 * same calls must behave the same on both backends (issue 16). The schema
 * upgrade test is SQLite's own (PostgreSQL's migrations: test_catalog_pg).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "catalog.h"
#include "catalog_int.h"
#include "catalog_pg.h"
#include "catalog_write.h"
#include "pg_server.h"
#include "test_files.h"

#include <libpq-fe.h>

#include <pthread.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* String literals into the catalog's char * fields (the rows are inputs, never written through). */
#define S(text) ((char *)(uintptr_t)(text))

static struct catalog_gpu lab_gpu(const char *id)
{
    struct catalog_gpu g;
    memset(&g, 0, sizeof(g));
    g.id = (char *)(uintptr_t)id;
    g.name = S("Lab GPU");
    g.vendor = S("Acme");
    g.memory_bytes = 48000000000ULL;
    g.memory_source = S("lab measurement");
    return g;
}

static const struct catalog_gpu *snapshot_gpu(struct catalog *c, struct catalog_snapshot **s,
                                              const char *id)
{
    catalog_snapshot_free(*s);
    *s = NULL;
    assert_int_equal(catalog_snapshot_load(c, s, NULL), GS_OK);
    return catalog_snapshot_gpu(*s, id);
}

/* A write the disk has no room for is GS_ERR_FULL (507) in words that say so, not a catalog
 * read error (issue 33: a full disk answered 500 "The catalog could not be read"), and it
 * leaves nothing behind. SQLite answers SQLITE_FULL when a database would grow past
 * max_page_count, as it does on a full volume. */
static void test_disk_full(void **state)
{
    struct test_db *f = *state;
    struct catalog *c = NULL;
    assert_int_equal(catalog_open(f->path, &c, NULL), GS_OK);
    sqlite3 *db = catalog_db(c);
    assert_int_equal(sqlite3_exec(db, "PRAGMA max_page_count = 1", NULL, NULL, NULL), SQLITE_OK);
    struct catalog_gpu g = lab_gpu("full-gpu");
    char big[4000];
    memset(big, 'x', sizeof(big) - 1);
    big[sizeof(big) - 1] = '\0';
    g.spec_source = big;
    struct gs_error err;
    gs_error_init(&err);
    assert_int_equal(catalog_gpu_put(c, &g, NULL, NULL, &err), GS_ERR_FULL);
    assert_non_null(strstr(err.items[0].detail, "disk is full"));
    struct catalog_snapshot *s = NULL;
    assert_null(snapshot_gpu(c, &s, "full-gpu"));
    catalog_snapshot_free(s);
    catalog_close(c);
}

/* Create, then replace with the current tag, a stale tag, and If-None-Match. */
static void test_entity_tags(void **state)
{
    struct test_db *f = *state;
    struct catalog *c = NULL;
    struct catalog_snapshot *s = NULL;
    assert_int_equal(catalog_open(f->path, &c, NULL), GS_OK);
    struct catalog_gpu g = lab_gpu("lab-gpu");
    struct catalog_put_result r1, r2;
    struct catalog_precondition create = {NULL, true};
    assert_int_equal(catalog_gpu_put(c, &g, &create, &r1, NULL), GS_OK);
    assert_true(r1.created);
    assert_string_equal(r1.id, "lab-gpu");
    const struct catalog_gpu *now = snapshot_gpu(c, &s, "lab-gpu");
    assert_non_null(now);
    assert_int_equal(now->revision, 1);
    assert_string_equal(now->etag, r1.etag);

    /* creating again: the entry exists */
    struct gs_error err;
    gs_error_init(&err);
    assert_int_equal(catalog_gpu_put(c, &g, &create, &r2, &err), GS_ERR_PRECONDITION);

    /* replace with the tag we hold */
    g.name = S("Lab GPU rev B");
    struct catalog_precondition match = {r1.etag, false};
    assert_int_equal(catalog_gpu_put(c, &g, &match, &r2, NULL), GS_OK);
    assert_false(r2.created);
    assert_string_not_equal(r2.etag, r1.etag);
    now = snapshot_gpu(c, &s, "lab-gpu");
    assert_int_equal(now->revision, 2);
    assert_string_equal(now->name, "Lab GPU rev B");

    /* the old tag is stale now: nothing is written */
    g.name = S("lost update");
    gs_error_init(&err);
    assert_int_equal(catalog_gpu_put(c, &g, &match, NULL, &err), GS_ERR_PRECONDITION);
    assert_string_equal(snapshot_gpu(c, &s, "lab-gpu")->name, "Lab GPU rev B");
    /* a list of tags matches when any one does; "*" when the entry exists */
    char list[96];
    snprintf(list, sizeof(list), "\"0000\", %s", r2.etag);
    struct catalog_precondition any = {list, false};
    g.name = S("Lab GPU rev C");
    assert_int_equal(catalog_gpu_put(c, &g, &any, NULL, NULL), GS_OK);
    struct catalog_precondition star = {"*", false};
    struct catalog_gpu other = lab_gpu("not-there");
    assert_int_equal(catalog_gpu_put(c, &other, &star, NULL, NULL), GS_ERR_PRECONDITION);
    /* deleting with a stale tag fails; with the right one it goes */
    assert_int_equal(catalog_gpu_delete(c, "lab-gpu", &match, NULL), GS_ERR_PRECONDITION);
    struct catalog_precondition fresh = {snapshot_gpu(c, &s, "lab-gpu")->etag, false};
    assert_int_equal(catalog_gpu_delete(c, "lab-gpu", &fresh, NULL), GS_OK);
    assert_null(snapshot_gpu(c, &s, "lab-gpu"));
    assert_int_equal(catalog_gpu_delete(c, "lab-gpu", NULL, NULL), GS_ERR_NOT_FOUND);
    /* a row created again under the same id never repeats an old tag */
    assert_int_equal(catalog_gpu_put(c, &g, NULL, &r2, NULL), GS_OK);
    assert_string_not_equal(r2.etag, r1.etag);
    catalog_snapshot_free(s);
    catalog_close(c);
}

/* An alias or id that already names another entry is a conflict. */
static void test_name_conflicts(void **state)
{
    struct test_db *f = *state;
    struct catalog *c = NULL;
    assert_int_equal(catalog_open(f->path, &c, NULL), GS_OK);
    struct catalog_gpu g = lab_gpu("lab-gpu");
    char *aliases[] = {S("labby"), S("H100")}; /* h100 is an alias of h100-sxm-80gb, any case */
    g.aliases = aliases;
    g.alias_count = 2;
    struct gs_error err;
    gs_error_init(&err);
    assert_int_equal(catalog_gpu_put(c, &g, NULL, NULL, &err), GS_ERR_CONFLICT);
    assert_string_equal(err.items[0].pointer, "/aliases/1");
    char *clash[] = {S("labby"), S("l40s")}; /* another GPU's id */
    g.aliases = clash;
    gs_error_init(&err);
    assert_int_equal(catalog_gpu_put(c, &g, NULL, NULL, &err), GS_ERR_CONFLICT);
    assert_string_equal(err.items[0].pointer, "/aliases/1");
    /* a path naming another GPU's alias writes that GPU, never a new one beside it */
    struct catalog_gpu h = lab_gpu("H100-SXM");
    struct catalog_put_result hr;
    assert_int_equal(catalog_gpu_put(c, &h, NULL, &hr, NULL), GS_OK);
    assert_false(hr.created);
    assert_string_equal(hr.id, "h100-sxm-80gb");
    /* writing by alias updates the entry the alias names */
    struct catalog_snapshot *s = NULL;
    assert_int_equal(catalog_snapshot_load(c, &s, NULL), GS_OK);
    struct catalog_model m = *catalog_snapshot_model(s, "llama-3.1-8b");
    m.id = S("meta-llama/Llama-3.1-8B");
    m.name = S("Llama 3.1 8B (renamed)");
    struct catalog_put_result r;
    assert_int_equal(catalog_model_put(c, &m, NULL, &r, NULL), GS_OK);
    assert_false(r.created);
    assert_string_equal(r.id, "llama-3.1-8b");
    catalog_snapshot_free(s);
    catalog_close(c);
}

/* Three GPUs in one batch, the third invalid: nothing of the batch is kept. */
static void test_bulk_is_all_or_nothing(void **state)
{
    struct test_db *f = *state;
    struct catalog *c = NULL;
    struct catalog_snapshot *s = NULL;
    assert_int_equal(catalog_open(f->path, &c, NULL), GS_OK);
    struct catalog_gpu rows[3] = {lab_gpu("bulk-a"), lab_gpu("bulk-b"), lab_gpu("bulk-c")};
    char *taken[] = {S("rtx4090")};
    rows[2].aliases = taken;
    rows[2].alias_count = 1;
    size_t created = 9, failed = 9;
    struct gs_error err;
    gs_error_init(&err);
    assert_int_equal(catalog_gpu_put_many(c, rows, NULL, 3, &created, &failed, &err),
                     GS_ERR_CONFLICT);
    assert_int_equal(failed, 2);
    assert_null(snapshot_gpu(c, &s, "bulk-a"));
    assert_null(snapshot_gpu(c, &s, "bulk-b"));
    rows[2].alias_count = 0;
    assert_int_equal(catalog_gpu_put_many(c, rows, NULL, 3, &created, &failed, NULL), GS_OK);
    assert_int_equal(created, 3);
    assert_non_null(snapshot_gpu(c, &s, "bulk-c"));
    catalog_snapshot_free(s);
    catalog_close(c);
}

/* Prices: each change is a history row; the latest by effective date is
 * current; a price set on the entry cannot be back-dated; history can be
 * backfilled; withdrawing keeps the history. */
static void test_price_history(void **state)
{
    struct test_db *f = *state;
    struct catalog *c = NULL;
    struct catalog_snapshot *s = NULL;
    assert_int_equal(catalog_open(f->path, &c, NULL), GS_OK);
    struct catalog_gpu g = lab_gpu("lab-gpu");
    g.price_per_hour = (struct catalog_real){true, 2.0};
    g.price_source = S("quote A");
    g.price_date = S("2026-06-01");
    assert_int_equal(catalog_gpu_put(c, &g, NULL, NULL, NULL), GS_OK);
    /* the same price again is no change */
    assert_int_equal(catalog_gpu_put(c, &g, NULL, NULL, NULL), GS_OK);
    g.price_per_hour.value = 1.75;
    g.price_source = S("quote B");
    g.price_date = S("2026-09-01");
    assert_int_equal(catalog_gpu_put(c, &g, NULL, NULL, NULL), GS_OK);
    const struct catalog_gpu *now = snapshot_gpu(c, &s, "lab-gpu");
    assert_true(now->price_per_hour.present);
    assert_true(now->price_per_hour.value == 1.75);
    assert_string_equal(now->price_source, "quote B");
    assert_string_equal(now->price_date, "2026-09-01");

    /* back-dated on the entry: refused, nothing changes */
    g.price_per_hour.value = 1.5;
    g.price_date = S("2026-07-01");
    struct gs_error err;
    gs_error_init(&err);
    assert_int_equal(catalog_gpu_put(c, &g, NULL, NULL, &err), GS_ERR_CONFLICT);
    assert_string_equal(err.items[0].pointer, "/price_date");
    /* backfilled through the history: kept, not current */
    assert_int_equal(catalog_gpu_add_price(c, "lab-gpu", "on_demand", 1.5, "2026-07-01", "quote C",
                                           NULL, NULL, NULL),
                     GS_OK);
    assert_int_equal(catalog_gpu_add_price(c, "lab-gpu", "purchase", 25000, NULL, "list price",
                                           NULL, NULL, NULL),
                     GS_OK);
    struct catalog_price *history = NULL;
    size_t n = 0;
    assert_int_equal(catalog_gpu_prices(c, "lab-gpu", &history, &n, NULL), GS_OK);
    assert_int_equal(n, 4);
    assert_string_equal(history[0].effective_date, "2026-06-01");
    assert_string_equal(history[1].effective_date, "2026-07-01");
    assert_false(history[1].current);
    assert_string_equal(history[2].effective_date, "2026-09-01");
    assert_true(history[2].current);
    assert_string_equal(history[3].kind, "purchase");
    assert_true(history[3].current);
    catalog_prices_free(history, n);
    now = snapshot_gpu(c, &s, "lab-gpu");
    assert_true(now->price_per_hour.value == 1.75);
    assert_true(now->purchase_price.value == 25000);

    /* withdrawn: no current on-demand price, the history stays */
    struct catalog_gpu bare = lab_gpu("lab-gpu");
    bare.purchase_price = now->purchase_price;
    bare.purchase_price_source = S("list price");
    assert_int_equal(catalog_gpu_put(c, &bare, NULL, NULL, NULL), GS_OK);
    now = snapshot_gpu(c, &s, "lab-gpu");
    assert_false(now->price_per_hour.present);
    assert_null(now->price_source);
    assert_int_equal(catalog_gpu_prices(c, "lab-gpu", &history, &n, NULL), GS_OK);
    assert_int_equal(n, 4);
    for (size_t i = 0; i < n; i++)
        assert_true(strcmp(history[i].kind, "purchase") == 0 || !history[i].current);
    catalog_prices_free(history, n);
    assert_int_equal(catalog_gpu_prices(c, "no-such-gpu", &history, &n, NULL), GS_ERR_NOT_FOUND);
    catalog_snapshot_free(s);
    catalog_close(c);
}

static void exec_ok(sqlite3 *db, const char *sql)
{
    char *msg = NULL;
    if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK)
        fail_msg("%s: %s", sql, msg != NULL ? msg : "?");
}

/* A catalog created by the previous release (schema 2: the first seed) with
 * rows a user added - a model with an alias, a GPU with a price, an edited
 * seed price, and GPUs and aliases under ids the new seed also uses - is
 * upgraded to the latest schema with nothing of the user's lost. */
static void test_upgrade_from_previous_schema(void **state)
{
    struct test_db *f = *state;
    struct catalog *c = NULL;
    assert_int_equal(catalog_open_at_version(f->path, 2, &c, NULL), GS_OK);
    catalog_close(c);
    sqlite3 *db = NULL;
    assert_int_equal(sqlite3_open(f->path, &db), SQLITE_OK);
    exec_ok(db, "PRAGMA foreign_keys = ON");
    exec_ok(db, "INSERT INTO models (id, name, hf_id, family, parameters, parameters_source,"
                " config_json, config_source) VALUES ('our-model', 'Our Model', 'us/our-model',"
                " 'llama', 1235814400, 'our training run',"
                " '{\"model_type\":\"llama\",\"hidden_size\":2048,\"intermediate_size\":8192,"
                "\"num_hidden_layers\":16,\"num_attention_heads\":32,\"num_key_value_heads\":8,"
                "\"vocab_size\":128256,\"tie_word_embeddings\":true}', 'our repo')");
    exec_ok(db, "INSERT INTO model_aliases (alias, model_id) VALUES ('ours', 'our-model')");
    exec_ok(db, "INSERT INTO gpus (id, name, vendor, memory_bytes, memory_source, price_per_hour,"
                " price_source, price_date) VALUES ('lab-gpu', 'Lab GPU', 'Acme', 16000000000,"
                " 'lab', 0.75, 'internal chargeback', '2026-10-01')");
    /* a user's own H200 row, and an alias the new seed also ships */
    exec_ok(db, "INSERT INTO gpus (id, name, vendor, memory_bytes, memory_source) VALUES"
                " ('h200-sxm-141gb', 'Our H200', 'NVIDIA', 141000000000, 'our asset register')");
    exec_ok(db, "INSERT INTO gpu_aliases (alias, gpu_id) VALUES ('h200', 'lab-gpu')");
    /* and a seed model id a later seed also inserts */
    exec_ok(db, "INSERT INTO models (id, name, family, parameters, parameters_source, config_json,"
                " config_source) VALUES ('llama-3.2-1b', 'Our Llama 3.2 1B', 'llama', 1235814400,"
                " 'ours', '{\"model_type\":\"llama\",\"hidden_size\":2048,\"intermediate_size\":"
                "8192,\"num_hidden_layers\":16,\"num_attention_heads\":32,\"num_key_value_heads\":8,"
                "\"vocab_size\":128256,\"tie_word_embeddings\":true}', 'ours')");
    exec_ok(db, "UPDATE gpus SET price_per_hour = 3.10, price_source = 'our contract',"
                " price_date = '2026-08-01' WHERE id = 'h100-sxm-80gb'");
    sqlite3_close(db);

    struct gs_error err;
    gs_error_init(&err);
    assert_int_equal(catalog_open(f->path, &c, &err), GS_OK);
    int version = 0;
    assert_int_equal(catalog_schema_version(c, &version, NULL), GS_OK);
    assert_int_equal(version, catalog_schema_latest());
    struct catalog_snapshot *s = NULL;
    assert_int_equal(catalog_snapshot_load(c, &s, NULL), GS_OK);
    const struct catalog_model *m = catalog_snapshot_model(s, "ours");
    assert_non_null(m);
    assert_string_equal(m->id, "our-model");
    assert_int_equal(m->parameters, 1235814400ULL);
    assert_string_equal(m->parameters_source, "our training run");
    assert_int_equal(m->revision, 1);
    assert_string_equal(catalog_snapshot_model(s, "llama-3.2-1b")->name, "Our Llama 3.2 1B");
    const struct catalog_gpu *lab = catalog_snapshot_gpu(s, "lab-gpu");
    assert_non_null(lab);
    assert_true(lab->price_per_hour.present && lab->price_per_hour.value == 0.75);
    assert_string_equal(lab->price_date, "2026-10-01");
    assert_ptr_equal(catalog_snapshot_gpu(s, "h200"), lab); /* the user's alias kept its target */
    const struct catalog_gpu *h200 = catalog_snapshot_gpu(s, "h200-sxm-141gb");
    assert_string_equal(h200->name, "Our H200");
    assert_int_equal(h200->memory_bytes, 141000000000ULL);
    /* 0013 seeds the network of DGX H200 only into the seed's own H200, not the user's */
    assert_false(h200->scale_out_gb_s.present);
    assert_null(h200->scale_out_source);
    const struct catalog_gpu *h100 = catalog_snapshot_gpu(s, "h100-sxm-80gb");
    assert_true(h100->price_per_hour.value == 3.10);
    assert_string_equal(h100->price_source, "our contract");
    assert_true(h100->scale_out_gb_s.present && h100->scale_out_gb_s.value == 50);
    assert_true(s->gpu_count >= 25 + 1);
    assert_true(s->model_count >= 40);
    catalog_snapshot_free(s);

    /* the user's prices are the first rows of their history */
    struct catalog_price *history = NULL;
    size_t n = 0;
    assert_int_equal(catalog_gpu_prices(c, "lab-gpu", &history, &n, NULL), GS_OK);
    assert_int_equal(n, 1);
    assert_true(history[0].usd == 0.75 && history[0].current);
    assert_string_equal(history[0].source, "internal chargeback");
    catalog_prices_free(history, n);
    catalog_close(c);
}

/* Scale-out bandwidth (migration 0013): seeded per GPU from the vendor's
 * reference node (DGX H100: eight 400 Gb/s ConnectX-7 for eight GPUs = 50
 * GB/s each; Gaudi 2: three 100 Gb/s ports = 37.5 GB/s; a PCIe card: none),
 * written and read back like the other numbers, and refused without its
 * source - by the catalog itself, whatever the caller checked. */
static void test_scale_out(void **state)
{
    struct test_db *f = *state;
    struct catalog *c = NULL;
    assert_int_equal(catalog_open(f->path, &c, NULL), GS_OK);
    struct catalog_snapshot *s = NULL;
    const struct catalog_gpu *g = snapshot_gpu(c, &s, "h100-sxm-80gb");
    assert_true(g->scale_out_gb_s.present && g->scale_out_gb_s.value == 50);
    assert_non_null(strstr(g->scale_out_source, "DGX H100"));
    g = catalog_snapshot_gpu(s, "gaudi2");
    assert_true(g->scale_out_gb_s.present && g->scale_out_gb_s.value == 37.5);
    g = catalog_snapshot_gpu(s, "a100-sxm-80gb");
    assert_true(g->scale_out_gb_s.present && g->scale_out_gb_s.value == 25);
    g = catalog_snapshot_gpu(s, "l4");
    assert_false(g->scale_out_gb_s.present);
    assert_null(g->scale_out_source);

    struct catalog_gpu lab = lab_gpu("lab-gpu");
    lab.scale_out_gb_s = (struct catalog_real){true, 12.5};
    lab.scale_out_source = S("our rack: one 100 Gb/s NIC per GPU");
    assert_int_equal(catalog_gpu_put(c, &lab, NULL, NULL, NULL), GS_OK);
    g = snapshot_gpu(c, &s, "lab-gpu");
    assert_true(g->scale_out_gb_s.present && g->scale_out_gb_s.value == 12.5);
    assert_string_equal(g->scale_out_source, "our rack: one 100 Gb/s NIC per GPU");
    assert_int_equal(g->revision, 1);

    /* a number without its source: refused on update and on insert, nothing changed */
    struct gs_error err;
    gs_error_init(&err);
    lab.scale_out_gb_s.value = 25;
    lab.scale_out_source = NULL;
    assert_int_equal(catalog_gpu_put(c, &lab, NULL, NULL, &err), GS_ERR_INVALID);
    assert_non_null(strstr(err.items[0].detail, "without its source"));
    g = snapshot_gpu(c, &s, "lab-gpu");
    assert_true(g->scale_out_gb_s.value == 12.5);
    assert_int_equal(g->revision, 1);
    struct catalog_gpu other = lab_gpu("other-gpu");
    other.scale_out_gb_s = (struct catalog_real){true, 25};
    gs_error_init(&err);
    assert_int_equal(catalog_gpu_put(c, &other, NULL, NULL, &err), GS_ERR_INVALID);
    assert_null(snapshot_gpu(c, &s, "other-gpu"));

    /* cleared: both gone */
    lab.scale_out_gb_s.present = false;
    assert_int_equal(catalog_gpu_put(c, &lab, NULL, NULL, NULL), GS_OK);
    g = snapshot_gpu(c, &s, "lab-gpu");
    assert_false(g->scale_out_gb_s.present);
    assert_null(g->scale_out_source);
    assert_int_equal(g->revision, 2);
    catalog_snapshot_free(s);
    catalog_close(c);
}

struct writer {
    const char *path;
    int index;
    int iterations;
    int acknowledged; /* increments the catalog confirmed */
    int own_created;
    int failures;
};

/* Reads the shared counter (tdp_watts of counter-gpu) and its tag. */
static bool read_counter(struct catalog *c, double *value, char etag[CATALOG_ETAG_MAX])
{
    struct catalog_snapshot *s = NULL;
    if (catalog_snapshot_load(c, &s, NULL) != GS_OK)
        return false;
    const struct catalog_gpu *g = catalog_snapshot_gpu(s, "counter-gpu");
    bool ok = g != NULL;
    if (ok) {
        *value = g->tdp_watts.value;
        memcpy(etag, g->etag, CATALOG_ETAG_MAX);
    }
    catalog_snapshot_free(s);
    return ok;
}

/* Each writer has its own connection. It creates GPUs of its own and
 * increments a shared counter by read-modify-write guarded by If-Match,
 * retrying when another writer got there first. */
static void *write_loop(void *arg)
{
    struct writer *w = arg;
    struct catalog *c = NULL;
    if (catalog_open(w->path, &c, NULL) != GS_OK) {
        w->failures++;
        return NULL;
    }
    for (int i = 0; i < w->iterations; i++) {
        char id[64];
        snprintf(id, sizeof(id), "w%d-gpu-%d", w->index, i);
        struct catalog_gpu own = lab_gpu(id);
        if (catalog_gpu_put(c, &own, NULL, NULL, NULL) == GS_OK)
            w->own_created++;
        else
            w->failures++;
        for (int attempt = 0; attempt < 1000; attempt++) {
            double value = 0;
            char etag[CATALOG_ETAG_MAX];
            if (!read_counter(c, &value, etag)) {
                w->failures++;
                break;
            }
            struct catalog_gpu counter = lab_gpu("counter-gpu");
            counter.tdp_watts = (struct catalog_real){true, value + 1};
            counter.spec_source = S("test counter");
            struct catalog_precondition pre = {etag, false};
            enum gs_status st = catalog_gpu_put(c, &counter, &pre, NULL, NULL);
            if (st == GS_OK) {
                w->acknowledged++;
                break;
            }
            if (st != GS_ERR_PRECONDITION) {
                w->failures++;
                break;
            }
        }
    }
    catalog_close(c);
    return NULL;
}

static void test_concurrent_writers(void **state)
{
    struct test_db *f = *state;
    struct catalog *c = NULL;
    assert_int_equal(catalog_open(f->path, &c, NULL), GS_OK);
    struct catalog_gpu counter = lab_gpu("counter-gpu");
    counter.tdp_watts = (struct catalog_real){true, 1};
    counter.spec_source = S("test counter");
    assert_int_equal(catalog_gpu_put(c, &counter, NULL, NULL, NULL), GS_OK);
    enum { WRITERS = 4, ITERATIONS = 25 };
    pthread_t threads[WRITERS];
    struct writer writers[WRITERS];
    for (int i = 0; i < WRITERS; i++) {
        writers[i] = (struct writer){f->path, i, ITERATIONS, 0, 0, 0};
        assert_int_equal(pthread_create(&threads[i], NULL, write_loop, &writers[i]), 0);
    }
    int acknowledged = 0;
    for (int i = 0; i < WRITERS; i++) {
        pthread_join(threads[i], NULL);
        assert_int_equal(writers[i].failures, 0);
        assert_int_equal(writers[i].own_created, ITERATIONS);
        acknowledged += writers[i].acknowledged;
    }
    assert_int_equal(acknowledged, WRITERS * ITERATIONS);
    /* every acknowledged increment is there: no lost update */
    double value = 0;
    char etag[CATALOG_ETAG_MAX];
    assert_true(read_counter(c, &value, etag));
    assert_true(value == 1 + acknowledged);
    struct catalog_snapshot *s = NULL;
    assert_int_equal(catalog_snapshot_load(c, &s, NULL), GS_OK);
    for (int i = 0; i < WRITERS; i++) {
        for (int k = 0; k < ITERATIONS; k++) {
            char id[64];
            snprintf(id, sizeof(id), "w%d-gpu-%d", i, k);
            assert_non_null(catalog_snapshot_gpu(s, id));
        }
    }
    catalog_snapshot_free(s);
    catalog_close(c);
    if (catalog_pg_is_url(f->path))
        return;
    /* and the file is sound */
    sqlite3 *db = NULL;
    assert_int_equal(sqlite3_open(f->path, &db), SQLITE_OK);
    sqlite3_stmt *stmt = NULL;
    assert_int_equal(sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &stmt, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(stmt), SQLITE_ROW);
    assert_string_equal((const char *)sqlite3_column_text(stmt, 0), "ok");
    sqlite3_finalize(stmt);
    sqlite3_close(db);
}

static struct pg_server server;

/* A new, empty database on the shared server for each test: *state's path is its URL. */
static int pg_db_setup(void **state)
{
    static int serial;
    struct test_db *db = calloc(1, sizeof(*db));
    if (db == NULL)
        return -1;
    PGconn *conn = PQconnectdb(server.url);
    char sql[64];
    snprintf(sql, sizeof(sql), "CREATE DATABASE catalog_write_%d", ++serial);
    PGresult *res = PQstatus(conn) == CONNECTION_OK ? PQexec(conn, sql) : NULL;
    const bool ok = res != NULL && PQresultStatus(res) == PGRES_COMMAND_OK;
    PQclear(res);
    PQfinish(conn);
    if (!ok) {
        free(db);
        return -1;
    }
    snprintf(db->path, sizeof(db->path), "postgresql://postgres@127.0.0.1:%u/catalog_write_%d",
             (unsigned)server.port, serial);
    *state = db;
    return 0;
}

static int pg_db_teardown(void **state)
{
    free(*state);
    return 0;
}

static int pg_group_setup(void **state)
{
    (void)state;
    return pg_server_start(&server);
}

static int pg_group_teardown(void **state)
{
    (void)state;
    pg_server_destroy(&server);
    return 0;
}

int main(void)
{
    const struct CMUnitTest sqlite_tests[] = {
        cmocka_unit_test_setup_teardown(test_entity_tags, test_db_setup, test_db_teardown),
        cmocka_unit_test_setup_teardown(test_disk_full, test_db_setup, test_db_teardown),
        cmocka_unit_test_setup_teardown(test_name_conflicts, test_db_setup, test_db_teardown),
        cmocka_unit_test_setup_teardown(test_bulk_is_all_or_nothing, test_db_setup, test_db_teardown),
        cmocka_unit_test_setup_teardown(test_price_history, test_db_setup, test_db_teardown),
        cmocka_unit_test_setup_teardown(test_upgrade_from_previous_schema, test_db_setup, test_db_teardown),
        cmocka_unit_test_setup_teardown(test_scale_out, test_db_setup, test_db_teardown),
        cmocka_unit_test_setup_teardown(test_concurrent_writers, test_db_setup, test_db_teardown),
    };
    const struct CMUnitTest postgresql_tests[] = {
        cmocka_unit_test_setup_teardown(test_entity_tags, pg_db_setup, pg_db_teardown),
        cmocka_unit_test_setup_teardown(test_name_conflicts, pg_db_setup, pg_db_teardown),
        cmocka_unit_test_setup_teardown(test_bulk_is_all_or_nothing, pg_db_setup, pg_db_teardown),
        cmocka_unit_test_setup_teardown(test_price_history, pg_db_setup, pg_db_teardown),
        cmocka_unit_test_setup_teardown(test_scale_out, pg_db_setup, pg_db_teardown),
        cmocka_unit_test_setup_teardown(test_concurrent_writers, pg_db_setup, pg_db_teardown),
    };
    int failed = cmocka_run_group_tests_name("sqlite", sqlite_tests, NULL, NULL);
    failed += cmocka_run_group_tests_name("postgresql", postgresql_tests, pg_group_setup,
                                          pg_group_teardown);
    return failed;
}
