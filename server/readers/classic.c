/*
 * classic.c - models built before the Llama layout settled, and encoders:
 * GPT-2, GPT-NeoX, OPT, BLOOM, Falcon, Phi-1.5/2, Qwen (v1), T5 and BERT.
 * Module shapes follow each transformers modeling file (the per-family sums
 * are written out in tests/fixtures/configs/<type>/README.md).
 */
#include "readers/reader.h"

#include <string.h>

/* Hidden size, vocabulary, layers and heads under the names these configs
 * use; starts the arch. */
static void classic_dims(struct model_reader *r, struct gs_arch *a, uint64_t *layers,
                         uint64_t *heads, bool tie)
{
    const uint64_t h = rd_dim(r, NAMES("hidden_size", "n_embd", "n_embed", "d_model"), true, 0);
    gs_arch_init(a, NULL, h, rd_dim(r, NAMES("vocab_size"), true, 0));
    *layers = rd_dim(r, NAMES("num_hidden_layers", "n_layer", "num_layers"), true, 0);
    *heads = rd_dim(r, NAMES("num_attention_heads", "n_head", "num_heads"), true, 0);
    a->tie_word_embeddings = rd_flag(r, "tie_word_embeddings", tie);
    a->attention_dropout = rd_dropout(r, NAMES("attention_dropout", "attn_pdrop",
                                               "attention_probs_dropout_prob", "dropout_rate"));
    a->hidden_dropout = rd_dropout(r, NAMES("hidden_dropout", "resid_pdrop", "hidden_dropout_prob",
                                            "dropout_rate", "dropout"));
    if (*layers > GS_LAYERS_MAX)
        rd_fail(r, "num_hidden_layers", GS_ERR_UNSUPPORTED, "%llu layers: gpusizer describes at most %d",
                (unsigned long long)*layers, GS_LAYERS_MAX);
}

static struct gs_attention mha(uint64_t heads, uint64_t kv_heads, uint64_t head_dim)
{
    struct gs_attention s;
    memset(&s, 0, sizeof(s));
    s.heads = heads;
    s.kv_heads = kv_heads;
    s.head_dim = head_dim;
    s.cached = true;
    return s;
}

static void position_table(struct gs_arch *a, const char *name, uint64_t rows)
{
    gs_arch_module(a, name, GS_MODULE_EMBEDDING, GS_SPLIT_NONE, GS_PART_EMBEDDING, 0, rows,
                   a->hidden_size, 1);
}

/* GPT2LMHeadModel: Conv1D c_attn (h -> 3h) and c_proj with biases, c_fc and
 * c_proj (n_inner, default 4h), ln_1 and ln_2, learned positions wpe, ln_f,
 * tied head. GPTBigCodeForCausalLM (`bigcode`: transformers models/gpt_bigcode/
 * modeling_gpt_bigcode.py; vLLM gpt_bigcode.py; StarCoder, SantaCoder, WizardCoder) is GPT-2's
 * block with multi-query attention - c_attn one biased nn.Linear h -> h + 2 x head_dim
 * (multi_query, its default; 3h without it) - and an eager softmax in fp32
 * (attention_softmax_in_fp32 by default); its one KV head is replicated on every tensor-parallel
 * rank. */
static void read_gpt2_family(struct model_reader *r, struct gs_arch *a, bool bigcode)
{
    static const struct gs_attention_names attn = {NULL, NULL, NULL, "c_proj", "c_attn"};
    static const struct gs_mlp_names mlp = {NULL, "c_fc", "c_proj", NULL};
    uint64_t L, heads;
    classic_dims(r, a, &L, &heads, true);
    const uint64_t h = a->hidden_size;
    a->max_position_embeddings =
        rd_dim(r, NAMES("n_positions", "max_position_embeddings"), false, 1024);
    const uint64_t inner = rd_dim(r, NAMES("n_inner"), false, 4 * h);
    const bool multi_query = bigcode && rd_flag(r, "multi_query", true);
    if (!r->ok)
        return;
    /* modeling_gpt2.py eager_attention_forward: softmax at the scores' dtype, then
     * .type(value.dtype); GPTBigCode's upcasts to fp32 */
    a->eager_softmax_native = !bigcode;
    /* GPT2Config and GPTBigCodeConfig: attn_pdrop, resid_pdrop and embd_pdrop default to 0.1;
     * the model's drop (embd_pdrop) acts on the token and position embeddings' sum */
    a->attention_dropout = rd_dropout_or(r, NAMES("attn_pdrop"), true);
    a->hidden_dropout = rd_dropout_or(r, NAMES("resid_pdrop"), true);
    a->embedding_dropout = rd_dropout_or(r, NAMES("embd_pdrop"), true);
    const size_t b = gs_arch_new_block(a);
    struct gs_attention s = mha(heads, multi_query ? 1 : heads, h / heads);
    s.nope = true; /* learned positions (wpe) */
    gs_build_attention(a, b, &s, &attn, true, true);
    gs_build_mlp(a, b, inner, false, true, &mlp);
    gs_build_norms(a, b, "ln", 2, true);
    gs_arch_set_layers(a, L, b);
    gs_arch_embeddings(a, h, "lm_head", false);
    position_table(a, "wpe", a->max_position_embeddings);
    gs_build_norms(a, GS_BLOCKS_MAX, "ln_f", 1, true);
}

