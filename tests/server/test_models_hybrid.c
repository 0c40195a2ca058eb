/*
 * test_models_hybrid.c - the readers of server/readers/hybrid.c (Mamba,
 * Mamba-2, Jamba, Nemotron-H, Falcon-H1, GraniteMoeHybrid, Qwen3-Next):
 * exact parameter counts against the published figures or the written-out
 * arithmetic of tests/fixtures/configs/<model_type>/README.md, the layer
 * kinds, the KV cache per token and the recurrent state per sequence
 * (vLLM MambaStateShapeCalculator shapes, bf16 model dtype) at tensor
 * parallelism 1 and above, and that a serving and a training estimate run.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "arch_fixture.h"
#include "gs/estimate.h"
#include "gs/inference.h"
#include "gs/weights.h"

#include <stdio.h>
#include <string.h>

/* ------------------------------------------------------------ helpers */

/* fixture_assert_vllm_serving of `batch` sequences on an 80 GB GPU, and a
 * bf16 training estimate of one 2048-token sequence: it runs, saves
 * activations, and holds the gradients beside the weights and optimizer. */
static void assert_estimates_run(const struct gs_arch *a, uint64_t batch)
{
    fixture_assert_vllm_serving(a, batch, 1, 80000000000ULL);

    struct gs_workload w = fixture_workload(GS_MODE_TRAINING);
    w.training.batch_size = 1;
    w.training.sequence_length = 2048;
    const struct gs_estimate e = fixture_estimate(a, &w);
    assert_true(e.saved_activation_bytes > 0);
    /* gradients exist at the end of backward (they are not yet allocated when it starts) */
    assert_true(e.peak.phases[GS_PHASE_BACKWARD_END] >
                e.per_gpu.weights_bytes + e.per_gpu.optimizer_bytes);
    assert_true(e.per_gpu.total_bytes > e.per_gpu.weights_bytes + e.saved_activation_bytes);
}

/* ------------------------------------------------------------ mamba */

/* mamba/README.md: V*H + L*(mixer + H) + H with the tied head; 130m:
 * 50280*768 + 24*(3,770,880 + 768) + 768 = 129,135,360 (HF page "129M");
 * 2.8b: 2,768,345,600 (HF page "2.77B"). Tied, so active = total.
 * State per layer (mamba1_state_shape, bf16): conv 3 x I x 2 + ssm I x N x 2;
 * 130m t=1: 9,216 + 49,152 = 58,368, x 24 = 1,400,832; t=2 halves I:
 * 4,608 + 24,576 = 29,184, x 24 = 700,416. 2.8b t=1: (30,720 + 163,840) x 64
 * = 12,451,840. No attention: 0 KV bytes per token. */
static void test_mamba(void **state)
{
    (void)state;
    struct gs_arch a = fixture_arch_file("mamba/state-spaces__mamba-130m-hf.json");
    struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.total, 129135360ULL);
    assert_int_equal(c.active, 129135360ULL);
    assert_int_equal(c.lm_head, 0);
    assert_int_equal(c.embedding, 50280ULL * 768);
    assert_int_equal(c.norms, 25ULL * 768);
    assert_int_equal(c.attention, 24ULL * 3770880);
    fixture_assert_kinds(
        &a, (struct fixture_kinds){.attention = 0, .recurrent = 24, .none = 0, .moe = 0});
    assert_int_equal(a.blocks[0].rec.conv_channels, 1536);
    assert_int_equal(a.blocks[0].rec.in_width, 3072);
    assert_false(a.blocks[0].rec.fp32_state);
    fixture_assert_cache(&a, 1, 0, 1400832ULL);
    fixture_assert_cache(&a, 2, 0, 700416ULL);
    assert_estimates_run(&a, 8);

    a = fixture_arch_file("mamba/state-spaces__mamba-2.8b-hf.json");
    c = fixture_count(&a);
    assert_int_equal(c.total, 2768345600ULL);
    fixture_assert_kinds(
        &a, (struct fixture_kinds){.attention = 0, .recurrent = 64, .none = 0, .moe = 0});
    fixture_assert_cache(&a, 1, 0, 12451840ULL);
}

/* time_step_rank "auto" is ceil(hidden / 16) (MambaConfig): hidden 768 gives
 * 48, the 130m checkpoint's value, so the count is unchanged. */
static void test_mamba_auto_rank(void **state)
{
    (void)state;
    const struct gs_arch a = fixture_arch(
        "{\"model_type\": \"mamba\", \"hidden_size\": 768, \"vocab_size\": 50280,"
        " \"num_hidden_layers\": 24, \"time_step_rank\": \"auto\"}");
    assert_int_equal(fixture_count(&a).total, 129135360ULL);
    fixture_assert_reader_error(
        "{\"model_type\": \"mamba\", \"hidden_size\": 768, \"vocab_size\": 50280,"
        " \"num_hidden_layers\": 24, \"time_step_rank\": \"big\"}",
        "/time_step_rank");
}

/* mamba2/README.md (Codestral, a config with the literal Infinity):
 * 2*V*H + 64*(109,635,968 + H) + H = 7,285,403,648, the model card's exact
 * "7,285,403,648". Untied: active drops the input embedding, 32768*4096 =
 * 134,217,728. State (mamba2_state_shape, bf16): conv 3 x 10,240 x 2 =
 * 61,440, ssm 128 x 64 x 128 x 2 = 2,097,152, x 64 = 138,149,888; t=2 (8
 * groups split evenly): (30,720 + 1,048,576) x 64 = 69,074,944. */
static void test_mamba2(void **state)
{
    (void)state;
    const struct gs_arch a = fixture_arch_file("mamba2/mistralai__Mamba-Codestral-7B-v0.1.json");
    const struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.total, 7285403648ULL);
    assert_int_equal(c.active, 7285403648ULL - 134217728ULL);
    assert_int_equal(c.attention, 64ULL * 109635968);
    assert_int_equal(c.lm_head, 134217728ULL);
    fixture_assert_kinds(
        &a, (struct fixture_kinds){.attention = 0, .recurrent = 64, .none = 0, .moe = 0});
    const struct gs_recurrent *r = &a.blocks[0].rec;
    assert_int_equal(r->conv_channels, 10240);
    assert_int_equal(r->state_heads, 128);
    assert_int_equal(r->state_rows, 64);
    assert_int_equal(r->state_cols, 128);
    assert_int_equal(r->in_width, 18560);
    assert_int_equal(r->inner, 8192);
    fixture_assert_cache(&a, 1, 0, 138149888ULL);
    fixture_assert_cache(&a, 2, 0, 69074944ULL);
    assert_estimates_run(&a, 4);
}

/* A size that cannot be zero is refused at its pointer rather than sized (issue 33 finding
 * 4: a mamba2 config with expand 0 was sized at 320M parameters): expand, num_heads,
 * head_dim, n_groups of a Mamba-2 mixer, and DeepSeek's moe_layer_freq (a divisor). */
static void test_zero_sizes_refused(void **state)
{
    (void)state;
    /* the Mamba-2 members a mixer is sized from, each set to 0 in turn */
    static const char *const members[] = {"expand", "num_heads", "n_groups", "state_size",
                                          "conv_kernel", "head_dim"};
    static const unsigned values[] = {2, 32, 8, 128, 4, 64};
    char config[512], pointer[32];
    for (size_t z = 0; z < sizeof(members) / sizeof(members[0]); z++) {
        int n = snprintf(config, sizeof(config),
                         "{\"model_type\":\"mamba2\",\"hidden_size\":1024,"
                         "\"num_hidden_layers\":4,\"vocab_size\":32000");
        for (size_t i = 0; i < sizeof(members) / sizeof(members[0]); i++)
            n += snprintf(config + n, sizeof(config) - (size_t)n, ",\"%s\":%u", members[i],
                          i == z ? 0u : values[i]);
        snprintf(config + n, sizeof(config) - (size_t)n, "}");
        snprintf(pointer, sizeof(pointer), "/%s", members[z]);
        fixture_assert_reader_error(config, pointer);
    }
    fixture_assert_reader_error(
        "{\"model_type\":\"deepseek_v3\",\"hidden_size\":1024,\"num_hidden_layers\":4,"
        "\"num_attention_heads\":8,\"num_key_value_heads\":8,\"vocab_size\":32000,"
        "\"intermediate_size\":2048,\"moe_intermediate_size\":256,\"n_routed_experts\":8,"
        "\"num_experts_per_tok\":2,\"kv_lora_rank\":128,\"qk_nope_head_dim\":32,"
        "\"qk_rope_head_dim\":16,\"v_head_dim\":32,\"moe_layer_freq\":0}",
        "/moe_layer_freq");
}

