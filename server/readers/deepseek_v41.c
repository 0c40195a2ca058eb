/*
 * deepseek_v41.c - DeepSeek-V4.1 (deepseek_v41, DeepseekV41ForCausalLM; see reader.h): a
 * sliding window on every layer, a compressed cache only on the KV-source layers that the
 * others read (CSA2), indexer keys only there, Engram n-gram tables on two layers,
 * hyper-connections, MXFP4 experts, DSpark draft layers and a vision tower. No transformers
 * class: the shapes are DeepSeek's inference/model.py (deepseek-ai/DeepSeek-V4.1-Flash,
 * revision dba1be0a) as vLLM's models/deepseek_v41, TensorRT-LLM's modeling_deepseekv41.py and
 * SGLang's layers/engram.py load it; tests/fixtures/configs/deepseek_v41/README.md has the tensor
 * inventory.
 */
#include "readers/decoder.h"
#include "readers/latent_window.h"

#include <string.h>

#define V41_TABLES_MAX 4 /* Engram layers a config may name */
#define V41_BUCKETS    24 /* an Engram table is described as this many equal buckets and the rest */

struct v41_shape {
    struct latent_window w; /* the attention's dimensions */
    uint64_t vocab;
    uint64_t engram_heads, engram_dim, engram_orders; /* n-gram orders: max_ngram_size - 1 */
    struct gs_moe moe, draft_moe;                     /* the layers' experts, DSpark's own */
};

/* What one decoder layer holds: the compressed cache it writes (a KV source: 1 or 2 tokens an
 * entry), whether it runs an indexer and owns its keys, and an Engram table. */
struct v41_layer {
    uint64_t ratio;       /* 0: writes no compressed cache */
    uint64_t read;        /* not a KV source: the ratio of the source's cache it reads (its
                             compress_ratios entry; 0: the window alone) */
    uint8_t indexer;      /* 0 none, 1 queries over a source's keys, 2 owns the keys too */
    uint64_t engram_rows; /* 0: no Engram */
    uint64_t candidates;  /* an indexer after candidate_source_layer_id: the positions it scores
                             (0: every key) */
};

static bool v41_read_shape(struct model_reader *r, struct gs_arch *a, struct decoder_plan *plan,
                           struct v41_shape *s)
{
    decoder_read_dims(r, a, plan, false, 0, true);
    memset(s, 0, sizeof(*s));
    s->vocab = a->vocab_size;
    latent_window_read(r, a->hidden_size, plan->heads, &s->w);
    s->engram_heads = rd_dim(r, NAMES("engram_n_heads"), false, 8);
    s->engram_dim = rd_dim(r, NAMES("engram_head_dim"), false, 256);
    const uint64_t ngram = rd_size(r, NAMES("engram_max_ngram_size"), 4);
    s->engram_orders = ngram > 1 ? ngram - 1 : 1;
    decoder_read_experts(r, plan, false);
    s->moe = plan->experts;
    s->moe.shared_width = s->moe.width;       /* Expert(dim, moe_inter_dim): one shared expert */
    s->moe.router_parameter = true;           /* Gate.weight, a bare parameter */
    s->moe.expert_names = &GS_EXPERT_NAMES_W; /* ffn.experts.E.w1 (gate), w3 (up), w2 (down) */
    s->draft_moe = s->moe;
    s->draft_moe.experts = rd_dim(r, NAMES("dspark_n_routed_experts"), false, s->moe.experts);
    s->draft_moe.top_k = rd_dim(r, NAMES("dspark_num_experts_per_tok"), false, s->moe.top_k);
    if (r->ok && (s->draft_moe.experts == 0 || s->draft_moe.top_k > s->draft_moe.experts))
        rd_fail(r, "dspark_num_experts_per_tok", GS_ERR_INVALID,
                "must be at most dspark_n_routed_experts");
    return r->ok;
}