static void read_gpt2(struct model_reader *r, struct gs_arch *a)
{
    read_gpt2_family(r, a, false);
}

static void read_gpt_bigcode(struct model_reader *r, struct gs_arch *a)
{
    read_gpt2_family(r, a, true);
}

/* GPT-J and CodeGen: GPTJBlock / CodeGenBlock (transformers models/gptj/modeling_gptj.py,
 * models/codegen/modeling_codegen.py; vLLM gpt_j.py): one LayerNorm ln_1 whose output both the
 * attention and the MLP read, their outputs added to the layer's input (a parallel residual); the
 * attention without biases - GPT-J's q/k/v/out_proj, CodeGen's fused qkv_proj and out_proj -,
 * rotary on rotary_dim of each head; fc_in/fc_out (n_inner, default 4h, gelu_new) with biases;
 * ln_f; an untied lm_head with a bias. EleutherAI/gpt-j-6b's shapes: 6,050,882,784. */
static void read_gptj_family(struct model_reader *r, struct gs_arch *a, bool fused)
{
    static const struct gs_attention_names split = {"q_proj", "k_proj", "v_proj", "out_proj", NULL};
    static const struct gs_attention_names qkv = {NULL, NULL, NULL, "out_proj", "qkv_proj"};
    static const struct gs_mlp_names mlp = {NULL, "fc_in", "fc_out", NULL};
    uint64_t L, heads;
    classic_dims(r, a, &L, &heads, false);
    const uint64_t h = a->hidden_size;
    a->max_position_embeddings =
        rd_dim(r, NAMES("n_positions", "max_position_embeddings"), false, 2048);
    const uint64_t inner = rd_dim(r, NAMES("n_inner"), false, 4 * h);
    a->embedding_dropout = rd_dropout(r, NAMES("embd_pdrop"));
    if (!r->ok)
        return;
    const size_t b = gs_arch_new_block(a);
    const struct gs_attention s = mha(heads, heads, h / heads);
    gs_build_attention(a, b, &s, fused ? &qkv : &split, false, false);
    gs_build_mlp(a, b, inner, false, true, &mlp);
    gs_build_norms(a, b, "ln_1", 1, true);
    a->blocks[b].parallel_residual = true;
    gs_arch_set_layers(a, L, b);
    gs_arch_embeddings(a, h, "lm_head", true);
    gs_build_norms(a, GS_BLOCKS_MAX, "ln_f", 1, true);
}

static void read_gptj(struct model_reader *r, struct gs_arch *a)
{
    read_gptj_family(r, a, false);
}

static void read_codegen(struct model_reader *r, struct gs_arch *a)
{
    read_gptj_family(r, a, true);
}

/* MptForCausalLM (transformers models/mpt/modeling_mpt.py; vLLM mpt.py; mosaicml/mpt-7b, -30b):
 * d_model, n_heads, n_layers, expansion_ratio (4), max_seq_len; MptAttention's fused Wqkv
 * (h -> 3h) and out_proj without biases, ALiBi (no position table, learned_pos_emb aside, which
 * transformers' port does not build), norm_1/norm_2 LayerNorms whose bias is set to None, an
 * ungated up_proj/down_proj (GELU) without biases, norm_f likewise, the head tied to wte.
 * transformers' MPT has no grouped KV (attn_config kv_n_heads is refused). mpt-7b's shapes:
 * 6,649,286,656. */
