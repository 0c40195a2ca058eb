/*
 * hub_ref.h - a model named by its Hugging Face id, without the network: the
 * {"hub_id", "revision", "file"} object a request or an import carries, the
 * catalog id an import gets, the catalog entry such a reference names, and what
 * an import stored about the checkpoint (its checkpoint_json), for the core.
 * The import itself, which fetches and stores, is hub_import.h.
 */
#ifndef GS_HUB_REF_H
#define GS_HUB_REF_H

#include "catalog.h"
#include "gs/estimate.h"
#include "gs/status.h"
#include "hub/hub.h"

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

struct hub_ref {
    char hub_id[200];
    char revision[130];   /* "main" when not given */
    char file[256];       /* GGUF-only repositories: which .gguf ("" = the Q4_K_M one, else the
                             first by name) */
    const char *if_match; /* a re-import's precondition (borrowed), NULL for none */
};

/* Reads {"hub_id", "revision", "file"} (pointers under `base`, e.g.
 * "/model"); `extra` names further keys the object may carry (NULL-ended,
 * may be NULL). */
bool hub_ref_decode(const json_t *obj, const char *base, const char *const *extra,
                    struct hub_ref *out, struct gs_error *err);

/* A file an import may read: relative, no "..", only letters, digits and "._-/+" (stricter
 * than hub_file_valid, which any hub URL passes). */
bool hub_ref_file_valid(const char *name);

/* The catalog id an import of `hub_id` gets: lower-case, "/" as "--". */
void hub_ref_catalog_id(const char *hub_id, char *out, size_t cap);

/* The catalog model for `hub_id` at `revision`: an import at that revision,
 * else (for "main") an entry whose hf_id is `hub_id`; NULL when none. */
const struct catalog_model *hub_ref_find(const struct catalog_snapshot *snapshot,
                                         const char *hub_id, const char *revision);

/* What a stored checkpoint_json says, for the core; false when absent or
 * unreadable. `decoder_layers` and `mtp_layers` are the config's num_hidden_layers and MTP
 * layers (0 and 0 when gpusizer cannot read the architecture): the numbered layers from
 * decoder_layers on, mtp_layers of them, are the MTP layers DeepSeek-V3 and GLM store as
 * "model.layers.<num_hidden_layers + i>." (vLLM deepseek_v2.py and glm4_moe.py
 * get_spec_layer_idx_from_weight_name), and count in out->mtp_bytes beside the tensors the
 * import found by name. */
bool hub_ref_checkpoint_bytes(const char *checkpoint_json, uint64_t decoder_layers,
                              uint64_t mtp_layers, struct gs_checkpoint_bytes *out);

#endif
