/*
 * engines.h - the serving engines gpusizer models: the one list of them
 * (engines.c), their names as the API spells them, and each one's table of
 * operations (gs/engine.h).
 */
#ifndef GS_ENGINES_H
#define GS_ENGINES_H

#include "gs/capability.h"
#include "gs/engine.h"
#include "gs/inference.h"

#include <stdbool.h>
#include <stdint.h>

/* The operations of `engine` (the generic profile's for an unknown one). */
const struct gs_engine_ops *gs_engine_ops_for(enum gs_engine engine);

/* "vllm", "sglang", "tensorrt_llm", "tgi", "generic" (the generic profile's for an unknown
 * one); the API takes exactly these (server/api/codec_inference.c). */
const char *gs_engine_name(enum gs_engine engine);

/* Whether the configured engine and release run weights of `format` on a GPU of generation
 * `hw`: the capability table's row (gs_hw_runs_format), or the engine's own kernels beyond it
 * (gs_engine_ops.runs_beyond_table). On false, *rule (when not NULL) is the table's rule. */
bool gs_engine_runs_format(const struct gs_engine_config *config, enum gs_hw hw,
                           enum gs_weight_format format, const char **rule);

/* Each engine's table, defined in its module. */
extern const struct gs_engine_ops gs_engine_vllm, gs_engine_sglang, gs_engine_tensorrt_llm,
    gs_engine_tgi, gs_engine_generic;

#endif
