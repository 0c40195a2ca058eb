/*
 * decoder.c - Llama-style decoders and their mixture-of-experts variants
 * (see decoder.h). Each reader names the transformers classes whose module
 * shapes it follows; the published counts each reproduces are checked in
 * tests/core/test_arch.c and tests/server/test_models.c.
 */
#include "readers/decoder.h"

#include "gs/units.h"

#include <string.h>

const struct gs_mlp_names DECODER_GATE_UP_NAMES = {NULL, NULL, "down_proj", "gate_up_proj"};

void decoder_read_dims(struct model_reader *r, struct gs_arch *a, struct decoder_plan *plan,
                       bool tie, uint64_t head_dim, bool intermediate_optional)
{
    memset(plan, 0, sizeof(*plan));
    const uint64_t h = rd_dim(r, NAMES("hidden_size", "n_embd", "d_model"), true, 0);
    const uint64_t V = rd_dim(r, NAMES("vocab_size"), true, 0);
    gs_arch_init(a, NULL, h, V);
    plan->layers = rd_dim(r, NAMES("num_hidden_layers", "n_layer", "num_layers"), true, 0);
    plan->heads = rd_dim(r, NAMES("num_attention_heads", "n_head", "num_heads"), true, 0);
    plan->kv_heads = rd_dim(r, NAMES("num_key_value_heads", "num_kv_heads", "n_head_kv"), false,
                            plan->heads);
    plan->head_dim = rd_dim(r, NAMES("head_dim"), false,
                            head_dim ? head_dim : (plan->heads ? h / plan->heads : 0));
    plan->intermediate = rd_dim(r, NAMES("intermediate_size", "ffn_dim"), !intermediate_optional, 0);
    a->max_position_embeddings = rd_dim(r, NAMES("max_position_embeddings"), false, 0);
    a->tie_word_embeddings = rd_flag(r, "tie_word_embeddings", tie);
    a->attention_dropout = rd_dropout(r, NAMES("attention_dropout"));
    a->hidden_dropout = rd_dropout(r, NAMES("hidden_dropout", "resid_pdrop"));
    if (plan->layers > GS_LAYERS_MAX)
        rd_fail(r, "num_hidden_layers", GS_ERR_UNSUPPORTED,
                "%llu layers: gpusizer describes at most %d", (unsigned long long)plan->layers,
                GS_LAYERS_MAX);
}

bool decoder_read_layer_types(struct model_reader *r, struct decoder_plan *plan)
{
    const json_t *list = NULL;
    const size_t n = rd_array(r, "layer_types", &list);
    if (list == NULL)
        return false;
    if (n != plan->layers) {
        rd_fail(r, "layer_types", GS_ERR_INVALID, "has %zu entries for %llu layers", n,
                (unsigned long long)plan->layers);
        return false;
    }
    for (size_t l = 0; l < n && l < GS_LAYERS_MAX; l++) {
        const char *kind = json_string_value(json_array_get(list, l));
        if (kind == NULL) {
            rd_fail(r, "layer_types", GS_ERR_INVALID, "entry %zu is not a string", l);
            return false;
        }
        plan->sliding[l] = strcmp(kind, "sliding_attention") == 0 ||
                           strcmp(kind, "chunked_attention") == 0;
        if (strcmp(kind, "chunked_attention") == 0)
            plan->chunked = true;
    }
    return true;
}

void decoder_window_pattern(struct decoder_plan *plan, uint64_t pattern)
{
    for (uint64_t l = 0; l < plan->layers && l < GS_LAYERS_MAX; l++)
        plan->sliding[l] = pattern == 0 || (l + 1) % pattern != 0;
}

void decoder_window_all(struct decoder_plan *plan)
{
    decoder_window_pattern(plan, 0);
}

void decoder_read_experts(struct model_reader *r, struct decoder_plan *plan,
                          bool width_is_intermediate)
{
    struct gs_moe *m = &plan->experts;
    memset(m, 0, sizeof(*m));
    m->experts = rd_dim(r, NAMES("num_local_experts", "num_experts", "n_routed_experts"), true, 0);
    m->top_k = rd_dim(r, NAMES("num_experts_per_tok", "moe_topk"), true, 0);
    m->width = width_is_intermediate ? plan->intermediate
                                     : rd_dim(r, NAMES("moe_intermediate_size"), true, 0);
    m->gated = true;
}

void decoder_moe_every(struct model_reader *r, struct decoder_plan *plan, uint64_t step)
{
    for (uint64_t l = 0; l < plan->layers && l < GS_LAYERS_MAX; l++)
        plan->moe[l] = step != 0 && (l + 1) % step == 0;
    const json_t *dense = NULL;
    const size_t n = rd_array(r, "mlp_only_layers", &dense);
    for (size_t i = 0; i < n; i++) {
        const json_t *v = json_array_get(dense, i);
        if (!json_is_integer(v) || json_integer_value(v) < 0 ||
            (uint64_t)json_integer_value(v) >= plan->layers) {
            rd_fail(r, "mlp_only_layers", GS_ERR_INVALID, "entry %zu is not a layer index", i);
            return;
        }
        if ((uint64_t)json_integer_value(v) < GS_LAYERS_MAX)
            plan->moe[json_integer_value(v)] = false;
    }
}

void decoder_moe_from(struct decoder_plan *plan, uint64_t first_dense)
{
    for (uint64_t l = 0; l < plan->layers && l < GS_LAYERS_MAX; l++)
        plan->moe[l] = l >= first_dense;
}

void decoder_add_norms(struct gs_arch *a, size_t block, const struct decoder_plan *plan,
                       const struct decoder_traits *t)
{
    gs_build_norms(a, block, "layernorm", t->norms, t->norm_bias);
    const uint64_t d = plan->head_dim;
    switch ((enum qk_norm)t->qk_norm) {
    case QK_HEAD:
        gs_block_module(a, block, "q_norm", GS_MODULE_NORM, GS_SPLIT_NONE, GS_PART_ATTENTION, 0, 1,
                        d, 1);
        gs_block_module(a, block, "k_norm", GS_MODULE_NORM, GS_SPLIT_NONE, GS_PART_ATTENTION, 0, 1,
                        d, 1);
        break;
    case QK_FULL:
    case QK_HEADS:
        gs_block_module(a, block, "q_norm", GS_MODULE_NORM, GS_SPLIT_COLUMN, GS_PART_ATTENTION, 0,
                        1, plan->heads * d, 1);
        gs_block_module(a, block, "k_norm", GS_MODULE_NORM, GS_SPLIT_COLUMN, GS_PART_ATTENTION, 0,
                        1, plan->kv_heads * d, 1);
        break;
    case QK_NONE:
        break;
    }
    if (t->sinks)
        gs_block_module(a, block, "sinks", GS_MODULE_TENSOR, GS_SPLIT_COLUMN, GS_PART_ATTENTION, 0,
                        1, plan->heads, 1);
}

/* One block for one (windowed, routed) combination of the plan. */
static size_t build_block(struct gs_arch *a, const struct decoder_plan *plan,
                          const struct decoder_traits *t, bool windowed, bool routed)
{
    const size_t b = gs_arch_new_block(a);
    struct gs_attention spec;
    memset(&spec, 0, sizeof(spec));
    spec.heads = plan->heads;
    spec.kv_heads = plan->kv_heads;
    spec.head_dim = plan->head_dim;
    spec.cached = true;
    if (windowed) {
        spec.span = plan->chunked ? GS_SPAN_CHUNKED : GS_SPAN_SLIDING;
        spec.window = plan->window;
    }
    gs_build_attention(a, b, &spec, t->attn_names ? t->attn_names : &GS_ATTENTION_NAMES,
                       t->qkv_bias, t->o_bias);
    if (routed)
        gs_build_moe(a, b, &plan->experts);
    else
        gs_build_mlp(a, b, plan->intermediate, !t->plain_mlp, t->mlp_bias,
                     t->mlp_names ? t->mlp_names : &GS_MLP_NAMES);
    if (t->act_params)
        gs_block_module(a, b, "act_fn", GS_MODULE_TENSOR, GS_SPLIT_NONE, GS_PART_MLP, 0, 1,
                        t->act_params, 1);
    decoder_add_norms(a, b, plan, t);
    a->blocks[b].parallel_residual = t->parallel;
    return b;
}

void decoder_build(struct model_reader *r, struct gs_arch *a, const struct decoder_plan *plan,
                   const struct decoder_traits *t)
{
    if (!r->ok)
        return;
    size_t kinds[2][2];
    bool made[2][2] = {{false, false}, {false, false}};
    gs_arch_set_layers(a, plan->layers, 0);
    for (uint64_t l = 0; l < plan->layers && l < GS_LAYERS_MAX; l++) {
        const int w = plan->sliding[l] && plan->window > 0, m = plan->moe[l];
        if (!made[w][m]) {
            kinds[w][m] = build_block(a, plan, t, w, m);
            made[w][m] = true;
        }
        gs_arch_set_layer(a, l, kinds[w][m]);
    }
    gs_arch_embeddings(a, a->hidden_size, t->head_name ? t->head_name : "lm_head", t->head_bias);
    gs_build_norms(a, GS_BLOCKS_MAX, "norm", 1, t->norm_bias);
}

void decoder_build_mtp(struct model_reader *r, struct gs_arch *a, const struct decoder_plan *plan,
                       const struct decoder_traits *t, uint64_t layers)
{
    if (!r->ok || layers == 0)
        return;
    const size_t b = build_block(a, plan, t, false, plan->experts.experts > 0);
    decoder_mtp_fusion(a, b, true, "shared_head.head", layers);
}

