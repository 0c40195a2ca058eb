/*
 * gemma.c - Gemma 4 and Gemma 3n (see reader.h): dense and MoE Gemma with
 * per-layer embeddings, layers that reuse an earlier layer's keys and values,
 * and vision and audio towers.
 *
 * Shapes follow transformers' modeling_gemma4.py (Gemma4TextDecoderLayer,
 * Gemma4TextAttention, Gemma4TextRouter/Experts, Gemma4VisionModel,
 * Gemma4AudioModel, Gemma4MultimodalEmbedder) with the defaults of
 * configuration_gemma4.py, and the serving layout of vLLM's
 * model_executor/models/gemma4.py (Gemma4Attention, Gemma4DecoderLayer).
 * The published counts they reproduce are written out in
 * tests/fixtures/configs/gemma4/README.md and checked in
 * tests/server/test_models_gemma.c.
 *
 * What makes a Gemma 4 layer differ from its neighbours, and so a block of
 * its own: sliding or full attention (full layers have their own head size,
 * global_head_dim, and with attention_k_eq_v their own KV heads,
 * num_global_key_value_heads, and no v_proj), and whether it is one of the
 * last num_kv_shared_layers layers, which read the keys and values of the
 * last earlier layer of their kind (no k/v projections or norms, no cache of
 * their own, and a twice-wide MLP with use_double_wide_mlp). Buffers
 * (layer_scalar, the clipped linears' bounds, the vision standardizer) are
 * checkpoint tensors but not parameters, so they are not counted.
 *
 * Gemma 4 unified (gemma4_unified, google/gemma-4-12B) is that text decoder
 * without per-layer embeddings or MoE, beside linear vision and audio
 * embedders in place of towers (modeling_gemma4_unified.py, vLLM's
 * gemma4_unified.py).
 *
 * Gemma 4's assistants (gemma4_assistant, gemma4_unified_assistant) are that
 * text decoder with every layer reading a target's keys and values, between
 * projections from and to the target's width: drafters for vLLM's mtp.
 *
 * Gemma 3n follows transformers' modeling_gemma3n.py (Gemma3nTextDecoderLayer
 * with AltUp and LAuReL, Gemma3nAudioEncoder, Gemma3nMultimodalEmbedder; the
 * vision tower is timm's mobilenetv5_300m_enc through TimmWrapperModel) and
 * vLLM's model_executor/models/gemma3n.py; its counts are written out in
 * tests/fixtures/configs/gemma3n/README.md.
 */
#include "readers/decoder.h"

#include "gs/vllm.h"

#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- toolkit */

/* A module in block `b`, or the model when b is GS_BLOCKS_MAX. */
static void add(struct gs_arch *a, size_t b, const char *name, enum gs_module_kind kind,
                enum gs_split split, enum gs_part part, unsigned flags, uint64_t in, uint64_t out,
                uint64_t count)
{
    if (b >= GS_BLOCKS_MAX)
        gs_arch_module(a, name, kind, split, part, flags, in, out, count);
    else
        gs_block_module(a, b, name, kind, split, part, flags, in, out, count);
}

/* An nn.Linear without bias (every Gemma 4 projection but the audio output). */
static void linear(struct gs_arch *a, size_t b, const char *name, enum gs_split split,
                   enum gs_part part, uint64_t in, uint64_t out)
{
    add(a, b, name, GS_MODULE_LINEAR, split, part, GS_MOD_QUANT, in, out, 1);
}

/* A Gemma4ClippableLinear (the vision and audio towers' projections): an nn.Module whose
 * nn.Linear without bias is its `.linear`, clamped around by buffers where the config sets
 * use_clipped_linears (modeling_gemma4.py). */
static void clippable(struct gs_arch *a, size_t b, const char *name, enum gs_split split,
                      enum gs_part part, uint64_t in, uint64_t out)
{
    add(a, b, name, GS_MODULE_LINEAR, split, part, GS_MOD_QUANT | GS_MOD_WRAPPED, in, out, 1);
}

/* A Gemma4RMSNorm with a scale (`width` weights); those built with
 * with_scale=False (v_norm, the router's and the embedders' pre-norms) have
 * no parameter and are not added. */
static void norm(struct gs_arch *a, size_t b, const char *name, enum gs_part part, uint64_t width)
{
    add(a, b, name, GS_MODULE_NORM, GS_SPLIT_NONE, part, 0, 1, width, 1);
}

/* Any other parameter of rows x cols elements. */
static void tensor(struct gs_arch *a, size_t b, const char *name, enum gs_part part, uint64_t rows,
                   uint64_t cols)
{
    add(a, b, name, GS_MODULE_TENSOR, GS_SPLIT_NONE, part, 0, rows, cols, 1);
}

/* ------------------------------------------------------------ Gemma 4 text */

/* What Gemma4TextConfig says about the stack. */
struct gemma4_text {
    uint64_t hidden, layers, heads, kv_heads, head_dim;
    uint64_t global_head_dim, global_kv_heads;
    bool global_kv_listed; /* per_layer_config names the full layers' KV heads */
    uint64_t intermediate, window;
    uint64_t kv_shared_layers;
    bool k_eq_v, double_wide, bias;
    uint64_t per_layer_width, per_layer_vocab; /* per-layer embeddings; 0 wide: none */
    bool moe;
    uint64_t experts, top_k, expert_width;
    uint64_t max_positions;
    bool sliding[GS_LAYERS_MAX];
};

/* layer_types, or Gemma4TextConfig's default of five sliding layers to one
 * full; __post_init__ forces the last layer to full attention either way. */
static void read_layer_kinds(struct model_reader *r, struct gemma4_text *t)
{
    struct decoder_plan plan;
    memset(&plan, 0, sizeof(plan));
    plan.layers = t->layers;
    if (!decoder_read_layer_types(r, &plan))
        decoder_window_pattern(&plan, 6);
    memcpy(t->sliding, plan.sliding, sizeof(t->sliding));
    if (t->layers > 0 && t->layers <= GS_LAYERS_MAX)
        t->sliding[t->layers - 1] = false;
}

/* per_layer_config (transformers 5.15, PR #47384: Gemma4TextConfig.__post_init__ turns
 * global_head_dim and num_global_key_value_heads into it, so a config saved since carries it
 * instead): a layer index's entry overrides that layer's head_dim and num_key_value_heads
 * (Gemma4TextAttention: layer_config = config.per_layer_config[layer_idx]), a layer type's
 * entry (the rope parameters) changes no shape. The converter names every full layer alike;
 * an override of a sliding layer, or full layers that differ, are not one shape a layer kind
 * holds, and refused. */
static void read_per_layer_config(struct model_reader *r, struct gemma4_text *t)
{
    struct model_reader plc;
    if (!rd_sub(r, "per_layer_config", &plc) || !r->ok)
        return;
    bool seen = false;
    const char *key;
    const json_t *entry;
    json_object_foreach((json_t *)(uintptr_t)plc.config, key, entry)
    {
        char *end = NULL;
        const unsigned long long l = strtoull(key, &end, 10);
        if (end == key || *end != '\0' || !json_is_object(entry))
            continue; /* "full_attention", "sliding_attention": rope parameters */
        struct model_reader e;
        if (!rd_sub(&plc, key, &e) || !plc.ok)
            break;
        const uint64_t d = rd_dim(&e, NAMES("head_dim"), false, t->head_dim);
        const uint64_t kv = rd_dim(&e, NAMES("num_key_value_heads"), false, t->kv_heads);
        if (!e.ok) {
            plc.ok = false;
            break;
        }
        if (l >= t->layers || l >= GS_LAYERS_MAX) {
            rd_fail(&plc, key, GS_ERR_INVALID, "names layer %llu of %llu", l,
                    (unsigned long long)t->layers);
            break;
        }
        if (t->sliding[l]) {
            if (d != t->head_dim || kv != t->kv_heads)
                rd_fail(&plc, key, GS_ERR_UNSUPPORTED,
                        "changes sliding layer %llu's heads: gpusizer sizes every sliding layer "
                        "alike",
                        l);
            continue;
        }
        if (seen && (d != t->global_head_dim || kv != t->global_kv_heads)) {
            rd_fail(&plc, key, GS_ERR_UNSUPPORTED,
                    "gives full layer %llu other heads than an earlier full layer: gpusizer "
                    "sizes every full layer alike",
                    l);
            break;
        }
        seen = true;
        t->global_head_dim = d;
        t->global_kv_heads = kv;
        t->global_kv_listed = kv != t->kv_heads;
    }
    if (!plc.ok)
        r->ok = false;
}

/* Reads the text config with Gemma4TextConfig's defaults, or with `unified`
 * Gemma4UnifiedTextConfig's (configuration_gemma4_unified.py): a 1024-token
 * window, 262,144 positions, and no per-layer embeddings or MoE block, whose
 * keys it drops from its fields and Gemma4UnifiedTextDecoderLayer never reads
 * (the 12B's converter writes hidden_size_per_layer_input 0 and the MoE keys
 * "BC: not used by the model"). */
static void read_text_dims(struct model_reader *r, struct gemma4_text *t, bool unified,
                           bool assistant, bool diffusion)
{
    memset(t, 0, sizeof(*t));
    t->hidden = rd_dim(r, NAMES("hidden_size"), false, 2304);
    t->layers = rd_dim(r, NAMES("num_hidden_layers"), false, 30);
    t->heads = rd_dim(r, NAMES("num_attention_heads"), false, 8);
    t->kv_heads = rd_dim(r, NAMES("num_key_value_heads"), false, 4);
    t->head_dim = rd_dim(r, NAMES("head_dim"), false, 256);
    t->global_head_dim = rd_dim(r, NAMES("global_head_dim"), false, 512);
    /* DiffusionGemma's layers drop v_proj on every full layer whatever the config says
     * (DiffusionGemmaEncoderTextAttention / DecoderTextAttention: "if self.is_sliding else
     * None"), and always route (its text config has no attention_k_eq_v or enable_moe_block) */
    t->k_eq_v = diffusion || rd_flag(r, "attention_k_eq_v", false);
    /* the global KV heads apply only with attention_k_eq_v (Gemma4TextAttention's
     * use_alternative_attention); null keeps num_key_value_heads */
    t->global_kv_heads = rd_dim(r, NAMES("num_global_key_value_heads"), false, t->kv_heads);
    t->intermediate = rd_dim(r, NAMES("intermediate_size"), false, 9216);
    t->window = rd_dim(r, NAMES("sliding_window"), false, unified ? 1024 : 512);
    t->max_positions =
        rd_dim(r, NAMES("max_position_embeddings"), false, unified ? 262144 : 131072);
    t->kv_shared_layers = rd_dim(r, NAMES("num_kv_shared_layers"), false, 0);
    t->double_wide = rd_flag(r, "use_double_wide_mlp", false);
    t->bias = rd_flag(r, "attention_bias", false);
    if (!unified && !assistant && !diffusion) {
        t->per_layer_width = rd_dim(r, NAMES("hidden_size_per_layer_input"), false, 256);
        t->per_layer_vocab = rd_dim(r, NAMES("vocab_size_per_layer_input"), false, 262144);
        t->moe = rd_flag(r, "enable_moe_block", false);
    }
    if (diffusion) {
        t->moe = true;
        t->kv_shared_layers = 0;
        t->double_wide = false;
    }
    if (t->moe) {
        t->experts = rd_dim(r, NAMES("num_experts"), true, 0);
        t->top_k = rd_dim(r, NAMES("top_k_experts"), true, 0);
        /* vLLM Gemma4MoE also accepts expert_intermediate_size */
        t->expert_width =
            rd_dim(r, NAMES("moe_intermediate_size", "expert_intermediate_size"), true, 0);
    }
    if (t->layers > GS_LAYERS_MAX)
        rd_fail(r, "num_hidden_layers", GS_ERR_UNSUPPORTED,
                "%llu layers: gpusizer describes at most %d", (unsigned long long)t->layers,
                GS_LAYERS_MAX);
    else if (!assistant && t->kv_shared_layers >= t->layers && t->kv_shared_layers > 0)
        rd_fail(r, "num_kv_shared_layers", GS_ERR_INVALID,
                "%llu of %llu layers: a shared layer needs an earlier layer to read from",
                (unsigned long long)t->kv_shared_layers, (unsigned long long)t->layers);
    if (r->ok)
        read_layer_kinds(r, t);
    if (r->ok)
        read_per_layer_config(r, t);
}

