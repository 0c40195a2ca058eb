/* rank.c - the order recommendations are listed in (rank.h). */
#include "gs/rank.h"

#include <string.h>

double gs_rank_cost(const struct gs_plan *plan, bool training)
{
    if (training && plan->has_throughput && plan->total_cost > 0)
        return plan->total_cost;
    return plan->cost_per_hour;
}

int gs_rank_compare(const struct gs_plan *a, const char *a_id, const struct gs_plan *b,
                    const char *b_id, bool training)
{
    const double ca = gs_rank_cost(a, training), cb = gs_rank_cost(b, training);
    if (ca != cb)
        return ca < cb ? -1 : 1;
    if (a->gpu_count != b->gpu_count)
        return a->gpu_count < b->gpu_count ? -1 : 1;
    return strcmp(a_id ? a_id : "", b_id ? b_id : "");
}
