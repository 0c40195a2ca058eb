/*
 * cost.c - owned GPU cost per hour (see gs/cost.h).
 *
 * Defaults, each a published operator's figure:
 * - server: an 8 x H100 node costs about $300-350k with its GPUs
 *   (v2-pseo-ai.pages.dev/tools/gpu-tco-analysis, "H100 Node CapEx"), the
 *   eight GPUs about $200-240k of it: the host is about half the GPUs' price;
 * - network: transceivers, cabling and top-of-rack switches add 10-15% to
 *   the hardware capital (the same page): 12.5%;
 * - power: an H100 SXM sustains about 650 of its 700 W in training, a host
 *   draws 300-500 W and the network 5-10% of the IT load, about 100 W a
 *   node; PUE 1.2 is the modern hyperscale figure (1.10-1.30, Uptime
 *   Institute Global Data Center Survey 2024) - all from
 *   lynx-cortex.pages.dev, "Datacenter economics: power, PUE";
 * - electricity $0.10 per kWh (the $0.06-0.12 range of the TCO page above);
 * - 3 years, the amortization gpusizer's purchase pricing already used;
 * - utilization 1, no staff and no cost of capital: not counted unless the request gives them
 *   (constraints.tco), and the answer says so. With a rate r the capital is repaid as an annuity,
 *   price x r / (1 - (1 + r)^-years) a year (the capital recovery factor); with utilization u
 *   the fixed costs (capital, staff) fall on the used hours only, divided by u.
 */
#include "gs/cost.h"

#include <math.h>

#define HOURS_PER_YEAR 8760.0

void gs_tco_defaults(struct gs_tco_params *p)
{
    p->amortization_years = 3;
    p->server_fraction = 0.5;
    p->network_fraction = 0.125;
    p->power_draw_fraction = 650.0 / 700.0;
    p->host_watts_per_node = 500;
    p->network_watts_per_node = 100;
    p->pue = 1.2;
    p->usd_per_kwh = 0.10;
    p->utilization = 1;
    p->staff_usd_per_gpu_year = 0;
    p->cost_of_capital = 0;
}

void gs_tco_integrated(const struct gs_tco_params *p, struct gs_tco_params *out)
{
    *out = *p;
    out->server_fraction = 0;
    out->host_watts_per_node = 0;
}

void gs_tco_compute(const struct gs_tco_params *p, double price_usd, double tdp_watts,
                    uint64_t gpus_per_node, struct gs_tco *out)
{
    const double node = (double)(gpus_per_node ? gpus_per_node : 1);
    out->gpu_usd = price_usd;
    out->server_usd = price_usd * p->server_fraction;
    out->network_usd = (out->gpu_usd + out->server_usd) * p->network_fraction;
    out->upfront_usd = out->gpu_usd + out->server_usd + out->network_usd;
    const double years = p->amortization_years;
    /* the yearly payment: straight-line, or the capital recovery factor at a rate */
    const double yearly = years <= 0 ? 0
                          : p->cost_of_capital > 0
                              ? out->upfront_usd * p->cost_of_capital /
                                    (1 - pow(1 + p->cost_of_capital, -years))
                              : out->upfront_usd / years;
    const double used = p->utilization > 0 && p->utilization <= 1 ? p->utilization : 1;
    out->capital_per_hour = yearly / HOURS_PER_YEAR / used;
    out->staff_per_hour = p->staff_usd_per_gpu_year / HOURS_PER_YEAR / used;
    out->has_power = tdp_watts > 0;
    out->facility_watts = 0;
    out->power_per_hour = 0;
    if (out->has_power) {
        const double it = tdp_watts * p->power_draw_fraction +
                          (p->host_watts_per_node + p->network_watts_per_node) / node;
        out->facility_watts = it * p->pue;
        out->power_per_hour = out->facility_watts / 1000 * p->usd_per_kwh;
    }
    out->per_hour = out->capital_per_hour + out->staff_per_hour + out->power_per_hour;
    /* a month of 730 hours: the fixed costs whatever the use, the power of the used hours */
    out->per_month = (out->capital_per_hour + out->staff_per_hour) * used * HOURS_PER_YEAR / 12 +
                     out->power_per_hour * used * HOURS_PER_YEAR / 12;
}

double gs_tco_breakeven_utilization(const struct gs_tco *t, const struct gs_tco_params *p,
                                    double rent_per_hour)
{
    if (rent_per_hour <= 0)
        return 0;
    const double used = p->utilization > 0 && p->utilization <= 1 ? p->utilization : 1;
    const double fixed_full_use = (t->capital_per_hour + t->staff_per_hour) * used;
    const double saved = rent_per_hour - t->power_per_hour;
    return saved > 0 ? fixed_full_use / saved : 0;
}
