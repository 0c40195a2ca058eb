/*
 * codec_parity.h - the `parity` request field and response object: what
 * DeepSpeed's ZeRO estimators, Megatron-LM's theoretical memory or
 * `accelerate estimate-memory` print for the same model (core/parity.h).
 */
#ifndef GS_CODEC_PARITY_H
#define GS_CODEC_PARITY_H

#include "api/codec_request.h"

#include <jansson.h>
#include <stdbool.h>

/* Reads "parity" (borrowed, may be NULL) into req->parity; Megatron needs an
 * architecture. Adds problems to `err`. */
bool codec_decode_parity(const json_t *value, struct estimate_request *req, struct gs_error *err);

/* The parity object (new reference, NULL on allocation failure). */
json_t *codec_encode_parity(const struct estimate_request *req, const struct gs_estimate *est);

#endif
