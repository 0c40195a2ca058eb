/*
 * test_server.h - a real `gpusizer serve` for the integration tests: on
 * 127.0.0.1, a free port, a given catalog file, optionally with the API key
 * that allows catalog writes; stopped with SIGTERM, which must exit cleanly.
 *
 * GPUSIZER_TEST_SERVER_WRAPPER, when set, is a command put in front of the
 * server's argv, words separated by spaces (no quoting), looked up on PATH:
 * scripts/valgrind-test.sh sets it to `valgrind --tool=memcheck ...
 * --error-exitcode=99`, so a memory error or a definite leak makes the
 * server's exit status non-zero and test_server_stop fails the test.
 */
#ifndef GS_TEST_SERVER_H
#define GS_TEST_SERVER_H

#include <stdbool.h>
#include <sys/types.h>

struct test_server {
    pid_t pid;
    int port;
};

/* Starts `binary serve` on `db_path` (a file, or a postgres:// URL given as --database-url)
 * and waits (at most 10 s times
 * test_server_time_factor()) for the line naming its port. `api_key` NULL
 * runs it without a key (any inherited GPUSIZER_API_KEY is removed either
 * way). 0 on success. */
int test_server_start(struct test_server *s, const char *binary, const char *db_path,
                      const char *api_key);

/* SIGTERM and wait (at most 30 s times test_server_time_factor(), then
 * SIGKILL); 0 when the server exited with status 0. Any other status is
 * reported on stderr. */
int test_server_stop(struct test_server *s);

/* How many servers failed to start or exited with a status other than 0 in
 * test_server_stop, so far. Each test's main adds it to its exit status:
 * cmocka 1.1 reports a failed group teardown but still exits 0. */
int test_server_failures(void);

/* Whether the servers run under GPUSIZER_TEST_SERVER_WRAPPER, and the
 * wrapper ("" when none), for tests that run other gpusizer commands
 * through a shell. */
bool test_server_wrapped(void);
const char *test_server_wrapper(void);

/* How much slower than a plain build the server is expected to be, for the
 * tests' timing bounds and waits: GPUSIZER_TEST_TIME_FACTOR when set (a
 * number >= 1), otherwise 20 under a wrapper (valgrind memcheck runs the
 * server 10-50 times slower and one thread at a time), 5 when the tests are
 * built with AddressSanitizer or ThreadSanitizer (as the server then is),
 * and 1 otherwise. */
double test_server_time_factor(void);

/* Whether the tests (and so the server they start) are built with AddressSanitizer or
 * ThreadSanitizer, by gcc or clang: timing bounds scale and RSS says little there. */
bool test_server_instrumented(void);

/* The server's resident memory (VmRSS) in KiB, -1 when unreadable. */
long test_server_rss_kib(const struct test_server *s);

#endif
