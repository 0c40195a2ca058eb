/*
 * arch_fixture.c - see arch_fixture.h.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "arch_fixture.h"

#include "readers/models.h"
#include "formats/json_lenient.h"

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
    const enum gs_status st = models_read(config, "", &arch, &err);
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

static json_t *load_file(const char *relative, char *path, size_t cap)
{
    snprintf(path, cap, "%s/%s", GS_FIXTURES_DIR, relative);
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
    return config;
}

struct gs_arch fixture_arch_file_set(const char *relative, const char *key, const char *value)
{
    return fixture_arch_file_set_in(relative, NULL, key, value);
}

struct gs_arch fixture_arch_file_set_in(const char *relative, const char *object, const char *key,
                                        const char *value)
{
    char path[1024];
    json_t *config = load_file(relative, path, sizeof(path));
    json_t *target = config != NULL && object != NULL ? json_object_get(config, object) : config;
    if (!json_is_object(target))
        fail_msg("%s: no object %s", path, object ? object : "");
    if (value == NULL) {
        if (json_object_del(target, key) != 0)
            fail_msg("%s: no member %s to remove", path, key);
        return read_json(config, path);
    }
    json_error_t jerr;
    json_t *v = json_loads(value, JSON_DECODE_ANY, &jerr); /* a number or string too */
    if (v == NULL || json_object_set_new(target, key, v) != 0)
        fail_msg("%s: cannot set %s", path, key);
    return read_json(config, path);
}

