/*
 * hybrid.c - state-space and linear-attention models and their hybrids:
 * Mamba, Mamba-2, Jamba, Nemotron-H, Falcon-H1, Granite-4.0
 * (GraniteMoeHybrid), Bamba, Qwen3-Next, OLMo Hybrid, LiquidAI's LFM2 (gated short
 * convolutions, whose state is a convolution window alone) and MiniMax-Text-01/M1 (lightning
 * attention: linear_attention_state_shape, (num_heads, head_dim, head_dim) a layer).
 *
 * A Mamba or Gated DeltaNet layer is a GS_MIXER_RECURRENT block whose
 * struct gs_recurrent carries the state vLLM allocates per sequence
 * (vllm/model_executor/layers/mamba/mamba_utils.py,
 * MambaStateShapeCalculator):
 *   mamba1_state_shape:   conv (intermediate, kernel - 1), ssm (intermediate, state_size)
 *   mamba2_state_shape:   conv (intermediate + 2 n_groups state_size, kernel - 1),
 *                         ssm (num_heads, head_dim, state_size)
 *   gated_delta_net_state_shape: conv (2 key_dim + value_dim, kernel - 1),
 *                         ssm (num_v_heads, head_v_dim, head_k_dim)
 * The conv state is in the model dtype; the ssm state too unless
 * mamba_ssm_cache_dtype says otherwise (MambaStateDtypeCalculator.
 * _mamba_state_dtype: "auto" follows the conv dtype). The CLI default is
 * "auto"; only NemotronH has a per-model hook that changes it
 * (vllm/model_executor/models/config.py NemotronHForCausalLMConfig:
 * getattr(hf_config, "mamba_ssm_cache_dtype", "float32"), "Only float32 is
 * known to have no accuracy issues by default"), so Nemotron-H keeps its
 * ssm state in fp32 and every other reader here in the model dtype.
 *
 * Mixer parameters (projections, conv1d, A_log, D, dt_bias and the mixer's
 * inner norms) count under attention; the layer norms under norms. Module
 * names are the attribute names of the transformers classes named at each
 * reader; tensor-parallel splits follow vLLM's layers (in_proj column,
 * conv1d and the per-head vectors column, out_proj row).
 */
#include "readers/decoder.h"

#include <string.h>

/* ------------------------------------------------------------ shared pieces */

/* A dimension that a config may also give as the string "auto" (Mamba's
 * time_step_rank, Jamba's mamba_dt_rank, Falcon-H1's mamba_d_head): the
 * fallback then, as the configuration class computes it. */
static uint64_t auto_dim(struct model_reader *r, const char *name, uint64_t fallback)
{
    const char *s = rd_string(r, name);
    if (s != NULL) {
        if (strcmp(s, "auto") != 0)
            rd_fail(r, name, GS_ERR_INVALID, "must be an integer or \"auto\", got \"%.40s\"", s);
        return fallback;
    }
    return rd_dim(r, NAMES(name), false, fallback);
}

static uint64_t ceil_div(uint64_t n, uint64_t d)
{
    return d ? (n + d - 1) / d : 0;
}

/* Starts the arch with the hidden size and vocabulary and reads the
 * model-level fields every reader here shares. */
static void hybrid_start(struct model_reader *r, struct gs_arch *a, bool tie)
{
    const uint64_t h = rd_dim(r, NAMES("hidden_size", "d_model"), true, 0);
    const uint64_t V = rd_dim(r, NAMES("vocab_size"), true, 0);
    gs_arch_init(a, NULL, h, V);
    a->tie_word_embeddings = rd_flag(r, "tie_word_embeddings", tie);
    a->max_position_embeddings = rd_dim(r, NAMES("max_position_embeddings"), false, 0);
    a->attention_dropout = rd_dropout(r, NAMES("attention_dropout"));
    a->hidden_dropout = rd_dropout(r, NAMES("hidden_dropout"));
    /* counted on the embedding too, as before the embedding's dropout had a field of its own:
     * these models' code was not read for it */
    a->embedding_dropout = a->hidden_dropout;
}

static void check_layers(struct model_reader *r, const char *field, uint64_t layers)
{
    if (layers > GS_LAYERS_MAX)
        rd_fail(r, field, GS_ERR_UNSUPPORTED, "%llu layers: gpusizer describes at most %d",
                (unsigned long long)layers, GS_LAYERS_MAX);
}

/* The token embedding under its transformers name and, unless tied, the
 * head (transformers' `embeddings`/`embed_tokens` and `lm_head`). */
static void hybrid_embeddings(struct gs_arch *a, const char *embed)
{
    gs_arch_module(a, embed, GS_MODULE_EMBEDDING, GS_SPLIT_COLUMN, GS_PART_EMBEDDING, GS_MOD_TOKENS,
                   a->vocab_size, a->hidden_size, 1);
    if (!a->tie_word_embeddings)
        gs_arch_module(a, "lm_head", GS_MODULE_LINEAR, GS_SPLIT_COLUMN, GS_PART_LM_HEAD, 0,
                       a->hidden_size, a->vocab_size, 1);
}

static void norm(struct gs_arch *a, size_t block, const char *name)
{
    gs_build_norms(a, block, name, 1, false);
}

/* A per-channel or per-head parameter of the mixer (A_log, D, dt_bias, the
 * conv1d weight [C, 1, K] as in=K, out=C), split with the channels. */
static void mixer_tensor(struct gs_arch *a, size_t b, const char *name, uint64_t in, uint64_t out)
{
    gs_block_module(a, b, name, GS_MODULE_TENSOR, GS_SPLIT_COLUMN, GS_PART_ATTENTION, 0, in, out,
                    1);
}

/* A depthwise Conv1d(C, C, K, groups=C): weight C x K, bias C. */
static void conv1d(struct gs_arch *a, size_t b, uint64_t channels, uint64_t kernel, bool bias)
{
    mixer_tensor(a, b, "conv1d", kernel, channels);
    if (bias)
        mixer_tensor(a, b, "conv1d.bias", 1, channels);
}

/* `rope`: the layer applies rotary embeddings (Jamba and Nemotron-H attend with no position
 * encoding at all; Granite 4 with position_embedding_type "nope") */
static void attention(struct gs_arch *a, size_t b, uint64_t heads, uint64_t kv_heads,
                      uint64_t head_dim, bool bias, bool rope)
{
    struct gs_attention spec;
    memset(&spec, 0, sizeof(spec));
    spec.heads = heads;
    spec.kv_heads = kv_heads;
    spec.head_dim = head_dim;
    spec.cached = true;
    spec.nope = !rope;
    gs_build_attention(a, b, &spec, &GS_ATTENTION_NAMES, bias, bias);
}

/* Mamba (v1) selective-scan mixer: MambaMixer (modeling_mamba.py) and
 * JambaMambaMixer (modeling_jamba.py). */
struct mamba1 {
    uint64_t inner, state, kernel, dt_rank;
    bool proj_bias, conv_bias;
    bool inner_norms; /* Jamba: dt_layernorm, b_layernorm, c_layernorm */
};

/* in_proj h -> 2I, conv1d (I, K), x_proj I -> R + 2N (vLLM RowParallelLinear),
 * dt_proj R -> I with bias, A_log [I, N], D [I], out_proj I -> h. */
static void build_mamba1(struct gs_arch *a, size_t b, const struct mamba1 *m)
{
    struct gs_block *blk = gs_arch_block(a, b);
    if (blk == NULL) {
        a->overflow = true;
        return;
    }
    const uint64_t h = a->hidden_size, I = m->inner, N = m->state;
    const unsigned proj = GS_MOD_QUANT | (m->proj_bias ? GS_MOD_BIAS : 0);
    blk->mixer = GS_MIXER_RECURRENT;
    blk->rec = (struct gs_recurrent){.conv_channels = I,
                                     .conv_kernel = m->kernel,
                                     .state_heads = I,
                                     .state_rows = N,
                                     .state_cols = 1,
                                     .in_width = 2 * I,
                                     .inner = I,
                                     .dt_rank = m->dt_rank,
                                     .fp32_state = false};
    gs_block_module(a, b, "in_proj", GS_MODULE_LINEAR, GS_SPLIT_COLUMN, GS_PART_ATTENTION, proj, h,
                    2 * I, 1);
    conv1d(a, b, I, m->kernel, m->conv_bias);
    gs_block_module(a, b, "x_proj", GS_MODULE_LINEAR, GS_SPLIT_ROW, GS_PART_ATTENTION, 0, I,
                    m->dt_rank + 2 * N, 1);
    gs_block_module(a, b, "dt_proj", GS_MODULE_LINEAR, GS_SPLIT_COLUMN, GS_PART_ATTENTION,
                    GS_MOD_BIAS, m->dt_rank, I, 1);
    mixer_tensor(a, b, "A_log", N, I);
    mixer_tensor(a, b, "D", 1, I);
    gs_block_module(a, b, "out_proj", GS_MODULE_LINEAR, GS_SPLIT_ROW, GS_PART_ATTENTION, proj, I, h,
                    1);
    if (m->inner_norms) {
        gs_block_module(a, b, "dt_layernorm", GS_MODULE_NORM, GS_SPLIT_NONE, GS_PART_ATTENTION, 0,
                        1, m->dt_rank, 1);
        gs_block_module(a, b, "b_layernorm", GS_MODULE_NORM, GS_SPLIT_NONE, GS_PART_ATTENTION, 0,
                        1, N, 1);
        gs_block_module(a, b, "c_layernorm", GS_MODULE_NORM, GS_SPLIT_NONE, GS_PART_ATTENTION, 0,
                        1, N, 1);
    }
}

/* Mamba-2 (SSD) mixer: Mamba2Mixer (modeling_mamba2.py) and the classes
 * built on it (NemotronHMamba2Mixer, FalconH1Mixer, BambaMixer). */
struct mamba2 {
    uint64_t inner, heads, head_dim, groups, state, kernel;
    uint64_t chunk; /* the SSD scan's chunk length (chunk_size) */
    bool in_bias, out_bias, conv_bias;
    bool gated_norm;  /* a gated RMSNorm over the inner width (`norm`) */
    bool fp32_state;  /* vLLM keeps the ssm state in fp32 */
    uint8_t config_state_bytes; /* the element size the config's mamba_ssm_cache_dtype names; 0
                                   when absent */
};

/* in_proj h -> I + conv_dim + heads (z, xBC, dt), conv1d over conv_dim =
 * I + 2 G N, dt_bias, A_log and D per head, norm over I, out_proj I -> h.
 * Sets the block's state; the caller sets the mixer (Falcon-H1 attends too). */
static void build_mamba2(struct gs_arch *a, size_t b, const struct mamba2 *m)
{
    struct gs_block *blk = gs_arch_block(a, b);
    if (blk == NULL) {
        a->overflow = true;
        return;
    }
    const uint64_t h = a->hidden_size, I = m->inner;
    const uint64_t conv = I + 2 * m->groups * m->state;
    const uint64_t in_width = I + conv + m->heads;
    blk->rec = (struct gs_recurrent){.conv_channels = conv,
                                     .conv_kernel = m->kernel,
                                     .state_heads = m->heads,
                                     .state_rows = m->head_dim,
                                     .state_cols = m->state,
                                     .in_width = in_width,
                                     .inner = I,
                                     .chunk = m->chunk,
                                     .fp32_state = m->fp32_state,
                                     .config_state_bytes = m->config_state_bytes,
                                     .cache_dtype_bytes = m->config_state_bytes,
                                     .mamba2 = true};
    gs_block_module(a, b, "in_proj", GS_MODULE_LINEAR, GS_SPLIT_COLUMN, GS_PART_ATTENTION,
                    GS_MOD_QUANT | (m->in_bias ? GS_MOD_BIAS : 0), h, in_width, 1);
    conv1d(a, b, conv, m->kernel, m->conv_bias);
    mixer_tensor(a, b, "dt_bias", 1, m->heads);
    mixer_tensor(a, b, "A_log", 1, m->heads);
    mixer_tensor(a, b, "D", 1, m->heads);
    if (m->gated_norm)
        gs_block_module(a, b, "norm", GS_MODULE_NORM, GS_SPLIT_COLUMN, GS_PART_ATTENTION, 0, 1, I,
                        1);
    gs_block_module(a, b, "out_proj", GS_MODULE_LINEAR, GS_SPLIT_ROW, GS_PART_ATTENTION,
                    GS_MOD_QUANT | (m->out_bias ? GS_MOD_BIAS : 0), I, h, 1);
}

/* ------------------------------------------------------------ the readers */

/* MambaForCausalLM (modeling_mamba.py): backbone.embeddings, per layer a
 * MambaRMSNorm `norm` and a MambaMixer, norm_f, lm_head tied by default
 * (the PretrainedConfig default; MambaConfig does not override it).
 * intermediate_size defaults to expand x hidden, time_step_rank "auto" to
 * ceil(hidden / 16). vLLM (models/mamba.py) sizes the state with
 * mamba1_state_shape(intermediate_size, state_size, conv_kernel). */
