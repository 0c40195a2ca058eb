/*
 * rank.h - the order recommendations are listed in: the cheapest first (per
 * hour for serving, the whole run for training with a token count), then the
 * fewest GPUs, then the GPU's catalog id so the order is total and stable.
 */
#ifndef GS_RANK_H
#define GS_RANK_H

#include "gs/plan.h"

#include <stdbool.h>
#include <stdint.h>

/* The cost an option is ranked by. */
double gs_rank_cost(const struct gs_plan *plan, bool training);

/* <0, 0, >0 as an option costing a_cost on a_gpus GPUs of a_id ranks before, with, after
 * option b: the order of gs_rank_compare from the figures it reads. */
int gs_rank_compare_figures(double a_cost, uint64_t a_gpus, const char *a_id, double b_cost,
                            uint64_t b_gpus, const char *b_id);

/* <0, 0, >0 as option a (on GPU a_id) ranks before, with, after option b. */
int gs_rank_compare(const struct gs_plan *a, const char *a_id, const struct gs_plan *b,
                    const char *b_id, bool training);

#endif
