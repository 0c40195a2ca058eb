/*
 * sglang.c - SGLang as an engine module: its default fraction by release,
 * its pre-load baseline and its table of operations (see gs/sglang.h and
 * gs/engine.h).
 */
#include "gs/sglang.h"

#include "gs/capability.h"
#include "gs/engine.h"
#include "gs/speculative.h"

#include "gs/units.h"
#include "gs/vllm.h"
#include "gs/weights.h"

#include <stddef.h>

/* One row a release whose rules change; a field left out is off (0). */
static const struct gs_sglang_release releases[] = {
    {.from = 400,
     .name = "0.4.0",
     .rule = GS_SGLANG_RULE_TENSOR,
     .source = "sglang server_args.py ServerArgs.__post_init__ before PR #7054 (\"Set mem fraction "
               "static, which depends on the tensor parallelism size\"); SGLang 0.4.3 logs "
               "mem_fraction_static=0.85 at TP 4",
     .spec_wide_default = true,
     .vlm_factor_permille = 950},
    {.from = 403,
     .name = "0.4.3",
     .rule = GS_SGLANG_RULE_TENSOR,
     .rope_element_bytes = 4,
     .source = "as 0.4.0; rotary tables in fp32 from sglang PR #3169 \"[kernel] Use sgl_kernel "
               "rope\" (merged 2025-01-28, first in the v0.4.3 tag): layers/rotary_embedding.py "
               "keeps cos_sin_cache in fp32 on CUDA",
     .spec_wide_default = true,
     .vlm_factor_permille = 950},
    {.from = 405,
     .name = "0.4.5",
     .rule = GS_SGLANG_RULE_TENSOR,
     .rope_element_bytes = 4,
     .source = "as 0.4.3, and speculative decoding (EAGLE, EAGLE-3, NEXTN) runs at most 48 "
               "requests where --max-running-requests is not given (sglang PR #4908 \"Support "
               "page size > 1 + eagle\", first in the v0.4.5 tag: server_args.py __post_init__)",
     .spec_wide_default = true,
     .spec_running_cap = true,
     .vlm_factor_permille = 900},
    {.from = 406,
     .name = "0.4.6",
     .rule = GS_SGLANG_RULE_TENSOR_KEEP_13G,
     .rope_element_bytes = 4,
     .source = "as 0.4.5, and on GPUs above 80 GiB (81,920 MiB) mem_fraction_static = "
               "(capacity - 13 GiB) / capacity (server_args.py __post_init__, v0.4.6 tag, an "
               "interim rule by its own comment)",
     .spec_wide_default = true,
     .spec_running_cap = true,
     .vlm_factor_permille = 900},
    {.from = 407,
     .name = "0.4.7",
     .rule = GS_SGLANG_RULE_TENSOR_BY_CAPACITY,
     .rope_element_bytes = 4,
     .source = "server_args.py __post_init__ at the v0.4.7 tag: by tp_size x pp_size up to 80 "
               "GiB, 0.88 above; then 0.79 above 180,000 MiB on CUDA, min(f + 48 GiB x (1 - f) "
               "/ capacity, (capacity - 18 GiB) / capacity) above 96 GiB (20 GiB under "
               "speculative decoding), f x 0.95 under speculative decoding below",
     .spec_wide_default = true,
     .spec_running_cap = true,
     .vlm_factor_permille = 900,
     .request_table = GS_SGLANG_REQUESTS_GIVEN},
    {.from = 408,
     .name = "0.4.8",
     .rule = GS_SGLANG_RULE_GPU_CLASS,
     .rope_element_bytes = 4,
     .source = "sglang PR #7054 \"Simplify the heuristics for setting --mem-fraction-static\" "
               "(merged 2025-06-10, after the v0.4.7 tag; first in the v0.4.8 tag): "
               "reserved_mem by GPU class and tp_size x pp_size",
     .spec_wide_default = true,
     .spec_running_cap = true,
     .vlm_factor_permille = 900,
     .request_table = GS_SGLANG_REQUESTS_GIVEN},
    {.from = 409,
     .name = "0.4.9",
     .rule = GS_SGLANG_RULE_GPU_CLASS,
     .rope_element_bytes = 4,
     .source = "as 0.4.8, and no multimodal factor on the fraction (model_runner.py's 0.90 gone "
               "at the v0.4.9 tag)",
     .spec_wide_default = true,
     .spec_running_cap = true,
     .request_table = GS_SGLANG_REQUESTS_GIVEN,
     .decode_extra = true},
    {.from = 410,
     .name = "0.4.10",
     .rule = GS_SGLANG_RULE_GPU_CLASS,
     .rope_element_bytes = 4,
     .source = "as 0.4.9, and a multimodal model's default fraction scaled by its vision tower "
               "(server_args.py adjust_mem_fraction_for_vlm, PR #6881, first in the v0.4.10 "
               "tag)",
     .spec_wide_default = true,
     .spec_running_cap = true,
     .vlm_adjust = true,
     .request_table = GS_SGLANG_REQUESTS_GIVEN,
     .decode_extra = true},
    {.from = 501,
     .name = "0.5.1",
     .rule = GS_SGLANG_RULE_GPU_CLASS,
     .rope_element_bytes = 4,
     .source = "as 0.4.10, and fp8 linears on Marlin's weight-only kernel on GPUs of compute "
               "capability 8.0-8.8 (sglang PR #8990 \"enable marlin fp8 blockwise\", merged "
               "2025-08-19, first in the v0.5.1 tag: quantization/fp8_utils.py "
               "can_auto_enable_marlin_fp8; marlin_utils_fp8.py prepare_fp8_layer_for_marlin)",
     .fp8_marlin = true,
     .spec_wide_default = true,
     .spec_running_cap = true,
     .vlm_adjust = true,
     .request_table = GS_SGLANG_REQUESTS_GIVEN,
     .request_width_draft = true,
     .decode_extra = true},
    {.from = 502,
     .name = "0.5.2",
     .rule = GS_SGLANG_RULE_GPU_CLASS,
     .rope_element_bytes = 4,
     .source = "as 0.5.1, and a hybrid's states in a pool of their own (Qwen3-Next, PR #10233, "
               "first in the v0.5.2 tag): model_runner.py turns the radix cache off for it and "
               "sets max_mamba_cache_size to max_running_requests, else 512 (// dp_size under "
               "--enable-dp-attention), and profile_max_num_token takes that many slots' states "
               "from the pool; MambaPool allocates one slot more and, under speculative "
               "decoding, each slot's intermediate states for speculative_num_draft_tokens, "
               "neither in the budget",
     .fp8_marlin = true,
     .state_rule = GS_SGLANG_STATES_FIXED,
     .state_fallback_512 = true,
     .spec_wide_default = true,
     .spec_running_cap = true,
     .vlm_adjust = true,
     .request_table = GS_SGLANG_REQUESTS_GIVEN,
     .request_width_draft = true,
     .decode_extra = true},
    {.from = 503,
     .name = "0.5.3",
     .rule = GS_SGLANG_RULE_RESERVE,
     .rope_element_bytes = 4,
     .source = "sglang PR #10975 \"Use more general heuristics to set the default value of "
               "--mem-fraction-static\" (merged 2025-09-27; 0.5.2 was the current release on "
               "2025-09-25, verl PR #3613): server_args._handle_gpu_memory_settings; the same "
               "tiers and terms at 0.5.16 but for the prefill graphs (NVIDIA aiconfigurator "
               "sglang_backend.py, derive_sglang_mem_fraction_static, mirrors server_args.py "
               "@0.5.16 without them); hybrids' states as 0.5.2",
     .fp8_marlin = true,
     .state_rule = GS_SGLANG_STATES_FIXED,
     .state_fallback_512 = true,
     .spec_wide_default = true,
     .spec_running_cap = true,
     .small_tier_bs16 = true,
     .vlm_adjust = true,
     .request_table = GS_SGLANG_REQUESTS_GIVEN,
     .request_width_draft = true,
     .decode_extra = true},
    {.from = 504,
     .name = "0.5.4",
     .rule = GS_SGLANG_RULE_RESERVE,
     .rope_element_bytes = 4,
     .source = "as 0.5.3, and the Mamba radix cache (PR #11214 \"Support mamba radix cache v0\", "
               "first in the v0.5.4 tag) with the states' share of the pool, "
               "mamba_full_memory_ratio / (1 + ratio), 0.9 by default (PR #11679): "
               "model_runner.py handle_max_mamba_cache, K = share / P // (1 + "
               "speculative_num_draft_tokens) slots with the radix cache (Qwen3-Next; Falcon-H1 "
               "and Nemotron-H run without it), max_running_requests or 512 without, K x P x (1 "
               "+ draft tokens) taken; 3 slots a request with it "
               "(MAMBA_CACHE_SIZE_MAX_RUNNING_REQUESTS_RATIO)",
     .fp8_marlin = true,
     .state_rule = GS_SGLANG_STATES_SPLIT,
     .state_fallback_512 = true,
     .spec_wide_default = true,
     .spec_running_cap = true,
     .small_tier_bs16 = true,
     .vlm_adjust = true,
     .decode_states = GS_SGLANG_DECODE_STATES_REQUESTS,
     .request_table = GS_SGLANG_REQUESTS_GIVEN,
     .request_width_draft = true,
     .decode_extra = true},
    {.from = 505,
     .name = "0.5.5",
     .rule = GS_SGLANG_RULE_RESERVE,
     .rope_element_bytes = 4,
     .source = "as 0.5.4, and GPUs of 20-35 GiB below TP 4 default to cuda_graph_max_bs 24 "
               "where 0.5.3-0.5.4 set 16 (PR #12124, merged 2025-10-25, first in the v0.5.5 tag: "
               "server_args.py _handle_gpu_memory_settings)",
     .fp8_marlin = true,
     .state_rule = GS_SGLANG_STATES_SPLIT,
     .state_fallback_512 = true,
     .spec_wide_default = true,
     .spec_running_cap = true,
     .vlm_adjust = true,
     .decode_states = GS_SGLANG_DECODE_STATES_REQUESTS,
     .request_table = GS_SGLANG_REQUESTS_GIVEN,
     .request_width_draft = true,
     .decode_extra = true},
    {.from = 507,
     .name = "0.5.7",
     .rule = GS_SGLANG_RULE_RESERVE,
     .rope_element_bytes = 4,
     .source =
         "as 0.5.5, and Mamba radix cache v2 (PR #13584, first in the v0.5.7 tag): "
         "Falcon-H1 and Nemotron-H keep it; model_runner_kv_cache_mixin.py "
         "handle_max_mamba_cache reserves max_running_requests x speculative_num_draft_tokens "
         "states first with the radix cache, then the ratio; a request takes 3 + 2 slots "
         "(MAMBA_CACHE_V2_ADDITIONAL_RATIO_OVERLAP, whatever the strategy)",
     .fp8_marlin = true,
     .state_rule = GS_SGLANG_STATES_RADIX_RESERVE,
     .state_fallback_512 = true,
     .spec_wide_default = true,
     .spec_running_cap = true,
     .vlm_adjust = true,
     .swa_pool = GS_SGLANG_SWA_POOL_UNIFORM,
     .decode_states = GS_SGLANG_DECODE_STATES_REQUESTS,
     .request_table = GS_SGLANG_REQUESTS_GIVEN,
     .request_width_draft = true,
     .decode_extra = true},
    {.from = 508,
     .name = "0.5.8",
     .rule = GS_SGLANG_RULE_RESERVE,
     .rope_element_bytes = 4,
     .source = "as 0.5.7, but the draft's states (max_running_requests // dp x "
               "speculative_num_draft_tokens) reserved first with or without the radix cache, 3 "
               "slots a request under the default no_buffer strategy, Nemotron-H without the "
               "radix cache under speculative decoding (server_args.py), and "
               "_auto_choose_speculative_params' (3, 1, 4) for all other models (v0.5.8 tag)",
     .fp8_marlin = true,
     .state_rule = GS_SGLANG_STATES_RESERVE,
     .state_fallback_512 = true,
     .spec_radix = GS_SGLANG_SPEC_RADIX_OFF_NEMOTRON,
     .spec_running_cap = true,
     .vlm_adjust = true,
     .swa_pool = GS_SGLANG_SWA_POOL_UNIFORM,
     .decode_states = GS_SGLANG_DECODE_STATES_REQUESTS,
     .request_table = GS_SGLANG_REQUESTS_GIVEN,
     .request_width_draft = true,
     .decode_extra = true},
    {.from = 509,
     .name = "0.5.9",
     .rule = GS_SGLANG_RULE_RESERVE,
     .rope_element_bytes = 4,
     .source = "as 0.5.8, but without the radix cache the slots are max_running_requests only "
               "where it is set, else the ratio (no 512), and speculative decoding turns the "
               "radix cache off for every hybrid (server_args.py _handle_mamba_radix_cache, "
               "v0.5.9 tag)",
     .fp8_marlin = true,
     .state_rule = GS_SGLANG_STATES_RESERVE,
     .spec_radix = GS_SGLANG_SPEC_RADIX_OFF,
     .spec_running_cap = true,
     .state_dtype_config = true,
     .vlm_adjust = true,
     .swa_pool = GS_SGLANG_SWA_POOL_PROFILED,
     .decode_states = GS_SGLANG_DECODE_STATES_K_PLUS,
     .request_table = GS_SGLANG_REQUESTS_GIVEN,
     .request_width_draft = true,
     .decode_extra = true},
    {.from = 510,
     .name = "0.5.10",
     .rule = GS_SGLANG_RULE_RESERVE,
     .rope_element_bytes = 4,
     .source = "as 0.5.9, and piecewise CUDA graphs on by default (PR #16331, in the 0.5.10 "
               "release notes): server_args reserve_for_graph_mb adds 8 MiB per prefill capture "
               "size (piecewise_cuda_graph_tokens up to chunked_prefill_size: 58 to 8,192), "
               "1.5 GiB for an MLA model, none on ROCm; 4 GiB reserved for an EAGLE / NEXTN "
               "draft where 0.5.3-0.5.9 reserved 2 (PR #19418, merged 2026-02-26); speculative "
               "decoding on a hybrid with the radix cache under the default no_buffer strategy "
               "raises ValueError at startup (_handle_mamba_radix_cache, v0.5.10 tag)",
     .prefill_graphs = GS_SGLANG_PREFILL_GRAPHS_PIECEWISE,
     .piecewise_off_spec = true,
     .piecewise_off_dsa = true,
     .fp8_marlin = true,
     .state_rule = GS_SGLANG_STATES_RESERVE,
     .spec_radix = GS_SGLANG_SPEC_RADIX_REFUSED,
     .spec_running_cap = true,
     .state_stage_pool = true,
     .state_dtype_config = true,
     .draft_reserve_4g = true,
     .vlm_adjust = true,
     .swa_pool = GS_SGLANG_SWA_POOL_PROFILED,
     .decode_states = GS_SGLANG_DECODE_STATES_MIN,
     .request_table = GS_SGLANG_REQUESTS_RESOLVED,
     .request_width_draft = true,
     .decode_extra = true},
    {.from = 511,
     .name = "0.5.11",
     .rule = GS_SGLANG_RULE_RESERVE,
     .rope_element_bytes = 4,
     .source = "as 0.5.10, but speculative decoding keeps the piecewise prefill graphs, and so "
               "their reserve (_handle_piecewise_cuda_graph's rule 2 gone at the v0.5.11 tag)",
     .prefill_graphs = GS_SGLANG_PREFILL_GRAPHS_PIECEWISE,
     .piecewise_off_dsa = true,
     .fp8_marlin = true,
     .state_rule = GS_SGLANG_STATES_RESERVE,
     .spec_radix = GS_SGLANG_SPEC_RADIX_REFUSED,
     .spec_running_cap = true,
     .state_stage_pool = true,
     .state_dtype_config = true,
     .draft_reserve_4g = true,
     .vlm_adjust = true,
     .swa_pool = GS_SGLANG_SWA_POOL_SPLIT,
     .decode_states = GS_SGLANG_DECODE_STATES_MAX,
     .request_table = GS_SGLANG_REQUESTS_RESOLVED,
     .request_width_draft = true,
     .decode_extra = true},
    {.from = 512,
     .name = "0.5.12",
     .rule = GS_SGLANG_RULE_RESERVE,
     .rope_element_bytes = 4,
     .source = "as 0.5.11, but the request-to-token table keeps a padding row "
               "(mem_cache/memory_pool.py ReqToTokenPool _alloc_size = size + 1, v0.5.12 "
               "tag)",
     .prefill_graphs = GS_SGLANG_PREFILL_GRAPHS_PIECEWISE,
     .piecewise_off_dsa = true,
     .fp8_marlin = true,
     .state_rule = GS_SGLANG_STATES_RESERVE,
     .spec_radix = GS_SGLANG_SPEC_RADIX_REFUSED,
     .spec_running_cap = true,
     .state_stage_pool = true,
     .state_dtype_config = true,
     .draft_reserve_4g = true,
     .vlm_adjust = true,
     .swa_pool = GS_SGLANG_SWA_POOL_SPLIT,
     .dsv4_pool = GS_SGLANG_DSV4_POOL_WHOLE,
     .decode_states = GS_SGLANG_DECODE_STATES_MAX,
     .request_table = GS_SGLANG_REQUESTS_RESOLVED_PAD,
     .request_width_draft = true,
     .decode_extra = true},
    {.from = 513,
     .name = "0.5.13",
     .rule = GS_SGLANG_RULE_RESERVE,
     .rope_element_bytes = 4,
     .source = "as 0.5.11, and handle_max_mamba_cache's joint solve (v0.5.13 tag, "
               "model_runner_kv_cache_mixin.py): under speculative decoding K = share / (P (1 + "
               "speculative_num_draft_tokens / slots a request)), the draft states of min("
               "max_running_requests, K / slots a request) requests taken beside them; "
               "DeepSeek-V3.2 and GLM-5 keep the piecewise prefill graphs (is_deepseek_nsa and "
               "their classes out of is_piecewise_cuda_graph_disabled_model at the tag)",
     .prefill_graphs = GS_SGLANG_PREFILL_GRAPHS_PIECEWISE,
     .fp8_marlin = true,
     .state_rule = GS_SGLANG_STATES_JOINT,
     .spec_radix = GS_SGLANG_SPEC_RADIX_REFUSED,
     .spec_running_cap = true,
     .state_stage_pool = true,
     .state_dtype_config = true,
     .draft_reserve_4g = true,
     .vlm_adjust = true,
     .swa_pool = GS_SGLANG_SWA_POOL_SPLIT,
     .dsv4_pool = GS_SGLANG_DSV4_POOL_STAGE,
     .decode_states = GS_SGLANG_DECODE_STATES_MAX,
     .request_table = GS_SGLANG_REQUESTS_RESOLVED_PAD,
     .request_width_draft = true,
     .decode_extra = true},
    {.from = 514,
     .name = "0.5.14",
     .rule = GS_SGLANG_RULE_RESERVE,
     .rope_element_bytes = 4,
     .source = "as 0.5.13, and a speculative draft budgeted inside mem_fraction_static: PR "
               "#23862 (opened 2026-04-27: \"Remove the 4 GB / 6 GB heuristic reservation\", the "
               "target's pool sized once the draft has loaded) and PR #28855 (2026-06-21: "
               "\"account draft weights in --mem-fraction-static\"); kv_cache_configurator.py "
               "_profile_available_bytes, pool_configurator.py (the cell x (1 + draft layers / "
               "layers)); the two PRs first in the v0.5.14 tag, where "
               "--mamba-radix-cache-strategy auto picks extra_buffer for the classes that "
               "support it and speculative decoding keeps the radix cache "
               "(_handle_mamba_radix_cache); --cuda-graph-config by phase, whose "
               "--disable-cuda-graph turns the prefill graphs off too, and multimodal "
               "classes validated on piecewise graphs keep them "
               "(multimodal_piecewise_cuda_graph_supported_model_archs)",
     .prefill_graphs = GS_SGLANG_PREFILL_GRAPHS_PIECEWISE,
     .graph_phases = true,
     .fp8_marlin = true,
     .draft_in_fraction = true,
     .state_rule = GS_SGLANG_STATES_JOINT,
     .state_extra_buffer = true,
     .spec_running_cap = true,
     .state_stage_pool = true,
     .state_dtype_config = true,
     .vlm_adjust = true,
     .swa_pool = GS_SGLANG_SWA_POOL_SPLIT,
     .dsv4_pool = GS_SGLANG_DSV4_POOL_STAGE,
     .swa_interval_128 = true,
     .swa_chunk_cap = true,
     .decode_states = GS_SGLANG_DECODE_STATES_MAX,
     .decode_extra_given = true,
     .request_table = GS_SGLANG_REQUESTS_CAPPED,
     .request_width_draft = true,
     .decode_extra = true},
    {.from = 515,
     .name = "0.5.15",
     .rule = GS_SGLANG_RULE_RESERVE,
     .rope_element_bytes = 4,
     .source = "as 0.5.14, but breakable prefill CUDA graphs by default on CUDA "
               "(cuda_graph_config.py default_prefill_backend, v0.5.15 tag), which "
               "_disable_breakable_cudagraph_if_incompatible leaves out for MLA, DeepSeek-V4, DP "
               "attention, an all-to-all MoE backend and multimodal models; 2 GiB above the floor "
               "for DeepEP (reserve_for_deepep_a2a_mb); --disaggregation-mode in the reserve (PR "
               "#29615, merged 2026-06-29, \"Make mem_fraction_static reserve "
               "disaggregation-mode aware\": _handle_gpu_memory_settings): a decode worker's "
               "activation term from max(its "
               "running requests x draft tokens, 2048), no prefill graphs on it, no decode "
               "graphs on a prefill worker, whose --disable-cuda-graph "
               "(pd_disaggregation_hook.py) takes its prefill graphs too",
     .prefill_graphs = GS_SGLANG_PREFILL_GRAPHS_BREAKABLE,
     .graph_phases = true,
     .pd_reserve = GS_SGLANG_PD_RESERVE_ROLES,
     .breakable_mla = GS_SGLANG_BREAKABLE_MLA_OFF,
     .breakable_off_dp = true,
     .fp8_marlin = true,
     .draft_in_fraction = true,
     .state_rule = GS_SGLANG_STATES_JOINT,
     .state_extra_buffer = true,
     .spec_running_cap = true,
     .state_stage_pool = true,
     .state_dtype_config = true,
     .deepep_reserve = true,
     .breakable_off_a2a = true,
     .vlm_adjust = true,
     .swa_pool = GS_SGLANG_SWA_POOL_SPLIT,
     .dsv4_pool = GS_SGLANG_DSV4_POOL_REQUESTS,
     .swa_interval_128 = true,
     .swa_chunk_cap = true,
     .decode_states = GS_SGLANG_DECODE_STATES_MAX,
     .decode_extra_given = true,
     .request_table = GS_SGLANG_REQUESTS_CAPPED,
     .request_width_draft = true,
     .decode_extra = true},
    {.from = 516,
     .name = "0.5.16",
     .rule = GS_SGLANG_RULE_RESERVE,
     .rope_element_bytes = 4,
     .source = "as 0.5.15, but a prefill worker keeps its prefill graphs "
               "(_apply_cuda_graph_disaggregation_roles turns its decode phase off alone; "
               "pd_disaggregation_hook.py no longer sets --disable-cuda-graph, v0.5.16 tag), "
               "Qwen3.5's multimodal classes keep breakable graphs and Kimi K2.5 and MiniMax M3 "
               "run piecewise ones (multimodal_breakable_ and "
               "multimodal_piecewise_cuda_graph_supported_model_archs)",
     .prefill_graphs = GS_SGLANG_PREFILL_GRAPHS_BREAKABLE,
     .graph_phases = true,
     .pd_reserve = GS_SGLANG_PD_RESERVE_PHASES,
     .breakable_mla = GS_SGLANG_BREAKABLE_MLA_OFF,
     .breakable_off_dp = true,
     .fp8_marlin = true,
     .draft_in_fraction = true,
     .state_rule = GS_SGLANG_STATES_JOINT,
     .state_extra_buffer = true,
     .spec_running_cap = true,
     .state_stage_pool = true,
     .state_dtype_config = true,
     .deepep_reserve = true,
     .breakable_off_a2a = true,
     .vlm_adjust = true,
     .swa_pool = GS_SGLANG_SWA_POOL_SPLIT,
     .dsv4_pool = GS_SGLANG_DSV4_POOL_REQUESTS,
     .swa_interval_128 = true,
     .swa_chunk_cap = true,
     .decode_states = GS_SGLANG_DECODE_STATES_MAX,
     .decode_extra_given = true,
     .request_table = GS_SGLANG_REQUESTS_CAPPED,
     .request_width_draft = true,
     .decode_extra = true},
    {.from = 517,
     .name = "0.5.17",
     .rule = GS_SGLANG_RULE_RESERVE,
     .rope_element_bytes = 4,
     .source = "as 0.5.14, and the state pool's padding slot in the budget solve (PR #32184, "
               "merged 2026-07-23, first in the v0.5.17 tag: kv_cache_configurator.py "
               "_handle_max_mamba_cache reserves max_mamba_cache_size + 1 slots); breakable "
               "prefill graphs for DP attention and for MLA models with DeepSeek sparse "
               "attention, none for Nemotron-H (\"MLA attention (non-DSA)\", \"NemotronH "
               "(hybrid Mamba2 prefill)\"); a decode worker's default without the multimodal "
               "headroom (\"PD decode engines do not need this headroom\"); DeepEP keeps "
               "breakable prefill graphs in 8-aligned sizes to 2,048 and 1 GiB more "
               "(_apply_deepep_adjustments, \"Prefill-BCG DeepEP delta\")",
     .prefill_graphs = GS_SGLANG_PREFILL_GRAPHS_BREAKABLE,
     .graph_phases = true,
     .pd_reserve = GS_SGLANG_PD_RESERVE_PHASES,
     .breakable_mla = GS_SGLANG_BREAKABLE_MLA_NON_DSA,
     .breakable_off_nemotron_h = true,
     .vlm_adjust_prefill_only = true,
     .fp8_marlin = true,
     .draft_in_fraction = true,
     .state_rule = GS_SGLANG_STATES_JOINT,
     .state_extra_buffer = true,
     .state_pad_slot = true,
     .spec_running_cap = true,
     .state_stage_pool = true,
     .state_stage_budget = true,
     .state_dtype_config = true,
     .deepep_reserve = true,
     .deepep_breakable = true,
     .vlm_adjust = true,
     .swa_pool = GS_SGLANG_SWA_POOL_SPLIT,
     .dsv4_pool = GS_SGLANG_DSV4_POOL_REQUESTS,
     .swa_interval_128 = true,
     .swa_chunk_cap = true,
     .decode_states = GS_SGLANG_DECODE_STATES_MAX,
     .decode_extra_given = true,
     .request_table = GS_SGLANG_REQUESTS_CAPPED,
     .request_width_draft = true,
     .decode_extra = true},
    {.from = 518,
     .name = "0.5.18",
     .rule = GS_SGLANG_RULE_RESERVE,
     .rope_element_bytes = 4,
     .source = "as 0.5.17, but breakable prefill graphs for every MLA model and for Nemotron-H "
               "(_disable_breakable_cudagraph_if_incompatible at the v0.5.18 tag: DeepSeek-V4 "
               "and unlisted multimodal classes left out), and Kimi K2.5 and K3 among the "
               "multimodal classes that keep them",
     .prefill_graphs = GS_SGLANG_PREFILL_GRAPHS_BREAKABLE,
     .graph_phases = true,
     .pd_reserve = GS_SGLANG_PD_RESERVE_PHASES,
     .vlm_adjust_prefill_only = true,
     .fp8_marlin = true,
     .draft_in_fraction = true,
     .state_rule = GS_SGLANG_STATES_JOINT,
     .state_extra_buffer = true,
     .state_pad_slot = true,
     .spec_running_cap = true,
     .state_stage_pool = true,
     .state_stage_budget = true,
     .state_dtype_config = true,
     .deepep_reserve = true,
     .deepep_breakable = true,
     .vlm_adjust = true,
     .swa_pool = GS_SGLANG_SWA_POOL_SPLIT,
     .dsv4_pool = GS_SGLANG_DSV4_POOL_REQUESTS,
     .swa_interval_128 = true,
     .swa_chunk_cap = true,
     .decode_states = GS_SGLANG_DECODE_STATES_MAX,
     .decode_extra_given = true,
     .request_table = GS_SGLANG_REQUESTS_CAPPED,
     .request_width_draft = true,
     .decode_extra = true},
    {.from = 520,
     .name = "0.5.20",
     .rule = GS_SGLANG_RULE_RESERVE,
     .rope_element_bytes = 4,
     .source = "as 0.5.18, and GPUs under 35 GiB default to chunked_prefill_size 4096 and "
               "cuda_graph_max_bs 48 below TP 4, 160 from it (PR #37898, merged about "
               "2026-09-04; in 0.5.20 per PR #40346; arg_groups/memory_hook.py "
               "handle_gpu_memory_settings)",
     .prefill_graphs = GS_SGLANG_PREFILL_GRAPHS_BREAKABLE,
     .graph_phases = true,
     .pd_reserve = GS_SGLANG_PD_RESERVE_PHASES,
     .vlm_adjust_prefill_only = true,
     .small_tier_4096 = true,
     .fp8_marlin = true,
     .draft_in_fraction = true,
     .state_rule = GS_SGLANG_STATES_JOINT,
     .state_extra_buffer = true,
     .state_pad_slot = true,
     .spec_running_cap = true,
     .state_stage_pool = true,
     .state_stage_budget = true,
     .state_dtype_config = true,
     .deepep_reserve = true,
     .deepep_breakable = true,
     .vlm_adjust = true,
     .swa_pool = GS_SGLANG_SWA_POOL_SPLIT,
     .dsv4_pool = GS_SGLANG_DSV4_POOL_REQUESTS,
     .swa_interval_128 = true,
     .swa_chunk_cap = true,
     .decode_states = GS_SGLANG_DECODE_STATES_MAX,
     .decode_extra_given = true,
     .request_table = GS_SGLANG_REQUESTS_CAPPED,
     .request_width_draft = true,
     .decode_extra = true},
};

