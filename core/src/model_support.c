/*
 * model_support.c - which releases of each engine load which model classes (gs/model_support.h).
 *
 * How each release was established (docs/engines.md, "Which releases load the model"):
 * - vLLM: the registry (vllm/model_executor/models/registry.py) at each final tag up to
 *   v0.10.1.1, then the newest main commit each release branch holds, and the merge dates
 *   between them; a row names the first release whose cut could follow the merge, so an
 *   uncertain cut errs towards an earlier release (no warning where one was due, never one
 *   where none is); rows a launch-day cherry-pick could move earlier (MiMo-V2-Flash, merged
 *   2025-12-19, days after 0.13.0's cut) or whose previous release's cut is not known to
 *   precede the merge (Qwen3-ASR, Qianfan-OCR, MiniCPM-V 4.6, Mellum) are left out.
 * - SGLang: the EntryClass of the model files in python/sglang/srt/models at every v0.4.x and
 *   v0.5.x tag through v0.5.18 (the last read).
 * - TensorRT-LLM: MODEL_ARCH_TO_MODULE in tensorrt_llm/_torch/models/_arch_index.py (a test,
 *   test_lazy_model_zoo.py, holds it to the @register_auto_model decorators) as of the 1.3
 *   line, and the release notes and versioned support matrices for the release that added a
 *   class; rows the notes leave between two releases take the earlier one.
 * Pure; nothing allocates.
 */
#include "gs/model_support.h"

#include <stddef.h>

#define NEVER UINT32_MAX /* no release registers it */
#define NEWEST (UINT32_MAX - 1)
#define TRTLLM_PYTORCH 10000 /* 1.0: trtllm-serve's default becomes the PyTorch backend */

/* The releases of `engine` in [from, until) register `classes` (until 0: every later one);
 * the row speaks only for releases from `scope` on (TensorRT-LLM's PyTorch backend, the
 * default from 1.0). Outside the range the engine fails at startup, or where `fallback` and
 * every layer of the model attends, a generic backend may take the class (vLLM's and SGLang's
 * Transformers backends, which keep no recurrent state). */
struct support_row {
    enum gs_engine engine;
    const char *const *classes;
    uint32_t scope, from, until;
    bool fallback;
    bool moe_only; /* the row speaks only for the class's mixture-of-experts configurations */
    const char *detail;
};

#define CLASSES(...) ((const char *const[]){__VA_ARGS__, NULL})

/* A class an engine registers from `release`; before it the engine's Transformers backend
 * (`resolver`) takes the class only where the installed transformers has it (or the config's
 * auto_map names remote code) and supports its attention interface, else startup fails. */
#define REGISTERED_FROM(engine, what, release, registry, source, resolver)                         \
    engine                                                                                         \
        " registers " what " from " release " (" registry source                                   \
        "); an earlier release runs it only where its Transformers backend takes the class (the "  \
        "installed transformers must have it and support its attention interface, and the model "  \
        "have no Mamba or linear-attention layers, whose state that backend does not "             \
        "keep: " resolver                                                                          \
        "), with memory gpusizer does not size, and otherwise fails at startup with "              \
        "'Model architectures [...] are not supported for now'; name "                             \
        "inference.engine_version " release " or later"

/* vllm/model_executor/models/registry.py ModelRegistry.inspect_model_cls: a class not in the
 * registry goes to _try_resolve_transformers (is_backend_compatible(): transformers' attention
 * interface); else _raise_for_unsupported. */
#define VLLM_FROM(what, release, source)                                                           \
    REGISTERED_FROM("vLLM", what, release, "vllm/model_executor/models/registry.py, ", source,     \
                    "_try_resolve_transformers")

/* registry.py _PREVIOUSLY_SUPPORTED_MODELS, which _raise_for_unsupported answers with "Model
 * architecture X was supported in vLLM until vN, and is not supported anymore" once the
 * Transformers backend has not taken the class: it cannot take remote code without the
 * attention interface (first-generation Qwen), Mamba or lightning-attention layers (Bamba,
 * MiniMax-Text-01), nor, as the error users of 0.11 report shows, Llama 3.2 Vision's
 * cross-attention. A removed class that backend may take is a row with `fallback`
 * (VLLM_UNTIL_FALLBACK). */
#define VLLM_UNTIL(what, last, removed, source)                                                \
    "vLLM removed " what " in " removed " (" source "): from that release the engine fails at " \
    "startup with 'Model architecture ... was supported in vLLM until v" last                   \
    ", and is not supported anymore' (registry.py _PREVIOUSLY_SUPPORTED_MODELS); name "         \
    "inference.engine_version " last " or earlier, or serve it with another engine"
#define VLLM_UNTIL_FALLBACK(what, last, removed, source)                                           \
    "vLLM removed " what " in " removed " (" source "): from that release it runs the class "      \
    "only where its Transformers backend takes it (the installed transformers must support "       \
    "its attention interface: _try_resolve_transformers), with memory gpusizer does not size, "    \
    "and otherwise fails at startup with 'Model architecture ... was supported in vLLM until "     \
    "v" last "' (registry.py _PREVIOUSLY_SUPPORTED_MODELS); name inference.engine_version " last   \
    " or earlier"

/* python/sglang/srt/model_loader/utils.py get_model_architecture: a class no model file's
 * EntryClass names goes to resolve_transformers_arch; else "Model architectures [...] are not
 * supported for now". */
#define SGLANG_FROM(what, release, source)                                                         \
    REGISTERED_FROM("SGLang", what, release, "python/sglang/srt/models, EntryClass; ", source,     \
                    "resolve_transformers_arch")

/* tensorrt_llm/_torch/models/modeling_auto.py AutoModelForCausalLM: _resolve_class rewrites
 * only EAGLE-3 and MTP draft classes, then looks architectures[0] up in MODEL_CLASS_MAPPING;
 * from_config raises "Unknown architecture for AutoModelForCausalLM" where it is missing. */
#define TRTLLM_FROM(what, release, source)                                                     \
    "TensorRT-LLM's PyTorch backend registers " what " from " release " (" source             \
    "); an earlier release fails at startup with 'Unknown architecture for "                  \
    "AutoModelForCausalLM' (_torch/models/modeling_auto.py: no generic fallback); name "       \
    "inference.engine_version " release " or later"