static void read_mamba(struct model_reader *r, struct gs_arch *a)
{
    hybrid_start(r, a, true);
    const uint64_t h = a->hidden_size;
    const uint64_t L = rd_dim(r, NAMES("num_hidden_layers", "n_layer"), true, 0);
    a->residual_fp32 = rd_flag(r, "residual_in_fp32", true); /* MambaBlock.forward */
    check_layers(r, "num_hidden_layers", L);
    const uint64_t expand = rd_size(r, NAMES("expand"), 2);
    struct mamba1 m = {
        .inner = rd_dim(r, NAMES("intermediate_size", "d_inner"), false, expand * h),
        .state = rd_size(r, NAMES("state_size"), 16),
        .kernel = rd_size(r, NAMES("conv_kernel"), 4),
        .dt_rank = auto_dim(r, "time_step_rank", ceil_div(h, 16)),
        .proj_bias = rd_flag(r, "use_bias", false),
        .conv_bias = rd_flag(r, "use_conv_bias", true),
    };
    if (!r->ok)
        return;
    const size_t b = gs_arch_new_block(a);
    build_mamba1(a, b, &m);
    struct gs_block *blk = gs_arch_block(a, b);
    if (blk != NULL)
        /* MambaMixer.cuda_kernels_forward: `if self.training and cache_params is None`,
         * mamba_inner_fn, with mamba-ssm and causal-conv1d installed (JambaMambaMixer normalizes
         * dt, B and C between the kernels, so it calls them one by one: read_jamba) */
        blk->rec.scan = GS_SCAN_MAMBA1_INNER;
    norm(a, b, "norm");
    gs_arch_set_layers(a, L, b);
    hybrid_embeddings(a, "embeddings");
    norm(a, GS_BLOCKS_MAX, "norm_f");
}

/* Mamba2ForCausalLM (modeling_mamba2.py): as Mamba, with a Mamba2Mixer
 * whose inner width is expand x hidden (Mamba2Mixer and vLLM's
 * models/mamba2.py both compute it so), num_heads heads of head_dim,
 * n_groups groups of B and C, and a gated RMSNorm `norm` over the inner
 * width; untied by default (Mamba2Config tie_word_embeddings=False). */
static void read_mamba2(struct model_reader *r, struct gs_arch *a)
{
    hybrid_start(r, a, false);
    const uint64_t h = a->hidden_size;
    const uint64_t L = rd_dim(r, NAMES("num_hidden_layers", "n_layer"), true, 0);
    a->residual_fp32 = rd_flag(r, "residual_in_fp32", true); /* Mamba2Block.forward */
    check_layers(r, "num_hidden_layers", L);
    const bool bias = rd_flag(r, "use_bias", false);
    struct mamba2 m = {
        .inner = rd_size(r, NAMES("expand"), 2) * h,
        .heads = rd_size(r, NAMES("num_heads"), 128),
        .head_dim = rd_size(r, NAMES("head_dim"), 64),
        .groups = rd_size(r, NAMES("n_groups"), 8),
        .state = rd_size(r, NAMES("state_size"), 128),
        .kernel = rd_size(r, NAMES("conv_kernel"), 4),
        .chunk = rd_size(r, NAMES("chunk_size"), 256),
        .in_bias = bias,
        .out_bias = bias,
        .conv_bias = rd_flag(r, "use_conv_bias", true),
        .gated_norm = true,
    };
    if (!r->ok)
        return;
    const size_t b = gs_arch_new_block(a);
    build_mamba2(a, b, &m);
    a->blocks[b].mixer = GS_MIXER_RECURRENT;
    /* Mamba2Mixer.cuda_kernels_forward: in training without a cache,
     * mamba_split_conv1d_scan_combined */
    a->blocks[b].rec.scan = GS_SCAN_MAMBA2_COMBINED;
    /* torch_forward's MambaRMSNormGated: variance over the whole inner width */
    a->blocks[b].rec.norm_whole = true;
    norm(a, b, "norm");
    gs_arch_set_layers(a, L, b);
    hybrid_embeddings(a, "embeddings");
    norm(a, GS_BLOCKS_MAX, "norm_f");
}

/* JambaMambaMixer.cuda_kernels_forward (config use_mamba_kernels, true by default: without
 * mamba-ssm and causal-conv1d installed it raises rather than fall back) trains through
 * causal_conv1d_fn and selective_scan_fn called one by one, its dt/B/C RMSNorms between them; a
 * config that turns the kernels off (from_pretrained's use_mamba_kernels=True turns them back on)
 * runs slow_forward's sequential scan unless the request asks for the kernels */
static void build_jamba_mamba(struct gs_arch *a, size_t b, const struct mamba1 *m, bool kernels)
{
    build_mamba1(a, b, m);
    struct gs_block *blk = gs_arch_block(a, b);
    if (blk != NULL) {
        blk->rec.scan = GS_SCAN_MAMBA1_SELECTIVE;
        blk->rec.kernels_off = !kernels;
    }
}

/* JambaForCausalLM (modeling_jamba.py, configuration_jamba.py): layer i
 * attends when i % attn_layer_period == attn_layer_offset, else runs a
 * JambaMambaMixer (Mamba v1 with dt/b/c RMSNorms inside); its feed-forward
 * routes (JambaSparseMoeBlock: `router` Linear(h, E), Mixtral experts of
 * intermediate_size) when i % expert_layer_period == expert_layer_offset
 * and num_experts > 1, else is a gated JambaMLP. JambaAttention has no
 * biases. input_layernorm and pre_ff_layernorm per layer, final_layernorm,
 * untied lm_head. */
static void read_jamba(struct model_reader *r, struct gs_arch *a)
{
    struct decoder_plan plan;
    decoder_read_dims(r, a, &plan, false, 0, false);
    const uint64_t h = a->hidden_size;
    const uint64_t attn_period = rd_dim(r, NAMES("attn_layer_period"), false, 8);
    const uint64_t attn_offset = rd_dim(r, NAMES("attn_layer_offset"), false, 4);
    const uint64_t expert_period = rd_dim(r, NAMES("expert_layer_period"), false, 2);
    const uint64_t expert_offset = rd_dim(r, NAMES("expert_layer_offset"), false, 1);
    if (attn_period == 0 || attn_offset >= attn_period)
        rd_fail(r, "attn_layer_offset", GS_ERR_INVALID,
                "must be smaller than attn_layer_period (%llu)", (unsigned long long)attn_period);
    if (expert_period == 0 || expert_offset >= expert_period)
        rd_fail(r, "expert_layer_offset", GS_ERR_INVALID,
                "must be smaller than expert_layer_period (%llu)",
                (unsigned long long)expert_period);
    struct gs_moe moe;
    memset(&moe, 0, sizeof(moe));
    moe.experts = rd_dim(r, NAMES("num_experts"), false, 16);
    moe.top_k = rd_dim(r, NAMES("num_experts_per_tok"), false, 2);
    moe.width = plan.intermediate;
    moe.gated = true;
    moe.router_name = "router";
    const struct mamba1 m = {
        .inner = rd_size(r, NAMES("mamba_expand"), 2) * h,
        .state = rd_size(r, NAMES("mamba_d_state"), 16),
        .kernel = rd_size(r, NAMES("mamba_d_conv"), 4),
        .dt_rank = auto_dim(r, "mamba_dt_rank", ceil_div(h, 16)),
        .proj_bias = rd_flag(r, "mamba_proj_bias", false),
        .conv_bias = rd_flag(r, "mamba_conv_bias", true),
        .inner_norms = true,
    };
    const bool kernels = rd_flag(r, "use_mamba_kernels", true);
    if (!r->ok)
        return;
    size_t kinds[2][2];
    bool made[2][2] = {{false, false}, {false, false}};
    gs_arch_set_layers(a, plan.layers, 0);
    for (uint64_t l = 0; l < plan.layers && l < GS_LAYERS_MAX; l++) {
        const int att = l % attn_period == attn_offset;
        const int routed = moe.experts > 1 && l % expert_period == expert_offset;
        if (!made[att][routed]) {
            const size_t b = gs_arch_new_block(a);
            if (att)
                attention(a, b, plan.heads, plan.kv_heads, plan.head_dim, false, false);
            else
                build_jamba_mamba(a, b, &m, kernels);
            if (routed)
                gs_build_moe(a, b, &moe);
            else
                gs_build_mlp(a, b, plan.intermediate, true, false, &GS_MLP_NAMES);
            norm(a, b, "input_layernorm");
            norm(a, b, "pre_ff_layernorm");
            kinds[att][routed] = b;
            made[att][routed] = true;
        }
        gs_arch_set_layer(a, l, kinds[att][routed]);
    }
    hybrid_embeddings(a, "embed_tokens");
    norm(a, GS_BLOCKS_MAX, "final_layernorm");
}

/* Nemotron-H layer kinds, one character each as hybrid_override_pattern
 * writes them. */
enum { NH_MAMBA, NH_ATTENTION, NH_MLP, NH_MOE, NH_KINDS };

static int nemotron_kind_char(char c)
{
    switch (c) {
    case 'M':
        return NH_MAMBA;
    case '*':
        return NH_ATTENTION;
    case '-':
        return NH_MLP;
    case 'E':
        return NH_MOE;
    default:
        return -1;
    }
}

/* layers_block_type entries: the legacy names and those NemotronHConfig
 * saves now ("linear_attention", "full_attention"). */
static int nemotron_kind_name(const char *s)
{
    if (strcmp(s, "mamba") == 0 || strcmp(s, "linear_attention") == 0)
        return NH_MAMBA;
    if (strcmp(s, "attention") == 0 || strcmp(s, "full_attention") == 0)
        return NH_ATTENTION;
    if (strcmp(s, "mlp") == 0)
        return NH_MLP;
    if (strcmp(s, "moe") == 0)
        return NH_MOE;
    return -1;
}

/* Nemotron-H's MoE (DeepseekV3MoE with NemotronHExperts): a `gate` router [E, h] (its
 * e_score_correction_bias is a buffer), non-gated experts of `width` over `latent` (with
 * fc1/fc2_latent_proj) or the hidden width, and one non-gated shared expert of `shared`. */
struct nh_moe {
    uint64_t experts, top_k, width, shared, latent;
};

static void nemotron_moe(struct gs_arch *a, size_t b, const struct nh_moe *moe, bool mlp_bias)
{
    struct gs_block *blk = gs_arch_block(a, b);
    if (blk == NULL)
        return;
    const uint64_t h = a->hidden_size, experts = moe->experts, latent = moe->latent;
    const uint64_t in = latent ? latent : h;
    const unsigned f = GS_MOD_QUANT | GS_MOD_EXPERT;
    /* NemotronHTopkRouter holds its weight as a bare parameter and scores in fp32, in
     * transformers' code (a DeepseekV3TopkRouter: self.weight = nn.Parameter(...),
     * F.linear(hidden_states.type(torch.float32), self.weight.type(torch.float32))) and
     * in the checkpoints' remote modeling_nemotron_h.py alike: no LoRA target adapts it */
    blk->mlp = (struct gs_mlp){.kind = GS_MLP_MOE,
                               .gated = false,
                               .width = moe->width,
                               .experts = experts,
                               .top_k = moe->top_k,
                               .shared_width = moe->shared,
                               .router_fp32 = true,
                               .router_parameter = true};
    gs_block_module(a, b, "gate", GS_MODULE_LINEAR, GS_SPLIT_NONE, GS_PART_EXPERTS, 0, h, experts,
                    1);
    if (latent) {
        const unsigned lf = GS_MOD_QUANT | (mlp_bias ? GS_MOD_BIAS : 0);
        gs_block_module(a, b, "fc1_latent_proj", GS_MODULE_LINEAR, GS_SPLIT_NONE, GS_PART_EXPERTS,
                        lf, h, latent, 1);
        gs_block_module(a, b, "fc2_latent_proj", GS_MODULE_LINEAR, GS_SPLIT_NONE, GS_PART_EXPERTS,
                        lf, latent, h, 1);
    }
    gs_block_module(a, b, "experts.up_proj", GS_MODULE_LINEAR, GS_SPLIT_COLUMN, GS_PART_EXPERTS, f,
                    in, moe->width, experts);
    gs_block_module(a, b, "experts.down_proj", GS_MODULE_LINEAR, GS_SPLIT_ROW, GS_PART_EXPERTS, f,
                    moe->width, in, experts);
    const unsigned sf = GS_MOD_QUANT | (mlp_bias ? GS_MOD_BIAS : 0);
    gs_block_module(a, b, "shared_experts.up_proj", GS_MODULE_LINEAR, GS_SPLIT_COLUMN, GS_PART_MLP,
                    sf, h, moe->shared, 1);
    gs_block_module(a, b, "shared_experts.down_proj", GS_MODULE_LINEAR, GS_SPLIT_ROW, GS_PART_MLP,
                    sf, moe->shared, h, 1);
}

/* The layer kinds of Nemotron-H's MTP step: mtp_hybrid_override_pattern ("*E"), or
 * mtp_layers_block_type (["attention", "moe"], transformers' NemotronHConfig default when
 * num_nextn_predict_layers is set). Returns how many (0 when a name is not a kind). */
static size_t nemotron_mtp_kinds(struct model_reader *r, uint8_t *kinds, size_t cap)
{
    const char *pattern = rd_string(r, "mtp_hybrid_override_pattern");
    const json_t *list = NULL;
    size_t n = 0;
    if (pattern != NULL) {
        for (; pattern[n] != '\0' && n < cap; n++) {
            const int k = nemotron_kind_char(pattern[n]);
            if (k < 0)
                return 0;
            kinds[n] = (uint8_t)k;
        }
        return pattern[n] == '\0' ? n : 0;
    }
    (void)rd_array(r, "mtp_layers_block_type", &list);
    if (list == NULL) {
        kinds[0] = NH_ATTENTION;
        kinds[1] = NH_MOE;
        return 2;
    }
    for (; n < json_array_size(list) && n < cap; n++) {
        const char *s = json_string_value(json_array_get(list, n));
        const int k = s ? nemotron_kind_name(s) : -1;
        if (k < 0)
            return 0;
        kinds[n] = (uint8_t)k;
    }
    return n == json_array_size(list) ? n : 0;
}

