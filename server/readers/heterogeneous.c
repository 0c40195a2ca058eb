/*
 * heterogeneous.c - decoders whose layers differ in shape: Nemotron-NAS (DeciLM), Laguna and
 * StepFun's Step 3.5 (see reader.h).
 *
 * Neural-architecture-searched stacks give every layer its own attention
 * (full, a single linear map, or none) and its own FFN width. The readers
 * here describe one block per distinct layer shape, so a stack of 80 layers
 * with 8 shapes is 8 blocks, and only the layers that attend keep a KV cache.
 */
#include "readers/decoder.h"
#include "readers/reader.h"

#include <stdio.h>
#include <string.h>

/* A reader over entry `index` of the array member `name`, erroring under
 * "<pointer>/<name>/<index>"; false (with an error) when it is not an object. */
static bool entry_reader(struct model_reader *r, const char *name, const json_t *array,
                         size_t index, struct model_reader *entry)
{
    const json_t *v = json_array_get(array, index);
    if (!json_is_object(v)) {
        rd_fail(r, name, GS_ERR_INVALID, "entry %zu must be an object", index);
        return false;
    }
    entry->config = v;
    entry->err = r->err;
    entry->ok = true;
    const int n =
        snprintf(entry->pointer, sizeof(entry->pointer), "%s/%s/%zu", r->pointer, name, index);
    if (n < 0 || (size_t)n >= sizeof(entry->pointer)) {
        rd_fail(r, name, GS_ERR_INVALID, "entry %zu sits too deep to name", index);
        return false;
    }
    return true;
}

/* ------------------------------------------------------------ nemotron-nas */

/* What a DeciLM layer's attention is (block_configs[i].attention). */
enum nas_attention { NAS_ATTN_NONE, NAS_ATTN_LINEAR, NAS_ATTN_FULL };
/* What its FFN is (block_configs[i].ffn). */
enum nas_ffn { NAS_FFN_NONE, NAS_FFN_LINEAR, NAS_FFN_GATED };

struct nas_layer {
    uint8_t attention; /* enum nas_attention */
    uint64_t kv_heads; /* NAS_ATTN_FULL: num_attention_heads / n_heads_in_group */
    uint8_t ffn;       /* enum nas_ffn */
    uint64_t width;    /* NAS_FFN_GATED: the intermediate size */
};

/* DeciLM's FFN width from ffn_mult: int(2 * ffn_mult * hidden / 3) rounded
 * up to a multiple of 256 (_ffn_mult_to_intermediate_size and _find_multiple
 * in the checkpoints' modeling_decilm.py and vLLM's nemotron_nas.py),
 * evaluated in the same order as the Python so the float rounds alike. */
static uint64_t nas_ffn_width(double ffn_mult, uint64_t hidden)
{
    const uint64_t width = (uint64_t)(2.0 * ffn_mult * (double)hidden / 3.0);
    return width % 256 == 0 ? width : width + 256 - width % 256;
}

/* block_configs[i].attention: no_op, replace_with_linear, or GQA with
 * num_attention_heads / n_heads_in_group KV heads. */
static void nas_read_attention(struct model_reader *layer, uint64_t heads, struct nas_layer *out)
{
    struct model_reader attn;
    if (!rd_sub(layer, "attention", &attn)) {
        if (layer->ok)
            rd_fail(layer, "attention", GS_ERR_INVALID, "is required in every block config");
        return;
    }
    if (rd_flag(&attn, "no_op", false)) {
        out->attention = NAS_ATTN_NONE;
    } else if (rd_flag(&attn, "replace_with_linear", false)) {
        out->attention = NAS_ATTN_LINEAR;
    } else {
        const uint64_t group = rd_dim(&attn, NAMES("n_heads_in_group"), true, 1);
        out->attention = NAS_ATTN_FULL;
        if (attn.ok && heads % group != 0)
            rd_fail(&attn, "n_heads_in_group", GS_ERR_INVALID,
                    "%llu does not divide num_attention_heads %llu", (unsigned long long)group,
                    (unsigned long long)heads);
        out->kv_heads = group ? heads / group : 0;
    }
    if (!attn.ok)
        layer->ok = false;
}

/* block_configs[i].ffn: no_op, replace_with_linear, or a SwiGLU MLP whose
 * width is ffn_mult's (or an explicit intermediate_size, which vLLM also
 * accepts). */
