/*
 * test_server.h - a real `gpusizer serve` for the integration tests: on
 * 127.0.0.1, a free port, a given catalog file, optionally with the API key
 * that allows catalog writes; stopped with SIGTERM, which must exit cleanly.
 */
#ifndef GS_TEST_SERVER_H
#define GS_TEST_SERVER_H

#include <stdbool.h>
#include <sys/types.h>

struct test_server {
    pid_t pid;
    int port;
};

/* Starts `binary serve` on `db_path` and waits for the line naming its port.
 * `api_key` NULL runs it without a key (any inherited GPUSIZER_API_KEY is
 * removed either way). 0 on success. */
int test_server_start(struct test_server *s, const char *binary, const char *db_path,
                      const char *api_key);

/* SIGTERM and wait; 0 when the server exited with status 0. */
int test_server_stop(struct test_server *s);

#endif
