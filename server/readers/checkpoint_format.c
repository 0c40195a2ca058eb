/*
 * checkpoint_format.c - the checkpoint's stored format from a config's torch_dtype and
 * quantization_config (see models.h models_read_checkpoint): compressed-tensors, ModelOpt,
 * AutoRound, bitsandbytes, GPTQ/AWQ and the rest, with the modules each keeps unquantized.
 */
#include "readers/models.h"

#include "readers/reader.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* What a scheme's ignore list (compressed-tensors `ignore`, ModelOpt
 * `exclude_modules`, `modules_to_not_convert`) keeps at the checkpoint
 * dtype. The lists name modules by path or pattern
 * ("model.layers.*.self_attn*", "re:.*mlp.gate$", "lm_head",
 * "model.layers.3.self_attn.kv_b_proj"); gpusizer weighs kinds of module,
 * not single layers, so an entry counts for its kind in every layer: a
 * whole attention (self_attn, attn, linear_attn, mixer), a whole dense MLP,
 * the routed experts - as parts (1 << enum gs_part) -, the shared experts
 * (which leave the dense MLPs beside them as they are), or one attention
 * projection by name. A whole numbered layer
 * ("model.layers.0*") keeps its MLP: the dense first layers NVIDIA's NVFP4
 * releases of DeepSeek-style models leave out. Norms, biases, routers,
 * embeddings, heads and towers are never quantized by gpusizer, so naming
 * them changes nothing. An entry covering the MTP layers ("mtp*",
 * "mtp.layers.0*") keeps them whole (`mtp_layers`); one naming a module
 * inside them changes nothing. */
struct kept {
    uint16_t parts;
    bool shared_experts; /* struct gs_checkpoint.unquantized_shared_experts */
    uint8_t mtp_layers;  /* struct gs_checkpoint.unquantized_mtp_layers */
    char *modules;
    size_t cap;
};

static bool has(const char *s, const char *needle)
{
    return strstr(s, needle) != NULL;
}

static bool one_of(const char *s, const char *const *names)
{
    for (const char *const *n = names; *n != NULL; n++)
        if (strcmp(s, *n) == 0)
            return true;
    return false;
}

/* The entry's last path component, wildcards and regex anchors stripped. */
static void leaf_of(const char *entry, char *out, size_t cap)
{
    char path[160];
    snprintf(path, sizeof(path), "%s", strncmp(entry, "re:", 3) == 0 ? entry + 3 : entry);
    size_t n = strlen(path);
    while (n > 0 && strchr("*.$\\", path[n - 1]) != NULL)
        path[--n] = '\0';
    const char *dot = strrchr(path, '.');
    const char *leaf = dot != NULL ? dot + 1 : path;
    while (*leaf == '*')
        leaf++;
    snprintf(out, cap, "%s", leaf);
}

static bool digits(const char *s)
{
    if (*s == '\0')
        return false;
    for (; *s; s++)
        if (*s < '0' || *s > '9')
            return false;
    return true;
}

static void keep_module(struct kept *k, const char *leaf)
{
    char token[40];
    snprintf(token, sizeof(token), ",%.36s,", leaf);
    const size_t used = strlen(k->modules);
    if (strstr(k->modules, token) != NULL || used + strlen(token) >= k->cap)
        return;
    /* "," "a" "," then "b" ",": each name between commas */
    snprintf(k->modules + used, k->cap - used, "%s", used ? token + 1 : token);
}

/* The MTP layers an ignore-list entry covers, as struct gs_checkpoint.unquantized_mtp_layers:
 * vLLM's and SGLang's ModelOpt configs (is_layer_excluded) match the entries as globs against
 * the drafter's module prefixes ("mtp.layers.0.mlp.experts"), after stripping a
 * vision-language model's "language_model." (vLLM nemotron_h_mtp.py hf_to_vllm_mapper: "without
 * one the exclusions never match and the MTP experts are wrongly quantized"). "mtp*", "mtp.*"
 * and "mtp.layers.*" cover every layer, "mtp.layers.N*" layer N; 0 for an entry naming a module
 * inside a layer, or no MTP module. */
