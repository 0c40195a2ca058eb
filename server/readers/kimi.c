/*
 * kimi.c - Moonshot Kimi: K2.5 (a MoonViT vision tower beside a
 * DeepSeek-V3-shaped text model), Kimi-Linear and K3 (Kimi Delta Attention
 * layers beside MLA full-attention layers) (see reader.h).
 *
 * All three ship remote code (auto_map). The classes counted:
 *   kimi_k25:    KimiK25ForConditionalGeneration (modeling_kimi_k25.py, the
 *                class auto_map names):
 *                vision_tower (MoonViT3dPretrainedModel), mm_projector and a
 *                language_model built by the repository's own
 *                modeling_deepseek.DeepseekV3ForCausalLM; shapes as vLLM's
 *                kimi_k25.py / kimi_k25_vit.py and SGLang's kimi_k25.py load
 *                them.
 *   kimi_linear: KimiLinearForCausalLM as transformers 5 builds it
 *                (models/kimi_linear), the shapes of the repository's
 *                modeling_kimi.py but for the router bias, a buffer there
 *                (vLLM kimi_linear.py and layers/kda.py load the same).
 *   kimi_k3:     KimiK3ForConditionalGeneration (modeling_kimi_k3.py) around
 *                modeling_kimi_linear.KimiLinearForCausalLM, which adds
 *                q_lora MLA with an output gate, a full-rank KDA output gate,
 *                latent-width experts and Block Attention Residuals (SGLang
 *                kimi_k3.py).
 *
 * The KDA layers are kda.h's; the MLA layers cache the latent as DeepSeek's do.
 */
#include "readers/decoder.h"
#include "readers/kda.h"
#include "readers/reader.h"

#include <string.h>

/* ------------------------------------------------------------ the toolkit */

/* A module of block `b`, or of the model when b is GS_BLOCKS_MAX. */
static void add(struct gs_arch *a, size_t b, const char *name, enum gs_module_kind kind,
                enum gs_split split, enum gs_part part, unsigned flags, uint64_t in, uint64_t out,
                uint64_t count)
{
    if (b >= GS_BLOCKS_MAX)
        gs_arch_module(a, name, kind, split, part, flags, in, out, count);
    else
        gs_block_module(a, b, name, kind, split, part, flags, in, out, count);
}

static void linear(struct gs_arch *a, size_t b, const char *name, enum gs_split split,
                   enum gs_part part, bool bias, uint64_t in, uint64_t out)
{
    add(a, b, name, GS_MODULE_LINEAR, split, part, GS_MOD_QUANT | (bias ? GS_MOD_BIAS : 0), in,
        out, 1);
}

/* LayerNorm (weight and bias) or RMSNorm (weight) over `width`. */
static void norm(struct gs_arch *a, size_t b, const char *name, enum gs_part part, bool layer_norm,
                 uint64_t width)
{
    add(a, b, name, GS_MODULE_NORM, GS_SPLIT_NONE, part, layer_norm ? GS_MOD_BIAS : 0, 1, width,
        1);
}

/* A parameter that is not a Linear (conv weights, A_log, dt_bias, position
 * tables): rows x cols elements. */
static void tensor(struct gs_arch *a, size_t b, const char *name, enum gs_split split,
                   enum gs_part part, uint64_t rows, uint64_t cols)
{
    add(a, b, name, GS_MODULE_TENSOR, split, part, 0, rows, cols, 1);
}

/* The reader of a model type in another file's table. */
static model_read_fn reader_in(const struct model_type *table, const char *model_type)
{
    for (const struct model_type *m = table; m->model_type != NULL; m++)
        if (strcmp(m->model_type, model_type) == 0)
            return m->read;
    return NULL;
}

/* Opens a nested config that the class requires. */
static bool required_sub(struct model_reader *r, const char *name, struct model_reader *sub)
{
    if (rd_sub(r, name, sub))
        return true;
    if (r->ok)
        rd_fail(r, name, GS_ERR_INVALID, "is required for this model_type");
    return false;
}

/* Closes a nested reader: its failure is the parent's. */
static void close_sub(struct model_reader *r, const struct model_reader *sub)
{
    if (!sub->ok)
        r->ok = false;
}

/* ------------------------------------------------------------ MoonViT */

