/*
 * engine.c - the table of serving engines and the helpers their modules
 * share (see gs/engine.h). The table is the one list of engines: their
 * names, parsing and default block sizes come from it.
 */
#include "gs/engine.h"

#include "gs/units.h"
#include "gs/weights.h"

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

const char *gs_engine_name(enum gs_engine e)
{
    return gs_engine_ops_for(e)->name;
}

bool gs_engine_parse(const char *name, enum gs_engine *out)
{
    for (int i = 0; name != NULL && i < GS_ENGINE_COUNT; i++) {
        if (strcmp(name, engines[i]->name) == 0) {
            *out = (enum gs_engine)i;
            return true;
        }
    }
    return false;
}

uint64_t gs_engine_default_block_size(enum gs_engine engine)
{
    return gs_engine_ops_for(engine)->block_size;
}

uint64_t gs_engine_permille_of(uint64_t bytes, uint64_t permille, bool *ovf)
{
    /* bytes * permille / 1000 without overflow for realistic sizes */
    return gs_add(gs_mul(bytes / 1000, permille, ovf), (bytes % 1000) * permille / 1000, ovf);
}

void gs_engine_server_batch_defaults(const struct gs_inference_input *in,
                                     struct gs_inference_result *out)
{
    const struct gs_engine_config *c = &in->engine;
    const bool large = in->gpu.total_bytes >= (uint64_t)70 * GS_GIB && !in->gpu.is_a100;
    out->max_num_batched_tokens = c->max_num_batched_tokens ? c->max_num_batched_tokens
                                                            : (large ? 8192 : 2048);
    out->max_num_seqs = c->max_num_seqs ? c->max_num_seqs : (large ? 1024 : 256);
}

uint64_t gs_engine_activation_peak(const struct gs_inference_input *in,
                                   const struct gs_engine_stage *stage,
                                   const struct gs_inference_result *out,
                                   const struct gs_vllm_release *release, bool sampler, bool *ovf)
{
    const struct gs_engine_config *c = &in->engine;
    if (c->has_activation_bytes)
        return c->activation_bytes;
    return gs_vllm_activation_peak(in->arch, release, stage->counts, out->max_num_batched_tokens,
                                   out->max_num_seqs, stage->tensor, out->mla_workspace_tokens,
                                   in->gpu.sm_count, sampler, ovf);
}

uint64_t gs_engine_segment_slack(const struct gs_inference_input *in,
                                 const struct gs_engine_stage *stage, bool *ovf)
{
    const struct gs_weights_request wr = {(enum gs_weight_format)in->weight_format,
                                          in->group_size, stage->tensor, stage->pipeline,
                                          in->experts_only, in->expert};
    return gs_weights_segment_slack(in->arch, &wr, stage->counts, stage->first_stage,
                                    stage->last_stage, ovf);
}

bool gs_engine_has_windows(const struct gs_arch *a)
{
    for (size_t k = 0; k < a->block_count; k++)
        if (a->block_layers[k] && a->blocks[k].attn.span != GS_SPAN_FULL && a->blocks[k].attn.window)
            return true;
    return false;
}

bool gs_engine_has_towers(const struct gs_arch *a)
{
    for (size_t i = 0; i < a->tower_count; i++)
        if (a->towers[i].part == GS_PART_VISION || a->towers[i].part == GS_PART_AUDIO)
            return true;
    return false;
}
