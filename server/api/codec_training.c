/* codec_training.c - training, parallelism and overrides sections (see codec_training.h). */
#include "api/codec_training.h"

#include "formats/jsonv.h"
#include "gs/trl.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define DEGREE_MAX ((uint64_t)1 << 20)

static const char *const training_keys[] = {
    "batch_size",         "sequence_length",     "gradient_accumulation_steps",
    "regime",             "optimizer",           "activation_checkpointing",
    "flash_attention",    "method",              "lora",
    "double_quant",       "framework",           "framework_version",
    "loss",               "loss_chunks",         "compile",
    "optimizer_in_backward", "activation_offloading", "expandable_segments",
    "set_to_none",        "fused_optimizer",     "attn_implementation", "keeps_output",
    "padding",            "padding_mask",        "sync_each_batch",     "recurrent_kernels",
    "prepare_model_for_kbit_training", "trl_version", "images_per_sample", "image_tokens",
    "freeze_vision_tower", NULL};
static const char *const lora_keys[] = {"rank",     "targets",      "dropout",
                                        "use_dora", "peft_version", NULL};
static const char *const parallelism_keys[] = {"tensor", "pipeline", "data", "context", "expert",
                                               "expert_tensor", "stage_layers", "virtual_stages", "sequence_parallel", "zero_stage", "offload",
                                               "distributed_optimizer", "gpus_per_node",
                                               "fsdp_version", "fsdp_use_orig_params", NULL};
static const char *const override_keys[] = {"cuda_context_bytes",    "cublas_workspace_bytes",
                                            "nccl_bytes",            "zero_bucket_bytes",
                                            "fragmentation_fraction", "activation_peak_bytes",
                                            "non_torch_bytes",       "cuda_graph_bytes",
                                            NULL};

static const char *const recompute_names[] = {"none", "selective", "full", "op_selective", NULL};
static const char *const method_names[] = {"full", "lora", "qlora", NULL};
static const char *const offload_names[] = {"none", "optimizer", "optimizer_and_params", NULL};
static const char *const zero_aliases[] = {"no_shard", "shard_grad_op", "full_shard", NULL};
static const unsigned zero_alias_stage[] = {0, 2, 3};

const char *codec_recompute_name(enum gs_recompute r)
{
    return r <= GS_RECOMPUTE_OP_SELECTIVE ? recompute_names[r] : "none";
}

const char *codec_method_name(enum gs_method m)
{
    return m <= GS_METHOD_QLORA ? method_names[m] : "full";
}

const char *codec_offload_name(enum gs_offload o)
{
    return o <= GS_OFFLOAD_OPTIMIZER_AND_PARAMS ? offload_names[o] : "none";
}

/* A section must be an object of known keys. */
static bool section_ok(const json_t *section, const char *pointer, const char *const *keys,
                       struct gs_error *err)
{
    if (!json_is_object(section)) {
        gs_error_add(err, GS_ERR_INVALID, pointer, "must be an object, got %s",
                     jsonv_type_name(section));
        return false;
    }
    return jsonv_only_keys(section, pointer, keys, err);
}

static void read_uint(const json_t *section, const char *base, const char *key, uint64_t min,
                      uint64_t max, uint64_t *out, bool *ok, struct gs_error *err)
{
    const json_t *v = json_object_get(section, key);
    if (v == NULL)
        return;
    char where[JSONV_POINTER_MAX];
    jsonv_pointer(where, sizeof(where), base, key);
    if (!jsonv_uint(v, where, min, max, out, err))
        *ok = false;
}

static void read_bool(const json_t *section, const char *base, const char *key, bool *out,
                      bool *ok, struct gs_error *err)
{
    const json_t *v = json_object_get(section, key);
    if (v == NULL)
        return;
    char where[JSONV_POINTER_MAX];
    jsonv_pointer(where, sizeof(where), base, key);
    if (!jsonv_bool(v, where, out, err))
        *ok = false;
}

/* Returns the choice index, or -1 when absent; *ok false when invalid. */
static int read_enum(const json_t *section, const char *base, const char *key,
                     const char *const *choices, bool *ok, struct gs_error *err)
{
    const json_t *v = json_object_get(section, key);
    if (v == NULL)
        return -1;
    char where[JSONV_POINTER_MAX];
    jsonv_pointer(where, sizeof(where), base, key);
    int index = -1;
    if (!jsonv_enum(v, where, choices, &index, err)) {
        *ok = false;
        return -1;
    }
    return index;
}