/* NemotronHForCausalLM (modular_nemotron_h.py, configuration_nemotron_h.py;
 * the checkpoints' remote modeling_nemotron_h.py builds the same modules):
 * every NemotronHBlock is one RMSNorm `norm` and one mixer, chosen per layer
 * by hybrid_override_pattern ('M' NemotronHMamba2Mixer, '*' attention, '-'
 * NemotronHMLP, 'E' NemotronHMoE) or layers_block_type; the depth is the
 * pattern's length. The Mamba-2 mixer is mamba_num_heads x mamba_head_dim
 * wide with in_proj/out_proj biases from use_bias; attention has
 * head_dim (the remote config's attention_head_dim) and attention_bias; the
 * MLP is relu^2, not gated (up_proj, down_proj, mlp_bias). The MoE
 * (DeepseekV3MoE with NemotronHExperts) has a `gate` router [E, h] (its
 * e_score_correction_bias is a buffer), non-gated experts of
 * moe_intermediate_size over moe_latent_size (with fc1/fc2_latent_proj) or
 * the hidden width, and one non-gated shared expert of
 * moe_shared_expert_intermediate_size (nemotron_moe). The MTP layers
 * (num_nextn_predict_layers), which transformers skips (`mtp.*` ignored on
 * load), are the mtp tower an engine's MTP draft loads. vLLM keeps the ssm
 * state in fp32 unless the config's mamba_ssm_cache_dtype names another
 * type. */
static void read_nemotron_h(struct model_reader *r, struct gs_arch *a)
{
    hybrid_start(r, a, false);
    const uint64_t h = a->hidden_size;
    /* NemotronHBlock.forward, as Mamba's; NemotronHConfig defaults it to False */
    a->residual_fp32 = rd_flag(r, "residual_in_fp32", false);
    uint8_t kinds[GS_LAYERS_MAX];
    uint64_t L = 0;
    bool present[NH_KINDS] = {false, false, false, false};
    const char *pattern = rd_string(r, "hybrid_override_pattern");
    const char *field = "layers_block_type";
    const json_t *list = NULL;
    if (pattern == NULL)
        (void)rd_array(r, field, &list);
    if (pattern == NULL && list == NULL) {
        field = "layer_types";
        (void)rd_array(r, field, &list);
    }
    if (pattern != NULL) {
        L = strlen(pattern);
        check_layers(r, "hybrid_override_pattern", L);
        for (uint64_t l = 0; l < L && l < GS_LAYERS_MAX && r->ok; l++) {
            const int k = nemotron_kind_char(pattern[l]);
            if (k < 0)
                rd_fail(r, "hybrid_override_pattern", GS_ERR_INVALID,
                        "character %llu is '%c'; expected M, *, - or E", (unsigned long long)l,
                        pattern[l]);
            else
                kinds[l] = (uint8_t)k;
        }
    } else if (list != NULL) {
        L = json_array_size(list);
        check_layers(r, field, L);
        for (uint64_t l = 0; l < L && l < GS_LAYERS_MAX && r->ok; l++) {
            const char *s = json_string_value(json_array_get(list, l));
            const int k = s ? nemotron_kind_name(s) : -1;
            if (k < 0)
                rd_fail(r, field, GS_ERR_INVALID,
                        "entry %llu must be mamba, attention, mlp or moe", (unsigned long long)l);
            else
                kinds[l] = (uint8_t)k;
        }
    } else {
        rd_fail(r, "hybrid_override_pattern", GS_ERR_INVALID,
                "is required for this model_type (or layers_block_type)");
    }
    for (uint64_t l = 0; l < L && l < GS_LAYERS_MAX && r->ok; l++)
        present[kinds[l]] = true;
    const uint64_t heads = rd_dim(r, NAMES("num_attention_heads"), present[NH_ATTENTION], 32);
    const uint64_t kv_heads = rd_dim(r, NAMES("num_key_value_heads"), false, heads);
    const uint64_t head_dim = rd_dim(r, NAMES("head_dim", "attention_head_dim"), false, 128);
    const bool attn_bias = rd_flag(r, "attention_bias", false);
    const uint64_t width = rd_dim(r, NAMES("intermediate_size"), false, 21504);
    const bool mlp_bias = rd_flag(r, "mlp_bias", false);
    const uint64_t mh = rd_size(r, NAMES("mamba_num_heads"), 128);
    const uint64_t md = rd_size(r, NAMES("mamba_head_dim"), 64);
    const bool proj_bias = rd_flag(r, "use_bias", rd_flag(r, "mamba_proj_bias", false));
    const char *ssm_dtype = rd_string(r, "mamba_ssm_cache_dtype");
    const struct mamba2 m = {
        .inner = mh * md,
        .heads = mh,
        .head_dim = md,
        .groups = rd_size(r, NAMES("n_groups", "mamba_n_groups"), 8),
        .state = rd_size(r, NAMES("ssm_state_size"), 128),
        .kernel = rd_size(r, NAMES("conv_kernel", "mamba_d_conv"), 4),
        .chunk = rd_size(r, NAMES("chunk_size", "mamba_chunk_size"), 128),
        .in_bias = proj_bias,
        .out_bias = proj_bias,
        .conv_bias = rd_flag(r, "use_conv_bias", rd_flag(r, "mamba_conv_bias", true)),
        .gated_norm = true,
        .fp32_state = ssm_dtype == NULL || strcmp(ssm_dtype, "float32") == 0,
        .config_state_bytes = rd_dtype_bytes(ssm_dtype),
    };
    /* The MTP step vLLM's and SGLang's nemotron_h_mtp.py build (NemotronHMultiTokenPredictor;
     * TensorRT-LLM's NemotronHMTP alike): one layer a character of the pattern - '*' a
     * NemotronHAttentionDecoderLayer, 'E' a NemotronHMoEDecoderLayer, each with its `norm`,
     * anything else NotImplementedError - the first with enorm, hnorm and eh_proj (a
     * ColumnParallelLinear(2h, h, gather_output=True) under the model's quant_config), the last
     * with final_layernorm; the embedding and head are the target's. Described when the step has
     * one attention layer, the one KV layer the draft adds a step. */
    const uint64_t mtp = rd_dim(r, NAMES("num_nextn_predict_layers"), false, 0);
    uint8_t mtp_kinds[16];
    size_t mtp_len = mtp > 0 ? nemotron_mtp_kinds(r, mtp_kinds, sizeof(mtp_kinds)) : 0;
    size_t mtp_attention = 0;
    for (size_t i = 0; i < mtp_len; i++) {
        mtp_attention += mtp_kinds[i] == NH_ATTENTION;
        if (mtp_kinds[i] != NH_ATTENTION && mtp_kinds[i] != NH_MOE)
            mtp_len = 0;
    }
    if (mtp_attention != 1)
        mtp_len = 0;
    struct nh_moe moe = {0, 0, 0, 0, 0};
    if (present[NH_MOE] || mtp_len > 1) {
        moe.experts = rd_dim(r, NAMES("n_routed_experts", "num_local_experts"), false, 8);
        moe.top_k = rd_dim(r, NAMES("num_experts_per_tok"), false, 2);
        moe.width = rd_dim(r, NAMES("moe_intermediate_size"), false, 7688);
        moe.shared = rd_dim(r, NAMES("moe_shared_expert_intermediate_size"), false, 7688);
        moe.latent = rd_dim(r, NAMES("moe_latent_size"), false, 0);
    }
    if (!r->ok)
        return;
    static const struct gs_mlp_names mlp_names = {NULL, "up_proj", "down_proj", NULL};
    size_t block[NH_KINDS];
    for (int k = 0; k < NH_KINDS; k++) {
        if (!present[k])
            continue;
        const size_t b = block[k] = gs_arch_new_block(a);
        struct gs_block *blk = gs_arch_block(a, b);
        if (blk == NULL)
            return;
        switch (k) {
        case NH_MAMBA:
            build_mamba2(a, b, &m);
            blk->mixer = GS_MIXER_RECURRENT;
            /* NemotronHMamba2Mixer.cuda_kernels_forward: in training without a cache or padding
             * (input_not_masked), mamba_split_conv1d_scan_combined */
            blk->rec.scan = GS_SCAN_MAMBA2_COMBINED;
            blk->rec.padded_unfused = true;
            break;
        case NH_ATTENTION:
            attention(a, b, heads, kv_heads, head_dim, attn_bias, false);
            break;
        case NH_MLP:
            gs_build_mlp(a, b, width, false, mlp_bias, &mlp_names);
            break;
        case NH_MOE:
            nemotron_moe(a, b, &moe, mlp_bias);
            break;
        default:
            break;
        }
        norm(a, b, "norm");
    }
    gs_arch_set_layers(a, L, 0);
    for (uint64_t l = 0; l < L && l < GS_LAYERS_MAX; l++)
        gs_arch_set_layer(a, l, block[kinds[l]]);
    hybrid_embeddings(a, "embeddings");
    norm(a, GS_BLOCKS_MAX, "norm_f");
    if (mtp_len > 0) {
        const size_t b = gs_arch_new_block(a);
        attention(a, b, heads, kv_heads, head_dim, attn_bias, false);
        for (size_t i = 0; i < mtp_len; i++) {
            if (mtp_kinds[i] == NH_MOE)
                nemotron_moe(a, b, &moe, mlp_bias);
            norm(a, b, "norm");
        }
        norm(a, b, "enorm");
        norm(a, b, "hnorm");
        norm(a, b, "final_layernorm");
        gs_block_module(a, b, "eh_proj", GS_MODULE_LINEAR, GS_SPLIT_COLUMN, GS_PART_ATTENTION,
                        GS_MOD_QUANT, 2 * h, h, 1);
        gs_arch_tower(a, "mtp", b, GS_PART_MTP, mtp, false);
    }
}

/* FalconH1ForCausalLM (modular_falcon_h1.py, configuration_falcon_h1.py):
 * every FalconH1DecoderLayer runs a LlamaAttention (head_dim, default
 * hidden / heads; attention_bias) and a FalconH1Mixer (Mamba-2,
 * mamba_d_ssm wide - expand x hidden when null -, in_proj bias
 * mamba_proj_bias, out_proj bias projectors_bias, the gated `norm` only with
 * mamba_rms_norm) in parallel off input_layernorm, then a gated LlamaMLP
 * (mlp_bias) after pre_ff_layernorm; final_layernorm; untied by default.
 * The muP vector is a non-persistent buffer. The block is an attention
 * block (its KV cache grows with every token) that also carries the
 * Mamba-2 state geometry in `rec`: the core's KV layout reads `rec` only for
 * GS_MIXER_RECURRENT blocks, so that state (vLLM allocates both for every
 * layer) is not yet in the KV figures. */
static void read_falcon_h1(struct model_reader *r, struct gs_arch *a)
{
    hybrid_start(r, a, false);
    const uint64_t h = a->hidden_size;
    const uint64_t L = rd_dim(r, NAMES("num_hidden_layers"), false, 32);
    check_layers(r, "num_hidden_layers", L);
    const uint64_t heads = rd_dim(r, NAMES("num_attention_heads"), false, 32);
    const uint64_t kv_heads = rd_dim(r, NAMES("num_key_value_heads"), false, heads);
    const uint64_t head_dim = rd_dim(r, NAMES("head_dim"), false, heads ? h / heads : 0);
    const uint64_t width = rd_dim(r, NAMES("intermediate_size"), false, 14336);
    const bool attn_bias = rd_flag(r, "attention_bias", false);
    const bool mlp_bias = rd_flag(r, "mlp_bias", false);
    const uint64_t inner = rd_dim(r, NAMES("mamba_d_ssm"), false,
                                  rd_size(r, NAMES("mamba_expand"), 2) * h);
    const uint64_t mh = rd_size(r, NAMES("mamba_n_heads"), 128);
    const struct mamba2 m = {
        .inner = inner,
        .heads = mh,
        .head_dim = auto_dim(r, "mamba_d_head", mh ? inner / mh : 0),
        .groups = rd_size(r, NAMES("mamba_n_groups"), 1),
        .state = rd_size(r, NAMES("mamba_d_state"), 256),
        .kernel = rd_size(r, NAMES("mamba_d_conv"), 4),
        .chunk = rd_size(r, NAMES("mamba_chunk_size"), 256),
        .in_bias = rd_flag(r, "mamba_proj_bias", false),
        .out_bias = rd_flag(r, "projectors_bias", false),
        .conv_bias = rd_flag(r, "mamba_conv_bias", true),
        .gated_norm = rd_flag(r, "mamba_rms_norm", false),
    };
    if (!r->ok)
        return;
    const size_t b = gs_arch_new_block(a);
    attention(a, b, heads, kv_heads, head_dim, attn_bias, true);
    build_mamba2(a, b, &m);
    struct gs_block *blk = gs_arch_block(a, b);
    if (blk != NULL) /* FalconH1Mixer.cuda_kernels_forward: `if self.training and cache_params is
                        None`, mamba_split_conv1d_scan_combined, padded or not */
        blk->rec.scan = GS_SCAN_MAMBA2_COMBINED;
    gs_build_mlp(a, b, width, true, mlp_bias, &GS_MLP_NAMES);
    norm(a, b, "input_layernorm");
    norm(a, b, "pre_ff_layernorm");
    gs_arch_set_layers(a, L, b);
    hybrid_embeddings(a, "embed_tokens");
    norm(a, GS_BLOCKS_MAX, "final_layernorm");
}

/* BambaMixer's shape under the mamba_* keys (BambaConfig's and GraniteMoeHybridConfig's defaults):
 * mamba_expand x hidden wide, mamba_n_heads heads of mamba_d_head ("auto": inner / heads),
 * mamba_n_groups, mamba_d_state, mamba_d_conv, mamba_chunk_size; in_proj and out_proj biased by
 * mamba_proj_bias, conv1d by mamba_conv_bias; the gated `norm`. */
