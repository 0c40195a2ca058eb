/*
 * inkling.c - Thinking Machines' Inkling (see reader.h): a 66-layer MoE whose
 * every layer is softmax attention beside four causal short convolutions, with
 * a learned relative-position bias in place of rotary embeddings, a patch-MLP
 * vision encoder and a dMel audio embedding.
 *
 * Shapes follow transformers' models/inkling/modeling_inkling.py (5.16:
 * InklingTextModel, InklingDecoderLayer, InklingAttention, InklingMoE,
 * InklingVisionModel, InklingAudioModel) with configuration_inkling.py's
 * defaults, which are the published model's ("66 layers, 6 of 256 experts + 2
 * shared, 975B total, 41B active", docs/source/en/model_doc/inkling.md).
 *
 * A layer (layer_types "hybrid" or "hybrid_sliding"): input_layernorm, the
 * attention, attn_sconv; post_attention_layernorm, the MLP, mlp_sconv.
 * InklingAttention: q_proj, k_proj and v_proj (k and v each through a short
 * convolution, k_sconv and v_sconv), r_proj (h -> heads x d_rel, the
 * relative-position states), o_proj, q_norm and k_norm over head_dim, and
 * rel_logits_proj's bank of bias profiles (d_rel x extent: sliding_window_size
 * on the sliding layers, rel_extent on the full ones). The sliding layers have
 * their own geometry (swa_num_attention_heads, swa_num_key_value_heads,
 * swa_head_dim) and attend within sliding_window_size tokens. Every short
 * convolution is a depthwise Conv1d of conv_kernel_size without bias, kept in
 * fp32 (_keep_in_fp32_modules_strict) and run over an fp32 copy of its input.
 * InklingMoE: the router InklingTopkRouter (a bare weight of n_routed_experts +
 * n_shared_experts rows - the shared experts take part in the softmax -,
 * global_scale, and e_score_correction_bias, a parameter here), the fused
 * experts, and n_shared_experts always-on experts of moe_intermediate_size
 * (InklingSharedExperts, bmm over 3D parameters: one gated MLP of their summed
 * width). mlp_layer_types "dense" layers are InklingMLP of intermediate_size.
 *
 * What a sequence keeps when served: each layer's K and V (8 KV heads on the
 * full layers, 16 within the window on the sliding ones) and its four
 * convolutions' windows, (2 x KV width + 2 x hidden) channels x (kernel - 1)
 * (SGLang's InklingModelConfig.mamba2_cache_params holds them so, a mamba-style
 * state per request; vLLM packs them into pages of the attention's size).
 * The embedding's norm (embed_norm) and the final one; the head untied
 * (_tied_weights_keys empty), read after the hidden state's division by
 * logits_mup_width_multiplier. MTP layers are not built by transformers
 * (model.mtp.* skipped at load) and not described.
 */
#include "readers/reader.h"

#include <math.h>
#include <string.h>

/* What InklingTextConfig says about the stack. */
struct inkling_text {
    uint64_t hidden, layers, kernel, d_rel, window, rel_extent;
    uint64_t heads[2], kv_heads[2], head_dim[2]; /* [0] full, [1] sliding */
    uint64_t intermediate, experts, top_k, expert_width, shared;
    bool sliding[GS_LAYERS_MAX];
    bool sparse[GS_LAYERS_MAX];
};

/* InklingTextConfig.__post_init__: layer_types, else local_layer_ids (the sliding layers),
 * else every layer but each sixth ((i + 1) % 6 != 0); mlp_layer_types, else the first
 * dense_mlp_idx layers dense (0 by default), the rest sparse. */
