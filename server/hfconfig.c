/*
 * hfconfig.c - config.json -> struct gs_arch (see hfconfig.h).
 *
 * Field names differ between families (GPT-2's n_embd, BLOOM's n_embed, T5's
 * d_model all mean hidden_size); each canonical field lists the aliases the
 * transformers configuration classes accept, and an error points at the name
 * the config actually used. Optional fields take the defaults of those
 * classes: num_key_value_heads = num_attention_heads, head_dim =
 * hidden_size // num_attention_heads (256 for Gemma, d_kv 64 for T5), an
 * n_inner/ffn_hidden_size of null = 4 * hidden_size, tie_word_embeddings per
 * gs_family_ties_by_default, biases as each family builds them.
 */
#include "hfconfig.h"

#include "jsonv.h"

#include <stdio.h>
#include <string.h>

struct reader {
    const json_t *config;
    const char *pointer;
    struct gs_error *err;
    bool ok;
};

/* The first of `names` (NULL-terminated) present and not null, or NULL. */
static const char *present(const struct reader *r, const char *const *names, const json_t **value)
{
    for (const char *const *n = names; *n != NULL; n++) {
        const json_t *v = json_object_get(r->config, *n);
        if (v != NULL && !json_is_null(v)) {
            *value = v;
            return *n;
        }
    }
    return NULL;
}

/* Reads a dimension under any of its names; keeps *out (the default) when
 * absent and not required. */
static void dim(struct reader *r, const char *const *names, bool required, uint64_t *out)
{
    char where[JSONV_POINTER_MAX];
    const json_t *v = NULL;
    const char *name = present(r, names, &v);
    if (name == NULL) {
        if (required) {
            jsonv_pointer(where, sizeof(where), r->pointer, names[0]);
            gs_error_add(r->err, GS_ERR_INVALID, where, "is required for this model_type");
            r->ok = false;
        }
        return;
    }
    jsonv_pointer(where, sizeof(where), r->pointer, name);
    if (!jsonv_uint(v, where, required ? 1 : 0, GS_ARCH_DIM_MAX, out, r->err))
        r->ok = false;
}

static void flag(struct reader *r, const char *name, bool *out)
{
    char where[JSONV_POINTER_MAX];
    const char *names[] = {name, NULL};
    const json_t *v = NULL;
    if (present(r, names, &v) == NULL)
        return;
    jsonv_pointer(where, sizeof(where), r->pointer, name);
    if (!jsonv_bool(v, where, out, r->err))
        r->ok = false;
}

#define NAMES(...) ((const char *const[]){__VA_ARGS__, NULL})

/* Whether any of `names` is a non-zero dropout probability. */
static void dropout(struct reader *r, const char *const *names, bool *out)
{
    for (const char *const *n = names; *n != NULL; n++) {
        const json_t *v = json_object_get(r->config, *n);
        if (json_is_number(v) && json_number_value(v) > 0)
            *out = true;
    }
}

static void read_common(struct reader *r, struct gs_arch *a)
{
    dim(r, NAMES("hidden_size", "n_embd", "n_embed", "d_model"), true, &a->hidden_size);
    dim(r, NAMES("num_hidden_layers", "n_layer", "num_layers"), true, &a->num_hidden_layers);
    dim(r, NAMES("num_attention_heads", "n_head", "num_heads"), true, &a->num_attention_heads);
    dim(r, NAMES("vocab_size"), true, &a->vocab_size);
    a->num_key_value_heads = a->num_attention_heads;
    dim(r, NAMES("num_key_value_heads", "num_kv_heads", "n_head_kv"), false,
        &a->num_key_value_heads);
    if (a->family == GS_FAMILY_GEMMA || a->family == GS_FAMILY_GEMMA2)
        a->head_dim = 256;
    else if (a->family == GS_FAMILY_T5)
        a->head_dim = 64;
    else if (a->num_attention_heads != 0)
        a->head_dim = a->hidden_size / a->num_attention_heads;
    dim(r, NAMES("head_dim", "d_kv"), false, &a->head_dim);
    dim(r, NAMES("max_position_embeddings", "n_positions"), false, &a->max_position_embeddings);
    dim(r, NAMES("sliding_window"), false, &a->sliding_window);
    a->tie_word_embeddings = gs_family_ties_by_default(a->family);
    flag(r, "tie_word_embeddings", &a->tie_word_embeddings);
    /* GPT-2 attn_pdrop/resid_pdrop, BERT *_dropout_prob, T5 dropout_rate, OPT dropout */
    dropout(r, NAMES("attention_dropout", "attn_pdrop", "attention_probs_dropout_prob",
                     "dropout_rate"),
            &a->attention_dropout);
    dropout(r, NAMES("hidden_dropout", "resid_pdrop", "hidden_dropout_prob", "dropout_rate",
                     "dropout"),
            &a->hidden_dropout);
}

