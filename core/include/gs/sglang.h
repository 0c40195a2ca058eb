/*
 * sglang.h - how SGLang sizes its KV pool, release by release.
 *
 * ModelRunner.init_torch_distributed measures the free memory after the
 * CUDA context and the process groups exist (min over ranks); after the
 * weights load, profile_max_num_token takes the free memory then, minus
 * that baseline x (1 - mem_fraction_static). The pool is therefore
 * fraction x (total - context - communication buffers) - weights;
 * activations and CUDA graphs live in the reserve outside the fraction and
 * are not subtracted. Pages are one token (server_args page_size 1). A
 * hybrid's Mamba / linear-attention states take a pool of their own out of
 * it first (from 0.5.2, by release, gs_sglang_state_rule: a fixed count of
 * slots, or from 0.5.4 mamba_full_memory_ratio / (1 + ratio) of it, 0.9 by
 * default, in slots of one sequence's states, or --max-mamba-cache-size
 * slots, with each running request's draft states beside it under
 * speculative decoding; gs_engine_ops.state_pool). Under speculative
 * decoding SGLang runs at most 48 requests at once unless told otherwise.
 *
 * What changes between releases is mostly the default mem_fraction_static
 * (server_args.py), three rules so far, and what else the fraction holds:
 *   - up to 0.4.5: by tensor-parallel size alone (0.88, 0.87 from TP 2, 0.85
 *     from 4, 0.81 from 8, 0.79 from 16); 0.4.6 the same up to 80 GiB
 *     (81,920 MiB) and (capacity - 13 GiB) / capacity above; 0.4.7 by TP x PP
 *     up to 80 GiB and 0.88 above, then 0.79 above 180,000 MiB on CUDA,
 *     min(f + 48 GiB x (1 - f) / capacity, (capacity - 18 GiB) / capacity)
 *     above 96 GiB (20 GiB under speculative decoding), and x 0.95 under
 *     speculative decoding below (the v0.4.6 and v0.4.7 tags; their fractions
 *     are unrounded, gpusizer's in thousandths);
 *   - 0.4.8 to 0.5.2 (PR #7054, merged 2025-06-10, after the v0.4.7 tag): a
 *     reserve by GPU class growing with TP x PP (2.8 + n/10 GiB under
 *     35 GiB, 9.5 + n/2 under 90, 12 + n/2 under 160, else 32), 4 GiB more
 *     with data-parallel attention;
 *   - from 0.5.3 (PR #10975, merged 2025-09-27 after 0.5.2): a reserve from
 *     the defaults it sets by GPU class, chunked_prefill_size and
 *     cuda_graph_max_bs: 512 MiB + 1.5 x max(chunked prefill, 2048) +
 *     2 x cuda_graph_max_bs + TP x PP / 8 GiB (+ padding for data-parallel
 *     attention), at least 10 GiB on GPUs above 60 GiB; multimodal models
 *     get less by the size of their vision tower (PR #6881's
 *     adjust_mem_fraction_for_vlm). Still the rule at 0.5.16: NVIDIA
 *     aiconfigurator mirrors server_args.py @0.5.16 with the same tiers and
 *     terms (its mirror leaves out the prefill-graph term below);
 *   - from 0.5.10 (piecewise CUDA graphs on by default, PR #16331 in the
 *     0.5.10 release notes): the reserve also holds the prefill graphs
 *     (reserve_for_graph_mb): 8 MiB per prefill capture size, 1.5 GiB for an
 *     MLA model, where the release captures them for the model and layout
 *     (gs_sglang_prefill_graphs_off: piecewise graphs to 0.5.14, breakable
 *     ones on CUDA from 0.5.15, each with its own exclusions; none on ROCm);
 *   - from 0.5.15: a --disaggregation-mode worker's own reserve - a decode
 *     worker's activation term from its running requests, no prefill graphs
 *     on it, no decode graphs on a prefill worker (gs_sglang_pd_reserve);
 *   - from 0.5.14 (PR #23862, opened 2026-04-27, and PR #28855, 2026-06-21:
 *     0.5.14 was out by 2026-06-27, and its issue #29857 shows the draft's
 *     layers priced into the pool's cell; the v0.5.13 tag still reserves the
 *     2 / 6 GiB and scales the cell for DFLASH drafts alone, pool_configurator.py,
 *     the v0.5.14 tag for EAGLE and STANDALONE):
 *     a speculative draft is budgeted inside the fraction - the target's pool
 *     is sized after the draft has loaded, each token's cell grows by the
 *     draft's layers, and the default reserves nothing more for it
 *     (gs_sglang_draft);
 *   - from 0.5.20 (PR #37898, merged about 2026-09-04; in 0.5.20 by PR
 *     #40346): GPUs under 35 GiB default to chunked_prefill_size 4096 and
 *     cuda_graph_max_bs 48 below TP 4, 160 from it; the state pool keeps one
 *     padding slot (PR #32184, 2026-07-23).
 * Not modelled: the opt-in post-capture KV sizing
 * (SGLANG_ENABLE_POST_CAPTURE_KV_SIZING), nor the 0.85 factor of AMD's aiter
 * attention above 8,192 tokens of context (an opt-in backend).
 * A multimodal model's fraction by tag: model_runner.py multiplied any
 * fraction, default or given, by 0.95 through 0.4.4 and by 0.90 in
 * 0.4.5-0.4.8 ("Automatically reduce --mem-fraction-static ... because this
 * is a multimodal model"); 0.4.9 left it; from 0.4.10 (PR #6881)
 * adjust_mem_fraction_for_vlm scales the default alone
 * (gs_sglang_release.vlm_factor_permille, vlm_adjust).
 * The default is the latest of these.
 */
