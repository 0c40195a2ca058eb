/*
 * arch.c - family names, architecture validation and the dispatch to the
 * per-family parameter counts in arch_count.c.
 */
#include "gs/arch.h"

#include "arch_int.h"

#include <string.h>

static const char *const family_names[GS_FAMILY_COUNT] = {
    [GS_FAMILY_LLAMA] = "llama",
    [GS_FAMILY_MISTRAL] = "mistral",
    [GS_FAMILY_QWEN2] = "qwen2",
    [GS_FAMILY_GEMMA] = "gemma",
    [GS_FAMILY_GEMMA2] = "gemma2",
    [GS_FAMILY_PHI3] = "phi3",
    [GS_FAMILY_MIXTRAL] = "mixtral",
    [GS_FAMILY_QWEN2_MOE] = "qwen2_moe",
    [GS_FAMILY_QWEN3_MOE] = "qwen3_moe",
    [GS_FAMILY_DEEPSEEK_V2] = "deepseek_v2",
    [GS_FAMILY_DEEPSEEK_V3] = "deepseek_v3",
    [GS_FAMILY_GPT2] = "gpt2",
    [GS_FAMILY_GPT_NEOX] = "gpt_neox",
    [GS_FAMILY_OPT] = "opt",
    [GS_FAMILY_BLOOM] = "bloom",
    [GS_FAMILY_FALCON] = "falcon",
    [GS_FAMILY_T5] = "t5",
    [GS_FAMILY_BERT] = "bert",
};

const char *gs_family_name(enum gs_family family)
{
    return family < GS_FAMILY_COUNT ? family_names[family] : "unknown";
}

bool gs_family_parse(const char *model_type, enum gs_family *out)
{
    if (model_type == NULL)
        return false;
    for (int i = 0; i < GS_FAMILY_COUNT; i++) {
        if (strcmp(model_type, family_names[i]) == 0) {
            *out = (enum gs_family)i;
            return true;
        }
    }
    return false;
}

const char *gs_family_supported(void)
{
    return "bert, bloom, deepseek_v2, deepseek_v3, falcon, gemma, gemma2, gpt2, gpt_neox, llama, "
           "mistral, mixtral, opt, phi3, qwen2, qwen2_moe, qwen3_moe, t5";
}

bool gs_family_ties_by_default(enum gs_family family)
{
    switch (family) {
    case GS_FAMILY_GEMMA:
    case GS_FAMILY_GEMMA2:
    case GS_FAMILY_GPT2:
    case GS_FAMILY_OPT:
    case GS_FAMILY_BLOOM:
    case GS_FAMILY_FALCON:
    case GS_FAMILY_T5:
        return true;
    default:
        return false;
    }
}

bool gs_family_is_moe(enum gs_family family)
{
    return family == GS_FAMILY_MIXTRAL || family == GS_FAMILY_QWEN2_MOE ||
           family == GS_FAMILY_QWEN3_MOE || family == GS_FAMILY_DEEPSEEK_V2 ||
           family == GS_FAMILY_DEEPSEEK_V3;
}

bool gs_family_uses_mla(enum gs_family family)
{
    return family == GS_FAMILY_DEEPSEEK_V2 || family == GS_FAMILY_DEEPSEEK_V3;
}

static bool layer_norm_family(enum gs_family f)
{
    return f == GS_FAMILY_GPT2 || f == GS_FAMILY_GPT_NEOX || f == GS_FAMILY_OPT ||
           f == GS_FAMILY_BLOOM || f == GS_FAMILY_FALCON || f == GS_FAMILY_BERT;
}

bool gs_arch_gated_mlp(const struct gs_arch *arch)
{
    if (arch->family == GS_FAMILY_T5)
        return arch->gated_mlp;
    return !layer_norm_family(arch->family);
}

unsigned gs_arch_norm_size(const struct gs_arch *arch)
{
    return layer_norm_family(arch->family) ? 2 : 1;
}

/* A required dimension: positive and at most GS_ARCH_DIM_MAX. */
static void require(const char *field, uint64_t value, struct gs_error *err, bool *ok)
{
    if (value == 0) {
        gs_error_add(err, GS_ERR_INVALID, field, "must be a positive integer");
        *ok = false;
    } else if (value > GS_ARCH_DIM_MAX) {
        gs_error_add(err, GS_ERR_RANGE, field, "%llu is larger than any real model uses (limit %llu)",
                     (unsigned long long)value, (unsigned long long)GS_ARCH_DIM_MAX);
        *ok = false;
    }
}

/* An optional dimension: 0 (absent) or within the limit. */
static void bound(const char *field, uint64_t value, uint64_t limit, struct gs_error *err, bool *ok)
{
    if (value > limit) {
        gs_error_add(err, GS_ERR_RANGE, field, "%llu is out of range (limit %llu)",
                     (unsigned long long)value, (unsigned long long)limit);
        *ok = false;
    }
}

bool gs_family_has_kv_heads(enum gs_family f)
{
    return f != GS_FAMILY_GPT2 && f != GS_FAMILY_GPT_NEOX && f != GS_FAMILY_OPT &&
           f != GS_FAMILY_BLOOM && f != GS_FAMILY_T5 && f != GS_FAMILY_BERT &&
           !gs_family_uses_mla(f);
}