static void nas_read_ffn(struct model_reader *layer, uint64_t hidden, struct nas_layer *out)
{
    struct model_reader ffn;
    if (!rd_sub(layer, "ffn", &ffn)) {
        if (layer->ok)
            rd_fail(layer, "ffn", GS_ERR_INVALID, "is required in every block config");
        return;
    }
    if (rd_flag(&ffn, "no_op", false)) {
        out->ffn = NAS_FFN_NONE;
    } else if (rd_flag(&ffn, "replace_with_linear", false)) {
        out->ffn = NAS_FFN_LINEAR;
    } else {
        out->ffn = NAS_FFN_GATED;
        const double mult = rd_number(&ffn, "ffn_mult", -1.0);
        if (rd_get(&ffn, "ffn_mult") == NULL)
            out->width = rd_dim(&ffn, NAMES("intermediate_size"), true, 0);
        else if (!(mult > 0.0 && mult <= 64.0))
            rd_fail(&ffn, "ffn_mult", GS_ERR_INVALID, "must be a positive multiple of at most 64");
        else
            out->width = nas_ffn_width(mult, hidden);
    }
    if (!ffn.ok)
        layer->ok = false;
}

static bool nas_same(const struct nas_layer *x, const struct nas_layer *y)
{
    return x->attention == y->attention && x->kv_heads == y->kv_heads && x->ffn == y->ffn &&
           x->width == y->width;
}

/* The block of one layer shape: input_layernorm and the attention (or its
 * linear stand-in self_attn.linear_attn, h -> h, no bias) unless no_op;
 * post_attention_layernorm and the MLP (or mlp.linear_mlp) unless no_op. */
static size_t nas_block(struct gs_arch *a, const struct nas_layer *s, uint64_t heads,
                        uint64_t head_dim, bool attn_bias, bool mlp_bias)
{
    const size_t b = gs_arch_new_block(a);
    const uint64_t h = a->hidden_size;
    if (s->attention != NAS_ATTN_NONE)
        gs_build_norms(a, b, "input_layernorm", 1, false);
    if (s->attention == NAS_ATTN_FULL) {
        struct gs_attention spec;
        memset(&spec, 0, sizeof(spec));
        spec.heads = heads;
        spec.kv_heads = s->kv_heads;
        spec.head_dim = head_dim;
        spec.cached = true;
        gs_build_attention(a, b, &spec, &GS_ATTENTION_NAMES, attn_bias, attn_bias);
    } else if (s->attention == NAS_ATTN_LINEAR) {
        /* vLLM builds no such layer; transformers' remote code keeps it whole on every rank */
        gs_block_module(a, b, "self_attn.linear_attn", GS_MODULE_LINEAR, GS_SPLIT_NONE,
                        GS_PART_ATTENTION, GS_MOD_QUANT, h, h, 1);
    }
    if (s->ffn != NAS_FFN_NONE)
        gs_build_norms(a, b, "post_attention_layernorm", 1, false);
    if (s->ffn == NAS_FFN_GATED)
        gs_build_mlp(a, b, s->width, true, mlp_bias, &GS_MLP_NAMES);
    else if (s->ffn == NAS_FFN_LINEAR)
        gs_block_module(a, b, "mlp.linear_mlp", GS_MODULE_LINEAR, GS_SPLIT_NONE, GS_PART_MLP,
                        GS_MOD_QUANT, h, h, 1);
    return b;
}

/* DeciLMForCausalLM (the checkpoints' remote modeling_decilm.py, loaded with
 * trust_remote_code; vLLM's nemotron_nas.py DeciLMDecoderLayer): a Llama
 * whose layer i follows block_configs[i]. Attention is GQA with
 * num_attention_heads / n_heads_in_group KV heads, a single h x h
 * linear_attn (replace_with_linear), or absent (no_op, and then no
 * input_layernorm and no KV cache); the FFN is a SwiGLU MLP of the ffn_mult
 * width, a single linear_mlp, or absent (and then no
 * post_attention_layernorm). The top-level intermediate_size and
 * num_key_value_heads are null: the widths live in the block configs. A
 * block's window_length is not applied by vLLM, so every attention layer
 * caches the full context. Embedding, final norm and an untied lm_head as
 * Llama's. Identical layers share one block (at most GS_BLOCKS_MAX shapes). */
