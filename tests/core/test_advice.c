/*
 * test_advice.c - what to change when a workload does not fit, and the order
 * recommendations are ranked in, each against a hand computation.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "arch_fixture.h"
#include "gs/advice.h"
#include "gs/estimate.h"
#include "gs/rank.h"
#include "gs/trl.h"

#include <string.h>

/* H100 SXM: 79.22 GiB as the driver reports it, 3,350 GB/s, 989 TFLOPS. */
static struct gs_plan_gpu h100(void)
{
    struct gs_plan_gpu g;
    memset(&g, 0, sizeof(g));
    g.view.total_bytes = 85061827297ULL;
    g.gpus_per_node = 8;
    g.view.link = GS_LINK_NVSWITCH;
    g.perf = (struct gs_perf_gpu){3350, 989, 989, 900, 5};
    g.has_price = true;
    g.price_per_gpu_hour = 2.5;
    return g;
}

static const struct gs_fit_outcome *find(const struct gs_fit_outcome *o, size_t n,
                                         const char *code)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(o[i].change.code, code) == 0)
            return &o[i];
    return NULL;
}

/* The evaluated change `code`, which must be there and fit on one GPU. */
static const struct gs_fit_outcome *fits_on_one(const struct gs_fit_outcome *o, size_t n,
                                                const char *code)
{
    const struct gs_fit_outcome *f = find(o, n, code);
    assert_non_null(f);
    assert_true(f->fits);
    assert_int_equal(f->plan.gpu_count, 1);
    return f;
}

static size_t position(const struct gs_fit_outcome *o, size_t n, const char *code)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(o[i].change.code, code) == 0)
            return i;
    fail_msg("change %s missing", code);
    return n;
}

/* Where change `code` stands among the `np` proposed, np when it is not proposed. */
static size_t proposed_index(const struct gs_fit_change *proposed, size_t np, const char *code)
{
    for (size_t i = 0; i < np; i++)
        if (strcmp(proposed[i].code, code) == 0)
            return i;
    return np;
}

/* The index of the proposed change `code`, which must be there. */
static size_t proposed_at(const struct gs_fit_change *proposed, size_t np, const char *code)
{
    const size_t i = proposed_index(proposed, np, code);
    assert_true(i < np);
    return i;
}

/* The order every answer keeps: those that fit first, in the order proposed
 * (gentlest first); then those that do not, the largest headroom first;
 * unsized ones last. */
static void assert_ordered(const struct gs_fit_outcome *o, size_t n,
                           const struct gs_fit_change *proposed, size_t np)
{
    size_t last_proposed = 0;
    for (size_t i = 0; i < n; i++) {
        if (i > 0 && o[i].fits)
            assert_true(o[i - 1].fits);
        if (o[i].fits) {
            size_t k = 0;
            while (k < np && strcmp(proposed[k].code, o[i].change.code) != 0)
                k++;
            assert_true(k < np);
            assert_true(k >= last_proposed);
            last_proposed = k;
        } else if (i > 0 && !o[i - 1].fits) {
            if (o[i].sized)
                assert_true(o[i - 1].sized &&
                            o[i - 1].plan.headroom_bytes >= o[i].plan.headroom_bytes);
        }
    }
}

/* Full fine-tuning Llama-2-7B (6,738,415,616 parameters, bf16 mixed, AdamW:
 * 16 bytes a parameter = 107.8e9 bytes of model states) on one H100 of
 * 85.06e9 bytes. No change that keeps the states on the GPU can fit
 * (recomputation only shrinks activations, and with a foreach AdamW -
 * fused_optimizer false - the peak is its step, after them; ZeRO-3 shards nothing on one
 * GPU), so they fail. ZeRO-Offload moves the 12 bytes of
 * fp32 master weights and moments to the host (4 bytes a parameter = 27e9
 * stay), LoRA and QLoRA freeze the base: those fit. More GPUs fit on more
 * than one. */
static void test_training_changes(void **state)
{
    (void)state;
    const struct gs_arch arch = fixture_llama(4096, 32, 32, 32, 11008, 32000, false);
    const struct gs_model_spec m = fixture_spec(&arch);
    struct gs_workload w = fixture_workload(GS_MODE_TRAINING);
    w.training.batch_size = 1;
    w.training.sequence_length = 4096;
    w.training.framework.fused_optimizer = GS_KNOB_OFF;
    const struct gs_plan_gpu g = h100();
    struct gs_efficiency eff;
    gs_efficiency_defaults(&eff);
    struct gs_plan_limits own;
    gs_advice_own_limits(&w, 64, &own);
    assert_int_equal(own.max_gpus, 64);
    assert_int_equal(own.zero_stages, 1u << 0);
    assert_false(own.allow_offload);

    struct gs_fit_change proposed[GS_ADVICE_MAX];
    const size_t np = gs_advice_changes(&m, &w, &own, proposed, GS_ADVICE_MAX);
    const char *const expect[] = {"selective_recomputation",
                                  "full_recomputation",
                                  "zero_3",
                                  "offload",
                                  "adamw_8bit",
                                  "lora",
                                  "qlora",
                                  "qlora_full_recomputation",
                                  "more_gpus",
                                  "more_gpus_full_recomputation"};
    assert_int_equal(np, sizeof(expect) / sizeof(expect[0]));
    for (size_t i = 0; i < np; i++)
        assert_string_equal(proposed[i].code, expect[i]);
    /* each change is the request with one thing changed */
    assert_int_equal(proposed[0].workload.training.recompute, GS_RECOMPUTE_SELECTIVE);
    assert_int_equal(proposed[2].limits.zero_stages, 1u << 3);
    assert_int_equal(proposed[2].value, 3);
    assert_int_equal(proposed[5].workload.training.method, GS_METHOD_LORA);
    assert_int_equal(proposed[5].workload.training.lora_rank, 16);
    assert_int_equal(proposed[6].workload.format, GS_WF_NF4_DQ);
    assert_true(proposed[8].any_count);

    /* the capacity bounds what is proposed */
    struct gs_fit_change few[3];
    assert_int_equal(gs_advice_changes(&m, &w, &own, few, 3), 3);

    static struct gs_fit_outcome out[GS_ADVICE_MAX];
    const size_t n = gs_advice_evaluate(&m, &w, &own, &g, &eff, 1, NULL, out, GS_ADVICE_MAX);
    /* more GPUs fit as asked, so the frugal search over more GPUs is not listed beside it */
    assert_int_equal(n, np - 1);
    assert_null(find(out, n, "more_gpus_full_recomputation"));
    assert_ordered(out, n, proposed, np);
    assert_false(find(out, n, "selective_recomputation")->fits);
    assert_false(find(out, n, "full_recomputation")->fits);
    assert_false(find(out, n, "zero_3")->fits);
    assert_true(find(out, n, "offload")->fits);
    assert_true(find(out, n, "lora")->fits);
    assert_true(find(out, n, "qlora")->fits);
    /* the peak is the optimizer step (activations are gone by then), so recomputation and
     * ZeRO-3 on one GPU leave the same headroom and keep their proposed order; 8-bit AdamW
     * shrinks the step itself and comes closest of those that fail */
    assert_int_equal(out[position(out, n, "selective_recomputation")].plan.estimate.peak_phase,
                     GS_PHASE_OPTIMIZER_STEP);
    assert_int_equal(find(out, n, "selective_recomputation")->plan.headroom_bytes,
                     find(out, n, "full_recomputation")->plan.headroom_bytes);
    assert_true(position(out, n, "adamw_8bit") < position(out, n, "selective_recomputation"));
    assert_true(position(out, n, "selective_recomputation") <
                position(out, n, "full_recomputation"));
    assert_true(position(out, n, "full_recomputation") < position(out, n, "zero_3"));
    /* a failing change is sized on the asked GPU: the states alone exceed it */
    const struct gs_fit_outcome *full = find(out, n, "full_recomputation");
    assert_true(full->sized);
    assert_int_equal(full->plan.gpu_count, 1);
    assert_true(full->plan.estimate.per_gpu.total_bytes > 16ULL * 6738415616ULL);
    assert_true(full->plan.headroom_bytes < 0);
    /* offload keeps 2 bytes of weights and 2 of gradients per parameter on the GPU */
    const struct gs_fit_outcome *off = find(out, n, "offload");
    assert_true(off->plan.estimate.per_gpu.total_bytes > 4ULL * 6738415616ULL);
    assert_true(off->plan.estimate.per_gpu.total_bytes <= g.view.total_bytes);
    const struct gs_fit_outcome *more = find(out, n, "more_gpus");
    assert_non_null(more);
    assert_true(more->fits);
    assert_true(more->plan.gpu_count > 1);

    /* asked on as many GPUs as "more GPUs" needs, that change is not offered */
    const size_t n2 =
        gs_advice_evaluate(&m, &w, &own, &g, &eff, more->plan.gpu_count, NULL, out, GS_ADVICE_MAX);
    assert_null(find(out, n2, "more_gpus"));
}