/* Whether layer `l` reads an earlier layer's keys and values. */
static bool kv_shared(const struct gemma4_text *t, uint64_t l)
{
    return t->kv_shared_layers > 0 && l >= t->layers - t->kv_shared_layers;
}

/* Every shared layer reads the last non-shared layer of its kind; transformers
 * and vLLM fail to build a model where there is none. */
static void check_kv_sources(struct model_reader *r, uint64_t layers, uint64_t shared,
                             const bool *sliding)
{
    const uint64_t first = layers - shared;
    bool has[2] = {false, false};
    for (uint64_t l = 0; l < first; l++)
        has[sliding[l]] = true;
    for (uint64_t l = first; l < layers && shared > 0; l++)
        if (!has[sliding[l]]) {
            rd_fail(r, "num_kv_shared_layers", GS_ERR_INVALID,
                    "layer %llu (%s attention) shares keys and values, but no earlier layer of "
                    "its kind computes them",
                    (unsigned long long)l, sliding[l] ? "sliding" : "full");
            return;
        }
}

/* Gemma4TextAttention: q_proj and o_proj at the layer's head size, q_norm and
 * (unless shared) k_norm over one head; k_proj and v_proj unless the layer
 * is shared (transformers from 5.5.2, PR #45336; 5.5.0 and 5.5.1 built them on
 * every layer, which training follows by release: GS_MOD_KV_OWN), and no
 * v_proj on a k_eq_v full layer (its keys, before k_norm
 * and rope, are its values). vLLM still caches K and V apart on those layers:
 * it loads k_proj into both halves of qkv_proj, and V (v_norm, no rope) is not
 * K (k_norm and rope), so the cache per token is that of any GQA layer. */
static void build_attention(struct gs_arch *a, size_t b, const struct gemma4_text *t, bool sliding,
                            bool shared)
{
    struct gs_block *blk = gs_arch_block(a, b);
    if (blk == NULL)
        return;
    const bool global_kv = (t->k_eq_v || t->global_kv_listed) && !sliding;
    struct gs_attention s;
    memset(&s, 0, sizeof(s));
    s.heads = t->heads;
    s.kv_heads = global_kv ? t->global_kv_heads : t->kv_heads;
    s.head_dim = s.v_head_dim = !sliding && t->global_head_dim ? t->global_head_dim : t->head_dim;
    s.span = sliding ? GS_SPAN_SLIDING : GS_SPAN_FULL;
    s.window = sliding ? t->window : 0;
    s.cached = true;
    s.kv_shared = shared;
    /* in training too from 5.5.2 (shared_kv_states, PR #45312; 5.5.0 and 5.5.1 gave every
     * layer its k_proj and v_proj and, without a cache, ran them) */
    s.kv_shared_from = shared ? GS_HF_RELEASE(5, 5, 2) : 0;
    s.v_norm = true; /* Gemma4RMSNorm(with_scale=False) on the values a layer computes */
    blk->mixer = GS_MIXER_ATTENTION;
    blk->attn = s;
    const uint64_t h = t->hidden, q = s.heads * s.head_dim, kv = s.kv_heads * s.head_dim;
    const unsigned f = GS_MOD_QUANT | (t->bias ? GS_MOD_BIAS : 0);
    add(a, b, "self_attn.q_proj", GS_MODULE_LINEAR, GS_SPLIT_COLUMN, GS_PART_ATTENTION, f, h, q, 1);
    norm(a, b, "self_attn.q_norm", GS_PART_ATTENTION, s.head_dim);
    if (!shared) { /* GS_MOD_KV_OWN: what a shared layer of this kind built before 5.5.2 */
        const unsigned own = f | GS_MOD_KV_OWN;
        add(a, b, "self_attn.k_proj", GS_MODULE_LINEAR, GS_SPLIT_KV, GS_PART_ATTENTION, own, h, kv,
            1);
        if (!global_kv)
            add(a, b, "self_attn.v_proj", GS_MODULE_LINEAR, GS_SPLIT_KV, GS_PART_ATTENTION, own, h,
                kv, 1);
        add(a, b, "self_attn.k_norm", GS_MODULE_NORM, GS_SPLIT_NONE, GS_PART_ATTENTION,
            GS_MOD_KV_OWN, 1, s.head_dim, 1);
    }
    add(a, b, "self_attn.o_proj", GS_MODULE_LINEAR, GS_SPLIT_ROW, GS_PART_ATTENTION, f, q, h, 1);
}

/* Gemma4TextMLP (GeGLU), twice as wide on shared layers with
 * use_double_wide_mlp. */
static void build_mlp(struct gs_arch *a, size_t b, const struct gemma4_text *t, bool shared)
{
    struct gs_block *blk = gs_arch_block(a, b);
    if (blk == NULL)
        return;
    const uint64_t w = t->intermediate * (shared && t->double_wide ? 2 : 1);
    blk->mlp.kind = GS_MLP_DENSE;
    blk->mlp.gated = true;
    blk->mlp.width = w;
    linear(a, b, "mlp.gate_proj", GS_SPLIT_COLUMN, GS_PART_MLP, t->hidden, w);
    linear(a, b, "mlp.up_proj", GS_SPLIT_COLUMN, GS_PART_MLP, t->hidden, w);
    linear(a, b, "mlp.down_proj", GS_SPLIT_ROW, GS_PART_MLP, w, t->hidden);
}

/* enable_moe_block: beside the dense MLP (which every token runs, so it is
 * described as the always-on shared MLP), Gemma4TextRouter (proj h -> E,
 * scale h, per_expert_scale E; its norm has no weight), Gemma4TextExperts
 * (gate_up_proj E x 2m x h, down_proj E x h x m) and three more norms. */
static void build_moe(struct gs_arch *a, size_t b, const struct gemma4_text *t)
{
    struct gs_block *blk = gs_arch_block(a, b);
    if (blk == NULL)
        return;
    const uint64_t h = t->hidden, m = t->expert_width, E = t->experts;
    blk->mlp.kind = GS_MLP_MOE;
    blk->mlp.experts = E;
    blk->mlp.top_k = t->top_k;
    blk->mlp.shared_width = blk->mlp.width;
    blk->mlp.width = m;
    add(a, b, "router.proj", GS_MODULE_LINEAR, GS_SPLIT_NONE, GS_PART_EXPERTS, 0, h, E, 1);
    tensor(a, b, "router.scale", GS_PART_EXPERTS, 1, h);
    tensor(a, b, "router.per_expert_scale", GS_PART_EXPERTS, 1, E);
    add(a, b, "experts.gate_up_proj", GS_MODULE_LINEAR, GS_SPLIT_COLUMN, GS_PART_EXPERTS,
        GS_MOD_QUANT | GS_MOD_EXPERT, h, 2 * m, E);
    add(a, b, "experts.down_proj", GS_MODULE_LINEAR, GS_SPLIT_ROW, GS_PART_EXPERTS,
        GS_MOD_QUANT | GS_MOD_EXPERT, m, h, E);
    norm(a, b, "post_feedforward_layernorm_1", GS_PART_NORMS, h);
    norm(a, b, "post_feedforward_layernorm_2", GS_PART_NORMS, h);
    norm(a, b, "pre_feedforward_layernorm_2", GS_PART_NORMS, h);
}

/* One kind of Gemma4TextDecoderLayer: attention, MLP (and MoE), the four
 * norms around them, and with per-layer embeddings the gate (h -> p), the
 * projection back (p -> h) and its norm; vLLM replicates both linears. */
static size_t build_layer(struct gs_arch *a, const struct gemma4_text *t, bool sliding, bool shared)
{
    const size_t b = gs_arch_new_block(a);
    if (b >= GS_BLOCKS_MAX)
        return b;
    build_attention(a, b, t, sliding, shared);
    build_mlp(a, b, t, shared);
    if (t->moe)
        build_moe(a, b, t);
    norm(a, b, "input_layernorm", GS_PART_NORMS, t->hidden);
    norm(a, b, "post_attention_layernorm", GS_PART_NORMS, t->hidden);
    norm(a, b, "pre_feedforward_layernorm", GS_PART_NORMS, t->hidden);
    norm(a, b, "post_feedforward_layernorm", GS_PART_NORMS, t->hidden);
    if (t->per_layer_width) {
        linear(a, b, "per_layer_input_gate", GS_SPLIT_NONE, GS_PART_OTHER, t->hidden,
               t->per_layer_width);
        linear(a, b, "per_layer_projection", GS_SPLIT_NONE, GS_PART_OTHER, t->per_layer_width,
               t->hidden);
        norm(a, b, "post_per_layer_input_norm", GS_PART_NORMS, t->hidden);
    }
    return b;
}

/* Gemma4TextModel's per-layer embeddings: embed_tokens_per_layer, one
 * vocab_size_per_layer_input x (layers x p) table (a lookup by token id, so
 * never active), per_layer_model_projection h -> layers x p and
 * per_layer_projection_norm over p. */
static void build_per_layer_embeddings(struct gs_arch *a, const struct gemma4_text *t)
{
    const uint64_t packed = t->layers * t->per_layer_width;
    add(a, GS_BLOCKS_MAX, "embed_tokens_per_layer", GS_MODULE_EMBEDDING, GS_SPLIT_COLUMN,
        GS_PART_EMBEDDING, GS_MOD_LOOKUP, t->per_layer_vocab, packed, 1);
    linear(a, GS_BLOCKS_MAX, "per_layer_model_projection", GS_SPLIT_COLUMN, GS_PART_OTHER,
           t->hidden, packed);
    norm(a, GS_BLOCKS_MAX, "per_layer_projection_norm", GS_PART_NORMS, t->per_layer_width);
}

