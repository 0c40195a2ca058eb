/*
 * models.c - which reader reads a config (see models.h): the registry of reader tables by
 * lineage, the dispatch by model_type or architectures[0] with the generic reader as the
 * last resort, and what every reader's result gets from the config itself (the rotary
 * tables, the vision_config keys SGLang reads, the MLP activation, the stored format).
 */
#include "readers/models.h"

#include "readers/generic.h"
#include "readers/reader.h"

#include "formats/jsonv.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* Every reader table, each under the name of its lineage: the one list that the supported
 * types shown anywhere (GET /v1/model-types, the README, the web form) are generated from. */
static const struct models_lineage lineages[] = {
    {"Llama-style decoders and their mixtures of experts", MODELS_DECODER},
    {"multi-head latent attention", MODELS_MLA},
    {"sparse and compressed attention", MODELS_SPARSE_ATTENTION},
    {"compressed attention shared across layers, with Engram memory", MODELS_DEEPSEEK_V41},
    {"Kimi", MODELS_KIMI},
    {"state-space, linear-attention and hybrid models", MODELS_HYBRID},
    {"Qwen vision-language, omni and hybrid models", MODELS_QWEN},
    {"Gemma 4 and Gemma 3n", MODELS_GEMMA},
    {"heterogeneous layer stacks", MODELS_HETEROGENEOUS},
    {"mixtures of experts with their own routers", MODELS_MOE},
    {"Inkling", MODELS_INKLING},
    {"vision and audio models", MODELS_MULTIMODAL},
    {"earlier models and encoders", MODELS_CLASSIC},
};

#define LINEAGE_COUNT (sizeof(lineages) / sizeof(lineages[0]))