static uint8_t mtp_layers_covered(const char *entry)
{
    static const char *const prefixes[] = {"re:", "^", "model.", "language_model.", NULL};
    const char *s = entry;
    for (bool again = true; again;) {
        again = false;
        for (const char *const *p = prefixes; *p != NULL; p++)
            if (strncmp(s, *p, strlen(*p)) == 0) {
                s += strlen(*p);
                again = true;
            }
    }
    if (strncmp(s, "mtp", 3) != 0)
        return 0;
    char rest[64];
    snprintf(rest, sizeof(rest), "%s", s + 3);
    size_t n = strlen(rest);
    while (n > 0 && strchr("*.$\\", rest[n - 1]) != NULL)
        rest[--n] = '\0';
    if (n == 0 || strcmp(rest, ".layers") == 0)
        return UINT8_MAX;
    if (strncmp(rest, ".layers.", 8) != 0 || !digits(rest + 8))
        return 0;
    const long layer = strtol(rest + 8, NULL, 10);
    return layer < 8 ? (uint8_t)(1u << layer) : 0;
}

static void keep_entry(struct kept *k, const char *s)
{
    static const char *const attention[] = {"self_attn", "attn",           "linear_attn", "mixer",
                                            "attention", "self_attention", NULL};
    static const char *const mlp[] = {"mlp", "ffn", "feed_forward", NULL};
    static const char *const mixer_attention[] = {"q_proj", "k_proj",   "v_proj",
                                                  "o_proj", "qkv_proj", NULL};
    char leaf[64];
    leaf_of(s, leaf, sizeof(leaf));
    k->mtp_layers |= mtp_layers_covered(s);
    if (has(s, "norm") || has(s, "bias") || has(s, "lm_head") || strcmp(leaf, "head") == 0 ||
        has(s, "embed") || has(s, "vision") || has(s, "mtp") || has(s, "projector") ||
        has(s, "router") || strcmp(leaf, "gate") == 0 || has(s, "e_score"))
        return;
    if (has(s, "shared_expert"))
        k->shared_experts = true; /* a shared expert's entry says nothing of the dense MLPs */
    else if (has(s, "experts"))
        k->parts |= 1u << GS_PART_EXPERTS;
    else if (one_of(leaf, attention))
        k->parts |= 1u << GS_PART_ATTENTION;
    else if (one_of(leaf, mlp) || digits(leaf) ||
             ((has(s, "mlp") || has(s, "ffn")) && has(s, "_proj")))
        k->parts |= 1u << GS_PART_MLP;
    else if ((has(s, "attn") || has(s, "attention")) && leaf[0] != '\0')
        keep_module(k, leaf);
    else if (has(s, ".mixer.") && one_of(leaf, mixer_attention))
        /* Nemotron-H's attention layers are `mixer`s as its Mamba layers are: NVIDIA's
         * Nemotron-3-Nano and -3.5 NVFP4 releases exclude every attention layer's q/k/v/o_proj
         * (backbone.layers.N.mixer.q_proj) by name; a Mamba mixer's in_proj or out_proj they
         * exclude only in some layers, which a layer kind cannot say, so those stay listed
         * nowhere */
        keep_module(k, leaf);
}

static void read_kept(const json_t *list, struct gs_checkpoint *out)
{
    struct kept k = {0, false, 0, out->unquantized_modules, sizeof(out->unquantized_modules)};
    out->unquantized_modules[0] = '\0';
    for (size_t i = 0; json_is_array(list) && i < json_array_size(list); i++) {
        const char *s = json_string_value(json_array_get(list, i));
        if (s != NULL)
            keep_entry(&k, s);
    }
    out->unquantized_parts = k.parts;
    out->unquantized_shared_experts = k.shared_experts;
    out->unquantized_mtp_layers = k.mtp_layers;
}

/* Appends "; the ignore list keeps <what> in 16-bit" to the detail when it keeps anything,
 * the kinds it keeps as a list ("attention, dense and shared MLPs and the MTP layers"). */
