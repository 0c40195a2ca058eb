/*
 * checkpoint_gguf.h - a GGUF file added to a summary from its header: its
 * metadata and tensor infos, and a config.json built from the metadata
 * (checkpoint.h).
 */
#ifndef GS_CHECKPOINT_GGUF_H
#define GS_CHECKPOINT_GGUF_H

#include "gs/status.h"
#include "hub/checkpoint_summary.h"

#include <stddef.h>
#include <stdint.h>

/* Adds a GGUF file (versions 2 and 3) from its first `length` bytes. When
 * the header extends past them, returns GS_OK with *needed set to the
 * length required (the caller fetches that much and calls again with a
 * fresh summary); otherwise *needed is 0 and the tensors are added. Nothing
 * past `length` is read; *needed is at least twice `length` and at least
 * what the parse showed missing, so a caller may have to ask more than once
 * (the summary is untouched until the whole header is read). Each tensor's
 * offset must be where the previous tensor's padded data ends, as
 * llama.cpp's gguf.cpp requires; GS_ERR_INVALID otherwise, GS_ERR_UNSUPPORTED
 * for version 1, big-endian files and ggml types newer than MXFP4. The
 * metadata's architecture and file type are kept; `config` (when not NULL)
 * receives up to `config_cap` bytes of a Hugging Face-style config.json
 * built from the metadata ("model_type", "hidden_size", ... for the
 * architectures llama.cpp shares with transformers), NUL-terminated, "" when
 * the architecture has no such mapping. */
enum gs_status checkpoint_add_gguf(struct checkpoint_summary *s, const uint8_t *bytes, size_t length,
                                   size_t *needed, char *config, size_t config_cap,
                                   struct gs_error *err);

#endif
