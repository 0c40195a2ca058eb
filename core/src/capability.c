/*
 * capability.c - the hardware capability table (see gs/capability.h).
 */
#include "gs/capability.h"

#include <stddef.h>
#include <string.h>

struct caps {
    const char *name;
    bool bf16;            /* vllm/platforms/cuda.py: bfloat16 needs compute capability 8.0 */
    bool fp8_compute;     /* FP8 (W8A8): Ada, Hopper (and Blackwell), AMD MI300 */
    bool fp8_weight_only; /* Marlin (GPTQ/AWQ/FP8): Ampere, Ada, Hopper - fp8 checkpoints run as
                             W8A16 on Ampere; Turing's only in vLLM 0.14 and later, which the
                             engine adds (gs_engine_runs_format) */
    bool awq, gptq, bnb, gguf;
    bool kv_fp8;          /* an fp8 KV cache: FlashInfer's fp8 KV kernels (vLLM PRs #7798, #7985)
                             from SM 8.0, ROCm on MI300 */
    bool fp8_ds_mla;      /* DeepSeek-V3.2's sparse-attention fp8 MLA cache: FlashMLA's kernels
                             for SM 9.0 and 10.0 */
    bool mxfp4;           /* gpt-oss MXFP4: Hopper/Blackwell kernels, Marlin MXFP4 on Ampere and
                             Ada, MI300 */
};

/* Rows from vLLM's docs/features/quantization/supported_hardware.md (the
 * AWQ, GPTQ, Marlin, FP8 W8A8, bitsandbytes and GGUF rows for Volta, Turing,
 * Ampere, Ada, Hopper, AMD GPU and Intel Gaudi); Blackwell as Hopper (its
 * kernels are a superset: FP8 and FP4 tensor cores); Gaudi's fp8 through
 * Intel Neural Compressor (the table's INC W8A8 row). */
static const struct caps table[GS_HW_COUNT] = {
    [GS_HW_UNKNOWN] = {"unknown", true, true, true, true, true, true, true, true, true, true},
    [GS_HW_VOLTA] = {"Volta", false, false, false, false, true, true, true, false, false, false},
    [GS_HW_TURING] = {"Turing", false, false, false, true, true, true, true, false, false, false},
    [GS_HW_AMPERE] = {"Ampere", true, false, true, true, true, true, true, true, false, true},
    [GS_HW_ADA] = {"Ada Lovelace", true, true, true, true, true, true, true, true, false, true},
    [GS_HW_HOPPER] = {"Hopper", true, true, true, true, true, true, true, true, true, true},
    [GS_HW_BLACKWELL] = {"Blackwell", true, true, true, true, true, true, true, true, true, true},
    [GS_HW_CDNA2] = {"CDNA 2", true, false, false, false, false, false, true, false, false, false},
    [GS_HW_CDNA3] = {"CDNA 3", true, true, true, false, false, false, true, true, false, true},
    [GS_HW_GAUDI] = {"Gaudi", true, true, true, false, false, false, false, true, false, false},
};

#define SOURCE " (vLLM docs/features/quantization/supported_hardware.md)"

static const struct {
    const char *needle;
    enum gs_hw hw;
} names[] = {
    {"Volta", GS_HW_VOLTA},   {"Turing", GS_HW_TURING},       {"Ampere", GS_HW_AMPERE},
    {"Ada", GS_HW_ADA},       {"Hopper", GS_HW_HOPPER},       {"Blackwell", GS_HW_BLACKWELL},
    {"CDNA 2", GS_HW_CDNA2},  {"CDNA2", GS_HW_CDNA2},         {"CDNA 3", GS_HW_CDNA3},
    {"CDNA3", GS_HW_CDNA3},   {"Gaudi", GS_HW_GAUDI},
};

enum gs_hw gs_hw_from_architecture(const char *architecture)
{
    if (architecture == NULL)
        return GS_HW_UNKNOWN;
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        if (strstr(architecture, names[i].needle) != NULL)
            return names[i].hw;
    return GS_HW_UNKNOWN;
}

static const struct caps *row(enum gs_hw hw)
{
    return &table[hw < GS_HW_COUNT ? hw : GS_HW_UNKNOWN];
}

bool gs_hw_bf16(enum gs_hw hw)
{
    return row(hw)->bf16;
}

bool gs_hw_fp8_compute(enum gs_hw hw)
{
    return row(hw)->fp8_compute;
}

static bool refuse(const char **rule, const char *why)
{
    if (rule != NULL)
        *rule = why;
    return false;
}