/* LoRA as TRL runs it (gs/trl.h): a base loaded in fp32 (TRL 0.27 on) gets bf16_base, and any
 * 16-bit or fp32 base gets qlora with its own adapters; each change's workload is what TRL would
 * make of it - bf16_base keeps PEFT's fp32 adapters under autocast (regime amp), qlora casts them
 * to bf16 from 0.26 (bf16_pure) and runs prepare_model_for_kbit_training before it - and a full
 * fine-tune's lora change leaves the bf16_pure TRL gave the full model's parameters. */
static void test_trl_lora_changes(void **state)
{
    (void)state;
    const struct gs_arch arch = fixture_llama(4096, 32, 32, 32, 11008, 32000, false);
    const struct gs_model_spec m = fixture_spec(&arch);
    struct gs_workload w = fixture_workload(GS_MODE_TRAINING);
    w.weights = GS_DTYPE_FP32;
    fixture_lora_qv(&w.training, 32);
    w.training.batch_size = 1;
    w.training.sequence_length = 1024;
    w.training.trl = true;
    w.training.trl_version = 107;
    struct gs_error err;
    gs_error_init(&err);
    assert_int_equal(gs_trl_resolve(&w.training, &w.parallelism, w.weights, &err), GS_OK);
    assert_int_equal(w.training.regime, GS_REGIME_AMP);
    struct gs_plan_limits own;
    gs_advice_own_limits(&w, 8, &own);
    struct gs_fit_change proposed[GS_ADVICE_MAX];
    const size_t np = gs_advice_changes(&m, &w, &own, proposed, GS_ADVICE_MAX);
    const struct gs_fit_change *bf16 = NULL, *qlora = NULL;
    for (size_t i = 0; i < np; i++) {
        if (strcmp(proposed[i].code, "bf16_base") == 0)
            bf16 = &proposed[i];
        if (strcmp(proposed[i].code, "qlora") == 0)
            qlora = &proposed[i];
        assert_string_not_equal(proposed[i].code, "lora");
    }
    assert_non_null(bf16);
    assert_non_null(qlora);
    assert_true(bf16 < qlora);
    assert_int_equal(bf16->workload.weights, GS_DTYPE_BF16);
    assert_int_equal(bf16->workload.training.regime, GS_REGIME_AMP);
    assert_int_equal(qlora->workload.weights, GS_DTYPE_INT4);
    assert_int_equal(qlora->workload.format, GS_WF_NF4_DQ);
    assert_int_equal(qlora->workload.training.method, GS_METHOD_QLORA);
    assert_int_equal(qlora->workload.training.regime, GS_REGIME_BF16_PURE);
    assert_true(qlora->workload.training.trl_applied & GS_TRL_ADAPTERS_BF16);
    assert_false(qlora->workload.training.kbit_prepared);
    assert_int_equal(qlora->value, 32);
    assert_int_equal(qlora->workload.training.lora_rank, 32);
    /* each is a request the estimate takes, and bf16 halves the frozen base */
    struct gs_estimate before, after;
    assert_int_equal(gs_estimate_compute(&m, &w, &before, &err), GS_OK);
    assert_int_equal(gs_estimate_compute(&m, &bf16->workload, &after, &err), GS_OK);
    assert_int_equal(before.per_gpu.weights_bytes - after.per_gpu.weights_bytes,
                     2 * (uint64_t)before.parameters);
    assert_int_equal(gs_estimate_compute(&m, &qlora->workload, &after, &err), GS_OK);

    /* before 0.26 the 4-bit model goes through prepare_model_for_kbit_training */
    w.training.trl_version = 25;
    gs_trl_redo(&w.training, &w.parallelism, w.weights);
    const size_t n25 = gs_advice_changes(&m, &w, &own, proposed, GS_ADVICE_MAX);
    qlora = NULL;
    for (size_t i = 0; i < n25; i++)
        if (strcmp(proposed[i].code, "qlora") == 0)
            qlora = &proposed[i];
    assert_non_null(qlora);
    assert_true(qlora->workload.training.kbit_prepared);
    assert_true(qlora->workload.training.kbit_head_16bit);
    assert_int_equal(qlora->workload.training.regime, GS_REGIME_AMP);

    /* a full fine-tune of bf16 parameters (bf16_pure): its lora change has PEFT's fp32
     * adapters under autocast */
    struct gs_workload full = fixture_workload(GS_MODE_TRAINING);
    full.weights = GS_DTYPE_BF16;
    full.training.batch_size = 1;
    full.training.sequence_length = 1024;
    full.training.trl = true;
    full.training.trl_version = 107;
    assert_int_equal(gs_trl_resolve(&full.training, &full.parallelism, full.weights, &err), GS_OK);
    assert_int_equal(full.training.regime, GS_REGIME_BF16_PURE);
    gs_advice_own_limits(&full, 8, &own);
    const size_t nf = gs_advice_changes(&m, &full, &own, proposed, GS_ADVICE_MAX);
    const struct gs_fit_change *lora = NULL;
    for (size_t i = 0; i < nf; i++)
        if (strcmp(proposed[i].code, "lora") == 0)
            lora = &proposed[i];
    assert_non_null(lora);
    assert_int_equal(lora->workload.training.regime, GS_REGIME_AMP);
}

/* FSDP1 with accumulation under the HF Trainer: the micro-batches before the last run in
 * accelerator.no_sync, which keeps the whole model's gradient unsharded (Llama-2-7B full
 * fine-tuning, bf16 mixed: 6,738,415,616 x 2 = 13,476,831,232 bytes beside the 16 bytes a
 * parameter sharded over 2 GPUs, 53.9e9), at micro-batch 6 x 4,096 with full recomputation.
 * sync_each_batch is offered first and is the request with that one knob set; on 2 H100s it
 * fits where the request as asked does not. */
