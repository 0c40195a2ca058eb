/*
 * reader.c - the config-reading toolkit, the registry of model types and
 * the checkpoint's stored format (see reader.h).
 */
#include "reader.h"

#include "../jsonv.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* Every reader table, each under the name of its lineage: the one list that the supported
 * types shown anywhere (GET /v1/model-types, the README, the web form) are generated from. */
static const struct models_lineage lineages[] = {
    {"Llama-style decoders and their mixtures of experts", MODELS_DECODER},
    {"multi-head latent attention", MODELS_MLA},
    {"sparse and compressed attention", MODELS_SPARSE_ATTENTION},
    {"Kimi", MODELS_KIMI},
    {"state-space, linear-attention and hybrid models", MODELS_HYBRID},
    {"Qwen vision-language, omni and hybrid models", MODELS_QWEN},
    {"Gemma 4 and Gemma 3n", MODELS_GEMMA},
    {"heterogeneous layer stacks", MODELS_HETEROGENEOUS},
    {"mixtures of experts with their own routers", MODELS_MOE},
    {"vision and audio models", MODELS_MULTIMODAL},
    {"earlier models and encoders", MODELS_CLASSIC},
};

#define LINEAGE_COUNT (sizeof(lineages) / sizeof(lineages[0]))

const struct models_lineage *models_lineages(size_t *count)
{
    *count = LINEAGE_COUNT;
    return lineages;
}

const json_t *rd_get(const struct model_reader *r, const char *name)
{
    const json_t *v = json_object_get(r->config, name);
    return v != NULL && !json_is_null(v) ? v : NULL;
}

static void where(const struct model_reader *r, const char *name, char *out, size_t cap)
{
    if (name == NULL || name[0] == '\0')
        snprintf(out, cap, "%s", r->pointer);
    else
        jsonv_pointer(out, cap, r->pointer, name);
}

