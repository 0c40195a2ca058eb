/*
 * multimodal.c - vision-language and speech models: Gemma 3, Mistral 3
 * (Pixtral, with the Ministral 3 or Mistral Large 3 language model),
 * Qwen2-VL, Qwen2.5-VL, GLM-4V (GLM-4.1V, 4.5V, 4.6V, GLM-GA, GLM-OCR), Llama 3.2 Vision (mllama),
 * Llama 4, Step 3.7, MiniMax-M3, MiMo-V2.5, DeepSeek-OCR, Muse Glimmer, LFM2-VL, InternVL,
 * ERNIE-4.5-VL, PaddleOCR-VL, HunyuanOCR, DeepSeek-OCR-2 and Whisper.
 *
 * Each reader builds the language model as the decoder readers do (or
 * calls the decoder.c reader its text_config names) and adds the vision or
 * audio encoder as a tower: a block of its own width whose attention is
 * bidirectional (cached = false, so it never adds KV cache), counted under
 * GS_PART_VISION or GS_PART_AUDIO (weights.c keeps towers 16-bit). The
 * encoder's embeddings, final norms and the projector into the language
 * model are model-level modules of the same part. Module names and shapes
 * follow the transformers classes named at each reader; the published
 * counts they reproduce are written out in tests/fixtures/configs/<type>/
 * README.md and checked in tests/server/test_models_multimodal.c.
 *
 * Nested configs (text_config, vision_config) are read the way the
 * configuration classes build them: members the file omits take the class's
 * defaults (Gemma 3's published config.json names only a handful of
 * fields), and errors point at the member under its nested object
 * ("/text_config/num_hidden_layers").
 */
#include "readers/multimodal.h"

#include "readers/decoder.h"

#include "formats/jsonv.h"
#include "gs/units.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- toolkit */

/* A copy of `object` (or an empty object) with `defaults` (JSON text) set
 * for every member it lacks (an explicit null stays: Python passes None,
 * not the default, as attention_chunk_size null does); `model_type`, when given,
 * replaces the member of that name (a class that builds one fixed text
 * model whatever the file says). NULL when out of memory. */
static json_t *with_defaults(const json_t *object, const char *defaults, const char *model_type)
{
    json_t *out = object != NULL ? json_deep_copy(object) : json_object();
    if (out == NULL)
        return NULL;
    if (defaults != NULL) {
        json_error_t jerr;
        json_t *d = json_loads(defaults, 0, &jerr);
        if (d == NULL) {
            json_decref(out);
            return NULL;
        }
        const char *key;
        json_t *value;
        json_object_foreach(d, key, value) {
            if (json_object_get(out, key) == NULL)
                json_object_set(out, key, value);
        }
        json_decref(d);
    }
    if (model_type != NULL)
        json_object_set_new(out, "model_type", json_string(model_type));
    return out;
}

/* Opens the nested config `name` with the defaults of its configuration
 * class (`present`: applied to the members a file gives no value;
 * `absent`: the whole config when the member is missing, as the parent
 * class builds it). *owned holds the copy the reader borrows; release it
 * with json_decref. False (and the reader failed) when `name` is not an
 * object or memory ran out. */
static bool open_sub(struct model_reader *r, const char *name, const char *present,
                     const char *absent, const char *model_type, struct model_reader *sub,
                     json_t **owned)
{
    *owned = NULL;
    const bool has = rd_sub(r, name, sub);
    if (!r->ok)
        return false;
    if (!has) {
        sub->err = r->err;
        sub->ok = true;
        jsonv_pointer(sub->pointer, sizeof(sub->pointer), r->pointer, name);
    }
    *owned = with_defaults(has ? sub->config : NULL, has ? present : (absent ? absent : present),
                           model_type);
    if (*owned == NULL) {
        rd_fail(r, name, GS_ERR_NOMEM, "out of memory reading the nested config");
        return false;
    }
    sub->config = *owned;
    return true;
}

/* Closes a nested reader: its failure is the parent's. */
static void close_sub(struct model_reader *r, struct model_reader *sub, json_t *owned)
{
    if (!sub->ok)
        r->ok = false;
    json_decref(owned);
}

static void read_ministral3(struct model_reader *r, struct gs_arch *a);

/* The reader of a text model_type: Ministral 3's own (below), a decoder.c
 * one, an mla.c one (Mistral Large 3's language model is DeepSeek-V3's), a
 * heterogeneous.c one (Step 3.7's is Step 3.5's), a moe.c one (MiniMax-M3's)
 * or a hybrid.c one (LFM2-VL's is LFM2's). */
static model_read_fn decoder_reader(const char *model_type)
{
    static const struct model_type *const tables[] = {
        MODELS_DECODER, MODELS_MLA, MODELS_HETEROGENEOUS, MODELS_MOE, MODELS_HYBRID, MODELS_QWEN};
    if (model_type != NULL && strcmp(model_type, "ministral3") == 0)
        return read_ministral3;
    for (size_t t = 0; model_type && t < sizeof(tables) / sizeof(tables[0]); t++)
        for (const struct model_type *m = tables[t]; m->model_type; m++)
            if (strcmp(m->model_type, model_type) == 0)
                return m->read;
    return NULL;
}

/* Reads the language model with the decoder.c reader for `model_type`
 * (the text_config's own, as AutoModel.from_config dispatches on it). */
static void read_text_as(struct model_reader *text, struct gs_arch *a, const char *model_type)
{
    const model_read_fn read = decoder_reader(model_type);
    if (read == NULL) {
        rd_fail(text, "model_type", GS_ERR_UNSUPPORTED,
                "a %s language model is not one gpusizer reads inside a vision model",
                model_type ? model_type : "(missing)");
        return;
    }
    read(text, a);
}

/* A module in block `b`, or the model when b is GS_BLOCKS_MAX. */
static void add(struct gs_arch *a, size_t b, const char *name, enum gs_module_kind kind,
                enum gs_split split, enum gs_part part, unsigned flags, uint64_t in, uint64_t out)
{
    if (b >= GS_BLOCKS_MAX)
        gs_arch_module(a, name, kind, split, part, flags, in, out, 1);
    else
        gs_block_module(a, b, name, kind, split, part, flags, in, out, 1);
}

static void linear(struct gs_arch *a, size_t b, const char *name, enum gs_split split,
                   enum gs_part part, bool bias, uint64_t in, uint64_t out)
{
    add(a, b, name, GS_MODULE_LINEAR, split, part, GS_MOD_QUANT | (bias ? GS_MOD_BIAS : 0), in,
        out);
}

/* A norm `width` wide: LayerNorm (weight and bias) or RMSNorm (weight). */
static void norm(struct gs_arch *a, size_t b, const char *name, enum gs_part part, bool layer_norm,
                 uint64_t width)
{
    add(a, b, name, GS_MODULE_NORM, GS_SPLIT_NONE, part, layer_norm ? GS_MOD_BIAS : 0, 1, width);
}

/* Any other parameter of rows x cols elements (convolutions, class
 * embeddings, gates). */
static void tensor(struct gs_arch *a, size_t b, const char *name, enum gs_part part,
                   uint64_t rows, uint64_t cols)
{
    add(a, b, name, GS_MODULE_TENSOR, GS_SPLIT_NONE, part, 0, rows, cols);
}

/* Block `b`'s gated branches (gs_block.gated_branches). */
static void set_gated_branches(struct gs_arch *a, size_t b, uint8_t n)
{
    struct gs_block *k = gs_arch_block(a, b);
    if (k != NULL)
        k->gated_branches = n;
}

/* An attention's projections and biases. `qkv` set: one fused projection
 * (bias `q_bias`). */
struct attn_layout {
    const char *q, *k, *v, *o, *qkv;
    bool q_bias, k_bias, v_bias, o_bias;
};

/* Attention over a stream `width` wide whose keys and values are projected
 * from `kv_in`-wide states (the encoder's output for cross-attention):
 * q width -> a*d, k and v kv_in -> k*d, o a*d -> width. Sets the block's
 * mixer and spec unless `second` (a layer's second, cross, attention). */
static void attention(struct gs_arch *a, size_t b, uint64_t width, uint64_t kv_in,
                      const struct gs_attention *spec, const struct attn_layout *n, bool second)
{
    struct gs_block *k = gs_arch_block(a, b);
    if (k == NULL) {
        a->overflow = true;
        return;
    }
    if (!second) {
        k->mixer = GS_MIXER_ATTENTION;
        k->attn = *spec;
        if (k->attn.v_head_dim == 0)
            k->attn.v_head_dim = k->attn.head_dim;
    }
    const uint64_t q = spec->heads * spec->head_dim, kv = spec->kv_heads * spec->head_dim;
    if (n->qkv != NULL) {
        linear(a, b, n->qkv, GS_SPLIT_QKV, GS_PART_ATTENTION, n->q_bias, width, q + 2 * kv);
    } else {
        linear(a, b, n->q, GS_SPLIT_COLUMN, GS_PART_ATTENTION, n->q_bias, width, q);
        linear(a, b, n->k, GS_SPLIT_KV, GS_PART_ATTENTION, n->k_bias, kv_in, kv);
        linear(a, b, n->v, GS_SPLIT_KV, GS_PART_ATTENTION, n->v_bias, kv_in, kv);
        /* a second attention over the encoder's output (Whisper's encoder_attn), or a layer's
         * only one (Mllama's cross_attn over the projected vision states): its k and v read the
         * encoder's states */
        const bool over_encoder = second || spec->cross_only;
        for (size_t i = 0; over_encoder && i < k->module_count; i++)
            if (strcmp(k->modules[i].name, n->k) == 0 || strcmp(k->modules[i].name, n->v) == 0)
                k->modules[i].flags |= GS_MOD_CROSS;
    }
    linear(a, b, n->o, GS_SPLIT_ROW, GS_PART_ATTENTION, n->o_bias, q, width);
}

/* A dense MLP over a `width` stream: gated (gate, up, down) or plain (up, down). */
static void mlp(struct gs_arch *a, size_t b, uint64_t width, uint64_t inner, bool gated, bool bias,
                const struct gs_mlp_names *n)
{
    struct gs_block *k = gs_arch_block(a, b);
    if (k == NULL) {
        a->overflow = true;
        return;
    }
    k->mlp.kind = GS_MLP_DENSE;
    k->mlp.gated = gated;
    k->mlp.width = inner;
    if (gated)
        linear(a, b, n->gate, GS_SPLIT_COLUMN, GS_PART_MLP, bias, width, inner);
    linear(a, b, n->up, GS_SPLIT_COLUMN, GS_PART_MLP, bias, width, inner);
    linear(a, b, n->down, GS_SPLIT_ROW, GS_PART_MLP, bias, inner, width);
}

/* A CLIP-style encoder layer's names: self_attn q/k/v/out_proj and mlp fc1/fc2, every one with a
 * bias (SigLIP, Step 3.7's PE tower, MiniMax-M3's tower). */
static const struct attn_layout CLIP_ATTN = {"self_attn.q_proj",
                                             "self_attn.k_proj",
                                             "self_attn.v_proj",
                                             "self_attn.out_proj",
                                             NULL,
                                             true,
                                             true,
                                             true,
                                             true};
static const struct gs_mlp_names CLIP_FC = {NULL, "mlp.fc1", "mlp.fc2", NULL};

/* Bidirectional multi-head attention of an encoder tower: no KV cache. */
static struct gs_attention encoder_spec(uint64_t heads, uint64_t head_dim)
{
    struct gs_attention s;
    memset(&s, 0, sizeof(s));
    s.heads = s.kv_heads = heads;
    s.head_dim = head_dim;
    s.cached = false;
    return s;
}

static uint64_t per_head(uint64_t width, uint64_t heads)
{
    return heads ? width / heads : 0;
}

/* A JSON integer list member as layer indices below `layers`; false (and
 * the reader failed) on an entry that is not one. */
static bool layer_list(struct model_reader *r, const char *name, uint64_t layers,
                       bool out[GS_LAYERS_MAX])
{
    const json_t *list = NULL;
    const size_t n = rd_array(r, name, &list);
    for (size_t i = 0; i < n; i++) {
        const json_t *v = json_array_get(list, i);
        if (!json_is_integer(v) || json_integer_value(v) < 0 ||
            (uint64_t)json_integer_value(v) >= layers) {
            rd_fail(r, name, GS_ERR_INVALID, "entry %zu is not a layer index below %llu", i,
                    (unsigned long long)layers);
            return false;
        }
        if ((uint64_t)json_integer_value(v) < GS_LAYERS_MAX)
            out[json_integer_value(v)] = true;
    }
    return r->ok;
}

/* ----------------------------------------------------------------- Gemma 3 */

/* Gemma3TextConfig's defaults (configuration_gemma3.py); the published
 * gemma-3-4b-it text_config omits vocab_size, the heads and head_dim. */
static const char GEMMA3_TEXT[] =
    "{\"vocab_size\": 262208, \"hidden_size\": 2304, \"intermediate_size\": 9216,"
    " \"num_hidden_layers\": 26, \"num_attention_heads\": 8, \"num_key_value_heads\": 4,"
    " \"head_dim\": 256, \"max_position_embeddings\": 131072, \"sliding_window\": 4096,"
    " \"sliding_window_pattern\": 6}";

/* SiglipVisionConfig's defaults (configuration_siglip.py). */
static const char SIGLIP_VISION[] =
    "{\"hidden_size\": 768, \"intermediate_size\": 3072, \"num_hidden_layers\": 12,"
    " \"num_attention_heads\": 12, \"num_channels\": 3, \"image_size\": 224, \"patch_size\": 16}";

/* SiglipVisionModel (modeling_siglip.py) as Gemma 3 loads it: a Conv2d
 * patch_embedding with bias, a learned position_embedding per patch (with
 * `naflex`, Siglip2VisionModel: an nn.Linear patch_embedding with bias and
 * num_patches positions, resized to each image's grid),
 * SiglipEncoderLayers (q/k/v/out_proj with biases, layer_norm1/2 LayerNorms,
 * fc1/fc2 with biases), post_layernorm, and - unless vision_use_head is
 * false (the attribute's absence means true) - the attention-pooling head
 * (probe, nn.MultiheadAttention in_proj/out_proj, layernorm, mlp). Returns
 * the vision width. */
static uint64_t read_siglip_tower(struct model_reader *v, struct gs_arch *a, bool naflex)
{
    const uint64_t vh = rd_dim(v, NAMES("hidden_size"), true, 0);
    const uint64_t vi = rd_dim(v, NAMES("intermediate_size"), true, 0);
    const uint64_t layers = rd_dim(v, NAMES("num_hidden_layers"), true, 0);
    const uint64_t heads = rd_dim(v, NAMES("num_attention_heads"), true, 0);
    const uint64_t channels = rd_dim(v, NAMES("num_channels"), true, 0);
    const uint64_t patch = rd_dim(v, NAMES("patch_size"), true, 0);
    const uint64_t image = naflex ? 0 : rd_dim(v, NAMES("image_size"), true, 0);
    const uint64_t positions = naflex ? rd_dim(v, NAMES("num_patches"), true, 0)
                                      : (patch ? (image / patch) * (image / patch) : 0);
    const bool head = rd_flag(v, "vision_use_head", true);
    if (!v->ok)
        return 0;
    const size_t b = gs_arch_new_block(a);
    const struct gs_attention s = encoder_spec(heads, per_head(vh, heads));
    attention(a, b, vh, vh, &s, &CLIP_ATTN, false);
    mlp(a, b, vh, vi, false, true, &CLIP_FC);
    norm(a, b, "layer_norm1", GS_PART_NORMS, true, vh);
    norm(a, b, "layer_norm2", GS_PART_NORMS, true, vh);
    gs_arch_tower(a, "vision_tower", b, GS_PART_VISION, layers, false);
    if (naflex) {
        linear(a, GS_BLOCKS_MAX, "embeddings.patch_embedding", GS_SPLIT_NONE, GS_PART_VISION, true,
               channels * patch * patch, vh);
    } else {
        tensor(a, GS_BLOCKS_MAX, "embeddings.patch_embedding", GS_PART_VISION,
               channels * patch * patch, vh);
        tensor(a, GS_BLOCKS_MAX, "embeddings.patch_embedding.bias", GS_PART_VISION, 1, vh);
    }
    add(a, GS_BLOCKS_MAX, "embeddings.position_embedding", GS_MODULE_EMBEDDING, GS_SPLIT_NONE,
        GS_PART_VISION, 0, positions, vh);
    norm(a, GS_BLOCKS_MAX, "post_layernorm", GS_PART_VISION, true, vh);
    if (head) {
        tensor(a, GS_BLOCKS_MAX, "head.probe", GS_PART_VISION, 1, vh);
        /* nn.MultiheadAttention holds in_proj_weight and in_proj_bias as parameters, not an
         * nn.Linear PEFT's all-linear collects (its out_proj is one) */
        tensor(a, GS_BLOCKS_MAX, "head.attention.in_proj", GS_PART_VISION, vh + 1, 3 * vh);
        linear(a, GS_BLOCKS_MAX, "head.attention.out_proj", GS_SPLIT_NONE, GS_PART_VISION, true,
               vh, vh);
        norm(a, GS_BLOCKS_MAX, "head.layernorm", GS_PART_VISION, true, vh);
        linear(a, GS_BLOCKS_MAX, "head.mlp.fc1", GS_SPLIT_NONE, GS_PART_VISION, true, vh, vi);
        linear(a, GS_BLOCKS_MAX, "head.mlp.fc2", GS_SPLIT_NONE, GS_PART_VISION, true, vi, vh);
    }
    return vh;
}

/* Opens vision_config with `defaults` and reads a SigLIP tower without its pooling head (towers
 * built of SiglipVisionModel's layers but not its head); the sub-reader stays open for the
 * caller's further fields and is closed with close_sub. False when nothing is open (the reader
 * failed); *vh the tower's width, 0 when reading it failed. */
static bool open_headless_siglip(struct model_reader *r, struct gs_arch *a, const char *defaults,
                                 bool naflex, struct model_reader *vision, json_t **owned,
                                 uint64_t *vh)
{
    *vh = 0;
    if (!r->ok || !open_sub(r, "vision_config", defaults, defaults, NULL, vision, owned))
        return false;
    if (json_object_set_new(*owned, "vision_use_head", json_false()) != 0) {
        rd_fail(r, "vision_config", GS_ERR_NOMEM, "out of memory reading the nested config");
        close_sub(r, vision, *owned);
        return false;
    }
    *vh = read_siglip_tower(vision, a, naflex);
    return true;
}

static uint64_t read_siglip(struct model_reader *v, struct gs_arch *a)
{
    return read_siglip_tower(v, a, false);
}

/* Gemma3ForConditionalGeneration (modeling_gemma3.py): the text_config is
 * always a Gemma3TextConfig, read as gemma3_text (Gemma 3's decoder: four
 * norms, q/k norms, 5 local layers to 1 global, tied head); the SigLIP
 * vision tower; Gemma3MultiModalProjector: mm_input_projection_weight, a
 * bare (vision x text) parameter, and mm_soft_emb_norm, an RMSNorm over the
 * vision width (avg_pool has no parameters). */
static void read_gemma3(struct model_reader *r, struct gs_arch *a)
{
    struct model_reader text, vision;
    json_t *owned = NULL;
    if (open_sub(r, "text_config", GEMMA3_TEXT, NULL, "gemma3_text", &text, &owned)) {
        read_text_as(&text, a, "gemma3_text");
        close_sub(r, &text, owned);
    }
    if (!r->ok || !open_sub(r, "vision_config", SIGLIP_VISION, NULL, NULL, &vision, &owned))
        return;
    const uint64_t vh = read_siglip(&vision, a);
    const uint64_t image = rd_dim(&vision, NAMES("image_size"), false, 0);
    const uint64_t patch = rd_dim(&vision, NAMES("patch_size"), false, 0);
    close_sub(r, &vision, owned);
    if (!r->ok)
        return;
    /* Gemma 3's dummy image (pan-and-scan off): one image_size crop of mm_tokens_per_image.
     * Gemma3ImageProcessor resizes the image and each pan-and-scan crop to image_size square
     * (pixel_values one row a crop), the tower runs each as a sequence of (image_size /
     * patch_size)^2 patches, and Gemma3MultiModalProjector average-pools them to
     * mm_tokens_per_image tokens (kernel patches_per_image / tokens_per_side) */
    a->mm_image.tokens = rd_dim(r, NAMES("mm_tokens_per_image"), false, 256);
    a->mm_image.pixels = 3 * image * image;
    a->mm_image.patches = patch ? (image / patch) * (image / patch) : 0;
    a->mm_image.layout = GS_MM_CROPS;
    tensor(a, GS_BLOCKS_MAX, "multi_modal_projector.mm_input_projection_weight", GS_PART_VISION,
           vh, a->hidden_size);
    norm(a, GS_BLOCKS_MAX, "multi_modal_projector.mm_soft_emb_norm", GS_PART_VISION, false, vh);
}

/* --------------------------------------------------------------- Mistral 3 */

/* Mistral3Config's default text_config (configuration_mistral3.py: the
 * Mistral-Small-3.1 language model), used when the member is absent. */
static const char MISTRAL3_TEXT[] =
    "{\"model_type\": \"mistral\", \"head_dim\": 128, \"hidden_size\": 5120,"
    " \"intermediate_size\": 32768, \"max_position_embeddings\": 131072,"
    " \"num_attention_heads\": 32, \"num_hidden_layers\": 40, \"num_key_value_heads\": 8,"
    " \"sliding_window\": null, \"vocab_size\": 131072}";

/* PixtralVisionConfig's defaults (configuration_pixtral.py). */
static const char PIXTRAL_VISION[] =
    "{\"hidden_size\": 1024, \"intermediate_size\": 4096, \"num_hidden_layers\": 24,"
    " \"num_attention_heads\": 16, \"num_channels\": 3, \"patch_size\": 16}";

/* Mistral3Config's default vision_config. */
static const char MISTRAL3_VISION[] =
    "{\"hidden_size\": 1024, \"intermediate_size\": 4096, \"num_hidden_layers\": 24,"
    " \"num_attention_heads\": 16, \"num_channels\": 3, \"patch_size\": 14, \"head_dim\": 64}";

/* PixtralVisionModel (modeling_pixtral.py): patch_conv Conv2d without bias,
 * ln_pre RMSNorm, 2-D RoPE (no parameters), PixtralAttentionLayers of
 * attention q/k/v/o_proj and feed_forward gate/up/down_proj (no biases)
 * with attention_norm and ffn_norm RMSNorms. Returns the vision width. */
static uint64_t read_pixtral(struct model_reader *v, struct gs_arch *a)
{
    static const struct attn_layout attn = {"attention.q_proj", "attention.k_proj",
                                            "attention.v_proj", "attention.o_proj", NULL,
                                            false, false, false, false};
    static const struct gs_mlp_names ffn = {"feed_forward.gate_proj", "feed_forward.up_proj",
                                            "feed_forward.down_proj", NULL};
    const uint64_t vh = rd_dim(v, NAMES("hidden_size"), true, 0);
    const uint64_t vi = rd_dim(v, NAMES("intermediate_size"), true, 0);
    const uint64_t layers = rd_dim(v, NAMES("num_hidden_layers"), true, 0);
    const uint64_t heads = rd_dim(v, NAMES("num_attention_heads"), true, 0);
    const uint64_t d = rd_dim(v, NAMES("head_dim"), false, per_head(vh, heads));
    const uint64_t channels = rd_dim(v, NAMES("num_channels"), true, 0);
    const uint64_t patch = rd_dim(v, NAMES("patch_size"), true, 0);
    if (!v->ok)
        return 0;
    const size_t b = gs_arch_new_block(a);
    const struct gs_attention s = encoder_spec(heads, d);
    attention(a, b, vh, vh, &s, &attn, false);
    mlp(a, b, vh, vi, true, false, &ffn);
    norm(a, b, "attention_norm", GS_PART_NORMS, false, vh);
    norm(a, b, "ffn_norm", GS_PART_NORMS, false, vh);
    gs_arch_tower(a, "vision_tower", b, GS_PART_VISION, layers, false);
    tensor(a, GS_BLOCKS_MAX, "patch_conv", GS_PART_VISION, channels * patch * patch, vh);
    norm(a, GS_BLOCKS_MAX, "ln_pre", GS_PART_VISION, false, vh);
    return vh;
}

/* Ministral3ForCausalLM (transformers models/ministral3/modular_ministral3.py;
 * vLLM serves it with models/mistral.py): MistralForCausalLM's modules - a
 * Llama layer without biases -, its queries scaled by position
 * (llama_4_scaling_beta, no parameters); a sliding_window, when set,
 * applies to every layer. The language model of Ministral 3 (3B, 8B, 14B),
 * and the whole of the text-only Devstral 2 checkpoints (model_type
 * ministral3). */
static void read_ministral3(struct model_reader *r, struct gs_arch *a)
{
    struct decoder_plan plan;
    decoder_read_dims(r, a, &plan, false, 0, false);
    plan.window = rd_dim(r, NAMES("sliding_window"), false, 0);
    decoder_window_all(&plan);
    const struct decoder_traits t = {.norms = 2};
    decoder_build(r, a, &plan, &t);
}

/* Mistral3ForConditionalGeneration (modeling_mistral3.py): the language
 * model its text_config's model_type names (mistral by default; ministral3
 * for Ministral 3; deepseek_v3 and mistral4, read by mla.c, for Mistral
 * Large 3 and Mistral Small 4), the Pixtral tower, and
 * Mistral3MultiModalProjector: norm (RMSNorm over the vision width),
 * patch_merger.merging_layer (vision x merge^2 -> vision, no bias), linear_1
 * (vision x feature layers -> text) and linear_2 (text -> text), both with
 * multimodal_projector_bias. */
/* LightOnOcrConfig's default sub-configs (transformers models/lighton_ocr/modular_lighton_ocr.py):
 * a Pixtral tower of 1,540 px images and a Qwen3 language model. */
static const char LIGHTON_OCR_TEXT[] =
    "{\"model_type\": \"qwen3\", \"head_dim\": 128, \"hidden_size\": 1024,"
    " \"intermediate_size\": 3072, \"max_position_embeddings\": 40960,"
    " \"num_attention_heads\": 16, \"num_hidden_layers\": 28, \"num_key_value_heads\": 8,"
    " \"sliding_window\": null, \"vocab_size\": 151936}";
static const char LIGHTON_OCR_VISION[] =
    "{\"hidden_size\": 1024, \"intermediate_size\": 4096, \"num_hidden_layers\": 24,"
    " \"num_attention_heads\": 16, \"num_channels\": 3, \"patch_size\": 14, \"head_dim\": 64,"
    " \"image_size\": 1540}";

static void read_mistral3_family(struct model_reader *r, struct gs_arch *a, bool lighton);

static void read_mistral3(struct model_reader *r, struct gs_arch *a)
{
    read_mistral3_family(r, a, false);
}

/* LightOnOcrForConditionalGeneration (transformers models/lighton_ocr/modular_lighton_ocr.py;
 * lightonai/LightOnOCR-1B): Mistral 3's model - the Pixtral tower, Mistral3MultiModalProjector's
 * norm and patch merger - with its own defaults (a Qwen3 language model, 1,540 px images), the
 * projector's linear_1 and linear_2 without biases, and the head tied by the top-level
 * tie_word_embeddings (LightOnOcrConfig's default true; transformers 5 ties by the wrapper's
 * flag). */
static void read_lighton_ocr(struct model_reader *r, struct gs_arch *a)
{
    read_mistral3_family(r, a, true);
}

static void read_mistral3_family(struct model_reader *r, struct gs_arch *a, bool lighton)
{
    struct model_reader text, vision;
    json_t *owned = NULL;
    const char *text_defaults = lighton ? LIGHTON_OCR_TEXT : MISTRAL3_TEXT;
    const bool tie = lighton && rd_flag(r, "tie_word_embeddings", true);
    if (open_sub(r, "text_config",
                 lighton ? "{\"model_type\": \"qwen3\"}" : "{\"model_type\": \"mistral\"}",
                 text_defaults, NULL, &text, &owned)) {
        if (lighton && json_object_set_new(owned, "tie_word_embeddings", json_boolean(tie)) != 0)
            rd_fail(r, "text_config", GS_ERR_NOMEM, "out of memory reading the nested config");
        else
            read_text_as(&text, a, rd_string(&text, "model_type"));
        close_sub(r, &text, owned);
    }
    const uint64_t merge = rd_dim(r, NAMES("spatial_merge_size"), false, 2);
    const bool bias = rd_flag(r, "multimodal_projector_bias", false);
    const json_t *layers = rd_get(r, "vision_feature_layer");
    const uint64_t features = json_is_array(layers) ? json_array_size(layers) : 1;
    if (!r->ok || !open_sub(r, "vision_config", PIXTRAL_VISION,
                            lighton ? LIGHTON_OCR_VISION : MISTRAL3_VISION, NULL, &vision, &owned))
        return;
    const uint64_t vh = read_pixtral(&vision, a);
    const uint64_t image = rd_dim(&vision, NAMES("image_size"), false, 0);
    const uint64_t patch = rd_dim(&vision, NAMES("patch_size"), false, 14);
    close_sub(r, &vision, owned);
    if (!r->ok)
        return;
    /* the dummy image is image_size square: (image / patch / merge)^2 embeddings, each merged
     * from merge^2 of its (image / patch)^2 patches (Mistral3PatchMerger); the tower runs every
     * image of a batch as one sequence (PixtralVisionModel.forward: torch.cat of the images'
     * patches, generate_block_attention_mask, or cu_seqlens under flash-attn) */
    if (image && patch && merge) {
        a->mm_image.tokens = (image / patch / merge) * (image / patch / merge);
        a->mm_image.pixels = 3 * image * image;
        a->mm_image.patches = (image / patch) * (image / patch);
        a->mm_image.layout = GS_MM_ONE_SEQUENCE;
    }
    const uint64_t h = a->hidden_size;
    norm(a, GS_BLOCKS_MAX, "multi_modal_projector.norm", GS_PART_VISION, false, vh);
    linear(a, GS_BLOCKS_MAX, "multi_modal_projector.patch_merger.merging_layer", GS_SPLIT_NONE,
           GS_PART_VISION, false, vh * merge * merge, vh);
    linear(a, GS_BLOCKS_MAX, "multi_modal_projector.linear_1", GS_SPLIT_COLUMN, GS_PART_VISION,
           bias, vh * (features ? features : 1), h);
    linear(a, GS_BLOCKS_MAX, "multi_modal_projector.linear_2", GS_SPLIT_ROW, GS_PART_VISION, bias,
           h, h);
}

