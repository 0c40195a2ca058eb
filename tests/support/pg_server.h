/*
 * pg_server.h - a private PostgreSQL server for tests: Debian's postgresql
 * binaries (/usr/lib/postgresql/N/bin), a temporary data directory, a free
 * loopback port, trust authentication for the local superuser, fsync off.
 * Run as the `postgres` system user when the tests run as root (PostgreSQL
 * refuses to run as root). scripts/deps.sh installs the package.
 */
#ifndef GS_TEST_PG_SERVER_H
#define GS_TEST_PG_SERVER_H

#include <stdint.h>

struct pg_server {
    char dir[128];   /* the data directory (and the socket's) */
    char bin[96];    /* initdb and pg_ctl's directory */
    char url[160];   /* postgresql://postgres@127.0.0.1:PORT/postgres */
    uint16_t port;
    int running;
};

/* Initializes a cluster and starts it; 0 on success, -1 with the reason
 * printed to stderr. */
int pg_server_start(struct pg_server *server);

/* Stops the server (fast shutdown) if it runs; 0 on success. */
int pg_server_stop(struct pg_server *server);

/* Starts a stopped server again on the same port and data. */
int pg_server_restart(struct pg_server *server);

/* Stops the server if it runs and removes the data directory. */
void pg_server_destroy(struct pg_server *server);

#endif
