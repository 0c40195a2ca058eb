/*
 * test_sha256.c - SHA-256 against the FIPS 180-4 examples (NIST's "SHA256
 * examples" document: "abc" and the 448-bit two-block message), the empty
 * string, and a message of a million 'a' characters.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "hub/sha256.h"

#include <stdlib.h>
#include <string.h>

static void expect(const char *text, size_t length, const char *digest)
{
    char out[65];
    sha256_hex(text, length, out);
    assert_string_equal(out, digest);
}

static void test_vectors(void **state)
{
    (void)state;
    expect("", 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    expect("abc", 3, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    const char *two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    expect(two, strlen(two), "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    /* 55 and 56 bytes: the padding fits one block, then needs a second */
    char a[1000000];
    memset(a, 'a', sizeof(a));
    expect(a, 55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318");
    expect(a, 56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a");
    expect(a, sizeof(a), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_vectors)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