static void test_sync_each_batch_change(void **state)
{
    (void)state;
    const struct gs_arch arch = fixture_llama(4096, 32, 32, 32, 11008, 32000, false);
    const struct gs_model_spec m = fixture_spec(&arch);
    struct gs_workload w = fixture_workload(GS_MODE_TRAINING);
    w.training.batch_size = 6;
    w.training.sequence_length = 4096;
    w.training.gradient_accumulation_steps = 8;
    w.training.recompute = GS_RECOMPUTE_FULL;
    w.parallelism.data = 2;
    w.parallelism.zero_stage = 3;
    w.parallelism.fsdp = true;
    const struct gs_plan_gpu g = h100();
    struct gs_efficiency eff;
    gs_efficiency_defaults(&eff);
    struct gs_plan_limits own;
    gs_advice_own_limits(&w, 64, &own);
    struct gs_fit_change proposed[GS_ADVICE_MAX];
    const size_t np = gs_advice_changes(&m, &w, &own, proposed, GS_ADVICE_MAX);
    assert_true(np > 1);
    assert_string_equal(proposed[0].code, "sync_each_batch");
    assert_int_equal(proposed[0].workload.training.framework.sync_each_batch, GS_KNOB_ON);
    assert_int_equal(proposed[0].workload.training.gradient_accumulation_steps, 8);
    static struct gs_fit_outcome out[GS_ADVICE_MAX];
    const size_t n = gs_advice_evaluate(&m, &w, &own, &g, &eff, 2, NULL, out, GS_ADVICE_MAX);
    const struct gs_fit_outcome *sync = find(out, n, "sync_each_batch");
    assert_non_null(sync);
    assert_true(sync->fits);
    assert_int_equal(sync->plan.gpu_count, 2);
    assert_null(find(out, n, "full_recomputation")); /* already full */
    struct gs_workload asked = w;
    struct gs_estimate e;
    struct gs_error err;
    gs_error_init(&err);
    assert_int_equal(gs_estimate_compute(&m, &asked, &e, &err), GS_OK);
    assert_true(e.per_gpu.total_bytes > g.view.total_bytes);
    /* at the syncing micro-batch's backward start: the whole gradient unsharded (2 bytes a
     * parameter, 13,476,831,232) in place of the sharded one (6,738,415,616) */
    assert_int_equal(e.per_gpu.peak_allocated_bytes -
                         sync->plan.estimate.per_gpu.peak_allocated_bytes,
                     6738415616ULL);
    /* on a GPU where it does not fit either, the change is still sized under FSDP as asked,
     * where sync_each_batch means something (the plain layout of the asked 2 GPUs once dropped
     * the request's FSDP for DeepSpeed's ZeRO-3, which accumulates sharded anyway) */
    struct gs_plan_gpu small = g;
    small.view.total_bytes = 40000000000ULL;
    const size_t ns = gs_advice_evaluate(&m, &w, &own, &small, &eff, 2, NULL, out, GS_ADVICE_MAX);
    sync = find(out, ns, "sync_each_batch");
    assert_non_null(sync);
    assert_false(sync->fits);
    assert_true(sync->sized);
    struct gs_workload each = w;
    each.training.framework.sync_each_batch = GS_KNOB_ON;
    each.gpu = small.view;
    struct gs_estimate e_each;
    assert_int_equal(gs_estimate_compute(&m, &each, &e_each, NULL), GS_OK);
    assert_int_equal(sync->plan.estimate.per_gpu.peak_allocated_bytes,
                     e_each.per_gpu.peak_allocated_bytes);
    assert_int_equal(e.per_gpu.peak_allocated_bytes - e_each.per_gpu.peak_allocated_bytes,
                     6738415616ULL);
    /* FSDP2 under transformers 5 (accelerate >= 1.11's no_sync reaches fully_shard): the
     * same whole gradient, and the same change */
    w.parallelism.fsdp_version = 2;
    assert_true(gs_advice_changes(&m, &w, &own, proposed, GS_ADVICE_MAX) > 1);
    assert_string_equal(proposed[0].code, "sync_each_batch");
    w.parallelism.fsdp_version = 0;
    /* the Trainer of 4.46 to 5.1 does not ask the plugin (transformers issue #29425): not
     * offered, as it would change nothing */
    w.training.framework.framework_version = 449;
    assert_true(gs_advice_changes(&m, &w, &own, proposed, GS_ADVICE_MAX) > 0);
    assert_string_not_equal(proposed[0].code, "sync_each_batch");
    w.training.framework.framework_version = 0;
    /* without accumulation nothing is accumulated unsharded, and the change is not offered */
    w.training.gradient_accumulation_steps = 1;
    assert_true(gs_advice_changes(&m, &w, &own, proposed, GS_ADVICE_MAX) > 0);
    assert_string_not_equal(proposed[0].code, "sync_each_batch");
}

/* Mamba-2.8B's shape (64 layers, hidden 2,560, inner 5,120, state 16) fully trained in bf16 at
 * 2,048 tokens under transformers' torch fallback: the sequential scan keeps about 1.26 MB a token
 * and layer (activation.c mamba1_sequential_bytes), 165 GB, which no H100 holds; the fused kernels
 * keep 31 kB (mamba_inner_fn), and the model states and those fit one, proposed before full
 * recomputation (which fits too, one layer's scan at a time). A request that asks for
 * the kernels is not offered them; nor is a Jamba under autocast over fp32 weights, whose fp32 B
 * and C mamba-ssm's scan refuses (the estimate's recurrent_kernels_dtype). */
static void test_recurrent_kernels_change(void **state)
{
    (void)state;
    const struct gs_arch arch = fixture_arch(
        "%s", "{\"model_type\":\"mamba\",\"hidden_size\":2560,\"intermediate_size\":5120,"
              "\"state_size\":16,\"num_hidden_layers\":64,\"vocab_size\":50280}");
    const struct gs_model_spec m = fixture_spec(&arch);
    struct gs_workload w = fixture_workload(GS_MODE_TRAINING);
    w.training.batch_size = 1;
    w.training.sequence_length = 2048;
    w.training.framework.framework = GS_FW_TRANSFORMERS;
    w.training.framework.framework_given = true;
    w.training.recurrent_kernels = GS_RECURRENT_TORCH;
    w.training.recurrent_kernels_given = true;
    struct gs_plan_limits own;
    gs_advice_own_limits(&w, 8, &own);
    struct gs_fit_change proposed[GS_ADVICE_MAX];
    size_t np = gs_advice_changes(&m, &w, &own, proposed, GS_ADVICE_MAX);
    size_t fused = proposed_at(proposed, np, "recurrent_kernels_fused");
    assert_int_equal(proposed[fused].workload.training.recurrent_kernels, GS_RECURRENT_FUSED);
    assert_true(proposed[fused].workload.training.recurrent_kernels_given);

    const struct gs_plan_gpu g = h100();
    struct gs_efficiency eff;
    gs_efficiency_defaults(&eff);
    static struct gs_fit_outcome out[GS_ADVICE_MAX];
    const size_t n = gs_advice_evaluate(&m, &w, &own, &g, &eff, 1, NULL, out, GS_ADVICE_MAX);
    assert_ordered(out, n, proposed, np);
    (void)fits_on_one(out, n, "recurrent_kernels_fused");
    /* recomputing each layer fits too (the checkpoints and one layer's scan at a time), at a
     * third more compute: the kernels come first */
    assert_true(find(out, n, "full_recomputation")->fits);
    assert_true(position(out, n, "recurrent_kernels_fused") <
                position(out, n, "full_recomputation"));

    w.training.recurrent_kernels = GS_RECURRENT_FUSED;
    np = gs_advice_changes(&m, &w, &own, proposed, GS_ADVICE_MAX);
    assert_int_equal(proposed_index(proposed, np, "recurrent_kernels_fused"), np);

    const struct gs_arch jamba = fixture_arch(
        "%s", "{\"model_type\":\"jamba\",\"hidden_size\":256,\"intermediate_size\":512,"
              "\"num_attention_heads\":4,\"num_key_value_heads\":2,\"num_hidden_layers\":8,"
              "\"num_experts\":1,\"use_mamba_kernels\":false,\"vocab_size\":1000}");
    const struct gs_model_spec mj = fixture_spec(&jamba);
    w.training.recurrent_kernels_given = false;
    w.weights = GS_DTYPE_FP32;
    w.training.regime = GS_REGIME_AMP;
    np = gs_advice_changes(&mj, &w, &own, proposed, GS_ADVICE_MAX);
    assert_int_equal(proposed_index(proposed, np, "recurrent_kernels_fused"), np);
    w.weights = GS_DTYPE_BF16;
    w.training.regime = GS_REGIME_NONE;
    np = gs_advice_changes(&mj, &w, &own, proposed, GS_ADVICE_MAX);
    fused = proposed_at(proposed, np, "recurrent_kernels_fused");

    /* Mamba2-2.7B's shape (80 heads of 64, state 128, chunks of 256), fully trained on 2,048
     * tokens through the naive chunked SSD: about 155 GiB, its fp32 chunk tensors and G's
     * backward (2 x 256 x 80 x 128 x 4 B a token); the combined kernel's 44 GiB fit one H100 */
    const struct gs_arch mamba2 = fixture_arch(
        "%s", "{\"model_type\":\"mamba2\",\"hidden_size\":2560,\"num_heads\":80,\"head_dim\":64,"
              "\"n_groups\":1,\"state_size\":128,\"num_hidden_layers\":64,\"chunk_size\":256,"
              "\"vocab_size\":50288}");
    const struct gs_model_spec m2 = fixture_spec(&mamba2);
    w.training.recurrent_kernels = GS_RECURRENT_TORCH;
    w.training.recurrent_kernels_given = true;
    const size_t n2 = gs_advice_evaluate(&m2, &w, &own, &g, &eff, 1, NULL, out, GS_ADVICE_MAX);
    (void)fits_on_one(out, n2, "recurrent_kernels_fused");
}

/* LoRA r16 training at `batch` sequences of 4,096 tokens. */
static struct gs_workload lora_r16(uint64_t batch)
{
    struct gs_workload w = fixture_workload(GS_MODE_TRAINING);
    w.training.batch_size = batch;
    w.training.sequence_length = 4096;
    w.training.method = GS_METHOD_LORA;
    w.training.method_given = true;
    w.training.lora_rank = 16;
    return w;
}