void decoder_mtp_fusion(struct gs_arch *a, size_t b, bool embedding, const char *head_name,
                        uint64_t layers)
{
    const uint64_t h = a->hidden_size, V = a->vocab_size;
    gs_block_module(a, b, "eh_proj", GS_MODULE_LINEAR, GS_SPLIT_NONE, GS_PART_ATTENTION, 0, 2 * h,
                    h, 1);
    gs_build_norms(a, b, "enorm_hnorm_shared_head_norm", 3, false);
    if (embedding)
        gs_block_module(a, b, "embed_tokens", GS_MODULE_EMBEDDING, GS_SPLIT_COLUMN,
                        GS_PART_EMBEDDING, 0, V, h, 1);
    gs_block_module(a, b, head_name, GS_MODULE_LINEAR, GS_SPLIT_COLUMN, GS_PART_LM_HEAD, 0, h, V,
                    1);
    gs_arch_tower(a, "mtp", b, GS_PART_MTP, layers, false);
}

/* ------------------------------------------------------------ the readers */

/* LlamaForCausalLM (modeling_llama.py): RMSNorm, SwiGLU, GQA; attention_bias
 * on q, k, v and o; mlp_bias on the MLP. */
static void read_llama(struct model_reader *r, struct gs_arch *a)
{
    struct decoder_plan plan;
    decoder_read_dims(r, a, &plan, false, 0, false);
    const bool attn_bias = rd_flag(r, "attention_bias", false);
    const struct decoder_traits t = {.norms = 2, .qkv_bias = attn_bias, .o_bias = attn_bias,
                                     .mlp_bias = rd_flag(r, "mlp_bias", false)};
    decoder_build(r, a, &plan, &t);
}

/* MistralForCausalLM: the Llama layout; a sliding_window applies to every
 * layer (vLLM sizes each layer's cache to it). */
static void read_mistral(struct model_reader *r, struct gs_arch *a)
{
    struct decoder_plan plan;
    decoder_read_dims(r, a, &plan, false, 0, false);
    plan.window = rd_dim(r, NAMES("sliding_window"), false, 0);
    decoder_window_all(&plan);
    const struct decoder_traits t = {.norms = 2};
    decoder_build(r, a, &plan, &t);
}

/* Qwen2ForCausalLM (modular_qwen2.py): biases on q, k and v, not o. */
static void read_qwen2(struct model_reader *r, struct gs_arch *a)
{
    struct decoder_plan plan;
    decoder_read_dims(r, a, &plan, false, 0, false);
    const struct decoder_traits t = {.norms = 2, .qkv_bias = true};
    decoder_build(r, a, &plan, &t);
}

/* MiMoForCausalLM (XiaomiMiMo/MiMo-7B-Base's remote modeling_mimo.py; vLLM mimo.py and
 * mimo_mtp.py): Qwen2's model (q/k/v biased, o not) and num_nextn_predict_layers MiMoMTPLayers -
 * a Qwen2 layer with token_layernorm and hidden_layernorm on its two inputs, input_proj 2h -> h
 * without bias, final_layernorm; the embedding and head are the model's - that vLLM serves as the
 * drafter of --speculative-config method mtp (mimo_mtp.py; the main model skips them at load).
 * The remote MiMoModel builds them too, unused by its forward: reported as the mtp component, as
 * the other MTP layers, so the transformers count with them is total + mtp. MiMo-7B's config:
 * 36 layers of 177,223,680, embedding and head 2 x 151,680 x 4,096: 7,622,619,136, and one MTP
 * layer of 210,794,496. */
static void read_mimo(struct model_reader *r, struct gs_arch *a)
{
    struct decoder_plan plan;
    decoder_read_dims(r, a, &plan, false, 0, false);
    const struct decoder_traits t = {.norms = 2, .qkv_bias = true};
    decoder_build(r, a, &plan, &t);
    const uint64_t layers = rd_dim(r, NAMES("num_nextn_predict_layers"), false, 0);
    if (!r->ok || layers == 0)
        return;
    const size_t b = build_block(a, &plan, &t, false, false);
    const uint64_t h = a->hidden_size;
    gs_block_module(a, b, "input_proj", GS_MODULE_LINEAR, GS_SPLIT_NONE, GS_PART_ATTENTION, 0,
                    2 * h, h, 1);
    gs_build_norms(a, b, "token_layernorm_hidden_layernorm_final_layernorm", 3, false);
    gs_arch_tower(a, "mtp", b, GS_PART_MTP, layers, false);
}

/* Qwen3ForCausalLM (modeling_qwen3.py): RMSNorm q_norm and k_norm over
 * head_dim, attention_bias (default false) on q, k, v and o. */
static void read_qwen3(struct model_reader *r, struct gs_arch *a)
{
    struct decoder_plan plan;
    decoder_read_dims(r, a, &plan, false, 0, false);
    const bool bias = rd_flag(r, "attention_bias", false);
    if (rd_flag(r, "use_sliding_window", false)) {
        plan.window = rd_dim(r, NAMES("sliding_window"), false, 0);
        if (!decoder_read_layer_types(r, &plan))
            decoder_window_all(&plan);
    }
    const struct decoder_traits t = {.norms = 2, .qk_norm = QK_HEAD, .qkv_bias = bias,
                                     .o_bias = bias};
    decoder_build(r, a, &plan, &t);
}

/* GemmaForCausalLM: head_dim 256 by default, GeGLU, tied. */
static void read_gemma(struct model_reader *r, struct gs_arch *a)
{
    struct decoder_plan plan;
    decoder_read_dims(r, a, &plan, true, 256, false);
    const struct decoder_traits t = {.norms = 2};
    decoder_build(r, a, &plan, &t);
    a->norm_weight_fp32 = true; /* GemmaRMSNorm: output * (1.0 + self.weight.float()) */
}

/* Gemma2ForCausalLM: four RMSNorms per layer; even layers attend through
 * the sliding window (is_sliding = not layer_idx % 2), or layer_types. */
static void read_gemma2_norms(struct model_reader *r, struct gs_arch *a, unsigned norms);

static void read_gemma2(struct model_reader *r, struct gs_arch *a)
{
    read_gemma2_norms(r, a, 4);
}

/* VaultGemmaForCausalLM (transformers models/vaultgemma/modular_vaultgemma.py;
 * google/vaultgemma-1b): Gemma 2 whose VaultGemmaDecoderLayer deletes post_attention_layernorm and
 * post_feedforward_layernorm - input_layernorm and pre_feedforward_layernorm remain -, the head
 * tied by default (VaultGemmaConfig is Gemma2Config's: a config without the key ties, where the
 * generic reading had it untied, +28%). */
static void read_vaultgemma(struct model_reader *r, struct gs_arch *a)
{
    read_gemma2_norms(r, a, 2);
}

/* Gemma 2's reader with `norms` RMSNorms a layer. */
static void read_gemma2_norms(struct model_reader *r, struct gs_arch *a, unsigned norms)
{
    struct decoder_plan plan;
    decoder_read_dims(r, a, &plan, true, 256, false);
    plan.window = rd_dim(r, NAMES("sliding_window"), false, 4096);
    if (!decoder_read_layer_types(r, &plan))
        for (uint64_t l = 0; l < plan.layers && l < GS_LAYERS_MAX; l++)
            plan.sliding[l] = l % 2 == 0;
    const struct decoder_traits t = {.norms = norms};
    decoder_build(r, a, &plan, &t);
    a->norm_weight_fp32 = true; /* Gemma2RMSNorm: output * (1.0 + self.weight.float()) */
    /* Gemma2Config defaults both to on (50.0 and 30.0): modeling_gemma2.py
     * eager_attention_forward soft-caps the scores (softcap=self.attn_logit_softcapping),
     * Gemma2ForCausalLM.forward the logits */
    a->attn_logit_softcap = rd_softcap(r, "attn_logit_softcapping", true);
    a->final_logit_softcap = rd_softcap(r, "final_logit_softcapping", true);
}

/* Gemma3ForCausalLM (modeling_gemma3.py): Gemma 2's four norms plus q_norm
 * and k_norm over head_dim; five local layers of sliding_window to every
 * global one (layer_types, or sliding_window_pattern 6: (l+1) % 6 != 0). */
static void read_gemma3_text(struct model_reader *r, struct gs_arch *a)
{
    struct decoder_plan plan;
    decoder_read_dims(r, a, &plan, true, 256, false);
    plan.window = rd_dim(r, NAMES("sliding_window"), false, 4096);
    if (!decoder_read_layer_types(r, &plan))
        decoder_window_pattern(&plan, rd_dim(r, NAMES("sliding_window_pattern"), false, 6));
    const bool bias = rd_flag(r, "attention_bias", false);
    const struct decoder_traits t = {.norms = 4, .qk_norm = QK_HEAD, .qkv_bias = bias,
                                     .o_bias = bias};
    decoder_build(r, a, &plan, &t);
    a->norm_weight_fp32 = true; /* Gemma3RMSNorm: output * (1.0 + self.weight.float()) */
    /* Gemma3TextConfig keeps Gemma 2's soft-capping switches, off by default */
    a->attn_logit_softcap = rd_softcap(r, "attn_logit_softcapping", false);
    a->final_logit_softcap = rd_softcap(r, "final_logit_softcapping", false);
    /* vLLM gemma3.py: the sliding layers override the rope with rope_local_base_freq and the
     * default scaling, a rotary table of their own over max_position_embeddings (models_read
     * adds the global layers' one as table 0) */
    const struct gs_block *blk = gs_arch_attention_block(a);
    if (r->ok && blk != NULL && a->max_position_embeddings) {
        a->rope_tables[1] = (struct gs_rope_table){a->max_position_embeddings, blk->attn.head_dim};
        a->rope_table_count = 2;
    }
}

