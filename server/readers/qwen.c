/*
 * qwen.c - Qwen3-VL, Qwen3-VL-MoE, Qwen3.5, Qwen3.8-Flash-Next and Qwen3-Omni:
 * vision-language, hybrid (Gated DeltaNet) and omni-modal Qwen models (see reader.h).
 *
 * Each is a language model under text_config and the Qwen3-VL vision tower
 * under vision_config, counted as transformers 5 builds them:
 *   Qwen3VLForConditionalGeneration, Qwen3VLMoeForConditionalGeneration
 *     (modeling_qwen3_vl.py, modeling_qwen3_vl_moe.py): a Qwen3 or Qwen3-MoE
 *     decoder (read with decoder.c's qwen3 and qwen3_moe readers) and the
 *     vision tower with its DeepStack mergers;
 *   Qwen3_5ForConditionalGeneration, Qwen3_5MoeForConditionalGeneration
 *     (modeling_qwen3_5.py, modeling_qwen3_5_moe.py): Qwen3-Next's layer
 *     pattern - Gated DeltaNet layers with a fixed state per sequence and
 *     gated full attention every full_attention_interval-th layer - with a
 *     dense MLP or Qwen3-Next's routed experts, and the vision tower without
 *     DeepStack mergers;
 *   Qwen4ExpForConditionalGeneration (modeling_qwen4_exp.py, Qwen3.8-Flash-Next):
 *     Qwen3.5's layers with a QSA indexer on the attention layers, gated residuals over
 *     hc_count streams instead of layer norms, and one layer's n-gram hash table (PLE);
 *   Qwen3OmniMoeForConditionalGeneration (modular_qwen3_omni_moe.py): the
 *     thinker (Qwen3-MoE text, the vision tower, an audio encoder) under
 *     thinker_config, and the talker and code2wav that generate speech.
 * Vision and audio towers never add KV cache (their attention is
 * bidirectional, and vLLM serves Qwen3-Omni's thinker alone) and count
 * under GS_PART_VISION and GS_PART_AUDIO. Module names are transformers'
 * attribute names; tensor-parallel splits follow vLLM's qwen3_vl.py,
 * qwen3_5.py and qwen3_omni_moe_thinker.py. The published counts each
 * reader reproduces are written out in tests/fixtures/configs/<model_type>/
 * README.md and checked in tests/server/test_models_qwen.c.
 */
#include "readers/decoder.h"

#include "formats/jsonv.h"
#include "gs/units.h"

#include <string.h>

/* ---------------------------------------------------------------- toolkit */

/* A module of `part` in block `b`, or the model when b is GS_BLOCKS_MAX. */
static void add(struct gs_arch *a, size_t b, const char *name, enum gs_module_kind kind,
                enum gs_split split, enum gs_part part, unsigned flags, uint64_t in, uint64_t out,
                uint64_t count)
{
    if (b >= GS_BLOCKS_MAX)
        gs_arch_module(a, name, kind, split, part, flags, in, out, count);
    else
        gs_block_module(a, b, name, kind, split, part, flags, in, out, count);
}

/* nn.Linear(in, out), with a bias when `bias`: the towers' projections. */
static void linear(struct gs_arch *a, size_t b, const char *name, enum gs_split split,
                   enum gs_part part, bool bias, uint64_t in, uint64_t out, uint64_t count)
{
    add(a, b, name, GS_MODULE_LINEAR, split, part, GS_MOD_QUANT | (bias ? GS_MOD_BIAS : 0), in, out,
        count);
}

/* nn.LayerNorm(width) (a weight and a bias), or an RMSNorm (a weight) when !`shift`. */
static void tower_norm(struct gs_arch *a, size_t b, const char *name, enum gs_part part,
                       bool shift, uint64_t width, uint64_t count)
{
    add(a, b, name, GS_MODULE_NORM, GS_SPLIT_NONE, part, shift ? GS_MOD_BIAS : 0, 1, width, count);
}

/* A biased projection and a LayerNorm of the vision tower. */
static void biased_linear(struct gs_arch *a, size_t b, const char *name, enum gs_split split,
                          uint64_t in, uint64_t out, uint64_t count)
{
    linear(a, b, name, split, GS_PART_VISION, true, in, out, count);
}

static void layer_norm(struct gs_arch *a, size_t b, const char *name, uint64_t width,
                       uint64_t count)
{
    tower_norm(a, b, name, GS_PART_VISION, true, width, count);
}

/* A Qwen RMSNorm over the text width (one weight vector). */
static void rms_norm(struct gs_arch *a, size_t b, const char *name)
{
    gs_build_norms(a, b, name, 1, false);
}

/* The reader of a decoder.c model type (the text model a VL config wraps). */
static model_read_fn decoder_reader(const char *model_type)
{
    for (const struct model_type *m = MODELS_DECODER; m->model_type != NULL; m++)
        if (strcmp(m->model_type, model_type) == 0)
            return m->read;
    return NULL;
}

/* Every text model here positions tokens with multimodal rotary embeddings
 * (M-RoPE: temporal, height and width sections of the rotary dimension):
 * transformers' Qwen3VLTextRotaryEmbedding and Qwen3_5TextRotaryEmbedding
 * apply mrope_section whether or not the config names it (defaults [24, 20, 20]
 * and [11, 11, 10]), and the published configs name it in rope_scaling
 * (rope_parameters), which is what vLLM's get_rope tests to build an
 * MRotaryEmbedding (rotary_embedding/__init__.py: rope type "default" with
 * "mrope_section") - whose cos/sin table covers 4 x max_position_embeddings
 * positions (gs_arch.rope_mrope). Marked by architecture because some copies of
 * these configs (ai-dynamo/aiconfigurator's Qwen3-VL-30B-A3B-Instruct) drop
 * rope_scaling. */
static void mark_mrope(struct gs_arch *a)
{
    a->rope_mrope = true;
}

/* Where tie_word_embeddings is read: the top-level value the composite config (Qwen3VLConfig,
 * Qwen3_5Config) keeps - transformers 5 ties as the model's own config says
 * (modeling_utils.get_expanded_tied_weights_keys: getattr(self.config, "tie_word_embeddings")),
 * and a config it saves writes the text config's base default (true) beside an untied
 * top-level false -, else the text config's own value (lifted to the top when the top has none,
 * transformers PR #45857), else false (both classes default to untied). Every published config
 * in the tests gives both agreeing, or the top-level alone. */
static bool read_tie_or(struct model_reader *r, struct model_reader *text, bool fallback)
{
    if (rd_get(r, "tie_word_embeddings") != NULL || rd_get(text, "tie_word_embeddings") == NULL)
        return rd_flag(r, "tie_word_embeddings", fallback);
    return rd_flag(text, "tie_word_embeddings", fallback);
}

static bool read_tie(struct model_reader *r, struct model_reader *text)
{
    return read_tie_or(r, text, false);
}

/* Opens text_config; a config without one keeps the text fields at its top
 * level (the flat layout), read in place. */
static void open_text(struct model_reader *r, struct model_reader *text)
{
    if (!rd_sub(r, "text_config", text))
        *text = *r;
}

/* Closes a nested reader: its failure is the parent's. */
static void close_text(struct model_reader *r, const struct model_reader *text)
{
    if (!text->ok)
        r->ok = false;
}

/* ------------------------------------------------------ the vision tower */

/* Qwen3VLVisionConfig's defaults (configuration_qwen3_vl.py), used for a
 * field the vision_config leaves out. */
struct vision_dims {
    uint64_t depth, width, inner, heads, channels, patch, temporal, merge, out, positions;
    uint64_t deepstack; /* DeepStack mergers: len(deepstack_visual_indexes) */
};

/* The patch mergers' attribute names: Qwen3VLVisionPatchMerger's (norm, linear_fc1, linear_fc2)
 * or Qwen3-Omni's Qwen3OmniMoeVisionPatchMerger (ln_q, mlp.0, mlp.2, and merger_list). */
struct vision_names {
    const char *merger_norm, *merger_fc1, *merger_fc2;
    const char *deepstack_norm, *deepstack_fc1, *deepstack_fc2;
};

static const struct vision_names QWEN3_VL_VISION = {
    "visual.merger.norm", "visual.merger.linear_fc1", "visual.merger.linear_fc2",
    "visual.deepstack_merger_list.norm", "visual.deepstack_merger_list.linear_fc1",
    "visual.deepstack_merger_list.linear_fc2"};

static const struct vision_names QWEN3_OMNI_VISION = {
    "visual.merger.ln_q",      "visual.merger.mlp.0",      "visual.merger.mlp.2",
    "visual.merger_list.ln_q", "visual.merger_list.mlp.0", "visual.merger_list.mlp.2"};

static struct vision_dims read_vision_dims(struct model_reader *v, bool deepstack)
{
    struct vision_dims d = {
        .depth = rd_dim(v, NAMES("depth"), false, 27),
        .width = rd_dim(v, NAMES("hidden_size"), false, 1152),
        .inner = rd_dim(v, NAMES("intermediate_size"), false, 4304),
        .heads = rd_size(v, NAMES("num_heads"), 16),
        .channels = rd_dim(v, NAMES("in_channels"), false, 3),
        .patch = rd_dim(v, NAMES("patch_size"), false, 16),
        .temporal = rd_dim(v, NAMES("temporal_patch_size"), false, 2),
        .merge = rd_dim(v, NAMES("spatial_merge_size"), false, 2),
        .out = rd_dim(v, NAMES("out_hidden_size"), false, 3584),
        .positions = rd_dim(v, NAMES("num_position_embeddings"), false, 2304),
        .deepstack = 3, /* the class default [8, 16, 24] */
    };
    const json_t *indexes = NULL;
    if (rd_get(v, "deepstack_visual_indexes") != NULL)
        d.deepstack = rd_array(v, "deepstack_visual_indexes", &indexes);
    if (!deepstack)
        d.deepstack = 0;
    if (d.heads != 0 && d.width % d.heads != 0)
        rd_fail(v, "num_heads", GS_ERR_INVALID, "must divide hidden_size %llu",
                (unsigned long long)d.width);
    return d;
}

/* Qwen3VLVisionBlock: norm1 and norm2 LayerNorms, Qwen3VLVisionAttention
 * (attn.qkv Linear(w, 3w) and attn.proj Linear(w, w), both biased; vLLM
 * QKVParallelLinear and RowParallelLinear) and Qwen3VLVisionMLP
 * (linear_fc1 w -> inner and linear_fc2 inner -> w, biased, GELU). */
