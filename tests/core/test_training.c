/*
 * test_training.c - training memory: model states by regime, optimizer and
 * ZeRO stage, model-parallel splits, offload, LoRA/QLoRA and activations,
 * each checked against a cited figure or a hand computation written here.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "gs/activation.h"
#include "arch_fixture.h"
#include "gs/estimate.h"
#include "gs/training.h"

#include <string.h>

static struct gs_workload training(enum gs_dtype weights)
{
    struct gs_workload w = fixture_workload(GS_MODE_TRAINING);
    w.weights = weights;
    return w;
}

static struct gs_model_spec raw(uint64_t n)
{
    struct gs_model_spec m;
    memset(&m, 0, sizeof(m));
    m.parameters = n;
    return m;
}

static struct gs_model_spec llama(uint64_t h, uint64_t L, uint64_t a, uint64_t k, uint64_t i,
                                  uint64_t V)
{
    struct gs_model_spec m;
    memset(&m, 0, sizeof(m));
    m.has_arch = true;
    m.arch = fixture_llama(h, L, a, k, i, V, false);
    return m;
}

static uint64_t states(const struct gs_estimate *e)
{
    return e->per_gpu.weights_bytes + e->per_gpu.gradients_bytes + e->per_gpu.optimizer_bytes;
}

/* ZeRO paper, Figure 1: Psi = 7.5B, Nd = 64, mixed-precision Adam (K = 12):
 * 120 / 31.4 / 16.6 / 1.9 GB per GPU for stages 0-3. Exactly:
 *   0: 16 * 7.5e9                = 120,000,000,000
 *   1: 4 * 7.5e9 + 12 * 7.5e9/64 =  31,406,250,000
 *   2: 2 * 7.5e9 + 14 * 7.5e9/64 =  16,640,625,000
 *   3: 16 * 7.5e9 / 64           =   1,875,000,000 */
static void test_zero_paper_figure_1(void **state)
{
    (void)state;
    const uint64_t expected[] = {120000000000ULL, 31406250000ULL, 16640625000ULL, 1875000000ULL};
    struct gs_model_spec m = raw(7500000000ULL);
    for (unsigned stage = 0; stage <= 3; stage++) {
        struct gs_workload w = training(GS_DTYPE_BF16);
        w.parallelism.data = 64;
        w.parallelism.zero_stage = stage;
        struct gs_estimate e;
        assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
        if (states(&e) != expected[stage])
            fail_msg("ZeRO-%u: %llu, paper %llu", stage, (unsigned long long)states(&e),
                     (unsigned long long)expected[stage]);
        assert_int_equal(e.gpu_count, 64);
    }
}

/* 70e9 parameters, bf16 mixed Adam: 16 bytes each = 1.12e12 bytes. */
static void test_70b_mixed_adam(void **state)
{
    (void)state;
    struct gs_model_spec m = raw(70000000000ULL);
    struct gs_workload w = training(GS_DTYPE_BF16);
    struct gs_estimate e;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    assert_int_equal(states(&e), 1120000000000ULL);
}

/* Bytes per parameter for each regime x optimizer (docs/training-memory.md,
 * Bytes per parameter: ZeRO section 3.1, torch.optim, bitsandbytes
 * Optimizer2State), in 1/64 bytes: e.g. bf16 mixed + 8-bit AdamW
 * = 2 + 2 + 4 + 2 + 8/256 = 10.03125. */
static void test_bytes_per_parameter_table(void **state)
{
    (void)state;
    const struct {
        enum gs_regime regime;
        enum gs_optimizer opt;
        double total; /* bytes per parameter, from the table */
    } rows[] = {
        {GS_REGIME_FP32, GS_OPT_ADAMW, 16},          {GS_REGIME_BF16_MIXED, GS_OPT_ADAMW, 16},
        {GS_REGIME_FP16_MIXED, GS_OPT_ADAM, 16},     {GS_REGIME_BF16_PURE, GS_OPT_ADAMW, 8},
        {GS_REGIME_AMP, GS_OPT_ADAMW, 16},           {GS_REGIME_BF16_MIXED, GS_OPT_ADAMW_8BIT, 10.03125},
        {GS_REGIME_FP32, GS_OPT_ADAMW_8BIT, 10.03125}, {GS_REGIME_BF16_MIXED, GS_OPT_SGD_MOMENTUM, 12},
        {GS_REGIME_FP32, GS_OPT_SGD_MOMENTUM, 12},   {GS_REGIME_FP32, GS_OPT_SGD, 8},
        {GS_REGIME_BF16_MIXED, GS_OPT_LION, 12},     {GS_REGIME_BF16_MIXED, GS_OPT_ADAFACTOR, 8},
    };
    for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        struct gs_state_bytes b = gs_state_bytes_for(rows[i].regime, rows[i].opt);
        uint64_t sum = b.weights + b.gradients + b.optimizer;
        if (sum != (uint64_t)(rows[i].total * GS_BPP_UNIT))
            fail_msg("%s + %s: %llu/64, table %g", gs_regime_name(rows[i].regime),
                     gs_optimizer_name(rows[i].opt), (unsigned long long)sum, rows[i].total);
    }
}

/* PEFT prints "trainable params: 4,194,304" for Llama-2-7B r=8 on q_proj,
 * v_proj and 39,976,960 for r=16 on all seven linears: r (d_in + d_out) per
 * adapted linear (docs/training-memory.md, LoRA and QLoRA). */
static void test_lora_parameter_counts(void **state)
{
    (void)state;
    struct gs_model_spec m = llama(4096, 32, 32, 32, 11008, 32000);
    uint64_t n = 0;
    struct gs_training tr;
    gs_training_defaults(&tr);
    tr.lora_rank = 8;
    tr.lora_target_count = 2;
    strcpy(tr.lora_targets[0], "q_proj");
    strcpy(tr.lora_targets[1], "v_proj");
    assert_int_equal(gs_lora_parameters(&m.arch, &tr, &n, NULL), GS_OK);
    assert_int_equal(n, 4194304);
    tr.lora_rank = 16;
    tr.lora_target_count = 0; /* all_linear */
    assert_int_equal(gs_lora_parameters(&m.arch, &tr, &n, NULL), GS_OK);
    assert_int_equal(n, 39976960);
    tr.lora_target_count = 1;
    strcpy(tr.lora_targets[0], GS_LORA_ALL_LINEAR);
    assert_int_equal(gs_lora_parameters(&m.arch, &tr, &n, NULL), GS_OK);
    assert_int_equal(n, 39976960);
    /* Llama has no fused qkv_proj: the error names the modules it has */
    struct gs_error err;
    gs_error_init(&err);
    strcpy(tr.lora_targets[0], "qkv_proj");
    assert_int_equal(gs_lora_parameters(&m.arch, &tr, &n, &err), GS_ERR_INVALID);
    assert_string_equal(err.items[0].pointer, "/training/lora/targets");
    assert_non_null(strstr(err.items[0].detail, "q_proj, k_proj, v_proj, o_proj"));
    /* other families adapt under their own names: GPT-2's fused c_attn (h -> 3h) and
     * c_proj (attention h -> h and MLP 4h -> h): r=8 x 12 layers x
     * (768 + 2304 + 768 + 768 + 3072 + 768) = 811,008 */
    struct gs_arch gpt2 = fixture_arch("{\"model_type\":\"gpt2\",\"n_embd\":768,\"n_layer\":12,"
                                       "\"n_head\":12,\"vocab_size\":50257}");
    tr.lora_rank = 8;
    tr.lora_target_count = 2;
    strcpy(tr.lora_targets[0], "c_attn");
    strcpy(tr.lora_targets[1], "c_proj");
    assert_int_equal(gs_lora_parameters(&gpt2, &tr, &n, NULL), GS_OK);
    assert_int_equal(n, 8ULL * 12 * (768 + 2304 + 768 + 768 + 3072 + 768));

    /* the output head, named (PEFT adapts lm_head like any nn.Linear; all-linear leaves it
     * out): Llama-2-7B r=8 on q_proj, v_proj, lm_head: 4,194,304 + 8 x (4,096 + 32,000) =
     * 4,483,072; all_linear with lm_head at r=16: 39,976,960 + 16 x 36,096 = 40,554,496 */
    tr.lora_rank = 8;
    tr.lora_target_count = 3;
    strcpy(tr.lora_targets[0], "q_proj");
    strcpy(tr.lora_targets[1], "v_proj");
    strcpy(tr.lora_targets[2], "lm_head");
    assert_int_equal(gs_lora_parameters(&m.arch, &tr, &n, NULL), GS_OK);
    assert_int_equal(n, 4483072);
    tr.lora_rank = 16;
    tr.lora_target_count = 2;
    strcpy(tr.lora_targets[0], GS_LORA_ALL_LINEAR);
    strcpy(tr.lora_targets[1], "lm_head");
    assert_int_equal(gs_lora_parameters(&m.arch, &tr, &n, NULL), GS_OK);
    assert_int_equal(n, 40554496);
    /* the token embedding, named (PEFT's lora.Embedding: lora_embedding_A r x 32,000,
     * lora_embedding_B 4,096 x r; all-linear leaves it out): r=8 on q_proj, v_proj and
     * embed_tokens, 4,194,304 + 8 x (32,000 + 4,096) = 4,483,072 */
    tr.lora_rank = 8;
    tr.lora_target_count = 3;
    strcpy(tr.lora_targets[0], "q_proj");
    strcpy(tr.lora_targets[1], "v_proj");
    strcpy(tr.lora_targets[2], "embed_tokens");
    assert_true(gs_lora_embedding(&m.arch, &tr, NULL, NULL));
    assert_int_equal(gs_lora_parameters(&m.arch, &tr, &n, NULL), GS_OK);
    assert_int_equal(n, 4483072);
    tr.lora_target_count = 0; /* all_linear: not the embedding */
    assert_false(gs_lora_embedding(&m.arch, &tr, NULL, NULL));
    gs_error_init(&err);
    tr.lora_target_count = 1;
    strcpy(tr.lora_targets[0], "wte");
    assert_int_equal(gs_lora_parameters(&m.arch, &tr, &n, &err), GS_ERR_INVALID);
    assert_non_null(strstr(err.items[0].detail, "embed_tokens (the token embedding, named only)"));
    /* transformers' Mamba fine-tuning example (x_proj, embeddings, in_proj, out_proj):
     * Mamba-130m's shape, h 768, inner 1,536, state 16, rank 48, 24 layers, vocab 50,280, r=8:
     * 24 x 8 x ((1,536 + 80) + (768 + 3,072) + (1,536 + 768)) = 1,489,920, and the embedding's
     * 8 x (50,280 + 768) = 408,384: 1,898,304 */
    struct gs_arch mamba = fixture_arch("{\"model_type\":\"mamba\",\"hidden_size\":768,"
                                        "\"intermediate_size\":1536,\"state_size\":16,"
                                        "\"num_hidden_layers\":24,\"vocab_size\":50280}");
    tr.lora_target_count = 4;
    strcpy(tr.lora_targets[0], "x_proj");
    strcpy(tr.lora_targets[1], "embeddings");
    strcpy(tr.lora_targets[2], "in_proj");
    strcpy(tr.lora_targets[3], "out_proj");
    assert_int_equal(gs_lora_parameters(&mamba, &tr, &n, NULL), GS_OK);
    assert_int_equal(n, 1898304);
    /* GPT-2 ties its head to wte: transformers' lm_head over the embedding's 50,257 x 768 */
    tr.lora_rank = 8;
    tr.lora_target_count = 1;
    strcpy(tr.lora_targets[0], "lm_head");
    assert_int_equal(gs_lora_parameters(&gpt2, &tr, &n, NULL), GS_OK);
    assert_int_equal(n, 8ULL * (768 + 50257));
    /* DoRA adds each adapted layer's magnitude vector, d_out: PEFT's MetaMathQA results print
     * num_trainable_params 9,175,040 for Llama-3.2-3B r32 on q_proj and v_proj and 9,289,728
     * with use_dora (28 x 32 x (6,144 + 4,096) = 9,175,040; + 28 x (3,072 + 1,024)) */
    struct gs_model_spec l32 = llama(3072, 28, 24, 8, 8192, 128256);
    tr.lora_rank = 32;
    tr.lora_target_count = 2;
    strcpy(tr.lora_targets[0], "q_proj");
    strcpy(tr.lora_targets[1], "v_proj");
    assert_int_equal(gs_lora_parameters(&l32.arch, &tr, &n, NULL), GS_OK);
    assert_int_equal(n, 9175040);
    tr.lora_dora = true;
    assert_int_equal(gs_lora_parameters(&l32.arch, &tr, &n, NULL), GS_OK);
    assert_int_equal(n, 9289728);
    tr.lora_dora = false;
    tr.lora_rank = 8;
    tr.lora_target_count = 1;
    /* the error lists the head among the names */
    gs_error_init(&err);
    strcpy(tr.lora_targets[0], "output");
    assert_int_equal(gs_lora_parameters(&m.arch, &tr, &n, &err), GS_ERR_INVALID);
    assert_non_null(strstr(err.items[0].detail, "lm_head (the output head, named only)"));
}

/* QLoRA Llama-2-7B, nf4 with double quantization (Dettmers et al. 2023,
 * QLoRA, section 3; docs/training-memory.md, LoRA and QLoRA):
 * linears 6,476,005,376 x 2113/4096 bytes (4.127 bits) = 3,340,771,328
 * (ceil), plus 262,410,240 embedding/norm/head parameters x 2 bytes =
 * 524,820,480 -> 3,865,591,808 bytes ("3.87 GB"). The r=16 all-linear
 * adapters (39,976,960) add 4 bytes each as fp32 weights (PEFT autocast),
 * 4 of gradients and 8 of AdamW states. Without double quantization the base
 * is 4.5 bits: 4,167,573,504 ("nf4 4.17 GB"; docs/serving-memory.md, Weights
 * by format). */
static void test_qlora_llama2_7b(void **state)
{
    (void)state;
    struct gs_model_spec m = llama(4096, 32, 32, 32, 11008, 32000);
    struct gs_workload w = training(GS_DTYPE_INT4);
    w.training.lora_rank = 16;
    struct gs_estimate e;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    assert_int_equal(e.method, GS_METHOD_QLORA);
    assert_int_equal(e.trainable_parameters, 39976960ULL);
    assert_int_equal(e.per_gpu.weights_bytes, 3865591808ULL + 4 * 39976960ULL);
    assert_int_equal(e.per_gpu.gradients_bytes, 4 * 39976960ULL);
    assert_int_equal(e.per_gpu.optimizer_bytes, 8 * 39976960ULL);
    w.training.double_quant = false;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    assert_int_equal(e.per_gpu.weights_bytes, 4167573504ULL + 4 * 39976960ULL);

    /* FULL_SHARD over 2 GPUs partitions the parameters, not bitsandbytes' quant_state (a module
     * attribute): the 4-bit values 6,476,005,376 / 2 = 3,238,002,688 B, the 16-bit rest
     * 524,820,480 and the fp32 adapters 159,907,840 are halved, 1,961,365,504 a GPU, and the
     * absmax constants 3,340,771,328 - 3,238,002,688 = 102,768,640 stay whole:
     * 2,064,134,144; with the parameters offloaded to the host, the constants alone stay */
    w.training.double_quant = true;
    w.parallelism.data = 2;
    w.parallelism.zero_stage = 3;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    assert_int_equal(e.per_gpu.weights_bytes, 1961365504ULL + 102768640ULL);
    w.parallelism.offload = GS_OFFLOAD_OPTIMIZER_AND_PARAMS;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    assert_int_equal(e.per_gpu.weights_bytes, 102768640ULL);
}

/* LoRA over a bf16 base: the base costs its weight bytes only. */
static void test_lora_bf16_base(void **state)
{
    (void)state;
    struct gs_model_spec m = llama(4096, 32, 32, 32, 11008, 32000);
    struct gs_workload w = training(GS_DTYPE_BF16);
    fixture_lora_qv(&w.training, 8);
    struct gs_estimate e;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    assert_int_equal(e.per_gpu.weights_bytes, 2 * 6738415616ULL + 4 * 4194304ULL);
    assert_int_equal(e.per_gpu.gradients_bytes, 4 * 4194304ULL);
    assert_int_equal(e.per_gpu.optimizer_bytes, 8 * 4194304ULL);
}

/* Tensor and pipeline split on the most loaded GPU, by hand. Llama-2-7B
 * (attention+mlp 6,476,005,376; norms 266,240: 2 x 4,096 a layer and the
 * final 4,096; embedding = head = 131,072,000), t = 2, p = 2, bf16 mixed
 * Adam, 16 layers a stage:
 *   vocab 32000 padded to a multiple of 128*2 = 32000 (no padding)
 *   layers: 6,476,005,376 / 2 stages / 2 ranks = 1,619,001,344
 *   norms: 16 layers' 131,072 + the final norm's 4,096 spread, 2,048 = 133,120
 *   first stage: + embedding / 2 = 65,536,000 -> 1,684,670,464
 *   last stage: + head / 2 = the same -> 1,684,670,464 parameters per GPU. */
static void test_tensor_pipeline_split(void **state)
{
    (void)state;
    struct gs_model_spec m = llama(4096, 32, 32, 32, 11008, 32000);
    struct gs_workload w = training(GS_DTYPE_BF16);
    w.parallelism.tensor = 2;
    w.parallelism.pipeline = 2;
    struct gs_estimate e;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    assert_int_equal(e.parameters_per_gpu, 1684670464ULL);
    assert_int_equal(states(&e), 16 * 1684670464ULL);
    assert_int_equal(e.gpu_count, 4);

    /* t = 8 pads 32000 to 32768 (multiple of 1024), as Megatron does: 768 rows
     * x 4096 = 3,145,728 extra on the embedding, as many on the untied head */
    w.parallelism.tensor = 8;
    w.parallelism.pipeline = 1;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    /* 6,476,005,376/8 + 266,240 + 2 * (131,072,000 + 3,145,728)/8 */
    assert_int_equal(e.parameters_per_gpu, 809500672ULL + 266240ULL + 2 * 16777216ULL);
}

/* The work each pipeline stage does a token, the pace of all of them (perf.c stage_balance):
 * Llama-2-7B over 4 even stages, 8 layers each of 202,375,168 linear and 8,192 norm parameters
 * (202,383,360); the untied head's 131,072,000 on the last stage, the final norm's 4,096
 * spread (1,024 a stage): the last stage does 8 x 202,383,360 + 131,072,000 + 1,024 =
 * 1,750,139,904 of the 6,607,343,616 active parameters (the input embedding is a lookup).
 * Without stages there is none. */
static void test_stage_work(void **state)
{
    (void)state;
    struct gs_model_spec m = llama(4096, 32, 32, 32, 11008, 32000);
    struct gs_workload w = training(GS_DTYPE_BF16);
    struct gs_estimate e;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    assert_int_equal(e.params.active, 6607343616ULL);
    assert_int_equal(e.stage_flop_parameters, 0);
    w.parallelism.pipeline = 4;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    assert_int_equal(e.stage_flop_parameters, 8 * 202383360ULL + 131072000ULL + 1024);
    /* torchtitan's 8, 9, 8, 7: the second stage's nine layers (1,821,450,240) outweigh the
     * last's seven and the head (1,547,756,544) */
    w.training.framework.framework = GS_FW_TORCHTITAN;
    w.training.framework.framework_given = true;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    assert_int_equal(e.stage_flop_parameters, 9 * 202383360ULL + 1024);
}

/* ZeRO-Offload of the optimizer: the GPU keeps 16-bit weights only; the
 * host keeps optimizer states plus fp32 gradients per rank. Raw 7.5e9,
 * ZeRO-2, dp = 8, one node of 8 GPUs:
 *   GPU weights 2 * 7.5e9 = 15e9; host per rank 12 * 7.5e9/8 + 4 * 7.5e9/8
 *   = 15e9; per node 8 * 15e9 = 120e9. */
static void test_offload_optimizer(void **state)
{
    (void)state;
    struct gs_model_spec m = raw(7500000000ULL);
    struct gs_workload w = training(GS_DTYPE_BF16);
    w.parallelism.data = 8;
    w.parallelism.zero_stage = 2;
    w.parallelism.offload = GS_OFFLOAD_OPTIMIZER;
    struct gs_estimate e;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    assert_int_equal(e.per_gpu.weights_bytes, 15000000000ULL);
    assert_int_equal(e.per_gpu.gradients_bytes, 0);
    assert_int_equal(e.per_gpu.optimizer_bytes, 0);
    assert_int_equal(e.host_bytes_per_node, 120000000000ULL);
}

static void expect_layout_error(struct gs_workload w, struct gs_model_spec m, const char *pointer)
{
    struct gs_estimate e;
    struct gs_error err;
    gs_error_init(&err);
    assert_int_not_equal(gs_estimate_compute(&m, &w, &e, &err), GS_OK);
    for (size_t i = 0; i < err.count; i++) {
        if (strcmp(err.items[i].pointer, pointer) == 0)
            return;
    }
    fail_msg("no error at %s (first: %s %s)", pointer, err.count ? err.items[0].pointer : "",
             err.count ? err.items[0].detail : "");
}

/* Layouts the frameworks refuse (Megatron-LM, vLLM's QKVParallelLinear,
 * DeepSpeed; docs/training-memory.md, Parallel layouts: what must divide
 * what): TP divides heads and is a multiple or divisor of KV heads; PP
 * divides layers where the framework has no splitter of its own (Megatron-LM
 * and torchtitan place any count, one layer a stage at least); EP divides
 * experts; offload needs ZeRO. */