static void read_mpt(struct model_reader *r, struct gs_arch *a)
{
    static const struct gs_attention_names attn = {NULL, NULL, NULL, "out_proj", "Wqkv"};
    static const struct gs_mlp_names mlp = {NULL, "up_proj", "down_proj", NULL};
    const uint64_t h = rd_dim(r, NAMES("d_model"), false, 2048);
    gs_arch_init(a, NULL, h, rd_dim(r, NAMES("vocab_size"), false, 50368));
    const uint64_t L = rd_dim(r, NAMES("n_layers"), false, 24);
    const uint64_t heads = rd_dim(r, NAMES("n_heads"), false, 16);
    const uint64_t ratio = rd_size(r, NAMES("expansion_ratio"), 4);
    a->max_position_embeddings = rd_dim(r, NAMES("max_seq_len"), false, 2048);
    a->tie_word_embeddings = rd_flag(r, "tie_word_embeddings", true);
    a->hidden_dropout = rd_dropout(r, NAMES("resid_pdrop"));
    a->embedding_dropout = rd_dropout(r, NAMES("emb_pdrop"));
    struct model_reader ac;
    if (rd_sub(r, "attn_config", &ac) && rd_dim(&ac, NAMES("kv_n_heads"), false, 0) > 1 &&
        rd_dim(&ac, NAMES("kv_n_heads"), false, 0) != heads)
        rd_fail(r, "attn_config", GS_ERR_UNSUPPORTED,
                "grouped KV heads (kv_n_heads) are not in transformers' or vLLM's MPT");
    if (r->ok && (heads == 0 || h % heads != 0))
        rd_fail(r, "n_heads", GS_ERR_INVALID, "must divide d_model");
    if (r->ok && L > GS_LAYERS_MAX)
        rd_fail(r, "n_layers", GS_ERR_UNSUPPORTED, "%llu layers: gpusizer describes at most %d",
                (unsigned long long)L, GS_LAYERS_MAX);
    if (!r->ok)
        return;
    const size_t b = gs_arch_new_block(a);
    struct gs_attention s = mha(heads, heads, h / heads);
    s.nope = true; /* ALiBi */
    gs_build_attention(a, b, &s, &attn, false, false);
    gs_build_mlp(a, b, ratio * h, false, false, &mlp);
    gs_build_norms(a, b, "norm", 2, false);
    gs_arch_set_layers(a, L, b);
    gs_arch_embeddings(a, h, "lm_head", false);
    gs_build_norms(a, GS_BLOCKS_MAX, "norm_f", 1, false);
}

/* GPTNeoXForCausalLM (Pythia): fused query_key_value and dense with
 * attention_bias (default true), dense_h_to_4h/dense_4h_to_h with biases,
 * two LayerNorms per layer, final_layer_norm, untied embed_out. With
 * use_parallel_residual (default true) both LayerNorms read the layer's input
 * (GPTNeoXLayer.forward: attention(input_layernorm(hidden_states)) and
 * mlp(post_attention_layernorm(hidden_states))). */
static void read_gpt_neox(struct model_reader *r, struct gs_arch *a)
{
    static const struct gs_attention_names attn = {NULL, NULL, NULL, "dense", "query_key_value"};
    static const struct gs_mlp_names mlp = {NULL, "dense_h_to_4h", "dense_4h_to_h", NULL};
    uint64_t L, heads;
    classic_dims(r, a, &L, &heads, false);
    const uint64_t h = a->hidden_size;
    a->max_position_embeddings = rd_dim(r, NAMES("max_position_embeddings"), false, 0);
    const uint64_t inner = rd_dim(r, NAMES("intermediate_size"), true, 0);
    const bool bias = rd_flag(r, "attention_bias", true);
    const bool parallel = rd_flag(r, "use_parallel_residual", true);
    a->embedding_dropout = a->hidden_dropout; /* GPTNeoXModel.emb_dropout(config.hidden_dropout) */
    if (!r->ok)
        return;
    const size_t b = gs_arch_new_block(a);
    struct gs_attention s = mha(heads, heads, h / heads);
    /* GPTNeoXAttention.forward: query_key_value's output, viewed per head, chunked into q, k
     * and v views; partial rotary concatenates new q and k */
    s.qkv_views = true;
    gs_build_attention(a, b, &s, &attn, bias, bias);
    gs_build_mlp(a, b, inner, false, true, &mlp);
    gs_build_norms(a, b, "layernorm", 2, true);
    a->blocks[b].norms_share_input = parallel;
    a->blocks[b].parallel_residual = parallel;
    gs_arch_set_layers(a, L, b);
    gs_arch_embeddings(a, h, "embed_out", false);
    gs_build_norms(a, GS_BLOCKS_MAX, "final_layer_norm", 1, true);
}

