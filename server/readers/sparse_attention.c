/*
 * sparse_attention.c - sparse and compressed latent attention (see reader.h):
 * DeepSeek-V4 (deepseek_v4: a sliding window on every layer, compressed
 * entries beside it, hyper-connections, hash-routed first layers, MXFP4
 * experts), GLM-5 (glm_moe_dsa: DeepSeek-V3.2's MLA and lightning
 * indexer, the indexer's top-k shared across layers from GLM-5.2 on) and GLM-5 Next
 * (glm5_next, GLM-5.3-Flash: Kimi Delta Attention beside NoPE sparse MLA whose indexer
 * pools its keys, hyper-connections, GLM-OCR's vision tower).
 */
#include "readers/decoder.h"
#include "readers/kda.h"
#include "readers/latent_window.h"
#include "readers/multimodal.h"

#include <string.h>

/* ------------------------------------------------------------ DeepSeek-V4 */

/* The three attention kinds of DeepseekV4Config.layer_types: compress_ratios 0, 4 and 128. */
enum v4_attention { V4_SLIDING, V4_CSA, V4_HCA, V4_KINDS };

struct v4_shape {
    struct latent_window w; /* the attention's dimensions */
    uint64_t vocab;
    uint64_t rate[V4_KINDS]; /* tokens per compressed entry (0: the window only) */
    struct gs_moe moe;       /* routed experts, the shared expert and the router's buffer */
};

static bool v4_read_shape(struct model_reader *r, struct gs_arch *a, struct decoder_plan *plan,
                          struct v4_shape *s)
{
    decoder_read_dims(r, a, plan, false, 0, true);
    memset(s, 0, sizeof(*s));
    s->vocab = a->vocab_size;
    latent_window_read(r, a->hidden_size, plan->heads, &s->w);
    /* compress_rates as transformers 5 saves it, else the legacy top-level keys */
    s->rate[V4_CSA] = rd_dim(r, NAMES("compress_rate_csa"), false, 4);
    s->rate[V4_HCA] = rd_dim(r, NAMES("compress_rate_hca"), false, 128);
    struct model_reader rates;
    if (rd_sub(r, "compress_rates", &rates)) {
        s->rate[V4_CSA] =
            rd_dim(&rates, NAMES("compressed_sparse_attention"), false, s->rate[V4_CSA]);
        s->rate[V4_HCA] =
            rd_dim(&rates, NAMES("heavily_compressed_attention"), false, s->rate[V4_HCA]);
        r->ok = r->ok && rates.ok;
    }
    decoder_read_experts(r, plan, false);
    /* DeepseekV4TopKRouter and DeepseekV4HashRouter hold self.weight as a bare parameter
     * (modeling_deepseek_v4.py: F.linear(flat, self.weight)): no LoRA target adapts it */
    plan->experts.router_parameter = true;
    s->moe = plan->experts;
    /* DeepseekV4MLP reads intermediate_size, mapped to moe_intermediate_size, whatever
     * n_shared_experts says (configuration_deepseek_v4.py attribute_map) */
    s->moe.shared_width = s->moe.width;
    return r->ok;
}

/* A compress_ratios entry as DeepseekV4Config folds it into layer_types (0, 4, 128). */
static bool v4_kind_of_ratio(struct model_reader *r, const json_t *v, size_t at,
                             enum v4_attention *out)
{
    const json_int_t ratio = json_is_integer(v) ? json_integer_value(v) : -1;
    if (ratio == 0 || ratio == 4 || ratio == 128) {
        *out = ratio == 0 ? V4_SLIDING : ratio == 4 ? V4_CSA : V4_HCA;
        return true;
    }
    rd_fail(r, "compress_ratios", GS_ERR_INVALID,
            "entry %zu must be 0 (sliding window), 4 (compressed sparse) or 128 (heavily "
            "compressed), as DeepseekV4Config reads it",
            at);
    return false;
}

/* A layer_types entry (a config saved by transformers 5). */
static bool v4_kind_of_name(struct model_reader *r, const json_t *v, size_t at,
                            enum v4_attention *out)
{
    static const char *const names[V4_KINDS] = {"sliding_attention", "compressed_sparse_attention",
                                                "heavily_compressed_attention"};
    const char *name = json_string_value(v);
    for (int k = 0; name != NULL && k < V4_KINDS; k++) {
        if (strcmp(name, names[k]) == 0) {
            *out = (enum v4_attention)k;
            return true;
        }
    }
    rd_fail(r, "layer_types", GS_ERR_INVALID,
            "entry %zu must be sliding_attention, compressed_sparse_attention or "
            "heavily_compressed_attention",
            at);
    return false;
}

/* Each layer's attention kind, and the MTP layer's (`kinds[layers]`): compress_ratios (the
 * checkpoint's config, one entry more for the MTP layer), else layer_types, else
 * DeepseekV4Config's default: two heavily compressed layers, then heavily compressed and
 * compressed sparse in turn. */