/* What MoonViT3dPretrainedModel and its projector read from vision_config. */
struct moonvit {
    uint64_t width, inner, heads, layers, qkv_width;
    uint64_t patch, pos_height, pos_width;
    uint64_t merge; /* merge_kernel_size[0] x merge_kernel_size[1] */
    uint64_t mm_width, text_width;
    bool layer_norm, attn_bias, linear_bias, patch_bias;
    const char *projector;
};

/* merge_kernel_size [kh, kw]: the patches one projector row concatenates. */
static uint64_t read_merge(struct model_reader *v)
{
    const json_t *list = NULL;
    const size_t n = rd_array(v, "merge_kernel_size", &list);
    if (list == NULL)
        return v->ok ? 4 : 0; /* the configuration classes default to [2, 2] */
    uint64_t product = 1;
    for (size_t i = 0; i < 2; i++) {
        const json_t *e = json_array_get(list, i); /* NULL past the end */
        if (n != 2 || !json_is_integer(e) || json_integer_value(e) < 1 ||
            (uint64_t)json_integer_value(e) > GS_ARCH_DIM_MAX) {
            rd_fail(v, "merge_kernel_size", GS_ERR_INVALID, "must be two positive integers");
            return 0;
        }
        product *= (uint64_t)json_integer_value(e);
    }
    if (product > GS_ARCH_DIM_MAX) {
        rd_fail(v, "merge_kernel_size", GS_ERR_INVALID, "merges more than %llu patches",
                (unsigned long long)GS_ARCH_DIM_MAX);
        return 0;
    }
    return product;
}

/* The vision_config keys (vt_* for the tower), with the defaults the remote
 * code applies through getattr: LayerNorm, biases on attention, MLP and
 * patch embedding, qkv as wide as the tower, the patchmerger projector. */
static void read_moonvit(struct model_reader *v, struct moonvit *m, uint64_t text_width)
{
    m->width = rd_dim(v, NAMES("vt_hidden_size"), true, 0);
    m->inner = rd_dim(v, NAMES("vt_intermediate_size"), true, 0);
    m->heads = rd_dim(v, NAMES("vt_num_attention_heads"), true, 0);
    m->layers = rd_dim(v, NAMES("vt_num_hidden_layers"), true, 0);
    m->qkv_width = rd_dim(v, NAMES("qkv_hidden_size"), false, m->width);
    m->patch = rd_dim(v, NAMES("patch_size"), false, 14);
    m->pos_height = rd_dim(v, NAMES("init_pos_emb_height"), false, 64);
    m->pos_width = rd_dim(v, NAMES("init_pos_emb_width"), false, 64);
    m->merge = read_merge(v);
    m->mm_width = rd_dim(v, NAMES("mm_hidden_size"), false, m->width);
    m->text_width = rd_dim(v, NAMES("text_hidden_size"), false, text_width);
    const char *norm_type = rd_string(v, "norm_type");
    m->layer_norm = norm_type == NULL || strcmp(norm_type, "layernorm") == 0;
    if (norm_type != NULL && !m->layer_norm && strcmp(norm_type, "rmsnorm") != 0)
        rd_fail(v, "norm_type", GS_ERR_INVALID, "must be \"layernorm\" or \"rmsnorm\", got \"%.40s\"",
                norm_type);
    m->attn_bias = rd_flag(v, "attn_bias", true);
    m->linear_bias = rd_flag(v, "linear_bias", true);
    m->patch_bias = rd_flag(v, "patch_embed_proj_bias", true);
    m->projector = rd_string(v, "mm_projector_type");
    if (m->projector == NULL)
        m->projector = "patchmerger";
    if (v->ok && (m->heads == 0 || m->qkv_width % m->heads != 0))
        rd_fail(v, "qkv_hidden_size", GS_ERR_INVALID,
                "%llu is not a multiple of vt_num_attention_heads (%llu)",
                (unsigned long long)m->qkv_width, (unsigned long long)m->heads);
}

/* mm_projector: PatchMergerMLP ("patchmerger": pre_norm LayerNorm over
 * mm_hidden_size, proj.0 and proj.2 with biases), PatchMergerMLPV2
 * ("patchmergerv2": no biases, post_norm RMSNorm over the text width), MLP
 * ("mlp": pre_norm, two biased Linears at the text width) or IdentityMap. */
