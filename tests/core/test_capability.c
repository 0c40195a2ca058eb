/*
 * test_capability.c - the hardware capability table against its source
 * (vLLM docs/features/quantization/supported_hardware.md) and its use:
 * the estimate warns, the plan search never offers what cannot run.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "arch_fixture.h"
#include "gs/capability.h"
#include "gs/estimate.h"
#include "gs/gpu_view.h"
#include "gs/plan.h"

#include <string.h>

/* The catalog's architecture texts name the generation. */
static void test_architecture_names(void **state)
{
    (void)state;
    assert_int_equal(gs_hw_from_architecture("Hopper"), GS_HW_HOPPER);
    assert_int_equal(gs_hw_from_architecture("Ada Lovelace"), GS_HW_ADA);
    assert_int_equal(gs_hw_from_architecture("Blackwell (sm_121)"), GS_HW_BLACKWELL);
    assert_int_equal(gs_hw_from_architecture("CDNA 3"), GS_HW_CDNA3);
    assert_int_equal(gs_hw_from_architecture("Turing"), GS_HW_TURING);
    assert_int_equal(gs_hw_from_architecture("Gaudi 3"), GS_HW_GAUDI);
    assert_int_equal(gs_hw_from_architecture("something new"), GS_HW_UNKNOWN);
    assert_int_equal(gs_hw_from_architecture(NULL), GS_HW_UNKNOWN);
    /* the compute capability's major where the text names it (gs_gpu_view.sm_major) */
    const struct {
        const char *architecture;
        uint8_t major;
    } sm[] = {{"Blackwell (sm_120)", 12}, {"Blackwell Ultra (sm_103)", 10},
              {"Blackwell (sm_110)", 11}, {"Hopper", 0},
              {"Ampere (sm_86)", 8},      {"Blackwell (sm_)", 0}};
    for (size_t i = 0; i < sizeof(sm) / sizeof(sm[0]); i++) {
        const struct gs_gpu_facts f = {.architecture = sm[i].architecture, .memory_bytes = 1};
        struct gs_gpu_view v;
        gs_gpu_view_build(&f, &v);
        assert_int_equal(v.sm_major, sm[i].major);
    }
}

/* The table's rows, one assertion per cell the issue named: fp8 weights
 * need Ada/Hopper (W8A8) or Ampere's Marlin (W8A16), nothing on Turing;
 * AWQ from Turing; bf16 from Ampere; the fp8_ds_mla cache from Hopper. */
static void test_table_cells(void **state)
{
    (void)state;
    const char *rule = NULL;
    assert_false(gs_hw_runs_format(GS_HW_TURING, GS_WF_FP8, &rule));
    assert_non_null(strstr(rule, "fp8"));
    assert_true(gs_hw_runs_format(GS_HW_AMPERE, GS_WF_FP8_BLOCK, NULL));
    assert_false(gs_hw_fp8_compute(GS_HW_AMPERE));
    assert_true(gs_hw_fp8_compute(GS_HW_ADA));
    assert_true(gs_hw_fp8_compute(GS_HW_CDNA3));
    assert_false(gs_hw_runs_format(GS_HW_VOLTA, GS_WF_AWQ, NULL));
    assert_true(gs_hw_runs_format(GS_HW_TURING, GS_WF_AWQ, NULL));
    /* MXFP8: vLLM ModelOptMxFp8Config.get_min_capability 80 (Marlin) */
    assert_false(gs_hw_runs_format(GS_HW_TURING, GS_WF_MXFP8, &rule));
    assert_non_null(strstr(rule, "MXFP8"));
    assert_true(gs_hw_runs_format(GS_HW_AMPERE, GS_WF_MXFP8, NULL));
    assert_false(gs_hw_runs_format(GS_HW_CDNA3, GS_WF_MXFP8, NULL));
    assert_false(gs_hw_runs_format(GS_HW_CDNA3, GS_WF_AWQ, NULL));
    assert_true(gs_hw_runs_format(GS_HW_VOLTA, GS_WF_GPTQ, NULL));
    assert_false(gs_hw_runs_format(GS_HW_TURING, GS_WF_BF16, &rule));
    assert_non_null(strstr(rule, "8.0"));
    assert_false(gs_hw_bf16(GS_HW_VOLTA));
    assert_true(gs_hw_bf16(GS_HW_AMPERE));
    assert_false(gs_hw_runs_kv(GS_HW_AMPERE, GS_KV_FP8_DS_MLA, NULL));
    assert_true(gs_hw_runs_kv(GS_HW_HOPPER, GS_KV_FP8_DS_MLA, NULL));
    assert_false(gs_hw_runs_kv(GS_HW_TURING, GS_KV_FP8, NULL));
    assert_true(gs_hw_runs_kv(GS_HW_AMPERE, GS_KV_FP8, NULL));
    assert_false(gs_hw_runs_format(GS_HW_CDNA3, GS_WF_NF4, NULL));
    /* an unknown generation refuses nothing */
    assert_true(gs_hw_runs_format(GS_HW_UNKNOWN, GS_WF_FP8, NULL));
}