static void read_layer_kinds(struct model_reader *r, struct inkling_text *t)
{
    if (!rd_kind_list(r, "layer_types", "hybrid_sliding", "hybrid", t->layers, t->sliding) &&
        r->ok) {
        const json_t *ids = NULL;
        const size_t n = rd_array(r, "local_layer_ids", &ids);
        for (uint64_t l = 0; l < t->layers; l++)
            t->sliding[l] = ids == NULL && (l + 1) % 6 != 0;
        for (size_t i = 0; ids != NULL && i < n; i++) {
            const json_t *id = json_array_get(ids, i);
            if (!json_is_integer(id) || json_integer_value(id) < 0 ||
                (uint64_t)json_integer_value(id) >= t->layers) {
                rd_fail(r, "local_layer_ids", GS_ERR_INVALID,
                        "entry %zu must be a layer index below %llu", i,
                        (unsigned long long)t->layers);
                return;
            }
            t->sliding[json_integer_value(id)] = true;
        }
    }
    if (!r->ok)
        return;
    if (!rd_kind_list(r, "mlp_layer_types", "sparse", "dense", t->layers, t->sparse) && r->ok) {
        const uint64_t dense = rd_dim(r, NAMES("dense_mlp_idx"), false, 0);
        for (uint64_t l = 0; l < t->layers; l++)
            t->sparse[l] = l >= dense;
    }
}

/* Reads the text config with InklingTextConfig's defaults. */
static void read_text_dims(struct model_reader *r, struct inkling_text *t)
{
    memset(t, 0, sizeof(*t));
    t->hidden = rd_dim(r, NAMES("hidden_size"), false, 6144);
    t->layers = rd_dim(r, NAMES("num_hidden_layers"), false, 66);
    t->heads[0] = rd_dim(r, NAMES("num_attention_heads"), false, 64);
    t->kv_heads[0] = rd_dim(r, NAMES("num_key_value_heads"), false, 8);
    t->head_dim[0] = rd_dim(r, NAMES("head_dim"), false, 128);
    t->heads[1] = rd_dim(r, NAMES("swa_num_attention_heads"), false, 64);
    t->kv_heads[1] = rd_dim(r, NAMES("swa_num_key_value_heads"), false, 16);
    t->head_dim[1] = rd_dim(r, NAMES("swa_head_dim"), false, 128);
    t->window = rd_dim(r, NAMES("sliding_window_size", "sliding_window"), false, 512);
    t->d_rel = rd_dim(r, NAMES("d_rel"), false, 16);
    t->rel_extent = rd_dim(r, NAMES("rel_extent"), false, 1024);
    t->kernel = rd_dim(r, NAMES("conv_kernel_size", "sconv_kernel_size"), false, 4);
    /* dense_intermediate_size, a constructor argument, overrides intermediate_size */
    t->intermediate =
        rd_dim(r, NAMES("dense_intermediate_size", "intermediate_size"), false, 24576);
    t->expert_width = rd_dim(r, NAMES("moe_intermediate_size"), false, 3072);
    t->experts = rd_dim(r, NAMES("n_routed_experts", "num_local_experts"), false, 256);
    t->top_k = rd_dim(r, NAMES("num_experts_per_tok"), false, 6);
    t->shared = rd_dim(r, NAMES("n_shared_experts"), false, 2);
    if (!r->ok)
        return;
    if (t->layers > GS_LAYERS_MAX) {
        rd_fail(r, "num_hidden_layers", GS_ERR_UNSUPPORTED,
                "%llu layers: gpusizer describes at most %d", (unsigned long long)t->layers,
                GS_LAYERS_MAX);
        return;
    }
    for (int k = 0; k < 2; k++)
        if (t->kv_heads[k] == 0 || t->heads[k] % t->kv_heads[k] != 0) {
            rd_fail(r, k ? "swa_num_key_value_heads" : "num_key_value_heads", GS_ERR_INVALID,
                    "must divide the attention heads (%llu)", (unsigned long long)t->heads[k]);
            return;
        }
    if (t->top_k > t->experts) {
        rd_fail(r, "num_experts_per_tok", GS_ERR_INVALID, "%llu of %llu experts",
                (unsigned long long)t->top_k, (unsigned long long)t->experts);
        return;
    }
    read_layer_kinds(r, t);
}