static void test_layout_validation(void **state)
{
    (void)state;
    struct gs_model_spec m = llama(8192, 80, 64, 8, 28672, 32000); /* Llama-2-70B */
    struct gs_workload w = training(GS_DTYPE_BF16);
    w.parallelism.tensor = 3;
    expect_layout_error(w, m, "/parallelism/tensor"); /* 64 % 3 */
    w = training(GS_DTYPE_BF16);
    w.parallelism.tensor = 16; /* divides 64 heads, a multiple of 8 KV heads: fine */
    struct gs_estimate e;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    w.parallelism.pipeline = 3;
    w.training.framework.framework = GS_FW_DEEPSPEED;
    w.training.framework.framework_given = true;
    expect_layout_error(w, m, "/parallelism/pipeline"); /* 80 % 3, no splitter of its own */
    w.training.framework.framework = GS_FW_LITGPT; /* no pipeline at all */
    expect_layout_error(w, m, "/parallelism/pipeline");
    w.parallelism.pipeline = 2;
    expect_layout_error(w, m, "/parallelism/pipeline");
    w.parallelism.pipeline = 3;
    /* transformers' stages are a device_map: one process, so no tensor parallelism beside it;
     * alone, its own split (test_device_map_stages) */
    w.training.framework.framework = GS_FW_TRANSFORMERS;
    expect_layout_error(w, m, "/parallelism/tensor");
    w.parallelism.tensor = 1;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    assert_true(e.stages.split == GS_SPLIT_GIVEN && e.stages.given[0] == 26 &&
                e.stages.given[1] == 28 && e.stages.given[2] == 26);
    w.parallelism.tensor = 16;
    w.training.framework.framework = GS_FW_MEGATRON; /* 26 + 27 + 27 (test_stage_splits) */
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    w.parallelism.tensor = 1;
    w.parallelism.pipeline = 81;
    expect_layout_error(w, m, "/parallelism/pipeline"); /* a stage without a layer */
    w = training(GS_DTYPE_BF16);
    w.parallelism.expert = 2;
    expect_layout_error(w, m, "/parallelism/expert"); /* dense model */
    w = training(GS_DTYPE_BF16);
    w.parallelism.tensor = 2;
    w.parallelism.expert_tensor = 2;
    expect_layout_error(w, m, "/parallelism/expert_tensor"); /* dense model */
    w.parallelism.expert_tensor = 1; /* the default a dense model gets: accepted */
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    assert_int_equal(e.expert_tensor, 0); /* no routed experts to report */
    w = training(GS_DTYPE_BF16);
    w.parallelism.offload = GS_OFFLOAD_OPTIMIZER;
    expect_layout_error(w, m, "/parallelism/offload");
    w.parallelism.zero_stage = 2;
    w.parallelism.offload = GS_OFFLOAD_OPTIMIZER_AND_PARAMS;
    expect_layout_error(w, m, "/parallelism/offload");
    w = training(GS_DTYPE_BF16);
    w.parallelism.sequence_parallel = true;
    expect_layout_error(w, m, "/parallelism/sequence_parallel");
    w = training(GS_DTYPE_BF16);
    w.parallelism.zero_stage = 1;
    w.parallelism.distributed_optimizer = true;
    expect_layout_error(w, m, "/parallelism/distributed_optimizer");

    /* KV heads: t = 12 divides neither 8 nor is a multiple of it (and not 64 either) */
    struct gs_model_spec gqa = llama(4096, 32, 48, 8, 14336, 32000);
    gqa.arch = fixture_typed("llama", 4096, 32, 48, 8, 14336, 32000, false, 128);
    w = training(GS_DTYPE_BF16);
    w.parallelism.tensor = 12;
    expect_layout_error(w, gqa, "/parallelism/tensor");
}

/* Korthikanti et al. 2022, Table 2: a GPT layer (i = 4h, dropout on,
 * LayerNorm, MHA, no flash attention) stores sbh(34 + 5as/h) bytes with
 * 16-bit activations. h = 1024, a = 16, s = 2048, b = 1:
 *   34 * 2048 * 1024 + 5 * 16 * 2048^2 = 71,303,168 + 335,544,320 = 406,847,488.
 * With t = 2 and no sequence parallelism: sbh(10 + 24/t + 5as/(ht))
 *   = 2048*1024*22 + 335,544,320/2 = 46,137,344 + 167,772,160 = 213,909,504.
 * With sequence parallelism and selective recomputation: 34 sbh / t = 35,651,584. */
static void test_korthikanti_gpt_layer(void **state)
{
    (void)state;
    struct gs_arch a = fixture_arch("{\"model_type\":\"gpt2\",\"n_embd\":1024,\"n_layer\":24,"
                                    "\"n_head\":16,\"vocab_size\":50257,\"n_positions\":2048,"
                                    "\"attn_pdrop\":0.1,\"resid_pdrop\":0.1}");
    struct gs_parallelism par;
    gs_parallelism_defaults(&par);
    struct gs_activation_input in = {.arch = &a, .batch_size = 1, .sequence_length = 2048,
                                     .micro_batches = 1, .element_bytes = 2,
                                     .recompute = GS_RECOMPUTE_NONE, .flash_attention = false,
                                     .parallelism = &par};
    struct gs_activation_result r;
    assert_true(gs_activation_bytes(&in, &r));
    assert_int_equal(r.per_layer_bytes, 406847488ULL);

    par.tensor = 2;
    assert_true(gs_activation_bytes(&in, &r));
    assert_int_equal(r.per_layer_bytes, 213909504ULL);

    par.sequence_parallel = true;
    in.recompute = GS_RECOMPUTE_SELECTIVE;
    assert_true(gs_activation_bytes(&in, &r));
    assert_int_equal(r.per_layer_bytes, 35651584ULL);

    /* full recomputation keeps each layer's input: 2 sbh / t with SP */
    in.recompute = GS_RECOMPUTE_FULL;
    assert_true(gs_activation_bytes(&in, &r));
    assert_int_equal(r.per_layer_bytes, 2048ULL * 1024 * 2 / 2);
}

/* Llama-2-7B, s = 4096, b = 1, no TP, no dropout, flash attention
 * (Korthikanti et al. 2022's accounting applied to a gated MLP,
 * docs/training-memory.md, Activations per layer; computed here for the
 * eager SwiGLU that HF runs):
 *   replicated: 2 norm inputs + QKV input + MLP input = 4 * 2 sbh = 8 sbh
 *   Q, K, V, out-proj input: 4 * 2 sbh = 8 sbh
 *   SwiGLU eager: gate out, up out, act out, down input = 4 * 2 * s*b*i
 *   flash: 4 * a * s * b (fp32 lse)
 * = 16 * 4096 * 4096 + 8 * 4096 * 11008 + 4 * 32 * 4096
 * = 268,435,456 + 360,710,144 + 524,288 = 629,669,888 per layer (37.53 sbh,
 * the eager SwiGLU figure worked in the same docs section). */
static void test_llama_layer_flash(void **state)
{
    (void)state;
    struct gs_model_spec m = llama(4096, 32, 32, 32, 11008, 32000);
    struct gs_parallelism par;
    gs_parallelism_defaults(&par);
    struct gs_activation_input in = {.arch = &m.arch, .batch_size = 1, .sequence_length = 4096,
                                     .micro_batches = 1, .element_bytes = 2,
                                     .recompute = GS_RECOMPUTE_NONE, .flash_attention = true,
                                     .parallelism = &par};
    struct gs_activation_result r;
    assert_true(gs_activation_bytes(&in, &r));
    assert_int_equal(r.per_layer_bytes, 629669888ULL);
    /* the whole GPU: 32 layers, 8 bytes of token ids per token, the logits: 4096 tokens x
     * 32000 x (2 bf16 + 4 fp32 upcast + 4 fp32 grad), the final norm's 16-bit input, kept
     * after the last layer: 4096 x 4096 x 2, and its output, the trained head's input:
     * 4096 x 4096 x 2 */
    const uint64_t head = 4096ULL * 32000 * 10 + 2 * 4096ULL * 4096 * 2;
    assert_int_equal(r.logits_bytes, head);
    assert_int_equal(r.total_bytes, 32 * 629669888ULL + 8 * 4096 + head);
}

/* Megatron-LM's interleaved schedule on Llama-2-7B (each layer 629,669,888 B as above, 8 B of
 * token ids a token), 4 stages of 8 layers, 8 micro-batches. Without interleaving the first
 * stage keeps 4 micro-batches of its 8 layers: 32 layers' and 4 token ids'. In 2 chunks of 4
 * layers (schedules.py get_pp_rank_microbatches, get_schedule_table in groups of 4) stage s
 * runs 2 (4 - s - 1) + (2 - 1) x 4 warm-up forwards and one more before its first backward,
 * chunk 0 for micro-batches 0-3, then chunk 1 for 0-3, then chunk 0 again:
 *   stage 0: 11 forwards, chunk 0 x 7 (with the token ids) + chunk 1 x 4 = 44 layers'
 *            (32 x (1 + 3/8), Megatron-LM's interleaved_schedule_memory_penalty)
 *   stage 1: 9 forwards, 5 + 4 = 36 layers'; stage 3 (the last): 5 forwards, 4 + 1 = 20
 *            layers' and the loss once.
 * With 4 micro-batches the warm-up takes all 8 forwards: 32 layers' again, 4 token ids'. */
/* LoRA adapters sit in the layers, so a pipeline stage holds its layers' share of them: the
 * Llama-2-70B shape over Megatron-LM's three stages (26, 27, 27 layers) keeps 27/80 of the
 * adapters' optimizer states on the fullest, not a third. */
static void test_pipeline_adapter_share(void **state)
{
    (void)state;
    struct gs_model_spec m = llama(8192, 80, 64, 8, 28672, 32000);
    struct gs_workload w = training(GS_DTYPE_BF16);
    w.training.method = GS_METHOD_LORA;
    w.training.method_given = true;
    w.training.lora_rank = 16;
    w.training.lora_target_count = 2;
    strcpy(w.training.lora_targets[0], "q_proj");
    strcpy(w.training.lora_targets[1], "v_proj");
    struct gs_estimate one, three;
    assert_int_equal(gs_estimate_compute(&m, &w, &one, NULL), GS_OK);
    const uint64_t adapters = one.trainable_parameters;
    assert_int_equal(adapters, 80ULL * 16 * (2 * 8192 + 8192 + 1024));
    assert_int_equal(one.per_gpu.optimizer_bytes % adapters, 0);
    const uint64_t each = one.per_gpu.optimizer_bytes / adapters;
    w.parallelism.pipeline = 3;
    assert_int_equal(gs_estimate_compute(&m, &w, &three, NULL), GS_OK);
    assert_int_equal(three.per_gpu.optimizer_bytes, (adapters * 27 + 79) / 80 * each);
}

/* A device_map (transformers' naive pipeline parallelism, gs_workload_device_map) runs one
 * micro-batch through its GPUs in turn: GPU 0 keeps its 14 layers' saved tensors for one
 * micro-batch where 1F1B keeps min(p, m) = 2, plus the logits the root module's hook copies back
 * to it (accelerate AlignDevicesHook io_same_device): 4,096 tokens x 32,000 x 2 bytes. The last
 * GPU holds one micro-batch and the loss either way. A head tied to the embedding runs on GPU 0
 * with it: the loss moves there, the final norm's kept input stays on the last GPU. */
static void test_device_map_activations(void **state)
{
    (void)state;
    struct gs_model_spec m = llama(4096, 32, 32, 32, 11008, 32000);
    struct gs_parallelism par;
    gs_parallelism_defaults(&par);
    par.pipeline = 2;
    par.stages = gs_stage_rule(GS_SPLIT_GIVEN);
    par.stages.given_count = 2;
    par.stages.given[0] = 14;
    par.stages.given[1] = 18;
    struct gs_activation_input in = {.arch = &m.arch,
                                     .batch_size = 1,
                                     .sequence_length = 4096,
                                     .micro_batches = 8,
                                     .element_bytes = 2,
                                     .recompute = GS_RECOMPUTE_NONE,
                                     .flash_attention = true,
                                     .parallelism = &par};
    const uint64_t layer = 629669888ULL, ids = 8 * 4096, copy = 4096ULL * 32000 * 2;
    struct gs_activation_result pipe, map, tied;
    assert_true(gs_activation_bytes(&in, &pipe));
    assert_int_equal(pipe.first_stage_bytes, 2 * (14 * layer + ids));
    par.device_map = true;
    assert_true(gs_activation_bytes(&in, &map));
    assert_int_equal(map.first_stage_bytes, 14 * layer + ids + copy);
    assert_int_equal(map.last_stage_bytes, pipe.last_stage_bytes);
    assert_int_equal(map.last_stage_bytes, 18 * layer + map.logits_bytes);
    m.arch.tie_word_embeddings = true;
    assert_true(gs_activation_bytes(&in, &tied));
    assert_int_equal(tied.first_stage_bytes + tied.last_stage_bytes,
                     map.first_stage_bytes - copy + map.last_stage_bytes);
    assert_true(tied.last_stage_bytes - 18 * layer < map.logits_bytes);
    assert_int_equal(tied.total_bytes, tied.first_stage_bytes > tied.last_stage_bytes
                                           ? tied.first_stage_bytes
                                           : tied.last_stage_bytes);
    /* a fused loss (Liger's linear-cross-entropy) returns no logits: nothing to copy back */
    m.arch.tie_word_embeddings = false;
    struct gs_training_knobs knobs;
    memset(&knobs, 0, sizeof(knobs));
    knobs.framework = GS_FW_TRANSFORMERS;
    knobs.framework_given = true;
    knobs.loss = GS_LOSS_FUSED;
    struct gs_framework_rules rules;
    gs_framework_resolve(&knobs, GS_ATTN_SDPA, &rules);
    in.rules = &rules;
    assert_true(gs_activation_bytes(&in, &map));
    par.device_map = false;
    assert_true(gs_activation_bytes(&in, &pipe));
    assert_int_equal(map.first_stage_bytes, pipe.first_stage_bytes / 2);
}

static void test_interleaved_schedule(void **state)
{
    (void)state;
    struct gs_model_spec m = llama(4096, 32, 32, 32, 11008, 32000);
    struct gs_parallelism par;
    gs_parallelism_defaults(&par);
    par.pipeline = 4;
    par.stages = gs_stage_rule(GS_SPLIT_MEGATRON);
    struct gs_activation_input in = {.arch = &m.arch, .batch_size = 1, .sequence_length = 4096,
                                     .micro_batches = 8, .element_bytes = 2,
                                     .recompute = GS_RECOMPUTE_NONE, .flash_attention = true,
                                     .parallelism = &par};
    const uint64_t layer = 629669888ULL, ids = 8 * 4096;
    struct gs_activation_result r;
    assert_true(gs_activation_bytes(&in, &r));
    assert_int_equal(r.first_stage_bytes, 4 * (8 * layer + ids));
    par.stages.chunks = 2;
    assert_true(gs_activation_bytes(&in, &r));
    assert_int_equal(r.first_stage_bytes, 7 * (4 * layer + ids) + 4 * 4 * layer);
    assert_int_equal(r.first_stage_bytes, 44 * layer + 7 * ids);
    assert_int_equal(r.last_stage_bytes - r.logits_bytes, 20 * layer);
    assert_int_equal(r.total_bytes, r.first_stage_bytes);
    in.micro_batches = 4;
    assert_true(gs_activation_bytes(&in, &r));
    assert_int_equal(r.first_stage_bytes, 32 * layer + 4 * ids);
    /* 4 chunks of 2 layers: 2 x 3 + 3 x 4 + 1 = 19 forwards, chunk 0 x 7, the others x 4:
     * 38 layers' (32 x (1 + 3/16)) */
    in.micro_batches = 8;
    par.stages.chunks = 4;
    assert_true(gs_activation_bytes(&in, &r));
    assert_int_equal(r.first_stage_bytes, 38 * layer + 7 * ids);
    /* torchtitan's Interleaved1F1B (torch's ScheduleInterleaved1F1B): its split over the 8
     * virtual stages puts 4 + 4 layers on stage 0 and 5 + 4 on stage 1 (test_arch
     * test_stage_chunks), and 6 micro-batches run as one round of 6 (microbatches_per_round =
     * 6 / max(1, 6 / 4)): stage 0 warms up 2 x 3 + 6 = 12 forwards, all 12 it runs, 6 of each
     * chunk: 6 x (4 layers + the token ids) + 6 x 4 = 48 layers'; stage 1 2 x 2 + 6 + 1 = 11,
     * chunk 0 (5 layers) 6 times and chunk 1 (4) 5 times: 50 layers', the fullest */
    struct gs_training_knobs knobs;
    memset(&knobs, 0, sizeof(knobs));
    knobs.framework = GS_FW_TORCHTITAN;
    knobs.framework_given = true;
    struct gs_framework_rules rules;
    gs_framework_resolve(&knobs, GS_ATTN_SDPA, &rules);
    in.rules = &rules;
    par.stages = gs_stage_rule(GS_SPLIT_TORCHTITAN);
    in.micro_batches = 6;
    assert_true(gs_activation_bytes(&in, &r));
    const uint64_t titan_layer = r.per_layer_bytes;
    assert_int_equal(r.first_stage_bytes, 4 * (8 * titan_layer + ids)); /* plain: 4 in flight */
    par.stages.chunks = 2;
    assert_true(gs_activation_bytes(&in, &r));
    assert_int_equal(r.first_stage_bytes, 50 * titan_layer);
}

/* A small Llama: h 64, 4 heads of 16 (MHA), SwiGLU 128, 2 layers. */
static struct gs_arch small_llama(void)
{
    return fixture_arch("{\"model_type\":\"llama\",\"hidden_size\":64,\"intermediate_size\":128,"
                        "\"num_attention_heads\":4,\"num_key_value_heads\":4,"
                        "\"num_hidden_layers\":2,\"vocab_size\":1000}");
}

/* The small Llama with 2 KV heads for its 4 query heads, of 16 (head_dim 0) or head_dim. */
static struct gs_arch small_gqa_llama(uint64_t head_dim)
{
    return fixture_typed("llama", 64, 2, 4, 2, 128, 1000, false, head_dim);
}

/* One sequence of 16 tokens through a fused attention kernel, no recomputation, under `rules`
 * (resolved by the caller for the path and release a case names). */
static struct gs_activation_input sixteen_tokens(const struct gs_arch *a,
                                                 const struct gs_parallelism *par,
                                                 const struct gs_framework_rules *rules,
                                                 uint64_t element_bytes)
{
    struct gs_activation_input in = fixture_one_sequence(a, par, rules, 16, true);
    in.element_bytes = element_bytes;
    return in;
}

/* The small GQA Llama (head_dim 0: heads of 16) under a transformers 5.17 request, one sequence
 * of 16 tokens at `element_bytes`; the caller resolves the rules for the path and release a case
 * names. The members point at each other: use it where it was made. */
struct gqa_case {
    struct gs_arch arch;
    struct gs_parallelism par;
    struct gs_training_knobs knobs;
    struct gs_framework_rules rules;
    struct gs_activation_input in;
};

static void gqa_case_init(struct gqa_case *k, uint64_t head_dim, uint64_t element_bytes)
{
    k->arch = small_gqa_llama(head_dim);
    fixture_framework_release(&k->par, &k->knobs, GS_FW_TRANSFORMERS, 517);
    memset(&k->rules, 0, sizeof(k->rules));
    k->in = sixteen_tokens(&k->arch, &k->par, &k->rules, element_bytes);
}

/* Grouped K/V by transformers' attention path and release, on the small Llama with 2 KV heads
 * of 16 for its 4 query heads (bf16, 16 tokens): repeated to every head, K and V keep 2 x 2 x
 * 64 = 256 B a token; at their own heads 2 x 2 x 32 = 128, 2,048 B a layer less. Eager
 * attention repeats them in every release (eager_attention_forward's repeat_kv); SDPA repeats
 * them until sdpa_attention.py hands them over grouped (use_gqa_in_sdpa, enable_gqa=True:
 * 4.56 on in this table); flash_attention_2/3 and flex_attention never repeat them. */
static void test_transformers_grouped_kv(void **state)
{
    (void)state;
    struct gqa_case k;
    gqa_case_init(&k, 0, 2);
    static const struct {
        uint32_t version;
        enum gs_attn_impl impl;
        bool expanded;
    } cases[] = {{449, GS_ATTN_SDPA, true},    {455, GS_ATTN_SDPA, true},
                 {456, GS_ATTN_SDPA, false},   {517, GS_ATTN_SDPA, false},
                 {517, GS_ATTN_EAGER, true},   {449, GS_ATTN_FLASH2, false},
                 {517, GS_ATTN_FLASH3, false}, {517, GS_ATTN_FLEX, false}};
    struct gs_activation_result r;
    gs_framework_resolve(&k.knobs, GS_ATTN_SDPA, &k.rules);
    assert_true(gs_activation_bytes(&k.in, &r));
    const uint64_t grouped = r.per_layer_bytes;
    assert_int_equal(grouped, 41216 - 2048); /* test_transformers_eager_layer's SDPA layer */
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        k.knobs.framework_version = cases[i].version;
        gs_framework_resolve(&k.knobs, cases[i].impl, &k.rules);
        assert_int_equal(k.rules.gqa_expanded, cases[i].expanded);
        if (cases[i].impl == GS_ATTN_EAGER)
            continue;
        /* the 4.48-4.55 rows' query.contiguous() copy (2 x 64 x 16 = 2,048) is SDPA's alone */
        assert_int_equal(k.rules.query_contiguous,
                         cases[i].version < 456 && cases[i].impl == GS_ATTN_SDPA);
        assert_true(gs_activation_bytes(&k.in, &r));
        const uint64_t copy = k.rules.query_contiguous ? 2048 : 0;
        assert_int_equal(r.per_layer_bytes - copy, grouped + (cases[i].expanded ? 2048 : 0));
    }
}

/* A sliding-window layer under transformers' SDPA once the keys reach its window: a Mistral-shaped
 * small model (h 64, 4 heads of 16, 2 KV heads, window 8, bf16, one sequence of 16 tokens).
 * masking_utils builds the mask (_ignore_causal_mask_sdpa skips it only while kv_length < the
 * window), sdpa_attention.py then repeats K/V (use_gqa_in_sdpa is false under a mask): + 2 x 2 x
 * 32 x 16 = 2,048 over the grouped layer, and aten's additive copy of the mask in bf16, (1, 1, 16,
 * 16) x 2 B = 512, kept by the memory-efficient kernel's backward: 39,168 + 2,048 + 512 = 41,728.
 * With a window of 32 (> 16 keys) no mask: 39,168. flash_attention_2 takes the window itself
 * (window_size) and keeps neither. */
static void test_sdpa_sliding_window_mask(void **state)
{
    (void)state;
    struct gs_arch a = fixture_arch("{\"model_type\":\"mistral\",\"hidden_size\":64,"
                                    "\"intermediate_size\":128,\"num_attention_heads\":4,"
                                    "\"num_key_value_heads\":2,\"num_hidden_layers\":2,"
                                    "\"sliding_window\":8,\"vocab_size\":1000}");
    assert_int_equal(a.blocks[0].attn.span, GS_SPAN_SLIDING);
    assert_int_equal(a.blocks[0].attn.window, 8);
    struct gs_parallelism par;
    struct gs_training_knobs knobs;
    fixture_framework_release(&par, &knobs, GS_FW_TRANSFORMERS, 517);
    struct gs_framework_rules rules;
    struct gs_activation_input in = sixteen_tokens(&a, &par, &rules, 2);
    struct gs_activation_result r;
    gs_framework_resolve(&knobs, GS_ATTN_SDPA, &rules);
    assert_true(gs_activation_bytes(&in, &r));
    assert_int_equal(r.per_layer_bytes, 41728);
    gs_framework_resolve(&knobs, GS_ATTN_FLASH2, &rules);
    assert_true(gs_activation_bytes(&in, &r));
    assert_int_equal(r.per_layer_bytes, 39168);
    a.blocks[0].attn.window = 32;
    gs_framework_resolve(&knobs, GS_ATTN_SDPA, &rules);
    assert_true(gs_activation_bytes(&in, &r));
    assert_int_equal(r.per_layer_bytes, 39168);
}

/* `in` sized without and with a padding mask. */
static void unpadded_and_padded(struct gs_activation_input *in, struct gs_activation_result *plain,
                                struct gs_activation_result *padded)
{
    in->padding_mask = false;
    assert_true(gs_activation_bytes(in, plain));
    in->padding_mask = true;
    assert_true(gs_activation_bytes(in, padded));
}