static bool warned(const struct gs_estimate *e, const char *code)
{
    for (size_t i = 0; i < e->warning_count; i++)
        if (strcmp(e->warnings[i].code, code) == 0)
            return true;
    return false;
}

/* /v1/estimate answers a combination that cannot run, with the rule: fp8 weights on a T4
 * under vLLM 0.13 (Marlin for Turing came in 0.14.0, PR #29901) or SGLang; the latest vLLM
 * runs them. */
static void test_estimate_warns(void **state)
{
    (void)state;
    const struct gs_arch arch = fixture_llama(4096, 32, 32, 8, 14336, 128256, false);
    const struct gs_model_spec m = fixture_spec(&arch);
    struct gs_workload w = fixture_workload(GS_MODE_INFERENCE);
    w.format_given = true;
    w.format = GS_WF_FP8;
    w.gpu.hw = GS_HW_TURING;
    w.serving.engine.version = 1301;
    struct gs_estimate e;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    assert_true(warned(&e, "unsupported_on_gpu"));
    w.serving.engine.engine = GS_ENGINE_SGLANG;
    w.serving.engine.version = 0;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    assert_true(warned(&e, "unsupported_on_gpu"));
    w.serving.engine.engine = GS_ENGINE_VLLM;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    assert_false(warned(&e, "unsupported_on_gpu"));
    w.gpu.hw = GS_HW_HOPPER;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    assert_false(warned(&e, "unsupported_on_gpu"));
    /* bf16 training on a V100 */
    w = fixture_workload(GS_MODE_TRAINING);
    w.gpu.hw = GS_HW_VOLTA;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    assert_true(warned(&e, "unsupported_on_gpu"));
    w.weights = GS_DTYPE_FP16;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    assert_false(warned(&e, "unsupported_on_gpu"));
}

/* TensorRT-LLM is a CUDA build: on an AMD GPU (MI300X, CDNA 3) or an Intel Gaudi it does not
 * start whatever the memory, while vLLM runs there. */
static void test_trtllm_nvidia_only(void **state)
{
    (void)state;
    const struct gs_arch arch = fixture_llama(4096, 32, 32, 8, 14336, 128256, false);
    const struct gs_model_spec m = fixture_spec(&arch);
    struct gs_workload w = fixture_vllm_workload(8, 8192, 1, 205822885888ULL); /* MI300X */
    w.gpu.hw = GS_HW_CDNA3;
    w.gpu.rocm = true;
    struct gs_estimate e;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    assert_true(e.serving.starts);
    w.serving.engine.engine = GS_ENGINE_TENSORRT_LLM;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    assert_false(e.serving.starts);
    assert_non_null(e.serving.engine_refusal);
    assert_true(warned(&e, "unsupported_by_engine"));
    w.gpu.rocm = false;
    w.gpu.hw = GS_HW_GAUDI;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    assert_false(e.serving.starts);
    w.gpu.hw = GS_HW_HOPPER;
    assert_int_equal(gs_estimate_compute(&m, &w, &e, NULL), GS_OK);
    assert_true(e.serving.starts);
}