/* A list of layer ids into `on` (each below `layers`, in increasing order). */
static size_t v41_layer_ids(struct model_reader *r, const char *name, uint64_t layers,
                            bool required, uint64_t *ids, size_t max)
{
    const json_t *list = NULL;
    const size_t n = rd_array(r, name, &list);
    if (!r->ok)
        return 0;
    if (list == NULL && required) {
        rd_fail(r, name, GS_ERR_INVALID, "is required: the layers DeepSeek-V4.1 names by id");
        return 0;
    }
    if (n > max) {
        rd_fail(r, name, GS_ERR_INVALID, "names %zu layers; at most %zu are read", n, max);
        return 0;
    }
    for (size_t i = 0; i < n; i++) {
        const json_t *v = json_array_get(list, i);
        const json_int_t id = json_is_integer(v) ? json_integer_value(v) : -1;
        if (id < 0 || (uint64_t)id >= layers || (i > 0 && (uint64_t)id <= ids[i - 1])) {
            rd_fail(r, name, GS_ERR_INVALID,
                    "entry %zu must be a layer id below num_hidden_layers (%llu), in increasing "
                    "order",
                    i, (unsigned long long)layers);
            return 0;
        }
        ids[i] = (uint64_t)id;
    }
    return n;
}

/* Each layer's role: compress_ratios (0, 1 or 2: the cache a layer reads; a DSpark layer's entry
 * after the decoder's), kv_source_layer_ids (the layers that compress: inference/model.py
 * Attention builds a Compressor only `if is_kv_source`), index_source_layer_ids (an Indexer;
 * it owns wk and k_norm only on a KV source), engram_layer_ids with engram_num_embeddings. */
static bool v41_read_layers(struct model_reader *r, uint64_t layers, struct v41_layer *role,
                            uint64_t *candidate_blocks)
{
    uint64_t ids[GS_LAYERS_MAX];
    memset(role, 0, sizeof(*role) * layers);
    const json_t *ratios = NULL;
    const size_t n = rd_array(r, "compress_ratios", &ratios);
    if (!r->ok)
        return false;
    if (n < layers) {
        rd_fail(r, "compress_ratios", GS_ERR_INVALID, "has %zu entries for %llu layers", n,
                (unsigned long long)layers);
        return false;
    }
    for (size_t i = 0; i < n; i++) {
        const json_t *v = json_array_get(ratios, i);
        const json_int_t ratio = json_is_integer(v) ? json_integer_value(v) : -1;
        if (ratio < 0 || ratio > 2) {
            rd_fail(r, "compress_ratios", GS_ERR_INVALID,
                    "entry %zu must be 0 (the window only), 1 or 2 (the compressed cache read), "
                    "as DeepSeek-V4.1 reads it",
                    i);
            return false;
        }
    }
    size_t k = v41_layer_ids(r, "kv_source_layer_ids", layers, true, ids, GS_LAYERS_MAX);
    for (size_t i = 0; i < k; i++) {
        const uint64_t ratio = (uint64_t)json_integer_value(json_array_get(ratios, ids[i]));
        if (ratio == 0) {
            rd_fail(r, "kv_source_layer_ids", GS_ERR_INVALID,
                    "layer %llu compresses, but its compress_ratios entry is 0",
                    (unsigned long long)ids[i]);
            return false;
        }
        role[ids[i]].ratio = ratio;
    }
    for (uint64_t l = 0; l < layers; l++)
        if (role[l].ratio == 0)
            role[l].read = (uint64_t)json_integer_value(json_array_get(ratios, l));
    const uint64_t first_source = k ? ids[0] : layers;
    k = v41_layer_ids(r, "index_source_layer_ids", layers, true, ids, GS_LAYERS_MAX);
    for (size_t i = 0; i < k; i++) {
        if (ids[i] < first_source) {
            rd_fail(r, "index_source_layer_ids", GS_ERR_INVALID,
                    "layer %llu has no KV source at or before it to read keys from",
                    (unsigned long long)ids[i]);
            return false;
        }
        role[ids[i]].indexer = role[ids[i]].ratio ? 2 : 1;
    }
    /* inference/model.py Indexer: from candidate_source_layer_id on, the layers score only the
     * candidate_topk_blocks blocks of candidate_block_size positions that layer picked */
    const json_t *at = rd_get(r, "candidate_source_layer_id");
    const uint64_t blocks = rd_dim(r, NAMES("candidate_topk_blocks"), false, 0);
    const uint64_t size = rd_dim(r, NAMES("candidate_block_size"), false, 0);
    if (!r->ok)
        return false;
    const json_int_t from = json_is_integer(at) ? json_integer_value(at) : -1;
    /* vLLM's DeepseekV4Model keeps a candidate_block_buffer "if candidate_source_layer >= 0 and
     * candidate_topk_blocks > 0" */
    *candidate_blocks = from >= 0 ? blocks : 0;
    for (size_t i = 0; i < k && from >= 0 && blocks && size; i++)
        if (ids[i] > (uint64_t)from)
            role[ids[i]].candidates = blocks * size;
    k = v41_layer_ids(r, "engram_layer_ids", layers, false, ids, V41_TABLES_MAX);
    const json_t *rows = NULL;
    const size_t m = rd_array(r, "engram_num_embeddings", &rows);
    if (!r->ok)
        return false;
    if (m != k) {
        rd_fail(r, "engram_num_embeddings", GS_ERR_INVALID,
                "has %zu entries for %zu engram_layer_ids", m, k);
        return false;
    }
    for (size_t i = 0; i < k; i++) {
        const json_t *v = json_array_get(rows, i);
        const json_int_t count = json_is_integer(v) ? json_integer_value(v) : -1;
        /* a table's rows as 24 buckets within the description's dimension bound */
        if (count < 1 || (uint64_t)count > V41_BUCKETS * GS_ARCH_DIM_MAX) {
            rd_fail(r, "engram_num_embeddings", GS_ERR_INVALID,
                    "entry %zu must be a row count from 1 to %llu", i,
                    (unsigned long long)(V41_BUCKETS * GS_ARCH_DIM_MAX));
            return false;
        }
        role[ids[i]].engram_rows = (uint64_t)count;
    }
    return true;
}

