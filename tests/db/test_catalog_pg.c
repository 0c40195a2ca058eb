/*
 * test_catalog_pg.c - the PostgreSQL catalog's schema against a real
 * PostgreSQL server the test starts (tests/support/pg_server.h): eight
 * replicas migrating at once apply each migration exactly once and seed the
 * catalog once; a second start applies nothing; the seed reads back as the
 * SQLite catalog's snapshot; changes notify listeners and refresh shares
 * what did not change; and the schema refuses what the SQLite schema
 * refuses (a GPU number without its source, a duplicate alias in another
 * case, config text that is not JSON), and keeps the current price as the
 * latest dated history row, as SQLite's triggers do.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "catalog.h"
#include "catalog_pg.h"
#include "pg_server.h"

#include <libpq-fe.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static struct pg_server server;

static int setup(void **state)
{
    (void)state;
    return pg_server_start(&server);
}

static int teardown(void **state)
{
    (void)state;
    pg_server_destroy(&server);
    return 0;
}

struct replica {
    enum gs_status status;
    int applied, version, seeded;
    char detail[256];
};

static void *start_replica(void *arg)
{
    struct replica *r = arg;
    struct gs_error err;
    gs_error_init(&err);
    struct catalog_pg *pg = NULL;
    r->status = catalog_pg_open(server.url, &pg, &err);
    if (r->status == GS_OK) {
        r->applied = catalog_pg_applied(pg);
        r->seeded = catalog_pg_seeded(pg);
        r->status = catalog_pg_schema_version(pg, &r->version, &err);
    }
    if (err.count > 0)
        snprintf(r->detail, sizeof(r->detail), "%.255s", err.items[0].detail);
    catalog_pg_close(pg);
    return NULL;
}

static PGconn *connect_db(void)
{
    PGconn *c = PQconnectdb(server.url);
    if (PQstatus(c) != CONNECTION_OK)
        fail_msg("connect: %s", PQerrorMessage(c));
    return c;
}

/* Runs sql; returns its SQLSTATE ("" on success) into state. */
static void sql(PGconn *c, const char *text, char state[6])
{
    PGresult *res = PQexec(c, text);
    const ExecStatusType s = PQresultStatus(res);
    const char *code = PQresultErrorField(res, PG_DIAG_SQLSTATE);
    snprintf(state, 6, "%s", s == PGRES_COMMAND_OK || s == PGRES_TUPLES_OK ? "" : code ? code : "?");
    PQclear(res);
}

static char *value(PGconn *c, const char *text)
{
    PGresult *res = PQexec(c, text);
    if (PQresultStatus(res) != PGRES_TUPLES_OK || PQntuples(res) < 1)
        fail_msg("%s: %s", text, PQresultErrorMessage(res));
    char *v = strdup(PQgetvalue(res, 0, 0));
    PQclear(res);
    return v;
}

static void test_replicas_migrate_once(void **state)
{
    (void)state;
    enum { N = 8 };
    struct replica r[N];
    pthread_t t[N];
    memset(r, 0, sizeof(r));
    for (int i = 0; i < N; i++)
        assert_int_equal(pthread_create(&t[i], NULL, start_replica, &r[i]), 0);
    int applied = 0, seeded = 0;
    for (int i = 0; i < N; i++) {
        pthread_join(t[i], NULL);
        if (r[i].status != GS_OK)
            fail_msg("replica %d: %s", i, r[i].detail);
        assert_int_equal(r[i].version, catalog_pg_schema_latest());
        applied += r[i].applied;
        seeded += r[i].seeded;
    }
    assert_int_equal(seeded, 1); /* and one copied the seed in */
    /* every migration applied by exactly one replica */
    assert_int_equal(applied, catalog_pg_schema_latest());
    PGconn *c = connect_db();
    char *rows = value(c, "SELECT count(*) FROM gpusizer_schema");
    assert_int_equal(atoi(rows), catalog_pg_schema_latest());
    free(rows);
    PQfinish(c);
    /* a later start finds it current */
    struct replica again;
    memset(&again, 0, sizeof(again));
    start_replica(&again);
    assert_int_equal(again.status, GS_OK);
    assert_int_equal(again.applied, 0);
}

