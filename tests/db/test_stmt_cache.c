/*
 * test_stmt_cache.c - the SQLite connection's statement cache (db/src/stmt_cache.h):
 * statements found by their text, lent reset and without bindings, at rest holding
 * no read transaction, a key already lent getting a statement of its own, prepare
 * errors as SQLite gives them, schema changes, the size bound, and a connection that
 * closes cleanly; and through the catalog, that writes (failed ones too), refreshes
 * and reads leave no read transaction behind.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "catalog.h"
#include "catalog_write.h"
#include "stmt_cache.h"
#include "test_files.h"

#include <sqlite3.h>
#include <stdio.h>
#include <string.h>

#define S(text) ((char *)(uintptr_t)(text))

static sqlite3 *open_file(const char *path)
{
    sqlite3 *db = NULL;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    return db;
}

static void exec_ok(sqlite3 *db, const char *sql)
{
    assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
}

/* How many statements the connection has, lent or at rest. */
static int statements(sqlite3 *db)
{
    int n = 0;
    for (sqlite3_stmt *s = sqlite3_next_stmt(db, NULL); s != NULL; s = sqlite3_next_stmt(db, s))
        n++;
    return n;
}

/* Whether a TRUNCATE checkpoint from another connection, which waits for no one,
 * finds every reader gone. */
static bool checkpoint_unblocked(const char *path)
{
    sqlite3 *other = open_file(path);
    exec_ok(other, "SELECT count(*) FROM sqlite_master"); /* finds the file in WAL mode */
    int log = -1, done = -1;
    const int rc = sqlite3_wal_checkpoint_v2(other, NULL, SQLITE_CHECKPOINT_TRUNCATE, &log, &done);
    assert_int_equal(sqlite3_close(other), SQLITE_OK);
    return rc == SQLITE_OK && log == 0;
}

static void test_statements_are_found_by_text(void **state)
{
    (void)state;
    sqlite3 *db = NULL;
    assert_int_equal(sqlite3_open(":memory:", &db), SQLITE_OK);
    struct stmt_cache *cache = stmt_cache_new(db);
    assert_non_null(cache);
    assert_ptr_equal(stmt_cache_db(cache), db);

    sqlite3_stmt *a = NULL, *b = NULL;
    assert_int_equal(stmt_cache_acquire(cache, "SELECT 1", &a), SQLITE_OK);
    assert_non_null(a);
    assert_int_equal(stmt_cache_lent(cache), 1);
    stmt_cache_release(cache, a);
    assert_int_equal(stmt_cache_lent(cache), 0);
    /* the same text in another buffer: the same statement */
    char text[64];
    snprintf(text, sizeof(text), "SELECT %d", 1);
    assert_int_equal(stmt_cache_acquire(cache, text, &b), SQLITE_OK);
    assert_ptr_equal(a, b);
    stmt_cache_release(cache, b);
    /* the buffer reused for other text: another statement, which runs that text */
    snprintf(text, sizeof(text), "SELECT %d", 2);
    assert_int_equal(stmt_cache_acquire(cache, text, &b), SQLITE_OK);
    assert_ptr_not_equal(a, b);
    assert_int_equal(sqlite3_step(b), SQLITE_ROW);
    assert_int_equal(sqlite3_column_int(b, 0), 2);
    stmt_cache_release(cache, b);
    assert_int_equal(statements(db), 2);

    /* a key that is not its text (SQL with markers the caller rewrites) */
    assert_null(stmt_cache_lookup(cache, "SELECT {three}"));
    assert_int_equal(stmt_cache_prepare(cache, "SELECT {three}", "SELECT 3", &a), SQLITE_OK);
    stmt_cache_release(cache, a);
    b = stmt_cache_lookup(cache, "SELECT {three}");
    assert_ptr_equal(a, b);
    assert_int_equal(sqlite3_step(b), SQLITE_ROW);
    assert_int_equal(sqlite3_column_int(b, 0), 3);
    stmt_cache_release(cache, b);

    stmt_cache_free(cache);
    assert_int_equal(sqlite3_close(db), SQLITE_OK);
}