/* inference/model.py Attention (latent_window.h) under the checkpoint's names: wo_a is fp8 in
 * the checkpoint (convert.py's bf16 is the reference's own choice), the sinks fp32. A layer's
 * compressed entries are those it writes as a KV source; an owning indexer keeps a key per
 * entry. */
static void v41_attention(struct gs_arch *a, size_t b, const struct v41_shape *s,
                          const struct v41_layer *role)
{
    static const struct latent_window_names names = {"attn.wq_a", "attn.q_norm",   "attn.wq_b",
                                                     "attn.wkv",  "attn.kv_norm",  "attn.wo_a",
                                                     "attn.wo_b", "attn.attn_sink"};
    latent_window_build(a, b, &s->w, role->ratio, role->indexer == 2, &names);
    struct gs_block *blk = gs_arch_block(a, b);
    if (blk == NULL)
        return;
    /* a layer that reads a source's compressed cache attends index_topk of its entries (the
     * shared top-k: SharedAttentionRuntime), and an indexer of its own scores the source's keys
     * (Indexer without wk: owns_k false) */
    blk->attn.read_ratio = role->read;
    blk->attn.index_candidates = role->candidates;
    blk->attn.read_topk = role->read ? s->w.index_topk : 0;
    if (role->indexer == 1) {
        blk->attn.index_heads = s->w.index_heads;
        blk->attn.index_head_dim = s->w.index_head_dim;
        blk->attn.index_keys_shared = true;
    }
}

/* A KV source's Compressor (bf16 in the checkpoint, no position bias: CSA2 dropped it): wkv
 * h -> head_dim, wgate beside it above ratio 1 (the ratio-1 compressor projects each token,
 * no softmax pooling), norm. An Indexer: wq_b q_lora -> index heads x index_head_dim (fp8),
 * weights_proj h -> index heads, and on a KV source the key projection wk head_dim ->
 * index_head_dim over the compressed latent, with k_norm. */
static void v41_compressor_indexer(struct gs_arch *a, size_t b, const struct v41_shape *s,
                                   const struct v41_layer *role)
{
    const uint64_t h = s->w.hidden, d = s->w.head_dim, id = s->w.index_head_dim;
    if (role->ratio) {
        gs_block_module(a, b, "attn.compressor.wkv_wgate", GS_MODULE_LINEAR, GS_SPLIT_NONE,
                        GS_PART_ATTENTION, 0, h, d, role->ratio > 1 ? 2 : 1);
        gs_block_module(a, b, "attn.compressor.norm", GS_MODULE_NORM, GS_SPLIT_NONE,
                        GS_PART_ATTENTION, 0, 1, d, 1);
    }
    if (role->indexer == 0)
        return;
    gs_block_module(a, b, "attn.indexer.wq_b", GS_MODULE_LINEAR, GS_SPLIT_NONE, GS_PART_ATTENTION,
                    GS_MOD_QUANT, s->w.q_lora, s->w.index_heads * id, 1);
    gs_block_module(a, b, "attn.indexer.weights_proj", GS_MODULE_LINEAR, GS_SPLIT_NONE,
                    GS_PART_ATTENTION, 0, h, s->w.index_heads, 1);
    if (role->indexer < 2)
        return;
    gs_block_module(a, b, "attn.indexer.wk", GS_MODULE_LINEAR, GS_SPLIT_NONE, GS_PART_ATTENTION, 0,
                    d, id, 1);
    gs_block_module(a, b, "attn.indexer.k_norm", GS_MODULE_NORM, GS_SPLIT_NONE, GS_PART_ATTENTION,
                    0, 1, id, 1);
}