/* jamba/README.md (AI21-Jamba-1.5-Mini): total 51,570,323,328 (HF page
 * "51.6B", card "52B"). The README's active 12,110,311,296 keeps the input
 * embedding; gpusizer's active leaves the untied input lookup out:
 * 12,110,311,296 - 65536*4096 = 11,841,875,840 (card "12B active").
 * Attention at l % 8 == 4 (4 layers), MoE at odd layers (16).
 * KV: 4 layers x 2 x 8 x 128 x 2 = 16,384 B/token; t=2 keeps 4 KV heads:
 * 8,192. State (mamba1, bf16): (3 x 8192 x 2 + 8192 x 16 x 2) x 28 =
 * 8,716,288; t=2: (24,576 + 131,072) x 28 = 4,358,144. */
static void test_jamba(void **state)
{
    (void)state;
    const struct gs_arch a = fixture_arch_file("jamba/ai21labs__AI21-Jamba-1.5-Mini.json");
    const struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.total, 51570323328ULL);
    assert_int_equal(c.active, 11841875840ULL);
    assert_int_equal(c.norms, 64ULL * 4096 + 4096);
    /* 4 attention + 28 mixers, each with its three inner RMSNorms */
    assert_int_equal(c.attention, 4ULL * 41943040 + 28ULL * 105308448);
    fixture_assert_kinds(
        &a, (struct fixture_kinds){.attention = 4, .recurrent = 28, .none = 0, .moe = 16});
    assert_int_equal(a.layer_block[4] == a.layer_block[12], 1);
    assert_int_equal(a.blocks[a.layer_block[4]].mixer, GS_MIXER_ATTENTION);
    fixture_assert_cache(&a, 1, 16384, 8716288ULL);
    fixture_assert_cache(&a, 2, 8192, 4358144ULL);
    assert_estimates_run(&a, 4);
}

/* nemotron_h/README.md (Nemotron-H-8B-Base-8K): 24 'M', 4 '*', 24 '-';
 * 2*V*H + H + 52*H + 24*109,635,968 + 4*41,943,040 + 24*176,160,768 =
 * 8,100,852,736 (HF page "8.1B"); active without the untied input lookup:
 * - 131072*4096 = 7,563,981,824. KV 4 x 4,096 = 16,384 B/token (t=2: 8,192).
 * State: vLLM's NemotronH hook keeps the ssm state in fp32 (no
 * mamba_ssm_cache_dtype in the config): (61,440 + 128 x 64 x 128 x 4) x 24 =
 * 102,137,856; t=2: (30,720 + 2,097,152) x 24 = 51,068,928. */
static void test_nemotron_h(void **state)
{
    (void)state;
    const struct gs_arch a = fixture_arch_file("nemotron_h/nvidia__Nemotron-H-8B-Base-8K.json");
    const struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.total, 8100852736ULL);
    assert_int_equal(c.active, 7563981824ULL);
    assert_int_equal(c.mlp, 24ULL * 176160768);
    assert_int_equal(c.attention, 24ULL * 109635968 + 4ULL * 41943040);
    assert_int_equal(c.norms, 53ULL * 4096);
    fixture_assert_kinds(
        &a, (struct fixture_kinds){.attention = 4, .recurrent = 24, .none = 24, .moe = 0});
    const uint8_t mlp_block = a.layer_block[1]; /* "M-M-..." */
    assert_int_equal(a.blocks[mlp_block].mixer, GS_MIXER_NONE);
    assert_false(a.blocks[mlp_block].mlp.gated);
    assert_int_equal(a.blocks[a.layer_block[7]].mixer, GS_MIXER_ATTENTION);
    assert_true(a.blocks[a.layer_block[0]].rec.fp32_state);
    fixture_assert_cache(&a, 1, 16384, 102137856ULL);
    fixture_assert_cache(&a, 2, 8192, 51068928ULL);
    assert_estimates_run(&a, 4);

    /* vLLM's pages with prefix caching: NemotronHForCausalLM declares
     * SupportsMambaPrefixCaching, so its states are cached at every block boundary
     * (mamba_cache_mode "all", vllm/config/cache.py). A layer's state 102,137,856 / 24 =
     * 4,255,744 B against 4,096 B per token of one attention layer: block 16 x
     * ceil(4,255,744 / 65,536) = 1,040, page 4,259,840 B; 4 attention and 24 Mamba layers,
     * groups of 4 (1 + 6). 4,096 tokens: ceil(4,096 / 1,040) = 4 blocks in each of the 7
     * groups, each block 4 pages. */
    struct gs_workload w = fixture_vllm_workload(1, 4096, 1, 80000000000ULL);
    w.serving.engine.prefix_caching = GS_CHUNKED_PREFILL_ON;
    const struct gs_estimate e = fixture_estimate(&a, &w);
    assert_int_equal(e.serving.block_size, 1040);
    assert_int_equal(e.serving.pages.page_bytes, 4259840);
    assert_int_equal(e.serving.pages.group_layers, 4);
    assert_int_equal(e.serving.pages.state_groups, 6);
    assert_int_equal(e.serving.pages.state_cache, GS_STATE_CACHE_ALL);
    assert_int_equal(e.serving.pages.state_blocks, 0);
    assert_int_equal(e.serving.kv_needed_bytes, 7ULL * 4 * 4 * 4259840);
    /* from 0.28 (PR #50991) prefix caching is on by default for hybrids, in align mode whatever
     * the class: 4 attention blocks and 6 x 2 state blocks of 4 pages; through 0.27 it is off by
     * default, one state block a group (4 + 6) */
    struct gs_workload d = w;
    d.serving.engine.prefix_caching = GS_CHUNKED_PREFILL_DEFAULT;
    d.serving.engine.version = 2800;
    struct gs_estimate by_default = fixture_estimate(&a, &d);
    assert_int_equal(by_default.serving.pages.state_cache, GS_STATE_CACHE_ALIGN);
    assert_int_equal(by_default.serving.pages.state_blocks, 2);
    assert_int_equal(by_default.serving.kv_needed_bytes, (4ULL + 6 * 2) * 4 * 4259840);
    d.serving.engine.prefix_caching = GS_CHUNKED_PREFILL_ON;
    by_default = fixture_estimate(&a, &d);
    assert_int_equal(by_default.serving.pages.state_cache, GS_STATE_CACHE_ALIGN);
    d.serving.engine.prefix_caching = GS_CHUNKED_PREFILL_DEFAULT;
    d.serving.engine.version = 2700;
    by_default = fixture_estimate(&a, &d);
    assert_int_equal(by_default.serving.pages.state_cache, GS_STATE_CACHE_NONE);
    assert_int_equal(by_default.serving.kv_needed_bytes, (4ULL + 6) * 4 * 4259840);
}

/* A small made-up Nemotron-H with every kind, "M*E-E" (no published 'E'
 * config is in the fixtures): h 256, V 1000, attention 4 heads / 2 KV of 64;
 * Mamba 8 heads x 32 (I 256), 2 groups, N 16, K 4: in_proj 256 x (256 + 320
 * + 8) = 149,504, conv1d 320 x 4 + 320 = 1,600, 3 x 8, norm 256, out_proj
 * 65,536: 216,920. Attention 256x256 + 2 x 256x128 + 256x256 = 196,608. MLP
 * 2 x 256 x 512 = 262,144. MoE: gate 256 x 8, 8 experts of up/down 256 x 96,
 * shared up/down 256 x 128: 2,048 + 393,216 + 65,536 = 460,800. Total
 * 216,920 + 196,608 + 2 x 460,800 + 262,144 + 5 x 256 norms + 2 x 256,000 +
 * 256 = 2,110,808; active drops 2 x 6 x 2 x 256 x 96 and the input lookup:
 * 1,264,984. State fp32: conv 3 x 320 x 2 + ssm 8 x 32 x 16 x 4 = 18,304;
 * KV 2 x 2 x 64 x 2 = 512. With moe_latent_size 64 the experts read 64
 * wide and fc1/fc2_latent_proj (2 x 256 x 64) appear: each MoE is 2,048 +
 * 32,768 + 98,304 + 65,536 = 198,656, total 1,586,520, active 1,183,064.
 * layers_block_type spells the same stack. */