/* OPTForCausalLM: q/k/v/out_proj and fc1/fc2 with enable_bias, two
 * LayerNorms per layer, positions with 2 extra rows, project_in/out when
 * word_embed_proj_dim differs, a final LayerNorm with do_layer_norm_before
 * (and not _remove_final_layer_norm), the head tied to the embedding. */
static void read_opt(struct model_reader *r, struct gs_arch *a)
{
    static const struct gs_attention_names attn = {"q_proj", "k_proj", "v_proj", "out_proj", NULL};
    static const struct gs_mlp_names mlp = {NULL, "fc1", "fc2", NULL};
    uint64_t L, heads;
    classic_dims(r, a, &L, &heads, true);
    const uint64_t h = a->hidden_size;
    a->max_position_embeddings = rd_dim(r, NAMES("max_position_embeddings"), false, 2048);
    const uint64_t ffn = rd_dim(r, NAMES("ffn_dim", "intermediate_size"), true, 0);
    const uint64_t w = rd_dim(r, NAMES("word_embed_proj_dim"), false, h);
    const bool bias = rd_flag(r, "enable_bias", true);
    const bool final_norm = rd_flag(r, "do_layer_norm_before", true) &&
                            !rd_flag(r, "_remove_final_layer_norm", false);
    if (!r->ok)
        return;
    const size_t b = gs_arch_new_block(a);
    struct gs_attention s = mha(heads, heads, h / heads);
    s.nope = true; /* learned positions */
    gs_build_attention(a, b, &s, &attn, bias, bias);
    gs_build_mlp(a, b, ffn, false, bias, &mlp);
    gs_build_norms(a, b, "layer_norm", 2, true);
    gs_arch_set_layers(a, L, b);
    gs_arch_embeddings(a, w, "lm_head", false);
    position_table(a, "embed_positions", a->max_position_embeddings + 2);
    if (w != h) {
        gs_arch_module(a, "project_in", GS_MODULE_LINEAR, GS_SPLIT_NONE, GS_PART_OTHER, 0, w, h, 1);
        gs_arch_module(a, "project_out", GS_MODULE_LINEAR, GS_SPLIT_NONE, GS_PART_OTHER, 0, h, w, 1);
    }
    if (final_norm)
        gs_build_norms(a, GS_BLOCKS_MAX, "final_layer_norm", 1, true);
}

/* BloomForCausalLM: ALiBi (no position table), word_embeddings_layernorm,
 * fused query_key_value with bias, dense_h_to_4h always 4h, ln_f, tied:
 * N = V*h + 2h + L*(12h^2 + 13h) + 2h. */
static void read_bloom(struct model_reader *r, struct gs_arch *a)
{
    static const struct gs_attention_names attn = {NULL, NULL, NULL, "dense", "query_key_value"};
    static const struct gs_mlp_names mlp = {NULL, "dense_h_to_4h", "dense_4h_to_h", NULL};
    uint64_t L, heads;
    classic_dims(r, a, &L, &heads, true);
    const uint64_t h = a->hidden_size;
    if (!r->ok)
        return;
    const size_t b = gs_arch_new_block(a);
    struct gs_attention s = mha(heads, heads, h / heads);
    s.nope = true; /* ALiBi */
    gs_build_attention(a, b, &s, &attn, true, true);
    gs_build_mlp(a, b, 4 * h, false, true, &mlp);
    gs_build_norms(a, b, "layernorm", 2, true);
    gs_arch_set_layers(a, L, b);
    gs_arch_embeddings(a, h, "lm_head", false);
    gs_arch_module(a, "word_embeddings_layernorm", GS_MODULE_NORM, GS_SPLIT_NONE, GS_PART_NORMS,
                   GS_MOD_BIAS, 1, h, 1);
    gs_build_norms(a, GS_BLOCKS_MAX, "ln_f", 1, true);
}

/* FalconForCausalLM (FalconAttention): query_key_value is (a + 2k)*d wide
 * with new_decoder_architecture, h + 2d with multi_query, 3h otherwise;
 * `bias` on every linear; parallel attention shares one LayerNorm (two with
 * num_ln_in_parallel_attn 2 on the new architecture); ln_f; tied. */