static void vision_block(struct gs_arch *a, const struct vision_dims *d)
{
    const size_t b = gs_arch_new_block(a);
    struct gs_block *blk = gs_arch_block(a, b);
    if (blk == NULL) {
        a->overflow = true;
        return;
    }
    const uint64_t w = d->width;
    blk->mixer = GS_MIXER_ATTENTION;
    memset(&blk->attn, 0, sizeof(blk->attn));
    blk->attn.heads = blk->attn.kv_heads = d->heads;
    blk->attn.head_dim = blk->attn.v_head_dim = d->heads ? w / d->heads : 0;
    blk->attn.cached = false; /* bidirectional within an image: no KV cache */
    blk->mlp.kind = GS_MLP_DENSE;
    blk->mlp.gated = false;
    blk->mlp.width = d->inner;
    biased_linear(a, b, "attn.qkv", GS_SPLIT_QKV, w, 3 * w, 1);
    biased_linear(a, b, "attn.proj", GS_SPLIT_ROW, w, w, 1);
    biased_linear(a, b, "mlp.linear_fc1", GS_SPLIT_COLUMN, w, d->inner, 1);
    biased_linear(a, b, "mlp.linear_fc2", GS_SPLIT_ROW, d->inner, w, 1);
    /* the block's own norms are over its residual stream (GS_PART_NORMS within the block, as a
     * decoder layer's: the training walk reads the tower's width from them); the tower's part
     * still counts them as vision parameters */
    tower_norm(a, b, "norm1", GS_PART_NORMS, true, w, 1);
    tower_norm(a, b, "norm2", GS_PART_NORMS, true, w, 1);
    gs_arch_tower(a, "visual.blocks", b, GS_PART_VISION, d->depth, false);
}

/* Qwen3VLVisionModel (modeling_qwen3_vl.py): patch_embed.proj, a Conv3d
 * (channels x temporal x patch x patch -> w) with a bias; pos_embed, an
 * nn.Embedding of num_position_embeddings rows (interpolated to the image
 * grid); the blocks; merger (Qwen3VLVisionPatchMerger: norm LayerNorm(w),
 * linear_fc1 w m^2 -> w m^2 and linear_fc2 w m^2 -> out_hidden_size, both
 * biased) and, when `deepstack`, one more merger per
 * deepstack_visual_indexes entry whose norm is over the merged width
 * (use_postshuffle_norm). Qwen3_5VisionModel deletes the DeepStack mergers.
 * The rotary embedding is a buffer. */
/* The largest image and video the Qwen3-VL and Qwen3.5 checkpoints' processors accept:
 * preprocessor_config.json size.longest_edge 16,777,216 pixels (Qwen2VLImageProcessor's
 * smart_resize bound on height x width) and video_preprocessor_config.json 25,165,824 over
 * height x width x frames (Qwen3VLVideoProcessor), as the published checkpoints ship them.
 * config.json does not carry them. */
#define QWEN3_VL_IMAGE_MAX_PIXELS 16777216ULL
#define QWEN3_VL_VIDEO_MAX_PIXELS 25165824ULL

/* The processors' largest items, the dummies vLLM's profile run chooses between: an image of
 * max_pixels / (patch x merge)^2 embeddings, each of merge^2 patches of channels x temporal x
 * patch^2 values (a still image is repeated to temporal_patch_size frames), and a video of
 * max_pixels / (patch x merge)^2 / temporal embeddings, whose prompt carries timestamp text
 * (Qwen3VLProcessor: "<t seconds>" before each frame group). */
static void qwen3_vl_dummies(struct gs_arch *a, const struct vision_dims *d)
{
    const struct gs_mm_item image =
        rd_qwen_vl_item(QWEN3_VL_IMAGE_MAX_PIXELS, d->channels, d->temporal, d->patch, d->merge);
    /* the video's bound covers its frames: max_pixels / temporal per two-frame group */
    const struct gs_mm_item video =
        d->temporal ? rd_qwen_vl_item(QWEN3_VL_VIDEO_MAX_PIXELS / d->temporal, d->channels,
                                      d->temporal, d->patch, d->merge)
                    : (struct gs_mm_item){.layout = GS_MM_PER_IMAGE};
    if (image.tokens == 0)
        return;
    bool ovf = false;
    const uint64_t width = gs_mul(d->out, 1 + d->deepstack, &ovf);
    if (ovf)
        return;
    a->mm_image = image;
    a->mm_video = video;
    a->mm_video_timestamps = true;
    a->mm_deepstack = d->deepstack;
    /* fast_pos_embed_interpolate's result, kept to the end of the tower's forward */
    a->mm_patch_kept = d->width;
    a->mm_embed_width = width;
}

static void read_vision(struct model_reader *r, struct gs_arch *a, bool deepstack,
                        const struct vision_names *n, bool processor_dummies)
{
    struct model_reader v;
    json_t *empty = NULL;
    if (!rd_sub(r, "vision_config", &v)) {
        if (!r->ok)
            return;
        /* the composite config builds the vision config's defaults */
        empty = json_object();
        if (empty == NULL) {
            rd_fail(r, "", GS_ERR_NOMEM, "out of memory reading the vision config");
            return;
        }
        v = *r;
        v.config = empty;
        jsonv_pointer(v.pointer, sizeof(v.pointer), r->pointer, "vision_config");
    }
    const struct vision_dims d = read_vision_dims(&v, deepstack);
    json_decref(empty);
    close_text(r, &v);
    if (!r->ok)
        return;
    vision_block(a, &d);
    if (processor_dummies) {
        qwen3_vl_dummies(a, &d);
    } else {
        /* the processor's largest image not read (no serving dummies, image_tokens required for
         * training), the tower's forward is: a token is merge^2 patches (gs_mm_item) */
        bool ovf = false;
        const uint64_t values =
            gs_mul(gs_mul(d.channels, d.temporal, &ovf), gs_mul(d.patch, d.patch, &ovf), &ovf);
        const uint64_t patches = gs_mul(d.merge, d.merge, &ovf);
        if (!ovf)
            a->mm_image = (struct gs_mm_item){.pixels = gs_mul(patches, values, &ovf),
                                              .patches = patches,
                                              .layout = GS_MM_PER_IMAGE};
    }
    const size_t m = GS_BLOCKS_MAX;
    const uint64_t w = d.width, merged = d.width * d.merge * d.merge;
    add(a, m, "visual.patch_embed.proj", GS_MODULE_TENSOR, GS_SPLIT_NONE, GS_PART_VISION, 0,
        d.channels * d.temporal * d.patch * d.patch, w, 1);
    add(a, m, "visual.patch_embed.proj.bias", GS_MODULE_TENSOR, GS_SPLIT_NONE, GS_PART_VISION, 0, 1,
        w, 1);
    add(a, m, "visual.pos_embed", GS_MODULE_EMBEDDING, GS_SPLIT_NONE, GS_PART_VISION, 0,
        d.positions, w, 1);
    layer_norm(a, m, n->merger_norm, w, 1);
    biased_linear(a, m, n->merger_fc1, GS_SPLIT_COLUMN, merged, merged, 1);
    biased_linear(a, m, n->merger_fc2, GS_SPLIT_ROW, merged, d.out, 1);
    if (d.deepstack > 0) {
        /* vLLM keeps one max_num_batched_tokens x text hidden_size buffer per DeepStack level,
         * created with the model (qwen3_vl.py Qwen3VLForConditionalGeneration.__init__,
         * qwen3_vl_moe.py Qwen3VLMoeForConditionalGeneration.__init__,
         * qwen3_omni_moe_thinker.py: deepstack_input_embeds = [torch.zeros(
         * scheduler_config.max_num_batched_tokens, text_config.hidden_size) ...]) */
        a->token_buffer_width = d.deepstack * a->hidden_size;
        layer_norm(a, m, n->deepstack_norm, merged, d.deepstack);
        biased_linear(a, m, n->deepstack_fc1, GS_SPLIT_COLUMN, merged, merged, d.deepstack);
        biased_linear(a, m, n->deepstack_fc2, GS_SPLIT_ROW, merged, d.out, d.deepstack);
    }
}

/* ---------------------------------------------------------------- Qwen3-VL */

/* The text model with decoder.c's reader for `text_type`, its
 * tie_word_embeddings settled first (read_tie) on a copy of the text config. */
static void read_vl_text_tied(struct model_reader *r, struct gs_arch *a, const char *text_type,
                              bool tie_fallback)
{
    struct model_reader text;
    open_text(r, &text);
    if (!r->ok)
        return;
    json_t *copy = json_copy((json_t *)(uintptr_t)text.config);
    if (copy == NULL ||
        json_object_set_new(copy, "tie_word_embeddings",
                            json_boolean(read_tie_or(r, &text, tie_fallback))) != 0) {
        json_decref(copy);
        rd_fail(r, "", GS_ERR_NOMEM, "out of memory reading the text config");
        return;
    }
    text.config = copy;
    const model_read_fn read = decoder_reader(text_type);
    if (read != NULL) {
        read(&text, a);
        mark_mrope(a);
    } else {
        rd_fail(&text, "model_type", GS_ERR_UNSUPPORTED, "no %s reader", text_type);
    }
    json_decref(copy);
    close_text(r, &text);
}

static void read_vl_text(struct model_reader *r, struct gs_arch *a, const char *text_type)
{
    read_vl_text_tied(r, a, text_type, false);
}

/* Qwen3VLForConditionalGeneration: Qwen3VLTextModel is Qwen3Model (q/k/v/o
 * without bias by default, q_norm and k_norm over head_dim, SwiGLU MLP, two
 * RMSNorms per layer), then the vision tower with DeepStack mergers and
 * lm_head unless tied (vLLM qwen3_vl.py Qwen3VLForConditionalGeneration). */
static void read_qwen3_vl(struct model_reader *r, struct gs_arch *a)
{
    read_vl_text(r, a, "qwen3");
    if (r->ok)
        read_vision(r, a, true, &QWEN3_VL_VISION, true);
}

/* Qwen3VLMoeForConditionalGeneration: Qwen3VLMoeTextDecoderLayer is
 * Qwen3MoeDecoderLayer - routed experts (gate Linear(h, E), experts of
 * moe_intermediate_size, no shared expert) on every decoder_sparse_step-th
 * layer but mlp_only_layers, else a dense MLP of intermediate_size - with
 * Qwen3 attention; the vision tower as Qwen3-VL's (vLLM qwen3_vl_moe.py). */
static void read_qwen3_vl_moe(struct model_reader *r, struct gs_arch *a)
{
    read_vl_text(r, a, "qwen3_moe");
    if (r->ok)
        read_vision(r, a, true, &QWEN3_VL_VISION, true);
}

/* NVIDIA Cosmos 3's reasoner (transformers models/cosmos3_omni/modular_cosmos3_omni.py:
 * Cosmos3OmniForConditionalGeneration is Qwen3VLForConditionalGeneration, its config
 * Qwen3VLConfig under another model_type; vLLM models/cosmos3.py registers
 * Cosmos3ForConditionalGeneration as Qwen3-VL with a key mapper; model_type cosmos3 is the
 * renamed cosmos3_omni). The unified checkpoint's generator, sound and action towers are
 * dropped at load (_keys_to_ignore_on_load_unexpected) and not counted. Qwen3VLTextModel builds
 * dense layers whatever text_config's model_type, so the text is read as Qwen3-VL's. Cosmos 3
 * Edge's policy checkpoints write this model_type over Cosmos 3 Edge's own text and vision
 * models (text_config model_type cosmos3_edge_text, a projector_config): read by the
 * cosmos3_edge reader. */