/* torch.compile proposed to a torchtitan run that does not ask for it: Llama 3.1 8B at
 * 2 x 8,192 tokens with per-op checkpointing over FSDP 8 (test_framework's
 * test_torchtitan_llama31_8b_fsdp). Compiled, the blocks drop w2's output (2 x 4,096 B x
 * 16,384 x 32 = 4,294,967,296), and from torchtitan 0.1 the loss keeps 4 bytes a logit, not 12
 * (8 x 16,384 x 128,256 = 16,810,770,432): the proposed workload's peak is 21,105,737,728 B
 * lower; before 0.1 ("0.0") the loss stays eager and the blocks alone count. The final norm
 * runs eager either way (apply_compile compiles each block alone). Not proposed where the
 * request compiles already, nor to transformers' Trainer. */
static void test_compile_change(void **state)
{
    (void)state;
    const struct gs_arch arch = fixture_arch(
        "%s", "{\"model_type\":\"llama\",\"hidden_size\":4096,\"intermediate_size\":14336,"
              "\"num_hidden_layers\":32,\"num_attention_heads\":32,\"num_key_value_heads\":8,"
              "\"vocab_size\":128256,\"tie_word_embeddings\":false}");
    const struct gs_model_spec m = fixture_spec(&arch);
    struct gs_workload w = fixture_workload(GS_MODE_TRAINING);
    w.weights = GS_DTYPE_BF16;
    w.training.regime = GS_REGIME_BF16_MIXED;
    w.training.batch_size = 2;
    w.training.sequence_length = 8192;
    w.training.recompute = GS_RECOMPUTE_SELECTIVE;
    w.training.framework.framework = GS_FW_TORCHTITAN;
    w.training.framework.framework_given = true;
    w.parallelism.data = 8;
    w.parallelism.zero_stage = 3;
    w.parallelism.fsdp = true;
    struct gs_plan_limits own;
    gs_advice_own_limits(&w, 8, &own);
    struct gs_fit_change proposed[GS_ADVICE_MAX];
    size_t np = gs_advice_changes(&m, &w, &own, proposed, GS_ADVICE_MAX);
    size_t at = proposed_at(proposed, np, "compile");
    assert_int_equal(proposed[at].workload.training.framework.compile, GS_KNOB_ON);
    struct gs_estimate eager, compiled;
    assert_int_equal(gs_estimate_compute(&m, &w, &eager, NULL), GS_OK);
    assert_int_equal(gs_estimate_compute(&m, &proposed[at].workload, &compiled, NULL), GS_OK);
    assert_int_equal(eager.per_gpu.peak_allocated_bytes - compiled.per_gpu.peak_allocated_bytes,
                     4294967296ULL + 16810770432ULL);
    /* the commits before 0.1: the blocks alone */
    w.training.framework.framework_version_given = true;
    np = gs_advice_changes(&m, &w, &own, proposed, GS_ADVICE_MAX);
    at = proposed_at(proposed, np, "compile");
    assert_int_equal(gs_estimate_compute(&m, &w, &eager, NULL), GS_OK);
    assert_int_equal(gs_estimate_compute(&m, &proposed[at].workload, &compiled, NULL), GS_OK);
    assert_int_equal(eager.per_gpu.peak_allocated_bytes - compiled.per_gpu.peak_allocated_bytes,
                     4294967296ULL);
    w.training.framework.framework_version_given = false;
    /* compiled already, or the HF Trainer: not proposed */
    w.training.framework.compile = GS_KNOB_ON;
    np = gs_advice_changes(&m, &w, &own, proposed, GS_ADVICE_MAX);
    assert_int_equal(proposed_index(proposed, np, "compile"), np);
    w.training.framework.compile = GS_KNOB_DEFAULT;
    w.training.framework.framework = GS_FW_TRANSFORMERS;
    np = gs_advice_changes(&m, &w, &own, proposed, GS_ADVICE_MAX);
    assert_int_equal(proposed_index(proposed, np, "compile"), np);
}

/* The QLoRA paper's recipe for a LoRA request (arXiv 2305.14314: a 65B model on one 48 GB GPU,
 * its activations held small by gradient checkpointing): LoRA r16 on Llama-2-70B's shape at 2 x
 * 4,096 tokens on one H100. Its 16-bit base (138 GB) fits no one GPU, recomputed or not; QLoRA
 * alone (an nf4 base of about 39 GB) keeps 80 layers' activations of 8,192 tokens beside it and
 * does not fit; QLoRA with full recomputation keeps one checkpoint a layer (80 x 8,192 x 8,192 x
 * 2 B = 10.7 GB) and fits. */
static void test_qlora_recomputation_change(void **state)
{
    (void)state;
    const struct gs_arch big = fixture_llama(8192, 80, 64, 8, 28672, 32000, false);
    const struct gs_model_spec m = fixture_spec(&big);
    struct gs_workload w = lora_r16(2);
    struct gs_plan_limits own;
    gs_advice_own_limits(&w, 8, &own);
    struct gs_fit_change proposed[GS_ADVICE_MAX];
    const size_t np = gs_advice_changes(&m, &w, &own, proposed, GS_ADVICE_MAX);
    size_t both = proposed_at(proposed, np, "qlora_full_recomputation");
    assert_string_equal(proposed[both - 1].code, "qlora");
    assert_int_equal(proposed[both].value, 16);
    assert_int_equal(proposed[both].workload.format, GS_WF_NF4_DQ);
    assert_int_equal(proposed[both].workload.training.recompute, GS_RECOMPUTE_FULL);
    assert_int_equal(proposed[both].limits.recompute, 1u << GS_RECOMPUTE_FULL);

    const struct gs_plan_gpu g = h100();
    struct gs_efficiency eff;
    gs_efficiency_defaults(&eff);
    static struct gs_fit_outcome out[GS_ADVICE_MAX];
    const size_t n = gs_advice_evaluate(&m, &w, &own, &g, &eff, 1, NULL, out, GS_ADVICE_MAX);
    assert_ordered(out, n, proposed, np);
    assert_false(find(out, n, "full_recomputation")->fits);
    assert_false(find(out, n, "qlora")->fits);
    const struct gs_fit_outcome *q = fits_on_one(out, n, "qlora_full_recomputation");
    assert_int_equal(q->plan.recompute, GS_RECOMPUTE_FULL);
    /* asked with recomputation already, the pair is qlora itself */
    w.training.recompute = GS_RECOMPUTE_FULL;
    const size_t nr = gs_advice_changes(&m, &w, &own, proposed, GS_ADVICE_MAX);
    assert_int_equal(proposed_index(proposed, nr, "qlora_full_recomputation"), nr);
}

/* The smaller micro-batch is offered first among training changes, the global batch kept:
 * LoRA on Llama-2-7B at batch 16 x 4,096 tokens on one H100 without recomputation holds 16
 * sequences' activations, which do not fit; a smaller micro-batch with accumulation does. The
 * user's own layout keeps the batch (gs_advice_own_limits). */
static void test_accumulation_change(void **state)
{
    (void)state;
    const struct gs_arch arch = fixture_llama(4096, 32, 32, 32, 11008, 32000, false);
    const struct gs_model_spec m = fixture_spec(&arch);
    struct gs_workload w = lora_r16(16);
    const struct gs_plan_gpu g = h100();
    struct gs_efficiency eff;
    gs_efficiency_defaults(&eff);
    struct gs_plan_limits own;
    gs_advice_own_limits(&w, 64, &own);
    assert_false(own.allow_accumulation);
    struct gs_fit_change proposed[GS_ADVICE_MAX];
    const size_t np = gs_advice_changes(&m, &w, &own, proposed, GS_ADVICE_MAX);
    assert_true(np > 1);
    assert_string_equal(proposed[0].code, "gradient_accumulation");
    assert_true(proposed[0].limits.allow_accumulation);
    assert_int_equal(proposed[0].workload.training.batch_size, 16); /* the search splits it */
    static struct gs_fit_outcome out[GS_ADVICE_MAX];
    const size_t n = gs_advice_evaluate(&m, &w, &own, &g, &eff, 1, NULL, out, GS_ADVICE_MAX);
    const struct gs_fit_outcome *acc = fits_on_one(out, n, "gradient_accumulation");
    assert_true(acc->plan.micro_batch < 16);
    assert_int_equal(acc->plan.micro_batch * acc->plan.accumulation_steps, 16);
    /* the request as asked does not fit one GPU */
    struct gs_plan asked;
    enum gs_plan_reject why;
    const struct gs_demand none = {.kind = GS_DEMAND_NONE};
    assert_int_equal(gs_plan_search(&m, &w, &g, &own, &none, &eff, 1, NULL, &asked, &why, NULL), GS_OK);
    assert_int_equal(why, GS_REJECT_DOES_NOT_FIT);
    /* the user's own layout is judged at the batch asked, and says so */
    struct gs_plan mine;
    assert_int_equal(gs_advice_own_layout(&m, &w, &g, &mine, NULL), GS_OK);
    assert_int_equal(mine.micro_batch, 16);
    assert_int_equal(mine.accumulation_steps, 1);
    /* a batch of 1 is not offered the change */
    w.training.batch_size = 1;
    const size_t n1 = gs_advice_changes(&m, &w, &own, proposed, GS_ADVICE_MAX);
    assert_int_equal(proposed_index(proposed, n1, "gradient_accumulation"), n1);
}