static void read_falcon(struct model_reader *r, struct gs_arch *a)
{
    static const struct gs_attention_names attn = {NULL, NULL, NULL, "dense", "query_key_value"};
    static const struct gs_mlp_names mlp = {NULL, "dense_h_to_4h", "dense_4h_to_h", NULL};
    uint64_t L, heads;
    classic_dims(r, a, &L, &heads, true);
    const uint64_t h = a->hidden_size;
    const uint64_t ffn = rd_dim(r, NAMES("ffn_hidden_size"), false, 4 * h);
    const bool bias = rd_flag(r, "bias", false);
    const bool new_arch = rd_flag(r, "new_decoder_architecture", false);
    const bool multi_query = rd_flag(r, "multi_query", true);
    const bool parallel = rd_flag(r, "parallel_attn", true);
    const bool alibi = rd_flag(r, "alibi", false);
    const uint64_t kv = rd_dim(r, NAMES("num_kv_heads", "n_head_kv", "num_key_value_heads"), false,
                               heads);
    const uint64_t ln_parallel = rd_dim(r, NAMES("num_ln_in_parallel_attn"), false, 0);
    if (ln_parallel > 2)
        rd_fail(r, "num_ln_in_parallel_attn", GS_ERR_RANGE, "must be 1 or 2");
    a->max_position_embeddings = rd_dim(r, NAMES("max_position_embeddings"), false, 0);
    if (!r->ok)
        return;
    uint64_t kv_heads = heads, norms = 2;
    if (new_arch) {
        kv_heads = kv;
        norms = ln_parallel == 1 ? 1 : 2;
    } else {
        kv_heads = multi_query ? 1 : heads;
        norms = parallel ? 1 : 2;
    }
    const size_t b = gs_arch_new_block(a);
    struct gs_attention s = mha(heads, kv_heads, h / heads);
    s.nope = alibi; /* FalconAttention: ALiBi instead of rotary with `alibi` */
    /* FalconAttention._split_heads: multi-head, q, k and v are views of query_key_value's
     * output (fused_qkv[..., 0, :] ...); multi-query and the new architecture index the
     * key and value heads out ([..., [-1], :]), a copy */
    s.qkv_views = !new_arch && !multi_query;
    gs_build_attention(a, b, &s, &attn, bias, bias);
    gs_build_mlp(a, b, ffn, false, bias, &mlp);
    gs_build_norms(a, b, "ln", norms, true);
    /* the new architecture's two norms both read the layer's input (FalconDecoderLayer:
     * ln_attn(hidden_states), ln_mlp(hidden_states)); the old one's second follows attention */
    a->blocks[b].norms_share_input = new_arch && norms == 2;
    /* FalconDecoderLayer: the MLP reads the layer's input normed (mlp_layernorm_out) with the
     * new architecture or parallel_attn, else the attention's residual sum */
    a->blocks[b].parallel_residual = new_arch || parallel;
    gs_arch_set_layers(a, L, b);
    gs_arch_embeddings(a, h, "lm_head", false);
    gs_build_norms(a, GS_BLOCKS_MAX, "ln_f", 1, true);
}

/* PhiForCausalLM (Phi-1.5, Phi-2; modeling_phi.py): q/k/v and dense with
 * biases, fc1/fc2 with biases, one input_layernorm per layer (attention and
 * MLP in parallel), per-head q/k LayerNorms with qk_layernorm,
 * final_layernorm, an untied lm_head with a bias. */
static void read_phi(struct model_reader *r, struct gs_arch *a)
{
    static const struct gs_attention_names attn = {"q_proj", "k_proj", "v_proj", "dense", NULL};
    static const struct gs_mlp_names mlp = {NULL, "fc1", "fc2", NULL};
    uint64_t L, heads;
    classic_dims(r, a, &L, &heads, false);
    const uint64_t h = a->hidden_size;
    const uint64_t kv = rd_dim(r, NAMES("num_key_value_heads"), false, heads);
    const uint64_t inner = rd_dim(r, NAMES("intermediate_size"), true, 0);
    const bool qk_norm = rd_flag(r, "qk_layernorm", false);
    a->max_position_embeddings = rd_dim(r, NAMES("max_position_embeddings"), false, 0);
    /* PhiModel.embed_dropout(config.embd_pdrop), apart from the layers' resid_pdrop (Phi-2:
     * 0.0 and 0.1) */
    a->embedding_dropout = rd_dropout(r, NAMES("embd_pdrop"));
    if (!r->ok)
        return;
    const size_t b = gs_arch_new_block(a);
    const struct gs_attention s = mha(heads, kv, h / heads);
    gs_build_attention(a, b, &s, &attn, true, true);
    gs_build_mlp(a, b, inner, false, true, &mlp);
    gs_build_norms(a, b, "input_layernorm", 1, true);
    a->blocks[b].parallel_residual = true; /* PhiDecoderLayer: attn and mlp off one norm */
    if (qk_norm) {
        gs_block_module(a, b, "q_layernorm", GS_MODULE_NORM, GS_SPLIT_NONE, GS_PART_ATTENTION,
                        GS_MOD_BIAS, 1, h / heads, 1);
        gs_block_module(a, b, "k_layernorm", GS_MODULE_NORM, GS_SPLIT_NONE, GS_PART_ATTENTION,
                        GS_MOD_BIAS, 1, h / heads, 1);
    }
    gs_arch_set_layers(a, L, b);
    gs_arch_embeddings(a, h, "lm_head", true);
    gs_build_norms(a, GS_BLOCKS_MAX, "final_layernorm", 1, true);
}