static void test_schema_refuses_as_sqlite_does(void **state)
{
    (void)state;
    PGconn *c = connect_db();
    char st[6];
    sql(c,
        "INSERT INTO gpus (id, name, vendor, memory_bytes, memory_source) "
        "VALUES ('lab', 'Lab', 'NVIDIA', 80000000000, 'datasheet')",
        st);
    assert_string_equal(st, "");
    /* numbers without their sources: 23514 check_violation */
    sql(c, "UPDATE gpus SET memory_bandwidth_gb_s = 3350 WHERE id = 'lab'", st);
    assert_string_equal(st, "23514");
    sql(c, "UPDATE gpus SET pcie_gen = 5 WHERE id = 'lab'", st);
    assert_string_equal(st, "23514");
    sql(c, "UPDATE gpus SET scale_out_gb_s = 50 WHERE id = 'lab'", st);
    assert_string_equal(st, "23514");
    sql(c, "UPDATE gpus SET scale_out_gb_s = 50, scale_out_source = 'vendor' WHERE id = 'lab'", st);
    assert_string_equal(st, "");
    sql(c, "UPDATE gpus SET pcie_gen = 9, interconnect_source = 'x' WHERE id = 'lab'", st);
    assert_string_equal(st, "23514");
    /* aliases are unique whatever their case: 23505 unique_violation */
    sql(c, "INSERT INTO gpu_aliases (alias, gpu_id) VALUES ('Lab-GPU', 'lab')", st);
    assert_string_equal(st, "");
    sql(c, "INSERT INTO gpu_aliases (alias, gpu_id) VALUES ('lab-gpu', 'lab')", st);
    assert_string_equal(st, "23505");
    /* a model's config must be JSON */
    sql(c,
        "INSERT INTO models (id, name, family, parameters, parameters_source, config_json, "
        "config_source) VALUES ('m', 'M', 'llama', 8, 'card', '{not json', 'hub')",
        st);
    assert_string_equal(st, "23514");
    sql(c,
        "INSERT INTO models (id, name, family, parameters, parameters_source, config_json, "
        "config_source) VALUES ('m', 'M', 'llama', 8, 'card', '{\"hidden_size\": 8}', 'hub')",
        st);
    assert_string_equal(st, "");
    char *stamp = value(c, "SELECT created_at FROM models WHERE id = 'm'");
    /* 2026-11-24T09:00:00.123Z, as SQLite's strftime('%Y-%m-%dT%H:%M:%fZ') */
    assert_int_equal(strlen(stamp), 24);
    assert_true(stamp[10] == 'T' && stamp[19] == '.' && stamp[23] == 'Z');
    free(stamp);
    /* price history: the latest dated row is the current price, an older one is history only */
    sql(c,
        "INSERT INTO gpu_prices (gpu_id, kind, usd, effective_date, source) VALUES "
        "('lab', 'on_demand', 2.5, '2026-10-01', 'quote A')",
        st);
    assert_string_equal(st, "");
    sql(c,
        "INSERT INTO gpu_prices (gpu_id, kind, usd, effective_date, source) VALUES "
        "('lab', 'on_demand', 3.0, '2026-09-01', 'older quote')",
        st);
    assert_string_equal(st, "");
    char *price = value(c, "SELECT price_per_hour || ' ' || price_source || ' ' || price_date "
                           "FROM gpus WHERE id = 'lab'");
    assert_string_equal(price, "2.5 quote A 2026-10-01");
    free(price);
    sql(c,
        "INSERT INTO gpu_prices (gpu_id, kind, usd, effective_date, source) VALUES "
        "('lab', 'purchase', 30000, '2026-11-01', 'list price')",
        st);
    assert_string_equal(st, "");
    price = value(c, "SELECT purchase_price || ' ' || purchase_price_date FROM gpus WHERE id = 'lab'");
    assert_string_equal(price, "30000 2026-11-01");
    free(price);
    sql(c,
        "INSERT INTO gpu_prices (gpu_id, kind, usd, effective_date, source) VALUES "
        "('lab', 'on_demand', 1, '2026-1-01', 'bad date')",
        st);
    assert_string_equal(st, "23514");
    /* deleting the GPU takes its aliases and history with it */
    sql(c, "DELETE FROM gpus WHERE id = 'lab'", st);
    assert_string_equal(st, "");
    char *left = value(c, "SELECT (SELECT count(*) FROM gpu_aliases WHERE gpu_id = 'lab') + "
                          "(SELECT count(*) FROM gpu_prices WHERE gpu_id = 'lab')");
    assert_string_equal(left, "0");
    free(left);
    PQfinish(c);
}

