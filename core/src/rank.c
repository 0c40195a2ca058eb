/* rank.c - the order recommendations are listed in (rank.h). */
#include "gs/rank.h"

#include <string.h>

double gs_rank_cost(const struct gs_plan *plan, bool training)
{
    if (training && plan->has_throughput && plan->total_cost > 0)
        return plan->total_cost;
    return plan->cost_per_hour;
}

int gs_rank_compare_figures(double a_cost, uint64_t a_gpus, const char *a_id, double b_cost,
                            uint64_t b_gpus, const char *b_id)
{
    if (a_cost != b_cost)
        return a_cost < b_cost ? -1 : 1;
    if (a_gpus != b_gpus)
        return a_gpus < b_gpus ? -1 : 1;
    return strcmp(a_id ? a_id : "", b_id ? b_id : "");
}

int gs_rank_compare(const struct gs_plan *a, const char *a_id, const struct gs_plan *b,
                    const char *b_id, bool training)
{
    return gs_rank_compare_figures(gs_rank_cost(a, training), a->gpu_count, a_id,
                                   gs_rank_cost(b, training), b->gpu_count, b_id);
}
