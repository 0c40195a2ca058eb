/*
 * summary.h - a short human-readable view of an answer of `gpusizer estimate`, `fit` and
 * `recommend`, for a person at a terminal: the figures looked for first, read from the
 * response JSON as the API gives it (no figure is computed here). A member that is missing
 * or of another type is left out, never guessed.
 */
#ifndef GS_CLI_SUMMARY_H
#define GS_CLI_SUMMARY_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

/* The model and parameters, the GPU, per-GPU memory by component in GiB and the total,
 * whether it fits (and for a serving engine starts), the KV capacity, the first warnings
 * and fixes. False when writing failed. */
bool summary_estimate(const json_t *response, FILE *out);

/* The verdict, the fewest GPUs that fit, the largest batch and context, the changes. */
bool summary_fit(const json_t *response, FILE *out);

/* The demand and the first options as a table: GPU, count, layout, tokens/s per user (for
 * training tokens/s and days), $/hour and memory per GPU; then the rejections by reason. */
bool summary_recommend(const json_t *response, FILE *out);

#endif