/* The decoder: a block per kind of layer (sliding or full, shared or not),
 * the embedding (tied to the head unless the config says otherwise), the
 * final norm and the per-layer embeddings. `tie` is the flag of the class
 * that owns the head. */
static void build_text(struct model_reader *r, struct gs_arch *a, const struct gemma4_text *t,
                       bool tie)
{
    gs_arch_init(a, NULL, t->hidden, rd_dim(r, NAMES("vocab_size"), false, 262144));
    a->max_position_embeddings = t->max_positions;
    a->tie_word_embeddings = tie;
    a->attention_dropout = rd_dropout(r, NAMES("attention_dropout"));
    size_t kind[2][2] = {{GS_BLOCKS_MAX, GS_BLOCKS_MAX}, {GS_BLOCKS_MAX, GS_BLOCKS_MAX}};
    a->num_hidden_layers = t->layers;
    for (uint64_t l = 0; l < t->layers; l++) {
        const bool sliding = t->sliding[l], shared = kv_shared(t, l);
        size_t *b = &kind[sliding][shared];
        if (*b == GS_BLOCKS_MAX)
            *b = build_layer(a, t, sliding, shared);
        if (*b >= GS_BLOCKS_MAX)
            return;
        a->layer_block[l] = (uint8_t)*b;
        a->block_layers[*b]++;
    }
    gs_arch_embeddings(a, t->hidden, "lm_head", false);
    gs_build_norms(a, GS_BLOCKS_MAX, "norm", 1, false);
    /* Gemma4RMSNorm / Gemma3nRMSNorm: normed_output * self.weight.float(), then type_as */
    a->norm_weight_fp32 = true;
    if (t->per_layer_width)
        build_per_layer_embeddings(a, t);
}

/* vLLM builds a rotary table per distinct head size and rope (get_rope):
 * one for the sliding layers, one for the full layers. models_read fills
 * table 0 from the first layer's block and the full-attention rope; this
 * adds the sliding layers' default rope over head_dim as table 1, as the
 * Gemma 3 reader does. */
static void add_rope_tables(struct gs_arch *a, const struct gemma4_text *t)
{
    if (a->max_position_embeddings == 0 || t->layers == 0)
        return;
    a->rope_tables[1] = (struct gs_rope_table){a->max_position_embeddings, t->head_dim};
    a->rope_table_count = 2;
}

/* Reads a Gemma4TextConfig (or with `unified` a Gemma4UnifiedTextConfig) into
 * `a` with the head tied per `tie`. */
static void read_text_config(struct model_reader *r, struct gs_arch *a, bool tie, bool unified,
                             bool diffusion)
{
    /* the causal LM soft-caps its logits (modeling_gemma4.py: logits / final_logit_softcapping,
     * tanh, * final_logit_softcapping); the published configs set 30.0, as Gemma 3n's default */
    const bool final_softcap = rd_softcap(r, "final_logit_softcapping", true);
    struct gemma4_text t;
    read_text_dims(r, &t, unified, false, diffusion);
    if (!r->ok)
        return;
    check_kv_sources(r, t.layers, t.kv_shared_layers, t.sliding);
    if (!r->ok)
        return;
    build_text(r, a, &t, tie);
    add_rope_tables(a, &t);
    a->final_logit_softcap = final_softcap;
}

static void read_text(struct model_reader *r, struct gs_arch *a, bool tie)
{
    read_text_config(r, a, tie, false, false);
}

static void read_unified_text(struct model_reader *r, struct gs_arch *a, bool tie)
{
    read_text_config(r, a, tie, true, false);
}

/* Gemma4ForCausalLM (model_type gemma4_text): the language model alone, its
 * lm_head tied to the embedding by default. */
static void read_gemma4_text(struct model_reader *r, struct gs_arch *a)
{
    read_text(r, a, rd_flag(r, "tie_word_embeddings", true));
}

/* ------------------------------------------------------------ vision tower */

/* Gemma4VisionModel: Gemma4VisionPatchEmbedder (input_proj 3p^2 -> v without
 * bias, a 2 x position_embedding_size x v position table), encoder layers of
 * q/k/v/o projections (Gemma4ClippableLinear: a Linear at `.linear` plus buffers),
 * q_norm and k_norm over head_dim, a GeGLU MLP and four norms; the pooler has
 * no parameters. Gemma4MultimodalEmbedder projects v -> text hidden (no bias;
 * its pre-norm has no weight). Nothing without a vision_config. */
static void read_vision(struct model_reader *r, struct gs_arch *a)
{
    struct model_reader v;
    if (!rd_sub(r, "vision_config", &v))
        return;
    const uint64_t vh = rd_dim(&v, NAMES("hidden_size"), false, 768);
    const uint64_t vi = rd_dim(&v, NAMES("intermediate_size"), false, 3072);
    const uint64_t layers = rd_dim(&v, NAMES("num_hidden_layers"), false, 16);
    const uint64_t heads = rd_dim(&v, NAMES("num_attention_heads"), false, 12);
    const uint64_t kv_heads = rd_dim(&v, NAMES("num_key_value_heads"), false, 12);
    const uint64_t d = rd_dim(&v, NAMES("head_dim"), false, 64);
    const uint64_t patch = rd_dim(&v, NAMES("patch_size"), false, 16);
    const uint64_t positions = rd_dim(&v, NAMES("position_embedding_size"), false, 10240);
    const uint64_t pool = rd_dim(&v, NAMES("pooling_kernel_size"), false, 3);
    const bool clamped = rd_flag(&v, "use_clipped_linears", false); /* Gemma4VisionConfig's */
    if (!v.ok) {
        r->ok = false;
        return;
    }
    const size_t b = gs_arch_new_block(a);
    struct gs_block *blk = gs_arch_block(a, b);
    if (blk == NULL)
        return;
    blk->mixer = GS_MIXER_ATTENTION;
    blk->attn.heads = heads;
    blk->attn.kv_heads = kv_heads;
    blk->attn.head_dim = blk->attn.v_head_dim = d;
    blk->attn.cached = false; /* bidirectional: no KV cache */
    blk->attn.v_norm = true;  /* Gemma4VisionAttention.v_norm, with_scale=False */
    blk->clamped_linears = clamped;
    clippable(a, b, "self_attn.q_proj", GS_SPLIT_COLUMN, GS_PART_ATTENTION, vh, heads * d);
    clippable(a, b, "self_attn.k_proj", GS_SPLIT_KV, GS_PART_ATTENTION, vh, kv_heads * d);
    clippable(a, b, "self_attn.v_proj", GS_SPLIT_KV, GS_PART_ATTENTION, vh, kv_heads * d);
    clippable(a, b, "self_attn.o_proj", GS_SPLIT_ROW, GS_PART_ATTENTION, heads * d, vh);
    norm(a, b, "self_attn.q_norm", GS_PART_ATTENTION, d);
    norm(a, b, "self_attn.k_norm", GS_PART_ATTENTION, d);
    blk->mlp.kind = GS_MLP_DENSE;
    blk->mlp.gated = true;
    blk->mlp.width = vi;
    clippable(a, b, "mlp.gate_proj", GS_SPLIT_COLUMN, GS_PART_MLP, vh, vi);
    clippable(a, b, "mlp.up_proj", GS_SPLIT_COLUMN, GS_PART_MLP, vh, vi);
    clippable(a, b, "mlp.down_proj", GS_SPLIT_ROW, GS_PART_MLP, vi, vh);
    norm(a, b, "input_layernorm", GS_PART_NORMS, vh);
    norm(a, b, "post_attention_layernorm", GS_PART_NORMS, vh);
    norm(a, b, "pre_feedforward_layernorm", GS_PART_NORMS, vh);
    norm(a, b, "post_feedforward_layernorm", GS_PART_NORMS, vh);
    gs_arch_tower(a, "vision_tower", b, GS_PART_VISION, layers, false);
    add(a, GS_BLOCKS_MAX, "vision_tower.patch_embedder.input_proj", GS_MODULE_LINEAR, GS_SPLIT_NONE,
        GS_PART_VISION, 0, 3 * patch * patch, vh, 1);
    tensor(a, GS_BLOCKS_MAX, "vision_tower.patch_embedder.position_embedding_table", GS_PART_VISION,
           2 * positions, vh);
    add(a, GS_BLOCKS_MAX, "embed_vision.embedding_projection", GS_MODULE_LINEAR, GS_SPLIT_NONE,
        GS_PART_VISION, 0, vh, a->hidden_size, 1);
    /* the default image: vision_soft_tokens_per_image soft tokens, each pooled from
     * pooling_kernel_size^2 patches of 3 x patch^2 values; Gemma4ImageProcessor pads every
     * image's patches to max_soft_tokens x pooling_kernel_size^2 (pad_along_first_dim), one
     * batch row an image */
    a->mm_image.tokens = rd_dim(r, NAMES("vision_soft_tokens_per_image"), false, 280);
    a->mm_image.patches = a->mm_image.tokens * pool * pool;
    a->mm_image.pixels = a->mm_image.patches * 3 * patch * patch;
    a->mm_image.layout = GS_MM_PADDED_ROW;
    a->mm_image.position_table = positions; /* Gemma4VisionPatchEmbedder._position_embeddings */
    a->mm_image.position_one_hot_until = GS_HF_RELEASE(5, 10, 1);
}

/* ------------------------------------------------------------- audio tower */

/* One Gemma4AudioFeedForward (ffw_layer_1 a -> 4a, ffw_layer_2 4a -> a, pre
 * and post norms); `second` names the layer's second one. */
static void audio_feed_forward(struct gs_arch *a, size_t b, uint64_t ah, bool second)
{
    clippable(a, b, second ? "feed_forward2.ffw_layer_1" : "feed_forward1.ffw_layer_1",
              GS_SPLIT_COLUMN, GS_PART_MLP, ah, 4 * ah);
    clippable(a, b, second ? "feed_forward2.ffw_layer_2" : "feed_forward1.ffw_layer_2",
              GS_SPLIT_ROW, GS_PART_MLP, 4 * ah, ah);
    norm(a, b, second ? "feed_forward2.pre_layer_norm" : "feed_forward1.pre_layer_norm",
         GS_PART_NORMS, ah);
    norm(a, b, second ? "feed_forward2.post_layer_norm" : "feed_forward1.post_layer_norm",
         GS_PART_NORMS, ah);
}

/* Gemma4AudioLayer (a USM conformer block): two feed-forwards; chunked local
 * attention (q/k/v, `post` a -> a, relative_k_proj a -> a, per_dim_scale over
 * one head); Gemma4AudioLightConv1d (linear_start a -> 2a, a depthwise causal
 * conv of conv_kernel_size without bias, linear_end, two norms); three norms. */