/* QWenLMHeadModel (Qwen v1 remote code, modeling_qwen.py): c_attn (h -> 3h,
 * bias), c_proj (no bias), MLP w1 and w2 (h -> intermediate_size / 2) with
 * c_proj back, RMSNorm ln_1, ln_2, ln_f; an untied lm_head. */
static void read_qwen(struct model_reader *r, struct gs_arch *a)
{
    static const struct gs_attention_names attn = {NULL, NULL, NULL, "c_proj", "c_attn"};
    static const struct gs_mlp_names mlp = {"w2", "w1", "c_proj", NULL};
    uint64_t L, heads;
    classic_dims(r, a, &L, &heads, false);
    const uint64_t h = a->hidden_size;
    const uint64_t ffn = rd_dim(r, NAMES("intermediate_size"), true, 0);
    const uint64_t d = rd_dim(r, NAMES("kv_channels"), false, h / (heads ? heads : 1));
    a->max_position_embeddings = rd_dim(r, NAMES("max_position_embeddings", "seq_length"), false, 0);
    a->embedding_dropout = rd_dropout(r, NAMES("emb_dropout_prob")); /* QWenModel.drop */
    if (!r->ok)
        return;
    const size_t b = gs_arch_new_block(a);
    struct gs_attention s = mha(heads, heads, d);
    /* QWenAttention.forward: mixed_x_layer.split(self.split_size, dim=2), _split_heads views
     * them; apply_rotary_pos_emb returns new q and k */
    s.qkv_views = true;
    gs_build_attention(a, b, &s, &attn, true, false);
    gs_build_mlp(a, b, ffn / 2, true, false, &mlp);
    gs_build_norms(a, b, "ln", 2, false);
    gs_arch_set_layers(a, L, b);
    gs_arch_embeddings(a, h, "lm_head", false);
    gs_build_norms(a, GS_BLOCKS_MAX, "ln_f", 1, false);
}

/* T5 attention (modeling_t5.py): q, k, v (d -> heads*d_kv) and o, no biases; `cross`: the
 * decoder's EncDecAttention, whose k and v read the encoder's output. */
static void t5_attention(struct gs_arch *a, size_t b, const char *q, const char *k, const char *v,
                         const char *o, uint64_t inner, bool cross)
{
    const uint64_t d = a->hidden_size;
    const unsigned kv = GS_MOD_QUANT | (cross ? GS_MOD_CROSS : 0);
    gs_block_module(a, b, q, GS_MODULE_LINEAR, GS_SPLIT_COLUMN, GS_PART_ATTENTION, GS_MOD_QUANT, d,
                    inner, 1);
    gs_block_module(a, b, k, GS_MODULE_LINEAR, GS_SPLIT_KV, GS_PART_ATTENTION, kv, d, inner, 1);
    gs_block_module(a, b, v, GS_MODULE_LINEAR, GS_SPLIT_KV, GS_PART_ATTENTION, kv, d, inner, 1);
    gs_block_module(a, b, o, GS_MODULE_LINEAR, GS_SPLIT_ROW, GS_PART_ATTENTION, GS_MOD_QUANT, inner,
                    d, 1);
}

/* T5ForConditionalGeneration (T5 and Flan-T5): a shared embedding, an
 * encoder tower and the decoder stack (which adds cross-attention,
 * EncDecAttention), DenseReluDense wi/wo or gated wi_0/wi_1/wo with
 * feed_forward_proj "gated-*", weight-only LayerNorms (2 per encoder layer,
 * 3 per decoder layer, a final one each), relative_attention_bias in each
 * stack's first layer; lm_head untied unless tie_word_embeddings. */