static void moonvit_projector(struct model_reader *v, struct gs_arch *a, const struct moonvit *m)
{
    const uint64_t merged = m->mm_width * m->merge, out = m->text_width;
    const size_t M = GS_BLOCKS_MAX;
    if (strcmp(m->projector, "patchmerger") == 0) {
        norm(a, M, "mm_projector.pre_norm", GS_PART_VISION, true, m->mm_width);
        linear(a, M, "mm_projector.proj.0", GS_SPLIT_NONE, GS_PART_VISION, true, merged, merged);
        linear(a, M, "mm_projector.proj.2", GS_SPLIT_NONE, GS_PART_VISION, true, merged, out);
    } else if (strcmp(m->projector, "patchmergerv2") == 0) {
        linear(a, M, "mm_projector.proj.0", GS_SPLIT_NONE, GS_PART_VISION, false, merged, merged);
        linear(a, M, "mm_projector.proj.2", GS_SPLIT_NONE, GS_PART_VISION, false, merged, out);
        norm(a, M, "mm_projector.post_norm", GS_PART_VISION, false, out);
    } else if (strcmp(m->projector, "mlp") == 0) {
        norm(a, M, "mm_projector.pre_norm", GS_PART_VISION, true, m->mm_width);
        linear(a, M, "mm_projector.proj.0", GS_SPLIT_NONE, GS_PART_VISION, true, m->mm_width, out);
        linear(a, M, "mm_projector.proj.2", GS_SPLIT_NONE, GS_PART_VISION, true, out, out);
    } else if (strcmp(m->projector, "identity") != 0) {
        rd_fail(v, "mm_projector_type", GS_ERR_UNSUPPORTED,
                "\"%.40s\" is not a projector gpusizer reads (patchmerger, patchmergerv2, mlp, "
                "identity)",
                m->projector);
    }
}

/* MoonViT3dPretrainedModel: patch_embed.proj Conv2d(3, width, patch), the
 * learned 2D position table pos_emb.weight [height, width, dim] (the
 * temporal table is a buffer), vt_num_hidden_layers MoonViTEncoderLayers
 * (norm0, norm1, wqkv width -> 3 qkv_width, wo qkv_width -> width, MLP2
 * fc0/fc1 with GELU), encoder.final_layernorm, then the projector. The
 * tower attends bidirectionally and caches nothing. */
static void read_vision(struct model_reader *r, struct gs_arch *a, uint64_t text_width)
{
    struct model_reader v;
    if (!required_sub(r, "vision_config", &v))
        return;
    struct moonvit m;
    read_moonvit(&v, &m, text_width);
    if (!v.ok) {
        close_sub(r, &v);
        return;
    }
    const size_t b = gs_arch_new_block(a);
    struct gs_block *blk = gs_arch_block(a, b);
    if (blk == NULL)
        return;
    blk->mixer = GS_MIXER_ATTENTION;
    blk->attn.heads = blk->attn.kv_heads = m.heads;
    blk->attn.head_dim = blk->attn.v_head_dim = m.qkv_width / m.heads;
    blk->attn.cached = false;
    blk->mlp = (struct gs_mlp){.kind = GS_MLP_DENSE, .gated = false, .width = m.inner};
    linear(a, b, "wqkv", GS_SPLIT_QKV, GS_PART_ATTENTION, m.attn_bias, m.width, 3 * m.qkv_width);
    linear(a, b, "wo", GS_SPLIT_ROW, GS_PART_ATTENTION, m.attn_bias, m.qkv_width, m.width);
    linear(a, b, "mlp.fc0", GS_SPLIT_COLUMN, GS_PART_MLP, m.linear_bias, m.width, m.inner);
    linear(a, b, "mlp.fc1", GS_SPLIT_ROW, GS_PART_MLP, m.linear_bias, m.inner, m.width);
    norm(a, b, "norm0", GS_PART_NORMS, m.layer_norm, m.width);
    norm(a, b, "norm1", GS_PART_NORMS, m.layer_norm, m.width);
    gs_arch_tower(a, "vision_tower.encoder.blocks", b, GS_PART_VISION, m.layers, false);
    tensor(a, GS_BLOCKS_MAX, "vision_tower.patch_embed.proj", GS_SPLIT_NONE, GS_PART_VISION,
           3 * m.patch * m.patch, m.width);
    if (m.patch_bias)
        tensor(a, GS_BLOCKS_MAX, "vision_tower.patch_embed.proj.bias", GS_SPLIT_NONE,
               GS_PART_VISION, 1, m.width);
    tensor(a, GS_BLOCKS_MAX, "vision_tower.patch_embed.pos_emb", GS_SPLIT_NONE, GS_PART_VISION,
           m.pos_height * m.pos_width, m.width);
    norm(a, GS_BLOCKS_MAX, "vision_tower.encoder.final_layernorm", GS_PART_VISION, m.layer_norm,
         m.width);
    moonvit_projector(&v, a, &m);
    close_sub(r, &v);
}