static const char *const trtllm_pytorch_classes[] = {
    /* MODEL_ARCH_TO_MODULE (tensorrt_llm/_torch/models/_arch_index.py) on the 1.3 line: the
     * classes trtllm-serve's default PyTorch backend builds, architectures[0] as the config
     * names it; the EAGLE-3 and MTP draft classes are reached only as drafts */
    "AfmoeForCausalLM", "BartForConditionalGeneration", "BertForSequenceClassification",
    "Cohere2ForCausalLM", "Cosmos3ForConditionalGeneration", "DeciLMForCausalLM",
    "DeepseekV32ForCausalLM", "DeepseekV3ForCausalLM", "DeepseekV4ForCausalLM",
    "Exaone4ForCausalLM", "Exaone4_5_ForConditionalGeneration", "ExaoneMoEForCausalLM",
    "Gemma3ForCausalLM", "Gemma3ForConditionalGeneration", "Gemma4AssistantForCausalLM",
    "Gemma4ForCausalLM", "Gemma4ForConditionalGeneration",
    "Gemma4UnifiedForConditionalGeneration", "Glm4MoeForCausalLM", "GlmMoeDsaForCausalLM",
    "GptOssForCausalLM", "HCXVisionForCausalLM", "HunYuanDenseV1ForCausalLM",
    "HunYuanMoEV1ForCausalLM", "KimiK25ForConditionalGeneration",
    "KimiK3ForConditionalGeneration", "KimiLinearForCausalLM", "LagunaForCausalLM",
    "Llama4ForConditionalGeneration", "LlamaForCausalLM", "LlavaLlamaModel",
    "LlavaNextForConditionalGeneration", "MBartForConditionalGeneration",
    "MiniCPMV4_6ForConditionalGeneration", "MiniMaxM2ForCausalLM", "MiniMaxM3SparseForCausalLM",
    "MiniMaxM3SparseForConditionalGeneration", "Mistral3ForConditionalGeneration",
    "MistralForCausalLM", "MistralLarge3ForCausalLM", "MixtralForCausalLM",
    "MllamaForConditionalGeneration", "NemotronForCausalLM", "NemotronHForCausalLM",
    "NemotronHPuzzleForCausalLM", "NemotronH_Nano_Omni_Reasoning_V3", "NemotronH_Nano_VL_V2",
    "Phi3ForCausalLM", "Phi4MMForCausalLM", "PixtralForConditionalGeneration",
    "Qwen2ForCausalLM", "Qwen2ForProcessRewardModel", "Qwen2ForRewardModel",
    "Qwen2MoeForCausalLM", "Qwen2VLForConditionalGeneration",
    "Qwen2_5_VLForConditionalGeneration", "Qwen3ForCausalLM", "Qwen3ForTextEmbedding",
    "Qwen3MoeForCausalLM", "Qwen3NextForCausalLM", "Qwen3VLForConditionalGeneration",
    "Qwen3VLMoeForConditionalGeneration", "Qwen3_5ForCausalLM", "Qwen3_5ForConditionalGeneration",
    "Qwen3_5MoeForCausalLM", "Qwen3_5MoeForConditionalGeneration", "SeedOssForCausalLM",
    "Starcoder2ForCausalLM", "Step3p5ForCausalLM", "Step3p7ForConditionalGeneration",
    "T5ForConditionalGeneration", "WhisperForConditionalGeneration",
    /* MiniMax-M3's text backbone as a flattened config names it (the catalog's, after NVIDIA's
     * aiconfigurator): MiniMaxM3ForCausalLM is modeling_minimaxm3's public class
     * (MODEL_CLASS_TO_MODULE), whose checkpoints register as MiniMaxM3SparseForCausalLM */
    "MiniMaxM3ForCausalLM", NULL};

