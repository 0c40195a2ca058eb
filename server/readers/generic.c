/*
 * generic.c - the reader of last resort: a config whose model_type and
 * architectures[0] name no reader is read from the keys most decoders
 * share, so a model released after this build gets an approximate answer
 * instead of a refusal.
 *
 * The layout is the Llama one (transformers LlamaForCausalLM,
 * modeling_llama.py; vLLM models/llama.py): per layer an input and a
 * post-attention RMSNorm, q/k/v/o projections (biases with attention_bias),
 * a gated MLP (gate, up, down; biases with mlp_bias); a final norm, the
 * token embedding and, unless tie_word_embeddings, lm_head. What the config
 * states beyond that in the standard keys changes the layers:
 *   - layer_types: sliding_attention and chunked_attention layers attend
 *     through sliding_window (as transformers' Gemma 3, Llama 4 and gpt-oss
 *     configs mark them); linear_attention layers are Gated DeltaNet mixers
 *     shaped as Qwen3NextGatedDeltaNet (modeling_qwen3_next.py; vLLM
 *     qwen3_next.py) from the linear_* keys. Without layer_types a
 *     sliding_window applies to every layer unless use_sliding_window is
 *     false (MistralConfig vs Qwen2Config);
 *   - routed experts (num_local_experts / num_experts / n_routed_experts,
 *     num_experts_per_tok, moe_intermediate_size, shared experts as
 *     n_shared_experts or num_shared_experts MLPs of moe_intermediate_size (or of
 *     moe_shared_expert_intermediate_size where a config gives it: vLLM
 *     bailing_moe.py), or shared_expert_intermediate_size) on the layers
 *     first_k_dense_replace, moe_layer_freq, decoder_sparse_step and
 *     mlp_only_layers leave routed (MixtralSparseMoeBlock, Qwen3MoeSparseMoeBlock,
 *     DeepseekV3MoE shapes; vLLM fused_moe);
 *   - kv_lora_rank: DeepSeek's multi-head latent attention
 *     (DeepseekV3Attention; vLLM deepseek_v2.py), with the index_* keys
 *     DeepSeek-V3.2's indexer;
 *   - use_qk_norm / qk_layernorm / qk_norm: RMSNorm(head_dim) on q and k
 *     (Qwen3Attention).
 * The fields are read from text_config when the config nests its language
 * model there. A config whose keys state experts it cannot count or Mamba
 * layers (unread_structure) is refused rather than misread. Every other key is named in the answer as not understood,
 * apart from a fixed list that never changes a parameter or a cache byte
 * (token ids, dtypes, rope, norm epsilons, activations, initializers,
 * dropouts, router loss coefficients).
 */
#include "readers/generic.h"

#include "readers/decoder.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* The keys the generic reader reads (its aliases included). */
static const char *const understood[] = {
    "hidden_size", "n_embd", "d_model", "num_hidden_layers", "n_layer", "num_layers",
    "num_attention_heads", "n_head", "num_heads", "num_key_value_heads", "num_kv_heads",
    "n_head_kv", "head_dim", "intermediate_size", "ffn_dim", "vocab_size",
    "max_position_embeddings", "tie_word_embeddings", "attention_bias", "mlp_bias",
    "use_qk_norm", "qk_layernorm", "qk_norm", "layer_types", "sliding_window",
    "use_sliding_window", "num_local_experts", "num_experts", "n_routed_experts",
    "num_experts_per_tok", "moe_topk", "moe_intermediate_size", "n_shared_experts",
    "num_shared_experts", "moe_shared_expert_intermediate_size",
    "shared_expert_intermediate_size", "first_k_dense_replace", "moe_layer_freq",
    "decoder_sparse_step", "mlp_only_layers", "kv_lora_rank", "q_lora_rank", "qk_nope_head_dim",
    "qk_rope_head_dim", "v_head_dim", "index_n_heads", "index_head_dim", "index_topk",
    "linear_num_key_heads", "linear_num_value_heads", "linear_key_head_dim",
    "linear_value_head_dim", "linear_conv_kernel_dim", "text_config", NULL};