/* One target name: a module name as PEFT's target_modules takes it (letters,
 * digits, '_' and '.'), checked against the model's modules by the core, or the
 * every-linear shorthand in either spelling: PEFT's own "all-linear"
 * (peft/utils/constants.py INCLUDE_LINEAR_LAYERS_SHORTHAND) is what users paste. */
static bool read_target(const json_t *name, const char *where, struct gs_training *out,
                        struct gs_error *err)
{
    const char *s = json_string_value(name);
    if (s == NULL) {
        gs_error_add(err, GS_ERR_INVALID, where, "must be a module name string, got %s",
                     jsonv_type_name(name));
        return false;
    }
    if (strcmp(s, "all-linear") == 0)
        s = GS_LORA_ALL_LINEAR;
    const size_t n = strlen(s);
    bool plain = n > 0 && n < GS_LORA_NAME_MAX;
    for (size_t i = 0; plain && i < n; i++)
        plain = isalnum((unsigned char)s[i]) || s[i] == '_' || s[i] == '.';
    if (!plain) {
        gs_error_add(err, GS_ERR_INVALID, where,
                     "must be a module name (letters, digits, '_' and '.', under %d characters) "
                     "such as \"q_proj\", or \"all_linear\" (PEFT's \"all-linear\")",
                     GS_LORA_NAME_MAX);
        return false;
    }
    if (out->lora_target_count >= GS_LORA_TARGETS_MAX) {
        gs_error_add(err, GS_ERR_INVALID, where, "at most %d targets", GS_LORA_TARGETS_MAX);
        return false;
    }
    memcpy(out->lora_targets[out->lora_target_count++], s, n + 1);
    return true;
}

static bool decode_lora(const json_t *lora, struct gs_training *out, struct gs_error *err)
{
    if (!section_ok(lora, "/training/lora", lora_keys, err))
        return false;
    bool ok = true;
    read_uint(lora, "/training/lora", "rank", 1, 65536, &out->lora_rank, &ok, err);
    const json_t *dropout = json_object_get(lora, "dropout");
    if (dropout != NULL) {
        const double d = json_number_value(dropout);
        if (!json_is_number(dropout) || !(d >= 0 && d < 1)) {
            gs_error_add(err, GS_ERR_INVALID, "/training/lora/dropout",
                         "must be a probability in [0, 1), as PEFT's lora_dropout");
            ok = false;
        } else {
            out->lora_dropout_permille = (uint32_t)lround(d * 1000);
            if (out->lora_dropout_permille == 0 && d > 0)
                out->lora_dropout_permille = 1; /* any dropout copies the input */
        }
    }
    const json_t *dora = json_object_get(lora, "use_dora");
    if (dora != NULL && !jsonv_bool(dora, "/training/lora/use_dora", &out->lora_dora, err))
        ok = false;
    /* the PEFT release: from 0.19 LoRA on a MoE's v4 expert names adapts transformers 5.x's
     * fused experts (core gs_lora_peft_resolve) */
    const json_t *peft = json_object_get(lora, "peft_version");
    if (peft != NULL && (!json_is_string(peft) ||
                         !gs_release_parse(json_string_value(peft), true, &out->peft_version) ||
                         out->peft_version == 0)) {
        gs_error_add(err, GS_ERR_INVALID, "/training/lora/peft_version",
                     "must be a PEFT release such as \"0.18\" or \"0.19.1\"");
        ok = false;
    }
    const json_t *targets = json_object_get(lora, "targets");
    out->lora_target_count = 0;
    if (targets == NULL)
        return ok;
    if (json_is_string(targets)) /* "all_linear" alone is common shorthand */
        return read_target(targets, "/training/lora/targets", out, err) && ok;
    if (!json_is_array(targets) || json_array_size(targets) == 0) {
        gs_error_add(err, GS_ERR_INVALID, "/training/lora/targets",
                     "must be a non-empty list of module names such as [\"q_proj\", \"v_proj\"] "
                     "or \"all_linear\"");
        return false;
    }
    size_t i;
    const json_t *name;
    json_array_foreach(targets, i, name) {
        char where[JSONV_POINTER_MAX];
        snprintf(where, sizeof(where), "/training/lora/targets/%zu", i);
        ok &= read_target(name, where, out, err);
    }
    return ok;
}

static void read_knob(const json_t *section, const char *key, enum gs_knob *out, bool *ok,
                      struct gs_error *err)
{
    bool value = false, given = json_object_get(section, key) != NULL;
    read_bool(section, "/training", key, &value, ok, err);
    if (given)
        *out = value ? GS_KNOB_ON : GS_KNOB_OFF;
}

