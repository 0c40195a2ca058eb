/*
 * test_model_support.c - which engine releases load a model class (gs/model_support.h): the
 * rows for vLLM, SGLang and TensorRT-LLM against the registries cited in
 * core/src/model_support.c, the Transformers-backend rule (attention-only models may fall back,
 * recurrent ones may not), and what an estimate and a plan search answer with them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "arch_fixture.h"
#include "gs/estimate.h"
#include "gs/model_support.h"

#include <string.h>

/* google/flan-t5-small's config.json (its catalog row, db/migrations/0004_seed_models.sql) */
#define FLAN_T5_SMALL                                                                          \
    "{\"architectures\":[\"T5ForConditionalGeneration\"],\"model_type\":\"t5\",\"d_ff\":1024," \
    "\"d_model\":512,\"num_decoder_layers\":8,\"num_heads\":6,\"num_layers\":8,\"d_kv\":64,"   \
    "\"dense_act_fn\":\"gelu_new\",\"feed_forward_proj\":\"gated-gelu\",\"is_gated_act\":true," \
    "\"tie_word_embeddings\":false,\"vocab_size\":32128}"

/* What gs_model_support answers: 0 loads, 1 only through a generic backend (a warning), 2 fails
 * at startup. */
static int support(enum gs_engine engine, const struct gs_arch *a, uint32_t version)
{
    bool refuses = true;
    const char *detail = gs_model_support(engine, a, version, &refuses);
    if (detail == NULL) {
        assert_false(refuses);
        return 0;
    }
    assert_true(strlen(detail) > 0);
    return refuses ? 2 : 1;
}

/* vLLM: T5 never (registry.py has no T5ForConditionalGeneration; the Transformers backend's
 * "vLLM does not support encoder-decoder models"); Llama 3.2 Vision through 0.10.2, removed in
 * 0.11.0 with V0's encoder-decoder models (_PREVIOUSLY_SUPPORTED_MODELS "0.10.2"). */
static void test_vllm_never_and_removed(void **state)
{
    (void)state;
    const struct gs_arch t5 = fixture_arch(FLAN_T5_SMALL);
    assert_string_equal(t5.architecture, "T5ForConditionalGeneration");
    assert_int_equal(support(GS_ENGINE_VLLM, &t5, 0), 2);
    assert_int_equal(support(GS_ENGINE_VLLM, &t5, 604), 2);
    /* TensorRT-LLM's PyTorch backend builds T5 (modeling_t5 in _arch_index.py), so does
     * nothing else here answer for it */
    assert_int_equal(support(GS_ENGINE_TENSORRT_LLM, &t5, 0), 0);
    assert_int_equal(support(GS_ENGINE_SGLANG, &t5, 0), 2);
    const struct gs_arch mllama =
        fixture_arch_file("mllama/meta-llama__Llama-3.2-11B-Vision-Instruct.json");
    assert_int_equal(support(GS_ENGINE_VLLM, &mllama, 1002), 0);
    assert_int_equal(support(GS_ENGINE_VLLM, &mllama, 1100), 2);
    assert_int_equal(support(GS_ENGINE_VLLM, &mllama, 0), 2);
    bool refuses = false;
    assert_non_null(strstr(gs_model_support(GS_ENGINE_VLLM, &mllama, 1100, &refuses),
                           "was supported in vLLM until v0.10.2"));
    /* SGLang keeps it (mllama.py's EntryClass in every release read) */
    assert_int_equal(support(GS_ENGINE_SGLANG, &mllama, 0), 0);
    /* Persimmon, removed in 0.26.0 (PR #48096), is a transformers class the Transformers
     * backend may take: a warning, not a refusal */
    const struct gs_arch persimmon =
        fixture_arch("{\"architectures\":[\"PersimmonForCausalLM\"],\"model_type\":\"persimmon\","
                     "\"hidden_size\":4096,\"intermediate_size\":16384,\"num_attention_heads\":64,"
                     "\"num_hidden_layers\":36,\"vocab_size\":262144}");
    assert_int_equal(support(GS_ENGINE_VLLM, &persimmon, 2501), 0);
    assert_int_equal(support(GS_ENGINE_VLLM, &persimmon, 2600), 1);
}

/* Before the release that registered the class: an attention-only model may still run through
 * the Transformers backend (a warning) from the release that brought it; a model with recurrent
 * layers may not (that backend keeps no recurrent state). Gemma 4 is in vLLM from 0.19.0 (PR
 * #38826), Qwen3.5 (Gated DeltaNet layers) from 0.17.0 (PR #34110), Qwen3 from 0.8.4 (PR
 * #15289) and in SGLang from 0.4.6 (PR #4693), Jamba in no SGLang release through 0.5.18. */