#ifndef GS_SGLANG_H
#define GS_SGLANG_H

#include "gs/runtime.h"
#include "gs/speculative.h"

#include <stdbool.h>
#include <stdint.h>

enum gs_sglang_rule {
    GS_SGLANG_RULE_TENSOR,             /* by tensor-parallel size */
    GS_SGLANG_RULE_TENSOR_KEEP_13G,    /* ... up to 80 GiB; above it 13 GiB kept (0.4.6) */
    GS_SGLANG_RULE_TENSOR_BY_CAPACITY, /* by TP x PP up to 80 GiB, 0.88 above; then 0.79 above
                                          180,000 MiB on CUDA, 18 GiB kept (20 under speculative
                                          decoding) above 96 GiB, x 0.95 under speculative
                                          decoding below (0.4.7) */
    GS_SGLANG_RULE_GPU_CLASS,          /* reserve by GPU class and TP x PP */
    GS_SGLANG_RULE_RESERVE,            /* reserve from chunked prefill and CUDA-graph defaults */
};

/* How a hybrid's Mamba / linear-attention states are pooled, by release tag (read at each tag's
 * model_runner.py / model_runner_kv_cache_mixin.py handle_max_mamba_cache; docs/engines.md). B is
 * what the fraction leaves after the weights, P one sequence's states, r
 * mamba_full_memory_ratio (0.9), D speculative_num_draft_tokens, R max_running_requests. */
enum gs_sglang_state_rule {
    GS_SGLANG_STATES_NONE,          /* no pool of their own (no hybrid registered before 0.5.2) */
    GS_SGLANG_STATES_FIXED,         /* 0.5.2-0.5.3: R or 512 slots, K P taken, no radix cache */
    GS_SGLANG_STATES_SPLIT,         /* 0.5.4-0.5.6: with the radix cache K = B r / (1 + r) / P /
                                       (1 + D), else R or 512; K P (1 + D) taken */
    GS_SGLANG_STATES_RADIX_RESERVE, /* 0.5.7: with the radix cache P R D reserved first, then the
                                       ratio; 3 + 2 slots a request */
    GS_SGLANG_STATES_RESERVE,       /* 0.5.8-0.5.12: P (R / dp) D reserved first in every case */
    GS_SGLANG_STATES_JOINT,         /* 0.5.13 on: the slots solved with the draft states */
};

/* How a --disaggregation-mode decode worker's HybridMambaDecodeReqToTokenPool (disaggregation/
 * decode.py) sizes a hybrid's state pool against the K slots the budget took, R being the
 * requests the worker runs and E its extra slots for requests still arriving from prefill
 * workers (2 R up to R = 32: model_runner's pre_alloc_size through 0.5.13, from the resolved R;
 * disaggregation_decode_extra_slots from 0.5.14, from --max-running-requests as given). */