/* Marks every attention block's q, k and v as views of its fused projection's output
 * (gs_attention.qkv_views), as the model's code slices them. */
static void fused_qkv_views(struct gs_arch *a)
{
    for (size_t i = 0; i < a->block_count && i < GS_BLOCKS_MAX; i++)
        if (a->blocks[i].mixer == GS_MIXER_ATTENTION)
            a->blocks[i].attn.qkv_views = true;
}

/* Phi3ForCausalLM: fused qkv_proj and gate_up_proj (the same count as
 * Llama's). Its config's sliding_window is not applied: vLLM serves Phi-3
 * with full attention on every layer. */
static void read_phi3(struct model_reader *r, struct gs_arch *a)
{
    static const struct gs_attention_names attn = {NULL, NULL, NULL, "o_proj", "qkv_proj"};
    struct decoder_plan plan;
    decoder_read_dims(r, a, &plan, false, 0, false);
    a->embedding_dropout = rd_dropout(r, NAMES("embd_pdrop")); /* Phi3Model.embed_dropout */
    const struct decoder_traits t = {
        .norms = 2, .attn_names = &attn, .mlp_names = &DECODER_GATE_UP_NAMES};
    decoder_build(r, a, &plan, &t);
    /* Phi3Attention.forward: query_states = qkv[..., :query_pos], key and value the next
     * slices, viewed per head; apply_rotary_pos_emb returns new q and k */
    fused_qkv_views(a);
}

/* GraniteForCausalLM: Llama with scaling multipliers (no parameters). */
static void read_granite(struct model_reader *r, struct gs_arch *a)
{
    read_llama(r, a);
}

/* HyperCLOVAXForCausalLM (transformers 5.8, models/hyperclovax/modular_hyperclovax.py;
 * naver-hyperclovax/HyperCLOVAX-SEED-Think-14B): Granite's layer (Llama's modules, MuP
 * multipliers without parameters) and, with use_post_norm (the default), Peri-LN's RMSNorms
 * post_norm1 and post_norm2 on the attention's and the MLP's outputs. */
static void read_hyperclovax(struct model_reader *r, struct gs_arch *a)
{
    struct decoder_plan plan;
    decoder_read_dims(r, a, &plan, false, 0, false);
    const bool attn_bias = rd_flag(r, "attention_bias", false);
    const struct decoder_traits t = {.norms = rd_flag(r, "use_post_norm", true) ? 4 : 2,
                                     .qkv_bias = attn_bias,
                                     .o_bias = attn_bias,
                                     .mlp_bias = rd_flag(r, "mlp_bias", false)};
    decoder_build(r, a, &plan, &t);
}

/* GraniteSWAForCausalLM (transformers 5.15, models/granite_swa/modular_granite_swa.py;
 * ibm-granite/granite-swash-2b): Granite's layer with a learnable sink logit a head
 * (self_attn.sinks) and layer_types' sliding layers attending through sliding_window (128 by
 * default; without layer_types every fourth layer, i % 4 == 0, is full). layer_rope_theta's
 * NoPE layers hold no parameter. GraniteSWAPreTrainedModel: _supports_sdpa = False, so
 * transformers trains it eager by default, its eager code applying the sinks after the softmax
 * (arch eager_sink_lse). Tied by default. */
static void read_granite_swa(struct model_reader *r, struct gs_arch *a)
{
    struct decoder_plan plan;
    decoder_read_dims(r, a, &plan, true, 0, false);
    plan.window = rd_dim(r, NAMES("sliding_window"), false, 128);
    if (!decoder_read_layer_types(r, &plan))
        for (uint64_t l = 0; l < plan.layers && l < GS_LAYERS_MAX; l++)
            plan.sliding[l] = l % 4 != 0;
    const bool attn_bias = rd_flag(r, "attention_bias", false);
    const struct decoder_traits t = {.norms = 2,
                                     .qkv_bias = attn_bias,
                                     .o_bias = attn_bias,
                                     .mlp_bias = rd_flag(r, "mlp_bias", false),
                                     .sinks = true};
    decoder_build(r, a, &plan, &t);
    a->attention_no_sdpa = true;
    a->eager_sink_lse = true;
}

/* GraniteMoe's block_sparse_moe on every layer of Granite's (models/granitemoe,
 * granitemoeshared): the router a bare [experts, h] weight (GraniteMoeTopKRouter: F.linear,
 * softmax over the top-k), fused experts of intermediate_size, and with shared_intermediate_size
 * (GraniteMoeShared; 0 or absent, none) shared_mlp, a gated MLP that wide. With `swa`,
 * GraniteMoeSWAForCausalLM (transformers 5.16, models/granitemoe_swa/modular_granitemoe_swa.py;
 * ibm-granite/granite-swash-3b-a600m): GraniteSWA's attention (a sink logit a head, sliding
 * layers by layer_types or every layer but each fourth, i % 4 == 0, through sliding_window),
 * eager-only as GraniteSWA (_supports_sdpa = False). Untied by default. */
static void read_granite_moe(struct model_reader *r, struct gs_arch *a, bool swa)
{
    struct decoder_plan plan;
    decoder_read_dims(r, a, &plan, false, 0, false);
    if (swa) {
        plan.window = rd_dim(r, NAMES("sliding_window"), false, 128);
        if (!decoder_read_layer_types(r, &plan))
            for (uint64_t l = 0; l < plan.layers && l < GS_LAYERS_MAX; l++)
                plan.sliding[l] = l % 4 != 0;
    }
    struct gs_moe *m = &plan.experts;
    memset(m, 0, sizeof(*m));
    m->experts = rd_dim(r, NAMES("num_local_experts"), false, 8);
    m->top_k = rd_dim(r, NAMES("num_experts_per_tok"), false, 2);
    m->width = plan.intermediate;
    m->gated = true;
    m->shared_width = rd_dim(r, NAMES("shared_intermediate_size"), false, 0);
    m->router_name = "block_sparse_moe.router";
    /* GraniteMoeTopKRouter holds self.weight from 5.0; 4.x's GraniteMoeTopKGating an nn.Linear
     * (`layer`); GraniteMoeSWA has only ever had the bare weight */
    m->router_parameter = swa;
    m->router_linear_until = swa ? 0 : GS_HF_RELEASE(5, 0, 0);
    m->experts_fused = true;
    if (r->ok && m->top_k > m->experts)
        rd_fail(r, "num_experts_per_tok", GS_ERR_INVALID, "%llu of %llu experts",
                (unsigned long long)m->top_k, (unsigned long long)m->experts);
    for (uint64_t l = 0; l < plan.layers && l < GS_LAYERS_MAX; l++)
        plan.moe[l] = true;
    const bool attn_bias = rd_flag(r, "attention_bias", false);
    const struct decoder_traits t = {
        .norms = 2, .qkv_bias = attn_bias, .o_bias = attn_bias, .sinks = swa};
    decoder_build(r, a, &plan, &t);
    a->attention_no_sdpa = swa;
    a->eager_sink_lse = swa;
}

static void read_granitemoe(struct model_reader *r, struct gs_arch *a)
{
    read_granite_moe(r, a, false);
}

static void read_granitemoe_swa(struct model_reader *r, struct gs_arch *a)
{
    read_granite_moe(r, a, true);
}

/* SmolLM3ForCausalLM: Llama with NoPE on every no_rope_layer_interval-th
 * layer (memory unchanged), tied by default. */
static void read_smollm3(struct model_reader *r, struct gs_arch *a)
{
    struct decoder_plan plan;
    decoder_read_dims(r, a, &plan, true, 0, false);
    const bool bias = rd_flag(r, "attention_bias", false);
    const struct decoder_traits t = {.norms = 2, .qkv_bias = bias, .o_bias = bias,
                                     .mlp_bias = rd_flag(r, "mlp_bias", false)};
    decoder_build(r, a, &plan, &t);
}

/* Olmo2ForCausalLM (modeling_olmo2.py): post-norms only
 * (post_attention_layernorm, post_feedforward_layernorm) and RMSNorm q_norm
 * over heads*d and k_norm over kv_heads*d. */
static void read_olmo2(struct model_reader *r, struct gs_arch *a)
{
    struct decoder_plan plan;
    decoder_read_dims(r, a, &plan, false, 0, false);
    const bool bias = rd_flag(r, "attention_bias", false);
    const struct decoder_traits t = {.norms = 2, .qk_norm = QK_FULL, .qkv_bias = bias,
                                     .o_bias = bias};
    decoder_build(r, a, &plan, &t);
    a->norm_weight_fp32 = true; /* (self.weight * hidden_states).to(input_dtype) */
}

/* CohereForCausalLM (modeling_cohere.py): attention and MLP in parallel off
 * one input_layernorm, a weight-only LayerNorm; with use_qk_norm, q_norm and
 * k_norm weights of [heads, head_dim]; tied. */
static void read_cohere(struct model_reader *r, struct gs_arch *a)
{
    struct decoder_plan plan;
    decoder_read_dims(r, a, &plan, true, 0, false);
    const bool bias = rd_flag(r, "attention_bias", false);
    const struct decoder_traits t = {.norms = 1,
                                     .qk_norm =
                                         rd_flag(r, "use_qk_norm", false) ? QK_HEADS : QK_NONE,
                                     .qkv_bias = bias,
                                     .o_bias = bias,
                                     .parallel = true};
    decoder_build(r, a, &plan, &t);
}