static void same_text(const char *what, const char *id, const char *a, const char *b)
{
    if ((a == NULL) != (b == NULL) || (a != NULL && strcmp(a, b) != 0))
        fail_msg("%s of %s: SQLite \"%.80s\", PostgreSQL \"%.80s\"", what, id, a ? a : "(null)",
                 b ? b : "(null)");
}

static void same_real(const char *what, const char *id, struct catalog_real a, struct catalog_real b)
{
    if (a.present != b.present || (a.present && a.value != b.value))
        fail_msg("%s of %s: SQLite %d %.17g, PostgreSQL %d %.17g", what, id, a.present, a.value,
                 b.present, b.value);
}

static void same_aliases(const char *id, char **a, size_t na, char **b, size_t nb)
{
    if (na != nb)
        fail_msg("aliases of %s: %zu in SQLite, %zu in PostgreSQL", id, na, nb);
    for (size_t i = 0; i < na; i++)
        same_text("alias", id, a[i], b[i]);
}

/* A row's entity tag is its (id, revision, created_at)'s, with created_at as SQLite writes it. */
static void same_tag(const char *id, uint64_t revision, const char *created_at, const char *etag)
{
    char want[CATALOG_ETAG_MAX];
    catalog_etag(id, revision, created_at, want);
    assert_string_equal(etag, want);
    assert_int_equal(strlen(created_at), 24);
    assert_true(created_at[10] == 'T' && created_at[23] == 'Z');
}

/* The seed copied into PostgreSQL reads back as the snapshot the SQLite catalog loads: every
 * model and GPU, every field (reals bit for bit), aliases in order; only the creation times
 * (and so the tags) are each seeding's own. */