enum gs_sglang_decode_states {
    GS_SGLANG_DECODE_STATES_K,        /* no decode pool of its own: K (before 0.5.4) */
    GS_SGLANG_DECODE_STATES_REQUESTS, /* 0.5.4-0.5.8: R + E, whatever K */
    GS_SGLANG_DECODE_STATES_K_PLUS,   /* 0.5.9: K + E ("mamba_size ... + pre_alloc_size") */
    GS_SGLANG_DECODE_STATES_MIN,      /* 0.5.10: min(K, R + E) */
    GS_SGLANG_DECODE_STATES_MAX, /* 0.5.11 on: max(K, R + E) ("raising effective_mamba_size") */
};

/* How a release sizes its request-to-token table (mem_cache/memory_pool.py ReqToTokenPool: one
 * int32 a token of context for each request it can run, allocated after the pool is sized, in
 * the reserve outside the fraction): R its requests - G being --max-running-requests where set,
 * the estimate min(max(int(tokens / context_len x 512), 2048), 4096), T the pool's tokens - and
 * its rows. */
enum gs_sglang_request_table {
    GS_SGLANG_REQUESTS_PADDED,       /* 0.4.0-0.4.6: R = G, else the estimate; R + 1 rows */
    GS_SGLANG_REQUESTS_GIVEN,        /* 0.4.7-0.5.9: the same R, R rows */
    GS_SGLANG_REQUESTS_RESOLVED,     /* 0.5.10-0.5.11 (_resolve_max_num_reqs): min(G / dp, the
                                        estimate), else min(the estimate, T / 2); R rows */
    GS_SGLANG_REQUESTS_RESOLVED_PAD, /* 0.5.12-0.5.13: the same, R + 1 rows (_alloc_size) */
    GS_SGLANG_REQUESTS_CAPPED,       /* 0.5.14 on: min(G / dp, T / 2), else min(the estimate,
                                        T / 2); R + 1 rows */
};

/* Which prefill CUDA graphs a release captures by default, and so reserves for
 * (server_args.py reserve_for_graph_mb: 8 MiB a capture size, 1.5 GiB for an MLA model). */
enum gs_sglang_prefill_graphs {
    GS_SGLANG_PREFILL_GRAPHS_NONE,      /* none in the reserve (before 0.5.10) */
    GS_SGLANG_PREFILL_GRAPHS_PIECEWISE, /* torch.compile piecewise graphs (PR #16331,
                                           0.5.10-0.5.14), off where _handle_piecewise_cuda_graph /
                                           _disable_tc_piecewise_cudagraph_if_incompatible say */
    GS_SGLANG_PREFILL_GRAPHS_BREAKABLE, /* breakable graphs on CUDA (cuda_graph_config.py
                                           default_prefill_backend, 0.5.15 on), off where
                                           _disable_breakable_cudagraph_if_incompatible says;
                                           ROCm keeps piecewise, which it turns off */
};

/* What the default fraction does with a --disaggregation-mode worker, by release. */
enum gs_sglang_pd_reserve {
    GS_SGLANG_PD_RESERVE_FLAT,   /* the same reserve whatever the role (to 0.5.14); piecewise
                                    prefill graphs off for either role (rule "PD
                                    disaggregation") */
    GS_SGLANG_PD_RESERVE_ROLES,  /* 0.5.15: a decode worker's activation term from its running
                                    requests, no prefill graphs on a decode worker, no decode
                                    graphs on a prefill worker, whose --disable-cuda-graph
                                    (pd_disaggregation_hook.py) turns its prefill graphs off
                                    too */
    GS_SGLANG_PD_RESERVE_PHASES, /* 0.5.16 on: as 0.5.15, but the prefill worker keeps its
                                    prefill graphs (_apply_cuda_graph_disaggregation_roles
                                    turns the decode phase off alone) */
};

/* An SGLang worker's --disaggregation-mode ("null", "prefill", "decode"). */
enum gs_sglang_role { GS_SGLANG_ROLE_NONE, GS_SGLANG_ROLE_PREFILL, GS_SGLANG_ROLE_DECODE };

/* Which MLA models the breakable prefill graphs leave out (0.5.15 on). */
enum gs_sglang_breakable_mla {
    GS_SGLANG_BREAKABLE_MLA_KEPT,    /* none (0.5.18 on: "trtllm_mla on the preferred breakable
                                        path, which now serves MLA") */
    GS_SGLANG_BREAKABLE_MLA_OFF,     /* every MLA model (0.5.15-0.5.16: "MLA attention") */
    GS_SGLANG_BREAKABLE_MLA_NON_DSA, /* MLA without DeepSeek sparse attention (0.5.17: "MLA
                                        attention (non-DSA)") */
};

