/*
 * test_csv.c - the text and date rules every catalog write shares (issue
 * 17, finding 2): dates are real calendar dates, text has no control
 * characters. The CSV import's own cells follow these rules too.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "codec_catalog.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Finding 2: one date rule for every write - a real calendar date. */
static void test_dates(void **state)
{
    (void)state;
    static const struct {
        const char *date;
        bool ok;
    } cases[] = {
        {"2024-02-29", true},        {"2000-02-29", true},  {"1990-01-01", true},
        {"2200-12-31", true},        {"2026-12-01", true},  {"2024-02-31", false},
        {"2023-02-29", false},       {"2100-02-29", false}, {"2024-04-31", false},
        {"2024-00-10", false},       {"2024-13-01", false}, {"2024-01-00", false},
        {"1989-12-31", false},       {"2201-01-01", false}, {"2024-1-01", false},
        {"2024-01- 1", false},       {"2024-+1-01", false}, {"+024-01-01", false},
        {" 2024-01-01", false},      {"2024/01/01", false}, {"20240101", false},
        {"2024-01-01T00:00", false},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        if (codec_valid_date(cases[i].date) != cases[i].ok)
            fail_msg("case %zu: %s should be %s", i, cases[i].date,
                     cases[i].ok ? "valid" : "refused");
        /* the GPU decoder applies the same rule */
        json_t *gpu =
            json_pack("{s:s, s:s, s:I, s:s, s:f, s:s, s:s}", "name", "Lab", "vendor", "Acme",
                      "memory_bytes", (json_int_t)1000000000, "memory_source", "lab",
                      "price_per_hour", 1.5, "price_source", "quote", "price_date", cases[i].date);
        struct codec_gpu_row row;
        struct gs_error err;
        gs_error_init(&err);
        const enum gs_status st = codec_decode_gpu_row(gpu, "lab", &row, &err);
        assert_int_equal(st, cases[i].ok ? GS_OK : GS_ERR_INVALID);
        if (!cases[i].ok)
            assert_string_equal(err.items[0].pointer, "/price_date");
        codec_gpu_row_free(&row);
        json_decref(gpu);
    }
}

/* Finding 2: one text rule for every write - no control characters. */
static void test_text(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        bool ok;
    } cases[] = {
        {"list price, \"quoted\" = fine", true},
        {"-5% negotiated", true},
        {"caf\xc3\xa9", true},
        {"a\x01"
         "b",
         false},
        {"tab\there", false},
        {"line\nbreak", false},
        {"cr\r", false},
        {"del\x7f", false},
        {"esc\x1b[31m", false},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        json_t *v = json_string(cases[i].text);
        const char *out = NULL;
        struct gs_error err;
        gs_error_init(&err);
        if (codec_read_text(v, "/source", CODEC_SOURCE_MAX, true, &out, &err) != cases[i].ok)
            fail_msg("case %zu should be %s", i, cases[i].ok ? "valid" : "refused");
        if (!cases[i].ok)
            assert_string_equal(err.items[0].pointer, "/source");
        json_decref(v);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dates),
        cmocka_unit_test(test_text),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
