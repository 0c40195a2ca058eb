/* codec.c - estimate request decoding and response encoding (see codec.h). */
#include "api/codec.h"
#include "formats/json_build.h"

#include "gs/capability.h"
#include "gs/trl.h"

#include "api/codec_inference.h"
#include "api/codec_parity.h"
#include "api/codec_training.h"
#include "readers/models.h"
#include "hub/hub_ref.h"
#include "formats/jsonv.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* How a board's GPUs talk, from its catalog row: NVLink through NVSwitch on
 * SXM/OAM boards, NVLink bridges between pairs, else PCIe; Hopper and later
 * NVLink boards form their own class (vllm.c's communication buffers). A row
 * that names NVLink only to deny it ("no NVLink between units", the GB10) is
 * not an NVLink board. */
void codec_gpu_view(const struct catalog_gpu *g, struct gs_gpu_view *out)
{
    const struct gs_gpu_facts facts = {
        g->id,
        g->architecture,
        g->interconnect,
        g->memory_bytes,
        g->usable_memory_bytes,
        g->sm_count.present ? (uint64_t)g->sm_count.value : 0,
        g->unified_memory.present && g->unified_memory.value != 0,
        g->vendor,
        g->form_factor,
    };
    gs_gpu_view_build(&facts, out);
}

static const char *const top_keys[] = {"model",       "mode",      "precision", "gpu",
                                        "gpu_count",   "training",  "inference", "parallelism",
                                        "overrides",   "parity",    NULL};

const char *const codec_recommend_keys[] = {"model",     "mode",        "precision", "training",
                                            "inference", "parallelism", "overrides", "demand",
                                            "constraints", "efficiency", NULL};
const char *const codec_fit_keys[] = {"model",       "mode",      "precision", "gpu",
                                      "gpu_count",   "training",  "inference", "parallelism",
                                      "overrides",   NULL};
static const char *const model_keys[] = {"parameters", "config", NULL};
static const char *const precision_keys[] = {"weights", "group_size", NULL};
static const char *const mode_names[] = {"inference", "training", NULL};

/* A catalog entry as the model: its architecture, and for an import its
 * checkpoint's own bytes (an import gpusizer cannot read the architecture of
 * is sized by those bytes alone). */
static bool use_catalog_model(const struct catalog_model *m,
                              const struct catalog_snapshot *snapshot,
                              const struct codec_arch_table *archs, struct estimate_request *out,
                              struct gs_error *err)
{
    const struct codec_catalog_arch *row =
        archs != NULL ? archs->models[(size_t)(m - snapshot->models)] : NULL;
    const bool stored = row != NULL && row->stored.present;
    if (row == NULL || (!row->valid && !stored)) {
        gs_error_add(err, GS_ERR_INTERNAL, "/model",
                     "catalog model \"%s\" has an architecture gpusizer cannot read", m->id);
        return false;
    }
    out->source = CODEC_MODEL_CATALOG;
    out->catalog_model = m;
    out->model.has_arch = row->valid;
    if (out->model.has_arch) {
        out->model.arch = row->arch;
        out->model.counted = true;
        out->model.counts = row->counts;
        memcpy(out->model.block_counts, row->block_counts, sizeof(row->block_counts));
    }
    else
        out->model.parameters = m->parameters;
    if (stored)
        out->model.stored = row->stored;
    return true;
}

/* "model": {"hub_id": "org/name", "revision": ...}: the catalog's import of it. */
static bool decode_hub_model(const json_t *model, const struct catalog_snapshot *snapshot,
                             const struct codec_arch_table *archs, struct estimate_request *out,
                             struct gs_error *err)
{
    struct hub_ref ir;
    if (!hub_ref_decode(model, "/model", NULL, &ir, err))
        return false;
    const struct catalog_model *m = hub_ref_find(snapshot, ir.hub_id, ir.revision);
    if (m == NULL) {
        gs_error_add(err, GS_ERR_NOT_FOUND, "/model/hub_id",
                     "%s at %s is not in the catalog; import it first (POST /v1/models:import "
                     "or gpusizer import), or run with GPUSIZER_AUTO_IMPORT=1 to import on first "
                     "use",
                     ir.hub_id, ir.revision);
        return false;
    }
    return use_catalog_model(m, snapshot, archs, out, err);
}

/* The weights a repository name's quantization suffix states, as the
 * checkpoint's quantization_config would set them (models_read_checkpoint):
 * sizing takes them when the request names no precision. */
static void set_checkpoint_from_name(const struct catalog_name_quant *q, struct gs_checkpoint *c)
{
    memset(c, 0, sizeof(*c));
    c->quantized = q->sized;
    c->format = q->format;
    c->group_size = q->group_size;
    snprintf(c->detail, sizeof(c->detail), "inferred from the name's \"%.24s\" suffix: %.96s",
             q->suffix, q->detail);
}

static bool decode_catalog_model(const char *id, const struct catalog_snapshot *snapshot,
                                 const struct codec_arch_table *archs, struct estimate_request *out,
                                 struct gs_error *err)
{
    /* a variant's name ("meta-llama/Llama-3.1-8B-Instruct", "Qwen/Qwen2.5-7B-Instruct-AWQ")
     * is the model with the same architecture and parameters: resolved, with a warning */
    out->model_lookup = catalog_snapshot_model_lookup(snapshot, id);
    const struct catalog_model *m = out->model_lookup.model;
    out->model_resolved = out->model_lookup.resolved;
    if (out->model_resolved)
        snprintf(out->model_name, sizeof(out->model_name), "%s", id);
    if (m == NULL) {
        const char *hint = catalog_snapshot_model_suggest(snapshot, id);
        if (hint != NULL)
            gs_error_add(err, GS_ERR_NOT_FOUND, "/model",
                         "no model \"%.80s\" in the catalog; did you mean \"%s\"?", id, hint);
        else
            gs_error_add(err, GS_ERR_NOT_FOUND, "/model",
                         "no model \"%.80s\" in the catalog; GET /v1/models lists them", id);
        return false;
    }
    if (!use_catalog_model(m, snapshot, archs, out, err))
        return false;
    /* the suffix of a name the rule resolved states the checkpoint's weights; an alias's
     * suffix does when the row itself states none */
    const struct gs_checkpoint *own = &out->model.arch.checkpoint;
    out->model_quant_inferred =
        out->model_lookup.quant.stated && out->model.has_arch &&
        (out->model_resolved || (!own->quantized && own->detail[0] == '\0'));
    if (out->model_quant_inferred) {
        set_checkpoint_from_name(&out->model_lookup.quant, &out->model.arch.checkpoint);
        snprintf(out->model_name, sizeof(out->model_name), "%s", id);
    }
    return true;
}

static bool decode_model_object(const json_t *model, struct estimate_request *out,
                                struct gs_error *err)
{
    if (!jsonv_only_keys(model, "/model", model_keys, err))
        return false;
    const json_t *params = json_object_get(model, "parameters");
    const json_t *config = json_object_get(model, "config");
    if (params != NULL && config != NULL) {
        gs_error_add(err, GS_ERR_INVALID, "/model",
                     "give either \"parameters\" or \"config\", not both");
        return false;
    }
    if (params != NULL) {
        out->source = CODEC_MODEL_PARAMETERS;
        out->model.has_arch = false;
        return jsonv_uint(params, "/model/parameters", 1, GS_PARAMETERS_MAX,
                          &out->model.parameters, err);
    }
    if (config != NULL) {
        out->source = CODEC_MODEL_CONFIG;
        out->model.has_arch = true;
        out->model_status = models_read(config, "/model/config", &out->model.arch, err);
        return out->model_status == GS_OK;
    }
    gs_error_add(err, GS_ERR_INVALID, "/model",
                 "needs \"parameters\" (a raw count) or \"config\" (a Hugging Face config.json)");
    return false;
}

static bool decode_model(const json_t *model, const struct catalog_snapshot *snapshot,
                         const struct codec_arch_table *archs, struct estimate_request *out,
                         struct gs_error *err)
{
    if (model == NULL) {
        gs_error_add(err, GS_ERR_INVALID, "/model",
                     "is required: a catalog id, {\"parameters\": N}, {\"config\": {...}} or "
                     "{\"hub_id\": \"org/name\"}");
        return false;
    }
    if (json_is_string(model))
        return decode_catalog_model(json_string_value(model), snapshot, archs, out, err);
    if (json_is_object(model) && json_object_get(model, "hub_id") != NULL)
        return decode_hub_model(model, snapshot, archs, out, err);
    if (json_is_object(model))
        return decode_model_object(model, out, err);
    gs_error_add(err, GS_ERR_INVALID, "/model",
                 "must be a catalog id string or an object with \"parameters\" or \"config\", got %s",
                 jsonv_type_name(model));
    return false;
}

/* The storage of a draft's weights: its checkpoint's quantization, else 16-bit. */
static void draft_format(const struct gs_arch *arch, struct gs_draft *d)
{
    d->format = GS_WF_BF16;
    if (arch->checkpoint.quantized) {
        d->format = (uint8_t)arch->checkpoint.format;
        d->group_size = arch->checkpoint.group_size;
    }
}

static const char *const draft_config_keys[] = {"config", NULL};

/* "inference": {"speculative": {"draft": ...}}: the draft model vLLM's eagle,
 * eagle3 and draft_model load - a catalog id, {"hub_id": ...} (imported), or
 * {"config": {...}} (an EAGLE head's config.json: draft_vocab_size and
 * target_hidden_size read beside the architecture). */
static bool decode_draft(const json_t *draft, const struct catalog_snapshot *snapshot,
                         const struct codec_arch_table *archs, struct estimate_request *out,
                         struct gs_error *err)
{
    static const char *const where = "/inference/speculative/draft";
    struct gs_draft *d = &out->draft;
    memset(d, 0, sizeof(*d));
    const struct catalog_model *m = NULL;
    if (json_is_string(draft)) {
        const char *id = json_string_value(draft);
        m = catalog_snapshot_model(snapshot, id);
        if (m == NULL)
            m = catalog_snapshot_model_resolve(snapshot, id);
        if (m == NULL) {
            gs_error_add(err, GS_ERR_NOT_FOUND, where,
                         "no model \"%.80s\" in the catalog; GET /v1/models lists them", id);
            return false;
        }
    } else if (json_is_object(draft) && json_object_get(draft, "hub_id") != NULL) {
        struct hub_ref ir;
        if (!hub_ref_decode(draft, where, NULL, &ir, err))
            return false;
        m = hub_ref_find(snapshot, ir.hub_id, ir.revision);
        if (m == NULL) {
            gs_error_add(err, GS_ERR_NOT_FOUND, "/inference/speculative/draft/hub_id",
                         "%s at %s is not in the catalog; import it first (POST "
                         "/v1/models:import or gpusizer import)",
                         ir.hub_id, ir.revision);
            return false;
        }
    } else if (json_is_object(draft)) {
        if (!jsonv_only_keys(draft, where, draft_config_keys, err))
            return false;
        const json_t *config = json_object_get(draft, "config");
        if (config == NULL) {
            gs_error_add(err, GS_ERR_INVALID, where,
                         "needs a catalog id, {\"hub_id\": ...} or {\"config\": {...}}");
            return false;
        }
        if (models_read(config, "/inference/speculative/draft/config", &out->draft_arch,
                             err) != GS_OK)
            return false;
        d->arch = &out->draft_arch;
        draft_format(d->arch, d);
        const json_t *v = json_object_get(config, "draft_vocab_size");
        if (json_is_integer(v) && json_integer_value(v) > 0)
            d->draft_vocab = (uint64_t)json_integer_value(v);
        v = json_object_get(config, "target_hidden_size");
        if (json_is_integer(v) && json_integer_value(v) > 0)
            d->target_hidden = (uint64_t)json_integer_value(v);
        out->workload.serving.draft = d;
        return true;
    } else {
        gs_error_add(err, GS_ERR_INVALID, where,
                     "must be a catalog id string or an object with \"hub_id\" or \"config\", "
                     "got %s",
                     jsonv_type_name(draft));
        return false;
    }
    const struct codec_catalog_arch *row =
        archs != NULL ? archs->models[(size_t)(m - snapshot->models)] : NULL;
    if (row == NULL || !row->valid) {
        gs_error_add(err, GS_ERR_INVALID, where,
                     "catalog model \"%s\" has no architecture gpusizer can read", m->id);
        return false;
    }
    d->arch = &row->arch;
    draft_format(d->arch, d);
    out->workload.serving.draft = d;
    return true;
}

static bool decode_precision(const json_t *precision, struct estimate_request *out,
                             struct gs_error *err)
{
    out->workload.weights = GS_DTYPE_BF16;
    out->precision_defaulted = precision == NULL;
    if (precision == NULL)
        return true;
    if (!json_is_object(precision)) {
        gs_error_add(err, GS_ERR_INVALID, "/precision",
                     "must be an object such as {\"weights\": \"bf16\"}, got %s",
                     jsonv_type_name(precision));
        return false;
    }
    if (!jsonv_only_keys(precision, "/precision", precision_keys, err))
        return false;
    const json_t *weights = json_object_get(precision, "weights");
    if (weights == NULL) {
        gs_error_add(err, GS_ERR_INVALID, "/precision/weights", "is required");
        return false;
    }
    int index = 0;
    const char *format_names[GS_WF_COUNT + 1];
    JSONV_ENUM_NAMES(format_names, 0, GS_WF_COUNT, gs_weight_format_name, enum gs_weight_format);
    if (!jsonv_enum(weights, "/precision/weights", format_names, &index, err))
        return false;
    const enum gs_weight_format f = (enum gs_weight_format)index;
    out->workload.format = f;
    out->workload.format_given = true;
    const enum gs_dtype d = gs_weight_format_training_dtype(f);
    out->workload.weights = d != GS_DTYPE_COUNT ? d : GS_DTYPE_BF16;
    out->format_trainable = d != GS_DTYPE_COUNT;
    const json_t *group = json_object_get(precision, "group_size");
    if (group != NULL) {
        if (!gs_weight_format_grouped(f)) {
            gs_error_add(err, GS_ERR_INVALID, "/precision/group_size",
                         "applies to gptq and awq weights, not %s", gs_weight_format_name(f));
            return false;
        }
        if (!jsonv_uint(group, "/precision/group_size", 1, 65536, &out->workload.group_size, err))
            return false;
    }
    return true;
}

/* "a, b, c" of the parts a GPU name fits (the first few). */
static void gpu_id_list(const struct catalog_gpu_lookup *l, char *out, size_t size)
{
    size_t used = 0;
    out[0] = '\0';
    for (size_t i = 0; i < l->fits && i < CATALOG_GPU_FITS_MAX && used < size; i++) {
        const int n =
            snprintf(out + used, size - used, "%s%s", i > 0 ? ", " : "", l->fitting[i]->id);
        if (n < 0)
            break;
        used += (size_t)n;
    }
}

/* The catalog GPU `id` names (found as `lookup`), or NULL with the error at `pointer`. */
static const struct catalog_gpu *resolve_gpu(const char *id, const char *pointer,
                                             const struct catalog_snapshot *snapshot,
                                             struct catalog_gpu_lookup *lookup,
                                             struct gs_error *err)
{
    *lookup = catalog_snapshot_gpu_lookup(snapshot, id);
    if (lookup->gpu != NULL)
        return lookup->gpu;
    if (lookup->fits > 1) {
        char ids[160];
        gpu_id_list(lookup, ids, sizeof(ids));
        gs_error_add(err, GS_ERR_NOT_FOUND, pointer,
                     "\"%.80s\" fits %zu catalog GPUs (%.159s); name its memory or form factor as "
                     "nvidia-smi prints it, or one of those ids",
                     id, lookup->fits, ids);
        return NULL;
    }
    const char *hint = catalog_snapshot_gpu_suggest(snapshot, id);
    if (hint != NULL)
        gs_error_add(err, GS_ERR_NOT_FOUND, pointer,
                     "no GPU \"%.80s\" in the catalog; did you mean \"%s\"?", id, hint);
    else
        gs_error_add(err, GS_ERR_NOT_FOUND, pointer,
                     "no GPU \"%.80s\" in the catalog; GET /v1/gpus lists them", id);
    return NULL;
}

static bool decode_gpu(const json_t *gpu, const struct catalog_snapshot *snapshot,
                       struct estimate_request *out, struct gs_error *err)
{
    out->gpu = NULL;
    if (gpu == NULL || json_is_null(gpu))
        return true;
    if (!json_is_string(gpu)) {
        gs_error_add(err, GS_ERR_INVALID, "/gpu", "must be a catalog GPU id string, got %s",
                     jsonv_type_name(gpu));
        return false;
    }
    const char *id = json_string_value(gpu);
    snprintf(out->gpu_name, sizeof(out->gpu_name), "%s", id);
    out->gpu = resolve_gpu(id, "/gpu", snapshot, &out->gpu_lookup, err);
    return out->gpu != NULL;
}

/* parallelism.stage_gpus: a catalog GPU for each pipeline stage, in stage order (one the
 * same for several stages is named each time). "gpu", when given, must be one of them; when
 * not, it is the first stage's. The core checks the count against the pipeline degree and
 * the engine. */
static bool decode_stage_gpus(const json_t *stages, const struct catalog_snapshot *snapshot,
                              struct estimate_request *out, struct gs_error *err)
{
    if (stages == NULL)
        return true;
    if (!json_is_array(stages) || json_array_size(stages) < 2 ||
        json_array_size(stages) > GS_STAGE_GPUS_MAX) {
        gs_error_add(err, GS_ERR_INVALID, "/parallelism/stage_gpus",
                     "must be an array of 2 to %d catalog GPU names, one a pipeline stage",
                     GS_STAGE_GPUS_MAX);
        return false;
    }
    bool ok = true, gpu_named = out->gpu == NULL;
    size_t i;
    const json_t *item;
    json_array_foreach(stages, i, item) {
        char where[JSONV_POINTER_MAX];
        snprintf(where, sizeof(where), "/parallelism/stage_gpus/%zu", i);
        if (!json_is_string(item)) {
            gs_error_add(err, GS_ERR_INVALID, where, "must be a catalog GPU name, got %s",
                         jsonv_type_name(item));
            ok = false;
            continue;
        }
        struct catalog_gpu_lookup lookup;
        out->stage_gpu[i] = resolve_gpu(json_string_value(item), where, snapshot, &lookup, err);
        if (out->stage_gpu[i] == NULL) {
            ok = false;
            continue;
        }
        gpu_named |= out->stage_gpu[i] == out->gpu;
        out->stage_gpu_fits[i] = (uint8_t)(lookup.fits < UINT8_MAX ? lookup.fits : UINT8_MAX);
    }
    if (!ok)
        return false;
    if (!gpu_named) {
        gs_error_add(err, GS_ERR_INVALID, "/gpu",
                     "\"%.80s\" runs none of the stages in /parallelism/stage_gpus; leave it out "
                     "or name one of them",
                     out->gpu_name);
        return false;
    }
    if (out->gpu == NULL) {
        out->gpu = out->stage_gpu[0];
        snprintf(out->gpu_name, sizeof(out->gpu_name), "%s", out->gpu->id);
        out->gpu_lookup = (struct catalog_gpu_lookup){.gpu = out->gpu, .fits = 1};
    }
    out->workload.stage_gpu_count = json_array_size(stages);
    for (size_t s = 0; s < out->workload.stage_gpu_count; s++)
        codec_gpu_view(out->stage_gpu[s], &out->workload.stage_gpus[s]);
    return true;
}

enum gs_status codec_decode_estimate(const json_t *body, const struct catalog_snapshot *snapshot,
                                     const struct codec_arch_table *archs,
                                     struct estimate_request *out, struct gs_error *err)
{
    memset(out, 0, offsetof(struct estimate_request, draft_arch)); /* draft_arch: see codec.h */
    if (!json_is_object(body))
        return gs_error_add(err, GS_ERR_INVALID, "", "the request body must be a JSON object, got %s",
                            jsonv_type_name(body));
    bool ok = jsonv_only_keys(body, "", top_keys, err);
    ok &= decode_model(json_object_get(body, "model"), snapshot, archs, out, err);

    const json_t *mode = json_object_get(body, "mode");
    out->mode_defaulted = mode == NULL;
    out->workload.mode = GS_MODE_INFERENCE;
    if (mode != NULL) {
        int index = 0;
        if (jsonv_enum(mode, "/mode", mode_names, &index, err))
            out->workload.mode = index == 1 ? GS_MODE_TRAINING : GS_MODE_INFERENCE;
        else
            ok = false;
    }
    ok &= decode_precision(json_object_get(body, "precision"), out, err);
    ok &= decode_gpu(json_object_get(body, "gpu"), snapshot, out, err);
    const json_t *gpu_count = json_object_get(body, "gpu_count");
    if (gpu_count != NULL)
        ok &= jsonv_uint(gpu_count, "/gpu_count", 1, 65536, &out->gpu_count, err);
    gs_training_defaults(&out->workload.training);
    gs_parallelism_defaults(&out->workload.parallelism);
    const json_t *training = json_object_get(body, "training");
    const json_t *inference = json_object_get(body, "inference");
    const json_t *parallelism = json_object_get(body, "parallelism");
    if (out->workload.mode == GS_MODE_TRAINING) {
        if (inference != NULL) {
            gs_error_add(err, GS_ERR_INVALID, "/inference", "is used only with \"mode\": \"inference\"");
            ok = false;
        }
        if (out->workload.format_given && !out->format_trainable) {
            gs_error_add(err, GS_ERR_INVALID, "/precision/weights",
                         "%s weights are not a training base; training takes fp32, bf16, fp16, int8 "
                         "(LoRA) or int4, nf4, nf4_dq (QLoRA)",
                         gs_weight_format_name(out->workload.format));
            ok = false;
        }
        if (out->workload.format_given && out->workload.format == GS_WF_NF4)
            out->workload.training.double_quant = false;
        ok &= codec_decode_training(training, &out->workload.training, err);
        ok &= codec_decode_parallelism(parallelism, &out->workload.parallelism, err);
        enum gs_dtype loaded;
        if (ok && out->precision_defaulted &&
            gs_trl_model_dtype(&out->workload.training, &loaded, NULL, NULL))
            out->workload.weights = loaded; /* the dtype TRL loads a named model in */
        if (ok)
            ok = gs_trl_resolve(&out->workload.training, &out->workload.parallelism,
                                out->workload.weights, err) == GS_OK;
    } else {
        if (training != NULL) {
            gs_error_add(err, GS_ERR_INVALID, "/training", "is used only with \"mode\": \"training\"");
            ok = false;
        }
        ok &= codec_decode_inference_parallelism(parallelism, &out->workload.parallelism, err);
        if (json_is_object(parallelism))
            ok &= decode_stage_gpus(json_object_get(parallelism, "stage_gpus"), snapshot, out, err);
        ok &= codec_decode_inference(inference, &out->workload.serving, err);
        const json_t *draft = json_object_get(json_object_get(inference, "speculative"), "draft");
        if (draft != NULL && !json_is_null(draft))
            ok &= decode_draft(draft, snapshot, archs, out, err);
    }
    if (ok && out->precision_defaulted && out->workload.mode == GS_MODE_INFERENCE &&
        out->model.has_arch && out->model.arch.checkpoint.quantized) {
        /* no precision given: size the weights as the published checkpoint stores them */
        const struct gs_checkpoint *c = &out->model.arch.checkpoint;
        out->workload.format_given = true;
        out->workload.format = (enum gs_weight_format)c->format;
        out->workload.group_size = c->group_size;
        out->workload.format_experts_only = c->experts_only;
        out->workload.format_from_checkpoint = true;
    }
    ok &= codec_decode_overrides(json_object_get(body, "overrides"), &out->workload, err);
    if (out->gpu != NULL) {
        codec_gpu_view(out->gpu, &out->workload.gpu);
    }
    ok &= codec_decode_parity(json_object_get(body, "parity"), out, err);
    if (!ok && out->model_status == GS_ERR_UNKNOWN_MODEL)
        return GS_ERR_UNKNOWN_MODEL; /* 422: the config is of a model type gpusizer cannot read */
    return ok ? GS_OK : GS_ERR_INVALID;
}

/* Sets key to a new value; false (and nothing leaked) when either failed. */
#define put json_build_put
#define append json_build_append
#define obj json_build_object
#define str json_build_string

static const char *source_name(enum codec_model_source source)
{
    switch (source) {
    case CODEC_MODEL_CATALOG:
        return "catalog";
    case CODEC_MODEL_PARAMETERS:
        return "parameters";
    case CODEC_MODEL_CONFIG:
        return "config";
    }
    return "parameters";
}

static json_t *nullable_string(const char *s)
{
    return s != NULL ? str(s) : json_null();
}

/* After its key: v, or null when NULL. */
static void write_nullable_string(struct json_writer *w, const char *v)
{
    if (v != NULL)
        json_w_string(w, v);
    else
        json_w_null(w);
}

static void write_breakdown(struct json_writer *w, const struct gs_param_count *c)
{
    json_w_begin_object(w);
    json_w_member_u64(w, "embedding", c->embedding);
    json_w_member_u64(w, "attention", c->attention);
    json_w_member_u64(w, "mlp", c->mlp);
    json_w_member_u64(w, "experts", c->experts);
    json_w_member_u64(w, "norms", c->norms);
    json_w_member_u64(w, "lm_head", c->lm_head);
    json_w_member_u64(w, "other", c->other);
    json_w_member_u64(w, "vision", c->vision);
    json_w_member_u64(w, "audio", c->audio);
    json_w_member_u64(w, "mtp", c->mtp);
    json_w_member_u64(w, "buffers", c->buffers);
    json_w_end_object(w);
}

static const char *mixer_name(const struct gs_block *b)
{
    switch ((enum gs_mixer)b->mixer) {
    case GS_MIXER_ATTENTION:
        if (!b->attn.cached)
            return "bidirectional";
        if (b->attn.window == 0 || b->attn.span == GS_SPAN_FULL)
            return "full";
        return b->attn.span == GS_SPAN_CHUNKED ? "chunked" : "sliding";
    case GS_MIXER_MLA:
        return b->attn.index_heads ? "mla_sparse" : "mla";
    case GS_MIXER_RECURRENT:
        return "recurrent";
    case GS_MIXER_NONE:
        break;
    }
    return "none";
}

static const char *mlp_kind_name(const struct gs_block *b)
{
    return b->mlp.kind == GS_MLP_MOE ? "moe" : b->mlp.kind == GS_MLP_DENSE ? "dense" : "none";
}

/* One entry per kind of decoder layer: how many, how it mixes tokens (full,
 * sliding, chunked, mla, mla_sparse, recurrent, bidirectional, none) and its
 * MLP (dense, moe, none). */
json_t *codec_encode_layer_kinds(const struct gs_arch *a)
{
    json_t *list = json_array();
    uint64_t counts[GS_BLOCKS_MAX];
    gs_arch_count_blocks(a, 0, a->num_hidden_layers, counts);
    for (size_t k = 0; list != NULL && k < a->block_count; k++) {
        const struct gs_block *b = &a->blocks[k];
        if (counts[k] == 0)
            continue;
        json_t *item = obj("layers", json_build_u64(counts[k]), "attention", str(mixer_name(b)), "mlp",
                           str(mlp_kind_name(b)), NULL);
        bool ok = item != NULL;
        if (ok && b->attn.window && b->attn.span != GS_SPAN_FULL &&
            b->mixer == GS_MIXER_ATTENTION)
            ok = put(item, "window", json_build_u64(b->attn.window));
        if (ok && b->attn.cross)
            ok = put(item, "cross_attention", json_true());
        if (ok && b->mlp.kind == GS_MLP_MOE)
            ok = put(item, "experts", json_build_u64(b->mlp.experts)) &&
                 put(item, "experts_per_token", json_build_u64(b->mlp.top_k));
        if (!ok || !append(list, item)) {
            json_decref(list);
            return NULL;
        }
    }
    return list;
}

void codec_write_model_result(struct json_writer *w, const struct estimate_request *req,
                              const struct gs_estimate *est)
{
    const struct catalog_model *m = req->catalog_model;
    json_w_begin_object(w);
    json_w_key(w, "id");
    write_nullable_string(w, m ? m->id : NULL);
    json_w_key(w, "name");
    write_nullable_string(w, m ? m->name : NULL);
    json_w_member_string(w, "source", source_name(req->source));
    json_w_key(w, "family");
    write_nullable_string(w, req->model.has_arch ? req->model.arch.model_type : NULL);
    json_w_member_u64(w, "parameters", est->parameters);
    json_w_member_u64(w, "trainable_parameters", est->trainable_parameters);
    if (est->has_breakdown) {
        json_w_member_u64(w, "active_parameters", est->params.active);
        json_w_member_u64(w, "largest_module_parameters", est->params.largest_module);
        json_w_key(w, "breakdown");
        write_breakdown(w, &est->params);
    }
    if (req->model.has_arch) {
        json_w_key(w, "layer_kinds");
        json_w_take(w, codec_encode_layer_kinds(&req->model.arch));
        if (req->model.arch.read_as[0] != '\0')
            json_w_member_string(w, "read_as", req->model.arch.read_as);
        /* the generic reader's counts follow the Llama layout, not the model's own class */
        json_w_member_string(w, "accuracy",
                             req->model.arch.approximate[0] ? "approximate" : "exact");
    }
    json_w_end_object(w);
}

void codec_write_memory(struct json_writer *w, const struct gs_memory *m)
{
    json_w_begin_object(w);
    json_w_member_u64(w, "weights_bytes", m->weights_bytes);
    json_w_member_u64(w, "kv_cache_bytes", m->kv_cache_bytes);
    json_w_member_u64(w, "activations_bytes", m->activations_bytes);
    json_w_member_u64(w, "gradients_bytes", m->gradients_bytes);
    json_w_member_u64(w, "optimizer_bytes", m->optimizer_bytes);
    json_w_member_u64(w, "overhead_bytes", m->overhead_bytes);
    json_w_member_u64(w, "total_bytes", m->total_bytes);
    if (m->peak_allocated_bytes) { /* training: the peak as PyTorch reports it */
        json_w_member_u64(w, "peak_allocated_bytes", m->peak_allocated_bytes);
        json_w_member_u64(w, "peak_reserved_bytes", m->peak_reserved_bytes);
        json_w_member_string(w, "peak_phase",
                             gs_peak_phase_name((enum gs_peak_phase)m->peak_phase));
    }
    json_w_end_object(w);
}

static void write_fit(struct json_writer *w, const struct catalog_gpu *gpu, const struct gs_fit *fit)
{
    json_w_begin_object(w);
    json_w_member_string(w, "gpu", gpu->id);
    json_w_member_string(w, "name", gpu->name);
    json_w_member_u64(w, "usable_bytes", fit->usable_bytes);
    json_w_member_string(w, "basis", fit->basis == GS_FIT_ENGINE_BUDGET ? "engine_budget" : "capacity");
    json_w_member_u64(w, "limit_bytes", fit->limit_bytes);
    json_w_member_bool(w, "fits", fit->fits);
    json_w_member_int(w, "headroom_bytes", (json_int_t)fit->headroom_bytes);
    json_w_end_object(w);
}

void codec_write_warning(struct json_writer *w, const char *code, const char *detail)
{
    json_w_begin_object(w);
    json_w_member_string(w, "code", code);
    json_w_member_string(w, "detail", detail);
    json_w_end_object(w);
}

static void write_assumption(struct json_writer *w, const struct gs_assumption *a)
{
    json_w_begin_object(w);
    json_w_member_string(w, "name", a->name);
    json_w_member_string(w, "detail", a->detail);
    json_w_member_string(w, "source", a->source);
    if (a->has_value)
        json_w_member_u64(w, "value", a->value);
    json_w_end_object(w);
}

/* An assumption the codec adds: name, detail and source, no value. */
static void write_note(struct json_writer *w, const char *name, const char *detail,
                       const char *source)
{
    const struct gs_assumption a = {.name = name, .detail = detail, .source = source};
    write_assumption(w, &a);
}

/* Assumptions the request implied by leaving fields out, then the core's. */
void codec_write_assumption_items(struct json_writer *w, const struct estimate_request *req,
                                  const struct gs_estimate *est)
{
    if (req->mode_defaulted)
        write_note(w, "mode", "no mode given: sized for inference", "gpusizer default");
    const char *trl_detail = NULL, *trl_source = NULL;
    enum gs_dtype trl_loaded;
    if (req->precision_defaulted && req->workload.mode == GS_MODE_TRAINING &&
        gs_trl_model_dtype(&req->workload.training, &trl_loaded, &trl_detail, &trl_source))
        write_note(w, "precision", trl_detail, trl_source);
    else if (req->precision_defaulted && !req->workload.format_from_checkpoint)
        write_note(w, "precision",
                   "no precision given: weights in bf16, the dtype most checkpoints ship in",
                   "gpusizer default");
    if (req->precision_defaulted && req->model.has_arch &&
        !req->model.arch.checkpoint.quantized && req->model.arch.checkpoint.detail[0] != '\0')
        write_note(w, "checkpoint_precision", req->model.arch.checkpoint.detail,
                   "the config's quantization_config");
    if (req->model.has_arch && req->model.arch.approximate[0] != '\0') {
        char detail[200];
        snprintf(detail, sizeof(detail),
                 "model_type \"%s\" has no reader in gpusizer: read by the generic reader as a "
                 "Llama-style decoder from its standard keys (the warning names what it left out)",
                 req->model.arch.model_type);
        write_note(w, "architecture_read_as", detail,
                   "the config's standard keys (transformers LlamaForCausalLM layout)");
    } else if (req->model.has_arch && req->model.arch.read_as[0] != '\0') {
        char detail[200];
        snprintf(detail, sizeof(detail),
                 "model_type \"%s\" is not one gpusizer knows by name; its architectures[0] class "
                 "has the layout of %s, and it was read as that",
                 req->model.arch.model_type, req->model.arch.read_as);
        write_note(w, "architecture_read_as", detail, "the config's architectures[0]");
    }
    if (req->source == CODEC_MODEL_CATALOG)
        write_note(w, "architecture",
                   "architecture taken from the catalog's copy of the model's config.json",
                   req->catalog_model->config_source);
    for (size_t i = 0; i < est->assumption_count; i++)
        write_assumption(w, &est->assumptions[i]);
}

/* What a model name was taken to be: the catalog model of its architecture,
 * the weights its quantization suffix states, a release date set aside, and
 * how to get the checkpoint's exact bytes. */
static void write_model_resolved(struct json_writer *w, const struct estimate_request *req)
{
    const struct catalog_model_lookup *l = &req->model_lookup;
    const struct catalog_model *m = req->catalog_model;
    /* the repository to import: the name as typed when it is a hub id (org/name), else the
     * catalog model's own */
    const char *repo = strchr(req->model_name, '/') != NULL && strchr(req->model_name, ' ') == NULL
                           ? req->model_name
                           : m->hf_id;
    char import[200] = "";
    if (repo != NULL)
        snprintf(import, sizeof(import),
                 "; import the repository ({\"hub_id\": \"%.100s\"}) for its checkpoint's exact "
                 "bytes",
                 repo);
    char weights[256] = "", date[160] = "", detail[1280];
    /* without model_quant_inferred the row's own checkpoint format stands */
    if (req->model_quant_inferred && l->quant.sized)
        snprintf(weights, sizeof(weights),
                 "; weights sized as %.127s, as its \"%.31s\" suffix states", l->quant.detail,
                 l->quant.suffix);
    else if (req->model_quant_inferred)
        snprintf(weights, sizeof(weights), "; its \"%.31s\" suffix states %.127s", l->quant.suffix,
                 l->quant.detail);
    if (l->date[0] != '\0')
        snprintf(date, sizeof(date),
                 "; \"%.7s\" read as a release date of the same architecture (its context length "
                 "and rope settings may differ)",
                 l->date);
    if (!req->model_resolved) {
        snprintf(detail, sizeof(detail),
                 "\"%.100s\" is an alias of \"%.80s\", whose stored config states no "
                 "quantization%.255s%s",
                 req->model_name, m->id, weights, import);
        codec_write_warning(w, "model_resolved", detail);
        return;
    }
    snprintf(detail, sizeof(detail),
             "the catalog has no model named \"%.100s\"; sized as \"%.80s\"%s%.100s%s, whose id "
             "or alias has the same words, size and version (an instruct, chat, base or "
             "re-published copy has the same architecture and parameters)%.255s%.159s%s",
             req->model_name, m->id, m->hf_id != NULL ? " (" : "", m->hf_id != NULL ? m->hf_id : "",
             m->hf_id != NULL ? ")" : "", weights, date, import);
    codec_write_warning(w, "model_resolved", detail);
}

static void write_warnings(struct json_writer *w, const struct estimate_request *req,
                           const struct gs_estimate *est, const struct gs_fit *fit)
{
    json_w_begin_array(w);
    for (size_t i = 0; i < est->warning_count; i++)
        codec_write_warning(w, est->warnings[i].code, est->warnings[i].detail);
    if (est->checkpoint_mismatch) {
        char detail[400];
        snprintf(detail, sizeof(detail),
                 "the checkpoint's tensors hold %llu bytes%s but the config gives %llu for this "
                 "format: the weights are sized from the checkpoint; check the config (a tower or "
                 "head it does not describe, or a different quantization)",
                 (unsigned long long)est->checkpoint_bytes,
                 est->checkpoint_mtp_bytes > 0 ? " (its MTP layers left out)" : "",
                 (unsigned long long)est->config_bytes);
        codec_write_warning(w, "checkpoint_mismatch", detail);
    }
    if (fit != NULL && fit->usable_is_marketed)
        codec_write_warning(
            w, "usable_memory_unknown",
            "the catalog has no driver-reported capacity for this GPU, so the fit uses "
            "the marketed capacity, which is larger than what CUDA reports");
    codec_write_request_warnings(w, req);
    json_w_end_array(w);
}

void codec_write_request_warnings(struct json_writer *w, const struct estimate_request *req)
{
    if ((req->model_resolved || req->model_quant_inferred) && req->catalog_model != NULL)
        write_model_resolved(w, req);
    if (req->gpu != NULL && req->gpu_lookup.fits > 1) {
        char ids[160], detail[640];
        gpu_id_list(&req->gpu_lookup, ids, sizeof(ids));
        snprintf(detail, sizeof(detail),
                 "\"%.80s\" fits %zu catalog GPUs (%.159s); sized on \"%.60s\", the catalog's "
                 "default for that name: name the memory or form factor as nvidia-smi prints it "
                 "(\"A100-SXM4-40GB\", \"H100 PCIe\") for another",
                 req->gpu_name, req->gpu_lookup.fits, ids, req->gpu->id);
        codec_write_warning(w, "gpu_default", detail);
    }
    for (uint64_t i = 0; i < req->workload.stage_gpu_count; i++) {
        if (req->stage_gpu_fits[i] <= 1)
            continue;
        char detail[320];
        snprintf(detail, sizeof(detail),
                 "parallelism.stage_gpus[%llu] fits %u catalog GPUs; stage %llu is sized on "
                 "\"%.60s\", the catalog's default for that name: name the memory or form factor "
                 "as nvidia-smi prints it for another",
                 (unsigned long long)i, (unsigned)req->stage_gpu_fits[i], (unsigned long long)i,
                 req->stage_gpu[i]->id);
        codec_write_warning(w, "gpu_default", detail);
    }
}

/* training.accuracy: model states are exact counts; the peak is calibrated
 * against the measured runs in tests/fixtures/calibration, with the figures
 * bench/calibrate.sh stored (all runs, and this framework's when measured):
 * the stored figures less their per-framework table, then this framework's
 * entry as "framework". */
static void write_training_accuracy(struct json_writer *w, const char *framework)
{
    const json_t *measured = codec_training_calibration();
    json_w_begin_object(w);
    json_w_member_string(w, "model_states", "exact");
    json_w_member_string(w, "peak", measured ? "calibrated" : "modelled");
    if (measured != NULL) {
        json_w_key(w, "calibration");
        json_w_begin_object(w);
        const json_t *mine = json_object_get(json_object_get(measured, "frameworks"), framework);
        bool placed = false;
        const char *key;
        const json_t *value;
        json_object_foreach((json_t *)(uintptr_t)measured, key, value) {
            if (strcmp(key, "frameworks") == 0)
                continue;
            const bool replaced = mine != NULL && strcmp(key, "framework") == 0;
            placed = placed || replaced;
            json_w_key_text(w, key);
            json_w_value(w, replaced ? mine : value);
        }
        if (mine != NULL && !placed) {
            json_w_key(w, "framework");
            json_w_value(w, mine);
        }
        json_w_end_object(w);
    }
    json_w_end_object(w);
}

/* Each moment of a training step by component: backward start, backward end, the
 * optimizer step (gs/train_peak.h); per_gpu shows the largest of them. */
static void write_phases(struct json_writer *w, const struct gs_estimate *est)
{
    json_w_begin_object(w);
    for (int p = 0; p < GS_PHASE_COUNT; p++) {
        const struct gs_peak_moment *m = &est->peak.moments[p];
        json_w_key_text(w, gs_peak_phase_name((enum gs_peak_phase)p));
        json_w_begin_object(w);
        json_w_member_u64(w, "weights_bytes", est->per_gpu.weights_bytes);
        json_w_member_u64(w, "optimizer_bytes", est->per_gpu.optimizer_bytes);
        json_w_member_u64(w, "gradients_bytes", m->gradients);
        json_w_member_u64(w, "activations_bytes", m->activations);
        json_w_member_u64(w, "transient_bytes", m->transient);
        json_w_member_u64(w, "allocated_bytes", m->allocated);
        json_w_member_bool(w, "peak", p == (int)est->peak.phase);
        json_w_end_object(w);
    }
    json_w_end_object(w);
}

/* The training settings the estimate used, defaults resolved. */
static void write_training(struct json_writer *w, const struct estimate_request *req,
                           const struct gs_estimate *est)
{
    const struct gs_training *t = &req->workload.training;
    json_w_begin_object(w);
    json_w_member_string(w, "optimizer", gs_optimizer_name(est->optimizer));
    json_w_member_string(w, "method", codec_method_name(est->method));
    json_w_member_string(w, "activation_checkpointing", codec_recompute_name(t->recompute));
    json_w_member_bool(w, "flash_attention", !gs_attn_impl_materializes(est->attn_impl));
    json_w_member_string(w, "attn_implementation", gs_attn_impl_names[est->attn_impl]);
    if (est->recurrent_kernels_sized)
        json_w_member_string(w, "recurrent_kernels",
                             gs_recurrent_kernels_names[est->recurrent_kernels]);
    json_w_member_string(w, "padding", gs_padding_names[t->padding]);
    json_w_member_bool(w, "padding_mask", gs_training_padding_mask(t));
    json_w_member_int(w, "gradient_accumulation_steps",
               (json_int_t)(t->gradient_accumulation_steps ? t->gradient_accumulation_steps : 1));
    if (t->batch_size)
        json_w_member_u64(w, "batch_size", t->batch_size);
    if (t->sequence_length)
        json_w_member_u64(w, "sequence_length", t->sequence_length);
    if (t->freeze_vision_tower)
        json_w_member_bool(w, "freeze_vision_tower", true);
    if (t->images_per_sample) {
        json_w_member_u64(w, "images_per_sample", t->images_per_sample);
        json_w_member_u64(w, "image_tokens", est->image_tokens);
    }
    if (est->method != GS_METHOD_FULL)
        json_w_member_u64(w, "lora_rank", t->lora_rank ? t->lora_rank : 8);
    json_w_member_string(w, "framework", gs_framework_name(t->framework.framework));
    if (t->trl) {
        char release[16];
        snprintf(release, sizeof(release), "%u.%u", (unsigned)(t->trl_version / 100),
                 (unsigned)(t->trl_version % 100));
        json_w_member_string(w, "trl_version", release);
    }
    json_w_member_string(w, "loss", gs_loss_name(est->loss));
    if (est->has_peak) {
        json_w_key(w, "phases");
        write_phases(w, est);
        json_w_key(w, "accuracy");
        write_training_accuracy(w, gs_framework_name(t->framework.framework));
    }
    json_w_end_object(w);
}

static void write_parallelism(struct json_writer *w, const struct gs_parallelism *p,
                              const struct gs_estimate *est)
{
    json_w_begin_object(w);
    json_w_member_int(w, "tensor", (json_int_t)(p->tensor ? p->tensor : 1));
    json_w_member_int(w, "pipeline", (json_int_t)(p->pipeline ? p->pipeline : 1));
    json_w_member_int(w, "data", (json_int_t)(p->data ? p->data : 1));
    json_w_member_int(w, "context", (json_int_t)(p->context ? p->context : 1));
    json_w_member_int(w, "expert", (json_int_t)(p->expert ? p->expert : 1));
    if (est->expert_tensor)
        json_w_member_int(w, "expert_tensor", (json_int_t)est->expert_tensor);
    json_w_member_bool(w, "sequence_parallel", p->sequence_parallel);
    json_w_member_int(w, "zero_stage", (json_int_t)p->zero_stage);
    json_w_member_string(w, "offload", codec_offload_name(p->offload));
    json_w_member_bool(w, "distributed_optimizer", p->distributed_optimizer);
    json_w_member_int(w, "gpus_per_node", (json_int_t)(p->gpus_per_node ? p->gpus_per_node : 8));
    if (p->fsdp_version) {
        json_w_member_int(w, "fsdp_version", p->fsdp_version);
        json_w_member_bool(w, "fsdp_use_orig_params", p->fsdp_use_orig_params);
    }
    if (est->device_map)
        json_w_member_bool(w, "device_map", true);
    uint64_t bounds[GS_LAYERS_MAX + 1];
    if (est->stage_layers > 0 && p->pipeline > 1 && p->pipeline <= GS_LAYERS_MAX &&
        gs_stage_bounds(&est->stages, est->stage_layers, p->pipeline, bounds)) {
        json_w_key(w, "stage_layers");
        json_w_begin_array(w);
        for (uint64_t s = 0; s < p->pipeline; s++)
            json_w_u64(w, bounds[s + 1] - bounds[s]);
        json_w_end_array(w);
        const uint64_t v = gs_stage_chunks(&est->stages);
        if (v > 1) {
            /* each chunk's layers, in Megatron-LM's layout order: chunk 0 of every stage, ... */
            json_w_member_int(w, "virtual_stages", (json_int_t)v);
            json_w_key(w, "virtual_stage_layers");
            json_w_begin_array(w);
            for (uint64_t c = 0; c < v; c++)
                for (uint64_t s = 0; s < p->pipeline; s++) {
                    uint64_t first, end;
                    gs_stage_chunk_range(&est->stages, bounds, est->stage_layers, p->pipeline, s,
                                         c, &first, &end);
                    json_w_u64(w, end - first);
                }
            json_w_end_array(w);
        }
    }
    json_w_end_object(w);
}

void codec_write_estimate(struct json_writer *w, const struct estimate_request *req,
                          const struct gs_estimate *est, const struct gs_fit *fit)
{
    json_w_begin_object(w);
    json_w_key(w, "model");
    codec_write_model_result(w, req, est);
    json_w_member_string(w, "mode", req->workload.mode == GS_MODE_TRAINING ? "training" : "inference");
    json_w_key(w, "precision");
    json_w_begin_object(w);
    json_w_member_string(w, "weights",
                  req->workload.format_given ? gs_weight_format_name(req->workload.format)
                                             : gs_dtype_name(req->workload.weights));
    if (req->workload.group_size)
        json_w_member_u64(w, "group_size", req->workload.group_size);
    if (est->regime != GS_REGIME_NONE)
        json_w_member_string(w, "regime", gs_regime_name(est->regime));
    json_w_end_object(w);
    json_w_member_u64(w, "gpu_count", est->gpu_count);
    json_w_key(w, "per_gpu");
    codec_write_memory(w, &est->per_gpu);
    if (req->workload.mode == GS_MODE_TRAINING) {
        json_w_key(w, "training");
        write_training(w, req, est);
        json_w_key(w, "parallelism");
        struct gs_parallelism sized = req->workload.parallelism;
        sized.sequence_parallel = est->sequence_parallel;
        write_parallelism(w, &sized, est);
        json_w_member_u64(w, "parameters_per_gpu", est->parameters_per_gpu);
        if (req->workload.parallelism.offload != GS_OFFLOAD_NONE)
            json_w_member_u64(w, "host_bytes", est->host_bytes_per_node);
    }
    if (fit != NULL && req->gpu != NULL) {
        json_w_key(w, "fit");
        write_fit(w, req->fit_gpu != NULL ? req->fit_gpu : req->gpu, fit);
    }
    if (est->has_serving) {
        const uint64_t stage = est->serving.binding_stage;
        codec_write_serving(w, &req->workload.serving, req->workload.parallelism.pipeline, est,
                            req->workload.stage_gpu_count > stage ? req->stage_gpu[stage]->id
                                                                  : NULL);
    }
    if (req->parity != CODEC_PARITY_NONE) {
        json_w_key(w, "parity");
        json_w_take(w, codec_encode_parity(req, est));
    }
    json_w_key(w, "assumptions");
    json_w_begin_array(w);
    codec_write_assumption_items(w, req, est);
    json_w_end_array(w);
    json_w_key(w, "warnings");
    write_warnings(w, req, est, fit);
    json_w_end_object(w);
}

static json_t *encode_aliases(char *const *aliases, size_t count)
{
    json_t *list = json_array();
    for (size_t i = 0; list != NULL && i < count; i++) {
        if (!append(list, json_string(aliases[i]))) {
            json_decref(list);
            return NULL;
        }
    }
    return list;
}

/* The summary the catalog listing shows: the first attention layer kind's
 * heads and dims and the first dense (else routed) MLP width, plus every
 * layer kind. */
static json_t *encode_architecture(const struct gs_arch *a)
{
    const struct gs_block *attn = gs_arch_attention_block(a);
    uint64_t width = 0;
    for (size_t k = 0; k < a->block_count && width == 0; k++)
        if (a->blocks[k].mlp.kind == GS_MLP_DENSE)
            width = a->blocks[k].mlp.width;
    for (size_t k = 0; k < a->block_count && width == 0; k++)
        width = a->blocks[k].mlp.width;
    json_t *arch = json_pack("{s:s, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:b}", "model_type",
                             a->model_type, "hidden_size", json_build_u64(a->hidden_size),
                             "num_hidden_layers", json_build_u64(a->num_hidden_layers),
                             "num_attention_heads", json_build_u64(attn ? attn->attn.heads : 0),
                             "num_key_value_heads", json_build_u64(attn ? attn->attn.kv_heads : 0),
                             "head_dim", json_build_u64(attn ? attn->attn.head_dim : 0),
                             "intermediate_size", json_build_u64(width), "vocab_size",
                             json_build_u64(a->vocab_size), "tie_word_embeddings",
                             a->tie_word_embeddings);
    if (arch != NULL &&
        (!put(arch, "max_position_embeddings",
              a->max_position_embeddings ? json_build_u64(a->max_position_embeddings) : json_null()) ||
         !put(arch, "layer_kinds", codec_encode_layer_kinds(a)))) {
        json_decref(arch);
        return NULL;
    }
    return arch;
}

json_t *codec_encode_model(const struct catalog_model *m, const struct gs_arch *arch,
                           json_t *parsed_config)
{
    json_t *config = parsed_config != NULL   ? json_incref(parsed_config)
                     : m->config_json != NULL ? json_loads(m->config_json, 0, NULL)
                                              : NULL;
    json_t *item = json_pack(
        "{s:s, s:s, s:o, s:o, s:s, s:o, s:s, s:s, s:o, s:s}", "id", m->id, "name", m->name, "hf_id",
        nullable_string(m->hf_id), "publisher", nullable_string(m->publisher), "family", m->family,
        "parameters", json_build_u64(m->parameters), "parameters_basis",
        m->parameters_basis != NULL ? m->parameters_basis : "published", "parameters_source",
        m->parameters_source, "config", config != NULL ? config : json_null(), "config_source",
        m->config_source != NULL ? m->config_source : "");
    bool ok = item != NULL && put(item, "aliases", encode_aliases(m->aliases, m->alias_count));
    if (ok && arch != NULL)
        ok = put(item, "architecture", encode_architecture(arch));
    /* imported from a hub: what the checkpoint's headers say and where it came from */
    if (ok && m->checkpoint_json != NULL) {
        json_t *ck = json_loads(m->checkpoint_json, 0, NULL);
        json_t *prov = m->provenance_json != NULL ? json_loads(m->provenance_json, 0, NULL) : NULL;
        ok = put(item, "checkpoint", ck != NULL ? ck : json_null()) &&
             put(item, "provenance", prov != NULL ? prov : json_null()) &&
             put(item, "hub_revision", nullable_string(m->hub_revision));
    }
    ok = ok && put(item, "etag", json_string(m->etag)) &&
         put(item, "revision", json_build_u64(m->revision)) &&
         put(item, "created_at", json_string(m->created_at != NULL ? m->created_at : "")) &&
         put(item, "updated_at", json_string(m->updated_at != NULL ? m->updated_at : ""));
    if (!ok) {
        json_decref(item);
        return NULL;
    }
    return item;
}
