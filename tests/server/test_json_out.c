/*
 * test_json_out.c - json_out_dumps writes exactly what json_dumps(value,
 * JSON_OUT_FLAGS) writes: for strings with every control character,
 * quotes, backslashes and multi-byte UTF-8; integers to both ends of their
 * range; reals of every magnitude (and 20,000 random bit patterns), and
 * json_out_real's integer formatting against jansson's "%.15g" for half a
 * million more in its range, next to every power of ten and at rounding ties; nesting
 * to jansson's limit; and the real answers of the API - an estimate (serving
 * and training), a fit and a recommendation for catalog models, and every
 * listing item; and json_out.h's writer, whose text /v1/fit and
 * /v1/recommend send, against jansson's dump of the same tree.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "api/codec.h"
#include "formats/json_out.h"
#include "api/sizing.h"
#include "test_service.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* `text` (of `length` bytes, freed here) is what json_dumps writes for `answer`: the text the
 * server sends for the tree the CLI and the tests build. */
static void assert_text_is_dump(char *text, size_t length, const json_t *answer)
{
    char *want = json_dumps(answer, JSON_OUT_FLAGS);
    assert_non_null(want);
    assert_non_null(text);
    assert_int_equal(length, strlen(want));
    assert_string_equal(text, want);
    free(want);
    free(text);
}

static void assert_same_dump(const json_t *v)
{
    char *want = json_dumps(v, JSON_OUT_FLAGS);
    size_t n = 0;
    char *got = json_out_dumps(v, &n);
    if (want == NULL || got == NULL) {
        assert_ptr_equal(want, NULL);
        assert_ptr_equal(got, NULL);
        return;
    }
    assert_int_equal(n, strlen(want));
    if (strcmp(want, got) != 0)
        fail_msg("json_dumps: %.300s\njson_out:   %.300s", want, got);
    free(want);
    free(got);
}

static void test_strings_and_integers(void **state)
{
    (void)state;
    json_t *o = json_object();
    char all[128];
    for (int i = 1; i < 128; i++)
        all[i - 1] = (char)i;
    all[127] = '\0';
    json_object_set_new(o, "controls", json_stringn(all, 127));
    json_object_set_new(o, "nul inside", json_stringn("a\0b", 3));
    json_object_set_new(o, "utf8", json_string("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x9a\x80 \xe2\x80\xa8"));
    json_object_set_new(o, "", json_string(""));
    json_object_set_new(o, "key \"with\" \\escapes\n", json_string("/slash/ \x7f"));
    json_t *ints = json_array();
    const json_int_t values[] = {0, 1, -1, 9, 10, -10, 1234567890123LL, INT64_MAX, INT64_MIN,
                                 INT64_MIN + 1};
    for (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++)
        json_array_append_new(ints, json_integer(values[i]));
    json_object_set_new(o, "ints", ints);
    json_object_set_new(o, "empty object", json_object());
    json_object_set_new(o, "empty array", json_array());
    json_object_set_new(o, "literals", json_pack("[bbn]", 1, 0));
    assert_same_dump(o);
    json_decref(o);
    /* jansson dumps only objects and arrays without JSON_ENCODE_ANY: NULL for both */
    json_t *s = json_string("x");
    assert_null(json_out_dumps(s, NULL));
    json_decref(s);
}

/* The 8-bytes-at-a-time skip in put_string: each byte that needs escaping
 * (and bytes that do not: 0x20, 0x7f, '/', 0x21 next to the quote, UTF-8)
 * at every offset of strings up to 40 bytes, alone and next to another. */
static void test_escapes_at_every_offset(void **state)
{
    (void)state;
    static const char specials[] = {'"', '\\', '\n', '\t', 0x01, 0x1f, 0x20, 0x21, 0x7f, '/', 0x5b, 0x5d};
    char text[48];
    for (size_t len = 1; len <= 40; len++)
        for (size_t at = 0; at < len; at++)
            for (size_t k = 0; k < sizeof(specials); k++) {
                for (size_t i = 0; i < len; i++)
                    text[i] = (char)('a' + i % 26);
                text[at] = specials[k];
                if (at + 1 < len)
                    text[len - 1] = specials[(k + 1) % sizeof(specials)];
                json_t *a = json_pack("[ss%]", "caf\xc3\xa9", text, len);
                assert_non_null(a);
                assert_same_dump(a);
                json_decref(a);
            }
}