static void conv(struct gs_arch *a, size_t b, const char *name, uint64_t channels, uint64_t kernel,
                 enum gs_part part)
{
    gs_block_module(a, b, name, GS_MODULE_TENSOR, GS_SPLIT_COLUMN, part, 0, channels, kernel, 1);
}

/* One kind of InklingDecoderLayer: sliding or full, sparse or dense. */
static size_t inkling_block(struct gs_arch *a, const struct inkling_text *t, bool sliding,
                            bool sparse)
{
    const size_t b = gs_arch_new_block(a);
    struct gs_block *blk = gs_arch_block(a, b);
    if (blk == NULL)
        return GS_BLOCKS_MAX;
    const int k = sliding ? 1 : 0;
    const uint64_t h = t->hidden, kv = t->kv_heads[k] * t->head_dim[k];
    struct gs_attention s;
    memset(&s, 0, sizeof(s));
    s.heads = t->heads[k];
    s.kv_heads = t->kv_heads[k];
    s.head_dim = t->head_dim[k];
    s.cached = true;
    s.nope = true; /* positions through the relative bias only */
    s.position_bias = true;
    if (sliding) {
        s.span = GS_SPAN_SLIDING;
        s.window = t->window;
    }
    gs_build_attention(a, b, &s, &GS_ATTENTION_NAMES, false, false);
    gs_block_module(a, b, "r_proj", GS_MODULE_LINEAR, GS_SPLIT_COLUMN, GS_PART_ATTENTION,
                    GS_MOD_QUANT, h, s.heads * t->d_rel, 1);
    gs_block_module(a, b, "q_norm", GS_MODULE_NORM, GS_SPLIT_NONE, GS_PART_ATTENTION, 0, 1,
                    s.head_dim, 1);
    gs_block_module(a, b, "k_norm", GS_MODULE_NORM, GS_SPLIT_NONE, GS_PART_ATTENTION, 0, 1,
                    s.head_dim, 1);
    gs_block_module(a, b, "rel_logits_proj.proj", GS_MODULE_TENSOR, GS_SPLIT_NONE,
                    GS_PART_ATTENTION, 0, t->d_rel, sliding ? t->window : t->rel_extent, 1);
    conv(a, b, "k_sconv.conv1d", kv, t->kernel, GS_PART_ATTENTION);
    conv(a, b, "v_sconv.conv1d", kv, t->kernel, GS_PART_ATTENTION);
    conv(a, b, "attn_sconv.conv1d", h, t->kernel, GS_PART_OTHER);
    conv(a, b, "mlp_sconv.conv1d", h, t->kernel, GS_PART_OTHER);
    /* the four convolutions' windows, a fixed state a sequence */
    blk = gs_arch_block(a, b);
    blk->rec.conv_channels = 2 * kv + 2 * h;
    blk->rec.conv_kernel = t->kernel;
    blk->rec.conv_fp32 = true;
    if (sparse) {
        blk->mlp.kind = GS_MLP_MOE;
        blk->mlp.gated = true;
        blk->mlp.width = t->expert_width;
        blk->mlp.experts = t->experts;
        blk->mlp.top_k = t->top_k;
        blk->mlp.shared_width = t->shared * t->expert_width;
        blk->mlp.router_parameter = true; /* self.weight, F.linear at the activations' dtype */
        blk->mlp.experts_fused = true;
        gs_block_module(a, b, "mlp.gate", GS_MODULE_LINEAR, GS_SPLIT_NONE, GS_PART_EXPERTS, 0, h,
                        t->experts + t->shared, 1);
        gs_block_module(a, b, "mlp.gate.global_scale", GS_MODULE_TENSOR, GS_SPLIT_NONE,
                        GS_PART_EXPERTS, 0, 1, 1, 1);
        gs_block_module(a, b, "mlp.gate.e_score_correction_bias", GS_MODULE_TENSOR, GS_SPLIT_NONE,
                        GS_PART_EXPERTS, 0, 1, t->experts, 1);
        const unsigned f = GS_MOD_QUANT | GS_MOD_EXPERT;
        gs_block_module(a, b, "mlp.experts.gate_up_proj", GS_MODULE_LINEAR, GS_SPLIT_COLUMN,
                        GS_PART_EXPERTS, f, h, 2 * t->expert_width, t->experts);
        gs_block_module(a, b, "mlp.experts.down_proj", GS_MODULE_LINEAR, GS_SPLIT_ROW,
                        GS_PART_EXPERTS, f, t->expert_width, h, t->experts);
        const uint64_t w = t->shared * t->expert_width;
        gs_block_module(a, b, "mlp.shared_experts.gate_proj", GS_MODULE_LINEAR, GS_SPLIT_COLUMN,
                        GS_PART_MLP, GS_MOD_QUANT, h, w, 1);
        gs_block_module(a, b, "mlp.shared_experts.up_proj", GS_MODULE_LINEAR, GS_SPLIT_COLUMN,
                        GS_PART_MLP, GS_MOD_QUANT, h, w, 1);
        gs_block_module(a, b, "mlp.shared_experts.down_proj", GS_MODULE_LINEAR, GS_SPLIT_ROW,
                        GS_PART_MLP, GS_MOD_QUANT, w, h, 1);
    } else {
        gs_build_mlp(a, b, t->intermediate, true, false, &GS_MLP_NAMES);
        gs_block_module(a, b, "mlp.global_scale", GS_MODULE_TENSOR, GS_SPLIT_NONE, GS_PART_MLP, 0,
                        1, 1, 1);
    }
    gs_build_norms(a, b, "input_layernorm", 1, false);
    gs_build_norms(a, b, "post_attention_layernorm", 1, false);
    return b;
}