static void test_seed_reads_back_as_sqlite(void **state)
{
    (void)state;
    struct gs_error err;
    gs_error_init(&err);
    struct catalog *lite = NULL;
    struct catalog_snapshot *a = NULL, *b = NULL;
    assert_int_equal(catalog_open(":memory:", &lite, &err), GS_OK);
    assert_int_equal(catalog_snapshot_load(lite, &a, &err), GS_OK);
    struct catalog_pg *pg = NULL;
    assert_int_equal(catalog_pg_open(server.url, &pg, &err), GS_OK);
    assert_false(catalog_pg_seeded(pg)); /* the first test's replicas seeded it */
    assert_int_equal(catalog_pg_snapshot_load(pg, &b, &err), GS_OK);
    assert_true(a->model_count > 100);
    assert_int_equal(b->model_count, a->model_count);
    for (size_t i = 0; i < a->model_count; i++) {
        const struct catalog_model *x = &a->models[i], *y = &b->models[i];
        same_text("id", x->id, x->id, y->id);
        same_text("name", x->id, x->name, y->name);
        same_text("hf_id", x->id, x->hf_id, y->hf_id);
        same_text("publisher", x->id, x->publisher, y->publisher);
        same_text("family", x->id, x->family, y->family);
        assert_int_equal(x->parameters, y->parameters);
        same_text("parameters_basis", x->id, x->parameters_basis, y->parameters_basis);
        same_text("parameters_source", x->id, x->parameters_source, y->parameters_source);
        same_text("config_json", x->id, x->config_json, y->config_json);
        same_text("config_source", x->id, x->config_source, y->config_source);
        same_text("hub_revision", x->id, x->hub_revision, y->hub_revision);
        same_text("checkpoint_json", x->id, x->checkpoint_json, y->checkpoint_json);
        same_text("provenance_json", x->id, x->provenance_json, y->provenance_json);
        assert_int_equal(x->revision, y->revision);
        same_tag(y->id, y->revision, y->created_at, y->etag);
        same_aliases(x->id, x->aliases, x->alias_count, y->aliases, y->alias_count);
    }
    assert_true(a->gpu_count > 20);
    assert_int_equal(b->gpu_count, a->gpu_count);
    for (size_t i = 0; i < a->gpu_count; i++) {
        const struct catalog_gpu *x = &a->gpus[i], *y = &b->gpus[i];
        const char *id = x->id;
        same_text("id", id, x->id, y->id);
        same_text("name", id, x->name, y->name);
        same_text("vendor", id, x->vendor, y->vendor);
        assert_int_equal(x->memory_bytes, y->memory_bytes);
        same_text("memory_source", id, x->memory_source, y->memory_source);
        assert_int_equal(x->usable_memory_bytes, y->usable_memory_bytes);
        same_text("usable_memory_source", id, x->usable_memory_source, y->usable_memory_source);
        same_real("memory_bandwidth_gb_s", id, x->memory_bandwidth_gb_s, y->memory_bandwidth_gb_s);
        same_real("bf16_tflops", id, x->bf16_tflops, y->bf16_tflops);
        same_real("fp8_tflops", id, x->fp8_tflops, y->fp8_tflops);
        same_real("fp16_tflops", id, x->fp16_tflops, y->fp16_tflops);
        same_real("tdp_watts", id, x->tdp_watts, y->tdp_watts);
        same_text("spec_source", id, x->spec_source, y->spec_source);
        same_text("architecture", id, x->architecture, y->architecture);
        same_text("form_factor", id, x->form_factor, y->form_factor);
        same_text("memory_type", id, x->memory_type, y->memory_type);
        same_real("unified_memory", id, x->unified_memory, y->unified_memory);
        same_text("interconnect", id, x->interconnect, y->interconnect);
        same_real("interconnect_gb_s", id, x->interconnect_gb_s, y->interconnect_gb_s);
        same_real("pcie_gen", id, x->pcie_gen, y->pcie_gen);
        same_real("gpus_per_node", id, x->gpus_per_node, y->gpus_per_node);
        same_text("interconnect_source", id, x->interconnect_source, y->interconnect_source);
        same_real("scale_out_gb_s", id, x->scale_out_gb_s, y->scale_out_gb_s);
        same_text("scale_out_source", id, x->scale_out_source, y->scale_out_source);
        same_real("price_per_hour", id, x->price_per_hour, y->price_per_hour);
        same_text("price_source", id, x->price_source, y->price_source);
        same_text("price_date", id, x->price_date, y->price_date);
        same_real("purchase_price", id, x->purchase_price, y->purchase_price);
        same_text("purchase_price_source", id, x->purchase_price_source, y->purchase_price_source);
        same_text("purchase_price_date", id, x->purchase_price_date, y->purchase_price_date);
        assert_int_equal(x->revision, y->revision);
        same_tag(y->id, y->revision, y->created_at, y->etag);
        same_aliases(id, x->aliases, x->alias_count, y->aliases, y->alias_count);
    }
    /* the price history came along, and the next price gets a fresh id */
    PGconn *c = connect_db();
    char *n = value(c, "SELECT count(*) FROM gpu_prices");
    assert_true(atoi(n) >= 20);
    free(n);
    char st[6];
    sql(c,
        "INSERT INTO gpu_prices (gpu_id, kind, usd, effective_date, source) VALUES "
        "('l4', 'on_demand', 0.5, '2000-01-01', 'old quote')",
        st);
    assert_string_equal(st, "");
    PQfinish(c);
    catalog_snapshot_free(a);
    catalog_snapshot_free(b);
    catalog_pg_close(pg);
    catalog_close(lite);
}