static void test_nemotron_h_moe(void **state)
{
    (void)state;
#define NEMOTRON_SMALL                                                                             \
    "\"model_type\": \"nemotron_h\", \"hidden_size\": 256, \"vocab_size\": 1000,"                  \
    " \"num_attention_heads\": 4, \"num_key_value_heads\": 2, \"head_dim\": 64,"                  \
    " \"intermediate_size\": 512, \"mamba_num_heads\": 8, \"mamba_head_dim\": 32,"                \
    " \"n_groups\": 2, \"ssm_state_size\": 16, \"conv_kernel\": 4, \"n_routed_experts\": 8,"      \
    " \"num_experts_per_tok\": 2, \"moe_intermediate_size\": 96,"                                 \
    " \"moe_shared_expert_intermediate_size\": 128"
    struct gs_arch a = fixture_arch("{" NEMOTRON_SMALL ", \"hybrid_override_pattern\": \"M*E-E\"}");
    struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.total, 2110808ULL);
    assert_int_equal(c.active, 1264984ULL);
    fixture_assert_kinds(
        &a, (struct fixture_kinds){.attention = 1, .recurrent = 1, .none = 3, .moe = 2});
    fixture_assert_cache(&a, 1, 512, 18304ULL);

    a = fixture_arch("{" NEMOTRON_SMALL ", \"layers_block_type\": [\"mamba\", \"attention\","
                     " \"moe\", \"mlp\", \"moe\"]}");
    assert_int_equal(fixture_count(&a).total, 2110808ULL);

    a = fixture_arch("{" NEMOTRON_SMALL ", \"hybrid_override_pattern\": \"M*E-E\","
                     " \"moe_latent_size\": 64}");
    c = fixture_count(&a);
    assert_int_equal(c.total, 1586520ULL);
    assert_int_equal(c.active, 1183064ULL);

    /* mamba_ssm_cache_dtype bfloat16: the ssm state in the model dtype,
     * 1,920 + 8 x 32 x 16 x 2 = 10,112 */
    a = fixture_arch("{" NEMOTRON_SMALL ", \"hybrid_override_pattern\": \"M*E-E\","
                     " \"mamba_ssm_cache_dtype\": \"bfloat16\"}");
    fixture_assert_cache(&a, 1, 512, 10112ULL);

    fixture_assert_reader_error("{" NEMOTRON_SMALL ", \"hybrid_override_pattern\": \"M*X\"}",
                                "/hybrid_override_pattern");

    /* The MTP step (nemotron_h_mtp.py): "*E" an attention layer (196,608) and a MoE (460,800),
     * each with its norm, enorm, hnorm and final_layernorm (5 x 256), eh_proj 512 x 256 =
     * 131,072: 789,760, outside the total (transformers skips mtp.*); the same from
     * mtp_layers_block_type or, with num_nextn_predict_layers alone, transformers' default
     * ["attention", "moe"]; two steps twice that; "*" alone 196,608 + 4 x 256 + 131,072 =
     * 328,704. A step of two attention layers, or with a kind vLLM does not build ('-', 'M'),
     * is not described. */
    static const struct {
        const char *mtp;
        uint64_t params;
    } steps[] = {
        {", \"num_nextn_predict_layers\": 1, \"mtp_hybrid_override_pattern\": \"*E\"", 789760},
        {", \"num_nextn_predict_layers\": 1, \"mtp_layers_block_type\": [\"attention\", \"moe\"]",
         789760},
        {", \"num_nextn_predict_layers\": 1", 789760},
        {", \"num_nextn_predict_layers\": 2, \"mtp_hybrid_override_pattern\": \"*E\"", 1579520},
        {", \"num_nextn_predict_layers\": 1, \"mtp_hybrid_override_pattern\": \"*\"", 328704},
        {", \"num_nextn_predict_layers\": 1, \"mtp_hybrid_override_pattern\": \"*E*E\"", 0},
        {", \"num_nextn_predict_layers\": 1, \"mtp_hybrid_override_pattern\": \"*-\"", 0},
        {", \"num_nextn_predict_layers\": 1, \"mtp_layers_block_type\": [\"attention\", \"mamba\"]",
         0},
        {", \"mtp_hybrid_override_pattern\": \"*E\"", 0},
    };
    for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
        a = fixture_arch("{" NEMOTRON_SMALL ", \"hybrid_override_pattern\": \"M*E-E\"%s}",
                         steps[i].mtp);
        c = fixture_count(&a);
        assert_int_equal(c.total, 2110808ULL);
        assert_int_equal(c.mtp, steps[i].params);
        assert_int_equal(gs_weights_mtp_layers(&a), steps[i].params ? 1 + (i == 3) : 0);
    }
#undef NEMOTRON_SMALL
}

/* Nemotron 3 Super's, Ultra's and 3.5 Lightning's MTP step, "*E" and ["attention", "moe"]. Super (h
 * 4,096, 32 heads and 2 KV heads of 128, 512 experts of 2,688 over a latent 1,024, a shared expert
 * of 5,376): attention 2 x 4,096^2 + 2 x 4,096 x 256 = 35,651,584; the MoE's router 4,096 x 512,
 * latent projections 2 x 4,096 x 1,024, experts 512 x 2 x 1,024 x 2,688, shared expert 2 x 4,096
 * x 5,376: 2,873,098,240; five norms 20,480; eh_proj 8,192 x 4,096 = 33,554,432: 2,942,324,736
 * (5.9 GB in bf16, the "5.5 GB" of BF16 MTP weights mlx-lm's PR #1161 extracted). Ultra (h 8,192,
 * 64 heads, 2 KV heads, experts of 5,120 over 2,048, shared 10,240): 138,412,032 +
 * 10,942,939,136 + 40,960 + 134,217,728 = 11,215,609,856. The totals keep the published counts. */
static void test_nemotron_3_mtp(void **state)
{
    (void)state;
    struct gs_arch a =
        fixture_arch_file("nemotron_h/nvidia__NVIDIA-Nemotron-3-Super-120B-A12B-FP8.json");
    struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.total, 120668687360ULL);
    assert_int_equal(c.mtp, 2942324736ULL);
    a = fixture_arch_file("nemotron_h/nvidia__NVIDIA-Nemotron-3-Ultra-550B-A55B-BF16.json");
    c = fixture_count(&a);
    assert_int_equal(c.mtp, 11215609856ULL);
    assert_int_equal(gs_weights_mtp_layers(&a), 1);
    /* Nemotron 3.5 Lightning: Nano's layers (nemotron_h/README.md) and an MTP step of Nano's
     * widths, 23,396,352 + 1,297,465,344 + 5 x 2,688 + 5,376 x 2,688 = 1,335,325,824 */
    a = fixture_arch_file("nemotron_h/nvidia__NVIDIA-Nemotron-3.5-Lightning-30B-A3B-NVFP4.json");
    c = fixture_count(&a);
    assert_int_equal(c.total, 31577937344ULL);
    assert_int_equal(c.mtp, 1335325824ULL);
}

/* Falcon-H1: no published config.json was found (falcon_h1/README.md), so
 * this config is FalconH1Config's documented defaults written out
 * (configuration_falcon_h1.py): vocab 128000, hidden 4096, intermediate
 * 14336, 32 layers, 32 heads, 8 KV heads (head_dim 4096/32 = 128),
 * mamba_d_ssm 1024, mamba_n_heads 128, mamba_d_head "auto" = 1024/128 = 8,
 * mamba_n_groups 1, mamba_d_state 256, mamba_d_conv 4, mamba_conv_bias true,
 * mamba_proj_bias false, mamba_rms_norm false, projectors_bias false,
 * untied. Per layer: mixer in_proj 4096 x (1024 + 1536 + 128) = 11,010,048,
 * conv1d 1536 x 4 + 1536 = 7,680, dt_bias/A_log/D 384, out_proj 4,194,304:
 * 15,212,416; attention 41,943,040; gated MLP 3 x 4096 x 14336 =
 * 176,160,768; 2 norms 8,192: 233,324,416. Total 32 x 233,324,416 +
 * 2 x 128000 x 4096 + 4096 = 8,514,961,408; active without the input
 * lookup 7,990,673,408. mamba_rms_norm true adds 32 x 1024 = 8,514,994,176.
 * Every layer attends: KV 32 x 2 x 8 x 128 x 2 = 131,072 B/token (t=2:
 * 65,536). Every layer also holds a Mamba-2 state (mamba2_state_shape):
 * conv 3 x 1536 x 2 = 9,216 + ssm 128 x 8 x 256 x 2 = 524,288, x 32 =
 * 17,072,128 per sequence. The block is an attention block carrying that
 * geometry in rec; gs_kv_layout_for counts rec only on recurrent blocks,
 * so the layout's state is checked here through the block, not the layout. */