static bool v4_read_kinds(struct model_reader *r, uint64_t layers, enum v4_attention *kinds)
{
    const json_t *list = NULL;
    const char *name = "compress_ratios";
    size_t n = rd_array(r, name, &list);
    const bool ratios = list != NULL;
    if (!ratios) {
        name = "layer_types";
        n = rd_array(r, name, &list);
    }
    if (!r->ok)
        return false;
    if (list != NULL && n < layers) {
        rd_fail(r, name, GS_ERR_INVALID, "has %zu entries for %llu layers", n,
                (unsigned long long)layers);
        return false;
    }
    for (uint64_t l = 0; l <= layers && l < GS_LAYERS_MAX; l++) {
        kinds[l] = l >= 2 && (l - 2) % 2 == 1 ? V4_CSA : V4_HCA;
        if (l == layers)
            kinds[l] = V4_SLIDING; /* vLLM's MTP layer: compress_ratio 1, the window only */
        if (list == NULL || l >= n)
            continue;
        const json_t *v = json_array_get(list, l);
        const bool ok =
            ratios ? v4_kind_of_ratio(r, v, l, &kinds[l]) : v4_kind_of_name(r, v, l, &kinds[l]);
        if (!ok)
            return false;
    }
    return true;
}

/* Layers routed by the token-id hash table: mlp_layer_types "hash_moe", else the first
 * num_hash_layers (default 3). */
static bool v4_read_hashed(struct model_reader *r, uint64_t layers, bool *hashed)
{
    const json_t *list = NULL;
    const size_t n = rd_array(r, "mlp_layer_types", &list);
    const uint64_t first = rd_dim(r, NAMES("num_hash_layers"), false, 3);
    if (!r->ok)
        return false;
    if (list != NULL && n < layers) {
        rd_fail(r, "mlp_layer_types", GS_ERR_INVALID, "has %zu entries for %llu layers", n,
                (unsigned long long)layers);
        return false;
    }
    for (uint64_t l = 0; l < layers && l < GS_LAYERS_MAX; l++) {
        const char *kind = list != NULL ? json_string_value(json_array_get(list, l)) : NULL;
        if (list != NULL && (kind == NULL || (strcmp(kind, "hash_moe") && strcmp(kind, "moe")))) {
            rd_fail(r, "mlp_layer_types", GS_ERR_INVALID, "entry %llu must be hash_moe or moe",
                    (unsigned long long)l);
            return false;
        }
        hashed[l] = list != NULL ? strcmp(kind, "hash_moe") == 0 : l < first;
    }
    return true;
}

/* DeepseekV4Attention (latent_window.h) under transformers' names; vLLM (deepseek_v4.py) keeps
 * q_a/kv replicated (fused_wqa_wkv). */
static void v4_attention(struct gs_arch *a, size_t b, const struct v4_shape *s,
                         enum v4_attention kind)
{
    static const struct latent_window_names names = {"q_a_proj", "q_a_norm", "q_b_proj", "kv_proj",
                                                     "kv_norm",  "o_a_proj", "o_b_proj", "sinks"};
    latent_window_build(a, b, &s->w, s->rate[kind], kind == V4_CSA, &names);
}

/* The compressor of a compressed layer (DeepseekV4CSACompressor / DeepseekV4HCACompressor):
 * kv_proj and gate_proj h -> head_dim (two overlapping series, 2 x head_dim, when
 * compressed sparse), a position bias per slot of the window and kv_norm; the compressed
 * sparse layers' lightning indexer (DeepseekV4Indexer) runs its own such compressor at
 * index_head_dim plus q_b_proj q_lora -> index heads x index_head_dim and the scorer's
 * weights_proj h -> index heads. The checkpoint keeps the compressor projections and
 * weights_proj in bf16 (_keep_in_fp32_modules: not quantized); q_b_proj is fp8. */
static void v4_compressor(struct gs_arch *a, size_t b, const struct v4_shape *s,
                          enum v4_attention kind)
{
    if (kind == V4_SLIDING)
        return;
    const uint64_t h = s->w.hidden, series = kind == V4_CSA ? 2 : 1, rate = s->rate[kind];
    const uint64_t d = s->w.head_dim, id = s->w.index_head_dim;
    gs_block_module(a, b, "compressor.kv_proj_gate_proj", GS_MODULE_LINEAR, GS_SPLIT_NONE,
                    GS_PART_ATTENTION, 0, h, series * d, 2);
    gs_block_module(a, b, "compressor.position_bias", GS_MODULE_TENSOR, GS_SPLIT_NONE,
                    GS_PART_ATTENTION, 0, rate, series * d, 1);
    gs_block_module(a, b, "compressor.kv_norm", GS_MODULE_NORM, GS_SPLIT_NONE, GS_PART_ATTENTION, 0,
                    1, d, 1);
    if (kind != V4_CSA)
        return;
    gs_block_module(a, b, "compressor.indexer.kv_proj_gate_proj", GS_MODULE_LINEAR, GS_SPLIT_NONE,
                    GS_PART_ATTENTION, 0, h, 2 * id, 2);
    gs_block_module(a, b, "compressor.indexer.position_bias", GS_MODULE_TENSOR, GS_SPLIT_NONE,
                    GS_PART_ATTENTION, 0, rate, 2 * id, 1);
    gs_block_module(a, b, "compressor.indexer.kv_norm", GS_MODULE_NORM, GS_SPLIT_NONE,
                    GS_PART_ATTENTION, 0, 1, id, 1);
    gs_block_module(a, b, "compressor.indexer.q_b_proj", GS_MODULE_LINEAR, GS_SPLIT_NONE,
                    GS_PART_ATTENTION, GS_MOD_QUANT, s->w.q_lora, s->w.index_heads * id, 1);
    gs_block_module(a, b, "compressor.indexer.scorer.weights_proj", GS_MODULE_LINEAR, GS_SPLIT_NONE,
                    GS_PART_ATTENTION, 0, h, s->w.index_heads, 1);
}

