/*
 * checkpoint.h - what a checkpoint stores, read from its file headers alone.
 *
 * A safetensors file starts with an 8-byte little-endian header length and a
 * JSON object naming every tensor with its dtype, shape and byte range; a
 * GGUF file starts with its metadata and tensor infos (name, dimensions,
 * ggml type). Either gives every tensor's bytes exactly, so the weights of
 * any architecture and any quantization (scales, zero points and group
 * indices included) are known from a few kilobytes per file, without
 * downloading the weights.
 *
 * A summary accumulates the shards of one checkpoint. No I/O here: the caller
 * fetches the bytes (server/hub/hub.h). Nothing is allocated: the summary is a
 * plain struct the caller owns.
 *
 * The parts: checkpoint_summary.h (the summary, the stored dtypes, the format
 * decided at the end), checkpoint_safetensors.h and checkpoint_gguf.h (the two
 * readers).
 */
#ifndef GS_CHECKPOINT_H
#define GS_CHECKPOINT_H

#include "hub/checkpoint_gguf.h"
#include "hub/checkpoint_safetensors.h"
#include "hub/checkpoint_summary.h"

#endif
