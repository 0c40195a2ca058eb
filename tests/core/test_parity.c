/*
 * test_parity.c - other tools' printed numbers, reproduced: DeepSpeed's
 * ZeRO estimators, Megatron-LM's theoretical memory and accelerate
 * estimate-memory, each from the tool's own code (docs/parity.md, one
 * section per tool).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "arch_fixture.h"
#include "gs/parity.h"

#include <string.h>

/* What DeepSpeed prints: bytes / 2^30 with two decimals, as hundredths. */
static uint64_t printed_gib_x100(uint64_t bytes)
{
    return (bytes * 100 + ((uint64_t)1 << 29)) >> 30;
}

/* DeepSpeed's estimate_zero2/zero3_model_states_mem_needs (stage_1_and_2.py,
 * stage3.py; docs/parity.md, DeepSpeed's ZeRO estimators): Llama-2-7B
 * (6,738,415,616 params, largest layer the 32000 x 4096 embedding =
 * 131,072,000), 1 node x 8 GPUs, in GiB:
 *   ZeRO-2 offload_optimizer=cpu      301.23 / 12.55
 *   ZeRO-2 none                       301.23 / 26.67
 *   ZeRO-3 offload param+opt, init    169.44 /  0.49
 *   ZeRO-3 offload opt only, init     150.62 /  2.06
 *   ZeRO-3 none, init                   5.86 / 14.61   (per CPU / per GPU) */
static void test_deepspeed_llama2_7b(void **state)
{
    (void)state;
    struct gs_deepspeed_parity d;
    assert_true(gs_parity_deepspeed(6738415616ULL, 131072000ULL, 8, 1, &d));
    assert_int_equal(d.row_count, 8);
    const struct {
        size_t row;
        uint64_t cpu, gpu;
    } expected[] = {{0, 30123, 1255}, {1, 30123, 2667}, {2, 16944, 49},
                    {4, 15062, 206},  {6, 586, 1461}};
    for (size_t i = 0; i < sizeof(expected) / sizeof(expected[0]); i++) {
        const struct gs_deepspeed_row *r = &d.rows[expected[i].row];
        if (printed_gib_x100(r->per_cpu_bytes) != expected[i].cpu ||
            printed_gib_x100(r->per_gpu_bytes) != expected[i].gpu)
            fail_msg("ZeRO-%u %s: %llu/%llu, DeepSpeed prints %llu/%llu", r->zero_stage, r->options,
                     (unsigned long long)printed_gib_x100(r->per_cpu_bytes),
                     (unsigned long long)printed_gib_x100(r->per_gpu_bytes),
                     (unsigned long long)expected[i].cpu, (unsigned long long)expected[i].gpu);
    }
    /* exact: ZeRO-2 none per GPU = 2P + int(18P/8) */
    assert_int_equal(d.rows[1].per_gpu_bytes, 2 * 6738415616ULL + 18 * 6738415616ULL / 8);
    /* without a largest layer (raw count) only the ZeRO-2 rows exist */
    assert_true(gs_parity_deepspeed(6738415616ULL, 0, 8, 1, &d));
    assert_int_equal(d.row_count, 2);
}

static struct gs_arch llama2_70b(void)
{
    return fixture_llama(8192, 80, 64, 8, 28672, 32000, false);
}

/* Megatron-LM's theoretical_memory_usage.py (docs/parity.md, Megatron-LM's
 * theoretical memory), Llama-2-70B, t = 8, p = 4, dp = 4 (128 GPUs):
 * vocab padded to 32768; 2,172,979,200 parameters on the most loaded shard;
 * distributed optimizer 9 bytes each = 19,556,812,800 ("19.56 GB"), without
 * it 18 = 39,113,625,600 ("39.11 GB"). Activations with SP and selective
 * recomputation, s = 4096, b = 1: 32 sbh x 80 layers + embedding terms, / 8
 * = 10,754,211,840 ("10.75 GB"); the non-SP path gives 36,782,505,984
 * ("36.8 GB", with its 1.05 factor). */