/* Cohere2ForCausalLM (modeling_cohere2.py): Cohere's parallel layer with
 * three sliding-window layers to every global one (layer_types, or
 * sliding_window_pattern 4). */
static void read_cohere2(struct model_reader *r, struct gs_arch *a)
{
    struct decoder_plan plan;
    decoder_read_dims(r, a, &plan, true, 0, false);
    plan.window = rd_dim(r, NAMES("sliding_window"), false, 4096);
    if (!decoder_read_layer_types(r, &plan))
        decoder_window_pattern(&plan, rd_dim(r, NAMES("sliding_window_pattern"), false, 4));
    const bool bias = rd_flag(r, "attention_bias", false);
    const struct decoder_traits t = {
        .norms = 1, .qkv_bias = bias, .o_bias = bias, .parallel = true};
    decoder_build(r, a, &plan, &t);
}

/* Cohere2MoeForCausalLM (transformers 5, models/cohere2_moe/modular_cohere2_moe.py; the class
 * documents CohereLabs/command-a-plus-05-2026): Cohere 2's parallel layer (one input norm -
 * Cohere2MoeRMSNorm where rms_norm_eps is set, else Cohere2LayerNorm, a weight either way - read by
 * the attention and the MLP), its window pattern, the head tied by default. mlp_layer_types (or,
 * as Cohere2MoeConfig.__post_init__ derives it, first_k_dense_replace dense layers first) picks a
 * dense Cohere2MoeMLP of prefix_dense_intermediate_size (intermediate_size when unset) or a
 * Cohere2MoeSparseMoeBlock: Cohere2MoeTopKRouter's bare weight [E, h], num_experts Mixtral experts
 * intermediate_size wide, and with num_shared_experts one shared MLP intermediate_size x
 * num_shared_experts wide. Without layer_types the dense prefix follows
 * prefix_dense_sliding_window_pattern (1: every prefix layer full) and the rest
 * sliding_window_pattern, counted from the first routed layer. */
static void read_cohere2_moe(struct model_reader *r, struct gs_arch *a)
{
    struct decoder_plan plan;
    decoder_read_dims(r, a, &plan, true, 0, false);
    plan.window = rd_dim(r, NAMES("sliding_window"), false, 4096);
    decoder_read_experts(r, &plan, true);
    plan.experts.shared_width =
        plan.intermediate * rd_dim(r, NAMES("num_shared_experts"), false, 0);
    plan.experts.router_parameter = true; /* Cohere2MoeTopKRouter: self.weight, F.linear */
    const uint64_t first_dense = rd_dim(r, NAMES("first_k_dense_replace"), false, 0);
    if (!rd_kind_list(r, "mlp_layer_types", "sparse", "dense", plan.layers, plan.moe) && r->ok)
        decoder_moe_from(&plan, first_dense);
    if (!decoder_read_layer_types(r, &plan) && r->ok) {
        const uint64_t prefix = rd_size(r, NAMES("prefix_dense_sliding_window_pattern"), 1);
        const uint64_t pattern = rd_size(r, NAMES("sliding_window_pattern"), 4);
        for (uint64_t l = 0; l < plan.layers && l < GS_LAYERS_MAX; l++) {
            const bool in_prefix = l < first_dense;
            const uint64_t i = in_prefix ? l : l - first_dense;
            plan.sliding[l] = (i + 1) % (in_prefix ? prefix : pattern) != 0;
        }
    }
    const uint64_t dense_width = rd_dim(r, NAMES("prefix_dense_intermediate_size"), false, 0);
    if (dense_width != 0)
        plan.intermediate = dense_width;
    const bool bias = rd_flag(r, "attention_bias", false);
    if (r->ok && plan.experts.experts != 0 && plan.experts.top_k > plan.experts.experts)
        rd_fail(r, "num_experts_per_tok", GS_ERR_INVALID, "is more than num_experts");
    const struct decoder_traits t = {
        .norms = 1, .qkv_bias = bias, .o_bias = bias, .parallel = true};
    decoder_build(r, a, &plan, &t);
}

/* InternLM2ForCausalLM (remote code modeling_internlm2.py): fused wqkv (GQA),
 * wo, feed_forward w1 (gate), w3 (up), w2 (down), attention_norm and
 * ffn_norm; `bias` on every linear; tok_embeddings and an untied output. */
static void read_internlm2(struct model_reader *r, struct gs_arch *a)
{
    static const struct gs_attention_names attn = {NULL, NULL, NULL, "wo", "wqkv"};
    static const struct gs_mlp_names mlp = {"w1", "w3", "w2", NULL};
    struct decoder_plan plan;
    decoder_read_dims(r, a, &plan, false, 0, false);
    const bool bias = rd_flag(r, "bias", true);
    const struct decoder_traits t = {.norms = 2, .qkv_bias = bias, .o_bias = bias,
                                     .mlp_bias = bias, .attn_names = &attn, .mlp_names = &mlp,
                                     .head_name = "output"};
    decoder_build(r, a, &plan, &t);
    /* modeling_internlm2.py: rearrange(qkv_states, "b q (h gs d) -> b q h gs d"), then
     * value_states = qkv_states[..., -1, :], a view (the query heads reshaped into a copy) */
    fused_qkv_views(a);
}

/* StableLmForCausalLM (modeling_stablelm.py): LayerNorm with bias; q, k, v
 * biases with use_qkv_bias; per-head LayerNorms (no bias) with
 * qk_layernorm; one norm with use_parallel_residual, else two. */
static void read_stablelm(struct model_reader *r, struct gs_arch *a)
{
    struct decoder_plan plan;
    decoder_read_dims(r, a, &plan, false, 0, false);
    const bool parallel = rd_flag(r, "use_parallel_residual", false);
    const struct decoder_traits t = {.norms = parallel ? 1 : 2,
                                     .norm_bias = true,
                                     .parallel = parallel,
                                     .qk_norm =
                                         rd_flag(r, "qk_layernorm", false) ? QK_HEADS : QK_NONE,
                                     .qkv_bias = rd_flag(r, "use_qkv_bias", false)};
    decoder_build(r, a, &plan, &t);
}

/* MixtralForCausalLM: Llama attention; every layer routes to
 * num_local_experts SwiGLU experts of intermediate_size (router `gate`; each expert's w1, w3
 * and w2, GS_EXPERT_NAMES_W). */
static void read_mixtral(struct model_reader *r, struct gs_arch *a)
{
    struct decoder_plan plan;
    decoder_read_dims(r, a, &plan, false, 0, false);
    decoder_read_experts(r, &plan, true);
    plan.experts.expert_names = &GS_EXPERT_NAMES_W;
    plan.experts.router_linear_until = GS_ROUTER_TOPK_FROM_5; /* MixtralTopKRouter */
    decoder_moe_every(r, &plan, 1);
    const struct decoder_traits t = {.norms = 2};
    decoder_build(r, a, &plan, &t);
}

/* Qwen2MoeForCausalLM: Qwen2 attention; every decoder_sparse_step-th layer
 * (but mlp_only_layers) routes, with a shared expert of
 * shared_expert_intermediate_size behind a sigmoid gate Linear(h, 1). */
static void read_qwen2_moe(struct model_reader *r, struct gs_arch *a)
{
    struct decoder_plan plan;
    decoder_read_dims(r, a, &plan, false, 0, false);
    decoder_read_experts(r, &plan, false);
    plan.experts.shared_width = rd_dim(r, NAMES("shared_expert_intermediate_size"), true, 0);
    plan.experts.shared_gate = true;
    plan.experts.router_linear_until = GS_ROUTER_TOPK_FROM_5; /* Qwen2MoeTopKRouter */
    decoder_moe_every(r, &plan, rd_dim(r, NAMES("decoder_sparse_step"), false, 1));
    const struct decoder_traits t = {.norms = 2, .qkv_bias = true};
    decoder_build(r, a, &plan, &t);
}

/* Qwen3MoeForCausalLM: Qwen3 attention (q/k norms), routed experts only;
 * intermediate_size serves the dense layers of mlp_only_layers. */
static void read_qwen3_moe(struct model_reader *r, struct gs_arch *a)
{
    struct decoder_plan plan;
    decoder_read_dims(r, a, &plan, false, 0, true);
    decoder_read_experts(r, &plan, false);
    plan.experts.router_linear_until = GS_ROUTER_TOPK_FROM_5; /* Qwen3MoeTopKRouter */
    decoder_moe_every(r, &plan, rd_dim(r, NAMES("decoder_sparse_step"), false, 1));
    const bool bias = rd_flag(r, "attention_bias", false);
    const struct decoder_traits t = {.norms = 2, .qk_norm = QK_HEAD, .qkv_bias = bias,
                                     .o_bias = bias};
    decoder_build(r, a, &plan, &t);
}

/* MellumForCausalLM (transformers models/mellum/modular_mellum.py; the class documents
 * JetBrains/Mellum2-12B-A2.5B-Base): Qwen3-MoE's attention (q/k norms over head_dim) in Laguna's
 * layer - mlp_layer_types picks Qwen3-MoE's sparse block or a dense SwiGLU of intermediate_size
 * (all sparse by default) - and layer_types its sliding layers (sliding_window; all full by
 * default); untied. */
