/*
 * test_csv.c - the GPU catalog's CSV exchange and the text and date rules
 * every catalog write shares (issue 17, findings 1-3):
 *
 * - formula injection: a text cell starting with = + - @ TAB or CR is
 *   exported as '<text> inside a quoted cell (OWASP CSV injection), numbers
 *   never are, and an import removes that quote again, so export -> import
 *   gives back the same value;
 * - a NUL byte inside a cell is a 400 at the cell, not a silently shorter
 *   value; a cell that is not UTF-8 is a 400 too;
 * - numeric cells follow JSON's number grammar (no hex, '+', spaces, inf or
 *   nan);
 * - dates are real calendar dates, text has no control characters.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "api/codec_catalog.h"
#include "formats/csv.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char hyperlink[] = "=HYPERLINK(\"http://x\",\"click\")";

/* A catalog row's string member pointing at a literal (rows are not const). */
static char *text_of(const char *s)
{
    return (char *)(uintptr_t)s;
}

/* A complete GPU whose text fields hold what a spreadsheet would run. */
static struct catalog_gpu formula_gpu(void)
{
    struct catalog_gpu g;
    memset(&g, 0, sizeof(g));
    g.id = text_of("lab-formula");
    g.name = text_of(hyperlink);
    g.vendor = text_of("@acme");
    g.architecture = text_of("'=quoted already");
    g.form_factor = text_of("-PCIe");
    g.memory_type = text_of("HBM3");
    g.memory_bytes = 80000000000ULL;
    g.memory_source = text_of("+1 help");
    g.tdp_watts = (struct catalog_real){true, 700};
    g.spec_source = text_of("'plain quote");
    g.price_per_hour = (struct catalog_real){true, 2.5};
    g.price_source = text_of("-5% \"negotiated\", =list");
    g.price_date = text_of("2024-02-29");
    return g;
}

/* The cell of `column` in record `row` of `t` (1 = the first after the header). */
static const char *cell(const struct csv_table *t, size_t row, const char *column)
{
    for (size_t c = 0; c < t->columns; c++) {
        if (strcmp(t->cells[c], column) == 0)
            return t->cells[row * t->columns + c];
    }
    fail_msg("no column %s", column);
    return NULL;
}

/* Writes the header and `g`'s row. The caller frees w->data. */
static struct buf export_one(const struct catalog_gpu *g)
{
    struct buf w = {NULL, 0, 0, false};
    codec_gpu_csv_header(&w);
    codec_gpu_csv_row(&w, g);
    assert_false(w.failed);
    return w;
}

/* Finding 1: the export neutralises formulas, numbers stay numbers. */
static void test_export_neutralises_formulas(void **state)
{
    (void)state;
    const struct catalog_gpu g = formula_gpu();
    struct buf w = export_one(&g);
    /* the whole cell quoted, the quote inside it, the cell's quotes doubled */
    assert_non_null(strstr(w.data, ",\"'=HYPERLINK(\"\"http://x\"\",\"\"click\"\")\","));
    assert_non_null(strstr(w.data, ",\"'+1 help\","));
    assert_non_null(strstr(w.data, ",\"'@acme\","));
    assert_non_null(strstr(w.data, ",\"'-PCIe\","));
    assert_non_null(strstr(w.data, ",\"'-5% \"\"negotiated\"\", =list\","));
    /* text that already starts with a quote and a trigger keeps it: one more quote */
    assert_non_null(strstr(w.data, ",\"''=quoted already\","));
    /* a quote before anything else is no escape: written as it is */
    assert_non_null(strstr(w.data, ",'plain quote,"));
    /* numbers and dates are never prefixed */
    assert_non_null(strstr(w.data, ",80000000000,"));
    assert_non_null(strstr(w.data, ",700,"));
    assert_non_null(strstr(w.data, ",2.5,"));
    assert_non_null(strstr(w.data, ",2024-02-29,"));

    struct csv_table t;
    struct gs_error err;
    gs_error_init(&err);
    assert_int_equal(csv_parse(w.data, w.length, &t, &err), GS_OK);
    assert_int_equal(t.rows, 2);
    assert_string_equal(cell(&t, 1, "name"), "'=HYPERLINK(\"http://x\",\"click\")");
    assert_string_equal(cell(&t, 1, "memory_source"), "'+1 help");
    csv_table_free(&t);
    free(w.data);
}

