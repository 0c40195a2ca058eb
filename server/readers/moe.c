/*
 * moe.c - decoders of 2025-26 with their own routers and layouts: Tencent
 * Hunyuan (dense and MoE, Hy3), Xiaomi MiMo-V2-Flash, MiniMax-M3, Zyphra's
 * ZAYA1, LG's EXAONE 4 decoder and inclusionAI's Bailing (Ling and Ring 2.0
 * to 3.0), which no other reader file fits (see reader.h).
 *
 * Each reader names the transformers (5.x) class whose module shapes it
 * counts and the vLLM model file that serves it; the published counts each
 * reproduces are written out in tests/fixtures/configs/<model_type>/README.md
 * and checked in tests/server/test_models_moe.c.
 */
#include "readers/decoder.h"
#include "readers/kda.h"

#include <string.h>

/* ---------------------------------------------------------------- toolkit */

/* A per-layer setting that configs give either as one integer or as a list
 * with one entry per layer (Hunyuan's num_experts, moe_topk,
 * num_shared_expert). gpusizer describes one routed block, so a list must
 * hold one value throughout; `fallback` when the member is absent. */
static uint64_t uniform_dim(struct model_reader *r, const char *name, uint64_t fallback)
{
    const json_t *v = rd_get(r, name);
    if (v == NULL || json_is_integer(v))
        return rd_dim(r, NAMES(name), false, fallback);
    if (!json_is_array(v) || json_array_size(v) == 0) {
        rd_fail(r, name, GS_ERR_INVALID, "must be an integer or a list of integers");
        return 0;
    }
    const json_t *first = json_array_get(v, 0);
    for (size_t i = 0; i < json_array_size(v); i++) {
        const json_t *e = json_array_get(v, i);
        if (!json_is_integer(e) || json_integer_value(e) < 1 ||
            (uint64_t)json_integer_value(e) > GS_ARCH_DIM_MAX) {
            rd_fail(r, name, GS_ERR_INVALID, "entry %zu is not a positive integer", i);
            return 0;
        }
        if (json_integer_value(e) != json_integer_value(first)) {
            rd_fail(r, name, GS_ERR_UNSUPPORTED,
                    "entry %zu differs from entry 0: gpusizer reads one value for every layer", i);
            return 0;
        }
    }
    return (uint64_t)json_integer_value(first);
}

/* Adds a per-head RMSNorm pair under Hunyuan's names to every attention
 * block built so far (the count is Qwen3's q_norm/k_norm). */
static void add_head_norms(struct gs_arch *a, const char *q, const char *k, uint64_t head_dim)
{
    for (size_t b = 0; b < a->block_count; b++) {
        if (a->blocks[b].mixer != GS_MIXER_ATTENTION)
            continue;
        gs_block_module(a, b, q, GS_MODULE_NORM, GS_SPLIT_NONE, GS_PART_ATTENTION, 0, 1, head_dim,
                        1);
        gs_block_module(a, b, k, GS_MODULE_NORM, GS_SPLIT_NONE, GS_PART_ATTENTION, 0, 1, head_dim,
                        1);
    }
}

/* ----------------------------------------------------------------- Hunyuan */

/* Hunyuan's cross-layer attention shares one layer's keys and values with
 * the next cla_share_factor - 1 (vLLM hunyuan_v1.py _get_cla_factor);
 * transformers' classes do not implement it, and no released checkpoint
 * turns it on. */
static void refuse_cla(struct model_reader *r)
{
    if (rd_flag(r, "use_cla", false))
        rd_fail(r, "use_cla", GS_ERR_UNSUPPORTED,
                "cross-layer attention (KV shared between layers) is not one gpusizer sizes");
}

/* HunYuanDenseV1ForCausalLM (transformers models/hunyuan_v1_dense/
 * modular_hunyuan_v1_dense.py; vLLM models/hunyuan_v1.py): Llama's layer
 * with attention_bias on q, k, v and o, a SwiGLU MLP without biases, and
 * query_layernorm/key_layernorm RMSNorms over head_dim that the class
 * always builds (use_qk_norm only names them for vLLM). head_dim defaults to
 * hidden / heads (published configs say attention_head_dim). */
static void read_hunyuan_v1_dense(struct model_reader *r, struct gs_arch *a)
{
    struct decoder_plan plan;
    decoder_read_dims(r, a, &plan, false, 0, false);
    refuse_cla(r);
    const bool bias = rd_flag(r, "attention_bias", false);
    const struct decoder_traits t = {.norms = 2, .qkv_bias = bias, .o_bias = bias};
    decoder_build(r, a, &plan, &t);
    if (r->ok)
        add_head_norms(a, "query_layernorm", "key_layernorm", plan.head_dim);
}

/* HunYuanMoEV1ForCausalLM (transformers models/hunyuan_v1_moe/
 * modular_hunyuan_v1_moe.py; vLLM models/hunyuan_v1.py): the dense model's
 * attention, and in every layer HunYuanMoEV1Moe - a router gate.wg
 * (Linear(hidden, num_experts), no bias, kept in fp32), num_experts experts
 * (MixtralExperts, fused gate_up and down) and one shared_mlp, all SwiGLU of
 * intermediate_size. transformers takes that width for both; vLLM sizes the
 * experts by moe_intermediate_size and the shared MLP by intermediate_size x
 * num_shared_expert, which the released configs make the same. num_experts
 * and moe_topk may be per-layer lists. */
static void read_hunyuan_v1_moe(struct model_reader *r, struct gs_arch *a)
{
    struct decoder_plan plan;
    decoder_read_dims(r, a, &plan, false, 0, false);
    refuse_cla(r);
    struct gs_moe *m = &plan.experts;
    m->experts = uniform_dim(r, "num_experts", 1);
    m->top_k = uniform_dim(r, "moe_topk", 1);
    m->width = plan.intermediate;
    m->gated = true;
    m->shared_width = plan.intermediate;
    m->router_name = "gate.wg";
    decoder_moe_from(&plan, 0);
    const bool bias = rd_flag(r, "attention_bias", false);
    const struct decoder_traits t = {.norms = 2, .qkv_bias = bias, .o_bias = bias};
    decoder_build(r, a, &plan, &t);
    if (r->ok)
        add_head_norms(a, "query_layernorm", "key_layernorm", plan.head_dim);
}

/* -------------------------------------------------------------- MiMo-V2 */

/* A per-layer 0/1 list `name` (MiMo's hybrid_layer_pattern, moe_layer_freq)
 * into out[]: true where the entry is 1. False when absent; an error when it
 * is not `layers` entries of 0 or 1. */
static bool flag_list(struct model_reader *r, const char *name, uint64_t layers,
                      bool out[GS_LAYERS_MAX])
{
    const json_t *list = NULL;
    const size_t n = rd_array(r, name, &list);
    if (list == NULL || !r->ok)
        return false;
    if (n != layers) {
        rd_fail(r, name, GS_ERR_INVALID, "has %zu entries for %llu layers", n,
                (unsigned long long)layers);
        return false;
    }
    for (size_t l = 0; l < n && l < GS_LAYERS_MAX; l++) {
        const json_t *v = json_array_get(list, l);
        if (!json_is_integer(v) || json_integer_value(v) < 0 || json_integer_value(v) > 1) {
            rd_fail(r, name, GS_ERR_INVALID, "entry %zu is not 0 or 1", l);
            return false;
        }
        out[l] = json_integer_value(v) == 1;
    }
    return true;
}

/* One MiMo-V2 layer kind: full attention (kv_heads, no sinks) or sliding
 * (swa_kv_heads and a sink logit per head), a dense MLP or the routed
 * experts, two RMSNorms. */
static size_t mimo_block(struct gs_arch *a, const struct decoder_plan *plan, uint64_t v_head_dim,
                         uint64_t swa_kv_heads, bool qkv_bias, bool sliding, bool routed,
                         const struct gs_attention_names *names)
{
    const size_t b = gs_arch_new_block(a);
    struct gs_attention spec;
    memset(&spec, 0, sizeof(spec));
    spec.heads = plan->heads;
    spec.kv_heads = sliding ? swa_kv_heads : plan->kv_heads;
    spec.head_dim = plan->head_dim;
    spec.v_head_dim = v_head_dim;
    spec.cached = true;
    if (sliding) {
        spec.span = GS_SPAN_SLIDING;
        spec.window = plan->window;
    }
    gs_build_attention(a, b, &spec, names, qkv_bias, false);
    if (sliding)
        gs_block_module(a, b, "sinks", GS_MODULE_TENSOR, GS_SPLIT_COLUMN, GS_PART_ATTENTION, 0, 1,
                        plan->heads, 1);
    if (routed)
        gs_build_moe(a, b, &plan->experts);
    else
        gs_build_mlp(a, b, plan->intermediate, true, false, &GS_MLP_NAMES);
    gs_build_norms(a, b, "layernorm", 2, false);
    return b;
}

