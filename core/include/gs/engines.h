/*
 * engines.h - the serving engines gpusizer models: the one list of them
 * (engines.c), their names as the API spells them, and each one's table of
 * operations (gs/engine.h).
 */
#ifndef GS_ENGINES_H
#define GS_ENGINES_H

#include "gs/engine.h"
#include "gs/inference.h"

#include <stdbool.h>
#include <stdint.h>

/* The operations of `engine` (the generic profile's for an unknown one). */
const struct gs_engine_ops *gs_engine_ops_for(enum gs_engine engine);

/* "vllm", "sglang", "tensorrt_llm", "tgi", "generic" (the generic profile's for an unknown
 * one); the API takes exactly these (server/api/codec_inference.c). */
const char *gs_engine_name(enum gs_engine engine);

/* Each engine's table, defined in its module. */
extern const struct gs_engine_ops gs_engine_vllm, gs_engine_sglang, gs_engine_tensorrt_llm,
    gs_engine_tgi, gs_engine_generic;

#endif
