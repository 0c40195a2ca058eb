/*
 * mla.c - DeepSeek-V2/V3 lineage: multi-head latent attention, routed and
 * shared experts after first_k_dense_replace dense layers, the MTP layers
 * the checkpoint stores, and DeepSeek-V3.2's sparse-attention indexer.
 * Kimi-K2 (model_type kimi_k2, DeepseekV3ForCausalLM) reads as DeepSeek-V3;
 * Mistral 4 (mistral4) is DeepSeek-V3's layer with a softmax router, Youtu
 * (youtu) its attention in dense Llama layers. LongCat-Flash (longcat_flash) pairs two MLA
 * sublayers per layer with a shortcut MoE that has identity experts.
 */
#include "readers/decoder.h"

#include <string.h>

struct mla_options {
    bool v3;          /* DeepseekV3: sigmoid router with e_score_correction_bias */
    bool indexer;     /* DeepSeek-V3.2 sparse attention */
    bool remote_bias; /* the repository's modeling_deepseek.py: the bias is an nn.Parameter */
    bool softmax_router; /* Mistral4TopkRouter: a bare parameter, no bias, the model's dtype */
    bool dense;          /* no expert keys: every layer dense (Youtu) */
    bool post_mlp_norm;  /* an RMSNorm on the MoE's output (A.X-K1's post_mlp_layernorm) */
    bool mlp_layer_types; /* the routed layers are mlp_layer_types' "sparse" entries, by default
                             every layer but the first (GLM-4.7-Flash) */
    bool axk2; /* A.X-K2: the output-gated fused q_b_proj, gated RMSNorms, the indexer's and the
                  dense layers' own defaults */
};

/* AXK2Attention and AXK2DecoderLayer (transformers models/axk2/modeling_axk2.py) over
 * DeepSeek-V3.2's layer: q_gate_proj (the checkpoint's q_b_proj) reads the concatenation of the
 * normed and the raw q_a_proj output, 2 x q_lora_rank, and gives each head its query and a gate
 * v_head_dim wide, the attention's output multiplied by its sigmoid before o_proj; input_layernorm
 * on every layer and post_attention_layernorm on the routed ones are AXK2GatedRMSNorm - the RMSNorm
 * and a gate MLP fc1 h -> gated_norm_rank, fc2 back, without biases (the fp8 checkpoint keeps them
 * 16-bit). */
static void axk2_layer(struct gs_arch *a, size_t b, bool routed, uint64_t rank)
{
    struct gs_block *k = gs_arch_block(a, b);
    if (k == NULL)
        return;
    for (size_t i = 0; i < k->module_count; i++)
        if (strcmp(k->modules[i].name, "q_b_proj") == 0) {
            k->modules[i].in = 2 * k->attn.q_lora_rank;
            k->modules[i].out = k->attn.heads * (k->attn.head_dim + k->attn.v_head_dim);
        }
    k->attn.output_gate = GS_GATE_SIGMOID;
    for (int n = 0; n < (routed ? 2 : 1); n++) {
        gs_block_module(a, b, n ? "post_attention_layernorm.mlp.fc1" : "input_layernorm.mlp.fc1",
                        GS_MODULE_LINEAR, GS_SPLIT_NONE, GS_PART_NORMS, 0, a->hidden_size, rank, 1);
        gs_block_module(a, b, n ? "post_attention_layernorm.mlp.fc2" : "input_layernorm.mlp.fc2",
                        GS_MODULE_LINEAR, GS_SPLIT_NONE, GS_PART_NORMS, 0, rank, a->hidden_size, 1);
    }
}

/* One MLA layer kind: attention, a dense MLP or the MoE (with A.X-K1's norm on its output), two
 * norms. */
static size_t mla_block(struct gs_arch *a, const struct gs_attention *spec, bool bias,
                        const struct decoder_plan *plan, bool routed, const struct mla_options *o)
{
    const size_t b = gs_arch_new_block(a);
    gs_build_mla(a, b, spec, bias);
    if (routed)
        gs_build_moe(a, b, &plan->experts);
    else
        gs_build_mlp(a, b, plan->intermediate, true, false, &GS_MLP_NAMES);
    gs_build_norms(a, b, "layernorm", 2, false);
    if (routed && o->post_mlp_norm)
        gs_build_norms(a, b, "mlp.post_mlp_layernorm", 1, false);
    if (o->axk2)
        axk2_layer(a, b, routed, plan->gated_norm_rank);
    return b;
}