static struct mamba2 read_bamba_mixer(struct model_reader *r, uint64_t h)
{
    const uint64_t inner = rd_size(r, NAMES("mamba_expand"), 2) * h;
    const uint64_t mh = rd_size(r, NAMES("mamba_n_heads"), 128);
    const bool proj_bias = rd_flag(r, "mamba_proj_bias", false);
    return (struct mamba2){
        .inner = inner,
        .heads = mh,
        .head_dim = auto_dim(r, "mamba_d_head", mh ? inner / mh : 0),
        .groups = rd_size(r, NAMES("mamba_n_groups"), 1),
        .state = rd_size(r, NAMES("mamba_d_state"), 256),
        .kernel = rd_size(r, NAMES("mamba_d_conv"), 4),
        .chunk = rd_size(r, NAMES("mamba_chunk_size"), 256),
        .in_bias = proj_bias,
        .out_bias = proj_bias,
        .conv_bias = rd_flag(r, "mamba_conv_bias", true),
        .gated_norm = true,
    };
}

/* GraniteMoeHybridForCausalLM (modular_granitemoehybrid.py,
 * configuration_granitemoehybrid.py): layer_types ("mamba"/"attention";
 * all mamba when absent) picks a BambaMixer (Mamba-2, mamba_expand x hidden
 * wide, mamba_proj_bias on in_proj and out_proj, gated `norm`) or a
 * GraniteMoeSharedAttention (hidden / heads per head, attention_bias); every
 * layer then has a GraniteMoeMoE when num_local_experts > 0 (router.layer
 * Linear(h, E); input_linear [E, 2 x intermediate, h] fused gate/up;
 * output_linear [E, h, intermediate]) plus a shared_mlp (input_linear
 * h -> 2 x shared_intermediate_size, output_linear), with input_layernorm
 * and post_attention_layernorm; final `norm`. */
static void read_granitemoehybrid(struct model_reader *r, struct gs_arch *a)
{
    hybrid_start(r, a, false);
    const uint64_t h = a->hidden_size;
    const uint64_t L = rd_dim(r, NAMES("num_hidden_layers"), false, 32);
    check_layers(r, "num_hidden_layers", L);
    const uint64_t heads = rd_dim(r, NAMES("num_attention_heads"), false, 32);
    const uint64_t kv_heads = rd_dim(r, NAMES("num_key_value_heads"), false, heads);
    const bool attn_bias = rd_flag(r, "attention_bias", false);
    const char *positions = rd_string(r, "position_embedding_type");
    const bool rope = positions != NULL && strcmp(positions, "rope") == 0;
    const uint64_t width = rd_dim(r, NAMES("intermediate_size"), false, 11008);
    const uint64_t shared = rd_dim(r, NAMES("shared_intermediate_size"), false, 1024);
    const uint64_t experts = rd_dim(r, NAMES("num_local_experts"), false, 8);
    const uint64_t top_k = rd_dim(r, NAMES("num_experts_per_tok"), false, 2);
    const struct mamba2 m = read_bamba_mixer(r, h);
    const char *field = "layer_types";
    const json_t *list = NULL;
    size_t n = rd_array(r, field, &list);
    if (list == NULL) {
        field = "layers_block_type";
        n = rd_array(r, field, &list);
    }
    if (list != NULL && n != L)
        rd_fail(r, field, GS_ERR_INVALID, "has %zu entries for %llu layers", n,
                (unsigned long long)L);
    bool attends[GS_LAYERS_MAX];
    memset(attends, 0, sizeof(attends));
    for (size_t l = 0; list != NULL && l < n && l < GS_LAYERS_MAX && r->ok; l++) {
        const char *s = json_string_value(json_array_get(list, l));
        if (s == NULL || (strcmp(s, "mamba") != 0 && strcmp(s, "attention") != 0))
            rd_fail(r, field, GS_ERR_INVALID, "entry %zu must be \"mamba\" or \"attention\"", l);
        else
            attends[l] = strcmp(s, "attention") == 0;
    }
    if (experts > 0 && top_k > experts)
        rd_fail(r, "num_experts_per_tok", GS_ERR_INVALID,
                "routes each token to %llu experts but there are only %llu",
                (unsigned long long)top_k, (unsigned long long)experts);
    if (!r->ok)
        return;
    size_t kinds[2];
    bool made[2] = {false, false};
    gs_arch_set_layers(a, L, 0);
    for (uint64_t l = 0; l < L && l < GS_LAYERS_MAX; l++) {
        const int att = attends[l];
        if (!made[att]) {
            const size_t b = gs_arch_new_block(a);
            struct gs_block *blk = gs_arch_block(a, b);
            if (blk == NULL)
                return;
            if (att) {
                attention(a, b, heads, kv_heads, heads ? h / heads : 0, attn_bias, rope);
            } else {
                build_mamba2(a, b, &m);
                blk->mixer = GS_MIXER_RECURRENT;
                /* GraniteMoeHybridMambaLayer.cuda_kernels_forward: in training without a cache,
                 * mamba_split_conv1d_scan_combined */
                blk->rec.scan = GS_SCAN_MAMBA2_COMBINED;
                /* torch_forward's GraniteMoeHybridRMSNormGated (BambaRMSNormGated): variance over
                 * the whole inner width */
                blk->rec.norm_whole = true;
            }
            if (experts > 0) {
                const unsigned f = GS_MOD_QUANT | GS_MOD_EXPERT;
                blk->mlp = (struct gs_mlp){.kind = GS_MLP_MOE, .gated = true, .width = width,
                                           .experts = experts, .top_k = top_k,
                                           .shared_width = shared};
                /* GraniteMoeHybridTopKGating's `self.layer = nn.Linear(...)` until 5.13 made it
                 * GraniteMoeHybridTopKRouter, a bare weight */
                blk->mlp.router_linear_until = GS_HF_RELEASE(5, 13, 0);
                gs_block_module(a, b, "block_sparse_moe.router.layer", GS_MODULE_LINEAR,
                                GS_SPLIT_NONE, GS_PART_EXPERTS, 0, h, experts, 1);
                gs_block_module(a, b, "block_sparse_moe.input_linear", GS_MODULE_LINEAR,
                                GS_SPLIT_COLUMN, GS_PART_EXPERTS, f, h, 2 * width, experts);
                gs_block_module(a, b, "block_sparse_moe.output_linear", GS_MODULE_LINEAR,
                                GS_SPLIT_ROW, GS_PART_EXPERTS, f, width, h, experts);
            } else {
                blk->mlp = (struct gs_mlp){.kind = GS_MLP_DENSE, .gated = true, .width = shared};
            }
            gs_block_module(a, b, "shared_mlp.input_linear", GS_MODULE_LINEAR, GS_SPLIT_COLUMN,
                            GS_PART_MLP, GS_MOD_QUANT, h, 2 * shared, 1);
            gs_block_module(a, b, "shared_mlp.output_linear", GS_MODULE_LINEAR, GS_SPLIT_ROW,
                            GS_PART_MLP, GS_MOD_QUANT, shared, h, 1);
            norm(a, b, "input_layernorm");
            norm(a, b, "post_attention_layernorm");
            kinds[att] = b;
            made[att] = true;
        }
        gs_arch_set_layer(a, l, kinds[att]);
    }
    hybrid_embeddings(a, "embed_tokens");
    norm(a, GS_BLOCKS_MAX, "norm");
}

/* layer_types of "linear_attention" and "full_attention" into full[], or without it every
 * interval-th layer full ((l + 1) % interval == 0: Qwen3-Next's full_attention_interval, OLMo
 * Hybrid's i % 4 == 3). */
static void full_layers(struct model_reader *r, uint64_t layers, uint64_t interval,
                        bool full[GS_LAYERS_MAX])
{
    memset(full, 0, GS_LAYERS_MAX * sizeof(bool));
    const json_t *list = NULL;
    const size_t n = rd_array(r, "layer_types", &list);
    if (list != NULL && n != layers)
        rd_fail(r, "layer_types", GS_ERR_INVALID, "has %zu entries for %llu layers", n,
                (unsigned long long)layers);
    for (uint64_t l = 0; l < layers && l < GS_LAYERS_MAX && r->ok; l++) {
        if (list == NULL) {
            full[l] = interval != 0 && (l + 1) % interval == 0;
            continue;
        }
        const char *s = json_string_value(json_array_get(list, l));
        if (s == NULL || (strcmp(s, "full_attention") != 0 && strcmp(s, "linear_attention") != 0))
            rd_fail(r, "layer_types", GS_ERR_INVALID,
                    "entry %llu must be \"linear_attention\" or \"full_attention\"",
                    (unsigned long long)l);
        else
            full[l] = strcmp(s, "full_attention") == 0;
    }
}

/* Qwen3-Next's gated full attention (Qwen3NextAttention): q_proj doubled
 * for the output gate, k/v, o_proj, q_norm/k_norm over head_dim. */
static void qwen3_next_attention(struct gs_arch *a, size_t b, const struct decoder_plan *plan,
                                 bool bias)
{
    attention(a, b, plan->heads, plan->kv_heads, plan->head_dim, bias, true);
    struct gs_block *blk = gs_arch_block(a, b);
    if (blk == NULL)
        return;
    for (size_t i = 0; i < blk->module_count; i++)
        if (strcmp(blk->modules[i].name, "q_proj") == 0)
            blk->modules[i].out *= 2; /* query and gate, [heads, 2 * head_dim] */
    blk->attn.output_gate = GS_GATE_SIGMOID; /* attn_output * torch.sigmoid(gate), then o_proj */
    gs_block_module(a, b, "q_norm", GS_MODULE_NORM, GS_SPLIT_NONE, GS_PART_ATTENTION, 0, 1,
                    plan->head_dim, 1);
    gs_block_module(a, b, "k_norm", GS_MODULE_NORM, GS_SPLIT_NONE, GS_PART_ATTENTION, 0, 1,
                    plan->head_dim, 1);
}

struct gdn {
    uint64_t k_heads, v_heads, k_dim, v_dim, kernel;
};

/* The recurrent state and scan of a Gated DeltaNet mixer in block `b` (false when the block
 * could not be made). */
static bool gdn_mixer(struct gs_arch *a, size_t b, const struct gdn *g)
{
    struct gs_block *blk = gs_arch_block(a, b);
    if (blk == NULL) {
        a->overflow = true;
        return false;
    }
    const uint64_t key_dim = g->k_heads * g->k_dim, value_dim = g->v_heads * g->v_dim;
    blk->mixer = GS_MIXER_RECURRENT;
    blk->rec = (struct gs_recurrent){.conv_channels = 2 * key_dim + value_dim,
                                     .conv_kernel = g->kernel,
                                     .state_heads = g->v_heads,
                                     .state_rows = g->v_dim,
                                     .state_cols = g->k_dim,
                                     .in_width = 2 * key_dim + 2 * value_dim + 2 * g->v_heads,
                                     .inner = value_dim,
                                     .fp32_state = false,
                                     .delta_rule = true,
                                     .scan = GS_SCAN_GATED_DELTA_NEXT};
    return true;
}

/* Qwen3NextGatedDeltaNet (`linear_attn`): in_proj_qkvz h -> 2 key_dim +
 * 2 value_dim, in_proj_ba h -> 2 v_heads, depthwise conv1d over
 * 2 key_dim + value_dim without bias, dt_bias and A_log per value head, a
 * gated RMSNorm over head_v_dim shared by the heads, out_proj value_dim -> h.
 * Training counts its fla path (q and k repeated to the value heads, fla's
 * FusedRMSNormGated: GS_SCAN_GATED_DELTA_NEXT). */
static void build_gdn(struct gs_arch *a, size_t b, const struct gdn *g)
{
    if (!gdn_mixer(a, b, g))
        return;
    const uint64_t h = a->hidden_size;
    const uint64_t key_dim = g->k_heads * g->k_dim, value_dim = g->v_heads * g->v_dim;
    const uint64_t conv = 2 * key_dim + value_dim;
    const uint64_t qkvz = 2 * key_dim + 2 * value_dim, ba = 2 * g->v_heads;
    gs_block_module(a, b, "in_proj_qkvz", GS_MODULE_LINEAR, GS_SPLIT_COLUMN, GS_PART_ATTENTION,
                    GS_MOD_QUANT, h, qkvz, 1);
    gs_block_module(a, b, "in_proj_ba", GS_MODULE_LINEAR, GS_SPLIT_COLUMN, GS_PART_ATTENTION,
                    GS_MOD_QUANT, h, ba, 1);
    conv1d(a, b, conv, g->kernel, false);
    mixer_tensor(a, b, "dt_bias", 1, g->v_heads);
    mixer_tensor(a, b, "A_log", 1, g->v_heads);
    gs_block_module(a, b, "norm", GS_MODULE_NORM, GS_SPLIT_NONE, GS_PART_ATTENTION, 0, 1, g->v_dim,
                    1);
    gs_block_module(a, b, "out_proj", GS_MODULE_LINEAR, GS_SPLIT_ROW, GS_PART_ATTENTION,
                    GS_MOD_QUANT, value_dim, h, 1);
}

/* OlmoHybridGatedDeltaNet (transformers models/olmo_hybrid/modular_olmo_hybrid.py): Qwen3-Next's
 * mixer with its projections apart - q_proj and k_proj h -> key_dim, v_proj and the output
 * gate g_proj h -> value_dim, a_proj and b_proj h -> v_heads -, the same conv1d without bias,
 * dt_bias, A_log, o_norm (the gated RMSNorm over head_v_dim) and o_proj; its forward is Qwen3-
 * Next's (the q/k/v concatenated through the causal conv, q and k repeated to the value heads,
 * the fla chunk rule with in-kernel L2 norms). The same parameters, named as PEFT targets
 * them. */