static void test_falcon_h1(void **state)
{
    (void)state;
#define FALCON_DEFAULTS                                                                            \
    "\"model_type\": \"falcon_h1\", \"architectures\": [\"FalconH1ForCausalLM\"],"                \
    " \"vocab_size\": 128000, \"hidden_size\": 4096, \"intermediate_size\": 14336,"               \
    " \"num_hidden_layers\": 32, \"num_attention_heads\": 32, \"num_key_value_heads\": 8,"        \
    " \"mamba_d_ssm\": 1024, \"mamba_n_heads\": 128, \"mamba_d_head\": \"auto\","                 \
    " \"mamba_n_groups\": 1, \"mamba_d_state\": 256, \"mamba_d_conv\": 4,"                        \
    " \"mamba_expand\": 2, \"mamba_conv_bias\": true, \"mamba_proj_bias\": false,"                \
    " \"projectors_bias\": false, \"tie_word_embeddings\": false,"                                \
    " \"time_step_limit\": [0.0, 1e308]"
    struct gs_arch a = fixture_arch("{" FALCON_DEFAULTS ", \"mamba_rms_norm\": false}");
    struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.total, 8514961408ULL);
    assert_int_equal(c.active, 7990673408ULL);
    assert_int_equal(c.attention, 32ULL * (15212416 + 41943040));
    assert_int_equal(c.mlp, 32ULL * 176160768);
    fixture_assert_kinds(
        &a, (struct fixture_kinds){.attention = 32, .recurrent = 0, .none = 0, .moe = 0});
    const struct gs_block *b = &a.blocks[0];
    assert_int_equal(b->mixer, GS_MIXER_ATTENTION);
    assert_int_equal(b->rec.conv_channels, 1536);
    assert_int_equal(b->rec.state_heads, 128);
    assert_int_equal(b->rec.state_rows, 8);
    assert_int_equal(b->rec.state_cols, 256);
    const uint64_t per_layer = b->rec.conv_channels * (b->rec.conv_kernel - 1) * 2 +
                               b->rec.state_heads * b->rec.state_rows * b->rec.state_cols * 2;
    assert_int_equal(32 * per_layer, 17072128ULL);
    /* the layer holds both: the attention cache grows with the context, the Mamba-2
     * state is fixed per sequence (and halves with the heads and channels at t = 2) */
    fixture_assert_cache(&a, 1, 131072, 17072128ULL);
    fixture_assert_cache(&a, 2, 65536, 17072128ULL / 2);
    assert_int_equal(fixture_layout(&a, 1).recurrent_layers, 32);
    assert_estimates_run(&a, 4);

    a = fixture_arch("{" FALCON_DEFAULTS ", \"mamba_rms_norm\": true}");
    assert_int_equal(fixture_count(&a).total, 8514994176ULL);
#undef FALCON_DEFAULTS
}

/* GraniteMoeHybrid: no published config.json was found
 * (granitemoehybrid/README.md), so this is GraniteMoeHybridConfig's
 * documented defaults (configuration_granitemoehybrid.py): vocab 32000,
 * hidden 4096, intermediate 11008, 32 layers, 32 heads (KV = heads), 8
 * experts top-2, shared_intermediate_size 1024, mamba_n_heads 128,
 * mamba_d_head "auto" = 8192/128 = 64, 1 group, d_state 256, d_conv 4,
 * untied - plus layer_types (absent by default, i.e. all Mamba) with
 * attention at layers 5, 15 and 25 so both mixers appear. Mamba mixer:
 * in_proj 4096 x (8192 + 8704 + 128) = 69,730,304, conv1d 8704 x 5 =
 * 43,520, 3 x 128, norm 8192, out_proj 33,554,432: 103,336,832. Attention
 * 4 x 4096^2 = 67,108,864. MoE: router 4096 x 8 + 8 x 3 x 4096 x 11008 =
 * 1,082,163,200; shared_mlp 3 x 4096 x 1024 = 12,582,912. Total 29 x
 * 103,336,832 + 3 x 67,108,864 + 32 x (1,082,163,200 + 12,582,912 + 8,192) +
 * 2 x 32000 x 4096 + 4096 = 38,492,380,544; active: - 32 x 6 x 3 x 4096 x
 * 11008 - 32000 x 4096 = 12,390,178,176. KV 3 x 2 x 32 x 128 x 2 = 49,152
 * B/token (t=2: 24,576). State: (3 x 8704 x 2 + 128 x 64 x 256 x 2) x 29 =
 * 123,149,312; t=2 61,574,656 (vLLM pads 1 group to 2 at t=2 -
 * extra_groups_for_head_shards - which the core's channels / t does not:
 * 61,619,200 there). */
static void test_granitemoehybrid(void **state)
{
    (void)state;
    const struct gs_arch a = fixture_arch(
        "{\"model_type\": \"granitemoehybrid\", \"vocab_size\": 32000, \"hidden_size\": 4096,"
        " \"intermediate_size\": 11008, \"num_hidden_layers\": 32, \"num_attention_heads\": 32,"
        " \"num_local_experts\": 8, \"num_experts_per_tok\": 2, \"shared_intermediate_size\": 1024,"
        " \"mamba_n_heads\": 128, \"mamba_n_groups\": 1, \"mamba_d_state\": 256,"
        " \"mamba_d_head\": \"auto\", \"mamba_d_conv\": 4, \"mamba_expand\": 2,"
        " \"tie_word_embeddings\": false, \"layer_types\": [\"mamba\", \"mamba\", \"mamba\","
        " \"mamba\", \"mamba\", \"attention\", \"mamba\", \"mamba\", \"mamba\", \"mamba\","
        " \"mamba\", \"mamba\", \"mamba\", \"mamba\", \"mamba\", \"attention\", \"mamba\","
        " \"mamba\", \"mamba\", \"mamba\", \"mamba\", \"mamba\", \"mamba\", \"mamba\", \"mamba\","
        " \"attention\", \"mamba\", \"mamba\", \"mamba\", \"mamba\", \"mamba\", \"mamba\"]}");
    const struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.total, 38492380544ULL);
    assert_int_equal(c.active, 12390178176ULL);
    assert_int_equal(c.mlp, 32ULL * 12582912);
    fixture_assert_kinds(
        &a, (struct fixture_kinds){.attention = 3, .recurrent = 29, .none = 0, .moe = 32});
    assert_int_equal(a.blocks[a.layer_block[5]].mixer, GS_MIXER_ATTENTION);
    fixture_assert_cache(&a, 1, 49152, 123149312ULL);
    fixture_assert_cache(&a, 2, 24576, 61574656ULL);
    assert_estimates_run(&a, 4);
}

/* Granite-4.0-H-Tiny's geometry as a third-party test quotes it (trimmed,
 * not the published file; granitemoehybrid/README.md): hidden 1536, 40
 * layers with attention at 5, 15, 25, 35, 12 heads / 4 KV, 64 experts
 * top-6 of 512, shared 1024, vocab 100352, tied, Mamba 48 heads x 64, 1
 * group, d_state 128. Mixer 1536 x (3072 + 3328 + 48) + 3328 x 5 + 3 x 48 +
 * 3072 + 3072 x 1536 = 14,642,576; attention 1536 x (1536 + 2 x 512 + 1536)
 * = 6,291,456; MoE 1536 x 64 + 64 x 3 x 1536 x 512; shared 3 x 1536 x 1024.
 * Total 6,939,037,248 and active 1,465,470,528 (the tied embedding counts):
 * IBM calls it "7B total, 1B active". An all-dense twin (num_local_experts
 * 0, as Granite-4.0-H-1B publishes) has only the shared_mlp. */
