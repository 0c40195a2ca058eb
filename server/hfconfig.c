/*
 * hfconfig.c - config.json -> struct gs_arch (see hfconfig.h).
 *
 * Defaults follow transformers' configuration classes: num_key_value_heads
 * falls back to num_attention_heads, head_dim to hidden_size // num_attention_heads,
 * attention_bias and mlp_bias to false, tie_word_embeddings to true for Gemma
 * and Gemma-2 and to false for the others.
 */
#include "hfconfig.h"

#include "jsonv.h"

#include <stdio.h>
#include <string.h>

static bool read_dim(const json_t *config, const char *pointer, const char *key, bool required,
                     uint64_t *out, struct gs_error *err)
{
    char where[JSONV_POINTER_MAX];
    jsonv_pointer(where, sizeof(where), pointer, key);
    const json_t *v = json_object_get(config, key);
    if (v == NULL || json_is_null(v)) {
        if (required) {
            gs_error_add(err, GS_ERR_INVALID, where, "is required for this model_type");
            return false;
        }
        return true; /* keep the default already in *out */
    }
    /* 0 is let through here so gs_arch_validate reports it with the same words
     * for every source of architectures */
    return jsonv_uint(v, where, 0, UINT32_MAX, out, err);
}

static bool read_flag(const json_t *config, const char *pointer, const char *key, bool *out,
                      struct gs_error *err)
{
    char where[JSONV_POINTER_MAX];
    jsonv_pointer(where, sizeof(where), pointer, key);
    const json_t *v = json_object_get(config, key);
    if (v == NULL || json_is_null(v))
        return true;
    return jsonv_bool(v, where, out, err);
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

    bool ok = true;
    ok &= read_dim(config, pointer, "hidden_size", true, &a.hidden_size, err);
    ok &= read_dim(config, pointer, "num_hidden_layers", true, &a.num_hidden_layers, err);
    ok &= read_dim(config, pointer, "num_attention_heads", true, &a.num_attention_heads, err);
    ok &= read_dim(config, pointer, "intermediate_size", true, &a.intermediate_size, err);
    ok &= read_dim(config, pointer, "vocab_size", true, &a.vocab_size, err);
    a.num_key_value_heads = a.num_attention_heads;
    ok &= read_dim(config, pointer, "num_key_value_heads", false, &a.num_key_value_heads, err);
    /* GemmaConfig and Gemma2Config default head_dim to 256, not hidden/heads */
    if (a.family == GS_FAMILY_GEMMA || a.family == GS_FAMILY_GEMMA2)
        a.head_dim = 256;
    else
        a.head_dim = a.num_attention_heads != 0 ? a.hidden_size / a.num_attention_heads : 0;
    ok &= read_dim(config, pointer, "head_dim", false, &a.head_dim, err);
    ok &= read_dim(config, pointer, "max_position_embeddings", false, &a.max_position_embeddings,
                   err);
    ok &= read_dim(config, pointer, "sliding_window", false, &a.sliding_window, err);
    a.tie_word_embeddings = gs_family_ties_by_default(a.family);
    ok &= read_flag(config, pointer, "tie_word_embeddings", &a.tie_word_embeddings, err);
    ok &= read_flag(config, pointer, "attention_bias", &a.attention_bias, err);
    ok &= read_flag(config, pointer, "mlp_bias", &a.mlp_bias, err);
    if (!ok)
        return GS_ERR_INVALID;
    *out = a;
    return GS_OK;
}