/* Where no single change fits, the pair every memory guide starts with: LoRA r16 on
 * Llama-2-7B's shape at batch 8 x 16,384 tokens under transformers on one H100. Recomputation
 * alone keeps eight sequences' checkpoints (32 layers x 131,072 tokens x 4,096 x 2 B = 34.4 GB)
 * and the loss over 131,072 x 32,000 logits; one sequence per micro-batch alone keeps 32 layers'
 * activations of 16,384 tokens; neither fits. Together they keep a micro-batch's checkpoints and
 * loss and one layer's working set: full_recomputation_accumulation fits one GPU, its micro-batch
 * smaller than 8 and its steps making up the batch. Llama-2-70B's shape (138 GB of bf16 weights)
 * fits no one GPU whatever it changes, and as asked no count (transformers spreads a model over
 * GPUs only by a device_map, one micro-batch's activations on each GPU's layers): the frugal
 * search over more GPUs (more_gpus_full_recomputation) is listed, a device_map with full
 * recomputation. Where tensor parallelism splits the activations too (no framework named), more
 * GPUs fit as asked, on more of them than the frugal search needs, and both are listed. */
static void test_combined_changes(void **state)
{
    (void)state;
    const struct gs_arch arch = fixture_llama(4096, 32, 32, 32, 11008, 32000, false);
    const struct gs_model_spec m = fixture_spec(&arch);
    struct gs_workload w = lora_r16(8);
    w.training.sequence_length = 16384;
    w.training.framework.framework = GS_FW_TRANSFORMERS;
    w.training.framework.framework_given = true;
    const struct gs_plan_gpu g = h100();
    struct gs_efficiency eff;
    gs_efficiency_defaults(&eff);
    struct gs_plan_limits own;
    gs_advice_own_limits(&w, 64, &own);
    struct gs_fit_change proposed[GS_ADVICE_MAX];
    const size_t np = gs_advice_changes(&m, &w, &own, proposed, GS_ADVICE_MAX);
    size_t pair = proposed_at(proposed, np, "full_recomputation_accumulation");
    assert_string_equal(proposed[pair - 1].code, "full_recomputation");
    assert_int_equal(proposed[pair].workload.training.recompute, GS_RECOMPUTE_FULL);
    assert_true(proposed[pair].limits.allow_accumulation);
    assert_int_equal(proposed[pair].limits.recompute, 1u << GS_RECOMPUTE_FULL);
    assert_string_equal(proposed[np - 1].code, "more_gpus_full_recomputation");
    assert_true(proposed[np - 1].any_count);

    static struct gs_fit_outcome out[GS_ADVICE_MAX];
    size_t n = gs_advice_evaluate(&m, &w, &own, &g, &eff, 1, NULL, out, GS_ADVICE_MAX);
    assert_ordered(out, n, proposed, np);
    assert_false(find(out, n, "full_recomputation")->fits);
    assert_false(find(out, n, "gradient_accumulation")->fits);
    const struct gs_fit_outcome *both = fits_on_one(out, n, "full_recomputation_accumulation");
    assert_int_equal(both->plan.recompute, GS_RECOMPUTE_FULL);
    assert_true(both->plan.micro_batch < 8);
    assert_int_equal(both->plan.micro_batch * both->plan.accumulation_steps, 8);
    assert_null(find(out, n, "more_gpus_full_recomputation")); /* one GPU does it */

    const struct gs_arch big = fixture_llama(8192, 80, 64, 8, 28672, 32000, false);
    const struct gs_model_spec m70 = fixture_spec(&big);
    w.training.sequence_length = 8192;
    gs_advice_own_limits(&w, 64, &own);
    n = gs_advice_evaluate(&m70, &w, &own, &g, &eff, 1, NULL, out, GS_ADVICE_MAX);
    assert_true(n > 0);
    for (size_t i = 0; i < n; i++)
        assert_false(out[i].fits && out[i].plan.gpu_count == 1);
    assert_null(find(out, n, "more_gpus"));
    const struct gs_fit_outcome *more = find(out, n, "more_gpus_full_recomputation");
    assert_non_null(more);
    assert_true(more->fits);
    assert_true(more->plan.gpu_count > 1);
    assert_int_equal(more->plan.recompute, GS_RECOMPUTE_FULL);
    assert_int_equal(more->plan.micro_batch * more->plan.accumulation_steps, 8);
    assert_true(more->plan.pipeline > 1);
    /* a framework that splits layers by tensor parallelism too fits as asked on more GPUs than
     * the frugal search needs: both are listed */
    w.training.framework.framework_given = false;
    gs_advice_own_limits(&w, 64, &own);
    n = gs_advice_evaluate(&m70, &w, &own, &g, &eff, 1, NULL, out, GS_ADVICE_MAX);
    const struct gs_fit_outcome *asked = find(out, n, "more_gpus");
    more = find(out, n, "more_gpus_full_recomputation");
    assert_non_null(asked);
    assert_non_null(more);
    assert_true(asked->fits && more->fits);
    assert_true(asked->plan.gpu_count > more->plan.gpu_count);
}

/* Eager attention keeps each layer's score matrix: Llama-2-7B's shape with LoRA r16, one
 * 4,096-token sequence, eager, keeps 32 heads x 4,096^2 scores x 6 bytes (the fp32 softmax output
 * and its 16-bit copy) = 3.2 GB a layer, 103 GB in all, more than an H100 holds. flash_attention_2
 * is offered first and is the request with that one knob set; it keeps a log-sum-exp and fits one
 * H100. Not on a Turing GPU (flash-attn 2 runs on Ampere and newer), not for a model whose
 * transformers code has only an eager path (T5), not under another framework's model code, and
 * not for SDPA over unpadded micro-batches; SDPA over padded ones of a grouped-query model
 * (K/V repeated, a mask per layer) is offered it. */