/* -------------------------------------------------------------- Qwen2.5-VL */

/* Qwen2_5_VLVisionConfig's defaults (configuration_qwen2_5_vl.py). */
static const char QWEN2_5_VISION[] =
    "{\"depth\": 32, \"hidden_size\": 3584, \"intermediate_size\": 3420, \"num_heads\": 16,"
    " \"in_channels\": 3, \"patch_size\": 14, \"spatial_merge_size\": 2,"
    " \"temporal_patch_size\": 2, \"out_hidden_size\": 3584}";

/* The largest image Qwen2.5-VL's processor accepts: the checkpoints' preprocessor_config.json
 * max_pixels 12,845,056 (Qwen2VLImageProcessor's smart_resize bound on height x width; a still
 * image is repeated to temporal_patch_size frames), config.json does not carry it. A video is
 * sized per frame by the same bound and has no total: its largest is as many two-frame groups
 * of that image as the context holds (mm_video_fills_context). Each embedding is merge^2
 * patches of channels x temporal x patch^2 values, out_hidden_size wide. */
#define QWEN2_5_VL_MAX_PIXELS 12845056ULL

static void qwen2_5_vl_dummies(struct gs_arch *a, uint64_t channels, uint64_t temporal,
                               uint64_t patch, uint64_t merge, uint64_t out)
{
    const struct gs_mm_item item =
        rd_qwen_vl_item(QWEN2_5_VL_MAX_PIXELS, channels, temporal, patch, merge);
    if (item.tokens == 0)
        return;
    a->mm_image = item;
    a->mm_video = item;
    a->mm_video_fills_context = true;
    a->mm_embed_width = out;
}

/* Qwen2_5_VisionTransformerPretrainedModel (modeling_qwen2_5_vl.py):
 * patch_embed.proj Conv3d (channels x temporal x patch x patch -> vision,
 * no bias), rotary embedding (a buffer), Qwen2_5_VLVisionBlocks (norm1 and
 * norm2 RMSNorms, attn.qkv and attn.proj with biases, a gated MLP with
 * biases; window vs full attention changes compute only) and
 * Qwen2_5_VLPatchMerger: ln_q RMSNorm, mlp.0 (vision x merge^2 square) and
 * mlp.2 (-> out_hidden_size), both with biases. */
static void read_qwen2_5_vision(struct model_reader *v, struct gs_arch *a)
{
    static const struct attn_layout attn = {NULL, NULL, NULL, "attn.proj", "attn.qkv",
                                            true, true, true, true};
    static const struct gs_mlp_names gated = {"mlp.gate_proj", "mlp.up_proj", "mlp.down_proj",
                                              NULL};
    const uint64_t depth = rd_dim(v, NAMES("depth"), true, 0);
    const uint64_t vh = rd_dim(v, NAMES("hidden_size", "embed_dim"), true, 0);
    const uint64_t vi = rd_dim(v, NAMES("intermediate_size"), true, 0);
    const uint64_t heads = rd_dim(v, NAMES("num_heads"), true, 0);
    const uint64_t channels = rd_dim(v, NAMES("in_channels", "in_chans"), true, 0);
    const uint64_t patch = rd_dim(v, NAMES("patch_size", "spatial_patch_size"), true, 0);
    const uint64_t temporal = rd_dim(v, NAMES("temporal_patch_size"), true, 0);
    const uint64_t merge = rd_dim(v, NAMES("spatial_merge_size"), true, 0);
    const uint64_t out = rd_dim(v, NAMES("out_hidden_size"), true, 0);
    /* EXAONE 4.5's tower (Exaone4_5_VisionAttention): qkv projects to q and num_key_value_heads
     * K/V heads (GQA); Qwen2.5-VL's config has no such key, every head its own K/V */
    const uint64_t kv_heads = rd_dim(v, NAMES("num_key_value_heads"), false, heads);
    if (!v->ok)
        return;
    const size_t b = gs_arch_new_block(a);
    struct gs_attention s = encoder_spec(heads, per_head(vh, heads));
    s.kv_heads = kv_heads;
    attention(a, b, vh, vh, &s, &attn, false);
    mlp(a, b, vh, vi, true, true, &gated);
    norm(a, b, "norm1", GS_PART_NORMS, false, vh);
    norm(a, b, "norm2", GS_PART_NORMS, false, vh);
    gs_arch_tower(a, "visual", b, GS_PART_VISION, depth, false);
    tensor(a, GS_BLOCKS_MAX, "visual.patch_embed.proj", GS_PART_VISION,
           channels * temporal * patch * patch, vh);
    qwen2_5_vl_dummies(a, channels, temporal, patch, merge, out);
    const uint64_t merged = vh * merge * merge;
    norm(a, GS_BLOCKS_MAX, "visual.merger.ln_q", GS_PART_VISION, false, vh);
    linear(a, GS_BLOCKS_MAX, "visual.merger.mlp.0", GS_SPLIT_COLUMN, GS_PART_VISION, true, merged,
           merged);
    linear(a, GS_BLOCKS_MAX, "visual.merger.mlp.2", GS_SPLIT_ROW, GS_PART_VISION, true, merged,
           out);
}

/* Qwen2VLVisionConfig's defaults (configuration_qwen2_vl.py). */
static const char QWEN2_VISION[] =
    "{\"depth\": 32, \"embed_dim\": 1280, \"hidden_size\": 3584, \"mlp_ratio\": 4,"
    " \"num_heads\": 16, \"in_channels\": 3, \"patch_size\": 14, \"spatial_merge_size\": 2,"
    " \"temporal_patch_size\": 2}";

/* Qwen2VisionTransformerPretrainedModel (modeling_qwen2_vl.py): PatchEmbed's Conv3d without bias
 * (channels x temporal x patch^2 -> embed_dim), Qwen2VLVisionBlocks of norm1 and norm2 LayerNorms
 * (weight and bias), VisionAttention's attn.qkv and attn.proj with biases, VisionMlp's fc1 and fc2
 * with biases embed_dim x mlp_ratio wide (QuickGELU, ungated), and PatchMerger: ln_q a LayerNorm
 * over embed_dim, mlp.0 (embed_dim x merge^2 square) and mlp.2 (-> hidden_size, the language
 * model's width), both with biases. The largest image is Qwen2.5-VL's (the same processor). */
static void read_qwen2_vision(struct model_reader *v, struct gs_arch *a)
{
    static const struct attn_layout attn = {NULL, NULL, NULL, "attn.proj", "attn.qkv",
                                            true, true, true, true};
    static const struct gs_mlp_names fc = {NULL, "mlp.fc1", "mlp.fc2", NULL};
    const uint64_t depth = rd_dim(v, NAMES("depth"), true, 0);
    const uint64_t vh = rd_dim(v, NAMES("embed_dim"), true, 0);
    const uint64_t out = rd_dim(v, NAMES("hidden_size"), true, 0);
    const uint64_t ratio = rd_dim(v, NAMES("mlp_ratio"), true, 0);
    const uint64_t heads = rd_dim(v, NAMES("num_heads"), true, 0);
    const uint64_t channels = rd_dim(v, NAMES("in_channels", "in_chans"), true, 0);
    const uint64_t patch = rd_dim(v, NAMES("patch_size", "spatial_patch_size"), true, 0);
    const uint64_t temporal = rd_dim(v, NAMES("temporal_patch_size"), true, 0);
    const uint64_t merge = rd_dim(v, NAMES("spatial_merge_size"), true, 0);
    if (!v->ok)
        return;
    const size_t b = gs_arch_new_block(a);
    const struct gs_attention s = encoder_spec(heads, per_head(vh, heads));
    attention(a, b, vh, vh, &s, &attn, false);
    mlp(a, b, vh, vh * ratio, false, true, &fc);
    norm(a, b, "norm1", GS_PART_NORMS, true, vh);
    norm(a, b, "norm2", GS_PART_NORMS, true, vh);
    gs_arch_tower(a, "visual", b, GS_PART_VISION, depth, false);
    tensor(a, GS_BLOCKS_MAX, "visual.patch_embed.proj", GS_PART_VISION,
           channels * temporal * patch * patch, vh);
    qwen2_5_vl_dummies(a, channels, temporal, patch, merge, out);
    const uint64_t merged = vh * merge * merge;
    norm(a, GS_BLOCKS_MAX, "visual.merger.ln_q", GS_PART_VISION, true, vh);
    linear(a, GS_BLOCKS_MAX, "visual.merger.mlp.0", GS_SPLIT_COLUMN, GS_PART_VISION, true, merged,
           merged);
    linear(a, GS_BLOCKS_MAX, "visual.merger.mlp.2", GS_SPLIT_ROW, GS_PART_VISION, true, merged,
           out);
}

/* Qwen2_5_VLForConditionalGeneration and Qwen2VLForConditionalGeneration (`qwen2`: Qwen2-VL's
 * tower): a Qwen2 decoder (biases on q, k and v, not o) read from text_config or, in the
 * published flat configs, from the top level; a layer from max_window_layers on attends through
 * sliding_window only with use_sliding_window. tie_word_embeddings may sit at the top level of
 * either layout. */
static void read_qwen_vl(struct model_reader *r, struct gs_arch *a, bool qwen2)
{
    struct model_reader text, vision;
    const bool nested = rd_sub(r, "text_config", &text);
    if (!r->ok)
        return;
    struct model_reader *t = nested ? &text : r;
    struct decoder_plan plan;
    decoder_read_dims(t, a, &plan, false, 0, false);
    if (nested && rd_get(t, "tie_word_embeddings") == NULL)
        a->tie_word_embeddings = rd_flag(r, "tie_word_embeddings", false);
    if (rd_flag(t, "use_sliding_window", false)) {
        plan.window = rd_dim(t, NAMES("sliding_window"), false, 0);
        if (!decoder_read_layer_types(t, &plan)) {
            const uint64_t from = rd_dim(t, NAMES("max_window_layers"), false, 0);
            for (uint64_t l = 0; l < plan.layers && l < GS_LAYERS_MAX; l++)
                plan.sliding[l] = l >= from;
        }
    }
    if (nested && !text.ok)
        r->ok = false;
    const struct decoder_traits traits = {.norms = 2, .qkv_bias = true};
    decoder_build(r, a, &plan, &traits);
    json_t *owned = NULL;
    if (!r->ok || !open_sub(r, "vision_config", qwen2 ? QWEN2_VISION : QWEN2_5_VISION, NULL, NULL,
                            &vision, &owned))
        return;
    if (qwen2)
        read_qwen2_vision(&vision, a);
    else
        read_qwen2_5_vision(&vision, a);
    close_sub(r, &vision, owned);
}

static void read_qwen2_5_vl(struct model_reader *r, struct gs_arch *a)
{
    read_qwen_vl(r, a, false);
}

static void read_qwen2_vl(struct model_reader *r, struct gs_arch *a)
{
    read_qwen_vl(r, a, true);
}

/* ------------------------------------------------------------------ GLM-4V */

/* Glm4vTextConfig's defaults (configuration_glm4v.py; GLM-4.1V-9B's text model). */
static const char GLM4V_TEXT[] =
    "{\"vocab_size\": 151552, \"hidden_size\": 4096, \"intermediate_size\": 13696,"
    " \"num_hidden_layers\": 40, \"num_attention_heads\": 32, \"num_key_value_heads\": 2,"
    " \"max_position_embeddings\": 32768}";

/* Glm4vMoeTextConfig's defaults (configuration_glm4v_moe.py; GLM-4.5V's text model, GLM-4.5-Air's
 * layers): attention_bias true where Glm4MoeConfig's is false. */
static const char GLM4V_MOE_TEXT[] =
    "{\"vocab_size\": 151424, \"hidden_size\": 4096, \"intermediate_size\": 10944,"
    " \"num_hidden_layers\": 46, \"num_attention_heads\": 96, \"num_key_value_heads\": 8,"
    " \"max_position_embeddings\": 65536, \"attention_bias\": true, \"moe_intermediate_size\": "
    "1408,"
    " \"num_experts_per_tok\": 8, \"n_shared_experts\": 1, \"n_routed_experts\": 128,"
    " \"first_k_dense_replace\": 1}";

/* Glm4vVisionConfig's defaults, which Glm4vMoeVisionConfig repeats. */
static const char GLM4V_VISION[] =
    "{\"depth\": 24, \"hidden_size\": 1536, \"attention_bias\": false, \"num_heads\": 12,"
    " \"in_channels\": 3, \"image_size\": 336, \"patch_size\": 14, \"spatial_merge_size\": 2,"
    " \"temporal_patch_size\": 2, \"out_hidden_size\": 4096, \"intermediate_size\": 13696}";

/* GLM-OCR's defaults (configuration_glm_ocr.py: GlmOcrTextConfig, GlmOcrVisionConfig). */
static const char GLM_OCR_TEXT[] =
    "{\"vocab_size\": 59392, \"hidden_size\": 1024, \"intermediate_size\": 4096,"
    " \"num_hidden_layers\": 16, \"num_attention_heads\": 16, \"num_key_value_heads\": 8,"
    " \"max_position_embeddings\": 131072}";
static const char GLM_OCR_VISION[] =
    "{\"depth\": 24, \"hidden_size\": 1024, \"attention_bias\": true, \"num_heads\": 16,"
    " \"in_channels\": 3, \"image_size\": 336, \"patch_size\": 14, \"spatial_merge_size\": 2,"
    " \"temporal_patch_size\": 2, \"out_hidden_size\": 1536, \"intermediate_size\": 4096}";

/* The largest image the GLM-V checkpoints' processors take: their preprocessor_config.json size
 * longest_edge 9,633,792 = 28 x 28 x 2 x 6,144 (zai-org/GLM-OCR's; vLLM glm4_1v.py counts an
 * image's tokens with the same max_image_pixels; Glm4vImageProcessor's class default is 28 x 28 x
 * 15,000, config.json carries neither), which smart_resize bounds t_bar x h x w by, an image
 * being temporal_patch_size frames: 4,816,896 pixels a frame, 6,144 tokens. */
#define GLM4V_MAX_PIXELS (28ULL * 28 * 2 * 6144)

/* Glm4vTextModel (modeling_glm4v.py; GLM-4.1V-9B, GLM-4.6V-Flash): Glm4vTextAttention's q, k and v
 * always biased (bias=True; o_proj never) with head_dim hidden_size / num_attention_heads,
 * Glm4vTextMLP's fused gate_up_proj, and Glm4's four norms (post_self_attn_layernorm and
 * post_mlp_layernorm on the attention's and the MLP's outputs). GLM-OCR's GlmOcrTextAttention
 * (`ocr`) biases none and takes the config's head_dim. The checkpoint's
 * num_nextn_predict_layers MTP layer (GLM-OCR's model.language_model.layers.16, which
 * transformers skips: _keys_to_ignore_on_load_unexpected) is the mtp tower: SGLang's
 * glm_ocr_nextn.py builds it as DeepSeek's (embed_tokens, enorm, hnorm, eh_proj, a
 * Glm4DecoderLayer, shared_head norm and head). */
static void read_glm4v_text(struct model_reader *t, struct gs_arch *a, bool ocr)
{
    struct decoder_plan plan;
    decoder_read_dims(t, a, &plan, false, 0, false);
    if (!ocr)
        plan.head_dim = per_head(a->hidden_size, plan.heads);
    const struct decoder_traits traits = {
        .norms = 4, .qkv_bias = !ocr, .mlp_names = &DECODER_GATE_UP_NAMES};
    decoder_build(t, a, &plan, &traits);
    decoder_build_mtp(t, a, &plan, &traits, rd_dim(t, NAMES("num_nextn_predict_layers"), false, 0));
}

/* Glm4vVisionModel (modeling_glm4v.py; Glm4vMoeVisionModel is the same): patch_embed.proj a
 * biased Conv3d (channels x temporal x patch^2 -> vision), post_conv_layernorm, a learned
 * position table of (image_size / patch)^2 rows bicubically resampled to each image's grid,
 * Glm4vVisionBlocks (norm1, norm2 RMSNorms; attn.qkv, biased by attention_bias, and attn.proj;
 * a SiLU-gated MLP out_hidden_size wide - Glm4VisionMlp takes config.out_hidden_size, not
 * intermediate_size), post_layernorm, downsample (a biased Conv2d merging merge^2 patches into
 * out_hidden_size) and Glm4vVisionPatchMerger (proj, a LayerNorm, then a gated MLP
 * intermediate_size wide; no biases). One merged patch is one token of the text.
 * GlmOcrVisionModel (`ocr`, modeling_glm_ocr.py) drops the position table and
 * post_conv_layernorm, biases attn.proj and the block's MLP as attention_bias says, makes that
 * MLP intermediate_size wide (GlmOcrVisionMlp), adds q_norm and k_norm over head_dim
 * (GlmOcrVisionAttention) and widens the merger's MLP to out_hidden_size x in_channels. */
static void read_glm4v_vision(struct model_reader *v, struct gs_arch *a, bool ocr,
                              const struct glm_vision_form *form)
{
    static const struct gs_mlp_names gated = {"mlp.gate_proj", "mlp.up_proj", "mlp.down_proj",
                                              NULL};
    const uint64_t depth = rd_dim(v, NAMES("depth"), true, 0);
    const uint64_t vh = rd_dim(v, NAMES("hidden_size"), true, 0);
    const uint64_t heads = rd_dim(v, NAMES("num_heads"), true, 0);
    const uint64_t channels = rd_dim(v, NAMES("in_channels"), true, 0);
    const uint64_t image = rd_dim(v, NAMES("image_size"), true, 0);
    const uint64_t patch = rd_dim(v, NAMES("patch_size"), true, 0);
    const uint64_t temporal = rd_dim(v, NAMES("temporal_patch_size"), true, 0);
    const uint64_t merge = rd_dim(v, NAMES("spatial_merge_size"), true, 0);
    const uint64_t out = rd_dim(v, NAMES("out_hidden_size"), true, 0);
    const uint64_t inner = rd_dim(v, NAMES("intermediate_size"), true, 0);
    const bool bias = rd_flag(v, "attention_bias", false);
    /* the patch merger's gated MLP: the form's key, else GLM-OCR's and GLM-4V's widths */
    const uint64_t context = form != NULL ? rd_dim(v, NAMES(form->merger_width_key), true, 0)
                             : ocr        ? out * channels
                                          : inner;
    if (!v->ok)
        return;
    const struct attn_layout attn = {NULL, NULL, NULL, "attn.proj", "attn.qkv",
                                     bias, bias, bias, ocr && bias};
    const size_t b = gs_arch_new_block(a);
    const uint64_t head_dim = per_head(vh, heads);
    const struct gs_attention s = encoder_spec(heads, head_dim);
    attention(a, b, vh, vh, &s, &attn, false);
    mlp(a, b, vh, ocr ? inner : out, true, ocr && bias, &gated);
    norm(a, b, "norm1", GS_PART_NORMS, false, vh);
    norm(a, b, "norm2", GS_PART_NORMS, false, vh);
    if (ocr) {
        norm(a, b, "attn.q_norm", GS_PART_NORMS, false, head_dim);
        norm(a, b, "attn.k_norm", GS_PART_NORMS, false, head_dim);
    }
    gs_arch_tower(a, "visual", b, GS_PART_VISION, depth, false);
    const size_t m = GS_BLOCKS_MAX;
    const uint64_t side = patch ? image / patch : 0;
    if (!ocr) {
        add(a, m, "visual.embeddings.position_embedding", GS_MODULE_EMBEDDING, GS_SPLIT_NONE,
            GS_PART_VISION, 0, side * side, vh);
        norm(a, m, "visual.post_conv_layernorm", GS_PART_VISION, false, vh);
    }
    tensor(a, m, "visual.patch_embed.proj", GS_PART_VISION, channels * temporal * patch * patch,
           vh);
    tensor(a, m, "visual.patch_embed.proj.bias", GS_PART_VISION, 1, vh);
    norm(a, m, "visual.post_layernorm", GS_PART_VISION, false, vh);
    tensor(a, m, "visual.downsample", GS_PART_VISION, vh * merge * merge, out);
    tensor(a, m, "visual.downsample.bias", GS_PART_VISION, 1, out);
    linear(a, m, "visual.merger.proj", GS_SPLIT_NONE, GS_PART_VISION, false, out, out);
    norm(a, m, "visual.merger.post_projection_norm", GS_PART_VISION, true, out);
    linear(a, m, "visual.merger.gate_proj", GS_SPLIT_COLUMN, GS_PART_VISION, false, out, context);
    linear(a, m, "visual.merger.up_proj", GS_SPLIT_COLUMN, GS_PART_VISION, false, out, context);
    linear(a, m, "visual.merger.down_proj", GS_SPLIT_ROW, GS_PART_VISION, false, context, out);
    /* the processor's largest image; its video processors sample frames by duration (GLM-4.6V:
     * up to 28 x 28 x 2 x 30,000 pixels a video, GLM-GA 55,790 tokens), and vLLM's profile
     * builds its own dummies (glm4_1v.py Glm4vProcessingInfo): neither is read here */
    const uint64_t max_pixels = form != NULL ? form->max_pixels : GLM4V_MAX_PIXELS;
    const struct gs_mm_item item =
        rd_qwen_vl_item(max_pixels / (temporal ? temporal : 1), channels, temporal, patch, merge);
    if (item.tokens != 0)
        a->mm_image = item;
    a->mm_embed_width = out;
}

/* GLM-4.1V, GLM-4.5V, GLM-4.6V and GLM-GA: Glm4vForConditionalGeneration (modeling_glm4v.py),
 * Glm4vMoeForConditionalGeneration (modeling_glm4v_moe.py) and Glm46VForConditionalGeneration
 * (modeling_glm46v.py, which GLM-GA's glmga config loads unchanged: "reuses GLM-4.6V's modeling
 * and processor as-is"), and GLM-OCR's GlmOcrForConditionalGeneration (glm_ocr_text: the `ocr`
 * variants above). Glm4vConfig, Glm4vMoeConfig and GlmOcrConfig build their sub-configs from
 * fixed classes (`text_type`); Glm46VConfig through AutoConfig from the text_config's own model_type,
 * glm4v_text by default, so GLM-4.6V's 106B-A12B names glm4v_moe_text. The language model is
 * Glm4vTextModel (read_glm4v_text) or Glm4vMoeTextModel - GLM-4.5-Air's layers (glm4_moe) whose
 * Glm4vMoeTextAttention is Glm4Attention's, with no q/k norms whatever use_qk_norm says
 * (Glm4vMoeTextConfig deletes it); lm_head tied only where the top-level tie_word_embeddings
 * (default false) says so. Every text layer's rope is the 3-D M-RoPE (mrope_section). */
static void read_glm4v_family(struct model_reader *r, struct gs_arch *a, const char *text_type)
{
    struct model_reader text, vision;
    json_t *owned = NULL;
    const char *type = text_type;
    if (type == NULL) {
        struct model_reader peek;
        const bool has = rd_sub(r, "text_config", &peek);
        if (!r->ok)
            return;
        type = has ? rd_string(&peek, "model_type") : NULL;
        type = type != NULL ? type : "glm4v_text";
    }
    const bool ocr = strcmp(type, "glm_ocr_text") == 0;
    const bool dense = ocr || strcmp(type, "glm4v_text") == 0;
    const bool moe = strcmp(type, "glm4v_moe_text") == 0;
    const char *defaults = ocr ? GLM_OCR_TEXT : dense ? GLM4V_TEXT : moe ? GLM4V_MOE_TEXT : NULL;
    const bool tie = rd_flag(r, "tie_word_embeddings", false);
    if (!open_sub(r, "text_config", defaults, defaults ? defaults : "{}",
                  moe     ? "glm4_moe"
                  : dense ? NULL
                          : type,
                  &text, &owned))
        return;
    if (json_object_set_new(owned, "tie_word_embeddings", json_boolean(tie)) != 0 ||
        (moe && json_object_set_new(owned, "use_qk_norm", json_false()) != 0))
        rd_fail(r, "text_config", GS_ERR_NOMEM, "out of memory reading the nested config");
    else if (dense)
        read_glm4v_text(&text, a, ocr);
    else
        read_text_as(&text, a, moe ? "glm4_moe" : type);
    close_sub(r, &text, owned);
    const char *vision_defaults = ocr ? GLM_OCR_VISION : GLM4V_VISION;
    if (!r->ok ||
        !open_sub(r, "vision_config", vision_defaults, vision_defaults, NULL, &vision, &owned))
        return;
    read_glm4v_vision(&vision, a, ocr, NULL);
    close_sub(r, &vision, owned);
    a->rope_mrope = true;
}

static void read_glm4v(struct model_reader *r, struct gs_arch *a)
{
    read_glm4v_family(r, a, "glm4v_text");
}

static void read_glm4v_moe(struct model_reader *r, struct gs_arch *a)
{
    read_glm4v_family(r, a, "glm4v_moe_text");
}

static void read_glm46v(struct model_reader *r, struct gs_arch *a)
{
    read_glm4v_family(r, a, NULL);
}

/* GlmOcrForConditionalGeneration (transformers models/glm_ocr/modular_glm_ocr.py; zai-org/GLM-OCR,
 * "0.9B" without its embeddings): GLM-4.1V's classes with GlmOcrConfig's fixed sub-configs. */
static void read_glm_ocr(struct model_reader *r, struct gs_arch *a)
{
    read_glm4v_family(r, a, "glm_ocr_text");
}

void glm_ocr_vision_read(struct model_reader *v, struct gs_arch *a,
                         const struct glm_vision_form *form)
{
    read_glm4v_vision(v, a, true, form);
}

/* ------------------------------------------------------------ DeepSeek-OCR */

/* DeepSeek-OCR's language model (language_config, repeated at the config's top level): the
 * repository's DeepseekV2ForCausalLM with use_mla false - LlamaAttention-shaped q/k/v/o without
 * biases in place of MLA (the checkpoint's self_attn.q_proj [1,280, 1,280]) - DeepSeek-V2's MoE
 * from first_k_dense_replace (n_routed_experts of moe_intermediate_size, n_shared_experts in one
 * shared MLP, MoEGate's bare weight; topk_method greedy keeps no correction bias), a dense
 * SwiGLU of intermediate_size below, an untied head (lm_head true). */
static void read_deepseek_ocr_text(struct model_reader *t, struct gs_arch *a)
{
    struct decoder_plan plan;
    decoder_read_dims(t, a, &plan, false, 0, false);
    decoder_read_experts(t, &plan, false);
    plan.experts.shared_width = plan.experts.width * rd_dim(t, NAMES("n_shared_experts"), false, 0);
    plan.experts.router_parameter = true;
    /* transformers' DeepSeek-OCR-2 port (DeepseekOcr2TextConfig) names the routed layers in
     * mlp_layer_types, its "sparse" entries, in place of first_k_dense_replace */
    if (!rd_kind_list(t, "mlp_layer_types", "sparse", "dense", plan.layers, plan.moe) && t->ok)
        decoder_moe_from(&plan, rd_dim(t, NAMES("first_k_dense_replace"), false, 0));
    const struct decoder_traits traits = {.norms = 2};
    decoder_build(t, a, &plan, &traits);
}

/* SAM ViT-B as DeepSeek-OCR's DeepEncoder builds it (remote deepencoder.py ImageEncoderViT; vLLM
 * deepencoder.py): a biased 16 x 16 patch Conv2d, an absolute position table of (image / 16)^2
 * rows, `layers` blocks (norm1/norm2 LayerNorms, a biased fused attn.qkv and attn.proj, the
 * lin1/lin2 MLP 4 x width wide) whose relative-position tables rel_pos_h/rel_pos_w are 2 x 14 - 1
 * rows on the windowed blocks and 2 x (image / 16) - 1 on the `globals` global ones, head_dim wide,
 * then the neck (a 1x1 Conv2d to 256, LayerNorm2d, a 3x3 Conv2d, LayerNorm2d) and net_2 and net_3,
 * 3x3 stride-2 convolutions to channels[0] and channels[1], none of the convolutions biased but
 * the patch embedding. */
static void build_sam_vit_b(struct gs_arch *a, uint64_t image, uint64_t sw, uint64_t sl,
                            uint64_t sh, uint64_t globals, const uint64_t channels[2])
{
    static const struct attn_layout sam_attn = {NULL, NULL, NULL, "attn.proj", "attn.qkv",
                                                true, true, true, true};
    static const struct gs_mlp_names sam_mlp = {NULL, "mlp.lin1", "mlp.lin2", NULL};
    const size_t m = GS_BLOCKS_MAX;
    const uint64_t sam_patch = 16, window = 14, side = image / sam_patch, head = per_head(sw, sh);
    const size_t b = gs_arch_new_block(a);
    attention(
        a, b, sw, sw,
        &(struct gs_attention){.heads = sh, .kv_heads = sh, .head_dim = head, .cached = false},
        &sam_attn, false);
    mlp(a, b, sw, 4 * sw, false, true, &sam_mlp);
    norm(a, b, "norm1", GS_PART_NORMS, true, sw);
    norm(a, b, "norm2", GS_PART_NORMS, true, sw);
    gs_arch_tower(a, "model.sam_model.blocks", b, GS_PART_VISION, sl, false);
    const uint64_t local = sl > globals ? sl - globals : 0;
    tensor(a, m, "model.sam_model.blocks.attn.rel_pos", GS_PART_VISION,
           2 * (local * (2 * window - 1) + globals * (2 * side - 1)), head);
    tensor(a, m, "model.sam_model.patch_embed.proj", GS_PART_VISION, 3 * sam_patch * sam_patch, sw);
    tensor(a, m, "model.sam_model.patch_embed.proj.bias", GS_PART_VISION, 1, sw);
    tensor(a, m, "model.sam_model.pos_embed", GS_PART_VISION, side * side, sw);
    const uint64_t neck = 256;
    tensor(a, m, "model.sam_model.neck.0", GS_PART_VISION, sw, neck);
    norm(a, m, "model.sam_model.neck.1", GS_PART_VISION, true, neck);
    tensor(a, m, "model.sam_model.neck.2", GS_PART_VISION, neck * 9, neck);
    norm(a, m, "model.sam_model.neck.3", GS_PART_VISION, true, neck);
    tensor(a, m, "model.sam_model.net_2", GS_PART_VISION, neck * 9, channels[0]);
    tensor(a, m, "model.sam_model.net_3", GS_PART_VISION, channels[0] * 9, channels[1]);
}