/* InklingTextModel and the untied head: one block per kind of layer. */
static void read_text(struct model_reader *r, struct gs_arch *a)
{
    struct inkling_text t;
    read_text_dims(r, &t);
    if (!r->ok)
        return;
    gs_arch_init(a, NULL, t.hidden, rd_dim(r, NAMES("vocab_size"), false, 201024));
    /* no rotary embedding to bound it; the class's default */
    a->max_position_embeddings =
        rd_dim(r, NAMES("max_position_embeddings", "model_max_length"), false, 131072);
    a->tie_word_embeddings = false;
    a->attention_dropout = rd_dropout(r, NAMES("attention_dropout"));
    size_t kind[2][2] = {{GS_BLOCKS_MAX, GS_BLOCKS_MAX}, {GS_BLOCKS_MAX, GS_BLOCKS_MAX}};
    gs_arch_set_layers(a, t.layers, 0);
    for (uint64_t l = 0; l < t.layers; l++) {
        size_t *b = &kind[t.sliding[l]][t.sparse[l]];
        if (*b == GS_BLOCKS_MAX)
            *b = inkling_block(a, &t, t.sliding[l], t.sparse[l]);
        if (*b >= GS_BLOCKS_MAX)
            return;
        gs_arch_set_layer(a, l, *b);
    }
    gs_arch_embeddings(a, t.hidden, "lm_head", false);
    gs_build_norms(a, GS_BLOCKS_MAX, "embed_norm", 1, false);
    gs_build_norms(a, GS_BLOCKS_MAX, "norm", 1, false);
}

/* ----------------------------------------------------------------- vision */

/* A (t, h, w, channels) grid of plan_out_scales. */
struct scale {
    uint64_t t, h, c;
};

#define SCALES_MAX 32

/* prime_factors(n) largest first, their running products: [5, 10, 20, 40] for 40. */
static size_t cumulative_factors(uint64_t n, uint64_t out[SCALES_MAX])
{
    uint64_t f[SCALES_MAX];
    size_t k = 0;
    for (uint64_t p = 2; n > 1 && k < SCALES_MAX; p += p == 2 ? 1 : 2) {
        if (p * p > n) {
            f[k++] = n;
            break;
        }
        while (n % p == 0 && k < SCALES_MAX) {
            f[k++] = p;
            n /= p;
        }
    }
    uint64_t product = 1;
    for (size_t i = 0; i < k; i++)
        out[i] = product *= f[k - 1 - i];
    return k;
}