/* ------------------------------------------------------------ Kimi-K2.5 */

/* KimiK25ForConditionalGeneration: the language model is always the
 * repository's modeling_deepseek.DeepseekV3ForCausalLM, whose MoEGate
 * registers e_score_correction_bias as a Parameter, whatever model_type the
 * text_config names (kimi_k2 in Moonshot's release, deepseek_v3 in NVIDIA's
 * NVFP4 repackagings); mla.c's kimi_k2 reader, given a wrapper's
 * text_config, describes exactly that. */
static void read_kimi_k25(struct model_reader *r, struct gs_arch *a)
{
    struct model_reader text;
    if (!required_sub(r, "text_config", &text))
        return;
    const model_read_fn read_text = reader_in(MODELS_MLA, "kimi_k2");
    if (read_text == NULL) {
        rd_fail(r, "text_config", GS_ERR_INTERNAL, "the DeepSeek-V3 reader is not registered");
        return;
    }
    read_text(&text, a);
    close_sub(r, &text);
    if (r->ok)
        read_vision(r, a, a->hidden_size);
}

/* ------------------------------------------------------------ Kimi Linear */

/* KimiSparseMoeBlock (`block_sparse_moe`): the KimiMoEGate router (weight
 * [E, h] and e_score_correction_bias, a Parameter in the remote code and a
 * buffer in transformers 5's KimiLinearTopkRouter), experts w1/w3/w2
 * of moe_intermediate_size over routed_expert_hidden_size when set (K3's
 * latent experts: routed_expert_down_proj h -> latent, routed_expert_norm
 * with latent_moe_use_norm, routed_expert_up_proj latent -> h) or the hidden
 * width, and shared_experts as one KimiMLP num_shared_experts x
 * moe_intermediate_size wide. */
struct kimi_moe {
    uint64_t experts, top_k, width, shared, latent;
    bool latent_norm;
    bool bias_buffer; /* e_score_correction_bias is a buffer (transformers 5's KimiLinearTopkRouter)
                         rather than the remote KimiMoEGate's nn.Parameter */
};