static void test_lent_statements_are_reset_without_bindings(void **state)
{
    (void)state;
    sqlite3 *db = NULL;
    assert_int_equal(sqlite3_open(":memory:", &db), SQLITE_OK);
    struct stmt_cache *cache = stmt_cache_new(db);
    assert_non_null(cache);
    exec_ok(db, "CREATE TABLE t (v INTEGER); INSERT INTO t VALUES (1), (2), (3)");

    sqlite3_stmt *s = NULL;
    assert_int_equal(stmt_cache_acquire(cache, "SELECT ?1, v FROM t ORDER BY v", &s), SQLITE_OK);
    assert_int_equal(sqlite3_bind_int(s, 1, 42), SQLITE_OK);
    assert_int_equal(sqlite3_step(s), SQLITE_ROW);
    assert_int_equal(sqlite3_column_int(s, 0), 42);
    assert_true(sqlite3_stmt_busy(s));
    stmt_cache_release(cache, s); /* mid-way through the rows */
    assert_false(sqlite3_stmt_busy(s));

    sqlite3_stmt *again = NULL;
    assert_int_equal(stmt_cache_acquire(cache, "SELECT ?1, v FROM t ORDER BY v", &again),
                     SQLITE_OK);
    assert_ptr_equal(again, s);
    assert_int_equal(sqlite3_step(again), SQLITE_ROW);            /* from the first row again */
    assert_int_equal(sqlite3_column_type(again, 0), SQLITE_NULL); /* no binding left */
    assert_int_equal(sqlite3_column_int(again, 1), 1);
    stmt_cache_release(cache, again);

    stmt_cache_free(cache);
    assert_int_equal(sqlite3_close(db), SQLITE_OK);
}

static void test_released_statements_hold_no_read(void **state)
{
    struct test_db *f = *state;
    sqlite3 *db = open_file(f->path);
    exec_ok(db, "PRAGMA journal_mode = WAL; CREATE TABLE t (v INTEGER);"
                " INSERT INTO t VALUES (1), (2)");
    struct stmt_cache *cache = stmt_cache_new(db);
    assert_non_null(cache);

    sqlite3_stmt *s = NULL;
    assert_int_equal(stmt_cache_acquire(cache, "SELECT v FROM t", &s), SQLITE_OK);
    assert_int_equal(sqlite3_step(s), SQLITE_ROW);
    /* mid-step, the statement's read holds the checkpoint back ... */
    assert_false(checkpoint_unblocked(f->path));
    stmt_cache_release(cache, s);
    /* ... and back in the cache it holds nothing */
    assert_true(checkpoint_unblocked(f->path));

    /* a failed step too */
    exec_ok(db, "CREATE TABLE u (v INTEGER NOT NULL)");
    assert_int_equal(stmt_cache_acquire(cache, "INSERT INTO u VALUES (?1)", &s), SQLITE_OK);
    assert_int_equal(sqlite3_step(s), SQLITE_CONSTRAINT);
    assert_int_equal(sqlite3_extended_errcode(db), SQLITE_CONSTRAINT_NOTNULL);
    stmt_cache_release(cache, s);
    assert_int_equal(stmt_cache_lent(cache), 0);
    assert_true(checkpoint_unblocked(f->path));

    stmt_cache_free(cache);
    assert_int_equal(sqlite3_close(db), SQLITE_OK);
}

static void test_a_lent_key_gets_its_own_statement(void **state)
{
    (void)state;
    sqlite3 *db = NULL;
    assert_int_equal(sqlite3_open(":memory:", &db), SQLITE_OK);
    struct stmt_cache *cache = stmt_cache_new(db);
    assert_non_null(cache);
    exec_ok(db, "CREATE TABLE t (v INTEGER); INSERT INTO t VALUES (1), (2)");

    sqlite3_stmt *outer = NULL, *inner = NULL;
    assert_int_equal(stmt_cache_acquire(cache, "SELECT v FROM t ORDER BY v", &outer), SQLITE_OK);
    assert_int_equal(sqlite3_step(outer), SQLITE_ROW);
    assert_null(stmt_cache_lookup(cache, "SELECT v FROM t ORDER BY v"));
    assert_int_equal(stmt_cache_acquire(cache, "SELECT v FROM t ORDER BY v", &inner), SQLITE_OK);
    assert_ptr_not_equal(outer, inner);
    assert_int_equal(stmt_cache_lent(cache), 2);
    /* each has its own place in the rows */
    assert_int_equal(sqlite3_step(inner), SQLITE_ROW);
    assert_int_equal(sqlite3_column_int(inner, 0), 1);
    assert_int_equal(sqlite3_step(outer), SQLITE_ROW);
    assert_int_equal(sqlite3_column_int(outer, 0), 2);
    stmt_cache_release(cache, inner); /* finalized: only the cached one is left */
    stmt_cache_release(cache, outer);
    assert_int_equal(stmt_cache_lent(cache), 0);
    assert_int_equal(statements(db), 1);

    stmt_cache_free(cache);
    assert_int_equal(statements(db), 0);
    assert_int_equal(sqlite3_close(db), SQLITE_OK);
}