#define ASSIGN_COLS_MAX 12

/* The assignment of `rows` rows to distinct columns of `cols` (rows <= cols <=
 * ASSIGN_COLS_MAX) with the least total cost, scipy's linear_sum_assignment, by dynamic
 * programming over the sets of columns taken: best[set] is the least cost of giving the first
 * popcount(set) rows the columns of `set`. */
static void best_assignment(const double cost[SCALES_MAX][SCALES_MAX], size_t rows, size_t cols,
                            size_t pick[SCALES_MAX])
{
    double best[1u << ASSIGN_COLS_MAX];
    uint8_t last[1u << ASSIGN_COLS_MAX];
    const unsigned sets = 1u << cols;
    for (unsigned set = 0; set < sets; set++)
        best[set] = HUGE_VAL;
    best[0] = 0.0;
    for (unsigned set = 0; set < sets; set++) {
        const size_t row = (size_t)__builtin_popcount(set);
        if (best[set] == HUGE_VAL || row >= rows)
            continue;
        for (size_t c = 0; c < cols; c++) {
            const unsigned next = set | (1u << c);
            if (next == set || best[set] + cost[row][c] >= best[next])
                continue;
            best[next] = best[set] + cost[row][c];
            last[next] = (uint8_t)c;
        }
    }
    unsigned end = 0;
    for (unsigned set = 0; set < sets; set++)
        if ((size_t)__builtin_popcount(set) == rows && (end == 0 || best[set] < best[end]))
            end = set;
    for (size_t row = rows; row-- > 0;) {
        pick[row] = last[end];
        end &= ~(1u << last[end]);
    }
}

/* plan_out_scales (modeling_inkling.py): the scales a patch passes through, base (1, 1, 1,
 * channels), then the spatial grids (h and its channels rounded up to 64), then the temporal
 * ones; each of the n_layers + 1 points of a log-linear ramp from 1 to the patch's values takes
 * the scale nearest in log size (argmin where the layers are as many as the scales; else the
 * least-cost distinct assignment), the first and the last fixed. The temporal channels follow
 * SGLang's hmlp.py and vLLM's towers.py (ceil(x / 64) x 64); transformers' line drops the / 64,
 * which no layer reads with fewer layers than scales (the published encoder's four). */
static size_t plan_scales(uint64_t temporal, uint64_t patch, uint64_t layers, uint64_t channels,
                          struct scale out[SCALES_MAX])
{
    uint64_t h[SCALES_MAX], t[SCALES_MAX];
    const size_t nh = cumulative_factors(patch, h), nt = cumulative_factors(temporal, t);
    struct scale scales[SCALES_MAX];
    size_t n = 0;
    scales[n++] = (struct scale){1, 1, channels};
    for (size_t i = 0; i < nh && n < SCALES_MAX; i++)
        scales[n++] = (struct scale){1, h[i], (h[i] * h[i] * channels + 63) / 64 * 64};
    const uint64_t side = nh ? h[nh - 1] : 1;
    for (size_t i = 0; i < nt && n < SCALES_MAX; i++)
        scales[n++] = (struct scale){t[i], side, (side * side * channels * t[i] + 63) / 64 * 64};
    const size_t points = (size_t)layers + 1;
    if (points > SCALES_MAX)
        return 0;
    double cost[SCALES_MAX][SCALES_MAX];
    const double total = log((double)patch * (double)patch * (double)temporal * (double)channels);
    for (size_t p = 0; p < points; p++)
        for (size_t s = 0; s < n; s++) {
            const double ideal = total * (double)p / (double)layers;
            const double size = log((double)(scales[s].t * scales[s].h * scales[s].h));
            cost[p][s] = fabs(ideal - size);
        }
    size_t pick[SCALES_MAX] = {0};
    if (layers >= n) {
        for (size_t p = 0; p < points; p++)
            for (size_t s = 1; s < n; s++)
                if (cost[p][s] < cost[p][pick[p]])
                    pick[p] = s;
    } else if (n <= ASSIGN_COLS_MAX) {
        best_assignment(cost, points, n, pick);
    } else {
        return 0;
    }
    pick[0] = 0;
    pick[points - 1] = n - 1;
    for (size_t p = 0; p < points; p++)
        out[p] = scales[pick[p]];
    return points;
}