static void test_first_release(void **state)
{
    (void)state;
    const struct gs_arch gemma4 = fixture_arch_file("gemma4/google__gemma-4-26B-A4B.json");
    assert_int_equal(support(GS_ENGINE_VLLM, &gemma4, 1801), 1);
    assert_int_equal(support(GS_ENGINE_VLLM, &gemma4, 1900), 0);
    assert_int_equal(support(GS_ENGINE_VLLM, &gemma4, 0), 0);
    const struct gs_arch qwen35 = fixture_arch_file("qwen3_5/Qwen__Qwen3.5-27B.json");
    assert_int_equal(support(GS_ENGINE_VLLM, &qwen35, 1601), 2);
    assert_int_equal(support(GS_ENGINE_VLLM, &qwen35, 1700), 0);
    assert_int_equal(support(GS_ENGINE_SGLANG, &qwen35, 508), 2);
    assert_int_equal(support(GS_ENGINE_SGLANG, &qwen35, 509), 0);
    /* the Transformers backends came with vLLM 0.7.2 (PR #11330) and SGLang 0.4.7 (PR #5929):
     * before them nothing takes an unregistered class */
    const struct gs_arch qwen3 = fixture_arch_file("qwen3/Qwen__Qwen3-8B.json");
    assert_int_equal(support(GS_ENGINE_SGLANG, &qwen3, 405), 2);
    assert_int_equal(support(GS_ENGINE_SGLANG, &qwen3, 406), 0);
    assert_int_equal(support(GS_ENGINE_VLLM, &qwen3, 701), 2);
    assert_int_equal(support(GS_ENGINE_VLLM, &qwen3, 803), 1);
    assert_int_equal(support(GS_ENGINE_VLLM, &qwen3, 804), 0);
    const struct gs_arch oss = fixture_arch_file("gpt_oss/openai__gpt-oss-20b.json");
    assert_int_equal(support(GS_ENGINE_SGLANG, &oss, 500), 1); /* from 0.5.1, PR #8824 */
    assert_int_equal(support(GS_ENGINE_SGLANG, &oss, 501), 0);
    const struct gs_arch jamba = fixture_arch_file("jamba/ai21labs__AI21-Jamba-1.5-Mini.json");
    assert_int_equal(support(GS_ENGINE_SGLANG, &jamba, 0), 2);
    assert_int_equal(support(GS_ENGINE_VLLM, &jamba, 0), 0);
}

/* DeepSeek-V4.1 has no transformers class, so no generic backend takes it before the release
 * that registered it: vLLM 0.30.0 (PRs #56214, #56228, #56208), SGLang 0.5.21 (PR #38798);
 * TensorRT-LLM's _arch_index.py has no entry in any release read (PR #19727 open). */
static void test_deepseek_v41_releases(void **state)
{
    (void)state;
    const struct gs_arch v41 =
        fixture_arch_file("deepseek_v41/deepseek-ai__DeepSeek-V4.1-Flash.json");
    assert_int_equal(support(GS_ENGINE_VLLM, &v41, 2900), 2);
    assert_int_equal(support(GS_ENGINE_VLLM, &v41, 3000), 0);
    assert_int_equal(support(GS_ENGINE_VLLM, &v41, 0), 0);
    assert_int_equal(support(GS_ENGINE_SGLANG, &v41, 520), 2);
    assert_int_equal(support(GS_ENGINE_SGLANG, &v41, 521), 0);
    assert_int_equal(support(GS_ENGINE_TENSORRT_LLM, &v41, 0), 2);
}

/* Nemotron-H: the class from vLLM 0.9.1 (PR #18863), its MoE layers (Nemotron 3) from 0.11.1
 * (NemotronHMoE, PR #25863): a release between them builds Nemotron-H 8B, not Nemotron 3 Nano. */
static void test_vllm_nemotron_h_moe(void **state)
{
    (void)state;
    const struct gs_arch dense = fixture_arch_file("nemotron_h/nvidia__Nemotron-H-8B-Base-8K.json");
    const struct gs_arch nano =
        fixture_arch_file("nemotron_h/nvidia__NVIDIA-Nemotron-3-Nano-30B-A3B-BF16.json");
    assert_int_equal(support(GS_ENGINE_VLLM, &dense, 1002), 0);
    assert_int_equal(support(GS_ENGINE_VLLM, &dense, 900), 2); /* recurrent: no fallback */
    assert_int_equal(support(GS_ENGINE_VLLM, &nano, 1002), 2);
    assert_int_equal(support(GS_ENGINE_VLLM, &nano, 1101), 0);
    assert_int_equal(support(GS_ENGINE_VLLM, &nano, 0), 0);
}