#define RELEASES (sizeof(releases) / sizeof(releases[0]))

const struct gs_sglang_release *gs_sglang_release_for(uint32_t version)
{
    if (version == 0)
        return &releases[RELEASES - 1];
    const struct gs_sglang_release *r = &releases[0];
    for (size_t i = 0; i < RELEASES; i++)
        if (releases[i].from <= version)
            r = &releases[i];
    return r;
}

bool gs_sglang_modeled(uint32_t version)
{
    return version == 0 || version >= releases[0].from;
}

/* round(x / total, 3) in thousandths, half up (MiB, x and total > 0) */
static uint64_t thousandths(double kept_mib, double total_mib)
{
    if (kept_mib <= 0 || total_mib <= 0)
        return 1;
    const uint64_t p = (uint64_t)(kept_mib / total_mib * 1000 + 0.5);
    return p ? p : 1;
}

/* sglang server_args.py before PR #7054: by tp_size alone (0.4.7: tp_size x pp_size) */
static uint64_t by_tensor(uint64_t tp)
{
    return tp >= 16 ? 790 : tp >= 8 ? 810 : tp >= 4 ? 850 : tp >= 2 ? 870 : 880;
}

/* The v0.4.6 tag: "if gpu_mem <= 81920" the table, "else ... (gpu_mem - 1024 * 13) / gpu_mem"
 * (unrounded; gpusizer keeps thousandths) */
static uint64_t by_tensor_keep_13g(uint64_t mib, uint64_t tp)
{
    return mib <= 81920 ? by_tensor(tp) : thousandths((double)mib - 13 * 1024, (double)mib);
}

/* The v0.4.7 tag: parallel_size = tp_size x pp_size into the table up to 81,920 MiB, 0.88
 * above; then "if gpu_mem > 180 * 1000 and is_cuda(): 0.79", "elif gpu_mem > 96 * 1024:
 * min(mem_fraction + 48 * 1024 * (1 - mem_fraction) / gpu_mem, (gpu_mem - reserve_mem) /
 * gpu_mem)" with reserve_mem 18 GiB ("15 GB + additional 3GB for cuda graph"), 20 GiB under
 * speculative decoding, "else: if self.speculative_algorithm is not None:
 * self.mem_fraction_static *= 0.95" (unrounded; gpusizer keeps thousandths) */
static uint64_t by_tensor_capacity(uint64_t mib, uint64_t parallel, bool rocm,
                                   enum gs_spec_method spec)
{
    const double f = mib <= 81920 ? (double)by_tensor(parallel) / 1000.0 : 0.88;
    const double m = (double)mib;
    double out;
    if (mib > 180 * 1000 && !rocm) {
        out = 0.79;
    } else if (mib > 96 * 1024) {
        const double reserve = spec != GS_SPEC_NONE ? 20 * 1024 : 18 * 1024;
        const double grown = f + 48.0 * 1024 * (1 - f) / m, kept = (m - reserve) / m;
        out = grown < kept ? grown : kept;
    } else {
        out = spec != GS_SPEC_NONE ? f * 0.95 : f;
    }
    return thousandths(out * m, m);
}

/* PR #7054: reserved_mem by GPU class, growing with parallel_size = tp_size x pp_size, and
 * 4 GiB more with data-parallel attention ("if self.enable_dp_attention: reserved_mem += 4 *
 * 1024", in server_args.py throughout the rule's releases: the early form beside the H20 class
 * and the later one beside adjust_mem_fraction_for_vlm) */
/* The draft's reserve (MiB x 10) in the 0.4.8-0.5.2 rule: "# draft model and larger cuda graph
 * buffers ... if self.speculative_algorithm is not None: reserved_mem += 2 * 1024", STANDALONE
 * ("the draft model is typically larger") 6 * 1024 once it exists */
static uint64_t class_spec_x10(enum gs_spec_method spec)
{
    if (spec == GS_SPEC_NONE)
        return 0;
    return spec == GS_SPEC_DRAFT_MODEL ? 60 * 1024 : 20 * 1024;
}

static uint64_t by_gpu_class(uint64_t mib, uint64_t parallel, uint64_t dp,
                             enum gs_spec_method spec)
{
    uint64_t reserved_x10; /* MiB x 10, to keep the tenths of a GiB exact */
    if (mib < 35 * 1024)
        reserved_x10 = (28 * 1024) + parallel * 1024; /* (2.8 + parallel/10) GiB */
    else if (mib < 90 * 1024)
        reserved_x10 = (95 * 1024) + parallel * 5 * 1024; /* (9.5 + parallel/2) GiB */
    else if (mib < 160 * 1024)
        reserved_x10 = (120 * 1024) + parallel * 5 * 1024; /* (12 + parallel/2) GiB */
    else
        reserved_x10 = 320 * 1024; /* 32 GiB */
    reserved_x10 += class_spec_x10(spec);
    if (dp > 1)
        reserved_x10 += 40 * 1024; /* enable_dp_attention: 4 GiB */
    if (mib == 0 || reserved_x10 >= mib * 10)
        return 1;
    /* permille, rounded half up */
    return ((mib * 10 - reserved_x10) * 1000 + mib * 5) / (mib * 10);
}

/* PR #10975: chunked_prefill_size and cuda_graph_max_bs by GPU class (MiB), then
 * reserved_mem = 512 + 1.5 x max(chunked, 2048) + 2 x max_bs + tp x pp / 8 x 1024
 * (+ 3 x max_bs x dp, and 1.5 x max_bs x dp more above 300, for DP attention),
 * at least 10 GiB above 60 GiB */
uint64_t gs_sglang_prefill_capture_sizes(uint64_t max_tokens)
{
    /* server_args _generate_piecewise_cuda_graph_tokens (0.5.10-0.5.13),
     * _generate_prefill_cuda_graph_batch_sizes (0.5.14 on): the steps up to 4,096, then by 512,
     * "capture_sizes = [s for s in capture_sizes if s <= max_bs]" - the reserve counts that list
     * (len(...bs) * 8), which holds no size above the chunk and does not add the chunk itself */
    static const struct {
        uint64_t from, to, step;
    } runs[] = {{4, 32, 4}, {48, 256, 16}, {288, 512, 32}, {576, 1024, 64}, {1280, 4096, 256}};
    uint64_t n = 0;
    for (size_t i = 0; i < sizeof(runs) / sizeof(runs[0]); i++)
        for (uint64_t v = runs[i].from; v <= runs[i].to && v <= max_tokens; v += runs[i].step)
            n++;
    if (max_tokens >= 4608)
        n += (max_tokens - 4608) / 512 + 1;
    return n;
}

uint64_t gs_sglang_prefill_capture_sizes_deepep(void)
{
    /* _apply_deepep_adjustments: "max_bs = self.cuda_graph_config.prefill.max_bs or 2048",
     * "aligned = sorted({((b + 7) // 8) * 8 for b in bs})" over the list up to it */
    static const struct {
        uint64_t from, to, step;
    } runs[] = {{4, 32, 4}, {48, 256, 16}, {288, 512, 32}, {576, 1024, 64}, {1280, 2048, 256}};
    uint64_t n = 0, last = 0;
    for (size_t i = 0; i < sizeof(runs) / sizeof(runs[0]); i++)
        for (uint64_t v = runs[i].from; v <= runs[i].to; v += runs[i].step) {
            const uint64_t up = (v + 7) / 8 * 8;
            n += up != last;
            last = up;
        }
    return n;
}

/* max_prefill_tokens' default (server_args.py, every tag read): the activation term's tokens
 * when chunked prefill is off */
#define MAX_PREFILL_TOKENS 16384

/* The GPU class's --chunked-prefill-size and --cuda-graph-max-bs from 0.5.3, each where the
 * request leaves it ("if self.chunked_prefill_size is None", "if self.cuda_graph_max_bs is
 * None"), `mib` the GPU's capacity, `tp` the tensor-parallel size (x DP attention's ranks). */
static void class_defaults(const struct gs_sglang_release *release, uint64_t mib, uint64_t tp,
                           int64_t *chunked, uint64_t *max_bs)
{
    if (mib < 20 * 1024) {
        *chunked = 2048, *max_bs = 8; /* T4, 4080 */
    } else if (mib < 35 * 1024 && release->small_tier_4096) {
        *chunked = 4096, *max_bs = tp < 4 ? 48 : 160; /* A10, 4090, 5090 from 0.5.20 */
    } else if (mib < 35 * 1024) {
        *chunked = 2048,
        *max_bs = tp < 4 ? (release->small_tier_bs16 ? 16 : 24) : 80; /* A10, 4090 */
    } else if (mib < 60 * 1024) {
        *chunked = 4096, *max_bs = tp < 4 ? 32 : 160; /* A100 40GB, L40 */
    } else if (mib < 160 * 1024) {
        *chunked = 8192, *max_bs = tp < 4 ? 256 : 512; /* H100, A100 80GB, H20, H200 */
    } else {
        *chunked = 16384, *max_bs = 512; /* B200, MI300 */
    }
}

static uint64_t by_reserve(const struct gs_sglang_release *release,
                           const struct gs_sglang_fraction_input *in, uint64_t mib, uint64_t tp,
                           uint64_t pp, uint64_t dp, struct gs_sglang_reserve *r)
{
    const enum gs_spec_method spec = in->spec;
    int64_t chunked;
    uint64_t max_bs;
    class_defaults(release, mib, tp, &chunked, &max_bs);
    if (in->chunked_prefill_size)
        chunked = in->chunked_prefill_size;
    if (in->cuda_graph_max_bs)
        max_bs = in->cuda_graph_max_bs;
    r->chunked_prefill_size = chunked;
    r->cuda_graph_max_bs = max_bs;
    /* the activation term's tokens; from 0.5.15 a decode worker's "running_requests =
     * self.max_running_requests or decode_cuda_graph_config.max_bs or 1", "draft_tokens =
     * self.speculative_num_draft_tokens or 1" (both as given: the speculative hooks run after
     * _handle_gpu_memory_settings) */
    const bool roles = release->pd_reserve != GS_SGLANG_PD_RESERVE_FLAT;
    uint64_t tokens = chunked > 0 ? (uint64_t)chunked : MAX_PREFILL_TOKENS;
    if (roles && in->role == GS_SGLANG_ROLE_DECODE) {
        const uint64_t running = in->max_running_requests ? in->max_running_requests : max_bs;
        const uint64_t draft = in->draft_tokens ? in->draft_tokens : 1;
        tokens = running > UINT64_MAX / draft ? UINT64_MAX : running * draft;
    }
    r->activation_tokens = tokens > 2048 ? tokens : 2048;
    r->activation_mib = 1.5 * (double)r->activation_tokens;
    /* the decode graphs: every release to 0.5.14 ("reserved_mem += self.cuda_graph_max_bs * 2");
     * from 0.5.15 "if self.disaggregation_mode != 'prefill' and decode_cuda_graph_config.backend
     * != Backend.DISABLED" (--disable-cuda-graph disables it) */
    const bool decode_graphs =
        !roles || (in->role != GS_SGLANG_ROLE_PREFILL && !in->disable_cuda_graph);
    r->decode_graph_mib = decode_graphs ? 2.0 * (double)max_bs : 0;
    r->parallel_mib = (double)tp * (double)pp / 8 * 1024;
    /* DP attention's padding, on a prefill worker none from 0.5.15 */
    if (dp > 1 && !(roles && in->role == GS_SGLANG_ROLE_PREFILL)) {
        r->attention_data_mib = (double)max_bs * (double)dp * 3;
        if (max_bs > 300)
            r->attention_data_mib += (double)max_bs * (double)dp * 1.5;
    }
    /* reserve_for_graph_mb's prefill graphs: 8 MiB per capture size ("1.5 GiB" flat for MLA
     * models) where the release captures them (gs_sglang_prefill_graphs_off; ROCm's default
     * prefill backend, tc_piecewise, is switched off there); from 0.5.15 none on a decode
     * worker ("self.disaggregation_mode != 'decode'") */
    if (release->prefill_graphs != GS_SGLANG_PREFILL_GRAPHS_NONE && !in->rocm &&
        !in->prefill_graphs_off && !(roles && in->role == GS_SGLANG_ROLE_DECODE)) {
        /* DeepEP keeps them only as breakable graphs (0.5.17 on; gs_sglang_prefill_graphs_off
         * says where it does not), in 8-aligned sizes to 2,048, and "Prefill-BCG DeepEP delta
         * (bridge pool + NVL first-touch during capture)": 1 GiB */
        const bool deepep = in->deepep && release->deepep_breakable;
        r->prefill_capture_sizes =
            deepep ? gs_sglang_prefill_capture_sizes_deepep()
                   : gs_sglang_prefill_capture_sizes(chunked > 0 ? (uint64_t)chunked : 0);
        r->prefill_graph_mib = in->mla ? 1536.0 : 8.0 * (double)r->prefill_capture_sizes;
        if (deepep)
            r->deepep_mib = 1024;
    }
    double reserved = 512 + r->activation_mib + r->decode_graph_mib + r->parallel_mib +
                      r->attention_data_mib + r->prefill_graph_mib + r->deepep_mib;
    if (mib > 60 * 1024 && reserved < 10 * 1024) {
        r->floor_mib = 10 * 1024 - reserved;
        reserved = 10 * 1024;
    }
    /* reserve_for_deepep_a2a_mb, on top of the floor: "DeepEP all-to-all buffers captured in the
     * decode graph are real extra allocations" (role and decode graphs as above) */
    if (in->deepep && release->deepep_reserve && decode_graphs) {
        r->deepep_mib += 2048;
        reserved += 2048;
    }
    /* after the floor: "standalonedraft model and cuda graphs" 6 * 1024, "elif
     * self.speculative_algorithm != \"NGRAM\": # eagle draft models and cuda graphs" 2 * 1024;
     * gone once the draft is budgeted inside the fraction (PR #23862: memory_hook.py
     * handle_gpu_memory_settings has no speculative term) */
    if (!release->draft_in_fraction && spec == GS_SPEC_DRAFT_MODEL)
        r->draft_mib = 6 * 1024;
    else if (!release->draft_in_fraction && spec != GS_SPEC_NONE && spec != GS_SPEC_NGRAM)
        r->draft_mib = release->draft_reserve_4g ? 4 * 1024 : 2 * 1024;
    reserved += r->draft_mib;
    r->total_mib = reserved;
    return thousandths((double)mib - reserved, (double)mib);
}

