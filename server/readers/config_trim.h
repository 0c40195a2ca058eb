/*
 * config_trim.h - a pasted config.json without what its reading does not depend on. A
 * recommendation echoes the request's model into every option's estimate_request, so a
 * config padded with members gpusizer never reads (a classifier's id2label, a tokenizer's
 * tables: hundreds of kilobytes) would be written once per option. The trimmed config is
 * proven to read as the same model (models_read gives the same struct gs_arch, byte for
 * byte), so an option posted back to /v1/estimate sizes the same model.
 */
#ifndef GS_CONFIG_TRIM_H
#define GS_CONFIG_TRIM_H

#include <jansson.h>
#include <stddef.h>

/* Configs up to this size (compact JSON) are echoed as sent. */
#define CONFIG_TRIM_FROM_BYTES 16384

/* The members tried for removal at most: the largest first, top-level members and the
 * members of top-level objects (text_config, vision_config), each of at least 256 bytes. */
#define CONFIG_TRIM_TRIALS 64

/* A copy of `config` without the members whose removal leaves what models_read makes of it
 * the same, or NULL when nothing can go, the config is not above CONFIG_TRIM_FROM_BYTES, it
 * does not read, or memory ran out (then echo `config` as sent). *removed_bytes is the
 * compact size taken out. The caller owns the result (json_decref). */
json_t *config_trim(const json_t *config, size_t *removed_bytes);

#endif