static void read_t5(struct model_reader *r, struct gs_arch *a)
{
    static const struct gs_mlp_names plain = {NULL, "wi", "wo", NULL};
    static const struct gs_mlp_names gated = {"wi_0", "wi_1", "wo", NULL};
    uint64_t enc, heads;
    classic_dims(r, a, &enc, &heads, true);
    const uint64_t d = a->hidden_size;
    const uint64_t d_kv = rd_dim(r, NAMES("d_kv", "head_dim"), false, 64);
    const uint64_t ff = rd_dim(r, NAMES("d_ff", "intermediate_size"), true, 0);
    const uint64_t dec = rd_dim(r, NAMES("num_decoder_layers"), false, enc);
    const uint64_t buckets = rd_dim(r, NAMES("relative_attention_num_buckets"), false, 32);
    const char *proj = rd_string(r, "feed_forward_proj");
    const bool is_gated = proj != NULL && strncmp(proj, "gated-", 6) == 0;
    a->max_position_embeddings = rd_dim(r, NAMES("n_positions", "max_position_embeddings"), false, 0);
    if (dec > GS_LAYERS_MAX)
        rd_fail(r, "num_decoder_layers", GS_ERR_UNSUPPORTED, "more than %d layers", GS_LAYERS_MAX);
    if (!r->ok)
        return;
    const uint64_t inner = heads * d_kv;
    struct gs_attention s = mha(heads, heads, d_kv);
    s.nope = true; /* relative position buckets */
    /* T5Attention adds the position bias to the scores and runs softmax(scores.float()): no
     * SDPA or flash path in transformers */
    a->attention_eager_only = true;
    /* T5Config: dropout_rate defaults to 0.1, after attention, in the MLP and on the residuals */
    a->attention_dropout = a->hidden_dropout = rd_dropout_or(r, NAMES("dropout_rate"), true);
    a->mlp_dropout = a->hidden_dropout; /* T5DenseActDense / T5DenseGatedActDense: before wo */
    a->embedding_dropout = a->hidden_dropout; /* T5Stack.dropout(inputs_embeds) */
    /* decoder layer: self-attention, cross-attention, FF, three norms */
    const size_t db = gs_arch_new_block(a);
    s.cross = true;
    gs_arch_block(a, db)->mixer = GS_MIXER_ATTENTION;
    gs_arch_block(a, db)->attn = s;
    gs_arch_block(a, db)->attn.v_head_dim = d_kv;
    t5_attention(a, db, "SelfAttention.q", "SelfAttention.k", "SelfAttention.v", "SelfAttention.o",
                 inner, false);
    t5_attention(a, db, "EncDecAttention.q", "EncDecAttention.k", "EncDecAttention.v",
                 "EncDecAttention.o", inner, true);
    gs_build_mlp(a, db, ff, is_gated, false, is_gated ? &gated : &plain);
    gs_build_norms(a, db, "layer_norm", 3, false);
    /* encoder layer: bidirectional self-attention (no cache), FF, two norms */
    const size_t eb = gs_arch_new_block(a);
    s.cross = false;
    s.cached = false;
    gs_arch_block(a, eb)->mixer = GS_MIXER_ATTENTION;
    gs_arch_block(a, eb)->attn = s;
    gs_arch_block(a, eb)->attn.v_head_dim = d_kv;
    t5_attention(a, eb, "SelfAttention.q", "SelfAttention.k", "SelfAttention.v", "SelfAttention.o",
                 inner, false);
    gs_build_mlp(a, eb, ff, is_gated, false, is_gated ? &gated : &plain);
    gs_build_norms(a, eb, "layer_norm", 2, false);
    gs_arch_set_layers(a, dec, db);
    gs_arch_tower(a, "encoder", eb, GS_PART_COUNT, enc, true);
    gs_arch_embeddings(a, d, "lm_head", false);
    gs_arch_module(a, "relative_attention_bias", GS_MODULE_TENSOR, GS_SPLIT_NONE,
                   GS_PART_ATTENTION, 0, buckets, heads, 2);
    gs_build_norms(a, GS_BLOCKS_MAX, "final_layer_norm", 2, false);
}

/* BertModel (with its pooler; the class BERT checkpoints name): word,
 * position and token-type embeddings and their LayerNorm; query, key,
 * value and attention.output.dense with biases, intermediate and output
 * dense, two LayerNorms per layer; the pooler dense. Encoder-only: no KV
 * cache and no logits. */