uint64_t gs_sglang_default_fraction_permille(const struct gs_sglang_release *release,
                                             uint64_t total_bytes, uint64_t tensor,
                                             uint64_t pipeline, uint64_t attention_data)
{
    return gs_sglang_default_fraction_spec_permille(release, total_bytes, tensor, pipeline,
                                                    attention_data, GS_SPEC_NONE);
}

uint64_t gs_sglang_default_fraction_spec_permille(const struct gs_sglang_release *release,
                                                  uint64_t total_bytes, uint64_t tensor,
                                                  uint64_t pipeline, uint64_t attention_data,
                                                  enum gs_spec_method spec)
{
    const struct gs_sglang_fraction_input in = {.total_bytes = total_bytes,
                                                .tensor = tensor,
                                                .pipeline = pipeline,
                                                .attention_data = attention_data,
                                                .spec = spec};
    return gs_sglang_default_fraction(release, &in);
}

uint64_t gs_sglang_default_fraction(const struct gs_sglang_release *release,
                                    const struct gs_sglang_fraction_input *in)
{
    return gs_sglang_default_fraction_reserve(release, in, NULL);
}

uint64_t gs_sglang_default_fraction_reserve(const struct gs_sglang_release *release,
                                            const struct gs_sglang_fraction_input *in,
                                            struct gs_sglang_reserve *reserve)
{
    struct gs_sglang_reserve unused;
    struct gs_sglang_reserve *r = reserve != NULL ? reserve : &unused;
    *r = (struct gs_sglang_reserve){0};
    const uint64_t mib = in->total_bytes / GS_MIB;
    const uint64_t tp = in->tensor ? in->tensor : 1, pp = in->pipeline ? in->pipeline : 1;
    const uint64_t dp = in->attention_data ? in->attention_data : 1;
    switch (release->rule) {
    case GS_SGLANG_RULE_TENSOR:
        return by_tensor(tp);
    case GS_SGLANG_RULE_TENSOR_KEEP_13G:
        return by_tensor_keep_13g(mib, tp);
    case GS_SGLANG_RULE_TENSOR_BY_CAPACITY:
        return by_tensor_capacity(mib, tp * pp, in->rocm, in->spec);
    case GS_SGLANG_RULE_GPU_CLASS:
        return by_gpu_class(mib, tp * pp, dp, in->spec);
    case GS_SGLANG_RULE_RESERVE:
        break;
    }
    return by_reserve(release, in, mib, tp, pp, dp, r);
}

uint64_t gs_sglang_vlm_fraction_permille(uint64_t permille, uint64_t vision_layers,
                                         uint64_t vision_hidden)
{
    /* sglang server_args.adjust_mem_fraction_for_vlm: complexity against ViT-L/14 (24 layers of
     * 1024), every doubling taking 10% more, within [0.8, 1.05], on a base factor of 0.95 */
    const double score = (double)vision_layers * (double)vision_hidden * (double)vision_hidden;
    const double ratio = score / (24.0 * 1024.0 * 1024.0);
    double adjust = 1.0 - 0.1 * (ratio - 1.0);
    adjust = adjust < 0.8 ? 0.8 : adjust > 1.05 ? 1.05 : adjust;
    const uint64_t p = (uint64_t)((double)permille * 0.95 * adjust + 0.5);
    return p ? p : 1;
}

uint64_t gs_sglang_preload_bytes(enum gs_link link, uint64_t tensor, bool cross_node)
{
    /* model_runner.init_torch_distributed: get_available_gpu_memory after
     * init_distributed_environment and initialize_model_parallel, whose
     * pynccl and custom all-reduce communicators allocate their buffers */
    return GS_CUDA_CONTEXT_BYTES + gs_runtime_comm_bytes(link, tensor, cross_node);
}

/* The release whose rules apply: the one asked for, else the row's own. */
static uint32_t release_version(const struct gs_inference_input *in,
                                const struct gs_sglang_release *rel)
{
    return in->engine.version ? in->engine.version : rel->from;
}

/* Whether the release sizes this model's cache with DeepSeek-V4's pools. */
static bool dsv4_pools(const struct gs_inference_input *in, const struct gs_sglang_release *rel)
{
    return rel != NULL && rel->dsv4_pool != GS_SGLANG_DSV4_POOL_NONE &&
           gs_arch_is_deepseek_v4(in->arch);
}

/* DeepSeek-V4's server defaults (arg_groups/deepseek_v4_hook.py apply_deepseek_v4_defaults, and
 * from the v0.5.15 tag arg_groups/overrides.py _deepseek_v4_overrides and
 * _deepseek_v4_kv_cache_dtype, the same values at every tag to v0.5.18 and main): page_size 256,
 * --max-running-requests 256 where none is given (the speculative hooks write theirs after
 * it), swa_full_tokens_ratio 0.1 unless given, and kv_cache_dtype fp8_e4m3 for "auto" - 448
 * fp8 values, the 64 rotary values in bf16 and 8 scale bytes a token and layer, the layout
 * gpusizer names fp8_ds_mla. */
#define DSV4_PAGE_SIZE          256
#define DSV4_RUNNING_REQUESTS   256
#define DSV4_SWA_RATIO_PERMILLE 100

/* DeepSeek's sparse-attention models (DeepSeek-V3.2, GLM-5: is_deepseek_nsa, later
 * is_deepseek_dsa) on CUDA, read at the tags v0.5.3-v0.5.18: pages of 64 tokens from their first
 * release ("Setting page size to 64 for DeepSeek NSA"); in v0.5.3-v0.5.4 kv_cache_dtype
 * fp8_e4m3 on compute capability 10 and above whatever is asked ("for Blackwell, we support fp8
 * only currently"), from v0.5.5 auto is fp8_e4m3 there and bfloat16 below; an fp8 cache is
 * stored with its scales (kv_lora_rank fp8 values + 4 bytes a 128 of them + the rotary values in
 * bf16: the 656-byte fp8_ds_mla entry, memory_pool.py MLATokenToKVPool's kv_cache_dim 656 for
 * use_nsa with float8_e4m3fn, from v0.5.5 model_runner's override_kv_cache_dim) unless the
 * trtllm backend runs it, which from v0.5.10 is the fp8 default on compute capability 10 and
 * above (_set_default_nsa_backends / _set_default_dsa_backends) and takes the plain 576-byte entry
 * (calculate_mla_kv_cache_dim) - but from v0.5.17 GLM-5 (GlmMoeDsaForCausalLM) on compute
 * capability 12.x runs its fp8 cache on flashinfer_sparse_mla, scaled; fp8_e5m2 is a plain entry
 * (not float8_e4m3fn) and refused from v0.5.5. v0.5.3 also sets mem_fraction_static 0.8 for them,
 * whatever is given ("Setting mem fraction static to 0.8 for DeepSeek NSA"). */
#define DSA_PAGE_SIZE 64

/* The assumption kv_cache_dtype where SGLang's format for the model is not the request's. */
static const char dsa_fp8_scaled[] =
    "DeepSeek sparse attention's fp8 cache with its scales: the latent's fp8 values, 4 bytes of "
    "scales a 128 of them and the rotary values in bf16 (fp8_ds_mla: 656 bytes a token and layer "
    "for DeepSeek-V3.2 and GLM-5, 528 for GLM-5.3-Flash, whose latent has no rotary part); "
    "kv_cache_dtype auto is fp8_e4m3 on compute capability 10 and above, bfloat16 "
    "below (0.5.5 on; 0.5.3-0.5.4 take fp8_e4m3 there whatever is asked)";
static const char dsa_fp8_plain[] =
    "DeepSeek sparse attention's fp8 cache under the trtllm backend, SGLang's fp8 default on "
    "compute capability 10 and above from 0.5.10 (but GLM-5's on 12.x from 0.5.17, "
    "flashinfer_sparse_mla, which keeps the scaled entry): the plain entry, a byte a latent "
    "value (576 bytes a token and layer for DeepSeek-V3.2 and GLM-5) (kv_cache_dtype auto is "
    "fp8_e4m3 there)";
static const char dsa_dtype_source[] =
    "SGLang server_args.py (from 0.5.15 arg_groups/overrides.py) _dsa_kv_cache_dtype_default and "
    "_set_default_dsa_backends; kv_cache_configurator.py calculate_mla_kv_cache_dim";
static const char dsv4_dtype[] =
    "DeepSeek-V4's cache in SGLang's one CUDA layout (auto is fp8_e4m3; bfloat16 changes the NPU "
    "pool alone): 448 fp8 values, the 64 rotary values in bf16 and 8 scale bytes, 584 bytes a "
    "token and layer, the layout gpusizer names fp8_ds_mla";
static const char dsv41_dtype[] =
    "DeepSeek-V4.1's cache in SGLang's default layout (SGLANG_DSV4_KV_LAYOUT v4, every GPU): "
    "DeepSeek-V4's 584-byte entry - 448 fp8 values, the 64 rotary values in bf16, 8 scale bytes "
    "- the layout gpusizer names fp8_ds_mla, in the window and the KV sources' compressed cache";
static const char dsv41_pools[] =
    "SGLang keeps DeepSeek-V4.1 in DeepSeek-V4's pools (mem_cache/deepseek_v4_memory_pool.py "
    "DeepSeekV4TokenToKVPool: every layer's window entries in a pool sized at 10% of the full "
    "tokens or from --max-running-requests, the four KV sources' compressed entries with "
    "68-byte fp4 indexer keys, a ratio-2 pair state per request; "
    "model_executor/pool_configurator.py DSV4PoolConfigurator), which gpusizer does not size "
    "for V4.1 yet: its cache here is one pool of 584-byte entries, the window of each running "
    "request and the compressed entries of its whole context, with fp8 indexer keys (132 bytes)";
static const char dsv4_dtype_source[] =
    "SGLang arg_groups/deepseek_v4_hook.py apply_deepseek_v4_defaults (from 0.5.15 "
    "arg_groups/overrides.py _deepseek_v4_kv_cache_dtype); mem_cache/deepseek_v4_memory_pool.py "
    "DeepSeekV4SingleKVPool.create_buffer";

/* Whether this is a DeepSeek sparse-attention model (not DeepSeek-V4) on CUDA, where those rules
 * apply. */
static bool dsa_on_cuda(const struct gs_inference_input *in)
{
    return gs_arch_has_sparse_mla(in->arch) && !gs_arch_is_deepseek_v4(in->arch) &&
           !gs_arch_is_deepseek_v41(in->arch) && !in->gpu.rocm;
}

static enum gs_kv_dtype dsa_kv_dtype(const struct gs_inference_input *in, uint32_t version)
{
    const bool blackwell = (enum gs_hw)in->gpu.hw == GS_HW_BLACKWELL;
    enum gs_kv_dtype d = in->kv_dtype;
    if (version < 505 ? blackwell : d == GS_KV_AUTO && blackwell)
        d = GS_KV_FP8;
    /* from v0.5.17 GLM-5's fp8 cache on compute capability 12.x runs flashinfer_sparse_mla
     * rather than trtllm (_set_default_dsa_backends is_glm_sm12_fp8), which keeps the scaled
     * entry */
    static const char *const glm_dsa[] = {"GlmMoeDsaForCausalLM", NULL};
    const bool glm_sm12 =
        version >= 517 && in->gpu.sm_major == 12 && gs_arch_class_in(in->arch, glm_dsa);
    if (d == GS_KV_FP8 || d == GS_KV_FP8_DS_MLA)
        return version >= 510 && blackwell && !glm_sm12 ? GS_KV_FP8 : GS_KV_FP8_DS_MLA;
    return GS_KV_AUTO;
}

/* --max-running-requests under speculative decoding when the request names none: every
 * draft hook sets it ("Max running requests is reset to 48 for speculative decoding",
 * arg_groups/speculative_hook.py _handle_eagle_family, _handle_ngram; server_args.py
 * __post_init__ for EAGLE and EAGLE-3 since 2025). */
#define SPEC_RUNNING_REQUESTS 48

static void sglang_defaults(const struct gs_inference_input *in, struct gs_inference_result *out)
{
    const struct gs_engine_config *c = &in->engine;
    out->sglang_release = gs_sglang_release_for(c->version);
    gs_engine_server_batch_defaults(in, out);
    /* max_num_seqs names --max-running-requests; without it SGLang's own bound
     * (resolve_max_num_reqs: at least 2,048, at most tokens / 2) is no tighter than the cache,
     * and gpusizer keeps the batch defaults above for the activation profile it shows */
    const bool dsv4 = dsv4_pools(in, out->sglang_release);
    if ((c->spec_method != GS_SPEC_NONE && out->sglang_release->spec_running_cap) ||
        c->max_num_seqs || dsv4) {
        out->max_num_seqs = c->max_num_seqs                  ? c->max_num_seqs
                            : c->spec_method != GS_SPEC_NONE ? SPEC_RUNNING_REQUESTS
                                                             : DSV4_RUNNING_REQUESTS;
        out->seqs_cap = "the batch is larger than max_num_seqs (SGLang's "
                        "--max-running-requests, 48 by default under speculative decoding, 256 "
                        "for DeepSeek-V4), so SGLang runs at most that many requests at a time "
                        "whatever the KV cache holds";
    }
    if (dsa_on_cuda(in)) {
        const uint32_t v = release_version(in, out->sglang_release);
        if (!c->block_size && v >= 503)
            out->block_size = DSA_PAGE_SIZE;
        out->kv_dtype = dsa_kv_dtype(in, v);
        if (out->kv_dtype != GS_KV_AUTO) {
            out->kv_dtype_detail =
                out->kv_dtype == GS_KV_FP8_DS_MLA ? dsa_fp8_scaled : dsa_fp8_plain;
            out->kv_dtype_source = dsa_dtype_source;
        }
    }
    if (gs_arch_is_deepseek_v41(in->arch)) {
        out->pool_not_modeled = dsv41_pools;
        if (in->kv_dtype == GS_KV_AUTO || in->kv_dtype == GS_KV_FP8 || in->kv_dtype == GS_KV_BF16) {
            out->kv_dtype = GS_KV_FP8_DS_MLA;
            out->kv_dtype_detail = dsv41_dtype;
            out->kv_dtype_source = "SGLang python/sglang/srt/environ.py SGLANG_DSV4_KV_LAYOUT "
                                   "(default \"v4\"); kernels/ops/attention/dsv4/kv_layout.py "
                                   "KVLayout.V4";
        }
    }
    if (dsv4) {
        if (!c->block_size)
            out->block_size = DSV4_PAGE_SIZE;
        /* DeepSeekV4SingleKVPool stores 584-byte uint8 entries whichever dtype it is given
         * (create_buffer asserts "448 + 64 * 2 + 8"; bfloat16 changes the NPU pool alone) */
        if (in->kv_dtype == GS_KV_AUTO || in->kv_dtype == GS_KV_FP8 || in->kv_dtype == GS_KV_BF16) {
            out->kv_dtype = GS_KV_FP8_DS_MLA;
            out->kv_dtype_detail = dsv4_dtype;
            out->kv_dtype_source = dsv4_dtype_source;
        }
    }
}

/* The activation peak follows vLLM's latest modelled profile (SGLang's own is not modelled;
 * it lives in the reserve outside the fraction and is shown, not subtracted). The rotary
 * cos/sin tables are buffers created with the model, in the release's element size
 * (gs_sglang_release.rope_element_bytes) over the config's max_position_embeddings;
 * get_available_gpu_memory after loading reads the device's free memory, so the allocator's
 * rounding of each weight tensor is loaded with the weights. */
static void sglang_load(const struct gs_inference_input *in, const struct gs_engine_stage *stage,
                        struct gs_inference_result *out, uint64_t *non_torch, bool *ovf)
{
    struct gs_budget *b = &out->budget;
    b->activation_bytes = gs_vllm_engine_peak(in, stage, out, gs_vllm_other_engine_profile(),
                                              stage->last_stage, ovf);
    *non_torch = gs_sglang_preload_bytes((enum gs_link)in->gpu.link, stage->tensor, in->cross_node);
    const uint64_t model_bytes = in->model_bytes ? in->model_bytes : 2;
    const uint8_t rope_bytes = out->sglang_release->rope_element_bytes;
    b->rope_cache_bytes =
        gs_arch_rope_table_bytes(in->arch, rope_bytes ? rope_bytes : model_bytes, ovf);
    b->weights_bytes = gs_add(b->weights_bytes, b->rope_cache_bytes, ovf);
    b->segment_slack_bytes = gs_engine_segment_slack(in, stage, ovf);
    b->weights_bytes = gs_add(b->weights_bytes, b->segment_slack_bytes, ovf);
    /* Gemma4Attention builds its QKVParallelLinear (q, k and v slots) and k_norm in every layer,
     * KV-sharing or not, and load_weights loads a k_eq_v layer's k_proj into the V slot too
     * (models/gemma4_causal.py Gemma4Attention.__init__, should_dup_k_to_v), as vLLM's does */
    b->kv_slot_bytes = gs_engine_kv_slot_bytes(in, stage, true, ovf);
    b->weights_bytes = gs_add(b->weights_bytes, b->kv_slot_bytes, ovf);
    /* fp8 linears on Marlin below compute capability 8.9 (can_auto_enable_marlin_fp8: SM 8.0 to
     * 8.8) take Marlin's 16-bit scales; its fp8 MoE layers have no Marlin path (sglang_refusal) */
    const bool fp8 = gs_weight_format_fp8((enum gs_weight_format)in->weight_format);
    if (fp8 && out->sglang_release->fp8_marlin && (enum gs_hw)in->gpu.hw == GS_HW_AMPERE) {
        b->layout_bytes = gs_engine_fp8_marlin_growth(in, stage, ovf);
        b->weights_bytes = gs_add(b->weights_bytes, b->layout_bytes, ovf);
    }
}

/* The data-parallel attention workers: under --enable-dp-attention the expert group is every
 * rank (tensor x data), which SGLang's tp_size counts (--tp N --dp D); 1 without it. */
static uint64_t attention_data(const struct gs_inference_input *in)
{
    const uint64_t t = in->tensor ? in->tensor : 1;
    return in->expert > t ? in->expert / t : 1;
}