/* What speculative decoding does to a hybrid's radix cache, by release. */
enum gs_sglang_spec_radix {
    GS_SGLANG_SPEC_RADIX_KEPT,         /* nothing (to 0.5.7; from 0.5.14) */
    GS_SGLANG_SPEC_RADIX_OFF_NEMOTRON, /* 0.5.8: Nemotron-H's turned off */
    GS_SGLANG_SPEC_RADIX_OFF,          /* 0.5.9: turned off for every class */
    GS_SGLANG_SPEC_RADIX_REFUSED,      /* 0.5.10-0.5.13: a ValueError at startup under the default
                                          no_buffer strategy */
};

/* How a release splits the KV budget of a hybrid sliding-window model (its class listed in
 * configs/model_config.py is_hybrid_swa_model / is_hybrid_model) between the full layers' pool
 * and the sliding-window layers' (SWAKVPool), --swa-full-tokens-ratio r being the window pool's
 * tokens per full-pool token; F and S one full / window layer's bytes a token, nf and ns the
 * model's full and window layers. */
enum gs_sglang_swa_pool {
    GS_SGLANG_SWA_POOL_NONE,     /* one pool, every layer holding every token (before 0.5.7) */
    GS_SGLANG_SWA_POOL_UNIFORM,  /* 0.5.7-0.5.8 set_num_tokens_hybrid_swa: the tokens of a
                                    uniform cell (F a layer) x the model's layers, then
                                    full = that / (r ns + nf) */
    GS_SGLANG_SWA_POOL_PROFILED, /* 0.5.9-0.5.10: the tokens of the cell F nf + S ns, then
                                    full = tokens (F nf + S ns) / (F nf + r S ns) */
    GS_SGLANG_SWA_POOL_SPLIT,    /* 0.5.11 on, pool_configurator.py HybridSWAPoolConfigurator:
                                    full = budget / (F nf + r S ns) */
};

/* How a release sizes DeepSeek-V4's cache (configs/model_config.py is_deepseek_v4 with hybrid
 * SWA memory on: pool_configurator.py DSV4PoolConfigurator, from the model's first release,
 * 0.5.12). A token of capacity ("full") costs, on every tensor rank, r x 584 bytes on every layer
 * (the window pool, r --swa-full-tokens-ratio, 0.1 for DeepSeek-V4), 584 / 4 and the indexer's
 * 132 / 4 on each compress-ratio-4 layer, 584 / 128 on each ratio-128 layer, and the compressor
 * states' rings (fp32: 8 slots of 2 x 2 x head_dim x 4 bytes and the indexer's 2 x 2 x
 * index_head_dim x 4 for every 128 window tokens on each ratio-4 layer; 128 slots of 2 x
 * head_dim x 4 bytes on each ratio-128 layer), the releases differing in the layers counted
 * and in where the ratio-128 states go. */
enum gs_sglang_dsv4_pool {
    GS_SGLANG_DSV4_POOL_NONE,     /* before 0.5.12: the class is not served */
    GS_SGLANG_DSV4_POOL_WHOLE,    /* 0.5.12: the config's whole compress_ratios list (the
                                     decoder layers and the MTP layer's entry), the ratio-128
                                     states priced per window-pool token */
    GS_SGLANG_DSV4_POOL_STAGE,    /* 0.5.13-0.5.14: the pipeline stage's slice of the list
                                     (compress_ratios[start_layer:end_layer]) */
    GS_SGLANG_DSV4_POOL_REQUESTS, /* 0.5.15 on: ... and the ratio-128 states request-scoped, a
                                     ring of 128 rows for each of --max-running-requests + 1
                                     slots (+ a decode worker's extra slots) taken from the
                                     budget before the tokens (_get_c128_state_fixed_bytes) */
};

