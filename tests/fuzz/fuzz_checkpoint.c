/*
 * fuzz_checkpoint.c - libFuzzer target: any bytes as a checkpoint header - a
 * GGUF file's first bytes when they start with "GGUF", else a safetensors
 * JSON header (and its 8-byte length when the input is long enough).
 */
#include "hub/checkpoint.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size); /* libFuzzer calls it */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct checkpoint_summary s;
    struct gs_error err;
    gs_error_init(&err);
    checkpoint_summary_init(&s);
    if (size >= 4 && memcmp(data, "GGUF", 4) == 0) {
        char config[2048];
        size_t needed = 0;
        (void)checkpoint_add_gguf(&s, data, size, &needed, config, sizeof(config), &err);
    } else {
        if (size >= 8) {
            uint64_t length = 0;
            (void)checkpoint_safetensors_length(data, (uint64_t)64 << 20, &length, &err);
        }
        (void)checkpoint_add_safetensors(&s, (const char *)data, size, &err);
    }
    checkpoint_finish(&s);
    return 0;
}