/* MiMoV2FlashForCausalLM (transformers models/mimo_v2_flash/
 * modular_mimo_v2_flash.py; vLLM models/mimo_v2_flash.py). Attention with
 * q/k head_dim and a narrower v_head_dim (o_proj reads heads x v_head_dim;
 * vLLM caches K and V at their own widths, FlashAttentionDiffKVBackend);
 * sliding layers (layer_types, the hub config's hybrid_layer_pattern 1, or
 * by default all but layer 0 and every sixth) have twice the KV heads
 * (swa_num_key_value_heads) and a sink logit per head, within
 * sliding_window tokens. Sparse layers (mlp_layer_types, moe_layer_freq, or
 * all but the first) hold DeepSeek-V3's router (e_score_correction_bias a
 * buffer) and n_routed_experts experts of moe_intermediate_size, no shared
 * expert; dense layers a SwiGLU of intermediate_size. attention_bias on q,
 * k and v only; untied.
 * The checkpoint's MTP layers (model.mtp.*) are ignored by transformers
 * and their number is not in the config. */
static void read_mimo_v2_flash(struct model_reader *r, struct gs_arch *a)
{
    struct decoder_plan plan;
    decoder_read_dims(r, a, &plan, false, 192, false);
    const uint64_t v_head_dim = rd_dim(r, NAMES("v_head_dim"), false, 128);
    const uint64_t swa_kv = rd_dim(r, NAMES("swa_num_key_value_heads"), false, 2 * plan.kv_heads);
    plan.window = rd_dim(r, NAMES("sliding_window", "sliding_window_size"), false, 128);
    if (!decoder_read_layer_types(r, &plan) &&
        !flag_list(r, "hybrid_layer_pattern", plan.layers, plan.sliding) && r->ok)
        for (uint64_t l = 0; l < plan.layers && l < GS_LAYERS_MAX; l++)
            plan.sliding[l] = l != 0 && (l + 1) % 6 != 0;
    if (!rd_kind_list(r, "mlp_layer_types", "sparse", "dense", plan.layers, plan.moe) &&
        !flag_list(r, "moe_layer_freq", plan.layers, plan.moe) && r->ok)
        decoder_moe_from(&plan, 1);
    struct gs_moe *m = &plan.experts;
    m->experts = rd_dim(r, NAMES("n_routed_experts"), true, 0);
    m->top_k = rd_dim(r, NAMES("num_experts_per_tok"), true, 0);
    m->width = rd_dim(r, NAMES("moe_intermediate_size"), true, 0);
    m->gated = true;
    /* MiMoV2FlashTopkRouter holds self.weight as a bare parameter and scores in fp32
     * (modeling_mimo_v2_flash.py: F.linear(hidden_states.type(torch.float32),
     * self.weight.type(torch.float32))): no LoRA target adapts it */
    m->router_parameter = true;
    m->router_fp32 = true;
    /* and its e_score_correction_bias, an nn.Buffer kept in fp32 (_keep_in_fp32_modules_strict)
     * that the checkpoint stores (MiMo-V2.5's inventory: layers 1-47 x [256] float32) */
    m->router_buffer = m->experts;
    const bool bias = rd_flag(r, "attention_bias", false);
    /* MiMo-V2.5's checkpoints (model_type mimo_v2, attention_projection_layout "fused_qkv") store
     * one self_attn.qkv_proj of heads x head_dim + 2 x kv_heads x (head_dim, v_head_dim) rows */
    static const struct gs_attention_names fused = {NULL, NULL, NULL, "o_proj", "qkv_proj"};
    const char *layout = rd_string(r, "attention_projection_layout");
    const struct gs_attention_names *names =
        layout != NULL && strcmp(layout, "fused_qkv") == 0 ? &fused : &GS_ATTENTION_NAMES;
    const double rotary = rd_number(r, "partial_rotary_factor", 0.334);
    const bool two_bases = rd_number(r, "swa_rope_theta", 10000) != rd_number(r, "rope_theta", 5e6);
    if (!r->ok)
        return;
    size_t kinds[2][2];
    bool made[2][2] = {{false, false}, {false, false}};
    gs_arch_set_layers(a, plan.layers, 0);
    for (uint64_t l = 0; l < plan.layers && l < GS_LAYERS_MAX; l++) {
        const int s = plan.sliding[l], e = plan.moe[l];
        if (!made[s][e]) {
            kinds[s][e] = mimo_block(a, &plan, v_head_dim, swa_kv, bias, s, e, names);
            made[s][e] = true;
        }
        gs_arch_set_layer(a, l, kinds[s][e]);
    }
    gs_arch_embeddings(a, a->hidden_size, "lm_head", false);
    gs_build_norms(a, GS_BLOCKS_MAX, "norm", 1, false);
    /* vLLM builds the sliding layers' rope with swa_rope_theta: a second cos/sin table of the
     * same rotary width (models_read adds the full layers' one as table 0) */
    if (two_bases && rotary > 0 && rotary <= 1 && a->max_position_embeddings) {
        a->rope_tables[1] = (struct gs_rope_table){a->max_position_embeddings,
                                                   (uint64_t)((double)plan.head_dim * rotary)};
        a->rope_table_count = 2;
    }
}

/* ---------------------------------------------------------------- EXAONE 4 */

/* Which layers attend through the window when a config has no layer_types,
 * from Exaone4Config's sliding_window_pattern: a string of L (local) and G
 * (global) repeating from layer 0, the last layer always global; an integer
 * p, every p-th layer global ((l + 1) % p == 0); absent, the class default 4. */
static void exaone4_pattern(struct model_reader *r, struct decoder_plan *plan)
{
    const json_t *pattern = json_object_get(r->config, "sliding_window_pattern");
    if (json_is_string(pattern)) {
        const char *p = json_string_value(pattern);
        const size_t n = strlen(p);
        for (size_t i = 0; i < n; i++)
            if (p[i] != 'L' && p[i] != 'G') {
                rd_fail(r, "sliding_window_pattern", GS_ERR_INVALID,
                        "character %zu is not L (local) or G (global)", i);
                return;
            }
        for (uint64_t l = 0; n > 0 && l < plan->layers && l < GS_LAYERS_MAX; l++)
            plan->sliding[l] = p[l % n] == 'L' && l + 1 != plan->layers;
        return;
    }
    decoder_window_pattern(plan, rd_dim(r, NAMES("sliding_window_pattern"), false, 4));
}

/* EXAONE 4's local layers: sliding_window tokens (Exaone4Config's 4096; null: every layer
 * global), on the layers layer_types marks, else by sliding_window_pattern. */
static void exaone4_windows(struct model_reader *r, struct decoder_plan *plan)
{
    const json_t *window = json_object_get(r->config, "sliding_window");
    plan->window = json_is_null(window) ? 0 : rd_dim(r, NAMES("sliding_window"), false, 4096);
    if (plan->window > 0 && !decoder_read_layer_types(r, plan) && r->ok)
        exaone4_pattern(r, plan);
}

/* Exaone4ForCausalLM (transformers models/exaone4/modular_exaone4.py; vLLM
 * models/exaone4.py): Llama's attention without biases and per-head q_norm
 * and k_norm RMSNorms over head_dim; Olmo2's decoder layer (the norms on the
 * sublayer outputs: post_attention_layernorm and post_feedforward_layernorm,
 * no input norm) and SwiGLU MLP. Local layers (layer_types, else
 * sliding_window_pattern) attend within sliding_window tokens; a
 * sliding_window of null makes every layer global (the 1.2B). The global
 * layers of the hybrid models skip RoPE, which changes no memory. */
static void read_exaone4(struct model_reader *r, struct gs_arch *a)
{
    struct decoder_plan plan;
    decoder_read_dims(r, a, &plan, false, 0, false);
    exaone4_windows(r, &plan);
    const struct decoder_traits t = {.norms = 2, .qk_norm = QK_HEAD};
    decoder_build(r, a, &plan, &t);
}

/* ExaoneMoeForCausalLM (transformers models/exaone_moe/modular_exaone_moe.py; LG's K-EXAONE):
 * EXAONE 4's attention (no biases, q_norm and k_norm over head_dim, local layers by layer_types
 * or sliding_window_pattern) in OlmoeDecoderLayer's pre-norm layer (input_layernorm,
 * post_attention_layernorm), and DeepSeek-V3's MoE on the layers mlp_layer_types marks
 * "sparse" (else from first_k_dense_replace, default 1): DeepseekV3TopkRouter's bare weight,
 * scored in fp32, with its e_score_correction_bias buffer, num_experts fused experts of
 * moe_intermediate_size, a shared MLP moe_intermediate_size x num_shared_experts wide; dense
 * layers a SwiGLU of intermediate_size. The checkpoint's mtp.* layers transformers skips
 * (_keys_to_ignore_on_load_unexpected) are not described: their layout was not in reach. */