void rd_fail(struct model_reader *r, const char *name, enum gs_status status, const char *fmt, ...)
{
    char at[READER_POINTER_MAX];
    char detail[GS_ERROR_DETAIL_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(detail, sizeof(detail), fmt, ap);
    va_end(ap);
    where(r, name, at, sizeof(at));
    gs_error_add(r->err, status, at, "%s", detail);
    r->ok = false;
}

/* The first of `names` present and not null, an integer in min..GS_ARCH_DIM_MAX (an error at
 * its pointer otherwise); `fallback` when none is (an error when `required`). */
static uint64_t read_dim(struct model_reader *r, const char *const *names, uint64_t min,
                         bool required, uint64_t fallback)
{
    for (const char *const *n = names; *n != NULL; n++) {
        const json_t *v = rd_get(r, *n);
        if (v == NULL)
            continue;
        char at[READER_POINTER_MAX];
        uint64_t out = 0;
        where(r, *n, at, sizeof(at));
        if (!jsonv_uint(v, at, min, GS_ARCH_DIM_MAX, &out, r->err)) {
            r->ok = false;
            return fallback;
        }
        return out;
    }
    if (required)
        rd_fail(r, names[0], GS_ERR_INVALID, "is required for this model_type");
    return fallback;
}

uint64_t rd_dim(struct model_reader *r, const char *const *names, bool required, uint64_t fallback)
{
    return read_dim(r, names, required ? 1 : 0, required, fallback);
}

uint64_t rd_size(struct model_reader *r, const char *const *names, uint64_t fallback)
{
    return read_dim(r, names, 1, false, fallback);
}

bool rd_flag(struct model_reader *r, const char *name, bool fallback)
{
    const json_t *v = rd_get(r, name);
    if (v == NULL)
        return fallback;
    char at[READER_POINTER_MAX];
    bool out = fallback;
    where(r, name, at, sizeof(at));
    if (!jsonv_bool(v, at, &out, r->err))
        r->ok = false;
    return out;
}

double rd_number(struct model_reader *r, const char *name, double fallback)
{
    const json_t *v = rd_get(r, name);
    if (v == NULL)
        return fallback;
    if (!json_is_number(v)) {
        rd_fail(r, name, GS_ERR_INVALID, "must be a number, got %s", jsonv_type_name(v));
        return fallback;
    }
    return json_number_value(v);
}

const char *rd_string(const struct model_reader *r, const char *name)
{
    const json_t *v = rd_get(r, name);
    return json_is_string(v) ? json_string_value(v) : NULL;
}

bool rd_dropout(const struct model_reader *r, const char *const *names)
{
    for (const char *const *n = names; *n != NULL; n++) {
        const json_t *v = rd_get(r, *n);
        if (json_is_number(v) && json_number_value(v) > 0)
            return true;
    }
    return false;
}

bool rd_dropout_or(const struct model_reader *r, const char *const *names, bool absent)
{
    for (const char *const *n = names; *n != NULL; n++)
        if (rd_get(r, *n) != NULL)
            return rd_dropout(r, names);
    return absent;
}

bool rd_sub(struct model_reader *r, const char *name, struct model_reader *sub)
{
    const json_t *v = rd_get(r, name);
    if (v == NULL)
        return false;
    if (!json_is_object(v)) {
        rd_fail(r, name, GS_ERR_INVALID, "must be an object, got %s", jsonv_type_name(v));
        return false;
    }
    sub->config = v;
    where(r, name, sub->pointer, sizeof(sub->pointer));
    sub->err = r->err;
    sub->ok = true;
    return true;
}

size_t rd_array(struct model_reader *r, const char *name, const json_t **out)
{
    const json_t *v = rd_get(r, name);
    *out = NULL;
    if (v == NULL)
        return 0;
    if (!json_is_array(v)) {
        rd_fail(r, name, GS_ERR_INVALID, "must be an array, got %s", jsonv_type_name(v));
        return 0;
    }
    *out = v;
    return json_array_size(v);
}

/* ------------------------------------------------------------ the registry */

const char *models_supported(void)
{
    /* built once; the lineages are constant, so every thread builds the same text */
    static char list[4096];
    static bool built;
    if (built)
        return list;
    char buf[sizeof(list)];
    size_t used = 0;
    buf[0] = '\0';
    for (size_t t = 0; t < LINEAGE_COUNT; t++)
        for (const struct model_type *m = lineages[t].types; m->model_type != NULL; m++) {
            const int n = snprintf(buf + used, sizeof(buf) - used, "%s%s", used ? ", " : "",
                                   m->model_type);
            if (n > 0 && (size_t)n < sizeof(buf) - used)
                used += (size_t)n;
        }
    memcpy(list, buf, sizeof(list));
    __atomic_store_n(&built, true, __ATOMIC_RELEASE);
    return list;
}

static const struct model_type *find_type(const char *model_type)
{
    for (size_t t = 0; t < LINEAGE_COUNT; t++)
        for (const struct model_type *m = lineages[t].types; m->model_type != NULL; m++)
            if (strcmp(m->model_type, model_type) == 0)
                return m;
    return NULL;
}

static const struct model_type *find_architecture(const char *architecture)
{
    for (size_t t = 0; t < LINEAGE_COUNT; t++)
        for (const struct model_type *m = lineages[t].types; m->model_type != NULL; m++)
            if (m->architecture != NULL && strcmp(m->architecture, architecture) == 0)
                return m;
    return NULL;
}

static const char *first_architecture(const json_t *config)
{
    const json_t *list = json_object_get(config, "architectures");
    const json_t *first = json_is_array(list) ? json_array_get(list, 0) : NULL;
    return json_is_string(first) ? json_string_value(first) : NULL;
}

uint64_t rd_labels(const struct model_reader *r)
{
    const json_t *n = rd_get(r, "num_labels");
    if (json_is_integer(n) && json_integer_value(n) > 0 && json_integer_value(n) < (1 << 24))
        return (uint64_t)json_integer_value(n);
    const json_t *labels = rd_get(r, "id2label");
    const size_t size = json_is_object(labels) ? json_object_size(labels) : 0;
    return size > 0 ? size : 2;
}

const char *rd_architecture(const struct model_reader *r)
{
    return first_architecture(r->config);
}

/* The config holding the text model's fields: text_config when there is one. */
static const json_t *text_config(const json_t *config)
{
    const json_t *text = json_object_get(config, "text_config");
    return json_is_object(text) ? text : config;
}

/* The rope scaling object: rope_scaling, or transformers 5's rope_parameters (for a model
 * with a rope per layer type, its full-attention one), at the top or under text_config. */
static const json_t *rope_object(const json_t *config)
{
    const json_t *places[2] = {config, text_config(config)};
    for (size_t i = 0; i < 2; i++) {
        const json_t *rope = json_object_get(places[i], "rope_scaling");
        if (!json_is_object(rope))
            rope = json_object_get(places[i], "rope_parameters");
        const json_t *full = json_is_object(rope) ? json_object_get(rope, "full_attention") : NULL;
        if (json_is_object(full))
            rope = full;
        if (json_is_object(rope))
            return rope;
    }
    return NULL;
}

static const char *rope_type(const json_t *rope)
{
    const json_t *type_v = json_object_get(rope, "rope_type");
    if (!json_is_string(type_v))
        type_v = json_object_get(rope, "type");
    return json_is_string(type_v) ? json_string_value(type_v) : "";
}

static double rope_factor(const json_t *rope)
{
    const json_t *factor_v = json_object_get(rope, "factor");
    return json_is_number(factor_v) ? json_number_value(factor_v) : 1;
}

/* vLLM's _get_and_verify_max_len: max_position_embeddings, scaled by a
 * rope_scaling factor unless the scaling is su, longrope or llama3 (which
 * already state the extended length); yarn scales
 * original_max_position_embeddings. */
static uint64_t derived_max_model_len(const json_t *config, uint64_t positions)
{
    const json_t *rope = rope_object(config);
    if (positions == 0 || rope == NULL)
        return positions;
    const char *type = rope_type(rope);
    const double factor = rope_factor(rope);
    if (strcmp(type, "su") == 0 || strcmp(type, "longrope") == 0 || strcmp(type, "llama3") == 0 ||
        !(factor >= 1 && factor <= 1024))
        return positions;
    uint64_t base = positions;
    const json_t *original = json_object_get(rope, "original_max_position_embeddings");
    if (strcmp(type, "yarn") == 0 && json_is_integer(original) && json_integer_value(original) > 0)
        base = (uint64_t)json_integer_value(original);
    return (uint64_t)((double)base * factor);
}

static uint64_t int_member(const json_t *o, const char *name, uint64_t fallback);

/* Positions in the cos/sin table vLLM's get_rope builds for this scaling
 * (the _compute_cos_sin_cache of each class in
 * model_executor/layers/rotary_embedding): max_position for the default,
 * llama3, mrope, NTK-alpha and Llama 4 ropes; max_position x factor for
 * linear (LinearScalingRotaryEmbedding, one factor) and dynamic NTK
 * (DynamicNTKScalingRotaryEmbedding); original_max_position_embeddings x
 * factor for YaRN and DeepSeek's YaRN (YaRNScalingRotaryEmbedding,
 * DeepseekScalingRotaryEmbedding); original + max_position for Phi-3's
 * longrope, which stacks a short and a long table
 * (Phi3LongRoPEScaledRotaryEmbedding). torch.arange over a fractional end
 * counts the last partial position. */
static uint64_t rope_rows(const json_t *rope, uint64_t positions)
{
    if (rope == NULL)
        return positions;
    const char *type = rope_type(rope);
    const double factor = rope_factor(rope);
    const uint64_t original = int_member(rope, "original_max_position_embeddings", 0);
    if (strcmp(type, "longrope") == 0 || strcmp(type, "su") == 0)
        return (original ? original : positions) + positions;
    if (!(factor >= 1 && factor <= 1024))
        return positions;
    if (strcmp(type, "linear") == 0 ||
        (strcmp(type, "dynamic") == 0 && json_object_get(rope, "alpha") == NULL))
        return (uint64_t)ceil((double)positions * factor);
    if (strcmp(type, "yarn") == 0 || strcmp(type, "deepseek_yarn") == 0 ||
        strcmp(type, "deepseek_llama_scaling") == 0)
        return (uint64_t)ceil((double)(original ? original : positions) * factor);
    return positions;
}

/* The rotary dimension: MLA's qk_rope_head_dim; else the head size times
 * partial_rotary_factor (rotary_pct for GPT-NeoX), or the config's rotary_dim
 * (MiniMax-M2), as vLLM's models pass it to get_rope. */
static uint64_t rotary_dim(const json_t *config, const json_t *rope, const struct gs_block *blk)
{
    if (blk->mixer == GS_MIXER_MLA)
        return blk->attn.qk_rope_head_dim;
    const json_t *text = text_config(config);
    const uint64_t dim = int_member(text, "rotary_dim", 0);
    if (dim > 0 && dim <= blk->attn.head_dim)
        return dim;
    const json_t *f = json_object_get(text, "partial_rotary_factor");
    if (!json_is_number(f))
        f = json_object_get(text, "rotary_pct");
    if (!json_is_number(f) && rope != NULL)
        f = json_object_get(rope, "partial_rotary_factor");
    const double factor = json_is_number(f) ? json_number_value(f) : 1;
    if (!(factor > 0 && factor <= 1))
        return blk->attn.head_dim;
    return (uint64_t)((double)blk->attn.head_dim * factor);
}

/* The decoder's rotary table (table 0), from rope_scaling; a reader may have
 * added further ones from index 1 (Gemma 3's local rope). A decoder whose
 * every attention layer is NoPE (learned, ALiBi or no positions) has none. */
static void read_rope_tables(const json_t *config, struct gs_arch *a)
{
    /* the rope of the full-attention layers (rope_object's): sized by their head, which Gemma 4
     * makes wider than its sliding layers'; the first roped layer when none attends in full */
    const struct gs_block *blk = NULL, *full = NULL;
    for (uint64_t l = 0; l < a->num_hidden_layers && l < GS_LAYERS_MAX && full == NULL; l++) {
        const struct gs_block *b = &a->blocks[a->layer_block[l] % GS_BLOCKS_MAX];
        if ((b->mixer == GS_MIXER_ATTENTION && !b->attn.nope && !b->attn.cross_only) ||
            (b->mixer == GS_MIXER_MLA && !b->attn.nope)) { /* Kimi-Linear's MLA has no rope */
            blk = blk != NULL ? blk : b;
            full = b->attn.span == GS_SPAN_FULL ? b : NULL;
        }
    }
    blk = full != NULL ? full : blk;
    const size_t count = a->rope_table_count;
    a->rope_table_count = 0;
    if (blk == NULL || a->max_position_embeddings == 0)
        return;
    const json_t *rope = rope_object(config);
    const uint64_t dim = rotary_dim(config, rope, blk);
    if (dim == 0)
        return;
    a->rope_tables[0] = (struct gs_rope_table){rope_rows(rope, a->max_position_embeddings), dim};
    a->rope_table_count = count > 1 && count <= GS_ROPE_TABLES_MAX ? count : 1;
}

/* The two vision_config keys SGLang sizes a multimodal model's fraction by, spelled as it
 * reads them (so a config saying `depth` instead of num_hidden_layers counts as 24). */
static void read_vision_config(const json_t *config, struct gs_arch *a)
{
    const json_t *vision = json_object_get(config, "vision_config");
    bool tower = false;
    for (size_t i = 0; i < a->tower_count; i++)
        tower = tower || a->towers[i].part == GS_PART_VISION;
    if (!tower || !json_is_object(vision))
        return;
    a->vision_config_layers = int_member(vision, "num_hidden_layers", 24);
    a->vision_config_hidden = int_member(vision, "hidden_size", 1024);
}

/* What each MLP's activation keeps for backward (gs_act), by the function the config names:
 * hidden_act (Llama and most), activation_function (GPT-2, Whisper), hidden_activation
 * (Gemma) or T5's feed_forward_proj, whose "gated-gelu" runs gelu_new (configuration_t5.py
 * dense_act_fn). transformers' ACT2FN (activations.py): gelu_new is NewGELUActivation, the
 * tanh formula in Python ops; relu is nn.ReLU; relu2 is ReLUSquaredActivation. */
static void read_activation(const json_t *config, struct gs_arch *a)
{
    static const char *const keys[] = {"hidden_act", "activation_function", "hidden_activation",
                                       "feed_forward_proj", NULL};
    const json_t *text = text_config(config);
    const char *name = NULL;
    for (const char *const *k = keys; *k != NULL && name == NULL; k++) {
        const json_t *v = json_object_get(text, *k);
        if (!json_is_string(v))
            v = json_object_get(config, *k);
        name = json_is_string(v) ? json_string_value(v) : NULL;
    }
    if (name == NULL)
        return;
    if (strncmp(name, "gated-", 6) == 0)
        name = strcmp(name + 6, "gelu") == 0 ? "gelu_new" : name + 6;
    const enum gs_act act = strcmp(name, "gelu_new") == 0 ? GS_ACT_TANH_CHAIN
                            : strcmp(name, "relu") == 0   ? GS_ACT_RELU
                            : strcmp(name, "relu2") == 0  ? GS_ACT_RELU2
                                                          : GS_ACT_SAVES_INPUT;
    for (size_t i = 0; i < a->block_count; i++)
        a->blocks[i].mlp.act = (uint8_t)act;
}

/* What every reader's result gets from the config itself: the model_type
 * shown, the checkpoint's format, the context length, the rotary tables and
 * the vision_config keys SGLang reads. */
static void finish(const json_t *config, const char *model_type, struct gs_arch *a)
{
    snprintf(a->model_type, sizeof(a->model_type), "%s", model_type);
    models_read_checkpoint(config, &a->checkpoint);
    a->max_model_len = derived_max_model_len(config, a->max_position_embeddings);
    read_rope_tables(config, a);
    read_vision_config(config, a);
    read_activation(config, a);
}

/* The supported types as far as `cap` allows, cut at a comma, with how many
 * more GET /v1/model-types lists: the list outgrows an error's detail, and
 * what follows it in the sentence must still be read. */
static const char *supported_excerpt(char *out, size_t cap)
{
    const char *all = models_supported();
    const size_t length = strlen(all);
    if (length < cap) {
        snprintf(out, cap, "%s", all);
        return out;
    }
    size_t cut = cap - 48; /* room for the count */
    while (cut > 0 && all[cut] != ',')
        cut--;
    size_t more = 1;
    for (size_t i = cut + 1; i < length; i++)
        more += all[i] == ',';
    snprintf(out, cap, "%.*s and %zu more (GET /v1/model-types)", (int)cut, all, more);
    return out;
}

/* A config no reader names, read by the generic one (generic.c). When it
 * lacks the keys even that needs, the answer is the unknown-type error at
 * model_type (first, so it sets the problem type) and one per missing key. */
static enum gs_status read_generic(const json_t *config, const char *pointer, const char *name,
                                   const char *architecture, struct gs_arch *a,
                                   struct gs_error *err)
{
    char at[READER_POINTER_MAX];
    jsonv_pointer(at, sizeof(at), pointer, "model_type");
    char supported[480];
    if (models_generic_missing(config) > 0)
        gs_error_add(err, GS_ERR_UNKNOWN_MODEL, at,
                     "model_type \"%.60s\"%s%.80s%s is not one gpusizer can read; supported: "
                     "%s. To size it anyway, send {\"parameters\": N} with its parameter count",
                     name, architecture ? " (" : "", architecture ? architecture : "",
                     architecture ? ")" : "", supported_excerpt(supported, sizeof(supported)));
    memset(a, 0, sizeof(*a));
    struct model_reader r;
    r.config = config;
    snprintf(r.pointer, sizeof(r.pointer), "%s", pointer);
    r.err = err;
    r.ok = true;
    models_read_generic(&r, a);
    if (!r.ok)
        return models_generic_missing(config) > 0 ? GS_ERR_UNKNOWN_MODEL : GS_ERR_INVALID;
    finish(config, name, a);
    snprintf(a->read_as, sizeof(a->read_as), "generic");
    char unread[GS_APPROXIMATE_MAX - 240]; /* what fits beside the sentence */
    models_generic_unread(config, unread, sizeof(unread));
    snprintf(a->approximate, sizeof(a->approximate),
             "gpusizer has no reader for model_type \"%.40s\": it was read as a Llama-style "
             "decoder from the standard keys, so its counts are approximate. Keys it did not "
             "understand (not reflected in the sizing): %s",
             name, unread[0] ? unread : "no other key");
    return GS_OK;
}

enum gs_status models_read(const json_t *config, const char *pointer, struct gs_arch *out,
                           struct gs_error *err)
{
    char at[READER_POINTER_MAX];
    if (!json_is_object(config))
        return gs_error_add(err, GS_ERR_INVALID, pointer,
                            "must be a Hugging Face config.json object, got %s",
                            jsonv_type_name(config));
    jsonv_pointer(at, sizeof(at), pointer, "model_type");
    const json_t *type = json_object_get(config, "model_type");
    const char *name = json_is_string(type) ? json_string_value(type) : NULL;
    const char *architecture = first_architecture(config);
    const struct model_type *m = name != NULL ? find_type(name) : NULL;
    bool by_class = false;
    if (m == NULL && architecture != NULL) {
        /* Kimi-K2 declares model_type kimi_k2 and DeepseekV3ForCausalLM */
        m = find_architecture(architecture);
        by_class = m != NULL;
    }
    if (m == NULL) {
        if (name == NULL && type != NULL)
            return gs_error_add(err, GS_ERR_INVALID, at, "must be a string, got %s",
                                jsonv_type_name(type));
        if (name == NULL && architecture == NULL)
            return gs_error_add(err, GS_ERR_UNKNOWN_MODEL, at,
                                "is required: the config's model_type (supported: %s)",
                                models_supported());
        return read_generic(config, pointer, name ? name : architecture, architecture, out, err);
    }
    struct gs_arch *a = out;
    memset(a, 0, sizeof(*a));
    struct model_reader r;
    r.config = config;
    snprintf(r.pointer, sizeof(r.pointer), "%s", pointer);
    r.err = err;
    r.ok = true;
    m->read(&r, a);
    if (!r.ok)
        return GS_ERR_INVALID;
    /* readers start from gs_arch_init; the model_type shown is the config's own */
    finish(config, name != NULL ? name : m->model_type, a);
    if (by_class)
        snprintf(a->read_as, sizeof(a->read_as), "%s", m->model_type);
    return GS_OK;
}

/* ------------------------------------------------------- checkpoint format */

static uint64_t int_member(const json_t *o, const char *name, uint64_t fallback)
{
    const json_t *v = json_object_get(o, name);
    return json_is_integer(v) && json_integer_value(v) > 0 ? (uint64_t)json_integer_value(v)
                                                           : fallback;
}

/* What a scheme's ignore list (compressed-tensors `ignore`, ModelOpt
 * `exclude_modules`, `modules_to_not_convert`) keeps at the checkpoint
 * dtype. The lists name modules by path or pattern
 * ("model.layers.*.self_attn*", "re:.*mlp.gate$", "lm_head",
 * "model.layers.3.self_attn.kv_b_proj"); gpusizer weighs kinds of module,
 * not single layers, so an entry counts for its kind in every layer: a
 * whole attention (self_attn, attn, linear_attn, mixer), a whole dense MLP
 * or shared expert, the routed experts - as parts (1 << enum gs_part) -, or
 * one attention projection by name. A whole numbered layer
 * ("model.layers.0*") keeps its MLP: the dense first layers NVIDIA's NVFP4
 * releases of DeepSeek-style models leave out. Norms, biases, routers,
 * embeddings, heads, towers and MTP layers are never quantized by gpusizer,
 * so naming them changes nothing. */
struct kept {
    uint16_t parts;
    char *modules;
    size_t cap;
};

static bool has(const char *s, const char *needle)
{
    return strstr(s, needle) != NULL;
}

static bool one_of(const char *s, const char *const *names)
{
    for (const char *const *n = names; *n != NULL; n++)
        if (strcmp(s, *n) == 0)
            return true;
    return false;
}

/* The entry's last path component, wildcards and regex anchors stripped. */
static void leaf_of(const char *entry, char *out, size_t cap)
{
    char path[160];
    snprintf(path, sizeof(path), "%s", strncmp(entry, "re:", 3) == 0 ? entry + 3 : entry);
    size_t n = strlen(path);
    while (n > 0 && strchr("*.$\\", path[n - 1]) != NULL)
        path[--n] = '\0';
    const char *dot = strrchr(path, '.');
    const char *leaf = dot != NULL ? dot + 1 : path;
    while (*leaf == '*')
        leaf++;
    snprintf(out, cap, "%s", leaf);
}

static bool digits(const char *s)
{
    if (*s == '\0')
        return false;
    for (; *s; s++)
        if (*s < '0' || *s > '9')
            return false;
    return true;
}

static void keep_module(struct kept *k, const char *leaf)
{
    char token[40];
    snprintf(token, sizeof(token), ",%.36s,", leaf);
    const size_t used = strlen(k->modules);
    if (strstr(k->modules, token) != NULL || used + strlen(token) >= k->cap)
        return;
    /* "," "a" "," then "b" ",": each name between commas */
    snprintf(k->modules + used, k->cap - used, "%s", used ? token + 1 : token);
}

static void keep_entry(struct kept *k, const char *s)
{
    static const char *const attention[] = {"self_attn", "attn", "linear_attn", "mixer",
                                            "attention", "self_attention", NULL};
    static const char *const mlp[] = {"mlp", "ffn", "feed_forward", NULL};
    char leaf[64];
    leaf_of(s, leaf, sizeof(leaf));
    if (has(s, "norm") || has(s, "bias") || has(s, "lm_head") || strcmp(leaf, "head") == 0 ||
        has(s, "embed") || has(s, "vision") || has(s, "mtp") || has(s, "projector") ||
        has(s, "router") || strcmp(leaf, "gate") == 0 || has(s, "e_score"))
        return;
    if (has(s, "shared_expert"))
        k->parts |= 1u << GS_PART_MLP;
    else if (has(s, "experts"))
        k->parts |= 1u << GS_PART_EXPERTS;
    else if (one_of(leaf, attention))
        k->parts |= 1u << GS_PART_ATTENTION;
    else if (one_of(leaf, mlp) || digits(leaf) ||
             ((has(s, "mlp") || has(s, "ffn")) && has(s, "_proj")))
        k->parts |= 1u << GS_PART_MLP;
    else if ((has(s, "attn") || has(s, "attention")) && leaf[0] != '\0')
        keep_module(k, leaf);
}

static void read_kept(const json_t *list, struct gs_checkpoint *out)
{
    struct kept k = {0, out->unquantized_modules, sizeof(out->unquantized_modules)};
    out->unquantized_modules[0] = '\0';
    for (size_t i = 0; json_is_array(list) && i < json_array_size(list); i++) {
        const char *s = json_string_value(json_array_get(list, i));
        if (s != NULL)
            keep_entry(&k, s);
    }
    out->unquantized_parts = k.parts;
}

/* Appends "; the ignore list keeps <what> in 16-bit" to the detail when it keeps anything. */
static void append_kept(struct gs_checkpoint *c)
{
    const uint16_t parts = c->unquantized_parts;
    if (parts == 0 && c->unquantized_modules[0] == '\0')
        return;
    const size_t used = strlen(c->detail);
    snprintf(c->detail + used, sizeof(c->detail) - used, "; the ignore list keeps %s%s%s%s%s in 16-bit",
             parts & (1u << GS_PART_ATTENTION) ? "attention " : "",
             parts & (1u << GS_PART_MLP) ? "dense and shared MLPs " : "",
             parts & (1u << GS_PART_EXPERTS) ? "routed experts " : "",
             c->unquantized_modules[0] ? "attention projections " : "", c->unquantized_modules);
}

/* compressed-tensors (llm-compressor checkpoints; vLLM
 * compressed_tensors.py _get_scheme_from_parts): the first config group's
 * weights say the bits, int or float, and the scale strategy. 8-bit float
 * is fp8 (W8A8-FP8: per tensor, channel or block); 8-bit int is W8A8 or
 * W8A16 int8 with its per-channel scale (sized as LLM.int8's layout); 4-bit
 * float in groups of 16 is NVFP4 (format nvfp4-pack-quantized: NVFP4A16
 * without, NVFP4 with activation quantization - the same weight tensors
 * bar a 4-byte input_global_scale); 4-bit int in groups is W4A16 (sized
 * like AWQ: packed int4, fp16 scales and zero points per group). `ignore`
 * names the modules left unquantized. Other schemes are not sized. */
static void compressed_tensors(const json_t *q, struct gs_checkpoint *out)
{
    const json_t *groups = json_object_get(q, "config_groups");
    const json_t *scheme = NULL;
    void *first = json_is_object(groups) ? json_object_iter((json_t *)(uintptr_t)groups) : NULL;
    if (first != NULL)
        scheme = json_object_iter_value(first);
    const json_t *weights = json_object_get(scheme, "weights");
    const json_t *acts = json_object_get(scheme, "input_activations");
    const uint64_t bits = int_member(weights, "num_bits", 0);
    const json_t *type_v = json_object_get(weights, "type");
    const json_t *strategy_v = json_object_get(weights, "strategy");
    const json_t *format_v = json_object_get(q, "format");
    const char *type = json_is_string(type_v) ? json_string_value(type_v) : "";
    const char *strategy = json_is_string(strategy_v) ? json_string_value(strategy_v) : "";
    const char *format = json_is_string(format_v) ? json_string_value(format_v) : "";
    const char *scheme_name = "";
    if (bits == 8 && strcmp(type, "float") == 0) {
        out->quantized = true;
        out->format = strcmp(strategy, "block") == 0     ? GS_WF_FP8_BLOCK
                      : strcmp(strategy, "tensor") == 0 ? GS_WF_FP8
                                                        : GS_WF_FP8_PER_CHANNEL;
        scheme_name = "W8A8-FP8";
    } else if (bits == 8 && strcmp(type, "int") == 0) {
        out->quantized = true;
        out->format = GS_WF_INT8;
        scheme_name = json_is_object(acts) ? "W8A8 int8" : "W8A16 int8";
    } else if (bits == 4 && strcmp(type, "float") == 0 &&
               (int_member(weights, "group_size", 0) == 16 ||
                strcmp(format, "nvfp4-pack-quantized") == 0)) {
        out->quantized = true;
        out->format = GS_WF_NVFP4;
        out->group_size = 16;
        scheme_name = json_is_object(acts) ? "NVFP4" : "NVFP4A16";
    } else if (bits == 4 && strcmp(type, "int") == 0 && strcmp(strategy, "group") == 0) {
        out->quantized = true;
        out->format = GS_WF_AWQ;
        out->group_size = int_member(weights, "group_size", 128);
        scheme_name = "W4A16";
    }
    if (!out->quantized) {
        snprintf(out->detail, sizeof(out->detail),
                 "quantization_config compressed-tensors with %llu-bit %s weights is not a format "
                 "gpusizer sizes; weights sized in bf16",
                 (unsigned long long)bits, type[0] ? type : "unknown");
        return;
    }
    read_kept(json_object_get(q, "ignore"), out);
    snprintf(out->detail, sizeof(out->detail),
             "quantization_config compressed-tensors %s: %llu-bit %s weights, %s scales",
             scheme_name, (unsigned long long)bits, type, strategy[0] ? strategy : "per-channel");
    append_kept(out);
}

/* NVIDIA ModelOpt (TensorRT Model Optimizer), from config.json's
 * quantization_config with quant_method "modelopt" or the repository's
 * hf_quant_config.json (its "quantization" object; the hub import merges it
 * in), as vLLM's ModelOptFp8Config / ModelOptNvFp4Config read them
 * (quantization/modelopt.py): quant_algo FP8 (e4m3 weights with fp32
 * weight_scale and input_scale per tensor), NVFP4 (GS_WF_NVFP4),
 * W4A8_AWQ (int4 in groups of group_size, 128 by default, with fp8
 * activations: sized like AWQ); MIXED_PRECISION whose quantized_layers are
 * all NVFP4 routed experts (DeepSeek-V4's NVFP4 releases) as NVFP4 experts.
 * exclude_modules (or ignore) names the modules left in 16-bit. */
static void modelopt(const json_t *q, struct gs_checkpoint *out)
{
    const json_t *inner = json_object_get(q, "quantization");
    if (json_is_object(inner))
        q = inner;
    const json_t *algo_v = json_object_get(q, "quant_algo");
    const char *algo = json_is_string(algo_v) ? json_string_value(algo_v) : "";
    const char *what = "";
    if (strcmp(algo, "FP8") == 0) {
        out->format = GS_WF_FP8;
        what = "fp8 e4m3 weights with a per-tensor fp32 scale";
    } else if (strcmp(algo, "NVFP4") == 0) {
        out->format = GS_WF_NVFP4;
        out->group_size = 16;
        what = "NVFP4 weights (e2m1, an fp8 scale per 16, fp32 per-tensor scales)";
    } else if (strcmp(algo, "W4A8_AWQ") == 0) {
        out->format = GS_WF_AWQ;
        out->group_size = int_member(q, "group_size", 128);
        what = "int4 weights in groups with fp8 activations (sized as AWQ)";
    } else if (strcmp(algo, "MIXED_PRECISION") == 0) {
        const json_t *layers = json_object_get(q, "quantized_layers");
        const char *key;
        const json_t *layer;
        bool experts_nvfp4 = json_object_size(layers) > 0;
        json_object_foreach((json_t *)(uintptr_t)layers, key, layer) {
            const json_t *a = json_object_get(layer, "quant_algo");
            experts_nvfp4 = experts_nvfp4 && has(key, "experts") && !has(key, "shared") &&
                            json_is_string(a) && has(json_string_value(a), "NVFP4");
        }
        if (experts_nvfp4) {
            out->format = GS_WF_NVFP4;
            out->group_size = 16;
            out->experts_only = true;
            what = "mixed precision: NVFP4 routed experts, the rest 16-bit";
        }
    }
    if (what[0] == '\0') {
        snprintf(out->detail, sizeof(out->detail),
                 "ModelOpt quant_algo \"%.40s\" is not a format gpusizer sizes; weights sized in "
                 "bf16 (name a precision to size them)",
                 algo);
        return;
    }
    out->quantized = true;
    /* hf_quant_config.json says exclude_modules; a config.json's own quantization_config
     * (nvidia/MiniMax-M2.5-NVFP4) may say ignore, as compressed-tensors does */
    const json_t *excluded = json_object_get(q, "exclude_modules");
    read_kept(json_is_array(excluded) ? excluded : json_object_get(q, "ignore"), out);
    snprintf(out->detail, sizeof(out->detail), "ModelOpt %s: %s", algo, what);
    append_kept(out);
}

/* AutoRound (Intel; transformers AutoRoundConfig, vLLM auto_round.py):
 * quant_method auto-round with bits and group_size, exported in GPTQ's
 * layout (packing_format auto_round:auto_gptq, the default) or AWQ's
 * (auto_round:auto_awq); 4-bit is sized as that layout. */
static void auto_round(const json_t *q, struct gs_checkpoint *out)
{
    const json_t *packing_v = json_object_get(q, "packing_format");
    if (!json_is_string(packing_v))
        packing_v = json_object_get(q, "backend");
    const char *packing = json_is_string(packing_v) ? json_string_value(packing_v) : "";
    const uint64_t bits = int_member(q, "bits", 0);
    if (bits != 4) {
        snprintf(out->detail, sizeof(out->detail),
                 "quantization_config auto-round with %llu-bit weights is not a format gpusizer "
                 "sizes; weights sized in bf16",
                 (unsigned long long)bits);
        return;
    }
    out->quantized = true;
    out->format = has(packing, "awq") ? GS_WF_AWQ : GS_WF_GPTQ;
    out->group_size = int_member(q, "group_size", 128);
    snprintf(out->detail, sizeof(out->detail),
             "quantization_config auto-round 4-bit, group size %llu, in %s's layout",
             (unsigned long long)out->group_size, out->format == GS_WF_AWQ ? "AWQ" : "GPTQ");
}

/* bitsandbytes (transformers BitsAndBytesConfig): load_in_4bit with
 * bnb_4bit_quant_type nf4 or fp4 (both 4 bits with an fp32 absmax per 64;
 * bnb_4bit_use_double_quant quantizes the absmax too), else 8-bit LLM.int8;
 * llm_int8_skip_modules names the modules left in 16-bit. */
static void bitsandbytes(const json_t *q, struct gs_checkpoint *out)
{
    const json_t *four = json_object_get(q, "load_in_4bit");
    if (!json_is_boolean(four))
        four = json_object_get(q, "_load_in_4bit");
    const json_t *dq = json_object_get(q, "bnb_4bit_use_double_quant");
    const json_t *type_v = json_object_get(q, "bnb_4bit_quant_type");
    const char *type = json_is_string(type_v) ? json_string_value(type_v) : "nf4";
    out->quantized = true;
    if (json_is_true(four))
        out->format = json_is_true(dq) ? GS_WF_NF4_DQ : GS_WF_NF4;
    else
        out->format = GS_WF_INT8;
    read_kept(json_object_get(q, "llm_int8_skip_modules"), out);
    if (json_is_true(four))
        snprintf(out->detail, sizeof(out->detail), "quantization_config bitsandbytes 4-bit %.8s%s",
                 type, json_is_true(dq) ? " with double quantization" : "");
    else
        snprintf(out->detail, sizeof(out->detail),
                 "quantization_config bitsandbytes 8-bit (LLM.int8)");
    append_kept(out);
}

/* quantization_config as transformers and vLLM read it: quant_method fp8
 * with weight_block_size [128, 128] (DeepSeek-V3, Kimi-K2), compressed-
 * tensors, modelopt (config.json's own or hf_quant_config.json merged in by
 * the hub import), gptq/awq with bits 4 and group_size, auto-round,
 * bitsandbytes, mxfp4 (gpt-oss: experts only, modules_to_not_convert names
 * the rest). */
void models_read_checkpoint(const json_t *config, struct gs_checkpoint *out)
{
    memset(out, 0, sizeof(*out));
    const json_t *q = json_object_get(config, "quantization_config");
    if (!json_is_object(q)) {
        const json_t *text = json_object_get(config, "text_config");
        q = json_is_object(text) ? json_object_get(text, "quantization_config") : NULL;
    }
    if (!json_is_object(q))
        return;
    const json_t *method_v = json_object_get(q, "quant_method");
    const char *method = json_is_string(method_v) ? json_string_value(method_v) : "";
    const uint64_t bits = int_member(q, "bits", 0);
    const json_t *expert_dtype = json_object_get(config, "expert_dtype");
    if (strcmp(method, "fp8") == 0 && json_is_string(expert_dtype) &&
        strcmp(json_string_value(expert_dtype), "fp4") == 0) {
        /* DeepSeek-V4: MXFP4 routed experts beside fp8 linears (vLLM DeepseekV4FP8Config:
         * Mxfp4MoEMethod for expert_dtype "fp4"); sized as MXFP4 experts, the rest 16-bit */
        out->quantized = true;
        out->format = GS_WF_MXFP4;
        out->experts_only = true;
        snprintf(out->detail, sizeof(out->detail),
                 "quantization_config fp8 with expert_dtype fp4: MXFP4 routed experts; the other "
                 "linears' fp8 is sized as 16-bit");
    } else if (strcmp(method, "fp8") == 0) {
        const json_t *block = json_object_get(q, "weight_block_size");
        out->quantized = true;
        out->format = json_is_array(block) ? GS_WF_FP8_BLOCK : GS_WF_FP8_PER_CHANNEL;
        read_kept(json_object_get(q, "modules_to_not_convert"), out);
        snprintf(out->detail, sizeof(out->detail), "quantization_config fp8 e4m3 %s",
                 json_is_array(block) ? "with 128x128 block scales (fp32 weight_scale_inv)"
                                      : "with per-channel scales");
        append_kept(out);
    } else if (strcmp(method, "compressed-tensors") == 0) {
        compressed_tensors(q, out);
    } else if (strcmp(method, "modelopt") == 0) {
        modelopt(q, out);
    } else if ((strcmp(method, "gptq") == 0 || strcmp(method, "awq") == 0) && bits == 4) {
        out->quantized = true;
        out->format = method[0] == 'g' ? GS_WF_GPTQ : GS_WF_AWQ;
        out->group_size = int_member(q, "group_size", 128);
        snprintf(out->detail, sizeof(out->detail), "quantization_config %s 4-bit, group size %llu",
                 method, (unsigned long long)out->group_size);
    } else if (strcmp(method, "auto-round") == 0 || strcmp(method, "auto_round") == 0 ||
               strcmp(method, "intel/auto-round") == 0) {
        auto_round(q, out);
    } else if (strcmp(method, "bitsandbytes") == 0) {
        bitsandbytes(q, out);
    } else if (strcmp(method, "mxfp4") == 0) {
        out->quantized = true;
        out->format = GS_WF_MXFP4;
        out->experts_only = true;
        snprintf(out->detail, sizeof(out->detail),
                 "quantization_config mxfp4: routed experts in MXFP4 (4-bit e2m1, an 8-bit scale per "
                 "32), attention, router, embeddings and head in bf16");
    } else if (out->detail[0] == '\0') {
        snprintf(out->detail, sizeof(out->detail),
                 "quantization_config quant_method \"%.40s\" is not a format gpusizer sizes; weights "
                 "sized in bf16 (name a precision to size them)",
                 method);
    }
}