/* Keys that never change a parameter count or a cache byte: the config's
 * identity, token ids, dtypes, the rope (read for the rotary tables), norm
 * epsilons, activations, initializers, dropouts, routing coefficients, the
 * quantization_config (read for the checkpoint's format). */
static const char *const harmless[] = {
    "_name_or_path", "architectures", "model_type", "auto_map", "torch_dtype", "dtype",
    "transformers_version", "bos_token_id", "eos_token_id", "pad_token_id", "sep_token_id",
    "unk_token_id", "decoder_start_token_id", "initializer_range", "initializer_factor",
    "rms_norm_eps", "layer_norm_eps", "layer_norm_epsilon", "norm_eps", "norm_epsilon",
    "rope_theta", "rope_scaling", "rope_parameters", "partial_rotary_factor", "rotary_pct",
    "rotary_emb_base", "hidden_act", "hidden_activation", "activation_function", "use_cache",
    "attention_dropout", "hidden_dropout", "dropout", "resid_pdrop", "embd_pdrop", "attn_pdrop",
    "residual_dropout", "embedding_dropout", "emb_dropout_prob",
    "output_router_logits", "router_aux_loss_coef", "router_z_loss_coef", "aux_loss_alpha",
    "norm_topk_prob", "routed_scaling_factor", "scoring_func", "topk_method", "n_group",
    "topk_group", "quantization_config", "pretraining_tp", "tokenizer_class", "torchscript",
    "return_dict", "output_attentions", "output_hidden_states", "use_return_dict",
    "_attn_implementation", "attn_implementation", "id2label", "label2id", NULL};

/* A flag that is on only when the config says true: a generic read does not
 * refuse a config over a key whose type it cannot be sure of. */
static bool said_true(const struct model_reader *r, const char *name)
{
    return json_is_true(rd_get(r, name));
}

/* Optional keys the generic reader reads only when they hold what it
 * expects (a whole number in range, or for moe_layer_freq and
 * mlp_only_layers an array of them): anything else is left out and named as
 * not understood, not refused, since a new model may give a known key a new
 * shape (MiniMax-M3's per-layer moe_layer_freq list). */
static const char *const lenient_keys[] = {
    "num_key_value_heads", "num_kv_heads", "n_head_kv", "head_dim", "max_position_embeddings",
    "sliding_window", "moe_intermediate_size", "n_shared_experts", "num_shared_experts",
    "moe_shared_expert_intermediate_size",
    "shared_expert_intermediate_size", "first_k_dense_replace", "moe_layer_freq",
    "decoder_sparse_step", "mlp_only_layers", "q_lora_rank", "index_n_heads", "index_head_dim",
    "index_topk", "linear_num_key_heads", "linear_num_value_heads", "linear_key_head_dim",
    "linear_value_head_dim", "linear_conv_kernel_dim", "layer_types", NULL};

static bool whole(const json_t *v)
{
    return json_is_integer(v) && json_integer_value(v) >= 0 &&
           (uint64_t)json_integer_value(v) <= GS_ARCH_DIM_MAX;
}

/* The first of `names` holding a whole number in range, else `fallback`. */
static uint64_t lenient(const struct model_reader *r, const char *const *names, uint64_t fallback)
{
    for (const char *const *n = names; *n != NULL; n++) {
        const json_t *v = rd_get(r, *n);
        if (v != NULL)
            return whole(v) ? (uint64_t)json_integer_value(v) : fallback;
    }
    return fallback;
}

static bool listed(const char *const *list, const char *key)
{
    for (const char *const *k = list; *k != NULL; k++)
        if (strcmp(*k, key) == 0)
            return true;
    return false;
}

/* The object the language model's fields sit in: text_config when it holds
 * a hidden_size, else the config itself. */
static const json_t *fields_of(const json_t *config)
{
    const json_t *text = json_object_get(config, "text_config");
    return json_is_object(text) && json_object_get(text, "hidden_size") != NULL ? text : config;
}

static bool has_any(const json_t *o, const char *const *names)
{
    for (const char *const *n = names; *n != NULL; n++) {
        const json_t *v = json_object_get(o, *n);
        if (v != NULL && !json_is_null(v))
            return true;
    }
    return false;
}

