/*
 * test_catalog_pg.c - the PostgreSQL catalog's schema against a real
 * PostgreSQL server the test starts (tests/support/pg_server.h): eight
 * replicas migrating at once apply each migration exactly once; a second
 * start applies nothing; and the schema refuses what the SQLite schema
 * refuses (a GPU number without its source, a duplicate alias in another
 * case, config text that is not JSON), and keeps the current price as the
 * latest dated history row, as SQLite's triggers do.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "catalog_pg.h"
#include "pg_server.h"

#include <libpq-fe.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    int applied, version;
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
    int applied = 0;
    for (int i = 0; i < N; i++) {
        pthread_join(t[i], NULL);
        if (r[i].status != GS_OK)
            fail_msg("replica %d: %s", i, r[i].detail);
        assert_int_equal(r[i].version, catalog_pg_schema_latest());
        applied += r[i].applied;
    }
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
    char *left = value(c, "SELECT (SELECT count(*) FROM gpu_aliases) + (SELECT count(*) FROM gpu_prices)");
    assert_string_equal(left, "0");
    free(left);
    PQfinish(c);
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_replicas_migrate_once),
        cmocka_unit_test(test_schema_refuses_as_sqlite_does),
        cmocka_unit_test(test_unreachable),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
