/*
 * arch.c - exact parameter counts per architecture family.
 *
 * Formulas: estimation.md §1.1 (Llama family), which reproduce the published
 * counts to the parameter (tests/core/test_arch.c cites each one).
 */
#include "gs/arch.h"

#include "gs/units.h"

#include <string.h>

static const char *const family_names[GS_FAMILY_COUNT] = {
    [GS_FAMILY_LLAMA] = "llama", [GS_FAMILY_MISTRAL] = "mistral", [GS_FAMILY_QWEN2] = "qwen2",
    [GS_FAMILY_GEMMA] = "gemma", [GS_FAMILY_GEMMA2] = "gemma2",   [GS_FAMILY_PHI3] = "phi3",
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
    return "gemma, gemma2, llama, mistral, phi3, qwen2";
}

bool gs_family_ties_by_default(enum gs_family family)
{
    return family == GS_FAMILY_GEMMA || family == GS_FAMILY_GEMMA2;
}

static void check_dim(const char *field, uint64_t value, struct gs_error *err, bool *ok)
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

enum gs_status gs_arch_validate(const struct gs_arch *arch, struct gs_error *err)
{
    bool ok = true;
    if (arch->family >= GS_FAMILY_COUNT)
        return gs_error_add(err, GS_ERR_UNSUPPORTED, "/model_type", "unsupported model_type");
    check_dim("/hidden_size", arch->hidden_size, err, &ok);
    check_dim("/num_hidden_layers", arch->num_hidden_layers, err, &ok);
    check_dim("/num_attention_heads", arch->num_attention_heads, err, &ok);
    check_dim("/num_key_value_heads", arch->num_key_value_heads, err, &ok);
    check_dim("/head_dim", arch->head_dim, err, &ok);
    check_dim("/intermediate_size", arch->intermediate_size, err, &ok);
    check_dim("/vocab_size", arch->vocab_size, err, &ok);
    if (arch->max_position_embeddings > GS_ARCH_DIM_MAX * 64) {
        gs_error_add(err, GS_ERR_RANGE, "/max_position_embeddings", "%llu tokens is out of range",
                     (unsigned long long)arch->max_position_embeddings);
        ok = false;
    }
    if (ok && arch->num_attention_heads % arch->num_key_value_heads != 0) {
        gs_error_add(err, GS_ERR_INVALID, "/num_key_value_heads",
                     "num_attention_heads (%llu) must be a multiple of num_key_value_heads (%llu)",
                     (unsigned long long)arch->num_attention_heads,
                     (unsigned long long)arch->num_key_value_heads);
        ok = false;
    }
    return ok ? GS_OK : GS_ERR_INVALID;
}

static uint64_t max_u64(uint64_t a, uint64_t b)
{
    return a > b ? a : b;
}

/* The Llama layout and its relatives (estimation.md §1.1):
 *   attn  = h*a*d + 2*h*k*d + a*d*h   (+ a*d + 2*k*d + h with attention_bias;
 *                                       Qwen2 always has the q/k/v biases, never o's)
 *   mlp   = 3*h*i                     (+ 2*i + h with mlp_bias; GeGLU and Phi-3's
 *                                       fused gate_up have the same shapes)
 *   layer = attn + mlp + 2h           (4h for Gemma-2's four RMSNorms)
 *   N     = V*h*(2 if untied else 1) + L*layer + h                          */
static enum gs_status count_llama(const struct gs_arch *a, struct gs_param_count *out)
{
    bool ovf = false;
    const uint64_t h = a->hidden_size, q = gs_mul(a->num_attention_heads, a->head_dim, &ovf);
    const uint64_t kv = gs_mul(a->num_key_value_heads, a->head_dim, &ovf);
    const uint64_t L = a->num_hidden_layers, i = a->intermediate_size;

    uint64_t q_proj = gs_mul(h, q, &ovf), kv_proj = gs_mul(h, kv, &ovf), o_proj = gs_mul(q, h, &ovf);
    if (a->attention_bias || a->family == GS_FAMILY_QWEN2) {
        q_proj = gs_add(q_proj, q, &ovf);
        kv_proj = gs_add(kv_proj, kv, &ovf);
    }
    if (a->attention_bias)
        o_proj = gs_add(o_proj, h, &ovf);
    uint64_t up = gs_mul(h, i, &ovf), down = gs_mul(i, h, &ovf);
    if (a->mlp_bias) {
        up = gs_add(up, i, &ovf);
        down = gs_add(down, h, &ovf);
    }
    const uint64_t attn = gs_add(gs_add(q_proj, gs_mul(2, kv_proj, &ovf), &ovf), o_proj, &ovf);
    const uint64_t mlp = gs_add(gs_mul(2, up, &ovf), down, &ovf);
    const uint64_t embed = gs_mul(a->vocab_size, h, &ovf);

    struct gs_param_count c = {0};
    c.embedding = embed;
    c.lm_head = a->tie_word_embeddings ? 0 : embed;
    c.attention = gs_mul(L, attn, &ovf);
    c.mlp = gs_mul(L, mlp, &ovf);
    const uint64_t norms_per_layer = a->family == GS_FAMILY_GEMMA2 ? 4 : 2;
    c.norms = gs_add(gs_mul(L, gs_mul(norms_per_layer, h, &ovf), &ovf), h, &ovf);
    c.total = gs_add(gs_add(gs_add(c.embedding, c.lm_head, &ovf), gs_add(c.attention, c.mlp, &ovf),
                            &ovf),
                     c.norms, &ovf);
    c.largest_module = max_u64(max_u64(embed, max_u64(q_proj, kv_proj)), max_u64(o_proj, max_u64(up, down)));
    if (ovf)
        return GS_ERR_RANGE;
    *out = c;
    return GS_OK;
}

enum gs_status gs_arch_count_params(const struct gs_arch *arch, struct gs_param_count *out,
                                    struct gs_error *err)
{
    enum gs_status st = gs_arch_validate(arch, err);
    if (st != GS_OK)
        return st;
    switch (arch->family) {
    case GS_FAMILY_LLAMA:
    case GS_FAMILY_MISTRAL:
    case GS_FAMILY_QWEN2:
    case GS_FAMILY_GEMMA:
    case GS_FAMILY_GEMMA2:
    case GS_FAMILY_PHI3:
        st = count_llama(arch, out);
        break;
    case GS_FAMILY_COUNT:
        st = GS_ERR_UNSUPPORTED;
        break;
    }
    if (st == GS_ERR_RANGE)
        gs_error_add(err, st, "", "the parameter count overflows 64 bits");
    return st;
}