static void append_kept(struct gs_checkpoint *c)
{
    const uint16_t parts = c->unquantized_parts;
    const uint8_t mtp = c->unquantized_mtp_layers;
    const bool shared = c->unquantized_shared_experts && !(parts & (1u << GS_PART_MLP));
    if (parts == 0 && !shared && mtp == 0 && c->unquantized_modules[0] == '\0')
        return;
    /* the names as a list: ",q_proj,k_proj," reads "q_proj, k_proj" */
    char names[sizeof(c->unquantized_modules) * 2];
    size_t n = 0;
    for (const char *at = c->unquantized_modules; *at && n + 3 < sizeof(names); at++) {
        if (*at != ',')
            names[n++] = *at;
        else if (n > 0 && at[1] != '\0') {
            names[n++] = ',';
            names[n++] = ' ';
        }
    }
    names[n] = '\0';
    char projections[sizeof(names) + 32] = "";
    if (names[0])
        snprintf(projections, sizeof(projections), "the attention projections %s", names);
    char layer[40] = "";
    if (mtp != 0 && mtp != UINT8_MAX)
        for (unsigned i = 0; i < 8; i++)
            if (mtp & (1u << i)) {
                const size_t used = strlen(layer);
                snprintf(layer + used, sizeof(layer) - used, "%s%u", used ? ", " : "MTP layer ", i);
            }
    const char *kinds[6] = {parts & (1u << GS_PART_ATTENTION) ? "attention" : NULL,
                            parts & (1u << GS_PART_MLP) ? "dense and shared MLPs" : NULL,
                            shared ? "shared experts" : NULL,
                            parts & (1u << GS_PART_EXPERTS) ? "routed experts" : NULL,
                            projections[0] ? projections : NULL,
                            mtp == UINT8_MAX ? "the MTP layers"
                            : mtp            ? layer
                                             : NULL};
    size_t count = 0;
    for (size_t i = 0; i < 6; i++)
        count += kinds[i] != NULL;
    size_t used = strlen(c->detail);
    snprintf(c->detail + used, sizeof(c->detail) - used, "; the ignore list keeps ");
    for (size_t i = 0, shown = 0; i < 6; i++) {
        if (kinds[i] == NULL)
            continue;
        shown++;
        used = strlen(c->detail);
        snprintf(c->detail + used, sizeof(c->detail) - used, "%s%s",
                 shown == 1       ? ""
                 : shown == count ? " and "
                                  : ", ",
                 kinds[i]);
    }
    used = strlen(c->detail);
    snprintf(c->detail + used, sizeof(c->detail) - used, " in 16-bit");
}

/* compressed-tensors (llm-compressor checkpoints; vLLM
 * compressed_tensors.py _get_scheme_from_parts): the first config group's
 * weights say the bits, int or float, and the scale strategy. 8-bit float
 * is fp8 (W8A8-FP8: per tensor, channel or block); 8-bit int is W8A8 or
 * W8A16 int8 with its per-channel scale (sized as LLM.int8's layout); 4-bit
 * float in groups of 16 is NVFP4 (format nvfp4-pack-quantized: NVFP4A16
 * without, NVFP4 with activation quantization - the same weight tensors
 * bar a 4-byte input_global_scale), in groups of 32 MXFP4 (format
 * mxfp4-pack-quantized); 4-bit int in groups is W4A16 (sized
 * like AWQ: packed int4, fp16 scales and zero points per group). `ignore`
 * names the modules left unquantized. Other schemes are not sized. */
