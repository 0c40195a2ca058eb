/*
 * vllm.c - vLLM as an engine module: its KV-cache accounting by release (see
 * gs/vllm.h) and its table of operations (gs/engine.h, at the end). Each rule
 * names the vLLM code and pull request it follows; the quotes and release
 * evidence are in docs/vllm-kv-budget-research.md.
 */
#include "gs/vllm.h"

#include "gs/capability.h"
#include "gs/engine.h"
#include "gs/inference.h"
#include "gs/runtime.h"
#include "gs/units.h"
#include "gs/weights.h"

#include <stddef.h>
#include <string.h>

/* The release rows. Each row is written as its changes from the row before (the first lists
 * every field): VLLM_<release> expands to the previous row's initializers followed by its
 * own, and a later designated initializer replaces an earlier one (C11 6.7.9, paragraph
 * 19), so a new field is set once, in the first row, and a new release is one row of what
 * changed. -Wextra warns about such overrides; here they are the point, so the warning is
 * off around the tables below only. */
/* Worker.determine_num_available_blocks after PR #9352: torch's allocated peak plus
 * (device used - torch allocated), the CUDA context included. LlamaMLP still
 * `gate_up, _ = self.gate_up_proj(x)`, held through down_proj, until PR #10339 ("Reduce
 * peak memory usage of llama", 2024-11-15, landing after the 0.6.4 tag) */
#define VLLM_0_6_4 \
    .from = 604, \
    .name = "vLLM 0.6.4 (V0; peak-based accounting: everything the device holds after " \
            "profiling)", \
    .v1 = false, \
    .non_torch = GS_VLLM_NT_DEVICE, \
    .v0_chunked_tokens = 512, \
    .mla_pad = false, \
    .moe_shared_cache = false, \
    .big_gpu_seqs_1024 = false, \
    .graphs_subtracted = false, \
    .mla_workspace = GS_VLLM_MLA_WS_NONE, \
    .mtp_own_head = true, \
    .sampler_logit_bytes = 40, \
    .sampler_adds = false, \
    .sampler_random_hidden = false, \
    .v2_sampler_logit_bytes = 6, \
    .gate_up_held = true, \
    .mxfp4_triton = false, \
    .sampler_triton_scratch = false, \
    .moe_workspace_kept = false, \
    .hybrid_pages = false, \
    .prints_concurrency = false, \
    .mm_pixels_fp32 = true, \
    .mm_expand = GS_VLLM_MM_EXPAND_NONE, \
    .mm_video_text_tokens = false, \
    .vit_rotary_fp32 = true, \
    .mm_video_by_model_len = false, \
    .runner_v2 = GS_VLLM_V2_NONE, \
    .runner_v2_architectures = NULL, \
    .runner_v2_rocm_excluded = NULL, \
    .v2_mm_profile = false, \
    .v2_graphs_subtracted = false, \
    .huge_gpu_tokens = false, \
    .bitsandbytes = true, \
    .default_util_permille = 900, \
    .source = "vllm/worker/worker.py determine_num_available_blocks (PR #9352)"

/* PR #10511: memory_profiling; weights + torch peak increase + non-torch increase since a
 * baseline taken after the CUDA context */
#define VLLM_0_6_5 \
    VLLM_0_6_4, \
    .from = 605, \
    .name = "vLLM 0.6.5-0.6.6 (V0; memory_profiling, PR #10511)", \
    .non_torch = GS_VLLM_NT_GROWTH, \
    .gate_up_held = false, \
    .source = "vllm/utils.py memory_profiling (PR #10511)"

/* PRs #11809, #12126: non-torch measured against torch's reserved memory; chunked
 * prefill's default budget 2048 (SchedulerConfig._DEFAULT_MAX_NUM_BATCHED_TOKENS) */
#define VLLM_0_7_0 \
    VLLM_0_6_5, \
    .from = 700, \
    .name = "vLLM 0.7.0-0.7.1 (V0)", \
    .v0_chunked_tokens = 2048, \
    .source = "vllm/worker/worker.py determine_num_available_blocks (PRs #11809, #12126)"

/* PR #12676: MLA cache entries aligned to 256 bytes (576 -> 640 elements); removed by
 * PR #14842 */
#define VLLM_0_7_2 \
    VLLM_0_7_0, \
    .from = 702, \
    .name = "vLLM 0.7.2-0.7.3 (V0; MLA cache entries padded to 256 bytes)", \
    .mla_pad = true, \
    .source = "vllm/worker/cache_engine.py _align_cache (PR #12676)"

/* V1 the default (VLLM_USE_V1); gpu_worker.determine_available_memory a copy of the
 * device-wide V0 formula; fused_moe shares caches 1 and 3 (PR #13625) */
#define VLLM_0_8_0 \
    VLLM_0_7_2, \
    .from = 800, \
    .name = "vLLM 0.8.0-0.8.x (V1; device-wide accounting)", \
    .v1 = true, \
    .sampler_random_hidden = true, \
    .non_torch = GS_VLLM_NT_DEVICE, \
    .mla_pad = false, \
    .moe_shared_cache = true, \
    .mla_workspace = GS_VLLM_MLA_WS_V1, \
    .sampler_logit_bytes = 14, \
    .source = "vllm/v1/worker/gpu_worker.py determine_available_memory (0.8)"

/* PR #18756 (merged 2025-05-27, in 0.9.0): floating multimodal inputs cast to the model dtype
 * on the CPU before they are moved to the GPU (in the HF processor's context from PR #18862,
 * 0.9.1), so the profile's dummy pixels reach the GPU in bf16 */
#define VLLM_0_9_0 \
    VLLM_0_8_0, \
    .from = 900, \
    .name = "vLLM 0.9.0-0.9.1 (V1; multimodal inputs cast to the model dtype, PR #18756)", \
    .mm_pixels_fp32 = false, \
    .source = "vllm/v1/worker/gpu_model_runner.py (PR #18756)"

/* PRs #18974, #19312: memory_profiling in V1, its snapshot taken after NCCL is set up */
#define VLLM_0_9_2 \
    VLLM_0_9_0, \
    .from = 902, \
    .name = "vLLM 0.9.2-0.9.x (V1; memory_profiling after NCCL init, PR #19312)", \
    .non_torch = GS_VLLM_NT_GROWTH, \
    .source = "vllm/v1/worker/gpu_worker.py init_device and determine_available_memory (PR #19312)"

/* get_batch_defaults: max_num_seqs 1024 on GPUs of 70 GiB or more (first release
 * unverified; 0.19.0 logs show it); attention + Mamba hybrids on V1 through the hybrid
 * allocator (PR #20016, merged July 2025, first release taken as 0.10.0). The fused MoE as
 * read at 0.10 (gs_vllm_moe_activation_peak): VLLM_FUSED_MOE_CHUNK_SIZE chunks, the w8a8 fp8
 * copies, the data-parallel gather (FusedMoE.forward_impl, VLLM_ALL2ALL_BACKEND "naive");
 * not carried to later rows, whose MoE path was not read (PR #24462 put block-fp8 MoE on
 * DeepGEMM by default on Hopper; the modular kernel later took the caches' place) */
#define VLLM_0_10_0 \
    VLLM_0_9_2, \
    .from = 1000, \
    .name = "vLLM 0.10.0-0.10.x (V1)", \
    .big_gpu_seqs_1024 = true, \
    .hybrid_pages = true, \
    .moe_chunked_gather = true, \
    .source = "vllm/engine/arg_utils.py get_batch_defaults; vllm/v1/worker/gpu_worker.py"

/* PR #25810 (merged 2025-09-28, picked onto the 0.11.0 branch; issue reports of 0.11.0 fail at
 * its `expanded = output.new_zeros(`): profile_run copies each dummy encoder output into zeros
 * of encoder_budget rows when it has fewer, and keeps the copies in encoder_cache through the
 * text run and the sampler. PR #25557 (also in 0.11.0): Qwen3-VL's largest video is budgeted
 * at 12.5 tokens per embedding for its timestamp text (qwen3_vl.py get_max_video_tokens), so
 * its profile encodes a video. PR #25553 (merged 2025-09-24): _get_mm_dummy_batch builds the
 * dummy at max_model_len, not max_num_batched_tokens, so Qwen2-VL's video has the frames that
 * fill the context */
#define VLLM_0_11_0 \
    VLLM_0_10_0, \
    .from = 1100, \
    .name = "vLLM 0.11.0 (V1; multimodal profile outputs expanded to the encoder budget)", \
    .mm_expand = GS_VLLM_MM_EXPAND_BUDGET, \
    .mm_video_text_tokens = true, \
    .mm_video_by_model_len = true, \
    .source = "vllm/v1/worker/gpu_model_runner.py profile_run (PR #25810)"

/* NemotronHMoE's gate (models/nemotron_h.py): ReplicatedLinear(..., params_dtype=torch.float32)
 * from the class's first release (PR #25863, 0.11.1), GateLinear(..., out_dtype=torch.float32,
 * force_fp32_compute=True) from PR #35121 (0.17.0); the MTP draft's MoE layers build the same
 * class */
static const char *const nemotron_h_router[] = {"NemotronHForCausalLM", NULL};

/* PR #26859 (merged 2025-10-14, after 0.11.0): FlashInfer's top-k/top-p sampling opt-in
 * (VLLM_USE_FLASHINFER_SAMPLER), so the dummy sampler takes forward_native's sort path,
 * whose peak is torch.sort itself: bf16 and fp32 logits, the sorted values and int64
 * indices, and SortStable.cu's segmented radix sort temporaries (an int64 iota and cub's
 * alternate key and value buffers, 20 B) = 38 B per element. Qwen's vision attention without
 * the fp32 rotary copies (Qwen2_5_VisionAttention with ApplyRotaryEmb's Triton kernel on bf16
 * cos/sin tables): the rewrite's release was not established; it is taken with PR #28271
 * (0.11.1), which removed the QKV gather beside it */
#define VLLM_0_11_1 \
    VLLM_0_11_0, \
    .from = 1101, \
    .name = "vLLM 0.11.1-0.11.x (V1; PyTorch sort-based top-k/top-p sampler)", \
    .router_fp32_classes = nemotron_h_router, \
    .sampler_logit_bytes = 38, \
    .moe_chunked_gather = false, \
    .vit_rotary_fp32 = false, \
    .source = "vllm/v1/sample/ops/topk_topp_sampler.py (PR #26859)"

/* PR #28788 made triton_kernels a default dependency ("After we landed triton_kernels as a
 * default dep in #28788", PR #29339, 2025-11-24), so MXFP4 MoE on Hopper takes the Triton
 * backend; first release taken as 0.12.0. vLLM 0.10.1 logs Marlin on an H100 (issue #23278),
 * 0.14.1 "Using Triton backend" (issue #33155). */
#define VLLM_0_12_0 \
    VLLM_0_11_1, \
    .from = 1200, \
    .name = "vLLM 0.12.0-0.13.x (V1; sort-based sampler, triton_kernels for MXFP4 on Hopper)", \
    .mxfp4_triton = true, \
    .mm_expand = GS_VLLM_MM_EXPAND_ITEM, \
    .source = "vllm/model_executor/layers/quantization/mxfp4.py get_mxfp4_backend (PR #28788)"

/* PR #30475 (merged 2025-12-16, after the 0.13.0 cut): the encoder cache holds embeddings only,
 * so profile_run keeps the dummy outputs as they are (encoder_cache[f"tmp_{i}"] = output), and
 * Qwen3-VL's video is budgeted by its embeddings (no x 12.5) */
#define VLLM_0_14_0 \
    VLLM_0_12_0, \
    .from = 1400, \
    .name = "vLLM 0.14.0-0.16.x (V1; encoder cache by embeddings, PR #30475)", \
    .mm_expand = GS_VLLM_MM_EXPAND_NONE, \
    .mm_video_text_tokens = false, \
    .source = "vllm/v1/worker/gpu_model_runner.py profile_run (PR #30475)"

/* PR #34385: speculative mtp shares the target's head with the MTP layers
 * (llm_base_proposer.py _maybe_share_lm_head: "MTP models call compute_logits via
 * shared_head.head ... Always share it explicitly"); PR #33538 (merged 2026-02-17, first
 * release taken as 0.17 like #34385): top-k/top-p in place by a Triton kernel for
 * batches of 8 or more, so the sampler's peak is logits, fp32 logits, probs and q; the
 * fused-MoE workspaces live in v1/worker/workspace.py's global WorkspaceManager (grown to
 * the largest request, never freed; the 0.19 MoE logs show it beside the sampler - its
 * first release is not established, so it is charged from this row) */
#define VLLM_0_17_0 \
    VLLM_0_14_0, \
    .from = GS_VLLM_MTP_SHARED_HEAD, \
    .name = "vLLM 0.17.0-0.18.x (V1; MTP layers share the target's head)", \
    .mtp_own_head = false, \
    .router_fp32_classes = NULL, \
    .gate_linear_classes = nemotron_h_router, \
    .sampler_logit_bytes = 14, \
    .sampler_triton_scratch = true, \
    .moe_workspace_kept = true, \
    .source = "vllm/engine/arg_utils.py get_batch_defaults; " \
              "vllm/v1/spec_decode/llm_base_proposer.py (PR #34385)"

/* PR #38270 (merged 2026-03-26; 0.19.0, released 2026-04-03, 448 commits on 0.18): a model with
 * Mamba layers and full CUDA graphs raises "max_num_seqs (N) exceeds available Mamba cache
 * blocks (B). Each decode sequence requires one Mamba cache block, so CUDA graph capture cannot
 * proceed" when max_num_seqs is above the pool's blocks (config/compilation.py; vLLM CI saw it
 * on Qwen3.5-397B, PR #38632; recipes PR #551 on Qwen3.6-27B-FP8 on one H100, 1,024 over 856;
 * issue #49064 on 0.28.0, 1,024 over 969). 0.17-0.18 capped the capture sizes to the blocks
 * (PR #34571) and started. */
#define VLLM_0_19_0 \
    VLLM_0_17_0, \
    .from = 1900, \
    .name = "vLLM 0.19.0-0.20.x (V1; MTP layers share the target's head; a hybrid's " \
            "max_num_seqs at most its blocks, PR #38270)", \
    .mamba_seqs_bounded = true, \
    .source = "vllm/engine/arg_utils.py get_batch_defaults; vllm/config/compilation.py " \
              "(PR #38270)"

/* PR #38284: the CUDA-graph memory estimate subtracted by default, utilization 0.92;
 * kv_cache_utils.py _report_kv_cache_config prints int(max concurrency x max_model_len) as
 * the "GPU KV cache size" (the fix discussed in PRs #38364 and #40694 for issue #40691;
 * issue #43308 shows Gemma 4's printed size rising about tenfold from 0.20 to 0.21 with the
 * same memory) */
/* 0.21.0 also serves Gemma 4's assistants as mtp drafters (vllm/model_executor/models/
 * gemma4_mtp.py, v1/spec_decode/gemma4.py; PR #41745, which 0.20.1 lacks: issue #42005, and
 * reported working on 0.21.0 in PR #42180's discussion) */
#define VLLM_0_21_0 \
    VLLM_0_19_0, \
    .from = 2100, \
    .name = "vLLM 0.21.0 on (V1; CUDA-graph estimate subtracted, utilization default 0.92)", \
    .graphs_subtracted = true, \
    .prints_concurrency = true, \
    .mtp_assistants = true, \
    .default_util_permille = 920, \
    .source = "vllm/v1/worker/gpu_worker.py determine_available_memory (PRs #30515, #38284)"

/* Model Runner V2 by class name before 0.25 (vllm/config/vllm.py
 * DEFAULT_V2_MODEL_RUNNER_ARCHITECTURES, matched against every entry of the config's
 * architectures; runner_type "generate"). Its profile_cudagraph_memory returns 0 and its
 * profile_run encodes no multimodal dummy, as from 0.25 (below). The release notes say each
 * step: 0.22.0 (2026-05-29) "MRv2 is now default for Qwen3 dense models" (PR #39337, merged
 * 2026-05-14; not MoE, not quantized); 0.23.0 (2026-06-15) "for Llama and Mistral dense
 * models (#43458) in addition to Qwen3"; 0.24.0 (2026-06-29) "supports quantized models by
 * default (#44446), enables GraniteMoE by default (#45461), and gained migration of Qwen +
 * DeepSeek-V2 MoE models (#42667)", the MoE and quantization checks gone. */
static const char *const v2_qwen3[] = {"Qwen3ForCausalLM", NULL};
static const char *const v2_dense_0_23[] = {"LlamaForCausalLM", "MistralForCausalLM",
                                            "Qwen3ForCausalLM", NULL};
static const char *const v2_0_24[] = {"Qwen3ForCausalLM",      "DeepseekV2ForCausalLM",
                                      "Qwen2MoeForCausalLM",   "GraniteMoeForCausalLM",
                                      "LlamaForCausalLM",      "MistralForCausalLM",
                                      NULL};

#define VLLM_0_22_0 \
    VLLM_0_21_0, \
    .from = 2200, \
    .name = "vLLM 0.22.0 (Qwen3 dense models on Model Runner V2 by default, PR #39337)", \
    .runner_v2 = GS_VLLM_V2_LISTED_PLAIN, \
    .runner_v2_architectures = v2_qwen3, \
    .source = "vllm/config/vllm.py use_v2_model_runner, DEFAULT_V2_MODEL_RUNNER_ARCHITECTURES " \
              "(PR #39337)"

/* 0.23.0: Step 3.5's MTP layers each keep their own head (v1/spec_decode/step3p5.py
 * Step3p5MTPProposer._maybe_share_lm_head returns without sharing: every depth's
 * shared_head.output differs from the model's head); the proposer is absent from 0.22.1's
 * documentation and named in 0.23.0's, its PR not found */
static const char *const step_mtp_classes[] = {"Step3p5ForCausalLM",
                                               "Step3p7ForConditionalGeneration", NULL};