static void build_moe(struct gs_arch *a, size_t b, const struct kimi_moe *m)
{
    struct gs_block *blk = gs_arch_block(a, b);
    if (blk == NULL)
        return;
    const uint64_t h = a->hidden_size, in = m->latent ? m->latent : h, E = m->experts;
    const unsigned f = GS_MOD_QUANT | GS_MOD_EXPERT;
    const enum gs_part X = GS_PART_EXPERTS;
    /* KimiMoEGate holds self.weight as a bare parameter and scores in fp32 (the checkpoints'
     * modeling_kimi.py: F.linear(hidden_states.type(torch.float32),
     * self.weight.type(torch.float32), None)): no LoRA target adapts it */
    blk->mlp = (struct gs_mlp){.kind = GS_MLP_MOE,
                               .gated = true,
                               .width = m->width,
                               .experts = E,
                               .top_k = m->top_k,
                               .shared_width = m->shared,
                               .router_fp32 = true,
                               .router_parameter = true};
    add(a, b, "block_sparse_moe.gate", GS_MODULE_LINEAR, GS_SPLIT_NONE, X, 0, h, E, 1);
    add(a, b, "block_sparse_moe.gate.e_score_correction_bias", GS_MODULE_TENSOR, GS_SPLIT_NONE, X,
        m->bias_buffer ? GS_MOD_BUFFER : 0, 1, E, 1);
    if (m->latent) {
        add(a, b, "block_sparse_moe.routed_expert_down_proj", GS_MODULE_LINEAR, GS_SPLIT_NONE, X,
            0, h, m->latent, 1);
        if (m->latent_norm)
            norm(a, b, "block_sparse_moe.routed_expert_norm", X, false, m->latent);
        add(a, b, "block_sparse_moe.routed_expert_up_proj", GS_MODULE_LINEAR, GS_SPLIT_NONE, X, 0,
            m->latent, h, 1);
    }
    add(a, b, "block_sparse_moe.experts.w1", GS_MODULE_LINEAR, GS_SPLIT_COLUMN, X, f, in,
        m->width, E);
    add(a, b, "block_sparse_moe.experts.w3", GS_MODULE_LINEAR, GS_SPLIT_COLUMN, X, f, in,
        m->width, E);
    add(a, b, "block_sparse_moe.experts.w2", GS_MODULE_LINEAR, GS_SPLIT_ROW, X, f, m->width, in,
        E);
    if (m->shared) {
        linear(a, b, "block_sparse_moe.shared_experts.gate_proj", GS_SPLIT_COLUMN, GS_PART_MLP,
               false, h, m->shared);
        linear(a, b, "block_sparse_moe.shared_experts.up_proj", GS_SPLIT_COLUMN, GS_PART_MLP,
               false, h, m->shared);
        linear(a, b, "block_sparse_moe.shared_experts.down_proj", GS_SPLIT_ROW, GS_PART_MLP, false,
               m->shared, h);
    }
}

/* What KimiLinearConfig says about the stack. */
struct kimi_linear {
    uint64_t layers, intermediate;
    struct gs_attention mla;
    bool output_gate;          /* mla_use_output_gate: g_proj h -> heads x v_head_dim */
    struct kda_spec kda;
    bool kda_layer[GS_LAYERS_MAX];
    bool moe_layer[GS_LAYERS_MAX];
    struct kimi_moe moe;
    uint64_t attn_res_block;   /* attn_res_block_size; 0 = plain residuals */
};

/* One kind of decoder layer: the mixer, the MLP, the two layer norms and,
 * with Block Attention Residuals, the per-layer pseudo-query projections
 * (self_attention_res_proj and mlp_res_proj, h -> 1) and their norms. */
static size_t kimi_block(struct gs_arch *a, const struct kimi_linear *k, bool kda, bool routed)
{
    static const struct gs_mlp_names dense = {"mlp.gate_proj", "mlp.up_proj", "mlp.down_proj",
                                              NULL};
    const size_t b = gs_arch_new_block(a);
    if (kda) {
        kda_build(a, b, &k->kda);
    } else {
        gs_build_mla(a, b, &k->mla, false);
        if (k->output_gate)
            linear(a, b, "g_proj", GS_SPLIT_COLUMN, GS_PART_ATTENTION, false, a->hidden_size,
                   k->mla.heads * k->mla.v_head_dim);
    }
    if (routed)
        build_moe(a, b, &k->moe);
    else
        gs_build_mlp(a, b, k->intermediate, true, false, &dense);
    gs_build_norms(a, b, "input_layernorm", 1, false);
    gs_build_norms(a, b, "post_attention_layernorm", 1, false);
    if (k->attn_res_block) {
        gs_build_norms(a, b, "self_attention_res_norm", 1, false);
        gs_build_norms(a, b, "mlp_res_norm", 1, false);
        add(a, b, "self_attention_res_proj", GS_MODULE_LINEAR, GS_SPLIT_NONE, GS_PART_OTHER, 0,
            a->hidden_size, 1, 1);
        add(a, b, "mlp_res_proj", GS_MODULE_LINEAR, GS_SPLIT_NONE, GS_PART_OTHER, 0,
            a->hidden_size, 1, 1);
    }
    return b;
}

/* A 1-based layer list of linear_attn_config (kda_layers, full_attn_layers)
 * into 0-based flags, as KimiLinearConfig.is_kda_layer reads it
 * ((layer_idx + 1) in kda_layers). */