/* framework, its release and the switches it defaults (gs/framework.h). */
static bool decode_framework(const json_t *section, struct gs_training_knobs *k,
                             struct gs_error *err)
{
    bool ok = true;
    const char *base = "/training";
    const char *framework_names[GS_FW_COUNT + 1];
    JSONV_ENUM_NAMES(framework_names, 0, GS_FW_COUNT, gs_framework_name, enum gs_framework);
    int i = read_enum(section, base, "framework", framework_names, &ok, err);
    if (i >= 0) {
        k->framework = (enum gs_framework)i;
        k->framework_given = true;
    }
    /* releases are modelled where a framework's rules changed between them (core
     * gs_framework_has_releases): transformers (4.x, 5.x), torchtitan (0.x: "0.0" for its
     * commits before the first release) and LitGPT (0.x: "0.1" for lit-gpt) */
    const json_t *version = json_object_get(section, "framework_version");
    if (version != NULL) {
        const bool titan = k->framework_given && k->framework == GS_FW_TORCHTITAN;
        const bool zero_major = k->framework_given && k->framework != GS_FW_TRANSFORMERS;
        if (!json_is_string(version) ||
            !gs_release_parse(json_string_value(version), zero_major, &k->framework_version)) {
            gs_error_add(err, GS_ERR_INVALID, "/training/framework_version",
                         titan        ? "must be a torchtitan release such as \"0.1\" or \"0.2.2\" "
                                        "(\"0.0\": a commit before 0.1.0)"
                         : zero_major ? "must be a release such as \"0.4\" or \"0.5.5\""
                                      : "must be a release such as \"4.45\" or \"4.46.3\"");
            ok = false;
        } else if (!k->framework_given || !gs_framework_has_releases(k->framework)) {
            char names[160] = "";
            size_t used = 0;
            for (int f = 0; f < GS_FW_COUNT; f++)
                if (gs_framework_has_releases((enum gs_framework)f) && used < sizeof(names))
                    used +=
                        (size_t)snprintf(names + used, sizeof(names) - used, "%s\"%s\"",
                                         used ? ", " : "", gs_framework_name((enum gs_framework)f));
            gs_error_add(err, GS_ERR_INVALID, "/training/framework_version",
                         "releases are modelled for framework %s, where the rules changed "
                         "between them; name one of them",
                         names);
            ok = false;
        } else {
            k->framework_version_given = true;
            k->framework_patch = gs_release_patch(json_string_value(version));
        }
    }
    const char *loss_names[GS_LOSS_COUNT - GS_LOSS_FP32_RETAINED + 1];
    JSONV_ENUM_NAMES(loss_names, GS_LOSS_FP32_RETAINED, GS_LOSS_COUNT, gs_loss_name, enum gs_loss);
    i = read_enum(section, base, "loss", loss_names, &ok, err);
    if (i >= 0)
        k->loss = (enum gs_loss)(i + GS_LOSS_FP32_RETAINED);
    read_uint(section, base, "loss_chunks", 1, 4096, &k->loss_chunks, &ok, err);
    read_knob(section, "compile", &k->compile, &ok, err);
    read_knob(section, "optimizer_in_backward", &k->optimizer_in_backward, &ok, err);
    read_knob(section, "activation_offloading", &k->activation_offloading, &ok, err);
    read_knob(section, "expandable_segments", &k->expandable_segments, &ok, err);
    read_knob(section, "set_to_none", &k->set_to_none, &ok, err);
    read_knob(section, "fused_optimizer", &k->fused_optimizer, &ok, err);
    read_knob(section, "keeps_output", &k->keeps_output, &ok, err);
    read_knob(section, "sync_each_batch", &k->sync_each_batch, &ok, err);
    return ok;
}

/* "attn_implementation" by transformers' names; "flash_attention" is its older spelling
 * (true: a kernel keeping the log-sum-exp, taken as flash_attention_2; false: eager). */
