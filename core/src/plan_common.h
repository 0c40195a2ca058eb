/*
 * plan_common.h - the plan search's private pieces (not a public header): what the serving
 * search (plan.c) and the training search (plan_training.c) share, and the training search's
 * entry. gs_plan_search (gs/plan.h) is the public door to both.
 */
#ifndef GS_PLAN_COMMON_H
#define GS_PLAN_COMMON_H

#include "gs/plan.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PLAN_COUNTS_MAX 256 /* GPU counts tried: every count up to a node, then whole nodes */

/* GPUs per node (the catalog's, 8 when it has none). */
uint64_t plan_node_size(const struct gs_plan_gpu *gpu);
/* The widest tensor degree: the node, or the limit's max_tensor when smaller. */
uint64_t plan_max_tensor(const struct gs_plan_gpu *gpu, const struct gs_plan_limits *l);
/* GPU counts in the order they are tried, at most `max`: every count up to a node, then whole
 * nodes. Returns how many. */
size_t plan_gpu_counts(uint64_t node, uint64_t max, uint64_t counts[PLAN_COUNTS_MAX]);
/* Whether the degrees suit the model (gs_parallelism_validate; without an architecture, one
 * GPU's layout only). */
bool plan_layout_valid(const struct gs_model_spec *m, const struct gs_parallelism *par);
/* Nodes `gpus` GPUs take at `node` a node. */
uint64_t plan_nodes_for(uint64_t gpus, uint64_t node);
/* The plan's price per hour, per million tokens or for the whole run, from the GPU's price. */
void plan_price(const struct gs_plan_gpu *gpu, struct gs_plan *plan);
/* The slowest link per GPU of a group of `gpus`, one direction, bytes/s. */
double plan_group_link(const struct gs_plan_gpu *g, uint64_t gpus);

/* The training search for one GPU type (gs_plan_search's training half): `eff` is the GPU's
 * (gs_efficiency_for_hw), `exact` a GPU count to hold to (0: any), `memo` gs_plan_search's
 * (NULL: none). */
enum gs_status plan_search_training(const struct gs_model_spec *m, const struct gs_workload *w,
                                    const struct gs_plan_gpu *gpu, const struct gs_plan_limits *l,
                                    const struct gs_demand *d, const struct gs_efficiency *eff,
                                    uint64_t exact, struct gs_plan_memo *memo, struct gs_plan *out,
                                    enum gs_plan_reject *why, struct gs_error *err);

#endif