/* Padded micro-batches under transformers' SDPA: every layer takes the masked path. The small
 * GQA Llama (h 64, 4 heads of 16, 2 KV heads), bf16, 2 sequences of 16 tokens, 2 layers.
 * 5.17: K/V repeated (use_gqa_in_sdpa is false under a mask), 2 x 2 x 16 x 2 B x 32 tokens =
 * 4,096, and aten's additive copy of the boolean mask, 2 B x 2 x 16 x 16 = 1,024, a layer:
 * 5,120 each, 10,240 in all. 4.52 (one additive mask from _update_causal_mask, repeat_kv
 * anyway): the memory-efficient kernel lays its output out (batch, seq, heads, dim), so
 * query.contiguous()'s o copy goes, -2 B x 64 x 32 = -4,096 a layer, and the one mask every
 * layer's kernel keeps, 1,024, is counted once: -7,168. At 15 tokens its rows are padded to 16
 * in every call (preprocess_mask: pad_bias), 2 B x 2 x 15 x 16 = 960 a layer, and no shared
 * mask. Under full recomputation the 5.17 boolean mask is an input of every checkpointed
 * layer: 1 B x 2 x 16 x 16 = 512 kept beside the layer inputs. */
static void test_sdpa_padding_mask(void **state)
{
    (void)state;
    struct gqa_case k;
    gqa_case_init(&k, 0, 2);
    k.in.batch_size = 2;
    struct gs_activation_result plain, padded;
    gs_framework_resolve(&k.knobs, GS_ATTN_SDPA, &k.rules);
    unpadded_and_padded(&k.in, &plain, &padded);
    assert_int_equal(padded.per_layer_bytes - plain.per_layer_bytes, 5120);
    assert_int_equal(padded.total_bytes - plain.total_bytes, 10240);

    k.knobs.framework_version = 452;
    gs_framework_resolve(&k.knobs, GS_ATTN_SDPA, &k.rules);
    assert_false(k.rules.sdpa_bool_mask);
    unpadded_and_padded(&k.in, &plain, &padded);
    assert_int_equal((int64_t)(padded.per_layer_bytes - plain.per_layer_bytes), -4096);
    assert_int_equal((int64_t)(padded.total_bytes - plain.total_bytes), -7168);
    k.in.sequence_length = 15;
    unpadded_and_padded(&k.in, &plain, &padded);
    assert_int_equal(padded.per_layer_bytes + 2 * 64 * 30 - plain.per_layer_bytes, 960);
    assert_int_equal(padded.total_bytes + 2 * (2 * 64 * 30) - plain.total_bytes, 2 * 960);

    k.in.sequence_length = 16;
    k.in.recompute = GS_RECOMPUTE_FULL;
    k.knobs.framework_version = 517;
    gs_framework_resolve(&k.knobs, GS_ATTN_SDPA, &k.rules);
    unpadded_and_padded(&k.in, &plain, &padded);
    assert_int_equal(padded.per_layer_bytes, plain.per_layer_bytes); /* the layer inputs */
    assert_int_equal(padded.layer_working_bytes - plain.layer_working_bytes, 5120);
    assert_int_equal(padded.total_bytes - plain.total_bytes, 512 + 5120);

    /* flash_attention_2 unpads the batch and takes no mask; eager adds the model's mask to its
     * scores and keeps nothing more */
    k.in.recompute = GS_RECOMPUTE_NONE;
    gs_framework_resolve(&k.knobs, GS_ATTN_FLASH2, &k.rules);
    unpadded_and_padded(&k.in, &plain, &padded);
    assert_int_equal(padded.total_bytes, plain.total_bytes);
    gs_framework_resolve(&k.knobs, GS_ATTN_EAGER, &k.rules);
    k.in.flash_attention = false;
    unpadded_and_padded(&k.in, &plain, &padded);
    assert_int_equal(padded.total_bytes, plain.total_bytes);
}

/* MLA through transformers' attention paths (DeepseekV3Attention.forward hands every head's K and
 * V to the attention function): a small DeepSeek-V3 (h 64, 4 heads, Q/K heads of 16 + 8 = 24, V
 * heads of 16, two dense layers), bf16, 2 sequences of 16 tokens, full training, transformers 5.17.
 * - SDPA over a padded batch takes the masked path like any attention: aten's additive copy of the
 *   boolean mask, 2 B x 2 x 16 x 16 = 1,024 a layer (no K/V to repeat: MLA has every head's);
 *   4.52's one additive mask serves every layer: 1,024 once.
 * - flash_attention_2 pads V to 24 (F.pad): V and the kernel's output are kept at 4 x 24 = 96
 *   instead of 64 (+32 each), and o_proj reads a sliced copy of 64 it keeps for its weight's
 *   gradient, while SDPA's V is a view of kv_b_proj's output, whose 4 x 16 no-rope keys it keeps
 *   too and flash-attn's padded copy does not: 2 B x 32 tokens x (32 + 32 + 64 - 64) = 4,096 a
 *   layer over SDPA's; without that view (qkv_views off) SDPA keeps 4,096 less. Its padded
 *   batches are unpadded, no mask. */
static void test_mla_attention_paths(void **state)
{
    (void)state;
    struct gs_arch a = fixture_small_mla();
    assert_int_equal(a.blocks[0].mixer, GS_MIXER_MLA);
    struct gs_parallelism par;
    struct gs_training_knobs knobs;
    fixture_framework_release(&par, &knobs, GS_FW_TRANSFORMERS, 517);
    struct gs_framework_rules rules;
    struct gs_activation_input in = sixteen_tokens(&a, &par, &rules, 2);
    in.batch_size = 2;
    struct gs_activation_result plain, padded;
    gs_framework_resolve(&knobs, GS_ATTN_SDPA, &rules);
    unpadded_and_padded(&in, &plain, &padded);
    assert_int_equal(padded.per_layer_bytes - plain.per_layer_bytes, 1024);
    assert_int_equal(padded.total_bytes - plain.total_bytes, 2 * 1024);
    const uint64_t sdpa_layer = plain.per_layer_bytes;

    knobs.framework_version = 452;
    gs_framework_resolve(&knobs, GS_ATTN_SDPA, &rules);
    unpadded_and_padded(&in, &plain, &padded);
    assert_int_equal(padded.per_layer_bytes, plain.per_layer_bytes);
    assert_int_equal(padded.total_bytes - plain.total_bytes, 1024);

    knobs.framework_version = 517;
    gs_framework_resolve(&knobs, GS_ATTN_FLASH2, &rules);
    assert_true(rules.flash_pads_mla_value);
    unpadded_and_padded(&in, &plain, &padded);
    assert_int_equal(plain.per_layer_bytes - sdpa_layer, 4096);
    assert_int_equal(padded.total_bytes, plain.total_bytes);
    gs_framework_resolve(&knobs, GS_ATTN_SDPA, &rules);
    assert_true(a.blocks[0].attn.qkv_views);
    a.blocks[0].attn.qkv_views = false;
    in.padding_mask = false;
    assert_true(gs_activation_bytes(&in, &plain));
    assert_int_equal(sdpa_layer - plain.per_layer_bytes, 4096);
}

/* GPT-OSS's eager attention (modeling_gpt_oss.py eager_attention_forward) runs softmax over the
 * scores and the sink column at their own dtype, F.softmax(combined_logits, dim=-1,
 * dtype=combined_logits.dtype), and slices the sink off: the matmul with V keeps that view, so a
 * score costs the softmax output alone, 2 bytes in bf16 (Llama's fp32 softmax and 16-bit copy: 6).
 * Under autocast over fp32 weights the model's fp32 mask makes the scores fp32 (4) and the matmul
 * keeps its own 16-bit copy (2): 6. A small GPT-OSS (h 64, 4 heads of 16, 2 KV heads), one
 * sequence: the scores grow with the square of the length and nothing else a layer keeps does, so
 * a layer at 32 tokens less two at 16 is 4 heads x (32^2 - 2 x 16^2) = 2,048 scores. */
static void test_gpt_oss_eager_scores(void **state)
{
    (void)state;
    struct gs_arch a = fixture_arch(
        "{\"model_type\":\"gpt_oss\",\"hidden_size\":64,\"intermediate_size\":64,"
        "\"num_attention_heads\":4,\"num_key_value_heads\":2,\"head_dim\":16,"
        "\"num_hidden_layers\":2,\"num_local_experts\":4,\"num_experts_per_tok\":2,"
        "\"sliding_window\":8,\"layer_types\":[\"sliding_attention\",\"full_attention\"],"
        "\"vocab_size\":1000}");
    assert_true(a.eager_softmax_native);
    struct gs_parallelism par;
    struct gs_training_knobs knobs;
    fixture_framework_release(&par, &knobs, GS_FW_TRANSFORMERS, 517);
    struct gs_framework_rules rules;
    gs_framework_resolve(&knobs, GS_ATTN_EAGER, &rules);
    struct gs_activation_input in = sixteen_tokens(&a, &par, &rules, 2);
    in.flash_attention = false;
    static const struct {
        uint64_t element_bytes;
        bool autocast;
        uint64_t per_score;
    } cases[] = {{2, false, 2}, {4, false, 4}, {2, true, 6}};
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        in.element_bytes = cases[i].element_bytes;
        in.autocast = cases[i].autocast;
        in.residual_bytes = cases[i].autocast ? 4 : 0;
        struct gs_activation_result at16, at32;
        in.sequence_length = 16;
        assert_true(gs_activation_bytes(&in, &at16));
        in.sequence_length = 32;
        assert_true(gs_activation_bytes(&in, &at32));
        assert_int_equal(at32.per_layer_bytes - 2 * at16.per_layer_bytes,
                         2048 * cases[i].per_score);
    }
}

/* Soft-capping keeps a tanh output (tanh's backward reads its result; the divisions and products
 * by the cap keep nothing). The small GQA Llama, bf16, one sequence of 16 tokens, transformers
 * 5.17, with the flags set as a Gemma 2 config sets them:
 * - logits (vocabulary 1,000): 16 x 1,000 x 2 B = 32,000 more at the loss, under a fused
 *   linear-cross-entropy none (Liger caps inside its kernel), nor under torchtune (its
 *   Gemma2FinalNorm caps the final norm's output, not the logits);
 * - eager scores: 4 heads x 16 x 16 x 2 B = 2,048 more a layer, 2 B a score under autocast too
 *   (the matmul's output is 16-bit there); SDPA and flash keep no scores (transformers' SDPA path
 *   drops the cap, flash-attn applies it in its kernel). */
static void test_softcapping(void **state)
{
    (void)state;
    struct gqa_case k;
    gqa_case_init(&k, 0, 2);
    struct gs_activation_result plain, capped;
    gs_framework_resolve(&k.knobs, GS_ATTN_SDPA, &k.rules);
    assert_true(gs_activation_bytes(&k.in, &plain));
    k.arch.final_logit_softcap = true;
    assert_true(gs_activation_bytes(&k.in, &capped));
    assert_int_equal(capped.logits_bytes - plain.logits_bytes, 32000);
    assert_int_equal(capped.per_layer_bytes, plain.per_layer_bytes);
    k.knobs.loss = GS_LOSS_FUSED;
    gs_framework_resolve(&k.knobs, GS_ATTN_SDPA, &k.rules);
    assert_true(gs_activation_bytes(&k.in, &capped));
    k.arch.final_logit_softcap = false;
    assert_true(gs_activation_bytes(&k.in, &plain));
    assert_int_equal(capped.logits_bytes, plain.logits_bytes);

    k.knobs.loss = GS_LOSS_DEFAULT;
    k.knobs.framework = GS_FW_TORCHTUNE; /* Gemma2FinalNorm caps the normed hidden states */
    gs_framework_resolve(&k.knobs, GS_ATTN_SDPA, &k.rules);
    assert_true(gs_activation_bytes(&k.in, &plain));
    k.arch.final_logit_softcap = true;
    assert_true(gs_activation_bytes(&k.in, &capped));
    assert_int_equal(capped.logits_bytes, plain.logits_bytes);
    k.arch.final_logit_softcap = false;
    k.knobs.framework = GS_FW_TRANSFORMERS;
    gs_framework_resolve(&k.knobs, GS_ATTN_EAGER, &k.rules);
    k.in.flash_attention = false;
    for (int autocast = 0; autocast < 2; autocast++) {
        k.in.autocast = autocast;
        k.in.residual_bytes = autocast ? 4 : 0;
        k.arch.attn_logit_softcap = false;
        assert_true(gs_activation_bytes(&k.in, &plain));
        k.arch.attn_logit_softcap = true;
        assert_true(gs_activation_bytes(&k.in, &capped));
        assert_int_equal(capped.per_layer_bytes - plain.per_layer_bytes, 2048);
    }
    gs_framework_resolve(&k.knobs, GS_ATTN_FLASH2, &k.rules);
    k.in.flash_attention = true;
    assert_true(gs_activation_bytes(&k.in, &capped));
    k.arch.attn_logit_softcap = false;
    assert_true(gs_activation_bytes(&k.in, &plain));
    assert_int_equal(capped.per_layer_bytes, plain.per_layer_bytes);
}

/* transformers' eager attention adds the model's mask to its scores and keeps nothing of it, but
 * under full checkpointing the mask is an input of every checkpointed layer and stays until
 * backward: (2, 1, 16, 16) in bf16, 1,024 B beside the layer inputs (the small GQA Llama, 2
 * sequences of 16 tokens), against flash_attention_2, which gets no mask. Without checkpointing
 * it is gone by backward. */
static void test_eager_mask_under_checkpointing(void **state)
{
    (void)state;
    struct gqa_case k;
    gqa_case_init(&k, 0, 2);
    k.in.batch_size = 2;
    k.in.recompute = GS_RECOMPUTE_FULL;
    struct gs_activation_result eager, flash;
    gs_framework_resolve(&k.knobs, GS_ATTN_FLASH2, &k.rules);
    assert_true(gs_activation_bytes(&k.in, &flash));
    gs_framework_resolve(&k.knobs, GS_ATTN_EAGER, &k.rules);
    k.in.flash_attention = false;
    assert_true(gs_activation_bytes(&k.in, &eager));
    assert_int_equal(eager.per_layer_bytes, flash.per_layer_bytes); /* the layer inputs */
    assert_int_equal((eager.total_bytes - eager.layer_working_bytes) -
                         (flash.total_bytes - flash.layer_working_bytes),
                     1024);
    k.in.recompute = GS_RECOMPUTE_NONE;
    struct gs_activation_result kept; /* the same token ids and logits, and no mask */
    assert_true(gs_activation_bytes(&k.in, &kept));
    assert_int_equal(kept.total_bytes - 2 * kept.per_layer_bytes,
                     eager.total_bytes - eager.layer_working_bytes - 2 * eager.per_layer_bytes -
                         1024);
}

/* What the first layer keeps less, from its stage's stored bytes: the stage holds that layer, a
 * usual one and the token ids (8 B a token). */
static uint64_t first_layer_saving(const struct gs_activation_input *in)
{
    struct gs_activation_result r;
    assert_true(gs_activation_bytes(in, &r));
    const uint64_t ids = 8 * in->batch_size * in->sequence_length;
    return 2 * r.per_layer_bytes + ids - r.first_stage_bytes;
}

/* A small model (its config.json) under a transformers 5.17 request, one sequence of 16 bf16
 * tokens, LoRA r8 on q and v unless `full`. The members point at each other: use it where it was
 * made. */
struct layer_case {
    struct gs_arch arch;
    struct gs_parallelism par;
    struct gs_training_knobs knobs;
    struct gs_framework_rules rules;
    struct gs_training tr;
    struct gs_activation_input in;
};

static void layer_case_init(struct layer_case *c, const char *config, bool full)
{
    c->arch = fixture_arch("%s", config);
    fixture_framework_release(&c->par, &c->knobs, GS_FW_TRANSFORMERS, 517);
    gs_framework_resolve(&c->knobs, GS_ATTN_SDPA, &c->rules);
    gs_training_defaults(&c->tr);
    fixture_lora_qv(&c->tr, 8);
    c->in = sixteen_tokens(&c->arch, &c->par, &c->rules, 2);
    c->in.trainable = full ? GS_TRAIN_ALL : GS_TRAIN_ADAPTERS;
    c->in.adapters = &c->tr;
}

/* The same for a model whose first layer kind routes experts. */
static void moe_case_init(struct layer_case *c, const char *config, bool full)
{
    layer_case_init(c, config, full);
    assert_int_equal(c->arch.blocks[0].mlp.kind, GS_MLP_MOE);
}

/* The layer kind whose recurrent scan is `scan` (one there must be). */
static size_t scan_block(const struct gs_arch *a, enum gs_scan scan)
{
    size_t found = a->block_count;
    for (size_t i = 0; i < a->block_count; i++)
        if (a->blocks[i].rec.scan == scan)
            found = i;
    assert_true(found < a->block_count);
    return found;
}

/* One layer's bytes, as stored for backward. */
static uint64_t layer_bytes(const struct gs_activation_input *in)
{
    struct gs_activation_result r;
    assert_true(gs_activation_bytes(in, &r));
    return r.per_layer_bytes;
}

/* One layer's bytes with arch `a` beyond those with arch `base`, the rest of `in` alike. */
static uint64_t layer_bytes_beyond(struct gs_activation_input *in, const struct gs_arch *a,
                                   const struct gs_arch *base)
{
    in->arch = a;
    const uint64_t with = layer_bytes(in);
    in->arch = base;
    return with - layer_bytes(in);
}

/* The small GQA Llama (h 64, 4 heads of 16 over 2 KV heads, SwiGLU 128, 2 layers, vocabulary
 * 1,000) as a config, for layer_case_init. */
#define SMALL_LLAMA                                                                                \
    "{\"model_type\":\"llama\",\"hidden_size\":64,\"intermediate_size\":128,"                      \
    "\"num_attention_heads\":4,\"num_key_value_heads\":2,\"num_hidden_layers\":2,"                 \
    "\"vocab_size\":1000}"

/* A small Mamba (h 64, inner 128, state 8, conv kernel 4, 2 layers) and a small Jamba (h 64;
 * layer 0 a Mamba mixer of inner 128, state 8, layer 1 attention; no experts), with `extra`
 * config members, for layer_case_init. */
#define SMALL_MAMBA                                                                                \
    "{\"model_type\":\"mamba\",\"hidden_size\":64,\"intermediate_size\":128,"                      \
    "\"state_size\":8,\"conv_kernel\":4,\"num_hidden_layers\":2,\"vocab_size\":1000}"
#define SMALL_JAMBA(extra)                                                                         \
    "{\"model_type\":\"jamba\",\"hidden_size\":64,\"intermediate_size\":128,"                      \
    "\"num_attention_heads\":4,\"num_key_value_heads\":2,\"num_hidden_layers\":2,"                 \
    "\"attn_layer_period\":2,\"attn_layer_offset\":1,\"num_experts\":1,\"mamba_expand\":2,"        \
    "\"mamba_d_state\":8,\"mamba_d_conv\":4," extra "\"vocab_size\":1000}"

#define SMALL_QWEN3_MOE                                                                            \
    "{\"model_type\":\"qwen3_moe\",\"hidden_size\":64,\"intermediate_size\":128,"                  \
    "\"num_attention_heads\":4,\"num_key_value_heads\":2,\"head_dim\":16,"                         \
    "\"num_hidden_layers\":2,\"num_experts\":4,\"num_experts_per_tok\":2,"                         \
    "\"moe_intermediate_size\":32,\"vocab_size\":1000}"

/* A MoE block under transformers' code (moe_weights_after_experts): each routed token runs its
 * expert over a gathered copy of its input and the expert's output is multiplied by its routing
 * weight afterwards (integrations/moe.py grouped_mm_experts_forward, the 5.x default; the eager
 * Experts loop alike). The small Qwen3-MoE (h 64, 4 experts of 32, top-2, SwiGLU) keeps 32 routed
 * tokens a layer; against the generic count (gate, up, activation and down's input, 4 x 2 B x 32 =
 * 256, and the gathered input, 2 B x 64 = 128, a routed token: 12,288 a layer):
 * - full training: the same 384, the expert's output the weighting keeps (2 B x 64 = 128) - 512 a
 *   routed token, 16,384 - and the router's input, which its linear keeps (2 B x 64 x 16 =
 *   2,048): 6,144 more a layer;
 * - LoRA (the experts frozen): the gate/up output and the activation's output (3 x 2 B x 32 =
 *   192) and the expert's output (128): 320 a routed token, 10,240: 2,048 less a layer;
 * - LitGPT's LLaMAMoE weighs after the experts too; torchtitan's row keeps the generic count. */
static void test_moe_weights_after_experts(void **state)
{
    (void)state;
    for (int full = 0; full < 2; full++) {
        struct layer_case c;
        moe_case_init(&c, SMALL_QWEN3_MOE, full);
        assert_true(c.rules.moe_weights_after_experts);
        const uint64_t weighed = layer_bytes(&c.in);
        c.rules.moe_weights_after_experts = false;
        const uint64_t generic = layer_bytes(&c.in);
        if (full)
            assert_int_equal(weighed - generic, 6144);
        else
            assert_int_equal(generic - weighed, 2048);
    }
    struct gs_training_knobs knobs;
    struct gs_parallelism par;
    struct gs_framework_rules rules;
    fixture_framework_release(&par, &knobs, GS_FW_LITGPT, 0);
    gs_framework_resolve(&knobs, GS_ATTN_SDPA, &rules);
    assert_true(rules.moe_weights_after_experts);
    knobs.framework = GS_FW_TORCHTITAN;
    gs_framework_resolve(&knobs, GS_ATTN_SDPA, &rules);
    assert_false(rules.moe_weights_after_experts);
}

/* GPT-OSS's experts run their own clamped GLU (GptOssExperts._apply_gate), whatever hidden_act
 * says: the gate_up output (2 widths, pinned by the clamped views), the clamped gate, the sigmoid,
 * up + 1 and the GLU (1 each), six widths against SwiGLU's three: a small GPT-OSS (h 64, 4 experts
 * of 64, top-2) under LoRA keeps 3 x 2 B x 64 x 32 routed tokens = 12,288 more a layer. */
static void test_moe_gpt_oss_glu(void **state)
{
    (void)state;
    struct layer_case c;
    moe_case_init(&c,
                  "{\"model_type\":\"gpt_oss\",\"hidden_size\":64,\"intermediate_size\":64,"
                  "\"num_attention_heads\":4,\"num_key_value_heads\":2,\"head_dim\":16,"
                  "\"num_hidden_layers\":2,\"num_local_experts\":4,\"num_experts_per_tok\":2,"
                  "\"hidden_act\":\"silu\",\"vocab_size\":1000}",
                  false);
    assert_int_equal(c.arch.blocks[0].mlp.act, GS_ACT_GPT_OSS_GLU);
    const uint64_t glu = layer_bytes(&c.in);
    for (size_t i = 0; i < c.arch.block_count; i++)
        c.arch.blocks[i].mlp.act = GS_ACT_SAVES_INPUT;
    assert_int_equal(glu - layer_bytes(&c.in), 12288);
}