static void read_bert(struct model_reader *r, struct gs_arch *a)
{
    static const struct gs_attention_names attn = {"query", "key", "value", "attention.output.dense",
                                                   NULL};
    static const struct gs_mlp_names mlp = {NULL, "intermediate.dense", "output.dense", NULL};
    uint64_t L, heads;
    classic_dims(r, a, &L, &heads, false);
    const uint64_t h = a->hidden_size;
    const uint64_t inner = rd_dim(r, NAMES("intermediate_size"), true, 0);
    a->max_position_embeddings = rd_dim(r, NAMES("max_position_embeddings"), false, 512);
    const uint64_t types = rd_dim(r, NAMES("type_vocab_size"), false, 2);
    if (!r->ok)
        return;
    a->tie_word_embeddings = false;
    a->logits = false;
    const size_t b = gs_arch_new_block(a);
    struct gs_attention s = mha(heads, heads, h / heads);
    s.cached = false;
    s.nope = true; /* absolute position embeddings */
    gs_build_attention(a, b, &s, &attn, true, true);
    gs_build_mlp(a, b, inner, false, true, &mlp);
    gs_build_norms(a, b, "LayerNorm", 2, true);
    gs_arch_set_layers(a, L, b);
    gs_arch_module(a, "word_embeddings", GS_MODULE_EMBEDDING, GS_SPLIT_COLUMN, GS_PART_EMBEDDING,
                   GS_MOD_TOKENS, a->vocab_size, h, 1);
    position_table(a, "position_embeddings", a->max_position_embeddings);
    position_table(a, "token_type_embeddings", types);
    gs_arch_module(a, "embeddings.LayerNorm", GS_MODULE_NORM, GS_SPLIT_NONE, GS_PART_NORMS,
                   GS_MOD_BIAS, 1, h, 1);
    a->eager_softmax_native = true; /* modeling_bert.py eager_attention_forward: softmax, then
                                       dropout, at the scores' dtype */
    /* BertConfig: hidden_dropout_prob and attention_probs_dropout_prob default to 0.1 */
    a->attention_dropout = rd_dropout_or(r, NAMES("attention_probs_dropout_prob"), true);
    a->hidden_dropout = rd_dropout_or(r, NAMES("hidden_dropout_prob"), true);
    a->embedding_dropout = a->hidden_dropout; /* BertEmbeddings.dropout(hidden_dropout_prob) */
    const char *cls = rd_architecture(r) != NULL ? rd_architecture(r) : "";
    if (strcmp(cls, "BertForMaskedLM") != 0) {
        gs_arch_module(a, "pooler.dense", GS_MODULE_LINEAR, GS_SPLIT_NONE, GS_PART_OTHER,
                       GS_MOD_BIAS, h, h, 1);
        /* BertForSequenceClassification: a classifier over the pooled output, num_labels wide
         * (PretrainedConfig: len(id2label), 2 by default) */
        if (strcmp(cls, "BertForSequenceClassification") == 0)
            gs_arch_module(a, "classifier", GS_MODULE_LINEAR, GS_SPLIT_NONE, GS_PART_OTHER,
                           GS_MOD_BIAS, h, rd_labels(r), 1);
        return;
    }
    /* BertForMaskedLM (add_pooling_layer=False): BertLMPredictionHead's transform (dense h -> h
     * with bias, the activation, LayerNorm) and a decoder tied to word_embeddings with its own
     * vocabulary bias; the loss is over vocabulary logits */
    a->logits = true;
    gs_arch_module(a, "cls.predictions.transform.dense", GS_MODULE_LINEAR, GS_SPLIT_NONE,
                   GS_PART_LM_HEAD, GS_MOD_BIAS, h, h, 1);
    gs_arch_module(a, "cls.predictions.transform.LayerNorm", GS_MODULE_NORM, GS_SPLIT_NONE,
                   GS_PART_NORMS, GS_MOD_BIAS, 1, h, 1);
    gs_arch_module(a, "cls.predictions.bias", GS_MODULE_TENSOR, GS_SPLIT_NONE, GS_PART_LM_HEAD, 0,
                   1, a->vocab_size, 1);
}

const struct model_type MODELS_CLASSIC[] = {
    {"gpt2", "GPT2LMHeadModel", read_gpt2},
    {"gpt_bigcode", "GPTBigCodeForCausalLM", read_gpt_bigcode},
    {"gptj", "GPTJForCausalLM", read_gptj},
    {"codegen", "CodeGenForCausalLM", read_codegen},
    {"mpt", "MptForCausalLM", read_mpt},
    {"gpt_neox", "GPTNeoXForCausalLM", read_gpt_neox},
    {"opt", "OPTForCausalLM", read_opt},
    {"bloom", "BloomForCausalLM", read_bloom},
    {"falcon", "FalconForCausalLM", read_falcon},
    {"phi", "PhiForCausalLM", read_phi},
    {"qwen", "QWenLMHeadModel", read_qwen},
    {"t5", "T5ForConditionalGeneration", read_t5},
    {"bert", "BertModel", read_bert},
    {NULL, NULL, NULL},
};
