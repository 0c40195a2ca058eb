/*
 * estimate_notes.h - what the parts of gs_estimate_compute share (not a public
 * header): the writers of an estimate's assumptions and warnings (appending,
 * dropping what does not fit GS_ESTIMATE_NOTES_MAX, and nothing where the
 * estimate is NULL - a figure worked out again for another layout; the
 * strings are borrowed static text), ceil division, and the runtime
 * overheads' defaults.
 */
#ifndef GS_ESTIMATE_NOTES_H
#define GS_ESTIMATE_NOTES_H

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

#endif