static bool read_attention(const json_t *section, struct gs_training *out, struct gs_error *err)
{
    bool ok = true, flash = out->flash_attention;
    const bool flash_given = json_object_get(section, "flash_attention") != NULL;
    read_bool(section, "/training", "flash_attention", &flash, &ok, err);
    const int i = read_enum(section, "/training", "attn_implementation", gs_attn_impl_names, &ok,
                            err);
    if (!ok)
        return false;
    if (i >= 0) {
        const enum gs_attn_impl impl = (enum gs_attn_impl)i;
        if (flash_given && flash == gs_attn_impl_materializes(impl)) {
            gs_error_add(err, GS_ERR_INVALID, "/training/flash_attention",
                         "says %s, but attn_implementation \"%s\" %s the score matrix; give one",
                         flash ? "true" : "false", gs_attn_impl_names[impl],
                         gs_attn_impl_materializes(impl) ? "keeps" : "does not keep");
            return false;
        }
        out->attn_impl = impl;
        out->attn_impl_given = true;
    } else if (flash_given) {
        out->attn_impl = flash ? GS_ATTN_FLASH2 : GS_ATTN_EAGER;
        out->attn_impl_given = true;
    }
    out->flash_attention = !gs_attn_impl_materializes(out->attn_impl);
    return true;
}

bool codec_decode_training(const json_t *section, struct gs_training *out, struct gs_error *err)
{
    if (section == NULL)
        return true;
    if (!section_ok(section, "/training", training_keys, err))
        return false;
    bool ok = true;
    const char *base = "/training";
    read_uint(section, base, "batch_size", 1, DEGREE_MAX, &out->batch_size, &ok, err);
    read_uint(section, base, "sequence_length", 1, (uint64_t)1 << 24, &out->sequence_length, &ok,
              err);
    read_uint(section, base, "gradient_accumulation_steps", 1, DEGREE_MAX,
              &out->gradient_accumulation_steps, &ok, err);
    read_uint(section, base, "images_per_sample", 0, 4096, &out->images_per_sample, &ok, err);
    read_uint(section, base, "image_tokens", 1, (uint64_t)1 << 24, &out->image_tokens, &ok, err);
    read_bool(section, base, "freeze_vision_tower", &out->freeze_vision_tower, &ok, err);
    const char *regime_names[GS_REGIME_COUNT - GS_REGIME_FP32 + 1];
    JSONV_ENUM_NAMES(regime_names, GS_REGIME_FP32, GS_REGIME_COUNT, gs_regime_name, enum gs_regime);
    int i = read_enum(section, base, "regime", regime_names, &ok, err);
    if (i >= 0)
        out->regime = (enum gs_regime)(i + GS_REGIME_FP32);
    const char *optimizer_names[GS_OPT_COUNT + 1];
    JSONV_ENUM_NAMES(optimizer_names, 0, GS_OPT_COUNT, gs_optimizer_name, enum gs_optimizer);
    i = read_enum(section, base, "optimizer", optimizer_names, &ok, err);
    if (i >= 0)
        out->optimizer = (enum gs_optimizer)i;
    i = read_enum(section, base, "activation_checkpointing", recompute_names, &ok, err);
    if (i >= 0) {
        out->recompute = (enum gs_recompute)i;
        out->recompute_given = true;
    }
    ok &= read_attention(section, out, err);
    i = read_enum(section, base, "method", method_names, &ok, err);
    if (i >= 0) {
        out->method = (enum gs_method)i;
        out->method_given = true;
    }
    read_bool(section, base, "double_quant", &out->double_quant, &ok, err);
    out->kbit_given = json_object_get(section, "prepare_model_for_kbit_training") != NULL;
    read_bool(section, base, "prepare_model_for_kbit_training", &out->kbit_prepared, &ok, err);
    i = read_enum(section, base, "padding", gs_padding_names, &ok, err);
    if (i >= 0) {
        out->padding = (enum gs_padding)i;
        out->padding_given = true;
    }
    read_knob(section, "padding_mask", &out->padding_mask, &ok, err);
    i = read_enum(section, base, "recurrent_kernels", gs_recurrent_kernels_names, &ok, err);
    if (i >= 0) {
        out->recurrent_kernels = (enum gs_recurrent_kernels)i;
        out->recurrent_kernels_given = true;
    }
    ok &= decode_framework(section, &out->framework, err);
    const json_t *trl = json_object_get(section, "trl_version");
    if (trl != NULL) {
        if (!json_is_string(trl) ||
            !gs_trl_version_parse(json_string_value(trl), &out->trl_version)) {
            gs_error_add(err, GS_ERR_INVALID, "/training/trl_version",
                         "must be a TRL release such as \"1.7\" or \"0.26.2\"");
            ok = false;
        } else {
            out->trl = true;
        }
    }
    const json_t *lora = json_object_get(section, "lora");
    if (lora != NULL) {
        ok &= decode_lora(lora, out, err);
        if (ok && out->method == GS_METHOD_FULL && out->method_given) {
            gs_error_add(err, GS_ERR_INVALID, "/training/lora",
                         "applies to method lora or qlora, not full");
            ok = false;
        } else if (!out->method_given) {
            out->method = GS_METHOD_LORA; /* adapter settings mean adapters; int4 makes it QLoRA */
        }
    }
    return ok;
}

