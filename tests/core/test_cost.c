/*
 * test_cost.c - the owned cost per GPU-hour (core/src/cost.c), by hand.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "gs/cost.h"

#include <math.h>

static void close_to(double a, double b, double tol)
{
    if (fabs(a - b) > tol * fmax(1, fabs(b)))
        fail_msg("%.9g is not %.9g", a, b);
}

/* An H100 SXM bought at $25,000 (TDP 700 W) in an 8-GPU node, the defaults:
 *   server 0.5 x 25,000 = 12,500; network 0.125 x 37,500 = 4,687.5
 *   capital 42,187.5 over 3 x 8,760 h = 1.605308219 $/h
 *   power (700 x 650/700 + (500 + 100) / 8) x 1.2 = (650 + 75) x 1.2 = 870 W
 *         -> 0.870 kW x $0.10 = 0.087 $/h
 *   owned cost 1.692308219 $/GPU-hour. */
static void test_h100_by_hand(void **state)
{
    (void)state;
    struct gs_tco_params p;
    gs_tco_defaults(&p);
    struct gs_tco t;
    gs_tco_compute(&p, 25000, 700, 8, &t);
    close_to(t.server_usd, 12500, 1e-12);
    close_to(t.network_usd, 4687.5, 1e-12);
    close_to(t.capital_per_hour, 42187.5 / 26280, 1e-12);
    assert_true(t.has_power);
    close_to(t.facility_watts, 870, 1e-12);
    close_to(t.power_per_hour, 0.087, 1e-12);
    close_to(t.per_hour, 42187.5 / 26280 + 0.087, 1e-12);
    /* no TDP in the catalog: capital only */
    gs_tco_compute(&p, 25000, 0, 8, &t);
    assert_false(t.has_power);
    close_to(t.per_hour, t.capital_per_hour, 1e-12);
    /* every component is the caller's: a colo at PUE 1.6 and $0.20/kWh, 5 years */
    p.pue = 1.6;
    p.usd_per_kwh = 0.20;
    p.amortization_years = 5;
    gs_tco_compute(&p, 25000, 700, 8, &t);
    close_to(t.power_per_hour, 725 * 1.6 / 1000 * 0.20, 1e-12);
    close_to(t.capital_per_hour, 42187.5 / (5 * 8760), 1e-12);
}

/* GB10 (DGX Spark, $3,999 for the whole desktop, 140 W chip) bought whole:
 *   no server share; network 0.125 x 3,999 = 499.875
 *   capital 4,498.875 over 26,280 h = 0.171190068 $/h
 *   power (140 x 650/700 + (0 + 100) / 1) x 1.2 = (130 + 100) x 1.2 = 276 W -> 0.0276 $/h
 * where the discrete-GPU parameters would charge a 1,999.5 server and 500 W of host. */
static void test_integrated_gpu_by_hand(void **state)
{
    (void)state;
    struct gs_tco_params p, whole;
    gs_tco_defaults(&p);
    gs_tco_integrated(&p, &whole);
    struct gs_tco t;
    gs_tco_compute(&whole, 3999, 140, 1, &t);
    close_to(t.server_usd, 0, 1e-12);
    close_to(t.network_usd, 499.875, 1e-12);
    close_to(t.capital_per_hour, 4498.875 / 26280, 1e-12);
    close_to(t.facility_watts, 276, 1e-12);
    close_to(t.per_hour, 4498.875 / 26280 + 0.0276, 1e-12);
    /* the caller's other choices carry over */
    p.pue = 1.5;
    p.network_fraction = 0;
    gs_tco_integrated(&p, &whole);
    gs_tco_compute(&whole, 3999, 140, 1, &t);
    close_to(t.capital_per_hour, 3999.0 / 26280, 1e-12);
    close_to(t.facility_watts, 230 * 1.5, 1e-12);
}

/* What buying really costs (issue 34 point 5), the same H100 at $25,000 (42,187.5 with its
 * host and network share; 0.087 $/h of power):
 *   one GPU upfront 42,187.5; a month (730 h) at full use 1.605308219 x 730 + 0.087 x 730 =
 *   1,235.385 $;
 *   against renting at $2.49: buying wins above 1.605308219 / (2.49 - 0.087) = 0.66804 of the
 *   hours used; at $1.50 above 1.1361 - never;
 *   used 60% of the hours: capital 1.605308219 / 0.6 = 2.675513699 $/used hour, + 0.087 =
 *   2.762513699; a month 1.605308219 x 730 + 0.087 x 0.6 x 730 = 1,209.999 $;
 *   financed at 8% over 3 years: 42,187.5 x 0.08 / (1 - 1.08^-3) = 16,370.16 a year ->
 *   1.868740 $/h (the capital recovery factor, 0.388034 of the price a year);
 *   staff at $1,000 per GPU and year: 1,000 / 8,760 = 0.114155 $/h. */
static void test_buying_by_hand(void **state)
{
    (void)state;
    struct gs_tco_params p;
    gs_tco_defaults(&p);
    assert_true(p.utilization == 1 && p.staff_usd_per_gpu_year == 0 && p.cost_of_capital == 0);
    struct gs_tco t;
    gs_tco_compute(&p, 25000, 700, 8, &t);
    close_to(t.upfront_usd, 42187.5, 1e-12);
    close_to(t.per_month, (42187.5 / 26280 + 0.087) * 730, 1e-12);
    close_to(gs_tco_breakeven_utilization(&t, &p, 2.49), (42187.5 / 26280) / (2.49 - 0.087), 1e-12);
    close_to(gs_tco_breakeven_utilization(&t, &p, 2.49), 0.66804, 1e-4);
    assert_true(gs_tco_breakeven_utilization(&t, &p, 1.50) > 1); /* renting wins even at full use */
    assert_true(gs_tco_breakeven_utilization(&t, &p, 0.05) == 0); /* rent below the power bill */
    assert_true(gs_tco_breakeven_utilization(&t, &p, 0) == 0);
    p.utilization = 0.6;
    gs_tco_compute(&p, 25000, 700, 8, &t);
    close_to(t.capital_per_hour, 42187.5 / 26280 / 0.6, 1e-12);
    close_to(t.per_hour, 42187.5 / 26280 / 0.6 + 0.087, 1e-12);
    close_to(t.per_month, 42187.5 / 26280 * 730 + 0.087 * 0.6 * 730, 1e-12);
    /* the break-even does not depend on the utilization assumed */
    close_to(gs_tco_breakeven_utilization(&t, &p, 2.49), 0.66804, 1e-4);
    p.utilization = 1;
    p.cost_of_capital = 0.08;
    gs_tco_compute(&p, 25000, 700, 8, &t);
    close_to(t.capital_per_hour, 42187.5 * 0.08 / (1 - pow(1.08, -3)) / 8760, 1e-12);
    close_to(t.capital_per_hour, 1.868740, 1e-6);
    p.cost_of_capital = 0;
    p.staff_usd_per_gpu_year = 1000;
    gs_tco_compute(&p, 25000, 700, 8, &t);
    close_to(t.staff_per_hour, 1000.0 / 8760, 1e-12);
    close_to(t.per_hour, 42187.5 / 26280 + 1000.0 / 8760 + 0.087, 1e-12);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_h100_by_hand),
        cmocka_unit_test(test_integrated_gpu_by_hand),
        cmocka_unit_test(test_buying_by_hand),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