static void read_cosmos3(struct model_reader *r, struct gs_arch *a)
{
    struct model_reader text;
    const bool has = rd_sub(r, "text_config", &text);
    if (!r->ok)
        return;
    const char *type = has ? rd_string(&text, "model_type") : NULL;
    if ((type != NULL && strcmp(type, "cosmos3_edge_text") == 0) ||
        rd_get(r, "projector_config") != NULL) {
        for (const struct model_type *m = MODELS_MULTIMODAL; m->model_type; m++)
            if (strcmp(m->model_type, "cosmos3_edge") == 0) {
                m->read(r, a);
                return;
            }
    }
    read_qwen3_vl(r, a);
}

/* ----------------------------------------------------------------- Qwen3.5 */

/* The Gated DeltaNet's shape (Qwen3_5TextConfig: linear_* fields). */
struct gdn {
    uint64_t k_heads, v_heads, k_dim, v_dim, kernel;
    bool fp32_state;
    uint8_t config_state_bytes; /* mamba_ssm_dtype's element size; 0 when absent */
    uint8_t cache_dtype_bytes;  /* mamba_ssm_cache_dtype's (TensorRT-LLM's key); 0 when absent */
};

/* Qwen3_5GatedDeltaNet (`linear_attn`, modular_qwen3_5.py): in_proj_qkv
 * h -> 2 key_dim + value_dim, in_proj_z h -> value_dim, in_proj_b and
 * in_proj_a h -> v_heads (all without bias), a depthwise conv1d over
 * 2 key_dim + value_dim without bias, dt_bias and A_log per value head, a
 * gated RMSNorm over head_v_dim shared by the heads, out_proj
 * value_dim -> h. vLLM keeps (gated_delta_net_state_shape) a conv window of
 * (kernel - 1) x conv_dim and a v_heads x head_v_dim x head_k_dim state per
 * sequence; Qwen3_5ForConditionalGenerationConfig (vLLM models/config.py)
 * sets mamba_ssm_cache_dtype from the config's mamba_ssm_dtype, so the
 * published "float32" keeps the recurrent state in fp32. */
static void qwen3_5_gdn(struct gs_arch *a, size_t b, const struct gdn *g)
{
    struct gs_block *blk = gs_arch_block(a, b);
    if (blk == NULL) {
        a->overflow = true;
        return;
    }
    const uint64_t h = a->hidden_size;
    const uint64_t key_dim = g->k_heads * g->k_dim, value_dim = g->v_heads * g->v_dim;
    const uint64_t conv = 2 * key_dim + value_dim;
    blk->mixer = GS_MIXER_RECURRENT;
    blk->rec = (struct gs_recurrent){.conv_channels = conv,
                                     .conv_kernel = g->kernel,
                                     .state_heads = g->v_heads,
                                     .state_rows = g->v_dim,
                                     .state_cols = g->k_dim,
                                     .in_width = conv + value_dim + 2 * g->v_heads,
                                     .inner = value_dim,
                                     .fp32_state = g->fp32_state,
                                     .config_state_bytes = g->config_state_bytes,
                                     .cache_dtype_bytes = g->cache_dtype_bytes,
                                     .delta_rule = true,
                                     .scan = GS_SCAN_GATED_DELTA_RULE};
    const enum gs_part p = GS_PART_ATTENTION;
    gs_block_module(a, b, "in_proj_qkv", GS_MODULE_LINEAR, GS_SPLIT_COLUMN, p, GS_MOD_QUANT, h,
                    conv, 1);
    gs_block_module(a, b, "in_proj_z", GS_MODULE_LINEAR, GS_SPLIT_COLUMN, p, GS_MOD_QUANT, h,
                    value_dim, 1);
    /* b and a stay unquantized (NVIDIA's NVFP4 Qwen3.5 checkpoints target qkv, z, out only) */
    gs_block_module(a, b, "in_proj_b", GS_MODULE_LINEAR, GS_SPLIT_COLUMN, p, 0, h, g->v_heads, 1);
    gs_block_module(a, b, "in_proj_a", GS_MODULE_LINEAR, GS_SPLIT_COLUMN, p, 0, h, g->v_heads, 1);
    gs_block_module(a, b, "conv1d", GS_MODULE_TENSOR, GS_SPLIT_COLUMN, p, 0, g->kernel, conv, 1);
    gs_block_module(a, b, "dt_bias", GS_MODULE_TENSOR, GS_SPLIT_COLUMN, p, 0, 1, g->v_heads, 1);
    gs_block_module(a, b, "A_log", GS_MODULE_TENSOR, GS_SPLIT_COLUMN, p, 0, 1, g->v_heads, 1);
    gs_block_module(a, b, "norm", GS_MODULE_NORM, GS_SPLIT_NONE, p, 0, 1, g->v_dim, 1);
    gs_block_module(a, b, "out_proj", GS_MODULE_LINEAR, GS_SPLIT_ROW, p, GS_MOD_QUANT, value_dim,
                    h, 1);
}

/* Qwen3_5Attention (= Qwen3NextAttention): q_proj h -> heads x 2 head_dim
 * (the query and its sigmoid output gate), k_proj, v_proj, o_proj, with
 * attention_bias; q_norm and k_norm RMSNorms over head_dim. */
static void qwen3_5_attention(struct gs_arch *a, size_t b, const struct decoder_plan *plan,
                              bool bias)
{
    struct gs_attention spec;
    memset(&spec, 0, sizeof(spec));
    spec.heads = plan->heads;
    spec.kv_heads = plan->kv_heads;
    spec.head_dim = plan->head_dim;
    spec.cached = true;
    gs_build_attention(a, b, &spec, &GS_ATTENTION_NAMES, bias, bias);
    struct gs_block *blk = gs_arch_block(a, b);
    if (blk == NULL)
        return;
    for (size_t i = 0; i < blk->module_count; i++)
        if (strcmp(blk->modules[i].name, "q_proj") == 0)
            blk->modules[i].out *= 2;
    blk->attn.output_gate = GS_GATE_SIGMOID; /* attn_output * torch.sigmoid(gate), then o_proj */
    gs_block_module(a, b, "q_norm", GS_MODULE_NORM, GS_SPLIT_NONE, GS_PART_ATTENTION, 0, 1,
                    plan->head_dim, 1);
    gs_block_module(a, b, "k_norm", GS_MODULE_NORM, GS_SPLIT_NONE, GS_PART_ATTENTION, 0, 1,
                    plan->head_dim, 1);
}

/* One Qwen3.5 layer kind: the mixer, the MLP (Qwen3_5MLP of
 * intermediate_size, or Qwen3_5MoeSparseMoeBlock: gate, experts of
 * moe_intermediate_size, shared_expert and shared_expert_gate), and
 * input_layernorm and post_attention_layernorm. */
static size_t qwen3_5_block(struct gs_arch *a, const struct decoder_plan *plan,
                            const struct gdn *g, bool full, bool routed, bool bias)
{
    const size_t b = gs_arch_new_block(a);
    if (full)
        qwen3_5_attention(a, b, plan, bias);
    else
        qwen3_5_gdn(a, b, g);
    if (routed)
        gs_build_moe(a, b, &plan->experts);
    else
        gs_build_mlp(a, b, plan->intermediate, true, false, &GS_MLP_NAMES);
    rms_norm(a, b, "input_layernorm");
    rms_norm(a, b, "post_attention_layernorm");
    return b;
}

/* layer_types ("linear_attention" or one of `attention`'s names, a NULL-terminated list whose
 * first entry names it in errors) or, without it, every full_attention_interval-th layer full,
 * as Qwen3NextConfig and Qwen4ExpTextConfig derive it. */
static void qwen3_5_layer_pattern(struct model_reader *t, uint64_t layers, bool full[GS_LAYERS_MAX],
                                  const char *const *attention)
{
    memset(full, 0, GS_LAYERS_MAX * sizeof(full[0]));
    const uint64_t interval = rd_dim(t, NAMES("full_attention_interval"), false, 4);
    const json_t *list = NULL;
    const size_t n = rd_array(t, "layer_types", &list);
    if (list != NULL && n != layers) {
        rd_fail(t, "layer_types", GS_ERR_INVALID, "has %zu entries for %llu layers", n,
                (unsigned long long)layers);
        return;
    }
    for (uint64_t l = 0; l < layers && l < GS_LAYERS_MAX && t->ok; l++) {
        if (list == NULL) {
            full[l] = interval != 0 && (l + 1) % interval == 0;
            continue;
        }
        const char *s = json_string_value(json_array_get(list, l));
        bool known = s != NULL && strcmp(s, "linear_attention") == 0;
        for (size_t i = 0; s != NULL && attention[i] != NULL; i++)
            if (strcmp(s, attention[i]) == 0)
                known = full[l] = true;
        if (!known)
            rd_fail(t, "layer_types", GS_ERR_INVALID,
                    "entry %llu must be \"linear_attention\" or \"%s\"", (unsigned long long)l,
                    attention[0]);
    }
}

/* The Gated DeltaNet fields with Qwen3_5TextConfig's defaults. */
static struct gdn qwen3_5_read_gdn(struct model_reader *t)
{
    const char *ssm_dtype = rd_string(t, "mamba_ssm_dtype");
    return (struct gdn){
        .k_heads = rd_dim(t, NAMES("linear_num_key_heads"), false, 16),
        .v_heads = rd_dim(t, NAMES("linear_num_value_heads"), false, 32),
        .k_dim = rd_dim(t, NAMES("linear_key_head_dim"), false, 128),
        .v_dim = rd_dim(t, NAMES("linear_value_head_dim"), false, 128),
        .kernel = rd_dim(t, NAMES("linear_conv_kernel_dim"), false, 4),
        .fp32_state = ssm_dtype != NULL && strcmp(ssm_dtype, "float32") == 0,
        .config_state_bytes = rd_dtype_bytes(ssm_dtype),
        .cache_dtype_bytes = rd_dtype_bytes(rd_string(t, "mamba_ssm_cache_dtype")),
    };
}

/* The MTP module transformers skips (Qwen3_5ForCausalLM ignores "^mtp.*")
 * and vLLM's drafter builds (qwen3_5_mtp.py Qwen3_5MultiTokenPredictor):
 * mtp_num_hidden_layers full-attention layers of the model's own kind, fc
 * 2h -> h without bias, pre_fc_norm_hidden, pre_fc_norm_embedding and
 * norm; the embedding and head are the model's (mtp_use_dedicated_embeddings
 * false in every published config). */