static void read_exaone_moe(struct model_reader *r, struct gs_arch *a)
{
    struct decoder_plan plan;
    decoder_read_dims(r, a, &plan, false, 0, false);
    exaone4_windows(r, &plan);
    struct gs_moe *m = &plan.experts;
    m->experts = rd_dim(r, NAMES("num_experts"), false, 64);
    m->top_k = rd_dim(r, NAMES("num_experts_per_tok"), false, 8);
    m->width = rd_dim(r, NAMES("moe_intermediate_size"), false, 1024);
    m->gated = true;
    m->shared_width = m->width * rd_dim(r, NAMES("num_shared_experts"), false, 1);
    m->router_parameter = true;
    m->router_fp32 = true;
    m->router_buffer = m->experts;
    if (!rd_kind_list(r, "mlp_layer_types", "sparse", "dense", plan.layers, plan.moe) && r->ok)
        decoder_moe_from(&plan, rd_dim(r, NAMES("first_k_dense_replace"), false, 1));
    if (!r->ok)
        return;
    const struct decoder_traits t = {.norms = 2, .qk_norm = QK_HEAD};
    decoder_build(r, a, &plan, &t);
}

/* ------------------------------------------------------------ MiniMax-M3 */

/* Which layers run MiniMax-M3's sparse attention, from the released
 * sparse_attention_config.sparse_attention_freq (0/1 per layer), else from
 * layer_types (MiniMaxM3VLTextConfig.__post_init__ turns the one into the
 * other): false, and none of them, when the config names neither or turns
 * sparse attention off. */
static bool sparse_layers(struct model_reader *r, uint64_t layers, bool out[GS_LAYERS_MAX])
{
    struct model_reader sparse;
    if (!rd_sub(r, "sparse_attention_config", &sparse) || !r->ok)
        return rd_kind_list(r, "layer_types", "minimax_m3_sparse", "full_attention", layers, out);
    if (!rd_flag(&sparse, "use_sparse_attention", true))
        return false;
    const bool listed = flag_list(&sparse, "sparse_attention_freq", layers, out);
    if (!sparse.ok)
        r->ok = false;
    return listed ||
           rd_kind_list(r, "layer_types", "minimax_m3_sparse", "full_attention", layers, out);
}

/* The lightning indexer's shape (sparse_attention_config: sparse_num_index_heads
 * query heads of sparse_index_dim, one key head, sparse_topk_blocks blocks of
 * sparse_block_size tokens; MiniMaxM3VLTextConfig's flat index_n_heads,
 * index_head_dim, index_topk_blocks and index_block_size, defaults 4, 128, 16
 * and 128, where the block is absent) into `spec`. */
static void read_indexer(struct model_reader *r, struct gs_attention *spec)
{
    struct model_reader sparse;
    if (!rd_sub(r, "sparse_attention_config", &sparse)) {
        if (!r->ok)
            return;
        spec->index_heads = rd_size(r, NAMES("index_n_heads"), 4);
        spec->index_head_dim = rd_size(r, NAMES("index_head_dim"), 128);
        spec->index_block = rd_size(r, NAMES("index_block_size"), 128);
        spec->index_topk = rd_size(r, NAMES("index_topk_blocks"), 16) * spec->index_block;
        return;
    }
    spec->index_heads = rd_dim(&sparse, NAMES("sparse_num_index_heads"), true, 0);
    spec->index_head_dim = rd_dim(&sparse, NAMES("sparse_index_dim"), true, 0);
    spec->index_block = rd_dim(&sparse, NAMES("sparse_block_size"), false, 128);
    spec->index_topk = rd_dim(&sparse, NAMES("sparse_topk_blocks"), false, 16) * spec->index_block;
    if (!sparse.ok)
        r->ok = false;
}

/* One MiniMax-M3 layer kind: attention (q/k/v/o without biases and the
 * per-head q_norm/k_norm), on sparse layers the indexer's index_q_proj
 * (index heads x index dim), index_k_proj (one key head) and their per-head
 * norms; the dense SwiGLU of dense_intermediate_size or the routed experts;
 * two Gemma RMSNorms. */
static size_t minimax_m3_block(struct gs_arch *a, const struct decoder_plan *plan,
                               const struct gs_attention *indexer, uint64_t dense_width,
                               bool sparse, bool routed)
{
    const size_t b = gs_arch_new_block(a);
    struct gs_attention spec;
    memset(&spec, 0, sizeof(spec));
    spec.heads = plan->heads;
    spec.kv_heads = plan->kv_heads;
    spec.head_dim = plan->head_dim;
    spec.cached = true;
    if (sparse) {
        spec.index_heads = indexer->index_heads;
        spec.index_head_dim = indexer->index_head_dim;
        spec.index_topk = indexer->index_topk;
        spec.index_block = indexer->index_block;
    }
    gs_build_attention(a, b, &spec, &GS_ATTENTION_NAMES, false, false);
    gs_block_module(a, b, "q_norm", GS_MODULE_NORM, GS_SPLIT_NONE, GS_PART_ATTENTION, 0, 1,
                    plan->head_dim, 1);
    gs_block_module(a, b, "k_norm", GS_MODULE_NORM, GS_SPLIT_NONE, GS_PART_ATTENTION, 0, 1,
                    plan->head_dim, 1);
    if (sparse) {
        const uint64_t d = indexer->index_head_dim;
        gs_block_module(a, b, "index_q_proj", GS_MODULE_LINEAR, GS_SPLIT_KV, GS_PART_ATTENTION,
                        GS_MOD_QUANT, a->hidden_size, indexer->index_heads * d, 1);
        gs_block_module(a, b, "index_k_proj", GS_MODULE_LINEAR, GS_SPLIT_NONE, GS_PART_ATTENTION,
                        GS_MOD_QUANT, a->hidden_size, d, 1);
        gs_block_module(a, b, "index_q_norm", GS_MODULE_NORM, GS_SPLIT_NONE, GS_PART_ATTENTION, 0,
                        1, d, 1);
        gs_block_module(a, b, "index_k_norm", GS_MODULE_NORM, GS_SPLIT_NONE, GS_PART_ATTENTION, 0,
                        1, d, 1);
    }
    if (routed)
        gs_build_moe(a, b, &plan->experts);
    else
        gs_build_mlp(a, b, dense_width, true, false, &GS_MLP_NAMES);
    gs_build_norms(a, b, "layernorm", 2, false);
    return b;
}

/* MiniMaxM3ForCausalLM, and the language model of the released minimax_m3_vl
 * (multimodal.c). The count follows the tensors vLLM builds and loads
 * (models/minimax_m3, NVIDIA and AMD model.py: MiniMaxM3DecoderLayer,
 * MiniMaxM3SparseAttention, MiniMaxM3MoE), which transformers' text model
 * of 5.12 on (modeling_minimax_m3_vl.py MiniMaxM3VLTextModel, model_type
 * minimax_m3_vl_text) builds too; the layer lists may also be that class's
 * layer_types ("minimax_m3_sparse") and mlp_layer_types, the indexer's
 * shape its flat index_* keys, and the shared expert's width its
 * shared_intermediate_size. Every layer: GQA attention with per-head Gemma q/k norms,
 * input and post-attention Gemma RMSNorms. Layers flagged in
 * sparse_attention_config.sparse_attention_freq add the lightning indexer:
 * index_q_proj (sparse_num_index_heads x sparse_index_dim, sharded like the
 * KV heads), index_k_proj (one key head, replicated), index_q_norm and
 * index_k_norm; its keys go to a side cache of sparse_index_dim values per
 * token (MiniMaxM3IndexerCache, bf16 by default). Layers flagged in
 * moe_layer_freq hold block_sparse_moe: a fp32 gate Linear(hidden,
 * num_local_experts), e_score_correction_bias (use_routing_bias; stored in
 * the checkpoint, counted as a buffer as for DeepSeek's router),
 * num_local_experts experts of intermediate_size and a shared expert of
 * intermediate_size x n_shared_experts; the others a SwiGLU of
 * dense_intermediate_size. Untied head. vLLM skips the checkpoint's mtp.*
 * tensors, whose shapes the config does not state: they are not counted. */
