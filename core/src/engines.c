/*
 * engines.c - the one list of serving engines (see gs/engines.h): their
 * names, parsing and default block sizes come from each module's table.
 */
#include "gs/engines.h"

#include <stddef.h>
#include <string.h>

static const struct gs_engine_ops *const engines[GS_ENGINE_COUNT] = {
    [GS_ENGINE_VLLM] = &gs_engine_vllm,
    [GS_ENGINE_SGLANG] = &gs_engine_sglang,
    [GS_ENGINE_TENSORRT_LLM] = &gs_engine_tensorrt_llm,
    [GS_ENGINE_TGI] = &gs_engine_tgi,
    [GS_ENGINE_GENERIC] = &gs_engine_generic,
};

const struct gs_engine_ops *gs_engine_ops_for(enum gs_engine engine)
{
    return engine < GS_ENGINE_COUNT ? engines[engine] : &gs_engine_generic;
}

bool gs_engine_runs_format(const struct gs_engine_config *config, enum gs_hw hw,
                           enum gs_weight_format format, const char **rule)
{
    if (gs_hw_runs_format(hw, format, rule))
        return true;
    const struct gs_engine_ops *ops = gs_engine_ops_for(config->engine);
    return ops->runs_beyond_table != NULL &&
           ops->runs_beyond_table(config->version, (uint8_t)hw, (uint8_t)format) != NULL;
}

const char *gs_engine_name(enum gs_engine e)
{
    return gs_engine_ops_for(e)->name;
}