/* DeepSeek-OCR's DeepEncoder (vLLM models/deepencoder.py, after the repository's
 * deepencoder/sam_vary_sdpa.py and clip_sdpa.py; vision_config.width names both): a SAM ViT-B
 * (ImageEncoderViT: a biased 16 x 16 patch embedding, an absolute position table of
 * (image_size / 16)^2 x width, blocks of LayerNorms, a biased qkv and proj, a GELU MLP 4 x wide
 * with biases and, per block, decomposed relative positions rel_pos_h and rel_pos_w of
 * 2 x 14 - 1 rows (window 14) or 2 x 64 - 1 on global_attn_indexes' blocks, head_dim wide; the
 * neck - a 1 x 1 convolution to 256, LayerNorm2d, a 3 x 3 convolution, LayerNorm2d - and net_2,
 * net_3, 3 x 3 convolutions to downsample_channels, none biased), then CLIP-L over the SAM
 * features (a class embedding, a 14 x 14 patch embedding without bias, (224 / 14)^2 + 1
 * positions, pre_layrnorm, layers of LayerNorms, a fused biased qkv_proj, out_proj, fc1/fc2 4 x
 * wide; no post-layernorm), and the projector: a biased linear from CLIP's and SAM's features
 * concatenated (projector_config input_dim) to n_embed, with image_newline and view_seperator
 * rows. The image's token count (tiles of 640 and a 1,024 global view) is not read: the towers'
 * forwards are not modelled. */
static void read_deepseek_ocr_vision(struct model_reader *r, struct gs_arch *a)
{
    static const struct attn_layout clip_attn = {
        NULL, NULL, NULL, "self_attn.out_proj", "self_attn.qkv_proj", true, true, true, true};
    struct model_reader v, widths, sam, clip, proj;
    memset(&v, 0, sizeof(v));
    memset(&widths, 0, sizeof(widths));
    const bool found = rd_sub(r, "vision_config", &v) && rd_sub(&v, "width", &widths) &&
                       rd_sub(&widths, "sam_vit_b", &sam) &&
                       rd_sub(&widths, "clip-l-14-224", &clip) &&
                       rd_sub(r, "projector_config", &proj);
    if (!found) {
        /* a member of the wrong type has failed its reader already; a missing one is this */
        if (r->ok && (v.config == NULL || v.ok) && (widths.config == NULL || widths.ok))
            rd_fail(r, "vision_config", GS_ERR_UNSUPPORTED,
                    "DeepSeek-OCR's vision_config.width names sam_vit_b and clip-l-14-224,"
                    " and projector_config its projector");
        r->ok = false;
        return;
    }
    const uint64_t image = rd_dim(&v, NAMES("image_size"), true, 0);
    const uint64_t sw = rd_dim(&sam, NAMES("width"), true, 0);
    const uint64_t sl = rd_dim(&sam, NAMES("layers"), true, 0);
    const uint64_t sh = rd_dim(&sam, NAMES("heads"), true, 0);
    const json_t *global = NULL;
    const size_t globals = rd_array(&sam, "global_attn_indexes", &global);
    const json_t *down = NULL;
    const size_t downs = rd_array(&sam, "downsample_channels", &down);
    const uint64_t cw = rd_dim(&clip, NAMES("width"), true, 0);
    const uint64_t cl = rd_dim(&clip, NAMES("layers"), true, 0);
    const uint64_t ch = rd_dim(&clip, NAMES("heads"), true, 0);
    const uint64_t cpatch = rd_dim(&clip, NAMES("patch_size"), true, 0);
    const uint64_t cimage = rd_dim(&clip, NAMES("image_size"), true, 0);
    const uint64_t proj_in = rd_dim(&proj, NAMES("input_dim"), true, 0);
    const uint64_t proj_out = rd_dim(&proj, NAMES("n_embed"), true, 0);
    const char *proj_type = rd_string(&proj, "projector_type");
    if (!v.ok || !sam.ok || !clip.ok || !proj.ok) {
        r->ok = false;
        return;
    }
    if (proj_type != NULL && strcmp(proj_type, "linear") != 0) {
        rd_fail(&proj, "projector_type", GS_ERR_UNSUPPORTED,
                "\"%s\" is not a projector gpusizer reads (DeepSeek-OCR's is linear)", proj_type);
        r->ok = false;
        return;
    }
    const size_t m = GS_BLOCKS_MAX;
    uint64_t channels[2] = {0, 0};
    for (size_t i = 0; i < downs && i < 2; i++) {
        const json_t *c = json_array_get(down, i);
        channels[i] = json_is_integer(c) && json_integer_value(c) > 0 &&
                              (uint64_t)json_integer_value(c) <= GS_ARCH_DIM_MAX
                          ? (uint64_t)json_integer_value(c)
                          : 0;
        if (channels[i] == 0) {
            rd_fail(&sam, "downsample_channels", GS_ERR_INVALID, "entry %zu is not a channel count",
                    i);
            r->ok = false;
            return;
        }
    }
    if (downs != 2) {
        rd_fail(&sam, "downsample_channels", GS_ERR_INVALID,
                "must name net_2's and net_3's channels");
        r->ok = false;
        return;
    }
    build_sam_vit_b(a, image, sw, sl, sh, globals, channels);
    /* CLIP-L */
    const size_t b = gs_arch_new_block(a);
    attention(a, b, cw, cw,
              &(struct gs_attention){
                  .heads = ch, .kv_heads = ch, .head_dim = per_head(cw, ch), .cached = false},
              &clip_attn, false);
    mlp(a, b, cw, 4 * cw, false, true, &CLIP_FC);
    norm(a, b, "layer_norm1", GS_PART_NORMS, true, cw);
    norm(a, b, "layer_norm2", GS_PART_NORMS, true, cw);
    gs_arch_tower(a, "model.vision_model.transformer.layers", b, GS_PART_VISION, cl, false);
    const uint64_t cside = cpatch ? cimage / cpatch : 0;
    tensor(a, m, "model.vision_model.embeddings.class_embedding", GS_PART_VISION, 1, cw);
    tensor(a, m, "model.vision_model.embeddings.patch_embedding", GS_PART_VISION,
           3 * cpatch * cpatch, cw);
    add(a, m, "model.vision_model.embeddings.position_embedding", GS_MODULE_EMBEDDING,
        GS_SPLIT_NONE, GS_PART_VISION, 0, cside * cside + 1, cw);
    norm(a, m, "model.vision_model.pre_layrnorm", GS_PART_VISION, true, cw);
    /* the projector and the two learned separator rows */
    linear(a, m, "model.projector.layers", GS_SPLIT_NONE, GS_PART_VISION, true, proj_in, proj_out);
    tensor(a, m, "model.image_newline", GS_PART_VISION, 1, proj_out);
    tensor(a, m, "model.view_seperator", GS_PART_VISION, 1, proj_out);
}

/* DeepseekOCRForCausalLM (deepseek-ai/DeepSeek-OCR, remote code modeling_deepseekocr.py; vLLM
 * models/deepseek_ocr.py), read by its architecture: its model_type, deepseek_vl_v2, is
 * DeepSeek-VL2's too, whose SigLIP tower and MLA language model this reader does not build. */
static void read_deepseek_ocr(struct model_reader *r, struct gs_arch *a)
{
    struct model_reader text;
    if (!rd_sub(r, "language_config", &text))
        text = *r;
    if (!r->ok)
        return;
    if (rd_flag(&text, "use_mla", false)) {
        rd_fail(&text, "use_mla", GS_ERR_UNSUPPORTED,
                "DeepSeek-OCR's language model attends without MLA; this config asks for it");
        r->ok = false;
        return;
    }
    read_deepseek_ocr_text(&text, a);
    if (!text.ok) {
        r->ok = false;
        return;
    }
    read_deepseek_ocr_vision(r, a);
}

/* DeepSeek-OCR-2's DeepEncoder V2 (remote deepencoderv2.py; vLLM deepencoder2.py): SAM ViT-B
 * whose net_3 ends at the encoder's width, then a Qwen2-0.5B body used as the encoder - `layers`
 * Qwen2 decoder layers (q/k/v biased, o_proj not; GQA; a SwiGLU), its final norm, no embedding
 * table (deleted) and no head -, with two learnable query tables, one for each view (query_768,
 * (768 / 64)^2 = 144 rows, and query_1024, 256), read by the image tokens bidirectionally and by
 * the queries causally (no KV cache); a linear projector with a bias to the text width and
 * view_seperator. No image_newline (v1's is gone). */
struct deepencoder2 {
    uint64_t image, sam_width, sam_layers, sam_heads, sam_globals, net2, width, layers, heads,
        kv_heads, inner, text_width;
};

static void build_deepencoder2(struct gs_arch *a, const struct deepencoder2 *e)
{
    static const struct attn_layout qwen2 = {"self_attn.q_proj",
                                             "self_attn.k_proj",
                                             "self_attn.v_proj",
                                             "self_attn.o_proj",
                                             NULL,
                                             true,
                                             true,
                                             true,
                                             false};
    const uint64_t channels[2] = {e->net2, e->width};
    build_sam_vit_b(a, e->image, e->sam_width, e->sam_layers, e->sam_heads, e->sam_globals,
                    channels);
    const size_t b = gs_arch_new_block(a);
    const struct gs_attention s = {.heads = e->heads,
                                   .kv_heads = e->kv_heads,
                                   .head_dim = per_head(e->width, e->heads),
                                   .cached = false};
    attention(a, b, e->width, e->width, &s, &qwen2, false);
    mlp(a, b, e->width, e->inner, true, false, &GS_MLP_NAMES);
    norm(a, b, "input_layernorm", GS_PART_NORMS, false, e->width);
    norm(a, b, "post_attention_layernorm", GS_PART_NORMS, false, e->width);
    gs_arch_tower(a, "model.qwen2_model.model.model.layers", b, GS_PART_VISION, e->layers, false);
    const size_t m = GS_BLOCKS_MAX;
    norm(a, m, "model.qwen2_model.model.model.norm", GS_PART_VISION, false, e->width);
    tensor(a, m, "model.qwen2_model.query_768", GS_PART_VISION, 144, e->width);
    tensor(a, m, "model.qwen2_model.query_1024", GS_PART_VISION, 256, e->width);
    linear(a, m, "model.projector.layers", GS_SPLIT_NONE, GS_PART_VISION, true, e->width,
           e->text_width);
    tensor(a, m, "model.view_seperator", GS_PART_VISION, 1, e->text_width);
}

/* The Qwen2 encoder's shape, which the hub config does not give: build_qwen2_decoder_as_encoder's
 * constants (remote deepencoderv2.py; vLLM deepencoder2.py; transformers'
 * convert_deepseek_ocr2_weights_to_hf.py writes the same into encoder_config). */
#define DEEPENCODER2_LAYERS   24ULL
#define DEEPENCODER2_HEADS    14ULL
#define DEEPENCODER2_KV_HEADS 2ULL
#define DEEPENCODER2_INNER    4864ULL

/* The most tokens a DeepSeek-OCR-2 image takes: the 1,024-px global view's (1024 / 64)^2 = 256, up
 * to six 768-px tiles of 144 (dynamic_preprocess min_num 2, max_num 6) and the view separator
 * (processing_deepseek_ocr2.py; vLLM deepseek_ocr2.py get_num_image_tokens): 1,121. The towers'
 * forward is not modelled. */
#define DEEPSEEK_OCR2_MAX_IMAGE_TOKENS (256ULL + 6 * 144 + 1)

/* DeepSeek-OCR-2 (deepseek-ai/DeepSeek-OCR-2; HF API: 3,389,119,360 parameters, BF16), read by its
 * architecture DeepseekOCR2ForCausalLM as the hub ships it (model_type deepseek_vl_v2,
 * DeepSeek-OCR's layout: language_config, vision_config.width with sam_vit_b and qwen2-0-5b,
 * projector_config), or as transformers' port saves it (model_type deepseek_ocr2,
 * DeepseekOcr2ForConditionalGeneration: text_config with mlp_layer_types, vision_config.sam_config
 * and encoder_config). The language model is DeepSeek-OCR's (read_deepseek_ocr_text: the non-MLA
 * DeepSeek-V2 MoE, untied). Two members of the hub config are stale and not read:
 * sam_vit_b.downsample_channels[1] (1,024; the checkpoint's net_3 ends at the encoder width, 896,
 * which the remote code, vLLM and the converter hard-code) and vision_config.mlp_ratio
 * (DeepSeek-VL2's 3.7362; SAM's MLP is 4 x wide). */
static void read_deepseek_ocr2(struct model_reader *r, struct gs_arch *a)
{
    struct model_reader text, v, widths, sam, enc;
    memset(&v, 0, sizeof(v));
    memset(&widths, 0, sizeof(widths));
    const bool native = rd_get(r, "text_config") != NULL;
    if (!rd_sub(r, native ? "text_config" : "language_config", &text))
        text = *r;
    if (!r->ok)
        return;
    if (rd_flag(&text, "use_mla", false)) {
        rd_fail(&text, "use_mla", GS_ERR_UNSUPPORTED,
                "DeepSeek-OCR-2's language model attends without MLA; this config asks for it");
        r->ok = false;
        return;
    }
    if (native && rd_get(&text, "mlp_layer_types") == NULL) {
        rd_fail(&text, "mlp_layer_types", GS_ERR_INVALID,
                "is required: DeepseekOcr2TextConfig has no default and no first_k_dense_replace");
        r->ok = false;
        return;
    }
    read_deepseek_ocr_text(&text, a);
    if (!text.ok) {
        r->ok = false;
        return;
    }
    struct deepencoder2 e = {.layers = DEEPENCODER2_LAYERS,
                             .heads = DEEPENCODER2_HEADS,
                             .kv_heads = DEEPENCODER2_KV_HEADS,
                             .inner = DEEPENCODER2_INNER,
                             .text_width = a->hidden_size};
    const json_t *global = NULL;
    const json_t *down = NULL;
    size_t downs = 0;
    if (native) {
        if (!rd_sub(r, "vision_config", &v) || !rd_sub(&v, "sam_config", &sam) ||
            !rd_sub(&v, "encoder_config", &enc)) {
            if (r->ok)
                rd_fail(r, "vision_config", GS_ERR_INVALID,
                        "needs sam_config and encoder_config (their class defaults are not the "
                        "checkpoint's)");
            r->ok = false;
            return;
        }
        e.image = rd_dim(&sam, NAMES("image_size"), false, 1024);
        e.sam_width = rd_dim(&sam, NAMES("hidden_size"), false, 768);
        e.sam_layers = rd_dim(&sam, NAMES("num_hidden_layers"), false, 12);
        e.sam_heads = rd_dim(&sam, NAMES("num_attention_heads"), false, 12);
        e.sam_globals = rd_array(&sam, "global_attn_indexes", &global);
        if (global == NULL)
            e.sam_globals = 4; /* (2, 5, 8, 11) */
        downs = rd_array(&sam, "downsample_channels", &down);
        e.width = rd_dim(&enc, NAMES("hidden_size"), true, 0);
        e.layers = rd_dim(&enc, NAMES("num_hidden_layers"), true, 0);
        e.heads = rd_dim(&enc, NAMES("num_attention_heads"), true, 0);
        e.kv_heads = rd_dim(&enc, NAMES("num_key_value_heads"), false, e.heads);
        e.inner = rd_dim(&enc, NAMES("intermediate_size"), true, 0);
        if (!sam.ok || !enc.ok)
            r->ok = false;
    } else {
        struct model_reader qwen2;
        if (!rd_sub(r, "vision_config", &v) || !rd_sub(&v, "width", &widths) ||
            !rd_sub(&widths, "sam_vit_b", &sam) || !rd_sub(&widths, "qwen2-0-5b", &qwen2)) {
            if (r->ok && (v.config == NULL || v.ok) && (widths.config == NULL || widths.ok))
                rd_fail(r, "vision_config", GS_ERR_UNSUPPORTED,
                        "DeepSeek-OCR-2's vision_config.width names sam_vit_b and qwen2-0-5b");
            r->ok = false;
            return;
        }
        e.image = rd_dim(&v, NAMES("image_size"), true, 0);
        e.sam_width = rd_dim(&sam, NAMES("width"), true, 0);
        e.sam_layers = rd_dim(&sam, NAMES("layers"), true, 0);
        e.sam_heads = rd_dim(&sam, NAMES("heads"), true, 0);
        e.sam_globals = rd_array(&sam, "global_attn_indexes", &global);
        downs = rd_array(&sam, "downsample_channels", &down);
        e.width = rd_dim(&qwen2, NAMES("dim"), true, 0);
        if (!sam.ok || !qwen2.ok)
            r->ok = false;
    }
    const json_t *c = down != NULL && downs >= 1 ? json_array_get(down, 0) : NULL;
    e.net2 = json_is_integer(c) && json_integer_value(c) > 0 &&
                     (uint64_t)json_integer_value(c) <= GS_ARCH_DIM_MAX
                 ? (uint64_t)json_integer_value(c)
                 : 512; /* DeepseekOcr2SamVisionConfig's [512, 896] */
    if (!r->ok)
        return;
    if (e.heads == 0 || e.width % e.heads != 0 || e.kv_heads == 0 || e.heads % e.kv_heads != 0) {
        rd_fail(r, "vision_config", GS_ERR_INVALID,
                "the encoder's heads must divide its width and its KV heads its heads");
        return;
    }
    build_deepencoder2(a, &e);
    a->mm_image.tokens = DEEPSEEK_OCR2_MAX_IMAGE_TOKENS;
    a->mm_embed_width = a->hidden_size;
}

/* --------------------------------------------------------------- MiMo-V2.5 */

/* A dimension the config may write as a decimal string (MiMo-V2.5's audio_config:
 * "speech_vocab_size": "1280"), else as rd_dim reads it. */
static uint64_t dim_or_text(struct model_reader *r, const char *name, uint64_t fallback)
{
    const char *text = rd_string(r, name);
    if (text == NULL)
        return rd_dim(r, (const char *const[]){name, NULL}, false, fallback);
    char *end = NULL;
    const unsigned long long v = strtoull(text, &end, 10);
    if (end == text || *end != '\0' || v == 0 || v > GS_ARCH_DIM_MAX) {
        rd_fail(r, name, GS_ERR_INVALID, "\"%s\" is not a positive integer", text);
        return 0;
    }
    return v;
}

/* MiMo-V2.5's vision tower (vision_config, "mimovl"): Qwen2.5-VL's layout - patch_embed.proj a
 * Conv3d without bias, blocks of norm1 and norm2 RMSNorms, attn.qkv and attn.proj with biases, a
 * SiLU-gated MLP with biases, a merger of ln_q (RMSNorm) and mlp.0 (vision x merge^2 square) and
 * mlp.2 (-> out_hidden_size), neither biased - with grouped K/V heads (num_key_value_heads) of
 * head_dim 64 (the published checkpoint's attn.qkv [3,072, 1,280] = (32 + 2 x 8) x 64 and
 * attn.proj [1,280, 2,048]: the remote class's value, which the config does not write) and, with
 * use_sink, a sink logit per head on every block outside fullatt_block_indexes (attn.sinks
 * [heads]). The image's largest size is not read: its forward in training and vLLM's profile are
 * not modelled. */
static void read_mimo_v2_vision(struct model_reader *v, struct gs_arch *a)
{
    static const struct gs_mlp_names gated = {"mlp.gate_proj", "mlp.up_proj", "mlp.down_proj",
                                              NULL};
    static const struct attn_layout attn = {NULL, NULL, NULL, "attn.proj", "attn.qkv",
                                            true, true, true, true};
    const uint64_t depth = rd_dim(v, NAMES("depth"), true, 0);
    const uint64_t vh = rd_dim(v, NAMES("hidden_size"), true, 0);
    const uint64_t vi = rd_dim(v, NAMES("intermediate_size"), true, 0);
    const uint64_t heads = rd_dim(v, NAMES("num_heads"), true, 0);
    const uint64_t kv_heads = rd_dim(v, NAMES("num_key_value_heads"), false, heads);
    const uint64_t head_dim = rd_dim(v, NAMES("head_dim"), false, 64);
    const uint64_t channels = rd_dim(v, NAMES("in_chans", "in_channels"), true, 0);
    const uint64_t patch = rd_dim(v, NAMES("patch_size", "spatial_patch_size"), true, 0);
    const uint64_t temporal = rd_dim(v, NAMES("temporal_patch_size"), true, 0);
    const uint64_t merge = rd_dim(v, NAMES("spatial_merge_size"), true, 0);
    const uint64_t out = rd_dim(v, NAMES("out_hidden_size"), true, 0);
    const json_t *full = NULL;
    const size_t full_blocks = rd_array(v, "fullatt_block_indexes", &full);
    const bool sinks = rd_flag(v, "use_sink", false);
    if (!v->ok)
        return;
    const size_t b = gs_arch_new_block(a);
    struct gs_attention spec = encoder_spec(heads, head_dim);
    spec.kv_heads = kv_heads;
    attention(a, b, vh, vh, &spec, &attn, false);
    mlp(a, b, vh, vi, true, true, &gated);
    norm(a, b, "norm1", GS_PART_NORMS, false, vh);
    norm(a, b, "norm2", GS_PART_NORMS, false, vh);
    gs_arch_tower(a, "visual", b, GS_PART_VISION, depth, false);
    const size_t m = GS_BLOCKS_MAX;
    if (sinks && depth > full_blocks)
        tensor(a, m, "visual.blocks.attn.sinks", GS_PART_VISION, depth - full_blocks, heads);
    tensor(a, m, "visual.patch_embed.proj", GS_PART_VISION, channels * temporal * patch * patch,
           vh);
    const uint64_t merged = vh * merge * merge;
    norm(a, m, "visual.merger.ln_q", GS_PART_VISION, false, vh);
    linear(a, m, "visual.merger.mlp.0", GS_SPLIT_COLUMN, GS_PART_VISION, false, merged, merged);
    linear(a, m, "visual.merger.mlp.2", GS_SPLIT_ROW, GS_PART_VISION, false, merged, out);
    a->mm_embed_width = out;
}

/* MiMo-V2.5's audio encoder (audio_config): audio_channels speech_embeddings of speech_vocab_size
 * x input_local_dim, summed per frame; the input_local_transformer, input_local_layers Qwen2-style
 * layers (q, k and v with biases, o without, input_local_attn_heads of input_local_head_dim, a
 * SiLU-gated MLP input_local_intermediate_size wide, two RMSNorms) and its final norm; then a
 * projection of group_size frames (group_size x input_local_dim) through mlp.0 and mlp.2 to
 * out_hidden_size, unbiased. mlp.0's width is read off the published checkpoint
 * (audio_encoder.projection.mlp.0 [16,384, 4,096]): 4 x out_hidden_size, which the text's
 * intermediate_size and group_size x input_local_intermediate_size equal too - the remote code
 * was not in reach to say which it reads; out_hidden_size x group_size is taken. */
static void read_mimo_v2_audio(struct model_reader *u, struct gs_arch *a)
{
    static const struct attn_layout attn = {"self_attn.q_proj",
                                            "self_attn.k_proj",
                                            "self_attn.v_proj",
                                            "self_attn.o_proj",
                                            NULL,
                                            true,
                                            true,
                                            true,
                                            false};
    const uint64_t channels = rd_dim(u, NAMES("audio_channels"), true, 0);
    const uint64_t vocab = dim_or_text(u, "speech_vocab_size", 0);
    const uint64_t d = rd_dim(u, NAMES("input_local_dim"), true, 0);
    const uint64_t layers = rd_dim(u, NAMES("input_local_layers"), true, 0);
    const uint64_t heads = rd_dim(u, NAMES("input_local_attn_heads"), true, 0);
    const uint64_t head_dim = rd_dim(u, NAMES("input_local_head_dim"), false, per_head(d, heads));
    const uint64_t inner = rd_dim(u, NAMES("input_local_intermediate_size"), true, 0);
    const uint64_t group = rd_dim(u, NAMES("group_size"), true, 0);
    const uint64_t out = rd_dim(u, NAMES("out_hidden_size"), true, 0);
    const bool post_norm = rd_flag(u, "add_post_norm", false);
    if (!u->ok)
        return;
    if (vocab == 0) {
        rd_fail(u, "speech_vocab_size", GS_ERR_INVALID, "is required");
        return;
    }
    const size_t b = gs_arch_new_block(a);
    const struct gs_attention spec = encoder_spec(heads, head_dim);
    attention(a, b, d, d, &spec, &attn, false);
    mlp(a, b, d, inner, true, false, &GS_MLP_NAMES);
    norm(a, b, "input_layernorm", GS_PART_NORMS, false, d);
    norm(a, b, "post_attention_layernorm", GS_PART_NORMS, false, d);
    gs_arch_tower(a, "audio_encoder.input_local_transformer", b, GS_PART_AUDIO, layers, false);
    const size_t m = GS_BLOCKS_MAX;
    add(a, m, "speech_embeddings", GS_MODULE_EMBEDDING, GS_SPLIT_NONE, GS_PART_AUDIO, 0,
        channels * vocab, d);
    if (post_norm)
        norm(a, m, "audio_encoder.input_local_transformer.norm", GS_PART_AUDIO, false, d);
    linear(a, m, "audio_encoder.projection.mlp.0", GS_SPLIT_COLUMN, GS_PART_AUDIO, false, group * d,
           group * out);
    linear(a, m, "audio_encoder.projection.mlp.2", GS_SPLIT_ROW, GS_PART_AUDIO, false, group * out,
           out);
}

/* MiMoV2ForCausalLM (model_type mimo_v2; XiaomiMiMo/MiMo-V2.5 and MiMo-V2.5-Pro, remote code
 * configuration_mimo_v2.py / modeling_mimo_v2.py): MiMo-V2-Flash's language model, read by its
 * reader from the top level (the same keys: hybrid_layer_pattern, swa_num_key_value_heads,
 * v_head_dim, moe_layer_freq; attention_projection_layout "fused_qkv" names one qkv_proj; sinks
 * on the sliding layers, add_swa_attention_sink_bias), with a vision tower (vision_config) and an
 * audio encoder (audio_config) beside it. The checkpoint's model.mtp.layers (three in MiMo-V2.5)
 * are not counted: the config does not give their number. */
static void read_mimo_v2(struct model_reader *r, struct gs_arch *a)
{
    read_text_as(r, a, "mimo_v2_flash");
    struct model_reader sub;
    if (r->ok && rd_sub(r, "vision_config", &sub)) {
        read_mimo_v2_vision(&sub, a);
        if (!sub.ok)
            r->ok = false;
    }
    if (r->ok && rd_sub(r, "audio_config", &sub)) {
        read_mimo_v2_audio(&sub, a);
        if (!sub.ok)
            r->ok = false;
    }
}

/* -------------------------------------------------------------- EXAONE 4.5 */

/* Exaone4_5_Config's default text_config: Exaone4Config() (configuration_exaone4.py). */
static const char EXAONE4_5_TEXT[] =
    "{\"model_type\": \"exaone4\", \"vocab_size\": 102400, \"hidden_size\": 4096,"
    " \"intermediate_size\": 16384, \"num_hidden_layers\": 32, \"num_attention_heads\": 32,"
    " \"num_key_value_heads\": 32, \"max_position_embeddings\": 2048,"
    " \"sliding_window\": 4096, \"sliding_window_pattern\": 4}";

/* Exaone4_5_VisionConfig's defaults: Qwen2.5-VL's and num_key_value_heads 8. */
static const char EXAONE4_5_VISION[] =
    "{\"depth\": 32, \"hidden_size\": 3584, \"intermediate_size\": 3420, \"num_heads\": 16,"
    " \"num_key_value_heads\": 8, \"in_channels\": 3, \"patch_size\": 14,"
    " \"spatial_merge_size\": 2, \"temporal_patch_size\": 2, \"out_hidden_size\": 3584}";

/* Exaone4_5_ForConditionalGeneration (transformers 5.8, models/exaone4_5/modular_exaone4_5.py;
 * LGAI-EXAONE/EXAONE-4.5-33B): the language model is AutoModel of the text_config, Exaone4Model
 * (exaone4, moe.c; Exaone4_5_Config remaps the older "exaone4_5_text" to it), the head
 * lm_head tied only where the top-level tie_word_embeddings says so (the tie reads the
 * composite config); the tower is Qwen2.5-VL's with GQA in its attention (qkv projecting to
 * num_key_value_heads K/V heads) and Qwen2.5-VL's patch merger. vLLM builds the same
 * (models/exaone4_5.py: Exaone4ForCausalLM beside the tower); the checkpoint's mtp.* layers
 * are skipped by transformers and not described here. */
static void read_exaone4_5(struct model_reader *r, struct gs_arch *a)
{
    struct model_reader text, vision;
    json_t *owned = NULL;
    const bool tie = rd_flag(r, "tie_word_embeddings", false);
    if (open_sub(r, "text_config", EXAONE4_5_TEXT, EXAONE4_5_TEXT, "exaone4", &text, &owned)) {
        if (json_object_set_new(owned, "tie_word_embeddings", json_boolean(tie)) != 0)
            rd_fail(r, "text_config", GS_ERR_NOMEM, "out of memory reading the nested config");
        read_text_as(&text, a, "exaone4");
        close_sub(r, &text, owned);
    }
    if (!r->ok ||
        !open_sub(r, "vision_config", EXAONE4_5_VISION, EXAONE4_5_VISION, NULL, &vision, &owned))
        return;
    read_qwen2_5_vision(&vision, a);
    close_sub(r, &vision, owned);
}