static void read_mlp_width(struct reader *r, struct gs_arch *a)
{
    switch (a->family) {
    case GS_FAMILY_GPT2:
    case GS_FAMILY_FALCON: /* n_inner / ffn_hidden_size: null means 4h */
        a->intermediate_size = 4 * a->hidden_size;
        dim(r, NAMES("n_inner", "ffn_hidden_size"), false, &a->intermediate_size);
        break;
    case GS_FAMILY_BLOOM: /* BloomMLP: dense_h_to_4h, always 4h */
        a->intermediate_size = 4 * a->hidden_size;
        break;
    case GS_FAMILY_QWEN3_MOE: /* only dense layers use it */
        dim(r, NAMES("intermediate_size"), false, &a->intermediate_size);
        break;
    default:
        dim(r, NAMES("intermediate_size", "ffn_dim", "d_ff"), true, &a->intermediate_size);
        break;
    }
}

static void read_biases(struct reader *r, struct gs_arch *a)
{
    switch (a->family) {
    case GS_FAMILY_GPT_NEOX: /* GPTNeoXConfig: attention_bias=True */
        a->attention_bias = true;
        flag(r, "attention_bias", &a->attention_bias);
        break;
    case GS_FAMILY_OPT: /* OPTConfig: enable_bias=True, for attention and MLP */
        a->attention_bias = true;
        flag(r, "enable_bias", &a->attention_bias);
        a->mlp_bias = a->attention_bias;
        break;
    case GS_FAMILY_FALCON: /* FalconConfig: bias=False, for every linear */
        flag(r, "bias", &a->attention_bias);
        a->mlp_bias = a->attention_bias;
        break;
    default:
        flag(r, "attention_bias", &a->attention_bias);
        flag(r, "mlp_bias", &a->mlp_bias);
        break;
    }
}

/* Qwen-MoE's mlp_only_layers lists dense layers by index; gpusizer counts
 * MoE layers in closed form and does not model the list, so a non-empty
 * one is refused rather than miscounted. */
static void refuse_mlp_only_layers(struct reader *r)
{
    const json_t *v = json_object_get(r->config, "mlp_only_layers");
    if (v == NULL || json_is_null(v) || (json_is_array(v) && json_array_size(v) == 0))
        return;
    char where[JSONV_POINTER_MAX];
    jsonv_pointer(where, sizeof(where), r->pointer, "mlp_only_layers");
    gs_error_add(r->err, GS_ERR_UNSUPPORTED, where,
                 "a non-empty mlp_only_layers is not supported; every decoder_sparse_step-th "
                 "layer is taken as MoE");
    r->ok = false;
}

static void read_moe(struct reader *r, struct gs_arch *a)
{
    dim(r, NAMES("num_local_experts", "num_experts", "n_routed_experts"), true, &a->num_experts);
    dim(r, NAMES("num_experts_per_tok"), true, &a->num_experts_per_tok);
    if (a->family == GS_FAMILY_MIXTRAL)
        return;
    dim(r, NAMES("moe_intermediate_size"), true, &a->moe_intermediate_size);
    if (a->family == GS_FAMILY_QWEN2_MOE || a->family == GS_FAMILY_QWEN3_MOE) {
        if (a->family == GS_FAMILY_QWEN2_MOE)
            dim(r, NAMES("shared_expert_intermediate_size"), true,
                &a->shared_expert_intermediate_size);
        a->decoder_sparse_step = 1;
        dim(r, NAMES("decoder_sparse_step"), false, &a->decoder_sparse_step);
        refuse_mlp_only_layers(r);
        return;
    }
    /* DeepSeek */
    dim(r, NAMES("n_shared_experts"), false, &a->n_shared_experts);
    dim(r, NAMES("first_k_dense_replace"), false, &a->first_k_dense_replace);
    a->moe_layer_freq = 1;
    dim(r, NAMES("moe_layer_freq"), false, &a->moe_layer_freq);
    dim(r, NAMES("q_lora_rank"), false, &a->q_lora_rank);
    dim(r, NAMES("kv_lora_rank"), true, &a->kv_lora_rank);
    dim(r, NAMES("qk_nope_head_dim"), true, &a->qk_nope_head_dim);
    dim(r, NAMES("qk_rope_head_dim"), true, &a->qk_rope_head_dim);
    dim(r, NAMES("v_head_dim"), true, &a->v_head_dim);
}