/* Any change by anyone notifies a listening replica (within a second), bumps the change
 * counter, and a refresh re-reads only what changed: unchanged rows are shared (the very
 * same strings), a changed GPU has its new price and aliases, a deleted model is gone, a
 * new one is there. */
static void test_changes_notify_and_refresh(void **state)
{
    (void)state;
    struct gs_error err;
    gs_error_init(&err);
    struct catalog_pg *pg = NULL;
    assert_int_equal(catalog_pg_open(server.url, &pg, &err), GS_OK);
    assert_int_equal(catalog_pg_listen(pg, &err), GS_OK);
    struct catalog_snapshot *before = NULL, *after = NULL;
    assert_int_equal(catalog_pg_snapshot_load(pg, &before, &err), GS_OK);
    long long v0 = 0, v1 = 0;
    assert_int_equal(catalog_pg_data_version(pg, &v0, &err), GS_OK);
    bool changed = true;
    assert_int_equal(catalog_pg_wait(pg, 0, &changed, &err), GS_OK);
    assert_false(changed); /* nothing pending yet */

    PGconn *c = connect_db(); /* another replica, or an operator with psql */
    char st[6];
    sql(c,
        "BEGIN; UPDATE gpus SET price_per_hour = 9.25, price_source = 'refresh test', "
        "revision = revision + 1 WHERE id = 'l4'; INSERT INTO gpu_aliases (alias, gpu_id) "
        "VALUES ('L4-refresh', 'l4'); DELETE FROM models WHERE id = 'aya-23-8b'; "
        "INSERT INTO models (id, name, family, parameters, parameters_source, config_json, "
        "config_source) VALUES ('zz-new', 'New', 'llama', 8, 'card', '{}', 'hub'); COMMIT",
        st);
    assert_string_equal(st, "");
    assert_int_equal(catalog_pg_wait(pg, 1000, &changed, &err), GS_OK);
    assert_true(changed);
    assert_int_equal(catalog_pg_data_version(pg, &v1, &err), GS_OK);
    assert_true(v1 >= v0 + 4); /* one per statement */
    /* the commit's notifications may come in more than one read: drain them, then none is
     * left pending */
    for (int i = 0; i < 50 && changed; i++)
        assert_int_equal(catalog_pg_wait(pg, 100, &changed, &err), GS_OK);
    assert_int_equal(catalog_pg_wait(pg, 0, &changed, &err), GS_OK);
    assert_false(changed);

    assert_int_equal(catalog_pg_snapshot_refresh(pg, before, &after, &err), GS_OK);
    assert_int_equal(after->gpu_count, before->gpu_count);
    assert_int_equal(after->model_count, before->model_count); /* one gone, one new */
    const struct catalog_gpu *l4 = catalog_snapshot_gpu(after, "l4");
    assert_non_null(l4);
    assert_true(l4->price_per_hour.present && l4->price_per_hour.value == 9.25);
    assert_string_equal(l4->price_source, "refresh test");
    assert_ptr_equal(catalog_snapshot_gpu(after, "l4-REFRESH"), l4);
    assert_null(catalog_snapshot_model(after, "aya-23-8b"));
    assert_non_null(catalog_snapshot_model(after, "zz-new"));
    size_t shared = 0;
    for (size_t i = 0; i < after->gpu_count; i++) {
        const struct catalog_gpu *b = catalog_snapshot_gpu(before, after->gpus[i].id);
        if (b != NULL && b->name == after->gpus[i].name)
            shared++;
    }
    assert_int_equal(shared, after->gpu_count - 1); /* all but l4 */
    catalog_snapshot_free(before); /* the shared rows stay with `after` */
    assert_string_equal(catalog_snapshot_gpu(after, "h100-sxm-80gb")->id, "h100-sxm-80gb");
    catalog_snapshot_free(after);
    /* a lost connection is an error, not a hang */
    sql(c, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'gpusizer'",
        st);
    assert_string_equal(st, "");
    gs_error_init(&err);
    assert_int_equal(catalog_pg_wait(pg, 1000, &changed, &err), GS_ERR_BUSY);
    PQfinish(c);
    catalog_pg_close(pg);
}