/* Finding 1: export -> import gives back every value unchanged. */
static void test_export_import_round_trip(void **state)
{
    (void)state;
    const struct catalog_gpu g = formula_gpu();
    struct buf w = export_one(&g);
    struct csv_table t;
    struct gs_error err;
    gs_error_init(&err);
    assert_int_equal(csv_parse(w.data, w.length, &t, &err), GS_OK);
    json_t *record = codec_gpu_csv_record(&t, 1, &err);
    assert_non_null(record);
    struct codec_gpu_row row;
    if (codec_decode_gpu_row(record, "lab-formula", &row, &err) != GS_OK)
        fail_msg("%s: %s", err.items[0].pointer, err.items[0].detail);
    assert_string_equal(row.row.name, g.name);
    assert_string_equal(row.row.vendor, g.vendor);
    assert_string_equal(row.row.architecture, g.architecture);
    assert_string_equal(row.row.form_factor, g.form_factor);
    assert_string_equal(row.row.memory_source, g.memory_source);
    assert_string_equal(row.row.spec_source, g.spec_source);
    assert_string_equal(row.row.price_source, g.price_source);
    assert_string_equal(row.row.price_date, g.price_date);
    assert_int_equal(row.row.memory_bytes, g.memory_bytes);
    assert_true(row.row.tdp_watts.present && row.row.tdp_watts.value == 700);
    assert_true(row.row.price_per_hour.present && row.row.price_per_hour.value == 2.5);
    codec_gpu_row_free(&row);
    json_decref(record);
    csv_table_free(&t);
    free(w.data);
}

/* Finding 1: the writer and the reader of one cell, for every kind of start. */
static void test_text_cell_round_trip(void **state)
{
    (void)state;
    static const struct {
        const char *text, *written; /* the text, and the cell as written (with its comma) */
    } cases[] = {
        {"=1+2", "\"'=1+2\","},
        {"+1 help", "\"'+1 help\","},
        {"-3 dB", "\"'-3 dB\","},
        {"@SUM(A1)", "\"'@SUM(A1)\","},
        {"\tx", "\"'\tx\","},
        {"\rx", "\"'\rx\","},
        {"'=x", "\"''=x\","},
        {"''+x", "\"'''+x\","},
        {"'", "',"},
        {"'x", "'x,"},
        {"a=b", "a=b,"},
        {"plain", "plain,"},
        {"", ","},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct buf w = {NULL, 0, 0, false};
        csv_write_text(&w, cases[i].text, false);
        if (strcmp(w.data, cases[i].written) != 0)
            fail_msg("case %zu: wrote [%s], want [%s]", i, w.data, cases[i].written);
        /* read back as a one-column document: header x, this record */
        char doc[64];
        snprintf(doc, sizeof(doc), "x\r\n%.*s\r\n", (int)(w.length - 1), w.data);
        struct csv_table t;
        struct gs_error err;
        gs_error_init(&err);
        assert_int_equal(csv_parse(doc, strlen(doc), &t, &err), GS_OK);
        assert_string_equal(csv_text_value(t.cells[1]), cases[i].text);
        csv_table_free(&t);
        free(w.data);
    }
    /* numbers go through csv_write_field: a negative number is no formula */
    struct buf w = {NULL, 0, 0, false};
    csv_write_field(&w, "-1.5", true);
    assert_string_equal(w.data, "-1.5\r\n");
    free(w.data);
}

/* Decodes record 1 of `doc` (length given: it may hold NUL bytes); returns
 * the record or NULL with `err` set. */