static void qwen3_5_mtp(struct gs_arch *a, const struct decoder_plan *plan, const struct gdn *g,
                        bool routed, bool bias, uint64_t layers)
{
    if (layers == 0)
        return;
    const size_t b = qwen3_5_block(a, plan, g, true, routed, bias);
    const uint64_t h = a->hidden_size;
    /* vLLM: ColumnParallelLinear(2h, h, bias=False, gather_output=True), each rank h / t rows */
    gs_block_module(a, b, "fc", GS_MODULE_LINEAR, GS_SPLIT_COLUMN, GS_PART_ATTENTION, 0, 2 * h, h,
                    1);
    rms_norm(a, b, "pre_fc_norm_hidden");
    rms_norm(a, b, "pre_fc_norm_embedding");
    rms_norm(a, b, "norm");
    gs_arch_tower(a, "mtp", b, GS_PART_MTP, layers, false);
}

/* Qwen3_5TextModel (= Qwen3NextModel): embed_tokens, the layers, norm; the
 * head of Qwen3_5ForConditionalGeneration unless tied. Qwen3_5TextConfig
 * defaults head_dim to 256; the MoE config has no intermediate_size (every
 * layer routes: Qwen3_5MoeDecoderLayer always builds the sparse block). */
static void qwen3_5_text(struct model_reader *r, struct model_reader *t, struct gs_arch *a,
                         bool moe)
{
    struct decoder_plan plan;
    decoder_read_dims(t, a, &plan, false, 256, moe);
    a->tie_word_embeddings = read_tie(r, t);
    bool full[GS_LAYERS_MAX];
    static const char *const attention[] = {"full_attention", NULL};
    qwen3_5_layer_pattern(t, plan.layers, full, attention);
    if (moe) {
        decoder_read_experts(t, &plan, false);
        plan.experts.shared_width = rd_dim(t, NAMES("shared_expert_intermediate_size"), false, 0);
        plan.experts.shared_gate = plan.experts.shared_width > 0;
        /* Qwen3_5MoeTopKRouter (the type arrived in 5.2; earlier code kept an nn.Linear) */
        plan.experts.router_linear_until = GS_ROUTER_TOPK_FROM_5;
    }
    const struct gdn g = qwen3_5_read_gdn(t);
    const bool bias = rd_flag(t, "attention_bias", false);
    const uint64_t mtp = rd_dim(t, NAMES("mtp_num_hidden_layers"), false, 0);
    if (!t->ok)
        return;
    size_t kinds[2];
    bool made[2] = {false, false};
    gs_arch_set_layers(a, plan.layers, 0);
    for (uint64_t l = 0; l < plan.layers && l < GS_LAYERS_MAX; l++) {
        const int f = full[l];
        if (!made[f]) {
            kinds[f] = qwen3_5_block(a, &plan, &g, f, moe, bias);
            made[f] = true;
        }
        gs_arch_set_layer(a, l, kinds[f]);
    }
    gs_arch_embeddings(a, a->hidden_size, "lm_head", false);
    rms_norm(a, GS_BLOCKS_MAX, "norm");
    qwen3_5_mtp(a, &plan, &g, moe, bias, mtp);
}

static void read_qwen3_5_common(struct model_reader *r, struct gs_arch *a, bool moe)
{
    struct model_reader text;
    open_text(r, &text);
    if (!r->ok)
        return;
    qwen3_5_text(r, &text, a, moe);
    mark_mrope(a);
    close_text(r, &text);
    if (r->ok)
        read_vision(r, a, false, &QWEN3_VL_VISION, true);
}

/* Qwen3_5ForConditionalGeneration (modeling_qwen3_5.py; vLLM qwen3_5.py):
 * dense Qwen3.5 (27B and the small sizes). */
static void read_qwen3_5(struct model_reader *r, struct gs_arch *a)
{
    read_qwen3_5_common(r, a, false);
}

/* Qwen3_5ForCausalLM and Qwen3_5MoeForCausalLM (model_type qwen3_5_text,
 * qwen3_5_moe_text): the language model alone, its config at the top level
 * (a text-only checkpoint, or a wrapper's text_config: MiniCPM-V 4.6's). */
static void read_qwen3_5_text(struct model_reader *r, struct gs_arch *a)
{
    qwen3_5_text(r, r, a, false);
    mark_mrope(a);
}

static void read_qwen3_5_moe_text(struct model_reader *r, struct gs_arch *a)
{
    qwen3_5_text(r, r, a, true);
    mark_mrope(a);
}

/* Qwen3_5MoeForConditionalGeneration (modeling_qwen3_5_moe.py; vLLM
 * qwen3_5.py Qwen3_5MoeForConditionalGeneration): Qwen3.5 with routed
 * experts in every layer (35B-A3B, 122B-A10B, 397B-A17B). */
static void read_qwen3_5_moe(struct model_reader *r, struct gs_arch *a)
{
    read_qwen3_5_common(r, a, true);
}

/* ----------------------------------------------------- Qwen3.8-Flash-Next */

/* Qwen3.8-Flash-Next (model_type qwen4_exp; transformers models/qwen4_exp, vLLM
 * vllm/models/qwen4_exp, SGLang models/qwen4_exp.py): Qwen3.5's Gated DeltaNet beside gated
 * attention whose lightning indexer ("QSA") scores pooled keys, routed experts in every layer,
 * GatedResidual hyper-connections instead of layer norms, and one layer's n-gram hash
 * embedding ("PLE"). */
struct qwen4_exp {
    struct decoder_plan plan;
    struct gdn gdn;
    struct gs_attention index; /* the indexer's fields of a QSA layer */
    uint64_t streams, lowrank; /* hc_count residual streams, hc_lowrank */
    bool bias;                 /* attention_bias */
    uint64_t ple_layer;        /* 0-based; UINT64_MAX: none */
    uint64_t ple_dim, ple_kernel, ngram_heads, ngram_dim, ngram_rows;
    bool fp8_table; /* the checkpoint stores the n-gram table in fp8 (qwen4_exp_fp8_table) */
    bool qsa[GS_LAYERS_MAX];
};

/* a x b mod m, through a 128-bit product */
static uint64_t mul_mod(uint64_t a, uint64_t b, uint64_t m)
{
    return (uint64_t)((unsigned __int128)a * b % m);
}

/* Miller-Rabin with the first twelve prime bases: exact for every n below 3.3e24 (Sorenson
 * and Webster, "Strong pseudoprimes to twelve prime bases", Math. Comp. 86 (2017)). */
static bool is_prime(uint64_t n)
{
    static const uint64_t bases[] = {2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37};
    if (n < 2)
        return false;
    for (size_t i = 0; i < sizeof(bases) / sizeof(bases[0]); i++)
        if (n % bases[i] == 0)
            return n == bases[i];
    uint64_t d = n - 1;
    unsigned s = 0;
    while ((d & 1) == 0) {
        d >>= 1;
        s++;
    }
    for (size_t i = 0; i < sizeof(bases) / sizeof(bases[0]); i++) {
        uint64_t x = 1, p = bases[i] % n, e = d;
        for (; e; e >>= 1, p = mul_mod(p, p, n))
            if (e & 1)
                x = mul_mod(x, p, n);
        if (x == 1 || x == n - 1)
            continue;
        bool composite = true;
        for (unsigned r = 1; r < s && composite; r++) {
            x = mul_mod(x, x, n);
            composite = x != n - 1;
        }
        if (composite)
            return false;
    }
    return true;
}

/* The largest ngram_vocab_size_base read: a table of 2^40 rows a head is past any GPU */
#define QWEN4_NGRAM_BASE_MAX ((uint64_t)1 << 40)
/* and the most hash heads (the release has 16): each is a prime search */
#define QWEN4_NGRAM_HEADS_MAX 256

/* Qwen4ExpTextNGramEmbedding's rows (one PLE layer): head g of the table holds the (g + 1)-th prime
 * at or above ngram_vocab_size_base (_find_nth_prime_after(base - 1, g + 1)), the table their sum
 * rounded up to make_ngram_vocab_size_divisible_by. For the release: 16 heads, the primes
 * 20,000,003 ... 20,000,171, 320,001,446 rows padded to 320,001,536. */
static uint64_t qwen4_exp_ngram_rows(struct model_reader *t, uint64_t heads)
{
    /* Qwen4ExpTextConfig's default base is 20,000,000 (the release's) */
    const json_t *v = rd_get(t, "ngram_vocab_size_base");
    const json_int_t base = v == NULL || json_is_null(v) ? 20000000 : json_integer_value(v);
    if ((v != NULL && !json_is_null(v) && !json_is_integer(v)) || base < 2 ||
        (uint64_t)base > QWEN4_NGRAM_BASE_MAX) {
        rd_fail(t, "ngram_vocab_size_base", GS_ERR_INVALID, "must be an integer in 2..%llu",
                (unsigned long long)QWEN4_NGRAM_BASE_MAX);
        return 0;
    }
    const uint64_t divisor = rd_size(t, NAMES("make_ngram_vocab_size_divisible_by"), 128);
    uint64_t prime = (uint64_t)base - 1, rows = 0;
    for (uint64_t g = 0; g < heads; g++) {
        do
            prime++;
        while (!is_prime(prime));
        rows += prime;
    }
    return gs_div_ceil(rows, divisor) * divisor;
}

/* The PLE layer (ple_layer_ids, one-indexed: the release's [2] is layer 1) and its n-gram
 * table: (ngram_size - 1) x heads_per_ngram hash heads (2-grams and 3-grams: the unigram is
 * embed_tokens) of ple_embed_dim / heads values each. One PLE layer is read: a config naming
 * more is refused (no published one does). */
static void qwen4_exp_read_ple(struct model_reader *t, struct qwen4_exp *q, uint64_t hidden)
{
    q->ple_layer = UINT64_MAX;
    const json_t *ids = NULL;
    const size_t n = rd_array(t, "ple_layer_ids", &ids);
    if (n == 0 || !t->ok)
        return;
    const json_t *v = json_array_get(ids, 0);
    if (n > 1) {
        rd_fail(t, "ple_layer_ids", GS_ERR_UNSUPPORTED,
                "names %zu layers: gpusizer reads one PLE layer", n);
        return;
    }
    if (!json_is_integer(v) || json_integer_value(v) < 1 ||
        (uint64_t)json_integer_value(v) > q->plan.layers) {
        rd_fail(t, "ple_layer_ids", GS_ERR_INVALID, "entry 0 must be a layer number in 1..%llu",
                (unsigned long long)q->plan.layers);
        return;
    }
    q->ple_layer = (uint64_t)json_integer_value(v) - 1;
    q->ple_dim = rd_size(t, NAMES("ple_embed_dim"), hidden);
    q->ple_kernel = rd_size(t, NAMES("ple_conv_kernel_size"), 4);
    const uint64_t ngram = rd_size(t, NAMES("ngram_size"), 3);
    if (ngram < 2 && t->ok)
        rd_fail(t, "ngram_size", GS_ERR_INVALID, "must be at least 2 (the table holds 2-grams on)");
    q->ngram_heads = (ngram - 1) * rd_size(t, NAMES("heads_per_ngram"), 8);
    if (!t->ok)
        return;
    if (q->ngram_heads > QWEN4_NGRAM_HEADS_MAX) {
        rd_fail(t, "heads_per_ngram", GS_ERR_UNSUPPORTED,
                "gives %llu n-gram heads: gpusizer reads at most %d",
                (unsigned long long)q->ngram_heads, QWEN4_NGRAM_HEADS_MAX);
        return;
    }
    if (q->ple_dim % q->ngram_heads != 0) {
        rd_fail(t, "ple_embed_dim", GS_ERR_INVALID, "must divide into %llu n-gram heads",
                (unsigned long long)q->ngram_heads);
        return;
    }
    q->ngram_dim = q->ple_dim / q->ngram_heads;
    q->ngram_rows = qwen4_exp_ngram_rows(t, q->ngram_heads);
}

