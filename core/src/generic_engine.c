/*
 * generic_engine.c - gpusizer's generic serving profile as an engine module
 * (see gs/engine.h): everything the GPU reports, less the weights, an
 * activation peak worked out as vLLM's profile run would, and the CUDA
 * context with cuBLAS's workspace; a contiguous per-token cache.
 */
#include "gs/engine.h"

#include "gs/runtime.h"
#include "gs/units.h"
#include "gs/vllm.h"

static void generic_load(const struct gs_inference_input *in, const struct gs_engine_stage *stage,
                         struct gs_inference_result *out, uint64_t *non_torch, bool *ovf)
{
    out->budget.activation_bytes = gs_vllm_engine_peak(
        in, stage, out, gs_vllm_other_engine_profile(), stage->last_stage, ovf);
    *non_torch = GS_CUDA_CONTEXT_BYTES + GS_CUBLAS_WORKSPACE_BYTES;
}

static void generic_pool(const struct gs_inference_input *in, struct gs_inference_result *out,
                         uint64_t used, bool *ovf)
{
    struct gs_budget *b = &out->budget;
    used = gs_add(used, in->gpu.in_use_bytes, ovf); /* another process's memory is not ours */
    b->rule = "generic: everything the GPU reports, minus weights, the activation peak and the "
              "CUDA context with cuBLAS workspace";
    b->fraction_permille = 1000;
    b->requested_bytes = b->total_bytes;
    b->kv_bytes = (int64_t)b->total_bytes - (int64_t)used;
}

const struct gs_engine_ops gs_engine_generic = {
    .engine = GS_ENGINE_GENERIC,
    .name = "generic",
    .block_size = 1,
    .budget_source = "gpusizer's generic profile: CUDA context 287,047,680 B (pytorch PR #86509) "
                     "and a 32 MiB cuBLAS workspace (pytorch PR #120925)",
    .block_source = "generic profile: contiguous per-token cache, no paging",
    .spec = GS_ENGINE_SPEC_NONE,
    .defaults = gs_engine_server_batch_defaults,
    .load = generic_load,
    .pool = generic_pool,
};
