/*
 * test_arch.c - exact parameter counts against published numbers.
 *
 * Every expected total below is a published count: the checkpoint's
 * safetensors total on its Hugging Face model page (less any buffer the
 * checkpoint stores, such as rotary inv_freq), or a checkpoint index total
 * noted with the case. docs/parameter-counts.md gives each family's formula
 * (a section per family) and the source of each total.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "arch_fixture.h"
#include "gs/arch.h"
#include "gs/arch_build.h"
#include "gs/weights.h"

#include <string.h>

static struct gs_arch typed(const char *type, uint64_t h, uint64_t L, uint64_t a, uint64_t k,
                            uint64_t i, uint64_t V, bool tied, uint64_t head_dim)
{
    return fixture_typed(type, h, L, a, k, i, V, tied, head_dim);
}

static struct gs_arch llama(uint64_t h, uint64_t L, uint64_t a, uint64_t k, uint64_t i, uint64_t V,
                            bool tied)
{
    return fixture_llama(h, L, a, k, i, V, tied);
}

struct published {
    const char *model;
    struct gs_arch arch;
    uint64_t total;
    const char *source;
};

static void test_published_totals(void **state)
{
    (void)state;
    const struct published cases[] = {
        {"Llama-2-7B", llama(4096, 32, 32, 32, 11008, 32000, false), 6738415616ULL,
         "meta-llama/Llama-2-7b-hf safetensors total"},
        {"Llama-2-13B", llama(5120, 40, 40, 40, 13824, 32000, false), 13015864320ULL,
         "meta-llama/Llama-2-13b-hf safetensors total"},
        {"Llama-2-70B", llama(8192, 80, 64, 8, 28672, 32000, false), 68976648192ULL,
         "meta-llama/Llama-2-70b-hf safetensors total"},
        {"Llama-3-8B / Llama-3.1-8B", llama(4096, 32, 32, 8, 14336, 128256, false),
         8030261248ULL, "meta-llama/Meta-Llama-3-8B safetensors total"},
        {"Llama-3.2-1B (tied)", llama(2048, 16, 32, 8, 8192, 128256, true), 1235814400ULL,
         "meta-llama/Llama-3.2-1B safetensors total"},
        {"Mistral-7B-v0.1", llama(4096, 32, 32, 8, 14336, 32000, false), 7241732096ULL,
         "mistralai/Mistral-7B-v0.1 safetensors total"},
        /* meta-llama/Llama-3.1-70B model.safetensors.index.json: total_size
         * 141,107,412,992 bytes, every tensor bf16 -> /2 */
        {"Llama-3.1-70B", llama(8192, 80, 64, 8, 28672, 128256, false), 141107412992ULL / 2,
         "HF safetensors index total_size / 2"},
        /* Qwen2: q/k/v biases, no o bias (modular_qwen2.py; docs/parameter-counts.md, Qwen2) */
        {"Qwen2-7B / Qwen2.5-7B",
         typed("qwen2", 3584, 28, 28, 4, 18944, 152064, false, 0), 7615616512ULL,
         "Qwen/Qwen2-7B safetensors total"},
        {"Qwen2-0.5B (tied)", typed("qwen2", 896, 24, 14, 2, 4864, 151936, true, 0),
         494032768ULL, "Qwen/Qwen2-0.5B safetensors total"},
        /* Gemma: explicit head_dim 256 (q_proj 3072 -> 4096 on Gemma-7B), tied */
        {"Gemma-7B", typed("gemma", 3072, 28, 16, 16, 24576, 256000, true, 256),
         8537680896ULL, "google/gemma-7b safetensors total"},
        {"Gemma-2B (MQA)", typed("gemma", 2048, 18, 8, 1, 16384, 256000, true, 256),
         2506172416ULL, "google/gemma-2b safetensors total"},
        /* Gemma-2: four RMSNorms per layer */
        {"Gemma-2-9B", typed("gemma2", 3584, 42, 16, 8, 14336, 256000, true, 256),
         9241705984ULL, "google/gemma-2-9b safetensors total"},
        {"Gemma-2-2B", typed("gemma2", 2304, 26, 8, 4, 9216, 256000, true, 256),
         2614341888ULL, "google/gemma-2-2b safetensors total"},
        /* Phi-3: fused qkv_proj / gate_up_proj, same count as Llama */
        {"Phi-3-mini", typed("phi3", 3072, 32, 32, 32, 8192, 32064, false, 0),
         3821079552ULL, "microsoft/Phi-3-mini-4k-instruct safetensors total"},
    };
    for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
        struct gs_param_count count;
        struct gs_error err;
        gs_error_init(&err);
        assert_int_equal(gs_arch_count_params(&cases[c].arch, &count, &err), GS_OK);
        if (count.total != cases[c].total)
            fail_msg("%s: got %llu, published %llu (%s)", cases[c].model,
                     (unsigned long long)count.total, (unsigned long long)cases[c].total,
                     cases[c].source);
        assert_int_equal(count.embedding + count.attention + count.mlp + count.norms +
                             count.lm_head,
                         count.total);
    }
}