static size_t audio_layer(struct gs_arch *a, uint64_t ah, uint64_t heads, uint64_t kernel)
{
    const size_t b = gs_arch_new_block(a);
    struct gs_block *blk = gs_arch_block(a, b);
    if (blk == NULL)
        return b;
    blk->mixer = GS_MIXER_ATTENTION;
    blk->attn.heads = blk->attn.kv_heads = heads;
    blk->attn.head_dim = blk->attn.v_head_dim = heads ? ah / heads : 0;
    blk->attn.cached = false;
    blk->mlp.kind = GS_MLP_DENSE;
    blk->mlp.width = 4 * ah;
    audio_feed_forward(a, b, ah, false);
    audio_feed_forward(a, b, ah, true);
    clippable(a, b, "self_attn.q_proj", GS_SPLIT_COLUMN, GS_PART_ATTENTION, ah, ah);
    clippable(a, b, "self_attn.k_proj", GS_SPLIT_KV, GS_PART_ATTENTION, ah, ah);
    clippable(a, b, "self_attn.v_proj", GS_SPLIT_KV, GS_PART_ATTENTION, ah, ah);
    clippable(a, b, "self_attn.post", GS_SPLIT_ROW, GS_PART_ATTENTION, ah, ah);
    linear(a, b, "self_attn.relative_k_proj", GS_SPLIT_NONE, GS_PART_ATTENTION, ah, ah);
    tensor(a, b, "self_attn.per_dim_scale", GS_PART_ATTENTION, 1, blk->attn.head_dim);
    clippable(a, b, "lconv1d.linear_start", GS_SPLIT_COLUMN, GS_PART_ATTENTION, ah, 2 * ah);
    clippable(a, b, "lconv1d.linear_end", GS_SPLIT_ROW, GS_PART_ATTENTION, ah, ah);
    tensor(a, b, "lconv1d.depthwise_conv1d", GS_PART_ATTENTION, ah, kernel);
    norm(a, b, "lconv1d.pre_layer_norm", GS_PART_NORMS, ah);
    norm(a, b, "lconv1d.conv_norm", GS_PART_NORMS, ah);
    norm(a, b, "norm_pre_attn", GS_PART_NORMS, ah);
    norm(a, b, "norm_post_attn", GS_PART_NORMS, ah);
    norm(a, b, "norm_out", GS_PART_NORMS, ah);
    return b;
}

/* subsampling_conv_channels: two positive integers (Gemma4AudioConfig's
 * default [128, 32]). */
static bool audio_channels(struct model_reader *v, uint64_t out[2])
{
    out[0] = 128;
    out[1] = 32;
    const json_t *list = NULL;
    const size_t n = rd_array(v, "subsampling_conv_channels", &list);
    if (!v->ok || list == NULL)
        return v->ok;
    for (size_t i = 0; i < 2; i++) {
        const json_t *c = json_array_get(list, i);
        if (n != 2 || !json_is_integer(c) || json_integer_value(c) <= 0 ||
            (uint64_t)json_integer_value(c) > GS_ARCH_DIM_MAX) {
            rd_fail(v, "subsampling_conv_channels", GS_ERR_INVALID,
                    "must be two positive channel counts");
            return false;
        }
        out[i] = (uint64_t)json_integer_value(c);
    }
    return true;
}

/* Gemma4AudioModel: Gemma4AudioSubSampleConvProjection (two 3x3 Conv2d
 * without bias, each followed by a LayerNorm without bias, then
 * input_proj_linear (c0 / 4) x c1 -> a), the conformer layers, output_proj
 * a -> output_proj_dims with bias; Gemma4MultimodalEmbedder projects
 * output_proj_dims -> text hidden. */
static void read_audio(struct model_reader *r, struct gs_arch *a)
{
    struct model_reader v;
    if (!rd_sub(r, "audio_config", &v))
        return;
    const uint64_t ah = rd_dim(&v, NAMES("hidden_size"), false, 1024);
    const uint64_t layers = rd_dim(&v, NAMES("num_hidden_layers"), false, 12);
    const uint64_t heads = rd_dim(&v, NAMES("num_attention_heads"), false, 8);
    const uint64_t kernel = rd_size(&v, NAMES("conv_kernel_size"), 5);
    const uint64_t out = rd_dim(&v, NAMES("output_proj_dims"), false, 1536);
    uint64_t c[2];
    if (!audio_channels(&v, c) || !v.ok) {
        r->ok = false;
        return;
    }
    if (heads == 0 || ah % heads != 0) {
        rd_fail(&v, "num_attention_heads", GS_ERR_INVALID, "must divide hidden_size %llu",
                (unsigned long long)ah);
        r->ok = false;
        return;
    }
    const size_t b = audio_layer(a, ah, heads, kernel);
    if (b >= GS_BLOCKS_MAX)
        return;
    gs_arch_tower(a, "audio_tower", b, GS_PART_AUDIO, layers, false);
    tensor(a, GS_BLOCKS_MAX, "audio_tower.subsample_conv_projection.layer0.conv", GS_PART_AUDIO,
           c[0], 9);
    norm(a, GS_BLOCKS_MAX, "audio_tower.subsample_conv_projection.layer0.norm", GS_PART_AUDIO,
         c[0]);
    tensor(a, GS_BLOCKS_MAX, "audio_tower.subsample_conv_projection.layer1.conv", GS_PART_AUDIO,
           c[0] * c[1], 9);
    norm(a, GS_BLOCKS_MAX, "audio_tower.subsample_conv_projection.layer1.norm", GS_PART_AUDIO,
         c[1]);
    add(a, GS_BLOCKS_MAX, "audio_tower.subsample_conv_projection.input_proj_linear",
        GS_MODULE_LINEAR, GS_SPLIT_NONE, GS_PART_AUDIO, 0, c[0] / 4 * c[1], ah, 1);
    add(a, GS_BLOCKS_MAX, "audio_tower.output_proj", GS_MODULE_LINEAR, GS_SPLIT_NONE, GS_PART_AUDIO,
        GS_MOD_BIAS, ah, out, 1);
    add(a, GS_BLOCKS_MAX, "embed_audio.embedding_projection", GS_MODULE_LINEAR, GS_SPLIT_NONE,
        GS_PART_AUDIO, 0, out, a->hidden_size, 1);
}

/* Reads a family's text config into `a` with the head tied per `tie`. */
typedef void (*language_reader)(struct model_reader *r, struct gs_arch *a, bool tie);

/* The ForConditionalGeneration layout Gemma 4 and Gemma 3n share: the
 * text_config's language model (the family's default text config when
 * absent), lm_head tied to its embedding by the top-level
 * tie_word_embeddings (else the text_config's, else true), then the vision
 * tower and the audio tower, each read from the top-level config. */
static void read_conditional_generation(struct model_reader *r, struct gs_arch *a,
                                        language_reader language, model_read_fn vision,
                                        model_read_fn audio)
{
    struct model_reader text;
    json_t *defaults = NULL;
    const bool has_text = rd_sub(r, "text_config", &text);
    if (!r->ok)
        return;
    if (!has_text) {
        defaults = json_object();
        text = *r;
        text.config = defaults;
    }
    const bool tie = rd_flag(r, "tie_word_embeddings", rd_flag(&text, "tie_word_embeddings", true));
    language(&text, a, tie);
    json_decref(defaults);
    if (!text.ok) {
        r->ok = false;
        return;
    }
    vision(r, a);
    if (r->ok)
        audio(r, a);
}

/* The multimodal wrapper's per-layer inputs for the scheduled tokens, which vLLM's wrapper keeps
 * from its __init__ (so inside load_model's profiler): per_layer_embeddings,
 * max_num_batched_tokens x layers x hidden_size_per_layer_input in the model dtype
 * (gemma3n_mm.py Gemma3nForConditionalGeneration from 0.10.1, PR #20495, before which the class
 * was gemma3n.py's text model; gemma4_mm.py Gemma4ForConditionalGeneration from its first
 * release, 0.19.0, PR #38826, where hidden_size_per_layer_input is set). The width is the
 * per-layer embedding table's, layers x per-layer width. */
static void per_layer_input_buffer(struct gs_arch *a, uint32_t vllm_since)
{
    for (size_t i = 0; i < a->module_count; i++)
        if (strcmp(a->modules[i].name, "embed_tokens_per_layer") == 0) {
            a->token_buffer_width = a->modules[i].out;
            a->token_buffer_since = vllm_since;
        }
}

/* Gemma4ForConditionalGeneration: the vision and audio towers when their
 * configs are present (a null audio_config builds none). */
static void read_gemma4(struct model_reader *r, struct gs_arch *a)
{
    read_conditional_generation(r, a, read_text, read_vision, read_audio);
    per_layer_input_buffer(a, 0);
}

/* ------------------------------------------------------ Gemma 4 assistants */

/* Gemma 4's assistants, the multi-token-prediction drafters Google ships beside each Gemma 4
 * (gemma-4-E2B-it-assistant ... gemma-4-31B-it-assistant: Gemma4AssistantForCausalLM,
 * model_type gemma4_assistant; the 12B's Gemma4UnifiedAssistantForCausalLM,
 * gemma4_unified_assistant; transformers models/gemma4_assistant, gemma4_unified_assistant).
 * The decoder is a Gemma 4 text model (Gemma4TextModel over text_config) whose every layer reads
 * the target's keys and values (Gemma4AssistantConfig.__post_init__ sets num_kv_shared_layers
 * to the layer count where it is 0; validate_architecture refuses another count, per-layer
 * embeddings, the MoE block and the double-wide MLP): q_proj, q_norm and o_proj at the layer's
 * head size (global_head_dim on full layers), no k/v projections, no cache; the embedding tied
 * to lm_head (tie_word_embeddings true by default); pre_projection 2 x backbone_hidden_size ->
 * hidden (the target's token embedding and hidden state, concatenated) and post_projection back
 * to backbone_hidden_size; with use_ordered_embeddings the centroid head
 * (Gemma4AssistantMaskedEmbedder: centroids hidden -> num_centroids and token_ordering, a
 * vocabulary-long int64 buffer, weighed here at 4 bytes). The assistant runs only beside its
 * target (gs_arch.drafts_for_hidden): vLLM's mtp with the assistant as the draft (gemma4_mtp.py).
 */