static void test_granitemoehybrid_tiny(void **state)
{
    (void)state;
#define GRANITE_TINY                                                                               \
    "\"model_type\": \"granitemoehybrid\", \"hidden_size\": 1536, \"num_hidden_layers\": 40,"     \
    " \"num_attention_heads\": 12, \"num_key_value_heads\": 4, \"intermediate_size\": 512,"       \
    " \"shared_intermediate_size\": 1024, \"vocab_size\": 100352,"                                \
    " \"tie_word_embeddings\": true, \"mamba_d_state\": 128, \"mamba_n_groups\": 1,"              \
    " \"mamba_n_heads\": 48, \"mamba_d_head\": 64, \"mamba_expand\": 2, \"mamba_d_conv\": 4,"     \
    " \"layer_types\": [\"mamba\", \"mamba\", \"mamba\", \"mamba\", \"mamba\", \"attention\","    \
    " \"mamba\", \"mamba\", \"mamba\", \"mamba\", \"mamba\", \"mamba\", \"mamba\", \"mamba\","    \
    " \"mamba\", \"attention\", \"mamba\", \"mamba\", \"mamba\", \"mamba\", \"mamba\", \"mamba\","  \
    " \"mamba\", \"mamba\", \"mamba\", \"attention\", \"mamba\", \"mamba\", \"mamba\", \"mamba\","  \
    " \"mamba\", \"mamba\", \"mamba\", \"mamba\", \"mamba\", \"attention\", \"mamba\", \"mamba\","  \
    " \"mamba\", \"mamba\"]"
    struct gs_arch a =
        fixture_arch("{" GRANITE_TINY ", \"num_local_experts\": 64, \"num_experts_per_tok\": 6}");
    struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.total, 6939037248ULL);
    assert_int_equal(c.active, 1465470528ULL);
    fixture_assert_kinds(
        &a, (struct fixture_kinds){.attention = 4, .recurrent = 36, .none = 0, .moe = 40});
    /* KV 4 x 2 x 4 x 128 x 2 = 8,192; state (3 x 3328 x 2 + 48 x 64 x 128 x 2)
     * x 36 = 29,030,400 */
    fixture_assert_cache(&a, 1, 8192, 29030400ULL);

    a = fixture_arch("{" GRANITE_TINY ", \"num_local_experts\": 0, \"num_experts_per_tok\": 0}");
    c = fixture_count(&a);
    /* the MoE gone: 6,939,037,248 - 40 x (1536 x 64 + 64 x 3 x 1536 x 512) */
    assert_int_equal(c.total, 6939037248ULL - 40ULL * (1536 * 64 + 64ULL * 3 * 1536 * 512));
    assert_int_equal(c.active, c.total);
    fixture_assert_kinds(
        &a, (struct fixture_kinds){.attention = 4, .recurrent = 36, .none = 0, .moe = 0});
    fixture_assert_reader_error("{" GRANITE_TINY ", \"num_hidden_layers\": 41}", "/layer_types");
#undef GRANITE_TINY
}

/* qwen3_next/README.md (Qwen3-Next-80B-A3B-Thinking): 36 x (33,718,464 +
 * 4,096 + 1,614,809,088) + 12 x (27,263,488 + 4,096 + 1,614,809,088) +
 * 2 x 311,164,928 + 2,048 = 79,674,391,296 ("80B"); active without the
 * input lookup 3,563,764,480 ("A3B"). KV: 12 full layers x 2 x 2 x 256 x 2 =
 * 24,576 B/token; t=2 one KV head each: 12,288; t=4 replicates it: 12,288.
 * State (gated_delta_net_state_shape, bf16): conv 3 x 8192 x 2 = 49,152 +
 * ssm 32 x 128 x 128 x 2 = 1,048,576, x 36 = 39,518,208; t=2: (24,576 +
 * 524,288) x 36 = 19,759,104. The MTP block (vLLM qwen3_next_mtp.py; the
 * config names no num_nextn_predict_layers, and vLLM and TensorRT-LLM build
 * one layer) is fc 4096 x 2048 = 8,388,608 + 3 norms 6,144 + a
 * full-attention MoE layer 1,642,076,672 = 1,650,471,424, reported apart
 * from the total (the README estimates 81.33B with it); a config naming 0
 * has none. */
static void test_qwen3_next(void **state)
{
    (void)state;
    const struct gs_arch a = fixture_arch_file("qwen3_next/Qwen__Qwen3-Next-80B-A3B-Thinking.json");
    const struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.total, 79674391296ULL);
    assert_int_equal(c.active, 3563764480ULL);
    assert_int_equal(c.mtp, 1650471424ULL);
    assert_int_equal(gs_weights_mtp_layers(&a), 1);
    assert_int_equal(c.attention, 36ULL * 33718464 + 12ULL * 27263488);
    fixture_assert_kinds(
        &a, (struct fixture_kinds){.attention = 12, .recurrent = 36, .none = 0, .moe = 48});
    assert_int_equal(a.blocks[a.layer_block[3]].mixer, GS_MIXER_ATTENTION);
    assert_int_equal(a.blocks[a.layer_block[0]].mixer, GS_MIXER_RECURRENT);
    assert_int_equal(a.blocks[a.layer_block[0]].rec.conv_channels, 8192);
    assert_int_equal(a.blocks[a.layer_block[0]].rec.in_width, 12288 + 64);
    fixture_assert_cache(&a, 1, 24576, 39518208ULL);
    fixture_assert_cache(&a, 2, 12288, 19759104ULL);
    assert_int_equal(fixture_layout(&a, 4).bytes_per_token, 12288);
    assert_estimates_run(&a, 4);
}

static void test_qwen3_next_mtp(void **state)
{
    (void)state;
    const struct gs_arch a = fixture_arch(
        "{\"model_type\": \"qwen3_next\", \"hidden_size\": 2048, \"vocab_size\": 151936,"
        " \"num_hidden_layers\": 48, \"num_attention_heads\": 16, \"num_key_value_heads\": 2,"
        " \"head_dim\": 256, \"intermediate_size\": 5120, \"full_attention_interval\": 4,"
        " \"linear_conv_kernel_dim\": 4, \"linear_key_head_dim\": 128,"
        " \"linear_num_key_heads\": 16, \"linear_num_value_heads\": 32,"
        " \"linear_value_head_dim\": 128, \"moe_intermediate_size\": 512, \"num_experts\": 512,"
        " \"num_experts_per_tok\": 10, \"shared_expert_intermediate_size\": 512,"
        " \"tie_word_embeddings\": false, \"num_nextn_predict_layers\": 2}");
    const struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.total, 79674391296ULL);
    assert_int_equal(c.mtp, 2 * 1650471424ULL);
    assert_int_equal(a.tower_count, 1);
    const struct gs_arch none = fixture_arch(
        "{\"model_type\": \"qwen3_next\", \"hidden_size\": 2048, \"vocab_size\": 151936,"
        " \"num_hidden_layers\": 4, \"num_attention_heads\": 16, \"num_key_value_heads\": 2,"
        " \"head_dim\": 256, \"intermediate_size\": 5120, \"moe_intermediate_size\": 512,"
        " \"num_experts\": 8, \"num_experts_per_tok\": 2, \"num_nextn_predict_layers\": 0}");
    assert_int_equal(fixture_count(&none).mtp, 0);
    assert_int_equal(none.tower_count, 0);
}

/* OLMo Hybrid (olmo_hybrid; modular_olmo_hybrid.py), OlmoHybridConfig's defaults (the
 * docstring's allenai/Olmo-Hybrid-7B): h 3,840, 32 layers, 30 heads (and KV heads) of 128, MLP
 * 11,008, V 100,352, untied; layers i % 4 == 3 full (8), the others Gated DeltaNet with 30 key
 * and value heads of int(0.75 x 3,840 / 30) = 96 and 192. A full layer: q/k/v/o 4 x 3,840^2 +
 * q_norm and k_norm over the full width 2 x 3,840 + the MLP 3 x 3,840 x 11,008 + two post-norms
 * 7,680 = 185,809,920. A linear layer: q and k 2 x 3,840 x 2,880, v and g 2 x 3,840 x 5,760,
 * a and b 2 x 3,840 x 30, o 5,760 x 3,840 = 88,704,000, conv1d (2 x 2,880 + 5,760) x 4 =
 * 46,080, A_log and dt_bias 60, o_norm 192, the MLP and two norms 126,819,840 = 215,570,172.
 * 8 x 185,809,920 + 24 x 215,570,172 + 2 x 100,352 x 3,840 + 3,840 = 7,430,870,688. Cache: 8
 * x 2 x 30 x 128 x 2 = 122,880 B a token; state (vLLM gated_delta_net_state_shape, bf16): conv
 * 3 x 11,520 x 2 = 69,120 + 30 x 192 x 96 x 2 = 1,105,920, x 24 = 28,200,960; TP 2 halves
 * both. */
static void test_olmo_hybrid(void **state)
{
    (void)state;
    const struct gs_arch a = fixture_arch(
        "{\"model_type\": \"olmo_hybrid\", \"architectures\": [\"OlmoHybridForCausalLM\"],"
        " \"hidden_size\": 3840, \"intermediate_size\": 11008, \"num_hidden_layers\": 32,"
        " \"num_attention_heads\": 30, \"vocab_size\": 100352, \"max_position_embeddings\": 65536,"
        " \"tie_word_embeddings\": false, \"linear_allow_neg_eigval\": true,"
        " \"linear_conv_kernel_dim\": 4, \"rope_parameters\": null}");
    const struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.total, 7430870688ULL);
    assert_int_equal(c.attention,
                     8ULL * (4 * 3840 * 3840 + 2 * 3840) + 24ULL * (88704000 + 46080 + 60 + 192));
    assert_string_equal(a.approximate, "");
    fixture_assert_kinds(
        &a, (struct fixture_kinds){.attention = 8, .recurrent = 24, .none = 0, .moe = 0});
    assert_int_equal(a.blocks[a.layer_block[3]].mixer, GS_MIXER_ATTENTION);
    assert_int_equal(a.blocks[a.layer_block[0]].rec.conv_channels, 11520);
    fixture_assert_cache(&a, 1, 122880, 28200960ULL);
    fixture_assert_cache(&a, 2, 61440, 14100480ULL);
    assert_estimates_run(&a, 2);
}