/* Llama-2-7B per component, by hand from modeling_llama.py's shapes
 * (docs/parameter-counts.md, Llama and Mistral): attn 4 x 4096^2 =
 * 67,108,864 + mlp 3 x 4096 x 11008 = 135,266,304 + norms 2 x 4096 = 8,192
 * = 202,383,360 per layer; embed = lm_head = 32000 x 4096 = 131,072,000. */
static void test_llama2_7b_breakdown(void **state)
{
    (void)state;
    struct gs_arch a = llama(4096, 32, 32, 32, 11008, 32000, false);
    struct gs_param_count c;
    assert_int_equal(gs_arch_count_params(&a, &c, NULL), GS_OK);
    assert_int_equal(c.attention, 32ULL * 67108864ULL);
    assert_int_equal(c.mlp, 32ULL * 135266304ULL);
    assert_int_equal(c.norms, 32ULL * 8192ULL + 4096ULL);
    assert_int_equal(c.embedding, 131072000ULL);
    assert_int_equal(c.lm_head, 131072000ULL);
    /* the largest single module is the embedding (or head): 32000 x 4096,
     * as DeepSpeed's model_to_params finds (docs/parity.md, DeepSpeed's ZeRO
     * estimators) */
    assert_int_equal(c.largest_module, 131072000ULL);
}

/* A tied head adds nothing: model.parameters() yields a shared tensor once
 * (docs/parameter-counts.md, Building blocks). */
static void test_tied_head_counted_once(void **state)
{
    (void)state;
    struct gs_arch untied = llama(2048, 16, 32, 8, 8192, 128256, false);
    struct gs_arch tied = llama(2048, 16, 32, 8, 8192, 128256, true);
    struct gs_param_count a, b;
    assert_int_equal(gs_arch_count_params(&untied, &a, NULL), GS_OK);
    assert_int_equal(gs_arch_count_params(&tied, &b, NULL), GS_OK);
    assert_int_equal(a.total - b.total, 128256ULL * 2048ULL);
    assert_int_equal(b.lm_head, 0);
}

/* Biases, by hand: with attention_bias q adds a*d, k and v add k*d each and
 * o adds h; with mlp_bias gate and up add i each and down adds h. */
static void test_biases_by_hand(void **state)
{
    (void)state;
    struct gs_arch a = llama(64, 2, 4, 2, 128, 100, false);
    struct gs_param_count plain, biased;
    assert_int_equal(gs_arch_count_params(&a, &plain, NULL), GS_OK);
    a = fixture_arch("{\"model_type\":\"llama\",\"hidden_size\":64,\"num_hidden_layers\":2,"
                     "\"num_attention_heads\":4,\"num_key_value_heads\":2,\"intermediate_size\":128,"
                     "\"vocab_size\":100,\"attention_bias\":true,\"mlp_bias\":true}");
    assert_int_equal(gs_arch_count_params(&a, &biased, NULL), GS_OK);
    /* per layer: 64 + 2*32 + 64 = 192 attention, 2*128 + 64 = 320 mlp */
    assert_int_equal(biased.attention - plain.attention, 2 * 192);
    assert_int_equal(biased.mlp - plain.mlp, 2 * 320);
}

/* Explicit head_dim decouples q width from hidden (Gemma-7B: q_proj is
 * 3072 -> 4096). By hand for a 1-layer toy: h=8, a=2, k=1, d=8:
 * q 8*16=128, k 8*8=64, v 64, o 16*8=128 -> 384. */
static void test_explicit_head_dim(void **state)
{
    (void)state;
    struct gs_arch a = typed("llama", 8, 1, 2, 1, 4, 10, true, 8);
    struct gs_param_count c;
    assert_int_equal(gs_arch_count_params(&a, &c, NULL), GS_OK);
    assert_int_equal(c.attention, 384);
    assert_int_equal(c.mlp, 3 * 8 * 4);
    assert_int_equal(c.total, 10 * 8 + 384 + 96 + 2 * 8 + 8);
}