static void build_olmo_gdn(struct gs_arch *a, size_t b, const struct gdn *g)
{
    if (!gdn_mixer(a, b, g))
        return;
    const uint64_t h = a->hidden_size;
    const uint64_t key_dim = g->k_heads * g->k_dim, value_dim = g->v_heads * g->v_dim;
    static const char *const in[] = {"q_proj", "k_proj", "v_proj", "g_proj", "a_proj", "b_proj"};
    const uint64_t out[] = {key_dim, key_dim, value_dim, value_dim, g->v_heads, g->v_heads};
    for (size_t i = 0; i < 6; i++)
        gs_block_module(a, b, in[i], GS_MODULE_LINEAR, GS_SPLIT_COLUMN, GS_PART_ATTENTION,
                        GS_MOD_QUANT, h, out[i], 1);
    conv1d(a, b, 2 * key_dim + value_dim, g->kernel, false);
    mixer_tensor(a, b, "dt_bias", 1, g->v_heads);
    mixer_tensor(a, b, "A_log", 1, g->v_heads);
    gs_block_module(a, b, "o_norm", GS_MODULE_NORM, GS_SPLIT_NONE, GS_PART_ATTENTION, 0, 1,
                    g->v_dim, 1);
    gs_block_module(a, b, "o_proj", GS_MODULE_LINEAR, GS_SPLIT_ROW, GS_PART_ATTENTION, GS_MOD_QUANT,
                    value_dim, h, 1);
}

/* One Qwen3-Next layer kind: the mixer, the MLP, two norms. */
static size_t qwen3_next_block(struct gs_arch *a, const struct decoder_plan *plan,
                               const struct gdn *g, bool full, bool routed, bool bias)
{
    const size_t b = gs_arch_new_block(a);
    if (full)
        qwen3_next_attention(a, b, plan, bias);
    else
        build_gdn(a, b, g);
    if (routed)
        gs_build_moe(a, b, &plan->experts);
    else
        gs_build_mlp(a, b, plan->intermediate, true, false, &GS_MLP_NAMES);
    norm(a, b, "input_layernorm");
    norm(a, b, "post_attention_layernorm");
    return b;
}

/* Qwen3NextForCausalLM (modeling_qwen3_next.py): layer_types, or every
 * full_attention_interval-th layer full ((l + 1) % interval == 0) and the
 * others Gated DeltaNet; a Qwen3NextSparseMoeBlock (gate, experts of
 * moe_intermediate_size, a shared_expert of shared_expert_intermediate_size
 * behind shared_expert_gate Linear(h, 1)) on every decoder_sparse_step-th
 * layer but mlp_only_layers, else a gated MLP of intermediate_size; untied.
 * The MTP module transformers does not build (vLLM qwen3_next_mtp.py:
 * num_nextn_predict_layers full-attention MoE layers, fc 2h -> h,
 * pre_fc_norm_hidden, pre_fc_norm_embedding and norm; the embedding and
 * head are the model's) is the mtp tower: one layer where the config names
 * no depth, as Qwen's published configs do while their checkpoints carry
 * mtp.* weights (vLLM: getattr(config, "num_nextn_predict_layers", 1);
 * TensorRT-LLM's modeling_qwen3_next.py sets num_nextn_predict_layers = 1). */
static void read_qwen3_next(struct model_reader *r, struct gs_arch *a)
{
    struct decoder_plan plan;
    decoder_read_dims(r, a, &plan, false, 0, false);
    const uint64_t interval = rd_dim(r, NAMES("full_attention_interval"), false, 4);
    bool full[GS_LAYERS_MAX];
    full_layers(r, plan.layers, interval, full);
    decoder_read_experts(r, &plan, false);
    plan.experts.shared_width = rd_dim(r, NAMES("shared_expert_intermediate_size"), false, 0);
    plan.experts.shared_gate = plan.experts.shared_width > 0;
    plan.experts.router_linear_until = GS_ROUTER_TOPK_FROM_5; /* Qwen3NextTopKRouter */
    decoder_moe_every(r, &plan, rd_dim(r, NAMES("decoder_sparse_step"), false, 1));
    const struct gdn g = {
        .k_heads = rd_dim(r, NAMES("linear_num_key_heads"), false, 16),
        .v_heads = rd_dim(r, NAMES("linear_num_value_heads"), false, 32),
        .k_dim = rd_dim(r, NAMES("linear_key_head_dim"), false, 128),
        .v_dim = rd_dim(r, NAMES("linear_value_head_dim"), false, 128),
        .kernel = rd_dim(r, NAMES("linear_conv_kernel_dim"), false, 4),
    };
    const bool bias = rd_flag(r, "attention_bias", false);
    const uint64_t mtp =
        rd_dim(r, NAMES("num_nextn_predict_layers", "mtp_num_hidden_layers"), false, 1);
    if (!r->ok)
        return;
    size_t kinds[2][2];
    bool made[2][2] = {{false, false}, {false, false}};
    gs_arch_set_layers(a, plan.layers, 0);
    for (uint64_t l = 0; l < plan.layers && l < GS_LAYERS_MAX; l++) {
        const int f = full[l], m = plan.moe[l];
        if (!made[f][m]) {
            kinds[f][m] = qwen3_next_block(a, &plan, &g, f, m, bias);
            made[f][m] = true;
        }
        gs_arch_set_layer(a, l, kinds[f][m]);
    }
    hybrid_embeddings(a, "embed_tokens");
    norm(a, GS_BLOCKS_MAX, "norm");
    if (mtp > 0) {
        const size_t b = qwen3_next_block(a, &plan, &g, true, true, bias);
        const uint64_t h = a->hidden_size;
        /* vLLM qwen3_next_mtp.py: ColumnParallelLinear(2h, h, gather_output=True) */
        gs_block_module(a, b, "fc", GS_MODULE_LINEAR, GS_SPLIT_COLUMN, GS_PART_ATTENTION, 0, 2 * h,
                        h, 1);
        norm(a, b, "pre_fc_norm_hidden");
        norm(a, b, "pre_fc_norm_embedding");
        norm(a, b, "norm");
        gs_arch_tower(a, "mtp", b, GS_PART_MTP, mtp, false);
    }
}

/* OlmoHybridForCausalLM (transformers 5.3, models/olmo_hybrid/modular_olmo_hybrid.py;
 * allenai/Olmo-Hybrid-7B; vLLM models/olmo_hybrid.py): layer_types, or every fourth layer
 * (i % 4 == 3) full, the others linear. A full layer is Olmo3's (q/k/v/o with attention_bias,
 * q_norm over heads x head_dim and k_norm over kv_heads x head_dim, the post-norms
 * post_attention_layernorm and post_feedforward_layernorm), with no sliding window; a linear
 * layer Gated DeltaNet (build_olmo_gdn) between input_layernorm and post_attention_layernorm.
 * OlmoHybridConfig derives the linear heads from the attention's: linear_num_key_heads and
 * linear_num_value_heads = num_attention_heads, linear_key_head_dim = int(0.75 x hidden /
 * linear_num_key_heads), linear_value_head_dim twice that. A gated SwiGLU MLP everywhere;
 * untied by default. Its RoPE (none in the released checkpoint) holds no parameter. */
static void read_olmo_hybrid(struct model_reader *r, struct gs_arch *a)
{
    struct decoder_plan plan;
    decoder_read_dims(r, a, &plan, false, 0, false);
    bool full[GS_LAYERS_MAX];
    full_layers(r, plan.layers, 4, full);
    const uint64_t k_heads = rd_dim(r, NAMES("linear_num_key_heads"), false, plan.heads);
    const uint64_t k_dim = rd_dim(r, NAMES("linear_key_head_dim"), false,
                                  k_heads ? 3 * a->hidden_size / 4 / k_heads : 0);
    const struct gdn g = {
        .k_heads = k_heads,
        .v_heads = rd_dim(r, NAMES("linear_num_value_heads"), false, plan.heads),
        .k_dim = k_dim,
        .v_dim = rd_dim(r, NAMES("linear_value_head_dim"), false, 2 * k_dim),
        .kernel = rd_dim(r, NAMES("linear_conv_kernel_dim"), false, 4),
    };
    const bool bias = rd_flag(r, "attention_bias", false);
    if (!r->ok)
        return;
    if (g.k_heads == 0 || g.k_dim == 0)
        rd_fail(r, "linear_key_head_dim", GS_ERR_INVALID, "must be at least 1");
    if (!r->ok)
        return;
    size_t kinds[2];
    bool made[2] = {false, false};
    gs_arch_set_layers(a, plan.layers, 0);
    for (uint64_t l = 0; l < plan.layers && l < GS_LAYERS_MAX; l++) {
        const int f = full[l];
        if (!made[f]) {
            const size_t b = gs_arch_new_block(a);
            if (f) {
                attention(a, b, plan.heads, plan.kv_heads, plan.head_dim, bias, true);
                gs_block_module(a, b, "q_norm", GS_MODULE_NORM, GS_SPLIT_COLUMN, GS_PART_ATTENTION,
                                0, 1, plan.heads * plan.head_dim, 1);
                gs_block_module(a, b, "k_norm", GS_MODULE_NORM, GS_SPLIT_COLUMN, GS_PART_ATTENTION,
                                0, 1, plan.kv_heads * plan.head_dim, 1);
            } else {
                build_olmo_gdn(a, b, &g);
            }
            gs_build_mlp(a, b, plan.intermediate, true, false, &GS_MLP_NAMES);
            norm(a, b, f ? "post_attention_layernorm" : "input_layernorm");
            norm(a, b, f ? "post_feedforward_layernorm" : "post_attention_layernorm");
            kinds[f] = b;
            made[f] = true;
        }
        gs_arch_set_layer(a, l, kinds[f]);
    }
    hybrid_embeddings(a, "embed_tokens");
    norm(a, GS_BLOCKS_MAX, "norm");
}

/* -------------------------------------------------------------------- LFM2 */

/* Lfm2ShortConv (transformers models/lfm2/modeling_lfm2.py; vLLM models/lfm2.py ShortConv):
 * in_proj h -> 3h (B, C and x), a depthwise causal Conv1d of conv_L_cache over h channels,
 * out_proj h -> h, each with a bias under conv_bias. vLLM keeps the convolution's last L - 1
 * columns a sequence (MambaStateShapeCalculator.short_conv_state_shape: conv_dim x (L - 1),
 * the model dtype), split over tensor ranks. */
static void lfm2_conv(struct gs_arch *a, size_t b, uint64_t h, uint64_t kernel, bool bias)
{
    struct gs_block *blk = gs_arch_block(a, b);
    if (blk == NULL) {
        a->overflow = true;
        return;
    }
    blk->mixer = GS_MIXER_RECURRENT;
    blk->rec = (struct gs_recurrent){.conv_channels = h,
                                     .conv_kernel = kernel,
                                     .in_width = 3 * h,
                                     .inner = h,
                                     .scan = GS_SCAN_SHORT_CONV};
    const unsigned f = GS_MOD_QUANT | (bias ? GS_MOD_BIAS : 0);
    gs_block_module(a, b, "conv.in_proj", GS_MODULE_LINEAR, GS_SPLIT_COLUMN, GS_PART_ATTENTION, f,
                    h, 3 * h, 1);
    gs_block_module(a, b, "conv.conv", GS_MODULE_TENSOR, GS_SPLIT_COLUMN, GS_PART_ATTENTION, 0, h,
                    kernel + (bias ? 1 : 0), 1);
    gs_block_module(a, b, "conv.out_proj", GS_MODULE_LINEAR, GS_SPLIT_ROW, GS_PART_ATTENTION, f, h,
                    h, 1);
}

/* What Lfm2Config and Lfm2MoeConfig say about the stack. */
struct lfm2 {
    uint64_t layers, heads, kv_heads, head_dim, kernel, width;
    uint64_t dense_layers; /* lfm2_moe: the first num_dense_layers dense */
    bool conv_bias;
    struct gs_moe experts;
    bool attention[GS_LAYERS_MAX];
};

/* layer_types ("full_attention" or "conv"), else full_attn_idxs (the attention layers' indices),
 * else, where `all_default`, every layer attention (Lfm2Config.__post_init__); Lfm2MoeConfig
 * fills nothing in and its model reads layer_types, so it needs one of them. */
static void lfm2_layers(struct model_reader *r, struct lfm2 *z, bool all_default)
{
    if (rd_kind_list(r, "layer_types", "full_attention", "conv", z->layers, z->attention) || !r->ok)
        return;
    const json_t *list = NULL;
    const size_t n = rd_array(r, "full_attn_idxs", &list);
    if (list == NULL && r->ok && !all_default) {
        rd_fail(r, "layer_types", GS_ERR_INVALID,
                "is required: Lfm2MoeModel reads each layer's type from it (or give "
                "full_attn_idxs)");
        return;
    }
    for (uint64_t l = 0; l < z->layers; l++)
        z->attention[l] = list == NULL;
    for (size_t i = 0; list != NULL && i < n; i++) {
        const json_t *id = json_array_get(list, i);
        if (!json_is_integer(id) || json_integer_value(id) < 0 ||
            (uint64_t)json_integer_value(id) >= z->layers) {
            rd_fail(r, "full_attn_idxs", GS_ERR_INVALID,
                    "entry %zu must be a layer index below %llu", i, (unsigned long long)z->layers);
            return;
        }
        z->attention[json_integer_value(id)] = true;
    }
}