static void sglang_pool(const struct gs_inference_input *in, struct gs_inference_result *out,
                        uint64_t used, bool *ovf)
{
    (void)used; /* activations and CUDA graphs live in the reserve outside the fraction */
    const struct gs_engine_config *c = &in->engine;
    struct gs_budget *b = &out->budget;
    const uint64_t t = in->tensor ? in->tensor : 1, p = in->pipeline ? in->pipeline : 1;
    b->rule = "SGLang: mem_fraction_static x the memory free once the CUDA context and the "
              "process groups exist holds the weights and the KV pool; activations and CUDA "
              "graphs live in the reserve outside the fraction";
    const uint64_t dp = attention_data(in);
    const struct gs_sglang_release *rel = out->sglang_release;
    const enum gs_sglang_role role = (enum gs_sglang_role)c->disaggregation;
    const enum gs_spec_method spec = (enum gs_spec_method)c->spec_method;
    /* all2all_backend's DeepEP values name --moe-a2a-backend deepep (--deepep-mode normal or
     * low_latency: the mode is read after the fraction is set, in _handle_a2a_moe) */
    const bool deepep = c->all2all == GS_ALL2ALL_DEEPEP_HT || c->all2all == GS_ALL2ALL_DEEPEP_LL;
    const struct gs_sglang_graph_case graphs = {.arch = in->arch,
                                                .version = c->version,
                                                .spec = spec,
                                                .pipeline = p,
                                                .attention_data = dp,
                                                .role = role,
                                                .rocm = in->gpu.rocm,
                                                .cpu_offload = c->cpu_offload_bytes > 0,
                                                .disable_cuda_graph = c->enforce_eager,
                                                .deepep = deepep};
    const char *graphs_off = gs_sglang_prefill_graphs_off(rel, &graphs);
    /* the server arguments the reserve reads, as given: max_num_batched_tokens names
     * --chunked-prefill-size (enable_chunked_prefill false: -1), max_num_seqs
     * --max-running-requests, num_speculative_tokens k --speculative-num-steps k with
     * --speculative-num-draft-tokens k + 1 */
    const struct gs_sglang_fraction_input fin = {
        .total_bytes = b->total_bytes,
        .tensor = t * dp,
        .pipeline = p,
        .attention_data = dp,
        .spec = spec,
        .mla = gs_arch_has_mla(in->arch),
        .rocm = in->gpu.rocm,
        .chunked_prefill_size =
            c->chunked_prefill == GS_CHUNKED_PREFILL_OFF ? -1 : (int64_t)c->max_num_batched_tokens,
        .cuda_graph_max_bs = c->cuda_graph_max_bs,
        .max_running_requests = c->max_num_seqs,
        .draft_tokens = spec != GS_SPEC_NONE && c->spec_tokens ? c->spec_tokens + 1 : 0,
        .role = role,
        .disable_cuda_graph = c->enforce_eager,
        .prefill_graphs_off = graphs_off != NULL,
        .deepep = deepep};
    struct gs_sglang_reserve reserve;
    /* v0.5.3 sets 0.8 for DeepSeek sparse attention after the rule, given or not */
    const uint32_t v = release_version(in, rel);
    out->sglang_fraction_forced = dsa_on_cuda(in) && v >= 503 && v < 504;
    const uint32_t given = out->sglang_fraction_forced ? 800 : c->mem_fraction_static_permille;
    b->fraction_permille = given ? given : gs_sglang_default_fraction_reserve(rel, &fin, &reserve);
    if (!given && rel->rule == GS_SGLANG_RULE_RESERVE) {
        out->sglang_reserve_bytes = (uint64_t)(reserve.total_mib * (double)GS_MIB);
        out->sglang_chunked_prefill_size = reserve.chunked_prefill_size;
        out->sglang_cuda_graph_max_bs = reserve.cuda_graph_max_bs;
        out->sglang_activation_tokens = reserve.activation_tokens;
        out->sglang_prefill_graph_bytes = (uint64_t)(reserve.prefill_graph_mib * (double)GS_MIB);
        out->sglang_prefill_sizes = fin.mla ? 0 : reserve.prefill_capture_sizes;
        out->sglang_deepep_bytes = (uint64_t)(reserve.deepep_mib * (double)GS_MIB);
        out->sglang_prefill_deepep =
            fin.deepep && rel->deepep_breakable && reserve.prefill_graph_mib > 0;
        out->sglang_prefill_graphs_off = graphs_off;
    }
    /* a multimodal model (one with a vision tower): through 0.4.8 model_runner.py scales any
     * fraction (model_config.is_multimodal), from 0.4.10 server_args.py the default alone, from
     * 0.5.17 not a decode worker's ("the VLM encoder only runs on the prefill stage") */
    const bool vlm_headroom = !(rel->vlm_adjust_prefill_only && role == GS_SGLANG_ROLE_DECODE);
    if (in->arch->vision_config_layers && rel->vlm_factor_permille)
        b->fraction_permille = (b->fraction_permille * rel->vlm_factor_permille + 500) / 1000;
    else if (!given && in->arch->vision_config_layers && rel->vlm_adjust && vlm_headroom)
        b->fraction_permille = gs_sglang_vlm_fraction_permille(
            b->fraction_permille, in->arch->vision_config_layers, in->arch->vision_config_hidden);
    /* model_runner.profile_max_num_token: rest = free after loading - baseline x (1 -
     * fraction), the baseline being the free memory before loading (init_torch_distributed:
     * get_available_gpu_memory, so other processes' memory is not in it), so rest = fraction
     * x baseline - weights */
    const uint64_t taken = gs_add(b->non_torch_bytes, in->gpu.in_use_bytes, ovf);
    const uint64_t baseline = b->total_bytes > taken ? b->total_bytes - taken : 0;
    b->requested_bytes = gs_engine_permille_of(baseline, b->fraction_permille, ovf);
    /* a draft's own embedding and head are still resident when the pool is sized (gs/sglang.h
     * gs_sglang_draft): the memory is free again once serving, but not the pool's */
    b->draft_transient_bytes = in->draft_transient_bytes;
    b->kv_bytes =
        (int64_t)b->requested_bytes - (int64_t)b->weights_bytes - (int64_t)b->draft_transient_bytes;
}

/* SGLang's state dtypes in out->kv: conv windows in bf16 (SGLANG_MAMBA_CONV_DTYPE), recurrent
 * states in the dtype --mamba-ssm-dtype names (copied into SGLANG_MAMBA_SSM_DTYPE), else from
 * 0.5.9 the config's mamba_ssm_dtype, else fp32 (configs/mamba_utils.py: SGLANG_MAMBA_SSM_DTYPE,
 * then the config, then float32; through 0.5.8 the flag's default "float32" alone), whatever
 * the model's dtype - where vLLM keeps the model dtype unless the model asks for fp32. */
static struct gs_state_dtypes sglang_state_dtypes(const struct gs_inference_input *in,
                                                  const struct gs_sglang_release *rel)
{
    const bool config = rel == NULL || rel->state_dtype_config;
    return (struct gs_state_dtypes){2, 4, in->engine.mamba_ssm_bytes,
                                    config ? GS_STATE_KEY_ANY : GS_STATE_KEY_NONE,
                                    GS_STATE_REACH_ALL};
}

/* What SGLang's count of tokens prices a token of DeepSeek sparse attention (on CUDA, release
 * `v`) at before 0.5.17 (gs_inference_result.kv_priced_token_bytes). The cell profile_max_num_token
 * divides the budget by (model_runner.py; from 0.5.9 model_runner_kv_cache_mixin.py
 * get_cell_size_per_token, from 0.5.12 pool_configurator.py _compute_cell_size) is kv_lora_rank +
 * qk_rope_head_dim elements of the cache dtype a layer, one byte each for fp8, while the pool
 * stores the 656-byte scaled entry (dsa_kv_dtype); v0.5.3's cell has no indexer keys either (they
 * join it in v0.5.4: "Add indexer KV cache overhead for NSA models"). max_total_num_tokens of the
 * stored entries are then allocated, past the fraction. PR #31992 ("correct DSA KV memory budget",
 * first in v0.5.17) prices the cell with calculate_mla_kv_cache_dim, the stored entry. */
static void dsa_cell_price(const struct gs_inference_input *in, uint32_t v,
                           struct gs_inference_result *out)
{
    const struct gs_block *mla = gs_arch_attention_block(in->arch);
    if (v >= 517 || mla == NULL || mla->mixer != GS_MIXER_MLA)
        return;
    const struct gs_kv_layout *kv = &out->kv;
    uint64_t price = kv->bytes_per_token;
    const uint64_t cell = kv->full_layers * (mla->attn.kv_lora_rank + mla->attn.qk_rope_head_dim);
    if (out->kv_dtype == GS_KV_FP8_DS_MLA && cell <= kv->full_token_bytes)
        price = price - kv->full_token_bytes + cell; /* the latent layers at one byte an element */
    if (v >= 504)
        price += kv->indexer_token_bytes;
    if (price != kv->bytes_per_token + kv->indexer_token_bytes)
        out->kv_priced_token_bytes = price;
}

/* SGLang's view of the layout: the recurrent states in its dtypes, and the layers that read an
 * earlier layer's cache (Gemma 3n / 4's num_kv_shared_layers) priced as layers with a cache of
 * their own - its pools allocate a buffer for each of num_effective_layers
 * (model_runner_components/layer_setup.py; MHATokenToKVPool, SWAKVPool over
 * get_hybrid_layer_ids' lists of every layer), the models just never write the shared ones
 * (models/gemma3n_causal.py, gemma4_causal.py: save_kv_cache=False). */
static void sglang_pages(const struct gs_inference_input *in, struct gs_inference_result *out)
{
    gs_kv_layout_with_shared(&out->kv);
    /* GLM-5.3-Flash's pooled indexer keys: DefaultPoolConfigurator._compute_cell_size
     * (model_executor/pool_configurator.py) charges indexer_size_per_token a DSA layer a token
     * with no index_kpool in it, so the count of tokens is priced at a key a token; gpusizer
     * holds what is charged (DSATokenToKVPool's index buffer, index_buf_size defaulting to the
     * pool's size in tokens, was read in a fork's copy only) */
    gs_kv_layout_with_unpooled_indexer(&out->kv);
    const struct gs_state_dtypes dtypes = sglang_state_dtypes(in, out->sglang_release);
    gs_engine_state_bytes(in, &dtypes, &out->kv);
    /* DeepSeek sparse attention's shared-indexer layers (GLM-5.2): DSATokenToKVPool keeps indexer
     * keys for every layer of the stage, and the cell prices them, until v0.5.18 (PR #30531,
     * "Skip indexer KV cache for skip-topk layers": skip_topk_layers), and from it wherever
     * kv_cache_configurator.py _should_elide_dsa_index_k is false - a disaggregated worker (and
     * HiSparse, the hierarchical cache, the draft worker: not inputs here) */
    if (!dsa_on_cuda(in))
        return;
    const uint32_t v = release_version(in, out->sglang_release);
    if (v < 518 || in->engine.disaggregation != GS_SGLANG_ROLE_NONE)
        gs_kv_layout_with_shared_indexer(&out->kv);
    dsa_cell_price(in, v, out);
}

/* Decoder layers with a recurrent state in [first, end). */
static uint64_t state_layers(const struct gs_arch *arch, uint64_t first, uint64_t end)
{
    uint64_t counts[GS_BLOCKS_MAX], n = 0;
    gs_arch_count_blocks(arch, first, end, counts);
    for (size_t i = 0; i < arch->block_count; i++)
        if (arch->blocks[i].rec.conv_channels != 0 || arch->blocks[i].rec.state_heads != 0)
            n += counts[i];
    return n;
}

/* One sequence's states under pipeline parallelism as the release's budget charges them
 * (*budget) and as MambaPool holds them on this stage (*held), `stage` this stage's own:
 * mamba_cache_per_req covers every layer with a state (configs/mamba_utils.py) and is what the
 * budget charges through 0.5.16; MambaPool holds every layer's too through 0.5.9, the stage's
 * from 0.5.10 (mamba_layer_ids in [start_layer, end_layer)); from 0.5.17 the budget charges
 * the largest stage's share, int(per_req x its layers / all layers) (get_pp_indices, or
 * SGLANG_PP_LAYER_PARTITION as inference.stages names). */
static void stage_slots(const struct gs_inference_input *in, const struct gs_sglang_release *rel,
                        uint64_t stage, uint64_t *budget, uint64_t *held, bool *ovf)
{
    *budget = *held = stage;
    const uint64_t p = in->pipeline ? in->pipeline : 1;
    if (p <= 1)
        return;
    const struct gs_state_dtypes dtypes = sglang_state_dtypes(in, rel);
    uint64_t layers = 0;
    const uint64_t all =
        gs_kv_state_bytes(in->arch, in->tensor ? in->tensor : 1, &dtypes, &layers, ovf);
    if (layers == 0)
        return;
    if (!rel->state_stage_pool)
        *held = all;
    if (!rel->state_stage_budget) {
        *budget = all;
        return;
    }
    uint64_t most = 0;
    for (uint64_t s = 0; s < p; s++) {
        uint64_t first, end;
        gs_arch_stage(in->arch, &in->stages, p, s, &first, &end);
        const uint64_t n = state_layers(in->arch, first, end);
        if (n > most)
            most = n;
    }
    *budget = gs_mul(all, most, ovf) / layers;
}

/* A class in a release's list from `from` (the first release, as gs_sglang_release.from) until
 * `until` (0: still listed in the last tag read). */
struct class_span {
    const char *cls;
    uint32_t from, until;
};

/* The hybrid classes whose Mamba radix cache SGLang keeps by default, each from the first
 * release that does (read at each tag; every other class, and every class before its row, runs
 * without it: one slot a request):
 *   - Qwen3-Next from 0.5.4: 0.5.2-0.5.3's model_runner.py turned the radix cache off for it
 *     ("Hybrid GDN model detected, disable radix cache"); PR #11214 (v0.5.4) built the
 *     scheduler's MambaRadixCache for hybrid_gdn_config;
 *   - Falcon-H1 and Nemotron-H from 0.5.7: model_runner.py turned it off for mamba2_config
 *     through 0.5.6 ("model detected, disable radix cache"), v0.5.7's scheduler builds it for
 *     hybrid_gdn or mamba2 configs;
 *   - Qwen3.5, Granite 4.0-H, LFM2 and LFM2-MoE from 0.5.9 and LFM2-VL from 0.5.10, their first
 *     releases (_handle_mamba_radix_cache with support_mamba_cache, or no branch, which keeps it);
 *   - MiniCPM-V 4.6 from 0.5.12, its first;
 *   - Ling 2.5 (BailingMoeV2_5) from 0.5.13: 0.5.9-0.5.12 passed support_mamba_cache=False;
 *   - Kimi-Linear and ZAYA from 0.5.14: Kimi-Linear's branch turned it off through 0.5.13
 *     ("Disabling Radix Cache for KimiLinearForCausalLM as it is not yet supported");
 *   - the text-only Qwen3.5 classes and Kimi K3 from 0.5.17, their first (hybrid_gdn_config
 *     by the text config; _MAMBA_RADIX_CACHE_ARCHS), Ling 3.0 from 0.5.19 (main's lists of
 *     September 2026). */

static const struct class_span radix_classes[] = {
    {"Qwen3NextForCausalLM", 504, 0},
    {"FalconH1ForCausalLM", 507, 0},
    {"NemotronHForCausalLM", 507, 0},
    {"Qwen3_5ForConditionalGeneration", 509, 0},
    {"Qwen3_5MoeForConditionalGeneration", 509, 0},
    {"Qwen3_5ForCausalLM", 517, 0},
    {"Qwen3_5MoeForCausalLM", 517, 0},
    {"GraniteMoeHybridForCausalLM", 509, 0},
    {"Lfm2ForCausalLM", 509, 0},
    {"Lfm2MoeForCausalLM", 509, 0},
    {"Lfm2VlForConditionalGeneration", 510, 0},
    {"MiniCPMV4_6ForConditionalGeneration", 512, 0},
    {"BailingMoeV2_5ForCausalLM", 513, 0},
    {"BailingMoeV3ForCausalLM", 519, 0},
    {"KimiLinearForCausalLM", 514, 0},
    {"ZayaForCausalLM", 514, 0},
    {"KimiK3ForConditionalGeneration", 517, 0},
};

/* The classes --mamba-radix-cache-strategy auto turns to extra_buffer, each from the first
 * release that does (_support_mamba_cache_extra_buffer at the v0.5.14 and v0.5.15 tags,
 * arg_groups/overrides.py _MAMBA_EXTRA_BUFFER_ARCHS at v0.5.16-v0.5.18: Kimi-Linear added in
 * 0.5.16, Kimi K3 with its first release, 0.5.17); the text-only Qwen3.5 classes and Ling 3.0
 * are in main's list of September 2026, not in the v0.5.18 tag's, so 0.5.19 is the earliest
 * release that can hold them. The other radix classes take no_buffer. */
static const struct class_span extra_buffer_classes[] = {
    {"Qwen3_5ForConditionalGeneration", 514, 0},
    {"Qwen3_5MoeForConditionalGeneration", 514, 0},
    {"Qwen3NextForCausalLM", 514, 0},
    {"MiniCPMV4_6ForConditionalGeneration", 514, 0},
    {"BailingMoeV2_5ForCausalLM", 514, 0},
    {"FalconH1ForCausalLM", 514, 0},
    {"GraniteMoeHybridForCausalLM", 514, 0},
    {"NemotronHForCausalLM", 514, 0},
    {"KimiLinearForCausalLM", 516, 0},
    {"KimiK3ForConditionalGeneration", 517, 0},
    {"Qwen3_5ForCausalLM", 519, 0},
    {"Qwen3_5MoeForCausalLM", 519, 0},
    {"BailingMoeV3ForCausalLM", 519, 0},
};

/* Whether release `version` lists the model's class in `table` (n rows). */
static bool class_listed(const struct class_span *table, size_t n, const struct gs_arch *arch,
                         uint32_t version)
{
    for (size_t i = 0; i < n; i++) {
        const char *const one[] = {table[i].cls, NULL};
        if (version >= table[i].from && (table[i].until == 0 || version < table[i].until) &&
            gs_arch_class_in(arch, one))
            return true;
    }
    return false;
}

#define CLASS_LISTED(table, arch, version)                                                         \
    class_listed((table), sizeof(table) / sizeof((table)[0]), (arch), (version))

/* The classes whose KV cache SGLang splits into a full layers' pool and a sliding-window
 * layers' pool (SWAKVPool) unless --disable-hybrid-swa-memory, each from the first release that
 * does: configs/model_config.py is_hybrid_model at the v0.5.7 tag (MiMo-V2-Flash, returning 1;
 * Llama 4 only with --hybrid-kvcache-ratio, not modelled) and is_hybrid_swa_model from v0.5.8
 * (Llama 4 and gpt-oss; gpt-oss's branch in server_args.py set disable_hybrid_swa_memory
 * through v0.5.7), Step-3.5 from v0.5.9, the MIMO_V2_MODEL_ARCHS pair and Gemma 4 from v0.5.11
 * (utils/hf_transformers/config.py turns its config around: global_head_dim and
 * num_global_key_value_heads become the full layers' head_dim and num_key_value_heads, the base
 * ones the swa_* overrides, so F and S are its global and sliding layers' own), Laguna (with a
 * sliding_window) from v0.5.12, Step-3.7 and the unified Gemma 4 from v0.5.13, Mellum from
 * v0.5.16, Muse Glimmer from v0.5.18. Left out, and sized with one pool: DeepSeek-V4 (its own
 * DSV4PoolConfigurator), Inkling (recurrent layers beside the window, its own 0.1 ratio).
 * Gemma 2/3/3n and OLMo-3 have sliding layers but are not listed (their branches disabled
 * hybrid SWA memory "as it is not yet supported"). */
static const struct class_span hybrid_swa_classes[] = {
    {"MiMoV2FlashForCausalLM", 507, 0},
    {"Llama4ForConditionalGeneration", 508, 0},
    {"GptOssForCausalLM", 508, 0},
    {"Step3p5ForCausalLM", 509, 0},
    {"MiMoV2ForCausalLM", 511, 0},
    {"Gemma4ForCausalLM", 511, 0},
    {"Gemma4ForConditionalGeneration", 511, 0},
    {"LagunaForCausalLM", 512, 0},
    {"Step3p7ForConditionalGeneration", 513, 0},
    {"Gemma4UnifiedForConditionalGeneration", 513, 0},
    {"MellumForCausalLM", 516, 0},
    {"MuseGlimmerForCausalLM", 518, 0},
    {"MuseGlimmerForConditionalGeneration", 518, 0},
};

static uint64_t speculative_draft_tokens(const struct gs_inference_input *in,
                                         const struct gs_sglang_release *rel);

/* A --disaggregation-mode decode worker's extra request slots for requests still arriving
 * from prefill workers, 2 R where R is at most 32, else none: model_runner's pre_alloc_size from
 * the `resolved` requests (0.4.9-0.5.13), disaggregation_decode_extra_slots from
 * --max-running-requests as given, per DP-attention rank (pd_disaggregation_hook.py, 0.5.14 on);
 * 0 on any other worker or release. */
static uint64_t decode_extra_slots(const struct gs_inference_input *in,
                                   const struct gs_sglang_release *rel, uint64_t resolved)
{
    if (!rel->decode_extra || in->engine.disaggregation != GS_SGLANG_ROLE_DECODE)
        return 0;
    const uint64_t basis =
        rel->decode_extra_given ? in->engine.max_num_seqs / attention_data(in) : resolved;
    return basis && basis <= 32 ? 2 * basis : 0;
}

/* SGLANG_SWA_EVICTION_INTERVAL's default (environ.py, v0.5.14 on; before, the window x
 * SGLANG_SWA_EVICTION_INTERVAL_MULTIPLIER) */
#define SWA_EVICTION_INTERVAL 128