/* inference/model.py Engram: embed, the n-gram table (`rows` rows of engram_head_dim fp8 values
 * and an e8m0 scale a 32; each token reads orders x heads rows, one in each of as many hashed
 * buckets), kept as 24 equal buckets and the rest so a bucket stays within the description's
 * bounds; wkv (the rows read, orders x heads x head_dim -> h x (hc_mult + 1): a key per stream
 * and the value; fp8, replicated - vLLM ReplicatedLinear) and the gate's q_weight and k_weight
 * (hc_mult x h each, bf16). vLLM shards the table by hash heads over tensor ranks, SGLang and
 * TensorRT-LLM by rows: a tensor rank holds 1/TP of it either way. */
static void v41_engram(struct gs_arch *a, size_t b, const struct v41_shape *s, uint64_t rows)
{
    if (rows == 0)
        return;
    const uint64_t read = s->engram_orders * s->engram_heads, buckets = V41_BUCKETS;
    const unsigned table = GS_MOD_LOOKUP | GS_MOD_FP8_ROWS | GS_MOD_HOST_TABLE;
    gs_block_module(a, b, "engram.embed", GS_MODULE_EMBEDDING, GS_SPLIT_COLUMN, GS_PART_EMBEDDING,
                    table, rows / buckets, s->engram_dim, buckets);
    if (rows % buckets)
        gs_block_module(a, b, "engram.embed.rest", GS_MODULE_EMBEDDING, GS_SPLIT_COLUMN,
                        GS_PART_EMBEDDING, table, rows % buckets, s->engram_dim, 1);
    gs_block_module(a, b, "engram.wkv", GS_MODULE_LINEAR, GS_SPLIT_NONE, GS_PART_OTHER,
                    GS_MOD_QUANT, read * s->engram_dim, s->w.hidden * (s->w.streams + 1), 1);
    gs_block_module(a, b, "engram.q_weight_k_weight", GS_MODULE_TENSOR, GS_SPLIT_NONE,
                    GS_PART_OTHER, 0, s->w.streams, s->w.hidden, 2);
}

/* A layer's feed-forward half and its surroundings (inference/model.py Block): MoE (Gate's
 * bf16 weight and two fp32 biases, `bias` and the image tokens' `bias_vl`; MXFP4 routed experts
 * w1/w3/w2; one fp8 shared expert), attn_norm and ffn_norm, and the two hyper-connection mixes
 * hc_attn and hc_ffn (fn (2 + n) n x n h, base (2 + n) n, scale 3; fp32). No hc_head: V4.1
 * collapses the streams with the last layer's mix (vLLM deepseek_v41: "v4.1 has no learned
 * hc_head"). */
static void v41_ffn(struct gs_arch *a, size_t b, const struct v41_shape *s, const struct gs_moe *m)
{
    gs_build_moe(a, b, m);
    gs_block_module(a, b, "gate.bias_bias_vl", GS_MODULE_TENSOR, GS_SPLIT_NONE, GS_PART_EXPERTS,
                    GS_MOD_FP32, 1, m->experts, 2);
    gs_build_norms(a, b, "attn_norm_ffn_norm", 2, false);
    const uint64_t n = s->w.streams, mix = (2 + n) * n;
    gs_block_module(a, b, "hc.fn", GS_MODULE_TENSOR, GS_SPLIT_NONE, GS_PART_OTHER, GS_MOD_FP32, mix,
                    n * s->w.hidden, 2);
    gs_block_module(a, b, "hc.base", GS_MODULE_TENSOR, GS_SPLIT_NONE, GS_PART_OTHER, GS_MOD_FP32, 1,
                    mix, 2);
    gs_block_module(a, b, "hc.scale", GS_MODULE_TENSOR, GS_SPLIT_NONE, GS_PART_OTHER, GS_MOD_FP32,
                    1, 3, 2);
}