#define VLLM_0_23_0 \
    VLLM_0_22_0, \
    .from = 2300, \
    .name = "vLLM 0.23.0 (Llama, Mistral and Qwen3 dense models on Model Runner V2 by " \
            "default, PR #43458)", \
    .runner_v2_architectures = v2_dense_0_23, \
    .mtp_own_head_classes = step_mtp_classes, \
    .source = "vllm/config/vllm.py DEFAULT_V2_MODEL_RUNNER_ARCHITECTURES (PR #43458); " \
              "vllm/v1/spec_decode/step3p5.py"

#define VLLM_0_24_0 \
    VLLM_0_23_0, \
    .from = 2400, \
    .name = "vLLM 0.24.0 (Model Runner V2 by class name for Llama, Mistral, Qwen3, " \
            "DeepSeek-V2, Qwen2-MoE and Granite-MoE, quantized or not)", \
    .runner_v2 = GS_VLLM_V2_LISTED, \
    .runner_v2_architectures = v2_0_24, \
    .source = "vllm/config/vllm.py DEFAULT_V2_MODEL_RUNNER_ARCHITECTURES (PRs #42667, #44446, " \
              "#45461)"

/* PR #44443 (merged 2026-07-02, after the 0.24.0 release): Model Runner V2 the default for
 * every dense generating model (vllm/config/vllm.py _is_default_v2_model_runner_model: runner
 * type "generate"; a hybrid model only when listed; attention-free ones on V1; otherwise
 * listed or not MoE), the MoE classes 0.24 listed kept in DEFAULT_V2_MODEL_RUNNER_ARCHITECTURES;
 * its profile_cudagraph_memory returns 0 ("It is TBD whether we keep this API", until PR
 * #53306, 0.29) and its profile_run encodes no multimodal dummy (until PR #47985, 0.27).
 * Issue #49224: a dense model that started on 0.23 runs out of memory capturing its graphs on
 * 0.25.1 */
static const char *const v2_moe_0_25[] = {"DeepseekV2ForCausalLM", "Qwen2MoeForCausalLM",
                                          "GraniteMoeForCausalLM", NULL};

#define VLLM_0_25_0 \
    VLLM_0_24_0, \
    .from = 2500, \
    .name = "vLLM 0.25.0-0.26.x (dense models and three MoE classes on Model Runner V2 by " \
            "default, PR #44443)", \
    .runner_v2 = GS_VLLM_V2_DENSE, \
    .runner_v2_architectures = v2_moe_0_25, \
    .source = "vllm/config/vllm.py use_v2_model_runner, _is_default_v2_model_runner_model " \
              "(PR #44443); vllm/v1/worker/gpu/model_runner.py profile_cudagraph_memory"

/* PR #47985 (merged 2026-07-21, in 0.27.0 of 2026-08-11): V2's profile_run builds a
 * MultiModalBudget and runs the encoder on its dummy batch before the text dummy run, as
 * V1's does (vllm/v1/worker/gpu/model_runner.py profile_run) */
#define VLLM_0_27_0 \
    VLLM_0_25_0, \
    .from = 2700, \
    .name = "vLLM 0.27.x (Model Runner V2 profiles the multimodal dummy, PR #47985)", \
    .v2_mm_profile = true, \
    .source = "vllm/v1/worker/gpu/model_runner.py profile_run (PR #47985)"

/* 0.28.0 (tag 2cf0a69, 2026-08-24; released 2026-08-26):
 * - prefix caching on by default for hybrid models, "align" their default mamba_cache_mode
 *   (PR #50991, merged 2026-08-04: default_prefix_caching = is_prefix_caching_supported, the
 *   `and not is_hybrid` gone; vllm-metal's issue #645 places it in 0.28.0). Attention-free
 *   models keep it off (ModelConfig.is_prefix_caching_supported). Align for every hybrid class,
 *   the Mamba families that declare SupportsMambaPrefixCaching too, is the PR's description
 *   ("change the default mode to align"; 0.28.x logs show it for Qwen3.5 and LFM2.5, none was
 *   found for a Mamba-2 hybrid), and mode "all" is deprecated in the nightlies after 0.28;
 * - get_batch_defaults: a tier for GPUs of 160 GiB or more ("for GPUs like B200/B300"), where
 *   vllm serve profiles 16,384 tokens (PR #51726; it gates on the capacity alone, so MI300X and
 *   MI325X fall in it too, vLLM issue #53961); its LLM-class and max_num_seqs values were not
 *   read and are taken as the 70 GiB tier's (16,384 and 1,024);
 * - the bitsandbytes loader and quantization method are removed
 *   (model_loader/bitsandbytes_loader.py and layers/quantization/bitsandbytes.py are in the
 *   0.27.0 tag and not in 0.28.0's);
 * - Model Runner V2 takes DeepSeek-V4 on CUDA GPUs (PRs #51768, #52401: ROCm keeps it on V1)
 *   and Kimi-K3 (the 0.28.0 notes, PR #51653: on ROCm too). */
static const char *const v2_moe_0_28[] = {"DeepseekV2ForCausalLM",
                                          "Qwen2MoeForCausalLM",
                                          "GraniteMoeForCausalLM",
                                          "DeepseekV4ForCausalLM",
                                          "KimiK3ForConditionalGeneration",
                                          NULL};
static const char *const v2_rocm_0_28[] = {"DeepseekV4ForCausalLM", NULL};

#define VLLM_0_28_0 \
    VLLM_0_27_0, \
    .from = 2800, \
    .name = "vLLM 0.28.x (16,384 profile tokens on GPUs of 160 GiB or more, PR #51726; no " \
            "bitsandbytes)", \
    .huge_gpu_tokens = true, \
    .bitsandbytes = false, \
    .hybrid_prefix_caching = true, \
    .v2_sampler_logit_bytes = 2, \
    .runner_v2_architectures = v2_moe_0_28, \
    .runner_v2_rocm_excluded = v2_rocm_0_28, \
    .source = "vllm/engine/arg_utils.py get_batch_defaults (PR #51726); vllm/config/vllm.py " \
              "DEFAULT_V2_MODEL_RUNNER_ARCHITECTURES (PRs #51768, #52401, #51653)"

/* 0.29.0 (2026-09-09): "MRV2 is now the default runner for all models" (PR #53183): every
 * model but DeepSeek-V3.2, DeepSeek-V4 and GLM-5's sparse-attention class on ROCm and the
 * features V2 lacks (vllm/config/vllm.py use_v2_model_runner,
 * _get_v2_model_runner_unsupported_features); and V2 reserves its CUDA graphs before sizing
 * the pool (PR #53306 with #53682, vllm/v1/worker/gpu/cudagraph_utils.py
 * profile_cudagraph_memory: every PIECEWISE graph captured and measured, FULL graphs as the
 * largest one plus (count - 1) x the second's measured cost, at least 1 MiB), subtracted by
 * gpu_worker.determine_available_memory as V1's is. Nothing in 0.30.0 (2026-09) was found to
 * change the budget. */
static const char *const v2_rocm_0_29[] = {"DeepseekV32ForCausalLM", "DeepseekV4ForCausalLM",
                                           "GlmMoeDsaForCausalLM", NULL};

#define VLLM_0_29_0 \
    VLLM_0_28_0, \
    .from = 2900, \
    .name = "vLLM 0.29.0-0.30.x (every model on Model Runner V2, which subtracts its " \
            "CUDA-graph estimate, PRs #53183 and #53306)", \
    .runner_v2 = GS_VLLM_V2_ALL, \
    .runner_v2_architectures = NULL, \
    .runner_v2_rocm_excluded = v2_rocm_0_29, \
    .v2_graphs_subtracted = true, \
    .source = "vllm/config/vllm.py use_v2_model_runner (PR #53183); " \
              "vllm/v1/worker/gpu/cudagraph_utils.py profile_cudagraph_memory (PRs #53306, " \
              "#53682)"

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Woverride-init"
static const struct gs_vllm_release releases[] = {
    {VLLM_0_6_4},
    {VLLM_0_6_5},
    {VLLM_0_7_0},
    {VLLM_0_7_2},
    {VLLM_0_8_0},
    {VLLM_0_9_0},
    {VLLM_0_9_2},
    {VLLM_0_10_0},
    {VLLM_0_11_0},
    {VLLM_0_11_1},
    {VLLM_0_12_0},
    {VLLM_0_14_0},
    {VLLM_0_17_0},
    {VLLM_0_19_0},
    {VLLM_0_21_0},
    {VLLM_0_22_0},
    {VLLM_0_23_0},
    {VLLM_0_24_0},
    {VLLM_0_25_0},
    {VLLM_0_27_0},
    {VLLM_0_28_0},
    {VLLM_0_29_0},
};

const struct gs_vllm_release *gs_vllm_release_for(uint32_t version)
{
    if (version == 0)
        version = GS_VLLM_LATEST_MODELED;
/* the last row that applies; from the end, as most requests name a recent release (or
 * none, the latest) and every estimate of a plan search looks it up */
    for (size_t i = sizeof(releases) / sizeof(releases[0]); i-- > 1;)
        if (releases[i].from <= version)
            return &releases[i];
    return &releases[0];
}

static const struct gs_vllm_release v0_fallback = {
    VLLM_0_8_0,
    .from = 800,
    .name = "vLLM 0.8.x V0 engine (pipeline parallelism falls back to V0)",
    .v1 = false,
    .non_torch = GS_VLLM_NT_GROWTH,
    .mla_workspace = GS_VLLM_MLA_WS_V0,
    .sampler_logit_bytes = 40,
    .sampler_random_hidden = false,
    .source = "vllm/engine/arg_utils.py _is_v1_supported_oracle (pipeline parallelism -> V0)",
};

/* The latest row's layer rules (0.17-0.20) with the additive sampler term. */
static const struct gs_vllm_release other_engines = {
    VLLM_0_17_0,
    .from = GS_VLLM_LATEST_MODELED,
    .name = "layer peak plus logits, an fp32 copy and probabilities (engines other than vLLM)",
    .sampler_logit_bytes = 10,
    .sampler_adds = true,
    .sampler_triton_scratch = false,
    .moe_workspace_kept = false,
    .hybrid_pages = false,
    .source = "gpusizer's rule for TGI, TensorRT-LLM and generic serving (their logs in "
              "tests/fixtures/calibration)",
};
#pragma GCC diagnostic pop

const struct gs_vllm_release *gs_vllm_other_engine_profile(void)
{
    return &other_engines;
}

const struct gs_vllm_release *gs_vllm_release_for_layout(uint32_t version, uint64_t pipeline)
{
    const struct gs_vllm_release *r = gs_vllm_release_for(version);
    if (r->v1 && r->from < 902 && pipeline > 1)
        return &v0_fallback;
    return r;
}

bool gs_vllm_modeled(uint32_t version)
{
    return version == 0 || version >= GS_VLLM_OLDEST_MODELED;
}

static uint64_t max_u64(uint64_t a, uint64_t b)
{
    return a > b ? a : b;
}

static uint64_t min_u64(uint64_t a, uint64_t b)
{
    return a < b ? a : b;
}

void gs_vllm_profile(const struct gs_vllm_release *r, const struct gs_vllm_profile_input *in,
                     struct gs_vllm_profile *out)
{
    const uint64_t mml = in->max_model_len ? in->max_model_len : 1;
    if (!r->v1) {
        /* EngineArgs.create_engine_config: use_long_context = max_model_len > 32768; chunked
         * prefill only on GPUs, without sliding windows, from 0.7 not for MLA or multimodal */
        bool chunked = mml > 32768 && !in->sliding_window &&
                       !(r->from >= 700 && (in->mla || in->multimodal));
        if (in->chunked_prefill != GS_CHUNKED_PREFILL_DEFAULT)
            chunked = in->chunked_prefill == GS_CHUNKED_PREFILL_ON;
        out->chunked_prefill = chunked;
        out->tokens = in->max_num_batched_tokens ? in->max_num_batched_tokens
                      : chunked ? r->v0_chunked_tokens
                                : max_u64(mml, 2048);
        out->seqs = in->max_num_seqs ? in->max_num_seqs : 256; /* EngineArgs.max_num_seqs */
        return;
    }
    /* get_batch_defaults, by usage context: vllm serve (OPENAI_API_SERVER) 8192 tokens on GPUs
     * of 70 GiB or more but A100 (PR #17885), 2048 otherwise; the Python LLM class (LLM_CLASS)
     * 16384 and 8192; max_num_seqs the same for both. Then
     * _set_default_max_num_seqs_and_batched_tokens_args */
    const bool huge = r->huge_gpu_tokens && in->gpu_total_bytes >= (uint64_t)160 * GS_GIB;
    const bool big = huge || (in->gpu_total_bytes >= (uint64_t)70 * GS_GIB && !in->gpu_is_a100);
    out->chunked_prefill = in->chunked_prefill != GS_CHUNKED_PREFILL_OFF;
    uint64_t seqs = in->max_num_seqs ? in->max_num_seqs : (big && r->big_gpu_seqs_1024 ? 1024 : 256);
    uint64_t tokens = in->max_num_batched_tokens;
    if (tokens == 0) {
        /* from 0.28 (PR #51726) vllm serve takes 16384 on GPUs of 160 GiB or more, whatever
         * their name; that tier's LLM-class figure was not read: the 70 GiB tier's is kept */
        tokens = big ? (in->offline || huge ? 16384 : 8192) : (in->offline ? 8192 : 2048);
        if (!out->chunked_prefill)
            tokens = max_u64(mml, tokens);
        tokens = min_u64(tokens, seqs * mml);
    }
    if (in->max_num_seqs == 0)
        seqs = min_u64(seqs, tokens);
    out->tokens = tokens;
    out->seqs = seqs;
}

/* Transient bytes one token needs in one layer of block `b` on one tensor
 * rank, bf16 activations: the larger of the attention phase (the residual
 * and its normed copy, the q/k/v projection output and the attention
 * output) and the MLP phase (the residual and normed copy, then the gated
 * MLP's gate_up output and activation, or the fused-MoE kernel's
 * intermediate caches: fused_moe.py fused_experts_impl cache1 [M, top_k, N]
 * and cache3 [M, top_k, hidden] - one shared buffer since PR #13625 - and
 * cache2 [M * top_k, N / 2], N = 2 x the expert width / t). */
static uint64_t fp8_copy_bytes(uint64_t elems, uint8_t fp8, bool *ovf);

static uint64_t layer_token_bytes(const struct gs_arch *a, const struct gs_block *b,
                                  const struct gs_vllm_release *r, uint64_t t, uint8_t fp8_act,
                                  bool *ovf)
{
    const uint64_t h = a->hidden_size, e = 2;
    const struct gs_attention *s = &b->attn;
    uint64_t mixer = 0;
    if (b->mixer == GS_MIXER_ATTENTION) {
        const uint64_t q = s->heads * s->head_dim, kv = s->kv_heads * (s->head_dim + s->v_head_dim);
        mixer = gs_div_ceil(q + kv, t) + gs_div_ceil(s->heads * s->v_head_dim, t);
    } else if (b->mixer == GS_MIXER_MLA) {
        const uint64_t q = s->heads * (s->qk_nope_head_dim + s->qk_rope_head_dim);
        const uint64_t kv = s->heads * (s->qk_nope_head_dim + s->v_head_dim);
        mixer = gs_div_ceil(q + kv, t) + s->kv_lora_rank + s->qk_rope_head_dim +
                gs_div_ceil(s->heads * s->v_head_dim, t);
    }
    if (b->rec.conv_channels || b->rec.in_width)
        mixer = gs_add(mixer, gs_div_ceil(b->rec.in_width + b->rec.conv_channels + b->rec.inner, t),
                       ovf);
    const uint64_t attention_phase = gs_mul(e, gs_add(2 * h, mixer, ovf), ovf);
    uint64_t mlp = 0;
    if (b->mlp.kind == GS_MLP_DENSE) {
        mlp = gs_mul(b->mlp.gated ? 3 : 2, gs_div_ceil(b->mlp.width, t), ovf);
        /* gate_up still held when down_proj writes its output: one more hidden-wide tensor */
        if (b->mlp.gated && r->gate_up_held)
            mlp = gs_add(mlp, h, ovf);
    } else if (b->mlp.kind == GS_MLP_MOE) {
        const uint64_t n = (b->mlp.gated ? 2 : 1) * gs_div_ceil(b->mlp.width, t);
        uint64_t per_topk = (n > h ? n : h) + n / 2;
        if (!r->moe_shared_cache)
            per_topk += h; /* cache3 a buffer of its own before PR #13625 */
        mlp = gs_mul(b->mlp.top_k, per_topk, ovf);
        if (b->mlp.shared_width)
            mlp = gs_add(mlp, gs_mul(3, gs_div_ceil(b->mlp.shared_width, t), ovf), ovf);
    }
    uint64_t mlp_phase = gs_mul(e, gs_add(2 * h, mlp, ovf), ovf);
    if (b->mlp.kind == GS_MLP_MOE && fp8_act != GS_VLLM_FP8_ACT_NONE) {
        /* fused_experts_impl quantizes the chunk's input and cache2 for the w8a8 kernels
         * (moe_kernel_quantize_input): fp8 copies of [M, hidden] and [M * top_k, N / 2] */
        const uint64_t n = (b->mlp.gated ? 2 : 1) * gs_div_ceil(b->mlp.width, t);
        mlp_phase = gs_add(mlp_phase, fp8_copy_bytes(h, fp8_act, ovf), ovf);
        mlp_phase = gs_add(
            mlp_phase, gs_mul(b->mlp.top_k, fp8_copy_bytes(n / 2, fp8_act, ovf), ovf), ovf);
    }
    return attention_phase > mlp_phase ? attention_phase : mlp_phase;
}