/* The most of the window pool one running request holds (out->window_seq_tokens): the window
 * and the tokens that slide out of it before its next eviction, and a page; from 0.5.14
 * SWAChunkCapPoolConfigurator's per_request, window + eviction_interval x draft tokens + page,
 * and the decode step's allocation, a page, or under speculative decoding (overlap scheduler)
 * 2 x get_alloc_len_per_decode, the D draft tokens (max(steps x topk, D) = D at topk 1, every
 * listed class's default). */
static void window_share(const struct gs_inference_input *in, struct gs_inference_result *out,
                         uint64_t window)
{
    const struct gs_sglang_release *rel = out->sglang_release;
    const uint64_t page = out->block_size ? out->block_size : 1;
    if (!rel->swa_interval_128) {
        out->window_seq_tokens = window + window + page;
        return;
    }
    const bool spec = in->engine.spec_method != GS_SPEC_NONE;
    const uint64_t d = spec ? speculative_draft_tokens(in, rel) : 1;
    out->window_seq_tokens = window + SWA_EVICTION_INTERVAL * d + page + (spec ? 2 * d : page);
}

/* DeepSeek-V4's layers as DSV4PoolConfigurator counts them: all of them, and those of
 * compress ratio 4 and 128. */
struct dsv4_layers {
    uint64_t all, c4, c128;
};

static void dsv4_count(const struct gs_arch *a, uint64_t first, uint64_t end, struct dsv4_layers *n)
{
    uint64_t counts[GS_BLOCKS_MAX];
    gs_arch_count_blocks(a, first, end, counts);
    for (size_t i = 0; i < a->block_count; i++) {
        n->all += counts[i];
        n->c4 += a->blocks[i].attn.compress_ratio == 4 ? counts[i] : 0;
        n->c128 += a->blocks[i].attn.compress_ratio == 128 ? counts[i] : 0;
    }
}

/* The MTP layers' entries at the end of the config's compress_ratios, which 0.5.12 counts with
 * the decoder's (the list has one entry a layer and one for each MTP layer). */
static void dsv4_count_mtp(const struct gs_arch *a, struct dsv4_layers *n)
{
    for (size_t i = 0; i < a->tower_count; i++) {
        const struct gs_tower *t = &a->towers[i];
        if (t->part != GS_PART_MTP || t->block >= a->block_count)
            continue;
        const uint64_t ratio = a->blocks[t->block].attn.compress_ratio;
        n->all += t->layers;
        n->c4 += ratio == 4 ? t->layers : 0;
        n->c128 += ratio == 128 ? t->layers : 0;
    }
}

/* The compressor states' ring slots (mem_cache/deepseek_v4_memory_pool.py
 * get_compress_state_ring_size: 8 and 128, 16 and 256 under speculative decoding, offline
 * compression being the default, SGLANG_OPT_USE_ONLINE_COMPRESS off) */
static uint64_t dsv4_ring(uint64_t ratio, bool spec)
{
    return ratio == 4 ? (spec ? 16 : 8) : (spec ? 256 : 128);
}

/* One stage's capacity by DSV4PoolConfigurator.calculate_pool_sizes: the tokens' price in the
 * configurator's own floating-point order (_get_bytes_per_full_token, inflated by (L + 1) / L
 * under speculative decoding for the draft's layer), the ratio-128 states from the requests where
 * the release takes them first (_get_c128_state_fixed_bytes: rows = ceil(slots x ring + ring +
 * 1, 128) x 128 of 2 x head_dim fp32 values a layer, slots --max-running-requests per DP rank +
 * 1, + a decode worker's extra slots), then full = int(budget / price), in whole pages. */
/* The shapes DSV4PoolConfigurator reads from model_config (head_dim, qk_rope_head_dim,
 * index_head_dim, window_size): one sliding layer's, the indexer's from a compress-ratio-4 layer,
 * and the window pool's ratio r in thousandths. */
struct dsv4_shape {
    const struct gs_attention *s;
    uint64_t index_dim, ratio_permille;
};

static uint64_t dsv4_stage_tokens(const struct gs_inference_input *in,
                                  const struct gs_inference_result *out,
                                  const struct dsv4_shape *shape, const struct dsv4_layers *n,
                                  uint64_t available, double *price, uint64_t *fixed)
{
    const struct gs_sglang_release *rel = out->sglang_release;
    const struct gs_attention *s = shape->s;
    const uint64_t index_dim = shape->index_dim;
    if (n->all == 0)
        return 0;
    const bool spec = in->engine.spec_method != GS_SPEC_NONE;
    const double r = (double)shape->ratio_permille / 1000.0;
    const uint64_t head = s->kv_lora_rank + s->qk_rope_head_dim; /* model_config head_dim */
    const double kv = (double)(s->kv_lora_rank + 2 * s->qk_rope_head_dim + 8);
    const double indexer = (double)(index_dim + index_dim / 128 * 4);
    const double c4_state = (double)(2 * 2 * head * 4);
    const double c4_indexer_state = (double)(2 * 2 * index_dim * 4);
    const double c128_state = (double)(2 * head * 4);
    const double window = (double)s->window; /* swa_page_size = config window_size */
    const double c4_ratio = (double)dsv4_ring(4, spec) / window;
    const double c128_ratio =
        rel->dsv4_pool == GS_SGLANG_DSV4_POOL_REQUESTS ? 0 : (double)dsv4_ring(128, spec) / window;
    const double all = (double)n->all, c4 = (double)n->c4, c128 = (double)n->c128;
    double p = r * kv * all + 0.25 * kv * c4 + 1.0 / 128 * kv * c128 + 1.0 / 4 * indexer * c4 +
               r * c4_ratio * c4_state * c4 + r * c128_ratio * c128_state * c128 +
               r * c4_ratio * c4_indexer_state * c4;
    if (spec)
        p *= (all + 1) / all;
    *price = p;
    *fixed = 0;
    bool ovf = false;
    if (rel->dsv4_pool == GS_SGLANG_DSV4_POOL_REQUESTS && n->c128) {
        const uint64_t running = out->max_num_seqs / attention_data(in);
        const uint64_t slots = running + 1 + decode_extra_slots(in, rel, running);
        const uint64_t ring = dsv4_ring(128, spec);
        const uint64_t rows =
            gs_div_ceil(gs_add(gs_mul(slots, ring, &ovf), ring + 1, &ovf), 128) * 128;
        *fixed = gs_mul(gs_mul(rows, 2 * head * 4, &ovf), n->c128, &ovf);
    }
    if (ovf || *fixed >= available)
        return 0;
    const uint64_t page = out->block_size; /* sglang_defaults' 256, or the request's */
    return (uint64_t)((double)(available - *fixed) / p) / page * page;
}

/* DeepSeek-V4's pools (gs_sglang_dsv4_pool): the tokens of capacity (max_tokens, what
 * max_total_num_tokens logs), the window pool at r of them; under pipeline parallelism from 0.5.13
 * each stage prices its own slice and the stage that holds the fewest tokens binds. */
static bool sglang_dsv4_pool(const struct gs_inference_input *in, struct gs_inference_result *out,
                             uint64_t available)
{
    const struct gs_sglang_release *rel = out->sglang_release;
    const uint64_t p = in->pipeline ? in->pipeline : 1;
    struct dsv4_shape shape = {NULL, 0,
                               in->engine.swa_full_tokens_ratio_permille
                                   ? in->engine.swa_full_tokens_ratio_permille
                                   : DSV4_SWA_RATIO_PERMILLE};
    for (size_t i = 0; i < in->arch->block_count; i++) {
        const struct gs_attention *a = &in->arch->blocks[i].attn;
        if (shape.s == NULL && a->window)
            shape.s = a;
        if (a->index_head_dim > shape.index_dim)
            shape.index_dim = a->index_head_dim;
    }
    if (shape.s == NULL)
        return false;
    uint64_t full = UINT64_MAX;
    for (uint64_t stage = 0; stage < p; stage++) {
        if (in->has_stage && in->stage < p && stage != in->stage)
            continue;
        struct dsv4_layers n = {0, 0, 0};
        if (rel->dsv4_pool == GS_SGLANG_DSV4_POOL_WHOLE) {
            dsv4_count(in->arch, 0, in->arch->num_hidden_layers, &n);
            dsv4_count_mtp(in->arch, &n);
        } else {
            uint64_t first = 0, end = in->arch->num_hidden_layers;
            if (p > 1)
                gs_arch_stage(in->arch, &in->stages, p, stage, &first, &end);
            dsv4_count(in->arch, first, end, &n);
        }
        double price = 0;
        uint64_t fixed = 0;
        const uint64_t tokens = dsv4_stage_tokens(in, out, &shape, &n, available, &price, &fixed);
        if (tokens < full) {
            full = tokens;
            out->dsv4_token_bytes = (uint64_t)price + ((double)(uint64_t)price < price);
            out->dsv4_state_bytes = fixed;
        }
    }
    if (full == UINT64_MAX)
        return false;
    const uint64_t page = out->block_size;
    const uint64_t r = shape.ratio_permille;
    out->max_tokens = full;
    out->reported_tokens = full;
    out->blocks = full / page;
    /* int(full x swa_ratio) // page x page, in the configurator's floating point */
    out->window_pool_tokens = (uint64_t)((double)full * ((double)r / 1000.0)) / page * page;
    out->window_ratio_permille = r;
    out->window_dsv4 = true;
    return true;
}

/* A hybrid sliding-window model's two pools (gs_engine_ops.window_pool), by the release's
 * rule (enum gs_sglang_swa_pool): F nf and S ns are the full and window layers' bytes a token
 * on this tensor rank, of the whole model whatever the pipeline stage (the configurator counts
 * model_config's full_attention_layer_ids and swa_attention_layer_ids), r the ratio, each pool
 * in whole pages. A running request holds at most the window, the tokens that slide out before
 * its next eviction and a page of the window pool. */
static bool sglang_window_pool(const struct gs_inference_input *in, struct gs_inference_result *out,
                               uint64_t available)
{
    const struct gs_sglang_release *rel = out->sglang_release;
    const struct gs_kv_layout *stage = &out->kv;
    if (dsv4_pools(in, rel) && !in->engine.one_kv_pool) {
        if (!sglang_dsv4_pool(in, out, available))
            return false;
        window_share(in, out, stage->sliding_window);
        return true;
    }
    if (rel == NULL || rel->swa_pool == GS_SGLANG_SWA_POOL_NONE || in->engine.one_kv_pool ||
        stage->full_layers == 0 || stage->window_layers == 0 || stage->recurrent_layers ||
        stage->cross_token_bytes || stage->indexer_token_bytes ||
        !CLASS_LISTED(hybrid_swa_classes, in->arch, release_version(in, rel)))
        return false;
    struct gs_kv_layout whole = *stage;
    if (in->pipeline > 1 &&
        gs_kv_layout_memo(in->arch, out->kv_dtype != GS_KV_AUTO ? out->kv_dtype : in->kv_dtype,
                          in->model_bytes, in->tensor ? in->tensor : 1, 1, UINT64_MAX, false, NULL,
                          in->kv_memo, &whole, NULL) != GS_OK)
        return false;
    gs_kv_layout_with_shared(&whole); /* the configurator's layer lists count every layer */
    if (whole.full_layers + whole.window_layers != in->arch->num_hidden_layers)
        return false;
    uint64_t window_bytes = 0; /* S ns */
    for (size_t i = 0; i < whole.window_count; i++)
        window_bytes += whole.windows[i].token_bytes;
    const uint64_t full_bytes = whole.full_token_bytes; /* F nf */
    const uint64_t nf = whole.full_layers, ns = whole.window_layers;
    const uint64_t r = in->engine.swa_full_tokens_ratio_permille
                           ? in->engine.swa_full_tokens_ratio_permille
                           : 800; /* server_args.py swa_full_tokens_ratio: float = 0.8 */
    const uint64_t page = out->block_size ? out->block_size : 1;
    bool ovf = false;
    uint64_t full = 0;
    if (rel->swa_pool == GS_SGLANG_SWA_POOL_UNIFORM) {
        /* profile_max_num_token's cell: every effective layer at a full layer's bytes; then
         * total_tokens = that x num_hidden_layers, full = int(total / (r ns + nf)) */
        const uint64_t cell =
            gs_mul(full_bytes / nf, stage->full_layers + stage->window_layers, &ovf);
        const uint64_t tokens = cell ? available / cell / page * page : 0;
        full = gs_mul(gs_mul(tokens, in->arch->num_hidden_layers, &ovf), 1000, &ovf) /
               (r * ns + 1000 * nf);
    } else {
        const uint64_t split = gs_add(gs_mul(full_bytes, 1000, &ovf), gs_mul(window_bytes, r, &ovf),
                                      &ovf); /* (F nf + r S ns) x 1000 */
        if (rel->swa_pool == GS_SGLANG_SWA_POOL_PROFILED) {
            /* get_cell_size_per_token's F nf + S ns, then total_memory = tokens x that */
            const uint64_t cell = full_bytes + window_bytes;
            const uint64_t tokens = available / cell / page * page;
            full = gs_mul(gs_mul(tokens, cell, &ovf), 1000, &ovf) / split;
        } else {
            full = gs_mul(available, 1000, &ovf) / split;
        }
    }
    if (ovf)
        return false;
    full = full / page * page;
    out->max_tokens = full;
    out->reported_tokens = full; /* max_total_num_tokens is the full pool's */
    out->blocks = full / page;
    out->window_pool_tokens = full * r / 1000 / page * page;
    out->window_ratio_permille = r;
    const uint64_t window = stage->sliding_window;
    window_share(in, out, window);
    const bool decode = in->engine.disaggregation == GS_SGLANG_ROLE_DECODE;
    if (rel->swa_chunk_cap && in->engine.max_num_seqs &&
        (decode || in->engine.prefix_caching == GS_CHUNKED_PREFILL_OFF)) {
        /* SWAChunkCapPoolConfigurator (is_applicable: --max-running-requests given, the radix
         * cache off - --disable-radix-cache, or a decode worker's chunk cache): the window pool
         * sized from the requests, the rest of the budget to the full pool */
        const uint64_t running = in->engine.max_num_seqs / attention_data(in);
        uint64_t cap = gs_mul(out->window_seq_tokens, running, &ovf);
        if (decode) {
            /* + (window + page) x disaggregation_decode_extra_slots */
            cap = gs_add(cap, gs_mul(window + page, decode_extra_slots(in, rel, running), &ovf),
                         &ovf);
        } else {
            /* + chunks_in_flight (2, the overlap scheduler) x chunked_prefill_size + page */
            int64_t chunk = 0;
            uint64_t max_bs = 0;
            class_defaults(rel, out->budget.total_bytes / GS_MIB,
                           (in->tensor ? in->tensor : 1) * attention_data(in), &chunk, &max_bs);
            if (in->engine.chunked_prefill == GS_CHUNKED_PREFILL_OFF)
                chunk = -1;
            else if (in->engine.max_num_batched_tokens)
                chunk = (int64_t)in->engine.max_num_batched_tokens;
            const int64_t add = 2 * chunk + (int64_t)page;
            cap = add >= 0 ? gs_add(cap, (uint64_t)add, &ovf)
                           : (cap > (uint64_t)-add ? cap + add : 0);
        }
        const uint64_t swa = (cap + page - 1) / page * page; /* ceil_align */
        const uint64_t fixed = gs_mul(swa, window_bytes, &ovf);
        if (ovf)
            return false;
        full = available > fixed ? (available - fixed) / full_bytes / page * page : 0;
        out->max_tokens = full;
        out->reported_tokens = full;
        out->blocks = full / page;
        out->window_pool_tokens = swa;
        out->window_chunk_cap = true;
    }
    return true;
}

/* configs/model_config.py piecewise_cuda_graph_disabled_model_archs, read at v0.5.10-v0.5.18
 * (LLaDA, a diffusion model gpusizer does not read, left out): DeepSeek-V3.2 and GLM-5 through
 * 0.5.12, DeepSeek-V4 from its first release, 0.5.12 (its DSpark variant from 0.5.16) */
static const struct class_span piecewise_off_classes[] = {
    {"Qwen3NextForCausalLM", 510, 0},     {"BailingMoeV2_5ForCausalLM", 510, 0},
    {"DeepseekV32ForCausalLM", 510, 513}, {"GlmMoeDsaForCausalLM", 510, 513},
    {"DeepseekV4ForCausalLM", 512, 0},    {"DeepseekV4ForCausalLMDSpark", 516, 0},
};

/* The multimodal classes that keep piecewise prefill graphs
 * (multimodal_piecewise_cuda_graph_supported_model_archs, first in the v0.5.14 tag; Kimi K2.5
 * and MiniMax M3 added at v0.5.16) and breakable ones
 * (multimodal_breakable_cuda_graph_supported_model_archs, first in the v0.5.16 tag; Kimi K2.5,
 * Kimi K3, InternS2-Mobius and Muse Glimmer added at v0.5.18); every other multimodal class
 * (one with a vision tower, as gpusizer reads SGLang's is_multimodal) runs its prefill eager */
static const struct class_span multimodal_piecewise_classes[] = {
    {"Cohere2VisionForConditionalGeneration", 514, 0},
    {"KimiK25ForConditionalGeneration", 516, 0},
    {"MiniMaxM3SparseForCausalLM", 516, 0},
    {"MiniMaxM3SparseForConditionalGeneration", 516, 0},
};
static const struct class_span multimodal_breakable_classes[] = {
    {"Qwen3_5ForConditionalGeneration", 516, 0},
    {"Qwen3_5MoeForConditionalGeneration", 516, 0},
    {"KimiK25ForConditionalGeneration", 518, 0},
    {"KimiK3ForConditionalGeneration", 518, 0},
    {"InternS2MobiusForConditionalGeneration", 518, 0},
    {"MuseGlimmerForConditionalGeneration", 518, 0},
};

/* configs/model_config.py is_deepseek_nsa (0.5.10-0.5.12: these classes with index_topk set) */
static const char *const deepseek_nsa_classes[] = {"DeepseekV3ForCausalLM",
                                                   "DeepseekV32ForCausalLM",
                                                   "DeepseekV3ForCausalLMNextN",
                                                   "MistralLarge3ForCausalLM",
                                                   "PixtralForConditionalGeneration",
                                                   "GlmMoeDsaForCausalLM",
                                                   NULL};

/* configs/model_config.py is_nemotron_h */
static const char *const nemotron_h_classes[] = {
    "NemotronHForCausalLM", "NemotronHPuzzleForCausalLM", "NemotronHForCausalLMMTP", NULL};

/* The piecewise (torch.compile) rules a request can show: _handle_piecewise_cuda_graph
 * (0.5.10-0.5.13), _disable_tc_piecewise_cudagraph_if_incompatible (0.5.14 on) */
static const char *piecewise_off(const struct gs_sglang_release *rel,
                                 const struct gs_sglang_graph_case *c, uint32_t v)
{
    const bool multimodal = c->arch != NULL && c->arch->vision_config_layers != 0;
    if (c->rocm)
        return "SGLang turns its piecewise prefill CUDA graphs off on ROCm (\"non-CUDA "
               "hardware\"), so the reserve holds none";
    if (c->arch != NULL && (CLASS_LISTED(piecewise_off_classes, c->arch, v) ||
                            (rel->piecewise_off_dsa && gs_arch_has_sparse_mla(c->arch) &&
                             gs_arch_class_in(c->arch, deepseek_nsa_classes))))
        return "SGLang turns the piecewise prefill CUDA graphs off for this model class "
               "(configs/model_config.py is_piecewise_cuda_graph_disabled_model), so the "
               "reserve holds none";
    if (rel->piecewise_off_spec && c->spec != GS_SPEC_NONE)
        return "SGLang 0.5.10 turns the piecewise prefill CUDA graphs off under speculative "
               "decoding (_handle_piecewise_cuda_graph), so the reserve holds none";
    if (c->attention_data > 1)
        return "SGLang turns the piecewise prefill CUDA graphs off under DP attention, so the "
               "reserve holds none";
    if (c->pipeline > 1)
        return "SGLang turns the piecewise prefill CUDA graphs off under pipeline parallelism, "
               "so the reserve holds none";
    if (multimodal && !CLASS_LISTED(multimodal_piecewise_classes, c->arch, v))
        return "SGLang turns the piecewise prefill CUDA graphs off for a multimodal model "
               "outside multimodal_piecewise_cuda_graph_supported_model_archs, so the reserve "
               "holds none";
    if (c->deepep)
        return "SGLang turns the piecewise prefill CUDA graphs off with an all-to-all MoE backend "
               "(--moe-a2a-backend deepep: rule \"MoE A2A backend\"), so the reserve holds none";
    if (c->cpu_offload)
        return "SGLang turns the piecewise prefill CUDA graphs off under --cpu-offload-gb "
               "(\"breaks dynamo\"), so the reserve holds none";
    if (c->role != GS_SGLANG_ROLE_NONE)
        return "SGLang turns the piecewise prefill CUDA graphs off for a disaggregated worker "
               "(rule \"PD disaggregation\"), so the reserve holds none";
    return NULL;
}