/* Qwen-MoE's sigmoid gate on its shared expert (F.sigmoid(self.shared_expert_gate(hidden_states))
 * * shared_expert_output) keeps the shared expert's output and the sigmoid's: (64 + 1) x 2 B x 16
 * tokens = 2,080 a layer (a small Qwen2-MoE under LoRA). */
static void test_moe_shared_gate(void **state)
{
    (void)state;
    struct layer_case c;
    moe_case_init(&c,
                  "{\"model_type\":\"qwen2_moe\",\"hidden_size\":64,\"intermediate_size\":128,"
                  "\"num_attention_heads\":4,\"num_key_value_heads\":2,\"num_hidden_layers\":2,"
                  "\"num_experts\":4,\"num_experts_per_tok\":2,\"moe_intermediate_size\":32,"
                  "\"shared_expert_intermediate_size\":64,\"vocab_size\":1000}",
                  false);
    assert_true(c.arch.blocks[0].mlp.shared_gated);
    const uint64_t gated = layer_bytes(&c.in);
    for (size_t i = 0; i < c.arch.block_count; i++)
        c.arch.blocks[i].mlp.shared_gated = false;
    assert_int_equal(gated - layer_bytes(&c.in), 2080);
}

/* GLM-4.5's router runs in fp32 (Glm4MoeTopkRouter: F.linear(hidden_states.type(torch.float32),
 * self.weight.type(torch.float32))): in bf16 it keeps the fp32 weight, 4 experts x 64 x 4 B =
 * 1,024 a layer, and in full training the fp32 input too, 4 B x 64 x 16 tokens = 4,096 more. */
static void test_moe_router_fp32(void **state)
{
    (void)state;
    for (int full = 0; full < 2; full++) {
        struct layer_case c;
        moe_case_init(
            &c,
            "{\"model_type\":\"glm4_moe\",\"hidden_size\":64,\"intermediate_size\":128,"
            "\"num_attention_heads\":4,\"num_key_value_heads\":2,\"head_dim\":16,"
            "\"num_hidden_layers\":2,\"n_routed_experts\":4,\"num_experts_per_tok\":2,"
            "\"moe_intermediate_size\":32,\"n_shared_experts\":1,\"first_k_dense_replace\":0,"
            "\"vocab_size\":1000}",
            full);
        assert_true(c.arch.blocks[0].mlp.router_fp32);
        const uint64_t fp32 = layer_bytes(&c.in);
        for (size_t i = 0; i < c.arch.block_count; i++)
            c.arch.blocks[i].mlp.router_fp32 = false;
        assert_int_equal(fp32 - layer_bytes(&c.in), full ? 5120 : 1024);
    }
}

/* What a layer's backward holds beyond what the layer stored (gs_activation_result
 * layer_backward_bytes), on the small Llama fully trained, 16 bf16 tokens, flash attention: its
 * MLP's gradient pair, 2 x 2 B x 16 x 128 = 8,192; under selective recomputation also the
 * attention core it recomputes, the fp32 log-sum-exp of 4 heads, 4 x 4 x 16 = 256: 8,448. */
static void test_layer_backward(void **state)
{
    (void)state;
    struct layer_case c;
    layer_case_init(&c, SMALL_LLAMA, true);
    struct gs_activation_result r;
    assert_true(gs_activation_bytes(&c.in, &r));
    assert_int_equal(r.layer_backward_bytes, 8192);
    c.in.recompute = GS_RECOMPUTE_SELECTIVE;
    assert_true(gs_activation_bytes(&c.in, &r));
    assert_int_equal(r.layer_backward_bytes, 8192 + 256);
}

/* A small Nemotron-H (h 64; pattern "*M": attention, then a Mamba2 mixer of 4 heads of 16, inner
 * I = 64, 2 groups of state 8: conv channels I + 2 x 2 x 8 = 96, in_proj output I + 96 + 4 heads =
 * 164; chunk_size 128, NemotronHConfig's default), for layer_case_init. */
#define SMALL_NEMOTRON_H                                                                           \
    "{\"model_type\":\"nemotron_h\",\"hidden_size\":64,\"vocab_size\":1000,"                       \
    "\"num_attention_heads\":4,\"num_key_value_heads\":2,\"head_dim\":16,"                         \
    "\"intermediate_size\":128,\"mamba_num_heads\":4,\"mamba_head_dim\":16,\"n_groups\":2,"        \
    "\"ssm_state_size\":8,\"conv_kernel\":4,\"hybrid_override_pattern\":\"*M\"}"

/* The stored bytes of `c` with block `k` sized by its projections less with its scan counted. */
static int64_t projections_over_scan(struct layer_case *c, size_t k)
{
    struct gs_activation_result r;
    assert_true(gs_activation_bytes(&c->in, &r));
    const int64_t counted = (int64_t)r.stored_bytes;
    const uint8_t scan = c->arch.blocks[k].rec.scan;
    c->arch.blocks[k].rec.scan = GS_SCAN_PROJECTIONS;
    assert_true(gs_activation_bytes(&c->in, &r));
    c->arch.blocks[k].rec.scan = scan;
    return (int64_t)r.stored_bytes - counted;
}

/* SMALL_NEMOTRON_H, one sequence of 16 tokens in bf16, LoRA on q_proj and v_proj. The
 * projections' count keeps (164 + 96 + 64 + 64) x 2 B = 776 B a token, 12,416.
 * mamba_split_conv1d_scan_combined keeps the in_proj output (164 x 2), the scan's output before
 * the norm (64 x 2) and the norm's fp32 rstd per group (2 x 4): 464 B a token, 7,424, 4,992 less;
 * under autocast over fp32 weights also its bf16 copy of out_proj's weight, 64 x 64 x 2 = 8,192 a
 * layer. Over a padded batch Granite 4's mixer keeps the combined path (Nemotron-H's leaves it:
 * test_mamba2_chunked). */
static void test_mamba2_combined(void **state)
{
    (void)state;
    struct layer_case c;
    layer_case_init(&c, SMALL_NEMOTRON_H, false);
    const size_t mamba = scan_block(&c.arch, GS_SCAN_MAMBA2_COMBINED);
    assert_int_equal(c.arch.blocks[mamba].rec.chunk, 128);
    assert_int_equal(projections_over_scan(&c, mamba), 12416 - 7424);
    c.in.padding_mask = true;
    c.arch.blocks[mamba].rec.padded_unfused = false; /* Granite 4's mixer keeps the fused path */
    assert_true(gs_activation_counts_scan(&c.in, &c.arch.blocks[mamba]));
    assert_int_equal(projections_over_scan(&c, mamba), 12416 - 7424);
    c.arch.blocks[mamba].rec.padded_unfused = true;
    c.in.padding_mask = false;
    c.in.autocast = true;
    c.in.residual_bytes = 4;
    assert_int_equal(projections_over_scan(&c, mamba), 12416 - 7424 - 8192);
}

/* The stored bytes of `c` with its Mamba2 block's padded batch run as Nemotron-H runs it (the
 * kernels one by one) less the combined kernel's (padded_unfused false: Granite 4's). */
static int64_t chunked_over_combined(struct layer_case *c)
{
    struct gs_block *b = &c->arch.blocks[scan_block(&c->arch, GS_SCAN_MAMBA2_COMBINED)];
    struct gs_activation_result r;
    assert_true(gs_activation_bytes(&c->in, &r));
    const int64_t chunked = (int64_t)r.stored_bytes;
    b->rec.padded_unfused = false;
    assert_true(gs_activation_bytes(&c->in, &r));
    b->rec.padded_unfused = true;
    return chunked - (int64_t)r.stored_bytes;
}

/* Nemotron-H over a padded batch (NemotronHMamba2Mixer.cuda_kernels_forward without
 * input_not_masked: causal_conv1d_fn, mamba_chunk_scan_combined, the gated norm, out_proj),
 * SMALL_NEMOTRON_H with 16 tokens, LoRA on q and v, bf16. A token keeps in_proj's output (the
 * conv's saved input), 164, the conv's output (B and C saved as its views), 96, the masked
 * input and the scan's output, 64 each, all x 2 B = 776; the norm's fp32 copy of the output,
 * the gate's fp32 copy, silu's output and the product, 4 x 64 x 4 = 1,024, its rstd, 2 x 4:
 * 1,808 a token, 28,928; dA_cumsum, 4 heads x 4 B over the sequence padded to one chunk of 128:
 * 2,048. 30,976 against the combined kernel's 7,424: 23,552 more. Full training adds the
 * normalized copy the norm's weight multiplies and out_proj's input, 2 x 64 x 2 a token: 27,648.
 * In fp32 the norm's copies of the output and the gate are the tensors themselves: (164 + 96 +
 * 128) x 4 + 2 x 64 x 4 + 8 = 2,072 a token, 33,152 + 2,048 against (164 + 64) x 4 + 8 = 920 a
 * token, 14,720: 20,480 more. */
static void test_mamba2_chunked(void **state)
{
    (void)state;
    const int64_t more[] = {23552, 27648, 20480};
    for (int i = 0; i < 3; i++) {
        struct layer_case c;
        layer_case_init(&c, SMALL_NEMOTRON_H, i == 1);
        c.in.padding_mask = true;
        if (i == 2)
            c.in.element_bytes = 4;
        assert_true(gs_activation_counts_scan(
            &c.in, &c.arch.blocks[scan_block(&c.arch, GS_SCAN_MAMBA2_COMBINED)]));
        assert_int_equal(chunked_over_combined(&c), more[i]);
    }
}

/* Mamba2's torch fallback (Mamba2Mixer.torch_forward's naive chunked SSD; Nemotron-H's copy),
 * SMALL_NEMOTRON_H with one sequence of 16 tokens (l = 128: one chunk, 128 padded tokens), LoRA
 * on q and v, bf16. A token keeps in_proj's output and the conv's, (164 + 96) x 2 = 520; dt +
 * dt_bias, softplus's and clamp's outputs, 3 x 4 x 2 = 24; the input's fp32 copy, 64 x 4 = 256;
 * the gated norm's fp32 gate copy, silu's output and product, 3 x 64 x 4, and rstd, 2 x 4: 776;
 * 1,576 a token, 25,216. A padded token, in fp32: the chunked input, Y_off's sum and y, 3 x 64;
 * B and C repeated to the 4 heads and B_decay, 3 x 4 x 8; L, G and M, 3 x 128 x 4;
 * decay_states and exp(A_cumsum), 2 x 4: 1,832 x 4 = 7,328, 937,984. The sequence: the conv's 3
 * padded positions, 3 x 96 x 2 = 576; the chunk states with their leading zeros and new_states,
 * 2 x 2 x 64 x 8 x 4 = 8,192; decay_chunk, 2 x 2 x 4 x 4 = 64: 8,832. 972,032 against the
 * combined kernel's 7,424: 964,608 more. Its backward's largest moment: Y_diag's product
 * (1, 1, 128, 128, 4, 16), whose two full-shape gradients are 2 x 128 x 64 x 4 B a padded token,
 * 8,388,608 (G_intermediate's, 2 x 128 x 4 x 8 x 4 a padded token, 4,194,304; the forward's
 * locals 2,719,744), the layer's backward beyond what it keeps (the fused kernel's: none, no MLP
 * in either layer kind).
 * - fp32: in_proj's and the conv's outputs at 4 B, 1,040, the time step's 48, silu's output
 *   whole instead of the input's copy, 96 x 4 = 384, the norm without the copy of the gate, 520:
 *   1,992 a token, 31,872; the conv's padded positions at 4 B, 1,152: 979,264 against (164 + 64)
 *   x 4 + 8 = 920 a token, 14,720: 964,544 more;
 * - full training: the norm's normalized fp32 tensor and out_proj's input, 64 x 4 + 64 x 2 a
 *   token, 6,144, and the padded input D multiplies, 64 x 4 a padded token, 32,768: 1,003,520
 *   more;
 * - autocast over fp32 weights: the time step's tensors in fp32, 3 x 4 x 4 a token, 384 more,
 *   and F.conv1d's bf16 copy of its weight, 96 x 4 x 2 = 768; the combined kernel its copy of
 *   out_proj's, 8,192: 957,568 more. */
static void test_mamba2_naive(void **state)
{
    (void)state;
    const int64_t more[] = {964608, 964544, 1003520, 957568};
    for (int i = 0; i < 4; i++) {
        struct layer_case c;
        layer_case_init(&c, SMALL_NEMOTRON_H, i == 2);
        if (i == 1)
            c.in.element_bytes = 4;
        if (i == 3) {
            c.in.autocast = true;
            c.in.residual_bytes = 4;
        }
        struct gs_activation_result r;
        assert_true(gs_activation_bytes(&c.in, &r));
        const int64_t combined = (int64_t)r.stored_bytes;
        assert_int_equal(r.layer_backward_bytes, 0);
        c.in.recurrent_torch = true;
        assert_true(gs_activation_counts_scan(
            &c.in, &c.arch.blocks[scan_block(&c.arch, GS_SCAN_MAMBA2_COMBINED)]));
        assert_true(gs_activation_bytes(&c.in, &r));
        assert_int_equal((int64_t)r.stored_bytes - combined, more[i]);
        assert_int_equal(r.layer_backward_bytes, 8388608);
    }
}

/* A small Falcon-H1 (h 64; each layer a GQA attention of 4 heads of 16 over 2 KV heads beside a
 * Mamba2 mixer of inner I = 64, 4 heads of 16, one group of state 8, no gated norm: conv channels
 * 64 + 2 x 8 = 80, in_proj output 64 + 80 + 4 = 148), 16 tokens, full training in bf16. The
 * projections' count gives the Mamba2 half 148 + 80 + 64 + 64 = 356 elements a token, 712 B.
 * mamba_split_conv1d_scan_combined keeps in_proj's output and the scan's output, (148 + 64) x 2 =
 * 424 B, no rstd without the norm; the mixer and the attention each read their own scaled copy of
 * the normed input, which in_proj and q, k, v keep: 64 x 2 = 128 more. 552 a token, 2,560 fewer a
 * layer. With mamba_rms_norm the norm's rstd adds 4 a token (2,496 fewer); under LoRA on q and v
 * in_proj keeps nothing and the kernel its 424: 4,608 fewer; under autocast over fp32 weights
 * each linear keeps its own 16-bit cast (counted as such), the kernel its bf16 copy of out_proj's
 * weight, 64 x 64 x 2 = 8,192 a layer: 424 x 16 + 8,192 - 712 x 16 = 3,584 more.
 * Under the torch fallback (FalconH1Mixer.torch_forward, Mamba2's naive chunked SSD:
 * test_mamba2_naive's terms; chunks of 256, Falcon-H1's default, so 256 padded tokens): a token
 * keeps in_proj's and the conv's outputs, (148 + 80) x 2, the time step's three tensors, 3 x 4 x
 * 2, the input's fp32 copy, 64 x 4, without the norm silu(gate)'s output, 64 x 2, and out_proj's
 * input, 64 x 2: 992; a padded token, in fp32, (3 x 64 + 3 x 4 x 8 + 3 x 256 x 4 + 2 x 4 + 64) x
 * 4 = 13,728 (the last 64: the padded input D multiplies, trained); the sequence (3 x 80 x 2 + 2
 * x 2 x 64 x 8 x 4 + 2 x 2 x 4 x 4) = 8,736; the second copy of the normed input, 2,048:
 * 15,872 + 3,514,368 + 8,736 + 2,048 = 3,541,024 against the projections' 11,392, 3,529,632
 * more; with the norm (FalconH1RMSNormGated) 3 x 64 x 4 + 4 + 64 x 4 for silu's 64 x 2 a token,
 * 900 more, 14,400. Its backward's largest moment, Y_diag's product gradients (2 x 256 x 64 x 4 B
 * a padded token), 33,554,432, is the layer's backward beyond what it keeps. */
static void test_falcon_h1_parallel(void **state)
{
    (void)state;
#define SMALL_FALCON_H1(extra)                                                                     \
    "{\"model_type\":\"falcon_h1\",\"hidden_size\":64,\"intermediate_size\":128,"                  \
    "\"num_attention_heads\":4,\"num_key_value_heads\":2,\"head_dim\":16,"                         \
    "\"num_hidden_layers\":2,\"mamba_d_ssm\":64,\"mamba_n_heads\":4,\"mamba_d_head\":16,"          \
    "\"mamba_n_groups\":1,\"mamba_d_state\":8,\"mamba_d_conv\":4," extra "\"vocab_size\":1000}"
    /* without and with the gated norm */
    const char *configs[] = {SMALL_FALCON_H1(""), SMALL_FALCON_H1("\"mamba_rms_norm\":true,")};
#undef SMALL_FALCON_H1
    const int64_t fewer[] = {2560, 2496};
    for (size_t i = 0; i < 2; i++) {
        struct layer_case c;
        layer_case_init(&c, configs[i], true);
        struct gs_block *b = &c.arch.blocks[scan_block(&c.arch, GS_SCAN_MAMBA2_COMBINED)];
        assert_int_equal(b->mixer, GS_MIXER_ATTENTION);
        assert_true(gs_activation_counts_scan(&c.in, b));
        const int64_t kernel = (int64_t)layer_bytes(&c.in);
        b->rec.scan = GS_SCAN_PROJECTIONS;
        assert_int_equal((int64_t)layer_bytes(&c.in) - kernel, fewer[i]);
        b->rec.scan = GS_SCAN_MAMBA2_COMBINED;
        c.in.recurrent_torch = true;
        assert_true(gs_activation_counts_scan(&c.in, b));
        struct gs_activation_result r;
        assert_true(gs_activation_bytes(&c.in, &r));
        assert_int_equal(r.layer_backward_bytes, 33554432);
        const int64_t torch = (int64_t)r.per_layer_bytes;
        b->rec.scan = GS_SCAN_PROJECTIONS;
        assert_int_equal(torch - (int64_t)layer_bytes(&c.in), i == 0 ? 3529632 : 3544032);
        b->rec.scan = GS_SCAN_MAMBA2_COMBINED;
        c.in.recurrent_torch = false;
        if (i == 1)
            continue;
        c.in.autocast = true;
        c.in.residual_bytes = 4;
        const int64_t amp = (int64_t)layer_bytes(&c.in);
        b->rec.scan = GS_SCAN_PROJECTIONS;
        assert_int_equal(amp - (int64_t)layer_bytes(&c.in), 3584);
        b->rec.scan = GS_SCAN_MAMBA2_COMBINED;
        c.in.autocast = false;
        c.in.residual_bytes = 0;
        c.in.trainable = GS_TRAIN_ADAPTERS;
        const int64_t lora = (int64_t)layer_bytes(&c.in);
        b->rec.scan = GS_SCAN_PROJECTIONS;
        assert_int_equal((int64_t)layer_bytes(&c.in) - lora, 4608);
    }
}

/* A small Mamba (h 64, inner I = 128, state N = 8, time-step rank R = ceil(64 / 16) = 4, conv
 * bias on), fully trained, one sequence. The projections' count keeps (2I + I + I + I) = 640
 * elements a token (in_proj's output, the conv's, the gated output and out_proj's input).
 * mamba_inner_fn keeps xz, x_dbl, B, C and the scan's output, (2I + R + 2N + 2N + I) = 420 a
 * token; its fp32 chunk states, I x 2N x 4 = 8,192 B per 2,048 tokens of a sequence; A and exp's
 * output (A_log trains), 2 x I x N x 4 = 8,192 a layer; over bf16 weights the fp32 copies of D,
 * dt_proj's bias and conv1d's bias, 3 x I x 4 = 1,536. So, a layer:
 * - bf16, 16 tokens: 420 x 2 x 16 + 8,192 + 8,192 + 1,536 = 31,360 against 640 x 2 x 16 = 20,480;
 * - fp32 (no copies): 420 x 4 x 16 + 8,192 + 8,192 = 43,264 against 40,960;
 * - autocast over fp32 weights: the bf16 count less the copies, plus bf16 copies of x_proj's,
 *   dt_proj's and out_proj's weights, (R + 2N) x I + I x R + h x I = 11,264 elements, 22,528 B:
 *   52,352 against 20,480;
 * - bf16, 4,096 tokens (two chunks): 420 x 2 x 4,096 + 2 x 8,192 + 9,728 = 3,466,752 against
 *   640 x 2 x 4,096 = 5,242,880.
 * A padding mask does not leave the path (the torch fallback: test_mamba1_sequential). Adapters
 * on x_proj, dt_proj and out_proj never run there. */
static void test_mamba1_inner(void **state)
{
    (void)state;
    struct layer_case c;
    layer_case_init(&c, SMALL_MAMBA, true);
    const size_t mamba = scan_block(&c.arch, GS_SCAN_MAMBA1_INNER);
    struct gs_block *b = &c.arch.blocks[mamba];
    assert_int_equal(b->rec.dt_rank, 4);
    const int64_t bf16 = (int64_t)layer_bytes(&c.in);
    c.in.padding_mask = true;
    assert_true(gs_activation_counts_scan(&c.in, b));
    assert_int_equal(layer_bytes(&c.in), bf16);
    c.in.padding_mask = false;
    b->rec.scan = GS_SCAN_PROJECTIONS;
    assert_int_equal((int64_t)layer_bytes(&c.in) - bf16, 20480 - 31360);
    c.in.sequence_length = 4096;
    const int64_t long_projections = (int64_t)layer_bytes(&c.in);
    b->rec.scan = GS_SCAN_MAMBA1_INNER;
    assert_int_equal(long_projections - (int64_t)layer_bytes(&c.in), 5242880 - 3466752);
    c.in.sequence_length = 16;
    c.in.element_bytes = 4;
    const int64_t fp32 = (int64_t)layer_bytes(&c.in);
    b->rec.scan = GS_SCAN_PROJECTIONS;
    assert_int_equal((int64_t)layer_bytes(&c.in) - fp32, 40960 - 43264);
    c.in.element_bytes = 2;
    c.in.autocast = true;
    c.in.residual_bytes = 4;
    const int64_t amp_projections = (int64_t)layer_bytes(&c.in);
    b->rec.scan = GS_SCAN_MAMBA1_INNER;
    assert_int_equal((int64_t)layer_bytes(&c.in) - amp_projections, 52352 - 20480);
    /* LoRA: mamba_inner_fn reads x_proj's, dt_proj's and out_proj's weights, so adapters there
     * never run and keep nothing beside in_proj's; under the torch fallback each keeps its fp32
     * cast of its input (PEFT's fp32 adapters): (I + R + I) x 4 = 1,040 B a token, 16,640 */
    c.in.autocast = false;
    c.in.residual_bytes = 0;
    c.in.trainable = GS_TRAIN_ADAPTERS;
    c.tr.lora_target_count = 1;
    strcpy(c.tr.lora_targets[0], "in_proj");
    const int64_t in_proj_only = (int64_t)layer_bytes(&c.in);
    c.tr.lora_target_count = 4;
    strcpy(c.tr.lora_targets[1], "x_proj");
    strcpy(c.tr.lora_targets[2], "dt_proj");
    strcpy(c.tr.lora_targets[3], "out_proj");
    assert_int_equal((int64_t)layer_bytes(&c.in), in_proj_only);
    c.in.recurrent_torch = true;
    const int64_t all_torch = (int64_t)layer_bytes(&c.in);
    c.tr.lora_target_count = 1;
    assert_int_equal(all_torch - (int64_t)layer_bytes(&c.in), 16640);
}