/* The search on a T4 (Turing) with quantization allowed offers fp16 and
 * AWQ, never an fp8 cache or bf16, and fp8 weights only where the engine runs them (vLLM
 * 0.14.0 and later: Marlin for Turing); on an A100 an MLA model's
 * fp8 cache is the plain fp8 latent, not DeepSeek-V3.2's fp8_ds_mla. */
static void test_search_offers_only_what_runs(void **state)
{
    (void)state;
    const struct gs_arch arch = fixture_llama(4096, 32, 32, 8, 14336, 128256, false);
    const struct gs_model_spec m = fixture_spec(&arch);
    struct gs_workload w = fixture_workload(GS_MODE_INFERENCE);
    w.serving.present = true;
    w.serving.batch_size = 1;
    w.serving.context_length = 4096;
    w.serving.engine.engine = GS_ENGINE_VLLM;
    w.serving.engine.version = 1301;
    struct gs_plan_gpu g;
    memset(&g, 0, sizeof(g));
    g.view.total_bytes = 15655829504ULL; /* a T4's 14.58 GiB */
    g.gpus_per_node = 8;
    g.view.hw = GS_HW_TURING;
    struct gs_plan_limits l;
    gs_plan_limits_defaults(&l);
    l.allow_quantization = true;
    struct gs_demand d = {.kind = GS_DEMAND_NONE};
    struct gs_efficiency eff;
    gs_efficiency_defaults(&eff);
    struct gs_plan p;
    enum gs_plan_reject why;
    assert_int_equal(gs_plan_search(&m, &w, &g, &l, &d, &eff, 0, NULL, &p, &why, NULL), GS_OK);
    assert_int_equal(why, GS_REJECT_NONE);
    assert_true(p.format == GS_WF_FP16 || p.format == GS_WF_AWQ);
    assert_true(p.kv_dtype != GS_KV_FP8 && p.kv_dtype != GS_KV_FP8_DS_MLA);
    /* asked for fp8 weights outright, a T4 has nothing to offer */
    w.format_given = true;
    w.format = GS_WF_FP8;
    l.allow_quantization = false;
    assert_int_equal(gs_plan_search(&m, &w, &g, &l, &d, &eff, 0, NULL, &p, &why, NULL), GS_OK);
    assert_int_equal(why, GS_REJECT_UNSUPPORTED);
    /* the latest vLLM runs them on Marlin */
    w.serving.engine.version = 0;
    assert_int_equal(gs_plan_search(&m, &w, &g, &l, &d, &eff, 0, NULL, &p, &why, NULL), GS_OK);
    assert_int_equal(why, GS_REJECT_NONE);
    assert_int_equal(p.format, GS_WF_FP8);

    /* DeepSeek-V3 (MLA without the sparse indexer) on A100s: fp8 latent cache */
    const struct gs_arch ds = fixture_deepseek_v3();
    const struct gs_model_spec dm = fixture_spec(&ds);
    w = fixture_workload(GS_MODE_INFERENCE);
    w.serving.present = true;
    w.serving.batch_size = 1;
    w.serving.context_length = 4096;
    w.serving.engine.engine = GS_ENGINE_VLLM;
    g.view.total_bytes = 85100000000ULL;
    g.view.hw = GS_HW_AMPERE;
    l.allow_quantization = true;
    assert_int_equal(gs_plan_search(&dm, &w, &g, &l, &d, &eff, 0, NULL, &p, &why, NULL), GS_OK);
    assert_int_equal(why, GS_REJECT_NONE);
    assert_true(p.kv_dtype != GS_KV_FP8_DS_MLA);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_architecture_names),
        cmocka_unit_test(test_table_cells),
        cmocka_unit_test(test_estimate_warns),
        cmocka_unit_test(test_trtllm_nvidia_only),
        cmocka_unit_test(test_search_offers_only_what_runs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