/* DeepseekV2/V3ForCausalLM (modeling_deepseek_v3.py): a
 * layer l routes when l >= first_k_dense_replace and l % moe_layer_freq ==
 * 0; shared experts are one MLP n_shared_experts x moe_intermediate_size
 * wide. The checkpoint's num_nextn_predict_layers MTP layers (an MoE layer
 * plus enorm, hnorm, eh_proj (2h -> h), shared_head norm, and copies of the
 * embedding and head; DeepSeek-V3 README_WEIGHTS.md) are reported as the
 * mtp component: transformers ignores them (_keys_to_ignore_on_load_unexpected). */
static void read_deepseek(struct model_reader *r, struct gs_arch *a, const struct mla_options *o)
{
    struct decoder_plan plan;
    decoder_read_dims(r, a, &plan, false, 0, false);
    struct gs_attention spec;
    decoder_read_mla(r, &spec, plan.heads);
    if (o->indexer && !o->axk2)
        decoder_read_indexer(r, &spec, 0);
    if (o->axk2) {
        /* AXK2Config's defaults; its q_lora_rank must be set (validate_architecture) */
        spec.index_heads = rd_dim(r, NAMES("index_n_heads"), false, 16);
        spec.index_head_dim = rd_dim(r, NAMES("index_head_dim"), false, 128);
        spec.index_topk = rd_dim(r, NAMES("index_topk"), false, 2048);
        plan.gated_norm_rank = rd_dim(r, NAMES("gated_norm_rank"), false, 16);
        if (r->ok && spec.q_lora_rank == 0)
            rd_fail(r, "q_lora_rank", GS_ERR_INVALID, "must be positive (AXK2Config)");
    }
    if (!o->dense)
        decoder_read_experts(r, &plan, false);
    plan.experts.shared_width =
        o->dense ? 0 : plan.experts.width * rd_dim(r, NAMES("n_shared_experts"), false, 0);
    /* transformers 5's DeepseekV3TopkRouter registers e_score_correction_bias as a buffer
     * (register_buffer): stored in the checkpoint, weighed, not a parameter */
    if (o->v3 && o->remote_bias)
        plan.experts.router_extra = plan.experts.experts;
    else if (o->v3)
        plan.experts.router_buffer = plan.experts.experts;
    /* DeepseekV3TopkRouter.forward (and the remote MoEGate): F.linear(hidden_states.type(
     * torch.float32), self.weight.type(torch.float32)) */
    plan.experts.router_fp32 = o->v3;
    /* DeepseekV3TopkRouter (and the remote MoEGate) hold self.weight as a bare parameter;
     * DeepSeek-V2's router did in 4.x (DeepseekV2MoEGate) and again from 5.13
     * (DeepseekV2TopkRouter), and was `self.gate = nn.Linear(...)` from 5.0 to 5.12 (which
     * PEFT wraps, though the forward reads self.gate.weight and skips the adapter) */
    plan.experts.router_parameter = o->v3 || o->softmax_router;
    if (!o->v3 && !o->softmax_router) {
        plan.experts.router_linear_from = GS_HF_RELEASE(5, 0, 0);
        plan.experts.router_linear_until = GS_HF_RELEASE(5, 13, 0);
    }
    /* AXK2Config builds mlp_layer_types, when a config gives none, from first_k_dense_replace
     * (1 by default) and moe_layer_freq */
    const uint64_t first_dense = rd_dim(r, NAMES("first_k_dense_replace"), false, o->axk2 ? 1 : 0);
    const uint64_t freq = rd_size(r, NAMES("moe_layer_freq"), 1);
    for (uint64_t l = 0; l < plan.layers && l < GS_LAYERS_MAX; l++)
        plan.moe[l] = plan.experts.experts > 0 && l >= first_dense && (freq == 0 || l % freq == 0);
    if (o->axk2)
        rd_kind_list(r, "mlp_layer_types", "sparse", "dense", plan.layers, plan.moe);
    if (o->mlp_layer_types &&
        !rd_kind_list(r, "mlp_layer_types", "sparse", "dense", plan.layers, plan.moe) && r->ok)
        for (uint64_t l = 0; l < plan.layers && l < GS_LAYERS_MAX; l++)
            plan.moe[l] = plan.experts.experts > 0 && l >= 1;
    const bool bias = rd_flag(r, "attention_bias", false);
    if (!r->ok)
        return;
    size_t kinds[2];
    bool made[2] = {false, false};
    gs_arch_set_layers(a, plan.layers, 0);
    for (uint64_t l = 0; l < plan.layers && l < GS_LAYERS_MAX; l++) {
        const int m = plan.moe[l];
        if (!made[m]) {
            kinds[m] = mla_block(a, &spec, bias, &plan, m, o);
            made[m] = true;
        }
        gs_arch_set_layer(a, l, kinds[m]);
    }
    gs_arch_embeddings(a, a->hidden_size, "lm_head", false);
    gs_build_norms(a, GS_BLOCKS_MAX, "norm", 1, false);
    const uint64_t mtp = rd_dim(r, NAMES("num_nextn_predict_layers"), false, 0);
    if (mtp > 0) {
        /* as stored: the MTP tower counts every tensor, the correction bias included */
        const size_t b = mla_block(a, &spec, bias, &plan, plan.experts.experts > 0, o);
        decoder_mtp_fusion(a, b, true, "shared_head.head", mtp);
    }
}

