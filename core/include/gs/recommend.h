/*
 * recommend.h - every candidate GPU's plan for one request, ranked: /v1/recommend's search.
 *
 * Each GPU is searched with gs_plan_search, once per distinct set of search inputs:
 * candidates whose gs_plan_gpu is the same but for the price (a price list's offers of one
 * GPU) share one search and are priced at their own (gs_plan_reprice). The memory is the
 * caller's (core allocates nothing): a hash table of slots, and the plans through a callback
 * that may grow them; a second callback may stop the search between two candidates (the
 * server's time budget).
 */
#ifndef GS_RECOMMEND_H
#define GS_RECOMMEND_H

#include "gs/plan.h"
#include "gs/status.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One candidate GPU. */
struct gs_recommend_entry {
    struct gs_plan_gpu spec;  /* in: the GPU as the search sees it, at its own price */
    const char *id;           /* in: its catalog id (the ranking's last tie-break) */
    size_t searched;          /* out: the index of the plan it takes (gs_recommend_memory) */
    enum gs_plan_reject why;  /* out: the verdict at its own price */
    double rank_cost;         /* out: gs_rank_cost at its own price, when why is NONE */
    uint64_t gpu_count;       /* out: its plan's GPUs, when why is NONE */
};

/* What the caller lends the search. */
struct gs_recommend_memory {
    size_t *slots;     /* zeroed, a power of two of at least twice the entries */
    size_t slot_count;
    /* The plan at `index` (the searches are numbered from 0 in order), room made for it;
     * NULL when out of memory. Earlier pointers may move: the search keeps indices. */
    struct gs_plan *(*plan)(void *ctx, size_t index);
    /* Optional: true to stop before searching entry `next` (never asked for the first). */
    bool (*stop)(void *ctx, size_t next);
    void *ctx;
};

/* The slots a table for n entries needs (a power of two, at least 16). */
size_t gs_recommend_slots(size_t n);

/* Searches every entry in order. GS_OK with each entry's outputs and *searches (plans made);
 * GS_ERR_BUSY when memory->stop stopped it (*done: the entries finished); GS_ERR_NOMEM; or
 * the request's validation error from gs_plan_search (err says which field). */
enum gs_status gs_recommend_search(const struct gs_model_spec *model,
                                   const struct gs_workload *workload,
                                   const struct gs_plan_limits *limits,
                                   const struct gs_demand *demand,
                                   const struct gs_efficiency *eff, struct gs_plan_memo *memo,
                                   struct gs_recommend_entry *entries, size_t n,
                                   const struct gs_recommend_memory *memory, size_t *searches,
                                   size_t *done, struct gs_error *err);

/* The qualifying entries (why GS_REJECT_NONE; an unpriced one is set to GS_REJECT_NO_PRICE
 * first) into `order` in rank order (gs_rank_compare); returns how many. */
size_t gs_recommend_order(struct gs_recommend_entry *entries, size_t n,
                          struct gs_recommend_entry **order);

/* An entry's plan at its own price: the plan it took, re-priced. */
void gs_recommend_plan(const struct gs_recommend_entry *entry, const struct gs_plan *searched,
                       const struct gs_plan_limits *limits, struct gs_plan *out);

#endif
