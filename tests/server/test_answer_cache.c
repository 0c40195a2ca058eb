/*
 * test_answer_cache.c - the answer cache's contract (server/api/answer_cache.h):
 * exact keys per kind, copies out, least recently used evicted first within
 * the slot and byte bounds, large answers not kept, off when sized 0, and
 * safe from many threads (the TSan stage runs this too).
 */
#include "api/answer_cache.h"

#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

static char *get(struct answer_cache *c, enum answer_kind kind, const char *body)
{
    size_t length = 0;
    char *a = answer_cache_get(c, kind, body, strlen(body), &length);
    if (a != NULL)
        assert_int_equal(length, strlen(a));
    return a;
}

static void put(struct answer_cache *c, enum answer_kind kind, const char *body, const char *answer)
{
    answer_cache_put(c, kind, body, strlen(body), answer, strlen(answer));
}

static void test_exact_keys_per_kind(void **state)
{
    (void)state;
    struct answer_cache *c = answer_cache_create(1 << 20);
    assert_non_null(c);
    assert_null(get(c, ANSWER_RECOMMEND, "{\"a\":1}"));
    put(c, ANSWER_RECOMMEND, "{\"a\":1}", "{\"options\":[1]}");
    char *a = get(c, ANSWER_RECOMMEND, "{\"a\":1}");
    assert_non_null(a);
    assert_string_equal(a, "{\"options\":[1]}");
    a[0] = 'x'; /* a copy: the kept answer is untouched */
    free(a);
    a = get(c, ANSWER_RECOMMEND, "{\"a\":1}");
    assert_string_equal(a, "{\"options\":[1]}");
    free(a);
    /* another kind, a prefix, a longer body, other spacing: all misses */
    assert_null(get(c, ANSWER_FIT, "{\"a\":1}"));
    assert_null(get(c, ANSWER_RECOMMEND, "{\"a\":1"));
    assert_null(get(c, ANSWER_RECOMMEND, "{\"a\":1} "));
    assert_null(get(c, ANSWER_RECOMMEND, "{\"a\": 1}"));
    /* a body with a NUL inside is compared by its length, not as a C string */
    answer_cache_put(c, ANSWER_FIT, "ab\0c", 4, "one", 3);
    size_t n = 0;
    assert_null(answer_cache_get(c, ANSWER_FIT, "ab\0d", 4, &n));
    a = answer_cache_get(c, ANSWER_FIT, "ab\0c", 4, &n);
    assert_non_null(a);
    assert_int_equal(n, 3);
    free(a);
    struct answer_cache_stats st;
    answer_cache_stats(c, &st);
    assert_int_equal(st.entries, 2);
    assert_int_equal(st.hits, 3);
    assert_int_equal(st.misses, 6);
    assert_int_equal(st.bytes, strlen("{\"a\":1}") + strlen("{\"options\":[1]}") + 4 + 3);
    answer_cache_free(c);
}

/* 64 slots: the 65th answer evicts the least recently used one. */
static void test_slots_evict_least_recently_used(void **state)
{
    (void)state;
    struct answer_cache *c = answer_cache_create(1 << 20);
    char key[32], answer[32];
    for (int i = 0; i < ANSWER_CACHE_SLOTS; i++) {
        snprintf(key, sizeof(key), "k%d", i);
        snprintf(answer, sizeof(answer), "a%d", i);
        put(c, ANSWER_RECOMMEND, key, answer);
    }
    free(get(c, ANSWER_RECOMMEND, "k0")); /* k0 used again: k1 is now the oldest */
    put(c, ANSWER_RECOMMEND, "new", "fresh");
    char *a = get(c, ANSWER_RECOMMEND, "k0");
    assert_non_null(a);
    free(a);
    assert_null(get(c, ANSWER_RECOMMEND, "k1"));
    a = get(c, ANSWER_RECOMMEND, "new");
    assert_string_equal(a, "fresh");
    free(a);
    /* putting a key again keeps the one already there */
    put(c, ANSWER_RECOMMEND, "new", "other");
    a = get(c, ANSWER_RECOMMEND, "new");
    assert_string_equal(a, "fresh");
    free(a);
    struct answer_cache_stats st;
    answer_cache_stats(c, &st);
    assert_int_equal(st.entries, ANSWER_CACHE_SLOTS);
    answer_cache_free(c);
}