static void read_deepseek_v2(struct model_reader *r, struct gs_arch *a)
{
    const struct mla_options o = {false, false, false, false, false, false, false, false};
    read_deepseek(r, a, &o);
}

static void read_deepseek_v3(struct model_reader *r, struct gs_arch *a)
{
    const struct mla_options o = {true, false, false, false, false, false, false, false};
    read_deepseek(r, a, &o);
}

/* Mistral4ForCausalLM (transformers 5.4, models/mistral4/modular_mistral4.py; the language
 * model of Mistral Small 4, mistralai/Mistral-Small-4-119B-2603, inside Mistral3's wrapper):
 * Mistral4DecoderLayer is DeepseekV3DecoderLayer's - Mistral4Attention is DeepseekV3Attention
 * (q_a/q_b with q_a_layernorm, kv_a_proj_with_mqa, kv_a_layernorm, kv_b_proj, o_proj; the cache
 * holds the latent and the rotary key: vLLM serves it with its MLA backends), the MoE
 * DeepseekV3MoE's (fused experts, one shared MLP moe_intermediate_size x n_shared_experts wide)
 * on the layers from first_k_dense_replace, a Qwen2MoeMLP below -, but Mistral4TopkRouter is
 * DeepseekV2TopkRouter's bare `weight` and no e_score_correction_bias, its logits
 * F.linear(hidden_states, self.weight) in the model's dtype before the softmax. The queries'
 * Llama 4 position scaling (rope_parameters' llama_4_scaling_beta) holds no parameter. */
static void read_mistral4(struct model_reader *r, struct gs_arch *a)
{
    const struct mla_options o = {false, false, false, true, false, false, false, false};
    read_deepseek(r, a, &o);
}

/* YoutuForCausalLM (transformers 5.1, models/youtu/modular_youtu.py; tencent/Youtu-LLM-2B):
 * LlamaDecoderLayer with DeepseekV3Attention - the MLA projections - and Qwen3MLP on every layer;
 * YoutuConfig deletes DeepseekV3Config's expert keys, so no layer routes. */
static void read_youtu(struct model_reader *r, struct gs_arch *a)
{
    const struct mla_options o = {false, false, false, false, true, false, false, false};
    read_deepseek(r, a, &o);
}