/* DeepseekV4HyperConnection, `count` of them: fn (2 + n) n x n h, base (2 + n) n, scale 3,
 * for n residual streams (attn_hc and ffn_hc in a layer). fp32 whatever the weights' format:
 * the checkpoint stores them so and the engines keep them so (vLLM DeepseekV4DecoderLayer
 * hc_attn_fn ... hc_ffn_scale, dtype=torch.float32; SGLang's DeepSeek-V4 layer the same). */
static void hyper_connections(struct gs_arch *a, size_t b, uint64_t n, uint64_t hidden,
                              uint64_t count)
{
    const uint64_t mix = (2 + n) * n;
    gs_block_module(a, b, "hc.fn", GS_MODULE_TENSOR, GS_SPLIT_NONE, GS_PART_OTHER, GS_MOD_FP32, mix,
                    n * hidden, count);
    gs_block_module(a, b, "hc.base", GS_MODULE_TENSOR, GS_SPLIT_NONE, GS_PART_OTHER, GS_MOD_FP32, 1,
                    mix, count);
    gs_block_module(a, b, "hc.scale", GS_MODULE_TENSOR, GS_SPLIT_NONE, GS_PART_OTHER, GS_MOD_FP32,
                    1, 3, count);
}

/* The final stream collapse (DeepseekV4HyperHead, and each MTP layer's hc_head): hc_fn
 * n x n h, hc_base n, hc_scale 1; fp32 as the layers' (vLLM DeepseekV4Model.hc_head_fn and
 * DeepSeekV4MTP's, dtype=torch.float32). */
static void v4_hyper_head(struct gs_arch *a, size_t block, const struct v4_shape *s)
{
    const uint64_t n = s->w.streams;
    if (block >= GS_BLOCKS_MAX) {
        gs_arch_module(a, "hc_head.hc_fn", GS_MODULE_TENSOR, GS_SPLIT_NONE, GS_PART_OTHER,
                       GS_MOD_FP32, n, n * s->w.hidden, 1);
        gs_arch_module(a, "hc_head.hc_base_hc_scale", GS_MODULE_TENSOR, GS_SPLIT_NONE,
                       GS_PART_OTHER, GS_MOD_FP32, 1, n + 1, 1);
        return;
    }
    gs_block_module(a, block, "hc_head_fn", GS_MODULE_TENSOR, GS_SPLIT_NONE, GS_PART_OTHER,
                    GS_MOD_FP32, n, n * s->w.hidden, 1);
    gs_block_module(a, block, "hc_head_base_hc_head_scale", GS_MODULE_TENSOR, GS_SPLIT_NONE,
                    GS_PART_OTHER, GS_MOD_FP32, 1, n + 1, 1);
}

/* One decoder layer kind: attention, its compressor, the routed experts (DeepseekV4SparseMoeBlock:
 * a router, experts with a clamped SwiGLU, one shared expert), two norms and two
 * hyper-connections. A hash-routed layer's router (DeepseekV4HashRouter) keeps a tid2eid table
 * of top-k experts per vocabulary entry instead of the correction bias: both are buffers the
 * checkpoint stores. */
static size_t v4_block(struct gs_arch *a, const struct v4_shape *s, enum v4_attention kind,
                       bool hashed)
{
    const size_t b = gs_arch_new_block(a);
    v4_attention(a, b, s, kind);
    v4_compressor(a, b, s, kind);
    struct gs_moe moe = s->moe;
    moe.router_buffer = hashed ? 0 : moe.experts;
    gs_build_moe(a, b, &moe);
    if (hashed)
        gs_block_module(a, b, "gate.tid2eid", GS_MODULE_TENSOR, GS_SPLIT_NONE, GS_PART_EXPERTS,
                        GS_MOD_BUFFER, s->vocab, moe.top_k, 1);
    gs_build_norms(a, b, "input_layernorm_post_attention_layernorm", 2, false);
    hyper_connections(a, b, s->w.streams, s->w.hidden, 2);
    return b;
}

/* The checkpoint's MTP layers (mtp.N.*; DeepSeek's inference/model.py MTPBlock, vLLM
 * deepseek_v4_mtp.py): a decoder layer of the attention kind compress_ratios gives after the
 * last layer, top-k routed, plus e_proj and h_proj (h -> h, fp8), enorm, hnorm, the shared
 * head's norm and an hc_head; embedding and head are the model's own. transformers skips them
 * (_keys_to_ignore_on_load_unexpected "mtp."). */