uint64_t gs_vllm_mla_workspace_tokens(const struct gs_vllm_release *r, uint64_t max_model_len,
                                      uint64_t max_num_seqs, uint64_t block_size,
                                      bool chunked_prefill, bool prefix_caching)
{
    if (r->mla_workspace == GS_VLLM_MLA_WS_NONE ||
        (r->mla_workspace == GS_VLLM_MLA_WS_V0 && !chunked_prefill && !prefix_caching))
        return 0;
    /* "enough for 8 full length request or at least 4 pages of cache per request",
     * "limiting it to 64k tokens" (V1) or 128k (V0's MLACommonState) */
    bool ovf = false;
    const uint64_t pages = gs_mul(max_num_seqs, block_size, &ovf);
    uint64_t rows = max_u64(gs_mul(8, max_model_len, &ovf), gs_mul(4, pages, &ovf));
    if (ovf) /* beyond any workspace: the caps below apply */
        rows = UINT64_MAX;
    if (r->mla_workspace == GS_VLLM_MLA_WS_V0)
        return min_u64(rows, 128 * 1024);
    /* V1: "Enforce that we enough for at least 1 page per request" */
    return max_u64(min_u64(rows, 64 * 1024), pages);
}

/* What an MLA layer holds, per token on one tensor rank, when its
 * attention starts: the decoder layer's residual and normed input, the
 * latent projections (q_a's output and its normed copy with a q LoRA, the
 * kv_a output of kv_lora + rope, the normed kv latent) and, in V1, the
 * query up-projection and the attention's output buffer
 * (layers/mla.py MultiHeadLatentAttentionWrapper.forward, MLAAttention's
 * output = torch.empty(output_shape)); in V0 0.8.x the impl's forward starts
 * before the query projection (attention/backends/mla/common.py
 * MLACommonImpl.forward) and the kv latent is normed from a contiguous copy
 * (models/deepseek_v2.py DeepseekV2MLAAttention.forward). */
static uint64_t mla_entry_token_bytes(const struct gs_arch *a, const struct gs_attention *s,
                                      bool v1, uint64_t t, bool *ovf)
{
    uint64_t n = 2 * a->hidden_size + 2 * s->q_lora_rank + s->kv_lora_rank + s->qk_rope_head_dim;
    n = gs_add(n, v1 ? s->kv_lora_rank : 2 * s->kv_lora_rank, ovf);
    if (v1)
        n = gs_add(n, gs_div_ceil(s->heads * (s->qk_nope_head_dim + s->qk_rope_head_dim + s->v_head_dim),
                                  t), ovf);
    return gs_mul(n, 2, ovf);
}

/* What V0's MLA implementation adds, per token on one tensor rank, at its
 * peak inside the attention (attention/backends/mla/common.py
 * MLACommonImpl.forward and _forward_prefill, 0.7.1-0.8.x): the output
 * buffer it allocates before the prefill (torch.empty(tokens,
 * o_proj.output_size), hidden wide), the projected query [heads, qk_nope +
 * rope], then in _forward_prefill, whose locals all live until it returns,
 * kv_b_proj's output [heads, qk_nope + v], the concatenated key and the
 * zero-padded value [heads, qk_nope + rope] each, and the largest of: the
 * attention output [heads, qk_nope + rope] with, next, its unpadded copy
 * [heads, v]; or, once the attention output is rebound to that copy,
 * o_proj's output and, under tensor parallelism, the all-reduce's
 * out-of-place result (hidden wide each). */
static uint64_t mla_v0_impl_token_elems(const struct gs_arch *a, const struct gs_attention *s,
                                        uint64_t t)
{
    const uint64_t heads = (s->heads + t - 1) / t, h = a->hidden_size;
    const uint64_t qk = heads * (s->qk_nope_head_dim + s->qk_rope_head_dim);
    const uint64_t kv_nope = heads * (s->qk_nope_head_dim + s->v_head_dim);
    const uint64_t unpadded = heads * s->v_head_dim;
    const uint64_t held = kv_nope + 2 * qk; /* kv_nope, k, v_padded */
    const uint64_t at_attention = held + qk + unpadded;
    const uint64_t at_o_proj = held + unpadded + h + (t > 1 ? h : 0);
    return h + qk + max_u64(at_attention, at_o_proj);
}

/* The fused-MoE workspaces TritonExperts asks the WorkspaceManager for at
 * `tokens` (modular_kernel.py _allocate_buffers, fused_moe.py
 * TritonExperts.workspace_shapes): workspace13 [M, top_k, max(N / 2, K)]
 * (fused_out shares it) and workspace2 [M, top_k, max(N, K)] in bf16, N =
 * 2 x the expert width per rank, K = hidden; the largest MoE block's. */
static uint64_t moe_workspace(const struct gs_arch *a, const uint64_t counts[GS_BLOCKS_MAX],
                              uint64_t tokens, uint64_t t, bool *ovf)
{
    uint64_t most = 0;
    const uint64_t k_dim = a->hidden_size;
    for (size_t k = 0; k < a->block_count; k++) {
        const struct gs_block *b = &a->blocks[k];
        if (counts[k] == 0 || b->mlp.kind != GS_MLP_MOE)
            continue;
        const uint64_t width = gs_div_ceil(b->mlp.width, t);
        const uint64_t n = b->mlp.gated ? 2 * width : width;
        const uint64_t per_slot = gs_add(max_u64(n / 2, k_dim), max_u64(n, k_dim), ovf);
        most = max_u64(most, gs_mul(gs_mul(gs_mul(tokens, b->mlp.top_k, ovf), per_slot, ovf), 2,
                                    ovf));
    }
    return most;
}

/* fused_experts_impl runs the experts over at most VLLM_FUSED_MOE_CHUNK_SIZE tokens at a time
 * and sizes its caches for one chunk (vllm/envs.py:
 * int(os.getenv("VLLM_FUSED_MOE_CHUNK_SIZE", "32768")); fused_moe.py fused_experts_impl:
 * M = min(num_tokens, CHUNK_SIZE)). */
#define VLLM_FUSED_MOE_CHUNK_TOKENS 32768u

/* An fp8 copy of `elems` activations per token, as per_token_group_quant_fp8 makes it for the
 * w8a8 kernels: one byte each, plus an fp32 scale per 128-element group (x_s, shape
 * x.shape[:-1] + (x.shape[-1] // group_size,)) for block fp8. */
static uint64_t fp8_copy_bytes(uint64_t elems, uint8_t fp8, bool *ovf)
{
    if (fp8 == GS_VLLM_FP8_ACT_NONE)
        return 0;
    if (fp8 == GS_VLLM_FP8_ACT_TENSOR)
        return elems;
    return gs_add(elems, gs_mul(gs_div_ceil(elems, 128), 4, ovf), ovf);
}

/* One MoE layer on a rank of `m->data` data-parallel ranks, each profiling `tokens` tokens.
 * FusedMoE.forward_impl dispatches through the EP group when dp_size > 1 (and the all-to-all
 * is not DeepEP's: do_naive_dispatch_combine), and NaiveAll2AllManager.dispatch
 * (naive_multicast) or, from the allgather_reducescatter backend, all_gatherv gives every rank
 * all ranks' hidden states and router logits: the experts run data x tokens tokens, since the
 * profile run pads every rank to the same count (gpu_model_runner.py get_dp_padding). Alive
 * at the experts' peak: this rank's residual, normed input and router logits; the gathered
 * hidden states (the experts write their output into them in place) and router logits;
 * select_experts' topk_weights (fp32) and topk_ids (int32); one chunk's caches and, for
 * w8a8 fp8, its fp8 input and intermediate - two of the latter from the second chunk on,
 * since the previous chunk's copy is still bound while the next is made; the shared
 * expert's on this rank's tokens. */
static uint64_t dp_moe_layer_bytes(const struct gs_arch *a, const struct gs_vllm_release *r,
                                   const struct gs_block *b, uint64_t tokens,
                                   const struct gs_vllm_moe_run *m, bool *ovf)
{
    const uint64_t h = a->hidden_size, e = 2, experts = gs_mlp_router_outputs(&b->mlp);
    const uint64_t gathered = gs_mul(tokens, m->data, ovf);
    const uint64_t chunk = min_u64(gathered, VLLM_FUSED_MOE_CHUNK_TOKENS);
    uint64_t bytes = gs_mul(gs_mul(tokens, 2 * h + experts, ovf), e, ovf);
    bytes = gs_add(bytes, gs_mul(gs_mul(gathered, h + experts, ovf), e, ovf), ovf);
    bytes = gs_add(bytes, gs_mul(gs_mul(gathered, b->mlp.top_k, ovf), 8, ovf), ovf);
    const uint64_t n = (b->mlp.gated ? 2 : 1) * gs_div_ceil(b->mlp.width, m->width_divisor);
    /* cache13 (or caches 1 and 3) and cache2, as layer_token_bytes */
    const uint64_t per_topk = max_u64(n, h) + n / 2 + (r->moe_shared_cache ? 0 : h);
    const uint64_t slots = gs_mul(chunk, b->mlp.top_k, ovf);
    bytes = gs_add(bytes, gs_mul(gs_mul(slots, per_topk, ovf), e, ovf), ovf);
    const uint64_t inter_copies = gathered > chunk ? 2 : 1;
    bytes = gs_add(bytes, gs_mul(chunk, fp8_copy_bytes(h, m->fp8_activations, ovf), ovf), ovf);
    bytes = gs_add(bytes,
                   gs_mul(gs_mul(slots, inter_copies, ovf),
                          fp8_copy_bytes(n / 2, m->fp8_activations, ovf), ovf),
                   ovf);
    if (b->mlp.shared_width)
        bytes = gs_add(bytes,
                       gs_mul(gs_mul(tokens, 3 * gs_div_ceil(b->mlp.shared_width, m->width_divisor),
                                     ovf),
                              e, ovf),
                       ovf);
    return bytes;
}

static uint64_t activation_peak(const struct gs_arch *a, const struct gs_vllm_release *r,
                                const uint64_t counts[GS_BLOCKS_MAX], uint64_t tokens,
                                uint64_t seqs, uint64_t t, uint64_t mla_workspace_tokens,
                                uint64_t gpu_sm_count, bool last_stage,
                                const struct gs_vllm_moe_run *moe, bool *ovf);

uint64_t gs_vllm_activation_peak(const struct gs_arch *a, const struct gs_vllm_release *r,
                                 const uint64_t counts[GS_BLOCKS_MAX], uint64_t tokens,
                                 uint64_t seqs, uint64_t t, uint64_t mla_workspace_tokens,
                                 uint64_t gpu_sm_count, bool last_stage, bool *ovf)
{
    const struct gs_vllm_moe_run plain = {0, 0, GS_VLLM_FP8_ACT_NONE};
    return activation_peak(a, r, counts, tokens, seqs, t, mla_workspace_tokens, gpu_sm_count,
                           last_stage, &plain, ovf);
}

uint64_t gs_vllm_moe_activation_peak(const struct gs_arch *a, const struct gs_vllm_release *r,
                                     const uint64_t counts[GS_BLOCKS_MAX], uint64_t tokens,
                                     uint64_t seqs, uint64_t t, uint64_t mla_workspace_tokens,
                                     uint64_t gpu_sm_count, bool last_stage,
                                     const struct gs_vllm_moe_run *moe, bool *ovf)
{
    return activation_peak(a, r, counts, tokens, seqs, t, mla_workspace_tokens, gpu_sm_count,
                           last_stage, moe, ovf);
}

static uint64_t activation_peak(const struct gs_arch *a, const struct gs_vllm_release *r,
                                const uint64_t counts[GS_BLOCKS_MAX], uint64_t tokens,
                                uint64_t seqs, uint64_t t, uint64_t mla_workspace_tokens,
                                uint64_t gpu_sm_count, bool last_stage,
                                const struct gs_vllm_moe_run *moe, bool *ovf)
{
    t = t ? t : 1;
    struct gs_vllm_moe_run m = *moe;
    m.data = m.data ? m.data : 1;
    m.width_divisor = m.width_divisor ? m.width_divisor : t;
    uint64_t per_token = 0, mla_peak = 0, mla_kept = 0, dp_moe = 0;
    for (size_t k = 0; k < a->block_count; k++) {
        if (counts[k] == 0)
            continue;
        const struct gs_block *b = &a->blocks[k];
        const uint64_t one = layer_token_bytes(a, b, r, t, m.fp8_activations, ovf);
        if (one > per_token)
            per_token = one;
        if (m.data > 1 && b->mlp.kind == GS_MLP_MOE)
            dp_moe = max_u64(dp_moe, dp_moe_layer_bytes(a, r, b, tokens, &m, ovf));
        if (b->mixer != GS_MIXER_MLA || (r->v1 && mla_workspace_tokens == 0))
            continue;
        /* MLACommonImpl.forward in the profile run: "simulate to worse case output size for
         * self.kv_b_proj(kv_c_normed) in _compute_prefill_context": torch.empty((workspace
         * rows, num_heads, qk_nope_head_dim + v_head_dim)), the heads this rank holds. V0
         * binds it to the local `_`, alive until forward returns, so it sits under the
         * prefill's own transients (mla_v0_impl_token_elems) */
        const struct gs_attention *s = &b->attn;
        const uint64_t up = gs_mul(gs_mul(mla_workspace_tokens,
                                          gs_div_ceil(s->heads, t), ovf),
                                   gs_mul(s->qk_nope_head_dim + s->v_head_dim, 2, ovf), ovf);
        uint64_t entry = mla_entry_token_bytes(a, s, r->v1, t, ovf);
        if (!r->v1)
            entry = gs_add(entry, gs_mul(mla_v0_impl_token_elems(a, s, t), 2, ovf), ovf);
        const uint64_t at = gs_add(gs_mul(tokens, entry, ovf), up, ovf);
        mla_peak = max_u64(mla_peak, at);
        /* V0: MLACommonState.begin_forward allocates the workspace itself,
         * [rows, kv_lora_rank + rope] in the model dtype, at the profile run's first step */
        if (!r->v1 && mla_workspace_tokens)
            mla_kept = gs_mul(gs_mul(mla_workspace_tokens,
                                     s->kv_lora_rank + s->qk_rope_head_dim, ovf), 2, ovf);
    }
    uint64_t peak = gs_add(max_u64(max_u64(gs_mul(tokens, per_token, ovf), dp_moe), mla_peak),
                           mla_kept, ovf);
    if (last_stage && a->logits) {
        /* V0 profile_run (execute_model: compute_logits and sample after the model returns)
         * and V1 _dummy_sampler_run: logits for the last token of each of the
         * min(max_num_seqs, tokens) dummy requests, gathered whole on the sampling rank, with
         * top_k = vocab - 1 and top_p < 1 so the top-k/top-p path runs. Alive at its peak:
         * the model's output hidden states [tokens, h] and the requests' rows [reqs, h] (V1
         * also torch.rand_like of them), and sampler_logit_bytes per request x vocabulary
         * element (gs_vllm_release) */
        const uint64_t reqs = tokens < seqs ? tokens : seqs;
        const uint64_t h = a->hidden_size;
        uint64_t logits = gs_mul(gs_mul(reqs, a->vocab_size, ovf), r->sampler_logit_bytes, ovf);
        /* tensor parallelism: compute_logits all-gathers the vocabulary shards
         * (LogitsProcessor._gather_logits; DeviceCommunicatorBase.all_gather), so for a moment
         * the rank holds its shard, the gathered buffer and the copy the reshape after movedim
         * makes, 4 B + 2 B / t an element - above what Model Runner V2's greedy dummy keeps
         * afterwards, below every other sampler's set */
        if (t > 1) {
            const uint64_t v = a->vocab_size;
            const uint64_t gather = gs_mul(reqs, gs_add(gs_mul(v, 4, ovf),
                                                        gs_mul(gs_div_ceil(v, t), 2, ovf), ovf),
                                           ovf);
            logits = max_u64(logits, gather);
        }
        /* topk_topp_triton.py: buffer = logits.new_empty((min(next_power_of_2(programs),
         * num_sm), vocab)), programs = min(num_sm, requests), cached in _TRITON_BUFFER_CACHE;
         * the kernel runs for 8 requests or more */
        if (r->sampler_triton_scratch && gpu_sm_count && reqs >= 8)
            logits = gs_add(logits, gs_mul(gs_mul(min_u64(gpu_sm_count, reqs), a->vocab_size, ovf),
                                           4, ovf),
                            ovf);
        if (r->sampler_adds)
            return gs_add(peak, logits, ovf);
        const uint64_t rows = gs_mul(reqs, r->sampler_random_hidden ? 2 : 1, ovf);
        const uint64_t hidden = gs_mul(gs_add(tokens, rows, ovf), gs_mul(h, 2, ovf), ovf);
        const uint64_t kept =
            gs_add(mla_kept, r->moe_workspace_kept ? moe_workspace(a, counts, tokens, t, ovf) : 0,
                   ovf);
        peak = max_u64(peak, gs_add(gs_add(hidden, logits, ovf), kept, ovf));
    }
    return peak;
}

static uint64_t round_up(uint64_t n, uint64_t m)
{
    return (n + m - 1) / m * m;
}