/* AXK1ForCausalLM (transformers 5.16, models/axk1/modular_axk1.py; skt/A.X-K1, 519B): DeepSeek-V3
 * (DeepseekV3Attention, DeepseekV3TopkRouter with its e_score_correction_bias buffer, fused
 * experts and a shared MLP from first_k_dense_replace) whose AXK1MoE normalizes its output,
 * routed and shared summed, with post_mlp_layernorm (an RMSNorm over hidden_size) before the
 * residual add. AXK1Config drops DeepSeek-V3's MTP depth; a checkpoint's num_nextn_predict_layers
 * (vLLM's AXK1Config, which names the type "AXK1": read by its architecture) is reported as the
 * mtp component as DeepSeek-V3's. */
static void read_axk1(struct model_reader *r, struct gs_arch *a)
{
    const struct mla_options o = {true, false, false, false, false, true, false, false};
    read_deepseek(r, a, &o);
}

/* Glm4MoeLiteForCausalLM (transformers 5.0, models/glm4_moe_lite/modular_glm4_moe_lite.py;
 * zai-org/GLM-4.7-Flash, 31B): DeepseekV3Attention (MLA: q_a/q_b with q_a_layernorm,
 * kv_a_proj_with_mqa, kv_a_layernorm, kv_b_proj, o_proj) in GLM-4.5's layer (Glm4MoeMoE: fused
 * experts, Glm4MoeTopkRouter's bare fp32-cast weight and e_score_correction_bias buffer, one
 * shared MLP), the routed layers mlp_layer_types' "sparse" ones - Glm4MoeLiteConfig.__post_init__
 * fills ["dense"] + ["sparse"] * (L - 1) and ignores first_k_dense_replace. The checkpoint's
 * num_nextn_predict_layers MTP layer (model.layers.47, its own embed_tokens and shared_head)
 * is skipped by transformers (_keys_to_ignore_on_load_unexpected) and reported as the mtp
 * tower, as DeepSeek-V3's. */
static void read_glm4_moe_lite(struct model_reader *r, struct gs_arch *a)
{
    const struct mla_options o = {true, false, false, false, false, false, true, false};
    read_deepseek(r, a, &o);
}

/* LongcatFlashForCausalLM (transformers 5, models/longcat_flash/modular_longcat_flash.py; vLLM
 * longcat_flash.py; meituan-longcat/LongCat-Flash-Chat, "560B total parameters"). A layer of
 * num_layers (not num_hidden_layers: LongcatFlashModel sets that to twice num_layers, and vLLM's
 * FlashConfig takes num_layers when the file has none) is two sublayers, each an RMSNorm, a
 * DeepseekV3Attention (MLA: q_a_proj, q_a_layernorm, q_b_proj, kv_a_proj_with_mqa,
 * kv_a_layernorm, kv_b_proj, o_proj; each caches its own latent - vLLM builds a
 * DeepseekV2MLAAttention per sublayer, layers.i.self_attn.0 and .1), an RMSNorm and a dense
 * SwiGLU ffn_hidden_size wide (mlps.0, mlps.1); the "shortcut" MoE reads the first sublayer's
 * normed MLP input, as mlps.0 does, and its output joins the residual after the second
 * sublayer. Described as 2 x num_layers decoder layers: the even ones carry the MoE beside their
 * MLP (a shared expert in all but timing: same input, output summed), the odd ones the MLP
 * alone. LongcatFlashMoE: n_routed_experts SwiGLU experts expert_ffn_hidden_size wide and
 * zero_expert_num identity experts; LongcatFlashTopkRouter's classifier is an
 * nn.Linear(hidden, n_routed_experts + zero_expert_num) whose logits are computed in fp32
 * (F.linear on .type(torch.float32); _keep_in_fp32_modules and vLLM's router_dtype float32
 * keep its weight fp32), and its e_score_correction_bias a buffer of the same width. Of a
 * token's moe_topk picks those that land on identity experts use no weights: the card's
 * 18.6B-31.3B activated; active_parameters is the bound, every pick a routed expert.
 * transformers 5's LongcatFlashExperts sizes gate_up_proj for n_routed_experts +
 * zero_expert_num experts but reads only the first n_routed_experts (the identity ones never
 * reach it); the checkpoint stores n_routed_experts, as counted here. The checkpoint's MTP
 * layer (model.mtp.*, skipped by transformers' _keys_to_ignore_on_load_unexpected; vLLM's
 * longcat_flash_mtp.py builds exactly one, num_mtp_layers = 1): its own embed_tokens, enorm,
 * hnorm, eh_proj (2h -> h), a dense DeepSeek-V2 layer (MLA, an ffn_hidden_size MLP, two norms)
 * and its final norm, no head of its own - reported as the mtp tower. */