static void read_family_extras(struct reader *r, struct gs_arch *a)
{
    switch (a->family) {
    case GS_FAMILY_GPT2:
        a->max_position_embeddings = a->max_position_embeddings ? a->max_position_embeddings : 1024;
        break;
    case GS_FAMILY_OPT: {
        a->max_position_embeddings = a->max_position_embeddings ? a->max_position_embeddings : 2048;
        dim(r, NAMES("word_embed_proj_dim"), false, &a->word_embed_proj_dim);
        bool before = true, removed = false;
        flag(r, "do_layer_norm_before", &before);
        flag(r, "_remove_final_layer_norm", &removed);
        a->final_layer_norm = before && !removed;
        break;
    }
    case GS_FAMILY_FALCON:
        a->multi_query = true; /* FalconConfig defaults */
        a->parallel_attn = true;
        flag(r, "multi_query", &a->multi_query);
        flag(r, "parallel_attn", &a->parallel_attn);
        flag(r, "new_decoder_architecture", &a->new_decoder_architecture);
        dim(r, NAMES("num_ln_in_parallel_attn"), false, &a->num_ln_in_parallel_attn);
        break;
    case GS_FAMILY_T5: {
        a->num_decoder_layers = a->num_hidden_layers;
        dim(r, NAMES("num_decoder_layers"), false, &a->num_decoder_layers);
        a->relative_attention_num_buckets = 32;
        dim(r, NAMES("relative_attention_num_buckets"), false, &a->relative_attention_num_buckets);
        const json_t *ff = json_object_get(r->config, "feed_forward_proj");
        a->gated_mlp = json_is_string(ff) && strncmp(json_string_value(ff), "gated-", 6) == 0;
        break;
    }
    case GS_FAMILY_BERT:
        a->max_position_embeddings = a->max_position_embeddings ? a->max_position_embeddings : 512;
        a->type_vocab_size = 2;
        dim(r, NAMES("type_vocab_size"), false, &a->type_vocab_size);
        break;
    default:
        break;
    }
    if (gs_family_is_moe(a->family))
        read_moe(r, a);
}

enum gs_status hfconfig_to_arch(const json_t *config, const char *pointer, struct gs_arch *out,
                                struct gs_error *err)
{
    char where[JSONV_POINTER_MAX];
    if (!json_is_object(config))
        return gs_error_add(err, GS_ERR_INVALID, pointer,
                            "must be a Hugging Face config.json object, got %s",
                            jsonv_type_name(config));
    struct gs_arch a;
    memset(&a, 0, sizeof(a));
    jsonv_pointer(where, sizeof(where), pointer, "model_type");
    const json_t *type = json_object_get(config, "model_type");
    if (!json_is_string(type))
        return gs_error_add(err, GS_ERR_INVALID, where,
                            "is required: the config's model_type (supported: %s)",
                            gs_family_supported());
    if (!gs_family_parse(json_string_value(type), &a.family))
        return gs_error_add(err, GS_ERR_UNSUPPORTED, where,
                            "model_type \"%.60s\" is not supported; supported: %s",
                            json_string_value(type), gs_family_supported());

    struct reader r = {config, pointer, err, true};
    read_common(&r, &a);
    read_mlp_width(&r, &a);
    read_biases(&r, &a);
    read_family_extras(&r, &a);
    if (!r.ok)
        return GS_ERR_INVALID;
    *out = a;
    return GS_OK;
}