/* Connection errors are 503-class and never repeat the URL (it may hold a password). */
static void test_unreachable(void **state)
{
    (void)state;
    struct gs_error err;
    gs_error_init(&err);
    struct catalog_pg *pg = NULL;
    assert_int_equal(catalog_pg_open("postgresql://gs:s3cret@127.0.0.1:1/x?connect_timeout=2", &pg,
                                     &err),
                     GS_ERR_BUSY);
    assert_null(pg);
    assert_true(err.count > 0);
    assert_null(strstr(err.items[0].detail, "s3cret"));
    gs_error_init(&err);
    assert_int_equal(catalog_pg_open("/var/lib/gpusizer/catalog.db", &pg, &err), GS_ERR_INVALID);
    assert_true(catalog_pg_is_url("postgres://h/db"));
    assert_true(catalog_pg_is_url("postgresql://h/db"));
    assert_false(catalog_pg_is_url("./gpusizer.db"));
    assert_false(catalog_pg_is_url(NULL));
}


/* Runs `sql` on database `db` of the test server (plain SQL: a user's edits behind
 * gpusizer's back, or the state an older seed left). */
static void sql_on(const char *db, const char *sql)
{
    char url[256];
    snprintf(url, sizeof(url), "postgresql://postgres@127.0.0.1:%u/%s", (unsigned)server.port, db);
    PGconn *c = PQconnectdb(url);
    assert_int_equal(PQstatus(c), CONNECTION_OK);
    PGresult *res = PQexec(c, sql);
    if (PQresultStatus(res) != PGRES_COMMAND_OK && PQresultStatus(res) != PGRES_TUPLES_OK)
        fail_msg("%s: %s", sql, PQresultErrorMessage(res));
    PQclear(res);
    PQfinish(c);
}

/* A catalog seeded by an older gpusizer (the SQLite seed as of schema 12, before the
 * scale-out figures of 0013) is brought to the newer seed when a newer gpusizer opens it:
 * entries no user wrote take the seed's changes (a new revision, so tags and snapshots
 * notice), an entry the old seed lacked is added with its aliases and price history, one the
 * new seed dropped is removed; what users wrote, deleted or created stays as they left it.
 * A second open changes nothing. */
/* The row with exactly this id (not an alias) in `s`, or NULL. */
static const struct catalog_gpu *seed_gpu(const struct catalog_snapshot *s, const char *id)
{
    for (size_t i = 0; i < s->gpu_count; i++)
        if (strcmp(s->gpus[i].id, id) == 0)
            return &s->gpus[i];
    return NULL;
}

static const struct catalog_model *seed_model(const struct catalog_snapshot *s, const char *id)
{
    for (size_t i = 0; i < s->model_count; i++)
        if (strcmp(s->models[i].id, id) == 0)
            return &s->models[i];
    return NULL;
}

static bool text_differs(const char *a, const char *b)
{
    return (a == NULL) != (b == NULL) || (a != NULL && strcmp(a, b) != 0);
}

/* Whether a seed model row differs between two seeds in what the seed sync copies: its
 * columns or its aliases (compared as sets, any case). */