/* Lfm2MLP's width: block_ff_dim (the older key, which wins) or intermediate_size, then with
 * block_auto_adjust_ff_dim int(2 x width / 3), and with a block_ffn_dim_multiplier int(m x
 * width) rounded up to block_multiple_of (Lfm2MLP.__init__; vLLM rounds up without a multiplier
 * too, which no published config leaves null). */
static uint64_t lfm2_width(struct model_reader *r)
{
    uint64_t w = rd_dim(r, NAMES("block_ff_dim", "intermediate_size"), false, 12288);
    if (!rd_flag(r, "block_auto_adjust_ff_dim", true))
        return w;
    w = 2 * w / 3;
    const json_t *m = rd_get(r, "block_ffn_dim_multiplier");
    const json_t *given = json_object_get(r->config, "block_ffn_dim_multiplier");
    if (given != NULL && json_is_null(given))
        return w;
    const double mult = m != NULL && json_is_number(m) ? json_number_value(m) : 1.0;
    if (!(mult > 0.0 && mult < 1e6)) {
        rd_fail(r, "block_ffn_dim_multiplier", GS_ERR_INVALID, "must be a positive number");
        return 0;
    }
    const uint64_t multiple = rd_dim(r, NAMES("block_multiple_of"), false, 256);
    w = (uint64_t)(mult * (double)w);
    return multiple ? (w + multiple - 1) / multiple * multiple : w;
}

/* One kind of Lfm2DecoderLayer: attention or short convolution, dense or routed, with its two
 * RMSNorms (operator_norm, ffn_norm). */
static size_t lfm2_block(struct gs_arch *a, const struct lfm2 *z, bool attention, bool routed)
{
    static const struct gs_attention_names names = {"self_attn.q_proj", "self_attn.k_proj",
                                                    "self_attn.v_proj", "self_attn.out_proj", NULL};
    static const struct gs_mlp_names mlp = {"feed_forward.w1", "feed_forward.w3", "feed_forward.w2",
                                            NULL};
    const size_t b = gs_arch_new_block(a);
    if (attention) {
        /* Lfm2Attention: q/k/v/out_proj without biases, q_layernorm and k_layernorm over
         * head_dim, full attention (no window) */
        struct gs_attention s;
        memset(&s, 0, sizeof(s));
        s.heads = z->heads;
        s.kv_heads = z->kv_heads;
        s.head_dim = z->head_dim;
        s.cached = true;
        gs_build_attention(a, b, &s, &names, false, false);
        gs_block_module(a, b, "self_attn.q_layernorm", GS_MODULE_NORM, GS_SPLIT_NONE,
                        GS_PART_ATTENTION, 0, 1, z->head_dim, 1);
        gs_block_module(a, b, "self_attn.k_layernorm", GS_MODULE_NORM, GS_SPLIT_NONE,
                        GS_PART_ATTENTION, 0, 1, z->head_dim, 1);
    } else {
        lfm2_conv(a, b, a->hidden_size, z->kernel, z->conv_bias);
    }
    if (routed)
        gs_build_moe(a, b, &z->experts);
    else
        gs_build_mlp(a, b, z->width, true, false, &mlp);
    gs_build_norms(a, b, "operator_norm", 1, false);
    gs_build_norms(a, b, "ffn_norm", 1, false);
    return b;
}

/* Lfm2ForCausalLM and Lfm2MoeForCausalLM (transformers models/lfm2, models/lfm2_moe; LiquidAI
 * LFM2 and LFM2-8B-A1B; vLLM models/lfm2.py, lfm2_moe.py): gated short convolutions and GQA
 * attention layers by layer_types, a SwiGLU of w1, w3 and w2, or from num_dense_layers on
 * Lfm2MoeSparseMoeBlock (the router a bare [experts, h] weight, expert_bias an fp32 buffer, fused
 * experts of moe_intermediate_size, no shared expert); embedding_norm, despite its name the norm
 * after the last layer; the head tied unless tie_embedding (the older key, which wins) or
 * tie_word_embeddings says otherwise. head_dim is a config's head_dim, else hidden / heads. */
static void read_lfm2_stack(struct model_reader *r, struct gs_arch *a, bool moe)
{
    struct lfm2 z;
    memset(&z, 0, sizeof(z));
    const uint64_t h = rd_dim(r, NAMES("hidden_size"), false, moe ? 2048 : 2560);
    z.layers = rd_dim(r, NAMES("num_hidden_layers"), false, 32);
    z.heads = rd_dim(r, NAMES("num_attention_heads"), false, 32);
    z.kv_heads = rd_dim(r, NAMES("num_key_value_heads"), false, 8);
    z.head_dim = rd_dim(r, NAMES("head_dim"), false, z.heads ? h / z.heads : 0);
    z.kernel = rd_dim(r, NAMES("conv_L_cache"), false, 3);
    z.conv_bias = rd_flag(r, "conv_bias", false);
    z.width = moe ? rd_dim(r, NAMES("intermediate_size"), false, 7168) : lfm2_width(r);
    if (moe) {
        z.dense_layers = rd_dim(r, NAMES("num_dense_layers"), false, 2);
        z.experts.experts = rd_dim(r, NAMES("num_experts"), false, 32);
        z.experts.top_k = rd_dim(r, NAMES("num_experts_per_tok"), false, 4);
        z.experts.width = rd_dim(r, NAMES("moe_intermediate_size"), false, 1792);
        z.experts.gated = true;
        z.experts.router_name = "feed_forward.gate";
        z.experts.router_parameter = true; /* Lfm2MoeTopKRouter: self.weight */
        z.experts.experts_fused = true;
        if (rd_flag(r, "use_expert_bias", true))
            z.experts.router_buffer = z.experts.experts; /* nn.Buffer, fp32 */
        static const struct gs_mlp_names experts = {"feed_forward.experts.gate_proj",
                                                    "feed_forward.experts.up_proj",
                                                    "feed_forward.experts.down_proj", NULL};
        z.experts.expert_names = &experts;
    }
    if (!r->ok)
        return;
    if (z.layers > GS_LAYERS_MAX) {
        rd_fail(r, "num_hidden_layers", GS_ERR_UNSUPPORTED,
                "%llu layers: gpusizer describes at most %d", (unsigned long long)z.layers,
                GS_LAYERS_MAX);
        return;
    }
    if (z.heads == 0 || z.kv_heads == 0 || z.heads % z.kv_heads != 0) {
        rd_fail(r, "num_key_value_heads", GS_ERR_INVALID, "must divide num_attention_heads");
        return;
    }
    if (moe && z.experts.top_k > z.experts.experts) {
        rd_fail(r, "num_experts_per_tok", GS_ERR_INVALID, "%llu of %llu experts",
                (unsigned long long)z.experts.top_k, (unsigned long long)z.experts.experts);
        return;
    }
    lfm2_layers(r, &z, !moe);
    gs_arch_init(a, NULL, h, rd_dim(r, NAMES("vocab_size"), false, 65536));
    a->max_position_embeddings = rd_dim(r, NAMES("max_position_embeddings"), false, 128000);
    a->tie_word_embeddings = rd_flag(r, "tie_embedding", rd_flag(r, "tie_word_embeddings", true));
    if (!r->ok)
        return;
    size_t kind[2][2] = {{GS_BLOCKS_MAX, GS_BLOCKS_MAX}, {GS_BLOCKS_MAX, GS_BLOCKS_MAX}};
    gs_arch_set_layers(a, z.layers, 0);
    for (uint64_t l = 0; l < z.layers; l++) {
        const bool routed = moe && l >= z.dense_layers;
        size_t *b = &kind[z.attention[l]][routed];
        if (*b == GS_BLOCKS_MAX)
            *b = lfm2_block(a, &z, z.attention[l], routed);
        if (*b >= GS_BLOCKS_MAX)
            return;
        gs_arch_set_layer(a, l, *b);
    }
    gs_arch_embeddings(a, h, "lm_head", false);
    gs_build_norms(a, GS_BLOCKS_MAX, "embedding_norm", 1, false);
}

static void read_lfm2(struct model_reader *r, struct gs_arch *a)
{
    read_lfm2_stack(r, a, false);
}

static void read_lfm2_moe(struct model_reader *r, struct gs_arch *a)
{
    read_lfm2_stack(r, a, true);
}

/* BambaForCausalLM (transformers models/bamba/modeling_bamba.py; ibm-ai-platform/Bamba-9B,
 * "Bamba-9.8b"; vLLM models/bamba.py): GraniteMoeHybrid's layer without experts - every layer a
 * BambaMixer (Mamba-2, mamba_expand x hidden wide, mamba_n_heads heads of mamba_d_head, "auto"
 * = inner / heads; conv1d biased by mamba_conv_bias, in_proj and out_proj by mamba_proj_bias; the
 * gated `norm` over the whole inner width) or, at attn_layer_indices, Llama's attention (q/k/v/o
 * biased by attention_bias, head_dim or hidden / heads; the partial rotary embedding holds no
 * parameter), then input_layernorm, pre_ff_layernorm and a SwiGLU feed_forward
 * (gate_proj/up_proj/down_proj, mlp_bias). BambaConfig builds layers_block_type from
 * attn_layer_indices (layer_types, with "attention"/"full_attention" and "mamba"/
 * "linear_attention", where a config gives that instead); final_layernorm; untied by default.
 * Training runs BambaMixer.cuda_kernels_forward's mamba_split_conv1d_scan_combined. vLLM keeps
 * KV for the attention layers alone and a mamba2_state_shape state for the others. */
static void read_bamba(struct model_reader *r, struct gs_arch *a)
{
    hybrid_start(r, a, false);
    const uint64_t h = a->hidden_size;
    const uint64_t L = rd_dim(r, NAMES("num_hidden_layers"), true, 0);
    check_layers(r, "num_hidden_layers", L);
    const uint64_t heads = rd_dim(r, NAMES("num_attention_heads"), true, 0);
    const uint64_t kv_heads = rd_dim(r, NAMES("num_key_value_heads"), false, heads);
    const uint64_t head_dim = rd_dim(r, NAMES("head_dim"), false, heads ? h / heads : 0);
    const bool attn_bias = rd_flag(r, "attention_bias", false);
    const uint64_t width = rd_dim(r, NAMES("intermediate_size"), true, 0);
    const bool mlp_bias = rd_flag(r, "mlp_bias", false);
    const struct mamba2 m = read_bamba_mixer(r, h);
    if (r->ok && m.head_dim * m.heads != m.inner)
        rd_fail(r, "mamba_d_head", GS_ERR_INVALID,
                "mamba_d_head x mamba_n_heads must be mamba_expand x hidden_size (%llu)",
                (unsigned long long)m.inner);
    bool attends[GS_LAYERS_MAX];
    memset(attends, 0, sizeof(attends));
    const json_t *list = NULL;
    if (json_is_array(rd_get(r, "attn_layer_indices"))) {
        const size_t n = rd_array(r, "attn_layer_indices", &list);
        for (size_t i = 0; i < n && r->ok; i++) {
            const json_t *v = json_array_get(list, i);
            if (!json_is_integer(v) || json_integer_value(v) < 0 ||
                (uint64_t)json_integer_value(v) >= L)
                rd_fail(r, "attn_layer_indices", GS_ERR_INVALID,
                        "entry %zu is not a layer index below %llu", i, (unsigned long long)L);
            else if ((uint64_t)json_integer_value(v) < GS_LAYERS_MAX)
                attends[json_integer_value(v)] = true;
        }
    } else {
        const char *field = rd_get(r, "layer_types") != NULL ? "layer_types" : "layers_block_type";
        const size_t n = rd_array(r, field, &list);
        if (list != NULL && n != L)
            rd_fail(r, field, GS_ERR_INVALID, "has %zu entries for %llu layers", n,
                    (unsigned long long)L);
        for (size_t l = 0; list != NULL && l < n && l < GS_LAYERS_MAX && r->ok; l++) {
            const char *s = json_string_value(json_array_get(list, l));
            const bool att =
                s != NULL && (strcmp(s, "attention") == 0 || strcmp(s, "full_attention") == 0);
            if (!att &&
                (s == NULL || (strcmp(s, "mamba") != 0 && strcmp(s, "linear_attention") != 0)))
                rd_fail(r, field, GS_ERR_INVALID,
                        "entry %zu must be \"mamba\", \"linear_attention\", \"attention\" or "
                        "\"full_attention\"",
                        l);
            attends[l] = att;
        }
    }
    if (!r->ok)
        return;
    size_t kinds[2];
    bool made[2] = {false, false};
    gs_arch_set_layers(a, L, 0);
    for (uint64_t l = 0; l < L && l < GS_LAYERS_MAX; l++) {
        const int att = attends[l];
        if (!made[att]) {
            const size_t b = gs_arch_new_block(a);
            struct gs_block *blk = gs_arch_block(a, b);
            if (blk == NULL)
                return;
            if (att) {
                attention(a, b, heads, kv_heads, head_dim, attn_bias, true);
            } else {
                build_mamba2(a, b, &m);
                blk->mixer = GS_MIXER_RECURRENT;
                blk->rec.scan = GS_SCAN_MAMBA2_COMBINED;
                blk->rec.norm_whole = true; /* BambaRMSNormGated */
            }
            static const struct gs_mlp_names ff = {"feed_forward.gate_proj", "feed_forward.up_proj",
                                                   "feed_forward.down_proj", NULL};
            gs_build_mlp(a, b, width, true, mlp_bias, &ff);
            norm(a, b, "input_layernorm");
            norm(a, b, "pre_ff_layernorm");
            kinds[att] = b;
            made[att] = true;
        }
        gs_arch_set_layer(a, l, kinds[att]);
    }
    hybrid_embeddings(a, "embed_tokens");
    norm(a, GS_BLOCKS_MAX, "final_layernorm");
}