static json_t *import_record(const char *doc, size_t length, struct gs_error *err)
{
    struct csv_table t;
    gs_error_init(err);
    assert_int_equal(csv_parse(doc, length, &t, err), GS_OK);
    json_t *record = codec_gpu_csv_record(&t, 1, err);
    csv_table_free(&t);
    return record;
}

/* Finding 3: a NUL byte in a cell is refused at the cell, not cut short. */
static void test_nul_in_a_cell(void **state)
{
    (void)state;
    static const char doc[] = "id,name,vendor\r\nlab-nul,x\0y,Acme\r\n";
    struct gs_error err;
    json_t *record = import_record(doc, sizeof(doc) - 1, &err);
    if (record != NULL)
        fail_msg("imported as name \"%s\"", json_string_value(json_object_get(record, "name")));
    assert_int_equal(err.count, 1);
    assert_string_equal(err.items[0].pointer, "/name");
    assert_non_null(strstr(err.items[0].detail, "NUL"));

    /* quoted, too, and in the header */
    static const char quoted[] = "id,name\r\nlab-nul,\"x\0y\"\r\n";
    record = import_record(quoted, sizeof(quoted) - 1, &err);
    assert_null(record);
    assert_string_equal(err.items[0].pointer, "/name");
    static const char header[] = "id,name\0x\r\nlab-nul,x\r\n";
    record = import_record(header, sizeof(header) - 1, &err);
    assert_null(record);
    assert_true(err.count >= 1);
    assert_non_null(strstr(err.items[0].detail, "NUL"));
}

/* A text cell that is not UTF-8 is an error at the cell (the import used to
 * answer 503 "out of memory" for it). */
static void test_cell_not_utf8(void **state)
{
    (void)state;
    static const char *const docs[] = {
        "id,name\r\nlab-utf8,caf\xe9\r\n",      /* Latin-1 */
        "id,name\r\nlab-utf8,\xc0\xaf\r\n",     /* overlong '/' */
        "id,name\r\nlab-utf8,\xed\xa0\x80\r\n", /* a surrogate */
        "id,aliases\r\nlab-utf8,a;b\xff\r\n",   /* inside an alias */
    };
    for (size_t i = 0; i < sizeof(docs) / sizeof(docs[0]); i++) {
        struct gs_error err;
        json_t *record = import_record(docs[i], strlen(docs[i]), &err);
        if (record != NULL || err.count != 1)
            fail_msg("case %zu: record %p, %zu errors", i, (void *)record, err.count);
        assert_string_equal(err.items[0].pointer, i == 3 ? "/aliases" : "/name");
        assert_non_null(strstr(err.items[0].detail, "UTF-8"));
    }
    static const char fine[] = "id,name\r\nlab-utf8,caf\xc3\xa9 \xf0\x9f\x9a\x80\r\n";
    struct gs_error err;
    json_t *record = import_record(fine, sizeof(fine) - 1, &err);
    assert_non_null(record);
    assert_string_equal(json_string_value(json_object_get(record, "name")),
                        "caf\xc3\xa9 \xf0\x9f\x9a\x80");
    json_decref(record);
}