/* The same small Mamba (I 128, N 8, R 4, conv kernel K 4) under transformers' torch fallback,
 * MambaMixer.slow_forward's sequential scan (activation.c mamba1_sequential_bytes), 16 tokens.
 * Fully trained in bf16, one sequence, a token: in_proj's output 2I, the conv's output I, silu's
 * output I (the product with D keeps it), act(gate) I, out_proj's input I: 6I x 2 = 1,536;
 * dt_proj's output, softplus's output and the gated sum, 3I x 2 = 768; discrete_A and discrete_B,
 * 2 x I x N x 4 = 8,192, and the input's fp32 copy, I x 4 = 512; x_proj's output, (R + 2N) x 2 =
 * 40, and B's fp32 copy, N x 4 = 32; the state's bf16 copy the matmul keeps, I x N x 2 = 2,048:
 * 13,128 a token, 210,048. A sequence: the conv's K - 1 extra positions, 3 x I x 2 = 768, the
 * first state's zeros, I x N x 2 = 2,048, and the 15 states the next steps keep, 15 x I x N x 4 =
 * 61,440: 64,256. A layer: A and exp's output, 2 x I x N x 4 = 8,192. 282,496 in all, against the
 * projections' 20,480. Then:
 * - two sequences of 8: x_proj folds its transposed input into a copy, I x 2 = 256 a token more
 *   (214,144), and a sequence 768 + 2,048 + 7 x 4,096 = 31,488 each: 285,312;
 * - a padding mask: the conv reads a masked copy, I x 2 x 16 = 4,096 more: 286,592;
 * - fp32: 6I x 4 + 3I x 4 = 4,608, the scan's 8,192 (the input's .float() is silu's output,
 *   counted), x_proj's output 80 (B.float() is a view of it), every state kept as it is, I x N x
 *   4 = 4,096: 16,976 a token, 271,616; a sequence 3 x I x 4 + I x N x 4 = 5,632: 285,440,
 *   against 40,960;
 * - autocast over fp32 weights: softplus's input and output and the sum in fp32, 3I x 4 = 1,536,
 *   so 13,896 a token, 222,336; a sequence with fp32 zeros, 768 + 4,096 + 61,440 = 66,304; a
 *   layer 8,192 and the conv weight's bf16 copy, I x K x 2 = 1,024: 297,856;
 * - LoRA on in_proj, x_proj and out_proj (PEFT's fp32 adapters read their own casts, D, A_log
 *   frozen): 4I x 2 + 768 + 8,704 + 72 + 2,048 = 12,616 a token, 201,856, + 64,256 + A's 4,096 =
 *   270,208;
 * - Jamba's layer (the same dims with the dt, B and C RMSNorms; test_jamba_mamba's config):
 *   x_proj's output is not kept, the norms' fp32 copies (R + 2N) x 4 + 3 x 4 = 92 are, C's
 *   normed output N x 2 = 16, B's fp32 copy 32, the normalized copies (R + 2N) x 2 = 40 and
 *   dt_proj's input R x 2 = 8: 13,244 a token, 211,904: 284,352.
 * Its backward's working set beyond them: discrete_A's and deltaB_u's fp32 gradient buffers and
 * two full-shape product gradients, 4 x I x N x 4 a token, 262,144 (the fused kernel's layer: its
 * MLP-less block makes no gradient pair). */
static void test_mamba1_sequential(void **state)
{
    (void)state;
    struct layer_case c;
    layer_case_init(&c, SMALL_MAMBA, true);
    struct gs_block *b = &c.arch.blocks[scan_block(&c.arch, GS_SCAN_MAMBA1_INNER)];
    c.in.recurrent_torch = true;
    assert_true(gs_activation_counts_scan(&c.in, b));
    int64_t bytes[2];
#define SEQUENTIAL_DIFFERENCE(kind)                                                                \
    do {                                                                                           \
        b->rec.scan = (kind);                                                                      \
        bytes[0] = (int64_t)layer_bytes(&c.in);                                                    \
        b->rec.scan = GS_SCAN_PROJECTIONS;                                                         \
        bytes[1] = (int64_t)layer_bytes(&c.in);                                                    \
    } while (0)
    SEQUENTIAL_DIFFERENCE(GS_SCAN_MAMBA1_INNER);
    assert_int_equal(bytes[0] - bytes[1], 282496 - 20480);
    b->rec.scan = GS_SCAN_MAMBA1_INNER;
    struct gs_activation_result r;
    assert_true(gs_activation_bytes(&c.in, &r));
    assert_int_equal(r.layer_backward_bytes, 262144);
    c.in.recurrent_torch = false;
    assert_true(gs_activation_bytes(&c.in, &r));
    assert_int_equal(r.layer_backward_bytes, 0);
    c.in.recurrent_torch = true;
    c.in.batch_size = 2;
    c.in.sequence_length = 8;
    SEQUENTIAL_DIFFERENCE(GS_SCAN_MAMBA1_INNER);
    assert_int_equal(bytes[0] - bytes[1], 285312 - 20480);
    c.in.batch_size = 1;
    c.in.sequence_length = 16;
    c.in.padding_mask = true;
    SEQUENTIAL_DIFFERENCE(GS_SCAN_MAMBA1_INNER);
    assert_int_equal(bytes[0] - bytes[1], 286592 - 20480);
    c.in.padding_mask = false;
    c.in.element_bytes = 4;
    SEQUENTIAL_DIFFERENCE(GS_SCAN_MAMBA1_INNER);
    assert_int_equal(bytes[0] - bytes[1], 285440 - 40960);
    c.in.element_bytes = 2;
    c.in.autocast = true;
    c.in.residual_bytes = 4;
    SEQUENTIAL_DIFFERENCE(GS_SCAN_MAMBA1_INNER);
    assert_int_equal(bytes[0] - bytes[1], 297856 - 20480);
    c.in.autocast = false;
    c.in.residual_bytes = 0;
    c.in.trainable = GS_TRAIN_ADAPTERS;
    c.tr.lora_target_count = 3;
    strcpy(c.tr.lora_targets[0], "in_proj");
    strcpy(c.tr.lora_targets[1], "x_proj");
    strcpy(c.tr.lora_targets[2], "out_proj");
    SEQUENTIAL_DIFFERENCE(GS_SCAN_MAMBA1_INNER);
    assert_int_equal(bytes[0] - bytes[1], 270208 - 20480);
    c.in.trainable = GS_TRAIN_ALL;
    /* Jamba's mixer: the same dims with the norms */
    struct layer_case j;
    layer_case_init(&j, SMALL_JAMBA(""), true);
    j.in.recurrent_torch = true;
    b = &j.arch.blocks[scan_block(&j.arch, GS_SCAN_MAMBA1_SELECTIVE)];
    b->rec.scan = GS_SCAN_MAMBA1_SELECTIVE;
    assert_true(gs_activation_bytes(&j.in, &r));
    bytes[0] = (int64_t)r.stored_bytes;
    b->rec.scan = GS_SCAN_PROJECTIONS;
    assert_true(gs_activation_bytes(&j.in, &r));
    bytes[1] = (int64_t)r.stored_bytes;
    assert_int_equal(bytes[0] - bytes[1], 284352 - 20480);
    b->rec.scan = GS_SCAN_MAMBA1_SELECTIVE;
    assert_true(gs_activation_bytes(&j.in, &r));
    assert_int_equal(r.layer_backward_bytes, 262144);
#undef SEQUENTIAL_DIFFERENCE
}

/* A small Jamba (h 64; layer 0 a JambaMambaMixer of inner I = 128, state N = 8, time-step rank
 * R = ceil(64 / 16) = 4; layer 1 attention; no experts), one sequence of 16 tokens. The
 * projections' count keeps 5I = 640 elements a token (20,480 B in bf16, 40,960 in fp32). The
 * kernels called one by one keep, a token: in_proj's output (causal_conv1d_fn's input view), 2I;
 * selective_scan_fn's contiguous copies of u, delta and z and its output, 4I; B and C, 2N; the
 * RMSNorms' fp32 copies, (R + 2N) x 4 = 80 B, and rsqrt outputs, 3 x 4 = 12 B; fully trained also
 * the normalized copies the norm weights multiply, R + 2N, and the inputs x_proj (the conv's
 * output, I), dt_proj (R) and out_proj (the gated output, I) keep: 8I + 4N + 2R = 1,064 elements.
 * A sequence: the fp32 chunk states, I x 2N x 4 = 8,192. A layer: A and, where A_log trains,
 * exp's output, I x N x 4 = 4,096 each; over bf16 weights the fp32 copies of D and dt_proj's
 * bias, 2 x I x 4 = 1,024. So:
 * - bf16, full: (1,064 x 2 + 92) x 16 + 8,192 + 8,192 + 1,024 = 52,928 against 20,480;
 * - with a padding mask the conv reads a masked copy of I rather than in_proj's 2I: 48,832;
 * - fp32, full (no copies; x_proj's output kept whole is the norms' fp32 input): (1,064 x 4 +
 *   92) x 16 + 16,384 = 85,952 against 40,960;
 * - LoRA on in_proj, x_proj and out_proj with PEFT's fp32 adapters (each reads its own cast, so
 *   no linear keeps the shared input; the norms' weights and A_log frozen): (6I + 2N) x 2 + 92 =
 *   1,660 a token, 26,560, + 8,192 + 4,096 + 1,024 = 39,872; with bf16 adapters and no dropout
 *   x_proj's and out_proj's adapters read their inputs themselves: 2I x 2 x 16 = 8,192 more.
 * Autocast over fp32 weights (the scan kernel refuses the norms' fp32 B and C) keeps the
 * projections' count. */
static void test_jamba_mamba(void **state)
{
    (void)state;
    struct layer_case c;
    layer_case_init(&c, SMALL_JAMBA(""), true);
    const size_t mamba = scan_block(&c.arch, GS_SCAN_MAMBA1_SELECTIVE);
    struct gs_block *b = &c.arch.blocks[mamba];
    assert_int_equal(b->rec.dt_rank, 4);
    struct gs_activation_result r;
    /* the kernels' count less the projections', the rest of the model alike */
    const uint8_t scans[] = {GS_SCAN_MAMBA1_SELECTIVE, GS_SCAN_PROJECTIONS};
    int64_t stored[2];
#define JAMBA_DIFFERENCE()                                                                         \
    do {                                                                                           \
        for (size_t i = 0; i < 2; i++) {                                                           \
            b->rec.scan = scans[i];                                                                \
            assert_true(gs_activation_bytes(&c.in, &r));                                           \
            stored[i] = (int64_t)r.stored_bytes;                                                   \
        }                                                                                          \
    } while (0)
    JAMBA_DIFFERENCE();
    assert_int_equal(stored[0] - stored[1], 52928 - 20480);
    c.in.padding_mask = true;
    JAMBA_DIFFERENCE();
    assert_int_equal(stored[0] - stored[1], 48832 - 20480);
    c.in.padding_mask = false;
    c.in.element_bytes = 4;
    JAMBA_DIFFERENCE();
    assert_int_equal(stored[0] - stored[1], 85952 - 40960);
    c.in.element_bytes = 2;
    c.in.autocast = true;
    c.in.residual_bytes = 4;
    b->rec.scan = GS_SCAN_MAMBA1_SELECTIVE;
    assert_false(gs_activation_counts_scan(&c.in, b));
    JAMBA_DIFFERENCE();
    assert_int_equal(stored[0], stored[1]);
    c.in.autocast = false;
    c.in.residual_bytes = 0;
    c.in.recurrent_torch = true; /* the sequential scan: test_mamba1_sequential */
    JAMBA_DIFFERENCE();
    assert_int_equal(stored[0] - stored[1], 284352 - 20480);
    c.in.recurrent_torch = false;
    c.in.trainable = GS_TRAIN_ADAPTERS;
    c.tr.lora_target_count = 3;
    strcpy(c.tr.lora_targets[0], "in_proj");
    strcpy(c.tr.lora_targets[1], "x_proj");
    strcpy(c.tr.lora_targets[2], "out_proj");
    assert_true(c.rules.adapters_fp32);
    JAMBA_DIFFERENCE();
    assert_int_equal(stored[0] - stored[1], 39872 - 20480);
    c.rules.adapters_fp32 = false;
    c.tr.lora_dropout_permille = 0;
    JAMBA_DIFFERENCE();
    assert_int_equal(stored[0] - stored[1], 39872 + 8192 - 20480);
#undef JAMBA_DIFFERENCE
    /* a config that turns the kernels off runs slow_forward unless the request asks for them
     * (recurrent_notes: test_framework's test_recurrent_scan_warning) */
    const struct gs_arch slow = fixture_arch("%s", SMALL_JAMBA("\"use_mamba_kernels\":false,"));
    assert_int_equal(slow.blocks[mamba].rec.scan, GS_SCAN_MAMBA1_SELECTIVE);
    assert_true(slow.blocks[mamba].rec.kernels_off);
    assert_false(b->rec.kernels_off);
}

/* Mamba's blocks add into an fp32 residual stream (MambaConfig residual_in_fp32, true by
 * default: MambaBlock.forward residual = residual.to(torch.float32)), so under full recomputation
 * a bf16 layer's checkpoint is its fp32 input: 16 tokens x 64 x 4 = 4,096 B, against 2,048 with
 * residual_in_fp32 false (Nemotron-H's default). */
static void test_residual_in_fp32(void **state)
{
    (void)state;
    const char *configs[] = {
        "{\"model_type\":\"mamba\",\"hidden_size\":64,\"intermediate_size\":128,"
        "\"state_size\":8,\"num_hidden_layers\":2,\"vocab_size\":1000}",
        "{\"model_type\":\"mamba\",\"hidden_size\":64,\"intermediate_size\":128,"
        "\"state_size\":8,\"num_hidden_layers\":2,\"vocab_size\":1000,"
        "\"residual_in_fp32\":false}"};
    const uint64_t expected[] = {4096, 2048};
    for (size_t i = 0; i < 2; i++) {
        struct layer_case c;
        layer_case_init(&c, configs[i], true);
        assert_int_equal(c.arch.residual_fp32, i == 0);
        c.in.recompute = GS_RECOMPUTE_FULL;
        assert_int_equal(layer_bytes(&c.in), expected[i]);
    }
}

/* bitsandbytes' 4-bit linear keeps no input for backward since 0.43.2 (PR #1270, "delete useless
 * buffered activation": MatMul4Bit.forward ctx.tensors = (None, B); grad_A needs only the
 * weight), which every transformers release from 4.46 (October 2024) runs beside; before, it
 * kept A, its input. A small Llama (hidden 64, MLP 128) under QLoRA with adapters on q and v,
 * 16 tokens at bf16: with PEFT's fp32 adapters, which read a dropout's output or their own fp32
 * copy, the attention's input (k_proj's alone), the MLP's input and down_proj's are kept by no
 * one else: 16 x 2 x (64 + 64 + 128) = 8,192 B a layer fewer, with dropout 0.05 or none. bf16
 * adapters without dropout read the attention input itself and keep it: 16 x 2 x (64 + 128) =
 * 6,144. Its backward dequantizes each weight to 16 bits for the input's gradient
 * (MatMul4Bit.backward: F.dequantize_4bit(B)), one at a time: the largest, gate's, up's or down's
 * 64 x 128 x 2 = 16,384 B, in the layer's working set. */
static void test_bnb_4bit_keeps_no_input(void **state)
{
    (void)state;
    struct layer_case c;
    layer_case_init(&c, SMALL_LLAMA, false);
    assert_false(c.rules.quant_saves_input);
    c.tr.method = GS_METHOD_QLORA;
    c.in.quantized_base = true;
    const uint32_t dropout[] = {50, 0, 0};
    const bool fp32_adapters[] = {true, true, false};
    const uint64_t fewer[] = {8192, 8192, 6144};
    for (size_t i = 0; i < 3; i++) {
        c.tr.lora_dropout_permille = dropout[i];
        c.rules.adapters_fp32 = fp32_adapters[i];
        const uint64_t now = layer_bytes(&c.in);
        c.rules.quant_saves_input = true;
        assert_int_equal(layer_bytes(&c.in) - now, fewer[i]);
        c.rules.quant_saves_input = false;
    }
    struct gs_activation_result r;
    assert_true(gs_activation_bytes(&c.in, &r));
    const uint64_t working = r.layer_working_bytes;
    c.in.quantized_base = false;
    assert_true(gs_activation_bytes(&c.in, &r));
    assert_int_equal(working - r.layer_working_bytes, 16384);
    c.in.quantized_base = true;
    struct gs_training_knobs knobs = c.knobs;
    struct gs_framework_rules older;
    knobs.framework_version = 445;
    gs_framework_resolve(&knobs, GS_ATTN_SDPA, &older);
    assert_true(older.quant_saves_input);
}

/* TRL's chunked_nll loss (trl/trainer/sft_trainer.py _chunked_cross_entropy_loss, SFTConfig's
 * default from TRL 1.7): checkpointed chunks of 256 tokens, here one of 16 (hidden 64, vocabulary
 * 1,000, bf16, LoRA). Its backward holds log_softmax's fp32 output, the gradient nll_loss hands
 * it and the logits' gradient, 3 x 4 x 16 x 1,000 = 192,000, beside the fp32 copy of the bf16
 * head the matmul saved, 4 x 64,000 = 256,000, and the packed hidden rows with their gradient's
 * buffer, 2 x 2 x 16 x 64 = 4,096: 452,096 B. Under autocast the matmul saves a 16-bit copy of
 * that fp32 copy, made while it lives: 6 x 64,000 = 384,000 at the cast, over 14 x 16,000 + 2 x
 * 64,000 = 352,000 in backward: 388,096. A trained head adds its fp32 weight gradient and the
 * cast to bf16, 6 x 64,000: 836,096 without autocast; under autocast a 16-bit gradient cast back
 * to fp32, the same 6 x 64,000 over the cast's moment: 772,096; an fp32 head (fp32 hidden states)
 * is read as it is and its gradient is its own: 12 x 16,000 + 4 x 64,000 + 2 x 4 x 16 x 64 =
 * 456,192. The head's input is not kept, and the head's moment reads the packed rows' gradient,
 * 16 x 64 x 2 = 2,048, as under a fused loss. */
static void test_trl_chunked_nll(void **state)
{
    (void)state;
    struct layer_case c;
    layer_case_init(&c, SMALL_LLAMA, false);
    c.rules.loss = GS_LOSS_CHUNKED_NLL;
    struct gs_activation_result r;
    assert_true(gs_activation_bytes(&c.in, &r));
    assert_int_equal(r.logits_bytes - r.final_norm_bytes, 452096);
    c.in.autocast = true;
    assert_true(gs_activation_bytes(&c.in, &r));
    assert_int_equal(r.logits_bytes - r.final_norm_bytes, 388096);
    c.in.autocast = false;
    c.in.trainable = GS_TRAIN_ALL;
    assert_true(gs_activation_bytes(&c.in, &r));
    assert_int_equal(r.logits_bytes - r.final_norm_bytes, 836096);
    assert_int_equal(r.logit_grads_bytes, 2048);
    c.in.autocast = true;
    assert_true(gs_activation_bytes(&c.in, &r));
    assert_int_equal(r.logits_bytes - r.final_norm_bytes, 772096);
    c.in.autocast = false;
    c.in.residual_bytes = 4;
    assert_true(gs_activation_bytes(&c.in, &r));
    assert_int_equal(r.logits_bytes - r.final_norm_bytes, 456192);
    c.in.residual_bytes = 0;
    assert_int_equal(gs_loss_eighths_per_logit(&c.rules, 1, 1), 0);
}

/* The torch fallback's gated RMSNorm keeps one fp32 rstd per variance it takes: Mamba2's
 * MambaRMSNormGated and Granite 4's BambaRMSNormGated take it over the whole inner width
 * (pow(2).mean(-1) of (batch, seq, inner)), one a token; Nemotron-H's Zamba2RMSNormGated over each
 * of the n_groups B/C groups. A small Mamba2 (h 64, inner 128 in 4 heads of 32, 2 groups, state 8)
 * under full training, naive SSD, 16 tokens: 4 B a token and layer less than a per-group count,
 * 128 over its two layers. */
static void test_gated_norm_rstd(void **state)
{
    (void)state;
    struct layer_case c;
    layer_case_init(&c,
                    "{\"model_type\":\"mamba2\",\"hidden_size\":64,\"num_hidden_layers\":2,"
                    "\"num_heads\":4,\"head_dim\":32,\"n_groups\":2,\"state_size\":8,"
                    "\"vocab_size\":1000}",
                    true);
    const size_t m = scan_block(&c.arch, GS_SCAN_MAMBA2_COMBINED);
    assert_true(c.arch.blocks[m].rec.norm_whole);
    c.in.recurrent_torch = true;
    struct gs_activation_result r;
    assert_true(gs_activation_bytes(&c.in, &r));
    const uint64_t whole = r.stored_bytes;
    c.arch.blocks[m].rec.norm_whole = false;
    assert_true(gs_activation_bytes(&c.in, &r));
    assert_int_equal(r.stored_bytes - whole, 2 * 64);
    /* Granite 4's hybrid, BambaRMSNormGated; Nemotron-H's per group */
    struct layer_case g;
    layer_case_init(&g,
                    "{\"model_type\":\"granitemoehybrid\",\"hidden_size\":64,"
                    "\"num_hidden_layers\":2,\"num_attention_heads\":4,"
                    "\"num_key_value_heads\":2,\"intermediate_size\":128,"
                    "\"shared_intermediate_size\":128,\"num_local_experts\":0,"
                    "\"mamba_n_heads\":4,\"mamba_d_head\":16,\"mamba_n_groups\":2,"
                    "\"mamba_d_state\":8,\"mamba_d_conv\":4,"
                    "\"layer_types\":[\"attention\",\"mamba\"],\"vocab_size\":1000}",
                    true);
    assert_true(g.arch.blocks[scan_block(&g.arch, GS_SCAN_MAMBA2_COMBINED)].rec.norm_whole);
    struct layer_case n;
    layer_case_init(&n, SMALL_NEMOTRON_H, true);
    assert_false(n.arch.blocks[scan_block(&n.arch, GS_SCAN_MAMBA2_COMBINED)].rec.norm_whole);
}