static void v4_mtp(struct model_reader *r, struct gs_arch *a, const struct v4_shape *s,
                   enum v4_attention kind)
{
    const uint64_t layers = rd_dim(r, NAMES("num_nextn_predict_layers"), false, 0);
    if (layers == 0 || !r->ok)
        return;
    const size_t b = v4_block(a, s, kind, false);
    gs_block_module(a, b, "e_proj_h_proj", GS_MODULE_LINEAR, GS_SPLIT_NONE, GS_PART_ATTENTION,
                    GS_MOD_QUANT, s->w.hidden, s->w.hidden, 2);
    gs_build_norms(a, b, "enorm_hnorm_shared_head_norm", 3, false);
    v4_hyper_head(a, b, s);
    gs_arch_tower(a, "mtp", b, GS_PART_MTP, layers, false);
}

/* DeepseekV4ForCausalLM (transformers models/deepseek_v4/modeling_deepseek_v4.py; vLLM
 * models/deepseek_v4.py): every layer attends through a sliding window, compressed layers
 * also over compressed entries, every layer routes to experts; the residual is hc_mult
 * streams. The checkpoint (expert_dtype "fp4") keeps the routed experts in MXFP4 beside fp8
 * block-scaled linears (vLLM DeepseekV4FP8Config). */
static void read_deepseek_v4(struct model_reader *r, struct gs_arch *a)
{
    struct decoder_plan plan;
    struct v4_shape s;
    if (!v4_read_shape(r, a, &plan, &s))
        return;
    enum v4_attention kinds[GS_LAYERS_MAX + 1];
    bool hashed[GS_LAYERS_MAX];
    if (!v4_read_kinds(r, plan.layers, kinds) || !v4_read_hashed(r, plan.layers, hashed))
        return;
    size_t block[V4_KINDS][2];
    bool made[V4_KINDS][2] = {{false, false}, {false, false}, {false, false}};
    gs_arch_set_layers(a, plan.layers, 0);
    for (uint64_t l = 0; l < plan.layers && l < GS_LAYERS_MAX; l++) {
        const enum v4_attention k = kinds[l];
        const int h = hashed[l];
        if (!made[k][h]) {
            block[k][h] = v4_block(a, &s, k, hashed[l]);
            made[k][h] = true;
        }
        gs_arch_set_layer(a, l, block[k][h]);
    }
    gs_arch_embeddings(a, a->hidden_size, "lm_head", false);
    gs_build_norms(a, GS_BLOCKS_MAX, "norm", 1, false);
    v4_hyper_head(a, GS_BLOCKS_MAX, &s);
    v4_mtp(r, a, &s, plan.layers < GS_LAYERS_MAX ? kinds[plan.layers] : V4_SLIDING);
    a->mtp_hidden_width = s.w.streams * s.w.hidden; /* DeepseekV4Model.hc_dim */
    /* transformers runs V4 eager only (DeepseekV4PreTrainedModel: _supports_sdpa and
     * _supports_flash_attn False - SDPA takes no sink logit, flash-attn no head wider than
     * 256), through eager_attention_with_sink: K and V repeated to every head (repeat_kv),
     * softmax over the scores and the sink at their own dtype, the sink sliced off (a view
     * the matmul with V keeps) */
    a->attention_eager_only = true;
    a->eager_softmax_native = true;
}

/* ------------------------------------------------------------ GLM-5 */

/* Whether each layer runs its own indexer ("full") or reuses the previous full layer's top-k
 * ("shared"), as GlmMoeDsaConfig reads it: indexer_types, else index_topk_pattern ("F"/"S"
 * letters or a list), else layer i is full when max(i - index_skip_topk_offset + 1, 0) is a
 * multiple of index_topk_freq (defaults 2 and 1: every layer full). */
static bool glm_read_indexers(struct model_reader *r, uint64_t layers, bool *full)
{
    const json_t *list = NULL;
    const char *name = "indexer_types";
    size_t n = rd_array(r, name, &list);
    const json_t *pattern = rd_get(r, "index_topk_pattern");
    if (list == NULL && json_is_array(pattern)) {
        name = "index_topk_pattern";
        n = rd_array(r, name, &list);
    }
    const char *letters = list == NULL ? json_string_value(pattern) : NULL;
    const uint64_t freq = rd_dim(r, NAMES("index_topk_freq"), false, 1);
    const uint64_t offset = rd_dim(r, NAMES("index_skip_topk_offset"), false, 2);
    if (!r->ok)
        return false;
    if (letters != NULL) {
        name = "index_topk_pattern";
        n = strlen(letters);
    }
    for (uint64_t l = 0; l < layers && l < GS_LAYERS_MAX; l++) {
        const uint64_t step = l + 1 > offset ? l + 1 - offset : 0;
        full[l] = step % (freq ? freq : 1) == 0;
        if (list == NULL && letters == NULL)
            continue;
        const char *kind = list != NULL ? json_string_value(json_array_get(list, l)) : NULL;
        const char letter = letters != NULL && l < n ? letters[l] : 0;
        if (l >= n || (kind == NULL && letter == 0) ||
            (kind != NULL && strcmp(kind, "full") && strcmp(kind, "shared")) ||
            (letters != NULL && letter != 'F' && letter != 'S')) {
            rd_fail(r, name, GS_ERR_INVALID,
                    "entry %llu must be full or shared (F or S), one "
                    "per layer",
                    (unsigned long long)l);
            return false;
        }
        full[l] = kind != NULL ? strcmp(kind, "full") == 0 : letter == 'F';
    }
    return true;
}

