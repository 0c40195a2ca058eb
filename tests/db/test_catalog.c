/*
 * test_catalog.c - the SQLite catalog: creation, migrations, upgrades that
 * keep user rows, seed content and sources, snapshot lookups.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "catalog.h"
#include "test_files.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void test_fresh_catalog_is_migrated_and_seeded(void **state)
{
    struct test_db *f = *state;
    struct catalog *c = NULL;
    struct gs_error err;
    gs_error_init(&err);
    assert_int_equal(catalog_open(f->path, &c, &err), GS_OK);
    int version = 0;
    assert_int_equal(catalog_schema_version(c, &version, NULL), GS_OK);
    assert_int_equal(version, catalog_schema_latest());
    assert_true(version >= 2);
    size_t models = 0, gpus = 0;
    assert_int_equal(catalog_ping(c, &models, &gpus, NULL), GS_OK);
    assert_true(models >= 3);
    assert_true(gpus >= 4);
    catalog_close(c);

    /* reopening applies nothing twice: same rows, same version */
    assert_int_equal(catalog_open(f->path, &c, &err), GS_OK);
    size_t models2 = 0, gpus2 = 0;
    assert_int_equal(catalog_ping(c, &models2, &gpus2, NULL), GS_OK);
    assert_int_equal(models2, models);
    assert_int_equal(gpus2, gpus);
    catalog_close(c);
}

static void test_wal_mode(void **state)
{
    struct test_db *f = *state;
    struct catalog *c = NULL;
    assert_int_equal(catalog_open(f->path, &c, NULL), GS_OK);
    catalog_close(c);
    sqlite3 *db = NULL;
    assert_int_equal(sqlite3_open(f->path, &db), SQLITE_OK);
    sqlite3_stmt *stmt = NULL;
    assert_int_equal(sqlite3_prepare_v2(db, "PRAGMA journal_mode", -1, &stmt, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(stmt), SQLITE_ROW);
    assert_string_equal((const char *)sqlite3_column_text(stmt, 0), "wal");
    sqlite3_finalize(stmt);
    sqlite3_close(db);
}

/* A catalog created at schema version 1 (empty tables) with a row a user
 * added keeps that row when a newer gpusizer upgrades it. */
static void test_upgrade_keeps_user_rows(void **state)
{
    struct test_db *f = *state;
    struct catalog *c = NULL;
    assert_int_equal(catalog_open_at_version(f->path, 1, &c, NULL), GS_OK);
    catalog_close(c);

    sqlite3 *db = NULL;
    assert_int_equal(sqlite3_open(f->path, &db), SQLITE_OK);
    sqlite3_stmt *stmt = NULL;
    assert_int_equal(sqlite3_prepare_v2(db,
                                        "INSERT INTO gpus (id, name, vendor, memory_bytes, "
                                        "memory_source) VALUES (?1, 'Lab GPU', 'Acme', ?2, 'lab')",
                                        -1, &stmt, NULL),
                     SQLITE_OK);
    sqlite3_bind_text(stmt, 1, "lab-gpu", -1, SQLITE_STATIC);
    sqlite3_bind_int64(stmt, 2, 16000000000LL);
    assert_int_equal(sqlite3_step(stmt), SQLITE_DONE);
    sqlite3_finalize(stmt);
    sqlite3_close(db);

    assert_int_equal(catalog_open(f->path, &c, NULL), GS_OK);
    struct catalog_snapshot *s = NULL;
    assert_int_equal(catalog_snapshot_load(c, &s, NULL), GS_OK);
    const struct catalog_gpu *lab = catalog_snapshot_gpu(s, "lab-gpu");
    assert_non_null(lab);
    assert_int_equal(lab->memory_bytes, 16000000000ULL);
    assert_non_null(catalog_snapshot_gpu(s, "h100-sxm-80gb")); /* and the seed arrived */
    catalog_snapshot_free(s);
    catalog_close(c);
}

/* Every model's parameters_source names a reference users have: a catalog created before
 * migration 29 with the old citation in a seeded row's source has it rewritten, its revision
 * bumped, and a fresh catalog never has it. */
static void test_count_sources_are_public(void **state)
{
    struct test_db *f = *state;
    struct catalog *c = NULL;
    assert_int_equal(catalog_open_at_version(f->path, 28, &c, NULL), GS_OK);
    catalog_close(c);
    const char *old = "estimation" ".md 1.1";
    sqlite3 *db = NULL;
    assert_int_equal(sqlite3_open(f->path, &db), SQLITE_OK);
    char sql[512];
    snprintf(sql, sizeof(sql),
             "UPDATE models SET parameters_source = 'Hugging Face total (%s, Mistral row)' "
             "WHERE id = 'mistral-7b-v0.1'",
             old);
    assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_changes(db), 1);
    sqlite3_close(db);

    assert_int_equal(catalog_open(f->path, &c, NULL), GS_OK);
    catalog_close(c);
    assert_int_equal(sqlite3_open(f->path, &db), SQLITE_OK);
    sqlite3_stmt *stmt = NULL;
    assert_int_equal(sqlite3_prepare_v2(db,
                                        "SELECT parameters_source, revision FROM models "
                                        "WHERE id = 'mistral-7b-v0.1'",
                                        -1, &stmt, NULL),
                     SQLITE_OK);
    assert_int_equal(sqlite3_step(stmt), SQLITE_ROW);
    assert_string_equal((const char *)sqlite3_column_text(stmt, 0),
                        "Hugging Face total (the exact count of config_json "
                        "(docs/model-readers.md), Mistral row)");
    assert_true(sqlite3_column_int64(stmt, 1) >= 2);
    sqlite3_finalize(stmt);
    snprintf(sql, sizeof(sql), "SELECT count(*) FROM models WHERE parameters_source LIKE '%%%s%%'",
             "estimation" ".md");
    assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &stmt, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_step(stmt), SQLITE_ROW);
    assert_int_equal(sqlite3_column_int64(stmt, 0), 0);
    sqlite3_finalize(stmt);
    sqlite3_close(db);
}