struct gs_arch fixture_arch_file(const char *relative)
{
    char path[1024];
    json_t *config = load_file(relative, path, sizeof(path));
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

struct gs_arch fixture_small_mla(void)
{
    return fixture_arch(
        "{\"model_type\":\"deepseek_v3\",\"hidden_size\":64,\"intermediate_size\":128,"
        "\"num_attention_heads\":4,\"num_key_value_heads\":4,\"num_hidden_layers\":2,"
        "\"kv_lora_rank\":32,\"q_lora_rank\":null,\"qk_nope_head_dim\":16,"
        "\"qk_rope_head_dim\":8,\"v_head_dim\":16,\"first_k_dense_replace\":2,"
        "\"n_routed_experts\":4,\"num_experts_per_tok\":2,\"moe_intermediate_size\":32,"
        "\"n_shared_experts\":1,\"vocab_size\":1000}");
}

void fixture_framework_release(struct gs_parallelism *par, struct gs_training_knobs *knobs,
                               enum gs_framework framework, uint32_t version)
{
    gs_parallelism_defaults(par);
    memset(knobs, 0, sizeof(*knobs));
    knobs->framework = framework;
    knobs->framework_version = version;
}

struct gs_activation_input fixture_one_sequence(const struct gs_arch *a,
                                                const struct gs_parallelism *par,
                                                const struct gs_framework_rules *rules,
                                                uint64_t sequence_length, bool flash_attention)
{
    return (struct gs_activation_input){.arch = a,
                                        .batch_size = 1,
                                        .sequence_length = sequence_length,
                                        .micro_batches = 1,
                                        .element_bytes = 2,
                                        .recompute = GS_RECOMPUTE_NONE,
                                        .flash_attention = flash_attention,
                                        .parallelism = par,
                                        .rules = rules};
}

const struct gs_assumption *fixture_assumption(const struct gs_estimate *e, const char *name)
{
    for (size_t i = 0; i < e->assumption_count; i++)
        if (strcmp(e->assumptions[i].name, name) == 0)
            return &e->assumptions[i];
    return NULL;
}

bool fixture_warned(const struct gs_estimate *e, const char *code)
{
    for (size_t i = 0; i < e->warning_count; i++)
        if (strcmp(e->warnings[i].code, code) == 0)
            return true;
    return false;
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

void fixture_lora_qv(struct gs_training *training, uint64_t rank)
{
    training->method = GS_METHOD_LORA;
    training->method_given = true;
    training->lora_rank = rank;
    training->lora_target_count = 2;
    strcpy(training->lora_targets[0], "q_proj");
    strcpy(training->lora_targets[1], "v_proj");
}

void fixture_assert_parts_sum(const struct gs_param_count *c)
{
    assert_int_equal(c->embedding + c->attention + c->mlp + c->experts + c->norms + c->lm_head +
                         c->other + c->vision + c->audio,
                     c->total);
}

/* Reads `config_json` with its reader's errors under `prefix`; the status. */
static enum gs_status read_errors(const char *config_json, const char *prefix, struct gs_error *err)
{
    json_error_t jerr;
    json_t *config = json_loads(config_json, 0, &jerr);
    if (config == NULL)
        fail_msg("not JSON: %s", config_json);
    /* static: an architecture is too large for a test's stack to hold twice */
    static struct gs_arch arch;
    gs_error_init(err);
    const enum gs_status st = models_read(config, prefix, &arch, err);
    json_decref(config);
    return st;
}

void fixture_assert_reader_error(const char *config_json, const char *pointer)
{
    struct gs_error err;
    assert_int_not_equal(read_errors(config_json, "", &err), GS_OK);
    assert_true(err.count > 0);
    assert_string_equal(err.items[0].pointer, pointer);
}

void fixture_assert_refused(const char *config_json, enum gs_status status,
                            const char *const *pointers)
{
    struct gs_error err;
    assert_int_equal(read_errors(config_json, "/model/config", &err), status);
    size_t n = 0;
    for (; pointers[n] != NULL; n++) {
        assert_true(n < err.count);
        assert_string_equal(err.items[n].pointer, pointers[n]);
    }
    assert_int_equal(err.count, n);
}

struct fixture_kinds fixture_layer_kinds(const struct gs_arch *arch)
{
    uint64_t counts[GS_BLOCKS_MAX];
    gs_arch_count_blocks(arch, 0, arch->num_hidden_layers, counts);
    struct fixture_kinds k = {0, 0, 0, 0, 0};
    for (size_t b = 0; b < arch->block_count; b++) {
        switch (arch->blocks[b].mixer) {
        case GS_MIXER_ATTENTION:
            k.attention += counts[b];
            break;
        case GS_MIXER_MLA:
            k.mla += counts[b];
            break;
        case GS_MIXER_RECURRENT:
            k.recurrent += counts[b];
            break;
        default:
            k.none += counts[b];
            break;
        }
        if (arch->blocks[b].mlp.kind == GS_MLP_MOE)
            k.moe += counts[b];
    }
    return k;
}

void fixture_assert_kinds(const struct gs_arch *arch, struct fixture_kinds want)
{
    const struct fixture_kinds k = fixture_layer_kinds(arch);
    assert_int_equal(k.attention, want.attention);
    assert_int_equal(k.mla, want.mla);
    assert_int_equal(k.recurrent, want.recurrent);
    assert_int_equal(k.none, want.none);
    assert_int_equal(k.moe, want.moe);
    assert_int_equal(want.attention + want.mla + want.recurrent + want.none,
                     arch->num_hidden_layers);
}

struct gs_kv_layout fixture_layout_as(const struct gs_arch *arch, enum gs_kv_dtype dtype,
                                      uint64_t tensor)
{
    struct gs_kv_layout kv;
    struct gs_error err;
    gs_error_init(&err);
    if (gs_kv_layout_for(arch, dtype, 2, tensor, 1, &kv, &err) != GS_OK)
        fail_msg("%s: no KV layout at tensor %llu: %s %s", arch->model_type,
                 (unsigned long long)tensor, err.count ? err.items[0].pointer : "",
                 err.count ? err.items[0].detail : "");
    return kv;
}

struct gs_kv_layout fixture_layout(const struct gs_arch *arch, uint64_t tensor)
{
    return fixture_layout_as(arch, GS_KV_AUTO, tensor);
}

void fixture_assert_cache(const struct gs_arch *arch, uint64_t tensor, uint64_t token_bytes,
                          uint64_t state_bytes)
{
    const struct gs_kv_layout kv = fixture_layout(arch, tensor);
    assert_int_equal(kv.bytes_per_token, token_bytes);
    assert_int_equal(kv.state_bytes_per_sequence, state_bytes);
}

struct gs_workload fixture_vllm_workload(uint64_t batch, uint64_t context, uint64_t tensor,
                                         uint64_t gpu_bytes)
{
    struct gs_workload w = fixture_workload(GS_MODE_INFERENCE);
    w.serving.present = true;
    w.serving.batch_size = batch;
    w.serving.context_length = context;
    w.serving.engine.engine = GS_ENGINE_VLLM;
    w.parallelism.tensor = tensor;
    w.gpu.total_bytes = gpu_bytes;
    return w;
}

struct gs_estimate fixture_estimate(const struct gs_arch *arch, const struct gs_workload *workload)
{
    const struct gs_model_spec m = fixture_spec(arch);
    struct gs_estimate e;
    struct gs_error err;
    gs_error_init(&err);
    if (gs_estimate_compute(&m, workload, &e, &err) != GS_OK)
        fail_msg("%s %s: %s %s", arch->model_type,
                 workload->mode == GS_MODE_TRAINING ? "training" : "inference",
                 err.count ? err.items[0].pointer : "", err.count ? err.items[0].detail : "");
    return e;
}

uint64_t fixture_assert_vllm_serving(const struct gs_arch *arch, uint64_t batch, uint64_t tensor,
                                     uint64_t gpu_bytes)
{
    const uint64_t context = 4096, block = 16;
    const struct gs_workload w = fixture_vllm_workload(batch, context, tensor, gpu_bytes);
    const struct gs_estimate e = fixture_estimate(arch, &w);
    assert_true(e.has_serving);
    const struct gs_kv_layout kv = fixture_layout(arch, tensor);
    assert_int_equal(e.serving.kv.bytes_per_token, kv.bytes_per_token);
    if (kv.recurrent_layers && kv.full_layers && kv.window_count == 0 &&
        kv.indexer_token_bytes == 0) {
        /* attention + recurrent: vLLM's hybrid pages (docs/serving-memory.md). The attention
         * block grows in steps of 16 tokens until its page holds a layer's state; a sequence
         * takes a block per block-size tokens in each attention group and one in each state
         * group (prefix caching off), each block a page of every layer slot of a group */
        const uint64_t token = kv.full_token_bytes / kv.full_layers;
        const uint64_t state = kv.state_bytes_per_sequence / kv.recurrent_layers;
        const struct gs_kv_pages *pg = &e.serving.pages;
        assert_int_equal(e.serving.block_size, 16 * ((state + 16 * token - 1) / (16 * token)));
        assert_int_equal(pg->page_bytes, e.serving.block_size * token);
        assert_true(pg->page_bytes >= state && pg->page_bytes - state < 16 * token);
        assert_int_equal(pg->state_blocks, 1);
        assert_int_equal(pg->full_groups * pg->group_layers >= kv.full_layers, true);
        assert_int_equal(pg->state_groups * pg->group_layers >= kv.recurrent_layers, true);
        const uint64_t per_group = (context + e.serving.block_size - 1) / e.serving.block_size;
        const uint64_t seq = pg->page_bytes * pg->group_layers *
                             (pg->full_groups * per_group + pg->state_groups);
        assert_int_equal(e.serving.kv_needed_bytes, batch * seq);
        assert_int_equal(e.per_gpu.kv_cache_bytes, batch * seq);
        return seq;
    }
    assert_int_equal(e.serving.block_size, block);
    bool ovf = false;
    const uint64_t seq =
        gs_kv_sequence_bytes(&kv, context, 0, block, e.serving.max_num_batched_tokens, &ovf);
    assert_false(ovf);
    /* 4096 is whole blocks, so the bounds need no rounding; without windows
     * they meet: every layer holds every token */
    const uint64_t fixed = kv.state_bytes_per_sequence;
    assert_true(seq >= context * (kv.full_token_bytes + kv.indexer_token_bytes) + fixed);
    assert_true(seq <= context * (kv.bytes_per_token + kv.indexer_token_bytes) + fixed);
    if (kv.window_count == 0)
        assert_int_equal(kv.full_token_bytes, kv.bytes_per_token);
    assert_int_equal(e.serving.kv_needed_bytes, batch * seq);
    assert_int_equal(e.per_gpu.kv_cache_bytes, batch * seq);
    assert_true(e.per_gpu.weights_bytes * tensor >= 2 * e.params.total);
    return seq;
}

struct gs_inference_input fixture_llama3_8b_on_h100(const struct gs_arch *a)
{
    struct gs_inference_input in;
    memset(&in, 0, sizeof(in));
    in.arch = a;
    in.weights_bytes = 16060522496ULL; /* 8,030,261,248 x 2 */
    in.batch_size = 1;
    in.context_length = 8192;
    in.tensor = in.pipeline = 1;
    in.model_bytes = 2;
    in.gpu.total_bytes = 85061827297ULL; /* 79.22 GiB */
    in.engine.engine = GS_ENGINE_VLLM;
    return in;
}

void fixture_perf_one_sequence(struct fixture_perf *p, const struct gs_arch *arch,
                               const struct gs_kv_layout *kv, uint64_t prompt)
{
    memset(p, 0, sizeof(*p));
    p->gpu = (struct gs_perf_gpu){3350, 989, 989, 900, 5};
    gs_efficiency_defaults(&p->eff);
    p->eff.decode_bandwidth_permille = 1000;
    p->eff.decode_compute_permille = 1000;
    p->eff.prefill_permille = 1000;
    p->eff.stack_compute_permille = 1000;
    p->in.arch = arch;
    p->in.tensor = p->in.pipeline = p->in.batch = 1;
    p->in.prompt_tokens = prompt;
    p->in.kv = kv;
}

struct gs_inference_input fixture_vllm_one_sequence(const struct gs_arch *arch, uint64_t tensor,
                                                    uint64_t gpu_bytes)
{
    struct gs_inference_input in;
    memset(&in, 0, sizeof(in));
    in.arch = arch;
    in.batch_size = 1;
    in.context_length = 4096;
    in.tensor = tensor;
    in.pipeline = 1;
    in.model_bytes = 2;
    in.engine.engine = GS_ENGINE_VLLM;
    in.gpu.total_bytes = gpu_bytes;
    return in;
}