static void read_mellum(struct model_reader *r, struct gs_arch *a)
{
    struct decoder_plan plan;
    decoder_read_dims(r, a, &plan, false, 128, false);
    decoder_read_experts(r, &plan, false);
    plan.experts.router_linear_until = GS_ROUTER_TOPK_FROM_5; /* Qwen3MoeTopKRouter */
    if (!rd_kind_list(r, "mlp_layer_types", "sparse", "dense", plan.layers, plan.moe) && r->ok)
        decoder_moe_every(r, &plan, 1);
    plan.window = rd_dim(r, NAMES("sliding_window"), false, 1024);
    decoder_read_layer_types(r, &plan);
    const bool bias = rd_flag(r, "attention_bias", false);
    const struct decoder_traits t = {
        .norms = 2, .qk_norm = QK_HEAD, .qkv_bias = bias, .o_bias = bias};
    decoder_build(r, a, &plan, &t);
}

/* OlmoeForCausalLM (modeling_olmoe.py): RMSNorm q_norm over hidden and
 * k_norm over kv_heads*d; every layer routes, no shared expert. */
static void read_olmoe(struct model_reader *r, struct gs_arch *a)
{
    struct decoder_plan plan;
    decoder_read_dims(r, a, &plan, false, 0, false);
    decoder_read_experts(r, &plan, true);
    plan.experts.router_linear_until = GS_ROUTER_TOPK_FROM_5; /* OlmoeTopKRouter */
    decoder_moe_every(r, &plan, 1);
    const bool bias = rd_flag(r, "attention_bias", false);
    const struct decoder_traits t = {.norms = 2, .qk_norm = QK_FULL, .qkv_bias = bias,
                                     .o_bias = bias};
    decoder_build(r, a, &plan, &t);
}

/* PhimoeForCausalLM (modeling_phimoe.py): LayerNorms with bias, biases on
 * q, k, v and o (attention_bias), every layer routes (experts' w1, w3 and
 * w2, as Mixtral's), lm_head with a bias (lm_head_bias). */
static void read_phimoe(struct model_reader *r, struct gs_arch *a)
{
    struct decoder_plan plan;
    decoder_read_dims(r, a, &plan, false, 0, false);
    decoder_read_experts(r, &plan, true);
    plan.experts.expert_names = &GS_EXPERT_NAMES_W;
    decoder_moe_every(r, &plan, 1);
    const bool bias = rd_flag(r, "attention_bias", false);
    const struct decoder_traits t = {.norms = 2, .norm_bias = true, .qkv_bias = bias,
                                     .o_bias = bias, .head_bias = rd_flag(r, "lm_head_bias", false)};
    decoder_build(r, a, &plan, &t);
}

/* MiniMaxM2ForCausalLM (modeling_minimax_m2.py): full attention with q_norm
 * over heads*d and k_norm over kv_heads*d (use_qk_norm, qk_norm_type
 * per_layer); every layer routes to experts of intermediate_size (w1, w3
 * and w2, as Mixtral's); the router's e_score_correction_bias is a buffer. The MTP modules are not
 * built by transformers. */
static void read_minimax_m2(struct model_reader *r, struct gs_arch *a)
{
    struct decoder_plan plan;
    decoder_read_dims(r, a, &plan, false, 0, false);
    decoder_read_experts(r, &plan, true);
    plan.experts.expert_names = &GS_EXPERT_NAMES_W;
    /* MiniMaxM2TopKRouter (the type is not in transformers 4.x: a 4.x row counts an
     * nn.Linear) */
    plan.experts.router_linear_until = GS_ROUTER_TOPK_FROM_5;
    /* MiniMaxM2SparseMoeBlock's e_score_correction_bias, a persistent buffer (nn.Buffer) the
     * checkpoint stores */
    plan.experts.router_buffer = plan.experts.experts;
    decoder_moe_every(r, &plan, 1);
    const struct decoder_traits t = {.norms = 2,
                                     .qk_norm = rd_flag(r, "use_qk_norm", true) ? QK_FULL : QK_NONE};
    decoder_build(r, a, &plan, &t);
}

/* GptOssForCausalLM (modeling_gpt_oss.py): biases on q, k, v and o, a sink
 * logit per head, alternating 128-token sliding and full layers
 * (layer_types), and experts with biases behind a router with a bias. */
static void read_gpt_oss(struct model_reader *r, struct gs_arch *a)
{
    struct decoder_plan plan;
    decoder_read_dims(r, a, &plan, false, 0, false);
    plan.window = rd_dim(r, NAMES("sliding_window"), false, 128);
    if (!decoder_read_layer_types(r, &plan))
        for (uint64_t l = 0; l < plan.layers && l < GS_LAYERS_MAX; l++)
            plan.sliding[l] = l % 2 == 0;
    decoder_read_experts(r, &plan, true);
    plan.experts.expert_bias = true;
    plan.experts.router_bias = true;
    plan.experts.router_name = "router";
    plan.experts.experts_fused = true; /* GptOssExperts: gate_up_proj, down_proj (3D) */
    plan.experts.router_parameter = true; /* GptOssTopKRouter: weight and bias parameters */
    decoder_moe_every(r, &plan, 1);
    const struct decoder_traits t = {.norms = 2, .qkv_bias = true, .o_bias = true, .sinks = true};
    decoder_build(r, a, &plan, &t);
    a->norm_weight_fp32 = true; /* (self.weight * hidden_states).to(input_dtype) */
    /* GptOssPreTrainedModel: _supports_sdpa = False (SDPA has no sink logit), flash (the
     * kernels hub's sink-aware kernel) and flex supported: the default is eager */
    a->attention_no_sdpa = true;
    /* its eager_attention_forward runs softmax at the scores' own dtype (F.softmax(combined_logits,
     * dim=-1, dtype=combined_logits.dtype)), the sink column then sliced off: a view the matmul
     * with V keeps, so no cast copy */
    a->eager_softmax_native = true;
    /* GptOssExperts._apply_gate: the config's hidden_act (silu) is not what runs */
    for (size_t i = 0; i < a->block_count; i++)
        a->blocks[i].mlp.act = GS_ACT_GPT_OSS_GLU;
}

/* GlmForCausalLM (transformers models/glm/modeling_glm.py; THUDM/glm-4-9b-chat-hf): Llama's
 * layer with biases on q, k and v (attention_bias, GlmConfig's default true; o_proj never), the
 * gate and up projections one nn.Linear (GlmMLP.gate_up_proj, 2 x intermediate_size wide) and
 * half the head rotated (partial_rotary_factor 0.5, read with the rope tables). Glm4ForCausalLM
 * (models/glm4/modeling_glm4.py; THUDM/GLM-4-9B-0414, GLM-4-32B-0414, GLM-Z1) is that layer with
 * sandwich norms - Glm4DecoderLayer applies post_self_attn_layernorm to the attention's output
 * and post_mlp_layernorm to the MLP's before each residual add: `norms` 4 (Glm4Config:
 * attention_bias true, head_dim 128 by default). */
static void read_glm_layers(struct model_reader *r, struct gs_arch *a, unsigned norms)
{
    struct decoder_plan plan;
    decoder_read_dims(r, a, &plan, false, 0, false);
    const struct decoder_traits t = {.norms = norms,
                                     .qkv_bias = rd_flag(r, "attention_bias", true),
                                     .mlp_names = &DECODER_GATE_UP_NAMES};
    decoder_build(r, a, &plan, &t);
}

static void read_glm(struct model_reader *r, struct gs_arch *a)
{
    read_glm_layers(r, a, 2);
}

static void read_glm4(struct model_reader *r, struct gs_arch *a)
{
    read_glm_layers(r, a, 4);
}

/* Glm4MoeForCausalLM (modeling_glm4_moe.py): biases on q, k and v
 * (attention_bias), q_norm/k_norm over head_dim with use_qk_norm; layers
 * from first_k_dense_replace route to n_routed_experts with n_shared_experts
 * shared (e_score_correction_bias is a buffer). The MTP layers
 * (num_nextn_predict_layers) are not built by transformers; vLLM's
 * glm4_moe_mtp.py builds each as DeepSeek's (enorm, hnorm, eh_proj, a shared
 * head, a Glm4MoeDecoderLayer): the mtp tower. */
static void read_glm4_moe(struct model_reader *r, struct gs_arch *a)
{
    struct decoder_plan plan;
    decoder_read_dims(r, a, &plan, false, 0, false);
    decoder_read_experts(r, &plan, false);
    plan.experts.shared_width =
        plan.experts.width * rd_dim(r, NAMES("n_shared_experts"), false, 0);
    /* Glm4MoeTopkRouter.forward: F.linear(hidden_states.type(torch.float32),
     * self.weight.type(torch.float32)) */
    plan.experts.router_fp32 = true;
    plan.experts.router_parameter = true; /* Glm4MoeTopkRouter: self.weight, a bare parameter */
    /* and its e_score_correction_bias, a persistent fp32 buffer the checkpoint stores */
    plan.experts.router_buffer = plan.experts.experts;
    decoder_moe_from(&plan, rd_dim(r, NAMES("first_k_dense_replace"), false, 0));
    const struct decoder_traits t = {.norms = 2,
                                     .qk_norm = rd_flag(r, "use_qk_norm", false) ? QK_HEAD : QK_NONE,
                                     .qkv_bias = rd_flag(r, "attention_bias", false)};
    decoder_build(r, a, &plan, &t);
    decoder_build_mtp(r, a, &plan, &t, rd_dim(r, NAMES("num_nextn_predict_layers"), false, 0));
}