static bool model_seed_differs(const struct catalog_model *a, const struct catalog_model *b)
{
    if (text_differs(a->name, b->name) || text_differs(a->hf_id, b->hf_id) ||
        text_differs(a->publisher, b->publisher) || text_differs(a->family, b->family) ||
        a->parameters != b->parameters || text_differs(a->parameters_basis, b->parameters_basis) ||
        text_differs(a->parameters_source, b->parameters_source) ||
        text_differs(a->config_json, b->config_json) ||
        text_differs(a->config_source, b->config_source) ||
        text_differs(a->checkpoint_json, b->checkpoint_json) ||
        text_differs(a->provenance_json, b->provenance_json) ||
        text_differs(a->hub_revision, b->hub_revision) || a->alias_count != b->alias_count)
        return true;
    for (size_t i = 0; i < a->alias_count; i++) {
        bool found = false;
        for (size_t j = 0; j < b->alias_count && !found; j++)
            found = strcasecmp(a->aliases[i], b->aliases[j]) == 0;
        if (!found)
            return true;
    }
    return false;
}

static void test_seed_upgrade(void **state)
{
    (void)state;
    struct gs_error err;
    gs_error_init(&err);
    sql_on("postgres", "CREATE DATABASE seed_upgrade");
    char url[256];
    snprintf(url, sizeof(url), "postgresql://postgres@127.0.0.1:%u/seed_upgrade",
             (unsigned)server.port);
    struct catalog_pg *pg = NULL;
    assert_int_equal(catalog_pg_open_seed_at(url, 12, &pg, &err), GS_OK);
    assert_true(catalog_pg_seeded(pg));
    struct catalog_snapshot *s = NULL;
    assert_int_equal(catalog_pg_snapshot_load(pg, &s, &err), GS_OK);
    assert_false(catalog_snapshot_gpu(s, "a100-sxm-80gb")->scale_out_gb_s.present);
    const uint64_t seed12_models = s->model_count, seed12_gpus = s->gpu_count;
    struct catalog_snapshot *seed12 = s; /* kept: what a later seed changed is counted below */
    catalog_pg_close(pg);
    /* users: one GPU renamed (a write bumps its revision), one deleted, one created; the
     * older seed as if it lacked t4 and had a GPU the newer one dropped */
    sql_on("seed_upgrade",
           "UPDATE gpus SET name = 'Ours', revision = revision + 1 WHERE id = 'h100-sxm-80gb';"
           "DELETE FROM gpus WHERE id = 'l4';"
           "INSERT INTO gpus (id, name, vendor, memory_bytes, memory_source) VALUES"
           " ('lab-gpu', 'Lab', 'Acme', 1000, 'lab');"
           "DELETE FROM gpus WHERE id = 't4'; DELETE FROM gpusizer_seed_rows WHERE id = 't4';"
           "INSERT INTO gpus (id, name, vendor, memory_bytes, memory_source) VALUES"
           " ('retired-gpu', 'Retired', 'Acme', 1000, 'old seed');"
           "INSERT INTO gpusizer_seed_rows VALUES ('gpus', 'retired-gpu', 1)");

    assert_int_equal(catalog_pg_open(url, &pg, &err), GS_OK);
    int added = 0, updated = 0, removed = 0;
    catalog_pg_seed_changes(pg, &added, &updated, &removed);
    assert_int_equal(removed, 1); /* retired-gpu */
    assert_int_equal(catalog_pg_snapshot_load(pg, &s, &err), GS_OK);
    const struct catalog_gpu *g = catalog_snapshot_gpu(s, "a100-sxm-80gb");
    assert_true(g->scale_out_gb_s.present && g->scale_out_gb_s.value == 25);
    assert_non_null(g->scale_out_source);
    assert_int_equal(g->revision, 2);
    g = catalog_snapshot_gpu(s, "gaudi2");
    assert_true(g->scale_out_gb_s.present && g->scale_out_gb_s.value == 37.5);
    g = catalog_snapshot_gpu(s, "h100-sxm-80gb"); /* the users' */
    assert_string_equal(g->name, "Ours");
    assert_false(g->scale_out_gb_s.present);
    assert_null(catalog_snapshot_gpu(s, "l4"));
    assert_null(catalog_snapshot_gpu(s, "retired-gpu"));
    assert_non_null(catalog_snapshot_gpu(s, "lab-gpu"));
    /* t4 as the SQLite seed has it: aliases and current prices from its history */
    struct catalog *lite = NULL;
    struct catalog_snapshot *want = NULL;
    assert_int_equal(catalog_open(":memory:", &lite, &err), GS_OK);
    assert_int_equal(catalog_snapshot_load(lite, &want, &err), GS_OK);
    /* added: t4, and every model and GPU the seed gained after schema 12 */
    assert_true(want->model_count >= seed12_models && want->gpu_count >= seed12_gpus);
    assert_int_equal(added, 1 + (int)(want->model_count - seed12_models) +
                                (int)(want->gpu_count - seed12_gpus));
    const struct catalog_gpu *t4 = catalog_snapshot_gpu(s, "t4"), *t4_seed =
                                                                     catalog_snapshot_gpu(want, "t4");
    assert_non_null(t4);
    assert_int_equal(t4->alias_count, t4_seed->alias_count);
    for (size_t i = 0; i < t4->alias_count; i++)
        assert_string_equal(t4->aliases[i], t4_seed->aliases[i]);
    assert_true(t4->price_per_hour.present == t4_seed->price_per_hour.present &&
                t4->price_per_hour.value == t4_seed->price_per_hour.value);
    assert_true(t4->purchase_price.present == t4_seed->purchase_price.present &&
                t4->purchase_price.value == t4_seed->purchase_price.value);
    assert_int_equal(s->model_count, want->model_count); /* every seed model, none of users' */
    /* updated: exactly the schema-12 seed's GPUs 0013 gave scale-out figures or 0015 SM
     * counts, but the users' h100-sxm-80gb, the l4 they deleted and the t4 the old seed lacked
     * (GPUs a later seed added count as added), and the schema-12 seed's models whose row or
     * aliases a later seed changed (instruct aliases, 0024) */
    int changed = 0, scale_out = 0;
    for (size_t i = 0; i < want->gpu_count; i++) {
        const struct catalog_gpu *w = &want->gpus[i];
        scale_out += w->scale_out_gb_s.present;
        if ((w->scale_out_gb_s.present || w->sm_count.present) &&
            seed_gpu(seed12, w->id) != NULL && strcmp(w->id, "h100-sxm-80gb") != 0 &&
            strcmp(w->id, "l4") != 0 && strcmp(w->id, "t4") != 0)
            changed++;
    }
    for (size_t i = 0; i < want->model_count; i++) {
        const struct catalog_model *was = seed_model(seed12, want->models[i].id);
        changed += was != NULL && model_seed_differs(was, &want->models[i]);
    }
    catalog_snapshot_free(seed12);
    assert_true(scale_out > 5);
    assert_int_equal(updated, changed);
    catalog_snapshot_free(want);
    catalog_close(lite);
    catalog_snapshot_free(s);
    catalog_pg_close(pg);

    assert_int_equal(catalog_pg_open(url, &pg, &err), GS_OK);
    catalog_pg_seed_changes(pg, &added, &updated, &removed);
    assert_int_equal(added + updated + removed, 0);
    catalog_pg_close(pg);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_replicas_migrate_once),
        cmocka_unit_test(test_seed_reads_back_as_sqlite),
        cmocka_unit_test(test_changes_notify_and_refresh),
        cmocka_unit_test(test_schema_refuses_as_sqlite_does),
        cmocka_unit_test(test_seed_upgrade),
        cmocka_unit_test(test_unreachable),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
