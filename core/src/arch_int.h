/* arch_int.h - what arch.c and arch_count.c share inside core. */
#ifndef GS_ARCH_INT_H
#define GS_ARCH_INT_H

#include "gs/arch.h"

/* Fills every field of *out for a validated architecture; false when the
 * arithmetic overflows 64 bits. */
bool gs_arch_count_family(const struct gs_arch *arch, struct gs_param_count *out);

#endif