static void test_megatron_llama2_70b(void **state)
{
    (void)state;
    struct gs_arch a = llama2_70b();
    struct gs_training tr;
    gs_training_defaults(&tr);
    tr.batch_size = 1;
    tr.sequence_length = 4096;
    tr.recompute = GS_RECOMPUTE_SELECTIVE;
    tr.gradient_accumulation_steps = 8; /* at least p micro-batches in flight */
    struct gs_parallelism p;
    gs_parallelism_defaults(&p);
    p.tensor = 8;
    p.pipeline = 4;
    p.data = 4;
    p.sequence_parallel = true;
    p.distributed_optimizer = true;
    struct gs_megatron_parity m;
    assert_true(gs_parity_megatron(&a, &tr, &p, &m));
    assert_int_equal(m.padded_vocab, 32768);
    assert_int_equal(m.parameters_on_most_loaded_shard, 2172979200ULL);
    assert_int_equal(m.weight_and_optimizer_bytes, 19556812800ULL);
    assert_int_equal(m.weight_and_optimizer_bytes_other, 39113625600ULL);
    assert_true(m.sequence_parallel_path);
    assert_int_equal(m.activation_bytes, 10754211840ULL);
    p.sequence_parallel = false;
    assert_true(gs_parity_megatron(&a, &tr, &p, &m));
    assert_false(m.sequence_parallel_path);
    assert_int_equal(m.activation_bytes, 36782505984ULL);
    /* the interleaved schedule in 2 chunks: interleaved_schedule_memory_penalty 1 + 3/8 on
     * the whole (before the non-SP path's 1.05): 10,754,211,840 x 11/8 = 14,787,041,280
     * ("14.79 GB"); 36,782,505,984 / 1.05 x 11/8 x 1.05 = 50,575,945,728 */
    p.stages.chunks = 2;
    assert_true(gs_parity_megatron(&a, &tr, &p, &m));
    assert_int_equal(m.activation_bytes, 50575945728ULL);
    p.sequence_parallel = true;
    assert_true(gs_parity_megatron(&a, &tr, &p, &m));
    assert_int_equal(m.activation_bytes, 14787041280ULL);
    /* the penalty stands whatever the micro-batches (its m < p discount is the
     * non-interleaved schedule's) */
    tr.gradient_accumulation_steps = 2;
    assert_true(gs_parity_megatron(&a, &tr, &p, &m));
    assert_int_equal(m.activation_bytes, 14787041280ULL);
    p.stages.chunks = 1;
    assert_true(gs_parity_megatron(&a, &tr, &p, &m));
    assert_int_equal(m.activation_bytes, 10754211840ULL / 2);
}

/* Megatron-LM's theoretical_memory_usage.py (docs/parity.md, Megatron-LM's
 * theoretical memory): Mixtral-8x7B, t = 1, p = 1, e = 8, distributed
 * optimizer: 7.243 B parameters per GPU; world 8 (expert_dp 1, so 18
 * bytes on experts) -> "113.5 GB"; world 64 (expert_dp 8) -> "52.2 GB". */
static void test_megatron_mixtral(void **state)
{
    (void)state;
    struct gs_arch a = fixture_mixtral_8x7b();
    struct gs_training tr;
    gs_training_defaults(&tr);
    struct gs_parallelism p;
    gs_parallelism_defaults(&p);
    p.expert = 8;
    p.data = 8;
    p.distributed_optimizer = true;
    struct gs_megatron_parity m;
    assert_true(gs_parity_megatron(&a, &tr, &p, &m));
    assert_int_equal((m.parameters_on_most_loaded_shard + m.expert_parameters_on_shard + 500000) /
                         1000000,
                     7243);
    assert_int_equal((m.weight_and_optimizer_bytes + 50000000) / 100000000, 1135); /* 113.5 GB */
    assert_false(m.has_activations);
    p.data = 64;
    assert_true(gs_parity_megatron(&a, &tr, &p, &m));
    assert_int_equal((m.weight_and_optimizer_bytes + 50000000) / 100000000, 522); /* 52.2 GB */
    /* the routed experts, 32 layers x 8 x 3 x 4096 x 14336 = 45,097,156,608, over expert x
     * expert_tensor ranks (expert_sharded_params / (expert_tensor_parallel_size x
     * expert_model_parallel_size)): at e = 8 an eighth; at t = 2, e = 4 Megatron-LM's default
     * expert_tensor = tensor gives an eighth again, and --expert-tensor-parallel-size 1 a
     * quarter */
    assert_int_equal(m.expert_parameters_on_shard, 45097156608ULL / 8);
    p.tensor = 2;
    p.expert = 4;
    assert_true(gs_parity_megatron(&a, &tr, &p, &m));
    assert_int_equal(m.expert_parameters_on_shard, 45097156608ULL / 8);
    p.expert_tensor = 1;
    assert_true(gs_parity_megatron(&a, &tr, &p, &m));
    assert_int_equal(m.expert_parameters_on_shard, 45097156608ULL / 4);
}

/* accelerate estimate-memory (src/accelerate/commands/estimate.py;
 * docs/parity.md, accelerate estimate-memory): from the fp32 size 4N,
 * 16-bit halves, int8 quarters, int4 eighths; "Training using Adam" is the
 * maximum of the components: 16N in fp32, 8N in fp16/bf16, N/A quantized. */
static void test_accelerate(void **state)
{
    (void)state;
    struct gs_accelerate_parity acc;
    gs_parity_accelerate(6738415616ULL, 131072000ULL, &acc);
    assert_string_equal(acc.rows[0].dtype, "float32");
    assert_int_equal(acc.rows[0].total_size_bytes, 4 * 6738415616ULL);
    assert_int_equal(acc.rows[0].training_bytes, 16 * 6738415616ULL);
    assert_int_equal(acc.rows[1].total_size_bytes, 2 * 6738415616ULL);
    assert_int_equal(acc.rows[1].training_bytes, 8 * 6738415616ULL);
    assert_int_equal(acc.rows[1].largest_layer_bytes, 2 * 131072000ULL);
    assert_false(acc.rows[2].has_training);
    assert_int_equal(acc.rows[3].total_size_bytes, 6738415616ULL / 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_deepspeed_llama2_7b),
        cmocka_unit_test(test_megatron_llama2_70b),
        cmocka_unit_test(test_megatron_mixtral),
        cmocka_unit_test(test_accelerate),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
