/*
 * codec_inference.h - the `inference` request section, inference-mode
 * parallelism, and the serving results (kv_cache, budget, starts, fixes).
 */
#ifndef GS_CODEC_INFERENCE_H
#define GS_CODEC_INFERENCE_H

#include "gs/estimate.h"

#include <jansson.h>

#include "formats/json_out.h"
#include <stdbool.h>

/* Borrow `section` (may be NULL); problems under "/inference". */
bool codec_decode_inference(const json_t *section, struct gs_serving *out, struct gs_error *err);

/* Inference takes tensor, pipeline, data and expert parallelism, stage_gpus and stage_layers. */
bool codec_decode_inference_parallelism(const json_t *section, struct gs_parallelism *out,
                                        struct gs_error *err);

/* Writes the members "inference" (the resolved settings, with each pipeline
 * stage's layers when `pipeline` > 1), "kv_cache" and, with a budget,
 * "budget", "starts", "holds_batch", "binding_constraint" and "fixes" into the
 * object `w` is writing. `stage_gpu` (NULL: none) is the catalog id of the GPU
 * of the stage whose pool binds, when the stages run on unequal GPUs. */
void codec_write_serving(struct json_writer *w, const struct gs_serving *serving,
                         uint64_t pipeline, const struct gs_estimate *est, const char *stage_gpu);

/* Parses an engine release ("0.19.0") into major * 10000 + minor * 100 +
 * patch; false when it is not one. */
bool codec_parse_engine_version(const char *text, uint32_t *out);

/* The training calibration bench/calibrate.sh measured
 * (bench/calibration-training.json, compiled in), or NULL; read-only. */
const json_t *codec_training_calibration(void);

#endif