static void read_nemotron_nas(struct model_reader *r, struct gs_arch *a)
{
    const uint64_t h = rd_dim(r, NAMES("hidden_size"), true, 0);
    const uint64_t V = rd_dim(r, NAMES("vocab_size"), true, 0);
    gs_arch_init(a, NULL, h, V);
    const uint64_t L = rd_dim(r, NAMES("num_hidden_layers"), true, 0);
    const uint64_t heads = rd_dim(r, NAMES("num_attention_heads"), true, 0);
    const uint64_t head_dim = rd_dim(r, NAMES("head_dim"), false, heads ? h / heads : 0);
    const bool attn_bias = rd_flag(r, "attention_bias", false);
    const bool mlp_bias = rd_flag(r, "mlp_bias", false);
    a->max_position_embeddings = rd_dim(r, NAMES("max_position_embeddings"), false, 0);
    a->tie_word_embeddings = rd_flag(r, "tie_word_embeddings", false);
    a->attention_dropout = rd_dropout(r, NAMES("attention_dropout"));
    const json_t *list = NULL;
    const size_t n = rd_array(r, "block_configs", &list);
    if (!r->ok)
        return;
    if (list == NULL) {
        rd_fail(r, "block_configs", GS_ERR_INVALID, "is required for this model_type");
        return;
    }
    if (n != L) {
        rd_fail(r, "block_configs", GS_ERR_INVALID, "has %zu entries for %llu layers", n,
                (unsigned long long)L);
        return;
    }
    if (L > GS_LAYERS_MAX) {
        rd_fail(r, "num_hidden_layers", GS_ERR_UNSUPPORTED,
                "%llu layers: gpusizer describes at most %d", (unsigned long long)L, GS_LAYERS_MAX);
        return;
    }
    struct nas_layer shapes[GS_BLOCKS_MAX];
    size_t shape_block[GS_BLOCKS_MAX];
    size_t shape_count = 0;
    gs_arch_set_layers(a, L, 0);
    for (size_t l = 0; l < L && r->ok; l++) {
        struct model_reader layer;
        if (!entry_reader(r, "block_configs", list, l, &layer))
            return;
        struct nas_layer s;
        memset(&s, 0, sizeof(s));
        nas_read_attention(&layer, heads, &s);
        nas_read_ffn(&layer, h, &s);
        if (!layer.ok) {
            r->ok = false;
            return;
        }
        size_t k = 0;
        while (k < shape_count && !nas_same(&shapes[k], &s))
            k++;
        if (k == shape_count) {
            if (shape_count == GS_BLOCKS_MAX) {
                rd_fail(r, "block_configs", GS_ERR_UNSUPPORTED,
                        "layer %zu is a layer shape beyond the %d gpusizer describes", l,
                        GS_BLOCKS_MAX);
                return;
            }
            shapes[k] = s;
            shape_block[k] = nas_block(a, &s, heads, head_dim, attn_bias, mlp_bias);
            shape_count++;
        }
        gs_arch_set_layer(a, l, shape_block[k]);
    }
    gs_arch_embeddings(a, h, "lm_head", false);
    gs_build_norms(a, GS_BLOCKS_MAX, "norm", 1, false);
}

/* ------------------------------------------------------------ laguna */

/* One Laguna layer's shape: its query heads, whether it attends through the
 * sliding window, whether its MLP routes to experts. */
struct laguna_layer {
    uint64_t heads;
    bool sliding;
    bool routed;
};

struct laguna_dims {
    uint64_t kv_heads, head_dim, window, intermediate;
    bool bias;          /* attention_bias on q, k, v and o */
    bool gate_per_head; /* g_proj gives one gate a head (else one a channel) */
    bool gate_sigmoid;  /* the gate is sigmoid(g_proj(x)) (Step 3.7), not Laguna's softplus over
                           an fp32 copy */
    struct gs_moe experts;
};

/* A per-layer string list `name` (layer_types, mlp_layer_types): for each
 * layer, whether its entry is `match`; an error when an entry is neither
 * `match` nor `other`. False when the list is absent. The list has `layers`
 * entries, or `padded` (>= layers) where a checkpoint lists its MTP layers
 * after the decoder's: those trailing entries are checked and returned too. */
static bool laguna_flags(struct model_reader *r, const char *name, const char *match,
                         const char *other, uint64_t layers, uint64_t padded,
                         bool out[GS_LAYERS_MAX])
{
    const json_t *list = NULL;
    const size_t n = rd_array(r, name, &list);
    if (list == NULL)
        return false;
    if (n != layers && n != padded) {
        rd_fail(r, name, GS_ERR_INVALID, "has %zu entries for %llu layers", n,
                (unsigned long long)layers);
        return false;
    }
    for (size_t l = 0; l < n; l++) {
        const char *kind = json_string_value(json_array_get(list, l));
        if (kind == NULL || (strcmp(kind, match) != 0 && strcmp(kind, other) != 0)) {
            rd_fail(r, name, GS_ERR_INVALID, "entry %zu must be \"%s\" or \"%s\"", l, match, other);
            return false;
        }
        if (l < padded && l < GS_LAYERS_MAX)
            out[l] = strcmp(kind, match) == 0;
    }
    return true;
}

/* num_attention_heads_per_layer, each a multiple of the KV heads; every
 * layer num_attention_heads when absent. */
