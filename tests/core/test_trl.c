/*
 * test_trl.c - TRL's SFTTrainer defaults by release (core/src/trl.c): what each release puts
 * on a request that says nothing (read from trl/trainer/sft_config.py and sft_trainer.py at
 * each tag), what a request's own fields keep, the dtype a model named by its id loads in, and
 * the bytes of the one preparation gpusizer sizes differently for TRL (prepare_model_for_kbit
 * _training followed by peft_module_casting_to_bf16, before 0.26), written out by hand.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "arch_fixture.h"
#include "gs/estimate.h"
#include "gs/plan.h"
#include "gs/trl.h"

#include <string.h>

/* What every row puts on a request that gives no shape: padding, micro-batch, length. */
#define SHAPE (GS_TRL_PADDING | GS_TRL_BATCH | GS_TRL_SEQUENCE)

static struct gs_training trl_run(const char *release, enum gs_method method)
{
    struct gs_training t;
    memset(&t, 0, sizeof(t));
    gs_training_defaults(&t);
    t.trl = true;
    if (!gs_trl_version_parse(release, &t.trl_version))
        fail_msg("%s", release);
    t.method = method;
    t.method_given = true;
    return t;
}

static void test_trl_version_parse(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        uint32_t want; /* 0: refused */
    } rows[] = {{"0.26", 26}, {"0.26.2", 26}, {"1.7", 107}, {"1.7.1", 107}, {"0.19.0", 19},
                {"0.0", 0},   {"1", 0},       {"1.x", 0},   {"", 0},        {"1.100", 0}};
    for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        uint32_t v = 0;
        const bool ok = gs_trl_version_parse(rows[i].text, &v);
        if (ok != (rows[i].want != 0) || (ok && v != rows[i].want))
            fail_msg("%s: %s %u", rows[i].text, ok ? "accepted" : "refused", (unsigned)v);
    }
}

/* Each release's row, over the runs that tell the rows apart: LoRA on a bf16 model, QLoRA
 * (single GPU, and sharded by FSDP FULL_SHARD), a full fine-tune in bf16 and in fp32, LoRA on
 * a bf16 model under DeepSpeed ZeRO-3. */
