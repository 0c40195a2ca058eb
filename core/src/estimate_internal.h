/*
 * estimate_internal.h - what the three parts of gs_estimate_compute share
 * (not a public header): estimate.c (the model's parameters, the common
 * notes, the dispatch and the total), estimate_serving.c and
 * estimate_training.c. The note writers append to an estimate's assumptions
 * and warnings, dropping what does not fit GS_ESTIMATE_NOTES_MAX; the strings
 * are borrowed (static text).
 */
#ifndef GS_ESTIMATE_INTERNAL_H
#define GS_ESTIMATE_INTERNAL_H

#include "gs/estimate.h"

#include <stdbool.h>
#include <stdint.h>

uint64_t est_div_up(uint64_t n, uint64_t d); /* ceil(n / d), d 0 read as 1 */
void est_assume(struct gs_estimate *e, const char *name, const char *detail, const char *source);
void est_assume_value(struct gs_estimate *e, const char *name, uint64_t value, const char *detail,
                      const char *source);
void est_warn(struct gs_estimate *e, const char *code, const char *detail);

/* An override when given, else the default. */
uint64_t est_overhead_value(bool has, uint64_t value, uint64_t fallback);
/* The assumption naming the CUDA context's bytes (given or PyTorch's lazy-loading figure). */
void est_assume_context(struct gs_estimate *e, const struct gs_overrides *o, uint64_t bytes);

/* The short names the three files use (static inline: no symbol of these names is made,
 * so libc's warn(3) and the like stay untouched). */
static inline uint64_t div_up(uint64_t n, uint64_t d)
{
    return est_div_up(n, d);
}
static inline void assume(struct gs_estimate *e, const char *name, const char *detail,
                          const char *source)
{
    est_assume(e, name, detail, source);
}
static inline void assume_value(struct gs_estimate *e, const char *name, uint64_t value,
                                const char *detail, const char *source)
{
    est_assume_value(e, name, value, detail, source);
}
static inline void warn(struct gs_estimate *e, const char *code, const char *detail)
{
    est_warn(e, code, detail);
}
static inline uint64_t overhead_value(bool has, uint64_t value, uint64_t fallback)
{
    return est_overhead_value(has, value, fallback);
}
static inline void assume_context(struct gs_estimate *e, const struct gs_overrides *o,
                                  uint64_t bytes)
{
    est_assume_context(e, o, bytes);
}

/* The serving and the training halves; `e` holds the model's parameters on entry. */
enum gs_status est_compute_inference(const struct gs_model_spec *m, const struct gs_workload *w,
                                     struct gs_estimate *e, struct gs_error *err);
enum gs_status est_compute_training(const struct gs_model_spec *m, const struct gs_workload *w,
                                    struct gs_estimate *e, struct gs_error *err);

#endif