/* SolarOpenForCausalLM (Solar Open 100B; transformers models/solar_open, modular_solar_open.py:
 * SolarOpenConfig(Glm4MoeConfig) without intermediate_size, first_k_dense_replace and
 * use_qk_norm): GLM-4.5's routed layers (Glm4MoeMoE: the fp32-scored router with its correction
 * bias, routed experts, shared experts of moe_intermediate_size x n_shared_experts) in every
 * layer, Llama's attention with q, k and v biased as attention_bias says (false by default) and
 * an unbiased o_proj, no q/k norms, two RMSNorms, an untied head; no MTP layer (the class has no
 * num_nextn_predict_layers). The config's intermediate_size is unused. vLLM's solar_open.py
 * builds the same modules. */
static void read_solar_open(struct model_reader *r, struct gs_arch *a)
{
    struct decoder_plan plan;
    decoder_read_dims(r, a, &plan, false, 128, true);
    decoder_read_experts(r, &plan, false);
    plan.experts.shared_width = plan.experts.width * rd_dim(r, NAMES("n_shared_experts"), false, 1);
    plan.experts.router_fp32 = true;
    plan.experts.router_parameter = true;
    plan.experts.router_buffer = plan.experts.experts;
    decoder_moe_from(&plan, 0);
    const struct decoder_traits t = {.norms = 2, .qkv_bias = rd_flag(r, "attention_bias", false)};
    decoder_build(r, a, &plan, &t);
}

/* SeedOssForCausalLM (modeling_seed_oss.py): Llama with attention_bias on
 * q, k and v (default true), attention_out_bias on o (default false) and
 * mlp_bias (default false). */
static void read_seed_oss(struct model_reader *r, struct gs_arch *a)
{
    struct decoder_plan plan;
    decoder_read_dims(r, a, &plan, false, 0, false);
    const struct decoder_traits t = {.norms = 2,
                                     .qkv_bias = rd_flag(r, "attention_bias", true),
                                     .o_bias = rd_flag(r, "attention_out_bias", false),
                                     .mlp_bias = rd_flag(r, "mlp_bias", false)};
    decoder_build(r, a, &plan, &t);
}

/* Olmo3ForCausalLM (modular_olmo3.py: Olmo2 layers; vLLM olmo2.py serves
 * both): OLMo 2's post-norms and q_norm over heads*d / k_norm over
 * kv_heads*d, with sliding_window (4096) attention on the layers
 * layer_types marks sliding_attention, or, without the list, on three of
 * every four ((l + 1) % 4 != 0, as Olmo3Config fills it). */
static void read_olmo3(struct model_reader *r, struct gs_arch *a)
{
    struct decoder_plan plan;
    decoder_read_dims(r, a, &plan, false, 0, false);
    plan.window = rd_dim(r, NAMES("sliding_window"), false, 4096);
    if (!decoder_read_layer_types(r, &plan))
        decoder_window_pattern(&plan, 4);
    const bool bias = rd_flag(r, "attention_bias", false);
    const struct decoder_traits t = {
        .norms = 2, .qk_norm = QK_FULL, .qkv_bias = bias, .o_bias = bias};
    decoder_build(r, a, &plan, &t);
    /* vLLM olmo2.py applies rope scaling on the full layers only: with a scaling the sliding
     * layers build a plain table of their own over max_position_embeddings (models_read adds
     * the full layers' one as table 0) */
    bool sliding = false;
    for (uint64_t l = 0; l < plan.layers && l < GS_LAYERS_MAX; l++)
        sliding = sliding || plan.sliding[l];
    const json_t *scaling = rd_get(r, "rope_scaling");
    const char *type = json_string_value(json_object_get(scaling, "rope_type"));
    if (r->ok && sliding && json_is_object(scaling) && a->max_position_embeddings &&
        (type == NULL || strcmp(type, "default") != 0)) {
        a->rope_tables[1] = (struct gs_rope_table){a->max_position_embeddings, plan.head_dim};
        a->rope_table_count = 2;
    }
}

/* ApertusForCausalLM (modeling_apertus.py; vLLM apertus.py): Llama
 * attention with RMSNorm q_norm and k_norm over head_dim (attention_bias on
 * q, k, v and o), attention_layernorm and feedforward_layernorm, and an
 * ungated MLP (up_proj, down_proj; mlp_bias) through xIELU, whose alpha_p and
 * alpha_n are one-element parameters in every layer (beta and eps are
 * buffers). Another hidden_act has no parameters. */
static void read_apertus(struct model_reader *r, struct gs_arch *a)
{
    struct decoder_plan plan;
    decoder_read_dims(r, a, &plan, false, 0, false);
    const char *act = rd_string(r, "hidden_act");
    const bool xielu = act == NULL || strcmp(act, "xielu") == 0;
    const bool bias = rd_flag(r, "attention_bias", false);
    const struct decoder_traits t = {.norms = 2,
                                     .qk_norm = QK_HEAD,
                                     .qkv_bias = bias,
                                     .o_bias = bias,
                                     .mlp_bias = rd_flag(r, "mlp_bias", false),
                                     .plain_mlp = true,
                                     .act_params = xielu ? 2 : 0};
    decoder_build(r, a, &plan, &t);
    a->norm_weight_fp32 = true; /* (self.weight * hidden_states).to(input_dtype) */
}

/* The Jais 2 and Nemotron-4 layer: LayerNorms with weight and bias (Nemotron's LayerNorm1P adds
 * 1 to its weight, no extra parameter), q/k/v/o biased by attention_bias, NemotronMLP's ungated
 * up_proj/down_proj biased by mlp_bias; the biases' defaults are the configuration class's. */
static void read_layernorm_plain(struct model_reader *r, struct gs_arch *a, bool bias_default)
{
    static const struct gs_mlp_names mlp = {NULL, "up_proj", "down_proj", NULL};
    struct decoder_plan plan;
    decoder_read_dims(r, a, &plan, false, 0, false);
    const bool bias = rd_flag(r, "attention_bias", bias_default);
    const struct decoder_traits t = {.norms = 2,
                                     .norm_bias = true,
                                     .qkv_bias = bias,
                                     .o_bias = bias,
                                     .mlp_bias = rd_flag(r, "mlp_bias", bias_default),
                                     .mlp_names = &mlp,
                                     .plain_mlp = true};
    decoder_build(r, a, &plan, &t);
}

/* Jais2ForCausalLM (transformers 5.0, models/jais2/modular_jais2.py; inceptionai/Jais-2-8B-Chat):
 * LlamaDecoderLayer with LayerNorms (weight and bias: input, post-attention and the final norm),
 * q/k/v/o with attention_bias and NemotronMLP's ungated up_proj/down_proj with mlp_bias (both
 * true by default), relu2 between them; the head untied by default. */
static void read_jais2(struct model_reader *r, struct gs_arch *a)
{
    read_layernorm_plain(r, a, true);
}

/* NemotronForCausalLM (transformers models/nemotron/modeling_nemotron.py; vLLM nemotron.py;
 * Nemotron-4 340B, Minitron 4B/8B, Nemotron-Mini-4B): Jais 2's layer - NemotronLayerNorm1P
 * input, post-attention and final norms (weight and bias), q/k/v/o and NemotronMLP's up/down with
 * relu2 - with attention_bias and mlp_bias false by default; head_dim from the config (Minitron's
 * 128 for 48 heads of a 4,096 stream); partial_rotary_factor rotates part of each head, no
 * parameter; untied. The generic reading added a gate to the MLP (Minitron-8B: 10.42B for
 * 8.27B). */
static void read_nemotron(struct model_reader *r, struct gs_arch *a)
{
    read_layernorm_plain(r, a, false);
}

/* NanoChatForCausalLM (transformers models/nanochat/modular_nanochat.py; karpathy/nanochat-d32):
 * Llama's layer with weightless norms - NanoChatRMSNorm is Llama4TextL2Norm, no weight: the input
 * and post-attention norms, the final norm (which also normalizes the embeddings before the first
 * layer) and q_norm/k_norm over each head after the rotary embedding -, q/k/v/o biased by
 * attention_bias, NanoChatMLP's ungated fc1/fc2 without biases (relu2 by default), the head untied
 * and its logits soft-capped (final_logit_softcapping, Gemma 2's ForCausalLM). The generic reading
 * gated the MLP and weighted the norms (+29%). nanochat-d32's shapes: 1,879,048,192. */
static void read_nanochat(struct model_reader *r, struct gs_arch *a)
{
    static const struct gs_mlp_names mlp = {NULL, "mlp.fc1", "mlp.fc2", NULL};
    struct decoder_plan plan;
    decoder_read_dims(r, a, &plan, false, 0, false);
    const bool bias = rd_flag(r, "attention_bias", false);
    const struct decoder_traits t = {
        .norms = 2, .qkv_bias = bias, .o_bias = bias, .mlp_names = &mlp, .plain_mlp = true};
    decoder_build(r, a, &plan, &t);
    a->final_logit_softcap = rd_softcap(r, "final_logit_softcapping", true);
    for (size_t b = 0; b < a->block_count; b++) {
        struct gs_block *k = &a->blocks[b];
        k->attn.qk_norm_bare = true;
        for (size_t i = 0; i < k->module_count; i++)
            if (k->modules[i].kind == GS_MODULE_NORM)
                k->modules[i].flags |= GS_MOD_BARE;
    }
    for (size_t i = 0; i < a->module_count; i++)
        if (a->modules[i].kind == GS_MODULE_NORM)
            a->modules[i].flags |= GS_MOD_BARE;
}