static void laguna_heads(struct model_reader *r, uint64_t layers, uint64_t heads, uint64_t kv_heads,
                         uint64_t out[GS_LAYERS_MAX])
{
    const json_t *list = NULL;
    const size_t n = rd_array(r, "num_attention_heads_per_layer", &list);
    for (uint64_t l = 0; l < layers && l < GS_LAYERS_MAX; l++)
        out[l] = heads;
    if (list == NULL)
        return;
    if (n != layers) {
        rd_fail(r, "num_attention_heads_per_layer", GS_ERR_INVALID,
                "has %zu entries for %llu layers", n, (unsigned long long)layers);
        return;
    }
    for (size_t l = 0; l < n && l < GS_LAYERS_MAX; l++) {
        const json_t *v = json_array_get(list, l);
        const json_int_t count = json_is_integer(v) ? json_integer_value(v) : 0;
        if (count <= 0 || (uint64_t)count > GS_ARCH_DIM_MAX || kv_heads == 0 ||
            (uint64_t)count % kv_heads != 0) {
            rd_fail(r, "num_attention_heads_per_layer", GS_ERR_INVALID,
                    "entry %zu must be a positive multiple of num_key_value_heads", l);
            return;
        }
        out[l] = (uint64_t)count;
    }
}

/* The block of one Laguna layer shape: LagunaAttention (q/k/v/o, q_norm and
 * k_norm over head_dim, the softplus output gate g_proj), then the dense
 * LagunaMLP or LagunaSparseMoeBlock, and the two RMSNorms. */
static size_t laguna_block(struct gs_arch *a, const struct laguna_layer *s,
                           const struct laguna_dims *d)
{
    const size_t b = gs_arch_new_block(a);
    struct gs_attention spec;
    memset(&spec, 0, sizeof(spec));
    spec.heads = s->heads;
    spec.kv_heads = d->kv_heads;
    spec.head_dim = d->head_dim;
    spec.cached = true;
    if (s->sliding) {
        spec.span = GS_SPAN_SLIDING;
        spec.window = d->window;
    }
    spec.output_gate = d->gate_sigmoid ? GS_GATE_SIGMOID : GS_GATE_SOFTPLUS_FP32;
    spec.output_gate_per_head = d->gate_per_head;
    gs_build_attention(a, b, &spec, &GS_ATTENTION_NAMES, d->bias, d->bias);
    gs_block_module(a, b, "q_norm", GS_MODULE_NORM, GS_SPLIT_NONE, GS_PART_ATTENTION, 0, 1,
                    d->head_dim, 1);
    gs_block_module(a, b, "k_norm", GS_MODULE_NORM, GS_SPLIT_NONE, GS_PART_ATTENTION, 0, 1,
                    d->head_dim, 1);
    gs_block_module(a, b, "g_proj", GS_MODULE_LINEAR, GS_SPLIT_COLUMN, GS_PART_ATTENTION,
                    GS_MOD_QUANT, a->hidden_size,
                    d->gate_per_head ? s->heads : s->heads * d->head_dim, 1);
    if (s->routed)
        gs_build_moe(a, b, &d->experts);
    else
        gs_build_mlp(a, b, d->intermediate, true, false, &GS_MLP_NAMES);
    gs_build_norms(a, b, "layernorm", 2, false);
    return b;
}

/* The layer map of a stack whose L layers differ in query heads, span and
 * MLP: one laguna_block per distinct shape. False (an error at `field`, the
 * member that made the shapes differ) past GS_BLOCKS_MAX shapes. */
static bool laguna_stack(struct model_reader *r, struct gs_arch *a, uint64_t L,
                         const uint64_t *heads, const bool *sliding, const bool *routed,
                         const struct laguna_dims *d, const char *field)
{
    if (!r->ok)
        return false;
    struct laguna_layer shapes[GS_BLOCKS_MAX];
    size_t shape_block[GS_BLOCKS_MAX];
    size_t shape_count = 0;
    gs_arch_set_layers(a, L, 0);
    for (uint64_t l = 0; l < L && l < GS_LAYERS_MAX; l++) {
        const struct laguna_layer s = {heads[l], sliding[l], routed[l]};
        size_t k = 0;
        while (k < shape_count && (shapes[k].heads != s.heads || shapes[k].sliding != s.sliding ||
                                   shapes[k].routed != s.routed))
            k++;
        if (k == shape_count) {
            if (shape_count == GS_BLOCKS_MAX) {
                rd_fail(r, field, GS_ERR_UNSUPPORTED,
                        "layer %llu is a layer shape beyond the %d gpusizer describes",
                        (unsigned long long)l, GS_BLOCKS_MAX);
                return false;
            }
            shapes[k] = s;
            shape_block[k] = laguna_block(a, &s, d);
            shape_count++;
        }
        gs_arch_set_layer(a, l, shape_block[k]);
    }
    return true;
}

/* The output gate: `gating` true or "per-head" gives one gate a head,
 * anything else (false included: transformers still builds g_proj) one a
 * channel (LagunaAttention.gate_per_head). */
static bool laguna_gate_per_head(const struct model_reader *r)
{
    const json_t *g = rd_get(r, "gating");
    if (g == NULL)
        return true;
    if (json_is_boolean(g))
        return json_is_true(g);
    return json_is_string(g) && strcmp(json_string_value(g), "per-head") == 0;
}