static size_t v41_block(struct gs_arch *a, const struct v41_shape *s, const struct v41_layer *role)
{
    const size_t b = gs_arch_new_block(a);
    v41_attention(a, b, s, role);
    v41_compressor_indexer(a, b, s, role);
    v41_engram(a, b, s, role->engram_rows);
    v41_ffn(a, b, s, &s->moe);
    return b;
}

/* inference/model.py DSparkBlock (the checkpoint's mtp.0 .. mtp.{n-1}): a window-only layer
 * (DSparkAttention asserts compress_ratio 0) routed over its own dspark_n_routed_experts, top
 * dspark_num_experts_per_tok; mtp.0 adds main_proj (the dspark_target_layer_ids' hidden states,
 * targets x h -> h, fp8) and main_norm, the last adds norm, markov_head (embed and head,
 * vocab x dspark_markov_rank each, bf16) and confidence_head (h + markov rank -> 1). Embedding
 * and head are the model's. Each is a tower of one layer, so the three weigh as stored. */
static void v41_dspark(struct model_reader *r, struct gs_arch *a, const struct v41_shape *s)
{
    const uint64_t layers = rd_dim(r, NAMES("num_nextn_predict_layers"), false, 0);
    const json_t *targets = NULL;
    const uint64_t target_count = rd_array(r, "dspark_target_layer_ids", &targets);
    const uint64_t markov = rd_dim(r, NAMES("dspark_markov_rank"), false, 0);
    if (layers == 0 || !r->ok)
        return;
    const struct v41_layer window = {0, 0, 0, 0, 0};
    /* the first layer, those between (one block), the last */
    const uint64_t towers[3] = {1, layers > 2 ? layers - 2 : 0, layers > 1 ? 1 : 0};
    for (int t = 0; t < 3; t++) {
        if (towers[t] == 0)
            continue;
        const size_t b = gs_arch_new_block(a);
        v41_attention(a, b, s, &window);
        v41_ffn(a, b, s, &s->draft_moe);
        if (t == 0 && target_count) {
            gs_block_module(a, b, "main_proj", GS_MODULE_LINEAR, GS_SPLIT_NONE, GS_PART_ATTENTION,
                            GS_MOD_QUANT, target_count * s->w.hidden, s->w.hidden, 1);
            gs_block_module(a, b, "main_norm", GS_MODULE_NORM, GS_SPLIT_NONE, GS_PART_NORMS, 0, 1,
                            s->w.hidden, 1);
        }
        if (t == 2 || layers == 1) {
            gs_build_norms(a, b, "norm", 1, false);
            if (markov) {
                gs_block_module(a, b, "markov_head.embed_head", GS_MODULE_EMBEDDING, GS_SPLIT_NONE,
                                GS_PART_OTHER, GS_MOD_LOOKUP, s->vocab, markov, 2);
                gs_block_module(a, b, "confidence_head.proj", GS_MODULE_LINEAR, GS_SPLIT_NONE,
                                GS_PART_OTHER, 0, s->w.hidden + markov, 1, 1);
            }
        }
        gs_arch_tower(a, "mtp", b, GS_PART_MTP, towers[t], false);
    }
}

/* The vision tower (vision_config; the checkpoint's vision.* and aligner.*, all bf16, replicated):
 * a patch embedding (3 x patch^2 -> width, with a bias), blocks of two RMSNorms, a fused qkv and
 * an output projection with biases and a SwiGLU MLP (w1 the fused gate and up), a final norm;
 * the aligner (width x downsample^2 -> h, then h -> h, with biases) and the image_start,
 * image_end and image_newline embeddings. */