/* Whether the checkpoint stores the n-gram table in fp8 e4m3 with one per-tensor scale: its
 * text config says ple_embedding_dtype "float8_e4m3fn" (the NVFP4 releases), or its
 * quantization_config is fp8 and keeps no ngram_embedding out (the FP8 release: vLLM's Fp8Config
 * and SGLang's qwen4_exp.py quantize the table unless modules_to_not_convert names it;
 * transformers reads the config's modules_to_convert for it). Both engines keep those rows in
 * fp8 and dequantize a looked-up row at a time. */
static bool qwen4_exp_fp8_table(struct model_reader *r, struct model_reader *t)
{
    const char *dtype = rd_string(t, "ple_embedding_dtype");
    if (dtype != NULL && strcmp(dtype, "float8_e4m3fn") == 0)
        return true;
    struct model_reader quant;
    if (!rd_sub(r, "quantization_config", &quant))
        return false;
    const char *method = rd_string(&quant, "quant_method");
    if (method == NULL || strcmp(method, "fp8") != 0)
        return false;
    const json_t *skip = NULL;
    const size_t n = rd_array(&quant, "modules_to_not_convert", &skip);
    for (size_t i = 0; i < n; i++) {
        const char *name = json_string_value(json_array_get(skip, i));
        if (name != NULL && strstr(name, "ngram_embedding") != NULL)
            return false;
    }
    if (!quant.ok)
        r->ok = false;
    return true;
}

/* Qwen4ExpTextGatedResidual, `count` of them: hc_norm (an RMSNorm over the hc_count x h streams
 * a stream at a time, one weight a channel), input_mix_weight_down (n h -> hc_lowrank) and
 * input_mix_weight_up (hc_lowrank -> n h), and with `inject` (a layer's attn_hyper_connection
 * and mlp_hyper_connection; the model's final hyper_connection_mixer has none)
 * block_inject_weight (n h -> n). All without bias; 16-bit in the releases (the FP8 release
 * quantizes the routed experts alone) and replicated on every tensor rank. */
static void qwen4_exp_gated_residual(struct gs_arch *a, size_t b, const char *norm,
                                     const char *down, const char *up, const char *inject,
                                     const struct qwen4_exp *q, uint64_t count)
{
    const uint64_t n = q->streams * a->hidden_size;
    add(a, b, norm, GS_MODULE_NORM, GS_SPLIT_NONE, GS_PART_OTHER, 0, 1, n, count);
    add(a, b, down, GS_MODULE_LINEAR, GS_SPLIT_NONE, GS_PART_OTHER, 0, n, q->lowrank, count);
    add(a, b, up, GS_MODULE_LINEAR, GS_SPLIT_NONE, GS_PART_OTHER, 0, q->lowrank, n, count);
    if (inject != NULL)
        add(a, b, inject, GS_MODULE_LINEAR, GS_SPLIT_NONE, GS_PART_OTHER, 0, n, q->streams, count);
}

/* Qwen4ExpTextAttention: Qwen3.5's gated attention (qwen3_5_attention) and its QSA indexer,
 * Qwen4ExpTextQSAIndexer: index_qk_proj h -> (indexer_n_heads + indexer_kv_heads) x
 * indexer_head_dim (the queries and the one key head in one matrix), q_layernorm and
 * k_layernorm over indexer_head_dim. The key of every indexer_compress_ratio tokens is their
 * mean (no parameter); each query picks indexer_budget / ratio pooled blocks. vLLM caches the
 * pooled keys alone (QSACompressedKeyCache: one 128-value bf16 key a pool, tokens_per_state =
 * the ratio; the index projection a ReplicatedLinear), SGLang the same (QSATokenToKVPool). */
static void qwen4_exp_attention(struct gs_arch *a, size_t b, const struct qwen4_exp *q)
{
    qwen3_5_attention(a, b, &q->plan, q->bias);
    struct gs_block *blk = gs_arch_block(a, b);
    if (blk == NULL)
        return;
    blk->attn.index_heads = q->index.index_heads;
    blk->attn.index_head_dim = q->index.index_head_dim;
    blk->attn.index_topk = q->index.index_topk;
    blk->attn.index_pool = q->index.index_pool;
    const uint64_t d = q->index.index_head_dim;
    gs_block_module(a, b, "indexer.index_qk_proj", GS_MODULE_LINEAR, GS_SPLIT_NONE,
                    GS_PART_ATTENTION, 0, a->hidden_size, (q->index.index_heads + 1) * d, 1);
    gs_block_module(a, b, "indexer.q_layernorm_k_layernorm", GS_MODULE_NORM, GS_SPLIT_NONE,
                    GS_PART_ATTENTION, 0, 1, d, 2);
}

/* Qwen4ExpTextPLELayer on its layer: the n-gram table (ple_embedding.ngram_embedding, one
 * nn.Embedding of ngram_rows x ngram_dim, described in GS_ARCH_DIM_MAX-row parts), key_proj
 * ple_embed_dim -> n h, value_proj ple_embed_dim -> h, norm_key, norm_query and norm_conv over
 * n h, and a depthwise conv1d of ple_conv_kernel_size taps over n h (dilated by ngram_size, no
 * bias). The table's rows are sharded over the tensor ranks (vLLM PLEVocabParallelEmbedding,
 * SGLang VocabParallelEmbedding) and may live in host memory (GS_MOD_HOST_TABLE:
 * gs_engine_engram_tables_on_host); transformers keeps it off the device map too
 * (_no_placement_params). The hash buffers (layer_multipliers, the heads' sizes and offsets:
 * 35 int64 values) are not counted. */
static void qwen4_exp_ple(struct gs_arch *a, size_t b, const struct qwen4_exp *q)
{
    const unsigned table =
        GS_MOD_LOOKUP | GS_MOD_HOST_TABLE | (q->fp8_table ? GS_MOD_FP8_TENSOR : 0);
    const uint64_t parts = q->ngram_rows / GS_ARCH_DIM_MAX, rest = q->ngram_rows % GS_ARCH_DIM_MAX;
    const uint64_t n = q->streams * a->hidden_size;
    if (parts)
        gs_block_module(a, b, "ple.ple_embedding.ngram_embedding", GS_MODULE_EMBEDDING,
                        GS_SPLIT_COLUMN, GS_PART_EMBEDDING, table, GS_ARCH_DIM_MAX, q->ngram_dim,
                        parts);
    if (rest)
        gs_block_module(a, b, "ple.ple_embedding.ngram_embedding.rest", GS_MODULE_EMBEDDING,
                        GS_SPLIT_COLUMN, GS_PART_EMBEDDING, table, rest, q->ngram_dim, 1);
    gs_block_module(a, b, "ple.key_proj", GS_MODULE_LINEAR, GS_SPLIT_NONE, GS_PART_OTHER, 0,
                    q->ple_dim, n, 1);
    gs_block_module(a, b, "ple.value_proj", GS_MODULE_LINEAR, GS_SPLIT_NONE, GS_PART_OTHER, 0,
                    q->ple_dim, a->hidden_size, 1);
    gs_block_module(a, b, "ple.norm_key_norm_query_norm_conv", GS_MODULE_NORM, GS_SPLIT_NONE,
                    GS_PART_OTHER, 0, 1, n, 3);
    gs_block_module(a, b, "ple.conv1d", GS_MODULE_TENSOR, GS_SPLIT_NONE, GS_PART_OTHER, 0,
                    q->ple_kernel, n, 1);
}

/* One layer kind (Qwen4ExpTextDecoderLayer): Gated DeltaNet or QSA attention, the PLE on its
 * layer, the experts (Qwen4ExpTextSparseMoeBlock: Qwen3.5's router, experts, shared_expert and
 * shared_expert_gate) and the two gated residuals; no input or post-attention norm (the
 * residuals' hc_norm stands for them). */
static size_t qwen4_exp_block(struct gs_arch *a, const struct qwen4_exp *q, bool qsa, bool ple)
{
    const size_t b = gs_arch_new_block(a);
    if (qsa)
        qwen4_exp_attention(a, b, q);
    else
        qwen3_5_gdn(a, b, &q->gdn);
    if (ple)
        qwen4_exp_ple(a, b, q);
    gs_build_moe(a, b, &q->plan.experts);
    qwen4_exp_gated_residual(
        a, b, "hyper_connection.hc_norm", "hyper_connection.input_mix_weight_down",
        "hyper_connection.input_mix_weight_up", "hyper_connection.block_inject_weight", q, 2);
    return b;
}

/* The checkpoint's MTP layer (mtp.*, which transformers ignores; vLLM's Qwen4ExpMTP, one layer
 * only, and SGLang's NEXTN draft load it): a QSA layer with the experts and its gated
 * residuals, fc_embedding and fc_hidden (h -> h each), pre_fc_norm_embedding over h,
 * pre_fc_norm_hidden over the n h streams and a final mixer (a gated residual without
 * inject); no PLE (vLLM forces it off) and the model's own embedding and head
 * (mtp_use_dedicated_embeddings false; vLLM shares them). */
static void qwen4_exp_mtp(struct model_reader *t, struct gs_arch *a, const struct qwen4_exp *q)
{
    const uint64_t layers = rd_dim(t, NAMES("mtp_num_hidden_layers"), false, 0);
    if (layers == 0 || !t->ok)
        return;
    const size_t b = qwen4_exp_block(a, q, true, false);
    const uint64_t h = a->hidden_size;
    gs_block_module(a, b, "fc_embedding", GS_MODULE_LINEAR, GS_SPLIT_NONE, GS_PART_MTP, 0, h, h, 1);
    gs_block_module(a, b, "fc_hidden", GS_MODULE_LINEAR, GS_SPLIT_NONE, GS_PART_MTP, 0, h, h, 1);
    gs_block_module(a, b, "pre_fc_norm_embedding", GS_MODULE_NORM, GS_SPLIT_NONE, GS_PART_MTP, 0, 1,
                    h, 1);
    gs_block_module(a, b, "pre_fc_norm_hidden", GS_MODULE_NORM, GS_SPLIT_NONE, GS_PART_MTP, 0, 1,
                    q->streams * h, 1);
    qwen4_exp_gated_residual(a, b, "hyper_connection_mixer.hc_norm",
                             "hyper_connection_mixer.input_mix_weight_down",
                             "hyper_connection_mixer.input_mix_weight_up", NULL, q, 1);
    gs_arch_tower(a, "mtp", b, GS_PART_MTP, layers, false);
}

