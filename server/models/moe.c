/*
 * moe.c - decoders of 2025-26 with their own routers and layouts: Tencent
 * Hunyuan (dense and MoE) and Xiaomi MiMo-V2-Flash (see reader.h).
 *
 * Each reader names the transformers (5.x) class whose module shapes it
 * counts and the vLLM model file that serves it; the published counts each
 * reproduces are written out in tests/fixtures/configs/<model_type>/README.md
 * and checked in tests/server/test_models_moe.c.
 */
#include "decoder.h"

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

/* mlp_layer_types ["dense", "sparse", ...] into out[] (true: sparse). */
static bool mlp_layer_types(struct model_reader *r, uint64_t layers, bool out[GS_LAYERS_MAX])
{
    const json_t *list = NULL;
    const size_t n = rd_array(r, "mlp_layer_types", &list);
    if (list == NULL || !r->ok)
        return false;
    if (n != layers) {
        rd_fail(r, "mlp_layer_types", GS_ERR_INVALID, "has %zu entries for %llu layers", n,
                (unsigned long long)layers);
        return false;
    }
    for (size_t l = 0; l < n && l < GS_LAYERS_MAX; l++) {
        const char *kind = json_string_value(json_array_get(list, l));
        if (kind == NULL || (strcmp(kind, "dense") != 0 && strcmp(kind, "sparse") != 0)) {
            rd_fail(r, "mlp_layer_types", GS_ERR_INVALID,
                    "entry %zu is not \"dense\" or \"sparse\"", l);
            return false;
        }
        out[l] = strcmp(kind, "sparse") == 0;
    }
    return true;
}

/* One MiMo-V2 layer kind: full attention (kv_heads, no sinks) or sliding
 * (swa_kv_heads and a sink logit per head), a dense MLP or the routed
 * experts, two RMSNorms. */
static size_t mimo_block(struct gs_arch *a, const struct decoder_plan *plan, uint64_t v_head_dim,
                         uint64_t swa_kv_heads, bool qkv_bias, bool sliding, bool routed)
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
    gs_build_attention(a, b, &spec, &GS_ATTENTION_NAMES, qkv_bias, false);
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
    if (!mlp_layer_types(r, plan.layers, plan.moe) &&
        !flag_list(r, "moe_layer_freq", plan.layers, plan.moe) && r->ok)
        decoder_moe_from(&plan, 1);
    struct gs_moe *m = &plan.experts;
    m->experts = rd_dim(r, NAMES("n_routed_experts"), true, 0);
    m->top_k = rd_dim(r, NAMES("num_experts_per_tok"), true, 0);
    m->width = rd_dim(r, NAMES("moe_intermediate_size"), true, 0);
    m->gated = true;
    const bool bias = rd_flag(r, "attention_bias", false);
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
            kinds[s][e] = mimo_block(a, &plan, v_head_dim, swa_kv, bias, s, e);
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

const struct model_type MODELS_MOE[] = {
    {"hunyuan_v1_dense", "HunYuanDenseV1ForCausalLM", read_hunyuan_v1_dense},
    {"hunyuan_v1_moe", "HunYuanMoEV1ForCausalLM", read_hunyuan_v1_moe},
    {"mimo_v2_flash", "MiMoV2FlashForCausalLM", read_mimo_v2_flash},
    {NULL, NULL, NULL},
};