uint64_t gs_vllm_mxfp4_layout_bytes(const struct gs_arch *a, const struct gs_vllm_release *r,
                                    uint8_t hw, const uint64_t counts[GS_BLOCKS_MAX], uint64_t t,
                                    uint64_t ep, bool *ovf)
{
    const bool triton = hw == GS_HW_HOPPER && r->mxfp4_triton;
    const bool marlin = !triton && (hw == GS_HW_AMPERE || hw == GS_HW_ADA || hw == GS_HW_HOPPER);
    if (!triton && !marlin)
        return 0;
    t = t ? t : 1;
    const uint64_t h = a->hidden_size;
    uint64_t total = 0;
    for (size_t k = 0; k < a->block_count; k++) {
        const struct gs_block *b = &a->blocks[k];
        if (counts[k] == 0 || b->mlp.kind != GS_MLP_MOE || b->mlp.experts == 0 || !b->mlp.gated)
            continue;
        /* under expert parallelism each rank holds whole experts (FusedMoE's tp_size 1) */
        const uint64_t e = ep > 1 ? gs_div_ceil(b->mlp.experts, ep) : b->mlp.experts;
        const uint64_t width = ep > 1 ? b->mlp.width : gs_div_ceil(b->mlp.width, t);
        bool bias = false;
        for (size_t m = 0; m < b->module_count; m++)
            bias = bias || ((b->modules[m].flags & GS_MOD_EXPERT) &&
                            (b->modules[m].flags & GS_MOD_BIAS));
        uint64_t layer;
        if (triton) {
            /* intermediate_size_per_partition rounded up to 64, hidden unpadded: the values and
             * the registered scales grow by the padding (17 bytes per 32 values) */
            const uint64_t wp = round_up(width, 64);
            layer = gs_div_ceil(gs_mul(gs_mul(gs_mul(e, 3, ovf), h, ovf), (wp - width) * 17, ovf),
                                32);
            /* HopperMXScaleLayout: a second, swizzled copy of the scales, rows padded to 256:
             * w13 [2 x wp -> 256] x h / 32, w2 [h -> 256] x wp / 32 */
            layer = gs_add(layer,
                           gs_mul(e, gs_add(gs_mul(round_up(2 * wp, 256), h / 32, ovf),
                                            gs_mul(round_up(h, 256), wp / 32, ovf), ovf),
                                  ovf),
                           ovf);
            /* biases .to(torch.float32) at the padded width, where gpusizer counts bf16 */
            if (bias)
                layer = gs_add(layer,
                               gs_mul(e, gs_add(gs_mul(2 * wp, 4, ovf), gs_mul(h, 2, ovf), ovf),
                                      ovf) - gs_mul(e, gs_mul(2 * width, 2, ovf), ovf),
                               ovf);
        } else {
            /* Marlin: width rounded up to 128 and hidden to 256, values and one-byte scales */
            const uint64_t wp = round_up(width, 128), hp = round_up(h, 256);
            const uint64_t grown = gs_mul(wp, hp, ovf) - gs_mul(width, h, ovf);
            layer = gs_div_ceil(gs_mul(gs_mul(e, 3, ovf), gs_mul(grown, 17, ovf), ovf), 32);
        }
        total = gs_add(total, gs_mul(layer, counts[k], ovf), ovf);
    }
    return total;
}

/* What grows outside torch while the profile run first launches the model's
 * kernels (CUDA lazy loading maps their modules) and creates cuBLAS
 * handles: 0.16 GiB in vLLM PR #12126's single-GPU log (non_torch 0.16
 * GiB), floor(0.16 x 2^30). */
#define PROFILE_GROWTH_BYTES ((uint64_t)171798691)

uint64_t gs_vllm_non_torch(const struct gs_vllm_release *r, enum gs_link link, uint64_t t,
                           bool cross_node, bool last_stage, bool *overflow)
{
    /* device-wide accounting also counts the CUDA context, created before any baseline */
    uint64_t bytes = PROFILE_GROWTH_BYTES + gs_runtime_comm_bytes(link, t, cross_node);
    if (r->non_torch == GS_VLLM_NT_DEVICE)
        bytes += GS_CUDA_CONTEXT_BYTES;
    /* V0's LogitsProcessor gathers the vocabulary shards to the first tensor rank of the last
     * stage (use_all_gather only under V1 or external_launcher: platforms/interface.py;
     * before 0.8 use_gather = not TPU) through GroupCoordinator.gather, which calls
     * torch.distributed.gather on the device group: the profile run's dummy forward creates
     * torch's NCCL communicator for the group there and NCCL connects every other rank to
     * that one, after the baseline, so the driver worker of the last stage is the least
     * roomy (docs/vllm-kv-budget-research.md section 14) */
    if (!r->v1 && last_stage)
        bytes = gs_add(bytes, gs_runtime_gather_root_bytes(link, t, overflow), overflow);
    return bytes;
}

/* --- vLLM as an engine module (gs/engine.h) --- */

uint64_t gs_vllm_engine_peak(const struct gs_inference_input *in,
                             const struct gs_engine_stage *stage,
                             const struct gs_inference_result *out,
                             const struct gs_vllm_release *release, bool sampler, bool *ovf)
{
    const struct gs_engine_config *c = &in->engine;
    if (c->has_activation_bytes)
        return c->activation_bytes;
    return gs_vllm_activation_peak(in->arch, release, stage->counts, out->max_num_batched_tokens,
                                   out->max_num_seqs, stage->tensor, out->mla_workspace_tokens,
                                   in->gpu.sm_count, sampler, ovf);
}


static uint64_t div_up(uint64_t n, uint64_t d)
{
    return gs_div_ceil(n, d ? d : 1);
}

/* DeepSeek-V4's cache on vLLM. DeepseekV4Attention stores the window's entries and the compressed
 * ones in the layout of its attention class (use_fp8_ds_mla_layout). The class vLLM picks
 * without --attention-backend (models/deepseek_v4/nvidia/model.py _select_dsv4_attn_cls: FlashMLA,
 * FLASHMLA_SPARSE_DSV4, on compute capability 9.x and 10.x, FlashInfer's SM120 class on 12.x) and
 * the ROCm AITER class keep DeepSeek's fp8_ds_mla entry - 448 fp8 values, 64 rotary values in
 * bf16 and 8 scale bytes, 584 bytes a token and layer - and _resolve_dsv4_kv_cache_dtype rewrites
 * every kv_cache_dtype that starts with "fp8" to it ("Using DeepSeek's fp8_ds_mla KV cache
 * format", the same rewrite in the model's first release). Only FlashInfer's class on 10.x,
 * which --attention-backend FLASHINFER_MLA_SPARSE_DSV4 selects, stores plain bf16 or fp8 rows.
 * kv_cache_dtype auto differs by release: the first release asserts "DeepseekV4 only supports
 * fp8 kv-cache format for now", PR #45091 (merged 2026-06-10) maps it to fp8 on the FlashMLA
 * class, and the resolver of the latest read asserts again ("DeepseekV4 fp8_ds_mla layout only
 * supports fp8 kv-cache, got auto": issue #47174 on 12.x, PR #55134 on main in September 2026,
 * closed unmerged); the releases between were not established, so auto is sized as the
 * fp8_ds_mla cache the engine runs, with a warning. */
static const char vllm_dsv4_dtype[] =
    "DeepSeek-V4's cache in vLLM's default attention class (FlashMLA on compute capability 9.x "
    "and 10.x, FlashInfer's SM120 class on 12.x, AITER on ROCm): DeepSeek's fp8_ds_mla entry, 448 "
    "fp8 values, the 64 rotary values in bf16 and 8 scale bytes, 584 bytes a token and layer, "
    "for the window and the compressed entries; every fp8 kv_cache_dtype is rewritten to it";
static const char vllm_dsv4_dtype_source[] =
    "vllm/models/deepseek_v4/attention.py _resolve_dsv4_kv_cache_dtype and use_fp8_ds_mla_layout; "
    "models/deepseek_v4/nvidia/model.py _select_dsv4_attn_cls";
static const char vllm_dsv4_auto[] =
    "vLLM releases differ on kv_cache_dtype auto for DeepSeek-V4: the model's first release and "
    "the latest read stop at startup with an assertion that the cache be fp8 ('DeepseekV4 "
    "fp8_ds_mla layout only supports fp8 kv-cache, got auto', issue #47174), releases with PR "
    "#45091 map it to fp8; sized as the fp8_ds_mla cache the engine runs - pass "
    "--kv-cache-dtype fp8 to start on every release";
static const char vllm_dsv4_16bit[] =
    "vLLM's default attention for DeepSeek-V4 (FlashMLA on compute capability 9.x and 10.x, "
    "FlashInfer's SM120 class on 12.x) stores only the fp8_ds_mla cache and stops at startup "
    "when kv_cache_dtype is not fp8; the 16-bit rows sized here are the FlashInfer class's on "
    "10.x alone (--attention-backend FLASHINFER_MLA_SPARSE_DSV4)";

static const char vllm_dsv41_dtype[] =
    "DeepSeek-V4.1's cache in vLLM's FlashMLA attention (compute capability 9.x; 12.x's "
    "FlashInfer class and ROCm store the same): the fp8_ds_mla entry, 448 fp8 values, the 64 "
    "rotary values in bf16 and 8 scale bytes, 584 bytes a token, in every layer's window and the "
    "KV sources' compressed cache; auto and fp8 resolve to it. On compute capability 10.x 0.30 "
    "stores the 528-byte MXFP8 V4.1 record instead (PR #56893), sized as 584 here";
static const char vllm_dsv41_nvfp4[] =
    "DeepSeek-V4.1's cache in vLLM's default attention on compute capability 10.x from 0.31 "
    "(FlashMLA mega attention, PR #56935): auto and fp8 resolve to nvfp4_ds_mla - the window's "
    "entries the 528-byte MXFP8 record (512 fp8 values, rope included, 16 e8m0 scales), the KV "
    "sources' compressed entries 288 bytes (512 e2m1 values and 32 e4m3 scales); the indexer "
    "keys stay fp8 (132 bytes) unless indexer_kv_dtype is mxfp4. Mega attention declines a "
    "tensor degree that leaves a wo_a group too few heads, and FlashMLA's 584-byte entries "
    "follow";
static const char vllm_dsv41_dtype_source[] =
    "vllm/models/deepseek_v41/attention.py _resolve_dsv4_kv_cache_dtype, swa_bytes_per_token, "
    "compressed_bytes_per_token; models/deepseek_v41/nvidia/model.py _select_dsv4_attn_cls; "
    "flash_mla_mega_attn.py";
static const char vllm_dsv41_16bit[] =
    "vLLM's packed DeepSeek-V4.1 layouts (FlashMLA, mega attention) stop at startup on a cache "
    "that is not fp8 ('DeepseekV4 packed KV layouts only support fp8 kv-cache'); the 16-bit "
    "rows sized here are FlashInfer's plain rows on compute capability 10.x alone";
static const char vllm_dsv41_nvfp4_sm[] =
    "vLLM stops at startup on nvfp4_ds_mla outside compute capability 10.x ('nvfp4_ds_mla needs "
    "the V4.1 KV records, which FlashMLA decodes only on SM100'), and releases before 0.31 read "
    "it only in the opt-in fused FlashMLA layer";
static const char vllm_dsv4_nvfp4[] =
    "nvfp4_ds_mla is DeepSeek-V4.1's compressed cache, which vLLM's DeepSeek-V4 attention does "
    "not read: it stops at startup (kv_cache_dtype fp8 stores fp8_ds_mla)";

/* DeepSeek-V4.1 (vllm/models/deepseek_v41): fp8_ds_mla where FlashMLA's sparse attention runs,
 * nvfp4_ds_mla where mega attention does (compute capability 10.x from 0.31; the release not
 * named, the latest). */
static void vllm_dsv41_kv_dtype(const struct gs_inference_input *in,
                                struct gs_inference_result *out)
{
    const enum gs_kv_dtype d = in->kv_dtype;
    const uint32_t v = in->engine.version;
    /* a Blackwell the catalog gives no compute capability is taken as a datacenter one */
    const bool sm100 = (enum gs_hw)in->gpu.hw == GS_HW_BLACKWELL && !in->gpu.rocm &&
                       (in->gpu.sm_major == 0 || in->gpu.sm_major == 10);
    const bool mega = sm100 && (v == 0 || v >= 3100);
    if (d == GS_KV_AUTO || d == GS_KV_FP8 || d == GS_KV_FP8_E5M2) {
        out->kv_dtype = mega ? GS_KV_NVFP4_DS_MLA : GS_KV_FP8_DS_MLA;
        out->kv_dtype_detail = mega ? vllm_dsv41_nvfp4 : vllm_dsv41_dtype;
        out->kv_dtype_source = vllm_dsv41_dtype_source;
    } else if (d == GS_KV_NVFP4_DS_MLA && !mega) {
        out->kv_dtype_warning = vllm_dsv41_nvfp4_sm;
    } else if (d == GS_KV_BF16 || d == GS_KV_FP16) {
        out->kv_dtype_warning = vllm_dsv41_16bit;
    }
}

static void vllm_dsv4_kv_dtype(const struct gs_inference_input *in, struct gs_inference_result *out)
{
    const enum gs_kv_dtype d = in->kv_dtype;
    if (gs_arch_is_deepseek_v41(in->arch)) {
        vllm_dsv41_kv_dtype(in, out);
        return;
    }
    if (!gs_arch_is_deepseek_v4(in->arch))
        return;
    if (d == GS_KV_NVFP4_DS_MLA) {
        out->kv_dtype_warning = vllm_dsv4_nvfp4;
        return;
    }
    if (d == GS_KV_FP8_DS_MLA)
        return; /* as asked */
    if (d == GS_KV_AUTO || d == GS_KV_FP8 || d == GS_KV_FP8_E5M2) {
        out->kv_dtype = GS_KV_FP8_DS_MLA;
        out->kv_dtype_detail = vllm_dsv4_dtype;
        out->kv_dtype_source = vllm_dsv4_dtype_source;
        out->kv_dtype_warning = d == GS_KV_AUTO ? vllm_dsv4_auto : NULL;
    } else if (d == GS_KV_BF16 || d == GS_KV_FP16) {
        out->kv_dtype_warning = vllm_dsv4_16bit;
    }
}

static void vllm_defaults(const struct gs_inference_input *in, struct gs_inference_result *out)
{
    const struct gs_engine_config *c = &in->engine;
    /* the release's profile run (gs_vllm_profile) */
    out->release = gs_vllm_release_for_layout(c->version, in->pipeline ? in->pipeline : 1);
    out->pad_mla = out->release->mla_pad;
    vllm_dsv4_kv_dtype(in, out);
    const struct gs_vllm_profile_input pin = {in->gpu.total_bytes, in->gpu.is_a100,
                                              in->context_length, gs_engine_has_windows(in->arch),
                                              gs_arch_has_mla(in->arch),
                                              gs_engine_has_towers(in->arch),
                                              c->max_num_batched_tokens, c->max_num_seqs,
                                              c->chunked_prefill,
                                              c->entrypoint == GS_ENTRY_OFFLINE};
    struct gs_vllm_profile prof;
    gs_vllm_profile(out->release, &pin, &prof);
    out->max_num_batched_tokens = prof.tokens;
    out->max_num_seqs = prof.seqs;
    out->seqs_cap = "the batch is larger than max_num_seqs, so vLLM runs at most max_num_seqs "
                    "sequences at a time whatever the KV cache holds";
    out->chunked_prefill = prof.chunked_prefill;
    const uint8_t f = in->weight_format;
    out->loader_removed = !out->release->bitsandbytes &&
                          (f == GS_WF_INT8 || f == GS_WF_NF4 || f == GS_WF_NF4_DQ);
    if (pin.mla)
        out->mla_workspace_tokens = gs_vllm_mla_workspace_tokens(
            out->release, in->context_length, prof.seqs, out->block_size, prof.chunked_prefill,
            c->prefix_caching == GS_CHUNKED_PREFILL_ON);
}

/* What vLLM's M-RoPE table holds beyond the plain one: MRotaryEmbedding enlarges its cos/sin
 * cache to 4 x max_position rows for video positions (rotary_embedding/mrope.py,
 * MRotaryEmbedding.__init__: "In Qwen2.5-VL, the maximum index value is related to the duration
 * of the input video. We enlarge max_position_embeddings to 4 times", cache_max_position_num =
 * max_position_embeddings * 4), three more copies of table 0's rows. */
static uint64_t vllm_mrope_extra_bytes(const struct gs_arch *a, uint64_t element_bytes, bool *ovf)
{
    if (!a->rope_mrope || a->rope_table_count == 0)
        return 0;
    const struct gs_rope_table *t = &a->rope_tables[0];
    return gs_mul(gs_mul(gs_mul(t->rows, t->dim, ovf), element_bytes, ovf), 3, ovf);
}

/* Memory outside torch's allocator on one worker: the release's non-torch term plus, under
 * expert parallelism, the expert group's own communicator when it is wider than the tensor
 * group (data-parallel attention) and DeepEP's all-to-all buffers, both allocated outside
 * torch by the profile run. */
static uint64_t vllm_non_torch(const struct gs_inference_input *in,
                               const struct gs_vllm_release *rel, uint64_t t, bool last_stage,
                               bool *ovf)
{
    const enum gs_link link = (enum gs_link)in->gpu.link;
    uint64_t bytes = gs_vllm_non_torch(rel, link, t, in->cross_node, last_stage, ovf);
    if (in->expert > t)
        bytes = gs_add(bytes, gs_runtime_comm_bytes(link, in->expert, in->expert_cross_node), ovf);
    if (in->expert > 1) {
        const struct gs_block *moe = gs_arch_moe_block(in->arch);
        bytes = gs_add(bytes,
                       gs_runtime_all2all_bytes((enum gs_all2all)in->engine.all2all,
                                                in->arch->hidden_size, moe ? moe->mlp.experts : 0,
                                                in->expert_cross_node, ovf),
                       ovf);
    }
    return bytes;
}

/* Whether a NULL-terminated list of class names holds the config's class */
bool gs_vllm_mtp_own_head(const struct gs_vllm_release *r, const struct gs_arch *a)
{
    return r->mtp_own_head || gs_arch_class_in(a, r->mtp_own_head_classes);
}

bool gs_vllm_runs_v2(const struct gs_inference_input *in, const struct gs_vllm_release *r)
{
    const struct gs_arch *a = in->arch;
    /* VLLM_USE_V2_MODEL_RUNNER decides first when set; gpusizer models V2's accounting from the
     * release that subtracts V1's graph estimate (0.21) */
    if (in->engine.model_runner != GS_RUNNER_DEFAULT)
        return in->engine.model_runner == GS_RUNNER_V2 && r->v1 && r->graphs_subtracted;
    if (!r->v1 || !a->logits) /* runner_type "generate" */
        return false;
    if (in->gpu.rocm && gs_arch_class_in(a, r->runner_v2_rocm_excluded))
        return false;
    const bool moe = gs_arch_moe_block(a) != NULL;
    const bool listed = gs_arch_class_in(a, r->runner_v2_architectures);
    switch ((enum gs_vllm_runner_v2)r->runner_v2) {
    case GS_VLLM_V2_NONE:
        return false;
    case GS_VLLM_V2_LISTED_PLAIN: { /* model_config.is_moe, model_config.is_quantized */
        const uint8_t f = in->weight_format;
        const bool quantized = f != GS_WF_FP32 && f != GS_WF_BF16 && f != GS_WF_FP16;
        if (moe || quantized || !listed)
            return false;
        break;
    }
    case GS_VLLM_V2_LISTED:
        if (!listed)
            return false;
        break;
    case GS_VLLM_V2_DENSE:
        /* is_hybrid and not listed, is_attention_free, then listed or not is_moe */
        if (gs_arch_attention_block(a) == NULL)
            return false;
        if (!gs_arch_attention_only(a) ? !listed : moe && !listed)
            return false;
        break;
    case GS_VLLM_V2_ALL:
        break;
    }
    /* _get_v2_model_runner_unsupported_features: speculative methods other than EAGLE,
     * EAGLE-3, MTP (and DFlash, which gpusizer does not size) send the model back to V1 */
    const uint8_t spec = in->engine.spec_method;
    return spec == GS_SPEC_NONE || spec == GS_SPEC_MTP || spec == GS_SPEC_EAGLE ||
           spec == GS_SPEC_EAGLE3;
}