#define HIDDEN NAMES("hidden_size", "n_embd", "d_model")
#define LAYERS NAMES("num_hidden_layers", "n_layer", "num_layers")
#define HEADS NAMES("num_attention_heads", "n_head", "num_heads")
#define VOCAB NAMES("vocab_size")
#define WIDTH NAMES("intermediate_size", "ffn_dim")
#define EXPERTS NAMES("num_local_experts", "num_experts", "n_routed_experts")
#define TOP_K NAMES("num_experts_per_tok", "moe_topk")
#define EXPERT_WIDTH NAMES("moe_intermediate_size")

/* The routed-expert count, 0 for a dense model (or one that states it in a shape not read). */
static uint64_t expert_count(const json_t *o)
{
    for (const char *const *n = EXPERTS; *n != NULL; n++) {
        const json_t *v = json_object_get(o, *n);
        if (json_is_integer(v) && json_integer_value(v) > 0)
            return (uint64_t)json_integer_value(v);
    }
    return 0;
}

/* The required keys `o` lacks (the first name of each), NULL-terminated in `out`. */
static size_t missing_keys(const json_t *o, const char *out[8])
{
    size_t n = 0;
    const char *const *required[] = {HIDDEN, LAYERS, HEADS, VOCAB};
    for (size_t i = 0; i < sizeof(required) / sizeof(required[0]); i++)
        if (!has_any(o, required[i]))
            out[n++] = required[i][0];
    const bool moe = expert_count(o) > 0;
    if (!has_any(o, WIDTH) && !(moe && has_any(o, EXPERT_WIDTH)))
        out[n++] = WIDTH[0];
    if (moe && !has_any(o, TOP_K))
        out[n++] = TOP_K[0];
    out[n] = NULL;
    return n;
}

/* Keys that say the network is not the stack the generic reader builds, so that its reading would
 * be wrong by a large part rather than approximate: experts it cannot count, and state-space
 * layers it would read as attention. A survey of the transformers 5 types without a reader found
 * ERNIE-4.5-VL's per-modality experts (moe_num_experts [64, 64], moe_k, a list of expert widths)
 * read as a dense model, 3.3B for 29.4B, and Zamba2's and Bamba's Mamba layers read as attention
 * (+120% and -18% in parameters, the KV cache 3x and 10x over and the SSM state missing); a second
 * survey RecurrentGemma's recurrent blocks (+77%, the KV 3x over and no window) and Doge's
 * expert keys (3.3T for 0.4B). Such a config is refused (422) at the key, as one the generic
 * reader cannot size. */
static const struct {
    const char *key;
    const char *what;
    bool any; /* refused whatever its value: false names the structure as well (Doge's is_moe) */
} unread_structure[] = {
    {"moe_num_experts", "routed experts under a name and shape the generic reader does not read",
     false},
    {"moe_k", "routed experts under a name the generic reader does not read", false},
    {"layers_block_type",
     "Mamba or hybrid layers, which the generic reader would size as attention", false},
    {"attn_layer_indices", "Mamba layers between the attention layers it lists", false},
    {"mamba_d_state", "Mamba layers, which the generic reader would size as attention", false},
    {"mamba_n_heads", "Mamba layers, which the generic reader would size as attention", false},
    {"ssm_state_size", "state-space layers, which the generic reader would size as attention",
     false},
    /* RecurrentGemma's block_types ["recurrent", "recurrent", "attention"]: RG-LRU blocks without
     * a KV cache, sized as attention (and its MLP is intermediate_size / 2 wide: +77%) */
    {"block_types", "recurrent blocks, which the generic reader would size as attention", false},
    /* Doge: num_experts 16,384 and num_experts_per_tok 64 in every config, is_moe false or not -
     * a dense MLP, or CDMoE's embedding-table experts; read as MLP experts, 3.3T for 0.4B */
    {"is_moe", "expert keys that are not MLP experts (Doge's num_experts)", true},
    /* Voxtral Realtime (voxtral_realtime): its causal audio encoder keeps a KV cache of its own in
     * vLLM, 32 layers of 32 heads at four encoder frames a text token - about ten times the text
     * model's cache a token, which a reading of text_config leaves out */
    {"audio_length_per_tok",
     "a streaming audio encoder whose KV cache (Voxtral Realtime's, ten times the text model's a "
     "token) the generic reader does not size",
     true},
};