/* Qwen4ExpTextModel: embed_tokens, the layers over hc_count residual streams (the embedding
 * repeated into each), hyper_connection_mixer collapsing them, no final norm, an untied
 * lm_head (Qwen4ExpForConditionalGeneration), and the stored MTP layer. */
static void qwen4_exp_text(struct model_reader *r, struct model_reader *t, struct gs_arch *a)
{
    struct qwen4_exp q;
    memset(&q, 0, sizeof(q));
    decoder_read_dims(t, a, &q.plan, false, 256, true);
    a->tie_word_embeddings = read_tie(r, t);
    decoder_read_experts(t, &q.plan, false);
    /* Qwen4ExpTextConfig's default shared expert is 512 wide; every layer has one */
    q.plan.experts.shared_width = rd_size(t, NAMES("shared_expert_intermediate_size"), 512);
    q.plan.experts.shared_gate = true;
    q.plan.experts.router_linear_until = GS_ROUTER_TOPK_FROM_5; /* Qwen4ExpTextTopKRouter */
    q.gdn = qwen3_5_read_gdn(t);
    q.bias = rd_flag(t, "attention_bias", false);
    q.streams = rd_size(t, NAMES("hc_count"), 4);
    q.lowrank = rd_size(t, NAMES("hc_lowrank"), 320);
    /* Qwen4ExpTextConfig leaves the indexer's fields None, and every attention layer builds
     * Qwen4ExpTextQSAIndexer from them: a config must give them */
    q.index.index_heads = rd_dim(t, NAMES("indexer_n_heads"), true, 0);
    q.index.index_head_dim = rd_dim(t, NAMES("indexer_head_dim"), true, 0);
    q.index.index_topk = rd_dim(t, NAMES("indexer_budget"), true, 0);
    q.index.index_pool = rd_dim(t, NAMES("indexer_compress_ratio"), true, 0);
    if (rd_dim(t, NAMES("indexer_kv_heads"), true, 0) != 1 && t->ok)
        rd_fail(t, "indexer_kv_heads", GS_ERR_UNSUPPORTED,
                "must be 1: Qwen4ExpTextQSAIndexer keeps one key head");
    if (!t->ok)
        return;
    /* the checkpoint writes "full_attention"; transformers' revisions rename the QSA layers */
    static const char *const attention[] = {"full_attention",        "deepseek_sparse_attention",
                                            "qwen_sparse_attention", "hybrid_indexed",
                                            "indexed_attention",     NULL};
    qwen3_5_layer_pattern(t, q.plan.layers, q.qsa, attention);
    qwen4_exp_read_ple(t, &q, a->hidden_size);
    q.fp8_table = q.ngram_rows && qwen4_exp_fp8_table(r, t);
    if (!t->ok || !r->ok)
        return;
    size_t kinds[2][2];
    bool made[2][2] = {{false, false}, {false, false}};
    gs_arch_set_layers(a, q.plan.layers, 0);
    for (uint64_t l = 0; l < q.plan.layers && l < GS_LAYERS_MAX; l++) {
        const int k = q.qsa[l], p = l == q.ple_layer;
        if (!made[k][p]) {
            kinds[k][p] = qwen4_exp_block(a, &q, k, p);
            made[k][p] = true;
        }
        gs_arch_set_layer(a, l, kinds[k][p]);
    }
    gs_arch_embeddings(a, a->hidden_size, "lm_head", false);
    /* Qwen4ExpTextRMSNorm (hc_norm, q_norm, k_norm): output * (1.0 + self.weight.float()), the
     * product in fp32 before type_as */
    a->norm_weight_fp32 = true;
    qwen4_exp_gated_residual(a, GS_BLOCKS_MAX, "hyper_connection_mixer.hc_norm",
                             "hyper_connection_mixer.input_mix_weight_down",
                             "hyper_connection_mixer.input_mix_weight_up", NULL, &q, 1);
    qwen4_exp_mtp(t, a, &q);
}

/* Qwen4ExpForConditionalGeneration (modeling_qwen4_exp.py; vLLM vllm/models/qwen4_exp): the
 * language model of text_config (or of the config's own fields, a flat text-only checkpoint)
 * and Qwen3.5's vision tower (no DeepStack mergers; the released vision_config names its
 * model_type "qwen4_exp", which Qwen4ExpConfig rewrites). */
static void read_qwen4_exp(struct model_reader *r, struct gs_arch *a)
{
    struct model_reader text;
    open_text(r, &text);
    if (!r->ok)
        return;
    qwen4_exp_text(r, &text, a);
    mark_mrope(a);
    close_text(r, &text);
    if (r->ok)
        read_vision(r, a, false, &QWEN3_VL_VISION, true);
}

/* Qwen4ExpForCausalLM (model_type qwen4_exp_text): the language model alone. */
static void read_qwen4_exp_text(struct model_reader *r, struct gs_arch *a)
{
    qwen4_exp_text(r, r, a);
    mark_mrope(a);
}

/* -------------------------------------------------------------- Qwen3-Omni */

/* A sub-config of `r` that the reader requires: false (and `r` failed) when
 * it is missing or not an object. */
static bool open_required(struct model_reader *r, const char *name, struct model_reader *sub)
{
    if (rd_sub(r, name, sub))
        return true;
    if (r->ok)
        rd_fail(r, name, GS_ERR_INVALID, "is required: the model's %s", name);
    return false;
}

/* Conv weight (out x in x kernel elements) and its bias, as one tensor of
 * (in x kernel + 1) x out elements. */
static void conv(struct gs_arch *a, const char *name, enum gs_part part, uint64_t in,
                 uint64_t kernel, uint64_t out)
{
    add(a, GS_BLOCKS_MAX, name, GS_MODULE_TENSOR, GS_SPLIT_NONE, part, 0, in * kernel + 1, out, 1);
}

/* A block of a speech tower: bidirectional-or-causal attention that the
 * thinker's KV cache never holds (vLLM serves the thinker alone), of `heads`
 * query and `kv_heads` key/value heads of `head_dim` over a `width` stream. */
static size_t speech_block(struct gs_arch *a, uint64_t heads, uint64_t kv_heads, uint64_t head_dim)
{
    const size_t b = gs_arch_new_block(a);
    struct gs_block *blk = gs_arch_block(a, b);
    if (blk == NULL) {
        a->overflow = true;
        return b;
    }
    blk->mixer = GS_MIXER_ATTENTION;
    memset(&blk->attn, 0, sizeof(blk->attn));
    blk->attn.heads = heads;
    blk->attn.kv_heads = kv_heads;
    blk->attn.head_dim = blk->attn.v_head_dim = head_dim;
    blk->attn.cached = false;
    return b;
}

/* q/k/v/o projections (no bias) of a speech tower's attention over `width`,
 * with per-head q_norm and k_norm when `qk_norm`. */
static void speech_attention(struct gs_arch *a, size_t b, uint64_t width, bool qk_norm)
{
    const struct gs_block *blk = gs_arch_block(a, b);
    if (blk == NULL)
        return;
    const uint64_t q = blk->attn.heads * blk->attn.head_dim;
    const uint64_t kv = blk->attn.kv_heads * blk->attn.head_dim;
    const enum gs_part p = GS_PART_AUDIO;
    linear(a, b, "self_attn.q_proj", GS_SPLIT_COLUMN, p, false, width, q, 1);
    linear(a, b, "self_attn.k_proj", GS_SPLIT_KV, p, false, width, kv, 1);
    linear(a, b, "self_attn.v_proj", GS_SPLIT_KV, p, false, width, kv, 1);
    linear(a, b, "self_attn.o_proj", GS_SPLIT_ROW, p, false, q, width, 1);
    if (qk_norm) {
        tower_norm(a, b, "self_attn.q_norm", p, false, blk->attn.head_dim, 1);
        tower_norm(a, b, "self_attn.k_norm", p, false, blk->attn.head_dim, 1);
    }
}

/* A gated MLP (gate_proj, up_proj, down_proj, no bias) of a speech tower. */
static void speech_mlp(struct gs_arch *a, size_t b, const char *prefix_gate, const char *up,
                       const char *down, uint64_t width, uint64_t inner, uint64_t count)
{
    linear(a, b, prefix_gate, GS_SPLIT_COLUMN, GS_PART_AUDIO, false, width, inner, count);
    linear(a, b, up, GS_SPLIT_COLUMN, GS_PART_AUDIO, false, width, inner, count);
    linear(a, b, down, GS_SPLIT_ROW, GS_PART_AUDIO, false, inner, width, count);
}

/* Qwen3OmniMoeAudioEncoder (`audio_tower`, modular_qwen3_omni_moe.py; vLLM
 * qwen3_omni_moe_thinker.py): conv2d1 Conv2d(1, ds, 3), conv2d2 and conv2d3
 * Conv2d(ds, ds, 3), all biased, each halving the mel axis; conv_out
 * Linear(ds x mel/8, d) without bias; a sinusoidal position table (a
 * buffer); encoder_layers layers of self_attn q/k/v/out_proj (biased),
 * self_attn_layer_norm, fc1/fc2 (biased) and final_layer_norm; ln_post;
 * proj1 Linear(d, d) and proj2 Linear(d, output_dim), biased. */