static void test_errors_are_sqlites(void **state)
{
    (void)state;
    sqlite3 *db = NULL, *plain = NULL;
    assert_int_equal(sqlite3_open(":memory:", &db), SQLITE_OK);
    assert_int_equal(sqlite3_open(":memory:", &plain), SQLITE_OK);
    struct stmt_cache *cache = stmt_cache_new(db);
    assert_non_null(cache);

    sqlite3_stmt *s = (sqlite3_stmt *)(uintptr_t)1;
    assert_int_equal(stmt_cache_acquire(cache, "SELECT * FROM missing", &s), SQLITE_ERROR);
    assert_null(s);
    assert_string_equal(sqlite3_errmsg(db), "no such table: missing");
    assert_int_equal(stmt_cache_lent(cache), 0);
    assert_int_equal(statements(db), 0);

    /* exec reports what sqlite3_exec does */
    assert_int_equal(stmt_cache_exec(cache, "COMMIT"),
                     sqlite3_exec(plain, "COMMIT", NULL, NULL, NULL));
    assert_string_equal(sqlite3_errmsg(db), sqlite3_errmsg(plain));
    assert_int_equal(stmt_cache_exec(cache, "BEGIN"), SQLITE_OK);
    assert_int_equal(sqlite3_get_autocommit(db), 0);
    assert_int_equal(stmt_cache_exec(cache, "COMMIT"), SQLITE_OK);
    assert_int_equal(sqlite3_get_autocommit(db), 1);
    assert_int_equal(stmt_cache_lent(cache), 0);

    stmt_cache_free(cache);
    assert_int_equal(sqlite3_close(db), SQLITE_OK);
    assert_int_equal(sqlite3_close(plain), SQLITE_OK);
}

static void test_schema_changes_prepare_again(void **state)
{
    struct test_db *f = *state;
    sqlite3 *db = open_file(f->path);
    exec_ok(db, "CREATE TABLE t (a INTEGER); INSERT INTO t VALUES (1)");
    struct stmt_cache *cache = stmt_cache_new(db);
    assert_non_null(cache);
    sqlite3_stmt *s = NULL;
    assert_int_equal(stmt_cache_acquire(cache, "SELECT * FROM t", &s), SQLITE_OK);
    assert_int_equal(sqlite3_step(s), SQLITE_ROW);
    assert_int_equal(sqlite3_column_count(s), 1);
    stmt_cache_release(cache, s);

    /* another connection changes the schema: nothing of ours holds it back */
    sqlite3 *other = open_file(f->path);
    exec_ok(other, "ALTER TABLE t ADD COLUMN b INTEGER DEFAULT 7");
    assert_int_equal(sqlite3_close(other), SQLITE_OK);

    sqlite3_stmt *again = NULL;
    assert_int_equal(stmt_cache_acquire(cache, "SELECT * FROM t", &again), SQLITE_OK);
    assert_ptr_equal(again, s);
    assert_int_equal(sqlite3_step(again), SQLITE_ROW);
    assert_int_equal(sqlite3_column_count(again), 2);
    assert_int_equal(sqlite3_column_int(again, 1), 7);
    stmt_cache_release(cache, again);

    stmt_cache_free(cache);
    assert_int_equal(sqlite3_close(db), SQLITE_OK);
}

static void test_the_cache_is_bounded(void **state)
{
    (void)state;
    sqlite3 *db = NULL;
    assert_int_equal(sqlite3_open(":memory:", &db), SQLITE_OK);
    struct stmt_cache *cache = stmt_cache_new(db);
    assert_non_null(cache);
    for (int round = 0; round < 2; round++) {
        for (int i = 0; i < 300; i++) {
            char sql[32];
            snprintf(sql, sizeof(sql), "SELECT %d", i);
            sqlite3_stmt *s = NULL;
            assert_int_equal(stmt_cache_acquire(cache, sql, &s), SQLITE_OK);
            assert_int_equal(sqlite3_step(s), SQLITE_ROW);
            assert_int_equal(sqlite3_column_int(s, 0), i);
            stmt_cache_release(cache, s);
        }
        const int kept = statements(db);
        assert_true(kept > 0 && kept < 300);
    }
    assert_int_equal(stmt_cache_lent(cache), 0);
    stmt_cache_free(cache);
    assert_int_equal(sqlite3_close(db), SQLITE_OK);
}

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