/* A small Qwen3.5 (h 64; Gated DeltaNet of 2 key heads of 16 and 4 value heads of 8: K = 32,
 * V = 32, C = 2K + V = 96 conv channels, in_proj outputs C + V + 2 x 4 = 136; conv kernel 4)
 * whose second layer is the Gated DeltaNet (the first layer's input needs no gradient under
 * LoRA), one sequence of 16 tokens in bf16, LoRA on q_proj and v_proj (none in that layer).
 * The projections' count keeps (136 + 96 + 32 + 32) x 2 B = 592 B a token: 9,472. What
 * transformers' code keeps (activation.c gated_delta_bytes), a token:
 * - the layer: the conv's input 96 x 2, beta 4 x 2, softplus's fp32 input 4 x 4; the gated norm's
 *   fp32 input 32 x 4, rsqrt 4 x 4, fp32 gate 32 x 4, weighted output 32 x 2, silu's output
 *   32 x 4 (out_proj, frozen and not adapted, keeps nothing): 680 B;
 * - fla: q and k normalized 2 x 32 x 2, their rstd 2 x 2 x 4, v 32 x 2, g's cumsum 4 x 4, A
 *   4 x 64 x 2: 736 B. 1,416 B a token, 22,656: 13,184 more than the projections;
 * - full training adds softplus's output 4 x 4, the norm's 16-bit copy 32 x 2 and out_proj's
 *   input 32 x 2: 144 B a token, 2,304;
 * - the torch fallback, for fla's 736: q and k in fp32 with their rsqrt, 4 x (2 x 16 x 4 + 2 x 4)
 *   = 544 B a token (8,704 with the layer's 10,880); the conv's output over 16 + 3 positions,
 *   96 x 2 x 19 = 3,648; one 64-token padded chunk of 4 heads x ((6 x 16 + 3 x 8) x 4 +
 *   5 x 64 x 4 + 4 x 4) = 7,104 B a token, 454,656; and the chunk's state 4 x (16 x 8 x 4 + 4) =
 *   2,064: 479,952 B. */
static void test_gated_delta_net(void **state)
{
    (void)state;
    struct layer_case c;
    layer_case_init(&c,
                    "{\"model_type\":\"qwen3_5\",\"text_config\":{\"hidden_size\":64,"
                    "\"intermediate_size\":128,\"num_attention_heads\":4,"
                    "\"num_key_value_heads\":2,\"head_dim\":16,\"num_hidden_layers\":2,"
                    "\"layer_types\":[\"full_attention\",\"linear_attention\"],"
                    "\"linear_num_key_heads\":2,\"linear_num_value_heads\":4,"
                    "\"linear_key_head_dim\":16,\"linear_value_head_dim\":8,"
                    "\"linear_conv_kernel_dim\":4,\"vocab_size\":1000}}",
                    false);
    const size_t gdn = scan_block(&c.arch, GS_SCAN_GATED_DELTA_RULE);
    assert_true(gs_activation_counts_scan(&c.in, &c.arch.blocks[gdn]));
    struct gs_activation_result r;
    assert_true(gs_activation_bytes(&c.in, &r));
    const uint64_t fused = r.stored_bytes;
    c.in.recurrent_torch = true;
    assert_true(gs_activation_bytes(&c.in, &r));
    assert_int_equal(r.stored_bytes - fused, 479952 - 22656);
    c.in.recurrent_torch = false;
    c.in.trainable = GS_TRAIN_ALL;
    assert_true(gs_activation_bytes(&c.in, &r));
    const uint64_t full = r.stored_bytes;
    c.arch.blocks[gdn].rec.scan = GS_SCAN_PROJECTIONS;
    assert_true(gs_activation_bytes(&c.in, &r));
    assert_int_equal(full - r.stored_bytes, 22656 + 2304 - 9472);
    c.in.trainable = GS_TRAIN_ADAPTERS;
    assert_true(gs_activation_bytes(&c.in, &r));
    assert_int_equal(fused - r.stored_bytes, 22656 - 9472);
    /* compiled code and frameworks with their own model code keep the projections' count */
    c.arch.blocks[gdn].rec.scan = GS_SCAN_GATED_DELTA_RULE;
    c.rules.compile = true;
    assert_false(gs_activation_counts_scan(&c.in, &c.arch.blocks[gdn]));
    c.rules.compile = false;
    c.rules.model_qkv_views = false;
    assert_false(gs_activation_counts_scan(&c.in, &c.arch.blocks[gdn]));
}

/* Qwen3-Next's Gated DeltaNet on fla's path (modeling_qwen3_next.py Qwen3NextGatedDeltaNet: q and
 * k repeated to the value heads before chunk_gated_delta_rule; fla's FusedRMSNormGated), the
 * small shapes of test_gated_delta_net (2 key heads of 16, 4 value heads of 8, 16 bf16 tokens,
 * LoRA on q_proj and v_proj, none in that layer), a token:
 * - the layer: the conv's input 96 x 2, beta 4 x 2, softplus's fp32 input 4 x 4: 216 B;
 * - the fused norm (LayerNormGatedFunction's saved tensors): its input 32 x 2, the gate 32 x 2,
 *   rstd 4 x 4: 144 B;
 * - fla over the repeated heads: q and k normalized 2 x 4 x 16 x 2, their rstd 2 x 4 x 4, v 32 x 2,
 *   g's cumsum 4 x 4, A 4 x 64 x 2: 880 B. 1,240 B a token, 19,840: 10,368 above the projections'
 *   9,472;
 * - full training adds softplus's output 4 x 4 and out_proj's input 32 x 2 (the fused norm's
 *   weight gradient reads what it saved): 80 B a token, 1,280.
 * Its torch fallback (modeling_qwen3_next.py torch_chunk_gated_delta_rule, an older formulation
 * than Qwen3.5's; 64 padded tokens, one chunk), a token: the layer's 216 B; Qwen3NextRMSNormGated,
 * Qwen3.5's norm: the output's fp32 copy 32 x 4, rsqrt 4 x 4, the fp32 gate 32 x 4, the weighted
 * output 32 x 2, silu's output 32 x 4: 464 B; l2norm at bf16 over the repeated q and k, 2 x 4 x 16
 * x 2, and its rsqrt, 2 x 4 x 2: 272 B. 952 B a token, 15,232, and the conv's output with its 3
 * padded positions, 96 x 2 x 19 = 3,648. A padded token, 4 heads in fp32: (7 x 16 + 3 x 8 + 6 x
 * 64 + 4) x 4 = 2,096 B a head, 536,576. The chunk: the state 16 x 8 x 4 + its decay 4 a head,
 * 2,064, and the UT loop's clones, 87,360 floats a head, 1,397,760. 1,955,280 in all, 1,945,808
 * above the projections'. */
static void test_gated_delta_net_qwen3_next(void **state)
{
    (void)state;
    struct layer_case c;
    layer_case_init(&c,
                    "{\"model_type\":\"qwen3_next\",\"hidden_size\":64,\"intermediate_size\":128,"
                    "\"num_attention_heads\":4,\"num_key_value_heads\":2,\"head_dim\":16,"
                    "\"num_hidden_layers\":2,"
                    "\"layer_types\":[\"full_attention\",\"linear_attention\"],"
                    "\"linear_num_key_heads\":2,\"linear_num_value_heads\":4,"
                    "\"linear_key_head_dim\":16,\"linear_value_head_dim\":8,"
                    "\"linear_conv_kernel_dim\":4,\"num_experts\":4,\"num_experts_per_tok\":2,"
                    "\"moe_intermediate_size\":32,\"vocab_size\":1000}",
                    false);
    const size_t gdn = scan_block(&c.arch, GS_SCAN_GATED_DELTA_NEXT);
    struct gs_activation_result r;
    assert_true(gs_activation_bytes(&c.in, &r));
    const uint64_t fused = r.stored_bytes;
    c.arch.blocks[gdn].rec.scan = GS_SCAN_PROJECTIONS;
    assert_true(gs_activation_bytes(&c.in, &r));
    const uint64_t projections = r.stored_bytes;
    assert_int_equal(fused - projections, 19840 - 9472);
    c.arch.blocks[gdn].rec.scan = GS_SCAN_GATED_DELTA_NEXT;
    c.in.trainable = GS_TRAIN_ALL;
    assert_true(gs_activation_bytes(&c.in, &r));
    const uint64_t full = r.stored_bytes;
    c.arch.blocks[gdn].rec.scan = GS_SCAN_PROJECTIONS;
    assert_true(gs_activation_bytes(&c.in, &r));
    assert_int_equal(full - r.stored_bytes, 19840 + 1280 - 9472);
    c.arch.blocks[gdn].rec.scan = GS_SCAN_GATED_DELTA_NEXT;
    c.in.trainable = GS_TRAIN_ADAPTERS;
    c.in.recurrent_torch = true;
    assert_true(gs_activation_counts_scan(&c.in, &c.arch.blocks[gdn]));
    assert_true(gs_activation_bytes(&c.in, &r));
    assert_int_equal(r.stored_bytes - projections, 1955280 - 9472);
}

/* A small Kimi Linear (h 64; layer 1 MLA, layer 2 Kimi Delta Attention of 4 heads of 8: K = V =
 * 32, C = 96 conv channels, the low-rank gates 8 wide; dense MLPs) under transformers' own
 * KimiLinearDeltaAttention with fla's chunk_kda (activation.c kimi_delta_bytes), one sequence of
 * 16 bf16 tokens, LoRA on q_proj and v_proj. The projections' count keeps (5 x 32 + 4 + 96 + 32 +
 * 32) x 2 B = 648 B a token: 10,368. What the code keeps, a token:
 * - the layer: causal-conv1d's input 96 x 2, softplus's fp32 input 32 x 4, beta 4 x 4: 336 B;
 * - chunk_kda: q and k normalized 2 x 32 x 2, their rstd 2 x 4 x 4, v's copy 32 x 2, the gate as
 *   handed over and its cumsum 2 x 32 x 4, Aqk and Akk 2 x 4 x 64 x 2: 1,504 B;
 * - KimiLinearRMSNormGated: the fp32 copy 32 x 4, rsqrt 4 x 4, the weighted output 32 x 2,
 *   sigmoid's output 32 x 4: 336 B (o_proj, frozen and not adapted, keeps nothing).
 * 2,176 B a token, 34,816: 24,448 above the projections'. Full training adds softplus's output
 * 32 x 4, the norm's 16-bit copy 32 x 2, o_proj's input 32 x 2 and f_b_proj's and g_b_proj's
 * 8-wide inputs 2 x 8 x 2: 288 B a token, 4,608. Under autocast over fp32 weights (full) the
 * weighted output is fp32, 32 x 2 more, and the shared input's 16-bit copies are the six linears
 * that read it, not f_b_proj and g_b_proj as well (the projections' count makes eight): (2,176 +
 * 64 + 288 - 648) x 16 - 2 x 2 x 64 x 16 = 25,984.
 * Without fla and causal-conv1d (torch_chunk_kda, causal_conv1d_fn's F.conv1d), LoRA, a token: the
 * layer's 336 and the norm's 336; q and k in fp32 with their rsqrt, 2 x 32 x 4 + 2 x 4 x 4 = 288:
 * 960 B, 15,360; the conv's output with its 3 padded positions, 96 x 2 x 19 = 3,648. A padded
 * token, 4 heads in fp32: (9 x 8 + 3 x 8 + 2 x 64 + 2 x 64 x 8 + 1) x 4 = 4,996 B a head, 64
 * tokens, 1,278,976. The chunk: the UT loop's clones 87,360 floats, the state 8 x 8 and its decay
 * 8 a head, 1,398,912. 2,696,896 in all, against fla's 34,816. */
static void test_kimi_delta_attention(void **state)
{
    (void)state;
    struct layer_case c;
    layer_case_init(&c,
                    "{\"model_type\":\"kimi_linear\",\"hidden_size\":64,"
                    "\"intermediate_size\":128,\"num_attention_heads\":4,"
                    "\"kv_lora_rank\":16,\"qk_nope_head_dim\":8,\"qk_rope_head_dim\":8,"
                    "\"v_head_dim\":8,\"num_hidden_layers\":2,\"vocab_size\":1000,"
                    "\"linear_attn_config\":{\"num_heads\":4,\"head_dim\":8,"
                    "\"short_conv_kernel_size\":4,\"kda_layers\":[2],\"full_attn_layers\":[1]}}",
                    false);
    const size_t kda = scan_block(&c.arch, GS_SCAN_KIMI_DELTA);
    assert_true(gs_activation_counts_scan(&c.in, &c.arch.blocks[kda]));
    struct gs_activation_result r;
    const bool full[] = {false, true, true};
    const bool autocast[] = {false, false, true};
    const uint64_t above[] = {24448, 24448 + 4608, 25984};
    for (size_t i = 0; i < 3; i++) {
        c.in.trainable = full[i] ? GS_TRAIN_ALL : GS_TRAIN_ADAPTERS;
        c.in.autocast = autocast[i];
        c.in.residual_bytes = autocast[i] ? 4 : 0;
        c.arch.blocks[kda].rec.scan = GS_SCAN_KIMI_DELTA;
        assert_true(gs_activation_bytes(&c.in, &r));
        const uint64_t counted = r.stored_bytes;
        c.arch.blocks[kda].rec.scan = GS_SCAN_PROJECTIONS;
        assert_true(gs_activation_bytes(&c.in, &r));
        assert_int_equal(counted - r.stored_bytes, above[i]);
    }
    c.arch.blocks[kda].rec.scan = GS_SCAN_KIMI_DELTA;
    c.in.trainable = GS_TRAIN_ADAPTERS;
    c.in.autocast = false;
    c.in.residual_bytes = 0;
    assert_true(gs_activation_bytes(&c.in, &r));
    const uint64_t fused = r.stored_bytes;
    c.in.recurrent_torch = true;
    assert_true(gs_activation_counts_scan(&c.in, &c.arch.blocks[kda]));
    assert_true(gs_activation_bytes(&c.in, &r));
    assert_int_equal(r.stored_bytes - fused, 2696896 - 34816);
}

/* Autocast over a frozen fp32 base (LoRA on a model loaded in fp32, regime amp): autocast caches
 * casts of leaves that require grad only (aten autocast_mode.cpp cached_cast), so each frozen
 * weight is cast per call and F.linear keeps the 16-bit copy for its input's gradient. The small
 * Llama (h 64, 2 KV heads, MLP 128), LoRA on q and v: a layer's linears hold 64 x 64 (q) + 2 x 64
 * x 32 (k, v) + 64 x 64 (o) + 2 x 64 x 128 (gate, up) + 128 x 64 (down) = 36,864 weights, 73,728
 * B of copies; the first layer's q, k and v read the frozen embedding's normed output, which needs
 * no gradient, and keep none: 73,728 + 57,344 = 131,072 B for the two layers. A 4-bit base's
 * linears are no autocast op (bitsandbytes casts their input itself) and keep none. */
static void test_autocast_frozen_weight_copies(void **state)
{
    (void)state;
    struct layer_case c;
    layer_case_init(&c, SMALL_LLAMA, false);
    c.in.autocast = true;
    c.in.residual_bytes = 4;
    struct gs_activation_result r;
    assert_true(gs_activation_bytes(&c.in, &r));
    const uint64_t fp32_base = r.stored_bytes;
    c.in.quantized_base = true; /* the same linears as 4-bit ones: no autocast copies */
    assert_true(gs_activation_bytes(&c.in, &r));
    assert_int_equal(fp32_base - r.stored_bytes, 131072);
}

/* Adapter training: the first layer reads the frozen embedding's output, which needs no
 * gradient, so autograd records nothing before an op reads an adapter (2-layer models, bf16,
 * one sequence of 16 tokens, transformers 5.17 under SDPA, no recomputation).
 * - Llama (h 64, 4 heads of 16, SwiGLU 128), LoRA on q and v: the input norm's fp32 copy goes,
 *   4 B x 64 x 16 = 4,096 (the adapters' fp32 copies of its output stay: lora_A reads them); with
 *   LoRA dropout 0.1 also the two dropouts' 1-byte masks, 2 x 64 x 16 = 2,048: 6,144.
 * - the same with LoRA on the MLP alone: nothing in the attention needs a gradient - both norms
 *   (2 x 4,096), Q, K, V and the output (4 x 64 x 2 B x 16 = 8,192) and the log-sum-exp (4 B x 4
 *   heads x 16 = 256) go: 16,640.
 * - Phi (parallel attention and MLP off one LayerNorm, fc1 256, gelu_new), LoRA on q and v:
 *   the LayerNorm's input, 2 B x 64 x 16 = 2,048, and the MLP, which reads the layer's input and
 *   has no adapter: gelu_new's four tensors, 4 x 2 B x 256 x 16 = 32,768: 34,816.
 * Under full recomputation every layer keeps its input alike: nothing. */
static void test_first_layer_frozen_input(void **state)
{
    (void)state;
    struct gs_arch llama = small_llama();
    struct gs_parallelism par;
    struct gs_training_knobs knobs;
    fixture_framework_release(&par, &knobs, GS_FW_TRANSFORMERS, 517);
    struct gs_framework_rules rules;
    gs_framework_resolve(&knobs, GS_ATTN_SDPA, &rules);
    struct gs_training tr;
    gs_training_defaults(&tr);
    fixture_lora_qv(&tr, 8);
    struct gs_activation_input in = sixteen_tokens(&llama, &par, &rules, 2);
    in.trainable = GS_TRAIN_ADAPTERS;
    in.adapters = &tr;
    assert_int_equal(first_layer_saving(&in), 4096);
    tr.lora_dropout_permille = 100;
    assert_int_equal(first_layer_saving(&in), 6144);
    tr.lora_dropout_permille = 0;
    strcpy(tr.lora_targets[0], "gate_proj");
    strcpy(tr.lora_targets[1], "up_proj");
    assert_int_equal(first_layer_saving(&in), 16640);

    struct gs_arch phi = fixture_arch("{\"model_type\":\"phi\",\"hidden_size\":64,"
                                      "\"intermediate_size\":256,\"num_attention_heads\":4,"
                                      "\"num_hidden_layers\":2,\"vocab_size\":1000,"
                                      "\"hidden_act\":\"gelu_new\"}");
    assert_true(phi.blocks[0].parallel_residual);
    fixture_lora_qv(&tr, 8);
    in.arch = &phi;
    assert_int_equal(first_layer_saving(&in), 34816);

    in.recompute = GS_RECOMPUTE_FULL;
    struct gs_activation_result r;
    assert_true(gs_activation_bytes(&in, &r));
    assert_int_equal(r.first_stage_bytes, 2 * r.per_layer_bytes + 8 * 16 + r.layer_working_bytes);

    /* an adapted embedding trains: its output needs a gradient, so the first layer keeps what
     * any layer keeps, and the adapter keeps after_A, r fp32 values a token (PEFT's fp32
     * adapters: F.embedding over lora_embedding_A), 8 x 4 B x 16 = 512 beside the token ids */
    in.arch = &llama;
    in.recompute = GS_RECOMPUTE_NONE;
    tr.lora_target_count = 3;
    strcpy(tr.lora_targets[2], "embed_tokens");
    assert_true(gs_activation_bytes(&in, &r));
    assert_int_equal(r.first_stage_bytes, 2 * r.per_layer_bytes + 8 * 16 + 512);
}

/* The padding mask's default: micro-batches padded to their longest hold samples of different
 * lengths once there is more than one; max_length is read as packed or full-length samples;
 * the request's word wins. */
static void test_padding_mask_default(void **state)
{
    (void)state;
    struct gs_training t;
    gs_training_defaults(&t);
    t.batch_size = 8;
    assert_false(gs_training_padding_mask(&t));
    t.padding = GS_PADDING_LONGEST;
    assert_true(gs_training_padding_mask(&t));
    t.batch_size = 1;
    assert_false(gs_training_padding_mask(&t));
    t.padding_mask = GS_KNOB_ON;
    assert_true(gs_training_padding_mask(&t));
    t.padding = GS_PADDING_MAX_LENGTH;
    assert_true(gs_training_padding_mask(&t));
    t.batch_size = 4;
    t.padding = GS_PADDING_LONGEST;
    t.padding_mask = GS_KNOB_OFF;
    assert_false(gs_training_padding_mask(&t));
}

/* Heads wider than 256 under transformers' SDPA: no fused kernel broadcasts grouped K/V there, so
 * sdpa_attention.py repeats them (PR #46960) and SDPA runs the memory-efficient kernel. A small
 * Llama with 4 heads of 320 and 2 KV heads (bf16, 16 tokens): K/V repeated add 2 x 2 x 320 x 2 x
 * 16 = 40,960 B a layer over flash_attention_2 (which could not run such heads, and is the grouped
 * reference here); in a 4.48-4.55 release the query.contiguous() copy does not apply, since the
 * memory-efficient kernel lays its output out (batch, seq, heads, dim). */
static void test_sdpa_wide_heads(void **state)
{
    (void)state;
    struct gqa_case k;
    gqa_case_init(&k, 320, 2);
    struct gs_activation_result sdpa, flash, old_sdpa;
    gs_framework_resolve(&k.knobs, GS_ATTN_SDPA, &k.rules);
    assert_true(gs_activation_bytes(&k.in, &sdpa));
    gs_framework_resolve(&k.knobs, GS_ATTN_FLASH2, &k.rules);
    assert_true(gs_activation_bytes(&k.in, &flash));
    assert_int_equal(sdpa.per_layer_bytes - flash.per_layer_bytes, 40960);
    k.knobs.framework_version = 450; /* repeat_kv and query.contiguous(), no copy at this width */
    gs_framework_resolve(&k.knobs, GS_ATTN_SDPA, &k.rules);
    assert_true(k.rules.query_contiguous);
    assert_true(gs_activation_bytes(&k.in, &old_sdpa));
    assert_int_equal(old_sdpa.per_layer_bytes, sdpa.per_layer_bytes);
}

/* fp32 with grouped K/V under transformers' SDPA from 4.56: sdpa_attention.py passes enable_gqa,
 * only the flash and cuDNN kernels take grouped heads and neither runs fp32, so SDPA runs its
 * math kernel: K/V repeated, the scaled query, and the fp32 softmax output the matmul with V
 * reads - per layer what eager attention keeps in fp32 (the small GQA Llama, 16 tokens). In 4.50
 * (repeat_kv, then the memory-efficient kernel, which runs fp32) and in bf16 (the flash kernel)
 * it is the fused path. */
static void test_sdpa_fp32_grouped_math_kernel(void **state)
{
    (void)state;
    struct gqa_case k;
    gqa_case_init(&k, 0, 4);
    k.in.flash_attention = false;
    struct gs_activation_result eager, sdpa, old_sdpa, bf16_sdpa;
    gs_framework_resolve(&k.knobs, GS_ATTN_EAGER, &k.rules);
    assert_true(gs_activation_bytes(&k.in, &eager));
    k.in.flash_attention = true;
    gs_framework_resolve(&k.knobs, GS_ATTN_SDPA, &k.rules);
    assert_true(gs_activation_bytes(&k.in, &sdpa));
    assert_int_equal(sdpa.per_layer_bytes, eager.per_layer_bytes);
    k.knobs.framework_version = 450;
    gs_framework_resolve(&k.knobs, GS_ATTN_SDPA, &k.rules);
    assert_true(gs_activation_bytes(&k.in, &old_sdpa));
    /* fused: the fp32 log-sum-exp (4 x 4 heads) instead of 4 x 4 heads x 16 keys a token */
    assert_int_equal(eager.per_layer_bytes - old_sdpa.per_layer_bytes, (256 - 16) * 16);
    k.knobs.framework_version = 517;
    k.in.element_bytes = 2;
    gs_framework_resolve(&k.knobs, GS_ATTN_SDPA, &k.rules);
    assert_true(gs_activation_bytes(&k.in, &bf16_sdpa));
    assert_int_equal(bf16_sdpa.per_layer_bytes, 41216 - 2048);
}