static void read_longcat_flash(struct model_reader *r, struct gs_arch *a)
{
    const uint64_t h = rd_dim(r, NAMES("hidden_size"), true, 0);
    const uint64_t V = rd_dim(r, NAMES("vocab_size"), true, 0);
    gs_arch_init(a, NULL, h, V);
    const uint64_t layers = rd_dim(r, NAMES("num_layers"), true, 0);
    const uint64_t heads = rd_dim(r, NAMES("num_attention_heads"), true, 0);
    const uint64_t ffn = rd_dim(r, NAMES("ffn_hidden_size"), true, 0);
    a->max_position_embeddings = rd_dim(r, NAMES("max_position_embeddings"), false, 0);
    a->tie_word_embeddings = rd_flag(r, "tie_word_embeddings", false);
    a->attention_dropout = rd_dropout(r, NAMES("attention_dropout"));
    struct gs_attention spec;
    decoder_read_mla(r, &spec, heads);
    struct gs_moe moe;
    memset(&moe, 0, sizeof(moe));
    moe.experts = rd_dim(r, NAMES("n_routed_experts"), true, 0);
    moe.zero_experts = rd_dim(r, NAMES("zero_expert_num"), false, 0);
    moe.top_k = rd_dim(r, NAMES("moe_topk"), true, 0);
    moe.width = rd_dim(r, NAMES("expert_ffn_hidden_size"), true, 0);
    moe.gated = true;
    moe.router_name = "router.classifier";
    moe.router_bias = rd_flag(r, "router_bias", false);
    moe.router_buffer = moe.experts + moe.zero_experts;
    moe.router_fp32 = true;
    /* the forward reads classifier.weight through F.linear: an adapter wrapped around the
     * nn.Linear never runs */
    moe.router_parameter = true;
    moe.shared_width = ffn;
    const bool bias = rd_flag(r, "attention_bias", false);
    if (r->ok && layers > GS_LAYERS_MAX / 2)
        rd_fail(r, "num_layers", GS_ERR_UNSUPPORTED,
                "%llu layers of two sublayers: gpusizer describes at most %d",
                (unsigned long long)layers, GS_LAYERS_MAX / 2);
    if (r->ok && moe.top_k > moe.experts + moe.zero_experts)
        rd_fail(r, "moe_topk", GS_ERR_INVALID, "is more than the %llu experts the router scores",
                (unsigned long long)(moe.experts + moe.zero_experts));
    if (!r->ok)
        return;
    static const struct gs_mlp_names first = {"mlps.0.gate_proj", "mlps.0.up_proj",
                                              "mlps.0.down_proj", NULL};
    static const struct gs_mlp_names second = {"mlps.1.gate_proj", "mlps.1.up_proj",
                                               "mlps.1.down_proj", NULL};
    const size_t routed = gs_arch_new_block(a);
    gs_build_mla(a, routed, &spec, bias);
    gs_build_moe(a, routed, &moe);
    /* gs_build_moe names the shared MLP shared_expert.*: here it is the first sublayer's mlps.0 */
    struct gs_block *k = gs_arch_block(a, routed);
    for (size_t i = 0; k != NULL && i < k->module_count; i++) {
        const char *name = k->modules[i].name;
        if (strcmp(name, "shared_expert.gate_proj") == 0)
            k->modules[i].name = first.gate;
        else if (strcmp(name, "shared_expert.up_proj") == 0)
            k->modules[i].name = first.up;
        else if (strcmp(name, "shared_expert.down_proj") == 0)
            k->modules[i].name = first.down;
    }
    gs_build_norms(a, routed, "layernorm", 2, false);
    const size_t dense = gs_arch_new_block(a);
    gs_build_mla(a, dense, &spec, bias);
    gs_build_mlp(a, dense, ffn, true, false, &second);
    gs_build_norms(a, dense, "layernorm", 2, false);
    gs_arch_set_layers(a, 2 * layers, routed);
    for (uint64_t l = 1; l < 2 * layers; l += 2)
        gs_arch_set_layer(a, l, dense);
    gs_arch_embeddings(a, h, "lm_head", false);
    gs_build_norms(a, GS_BLOCKS_MAX, "norm", 1, false);
    const size_t mtp = gs_arch_new_block(a);
    gs_build_mla(a, mtp, &spec, bias);
    gs_build_mlp(a, mtp, ffn, true, false, &GS_MLP_NAMES);
    gs_build_norms(a, mtp, "layernorm", 2, false);
    gs_block_module(a, mtp, "eh_proj", GS_MODULE_LINEAR, GS_SPLIT_NONE, GS_PART_ATTENTION, 0, 2 * h,
                    h, 1);
    gs_build_norms(a, mtp, "enorm_hnorm_norm", 3, false);
    gs_block_module(a, mtp, "embed_tokens", GS_MODULE_EMBEDDING, GS_SPLIT_COLUMN, GS_PART_EMBEDDING,
                    0, V, h, 1);
    gs_arch_tower(a, "mtp", mtp, GS_PART_MTP, 1, false);
}

