/*
 * cost.h - what an owned GPU costs per hour: the purchase price and its
 * share of the server and the network, spread over the amortization period,
 * plus the power it and its share of the host draw, through the facility's
 * PUE. Every component is a named input with a default an operator would
 * recognise (see cost.c for the sources) and can override.
 *
 * Pure arithmetic on doubles (money is an estimate, not a byte count).
 */
#ifndef GS_COST_H
#define GS_COST_H

#include <stdbool.h>
#include <stdint.h>

struct gs_tco_params {
    double amortization_years;      /* straight-line, continuous use */
    double server_fraction;         /* host (CPUs, memory, chassis, NICs, storage) per GPU, as a
                                       share of the GPU's price */
    double network_fraction;        /* switches, transceivers and cables, as a share of GPUs and
                                       servers */
    double power_draw_fraction;     /* sustained draw as a share of the GPU's TDP */
    double host_watts_per_node;     /* CPUs, memory, fans, NICs */
    double network_watts_per_node;  /* the node's share of switches */
    double pue;                     /* facility power over IT power */
    double usd_per_kwh;
};

void gs_tco_defaults(struct gs_tco_params *params);

struct gs_tco {
    double gpu_usd, server_usd, network_usd; /* capital per GPU */
    double capital_per_hour;                 /* per GPU-hour over the amortization period */
    bool has_power;                          /* the GPU's TDP is known */
    double facility_watts;                   /* per GPU, host and network shares and PUE included */
    double power_per_hour;                   /* USD per GPU-hour */
    double per_hour;                         /* capital + power, USD per GPU-hour */
};

/* The parameters for an integrated GPU, one that shares its chip and memory
 * with the CPU (unified memory: GB10 in the DGX Spark, Jetson): it cannot be
 * bought without its host, so its price is the whole system's and its TDP
 * the whole chip's. No server share of the price and no host watts; the
 * network terms stay (units are clustered over their own NICs). */
void gs_tco_integrated(const struct gs_tco_params *params, struct gs_tco_params *out);

/* The owned cost of one GPU of `price_usd` and `tdp_watts` (0 = unknown: no
 * power term) in nodes of `gpus_per_node`. */
void gs_tco_compute(const struct gs_tco_params *params, double price_usd, double tdp_watts,
                    uint64_t gpus_per_node, struct gs_tco *out);

#endif
