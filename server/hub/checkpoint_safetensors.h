/*
 * checkpoint_safetensors.h - a safetensors shard added to a summary from its
 * header: 8 bytes of little-endian length, then a JSON object naming every
 * tensor with its dtype, shape and byte range (checkpoint.h).
 */
#ifndef GS_CHECKPOINT_SAFETENSORS_H
#define GS_CHECKPOINT_SAFETENSORS_H

#include "gs/status.h"
#include "hub/checkpoint_summary.h"

#include <stddef.h>
#include <stdint.h>

/* The header length in a safetensors file's first 8 bytes (little-endian).
 * GS_ERR_TOO_LARGE when it exceeds `max`, GS_ERR_INVALID when it is 0. */
enum gs_status checkpoint_safetensors_length(const uint8_t first8[8], uint64_t max, uint64_t *length,
                                             struct gs_error *err);

/* Adds one safetensors shard from its JSON header (`json` of `length` bytes,
 * not NUL-terminated). Every tensor's data_offsets must match its dtype and
 * shape and lie within the file; GS_ERR_INVALID otherwise, with a pointer
 * "/<tensor name>". "__metadata__" is skipped. "Within the file" is checked
 * as safetensors itself checks it: the ranges tile the data from 0, with no
 * gap and no overlap. On any error the summary is left unchanged. */
enum gs_status checkpoint_add_safetensors(struct checkpoint_summary *s, const char *json,
                                          size_t length, struct gs_error *err);

#endif