/* What transformers 5.x's eager code saves per layer, on a small Llama (h 64, 4 heads of 16,
 * MHA, SwiGLU 128, bf16, one sequence of 16 tokens), written out per token:
 *   2 LlamaRMSNorms, each its fp32 input copy and the normalized bf16 tensor: 2 x 6 x 64 = 768
 *   q/k/v's input and the MLP's input (bf16): 2 x 2 x 64 = 256
 *   Q, K, V and the attention output o_proj keeps: 4 x 2 x 64 = 512
 *   SwiGLU: gate, silu, up, down's input: 4 x 2 x 128 = 1,024
 *   eager_attention_forward: softmax(dtype=float32) keeps 4 bytes a score and .to(bf16) the 2
 *   the matmul with V keeps: 4 heads x 16 keys x 6 = 384
 * = 2,944 B x 16 tokens = 47,104. SDPA keeps the fp32 log-sum-exp (4 x 4 = 16) and o_proj reads
 * the flash kernel's own output: 2,576 x 16 = 41,216. The kernel lays its output out like its
 * query (aten flash_api.cpp mha_fwd: out = at::empty_like(q_padded)); the rotated query keeps
 * q_proj's (batch, seq, heads, dim) layout (q * cos is laid out like q), so
 * attn_output.transpose(1, 2).contiguous() copies nothing. Where the query reaches the kernel
 * contiguous (transformers 4.48-4.55 sdpa_attention.py query.contiguous(); a partial rotary's
 * torch.cat([q_embed, q_pass], dim=-1)) it copies: + 2 x 64 = 128, 2,704 x 16 = 43,264; not
 * in fp32, where SDPA runs the memory-efficient kernel, whose output is always (batch, seq,
 * heads, dim) (attention.cu _efficient_attention_forward). GPT-2-style eager code (softmax at
 * the scores' dtype, eager_softmax_native) with attention dropout: 2 + the dropout's mask and bf16
 * output 3 = 5 a score (320) -> 2,880 x 16 = 46,080. A q_norm and k_norm (Qwen3, per head)
 * normalize all of Q and K: + 2 x 6 x 64 = 768 -> 3,712 x 16 = 59,392. */
static void test_transformers_eager_layer(void **state)
{
    (void)state;
    struct gs_arch a = small_llama();
    struct gs_parallelism par;
    gs_parallelism_defaults(&par);
    struct gs_training_knobs knobs;
    memset(&knobs, 0, sizeof(knobs));
    knobs.framework_version = 517;
    struct gs_framework_rules rules;
    gs_framework_resolve(&knobs, GS_ATTN_EAGER, &rules);
    assert_true(rules.softmax_fp32);
    struct gs_activation_input in = {.arch = &a, .batch_size = 1, .sequence_length = 16,
                                     .micro_batches = 1, .element_bytes = 2,
                                     .recompute = GS_RECOMPUTE_NONE, .flash_attention = false,
                                     .parallelism = &par, .rules = &rules};
    struct gs_activation_result r;
    assert_true(gs_activation_bytes(&in, &r));
    assert_int_equal(r.per_layer_bytes, 47104);

    in.flash_attention = true;
    gs_framework_resolve(&knobs, GS_ATTN_SDPA, &rules);
    assert_true(gs_activation_bytes(&in, &r));
    assert_int_equal(r.per_layer_bytes, 41216);
    a.blocks[0].attn.rotary_partial = true; /* a partial rotary concatenates the query */
    assert_true(gs_activation_bytes(&in, &r));
    assert_int_equal(r.per_layer_bytes, 43264);
    a.blocks[0].attn.rotary_partial = false;
    /* sdpa_attention.py's query.contiguous(): from 4.48 (the attention functions' move there)
     * to 4.55 (transformers PR #40315 removed it before 4.56) */
    static const struct {
        uint32_t version;
        bool contiguous;
    } releases[] = {{447, false}, {448, true}, {455, true}, {456, false}, {502, false}};
    for (size_t i = 0; i < sizeof(releases) / sizeof(releases[0]); i++) {
        knobs.framework_version = releases[i].version;
        gs_framework_resolve(&knobs, GS_ATTN_SDPA, &rules);
        assert_int_equal(rules.query_contiguous, releases[i].contiguous);
    }
    knobs.framework_version = 450;
    gs_framework_resolve(&knobs, GS_ATTN_SDPA, &rules);
    assert_true(gs_activation_bytes(&in, &r));
    assert_int_equal(r.per_layer_bytes, 43264);
    /* that query.contiguous() is sdpa_attention.py's alone: flash_attention.py hands
     * flash-attn the rotated query as it lies, so FlashAttention 2 and 3 get no copy in the same
     * release unless the partial rotary concatenated the query */
    gs_framework_resolve(&knobs, GS_ATTN_FLASH2, &rules);
    assert_false(rules.query_contiguous);
    assert_true(gs_activation_bytes(&in, &r));
    assert_int_equal(r.per_layer_bytes, 41216);
    gs_framework_resolve(&knobs, GS_ATTN_FLASH3, &rules);
    assert_true(gs_activation_bytes(&in, &r));
    assert_int_equal(r.per_layer_bytes, 41216);
    a.blocks[0].attn.rotary_partial = true;
    assert_true(gs_activation_bytes(&in, &r));
    assert_int_equal(r.per_layer_bytes, 43264);
    a.blocks[0].attn.rotary_partial = false;
    gs_framework_resolve(&knobs, GS_ATTN_SDPA, &rules);
    /* fp32: the memory-efficient kernel's output, no copy whichever way the query comes */
    in.element_bytes = 4;
    struct gs_activation_result fp32_contiguous, fp32_as_rotated;
    assert_true(gs_activation_bytes(&in, &fp32_contiguous));
    knobs.framework_version = 517;
    gs_framework_resolve(&knobs, GS_ATTN_SDPA, &rules);
    assert_true(gs_activation_bytes(&in, &fp32_as_rotated));
    assert_int_equal(fp32_contiguous.per_layer_bytes, fp32_as_rotated.per_layer_bytes);
    in.element_bytes = 2;

    in.flash_attention = false;
    gs_framework_resolve(&knobs, GS_ATTN_EAGER, &rules);
    a.eager_softmax_native = true;
    a.attention_dropout = true;
    assert_true(gs_activation_bytes(&in, &r));
    assert_int_equal(r.per_layer_bytes, 46080);

    /* under autocast softmax runs in fp32 (4), dropout keeps its mask (1) and the matmul its own
     * 16-bit copy of the fp32 dropout output (2): 7 a score, 448 a token. The rest of the layer
     * keeps its bf16 tensors (autocast's element is 2) but the norms compute in fp32: the two
     * RMSNorms keep 4 + 2 each (6 x 64 x 2 = 768, as without autocast). 2,944 - 384 + 448 = 3,008
     * x 16 = 48,128 */
    in.autocast = true;
    assert_true(gs_activation_bytes(&in, &r));
    assert_int_equal(r.per_layer_bytes, 48128);
    in.autocast = false;

    struct gs_arch q = fixture_arch("{\"model_type\":\"qwen3\",\"hidden_size\":64,"
                                    "\"intermediate_size\":128,\"num_attention_heads\":4,"
                                    "\"num_key_value_heads\":4,\"head_dim\":16,"
                                    "\"num_hidden_layers\":2,\"vocab_size\":1000}");
    in.arch = &q;
    assert_true(gs_activation_bytes(&in, &r));
    assert_int_equal(r.per_layer_bytes, 59392);

    /* OLMo 2's RMSNorm multiplies its weight in fp32 before casting back
     * ((self.weight * hidden_states).to(input_dtype)), so each of its four norms per layer
     * (two post-norms over h, q_norm and k_norm over all of Q and K) keeps a 4-byte normalized
     * tensor where Llama's keeps 2: 2 x 4 x 64 = 512 more a token, 8,192 a layer */
    struct gs_arch o = fixture_arch("{\"model_type\":\"olmo2\",\"hidden_size\":64,"
                                    "\"intermediate_size\":128,\"num_attention_heads\":4,"
                                    "\"num_key_value_heads\":4,\"num_hidden_layers\":2,"
                                    "\"vocab_size\":1000}");
    assert_true(o.norm_weight_fp32);
    in.arch = &o;
    struct gs_activation_result olmo;
    assert_true(gs_activation_bytes(&in, &olmo));
    o.norm_weight_fp32 = false;
    assert_true(gs_activation_bytes(&in, &r));
    assert_int_equal(olmo.per_layer_bytes - r.per_layer_bytes, 8192);

    /* Gemma's RMSNorms scale in fp32 too (Gemma2RMSNorm, Gemma3RMSNorm: output * (1.0 +
     * self.weight.float()), then type_as; Gemma 3n's and Gemma 4's normed_output *
     * self.weight.float()): Gemma 2's four norms over h, 4 x 2 x 64 = 512 more a token, 8,192 a
     * layer; Gemma 3's the same and its q_norm and k_norm over each head of Q and K (4 heads of
     * 16 each), 2 x 2 x 64 more: 768 a token, 12,288 a layer */
#define GEMMA_TOY(type)                                                                            \
    "{\"model_type\":\"" type "\",\"hidden_size\":64,\"intermediate_size\":128,"                   \
    "\"num_attention_heads\":4,\"num_key_value_heads\":4,\"head_dim\":16,"                         \
    "\"num_hidden_layers\":2,\"vocab_size\":1000}"
    struct gs_arch g2 = fixture_arch(GEMMA_TOY("gemma2"));
    struct gs_arch g3 = fixture_arch(GEMMA_TOY("gemma3_text"));
#undef GEMMA_TOY
    struct gs_arch *gemmas[] = {&g2, &g3};
    const uint64_t more[] = {8192, 12288};
    for (size_t i = 0; i < 2; i++) {
        assert_true(gemmas[i]->norm_weight_fp32);
        in.arch = gemmas[i];
        struct gs_activation_result fp32;
        assert_true(gs_activation_bytes(&in, &fp32));
        gemmas[i]->norm_weight_fp32 = false;
        assert_true(gs_activation_bytes(&in, &r));
        assert_int_equal(fp32.per_layer_bytes - r.per_layer_bytes, more[i]);
    }
}

/* BERT's masked-LM head, trained in fp32 (a small BERT: h 64, 2 layers, 4 heads, 16 tokens):
 * until the head's backward it keeps, per token, the embedding LayerNorm's input (4h) and the
 * transform's (BertPredictionHeadTransform: dense, ACT2FN["gelu"], LayerNorm): the dense's
 * input, the last layer's output (4h), GELU's input, the dense's output (4h), the LayerNorm's
 * input (4h), and the decoder's input, the LayerNorm's output (4h): 5 x 4 x 64 = 1,280 B, x 16
 * = 20,480. With relu the activation keeps only its output, the LayerNorm's input: 16,384. */
static void test_bert_mlm_head(void **state)
{
    (void)state;
    struct gs_arch a = fixture_arch("{\"model_type\":\"bert\",\"hidden_size\":64,"
                                    "\"intermediate_size\":128,\"num_attention_heads\":4,"
                                    "\"num_hidden_layers\":2,\"vocab_size\":1000,"
                                    "\"max_position_embeddings\":512,\"type_vocab_size\":2,"
                                    "\"hidden_act\":\"gelu\","
                                    "\"architectures\":[\"BertForMaskedLM\"]}");
    assert_true(a.logits);
    struct gs_parallelism par;
    gs_parallelism_defaults(&par);
    struct gs_training_knobs knobs;
    memset(&knobs, 0, sizeof(knobs));
    knobs.framework_version = 517;
    struct gs_framework_rules rules;
    gs_framework_resolve(&knobs, GS_ATTN_SDPA, &rules);
    struct gs_activation_input in = {.arch = &a,
                                     .batch_size = 1,
                                     .sequence_length = 16,
                                     .micro_batches = 1,
                                     .element_bytes = 4,
                                     .recompute = GS_RECOMPUTE_NONE,
                                     .flash_attention = true,
                                     .parallelism = &par,
                                     .rules = &rules};
    struct gs_activation_result r;
    assert_true(gs_activation_bytes(&in, &r));
    assert_int_equal(r.final_norm_bytes, 20480);
    for (size_t i = 0; i < a.block_count; i++)
        a.blocks[i].mlp.act = GS_ACT_RELU;
    assert_true(gs_activation_bytes(&in, &r));
    assert_int_equal(r.final_norm_bytes, 16384);
}

/* What the first block's qkv_views adds to one layer (and, in *total, to the whole GPU) under
 * `in`: its activations with the flag as the reader set it, less without it. */
static uint64_t views_extra(const struct gs_activation_input *in, struct gs_arch *a,
                            uint64_t *total)
{
    struct gs_activation_result views, apart;
    assert_true(a->blocks[0].attn.qkv_views);
    assert_true(gs_activation_bytes(in, &views));
    a->blocks[0].attn.qkv_views = false;
    assert_true(gs_activation_bytes(in, &apart));
    a->blocks[0].attn.qkv_views = true;
    *total = views.total_bytes - apart.total_bytes;
    return views.per_layer_bytes - apart.per_layer_bytes;
}

/* A fused QKV projection the model's code slices into views (transformers modeling_phi3.py
 * Phi3Attention.forward: value_states = qkv[..., query_pos + kv_pos:], viewed per head) keeps
 * its whole output alive while SDPA or flash has saved V, beside the new Q and K that
 * apply_rotary_pos_emb returns: q + k more a token than separate projections. Phi-4-mini's
 * shape (hidden 3,072, 24 heads, 8 KV heads of 128) at 4 x 2,048 tokens: (3,072 + 1,024) x 2 B
 * x 8,192 = 67,108,864 B a layer, 2,147,483,648 over its 32 layers (the H200 run
 * phi4m-lora-b4s2k in tests/fixtures/calibration/h200-training.json measured 2.08e9 B over the
 * prediction without it). Eager attention repeats grouped K/V first (repeat_kv's reshape
 * copies V): nothing pinned; with as many KV heads as query heads (Phi-3-mini) repeat_kv
 * returns V as it is and eager pins it too. LitGPT and torchtune run their own model code
 * (the rule does not follow the config's). */
static void test_fused_qkv_views(void **state)
{
    (void)state;
    const char *phi4 = "{\"model_type\":\"phi3\",\"hidden_size\":3072,"
                       "\"intermediate_size\":8192,\"num_attention_heads\":24,"
                       "\"num_key_value_heads\":8,\"num_hidden_layers\":32,"
                       "\"vocab_size\":200064,\"max_position_embeddings\":131072,"
                       "\"partial_rotary_factor\":0.75}";
    struct gs_arch a = fixture_arch("%s", phi4);
    assert_true(a.blocks[0].attn.qkv_views);
    struct gs_parallelism par;
    gs_parallelism_defaults(&par);
    struct gs_training_knobs knobs;
    memset(&knobs, 0, sizeof(knobs));
    knobs.framework_version = 517;
    struct gs_framework_rules rules;
    gs_framework_resolve(&knobs, GS_ATTN_SDPA, &rules);
    struct gs_activation_input in = {.arch = &a, .batch_size = 4, .sequence_length = 2048,
                                     .micro_batches = 1, .element_bytes = 2,
                                     .recompute = GS_RECOMPUTE_NONE, .flash_attention = true,
                                     .parallelism = &par, .rules = &rules};
    uint64_t total = 0;
    assert_int_equal(views_extra(&in, &a, &total), 67108864ULL);
    assert_int_equal(total, 2147483648ULL);
    /* eager with grouped K/V: V is repeat_kv's copy */
    in.flash_attention = false;
    gs_framework_resolve(&knobs, GS_ATTN_EAGER, &rules);
    assert_int_equal(views_extra(&in, &a, &total), 0);
    /* eager, 32 KV heads of 96 (Phi-3-mini): (3,072 + 3,072) x 2 x 8,192 a layer */
    struct gs_arch mini = fixture_arch("{\"model_type\":\"phi3\",\"hidden_size\":3072,"
                                       "\"intermediate_size\":8192,\"num_attention_heads\":32,"
                                       "\"num_key_value_heads\":32,\"num_hidden_layers\":32,"
                                       "\"vocab_size\":32064,\"max_position_embeddings\":4096}");
    in.arch = &mini;
    assert_int_equal(views_extra(&in, &mini, &total), 6144ULL * 2 * 8192);
    /* torchtune's Phi-3 has q, k and v projections of its own */
    knobs.framework = GS_FW_TORCHTUNE;
    knobs.framework_given = true;
    gs_framework_resolve(&knobs, GS_ATTN_EAGER, &rules);
    assert_int_equal(views_extra(&in, &mini, &total), 0);
    /* GPT-NeoX (Pythia) chunks its query_key_value into views too; Falcon's multi-query
     * layout indexes K and V out into copies */
    struct gs_arch neox = fixture_arch("{\"model_type\":\"gpt_neox\",\"hidden_size\":512,"
                                       "\"intermediate_size\":2048,\"num_attention_heads\":8,"
                                       "\"num_hidden_layers\":6,\"vocab_size\":50304,"
                                       "\"max_position_embeddings\":2048,\"rotary_pct\":0.25}");
    assert_true(neox.blocks[0].attn.qkv_views);
    struct gs_arch falcon = fixture_arch("{\"model_type\":\"falcon\",\"hidden_size\":4544,"
                                         "\"num_attention_heads\":71,\"num_hidden_layers\":32,"
                                         "\"vocab_size\":65024,\"multi_query\":true,"
                                         "\"parallel_attn\":true}");
    assert_false(falcon.blocks[0].attn.qkv_views);
}

/* The plain MLP of the activation tests: GPT-2's shape at h 64, width 256, 2 layers, no dropout,
 * with `activation` as its activation_function. */
static struct gs_arch plain_mlp(const char *activation)
{
    return fixture_arch("{\"model_type\":\"gpt2\",\"n_embd\":64,\"n_inner\":256,\"n_layer\":2,"
                        "\"n_head\":4,\"vocab_size\":1000,\"attn_pdrop\":0,\"resid_pdrop\":0,"
                        "\"embd_pdrop\":0,\"activation_function\":\"%s\"}",
                        activation);
}

/* The default transformers rows' rules and LitGPT's, under SDPA. */
static void hf_and_litgpt(struct gs_framework_rules *hf, struct gs_framework_rules *litgpt)
{
    struct gs_training_knobs knobs;
    memset(&knobs, 0, sizeof(knobs));
    gs_framework_resolve(&knobs, GS_ATTN_SDPA, hf);
    knobs.framework = GS_FW_LITGPT;
    gs_framework_resolve(&knobs, GS_ATTN_SDPA, litgpt);
}

/* A plain MLP (h 64, width 256, fp32 activations, no dropout), per token, beyond the
 * attention: transformers' gelu_new (NewGELUActivation: 0.5 * x * (1 + tanh(sqrt(2/pi) *
 * (x + 0.044715 * pow(x, 3))))) keeps x, tanh's output, 0.5 * x and 1 + tanh, and c_proj its
 * input: 5 x 4 x 256 = 5,120; an ATen activation (LitGPT's F.gelu(approximate="tanh")) keeps
 * x and c_proj's input: 2,048, so gelu_new's chain is 3 x 4 x 256 = 3,072 a token more;
 * relu keeps its output, which c_proj reads: 1,024, 1,024 less than gelu. */
static void test_activation_functions(void **state)
{
    (void)state;
    struct gs_arch a = plain_mlp("gelu_new");
    assert_int_equal(a.blocks[0].mlp.act, GS_ACT_TANH_CHAIN);
    struct gs_parallelism par;
    gs_parallelism_defaults(&par);
    struct gs_framework_rules hf, litgpt;
    hf_and_litgpt(&hf, &litgpt);
    struct gs_activation_input in = {.arch = &a, .batch_size = 1, .sequence_length = 8,
                                     .micro_batches = 1, .element_bytes = 4,
                                     .recompute = GS_RECOMPUTE_NONE, .flash_attention = true,
                                     .parallelism = &par, .rules = &hf};
    struct gs_activation_result chain, aten, relu;
    assert_true(gs_activation_bytes(&in, &chain));
    in.rules = &litgpt;
    assert_true(gs_activation_bytes(&in, &aten));
    in.rules = &hf;
    a.blocks[0].mlp.act = GS_ACT_RELU;
    assert_true(gs_activation_bytes(&in, &relu));
    assert_int_equal(chain.per_layer_bytes - relu.per_layer_bytes, 8 * (5120 - 1024));
    struct gs_arch same = a;
    same.blocks[0].mlp.act = GS_ACT_SAVES_INPUT;
    in.arch = &same;
    struct gs_activation_result gelu;
    assert_true(gs_activation_bytes(&in, &gelu));
    assert_int_equal(chain.per_layer_bytes - gelu.per_layer_bytes, 8 * 3072);
    assert_int_equal(gelu.per_layer_bytes - relu.per_layer_bytes, 8 * 1024);
    /* LitGPT's model code calls ATen's gelu whatever the config names; its fused qkv output
     * stays alive beside the rotated Q and K (V is a view of it): + 4 x 8 x (64 + 64) */
    assert_int_equal(aten.per_layer_bytes, gelu.per_layer_bytes + 4 * 8 * 128);
    /* T5's DenseReluDense drops out before wo: a 1-byte mask, and wo keeps the dropout output
     * beside relu's own output: + (1 + 4) x 256 a token */
    a.mlp_dropout = true;
    in.arch = &a;
    struct gs_activation_result dropped;
    assert_true(gs_activation_bytes(&in, &dropped));
    assert_int_equal(dropped.per_layer_bytes - relu.per_layer_bytes, 8 * 5 * 256);
}

/* transformers' other Python activations (activations.py), per element of the MLP's width
 * beyond what one ATen op keeps (its input), the same plain MLP (h 64, width 256) at 8 tokens:
 * - gelu_fast, FastGELUActivation: 0.5 * x * (1.0 + tanh(x * 0.7978845608 * (1.0 + 0.044715 *
 *   x * x))) keeps x and 0.044715 * x (their product), x * 0.79788 and 1 + 0.044715 * x * x
 *   (the product inside tanh), tanh's output, 0.5 * x and 1 + tanh (the last product): 7
 *   tensors, 6 more than gelu: 6 x 4 x 256 x 8 = 49,152 B in fp32;
 * - quick_gelu, x * sigmoid(1.702 * x): x and the sigmoid's output, 1 more: 8,192 B;
 * - xielu (Apertus), where(x > 0, alpha_p * x * x + beta * x, (expm1(min(x, eps)) - x) *
 *   alpha_n + beta * x) in Python: the bool condition (where), x (the product with x and
 *   minimum), alpha_p * x (the product with x), expm1's output and, with alpha_n trained,
 *   expm1(...) - x: 4 x 4 + 1 = 17 B against gelu's 4, 13 x 256 x 8 = 26,624 B trained in full;
 *   under LoRA on c_fc alpha_n is frozen: 9 x 256 x 8 = 18,432 B; under autocast (16-bit x,
 *   alpha_p * x fp32 by promotion, expm1 on autocast's fp32 list) 2 + 1 + 4 + 4 + 4 = 15 B
 *   against 2: 26,624 B. LitGPT's model code runs no Python activation: nothing more there. */