/* vLLM laguna.py gives the sliding layers their own rope (rope_parameters'
 * sliding_attention entry: the default scaling, partial_rotary_factor 1.0 unless it
 * says otherwise), a second rotary table over max_position_embeddings beside the full
 * layers' one that models_read adds as table 0. */
static void laguna_sliding_rope(struct model_reader *r, struct gs_arch *a,
                                const struct laguna_dims *d, const bool *sliding, uint64_t layers)
{
    bool any = false;
    for (uint64_t l = 0; l < layers; l++)
        any = any || sliding[l];
    if (!r->ok || !any)
        return;
    double partial = 1.0;
    const json_t *ropes = rd_get(r, "rope_parameters");
    const json_t *local =
        json_is_object(ropes) ? json_object_get(ropes, "sliding_attention") : NULL;
    const json_t *f =
        json_is_object(local) ? json_object_get(local, "partial_rotary_factor") : NULL;
    if (json_is_number(f) && json_number_value(f) > 0.0 && json_number_value(f) <= 1.0)
        partial = json_number_value(f);
    a->rope_tables[1] = (struct gs_rope_table){a->max_position_embeddings,
                                               (uint64_t)((double)d->head_dim * partial)};
    a->rope_table_count = 2;
}

/* LagunaForCausalLM (Poolside's Laguna; transformers modeling_laguna.py and
 * configuration_laguna.py, vLLM laguna.py): a Qwen3-style MoE whose layers
 * differ in query heads (num_attention_heads_per_layer, KV heads shared) and
 * in span (layer_types: sliding_attention layers keep sliding_window
 * tokens). Attention has q_norm/k_norm over head_dim and a softplus output
 * gate g_proj (h -> heads, or heads x head_dim per element). mlp_layer_types
 * marks "dense" layers (a SwiGLU MLP of intermediate_size) and "sparse" ones
 * (LagunaSparseMoeBlock: num_experts experts of moe_intermediate_size, the
 * router `gate` [E, h] with its e_score_correction_bias, which transformers
 * registers as an nn.Parameter and so counts, and shared_experts, a SwiGLU
 * MLP of shared_expert_intermediate_size); without the list the first layer
 * is dense and the rest sparse, as LagunaConfig fills it. The defaults are
 * LagunaConfig's (Laguna-XS.2). vLLM's optional attention sinks
 * (swa_attention_sink_enabled) are not built by transformers. */
static void read_laguna(struct model_reader *r, struct gs_arch *a)
{
    const uint64_t h = rd_dim(r, NAMES("hidden_size"), false, 2048);
    gs_arch_init(a, NULL, h, rd_dim(r, NAMES("vocab_size"), false, 100352));
    const uint64_t L = rd_dim(r, NAMES("num_hidden_layers"), false, 40);
    const uint64_t heads = rd_dim(r, NAMES("num_attention_heads"), false, 48);
    struct laguna_dims d;
    memset(&d, 0, sizeof(d));
    d.kv_heads = rd_dim(r, NAMES("num_key_value_heads"), false, 8);
    d.head_dim = rd_dim(r, NAMES("head_dim"), false, 128);
    d.window = rd_dim(r, NAMES("sliding_window"), false, 512);
    d.intermediate = rd_dim(r, NAMES("intermediate_size"), false, 8192);
    d.bias = rd_flag(r, "attention_bias", false);
    d.gate_per_head = laguna_gate_per_head(r);
    d.experts.experts = rd_dim(r, NAMES("num_experts"), false, 256);
    d.experts.top_k = rd_dim(r, NAMES("num_experts_per_tok"), false, 8);
    d.experts.width = rd_dim(r, NAMES("moe_intermediate_size"), false, 512);
    d.experts.shared_width = rd_dim(r, NAMES("shared_expert_intermediate_size"), false, 512);
    d.experts.router_extra = d.experts.experts;
    d.experts.gated = true;
    /* LagunaTopKRouter holds self.weight as a bare parameter (modeling_laguna.py: F.linear(
     * hidden_states, self.weight).float(), the product at the model's dtype): no LoRA target
     * adapts it */
    d.experts.router_parameter = true;
    a->max_position_embeddings = rd_dim(r, NAMES("max_position_embeddings"), false, 131072);
    a->tie_word_embeddings = rd_flag(r, "tie_word_embeddings", false);
    a->attention_dropout = rd_dropout(r, NAMES("attention_dropout"));
    if (L > GS_LAYERS_MAX) {
        rd_fail(r, "num_hidden_layers", GS_ERR_UNSUPPORTED,
                "%llu layers: gpusizer describes at most %d", (unsigned long long)L, GS_LAYERS_MAX);
        return;
    }
    uint64_t layer_heads[GS_LAYERS_MAX];
    bool sliding[GS_LAYERS_MAX] = {false};
    bool routed[GS_LAYERS_MAX];
    laguna_heads(r, L, heads, d.kv_heads, layer_heads);
    (void)laguna_flags(r, "layer_types", "sliding_attention", "full_attention", L, L, sliding);
    if (!laguna_flags(r, "mlp_layer_types", "sparse", "dense", L, L, routed))
        for (uint64_t l = 0; l < L; l++)
            routed[l] = l > 0;
    if (!laguna_stack(r, a, L, layer_heads, sliding, routed, &d, "num_attention_heads_per_layer"))
        return;
    gs_arch_embeddings(a, h, "lm_head", false);
    gs_build_norms(a, GS_BLOCKS_MAX, "norm", 1, false);
    laguna_sliding_rope(r, a, &d, sliding, L);
}