static void test_trl_rows(void **state)
{
    (void)state;
    static const struct {
        const char *release;
        enum gs_method method;
        enum gs_dtype weights;
        unsigned zero_stage;
        bool fsdp;
        enum gs_regime regime;
        enum gs_recompute recompute;
        enum gs_loss loss;
        bool kbit, head_16bit;
        uint32_t applied;
    } rows[] = {
        /* before 0.19: TrainingArguments' precision and checkpointing; a 4-bit model prepared */
        {"0.18", GS_METHOD_LORA, GS_DTYPE_BF16, 0, false, GS_REGIME_NONE, GS_RECOMPUTE_NONE,
         GS_LOSS_DEFAULT, false, false, SHAPE},
        {"0.18", GS_METHOD_QLORA, GS_DTYPE_INT4, 0, false, GS_REGIME_NONE, GS_RECOMPUTE_NONE,
         GS_LOSS_DEFAULT, true, false, SHAPE | GS_TRL_KBIT_PREPARED},
        {"0.18", GS_METHOD_FULL, GS_DTYPE_BF16, 0, false, GS_REGIME_BF16_PURE, GS_RECOMPUTE_NONE,
         GS_LOSS_DEFAULT, false, false, SHAPE | GS_TRL_PURE_BF16},
        {"0.18", GS_METHOD_FULL, GS_DTYPE_FP32, 0, false, GS_REGIME_NONE, GS_RECOMPUTE_NONE,
         GS_LOSS_DEFAULT, false, false, SHAPE},
        /* 0.19: bf16=True */
        {"0.19", GS_METHOD_LORA, GS_DTYPE_BF16, 0, false, GS_REGIME_AMP, GS_RECOMPUTE_NONE,
         GS_LOSS_DEFAULT, false, false, SHAPE | GS_TRL_AUTOCAST},
        {"0.21", GS_METHOD_QLORA, GS_DTYPE_INT4, 0, false, GS_REGIME_AMP, GS_RECOMPUTE_NONE,
         GS_LOSS_DEFAULT, true, true, SHAPE | GS_TRL_AUTOCAST | GS_TRL_KBIT_PREPARED},
        {"0.21", GS_METHOD_QLORA, GS_DTYPE_INT4, 3, true, GS_REGIME_BF16_PURE, GS_RECOMPUTE_NONE,
         GS_LOSS_DEFAULT, false, false, SHAPE | GS_TRL_PURE_BF16 | GS_TRL_ADAPTERS_BF16},
        {"0.21", GS_METHOD_FULL, GS_DTYPE_FP32, 0, false, GS_REGIME_AMP, GS_RECOMPUTE_NONE,
         GS_LOSS_DEFAULT, false, false, SHAPE | GS_TRL_AUTOCAST},
        /* 0.22: gradient_checkpointing=True */
        {"0.22", GS_METHOD_LORA, GS_DTYPE_BF16, 0, false, GS_REGIME_AMP, GS_RECOMPUTE_FULL,
         GS_LOSS_DEFAULT, false, false, SHAPE | GS_TRL_AUTOCAST | GS_TRL_CHECKPOINTING},
        {"0.25", GS_METHOD_QLORA, GS_DTYPE_INT4, 0, false, GS_REGIME_AMP, GS_RECOMPUTE_FULL,
         GS_LOSS_DEFAULT, true, true,
         SHAPE | GS_TRL_AUTOCAST | GS_TRL_CHECKPOINTING | GS_TRL_KBIT_PREPARED},
        /* 0.26: a quantized model's adapters cast to bf16, no preparation */
        {"0.26", GS_METHOD_QLORA, GS_DTYPE_INT4, 0, false, GS_REGIME_BF16_PURE, GS_RECOMPUTE_FULL,
         GS_LOSS_DEFAULT, false, false,
         SHAPE | GS_TRL_CHECKPOINTING | GS_TRL_PURE_BF16 | GS_TRL_ADAPTERS_BF16},
        {"1.6", GS_METHOD_LORA, GS_DTYPE_BF16, 3, false, GS_REGIME_AMP, GS_RECOMPUTE_FULL,
         GS_LOSS_DEFAULT, false, false, SHAPE | GS_TRL_AUTOCAST | GS_TRL_CHECKPOINTING},
        /* 1.7: chunked_nll; ZeRO-3 keeps a 16-bit model's adapters in its dtype (not FSDP's) */
        {"1.7", GS_METHOD_LORA, GS_DTYPE_BF16, 3, false, GS_REGIME_BF16_PURE, GS_RECOMPUTE_FULL,
         GS_LOSS_CHUNKED_NLL, false, false,
         SHAPE | GS_TRL_CHECKPOINTING | GS_TRL_CHUNKED_NLL | GS_TRL_PURE_BF16 |
             GS_TRL_ADAPTERS_BF16},
        {"1.7", GS_METHOD_LORA, GS_DTYPE_BF16, 3, true, GS_REGIME_AMP, GS_RECOMPUTE_FULL,
         GS_LOSS_CHUNKED_NLL, false, false,
         SHAPE | GS_TRL_AUTOCAST | GS_TRL_CHECKPOINTING | GS_TRL_CHUNKED_NLL},
        {"1.7", GS_METHOD_FULL, GS_DTYPE_BF16, 0, false, GS_REGIME_BF16_PURE, GS_RECOMPUTE_FULL,
         GS_LOSS_CHUNKED_NLL, false, false,
         SHAPE | GS_TRL_CHECKPOINTING | GS_TRL_CHUNKED_NLL | GS_TRL_PURE_BF16},
    };
    for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        struct gs_training t = trl_run(rows[i].release, rows[i].method);
        struct gs_parallelism par;
        gs_parallelism_defaults(&par);
        par.zero_stage = rows[i].zero_stage;
        par.fsdp = rows[i].fsdp;
        par.data = rows[i].zero_stage ? 8 : 1;
        struct gs_error err;
        gs_error_init(&err);
        assert_int_equal(gs_trl_resolve(&t, &par, rows[i].weights, &err), GS_OK);
        if (t.regime != rows[i].regime || t.recompute != rows[i].recompute ||
            t.framework.loss != rows[i].loss || t.kbit_prepared != rows[i].kbit ||
            t.kbit_head_16bit != rows[i].head_16bit || t.trl_applied != rows[i].applied ||
            t.padding != GS_PADDING_LONGEST || t.batch_size != 8 || t.sequence_length != 1024)
            fail_msg("row %zu (%s): regime %d recompute %d loss %d kbit %d/%d applied %#x", i,
                     rows[i].release, (int)t.regime, (int)t.recompute, (int)t.framework.loss,
                     (int)t.kbit_prepared, (int)t.kbit_head_16bit, (unsigned)t.trl_applied);
        /* the defaults are given now: a second call changes nothing */
        const struct gs_training once = t;
        assert_int_equal(gs_trl_resolve(&t, &par, rows[i].weights, &err), GS_OK);
        assert_memory_equal(&once, &t, sizeof(t));
    }

    /* the request's own fields stay as they are */
    struct gs_training t = trl_run("1.7", GS_METHOD_LORA);
    t.regime = GS_REGIME_FP32;
    t.recompute = GS_RECOMPUTE_NONE;
    t.recompute_given = true;
    t.framework.loss = GS_LOSS_FP32;
    t.padding = GS_PADDING_MAX_LENGTH;
    t.padding_given = true;
    t.batch_size = 2;
    t.sequence_length = 4096;
    struct gs_parallelism par;
    gs_parallelism_defaults(&par);
    struct gs_error err;
    gs_error_init(&err);
    assert_int_equal(gs_trl_resolve(&t, &par, GS_DTYPE_BF16, &err), GS_OK);
    assert_int_equal(t.regime, GS_REGIME_FP32);
    assert_int_equal(t.recompute, GS_RECOMPUTE_NONE);
    assert_int_equal(t.framework.loss, GS_LOSS_FP32);
    assert_int_equal(t.padding, GS_PADDING_MAX_LENGTH);
    assert_int_equal(t.batch_size, 2);
    assert_int_equal(t.sequence_length, 4096);
    assert_int_equal(t.trl_applied, 0);

    /* an 8-bit model prepared before 0.26 is said, not sized */
    t = trl_run("0.25", GS_METHOD_LORA);
    assert_int_equal(gs_trl_resolve(&t, &par, GS_DTYPE_INT8, &err), GS_OK);
    assert_true(t.trl_applied & GS_TRL_KBIT_8BIT);
    assert_false(t.kbit_prepared);

    /* the method as the estimate resolves it: a 4-bit base without one is QLoRA */
    t = trl_run("0.25", GS_METHOD_FULL);
    t.method_given = false;
    assert_int_equal(gs_trl_resolve(&t, &par, GS_DTYPE_INT4, &err), GS_OK);
    assert_int_equal(t.method, GS_METHOD_QLORA);
    assert_true(t.kbit_prepared);

    /* not TRL's loop */
    t = trl_run("1.7", GS_METHOD_LORA);
    t.framework.framework = GS_FW_TORCHTUNE;
    t.framework.framework_given = true;
    assert_int_equal(gs_trl_resolve(&t, &par, GS_DTYPE_BF16, &err), GS_ERR_INVALID);
    assert_string_equal(err.items[0].pointer, "/training/trl_version");

    /* not TRL at all */
    struct gs_training plain;
    memset(&plain, 0, sizeof(plain));
    gs_training_defaults(&plain);
    const struct gs_training before = plain;
    assert_int_equal(gs_trl_resolve(&plain, &par, GS_DTYPE_INT4, &err), GS_OK);
    assert_memory_equal(&before, &plain, sizeof(plain));
}