/* Finding 3: numeric cells follow JSON's number grammar. */
static void test_numeric_cells(void **state)
{
    (void)state;
    static const struct {
        const char *column, *cell;
        bool ok;
    } cases[] = {
        {"price_per_hour", "2.5", true},
        {"price_per_hour", "16", true},
        {"price_per_hour", "1e3", true},
        {"price_per_hour", "1.5E-2", true},
        {"price_per_hour", "0.5", true},
        {"price_per_hour", "-2", true}, /* a number: the range check refuses it later */
        {"price_per_hour", "0x10", false},
        {"price_per_hour", "0x1p4", false},
        {"price_per_hour", " 7", false},
        {"price_per_hour", "7 ", false},
        {"price_per_hour", "+7", false},
        {"price_per_hour", "inf", false},
        {"price_per_hour", "nan", false},
        {"price_per_hour", "Infinity", false},
        {"price_per_hour", "07", false},
        {"price_per_hour", "1.", false},
        {"price_per_hour", ".5", false},
        {"price_per_hour", "1e", false},
        {"price_per_hour", "1e+", false},
        {"price_per_hour", "-", false},
        {"price_per_hour", "1,5", false},
        {"price_per_hour", "1e999", false},
        {"memory_bytes", "80000000000", true},
        {"memory_bytes", "8e10", true}, /* JSON takes 8e10 for a byte count too */
        {"memory_bytes", "+80000000000", false},
        {"memory_bytes", " 80000000000", false},
        {"memory_bytes", "0x10", false},
        {"memory_bytes", "080", false},
        {"memory_bytes", "99999999999999999999999", false},
        {"tdp_watts", "700", true},
        {"tdp_watts", "+700", false},
        {"tdp_watts", "7e2", true},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        char doc[128], pointer[64];
        snprintf(doc, sizeof(doc), "id,%s\r\nl4,\"%s\"\r\n", cases[i].column, cases[i].cell);
        snprintf(pointer, sizeof(pointer), "/%s", cases[i].column);
        struct gs_error err;
        json_t *record = import_record(doc, strlen(doc), &err);
        if (cases[i].ok) {
            if (record == NULL)
                fail_msg("case %zu %s=[%s]: refused: %s", i, cases[i].column, cases[i].cell,
                         err.count ? err.items[0].detail : "");
            assert_true(json_is_number(json_object_get(record, cases[i].column)));
        } else {
            if (record != NULL)
                fail_msg("case %zu %s=[%s]: accepted", i, cases[i].column, cases[i].cell);
            assert_int_equal(err.count, 1);
            assert_string_equal(err.items[0].pointer, pointer);
        }
        json_decref(record);
    }
}

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

/* A driver-reported total must be plausible for the marketed capacity: at most the
 * marketed figure read as binary units (x 1.073741824). 16 GB marketed: 17,179,869,184
 * (exactly 16 GiB) is accepted, one byte more and 1e15 are refused at their pointer; an
 * MI300X's 192e9 with the driver's 206,141,652,992 (191.98 GiB) is accepted. */
static void test_usable_memory_plausible(void **state)
{
    (void)state;
    static const struct {
        json_int_t memory, usable;
        bool ok;
    } cases[] = {
        {16000000000LL, 17179869184LL, true},
        {16000000000LL, 17179869185LL, false},
        {16000000000LL, 1000000000000000LL, false},
        {192000000000LL, 206141652992LL, true},
        {16000000000LL, 15000000000LL, true},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        json_t *gpu = json_pack("{s:s, s:s, s:I, s:s, s:I, s:s}", "name", "Lab", "vendor", "Acme",
                                "memory_bytes", cases[i].memory, "memory_source", "lab",
                                "usable_memory_bytes", cases[i].usable, "usable_memory_source",
                                "nvidia-smi");
        struct codec_gpu_row row;
        struct gs_error err;
        gs_error_init(&err);
        const enum gs_status st = codec_decode_gpu_row(gpu, "lab", &row, &err);
        if (st != (cases[i].ok ? GS_OK : GS_ERR_INVALID))
            fail_msg("case %zu: %lld of %lld should be %s", i, (long long)cases[i].usable,
                     (long long)cases[i].memory, cases[i].ok ? "accepted" : "refused");
        if (!cases[i].ok)
            assert_string_equal(err.items[0].pointer, "/usable_memory_bytes");
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
        cmocka_unit_test(test_export_neutralises_formulas),
        cmocka_unit_test(test_export_import_round_trip),
        cmocka_unit_test(test_text_cell_round_trip),
        cmocka_unit_test(test_nul_in_a_cell),
        cmocka_unit_test(test_cell_not_utf8),
        cmocka_unit_test(test_numeric_cells),
        cmocka_unit_test(test_dates),
        cmocka_unit_test(test_text),
        cmocka_unit_test(test_usable_memory_plausible),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