/* HrmTextForCausalLM (transformers models/hrm_text/modular_hrm_text.py; vLLM and SGLang
 * hrm_text.py; sapientinc/HRM-Text-1B): two stacks of num_layers_per_stack layers - L_module and
 * H_module, the same shapes, their own weights - run over H_cycles cycles of L_cycles L passes and
 * one H pass (HrmTextModel.forward), each pass a KV cache slot of its own (past_key_values.update
 * at layer_idx + cycle_offset; vLLM one Attention a step and layer). A layer: Llama's attention,
 * always multi-head (num_key_value_heads is removed from the config; vLLM and SGLang take
 * num_attention_heads), head_dim 128 by default, with a sigmoid output gate self_attn.gate_proj
 * over heads x head_dim; a SwiGLU MLP; weightless RMSNorms (HrmTextRMSNorm has no weight), the
 * stacks' final norms too; no model-level norm. z_L_init, a frozen hidden-size parameter the
 * checkpoint stores; the head untied by default. HrmTextConfig rewrites num_hidden_layers to the
 * passes (num_layers_per_stack x H_cycles x (L_cycles + 1)) and keeps the stack's depth in
 * num_layers_per_stack; a config saved before that gives the depth as num_hidden_layers. Here the
 * layer map is the passes in forward order, the L and H layers two blocks whose weights are stored
 * num_layers_per_stack times each (gs_arch_share_block_weights). HRM-Text-1B: 32 x 30,670,848 +
 * 2 x 65,536 x 1,536 + 1,536 = 1,182,795,264, the Hub's count. Training: L_bp_cycles keeps the
 * activations of the last L passes of each cycle only (the rest run under no_grad); every pass
 * is counted here, an overestimate. */
static void read_hrm_text(struct model_reader *r, struct gs_arch *a)
{
    struct decoder_plan plan;
    decoder_read_dims(r, a, &plan, false, 128, false);
    const uint64_t depth = rd_dim(r, NAMES("num_layers_per_stack"), false, plan.layers);
    const uint64_t high = rd_dim(r, NAMES("H_cycles"), false, 2);
    const uint64_t low = rd_dim(r, NAMES("L_cycles"), false, 3);
    const bool mlp_bias = rd_flag(r, "mlp_bias", false);
    const bool bias = rd_flag(r, "attention_bias", false);
    bool ovf = false;
    const uint64_t passes = gs_mul(gs_mul(depth, high, &ovf), low + 1, &ovf);
    if (r->ok && (depth == 0 || ovf || passes > GS_LAYERS_MAX))
        rd_fail(r,
                rd_get(r, "num_layers_per_stack") != NULL ? "num_layers_per_stack"
                                                          : "num_hidden_layers",
                GS_ERR_UNSUPPORTED,
                "num_layers_per_stack x H_cycles x (L_cycles + 1) layer passes: gpusizer describes "
                "at most %d",
                GS_LAYERS_MAX);
    if (!r->ok)
        return;
    plan.layers = depth;
    plan.kv_heads = plan.heads;
    const struct decoder_traits t = {
        .norms = 2, .qkv_bias = bias, .o_bias = bias, .mlp_bias = mlp_bias};
    decoder_build(r, a, &plan, &t);
    for (size_t i = 0; i < a->module_count; i++)
        if (a->modules[i].kind == GS_MODULE_NORM)
            a->modules[i].flags |= GS_MOD_BARE;
    struct gs_block *k = gs_arch_block(a, 0);
    if (k == NULL)
        return;
    for (size_t i = 0; i < k->module_count; i++)
        if (k->modules[i].kind == GS_MODULE_NORM)
            k->modules[i].flags |= GS_MOD_BARE;
    k->attn.output_gate = GS_GATE_SIGMOID;
    gs_block_module(a, 0, "self_attn.gate_proj", GS_MODULE_LINEAR, GS_SPLIT_COLUMN,
                    GS_PART_ATTENTION, GS_MOD_QUANT | (bias ? GS_MOD_BIAS : 0), a->hidden_size,
                    k->attn.heads * k->attn.head_dim, 1);
    const size_t hb = gs_arch_new_block(a);
    if (hb >= GS_BLOCKS_MAX)
        return;
    a->blocks[hb] = a->blocks[0];
    gs_arch_set_layers(a, passes, 0);
    for (uint64_t step = 0; step < high * (low + 1); step++)
        if (step % (low + 1) == low)
            for (uint64_t l = 0; l < depth; l++)
                gs_arch_set_layer(a, step * depth + l, hb);
    gs_arch_share_block_weights(a, 0, depth);
    gs_arch_share_block_weights(a, hb, depth);
    gs_arch_module(a, "z_L_init", GS_MODULE_TENSOR, GS_SPLIT_NONE, GS_PART_OTHER, 0, 1,
                   a->hidden_size, 1);
}

/* InternLM3ForCausalLM (internlm/internlm3-8b-instruct's remote modeling_internlm3.py; vLLM
 * serves it as Llama): Llama's layer whose q/k/v biases follow qkv_bias and whose o_proj and
 * MLP biases follow `bias` (false in the published config), untied. InternLM3-8B's config (hidden
 * 4,096, 48 layers, 32 heads and 2 KV heads of 128, MLP 10,240, 128,512 tokens): 8,804,241,408.
 * InternVL3-9B's language model. */
static void read_internlm3(struct model_reader *r, struct gs_arch *a)
{
    struct decoder_plan plan;
    decoder_read_dims(r, a, &plan, false, 0, false);
    const bool bias = rd_flag(r, "bias", false);
    const struct decoder_traits t = {
        .norms = 2, .qkv_bias = rd_flag(r, "qkv_bias", false), .o_bias = bias, .mlp_bias = bias};
    decoder_build(r, a, &plan, &t);
}

/* PersimmonForCausalLM (transformers models/persimmon/modeling_persimmon.py; adept/persimmon-8b):
 * LayerNorms with biases (input, post-attention, final), a fused, biased query_key_value
 * (h -> 3h) and a biased dense, with qk_layernorm LayerNorms (weight and bias) over each head of Q
 * and K, an ungated, biased dense_h_to_4h/dense_4h_to_h (relu2), partial rotary (no parameter),
 * untied. The generic reading gated the MLP: +26%. */
static void read_persimmon(struct model_reader *r, struct gs_arch *a)
{
    static const struct gs_attention_names attn = {NULL, NULL, NULL, "dense", "query_key_value"};
    static const struct gs_mlp_names mlp = {NULL, "dense_h_to_4h", "dense_4h_to_h", NULL};
    struct decoder_plan plan;
    decoder_read_dims(r, a, &plan, false, 0, false);
    const bool qk = rd_flag(r, "qk_layernorm", true);
    const struct decoder_traits t = {.norms = 2,
                                     .norm_bias = true,
                                     .qk_norm = qk ? QK_HEAD : QK_NONE,
                                     .qkv_bias = true,
                                     .o_bias = true,
                                     .mlp_bias = true,
                                     .attn_names = &attn,
                                     .mlp_names = &mlp,
                                     .plain_mlp = true};
    decoder_build(r, a, &plan, &t);
    for (size_t b = 0; b < a->block_count; b++)
        for (size_t i = 0; i < a->blocks[b].module_count; i++) {
            struct gs_module *m = &a->blocks[b].modules[i];
            if (m->kind == GS_MODULE_NORM && m->part == GS_PART_ATTENTION)
                m->flags |= GS_MOD_BIAS; /* nn.LayerNorm(head_dim, elementwise_affine=True) */
        }
}

/* ArceeForCausalLM (transformers models/arcee/modular_arcee.py; arcee-ai/AFM-4.5B): Llama's layer
 * with NemotronMLP - up_proj and down_proj, no gate, relu2 between them (ArceeConfig's
 * hidden_act) - biases where attention_bias and mlp_bias say (both false by default), untied. */
static void read_arcee(struct model_reader *r, struct gs_arch *a)
{
    static const struct gs_mlp_names mlp = {NULL, "up_proj", "down_proj", NULL};
    decoder_read_ungated(r, a, &mlp, 0);
}

void decoder_read_mla(struct model_reader *r, struct gs_attention *s, uint64_t heads)
{
    memset(s, 0, sizeof(*s));
    s->heads = heads;
    s->cached = true;
    s->q_lora_rank = rd_dim(r, NAMES("q_lora_rank"), false, 0);
    s->kv_lora_rank = rd_dim(r, NAMES("kv_lora_rank"), true, 0);
    s->qk_nope_head_dim = rd_dim(r, NAMES("qk_nope_head_dim"), true, 0);
    s->qk_rope_head_dim = rd_dim(r, NAMES("qk_rope_head_dim"), true, 0);
    s->v_head_dim = rd_dim(r, NAMES("v_head_dim"), true, 0);
}

void decoder_read_indexer(struct model_reader *r, struct gs_attention *s, uint64_t topk_default)
{
    s->index_heads = rd_dim(r, NAMES("index_n_heads"), true, 0);
    s->index_head_dim = rd_dim(r, NAMES("index_head_dim"), true, 0);
    s->index_topk = rd_dim(r, NAMES("index_topk"), false, topk_default);
}

void decoder_read_ungated(struct model_reader *r, struct gs_arch *a, const struct gs_mlp_names *mlp,
                          uint64_t head_dim)
{
    struct decoder_plan plan;
    decoder_read_dims(r, a, &plan, false, head_dim, false);
    const bool bias = rd_flag(r, "attention_bias", false);
    const struct decoder_traits t = {.norms = 2,
                                     .qkv_bias = bias,
                                     .o_bias = bias,
                                     .mlp_bias = rd_flag(r, "mlp_bias", false),
                                     .mlp_names = mlp,
                                     .plain_mlp = true};
    decoder_build(r, a, &plan, &t);
}