static void compressed_tensors(const json_t *q, struct gs_checkpoint *out)
{
    const json_t *groups = json_object_get(q, "config_groups");
    const json_t *scheme = NULL;
    void *first = json_is_object(groups) ? json_object_iter((json_t *)(uintptr_t)groups) : NULL;
    if (first != NULL)
        scheme = json_object_iter_value(first);
    const json_t *weights = json_object_get(scheme, "weights");
    const json_t *acts = json_object_get(scheme, "input_activations");
    const uint64_t bits = rd_member_u64(weights, "num_bits", 0);
    const json_t *type_v = json_object_get(weights, "type");
    const json_t *strategy_v = json_object_get(weights, "strategy");
    const json_t *format_v = json_object_get(q, "format");
    const char *type = json_is_string(type_v) ? json_string_value(type_v) : "";
    const char *strategy = json_is_string(strategy_v) ? json_string_value(strategy_v) : "";
    const char *format = json_is_string(format_v) ? json_string_value(format_v) : "";
    const char *scheme_name = "";
    if (bits == 8 && strcmp(type, "float") == 0) {
        out->quantized = true;
        out->format = strcmp(strategy, "block") == 0    ? GS_WF_FP8_BLOCK
                      : strcmp(strategy, "tensor") == 0 ? GS_WF_FP8
                                                        : GS_WF_FP8_PER_CHANNEL;
        scheme_name = "W8A8-FP8";
    } else if (bits == 8 && strcmp(type, "int") == 0) {
        out->quantized = true;
        out->format = GS_WF_INT8;
        scheme_name = json_is_object(acts) ? "W8A8 int8" : "W8A16 int8";
    } else if (bits == 4 && strcmp(type, "float") == 0 &&
               (rd_member_u64(weights, "group_size", 0) == 32 ||
                strcmp(format, "mxfp4-pack-quantized") == 0)) {
        /* MXFP4 (format mxfp4-pack-quantized: weight_packed, two e2m1 a byte, and a uint8
         * e8m0 weight_scale a 32 values, no global scale; Kimi K3's routed experts) */
        out->quantized = true;
        out->format = GS_WF_MXFP4;
        out->group_size = 32;
        scheme_name = "MXFP4";
    } else if (bits == 4 && strcmp(type, "float") == 0 &&
               (rd_member_u64(weights, "group_size", 0) == 16 ||
                strcmp(format, "nvfp4-pack-quantized") == 0)) {
        out->quantized = true;
        out->format = GS_WF_NVFP4;
        out->group_size = 16;
        scheme_name = json_is_object(acts) ? "NVFP4" : "NVFP4A16";
    } else if (bits == 4 && strcmp(type, "int") == 0 && strcmp(strategy, "group") == 0) {
        out->quantized = true;
        out->format = GS_WF_AWQ;
        out->group_size = rd_member_u64(weights, "group_size", 128);
        scheme_name = "W4A16";
    }
    if (!out->quantized) {
        snprintf(out->detail, sizeof(out->detail),
                 "quantization_config compressed-tensors with %llu-bit %s weights is not a format "
                 "gpusizer sizes; weights sized in bf16",
                 (unsigned long long)bits, type[0] ? type : "unknown");
        return;
    }
    read_kept(json_object_get(q, "ignore"), out);
    snprintf(out->detail, sizeof(out->detail),
             "quantization_config compressed-tensors %s: %llu-bit %s weights, %s scales",
             scheme_name, (unsigned long long)bits, type, strategy[0] ? strategy : "per-channel");
    append_kept(out);
}

/* The part a ModelOpt quantized_layers key names, as vLLM's
 * ModelOptMixedPrecisionConfig resolves a layer's prefix against the list: routed experts
 * ("...experts.3.w1", "...mlp.experts"), a dense MLP or shared expert ("mlp.down_proj",
 * "shared_expert(s)."), the head ("lm_head"), else a token mixer's projection (self_attn,
 * linear_attn, a Mamba mixer's in_proj and out_proj). GS_PART_COUNT for what gpusizer weighs
 * in 16-bit whatever a list says (vision towers and projectors, MTP layers, embeddings,
 * routers). */
static enum gs_part mixed_part(const char *key)
{
    char leaf[64];
    leaf_of(key, leaf, sizeof(leaf));
    if (has(key, "vision") || has(key, "visual") || has(key, "projector") || has(key, "mtp") ||
        has(key, "embed") || has(key, "router") || strcmp(leaf, "gate") == 0)
        return GS_PART_COUNT;
    if (has(key, "shared_expert"))
        return GS_PART_MLP;
    if (has(key, "experts"))
        return GS_PART_EXPERTS;
    if (has(key, "lm_head"))
        return GS_PART_LM_HEAD;
    if (has(key, "mlp") || has(key, "ffn") || has(key, "feed_forward"))
        return GS_PART_MLP;
    return GS_PART_ATTENTION;
}

/* A MIXED_PRECISION layer's quant_algo as a format gpusizer sizes: FP8 (per-tensor scales,
 * ModelOptFp8Config), NVFP4 and W4A16_NVFP4 (the same stored tensors, e2m1 with an fp8 scale
 * per 16; W4A16 runs them weight-only) or MXFP8 (e4m3 with an e8m0 scale per 32,
 * ModelOptMxFp8Config). False for any other. */
static bool mixed_format(const json_t *layer, enum gs_weight_format *out)
{
    const char *algo = json_string_value(json_object_get(layer, "quant_algo"));
    if (algo == NULL)
        return false;
    if (strcasecmp(algo, "FP8") == 0) {
        *out = GS_WF_FP8;
        return true;
    }
    if ((strcasecmp(algo, "NVFP4") == 0 || strcasecmp(algo, "W4A16_NVFP4") == 0) &&
        rd_member_u64(layer, "group_size", 16) == 16) {
        *out = GS_WF_NVFP4;
        return true;
    }
    if (strcasecmp(algo, "MXFP8") == 0) {
        *out = GS_WF_MXFP8;
        return true;
    }
    return false;
}