/* TensorRT-LLM's PyTorch backend (1.0 on): the classes of MODEL_ARCH_TO_MODULE, nothing else
 * (modeling_auto.py has no generic fallback); gpt-oss from 1.1 (PR #6645). The TensorRT engine
 * path before 1.0 (the 0.8 row) is not this registry's. */
static void test_trtllm_registry(void **state)
{
    (void)state;
    const struct gs_arch gemma2 = fixture_arch_file("gemma2/google__gemma-2-2b-jpn-it.json");
    assert_int_equal(support(GS_ENGINE_TENSORRT_LLM, &gemma2, 0), 2);
    assert_int_equal(support(GS_ENGINE_TENSORRT_LLM, &gemma2, 10000), 2);
    assert_int_equal(support(GS_ENGINE_TENSORRT_LLM, &gemma2, 800), 0);
    assert_int_equal(support(GS_ENGINE_VLLM, &gemma2, 0), 0);
    const struct gs_arch oss = fixture_arch_file("gpt_oss/openai__gpt-oss-20b.json");
    assert_int_equal(support(GS_ENGINE_TENSORRT_LLM, &oss, 10000), 2);
    assert_int_equal(support(GS_ENGINE_TENSORRT_LLM, &oss, 10100), 0);
    assert_int_equal(support(GS_ENGINE_TENSORRT_LLM, &oss, 0), 0);
    const struct gs_arch qwen3 = fixture_arch_file("qwen3/Qwen__Qwen3-8B.json");
    assert_int_equal(support(GS_ENGINE_TENSORRT_LLM, &qwen3, 10000), 0);
    /* a model given by its parameter count has no class to look up */
    struct gs_arch none = qwen3;
    none.architecture[0] = '\0';
    assert_int_equal(support(GS_ENGINE_TENSORRT_LLM, &none, 0), 0);
    assert_int_equal(support(GS_ENGINE_GENERIC, &gemma2, 0), 0);
    assert_int_equal(support(GS_ENGINE_TGI, &gemma2, 0), 0);
}

/* What an estimate answers: a release without the class does not start (the reason as the
 * binding, the warning unsupported_by_engine, also without a GPU); one whose Transformers
 * backend may take the model starts as sized, with the warning model_not_in_release; a plan
 * search rejects every GPU as unsupported_by_engine. */
static void test_estimate_answers(void **state)
{
    (void)state;
    const struct gs_arch t5 = fixture_arch(FLAN_T5_SMALL);
    struct gs_workload w = fixture_vllm_workload(4, 512, 1, 85899345920ULL);
    static struct gs_estimate e;
    e = fixture_estimate(&t5, &w);
    assert_true(e.has_serving);
    assert_false(e.serving.starts);
    assert_non_null(e.serving.model_refusal);
    assert_ptr_equal(e.serving.binding, e.serving.model_refusal);
    assert_true(fixture_warned(&e, "unsupported_by_engine"));
    w.gpu.total_bytes = 0;
    e = fixture_estimate(&t5, &w);
    assert_true(fixture_warned(&e, "unsupported_by_engine"));
    /* the generic engine sizes it */
    w.gpu.total_bytes = 85899345920ULL;
    w.serving.engine.engine = GS_ENGINE_GENERIC;
    e = fixture_estimate(&t5, &w);
    assert_false(fixture_warned(&e, "unsupported_by_engine"));

    const struct gs_arch gemma4 = fixture_arch_file("gemma4/google__gemma-4-26B-A4B.json");
    w = fixture_vllm_workload(4, 4096, 1, 85899345920ULL);
    w.serving.engine.version = 1801;
    e = fixture_estimate(&gemma4, &w);
    assert_true(e.serving.starts);
    assert_true(fixture_warned(&e, "model_not_in_release"));
    assert_false(fixture_warned(&e, "unsupported_by_engine"));
    w.serving.engine.version = 1900;
    e = fixture_estimate(&gemma4, &w);
    assert_false(fixture_warned(&e, "model_not_in_release"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vllm_never_and_removed),
        cmocka_unit_test(test_first_release),
        cmocka_unit_test(test_deepseek_v41_releases),
        cmocka_unit_test(test_vllm_nemotron_h_moe),
        cmocka_unit_test(test_trtllm_registry),
        cmocka_unit_test(test_estimate_answers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