/* MoE every second layer, by hand. Toy qwen3_moe: h=8, L=4, a=2, k=1, d=4,
 * dense i=16, experts 4 x width 4, top-2, V=10, untied, decoder_sparse_step 2
 * (layers 1 and 3 are MoE):
 *   attention per layer: q 8*8 + k 8*4 + v 8*4 + o 8*8 = 192, + q/k norms 2*4 = 200; x4 = 800
 *   dense MLP (layers 0, 2): 3*8*16 = 384 each = 768
 *   MoE (layers 1, 3): router 8*4 = 32 + 4 experts * 3*8*4 = 384 -> 416 each = 832
 *   norms 4*2*8 + 8 = 72; embedding 80; head 80        -> total 2,632
 *   active = 2,632 - 2 layers * 2 idle experts * 96 - 80 (untied input) = 2,168 */
static void test_sparse_step_by_hand(void **state)
{
    (void)state;
    struct gs_arch a = fixture_arch("{\"model_type\":\"qwen3_moe\",\"hidden_size\":8,"
                                    "\"num_hidden_layers\":4,\"num_attention_heads\":2,"
                                    "\"num_key_value_heads\":1,\"head_dim\":4,"
                                    "\"intermediate_size\":16,\"vocab_size\":10,\"num_experts\":4,"
                                    "\"num_experts_per_tok\":2,\"moe_intermediate_size\":4,"
                                    "\"decoder_sparse_step\":2}");
    struct gs_param_count c;
    assert_int_equal(gs_arch_count_params(&a, &c, NULL), GS_OK);
    assert_int_equal(c.attention, 800);
    assert_int_equal(c.mlp, 768);
    assert_int_equal(c.experts, 832);
    assert_int_equal(c.norms, 72);
    assert_int_equal(c.total, 2632);
    assert_int_equal(c.active, 2168);
    assert_int_equal(c.largest_module, 8 * 16); /* a dense gate/up projection */

    /* more experts per token than there are */
    a.blocks[a.layer_block[1]].mlp.top_k = 5;
    struct gs_error err;
    gs_error_init(&err);
    assert_int_equal(gs_arch_count_params(&a, &c, &err), GS_ERR_INVALID);
    assert_string_equal(err.items[0].pointer, "/num_experts_per_tok");
}

static void test_validation_collects_every_field(void **state)
{
    (void)state;
    struct gs_arch a = llama(4096, 32, 32, 8, 14336, 128256, false);
    a.hidden_size = 0;
    a.vocab_size = 0;
    struct gs_error err;
    gs_error_init(&err);
    struct gs_param_count c;
    assert_int_equal(gs_arch_count_params(&a, &c, &err), GS_ERR_INVALID);
    assert_int_equal(err.count, 2);
    assert_string_equal(err.items[0].pointer, "/hidden_size");
    assert_string_equal(err.items[1].pointer, "/vocab_size");
}

static void test_gqa_heads_must_divide(void **state)
{
    (void)state;
    struct gs_arch a = llama(4096, 32, 32, 8, 14336, 128256, false);
    a.blocks[0].attn.kv_heads = 5;
    struct gs_error err;
    gs_error_init(&err);
    struct gs_param_count c;
    assert_int_equal(gs_arch_count_params(&a, &c, &err), GS_ERR_INVALID);
    assert_string_equal(err.items[0].pointer, "/num_key_value_heads");
}

static void test_absurd_dimensions_rejected(void **state)
{
    (void)state;
    struct gs_arch a = llama(4096, 32, 32, 8, 14336, 128256, false);
    a.num_hidden_layers = GS_LAYERS_MAX + 1;
    struct gs_error err;
    gs_error_init(&err);
    struct gs_param_count c;
    assert_int_not_equal(gs_arch_count_params(&a, &c, &err), GS_OK);
    assert_string_equal(err.items[0].pointer, "/num_hidden_layers");

    /* every dimension at the limit: products overflow 64 bits and are caught */
    struct gs_arch big;
    gs_arch_init(&big, "toy", GS_ARCH_DIM_MAX, GS_ARCH_DIM_MAX);
    const size_t b = gs_arch_new_block(&big);
    for (int i = 0; i < 4; i++)
        gs_block_module(&big, b, "w", GS_MODULE_LINEAR, GS_SPLIT_COLUMN, GS_PART_MLP, 0,
                        GS_ARCH_DIM_MAX, GS_ARCH_DIM_MAX, GS_ARCH_DIM_MAX);
    gs_arch_set_layers(&big, GS_LAYERS_MAX, b);
    gs_error_init(&err);
    assert_int_equal(gs_arch_count_params(&big, &c, &err), GS_ERR_RANGE);
}