static const struct support_row rows[] = {
    /* vLLM: classes it never registered and no backend of it takes */
    {GS_ENGINE_VLLM, CLASSES("T5ForConditionalGeneration"), 0, NEVER, 0, false, false,
     "vLLM has no T5 (no T5ForConditionalGeneration in vllm/model_executor/models/registry.py), "
     "and its Transformers backend refuses encoder-decoder models ('vLLM does not support "
     "encoder-decoder models', model_executor/models/transformers/base.py), so the engine fails "
     "at startup; serve it with another engine"},
    {GS_ENGINE_VLLM, CLASSES("CodeGenForCausalLM"), 0, NEVER, 0, false, false,
     "vLLM has no CodeGen (no CodeGenForCausalLM in vllm/model_executor/models/registry.py), "
     "and transformers' CodeGen computes its own attention rather than through the attention "
     "interface, so its Transformers backend does not take it (is_backend_compatible) and the "
     "engine fails at startup; serve it with another engine"},
    {GS_ENGINE_VLLM, CLASSES("ZambaForCausalLM"), 0, NEVER, 0, false, false,
     "vLLM has no Zamba (no ZambaForCausalLM in vllm/model_executor/models/registry.py; Zamba2 "
     "has its own class), and its Transformers backend keeps no recurrent state for the Mamba "
     "layers, so the engine fails at startup; serve it with another engine"},
    /* vLLM: classes it removed */
    {GS_ENGINE_VLLM, CLASSES("MllamaForConditionalGeneration"), 0, 0, 1100, false, false,
     VLLM_UNTIL("Llama 3.2 Vision (MllamaForConditionalGeneration, an encoder-decoder model of "
                "V0)",
                "0.10.2", "0.11.0", "PR #24907 with V0's encoder-decoder models")},
    {GS_ENGINE_VLLM, CLASSES("QWenLMHeadModel"), 0, 0, 2400, false, false,
     VLLM_UNTIL("the first-generation Qwen (QWenLMHeadModel, remote code)", "0.23.0", "0.24.0",
                "PR #45131")},
    {GS_ENGINE_VLLM, CLASSES("BambaForCausalLM"), 0, 0, 2400, false, false,
     VLLM_UNTIL("Bamba (BambaForCausalLM)", "0.23.0", "0.24.0", "PR #45990")},
    {GS_ENGINE_VLLM,
     CLASSES("MiniMaxForCausalLM", "MiniMaxText01ForCausalLM", "MiniMaxM1ForCausalLM"), 0, 0, 2400,
     false, false,
     VLLM_UNTIL("MiniMax-Text-01 and MiniMax-M1 (MiniMaxText01ForCausalLM and its aliases)",
                "0.23.0", "0.24.0", "PR #45993")},
    {GS_ENGINE_VLLM, CLASSES("PersimmonForCausalLM"), 0, 0, 2600, true, false,
     VLLM_UNTIL_FALLBACK("Persimmon (PersimmonForCausalLM)", "0.25.0", "0.26.0", "PR #48096")},
    /* vLLM: the release that registered the class (older classes, before 0.6.4, are not
     * listed: every release gpusizer models has them) */
    {GS_ENGINE_VLLM, CLASSES("NemotronHForCausalLM"), 0, 1101, 0, false, true,
     "vLLM builds Nemotron-H's mixture-of-experts layers (NemotronHMoE, the 'E' of "
     "hybrid_override_pattern: Nemotron 3) from 0.11.1 (vllm/model_executor/models/nemotron_h.py, "
     "PR #25863); an earlier release registers NemotronHForCausalLM without them and fails to "
     "build the model; name inference.engine_version 0.11.1 or later"},
    {GS_ENGINE_VLLM, CLASSES("Olmo2ForCausalLM"), 0, 605, 0, true, false,
     VLLM_FROM("OLMo 2 (Olmo2ForCausalLM)", "0.6.5", "PR #10503")},
    {GS_ENGINE_VLLM, CLASSES("Cohere2ForCausalLM"), 0, 605, 0, true, false,
     VLLM_FROM("Command R7B (Cohere2ForCausalLM)", "0.6.5", "PR #11203")},
    {GS_ENGINE_VLLM, CLASSES("GlmForCausalLM"), 0, 605, 0, true, false,
     VLLM_FROM("GLM-4 in transformers' format (GlmForCausalLM)", "0.6.5", "PR #10561")},
    {GS_ENGINE_VLLM, CLASSES("DeepseekV3ForCausalLM"), 0, 606, 0, true, false,
     VLLM_FROM("DeepSeek-V3 (DeepseekV3ForCausalLM)", "0.6.6", "PR #11502")},
    {GS_ENGINE_VLLM, CLASSES("InternLM3ForCausalLM"), 0, 700, 0, true, false,
     VLLM_FROM("InternLM3 (InternLM3ForCausalLM)", "0.7.0", "PR #12037")},
    {GS_ENGINE_VLLM, CLASSES("Mamba2ForCausalLM"), 0, 703, 0, true, false,
     VLLM_FROM("Mamba-2 (Mamba2ForCausalLM)", "0.7.3", "PR #9292")},
    {GS_ENGINE_VLLM, CLASSES("Gemma3ForCausalLM"), 0, 800, 0, true, false,
     VLLM_FROM("Gemma 3's text class (Gemma3ForCausalLM)", "0.8.0", "PR #14660")},
    {GS_ENGINE_VLLM, CLASSES("GraniteMoeSharedForCausalLM"), 0, 800, 0, true, false,
     VLLM_FROM("Granite MoE with shared experts (GraniteMoeSharedForCausalLM)", "0.8.0",
               "PR #13313")},
    {GS_ENGINE_VLLM, CLASSES("Zamba2ForCausalLM"), 0, 801, 0, true, false,
     VLLM_FROM("Zamba2 (Zamba2ForCausalLM)", "0.8.1", "PR #13185")},
    {GS_ENGINE_VLLM, CLASSES("Qwen3ForCausalLM", "Qwen3MoeForCausalLM"), 0, 804, 0, true, false,
     VLLM_FROM("Qwen3 (Qwen3ForCausalLM, Qwen3MoeForCausalLM)", "0.8.4", "PR #15289")},
    {GS_ENGINE_VLLM, CLASSES("Glm4ForCausalLM"), 0, 804, 0, true, false,
     VLLM_FROM("GLM-4-0414 (Glm4ForCausalLM)", "0.8.4", "PR #16338")},
    {GS_ENGINE_VLLM, CLASSES("MiMoForCausalLM"), 0, 900, 0, true, false,
     VLLM_FROM("MiMo (MiMoForCausalLM)", "0.9.0", "PR #17433")},
    {GS_ENGINE_VLLM, CLASSES("FalconH1ForCausalLM"), 0, 900, 0, true, false,
     VLLM_FROM("Falcon-H1 (FalconH1ForCausalLM)", "0.9.0", "PR #18406")},
    {GS_ENGINE_VLLM, CLASSES("GraniteMoeHybridForCausalLM"), 0, 900, 0, true, false,
     VLLM_FROM("Granite 4 (GraniteMoeHybridForCausalLM)", "0.9.0", "PR #17497")},
    {GS_ENGINE_VLLM, CLASSES("NemotronHForCausalLM"), 0, 901, 0, true, false,
     VLLM_FROM("Nemotron-H (NemotronHForCausalLM)", "0.9.1", "PR #18863")},
    {GS_ENGINE_VLLM, CLASSES("Ernie4_5_MoeForCausalLM"), 0, 902, 0, true, false,
     VLLM_FROM("ERNIE 4.5 MoE (Ernie4_5_MoeForCausalLM)", "0.9.2", "PR #20220")},
    {GS_ENGINE_VLLM, CLASSES("ArceeForCausalLM"), 0, 1000, 0, true, false,
     VLLM_FROM("Arcee AFM (ArceeForCausalLM)", "0.10.0", "PR #21296")},
    {GS_ENGINE_VLLM, CLASSES("Glm4MoeForCausalLM"), 0, 1000, 0, true, false,
     VLLM_FROM("GLM-4.5 (Glm4MoeForCausalLM)", "0.10.0", "PR #20736")},
    {GS_ENGINE_VLLM, CLASSES("GptOssForCausalLM"), 0, 1001, 0, true, false,
     VLLM_FROM("gpt-oss (GptOssForCausalLM)", "0.10.1", "PR #22327")},
    {GS_ENGINE_VLLM, CLASSES("SmolLM3ForCausalLM"), 0, 1001, 0, true, false,
     VLLM_FROM("SmolLM3 (SmolLM3ForCausalLM)", "0.10.1", "PR #22665")},
    {GS_ENGINE_VLLM, CLASSES("Ernie4_5ForCausalLM"), 0, 1001, 0, true, false,
     VLLM_FROM("ERNIE 4.5 dense under transformers' name (Ernie4_5ForCausalLM)", "0.10.1",
               "PR #21735")},
    {GS_ENGINE_VLLM, CLASSES("SeedOssForCausalLM"), 0, 1002, 0, true, false,
     VLLM_FROM("Seed-OSS (SeedOssForCausalLM)", "0.10.2", "PR #23241")},
    {GS_ENGINE_VLLM, CLASSES("ApertusForCausalLM"), 0, 1002, 0, true, false,
     VLLM_FROM("Apertus (ApertusForCausalLM)", "0.10.2", "PR #23068")},
    {GS_ENGINE_VLLM, CLASSES("Lfm2ForCausalLM"), 0, 1002, 0, true, false,
     VLLM_FROM("LFM2 (Lfm2ForCausalLM)", "0.10.2", "PR #22845")},
    {GS_ENGINE_VLLM, CLASSES("Qwen3NextForCausalLM"), 0, 1002, 0, true, false,
     VLLM_FROM("Qwen3-Next (Qwen3NextForCausalLM)", "0.10.2", "PR #24526")},
    {GS_ENGINE_VLLM, CLASSES("Olmo3ForCausalLM"), 0, 1100, 0, true, false,
     VLLM_FROM("OLMo 3 (Olmo3ForCausalLM)", "0.11.0", "PR #24534")},
    {GS_ENGINE_VLLM,
     CLASSES("Qwen3VLForConditionalGeneration", "Qwen3VLMoeForConditionalGeneration"), 0, 1100, 0,
     true, false,
     VLLM_FROM("Qwen3-VL (Qwen3VLForConditionalGeneration, Qwen3VLMoeForConditionalGeneration)",
               "0.11.0", "PR #24727")},
    {GS_ENGINE_VLLM, CLASSES("DeepseekV32ForCausalLM"), 0, 1100, 0, true, false,
     VLLM_FROM("DeepSeek-V3.2 (DeepseekV32ForCausalLM)", "0.11.0", "PR #25896")},
    {GS_ENGINE_VLLM, CLASSES("MiniMaxM2ForCausalLM"), 0, 1101, 0, true, false,
     VLLM_FROM("MiniMax-M2 (MiniMaxM2ForCausalLM)", "0.11.1", "PR #27535")},
    {GS_ENGINE_VLLM, CLASSES("KimiLinearForCausalLM"), 0, 1101, 0, true, false,
     VLLM_FROM("Kimi Linear (KimiLinearForCausalLM)", "0.11.1", "PR #27809")},
    {GS_ENGINE_VLLM, CLASSES("Lfm2MoeForCausalLM"), 0, 1101, 0, true, false,
     VLLM_FROM("LFM2-MoE (Lfm2MoeForCausalLM)", "0.11.1", "PR #26344")},
    {GS_ENGINE_VLLM, CLASSES("GlmMoeDsaForCausalLM"), 0, 1600, 0, true, false,
     VLLM_FROM("GLM-5 (GlmMoeDsaForCausalLM)", "0.16.0", "PR #34124")},
    {GS_ENGINE_VLLM, CLASSES("HrmTextForCausalLM"), 0, 2400, 0, true, false,
     VLLM_FROM("HRM-Text (HrmTextForCausalLM)", "0.24.0", "PR #43098")},
    /* no transformers class, so no Transformers backend takes it (fallback false) */
    {GS_ENGINE_VLLM, CLASSES("DeepseekV41ForCausalLM"), 0, 3000, 0, false, false,
     VLLM_FROM("DeepSeek-V4.1 (DeepseekV41ForCausalLM, vllm/models/deepseek_v41)", "0.30.0",
               "PRs #56214, #56228, #56208; the 0.30.0 release notes")},
    {GS_ENGINE_VLLM, CLASSES("WhisperForConditionalGeneration"), 0, 700, 0, true, false,
     VLLM_FROM("Whisper (WhisperForConditionalGeneration)", "0.7.0", "PR #11280")},
    {GS_ENGINE_VLLM, CLASSES("Qwen2_5_VLForConditionalGeneration"), 0, 702, 0, true, false,
     VLLM_FROM("Qwen2.5-VL (Qwen2_5_VLForConditionalGeneration)", "0.7.2",
               "commit bf3b79efb8, 2025-02-05")},
    {GS_ENGINE_VLLM, CLASSES("Gemma3ForConditionalGeneration"), 0, 800, 0, true, false,
     VLLM_FROM("Gemma 3's multimodal class (Gemma3ForConditionalGeneration)", "0.8.0",
               "PR #14660")},
    {GS_ENGINE_VLLM, CLASSES("Llama4ForConditionalGeneration"), 0, 803, 0, true, false,
     VLLM_FROM("Llama 4 (Llama4ForConditionalGeneration)", "0.8.3", "PR #16113")},
    {GS_ENGINE_VLLM, CLASSES("Mistral3ForConditionalGeneration"), 0, 803, 0, true, false,
     VLLM_FROM("Mistral Small 3.1's multimodal class (Mistral3ForConditionalGeneration)", "0.8.3",
               "PR #15505")},
    {GS_ENGINE_VLLM, CLASSES("GraniteSpeechForConditionalGeneration"), 0, 805, 0, true, false,
     VLLM_FROM("Granite Speech (GraniteSpeechForConditionalGeneration)", "0.8.5", "PR #16246")},
    {GS_ENGINE_VLLM, CLASSES("Gemma3nForConditionalGeneration"), 0, 902, 0, true, false,
     VLLM_FROM("Gemma 3n (Gemma3nForConditionalGeneration)", "0.9.2", "PR #20134")},
    {GS_ENGINE_VLLM, CLASSES("HunYuanMoEV1ForCausalLM"), 0, 902, 0, true, false,
     VLLM_FROM("Hunyuan-A13B (HunYuanMoEV1ForCausalLM)", "0.9.2", "PR #20114")},
    {GS_ENGINE_VLLM, CLASSES("Glm4vForConditionalGeneration"), 0, 902, 0, true, false,
     VLLM_FROM("GLM-4.1V (Glm4vForConditionalGeneration)", "0.9.2", "PR #19331")},
    {GS_ENGINE_VLLM, CLASSES("HunYuanDenseV1ForCausalLM"), 0, 1000, 0, true, false,
     VLLM_FROM("Hunyuan dense models (HunYuanDenseV1ForCausalLM)", "0.10.0", "PR #21368")},
    {GS_ENGINE_VLLM, CLASSES("Exaone4ForCausalLM"), 0, 1000, 0, true, false,
     VLLM_FROM("EXAONE 4.0 (Exaone4ForCausalLM)", "0.10.0", "PR #21060")},
    {GS_ENGINE_VLLM, CLASSES("VoxtralForConditionalGeneration"), 0, 1000, 0, true, false,
     VLLM_FROM("Voxtral (VoxtralForConditionalGeneration)", "0.10.0", "PR #20970")},
    {GS_ENGINE_VLLM, CLASSES("Gemma3nForCausalLM"), 0, 1001, 0, true, false,
     VLLM_FROM("Gemma 3n's text class (Gemma3nForCausalLM)", "0.10.1", "PR #20495")},
    {GS_ENGINE_VLLM, CLASSES("Glm4vMoeForConditionalGeneration"), 0, 1001, 0, true, false,
     VLLM_FROM("GLM-4.5V (Glm4vMoeForConditionalGeneration)", "0.10.1", "PR #22520")},
    {GS_ENGINE_VLLM, CLASSES("InternVLForConditionalGeneration"), 0, 1002, 0, true, false,
     VLLM_FROM("InternVL's transformers-format class (InternVLForConditionalGeneration)", "0.10.2",
               "PR #23742")},
    {GS_ENGINE_VLLM, CLASSES("Ernie4_5_VLMoeForConditionalGeneration"), 0, 1002, 0, true, false,
     VLLM_FROM("ERNIE 4.5 VL (Ernie4_5_VLMoeForConditionalGeneration)", "0.10.2", "PR #22514")},
    {GS_ENGINE_VLLM, CLASSES("BailingMoeV2ForCausalLM"), 0, 1100, 0, true, false,
     VLLM_FROM("Ling 2.0 (BailingMoeV2ForCausalLM)", "0.11.0", "PR #24627")},
    {GS_ENGINE_VLLM, CLASSES("Qwen3OmniMoeForConditionalGeneration"), 0, 1101, 0, true, false,
     VLLM_FROM("Qwen3-Omni (Qwen3OmniMoeForConditionalGeneration)", "0.11.1", "PR #25550")},
    {GS_ENGINE_VLLM, CLASSES("DeepseekOCRForCausalLM"), 0, 1101, 0, true, false,
     VLLM_FROM("DeepSeek-OCR (DeepseekOCRForCausalLM)", "0.11.1", "PR #27247")},
    {GS_ENGINE_VLLM, CLASSES("HunYuanVLForConditionalGeneration"), 0, 1200, 0, true, false,
     VLLM_FROM("HunyuanOCR (HunYuanVLForConditionalGeneration)", "0.12.0", "PR #29327")},
    {GS_ENGINE_VLLM, CLASSES("Lfm2VlForConditionalGeneration"), 0, 1400, 0, true, false,
     VLLM_FROM("LFM2-VL (Lfm2VlForConditionalGeneration)", "0.14.0", "PR #31758")},
    {GS_ENGINE_VLLM,
     CLASSES("Qwen3_5ForConditionalGeneration", "Qwen3_5MoeForConditionalGeneration"), 0, 1700, 0,
     true, false,
     VLLM_FROM("Qwen3.5 (Qwen3_5ForConditionalGeneration, Qwen3_5MoeForConditionalGeneration)",
               "0.17.0", "PR #34110")},
    {GS_ENGINE_VLLM, CLASSES("BailingMoeV2_5ForCausalLM"), 0, 1700, 0, true, false,
     VLLM_FROM("Ling 2.5 (BailingMoeV2_5ForCausalLM)", "0.17.0", "PR #35102")},
    {GS_ENGINE_VLLM, CLASSES("Gemma4ForConditionalGeneration", "Gemma4ForCausalLM"), 0, 1900, 0,
     true, false,
     VLLM_FROM("Gemma 4 (Gemma4ForConditionalGeneration, Gemma4ForCausalLM)", "0.19.0",
               "PR #38826")},
    {GS_ENGINE_VLLM, CLASSES("HYV3ForCausalLM"), 0, 2000, 0, true, false,
     VLLM_FROM("Hy3 (HYV3ForCausalLM)", "0.20.0", "PR #40681")},
    {GS_ENGINE_VLLM, CLASSES("Ministral3ForCausalLM"), 0, 2000, 0, true, false,
     VLLM_FROM("Ministral 3's text class (Ministral3ForCausalLM, onto MistralForCausalLM)",
               "0.20.0", "PR #39293")},
    {GS_ENGINE_VLLM, CLASSES("Exaone4_5_ForConditionalGeneration"), 0, 2000, 0, true, false,
     VLLM_FROM("EXAONE 4.5 (Exaone4_5_ForConditionalGeneration)", "0.20.0", "PR #39388")},
    {GS_ENGINE_VLLM, CLASSES("Granite4VisionForConditionalGeneration"), 0, 2000, 0, true, false,
     VLLM_FROM("Granite 4 Vision (Granite4VisionForConditionalGeneration)", "0.20.0", "PR #40282")},
    {GS_ENGINE_VLLM, CLASSES("MiniMaxM3SparseForConditionalGeneration"), 0, 2400, 0, true, false,
     VLLM_FROM("MiniMax-M3's multimodal class (MiniMaxM3SparseForConditionalGeneration)", "0.24.0",
               "PR #45381")},
    {GS_ENGINE_VLLM, CLASSES("InklingForConditionalGeneration", "InklingForCausalLM"), 0, 2600, 0,
     true, false,
     VLLM_FROM("Inkling (InklingForConditionalGeneration, InklingForCausalLM)", "0.26.0",
               "PR #48799")},
    {GS_ENGINE_VLLM, CLASSES("Cosmos3EdgeForConditionalGeneration"), 0, 2600, 0, true, false,
     VLLM_FROM("Cosmos 3 Edge (Cosmos3EdgeForConditionalGeneration)", "0.26.0", "PR #48291")},
    /* GLM-5.3-Flash: vllm/models/glm5next (Glm5NextForConditionalGeneration, Glm5NextForCausalLM,
     * Glm5NextMTP) came with PR #53906, open in September 2026; 0.29.0 shipped without it, and
     * 0.29.1rc1 too. The release that merged it was not read, so the row names the first whose
     * cut could follow (0.30.0): no warning where one may be due, never one where none is */
    {GS_ENGINE_VLLM, CLASSES("Glm5NextForConditionalGeneration", "Glm5NextForCausalLM"), 0, 3000, 0,
     true, false,
     VLLM_FROM("GLM-5.3-Flash (Glm5NextForConditionalGeneration, Glm5NextForCausalLM)", "0.30.0",
               "PR #53906, not in 0.29.0 or 0.29.1rc1")},
    /* DiffusionGemma: PR #45163 (merged 2026-06-12), first in 0.24.0 (vLLM's recipe for the
     * model: min_vllm_version 0.24.0); tensor parallelism came with PR #46177, in 0.25.0 */
    {GS_ENGINE_VLLM, CLASSES("DiffusionGemmaForBlockDiffusion"), 0, 2400, 0, false, false,
     VLLM_FROM("DiffusionGemma (DiffusionGemmaForBlockDiffusion)", "0.24.0",
               "PR #45163; tensor parallelism from 0.25.0, PR #46177")},
    /* Qwen3.8-Flash-Next: the vllm/models/qwen4_exp package (Qwen4ExpForConditionalGeneration,
     * Qwen4ExpForCausalLM, Qwen4ExpMTP) came with PR #53896, merged 2026-08-31; 0.29.0 is the
     * first release that holds it (vLLM's recipe for the model: min_vllm_version "0.29.0") */
    {GS_ENGINE_VLLM, CLASSES("Qwen4ExpForConditionalGeneration", "Qwen4ExpForCausalLM"), 0, 2900, 0,
     true, false,
     VLLM_FROM("Qwen3.8-Flash-Next (Qwen4ExpForConditionalGeneration, Qwen4ExpForCausalLM)",
               "0.29.0", "PR #53896")},
    /* SGLang: classes no release through 0.5.18 registered (the last read; the tags' model
     * files) that no backend of it takes: recurrent layers, whose state its Transformers backend
     * does not keep, and encoder-decoder models, which it refuses */
    {GS_ENGINE_SGLANG,
     CLASSES("MambaForCausalLM", "FalconMambaForCausalLM", "Mamba2ForCausalLM", "JambaForCausalLM",
             "BambaForCausalLM", "ZambaForCausalLM", "Zamba2ForCausalLM", "OlmoHybridForCausalLM",
             "MiniMaxForCausalLM", "MiniMaxText01ForCausalLM", "MiniMaxM1ForCausalLM",
             "BailingMoeLinearV2ForCausalLM"),
     0, NEVER, 0, false, false,
     "SGLang registers no class for this model (no EntryClass names it in python/sglang/srt/models "
     "through 0.5.18), and its Transformers backend keeps no recurrent state for the Mamba or "
     "linear-attention layers, so the engine fails at startup; serve it with vLLM"},
    /* DiffusionGemma: the launch-day runtime (PR #27823) closed unmerged and PR #34061 was still
     * open; a Transformers backend cannot run a denoising canvas */
    {GS_ENGINE_SGLANG, CLASSES("DiffusionGemmaForBlockDiffusion"), 0, NEVER, 0, false, false,
     "no SGLang release serves DiffusionGemma (its launch runtime, PR #27823, was closed "
     "unmerged; PR #34061 was open), and SGLang's Transformers backend decodes token by token, "
     "not a denoising canvas, so the engine fails at startup; serve it with vLLM 0.24.0 or later"},
    {GS_ENGINE_SGLANG, CLASSES("T5ForConditionalGeneration"), 0, NEVER, 0, false, false,
     "SGLang has no T5 (no EntryClass names T5ForConditionalGeneration in python/sglang/srt/models "
     "through 0.5.18), and its Transformers backend takes causal and encoder-only models, not "
     "encoder-decoder ones (srt/models/transformers.py), so the engine fails at startup; serve "
     "it with another engine"},
    /* SGLang: the release that registered the class (the first release tag whose model files
     * name it; older classes, in 0.4.0 already, are not listed) */
    {GS_ENGINE_SGLANG, CLASSES("GraniteForCausalLM"), 0, 401, 0, true, false,
     SGLANG_FROM("GraniteForCausalLM", "0.4.1", "PR #2437")},
    {GS_ENGINE_SGLANG, CLASSES("DeepseekV3ForCausalLM"), 0, 401, 0, true, false,
     SGLANG_FROM("DeepseekV3ForCausalLM", "0.4.1", "PR #2575")},
    {GS_ENGINE_SGLANG, CLASSES("InternLM3ForCausalLM"), 0, 402, 0, true, false,
     SGLANG_FROM("InternLM3ForCausalLM", "0.4.2", "PR #2888")},
    {GS_ENGINE_SGLANG, CLASSES("Cohere2ForCausalLM"), 0, 402, 0, true, false,
     SGLANG_FROM("Cohere2ForCausalLM", "0.4.2", "PR #3018")},
    {GS_ENGINE_SGLANG, CLASSES("Qwen2_5_VLForConditionalGeneration"), 0, 404, 0, true, false,
     SGLANG_FROM("Qwen2_5_VLForConditionalGeneration", "0.4.4", "PR #3258")},
    {GS_ENGINE_SGLANG, CLASSES("Gemma3ForCausalLM", "Gemma3ForConditionalGeneration"), 0, 405, 0,
     true, false,
     SGLANG_FROM("Gemma3ForCausalLM, Gemma3ForConditionalGeneration", "0.4.5", "PR #4424")},
    {GS_ENGINE_SGLANG, CLASSES("Llama4ForConditionalGeneration"), 0, 405, 0, true, false,
     SGLANG_FROM("Llama4ForConditionalGeneration", "0.4.5", "PR #5092")},
    {GS_ENGINE_SGLANG, CLASSES("Qwen3ForCausalLM", "Qwen3MoeForCausalLM"), 0, 406, 0, true, false,
     SGLANG_FROM("Qwen3ForCausalLM, Qwen3MoeForCausalLM", "0.4.6", "PR #4693")},
    {GS_ENGINE_SGLANG, CLASSES("BertModel"), 0, 406, 0, true, false,
     SGLANG_FROM("BertModel", "0.4.6", "PR #4887")},
    {GS_ENGINE_SGLANG, CLASSES("Mistral3ForConditionalGeneration"), 0, 407, 0, true, false,
     SGLANG_FROM("Mistral3ForConditionalGeneration", "0.4.7", "PR #5099")},
    {GS_ENGINE_SGLANG, CLASSES("InternVLChatModel"), 0, 407, 0, true, false,
     SGLANG_FROM("InternVLChatModel", "0.4.7", "PR #5350")},
    {GS_ENGINE_SGLANG, CLASSES("MiMoForCausalLM"), 0, 407, 0, true, false,
     SGLANG_FROM("MiMoForCausalLM", "0.4.7", "PR #5921")},
    {GS_ENGINE_SGLANG, CLASSES("Glm4ForCausalLM"), 0, 408, 0, true, false,
     SGLANG_FROM("Glm4ForCausalLM", "0.4.8", "PR #5485")},
    {GS_ENGINE_SGLANG, CLASSES("Gemma3nForConditionalGeneration", "Gemma3nForCausalLM"), 0, 409, 0,
     true, false,
     SGLANG_FROM("Gemma3nForConditionalGeneration, Gemma3nForCausalLM", "0.4.9", "PR #7541")},
    {GS_ENGINE_SGLANG, CLASSES("HunYuanMoEV1ForCausalLM"), 0, 409, 0, true, false,
     SGLANG_FROM("HunYuanMoEV1ForCausalLM", "0.4.9", "PR #7549")},
    {GS_ENGINE_SGLANG, CLASSES("PhiForCausalLM"), 0, 410, 0, true, false,
     SGLANG_FROM("PhiForCausalLM", "0.4.10", "PR #7862")},
    {GS_ENGINE_SGLANG, CLASSES("GraniteMoeForCausalLM"), 0, 410, 0, true, false,
     SGLANG_FROM("GraniteMoeForCausalLM", "0.4.10", "PR #7959")},
    {GS_ENGINE_SGLANG, CLASSES("PersimmonForCausalLM"), 0, 410, 0, true, false,
     SGLANG_FROM("PersimmonForCausalLM", "0.4.10", "PR #7983")},
    {GS_ENGINE_SGLANG, CLASSES("HunYuanDenseV1ForCausalLM"), 0, 410, 0, true, false,
     SGLANG_FROM("HunYuanDenseV1ForCausalLM", "0.4.10", "PR #8117")},
    {GS_ENGINE_SGLANG, CLASSES("ArceeForCausalLM"), 0, 410, 0, true, false,
     SGLANG_FROM("ArceeForCausalLM", "0.4.10", "PR #8154")},
    {GS_ENGINE_SGLANG, CLASSES("Glm4MoeForCausalLM"), 0, 410, 0, true, false,
     SGLANG_FROM("Glm4MoeForCausalLM", "0.4.10", "PR #8224")},
    {GS_ENGINE_SGLANG, CLASSES("Ernie4_5_MoeForCausalLM"), 0, 501, 0, true, false,
     SGLANG_FROM("Ernie4_5_MoeForCausalLM", "0.5.1", "PR #7657")},
    {GS_ENGINE_SGLANG, CLASSES("Glm4vForConditionalGeneration", "Glm4vMoeForConditionalGeneration"),
     0, 501, 0, true, false,
     SGLANG_FROM("Glm4vForConditionalGeneration, Glm4vMoeForConditionalGeneration", "0.5.1",
                 "PR #8798")},
    {GS_ENGINE_SGLANG, CLASSES("GptOssForCausalLM"), 0, 501, 0, true, false,
     SGLANG_FROM("GptOssForCausalLM", "0.5.1", "PR #8824")},
    {GS_ENGINE_SGLANG, CLASSES("DeciLMForCausalLM"), 0, 501, 0, true, false,
     SGLANG_FROM("DeciLMForCausalLM", "0.5.1", "PR #9067")},
    {GS_ENGINE_SGLANG, CLASSES("OPTForCausalLM"), 0, 502, 0, true, false,
     SGLANG_FROM("OPTForCausalLM", "0.5.2", "PR #10165")},
    {GS_ENGINE_SGLANG, CLASSES("Qwen3NextForCausalLM"), 0, 502, 0, true, false,
     SGLANG_FROM("Qwen3NextForCausalLM", "0.5.2", "PR #10233")},
    {GS_ENGINE_SGLANG, CLASSES("LongcatFlashForCausalLM"), 0, 502, 0, true, false,
     SGLANG_FROM("LongcatFlashForCausalLM", "0.5.2", "PR #9824")},
    {GS_ENGINE_SGLANG,
     CLASSES("Qwen3VLForConditionalGeneration", "Qwen3VLMoeForConditionalGeneration"), 0, 503, 0,
     true, false,
     SGLANG_FROM("Qwen3VLForConditionalGeneration, Qwen3VLMoeForConditionalGeneration", "0.5.3",
                 "PR #10323")},
    {GS_ENGINE_SGLANG, CLASSES("BailingMoeV2ForCausalLM"), 0, 503, 0, true, false,
     SGLANG_FROM("BailingMoeV2ForCausalLM", "0.5.3", "PR #10359")},
    {GS_ENGINE_SGLANG, CLASSES("Starcoder2ForCausalLM"), 0, 503, 0, true, false,
     SGLANG_FROM("Starcoder2ForCausalLM", "0.5.3", "PR #10609")},
    {GS_ENGINE_SGLANG, CLASSES("FalconH1ForCausalLM"), 0, 503, 0, true, false,
     SGLANG_FROM("FalconH1ForCausalLM", "0.5.3", "PR #10988")},
    {GS_ENGINE_SGLANG, CLASSES("DeepseekV32ForCausalLM"), 0, 503, 0, true, false,
     SGLANG_FROM("DeepseekV32ForCausalLM", "0.5.3", "PR #11061")},
    {GS_ENGINE_SGLANG, CLASSES("ApertusForCausalLM"), 0, 503, 0, true, false,
     SGLANG_FROM("ApertusForCausalLM", "0.5.3", "PR #9774")},
    {GS_ENGINE_SGLANG, CLASSES("NemotronHForCausalLM"), 0, 504, 0, true, false,
     SGLANG_FROM("NemotronHForCausalLM", "0.5.4", "PR #10909")},
    {GS_ENGINE_SGLANG, CLASSES("Qwen3OmniMoeForConditionalGeneration"), 0, 504, 0, true, false,
     SGLANG_FROM("Qwen3OmniMoeForConditionalGeneration", "0.5.4", "PR #10911")},
    {GS_ENGINE_SGLANG, CLASSES("Olmo3ForCausalLM"), 0, 504, 0, true, false,
     SGLANG_FROM("Olmo3ForCausalLM", "0.5.4", "PR #11396")},
    {GS_ENGINE_SGLANG, CLASSES("DeepseekOCRForCausalLM"), 0, 504, 0, true, false,
     SGLANG_FROM("DeepseekOCRForCausalLM", "0.5.4", "PR #11891")},
    {GS_ENGINE_SGLANG, CLASSES("MiniMaxM2ForCausalLM"), 0, 505, 0, true, false,
     SGLANG_FROM("MiniMaxM2ForCausalLM", "0.5.5", "PR #12129")},
    {GS_ENGINE_SGLANG, CLASSES("KimiLinearForCausalLM"), 0, 505, 0, true, false,
     SGLANG_FROM("KimiLinearForCausalLM", "0.5.5", "PR #12469")},
    {GS_ENGINE_SGLANG, CLASSES("PaddleOCRVLForConditionalGeneration"), 0, 507, 0, true, false,
     SGLANG_FROM("PaddleOCRVLForConditionalGeneration", "0.5.7", "PR #12953")},
    {GS_ENGINE_SGLANG, CLASSES("Ministral3ForCausalLM"), 0, 507, 0, true, false,
     SGLANG_FROM("Ministral3ForCausalLM", "0.5.7", "PR #14251")},
    {GS_ENGINE_SGLANG, CLASSES("MiMoV2FlashForCausalLM"), 0, 507, 0, true, false,
     SGLANG_FROM("MiMoV2FlashForCausalLM", "0.5.7", "PR #15207")},
    {GS_ENGINE_SGLANG, CLASSES("AfmoeForCausalLM"), 0, 508, 0, true, false,
     SGLANG_FROM("AfmoeForCausalLM", "0.5.8", "PR #13216")},
    {GS_ENGINE_SGLANG, CLASSES("Glm4MoeLiteForCausalLM"), 0, 508, 0, true, false,
     SGLANG_FROM("Glm4MoeLiteForCausalLM", "0.5.8", "PR #17247")},
    {GS_ENGINE_SGLANG, CLASSES("Ernie4_5_VLMoeForConditionalGeneration"), 0, 509, 0, true, false,
     SGLANG_FROM("Ernie4_5_VLMoeForConditionalGeneration", "0.5.9", "PR #15679")},
    {GS_ENGINE_SGLANG, CLASSES("Lfm2ForCausalLM"), 0, 509, 0, true, false,
     SGLANG_FROM("Lfm2ForCausalLM", "0.5.9", "PR #16890")},
    {GS_ENGINE_SGLANG, CLASSES("GlmOcrForConditionalGeneration"), 0, 509, 0, true, false,
     SGLANG_FROM("GlmOcrForConditionalGeneration", "0.5.9", "PR #17582")},
    {GS_ENGINE_SGLANG, CLASSES("KimiK25ForConditionalGeneration"), 0, 509, 0, true, false,
     SGLANG_FROM("KimiK25ForConditionalGeneration", "0.5.9", "PR #17789")},
    {GS_ENGINE_SGLANG, CLASSES("DeepseekOCR2ForCausalLM"), 0, 509, 0, true, false,
     SGLANG_FROM("DeepseekOCR2ForCausalLM", "0.5.9", "PR #17897")},
    {GS_ENGINE_SGLANG, CLASSES("Lfm2MoeForCausalLM"), 0, 509, 0, true, false,
     SGLANG_FROM("Lfm2MoeForCausalLM", "0.5.9", "PR #17997")},
    {GS_ENGINE_SGLANG, CLASSES("GraniteMoeHybridForCausalLM"), 0, 509, 0, true, false,
     SGLANG_FROM("GraniteMoeHybridForCausalLM", "0.5.9", "PR #18040")},
    {GS_ENGINE_SGLANG, CLASSES("Step3p5ForCausalLM"), 0, 509, 0, true, false,
     SGLANG_FROM("Step3p5ForCausalLM", "0.5.9", "PR #18084")},
    {GS_ENGINE_SGLANG,
     CLASSES("Qwen3_5ForConditionalGeneration", "Qwen3_5MoeForConditionalGeneration"), 0, 509, 0,
     true, false,
     SGLANG_FROM("Qwen3_5ForConditionalGeneration, Qwen3_5MoeForConditionalGeneration", "0.5.9",
                 "PR #18489")},
    {GS_ENGINE_SGLANG, CLASSES("GlmMoeDsaForCausalLM"), 0, 509, 0, true, false,
     SGLANG_FROM("GlmMoeDsaForCausalLM", "0.5.9", "PR #18521")},
    {GS_ENGINE_SGLANG, CLASSES("BailingMoeV2_5ForCausalLM"), 0, 509, 0, true, false,
     SGLANG_FROM("BailingMoeV2_5ForCausalLM", "0.5.9", "PR #18598")},
    {GS_ENGINE_SGLANG, CLASSES("GPTJForCausalLM"), 0, 509, 0, true, false,
     SGLANG_FROM("GPTJForCausalLM", "0.5.9", "PR #7839")},
    {GS_ENGINE_SGLANG, CLASSES("Exaone4ForCausalLM"), 0, 509, 0, true, false,
     SGLANG_FROM("Exaone4ForCausalLM", "0.5.9", "PR #8205")},
    {GS_ENGINE_SGLANG, CLASSES("WhisperForConditionalGeneration"), 0, 510, 0, true, false,
     SGLANG_FROM("WhisperForConditionalGeneration", "0.5.10", "PR #16983")},
    {GS_ENGINE_SGLANG, CLASSES("Lfm2VlForConditionalGeneration"), 0, 510, 0, true, false,
     SGLANG_FROM("Lfm2VlForConditionalGeneration", "0.5.10", "PR #21230")},
    {GS_ENGINE_SGLANG, CLASSES("VoxtralForConditionalGeneration"), 0, 511, 0, true, false,
     SGLANG_FROM("VoxtralForConditionalGeneration", "0.5.11", "PR #21635")},
    {GS_ENGINE_SGLANG, CLASSES("Gemma4ForConditionalGeneration", "Gemma4ForCausalLM"), 0, 511, 0,
     true, false,
     SGLANG_FROM("Gemma4ForConditionalGeneration, Gemma4ForCausalLM", "0.5.11", "PR #21952")},
    {GS_ENGINE_SGLANG, CLASSES("Qwen3ASRForConditionalGeneration"), 0, 511, 0, true, false,
     SGLANG_FROM("Qwen3ASRForConditionalGeneration", "0.5.11", "PR #22073")},
    {GS_ENGINE_SGLANG, CLASSES("HYV3ForCausalLM"), 0, 511, 0, true, false,
     SGLANG_FROM("HYV3ForCausalLM", "0.5.11", "PR #23533")},
    {GS_ENGINE_SGLANG, CLASSES("MiMoV2ForCausalLM"), 0, 511, 0, true, false,
     SGLANG_FROM("MiMoV2ForCausalLM", "0.5.11", "PR #23808")},
    {GS_ENGINE_SGLANG, CLASSES("DeepseekV4ForCausalLM"), 0, 512, 0, true, false,
     SGLANG_FROM("DeepseekV4ForCausalLM", "0.5.12", "PR #23882")},
    {GS_ENGINE_SGLANG, CLASSES("DeepseekV41ForCausalLM"), 0, 521, 0, false, false,
     SGLANG_FROM("DeepseekV41ForCausalLM", "0.5.21", "PR #38798; the 0.5.21 release notes")},
    {GS_ENGINE_SGLANG, CLASSES("LagunaForCausalLM"), 0, 512, 0, true, false,
     SGLANG_FROM("LagunaForCausalLM", "0.5.12", "PR #24204")},
    {GS_ENGINE_SGLANG, CLASSES("Gemma4AssistantForCausalLM"), 0, 512, 0, true, false,
     SGLANG_FROM("Gemma4AssistantForCausalLM", "0.5.12", "PR #24436")},
    {GS_ENGINE_SGLANG, CLASSES("MiniCPMV4_6ForConditionalGeneration"), 0, 512, 0, true, false,
     SGLANG_FROM("MiniCPMV4_6ForConditionalGeneration", "0.5.12", "PR #24855")},
    {GS_ENGINE_SGLANG, CLASSES("Cohere2MoeForCausalLM"), 0, 513, 0, true, false,
     SGLANG_FROM("Cohere2MoeForCausalLM", "0.5.13", "PR #26106")},
    {GS_ENGINE_SGLANG, CLASSES("Step3p7ForConditionalGeneration"), 0, 513, 0, true, false,
     SGLANG_FROM("Step3p7ForConditionalGeneration", "0.5.13", "PR #26565")},
    {GS_ENGINE_SGLANG,
     CLASSES("Gemma4UnifiedForConditionalGeneration", "Gemma4UnifiedAssistantForCausalLM"), 0, 513,
     0, true, false,
     SGLANG_FROM("Gemma4UnifiedForConditionalGeneration, Gemma4UnifiedAssistantForCausalLM",
                 "0.5.13", "PR #27167")},
    {GS_ENGINE_SGLANG, CLASSES("ZayaForCausalLM"), 0, 514, 0, true, false,
     SGLANG_FROM("ZayaForCausalLM", "0.5.14", "PR #26347")},
    {GS_ENGINE_SGLANG, CLASSES("HrmTextForCausalLM"), 0, 515, 0, true, false,
     SGLANG_FROM("HrmTextForCausalLM", "0.5.15", "PR #27887")},
    {GS_ENGINE_SGLANG, CLASSES("MellumForCausalLM"), 0, 516, 0, true, false,
     SGLANG_FROM("MellumForCausalLM", "0.5.16", "PR #27375")},
    {GS_ENGINE_SGLANG, CLASSES("MiniMaxM3SparseForConditionalGeneration"), 0, 516, 0, true, false,
     SGLANG_FROM("MiniMaxM3SparseForConditionalGeneration", "0.5.16", "PR #28715")},
    {GS_ENGINE_SGLANG, CLASSES("InklingForConditionalGeneration"), 0, 516, 0, true, false,
     SGLANG_FROM("InklingForConditionalGeneration", "0.5.16", "PR #31681")},
    {GS_ENGINE_SGLANG, CLASSES("Qwen3_5ForCausalLM", "Qwen3_5MoeForCausalLM"), 0, 517, 0, true,
     false, SGLANG_FROM("Qwen3_5ForCausalLM, Qwen3_5MoeForCausalLM", "0.5.17", "PR #32401")},
    {GS_ENGINE_SGLANG, CLASSES("KimiK3ForConditionalGeneration"), 0, 517, 0, true, false,
     SGLANG_FROM("KimiK3ForConditionalGeneration", "0.5.17", "PR #32541")},
    {GS_ENGINE_SGLANG, CLASSES("MuseGlimmerForConditionalGeneration"), 0, 518, 0, true, false,
     SGLANG_FROM("MuseGlimmerForConditionalGeneration", "0.5.18", "PR #34262")},
    /* GLM-5.3-Flash: models/glm5_next.py (EntryClass Glm5NextForConditionalGeneration) and
     * glm5_next_nextn.py came with PR #36507, still open on 2026-08-27 (a per-model image served
     * the launch); 0.5.20's release image holds them */
    {GS_ENGINE_SGLANG, CLASSES("Glm5NextForConditionalGeneration"), 0, 520, 0, true, false,
     SGLANG_FROM("Glm5NextForConditionalGeneration", "0.5.20", "PR #36507")},
    /* Qwen3.8-Flash-Next: models/qwen4_exp.py came with PR #37500 (after the launch's own
     * image, PR #36497), merged 2026-09-08; 0.5.20 (2026-09-18) is the first tag with it */
    {GS_ENGINE_SGLANG, CLASSES("Qwen4ExpForConditionalGeneration", "Qwen4ExpForCausalLM"), 0, 520,
     0, true, false,
     SGLANG_FROM("Qwen4ExpForConditionalGeneration, Qwen4ExpForCausalLM", "0.5.20", "PR #37500")},
    /* TensorRT-LLM's PyTorch backend: the release that registered the class (the release
     * notes' model-support lines; trtllm_pytorch_classes has every class it builds) */
    {GS_ENGINE_TENSORRT_LLM,
     CLASSES("GptOssForCausalLM", "SeedOssForCausalLM", "HunYuanDenseV1ForCausalLM",
             "HunYuanMoEV1ForCausalLM"),
     TRTLLM_PYTORCH, 10100, 0, false, false,
     TRTLLM_FROM("gpt-oss, Seed-OSS and the Hunyuan models", "1.1",
                 "release notes 1.1: PRs #6645, #7496, #7081")},
    {GS_ENGINE_TENSORRT_LLM,
     CLASSES("Qwen3NextForCausalLM", "Qwen3VLForConditionalGeneration",
             "Qwen3VLMoeForConditionalGeneration", "Starcoder2ForCausalLM"),
     TRTLLM_PYTORCH, 10100, 0, false, false,
     TRTLLM_FROM("Qwen3-Next, Qwen3-VL and StarCoder2", "1.1",
                 "none of them in 1.0's support matrix; the 1.1 and 1.2 release notes")},
    {GS_ENGINE_TENSORRT_LLM, CLASSES("Glm4MoeForCausalLM", "DeepseekV32ForCausalLM"),
     TRTLLM_PYTORCH, 10200, 0, false, false,
     TRTLLM_FROM("GLM-4.5 and DeepSeek-V3.2", "1.2", "release notes 1.2: PR #8256, #8943")},
    {GS_ENGINE_TENSORRT_LLM,
     CLASSES("Cohere2ForCausalLM", "MiniMaxM2ForCausalLM", "GlmMoeDsaForCausalLM",
             "KimiK25ForConditionalGeneration", "DeepseekV4ForCausalLM", "AfmoeForCausalLM",
             "Qwen3_5ForCausalLM", "Qwen3_5MoeForCausalLM", "Qwen3_5ForConditionalGeneration",
             "Qwen3_5MoeForConditionalGeneration", "Gemma4ForConditionalGeneration",
             "Gemma4ForCausalLM", "Gemma4UnifiedForConditionalGeneration",
             "KimiK3ForConditionalGeneration", "LagunaForCausalLM", "Step3p5ForCausalLM",
             "Step3p7ForConditionalGeneration", "MiniCPMV4_6ForConditionalGeneration",
             "Cosmos3ForConditionalGeneration", "Exaone4_5_ForConditionalGeneration",
             "MiniMaxM3SparseForCausalLM", "MiniMaxM3SparseForConditionalGeneration"),
     TRTLLM_PYTORCH, 10300, 0, false, false,
     TRTLLM_FROM("Command A, MiniMax-M2, GLM-5, Kimi K2.5, DeepSeek-V4, AFMoE, Qwen3.5, Gemma 4 "
                 "and the 2026 models after them",
                 "1.3",
                 "the 1.3 release candidates' notes: PRs #11505, #10532, #11990, #11777, "
                 "#12242; the rest published after 1.2")},
};