/* The byte bound: keys and answers together stay within it, oldest out
 * first; an answer above a quarter of the bound is not kept at all. */
static void test_byte_bound(void **state)
{
    (void)state;
    struct answer_cache *c = answer_cache_create(1000);
    char big[251];
    memset(big, 'x', sizeof(big) - 1);
    big[sizeof(big) - 1] = '\0';
    put(c, ANSWER_FIT, "huge", big); /* 4 + 250 > 1000 / 4 */
    assert_null(get(c, ANSWER_FIT, "huge"));
    char answer[200];
    memset(answer, 'y', 199);
    answer[199] = '\0';
    put(c, ANSWER_FIT, "b1", answer); /* 201 bytes each: 4 fit in 1000 */
    put(c, ANSWER_FIT, "b2", answer);
    put(c, ANSWER_FIT, "b3", answer);
    put(c, ANSWER_FIT, "b4", answer);
    struct answer_cache_stats st;
    answer_cache_stats(c, &st);
    assert_int_equal(st.entries, 4);
    assert_int_equal(st.bytes, 4 * 201);
    put(c, ANSWER_FIT, "b5", answer); /* 1005 > 1000: b1 goes */
    answer_cache_stats(c, &st);
    assert_int_equal(st.entries, 4);
    assert_true(st.bytes <= 1000);
    assert_null(get(c, ANSWER_FIT, "b1"));
    char *a = get(c, ANSWER_FIT, "b5");
    assert_non_null(a);
    free(a);
    answer_cache_free(c);
}

static void test_off(void **state)
{
    (void)state;
    struct answer_cache *c = answer_cache_create(0);
    assert_null(c);
    put(c, ANSWER_RECOMMEND, "k", "a");
    assert_null(get(c, ANSWER_RECOMMEND, "k"));
    struct answer_cache_stats st;
    answer_cache_stats(c, &st);
    assert_int_equal(st.entries, 0);
    answer_cache_free(c);
}

struct worker {
    struct answer_cache *cache;
    int index;
    int wrong;
};

/* Each thread puts and gets keys shared with the others; an answer read
 * back must be the one its key was put with. */
static void *work(void *arg)
{
    struct worker *w = arg;
    char key[32], answer[64];
    for (int i = 0; i < 20000; i++) {
        const int k = (i * 7 + w->index * 13) % 97;
        snprintf(key, sizeof(key), "{\"k\":%d}", k);
        snprintf(answer, sizeof(answer), "{\"answer\":%d}", k * 3);
        size_t n = 0;
        char *a = answer_cache_get(w->cache, ANSWER_RECOMMEND, key, strlen(key), &n);
        if (a == NULL)
            answer_cache_put(w->cache, ANSWER_RECOMMEND, key, strlen(key), answer, strlen(answer));
        else if (strcmp(a, answer) != 0 || n != strlen(answer))
            w->wrong++;
        free(a);
    }
    return NULL;
}

static void test_threads(void **state)
{
    (void)state;
    struct answer_cache *c = answer_cache_create(4096);
    struct worker workers[4];
    pthread_t threads[4];
    for (int i = 0; i < 4; i++) {
        workers[i] = (struct worker){c, i, 0};
        assert_int_equal(pthread_create(&threads[i], NULL, work, &workers[i]), 0);
    }
    for (int i = 0; i < 4; i++) {
        pthread_join(threads[i], NULL);
        assert_int_equal(workers[i].wrong, 0);
    }
    struct answer_cache_stats st;
    answer_cache_stats(c, &st);
    assert_int_equal(st.hits + st.misses, 4 * 20000);
    assert_true(st.hits > 0);
    assert_true(st.bytes <= 4096);
    answer_cache_free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exact_keys_per_kind),
        cmocka_unit_test(test_slots_evict_least_recently_used),
        cmocka_unit_test(test_byte_bound),
        cmocka_unit_test(test_off),
        cmocka_unit_test(test_threads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