/* The dtype SFTTrainer loads a model named by its id in: fp32 from 0.27 (create_model_from_path);
 * before, from_pretrained's default, fp32 on transformers 4.x and the checkpoint's from 5.0. */
static void test_trl_model_dtype(void **state)
{
    (void)state;
    enum gs_dtype d = GS_DTYPE_COUNT;
    const char *detail = NULL, *source = NULL;
    struct gs_training t = trl_run("0.27", GS_METHOD_LORA);
    assert_true(gs_trl_model_dtype(&t, &d, &detail, &source));
    assert_int_equal(d, GS_DTYPE_FP32);
    assert_non_null(strstr(source, "create_model_from_path"));
    t = trl_run("0.26", GS_METHOD_LORA);
    assert_false(gs_trl_model_dtype(&t, &d, NULL, NULL));
    t.framework.framework_version = 502;
    assert_false(gs_trl_model_dtype(&t, &d, NULL, NULL));
    t.framework.framework_version = 457;
    assert_true(gs_trl_model_dtype(&t, &d, &detail, NULL));
    assert_int_equal(d, GS_DTYPE_FP32);
    assert_non_null(strstr(detail, "4.x"));
    memset(&t, 0, sizeof(t));
    assert_false(gs_trl_model_dtype(&t, &d, NULL, NULL));
}