/* The encoder layers' module names (static storage, as module names are). */
#define LAYER_NAMES(part)                                                                          \
    {                                                                                              \
        "vision_tower.encoder_layers.0." part, "vision_tower.encoder_layers.1." part,              \
            "vision_tower.encoder_layers.2." part, "vision_tower.encoder_layers.3." part,          \
            "vision_tower.encoder_layers.4." part, "vision_tower.encoder_layers.5." part,          \
            "vision_tower.encoder_layers.6." part, "vision_tower.encoder_layers.7." part,          \
            "vision_tower.encoder_layers.8." part, "vision_tower.encoder_layers.9." part,          \
            "vision_tower.encoder_layers.10." part, "vision_tower.encoder_layers.11." part,        \
            "vision_tower.encoder_layers.12." part, "vision_tower.encoder_layers.13." part,        \
            "vision_tower.encoder_layers.14." part, "vision_tower.encoder_layers.15." part,        \
            "vision_tower.encoder_layers.16." part, "vision_tower.encoder_layers.17." part,        \
            "vision_tower.encoder_layers.18." part, "vision_tower.encoder_layers.19." part,        \
            "vision_tower.encoder_layers.20." part, "vision_tower.encoder_layers.21." part,        \
            "vision_tower.encoder_layers.22." part, "vision_tower.encoder_layers.23." part,        \
            "vision_tower.encoder_layers.24." part, "vision_tower.encoder_layers.25." part,        \
            "vision_tower.encoder_layers.26." part, "vision_tower.encoder_layers.27." part,        \
            "vision_tower.encoder_layers.28." part, "vision_tower.encoder_layers.29." part,        \
            "vision_tower.encoder_layers.30." part                                                 \
    }
static const char *const VISION_PROJECTIONS[SCALES_MAX - 1] = LAYER_NAMES("projection");
static const char *const VISION_NORMS[SCALES_MAX - 1] = LAYER_NAMES("layer_norm");
#undef LAYER_NAMES

/* InklingVisionModel: a hierarchical patch MLP, no attention. Each of its n_layers layers folds
 * the grid to the next scale (space and time to depth) and projects without bias to that
 * scale's channels, an RMSNorm and GELU after all but the last, which projects to the text's
 * hidden width; final_norm after. Each temporal_patch_size x patch_size^2 patch of num_channels
 * is one token. */