/* Starcoder2ForCausalLM (modeling_starcoder2.py; vLLM starcoder2.py): GQA with rope,
 * a sliding window on every layer, LayerNorm with a bias (input and post-attention, and the
 * final norm), use_bias on q, k, v, o and on the ungated c_fc/c_proj MLP; the head tied to
 * the embedding unless the config says otherwise (Starcoder2Config's default). */
static void read_starcoder2(struct model_reader *r, struct gs_arch *a)
{
    static const struct gs_mlp_names mlp = {NULL, "c_fc", "c_proj", NULL};
    struct decoder_plan plan;
    decoder_read_dims(r, a, &plan, true, 0, false);
    plan.window = rd_dim(r, NAMES("sliding_window"), false, 0);
    decoder_window_all(&plan);
    /* Starcoder2Attention and Starcoder2MLP drop their outputs with residual_dropout (after
     * o_proj and c_proj), Starcoder2Model the embeddings with embedding_dropout
     * (modeling_starcoder2.py; bigcode/starcoder2-7b: 0.1 each) */
    a->hidden_dropout = rd_dropout(r, NAMES("residual_dropout"));
    a->embedding_dropout = rd_dropout(r, NAMES("embedding_dropout"));
    const bool bias = rd_flag(r, "use_bias", true);
    const struct decoder_traits t = {.norms = 2,
                                     .norm_bias = true,
                                     .qkv_bias = bias,
                                     .o_bias = bias,
                                     .mlp_bias = bias,
                                     .mlp_names = &mlp,
                                     .plain_mlp = true};
    decoder_build(r, a, &plan, &t);
}

/* Ernie4_5ForCausalLM (modular_ernie4_5.py; vLLM ernie45.py): Llama with
 * use_bias on q, k, v, o and the MLP (never on lm_head), head_dim 128 unless
 * the config says otherwise, tied by default. */
static void read_ernie4_5(struct model_reader *r, struct gs_arch *a)
{
    struct decoder_plan plan;
    decoder_read_dims(r, a, &plan, true, 128, false);
    const bool bias = rd_flag(r, "use_bias", false);
    const struct decoder_traits t = {
        .norms = 2, .qkv_bias = bias, .o_bias = bias, .mlp_bias = bias};
    decoder_build(r, a, &plan, &t);
}

/* Layers that route in ERNIE 4.5 MoE: (l + 1) % moe_layer_interval == 0 and
 * moe_layer_start_index <= l <= moe_layer_end_index (-1 or null: the last
 * layer), as Ernie4_5_MoeDecoderLayer and Ernie4_5_MoeConfig decide. */
static void ernie_moe_layers(struct model_reader *r, struct decoder_plan *plan)
{
    const uint64_t interval = rd_dim(r, NAMES("moe_layer_interval"), false, 1);
    const uint64_t start = rd_dim(r, NAMES("moe_layer_start_index"), false, 1);
    uint64_t end = plan->layers ? plan->layers - 1 : 0;
    const json_t *end_v = rd_get(r, "moe_layer_end_index");
    if (json_is_integer(end_v) && json_integer_value(end_v) >= 0)
        end = (uint64_t)json_integer_value(end_v);
    else if (end_v != NULL && !(json_is_integer(end_v) && json_integer_value(end_v) == -1))
        rd_fail(r, "moe_layer_end_index", GS_ERR_INVALID, "must be a layer index or -1");
    if (interval == 0)
        rd_fail(r, "moe_layer_interval", GS_ERR_INVALID, "must be at least 1");
    for (uint64_t l = 0; l < plan->layers && l < GS_LAYERS_MAX && interval; l++)
        plan->moe[l] = (l + 1) % interval == 0 && l >= start && l <= end;
}

/* Ernie4_5_MoeForCausalLM (modular_ernie4_5_moe.py; vLLM ernie45_moe.py):
 * ERNIE 4.5 attention and dense MLP (use_bias), and on the routed layers
 * moe_num_experts experts of moe_intermediate_size (top moe_k) behind a
 * router Ernie4_5_MoeTopKRouter whose moe_statics.e_score_correction_bias
 * [1, E] transformers registers as an nn.Parameter (requires_grad False), so
 * parameters() counts it, and moe_num_shared_experts shared experts as one
 * MLP of that many times the expert width. lm_head carries use_bias. The MTP
 * layer (num_nextn_predict_layers) is skipped by transformers (`mtp` keys
 * ignored on load) and not described here. */
static void read_ernie4_5_moe(struct model_reader *r, struct gs_arch *a)
{
    struct decoder_plan plan;
    decoder_read_dims(r, a, &plan, true, 0, false);
    struct gs_moe *m = &plan.experts;
    m->experts = rd_dim(r, NAMES("moe_num_experts"), false, 64);
    m->top_k = rd_dim(r, NAMES("moe_k"), false, 6);
    m->width = rd_dim(r, NAMES("moe_intermediate_size"), false, 1536);
    m->shared_width = m->width * rd_dim(r, NAMES("moe_num_shared_experts"), false, 2);
    m->router_extra = m->experts;
    m->router_linear_until = GS_ROUTER_TOPK_FROM_5; /* Ernie4_5_MoeTopKRouter */
    m->gated = true;
    ernie_moe_layers(r, &plan);
    const bool bias = rd_flag(r, "use_bias", false);
    const struct decoder_traits t = {
        .norms = 2, .qkv_bias = bias, .o_bias = bias, .mlp_bias = bias, .head_bias = bias};
    decoder_build(r, a, &plan, &t);
    /* with use_bias the shared experts' gate, up and down projections carry biases too */
    for (size_t b = 0; bias && r->ok && b < a->block_count; b++)
        if (a->blocks[b].mlp.kind == GS_MLP_MOE && m->shared_width)
            gs_block_module(a, b, "shared_experts.bias", GS_MODULE_TENSOR, GS_SPLIT_NONE,
                            GS_PART_MLP, 0, 1, 2 * m->shared_width + a->hidden_size, 1);
}

const struct model_type MODELS_DECODER[] = {
    {"llama", "LlamaForCausalLM", read_llama},
    {"mistral", "MistralForCausalLM", read_mistral},
    {"qwen2", "Qwen2ForCausalLM", read_qwen2},
    {"mimo", "MiMoForCausalLM", read_mimo},
    {"qwen3", "Qwen3ForCausalLM", read_qwen3},
    {"gemma", "GemmaForCausalLM", read_gemma},
    {"gemma2", "Gemma2ForCausalLM", read_gemma2},
    {"vaultgemma", "VaultGemmaForCausalLM", read_vaultgemma},
    {"gemma3_text", "Gemma3ForCausalLM", read_gemma3_text},
    {"phi3", "Phi3ForCausalLM", read_phi3},
    {"granite", "GraniteForCausalLM", read_granite},
    {"smollm3", "SmolLM3ForCausalLM", read_smollm3},
    {"olmo2", "Olmo2ForCausalLM", read_olmo2},
    {"cohere", "CohereForCausalLM", read_cohere},
    {"cohere2", "Cohere2ForCausalLM", read_cohere2},
    {"cohere2_moe", "Cohere2MoeForCausalLM", read_cohere2_moe},
    {"mellum", "MellumForCausalLM", read_mellum},
    {"internlm2", "InternLM2ForCausalLM", read_internlm2},
    {"internlm3", "InternLM3ForCausalLM", read_internlm3},
    {"hrm_text", "HrmTextForCausalLM", read_hrm_text},
    {"stablelm", "StableLmForCausalLM", read_stablelm},
    {"mixtral", "MixtralForCausalLM", read_mixtral},
    {"qwen2_moe", "Qwen2MoeForCausalLM", read_qwen2_moe},
    {"qwen3_moe", "Qwen3MoeForCausalLM", read_qwen3_moe},
    {"olmoe", "OlmoeForCausalLM", read_olmoe},
    {"phimoe", "PhimoeForCausalLM", read_phimoe},
    {"minimax_m2", "MiniMaxM2ForCausalLM", read_minimax_m2},
    {"gpt_oss", "GptOssForCausalLM", read_gpt_oss},
    {"glm", "GlmForCausalLM", read_glm},
    {"arcee", "ArceeForCausalLM", read_arcee},
    {"nanochat", "NanoChatForCausalLM", read_nanochat},
    {"persimmon", "PersimmonForCausalLM", read_persimmon},
    {"nemotron", "NemotronForCausalLM", read_nemotron},
    {"glm4", "Glm4ForCausalLM", read_glm4},
    {"glm4_moe", "Glm4MoeForCausalLM", read_glm4_moe},
    {"solar_open", "SolarOpenForCausalLM", read_solar_open},
    {"seed_oss", "SeedOssForCausalLM", read_seed_oss},
    {"olmo3", "Olmo3ForCausalLM", read_olmo3},
    {"apertus", "ApertusForCausalLM", read_apertus},
    {"ernie4_5", "Ernie4_5ForCausalLM", read_ernie4_5},
    {"starcoder2", "Starcoder2ForCausalLM", read_starcoder2},
    {"ernie4_5_moe", "Ernie4_5_MoeForCausalLM", read_ernie4_5_moe},
    {"jais2", "Jais2ForCausalLM", read_jais2},
    {"hyperclovax", "HyperCLOVAXForCausalLM", read_hyperclovax},
    {"granite_swa", "GraniteSWAForCausalLM", read_granite_swa},
    {"granitemoe", "GraniteMoeForCausalLM", read_granitemoe},
    {"granitemoeshared", "GraniteMoeSharedForCausalLM", read_granitemoe},
    {"granitemoe_swa", "GraniteMoeSWAForCausalLM", read_granitemoe_swa},
    {NULL, NULL, NULL},
};