static void layer_list(struct model_reader *lin, const char *name, uint64_t layers,
                       bool out[GS_LAYERS_MAX])
{
    const json_t *list = NULL;
    const size_t n = rd_array(lin, name, &list);
    if (list == NULL && lin->ok)
        rd_fail(lin, name, GS_ERR_INVALID, "is required (a list of 1-based layer numbers)");
    for (size_t i = 0; i < n && lin->ok; i++) {
        const json_t *e = json_array_get(list, i);
        if (!json_is_integer(e) || json_integer_value(e) < 1 ||
            (uint64_t)json_integer_value(e) > layers) {
            rd_fail(lin, name, GS_ERR_INVALID, "entry %zu is not a layer number in 1..%llu", i,
                    (unsigned long long)layers);
            return;
        }
        out[json_integer_value(e) - 1] = true;
    }
}

/* linear_attn_config: the KDA shape and which layers are KDA. A layer in
 * neither list is MLA (is_kda_layer false); one in both is refused. */
static void read_linear_attn(struct model_reader *t, struct kimi_linear *k)
{
    struct model_reader lin;
    if (!rd_sub(t, "linear_attn_config", &lin))
        return; /* no linear attention: every layer MLA */
    k->kda.heads = rd_dim(&lin, NAMES("num_heads"), true, 0);
    k->kda.head_dim = rd_dim(&lin, NAMES("head_dim"), true, 0);
    k->kda.kernel = rd_dim(&lin, NAMES("short_conv_kernel_size"), true, 0);
    k->kda.full_rank_gate = rd_flag(&lin, "use_full_rank_gate", false);
    bool full[GS_LAYERS_MAX];
    memset(full, 0, sizeof(full));
    layer_list(&lin, "kda_layers", k->layers, k->kda_layer);
    layer_list(&lin, "full_attn_layers", k->layers, full);
    for (uint64_t l = 0; l < k->layers && l < GS_LAYERS_MAX && lin.ok; l++)
        if (k->kda_layer[l] && full[l])
            rd_fail(&lin, "full_attn_layers", GS_ERR_INVALID,
                    "layer %llu is also in kda_layers", (unsigned long long)l + 1);
    close_sub(t, &lin);
}

/* The MoE fields; num_experts null means every layer dense (is_moe). A
 * layer routes from first_k_dense_replace on, every moe_layer_freq-th. */
static void read_moe(struct model_reader *t, struct kimi_linear *k)
{
    k->moe.experts = rd_dim(t, NAMES("num_experts"), false, 0);
    if (k->moe.experts == 0)
        return;
    k->moe.top_k = rd_dim(t, NAMES("num_experts_per_token"), true, 0);
    k->moe.width = rd_dim(t, NAMES("moe_intermediate_size"), true, 0);
    k->moe.shared = k->moe.width * rd_dim(t, NAMES("num_shared_experts"), false, 0);
    k->moe.latent = rd_dim(t, NAMES("routed_expert_hidden_size"), false, 0);
    k->moe.latent_norm = rd_flag(t, "latent_moe_use_norm", false);
    const uint64_t first_dense = rd_dim(t, NAMES("first_k_dense_replace"), false, 0);
    const uint64_t freq = rd_size(t, NAMES("moe_layer_freq"), 1);
    if (freq == 0 && t->ok)
        rd_fail(t, "moe_layer_freq", GS_ERR_INVALID, "must be at least 1");
    for (uint64_t l = 0; l < k->layers && l < GS_LAYERS_MAX && freq; l++)
        k->moe_layer[l] = l >= first_dense && l % freq == 0;
}

/* KimiMLAAttention: DeepSeek-V3's MLA (q_lora_rank null: one q_proj), with
 * mla_use_nope no rotary embedding is applied (vLLM passes rotary_emb None)
 * though the 64-wide rope slice is still projected and cached. */
static void read_mla(struct model_reader *t, struct kimi_linear *k)
{
    struct gs_attention *s = &k->mla;
    decoder_read_mla(t, s, rd_dim(t, NAMES("num_attention_heads"), true, 0));
    s->nope = rd_flag(t, "mla_use_nope", false);
    k->output_gate = rd_flag(t, "mla_use_output_gate", false);
}

/* KimiLinearForCausalLM (modeling_kimi.py; K3's modeling_kimi_linear.py):
 * embed_tokens, the layers, norm (with attn_res_block_size also
 * output_attn_res_norm and output_attn_res_proj h -> 1), lm_head unless
 * tied. The MTP layers a config may count (num_nextn_predict_layers) are not
 * built by the class and vLLM skips their weights; they are not described. */
