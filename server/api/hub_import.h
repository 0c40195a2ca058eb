/*
 * hub_import.h - a model by its Hugging Face id: the repository's
 * config.json and its checkpoint's headers (safetensors shards, or a GGUF
 * file when the repository holds only GGUF) fetched with hub.h, read with
 * the config readers and checkpoint.h, and stored in the catalog with what
 * the headers say (exact tensor bytes by dtype, parameters, stored format)
 * and where it all came from (commit, URLs, time, sha256 of every byte read).
 *
 *   POST /v1/models:import {"hub_id", "revision", "file"}   (API key)
 *   gpusizer import org/name[@revision]
 *   "model": {"hub_id": ..., "revision": ...} in estimate/fit/recommend,
 *   imported on first use when auto-import is on (GPUSIZER_AUTO_IMPORT).
 */
#ifndef GS_HUB_IMPORT_H
#define GS_HUB_IMPORT_H

#include "api/api.h"
#include "catalog.h"
#include "catalog_write.h"
#include "gs/estimate.h"
#include "hub/hub.h"
#include "hub/hub_ref.h"
#include "formats/problem.h"
#include "api/service.h"
#include "api/store.h"

#include <jansson.h>
#include <stdbool.h>

/* Imports (or re-imports) one model. GS_OK with *out filled, or the status of
 * `problem` saying why (problem_status): 400 bad id, 403 gated, 404 missing,
 * 412 If-Match, 422 nothing gpusizer can read, 502 the hub failed (its status
 * named). */
enum gs_status hub_import_run(const struct hub_config *cfg, struct store *store,
                              const struct hub_ref *req, struct catalog_put_result *out,
                              struct problem *problem);

/* POST /v1/models:import. */
void hub_import_api(const struct hub_config *cfg, struct store *store,
                    const struct api_request *req, struct api_response *resp);

/* Before a sizing request: a "model": {"hub_id": ...} the catalog lacks is
 * imported when `auto_import`, and *service becomes the store's fresh one
 * (the old reference released). GS_OK, or the status of `problem` when the
 * import failed. Requests without a hub id are left alone. */
enum gs_status hub_import_prepare(const struct hub_config *cfg, struct store *store,
                                  bool auto_import, const json_t *request,
                                  struct service **service, struct problem *problem);

/* Whether hub_import_prepare would import (a network wait of seconds): the server then runs
 * the request off its connection threads. */
bool hub_import_pending(bool auto_import, const json_t *request, const struct service *service);

/* Merges a repository's hf_quant_config.json (NVIDIA ModelOpt: {"producer",
 * "quantization": {"quant_algo", "exclude_modules", ...}}) into its config as
 * the quantization_config vLLM builds from it (quant_method "modelopt" and
 * the "quantization" members), so the config says how the checkpoint is
 * stored; a config with its own quantization_config keeps it. false when
 * `hf_quant_config` is not an object or memory runs out. */
bool hub_import_merge_quant_config(json_t *config, const json_t *hf_quant_config);

#endif