/* ModelOpt MIXED_PRECISION read a part at a time (struct gs_checkpoint.mixed_parts): every
 * key quantized_layers lists gives its part (mixed_part) its format. NVIDIA's releases keep
 * one format a part (Qwen3.6-27B: attention and linear attention FP8, MLPs and head
 * W4A16_NVFP4; Nemotron-3.5: Mamba in/out projections FP8, experts and shared experts NVFP4;
 * MiniMax-M3: attention, dense and shared MLPs MXFP8, experts NVFP4). The checkpoint's format
 * is its narrowest part's (NVFP4, else MXFP8, else FP8), which the engines' rules check.
 * False, with `why` saying which layers, when a layer's format is not one gpusizer sizes or
 * two layers of one part differ; else `what` names each part's format. */
static bool read_mixed(const json_t *layers, struct gs_checkpoint *out, char *what, size_t cap,
                       char *why, size_t why_cap)
{
    static const char *const names[GS_PART_COUNT] = {[GS_PART_ATTENTION] = "token mixers",
                                                     [GS_PART_MLP] = "dense and shared MLPs",
                                                     [GS_PART_EXPERTS] = "routed experts",
                                                     [GS_PART_LM_HEAD] = "head"};
    uint16_t parts = 0;
    uint8_t formats[GS_PART_COUNT] = {0};
    const char *key;
    const json_t *layer;
    json_object_foreach((json_t *)(uintptr_t)layers, key, layer)
    {
        enum gs_weight_format f = GS_WF_BF16;
        if (!mixed_format(layer, &f)) {
            const char *algo = json_string_value(json_object_get(layer, "quant_algo"));
            snprintf(why, why_cap, "its %.40s layers, %.60s among them",
                     algo != NULL ? algo : "unnamed", key);
            return false;
        }
        const enum gs_part p = mixed_part(key);
        if (p == GS_PART_COUNT)
            continue;
        if ((parts & (1u << p)) && formats[p] != f) {
            snprintf(why, why_cap, "its %s in two formats, %.60s among them", names[p], key);
            return false;
        }
        parts |= (uint16_t)(1u << p);
        formats[p] = (uint8_t)f;
    }
    if (parts == 0) {
        snprintf(why, why_cap, "its quantized_layers name no layer gpusizer quantizes");
        return false;
    }
    static const enum gs_weight_format narrowest[] = {GS_WF_NVFP4, GS_WF_MXFP8, GS_WF_FP8};
    out->format = GS_WF_FP8;
    for (size_t i = sizeof(narrowest) / sizeof(narrowest[0]); i-- > 0;)
        for (int p = 0; p < GS_PART_COUNT; p++)
            if ((parts & (1u << p)) && formats[p] == narrowest[i])
                out->format = (uint8_t)narrowest[i];
    out->group_size = out->format == GS_WF_NVFP4 ? 16 : 0;
    size_t used = 0;
    what[0] = '\0';
    for (int p = 0; p < GS_PART_COUNT; p++) {
        if (!(parts & (1u << p)))
            continue;
        out->part_format[p] = formats[p];
        const int n = snprintf(what + used, cap - used, "%s%s %s", used ? ", " : "", names[p],
                               formats[p] == GS_WF_NVFP4   ? "NVFP4"
                               : formats[p] == GS_WF_MXFP8 ? "MXFP8"
                                                           : "FP8 (per tensor)");
        used = n < 0 || (size_t)n >= cap - used ? cap - 1 : used + (size_t)n;
    }
    snprintf(what + used, cap - used, "; every other linear 16-bit");
    out->mixed_parts = parts;
    return true;
}

/* NVIDIA ModelOpt (TensorRT Model Optimizer), from config.json's
 * quantization_config with quant_method "modelopt" or the repository's
 * hf_quant_config.json (its "quantization" object; the hub import merges it
 * in), as vLLM's ModelOptFp8Config / ModelOptNvFp4Config read them
 * (quantization/modelopt.py): quant_algo FP8 (e4m3 weights with fp32
 * weight_scale and input_scale per tensor), NVFP4 (GS_WF_NVFP4),
 * W4A8_AWQ (int4 in groups of group_size, 128 by default, with fp8
 * activations: sized like AWQ), MXFP8 (GS_WF_MXFP8); MIXED_PRECISION whose quantized_layers are
 * all NVFP4 routed experts (DeepSeek-V4's NVFP4 releases) as NVFP4 experts, and
 * any other whose parts each keep one format gpusizer sizes part by part (read_mixed).
 * exclude_modules (or ignore) names the modules left in 16-bit. */
