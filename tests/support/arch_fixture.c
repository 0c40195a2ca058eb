/*
 * arch_fixture.c - see arch_fixture.h.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "arch_fixture.h"

#include "hfconfig.h"
#include "json_lenient.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef GS_FIXTURES_DIR
#error "GS_FIXTURES_DIR must name tests/fixtures/configs"
#endif

static struct gs_arch read_json(json_t *config, const char *what)
{
    struct gs_arch arch;
    struct gs_error err;
    gs_error_init(&err);
    if (config == NULL)
        fail_msg("%s: not JSON", what);
    const enum gs_status st = hfconfig_to_arch(config, "", &arch, &err);
    json_decref(config);
    if (st != GS_OK)
        fail_msg("%s: %s %s", what, err.count ? err.items[0].pointer : "",
                 err.count ? err.items[0].detail : "");
    return arch;
}

struct gs_arch fixture_arch(const char *fmt, ...)
{
    char text[8192];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof(text), fmt, ap);
    va_end(ap);
    json_error_t jerr;
    return read_json(json_loads(text, JSON_ALLOW_NUL, &jerr), text);
}

struct gs_arch fixture_arch_file(const char *relative)
{
    char path[1024];
    snprintf(path, sizeof(path), "%s/%s", GS_FIXTURES_DIR, relative);
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        fail_msg("%s: cannot open", path);
    char *buf = malloc(1 << 20);
    if (buf == NULL)
        fail_msg("out of memory");
    const size_t n = fread(buf, 1, (1 << 20) - 1, f);
    fclose(f);
    buf[n] = '\0';
    json_error_t jerr;
    json_t *config = json_load_lenient(buf, n, 0, &jerr);
    free(buf);
    return read_json(config, path);
}

struct gs_param_count fixture_count(const struct gs_arch *arch)
{
    struct gs_param_count c;
    struct gs_error err;
    gs_error_init(&err);
    if (gs_arch_count_params(arch, &c, &err) != GS_OK)
        fail_msg("%s: %s %s", arch->model_type, err.count ? err.items[0].pointer : "",
                 err.count ? err.items[0].detail : "");
    return c;
}

struct gs_arch fixture_typed(const char *type, uint64_t h, uint64_t L, uint64_t a, uint64_t k,
                             uint64_t i, uint64_t V, bool tied, uint64_t head_dim)
{
    char extra[64] = "";
    if (head_dim)
        snprintf(extra, sizeof(extra), ",\"head_dim\":%llu", (unsigned long long)head_dim);
    return fixture_arch("{\"model_type\":\"%s\",\"hidden_size\":%llu,\"num_hidden_layers\":%llu,"
                        "\"num_attention_heads\":%llu,\"num_key_value_heads\":%llu,"
                        "\"intermediate_size\":%llu,\"vocab_size\":%llu,"
                        "\"tie_word_embeddings\":%s%s}",
                        type, (unsigned long long)h, (unsigned long long)L, (unsigned long long)a,
                        (unsigned long long)k, (unsigned long long)i, (unsigned long long)V,
                        tied ? "true" : "false", extra);
}

struct gs_arch fixture_llama(uint64_t h, uint64_t L, uint64_t a, uint64_t k, uint64_t i,
                             uint64_t V, bool tied)
{
    return fixture_typed("llama", h, L, a, k, i, V, tied, 0);
}

struct gs_arch fixture_deepseek_v3_with(const char *extra)
{
    return fixture_arch(
        "{\"model_type\":\"deepseek_v3\",\"hidden_size\":7168,\"num_hidden_layers\":61,"
        "\"num_attention_heads\":128,\"num_key_value_heads\":128,\"intermediate_size\":18432,"
        "\"vocab_size\":129280,\"q_lora_rank\":1536,\"kv_lora_rank\":512,"
        "\"qk_nope_head_dim\":128,\"qk_rope_head_dim\":64,\"v_head_dim\":128,"
        "\"moe_intermediate_size\":2048,\"n_routed_experts\":256,\"num_experts_per_tok\":8,"
        "\"n_shared_experts\":1,\"first_k_dense_replace\":3,\"moe_layer_freq\":1,"
        "%s\"tie_word_embeddings\":false}",
        extra);
}

struct gs_arch fixture_deepseek_v3(void)
{
    return fixture_deepseek_v3_with("");
}

struct gs_arch fixture_mixtral_8x7b(void)
{
    return fixture_arch(
        "{\"model_type\":\"mixtral\",\"hidden_size\":4096,\"num_hidden_layers\":32,"
        "\"num_attention_heads\":32,\"num_key_value_heads\":8,\"intermediate_size\":14336,"
        "\"vocab_size\":32000,\"num_local_experts\":8,\"num_experts_per_tok\":2,"
        "\"tie_word_embeddings\":false}");
}

struct gs_model_spec fixture_spec(const struct gs_arch *arch)
{
    struct gs_model_spec m;
    memset(&m, 0, sizeof(m));
    m.has_arch = true;
    m.arch = *arch;
    return m;
}

struct gs_workload fixture_workload(enum gs_mode mode)
{
    struct gs_workload w;
    memset(&w, 0, sizeof(w));
    w.mode = mode;
    w.weights = GS_DTYPE_BF16;
    gs_training_defaults(&w.training);
    gs_parallelism_defaults(&w.parallelism);
    return w;
}