/* The first key of unread_structure the config gives a value (not null, false or 0), or one of the
 * expert keys it reads given as a list (per-modality experts); NULL when none. */
static const char *unread_structure_key(const json_t *o, const char **what)
{
    for (size_t i = 0; i < sizeof(unread_structure) / sizeof(unread_structure[0]); i++) {
        const json_t *v = json_object_get(o, unread_structure[i].key);
        if (v != NULL && !json_is_null(v) &&
            (unread_structure[i].any ||
             (!json_is_false(v) && !(json_is_integer(v) && json_integer_value(v) == 0)))) {
            *what = unread_structure[i].what;
            return unread_structure[i].key;
        }
    }
    static const char *const counted[] = {"num_local_experts", "num_experts", "n_routed_experts",
                                          "moe_intermediate_size", "num_experts_per_tok"};
    for (size_t i = 0; i < sizeof(counted) / sizeof(counted[0]); i++)
        if (json_is_array(json_object_get(o, counted[i]))) {
            *what = "experts given per modality or per layer as a list, which the generic reader "
                    "does not read";
            return counted[i];
        }
    return NULL;
}

size_t models_generic_missing(const json_t *config)
{
    const char *missing[8];
    const char *what = NULL;
    if (!json_is_object(config))
        return 0;
    const json_t *fields = fields_of(config);
    return missing_keys(fields, missing) + (unread_structure_key(config, &what) != NULL ||
                                                    unread_structure_key(fields, &what) != NULL
                                                ? 1
                                                : 0);
}

/* ------------------------------------------------------------ layer kinds */

enum generic_mixer { MIX_FULL, MIX_SLIDING, MIX_CHUNKED, MIX_LINEAR, MIX_KINDS };

/* A layer_types entry as transformers' configs spell them; -1 for one this reader does not know. */
static int mixer_of(const char *kind)
{
    static const struct {
        const char *name;
        int mixer;
    } kinds[] = {{"full_attention", MIX_FULL},       {"attention", MIX_FULL},
                 {"global", MIX_FULL},               {"sliding_attention", MIX_SLIDING},
                 {"sliding", MIX_SLIDING},           {"local", MIX_SLIDING},
                 {"chunked_attention", MIX_CHUNKED}, {"linear_attention", MIX_LINEAR}};
    for (size_t i = 0; kind != NULL && i < sizeof(kinds) / sizeof(kinds[0]); i++)
        if (strcmp(kinds[i].name, kind) == 0)
            return kinds[i].mixer;
    return -1;
}

struct generic_plan {
    struct decoder_plan dec;
    uint8_t mixer[GS_LAYERS_MAX]; /* enum generic_mixer */
    bool mla;
    struct gs_attention mla_spec;
    bool attn_bias, mlp_bias, qk_norm;
    /* Gated DeltaNet: heads and head sizes of keys and values, the conv kernel */
    uint64_t k_heads, v_heads, k_dim, v_dim, kernel;
};

/* layer_types (entries this reader does not know are read as full
 * attention and named in the answer; a list of another length is left
 * out), else sliding_window on every layer unless use_sliding_window is
 * false. */
static void read_mixers(struct model_reader *r, struct generic_plan *p)
{
    const uint64_t L = p->dec.layers;
    p->dec.window = lenient(r, NAMES("sliding_window"), 0);
    const json_t *list = rd_get(r, "layer_types");
    if (!json_is_array(list) || json_array_size(list) != L)
        list = NULL; /* named as not understood */
    const bool slide_all = list == NULL && !json_is_false(rd_get(r, "use_sliding_window"));
    for (uint64_t l = 0; l < L && l < GS_LAYERS_MAX; l++) {
        int m = slide_all ? MIX_SLIDING : MIX_FULL;
        if (list != NULL)
            m = mixer_of(json_string_value(json_array_get(list, l)));
        if ((m == MIX_SLIDING || m == MIX_CHUNKED) && p->dec.window == 0)
            m = MIX_FULL; /* no window stated: nothing to slide over */
        p->mixer[l] = (uint8_t)(m < 0 ? MIX_FULL : m);
    }
}