static void read_assistant(struct model_reader *r, struct gs_arch *a, bool unified)
{
    struct model_reader text;
    if (!rd_sub(r, "text_config", &text)) {
        if (r->ok)
            rd_fail(r, "text_config", GS_ERR_INVALID,
                    "is required: the assistant's decoder (a Gemma 4 text config)");
        return;
    }
    /* what validate_architecture refuses */
    if (rd_dim(&text, NAMES("hidden_size_per_layer_input"), false, 0) > 0 ||
        rd_dim(&text, NAMES("vocab_size_per_layer_input"), false, 0) > 0)
        rd_fail(&text, "hidden_size_per_layer_input", GS_ERR_INVALID,
                "must be 0 in an assistant: it has no per-layer embeddings");
    else if (rd_flag(&text, "enable_moe_block", false))
        rd_fail(&text, "enable_moe_block", GS_ERR_INVALID, "must be false in an assistant");
    else if (rd_flag(&text, "use_double_wide_mlp", false))
        rd_fail(&text, "use_double_wide_mlp", GS_ERR_INVALID, "must be false in an assistant");
    struct gemma4_text t;
    if (text.ok)
        read_text_dims(&text, &t, unified, true, false);
    if (text.ok && t.kv_shared_layers != 0 && t.kv_shared_layers != t.layers)
        rd_fail(&text, "num_kv_shared_layers", GS_ERR_INVALID,
                "must be 0 or the %llu layers: every assistant layer reads the target's keys and "
                "values",
                (unsigned long long)t.layers);
    if (!text.ok) {
        r->ok = false;
        return;
    }
    t.kv_shared_layers = t.layers;
    build_text(&text, a, &t, rd_flag(r, "tie_word_embeddings", true));
    const uint64_t backbone =
        rd_dim(r, NAMES("backbone_hidden_size"), false, unified ? 3840 : 1536);
    const uint64_t h = t.hidden;
    linear(a, GS_BLOCKS_MAX, "pre_projection", GS_SPLIT_COLUMN, GS_PART_OTHER, 2 * backbone, h);
    linear(a, GS_BLOCKS_MAX, "post_projection", GS_SPLIT_ROW, GS_PART_OTHER, h, backbone);
    if (rd_flag(r, "use_ordered_embeddings", false)) {
        add(a, GS_BLOCKS_MAX, "masked_embedding.centroids", GS_MODULE_LINEAR, GS_SPLIT_NONE,
            GS_PART_OTHER, 0, h, rd_dim(r, NAMES("num_centroids"), false, 2048), 1);
        add(a, GS_BLOCKS_MAX, "masked_embedding.token_ordering", GS_MODULE_TENSOR, GS_SPLIT_NONE,
            GS_PART_OTHER, GS_MOD_BUFFER, 1, a->vocab_size, 1);
        a->draft_gathers_head = true;
    }
    a->drafts_for_hidden = backbone;
}

static void read_gemma4_assistant(struct model_reader *r, struct gs_arch *a)
{
    read_assistant(r, a, false);
}

static void read_gemma4_unified_assistant(struct model_reader *r, struct gs_arch *a)
{
    read_assistant(r, a, true);
}

/* -------------------------------------------------------- Gemma 4 unified */

/* Gemma4UnifiedVisionEmbedder (modeling_gemma4_unified.py), the encoder-free
 * vision path that stands in for a tower: each 48 x 48 pixel patch (patch_size
 * merged pooling_kernel_size^2 by the processor, 3 x model_patch_size^2 = 6,912
 * values) runs patch_ln1 (a LayerNorm with bias over those values), patch_dense
 * (-> mm_embed_dim, with bias), patch_ln2, the factorized position table
 * pos_embedding (mm_posemb_size x 2 x mm_embed_dim, one row an axis), pos_norm,
 * and Gemma4UnifiedMultimodalEmbedder (a weightless RMSNorm, then
 * embedding_projection output_proj_dims -> text hidden without bias). The
 * forward feeds the mm_embed_dim vector to that projection, so the two widths
 * are one. Nothing without a vision_config.
 *
 * An image is one soft token a patch: num_soft_tokens (vLLM's
 * Gemma4UnifiedProcessingInfo reads it; the processor's max_soft_tokens
 * default is 280), its pixel values tokens x 6,912. There is no tower forward
 * to describe (mm_image.patches 0); what the embedder's few [tokens,
 * mm_embed_dim] tensors keep in training is not counted. */
static void read_unified_vision(struct model_reader *r, struct gs_arch *a)
{
    struct model_reader v;
    if (!rd_sub(r, "vision_config", &v))
        return;
    const uint64_t patch = rd_dim(&v, NAMES("patch_size"), false, 16);
    const uint64_t pool = rd_dim(&v, NAMES("pooling_kernel_size"), false, 3);
    const uint64_t model_patch = rd_dim(&v, NAMES("model_patch_size"), false, patch * pool);
    const uint64_t width = rd_dim(&v, NAMES("mm_embed_dim"), false, 3840);
    const uint64_t positions = rd_dim(&v, NAMES("mm_posemb_size"), false, 1120);
    const uint64_t out = rd_dim(&v, NAMES("output_proj_dims"), false, 3840);
    const uint64_t tokens = rd_dim(&v, NAMES("num_soft_tokens"), false,
                                   rd_dim(r, NAMES("vision_soft_tokens_per_image"), false, 280));
    if (v.ok && out != width)
        rd_fail(&v, "output_proj_dims", GS_ERR_INVALID,
                "%llu: Gemma4UnifiedVisionEmbedder projects its mm_embed_dim (%llu) outputs, so "
                "the two are one width",
                (unsigned long long)out, (unsigned long long)width);
    if (v.ok && model_patch != patch * pool)
        rd_fail(&v, "model_patch_size", GS_ERR_INVALID,
                "%llu: the processor merges pooling_kernel_size^2 patches of patch_size, %llu "
                "pixels a side",
                (unsigned long long)model_patch, (unsigned long long)(patch * pool));
    if (!v.ok) {
        r->ok = false;
        return;
    }
    const uint64_t values = 3 * model_patch * model_patch;
    const size_t m = GS_BLOCKS_MAX;
    add(a, m, "embed_vision.patch_ln1", GS_MODULE_NORM, GS_SPLIT_NONE, GS_PART_VISION, GS_MOD_BIAS,
        1, values, 1);
    add(a, m, "embed_vision.patch_dense", GS_MODULE_LINEAR, GS_SPLIT_NONE, GS_PART_VISION,
        GS_MOD_BIAS, values, width, 1);
    add(a, m, "embed_vision.patch_ln2", GS_MODULE_NORM, GS_SPLIT_NONE, GS_PART_VISION, GS_MOD_BIAS,
        1, width, 1);
    tensor(a, m, "embed_vision.pos_embedding", GS_PART_VISION, 2 * positions, width);
    add(a, m, "embed_vision.pos_norm", GS_MODULE_NORM, GS_SPLIT_NONE, GS_PART_VISION, GS_MOD_BIAS,
        1, width, 1);
    add(a, m, "embed_vision.multimodal_embedder.embedding_projection", GS_MODULE_LINEAR,
        GS_SPLIT_NONE, GS_PART_VISION, 0, out, a->hidden_size, 1);
    a->mm_image.tokens = tokens;
    a->mm_image.pixels = tokens * values;
}

/* The unified audio path: raw 16 kHz waveform in frames of audio_embed_dim
 * samples (640, 25 tokens a second), each through Gemma4UnifiedMultimodalEmbedder
 * (a weightless RMSNorm, then embedding_projection audio_embed_dim -> text
 * hidden without bias). Gemma4UnifiedAudioConfig's hidden_size,
 * output_proj_dims and audio_samples_per_token are setters of audio_embed_dim,
 * so a config may carry any of them. Nothing without an audio_config. */
static void read_unified_audio(struct model_reader *r, struct gs_arch *a)
{
    struct model_reader v;
    if (!rd_sub(r, "audio_config", &v))
        return;
    const uint64_t frame = rd_dim(
        &v, NAMES("audio_embed_dim", "output_proj_dims", "hidden_size", "audio_samples_per_token"),
        false, 640);
    if (!v.ok) {
        r->ok = false;
        return;
    }
    add(a, GS_BLOCKS_MAX, "embed_audio.embedding_projection", GS_MODULE_LINEAR, GS_SPLIT_NONE,
        GS_PART_AUDIO, 0, frame, a->hidden_size, 1);
}

/* Gemma4UnifiedForConditionalGeneration (gemma4_unified, google/gemma-4-12B): the
 * Gemma 4 text decoder without per-layer embeddings or MoE (Gemma4UnifiedTextConfig) and
 * linear embedders where Gemma 4 has towers (Gemma4UnifiedModel deletes vision_tower and
 * audio_tower); vLLM's gemma4_unified.py builds the same modules. */
static void read_gemma4_unified(struct model_reader *r, struct gs_arch *a)
{
    read_conditional_generation(r, a, read_unified_text, read_unified_vision, read_unified_audio);
}

/* Gemma4UnifiedForCausalLM (gemma4_unified_text): the language model alone. */
static void read_gemma4_unified_text(struct model_reader *r, struct gs_arch *a)
{
    read_unified_text(r, a, rd_flag(r, "tie_word_embeddings", true));
}

/* ---------------------------------------------------------------- Gemma 3n */

/* What Gemma3nTextConfig says about the stack (configuration_gemma3n.py
 * defaults: the E4B). */
struct gemma3n_text {
    uint64_t hidden, layers, heads, kv_heads, head_dim, window;
    uint64_t kv_shared_layers, per_layer_width, per_layer_vocab;
    uint64_t altup_inputs, laurel_rank;
    bool bias;
    uint64_t intermediate[GS_LAYERS_MAX]; /* a width for every layer (MatFormer slices vary it) */
    bool sliding[GS_LAYERS_MAX];
};

/* intermediate_size: one width for every layer or a list of one per layer
 * (Gemma3nTextConfig.__post_init__). */
static void read_widths(struct model_reader *r, struct gemma3n_text *t)
{
    const json_t *list = NULL;
    const json_t *v = rd_get(r, "intermediate_size");
    if (!json_is_array(v)) {
        const uint64_t w = rd_dim(r, NAMES("intermediate_size"), false, 16384);
        for (uint64_t l = 0; l < t->layers && l < GS_LAYERS_MAX; l++)
            t->intermediate[l] = w;
        return;
    }
    const size_t n = rd_array(r, "intermediate_size", &list);
    if (!r->ok)
        return;
    if (n != t->layers) {
        rd_fail(r, "intermediate_size", GS_ERR_INVALID, "has %zu widths for %llu layers", n,
                (unsigned long long)t->layers);
        return;
    }
    for (size_t l = 0; l < n && l < GS_LAYERS_MAX; l++) {
        const json_t *w = json_array_get(list, l);
        if (!json_is_integer(w) || json_integer_value(w) <= 0 ||
            (uint64_t)json_integer_value(w) > GS_ARCH_DIM_MAX) {
            rd_fail(r, "intermediate_size", GS_ERR_INVALID, "entry %zu is not a positive width", l);
            return;
        }
        t->intermediate[l] = (uint64_t)json_integer_value(w);
    }
}

/* Reads the text config with Gemma3nTextConfig's defaults; layer_types
 * default to four sliding layers to one full. */