struct gs_sglang_release {
    uint32_t from;         /* first release, major * 10000 + minor * 100 + patch */
    const char *name;      /* "0.5.3" */
    enum gs_sglang_rule rule;
    /* bytes per value of the rotary cos/sin tables it loads with the weights: 0 = the model
     * dtype (vLLM's get_rope, which SGLang used first); 4 from sgl_kernel's rope (PR #3169,
     * merged 2025-01-28: "cache needs to be in FP32 for numerical stability" on CUDA), first
     * in the v0.4.3 tag */
    uint8_t rope_element_bytes;
    const char *source;
    enum gs_sglang_prefill_graphs prefill_graphs; /* the prefill CUDA graphs in the reserve */
    bool piecewise_off_spec; /* speculative decoding turns the piecewise graphs off (0.5.10:
                                _handle_piecewise_cuda_graph rule 2, gone at the v0.5.11 tag) */
    bool piecewise_off_dsa;  /* ... and a DeepSeek sparse-attention model (is_deepseek_nsa in
                                is_piecewise_cuda_graph_disabled_model, 0.5.10-0.5.12) */
    bool graph_phases;       /* --cuda-graph-config by phase (0.5.14 on): --disable-cuda-graph
                                turns both phases off, so no prefill graphs are reserved */
    enum gs_sglang_pd_reserve pd_reserve;       /* a disaggregated worker's reserve */
    enum gs_sglang_breakable_mla breakable_mla; /* MLA models without breakable graphs */
    bool breakable_off_dp;         /* DP attention turns the breakable graphs off (0.5.15-0.5.16) */
    bool breakable_off_nemotron_h; /* ... and Nemotron-H (0.5.17: "hybrid Mamba2 prefill") */
    bool vlm_adjust_prefill_only;  /* a decode worker's default keeps no multimodal headroom
                                      (0.5.17 on: "PD decode engines do not need this headroom") */
    bool deepep_reserve;    /* --moe-a2a-backend deepep: 2 GiB after the floor while the decode
                               graphs are on, not on a prefill worker (reserve_for_deepep_a2a_mb,
                               0.5.15 on: "DeepEP all-to-all buffers captured in the decode
                               graph") */
    bool breakable_off_a2a; /* ... and no breakable prefill graphs with an all-to-all backend
                               (0.5.15-0.5.16: "MoE A2A backend") */
    bool deepep_breakable;  /* ... breakable prefill graphs with DeepEP: their sizes rounded up
                               to multiples of 8 up to 2,048 tokens (_apply_deepep_adjustments,
                               "Non-multiple-of-8 prefill buckets can hang DeepEP") and 1 GiB
                               more ("Prefill-BCG DeepEP delta"), 0.5.17 on */
    bool small_tier_4096;  /* under 35 GiB: chunked prefill 4096, graphs to 48 / 160 (0.5.20 on) */
    uint16_t vlm_factor_permille; /* a multimodal model's fraction, default or given, x this
                                     (model_runner.py: 950 through 0.4.4, 900 in 0.4.5-0.4.8);
                                     0: none */
    bool vlm_adjust;              /* ... the default alone scaled by its vision tower's size
                                     (adjust_mem_fraction_for_vlm, PR #6881, first in the v0.4.10 tag) */
    bool small_tier_bs16;  /* 20-35 GiB below TP 4: cuda_graph_max_bs 16, where PR #12124
                              (2025-10-25, first in the v0.5.5 tag) made it 24 */
    bool fp8_marlin;       /* fp8 linears run on Marlin's weight-only kernel below compute
                              capability 8.9, with its 16-bit scales (PR #8990, 0.5.1 on) */
    bool draft_in_fraction; /* a speculative draft's weights and KV pool come out of
                               mem_fraction_static, and the default reserves nothing for it
                               (PR #23862, PR #28855; gs_sglang_draft) */
    enum gs_sglang_state_rule state_rule; /* hybrids: how the Mamba / linear-attention states
                                             are pooled and budgeted (gs_sglang_state_rule) */
    bool state_fallback_512; /* ... without the radix cache and without --max-running-requests,
                                512 slots (through 0.5.8); from 0.5.9 the ratio of the pool */
    enum gs_sglang_spec_radix spec_radix; /* what speculative decoding does to a hybrid's radix
                                             cache */
    enum gs_sglang_request_table request_table; /* the request-to-token table's rows */
    bool request_width_draft; /* its rows hold context_len + 4 + the draft tokens (0.5.1 on:
                                 extra_max_context_len), not context_len + 4 */
    bool decode_extra;        /* a decode worker keeps 2 R more rows (and state slots) up to
                                 R = 32 for requests still arriving (pre_alloc_size, 0.4.9 on) */
    enum gs_sglang_decode_states decode_states; /* a decode worker's state pool */
    bool decode_extra_given; /* its extra slots from --max-running-requests as given
                                (pd_disaggregation_hook.py, 0.5.14 on), not the resolved count */
    bool state_extra_buffer; /* --mamba-radix-cache-strategy auto picks extra_buffer (two more
                                slots a request) for the classes that support it, with the
                                overlap scheduler on (0.5.14 on: _handle_mamba_radix_cache);
                                before, auto meant no_buffer */
    bool state_pad_slot;     /* the pool's padding slot is in the budget solve (PR #32184,
                                2026-07-23, first in the v0.5.17 tag); MambaPool allocates it in
                                every release, so before it is memory past the budget */
    bool state_stage_pool;   /* under pipeline parallelism MambaPool holds the stage's layers'
                                states (HybridReqToTokenPool mamba_layer_ids, first in the
                                v0.5.10 tag); before, every layer's on every rank */
    bool state_stage_budget; /* ... and the budget charges the largest stage's share (v0.5.17
                                tag: stage_per_req, "Charge the largest per-stage share");
                                before, every layer's (mamba_cache_per_req) */
    bool draft_reserve_4g;   /* the default fraction reserves 4 GiB for an EAGLE / EAGLE-3 /
                                NEXTN draft, where 0.5.3-0.5.9 reserved 2 (PR #19418, merged
                                2026-02-26, first in the v0.5.10 tag: "eagle draft models and
                                cuda graphs" reserved_mem += 4 * 1024), until 0.5.14 budgets the
                                draft inside the fraction */
    bool state_dtype_config; /* the recurrent states take the config's mamba_ssm_dtype where
                                --mamba-ssm-dtype is not given (configs/mamba_utils.py
                                mamba2_state_dtype(config), v0.5.9 tag); before, the flag's
                                default, float32, whatever the config says */
    bool spec_wide_default;  /* _auto_choose_speculative_params gives "all other models" (5, 4,
                                8), eight draft tokens, through 0.5.7; (3, 1, 4) from 0.5.8 */
    bool spec_running_cap;  /* speculative decoding runs at most 48 requests where the request
                               names no --max-running-requests (PR #4908, first in the v0.4.5
                               tag, for EAGLE, EAGLE-3 and NEXTN; NGRAM and STANDALONE set it
                               from their first releases) */
    enum gs_sglang_swa_pool swa_pool; /* a hybrid sliding-window model's two pools */
    enum gs_sglang_dsv4_pool dsv4_pool; /* DeepSeek-V4's pools */
    bool swa_interval_128; /* a decoding request frees the window pool's tokens that slid out
                              every SGLANG_SWA_EVICTION_INTERVAL (128) steps (0.5.14 on:
                              ScheduleBatch.maybe_evict_swa); before, every window's worth
                              (eviction_interval = sliding_window_size x
                              SGLANG_SWA_EVICTION_INTERVAL_MULTIPLIER, 1.0) */
    bool swa_chunk_cap;    /* with --max-running-requests given and the radix cache off, the
                              window pool is sized from the requests and the rest goes to the
                              full pool (pool_configurator.py SWAChunkCapPoolConfigurator, 0.5.14
                              on) */
};