static void read_minimax_m3(struct model_reader *r, struct gs_arch *a)
{
    struct decoder_plan plan;
    decoder_read_dims(r, a, &plan, false, 0, false);
    const uint64_t dense_width = rd_dim(r, NAMES("dense_intermediate_size"), false,
                                        plan.intermediate);
    struct gs_moe *m = &plan.experts;
    m->experts = rd_dim(r, NAMES("num_local_experts"), true, 0);
    m->top_k = rd_dim(r, NAMES("num_experts_per_tok"), true, 0);
    m->width = plan.intermediate;
    m->gated = true;
    /* transformers' MiniMaxM3VLSparseMoeBlock sizes its shared expert by
     * shared_intermediate_size; vLLM by intermediate_size x n_shared_experts (the release
     * gives both, 3072) */
    m->shared_width = rd_dim(r, NAMES("shared_intermediate_size"), false,
                             plan.intermediate * rd_dim(r, NAMES("n_shared_experts"), false, 0));
    m->router_buffer = rd_flag(r, "use_routing_bias", false) ? m->experts : 0;
    m->router_name = "gate";
    if (!flag_list(r, "moe_layer_freq", plan.layers, plan.moe) && r->ok &&
        !rd_kind_list(r, "mlp_layer_types", "sparse", "dense", plan.layers, plan.moe) && r->ok)
        decoder_moe_from(&plan, rd_dim(r, NAMES("first_k_dense_replace"), false, 0));
    bool sparse[GS_LAYERS_MAX];
    memset(sparse, 0, sizeof(sparse));
    struct gs_attention indexer;
    memset(&indexer, 0, sizeof(indexer));
    if (sparse_layers(r, plan.layers, sparse))
        read_indexer(r, &indexer);
    if (rd_flag(r, "attention_output_gate", false))
        rd_fail(r, "attention_output_gate", GS_ERR_UNSUPPORTED,
                "a gated attention output is not one gpusizer sizes for MiniMax-M3");
    if (!r->ok)
        return;
    size_t kinds[2][2];
    bool made[2][2] = {{false, false}, {false, false}};
    gs_arch_set_layers(a, plan.layers, 0);
    for (uint64_t l = 0; l < plan.layers && l < GS_LAYERS_MAX; l++) {
        const int s = sparse[l], e = plan.moe[l];
        if (!made[s][e]) {
            kinds[s][e] = minimax_m3_block(a, &plan, &indexer, dense_width, s, e);
            made[s][e] = true;
        }
        gs_arch_set_layer(a, l, kinds[s][e]);
    }
    gs_arch_embeddings(a, a->hidden_size, "lm_head", false);
    gs_build_norms(a, GS_BLOCKS_MAX, "norm", 1, false);
}

/* ------------------------------------------------------------------- Hy3 */

/* HYV3ForCausalLM (transformers 5.6, models/hy_v3/modular_hy_v3.py; tencent/Hy3-preview):
 * ApertusAttention's layer (q/k/v/o with attention_bias, q_norm and k_norm RMSNorms over
 * head_dim) with DeepSeek-V3's two norms; mlp_layer_types (else the first layer dense, the
 * others sparse) puts HYV3MoE on the sparse layers - HYV3TopKRouter's bare weight scored in fp32
 * (F.linear(hidden_states.float(), self.weight.float())), the e_score_correction_bias buffer
 * (nn.Buffer, kept in fp32), Qwen3MoeExperts' fused experts of moe_intermediate_size and one
 * shared HYV3MLP moe_intermediate_size x num_shared_experts wide - and a SwiGLU MLP of
 * intermediate_size on the dense ones. The MTP layer the checkpoint stores (model.layers.80)
 * transformers skips and the config does not describe. Untied by default. */
static void read_hy_v3(struct model_reader *r, struct gs_arch *a)
{
    struct decoder_plan plan;
    decoder_read_dims(r, a, &plan, false, 0, false);
    decoder_read_experts(r, &plan, false);
    struct gs_moe *m = &plan.experts;
    m->shared_width = m->width * rd_dim(r, NAMES("num_shared_experts"), false, 1);
    m->router_parameter = true;
    m->router_fp32 = true;
    m->router_buffer = m->experts;
    m->experts_fused = true;
    if (!rd_kind_list(r, "mlp_layer_types", "sparse", "dense", plan.layers, plan.moe) && r->ok)
        decoder_moe_from(&plan, 1);
    const bool bias = rd_flag(r, "attention_bias", false);
    const struct decoder_traits t = {.norms = 2,
                                     .qk_norm = QK_HEAD,
                                     .qkv_bias = bias,
                                     .o_bias = bias,
                                     .mlp_bias = rd_flag(r, "mlp_bias", false)};
    decoder_build(r, a, &plan, &t);
}

/* -------------------------------------------------------------------- ZAYA */

/* What ZayaConfig says about the stack (configuration_zaya.py; its defaults are
 * Zyphra/ZAYA1-8B's). */
struct zaya {
    uint64_t hidden, layers, heads, kv_heads, head_dim, experts, top_k, width, router, t0, t1;
    bool bias;
};

/* One kind of ZayaDecoderLayer: `eda` says whether its router adds the previous layer's router
 * state (router_states_scale: every layer but the first). */
static size_t zaya_block(struct gs_arch *a, const struct zaya *z, bool eda)
{
    const size_t b = gs_arch_new_block(a);
    struct gs_block *blk = gs_arch_block(a, b);
    if (blk == NULL)
        return GS_BLOCKS_MAX;
    const uint64_t h = z->hidden, q = z->heads * z->head_dim, kv = z->kv_heads * z->head_dim;
    const uint64_t conv = q + kv, R = z->router;
    blk->mixer = GS_MIXER_ATTENTION;
    blk->attn.heads = z->heads;
    blk->attn.kv_heads = z->kv_heads;
    blk->attn.head_dim = blk->attn.v_head_dim = z->head_dim;
    blk->attn.cached = true;
    blk->attn.rotary_partial = true; /* partial_rotary_factor 0.5 (qwen3_5_moe's rotary) */
    /* ZayaCCAProjection: q and k through two causal convolutions over time (depthwise, then
     * one group a head), V from the current token's projection and the previous token's; a
     * sequence keeps the convolutions' last (t0 - 1) + (t1 - 1) q/k columns and the delayed
     * V projection of its last token (vLLM CCA: conv_states [q + kv, kernel], recurrent_states
     * [kv / 2], both in the model dtype) */
    blk->rec.conv_channels = conv;
    blk->rec.conv_kernel = (z->t0 - 1) + (z->t1 - 1) + 1;
    blk->rec.state_heads = 1;
    blk->rec.state_rows = kv / 2;
    blk->rec.state_cols = 1;
    blk->rec.ssm_flag_ignored = true; /* cca_state_dtype takes mamba_cache_dtype alone */
    const unsigned f = GS_MOD_QUANT | (z->bias ? GS_MOD_BIAS : 0);
    /* vLLM replicates CCA on every rank ("CCA currently replicates heads"): split none */
    gs_block_module(a, b, "self_attn.qkv_proj.q_proj", GS_MODULE_LINEAR, GS_SPLIT_NONE,
                    GS_PART_ATTENTION, f, h, q, 1);
    gs_block_module(a, b, "self_attn.qkv_proj.k_proj", GS_MODULE_LINEAR, GS_SPLIT_NONE,
                    GS_PART_ATTENTION, f, h, kv, 1);
    gs_block_module(a, b, "self_attn.qkv_proj.v_proj_current", GS_MODULE_LINEAR, GS_SPLIT_NONE,
                    GS_PART_ATTENTION, f, h, kv / 2, 1);
    gs_block_module(a, b, "self_attn.qkv_proj.v_proj_delayed", GS_MODULE_LINEAR, GS_SPLIT_NONE,
                    GS_PART_ATTENTION, f, h, kv / 2, 1);
    /* a channel's weights and its bias (nn.Conv1d's default bias=True on both, whatever
     * attention_bias says): depthwise t0 a channel, grouped one head's head_dim x t1 */
    gs_block_module(a, b, "self_attn.qkv_proj.conv_qk_depthwise", GS_MODULE_TENSOR, GS_SPLIT_NONE,
                    GS_PART_ATTENTION, 0, conv, z->t0 + 1, 1);
    gs_block_module(a, b, "self_attn.qkv_proj.conv_qk_grouped", GS_MODULE_TENSOR, GS_SPLIT_NONE,
                    GS_PART_ATTENTION, 0, conv, z->head_dim * z->t1 + 1, 1);
    gs_block_module(a, b, "self_attn.qk_norm.temp", GS_MODULE_TENSOR, GS_SPLIT_NONE,
                    GS_PART_ATTENTION, 0, 1, z->kv_heads, 1);
    gs_block_module(a, b, "self_attn.o_proj", GS_MODULE_LINEAR, GS_SPLIT_NONE, GS_PART_ATTENTION, f,
                    q, h, 1);
    /* ZayaSparseMoeBlock: ZayaRouter (down_proj h -> R with bias, the EDA scale, ZayaRouterMLP:
     * an RMSNorm, fc1 and fc2 R -> R with biases, out_proj R -> experts + 1, the last class
     * "skip"; balancing_biases an fp32 buffer the checkpoint stores), ZayaExperts fused */
    blk->mlp.kind = GS_MLP_MOE;
    blk->mlp.gated = true;
    blk->mlp.width = z->width;
    blk->mlp.experts = z->experts;
    blk->mlp.top_k = z->top_k;
    blk->mlp.experts_fused = true;
    gs_block_module(a, b, "mlp.gate.down_proj", GS_MODULE_LINEAR, GS_SPLIT_NONE, GS_PART_EXPERTS,
                    GS_MOD_BIAS, h, R, 1);
    if (eda)
        gs_block_module(a, b, "mlp.gate.router_states_scale", GS_MODULE_TENSOR, GS_SPLIT_NONE,
                        GS_PART_EXPERTS, 0, 1, R, 1);
    gs_block_module(a, b, "mlp.gate.router_mlp.norm", GS_MODULE_NORM, GS_SPLIT_NONE,
                    GS_PART_EXPERTS, 0, 1, R, 1);
    gs_block_module(a, b, "mlp.gate.router_mlp.fc1", GS_MODULE_LINEAR, GS_SPLIT_NONE,
                    GS_PART_EXPERTS, GS_MOD_BIAS, R, R, 1);
    gs_block_module(a, b, "mlp.gate.router_mlp.fc2", GS_MODULE_LINEAR, GS_SPLIT_NONE,
                    GS_PART_EXPERTS, GS_MOD_BIAS, R, R, 1);
    gs_block_module(a, b, "mlp.gate.router_mlp.out_proj", GS_MODULE_LINEAR, GS_SPLIT_NONE,
                    GS_PART_EXPERTS, 0, R, z->experts + 1, 1);
    gs_block_module(a, b, "mlp.gate.balancing_biases", GS_MODULE_TENSOR, GS_SPLIT_NONE,
                    GS_PART_EXPERTS, GS_MOD_BUFFER, 1, z->experts + 1, 1);
    const unsigned e = GS_MOD_QUANT | GS_MOD_EXPERT;
    gs_block_module(a, b, "mlp.experts.gate_up_proj", GS_MODULE_LINEAR, GS_SPLIT_COLUMN,
                    GS_PART_EXPERTS, e, h, 2 * z->width, z->experts);
    gs_block_module(a, b, "mlp.experts.down_proj", GS_MODULE_LINEAR, GS_SPLIT_ROW, GS_PART_EXPERTS,
                    e, z->width, h, z->experts);
    gs_build_norms(a, b, "input_layernorm", 1, false);
    gs_build_norms(a, b, "post_attention_layernorm", 1, false);
    /* ZayaResidualScaling after the attention and after the MLP: hidden_states_scale and _bias,
     * residual_scale and _bias, each a vector of h */
    gs_block_module(a, b, "post_attention_residual_scale", GS_MODULE_TENSOR, GS_SPLIT_NONE,
                    GS_PART_OTHER, 0, 4, h, 1);
    gs_block_module(a, b, "post_mlp_residual_scale", GS_MODULE_TENSOR, GS_SPLIT_NONE, GS_PART_OTHER,
                    0, 4, h, 1);
    return b;
}