/* Whether layer `l` routes by a moe_layer_freq / mlp_only_layers style
 * key: moe_layer_freq a number (DeepSeek: l % freq == 0) or a per-layer list
 * of 0/1 (MiniMax-M3); mlp_only_layers a list of dense layer indices. */
static bool routes_by_freq(const json_t *freq, uint64_t l)
{
    if (json_is_array(freq))
        return whole(json_array_get(freq, l)) && json_integer_value(json_array_get(freq, l)) != 0;
    const uint64_t every = whole(freq) ? (uint64_t)json_integer_value(freq) : 1;
    return every <= 1 || l % every == 0;
}

static bool listed_layer(const json_t *list, uint64_t l)
{
    for (size_t i = 0; json_is_array(list) && i < json_array_size(list); i++) {
        const json_t *v = json_array_get(list, i);
        if (whole(v) && (uint64_t)json_integer_value(v) == l)
            return true;
    }
    return false;
}

/* Which layers route: from first_k_dense_replace on, every moe_layer_freq-th
 * (or those its per-layer list marks), every decoder_sparse_step-th
 * (Qwen-MoE: (l + 1) % step == 0), but mlp_only_layers. */
static void read_routing(struct model_reader *r, struct generic_plan *p)
{
    struct decoder_plan *d = &p->dec;
    struct gs_moe *m = &d->experts;
    memset(m, 0, sizeof(*m));
    m->experts = expert_count(r->config);
    if (m->experts == 0)
        return;
    m->top_k = rd_dim(r, TOP_K, true, 0);
    m->width = lenient(r, EXPERT_WIDTH, d->intermediate);
    m->gated = true;
    const uint64_t shared_experts = lenient(r, NAMES("n_shared_experts", "num_shared_experts"), 0);
    m->shared_width =
        shared_experts
            ? shared_experts * lenient(r, NAMES("moe_shared_expert_intermediate_size"), m->width)
            : lenient(r, NAMES("shared_expert_intermediate_size"), 0);
    const uint64_t step = lenient(r, NAMES("decoder_sparse_step"), 1);
    const uint64_t first_dense = lenient(r, NAMES("first_k_dense_replace"), 0);
    const json_t *freq = rd_get(r, "moe_layer_freq");
    const json_t *dense = rd_get(r, "mlp_only_layers");
    for (uint64_t l = 0; l < d->layers && l < GS_LAYERS_MAX; l++)
        d->moe[l] = l >= first_dense && (step <= 1 || (l + 1) % step == 0) &&
                    routes_by_freq(freq, l) && !listed_layer(dense, l);
    if (d->intermediate == 0)
        d->intermediate = m->width; /* a dense layer without its own width */
}

static void read_mla(struct model_reader *r, struct generic_plan *p)
{
    struct gs_attention *s = &p->mla_spec;
    memset(s, 0, sizeof(*s));
    p->mla = rd_get(r, "kv_lora_rank") != NULL;
    if (!p->mla)
        return;
    s->heads = p->dec.heads;
    s->cached = true;
    s->kv_lora_rank = rd_dim(r, NAMES("kv_lora_rank"), true, 0);
    s->q_lora_rank = lenient(r, NAMES("q_lora_rank"), 0);
    s->qk_nope_head_dim = rd_dim(r, NAMES("qk_nope_head_dim"), true, 0);
    s->qk_rope_head_dim = rd_dim(r, NAMES("qk_rope_head_dim"), true, 0);
    s->v_head_dim = rd_dim(r, NAMES("v_head_dim"), true, 0);
    s->index_heads = lenient(r, NAMES("index_n_heads"), 0);
    if (s->index_heads) {
        s->index_head_dim = rd_dim(r, NAMES("index_head_dim"), true, 0);
        s->index_topk = lenient(r, NAMES("index_topk"), 0);
    }
}

/* ------------------------------------------------------------ building */

/* Qwen3NextGatedDeltaNet's tensors (`linear_attn`): in_proj_qkvz h ->
 * 2 key_dim + 2 value_dim, in_proj_ba h -> 2 v_heads, a depthwise conv1d
 * over 2 key_dim + value_dim, dt_bias and A_log per value head, a gated
 * RMSNorm over the value head size, out_proj value_dim -> h; the state vLLM
 * keeps per sequence is gated_delta_net_state_shape's. */
