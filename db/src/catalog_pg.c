/*
 * catalog_pg.c - the connection to a PostgreSQL catalog (see catalog_pg.h and
 * catalog_pg_int.h): connecting and reconnecting with backoff, statements bounded in time,
 * errors said without the URL, transactions and the writers' lock, the probes, and the
 * LISTEN connection that waits for other replicas' changes.
 */
#include "catalog_pg.h"

#include "catalog_pg_int.h"

#include <errno.h>
#include <libpq-fe.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

/* Reconnect attempts: 250 ms after a failure, doubling to 5 s. */
#define BACKOFF_FIRST_MS 250
#define BACKOFF_MAX_MS 5000

static long long mono_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

bool catalog_pg_is_url(const char *location)
{
    return location != NULL &&
           (strncmp(location, "postgres://", 11) == 0 || strncmp(location, "postgresql://", 13) == 0);
}

/* ------------------------------------------------------------- statements */

/* How long a statement may go without a byte of its answer at run time. lock_timeout (5 s) and
 * statement_timeout bound what the server does; a server that does nothing (stopped,
 * frozen, its host gone without a reset) answers nothing and its kernel still
 * acknowledges every byte, so only the client can bound the wait: past this the
 * connection is shut, the request answers 503 and the next one reconnects. Below
 * lock_timeout, so a wait for another replica's writer reads the same as a frozen
 * server: busy, retry shortly. */
#define STATEMENT_WAIT_MS 4000

static __thread bool statement_timed_out; /* the last bounded statement got no answer */

/* The first line of libpq's message, without the URL (it never contains it). */
enum gs_status catalog_pg_error(struct gs_error *err, enum gs_status st, const char *what,
                                const PGconn *conn, const PGresult *res)
{
    const char *msg = res != NULL ? PQresultErrorMessage(res) : PQerrorMessage(conn);
    if (res == NULL && statement_timed_out)
        msg = "no answer within 4 s (the server stopped or unreachable)";
    const size_t n = strcspn(msg != NULL ? msg : "", "\n");
    return gs_error_add(err, st, "", "PostgreSQL catalog: %s: %.*s", what, (int)n,
                        msg != NULL ? msg : "");
}