/* MiniMax-Text-01 and MiniMax-M1: MiniMaxForCausalLM (transformers 5, models/minimax/
 * modular_minimax.py; MiniMaxAI/MiniMax-Text-01-hf), and the checkpoints' remote
 * MiniMaxText01ForCausalLM and MiniMaxM1ForCausalLM (model_type minimax_text_01, minimax_m1), which
 * vLLM serves with one class (models/minimax_text_01.py). Which layers are softmax attention:
 * the remote configs' attn_type_list (1 softmax, 0 lightning: a softmax layer after every seven
 * lightning ones in both checkpoints), transformers' layer_types, or MiniMaxConfig's default
 * (layer i full when (i + 1) % 2, the others linear). A lightning layer (MiniMaxLightningAttention;
 * vLLM MiniMaxText01LinearAttention): qkv_proj h -> 3 x heads x head_dim, output_gate
 * h -> heads x head_dim, an RMSNorm over heads x head_dim, out_proj back to h, no biases; its
 * state a (heads / tp, head_dim, head_dim) matrix a sequence in the model's dtype (vLLM
 * MambaStateShapeCalculator.linear_attention_state_shape, MambaStateDtypeCalculator.
 * linear_attention_state_dtype), no conv window. A softmax layer: MixtralAttention's q/k/v/o
 * without biases (rotary_dim rotates part of each head: no parameter). Every layer: the
 * Mixtral MoE (gate, num_local_experts experts of intermediate_size) and, where
 * shared_intermediate_size is set, a shared MLP scaled by a sigmoid of `coefficient`
 * (Linear(h, 1); vLLM's shared_moe_mode "sigmoid"); input and post-attention RMSNorms; the
 * alpha/beta residual factors are scalars. Untied. The lightning layers' decay tables
 * (transformers' slope_rate, query_decay, key_decay, diagonal_decay buffers, computed at init
 * and not in the checkpoint) are not counted. Training counts the lightning projections, not
 * the block scan's saved tensors (GS_SCAN_PROJECTIONS). */
static void read_minimax(struct model_reader *r, struct gs_arch *a)
{
    struct decoder_plan plan;
    decoder_read_dims(r, a, &plan, false, 0, false);
    bool full[GS_LAYERS_MAX];
    const json_t *types = NULL;
    const size_t n = rd_array(r, "attn_type_list", &types);
    const char *model_type = rd_string(r, "model_type");
    if (types != NULL) {
        if (n != plan.layers)
            rd_fail(r, "attn_type_list", GS_ERR_INVALID, "has %zu entries for %llu layers", n,
                    (unsigned long long)plan.layers);
        for (size_t l = 0; l < n && l < GS_LAYERS_MAX && r->ok; l++) {
            const json_t *v = json_array_get(types, l);
            if (!json_is_integer(v) || (json_integer_value(v) != 0 && json_integer_value(v) != 1))
                rd_fail(r, "attn_type_list", GS_ERR_INVALID,
                        "entry %zu must be 1 (softmax attention) or 0 (lightning attention)", l);
            else
                full[l] = json_integer_value(v) == 1;
        }
    } else if (rd_array(r, "layer_types", &types) > 0 || types != NULL ||
               (model_type != NULL && strcmp(model_type, "minimax") == 0)) {
        full_layers(r, plan.layers, 0, full);
        for (uint64_t l = 0; types == NULL && l < plan.layers && l < GS_LAYERS_MAX; l++)
            full[l] = (l + 1) % 2 != 0;
    } else {
        rd_fail(r, "attn_type_list", GS_ERR_INVALID,
                "is required: it says which layers are softmax and which lightning attention");
    }
    decoder_read_experts(r, &plan, true);
    plan.experts.shared_width = rd_dim(r, NAMES("shared_intermediate_size"), false, 0);
    plan.experts.shared_gate = plan.experts.shared_width > 0;
    plan.experts.router_linear_until = GS_ROUTER_TOPK_FROM_5; /* MiniMaxTopKRouter */
    if (!r->ok)
        return;
    if (plan.experts.experts == 0) {
        rd_fail(r, "num_local_experts", GS_ERR_INVALID, "is required: every layer routes");
        return;
    }
    const uint64_t h = a->hidden_size, width = plan.heads * plan.head_dim;
    size_t kinds[2];
    bool made[2] = {false, false};
    gs_arch_set_layers(a, plan.layers, 0);
    for (uint64_t l = 0; l < plan.layers && l < GS_LAYERS_MAX; l++) {
        const int f = full[l];
        if (!made[f]) {
            const size_t b = gs_arch_new_block(a);
            struct gs_block *blk = gs_arch_block(a, b);
            if (blk == NULL) {
                a->overflow = true;
                return;
            }
            if (f) {
                attention(a, b, plan.heads, plan.kv_heads, plan.head_dim, false, true);
            } else {
                blk->mixer = GS_MIXER_RECURRENT;
                blk->rec = (struct gs_recurrent){.state_heads = plan.heads,
                                                 .state_rows = plan.head_dim,
                                                 .state_cols = plan.head_dim,
                                                 .in_width = 4 * width,
                                                 .inner = width,
                                                 .scan = GS_SCAN_PROJECTIONS,
                                                 .ssm_flag_ignored = true};
                gs_block_module(a, b, "qkv_proj", GS_MODULE_LINEAR, GS_SPLIT_COLUMN,
                                GS_PART_ATTENTION, GS_MOD_QUANT, h, 3 * width, 1);
                gs_block_module(a, b, "output_gate", GS_MODULE_LINEAR, GS_SPLIT_COLUMN,
                                GS_PART_ATTENTION, GS_MOD_QUANT, h, width, 1);
                gs_block_module(a, b, "self_attn.norm", GS_MODULE_NORM, GS_SPLIT_COLUMN,
                                GS_PART_ATTENTION, 0, 1, width, 1);
                gs_block_module(a, b, "out_proj", GS_MODULE_LINEAR, GS_SPLIT_ROW, GS_PART_ATTENTION,
                                GS_MOD_QUANT, width, h, 1);
            }
            gs_build_moe(a, b, &plan.experts);
            norm(a, b, "input_layernorm");
            norm(a, b, "post_attention_layernorm");
            kinds[f] = b;
            made[f] = true;
        }
        gs_arch_set_layer(a, l, kinds[f]);
    }
    hybrid_embeddings(a, "embed_tokens");
    norm(a, GS_BLOCKS_MAX, "norm");
}

/* ------------------------------------------------------------ Zamba, Zamba2 */

/* Zamba's and Zamba2's shared transformer block (ZambaAttentionDecoderLayer,
 * Zamba2AttentionDecoderLayer): attention over the concatenation of the hidden state and the
 * original embeddings, `wide` (2h): input_layernorm over it, q/k/v from it without bias, o back to
 * h; pre_ff_layernorm and a gated MLP under hidden_act. */
struct zamba_block {
    uint64_t heads, kv_heads, head_dim, wide, width;
    bool mlp_bias, rope;
    const struct gs_mlp_names *ff;
};

/* One shared block, its weights stored once (gs_arch_share_block_weights); GS_BLOCKS_MAX when
 * the description is full. */
static size_t zamba_shared_block(struct gs_arch *a, const struct zamba_block *z)
{
    const size_t b = gs_arch_new_block(a);
    struct gs_block *blk = gs_arch_block(a, b);
    if (blk == NULL)
        return GS_BLOCKS_MAX;
    attention(a, b, z->heads, z->kv_heads, z->head_dim, false, z->rope);
    for (size_t i = 0; i < blk->module_count; i++)
        if (blk->modules[i].kind == GS_MODULE_LINEAR && blk->modules[i].split != GS_SPLIT_ROW)
            blk->modules[i].in = z->wide; /* q, k and v read the concatenation */
    gs_build_mlp(a, b, z->width, true, z->mlp_bias, z->ff);
    gs_block_module(a, b, "input_layernorm", GS_MODULE_NORM, GS_SPLIT_NONE, GS_PART_NORMS, 0, 1,
                    z->wide, 1);
    norm(a, b, "pre_ff_layernorm");
    gs_arch_share_block_weights(a, b, 1);
    return b;
}

/* The layer map: a hybrid layer is two layers, the shared block (application j the j-th block
 * in turn, as vLLM's zamba2.py cycles them) and the Mamba layer `app` carrying the application's
 * own modules; the others `mamba`. Then the embedding and final_layernorm. */
static void zamba_layer_map(struct gs_arch *a, const bool *hybrid, uint64_t layers,
                            uint64_t applications, size_t mamba, size_t app, const size_t *shared,
                            uint64_t blocks)
{
    gs_arch_set_layers(a, layers + applications, mamba);
    uint64_t at = 0, j = 0;
    for (uint64_t l = 0; l < layers && l < GS_LAYERS_MAX; l++) {
        if (hybrid[l]) {
            gs_arch_set_layer(a, at++, shared[j++ % blocks]);
            gs_arch_set_layer(a, at++, app);
        } else {
            at++;
        }
    }
    hybrid_embeddings(a, "embed_tokens");
    norm(a, GS_BLOCKS_MAX, "final_layernorm");
}

/* layers_block_type ("hybrid", "mamba" or "linear_attention" each) into hybrid[]; false (and
 * the reader failed) when it is not a list of those, of `layers` entries. Absent, `fallback`. */
static uint64_t zamba_read_layers(struct model_reader *r, uint64_t layers, bool *hybrid,
                                  bool (*fallback)(struct model_reader *r, uint64_t l,
                                                   uint64_t layers))
{
    const json_t *list = NULL;
    const size_t n = rd_array(r, "layers_block_type", &list);
    if (list != NULL && n != layers)
        rd_fail(r, "layers_block_type", GS_ERR_INVALID, "has %zu entries for %llu layers", n,
                (unsigned long long)layers);
    uint64_t applications = 0;
    for (uint64_t l = 0; r->ok && l < layers && l < GS_LAYERS_MAX; l++) {
        if (list == NULL) {
            hybrid[l] = fallback(r, l, layers);
        } else {
            const char *t = json_string_value(json_array_get(list, l));
            if (t == NULL || (strcmp(t, "hybrid") != 0 && strcmp(t, "mamba") != 0 &&
                              strcmp(t, "linear_attention") != 0))
                rd_fail(r, "layers_block_type", GS_ERR_INVALID,
                        "entry %llu must be \"hybrid\", \"mamba\" or \"linear_attention\"",
                        (unsigned long long)l);
            else
                hybrid[l] = strcmp(t, "hybrid") == 0;
        }
        applications += hybrid[l];
    }
    return applications;
}

/* Zamba2Config's layers_block_type when a config gives none (configuration_zamba2.py
 * __post_init__): one mamba layer, seven groups of five mamba layers and a hybrid one, four
 * mamba, a hybrid, three mamba, a hybrid, two mamba - 54 layers, 9 of them hybrid. */
static bool zamba2_default_hybrid(struct model_reader *r, uint64_t l, uint64_t layers)
{
    (void)r;
    return layers == 54 && ((l >= 1 && l <= 42 && l % 6 == 0) || l == 47 || l == 51);
}

/* What Zamba's and Zamba2's configs share, read with the class defaults of each (hidden size,
 * layers): the arch started over hidden_size and vocab_size (32,000), tied by default, 4,096
 * positions, attention dropout; num_hidden_layers checked and set. Returns the hidden size. */
static uint64_t zamba_stack(struct model_reader *r, struct gs_arch *a, uint64_t hidden,
                            uint64_t layers)
{
    const uint64_t h = rd_dim(r, NAMES("hidden_size"), false, hidden);
    gs_arch_init(a, NULL, h, rd_dim(r, NAMES("vocab_size"), false, 32000));
    a->tie_word_embeddings = rd_flag(r, "tie_word_embeddings", true);
    a->max_position_embeddings = rd_dim(r, NAMES("max_position_embeddings"), false, 4096);
    a->attention_dropout = rd_dropout(r, NAMES("attention_dropout"));
    a->num_hidden_layers = rd_dim(r, NAMES("num_hidden_layers"), false, layers);
    check_layers(r, "num_hidden_layers", a->num_hidden_layers);
    return h;
}

/* Zamba2ForCausalLM (transformers models/zamba2/modeling_zamba2.py; vLLM zamba2.py; Zyphra's
 * Zamba2-1.2B, -2.7B, -7B). Every layer of layers_block_type holds a Mamba-2 mixer
 * (Zamba2MambaDecoderLayer: input_layernorm, in_proj h -> 2 d_in + 2 G N + heads, conv1d over d_in
 * + 2 G N with a bias whatever use_conv_bias, dt_bias, A_log, D, the gated norm over d_in,
 * out_proj; biases on the projections where add_bias_linear); the hybrid ones first run a shared
 * transformer block (Zamba2AttentionDecoderLayer over the concatenation of the hidden state and
 * the original embeddings, 2h wide: input_layernorm over 2h, q/k/v 2h -> heads x 2h / heads
 * without bias, o back to h, pre_ff_layernorm, a gated MLP gate_up_proj h -> 2 intermediate and
 * down_proj under hidden_act) then their own `linear` h -> h. num_mem_blocks such blocks exist,
 * stored once each and applied in turn (Zamba2Model.__init__ hands the same module to every hybrid
 * layer); each application has its own KV cache (vLLM zamba2.py: "KV cache is unique for every
 * attention layer") and its own adapters: the MLP's gate_up_proj_adapter (h -> adapter_rank ->
 * 2 intermediate) always, q/k/v adapters (2h -> rank -> 2h each) with use_shared_attention_adapter.
 * Here a hybrid layer is two layers - the shared block (gs_arch_share_block_weights: its weights
 * once, its activations and cache per application) and the Mamba layer carrying the
 * application's linear and adapters. Tied by default. Zamba2-1.2B: 38 x 25,849,280 (Mamba) +
 * 65,536,000 (embedding) + 2,048 + 109,058,048 (the shared block) + 6 x (5,505,024 adapters +
 * 4,194,304 linear) = 1,215,064,704, its safetensors total. Training: with use_mem_eff_path
 * (default false) the mixer runs mamba_split_conv1d_scan_combined; otherwise the chunked kernels
 * one by one, whose saved tensors are not counted (GS_SCAN_PROJECTIONS). */