/* _disable_breakable_cudagraph_if_incompatible as each release has it (0.5.15 on) */
static const char *breakable_off(const struct gs_sglang_release *rel,
                                 const struct gs_sglang_graph_case *c)
{
    const struct gs_arch *a = c->arch;
    const bool mla = a != NULL && gs_arch_has_mla(a);
    if (rel->breakable_mla == GS_SGLANG_BREAKABLE_MLA_OFF && mla)
        return "SGLang 0.5.15-0.5.16 run no breakable prefill CUDA graphs for an MLA model "
               "(\"MLA attention\"), so the reserve holds none";
    if (rel->breakable_mla == GS_SGLANG_BREAKABLE_MLA_NON_DSA && mla && !gs_arch_has_sparse_mla(a))
        return "SGLang 0.5.17 runs no breakable prefill CUDA graphs for an MLA model without "
               "DeepSeek sparse attention (\"MLA attention (non-DSA)\"), so the reserve holds "
               "none";
    if (rel->breakable_off_nemotron_h && a != NULL && gs_arch_class_in(a, nemotron_h_classes))
        return "SGLang 0.5.17 runs no breakable prefill CUDA graphs for Nemotron-H (\"NemotronH "
               "(hybrid Mamba2 prefill)\"), so the reserve holds none";
    if (gs_arch_is_deepseek_v4(a))
        return "SGLang runs no breakable prefill CUDA graphs for DeepSeek-V4 (\"heavy "
               "capture-pool memory pressure\"), so the reserve holds none";
    if (rel->breakable_off_a2a && c->deepep)
        return "SGLang 0.5.15-0.5.16 run no breakable prefill CUDA graphs with an all-to-all MoE "
               "backend (\"MoE A2A backend\": --moe-a2a-backend deepep), so the reserve holds none";
    if (rel->breakable_off_dp && c->attention_data > 1)
        return "SGLang 0.5.15-0.5.16 run no breakable prefill CUDA graphs under DP attention, so "
               "the reserve holds none";
    return NULL;
}

const char *gs_sglang_prefill_graphs_off(const struct gs_sglang_release *rel,
                                         const struct gs_sglang_graph_case *c)
{
    if (rel == NULL || rel->prefill_graphs == GS_SGLANG_PREFILL_GRAPHS_NONE)
        return NULL;
    const uint32_t v = c->version ? c->version : rel->from;
    /* --disable-cuda-graph: both phases from 0.5.14 (_parse_cuda_graph_config: "if
     * self.disable_cuda_graph: _set(Phase.PREFILL, 'backend', Backend.DISABLED)"); through
     * 0.5.13 it left the piecewise graphs to their own flag */
    if (rel->graph_phases && c->disable_cuda_graph)
        return "--disable-cuda-graph (enforce_eager) turns SGLang's prefill CUDA graphs off too "
               "(from 0.5.14), so the reserve holds none";
    /* a prefill worker of 0.5.14-0.5.15: pd_disaggregation_hook.py sets disable_cuda_graph */
    if (rel->graph_phases && rel->pd_reserve != GS_SGLANG_PD_RESERVE_PHASES &&
        c->role == GS_SGLANG_ROLE_PREFILL)
        return "an SGLang 0.5.14-0.5.15 prefill worker runs with --disable-cuda-graph "
               "(pd_disaggregation_hook.py \"server_args.disable_cuda_graph = True\"), so the "
               "reserve holds no prefill graphs";
    if (rel->pd_reserve != GS_SGLANG_PD_RESERVE_FLAT && c->role == GS_SGLANG_ROLE_DECODE)
        return "an SGLang decode worker captures no prefill CUDA graphs, and its reserve holds "
               "none (\"self.disaggregation_mode != 'decode'\")";
    if (rel->prefill_graphs == GS_SGLANG_PREFILL_GRAPHS_PIECEWISE || c->rocm)
        return piecewise_off(rel, c, v);
    /* breakable on CUDA; a multimodal class validated on piecewise graphs alone runs those from
     * 0.5.16 ("piecewise-allowlisted archs run their validated decoder prefill there instead"),
     * under the piecewise rules */
    const bool multimodal = c->arch != NULL && c->arch->vision_config_layers != 0;
    if (multimodal && v >= 516 && CLASS_LISTED(multimodal_piecewise_classes, c->arch, v) &&
        !CLASS_LISTED(multimodal_breakable_classes, c->arch, v))
        return piecewise_off(rel, c, v);
    const char *why = breakable_off(rel, c);
    if (why == NULL && multimodal && !CLASS_LISTED(multimodal_breakable_classes, c->arch, v))
        why = "SGLang runs no breakable prefill CUDA graphs for a multimodal model outside "
              "multimodal_breakable_cuda_graph_supported_model_archs (\"multimodal prefill "
              "replay faults\"), so the reserve holds none";
    return why;
}

/* The radix cache before speculative decoding has its say: off where the request turns
 * prefix caching off (--disable-radix-cache) or the release does not keep it for the class. */
static bool radix_by_class(const struct gs_inference_input *in, const struct gs_sglang_release *rel)
{
    if (in->engine.prefix_caching == GS_CHUNKED_PREFILL_OFF)
        return false;
    /* a decode worker: "KV cache is forced as chunk cache for decode server"
     * (_handle_disaggregation, pd_disaggregation_hook.py; every tag read, unless
     * --disaggregation-decode-enable-radix-cache) */
    if (in->engine.disaggregation == GS_SGLANG_ROLE_DECODE)
        return false;
    return CLASS_LISTED(radix_classes, in->arch, release_version(in, rel));
}

/* ... and as the release leaves it under speculative decoding (a refusal where it raises:
 * sglang_refusal) */
static bool radix_cache_on(const struct gs_inference_input *in, const struct gs_sglang_release *rel)
{
    if (!radix_by_class(in, rel))
        return false;
    if (in->engine.spec_method == GS_SPEC_NONE)
        return true;
    static const char *const nemotron_h[] = {"NemotronHForCausalLM", NULL};
    switch (rel->spec_radix) {
    case GS_SGLANG_SPEC_RADIX_OFF:
        return false; /* "Disabling radix cache since speculative decoding ..." */
    case GS_SGLANG_SPEC_RADIX_OFF_NEMOTRON:
        return !gs_arch_class_in(in->arch, nemotron_h);
    case GS_SGLANG_SPEC_RADIX_KEPT:
    case GS_SGLANG_SPEC_RADIX_REFUSED:
        break;
    }
    return true;
}

/* State slots a running request takes, the ratio the running requests are capped by (K //
 * ratio: MAMBA_CACHE_SIZE_MAX_RUNNING_REQUESTS_RATIO = 3 with the radix cache, 1 without; 0.5.7
 * adds MAMBA_CACHE_V2_ADDITIONAL_RATIO_OVERLAP's 2 whatever the strategy, 0.5.8-0.5.13 only
 * for extra_buffer, which auto does not pick before 0.5.14, when it picks it for
 * extra_buffer_classes with the overlap scheduler on, by default). */
static uint64_t state_slots_per_request(const struct gs_inference_input *in,
                                        const struct gs_sglang_release *rel, bool radix)
{
    if (!radix)
        return 1;
    if (rel->state_rule == GS_SGLANG_STATES_RADIX_RESERVE)
        return 5;
    if (rel->state_extra_buffer &&
        CLASS_LISTED(extra_buffer_classes, in->arch, release_version(in, rel)))
        return 5;
    return 3;
}

/* The tokens a speculative step verifies, speculative_num_draft_tokens (D): with
 * num_speculative_tokens k, --speculative-num-steps k at --speculative-eagle-topk 1, which
 * verifies k + 1 ("speculative_num_draft_tokens is adjusted to speculative_num_steps + 1 when
 * speculative_eagle_topk == 1"); without it NGRAM's 12 (_handle_ngram) and the others'
 * auto_choose_speculative_params (server_args.py; arg_groups/speculative_hook.py from 0.5.14):
 * (steps, topk, draft tokens) (3, 1, 4) for STANDALONE and, from 0.5.8, every class but
 * Llama's and Grok's, which take (5, 4, 8), as every class outside its DeepSeek / GPT-OSS
 * list did through 0.5.7 ("The default value for all other models"). */
static uint64_t speculative_draft_tokens(const struct gs_inference_input *in,
                                         const struct gs_sglang_release *rel)
{
    static const char *const wide_tree_classes[] = {"LlamaForCausalLM", "Grok1ForCausalLM",
                                                    "Grok1VForCausalLM", NULL};
    const struct gs_engine_config *c = &in->engine;
    if (c->spec_tokens)
        return c->spec_tokens + 1;
    if (c->spec_method == GS_SPEC_NGRAM)
        return 12;
    if (c->spec_method != GS_SPEC_DRAFT_MODEL &&
        (rel->spec_wide_default || gs_arch_class_in(in->arch, wide_tree_classes)))
        return 8;
    return 4;
}

/* The request-to-token table (enum gs_sglang_request_table): R requests of int32 slots for
 * context_len + 4 tokens (+ the draft tokens from 0.5.1: extra_max_context_len; from 0.5.14
 * get_req_to_token_extra_context_len), a hybrid's R at most its state slots' requests
 * (max_mamba_cache_size // ratio), a decode worker's rows E more (DecodeReqToTokenPool
 * pre_alloc_size). Each tensor-parallel rank holds its own. */
static void sglang_tables(const struct gs_inference_input *in, struct gs_inference_result *out)
{
    const struct gs_sglang_release *rel = out->sglang_release;
    const uint64_t context = in->context_length;
    if (rel == NULL || context == 0 || out->max_tokens == 0 || out->budget.kv_bytes <= 0)
        return;
    const struct gs_engine_config *c = &in->engine;
    const uint64_t dp = attention_data(in);
    /* --max-running-requests, given or set by the speculative hooks (48) */
    const uint64_t given = out->seqs_cap != NULL ? out->max_num_seqs : 0;
    /* the pool's tokens; before 0.5.10 the profile's, every attention layer holding every
     * token (before set_num_tokens_hybrid_swa splits them) */
    uint64_t tokens = out->max_tokens;
    if (rel->request_table <= GS_SGLANG_REQUESTS_GIVEN && out->window_pool_tokens &&
        out->kv.bytes_per_token)
        tokens = (uint64_t)out->budget.kv_bytes / out->kv.bytes_per_token;
    bool ovf = false;
    uint64_t estimate = gs_mul(tokens, 512, &ovf) / context; /* int(tokens / context_len x 512) */
    estimate = estimate < 2048 ? 2048 : estimate > 4096 ? 4096 : estimate;
    uint64_t requests;
    switch (rel->request_table) {
    case GS_SGLANG_REQUESTS_PADDED:
    case GS_SGLANG_REQUESTS_GIVEN:
        requests = given ? given : estimate;
        break;
    case GS_SGLANG_REQUESTS_RESOLVED:
    case GS_SGLANG_REQUESTS_RESOLVED_PAD:
        requests = given ? (given / dp < estimate ? given / dp : estimate)
                         : (estimate < tokens / 2 ? estimate : tokens / 2);
        break;
    case GS_SGLANG_REQUESTS_CAPPED:
    default: {
        const uint64_t wanted = given ? given / dp : estimate;
        requests = wanted < tokens / 2 ? wanted : tokens / 2;
        break;
    }
    }
    if (out->state_pool_bytes && out->state_request_slots &&
        out->state_slots / out->state_request_slots < requests)
        requests = out->state_slots / out->state_request_slots;
    uint64_t rows = requests;
    if (rel->request_table != GS_SGLANG_REQUESTS_GIVEN &&
        rel->request_table != GS_SGLANG_REQUESTS_RESOLVED)
        rows += 1; /* "size=max_num_reqs + 1" (0.4.0-0.4.6); _alloc_size = size + 1 (0.5.12 on) */
    rows += decode_extra_slots(in, rel, requests);
    const bool spec = c->spec_method != GS_SPEC_NONE;
    const uint64_t width =
        context + 4 + (rel->request_width_draft && spec ? speculative_draft_tokens(in, rel) : 0);
    out->request_table_rows = rows;
    out->request_table_bytes = gs_mul(gs_mul(rows, width, &ovf), 4, &ovf);
    if (ovf)
        out->request_table_bytes = 0;
}

/* bytes x r / (1 + r), r in thousandths */
static uint64_t ratio_share(uint64_t bytes, uint64_t ratio, bool *ovf)
{
    const uint64_t parts = 1000 + ratio;
    return gs_add(gs_mul(bytes / parts, ratio, ovf), bytes % parts * ratio / parts, ovf);
}

/* SGLang's hybrid state pool, by release (gs_sglang_state_rule; docs/engines.md "The state
 * pool by release tag"). With P one sequence's states (the conv windows and recurrent states
 * of every linear layer on this GPU), B what the fraction leaves, r mamba_full_memory_ratio
 * (0.9 by default, PR #11679), D speculative_num_draft_tokens under speculative decoding, R
 * max_running_requests (given, or 48 under speculative decoding) and S the slots a request
 * takes, the slots K:
 *   - FIXED (0.5.2-0.5.3): R, else 512, // dp; K P taken;
 *   - SPLIT (0.5.4-0.5.6): with the radix cache B r / (1 + r) // P // (1 + D), else R or 512
 *     (a given --max-mamba-cache-size only without it), // dp for Qwen3-Next (hybrid_gdn_config)
 *     whichever; K P (1 + D) taken;
 *   - RADIX_RESERVE (0.5.7): without the radix cache or with a given size, that size, else R or
 *     512, // dp; with it P R D reserved first under speculative decoding, then (B - P R D) r /
 *     (1 + r) // P; K P taken beside;
 *   - RESERVE (0.5.8-0.5.12): P (R // dp) D reserved first under speculative decoding in every
 *     case, then a given size // dp, or R // dp without the radix cache (where R is set; else
 *     512 through 0.5.8, the ratio from 0.5.9), else the ratio of the rest;
 *   - JOINT (0.5.13 on, _handle_max_mamba_cache): a given size // dp; R // dp without the radix
 *     cache where R is set; with it under speculative decoding (K [+ 1]) P + (K / S [+ 1]) D P
 *     = B r / (1 + r); else B r / (1 + r) // P [less the padding slot from 0.5.17]; the draft
 *     states of min(R // dp, K / S) [+ 1] requests taken beside.
 * MambaPool allocates K + 1 slots in every release and, under speculative decoding, the
 * intermediate states of (its request pool + 1) x D (memory_pool.py: size + 1; the request
 * pool is min(R, K) in 0.5.2-0.5.3, where MambaPool takes that size for the slots too, K in
 * 0.5.4-0.5.6, min(R // dp, K / S) from 0.5.7); what the budget did not take
 * (the padding slot before 0.5.17, 0.5.2-0.5.3's draft states, 0.5.7's without the radix
 * cache) is memory past the fraction, state_unbudgeted_bytes. Running requests are capped at
 * K / S (resolve_max_num_reqs). Sizes per data-parallel attention worker. */
static bool sglang_state_pool(const struct gs_inference_input *in, struct gs_inference_result *out,
                              uint64_t available, uint64_t *attention)
{
    const struct gs_sglang_release *rel = out->sglang_release;
    const uint64_t stage_slot = out->kv.state_bytes_per_sequence;
    if (rel == NULL || rel->state_rule == GS_SGLANG_STATES_NONE || stage_slot == 0 ||
        out->kv.full_layers + out->kv.window_layers == 0)
        return false;
    bool ovf = false;
    /* P as the budget charges it, and as MambaPool holds it */
    uint64_t slot, held_slot;
    stage_slots(in, rel, stage_slot, &slot, &held_slot, &ovf);
    if (slot == 0)
        return false;
    const struct gs_engine_config *c = &in->engine;
    const uint64_t dp = attention_data(in);
    const bool radix = radix_cache_on(in, rel);
    const uint64_t per_request = state_slots_per_request(in, rel, radix);
    const bool pad = rel->state_pad_slot;
    const bool spec = c->spec_method != GS_SPEC_NONE;
    /* max_running_requests where it is set (given, or by the speculative hooks), and per
     * worker */
    const uint64_t running_all = out->seqs_cap != NULL ? out->max_num_seqs : 0;
    const uint64_t running = running_all / dp;
    const uint64_t d = spec ? speculative_draft_tokens(in, rel) : 0;
    const uint64_t ratio =
        c->mamba_full_memory_ratio_permille ? c->mamba_full_memory_ratio_permille : 900;
    const uint64_t given = c->max_mamba_cache_size;
    const uint64_t fixed = running_all ? running_all : 512; /* "else: ... = 512" */
    uint64_t slots = 0;                                     /* K */
    uint64_t reserved = 0;   /* draft states taken before the split */
    uint64_t spec_taken = 0; /* draft states taken beside the slots */
    uint64_t pool_taken;     /* the slots' states the budget takes */
    uint64_t spec_seqs;      /* the requests MambaPool keeps draft states for, less its + 1 */
    uint64_t held_slots = 0; /* the slots MambaPool holds, less its + 1, where not K */
    switch (rel->state_rule) {
    case GS_SGLANG_STATES_FIXED:
        /* the pool is the request pool, min(max_running_requests, K) */
        slots = (given ? given : fixed) / dp;
        pool_taken = gs_mul(slots, slot, &ovf);
        spec_seqs = running && running < slots ? running : slots;
        held_slots = spec_seqs;
        break;
    case GS_SGLANG_STATES_SPLIT: {
        static const char *const gdn[] = {"Qwen3NextForCausalLM", NULL};
        if (radix)
            slots = ratio_share(available, ratio, &ovf) / slot / (1 + d);
        else
            slots = given ? given : fixed;
        if (gs_arch_class_in(in->arch, gdn))
            slots /= dp;
        pool_taken = gs_mul(gs_mul(slots, slot, &ovf), 1 + d, &ovf);
        spec_seqs = slots;
        break;
    }
    case GS_SGLANG_STATES_RADIX_RESERVE:
        if (!radix || given) {
            slots = (given ? given : fixed) / dp;
        } else {
            reserved = gs_mul(gs_mul(slot, running_all, &ovf), d, &ovf);
            slots =
                available > reserved ? ratio_share(available - reserved, ratio, &ovf) / slot : 0;
        }
        pool_taken = gs_mul(slots, slot, &ovf);
        spec_seqs = slots / per_request;
        if (running && spec_seqs > running)
            spec_seqs = running;
        break;
    case GS_SGLANG_STATES_RESERVE: {
        reserved = gs_mul(gs_mul(slot, running, &ovf), d, &ovf);
        const uint64_t rest = available > reserved ? available - reserved : 0;
        if (given)
            slots = given / dp;
        else if (!radix && running_all)
            slots = running;
        else if (!radix && rel->state_fallback_512)
            slots = 512 / dp;
        else
            slots = ratio_share(rest, ratio, &ovf) / slot;
        pool_taken = gs_mul(slots, slot, &ovf);
        spec_seqs = slots / per_request;
        if (running && spec_seqs > running)
            spec_seqs = running;
        break;
    }
    case GS_SGLANG_STATES_JOINT:
    default: {
        const uint64_t budget = ratio_share(available, ratio, &ovf);
        if (given) {
            slots = given / dp; /* "max_mamba_cache_size is not None" */
        } else if (!radix && running_all) {
            slots = running; /* "disable_radix_cache and max_running_requests is not None" */
        } else if (spec) {
            /* int((budget - P (1 + D)) // (P (1 + D / S))), 1 + D / S = (S + D) / S */
            const uint64_t pads = pad ? gs_mul(slot, 1 + d, &ovf) : 0;
            const uint64_t per_slot = gs_mul(slot, per_request + d, &ovf);
            slots =
                budget > pads && per_slot ? gs_mul(budget - pads, per_request, &ovf) / per_slot : 0;
        } else {
            slots = pad ? (budget > slot ? (budget - slot) / slot : 0) : budget / slot;
        }
        pool_taken = gs_mul(pad ? slots + 1 : slots, slot, &ovf);
        spec_seqs = slots / per_request;
        if (running && spec_seqs > running)
            spec_seqs = running;
        spec_taken =
            spec ? gs_mul(gs_mul(slot, pad ? spec_seqs + 1 : spec_seqs, &ovf), d, &ovf) : 0;
        break;
    }
    }
    /* a decode worker's HybridMambaDecodeReqToTokenPool (enum gs_sglang_decode_states): R the
     * requests it runs (max_num_reqs), E its extra slots for requests still arriving; its draft
     * states are R + E requests' (mamba_spec_state_size) */
    if (c->disaggregation == GS_SGLANG_ROLE_DECODE &&
        rel->decode_states != GS_SGLANG_DECODE_STATES_K && slots) {
        const uint64_t requests = running ? running : slots / per_request;
        const uint64_t extra = decode_extra_slots(in, rel, requests);
        const uint64_t need = requests + extra;
        switch (rel->decode_states) {
        case GS_SGLANG_DECODE_STATES_REQUESTS:
            held_slots = need;
            break;
        case GS_SGLANG_DECODE_STATES_K_PLUS:
            held_slots = slots + extra;
            break;
        case GS_SGLANG_DECODE_STATES_MIN:
            held_slots = need < slots ? need : slots;
            break;
        case GS_SGLANG_DECODE_STATES_MAX:
        case GS_SGLANG_DECODE_STATES_K:
        default:
            held_slots = need > slots ? need : slots;
            break;
        }
        spec_seqs = need;
        out->state_decode_extra = extra;
    }
    /* none: "Not enough GPU memory for hybrid ... state cache" at startup */
    out->state_slots = slots;
    out->state_pool_bytes =
        slots ? gs_mul((held_slots ? held_slots : slots) + 1, held_slot, &ovf) : 0;
    /* the requests at once, min(max_running_requests, K / S) */
    out->state_seqs = slots / per_request;
    if (running && out->state_seqs > running)
        out->state_seqs = running;
    out->state_spec_tokens = d;
    out->state_spec_bytes =
        spec && slots ? gs_mul(gs_mul(held_slot, spec_seqs + 1, &ovf), d, &ovf) : 0;
    out->state_request_slots = per_request;
    out->state_slot_charged_bytes = slot != stage_slot ? slot : 0;
    out->state_slot_held_bytes = held_slot != stage_slot ? held_slot : 0;
    if (out->state_seqs == 0)
        out->state_binding = "the hybrid's state pool holds no running sequence's states (SGLang "
                             "fails at startup: \"Not enough GPU memory for hybrid ... state "
                             "cache\")";
    const uint64_t taken = gs_add(gs_add(pool_taken, reserved, &ovf), spec_taken, &ovf);
    const uint64_t held = gs_add(out->state_pool_bytes, out->state_spec_bytes, &ovf);
    out->state_unbudgeted_bytes = held > taken ? held - taken : 0;
    *attention = !ovf && available > taken ? available - taken : 0;
    return true;
}