static void read_gemma3n_dims(struct model_reader *r, struct gemma3n_text *t)
{
    memset(t, 0, sizeof(*t));
    t->hidden = rd_dim(r, NAMES("hidden_size"), false, 2048);
    t->layers = rd_dim(r, NAMES("num_hidden_layers"), false, 35);
    t->heads = rd_dim(r, NAMES("num_attention_heads"), false, 8);
    t->kv_heads = rd_dim(r, NAMES("num_key_value_heads"), false, 2);
    t->head_dim = rd_dim(r, NAMES("head_dim"), false, 256);
    t->window = rd_dim(r, NAMES("sliding_window"), false, 512);
    t->kv_shared_layers = rd_dim(r, NAMES("num_kv_shared_layers"), false, 15);
    t->per_layer_width = rd_dim(r, NAMES("hidden_size_per_layer_input"), false, 256);
    t->per_layer_vocab = rd_dim(r, NAMES("vocab_size_per_layer_input"), false, 262144);
    t->altup_inputs = rd_dim(r, NAMES("altup_num_inputs"), false, 4);
    t->laurel_rank = rd_dim(r, NAMES("laurel_rank"), false, 64);
    t->bias = rd_flag(r, "attention_bias", false);
    if (t->layers > GS_LAYERS_MAX) {
        rd_fail(r, "num_hidden_layers", GS_ERR_UNSUPPORTED,
                "%llu layers: gpusizer describes at most %d", (unsigned long long)t->layers,
                GS_LAYERS_MAX);
        return;
    }
    if (t->kv_shared_layers >= t->layers && t->kv_shared_layers > 0) {
        rd_fail(r, "num_kv_shared_layers", GS_ERR_INVALID,
                "%llu of %llu layers: a shared layer needs an earlier layer to read from",
                (unsigned long long)t->kv_shared_layers, (unsigned long long)t->layers);
        return;
    }
    read_widths(r, t);
    struct decoder_plan plan;
    memset(&plan, 0, sizeof(plan));
    plan.layers = t->layers;
    if (r->ok && !decoder_read_layer_types(r, &plan))
        decoder_window_pattern(&plan, 5);
    memcpy(t->sliding, plan.sliding, sizeof(t->sliding));
}

/* Gemma3nTextAttention: q/k/v/o and q_norm, k_norm over one head (v_norm has
 * no weight). Every layer keeps its k_proj, v_proj and k_norm, shared or not
 * (the checkpoint stores them, vLLM loads them); transformers builds a shared
 * layer's only before 5.6.0 (PR #45489 lists them in
 * _keys_to_ignore_on_load_unexpected), which training follows by release
 * (GS_MOD_KV_OWN). A shared layer reads the keys and values of the last
 * earlier layer of its kind and, in vLLM (gemma3n.py,
 * kv_sharing_target_layer_name), caches nothing. */
static void gemma3n_attention(struct gs_arch *a, size_t b, const struct gemma3n_text *t,
                              bool sliding, bool shared)
{
    struct gs_block *blk = gs_arch_block(a, b);
    if (blk == NULL)
        return;
    struct gs_attention s;
    memset(&s, 0, sizeof(s));
    s.heads = t->heads;
    s.kv_heads = t->kv_heads;
    s.head_dim = s.v_head_dim = t->head_dim;
    s.span = sliding ? GS_SPAN_SLIDING : GS_SPAN_FULL;
    s.window = sliding ? t->window : 0;
    s.cached = true;
    s.kv_shared = shared;
    /* in training too from 5.6.0 (shared_kv_states, PR #45489); before it a shared layer
     * reused them only through a cache and, in training, ran its own k_proj and v_proj */
    s.kv_shared_from = shared ? GS_HF_RELEASE(5, 6, 0) : 0;
    s.v_norm = true; /* Gemma3nRMSNorm(with_scale=False) on the values a layer computes */
    gs_build_attention(a, b, &s, &GS_ATTENTION_NAMES, t->bias, t->bias);
    norm(a, b, "self_attn.q_norm", GS_PART_ATTENTION, t->head_dim);
    add(a, b, "self_attn.k_norm", GS_MODULE_NORM, GS_SPLIT_NONE, GS_PART_ATTENTION, GS_MOD_KV_OWN,
        1, t->head_dim, 1);
    /* k_proj and v_proj, k_norm: a shared layer's go from 5.6.0 (est_training_model) */
    for (size_t i = 0; i < blk->module_count; i++)
        if (blk->modules[i].split == GS_SPLIT_KV)
            blk->modules[i].flags |= GS_MOD_KV_OWN;
}

/* One kind of Gemma3nTextDecoderLayer: attention, a GeGLU MLP of the layer's
 * width, four norms; Gemma3nTextAltUp (correct_output_scale h,
 * correction_coefs n x n, prediction_coefs n x n^2, modality_router h x n,
 * router_norm h); Gemma3nTextLaurelBlock (linear_left h x r, linear_right
 * r x h, post_laurel_norm h); the per-layer input gate h -> p, projection
 * p -> h and its norm. */
static size_t gemma3n_layer(struct gs_arch *a, const struct gemma3n_text *t, bool sliding,
                            bool shared, uint64_t width)
{
    const size_t b = gs_arch_new_block(a);
    if (b >= GS_BLOCKS_MAX)
        return b;
    const uint64_t h = t->hidden, n = t->altup_inputs;
    gemma3n_attention(a, b, t, sliding, shared);
    gs_build_mlp(a, b, width, true, false, &GS_MLP_NAMES);
    gs_build_norms(a, b, "input_layernorm", 1, false);
    gs_build_norms(a, b, "post_attention_layernorm", 1, false);
    gs_build_norms(a, b, "pre_feedforward_layernorm", 1, false);
    gs_build_norms(a, b, "post_feedforward_layernorm", 1, false);
    tensor(a, b, "altup.correct_output_scale", GS_PART_OTHER, 1, h);
    tensor(a, b, "altup.correction_coefs", GS_PART_OTHER, n, n);
    tensor(a, b, "altup.prediction_coefs", GS_PART_OTHER, n, n * n);
    linear(a, b, "altup.modality_router", GS_SPLIT_NONE, GS_PART_OTHER, h, n);
    norm(a, b, "altup.router_norm", GS_PART_NORMS, h);
    linear(a, b, "laurel.linear_left", GS_SPLIT_NONE, GS_PART_OTHER, h, t->laurel_rank);
    linear(a, b, "laurel.linear_right", GS_SPLIT_NONE, GS_PART_OTHER, t->laurel_rank, h);
    norm(a, b, "laurel.post_laurel_norm", GS_PART_NORMS, h);
    linear(a, b, "per_layer_input_gate", GS_SPLIT_NONE, GS_PART_OTHER, h, t->per_layer_width);
    linear(a, b, "per_layer_projection", GS_SPLIT_NONE, GS_PART_OTHER, t->per_layer_width, h);
    norm(a, b, "post_per_layer_input_norm", GS_PART_NORMS, h);
    return b;
}

/* The block of layer `l`: one per (sliding, shared, width) met so far. */
static size_t gemma3n_block_for(struct gs_arch *a, const struct gemma3n_text *t, uint64_t l)
{
    const bool shared = t->kv_shared_layers > 0 && l >= t->layers - t->kv_shared_layers;
    for (uint64_t k = 0; k < l; k++) {
        const bool k_shared = t->kv_shared_layers > 0 && k >= t->layers - t->kv_shared_layers;
        if (t->sliding[k] == t->sliding[l] && k_shared == shared &&
            t->intermediate[k] == t->intermediate[l])
            return a->layer_block[k];
    }
    return gemma3n_layer(a, t, t->sliding[l], shared, t->intermediate[l]);
}

/* Gemma3nTextModel: the layers, embed_tokens (tied to the head), the final
 * norm, the per-layer embeddings (a vocab_size_per_layer_input x (L x p)
 * lookup, per_layer_model_projection h -> L x p, per_layer_projection_norm),
 * and AltUp's altup_projections and altup_unembed_projections, n - 1 of
 * h x h each. */
static void build_gemma3n_text(struct model_reader *r, struct gs_arch *a,
                               const struct gemma3n_text *t, bool tie)
{
    gs_arch_init(a, NULL, t->hidden, rd_dim(r, NAMES("vocab_size"), false, 262400));
    a->max_position_embeddings = rd_dim(r, NAMES("max_position_embeddings"), false, 32768);
    a->tie_word_embeddings = tie;
    a->attention_dropout = rd_dropout(r, NAMES("attention_dropout"));
    a->num_hidden_layers = t->layers;
    for (uint64_t l = 0; l < t->layers; l++) {
        const size_t b = gemma3n_block_for(a, t, l);
        if (b >= GS_BLOCKS_MAX)
            return;
        a->layer_block[l] = (uint8_t)b;
        a->block_layers[b]++;
    }
    gs_arch_embeddings(a, t->hidden, "lm_head", false);
    gs_build_norms(a, GS_BLOCKS_MAX, "norm", 1, false);
    /* Gemma4RMSNorm / Gemma3nRMSNorm: normed_output * self.weight.float(), then type_as */
    a->norm_weight_fp32 = true;
    const uint64_t packed = t->layers * t->per_layer_width;
    add(a, GS_BLOCKS_MAX, "embed_tokens_per_layer", GS_MODULE_EMBEDDING, GS_SPLIT_COLUMN,
        GS_PART_EMBEDDING, GS_MOD_LOOKUP, t->per_layer_vocab, packed, 1);
    linear(a, GS_BLOCKS_MAX, "per_layer_model_projection", GS_SPLIT_COLUMN, GS_PART_OTHER,
           t->hidden, packed);
    norm(a, GS_BLOCKS_MAX, "per_layer_projection_norm", GS_PART_NORMS, t->per_layer_width);
    if (t->altup_inputs > 1) {
        add(a, GS_BLOCKS_MAX, "altup_projections", GS_MODULE_LINEAR, GS_SPLIT_COLUMN, GS_PART_OTHER,
            GS_MOD_QUANT, t->hidden, t->hidden, t->altup_inputs - 1);
        add(a, GS_BLOCKS_MAX, "altup_unembed_projections", GS_MODULE_LINEAR, GS_SPLIT_COLUMN,
            GS_PART_OTHER, GS_MOD_QUANT, t->hidden, t->hidden, t->altup_inputs - 1);
    }
    /* vLLM gemma3n.py: one rope for the sliding layers (rope_local_base_freq) and one for the
     * full layers, both over head_dim (models_read adds table 0) */
    if (a->max_position_embeddings) {
        a->rope_tables[1] = (struct gs_rope_table){a->max_position_embeddings, t->head_dim};
        a->rope_table_count = 2;
    }
}