/* The vision tower's block, where the model has one. */
static const struct gs_block *vision_block(const struct gs_arch *a)
{
    for (size_t i = 0; i < a->tower_count; i++)
        if (a->towers[i].part == GS_PART_VISION && a->towers[i].block < a->block_count)
            return &a->blocks[a->towers[i].block];
    return NULL;
}

/* Bytes per patch of one vision block's forward at its larger phase, w the tower's width
 * (heads x head_dim), I its MLP width, each linear's output divided over `t` as vLLM shards
 * them (Qwen2_5_VisionAttention, Qwen2_5_VisionMLP, Qwen3_VisionMLP as read at the 0.22 era):
 * - attention: the block's input and norm1's output, QKV (3), q and k made contiguous (2) and
 *   rotated (2), the attention output and the projection's (row-parallel, whole): 3w + 8w/t;
 *   with the fp32 rotary of 0.11.0 (vit_rotary_fp32), at the rotary: the input and norm's
 *   output, QKV, contiguous q, k and v (3), q and k concatenated (2), their fp32 copy and the
 *   kernel's fp32 output (8) and the cast back (2): 2w + 18w/t;
 * - MLP: the block's input, the attention's sum and norm2's output (3w; an RMSNorm with
 *   residual, run by its torch path, returns the residual as a new tensor: 4w), then fc1 and
 *   its activation (2I, the activation's input freed before fc2 runs: at fc2 one I and its
 *   output) or a gated MLP's gate_up (2I, kept to the end), its activation (I) and
 *   down_proj's output (w).
 * Flash-attention varlen keeps no score matrix (vllm/platforms/cuda.py get_vit_attn_backend). */
static uint64_t vision_patch_bytes(const struct gs_block *b, const struct gs_vllm_release *r,
                                   uint64_t t, uint64_t e, bool *ovf)
{
    const struct gs_attention *s = &b->attn;
    const uint64_t w = gs_mul(s->heads, s->head_dim, ovf);
    const uint64_t local = gs_div_ceil(w, t), inner = gs_div_ceil(b->mlp.width, t);
    const uint64_t attention = r->vit_rotary_fp32
                                   ? gs_add(gs_mul(2, w, ovf), gs_mul(18, local, ovf), ovf)
                                   : gs_add(gs_mul(3, w, ovf), gs_mul(8, local, ovf), ovf);
    bool rms = false;
    for (size_t i = 0; i < b->module_count; i++)
        if (b->modules[i].kind == GS_MODULE_NORM && !(b->modules[i].flags & GS_MOD_BIAS))
            rms = true;
    const uint64_t kept = gs_mul(rms ? 4 : 3, w, ovf);
    const uint64_t mlp =
        b->mlp.gated ? gs_add(gs_add(kept, gs_mul(3, inner, ovf), ovf), w, ovf)
                     : max_u64(gs_add(kept, gs_mul(2, inner, ovf), ovf),
                               gs_add(gs_add(kept, inner, ovf), w, ovf));
    return gs_mul(max_u64(attention, mlp), e, ovf);
}

struct gs_vllm_mm_profile gs_vllm_mm_profile(const struct gs_arch *a,
                                             const struct gs_vllm_release *r,
                                             uint64_t max_num_batched_tokens,
                                             uint64_t max_model_len, uint64_t t, uint64_t e,
                                             uint64_t text_peak, uint8_t no_items, bool *ovf)
{
    struct gs_vllm_mm_profile p = {0, 0, 0, false};
    t = t ? t : 1;
    /* Qwen2-VL's largest video (qwen2_vl.py get_num_frames_with_most_features): frames added
     * while their tokens fit max_model_len, two frames a group, at most _MAX_FRAMES_PER_VIDEO
     * = 14 frames (7 groups), at least one */
    struct gs_mm_item video_item = a->mm_video;
    if (a->mm_video_fills_context && a->mm_video.tokens) {
        const uint64_t fit = r->mm_video_by_model_len ? max_model_len / a->mm_video.tokens : 1;
        const uint64_t groups = fit < 1 ? 1 : fit > 7 ? 7 : fit;
        video_item.tokens = gs_mul(a->mm_video.tokens, groups, ovf);
        video_item.patches = gs_mul(a->mm_video.patches, groups, ovf);
        video_item.pixels = gs_mul(a->mm_video.pixels, groups, ovf);
    }
    /* MultiModalBudget.get_modality_with_max_tokens: the modality with the most tokens per
     * item, "video" over "image" on a tie (max by (tokens, name)); 0.11's Qwen3-VL
     * get_max_video_tokens counts each video embedding as 12.5 tokens for the timestamp text
     * around it */
    uint64_t video_tokens = (no_items & GS_MM_VIDEO) ? 0 : video_item.tokens;
    const uint64_t image_tokens = (no_items & GS_MM_IMAGE) ? 0 : a->mm_image.tokens;
    if (a->mm_video_timestamps && r->mm_video_text_tokens)
        video_tokens = gs_mul(video_tokens, 25, ovf) / 2;
    const bool video = video_tokens != 0 && video_tokens >= image_tokens;
    const struct gs_mm_item *item = video ? &video_item : &a->mm_image;
    const uint64_t per = video ? video_tokens : image_tokens;
    if (per == 0)
        return p;
    /* compute_mm_encoder_budget: max(max_num_batched_tokens, tokens per item); as many items
     * as it holds, encoded in one call */
    const uint64_t budget = max_u64(max_num_batched_tokens, per);
    const uint64_t items = budget / per;
    const uint64_t width = a->mm_embed_width ? a->mm_embed_width : a->hidden_size;
    const uint64_t row = gs_mul(width, e, ovf);
    /* the pixel batch stays referenced by profile_run (batched_dummy_mm_inputs) to its end:
     * float32 as the HF processor returns it until the processing context casts it to the
     * model dtype (mm_pixels_fp32) */
    const uint64_t pixel_values = gs_mul(items, item->pixels, ovf);
    const uint64_t pixels = gs_mul(pixel_values, r->mm_pixels_fp32 ? 4 : e, ovf);
    /* encoder_cache["tmp"] keeps the outputs through the text run and the sampler; 0.11.0
     * copies each into zeros of encoder_budget rows when it has fewer (PR #25810), later
     * releases into zeros of the item's token count (PR #29386), and the loop variable keeps
     * the last output itself until the sampler's result replaces it */
    const uint64_t rows = item->tokens, output_rows = gs_mul(items, rows, ovf);
    uint64_t kept_rows = output_rows;
    const uint64_t expand_to = r->mm_expand == GS_VLLM_MM_EXPAND_BUDGET ? budget
                               : r->mm_expand == GS_VLLM_MM_EXPAND_ITEM ? per
                                                                       : 0;
    if (expand_to > rows)
        kept_rows = gs_add(gs_mul(items, expand_to, ovf), rows, ovf);
    const uint64_t kept = gs_add(pixels, gs_mul(kept_rows, row, ovf), ovf);
    const uint64_t with_text = gs_add(text_peak, kept, ovf);
    /* The tower's own forward, before the text run (_process_image_input /
     * _process_video_input, Qwen3_VisionTransformer.forward): the pixels, their cast to the
     * model dtype when they arrived in float32, what the tower keeps per patch (Qwen3-VL's
     * interpolated position embeddings, to the end of forward, and the rotary cos and sin
     * tables, head_dim / 2 each) and one block's working set over every patch, with the DeepStack
     * levels already merged; at the end the merger's and DeepStack's outputs and their
     * concatenation */
    /* vLLM's tower forward was read for Qwen's towers, one sequence an item (GS_MM_PER_IMAGE);
     * Gemma 3's crops and Pixtral's one sequence were not, and their profile counts the dummy's
     * pixels and outputs alone */
    const struct gs_block *vb = vision_block(a);
    uint64_t encoder = 0;
    if (item->patches && item->layout == GS_MM_PER_IMAGE && vb != NULL) {
        const uint64_t n = gs_mul(items, item->patches, ovf);
        const uint64_t cast = r->mm_pixels_fp32 ? gs_mul(pixel_values, e, ovf) : 0;
        const uint64_t out_width = width / (a->mm_deepstack + 1);
        const uint64_t deepstack =
            gs_mul(gs_mul(output_rows, gs_mul(out_width, a->mm_deepstack, ovf), ovf), e, ovf);
        const uint64_t blocks =
            gs_add(gs_mul(n,
                          gs_add(vision_patch_bytes(vb, r, t, e, ovf),
                                 gs_mul(gs_add(a->mm_patch_kept, vb->attn.head_dim, ovf), e,
                                        ovf),
                                 ovf),
                          ovf),
                   deepstack, ovf);
        const uint64_t concat = gs_mul(gs_mul(2, output_rows, ovf), row, ovf);
        encoder = gs_add(gs_add(pixels, cast, ovf), max_u64(blocks, concat), ovf);
    }
    const uint64_t peak = max_u64(with_text, encoder);
    p.added_bytes = peak > text_peak ? peak - text_peak : 0;
    p.encoder_bytes = encoder;
    p.item_tokens = per;
    p.video = video;
    return p;
}

/* How this worker's fused MoE runs (gs_vllm_moe_run), on the releases whose MoE path was read
 * (moe_chunked_gather). Data-parallel ranks gather every rank's tokens into each MoE layer
 * unless DeepEP dispatches them (DeepEP's buffers are counted
 * outside torch, vllm_non_torch). fp8 checkpoints run w8a8 on GPUs with fp8 tensor cores (Ada,
 * Hopper: Fp8MoEMethod.apply -> fused_experts(use_fp8_w8a8=True), the activations quantized per
 * tensor - per token for per-channel weights, whose fp32 scale a token is not counted - or per
 * 128-element group with block scales); Ampere and older run the weight-only
 * Marlin kernel, and Blackwell's kernels are not modelled. */
static struct gs_vllm_moe_run vllm_moe_run(const struct gs_inference_input *in,
                                           const struct gs_vllm_release *rel,
                                           const struct gs_engine_stage *stage, bool *ovf)
{
    struct gs_vllm_moe_run m = {1, 0, GS_VLLM_FP8_ACT_NONE};
    if (!rel->moe_chunked_gather)
        return m;
    const uint64_t t = stage->tensor ? stage->tensor : 1;
    if (in->data > 1 && in->engine.all2all == GS_ALL2ALL_NCCL) {
        m.data = in->data;
        m.width_divisor = in->expert > 1 ? 1 : gs_mul(t, in->data, ovf);
    }
    const bool fp8_cores = in->gpu.hw == GS_HW_ADA || in->gpu.hw == GS_HW_HOPPER;
    if (fp8_cores && (in->weight_format == GS_WF_FP8 || in->weight_format == GS_WF_FP8_PER_CHANNEL))
        m.fp8_activations = GS_VLLM_FP8_ACT_TENSOR;
    else if (fp8_cores && in->weight_format == GS_WF_FP8_BLOCK)
        m.fp8_activations = GS_VLLM_FP8_ACT_GROUP128;
    return m;
}

/* Whether fp8 weights run on Marlin's weight-only kernel: on CUDA GPUs below compute
 * capability 8.9 (Fp8LinearMethod use_marlin = not has_device_capability(89), since PR #5975;
 * MoE layers the same way from PR #16850, select_fp8_moe_backend's "weight-only path for older
 * GPUs without native FP8"; ROCm never). */
static bool vllm_fp8_marlin(const struct gs_inference_input *in)
{
    return gs_weight_format_fp8((enum gs_weight_format)in->weight_format) &&
           gs_hw_nvidia_before((enum gs_hw)in->gpu.hw, GS_HW_ADA);
}

/* The model classes whose MoE router vLLM creates in fp32 whatever the model's dtype (the
 * loader's copy_ upcasts the checkpoint's 16-bit values): models/glm4_moe.py Glm4MoE
 * (nn.Linear(..., dtype=torch.float32)), minimax_m2.py MiniMaxM2MoE and ernie45_moe.py
 * Ernie4_5_MoeMoE (ReplicatedLinear(..., params_dtype=torch.float32)), mimo_v2.py MiMoV2MoE
 * (dtype=config.moe_router_dtype, float32 by default, which the published configs keep),
 * bailing_moe_linear.py (BailingMoeV2_5: router_dtype None or "fp32", the published configs'
 * "fp32"; BailingMoeV3: always), hy_v3.py HYV3MoEFused (GateLinear(..., params_dtype=
 * torch.float32); registry.py "HYV3ForCausalLM": ("hy_v3", "HYV3ForCausalLM")). DeepSeek's,
 * Qwen's, Llama 4's, Mixtral's and gpt-oss's routers are in the model's dtype (their correction
 * biases, fp32 buffers, are weighed as such; Hy3's expert_bias is a model-dtype parameter). */
static const char *const fp32_router_classes[] = {
    "Glm4MoeForCausalLM",      "MiniMaxM2ForCausalLM",   "Ernie4_5_MoeForCausalLM",
    "MiMoV2ForCausalLM",       "MiMoV2FlashForCausalLM", "BailingMoeV2_5ForCausalLM",
    "BailingMoeV3ForCausalLM", "HYV3ForCausalLM",        NULL};

/* GateLinear keeps a force_fp32_compute router in the model dtype, its logits fp32 from cuBLAS,
 * where `is_cuda() and (capability == (9, 0) or major == 10) and not bias` (Hopper; Blackwell's
 * datacenter parts, SM 10.0 and 10.3), and builds it in fp32 elsewhere (Ampere, Ada, SM 11.0 and
 * 12.x, ROCm). A GPU gpusizer cannot place is taken as a datacenter NVIDIA one. */
static bool gate_linear_native(const struct gs_inference_input *in)
{
    const enum gs_hw hw = (enum gs_hw)in->gpu.hw;
    if (in->gpu.rocm)
        return false;
    return hw == GS_HW_UNKNOWN || hw == GS_HW_HOPPER ||
           (hw == GS_HW_BLACKWELL && (in->gpu.sm_major == 0 || in->gpu.sm_major == 10));
}

uint64_t gs_vllm_sparse_buffer_bytes(const struct gs_arch *a, uint32_t version,
                                     enum gs_spec_method spec, uint64_t tokens,
                                     uint64_t model_bytes, bool last_stage, bool *ovf)
{
    uint64_t topk = 0; /* config.index_topk */
    for (size_t k = 0; k < a->block_count; k++)
        if (a->blocks[k].mixer == GS_MIXER_MLA && a->blocks[k].attn.index_topk > topk)
            topk = a->blocks[k].attn.index_topk;
    uint64_t bytes = gs_mul(gs_mul(tokens, topk, ovf), 4, ovf);
    /* an mtp drafter builds its own, in the drafter's load_model: DeepSeek-V4's one
     * (deepseek_v4/nvidia/mtp.py DeepSeekV4MultiTokenPredictor), DeepSeek-V3.2's and GLM-5's one
     * a MTP layer (vllm/config/speculative.py rewrites deepseek_v32 and glm_moe_dsa to
     * deepseek_mtp - for GLM-5 from its first release, 0.16.0, PR #34124 - whose
     * DeepSeekMultiTokenPredictorLayer allocates it when the config has index_topk; the
     * proposer shares the target's only where the target keeps one as an attribute, which
     * DeepseekV2Model does not) */
    static const char *const v32[] = {"DeepseekV32ForCausalLM", "GlmMoeDsaForCausalLM", NULL};
    if (spec == GS_SPEC_MTP && a->mtp_hidden_width)
        bytes = gs_mul(bytes, 2, ovf);
    else if (spec == GS_SPEC_MTP && gs_arch_class_in(a, v32))
        bytes = gs_mul(bytes, gs_add(1, gs_weights_mtp_layers(a), ovf), ovf);
    /* DeepSeek-V4.1's model also keeps candidate_block_buffer, max_num_batched_tokens x
     * candidate_topk_blocks int32 on every GPU ("Two-level candidate filtering": the indexer at
     * candidate_source_layer_id publishes its candidate blocks there; models/deepseek_v41
     * nvidia/model.py DeepseekV4Model.__init__) */
    bytes = gs_add(bytes, gs_mul(gs_mul(tokens, a->candidate_blocks, ovf), 4, ovf), ovf);
    const bool reads = spec == GS_SPEC_MTP || spec == GS_SPEC_EAGLE || spec == GS_SPEC_EAGLE3 ||
                       spec == GS_SPEC_DRAFT_MODEL;
    const bool always = version != 0 && version < GS_VLLM_DSV4_MTP_BUFFER_ON_DEMAND;
    if (a->mtp_hidden_width && last_stage && (always || reads))
        bytes =
            gs_add(bytes, gs_mul(gs_mul(tokens, a->mtp_hidden_width, ovf), model_bytes, ovf), ovf);
    return bytes;
}

uint64_t gs_vllm_engram_staging_bytes(const struct gs_arch *a, uint64_t tokens, uint64_t tensor,
                                      const uint64_t counts[GS_BLOCKS_MAX], bool *ovf)
{
    uint64_t layers = 0;
    for (size_t k = 0; k < a->block_count; k++)
        if (gs_block_has_host_table(&a->blocks[k]))
            layers = gs_add(layers, counts[k], ovf);
    /* ParallelEngramEmbedding.part_n_hash_cols: the hash columns split over the tensor ranks */
    const uint64_t cols = gs_div_ceil(a->engram_hash_cols, tensor ? tensor : 1);
    return gs_mul(gs_mul(gs_mul(gs_mul(layers, tokens, ovf), cols, ovf), a->engram_head_dim, ovf),
                  2, ovf);
}