/* The Llama-2-7B shape: hidden 4096, 32 layers of 32 heads, FFN 11008, vocabulary 32,000,
 * untied. */
static struct gs_model_spec llama2_7b(void)
{
    const struct gs_arch arch = fixture_llama(4096, 32, 32, 32, 11008, 32000, false);
    return fixture_spec(&arch);
}

/* LoRA r16 on q_proj and v_proj over `weights`, one sample of `sequence` tokens. */
static struct gs_workload lora_qv(enum gs_dtype weights, uint64_t sequence)
{
    struct gs_workload w = fixture_workload(GS_MODE_TRAINING);
    w.weights = weights;
    w.training.batch_size = 1;
    w.training.sequence_length = sequence;
    fixture_lora_qv(&w.training, 16);
    return w;
}

/* `w` run by TRL's SFTTrainer at `release` (major x 100 + minor), estimated into *out. */
static void trl_estimate(const struct gs_model_spec *m, struct gs_workload w, uint32_t release,
                         struct gs_estimate *out)
{
    struct gs_error err;
    gs_error_init(&err);
    w.training.trl = true;
    w.training.trl_version = release;
    assert_int_equal(gs_trl_resolve(&w.training, &w.parallelism, w.weights, &err), GS_OK);
    assert_int_equal(gs_estimate_compute(m, &w, out, &err), GS_OK);
}

/* QLoRA of the Llama-2-7B shape (hidden 4096, 32 layers, FFN 11008, vocabulary 32,000,
 * untied), 1 x 2,048, q/v adapters. PEFT's prepare_model_for_kbit_training casts every
 * parameter that is not 4-bit to fp32: the embedding and the head (2 x 32,000 x 4,096 =
 * 262,144,000) and the norms (65 x 4,096 = 266,240), 2 bytes more each: 524,820,480
 * (test_kbit_prepared). TRL 0.19-0.25 then, under bf16=True, runs peft_module_casting_to_bf16,
 * which puts modules named lm_head and embed_tokens back in bf16: the norms alone stay fp32,
 * 266,240 x 2 = 532,480 bytes over the plain QLoRA base; and the head, bf16 again, runs under
 * autocast with no 16-bit copy of its weight (test_kbit_prepared: 262,144,000 bytes from an fp32
 * head). TRL 0.18 (bf16 False) keeps the whole preparation. */
static void test_trl_kbit_head_back_to_bf16(void **state)
{
    (void)state;
    const struct gs_model_spec m = llama2_7b();
    struct gs_workload w = lora_qv(GS_DTYPE_INT4, 2048);
    w.training.method = GS_METHOD_QLORA;
    w.training.method_given = true;
    struct gs_error err;
    gs_error_init(&err);
    struct gs_estimate plain, trl25, trl18;
    struct gs_workload base = w;
    base.training.regime = GS_REGIME_AMP;
    assert_int_equal(gs_estimate_compute(&m, &base, &plain, &err), GS_OK);

    trl_estimate(&m, w, 25, &trl25);
    assert_int_equal(trl25.per_gpu.weights_bytes - plain.per_gpu.weights_bytes, 532480ULL);
    assert_int_equal(fixture_assumption(&trl25, "kbit_prepared_fp32_bytes")->value, 532480ULL);
    assert_null(fixture_assumption(&trl25, "autocast_weight_copies_bytes"));
    assert_non_null(fixture_assumption(&trl25, "trl_prepare_model_for_kbit_training"));
    assert_non_null(fixture_assumption(&trl25, "trl_autocast"));
    assert_null(fixture_assumption(&trl25, "prepare_model_for_kbit_training"));

    trl_estimate(&m, w, 18, &trl18);
    assert_int_equal(trl18.per_gpu.weights_bytes - plain.per_gpu.weights_bytes, 524820480ULL);
    assert_int_equal(fixture_assumption(&trl18, "kbit_prepared_fp32_bytes")->value, 524820480ULL);
}