/* ------------------------------------------------------------ Step 3.5 */

/* moe_layers_enum, the released configs' routed layers: indices separated by
 * commas ("3,4,5") or a list of integers (Step3p7TextConfig.__post_init__:
 * `moe_layers_enum.split(",")`, `int(i)`). Indices past the decoder name the
 * checkpoint's MTP layers, not this stack's. False when absent. */
static bool step_moe_layers(struct model_reader *r, uint64_t layers, bool out[GS_LAYERS_MAX])
{
    const json_t *v = rd_get(r, "moe_layers_enum");
    if (v == NULL)
        return false;
    for (uint64_t l = 0; l < layers && l < GS_LAYERS_MAX; l++)
        out[l] = false;
    if (json_is_array(v)) {
        for (size_t i = 0; i < json_array_size(v); i++) {
            const json_t *e = json_array_get(v, i);
            if (!json_is_integer(e) || json_integer_value(e) < 0) {
                rd_fail(r, "moe_layers_enum", GS_ERR_INVALID, "entry %zu is not a layer index", i);
                return false;
            }
            if ((uint64_t)json_integer_value(e) < layers && json_integer_value(e) < GS_LAYERS_MAX)
                out[json_integer_value(e)] = true;
        }
        return true;
    }
    const char *p = json_string_value(v);
    if (p == NULL) {
        rd_fail(r, "moe_layers_enum", GS_ERR_INVALID,
                "must be a string of comma-separated layer indices or a list of them");
        return false;
    }
    size_t entry = 0;
    while (*p != '\0') {
        while (*p == ' ')
            p++;
        uint64_t index = 0;
        bool digits = false;
        while (*p >= '0' && *p <= '9' && index < GS_LAYERS_MAX * 16) {
            index = index * 10 + (uint64_t)(*p - '0');
            digits = true;
            p++;
        }
        while (*p == ' ')
            p++;
        if (*p != ',' && *p != '\0') {
            rd_fail(r, "moe_layers_enum", GS_ERR_INVALID, "entry %zu is not a layer index", entry);
            return false;
        }
        if (digits && index < layers && index < GS_LAYERS_MAX)
            out[index] = true;
        if (*p == ',')
            p++;
        entry++;
    }
    return true;
}

/* The sliding layers' query heads: num_sliding_attention_heads, else the released configs'
 * attention_other_setting.num_attention_heads (Step3p7TextConfig.__post_init__), else every
 * layer's. transformers' per_layer_config changes only the heads; vLLM's Step3p5DecoderLayer
 * also takes that block's num_attention_groups and head_dim, so a setting whose KV heads or
 * head size differ from the full layers' is a model the two build differently: refused. */
static uint64_t step_sliding_heads(struct model_reader *r, uint64_t heads, uint64_t kv_heads,
                                   uint64_t head_dim)
{
    uint64_t n = rd_dim(r, NAMES("num_sliding_attention_heads"), false, 0);
    struct model_reader other;
    if (rd_sub(r, "attention_other_setting", &other) && r->ok) {
        const char *type = rd_string(&other, "attention_type");
        if (type != NULL && strcmp(type, "sliding_attention") != 0)
            rd_fail(&other, "attention_type", GS_ERR_UNSUPPORTED,
                    "\"%s\": transformers applies the setting to the sliding_attention layers",
                    type);
        if (n == 0)
            n = rd_dim(&other, NAMES("num_attention_heads"), false, 0);
        if (rd_dim(&other, NAMES("num_attention_groups"), false, kv_heads) != kv_heads)
            rd_fail(&other, "num_attention_groups", GS_ERR_UNSUPPORTED,
                    "differs from the full layers' %llu: transformers builds the sliding layers "
                    "with those, vLLM with these",
                    (unsigned long long)kv_heads);
        if (rd_dim(&other, NAMES("head_dim"), false, head_dim) != head_dim)
            rd_fail(&other, "head_dim", GS_ERR_UNSUPPORTED,
                    "differs from the full layers' %llu: transformers builds the sliding layers "
                    "with that, vLLM with this",
                    (unsigned long long)head_dim);
        if (!other.ok)
            r->ok = false;
    }
    if (n == 0)
        n = heads;
    if (r->ok && (kv_heads == 0 || n % kv_heads != 0 || heads % kv_heads != 0))
        rd_fail(r, "num_attention_heads", GS_ERR_INVALID,
                "the full and sliding layers' query heads (%llu, %llu) must be multiples of the "
                "%llu KV heads",
                (unsigned long long)heads, (unsigned long long)n, (unsigned long long)kv_heads);
    return n;
}