static void read_zamba2(struct model_reader *r, struct gs_arch *a)
{
    const uint64_t h = zamba_stack(r, a, 2560, 54);
    const uint64_t L = a->num_hidden_layers;
    const uint64_t heads = rd_dim(r, NAMES("num_attention_heads"), false, 32);
    const uint64_t kv_heads = rd_dim(r, NAMES("num_key_value_heads"), false, heads);
    const uint64_t width = rd_dim(r, NAMES("intermediate_size", "ffn_hidden_size"), false, 4 * h);
    const uint64_t blocks = rd_dim(r, NAMES("num_mem_blocks"), false, 1);
    const uint64_t rank = rd_dim(r, NAMES("adapter_rank", "lora_rank"), false, 128);
    const bool attn_adapters =
        rd_flag(r, "use_shared_attention_adapter", rd_flag(r, "use_shared_attention_lora", false));
    const bool bias = rd_flag(r, "add_bias_linear", false);
    const uint64_t expand = rd_size(r, NAMES("mamba_expand", "expansion_factor"), 2);
    /* Zyphra's earlier configs (their transformers fork) give mamba_headdim instead, which
     * Zamba2Config derives from n_mamba_heads and does not read */
    const uint64_t headdim = rd_dim(r, NAMES("mamba_headdim"), false, 0);
    const uint64_t mheads = rd_get(r, "n_mamba_heads") == NULL && headdim != 0
                                ? expand * h / headdim
                                : rd_size(r, NAMES("n_mamba_heads"), 8);
    const struct mamba2 m = {
        .inner = expand * h,
        .heads = mheads,
        .head_dim = mheads ? expand * h / mheads : 0,
        .groups = rd_size(r, NAMES("mamba_ngroups"), 1),
        .state = rd_size(r, NAMES("mamba_d_state", "state_size"), 64),
        .kernel = rd_size(r, NAMES("mamba_d_conv", "conv_dimension"), 4),
        .chunk = rd_size(r, NAMES("chunk_size"), 256),
        .in_bias = bias,
        .out_bias = bias,
        .conv_bias = true, /* Zamba2MambaMixer: nn.Conv1d(..., bias=True) */
        .gated_norm = true,
    };
    const bool mem_eff = rd_flag(r, "use_mem_eff_path", false);
    const bool mem_rope = rd_flag(r, "use_mem_rope", false);
    if (r->ok && (heads == 0 || (2 * h) % heads != 0))
        rd_fail(r, "num_attention_heads", GS_ERR_INVALID,
                "must divide the shared block's width, 2 x hidden_size (%llu)",
                (unsigned long long)(2 * h));
    if (r->ok && (mheads == 0 || (expand * h) % mheads != 0))
        rd_fail(r, "n_mamba_heads", GS_ERR_INVALID, "must divide mamba_expand x hidden_size (%llu)",
                (unsigned long long)(expand * h));
    if (r->ok && (blocks == 0 || blocks > 8))
        rd_fail(r, "num_mem_blocks", GS_ERR_RANGE, "must be 1 to 8");
    bool hybrid[GS_LAYERS_MAX];
    memset(hybrid, 0, sizeof(hybrid));
    const uint64_t applications = zamba_read_layers(r, L, hybrid, zamba2_default_hybrid);
    check_layers(r, "layers_block_type", L + applications);
    if (!r->ok)
        return;
    const uint64_t wide = 2 * h, head_dim = wide / heads;
    /* the Mamba layers, and those of the hybrid layers with each application's own modules */
    size_t mamba[2];
    for (int k = 0; k < 2; k++) {
        mamba[k] = gs_arch_new_block(a);
        struct gs_block *blk = gs_arch_block(a, mamba[k]);
        if (blk == NULL)
            return;
        build_mamba2(a, mamba[k], &m);
        blk->mixer = GS_MIXER_RECURRENT;
        blk->rec.scan = mem_eff ? GS_SCAN_MAMBA2_COMBINED : GS_SCAN_PROJECTIONS;
        norm(a, mamba[k], "input_layernorm");
    }
    const size_t app = mamba[1];
    gs_block_module(a, app, "linear", GS_MODULE_LINEAR, GS_SPLIT_NONE, GS_PART_ATTENTION, 0, h, h,
                    1);
    gs_block_module(a, app, "feed_forward.gate_up_proj_adapter.0", GS_MODULE_LINEAR, GS_SPLIT_NONE,
                    GS_PART_MLP, 0, h, rank, 1);
    gs_block_module(a, app, "feed_forward.gate_up_proj_adapter.1", GS_MODULE_LINEAR, GS_SPLIT_NONE,
                    GS_PART_MLP, 0, rank, 2 * width, 1);
    if (attn_adapters) {
        static const char *const names[] = {
            "self_attn.linear_q_adapter.0", "self_attn.linear_q_adapter.1",
            "self_attn.linear_k_adapter.0", "self_attn.linear_k_adapter.1",
            "self_attn.linear_v_adapter.0", "self_attn.linear_v_adapter.1"};
        for (size_t i = 0; i < 6; i += 2) {
            gs_block_module(a, app, names[i], GS_MODULE_LINEAR, GS_SPLIT_NONE, GS_PART_ATTENTION, 0,
                            wide, rank, 1);
            gs_block_module(a, app, names[i + 1], GS_MODULE_LINEAR, GS_SPLIT_NONE,
                            GS_PART_ATTENTION, 0, rank, wide, 1);
        }
    }
    /* the shared transformer blocks, each stored once; vLLM builds Attention(num_heads,
     * head_dim) without num_kv_heads: the published configs are multi-head */
    static const struct gs_mlp_names ff = {NULL, NULL, "feed_forward.down_proj",
                                           "feed_forward.gate_up_proj"};
    const struct zamba_block z = {heads, kv_heads, head_dim, wide, width, bias, mem_rope, &ff};
    size_t shared[8];
    for (uint64_t k = 0; k < blocks; k++)
        if ((shared[k] = zamba_shared_block(a, &z)) >= GS_BLOCKS_MAX)
            return;
    zamba_layer_map(a, hybrid, L, applications, mamba[0], app, shared, blocks);
}

/* ZambaConfig's layers_block_type when a config gives none (configuration_zamba.py
 * __post_init__): layer 2 hybrid, then layer 3 + i where i % attn_layer_period ==
 * attn_layer_offset (6 and 4: 2, 7, 13, ..., 73 of 76). */
static bool zamba_default_hybrid(struct model_reader *r, uint64_t l, uint64_t layers)
{
    (void)layers;
    const uint64_t period = rd_dim(r, NAMES("attn_layer_period"), false, 6);
    const uint64_t offset = rd_dim(r, NAMES("attn_layer_offset"), false, 4);
    return l == 2 || (l >= 3 && period != 0 && (l - 3) % period == offset);
}

/* ZambaForCausalLM (transformers models/zamba/modeling_zamba.py; Zyphra/Zamba-7B-v1; vLLM has no
 * Zamba v1): every layer a Mamba (v1) mixer (ZambaMambaMixer: in_proj h -> 2 d_in, conv1d with a
 * bias by mamba_conv_bias, x_proj and dt_proj as n_mamba_heads per-head parameters - the
 * elements of Mamba's x_proj d_in -> dt_rank + 2 N and dt_proj dt_rank -> d_in with its bias -,
 * A_log, D, out_proj; projection biases by mamba_proj_bias), and at the hybrid layers first one
 * shared transformer block (ZambaAttentionDecoderLayer over the 2h-wide concatenation:
 * attention_hidden_size wide, heads of attention_head_dim, no rotary embedding; a gated MLP
 * gate_proj/up_proj/down_proj under hidden_act), stored once (the hybrid layers' shared_transf are
 * tied to the first's), then the layer's own `linear` h -> h. Tied by default. Its class defaults
 * are Zamba-7B-v1's shapes: 76 x 86,530,432 + 358,263,680 (the block) + 13 x 13,778,944 +
 * 118,784,000 + 3,712 = 7,232,490,496 (no exact published total was found; "7B"). The mixer's
 * scan is counted by its projections (GS_SCAN_PROJECTIONS). */
static void read_zamba(struct model_reader *r, struct gs_arch *a)
{
    const uint64_t h = zamba_stack(r, a, 3712, 76);
    const uint64_t L = a->num_hidden_layers;
    const uint64_t heads = rd_dim(r, NAMES("num_attention_heads"), false, 16);
    const uint64_t kv_heads = rd_dim(r, NAMES("num_key_value_heads"), false, 16);
    const uint64_t wide = rd_dim(r, NAMES("attention_hidden_size"), false, 2 * h);
    const uint64_t head_dim =
        rd_dim(r, NAMES("attention_head_dim", "head_dim"), false, heads ? 2 * h / heads : 0);
    const uint64_t width = rd_dim(r, NAMES("intermediate_size"), false, 14848);
    const uint64_t mheads = rd_size(r, NAMES("n_mamba_heads"), 2);
    const struct mamba1 m = {
        .inner = rd_size(r, NAMES("mamba_expand"), 2) * h,
        .state = rd_size(r, NAMES("mamba_d_state"), 16),
        .kernel = rd_size(r, NAMES("mamba_d_conv"), 4),
        .dt_rank = auto_dim(r, "mamba_dt_rank", ceil_div(h, 16)),
        .proj_bias = rd_flag(r, "mamba_proj_bias", false),
        .conv_bias = rd_flag(r, "mamba_conv_bias", true),
    };
    if (r->ok && (mheads == 0 || m.inner % mheads != 0))
        rd_fail(r, "n_mamba_heads", GS_ERR_INVALID, "must divide mamba_expand x hidden_size (%llu)",
                (unsigned long long)m.inner);
    if (r->ok && (heads == 0 || head_dim == 0))
        rd_fail(r, "num_attention_heads", GS_ERR_INVALID, "must be positive");
    bool hybrid[GS_LAYERS_MAX];
    memset(hybrid, 0, sizeof(hybrid));
    const uint64_t applications = zamba_read_layers(r, L, hybrid, zamba_default_hybrid);
    check_layers(r, "layers_block_type", L + applications);
    if (!r->ok)
        return;
    size_t mamba[2];
    for (int k = 0; k < 2; k++) {
        mamba[k] = gs_arch_new_block(a);
        struct gs_block *blk = gs_arch_block(a, mamba[k]);
        if (blk == NULL)
            return;
        build_mamba1(a, mamba[k], &m);
        blk->rec.scan = GS_SCAN_PROJECTIONS;
        norm(a, mamba[k], "input_layernorm");
    }
    gs_block_module(a, mamba[1], "linear", GS_MODULE_LINEAR, GS_SPLIT_NONE, GS_PART_ATTENTION, 0, h,
                    h, 1);
    static const struct gs_mlp_names ff = {"feed_forward.gate_proj", "feed_forward.up_proj",
                                           "feed_forward.down_proj", NULL};
    const struct zamba_block z = {heads, kv_heads, head_dim, wide, width, false, false, &ff};
    const size_t shared = zamba_shared_block(a, &z);
    if (shared >= GS_BLOCKS_MAX)
        return;
    zamba_layer_map(a, hybrid, L, applications, mamba[0], mamba[1], &shared, 1);
}

const struct model_type MODELS_HYBRID[] = {
    {"mamba", "MambaForCausalLM", read_mamba},
    /* FalconMambaForCausalLM (models/falcon_mamba/modeling_falcon_mamba.py;
     * tiiuae/falcon-mamba-7b): MambaMixer's tensors and block - its dt, B and C RMSNorms
     * (mixer_rms_eps) hold no weight, and training runs mamba_inner_fn with them;
     * FalconMambaConfig's defaults are Mamba's */
    {"falcon_mamba", "FalconMambaForCausalLM", read_mamba},
    {"mamba2", "Mamba2ForCausalLM", read_mamba2},
    {"jamba", "JambaForCausalLM", read_jamba},
    {"nemotron_h", "NemotronHForCausalLM", read_nemotron_h},
    {"falcon_h1", "FalconH1ForCausalLM", read_falcon_h1},
    {"granitemoehybrid", "GraniteMoeHybridForCausalLM", read_granitemoehybrid},
    {"qwen3_next", "Qwen3NextForCausalLM", read_qwen3_next},
    {"olmo_hybrid", "OlmoHybridForCausalLM", read_olmo_hybrid},
    {"lfm2", "Lfm2ForCausalLM", read_lfm2},
    {"lfm2_moe", "Lfm2MoeForCausalLM", read_lfm2_moe},
    {"bamba", "BambaForCausalLM", read_bamba},
    {"minimax", "MiniMaxForCausalLM", read_minimax},
    {"minimax_text_01", "MiniMaxText01ForCausalLM", read_minimax},
    {"minimax_m1", "MiniMaxM1ForCausalLM", read_minimax},
    {"zamba", "ZambaForCausalLM", read_zamba},
    {"zamba2", "Zamba2ForCausalLM", read_zamba2},
    {NULL, NULL, NULL},
};