/* ---------------------------------------------------- Llama 3.2 Vision */

/* MllamaTextConfig's and MllamaVisionConfig's defaults
 * (configuration_mllama.py; cross_attention_layers defaults in code). */
static const char MLLAMA_TEXT[] =
    "{\"vocab_size\": 128256, \"hidden_size\": 4096, \"num_hidden_layers\": 40,"
    " \"num_attention_heads\": 32, \"num_key_value_heads\": 8, \"intermediate_size\": 14336,"
    " \"max_position_embeddings\": 131072, \"tie_word_embeddings\": false,"
    " \"cross_attention_layers\": [3, 8, 13, 18, 23, 28, 33, 38]}";
static const char MLLAMA_VISION[] =
    "{\"hidden_size\": 1280, \"num_hidden_layers\": 32, \"num_global_layers\": 8,"
    " \"attention_heads\": 16, \"num_channels\": 3, \"intermediate_size\": 5120,"
    " \"vision_output_dim\": 7680, \"image_size\": 448, \"patch_size\": 14, \"max_num_tiles\": 4,"
    " \"supported_aspect_ratios\": [[1, 1], [1, 2], [1, 3], [1, 4], [2, 1], [2, 2], [3, 1],"
    " [4, 1]]}";

/* MllamaTextModel (modeling_mllama.py): embed_tokens has vocab_size + 8
 * rows, lm_head vocab_size; MllamaSelfAttentionDecoderLayers (Llama: q, k,
 * v, o without bias, SwiGLU, input and post-attention RMSNorms) and, in the
 * cross_attention_layers slots instead of them,
 * MllamaCrossAttentionDecoderLayers: cross_attn q/k/v/o_proj over the
 * projected vision states, q_norm and k_norm RMSNorms over head_dim, the
 * scalar cross_attn_attn_gate and cross_attn_mlp_gate, the MLP and two
 * norms. The cross layers attend only to the vision states (attn.cross_only):
 * their K/V over the vision tokens is cross_token_bytes and they cache no
 * text tokens, as vLLM's CrossAttentionSpec. Returns false on a reading
 * error. */
static bool read_mllama_text(struct model_reader *t, struct gs_arch *a)
{
    static const struct attn_layout self = {"self_attn.q_proj", "self_attn.k_proj",
                                            "self_attn.v_proj", "self_attn.o_proj", NULL,
                                            false, false, false, false};
    static const struct attn_layout cross = {"cross_attn.q_proj", "cross_attn.k_proj",
                                             "cross_attn.v_proj", "cross_attn.o_proj", NULL,
                                             false, false, false, false};
    struct decoder_plan plan;
    decoder_read_dims(t, a, &plan, false, 0, false);
    a->hidden_dropout = a->hidden_dropout || rd_dropout(t, NAMES("dropout"));
    a->embedding_dropout = a->hidden_dropout; /* as the hidden dropout: not read in its code */
    bool is_cross[GS_LAYERS_MAX];
    memset(is_cross, 0, sizeof(is_cross));
    if (!t->ok || !layer_list(t, "cross_attention_layers", plan.layers, is_cross))
        return false;
    const uint64_t h = a->hidden_size, V = a->vocab_size;
    const struct decoder_traits traits = {.norms = 2};
    struct gs_attention s;
    memset(&s, 0, sizeof(s));
    s.heads = plan.heads;
    s.kv_heads = plan.kv_heads;
    s.head_dim = plan.head_dim;
    s.cached = true;
    const size_t sb = gs_arch_new_block(a);
    attention(a, sb, h, h, &s, &self, false);
    gs_build_mlp(a, sb, plan.intermediate, true, false, &GS_MLP_NAMES);
    decoder_add_norms(a, sb, &plan, &traits);
    const size_t cb = gs_arch_new_block(a);
    s.cross = true;
    s.cross_only = true;
    attention(a, cb, h, h, &s, &cross, false);
    add(a, cb, "cross_attn.q_norm", GS_MODULE_NORM, GS_SPLIT_NONE, GS_PART_ATTENTION, 0, 1,
        plan.head_dim);
    add(a, cb, "cross_attn.k_norm", GS_MODULE_NORM, GS_SPLIT_NONE, GS_PART_ATTENTION, 0, 1,
        plan.head_dim);
    tensor(a, cb, "cross_attn_attn_gate", GS_PART_ATTENTION, 1, 1);
    tensor(a, cb, "cross_attn_mlp_gate", GS_PART_MLP, 1, 1);
    set_gated_branches(a, cb, 2);
    gs_build_mlp(a, cb, plan.intermediate, true, false, &GS_MLP_NAMES);
    decoder_add_norms(a, cb, &plan, &traits);
    gs_arch_set_layers(a, plan.layers, sb);
    for (uint64_t l = 0; l < plan.layers && l < GS_LAYERS_MAX; l++)
        if (is_cross[l])
            gs_arch_set_layer(a, l, cb);
    add(a, GS_BLOCKS_MAX, "embed_tokens", GS_MODULE_EMBEDDING, GS_SPLIT_COLUMN, GS_PART_EMBEDDING,
        GS_MOD_TOKENS, V + 8, h);
    if (!a->tie_word_embeddings)
        add(a, GS_BLOCKS_MAX, "lm_head", GS_MODULE_LINEAR, GS_SPLIT_COLUMN, GS_PART_LM_HEAD, 0, h,
            V);
    gs_build_norms(a, GS_BLOCKS_MAX, "norm", 1, false);
    return true;
}

/* One MllamaVisionEncoderLayer kind: self_attn q/k/v/o_proj without bias,
 * mlp fc1/fc2 with biases, input and post-attention LayerNorms; the global
 * transformer's layers add the scalar gate_attn and gate_ffn. */
static size_t mllama_vision_block(struct gs_arch *a, uint64_t vh, uint64_t vi, uint64_t heads,
                                  bool gated)
{
    static const struct attn_layout attn = {"self_attn.q_proj", "self_attn.k_proj",
                                            "self_attn.v_proj", "self_attn.o_proj", NULL,
                                            false, false, false, false};
    static const struct gs_mlp_names fc = {NULL, "mlp.fc1", "mlp.fc2", NULL};
    const size_t b = gs_arch_new_block(a);
    const struct gs_attention s = encoder_spec(heads, per_head(vh, heads));
    attention(a, b, vh, vh, &s, &attn, false);
    mlp(a, b, vh, vi, false, true, &fc);
    norm(a, b, "input_layernorm", GS_PART_NORMS, true, vh);
    norm(a, b, "post_attention_layernorm", GS_PART_NORMS, true, vh);
    if (gated) {
        tensor(a, b, "gate_attn", GS_PART_ATTENTION, 1, 1);
        tensor(a, b, "gate_ffn", GS_PART_MLP, 1, 1);
        set_gated_branches(a, b, 2);
    }
    return b;
}

/* MllamaVisionModel: patch_embedding Conv2d without bias, class_embedding,
 * gated_positional_embedding (gate, embedding per patch + CLS, and a
 * tile_embedding table of max_num_tiles x patches x width per aspect-ratio
 * id), pre- and post-tile aspect-ratio embeddings (max_num_tiles x width
 * per id, each with a gate), layernorm_pre and layernorm_post, the local
 * `transformer` and the gated `global_transformer`; both towers feed the
 * text model's cross-attention. Returns vision_output_dim. */
static uint64_t read_mllama_vision(struct model_reader *v, struct gs_arch *a)
{
    const uint64_t vh = rd_dim(v, NAMES("hidden_size"), true, 0);
    const uint64_t vi = rd_dim(v, NAMES("intermediate_size"), true, 0);
    const uint64_t local = rd_dim(v, NAMES("num_hidden_layers"), true, 0);
    const uint64_t global = rd_dim(v, NAMES("num_global_layers"), true, 0);
    const uint64_t heads = rd_dim(v, NAMES("attention_heads", "num_attention_heads"), true, 0);
    const uint64_t channels = rd_dim(v, NAMES("num_channels"), true, 0);
    const uint64_t image = rd_dim(v, NAMES("image_size"), true, 0);
    const uint64_t patch = rd_dim(v, NAMES("patch_size"), true, 0);
    const uint64_t tiles = rd_dim(v, NAMES("max_num_tiles"), true, 0);
    const uint64_t out = rd_dim(v, NAMES("vision_output_dim"), true, 0);
    const json_t *ratios = NULL;
    const uint64_t ids = rd_array(v, "supported_aspect_ratios", &ratios) + 1;
    if (!v->ok)
        return 0;
    const uint64_t patches = (image / patch) * (image / patch) + 1;
    const size_t lb = mllama_vision_block(a, vh, vi, heads, false);
    const size_t gb = mllama_vision_block(a, vh, vi, heads, true);
    gs_arch_tower(a, "vision_model.transformer", lb, GS_PART_VISION, local, true);
    gs_arch_tower(a, "vision_model.global_transformer", gb, GS_PART_VISION, global, true);
    const size_t m = GS_BLOCKS_MAX;
    const enum gs_part p = GS_PART_VISION;
    tensor(a, m, "vision_model.patch_embedding", p, channels * patch * patch, vh);
    tensor(a, m, "vision_model.class_embedding", p, 1, vh);
    tensor(a, m, "vision_model.gated_positional_embedding.gate", p, 1, 1);
    tensor(a, m, "vision_model.gated_positional_embedding.embedding", p, patches, vh);
    add(a, m, "vision_model.gated_positional_embedding.tile_embedding", GS_MODULE_EMBEDDING,
        GS_SPLIT_NONE, p, 0, ids, tiles * patches * vh);
    add(a, m, "vision_model.pre_tile_positional_embedding.embedding", GS_MODULE_EMBEDDING,
        GS_SPLIT_NONE, p, 0, ids, tiles * vh);
    tensor(a, m, "vision_model.pre_tile_positional_embedding.gate", p, 1, 1);
    add(a, m, "vision_model.post_tile_positional_embedding.embedding", GS_MODULE_EMBEDDING,
        GS_SPLIT_NONE, p, 0, ids, tiles * vh);
    tensor(a, m, "vision_model.post_tile_positional_embedding.gate", p, 1, 1);
    norm(a, m, "vision_model.layernorm_pre", p, true, vh);
    norm(a, m, "vision_model.layernorm_post", p, true, vh);
    /* in training: MllamaImageProcessor pads every image to max_num_tiles tiles
     * (pad_batches_and_tiles), and MllamaVisionModel.forward runs them as one sequence, each
     * tile its patches, the class embedding and zeros to a multiple of 8 (num_padding_patches);
     * the image is one <|image|> token in the text, so `tokens` stays unread (vLLM's profile) */
    const uint64_t own = patches - 1, padded = (patches + 7) / 8 * 8;
    bool ovf = false;
    const uint64_t pixels = gs_mul(gs_mul(tiles, channels, &ovf), gs_mul(image, image, &ovf), &ovf);
    /* MllamaVisionModel.forward slices the padding off (hidden_state[:, :, :slice_index]): the
     * cross-attention reads every tile's class embedding and patches */
    const uint64_t cross = gs_mul(tiles, patches, &ovf);
    if (!ovf && tiles * (padded - own) <= UINT8_MAX) {
        a->mm_image.patches = tiles * own;
        a->mm_image.pixels = pixels;
        a->mm_image.class_positions = (uint8_t)(tiles * (padded - own));
        a->mm_image.layout = GS_MM_CROSS_TILES;
        a->mm_image.cross_positions = cross;
    }
    return out;
}

/* MllamaForConditionalGeneration: the text model above, the vision model,
 * and multi_modal_projector Linear(vision_output_dim, text width) with a
 * bias. */
static void read_mllama(struct model_reader *r, struct gs_arch *a)
{
    struct model_reader text, vision;
    json_t *owned = NULL;
    if (!open_sub(r, "text_config", MLLAMA_TEXT, NULL, NULL, &text, &owned))
        return;
    read_mllama_text(&text, a);
    close_sub(r, &text, owned);
    if (!r->ok || !open_sub(r, "vision_config", MLLAMA_VISION, NULL, NULL, &vision, &owned))
        return;
    const uint64_t out = read_mllama_vision(&vision, a);
    close_sub(r, &vision, owned);
    if (!r->ok)
        return;
    linear(a, GS_BLOCKS_MAX, "multi_modal_projector", GS_SPLIT_COLUMN, GS_PART_VISION, true, out,
           a->hidden_size);
}

/* ----------------------------------------------------------------- Llama 4 */

/* Llama4TextConfig's and Llama4VisionConfig's defaults
 * (configuration_llama4.py). */
static const char LLAMA4_TEXT[] =
    "{\"vocab_size\": 202048, \"hidden_size\": 5120, \"intermediate_size\": 8192,"
    " \"intermediate_size_mlp\": 16384, \"num_hidden_layers\": 48, \"num_attention_heads\": 40,"
    " \"num_key_value_heads\": 8, \"head_dim\": 128, \"max_position_embeddings\": 131072,"
    " \"num_experts_per_tok\": 1, \"num_local_experts\": 16, \"interleave_moe_layer_step\": 1,"
    " \"no_rope_layer_interval\": 4, \"attention_chunk_size\": 8192}";
static const char LLAMA4_VISION[] =
    "{\"hidden_size\": 768, \"num_hidden_layers\": 34, \"num_attention_heads\": 16,"
    " \"num_channels\": 3, \"intermediate_size\": 5632, \"vision_output_dim\": 7680,"
    " \"image_size\": 448, \"patch_size\": 14, \"projector_input_dim\": 4096,"
    " \"projector_output_dim\": 4096}";

/* Llama4TextModel (modeling_llama4.py): Llama4TextAttention q/k/v/o
 * (attention_bias) with a weightless L2 qk_norm; layers in moe_layers
 * (default: every interleave_moe_layer_step-th) hold Llama4TextMoe - a
 * router, experts of intermediate_size (gate_up_proj, down_proj) and a
 * shared expert of intermediate_size -, the others a SwiGLU feed_forward of
 * intermediate_size_mlp. RoPE layers (no_rope_layers[l] != 0; default all
 * but every no_rope_layer_interval-th) attend within attention_chunk_size
 * chunks; the NoPE layers attend to everything (vLLM llama4.py:
 * use_chunked_local_attn = not nope and attention_chunk_size). */
static void read_llama4_text(struct model_reader *t, struct gs_arch *a)
{
    static const struct gs_mlp_names dense = {"feed_forward.gate_proj", "feed_forward.up_proj",
                                              "feed_forward.down_proj", NULL};
    struct decoder_plan plan;
    decoder_read_dims(t, a, &plan, false, 128, false);
    const uint64_t dense_width = rd_dim(t, NAMES("intermediate_size_mlp"), true, 0);
    decoder_read_experts(t, &plan, true);
    plan.experts.shared_width = plan.intermediate;
    plan.experts.router_name = "feed_forward.router";
    plan.experts.experts_fused = true; /* Llama4TextExperts: gate_up_proj, down_proj (3D) */
    plan.window = rd_dim(t, NAMES("attention_chunk_size"), false, 0);
    const bool bias = rd_flag(t, "attention_bias", false);
    /* moe_layers, else every step-th layer from step - 1 */
    const json_t *list = NULL;
    rd_array(t, "moe_layers", &list);
    if (list != NULL) {
        if (!layer_list(t, "moe_layers", plan.layers, plan.moe))
            return;
    } else {
        const uint64_t step = rd_dim(t, NAMES("interleave_moe_layer_step"), false, 1);
        for (uint64_t l = 0; l < plan.layers && l < GS_LAYERS_MAX; l++)
            plan.moe[l] = step != 0 && (l + 1) % step == 0;
    }
    /* no_rope_layers: 1 = RoPE (chunked), 0 = NoPE (full); empty or absent = the interval */
    bool rope[GS_LAYERS_MAX];
    const size_t n = rd_array(t, "no_rope_layers", &list);
    const uint64_t interval = rd_dim(t, NAMES("no_rope_layer_interval"), false, 4);
    for (uint64_t l = 0; l < plan.layers && l < GS_LAYERS_MAX; l++) {
        if (n > 0) {
            const json_t *v = json_array_get(list, l);
            if (!json_is_integer(v)) {
                rd_fail(t, "no_rope_layers", GS_ERR_INVALID,
                        "has %zu entries for %llu layers, or entry %llu is not 0 or 1", n,
                        (unsigned long long)plan.layers, (unsigned long long)l);
                return;
            }
            rope[l] = json_integer_value(v) != 0;
        } else {
            rope[l] = interval == 0 || (l + 1) % interval != 0;
        }
    }
    if (!t->ok)
        return;
    const struct decoder_traits traits = {.norms = 2};
    size_t kinds[2][2];
    bool made[2][2] = {{false, false}, {false, false}};
    gs_arch_set_layers(a, plan.layers, 0);
    for (uint64_t l = 0; l < plan.layers && l < GS_LAYERS_MAX; l++) {
        const int ro = rope[l], mo = plan.moe[l];
        if (!made[ro][mo]) {
            const size_t b = gs_arch_new_block(a);
            struct gs_attention s;
            memset(&s, 0, sizeof(s));
            s.heads = plan.heads;
            s.kv_heads = plan.kv_heads;
            s.head_dim = plan.head_dim;
            s.cached = true;
            s.nope = !ro;
            if (ro && plan.window > 0) {
                s.span = GS_SPAN_CHUNKED;
                s.window = plan.window;
            }
            gs_build_attention(a, b, &s, &GS_ATTENTION_NAMES, bias, bias);
            if (mo)
                gs_build_moe(a, b, &plan.experts);
            else
                gs_build_mlp(a, b, dense_width, true, false, &dense);
            decoder_add_norms(a, b, &plan, &traits);
            kinds[ro][mo] = b;
            made[ro][mo] = true;
        }
        gs_arch_set_layer(a, l, kinds[ro][mo]);
    }
    gs_arch_embeddings(a, a->hidden_size, "lm_head", false);
    gs_build_norms(a, GS_BLOCKS_MAX, "norm", 1, false);
}

/* Llama4VisionModel: patch_embedding.linear (Llama4UnfoldConvolution, an
 * nn.Linear of channels x patch^2 -> width, no bias), class_embedding,
 * positional_embedding_vlm (patches + CLS), layernorm_pre/post LayerNorms,
 * Llama4VisionEncoderLayers (q/k/v/o_proj and mlp fc1/fc2, all with biases,
 * two LayerNorms), and vision_adapter.mlp (Llama4VisionMLP2: fc1
 * intermediate_size -> projector_input_dim and fc2 projector_output_dim
 * square, no biases). Returns vision_output_dim. */
static uint64_t read_llama4_vision(struct model_reader *v, struct gs_arch *a)
{
    static const struct attn_layout attn = {"self_attn.q_proj", "self_attn.k_proj",
                                            "self_attn.v_proj", "self_attn.o_proj", NULL,
                                            true, true, true, true};
    static const struct gs_mlp_names fc = {NULL, "mlp.fc1", "mlp.fc2", NULL};
    const uint64_t vh = rd_dim(v, NAMES("hidden_size"), true, 0);
    const uint64_t vi = rd_dim(v, NAMES("intermediate_size"), true, 0);
    const uint64_t layers = rd_dim(v, NAMES("num_hidden_layers"), true, 0);
    const uint64_t heads = rd_dim(v, NAMES("num_attention_heads"), true, 0);
    const uint64_t channels = rd_dim(v, NAMES("num_channels"), true, 0);
    const uint64_t image = rd_dim(v, NAMES("image_size"), true, 0);
    const uint64_t patch = rd_dim(v, NAMES("patch_size"), true, 0);
    const uint64_t proj_in = rd_dim(v, NAMES("projector_input_dim"), true, 0);
    const uint64_t proj_out = rd_dim(v, NAMES("projector_output_dim"), true, 0);
    const uint64_t out = rd_dim(v, NAMES("vision_output_dim"), true, 0);
    if (!v->ok)
        return 0;
    const size_t b = gs_arch_new_block(a);
    const struct gs_attention s = encoder_spec(heads, per_head(vh, heads));
    attention(a, b, vh, vh, &s, &attn, false);
    mlp(a, b, vh, vi, false, true, &fc);
    norm(a, b, "input_layernorm", GS_PART_NORMS, true, vh);
    norm(a, b, "post_attention_layernorm", GS_PART_NORMS, true, vh);
    gs_arch_tower(a, "vision_model.model", b, GS_PART_VISION, layers, false);
    const size_t m = GS_BLOCKS_MAX;
    const enum gs_part p = GS_PART_VISION;
    linear(a, m, "vision_model.patch_embedding.linear", GS_SPLIT_NONE, p, false,
           channels * patch * patch, vh);
    tensor(a, m, "vision_model.class_embedding", p, 1, vh);
    tensor(a, m, "vision_model.positional_embedding_vlm", p, (image / patch) * (image / patch) + 1,
           vh);
    norm(a, m, "vision_model.layernorm_pre", p, true, vh);
    norm(a, m, "vision_model.layernorm_post", p, true, vh);
    linear(a, m, "vision_model.vision_adapter.mlp.fc1", GS_SPLIT_COLUMN, p, false, vi, proj_in);
    linear(a, m, "vision_model.vision_adapter.mlp.fc2", GS_SPLIT_ROW, p, false, proj_out, proj_out);
    return out;
}

/* Llama4ForConditionalGeneration: the text model, the vision model and
 * multi_modal_projector.linear_1 (vision_output_dim -> text width, no bias). */
static void read_llama4(struct model_reader *r, struct gs_arch *a)
{
    struct model_reader text, vision;
    json_t *owned = NULL;
    if (!open_sub(r, "text_config", LLAMA4_TEXT, NULL, NULL, &text, &owned))
        return;
    read_llama4_text(&text, a);
    close_sub(r, &text, owned);
    if (!r->ok || !open_sub(r, "vision_config", LLAMA4_VISION, NULL, NULL, &vision, &owned))
        return;
    const uint64_t out = read_llama4_vision(&vision, a);
    const uint64_t image = rd_dim(&vision, NAMES("image_size"), false, 0);
    const uint64_t patch = rd_dim(&vision, NAMES("patch_size"), false, 14);
    const double shuffle = rd_number(&vision, "pixel_shuffle_ratio", 0.5);
    close_sub(r, &vision, owned);
    if (!r->ok)
        return;
    /* the dummy image fills the processor's max_patches (16 in the published
     * preprocessor_config.json) plus the global tile: 17 tiles of image_size, each
     * (image / patch)^2 x pixel_shuffle_ratio^2 embeddings (vLLM mllama4.py). In training
     * Llama4VisionModel runs each tile as a sequence of its (image / patch)^2 patches
     * (Llama4UnfoldConvolution) and the class embedding after them. */
    if (image && patch && shuffle > 0 && shuffle <= 1) {
        const uint64_t side = image / patch;
        a->mm_image.crop_tokens = (uint64_t)((double)(side * side) * shuffle * shuffle);
        a->mm_image.tokens = 17 * a->mm_image.crop_tokens;
        a->mm_image.pixels = 17 * 3 * image * image;
        a->mm_image.patches = 17 * side * side;
        a->mm_image.class_positions = 1;
        a->mm_image.pixels_model_dtype = true; /* Llama4VisionModel.forward casts nothing */
        a->mm_image.layout = GS_MM_CROPS;
    }
    linear(a, GS_BLOCKS_MAX, "multi_modal_projector.linear_1", GS_SPLIT_NONE, GS_PART_VISION, false,
           out, a->hidden_size);
}

/* ---------------------------------------------------------------- Step 3.7 */

/* Step3p7VisionConfig's defaults (configuration_step3p7.py, the stepfun-ai/Step-3.7-Flash
 * tower); the release's vision_config names hidden_size, num_hidden_layers and
 * num_attention_heads width, layers and heads, which __post_init__ takes first. */
static const char STEP3P7_VISION[] =
    "{\"hidden_size\": 1536, \"num_hidden_layers\": 47, \"num_attention_heads\": 16,"
    " \"num_channels\": 3, \"image_size\": 728, \"patch_size\": 14, \"hidden_act\": "
    "\"quick_gelu\"}";

/* Step3p7VisionModel (modeling_step3p7.py): a Conv2d patch_embedding without bias, a learned
 * position_embedding per patch of an image_size square, pre_layernorm, Step3p7VisionEncoderLayers
 * (self_attn q/k/v/out_proj with biases under 2-D RoPE, mlp fc1/fc2 with biases of width x
 * mlp_ratio - __post_init__ recomputes intermediate_size from it -, layernorm_before/after
 * LayerNorms, and the layer scales lambda_1/lambda_2), then two stride-2 3x3 convolutions with
 * biases, downsampler1 (width -> 2 width) and downsampler2 (-> 4 width). Returns the width; *side
 * the patches along an image's side. */
static uint64_t read_step3p7_vision(struct model_reader *v, struct gs_arch *a, uint64_t *side)
{
    const uint64_t vh = rd_dim(v, NAMES("width", "hidden_size"), true, 0);
    const uint64_t layers = rd_dim(v, NAMES("layers", "num_hidden_layers"), true, 0);
    const uint64_t heads = rd_size(v, NAMES("heads", "num_attention_heads"), 16);
    const double ratio = rd_number(v, "mlp_ratio", 8960.0 / 1536.0);
    const uint64_t channels = rd_dim(v, NAMES("num_channels"), true, 0);
    const uint64_t image = rd_dim(v, NAMES("image_size"), true, 0);
    const uint64_t patch = rd_size(v, NAMES("patch_size"), 14);
    if (v->ok && !(ratio > 0 && (double)vh * ratio < (double)GS_ARCH_DIM_MAX))
        rd_fail(v, "mlp_ratio", GS_ERR_INVALID, "must be a positive ratio of the width");
    if (!v->ok)
        return 0;
    /* int(self.hidden_size * self.mlp_ratio): 8960 for the release */
    const uint64_t vi = (uint64_t)((double)vh * ratio);
    const size_t b = gs_arch_new_block(a);
    const struct gs_attention s = encoder_spec(heads, per_head(vh, heads));
    attention(a, b, vh, vh, &s, &CLIP_ATTN, false);
    mlp(a, b, vh, vi, false, true, &CLIP_FC);
    norm(a, b, "layernorm_before", GS_PART_NORMS, true, vh);
    norm(a, b, "layernorm_after", GS_PART_NORMS, true, vh);
    tensor(a, b, "lambda_1", GS_PART_NORMS, 1, vh);
    tensor(a, b, "lambda_2", GS_PART_NORMS, 1, vh);
    const char *act = rd_string(v, "hidden_act");
    struct gs_block *blk = gs_arch_block(a, b);
    if (blk != NULL && act != NULL && strcmp(act, "quick_gelu") == 0)
        blk->mlp.act = GS_ACT_QUICK_GELU; /* transformers' QuickGELUActivation, Python ops */
    gs_arch_tower(a, "vision_model", b, GS_PART_VISION, layers, false);
    *side = image / patch;
    tensor(a, GS_BLOCKS_MAX, "embeddings.patch_embedding", GS_PART_VISION, channels * patch * patch,
           vh);
    add(a, GS_BLOCKS_MAX, "embeddings.position_embedding", GS_MODULE_EMBEDDING, GS_SPLIT_NONE,
        GS_PART_VISION, 0, *side * *side, vh);
    norm(a, GS_BLOCKS_MAX, "pre_layernorm", GS_PART_VISION, true, vh);
    tensor(a, GS_BLOCKS_MAX, "downsampler1", GS_PART_VISION, vh * 9 + 1, 2 * vh);
    tensor(a, GS_BLOCKS_MAX, "downsampler2", GS_PART_VISION, 2 * vh * 9 + 1, 4 * vh);
    return vh;
}

/* Step3p7ForConditionalGeneration (modeling_step3p7.py; vLLM serves it as Step 3.5's language
 * model beside its own vision model): the text_config is always a Step3p7TextConfig, read as
 * step3p5 (heterogeneous.c); the vision model above; multi_modal_projector, Linear(4 x vision
 * width, text width) with projector_bias. An image is its global view at image_size, (image /
 * patch)^2 patches that the two stride-2 convolutions bring to ceil(ceil(side / 2) / 2)^2
 * embeddings (169 for the release); the processor's local crops of a large image
 * (pixel_values_local) are not counted. The tower's forward in training is not modelled.
 * A config without a text_config (NVIDIA aiconfigurator's flattened Step-3.7-Flash, architecture
 * Step3p7FlashForCausalLM) is its language model alone: it is read as step3p5, whole. */
static void read_step3p7(struct model_reader *r, struct gs_arch *a)
{
    if (rd_get(r, "text_config") == NULL) {
        read_text_as(r, a, "step3p5");
        return;
    }
    struct model_reader text, vision;
    json_t *owned = NULL;
    if (open_sub(r, "text_config", NULL, NULL, "step3p5", &text, &owned)) {
        read_text_as(&text, a, "step3p5");
        close_sub(r, &text, owned);
    }
    const bool bias = rd_flag(r, "projector_bias", false);
    if (!r->ok || !open_sub(r, "vision_config", STEP3P7_VISION, NULL, NULL, &vision, &owned))
        return;
    uint64_t side = 0;
    const uint64_t vh = read_step3p7_vision(&vision, a, &side);
    const uint64_t channels = rd_dim(&vision, NAMES("num_channels"), false, 3);
    const uint64_t image = rd_dim(&vision, NAMES("image_size"), false, 0);
    close_sub(r, &vision, owned);
    if (!r->ok)
        return;
    linear(a, GS_BLOCKS_MAX, "multi_modal_projector", GS_SPLIT_NONE, GS_PART_VISION, bias, 4 * vh,
           a->hidden_size);
    const uint64_t merged = ((side + 1) / 2 + 1) / 2;
    a->mm_image.tokens = merged * merged;
    a->mm_image.pixels = channels * image * image;
}