/* The builders refuse a description larger than their fixed arrays rather
 * than dropping modules: validation names it. */
static void test_builder_overflow_refused(void **state)
{
    (void)state;
    struct gs_arch a = llama(64, 2, 4, 2, 128, 100, false);
    for (int i = 0; i < GS_BLOCK_MODULES_MAX + 1; i++)
        gs_block_module(&a, 0, "extra", GS_MODULE_NORM, GS_SPLIT_NONE, GS_PART_NORMS, 0, 1, 64, 1);
    struct gs_error err;
    gs_error_init(&err);
    struct gs_param_count c;
    assert_int_equal(gs_arch_count_params(&a, &c, &err), GS_ERR_UNSUPPORTED);
}

/* vLLM's get_pp_indices (vllm/distributed/utils.py: partitions[-i] += 1 for
 * i in 2 .. remainder + 1): 61 layers over 4 stages are 15, 15, 16, 15 (the
 * example vLLM's docs give for DeepSeek-V3), 62 over 4 are 15, 16, 16, 15. */
static void test_pipeline_stages_as_vllm_splits(void **state)
{
    (void)state;
    struct gs_arch a = llama(64, 61, 4, 2, 128, 100, false);
    const uint64_t want61[4][2] = {{0, 15}, {15, 30}, {30, 46}, {46, 61}};
    for (uint64_t s = 0; s < 4; s++) {
        uint64_t first, end;
        gs_arch_stage(&a, NULL, 4, s, &first, &end);
        assert_int_equal(first, want61[s][0]);
        assert_int_equal(end, want61[s][1]);
    }
    a = llama(64, 62, 4, 2, 128, 100, false);
    const uint64_t sizes62[4] = {15, 16, 16, 15};
    for (uint64_t s = 0; s < 4; s++) {
        uint64_t first, end;
        gs_arch_stage(&a, NULL, 4, s, &first, &end);
        assert_int_equal(end - first, sizes62[s]);
    }
}

/* The training frameworks' splits, by hand from their code (gs/arch.h):
 * - torchtitan _generate_llm_fqn_per_model_part(p, L, 1, 1): L + 2 slots, (L + 2) // p a
 *   stage and one more to the first (L + 2) % p stages, the first and last each giving one
 *   slot to the embedding and the head. 32 layers over 4: 34 slots, 9 9 8 8 -> 8 9 8 7
 *   layers; 61 over 8: 63 slots, 8 x7 and 7 -> 7, 8 x6, 6; 61 over 2: 32 + 31 -> 31, 30;
 *   80 over 16: 82 slots, 6 6 then 5 x14 -> 5, 6, 5 x13, 4.
 * - Megatron-LM: even when p divides L; otherwise the ends set by
 *   --decoder-first/last-pipeline-num-layers around even middle stages: 61 over 8 -> 6, 8 x6,
 *   7 (middle 8 = ceil(61 / 8), 13 left for the ends); 80 over 3 -> 26, 27, 27; 13 over 8 ->
 *   a middle of 2 leaves 1 for both ends (each needs a layer), so 1 a middle stage and 3, 4
 *   at the ends; 61 over 2 -> 30, 31.
 * - TensorRT-LLM's mapping.py pp_layers, torch.tensor_split: the first L % p stages one
 *   layer more: 61 over 4 -> 16, 15, 15, 15; 62 over 4 -> 16, 16, 15, 15.
 * - DIVIDES refuses what does not divide; every split refuses more stages than layers. */