/* Reads a Gemma3nTextConfig into `a` with the head tied per `tie`. */
static void read_gemma3n_language(struct model_reader *r, struct gs_arch *a, bool tie)
{
    /* Gemma3nTextConfig final_logit_softcapping 30.0 by default, applied by the causal LM as
     * Gemma 2's is */
    const bool final_softcap = rd_softcap(r, "final_logit_softcapping", true);
    struct gemma3n_text t;
    read_gemma3n_dims(r, &t);
    if (!r->ok)
        return;
    check_kv_sources(r, t.layers, t.kv_shared_layers, t.sliding);
    if (r->ok)
        build_gemma3n_text(r, a, &t, tie);
    a->final_logit_softcap = final_softcap;
}

/* Gemma3nForCausalLM (model_type gemma3n_text). */
static void read_gemma3n_text(struct model_reader *r, struct gs_arch *a)
{
    read_gemma3n_language(r, a, rd_flag(r, "tie_word_embeddings", true));
}

/* One kind of block of timm's MobileNet-V5 (timm/models/mobilenetv5.py
 * _gen_mobilenet_v5, the mobilenetv5_300m_enc arch_def, blocks from
 * _efficientnet_blocks.py): 'e' EdgeResidual er_k{k}_e{e}, 'u'
 * UniversalInvertedResidual uir_a{start}_k{mid}_e{e}, 'm' MobileAttention
 * with MultiQueryAttention2d mqa_k{k}_h{heads}_v{kv_stride}_d{key_dim};
 * `count` blocks of it, `out` channels. */
struct mnv5_block {
    char type;
    uint8_t start, mid, exp;
    uint16_t out;
    uint8_t heads, kv_stride, key_dim, count;
};

/* mobilenetv5_300m_enc by stage. Stage 2 ends in 14 and stage 3 in 19
 * MobileAttention + UIR pairs (the order does not change the count). */
static const struct mnv5_block MNV5_300M[4][5] = {
    {{'e', 0, 3, 4, 128, 0, 0, 0, 3}},
    {{'u', 3, 5, 6, 256, 0, 0, 0, 1},
     {'u', 5, 0, 4, 256, 0, 0, 0, 2},
     {'u', 3, 0, 4, 256, 0, 0, 0, 2}},
    {{'u', 5, 5, 6, 640, 0, 0, 0, 1},
     {'u', 5, 0, 4, 640, 0, 0, 0, 7},
     {'u', 0, 0, 1, 640, 0, 0, 0, 1},
     {'m', 0, 3, 0, 640, 12, 2, 64, 14},
     {'u', 0, 0, 2, 640, 0, 0, 0, 14}},
    {{'u', 5, 5, 6, 1280, 0, 0, 0, 1},
     {'m', 0, 3, 0, 1280, 16, 1, 96, 19},
     {'u', 0, 0, 2, 1280, 0, 0, 0, 19}},
};

/* Parameters of one block on `in` channels. Convolutions have no bias; every
 * norm is an RmsNorm2d with a weight; UIR and MobileAttention end in a
 * LayerScale2d (gamma over the output channels, layer_scale_init_value 1e-5). */
static uint64_t mnv5_block_params(const struct mnv5_block *k, uint64_t in)
{
    const uint64_t out = k->out;
    if (k->type == 'e') { /* conv_exp k x k in -> in*e, bn1, conv_pwl, bn2 */
        const uint64_t mid = in * k->exp;
        return in * mid * k->mid * k->mid + mid + mid * out + out;
    }
    if (k->type == 'u') { /* dw_start, pw_exp, dw_mid, pw_proj (each conv + norm) */
        const uint64_t mid = in * k->exp;
        uint64_t n = in * mid + mid + mid * out + out + out;
        if (k->start)
            n += in * k->start * k->start + in;
        if (k->mid)
            n += mid * k->mid * k->mid + mid;
        return n;
    }
    /* norm; query.proj in -> heads x d; key and value: a depthwise down_conv and norm when
     * kv_stride > 1, proj in -> d (one shared head); output.proj heads x d -> out */
    uint64_t n = in + in * k->heads * k->key_dim + 2 * in * k->key_dim +
                 (uint64_t)k->heads * k->key_dim * out + out;
    if (k->kv_stride > 1)
        n += 2 * (in * k->mid * k->mid + in);
    return n;
}

/* TimmWrapperModel(mobilenetv5_300m_enc) as Gemma 3n loads it: conv_stem (a
 * 3x3 conv with bias, 3 -> 64, and its norm), the four stages, and
 * MobileNetV5MultiScaleFusionAdapter over the last two stages' 640 + 1280
 * channels (a UIR 1920 -> 3840 -> 2048 without layer scale, and a norm).
 * Counted as a module per stage: the blocks differ in shape, so no tower of
 * identical layers describes them. */
static void mobilenet_v5(struct gs_arch *a)
{
    static const char *const stage_names[4] = {
        "vision_tower.timm_model.blocks.0", "vision_tower.timm_model.blocks.1",
        "vision_tower.timm_model.blocks.2", "vision_tower.timm_model.blocks.3"};
    tensor(a, GS_BLOCKS_MAX, "vision_tower.timm_model.conv_stem", GS_PART_VISION, 1,
           3 * 64 * 9 + 64 + 64);
    uint64_t in = 64, last[2] = {0, 0};
    for (size_t s = 0; s < 4; s++) {
        uint64_t n = 0;
        for (size_t i = 0; i < 5 && MNV5_300M[s][i].type; i++) {
            const struct mnv5_block *k = &MNV5_300M[s][i];
            for (unsigned c = 0; c < k->count; c++) {
                n += mnv5_block_params(k, in);
                in = k->out;
            }
        }
        tensor(a, GS_BLOCKS_MAX, stage_names[s], GS_PART_VISION, 1, n);
        last[0] = last[1];
        last[1] = in;
    }
    const uint64_t fused = last[0] + last[1], mid = 2 * fused, width = 2048;
    tensor(a, GS_BLOCKS_MAX, "vision_tower.timm_model.msfa", GS_PART_VISION, 1,
           fused * mid + mid + mid * width + width + width);
}

/* Gemma3nMultimodalEmbedder: a vocab_size x m embedding for the modality's
 * hard tokens, hard and soft embedding norms over m, embedding_projection
 * m -> text hidden (the post-projection norm has no weight). */
static void gemma3n_embedder(struct gs_arch *a, const char *embedding, const char *norms,
                             const char *projection, enum gs_part part, uint64_t vocab,
                             uint64_t width)
{
    add(a, GS_BLOCKS_MAX, embedding, GS_MODULE_EMBEDDING, GS_SPLIT_NONE, part, 0, vocab, width, 1);
    add(a, GS_BLOCKS_MAX, norms, GS_MODULE_NORM, GS_SPLIT_NONE, part, 0, 1, width, 2);
    add(a, GS_BLOCKS_MAX, projection, GS_MODULE_LINEAR, GS_SPLIT_NONE, part, 0, width,
        a->hidden_size, 1);
}

/* The vision tower: only mobilenetv5_300m_enc exists for Gemma 3n; its
 * embedder reads vision_config's hidden_size (2048) and vocab_size (128). */
static void read_gemma3n_vision(struct model_reader *r, struct gs_arch *a)
{
    struct model_reader v;
    json_t *defaults = NULL;
    if (!rd_sub(r, "vision_config", &v)) {
        if (!r->ok)
            return;
        defaults = json_object(); /* Gemma3nConfig builds the default vision config */
        v = *r;
        v.config = defaults;
    }
    const char *architecture = rd_string(&v, "architecture");
    if (architecture != NULL && strcmp(architecture, "mobilenetv5_300m_enc") != 0) {
        rd_fail(&v, "architecture", GS_ERR_UNSUPPORTED,
                "\"%.60s\": gpusizer describes Gemma 3n's mobilenetv5_300m_enc vision tower only",
                architecture);
        r->ok = false;
    }
    const uint64_t width = rd_dim(&v, NAMES("hidden_size"), false, 2048);
    const uint64_t vocab = rd_dim(&v, NAMES("vocab_size"), false, 128);
    json_decref(defaults);
    if (!v.ok || !r->ok) {
        r->ok = false;
        return;
    }
    mobilenet_v5(a);
    gemma3n_embedder(a, "embed_vision.embedding", "embed_vision.hard_and_soft_embedding_norm",
                     "embed_vision.embedding_projection", GS_PART_VISION, vocab, width);
    /* the processor's image: 768 x 768 RGB into vision_soft_tokens_per_image (16 x 16) */
    a->mm_image.tokens = rd_dim(r, NAMES("vision_soft_tokens_per_image"), false, 256);
    a->mm_image.pixels = 3 * 768 * 768;
}

/* Gemma3nAudioConformerBlock: two feed-forwards (pre norm, ffw_layer_1
 * a -> 4a, ffw_layer_2, post norm), attention (pre norm, q/k/v a -> a,
 * relative_position_embedding.pos_proj a -> a, per_dim_scale over one head,
 * post a -> a, post norm), the light conv (pre norm, linear_start a -> 2a, a
 * depthwise conv of conf_conv_kernel_size, conv_norm, linear_end) and a
 * final norm. */
static size_t gemma3n_conformer(struct gs_arch *a, uint64_t ah, uint64_t heads, uint64_t kernel)
{
    const size_t b = gs_arch_new_block(a);
    struct gs_block *blk = gs_arch_block(a, b);
    if (blk == NULL)
        return b;
    blk->mixer = GS_MIXER_ATTENTION;
    blk->attn.heads = blk->attn.kv_heads = heads;
    blk->attn.head_dim = blk->attn.v_head_dim = heads ? ah / heads : 0;
    blk->attn.cached = false;
    blk->mlp.kind = GS_MLP_DENSE;
    blk->mlp.width = 4 * ah;
    static const char *const ffw[2][4] = {
        {"ffw_layer_start.ffw_layer_1", "ffw_layer_start.ffw_layer_2",
         "ffw_layer_start.pre_layer_norm", "ffw_layer_start.post_layer_norm"},
        {"ffw_layer_end.ffw_layer_1", "ffw_layer_end.ffw_layer_2", "ffw_layer_end.pre_layer_norm",
         "ffw_layer_end.post_layer_norm"}};
    for (size_t i = 0; i < 2; i++) {
        linear(a, b, ffw[i][0], GS_SPLIT_COLUMN, GS_PART_MLP, ah, 4 * ah);
        linear(a, b, ffw[i][1], GS_SPLIT_ROW, GS_PART_MLP, 4 * ah, ah);
        norm(a, b, ffw[i][2], GS_PART_NORMS, ah);
        norm(a, b, ffw[i][3], GS_PART_NORMS, ah);
    }
    norm(a, b, "attention.pre_attn_norm", GS_PART_NORMS, ah);
    linear(a, b, "attention.attn.q_proj", GS_SPLIT_COLUMN, GS_PART_ATTENTION, ah, ah);
    linear(a, b, "attention.attn.k_proj", GS_SPLIT_KV, GS_PART_ATTENTION, ah, ah);
    linear(a, b, "attention.attn.v_proj", GS_SPLIT_KV, GS_PART_ATTENTION, ah, ah);
    linear(a, b, "attention.attn.relative_position_embedding.pos_proj", GS_SPLIT_NONE,
           GS_PART_ATTENTION, ah, ah);
    tensor(a, b, "attention.attn.per_dim_scale", GS_PART_ATTENTION, 1, blk->attn.head_dim);
    linear(a, b, "attention.post", GS_SPLIT_ROW, GS_PART_ATTENTION, ah, ah);
    norm(a, b, "attention.post_norm", GS_PART_NORMS, ah);
    norm(a, b, "lconv1d.pre_layer_norm", GS_PART_NORMS, ah);
    linear(a, b, "lconv1d.linear_start", GS_SPLIT_COLUMN, GS_PART_ATTENTION, ah, 2 * ah);
    tensor(a, b, "lconv1d.depthwise_conv1d", GS_PART_ATTENTION, ah, kernel);
    norm(a, b, "lconv1d.conv_norm", GS_PART_NORMS, ah);
    linear(a, b, "lconv1d.linear_end", GS_SPLIT_ROW, GS_PART_ATTENTION, ah, ah);
    norm(a, b, "norm", GS_PART_NORMS, ah);
    return b;
}