static void build_linear(struct gs_arch *a, size_t b, const struct generic_plan *p)
{
    struct gs_block *blk = gs_arch_block(a, b);
    if (blk == NULL)
        return;
    const uint64_t h = a->hidden_size;
    const uint64_t key_dim = p->k_heads * p->k_dim, value_dim = p->v_heads * p->v_dim;
    const uint64_t conv = 2 * key_dim + value_dim, qkvz = 2 * key_dim + 2 * value_dim;
    blk->mixer = GS_MIXER_RECURRENT;
    blk->rec = (struct gs_recurrent){.conv_channels = conv, .conv_kernel = p->kernel,
                                     .state_heads = p->v_heads, .state_rows = p->v_dim,
                                     .state_cols = p->k_dim, .in_width = qkvz + 2 * p->v_heads,
                                     .inner = value_dim, .delta_rule = true};
    gs_block_module(a, b, "in_proj_qkvz", GS_MODULE_LINEAR, GS_SPLIT_COLUMN, GS_PART_ATTENTION,
                    GS_MOD_QUANT, h, qkvz, 1);
    gs_block_module(a, b, "in_proj_ba", GS_MODULE_LINEAR, GS_SPLIT_COLUMN, GS_PART_ATTENTION,
                    GS_MOD_QUANT, h, 2 * p->v_heads, 1);
    gs_block_module(a, b, "conv1d", GS_MODULE_TENSOR, GS_SPLIT_COLUMN, GS_PART_ATTENTION, 0,
                    p->kernel, conv, 1);
    gs_block_module(a, b, "dt_bias", GS_MODULE_TENSOR, GS_SPLIT_COLUMN, GS_PART_ATTENTION, 0, 1,
                    p->v_heads, 1);
    gs_block_module(a, b, "A_log", GS_MODULE_TENSOR, GS_SPLIT_COLUMN, GS_PART_ATTENTION, 0, 1,
                    p->v_heads, 1);
    gs_block_module(a, b, "norm", GS_MODULE_NORM, GS_SPLIT_NONE, GS_PART_ATTENTION, 0, 1, p->v_dim,
                    1);
    gs_block_module(a, b, "out_proj", GS_MODULE_LINEAR, GS_SPLIT_ROW, GS_PART_ATTENTION,
                    GS_MOD_QUANT, value_dim, h, 1);
}

static void build_attention(struct gs_arch *a, size_t b, const struct generic_plan *p, int mixer)
{
    if (p->mla) {
        gs_build_mla(a, b, &p->mla_spec, p->attn_bias);
        return;
    }
    struct gs_attention spec;
    memset(&spec, 0, sizeof(spec));
    spec.heads = p->dec.heads;
    spec.kv_heads = p->dec.kv_heads;
    spec.head_dim = p->dec.head_dim;
    spec.cached = true;
    if (mixer != MIX_FULL) {
        spec.span = mixer == MIX_CHUNKED ? GS_SPAN_CHUNKED : GS_SPAN_SLIDING;
        spec.window = p->dec.window;
    }
    gs_build_attention(a, b, &spec, &GS_ATTENTION_NAMES, p->attn_bias, p->attn_bias);
    if (p->qk_norm) {
        gs_block_module(a, b, "q_norm", GS_MODULE_NORM, GS_SPLIT_NONE, GS_PART_ATTENTION, 0, 1,
                        p->dec.head_dim, 1);
        gs_block_module(a, b, "k_norm", GS_MODULE_NORM, GS_SPLIT_NONE, GS_PART_ATTENTION, 0, 1,
                        p->dec.head_dim, 1);
    }
}

/* One kind of layer: its mixer, its MLP (dense or routed), two RMSNorms. */
static size_t build_block(struct gs_arch *a, const struct generic_plan *p, int mixer, bool routed)
{
    const size_t b = gs_arch_new_block(a);
    if (mixer == MIX_LINEAR)
        build_linear(a, b, p);
    else
        build_attention(a, b, p, mixer);
    if (routed)
        gs_build_moe(a, b, &p->dec.experts);
    else
        gs_build_mlp(a, b, p->dec.intermediate, true, p->mlp_bias, &GS_MLP_NAMES);
    gs_build_norms(a, b, "layernorm", 2, false);
    return b;
}