static void test_python_activations(void **state)
{
    (void)state;
    const struct gs_arch fast = plain_mlp("gelu_fast"), quick = plain_mlp("quick_gelu"),
                         gelu = plain_mlp("gelu");
    assert_int_equal(fast.blocks[0].mlp.act, GS_ACT_FAST_GELU);
    assert_int_equal(quick.blocks[0].mlp.act, GS_ACT_QUICK_GELU);
    assert_int_equal(gelu.blocks[0].mlp.act, GS_ACT_SAVES_INPUT);
    struct gs_arch xielu = gelu;
    xielu.blocks[0].mlp.act = GS_ACT_XIELU;
    const struct gs_arch apertus =
        fixture_arch("{\"model_type\":\"apertus\",\"hidden_size\":64,\"intermediate_size\":256,"
                     "\"num_hidden_layers\":2,\"num_attention_heads\":4,\"num_key_value_heads\":4,"
                     "\"vocab_size\":1000,\"hidden_act\":\"xielu\"}");
    assert_int_equal(apertus.blocks[0].mlp.act, GS_ACT_XIELU);

    struct gs_parallelism par;
    gs_parallelism_defaults(&par);
    struct gs_framework_rules hf, litgpt;
    hf_and_litgpt(&hf, &litgpt);
    struct gs_activation_input in = {.arch = &gelu, .batch_size = 1, .sequence_length = 8,
                                     .micro_batches = 1, .element_bytes = 4,
                                     .recompute = GS_RECOMPUTE_NONE, .flash_attention = true,
                                     .parallelism = &par, .rules = &hf};
    assert_int_equal(layer_bytes_beyond(&in, &fast, &gelu), 49152);
    assert_int_equal(layer_bytes_beyond(&in, &quick, &gelu), 8192);
    assert_int_equal(layer_bytes_beyond(&in, &xielu, &gelu), 26624);
    in.rules = &litgpt;
    assert_int_equal(layer_bytes_beyond(&in, &xielu, &gelu), 0);
    in.rules = &hf;

    struct gs_training tr;
    gs_training_defaults(&tr);
    tr.method = GS_METHOD_LORA;
    tr.lora_rank = 8;
    tr.lora_target_count = 1;
    strcpy(tr.lora_targets[0], "c_fc");
    in.trainable = GS_TRAIN_ADAPTERS;
    in.adapters = &tr;
    assert_int_equal(layer_bytes_beyond(&in, &xielu, &gelu), 18432);

    in.trainable = GS_TRAIN_ALL;
    in.adapters = NULL;
    in.element_bytes = 2;
    in.residual_bytes = 4;
    in.autocast = true;
    assert_int_equal(layer_bytes_beyond(&in, &xielu, &gelu), 26624);
}

/* A small Whisper shape (d_model 256, 2 + 2 layers, 4 heads of 64, ffn 1,024, 80 mel bins, no
 * dropout) under transformers' default rules and SDPA, full bf16 training of `batch` x 64 decoder
 * tokens. The members point at each other: use it where it was made. */
struct whisper_case {
    struct gs_arch arch;
    struct gs_parallelism par;
    struct gs_training_knobs knobs;
    struct gs_framework_rules rules;
    struct gs_activation_input in;
};

static void whisper_case_init(struct whisper_case *c, uint64_t batch)
{
    c->arch = fixture_arch(
        "{\"model_type\":\"whisper\",\"architectures\":[\"WhisperForConditionalGeneration\"],"
        "\"d_model\":256,\"encoder_layers\":2,\"decoder_layers\":2,"
        "\"encoder_attention_heads\":4,\"decoder_attention_heads\":4,\"encoder_ffn_dim\":1024,"
        "\"decoder_ffn_dim\":1024,\"num_mel_bins\":80,\"vocab_size\":1000,"
        "\"max_source_positions\":1500,\"max_target_positions\":448,"
        "\"activation_function\":\"gelu\",\"dropout\":0.0}");
    gs_parallelism_defaults(&c->par);
    memset(&c->knobs, 0, sizeof(c->knobs));
    gs_framework_resolve(&c->knobs, GS_ATTN_SDPA, &c->rules);
    c->in = (struct gs_activation_input){.arch = &c->arch,
                                         .batch_size = batch,
                                         .sequence_length = 64,
                                         .micro_batches = 1,
                                         .element_bytes = 2,
                                         .recompute = GS_RECOMPUTE_NONE,
                                         .flash_attention = true,
                                         .parallelism = &c->par,
                                         .rules = &c->rules};
}

/* Whisper's encoder runs max_source_positions a sample whatever the transcript's length
 * (WhisperEncoder.forward refuses input features of another length), so its layers and the
 * decoder's cross-attention keys and values are sized at those positions, not the decoder's
 * tokens. A small Whisper shape (d_model 256, 2 + 2 layers, 4 heads of 64, ffn 1,024, no
 * dropout) trained in full in bf16 under SDPA, 1 x 64 decoder tokens, stored activations with
 * the encoder at P positions: the encoder's grow linearly with P, and each decoder layer's K
 * and V add e x (k + v) = 2 x 512 bytes a position: 500 more positions, 2 layers: 1,024,000 B
 * beyond the same model whose decoder does not attend to the encoder. Under autocast over fp32
 * weights the cross-attention's k and v projections also keep their own 16-bit copy of the
 * encoder's output each, 2 x 2 x 256 bytes a position: 2,048,000 B. */
static void test_encoder_positions(void **state)
{
    (void)state;
    struct whisper_case c;
    whisper_case_init(&c, 1);
    struct gs_arch w = c.arch;
    assert_int_equal(w.tower_count, 1);
    assert_int_equal(w.towers[0].positions, 1500);
    struct gs_arch alone = w; /* the decoder attends to nothing */
    alone.blocks[w.layer_block[0]].attn.cross = false;
    struct gs_activation_input in = c.in;
    static const uint64_t positions[3] = {500, 1000, 1500};
    for (int amp = 0; amp < 2; amp++) {
        in.autocast = amp;
        in.residual_bytes = amp ? 4 : 2;
        uint64_t with[3], without[3];
        for (size_t i = 0; i < 3; i++) {
            struct gs_activation_result r;
            w.towers[0].positions = alone.towers[0].positions = positions[i];
            in.arch = &w;
            assert_true(gs_activation_bytes(&in, &r));
            with[i] = r.stored_bytes;
            in.arch = &alone;
            assert_true(gs_activation_bytes(&in, &r));
            without[i] = r.stored_bytes;
        }
        /* the encoder's layers at P positions: linear in P */
        assert_true(without[1] > without[0]);
        assert_int_equal(without[2] - without[1], without[1] - without[0]);
        assert_int_equal((with[2] - with[1]) - (without[2] - without[1]), amp ? 2048000 : 1024000);
    }
}

/* Whisper's convolutional front-end (WhisperEncoder.forward: gelu(conv1(input_features)),
 * gelu(conv2(.)), conv2 of stride 2), trained in full: conv1 keeps the features (80 mel bins x
 * 3,000 frames), the first GELU conv1's output and conv2 the first GELU's (256 x 3,000 each), the
 * second GELU conv2's output (256 x 1,500): 2,160,000 values a sample, at 2 bytes in bf16 and
 * under autocast (conv1d on its lower-precision list), 4 in fp32: 2 samples, 8,640,000 B in bf16
 * and 17,280,000 in fp32. Under LoRA the convolutions are frozen and the features need no
 * gradient: nothing. */
static void test_whisper_conv_frontend(void **state)
{
    (void)state;
    struct whisper_case c;
    whisper_case_init(&c, 2);
    struct gs_arch w = c.arch;
    assert_int_equal(w.towers[0].conv_channels, 80);
    struct gs_arch bare = w;
    bare.towers[0].conv_channels = 0;
    struct gs_activation_input in = c.in;
    static const struct {
        uint64_t element, residual;
        bool autocast;
        uint64_t bytes;
    } cases[] = {{2, 2, false, 8640000}, {4, 4, false, 17280000}, {2, 4, true, 8640000}};
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct gs_activation_result with, without;
        in.element_bytes = cases[i].element;
        in.residual_bytes = cases[i].residual;
        in.autocast = cases[i].autocast;
        in.arch = &w;
        assert_true(gs_activation_bytes(&in, &with));
        in.arch = &bare;
        assert_true(gs_activation_bytes(&in, &without));
        assert_int_equal(with.stored_bytes - without.stored_bytes, cases[i].bytes);
    }
    struct gs_training tr;
    memset(&tr, 0, sizeof(tr));
    tr.lora_rank = 8;
    in.trainable = GS_TRAIN_ADAPTERS;
    in.adapters = &tr;
    struct gs_activation_result with, without;
    in.arch = &w;
    assert_true(gs_activation_bytes(&in, &with));
    in.arch = &bare;
    assert_true(gs_activation_bytes(&in, &without));
    assert_int_equal(with.stored_bytes, without.stored_bytes);
}

/* PEFT's LoRA layers on a frozen bf16 base keep each adapter in fp32 and cast the input to
 * it (LoraLayer._cast_input_dtype), so every adapted linear keeps its own fp32 copy of its
 * input, where a bf16 adapter would share the one bf16 input. On the small Llama above with
 * adapters on q_proj and v_proj (no dropout), per token: the shared bf16 norm output
 * (2 x 64 = 128) gives way to two fp32 copies (2 x 4 x 64 = 512): +384 B x 16 tokens =
 * 6,144 a layer. Under autocast lora_A keeps its own bf16 copy of the fp32 copy instead:
 * 2 x 2 x 64 = 256, +128 x 16 = 2,048. */
static void test_peft_adapter_casts(void **state)
{
    (void)state;
    struct gs_arch a = small_llama();
    struct gs_parallelism par;
    gs_parallelism_defaults(&par);
    struct gs_training tr;
    gs_training_defaults(&tr);
    tr.method = GS_METHOD_LORA;
    tr.lora_rank = 8;
    tr.lora_target_count = 2;
    strcpy(tr.lora_targets[0], "q_proj");
    strcpy(tr.lora_targets[1], "v_proj");
    struct gs_training_knobs knobs;
    memset(&knobs, 0, sizeof(knobs));
    struct gs_framework_rules peft, plain;
    gs_framework_resolve(&knobs, GS_ATTN_SDPA, &peft);
    plain = peft;
    plain.adapters_fp32 = false;
    struct gs_activation_input in = {.arch = &a, .batch_size = 1, .sequence_length = 16,
                                     .micro_batches = 1, .element_bytes = 2,
                                     .recompute = GS_RECOMPUTE_NONE, .flash_attention = true,
                                     .parallelism = &par, .rules = &plain,
                                     .trainable = GS_TRAIN_ADAPTERS, .adapters = &tr};
    struct gs_activation_result shared, cast, autocast;
    assert_true(gs_activation_bytes(&in, &shared));
    in.rules = &peft;
    assert_true(gs_activation_bytes(&in, &cast));
    assert_int_equal(cast.per_layer_bytes - shared.per_layer_bytes, 6144);
    in.autocast = true;
    in.rules = &plain;
    assert_true(gs_activation_bytes(&in, &shared));
    in.rules = &peft;
    assert_true(gs_activation_bytes(&in, &autocast));
    assert_int_equal(autocast.per_layer_bytes - shared.per_layer_bytes, 2048);
}

/* Pipeline stages hold min(p, micro-batches) micro-batches in flight on the
 * first stage (1F1B, Narayanan et al. 2021; Megatron-LM's
 * compute_activation_memory; docs/training-memory.md, Pipeline parallelism:
 * micro-batches in flight); the last stage holds one plus
 * the logits, the final norm's input and the head's; a stage s between them p - s. Llama-2-7B,
 * p = 4, 8 micro-batches: first = 4 x (8 layers + token ids); last = 8 layers + logits + final
 * norm + head input; the fullest stage before the last counts where a split is uneven. */
static void test_pipeline_in_flight(void **state)
{
    (void)state;
    struct gs_model_spec m = llama(4096, 32, 32, 32, 11008, 32000);
    struct gs_parallelism par;
    gs_parallelism_defaults(&par);
    par.pipeline = 4;
    struct gs_activation_input in = {.arch = &m.arch, .batch_size = 1, .sequence_length = 4096,
                                     .micro_batches = 8, .element_bytes = 2,
                                     .recompute = GS_RECOMPUTE_NONE, .flash_attention = true,
                                     .parallelism = &par};
    struct gs_activation_result r;
    assert_true(gs_activation_bytes(&in, &r));
    assert_int_equal(r.first_stage_bytes, 4 * (8 * 629669888ULL + 8 * 4096));
    assert_int_equal(r.last_stage_bytes,
                     8 * 629669888ULL + 4096ULL * 32000 * 10 + 2 * 4096ULL * 4096 * 2);
    assert_int_equal(r.total_bytes, r.first_stage_bytes);
    in.micro_batches = 2; /* fewer micro-batches than stages */
    assert_true(gs_activation_bytes(&in, &r));
    assert_int_equal(r.first_stage_bytes, 2 * (8 * 629669888ULL + 8 * 4096));
    /* torchtitan's split of 32 layers over 4 stages is 8, 9, 8, 7 (test_stage_splits): with 8
     * micro-batches the first stage holds 4 x (8 layers + token ids), the second 3 x 9 layers,
     * fewer; the last 7 layers, the loss, the final norm and the head's input */
    par.stages.split = GS_SPLIT_TORCHTITAN;
    in.micro_batches = 8;
    assert_true(gs_activation_bytes(&in, &r));
    assert_int_equal(r.first_stage_bytes, 4 * (8 * 629669888ULL + 8 * 4096));
    assert_int_equal(r.last_stage_bytes,
                     7 * 629669888ULL + 4096ULL * 32000 * 10 + 2 * 4096ULL * 4096 * 2);
    /* 80 layers over 16 stages are 5, 6, 5 ... 5, 4: the second stage's 15 x 6 layers
     * outweigh the first's 16 x (5 layers + token ids) */
    m = llama(4096, 80, 32, 32, 11008, 32000);
    in.arch = &m.arch;
    par.pipeline = 16;
    in.micro_batches = 32;
    assert_true(gs_activation_bytes(&in, &r));
    assert_int_equal(r.first_stage_bytes, 15 * 6 * 629669888ULL);
    assert_true(15 * 6 * 629669888ULL > 16 * (5 * 629669888ULL + 8 * 4096));
    par.stages.split = GS_SPLIT_MEGATRON; /* 5 a stage: the first holds the most */
    assert_true(gs_activation_bytes(&in, &r));
    assert_int_equal(r.first_stage_bytes, 16 * (5 * 629669888ULL + 8 * 4096));
}

/* Expert parallelism shards routed experts. Mixtral-8x7B (formula in
 * docs/parameter-counts.md, Mixtral): experts = 32 layers x (router 4096*8
 * + 8 experts x 3*4096*14336) = 32 x (32,768 + 1,409,286,144)
 * = 45,098,205,184; e = 8 over t*dp = 8 -> 1/8 of them per GPU. */
/* gs_activation_bytes_memo answers what gs_activation_bytes answers: the same input (and one
 * that differs only where activations do not: the data-parallel and expert degrees, the ZeRO
 * stage, offload) from its memory, anything else computed again - including a change made
 * inside the rules or the training section the input points at, which a memo keyed on the
 * pointers would answer wrongly - and, once its 64 entries are full, the oldest replaced. */
static void test_activation_memo(void **state)
{
    (void)state;
    struct gs_model_spec m = llama(4096, 32, 32, 8, 14336, 128256);
    struct gs_parallelism par;
    gs_parallelism_defaults(&par);
    struct gs_training_knobs knobs;
    memset(&knobs, 0, sizeof(knobs));
    struct gs_framework_rules rules;
    gs_framework_resolve(&knobs, GS_ATTN_SDPA, &rules);
    struct gs_training tr = fixture_workload(GS_MODE_TRAINING).training;
    tr.lora_dropout_permille = 50;
    struct gs_activation_input in = {.arch = &m.arch,
                                     .batch_size = 2,
                                     .sequence_length = 4096,
                                     .micro_batches = 4,
                                     .element_bytes = 2,
                                     .recompute = GS_RECOMPUTE_NONE,
                                     .flash_attention = true,
                                     .parallelism = &par,
                                     .rules = &rules,
                                     .trainable = GS_TRAIN_ADAPTERS,
                                     .adapters = &tr};
    static struct gs_activation_memo memo; /* zeroed */
    struct gs_activation_result direct, memoized;

    assert_true(gs_activation_bytes(&in, &direct));
    assert_true(gs_activation_bytes_memo(&in, &memo, &memoized));
    assert_memory_equal(&memoized, &direct, sizeof(direct));
    assert_int_equal(memo.count, 1);
    /* what activations do not read: answered from the entry (the expert degree they read, for
     * PEFT's ParamWrappers on a rank's own experts) */
    par.data = 8;
    par.zero_stage = 3;
    par.offload = GS_OFFLOAD_OPTIMIZER_AND_PARAMS;
    assert_true(gs_activation_bytes_memo(&in, &memo, &memoized));
    assert_memory_equal(&memoized, &direct, sizeof(direct));
    assert_int_equal(memo.count, 1);

    /* each of these changes the answer, and the memo computes it anew */
    const char *const changes[] = {"the rules' loss, through the same pointer",
                                   "the LoRA dropout, through the same pointer", "tensor",
                                   "recomputation", "pipeline"};
    uint64_t previous = direct.total_bytes;
    for (size_t i = 0; i < sizeof(changes) / sizeof(changes[0]); i++) {
        switch (i) {
        case 0:
            rules.loss = GS_LOSS_FUSED;
            break;
        case 1:
            tr.lora_dropout_permille = 0;
            break;
        case 2:
            par.tensor = 2;
            break;
        case 3:
            in.recompute = GS_RECOMPUTE_FULL;
            break;
        default:
            par.pipeline = 4;
            break;
        }
        assert_true(gs_activation_bytes(&in, &direct));
        assert_true(gs_activation_bytes_memo(&in, &memo, &memoized));
        if (memcmp(&memoized, &direct, sizeof(direct)) != 0 || direct.total_bytes == previous)
            fail_msg("%s: memo %llu, computed %llu, before %llu", changes[i],
                     (unsigned long long)memoized.total_bytes,
                     (unsigned long long)direct.total_bytes, (unsigned long long)previous);
        assert_int_equal(memo.count, i + 2);
        previous = direct.total_bytes;
    }

    /* full: 64 entries kept, every answer still the computed one */
    for (uint64_t s = 1; s <= 100; s++) {
        in.sequence_length = 128 * s;
        assert_true(gs_activation_bytes(&in, &direct));
        assert_true(gs_activation_bytes_memo(&in, &memo, &memoized));
        assert_memory_equal(&memoized, &direct, sizeof(direct));
    }
    assert_int_equal(memo.count, GS_ACTIVATION_MEMO_ENTRIES);
    assert_true(gs_activation_bytes_memo(&in, &memo, &memoized)); /* the last: a hit */
    assert_memory_equal(&memoized, &direct, sizeof(direct));
}

static void test_expert_parallel(void **state)
{
    (void)state;
    struct gs_model_spec m = llama(4096, 32, 32, 8, 14336, 32000);
    m.arch = fixture_mixtral_8x7b();
    struct gs_workload w = training(GS_DTYPE_BF16);
    w.parallelism.data = 8;
    w.parallelism.expert = 8;
    struct gs_estimate e;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    assert_int_equal(e.params.experts, 45098205184ULL);
    assert_int_equal(e.parameters_per_gpu, e.parameters - 45098205184ULL + 45098205184ULL / 8);
    w.parallelism.expert = 3;
    expect_layout_error(w, m, "/parallelism/expert");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_zero_paper_figure_1),
        cmocka_unit_test(test_70b_mixed_adam),
        cmocka_unit_test(test_bytes_per_parameter_table),
        cmocka_unit_test(test_lora_parameter_counts),
        cmocka_unit_test(test_qlora_llama2_7b),
        cmocka_unit_test(test_lora_bf16_base),
        cmocka_unit_test(test_tensor_pipeline_split),
        cmocka_unit_test(test_stage_work),
        cmocka_unit_test(test_offload_optimizer),
        cmocka_unit_test(test_layout_validation),
        cmocka_unit_test(test_korthikanti_gpt_layer),
        cmocka_unit_test(test_llama_layer_flash),
        cmocka_unit_test(test_interleaved_schedule),
        cmocka_unit_test(test_device_map_activations),
        cmocka_unit_test(test_pipeline_adapter_share),
        cmocka_unit_test(test_transformers_eager_layer),
        cmocka_unit_test(test_transformers_grouped_kv),
        cmocka_unit_test(test_sdpa_sliding_window_mask),
        cmocka_unit_test(test_sdpa_padding_mask),
        cmocka_unit_test(test_mla_attention_paths),
        cmocka_unit_test(test_moe_weights_after_experts),
        cmocka_unit_test(test_moe_gpt_oss_glu),
        cmocka_unit_test(test_moe_shared_gate),
        cmocka_unit_test(test_moe_router_fp32),
        cmocka_unit_test(test_gated_delta_net),
        cmocka_unit_test(test_gated_delta_net_qwen3_next),
        cmocka_unit_test(test_kimi_delta_attention),
        cmocka_unit_test(test_autocast_frozen_weight_copies),
        cmocka_unit_test(test_bnb_4bit_keeps_no_input),
        cmocka_unit_test(test_trl_chunked_nll),
        cmocka_unit_test(test_layer_backward),
        cmocka_unit_test(test_mamba2_combined),
        cmocka_unit_test(test_mamba2_chunked),
        cmocka_unit_test(test_mamba2_naive),
        cmocka_unit_test(test_gated_norm_rstd),
        cmocka_unit_test(test_falcon_h1_parallel),
        cmocka_unit_test(test_mamba1_inner),
        cmocka_unit_test(test_mamba1_sequential),
        cmocka_unit_test(test_whisper_conv_frontend),
        cmocka_unit_test(test_jamba_mamba),
        cmocka_unit_test(test_residual_in_fp32),
        cmocka_unit_test(test_gpt_oss_eager_scores),
        cmocka_unit_test(test_softcapping),
        cmocka_unit_test(test_padding_mask_default),
        cmocka_unit_test(test_eager_mask_under_checkpointing),
        cmocka_unit_test(test_first_layer_frozen_input),
        cmocka_unit_test(test_sdpa_wide_heads),
        cmocka_unit_test(test_sdpa_fp32_grouped_math_kernel),
        cmocka_unit_test(test_bert_mlm_head),
        cmocka_unit_test(test_fused_qkv_views),
        cmocka_unit_test(test_activation_functions),
        cmocka_unit_test(test_python_activations),
        cmocka_unit_test(test_encoder_positions),
        cmocka_unit_test(test_peft_adapter_casts),
        cmocka_unit_test(test_pipeline_in_flight),
        cmocka_unit_test(test_expert_parallel),
        cmocka_unit_test(test_activation_memo),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