uint64_t gs_vllm_diffusion_buffer_bytes(const struct gs_arch *a, uint64_t max_num_seqs, bool *ovf)
{
    if (a->diffusion_canvas == 0)
        return 0;
    /* DiffusionGemmaModelState (PR #45163): self_conditioning_embeds, [max_num_seqs, canvas,
     * hidden_size] fp32, and the structured-output bitmask of every canvas row, canvas x
     * ceil(vocab / 32) int32 a request slot, both allocated before the pool is sized */
    const uint64_t row =
        gs_add(gs_mul(a->hidden_size, 4, ovf), gs_mul(gs_div_ceil(a->vocab_size, 32), 4, ovf), ovf);
    return gs_mul(gs_mul(max_num_seqs, a->diffusion_canvas, ovf), row, ovf);
}

uint64_t gs_vllm_block_topk_buffer_bytes(const struct gs_arch *a, uint64_t tokens, uint64_t tensor,
                                         bool rocm, bool *ovf)
{
    for (size_t k = 0; k < a->block_count; k++) {
        const struct gs_attention *s = &a->blocks[k].attn;
        if (a->blocks[k].mixer != GS_MIXER_ATTENTION || s->index_heads == 0 || s->index_block == 0)
            continue;
        const uint64_t per_rank = s->index_heads / (tensor ? tensor : 1);
        const uint64_t heads = per_rank > 1 ? per_rank : 1;
        /* "Pad tokens to a multiple of 4 so the buffer head stride stays int4-aligned" */
        const uint64_t rows = rocm ? tokens : gs_mul(gs_div_ceil(tokens, 4), 4, ovf);
        return gs_mul(gs_mul(gs_mul(heads, rows, ovf), s->index_topk / s->index_block, ovf), 4,
                      ovf);
    }
    return 0;
}

uint64_t gs_vllm_dsv4_scratch_bytes(const struct gs_arch *a, uint32_t version, uint64_t tokens,
                                    uint64_t tensor, uint8_t sm_major, bool rocm, bool *ovf)
{
    static const char *const v4[] = {"DeepseekV4ForCausalLM", NULL};
    if (rocm || version < GS_VLLM_DSV4_EAGER_SCRATCH ||
        version >= GS_VLLM_DSV4_EAGER_SCRATCH_REVERTED || !gs_arch_class_in(a, v4))
        return 0;
    const struct gs_attention *attn = NULL, *indexer = NULL;
    for (size_t k = 0; k < a->block_count; k++)
        if (a->blocks[k].mixer == GS_MIXER_MLA) {
            attn = attn ? attn : &a->blocks[k].attn;
            if (a->blocks[k].attn.index_heads && indexer == NULL)
                indexer = &a->blocks[k].attn;
        }
    if (attn == NULL)
        return 0;
    /* get_padded_num_q_heads(num_attention_heads // tp): nvidia/flashmla.py "FP8 decode kernel
     * only supports h_q = 64 or 128"; flashinfer_sparse.py _pad_to_supported_q_heads (8, 16, 32,
     * 64, 128) */
    const uint64_t heads = tensor > 1 ? attn->heads / tensor : attn->heads;
    uint64_t padded = heads;
    if (sm_major == 12) {
        for (uint64_t p = 8; p <= 128; p *= 2)
            if (heads <= p) {
                padded = p;
                break;
            }
    } else {
        padded = heads <= 64 ? 64 : 128;
    }
    const uint64_t d = attn->head_dim;
    uint64_t aux = gs_mul(d, 4, ovf); /* compressor_specs: (T, head_dim) fp32 */
    if (indexer != NULL) {
        const uint64_t id = indexer->index_head_dim;
        const uint64_t fp4 =
            gs_mul(indexer->index_heads, gs_add(id / 2 + id / 32, 4, ovf), ovf); /* fp4_specs */
        const uint64_t global = gs_mul(gs_add(indexer->index_topk, 1, ovf), 4, ovf);
        aux = fp4 > aux ? fp4 : aux;
        aux = global > aux ? global : aux;
    }
    /* the store's views start at 256-byte boundaries (_ALIGNMENT): left out, under 1 KiB */
    return gs_mul(tokens, gs_add(gs_mul(gs_mul(padded, d, ovf), 2, ovf), aux, ovf), ovf);
}

/* The sparse-attention buffers a stage's model allocates with itself: DeepSeek's (top-k indices,
 * V4's MTP residual streams, V4.1's candidate blocks), MiniMax-M3's block top-k and DeepSeek-V4's
 * 0.27-0.28 scratch pool, for `tokens` scheduled tokens. */
static uint64_t vllm_sparse_buffers(const struct gs_inference_input *in,
                                    const struct gs_engine_stage *stage, uint64_t tokens,
                                    uint64_t model_bytes, bool *ovf)
{
    const struct gs_engine_config *c = &in->engine;
    uint64_t bytes =
        gs_vllm_sparse_buffer_bytes(in->arch, c->version, (enum gs_spec_method)c->spec_method,
                                    tokens, model_bytes, stage->last_stage, ovf);
    bytes = gs_add(bytes,
                   gs_vllm_block_topk_buffer_bytes(in->arch, tokens, in->tensor, in->gpu.rocm, ovf),
                   ovf);
    return gs_add(bytes,
                  gs_vllm_dsv4_scratch_bytes(in->arch, c->version, tokens, in->tensor,
                                             in->gpu.sm_major, in->gpu.rocm, ovf),
                  ovf);
}

static void vllm_load(const struct gs_inference_input *in, const struct gs_engine_stage *stage,
                      struct gs_inference_result *out, uint64_t *non_torch, bool *ovf)
{
    const struct gs_engine_config *c = &in->engine;
    const struct gs_vllm_release *rel = out->release;
    struct gs_budget *b = &out->budget;
    const uint64_t model_bytes = in->model_bytes ? in->model_bytes : 2;
    out->model_runner_v2 = gs_vllm_runs_v2(in, rel);
    /* Model Runner V2's _dummy_sampler_run (vllm/v1/worker/gpu/model_runner.py): the dummy
     * requests take the sampler's untouched slots - temperature 0, top-k the vocabulary, top-p
     * 1, no logprobs (gpu/sample/states.py SamplingStates) - so apply_sampling_params makes
     * only its fp32 copy (none once PR #47711 returns unprocessed logits as they are),
     * get_top_k_top_p gives neither and gumbel_sample takes a blockwise argmax in registers;
     * no hidden rows are randomized. Its PenaltiesState keeps a [max_num_seqs, vocabulary]
     * int32 count and a bit mask of the prompt's tokens from load on (vLLM PR #52718 measures
     * it against the pool), alive through the profile. */
    struct gs_vllm_release v2 = *rel;
    uint64_t penalties = 0;
    if (out->model_runner_v2) {
        v2.sampler_logit_bytes = rel->v2_sampler_logit_bytes;
        v2.sampler_triton_scratch = false;
        v2.sampler_random_hidden = false;
        if (stage->last_stage && in->arch->logits) {
            const uint64_t vocab = in->arch->vocab_size;
            penalties = gs_mul(gs_mul(out->max_num_seqs, gs_add(vocab, gs_div_ceil(vocab, 32),
                                                                 ovf), ovf),
                               4, ovf);
        }
    }
    const struct gs_vllm_release *profiled = out->model_runner_v2 ? &v2 : rel;
    b->activation_bytes = gs_vllm_engine_peak(in, stage, out, profiled, stage->last_stage, ovf);
    const struct gs_vllm_moe_run moe = vllm_moe_run(in, rel, stage, ovf);
    if (!c->has_activation_bytes && (moe.data > 1 || moe.fp8_activations != GS_VLLM_FP8_ACT_NONE))
        b->activation_bytes = gs_vllm_moe_activation_peak(
            in->arch, profiled, stage->counts, out->max_num_batched_tokens, out->max_num_seqs,
            stage->tensor, out->mla_workspace_tokens, in->gpu.sm_count, stage->last_stage, &moe,
            ovf);
    out->v2_penalty_bytes = c->has_activation_bytes ? 0 : penalties;
    const bool gathers = rel->v1 && in->data > 1 && c->all2all == GS_ALL2ALL_NCCL &&
                         gs_arch_moe_block(in->arch) != NULL && !c->has_activation_bytes;
    out->moe_gathered_tokens = gathers && moe.data > 1
                                   ? gs_mul(out->max_num_batched_tokens, moe.data, ovf)
                                   : 0;
    out->moe_gather_not_modeled = gathers && moe.data <= 1;
    /* V0 profile_run on a stage after the first (worker/model_runner.py): the dummy
     * IntermediateTensors, torch.zeros [tokens, hidden] for the hidden states and the residual
     * (make_empty_intermediate_tensors, batch_size the profile's tokens), stay referenced by
     * the caller through the forward. The residual is the one fused_add_rms_norm updates in
     * place, and the hidden states are the first layer's normed input, but from the second
     * layer on the received hidden states are one more hidden-wide tensor per token */
    if (!rel->v1 && !c->has_activation_bytes && in->has_stage && in->stage > 0 &&
        stage->end - stage->first > 1)
        b->activation_bytes =
            gs_add(b->activation_bytes,
                   gs_mul(gs_mul(out->max_num_batched_tokens, in->arch->hidden_size, ovf),
                          model_bytes, ovf),
                   ovf);
    if (rel->v1 && !c->has_activation_bytes && stage->first_stage &&
        (!out->model_runner_v2 || rel->v2_mm_profile)) {
        const struct gs_vllm_mm_profile mm =
            gs_vllm_mm_profile(in->arch, rel, out->max_num_batched_tokens, in->context_length,
                               stage->tensor, model_bytes, b->activation_bytes, c->mm_no_items,
                               ovf);
        out->mm_profile_bytes = mm.added_bytes;
        out->mm_profile_tokens = mm.item_tokens;
        out->mm_profile_video = mm.video;
        b->activation_bytes = gs_add(b->activation_bytes, mm.added_bytes, ovf);
    }
    b->activation_bytes = gs_add(b->activation_bytes, out->v2_penalty_bytes, ovf);
    *non_torch = vllm_non_torch(in, rel, stage->tensor, stage->last_stage, ovf);
    /* The rotary cos/sin tables are buffers created with the model, so the weights the engine
     * measures after loading include them on every GPU, in the model dtype
     * (RotaryEmbeddingBase: cache.to(dtype), get_rope's dtype the default dtype), over the
     * config's max_position_embeddings whatever max_model_len is: 2.5 GiB for Llama 4 Scout's
     * 10M positions. */
    b->rope_cache_bytes = gs_arch_rope_table_bytes(in->arch, model_bytes, ovf);
    b->rope_cache_bytes =
        gs_add(b->rope_cache_bytes, vllm_mrope_extra_bytes(in->arch, model_bytes, ovf), ovf);
    /* buffers the model creates with itself (Qwen3-VL's DeepStack inputs, Gemma 3n's and
     * Gemma 4's per-layer inputs from the releases that allocate them, sized by the scheduler's
     * max_num_batched_tokens) are allocated inside load_model's DeviceMemoryProfiler, so the
     * logged weights include them */
    const uint32_t since = in->arch->token_buffer_since;
    b->model_buffer_bytes =
        since == 0 || c->version == 0 || c->version >= since
            ? gs_mul(gs_mul(out->max_num_batched_tokens, in->arch->token_buffer_width, ovf),
                     model_bytes, ovf)
            : 0;
    b->model_buffer_bytes =
        gs_add(b->model_buffer_bytes,
               gs_vllm_engram_staging_bytes(in->arch, out->max_num_batched_tokens, in->tensor,
                                            stage->counts, ovf),
               ovf);
    b->model_buffer_bytes =
        gs_add(b->model_buffer_bytes,
               gs_vllm_diffusion_buffer_bytes(in->arch, out->max_num_seqs, ovf), ovf);
    b->sparse_buffer_bytes =
        vllm_sparse_buffers(in, stage, out->max_num_batched_tokens, model_bytes, ovf);
    b->weights_bytes = gs_add(b->weights_bytes, b->model_buffer_bytes, ovf);
    b->weights_bytes = gs_add(b->weights_bytes, b->sparse_buffer_bytes, ovf);
    b->weights_bytes = gs_add(b->weights_bytes, b->rope_cache_bytes, ovf);
    /* Gemma4Attention builds its QKVParallelLinear (q, k and v slots) and k_norm in every layer,
     * KV-sharing or not, and loads a k_eq_v layer's k_proj into the V slot too (gemma4.py
     * Gemma4Attention.__init__, load_weights' _weight_iterator) */
    b->kv_slot_bytes = gs_engine_kv_slot_bytes(in, stage, true, ovf);
    b->weights_bytes = gs_add(b->weights_bytes, b->kv_slot_bytes, ovf);
    if (in->weight_format == GS_WF_MXFP4)
        b->layout_bytes = gs_vllm_mxfp4_layout_bytes(in->arch, rel, in->gpu.hw, stage->counts,
                                                     stage->tensor, in->expert, ovf);
    else if (vllm_fp8_marlin(in))
        b->layout_bytes = gs_engine_fp8_marlin_growth(in, stage, ovf);
    b->weights_bytes = gs_add(b->weights_bytes, b->layout_bytes, ovf);
    if (gs_arch_class_in(in->arch, fp32_router_classes) ||
        gs_arch_class_in(in->arch, rel->router_fp32_classes) ||
        (gs_arch_class_in(in->arch, rel->gate_linear_classes) && !gate_linear_native(in)))
        b->router_fp32_bytes = gs_engine_router_fp32_growth(in, stage, ovf);
    b->weights_bytes = gs_add(b->weights_bytes, b->router_fp32_bytes, ovf);
    /* vLLM's weights are torch's allocated bytes; its non-torch term leaves the allocator's
     * rounding out (memory_reserved) except in 0.6.4, whose non_torch_allocations are the
     * device's used bytes less torch's allocated ones (worker.py
     * determine_num_available_blocks, after empty_cache) */
    if (!rel->v1 && rel->non_torch == GS_VLLM_NT_DEVICE) {
        b->segment_slack_bytes = gs_engine_segment_slack(in, stage, ovf);
        *non_torch = gs_add(*non_torch, b->segment_slack_bytes, ovf);
    }
    /* releases that count the device's used memory less torch's (V0 0.6.4's
     * determine_num_available_blocks, V1 0.8.0-0.9.1's determine_available_memory: "non-torch
     * allocations" = cuda_memory_used - torch allocated) count other processes' memory too */
    if (rel->non_torch == GS_VLLM_NT_DEVICE)
        *non_torch = gs_add(*non_torch, in->gpu.in_use_bytes, ovf);
}

/* vLLM subtracts CUDA graphs only from 0.21 (PR #38284); before, a given figure is shown but
 * the graphs are captured after the KV cache is allocated */
static bool vllm_graphs(const struct gs_inference_result *out)
{
    return out->release->graphs_subtracted &&
           (!out->model_runner_v2 || out->release->v2_graphs_subtracted);
}

static void vllm_pool(const struct gs_inference_input *in, struct gs_inference_result *out,
                      uint64_t used, bool *ovf)
{
    const struct gs_engine_config *c = &in->engine;
    struct gs_budget *b = &out->budget;
    b->rule = "vLLM: gpu_memory_utilization x total GPU memory, minus weights, the profiled "
              "activation peak, non-torch memory (and from 0.21 the CUDA-graph estimate), for "
              "the least roomy worker";
    b->fraction_permille = c->gpu_memory_utilization_permille ? c->gpu_memory_utilization_permille
                                                              : out->release->default_util_permille;
    b->requested_bytes = gs_engine_permille_of(b->total_bytes, b->fraction_permille, ovf);
    b->kv_bytes = (int64_t)b->requested_bytes - (int64_t)used;
    if (c->has_kv_cache_memory_bytes) {
        /* --kv-cache-memory-bytes bypasses the profile and gpu_memory_utilization
         * (gpu_worker.determine_available_memory returns it as it is), but the loaded
         * weights and the pool it allocates must both be on the GPU: past its total the
         * allocation fails ("If OOM'ed, check the difference of initial free memory",
         * vLLM's message there). That deficit is the budget then. */
        const uint64_t held = gs_add(b->weights_bytes, c->kv_cache_memory_bytes, ovf);
        b->kv_bytes = held > b->total_bytes ? (int64_t)b->total_bytes - (int64_t)held
                                            : (int64_t)c->kv_cache_memory_bytes;
    }
    const uint64_t in_use = in->gpu.in_use_bytes;
    if (in_use && out->release->non_torch == GS_VLLM_NT_GROWTH && !c->has_kv_cache_memory_bytes) {
        /* memory_profiling releases measure growth from a snapshot taken once the CUDA context
         * and the process groups exist, so other processes' memory is not in the budget; but
         * the engine must have gpu_memory_utilization x total free at that snapshot: V1
         * (gpu_worker.py init_device, from 0.9.2) raises "Free memory on device ... on startup
         * is less than desired GPU memory utilization", and V0 runs out of memory allocating
         * the cache the budget promised */
        const uint64_t held =
            gs_add(gs_add(in_use, GS_CUDA_CONTEXT_BYTES, ovf),
                   gs_runtime_comm_bytes((enum gs_link)in->gpu.link, in->tensor ? in->tensor : 1,
                                         in->cross_node),
                   ovf);
        const uint64_t free_at_start = b->total_bytes > held ? b->total_bytes - held : 0;
        if (free_at_start < b->requested_bytes) {
            b->kv_bytes = (int64_t)free_at_start - (int64_t)b->requested_bytes;
            b->refusal = "the memory free when the engine starts (the GPU's total less the memory "
                         "in use and the engine's CUDA context and communication buffers) is "
                         "below gpu_memory_utilization x total; vLLM refuses to start (lower "
                         "gpu_memory_utilization or free the GPU)";
        }
    }
}

/* Layers per group of vLLM's hybrid allocator (kv_cache_utils.py
 * _get_kv_cache_groups_uniform_page_size) for kinds of `kinds[0..n)` layers: the fewest of
 * any kind, or the most when that is under 1.5 times the fewest. */