/* vLLM's Step3p5Attention builds each layer's rope from its own entry of partial_rotary_factors
 * (0.5 on the released full layers, 1.0 on the sliding ones) and rope_theta, with the scaling
 * only for yarn_only_types: the sliding layers' table is a second one, over
 * max_position_embeddings, beside the full layers' that models_read adds as table 0. */
static void step_sliding_rope(struct model_reader *r, struct gs_arch *a, uint64_t head_dim,
                              const bool *sliding, uint64_t layers)
{
    uint64_t first = layers;
    for (uint64_t l = 0; l < layers && first == layers; l++)
        if (sliding[l])
            first = l;
    if (!r->ok || first == layers || a->max_position_embeddings == 0)
        return;
    const json_t *factors = rd_get(r, "partial_rotary_factors");
    const json_t *f = json_is_array(factors) ? json_array_get(factors, first) : NULL;
    const double partial =
        json_is_number(f) && json_number_value(f) > 0.0 && json_number_value(f) <= 1.0
            ? json_number_value(f)
            : 1.0;
    a->rope_tables[1] =
        (struct gs_rope_table){a->max_position_embeddings, (uint64_t)((double)head_dim * partial)};
    a->rope_table_count = 2;
}

/* vLLM's drafter for Step 3.5 (models/step3p5_mtp.py Step3p5MTP, method mtp): the checkpoint's
 * num_nextn_predict_layers layers after the decoder's, each with enorm and hnorm, eh_proj 2h -> h
 * (replicated on every rank), a Step3p5DecoderLayer built at index L + i - its attention kind
 * from layer_types[L + i] (the published configs: sliding, with attention_other_setting's heads),
 * routed only where moe_layers_enum names L + i (the published "3,...,44" does not: a dense SwiGLU
 * of intermediate_size; vLLM reads no mlp_layer_types) - and its own shared_head, a norm and a
 * vocabulary x h head (each depth's differs from the model's). The embedding is the model's.
 * Described only where layer_types lists the MTP layers, all of one kind. */
static void step3p5_mtp(struct model_reader *r, struct gs_arch *a, uint64_t L, uint64_t mtp,
                        const bool *sliding, uint64_t sliding_heads, uint64_t heads,
                        const struct laguna_dims *d)
{
    const json_t *types = NULL;
    if (!r->ok || mtp == 0 || L + mtp > GS_LAYERS_MAX ||
        rd_array(r, "layer_types", &types) != L + mtp)
        return;
    bool routed[GS_LAYERS_MAX] = {false};
    if (!step_moe_layers(r, L + mtp, routed) && !r->ok)
        return;
    for (uint64_t i = 1; i < mtp; i++)
        if (sliding[L + i] != sliding[L] || routed[L + i] != routed[L])
            return;
    const bool window = sliding[L] && d->window > 0;
    const struct laguna_layer s = {window ? sliding_heads : heads, window, routed[L]};
    decoder_mtp_fusion(a, laguna_block(a, &s, d), false, "shared_head.output", mtp);
}

/* Step3p5ForCausalLM, StepFun's Step-3.5-Flash, and the language model of Step-3.7-Flash
 * (transformers models/step3p7/modeling_step3p7.py: Step3p7TextModel, whose configuration class
 * Step3p7TextConfig is model_type step3p5; vLLM models/step3p5.py). Laguna's layer in another
 * config's words: Step3p7Attention (q/k/v/o, q_norm and k_norm over head_dim - Gemma RMSNorms,
 * one weight each -, and g_proj, a sigmoid gate a head: the class's `gating = True`); sliding
 * layers (layer_types) attend within sliding_window tokens with their own query heads
 * (attention_other_setting, step_sliding_heads), the KV heads (num_attention_groups) shared;
 * dense layers a SwiGLU of intermediate_size, sparse ones (mlp_layer_types, else
 * moe_layers_enum, else every layer from the fourth as the config class fills it)
 * Step3p7SparseMoeBlock: the router `gate` [E, h], a bare parameter, with its
 * e_score_correction_bias buffer, moe_num_experts fused experts of moe_intermediate_size, and
 * shared_experts, a SwiGLU of share_expert_dim. Untied. The checkpoint's
 * num_nextn_predict_layers MTP layers, which layer_types and the MLP lists may also cover, are
 * skipped by both (transformers' _keys_to_ignore_on_load_unexpected, vLLM's load_weights): they
 * are described as vLLM's drafter builds them (step3p5_mtp). The defaults are
 * Step3p7TextConfig's. */