static void validate_moe(const struct gs_arch *a, struct gs_error *err, bool *ok)
{
    require("/num_experts", a->num_experts, err, ok);
    require("/num_experts_per_tok", a->num_experts_per_tok, err, ok);
    if (*ok && a->num_experts_per_tok > a->num_experts) {
        gs_error_add(err, GS_ERR_INVALID, "/num_experts_per_tok",
                     "routes each token to %llu experts but there are only %llu",
                     (unsigned long long)a->num_experts_per_tok,
                     (unsigned long long)a->num_experts);
        *ok = false;
    }
    if (a->family != GS_FAMILY_MIXTRAL)
        require("/moe_intermediate_size", a->moe_intermediate_size, err, ok);
    bound("/shared_expert_intermediate_size", a->shared_expert_intermediate_size,
          GS_ARCH_DIM_MAX, err, ok);
    bound("/n_shared_experts", a->n_shared_experts, GS_ARCH_DIM_MAX, err, ok);
    bound("/first_k_dense_replace", a->first_k_dense_replace, GS_ARCH_DIM_MAX, err, ok);
    bound("/moe_layer_freq", a->moe_layer_freq, GS_ARCH_DIM_MAX, err, ok);
    bound("/decoder_sparse_step", a->decoder_sparse_step, GS_ARCH_DIM_MAX, err, ok);
}

static void validate_mla(const struct gs_arch *a, struct gs_error *err, bool *ok)
{
    require("/kv_lora_rank", a->kv_lora_rank, err, ok);
    require("/qk_nope_head_dim", a->qk_nope_head_dim, err, ok);
    require("/qk_rope_head_dim", a->qk_rope_head_dim, err, ok);
    require("/v_head_dim", a->v_head_dim, err, ok);
    bound("/q_lora_rank", a->q_lora_rank, GS_ARCH_DIM_MAX, err, ok);
}

enum gs_status gs_arch_validate(const struct gs_arch *arch, struct gs_error *err)
{
    bool ok = true;
    if (arch->family >= GS_FAMILY_COUNT)
        return gs_error_add(err, GS_ERR_UNSUPPORTED, "/model_type", "unsupported model_type");
    require("/hidden_size", arch->hidden_size, err, &ok);
    require("/num_hidden_layers", arch->num_hidden_layers, err, &ok);
    require("/num_attention_heads", arch->num_attention_heads, err, &ok);
    require("/vocab_size", arch->vocab_size, err, &ok);
    if (!gs_family_uses_mla(arch->family))
        require("/head_dim", arch->head_dim, err, &ok);
    if (arch->family != GS_FAMILY_BLOOM && arch->family != GS_FAMILY_QWEN3_MOE)
        require("/intermediate_size", arch->intermediate_size, err, &ok);
    bound("/intermediate_size", arch->intermediate_size, GS_ARCH_DIM_MAX, err, &ok);
    bound("/max_position_embeddings", arch->max_position_embeddings, GS_ARCH_DIM_MAX * 64, err,
          &ok);
    bound("/type_vocab_size", arch->type_vocab_size, GS_ARCH_DIM_MAX, err, &ok);
    bound("/word_embed_proj_dim", arch->word_embed_proj_dim, GS_ARCH_DIM_MAX, err, &ok);
    bound("/num_decoder_layers", arch->num_decoder_layers, GS_ARCH_DIM_MAX, err, &ok);
    bound("/relative_attention_num_buckets", arch->relative_attention_num_buckets,
          GS_ARCH_DIM_MAX, err, &ok);
    bound("/num_ln_in_parallel_attn", arch->num_ln_in_parallel_attn, 2, err, &ok);
    if (gs_family_is_moe(arch->family))
        validate_moe(arch, err, &ok);
    if (gs_family_uses_mla(arch->family))
        validate_mla(arch, err, &ok);
    if (arch->family == GS_FAMILY_GPT2 || arch->family == GS_FAMILY_OPT ||
        arch->family == GS_FAMILY_BERT)
        require("/max_position_embeddings", arch->max_position_embeddings, err, &ok);
    if (gs_family_has_kv_heads(arch->family)) {
        require("/num_key_value_heads", arch->num_key_value_heads, err, &ok);
        if (ok && arch->num_attention_heads % arch->num_key_value_heads != 0) {
            gs_error_add(err, GS_ERR_INVALID, "/num_key_value_heads",
                         "num_attention_heads (%llu) must be a multiple of num_key_value_heads (%llu)",
                         (unsigned long long)arch->num_attention_heads,
                         (unsigned long long)arch->num_key_value_heads);
            ok = false;
        }
    }
    return ok ? GS_OK : GS_ERR_INVALID;
}

enum gs_status gs_arch_count_params(const struct gs_arch *arch, struct gs_param_count *out,
                                    struct gs_error *err)
{
    enum gs_status st = gs_arch_validate(arch, err);
    if (st != GS_OK)
        return st;
    struct gs_param_count c;
    memset(&c, 0, sizeof(c));
    if (!gs_arch_count_family(arch, &c)) {
        gs_error_add(err, GS_ERR_RANGE, "", "the parameter count overflows 64 bits");
        return GS_ERR_RANGE;
    }
    *out = c;
    return GS_OK;
}