/* ZayaForCausalLM (transformers models/zaya/modeling_zaya.py, 5.16; Zyphra/ZAYA1-8B; vLLM
 * models/zaya.py): every layer Compressed Convolutional Attention (arXiv 2510.04476) and a
 * top-1 MoE whose router is a small MLP carrying a state from layer to layer; no shared
 * experts, no dense layers. The residual stream is fp32 (ZayaModel casts the scaled embedding
 * to float32 and ZayaResidualScaling adds in fp32: upstream's residual_in_fp32), the
 * embedding scaled by input_hidden_states_scale and _bias; the head tied by default.
 * validate_architecture refuses num_experts_per_tok other than 1. */
static void read_zaya(struct model_reader *r, struct gs_arch *a)
{
    struct zaya z;
    z.hidden = rd_dim(r, NAMES("hidden_size"), false, 2048);
    z.layers = rd_dim(r, NAMES("num_hidden_layers"), false, 40);
    z.heads = rd_dim(r, NAMES("num_attention_heads"), false, 8);
    z.kv_heads = rd_dim(r, NAMES("num_key_value_heads"), false, 2);
    z.head_dim = rd_dim(r, NAMES("head_dim"), false, 128);
    z.experts = rd_dim(r, NAMES("num_experts"), false, 16);
    z.top_k = rd_dim(r, NAMES("num_experts_per_tok"), false, 1);
    z.width = rd_dim(r, NAMES("moe_intermediate_size"), false, 2048);
    z.router = rd_dim(r, NAMES("router_hidden_size"), false, 256);
    z.t0 = rd_dim(r, NAMES("cca_time0"), false, 2);
    z.t1 = rd_dim(r, NAMES("cca_time1"), false, 2);
    z.bias = rd_flag(r, "attention_bias", false);
    const bool head_bias = rd_flag(r, "lm_head_bias", false);
    if (!r->ok)
        return;
    if (z.top_k != 1) {
        rd_fail(r, "num_experts_per_tok", GS_ERR_INVALID,
                "%llu: ZayaConfig.validate_architecture takes one expert a token",
                (unsigned long long)z.top_k);
        return;
    }
    if (z.heads % z.kv_heads != 0 || z.kv_heads % 2 != 0) {
        rd_fail(r, "num_key_value_heads", GS_ERR_INVALID,
                "must divide the attention heads and be even (the value is half current, half "
                "delayed)");
        return;
    }
    if (z.layers > GS_LAYERS_MAX) {
        rd_fail(r, "num_hidden_layers", GS_ERR_UNSUPPORTED,
                "%llu layers: gpusizer describes at most %d", (unsigned long long)z.layers,
                GS_LAYERS_MAX);
        return;
    }
    struct decoder_plan plan;
    memset(&plan, 0, sizeof(plan));
    plan.layers = z.layers;
    plan.window = rd_dim(r, NAMES("sliding_window"), false, 0);
    (void)decoder_read_layer_types(r, &plan);
    gs_arch_init(a, NULL, z.hidden, rd_dim(r, NAMES("vocab_size"), false, 262272));
    a->max_position_embeddings = rd_dim(r, NAMES("max_position_embeddings"), false, 131072);
    a->tie_word_embeddings = rd_flag(r, "tie_word_embeddings", true);
    a->attention_dropout = rd_dropout(r, NAMES("attention_dropout"));
    a->residual_fp32 = true;
    if (!r->ok)
        return;
    size_t kind[2][2] = {{GS_BLOCKS_MAX, GS_BLOCKS_MAX}, {GS_BLOCKS_MAX, GS_BLOCKS_MAX}};
    gs_arch_set_layers(a, z.layers, 0);
    for (uint64_t l = 0; l < z.layers; l++) {
        const bool sliding = plan.sliding[l] && plan.window, eda = l != 0;
        size_t *b = &kind[sliding][eda];
        if (*b == GS_BLOCKS_MAX) {
            *b = zaya_block(a, &z, eda);
            struct gs_block *blk = gs_arch_block(a, *b);
            if (blk != NULL && sliding) {
                blk->attn.span = GS_SPAN_SLIDING;
                blk->attn.window = plan.window;
            }
        }
        if (*b >= GS_BLOCKS_MAX)
            return;
        gs_arch_set_layer(a, l, *b);
    }
    gs_arch_embeddings(a, z.hidden, "lm_head", head_bias);
    gs_arch_module(a, "input_hidden_states_scale", GS_MODULE_TENSOR, GS_SPLIT_NONE, GS_PART_OTHER,
                   0, 2, z.hidden, 1);
    gs_build_norms(a, GS_BLOCKS_MAX, "norm", 1, false);
}

/* ------------------------------------------------------------------ AFMoE */

/* AfmoeForCausalLM (transformers models/afmoe/modular_afmoe.py; arcee-ai Trinity Nano, Mini,
 * Large): per layer four RMSNorms (input, post_attention, pre_mlp, post_mlp), an attention with
 * q_norm and k_norm over head_dim and a sigmoid output gate (self_attn.gate_proj, hidden -> heads
 * x head_dim: output * torch.sigmoid(gate_states) before o_proj) whose rotary applies on the
 * sliding layers only (is_local_attention: the full layers have no positions), sliding_window on
 * the layers layer_types marks sliding, or on all but every global_attn_every_n_layers-th; the
 * first num_dense_layers layers a SwiGLU of intermediate_size, the rest AfmoeSparseMoeBlock:
 * router.gate an nn.Linear(hidden, num_experts) whose logits are cast to fp32 after it,
 * num_experts fused experts of moe_intermediate_size, a shared MLP moe_intermediate_size x
 * num_shared_experts wide, and expert_bias, an nn.Parameter (requires_grad False) of
 * num_experts. Untied unless the config says so. */
static void read_afmoe(struct model_reader *r, struct gs_arch *a)
{
    struct decoder_plan plan;
    decoder_read_dims(r, a, &plan, false, 128, false);
    plan.window = rd_dim(r, NAMES("sliding_window"), false, 1024);
    if (!decoder_read_layer_types(r, &plan) && r->ok)
        decoder_window_pattern(&plan, rd_size(r, NAMES("global_attn_every_n_layers"), 4));
    struct gs_moe *m = &plan.experts;
    m->experts = rd_dim(r, NAMES("num_experts"), false, 64);
    m->top_k = rd_dim(r, NAMES("num_experts_per_tok"), false, 6);
    m->width = rd_dim(r, NAMES("moe_intermediate_size"), false, 1408);
    m->gated = true;
    m->shared_width = m->width * rd_dim(r, NAMES("num_shared_experts"), false, 2);
    m->router_extra = m->experts; /* expert_bias */
    m->router_name = "router.gate";
    decoder_moe_from(&plan, rd_dim(r, NAMES("num_dense_layers"), false, 1));
    if (!r->ok)
        return;
    const struct decoder_traits traits = {.norms = 4, .qk_norm = QK_HEAD};
    decoder_build(r, a, &plan, &traits);
    for (size_t b = 0; b < a->block_count; b++) {
        struct gs_block *blk = &a->blocks[b];
        if (blk->mixer != GS_MIXER_ATTENTION)
            continue;
        blk->attn.nope = blk->attn.span == GS_SPAN_FULL;
        blk->attn.output_gate = GS_GATE_SIGMOID;
        gs_block_module(a, b, "self_attn.gate_proj", GS_MODULE_LINEAR, GS_SPLIT_COLUMN,
                        GS_PART_ATTENTION, GS_MOD_QUANT, a->hidden_size,
                        blk->attn.heads * blk->attn.head_dim, 1);
    }
}