static void test_reals(void **state)
{
    (void)state;
    json_t *a = json_array();
    const double fixed[] = {0.0, -0.0, 1.0, -1.0, 0.1, 0.5, 1.5, 2.0 / 3.0, 1e15, 1e16, 1e17,
                            1e-4, 1e-5, 1e300, -1e-300, 4.9e-324, 1.7976931348623157e308,
                            123456789012345678.0, 3.141592653589793, 79.22, 0.9, 1e21, 5e-7};
    for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
        json_array_append_new(a, json_real(fixed[i]));
    uint64_t x = 0x9e3779b97f4a7c15ULL;
    for (int i = 0; i < 20000; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        double d;
        memcpy(&d, &x, sizeof(d));
        if (!isfinite(d))
            continue;
        json_array_append_new(a, json_real(d));
        json_array_append_new(a, json_real((double)(x % 100000000) / 1000.0));
    }
    assert_same_dump(a);
    json_decref(a);
}


/* One value through json_out_real and through jansson: the same bytes, or 0 (jansson's turn)
 * only outside [1e-4, 1e15) and for values that round up to 1e15. */
static void assert_real_as_jansson(double v)
{
    char want[64], got[JSON_OUT_REAL_MAX];
    json_t *r = json_real(v);
    const size_t n = json_dumpb(r, want, sizeof(want), JSON_OUT_FLAGS | JSON_ENCODE_ANY);
    json_decref(r);
    assert_true(n > 0 && n < sizeof(want));
    const size_t m = json_out_real(v, got);
    const double a = fabs(v);
    if (m == 0) {
        if (a >= 1e-4 && a < 1e15 && strchr(want, 'e') == NULL)
            fail_msg("json_out_real left %.17g (jansson: %.*s) to jansson", v, (int)n, want);
        return;
    }
    if (m != n || memcmp(want, got, n) != 0)
        fail_msg("%.17g: jansson %.*s, json_out_real %.*s", v, (int)n, want, (int)m, got);
}

static void test_real_fast_path(void **state)
{
    (void)state;
    uint64_t x = 0x243f6a8885a308d3ULL;
    /* random bits with binary exponents across the range and beyond it */
    for (int i = 0; i < 300000; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        const double mant = (double)(x >> 11) / 9007199254740992.0; /* [0, 1) */
        const int e = (int)(x % 70) - 16;                           /* 2^-16 .. 2^53 */
        assert_real_as_jansson(ldexp(0.5 + mant / 2, e) * ((x & 1) ? -1 : 1));
    }
    /* decimals as the catalog and the answers carry them: k / 10^j */
    for (int i = 0; i < 200000; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        assert_real_as_jansson((double)(x % 100000000000ULL) / pow(10, (double)(x % 12)));
    }
    /* next to every power of ten, and to the halfway points of the 15th digit */
    for (int k = -5; k <= 16; k++) {
        const double p = pow(10, k);
        const double near[] = {p, 0.5 * p, 9.99999999999999 * p, 9.999999999999995 * p,
                               1.000000000000005 * p, 1.5 * p};
        for (size_t j = 0; j < sizeof(near) / sizeof(near[0]); j++) {
            double d = near[j];
            for (int u = 0; u < 4; u++)
                d = nextafter(d, 0);
            for (int u = 0; u < 9; u++, d = nextafter(d, INFINITY)) {
                assert_real_as_jansson(d);
                assert_real_as_jansson(-d);
            }
        }
    }
    /* exact ties at the 15th digit: integers of 16 digits ending in 5 (below 1e15 they
     * have at most 15, so none ties there) and exact binary fractions */
    const double ties[] = {999999999999999.5, 99999999999999.25, 0.000244140625, 1.00000000000000088817841970012523,
                           123456789012345.5, 0.5, 0.25, 0.125, 3.0517578125e-05};
    for (size_t i = 0; i < sizeof(ties) / sizeof(ties[0]); i++) {
        assert_real_as_jansson(ties[i]);
        assert_real_as_jansson(-ties[i]);
    }
    char out[JSON_OUT_REAL_MAX];
    assert_int_equal(json_out_real(0.0, out), 0); /* zero: jansson's */
    assert_int_equal(json_out_real(1e15, out), 0);
    assert_int_equal(json_out_real(9.9e-5, out), 0);
    assert_int_equal(json_out_real(3350.0, out), 6);
    assert_memory_equal(out, "3350.0", 6);
}

