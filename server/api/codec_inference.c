/* codec_inference.c - inference sections and results (see codec_inference.h). */
#include "api/codec_inference.h"
#include "api/codec_training.h"

#include "formats/json_out.h"
#include "embedded.h"
#include "gs/engines.h"
#include "gs/sglang.h"
#include "gs/vllm.h"
#include "formats/jsonv.h"

#include <math.h>
#include <pthread.h>
#include <string.h>

static const char *const inference_keys[] = {"batch_size",
                                             "context_length",
                                             "prompt_tokens",
                                             "output_tokens",
                                             "engine",
                                             "kv_cache_dtype",
                                             "gpu_memory_utilization",
                                             "free_memory_fraction",
                                             "mem_fraction_static",
                                             "cuda_memory_fraction",
                                             "block_size",
                                             "max_num_batched_tokens",
                                             "max_num_seqs",
                                             "engine_version",
                                             "enforce_eager",
                                             "enable_chunked_prefill",
                                             "kv_cache_memory_bytes",
                                             "cpu_offload_gb",
                                             "memory_in_use_bytes",
                                             "all2all_backend",
                                             "sequence_tokens",
                                             "enable_prefix_caching",
                                             "speculative",
                                             "limit_mm_per_prompt",
                                             "model_runner",
                                             "entrypoint",
                                             "engram_tables",
                                             "max_mamba_cache_size",
                                             "mamba_full_memory_ratio",
                                             "mamba_ssm_dtype",
                                             "cuda_graph_max_bs",
                                             "disaggregation_mode",
                                             "swa_full_tokens_ratio",
                                             "disable_hybrid_swa_memory",
                                             NULL};
static const char *const inference_parallelism_keys[] = {"tensor", "pipeline", "data", "expert",
                                                          "stage_gpus", "stage_layers", NULL};
/* vLLM --all2all-backend; naive and allgather_reducescatter both run over NCCL */
static const char *const all2all_names[] = {"allgather_reducescatter", "naive",
                                            "deepep_high_throughput", "deepep_low_latency", NULL};
static const uint8_t all2all_backend[] = {GS_ALL2ALL_NCCL, GS_ALL2ALL_NCCL, GS_ALL2ALL_DEEPEP_HT,
                                          GS_ALL2ALL_DEEPEP_LL};

#define TOKENS_MAX ((uint64_t)1 << 24)

static void read_uint(const json_t *section, const char *key, uint64_t min, uint64_t max,
                      uint64_t *out, bool *ok, struct gs_error *err)
{
    const json_t *v = json_object_get(section, key);
    if (v == NULL)
        return;
    char where[JSONV_POINTER_MAX];
    jsonv_pointer(where, sizeof(where), "/inference", key);
    if (!jsonv_uint(v, where, min, max, out, err))
        *ok = false;
}

/* A fraction in (0, 1], stored in thousandths. */
static void read_fraction(const json_t *section, const char *key, uint64_t *permille, bool *ok,
                          struct gs_error *err)
{
    const json_t *v = json_object_get(section, key);
    if (v == NULL)
        return;
    char where[JSONV_POINTER_MAX];
    jsonv_pointer(where, sizeof(where), "/inference", key);
    const double x = json_is_number(v) ? json_number_value(v) : -1;
    if (!(x > 0 && x <= 1)) {
        gs_error_add(err, GS_ERR_INVALID, where, "must be a number above 0 and at most 1");
        *ok = false;
        return;
    }
    *permille = (uint64_t)llround(x * 1000);
    if (*permille == 0)
        *permille = 1;
}

/* The digits after a PEP 440 tag ("rc", "post", "dev") at *p, skipped; false when none. */
static bool skip_tag(const char **p, const char *tag)
{
    const size_t n = strlen(tag);
    if (strncmp(*p, tag, n) != 0 || (*p)[n] < '0' || (*p)[n] > '9')
        return false;
    *p += n;
    while (**p >= '0' && **p <= '9')
        (*p)++;
    return true;
}