static void test_stage_splits(void **state)
{
    (void)state;
    const struct {
        enum gs_stage_split split;
        uint64_t layers, stages;
        uint64_t want[16];
    } cases[] = {
        {GS_SPLIT_TORCHTITAN, 32, 4, {8, 9, 8, 7}},
        {GS_SPLIT_TORCHTITAN, 61, 8, {7, 8, 8, 8, 8, 8, 8, 6}},
        {GS_SPLIT_TORCHTITAN, 61, 2, {31, 30}},
        {GS_SPLIT_TORCHTITAN, 80, 16, {5, 6, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 4}},
        {GS_SPLIT_MEGATRON, 61, 8, {6, 8, 8, 8, 8, 8, 8, 7}},
        {GS_SPLIT_MEGATRON, 80, 3, {26, 27, 27}},
        {GS_SPLIT_MEGATRON, 80, 4, {20, 20, 20, 20}},
        {GS_SPLIT_MEGATRON, 13, 8, {3, 1, 1, 1, 1, 1, 1, 4}},
        {GS_SPLIT_MEGATRON, 61, 2, {30, 31}},
        {GS_SPLIT_DIVIDES, 32, 4, {8, 8, 8, 8}},
        {GS_SPLIT_VLLM, 61, 4, {15, 15, 16, 15}},
        {GS_SPLIT_TRTLLM, 61, 4, {16, 15, 15, 15}},
        {GS_SPLIT_TRTLLM, 62, 4, {16, 16, 15, 15}},
        {GS_SPLIT_TRTLLM, 32, 4, {8, 8, 8, 8}},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        uint64_t next = 0, most = 0;
        const struct gs_stage_plan plan = gs_stage_rule(cases[i].split);
        for (uint64_t s = 0; s < cases[i].stages; s++) {
            uint64_t first, end;
            assert_true(gs_stage_range(&plan, cases[i].layers, cases[i].stages, s, &first, &end));
            assert_int_equal(first, next); /* contiguous, in order */
            assert_int_equal(end - first, cases[i].want[s]);
            next = end;
            most = end - first > most ? end - first : most;
        }
        assert_int_equal(next, cases[i].layers); /* every layer placed once */
        assert_int_equal(gs_stage_layers_max(&plan, cases[i].layers, cases[i].stages), most);
    }
    uint64_t first, end, head, tail;
    assert_true(gs_stage_megatron_ends(61, 8, &head, &tail));
    assert_int_equal(head, 6);
    assert_int_equal(tail, 7);
    assert_false(gs_stage_megatron_ends(80, 4, &head, &tail)); /* divides: no flags */
    const struct gs_stage_plan divides = gs_stage_rule(GS_SPLIT_DIVIDES);
    const struct gs_stage_plan megatron = gs_stage_rule(GS_SPLIT_MEGATRON);
    assert_false(gs_stage_range(&divides, 61, 8, 0, &first, &end));
    assert_int_equal(gs_stage_layers_max(&divides, 61, 8), 0);
    for (int split = GS_SPLIT_VLLM; split <= GS_SPLIT_TRTLLM; split++) {
        const struct gs_stage_plan plan = gs_stage_rule((enum gs_stage_split)split);
        assert_false(gs_stage_range(&plan, 4, 5, 0, &first, &end));
    }
    assert_false(gs_stage_range(&megatron, 61, 8, 8, &first, &end)); /* no stage 8 */

    /* a listed partition places exactly its counts: Kimi K3's 93 layers as 48 and 45
     * (SGLANG_PP_LAYER_PARTITION=48,45 in public two-node launch scripts); a stage of the
     * embedding alone and one of the head alone (Megatron-LM layouts "E|t*30|t*31|L") */
    struct gs_stage_plan given = gs_stage_rule(GS_SPLIT_GIVEN);
    given.given_count = 2;
    given.given[0] = 48;
    given.given[1] = 45;
    assert_true(gs_stage_range(&given, 93, 2, 1, &first, &end));
    assert_int_equal(first, 48);
    assert_int_equal(end, 93);
    assert_int_equal(gs_stage_layers_max(&given, 93, 2), 48);
    struct gs_arch k3 = llama(64, 93, 4, 2, 128, 100, false);
    gs_arch_stage(&k3, &given, 2, 0, &first, &end);
    assert_int_equal(end, 48);
    gs_arch_stage(&k3, NULL, 2, 0, &first, &end); /* vLLM's own: 47 and 46 */
    assert_int_equal(end, 47);
    assert_false(gs_stage_range(&given, 92, 2, 0, &first, &end)); /* sums to 93, not 92 */
    assert_false(gs_stage_range(&given, 93, 3, 0, &first, &end)); /* two counts, three stages */
    given.given_count = 4;
    const uint16_t ends[4] = {0, 30, 31, 0};
    memcpy(given.given, ends, sizeof(ends));
    uint64_t bounds[5];
    assert_true(gs_stage_bounds(&given, 61, 4, bounds));
    assert_int_equal(bounds[1], 0);
    assert_int_equal(bounds[2], 30);
    assert_int_equal(bounds[3], 61);
    assert_int_equal(bounds[4], 61);
    given.given[1] = 0; /* an empty middle stage holds nothing at all */
    given.given[2] = 61;
    assert_false(gs_stage_bounds(&given, 61, 4, bounds));
}