/* -------------------------------------------------------------- MiniMax-M3 */

/* MiniMaxM3VLTextConfig's defaults (configuration_minimax_m3_vl.py, the MiniMaxAI/MiniMax-M3
 * language model) in the keys moe.c's minimax_m3 reader reads: the class always builds the
 * router's e_score_correction_bias (use_routing_bias) and sizes the shared expert by
 * shared_intermediate_size; without moe_layer_freq or mlp_layer_types every layer is sparse. */
static const char MINIMAX_M3_TEXT[] =
    "{\"vocab_size\": 200064, \"hidden_size\": 6144, \"intermediate_size\": 3072,"
    " \"num_hidden_layers\": 60, \"num_attention_heads\": 64, \"num_key_value_heads\": 4,"
    " \"head_dim\": 128, \"max_position_embeddings\": 524288, \"num_local_experts\": 128,"
    " \"num_experts_per_tok\": 4, \"dense_intermediate_size\": 12288,"
    " \"shared_intermediate_size\": 3072, \"use_routing_bias\": true, \"rotary_dim\": 64}";

/* MiniMaxM3VLVisionConfig's defaults. */
static const char MINIMAX_M3_VISION[] =
    "{\"hidden_size\": 1280, \"intermediate_size\": 5120, \"num_hidden_layers\": 32,"
    " \"num_attention_heads\": 16, \"num_channels\": 3, \"patch_size\": 14,"
    " \"temporal_patch_size\": 2, \"spatial_merge_size\": 2}";

/* MiniMaxM3VLImageProcessor's default size: longest_edge 451,584 pixels (672^2, 576 tokens of
 * 2 x 2 patches; the release's image_seq_length) */
#define MINIMAX_M3_MAX_PIXELS 451584ULL

/* MiniMaxM3VLVisionModel (modeling_minimax_m3_vl.py): embeddings.proj, a Conv3d over
 * temporal_patch_size x patch_size^2 without bias (Qwen2.5-VL's patch embedding), pre_layrnorm,
 * and CLIP-like MiniMaxM3VLVisionEncoderLayers (self_attn q/k/v/out_proj with biases under a 3-D
 * RoPE, layer_norm1/2 LayerNorms, mlp fc1/fc2 with biases); no post-norm. Returns the width. */
static uint64_t read_minimax_m3_vision(struct model_reader *v, struct gs_arch *a)
{
    const uint64_t vh = rd_dim(v, NAMES("hidden_size"), true, 0);
    const uint64_t vi = rd_dim(v, NAMES("intermediate_size"), true, 0);
    const uint64_t layers = rd_dim(v, NAMES("num_hidden_layers"), true, 0);
    const uint64_t heads = rd_size(v, NAMES("num_attention_heads"), 16);
    const uint64_t channels = rd_dim(v, NAMES("num_channels"), true, 0);
    const uint64_t patch = rd_size(v, NAMES("patch_size"), 14);
    const uint64_t temporal = rd_size(v, NAMES("temporal_patch_size"), 2);
    if (!v->ok)
        return 0;
    const size_t b = gs_arch_new_block(a);
    const struct gs_attention s = encoder_spec(heads, per_head(vh, heads));
    attention(a, b, vh, vh, &s, &CLIP_ATTN, false);
    mlp(a, b, vh, vi, false, true, &CLIP_FC);
    norm(a, b, "layer_norm1", GS_PART_NORMS, true, vh);
    norm(a, b, "layer_norm2", GS_PART_NORMS, true, vh);
    gs_arch_tower(a, "vision_tower", b, GS_PART_VISION, layers, false);
    tensor(a, GS_BLOCKS_MAX, "embeddings.proj", GS_PART_VISION, channels * temporal * patch * patch,
           vh);
    norm(a, GS_BLOCKS_MAX, "pre_layrnorm", GS_PART_VISION, true, vh);
    return vh;
}

/* MiniMaxM3SparseForConditionalGeneration, model_type minimax_m3_vl: the released MiniMax-M3
 * (modeling_minimax_m3_vl.py, transformers 5.12 on). The text_config is always a
 * MiniMaxM3VLTextConfig, read by moe.c's minimax_m3 reader (vLLM's model of the same tensors);
 * the vision tower above; MiniMaxM3VLMultiModalProjector, two GELU MLPs with biases: linear_1
 * (vision -> projector_hidden_size) and linear_2 (-> text) on each patch, then merge_linear_1
 * (text x spatial_merge_size^2 -> projector_hidden_size) and merge_linear_2 (-> text) on each
 * group of merge^2 patches. The largest image the processor takes is 672^2 pixels, 576 tokens
 * of 4 patches; the tower's forward in training is not modelled (warned). */
static void read_minimax_m3_vl(struct model_reader *r, struct gs_arch *a)
{
    struct model_reader text, vision;
    json_t *owned = NULL;
    /* MiniMaxM3VLConfig ties the head where either config says so (it takes the text config's
     * tie when it does not tie itself) */
    const bool tie = rd_flag(r, "tie_word_embeddings", false);
    if (open_sub(r, "text_config", MINIMAX_M3_TEXT, NULL, "minimax_m3", &text, &owned)) {
        if (tie && json_object_set_new(owned, "tie_word_embeddings", json_true()) != 0)
            rd_fail(r, "text_config", GS_ERR_NOMEM, "out of memory reading the nested config");
        read_text_as(&text, a, "minimax_m3");
        close_sub(r, &text, owned);
    }
    const uint64_t projector = rd_size(r, NAMES("projector_hidden_size"), 6144);
    if (!r->ok || !open_sub(r, "vision_config", MINIMAX_M3_VISION, NULL, NULL, &vision, &owned))
        return;
    const uint64_t vh = read_minimax_m3_vision(&vision, a);
    const uint64_t channels = rd_dim(&vision, NAMES("num_channels"), false, 3);
    const uint64_t patch = rd_size(&vision, NAMES("patch_size"), 14);
    const uint64_t temporal = rd_size(&vision, NAMES("temporal_patch_size"), 2);
    const uint64_t merge = rd_size(&vision, NAMES("spatial_merge_size"), 2);
    close_sub(r, &vision, owned);
    if (!r->ok)
        return;
    const uint64_t h = a->hidden_size;
    linear(a, GS_BLOCKS_MAX, "multi_modal_projector.linear_1", GS_SPLIT_NONE, GS_PART_VISION, true,
           vh, projector);
    linear(a, GS_BLOCKS_MAX, "multi_modal_projector.linear_2", GS_SPLIT_NONE, GS_PART_VISION, true,
           projector, h);
    linear(a, GS_BLOCKS_MAX, "multi_modal_projector.merge_linear_1", GS_SPLIT_NONE, GS_PART_VISION,
           true, h * merge * merge, projector);
    linear(a, GS_BLOCKS_MAX, "multi_modal_projector.merge_linear_2", GS_SPLIT_NONE, GS_PART_VISION,
           true, projector, h);
    a->mm_image = rd_qwen_vl_item(MINIMAX_M3_MAX_PIXELS, channels, temporal, patch, merge);
    a->mm_image.patches = 0; /* the tower's forward is not modelled */
}

/* ----------------------------------------------------------------- LFM2-VL */

/* Siglip2VisionConfig's defaults (configuration_siglip2.py), Lfm2VlConfig's vision_config when
 * absent. */
static const char SIGLIP2_VISION[] =
    "{\"hidden_size\": 768, \"intermediate_size\": 3072, \"num_hidden_layers\": 12,"
    " \"num_attention_heads\": 12, \"num_channels\": 3, \"patch_size\": 16, \"num_patches\": 256}";

/* The largest image Lfm2VlImageProcessor makes (image_processing_lfm2_vl.py defaults, which
 * config.json does not carry): split into at most max_tiles = 10 tiles of tile_size 512 plus a
 * thumbnail (use_thumbnail), each at most max_image_tokens = 256 tokens, a token
 * downsample_factor^2 patches of 16 x 16; each tile a row of its own, padded to that many
 * patches (naflex's max_num_patches). */
#define LFM2_VL_MAX_CROPS   11ULL
#define LFM2_VL_CROP_TOKENS 256ULL

/* Lfm2VlForConditionalGeneration (transformers models/lfm2_vl/modeling_lfm2_vl.py;
 * LiquidAI/LFM2-VL-450M, -1.6B; vLLM models/lfm2_vl.py): the language model AutoModel of the
 * text_config (lfm2 by default, read by hybrid.c), Siglip2VisionModel, and
 * Lfm2VlMultiModalProjector: pixel_unshuffle of downsample_factor^2 patches (no parameters), a
 * LayerNorm over them (projector_use_layernorm), linear_1 to projector_hidden_size and linear_2
 * to the text's width, with biases by projector_bias. lm_head tied by the top-level
 * tie_word_embeddings (tie_embedding, the older key, wins). */
static void read_lfm2_vl(struct model_reader *r, struct gs_arch *a)
{
    struct model_reader text, vision;
    json_t *owned = NULL;
    const bool tie = rd_flag(r, "tie_embedding", rd_flag(r, "tie_word_embeddings", true));
    const uint64_t factor = rd_dim(r, NAMES("downsample_factor"), false, 2);
    const uint64_t width = rd_dim(r, NAMES("projector_hidden_size"), false, 2560);
    const bool bias = rd_flag(r, "projector_bias", true);
    const bool layer_norm = rd_flag(r, "projector_use_layernorm", true);
    if (!r->ok || !open_sub(r, "text_config", "{}", "{}", NULL, &text, &owned))
        return;
    const char *type = rd_string(&text, "model_type");
    char text_type[64];
    snprintf(text_type, sizeof(text_type), "%s", type != NULL ? type : "lfm2");
    if (json_object_set_new(owned, "tie_word_embeddings", json_boolean(tie)) != 0 ||
        json_object_set_new(owned, "tie_embedding", json_boolean(tie)) != 0)
        rd_fail(r, "text_config", GS_ERR_NOMEM, "out of memory reading the nested config");
    else
        read_text_as(&text, a, text_type);
    close_sub(r, &text, owned);
    if (!r->ok ||
        !open_sub(r, "vision_config", SIGLIP2_VISION, SIGLIP2_VISION, NULL, &vision, &owned))
        return;
    const uint64_t vh = read_siglip_tower(&vision, a, true);
    const uint64_t patch = rd_dim(&vision, NAMES("patch_size"), true, 0);
    const uint64_t channels = rd_dim(&vision, NAMES("num_channels"), true, 0);
    close_sub(r, &vision, owned);
    if (!r->ok || vh == 0)
        return;
    const uint64_t in = vh * factor * factor;
    if (layer_norm)
        norm(a, GS_BLOCKS_MAX, "multi_modal_projector.layer_norm", GS_PART_VISION, true, in);
    linear(a, GS_BLOCKS_MAX, "multi_modal_projector.linear_1", GS_SPLIT_NONE, GS_PART_VISION, bias,
           in, width);
    linear(a, GS_BLOCKS_MAX, "multi_modal_projector.linear_2", GS_SPLIT_NONE, GS_PART_VISION, bias,
           width, a->hidden_size);
    bool ovf = false;
    const uint64_t patches =
        gs_mul(LFM2_VL_MAX_CROPS * LFM2_VL_CROP_TOKENS, gs_mul(factor, factor, &ovf), &ovf);
    const uint64_t pixels =
        gs_mul(patches, gs_mul(channels, gs_mul(patch, patch, &ovf), &ovf), &ovf);
    if (ovf) {
        rd_fail(r, "downsample_factor", GS_ERR_RANGE,
                "an image's pixel values overflow 64 bits at these patch and downsample sizes");
        return;
    }
    a->mm_image.tokens = LFM2_VL_MAX_CROPS * LFM2_VL_CROP_TOKENS;
    a->mm_image.crop_tokens = LFM2_VL_CROP_TOKENS;
    a->mm_image.patches = patches;
    a->mm_image.pixels = pixels;
    a->mm_image.layout = GS_MM_CROPS;
}

/* -------------------------------------------------------- Granite 4 Vision */

/* GraniteConfig's defaults, which Granite4VisionTextConfig copies
 * (configuration_granite4_vision.py; a text_config naming no model_type is that class). */
static const char GRANITE4_VISION_TEXT[] =
    "{\"vocab_size\": 32000, \"hidden_size\": 4096, \"intermediate_size\": 11008,"
    " \"num_hidden_layers\": 32, \"num_attention_heads\": 32}";

/* LlavaNextConfig's image_grid_pinpoints default, which Granite4VisionConfig keeps: (height,
 * width) pairs. */
static const uint64_t GRANITE4_VISION_PINPOINTS[][2] = {
    {336, 672}, {672, 336}, {672, 672}, {1008, 336}, {336, 1008}};

/* A BLIP-2 Q-Former under `part` (transformers models/blip_2/modeling_blip_2.py
 * Blip2QFormerModel without text input; Granite 4 Vision's WindowQFormerDownsampler, Granite
 * Speech's projector): its layernorm, then per layer self-attention
 * (query/key/value and the output dense, biased, and a LayerNorm), every frequency-th layer a
 * cross-attention over `encoder`-wide states (key and value from them), and the query branch's
 * intermediate_query and output_query (biased, and a LayerNorm); `count` such Q-Formers. */
static void blip2_qformer(struct gs_arch *a, enum gs_part part, uint64_t count, uint64_t width,
                          uint64_t inner, uint64_t layers, uint64_t frequency, uint64_t encoder)
{
    const uint64_t cross = (layers + frequency - 1) / frequency;
    const unsigned q = GS_MOD_QUANT | GS_MOD_BIAS;
    gs_arch_module(a, "qformer.layernorm", GS_MODULE_NORM, GS_SPLIT_NONE, part, GS_MOD_BIAS, 1,
                   width, count);
    gs_arch_module(a, "qformer.encoder.layer.attention.attention.qkv", GS_MODULE_LINEAR,
                   GS_SPLIT_NONE, part, q, width, 3 * width, count * layers);
    gs_arch_module(a, "qformer.encoder.layer.attention.output.dense", GS_MODULE_LINEAR,
                   GS_SPLIT_NONE, part, q, width, width, count * layers);
    gs_arch_module(a, "qformer.encoder.layer.attention.output.LayerNorm", GS_MODULE_NORM,
                   GS_SPLIT_NONE, part, GS_MOD_BIAS, 1, width, count * layers);
    gs_arch_module(a, "qformer.encoder.layer.crossattention.attention.query", GS_MODULE_LINEAR,
                   GS_SPLIT_NONE, part, q, width, width, count * cross);
    gs_arch_module(a, "qformer.encoder.layer.crossattention.attention.key_value", GS_MODULE_LINEAR,
                   GS_SPLIT_NONE, part, q, encoder, 2 * width, count * cross);
    gs_arch_module(a, "qformer.encoder.layer.crossattention.output.dense", GS_MODULE_LINEAR,
                   GS_SPLIT_NONE, part, q, width, width, count * cross);
    gs_arch_module(a, "qformer.encoder.layer.crossattention.output.LayerNorm", GS_MODULE_NORM,
                   GS_SPLIT_NONE, part, GS_MOD_BIAS, 1, width, count * cross);
    gs_arch_module(a, "qformer.encoder.layer.intermediate_query.dense", GS_MODULE_LINEAR,
                   GS_SPLIT_NONE, part, q, width, inner, count * layers);
    gs_arch_module(a, "qformer.encoder.layer.output_query.dense", GS_MODULE_LINEAR, GS_SPLIT_NONE,
                   part, q, inner, width, count * layers);
    gs_arch_module(a, "qformer.encoder.layer.output_query.LayerNorm", GS_MODULE_NORM, GS_SPLIT_NONE,
                   part, GS_MOD_BIAS, 1, width, count * layers);
}

/* downsample_rate "q/w": a window of w x w patches becomes q x q queries. */
static bool granite4_vision_rate(struct model_reader *r, uint64_t *q, uint64_t *w)
{
    const char *rate = rd_string(r, "downsample_rate");
    unsigned long long a = 0, b = 0;
    char tail = 0;
    if (rate == NULL || sscanf(rate, "%llu/%llu%c", &a, &b, &tail) != 2 || a == 0 || b == 0 ||
        a > b || b > 64) {
        rd_fail(r, "downsample_rate", GS_ERR_INVALID,
                "must be a string \"q/w\" with 0 < q <= w <= 64 (the model cannot be built "
                "without it)");
        return false;
    }
    *q = a;
    *w = b;
    return true;
}

/* Granite4VisionForConditionalGeneration (transformers models/granite4_vision/; vLLM
 * granite4_vision.py; ibm-granite/granite-4.0-3b-vision, granite-vision-4.1-4b): the language
 * model is always built of Granite layers (Granite4VisionTextModel, whatever text_config's
 * model_type: the 3b checkpoint writes granitemoehybrid with attention layers only), the head tied
 * by the wrapper's tie_word_embeddings (modeling_utils.py tie_weights; default false). The tower is
 * SiglipVisionModel whole (its pooling head unless vision_use_head is false; every hidden state
 * is read, no layer dropped). No multi_modal_projector: len(deepstack_layer_map) layerwise and
 * always 4 spatial WindowQFormerDownsamplers, each a norm over the tower width, query (q^2 x
 * width), image_positions (w^2 x width), a Q-Former (qformer_config, by default one layer of the
 * tower's width with cross-attention, intermediate 3,072) and out_linear to the text width; and
 * image_newline. Their outputs are added to the text's hidden states before the layers
 * deepstack_layer_map names (no parameters); vLLM keeps one max_num_batched_tokens x hidden buffer
 * per level (_ds_buffers: the layerwise and spatial_target_layers ones) and packs an image's
 * levels in one encoder-output row. The published shapes (text 2,560 x 40, tied; SigLIP 1,152 x
 * 27 at 384 px; rate 4/8; four deepstack levels): 3,402,839,040 + 428,256,704 + 8 x 20,763,520 +
 * 2,560 = 3,997,206,464 ("~4B"; no exact published total was found). */
static void read_granite4_vision(struct model_reader *r, struct gs_arch *a)
{
    struct model_reader text, vision, qformer;
    json_t *owned = NULL;
    const bool tie = rd_flag(r, "tie_word_embeddings", false);
    uint64_t q = 0, w = 0;
    if (!granite4_vision_rate(r, &q, &w))
        return;
    const json_t *map = NULL, *spatial = NULL;
    const size_t levels = rd_array(r, "deepstack_layer_map", &map);
    if (r->ok && map == NULL)
        rd_fail(r, "deepstack_layer_map", GS_ERR_INVALID,
                "is required: [vision_layer, llm_layer] pairs (the model cannot be built "
                "without it)");
    const size_t spatial_levels = rd_get(r, "spatial_target_layers") != NULL
                                      ? rd_array(r, "spatial_target_layers", &spatial)
                                      : 4;
    struct model_reader peek;
    if (!r->ok)
        return;
    if (!rd_sub(r, "text_config", &peek)) {
        if (r->ok)
            rd_fail(r, "text_config", GS_ERR_INVALID,
                    "is required: without it Granite4VisionConfig builds a Llama config the "
                    "model cannot be built from");
        return;
    }
    if (!open_sub(r, "text_config", GRANITE4_VISION_TEXT, NULL, NULL, &text, &owned))
        return;
    json_object_del(owned, "layer_types");
    if (json_object_set_new(owned, "tie_word_embeddings", json_boolean(tie)) != 0)
        rd_fail(r, "text_config", GS_ERR_NOMEM, "out of memory reading the nested config");
    else
        read_text_as(&text, a, "granite");
    close_sub(r, &text, owned);
    if (!r->ok)
        return;
    struct model_reader vpeek;
    if (rd_sub(r, "vision_config", &vpeek)) {
        const char *type = rd_string(&vpeek, "model_type");
        if (type == NULL || strcmp(type, "siglip_vision_model") != 0) {
            /* Granite4VisionConfig builds a vision_config naming no model_type as CLIP's */
            rd_fail(&vpeek, "model_type", GS_ERR_UNSUPPORTED,
                    "must be siglip_vision_model: gpusizer reads Granite 4 Vision with its SigLIP "
                    "tower");
            r->ok = false;
            return;
        }
    }
    if (!r->ok ||
        !open_sub(r, "vision_config", SIGLIP_VISION, SIGLIP_VISION, NULL, &vision, &owned))
        return;
    const uint64_t vh = read_siglip_tower(&vision, a, false);
    const uint64_t image = rd_dim(&vision, NAMES("image_size"), true, 0);
    const uint64_t patch = rd_dim(&vision, NAMES("patch_size"), true, 0);
    const uint64_t channels = rd_dim(&vision, NAMES("num_channels"), true, 0);
    close_sub(r, &vision, owned);
    if (!r->ok || vh == 0 || patch == 0)
        return;
    const uint64_t side = image / patch;
    if (side == 0 || side % w != 0) {
        rd_fail(r, "downsample_rate", GS_ERR_INVALID,
                "its window side must divide the tower's patch grid (%llu)",
                (unsigned long long)side);
        return;
    }
    /* qformer_config: absent, Granite4VisionConfig derives one from the tower (one layer, the
     * tower's width and encoder width, intermediate 3,072, cross-attention every layer); given,
     * Blip2QFormerConfig's defaults fill what it leaves out */
    uint64_t qh = vh, qi = 3072, ql = 1, qf = 1, qe = vh;
    if (rd_sub(r, "qformer_config", &qformer)) {
        qh = rd_dim(&qformer, NAMES("hidden_size"), false, 768);
        qi = rd_dim(&qformer, NAMES("intermediate_size"), false, 3072);
        ql = rd_dim(&qformer, NAMES("num_hidden_layers"), false, 12);
        qf = rd_dim(&qformer, NAMES("cross_attention_frequency"), false, 2);
        qe = rd_dim(&qformer, NAMES("encoder_hidden_size"), false, 1408);
        if (!qformer.ok)
            r->ok = false;
    }
    if (!r->ok)
        return;
    if (qh != vh) {
        rd_fail(r, "qformer_config", GS_ERR_INVALID,
                "its hidden_size must be the vision tower's (%llu): the downsampler feeds it the "
                "tower's features",
                (unsigned long long)vh);
        return;
    }
    const uint64_t projectors = levels + 4, th = a->hidden_size;
    blip2_qformer(a, GS_PART_VISION, projectors, qh, qi, ql, qf, qe);
    gs_arch_module(a, "projectors.norm", GS_MODULE_NORM, GS_SPLIT_NONE, GS_PART_VISION, GS_MOD_BIAS,
                   1, vh, projectors);
    gs_arch_module(a, "projectors.query", GS_MODULE_TENSOR, GS_SPLIT_NONE, GS_PART_VISION, 0, q * q,
                   vh, projectors);
    gs_arch_module(a, "projectors.image_positions", GS_MODULE_TENSOR, GS_SPLIT_NONE, GS_PART_VISION,
                   0, w * w, vh, projectors);
    gs_arch_module(a, "projectors.out_linear", GS_MODULE_LINEAR, GS_SPLIT_NONE, GS_PART_VISION,
                   GS_MOD_QUANT | GS_MOD_BIAS, vh, th, projectors);
    tensor(a, GS_BLOCKS_MAX, "image_newline", GS_PART_VISION, 1, th);
    /* the largest image (processing_granite4_vision.py, LlavaNext's
     * get_image_size_with_most_features over image_grid_pinpoints): a grid of rows x cols tiles
     * of (side x q / w)^2 tokens each, unpadded whole, a newline token per row, and the base
     * image's tile */
    const uint64_t s = side * q / w;
    const json_t *pins = NULL;
    const size_t pin_count =
        rd_get(r, "image_grid_pinpoints") != NULL
            ? rd_array(r, "image_grid_pinpoints", &pins)
            : sizeof(GRANITE4_VISION_PINPOINTS) / sizeof(GRANITE4_VISION_PINPOINTS[0]);
    uint64_t best = 0, best_tiles = 0;
    for (size_t i = 0; r->ok && i < pin_count && i < 4096; i++) {
        uint64_t hw[2];
        if (pins != NULL) {
            const json_t *pair = json_array_get(pins, i);
            const json_t *h = json_array_get(pair, 0), *wd = json_array_get(pair, 1);
            if (!json_is_array(pair) || json_array_size(pair) != 2 || !json_is_integer(h) ||
                !json_is_integer(wd) || json_integer_value(h) <= 0 || json_integer_value(wd) <= 0 ||
                json_integer_value(h) > 65536 || json_integer_value(wd) > 65536) {
                rd_fail(r, "image_grid_pinpoints", GS_ERR_INVALID,
                        "must be [height, width] pairs of positive pixel counts up to 65,536");
                return;
            }
            hw[0] = (uint64_t)json_integer_value(h);
            hw[1] = (uint64_t)json_integer_value(wd);
        } else {
            hw[0] = GRANITE4_VISION_PINPOINTS[i][0];
            hw[1] = GRANITE4_VISION_PINPOINTS[i][1];
        }
        const uint64_t rows = hw[0] / image, cols = hw[1] / image;
        const uint64_t tokens = s * rows * s * cols + s * rows + s * s;
        if (tokens > best) {
            best = tokens;
            best_tiles = rows * cols + 1;
        }
    }
    bool ovf = false;
    const uint64_t pixels =
        gs_mul(best_tiles, gs_mul(channels, gs_mul(image, image, &ovf), &ovf), &ovf);
    if (!r->ok || best == 0 || ovf)
        return;
    a->mm_image = (struct gs_mm_item){.tokens = best,
                                      .crop_tokens = s * s,
                                      .patches = best_tiles * side * side,
                                      .pixels = pixels,
                                      .layout = GS_MM_CROPS};
    const uint64_t buffers = levels + (spatial_levels ? spatial_levels : 0);
    a->mm_embed_width = gs_mul(buffers ? buffers : 1, th, &ovf);
    a->token_buffer_width = gs_mul(buffers, th, &ovf);
    if (ovf)
        rd_fail(r, "deepstack_layer_map", GS_ERR_RANGE, "too many levels");
}

/* ----------------------------------------------------------- Cosmos 3 Edge */

/* Cosmos3EdgeTextConfig's and Cosmos3EdgeVisionConfig's defaults (transformers
 * models/cosmos3_edge/configuration_cosmos3_edge.py), the shapes of every published Edge
 * checkpoint; the tower has no pooling head. */
static const char COSMOS3_EDGE_TEXT[] =
    "{\"vocab_size\": 131072, \"hidden_size\": 2048, \"intermediate_size\": 9216,"
    " \"num_hidden_layers\": 28, \"num_attention_heads\": 16, \"num_key_value_heads\": 8,"
    " \"head_dim\": 128, \"hidden_act\": \"relu2\", \"max_position_embeddings\": 131072}";
static const char COSMOS3_EDGE_VISION[] =
    "{\"hidden_size\": 1152, \"intermediate_size\": 4304, \"num_hidden_layers\": 27,"
    " \"num_attention_heads\": 16, \"num_channels\": 3, \"patch_size\": 16,"
    " \"num_patches\": 256, \"spatial_merge_size\": 2}";

static const struct gs_mlp_names COSMOS3_EDGE_MLP = {NULL, "fc1", "fc2", NULL};

/* The largest image Cosmos3EdgeImageProcessor accepts (image_processing_cosmos3_edge.py:
 * size longest_edge 4,096^2 pixels, GLM-4V's smart_resize to multiples of patch x merge): 16,384
 * tokens. */
#define COSMOS3_EDGE_MAX_PIXELS 16777216ULL

/* Cosmos3EdgeForConditionalGeneration (transformers models/cosmos3_edge/; vLLM cosmos3_edge.py),
 * NVIDIA Cosmos 3 Edge's reasoner: the text model above, a SigLIP 2 tower (an nn.Linear patch
 * embedding, num_patches learned positions resized to each image, no pooling head) and
 * Cosmos3EdgePatchMerger - a LayerNorm over the tower width, the spatial merge of merge^2 patches,
 * linear_fc1 to projector_hidden_size (11,520; older configs give it as projector_config's
 * merger_intermediate_size, or its misspelt merger_intermedia), GELU, linear_fc2 to the text width,
 * both biased. The unified checkpoint's generator, action and VAE tensors are dropped at load and
 * not counted. An older layout (Cosmos3-Edge-Reasoner) writes the text as a nemotron_h config of
 * 56 half-layers ("*-" x 28), read by that reader: the same tensors. Cosmos3-Edge: text
 * 1,946,273,792, tower 412,649,712, merger 76,692,992 = 2,435,616,496 (a published measurement of
 * the understanding model: 2.4356B). */
static void read_cosmos3_edge(struct model_reader *r, struct gs_arch *a)
{
    struct model_reader text, vision, projector;
    json_t *owned = NULL;
    struct model_reader peek;
    const bool has = rd_sub(r, "text_config", &peek);
    if (!r->ok)
        return;
    const char *type = has ? rd_string(&peek, "model_type") : NULL;
    const bool legacy = type != NULL && strcmp(type, "nemotron_h") == 0;
    if (!legacy && type != NULL && strcmp(type, "cosmos3_edge_text") != 0) {
        rd_fail(&peek, "model_type", GS_ERR_UNSUPPORTED,
                "must be cosmos3_edge_text (or nemotron_h, the older layout)");
        r->ok = false;
        return;
    }
    if (!open_sub(r, "text_config", legacy ? NULL : COSMOS3_EDGE_TEXT, COSMOS3_EDGE_TEXT, NULL,
                  &text, &owned))
        return;
    if (json_object_set_new(owned, "tie_word_embeddings", json_false()) != 0)
        rd_fail(r, "text_config", GS_ERR_NOMEM, "out of memory reading the nested config");
    else if (legacy)
        read_text_as(&text, a, "nemotron_h");
    else /* Cosmos3EdgeTextModel: Nemotron 3 Dense's layer, an ungated fc1/fc2 MLP (relu2) */
        decoder_read_ungated(&text, a, &COSMOS3_EDGE_MLP, 128);
    close_sub(r, &text, owned);
    uint64_t width = rd_dim(r, NAMES("projector_hidden_size"), false, 0);
    if (width == 0 && rd_sub(r, "projector_config", &projector))
        width =
            rd_dim(&projector, NAMES("merger_intermediate_size", "merger_intermedia"), false, 0);
    if (width == 0)
        width = 11520; /* Cosmos3EdgeConfig.projector_hidden_size */
    uint64_t vh = 0;
    if (!open_headless_siglip(r, a, COSMOS3_EDGE_VISION, true, &vision, &owned, &vh))
        return;
    const uint64_t merge = rd_dim(&vision, NAMES("spatial_merge_size"), true, 0);
    const uint64_t patch = rd_dim(&vision, NAMES("patch_size"), true, 0);
    const uint64_t channels = rd_dim(&vision, NAMES("num_channels"), true, 0);
    close_sub(r, &vision, owned);
    if (!r->ok || vh == 0)
        return;
    const size_t m = GS_BLOCKS_MAX;
    norm(a, m, "projector.norm", GS_PART_VISION, true, vh);
    linear(a, m, "projector.linear_fc1", GS_SPLIT_NONE, GS_PART_VISION, true, vh * merge * merge,
           width);
    linear(a, m, "projector.linear_fc2", GS_SPLIT_NONE, GS_PART_VISION, true, width,
           a->hidden_size);
    const struct gs_mm_item item =
        rd_qwen_vl_item(COSMOS3_EDGE_MAX_PIXELS, channels, 1, patch, merge);
    if (item.tokens != 0)
        a->mm_image = item;
    a->mm_embed_width = a->hidden_size;
    a->rope_mrope = true; /* Cosmos3EdgeTextRotaryEmbedding: interleaved M-RoPE, mrope_section */
}