/* The HF Trainer under TRL has no pipeline schedule: it spreads a model over GPUs only as
 * device_map="auto" loads it (gs_workload_device_map), in one process. LoRA over the Llama-2-7B
 * shape loaded in fp32 (27.0e9 bytes of frozen base) on two 24e9-byte GPUs, no tensor
 * parallelism, no ZeRO: only two stages hold it, a 1F1B pipeline for the generic loop and a
 * device_map for TRL's - 16 layers a GPU, no data parallelism beside it. transformers'
 * get_balanced_memory: the model's 4 x (2 x 32,000 x 4,096 + 32 x (4 x 4,096^2 + 3 x 4,096 x
 * 11,008 + 2 x 4,096) + 4,096) = 26,953,662,464 bytes / 2 plus 1.25 fp32 layers of 809,533,440
 * = 14,488,748,032 a GPU; GPU 0 keeps a layer's room, so the embedding (524,288,000) and 16
 * layers (13,476,823,040 in all; 17 would pass 14,488,748,032 - 809,533,440). TRL under
 * DeepSpeed has neither. */
static void test_trl_device_map(void **state)
{
    (void)state;
    const struct gs_model_spec m = llama2_7b();
    struct gs_workload w = lora_qv(GS_DTYPE_FP32, 512);
    w.training.recompute = GS_RECOMPUTE_FULL;
    w.training.recompute_given = true;
    struct gs_plan_gpu g;
    memset(&g, 0, sizeof(g));
    g.view.total_bytes = 24000000000ULL;
    g.gpus_per_node = 8;
    struct gs_plan_limits l;
    gs_plan_limits_defaults(&l);
    l.max_tensor = 1;
    l.zero_stages = 1u << 0;
    l.recompute = 1u << GS_RECOMPUTE_FULL;
    struct gs_demand d = {.kind = GS_DEMAND_NONE};
    struct gs_efficiency eff;
    gs_efficiency_defaults(&eff);
    struct gs_plan p;
    enum gs_plan_reject why;
    struct gs_error err;
    gs_error_init(&err);
    assert_int_equal(gs_plan_search(&m, &w, &g, &l, &d, &eff, 2, NULL, &p, &why, &err), GS_OK);
    assert_int_equal(why, GS_REJECT_NONE);
    assert_int_equal(p.pipeline, 2);
    assert_false(p.estimate.stages.split == GS_SPLIT_GIVEN);
    assert_false(p.estimate.device_map);

    struct gs_workload trl = w;
    trl.training.trl = true;
    trl.training.trl_version = 107;
    assert_int_equal(gs_trl_resolve(&trl.training, &trl.parallelism, trl.weights, &err), GS_OK);
    assert_int_equal(gs_plan_search(&m, &trl, &g, &l, &d, &eff, 2, NULL, &p, &why, &err), GS_OK);
    assert_int_equal(why, GS_REJECT_NONE);
    assert_int_equal(p.pipeline, 2);
    assert_int_equal(p.data, 1);
    assert_int_equal(p.estimate.stages.split, GS_SPLIT_GIVEN);
    assert_true(p.estimate.device_map);
    assert_int_equal(p.estimate.stages.given[0], 16);
    assert_int_equal(p.estimate.stages.given[1], 16);
    assert_non_null(fixture_assumption(&p.estimate, "device_map_pipeline"));
    assert_int_equal(fixture_assumption(&p.estimate, "device_map_balanced_bytes")->value,
                     26953662464ULL / 2 + 809533440ULL * 5 / 4);

    trl.parallelism.pipeline = 2;
    trl.parallelism.data = 2;
    struct gs_estimate e;
    gs_error_init(&err);
    assert_int_equal(gs_estimate_compute(&m, &trl, &e, &err), GS_ERR_INVALID);
    assert_string_equal(err.items[0].pointer, "/parallelism/data");
    trl.parallelism.data = 1;
    trl.training.framework.framework = GS_FW_DEEPSPEED;
    trl.training.framework.framework_given = true;
    gs_error_init(&err);
    assert_int_equal(gs_estimate_compute(&m, &trl, &e, &err), GS_ERR_INVALID);
    assert_string_equal(err.items[0].pointer, "/parallelism/pipeline");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_trl_version_parse), cmocka_unit_test(test_trl_rows),
        cmocka_unit_test(test_trl_model_dtype),   cmocka_unit_test(test_trl_kbit_head_back_to_bf16),
        cmocka_unit_test(test_trl_device_map),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