/* Layers of each kind in a range of layers: one kind (the stage's length, clamped to the
 * stack), and two kinds (counted layer by layer), against a count by hand. */
static void test_count_blocks_in_ranges(void **state)
{
    (void)state;
    struct gs_arch a = llama(64, 61, 4, 2, 128, 100, false);
    uint64_t counts[GS_BLOCKS_MAX];
    const uint64_t ranges[][2] = {{0, 61}, {15, 30}, {46, 61}, {50, 99}, {30, 30}, {40, 20}};
    for (size_t r = 0; r < sizeof(ranges) / sizeof(ranges[0]); r++) {
        gs_arch_count_blocks(&a, ranges[r][0], ranges[r][1], counts);
        const uint64_t end = ranges[r][1] < 61 ? ranges[r][1] : 61;
        assert_int_equal(counts[0], end > ranges[r][0] ? end - ranges[r][0] : 0);
        for (size_t k = 1; k < GS_BLOCKS_MAX; k++)
            assert_int_equal(counts[k], 0);
    }
    /* every third layer of another kind (a second block, as hybrid builders make) */
    const size_t other = gs_arch_new_block(&a);
    assert_true(other < GS_BLOCKS_MAX);
    a.blocks[other] = a.blocks[0];
    for (uint64_t l = 2; l < 61; l += 3)
        gs_arch_set_layer(&a, l, other);
    for (size_t r = 0; r < sizeof(ranges) / sizeof(ranges[0]); r++) {
        gs_arch_count_blocks(&a, ranges[r][0], ranges[r][1], counts);
        uint64_t want[2] = {0, 0};
        for (uint64_t l = ranges[r][0]; l < ranges[r][1] && l < 61; l++)
            want[l % 3 == 2]++;
        assert_int_equal(counts[0], want[0]);
        assert_int_equal(counts[other], want[1]);
    }
}

/* Interleaved schedules: each stage's layers in model chunks, chunk c of stage s the
 * (c p + s)-th virtual stage. Megatron-LM's own examples (transformer_block.py
 * get_num_layers_to_build): 8 layers over 2 stages in 4 chunks, stage 0 [0] [2] [4] [6] and
 * stage 1 [1] [3] [5] [7]; in 2 chunks, stage 0 [0, 1] [4, 5] and stage 1 [2, 3] [6, 7]. A
 * listed layout, its DeepSeek-V3 example (docs/user-guide/features/pipeline_parallel_layout.md,
 * "Et*3|(tt|)*29,m|L" at pipeline 16 and 2 chunks): stage 0 holds layers 0-2 and 33-34, stages
 * 14 and 15 a second chunk of no decoder layer (the MTP layer's, the loss's). */