/* Which layers route to experts: mlp_layer_types ("dense"/"sparse"), else DeepSeek's
 * first_k_dense_replace (default 3) and moe_layer_freq. */
static bool glm_read_routed(struct model_reader *r, struct decoder_plan *plan)
{
    const json_t *list = NULL;
    const size_t n = rd_array(r, "mlp_layer_types", &list);
    const uint64_t first = rd_dim(r, NAMES("first_k_dense_replace"), false, 3);
    const uint64_t freq = rd_size(r, NAMES("moe_layer_freq"), 1);
    if (!r->ok)
        return false;
    for (uint64_t l = 0; l < plan->layers && l < GS_LAYERS_MAX; l++) {
        plan->moe[l] = l >= first && (freq == 0 || l % freq == 0);
        if (list == NULL)
            continue;
        const char *kind = l < n ? json_string_value(json_array_get(list, l)) : NULL;
        if (kind == NULL || (strcmp(kind, "dense") && strcmp(kind, "sparse"))) {
            rd_fail(r, "mlp_layer_types", GS_ERR_INVALID,
                    "entry %llu must be dense or sparse, one per layer", (unsigned long long)l);
            return false;
        }
        plan->moe[l] = strcmp(kind, "sparse") == 0;
    }
    return true;
}

/* One GLM-5 layer kind: MLA with or without its own indexer, a dense MLP or the experts. */
static size_t glm_block(struct gs_arch *a, const struct gs_attention *spec, bool indexer,
                        const struct decoder_plan *plan, bool routed, bool bias)
{
    const size_t b = gs_arch_new_block(a);
    struct gs_attention s = *spec;
    if (!indexer)
        s.index_heads = s.index_head_dim = 0; /* index_topk stays: the layer attends sparsely */
    gs_build_mla(a, b, &s, bias);
    if (routed)
        gs_build_moe(a, b, &plan->experts);
    else
        gs_build_mlp(a, b, plan->intermediate, true, false, &GS_MLP_NAMES);
    gs_build_norms(a, b, "layernorm", 2, false);
    return b;
}

/* The stored MTP layers (model.layers.<num_hidden_layers>; vLLM glm_moe_dsa reuses
 * deepseek_mtp.py): a routed layer with its indexer, enorm, hnorm, eh_proj (2h -> h), the
 * shared head's norm, and copies of the embedding and head. */
static void glm_mtp(struct model_reader *r, struct gs_arch *a, const struct gs_attention *spec,
                    const struct decoder_plan *plan, bool bias)
{
    const uint64_t layers = rd_dim(r, NAMES("num_nextn_predict_layers"), false, 0);
    if (layers == 0 || !r->ok)
        return;
    const uint64_t h = a->hidden_size, V = a->vocab_size;
    const size_t b = glm_block(a, spec, true, plan, plan->experts.experts > 0, bias);
    gs_block_module(a, b, "eh_proj", GS_MODULE_LINEAR, GS_SPLIT_NONE, GS_PART_ATTENTION, 0, 2 * h,
                    h, 1);
    gs_build_norms(a, b, "enorm_hnorm_shared_head_norm", 3, false);
    gs_block_module(a, b, "embed_tokens", GS_MODULE_EMBEDDING, GS_SPLIT_COLUMN, GS_PART_EMBEDDING,
                    0, V, h, 1);
    gs_block_module(a, b, "shared_head.head", GS_MODULE_LINEAR, GS_SPLIT_COLUMN, GS_PART_LM_HEAD, 0,
                    h, V, 1);
    gs_arch_tower(a, "mtp", b, GS_PART_MTP, layers, false);
}

/* GlmMoeDsaForCausalLM (transformers models/glm_moe_dsa/modular_glm_moe_dsa.py; vLLM
 * models/glm_moe_dsa.py through deepseek_v2.py): DeepSeek-V3.2's MLA, experts and lightning
 * indexer (DeepseekV32Indexer: wq_b, wk, k_norm LayerNorm, weights_proj), except that a
 * "shared" layer builds no indexer and reuses the previous full layer's top-k (GLM-5.2: one
 * layer in four keeps its own); the router's e_score_correction_bias is a buffer. */