static void omni_audio(struct model_reader *thinker, struct gs_arch *a, bool asr_hf)
{
    struct model_reader c;
    if (!open_required(thinker, "audio_config", &c))
        return;
    /* Qwen3ASREncoderConfig (transformers 5's Qwen3-ASR, the -hf checkpoints): Qwen3-ASR-1.7B's
     * tower by default, its attribute_map's names (num_attention_heads in every -hf config) */
    const uint64_t d = rd_dim(&c, NAMES("d_model", "hidden_size"), false, asr_hf ? 1024 : 1280);
    const uint64_t layers =
        rd_dim(&c, NAMES("encoder_layers", "num_hidden_layers"), false, asr_hf ? 24 : 32);
    const uint64_t heads = rd_dim(&c, NAMES("encoder_attention_heads", "num_attention_heads"),
                                  false, asr_hf ? 16 : 20);
    const uint64_t ffn =
        rd_dim(&c, NAMES("encoder_ffn_dim", "intermediate_size"), false, asr_hf ? 4096 : 5120);
    const uint64_t mels = rd_dim(&c, NAMES("num_mel_bins"), false, 128);
    const uint64_t ds = rd_dim(&c, NAMES("downsample_hidden_size"), false, 480);
    const uint64_t out = rd_dim(&c, NAMES("output_dim"), false, 3584);
    if (heads != 0 && d % heads != 0)
        rd_fail(&c, "encoder_attention_heads", GS_ERR_INVALID, "must divide d_model %llu",
                (unsigned long long)d);
    close_text(thinker, &c);
    if (!thinker->ok)
        return;
    const enum gs_part p = GS_PART_AUDIO;
    const size_t b = speech_block(a, heads, heads, heads ? d / heads : 0);
    struct gs_block *blk = gs_arch_block(a, b);
    if (blk != NULL)
        blk->mlp = (struct gs_mlp){.kind = GS_MLP_DENSE, .gated = false, .width = ffn};
    linear(a, b, "self_attn.q_proj", GS_SPLIT_COLUMN, p, true, d, d, 1);
    linear(a, b, "self_attn.k_proj", GS_SPLIT_KV, p, true, d, d, 1);
    linear(a, b, "self_attn.v_proj", GS_SPLIT_KV, p, true, d, d, 1);
    linear(a, b, "self_attn.out_proj", GS_SPLIT_ROW, p, true, d, d, 1);
    tower_norm(a, b, "self_attn_layer_norm", p, true, d, 1);
    linear(a, b, "fc1", GS_SPLIT_COLUMN, p, true, d, ffn, 1);
    linear(a, b, "fc2", GS_SPLIT_ROW, p, true, ffn, d, 1);
    tower_norm(a, b, "final_layer_norm", p, true, d, 1);
    gs_arch_tower(a, "audio_tower.layers", b, p, layers, false);
    const uint64_t bins = (((mels + 1) / 2 + 1) / 2 + 1) / 2;
    conv(a, "audio_tower.conv2d1", p, 1, 9, ds);
    conv(a, "audio_tower.conv2d2", p, ds, 9, ds);
    conv(a, "audio_tower.conv2d3", p, ds, 9, ds);
    linear(a, GS_BLOCKS_MAX, "audio_tower.conv_out", GS_SPLIT_NONE, p, false, ds * bins, d, 1);
    tower_norm(a, GS_BLOCKS_MAX, "audio_tower.ln_post", p, true, d, 1);
    linear(a, GS_BLOCKS_MAX, asr_hf ? "multi_modal_projector.linear_1" : "audio_tower.proj1",
           GS_SPLIT_NONE, p, true, d, d, 1);
    linear(a, GS_BLOCKS_MAX, asr_hf ? "multi_modal_projector.linear_2" : "audio_tower.proj2",
           GS_SPLIT_NONE, p, true, d, out, 1);
}

/* The width and heads of a speech transformer config. */
struct speech_dims {
    uint64_t width, layers, heads, kv_heads, head_dim, inner, vocab;
};

static struct speech_dims read_speech_dims(struct model_reader *c)
{
    struct speech_dims s = {
        .width = rd_dim(c, NAMES("hidden_size"), true, 0),
        .layers = rd_dim(c, NAMES("num_hidden_layers"), true, 0),
        .heads = rd_dim(c, NAMES("num_attention_heads"), true, 0),
        .inner = rd_dim(c, NAMES("intermediate_size"), true, 0),
        .vocab = rd_dim(c, NAMES("vocab_size"), false, 0),
    };
    s.kv_heads = rd_dim(c, NAMES("num_key_value_heads"), false, s.heads);
    s.head_dim = rd_dim(c, NAMES("head_dim"), false, s.heads ? s.width / s.heads : 0);
    return s;
}

/* Qwen3OmniMoeTalkerModel's layers (`talker.model.layers`): Qwen3 attention
 * with q_norm/k_norm and Qwen3OmniMoeTalkerTextSparseMoeBlock - gate, routed
 * experts of moe_intermediate_size, a shared_expert of
 * shared_expert_intermediate_size behind shared_expert_gate Linear(h, 1) -
 * and two RMSNorms; then norm, codec_embedding (vocab x h), text_projection
 * and hidden_projection (Qwen3OmniMoeTalkerResizeMLP: linear_fc1
 * thinker_hidden_size -> intermediate_size and linear_fc2 -> h, biased) and
 * codec_head h -> vocab. */
static void omni_talker(struct model_reader *talker, struct gs_arch *a)
{
    struct model_reader c;
    if (!open_required(talker, "text_config", &c))
        return;
    const struct speech_dims s = read_speech_dims(&c);
    const uint64_t experts =
        rd_dim(&c, NAMES("num_experts", "num_local_experts"), true, 0);
    const uint64_t top_k = rd_dim(&c, NAMES("num_experts_per_tok"), true, 0);
    const uint64_t width = rd_dim(&c, NAMES("moe_intermediate_size"), true, 0);
    const uint64_t shared = rd_dim(&c, NAMES("shared_expert_intermediate_size"), false, 0);
    if (top_k > experts)
        rd_fail(&c, "num_experts_per_tok", GS_ERR_INVALID,
                "routes each token to %llu experts but there are only %llu",
                (unsigned long long)top_k, (unsigned long long)experts);
    close_text(talker, &c);
    const uint64_t thinker_h = rd_dim(talker, NAMES("thinker_hidden_size"), true, 0);
    if (!talker->ok)
        return;
    const uint64_t h = s.width;
    const enum gs_part p = GS_PART_AUDIO;
    const size_t b = speech_block(a, s.heads, s.kv_heads, s.head_dim);
    struct gs_block *blk = gs_arch_block(a, b);
    if (blk != NULL)
        blk->mlp = (struct gs_mlp){.kind = GS_MLP_MOE, .gated = true, .width = width,
                                   .experts = experts, .top_k = top_k, .shared_width = shared};
    speech_attention(a, b, h, true);
    linear(a, b, "mlp.gate", GS_SPLIT_NONE, p, false, h, experts, 1);
    add(a, b, "mlp.experts.gate_proj", GS_MODULE_LINEAR, GS_SPLIT_COLUMN, p,
        GS_MOD_QUANT | GS_MOD_EXPERT, h, width, experts);
    add(a, b, "mlp.experts.up_proj", GS_MODULE_LINEAR, GS_SPLIT_COLUMN, p,
        GS_MOD_QUANT | GS_MOD_EXPERT, h, width, experts);
    add(a, b, "mlp.experts.down_proj", GS_MODULE_LINEAR, GS_SPLIT_ROW, p,
        GS_MOD_QUANT | GS_MOD_EXPERT, width, h, experts);
    if (shared > 0) {
        speech_mlp(a, b, "mlp.shared_expert.gate_proj", "mlp.shared_expert.up_proj",
                   "mlp.shared_expert.down_proj", h, shared, 1);
        linear(a, b, "mlp.shared_expert_gate", GS_SPLIT_NONE, p, false, h, 1, 1);
    }
    tower_norm(a, b, "input_layernorm", p, false, h, 1);
    tower_norm(a, b, "post_attention_layernorm", p, false, h, 1);
    gs_arch_tower(a, "talker.model.layers", b, p, s.layers, false);
    const size_t m = GS_BLOCKS_MAX;
    tower_norm(a, m, "talker.model.norm", p, false, h, 1);
    add(a, m, "talker.model.codec_embedding", GS_MODULE_EMBEDDING, GS_SPLIT_NONE, p, 0, s.vocab, h,
        1);
    linear(a, m, "talker.text_projection.linear_fc1", GS_SPLIT_NONE, p, true, thinker_h, s.inner,
           1);
    linear(a, m, "talker.text_projection.linear_fc2", GS_SPLIT_NONE, p, true, s.inner, h, 1);
    linear(a, m, "talker.hidden_projection.linear_fc1", GS_SPLIT_NONE, p, true, thinker_h, s.inner,
           1);
    linear(a, m, "talker.hidden_projection.linear_fc2", GS_SPLIT_NONE, p, true, s.inner, h, 1);
    linear(a, m, "talker.codec_head", GS_SPLIT_NONE, p, false, h, s.vocab, 1);
}

/* Qwen3OmniMoeTalkerCodePredictorModelForConditionalGeneration
 * (`talker.code_predictor`): Qwen3 decoder layers (q_norm/k_norm, SwiGLU,
 * two RMSNorms), norm, and num_code_groups - 1 codec_embedding tables
 * (vocab x h) and lm_head Linear(h, vocab) heads. */
static void omni_code_predictor(struct model_reader *talker, struct gs_arch *a)
{
    struct model_reader c;
    if (!open_required(talker, "code_predictor_config", &c))
        return;
    const struct speech_dims s = read_speech_dims(&c);
    const uint64_t groups = rd_dim(&c, NAMES("num_code_groups"), true, 0);
    if (s.vocab == 0)
        rd_fail(&c, "vocab_size", GS_ERR_INVALID, "is required: the codebook size");
    close_text(talker, &c);
    if (!talker->ok)
        return;
    const uint64_t h = s.width;
    const enum gs_part p = GS_PART_AUDIO;
    const size_t b = speech_block(a, s.heads, s.kv_heads, s.head_dim);
    struct gs_block *blk = gs_arch_block(a, b);
    if (blk != NULL)
        blk->mlp = (struct gs_mlp){.kind = GS_MLP_DENSE, .gated = true, .width = s.inner};
    speech_attention(a, b, h, true);
    speech_mlp(a, b, "mlp.gate_proj", "mlp.up_proj", "mlp.down_proj", h, s.inner, 1);
    tower_norm(a, b, "input_layernorm", p, false, h, 1);
    tower_norm(a, b, "post_attention_layernorm", p, false, h, 1);
    gs_arch_tower(a, "talker.code_predictor.model.layers", b, p, s.layers, false);
    const size_t m = GS_BLOCKS_MAX;
    tower_norm(a, m, "talker.code_predictor.model.norm", p, false, h, 1);
    add(a, m, "talker.code_predictor.model.codec_embedding", GS_MODULE_EMBEDDING, GS_SPLIT_NONE, p,
        0, s.vocab, h, groups - 1);
    linear(a, m, "talker.code_predictor.lm_head", GS_SPLIT_NONE, p, false, h, s.vocab, groups - 1);
}

/* Parameters of Qwen3OmniMoeCode2Wav's convolutional decoder: `decoder.0`
 * CausalConvNet(h, decoder_dim, 7); per upsample_rates entry r a
 * Code2WavDecoderBlock from c to c/2 - SnakeBeta(c) (alpha and beta),
 * CausalTransConvNet(c, c/2, 2r, r), three residual units of two
 * SnakeBeta(c/2), a Conv1d(c/2, c/2, 7) and a Conv1d(c/2, c/2, 1), all
 * convolutions biased -; a final SnakeBeta and CausalConvNet(c, 1, 7). */
