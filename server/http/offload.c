/* offload.c - worker threads for requests that may wait (see offload.h). */
#include "http/offload.h"

#include <pthread.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

struct job {
    void (*fn)(void *arg);
    void *arg;
    struct job *next;
};

struct offload {
    pthread_mutex_t lock;
    pthread_cond_t ready;
    struct job *head, *tail;
    bool stopping;
    unsigned waiting, queue_max; /* queue_max 0: no limit */
    int nice;
    unsigned count;
    pthread_t threads[];
};

static void *worker(void *arg)
{
    struct offload *pool = arg;
#ifdef __linux__
    /* Linux schedules threads by their own niceness (setpriority(2) with a thread id) */
    if (pool->nice != 0)
        (void)setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), pool->nice);
#endif
    pthread_mutex_lock(&pool->lock);
    for (;;) {
        while (pool->head == NULL && !pool->stopping)
            pthread_cond_wait(&pool->ready, &pool->lock);
        struct job *job = pool->head;
        if (job == NULL)
            break; /* stopping and drained */
        pool->head = job->next;
        if (pool->head == NULL)
            pool->tail = NULL;
        pool->waiting--;
        pthread_mutex_unlock(&pool->lock);
        job->fn(job->arg);
        free(job);
        pthread_mutex_lock(&pool->lock);
    }
    pthread_mutex_unlock(&pool->lock);
    return NULL;
}

struct offload *offload_start(unsigned threads)
{
    return offload_start_limited(threads, 0, 0);
}

struct offload *offload_start_limited(unsigned threads, unsigned queue_max, int nice)
{
    if (threads == 0)
        threads = 1;
    struct offload *pool = calloc(1, sizeof(*pool) + threads * sizeof(pthread_t));
    if (pool == NULL)
        return NULL;
    pool->queue_max = queue_max;
    pool->nice = nice;
    pthread_mutex_init(&pool->lock, NULL);
    pthread_cond_init(&pool->ready, NULL);
    for (; pool->count < threads; pool->count++)
        if (pthread_create(&pool->threads[pool->count], NULL, worker, pool) != 0)
            break;
    if (pool->count == 0) {
        offload_stop(pool);
        return NULL;
    }
    return pool;
}

enum offload_result offload_try_submit(struct offload *pool, void (*fn)(void *arg), void *arg)
{
    struct job *job = malloc(sizeof(*job));
    if (job == NULL)
        return OFFLOAD_STOPPING;
    job->fn = fn;
    job->arg = arg;
    job->next = NULL;
    pthread_mutex_lock(&pool->lock);
    enum offload_result result = OFFLOAD_QUEUED;
    if (pool->stopping)
        result = OFFLOAD_STOPPING;
    else if (pool->queue_max != 0 && pool->waiting >= pool->queue_max)
        result = OFFLOAD_FULL;
    if (result == OFFLOAD_QUEUED) {
        if (pool->tail != NULL)
            pool->tail->next = job;
        else
            pool->head = job;
        pool->tail = job;
        pool->waiting++;
        pthread_cond_signal(&pool->ready);
    }
    pthread_mutex_unlock(&pool->lock);
    if (result != OFFLOAD_QUEUED)
        free(job);
    return result;
}

bool offload_submit(struct offload *pool, void (*fn)(void *arg), void *arg)
{
    return offload_try_submit(pool, fn, arg) == OFFLOAD_QUEUED;
}

unsigned offload_waiting(struct offload *pool)
{
    pthread_mutex_lock(&pool->lock);
    const unsigned n = pool->waiting;
    pthread_mutex_unlock(&pool->lock);
    return n;
}

void offload_stop(struct offload *pool)
{
    if (pool == NULL)
        return;
    pthread_mutex_lock(&pool->lock);
    pool->stopping = true;
    pthread_cond_broadcast(&pool->ready);
    pthread_mutex_unlock(&pool->lock);
    for (unsigned i = 0; i < pool->count; i++)
        pthread_join(pool->threads[i], NULL);
    pthread_cond_destroy(&pool->ready);
    pthread_mutex_destroy(&pool->lock);
    free(pool);
}