static void modelopt(const json_t *q, struct gs_checkpoint *out)
{
    const json_t *inner = json_object_get(q, "quantization");
    if (json_is_object(inner))
        q = inner;
    const json_t *algo_v = json_object_get(q, "quant_algo");
    const char *algo = json_is_string(algo_v) ? json_string_value(algo_v) : "";
    const char *what = "";
    char mixed[160], why[160] = "";
    if (strcmp(algo, "FP8") == 0) {
        out->format = GS_WF_FP8;
        what = "fp8 e4m3 weights with a per-tensor fp32 scale";
    } else if (strcmp(algo, "NVFP4") == 0) {
        out->format = GS_WF_NVFP4;
        out->group_size = 16;
        what = "NVFP4 weights (e2m1, an fp8 scale per 16, fp32 per-tensor scales)";
    } else if (strcmp(algo, "MXFP8") == 0) {
        out->format = GS_WF_MXFP8;
        what = "MXFP8 weights (e4m3, an e8m0 scale per 32)";
    } else if (strcmp(algo, "W4A8_AWQ") == 0) {
        out->format = GS_WF_AWQ;
        out->group_size = rd_member_u64(q, "group_size", 128);
        what = "int4 weights in groups with fp8 activations (sized as AWQ)";
    } else if (strcmp(algo, "MIXED_PRECISION") == 0) {
        const json_t *layers = json_object_get(q, "quantized_layers");
        const char *key;
        const json_t *layer;
        bool experts_nvfp4 = json_object_size(layers) > 0;
        json_object_foreach((json_t *)(uintptr_t)layers, key, layer)
        {
            const json_t *a = json_object_get(layer, "quant_algo");
            experts_nvfp4 = experts_nvfp4 && has(key, "experts") && !has(key, "shared") &&
                            json_is_string(a) && has(json_string_value(a), "NVFP4");
        }
        if (experts_nvfp4) {
            out->format = GS_WF_NVFP4;
            out->group_size = 16;
            out->experts_only = true;
            what = "mixed precision: NVFP4 routed experts, the rest 16-bit";
        } else if (read_mixed(layers, out, mixed, sizeof(mixed), why, sizeof(why))) {
            what = mixed;
        }
    }
    if (what[0] == '\0') {
        snprintf(out->detail, sizeof(out->detail),
                 "ModelOpt quant_algo \"%.40s\" is not a format gpusizer sizes%s%.120s%s; weights "
                 "sized in bf16 (name a precision to size them)",
                 algo, why[0] ? " (" : "", why, why[0] ? ")" : "");
        return;
    }
    out->quantized = true;
    /* hf_quant_config.json says exclude_modules; a config.json's own quantization_config
     * (nvidia/MiniMax-M2.5-NVFP4) may say ignore, as compressed-tensors does */
    const json_t *excluded = json_object_get(q, "exclude_modules");
    read_kept(json_is_array(excluded) ? excluded : json_object_get(q, "ignore"), out);
    snprintf(out->detail, sizeof(out->detail), "ModelOpt %s: %s", algo, what);
    append_kept(out);
}

/* AutoRound (Intel; transformers AutoRoundConfig, vLLM auto_round.py):
 * quant_method auto-round with bits and group_size, exported in GPTQ's
 * layout (packing_format auto_round:auto_gptq, the default) or AWQ's
 * (auto_round:auto_awq); 4-bit is sized as that layout. */
static void auto_round(const json_t *q, struct gs_checkpoint *out)
{
    const json_t *packing_v = json_object_get(q, "packing_format");
    if (!json_is_string(packing_v))
        packing_v = json_object_get(q, "backend");
    const char *packing = json_is_string(packing_v) ? json_string_value(packing_v) : "";
    const uint64_t bits = rd_member_u64(q, "bits", 0);
    if (bits != 4) {
        snprintf(out->detail, sizeof(out->detail),
                 "quantization_config auto-round with %llu-bit weights is not a format gpusizer "
                 "sizes; weights sized in bf16",
                 (unsigned long long)bits);
        return;
    }
    out->quantized = true;
    out->format = has(packing, "awq") ? GS_WF_AWQ : GS_WF_GPTQ;
    out->group_size = rd_member_u64(q, "group_size", 128);
    snprintf(out->detail, sizeof(out->detail),
             "quantization_config auto-round 4-bit, group size %llu, in %s's layout",
             (unsigned long long)out->group_size, out->format == GS_WF_AWQ ? "AWQ" : "GPTQ");
}