static void build(struct gs_arch *a, const struct generic_plan *p)
{
    size_t kinds[MIX_KINDS][2];
    bool made[MIX_KINDS][2];
    memset(made, 0, sizeof(made));
    gs_arch_set_layers(a, p->dec.layers, 0);
    for (uint64_t l = 0; l < p->dec.layers && l < GS_LAYERS_MAX; l++) {
        const int mx = p->mixer[l], routed = p->dec.moe[l];
        if (!made[mx][routed]) {
            kinds[mx][routed] = build_block(a, p, mx, routed);
            made[mx][routed] = true;
        }
        gs_arch_set_layer(a, l, kinds[mx][routed]);
    }
    gs_arch_embeddings(a, a->hidden_size, "lm_head", false);
    gs_build_norms(a, GS_BLOCKS_MAX, "norm", 1, false);
}

/* The dimensions every decoder states (hidden_size, vocab_size, layers and
 * heads required; a present MLP width must be a number), the rest
 * leniently; starts the arch. */
static void read_dims(struct model_reader *r, struct gs_arch *a, struct decoder_plan *d)
{
    const uint64_t h = rd_dim(r, HIDDEN, true, 0);
    const uint64_t V = rd_dim(r, VOCAB, true, 0);
    gs_arch_init(a, NULL, h, V);
    d->layers = rd_dim(r, LAYERS, true, 0);
    d->heads = rd_dim(r, HEADS, true, 0);
    d->intermediate = rd_dim(r, WIDTH, false, 0);
    d->kv_heads = lenient(r, NAMES("num_key_value_heads", "num_kv_heads", "n_head_kv"), d->heads);
    d->head_dim = lenient(r, NAMES("head_dim"), d->heads ? h / d->heads : 0);
    a->max_position_embeddings = lenient(r, NAMES("max_position_embeddings"), 0);
    a->tie_word_embeddings = said_true(r, "tie_word_embeddings");
    a->attention_dropout = rd_dropout(r, NAMES("attention_dropout"));
    a->hidden_dropout = rd_dropout(r, NAMES("hidden_dropout", "resid_pdrop", "residual_dropout"));
    /* the keys that name a dropout on the embeddings (GPT-2's and Phi's embd_pdrop,
     * StarCoder2's embedding_dropout, Qwen's emb_dropout_prob) */
    a->embedding_dropout =
        rd_dropout(r, NAMES("embd_pdrop", "embedding_dropout", "emb_dropout_prob"));
    if (d->layers > GS_LAYERS_MAX)
        rd_fail(r, "num_hidden_layers", GS_ERR_UNSUPPORTED,
                "%llu layers: gpusizer describes at most %d", (unsigned long long)d->layers,
                GS_LAYERS_MAX);
}

void models_read_generic(struct model_reader *top, struct gs_arch *a)
{
    struct model_reader text;
    struct model_reader *r = top;
    if (fields_of(top->config) != top->config && rd_sub(top, "text_config", &text))
        r = &text;
    const char *what = NULL;
    const char *structure = unread_structure_key(top->config, &what);
    if (structure != NULL)
        r = top; /* a wrapper's own key (Voxtral Realtime's audio_length_per_tok) */
    else
        structure = unread_structure_key(r->config, &what);
    if (structure != NULL) {
        rd_fail(r, structure, GS_ERR_UNKNOWN_MODEL,
                "gpusizer has no reader for this model_type, and this key states %s: its generic "
                "reading would be wrong by a large part, not approximate. To size it anyway, send "
                "{\"parameters\": N} with its parameter count",
                what);
        top->ok = false;
        return;
    }
    const char *missing[8];
    if (missing_keys(r->config, missing) > 0) {
        for (size_t i = 0; missing[i] != NULL; i++)
            rd_fail(r, missing[i], GS_ERR_UNKNOWN_MODEL,
                    "is required: gpusizer has no reader for this model_type, and its generic "
                    "reader needs hidden_size, num_hidden_layers, num_attention_heads, vocab_size, "
                    "an MLP width (intermediate_size, or moe_intermediate_size for experts) and, "
                    "with experts, num_experts_per_tok");
        top->ok = false;
        return;
    }
    static struct generic_plan zero;
    struct generic_plan p = zero;
    read_dims(r, a, &p.dec);
    p.attn_bias = said_true(r, "attention_bias");
    p.mlp_bias = said_true(r, "mlp_bias");
    p.qk_norm = said_true(r, "use_qk_norm") || said_true(r, "qk_layernorm") ||
                said_true(r, "qk_norm");
    /* Qwen3-Next's defaults (Qwen3NextConfig) where linear layers give no sizes */
    p.k_heads = lenient(r, NAMES("linear_num_key_heads"), 16);
    p.v_heads = lenient(r, NAMES("linear_num_value_heads"), 32);
    p.k_dim = lenient(r, NAMES("linear_key_head_dim"), 128);
    p.v_dim = lenient(r, NAMES("linear_value_head_dim"), 128);
    p.kernel = lenient(r, NAMES("linear_conv_kernel_dim"), 4);
    read_mixers(r, &p);
    read_routing(r, &p);
    read_mla(r, &p);
    top->ok = top->ok && r->ok;
    if (top->ok)
        build(a, &p);
}

