/*
 * gpu_view.c - one GPU as the core sees it, from the catalog's fields (see
 * gs/gpu_view.h).
 */
#include "gs/gpu_view.h"

#include "gs/capability.h"
#include "gs/runtime.h"

#include <string.h>

uint8_t gs_gpu_link_from_catalog(const char *interconnect, const char *architecture)
{
    const char *ic = interconnect != NULL ? interconnect : "";
    const char *arch = architecture != NULL ? architecture : "";
    if (strstr(ic, "NVLink") == NULL || strstr(ic, "only") != NULL || strstr(ic, "no NVLink") != NULL)
        return GS_LINK_PCIE;
    if (strstr(ic, "bridge") != NULL) /* pairs joined by a bridge, no switch */
        return GS_LINK_NVLINK;
    if (strstr(arch, "Hopper") != NULL || strstr(arch, "Blackwell") != NULL)
        return GS_LINK_NVSWITCH;
    return GS_LINK_NVLINK;
}

bool gs_gpu_display_from_catalog(const char *form_factor)
{
    return form_factor != NULL &&
           (strstr(form_factor, "consumer") != NULL || strstr(form_factor, "workstation") != NULL);
}

bool gs_gpu_usable_plausible(uint64_t memory_bytes, uint64_t usable_bytes)
{
    /* memory_bytes x 1.073741824, exactly and without overflow for any u64 below 2^57 */
    const uint64_t giga = 1000000000ULL, extra = 73741824ULL; /* 2^30 - 10^9 */
    if (memory_bytes > ((uint64_t)1 << 57))
        return true;
    const uint64_t limit = memory_bytes + (memory_bytes / giga) * extra +
                           (memory_bytes % giga) * extra / giga;
    return usable_bytes <= limit;
}

/* The major of an "sm_NNN" (or "sm_NN") the architecture names: "Blackwell Ultra (sm_103)" 10,
 * "Blackwell (sm_121)" 12; 0 where it names none. */
static uint8_t sm_major(const char *architecture)
{
    const char *sm = architecture != NULL ? strstr(architecture, "sm_") : NULL;
    if (sm == NULL)
        return 0;
    unsigned digits = 0, value = 0;
    for (const char *c = sm + 3; *c >= '0' && *c <= '9' && digits < 3; c++, digits++)
        value = value * 10 + (unsigned)(*c - '0');
    return digits >= 2 ? (uint8_t)(value / 10) : 0;
}

void gs_gpu_view_build(const struct gs_gpu_facts *f, struct gs_gpu_view *out)
{
    memset(out, 0, sizeof(*out));
    out->total_bytes = f->usable_memory_bytes ? f->usable_memory_bytes : f->memory_bytes;
    out->is_a100 = f->id != NULL && strncmp(f->id, "a100", 4) == 0;
    out->link = gs_gpu_link_from_catalog(f->interconnect, f->architecture);
    out->hw = (uint8_t)gs_hw_from_architecture(f->architecture);
    out->sm_count = f->sm_count;
    out->sm_major = sm_major(f->architecture);
    out->unified_memory = f->unified_memory;
    out->rocm = f->vendor != NULL && strcmp(f->vendor, "AMD") == 0;
    out->display = gs_gpu_display_from_catalog(f->form_factor);
}
