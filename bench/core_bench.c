/*
 * core_bench.c - how long the estimation core takes per call (a benchmark
 * program, not a test: run it through bench/core.sh).
 *
 * Times gs_estimate_compute for a few representative requests (the
 * architectures read once, up front, from config text), each for
 * about half a second, and prints nanoseconds per call (best of 5 rounds,
 * as these machines are shared and noisy).
 */
#include "gs/estimate.h"
#include "readers/models.h"

#include <jansson.h>
#include <stdlib.h>

#include <stdio.h>
#include <string.h>
#include <time.h>

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* The architecture of a config.json text, read by gpusizer's readers. */
static struct gs_model_spec from_config(const char *text)
{
    struct gs_model_spec m;
    memset(&m, 0, sizeof(m));
    m.has_arch = true;
    json_t *config = json_loads(text, 0, NULL);
    if (config == NULL || models_read(config, "", &m.arch, NULL) != GS_OK) {
        fprintf(stderr, "core_bench: cannot read %s\n", text);
        exit(1);
    }
    json_decref(config);
    return m;
}

static struct gs_model_spec llama_70b(void)
{
    return from_config("{\"model_type\":\"llama\",\"hidden_size\":8192,\"num_hidden_layers\":80,"
                       "\"num_attention_heads\":64,\"num_key_value_heads\":8,"
                       "\"intermediate_size\":28672,\"vocab_size\":128256}");
}

static struct gs_model_spec deepseek_v3(void)
{
    return from_config(
        "{\"model_type\":\"deepseek_v3\",\"hidden_size\":7168,\"num_hidden_layers\":61,"
        "\"num_attention_heads\":128,\"num_key_value_heads\":128,\"intermediate_size\":18432,"
        "\"vocab_size\":129280,\"q_lora_rank\":1536,\"kv_lora_rank\":512,"
        "\"qk_nope_head_dim\":128,\"qk_rope_head_dim\":64,\"v_head_dim\":128,"
        "\"moe_intermediate_size\":2048,\"n_routed_experts\":256,\"num_experts_per_tok\":8,"
        "\"n_shared_experts\":1,\"first_k_dense_replace\":3,\"moe_layer_freq\":1}");
}

static struct gs_workload training(void)
{
    struct gs_workload w;
    memset(&w, 0, sizeof(w));
    w.mode = GS_MODE_TRAINING;
    w.weights = GS_DTYPE_BF16;
    gs_training_defaults(&w.training);
    gs_parallelism_defaults(&w.parallelism);
    w.training.batch_size = 1;
    w.training.sequence_length = 4096;
    w.training.gradient_accumulation_steps = 8;
    w.training.recompute = GS_RECOMPUTE_SELECTIVE;
    return w;
}

static volatile uint64_t sink;

static void run(const char *name, const struct gs_model_spec *m, const struct gs_workload *w)
{
    struct gs_estimate e;
    if (gs_estimate_compute(m, w, &e, NULL) != GS_OK) {
        printf("%-48s FAILED\n", name);
        return;
    }
    double best = 1e30;
    for (int round = 0; round < 5; round++) {
        long calls = 0;
        const double start = now_ns();
        double elapsed = 0;
        do {
            for (int i = 0; i < 1000; i++) {
                gs_estimate_compute(m, w, &e, NULL);
                sink += e.per_gpu.total_bytes;
            }
            calls += 1000;
            elapsed = now_ns() - start;
        } while (elapsed < 1e8);
        if (elapsed / (double)calls < best)
            best = elapsed / (double)calls;
    }
    printf("%-48s %8.0f ns per estimate (%.2f us)\n", name, best, best / 1000);
}

int main(void)
{
    struct gs_model_spec raw;
    memset(&raw, 0, sizeof(raw));
    raw.parameters = 7000000000ULL;
    struct gs_workload w = training();
    run("raw 7e9, bf16 mixed AdamW, 1 GPU", &raw, &w);

    struct gs_model_spec l70 = llama_70b();
    w.parallelism.tensor = 8;
    w.parallelism.pipeline = 4;
    w.parallelism.data = 4;
    w.parallelism.sequence_parallel = true;
    w.parallelism.zero_stage = 1;
    run("Llama-3.1-70B, TP8 PP4 DP4 SP, ZeRO-1, acts", &l70, &w);

    w = training();
    w.weights = GS_DTYPE_INT4;
    w.training.lora_rank = 16;
    run("Llama-3.1-70B, QLoRA r16 all-linear, acts", &l70, &w);

    struct gs_model_spec ds = deepseek_v3();
    w = training();
    w.parallelism.data = 32;
    w.parallelism.expert = 32;
    w.parallelism.pipeline = 61;
    w.parallelism.distributed_optimizer = true;
    run("DeepSeek-V3, EP32 PP61 DP32, dist. optimizer", &ds, &w);
    return sink == 42 ? 1 : 0;
}