static void read_zero_stage(const json_t *section, struct gs_parallelism *out, bool *ok,
                            struct gs_error *err)
{
    const json_t *v = json_object_get(section, "zero_stage");
    if (v == NULL)
        return;
    if (json_is_string(v)) { /* FSDP sharding strategies */
        int index = 0;
        if (jsonv_enum(v, "/parallelism/zero_stage", zero_aliases, &index, err)) {
            out->zero_stage = zero_alias_stage[index];
            out->fsdp = true;
        }
        else
            *ok = false;
        return;
    }
    uint64_t stage = 0;
    if (jsonv_uint(v, "/parallelism/zero_stage", 0, 3, &stage, err))
        out->zero_stage = (unsigned)stage;
    else
        *ok = false;
}

/* parallelism.stage_layers: each pipeline stage's decoder layers, in stage order (with
 * virtual_stages, read first, each virtual stage's: chunk 0 of every stage, then chunk 1, ...);
 * it sets the pipeline degree when that is not given and must agree with it when it is (the
 * sum is checked against the model in gs_parallelism_validate). */
static void read_stage_layers(const json_t *section, struct gs_parallelism *out, bool *ok,
                              struct gs_error *err)
{
    const json_t *list = json_object_get(section, "stage_layers");
    if (list == NULL)
        return;
    const size_t n = json_array_size(list);
    if (!json_is_array(list) || n < 1 || n > GS_STAGES_GIVEN_MAX) {
        gs_error_add(err, GS_ERR_INVALID, "/parallelism/stage_layers",
                     "must be an array of 1 to %d layer counts, one a pipeline stage",
                     GS_STAGES_GIVEN_MAX);
        *ok = false;
        return;
    }
    for (size_t i = 0; i < n; i++) {
        char where[64];
        snprintf(where, sizeof(where), "/parallelism/stage_layers/%zu", i);
        uint64_t layers = 0;
        if (!jsonv_uint(json_array_get(list, i), where, 0, GS_LAYERS_MAX, &layers, err)) {
            *ok = false;
            return;
        }
        out->stages.given[i] = (uint16_t)layers;
    }
    /* under an interleaved schedule the list is the virtual stages' (Megatron-LM's layout) */
    const uint64_t v = out->stages.chunks > 1 ? out->stages.chunks : 1;
    if (json_object_get(section, "pipeline") != NULL && out->pipeline * v != n) {
        if (v > 1)
            gs_error_add(err, GS_ERR_INVALID, "/parallelism/stage_layers",
                         "lists %zu virtual stages; pipeline x virtual_stages is %llu", n,
                         (unsigned long long)(out->pipeline * v));
        else
            gs_error_add(err, GS_ERR_INVALID, "/parallelism/stage_layers",
                         "lists %zu stages; pipeline is %llu", n, (unsigned long long)out->pipeline);
        *ok = false;
        return;
    }
    if (n % v != 0) {
        gs_error_add(err, GS_ERR_INVALID, "/parallelism/stage_layers",
                     "lists %zu virtual stages, not a multiple of virtual_stages %llu", n,
                     (unsigned long long)v);
        *ok = false;
        return;
    }
    out->pipeline = n / v;
    out->stages.split = GS_SPLIT_GIVEN;
    out->stages.given_count = (uint32_t)n;
}

bool codec_decode_stage_layers(const json_t *section, struct gs_parallelism *out,
                               struct gs_error *err)
{
    bool ok = true;
    read_stage_layers(section, out, &ok, err);
    return ok;
}