static void v41_vision(struct model_reader *r, struct gs_arch *a, const struct v41_shape *s)
{
    struct model_reader v;
    if (!rd_sub(r, "vision_config", &v) || !r->ok)
        return;
    const uint64_t depth = rd_dim(&v, NAMES("num_hidden_layers"), true, 0);
    const uint64_t vh = rd_dim(&v, NAMES("hidden_size"), true, 0);
    const uint64_t vi = rd_dim(&v, NAMES("intermediate_size"), true, 0);
    const uint64_t patch = rd_dim(&v, NAMES("patch_size"), true, 0);
    const uint64_t down = rd_size(&v, NAMES("downsample_ratio"), 1);
    if (!v.ok) {
        r->ok = false;
        return;
    }
    const enum gs_part p = GS_PART_VISION;
    gs_arch_module(a, "vision.patch_embed.proj", GS_MODULE_LINEAR, GS_SPLIT_NONE, p, GS_MOD_BIAS,
                   3 * patch * patch, vh, 1);
    gs_arch_module(a, "vision.blocks.norm1_norm2", GS_MODULE_NORM, GS_SPLIT_NONE, p, 0, 1, vh,
                   2 * depth);
    gs_arch_module(a, "vision.blocks.attn.wqkv", GS_MODULE_LINEAR, GS_SPLIT_NONE, p, GS_MOD_BIAS,
                   vh, 3 * vh, depth);
    gs_arch_module(a, "vision.blocks.attn.wo", GS_MODULE_LINEAR, GS_SPLIT_NONE, p, GS_MOD_BIAS, vh,
                   vh, depth);
    gs_arch_module(a, "vision.blocks.mlp.w1", GS_MODULE_LINEAR, GS_SPLIT_NONE, p, 0, vh, 2 * vi,
                   depth);
    gs_arch_module(a, "vision.blocks.mlp.w2", GS_MODULE_LINEAR, GS_SPLIT_NONE, p, 0, vi, vh, depth);
    gs_arch_module(a, "vision.norm", GS_MODULE_NORM, GS_SPLIT_NONE, p, 0, 1, vh, 1);
    gs_arch_module(a, "aligner.w1", GS_MODULE_LINEAR, GS_SPLIT_NONE, p, GS_MOD_BIAS,
                   vh * down * down, s->w.hidden, 1);
    gs_arch_module(a, "aligner.w2", GS_MODULE_LINEAR, GS_SPLIT_NONE, p, GS_MOD_BIAS, s->w.hidden,
                   s->w.hidden, 1);
    gs_arch_module(a, "image_start_end_newline", GS_MODULE_TENSOR, GS_SPLIT_NONE, p, 0, 1,
                   s->w.hidden, 3);
}

/* DeepseekV41ForCausalLM: the language model in text_config, the tower in vision_config. */
static void read_deepseek_v41(struct model_reader *r, struct gs_arch *a)
{
    struct model_reader text;
    if (!rd_sub(r, "text_config", &text)) {
        if (r->ok)
            rd_fail(r, "text_config", GS_ERR_INVALID,
                    "is required: DeepSeek-V4.1 keeps its language model there");
        return;
    }
    struct decoder_plan plan;
    struct v41_shape s;
    struct v41_layer role[GS_LAYERS_MAX];
    uint64_t candidate_blocks = 0;
    if (!v41_read_shape(&text, a, &plan, &s) || plan.layers > GS_LAYERS_MAX ||
        !v41_read_layers(&text, plan.layers, role, &candidate_blocks)) {
        r->ok = false;
        return;
    }
    /* one block per distinct role */
    struct v41_layer made[GS_BLOCKS_MAX];
    size_t block[GS_BLOCKS_MAX], kinds = 0;
    gs_arch_set_layers(a, plan.layers, 0);
    for (uint64_t l = 0; l < plan.layers; l++) {
        size_t k = 0;
        while (k < kinds && memcmp(&made[k], &role[l], sizeof(role[l])) != 0)
            k++;
        if (k == kinds && kinds < GS_BLOCKS_MAX) {
            made[kinds] = role[l];
            block[kinds++] = v41_block(a, &s, &role[l]);
        }
        gs_arch_set_layer(a, l, k < kinds ? block[k] : GS_BLOCKS_MAX);
    }
    gs_arch_embeddings(a, a->hidden_size, "head", false);
    gs_build_norms(a, GS_BLOCKS_MAX, "norm", 1, false);
    v41_dspark(&text, a, &s);
    v41_vision(r, a, &s);
    a->mtp_hidden_width = s.w.streams * s.w.hidden; /* DeepseekV41Model.hc_dim */
    a->candidate_blocks = candidate_blocks;
    a->engram_hash_cols = s.engram_orders * s.engram_heads; /* Engram n_hash_cols */
    a->engram_head_dim = s.engram_dim;
    if (!text.ok)
        r->ok = false;
    /* no transformers class: nothing runs it in training (a->training_refusal) */
    a->training_refusal = "DeepSeek-V4.1 (DeepseekV41ForCausalLM) has no transformers class and "
                          "no training recipe gpusizer sizes; it is sized for serving only";
}

const struct model_type MODELS_DEEPSEEK_V41[] = {
    {"deepseek_v41", "DeepseekV41ForCausalLM", read_deepseek_v41},
    {NULL, NULL, NULL},
};