/* What the default fraction depends on beyond the release. The server arguments it reads
 * from 0.5.3 (the reserve rule) are 0 where the request leaves them to SGLang. */
struct gs_sglang_fraction_input {
    uint64_t total_bytes;    /* the driver's total: get_device_memory_capacity */
    uint64_t tensor, pipeline; /* server_args tp_size, pp_size */
    uint64_t attention_data; /* dp_size under --enable-dp-attention (0 or 1: off) */
    enum gs_spec_method spec;
    bool mla;                /* the model attends through MLA (its prefill graphs: 1.5 GiB) */
    bool rocm;               /* an AMD GPU (no prefill graphs by default) */
    int64_t chunked_prefill_size;  /* --chunked-prefill-size; -1: chunked prefill off (the
                                      activation term then takes max_prefill_tokens, 16,384) */
    uint64_t cuda_graph_max_bs;    /* --cuda-graph-max-bs */
    uint64_t max_running_requests; /* --max-running-requests as given (the hooks that set it
                                      under speculative decoding run after the fraction) */
    uint64_t draft_tokens;         /* --speculative-num-draft-tokens as given */
    enum gs_sglang_role role;      /* --disaggregation-mode */
    bool disable_cuda_graph;       /* --disable-cuda-graph */
    bool prefill_graphs_off;       /* the release captures no prefill graphs for this model and
                                      layout (gs_sglang_prefill_graphs_off) */
    bool deepep;                   /* --moe-a2a-backend deepep */
};

/* The terms of the reserve the 0.5.3 rule sets aside (MiB, as server_args.py sums them), and
 * the arguments it resolved. */