static void read_glm_moe_dsa(struct model_reader *r, struct gs_arch *a)
{
    struct decoder_plan plan;
    decoder_read_dims(r, a, &plan, false, 0, false);
    struct gs_attention spec;
    decoder_read_mla(r, &spec, plan.heads);
    decoder_read_indexer(r, &spec, 2048); /* GlmMoeDsaConfig (transformers) index_topk=2048 */
    decoder_read_experts(r, &plan, false);
    plan.experts.shared_width = plan.experts.width * rd_dim(r, NAMES("n_shared_experts"), false, 1);
    plan.experts.router_buffer = plan.experts.experts;
    /* GlmMoeDsaTopkRouter holds self.weight as a bare parameter and scores in fp32
     * (modeling_glm_moe_dsa.py: F.linear(hidden_states.type(torch.float32),
     * self.weight.type(torch.float32))), as DeepSeek-V3's and GLM-4.5's routers: no LoRA target
     * adapts it */
    plan.experts.router_parameter = true;
    plan.experts.router_fp32 = true;
    const bool bias = rd_flag(r, "attention_bias", false);
    bool full[GS_LAYERS_MAX];
    if (!r->ok || !glm_read_routed(r, &plan) || !glm_read_indexers(r, plan.layers, full))
        return;
    size_t block[2][2];
    bool made[2][2] = {{false, false}, {false, false}};
    gs_arch_set_layers(a, plan.layers, 0);
    for (uint64_t l = 0; l < plan.layers && l < GS_LAYERS_MAX; l++) {
        const int m = plan.moe[l], f = full[l];
        if (!made[m][f]) {
            block[m][f] = glm_block(a, &spec, full[l], &plan, plan.moe[l], bias);
            made[m][f] = true;
        }
        gs_arch_set_layer(a, l, block[m][f]);
    }
    gs_arch_embeddings(a, a->hidden_size, "lm_head", false);
    gs_build_norms(a, GS_BLOCKS_MAX, "norm", 1, false);
    glm_mtp(r, a, &spec, &plan, bias);
}

/* ------------------------------------------------------------ GLM-5 Next */

/* What Glm5NextTextConfig says about the stack (transformers models/glm5_next/
 * modular_glm5_next.py). */
struct glm5_next {
    struct decoder_plan plan; /* layers, widths, which layers route (plan.moe), the experts */
    struct gs_attention mla;  /* the sparse-attention layers */
    struct kda_spec kda;      /* the linear-attention layers */
    bool kda_layer[GS_LAYERS_MAX];
    bool indexer[GS_LAYERS_MAX]; /* an MLA layer with its own indexer ("full" indexer_types) */
    uint64_t kpool;              /* index_kpool: the keys the indexer gates into one */
    bool kpool_compress;         /* index_kpool_compress: the gate's parameters are built */
    uint64_t streams;            /* hc_mult residual streams; 0 without mHC */
};

/* layer_types: "linear_attention" a KDA layer, "deepseek_sparse_attention" (the checkpoint's
 * name) or "full_attention" (the configuration class's) an MLA layer; without the list, every
 * fourth layer is MLA (Glm5NextTextConfig.__post_init__: KDA where idx % 4 != 3). */
static bool glm5_next_read_kinds(struct model_reader *r, struct glm5_next *g)
{
    const json_t *list = NULL;
    const size_t n = rd_array(r, "layer_types", &list);
    if (!r->ok)
        return false;
    if (list != NULL && n != g->plan.layers) {
        rd_fail(r, "layer_types", GS_ERR_INVALID, "has %zu entries for %llu layers", n,
                (unsigned long long)g->plan.layers);
        return false;
    }
    for (uint64_t l = 0; l < g->plan.layers && l < GS_LAYERS_MAX; l++) {
        g->kda_layer[l] = l % 4 != 3;
        if (list == NULL)
            continue;
        const char *kind = json_string_value(json_array_get(list, l));
        if (kind != NULL && strcmp(kind, "linear_attention") == 0) {
            g->kda_layer[l] = true;
        } else if (kind != NULL && (strcmp(kind, "deepseek_sparse_attention") == 0 ||
                                    strcmp(kind, "full_attention") == 0)) {
            g->kda_layer[l] = false;
        } else {
            rd_fail(r, "layer_types", GS_ERR_INVALID,
                    "entry %llu must be linear_attention, deepseek_sparse_attention or "
                    "full_attention",
                    (unsigned long long)l);
            return false;
        }
    }
    return true;
}

/* The KDA shape: linear_attn_config (num_heads, head_dim, short_conv_kernel_size), which
 * Glm5NextTextConfig copies over linear_num_heads, linear_head_dim and linear_conv_kernel_dim
 * (defaults 64, 128, 4). Its kda_layers and full_attn_layers lists are not read: the class
 * takes the layer kinds from layer_types. */
static void glm5_next_read_kda(struct model_reader *r, struct glm5_next *g)
{
    g->kda.heads = rd_size(r, NAMES("linear_num_heads"), 64);
    g->kda.head_dim = rd_size(r, NAMES("linear_head_dim"), 128);
    g->kda.kernel = rd_size(r, NAMES("linear_conv_kernel_dim"), 4);
    struct model_reader lin;
    if (rd_sub(r, "linear_attn_config", &lin)) {
        g->kda.heads = rd_size(&lin, NAMES("num_heads"), g->kda.heads);
        g->kda.head_dim = rd_size(&lin, NAMES("head_dim"), g->kda.head_dim);
        g->kda.kernel = rd_size(&lin, NAMES("short_conv_kernel_size"), g->kda.kernel);
        r->ok = r->ok && lin.ok;
    }
    /* Glm5NextTextLinearAttention: low-rank forget and output gates through head_dim
     * (forget_gate.f_a_proj/f_b_proj, g_a_proj/g_b_proj), a transformers class */
    g->kda.transformers = true;
}