/* MiniCPM3ForCausalLM (transformers models/minicpm3/modular_minicpm3.py; openbmb/MiniCPM3-4B,
 * whose shapes MiniCPM3Config's defaults are): Llama's layer (two RMSNorms, a SwiGLU of
 * intermediate_size) around DeepseekV2Attention's projections (q_a_proj, q_a_layernorm, q_b_proj,
 * kv_a_proj_with_mqa, kv_a_layernorm, kv_b_proj, o_proj; v_head_dim hidden / heads when the config
 * gives none, as MiniCPM3Config.__post_init__ sets it), the head tied by default; scale_emb,
 * scale_depth and dim_model_base scale activations, no parameter. Its cache is not the latent:
 * vLLM's MiniCPM3Attention (models/minicpm3.py) runs a plain Attention(num_heads, qk_head_dim,
 * num_kv_heads=num_heads) over the decompressed keys and values, v padded to qk_head_dim - every
 * head's K and V, qk_nope_head_dim + qk_rope_head_dim wide each (MiniCPM3-4B: 62 layers x 2 x 40 x
 * 96 x 2 B = 952,320 B a token, 26.7 times the latent's 35,712). The block is read as attention
 * with that K/V geometry. */
static void read_minicpm3(struct model_reader *r, struct gs_arch *a)
{
    struct decoder_plan plan;
    decoder_read_dims(r, a, &plan, true, 0, false);
    struct gs_attention spec;
    memset(&spec, 0, sizeof(spec));
    spec.heads = plan.heads;
    spec.cached = true;
    spec.q_lora_rank = rd_dim(r, NAMES("q_lora_rank"), false, 0);
    spec.kv_lora_rank = rd_dim(r, NAMES("kv_lora_rank"), true, 0);
    spec.qk_nope_head_dim = rd_dim(r, NAMES("qk_nope_head_dim"), true, 0);
    spec.qk_rope_head_dim = rd_dim(r, NAMES("qk_rope_head_dim"), true, 0);
    spec.v_head_dim =
        rd_dim(r, NAMES("v_head_dim"), false, plan.heads ? a->hidden_size / plan.heads : 0);
    const bool bias = rd_flag(r, "attention_bias", false);
    const bool mlp_bias = rd_flag(r, "mlp_bias", false);
    if (!r->ok)
        return;
    if (spec.v_head_dim == 0) {
        rd_fail(r, "v_head_dim", GS_ERR_INVALID, "is 0: hidden_size is under num_attention_heads");
        return;
    }
    const size_t b = gs_arch_new_block(a);
    gs_build_mla(a, b, &spec, bias);
    gs_build_mlp(a, b, plan.intermediate, true, mlp_bias, &GS_MLP_NAMES);
    gs_build_norms(a, b, "layernorm", 2, false);
    struct gs_block *k = gs_arch_block(a, b);
    if (k != NULL) {
        /* vLLM's cache: every head's K and V, V padded to qk_head_dim */
        k->mixer = GS_MIXER_ATTENTION;
        k->attn.kv_heads = k->attn.heads;
        k->attn.v_head_dim = k->attn.head_dim;
    }
    gs_arch_set_layers(a, plan.layers, b);
    gs_arch_embeddings(a, a->hidden_size, "lm_head", false);
    gs_build_norms(a, GS_BLOCKS_MAX, "norm", 1, false);
}