static uint64_t group_layers(const uint64_t *kinds, uint64_t n)
{
    uint64_t fewest = UINT64_MAX, most = 0;
    for (uint64_t i = 0; i < n; i++) {
        fewest = kinds[i] < fewest ? kinds[i] : fewest;
        most = kinds[i] > most ? kinds[i] : most;
    }
    return 2 * most < 3 * fewest ? most : fewest;
}

/* The model classes that declare SupportsMambaPrefixCaching (vllm/model_executor/models/
 * interfaces.py; mamba.py, mamba2.py, bamba.py, falcon_h1.py, granitemoehybrid.py, jamba.py,
 * nemotron_h.py, zamba2.py; FalconMamba is served by MambaForCausalLM, registry.py): with
 * prefix caching asked for and mamba_cache_mode unset, MambaModelConfig.verify_and_update_config
 * gives them "all" and every other hybrid "align" (Plamo2, MiniMax-Text-01's and Ling's
 * lightning layers, LFM2's short convolutions, Kimi Delta Attention, Gated DeltaNet; Nemotron-H's
 * VL wrapper NemotronH_Nano_VL_V2 does not declare it). A config that names no class is taken as
 * not declaring it. */
static const char *const mamba_prefix_caching_classes[] = {
    "MambaForCausalLM",    "FalconMambaForCausalLM",
    "Mamba2ForCausalLM",   "BambaForCausalLM",
    "FalconH1ForCausalLM", "GraniteMoeHybridForCausalLM",
    "JambaForCausalLM",    "NemotronHForCausalLM",
    "Zamba2ForCausalLM",   NULL};

/* vLLM's pages for attention + recurrent models (V1 from 0.10). The attention block grows
 * until its page holds a recurrent layer's state: block_size = 16 x ceil(state / (16 x one
 * token's K and V of one layer)), the state page padded to it
 * (HybridAttentionMambaModelConfig.verify_and_update_config, since PR #37467
 * Platform.update_block_size_for_backend: "Setting attention block size to N tokens to
 * ensure that attention page size is >= mamba page size"; a given block_size stands when
 * it is larger). Both kinds then share one pool of blocks, a block holding one page of each
 * layer slot of a group. A recurrent group takes per sequence (MambaSpec.
 * max_memory_usage_bytes) one block, plus one per speculative token; with prefix caching
 * (mamba_cache_mode, CacheConfig: mamba_prefix_caching_classes above) "align" keeps two and
 * "all" one per block_size tokens like attention - for every state layer alike (Mamba, Mamba-2,
 * short convolutions, lightning and delta-rule layers build their spec in
 * MambaBase.get_kv_cache_spec). */
/* --mamba-ssm-cache-dtype by release (CacheConfig.mamba_ssm_cache_dtype, MambaDType): the flag
 * from 0.10.2 with auto and float32 (PR #22928), float16 from 0.13 (PR #29978), bfloat16 from 0.22
 * (PR #41680, merged 2026-05-16 after 0.21.0); Gated DeltaNet's state takes it from 0.17 (PR
 * #34489, before Qwen3.5's first release). */
enum {
    VLLM_SSM_FLAG = 1002,
    VLLM_SSM_FLOAT16 = 1300,
    VLLM_SSM_BFLOAT16 = 2200,
    VLLM_SSM_FLAG_GDN = 1700,
};

/* Nemotron-H's hook (models/config.py NemotronHForCausalLMConfig.verify_and_update_config): with
 * --mamba-ssm-cache-dtype "auto" it writes the config's mamba_ssm_cache_dtype into the cache
 * config, else a default - float16 from 0.13 (PR #29978), float32 from 0.20 (PR #39032, merged
 * 2026-04-06, after 0.19.0); before 0.13 there is no hook and the state takes the model's dtype
 * like every Mamba state. The readers' fp32_state is the newest rule. */
enum { VLLM_NEMOTRON_H_HOOK = 1300, VLLM_NEMOTRON_H_FP32 = 2000 };
static const char *const nemotron_h_hook_classes[] = {"NemotronHForCausalLM",
                                                      "NemotronHPuzzleForCausalLM", NULL};

const char *gs_vllm_ssm_dtype_refusal(const struct gs_engine_config *c)
{
    const uint32_t v = c->version;
    if (c->mamba_ssm_bytes == 0 || v == 0)
        return NULL;
    if (v < VLLM_SSM_FLAG)
        return "vLLM has --mamba-ssm-cache-dtype from 0.10.2 (PR #22928); before it a hybrid's "
               "states take the KV cache's dtype: leave mamba_ssm_dtype out, or name 0.10.2 or "
               "later";
    if (c->mamba_ssm_bytes == 2 && c->mamba_ssm_float16 && v < VLLM_SSM_FLOAT16)
        return "vLLM's --mamba-ssm-cache-dtype takes float16 from 0.13 (PR #29978); this release "
               "takes auto and float32";
    if (c->mamba_ssm_bytes == 2 && !c->mamba_ssm_float16 && v < VLLM_SSM_BFLOAT16)
        return "vLLM's --mamba-ssm-cache-dtype takes bfloat16 from 0.22 (PR #41680); this release "
               "takes auto, float32 and, from 0.13, float16";
    return NULL;
}

/* The request's mamba_ssm_dtype as vLLM's --mamba-ssm-cache-dtype
 * (MambaStateDtypeCalculator._mamba_state_dtype, layers/mamba/mamba_utils.py): the conv windows
 * stay in --mamba-cache-dtype ("auto": the model's dtype), the ssm states take the flag - Mamba's
 * always, Gated DeltaNet's from 0.17 (gated_delta_net_state_dtype read mamba_cache_dtype alone
 * before PR #34489), never Kimi Delta Attention's fp32 state nor a lightning or CCA layer's single
 * state (ssm_flag_ignored). A given flag replaces the config's own key, which the model hooks of
 * models/config.py write only while it is "auto" (NemotronHForCausalLMConfig's
 * mamba_ssm_cache_dtype, Qwen3_5ForConditionalGenerationConfig's mamba_ssm_dtype: "Using the
 * user-specified value"). The state's page, and the attention block that must hold it, follow
 * (MambaSpec.page_size_bytes). */
static void vllm_state_dtype(const struct gs_inference_input *in, struct gs_inference_result *out)
{
    const uint64_t given = in->engine.mamba_ssm_bytes;
    const uint32_t v = in->engine.version;
    if (out->kv.recurrent_layers == 0)
        return;
    const uint64_t e = in->model_bytes ? in->model_bytes : 2;
    if (given == 0 && v && v < VLLM_NEMOTRON_H_FP32 &&
        gs_arch_class_in(in->arch, nemotron_h_hook_classes)) {
        /* Nemotron-H before 0.20: the config's key from 0.13, else float16; the model's dtype
         * before 0.13 */
        const struct gs_state_dtypes d = {
            e, v < VLLM_NEMOTRON_H_HOOK ? e : 2, 0,
            v < VLLM_NEMOTRON_H_HOOK ? GS_STATE_KEY_NONE : GS_STATE_KEY_CACHE, GS_STATE_REACH_ALL};
        gs_engine_state_bytes(in, &d, &out->kv);
        return;
    }
    if (given == 0)
        return;
    const bool gdn = v == 0 || v >= VLLM_SSM_FLAG_GDN;
    const struct gs_state_dtypes d = {e, 0, given, GS_STATE_KEY_ANY,
                                      gdn ? GS_STATE_REACH_SSM : GS_STATE_REACH_MAMBA};
    gs_engine_state_bytes(in, &d, &out->kv);
    uint64_t counts[GS_BLOCKS_MAX];
    gs_arch_count_blocks(in->arch, 0, in->arch->num_hidden_layers, counts);
    for (size_t i = 0; i < in->arch->block_count; i++) {
        const struct gs_recurrent *r = &in->arch->blocks[i].rec;
        if (counts[i] == 0 || r->state_heads == 0 || gs_state_dtype_reaches(&d, r))
            continue;
        if (r->ssm_flag_ignored)
            out->ssm_dtype_ignored =
                "vLLM keeps Kimi Delta Attention's recurrent states in fp32 and a lightning or "
                "CCA layer's in --mamba-cache-dtype (the model's dtype) whatever "
                "--mamba-ssm-cache-dtype asks (mamba_utils.py kda_state_dtype, "
                "linear_attention_state_dtype, cca_state_dtype): those states keep that dtype";
        else /* a delta-rule state before 0.17 */
            out->ssm_dtype_ignored =
                "before 0.17 vLLM's Gated DeltaNet states ignore --mamba-ssm-cache-dtype "
                "(gated_delta_net_state_dtype read --mamba-cache-dtype alone until PR #34489): "
                "they stay in the model's dtype";
    }
}

static void vllm_pages(const struct gs_inference_input *in, struct gs_inference_result *out)
{
    vllm_state_dtype(in, out);
    const uint64_t spec = in->engine.spec_method != GS_SPEC_NONE ? in->engine.spec_tokens : 0;
    if (out->release != NULL && out->release->v1 && spec && out->kv.conv_row_bytes &&
        out->kv.state_rows_per_token) {
        /* under speculative decoding a delta-rule or Mamba-2 layer's convolution window keeps
         * kernel - 1 + k rows (MambaStateShapeCalculator.gated_delta_net_state_shape,
         * kda_state_shape and mamba2_state_shape with num_spec = num_speculative_tokens, which
         * NemotronHForCausalLM.get_mamba_state_shape_from_config passes since PR #33726's Mamba
         * speculative decoding), for every method that sets k; mamba1_state_shape and
         * short_conv_state_shape take no num_spec */
        bool grew = false;
        out->kv.state_bytes_per_sequence = gs_add(
            out->kv.state_bytes_per_sequence, gs_mul(out->kv.conv_row_bytes, spec, &grew), &grew);
    }
    const struct gs_kv_layout *kv = &out->kv;
    if (out->release == NULL || !out->release->v1 || !out->release->hybrid_pages ||
        kv->recurrent_layers == 0 || kv->full_layers == 0 || kv->window_count != 0 ||
        kv->indexer_token_bytes != 0 || kv->cross_token_bytes != 0 ||
        kv->full_token_bytes % kv->full_layers != 0 ||
        kv->state_bytes_per_sequence % kv->recurrent_layers != 0)
        return; /* not a plain attention + recurrent hybrid: the layout as it is */
    const uint64_t token = kv->full_token_bytes / kv->full_layers;
    const uint64_t state = kv->state_bytes_per_sequence / kv->recurrent_layers;
    if (token == 0 || state == 0)
        return;
    bool ovf = false;
    const uint64_t step = gs_mul(16, token, &ovf); /* 16 tokens of one layer */
    uint64_t block = gs_mul(16, div_up(state, step), &ovf);
    if (in->engine.block_size > block)
        block = in->engine.block_size;
    const uint64_t page = gs_mul(block, token, &ovf);
    if (ovf)
        return; /* sizes past 64 bits: the plain layout, whose arithmetic reports them */
    const uint64_t kinds[2] = {kv->full_layers, kv->recurrent_layers};
    const uint64_t group = group_layers(kinds, 2);
    struct gs_kv_pages *pg = &out->pages;
    pg->page_bytes = page;
    pg->state_page_bytes = state;
    pg->group_layers = group;
    pg->full_groups = div_up(kv->full_layers, group);
    pg->state_groups = div_up(kv->recurrent_layers, group);
    /* prefix caching: asked, or from 0.28 on by default for every hybrid (PR #50991: arg_utils
     * default_prefix_caching = is_prefix_caching_supported, the `and not is_hybrid` gone) */
    const bool caching = in->engine.prefix_caching == GS_CHUNKED_PREFILL_ON ||
                         (in->engine.prefix_caching == GS_CHUNKED_PREFILL_DEFAULT &&
                          out->release->hybrid_prefix_caching);
    if (!caching) {
        pg->state_cache = GS_STATE_CACHE_NONE;
        pg->state_blocks = 1 + spec;
    } else if (out->release->hybrid_prefix_caching ||
               !gs_arch_class_in(in->arch, mamba_prefix_caching_classes)) {
        /* "align" from 0.28 ("change the default mode to align", #50991), and before it for
         * the classes that do not declare SupportsMambaPrefixCaching
         * (MambaModelConfig.verify_and_update_config) */
        pg->state_cache = GS_STATE_CACHE_ALIGN;
        pg->state_blocks = 2 + spec;
    } else {
        pg->state_cache = GS_STATE_CACHE_ALL;
        pg->state_blocks = 0;
    }
    out->block_size = block;
}

/* Blocks one sequence of max_model_len takes from each group
 * (kv_cache_utils.py get_max_concurrency_for_kv_cache_config: the sum over groups of
 * cdiv(max_memory_usage_bytes, page)): full attention one per block_size tokens; a sliding
 * window min(window - 1 + max_num_batched_tokens, max_model_len) tokens plus one block
 * (SlidingWindowSpec); chunked local attention min(chunk + batched, max_model_len)
 * (ChunkedLocalAttentionSpec); a recurrent group its pages' count. */
static uint64_t window_blocks(const struct gs_kv_window *w, uint64_t len, uint64_t block,
                              uint64_t batched)
{
    uint64_t span = (w->chunked || w->window == 0 ? w->window : w->window - 1) + batched;
    span = span < len ? span : len;
    return div_up(span, block) + (w->chunked ? 0 : 1);
}

/* vLLM's hybrid KV-cache allocator (V1, kv_cache_utils.py
 * _get_kv_cache_groups_uniform_page_size and get_kv_cache_config_from_groups):
 * layers of each attention kind are cut into groups of group_layers() layers, a kind's
 * last group padded to full size; every group gets num_blocks = available // page //
 * group_size pages, and the log up to 0.20 prints (num_blocks // groups) x block_size
 * tokens. With no padding this is the plain all-layers figure; Gemma 3's 52 local and 10
 * global layers make 7 groups of 10, charged as 70 layers. From 0.21 the log prints
 * int(max concurrency x max_model_len), max concurrency being num_blocks over the blocks
 * one sequence of max_model_len takes from all groups (_report_kv_cache_config). */
static void vllm_capacity(const struct gs_inference_input *in, struct gs_inference_result *out,
                          uint64_t available)
{
    const struct gs_kv_layout *kv = &out->kv;
    if (out->release == NULL || !out->release->v1 || out->release->from < 1000 ||
        kv->indexer_token_bytes || kv->cross_token_bytes)
        return;
    const uint64_t len = in->context_length, block = out->block_size ? out->block_size : 16;
    uint64_t per_sequence = 0; /* blocks of max_model_len, over every group */
    if (out->pages.page_bytes) {
        const struct gs_kv_pages *pg = &out->pages;
        per_sequence = pg->full_groups * div_up(len, block) +
                       pg->state_groups * (pg->state_blocks ? pg->state_blocks
                                                            : div_up(len, block));
    } else if (kv->window_count == 0) {
        per_sequence = div_up(len, block); /* one group of every layer */
    } else {
        uint64_t kinds[GS_BLOCKS_MAX + 1], n = 0;
        if (kv->full_layers)
            kinds[n++] = kv->full_layers;
        for (size_t i = 0; i < kv->window_count && n <= GS_BLOCKS_MAX; i++)
            kinds[n++] = kv->windows[i].layers;
        const uint64_t layers = kv->full_layers + kv->window_layers;
        if (n < 2 || layers == 0 || kv->bytes_per_token % layers != 0)
            return; /* one kind, or pages of different sizes: not modelled */
        const uint64_t group = group_layers(kinds, n);
        uint64_t groups = 0;
        for (uint64_t i = 0; i < n; i++)
            groups += div_up(kinds[i], group);
        const uint64_t page = block * (kv->bytes_per_token / layers);
        out->kv_groups = groups;
        out->kv_group_layers = group;
        out->blocks = available / page / group;
        out->max_tokens = out->blocks / groups * block;
        out->reported_tokens = out->max_tokens;
        if (kv->full_layers)
            per_sequence += div_up(kv->full_layers, group) * div_up(len, block);
        for (size_t i = 0; i < kv->window_count; i++)
            per_sequence += div_up(kv->windows[i].layers, group) *
                            window_blocks(&kv->windows[i], len, block, out->max_num_batched_tokens);
    }
    if (out->release->prints_concurrency && per_sequence && len) {
        bool ovf = false;
        out->reported_tokens = gs_mul(out->blocks, len, &ovf) / per_sequence;
        if (ovf)
            out->reported_tokens = out->max_tokens;
    }
}

/* The model_runner assumption: why V2 runs and what its profile counts, by release. */
static const char *v2_detail(const struct gs_vllm_release *rel, bool forced)
{
    if (forced)
        return rel->v2_graphs_subtracted
                   ? "Model Runner V2, as VLLM_USE_V2_MODEL_RUNNER=1 asks: it subtracts its own "
                     "CUDA-graph estimate and profiles the multimodal dummy, as V1 does"
               : rel->v2_mm_profile
                   ? "Model Runner V2, as VLLM_USE_V2_MODEL_RUNNER=1 asks: no CUDA-graph "
                     "estimate is subtracted; the multimodal dummy is profiled"
                   : "Model Runner V2, as VLLM_USE_V2_MODEL_RUNNER=1 asks: no CUDA-graph "
                     "estimate is subtracted and no multimodal dummy is profiled";
    switch ((enum gs_vllm_runner_v2)rel->runner_v2) {
    case GS_VLLM_V2_ALL:
        return "Model Runner V2, this release's default for every model: it subtracts its own "
               "CUDA-graph estimate and profiles the multimodal dummy, as V1 does";
    case GS_VLLM_V2_DENSE:
        return rel->v2_mm_profile
                   ? "Model Runner V2, this release's default for dense attention models and a "
                     "list of class names: no CUDA-graph estimate is subtracted; the multimodal "
                     "dummy is profiled; a log that says 'using the V1 model runner instead' (a "
                     "feature V2 lacks) or VLLM_USE_V2_MODEL_RUNNER=0 runs V1, which subtracts "
                     "its graph estimate"
                   : "Model Runner V2, this release's default for dense attention models and a "
                     "list of class names: no CUDA-graph estimate is subtracted and no "
                     "multimodal dummy is profiled; a log that says 'using the V1 model runner "
                     "instead' (a feature V2 lacks) or VLLM_USE_V2_MODEL_RUNNER=0 runs V1, which "
                     "subtracts its graph estimate";
    case GS_VLLM_V2_NONE:
    case GS_VLLM_V2_LISTED_PLAIN:
    case GS_VLLM_V2_LISTED:
        break;
    }
    return "Model Runner V2, this release's default for the config's architecture (a list of "
           "class names): no CUDA-graph estimate is subtracted and no multimodal dummy is "
           "profiled; a log that says 'using the V1 model runner instead' (a feature V2 lacks) "
           "or VLLM_USE_V2_MODEL_RUNNER=0 runs V1, which subtracts its graph estimate";
}