static long long now_ms_mono(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

PGresult *catalog_pg_exec_bounded(PGconn *conn, const char *sql, int n, const Oid *types,
                                  const char *const *values)
{
    statement_timed_out = false;
    const int sent = n > 0 ? PQsendQueryParams(conn, sql, n, types, values, NULL, NULL, 0)
                           : PQsendQuery(conn, sql);
    if (!sent)
        return NULL;
    long long deadline = now_ms_mono() + STATEMENT_WAIT_MS;
    PGresult *last = NULL;
    bool failed = false;
    for (;;) {
        int flushed = PQflush(conn);
        while (!PQisBusy(conn) && flushed == 0) {
            PGresult *r = PQgetResult(conn);
            if (r == NULL)
                return last; /* every result read: the statement is done */
            /* as PQexec: the first error is the answer, the results after it dropped */
            if (failed) {
                PQclear(r);
                continue;
            }
            PQclear(last);
            last = r;
            const ExecStatusType st = PQresultStatus(r);
            failed = st == PGRES_FATAL_ERROR || st == PGRES_BAD_RESPONSE;
        }
        if (flushed < 0)
            break;
        const long long left = deadline - now_ms_mono();
        if (left <= 0) {
            statement_timed_out = true;
            break;
        }
        struct pollfd pfd = {PQsocket(conn), (short)(POLLIN | (flushed ? POLLOUT : 0)), 0};
        const int ready = poll(&pfd, 1, (int)left);
        if (ready < 0 && errno != EINTR)
            break;
        if (ready > 0 && !PQconsumeInput(conn))
            break;
        if (ready > 0) /* bytes came: the server is alive, however long its answer takes */
            deadline = now_ms_mono() + STATEMENT_WAIT_MS;
    }
    /* no answer in time, or the connection failed: shut the socket so libpq sees it closed
     * (status CONNECTION_BAD, and the next use reconnects), then drain what it reports */
    PQclear(last);
    if (statement_timed_out && PQsocket(conn) >= 0)
        shutdown(PQsocket(conn), SHUT_RDWR);
    PQconsumeInput(conn);
    for (PGresult *r = PQgetResult(conn); r != NULL; r = PQgetResult(conn))
        PQclear(r);
    return NULL;
}

/* Runs `sql`; true when it succeeded. */
bool catalog_pg_exec_ok(PGconn *conn, const char *sql, const char *what, struct gs_error *err)
{
    PGresult *res = PQexec(conn, sql);
    const ExecStatusType s = PQresultStatus(res);
    const bool ok = s == PGRES_COMMAND_OK || s == PGRES_TUPLES_OK;
    if (!ok)
        catalog_pg_error(err, GS_ERR_DB, what, conn, res);
    PQclear(res);
    return ok;
}

/* The rows of `sql` (with `id` as $1 when not NULL), or NULL with the error recorded;
 * `one_row`: exactly one row is expected. */
PGresult *catalog_pg_rows(PGconn *conn, const char *sql, const char *id, bool one_row,
                          const char *what, struct gs_error *err)
{
    const char *values[1] = {id};
    PGresult *res = catalog_pg_exec_bounded(conn, sql, id != NULL ? 1 : 0, NULL, values);
    if (PQresultStatus(res) == PGRES_TUPLES_OK && (!one_row || PQntuples(res) == 1))
        return res;
    catalog_pg_error(err, GS_ERR_DB, what, conn, res);
    PQclear(res);
    return NULL;
}

enum gs_status catalog_pg_read_version(PGconn *conn, int *out, struct gs_error *err)
{
    PGresult *res = catalog_pg_rows(conn, "SELECT coalesce(max(version), 0) FROM gpusizer_schema",
                                    NULL, true, "reading the schema version", err);
    if (res == NULL)
        return GS_ERR_DB;
    *out = atoi(PQgetvalue(res, 0, 0));
    PQclear(res);
    return GS_OK;
}

/* ---------------------------------------------------------------- changes */

enum gs_status catalog_pg_data_version(struct catalog_pg *pg, long long *out, struct gs_error *err)
{
    PGconn *conn = catalog_pg_conn(pg, err);
    if (conn == NULL)
        return GS_ERR_BUSY;
    PGresult *res = catalog_pg_rows(conn, "SELECT version FROM gpusizer_changes", NULL, true,
                                    "reading the change counter", err);
    if (res == NULL)
        return PQstatus(conn) == CONNECTION_OK ? GS_ERR_DB : GS_ERR_BUSY;
    *out = strtoll(PQgetvalue(res, 0, 0), NULL, 10);
    PQclear(res);
    return GS_OK;
}

enum gs_status catalog_pg_listen(struct catalog_pg *pg, struct gs_error *err)
{
    pg->listening = true;
    return catalog_pg_exec_ok(pg->conn, "LISTEN gpusizer_catalog", "listening for changes", err)
               ? GS_OK
               : GS_ERR_BUSY;
}

static void sleep_ms(long long ms)
{
    if (ms <= 0)
        return;
    struct timespec ts = {(time_t)(ms / 1000), (long)(ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
}

enum gs_status catalog_pg_wait(struct catalog_pg *pg, int timeout_ms, bool *changed,
                               struct gs_error *err)
{
    *changed = false;
    const long long deadline = mono_ms() + timeout_ms;
    if (PQstatus(pg->conn) != CONNECTION_OK || pg->broken) {
        /* a lost listener reconnects (with backoff) and reports a change: notifications sent
         * while it was away are gone, so the caller checks the version */
        if (catalog_pg_conn(pg, err) == NULL) {
            const long long left = deadline - mono_ms();
            sleep_ms(left < pg->retry_at - mono_ms() ? left : pg->retry_at - mono_ms());
            return GS_ERR_BUSY;
        }
    }
    if (pg->missed) {
        pg->missed = false;
        *changed = true;
        return GS_OK;
    }
    const int fd = PQsocket(pg->conn);
    if (fd < 0)
        return catalog_pg_error(err, GS_ERR_BUSY, "waiting for changes", pg->conn, NULL);
    for (;;) {
        /* input that is not a notification (a server's goodbye before it closes) keeps us
         * waiting: the close itself is what reports the loss */
        if (PQconsumeInput(pg->conn) == 0 || PQstatus(pg->conn) != CONNECTION_OK) {
            /* the next call reconnects (a half-read socket is no use) */
            pg->broken = true;
            return catalog_pg_error(err, GS_ERR_BUSY, "waiting for changes", pg->conn, NULL);
        }
        PGnotify *n;
        while ((n = PQnotifies(pg->conn)) != NULL) {
            *changed = true;
            PQfreemem(n);
        }
        if (*changed)
            return GS_OK;
        const long long left = deadline - mono_ms();
        if (left <= 0)
            return GS_OK;
        struct pollfd p = {fd, POLLIN, 0};
        if (poll(&p, 1, (int)left) < 0 && errno != EINTR)
            return gs_error_add(err, GS_ERR_BUSY, "", "PostgreSQL catalog: waiting for changes: %s",
                                strerror(errno));
    }
}

/* ------------------------------------------------------------- connecting */

/* Settings every session gets, on connect and after each reconnect: lock waits (a writer
 * behind another replica's write, catalog_pg_begin) end as GS_ERR_BUSY after 5 s, as
 * SQLite's busy timeout does; no statement or abandoned transaction holds the catalog for
 * long. */
bool catalog_pg_session_setup(PGconn *conn, struct gs_error *err)
{
    return catalog_pg_exec_ok(
        conn,
        "SET client_min_messages = warning; SET lock_timeout = '5s';"
        " SET statement_timeout = '30s'; SET idle_in_transaction_session_timeout = '30s'",
        "configuring the session", err);
}

/* A new connection with the handle's settings; the URL's own parameters come after the
 * defaults (so they win), a password from a file before them (so one in the URL wins).
 * Keepalives and tcp_user_timeout notice a database host that vanished without closing
 * the connection within about 15 s. */
static PGconn *connect_params(const char *url, const char *password)
{
    const char *keys[12], *values[12];
    int n = 0;
    keys[n] = "connect_timeout", values[n++] = "5";
    keys[n] = "application_name", values[n++] = "gpusizer";
    keys[n] = "keepalives", values[n++] = "1";
    keys[n] = "keepalives_idle", values[n++] = "10";
    keys[n] = "keepalives_interval", values[n++] = "5";
    keys[n] = "keepalives_count", values[n++] = "2";
    keys[n] = "tcp_user_timeout", values[n++] = "15000";
    if (password != NULL)
        keys[n] = "password", values[n++] = password;
    keys[n] = "dbname", values[n++] = url;
    keys[n] = NULL, values[n] = NULL;
    return PQconnectdbParams(keys, values, 1);
}

struct catalog_pg *catalog_pg_new(const char *url, const char *password)
{
    struct catalog_pg *pg = calloc(1, sizeof(*pg));
    if (pg == NULL)
        return NULL;
    pg->url = strdup(url);
    pg->password = password != NULL ? strdup(password) : NULL;
    if (pg->url == NULL || (password != NULL && pg->password == NULL)) {
        catalog_pg_close(pg);
        return NULL;
    }
    return pg;
}

/* Connects `pg`; GS_ERR_BUSY when the database cannot be reached. */
enum gs_status catalog_pg_connect(struct catalog_pg *pg, struct gs_error *err)
{
    pg->conn = connect_params(pg->url, pg->password);
    if (pg->conn == NULL)
        return gs_error_add(err, GS_ERR_NOMEM, "", "out of memory");
    if (PQstatus(pg->conn) != CONNECTION_OK)
        return catalog_pg_error(err, GS_ERR_BUSY, "connecting", pg->conn, NULL);
    return GS_OK;
}

enum gs_status catalog_pg_open_listener(const struct catalog_pg *like, struct catalog_pg **out,
                                        struct gs_error *err)
{
    *out = NULL;
    struct catalog_pg *pg = catalog_pg_new(like->url, like->password);
    if (pg == NULL)
        return gs_error_add(err, GS_ERR_NOMEM, "", "out of memory");
    /* a listener that cannot connect yet keeps trying (catalog_pg_wait) */
    if (catalog_pg_connect(pg, NULL) == GS_OK && catalog_pg_session_setup(pg->conn, NULL) &&
        catalog_pg_listen(pg, NULL) == GS_OK) {
        *out = pg;
        return GS_OK;
    }
    pg->listening = true;
    pg->missed = true;
    pg->backoff_ms = BACKOFF_FIRST_MS;
    pg->retry_at = mono_ms() + pg->backoff_ms;
    if (pg->conn == NULL) {
        catalog_pg_close(pg);
        return gs_error_add(err, GS_ERR_NOMEM, "", "out of memory");
    }
    *out = pg;
    return GS_OK;
}

PGconn *catalog_pg_current(struct catalog_pg *pg)
{
    return pg->conn;
}

PGconn *catalog_pg_conn(struct catalog_pg *pg, struct gs_error *err)
{
    if (PQstatus(pg->conn) == CONNECTION_OK && !pg->broken)
        return pg->conn;
    const long long now = mono_ms();
    if (pg->backoff_ms > 0 && now < pg->retry_at) {
        gs_error_add(err, GS_ERR_BUSY, "",
                     "PostgreSQL catalog: unreachable; the next connection attempt is in %lld ms",
                     pg->retry_at - now);
        return NULL;
    }
    PQreset(pg->conn);
    struct gs_error setup;
    gs_error_init(&setup);
    if (PQstatus(pg->conn) != CONNECTION_OK || !catalog_pg_session_setup(pg->conn, &setup) ||
        (pg->listening && catalog_pg_listen(pg, &setup) != GS_OK)) {
        pg->backoff_ms = pg->backoff_ms == 0 ? BACKOFF_FIRST_MS
                         : pg->backoff_ms * 2 > BACKOFF_MAX_MS ? BACKOFF_MAX_MS
                                                               : pg->backoff_ms * 2;
        pg->retry_at = mono_ms() + pg->backoff_ms;
        /* said the way every other failure to reach the database is (catalog_pg_fail), so
         * a 503 reads the same whichever attempt the request met */
        const char *why = PQstatus(pg->conn) != CONNECTION_OK ? PQerrorMessage(pg->conn)
                          : setup.count > 0                   ? setup.items[0].detail
                                                              : "";
        gs_error_add(err, GS_ERR_BUSY, "",
                     "PostgreSQL catalog: unreachable (%.*s); the next connection attempt is in "
                     "%lld ms",
                     (int)strcspn(why != NULL ? why : "", "\n"), why != NULL ? why : "",
                     (long long)pg->backoff_ms);
        return NULL;
    }
    pg->backoff_ms = 0;
    pg->broken = false;
    pg->missed = pg->listening;
    return pg->conn;
}

/* ------------------------------------------------- errors and transactions */

/* SQLSTATEs (PostgreSQL's errcodes.txt): class 23 integrity constraint violations,
 * 23505 unique_violation; 40001 serialization_failure, 40P01 deadlock_detected, 55P03
 * lock_not_available (lock_timeout), 57014 query_canceled (statement_timeout), class 08
 * and 57P0x: the connection or the server went away. */
enum gs_status catalog_pg_fail(PGconn *conn, const PGresult *res, struct gs_error *err,
                               const char *pointer, const char *what)
{
    const char *state = res != NULL ? PQresultErrorField(res, PG_DIAG_SQLSTATE) : NULL;
    const char *msg = res != NULL ? PQresultErrorMessage(res) : PQerrorMessage(conn);
    msg = msg != NULL ? msg : "";
    /* "ERROR:  " leads the message; the primary text alone reads like SQLite's */
    const char *primary = res != NULL ? PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY) : NULL;
    const char *text = primary != NULL ? primary : msg;
    const int n = (int)strcspn(text, "\n");
    if (res == NULL && statement_timed_out)
        return gs_error_add(err, GS_ERR_BUSY, "",
                            "%s: the PostgreSQL catalog did not answer within %d s (the server "
                            "stopped, or another replica holding the catalog); retry shortly",
                            what, STATEMENT_WAIT_MS / 1000);
    if (PQstatus(conn) != CONNECTION_OK || state == NULL || strncmp(state, "08", 2) == 0 ||
        strncmp(state, "57P0", 4) == 0)
        return gs_error_add(err, GS_ERR_BUSY, "",
                            "%s: the PostgreSQL catalog is unreachable (%.*s); retry shortly",
                            what, n, text);
    if (strcmp(state, "40001") == 0 || strcmp(state, "40P01") == 0 ||
        strcmp(state, "55P03") == 0 || strcmp(state, "57014") == 0)
        return gs_error_add(err, GS_ERR_BUSY, "", "%s: the catalog is locked by another writer",
                            what);
    if (strcmp(state, "23505") == 0)
        return gs_error_add(err, GS_ERR_CONFLICT, pointer, "%s: already in use", what);
    /* class 53 insufficient resources: 53100 disk_full, 53200 out_of_memory */
    if (strcmp(state, "53100") == 0)
        return gs_error_add(err, GS_ERR_FULL, "",
                            "%s: the PostgreSQL server's disk is full (%.*s); nothing was written",
                            what, n, text);
    if (strncmp(state, "23", 2) == 0) {
        const char *constraint = PQresultErrorField(res, PG_DIAG_CONSTRAINT_NAME);
        return gs_error_add(err, GS_ERR_INVALID, pointer, "%s: %s%s%.*s", what,
                            constraint != NULL ? "constraint failed: " : "",
                            constraint != NULL ? constraint : "", constraint != NULL ? 0 : n,
                            text);
    }
    return gs_error_add(err, GS_ERR_DB, "", "%s: %.*s", what, n, text);
}

/* A session's first statement of a unit of work (a transaction, the writers' lock): when
 * it finds the connection gone (the server restarted, a pooler dropped it) nothing has
 * happened yet, so it reconnects and runs once more instead of failing the request.
 * Not after a statement timeout: a frozen server would make it wait twice. *conn NULL:
 * no connection could be made (err says why). */
static PGresult *first_statement(struct catalog_pg *pg, const char *sql, PGconn **conn,
                                 struct gs_error *err)
{
    *conn = catalog_pg_conn(pg, err);
    if (*conn == NULL)
        return NULL;
    PGresult *res = catalog_pg_exec_bounded(*conn, sql, 0, NULL, NULL);
    const ExecStatusType s = PQresultStatus(res);
    if (s == PGRES_COMMAND_OK || s == PGRES_TUPLES_OK || statement_timed_out ||
        PQstatus(*conn) == CONNECTION_OK)
        return res;
    PQclear(res);
    struct gs_error again;
    gs_error_init(&again);
    *conn = catalog_pg_conn(pg, &again);
    if (*conn == NULL) {
        if (again.count > 0)
            gs_error_add(err, GS_ERR_BUSY, "", "%s", again.items[0].detail);
        return NULL;
    }
    return catalog_pg_exec_bounded(*conn, sql, 0, NULL, NULL);
}

enum gs_status catalog_pg_begin(struct catalog_pg *pg, bool write, struct gs_error *err)
{
    char sql[160];
    if (write)
        /* one writer at a time over every replica: the lock the migrations hold, for this
         * transaction only (released by COMMIT or ROLLBACK) */
        snprintf(sql, sizeof(sql), "BEGIN ISOLATION LEVEL READ COMMITTED; "
                                   "SELECT pg_advisory_xact_lock(%lld)",
                 (long long)CATALOG_PG_LOCK_KEY);
    else
        snprintf(sql, sizeof(sql), "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
    PGconn *conn = NULL;
    PGresult *res = first_statement(pg, sql, &conn, err);
    if (conn == NULL) /* unreachable: catalog_pg_conn said so in err */
        return GS_ERR_BUSY;
    const ExecStatusType s = PQresultStatus(res);
    enum gs_status st = GS_OK;
    if (s != PGRES_COMMAND_OK && s != PGRES_TUPLES_OK) {
        st = catalog_pg_fail(conn, res, err, "", "starting a transaction");
        PQclear(res);
        res = PQstatus(conn) == CONNECTION_OK ? catalog_pg_exec_bounded(conn, "ROLLBACK", 0, NULL,
                                                                        NULL)
                                              : NULL;
    }
    PQclear(res);
    return st;
}

enum gs_status catalog_pg_writers_lock(struct catalog_pg *pg, struct gs_error *err)
{
    char sql[64];
    snprintf(sql, sizeof(sql), "SELECT pg_advisory_lock(%lld)", (long long)CATALOG_PG_LOCK_KEY);
    PGconn *conn = NULL;
    PGresult *res = first_statement(pg, sql, &conn, err);
    if (conn == NULL) /* unreachable: catalog_pg_conn said so in err */
        return GS_ERR_BUSY;
    enum gs_status st = GS_OK;
    if (PQresultStatus(res) != PGRES_TUPLES_OK)
        st = catalog_pg_fail(conn, res, err, "", "waiting for other replicas' writes");
    PQclear(res);
    return st;
}

void catalog_pg_writers_unlock(struct catalog_pg *pg)
{
    if (pg->conn == NULL || PQstatus(pg->conn) != CONNECTION_OK)
        return;
    char sql[64];
    snprintf(sql, sizeof(sql), "SELECT pg_advisory_unlock(%lld)", (long long)CATALOG_PG_LOCK_KEY);
    PQclear(catalog_pg_exec_bounded(pg->conn, sql, 0, NULL, NULL));
}

enum gs_status catalog_pg_end(struct catalog_pg *pg, enum gs_status st, struct gs_error *err)
{
    PGconn *conn = pg->conn;
    if (st == GS_OK) {
        PGresult *res = catalog_pg_exec_bounded(conn, "COMMIT", 0, NULL, NULL);
        /* a COMMIT of a failed transaction answers ROLLBACK, not an error */
        if (PQresultStatus(res) != PGRES_COMMAND_OK)
            st = catalog_pg_fail(conn, res, err, "", "committing");
        else if (strcmp(PQcmdStatus(res), "COMMIT") != 0)
            st = gs_error_add(err, GS_ERR_DB, "", "committing: the transaction had failed");
        PQclear(res);
    }
    if (st != GS_OK && PQstatus(conn) == CONNECTION_OK &&
        PQtransactionStatus(conn) != PQTRANS_IDLE)
        PQclear(catalog_pg_exec_bounded(conn, "ROLLBACK", 0, NULL, NULL));
    return st;
}

enum gs_status catalog_pg_ping(struct catalog_pg *pg, size_t *models, size_t *gpus,
                               struct gs_error *err)
{
    PGconn *conn = catalog_pg_conn(pg, err);
    if (conn == NULL)
        return GS_ERR_BUSY;
    PGresult *res =
        catalog_pg_rows(conn, "SELECT (SELECT count(*) FROM models), (SELECT count(*) FROM gpus)",
                        NULL, true, "counting catalog rows", err);
    if (res == NULL)
        return PQstatus(conn) == CONNECTION_OK ? GS_ERR_DB : GS_ERR_BUSY;
    *models = (size_t)strtoull(PQgetvalue(res, 0, 0), NULL, 10);
    *gpus = (size_t)strtoull(PQgetvalue(res, 0, 1), NULL, 10);
    PQclear(res);
    return GS_OK;
}

enum gs_status catalog_pg_schema_version(struct catalog_pg *pg, int *out, struct gs_error *err)
{
    PGconn *conn = catalog_pg_conn(pg, err);
    return conn != NULL ? catalog_pg_read_version(conn, out, err) : GS_ERR_BUSY;
}

void catalog_pg_close(struct catalog_pg *pg)
{
    if (pg == NULL)
        return;
    if (pg->conn != NULL)
        PQfinish(pg->conn);
    if (pg->password != NULL)
        explicit_bzero(pg->password, strlen(pg->password));
    free(pg->password);
    free(pg->url);
    free(pg);
}