/* Gemma3nAudioEncoder (a USM conformer): Gemma3nAudioSubSampleConvProjection
 * (two 3x3 stride-2 Conv2d without bias, each with a cumulative group norm
 * weight over its channels; the frequency axis, padded by one on each side,
 * halves twice; input_proj_linear (c1 x frequencies) -> a), the conformer
 * blocks, and the audio embedder. */
static void read_gemma3n_audio(struct model_reader *r, struct gs_arch *a)
{
    struct model_reader v;
    json_t *defaults = NULL;
    if (!rd_sub(r, "audio_config", &v)) {
        if (!r->ok)
            return;
        defaults = json_object(); /* Gemma3nConfig builds the default audio config */
        v = *r;
        v.config = defaults;
    }
    const uint64_t ah = rd_dim(&v, NAMES("hidden_size"), false, 1536);
    const uint64_t layers = rd_dim(&v, NAMES("conf_num_hidden_layers"), false, 12);
    const uint64_t heads = rd_dim(&v, NAMES("conf_num_attention_heads"), false, 8);
    const uint64_t kernel = rd_dim(&v, NAMES("conf_conv_kernel_size"), false, 5);
    const uint64_t features = rd_dim(&v, NAMES("input_feat_size"), false, 128);
    const uint64_t vocab = rd_dim(&v, NAMES("vocab_size"), false, 128);
    const json_t *list = NULL;
    uint64_t c[2] = {128, 32};
    const size_t n = rd_array(&v, "sscp_conv_channel_size", &list);
    for (size_t i = 0; i < 2 && list != NULL && v.ok; i++) {
        const json_t *ch = json_array_get(list, i);
        if (n != 2 || !json_is_integer(ch) || json_integer_value(ch) <= 0 ||
            (uint64_t)json_integer_value(ch) > GS_ARCH_DIM_MAX)
            rd_fail(&v, "sscp_conv_channel_size", GS_ERR_INVALID,
                    "must be two positive channel counts");
        else
            c[i] = (uint64_t)json_integer_value(ch);
    }
    if (v.ok && (heads == 0 || ah % heads != 0))
        rd_fail(&v, "conf_num_attention_heads", GS_ERR_INVALID, "must divide hidden_size %llu",
                (unsigned long long)ah);
    if (v.ok && features == 0)
        rd_fail(&v, "input_feat_size", GS_ERR_INVALID, "must be a positive number of mel bins");
    json_decref(defaults);
    if (!v.ok) {
        r->ok = false;
        return;
    }
    const size_t b = gemma3n_conformer(a, ah, heads, kernel);
    if (b >= GS_BLOCKS_MAX)
        return;
    gs_arch_tower(a, "audio_tower", b, GS_PART_AUDIO, layers, false);
    uint64_t f = features;
    for (int i = 0; i < 2; i++)
        f = (f + 2 - 3) / 2 + 1;
    tensor(a, GS_BLOCKS_MAX, "audio_tower.subsample_conv_projection.conv_0.conv", GS_PART_AUDIO,
           c[0], 9);
    norm(a, GS_BLOCKS_MAX, "audio_tower.subsample_conv_projection.conv_0.norm", GS_PART_AUDIO,
         c[0]);
    tensor(a, GS_BLOCKS_MAX, "audio_tower.subsample_conv_projection.conv_1.conv", GS_PART_AUDIO,
           c[0] * c[1], 9);
    norm(a, GS_BLOCKS_MAX, "audio_tower.subsample_conv_projection.conv_1.norm", GS_PART_AUDIO,
         c[1]);
    add(a, GS_BLOCKS_MAX, "audio_tower.subsample_conv_projection.input_proj_linear",
        GS_MODULE_LINEAR, GS_SPLIT_NONE, GS_PART_AUDIO, 0, c[1] * f, ah, 1);
    gemma3n_embedder(a, "embed_audio.embedding", "embed_audio.hard_and_soft_embedding_norm",
                     "embed_audio.embedding_projection", GS_PART_AUDIO, vocab, ah);
}

/* Gemma3nForConditionalGeneration: the MobileNet-V5 vision tower and the USM
 * audio tower; Gemma3nConfig builds default vision and audio configs when the
 * file has none. */
static void read_gemma3n(struct model_reader *r, struct gs_arch *a)
{
    read_conditional_generation(r, a, read_gemma3n_language, read_gemma3n_vision,
                                read_gemma3n_audio);
    per_layer_input_buffer(a, GS_VLLM_GEMMA3N_MM_BUFFERS);
}

/* ------------------------------------------------------------ DiffusionGemma */

/* DiffusionGemmaSelfConditioning (modeling_diffusion_gemma.py, the decoder's
 * self_conditioning): pre_norm over h, gate_proj and up_proj h -> intermediate_size, down_proj
 * back (GELU-tanh gated), post_norm without a weight - it mixes the previous denoising step's
 * predictions into the canvas's embeddings. */
static void diffusion_self_conditioning(struct model_reader *r, struct gs_arch *a)
{
    const uint64_t h = a->hidden_size;
    const uint64_t inner = rd_dim(r, NAMES("intermediate_size"), false, 9216);
    if (!r->ok)
        return;
    add(a, GS_BLOCKS_MAX, "self_conditioning.pre_norm", GS_MODULE_NORM, GS_SPLIT_NONE,
        GS_PART_OTHER, 0, 1, h, 1);
    add(a, GS_BLOCKS_MAX, "self_conditioning.gate_proj_up_proj", GS_MODULE_LINEAR, GS_SPLIT_NONE,
        GS_PART_OTHER, GS_MOD_QUANT, h, inner, 2);
    add(a, GS_BLOCKS_MAX, "self_conditioning.down_proj", GS_MODULE_LINEAR, GS_SPLIT_NONE,
        GS_PART_OTHER, GS_MOD_QUANT, inner, h, 1);
}

/* The text model of DiffusionGemma: Gemma 4's layers once - transformers builds an encoder
 * (the prompt, causal, writing the cache) and a decoder (the canvas, bidirectional over the
 * cache and itself) and ties every text weight of the one to the other (_tied_weights_keys;
 * the encoder's 30 layer_scalar buffers, like the decoder's, are checkpoint tensors but not
 * parameters) - with every layer routed and the full layers' values their keys, the head tied
 * to the embedding, and the decoder's self-conditioning MLP. vLLM allocates an input-embedding
 * row a scheduled token with the model (DiffusionGemmaModelState._inputs_embeds_buf: the
 * canvas's embeddings are built there). */
static void read_diffusion_text(struct model_reader *r, struct gs_arch *a, bool tie)
{
    read_text_config(r, a, tie, false, true);
    if (r->ok)
        diffusion_self_conditioning(r, a);
    a->token_buffer_width = a->hidden_size;
}

/* DiffusionGemma's encoder has no audio tower. */
static void no_audio(struct model_reader *r, struct gs_arch *a)
{
    (void)r;
    (void)a;
}

/* canvas_length (required by vLLM's DiffusionConfig; DiffusionGemmaConfig's 256) and the training
 * refusal: transformers' forward computes no loss (one encoder pass and one decoder pass over a
 * random canvas, fp32 logits over the canvas alone) and the trainers' recipes run two or three
 * passes gpusizer does not describe. */
static void diffusion_common(struct model_reader *r, struct gs_arch *a)
{
    a->diffusion_canvas = rd_size(r, NAMES("canvas_length"), 256);
    a->training_refusal =
        "DiffusionGemma (DiffusionGemmaForBlockDiffusion) trains by denoising a canvas: "
        "transformers' forward computes no loss, and the recipes that train it run a causal "
        "pass over the prompt and response and one or two bidirectional passes over the "
        "corrupted canvas, which gpusizer does not describe; size its serving";
}

/* DiffusionGemmaForBlockDiffusion (model_type diffusion_gemma, transformers models/diffusion_gemma;
 * google/diffusiongemma-26B-A4B-it): Gemma 4 26B-A4B's text model once, its vision tower and
 * projector under the encoder, no audio tower. */
static void read_diffusion_gemma(struct model_reader *r, struct gs_arch *a)
{
    read_conditional_generation(r, a, read_diffusion_text, read_vision, no_audio);
    if (r->ok)
        diffusion_common(r, a);
}

/* The text config alone (diffusion_gemma_text). */
static void read_diffusion_gemma_text(struct model_reader *r, struct gs_arch *a)
{
    read_diffusion_text(r, a, rd_flag(r, "tie_word_embeddings", true));
    if (r->ok)
        diffusion_common(r, a);
}

const struct model_type MODELS_GEMMA[] = {
    {"gemma4", "Gemma4ForConditionalGeneration", read_gemma4},
    {"gemma4_text", "Gemma4ForCausalLM", read_gemma4_text},
    {"gemma4_unified", "Gemma4UnifiedForConditionalGeneration", read_gemma4_unified},
    {"gemma4_unified_text", "Gemma4UnifiedForCausalLM", read_gemma4_unified_text},
    {"gemma4_assistant", "Gemma4AssistantForCausalLM", read_gemma4_assistant},
    {"gemma4_unified_assistant", "Gemma4UnifiedAssistantForCausalLM",
     read_gemma4_unified_assistant},
    {"diffusion_gemma", "DiffusionGemmaForBlockDiffusion", read_diffusion_gemma},
    {"diffusion_gemma_text", "DiffusionGemmaForBlockDiffusion", read_diffusion_gemma_text},
    {"gemma3n", "Gemma3nForConditionalGeneration", read_gemma3n},
    {"gemma3n_text", "Gemma3nForCausalLM", read_gemma3n_text},
    {NULL, NULL, NULL},
};