struct gs_sglang_reserve {
    int64_t chunked_prefill_size;   /* given, else the GPU class's */
    uint64_t cuda_graph_max_bs;     /* given, else the GPU class's */
    uint64_t activation_tokens;     /* max(chunked prefill, 2048), max_prefill_tokens without
                                       chunking, a decode worker's running requests x draft tokens
                                       from 0.5.15 */
    uint64_t prefill_capture_sizes; /* the prefill graphs' sizes (0: none reserved) */
    double activation_mib, decode_graph_mib, parallel_mib, attention_data_mib, prefill_graph_mib;
    double deepep_mib; /* DeepEP's: the prefill graphs' 1 GiB delta and the 2 GiB after the floor */
    double floor_mib;  /* what the 10 GiB floor adds above 60 GiB */
    double draft_mib; /* a draft's reserve before 0.5.14 */
    double total_mib;
};

/* SGLang's default mem_fraction_static in thousandths as `release` sets it. */
uint64_t gs_sglang_default_fraction(const struct gs_sglang_release *release,
                                    const struct gs_sglang_fraction_input *in);

/* The same, with the reserve's terms in *reserve (zeroed where the release's rule is not the
 * reserve rule of 0.5.3 on; reserve may be NULL). */
uint64_t gs_sglang_default_fraction_reserve(const struct gs_sglang_release *release,
                                            const struct gs_sglang_fraction_input *in,
                                            struct gs_sglang_reserve *reserve);

/* The prefill capture sizes SGLang's CUDA graphs take up to `max_tokens` (its chunked prefill
 * size): 4 to 32 by 4, to 256 by 16, to 512 by 32, to 1,024 by 64, to 4,096 by 256, then by
 * 512, those not above max_tokens (server_args.py _generate_piecewise_cuda_graph_tokens,
 * _generate_prefill_cuda_graph_batch_sizes: 58 up to 8,192, none when chunking is off). */
uint64_t gs_sglang_prefill_capture_sizes(uint64_t max_tokens);

/* ... and with DeepEP from 0.5.17, each rounded up to a multiple of 8, duplicates dropped, up to
 * 2,048 tokens whatever the chunk (_apply_deepep_adjustments runs before the chunk is read into
 * the prefill graphs' max_bs): 38 sizes */
uint64_t gs_sglang_prefill_capture_sizes_deepep(void);

struct gs_arch;

/* What decides whether a release captures prefill CUDA graphs for a model and layout. */
struct gs_sglang_graph_case {
    const struct gs_arch *arch; /* its class (architectures[0]), MLA, vision tower */
    uint32_t version;           /* the release asked for (0: the row's own) */
    enum gs_spec_method spec;
    uint64_t pipeline;       /* pp_size */
    uint64_t attention_data; /* dp_size under --enable-dp-attention (0 or 1: off) */
    enum gs_sglang_role role;
    bool rocm;
    bool cpu_offload; /* --cpu-offload-gb above 0 */
    bool deepep;      /* --moe-a2a-backend deepep */
    bool disable_cuda_graph;
};

/* Why `release` captures no prefill CUDA graphs for `c`, so reserves none (NULL: it does, or
 * the release has none): the rules of _handle_piecewise_cuda_graph (0.5.10-0.5.13),
 * _disable_tc_piecewise_cudagraph_if_incompatible (0.5.14, and from 0.5.16 for the
 * multimodal classes validated on piecewise graphs alone) and
 * _disable_breakable_cudagraph_if_incompatible (0.5.15 on) that a request can show: the model
 * class, MLA, a vision tower, speculative decoding, pipeline parallelism, DP attention, CPU
 * offload, DeepEP, the disaggregation role, --disable-cuda-graph, ROCm. */
const char *gs_sglang_prefill_graphs_off(const struct gs_sglang_release *release,
                                         const struct gs_sglang_graph_case *c);

/* The rules of SGLang release `version` (0: the latest modelled). Releases
 * before the first row get its rules (gs_sglang_modeled says so). */
const struct gs_sglang_release *gs_sglang_release_for(uint32_t version);
bool gs_sglang_modeled(uint32_t version);

/* gs_sglang_default_fraction for a model without MLA on an NVIDIA GPU of `total_bytes`
 * with server_args tp_size `tensor`, pp_size `pipeline` and, under
 * --enable-dp-attention, dp_size `attention_data` (0 or 1: off). */