/* bitsandbytes (transformers BitsAndBytesConfig): load_in_4bit with
 * bnb_4bit_quant_type nf4 or fp4 (both 4 bits with an fp32 absmax per 64;
 * bnb_4bit_use_double_quant quantizes the absmax too), else 8-bit LLM.int8;
 * llm_int8_skip_modules names the modules left in 16-bit. */
static void bitsandbytes(const json_t *q, struct gs_checkpoint *out)
{
    const json_t *four = json_object_get(q, "load_in_4bit");
    if (!json_is_boolean(four))
        four = json_object_get(q, "_load_in_4bit");
    const json_t *dq = json_object_get(q, "bnb_4bit_use_double_quant");
    const json_t *type_v = json_object_get(q, "bnb_4bit_quant_type");
    const char *type = json_is_string(type_v) ? json_string_value(type_v) : "nf4";
    out->quantized = true;
    if (json_is_true(four))
        out->format = json_is_true(dq) ? GS_WF_NF4_DQ : GS_WF_NF4;
    else
        out->format = GS_WF_INT8;
    read_kept(json_object_get(q, "llm_int8_skip_modules"), out);
    if (json_is_true(four))
        snprintf(out->detail, sizeof(out->detail), "quantization_config bitsandbytes 4-bit %.8s%s",
                 type, json_is_true(dq) ? " with double quantization" : "");
    else
        snprintf(out->detail, sizeof(out->detail),
                 "quantization_config bitsandbytes 8-bit (LLM.int8)");
    append_kept(out);
}

/* quantization_config as transformers and vLLM read it: quant_method fp8
 * with weight_block_size [128, 128] (DeepSeek-V3, Kimi-K2), compressed-
 * tensors, modelopt (config.json's own or hf_quant_config.json merged in by
 * the hub import), gptq/awq with bits 4 and group_size, auto-round,
 * bitsandbytes, mxfp4 (gpt-oss: experts only, modules_to_not_convert names
 * the rest). */
