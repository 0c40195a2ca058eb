/*
 * fuzz_catalog_write.c - libFuzzer target: any bytes as the body of a
 * catalog write (PUT /v1/models/{id} and /v1/gpus/{id}), and as a JSON
 * merge patch applied to it.
 */
#include "api/codec_catalog.h"
#include "formats/json_lenient.h"

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size); /* libFuzzer calls it */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    json_error_t jerr;
    json_t *body = json_load_lenient((const char *)data, size, JSON_REJECT_DUPLICATES, &jerr);
    if (body == NULL)
        return 0;
    struct gs_error err;
    gs_error_init(&err);
    struct codec_model_row model;
    if (codec_decode_model_row(body, "fuzz-model", &model, &err) == GS_OK)
        codec_model_row_free(&model);
    gs_error_init(&err);
    struct codec_gpu_row gpu;
    if (codec_decode_gpu_row(body, "fuzz-gpu", &gpu, &err) == GS_OK)
        codec_gpu_row_free(&gpu);
    gs_error_init(&err);
    json_t *merged = codec_merge_patch(body, body, &err);
    json_decref(merged);
    json_decref(body);
    return 0;
}