static void test_newer_schema_is_refused(void **state)
{
    struct test_db *f = *state;
    sqlite3 *db = NULL;
    assert_int_equal(sqlite3_open(f->path, &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, "PRAGMA user_version = 999", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
    struct catalog *c = NULL;
    struct gs_error err;
    gs_error_init(&err);
    assert_int_equal(catalog_open(f->path, &c, &err), GS_ERR_DB);
    assert_null(c);
    assert_non_null(strstr(err.items[0].detail, "newer"));
}

static void test_unopenable_path(void **state)
{
    (void)state;
    struct catalog *c = NULL;
    struct gs_error err;
    gs_error_init(&err);
    assert_int_equal(catalog_open("/nonexistent-dir/x/catalog.db", &c, &err), GS_ERR_DB);
    assert_true(err.count == 1);
}

static void test_snapshot_lookups(void **state)
{
    struct test_db *f = *state;
    struct catalog *c = NULL;
    struct catalog_snapshot *s = NULL;
    assert_int_equal(catalog_open(f->path, &c, NULL), GS_OK);
    assert_int_equal(catalog_snapshot_load(c, &s, NULL), GS_OK);
    const struct catalog_model *m = catalog_snapshot_model(s, "llama-3.1-8b");
    assert_non_null(m);
    assert_int_equal(m->parameters, 8030261248ULL);
    assert_string_equal(m->hf_id, "meta-llama/Llama-3.1-8B");
    assert_ptr_equal(catalog_snapshot_model(s, "META-LLAMA/llama-3.1-8b"), m); /* alias, any case */
    assert_null(catalog_snapshot_model(s, "llama-9"));
    assert_string_equal(catalog_snapshot_model_suggest(s, "lama-3.1-8b"), "llama-3.1-8b");
    assert_null(catalog_snapshot_model_suggest(s, "completely-different"));
    /* names by their tokens (issue 13): a variant resolves to its model, a hub id with an
     * organisation too; a size or version typed must match, so nothing else is offered */
    assert_ptr_equal(catalog_snapshot_model_resolve(s, "Llama-3.1-8B-Instruct"), m);
    assert_ptr_equal(catalog_snapshot_model_resolve(s, "meta-llama/Llama-3.1-8B-Instruct"), m);
    assert_ptr_equal(catalog_snapshot_model_resolve(s, "llama3.1-8b"), m);
    assert_null(catalog_snapshot_model_resolve(s, "Llama-3.1-9B-Instruct"));
    assert_string_equal(catalog_snapshot_model(s, "deepseek-r1")->id, "deepseek-v3");
    assert_string_equal(catalog_snapshot_model_suggest(s, "Llama-3.1-8B-Chat-GPTQ"), "llama-3.1-8b");
    assert_string_equal(catalog_snapshot_gpu_suggest(s, "H100 80GB"), "h100-sxm-80gb");
    assert_string_equal(catalog_snapshot_gpu_suggest(s, "NVIDIA H100 PCIe"), "h100-pcie-80gb");
    assert_string_equal(catalog_snapshot_gpu_suggest(s, "A100 40GB"), "a100-sxm-40gb");
    assert_string_equal(catalog_snapshot_gpu(s, "a100")->id, "a100-sxm-80gb");

    const struct catalog_gpu *g = catalog_snapshot_gpu(s, "H100");
    assert_non_null(g);
    assert_string_equal(g->id, "h100-sxm-80gb");
    assert_int_equal(g->memory_bytes, 80000000000ULL);
    /* 79.19 GiB from vLLM 0.19's logs (db/migrations/0016; 79.22 in 0002 from a 2024 log):
     * floor(79.19 * 2^30) */
    assert_int_equal(g->usable_memory_bytes, 85029615042ULL);
    assert_ptr_equal(catalog_snapshot_gpu(s, "h100-sxm5-80gb"), g);
    /* 79.15 GiB from a vLLM log on A100-SXM4-80GB: floor(79.15 * 2^30) (db/migrations/0005) */
    assert_int_equal(catalog_snapshot_gpu(s, "a100-sxm-80gb")->usable_memory_bytes,
                     84986665369ULL);

    for (size_t i = 1; i < s->model_count; i++)
        assert_true(strcmp(s->models[i - 1].id, s->models[i].id) < 0);
    catalog_snapshot_free(s);
    catalog_close(c);
}

/* Every number in the catalog seed has a source next to it: the schema's
 * CHECKs and triggers enforce part of this, the test all of it. */
static void test_every_gpu_number_has_a_source(void **state)
{
    struct test_db *f = *state;
    struct catalog *c = NULL;
    struct catalog_snapshot *s = NULL;
    assert_int_equal(catalog_open(f->path, &c, NULL), GS_OK);
    assert_int_equal(catalog_snapshot_load(c, &s, NULL), GS_OK);
    /* the accelerators issue 5 names, at least 25 in all */
    const char *required[] = {"h100-sxm-80gb", "h100-pcie-80gb", "h100-nvl-94gb", "h200-sxm-141gb",
                              "b200", "a100-sxm-40gb", "a100-sxm-80gb", "a100-pcie-40gb",
                              "a100-pcie-80gb", "l40s", "l4", "a10g", "t4", "v100-sxm-16gb",
                              "v100-sxm-32gb", "rtx-4090", "rtx-3090", "rtx-6000-ada", "rtx-a6000",
                              "mi300x", "mi325x", "mi250x", "gaudi2", "gaudi3"};
    for (size_t i = 0; i < sizeof(required) / sizeof(required[0]); i++)
        if (catalog_snapshot_gpu(s, required[i]) == NULL)
            fail_msg("no %s in the seed", required[i]);
    assert_true(s->gpu_count >= 25);
    for (size_t i = 0; i < s->gpu_count; i++) {
        const struct catalog_gpu *g = &s->gpus[i];
        assert_non_null(g->memory_source);
        if (g->usable_memory_bytes != 0)
            assert_non_null(g->usable_memory_source);
        if (g->memory_bandwidth_gb_s.present || g->bf16_tflops.present ||
            g->fp16_tflops.present || g->fp8_tflops.present || g->tdp_watts.present)
            assert_non_null(g->spec_source);
        if (g->interconnect_gb_s.present || g->pcie_gen.present || g->gpus_per_node.present)
            assert_non_null(g->interconnect_source);
        if (g->price_per_hour.present)
            assert_non_null(g->price_date);
        if (g->price_per_hour.present)
            assert_non_null(g->price_source);
        if (g->purchase_price.present)
            assert_non_null(g->purchase_price_source);
        /* usable capacity is below the marketed one wherever both are known */
        if (g->usable_memory_bytes != 0)
            assert_true(g->usable_memory_bytes < g->memory_bytes * 11 / 10);
    }
    /* models: the families issue 5 names, at least 40, each count with its source */
    const char *models[] = {"llama-2-7b", "llama-3.1-8b", "llama-3.1-70b", "llama-3.3-70b",
                            "mistral-7b-v0.1", "qwen2.5-7b", "qwen2.5-72b", "gemma-2-9b",
                            "phi-3-mini-4k", "falcon-7b", "opt-1.3b", "bloom-560m", "gpt2",
                            "mixtral-8x7b", "deepseek-v3", "deepseek-v2", "t5-small",
                            "flan-t5-base", "bert-base-uncased", "qwen3-30b-a3b"};
    for (size_t i = 0; i < sizeof(models) / sizeof(models[0]); i++)
        if (catalog_snapshot_model(s, models[i]) == NULL)
            fail_msg("no %s in the seed", models[i]);
    assert_true(s->model_count >= 40);
    for (size_t i = 0; i < s->model_count; i++) {
        const struct catalog_model *m = &s->models[i];
        assert_non_null(m->parameters_source);
        assert_non_null(m->config_source);
        assert_non_null(m->hf_id);
        assert_non_null(m->publisher);
        assert_true(strcmp(m->parameters_basis, "published") == 0 ||
                    strcmp(m->parameters_basis, "derived") == 0);
        assert_true(m->alias_count >= 1);
    }
    catalog_snapshot_free(s);
    catalog_close(c);
}

/* Superchips and unified memory (db/migrations/0008 and 0009): each total is
 * what the CUDA driver reports, and unified_memory is stated, 1 where the GPU's
 * memory is the host's and 0 where a superchip's GPU has its own HBM (vLLM
 * measures free memory with cudaMemGetInfo there); aliases resolve. */
static void test_superchips(void **state)
{
    struct test_db *f = *state;
    struct catalog *c = NULL;
    struct catalog_snapshot *s = NULL;
    assert_int_equal(catalog_open(f->path, &c, NULL), GS_OK);
    assert_int_equal(catalog_snapshot_load(c, &s, NULL), GS_OK);
    const struct {
        const char *alias, *id;
        uint64_t memory_bytes, usable_bytes;
        int unified;
    } rows[] = {
        /* 121.69 GiB: floor(121.69 x 2^30) */
        {"dgx-spark", "gb10", 128000000000ULL, 130663642562ULL, 1},
        /* 125748 MiB: 125748 x 2^20 */
        {"jetson-thor", "jetson-agx-thor", 128000000000ULL, 131856334848ULL, 1},
        /* 95.00 GiB: floor(95.00 x 2^30) = 97280 MiB */
        {"gh200-480gb", "gh200", 96000000000ULL, 102005473280ULL, 0},
        /* 142.50 GiB: floor(142.50 x 2^30) */
        {"gh200-144g-hbm3e", "gh200-144gb", 144000000000ULL, 153008209920ULL, 0},
        /* 184.31 GiB: floor(184.31 x 2^30) */
        {"gb200-nvl72", "gb200", 186000000000ULL, 197901355581ULL, 0},
    };
    for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        const struct catalog_gpu *g = catalog_snapshot_gpu(s, rows[i].id);
        if (g == NULL)
            fail_msg("no %s in the seed", rows[i].id);
        assert_ptr_equal(catalog_snapshot_gpu(s, rows[i].alias), g);
        assert_int_equal(g->memory_bytes, rows[i].memory_bytes);
        assert_int_equal(g->usable_memory_bytes, rows[i].usable_bytes);
        assert_non_null(g->usable_memory_source);
        assert_true(g->unified_memory.present);
        assert_int_equal((int)g->unified_memory.value, rows[i].unified);
    }
    /* the GB200 node is a 4-GPU compute tray; a Thor module holds one GPU */
    assert_int_equal((int)catalog_snapshot_gpu(s, "gb200")->gpus_per_node.value, 4);
    assert_int_equal((int)catalog_snapshot_gpu(s, "jetson-agx-thor")->gpus_per_node.value, 1);
    /* unknown stays NULL: the 144GB GH200's shipping bandwidth was not found */
    assert_false(catalog_snapshot_gpu(s, "gh200-144gb")->memory_bandwidth_gb_s.present);
    catalog_snapshot_free(s);
    catalog_close(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_fresh_catalog_is_migrated_and_seeded, test_db_setup, test_db_teardown),
        cmocka_unit_test_setup_teardown(test_wal_mode, test_db_setup, test_db_teardown),
        cmocka_unit_test_setup_teardown(test_upgrade_keeps_user_rows, test_db_setup, test_db_teardown),
        cmocka_unit_test_setup_teardown(test_count_sources_are_public, test_db_setup, test_db_teardown),
        cmocka_unit_test_setup_teardown(test_newer_schema_is_refused, test_db_setup, test_db_teardown),
        cmocka_unit_test_setup_teardown(test_unopenable_path, test_db_setup, test_db_teardown),
        cmocka_unit_test_setup_teardown(test_snapshot_lookups, test_db_setup, test_db_teardown),
        cmocka_unit_test_setup_teardown(test_every_gpu_number_has_a_source, test_db_setup, test_db_teardown),
        cmocka_unit_test_setup_teardown(test_superchips, test_db_setup, test_db_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