/* Whether the config being read is a wrapper's text_config (Kimi-K2.5's). */
static bool nested_text_config(const struct model_reader *r)
{
    static const char suffix[] = "/text_config";
    const size_t n = strlen(r->pointer), k = sizeof(suffix) - 1;
    return n >= k && strcmp(r->pointer + n - k, suffix) == 0;
}

/* Kimi-K2 names DeepseekV3ForCausalLM in architectures[0]: counted as transformers 5 builds
 * that class, the correction bias a buffer (the repository's remote code, modeling_deepseek.py,
 * made it an nn.Parameter; that count is parameters + buffers). As the text model of a
 * remote-code wrapper (Kimi-K2.5's text_config, read by kimi.c) the language model is that
 * remote DeepseekV3ForCausalLM, and the bias a Parameter. */
static void read_kimi_k2(struct model_reader *r, struct gs_arch *a)
{
    const struct mla_options o = {true,  false, nested_text_config(r), false, false, false,
                                  false, false};
    read_deepseek(r, a, &o);
}

/* AXK2ForCausalLM (transformers 5.19, models/axk2/modular_axk2.py; skt/A.X-K2, 692B; served by SK
 * Telecom's vLLM fork): DeepSeek-V3.2 (MLA, its lightning indexer on every layer, the V3 router
 * with e_score_correction_bias, fused experts and a shared MLP) with axk2_layer's output-gated
 * q_gate_proj and gated RMSNorms; no MTP layer in transformers (a config's
 * num_nextn_predict_layers, which the fork reads, is reported as the mtp component). AXK2Config's
 * defaults (the smaller "Light" shapes): 20,314,494,976 parameters and 6,016 buffer values. The
 * fork pads the latent cache to 576 wide for sparse configs below DeepSeek-V3's dimensions (not
 * modelled: A.X-K2's own latent is 576). */
static void read_axk2(struct model_reader *r, struct gs_arch *a)
{
    const struct mla_options o = {.v3 = true, .indexer = true, .axk2 = true};
    read_deepseek(r, a, &o);
}

/* DeepSeek-V3.2 (DeepseekV32ForCausalLM; DeepSeek-V3.2-Exp inference/model.py):
 * DeepSeek-V3 plus a lightning indexer per layer (index_n_heads,
 * index_head_dim, index_topk). */
static void read_deepseek_v32(struct model_reader *r, struct gs_arch *a)
{
    const struct mla_options o = {true, true, false, false, false, false, false, false};
    read_deepseek(r, a, &o);
}

const struct model_type MODELS_MLA[] = {
    {"deepseek_v2", "DeepseekV2ForCausalLM", read_deepseek_v2},
    {"deepseek_v3", "DeepseekV3ForCausalLM", read_deepseek_v3},
    {"kimi_k2", NULL, read_kimi_k2},
    {"deepseek_v32", "DeepseekV32ForCausalLM", read_deepseek_v32},
    {"mistral4", "Mistral4ForCausalLM", read_mistral4},
    {"youtu", "YoutuForCausalLM", read_youtu},
    {"axk1", "AXK1ForCausalLM", read_axk1},
    {"axk2", "AXK2ForCausalLM", read_axk2},
    {"glm4_moe_lite", "Glm4MoeLiteForCausalLM", read_glm4_moe_lite},
    {"longcat_flash", "LongcatFlashForCausalLM", read_longcat_flash},
    {"minicpm3", "MiniCPM3ForCausalLM", read_minicpm3},
    {NULL, NULL, NULL},
};
