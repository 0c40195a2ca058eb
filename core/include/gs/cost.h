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
    /* what the defaults leave out, named so a buyer can put them in (0 and 1: not counted) */
    double utilization;             /* the share of hours the GPU does paid work (default 1):
                                       the fixed costs spread over the used hours only */
    double staff_usd_per_gpu_year;  /* operations staff per GPU and year (default 0) */
    double cost_of_capital;         /* the annual rate the purchase is financed at (default 0:
                                       straight-line); above 0 the capital is an annuity */
};

void gs_tco_defaults(struct gs_tco_params *params);

struct gs_tco {
    double gpu_usd, server_usd, network_usd; /* capital per GPU */
    double upfront_usd;                      /* their sum: what one GPU costs to buy */
    double capital_per_hour;                 /* per used GPU-hour over the amortization period
                                                (financed at cost_of_capital) */
    double staff_per_hour;                   /* per used GPU-hour */
    bool has_power;                          /* the GPU's TDP is known */
    double facility_watts;                   /* per GPU, host and network shares and PUE included */
    double power_per_hour;                   /* USD per GPU-hour */
    double per_hour;                         /* capital + staff + power, USD per used GPU-hour */
    double per_month;                        /* what one GPU costs a month of 730 hours, used or
                                                not: the fixed costs and the power of the used
                                                share */
};

/* The utilization above which owning one GPU costs less than renting it at `rent_per_hour`
 * USD per GPU-hour: the fixed costs per hour of the period (capital and staff at full use)
 * over what renting saves beyond the power (rent - power). Above 1 when renting is cheaper even
 * at full use; 0 when there is no answer (`rent_per_hour` not above the power cost). */
double gs_tco_breakeven_utilization(const struct gs_tco *tco, const struct gs_tco_params *params,
                                    double rent_per_hour);

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
