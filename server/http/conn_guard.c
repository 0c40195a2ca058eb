/* conn_guard.c - absolute deadlines and a body-memory cap (conn_guard.h). */
#include "http/conn_guard.h"

#include <errno.h>
#include <malloc.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

enum phase { PHASE_HEADERS, PHASE_BODY, PHASE_ANSWER };

struct tracked {
    MHD_socket fd;
    enum phase phase;
    int64_t since_ms; /* when the current phase started */
    bool shut;
    struct conn_guard *owner;
    struct tracked *prev, *next;
};

struct conn_guard {
    struct conn_guard_config config;
    pthread_mutex_t lock;
    pthread_cond_t wake;
    pthread_t thread;
    bool stopping;
    struct tracked *head;
    uint64_t buffered; /* under lock */
    uint64_t expired;  /* under lock */
    unsigned closed_since_trim; /* under lock */
    uint64_t open;               /* under lock */
};

static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int64_t deadline_ms(const struct conn_guard *g, enum phase p)
{
    if (p == PHASE_HEADERS)
        return (int64_t)g->config.header_timeout_s * 1000;
    if (p == PHASE_BODY)
        return (int64_t)g->config.body_timeout_s * 1000;
    return 0;
}

static void *watch(void *arg)
{
    struct conn_guard *g = arg;
    pthread_mutex_lock(&g->lock);
    while (!g->stopping) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += 200 * 1000000L;
        if (until.tv_nsec >= 1000000000L) {
            until.tv_sec++;
            until.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&g->wake, &g->lock, &until);
        const int64_t now = now_ms();
        /* after a burst of connections, hand their freed buffers (libmicrohttpd's 32 KiB pool
         * per connection, request bodies) back to the system: glibc keeps freed heap
         * otherwise, and resident memory would stay at the burst's peak */
        if (g->closed_since_trim >= 32) {
            g->closed_since_trim = 0;
            pthread_mutex_unlock(&g->lock);
            malloc_trim(0);
            pthread_mutex_lock(&g->lock);
        }
        for (struct tracked *t = g->head; t != NULL; t = t->next) {
            const int64_t limit = deadline_ms(g, t->phase);
            /* the record is removed (under this lock) before libmicrohttpd closes the
             * socket, so the descriptor is still this connection's */
            if (!t->shut && limit > 0 && now - t->since_ms > limit) {
                shutdown(t->fd, SHUT_RDWR);
                t->shut = true;
                g->expired++;
            }
        }
    }
    pthread_mutex_unlock(&g->lock);
    return NULL;
}

struct conn_guard *conn_guard_start(const struct conn_guard_config *config)
{
    struct conn_guard *g = calloc(1, sizeof(*g));
    if (g == NULL)
        return NULL;
    g->config = *config;
    pthread_mutex_init(&g->lock, NULL);
    pthread_cond_init(&g->wake, NULL);
    if (pthread_create(&g->thread, NULL, watch, g) != 0) {
        pthread_cond_destroy(&g->wake);
        pthread_mutex_destroy(&g->lock);
        free(g);
        return NULL;
    }
    return g;
}

void conn_guard_stop(struct conn_guard *g)
{
    if (g == NULL)
        return;
    pthread_mutex_lock(&g->lock);
    g->stopping = true;
    pthread_cond_signal(&g->wake);
    pthread_mutex_unlock(&g->lock);
    pthread_join(g->thread, NULL);
    while (g->head != NULL) { /* connections the daemon never reported closed */
        struct tracked *t = g->head;
        g->head = t->next;
        free(t);
    }
    pthread_cond_destroy(&g->wake);
    pthread_mutex_destroy(&g->lock);
    free(g);
}

void conn_guard_notify(void *cls, struct MHD_Connection *connection, void **socket_context,
                       enum MHD_ConnectionNotificationCode code)
{
    struct conn_guard *g = cls;
    if (g == NULL)
        return;
    if (code == MHD_CONNECTION_NOTIFY_STARTED) {
        struct tracked *t = calloc(1, sizeof(*t));
        const union MHD_ConnectionInfo *info =
            MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
        if (t == NULL || info == NULL) {
            free(t);
            *socket_context = NULL;
            return;
        }
        t->fd = info->connect_fd;
        t->phase = PHASE_HEADERS;
        t->since_ms = now_ms();
        t->owner = g;
        pthread_mutex_lock(&g->lock);
        g->open++;
        t->next = g->head;
        if (g->head != NULL)
            g->head->prev = t;
        g->head = t;
        pthread_mutex_unlock(&g->lock);
        *socket_context = t;
        return;
    }
    struct tracked *t = *socket_context;
    if (t == NULL)
        return;
    pthread_mutex_lock(&g->lock);
    if (t->prev != NULL)
        t->prev->next = t->next;
    else
        g->head = t->next;
    if (t->next != NULL)
        t->next->prev = t->prev;
    g->closed_since_trim++;
    g->open--;
    pthread_mutex_unlock(&g->lock);
    free(t);
    *socket_context = NULL;
}

static void enter(struct MHD_Connection *connection, enum phase p)
{
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    struct tracked *t = info != NULL ? info->socket_context : NULL;
    if (t == NULL)
        return;
    struct conn_guard *g = t->owner;
    pthread_mutex_lock(&g->lock);
    t->phase = p;
    t->since_ms = now_ms();
    pthread_mutex_unlock(&g->lock);
}

void conn_guard_headers_done(struct MHD_Connection *connection)
{
    enter(connection, PHASE_BODY);
}

void conn_guard_body_done(struct MHD_Connection *connection)
{
    enter(connection, PHASE_ANSWER);
}

void conn_guard_request_done(struct MHD_Connection *connection)
{
    enter(connection, PHASE_HEADERS);
}

bool conn_guard_reserve(struct conn_guard *g, size_t bytes)
{
    if (g == NULL || g->config.max_buffered_bytes == 0)
        return true;
    pthread_mutex_lock(&g->lock);
    const bool ok = g->buffered + bytes <= g->config.max_buffered_bytes;
    if (ok)
        g->buffered += bytes;
    pthread_mutex_unlock(&g->lock);
    return ok;
}

void conn_guard_release(struct conn_guard *g, size_t bytes)
{
    if (g == NULL || g->config.max_buffered_bytes == 0)
        return;
    pthread_mutex_lock(&g->lock);
    g->buffered = bytes <= g->buffered ? g->buffered - bytes : 0;
    pthread_mutex_unlock(&g->lock);
}

uint64_t conn_guard_expired(const struct conn_guard *g)
{
    if (g == NULL)
        return 0;
    pthread_mutex_lock((pthread_mutex_t *)(uintptr_t)&g->lock);
    const uint64_t n = g->expired;
    pthread_mutex_unlock((pthread_mutex_t *)(uintptr_t)&g->lock);
    return n;
}

uint64_t conn_guard_open(const struct conn_guard *g)
{
    if (g == NULL)
        return 0;
    pthread_mutex_lock((pthread_mutex_t *)(uintptr_t)&g->lock);
    const uint64_t n = g->open;
    pthread_mutex_unlock((pthread_mutex_t *)(uintptr_t)&g->lock);
    return n;
}