/* The state_slots assumption's text for each state rule. */
struct state_rule_text {
    const char *detail, *source;
};

static const struct state_rule_text *state_rule_text(enum gs_sglang_state_rule rule)
{
    static const struct state_rule_text texts[] = {
        [GS_SGLANG_STATES_FIXED] =
            {"SGLang 0.5.2-0.5.3 keeps a hybrid's Mamba / linear-attention states in a pool of "
             "their own, without the radix cache: max_running_requests slots (48 under "
             "speculative decoding), else 512, one sequence's states each, taken from what the "
             "fraction leaves before the attention cache (max_tokens) is sized; a request "
             "takes one slot",
             "sglang model_runner.py (v0.5.2, v0.5.3 tags): max_mamba_cache_size, "
             "profile_max_num_token"},
        [GS_SGLANG_STATES_SPLIT] =
            {"SGLang 0.5.4-0.5.6 keeps a hybrid's states in a pool of their own: with the radix "
             "cache mamba_full_memory_ratio / (1 + ratio) of what the fraction leaves (0.9 / 1.9 "
             "by default) over one sequence's states x (1 + speculative_num_draft_tokens), "
             "without it max_running_requests slots, else 512; the slots and their draft states "
             "are taken before the attention cache (max_tokens) is sized",
             "sglang model_runner.py handle_max_mamba_cache (v0.5.4 to v0.5.6 tags; PR #11214, "
             "PR #11679)"},
        [GS_SGLANG_STATES_RADIX_RESERVE] =
            {"SGLang 0.5.7 keeps a hybrid's states in a pool of their own: with the radix cache, "
             "under speculative decoding the draft states of max_running_requests requests "
             "first, then mamba_full_memory_ratio / (1 + ratio) of the rest (0.9 / 1.9 by "
             "default) in slots of one sequence's states; without it, or with "
             "--max-mamba-cache-size, that many slots, else max_running_requests, else 512; the "
             "attention cache (max_tokens) is sized from the rest",
             "sglang model_runner_kv_cache_mixin.py handle_max_mamba_cache (v0.5.7 tag)"},
        [GS_SGLANG_STATES_RESERVE] =
            {"SGLang 0.5.8-0.5.12 keeps a hybrid's states in a pool of their own: under "
             "speculative decoding the draft states of max_running_requests requests first, "
             "then --max-mamba-cache-size slots, or without the radix cache "
             "max_running_requests (512 in 0.5.8 where it is not set), else "
             "mamba_full_memory_ratio / (1 + ratio) of the rest (0.9 / 1.9 by default) in slots "
             "of one sequence's states; the attention cache (max_tokens) is sized from the rest",
             "sglang model_runner_kv_cache_mixin.py handle_max_mamba_cache (v0.5.8 to v0.5.12 "
             "tags)"},
        [GS_SGLANG_STATES_JOINT] =
            {"SGLang keeps a hybrid's Mamba / linear-attention states in a pool of their own: "
             "mamba_full_memory_ratio / (1 + ratio) of what the fraction leaves (0.9 / 1.9 by "
             "default), in slots of one sequence's states (the padding slot in the budget from "
             "0.5.17, PR #32184), under speculative decoding solved with the running requests' "
             "draft states (from 0.5.13); --max-mamba-cache-size names the slots, and without "
             "the radix cache a set max_running_requests does; the attention cache "
             "(max_tokens) is sized from the rest",
             "sglang mem_cache/kv_cache_configurator.py _handle_max_mamba_cache, "
             "_calculate_mamba_ratio, resolve_max_num_reqs (main of September 2026; "
             "model_runner_kv_cache_mixin.py in the v0.5.13 and v0.5.14 tags)"},
    };
    return &texts[rule < GS_SGLANG_STATES_FIXED || rule > GS_SGLANG_STATES_JOINT
                      ? GS_SGLANG_STATES_JOINT
                      : rule];
}

/* The reserve the default mem_fraction_static leaves out (0.5.3 on), term by term. */
static void sglang_reserve_notes(const struct gs_engine_config *c,
                                 const struct gs_inference_result *r,
                                 const struct gs_engine_notes *n)
{
    if (!r->sglang_reserve_bytes || n->assume_value == NULL)
        return;
    const char *source = "sglang server_args.py _handle_gpu_memory_settings (arg_groups/"
                         "memory_hook.py handle_gpu_memory_settings in main), reserve_for_graph_mb";
    n->assume_value(n->ctx, "mem_fraction_reserve_bytes", r->sglang_reserve_bytes,
                    "SGLang's default mem_fraction_static is (capacity - this reserve) / "
                    "capacity, rounded to thousandths: 512 MiB + 1.5 MiB an activation token + 2 "
                    "MiB a decode CUDA-graph batch + TP x PP / 8 GiB (+ DP attention's padding) + "
                    "the prefill CUDA graphs, at least 10 GiB on GPUs above 60 GiB (+ a draft's 2, "
                    "4 or 6 GiB before 0.5.14)",
                    source);
    const enum gs_sglang_role role = (enum gs_sglang_role)c->disaggregation;
    const bool decode_tokens =
        role == GS_SGLANG_ROLE_DECODE && r->sglang_release->pd_reserve != GS_SGLANG_PD_RESERVE_FLAT;
    if (r->sglang_chunked_prefill_size > 0)
        n->assume_value(n->ctx, "chunked_prefill_size", (uint64_t)r->sglang_chunked_prefill_size,
                        c->max_num_batched_tokens
                            ? "SGLang's --chunked-prefill-size as max_num_batched_tokens gives it: "
                              "the prefill chunk its reserve and prefill CUDA graphs are sized by"
                            : "SGLang's --chunked-prefill-size default by GPU memory (2,048 under "
                              "20 GiB and under 35 GiB before 0.5.20, 4,096 under 60 GiB and "
                              "under 35 GiB from 0.5.20, 8,192 under 160 GiB, else 16,384): the "
                              "prefill chunk its reserve and prefill CUDA graphs are sized by",
                        source);
    n->assume_value(n->ctx, "reserve_activation_tokens", r->sglang_activation_tokens,
                    decode_tokens
                        ? "a decode worker's activation term (0.5.15 on): max(--max-running-"
                          "requests, else cuda_graph_max_bs, x --speculative-num-draft-tokens, "
                          "2,048) tokens at 1.5 MiB each"
                    : r->sglang_chunked_prefill_size > 0
                        ? "the activation term: max(chunked_prefill_size, 2,048) tokens at 1.5 "
                          "MiB each"
                        : "the activation term without chunked prefill: max(max_prefill_tokens, "
                          "16,384 by default, 2,048) tokens at 1.5 MiB each",
                    source);
    n->assume_value(n->ctx, "cuda_graph_max_bs", r->sglang_cuda_graph_max_bs,
                    c->cuda_graph_max_bs
                        ? "SGLang's --cuda-graph-max-bs as given: the decode CUDA graphs' "
                          "largest batch, 2 MiB a batch in the reserve"
                        : "SGLang's --cuda-graph-max-bs default by GPU memory and TP (8 under 20 "
                          "GiB; 24 under 35 GiB below TP 4, 16 in 0.5.3-0.5.4, 48 from 0.5.20, 80 "
                          "from TP 4, 160 from 0.5.20; 32 / 160 under 60 GiB; 256 / 512 under 160 "
                          "GiB; else 512): the decode CUDA graphs' largest batch, 2 MiB a batch in "
                          "the reserve",
                    source);
    if (r->sglang_deepep_bytes)
        n->assume_value(n->ctx, "deepep_reserve_bytes", r->sglang_deepep_bytes,
                        "SGLang with --moe-a2a-backend deepep (all2all_backend's DeepEP values) "
                        "reserves 2 GiB above the 10 GiB floor for the all-to-all buffers its "
                        "decode graphs capture (0.5.15 on, not on a prefill worker), and from "
                        "0.5.17 1 GiB more with its breakable prefill graphs",
                        "sglang server_args.py reserve_for_deepep_a2a_mb, reserve_for_graph_mb "
                        "(\"Prefill-BCG DeepEP delta\")");
    if (r->sglang_release->prefill_graphs == GS_SGLANG_PREFILL_GRAPHS_NONE)
        return;
    const char *graphs =
        r->sglang_prefill_graphs_off != NULL ? r->sglang_prefill_graphs_off
        : r->sglang_prefill_sizes && r->sglang_prefill_deepep
            ? "8 MiB for each prefill CUDA-graph capture size, which DeepEP rounds up to "
              "multiples of 8 up to 2,048 tokens whatever the chunk (_apply_deepep_adjustments: "
              "\"Non-multiple-of-8 prefill buckets can hang DeepEP\")"
        : r->sglang_prefill_sizes
            ? "8 MiB for each prefill CUDA-graph capture size up to chunked_prefill_size "
              "(4 to 32 by 4, to 256 by 16, to 512 by 32, to 1,024 by 64, to 4,096 by 256, then "
              "by 512; \"Only calculate the memory overhead for Non-Torch Memory\")"
        : r->sglang_prefill_graph_bytes
            ? "1.5 GiB for an MLA model's prefill CUDA graphs (\"the memory overhead is much "
              "higher than expected with fa3\")"
            : "no prefill CUDA-graph sizes: chunked prefill is off";
    n->assume_value(n->ctx, "prefill_graph_reserve_bytes", r->sglang_prefill_graph_bytes, graphs,
                    "sglang server_args.py reserve_for_graph_mb, _handle_piecewise_cuda_graph, "
                    "_disable_tc_piecewise_cudagraph_if_incompatible, "
                    "_disable_breakable_cudagraph_if_incompatible; model_executor/"
                    "cuda_graph_config.py default_prefill_backend");
}

/* What the reserve outside mem_fraction_static has left for memory the engine allocates past its
 * budget: the capacity less the fraction, the memory outside torch, the activations, the CUDA
 * graphs and, before 0.5.14, what the default sets aside for a draft's weights, pool and graphs
 * (2 GiB, 4 in 0.5.10-0.5.13, STANDALONE 6; NGRAM has no draft). */
static uint64_t reserve_room(const struct gs_engine_config *c, const struct gs_inference_result *r)
{
    bool ovf = false;
    const struct gs_budget *b = &r->budget;
    const enum gs_spec_method spec = (enum gs_spec_method)c->spec_method;
    const uint64_t draft =
        r->sglang_release->draft_in_fraction || spec == GS_SPEC_NONE || spec == GS_SPEC_NGRAM ? 0
        : spec == GS_SPEC_DRAFT_MODEL         ? 6 * GS_GIB
        : r->sglang_release->draft_reserve_4g ? 4 * GS_GIB
                                              : 2 * GS_GIB;
    const uint64_t used =
        gs_add(gs_add(gs_add(b->requested_bytes, b->non_torch_bytes, &ovf),
                      gs_add(b->activation_bytes, b->cuda_graph_bytes, &ovf), &ovf),
               draft, &ovf);
    return !ovf && b->total_bytes > used ? b->total_bytes - used : 0;
}

static void sglang_notes(const struct gs_engine_config *c, const struct gs_inference_result *r,
                         uint64_t expert, const struct gs_engine_notes *n)
{
    (void)expert;
    if (r->sglang_release == NULL)
        return;
    if (n->assume)
        n->assume(n->ctx, "engine_release", r->sglang_release->name, r->sglang_release->source);
    if (!gs_sglang_modeled(c->version) && n->warn)
        n->warn(n->ctx, "engine_release_not_modeled",
                "SGLang releases before 0.4.0 are sized with the 0.4.0 rules (mem_fraction_static "
                "by tensor-parallel size), which gpusizer has not checked against them");
    if (r->pool_not_modeled && n->warn)
        n->warn(n->ctx, "kv_pool_not_modeled", r->pool_not_modeled);
    sglang_reserve_notes(c, r, n);
    if (r->sglang_fraction_forced && n->assume_value)
        n->assume_value(n->ctx, "mem_fraction_static_permille", r->budget.fraction_permille,
                        "SGLang 0.5.3 sets mem_fraction_static 0.8 for DeepSeek sparse attention "
                        "(DeepSeek-V3.2, GLM-5) on GPUs, whatever is given or its rule gives",
                        "sglang server_args.py _handle_model_specific_adjustments (\"Setting mem "
                        "fraction static to 0.8 for DeepSeek NSA\"), v0.5.3");
    gs_engine_kv_dtype_notes(r, n);
    if (r->kv_unbudgeted_bytes && n->assume_value) {
        n->assume_value(n->ctx, "kv_unbudgeted_bytes", r->kv_unbudgeted_bytes,
                        "SGLang before 0.5.17 counts DeepSeek sparse attention's tokens at a "
                        "cell of kv_lora_rank + qk_rope_head_dim elements a layer, 576 bytes in "
                        "fp8 where the pool stores 656 (v0.5.3's cell without the indexer's "
                        "keys): max_total_num_tokens of the stored entries pass the fraction by "
                        "this much, held in the reserve outside it and counted in overhead_bytes",
                        "sglang model_runner.py profile_max_num_token (0.5.9 "
                        "get_cell_size_per_token, 0.5.12 pool_configurator.py "
                        "_compute_cell_size); memory_pool.py MLATokenToKVPool kv_cache_dim; "
                        "PR #31992 (0.5.17)");
        if (r->has_budget && r->kv_unbudgeted_bytes > reserve_room(c, r) && n->warn)
            n->warn(
                n->ctx, "kv_pool_past_reserve",
                "SGLang's KV pool for this model holds more than its budget took from "
                "mem_fraction_static (kv_unbudgeted_bytes: its token count prices a token below "
                "what the pool stores), more than the reserve outside the fraction has left "
                "after the activations and CUDA graphs: the engine may run out of memory at "
                "startup or under load; a lower mem_fraction_static, a bfloat16 cache or "
                "0.5.17 and later (which price the entry as stored) leave room");
    }
    if (r->window_dsv4 && n->assume_value) {
        n->assume_value(
            n->ctx, "window_pool_tokens", r->window_pool_tokens,
            "DeepSeek-V4's pools: the tokens of capacity (max_tokens, as max_total_num_tokens) "
            "are the budget less the ratio-128 compressor states (0.5.15 on) over what one "
            "costs: r x 584 bytes on every layer for the window pool (r "
            "--swa-full-tokens-ratio, 0.1 for DeepSeek-V4), 584 / 4 and the indexer's 132 / 4 "
            "on each compress-ratio-4 layer, 584 / 128 on each ratio-128 layer, and the fp32 "
            "compressor states' rings per window-pool page (before 0.5.15 the ratio-128 ones "
            "too), x (layers + 1) / layers under speculative decoding; the window pool holds r "
            "of them, each in pages of 256 tokens, and a request at most the window, the "
            "eviction interval and two pages of it",
            "SGLang model_executor/pool_configurator.py DSV4PoolConfigurator (v0.5.12 to v0.5.18 "
            "tags and main of August 2026); mem_cache/deepseek_v4_memory_pool.py "
            "get_compress_state_ring_size; managers/schedule_batch.py maybe_evict_swa");
        n->assume_value(n->ctx, "dsv4_token_bytes", r->dsv4_token_bytes,
                        "what one token of DeepSeek-V4's capacity costs on this GPU as "
                        "SGLang's configurator prices it (bytes_per_full_token, rounded "
                        "up), whatever the cache's element format",
                        "SGLang pool_configurator.py DSV4PoolConfigurator "
                        "_get_bytes_per_full_token");
        if (r->dsv4_state_bytes)
            n->assume_value(n->ctx, "dsv4_c128_state_bytes", r->dsv4_state_bytes,
                            "DeepSeek-V4's ratio-128 compressor states, request-scoped from "
                            "0.5.15 and taken from the budget before its tokens: a ring of "
                            "128 rows (256 under speculative decoding) of 2 x head_dim fp32 "
                            "values for each of --max-running-requests + 1 slots (+ a decode "
                            "worker's extra slots), + a ring and a row, in multiples of 128 "
                            "rows, on every ratio-128 layer",
                            "SGLang pool_configurator.py DSV4PoolConfigurator "
                            "_get_c128_state_fixed_bytes");
    } else if (r->window_pool_tokens && n->assume_value) {
        static const char *const rules[] = {
            [GS_SGLANG_SWA_POOL_UNIFORM] =
                "SGLang's hybrid SWA memory: the budget's tokens at a full layer's bytes on every "
                "layer, x the model's layers, shared as full = total / (r x window layers + full "
                "layers) and window = full x r (model_runner_kv_cache_mixin.py "
                "set_num_tokens_hybrid_swa, v0.5.7-v0.5.8 tags)",
            [GS_SGLANG_SWA_POOL_PROFILED] =
                "SGLang's hybrid SWA memory: the budget's tokens of F nf + S ns bytes (F, S a full "
                "and a window layer's bytes a token, nf, ns their layers), then full = tokens x "
                "(F nf + S ns) / (F nf + r S ns) and window = full x r "
                "(model_runner_kv_cache_mixin.py set_num_tokens_hybrid_swa, v0.5.9-v0.5.10 tags)",
            [GS_SGLANG_SWA_POOL_SPLIT] =
                "SGLang's hybrid SWA memory: full = budget / (F nf + r S ns) tokens (F, S a full "
                "and a window layer's bytes a token, nf, ns their layers, r "
                "--swa-full-tokens-ratio) and window = full x r, each in whole pages "
                "(pool_configurator.py HybridSWAPoolConfigurator, v0.5.11 on); max_tokens is the "
                "full pool's, as max_total_num_tokens; a request holds its context in the full "
                "pool and at most the window, the eviction interval and two pages in this one",
        };
        n->assume_value(
            n->ctx, "window_pool_tokens", r->window_pool_tokens,
            r->window_chunk_cap
                ? "SGLang's hybrid SWA memory with --max-running-requests given and "
                  "the radix cache off (--disable-radix-cache, or a decode worker): "
                  "the window pool holds R x (window + 128 x draft tokens + a page + "
                  "the decode step's allocation) tokens, R the requests a worker "
                  "runs, + 2 x chunked_prefill_size + a page (a decode worker: + "
                  "(window + a page) x its extra slots, 2 R up to R = 32), and the "
                  "full pool the rest of the budget "
                  "(pool_configurator.py SWAChunkCapPoolConfigurator, v0.5.14 on)"
                : rules[r->sglang_release->swa_pool],
            "SGLang configs/model_config.py is_hybrid_swa_model; server_args.py "
            "swa_full_tokens_ratio (0.8 unless given: inference.swa_full_tokens_ratio); "
            "managers/schedule_batch.py maybe_evict_swa");
    }
    if (r->state_pool_bytes && n->assume_value) {
        const struct state_rule_text *t = state_rule_text(r->sglang_release->state_rule);
        n->assume_value(n->ctx, "state_slots", r->state_slots, t->detail, t->source);
        n->assume_value(n->ctx, "state_slots_per_request", r->state_request_slots,
                        "SGLang: the state slots a running request takes, which cap the requests "
                        "at once at state_slots over it - 1 without the radix cache (prefix "
                        "caching off; Qwen3-Next before 0.5.4, Falcon-H1 and Nemotron-H before "
                        "0.5.7, Ling 2.5 before 0.5.13, Kimi-Linear before 0.5.14; under "
                        "speculative decoding Nemotron-H's in 0.5.8 and every class's in 0.5.9), "
                        "3 with it, 5 in 0.5.7 and from 0.5.14 for the classes "
                        "--mamba-radix-cache-strategy auto turns to extra_buffer (Qwen3.5/3.6, "
                        "Qwen3-Next, Nemotron-H, Falcon-H1, Granite-4.0-H, MiniCPM-V 4.6, Ling "
                        "2.5/3.0, Kimi-Linear from 0.5.16, Kimi K3)",
                        "sglang model_runner_kv_cache_mixin.py _calculate_mamba_ratio "
                        "(MAMBA_CACHE_SIZE_MAX_RUNNING_REQUESTS_RATIO, "
                        "MAMBA_CACHE_V2_ADDITIONAL_RATIO_OVERLAP); server_args.py "
                        "_handle_mamba_radix_cache, read at each tag v0.5.2-v0.5.14");
        n->assume_value(n->ctx, "state_pool_bytes", r->state_pool_bytes,
                        "SGLang: the state pool's bytes on each GPU, its slots and one more "
                        "(conv windows in bf16, recurrent states in fp32 unless the config's "
                        "mamba_ssm_dtype says otherwise), taken from budget.kv_bytes before the "
                        "attention cache is sized, as far as the release budgets them "
                        "(state_unbudgeted_bytes)",
                        "sglang mem_cache/memory_pool.py MambaPool (size + 1); "
                        "configs/mamba_utils.py");
    }
    if ((r->state_slot_charged_bytes || r->state_slot_held_bytes) && n->assume_value) {
        n->assume_value(n->ctx, "state_slot_charged_bytes",
                        r->state_slot_charged_bytes ? r->state_slot_charged_bytes
                                                    : r->kv.state_bytes_per_sequence,
                        "SGLang under pipeline parallelism: one sequence's states as the budget "
                        "charges them for a slot - every layer's through 0.5.16 "
                        "(mamba_cache_per_req), the largest stage's share from 0.5.17 - where "
                        "kv_cache.state_bytes_per_sequence is this stage's; each slot holds this "
                        "stage's layers from 0.5.10, every layer's before (so through 0.5.9 "
                        "state_pool_bytes is every layer's, and in 0.5.10-0.5.16 the budget takes "
                        "more than the pool holds, the rest left unused)",
                        "sglang model_runner_kv_cache_mixin.py handle_max_mamba_cache; "
                        "HybridReqToTokenPool mamba_layer_ids (v0.5.10 tag); "
                        "kv_cache_configurator.py stage_per_req (v0.5.17 tag)");
    }
    if (r->state_spec_bytes && n->assume_value) {
        n->assume_value(n->ctx, "speculative_num_draft_tokens", r->state_spec_tokens,
                        "SGLang: the tokens a speculative step verifies, whose intermediate "
                        "linear-attention states each running request keeps - "
                        "num_speculative_tokens + 1 (--speculative-num-steps at top-k 1), else "
                        "the engine's choice: 12 for ngram, 8 for Llama and Grok targets under "
                        "eagle, eagle3 and mtp and for every class outside its DeepSeek / GPT-OSS "
                        "list through 0.5.7, 4 for the others and for draft_model",
                        "sglang server_args.py auto_choose_speculative_params (arg_groups/"
                        "speculative_hook.py _auto_choose_speculative_params from 0.5.14), "
                        "_handle_eagle_family, _handle_ngram");
        n->assume_value(n->ctx, "speculative_state_bytes", r->state_spec_bytes,
                        "SGLang: the draft's intermediate linear-attention states on each GPU - "
                        "one sequence's states x speculative_num_draft_tokens for each request "
                        "MambaPool keeps them for and one more (its state slots through 0.5.6, "
                        "the requests at once, at most max_num_seqs, from 0.5.7) - taken from "
                        "budget.kv_bytes as the release budgets them (state_unbudgeted_bytes)",
                        "sglang model_runner_kv_cache_mixin.py handle_max_mamba_cache; "
                        "memory_pool.py MambaPool (intermediate_ssm_state_cache, "
                        "intermediate_conv_window_cache)");
    }
    if (r->request_table_bytes && n->assume_value)
        n->assume_value(n->ctx, "request_table_bytes", r->request_table_bytes,
                        "SGLang's request-to-token table, allocated once the pool is sized, in "
                        "the reserve outside the fraction (in overhead_bytes): an int32 for each "
                        "of context_len + 4 tokens (+ the draft tokens from 0.5.1) of each "
                        "request it can run - --max-running-requests where set (per DP-attention "
                        "rank from 0.5.10, at most half the pool's tokens from 0.5.14), else "
                        "the pool's tokens / context_len x 512 between 2,048 and 4,096 (at most "
                        "half the pool's tokens from 0.5.10), a hybrid's at most its state "
                        "slots' requests - with a padding row in 0.4.0-0.4.6 and from 0.5.12, "
                        "and a decode worker's extra rows (2 x its requests up to 32)",
                        "sglang mem_cache/memory_pool.py ReqToTokenPool; "
                        "model_runner_kv_cache_mixin.py init_memory_pool / "
                        "_resolve_max_num_reqs by tag");
    if (r->state_decode_extra && n->assume_value)
        n->assume_value(n->ctx, "decode_extra_state_slots", r->state_decode_extra,
                        "SGLang, a --disaggregation-mode decode worker of a hybrid: state slots "
                        "for requests still arriving from prefill workers, 2 x the requests it "
                        "runs up to 32 (disaggregation_decode_extra_slots from 0.5.14, from "
                        "--max-running-requests as given; pre_alloc_size before, from the "
                        "resolved count); its pool holds the requests and these (0.5.4-0.5.8), "
                        "the budget's slots and these (0.5.9), at most the budget's (0.5.10), at "
                        "least the requests and these (0.5.11 on), and what passes the budget is "
                        "in state_unbudgeted_bytes",
                        "sglang disaggregation/decode.py HybridMambaDecodeReqToTokenPool; "
                        "arg_groups/pd_disaggregation_hook.py; "
                        "model_executor/model_runner_kv_cache_mixin.py _init_pools");
    if (r->state_unbudgeted_bytes && n->assume_value) {
        n->assume_value(n->ctx, "state_unbudgeted_bytes", r->state_unbudgeted_bytes,
                        "SGLang: state memory MambaPool allocates beyond what the release's "
                        "budget took from mem_fraction_static - the pool's padding slot before "
                        "0.5.17 (and its draft states' spare row), every draft state in 0.5.2-"
                        "0.5.3, and in 0.5.7 without the radix cache, a decode worker's extra "
                        "slots (decode_extra_state_slots) - held in the reserve "
                        "outside the fraction and counted in overhead_bytes",
                        "sglang mem_cache/memory_pool.py MambaPool (size + 1 slots; "
                        "intermediate caches of speculative_num_draft_tokens); "
                        "model_runner.py / model_runner_kv_cache_mixin.py "
                        "handle_max_mamba_cache by tag");
        const uint64_t room = reserve_room(c, r);
        if (r->has_budget && r->state_unbudgeted_bytes > room && n->warn)
            n->warn(n->ctx, "state_pool_past_reserve",
                    "SGLang allocates more of the hybrid's states than its budget took from "
                    "mem_fraction_static (state_unbudgeted_bytes: the draft states of this "
                    "release), more than the reserve outside the fraction has left after the "
                    "activations, CUDA graphs and what it sets aside for the draft (2 GiB, 4 "
                    "in 0.5.10-0.5.13, STANDALONE 6): the engine may run out of memory at startup "
                    "or under load; a lower mem_fraction_static, --max-running-requests or "
                    "num_speculative_tokens, or a release from 0.5.8 leaves room");
    }
    if (c->spec_method != GS_SPEC_NONE && !c->max_num_seqs && r->sglang_release->spec_running_cap &&
        n->assume_value)
        n->assume_value(n->ctx, "max_running_requests", r->max_num_seqs,
                        "SGLang under speculative decoding runs at most 48 requests at a time "
                        "unless --max-running-requests (max_num_seqs) says otherwise",
                        "sglang arg_groups/speculative_hook.py (\"Max running requests is "
                        "reset to 48 for speculative decoding\")");
}

