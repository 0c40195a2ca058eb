/*
 * test_gzip.c - Accept-Encoding parsing (RFC 9110 12.5.3: codings, q-values,
 * "*", case) and gzip members that zlib inflates back to the input.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "formats/gzip.h"

#include <stdlib.h>
#include <string.h>
#include <zlib.h>

static void test_accepted(void **state)
{
    (void)state;
    static const struct {
        const char *value;
        bool gzip;
    } cases[] = {
        {NULL, false},
        {"", false},
        {"gzip", true},
        {"GZIP", true},
        {"x-gzip", true},
        {"deflate, gzip;q=1.0, *;q=0.5", true},
        {"br, gzip;q=0.001", true},
        {"gzip;q=0", false},
        {"gzip; q=0.0", false},
        {"*", true},
        {"*;q=0", false},
        {"gzip;q=0, *", false}, /* gzip named: its own q wins over the wildcard */
        {"identity", false},
        {"br, deflate", false},
        {"gzipx, xgzip", false},
        {"identity;q=1, *;q=0.1", true},
        {" , ,gzip", true},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
        if (gzip_accepted(cases[i].value) != cases[i].gzip)
            fail_msg("\"%s\": expected %d", cases[i].value ? cases[i].value : "(null)",
                     cases[i].gzip);
}

static void test_round_trip(void **state)
{
    (void)state;
    enum { N = 200000 };
    char *text = malloc(N);
    assert_non_null(text);
    for (size_t i = 0; i < N; i++)
        text[i] = "{\"items\":[{\"id\":\"h100\"},0123456789]}"[i % 37];
    for (int level = 1; level <= 9; level += 8) {
        size_t n = 0;
        unsigned char *packed = gzip_compress(text, N, level, &n);
        assert_non_null(packed);
        assert_true(n < N / 10);
        assert_int_equal(packed[0], 0x1f); /* the gzip magic (RFC 1952) */
        assert_int_equal(packed[1], 0x8b);
        unsigned char *back = malloc(N);
        assert_non_null(back);
        uLongf got = N;
        z_stream z;
        memset(&z, 0, sizeof(z));
        assert_int_equal(inflateInit2(&z, 15 + 16), Z_OK);
        z.next_in = packed;
        z.avail_in = (uInt)n;
        z.next_out = back;
        z.avail_out = (uInt)got;
        assert_int_equal(inflate(&z, Z_FINISH), Z_STREAM_END);
        assert_int_equal(z.total_out, N);
        inflateEnd(&z);
        assert_memory_equal(back, text, N);
        free(back);
        free(packed);
    }
    size_t n = 0;
    unsigned char *empty = gzip_compress("", 0, 1, &n);
    assert_non_null(empty);
    assert_true(n >= 20); /* header and trailer */
    free(empty);
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_accepted),
        cmocka_unit_test(test_round_trip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
