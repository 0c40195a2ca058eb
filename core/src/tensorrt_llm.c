/*
 * tensorrt_llm.c - TensorRT-LLM as an engine module (see gs/engine.h): the KV
 * pool is free_gpu_memory_fraction of the memory free once the weights, the
 * activations and the runtime's buffers are in place; 64 tokens a block.
 * The activation and non-torch terms follow vLLM's latest modelled profile
 * (gs_vllm_other_engine_profile), the engine's own not being modelled.
 */
#include "gs/engine.h"

#include "gs/runtime.h"
#include "gs/units.h"
#include "gs/vllm.h"

static void trtllm_load(const struct gs_inference_input *in, const struct gs_engine_stage *stage,
                        struct gs_inference_result *out, uint64_t *non_torch, bool *ovf)
{
    const struct gs_vllm_release *profile = gs_vllm_other_engine_profile();
    out->budget.activation_bytes =
        gs_vllm_engine_peak(in, stage, out, profile, stage->last_stage, ovf);
    *non_torch = gs_vllm_non_torch(profile, (enum gs_link)in->gpu.link, stage->tensor, in->cross_node,
                                   stage->last_stage, ovf);
}

static void trtllm_pool(const struct gs_inference_input *in, struct gs_inference_result *out,
                        uint64_t used, bool *ovf)
{
    const struct gs_engine_config *c = &in->engine;
    struct gs_budget *b = &out->budget;
    /* the fraction is of cudaMemGetInfo's free memory, which other processes' memory is not */
    used = gs_add(used, in->gpu.in_use_bytes, ovf);
    b->rule = "TensorRT-LLM: free_gpu_memory_fraction of the memory free after weights, "
              "activations and runtime buffers";
    b->fraction_permille = c->free_memory_fraction_permille ? c->free_memory_fraction_permille
                                                            : 900;
    b->requested_bytes = b->total_bytes;
    b->kv_bytes = used >= b->total_bytes
                      ? (int64_t)b->total_bytes - (int64_t)used
                      : (int64_t)gs_engine_permille_of(b->total_bytes - used, b->fraction_permille,
                                                       ovf);
}

const struct gs_engine_ops gs_engine_tensorrt_llm = {
    .engine = GS_ENGINE_TENSORRT_LLM,
    .name = "tensorrt_llm",
    .block_size = 64,
    .budget_source =
        "TensorRT-LLM KvCacheConfig.free_gpu_memory_fraction (default 0.9 of free memory)",
    .block_source = "TensorRT-LLM tokens_per_block default 64 (plugin and build config)",
    .spec = GS_ENGINE_SPEC_NONE,
    .defaults = gs_engine_server_batch_defaults,
    .load = trtllm_load,
    .pool = trtllm_pool,
};
