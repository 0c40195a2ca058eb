/* speculative.c - speculative decoding method names, and the releases from which each engine
 * builds a model's own MTP layers as a draft (see gs/speculative.h). */
#include "gs/speculative.h"

#include "gs/arch.h"
#include "gs/inference.h"

#include <stddef.h>

const char *const gs_spec_method_names[GS_SPEC_COUNT] = {"mtp",   "eagle", "eagle3", "draft_model",
                                                        "ngram", "suffix", NULL};

const char *gs_spec_method_name(enum gs_spec_method method)
{
    return method > GS_SPEC_NONE && (unsigned)method < GS_SPEC_COUNT
               ? gs_spec_method_names[method - GS_SPEC_MTP]
               : "none";
}

/* The first release of an engine whose draft code builds a class's MTP layers, read as the
 * release tags containing the commit that added its MTP model file (with its draft-type mapping in
 * the same commit), or, for a row on `quantized` checkpoints (ModelOpt FP8 and NVFP4) placed
 * before its class's general row, the one that fixed loading them. Classes not listed take every
 * release's rules. */
static const struct {
    enum gs_engine engine;
    const char *const *classes;
    bool quantized;
    uint32_t from;
    const char *name, *source;
} mtp_since[] = {
    {GS_ENGINE_VLLM, (const char *const[]){"Qwen3NextForCausalLM", NULL}, false, 1002, "0.10.2",
     "vllm/model_executor/models/qwen3_next_mtp.py, PR #24526"},
    {GS_ENGINE_VLLM,
     (const char *const[]){"Qwen3_5ForConditionalGeneration", "Qwen3_5MoeForConditionalGeneration",
                           NULL},
     false, 1700, "0.17.0", "vllm/model_executor/models/qwen3_5_mtp.py, PR #34110"},
    {GS_ENGINE_VLLM, (const char *const[]){"NemotronHForCausalLM", NULL}, false, 1700, "0.17.0",
     "vllm/model_executor/models/nemotron_h_mtp.py, PR #33726"},
    {GS_ENGINE_SGLANG, (const char *const[]){"Qwen3NextForCausalLM", NULL}, false, 502, "0.5.2",
     "python/sglang/srt/models/qwen3_next_mtp.py, PR #10233"},
    {GS_ENGINE_SGLANG,
     (const char *const[]){"Qwen3_5ForConditionalGeneration", "Qwen3_5MoeForConditionalGeneration",
                           NULL},
     false, 509, "0.5.9", "python/sglang/srt/models/qwen3_5_mtp.py, PR #18489"},
    /* NemotronHForCausalLMMTP built its predictor under the prefix "model", which the
     * checkpoints' exclude_modules ("mtp*": the MTP layers stay 16-bit) do not match, so the
     * layers were built quantized and the 16-bit weights failed to load; PR #19433 (first in
     * 0.5.10) builds them under "mtp" and parses quant_method "modelopt" with its quant_algo */
    {GS_ENGINE_SGLANG, (const char *const[]){"NemotronHForCausalLM", NULL}, true, 510, "0.5.10",
     "python/sglang/srt/models/nemotron_h_mtp.py, PR #19433: before it the MTP layers of a "
     "ModelOpt FP8 or NVFP4 checkpoint were built quantized and failed to load"},
    {GS_ENGINE_SGLANG, (const char *const[]){"NemotronHForCausalLM", NULL}, false, 508, "0.5.8",
     "python/sglang/srt/models/nemotron_h_mtp.py, PR #17013"},
};

uint32_t gs_spec_mtp_since(int engine, const struct gs_arch *target, bool quantized,
                           const char **name, const char **source)
{
    for (size_t i = 0; i < sizeof(mtp_since) / sizeof(mtp_since[0]); i++)
        if ((int)mtp_since[i].engine == engine && (quantized || !mtp_since[i].quantized) &&
            gs_arch_class_in(target, mtp_since[i].classes)) {
            *name = mtp_since[i].name;
            *source = mtp_since[i].source;
            return mtp_since[i].from;
        }
    return 0;
}