static void test_depth(void **state)
{
    (void)state;
    for (int depth = 2046; depth <= 2050; depth++) {
        json_t *root = json_array(), *at = root;
        for (int i = 1; i < depth; i++) {
            json_t *next = json_array();
            json_array_append_new(at, next);
            at = next;
        }
        if (depth <= 2048) /* arrays nested `depth` deep: the innermost at recursion depth-1 */
            assert_same_dump(root);
        else /* refused, as jansson from 2.14.1 on refuses (2.14 recurses until the stack ends) */
            assert_null(json_out_dumps(root, NULL));
        json_decref(root);
    }
}

static void test_api_answers(void **state)
{
    (void)state;
    struct test_service t;
    assert_int_equal(test_service_open(&t, "gs-jsonout", false), 0);
    const struct catalog_snapshot *snap = service_snapshot(t.service);
    size_t checked = 0;
    for (size_t i = 0; i < snap->model_count; i++) {
        size_t n = 0;
        json_t *item = json_loads(service_model_item(t.service, i, &n), 0, NULL);
        assert_non_null(item);
        assert_same_dump(item);
        json_decref(item);
        for (size_t k = 0; k < 2; k++) {
            char body[512];
            if (k == 0)
                snprintf(body, sizeof(body),
                         "{\"model\":\"%s\",\"gpu\":\"h100\",\"inference\":{\"batch_size\":8,"
                         "\"context_length\":4096}}",
                         snap->models[i].id);
            else
                snprintf(body, sizeof(body),
                         "{\"model\":\"%s\",\"mode\":\"training\",\"gpu\":\"h100\","
                         "\"training\":{\"lora\":{\"rank\":16}}}",
                         snap->models[i].id);
            json_t *request = json_loads(body, 0, NULL);
            json_t *response = NULL;
            struct problem p;
            problem_init(&p);
            if (service_estimate(t.service, request, &response, &p) == 0) {
                assert_same_dump(response);
                /* the text the server sends is what jansson writes for the same answer */
                char *text = NULL;
                size_t length = 0;
                problem_init(&p);
                assert_int_equal(service_estimate_text(t.service, request, &text, &length, &p), 0);
                assert_text_is_dump(text, length, response);
                checked++;
            }
            json_decref(response);
            json_decref(request);
        }
    }
    assert_true(checked > snap->model_count);
    for (size_t i = 0; i < snap->gpu_count; i++) {
        size_t n = 0;
        json_t *item = json_loads(service_gpu_item(t.service, i, &n), 0, NULL);
        assert_same_dump(item);
        json_decref(item);
    }
    static const char *const sizing[] = {
        "{\"model\":\"llama-3.1-70b\",\"gpu\":\"h100\",\"inference\":{\"batch_size\":32,"
        "\"context_length\":8192}}",
        "{\"model\":\"llama-3.1-70b\",\"inference\":{\"context_length\":8192},\"demand\":"
        "{\"output_tokens_per_s\":5000,\"prompt_tokens\":2000,\"output_tokens\":500},"
        "\"constraints\":{\"allow\":{\"quantization\":true},\"max_cost_per_hour\":200}}",
    };
    for (size_t k = 0; k < 2; k++) {
        json_t *request = json_loads(sizing[k], 0, NULL);
        json_t *response = NULL;
        struct problem p;
        problem_init(&p);
        const int rc = k == 0 ? sizing_fit(t.service, request, &response, &p)
                              : sizing_recommend(t.service, request, &response, &p);
        assert_int_equal(rc, 0);
        assert_same_dump(response);
        /* the text the server sends is what jansson writes for the same answer */
        char *text = NULL;
        size_t length = 0;
        problem_init(&p);
        assert_int_equal(k == 0 ? sizing_fit_text(t.service, request, &text, &length, &p)
                                : sizing_recommend_text(t.service, request, &text, &length, &p),
                         0);
        assert_text_is_dump(text, length, response);
        json_decref(response);
        json_decref(request);
    }
    test_service_close(&t);
}