static void test_flash_attention_change(void **state)
{
    (void)state;
    const struct gs_arch arch = fixture_llama(4096, 32, 32, 32, 11008, 32000, false);
    struct gs_model_spec m = fixture_spec(&arch);
    struct gs_workload w = lora_r16(1);
    w.training.attn_impl = GS_ATTN_EAGER;
    w.training.attn_impl_given = true;
    w.training.flash_attention = false;
    struct gs_plan_gpu g = h100();
    struct gs_efficiency eff;
    gs_efficiency_defaults(&eff);
    struct gs_plan_limits own;
    gs_advice_own_limits(&w, 64, &own);
    struct gs_fit_change proposed[GS_ADVICE_MAX];
    size_t np = gs_advice_changes(&m, &w, &own, proposed, GS_ADVICE_MAX);
    assert_true(np > 1);
    assert_string_equal(proposed[0].code, "flash_attention_2");
    assert_int_equal(proposed[0].workload.training.attn_impl, GS_ATTN_FLASH2);
    assert_int_equal(proposed[0].workload.training.batch_size, 1);
    struct gs_estimate asked;
    assert_int_equal(gs_estimate_compute(&m, &w, &asked, NULL), GS_OK);
    assert_true(asked.per_gpu.activations_bytes > 32ULL * 32 * 4096 * 4096 * 6);
    static struct gs_fit_outcome out[GS_ADVICE_MAX];
    size_t n = gs_advice_evaluate(&m, &w, &own, &g, &eff, 1, NULL, out, GS_ADVICE_MAX);
    (void)fits_on_one(out, n, "flash_attention_2");
    assert_int_equal(position(out, n, "flash_attention_2"), 0);

    g.view.hw = GS_HW_TURING;
    n = gs_advice_evaluate(&m, &w, &own, &g, &eff, 1, NULL, out, GS_ADVICE_MAX);
    assert_null(find(out, n, "flash_attention_2"));

    m.arch.attention_eager_only = true;
    np = gs_advice_changes(&m, &w, &own, proposed, GS_ADVICE_MAX);
    assert_string_not_equal(proposed[0].code, "flash_attention_2");
    m.arch.attention_eager_only = false;
    w.training.framework.framework = GS_FW_TORCHTUNE;
    np = gs_advice_changes(&m, &w, &own, proposed, GS_ADVICE_MAX);
    assert_string_not_equal(proposed[0].code, "flash_attention_2");
    w.training.framework.framework = GS_FW_TRANSFORMERS;

    w.training.attn_impl = GS_ATTN_SDPA;
    w.training.flash_attention = true;
    np = gs_advice_changes(&m, &w, &own, proposed, GS_ADVICE_MAX);
    assert_string_not_equal(proposed[0].code, "flash_attention_2");
    const struct gs_arch gqa = fixture_llama(4096, 32, 32, 8, 14336, 128256, false);
    m = fixture_spec(&gqa);
    w.training.padding_mask = GS_KNOB_ON;
    np = gs_advice_changes(&m, &w, &own, proposed, GS_ADVICE_MAX);
    assert_string_equal(proposed[0].code, "flash_attention_2");
    (void)np;
}

/* GPT-OSS has no SDPA path in transformers, so it trains eager by default; the kernels hub's
 * sink-aware FlashAttention 3 keeps a log-sum-exp instead of the score matrix (64 heads x 4,096^2
 * x 2 B x 24 layers = 51.5 GB for gpt-oss-20b's LoRA at 4,096 tokens). It is offered as
 * flash_attention_3, on Hopper (and GPUs not in the table) only, and not where the request already
 * names a fused path. */
static void test_sink_flash_attention_change(void **state)
{
    (void)state;
    const struct gs_arch arch = fixture_arch_file("gpt_oss/openai__gpt-oss-20b.json");
    assert_true(arch.attention_no_sdpa);
    const struct gs_model_spec m = fixture_spec(&arch);
    struct gs_workload w = lora_r16(1);
    struct gs_plan_limits own;
    gs_advice_own_limits(&w, 64, &own);
    struct gs_fit_change proposed[GS_ADVICE_MAX];
    size_t np = gs_advice_changes(&m, &w, &own, proposed, GS_ADVICE_MAX);
    size_t at = proposed_at(proposed, np, "flash_attention_3");
    assert_int_equal(proposed[at].workload.training.attn_impl, GS_ATTN_FLASH3);
    struct gs_estimate eager, flash;
    assert_int_equal(gs_estimate_compute(&m, &w, &eager, NULL), GS_OK);
    assert_int_equal(eager.attn_impl, GS_ATTN_EAGER);
    assert_int_equal(gs_estimate_compute(&m, &proposed[at].workload, &flash, NULL), GS_OK);
    assert_true(eager.per_gpu.activations_bytes - flash.per_gpu.activations_bytes >
                64ULL * 4096 * 4096 * 2 * 24);

    struct gs_plan_gpu g = h100();
    g.view.hw = GS_HW_HOPPER;
    struct gs_efficiency eff;
    gs_efficiency_defaults(&eff);
    static struct gs_fit_outcome out[GS_ADVICE_MAX];
    size_t n = gs_advice_evaluate(&m, &w, &own, &g, &eff, 1, NULL, out, GS_ADVICE_MAX);
    const struct gs_fit_outcome *fa3 = find(out, n, "flash_attention_3");
    assert_non_null(fa3);
    assert_true(fa3->fits);
    g.view.hw = GS_HW_AMPERE;
    n = gs_advice_evaluate(&m, &w, &own, &g, &eff, 1, NULL, out, GS_ADVICE_MAX);
    assert_null(find(out, n, "flash_attention_3"));

    w.training.attn_impl = GS_ATTN_FLEX;
    w.training.attn_impl_given = true;
    np = gs_advice_changes(&m, &w, &own, proposed, GS_ADVICE_MAX);
    assert_int_equal(proposed_index(proposed, np, "flash_attention_3"), np);
}

/* flash_attention_2 for an MLA model's padded micro-batches only where it keeps less than SDPA:
 * transformers pads MLA's V and output to the query's head width for flash-attn (a small
 * DeepSeek-V3: h 64, 4 heads, Q/K heads of 24 (16 without rope), V of 16; full training, bf16,
 * 2 padded sequences). Per layer and token flash-attn keeps 4 x 8 + 4 x 8 values more of V and
 * the output and o_proj's 64-wide copy, SDPA the 64 no-rope keys its V's view holds: 64 more
 * values, 128 B a token, against SDPA's mask copy, 2 B x 2 x s^2 a layer: at 16 tokens 4,096 B
 * against 1,024 (not offered), at 256 tokens 65,536 against 262,144 (offered). Under LoRA with
 * PEFT's fp32 adapters o_proj keeps no copy and flash-attn is never the larger. */
static void test_flash_attention_change_mla(void **state)
{
    (void)state;
    const struct gs_arch arch = fixture_small_mla();
    const struct gs_model_spec m = fixture_spec(&arch);
    struct gs_workload w = fixture_workload(GS_MODE_TRAINING);
    w.training.batch_size = 2;
    w.training.padding_mask = GS_KNOB_ON;
    struct gs_plan_limits own;
    gs_advice_own_limits(&w, 64, &own);
    struct gs_fit_change proposed[GS_ADVICE_MAX];
    w.training.sequence_length = 16;
    size_t np = gs_advice_changes(&m, &w, &own, proposed, GS_ADVICE_MAX);
    assert_int_equal(proposed_index(proposed, np, "flash_attention_2"), np);
    w.training.sequence_length = 256;
    np = gs_advice_changes(&m, &w, &own, proposed, GS_ADVICE_MAX);
    assert_true(np > 0);
    assert_string_equal(proposed[0].code, "flash_attention_2");
}

/* Two 8k sequences of Llama-3.1-70B's shape on vLLM (test_serving_changes, test_fit_verdict). */
static struct gs_workload llama70b_serving(void)
{
    struct gs_workload w = fixture_workload(GS_MODE_INFERENCE);
    w.serving.present = true;
    w.serving.batch_size = 2;
    w.serving.context_length = 8192;
    w.serving.engine.engine = GS_ENGINE_VLLM;
    return w;
}

/* A hybrid on vLLM 0.19+ that one GPU holds but that does not start at the default
 * max_num_seqs (Qwen3.5-27B on one H100: fewer state blocks than 1,024 sequences,
 * test_vllm_hybrid_seqs_bound): the change lower_max_num_seqs fits on the asked GPU, its value
 * the blocks the layout's pool has (what vLLM's message names), and the request with that
 * max_num_seqs starts. A request that names max_num_seqs, or an attention-only model, is not
 * offered it. */