/* The sparse-attention layers: DeepSeek's MLA without rope (qk_rope_head_dim 0: the latent
 * alone is cached, kv_a_proj_with_mqa h -> kv_lora_rank) and GLM-5's lightning indexer, which
 * gates index_kpool consecutive keys into one (index_kpool_compress). */
static void glm5_next_read_mla(struct model_reader *r, struct glm5_next *g)
{
    struct gs_attention *s = &g->mla;
    memset(s, 0, sizeof(*s));
    s->heads = g->plan.heads;
    s->cached = true;
    s->q_lora_rank = rd_dim(r, NAMES("q_lora_rank"), false, 1536);
    s->kv_lora_rank = rd_size(r, NAMES("kv_lora_rank"), 512);
    s->qk_nope_head_dim = rd_size(r, NAMES("qk_nope_head_dim"), 256);
    s->qk_rope_head_dim = rd_dim(r, NAMES("qk_rope_head_dim"), false, 0);
    s->v_head_dim = rd_size(r, NAMES("v_head_dim"), 256);
    s->nope = s->qk_rope_head_dim == 0 || rd_flag(r, "mla_use_nope", false);
    decoder_read_indexer(r, s, 2048);
    /* Glm5NextTextConfig's default index_kpool is 16; GLM-5.3-Flash's config says 4 */
    g->kpool = rd_size(r, NAMES("index_kpool"), 16);
    g->kpool_compress = rd_flag(r, "index_kpool_compress", true);
    s->index_pool = g->kpool > 1 ? g->kpool : 0;
}

/* One MLA layer's attention: gs_build_mla, and on a layer with its own indexer the kpool
 * gate's parameters (Glm5NextTextIndexer: index_kpool_compress_ape index_kpool x
 * index_head_dim, a learned offset a slot of the pool, and index_kpool_compress_gate
 * index_head_dim x h, applied with F.linear; bf16 in the checkpoint, as its count by dtype
 * shows). A "shared" layer has no indexer of its own and reuses the previous full layer's
 * top-k. */
static void glm5_next_mla(struct gs_arch *a, size_t b, const struct glm5_next *g, bool indexer)
{
    struct gs_attention s = g->mla;
    if (!indexer)
        s.index_heads = s.index_head_dim = s.index_pool = 0;
    gs_build_mla(a, b, &s, false);
    if (!indexer || !g->kpool_compress)
        return;
    gs_block_module(a, b, "indexer.index_kpool_compress_ape", GS_MODULE_TENSOR, GS_SPLIT_NONE,
                    GS_PART_ATTENTION, 0, g->kpool, s.index_head_dim, 1);
    gs_block_module(a, b, "indexer.index_kpool_compress_gate", GS_MODULE_TENSOR, GS_SPLIT_NONE,
                    GS_PART_ATTENTION, 0, s.index_head_dim, a->hidden_size, 1);
}

/* One decoder layer kind: KDA or MLA, a dense MLP (Glm5NextTextMLP: gate/up/down, the SwiGLU
 * clamped at swiglu_limit, no parameter) or the experts (Glm5NextTextMoE: DeepSeek-V3's
 * sigmoid router, 288 experts and a shared one), input_layernorm and post_attention_layernorm,
 * and with mHC the two hyper-connections (attn_hc and ffn_hc, DeepseekV4HyperConnection: fn
 * (2 + n) n x n h, base (2 + n) n, scale 3; their input norm has no weight). SGLang keeps them in
 * fp32 (models/glm5_next.py: hc_attn_fn, hc_attn_base, hc_attn_scale ... dtype float32), where the
 * checkpoint stores fn in bf16. */
static size_t glm5_next_block(struct gs_arch *a, const struct glm5_next *g, bool kda, bool indexer,
                              bool routed)
{
    const size_t b = gs_arch_new_block(a);
    if (kda)
        kda_build(a, b, &g->kda);
    else
        glm5_next_mla(a, b, g, indexer);
    if (routed)
        gs_build_moe(a, b, &g->plan.experts);
    else
        gs_build_mlp(a, b, g->plan.intermediate, true, false, &GS_MLP_NAMES);
    gs_build_norms(a, b, "layernorm", 2, false);
    if (g->streams)
        hyper_connections(a, b, g->streams, a->hidden_size, 2);
    return b;
}

/* The stored MTP layer (model.language_model.layers.<num_hidden_layers>, which transformers
 * skips: _keys_to_ignore_on_load_unexpected; SGLang's glm5_next_nextn.py and vLLM's Glm5NextMTP
 * load it): an MLA layer with its indexer, routed, its two norms, enorm, hnorm, eh_proj
 * (2h -> h) and shared_head.norm - one residual stream, no hyper-connection, and no copy of the
 * embedding or the head (the checkpoint's 888 tensors of layer 45 hold none). */