/* ---------------------------------------------------------------- InternVL */

/* InternVLVisionConfig's defaults (transformers models/internvl/configuration_internvl.py): the
 * InternViT-300M's shapes but attention_bias, which the 300M checkpoints set true. */
static const char INTERNVL_VISION[] =
    "{\"hidden_size\": 1024, \"num_hidden_layers\": 24, \"num_attention_heads\": 16,"
    " \"intermediate_size\": 4096, \"attention_bias\": false, \"use_qk_norm\": false,"
    " \"norm_type\": \"layer_norm\", \"image_size\": [448, 448], \"patch_size\": [14, 14],"
    " \"num_channels\": 3, \"use_mask_token\": false}";

/* QianfanOCRVisionConfig's defaults (configuration_qianfan_ocr.py): InternVLVisionConfig's but
 * for attention_bias (true), left out here with use_qk_norm so that a config written with the
 * remote names (qkv_bias, qk_normalization: vLLM's QianfanOCRConfig) is read by them. */
static const char QIANFAN_VISION[] =
    "{\"hidden_size\": 1024, \"num_hidden_layers\": 24, \"num_attention_heads\": 16,"
    " \"intermediate_size\": 4096, \"norm_type\": \"layer_norm\", \"image_size\": [448, 448],"
    " \"patch_size\": [14, 14], \"num_channels\": 3, \"use_mask_token\": false}";

/* The tiles an InternVL image takes at most: max_dynamic_patch (12 in every published
 * InternVL2.5/3/3.5 config; GotOcr2ImageProcessor's max_patches for the -HF checkpoints) crops
 * of the tile size and, with more than one, a thumbnail of the whole image (use_thumbnail; the
 * HF processor's crop_to_patches) - vLLM's profile takes the same 13 (internvl.py
 * get_image_size_with_most_features over resolve_internvl_min_max_num, max + 1 with a
 * thumbnail). */
#define INTERNVL_MAX_TILES 12ULL

/* A square-or-pair size member (InternVL's image_size and patch_size: an int in the remote
 * config, [h, w] in InternVLVisionConfig): its two sides. */
static void size_pair(struct model_reader *r, const char *name, uint64_t side[2])
{
    const json_t *list = NULL;
    if (!json_is_array(rd_get(r, name))) {
        side[0] = side[1] = rd_dim(r, NAMES(name), true, 0);
        return;
    }
    const size_t n = rd_array(r, name, &list);
    side[0] = side[1] = 0;
    for (size_t i = 0; i < 2 && n == 2; i++) {
        const json_t *v = json_array_get(list, i);
        if (json_is_integer(v) && json_integer_value(v) > 0 &&
            (uint64_t)json_integer_value(v) <= GS_ARCH_DIM_MAX)
            side[i] = (uint64_t)json_integer_value(v);
    }
    if (side[0] == 0 || side[1] == 0)
        rd_fail(r, name, GS_ERR_INVALID, "must be a positive integer or two of them");
}

/* The three forms of an InternVL config: transformers' InternVLForConditionalGeneration (the -HF
 * checkpoints), the remote InternVLChatModel, and Qianfan-OCR (transformers' QianfanOCR classes,
 * the -HF form's tensors with other defaults). */
enum internvl_form { INTERNVL_HF, INTERNVL_REMOTE, INTERNVL_QIANFAN };

/* InternViT (the -HF form's InternVLVisionModel, modeling_internvl.py; the remote form's
 * InternVisionModel, OpenGVLab/InternVL modeling_intern_vit.py; the same tensors, the remote
 * qkv fused): a biased Conv2d patch embedding, a class token and a learned position table of
 * (image / patch)^2 + 1 rows; each layer norm1/norm2 (LayerNorm or RMSNorm by norm_type),
 * q/k/v biased by attention_bias (remote: qkv_bias), the output projection always biased,
 * with use_qk_norm (remote: qk_normalization) an RMSNorm over the whole q and k width (not per
 * head), the layer scales lambda_1/lambda_2 (ls1, ls2), an ungated GELU MLP fc1/fc2 with
 * biases; no final norm (use_mean_pooling: Identity). Every layer is kept (vision_feature_layer
 * and select_layer -1 in every published config). InternViT-300M: 304,012,288; InternViT-6B
 * (3,200 wide, 45 layers, RMSNorm, q/k norms, no qkv bias): 5,536,496,000. Returns the width,
 * 0 when the reader failed. */
static uint64_t read_internvit(struct model_reader *v, struct gs_arch *a, enum internvl_form form,
                               uint64_t image[2], uint64_t patch[2], uint64_t *channels)
{
    const bool remote = form == INTERNVL_REMOTE;
    const uint64_t vh = rd_dim(v, NAMES("hidden_size"), true, 0);
    const uint64_t layers = rd_dim(v, NAMES("num_hidden_layers"), true, 0);
    const uint64_t heads = rd_dim(v, NAMES("num_attention_heads"), true, 0);
    const uint64_t inner = rd_dim(v, NAMES("intermediate_size"), true, 0);
    bool bias = rd_flag(v, remote ? "qkv_bias" : "attention_bias", false);
    bool qk_norm = rd_flag(v, remote ? "qk_normalization" : "use_qk_norm", remote);
    if (form == INTERNVL_QIANFAN) {
        /* QianfanOCRVisionConfig (configuration_qianfan_ocr.py): attention_bias true and
         * use_qk_norm false by default; vLLM's own QianfanOCRConfig writes the remote names
         * (qkv_bias, qk_normalization) with the same defaults */
        bias = rd_get(v, "attention_bias") != NULL ? rd_flag(v, "attention_bias", true)
                                                   : rd_flag(v, "qkv_bias", true);
        qk_norm = rd_get(v, "use_qk_norm") != NULL ? rd_flag(v, "use_qk_norm", false)
                                                   : rd_flag(v, "qk_normalization", false);
    }
    const char *type = rd_string(v, "norm_type");
    const bool layer_norm = type != NULL ? strcmp(type, "layer_norm") == 0 : !remote;
    if (type != NULL && !layer_norm && strcmp(type, "rms_norm") != 0)
        rd_fail(v, "norm_type", GS_ERR_INVALID, "must be \"layer_norm\" or \"rms_norm\"");
    size_pair(v, "image_size", image);
    size_pair(v, "patch_size", patch);
    *channels = remote ? 3 : rd_dim(v, NAMES("num_channels"), false, 3);
    const bool mask = !remote && rd_flag(v, "use_mask_token", false);
    if (!v->ok)
        return 0;
    static const struct attn_layout hf = {"attention.q_proj",
                                          "attention.k_proj",
                                          "attention.v_proj",
                                          "attention.projection_layer",
                                          NULL,
                                          false,
                                          false,
                                          false,
                                          true};
    struct attn_layout layout = hf;
    if (remote)
        layout = (struct attn_layout){NULL,  NULL,  NULL,  "attn.proj", "attn.qkv",
                                      false, false, false, true};
    layout.q_bias = layout.k_bias = layout.v_bias = bias;
    const size_t b = gs_arch_new_block(a);
    const struct gs_attention s = encoder_spec(heads, per_head(vh, heads));
    attention(a, b, vh, vh, &s, &layout, false);
    mlp(a, b, vh, inner, false, true, &CLIP_FC);
    norm(a, b, "layernorm_before", GS_PART_NORMS, layer_norm, vh);
    norm(a, b, "layernorm_after", GS_PART_NORMS, layer_norm, vh);
    if (qk_norm) {
        norm(a, b, "attention.q_norm", GS_PART_ATTENTION, false, vh);
        norm(a, b, "attention.k_norm", GS_PART_ATTENTION, false, vh);
    }
    tensor(a, b, "lambda_1", GS_PART_VISION, 1, vh);
    tensor(a, b, "lambda_2", GS_PART_VISION, 1, vh);
    gs_arch_tower(a, "vision_tower", b, GS_PART_VISION, layers, false);
    const size_t m = GS_BLOCKS_MAX;
    const uint64_t positions = (image[0] / patch[0]) * (image[1] / patch[1]) + 1;
    tensor(a, m, "vision_tower.embeddings.patch_embeddings", GS_PART_VISION,
           *channels * patch[0] * patch[1], vh);
    tensor(a, m, "vision_tower.embeddings.patch_embeddings.bias", GS_PART_VISION, 1, vh);
    tensor(a, m, "vision_tower.embeddings.cls_token", GS_PART_VISION, 1, vh);
    if (mask)
        tensor(a, m, "vision_tower.embeddings.mask_token", GS_PART_VISION, 1, vh);
    add(a, m, "vision_tower.embeddings.position_embeddings", GS_MODULE_EMBEDDING, GS_SPLIT_NONE,
        GS_PART_VISION, 0, positions, vh);
    return vh;
}

/* The model_type of a language model's config: its own, else the type whose class
 * architectures[0] names (the remote llm_config builds from it). */
static const char *text_model_type(const struct model_reader *t)
{
    const char *type = rd_string(t, "model_type");
    const char *arch = rd_architecture(t);
    static const struct model_type *const tables[] = {MODELS_DECODER, MODELS_MOE};
    for (size_t i = 0; type == NULL && arch != NULL && i < 2; i++)
        for (const struct model_type *m = tables[i]; m->model_type; m++)
            if (m->architecture != NULL && strcmp(m->architecture, arch) == 0)
                return m->model_type;
    return type;
}

/* InternVL2.5, InternVL3 and InternVL3.5 in both published forms: InternVLForConditionalGeneration
 * (transformers models/internvl/modeling_internvl.py; the -HF checkpoints, model_type internvl:
 * text_config, vision_config) and the remote InternVLChatModel (OpenGVLab/InternVL
 * modeling_internvl_chat.py; model_type internvl_chat: llm_config, vision_config, the remote
 * InternVisionConfig's keys). The language model is the one its config's model_type names
 * (Qwen2.5, Qwen3, Qwen3-MoE, gpt-oss, InternLM2, Llama; -HF: text_config's, qwen2 when it names
 * none), read by its own reader. The head is untied in every published checkpoint: the remote
 * InternVLChatConfig up to InternVL3 forces tie_word_embeddings false on itself and its
 * llm_config, InternVL3.5's copies the llm_config's (false in each); the -HF checkpoints store
 * lm_head apart, and transformers 5 leaves two stored tensors that differ untied whatever the
 * wrapper's flag (modeling_utils.py tie_weights: "both are present in the checkpoints with
 * different values, so we will NOT tie them") - the text_config's own flag decides here. The
 * projector (multi_modal_projector; remote mlp1) reads the pixel-shuffled tower output,
 * vision x (1 / downsample_ratio)^2 wide: a LayerNorm, linear_1 to the text width, GELU,
 * linear_2, both biased. An image is up to 12 tiles and a thumbnail of (image / patch)^2 x
 * downsample_ratio^2 tokens each (256 at 448 px); the tower runs each tile as its patches and the
 * class token. Published totals reproduced to the parameter (HF safetensors metadata):
 * InternVL2.5-1B 938,193,024, -4B 3,712,637,952 (its untied head), -78B 78,408,318,336. */
static void read_internvl_family(struct model_reader *r, struct gs_arch *a, enum internvl_form form)
{
    const bool remote = form == INTERNVL_REMOTE, qianfan = form == INTERNVL_QIANFAN;
    if (remote && (rd_dim(r, NAMES("use_backbone_lora"), false, 0) != 0 ||
                   rd_dim(r, NAMES("use_llm_lora"), false, 0) != 0)) {
        rd_fail(r,
                rd_dim(r, NAMES("use_backbone_lora"), false, 0) != 0 ? "use_backbone_lora"
                                                                     : "use_llm_lora",
                GS_ERR_UNSUPPORTED,
                "a checkpoint that wraps its layers in LoRA at load is not one gpusizer reads");
        return;
    }
    const double ratio = rd_number(r, "downsample_ratio", 0.5);
    const uint64_t shuffle = ratio > 0 && ratio <= 1 ? (uint64_t)(1.0 / ratio + 1e-9) : 0;
    if (shuffle == 0 || shuffle > 16 || (double)shuffle * ratio < 0.999999 ||
        (double)shuffle * ratio > 1.000001)
        rd_fail(r, "downsample_ratio", GS_ERR_INVALID,
                "must be 1 / n for a whole n from 1 to 16 (the pixel shuffle's factor)");
    /* the tiling keys: the remote config's, with its defaults; vLLM's QianfanOCRConfig
     * (vllm QianfanOCRConfig.__init__) the same keys with dynamic tiles, a thumbnail and 12 at
     * most by default, as the -HF processor's */
    const bool keys = remote || qianfan;
    const bool dynamic = !keys || rd_flag(r, "dynamic_image_size", qianfan);
    const bool thumbnail = !keys || rd_flag(r, "use_thumbnail", qianfan);
    const uint64_t tiles_max =
        dynamic
            ? (keys ? rd_dim(r, NAMES("max_dynamic_patch"), false, qianfan ? INTERNVL_MAX_TILES : 6)
                    : INTERNVL_MAX_TILES)
            : 1;
    const uint64_t forced = keys ? rd_dim(r, NAMES("force_image_size"), false, 0) : 0;
    struct model_reader text, vision;
    json_t *owned = NULL;
    const char *sub = remote ? "llm_config" : "text_config";
    struct model_reader peek;
    const bool has = rd_sub(r, sub, &peek);
    if (!r->ok)
        return;
    if (!has) {
        rd_fail(r, sub, GS_ERR_INVALID, "is required: it is the language model");
        return;
    }
    const char *type = text_model_type(&peek);
    char text_type[64];
    /* text_config's model_type when it names none: InternVLConfig's qwen2, QianfanOCRConfig's
     * qwen3 (configuration_qianfan_ocr.py) */
    snprintf(text_type, sizeof(text_type), "%s",
             type != NULL ? type
             : remote     ? ""
             : qianfan    ? "qwen3"
                          : "qwen2");
    if (!open_sub(r, sub, NULL, NULL, text_type[0] ? text_type : NULL, &text, &owned))
        return;
    /* Qianfan-OCR: transformers 5 ties by the wrapper's tie_word_embeddings (modeling_utils.py
     * tie_weights), false by default in QianfanOCRConfig, and the released weights store
     * lm_head apart (conversion_mapping.py renames language_model.lm_head) */
    if ((remote || qianfan) &&
        json_object_set_new(owned, "tie_word_embeddings",
                            json_boolean(qianfan && rd_flag(r, "tie_word_embeddings", false))) != 0)
        rd_fail(r, sub, GS_ERR_NOMEM, "out of memory reading the nested config");
    else
        read_text_as(&text, a, text_type[0] ? text_type : NULL);
    close_sub(r, &text, owned);
    const char *vision_defaults = remote ? "{}" : qianfan ? QIANFAN_VISION : INTERNVL_VISION;
    if (!r->ok ||
        !open_sub(r, "vision_config", vision_defaults, vision_defaults, NULL, &vision, &owned))
        return;
    uint64_t image[2], patch[2], channels = 0;
    const uint64_t vh = read_internvit(&vision, a, form, image, patch, &channels);
    close_sub(r, &vision, owned);
    if (!r->ok || vh == 0)
        return;
    const uint64_t in = vh * shuffle * shuffle, th = a->hidden_size;
    const size_t m = GS_BLOCKS_MAX;
    norm(a, m, "multi_modal_projector.layer_norm", GS_PART_VISION, true, in);
    linear(a, m, "multi_modal_projector.linear_1", GS_SPLIT_NONE, GS_PART_VISION, true, in, th);
    linear(a, m, "multi_modal_projector.linear_2", GS_SPLIT_NONE, GS_PART_VISION, true, th, th);
    /* the tile the processor cuts: force_image_size where the remote config sets it */
    const uint64_t side[2] = {forced ? forced : image[0], forced ? forced : image[1]};
    const uint64_t grid = (side[0] / patch[0]) * (side[1] / patch[1]);
    const uint64_t tile_tokens = grid / (shuffle * shuffle);
    const uint64_t tiles = tiles_max + (thumbnail && tiles_max > 1 ? 1 : 0);
    bool ovf = false;
    const uint64_t pixels =
        gs_mul(tiles, gs_mul(channels, gs_mul(side[0], side[1], &ovf), &ovf), &ovf);
    if (ovf || tile_tokens == 0 || tiles_max > 64) {
        rd_fail(r, remote ? "max_dynamic_patch" : "vision_config", GS_ERR_RANGE,
                "an image's tiles are not ones gpusizer sizes (at most 64 tiles of at least one "
                "token)");
        return;
    }
    a->mm_image.tokens = tiles * tile_tokens;
    a->mm_image.crop_tokens = tile_tokens;
    a->mm_image.patches = tiles * grid;
    a->mm_image.pixels = pixels;
    a->mm_image.layout = GS_MM_CROPS;
    a->mm_image.class_positions = 1;
    a->mm_embed_width = th;
}

static void read_internvl(struct model_reader *r, struct gs_arch *a)
{
    read_internvl_family(r, a, INTERNVL_HF);
}

static void read_internvl_chat(struct model_reader *r, struct gs_arch *a)
{
    read_internvl_family(r, a, INTERNVL_REMOTE);
}

/* Qianfan-OCR (transformers models/qianfan_ocr/modular_qianfan_ocr.py; vLLM qianfan_ocr.py
 * QianfanOCRForConditionalGeneration over InternVLChatModel): InternVL's -HF model with the same
 * tensors - InternViT-300M (its layers under vision_tower.layers, names only), the pixel-shuffle
 * projector - over a Qwen3 language model (Qwen3-4B's shapes in the release), with InternVL's
 * defaults changed: q/k/v biased, the text model Qwen3, the head untied. Its card's shapes (24
 * ViT layers, 256 tokens a 448 px tile, Qwen3-4B) give 304,012,288 + 17,052,672 + 4,411,424,256
 * = 4,732,489,216; no exact published total was found. */
static void read_qianfan_ocr(struct model_reader *r, struct gs_arch *a)
{
    read_internvl_family(r, a, INTERNVL_QIANFAN);
}

/* ------------------------------------------------------------- ERNIE-4.5-VL */

/* Ernie4_5_VLMoeTextConfig's and Ernie4_5_VLMoeVisionConfig's defaults (transformers
 * models/ernie4_5_vl_moe/configuration_ernie4_5_vl_moe.py, documented as
 * baidu/ERNIE-4.5-VL-28B-A3B-PT's; moe_intermediate_size from __post_init__). */
static const char ERNIE45_VL_TEXT[] =
    "{\"vocab_size\": 103424, \"hidden_size\": 2560, \"intermediate_size\": 12288,"
    " \"num_hidden_layers\": 28, \"num_attention_heads\": 20, \"num_key_value_heads\": 4,"
    " \"max_position_embeddings\": 131072, \"use_bias\": false,"
    " \"moe_intermediate_size\": [1536, 512], \"moe_k\": 6, \"moe_num_experts\": 64,"
    " \"moe_num_shared_experts\": 2}";
static const char ERNIE45_VL_VISION[] =
    "{\"depth\": 32, \"hidden_size\": 1280, \"num_heads\": 16, \"in_channels\": 3,"
    " \"patch_size\": 14, \"spatial_merge_size\": 2, \"intermediate_size\": 5120,"
    " \"temporal_merge_size\": 2}";

/* The largest image: Ernie4_5_VLMoeImageProcessor's size longest_edge 28 x 28 x 6,177 pixels
 * (image_processing_ernie4_5_vl_moe.py), the bound vLLM's profile reads through the same
 * processor (ernie45_vl.py get_image_size_with_most_features). */
#define ERNIE45_VL_MAX_PIXELS (28ULL * 28 * 6177)

/* A member that is one value for both modalities or a [text, vision] pair (the remote config's
 * moe_num_experts, moe_intermediate_size, moe_layer_start_index and moe_layer_end_index). */
static void modality_pair(struct model_reader *r, const char *name, uint64_t fallback,
                          uint64_t out[2])
{
    out[0] = out[1] = fallback;
    if (!json_is_array(rd_get(r, name))) {
        out[0] = out[1] = rd_dim(r, NAMES(name), false, fallback);
        return;
    }
    const json_t *list = NULL;
    if (rd_array(r, name, &list) != 2) {
        rd_fail(r, name, GS_ERR_INVALID, "must be one value or a [text, vision] pair");
        return;
    }
    for (size_t i = 0; i < 2; i++) {
        const json_t *v = json_array_get(list, i);
        if (json_is_integer(v) && json_integer_value(v) >= 0 &&
            (uint64_t)json_integer_value(v) <= GS_ARCH_DIM_MAX)
            out[i] = (uint64_t)json_integer_value(v);
        else
            rd_fail(r, name, GS_ERR_INVALID, "entry %zu is not a size", i);
    }
}

/* ERNIE-4.5-VL's language model (Ernie4_5_VLMoeTextModel, modeling_ernie4_5_vl_moe.py; the
 * checkpoints' remote Ernie4_5_VLMoeForConditionalGeneration, served by vLLM's ernie45_vl_moe.py):
 * ERNIE 4.5's attention and dense MLP (use_bias), and on the sparse layers modality-isolated
 * experts - Ernie4_5_VLMoeMoeBlock's text_moe (moe_num_experts experts moe_intermediate_size[0]
 * wide) and vision_moe (as many, moe_intermediate_size[1] wide), each behind its own
 * Ernie4_5_VLMoeMoeTopKRouter (a bare fp32 weight [E, h] and moe_statics.e_score_correction_bias
 * [1, E], an nn.Parameter with requires_grad False, so counted) with the same top moe_k - and
 * one shared MLP moe_intermediate_size[0] x moe_num_shared_experts wide. The sparse layers: the
 * native config's mlp_layer_types (by default every layer but the first); the remote one's
 * (i + 1) % moe_layer_interval == 0 between min(moe_layer_start_index) and
 * max(moe_layer_end_index), inclusive (the converter convert_ernie4_5_vl_moe_to_hf.py and vLLM's
 * Ernie4_5_VLMoeDecoderLayer); a sparse layer outside one modality's own range is a layout
 * vLLM builds differently from transformers and is refused. Text tokens use the text experts
 * alone: the vision experts and their router count under the vision part, with the tower, so
 * active_parameters is a text token's; they are experts all the same (GS_MOD_EXPERT: spread over
 * expert parallelism in serving, quantized with the others). Two consequences of that part:
 * training.freeze_vision_tower freezes them with the tower, and training's expert-parallel split
 * of the expert weights counts the text experts only. */
static void read_ernie45_vl_text(struct model_reader *t, struct gs_arch *a, bool remote)
{
    struct decoder_plan plan;
    decoder_read_dims(t, a, &plan, true, 0, false);
    uint64_t experts[2], width[2], start[2], end[2];
    modality_pair(t, "moe_num_experts", remote ? 0 : 64, experts);
    modality_pair(t, "moe_intermediate_size", 0, width);
    const uint64_t shared = rd_dim(t, NAMES("moe_num_shared_experts"), false, 0);
    struct gs_moe *m = &plan.experts;
    m->top_k = rd_dim(t, NAMES("moe_k"), true, 0);
    m->experts = experts[0];
    m->width = width[0];
    m->shared_width = width[0] * shared;
    m->router_extra = experts[0];
    m->router_parameter = true;
    m->router_fp32 = true;
    m->gated = true;
    if (t->ok && (experts[0] != experts[1] || experts[0] == 0 || width[0] == 0 || width[1] == 0))
        rd_fail(t, "moe_num_experts", GS_ERR_INVALID,
                "needs as many text as vision experts (one value or an equal pair) and both "
                "moe_intermediate_size widths");
    if (remote) {
        modality_pair(t, "moe_layer_start_index", 1, start);
        modality_pair(t, "moe_layer_end_index", plan.layers ? plan.layers - 1 : 0, end);
        const uint64_t interval = rd_size(t, NAMES("moe_layer_interval"), 1);
        const uint64_t lo = start[0] < start[1] ? start[0] : start[1];
        const uint64_t hi = end[0] > end[1] ? end[0] : end[1];
        for (uint64_t l = 0; t->ok && l < plan.layers && l < GS_LAYERS_MAX; l++) {
            plan.moe[l] = (l + 1) % interval == 0 && l >= lo && l <= hi;
            for (int k = 0; plan.moe[l] && k < 2; k++)
                if (l < start[k] || l > end[k])
                    rd_fail(t, "moe_layer_start_index", GS_ERR_UNSUPPORTED,
                            "layer %llu routes but is outside the %s experts' range: vLLM builds "
                            "a dense MLP there, transformers the experts",
                            (unsigned long long)l, k ? "vision" : "text");
        }
    } else if (!rd_kind_list(t, "mlp_layer_types", "sparse", "dense", plan.layers, plan.moe) &&
               t->ok) {
        for (uint64_t l = 0; l < plan.layers && l < GS_LAYERS_MAX; l++)
            plan.moe[l] = l >= 1;
    }
    const bool bias = rd_flag(t, "use_bias", false);
    if (!t->ok)
        return;
    const struct decoder_traits traits = {
        .norms = 2, .qkv_bias = bias, .o_bias = bias, .mlp_bias = bias, .head_bias = bias};
    decoder_build(t, a, &plan, &traits);
    const uint64_t h = a->hidden_size, E = experts[1], w = width[1];
    const unsigned f = GS_MOD_QUANT | GS_MOD_EXPERT;
    for (size_t b = 0; b < a->block_count; b++) {
        if (a->blocks[b].mlp.kind != GS_MLP_MOE)
            continue;
        add(a, b, "mlp.vision_moe.gate", GS_MODULE_TENSOR, GS_SPLIT_NONE, GS_PART_VISION, 0, E, h);
        tensor(a, b, "mlp.vision_moe.gate.moe_statics.e_score_correction_bias", GS_PART_VISION, 1,
               E);
        gs_block_module(a, b, "mlp.vision_moe.experts.gate_proj", GS_MODULE_LINEAR, GS_SPLIT_COLUMN,
                        GS_PART_VISION, f, h, w, E);
        gs_block_module(a, b, "mlp.vision_moe.experts.up_proj", GS_MODULE_LINEAR, GS_SPLIT_COLUMN,
                        GS_PART_VISION, f, h, w, E);
        gs_block_module(a, b, "mlp.vision_moe.experts.down_proj", GS_MODULE_LINEAR, GS_SPLIT_ROW,
                        GS_PART_VISION, f, w, h, E);
    }
}

/* ERNIE-4.5-VL-28B-A3B and -424B-A47B: Ernie4_5_VLMoeForConditionalGeneration, the native config
 * (ernie4_5_vl_moe: text_config, vision_config) or the checkpoints' own (ernie4_5_moe_vl: the text
 * keys at the top level with per-modality lists, vision_config, pixel_hidden_size,
 * spatial_conv_size, temporal_conv_size, use_temporal_conv). The language model:
 * read_ernie45_vl_text, the head tied where tie_word_embeddings (default true) says. The tower
 * (Ernie4_5_VLMoeVisionTransformerPretrainedModel; the remote DFNRopeVisionTransformer, vLLM
 * Ernie4_5_VisionTransformer): patch_embed a Linear without bias over channels x patch^2 values
 * (temporal patch 1), blocks of LayerNorm norm1/norm2, a biased fused attn.qkv and attn.proj, a
 * quick-GELU fc1/fc2 (intermediate_size; remote embed_dim x mlp_ratio) with biases, the final
 * LayerNorm ln; the remote vision config's hidden_size default (3,584) is not the tower's width,
 * embed_dim is. The resampler (Ernie4_5_VLMoeVariableResolutionResamplerModel): spatial_linear
 * (fc1, fc2 and a LayerNorm over vision x merge^2), temporal_linear (fc1 from twice that for
 * temporal_merge frames, fc2, LayerNorm; the remote model only with use_temporal_conv), mlp to the
 * text width with a bias and after_norm, an RMSNorm. ERNIE-4.5-VL-28B-A3B by hand: 29,399,294,336
 * (Megatron-Bridge's inventory lists the checkpoint at 29.4B). Images: merge^2 patches a token up
 * to the processor's bound; the text rope is 3-D (mrope_section). */