static uint64_t code2wav_decoder_params(uint64_t h, uint64_t dim, const uint64_t *rates,
                                        size_t n)
{
    uint64_t total = dim * h * 7 + dim, c = dim;
    for (size_t i = 0; i < n; i++) {
        const uint64_t o = c / 2;
        total += 2 * c + c * o * 2 * rates[i] + o;
        total += 3 * (2 * 2 * o + o * o * 7 + o + o * o + o);
        c = o;
    }
    return total + 2 * c + c * 7 + 1;
}

/* A JSON list of positive integers (upsample rates); false (and `c` failed)
 * when an entry is not one or the list outgrows `cap`. */
static bool int_list(struct model_reader *c, const char *name, uint64_t *out, size_t cap,
                     size_t *n)
{
    const json_t *list = NULL;
    *n = rd_array(c, name, &list);
    if (*n > cap) {
        rd_fail(c, name, GS_ERR_UNSUPPORTED, "has %zu entries: gpusizer reads at most %zu", *n,
                cap);
        return false;
    }
    for (size_t i = 0; i < *n; i++) {
        const json_t *v = json_array_get(list, i);
        if (!json_is_integer(v) || json_integer_value(v) < 1 ||
            (uint64_t)json_integer_value(v) > GS_ARCH_DIM_MAX) {
            rd_fail(c, name, GS_ERR_INVALID, "entry %zu must be a positive integer", i);
            return false;
        }
        out[i] = (uint64_t)json_integer_value(v);
    }
    return c->ok;
}

/* Qwen3OmniMoeCode2Wav (`code2wav`): pre_transformer layers (q/k/v/o without
 * bias, no q/k norms, SwiGLU, two RMSNorms and the two MimiLayerScale
 * `scale` vectors) and norm; code_embedding (codebook_size x num_quantizers
 * rows of h); per upsampling_ratios entry f a CausalTransConvNet(h, h, f, f)
 * and a ConvNeXtBlock (depthwise Conv1d(h, h, 7), LayerNorm, pwconv1 h -> 4h,
 * pwconv2 4h -> h, all biased, and gamma); the convolutional decoder. */
static void omni_code2wav(struct model_reader *r, struct gs_arch *a)
{
    struct model_reader c;
    if (!open_required(r, "code2wav_config", &c))
        return;
    const struct speech_dims s = read_speech_dims(&c);
    const uint64_t codebook = rd_dim(&c, NAMES("codebook_size"), true, 0);
    const uint64_t quantizers = rd_dim(&c, NAMES("num_quantizers"), true, 0);
    const uint64_t dim = rd_dim(&c, NAMES("decoder_dim"), true, 0);
    uint64_t ratios[8], rates[8];
    size_t n_ratios = 0, n_rates = 0;
    int_list(&c, "upsampling_ratios", ratios, 8, &n_ratios);
    int_list(&c, "upsample_rates", rates, 8, &n_rates);
    if (c.ok && (dim >> n_rates) == 0)
        rd_fail(&c, "decoder_dim", GS_ERR_INVALID, "halves to nothing over %zu upsample rates",
                n_rates);
    close_text(r, &c);
    if (!r->ok)
        return;
    const uint64_t h = s.width;
    const enum gs_part p = GS_PART_AUDIO;
    const size_t b = speech_block(a, s.heads, s.kv_heads, s.head_dim);
    struct gs_block *blk = gs_arch_block(a, b);
    if (blk != NULL)
        blk->mlp = (struct gs_mlp){.kind = GS_MLP_DENSE, .gated = true, .width = s.inner};
    speech_attention(a, b, h, false);
    speech_mlp(a, b, "mlp.gate_proj", "mlp.up_proj", "mlp.down_proj", h, s.inner, 1);
    tower_norm(a, b, "input_layernorm", p, false, h, 1);
    tower_norm(a, b, "post_attention_layernorm", p, false, h, 1);
    add(a, b, "self_attn_layer_scale.scale", GS_MODULE_TENSOR, GS_SPLIT_NONE, p, 0, 1, h, 1);
    add(a, b, "mlp_layer_scale.scale", GS_MODULE_TENSOR, GS_SPLIT_NONE, p, 0, 1, h, 1);
    gs_arch_tower(a, "code2wav.pre_transformer.layers", b, p, s.layers, false);
    const size_t m = GS_BLOCKS_MAX;
    tower_norm(a, m, "code2wav.pre_transformer.norm", p, false, h, 1);
    add(a, m, "code2wav.code_embedding", GS_MODULE_EMBEDDING, GS_SPLIT_NONE, p, 0,
        codebook * quantizers, h, 1);
    uint64_t upsample = 0;
    for (size_t i = 0; i < n_ratios; i++)
        upsample += h * h * ratios[i] + h + (h * 7 + h + 2 * h + h * 4 * h + 4 * h + 4 * h * h + h + h);
    add(a, m, "code2wav.upsample", GS_MODULE_TENSOR, GS_SPLIT_NONE, p, 0, 1, upsample, 1);
    add(a, m, "code2wav.decoder", GS_MODULE_TENSOR, GS_SPLIT_NONE, p, 0, 1,
        code2wav_decoder_params(h, dim, rates, n_rates), 1);
}

/* Qwen3OmniMoeForConditionalGeneration (modular_qwen3_omni_moe.py): the
 * thinker (Qwen3OmniMoeThinkerForConditionalGeneration: a Qwen3-MoE text
 * model under thinker_config.text_config, read with decoder.c's qwen3_moe
 * reader; the Qwen3-VL vision tower with DeepStack mergers; the audio
 * encoder; lm_head) and, when enable_audio_output (the default), the
 * speech generator transformers builds beside it (enable_talker: the talker
 * with its code predictor, and code2wav), counted under GS_PART_AUDIO with
 * the audio encoder. vLLM serves the thinker alone
 * (qwen3_omni_moe_thinker.py), so its KV cache is the thinker's; the
 * speech towers cache nothing here. */
static void read_qwen3_omni_moe(struct model_reader *r, struct gs_arch *a)
{
    struct model_reader thinker;
    if (!open_required(r, "thinker_config", &thinker))
        return;
    read_vl_text(&thinker, a, "qwen3_moe");
    if (thinker.ok)
        read_vision(&thinker, a, true, &QWEN3_OMNI_VISION, false);
    if (thinker.ok)
        omni_audio(&thinker, a, false);
    close_text(r, &thinker);
    if (!r->ok || !rd_flag(r, "enable_audio_output", true))
        return;
    struct model_reader talker;
    if (!open_required(r, "talker_config", &talker))
        return;
    omni_talker(&talker, a);
    if (talker.ok)
        omni_code_predictor(&talker, a);
    close_text(r, &talker);
    if (r->ok)
        omni_code2wav(r, a);
}

/* ---------------------------------------------------------------- Qwen3-ASR */

/* Qwen3-ASR (0.6B, 1.7B) under its one model_type in two layouts: Qwen's (Qwen/Qwen3-ASR-*; the
 * repository's qwen_asr Qwen3ASRForConditionalGeneration and vLLM's qwen3_asr.py, which reads only
 * it) nests everything in thinker_config - the audio tower, Qwen3-Omni's (vLLM builds
 * Qwen3OmniMoeAudioEncoder from it), and a Qwen3 text model, tied where text_config says (true in
 * both checkpoints; the safetensors store lm_head anyway, which the tied load skips) -;
 * transformers 5's (models/qwen3_asr/, the -hf checkpoints convert_qwen3_asr_to_hf.py writes)
 * keeps audio_config and text_config at the top, the tower's heads as num_attention_heads and
 * its proj1/proj2 as multi_modal_projector.linear_1/linear_2, tied by the top-level flag
 * (Qwen3ASRConfig: true by default). Qwen3-ASR-0.6B: tower 184,653,952, projector 1,722,240,
 * text 596,049,920 = 782,426,112. Qwen3-ForcedAligner (thinker model_type
 * qwen3_forced_aligner, classify_num; the -hf Qwen3ASRForTokenClassification) classifies tokens
 * with a classify_num-row head instead of generating: refused. vLLM's audio profile (a 30 s
 * clip, 390 tokens) is not modelled (as for Qwen3-Omni: gpusizer has no audio item). */
static void read_qwen3_asr(struct model_reader *r, struct gs_arch *a)
{
    struct model_reader thinker;
    const bool nested = rd_sub(r, "thinker_config", &thinker);
    if (!r->ok)
        return;
    struct model_reader *c = nested ? &thinker : r;
    const char *kind = nested ? rd_string(&thinker, "model_type") : NULL;
    const char *arch = rd_architecture(r);
    if ((kind != NULL && strcmp(kind, "qwen3_forced_aligner") == 0) ||
        rd_get(c, "classify_num") != NULL ||
        (arch != NULL && strcmp(arch, "Qwen3ASRForTokenClassification") == 0)) {
        rd_fail(c, kind != NULL ? "model_type" : "classify_num", GS_ERR_UNSUPPORTED,
                "Qwen3-ForcedAligner classifies tokens (a classify_num-row head) rather than "
                "generating them: gpusizer sizes Qwen3-ASR's generative checkpoints");
        if (nested)
            close_text(r, &thinker);
        r->ok = false;
        return;
    }
    if (rd_get(c, "text_config") == NULL) {
        rd_fail(c, "text_config", GS_ERR_INVALID, "is required: it is the language model");
        if (nested)
            close_text(r, &thinker);
        return;
    }
    read_vl_text_tied(c, a, "qwen3", !nested);
    if (c->ok)
        omni_audio(c, a, !nested);
    if (nested)
        close_text(r, &thinker);
}

const struct model_type MODELS_QWEN[] = {
    {"qwen3_vl", "Qwen3VLForConditionalGeneration", read_qwen3_vl},
    {"qwen3_vl_moe", "Qwen3VLMoeForConditionalGeneration", read_qwen3_vl_moe},
    {"cosmos3_omni", "Cosmos3OmniForConditionalGeneration", read_cosmos3},
    {"cosmos3", "Cosmos3ForConditionalGeneration", read_cosmos3},
    {"qwen3_5", "Qwen3_5ForConditionalGeneration", read_qwen3_5},
    {"qwen3_5_moe", "Qwen3_5MoeForConditionalGeneration", read_qwen3_5_moe},
    {"qwen3_5_text", "Qwen3_5ForCausalLM", read_qwen3_5_text},
    {"qwen3_5_moe_text", "Qwen3_5MoeForCausalLM", read_qwen3_5_moe_text},
    {"qwen4_exp", "Qwen4ExpForConditionalGeneration", read_qwen4_exp},
    {"qwen4_exp_text", "Qwen4ExpForCausalLM", read_qwen4_exp_text},
    {"qwen3_omni_moe", "Qwen3OmniMoeForConditionalGeneration", read_qwen3_omni_moe},
    {"qwen3_asr", "Qwen3ASRForConditionalGeneration", read_qwen3_asr},
    {NULL, NULL, NULL},
};