const struct models_lineage *models_lineages(size_t *count)
{
    *count = LINEAGE_COUNT;
    return lineages;
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
            const int n =
                snprintf(buf + used, sizeof(buf) - used, "%s%s", used ? ", " : "", m->model_type);
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
    const uint64_t original = rd_member_u64(rope, "original_max_position_embeddings", 0);
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
static uint64_t rotary_dim(const json_t *config, const json_t *rope, const struct gs_block *blk,
                           uint64_t layer)
{
    if (blk->mixer == GS_MIXER_MLA)
        return blk->attn.qk_rope_head_dim;
    const json_t *text = text_config(config);
    /* a factor a layer (Step 3.5's partial_rotary_factors; vLLM step3p5.py passes the layer's
     * entry to get_rope) */
    const json_t *per_layer =
        json_array_get(json_object_get(text, "partial_rotary_factors"), layer);
    if (json_is_number(per_layer) && json_number_value(per_layer) > 0 &&
        json_number_value(per_layer) <= 1)
        return (uint64_t)((double)blk->attn.head_dim * json_number_value(per_layer));
    const uint64_t dim = rd_member_u64(text, "rotary_dim", 0);
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
    uint64_t first_layer = 0, full_layer = 0;
    for (uint64_t l = 0; l < a->num_hidden_layers && l < GS_LAYERS_MAX && full == NULL; l++) {
        const struct gs_block *b = &a->blocks[a->layer_block[l] % GS_BLOCKS_MAX];
        if ((b->mixer == GS_MIXER_ATTENTION && !b->attn.nope && !b->attn.cross_only) ||
            (b->mixer == GS_MIXER_MLA && !b->attn.nope)) { /* Kimi-Linear's MLA has no rope */
            first_layer = blk != NULL ? first_layer : l;
            blk = blk != NULL ? blk : b;
            full = b->attn.span == GS_SPAN_FULL ? b : NULL;
            full_layer = l;
        }
    }
    const uint64_t layer = full != NULL ? full_layer : first_layer;
    blk = full != NULL ? full : blk;
    const size_t count = a->rope_table_count;
    a->rope_table_count = 0;
    if (blk == NULL || a->max_position_embeddings == 0)
        return;
    const json_t *rope = rope_object(config);
    const uint64_t dim = rotary_dim(config, rope, blk, layer);
    if (dim == 0)
        return;
    /* a rotary dimension short of the head: transformers' apply_rotary_pos_emb rotates
     * q[..., :rotary_dim] and concatenates q_pass back (torch.cat([q_embed, q_pass], dim=-1):
     * Phi-3, GPT-NeoX, GLM, Qwen3-Next and Qwen3.5, MiniMax-M2). Gemma 4's "proportional" rope
     * rotates every value (its frequencies past the rotary part are zero), with no concatenation */
    if (json_is_array(json_object_get(text_config(config), "partial_rotary_factors"))) {
        /* each layer its own factor: the layers whose rotary part is short of their head */
        for (uint64_t l = 0; l < a->num_hidden_layers && l < GS_LAYERS_MAX; l++) {
            struct gs_block *b = &a->blocks[a->layer_block[l] % GS_BLOCKS_MAX];
            if (b->mixer == GS_MIXER_ATTENTION && !b->attn.nope && !b->attn.cross_only &&
                rotary_dim(config, rope, b, l) < b->attn.head_dim)
                b->attn.rotary_partial = true;
        }
    } else if (strcmp(rope_type(rope), "proportional") != 0)
        for (size_t i = 0; i < a->block_count && i < GS_BLOCKS_MAX; i++) {
            struct gs_block *b = &a->blocks[i];
            if (b->mixer == GS_MIXER_ATTENTION && !b->attn.nope && !b->attn.cross_only &&
                b->attn.head_dim == blk->attn.head_dim && dim < b->attn.head_dim)
                b->attn.rotary_partial = true;
        }
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
    a->vision_config_layers = rd_member_u64(vision, "num_hidden_layers", 24);
    a->vision_config_hidden = rd_member_u64(vision, "hidden_size", 1024);
}

/* What each MLP's activation keeps for backward (gs_act), by the function the config names:
 * hidden_act (Llama and most), activation_function (GPT-2, Whisper), hidden_activation
 * (Gemma) or T5's feed_forward_proj, whose "gated-gelu" runs gelu_new (configuration_t5.py
 * dense_act_fn). transformers' ACT2FN (activations.py): gelu_new is NewGELUActivation, the
 * tanh formula in Python ops, gelu_fast FastGELUActivation (the same with products),
 * quick_gelu QuickGELUActivation, xielu XIELUActivation (Python unless the xielu CUDA wheel
 * is installed; ApertusMLP builds it with config.dtype); relu is nn.ReLU; relu2 is
 * ReLUSquaredActivation. */
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
    /* every other name is one ATen op that saves its input */
    /* swigluoai is MiniMax-M3's name for GPT-OSS's clamped GLU, which its MLPs and experts
     * run (modeling_minimax_m3_vl.py MiniMaxM3VLDenseMLP.forward and
     * MiniMaxM3VLExperts._apply_gate: gate and up chunked from one gate_up output and clamped,
     * gate * sigmoid(gate * swiglu_alpha), (up + 1) * glu) */
    static const struct {
        const char *name;
        enum gs_act act;
    } python_ops[] = {{"gelu_new", GS_ACT_TANH_CHAIN},
                      {"gelu_fast", GS_ACT_FAST_GELU},
                      {"quick_gelu", GS_ACT_QUICK_GELU},
                      {"xielu", GS_ACT_XIELU},
                      {"relu", GS_ACT_RELU},
                      {"relu2", GS_ACT_RELU2},
                      {"swigluoai", GS_ACT_GPT_OSS_GLU}};
    enum gs_act act = GS_ACT_SAVES_INPUT;
    for (size_t i = 0; i < sizeof(python_ops) / sizeof(python_ops[0]); i++)
        if (strcmp(name, python_ops[i].name) == 0)
            act = python_ops[i].act;
    /* a reader that named the model code's own activation (GPT-OSS's experts) keeps it, and
     * the language model's does not reach a vision or audio tower's layers, which run their
     * own config's */
    for (size_t i = 0; i < a->block_count; i++) {
        bool encoder = false;
        for (size_t t = 0; t < a->tower_count; t++)
            encoder = encoder || (a->towers[t].block == i && (a->towers[t].part == GS_PART_VISION ||
                                                              a->towers[t].part == GS_PART_AUDIO));
        if (!encoder && a->blocks[i].mlp.act == GS_ACT_SAVES_INPUT)
            a->blocks[i].mlp.act = (uint8_t)act;
    }
}

/* What every reader's result gets from the config itself: the model_type
 * shown, the checkpoint's format, the context length, the rotary tables and
 * the vision_config keys SGLang reads. */
static void finish(const json_t *config, const char *model_type, struct gs_arch *a)
{
    snprintf(a->model_type, sizeof(a->model_type), "%s", model_type);
    const char *architecture = first_architecture(config);
    snprintf(a->architecture, sizeof(a->architecture), "%s", architecture ? architecture : "");
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