void models_read_checkpoint(const json_t *config, struct gs_checkpoint *out)
{
    memset(out, 0, sizeof(*out));
    const json_t *q = json_object_get(config, "quantization_config");
    if (!json_is_object(q)) {
        const json_t *text = json_object_get(config, "text_config");
        q = json_is_object(text) ? json_object_get(text, "quantization_config") : NULL;
    }
    if (!json_is_object(q))
        return;
    const json_t *method_v = json_object_get(q, "quant_method");
    const char *method = json_is_string(method_v) ? json_string_value(method_v) : "";
    /* ModelOpt's own export may name no quant_method, only its producer and quant_algo
     * (nvidia's Qwen3-32B-FP8-Static-PerTensor); vLLM's ModelOpt configs claim it by the
     * quant_algo they find (override_quantization_method) */
    const json_t *producer = json_object_get(json_object_get(q, "producer"), "name");
    if (method[0] == '\0' && json_is_string(producer) &&
        strcmp(json_string_value(producer), "modelopt") == 0)
        method = "modelopt";
    const uint64_t bits = rd_member_u64(q, "bits", 0);
    /* DeepSeek-V4 names expert_dtype beside quantization_config, DeepSeek-V4.1 inside it */
    const json_t *expert_dtype = json_object_get(config, "expert_dtype");
    if (expert_dtype == NULL)
        expert_dtype = json_object_get(q, "expert_dtype");
    if (strcmp(method, "fp8") == 0 && json_is_string(expert_dtype) &&
        strcmp(json_string_value(expert_dtype), "fp4") == 0) {
        /* DeepSeek-V4: MXFP4 routed experts beside fp8 linears (vLLM DeepseekV4FP8Config:
         * "DeepSeek V4 checkpoints always use FP8 block quantization for linear/attention
         * layers", Mxfp4MoEMethod for expert_dtype "fp4"; the head, a ParallelLMHead, stays
         * 16-bit): a mixed checkpoint, its attention and shared experts fp8 in 128x128 blocks.
         * Their block scales are e8m0 bytes there, sized as fp32 (3 bytes a 16,384 values
         * more) */
        out->quantized = true;
        out->format = GS_WF_MXFP4;
        /* (DeepSeek-V4.1's Engram wkv, in GS_PART_OTHER, is an fp8 linear too) */
        out->mixed_parts = (uint16_t)((1u << GS_PART_ATTENTION) | (1u << GS_PART_MLP) |
                                      (1u << GS_PART_EXPERTS) | (1u << GS_PART_OTHER));
        out->part_format[GS_PART_ATTENTION] = GS_WF_FP8_BLOCK;
        out->part_format[GS_PART_MLP] = GS_WF_FP8_BLOCK;
        out->part_format[GS_PART_OTHER] = GS_WF_FP8_BLOCK;
        out->part_format[GS_PART_EXPERTS] = GS_WF_MXFP4;
        const json_t *block = json_object_get(q, "weight_block_size");
        const uint64_t side = json_is_integer(json_array_get(block, 0))
                                  ? (uint64_t)json_integer_value(json_array_get(block, 0))
                                  : 128;
        /* DeepSeek-V4.1's 32x32 blocks keep one e8m0 byte a 1,024 values where gpusizer's fp8
         * block format keeps 4 bytes a 16,384: 7,227,904 bytes of scales in its checkpoint
         * sized as 1,806,976 (tests/fixtures/configs/deepseek_v41/README.md) */
        snprintf(out->detail, sizeof(out->detail),
                 "quantization_config fp8 with expert_dtype fp4: MXFP4 routed experts, attention "
                 "and shared experts fp8 in %llux%llu blocks, head and embeddings 16-bit",
                 (unsigned long long)side, (unsigned long long)side);
    } else if (strcmp(method, "fp8") == 0) {
        const json_t *block = json_object_get(q, "weight_block_size");
        out->quantized = true;
        /* vLLM Fp8LinearMethod.create_weights: a serialized checkpoint without weight_block_size
         * keeps one fp32 weight_scale a tensor (PerTensorScaleParameter over the fused
         * partitions), which process_weights_after_loading requantizes to one */
        out->format = json_is_array(block) ? GS_WF_FP8_BLOCK : GS_WF_FP8;
        /* vLLM Fp8Config.from_config: ignored_layers, else (absent or empty)
         * modules_to_not_convert - MiMo-V2-Flash and MiMo-V2.5 keep every o_proj in bf16 so */
        const json_t *ignored = json_object_get(q, "ignored_layers");
        read_kept(json_array_size(ignored) > 0 ? ignored
                                               : json_object_get(q, "modules_to_not_convert"),
                  out);
        snprintf(out->detail, sizeof(out->detail), "quantization_config fp8 e4m3 %s",
                 json_is_array(block) ? "with 128x128 block scales (fp32 weight_scale_inv)"
                                      : "with a per-tensor fp32 scale");
        append_kept(out);
    } else if (strcmp(method, "compressed-tensors") == 0) {
        compressed_tensors(q, out);
    } else if (strcmp(method, "modelopt") == 0) {
        modelopt(q, out);
    } else if ((strcmp(method, "gptq") == 0 || strcmp(method, "awq") == 0) && bits == 4) {
        out->quantized = true;
        out->format = method[0] == 'g' ? GS_WF_GPTQ : GS_WF_AWQ;
        out->group_size = rd_member_u64(q, "group_size", 128);
        snprintf(out->detail, sizeof(out->detail), "quantization_config %s 4-bit, group size %llu",
                 method, (unsigned long long)out->group_size);
    } else if (strcmp(method, "auto-round") == 0 || strcmp(method, "auto_round") == 0 ||
               strcmp(method, "intel/auto-round") == 0) {
        auto_round(q, out);
    } else if (strcmp(method, "bitsandbytes") == 0) {
        bitsandbytes(q, out);
    } else if (strcmp(method, "mxfp4") == 0) {
        out->quantized = true;
        out->format = GS_WF_MXFP4;
        out->experts_only = true;
        snprintf(
            out->detail, sizeof(out->detail),
            "quantization_config mxfp4: routed experts in MXFP4 (4-bit e2m1, an 8-bit scale per "
            "32), attention, router, embeddings and head in bf16");
    } else if (out->detail[0] == '\0') {
        snprintf(
            out->detail, sizeof(out->detail),
            "quantization_config quant_method \"%.40s\" is not a format gpusizer sizes; weights "
            "sized in bf16 (name a precision to size them)",
            method);
    }
}