static void read_ernie45_vl_family(struct model_reader *r, struct gs_arch *a, bool remote)
{
    const bool tie = rd_flag(r, "tie_word_embeddings", true);
    struct model_reader text, vision;
    json_t *owned = NULL;
    if (remote) {
        read_ernie45_vl_text(r, a, true);
    } else {
        if (!open_sub(r, "text_config", ERNIE45_VL_TEXT, ERNIE45_VL_TEXT, NULL, &text, &owned))
            return;
        if (json_object_set_new(owned, "tie_word_embeddings", json_boolean(tie)) != 0)
            rd_fail(r, "text_config", GS_ERR_NOMEM, "out of memory reading the nested config");
        else
            read_ernie45_vl_text(&text, a, false);
        close_sub(r, &text, owned);
    }
    if (!r->ok || !open_sub(r, "vision_config", remote ? "{}" : ERNIE45_VL_VISION,
                            remote ? "{}" : ERNIE45_VL_VISION, NULL, &vision, &owned))
        return;
    const uint64_t depth = rd_dim(&vision, NAMES("depth"), true, 0);
    const uint64_t vh =
        rd_dim(&vision, remote ? NAMES("embed_dim") : NAMES("hidden_size"), true, 0);
    const uint64_t heads = rd_dim(&vision, NAMES("num_heads"), true, 0);
    const uint64_t channels = rd_dim(&vision, NAMES("in_channels", "in_chans"), false, 3);
    const uint64_t patch = rd_dim(&vision, NAMES("patch_size"), true, 0);
    uint64_t inner = 0, merge = 0, temporal = 0;
    bool temporal_linear = true;
    if (remote) {
        const double ratio = rd_number(&vision, "mlp_ratio", 4.0);
        inner = ratio > 0 && ratio < 64 ? (uint64_t)((double)vh * ratio) : 0;
        merge = rd_dim(r, NAMES("spatial_conv_size"), true, 0);
        temporal = rd_dim(r, NAMES("temporal_conv_size"), true, 0);
        temporal_linear = rd_flag(r, "use_temporal_conv", true);
        const uint64_t pixel = rd_dim(r, NAMES("pixel_hidden_size"), false, vh);
        if (r->ok && pixel != vh)
            rd_fail(r, "pixel_hidden_size", GS_ERR_INVALID,
                    "is %llu, not the tower's embed_dim %llu", (unsigned long long)pixel,
                    (unsigned long long)vh);
    } else {
        inner = rd_dim(&vision, NAMES("intermediate_size"), true, 0);
        merge = rd_dim(&vision, NAMES("spatial_merge_size"), true, 0);
        temporal = rd_dim(&vision, NAMES("temporal_merge_size"), true, 0);
    }
    if (vision.ok && inner == 0)
        rd_fail(&vision, "mlp_ratio", GS_ERR_INVALID, "gives no MLP width");
    if (!vision.ok || !r->ok) {
        close_sub(r, &vision, owned);
        return;
    }
    static const struct attn_layout fused = {NULL, NULL, NULL, "attn.proj", "attn.qkv",
                                             true, true, true, true};
    const size_t b = gs_arch_new_block(a);
    const struct gs_attention s = encoder_spec(heads, per_head(vh, heads));
    attention(a, b, vh, vh, &s, &fused, false);
    mlp(a, b, vh, inner, false, true, &CLIP_FC);
    norm(a, b, "norm1", GS_PART_NORMS, true, vh);
    norm(a, b, "norm2", GS_PART_NORMS, true, vh);
    gs_arch_tower(a, "vision_tower", b, GS_PART_VISION, depth, false);
    const size_t m = GS_BLOCKS_MAX;
    linear(a, m, "vision_tower.patch_embed.proj", GS_SPLIT_NONE, GS_PART_VISION, false,
           channels * patch * patch, vh);
    norm(a, m, "vision_tower.ln", GS_PART_VISION, true, vh);
    const uint64_t sd = vh * merge * merge, th = a->hidden_size;
    linear(a, m, "resampler_model.spatial_linear.fc1", GS_SPLIT_NONE, GS_PART_VISION, true, sd, sd);
    linear(a, m, "resampler_model.spatial_linear.fc2", GS_SPLIT_NONE, GS_PART_VISION, true, sd, sd);
    norm(a, m, "resampler_model.spatial_linear.ln", GS_PART_VISION, true, sd);
    if (temporal_linear) {
        linear(a, m, "resampler_model.temporal_linear.fc1", GS_SPLIT_NONE, GS_PART_VISION, true,
               sd * temporal, sd);
        linear(a, m, "resampler_model.temporal_linear.fc2", GS_SPLIT_NONE, GS_PART_VISION, true, sd,
               sd);
        norm(a, m, "resampler_model.temporal_linear.ln", GS_PART_VISION, true, sd);
    }
    linear(a, m, "resampler_model.mlp", GS_SPLIT_NONE, GS_PART_VISION, true, sd, th);
    norm(a, m, "resampler_model.after_norm", GS_PART_VISION, false, th);
    close_sub(r, &vision, owned);
    const struct gs_mm_item item =
        rd_qwen_vl_item(ERNIE45_VL_MAX_PIXELS, channels, 1, patch, merge);
    if (item.tokens != 0)
        a->mm_image = item;
    a->mm_embed_width = th;
    a->rope_mrope = true;
}

static void read_ernie45_vl(struct model_reader *r, struct gs_arch *a)
{
    read_ernie45_vl_family(r, a, false);
}

static void read_ernie45_moe_vl(struct model_reader *r, struct gs_arch *a)
{
    read_ernie45_vl_family(r, a, true);
}

/* ------------------------------------------------------------ PaddleOCR-VL */

/* PaddleOCRVisionConfig's defaults (configuration_paddleocr_vl.py): a SigLIP-so400m tower. */
static const char PADDLEOCR_VISION[] =
    "{\"hidden_size\": 1152, \"intermediate_size\": 4304, \"num_hidden_layers\": 27,"
    " \"num_attention_heads\": 16, \"num_channels\": 3, \"image_size\": 384, \"patch_size\": 14,"
    " \"spatial_merge_size\": 2}";

/* The largest image a published PaddleOCR-VL processor accepts: PaddlePaddle/PaddleOCR-VL's
 * preprocessor_config.json max_pixels 2,822,400 (1,680^2: 3,600 tokens; vLLM's profile builds a
 * 1,680 x 1,680 dummy from it); PaddleOCR-VL-1.5 and -1.6, whose config.json is the same file,
 * lower it to 1,003,520 (1,280 tokens), which a config cannot tell apart. */
#define PADDLEOCR_VL_MAX_PIXELS 2822400ULL

/* PaddleOCRVLForConditionalGeneration (transformers models/paddleocr_vl/modeling_paddleocr_vl.py;
 * vLLM paddleocr_vl.py; PaddlePaddle/PaddleOCR-VL, -1.5, -1.6, "0.9B"). The language model is
 * ERNIE 4.5's (Ernie4_5 layers, head_dim 128 over a 1,024 stream; its rope 3-D, no parameter),
 * its keys at the config's top level (PaddleOCRVLConfig.__post_init__ gathers them into
 * text_config when the file has none), the head tied where the top-level tie_word_embeddings
 * (default true; false in the published file) says. The tower is SiglipVisionModel's without the
 * pooling head (PaddleOCRVisionModel: patch Conv2d with bias, a 729-row position table
 * interpolated to each image, LayerNorm layers with biased q/k/v/out_proj and fc1/fc2,
 * post_layernorm), and PaddleOCRProjector: pre_norm (a LayerNorm over the tower width), the
 * spatial merge of merge^2 patches, linear_1 (4 x width square) and linear_2 to the text width,
 * both biased. The checkpoint also stores a SigLIP pooling head and a 32,768-row
 * packing_position_embedding that transformers drops on load (_keys_to_ignore_on_load_unexpected;
 * 52,987,088 elements): not counted. PaddleOCR-VL: 905,601,648 as transformers loads it, the
 * safetensors header's 958,588,736 with those two. */
static void read_paddleocr_vl(struct model_reader *r, struct gs_arch *a)
{
    struct model_reader text, vision;
    json_t *owned = NULL;
    const bool tie = rd_flag(r, "tie_word_embeddings", true);
    if (rd_get(r, "text_config") != NULL) {
        if (!open_sub(r, "text_config", NULL, NULL, NULL, &text, &owned))
            return;
        if (json_object_set_new(owned, "tie_word_embeddings", json_boolean(tie)) != 0)
            rd_fail(r, "text_config", GS_ERR_NOMEM, "out of memory reading the nested config");
        else
            read_text_as(&text, a, "ernie4_5");
        close_sub(r, &text, owned);
    } else {
        read_text_as(r, a, "ernie4_5");
    }
    uint64_t vh = 0;
    if (!open_headless_siglip(r, a, PADDLEOCR_VISION, false, &vision, &owned, &vh))
        return;
    const uint64_t merge = rd_dim(&vision, NAMES("spatial_merge_size"), true, 0);
    const uint64_t patch = rd_dim(&vision, NAMES("patch_size"), true, 0);
    const uint64_t channels = rd_dim(&vision, NAMES("num_channels"), true, 0);
    close_sub(r, &vision, owned);
    if (!r->ok || vh == 0)
        return;
    const uint64_t in = vh * merge * merge, th = a->hidden_size;
    const size_t m = GS_BLOCKS_MAX;
    norm(a, m, "projector.pre_norm", GS_PART_VISION, true, vh);
    linear(a, m, "projector.linear_1", GS_SPLIT_NONE, GS_PART_VISION, true, in, in);
    linear(a, m, "projector.linear_2", GS_SPLIT_NONE, GS_PART_VISION, true, in, th);
    const struct gs_mm_item item =
        rd_qwen_vl_item(PADDLEOCR_VL_MAX_PIXELS, channels, 1, patch, merge);
    if (item.tokens != 0)
        a->mm_image = item;
    a->mm_embed_width = th;
    a->rope_mrope = true;
}

/* ---------------------------------------------------------- MiniCPM-V 4.6 */

/* The image vLLM profiles MiniCPM-V 4.6 with (minicpmv.py MiniCPMVProcessingInfo.
 * get_image_size_with_most_features: config image_size wide, max_slice_nums times as tall; 1,120
 * x 10,080 in the published config) as the processor slices it (image_processing_minicpmv4_6.py
 * defaults: max_slice_nums 9, scale_resolution 448, patch_size 14, downsample_mode "16x"): the
 * whole image resized to 1,344 x 168 (96 x 12 patches, 72 tokens) and a 9 x 1 grid of 448 x 448
 * slices (32 x 32 patches, 64 tokens each): 648 tokens of 10,368 patches, a token 16 patches (the
 * window merger's 2 x 2, then the merger's). An image of another aspect ratio can take up to 720
 * (a 3 x 3 grid of 72-token slices); vLLM budgets its profile's. */
#define MINICPMV4_6_IMAGE_TOKENS  648ULL
#define MINICPMV4_6_IMAGE_PATCHES 10368ULL

/* MiniCPMV4_6ForConditionalGeneration (transformers models/minicpmv4_6/modeling_minicpmv4_6.py;
 * vLLM minicpmv4_6.py): a SigLIP tower without the pooling head (MiniCPMV4_6VisionModel: the
 * patch Conv2d with bias, a learned (image_size / patch)^2 position table, LayerNorm layers with
 * biased q/k/v/out_proj and fc1/fc2, post_layernorm), the window-attention merger it runs after
 * insert_layer_id (vit_merger: biased q/k/v/out_proj and layer_norm1 over the width, pre_norm over
 * 4 x width, linear_1 4 x width to 4 x intermediate, linear_2 back to the width, all biased; built
 * in either downsample mode), then merger_times DownsampleMLPs (pre_norm over 4 x width, linear_1
 * square, linear_2 to the width, the last to the text width) and the language model of
 * text_config's model_type (Qwen3.5's text in the release, qwen3_5_text by default). transformers
 * 5 ties the head by the wrapper's tie_word_embeddings (modeling_utils.py tie_weights; default
 * false; true in the release). The release's text_config names one MTP layer that the checkpoint
 * does not store (no mtp.* tensor; vLLM's hf_to_vllm_mapper maps "mtp." to None) and
 * mamba_ssm_dtype float32, which vLLM applies only to the architectures its MODELS_CONFIG_MAP
 * lists (Qwen3.5's; not this one): neither is read. openbmb/MiniCPM-V-4.6: 522,299,312 (tower
 * and window merger) + 25,967,104 (merger) + 752,161,600 (text) = 1,300,428,016, the Hub's
 * safetensors total. The tower's layers after the window merger run on a quarter of the patches;
 * the estimate runs every layer on all of them. */
static void read_minicpmv4_6(struct model_reader *r, struct gs_arch *a)
{
    struct model_reader text, vision;
    json_t *owned = NULL;
    struct model_reader peek;
    const bool has = rd_sub(r, "text_config", &peek);
    if (!r->ok)
        return;
    if (!has) {
        rd_fail(r, "text_config", GS_ERR_INVALID, "is required: it is the language model");
        return;
    }
    const char *named = rd_string(&peek, "model_type");
    char text_type[64];
    snprintf(text_type, sizeof(text_type), "%s", named != NULL ? named : "qwen3_5_text");
    if (!open_sub(r, "text_config", NULL, NULL, NULL, &text, &owned))
        return;
    json_object_del(owned, "mtp_num_hidden_layers");
    json_object_del(owned, "mamba_ssm_dtype");
    if (json_object_set_new(owned, "tie_word_embeddings",
                            json_boolean(rd_flag(r, "tie_word_embeddings", false))) != 0)
        rd_fail(r, "text_config", GS_ERR_NOMEM, "out of memory reading the nested config");
    else
        read_text_as(&text, a, text_type);
    close_sub(r, &text, owned);
    const uint64_t times = rd_dim(r, NAMES("merger_times"), false, 1);
    uint64_t vh = 0;
    if (!open_headless_siglip(r, a, SIGLIP_VISION, false, &vision, &owned, &vh))
        return;
    const uint64_t vi = rd_dim(&vision, NAMES("intermediate_size"), true, 0);
    const uint64_t patch = rd_dim(&vision, NAMES("patch_size"), true, 0);
    const uint64_t channels = rd_dim(&vision, NAMES("num_channels"), true, 0);
    close_sub(r, &vision, owned);
    if (!r->ok || vh == 0)
        return;
    if (times > 8) {
        rd_fail(r, "merger_times", GS_ERR_RANGE, "must be at most 8");
        return;
    }
    const uint64_t th = a->hidden_size;
    const size_t m = GS_BLOCKS_MAX;
    static const char *const merger_attn[] = {
        "vision_tower.vit_merger.self_attn.q_proj", "vision_tower.vit_merger.self_attn.k_proj",
        "vision_tower.vit_merger.self_attn.v_proj", "vision_tower.vit_merger.self_attn.out_proj"};
    for (size_t i = 0; i < 4; i++)
        linear(a, m, merger_attn[i], GS_SPLIT_NONE, GS_PART_VISION, true, vh, vh);
    norm(a, m, "vision_tower.vit_merger.layer_norm1", GS_PART_VISION, true, vh);
    norm(a, m, "vision_tower.vit_merger.pre_norm", GS_PART_VISION, true, 4 * vh);
    linear(a, m, "vision_tower.vit_merger.linear_1", GS_SPLIT_NONE, GS_PART_VISION, true, 4 * vh,
           4 * vi);
    linear(a, m, "vision_tower.vit_merger.linear_2", GS_SPLIT_NONE, GS_PART_VISION, true, 4 * vi,
           vh);
    for (uint64_t i = 0; i < times; i++) {
        norm(a, m, "merger.pre_norm", GS_PART_VISION, true, 4 * vh);
        linear(a, m, "merger.linear_1", GS_SPLIT_NONE, GS_PART_VISION, true, 4 * vh, 4 * vh);
        linear(a, m, "merger.linear_2", GS_SPLIT_NONE, GS_PART_VISION, true, 4 * vh,
               i + 1 < times ? vh : th);
    }
    a->mm_image = (struct gs_mm_item){
        .tokens = MINICPMV4_6_IMAGE_TOKENS,
        .patches = MINICPMV4_6_IMAGE_PATCHES,
        .pixels = MINICPMV4_6_IMAGE_PATCHES * channels * patch * patch,
        .layout = GS_MM_PER_IMAGE,
    };
    a->mm_embed_width = th;
}

/* --------------------------------------------------------------- HunyuanOCR */

/* HunYuanVLVisionConfig's defaults (configuration_hunyuan_vl.py) but the text width, which
 * HunYuanVLConfig overwrites with the language model's. */
static const char HUNYUAN_VL_VISION[] =
    "{\"hidden_size\": 1152, \"intermediate_size\": 4304, \"num_hidden_layers\": 27,"
    " \"num_attention_heads\": 16, \"num_channels\": 3, \"patch_size\": 16,"
    " \"spatial_merge_size\": 2, \"max_image_size\": 2048}";

/* The language model's keys HunYuanVLConfig takes from the top level of a flat (HunyuanOCR 1.0)
 * config, over text_config's where both name one. */
static const char *const HUNYUAN_VL_TEXT_KEYS[] = {"vocab_size",
                                                   "hidden_size",
                                                   "intermediate_size",
                                                   "num_hidden_layers",
                                                   "num_attention_heads",
                                                   "num_key_value_heads",
                                                   "head_dim",
                                                   "attention_head_dim",
                                                   "attention_bias",
                                                   "max_position_embeddings",
                                                   "use_cla",
                                                   NULL};

/* The image vLLM profiles HunyuanOCR with (hunyuan_vision.py HunYuanVLProcessingInfo.
 * get_image_size_with_most_features: _get_vision_info(512, 8192) under the processor's
 * 2,048^2-pixel bound): 512 x 32 patches of 16 px, merged 2 x 2 into rows of 16 tokens and a
 * newline each, and the begin and end embeddings - 256 x 17 + 2 = 4,354 tokens. The processor
 * accepts taller, narrower images with more rows (4,916 at most). */
#define HUNYUAN_VL_PROFILE_ROWS 512ULL
#define HUNYUAN_VL_PROFILE_COLS 32ULL

/* HunYuanVLForConditionalGeneration (transformers models/hunyuan_vl/modeling_hunyuan_vl.py; vLLM
 * hunyuan_vision.py; tencent/HunyuanOCR, 1.0 with a flat config, 1.5 with text_config). The
 * language model is HunYuanDenseV1's (q/k/v/o, query/key RMSNorms over head_dim, a SwiGLU;
 * head_dim from head_dim or the legacy attention_head_dim; the 4-axis XD-RoPE holds no
 * parameter), the head tied where the top-level tie_word_embeddings says, else text_config's, true
 * by default. The tower (HunYuanVisionTransformer): a biased Conv2d patch embedding, a learned
 * position table of (max_image_size / patch)^2 + 1 rows interpolated to each image, LayerNorm
 * layers with biased q/k/v/o_proj and a GELU fc1/fc2, no final norm; the patch merger:
 * before_rms, proj_conv (Conv2d to twice the width, merge x merge kernel), proj_out (a 1x1 Conv2d
 * to four times the width), mlp to the text width, image_newline, image_begin/end/sep and
 * after_rms. HunyuanOCR 1.5: 996,208,112 (transformers 5.13's loaded count). */
static void read_hunyuan_vl(struct model_reader *r, struct gs_arch *a)
{
    struct model_reader text, vision;
    json_t *owned = NULL;
    if (!open_sub(r, "text_config", NULL, "{}", NULL, &text, &owned))
        return;
    for (size_t i = 0; HUNYUAN_VL_TEXT_KEYS[i] != NULL && r->ok; i++) {
        const json_t *v = rd_get(r, HUNYUAN_VL_TEXT_KEYS[i]);
        if (v != NULL &&
            json_object_set_new(owned, HUNYUAN_VL_TEXT_KEYS[i], json_deep_copy(v)) != 0)
            rd_fail(r, "text_config", GS_ERR_NOMEM, "out of memory reading the nested config");
    }
    const json_t *head_dim = json_object_get(owned, "head_dim");
    const json_t *legacy = json_object_get(owned, "attention_head_dim");
    const bool tie = rd_flag(r, "tie_word_embeddings", rd_flag(&text, "tie_word_embeddings", true));
    bool stored = json_object_set_new(owned, "tie_word_embeddings", json_boolean(tie)) == 0;
    if ((head_dim == NULL || json_is_null(head_dim)) && legacy != NULL)
        stored = stored && json_object_set_new(owned, "head_dim", json_deep_copy(legacy)) == 0;
    if (r->ok && !stored)
        rd_fail(r, "text_config", GS_ERR_NOMEM, "out of memory reading the nested config");
    if (r->ok)
        read_text_as(&text, a, "hunyuan_v1_dense");
    close_sub(r, &text, owned);
    if (!r->ok ||
        !open_sub(r, "vision_config", HUNYUAN_VL_VISION, HUNYUAN_VL_VISION, NULL, &vision, &owned))
        return;
    const uint64_t vh = rd_dim(&vision, NAMES("hidden_size"), true, 0);
    const uint64_t vi = rd_dim(&vision, NAMES("intermediate_size"), true, 0);
    const uint64_t layers = rd_dim(&vision, NAMES("num_hidden_layers"), true, 0);
    const uint64_t heads = rd_dim(&vision, NAMES("num_attention_heads"), true, 0);
    const uint64_t channels = rd_dim(&vision, NAMES("num_channels"), true, 0);
    const uint64_t patch = rd_dim(&vision, NAMES("patch_size"), true, 0);
    const uint64_t merge = rd_dim(&vision, NAMES("spatial_merge_size"), true, 0);
    const uint64_t image = rd_dim(&vision, NAMES("max_image_size"), true, 0);
    close_sub(r, &vision, owned);
    if (!r->ok)
        return;
    static const struct attn_layout layout = {"self_attn.q_proj",
                                              "self_attn.k_proj",
                                              "self_attn.v_proj",
                                              "self_attn.o_proj",
                                              NULL,
                                              true,
                                              true,
                                              true,
                                              true};
    const size_t b = gs_arch_new_block(a);
    const struct gs_attention s = encoder_spec(heads, per_head(vh, heads));
    attention(a, b, vh, vh, &s, &layout, false);
    mlp(a, b, vh, vi, false, true, &CLIP_FC);
    norm(a, b, "layer_norm1", GS_PART_NORMS, true, vh);
    norm(a, b, "layer_norm2", GS_PART_NORMS, true, vh);
    gs_arch_tower(a, "vision_tower", b, GS_PART_VISION, layers, false);
    const size_t m = GS_BLOCKS_MAX;
    const uint64_t side = patch ? image / patch : 0, th = a->hidden_size;
    tensor(a, m, "vision_tower.embeddings.patch_embedding", GS_PART_VISION,
           channels * patch * patch, vh);
    tensor(a, m, "vision_tower.embeddings.patch_embedding.bias", GS_PART_VISION, 1, vh);
    add(a, m, "vision_tower.embeddings.position_embedding", GS_MODULE_EMBEDDING, GS_SPLIT_NONE,
        GS_PART_VISION, 0, side * side + 1, vh);
    norm(a, m, "patch_merger.before_rms", GS_PART_VISION, false, vh);
    tensor(a, m, "patch_merger.proj_conv", GS_PART_VISION, vh * merge * merge + 1, 2 * vh);
    tensor(a, m, "patch_merger.proj_out", GS_PART_VISION, 2 * vh + 1, 4 * vh);
    linear(a, m, "patch_merger.mlp", GS_SPLIT_NONE, GS_PART_VISION, true, 4 * vh, th);
    tensor(a, m, "patch_merger.image_newline", GS_PART_VISION, 1, 4 * vh);
    tensor(a, m, "patch_merger.image_begin_end_sep", GS_PART_VISION, 3, th);
    norm(a, m, "patch_merger.after_rms", GS_PART_VISION, false, th);
    if (merge != 0) {
        const uint64_t patches = HUNYUAN_VL_PROFILE_ROWS * HUNYUAN_VL_PROFILE_COLS;
        a->mm_image.tokens =
            (HUNYUAN_VL_PROFILE_ROWS / merge) * (HUNYUAN_VL_PROFILE_COLS / merge + 1) + 2;
        a->mm_image.patches = patches;
        a->mm_image.pixels = patches * channels * patch * patch;
        a->mm_image.layout = GS_MM_PER_IMAGE;
    }
    a->mm_embed_width = th;
    a->rope_mrope = true;
}

/* ------------------------------------------------------------ Muse Glimmer */

/* MuseGlimmerTextConfig's and MuseGlimmerVisionConfig's defaults
 * (configuration_muse_glimmer.py, the shapes of meta-models/Muse-Glimmer-30B; its converter,
 * convert_muse_glimmer_weights_to_hf.py, changes only the rope theta). */
static const char MUSE_GLIMMER_TEXT[] =
    "{\"vocab_size\": 202048, \"hidden_size\": 6656, \"intermediate_size\": 19968,"
    " \"num_hidden_layers\": 52, \"num_attention_heads\": 32, \"num_key_value_heads\": 2,"
    " \"head_dim\": 128, \"max_position_embeddings\": 131072, \"sliding_window\": 2048,"
    " \"final_logit_softcapping\": 20.0, \"tie_word_embeddings\": false}";
static const char MUSE_GLIMMER_VISION[] =
    "{\"patch_size\": 14, \"pos_emb_height\": 32, \"pos_emb_width\": 32,"
    " \"num_attention_heads\": 16, \"num_hidden_layers\": 50, \"hidden_size\": 1536,"
    " \"intermediate_size\": 8960, \"patch_temporal\": 2, \"merge_size\": 2}";

/* The largest image Muse Glimmer's processor accepts: MuseGlimmerImageProcessor's
 * max_image_tokens = 4096 merged tokens (image_processing_muse_glimmer.py, smart_resize on a
 * grid of patch_size x merge_size pixels), each merge^2 patches of patch_temporal frames (a still
 * image repeated) x 3 channels x patch^2 values. */
#define MUSE_GLIMMER_MAX_IMAGE_TOKENS 4096ULL

/* MuseGlimmerTextModel (modeling_muse_glimmer.py): Gemma 2's layer of four norms around
 * attention and a SwiGLU MLP (MuseGlimmerTextCenteredRMSNorm, (1 + w)), its attention
 * MuseGlimmerTextAttention: q/k/v/o without biases, a weightless RMSNorm over each head of Q and
 * K (qk_norm, no parameter), and a sigmoid output gate from its own projection
 * (self.gate_proj, h -> heads x head_dim: attn_output * sigmoid(gate_proj(hidden_states)) before
 * o_proj). layer_types, else MuseGlimmerTextConfig.__post_init__'s every fourth layer counted
 * from the last full ((layers - 1 - l) % 4 == 0), the others through sliding_window; the full
 * layers are the ones without rotary embeddings (layer_rope_theta 0 there). The embedding's
 * norm and the final norm's fp32 compute add no shape. */
static void read_muse_glimmer_text(struct model_reader *t, struct gs_arch *a)
{
    struct decoder_plan plan;
    decoder_read_dims(t, a, &plan, false, 0, false);
    plan.window = rd_dim(t, NAMES("sliding_window"), false, 2048);
    if (!decoder_read_layer_types(t, &plan))
        for (uint64_t l = 0; l < plan.layers && l < GS_LAYERS_MAX; l++)
            plan.sliding[l] = (plan.layers - 1 - l) % 4 != 0;
    /* MuseGlimmerForConditionalGeneration.forward: logits * output_multiplier, then
     * final_logit_softcapping's tanh */
    const bool softcap = rd_softcap(t, "final_logit_softcapping", true);
    if (!t->ok)
        return;
    const struct decoder_traits traits = {.norms = 4};
    decoder_build(t, a, &plan, &traits);
    a->final_logit_softcap = softcap;
    /* MuseGlimmerTextCenteredRMSNorm: output * (1.0 + self.weight.float()), then type_as */
    a->norm_weight_fp32 = true;
    for (size_t b = 0; b < a->block_count; b++) {
        struct gs_block *blk = &a->blocks[b];
        if (blk->mixer != GS_MIXER_ATTENTION)
            continue;
        blk->attn.nope = blk->attn.span == GS_SPAN_FULL;
        blk->attn.qk_norm_bare = true;
        blk->attn.output_gate = GS_GATE_SIGMOID;
        linear(a, b, "self_attn.gate_proj", GS_SPLIT_COLUMN, GS_PART_ATTENTION, false,
               a->hidden_size, blk->attn.heads * blk->attn.head_dim);
    }
}

/* MuseGlimmerVisionModel: patch_embedder.patch_embedding (a Linear without bias over
 * patch_temporal x 3 x patch^2 values), its position_embedding_table (pos_emb_height x
 * pos_emb_width rows, resampled to the image's grid), ln_pre, MuseGlimmerVisionEncoderLayers
 * (LayerNorms norm1 and norm2, attn q/k/v_proj and proj with biases, head_dim hidden / heads, an
 * MLP fc1 and fc2 with biases; window_attention layers attend within 32 x 32-patch windows, which
 * changes no shape), ln_post; pixel_shuffle folds merge^2 patches into one out_hidden_size row
 * without parameters. MuseGlimmerModel's projector: vision_adapter.fc1 (out_hidden_size ->
 * projector_hidden_size) and fc2, vision_projection (-> text hidden), all without biases; the
 * perception_emb_norm after them has no weight. */