bool codec_decode_parallelism(const json_t *section, struct gs_parallelism *out,
                              struct gs_error *err)
{
    if (section == NULL)
        return true;
    if (!section_ok(section, "/parallelism", parallelism_keys, err))
        return false;
    bool ok = true;
    const char *base = "/parallelism";
    read_uint(section, base, "tensor", 1, DEGREE_MAX, &out->tensor, &ok, err);
    read_uint(section, base, "pipeline", 1, DEGREE_MAX, &out->pipeline, &ok, err);
    read_uint(section, base, "data", 1, DEGREE_MAX, &out->data, &ok, err);
    read_uint(section, base, "context", 1, DEGREE_MAX, &out->context, &ok, err);
    read_uint(section, base, "expert", 1, DEGREE_MAX, &out->expert, &ok, err);
    read_uint(section, base, "expert_tensor", 1, DEGREE_MAX, &out->expert_tensor, &ok, err);
    /* model chunks a pipeline stage runs under an interleaved schedule (Megatron-LM
     * --num-virtual-stages-per-pipeline-rank) */
    uint64_t chunks = 0;
    read_uint(section, base, "virtual_stages", 1, GS_STAGE_CHUNKS_MAX, &chunks, &ok, err);
    if (chunks)
        out->stages.chunks = (uint16_t)chunks;
    if (ok)
        read_stage_layers(section, out, &ok, err);
    read_uint(section, base, "gpus_per_node", 1, 1024, &out->gpus_per_node, &ok, err);
    read_bool(section, base, "sequence_parallel", &out->sequence_parallel, &ok, err);
    out->sequence_parallel_given = json_object_get(section, "sequence_parallel") != NULL;
    read_bool(section, base, "distributed_optimizer", &out->distributed_optimizer, &ok, err);
    read_zero_stage(section, out, &ok, err);
    uint64_t fsdp_version = 0;
    read_uint(section, base, "fsdp_version", 1, 2, &fsdp_version, &ok, err);
    if (fsdp_version) { /* naming an FSDP version means FSDP shards */
        out->fsdp_version = (unsigned)fsdp_version;
        out->fsdp = true;
    }
    read_bool(section, base, "fsdp_use_orig_params", &out->fsdp_use_orig_params, &ok, err);
    if (ok && out->fsdp_use_orig_params && out->fsdp_version == 2) {
        gs_error_add(err, GS_ERR_INVALID, "/parallelism/fsdp_use_orig_params",
                     "applies to FSDP1's FlatParameter; FSDP2 shards each parameter on its own");
        ok = false;
    }
    int i = read_enum(section, base, "offload", offload_names, &ok, err);
    if (i >= 0)
        out->offload = (enum gs_offload)i;
    return ok;
}

bool codec_decode_overrides(const json_t *section, struct gs_workload *w, struct gs_error *err)
{
    struct gs_overrides *out = &w->overrides;
    struct gs_engine_config *engine = &w->serving.engine;
    if (section == NULL)
        return true;
    if (!section_ok(section, "/overrides", override_keys, err))
        return false;
    bool ok = true;
    const char *base = "/overrides";
    const uint64_t cap = (uint64_t)1 << 50; /* 1 PiB: beyond any GPU */
    struct {
        const char *key;
        bool *has;
        uint64_t *value;
    } bytes[] = {
        {"cuda_context_bytes", &out->has_cuda_context_bytes, &out->cuda_context_bytes},
        {"cublas_workspace_bytes", &out->has_cublas_workspace_bytes, &out->cublas_workspace_bytes},
        {"nccl_bytes", &out->has_nccl_bytes, &out->nccl_bytes},
        {"zero_bucket_bytes", &out->has_zero_bucket_bytes, &out->zero_bucket_bytes},
        {"activation_peak_bytes", &engine->has_activation_bytes, &engine->activation_bytes},
        {"non_torch_bytes", &engine->has_non_torch_bytes, &engine->non_torch_bytes},
        {"cuda_graph_bytes", &engine->has_cuda_graph_bytes, &engine->cuda_graph_bytes},
    };
    for (size_t k = 0; k < sizeof(bytes) / sizeof(bytes[0]); k++) {
        if (json_object_get(section, bytes[k].key) == NULL)
            continue;
        bool field_ok = true;
        read_uint(section, base, bytes[k].key, 0, cap, bytes[k].value, &field_ok, err);
        *bytes[k].has = field_ok;
        ok &= field_ok;
    }
    const json_t *f = json_object_get(section, "fragmentation_fraction");
    if (f != NULL) {
        double value = json_is_number(f) ? json_number_value(f) : -1;
        if (!json_is_number(f) || !(value >= 0 && value <= 1)) {
            gs_error_add(err, GS_ERR_INVALID, "/overrides/fragmentation_fraction",
                         "must be a number from 0 to 1 (0.05 = 5%%)");
            ok = false;
        } else {
            out->has_fragmentation_permille = true;
            out->fragmentation_permille = (uint64_t)llround(value * 1000);
        }
    }
    return ok;
}