static void vllm_notes(const struct gs_engine_config *c, const struct gs_inference_result *r,
                       uint64_t expert, const struct gs_engine_notes *n)
{
    if (r->moe_gathered_tokens && n->assume_value)
        n->assume_value(n->ctx, "moe_gathered_tokens", r->moe_gathered_tokens,
                        "tokens each rank's MoE layers ran in the profile: every data-parallel "
                        "rank's, gathered before the experts (in chunks of 32,768, beside the "
                        "gathered hidden states), counted in the activation peak",
                        "vLLM 0.10 FusedMoE.forward_impl (naive dispatch) and fused_experts_impl; "
                        "docs/vllm-kv-budget-research.md section 5.3");
    if (r->ssm_dtype_ignored && n->warn)
        n->warn(n->ctx, "mamba_ssm_dtype_ignored", r->ssm_dtype_ignored);
    gs_engine_kv_dtype_notes(r, n);
    if (r->moe_gather_not_modeled && n->warn)
        n->warn(n->ctx, "moe_gather_not_modeled",
                "under data parallelism vLLM's MoE layers gather every rank's tokens before the "
                "experts; gpusizer counts that in the profile's activation peak for 0.10.0-0.11.0, "
                "whose MoE path it read, but not for this release, so the KV cache here may be "
                "larger than the engine's by up to a few GiB a GPU (6.7 GiB for Qwen3-Coder-480B "
                "at data parallelism 8 on 0.10.1)");
    if (r->release != NULL && n->assume && n->assume_value) {
        n->assume(n->ctx, "engine_release", r->release->name, r->release->source);
        if (r->model_runner_v2) {
            const bool forced = c->model_runner == GS_RUNNER_V2;
            n->assume(n->ctx, "model_runner", v2_detail(r->release, forced),
                      forced ? "vllm/config/vllm.py use_v2_model_runner (envs."
                               "VLLM_USE_V2_MODEL_RUNNER decides first)"
                             : r->release->source);
            if (r->v2_penalty_bytes)
                n->assume_value(n->ctx, "sampler_state_bytes", r->v2_penalty_bytes,
                                "Model Runner V2's penalty state, a [max_num_seqs, vocabulary] "
                                "int32 count of output tokens and a bit mask of the prompt's, "
                                "allocated at load and alive through the profile (in "
                                "activation_peak_bytes); V2's dummy sampler runs greedy, holding "
                                "the logits and an fp32 copy, the logits alone from 0.28 "
                                "(PR #47711)",
                                "vllm/v1/worker/gpu/sample PenaltiesState, Sampler; "
                                "model_runner.py _dummy_sampler_run (vLLM PR #52718 measures "
                                "the state against the pool)");
        }
        if (r->release->v1)
            n->assume(n->ctx, "entrypoint",
                      c->entrypoint == GS_ENTRY_OFFLINE
                          ? "offline: the Python LLM class (usage context LLM_CLASS), whose "
                            "default max_num_batched_tokens is 8,192, 16,384 on GPUs of 70 GiB "
                            "or more but A100"
                      : r->release->huge_gpu_tokens
                          ? "serve: vllm serve, the OpenAI-compatible server (usage context "
                            "OPENAI_API_SERVER), whose default max_num_batched_tokens is 2,048, "
                            "8,192 on GPUs of 70 GiB or more but A100, 16,384 on GPUs of 160 GiB "
                            "or more (PR #51726); the Python LLM class profiles 8,192 and 16,384 "
                            "(inference.entrypoint offline)"
                          : "serve: vllm serve, the OpenAI-compatible server (usage context "
                            "OPENAI_API_SERVER), whose default max_num_batched_tokens is 2,048, "
                            "8,192 on GPUs of 70 GiB or more but A100; the Python LLM class "
                            "profiles four (two) times as many (inference.entrypoint offline)",
                      "vllm/engine/arg_utils.py EngineArgs.get_batch_defaults (usage_context)");
        n->assume_value(n->ctx, "profile_tokens", r->max_num_batched_tokens,
                        r->chunked_prefill ? "tokens the profile run processes (chunked prefill on)"
                                           : "tokens the profile run processes (chunked prefill "
                                             "off: at least max_model_len)",
                        r->release->v1 ? "vLLM EngineArgs.get_batch_defaults and "
                                         "_set_default_max_num_seqs_and_batched_tokens_args"
                                       : "vLLM SchedulerConfig max_num_batched_tokens and "
                                         "EngineArgs.create_engine_config (chunked prefill past "
                                         "32k)");
        if (r->pages.page_bytes)
            n->assume_value(n->ctx, "hybrid_block_size", r->block_size,
                            r->pages.state_cache == GS_STATE_CACHE_NONE
                                ? "tokens per attention block, grown until a page holds one "
                                  "recurrent layer's state; attention and state groups share one "
                                  "pool, a sequence taking one block in each state group, one "
                                  "more per speculative token (prefix caching off: "
                                  "mamba_cache_mode none)"
                            : r->pages.state_cache == GS_STATE_CACHE_ALIGN
                                ? "tokens per attention block, grown until a page holds one "
                                  "recurrent layer's state; with prefix caching (asked, or by "
                                  "default for hybrids from 0.28) a sequence takes two blocks in "
                                  "each state group, one more per speculative token "
                                  "(mamba_cache_mode align: from 0.28, and before it for the "
                                  "model classes that do not declare SupportsMambaPrefixCaching)"
                                : "tokens per attention block, grown until a page holds one "
                                  "recurrent layer's state; with prefix caching asked before "
                                  "0.28 a Mamba-family class (SupportsMambaPrefixCaching) takes "
                                  "a block per block_size tokens in each state group "
                                  "(mamba_cache_mode all)",
                            "vLLM Platform.update_block_size_for_backend (PR #37467), "
                            "kv_cache_utils._get_kv_cache_groups_uniform_page_size, "
                            "kv_cache_interface.MambaSpec.max_memory_usage_bytes; "
                            "docs/serving-memory.md");
        if (r->mm_profile_bytes)
            n->assume_value(n->ctx, "mm_profile_bytes", r->mm_profile_bytes,
                            "what the profile run's multimodal dummy adds to its peak: the "
                            "larger of its pixels and encoder outputs (expanded as the release "
                            "does), kept through the text run and the sampler, and the vision "
                            "tower's own forward (in activation_peak_bytes)",
                            "vLLM gpu_model_runner.py profile_run (MultiModalBudget, "
                            "encoder_cache; PRs #25810, #29386)");
        if (r->mm_profile_tokens)
            n->assume_value(n->ctx,
                            r->mm_profile_video ? "mm_profile_video_tokens"
                                                : "mm_profile_image_tokens",
                            r->mm_profile_tokens,
                            r->mm_profile_video
                                ? "tokens per item of the profile's dummy, a video of the "
                                  "largest size the processor accepts, the modality with the "
                                  "most tokens; a server that sets --limit-mm-per-prompt "
                                  "'{\"video\": 0}' profiles an image instead"
                                : "tokens per item of the profile's dummy, an image of the "
                                  "largest size the processor accepts",
                            "vLLM multimodal MultiModalBudget.get_modality_with_max_tokens");
        if (r->mla_workspace_tokens)
            n->assume_value(n->ctx, "mla_workspace_tokens", r->mla_workspace_tokens,
                            "rows of MLA's chunked-prefill context workspace: the profile run "
                            "allocates their up-projection, [rows, heads per GPU, qk_nope + v] "
                            "in bf16, at each MLA layer (activation_peak_bytes)",
                            r->release->v1
                                ? "vLLM MLACommonMetadataBuilder.determine_chunked_prefill_"
                                  "workspace_size and MLACommonImpl.forward (attn_metadata None)"
                                : "vLLM V0 attention/backends/mla/common.py MLACommonState "
                                  "(chunked prefill or prefix caching on) and "
                                  "MLACommonImpl.forward");
    }
    if (r->release != NULL && n->warn) {
        if (!gs_vllm_modeled(c->version))
            n->warn(n->ctx, "engine_release_not_modeled",
                    "vLLM releases before 0.6.4 kept everything resident after profiling in "
                    "their accounting, which cannot be predicted; sized with the 0.6.4 rules");
        if (r->model_runner_v2 && !r->release->v2_graphs_subtracted && !c->enforce_eager)
            n->warn(n->ctx, "cuda_graphs_not_reserved",
                    "this model runs vLLM's Model Runner V2, which sizes the KV pool without its "
                    "CUDA graphs and captures them afterwards in what gpu_memory_utilization "
                    "leaves; at high utilization the capture can run out of memory (vLLM issue "
                    "#49224): leave room or pass enforce_eager");
        if (vllm_graphs(r) && !c->enforce_eager && !c->has_cuda_graph_bytes)
            n->warn(n->ctx, "cuda_graphs_not_estimated",
                    "this vLLM release subtracts its CUDA-graph memory estimate (0.5-1.1 GiB per "
                    "GPU in 0.19 logs), which gpusizer does not model: the capacity is an upper "
                    "bound; give cuda_graph_bytes");
    }
    if (expert > 1 && n->assume)
        n->assume(n->ctx, "all2all_backend", gs_all2all_name((enum gs_all2all)c->all2all),
                  "vLLM --all2all-backend; DeepEP's buffers (VLLM_DEEPEP_BUFFER_SIZE_MB = 1024 "
                  "MiB, low latency adds DeepEP's get_low_latency_rdma_size_hint for 256 tokens "
                  "per rank) count as non-torch memory; core/src/runtime.c");
}

const char gs_vllm_refusal_mamba_seqs[] =
    "max_num_seqs is above the KV pool's blocks (kv_cache.blocks): with full CUDA graphs vLLM "
    "needs one Mamba cache block per decode sequence and fails at startup with 'max_num_seqs "
    "exceeds available Mamba cache blocks' (PR #38270, from 0.19); lower max_num_seqs to at most "
    "the blocks (fix lower_max_num_seqs), raise gpu_memory_utilization, or pass enforce_eager";

/* What the memory's pool fails at startup (gs_engine_ops.start_bound): a hybrid's max_num_seqs
 * above its blocks. The check runs once the pool is sized (the profiling pass skips it): a GPU
 * must be named for the blocks to be known. */
static const char *vllm_start_bound(const struct gs_inference_input *in,
                                    const struct gs_inference_result *out, uint64_t *max_seqs)
{
    if (out->release->mamba_seqs_bounded && !in->engine.enforce_eager && out->has_budget &&
        out->pages.state_groups > 0 && out->max_num_seqs > out->blocks) {
        /* "Please lower max_num_seqs to at most <blocks>" */
        *max_seqs = out->blocks;
        return gs_vllm_refusal_mamba_seqs;
    }
    return NULL;
}

/* What fails vLLM at startup whatever the memory (gs_engine_ops.refusal). */
static const char *vllm_refusal(const struct gs_inference_input *in,
                                const struct gs_inference_result *out)
{
    const enum gs_hw hw = (enum gs_hw)in->gpu.hw;
    if (out->loader_removed)
        return "vLLM 0.28 removed its bitsandbytes loader and quantization method "
               "(model_loader/bitsandbytes_loader.py), so the engine does not start with int8, nf4 "
               "or nf4_dq weights; they load on 0.27 and earlier; on this release serve an AWQ, "
               "GPTQ or fp8 checkpoint";
    /* each sparse MLA backend's supports_compute_capability: FLASHMLA_SPARSE (and DeepSeek-V4's
     * FLASHMLA_SPARSE_DSV4) major 9 or 10, FLASH_ATTN_MLA_SPARSE and FLASHINFER_MLA_SPARSE_SM90
     * 9, FLASHINFER_MLA_SPARSE 10, FLASHINFER_MLA_SPARSE_SM120 12; a Triton one only in open
     * PRs (#38476, #47629) through 0.30 */
    if (gs_arch_has_sparse_mla(in->arch) && gs_hw_nvidia_before(hw, GS_HW_HOPPER))
        return "vLLM has no attention backend for DeepSeek sparse attention (DeepSeek-V3.2, "
               "GLM-5, DeepSeek-V4) below compute capability 9.0: every sparse MLA backend "
               "needs Hopper or Blackwell (supports_compute_capability), so the engine fails "
               "with 'No valid attention backend found' whatever the KV-cache dtype (issues "
               "#40851 on an A800, #54059 on an RTX 4090); serve this model on Hopper or "
               "Blackwell GPUs";
    /* Fp8MoEMethod ran the Triton fused MoE with fp8 weights until PR #16850 gave it Marlin
     * (first in 0.9.0; 0.8.5 users still hit it, issues #17581, #17764) */
    if (gs_weight_format_fp8((enum gs_weight_format)in->weight_format) &&
        out->release->from < 900 && gs_arch_moe_layers(in->arch) > 0 &&
        gs_hw_nvidia_before(hw, GS_HW_ADA))
        return "vLLM before 0.9.0 runs fp8 MoE layers only through the Triton fused-MoE kernel, "
               "which fails below compute capability 8.9 with 'type fp8e4nv not supported in "
               "this architecture' (issues #15336, #18182); 0.9.0 and later run them weight-only "
               "on Marlin (PR #16850)";
    return NULL;
}

/* Where vLLM runs weights the capability table's row refuses (gs_engine_ops.runs_beyond_table):
 * PR #29901 (first in 0.14.0) built Marlin for Turing - "Supported Weights: GPTQ, AWQ, FP8,
 * NVFP4 (MXFP4 is not supported since it requires BF16 activation)" - and
 * marlin_utils_fp8.py is_fp8_marlin_supported became has_device_capability(75) (80 before), so
 * fp8 and NVFP4 checkpoints run weight-only on Marlin, dense and MoE, on SM 7.5 in fp16
 * activations. */
static const char *vllm_runs_beyond_table(uint32_t version, uint8_t hw, uint8_t weight_format)
{
    const enum gs_weight_format f = (enum gs_weight_format)weight_format;
    if ((enum gs_hw)hw == GS_HW_TURING && (gs_weight_format_fp8(f) || f == GS_WF_NVFP4) &&
        gs_vllm_release_for(version)->from >= 1400)
        return "vLLM 0.14.0 and later run fp8 and NVFP4 weights weight-only on Marlin from "
               "compute capability 7.5 (PR #29901; marlin_utils_fp8.py is_fp8_marlin_supported)";
    return NULL;
}

static const char *vllm_layout_detail(const struct gs_inference_result *r, uint8_t hw,
                                      uint8_t weight_format)
{
    if ((enum gs_weight_format)weight_format != GS_WF_MXFP4)
        return "vLLM's Marlin weight-only fp8 on a GPU without fp8 tensor cores: the scales "
               "become one per output column and 128 inputs (block scales) or per output column "
               "(tensor scales) in 16 bits; counted with the weights it loads and in "
               "overhead_bytes";
    return (enum gs_hw)hw == GS_HW_HOPPER && r->release != NULL && r->release->mxfp4_triton
               ? "vLLM's Triton MXFP4 MoE on Hopper: expert width padded to 64, a swizzled copy "
                 "of the scales beside the loaded ones, fp32 biases; counted with the weights it "
                 "loads and in overhead_bytes"
               : "vLLM's Marlin MXFP4 MoE: expert width padded to 128 and hidden size to 256; "
                 "counted with the weights it loads and in overhead_bytes";
}

const struct gs_engine_ops gs_engine_vllm = {
    .engine = GS_ENGINE_VLLM,
    .name = "vllm",
    .block_size = 16,
    .budget_source = "vLLM gpu_worker.determine_available_memory, utils.mem_utils.memory_profiling "
                     "and kv_cache_utils.get_num_blocks; gpu_memory_utilization default 0.9 "
                     "(0.92 from 0.21); docs/vllm-kv-budget-research.md",
    .block_source = "vLLM CacheConfig block_size default 16",
    .rope_source = "vLLM rotary_embedding get_rope and RotaryEmbeddingBase (model dtype); "
                   "rotary_embedding/mrope.py MRotaryEmbedding.__init__ "
                   "(cache_max_position_num = max_position_embeddings * 4)",
    .slack_detail = "PyTorch's caching allocator rounds each weight tensor of 10 MiB or more up to "
                    "a multiple of 2 MiB; vLLM 0.6.4 counts the device's used memory less torch's "
                    "allocated bytes as non-torch, so the rounding is in non_torch_bytes (the "
                    "engine's tensors: q/k/v and gate/up fused, a MoE layer's experts in two)",
    .cpu_offload = true,
    .sizes_each_stage = true,
    .slack_in_non_torch = true,
    .refuses_long_context = true,
    .spec = GS_ENGINE_SPEC_IN_BUDGET,
    .defaults = vllm_defaults,
    .pages = vllm_pages,
    .load = vllm_load,
    .graphs_subtracted = vllm_graphs,
    .pool = vllm_pool,
    .capacity = vllm_capacity,
    .first_unread = GS_VLLM_FIRST_UNREAD,
    .unread_detail = "this vLLM release is newer than the releases gpusizer has read (through "
                     "0.30.x); it is sized with the latest rules (assumption engine_release)",
    .notes = vllm_notes,
    .layout_detail = vllm_layout_detail,
    .refusal = vllm_refusal,
    .start_bound = vllm_start_bound,
    .lower_seqs_detail = "admit at most as many sequences as the pool has blocks (max_num_seqs)",
    .runs_beyond_table = vllm_runs_beyond_table,
};