uint64_t gs_sglang_default_fraction_permille(const struct gs_sglang_release *release,
                                             uint64_t total_bytes, uint64_t tensor,
                                             uint64_t pipeline, uint64_t attention_data);

/* The same with speculative decoding (--speculative-algorithm), whose draft
 * weights, KV pool and CUDA graphs live in the reserve: 2 GiB more for
 * EAGLE/EAGLE3/NEXTN (method mtp, eagle, eagle3; 4 GiB in 0.5.10-0.5.13,
 * gs_sglang_release.draft_reserve_4g) and 6 GiB for STANDALONE
 * (draft_model); NGRAM 2 GiB in the 0.4.8-0.5.2 rule and none from 0.5.3
 * (after the 10 GiB floor there). 0.4.7 keeps 20 GiB rather than 18 above
 * 96 GiB and takes 5% off below (any algorithm); the rules up to 0.4.6 (by
 * tensor size) have no such term. */
uint64_t gs_sglang_default_fraction_spec_permille(const struct gs_sglang_release *release,
                                                  uint64_t total_bytes, uint64_t tensor,
                                                  uint64_t pipeline, uint64_t attention_data,
                                                  enum gs_spec_method spec);

/* SGLang's default for a multimodal model (adjust_mem_fraction_for_vlm, from
 * 0.4.10): permille x 0.95 x clamp(1 - 0.1 x (L x H^2 / (24 x
 * 1024^2) - 1), 0.8, 1.05), L and H its vision_config's num_hidden_layers and
 * hidden_size - a vision tower the size of ViT-L/14 costs 5% of the fraction,
 * twice that size 15%. Rounded to thousandths (SGLang keeps the product). */
uint64_t gs_sglang_vlm_fraction_permille(uint64_t permille, uint64_t vision_layers,
                                         uint64_t vision_hidden);

/* What SGLang's draft worker adds on one GPU in the releases that budget it inside
 * mem_fraction_static (gs_sglang_release.draft_in_fraction). The scheduler loads the target,
 * then the draft, then sizes the target's pool from the free memory
 * (scheduler.py init_model_worker; kv_cache_configurator.py _profile_available_bytes: "Whatever
 * is already resident (model weights, etc.) is thus charged against it"), pricing every token's
 * cell as the target's x (1 + draft layers / the target's attention layers) - the draft's
 * layers each like one of the target's (pool_configurator.py: "Assumes draft and target share
 * the same per-layer KV size") - and the draft's pool takes the same number of tokens. The
 * draft's own embedding and head (EAGLE, NEXTN; EAGLE-3's embedding, and its head where it has
 * no draft vocabulary) are built in the model dtype with the draft, so they are resident when
 * the pool is sized, and are freed only after, when the draft takes the target's
 * (eagle_worker_v2.py init_lm_head: set_embed_and_head, set_embed; sglang issue #36452, PRs
 * #32468 and #35996 open in September 2026). */
struct gs_sglang_draft {
    uint64_t weights_bytes;   /* kept while serving */
    uint64_t transient_bytes; /* held when the pool is sized, freed after */
    uint64_t cache_layers;    /* layers priced into every token's cell */
    const char *unsized;      /* why the draft is not sized here (NULL: it is) */
};

struct gs_draft;
struct gs_error;
struct gs_weights_request;

/* The draft of `method` for `target` (`draft` the one the request names, or NULL), the
 * target's weights as `request` loads them: NEXTN (method mtp) the target's MTP layers without
 * embedding and head, which it builds and frees; EAGLE (eagle) the head's layers and fc, its
 * embedding and head built and freed; EAGLE-3 (eagle3) its layers, fc, hidden_norm, own head
 * over draft_vocab_size and the hot-token map (hot_token_id, int64), its embedding built and
 * freed (and a vocabulary-sized head, with no draft vocabulary); STANDALONE (draft_model) the
 * whole draft, sharing nothing; NGRAM nothing. out->unsized says why where gpusizer cannot
 * size it (no draft named, no MTP layers described, a Gemma 4 assistant). */
enum gs_status gs_sglang_draft(const struct gs_arch *target, const struct gs_draft *draft,
                               enum gs_spec_method method, const struct gs_weights_request *request,
                               struct gs_sglang_draft *out, struct gs_error *err);

/* What is gone from the device before SGLang's baseline: the CUDA context
 * and the communication buffers of a `tensor`-rank group over `link`. */
uint64_t gs_sglang_preload_bytes(enum gs_link link, uint64_t tensor, bool cross_node);

#endif