/* ------------------------------------------------------------------ DBRX */

/* DbrxForCausalLM (transformers models/dbrx/modeling_dbrx.py; vLLM dbrx.py; databricks/dbrx-base
 * and -instruct, "132B total, 36B active"): the top level names d_model, n_heads, n_layers,
 * max_seq_len and vocab_size; attn_config kv_n_heads (default 1), clip_qkv, rope_theta; ffn_config
 * ffn_hidden_size, moe_num_experts and moe_top_k (defaults 3,584, 4 and 1). A block:
 * norm_attn_norm's norm_1 and norm_2 (LayerNorm(bias=False): a weight each), attn.Wqkv one
 * nn.Linear h -> h + 2 x kv_n_heads x head_dim and out_proj, no biases; ffn.router.layer an
 * nn.Linear(h, E) in every release, and ffn.experts.mlp's w1, v1 and w2 - [E x ffn, h] parameters
 * each (DbrxExpertGLU: gate, up and the transposed down of a SiLU GLU), 3-D in 4.x as in 5.x;
 * norm_f, the head untied by default. clip_qkv clamps the fused projection's output (no parameter).
 */
static void read_dbrx(struct model_reader *r, struct gs_arch *a)
{
    struct model_reader attn, ffn;
    const bool has_attn = rd_sub(r, "attn_config", &attn);
    const bool has_ffn = rd_sub(r, "ffn_config", &ffn);
    if (!r->ok)
        return;
    const uint64_t h = rd_dim(r, NAMES("d_model", "hidden_size"), false, 2048);
    const uint64_t V = rd_dim(r, NAMES("vocab_size"), false, 32000);
    gs_arch_init(a, NULL, h, V);
    struct decoder_plan plan;
    memset(&plan, 0, sizeof(plan));
    plan.layers = rd_dim(r, NAMES("n_layers"), false, 24);
    plan.heads = rd_dim(r, NAMES("n_heads"), false, 16);
    plan.kv_heads = has_attn ? rd_dim(&attn, NAMES("kv_n_heads"), false, 1) : 1;
    plan.head_dim = plan.heads ? h / plan.heads : 0;
    a->max_position_embeddings = rd_dim(r, NAMES("max_seq_len"), false, 2048);
    a->tie_word_embeddings = rd_flag(r, "tie_word_embeddings", false);
    struct gs_moe *m = &plan.experts;
    m->experts = has_ffn ? rd_dim(&ffn, NAMES("moe_num_experts"), false, 4) : 4;
    m->top_k = has_ffn ? rd_dim(&ffn, NAMES("moe_top_k"), false, 1) : 1;
    m->width = has_ffn ? rd_dim(&ffn, NAMES("ffn_hidden_size"), false, 3584) : 3584;
    m->gated = true;
    m->router_name = "ffn.router.layer";
    m->experts_fused = true;
    static const struct gs_mlp_names experts = {"ffn.experts.mlp.w1", "ffn.experts.mlp.v1",
                                                "ffn.experts.mlp.w2", NULL};
    m->expert_names = &experts;
    if ((has_attn && !attn.ok) || (has_ffn && !ffn.ok))
        r->ok = false;
    if (r->ok && plan.layers > GS_LAYERS_MAX)
        rd_fail(r, "n_layers", GS_ERR_UNSUPPORTED, "%llu layers: gpusizer describes at most %d",
                (unsigned long long)plan.layers, GS_LAYERS_MAX);
    if (r->ok && (plan.heads == 0 || h % plan.heads != 0 || plan.kv_heads == 0 ||
                  plan.heads % plan.kv_heads != 0))
        rd_fail(r, "n_heads", GS_ERR_INVALID,
                "must divide d_model, and attn_config.kv_n_heads must divide it");
    if (r->ok && (m->experts == 0 || m->top_k == 0 || m->top_k > m->experts))
        rd_fail(r, "ffn_config", GS_ERR_INVALID, "moe_top_k must be between 1 and moe_num_experts");
    if (!r->ok)
        return;
    decoder_moe_from(&plan, 0);
    static const struct gs_attention_names names = {
        NULL, NULL, NULL, "norm_attn_norm.attn.out_proj", "norm_attn_norm.attn.Wqkv"};
    const struct decoder_traits t = {.norms = 2, .attn_names = &names, .head_name = "lm_head"};
    decoder_build(r, a, &plan, &t);
}

/* --------------------------------------------------------------- Bailing */

/* One Bailing layer kind (inclusionAI's remote modeling_bailing_moe*.py; vLLM bailing_moe.py and
 * bailing_moe_linear.py; SGLang bailing_moe_linear.py). Full attention: attention.query_key_value,
 * one fused projection h -> (heads + 2 x kv_heads) x head_dim, biased where use_bias or
 * use_qkv_bias, and attention.dense, biased where use_bias. A linear-attention layer (`linear`,
 * BailingMoELinearAttention): multi-head whatever num_key_value_heads says - query_key_value
 * h -> 3 x heads x head_dim -, an output gate g_proj h -> heads x head_dim and its group norm
 * g_norm over heads x head_dim (in group_norm_size groups, which vLLM's tensor ranks split whole),
 * dense back; its state a (heads, head_dim, head_dim) matrix a
 * sequence in the model's dtype (vLLM MambaStateShapeCalculator.linear_attention_state_shape), no
 * conv window, the decay slopes computed, not stored. With use_qk_norm, query_layernorm and
 * key_layernorm over head_dim. The MLP: gate/up/down_proj of intermediate_size (use_bias), or the
 * MoE - `gate` [E, h], with moe_router_enable_expert_bias an fp32 expert_bias [E] the remote code
 * registers as a persistent buffer (stored: Ling-flash-2.0's safetensors hold 31 x 256 F32 values),
 * num_experts experts of moe_intermediate_size and one shared MLP of num_shared_experts x
 * moe_shared_expert_intermediate_size (moe_intermediate_size where the config has no such key, as
 * vLLM and SGLang read it). Two RMSNorms. */
enum bailing_mixer {
    BAILING_GQA,       /* softmax attention through query_key_value */
    BAILING_LIGHTNING, /* BailingMoELinearAttention */
    BAILING_MLA,       /* Ling 2.5 and 3.0's full-attention layers (bailing_hybrid) */
    BAILING_KDA,       /* Ling 3.0's linear-attention layers (bailing_hybrid) */
};

struct bailing {
    uint64_t heads, kv_heads, head_dim, intermediate;
    bool qkv_bias, bias, qk_norm;
    struct gs_moe moe;
    struct gs_attention mla; /* BAILING_MLA */
    struct kda_spec kda;     /* BAILING_KDA */
    uint64_t mla_gate;    /* BAILING_MLA: the output gate's width (g_proj h -> mla_gate), 0 none */
    uint64_t norm_groups; /* BAILING_LIGHTNING: g_norm's groups (group_norm_size), 0 unstated */
};