static void test_serving_change_lower_max_num_seqs(void **state)
{
    (void)state;
    const struct gs_arch arch = fixture_arch_file("qwen3_5/Qwen__Qwen3.5-27B.json");
    struct gs_model_spec m = fixture_spec(&arch);
    struct gs_workload w = llama70b_serving();
    w.serving.engine.version = 1900;
    const struct gs_plan_gpu g = h100();
    struct gs_efficiency eff;
    gs_efficiency_defaults(&eff);
    struct gs_plan_limits own;
    gs_advice_own_limits(&w, 64, &own);
    assert_false(own.allow_lower_max_num_seqs);
    static struct gs_fit_outcome out[GS_ADVICE_MAX];
    size_t n = gs_advice_evaluate(&m, &w, &own, &g, &eff, 1, NULL, out, GS_ADVICE_MAX);
    const struct gs_fit_outcome *lower = find(out, n, "lower_max_num_seqs");
    assert_non_null(lower);
    assert_true(lower->fits);
    assert_int_equal(lower->plan.tensor, 1);
    assert_true(lower->change.value > 0 && lower->change.value < 1024);
    assert_int_equal(lower->change.value, lower->plan.max_num_seqs);
    struct gs_workload asked = w;
    asked.gpu = g.view;
    static struct gs_estimate e;
    assert_int_equal(gs_estimate_compute(&m, &asked, &e, NULL), GS_OK);
    assert_false(e.serving.starts);
    assert_int_equal(lower->change.value, e.serving.seqs_bound);
    asked.serving.engine.max_num_seqs = lower->change.value;
    assert_int_equal(gs_estimate_compute(&m, &asked, &e, NULL), GS_OK);
    assert_true(e.serving.starts && e.serving.holds_batch);
    /* named max_num_seqs: not offered */
    w.serving.engine.max_num_seqs = 1024;
    n = gs_advice_evaluate(&m, &w, &own, &g, &eff, 1, NULL, out, GS_ADVICE_MAX);
    assert_null(find(out, n, "lower_max_num_seqs"));
    /* an attention-only model has no such bound */
    w.serving.engine.max_num_seqs = 0;
    const struct gs_arch llama = fixture_llama(8192, 80, 64, 8, 28672, 128256, false);
    m = fixture_spec(&llama);
    struct gs_fit_change proposed[GS_ADVICE_MAX];
    const size_t np = gs_advice_changes(&m, &w, &own, proposed, GS_ADVICE_MAX);
    for (size_t i = 0; i < np; i++)
        assert_string_not_equal(proposed[i].code, "lower_max_num_seqs");
}

/* gs_advice_fit, /v1/fit's verdict decided in core. The serving Llama-3.1-70B of
 * test_serving_changes (141e9 bytes of bf16 weights) on H100s: one GPU does not fit and
 * there is no plan to show (the request as sized stands in); the fewest that fit are 4 at
 * tensor 4 (test_plan's hand computation), where max_batch and max_context are given. Asked
 * about 4 GPUs, the best layout of 4 is the plan and the figures are its own. A layout named
 * in parallelism (tensor 2) is judged as it is: it does not fit, it is the plan, and no other
 * layout of 2 GPUs fits either. A gpu_count other than the layout's is refused at its
 * pointer. */
static void test_fit_verdict(void **state)
{
    (void)state;
    const struct gs_arch arch = fixture_llama(8192, 80, 64, 8, 28672, 128256, false);
    struct gs_model_spec m = fixture_spec(&arch);
    struct gs_workload w = llama70b_serving();
    const struct gs_plan_gpu g = h100();
    struct gs_efficiency eff;
    gs_efficiency_defaults(&eff);
    struct gs_plan_limits own;
    gs_advice_own_limits(&w, 64, &own);
    static struct gs_fit_verdict v;
    assert_int_equal(gs_advice_fit(&m, &w, &g, &own, &eff, 0, NULL, &v, NULL), GS_OK);
    assert_false(v.layout_given);
    assert_int_equal(v.count, 1);
    assert_false(v.fits);
    assert_int_equal(v.plan, GS_FIT_NONE);
    assert_null(gs_fit_plan(&v, v.plan));
    assert_int_equal(v.why_least, GS_REJECT_NONE);
    assert_int_equal(v.least.gpu_count, 4);
    assert_int_equal(v.max_at, GS_FIT_LEAST);
    assert_int_equal(v.max_batch, v.least.estimate.serving.max_concurrency * v.least.replicas);
    assert_int_equal(v.max_context, v.least.estimate.serving.max_context);

    assert_int_equal(gs_advice_fit(&m, &w, &g, &own, &eff, 4, NULL, &v, NULL), GS_OK);
    assert_true(v.fits);
    assert_int_equal(v.plan, GS_FIT_AT);
    assert_int_equal(v.at.gpu_count, 4);
    assert_int_equal(v.max_at, GS_FIT_AT);
    assert_true(v.max_batch >= 2);

    w.parallelism.tensor = 2;
    assert_int_equal(gs_advice_fit(&m, &w, &g, &own, &eff, 0, NULL, &v, NULL), GS_OK);
    assert_true(v.layout_given);
    assert_int_equal(v.count, 2);
    assert_false(v.fits);
    assert_int_equal(v.plan, GS_FIT_OWN);
    assert_int_equal(v.own.tensor, 2);
    assert_true(v.own.headroom_bytes < 0);
    assert_false(v.alternative);
    assert_int_equal(v.max_at, GS_FIT_LEAST);

    struct gs_error err;
    gs_error_init(&err);
    assert_int_equal(gs_advice_fit(&m, &w, &g, &own, &eff, 4, NULL, &v, &err), GS_ERR_INVALID);
    assert_string_equal(err.items[0].pointer, "/gpu_count");
}

/* Serving Llama-3.1-70B in bf16 (141e9 bytes of weights) on one H100: only
 * AWQ int4 (about 0.53 bytes a parameter, 37e9) fits one GPU; fp8 weights
 * (70.6e9) plus the profile run and non-torch memory leave too little of
 * 0.9 x 85.06e9 for two 8k sequences (2 x 8,192 x 163,840 B = 2.68e9 at bf16,
 * half at fp8). More GPUs: TP 4 (test_plan's hand computation). */
static void test_serving_changes(void **state)
{
    (void)state;
    const struct gs_arch arch = fixture_llama(8192, 80, 64, 8, 28672, 128256, false);
    struct gs_model_spec m = fixture_spec(&arch);
    struct gs_workload w = llama70b_serving();
    const struct gs_plan_gpu g = h100();
    struct gs_efficiency eff;
    gs_efficiency_defaults(&eff);
    struct gs_plan_limits own;
    gs_advice_own_limits(&w, 64, &own);
    assert_false(own.allow_quantization);

    struct gs_fit_change proposed[GS_ADVICE_MAX];
    const size_t np = gs_advice_changes(&m, &w, &own, proposed, GS_ADVICE_MAX);
    const char *const expect[] = {"fp8_kv_cache", "fp8_weights", "int4_weights",
                                  "int4_weights_fp8_kv_cache", "more_gpus"};
    assert_int_equal(np, 5);
    for (size_t i = 0; i < np; i++)
        assert_string_equal(proposed[i].code, expect[i]);
    assert_int_equal(proposed[0].workload.serving.kv_dtype, GS_KV_FP8);
    assert_int_equal(proposed[2].workload.format, GS_WF_AWQ);

    static struct gs_fit_outcome out[GS_ADVICE_MAX];
    const size_t n = gs_advice_evaluate(&m, &w, &own, &g, &eff, 1, NULL, out, GS_ADVICE_MAX);
    assert_ordered(out, n, proposed, np);
    assert_false(find(out, n, "fp8_kv_cache")->fits);
    assert_true(find(out, n, "int4_weights")->fits);
    assert_true(find(out, n, "int4_weights_fp8_kv_cache")->fits);
    assert_string_equal(out[0].change.code, "int4_weights");
    const struct gs_fit_outcome *more = find(out, n, "more_gpus");
    assert_non_null(more);
    assert_int_equal(more->plan.gpu_count, 4);
    assert_int_equal(more->plan.tensor, 4);
    /* a failing change is sized with the widest tensor parallelism the asked GPUs allow (1) */
    const struct gs_fit_outcome *kv8 = find(out, n, "fp8_kv_cache");
    assert_true(kv8->sized);
    assert_int_equal(kv8->plan.tensor, 1);

    /* DeepSeek-V3's fp8 cache is the plain fp8 latent (576 B per layer); only
     * DeepSeek-V3.2's sparse attention (an indexer: index_topk) takes fp8_ds_mla */
    struct gs_arch v3 = fixture_deepseek_v3();
    m = fixture_spec(&v3);
    struct gs_fit_change mla[GS_ADVICE_MAX];
    assert_int_equal(gs_advice_changes(&m, &w, &own, mla, GS_ADVICE_MAX), 5);
    assert_string_equal(mla[0].code, "fp8_kv_cache");
    assert_int_equal(mla[0].workload.serving.kv_dtype, GS_KV_FP8);
    for (size_t i = 0; i < v3.block_count; i++)
        if (v3.blocks[i].mixer == GS_MIXER_MLA)
            v3.blocks[i].attn.index_topk = 2048; /* DeepSeek-V3.2 config.json */
    m = fixture_spec(&v3);
    assert_int_equal(gs_advice_changes(&m, &w, &own, mla, GS_ADVICE_MAX), 5);
    assert_int_equal(mla[0].workload.serving.kv_dtype, GS_KV_FP8_DS_MLA);
}

