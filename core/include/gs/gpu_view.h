/*
 * gpu_view.h - one GPU as every part of the core sees it, built once from
 * the catalog's fields (gs_gpu_view_build): what the driver reports, how its
 * board links GPUs, its hardware class and SM count, whether its memory is
 * the host's, and what other processes already hold when an engine starts.
 * Estimates, engine budgets, plan searches and fit advice take this one
 * struct instead of copying its fields one by one.
 */
#ifndef GS_GPU_VIEW_H
#define GS_GPU_VIEW_H

#include <stdbool.h>
#include <stdint.h>

struct gs_gpu_view {
    uint64_t total_bytes;    /* the driver-reported total (the marketed capacity when the
                                catalog has none); 0 = no GPU named */
    bool is_a100;            /* vLLM's batch defaults treat A100 as small */
    uint8_t link;            /* enum gs_link: how the board's GPUs talk */
    uint8_t hw;              /* enum gs_hw: formats and kernels it can run */
    uint64_t sm_count;       /* streaming multiprocessors; 0 = unknown */
    uint8_t sm_major;        /* the compute capability's major where the catalog's architecture
                                names it ("Blackwell (sm_120)": 12); 0 = its generation's first
                                (Blackwell's datacenter parts: 10) */
    bool unified_memory;     /* its memory is the host's (GB10, Jetson) */
    bool rocm;               /* an AMD GPU: the engines run their ROCm (HIP) paths */
    uint64_t in_use_bytes;   /* memory other processes hold when the engine starts (a desktop,
                                another model): not free to the engine */
    bool display;            /* a card with display outputs (GeForce, RTX workstation): a desktop
                                session may hold memory on it */
};

/* The catalog's facts about one GPU type (strings may be NULL). */
struct gs_gpu_facts {
    const char *id;           /* catalog id ("a100-sxm-80gb") */
    const char *architecture; /* "Hopper", "Ampere", ... */
    const char *interconnect; /* the board's link, in words ("NVLink 4 (NVSwitch)", "PCIe only") */
    uint64_t memory_bytes;    /* marketed */
    uint64_t usable_memory_bytes; /* driver-reported; 0 = unknown */
    uint64_t sm_count;        /* 0 = unknown */
    bool unified_memory;
    const char *vendor;       /* "NVIDIA", "AMD", "Intel" */
    const char *form_factor;  /* "SXM5", "PCIe (consumer card)", ... */
};

void gs_gpu_view_build(const struct gs_gpu_facts *facts, struct gs_gpu_view *out);

/* Whether a driver-reported total of `usable_bytes` is plausible for a GPU
 * marketed at `memory_bytes`: vendors market decimal gigabytes (or binary
 * ones) and drivers report what the board has, never more than the marketed
 * figure read as binary units (x 2^30 / 10^9 = 1.073741824; an MI300X's 192
 * GB reports 191.98 GiB, 1.0737 x). A figure above that is a typo or a wrong
 * unit. */
bool gs_gpu_usable_plausible(uint64_t memory_bytes, uint64_t usable_bytes);

/* Whether the catalog's form factor names a card with display outputs: a consumer card
 * (GeForce: HDMI and DisplayPort on every one) or a workstation card (RTX A6000, RTX 6000 Ada,
 * RTX PRO 6000 Workstation: four DisplayPort outputs each, NVIDIA's datasheets). Datacenter
 * cards (L40S, L4, A10) ship with their outputs absent or off. */
bool gs_gpu_display_from_catalog(const char *form_factor);

/* The board's link class (enum gs_link) from the catalog's words: PCIe unless
 * NVLink is named (and not as absent or "only" another link); a bridge joins
 * pairs; Hopper and Blackwell boards with NVLink have NVSwitch. */
uint8_t gs_gpu_link_from_catalog(const char *interconnect, const char *architecture);

#endif