/* "0.19.0", "0.10.1.1", "v0.6.4", "0.4.3.post4", "1.3.0rc25", "0.22.1rc1.dev16+ge9499996d":
 * major.minor.patch, each part below 100. A fourth part or a .postN suffix is a post-release
 * of the same rules; a pre-release (aN, bN, rcN: TensorRT-LLM ships its 1.x line as release
 * candidates), a nightly's .devN and a +local label are read as the release they lead to. */
bool codec_parse_engine_version(const char *text, uint32_t *out)
{
    unsigned part[3] = {0, 0, 0};
    size_t n = 0;
    const char *p = text;
    if (*p == 'v')
        p++;
    while (n < 4) {
        if (n >= 2 && *p == 'p') {
            if (!skip_tag(&p, "post")) /* SGLang's and vLLM's post-releases */
                return false;
            break;
        }
        if (*p < '0' || *p > '9')
            return false;
        unsigned v = 0;
        while (*p >= '0' && *p <= '9' && v < 1000)
            v = v * 10 + (unsigned)(*p++ - '0');
        if (v >= 100)
            return false;
        if (n < 3)
            part[n] = v;
        n++;
        if (n >= 2 && (skip_tag(&p, "rc") || skip_tag(&p, "a") || skip_tag(&p, "b"))) {
            if (*p == '.' && p[1] == 'p' && (p++, !skip_tag(&p, "post")))
                return false;
            break;
        }
        if (*p == '\0' || *p == '+')
            break;
        if (*p == '.' && p[1] == 'd')
            break;
        if (*p++ != '.')
            return false;
    }
    if (*p == '.' && p[1] == 'd' && (p++, !skip_tag(&p, "dev")))
        return false;
    if (*p == '+') { /* a local label: letters, digits and dots */
        if (*++p == '\0')
            return false;
        while ((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
               *p == '.')
            p++;
    }
    if (*p != '\0' || n < 2)
        return false;
    *out = part[0] * 10000 + part[1] * 100 + part[2];
    return *out != 0;
}

/* An engine switch left to the engine's default when absent: GS_CHUNKED_PREFILL_*. */
static void read_switch(const json_t *section, const char *key, uint8_t *out, bool *ok,
                        struct gs_error *err)
{
    const json_t *v = json_object_get(section, key);
    if (v == NULL)
        return;
    char where[JSONV_POINTER_MAX];
    jsonv_pointer(where, sizeof(where), "/inference", key);
    bool on = false;
    if (jsonv_bool(v, where, &on, err))
        *out = on ? GS_CHUNKED_PREFILL_ON : GS_CHUNKED_PREFILL_OFF;
    else
        *ok = false;
}

static const char *const speculative_keys[] = {"method", "num_speculative_tokens", "draft", NULL};

/* "speculative": {"method": ..., "num_speculative_tokens": N} (vLLM
 * --speculative-config, SGLang --speculative-algorithm). */
static void read_speculative(const json_t *section, struct gs_engine_config *e, bool *ok,
                             struct gs_error *err)
{
    const json_t *v = json_object_get(section, "speculative");
    if (v == NULL || json_is_null(v))
        return;
    if (!json_is_object(v)) {
        gs_error_add(err, GS_ERR_INVALID, "/inference/speculative",
                     "must be an object such as {\"method\": \"mtp\", "
                     "\"num_speculative_tokens\": 1}, got %s",
                     jsonv_type_name(v));
        *ok = false;
        return;
    }
    if (!jsonv_only_keys(v, "/inference/speculative", speculative_keys, err)) {
        *ok = false;
        return;
    }
    const json_t *method = json_object_get(v, "method");
    int choice = 0;
    if (method == NULL) {
        gs_error_add(err, GS_ERR_INVALID, "/inference/speculative/method", "is required");
        *ok = false;
    } else if (jsonv_enum(method, "/inference/speculative/method", gs_spec_method_names, &choice,
                          err)) {
        e->spec_method = (uint8_t)(GS_SPEC_MTP + choice);
    } else {
        *ok = false;
    }
    const json_t *tokens = json_object_get(v, "num_speculative_tokens");
    if (tokens != NULL && !jsonv_uint(tokens, "/inference/speculative/num_speculative_tokens", 1,
                                      64, &e->spec_tokens, err))
        *ok = false;
}

/* vLLM --limit-mm-per-prompt: items per prompt by modality, a count or {"count": n}. A
 * modality limited to 0 is not profiled; the counts themselves do not move the profile of the
 * one modality it encodes (its items are bounded by the encoder budget first), and a dummy of
 * another size ("width", "height", "num_frames") is not modelled. */
static void read_mm_limits(const json_t *section, struct gs_engine_config *e, bool *ok,
                           struct gs_error *err)
{
    static const char *const modalities[] = {"image", "video", "audio", NULL};
    static const uint8_t bits[] = {GS_MM_IMAGE, GS_MM_VIDEO, 0};
    const json_t *v = json_object_get(section, "limit_mm_per_prompt");
    if (v == NULL)
        return;
    if (!json_is_object(v)) {
        gs_error_add(err, GS_ERR_INVALID, "/inference/limit_mm_per_prompt",
                     "must be an object of items per prompt by modality, got %s",
                     jsonv_type_name(v));
        *ok = false;
        return;
    }
    if (!jsonv_only_keys(v, "/inference/limit_mm_per_prompt", modalities, err)) {
        *ok = false;
        return;
    }
    for (size_t i = 0; modalities[i] != NULL; i++) {
        const json_t *limit = json_object_get(v, modalities[i]);
        if (limit == NULL)
            continue;
        char where[JSONV_POINTER_MAX], count_at[JSONV_POINTER_MAX];
        jsonv_pointer(where, sizeof(where), "/inference/limit_mm_per_prompt", modalities[i]);
        const char *at = where;
        if (json_is_object(limit)) {
            static const char *const options[] = {"count", NULL};
            if (!jsonv_only_keys(limit, where, options, err)) {
                *ok = false;
                continue;
            }
            jsonv_pointer(count_at, sizeof(count_at), where, "count");
            at = count_at;
            limit = json_object_get(limit, "count");
            if (limit == NULL)
                continue;
        }
        uint64_t count = 0;
        if (!jsonv_uint(limit, at, 0, (uint64_t)1 << 20, &count, err))
            *ok = false;
        else if (count == 0)
            e->mm_no_items |= bits[i];
    }
}

/* inference.<key>, one of `names` (NULL-terminated), as the matching entry of `values`;
 * absent leaves *out as it is */
static void read_choice(const json_t *section, const char *key, const char *const *names,
                        const uint8_t *values, uint8_t *out, bool *ok, struct gs_error *err)
{
    const json_t *v = json_object_get(section, key);
    if (v == NULL)
        return;
    char where[JSONV_POINTER_MAX];
    jsonv_pointer(where, sizeof(where), "/inference", key);
    int which = 0;
    if (jsonv_enum(v, where, names, &which, err))
        *out = values[which];
    else
        *ok = false;
}

static void read_engine_knobs(const json_t *section, struct gs_engine_config *e, bool *ok,
                              struct gs_error *err)
{
    static const char *const runners[] = {"v1", "v2", NULL};
    static const uint8_t runner_values[] = {GS_RUNNER_V1, GS_RUNNER_V2};
    static const char *const entrypoints[] = {"serve", "offline", NULL};
    static const uint8_t entrypoint_values[] = {GS_ENTRY_SERVE, GS_ENTRY_OFFLINE};
    read_mm_limits(section, e, ok, err);
    static const char *const placements[] = {"device", "host", NULL};
    static const uint8_t placement_values[] = {GS_TABLES_DEVICE, GS_TABLES_HOST};
    read_choice(section, "entrypoint", entrypoints, entrypoint_values, &e->entrypoint, ok, err);
    read_choice(section, "engram_tables", placements, placement_values, &e->engram_tables, ok, err);
    read_choice(section, "model_runner", runners, runner_values, &e->model_runner, ok, err);
    const json_t *v = json_object_get(section, "engine_version");
    if (v != NULL && (!json_is_string(v) || !codec_parse_engine_version(json_string_value(v), &e->version))) {
        gs_error_add(err, GS_ERR_INVALID, "/inference/engine_version",
                     "must be a release such as \"0.19.0\", \"0.6.4\" or \"1.3.0rc25\"");
        *ok = false;
    }
    v = json_object_get(section, "enforce_eager");
    if (v != NULL && !jsonv_bool(v, "/inference/enforce_eager", &e->enforce_eager, err))
        *ok = false;
    read_switch(section, "enable_chunked_prefill", &e->chunked_prefill, ok, err);
    read_switch(section, "enable_prefix_caching", &e->prefix_caching, ok, err);
    v = json_object_get(section, "kv_cache_memory_bytes");
    if (v != NULL) {
        if (jsonv_uint(v, "/inference/kv_cache_memory_bytes", 1, (uint64_t)1 << 50,
                       &e->kv_cache_memory_bytes, err))
            e->has_kv_cache_memory_bytes = true;
        else
            *ok = false;
    }
    v = json_object_get(section, "all2all_backend");
    int choice = 0;
    if (v != NULL) {
        if (jsonv_enum(v, "/inference/all2all_backend", all2all_names, &choice, err))
            e->all2all = all2all_backend[choice];
        else
            *ok = false;
    }
    /* SGLang's hybrid state pool: --max-mamba-cache-size, --mamba-full-memory-ratio (any
     * positive float there; above 100 the states would take all but 1% of the pool),
     * --mamba-ssm-dtype */
    static const char *const ssm_dtypes[] = {"float32", "bfloat16", "float16", NULL};
    static const uint8_t ssm_choices[] = {1, 2, 3};
    read_uint(section, "max_mamba_cache_size", 1, (uint64_t)1 << 20, &e->max_mamba_cache_size, ok,
              err);
    uint8_t ssm = 0;
    read_choice(section, "mamba_ssm_dtype", ssm_dtypes, ssm_choices, &ssm, ok, err);
    if (ssm) {
        e->mamba_ssm_bytes = ssm == 1 ? 4 : 2;
        e->mamba_ssm_float16 = ssm == 3;
    }
    v = json_object_get(section, "mamba_full_memory_ratio");
    if (v != NULL) {
        double r = 0;
        if (jsonv_number(v, "/inference/mamba_full_memory_ratio", 0, 100, &r, err))
            e->mamba_full_memory_ratio_permille = r < 0.001 ? 1 : (uint64_t)llround(r * 1000);
        else
            *ok = false;
    }
    /* SGLang's --swa-full-tokens-ratio: server_args.py refuses it outside (0, 1] */
    read_fraction(section, "swa_full_tokens_ratio", &e->swa_full_tokens_ratio_permille, ok, err);
    v = json_object_get(section, "disable_hybrid_swa_memory");
    if (v != NULL && !jsonv_bool(v, "/inference/disable_hybrid_swa_memory", &e->one_kv_pool, err))
        *ok = false;
    /* SGLang's --cuda-graph-max-bs and --disaggregation-mode (its own names; "null" is its
     * default, no disaggregation) */
    read_uint(section, "cuda_graph_max_bs", 1, (uint64_t)1 << 20, &e->cuda_graph_max_bs, ok, err);
    static const char *const roles[] = {"null", "prefill", "decode", NULL};
    static const uint8_t role_values[] = {GS_SGLANG_ROLE_NONE, GS_SGLANG_ROLE_PREFILL,
                                          GS_SGLANG_ROLE_DECODE};
    read_choice(section, "disaggregation_mode", roles, role_values, &e->disaggregation, ok, err);
    v = json_object_get(section, "cpu_offload_gb");
    if (v != NULL) {
        double gb = 0;
        if (jsonv_number(v, "/inference/cpu_offload_gb", -1e-300, 1e6, &gb, err))
            e->cpu_offload_bytes = (uint64_t)llround(gb * (double)(1u << 30));
        else
            *ok = false;
    }
}

bool codec_decode_inference(const json_t *section, struct gs_serving *out, struct gs_error *err)
{
    memset(out, 0, sizeof(*out));
    out->engine.engine = GS_ENGINE_VLLM;
    if (section == NULL)
        return true;
    out->present = true;
    if (!json_is_object(section)) {
        gs_error_add(err, GS_ERR_INVALID, "/inference", "must be an object, got %s",
                     jsonv_type_name(section));
        return false;
    }
    if (!jsonv_only_keys(section, "/inference", inference_keys, err))
        return false;
    bool ok = true;
    out->batch_size = 1;
    read_uint(section, "batch_size", 1, (uint64_t)1 << 20, &out->batch_size, &ok, err);
    uint64_t prompt = 0, output = 0;
    read_uint(section, "context_length", 1, TOKENS_MAX, &out->context_length, &ok, err);
    read_uint(section, "prompt_tokens", 1, TOKENS_MAX, &prompt, &ok, err);
    read_uint(section, "output_tokens", 0, TOKENS_MAX, &output, &ok, err);
    const bool split = json_object_get(section, "prompt_tokens") != NULL;
    if (ok && split) {
        if (out->context_length && out->context_length != prompt + output) {
            gs_error_add(err, GS_ERR_INVALID, "/inference/context_length",
                         "is %llu but prompt_tokens + output_tokens is %llu; give one or the other",
                         (unsigned long long)out->context_length,
                         (unsigned long long)(prompt + output));
            ok = false;
        }
        out->context_length = prompt + output;
        out->prompt_tokens = prompt;
    }
    if (ok && out->context_length == 0) {
        gs_error_add(err, GS_ERR_INVALID, "/inference/context_length",
                     "is required (or prompt_tokens and output_tokens): tokens per sequence");
        ok = false;
    }
    read_uint(section, "sequence_tokens", 1, TOKENS_MAX, &out->sequence_tokens, &ok, err);
    /* what other processes hold on each GPU (nvidia-smi's memory.used before the engine
     * starts); the estimate checks it against the GPU's total */
    read_uint(section, "memory_in_use_bytes", 0, (uint64_t)1 << 50, &out->memory_in_use_bytes,
              &ok, err);
    if (ok && out->sequence_tokens > out->context_length) {
        gs_error_add(err, GS_ERR_INVALID, "/inference/sequence_tokens",
                     "is %llu, above context_length %llu: a sequence holds at most the context",
                     (unsigned long long)out->sequence_tokens,
                     (unsigned long long)out->context_length);
        ok = false;
    }
    const json_t *engine = json_object_get(section, "engine");
    int index = 0;
    if (engine != NULL) {
        /* the engines' own names (core/src/engine.c's table is the one list) */
        const char *engine_names[GS_ENGINE_COUNT + 1];
        for (int e = 0; e < GS_ENGINE_COUNT; e++)
            engine_names[e] = gs_engine_name((enum gs_engine)e);
        engine_names[GS_ENGINE_COUNT] = NULL;
        if (jsonv_enum(engine, "/inference/engine", engine_names, &index, err))
            out->engine.engine = (enum gs_engine)index;
        else
            ok = false;
    }
    const json_t *kv = json_object_get(section, "kv_cache_dtype");
    if (kv != NULL) {
        const char *kv_names[GS_KV_COUNT + 1];
        JSONV_ENUM_NAMES(kv_names, 0, GS_KV_COUNT, gs_kv_dtype_name, enum gs_kv_dtype);
        if (jsonv_enum(kv, "/inference/kv_cache_dtype", kv_names, &index, err))
            out->kv_dtype = (enum gs_kv_dtype)index;
        else
            ok = false;
    }
    read_fraction(section, "gpu_memory_utilization", &out->engine.gpu_memory_utilization_permille,
                  &ok, err);
    read_fraction(section, "free_memory_fraction", &out->engine.free_memory_fraction_permille, &ok,
                  err);
    read_fraction(section, "mem_fraction_static", &out->engine.mem_fraction_static_permille, &ok,
                  err);
    read_fraction(section, "cuda_memory_fraction", &out->engine.cuda_memory_fraction_permille, &ok,
                  err);
    read_uint(section, "block_size", 1, 1024, &out->engine.block_size, &ok, err);
    read_uint(section, "max_num_batched_tokens", 1, TOKENS_MAX, &out->engine.max_num_batched_tokens,
              &ok, err);
    read_uint(section, "max_num_seqs", 1, (uint64_t)1 << 20, &out->engine.max_num_seqs, &ok, err);
    read_engine_knobs(section, &out->engine, &ok, err);
    read_speculative(section, &out->engine, &ok, err);
    return ok;
}

bool codec_decode_inference_parallelism(const json_t *section, struct gs_parallelism *out,
                                        struct gs_error *err)
{
    if (section == NULL)
        return true;
    if (!json_is_object(section)) {
        gs_error_add(err, GS_ERR_INVALID, "/parallelism", "must be an object, got %s",
                     jsonv_type_name(section));
        return false;
    }
    const char *key;
    json_t *value;
    bool ok = true;
    json_t *iterable = (json_t *)(uintptr_t)section; /* jansson iteration is not const-correct */
    json_object_foreach(iterable, key, value) {
        (void)value;
        bool allowed = false;
        for (const char *const *k = inference_parallelism_keys; *k != NULL; k++)
            allowed |= strcmp(key, *k) == 0;
        if (!allowed) {
            char where[JSONV_POINTER_MAX];
            jsonv_pointer(where, sizeof(where), "/parallelism", key);
            gs_error_add(err, GS_ERR_INVALID, where,
                         "inference takes tensor, pipeline, data and expert parallelism (and "
                         "stage_gpus, stage_layers); \"%s\" is for training",
                         key);
            ok = false;
        }
    }
    const uint64_t max = (uint64_t)1 << 20;
    const json_t *t = json_object_get(section, "tensor"), *p = json_object_get(section, "pipeline");
    if (t != NULL && !jsonv_uint(t, "/parallelism/tensor", 1, max, &out->tensor, err))
        ok = false;
    if (p != NULL && !jsonv_uint(p, "/parallelism/pipeline", 1, max, &out->pipeline, err))
        ok = false;
    const json_t *d = json_object_get(section, "data"), *e = json_object_get(section, "expert");
    if (d != NULL && !jsonv_uint(d, "/parallelism/data", 1, max, &out->data, err))
        ok = false;
    if (e != NULL && !jsonv_uint(e, "/parallelism/expert", 1, max, &out->expert, err))
        ok = false;
    if (ok && !codec_decode_stage_layers(section, out, err))
        ok = false;
    return ok;
}


extern const struct gs_embedded_file gs_calibration_files[];

/* kv_cache.accuracy: bytes per token are exact; vLLM's, SGLang's,
 * TensorRT-LLM's and TGI's capacities are calibrated, with the median and
 * worst error bench/calibrate.sh measured on the real startup logs in
 * tests/fixtures/calibration (bench/calibration*.json, compiled in). */
/* Each engine's stored calibration summary (bench/calibrate.sh writes them), by engine;
 * none for the generic profile. */
static const char *const calibration_files[GS_ENGINE_COUNT] = {
    [GS_ENGINE_VLLM] = "calibration.json",
    [GS_ENGINE_SGLANG] = "calibration-sglang.json",
    [GS_ENGINE_TENSORRT_LLM] = "calibration-tensorrt-llm.json",
    [GS_ENGINE_TGI] = "calibration-tgi.json",
};
static json_t *measured_serving[GS_ENGINE_COUNT], *measured_training; /* parsed once, read-only */
static pthread_once_t calibration_once = PTHREAD_ONCE_INIT;

static json_t *load_embedded(const char *name)
{
    const struct gs_embedded_file *f = gs_embedded_find(gs_calibration_files, name);
    json_error_t jerr;
    return f ? json_loadb((const char *)f->data, f->size, 0, &jerr) : NULL;
}

static void load_calibration(void)
{
    for (int e = 0; e < GS_ENGINE_COUNT; e++)
        measured_serving[e] = calibration_files[e] ? load_embedded(calibration_files[e]) : NULL;
    measured_training = load_embedded("calibration-training.json");
}

const json_t *codec_training_calibration(void)
{
    pthread_once(&calibration_once, load_calibration);
    return measured_training;
}

static void write_accuracy(struct json_writer *w, enum gs_engine engine)
{
    pthread_once(&calibration_once, load_calibration);
    const json_t *measured = engine < GS_ENGINE_COUNT ? measured_serving[engine] : NULL;
    json_w_begin_object(w);
    json_w_member_string(w, "bytes_per_token", "exact");
    json_w_member_string(w, "capacity", measured ? "calibrated" : "modelled");
    if (measured != NULL) {
        json_w_key(w, "calibration");
        json_w_value(w, measured);
    }
    json_w_end_object(w);
}

void codec_write_serving(struct json_writer *w, const struct gs_serving *s, uint64_t pipeline,
                         const struct gs_estimate *est, const char *stage_gpu)
{
    const struct gs_inference_result *r = &est->serving;
    json_w_key(w, "inference");
    json_w_begin_object(w);
    json_w_member_u64(w, "batch_size", s->batch_size);
    json_w_member_u64(w, "context_length", s->context_length);
    json_w_member_string(w, "engine", gs_engine_name(s->engine.engine));
    json_w_member_string(w, "kv_cache_dtype", gs_kv_dtype_name(s->kv_dtype));
    json_w_member_u64(w, "block_size", r->block_size);
    json_w_member_u64(w, "max_num_batched_tokens", r->max_num_batched_tokens);
    json_w_member_u64(w, "max_num_seqs", r->max_num_seqs);
    if (s->sequence_tokens && s->sequence_tokens < s->context_length)
        json_w_member_u64(w, "sequence_tokens", s->sequence_tokens);
    if (s->engine.engine == GS_ENGINE_SGLANG && s->engine.disaggregation != GS_SGLANG_ROLE_NONE)
        json_w_member_string(w, "disaggregation_mode",
                             s->engine.disaggregation == GS_SGLANG_ROLE_DECODE ? "decode"
                                                                               : "prefill");
    if (est->stage_layers > 0 && pipeline > 1) { /* each stage's decoder layers */
        json_w_key(w, "stage_layers");
        json_w_begin_array(w);
        for (uint64_t stage = 0; stage < pipeline; stage++) {
            uint64_t first, end;
            gs_stage_range(&est->stages, est->stage_layers, pipeline, stage, &first, &end);
            json_w_u64(w, end - first);
        }
        json_w_end_array(w);
    }
    json_w_end_object(w);
    json_w_key(w, "kv_cache");
    json_w_begin_object(w);
    json_w_member_u64(w, "bytes_per_token", r->kv.bytes_per_token);
    json_w_member_u64(w, "bytes_per_token_total", r->kv.bytes_per_token_total);
    json_w_member_u64(w, "needed_bytes", r->kv_needed_bytes);
    json_w_member_u64(w, "full_attention_layers", r->kv.full_layers);
    json_w_member_u64(w, "window_layers", r->kv.window_layers);
    json_w_member_u64(w, "recurrent_layers", r->kv.recurrent_layers);
    json_w_member_u64(w, "state_bytes_per_sequence", r->kv.state_bytes_per_sequence);
    json_w_member_u64(w, "indexer_bytes_per_token", r->kv.indexer_token_bytes);
    if (r->kv.cross_token_bytes)
        json_w_member_u64(w, "cross_bytes_per_encoder_token", r->kv.cross_token_bytes);
    if (r->pages.page_bytes) { /* the engine's pages for an attention + recurrent model */
        const struct gs_kv_pages *pg = &r->pages;
        json_w_key(w, "pages");
        json_w_begin_object(w);
        json_w_member_u64(w, "block_size", r->block_size);
        json_w_member_u64(w, "page_bytes", pg->page_bytes);
        json_w_member_u64(w, "state_page_bytes", pg->state_page_bytes);
        json_w_member_u64(w, "group_layers", pg->group_layers);
        json_w_member_u64(w, "attention_groups", pg->full_groups);
        json_w_member_u64(w, "state_groups", pg->state_groups);
        json_w_member_string(w, "state_cache",
                             gs_state_cache_name((enum gs_state_cache)pg->state_cache));
        json_w_member_u64(w, "state_blocks_per_sequence", pg->state_blocks);
        json_w_end_object(w);
    }
    if (r->has_budget) { /* what the engine's budget holds */
        json_w_member_u64(w, "blocks", r->blocks);
        json_w_member_u64(w, "max_tokens", r->max_tokens);
        json_w_member_u64(w, "reported_tokens", r->reported_tokens);
        json_w_member_u64(w, "max_concurrency", r->max_concurrency);
        json_w_member_u64(w, "max_context", r->max_context);
        json_w_key(w, "accuracy");
        write_accuracy(w, s->engine.engine);
    }
    json_w_end_object(w);
    if (!r->has_budget)
        return;
    const struct gs_budget *b = &r->budget;
    json_w_key(w, "budget");
    json_w_begin_object(w);
    json_w_member_string(w, "engine", gs_engine_name(s->engine.engine));
    json_w_member_string(w, "rule", b->rule);
    json_w_member_u64(w, "total_bytes", b->total_bytes);
    json_w_member_real(w, "fraction", (double)b->fraction_permille / 1000.0);
    json_w_member_u64(w, "requested_bytes", b->requested_bytes);
    json_w_member_u64(w, "weights_bytes", b->weights_bytes);
    json_w_member_u64(w, "rope_cache_bytes", b->rope_cache_bytes);
    json_w_member_u64(w, "layout_bytes", b->layout_bytes);
    json_w_member_u64(w, "router_fp32_bytes", b->router_fp32_bytes);
    json_w_member_u64(w, "segment_slack_bytes", b->segment_slack_bytes);
    json_w_member_u64(w, "draft_transient_bytes", b->draft_transient_bytes);
    json_w_member_u64(w, "activation_peak_bytes", b->activation_bytes);
    json_w_member_u64(w, "non_torch_bytes", b->non_torch_bytes);
    json_w_member_u64(w, "cuda_graph_bytes", b->cuda_graph_bytes);
    json_w_member_int(w, "kv_bytes", (json_int_t)b->kv_bytes);
    if (stage_gpu != NULL) { /* stages on unequal GPUs: the one whose pool binds */
        json_w_member_u64(w, "stage", r->binding_stage);
        json_w_member_string(w, "stage_gpu", stage_gpu);
    }
    json_w_end_object(w);
    json_w_member_bool(w, "starts", r->starts);
    json_w_member_bool(w, "holds_batch", r->holds_batch);
    if (r->holds_batch)
        return;
    json_w_member_string(w, "binding_constraint", r->binding);
    json_w_key(w, "fixes");
    json_w_begin_array(w);
    for (size_t i = 0; i < est->fix_count; i++) {
        const struct gs_fix *f = &est->fixes[i];
        json_w_begin_object(w);
        json_w_member_string(w, "change", f->code);
        json_w_member_string(w, "detail", f->detail);
        json_w_member_bool(w, "starts", f->starts);
        json_w_member_bool(w, "holds_batch", f->holds_batch);
        json_w_member_int(w, "kv_bytes", (json_int_t)f->kv_bytes);
        json_w_member_u64(w, "max_concurrency", f->max_concurrency);
        if (f->value)
            json_w_member_u64(w, "value", f->value);
        json_w_end_object(w);
    }
    json_w_end_array(w);
}