static void read_vision(struct model_reader *v, struct gs_arch *a)
{
    const uint64_t layers = rd_dim(v, NAMES("n_layers", "num_hidden_layers"), false, 24);
    const uint64_t patch = rd_dim(v, NAMES("patch_size"), false, 40);
    const uint64_t temporal = rd_dim(v, NAMES("temporal_patch_size"), false, 2);
    const uint64_t channels = rd_dim(v, NAMES("num_channels"), false, 3);
    if (!v->ok)
        return;
    struct scale s[SCALES_MAX];
    const size_t points =
        layers < SCALES_MAX ? plan_scales(temporal, patch, layers, channels, s) : 0;
    if (points == 0) {
        rd_fail(v, "n_layers", GS_ERR_UNSUPPORTED,
                "%llu layers over patches of %llu: gpusizer plans the patch encoder's scales "
                "for at most %d layers and patch sizes of at most %d prime factors",
                (unsigned long long)layers, (unsigned long long)patch, SCALES_MAX - 1,
                ASSIGN_COLS_MAX - 2);
        return;
    }
    /* consecutive layers of one shape (a scale repeated: the ramp's points nearest the same
     * grid) are one module counted that many times, named by the first */
    for (size_t i = 0; i + 1 < points;) {
        const struct scale *from = &s[i], *to = &s[i + 1];
        const uint64_t fold = (to->t / from->t) * (to->h / from->h) * (to->h / from->h);
        const bool last = i + 2 == points;
        const uint64_t in = from->c * fold, out = last ? a->hidden_size : to->c;
        size_t run = 1;
        while (!last && i + run + 2 < points && s[i + run].t == from->t &&
               s[i + run].h == from->h && s[i + run + 1].t == to->t && s[i + run + 1].h == to->h &&
               s[i + run].c == from->c && s[i + run + 1].c == to->c)
            run++;
        gs_arch_module(a, VISION_PROJECTIONS[i], GS_MODULE_LINEAR, GS_SPLIT_NONE, GS_PART_VISION, 0,
                       in, out, run);
        if (!last)
            gs_arch_module(a, VISION_NORMS[i], GS_MODULE_NORM, GS_SPLIT_NONE, GS_PART_VISION, 0, 1,
                           out, run);
        i += run;
    }
    gs_arch_module(a, "vision_tower.final_norm", GS_MODULE_NORM, GS_SPLIT_NONE, GS_PART_VISION, 0,
                   1, a->hidden_size, 1);
}

/* InklingAudioModel: a dMel embedding (n_mel_bins x mel_vocab_size rows, one a bin's level,
 * summed over a frame's bins into its token) and an RMSNorm. */
static void read_audio(struct model_reader *v, struct gs_arch *a)
{
    const uint64_t bins = rd_dim(v, NAMES("n_mel_bins", "num_codebooks"), false, 80);
    const uint64_t levels = rd_dim(v, NAMES("mel_vocab_size", "codebook_size"), false, 256);
    if (!v->ok)
        return;
    gs_arch_module(a, "audio_tower.embed_audio_tokens.embed_audio_tokens", GS_MODULE_TENSOR,
                   GS_SPLIT_NONE, GS_PART_AUDIO, 0, bins * levels, a->hidden_size, 1);
    gs_arch_module(a, "audio_tower.norm", GS_MODULE_NORM, GS_SPLIT_NONE, GS_PART_AUDIO, 0, 1,
                   a->hidden_size, 1);
}

/* Reads a nested config through `read` (its class defaults when absent). */
static void read_sub(struct model_reader *r, struct gs_arch *a, const char *name,
                     void (*read)(struct model_reader *, struct gs_arch *))
{
    struct model_reader sub;
    json_t *empty = NULL;
    const bool has = rd_sub(r, name, &sub);
    if (!r->ok)
        return;
    if (!has) {
        empty = json_object();
        if (empty == NULL) {
            rd_fail(r, name, GS_ERR_NOMEM, "out of memory reading the nested config");
            return;
        }
        sub = *r;
        sub.config = empty;
    }
    read(&sub, a);
    json_decref(empty);
    if (!sub.ok)
        r->ok = false;
}

/* InklingForConditionalGeneration (inkling_mm_model): InklingModel builds the language model
 * and both towers, each config taking its class's defaults when absent. */
static void read_inkling(struct model_reader *r, struct gs_arch *a)
{
    read_sub(r, a, "text_config", read_text);
    if (r->ok)
        read_sub(r, a, "vision_config", read_vision);
    if (r->ok)
        read_sub(r, a, "audio_config", read_audio);
}

/* InklingForCausalLM (inkling_text): the language model alone. */
static void read_inkling_text(struct model_reader *r, struct gs_arch *a)
{
    read_text(r, a);
}

const struct model_type MODELS_INKLING[] = {
    {"inkling_mm_model", "InklingForConditionalGeneration", read_inkling},
    {"inkling_text", "InklingForCausalLM", read_inkling_text},
    {NULL, NULL, NULL},
};