/* The largest micro-batch is the boundary: it fits and one more does not. */
static void test_max_batch_is_the_boundary(void **state)
{
    (void)state;
    const struct gs_arch arch = fixture_llama(4096, 32, 32, 32, 11008, 32000, false);
    const struct gs_model_spec m = fixture_spec(&arch);
    struct gs_workload w = fixture_workload(GS_MODE_TRAINING);
    w.training.batch_size = 1;
    w.training.sequence_length = 4096;
    w.training.method = GS_METHOD_LORA;
    w.training.method_given = true;
    w.training.lora_rank = 16;
    const struct gs_plan_gpu g = h100();
    struct gs_plan plan;
    memset(&plan, 0, sizeof(plan));
    plan.tensor = plan.pipeline = plan.data = plan.expert = 1;
    plan.gpu_count = 1;
    const uint64_t b = gs_advice_max_batch(&m, &w, &plan, &g, 4096);
    assert_true(b >= 1);
    assert_true(b < 4096);
    struct gs_workload at = w;
    gs_parallelism_defaults(&at.parallelism);
    at.gpu.total_bytes = g.view.total_bytes;
    at.gpu.link = g.view.link;
    struct gs_estimate est;
    at.training.batch_size = b;
    assert_int_equal(gs_estimate_compute(&m, &at, &est, NULL), GS_OK);
    assert_true(est.per_gpu.total_bytes <= g.view.total_bytes);
    at.training.batch_size = b + 1;
    assert_int_equal(gs_estimate_compute(&m, &at, &est, NULL), GS_OK);
    assert_true(est.per_gpu.total_bytes > g.view.total_bytes);
    const uint64_t s = gs_advice_max_sequence(&m, &w, &plan, &g, (uint64_t)1 << 22);
    at.training.batch_size = 1;
    at.training.sequence_length = s;
    assert_int_equal(gs_estimate_compute(&m, &at, &est, NULL), GS_OK);
    assert_true(est.per_gpu.total_bytes <= g.view.total_bytes);
    at.training.sequence_length = s + 1;
    assert_int_equal(gs_estimate_compute(&m, &at, &est, NULL), GS_OK);
    assert_true(est.per_gpu.total_bytes > g.view.total_bytes);
    /* a bound below the boundary is the answer */
    assert_int_equal(gs_advice_max_batch(&m, &w, &plan, &g, 1), 1);
}

/* The boundaries /v1/fit gives for a layout named in parallelism are that layout's, every knob
 * as asked: Llama-2-7B full training on H100s at pipeline 4 in 2 interleaved chunks (Megatron-LM's
 * schedule: its first stage holds 1 + (p - 1)/(p v) times a plain first stage's activations,
 * test_training test_interleaved_schedule) reaches a shorter sequence than at pipeline 4 plain,
 * and each answer is that layout's boundary: it fits at the answer and not one token more. The
 * boundary of the plain layout was once given for both (the layout rebuilt from the plan's
 * degrees dropped virtual_stages). */
static void test_fit_boundaries_own_layout(void **state)
{
    (void)state;
    const struct gs_arch arch = fixture_llama(4096, 32, 32, 32, 11008, 32000, false);
    const struct gs_model_spec m = fixture_spec(&arch);
    struct gs_workload w = fixture_workload(GS_MODE_TRAINING);
    w.training.batch_size = 1;
    w.training.sequence_length = 4096;
    w.training.gradient_accumulation_steps = 8;
    w.training.framework.framework = GS_FW_MEGATRON;
    w.training.framework.framework_given = true;
    w.parallelism.pipeline = 4;
    const struct gs_plan_gpu g = h100();
    struct gs_efficiency eff;
    gs_efficiency_defaults(&eff);
    struct gs_plan_limits own;
    gs_advice_own_limits(&w, 64, &own);
    static struct gs_fit_verdict plain, interleaved;
    assert_int_equal(gs_advice_fit(&m, &w, &g, &own, &eff, 0, NULL, &plain, NULL), GS_OK);
    w.parallelism.stages.chunks = 2;
    assert_int_equal(gs_advice_fit(&m, &w, &g, &own, &eff, 0, NULL, &interleaved, NULL), GS_OK);
    assert_int_equal(interleaved.max_at, GS_FIT_OWN);
    assert_int_equal(gs_stage_chunks(&interleaved.own.estimate.stages), 2);
    assert_true(interleaved.max_context < plain.max_context);
    const struct gs_fit_verdict *verdicts[] = {&plain, &interleaved};
    for (int i = 0; i < 2; i++) {
        struct gs_workload at = w;
        at.parallelism.stages.chunks = i == 0 ? 0 : 2;
        at.gpu = g.view;
        struct gs_estimate est;
        at.training.sequence_length = verdicts[i]->max_context;
        assert_int_equal(gs_estimate_compute(&m, &at, &est, NULL), GS_OK);
        assert_true(est.per_gpu.total_bytes <= g.view.total_bytes);
        at.training.sequence_length = verdicts[i]->max_context + 1;
        assert_int_equal(gs_estimate_compute(&m, &at, &est, NULL), GS_OK);
        assert_true(est.per_gpu.total_bytes > g.view.total_bytes);
        at.training.sequence_length = 4096;
        at.training.batch_size = verdicts[i]->max_batch;
        assert_int_equal(gs_estimate_compute(&m, &at, &est, NULL), GS_OK);
        assert_true(est.per_gpu.total_bytes <= g.view.total_bytes);
        at.training.batch_size = verdicts[i]->max_batch + 1;
        assert_int_equal(gs_estimate_compute(&m, &at, &est, NULL), GS_OK);
        assert_true(est.per_gpu.total_bytes > g.view.total_bytes);
    }
}

/* Ranking: $10/h before $12/h whatever the count; at equal cost the fewer
 * GPUs; then the catalog id. Training with a run cost ranks by the run. */
static void test_rank_order(void **state)
{
    (void)state;
    struct gs_plan a, b;
    memset(&a, 0, sizeof(a));
    memset(&b, 0, sizeof(b));
    a.cost_per_hour = 10;
    a.gpu_count = 8;
    b.cost_per_hour = 12;
    b.gpu_count = 2;
    assert_true(gs_rank_compare(&a, "h100", &b, "b200", false) < 0);
    assert_true(gs_rank_compare(&b, "b200", &a, "h100", false) > 0);
    b.cost_per_hour = 10;
    assert_true(gs_rank_compare(&b, "b200", &a, "h100", false) < 0);
    b.gpu_count = 8;
    assert_true(gs_rank_compare(&b, "b200", &a, "h100", false) < 0);
    assert_int_equal(gs_rank_compare(&a, "h100", &a, "h100", false), 0);
    /* training: 100 GPU-hours at $2.5 = $250 beats 50 at $6 = $300 though it costs less per hour */
    a.has_throughput = b.has_throughput = true;
    a.cost_per_hour = 20;
    a.total_cost = 250;
    b.cost_per_hour = 12;
    b.total_cost = 300;
    assert_true(gs_rank_compare(&a, "h100", &b, "b200", true) < 0);
    assert_true(gs_rank_compare(&a, "h100", &b, "b200", false) > 0);
    /* without a run cost (no token count), per hour */
    a.total_cost = b.total_cost = 0;
    assert_true(gs_rank_compare(&a, "h100", &b, "b200", true) > 0);
    assert_true(gs_rank_cost(&b, true) == 12);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_training_changes),
        cmocka_unit_test(test_trl_lora_changes),
        cmocka_unit_test(test_accumulation_change),
        cmocka_unit_test(test_combined_changes),
        cmocka_unit_test(test_recurrent_kernels_change),
        cmocka_unit_test(test_compile_change),
        cmocka_unit_test(test_qlora_recomputation_change),
        cmocka_unit_test(test_sync_each_batch_change),
        cmocka_unit_test(test_flash_attention_change),
        cmocka_unit_test(test_flash_attention_change_mla),
        cmocka_unit_test(test_sink_flash_attention_change),
        cmocka_unit_test(test_serving_changes),
        cmocka_unit_test(test_serving_change_lower_max_num_seqs),
        cmocka_unit_test(test_fit_verdict),
        cmocka_unit_test(test_max_batch_is_the_boundary),
        cmocka_unit_test(test_fit_boundaries_own_layout),
        cmocka_unit_test(test_rank_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