static void glm5_next_mtp(struct model_reader *r, struct gs_arch *a, const struct glm5_next *g)
{
    const uint64_t layers = rd_dim(r, NAMES("num_nextn_predict_layers"), false, 0);
    if (layers == 0 || !r->ok)
        return;
    struct glm5_next single = *g;
    single.streams = 0;
    const size_t b = glm5_next_block(a, &single, false, true, g->plan.experts.experts > 0);
    const uint64_t h = a->hidden_size;
    gs_block_module(a, b, "eh_proj", GS_MODULE_LINEAR, GS_SPLIT_NONE, GS_PART_ATTENTION, 0, 2 * h,
                    h, 1);
    gs_build_norms(a, b, "enorm_hnorm_shared_head_norm", 3, false);
    gs_arch_tower(a, "mtp", b, GS_PART_MTP, layers, false);
}

/* Glm5NextTextModel (modular_glm5_next.py): embed_tokens, the layers - Kimi Delta Attention
 * (kda.h) or GLM-5's NoPE sparse MLA, each with a dense MLP or the experts and, with mhc,
 * hc_mult residual streams (the embedding copied into each; the final collapse,
 * Glm5NextTextHyperHead, an unweighted mean without parameters) - the final norm, an untied
 * lm_head, and the stored MTP layer. */
static void read_glm5_next_text(struct model_reader *r, struct gs_arch *a)
{
    struct glm5_next g;
    memset(&g, 0, sizeof(g));
    decoder_read_dims(r, a, &g.plan, false, 0, false);
    decoder_read_experts(r, &g.plan, false);
    g.plan.experts.shared_width =
        g.plan.experts.width * rd_dim(r, NAMES("n_shared_experts"), false, 1);
    /* DeepSeek-V3's router (Glm5NextTextTopkRouter): a bare weight scored in fp32
     * (moe_router_dtype float32), the correction bias a buffer */
    g.plan.experts.router_buffer = g.plan.experts.experts;
    g.plan.experts.router_parameter = true;
    g.plan.experts.router_fp32 = true;
    g.streams = rd_flag(r, "mhc", true) ? rd_size(r, NAMES("hc_mult"), 4) : 0;
    glm5_next_read_kda(r, &g);
    if (!r->ok)
        return;
    glm5_next_read_mla(r, &g);
    if (!r->ok || !glm5_next_read_kinds(r, &g) || !glm_read_routed(r, &g.plan) ||
        !glm_read_indexers(r, g.plan.layers, g.indexer))
        return;
    size_t block[2][2][2];
    bool made[2][2][2];
    memset(made, 0, sizeof(made));
    gs_arch_set_layers(a, g.plan.layers, 0);
    for (uint64_t l = 0; l < g.plan.layers && l < GS_LAYERS_MAX; l++) {
        const int k = g.kda_layer[l], x = !k && g.indexer[l], m = g.plan.moe[l];
        if (!made[k][x][m]) {
            block[k][x][m] = glm5_next_block(a, &g, k, x, m);
            made[k][x][m] = true;
        }
        gs_arch_set_layer(a, l, block[k][x][m]);
    }
    gs_arch_embeddings(a, a->hidden_size, "lm_head", false);
    gs_build_norms(a, GS_BLOCKS_MAX, "norm", 1, false);
    glm5_next_mtp(r, a, &g);
}

/* GLM-5.3-Flash's processor (Glm5NextImageProcessor, image_processing_glm5_next.py): at most
 * max_image_tokens 8,000 merged patches of 28 x 28 pixels over temporal_patch_size 2 frames
 * (smart_resize's max_pixels = 8,000 x 2 x 28^2). */
#define GLM5_NEXT_MAX_PIXELS (28ULL * 28 * 2 * 8000)

/* Glm5NextForConditionalGeneration (modular_glm5_next.py; GLM-5.3-Flash): the language model of
 * text_config (or, in a flat text-only checkpoint, of the config's own fields, which
 * Glm5NextConfig forwards to its text config) and the vision tower of vision_config,
 * Glm5NextVisionModel: GLM-OCR's tower whose patch merger's MLP is projection_intermediate_size
 * wide (the SwiGLU clamps add no parameter). A config with no vision_config is read without a
 * tower: the default one transformers would build (GLM-OCR's) is no checkpoint's. */
static void read_glm5_next(struct model_reader *r, struct gs_arch *a)
{
    static const struct glm_vision_form form = {"projection_intermediate_size",
                                                GLM5_NEXT_MAX_PIXELS};
    struct model_reader text, vision;
    const bool nested = rd_sub(r, "text_config", &text);
    if (!r->ok)
        return;
    read_glm5_next_text(nested ? &text : r, a);
    if (nested && !text.ok)
        r->ok = false;
    if (!r->ok || !rd_sub(r, "vision_config", &vision))
        return;
    glm_ocr_vision_read(&vision, a, &form);
    if (!vision.ok)
        r->ok = false;
}

const struct model_type MODELS_SPARSE_ATTENTION[] = {
    {"deepseek_v4", "DeepseekV4ForCausalLM", read_deepseek_v4},
    {"glm_moe_dsa", "GlmMoeDsaForCausalLM", read_glm_moe_dsa},
    {"glm5_next", "Glm5NextForConditionalGeneration", read_glm5_next},
    {"glm5_next_text", "Glm5NextForCausalLM", read_glm5_next_text},
    {NULL, NULL, NULL},
};