static void test_stage_chunks(void **state)
{
    (void)state;
    struct gs_stage_plan plan = gs_stage_rule(GS_SPLIT_MEGATRON);
    uint64_t bounds[17], first, end;
    static const uint64_t four[2][4] = {{0, 2, 4, 6}, {1, 3, 5, 7}};
    plan.chunks = 4;
    assert_int_equal(gs_stage_chunks(&plan), 4);
    assert_true(gs_stage_bounds(&plan, 8, 2, bounds));
    assert_true(gs_stage_chunks_fit(&plan, bounds, 2));
    for (uint64_t s = 0; s < 2; s++)
        for (uint64_t c = 0; c < 4; c++) {
            gs_stage_chunk_range(&plan, bounds, 8, 2, s, c, &first, &end);
            assert_int_equal(first, four[s][c]);
            assert_int_equal(end, four[s][c] + 1);
        }
    static const uint64_t two[2][2] = {{0, 4}, {2, 6}};
    plan.chunks = 2;
    for (uint64_t s = 0; s < 2; s++)
        for (uint64_t c = 0; c < 2; c++) {
            gs_stage_chunk_range(&plan, bounds, 8, 2, s, c, &first, &end);
            assert_int_equal(first, two[s][c]);
            assert_int_equal(end, two[s][c] + 2);
        }
    plan.chunks = 3; /* 4 layers a stage do not fall into 3 chunks */
    assert_false(gs_stage_chunks_fit(&plan, bounds, 2));
    plan.chunks = 1; /* no interleaving: the stage itself */
    assert_int_equal(gs_stage_chunks(&plan), 1);
    gs_stage_chunk_range(&plan, bounds, 8, 2, 1, 0, &first, &end);
    assert_int_equal(first, 4);
    assert_int_equal(end, 8);
    /* Megatron-LM's uneven ends (61 over 8: 6, 8 x 6, 7): 7 layers do not fall into 2 chunks */
    plan.chunks = 2;
    assert_true(gs_stage_bounds(&plan, 61, 8, bounds));
    assert_false(gs_stage_chunks_fit(&plan, bounds, 8));

    struct gs_stage_plan layout = gs_stage_rule(GS_SPLIT_GIVEN);
    layout.chunks = 2;
    layout.given_count = 32;
    layout.given[0] = 3;
    for (size_t j = 1; j < 30; j++)
        layout.given[j] = 2;
    assert_true(gs_stage_bounds(&layout, 61, 16, bounds));
    assert_true(gs_stage_chunks_fit(&layout, bounds, 16));
    assert_int_equal(bounds[1], 5);         /* stage 0: 3 + 2 */
    assert_int_equal(bounds[16] - bounds[15], 2); /* stage 15: 2 + 0 */
    assert_int_equal(gs_stage_layers_max(&layout, 61, 16), 5);
    gs_stage_chunk_range(&layout, bounds, 61, 16, 0, 1, &first, &end);
    assert_int_equal(first, 33);
    assert_int_equal(end, 35);
    gs_stage_chunk_range(&layout, bounds, 61, 16, 15, 0, &first, &end);
    assert_int_equal(first, 31);
    assert_int_equal(end, 33);
    gs_stage_chunk_range(&layout, bounds, 61, 16, 14, 1, &first, &end);
    assert_int_equal(end - first, 0);
    assert_true(gs_stage_range(&layout, 61, 16, 15, &first, &end));
    assert_int_equal(end - first, 2);
    assert_false(gs_stage_bounds(&layout, 61, 32, bounds)); /* 32 stages x 2 chunks: 64 counts */
    layout.chunks = 1; /* the same 32 counts as 32 stages: empty stages only at the ends */
    assert_false(gs_stage_bounds(&layout, 61, 32, bounds));
    /* the blocks a stage holds over its chunks: layers 2 and 3 of a second kind */
    struct gs_arch a = llama(64, 8, 4, 2, 128, 100, false);
    const size_t other = gs_arch_new_block(&a);
    a.blocks[other] = a.blocks[0];
    gs_arch_set_layer(&a, 2, other);
    gs_arch_set_layer(&a, 3, other);
    plan.chunks = 2;
    assert_true(gs_stage_bounds(&plan, 8, 2, bounds));
    uint64_t counts[GS_BLOCKS_MAX];
    gs_arch_count_stage_blocks(&a, &plan, bounds, 2, 0, counts); /* layers 0, 1, 4, 5 */
    assert_int_equal(counts[0], 4);
    assert_int_equal(counts[other], 0);
    gs_arch_count_stage_blocks(&a, &plan, bounds, 2, 1, counts); /* layers 2, 3, 6, 7 */
    assert_int_equal(counts[0], 2);
    assert_int_equal(counts[other], 2);
    plan.chunks = 1; /* contiguous: layers 0-3 */
    gs_arch_count_stage_blocks(&a, &plan, bounds, 2, 0, counts);
    assert_int_equal(counts[other], 2);
    /* torchtitan's Interleaved1F1B: its split over the 8 virtual stages of 4 stages in 2
     * chunks, 34 slots with the embedding and the head, the first two one more: 4, 5, 4 x 5, 3
     * layers, stage s holding virtual stages s and s + 4 (_get_pp_rank_to_stage_indices_mapping,
     * "loop"): 8, 9, 8, 7 layers, stage 0 layers 0-3 and 17-20 */
    struct gs_stage_plan titan = gs_stage_rule(GS_SPLIT_TORCHTITAN);
    titan.chunks = 2;
    assert_true(gs_stage_bounds(&titan, 32, 4, bounds));
    assert_true(gs_stage_chunks_fit(&titan, bounds, 4));
    static const uint64_t titan_totals[4] = {8, 9, 8, 7};
    for (uint64_t s = 0; s < 4; s++)
        assert_int_equal(bounds[s + 1] - bounds[s], titan_totals[s]);
    static const uint64_t titan_chunks[4][2][2] = {{{0, 4}, {17, 21}}, {{4, 9}, {21, 25}},
                                                   {{9, 13}, {25, 29}}, {{13, 17}, {29, 32}}};
    for (uint64_t s = 0; s < 4; s++)
        for (uint64_t c = 0; c < 2; c++) {
            gs_stage_chunk_range(&titan, bounds, 32, 4, s, c, &first, &end);
            assert_int_equal(first, titan_chunks[s][c][0]);
            assert_int_equal(end, titan_chunks[s][c][1]);
        }
    assert_false(gs_stage_bounds(&titan, 7, 4, bounds)); /* 8 virtual stages, 7 layers */
    /* plans with other chunks are not the same plan */
    struct gs_stage_plan other_plan = plan;
    other_plan.chunks = 2;
    assert_false(gs_stage_plan_same(&plan, &other_plan));
}