/* LFM2 (lfm2, lfm2_moe; modeling_lfm2.py, modeling_lfm2_moe.py). LiquidAI/LFM2-1.2B as a
 * repackaged copy of its config.json carries it: h 2,048, 16 layers, attention at
 * full_attn_idxs [2, 5, 8, 10, 12, 14] (32 heads, 8 KV heads of 64), the rest short
 * convolutions of L 3, block_ff_dim 12,288 (which wins over the copy's own intermediate_size
 * 8,192) auto-adjusted to int(2 x 12,288 / 3) = 8,192, rounded to 256: 8,192; tied.
 *   attention layer: 2,048^2 + 2 x 2,048 x 512 + 2,048^2 + 2 x 64 = 10,485,888;
 *   conv layer: in_proj 3 x 2,048^2, out_proj 2,048^2, conv 2,048 x 3: 16,783,360;
 *   every layer the SwiGLU 3 x 2,048 x 8,192 = 50,331,648 and two norms 4,096;
 *   6 x 10,485,888 + 10 x 16,783,360 + 16 x 50,335,744 + 65,536 x 2,048 + 2,048 = 1,170,340,608.
 * KV 6 x 2 x 8 x 64 x 2 = 12,288 B a token; the conv windows 10 x 2,048 x 2 x 2 = 81,920 B a
 * sequence. LFM2-8B-A1B (lfm2_moe): 24 layers, attention at 2, 6, 10, 14, 18, 21, the first two
 * dense (3 x 2,048 x 7,168 = 44,040,192), 22 routed over 32 experts of 1,792 (router 32 x 2,048 +
 * experts 3 x 32 x 2,048 x 1,792 = 352,387,072): 6 x 10,485,888 + 18 x 16,783,360 + 2 x
 * 44,040,192 + 22 x 352,387,072 + 24 x 4,096 + 134,217,728 + 2,048 = 8,339,929,856 ("8.3B");
 * active, 4 experts (the tied head counts): 8,339,929,856 - 22 x 28 x 11,010,048 =
 * 1,557,740,288 ("1.5B active"); 22 x 32 fp32 expert_bias buffers; conv windows 18 x 8,192 =
 * 147,456 B. Lfm2Config's defaults: 32 attention layers of h 2,560 (heads of 80), the same
 * 8,192-wide MLP: 2,705,497,600. LFM2-350M's block_ff_dim 6,656 -> int(4,437.3) = 4,437 ->
 * rounded up to 4,608; with a null multiplier transformers keeps 4,437. */
static void test_lfm2(void **state)
{
    (void)state;
    const struct gs_arch a = fixture_arch(
        "{\"architectures\": [\"Lfm2ForCausalLM\"], \"model_type\": \"lfm2\","
        " \"block_auto_adjust_ff_dim\": true, \"block_ff_dim\": 12288,"
        " \"block_ffn_dim_multiplier\": 1.0, \"block_multiple_of\": 256, \"conv_L_cache\": 3,"
        " \"conv_bias\": false, \"intermediate_size\": 8192,"
        " \"full_attn_idxs\": [2, 5, 8, 10, 12, 14], \"hidden_size\": 2048,"
        " \"max_position_embeddings\": 128000, \"num_attention_heads\": 32, \"head_dim\": 64,"
        " \"num_hidden_layers\": 16, \"num_key_value_heads\": 8, \"vocab_size\": 65536}");
    assert_int_equal(fixture_count(&a).total, 1170340608ULL);
    const struct gs_block *conv = &a.blocks[a.layer_block[0]];
    assert_int_equal(conv->mixer, GS_MIXER_RECURRENT);
    assert_int_equal(conv->rec.scan, GS_SCAN_SHORT_CONV);
    assert_int_equal(conv->rec.in_width, 3 * 2048);
    assert_int_equal(conv->mlp.width, 8192);
    assert_int_equal(a.blocks[a.layer_block[2]].mixer, GS_MIXER_ATTENTION);
    const struct gs_kv_layout k = fixture_layout(&a, 1);
    assert_int_equal(k.bytes_per_token, 12288);
    assert_int_equal(k.recurrent_layers, 10);
    assert_int_equal(k.state_bytes_per_sequence, 81920);
    assert_estimates_run(&a, 8);

    char types[24 * 20];
    size_t n = (size_t)snprintf(types, sizeof(types), "[");
    for (unsigned l = 0; l < 24; l++)
        n += (size_t)snprintf(types + n, sizeof(types) - n, "%s\"%s\"", l ? "," : "",
                              l == 2 || l == 6 || l == 10 || l == 14 || l == 18 || l == 21
                                  ? "full_attention"
                                  : "conv");
    snprintf(types + n, sizeof(types) - n, "]");
    const struct gs_arch m = fixture_arch(
        "{\"model_type\": \"lfm2_moe\", \"vocab_size\": 65536, \"hidden_size\": 2048,"
        " \"intermediate_size\": 7168, \"moe_intermediate_size\": 1792,"
        " \"num_hidden_layers\": 24, \"num_attention_heads\": 32, \"num_key_value_heads\": 8,"
        " \"conv_L_cache\": 3, \"num_dense_layers\": 2, \"num_experts\": 32,"
        " \"num_experts_per_tok\": 4, \"use_expert_bias\": true, \"layer_types\": %s}",
        types);
    const struct gs_param_count c = fixture_count(&m);
    assert_int_equal(c.total, 8339929856ULL);
    assert_int_equal(c.active, 1557740288ULL);
    assert_int_equal(c.buffers, 22 * 32);
    assert_int_equal(gs_arch_moe_layers(&m), 22);
    assert_int_equal(fixture_layout(&m, 1).state_bytes_per_sequence, 147456);
    assert_estimates_run(&m, 8);

    const struct gs_arch d = fixture_arch("{\"model_type\": \"lfm2\"}");
    assert_int_equal(fixture_count(&d).total, 2705497600ULL);
    assert_int_equal(fixture_layout(&d, 1).recurrent_layers, 0);
#define LFM2_350M(extra)                                                                           \
    "{\"model_type\": \"lfm2\", \"hidden_size\": 1024, \"num_hidden_layers\": 16,"                 \
    " \"num_attention_heads\": 16, \"num_key_value_heads\": 8, \"block_ff_dim\": 6656,"            \
    " \"full_attn_idxs\": [2, 5, 8, 10, 12, 14]" extra "}"
    assert_int_equal(fixture_arch(LFM2_350M("")).blocks[0].mlp.width, 4608);
    assert_int_equal(
        fixture_arch(LFM2_350M(", \"block_ffn_dim_multiplier\": null")).blocks[0].mlp.width, 4437);
#undef LFM2_350M
    fixture_assert_reader_error("{\"model_type\": \"lfm2_moe\"}", "/layer_types");
    fixture_assert_reader_error(
        "{\"model_type\": \"lfm2\", \"num_hidden_layers\": 2, \"layer_types\": [\"conv\", \"x\"]}",
        "/layer_types");
}

/* Falcon Mamba 7B (falcon_mamba, read as Mamba) with tiiuae/falcon-mamba-7b's shapes (h 4,096,
 * 64 layers, state 16, expand 2, untied, 65,024 tokens), by hand: in_proj 4,096 x 16,384 =
 * 67,108,864, conv1d 8,192 x 4 + 8,192 = 40,960, x_proj 8,192 x (256 + 32) = 2,359,296, dt_proj
 * 256 x 8,192 + 8,192 = 2,105,344, A_log 8,192 x 16 = 131,072, D 8,192, out_proj 33,554,432, the
 * norm 4,096: 105,312,256 a layer, x 64 = 6,739,984,384, + embedding and head 2 x 65,024 x 4,096
 * = 532,676,608 + norm_f 4,096: 7,272,665,088 (the published 7.27B). State: 64 x (3 x 8,192 +
 * 8,192 x 16) x 2 B = 19,922,944 a sequence. */