/* The catalog's reads and writes, done and failed, leave no read transaction open. */
static void test_catalog_leaves_no_read_open(void **state)
{
    struct test_db *f = *state;
    struct catalog *c = NULL;
    assert_int_equal(catalog_open(f->path, &c, NULL), GS_OK);
    struct catalog_snapshot *s = NULL;
    assert_int_equal(catalog_snapshot_load(c, &s, NULL), GS_OK);
    assert_true(checkpoint_unblocked(f->path));

    for (int i = 0; i < 3; i++) { /* the second and third times from the cache */
        struct catalog_gpu g = lab_gpu("lab-gpu");
        g.price_per_hour = (struct catalog_real){true, 2.0 + i};
        g.price_source = S("lab quote");
        struct catalog_put_result put;
        assert_int_equal(catalog_gpu_put(c, &g, NULL, &put, NULL), GS_OK);
        assert_true(checkpoint_unblocked(f->path));
        struct catalog_snapshot *next = NULL;
        assert_int_equal(catalog_snapshot_refresh(c, s, &next, NULL), GS_OK);
        catalog_snapshot_free(s);
        s = next;
        const struct catalog_gpu *read = catalog_snapshot_gpu(s, "lab-gpu");
        assert_non_null(read);
        assert_true(read->price_per_hour.present && read->price_per_hour.value == 2.0 + i);
        assert_string_equal(read->etag, put.etag);
        assert_true(checkpoint_unblocked(f->path));
    }

    /* failures: a stale tag, a CHECK constraint, a name taken, a missing entry */
    struct catalog_precondition stale = {"\"0000000000000000\"", false};
    struct catalog_gpu g = lab_gpu("lab-gpu");
    assert_int_equal(catalog_gpu_put(c, &g, &stale, NULL, NULL), GS_ERR_PRECONDITION);
    struct catalog_gpu bad = lab_gpu("bad-gpu");
    bad.memory_bytes = 0;
    struct gs_error err;
    gs_error_init(&err);
    assert_int_equal(catalog_gpu_put(c, &bad, NULL, NULL, &err), GS_ERR_INVALID);
    assert_non_null(strstr(err.items[0].detail, "CHECK constraint failed"));
    struct catalog_gpu taken = lab_gpu("other-gpu");
    char *aliases[] = {S("lab-gpu")};
    taken.aliases = aliases;
    taken.alias_count = 1;
    assert_int_equal(catalog_gpu_put(c, &taken, NULL, NULL, NULL), GS_ERR_CONFLICT);
    assert_int_equal(catalog_gpu_delete(c, "no-such-gpu", NULL, NULL), GS_ERR_NOT_FOUND);
    assert_true(checkpoint_unblocked(f->path));

    struct catalog_price *prices = NULL;
    size_t count = 0;
    assert_int_equal(catalog_gpu_prices(c, "lab-gpu", &prices, &count, NULL), GS_OK);
    assert_int_equal(count, 3);
    catalog_prices_free(prices, count);
    long long version = 0;
    assert_int_equal(catalog_data_version(c, &version, NULL), GS_OK);
    size_t models = 0, gpus = 0;
    assert_int_equal(catalog_ping(c, &models, &gpus, NULL), GS_OK);
    assert_true(checkpoint_unblocked(f->path));

    /* another connection's write moves our data_version through the cached PRAGMA */
    sqlite3 *other = open_file(f->path);
    exec_ok(other, "UPDATE gpus SET revision = revision + 1 WHERE id = 'lab-gpu'");
    assert_int_equal(sqlite3_close(other), SQLITE_OK);
    long long after = 0;
    assert_int_equal(catalog_data_version(c, &after, NULL), GS_OK);
    assert_true(after != version);

    assert_int_equal(catalog_gpu_delete(c, "lab-gpu", NULL, NULL), GS_OK);
    catalog_snapshot_free(s);
    catalog_close(c); /* the sanitizer build reports a connection left open by a statement */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_statements_are_found_by_text),
        cmocka_unit_test(test_lent_statements_are_reset_without_bindings),
        cmocka_unit_test_setup_teardown(test_released_statements_hold_no_read, test_db_setup,
                                        test_db_teardown),
        cmocka_unit_test(test_a_lent_key_gets_its_own_statement),
        cmocka_unit_test(test_errors_are_sqlites),
        cmocka_unit_test_setup_teardown(test_schema_changes_prepare_again, test_db_setup,
                                        test_db_teardown),
        cmocka_unit_test(test_the_cache_is_bounded),
        cmocka_unit_test_setup_teardown(test_catalog_leaves_no_read_open, test_db_setup,
                                        test_db_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