static size_t bailing_block(struct gs_arch *a, const struct bailing *c, enum bailing_mixer mixer,
                            bool routed)
{
    static const struct gs_attention_names names = {NULL, NULL, NULL, "attention.dense",
                                                    "attention.query_key_value"};
    const size_t b = gs_arch_new_block(a);
    struct gs_block *blk = gs_arch_block(a, b);
    if (blk == NULL) {
        a->overflow = true;
        return b;
    }
    const uint64_t h = a->hidden_size, width = c->heads * c->head_dim;
    if (mixer == BAILING_LIGHTNING) {
        blk->mixer = GS_MIXER_RECURRENT;
        blk->rec = (struct gs_recurrent){.state_heads = c->heads,
                                         .state_rows = c->head_dim,
                                         .state_cols = c->head_dim,
                                         .in_width = 4 * width,
                                         .inner = width,
                                         .scan = GS_SCAN_PROJECTIONS,
                                         .tensor_groups = c->norm_groups,
                                         .ssm_flag_ignored = true};
        gs_block_module(a, b, "attention.query_key_value", GS_MODULE_LINEAR, GS_SPLIT_COLUMN,
                        GS_PART_ATTENTION, GS_MOD_QUANT | (c->qkv_bias ? GS_MOD_BIAS : 0), h,
                        3 * width, 1);
        gs_block_module(a, b, "attention.g_proj", GS_MODULE_LINEAR, GS_SPLIT_COLUMN,
                        GS_PART_ATTENTION, GS_MOD_QUANT, h, width, 1);
        gs_block_module(a, b, "attention.g_norm", GS_MODULE_NORM, GS_SPLIT_COLUMN,
                        GS_PART_ATTENTION, 0, 1, width, 1);
        gs_block_module(a, b, "attention.dense", GS_MODULE_LINEAR, GS_SPLIT_ROW, GS_PART_ATTENTION,
                        GS_MOD_QUANT | (c->bias ? GS_MOD_BIAS : 0), width, h, 1);
    } else if (mixer == BAILING_GQA) {
        struct gs_attention spec;
        memset(&spec, 0, sizeof(spec));
        spec.heads = c->heads;
        spec.kv_heads = c->kv_heads;
        spec.head_dim = c->head_dim;
        spec.cached = true;
        gs_build_attention(a, b, &spec, &names, c->qkv_bias, c->bias);
    } else if (mixer == BAILING_MLA) {
        /* q_a_proj, kv_a_proj_with_mqa and attention.dense biased only where use_qkv_bias in the
         * remote code; vLLM builds none (published configs: none) */
        gs_build_mla(a, b, &c->mla, false);
        if (c->mla_gate)
            gs_block_module(a, b, "attention.g_proj", GS_MODULE_LINEAR, GS_SPLIT_COLUMN,
                            GS_PART_ATTENTION, GS_MOD_QUANT, h, c->mla_gate, 1);
    } else {
        kda_build(a, b, &c->kda);
    }
    /* q/k norms on the query_key_value layers only: the MLA and KDA layers have none */
    if (c->qk_norm && (mixer == BAILING_GQA || mixer == BAILING_LIGHTNING)) {
        gs_block_module(a, b, "attention.query_layernorm", GS_MODULE_NORM, GS_SPLIT_NONE,
                        GS_PART_ATTENTION, 0, 1, c->head_dim, 1);
        gs_block_module(a, b, "attention.key_layernorm", GS_MODULE_NORM, GS_SPLIT_NONE,
                        GS_PART_ATTENTION, 0, 1, c->head_dim, 1);
    }
    if (routed) {
        gs_build_moe(a, b, &c->moe);
        if (c->bias && c->moe.shared_width) /* the shared MLP's gate, up and down biases */
            gs_block_module(a, b, "shared_experts.bias", GS_MODULE_TENSOR, GS_SPLIT_NONE,
                            GS_PART_MLP, 0, 1, 2 * c->moe.shared_width + h, 1);
    } else {
        gs_build_mlp(a, b, c->intermediate, true, c->bias, &GS_MLP_NAMES);
    }
    gs_build_norms(a, b, "layernorm", 2, false);
    return b;
}

/* Bailing MoE (model_type bailing_moe: BailingMoeForCausalLM, Ling-lite-1.5 and Ling-plus;
 * BailingMoeV2ForCausalLM, Ling 2.0 - Ling-mini, Ling-flash, Ling-1T - and Ring 2.0) and Bailing
 * MoE Linear (bailing_moe_linear: BailingMoeLinearV2ForCausalLM, Ring-mini-linear-2.0 and
 * Ring-flash-linear-2.0, where layer i is linear attention when (i + 1) % layer_group_size != 0; an
 * inclusionAI build of vLLM serves it, upstream vLLM does not register the class). Layers below
 * first_k_dense_replace are dense. The remote config classes default use_bias to true (published
 * configs set false); the head untied by default; model.word_embeddings. The checkpoints of
 * Ling 2.0 store no MTP layer whatever num_nextn_predict_layers says (Ling-flash-2.0's safetensors
 * total matches with none); vLLM loads none: not described. Ling-flash-2.0: 102,889,697,280
 * parameters and 7,936 stored expert_bias values, the Hub's safetensors count. */
static void read_bailing_family(struct model_reader *r, struct gs_arch *a, bool hybrid)
{
    struct decoder_plan plan;
    decoder_read_dims(r, a, &plan, false, 0, false);
    struct bailing c;
    memset(&c, 0, sizeof(c));
    c.heads = plan.heads;
    c.kv_heads = plan.kv_heads;
    c.head_dim = plan.head_dim;
    c.intermediate = plan.intermediate;
    c.bias = rd_flag(r, "use_bias", true);
    c.qkv_bias = c.bias || rd_flag(r, "use_qkv_bias", false);
    c.qk_norm = rd_flag(r, "use_qk_norm", false);
    c.moe.experts = rd_dim(r, NAMES("num_experts"), true, 0);
    c.moe.top_k = rd_dim(r, NAMES("num_experts_per_tok"), true, 0);
    c.moe.width = rd_dim(r, NAMES("moe_intermediate_size"), true, 0);
    c.moe.gated = true;
    c.moe.expert_bias = c.bias;
    c.moe.shared_width =
        rd_dim(r, NAMES("moe_shared_expert_intermediate_size"), false, c.moe.width) *
        rd_dim(r, NAMES("num_shared_experts"), false, 0);
    if (rd_flag(r, "moe_router_enable_expert_bias", false))
        c.moe.router_buffer = c.moe.experts;
    const uint64_t first_dense = rd_dim(r, NAMES("first_k_dense_replace"), false, 0);
    const uint64_t group = hybrid ? rd_dim(r, NAMES("layer_group_size"), false, 1) : 0;
    c.norm_groups = hybrid ? rd_size(r, NAMES("group_norm_size"), 0) : 0;
    if (r->ok && c.moe.top_k > c.moe.experts)
        rd_fail(r, "num_experts_per_tok", GS_ERR_INVALID, "is more than num_experts");
    if (!r->ok)
        return;
    size_t kinds[2][2];
    bool made[2][2] = {{false, false}, {false, false}};
    gs_arch_set_layers(a, plan.layers, 0);
    for (uint64_t l = 0; l < plan.layers && l < GS_LAYERS_MAX; l++) {
        const int linear = group > 0 && (l + 1) % group != 0;
        const int routed = l >= first_dense;
        if (!made[linear][routed]) {
            kinds[linear][routed] =
                bailing_block(a, &c, linear ? BAILING_LIGHTNING : BAILING_GQA, routed);
            made[linear][routed] = true;
        }
        gs_arch_set_layer(a, l, kinds[linear][routed]);
    }
    gs_arch_embeddings(a, a->hidden_size, "lm_head", false);
    gs_build_norms(a, GS_BLOCKS_MAX, "norm", 1, false);
}

static void read_bailing_moe(struct model_reader *r, struct gs_arch *a)
{
    read_bailing_family(r, a, false);
}

static void read_bailing_moe_linear(struct model_reader *r, struct gs_arch *a)
{
    read_bailing_family(r, a, true);
}

/* Bailing hybrid (model_type bailing_hybrid): two architectures under one type, told apart by
 * architectures[0] (or, where a config names none, by short_conv_kernel_size, which only the
 * second reads).
 * - BailingMoeV2_5ForCausalLM, Ling and Ring 2.5 and 2.6 (inclusionAI's remote
 *   modeling_bailing_moe_v2_5.py; vLLM models/bailing_moe_linear.py BailingMoeV25ForCausalLM;
 *   SGLang bailing_moe_linear.py): layer i is the linear attention of Bailing's Linear 2.0
 *   (BailingMoELinearAttention, above) when (i + 1) % layer_group_size != 0, else MLA
 *   (BailingMoeV25MLAAttention: DeepSeek's projections, no output gate, no q/k norms, its latent
 *   cached). vLLM's BailingMoeV25Model has no tail rule; the remote code also makes the layers
 *   from (L / g) x g on full attention - the same stack wherever L is a multiple of g, as in every
 *   published config (32 / 8, 80 / 8). Missing keys take BailingMoeV2_5Config's defaults (vLLM
 *   loads the config through it): layer_group_size 5, group_norm_size 4, head_dim 128, use_qk_norm
 * true, first_k_dense_replace 1, num_experts 256 of moe_intermediate_size 512, top 8, one shared
 *   expert, moe_router_enable_expert_bias true, kv_lora_rank 512, q_lora_rank none,
 *   qk_rope_head_dim 64, qk_nope_head_dim and v_head_dim 128, use_bias and use_qkv_bias false.
 *   vLLM asserts that tensor parallelism divides group_norm_size, g_norm's groups
 *   (gs_recurrent.tensor_groups): Ling-2.6-flash's 4 allow TP 1, 2 and 4.
 * - BailingMoeV3ForCausalLM, Ling 3.0 (vLLM models/bailing_moe_v3.py, remote
 *   modeling_bailing_moe_v3.py, SGLang bailing_moe_v3.py): the linear-attention layers are Kimi
 *   Delta Attention (BailingMoeV3KimiDeltaAttention, kda.h) over num_attention_heads of head_dim,
 *   with full-rank f_proj and g_proj (vLLM requires no_kda_lora), no q/k norms; a layer is MLA when
 *   (i + 1) % layer_group_size == 0 or i >= (L / g) x g (vLLM _is_kda_layer). The MLA layers add
 *   an output gate after the attention (gated_attention_proj_granularity_type: "head_wise"
 *   g_proj h -> heads, "element_wise" h -> heads x v_head_dim; a sigmoid). Every MoE layer
 *   stores an fp32 expert_bias (BailingMoeV3Gate creates it whatever
 *   moe_router_enable_expert_bias says) and a shared MLP
 *   moe_shared_expert_intermediate_size x num_shared_experts wide; vLLM reads head_dim,
 *   layer_group_size, short_conv_kernel_size, first_k_dense_replace and the MoE keys with no
 *   default, so they are required here.
 * Both: model.word_embeddings, lm_head (untied), the final norm, two RMSNorms a layer, dense
 * layers below first_k_dense_replace (gate/up/down_proj of intermediate_size). The
 * num_nextn_predict_layers MTP layers (model.layers.L + j: enorm, hnorm, eh_proj 2h -> h, an MLA
 * layer with the routed MLP, final_layernorm; no embedding or head of their own - Ling-2.6-flash
 * ships its one in model-mtp-layer.safetensors) are the mtp tower: vLLM's main model skips them
 * (bailing_moe_mtp.py builds them only as a speculative drafter). vLLM allocates the router
 * weight in fp32 (BailingMoEGate with router_dtype fp32 or absent; BailingMoeV3Gate always) and
 * Ling 3.0's convolution weights, A_log and dt_bias in fp32; gpusizer weighs them at the model's
 * precision (the router: E x h x 2 bytes a routed layer, 65 MB for Ling-2.6-flash). */