/* The first release with a Transformers backend that takes a class the registry lacks: vLLM
 * 0.7.2 (model_executor/models/transformers.py, PR #11330), SGLang 0.4.7 (srt/models/
 * transformers.py, PR #5929); TensorRT-LLM's PyTorch backend has none. */
static uint32_t transformers_backend_from(enum gs_engine engine)
{
    return engine == GS_ENGINE_VLLM ? 702 : engine == GS_ENGINE_SGLANG ? 407 : NEVER;
}

const char *gs_model_support(enum gs_engine engine, const struct gs_arch *arch, uint32_t version,
                             bool *refuses)
{
    *refuses = false;
    if (arch == NULL || arch->architecture[0] == '\0')
        return NULL;
    const uint32_t v = version ? version : NEWEST;
    for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        const struct support_row *r = &rows[i];
        if (r->engine != engine || v < r->scope || !gs_arch_class_in(arch, r->classes) ||
            (r->moe_only && gs_arch_moe_layers(arch) == 0))
            continue;
        if (r->from != NEVER && v >= r->from && (r->until == 0 || v < r->until))
            return NULL;
        /* a Transformers backend replaces the attention layers' cache and keeps no other: a
         * model with recurrent layers has no fallback, nor a release before that backend */
        *refuses = !(r->fallback && gs_arch_attention_only(arch) &&
                     v >= transformers_backend_from(engine));
        return r->detail;
    }
    /* AutoModelForCausalLM.from_config: a class outside MODEL_CLASS_MAPPING is refused */
    if (engine == GS_ENGINE_TENSORRT_LLM && v >= TRTLLM_PYTORCH &&
        !gs_arch_class_in(arch, trtllm_pytorch_classes)) {
        *refuses = true;
        return "TensorRT-LLM's PyTorch backend (trtllm-serve's default from 1.0) registers no "
               "class for this model (no @register_auto_model for its architectures[0]: "
               "tensorrt_llm/_torch/models/_arch_index.py) and has no generic fallback, so it "
               "fails at startup with 'Unknown architecture for AutoModelForCausalLM' "
               "(modeling_auto.py); serve it with vLLM or SGLang (the opt-in AutoDeploy backend, "
               "which builds transformers models, is not sized)";
    }
    return NULL;
}