/* Layers that share their block's weights (Zamba2's shared transformer blocks): a Llama of 4
 * layers (h 64: q/k/v/o 4 x 64^2, MLP 3 x 64 x 128, norms 128 = 41,088 a layer) whose every
 * layer is one set of weights counts one layer's 41,088 beside the embedding, head and norm
 * (2 x 100 x 64 + 64); its bf16 weights are those parameters' 2 bytes, and a pipeline stage
 * that runs two of the layers holds the one copy. */
static void test_shared_block_weights(void **state)
{
    (void)state;
    struct gs_arch a = llama(64, 4, 4, 4, 128, 100, false);
    struct gs_param_count c;
    assert_int_equal(gs_arch_count_params(&a, &c, NULL), GS_OK);
    assert_int_equal(c.total, 4 * 41088ULL + 2 * 100 * 64 + 64);
    gs_arch_share_block_weights(&a, 0, 1);
    assert_false(a.overflow);
    assert_int_equal(gs_arch_count_params(&a, &c, NULL), GS_OK);
    assert_int_equal(c.total, 41088ULL + 2 * 100 * 64 + 64);
    uint64_t counts[GS_BLOCKS_MAX];
    gs_arch_count_blocks(&a, 0, 4, counts);
    assert_int_equal(counts[0], 4); /* activations and the KV cache: every layer */
    gs_arch_count_weight_blocks(&a, 2, 4, counts);
    assert_int_equal(counts[0], 1);
    const struct gs_weights_request r = {GS_WF_BF16, 0, 1, 2, false, 0, {GS_SPLIT_VLLM, 0, {0}, 0},
                                         false};
    uint64_t stage = 0;
    assert_int_equal(gs_weights_bytes_stage(&a, &r, 1, &stage, NULL), GS_OK);
    assert_int_equal(stage, 2 * (41088ULL + 100 * 64 + 64));
    /* two copies over four layers: each stage of two layers may need both */
    gs_arch_share_block_weights(&a, 0, 2);
    assert_int_equal(gs_arch_count_params(&a, &c, NULL), GS_OK);
    assert_int_equal(c.total, 2 * 41088ULL + 2 * 100 * 64 + 64);
    gs_arch_share_block_weights(&a, 0, 0);
    assert_true(a.overflow);
}

/* A norm's parameters: its weight, its shift with GS_MOD_BIAS (LayerNorm), none without a weight
 * (GS_MOD_BARE: nanochat's NanoChatRMSNorm). */
static void test_norm_parameters(void **state)
{
    (void)state;
    bool ovf = false;
    struct gs_module m = {.name = "norm", .kind = GS_MODULE_NORM, .in = 1, .out = 2048, .count = 3};
    assert_int_equal(gs_module_parameters(&m, &ovf), 3 * 2048);
    m.flags = GS_MOD_BIAS;
    assert_int_equal(gs_module_parameters(&m, &ovf), 3 * 2 * 2048);
    m.flags = GS_MOD_BARE;
    assert_int_equal(gs_module_parameters(&m, &ovf), 0);
    assert_false(ovf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_published_totals),
        cmocka_unit_test(test_norm_parameters),
        cmocka_unit_test(test_shared_block_weights),
        cmocka_unit_test(test_llama2_7b_breakdown),
        cmocka_unit_test(test_tied_head_counted_once),
        cmocka_unit_test(test_biases_by_hand),
        cmocka_unit_test(test_explicit_head_dim),
        cmocka_unit_test(test_sparse_step_by_hand),
        cmocka_unit_test(test_validation_collects_every_field),
        cmocka_unit_test(test_gqa_heads_must_divide),
        cmocka_unit_test(test_absurd_dimensions_rejected),
        cmocka_unit_test(test_builder_overflow_refused),
        cmocka_unit_test(test_pipeline_stages_as_vllm_splits),
        cmocka_unit_test(test_stage_splits),
        cmocka_unit_test(test_count_blocks_in_ranges),
        cmocka_unit_test(test_stage_chunks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