/* ------------------------------------------------------------ what it left out */

struct key_list {
    char *out;
    size_t cap, used, dropped;
};

static void add_key(struct key_list *k, const char *prefix, const char *key)
{
    const int n = snprintf(k->out + k->used, k->cap - k->used, "%s%s%s", k->used ? ", " : "",
                           prefix, key);
    /* keep room for the count of those that did not fit */
    if (n > 0 && k->used + (size_t)n + 24 < k->cap)
        k->used += (size_t)n;
    else {
        k->out[k->used] = '\0';
        k->dropped++;
    }
}

/* Whether a lenient key holds what read_dims and read_routing leave out. */
static bool shape_not_read(const json_t *o, const char *key, const json_t *value)
{
    if (!listed(lenient_keys, key) || json_is_null(value) || whole(value))
        return false;
    if (strcmp(key, "layer_types") == 0) {
        const json_t *layers = NULL;
        for (const char *const *n = LAYERS; *n != NULL && layers == NULL; n++)
            layers = json_object_get(o, *n);
        return !json_is_array(value) || !whole(layers) ||
               json_array_size(value) != (size_t)json_integer_value(layers);
    }
    return !(json_is_array(value) &&
             (strcmp(key, "moe_layer_freq") == 0 || strcmp(key, "mlp_only_layers") == 0));
}

/* The keys of `o` neither read nor harmless; a text_config is looked into
 * (by the caller) when the fields were read from it, else named itself. */
static void unread_in(const json_t *o, const char *prefix, bool text_read, struct key_list *k)
{
    const char *key;
    const json_t *value;
    json_object_foreach((json_t *)(uintptr_t)o, key, value) {
        const bool text = strcmp(key, "text_config") == 0;
        const bool read = text ? text_read
                               : listed(understood, key) && !shape_not_read(o, key, value);
        if (listed(harmless, key) || read)
            continue;
        add_key(k, prefix, key);
    }
}

void models_generic_unread(const json_t *config, char *out, size_t cap)
{
    if (cap == 0)
        return;
    out[0] = '\0';
    if (cap < 32 || !json_is_object(config))
        return;
    struct key_list k = {out, cap, 0, 0};
    const json_t *fields = fields_of(config);
    /* the language model's own keys first: they are the ones that change its size */
    if (fields != config)
        unread_in(fields, "text_config.", false, &k);
    unread_in(config, "", fields != config, &k);
    const json_t *types = json_object_get(fields, "layer_types");
    for (size_t i = 0; json_is_array(types) && i < json_array_size(types); i++) {
        const char *kind = json_string_value(json_array_get(types, i));
        char entry[80];
        if (kind == NULL || mixer_of(kind) >= 0)
            continue;
        snprintf(entry, sizeof(entry), "layer_types \"%.40s\" (read as full attention)", kind);
        if (strstr(out, entry) == NULL)
            add_key(&k, "", entry);
    }
    if (k.dropped)
        snprintf(out + k.used, cap - k.used, "%sand %zu more", k.used ? ", " : "", k.dropped);
}