static void read_step3p5(struct model_reader *r, struct gs_arch *a)
{
    const uint64_t h = rd_dim(r, NAMES("hidden_size"), false, 4096);
    gs_arch_init(a, NULL, h, rd_dim(r, NAMES("vocab_size"), false, 128815));
    const uint64_t L = rd_dim(r, NAMES("num_hidden_layers"), false, 45);
    const uint64_t mtp = rd_dim(r, NAMES("num_nextn_predict_layers", "num_mtp_layers"), false, 0);
    const uint64_t heads = rd_size(r, NAMES("num_attention_heads"), 64);
    struct laguna_dims d;
    memset(&d, 0, sizeof(d));
    /* Step3p7TextConfig.attribute_map: num_attention_groups is num_key_value_heads */
    d.kv_heads = rd_size(r, NAMES("num_attention_groups", "num_key_value_heads"), 8);
    d.head_dim = rd_size(r, NAMES("head_dim"), 128);
    d.window = rd_dim(r, NAMES("sliding_window"), false, 0);
    d.intermediate = rd_dim(r, NAMES("intermediate_size"), false, 11264);
    d.bias = rd_flag(r, "attention_bias", false);
    d.gate_per_head = laguna_gate_per_head(r);
    /* Step3p7Attention.forward: attn_output * gate_states.unsqueeze(-1).sigmoid(), one a head */
    d.gate_sigmoid = true;
    d.experts.experts =
        rd_size(r, NAMES("moe_num_experts", "n_routed_experts", "num_local_experts"), 288);
    d.experts.top_k = rd_size(r, NAMES("moe_top_k", "num_experts_per_tok"), 8);
    d.experts.width = rd_dim(r, NAMES("moe_intermediate_size"), false, 1280);
    d.experts.shared_width = rd_dim(r, NAMES("share_expert_dim", "share_expert_dims"), false, 1280);
    d.experts.gated = true;
    /* Step3p7TopKRouter: self.weight a bare parameter (F.linear at the weight's dtype, no LoRA
     * target adapts it), e_score_correction_bias an nn.Buffer the checkpoint stores; the
     * experts fused 3D parameters (Step3p7Experts) in every release that has the class */
    d.experts.router_parameter = true;
    d.experts.router_buffer = d.experts.experts;
    d.experts.experts_fused = true;
    a->max_position_embeddings = rd_dim(r, NAMES("max_position_embeddings"), false, 128000);
    a->tie_word_embeddings = rd_flag(r, "tie_word_embeddings", false);
    a->attention_dropout = rd_dropout(r, NAMES("attention_dropout"));
    if (rd_flag(r, "mlp_bias", false))
        rd_fail(r, "mlp_bias", GS_ERR_UNSUPPORTED,
                "biases on Step's MLPs are not one gpusizer sizes (no release sets them)");
    if (L > GS_LAYERS_MAX) {
        rd_fail(r, "num_hidden_layers", GS_ERR_UNSUPPORTED,
                "%llu layers: gpusizer describes at most %d", (unsigned long long)L, GS_LAYERS_MAX);
        return;
    }
    const uint64_t sliding_heads = step_sliding_heads(r, heads, d.kv_heads, d.head_dim);
    uint64_t layer_heads[GS_LAYERS_MAX];
    bool sliding[GS_LAYERS_MAX] = {false};
    bool routed[GS_LAYERS_MAX] = {false};
    (void)laguna_flags(r, "layer_types", "sliding_attention", "full_attention", L, L + mtp,
                       sliding);
    if (!laguna_flags(r, "mlp_layer_types", "sparse", "dense", L, L + mtp, routed) && r->ok &&
        !step_moe_layers(r, L, routed) && r->ok)
        for (uint64_t l = 0; l < L; l++)
            routed[l] = l >= 3;
    for (uint64_t l = 0; l < L; l++) {
        /* a sliding layer without a window (sliding_window null) attends over everything */
        sliding[l] = sliding[l] && d.window > 0;
        layer_heads[l] = sliding[l] ? sliding_heads : heads;
    }
    if (!laguna_stack(r, a, L, layer_heads, sliding, routed, &d, "attention_other_setting"))
        return;
    gs_arch_embeddings(a, h, "lm_head", false);
    gs_build_norms(a, GS_BLOCKS_MAX, "norm", 1, false);
    step_sliding_rope(r, a, d.head_dim, sliding, L);
    step3p5_mtp(r, a, L, mtp, sliding, sliding_heads, heads, &d);
}

const struct model_type MODELS_HETEROGENEOUS[] = {
    {"nemotron-nas", "DeciLMForCausalLM", read_nemotron_nas},
    {"laguna", "LagunaForCausalLM", read_laguna},
    {"step3p5", "Step3p5ForCausalLM", read_step3p5},
    {NULL, NULL, NULL},
};