static void read_muse_glimmer_vision(struct model_reader *r, struct model_reader *v,
                                     struct gs_arch *a, uint64_t text_hidden)
{
    static const struct attn_layout attn = {
        "attn.q_proj", "attn.k_proj", "attn.v_proj", "attn.proj", NULL, true, true, true, true};
    const uint64_t vh = rd_dim(v, NAMES("hidden_size"), true, 0);
    const uint64_t vi = rd_dim(v, NAMES("intermediate_size"), true, 0);
    const uint64_t layers = rd_dim(v, NAMES("num_hidden_layers"), true, 0);
    const uint64_t heads = rd_dim(v, NAMES("num_attention_heads"), true, 0);
    const uint64_t patch = rd_dim(v, NAMES("patch_size"), true, 0);
    const uint64_t temporal = rd_dim(v, NAMES("patch_temporal"), true, 0);
    const uint64_t merge = rd_dim(v, NAMES("merge_size"), true, 0);
    const uint64_t grid =
        rd_dim(v, NAMES("pos_emb_height"), true, 0) * rd_dim(v, NAMES("pos_emb_width"), true, 0);
    const uint64_t out = rd_dim(r, NAMES("out_hidden_size"), false, 6144);
    const uint64_t projector = rd_dim(r, NAMES("projector_hidden_size"), false, 4096);
    if (!v->ok || !r->ok)
        return;
    if (out != vh * merge * merge) {
        rd_fail(r, "out_hidden_size", GS_ERR_INVALID,
                "%llu: pixel_shuffle hands the adapter merge_size^2 x hidden_size = %llu values a "
                "row",
                (unsigned long long)out, (unsigned long long)(vh * merge * merge));
        return;
    }
    const size_t b = gs_arch_new_block(a);
    const struct gs_attention s = encoder_spec(heads, per_head(vh, heads));
    attention(a, b, vh, vh, &s, &attn, false);
    mlp(a, b, vh, vi, false, true, &CLIP_FC);
    norm(a, b, "norm1", GS_PART_NORMS, true, vh);
    norm(a, b, "norm2", GS_PART_NORMS, true, vh);
    gs_arch_tower(a, "vision_tower", b, GS_PART_VISION, layers, false);
    const size_t m = GS_BLOCKS_MAX;
    add(a, m, "vision_tower.patch_embedder.patch_embedding", GS_MODULE_LINEAR, GS_SPLIT_NONE,
        GS_PART_VISION, 0, temporal * 3 * patch * patch, vh);
    tensor(a, m, "vision_tower.patch_embedder.position_embedding_table", GS_PART_VISION, grid, vh);
    norm(a, m, "vision_tower.ln_pre", GS_PART_VISION, true, vh);
    norm(a, m, "vision_tower.ln_post", GS_PART_VISION, true, vh);
    add(a, m, "vision_adapter.fc1", GS_MODULE_LINEAR, GS_SPLIT_NONE, GS_PART_VISION, 0, out,
        projector);
    add(a, m, "vision_adapter.fc2", GS_MODULE_LINEAR, GS_SPLIT_NONE, GS_PART_VISION, 0, projector,
        projector);
    add(a, m, "vision_projection", GS_MODULE_LINEAR, GS_SPLIT_NONE, GS_PART_VISION, 0, projector,
        text_hidden);
    const uint64_t unit = patch * merge;
    a->mm_image =
        rd_qwen_vl_item(MUSE_GLIMMER_MAX_IMAGE_TOKENS * unit * unit, 3, temporal, patch, merge);
}

/* MuseGlimmerForConditionalGeneration (transformers 5.16, models/muse_glimmer;
 * meta-models/Muse-Glimmer-30B): MuseGlimmerTextModel from text_config, the vision tower and
 * its projector, and lm_head, untied: the tie reads the top-level config, whose class has no
 * tie_word_embeddings (False), and the converter loads the checkpoint's own output weight.
 * vLLM (models/muse_glimmer.py, MuseGlimmerForCausalLM) and SGLang serve the same modules. */
static void read_muse_glimmer(struct model_reader *r, struct gs_arch *a)
{
    struct model_reader text, vision;
    json_t *owned = NULL;
    const bool tie = rd_flag(r, "tie_word_embeddings", false);
    if (!open_sub(r, "text_config", MUSE_GLIMMER_TEXT, MUSE_GLIMMER_TEXT, NULL, &text, &owned))
        return;
    if (json_object_set_new(owned, "tie_word_embeddings", json_boolean(tie)) != 0)
        rd_fail(r, "text_config", GS_ERR_NOMEM, "out of memory reading the nested config");
    else
        read_muse_glimmer_text(&text, a);
    close_sub(r, &text, owned);
    if (!r->ok || !open_sub(r, "vision_config", MUSE_GLIMMER_VISION, MUSE_GLIMMER_VISION, NULL,
                            &vision, &owned))
        return;
    read_muse_glimmer_vision(r, &vision, a, a->hidden_size);
    close_sub(r, &vision, owned);
}

/* ----------------------------------------------------------------- Whisper */

/* WhisperConfig's defaults (configuration_whisper.py). */
static const char WHISPER[] =
    "{\"vocab_size\": 51865, \"num_mel_bins\": 80, \"encoder_layers\": 4,"
    " \"encoder_attention_heads\": 6, \"decoder_layers\": 4, \"decoder_attention_heads\": 6,"
    " \"decoder_ffn_dim\": 1536, \"encoder_ffn_dim\": 1536, \"d_model\": 384,"
    " \"max_source_positions\": 1500, \"max_target_positions\": 448}";

/* WhisperForConditionalGeneration (modeling_whisper.py). WhisperAttention:
 * q_proj, v_proj and out_proj with biases, k_proj without. The encoder
 * (the audio tower; its output feeds the decoder's cross-attention): conv1
 * Conv1d(num_mel_bins, d, 3) and conv2 Conv1d(d, d, 3, stride 2) with
 * biases, embed_positions (sinusoidal but an nn.Embedding, so counted),
 * layers of self_attn, fc1/fc2 with biases and two LayerNorms, a final
 * layer_norm. The decoder: embed_tokens, learned embed_positions
 * (max_target_positions rows), layers of self_attn, encoder_attn (keys and
 * values over the encoder's states, cached per encoder token), fc1/fc2 and
 * three LayerNorms, a final layer_norm; proj_out tied to embed_tokens. */
static void read_whisper(struct model_reader *r, struct gs_arch *a)
{
    static const struct attn_layout self = {"self_attn.q_proj", "self_attn.k_proj",
                                            "self_attn.v_proj", "self_attn.out_proj", NULL,
                                            true, false, true, true};
    static const struct attn_layout cross = {"encoder_attn.q_proj", "encoder_attn.k_proj",
                                             "encoder_attn.v_proj", "encoder_attn.out_proj", NULL,
                                             true, false, true, true};
    static const struct gs_mlp_names fc = {NULL, "fc1", "fc2", NULL};
    json_t *owned = with_defaults(r->config, WHISPER, NULL);
    if (owned == NULL) {
        rd_fail(r, "", GS_ERR_NOMEM, "out of memory reading the config");
        return;
    }
    struct model_reader c = *r;
    c.config = owned;
    const uint64_t d = rd_dim(&c, NAMES("d_model", "hidden_size"), true, 0);
    const uint64_t V = rd_dim(&c, NAMES("vocab_size"), true, 0);
    gs_arch_init(a, NULL, d, V);
    const uint64_t enc = rd_dim(&c, NAMES("encoder_layers"), true, 0);
    const uint64_t dec = rd_dim(&c, NAMES("decoder_layers"), true, 0);
    const uint64_t enc_heads = rd_dim(&c, NAMES("encoder_attention_heads"), true, 0);
    const uint64_t dec_heads = rd_dim(&c, NAMES("decoder_attention_heads"), true, 0);
    const uint64_t enc_ffn = rd_dim(&c, NAMES("encoder_ffn_dim"), true, 0);
    const uint64_t dec_ffn = rd_dim(&c, NAMES("decoder_ffn_dim"), true, 0);
    const uint64_t mels = rd_dim(&c, NAMES("num_mel_bins"), true, 0);
    const uint64_t source = rd_dim(&c, NAMES("max_source_positions"), true, 0);
    const uint64_t target = rd_dim(&c, NAMES("max_target_positions"), true, 0);
    a->max_position_embeddings = target;
    a->tie_word_embeddings = rd_flag(&c, "tie_word_embeddings", true);
    a->attention_dropout = rd_dropout(&c, NAMES("attention_dropout"));
    /* WhisperEncoderLayer and WhisperDecoderLayer drop the attention's and fc2's outputs with
     * `dropout` (activation_dropout acts after fc1's activation alone, below), and
     * WhisperEncoder and WhisperDecoder the embeddings plus positions with it too */
    a->hidden_dropout = rd_dropout(&c, NAMES("dropout"));
    a->embedding_dropout = a->hidden_dropout;
    a->mlp_dropout = rd_dropout(&c, NAMES("activation_dropout")); /* WhisperEncoderLayer: after fc1's
                                                                     activation */
    if (dec > GS_LAYERS_MAX)
        rd_fail(&c, "decoder_layers", GS_ERR_UNSUPPORTED,
                "%llu layers: gpusizer describes at most %d", (unsigned long long)dec,
                GS_LAYERS_MAX);
    json_decref(owned);
    r->ok = c.ok;
    if (!r->ok)
        return;
    /* decoder layer: self-attention (cached), cross-attention over the encoder */
    struct gs_attention s = encoder_spec(dec_heads, per_head(d, dec_heads));
    s.cached = true;
    s.cross = true;
    s.nope = true; /* learned positions */
    const size_t db = gs_arch_new_block(a);
    attention(a, db, d, d, &s, &self, false);
    norm(a, db, "self_attn_layer_norm", GS_PART_NORMS, true, d);
    attention(a, db, d, d, &s, &cross, true);
    norm(a, db, "encoder_attn_layer_norm", GS_PART_NORMS, true, d);
    mlp(a, db, d, dec_ffn, false, true, &fc);
    norm(a, db, "final_layer_norm", GS_PART_NORMS, true, d);
    gs_arch_set_layers(a, dec, db);
    /* encoder layer: bidirectional self-attention, no cache */
    const size_t eb = gs_arch_new_block(a);
    const struct gs_attention es = encoder_spec(enc_heads, per_head(d, enc_heads));
    attention(a, eb, d, d, &es, &self, false);
    norm(a, eb, "self_attn_layer_norm", GS_PART_NORMS, true, d);
    mlp(a, eb, d, enc_ffn, false, true, &fc);
    norm(a, eb, "final_layer_norm", GS_PART_NORMS, true, d);
    gs_arch_tower(a, "encoder", eb, GS_PART_AUDIO, enc, true);
    /* WhisperEncoder.forward refuses input features of any length but max_source_positions x
     * conv1's and conv2's strides (3,000 frames; WhisperFeatureExtractor pads to them): the
     * encoder runs 1,500 positions a sample whatever the transcript's length */
    if (a->tower_count > 0) {
        a->towers[a->tower_count - 1].positions = source;
        a->towers[a->tower_count - 1].conv_channels = mels;
    }
    const size_t m = GS_BLOCKS_MAX;
    tensor(a, m, "encoder.conv1", GS_PART_AUDIO, mels * 3, d);
    tensor(a, m, "encoder.conv1.bias", GS_PART_AUDIO, 1, d);
    tensor(a, m, "encoder.conv2", GS_PART_AUDIO, d * 3, d);
    tensor(a, m, "encoder.conv2.bias", GS_PART_AUDIO, 1, d);
    add(a, m, "encoder.embed_positions", GS_MODULE_EMBEDDING, GS_SPLIT_NONE, GS_PART_AUDIO, 0,
        source, d);
    norm(a, m, "encoder.layer_norm", GS_PART_AUDIO, true, d);
    gs_arch_embeddings(a, d, "proj_out", false);
    add(a, m, "decoder.embed_positions", GS_MODULE_EMBEDDING, GS_SPLIT_NONE, GS_PART_EMBEDDING, 0,
        target, d);
    norm(a, m, "decoder.layer_norm", GS_PART_NORMS, true, d);
}

/* ----------------------------------------------------------- Granite Speech */

/* GraniteSpeechEncoderConfig's and Blip2QFormerConfig's defaults (configuration_granite_speech.py,
 * blip_2/configuration_blip_2.py), under the encoder's attribute_map names too. */
static const char GRANITE_SPEECH_ENCODER[] =
    "{\"input_dim\": 160, \"num_layers\": 10, \"hidden_dim\": 1024, \"feedforward_mult\": 4,"
    " \"num_heads\": 8, \"output_dim\": 42, \"context_size\": 200, \"max_pos_emb\": 512,"
    " \"conv_kernel_size\": 15, \"conv_expansion_factor\": 2}";
static const char BLIP2_QFORMER[] =
    "{\"hidden_size\": 768, \"num_hidden_layers\": 12, \"num_attention_heads\": 12,"
    " \"intermediate_size\": 3072, \"cross_attention_frequency\": 2,"
    " \"encoder_hidden_size\": 1408}";

/* GraniteSpeechConformerBlock (modeling_granite_speech.py): two half-step feed-forward modules ff1
 * and ff2 (pre_norm, up_proj to feedforward_mult x width and down_proj, biased, SiLU between),
 * block-local attention (pre_norm; to_q and the fused to_kv without bias, to_out with one;
 * rel_pos_emb, 2 x max_pos_emb + 1 rows of dim_head shared by the heads), the convolution module
 * (norm; up_conv, a 1-wide Conv1d to 2 x expansion x width, GLU; a depthwise conv of the kernel
 * without bias; BatchNorm1d, whose running mean and variance the checkpoint stores as buffers;
 * down_conv back) and post_norm; every norm a LayerNorm. */
static size_t conformer_block(struct gs_arch *a, uint64_t h, uint64_t ff, uint64_t heads,
                              uint64_t head_dim, uint64_t positions, uint64_t conv_inner,
                              uint64_t kernel)
{
    static const struct gs_mlp_names ff1 = {NULL, "ff1.up_proj", "ff1.down_proj", NULL};
    const size_t b = gs_arch_new_block(a);
    struct gs_block *k = gs_arch_block(a, b);
    if (k == NULL)
        return GS_BLOCKS_MAX;
    k->mixer = GS_MIXER_ATTENTION;
    k->attn = encoder_spec(heads, head_dim);
    k->attn.v_head_dim = head_dim;
    const uint64_t inner = heads * head_dim;
    const enum gs_part p = GS_PART_AUDIO;
    mlp(a, b, h, ff, false, true, &ff1);
    linear(a, b, "ff2.up_proj", GS_SPLIT_COLUMN, GS_PART_MLP, true, h, ff);
    linear(a, b, "ff2.down_proj", GS_SPLIT_ROW, GS_PART_MLP, true, ff, h);
    norm(a, b, "ff1.pre_norm", GS_PART_NORMS, true, h);
    norm(a, b, "ff2.pre_norm", GS_PART_NORMS, true, h);
    norm(a, b, "attn.pre_norm", GS_PART_NORMS, true, h);
    linear(a, b, "attn.to_q", GS_SPLIT_COLUMN, GS_PART_ATTENTION, false, h, inner);
    linear(a, b, "attn.to_kv", GS_SPLIT_KV, GS_PART_ATTENTION, false, h, 2 * inner);
    linear(a, b, "attn.to_out", GS_SPLIT_ROW, GS_PART_ATTENTION, true, inner, h);
    add(a, b, "attn.rel_pos_emb", GS_MODULE_EMBEDDING, GS_SPLIT_NONE, GS_PART_ATTENTION, 0,
        2 * positions + 1, head_dim);
    norm(a, b, "conv.norm", GS_PART_NORMS, true, h);
    linear(a, b, "conv.up_conv", GS_SPLIT_NONE, p, true, h, 2 * conv_inner);
    tensor(a, b, "conv.depth_conv.conv", p, kernel, conv_inner);
    norm(a, b, "conv.batch_norm", p, true, conv_inner);
    add(a, b, "conv.batch_norm.running_stats", GS_MODULE_TENSOR, GS_SPLIT_NONE, p, GS_MOD_BUFFER, 2,
        conv_inner);
    linear(a, b, "conv.down_conv", GS_SPLIT_NONE, p, true, conv_inner, h);
    norm(a, b, "post_norm", GS_PART_NORMS, true, h);
    return b;
}

/* GraniteSpeechForConditionalGeneration and GraniteSpeechPlusForConditionalGeneration
 * (transformers models/granite_speech/, granite_speech_plus/; vLLM granite_speech.py; IBM's
 * granite-speech-3.3-2b/8b, granite-4.0-1b-speech, granite-speech-4.1-2b-plus): the Conformer
 * encoder (input_linear from input_dim mel features, num_layers conformer_block layers, the
 * mid-layer CTC head `out` to output_dim and `out_mid` back, all biased), the projector - a
 * BLIP-2 Q-Former (projector_config; Blip2QFormerConfig's defaults fill what it leaves out)
 * whose window_size / downsample_rate learned queries cross-attend each window of encoder
 * frames, then `linear` to the text width - and Granite's text model, tied by the top-level
 * tie_word_embeddings (true by default; vLLM ties by text_config's, false by default: they differ
 * where a config gives one flag only). The plus model's cat_hidden_layers only widen the
 * Q-Former's cross-attention input, its encoder_hidden_size. The LoRA adapter the checkpoints
 * ship beside the weights (vLLM applies it at run time to audio prompts, enable_lora) is not
 * counted. granite-4.0-1b-speech: encoder 440,168,796, projector 35,697,664, text 1,631,752,192
 * and the untied head 205,522,944 = 2,313,141,596, with 16 x 4,096 BatchNorm buffer values. vLLM's
 * audio profile (a 500 s clip, 5,001 tokens) is not modelled (no audio item). */
static void read_granite_speech(struct model_reader *r, struct gs_arch *a)
{
    struct model_reader text, enc, proj;
    json_t *owned = NULL;
    const bool tie = rd_flag(r, "tie_word_embeddings", true);
    const uint64_t window = rd_dim(r, NAMES("window_size"), false, 15);
    const uint64_t rate = rd_dim(r, NAMES("downsample_rate"), false, 5);
    if (r->ok && (rate == 0 || window < rate))
        rd_fail(r, "downsample_rate", GS_ERR_INVALID,
                "must be positive and at most window_size (the queries a window: window_size / "
                "downsample_rate)");
    if (!r->ok || !open_sub(r, "text_config", GRANITE4_VISION_TEXT, GRANITE4_VISION_TEXT, NULL,
                            &text, &owned))
        return;
    const char *type = rd_string(&text, "model_type");
    char text_type[64];
    snprintf(text_type, sizeof(text_type), "%s", type != NULL ? type : "granite");
    if (json_object_set_new(owned, "tie_word_embeddings", json_boolean(tie)) != 0)
        rd_fail(r, "text_config", GS_ERR_NOMEM, "out of memory reading the nested config");
    else
        read_text_as(&text, a, text_type);
    close_sub(r, &text, owned);
    if (!r->ok || !open_sub(r, "encoder_config", GRANITE_SPEECH_ENCODER, GRANITE_SPEECH_ENCODER,
                            NULL, &enc, &owned))
        return;
    const uint64_t h = rd_dim(&enc, NAMES("hidden_dim", "hidden_size"), true, 0);
    const uint64_t layers = rd_dim(&enc, NAMES("num_layers", "num_hidden_layers"), true, 0);
    const uint64_t heads = rd_dim(&enc, NAMES("num_heads", "num_attention_heads"), true, 0);
    const uint64_t head_dim = rd_dim(&enc, NAMES("dim_head"), false, heads ? h / heads : 0);
    const uint64_t in = rd_dim(&enc, NAMES("input_dim", "num_mel_bins"), true, 0);
    const uint64_t ff = rd_dim(&enc, NAMES("feedforward_mult"), true, 0) * h;
    const uint64_t out = rd_dim(&enc, NAMES("output_dim"), true, 0);
    const uint64_t positions = rd_dim(&enc, NAMES("max_pos_emb"), true, 0);
    const uint64_t kernel = rd_dim(&enc, NAMES("conv_kernel_size"), true, 0);
    const uint64_t conv_inner = rd_dim(&enc, NAMES("conv_expansion_factor"), true, 0) * h;
    close_sub(r, &enc, owned);
    if (!r->ok ||
        !open_sub(r, "projector_config", BLIP2_QFORMER, BLIP2_QFORMER, NULL, &proj, &owned))
        return;
    const uint64_t qh = rd_dim(&proj, NAMES("hidden_size"), true, 0);
    const uint64_t ql = rd_dim(&proj, NAMES("num_hidden_layers"), true, 0);
    const uint64_t qi = rd_dim(&proj, NAMES("intermediate_size"), true, 0);
    const uint64_t qf = rd_dim(&proj, NAMES("cross_attention_frequency"), true, 0);
    const uint64_t qe = rd_dim(&proj, NAMES("encoder_hidden_size"), true, 0);
    close_sub(r, &proj, owned);
    if (!r->ok)
        return;
    if (heads == 0 || head_dim == 0 || layers == 0) {
        rd_fail(r, "encoder_config", GS_ERR_INVALID, "needs layers and heads");
        return;
    }
    const size_t b = conformer_block(a, h, ff, heads, head_dim, positions, conv_inner, kernel);
    if (b >= GS_BLOCKS_MAX)
        return;
    gs_arch_tower(a, "encoder.layers", b, GS_PART_AUDIO, layers, false);
    const size_t m = GS_BLOCKS_MAX;
    const enum gs_part p = GS_PART_AUDIO;
    linear(a, m, "encoder.input_linear", GS_SPLIT_NONE, p, true, in, h);
    linear(a, m, "encoder.out", GS_SPLIT_NONE, p, true, h, out);
    linear(a, m, "encoder.out_mid", GS_SPLIT_NONE, p, true, out, h);
    blip2_qformer(a, p, 1, qh, qi, ql, qf, qe);
    tensor(a, m, "projector.query", p, window / rate, qh);
    linear(a, m, "projector.linear", GS_SPLIT_NONE, p, true, qh, a->hidden_size);
}

/* ----------------------------------------------------------------- Voxtral */

/* VoxtralConfig's text defaults, applied to a text_config given as to an absent one
 * (configuration_voxtral.py _default_text_config_kwargs; the heads LlamaConfig's 32), and
 * VoxtralEncoderConfig's: Voxtral-Mini-3B-2507's shapes. */
static const char VOXTRAL_TEXT[] =
    "{\"model_type\": \"llama\", \"vocab_size\": 131072, \"hidden_size\": 3072,"
    " \"intermediate_size\": 8192, \"num_hidden_layers\": 30, \"num_attention_heads\": 32,"
    " \"num_key_value_heads\": 8, \"max_position_embeddings\": 131072, \"head_dim\": 128}";
static const char VOXTRAL_AUDIO[] =
    "{\"hidden_size\": 1280, \"intermediate_size\": 5120, \"num_hidden_layers\": 32,"
    " \"num_attention_heads\": 20, \"num_mel_bins\": 128, \"max_source_positions\": 1500}";

/* VoxtralForConditionalGeneration (transformers models/voxtral/modeling_voxtral.py; vLLM
 * voxtral.py; Voxtral-Mini-3B-2507, Voxtral-Small-24B-2507): Whisper's encoder as the audio tower
 * (conv1 and conv2 with biases, a 1,500-row embed_positions, layers of q/v/out_proj with biases
 * and k_proj without, two LayerNorms, fc1/fc2 with biases, a final layer_norm), whose frames the
 * projector stacks by intermediate_size / hidden_size (4) into linear_1 and then linear_2, no
 * biases, into the language model text_config names (Llama by default); the head never tied
 * (the class has no _tied_weights_keys). vLLM runs the tower a 30 s chunk (3,000 mel frames, 1,500
 * positions) at a time; its audio profile (a dummy of max_model_len tokens) is not modelled (no
 * audio item). Voxtral-Mini-3B: text 4,014,136,320, tower 636,968,960, projector 25,165,824 =
 * 4,676,271,104. Voxtral Realtime (voxtral_realtime) runs a causal encoder with its own KV cache in
 * vLLM, four encoder frames a text token: not read (the generic reader refuses it). */
static void read_voxtral(struct model_reader *r, struct gs_arch *a)
{
    static const struct attn_layout self = {"self_attn.q_proj",
                                            "self_attn.k_proj",
                                            "self_attn.v_proj",
                                            "self_attn.out_proj",
                                            NULL,
                                            true,
                                            false,
                                            true,
                                            true};
    static const struct gs_mlp_names fc = {NULL, "fc1", "fc2", NULL};
    struct model_reader text, audio;
    json_t *owned = NULL;
    if (!open_sub(r, "text_config", VOXTRAL_TEXT, VOXTRAL_TEXT, NULL, &text, &owned))
        return;
    const char *type = rd_string(&text, "model_type");
    char text_type[64];
    snprintf(text_type, sizeof(text_type), "%s", type != NULL ? type : "llama");
    if (json_object_set_new(owned, "tie_word_embeddings", json_false()) != 0)
        rd_fail(r, "text_config", GS_ERR_NOMEM, "out of memory reading the nested config");
    else
        read_text_as(&text, a, text_type);
    close_sub(r, &text, owned);
    if (!r->ok || !open_sub(r, "audio_config", VOXTRAL_AUDIO, VOXTRAL_AUDIO, NULL, &audio, &owned))
        return;
    const uint64_t d = rd_dim(&audio, NAMES("hidden_size", "d_model"), true, 0);
    const uint64_t layers = rd_dim(&audio, NAMES("num_hidden_layers", "encoder_layers"), true, 0);
    const uint64_t heads =
        rd_dim(&audio, NAMES("num_attention_heads", "encoder_attention_heads"), true, 0);
    const uint64_t ffn = rd_dim(&audio, NAMES("intermediate_size", "encoder_ffn_dim"), true, 0);
    const uint64_t mels = rd_dim(&audio, NAMES("num_mel_bins"), true, 0);
    const uint64_t source = rd_dim(&audio, NAMES("max_source_positions"), true, 0);
    close_sub(r, &audio, owned);
    if (!r->ok)
        return;
    if (heads == 0 || d % heads != 0 || ffn % d != 0) {
        rd_fail(r, "audio_config", GS_ERR_INVALID,
                "num_attention_heads must divide hidden_size, and hidden_size intermediate_size "
                "(the projector stacks intermediate_size / hidden_size frames)");
        return;
    }
    const size_t eb = gs_arch_new_block(a);
    const struct gs_attention es = encoder_spec(heads, per_head(d, heads));
    attention(a, eb, d, d, &es, &self, false);
    norm(a, eb, "self_attn_layer_norm", GS_PART_NORMS, true, d);
    mlp(a, eb, d, ffn, false, true, &fc);
    norm(a, eb, "final_layer_norm", GS_PART_NORMS, true, d);
    gs_arch_tower(a, "audio_tower.layers", eb, GS_PART_AUDIO, layers, false);
    const size_t m = GS_BLOCKS_MAX;
    tensor(a, m, "audio_tower.conv1", GS_PART_AUDIO, mels * 3, d);
    tensor(a, m, "audio_tower.conv1.bias", GS_PART_AUDIO, 1, d);
    tensor(a, m, "audio_tower.conv2", GS_PART_AUDIO, d * 3, d);
    tensor(a, m, "audio_tower.conv2.bias", GS_PART_AUDIO, 1, d);
    add(a, m, "audio_tower.embed_positions", GS_MODULE_EMBEDDING, GS_SPLIT_NONE, GS_PART_AUDIO, 0,
        source, d);
    norm(a, m, "audio_tower.layer_norm", GS_PART_AUDIO, true, d);
    linear(a, m, "multi_modal_projector.linear_1", GS_SPLIT_NONE, GS_PART_AUDIO, false, ffn,
           a->hidden_size);
    linear(a, m, "multi_modal_projector.linear_2", GS_SPLIT_NONE, GS_PART_AUDIO, false,
           a->hidden_size, a->hidden_size);
}

const struct model_type MODELS_MULTIMODAL[] = {
    {"gemma3", "Gemma3ForConditionalGeneration", read_gemma3},
    {"mistral3", "Mistral3ForConditionalGeneration", read_mistral3},
    {"lighton_ocr", "LightOnOcrForConditionalGeneration", read_lighton_ocr},
    {"ministral3", "Ministral3ForCausalLM", read_ministral3},
    {"qwen2_vl", "Qwen2VLForConditionalGeneration", read_qwen2_vl},
    {"qwen2_5_vl", "Qwen2_5_VLForConditionalGeneration", read_qwen2_5_vl},
    {"exaone4_5", "Exaone4_5_ForConditionalGeneration", read_exaone4_5},
    {"glm4v", "Glm4vForConditionalGeneration", read_glm4v},
    {"glm4v_moe", "Glm4vMoeForConditionalGeneration", read_glm4v_moe},
    {"glm46v", "Glm46VForConditionalGeneration", read_glm46v},
    {"glmga", NULL, read_glm46v},
    {"glm_ocr", "GlmOcrForConditionalGeneration", read_glm_ocr},
    {"mimo_v2", "MiMoV2ForCausalLM", read_mimo_v2},
    {"deepseek_ocr", "DeepseekOCRForCausalLM", read_deepseek_ocr},
    {"deepseek_ocr2", "DeepseekOCR2ForCausalLM", read_deepseek_ocr2},
    {"mllama", "MllamaForConditionalGeneration", read_mllama},
    {"llama4", "Llama4ForConditionalGeneration", read_llama4},
    {"step3p7", "Step3p7ForConditionalGeneration", read_step3p7},
    {"minimax_m3_vl", "MiniMaxM3SparseForConditionalGeneration", read_minimax_m3_vl},
    {"muse_glimmer", "MuseGlimmerForConditionalGeneration", read_muse_glimmer},
    {"lfm2_vl", "Lfm2VlForConditionalGeneration", read_lfm2_vl},
    {"internvl", "InternVLForConditionalGeneration", read_internvl},
    {"internvl_chat", "InternVLChatModel", read_internvl_chat},
    {"qianfan_ocr", "QianfanOCRForConditionalGeneration", read_qianfan_ocr},
    {"ernie4_5_vl_moe", "Ernie4_5_VLMoeForConditionalGeneration", read_ernie45_vl},
    {"ernie4_5_moe_vl", NULL, read_ernie45_moe_vl},
    {"paddleocr_vl", "PaddleOCRVLForConditionalGeneration", read_paddleocr_vl},
    {"cosmos3_edge", "Cosmos3EdgeForConditionalGeneration", read_cosmos3_edge},
    {"granite4_vision", "Granite4VisionForConditionalGeneration", read_granite4_vision},
    {"minicpmv4_6", "MiniCPMV4_6ForConditionalGeneration", read_minicpmv4_6},
    {"hunyuan_vl", "HunYuanVLForConditionalGeneration", read_hunyuan_vl},
    {"whisper", "WhisperForConditionalGeneration", read_whisper},
    {"voxtral", "VoxtralForConditionalGeneration", read_voxtral},
    {"granite_speech", "GraniteSpeechForConditionalGeneration", read_granite_speech},
    {"granite_speech_plus", "GraniteSpeechPlusForConditionalGeneration", read_granite_speech},
    {NULL, NULL, NULL},
};