bool gs_hw_runs_format(enum gs_hw hw, enum gs_weight_format format, const char **rule)
{
    const struct caps *c = row(hw);
    switch (format) {
    case GS_WF_FP32:
    case GS_WF_FP16:
        return true;
    case GS_WF_BF16:
        return c->bf16 || refuse(rule, "bf16 needs compute capability 8.0 (Ampere) or newer; "
                                       "the model runs in fp16 here (vllm/platforms/cuda.py "
                                       "check_if_supports_dtype)");
    case GS_WF_FP8:
    case GS_WF_FP8_PER_CHANNEL:
    case GS_WF_FP8_BLOCK:
        return c->fp8_compute || c->fp8_weight_only ||
               refuse(rule, "fp8 weights need fp8 tensor cores (Ada, Hopper, Blackwell, MI300) or "
                            "Marlin's weight-only fp8 (Ampere; Turing in vLLM 0.14 and later)"
                            SOURCE);
    case GS_WF_AWQ:
        return c->awq || refuse(rule, "no AWQ kernels before Turing, nor on AMD or Gaudi" SOURCE);
    case GS_WF_GPTQ:
    case GS_WF_INT4:
        return c->gptq || refuse(rule, "no GPTQ kernels on AMD or Gaudi" SOURCE);
    case GS_WF_INT8:
    case GS_WF_NF4:
    case GS_WF_NF4_DQ:
        return c->bnb || refuse(rule, "bitsandbytes runs on NVIDIA GPUs only" SOURCE);
    case GS_WF_GGUF_Q4_0:
    case GS_WF_GGUF_Q4_K_M:
    case GS_WF_GGUF_Q5_K_M:
    case GS_WF_GGUF_Q6_K:
    case GS_WF_GGUF_Q8_0:
        return c->gguf || refuse(rule, "no GGUF kernels on Gaudi" SOURCE);
    case GS_WF_MXFP4:
        return c->mxfp4 || refuse(rule, "MXFP4 needs Hopper or Blackwell kernels, Marlin MXFP4 "
                                        "(Ampere, Ada) or MI300 (vLLM gpt-oss support)");
    case GS_WF_NVFP4:
        /* NVIDIA from compute capability 8.0 (the rows with both bf16 and AWQ kernels):
         * Blackwell's FP4 tensor cores, Marlin's weight-only FP4 before it (vLLM
         * quantization/utils/marlin_utils_fp4.py is_fp4_marlin_supported) */
        return (c->bf16 && c->awq) ||
               refuse(rule, "NVFP4 needs Blackwell's FP4 tensor cores or Marlin's weight-only FP4 "
                            "(NVIDIA Ampere and newer; vLLM ModelOpt NVFP4)");
    case GS_WF_MXFP8:
        /* vLLM ModelOptMxFp8Config.get_min_capability: 80 ("Marlin kernel supports MXFP8 on
         * SM80+"), NVIDIA from Ampere as for NVFP4 */
        return (c->bf16 && c->awq) ||
               refuse(rule, "MXFP8 needs NVIDIA Ampere or newer (Marlin's MXFP8 from compute "
                            "capability 8.0; vLLM ModelOpt MXFP8)");
    case GS_WF_COUNT:
        break;
    }
    return true;
}

bool gs_hw_runs_kv(enum gs_hw hw, enum gs_kv_dtype kv, const char **rule)
{
    const struct caps *c = row(hw);
    switch (kv) {
    case GS_KV_AUTO:
    case GS_KV_FP16:
    case GS_KV_INT8:
    case GS_KV_INT8_PER_TOKEN_HEAD:
        return true;
    case GS_KV_BF16:
        return c->bf16 || refuse(rule, "a bf16 KV cache needs compute capability 8.0 or newer "
                                       "(vllm/platforms/cuda.py)");
    case GS_KV_FP8:
    case GS_KV_FP8_E5M2:
    case GS_KV_FP8_PER_TOKEN_HEAD:
        return c->kv_fp8 || refuse(rule, "an fp8 KV cache needs compute capability 8.0 or newer "
                                         "(FlashInfer's fp8 KV kernels, vLLM PRs #7798 and #7985) "
                                         "or MI300");
    case GS_KV_FP8_DS_MLA:
        return c->fp8_ds_mla || refuse(rule, "the fp8_ds_mla cache needs FlashMLA's sparse "
                                             "kernels: Hopper or Blackwell");
    case GS_KV_NVFP4_DS_MLA:
        return hw == GS_HW_BLACKWELL ||
               refuse(rule, "the nvfp4_ds_mla cache needs FlashMLA's mega attention, which "
                            "decodes it only on Blackwell (compute capability 10.x)");
    case GS_KV_COUNT:
        break;
    }
    return true;
}

bool gs_hw_nvidia_before(enum gs_hw hw, enum gs_hw generation)
{
    /* the NVIDIA rows of enum gs_hw run from Volta to Blackwell in order */
    return hw >= GS_HW_VOLTA && hw <= GS_HW_BLACKWELL && hw < generation;
}
