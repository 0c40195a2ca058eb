/* gpu.c - fit verdict against one GPU (see gs/gpu.h). */
#include "gs/gpu.h"

enum gs_status gs_fit_check(uint64_t required_bytes, const struct gs_gpu *gpu, struct gs_fit *out,
                            struct gs_error *err)
{
    const bool marketed = gpu->usable_memory_bytes == 0;
    const uint64_t usable = marketed ? gpu->memory_bytes : gpu->usable_memory_bytes;
    if (usable == 0)
        return gs_error_add(err, GS_ERR_INVALID, "/gpu", "the GPU has no memory capacity on record");
    if (usable > INT64_MAX || required_bytes > INT64_MAX)
        return gs_error_add(err, GS_ERR_RANGE, "", "memory figures exceed the signed 64-bit range");
    out->usable_bytes = usable;
    out->usable_is_marketed = marketed;
    out->basis = GS_FIT_CAPACITY;
    out->limit_bytes = usable;
    out->fits = required_bytes <= usable;
    out->headroom_bytes = (int64_t)usable - (int64_t)required_bytes;
    return GS_OK;
}

int64_t gs_fit_engine_limit(const struct gs_inference_result *r)
{
    const struct gs_budget *b = &r->budget;
    return b->kv_bytes + (int64_t)(b->weights_bytes + b->activation_bytes + b->non_torch_bytes +
                                   b->cuda_graph_bytes + r->state_unbudgeted_bytes +
                                   r->kv_unbudgeted_bytes + r->request_table_bytes);
}

void gs_fit_apply_serving(struct gs_fit *fit, const struct gs_inference_result *r)
{
    if (r == NULL || !r->has_budget)
        return;
    fit->basis = GS_FIT_ENGINE_BUDGET;
    const int64_t limit = gs_fit_engine_limit(r);
    fit->limit_bytes = limit > 0 ? (uint64_t)limit : 0;
    fit->fits = r->holds_batch;
    /* the pool's room for sequences: the budget, and what the engine's pool holds past it */
    fit->headroom_bytes =
        r->budget.kv_bytes + (int64_t)r->kv_unbudgeted_bytes - (int64_t)r->kv_needed_bytes;
}