static void read_kimi_linear_text(struct model_reader *t, struct gs_arch *a, bool remote)
{
    const uint64_t h = rd_dim(t, NAMES("hidden_size"), true, 0);
    const uint64_t V = rd_dim(t, NAMES("vocab_size"), true, 0);
    gs_arch_init(a, NULL, h, V);
    a->tie_word_embeddings = rd_flag(t, "tie_word_embeddings", false);
    /* vLLM's _get_and_verify_max_len also accepts model_max_length (Kimi-Linear states only it) */
    a->max_position_embeddings = rd_dim(t, NAMES("max_position_embeddings", "model_max_length"),
                                        false, 0);
    a->attention_dropout = rd_dropout(t, NAMES("attention_dropout"));
    struct kimi_linear k;
    memset(&k, 0, sizeof(k));
    k.layers = rd_dim(t, NAMES("num_hidden_layers"), true, 0);
    if (k.layers > GS_LAYERS_MAX)
        rd_fail(t, "num_hidden_layers", GS_ERR_UNSUPPORTED, "%llu layers: gpusizer describes at most %d",
                (unsigned long long)k.layers, GS_LAYERS_MAX);
    k.intermediate = rd_dim(t, NAMES("intermediate_size"), false, 11008);
    k.attn_res_block = rd_dim(t, NAMES("attn_res_block_size"), false, 0);
    read_mla(t, &k);
    if (t->ok)
        read_linear_attn(t, &k);
    if (t->ok)
        read_moe(t, &k);
    if (!t->ok)
        return;
    k.moe.bias_buffer = !remote;
    k.kda.transformers = !remote;
    size_t kinds[2][2] = {{0, 0}, {0, 0}};
    bool made[2][2] = {{false, false}, {false, false}};
    gs_arch_set_layers(a, k.layers, 0);
    for (uint64_t l = 0; l < k.layers; l++) {
        const int kda = k.kda_layer[l], routed = k.moe_layer[l];
        if (!made[kda][routed]) {
            kinds[kda][routed] = kimi_block(a, &k, kda, routed);
            made[kda][routed] = true;
        }
        gs_arch_set_layer(a, l, kinds[kda][routed]);
    }
    gs_arch_embeddings(a, h, "lm_head", false);
    gs_build_norms(a, GS_BLOCKS_MAX, "norm", 1, false);
    if (k.attn_res_block) {
        gs_build_norms(a, GS_BLOCKS_MAX, "output_attn_res_norm", 1, false);
        add(a, GS_BLOCKS_MAX, "output_attn_res_proj", GS_MODULE_LINEAR, GS_SPLIT_NONE,
            GS_PART_OTHER, 0, h, 1, 1);
    }
}

/* Kimi-Linear names KimiLinearForCausalLM in architectures[0], a class transformers 5 builds
 * itself (models/kimi_linear, on DeepSeek-V3's router: the correction bias a buffer); the
 * remote modeling_kimi.py has the same shapes with the bias an nn.Parameter. */
static void read_kimi_linear(struct model_reader *r, struct gs_arch *a)
{
    read_kimi_linear_text(r, a, false);
}

/* KimiK3ForConditionalGeneration: vision_tower and mm_projector (MoonViT3d,
 * RMSNorm, no biases, qkv_hidden_size wider than the tower, patchmergerv2)
 * and language_model = KimiLinearForCausalLM(text_config). */
static void read_kimi_k3(struct model_reader *r, struct gs_arch *a)
{
    struct model_reader text;
    if (!required_sub(r, "text_config", &text))
        return;
    read_kimi_linear_text(&text, a, true);
    close_sub(r, &text);
    if (r->ok)
        read_vision(r, a, a->hidden_size);
}

const struct model_type MODELS_KIMI[] = {
    {"kimi_k25", "KimiK25ForConditionalGeneration", read_kimi_k25},
    {"kimi_linear", "KimiLinearForCausalLM", read_kimi_linear},
    {"kimi_k3", "KimiK3ForConditionalGeneration", read_kimi_k3},
    {NULL, NULL, NULL},
};
