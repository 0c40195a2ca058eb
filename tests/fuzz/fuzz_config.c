/*
 * fuzz_config.c - libFuzzer target: any bytes as a Hugging Face config.json,
 * through the readers (server/readers/) and, when one reads it, the
 * architecture's validation and parameter count.
 */
#include "gs/arch.h"
#include "readers/models.h"
#include "formats/json_lenient.h"

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size); /* libFuzzer calls it */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    json_error_t jerr;
    json_t *config = json_load_lenient((const char *)data, size, 0, &jerr);
    if (config == NULL)
        return 0;
    struct gs_arch arch;
    struct gs_error err;
    gs_error_init(&err);
    if (models_read(config, "/config", &arch, &err) == GS_OK &&
        gs_arch_validate(&arch, &err) == GS_OK) {
        struct gs_param_count count;
        (void)gs_arch_count_params(&arch, &count, &err);
    }
    json_decref(config);
    return 0;
}
