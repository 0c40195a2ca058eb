/* recommend.c - every candidate GPU's plan for one request, ranked (gs/recommend.h). */
#include "gs/recommend.h"

#include "gs/rank.h"

#include <stdlib.h>
#include <string.h>

size_t gs_recommend_slots(size_t n)
{
    size_t size = 16;
    while (size < 2 * n)
        size *= 2;
    return size;
}

/* The search inputs of an entry: its spec's bytes with the price taken out (the caller built
 * the spec on zeroed memory, so equal inputs are equal bytes). */
static void search_key(const struct gs_recommend_entry *e, struct gs_plan_gpu *key)
{
    memcpy(key, &e->spec, sizeof(*key));
    key->price_per_gpu_hour = 0;
}

/* The first entry before `i` with i's search inputs, or i itself (then recorded): an
 * open-addressed table of entry indices + 1 keyed by an FNV-1a hash of the inputs. */
static size_t same_inputs(const struct gs_recommend_memory *m,
                          const struct gs_recommend_entry *entries, size_t i)
{
    struct gs_plan_gpu key, other;
    search_key(&entries[i], &key);
    const unsigned char *bytes = (const unsigned char *)&key;
    uint64_t h = 1469598103934665603ull;
    for (size_t k = 0; k < sizeof(key); k++)
        h = (h ^ bytes[k]) * 1099511628211ull;
    const size_t mask = m->slot_count - 1;
    for (size_t slot = h & mask;; slot = (slot + 1) & mask) {
        if (m->slots[slot] == 0) {
            m->slots[slot] = i + 1;
            return i;
        }
        const size_t j = m->slots[slot] - 1;
        search_key(&entries[j], &other);
        if (memcmp(&other, &key, sizeof(key)) == 0)
            return j;
    }
}

enum gs_status gs_recommend_search(const struct gs_model_spec *model,
                                   const struct gs_workload *workload,
                                   const struct gs_plan_limits *limits,
                                   const struct gs_demand *demand,
                                   const struct gs_efficiency *eff, struct gs_plan_memo *memo,
                                   struct gs_recommend_entry *entries, size_t n,
                                   const struct gs_recommend_memory *memory, size_t *searches,
                                   size_t *done, struct gs_error *err)
{
    const bool training = workload->mode == GS_MODE_TRAINING;
    *searches = 0;
    *done = 0;
    if (memory->slot_count < gs_recommend_slots(n) ||
        (memory->slot_count & (memory->slot_count - 1)) != 0)
        return GS_ERR_NOMEM;
    for (size_t i = 0; i < n; i++) {
        if (i > 0 && memory->stop != NULL && memory->stop(memory->ctx, i))
            return GS_ERR_BUSY;
        struct gs_recommend_entry *e = &entries[i];
        const size_t twin = same_inputs(memory, entries, i);
        if (twin != i) { /* searched already: the same inputs give the same plan */
            const struct gs_plan *plans = memory->plan(memory->ctx, entries[twin].searched);
            if (plans == NULL)
                return GS_ERR_NOMEM;
            struct gs_plan plan = *plans;
            e->searched = entries[twin].searched;
            e->why = gs_plan_reprice(&e->spec, limits, entries[twin].why, &plan);
            e->rank_cost = gs_rank_cost(&plan, training);
            e->gpu_count = plan.gpu_count;
            *done = i + 1;
            continue;
        }
        struct gs_plan *plan = memory->plan(memory->ctx, *searches);
        if (plan == NULL)
            return GS_ERR_NOMEM;
        e->searched = (*searches)++;
        const enum gs_status st = gs_plan_search(model, workload, &e->spec, limits, demand, eff,
                                                 0, memo, plan, &e->why, err);
        if (st != GS_OK)
            return st;
        e->rank_cost = gs_rank_cost(plan, training);
        e->gpu_count = plan->gpu_count;
        *done = i + 1;
    }
    return GS_OK;
}

static int by_rank(const void *a, const void *b)
{
    const struct gs_recommend_entry *x = *(const struct gs_recommend_entry *const *)a;
    const struct gs_recommend_entry *y = *(const struct gs_recommend_entry *const *)b;
    return gs_rank_compare_figures(x->rank_cost, x->gpu_count, x->id, y->rank_cost,
                                   y->gpu_count, y->id);
}

size_t gs_recommend_order(struct gs_recommend_entry *entries, size_t n,
                          struct gs_recommend_entry **order)
{
    size_t good = 0;
    for (size_t i = 0; i < n; i++) {
        if (entries[i].why == GS_REJECT_NONE && !entries[i].spec.has_price)
            entries[i].why = GS_REJECT_NO_PRICE;
        if (entries[i].why == GS_REJECT_NONE)
            order[good++] = &entries[i];
    }
    qsort(order, good, sizeof(*order), by_rank);
    return good;
}

void gs_recommend_plan(const struct gs_recommend_entry *entry, const struct gs_plan *searched,
                       const struct gs_plan_limits *limits, struct gs_plan *out)
{
    *out = *searched;
    (void)gs_plan_reprice(&entry->spec, limits, GS_REJECT_NONE, out);
}