static void test_falcon_mamba(void **state)
{
    (void)state;
    const struct gs_arch a = fixture_arch(
        "{\"model_type\": \"falcon_mamba\", \"hidden_size\": 4096, \"num_hidden_layers\": 64,"
        " \"vocab_size\": 65024, \"state_size\": 16, \"expand\": 2, \"conv_kernel\": 4,"
        " \"tie_word_embeddings\": false, \"mixer_rms_eps\": 1e-6}");
    assert_int_equal(fixture_count(&a).total, 7272665088ULL);
    fixture_assert_cache(&a, 1, 0, 19922944ULL);
}

/* Bamba (bamba) with Bamba-9B's shapes (32 layers, attention at 9, 18 and 27: the layout public
 * test fixtures give ibm-ai-platform/Bamba-9B; no verbatim config or safetensors total was in
 * reach, the checkpoint's name says 9.8b), by hand, h = 4,096:
 * - a Mamba layer: in_proj 4,096 x (8,192 + 8,448 + 128) = 68,681,728, conv1d 8,448 x 4 + 8,448
 *   = 42,240, dt_bias/A_log/D 384, norm 8,192, out_proj 8,192 x 4,096 = 33,554,432: 102,286,976;
 * - an attention layer: q and o 4,096^2 each, k and v 4,096 x 1,024 each: 41,943,040;
 * - every layer: the SwiGLU 3 x 4,096 x 14,336 = 176,160,768 and two norms 8,192;
 * - 29 x 278,455,936 + 3 x 218,112,000 + embedding and head 2 x 128,256 x 4,096 + 4,096 =
 *   9,780,235,392.
 * vLLM: KV 3 layers x 2 x 8 x 128 x 2 B = 12,288 a token; state 29 x (conv 3 x 8,448 + ssm
 * 128 x 64 x 128) x 2 B = 62,287,360 a sequence. */
static void test_bamba(void **state)
{
    (void)state;
#define BAMBA                                                                                      \
    "{\"model_type\": \"bamba\", \"vocab_size\": %d, \"hidden_size\": %d,"                         \
    " \"intermediate_size\": %d, \"num_hidden_layers\": %d, \"num_attention_heads\": %d,"          \
    " \"num_key_value_heads\": %d, \"mamba_n_heads\": %d, \"mamba_d_head\": %s,"                   \
    " \"mamba_d_state\": %d%s}"
    struct gs_arch a = fixture_arch(BAMBA, 128256, 4096, 14336, 32, 32, 8, 128, "64", 128,
                                    ", \"attn_layer_indices\": [9, 18, 27]");
    assert_int_equal(fixture_count(&a).total, 9780235392ULL);
    fixture_assert_kinds(
        &a, (struct fixture_kinds){.attention = 3, .recurrent = 29, .none = 0, .moe = 0});
    fixture_assert_cache(&a, 1, 12288, 62287360ULL);
    /* a toy, h = 64, layer_types naming the attention layer; mamba_d_head "auto" = 128 / 4:
     * Mamba in_proj 64 x (128 + 160 + 4) = 18,688, conv1d 160 x 5 = 800, 12, norm 128, out_proj
     * 8,192: 27,820; attention 4 x 64 x 64 = 16,384; SwiGLU 3 x 64 x 96 = 18,432, norms 128 */
    a = fixture_arch(BAMBA, 100, 64, 96, 2, 4, 4, 4, "\"auto\"", 16,
                     ", \"layer_types\": [\"mamba\", \"attention\"]");
    assert_int_equal(fixture_count(&a).total,
                     27820 + 16384 + 2 * (18432 + 128) + 2 * 100 * 64 + 64);
    assert_estimates_run(&a, 4);
    char config[1024];
    snprintf(config, sizeof(config), BAMBA, 100, 64, 96, 2, 4, 4, 4, "\"auto\"", 16,
             ", \"attn_layer_indices\": [2]");
    fixture_assert_reader_error(config, "/attn_layer_indices");
    snprintf(config, sizeof(config), BAMBA, 100, 64, 96, 2, 4, 4, 4, "16", 16, "");
    fixture_assert_reader_error(config, "/mamba_d_head");
#undef BAMBA
}

/* Zamba (v1) with ZambaConfig's defaults, which are Zyphra/Zamba-7B-v1's shapes as a public audit
 * of its config quotes them (h 3,712, 76 layers, 13 hybrid at 2, 7, 13, ..., 73; no published
 * exact total was found), by hand:
 * - a Mamba layer: input_layernorm 3,712, in_proj 3,712 x 14,848 = 55,115,776, conv1d 7,424 x 4
 *   + 7,424, x_proj 7,424 x (232 + 32) = 1,959,936, dt_proj 232 x 7,424 + 7,424, A_log 7,424 x 16
 *   = 118,784, D 7,424, out_proj 7,424 x 3,712 = 27,557,888: 86,530,432, x 76;
 * - the shared block once: input_layernorm 7,424, q/k/v 3 x 7,424^2, o 7,424 x 3,712, pre_ff
 *   3,712, MLP 3 x 3,712 x 14,848: 358,263,680; 13 linears 3,712^2 = 13,778,944;
 * - the tied embedding 32,000 x 3,712 and final_layernorm 3,712: 7,232,490,496.
 * KV: 13 applications x 2 x 16 heads x 464 x 2 = 386,048 bytes a token. */
static void test_zamba(void **state)
{
    (void)state;
    struct gs_arch a = fixture_arch("{\"model_type\": \"zamba\"}");
    assert_int_equal(fixture_count(&a).total,
                     76 * 86530432ULL + 358263680 + 13 * 13778944ULL + 32000ULL * 3712 + 3712);
    assert_int_equal(fixture_count(&a).total, 7232490496ULL);
    fixture_assert_kinds(
        &a, (struct fixture_kinds){.attention = 13, .recurrent = 76, .none = 0, .moe = 0});
    fixture_assert_cache(&a, 1, 386048, 76ULL * (3 * 7424 + 7424 * 16) * 2);
    /* the map's default: hybrid at 2 and at 3 + i for i % 6 == 4 - the 3rd layer pair is the
     * shared block then layer 2's Mamba */
    assert_int_equal(a.blocks[a.layer_block[2]].mixer, GS_MIXER_ATTENTION);
    assert_int_equal(a.blocks[a.layer_block[8]].mixer, GS_MIXER_ATTENTION);
    assert_estimates_run(&a, 4);
}

/* zamba2/README.md: Zamba2-1.2B, 1,215,064,704 with its shared block stored once and applied at
 * 6 layers (each with its own KV cache, linear and adapters). */
static void test_zamba2(void **state)
{
    (void)state;
    const char *file = "zamba2/Zyphra__Zamba2-1.2B.json";
    struct gs_arch a = fixture_arch_file(file);
    struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.total, 1215064704ULL);
    /* 38 Mamba layers and the 6 applications of the shared block */
    fixture_assert_kinds(
        &a, (struct fixture_kinds){.attention = 6, .recurrent = 38, .none = 0, .moe = 0});
    fixture_assert_cache(&a, 1, 98304, 40838144ULL);
    assert_estimates_run(&a, 4);
    /* two memory blocks (Zamba2-2.7B and -7B), without the attention adapters: the second
     * block's 109,058,048 more, the adapters' 6 x 3,145,728 fewer */
    a = fixture_arch_file_set_in(file, NULL, "num_mem_blocks", "2");
    struct gs_arch b =
        fixture_arch_file_set_in(file, NULL, "use_shared_attention_adapter", "false");
    assert_int_equal(fixture_count(&a).total, 1215064704ULL + 109058048);
    assert_int_equal(fixture_count(&b).total, 1215064704ULL - 6 * 3145728ULL);
    /* Zamba2Config's defaults (Zamba2-2.7B's shapes but one memory block): h 2,560, 54 layers
     * with 9 hybrid, 8 mixer heads of 640 and a state of 64, MLP 10,240, tied:
     * Mamba in_proj 2,560 x (10,240 + 128 + 8) = 26,562,560, conv1d 5 x 5,248 = 26,240, 24, norm
     * 5,120, out_proj 13,107,200, input_layernorm 2,560: 39,703,704 x 54 = 2,144,000,016; the
     * block 5,120 + 3 x 5,120^2 + 5,120 x 2,560 + 2,560 + 2,560 x 20,480 + 10,240 x 2,560 =
     * 170,401,280; 9 x (MLP adapter 2,560 x 128 + 128 x 20,480 + linear 2,560^2) = 9 x 9,502,720;
     * embedding 81,920,000 and the norm 2,560 */
    a = fixture_arch("{\"model_type\": \"zamba2\"}");
    assert_int_equal(fixture_count(&a).total,
                     2144000016ULL + 170401280 + 9 * 9502720ULL + 81920000 + 2560);
    fixture_assert_kinds(
        &a, (struct fixture_kinds){.attention = 9, .recurrent = 54, .none = 0, .moe = 0});
    /* Zyphra's earlier key names: mamba_headdim 64 gives 5,120 / 64 = 80 heads (the 2.7B's) */
    a = fixture_arch("{\"model_type\": \"zamba2\", \"mamba_headdim\": 64, \"state_size\": 64,"
                     " \"ffn_hidden_size\": 10240}");
    assert_int_equal(a.blocks[a.layer_block[0]].rec.state_heads, 80);
    fixture_assert_reader_error("{\"model_type\": \"zamba2\", \"num_hidden_layers\": 3,"
                                " \"layers_block_type\": [\"mamba\", \"attention\", \"mamba\"]}",
                                "/layers_block_type");
}