static const char *sglang_layout_detail(const struct gs_inference_result *r, uint8_t hw,
                                        uint8_t weight_format)
{
    (void)r;
    (void)hw;
    (void)weight_format;
    return "SGLang's Marlin weight-only fp8 linears on a GPU without fp8 tensor cores: the scales "
           "become one per output column and 128 inputs (block scales) or per output column "
           "(tensor scales) in 16 bits; counted with the weights it loads and in overhead_bytes";
}

/* What fails SGLang at startup whatever the memory (gs_engine_ops.refusal). */
static const char *sglang_refusal(const struct gs_inference_input *in,
                                  const struct gs_inference_result *out)
{
    const enum gs_hw hw = (enum gs_hw)in->gpu.hw;
    const struct gs_sglang_release *rel = out->sglang_release;
    /* models whose code asserts one pipeline rank, in every release from their first to the
     * v0.5.18 tag and main of August 2026 ("assert self.pp_group.is_first_rank and
     * self.pp_group.is_last_rank": models/qwen3_next.py, falcon_h1.py, lfm2.py, lfm2_moe.py;
     * LFM2-VL builds lfm2.py's model) */
    static const char *const single_rank_classes[] = {"Qwen3NextForCausalLM",
                                                      "FalconH1ForCausalLM",
                                                      "Lfm2ForCausalLM",
                                                      "Lfm2MoeForCausalLM",
                                                      "Lfm2VlForConditionalGeneration",
                                                      NULL};
    if (in->pipeline > 1 && gs_arch_class_in(in->arch, single_rank_classes))
        return "SGLang's code for this model asserts a single pipeline rank (\"assert "
               "self.pp_group.is_first_rank and self.pp_group.is_last_rank\" in models/"
               "qwen3_next.py, falcon_h1.py, lfm2.py and lfm2_moe.py, every release to 0.5.18): "
               "serve it with tensor parallelism alone, or with vLLM";
    /* 0.5.3-0.5.5 on SM 10.x: the hybrid GDN wrapper asserts the triton backend (0.5.3: or
     * trtllm_mha; layers/attention/attention_registry.py attn_backend_wrapper, is_blackwell():
     * compute capability 10) where an MHA model's default there is flashinfer
     * (model_runner.py model_specific_adjustment: no FA3 off Hopper); hybrid GDN is Qwen3-Next,
     * and Falcon-H1 in 0.5.3 (is_hybrid_gdn); 0.5.6 sets triton for Qwen3-Next on SM 10.x
     * (server_args.py) */
    static const char *const gdn_503[] = {"Qwen3NextForCausalLM", "FalconH1ForCausalLM", NULL};
    static const char *const gdn_504[] = {"Qwen3NextForCausalLM", NULL};
    const uint32_t v = rel != NULL ? release_version(in, rel) : 0;
    if (hw == GS_HW_BLACKWELL && (in->gpu.sm_major == 0 || in->gpu.sm_major == 10) && v >= 503 &&
        v < 506 && gs_arch_class_in(in->arch, v < 504 ? gdn_503 : gdn_504))
        return "SGLang 0.5.3-0.5.5 fail at startup with this hybrid on Blackwell data-center GPUs "
               "(SM 10.x) under the default attention backend: flashinfer is the default there, "
               "and the hybrid GDN wrapper asserts triton (0.5.3: or trtllm_mha; \"triton "
               "backend is the only "
               "supported backend on Blackwell GPUs for hybrid GDN models\", "
               "layers/attention/attention_registry.py); start it with --attention-backend "
               "triton (the figures here hold), or serve with 0.5.6 on";
    /* 0.5.10-0.5.13 raise rather than run a hybrid's draft over the radix cache with the
     * default no_buffer strategy (server_args.py _handle_mamba_radix_cache) */
    if (rel != NULL && rel->spec_radix == GS_SGLANG_SPEC_RADIX_REFUSED &&
        in->engine.spec_method != GS_SPEC_NONE && out->kv.state_bytes_per_sequence &&
        radix_by_class(in, rel))
        return "SGLang 0.5.10-0.5.13 refuse speculative decoding on a hybrid with the radix cache "
               "under the default --mamba-scheduler-strategy no_buffer (ValueError "
               "\"Speculative decoding for ... is not compatible with radix cache when using "
               "--mamba-scheduler-strategy no_buffer\", server_args.py "
               "_handle_mamba_radix_cache); turn prefix caching off (--disable-radix-cache), "
               "or serve with 0.5.9 or 0.5.14 on";
    /* the DSA (formerly NSA) backend's kernels: flashmla_sparse and fa3 (SM 9.0), DeepGEMM's
     * paged MQA indexer (SM 9.0 and 10.x); no CUDA path below (issue #35420, fix PR #35429
     * open) */
    if (gs_arch_has_sparse_mla(in->arch) && gs_hw_nvidia_before(hw, GS_HW_HOPPER))
        return "SGLang's DeepSeek sparse attention backend (flashmla_sparse, fa3 and DeepGEMM's "
               "indexer kernels) runs on Hopper and Blackwell only: DeepSeek-V3.2, GLM-5 and "
               "DeepSeek-V4 have no CUDA path below compute capability 9.0 (issue #35420); serve "
               "this model on Hopper or Blackwell GPUs";
    /* DeepSeek sparse attention's: "DeepSeek NSA (DSA) only supports bf16/bfloat16 or fp8_e4m3
     * kv_cache_dtype" (server_args.py from v0.5.5, arg_groups/overrides.py
     * _dsa_kv_cache_dtype_default from v0.5.15) */
    if (v >= 505 && dsa_on_cuda(in) && in->kv_dtype != GS_KV_AUTO && in->kv_dtype != GS_KV_BF16 &&
        in->kv_dtype != GS_KV_FP8 && in->kv_dtype != GS_KV_FP8_DS_MLA)
        return "SGLang keeps DeepSeek-V3.2's and GLM-5's cache in bfloat16 or fp8_e4m3 alone "
               "(\"DeepSeek DSA only supports bf16/bfloat16 or fp8_e4m3 kv_cache_dtype\", from "
               "0.5.5); ask for kv_cache_dtype auto, bf16 or fp8";
    /* DeepSeek-V4's cache formats: apply_deepseek_v4_defaults asserts kv_cache_dtype in
     * ["fp8_e4m3"] (v0.5.12-v0.5.13 tags), ["fp8_e4m3", "bfloat16"] from v0.5.14 */
    const enum gs_kv_dtype kv = in->kv_dtype;
    if (dsv4_pools(in, rel) && kv != GS_KV_AUTO && kv != GS_KV_FP8 && kv != GS_KV_FP8_DS_MLA &&
        (kv != GS_KV_BF16 || v < 514))
        return v < 514 ? "SGLang 0.5.12-0.5.13 keep DeepSeek-V4's cache in fp8_e4m3 alone "
                         "(apply_deepseek_v4_defaults asserts kv_cache_dtype in [\"fp8_e4m3\"]); "
                         "ask for kv_cache_dtype auto or fp8"
                       : "SGLang keeps DeepSeek-V4's cache in fp8_e4m3 or bfloat16 alone "
                         "(apply_deepseek_v4_defaults asserts kv_cache_dtype in [\"fp8_e4m3\", "
                         "\"bfloat16\"]); ask for kv_cache_dtype auto, fp8 or bf16";
    /* quantization/fp8.py Fp8MoEMethod has no Marlin path (its linears do, from PR #8990): PR
     * #9754 closed, PR #30681 open in September 2026 */
    const bool fp8 = gs_weight_format_fp8((enum gs_weight_format)in->weight_format);
    if (fp8 && gs_arch_moe_layers(in->arch) > 0 && gs_hw_nvidia_before(hw, GS_HW_ADA))
        return "SGLang runs fp8 MoE layers only through its Triton fused-MoE kernel, which fails "
               "below compute capability 8.9 with 'type fp8e4nv not supported in this "
               "architecture' (issue #12887; its Marlin fp8 MoE path, PR #30681, is not "
               "merged); serve a bf16, AWQ or GPTQ checkpoint on this GPU, or serve with vLLM, "
               "which runs fp8 MoE weight-only on Marlin";
    return NULL;
}

static enum gs_status sglang_speculative(const struct gs_engine_config *c,
                                         const struct gs_engine_notes *n, struct gs_error *err)
{
    if (c->spec_method == GS_SPEC_SUFFIX)
        return gs_error_add(err, GS_ERR_INVALID, "/inference/speculative/method",
                            "SGLang has no suffix decoding; its algorithms are mtp (NEXTN), "
                            "eagle, eagle3, draft_model (STANDALONE) and ngram");
    /* NGRAM: no reserve from the 0.5.3 rule on (the 0.4.7 rule reserves 2 GiB for it too) */
    if (c->spec_method == GS_SPEC_NGRAM &&
        gs_sglang_release_for(c->version)->rule == GS_SGLANG_RULE_RESERVE && n->assume) {
        n->assume(n->ctx, "speculative_decoding",
                  "SGLang NGRAM: proposed from the prompt and output; no draft weights or cache "
                  "(NGRAMWorker takes the target's pool)",
                  "sglang speculative/ngram_worker.py");
        return GS_OK;
    }
    if (gs_sglang_release_for(c->version)->draft_in_fraction) {
        if (n->assume)
            n->assume(n->ctx, "speculative_decoding",
                      "SGLang: the draft loads before the target's pool is sized, so its weights "
                      "(and its own embedding and head, freed only after) come out of "
                      "mem_fraction_static; every token's cell grows by the draft's layers, each "
                      "priced like one of the target's, and the draft's pool takes as many "
                      "tokens; the default fraction reserves nothing for it",
                      "sglang scheduler.py init_model_worker, kv_cache_configurator.py "
                      "_profile_available_bytes, pool_configurator.py (PR #23862, PR #28855); "
                      "eagle_worker_v2.py init_lm_head (issue #36452)");
        return GS_OK;
    }
    if (n->assume)
        n->assume(n->ctx, "speculative_decoding",
                  c->mem_fraction_static_permille
                      ? "SGLang: the draft's weights, KV pool and CUDA graphs live in the reserve "
                        "outside the given mem_fraction_static; the target's pool is unchanged"
                      : "SGLang: the draft's weights, KV pool and CUDA graphs live in the reserve "
                        "outside mem_fraction_static, whose default grows by 2 GiB from 0.4.8 "
                        "(4 in 0.5.10-0.5.13, PR #19418; STANDALONE 6, NGRAM none from 0.5.3; "
                        "0.4.7 keeps 20 GiB rather than 18 above 96 GiB and takes 5% less "
                        "below, earlier releases nothing); the target's pool is what the "
                        "fraction leaves",
                  "sglang server_args.py _handle_gpu_memory_settings; model_runner "
                  "profile_max_num_token (issue #6875)");
    return GS_OK;
}

const struct gs_engine_ops gs_engine_sglang = {
    .engine = GS_ENGINE_SGLANG,
    .name = "sglang",
    .block_size = 1,
    .budget_source =
        "SGLang server_args.py by release (inference.engine_version, default 0.5.20): the "
        "mem_fraction_static default by tensor-parallel size up to 0.4.5 (0.4.6 keeping 13 GiB "
        "above 80 GiB; 0.4.7 by TP x PP up to 80 GiB, then by capacity above 96 GiB), a "
        "reserve of 2.8/9.5/12/32 GiB by GPU class plus 0.1-0.5 GiB per parallel rank in "
        "0.4.8-0.5.2 (PR #7054), 512 MiB + 1.5 x chunked prefill + 2 x cuda_graph_max_bs + TP x PP "
        "/ 8 "
        "GiB, at least 10 GiB above 60 GiB, from 0.5.3 (PR #10975); a multimodal model's "
        "default less by its vision tower from 0.4.10 (adjust_mem_fraction_for_vlm; any "
        "fraction x 0.95 to 0.4.4, x 0.90 in 0.4.5-0.4.8); 8 MiB per prefill CUDA-graph "
        "size (1.5 GiB for MLA) from 0.5.10 where the release captures prefill graphs for the "
        "model and layout (piecewise to 0.5.14, breakable from 0.5.15 on CUDA); a "
        "disaggregated worker's own terms from 0.5.15 (--disaggregation-mode); 4096-token "
        "chunks under 35 GiB from 0.5.20 (PR #37898); "
        "model_runner.profile_max_num_token; core/src/sglang.c",
    .block_source = "SGLang server_args page_size default 1 (token-granular pool); 64 for "
                    "DeepSeek-V3.2 and GLM-5 on CUDA (\"Setting page size to 64 for DeepSeek "
                    "NSA\", server_args.py; from 0.5.15 arg_groups/overrides.py "
                    "_deepseek_family_overrides); 256 for DeepSeek-V4 (arg_groups/"
                    "deepseek_v4_hook.py apply_deepseek_v4_defaults, from 0.5.15 "
                    "_deepseek_v4_overrides)",
    .rope_source = "SGLang layers/rotary_embedding.py (fp32 on CUDA from PR #3169)",
    .slack_detail = GS_ENGINE_SLACK_FREE_MEMORY,
    .cpu_offload = true,
    .spec = GS_ENGINE_SPEC_RESERVE,
    .defaults = sglang_defaults,
    .load = sglang_load,
    .pool = sglang_pool,
    .notes = sglang_notes,
    .refusal = sglang_refusal,
    .layout_detail = sglang_layout_detail,
    .pages = sglang_pages,
    .state_pool = sglang_state_pool,
    .window_pool = sglang_window_pool,
    .tables = sglang_tables,
    /* server_args.py and its memory hooks read through main of September 2026, whose defaults
     * give 0.5.20's figures (docs/engines.md); 0.5.21 and later were not read */
    .first_unread = 521,
    .unread_detail = "this SGLang release is newer than the releases gpusizer has read (through "
                     "0.5.20); it is sized with the 0.5.20 rules",
    .speculative = sglang_speculative,
};