/* The writer writes what json_dumps writes for the tree the same calls build. */
static void test_writer(void **state)
{
    (void)state;
    struct json_writer w = {.data = NULL};
    json_w_begin_object(&w);
    json_w_key_text(&w, "a\"b"); /* a key from data, escaped */
    json_w_string(&w, "tab\there \xc3\xa9\xe2\x82\xac \x01");
    json_w_key(&w, "n");
    json_w_int(&w, INT64_MIN);
    json_w_key(&w, "big");
    json_w_u64(&w, UINT64_MAX);
    json_w_key(&w, "list");
    json_w_begin_array(&w);
    json_w_real(&w, 0.1);
    json_w_real(&w, 1e300);
    json_w_real(&w, 2.0);
    json_w_null(&w);
    json_w_bool(&w, true);
    json_w_begin_object(&w);
    json_w_end_object(&w);
    json_w_begin_array(&w);
    json_w_end_array(&w);
    json_w_bool(&w, false);
    json_w_end_array(&w);
    json_w_key(&w, "tree");
    json_w_take(&w, json_pack("{s:[i, f, s], s:{}}", "x", 1, 2.5, "y", "z"));
    json_w_end_object(&w);
    size_t n = 0;
    char *got = json_w_finish(&w, &n);
    assert_non_null(got);
    json_t *same = json_pack("{s:s, s:I, s:I, s:[f, f, f, n, b, {}, [], b], s:{s:[i, f, s], s:{}}}",
                             "a\"b", "tab\there \xc3\xa9\xe2\x82\xac \x01", "n", (json_int_t)INT64_MIN,
                             "big", (json_int_t)INT64_MAX, "list", 0.1, 1e300, 2.0, 1, 0, "tree",
                             "x", 1, 2.5, "y", "z");
    assert_non_null(same);
    char *want = json_dumps(same, JSON_OUT_FLAGS);
    assert_int_equal(n, strlen(want));
    assert_string_equal(got, want);
    free(want);
    free(got);
    json_decref(same);

    /* what jansson's constructors refuse makes the whole text fail */
    const double bad_reals[] = {NAN, INFINITY};
    for (size_t i = 0; i < 2; i++) {
        json_w_begin_array(&w);
        json_w_real(&w, bad_reals[i]);
        json_w_end_array(&w);
        assert_null(json_w_finish(&w, NULL));
    }
    json_w_begin_array(&w);
    json_w_string(&w, NULL);
    json_w_end_array(&w);
    assert_null(json_w_finish(&w, NULL));
    json_w_begin_array(&w);
    json_w_string(&w, "\xc3(");
    json_w_end_array(&w);
    assert_null(json_w_finish(&w, NULL));
    /* the UTF-8 check refuses what jansson refuses: truncated, overlong, surrogate, past
     * U+10FFFF, a bare continuation byte; and takes every well-formed length */
    static const char *const utf8[] = {"\xc3(",         "\xc0\xaf",         "\xe0\x80\xaf",
                                       "\xed\xa0\x80",     "\xf4\x90\x80\x80", "\x80",
                                       "\xf5\x80\x80\x80", "\xc3\xa9",         "\xe2\x82\xac",
                                       "\xf0\x9f\x98\x80", "\xf4\x8f\xbf\xbf", "plain"};
    for (size_t i = 0; i < sizeof(utf8) / sizeof(utf8[0]); i++) {
        json_t *j = json_string(utf8[i]);
        assert_int_equal(json_utf8_valid(utf8[i]), j != NULL);
        json_decref(j);
    }
    json_w_begin_array(&w);
    json_w_value(&w, NULL);
    json_w_end_array(&w);
    assert_null(json_w_finish(&w, NULL));
    json_w_begin_object(&w); /* left open */
    assert_null(json_w_finish(&w, NULL));
    json_w_end_array(&w); /* closing what was never opened */
    assert_null(json_w_finish(&w, NULL));
    json_w_begin_object(&w); /* a key without its value */
    json_w_key(&w, "k");
    json_w_end_object(&w);
    assert_null(json_w_finish(&w, NULL));
    for (int i = 0; i <= JSON_WRITER_DEPTH; i++) /* deeper than the writer keeps */
        json_w_begin_array(&w);
    assert_null(json_w_finish(&w, NULL));
    json_w_begin_object(&w); /* a value in an object without its key */
    json_w_int(&w, 1);
    json_w_end_object(&w);
    assert_null(json_w_finish(&w, NULL));
    json_w_begin_array(&w); /* a key in an array */
    json_w_key(&w, "k");
    json_w_int(&w, 1);
    json_w_end_array(&w);
    assert_null(json_w_finish(&w, NULL));
    json_w_begin_object(&w); /* two keys in a row */
    json_w_key(&w, "a");
    json_w_key(&w, "b");
    json_w_int(&w, 1);
    json_w_end_object(&w);
    assert_null(json_w_finish(&w, NULL));
    json_w_begin_array(&w); /* the wrong container closed */
    json_w_end_object(&w);
    assert_null(json_w_finish(&w, NULL));
    json_w_begin_array(&w); /* a key from data in an array */
    json_w_key_text(&w, "k");
    json_w_int(&w, 1);
    json_w_end_array(&w);
    assert_null(json_w_finish(&w, NULL));
    json_w_begin_object(&w); /* a key from data after a key */
    json_w_key(&w, "a");
    json_w_key_text(&w, "b");
    json_w_int(&w, 1);
    json_w_end_object(&w);
    assert_null(json_w_finish(&w, NULL));
    json_w_int(&w, 1); /* a key outside any object */
    json_w_key(&w, "k");
    assert_null(json_w_finish(&w, NULL));
#ifndef NDEBUG
    json_w_begin_object(&w); /* a literal key that would need escaping (debug builds check) */
    json_w_key(&w, "a\"b");
    json_w_int(&w, 1);
    json_w_end_object(&w);
    assert_null(json_w_finish(&w, NULL));
#endif

    /* an answer's per-GPU memory (byte counts saturate at INT64_MAX), with and without
     * training's peak */
    struct gs_memory m = {1, 2, 3, 4, 5, 6, UINT64_MAX, 0, 0, 0};
    static const char *const memory[2] = {
        "{\"weights_bytes\":1,\"kv_cache_bytes\":2,\"activations_bytes\":3,\"gradients_bytes\":4,"
        "\"optimizer_bytes\":5,\"overhead_bytes\":6,\"total_bytes\":9223372036854775807}",
        "{\"weights_bytes\":1,\"kv_cache_bytes\":2,\"activations_bytes\":3,\"gradients_bytes\":4,"
        "\"optimizer_bytes\":5,\"overhead_bytes\":6,\"total_bytes\":9223372036854775807,"
        "\"peak_allocated_bytes\":7,\"peak_reserved_bytes\":8,\"peak_phase\":\"optimizer_step\"}",
    };
    for (int peak = 0; peak < 2; peak++) {
        if (peak) {
            m.peak_allocated_bytes = 7;
            m.peak_reserved_bytes = 8;
            m.peak_phase = GS_PHASE_OPTIMIZER_STEP;
        }
        codec_write_memory(&w, &m);
        got = json_w_finish(&w, NULL);
        assert_non_null(got);
        assert_string_equal(got, memory[peak]);
        free(got);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_strings_and_integers),
        cmocka_unit_test(test_escapes_at_every_offset),
        cmocka_unit_test(test_reals),
        cmocka_unit_test(test_real_fast_path),
        cmocka_unit_test(test_depth),
        cmocka_unit_test(test_api_answers),
        cmocka_unit_test(test_writer),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