/* MiniMax-M1 (minimax_m1; the fixture's README), by hand, h = 6,144, 64 heads of 128, 8 KV heads:
 * - a lightning layer: qkv_proj 6,144 x 24,576 = 150,994,944, output_gate and out_proj
 *   6,144 x 8,192 = 50,331,648 each, its norm 8,192: 251,666,432;
 * - a softmax layer: q and o 50,331,648 each, k and v 6,144 x 1,024 = 6,291,456 each:
 *   113,246,208;
 * - every layer: 32 experts of 3 x 6,144 x 9,216 = 169,869,312: 5,435,817,984, the router
 *   6,144 x 32 = 196,608, two norms 12,288: 5,436,026,880;
 * - 70 x 251,666,432 + 10 x 113,246,208 + 80 x 5,436,026,880 = 453,631,262,720, + embedding and
 *   head 2 x 200,064 x 6,144 = 2,458,386,432 + the final norm 6,144: 456,089,655,296 (the card's
 *   456B). Active: - 80 x 30 x 169,869,312 - the embedding 1,229,193,216 = 47,174,113,280
 *   (45,944,920,064 without the head too: the card's 45.9B).
 * vLLM at t = 8: KV 10 layers x 2 x 1 head x 128 x 2 B = 5,120 a token; state 70 x 8 x 128 x 128
 * x 2 B = 18,350,080 a sequence. */
static void test_minimax(void **state)
{
    (void)state;
    struct gs_arch a = fixture_arch_file("minimax_m1/MiniMaxAI__MiniMax-M1.json");
    struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.total, 456089655296ULL);
    assert_int_equal(c.active, 47174113280ULL);
    assert_int_equal(c.attention, 70ULL * 251666432 + 10ULL * 113246208);
    fixture_assert_kinds(
        &a, (struct fixture_kinds){.attention = 10, .recurrent = 70, .none = 0, .moe = 80});
    assert_int_equal(a.blocks[a.layer_block[7]].mixer, GS_MIXER_ATTENTION);
    assert_int_equal(a.blocks[a.layer_block[0]].mixer, GS_MIXER_RECURRENT);
    fixture_assert_cache(&a, 8, 5120, 18350080ULL);
    fixture_assert_cache(&a, 1, 40960, 8 * 18350080ULL);
    /* vLLM's pages at t = 8: a lightning layer's state 18,350,080 / 70 = 262,144 B against 512 B
     * a token of one softmax layer: blocks of 16 x ceil(262,144 / 8,192) = 512 tokens, pages of
     * 262,144 B; groups of 10 layers (1 softmax, 7 lightning). MiniMaxText01ForCausalLM does not
     * declare SupportsMambaPrefixCaching, so prefix caching keeps its state in align mode (two
     * blocks a group) already before 0.28 (vllm/model_executor/models/config.py
     * MambaModelConfig): 8,192 tokens take 16 + 7 x 2 = 30 blocks of 10 pages; without caching
     * 16 + 7 = 23. */
    struct gs_workload w = fixture_vllm_workload(1, 8192, 8, 150000000000ULL);
    w.serving.engine.version = 2000;
    w.serving.engine.prefix_caching = GS_CHUNKED_PREFILL_ON;
    struct gs_estimate e = fixture_estimate(&a, &w);
    assert_int_equal(e.serving.block_size, 512);
    assert_int_equal(e.serving.pages.state_groups, 7);
    assert_int_equal(e.serving.pages.state_cache, GS_STATE_CACHE_ALIGN);
    assert_int_equal(e.serving.pages.state_blocks, 2);
    assert_int_equal(e.serving.kv_needed_bytes, 30ULL * 10 * 262144);
    w.serving.engine.prefix_caching = GS_CHUNKED_PREFILL_DEFAULT;
    e = fixture_estimate(&a, &w);
    assert_int_equal(e.serving.pages.state_cache, GS_STATE_CACHE_NONE);
    assert_int_equal(e.serving.kv_needed_bytes, 23ULL * 10 * 262144);
    /* transformers' form (minimax): layer_types, or by default every other layer from the first
     * softmax; a toy, h = 64, 4 heads of 16, 2 KV heads, 2 experts of 32, a shared MLP of 16:
     * lightning 64 x 192 + 2 x 64 x 64 + 64 = 20,544; softmax 2 x 4,096 + 2 x 64 x 32 = 12,288;
     * experts 2 x 3 x 64 x 32 = 12,288, router 128, shared 3 x 64 x 16 = 3,072 and its
     * coefficient 64, norms 128 (15,680 a layer); embedding and head 2 x 100 x 64 + 64 */
#define TOY_MINIMAX                                                                                \
    "{\"model_type\": \"%s\", \"hidden_size\": 64, \"intermediate_size\": 32,"                     \
    " \"num_hidden_layers\": 4, \"num_attention_heads\": 4, \"num_key_value_heads\": 2,"           \
    " \"head_dim\": 16, \"vocab_size\": 100, \"num_local_experts\": 2,"                            \
    " \"num_experts_per_tok\": 1, \"shared_intermediate_size\": 16%s}"
    const uint64_t layer = 15680, ends = 2 * 100 * 64 + 64;
    a = fixture_arch(TOY_MINIMAX, "minimax", "");
    assert_int_equal(fixture_count(&a).total, 2 * 20544 + 2 * 12288 + 4 * layer + ends);
    assert_int_equal(a.blocks[a.layer_block[0]].mixer, GS_MIXER_ATTENTION);
    assert_int_equal(a.blocks[a.layer_block[1]].mixer, GS_MIXER_RECURRENT);
    a = fixture_arch(TOY_MINIMAX, "minimax",
                     ", \"layer_types\": [\"linear_attention\", \"linear_attention\","
                     " \"linear_attention\", \"full_attention\"]");
    assert_int_equal(fixture_count(&a).total, 3 * 20544 + 12288 + 4 * layer + ends);
    a = fixture_arch(TOY_MINIMAX, "minimax_text_01", ", \"attn_type_list\": [0, 0, 0, 1]");
    assert_int_equal(fixture_count(&a).total, 3 * 20544 + 12288 + 4 * layer + ends);
    assert_estimates_run(&a, 4);
    /* the remote classes have no default pattern */
    char config[1024];
    snprintf(config, sizeof(config), TOY_MINIMAX, "minimax_m1", "");
    fixture_assert_refused(config, GS_ERR_INVALID,
                           FIXTURE_POINTERS("/model/config/attn_type_list"));
    snprintf(config, sizeof(config), TOY_MINIMAX, "minimax_m1",
             ", \"attn_type_list\": [0, 2, 0, 1]");
    fixture_assert_refused(config, GS_ERR_INVALID,
                           FIXTURE_POINTERS("/model/config/attn_type_list"));
#undef TOY_MINIMAX
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mamba),
        cmocka_unit_test(test_mamba_auto_rank),
        cmocka_unit_test(test_mamba2),
        cmocka_unit_test(test_zero_sizes_refused),
        cmocka_unit_test(test_jamba),
        cmocka_unit_test(test_nemotron_h),
        cmocka_unit_test(test_nemotron_h_moe),
        cmocka_unit_test(test_nemotron_3_mtp),
        cmocka_unit_test(test_falcon_h1),
        cmocka_unit_test(test_granitemoehybrid),
        cmocka_unit_test(test_granitemoehybrid_tiny),
        cmocka_unit_test(test_qwen3_next),
        cmocka_unit_test(test_qwen3_next_mtp),
        cmocka_unit_test(test_olmo_hybrid),
        cmocka_unit_test(test_lfm2),
        cmocka_unit_test(test_falcon_mamba),
        cmocka_unit_test(test_bamba),
        cmocka_unit_test(test_zamba),
        cmocka_unit_test(test_zamba2),
        cmocka_unit_test(test_minimax),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
