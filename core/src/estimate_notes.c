/*
 * estimate_notes.c - the notes and helpers the parts of gs_estimate_compute
 * share (see estimate_notes.h).
 */
#include "estimate_notes.h"

#include "gs/runtime.h"
#include "gs/units.h"

uint64_t est_div_up(uint64_t n, uint64_t d)
{
    return gs_div_ceil(n, d ? d : 1);
}

void est_assume(struct gs_estimate *e, const char *name, const char *detail,
                const char *source)
{
    if (e != NULL && e->assumption_count < GS_ESTIMATE_NOTES_MAX)
        e->assumptions[e->assumption_count++] = (struct gs_assumption){name, detail, source, false, 0};
}

void est_assume_value(struct gs_estimate *e, const char *name, uint64_t value,
                      const char *detail, const char *source)
{
    if (e != NULL && e->assumption_count < GS_ESTIMATE_NOTES_MAX)
        e->assumptions[e->assumption_count++] =
            (struct gs_assumption){name, detail, source, true, value};
}

void est_warn(struct gs_estimate *e, const char *code, const char *detail)
{
    if (e != NULL && e->warning_count < GS_ESTIMATE_NOTES_MAX)
        e->warnings[e->warning_count++] = (struct gs_warning){code, detail};
}

uint64_t est_overhead_value(bool has, uint64_t value, uint64_t fallback)
{
    return has ? value : fallback;
}

void est_assume_context(struct gs_estimate *e, const struct gs_overrides *o, uint64_t bytes)
{
    assume_value(e, "cuda_context_bytes", bytes,
                 o->has_cuda_context_bytes
                     ? "CUDA context per GPU, as given in overrides"
                     : "CUDA context with lazy module loading, per GPU (eager loading on older "
                       "CUDA/PyTorch costs 600 MB to over 1 GB)",
                 "pytorch/pytorch PR #86509 (287,047,680 B lazy vs 666,632,192 B eager)");
}