static void read_bailing_hybrid(struct model_reader *r, struct gs_arch *a)
{
    const char *arch = rd_architecture(r);
    bool v3;
    if (arch != NULL && strcmp(arch, "BailingMoeV3ForCausalLM") == 0) {
        v3 = true;
    } else if (arch != NULL && strcmp(arch, "BailingMoeV2_5ForCausalLM") == 0) {
        v3 = false;
    } else if (arch == NULL) {
        v3 = rd_get(r, "short_conv_kernel_size") != NULL;
    } else {
        rd_fail(r, "architectures", GS_ERR_UNSUPPORTED,
                "bailing_hybrid is read as BailingMoeV2_5ForCausalLM (Ling 2.5, 2.6) or "
                "BailingMoeV3ForCausalLM (Ling 3.0), not %.60s",
                arch);
        return;
    }
    struct decoder_plan plan;
    decoder_read_dims(r, a, &plan, false, v3 ? 0 : 128, false);
    if (v3)
        rd_dim(r, NAMES("head_dim"), true, 0);
    struct bailing c;
    memset(&c, 0, sizeof(c));
    c.heads = plan.heads;
    c.kv_heads = plan.heads; /* the linear-attention layers attend over every head */
    c.head_dim = plan.head_dim;
    c.intermediate = plan.intermediate;
    c.bias = rd_flag(r, "use_bias", false);
    c.qkv_bias = c.bias || rd_flag(r, "use_qkv_bias", false);
    c.qk_norm = !v3 && rd_flag(r, "use_qk_norm", true);
    c.moe.experts = rd_dim(r, NAMES("num_experts"), v3, 256);
    c.moe.top_k = rd_dim(r, NAMES("num_experts_per_tok"), v3, 8);
    c.moe.width = rd_dim(r, NAMES("moe_intermediate_size"), v3, 512);
    c.moe.gated = true;
    const uint64_t shared = rd_dim(r, NAMES("num_shared_experts"), v3, 1);
    c.moe.shared_width =
        shared * rd_dim(r, NAMES("moe_shared_expert_intermediate_size"), v3, c.moe.width);
    if (v3 || rd_flag(r, "moe_router_enable_expert_bias", true))
        c.moe.router_buffer = c.moe.experts;
    const uint64_t first_dense = rd_dim(r, NAMES("first_k_dense_replace"), v3, 1);
    const uint64_t group = v3 ? rd_dim(r, NAMES("layer_group_size"), true, 0)
                              : rd_size(r, NAMES("layer_group_size"), 5);
    c.norm_groups = v3 ? 0 : rd_size(r, NAMES("group_norm_size"), 4);
    struct gs_attention *m = &c.mla;
    m->heads = plan.heads;
    m->cached = true;
    m->q_lora_rank = rd_dim(r, NAMES("q_lora_rank"), false, 0);
    m->kv_lora_rank = rd_dim(r, NAMES("kv_lora_rank"), false, 512);
    m->qk_rope_head_dim = rd_dim(r, NAMES("qk_rope_head_dim"), false, 64);
    m->qk_nope_head_dim = rd_dim(r, NAMES("qk_nope_head_dim"), false, 128);
    m->v_head_dim = rd_dim(r, NAMES("v_head_dim"), false, 128);
    if (v3) {
        const char *gate = rd_string(r, "gated_attention_proj_granularity_type");
        if (gate != NULL && strcmp(gate, "head_wise") == 0) {
            c.mla_gate = plan.heads;
            m->output_gate_per_head = true;
        } else if (gate != NULL && strcmp(gate, "element_wise") == 0) {
            c.mla_gate = plan.heads * m->v_head_dim;
        } else if (gate != NULL) {
            rd_fail(r, "gated_attention_proj_granularity_type", GS_ERR_INVALID,
                    "must be \"head_wise\", \"element_wise\" or null");
        }
        if (c.mla_gate)
            m->output_gate = GS_GATE_SIGMOID;
        c.kda = (struct kda_spec){.heads = plan.heads,
                                  .head_dim = plan.head_dim,
                                  .kernel = rd_dim(r, NAMES("short_conv_kernel_size"), true, 0),
                                  .full_rank_gate = true,
                                  .full_rank_forget = true};
        if (!rd_flag(r, "no_kda_lora", true))
            rd_fail(r, "no_kda_lora", GS_ERR_UNSUPPORTED,
                    "is false: the low-rank KDA gates are not described (vLLM's "
                    "BailingMoeV3KimiDeltaAttention requires no_kda_lora true)");
    }
    const uint64_t mtp = rd_dim(r, NAMES("num_nextn_predict_layers"), false, 0);
    if (v3 && mtp > 0 && rd_flag(r, "mtp_use_kda", false))
        rd_fail(r, "mtp_use_kda", GS_ERR_UNSUPPORTED,
                "is true: an MTP layer of Kimi Delta Attention is not described");
    if (r->ok && c.moe.top_k > c.moe.experts)
        rd_fail(r, "num_experts_per_tok", GS_ERR_INVALID, "is more than num_experts");
    if (!r->ok)
        return;
    const uint64_t L = plan.layers, whole = L / group * group;
    size_t kinds[2][2];
    bool made[2][2] = {{false, false}, {false, false}};
    gs_arch_set_layers(a, L, 0);
    for (uint64_t l = 0; l < L && l < GS_LAYERS_MAX; l++) {
        const int linear = v3 ? !((l + 1) % group == 0 || l >= whole) : (l + 1) % group != 0;
        const int routed = c.moe.experts > (v3 ? 0 : 1) && l >= first_dense;
        if (!made[linear][routed]) {
            const enum bailing_mixer mixer = !linear ? BAILING_MLA
                                             : v3    ? BAILING_KDA
                                                     : BAILING_LIGHTNING;
            kinds[linear][routed] = bailing_block(a, &c, mixer, routed);
            made[linear][routed] = true;
        }
        gs_arch_set_layer(a, l, kinds[linear][routed]);
    }
    gs_arch_embeddings(a, a->hidden_size, "lm_head", false);
    gs_build_norms(a, GS_BLOCKS_MAX, "norm", 1, false);
    if (mtp > 0) {
        const size_t b = bailing_block(a, &c, BAILING_MLA, c.moe.experts > 0);
        const uint64_t h = a->hidden_size;
        gs_block_module(a, b, "eh_proj", GS_MODULE_LINEAR, GS_SPLIT_NONE, GS_PART_ATTENTION, 0,
                        2 * h, h, 1);
        gs_build_norms(a, b, "enorm_hnorm_final_layernorm", 3, false);
        gs_arch_tower(a, "mtp", b, GS_PART_MTP, mtp, false);
    }
}

const struct model_type MODELS_MOE[] = {
    {"afmoe", "AfmoeForCausalLM", read_afmoe},
    {"bailing_moe", "BailingMoeV2ForCausalLM", read_bailing_moe},
    {"bailing_moe_linear", "BailingMoeLinearV2ForCausalLM", read_bailing_moe_linear},
    {"bailing_hybrid", "BailingMoeV2_5ForCausalLM", read_bailing_hybrid},
    {"dbrx", "DbrxForCausalLM", read_dbrx},
    {"exaone_moe", "ExaoneMoeForCausalLM", read_exaone_moe},
    {"hunyuan_v1_dense", "HunYuanDenseV1ForCausalLM", read_hunyuan_v1_dense},
    {"hunyuan_v1_moe", "HunYuanMoEV1ForCausalLM", read_hunyuan_v1_moe},
    {"mimo_v2_flash", "MiMoV2FlashForCausalLM", read_mimo_v2_flash},
    {"minimax_m3", "MiniMaxM3ForCausalLM", read_minimax_m3},
    {"exaone4", "Exaone4ForCausalLM", read_exaone4},
    {"hy_v3", "HYV3ForCausalLM", read_hy_v3},
    {"zaya", "ZayaForCausalLM", read_zaya},
    {NULL, NULL, NULL},
};
