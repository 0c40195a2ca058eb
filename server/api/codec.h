/*
 * codec.h - JSON <-> core structs for /v1/estimate, and catalog rows -> JSON.
 *
 * Decoding validates the whole request and collects every problem with its
 * JSON Pointer; it resolves catalog ids against a snapshot. Encoding builds
 * the response object whose field names are the public contract
 * (openapi/openapi.yaml).
 */
#ifndef GS_CODEC_H
#define GS_CODEC_H

#include "catalog.h"
#include "api/codec_request.h"
#include "gs/estimate.h"
#include "gs/gpu.h"
#include "formats/json_out.h"

#include <jansson.h>

/* What the service derived from one catalog model's row, once per row (shared by the
 * services built one from another while the row is unchanged). */
struct codec_catalog_arch {
    bool valid;                         /* `arch` is the model's, validated */
    struct gs_arch arch;
    struct gs_param_count counts;       /* when valid: gs_arch_count_params(arch) */
    struct gs_param_count block_counts[GS_BLOCKS_MAX]; /* when valid: gs_arch_count_block */
    struct gs_checkpoint_bytes stored;  /* imports: what their headers say (.present) */
};

/* The snapshot's models, decoded once (index = model index). */
struct codec_arch_table {
    const struct codec_catalog_arch *const *models;
};

/* The top-level members /v1/recommend and /v1/fit accept (NULL-terminated),
 * so their unknown-member hints name their own fields. */
extern const char *const codec_recommend_keys[];
extern const char *const codec_fit_keys[];

/* Borrows `body` and `snapshot`. GS_OK or a validation status with every
 * problem in `err`. */
enum gs_status codec_decode_estimate(const json_t *body, const struct catalog_snapshot *snapshot,
                                     const struct codec_arch_table *archs,
                                     struct estimate_request *out, struct gs_error *err);

/* The response for a computed estimate, written as text (json_out.h: the
 * writer fails on what jansson would refuse). `fit` is NULL when no GPU was
 * named. */
void codec_write_estimate(struct json_writer *w, const struct estimate_request *req,
                          const struct gs_estimate *est, const struct gs_fit *fit);

/* Pieces of the estimate response, shared with /v1/recommend and /v1/fit:
 * the "model" object, a per-GPU memory breakdown, and the assumptions (the
 * list's items, for a caller that puts its own first). */
void codec_write_model_result(struct json_writer *w, const struct estimate_request *req,
                              const struct gs_estimate *est);
void codec_write_memory(struct json_writer *w, const struct gs_memory *memory);
void codec_write_assumption_items(struct json_writer *w, const struct estimate_request *req,
                                  const struct gs_estimate *est);
/* One warnings item: {"code": code, "detail": detail}. */
void codec_write_warning(struct json_writer *w, const char *code, const char *detail);
/* The warnings the request itself earns, whatever the endpoint: a model name taken to be a
 * catalog model (model_resolved) and a GPU name that fits several entries (gpu_default). */
void codec_write_request_warnings(struct json_writer *w, const struct estimate_request *req);
/* The architecture's layer kinds (/v1/models items and the model object; new reference,
 * NULL on OOM). */
json_t *codec_encode_layer_kinds(const struct gs_arch *arch);

/* A catalog model as the /v1/models items (new reference; a GPU: codec_catalog.h). Its config is
 * `parsed_config` when the caller has parsed config_json already (borrowed), else parsed here. */
json_t *codec_encode_model(const struct catalog_model *model, const struct gs_arch *arch,
                           json_t *parsed_config);

/* The core's view of a catalog GPU (gs_gpu_view_build over its fields). */
void codec_gpu_view(const struct catalog_gpu *gpu, struct gs_gpu_view *out);

#endif
