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
 *     MLA model, none on ROCm (whose prefill graphs are off by default);
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

/* What speculative decoding does to a hybrid's radix cache, by release. */
enum gs_sglang_spec_radix {
    GS_SGLANG_SPEC_RADIX_KEPT,         /* nothing (to 0.5.7; from 0.5.14) */
    GS_SGLANG_SPEC_RADIX_OFF_NEMOTRON, /* 0.5.8: Nemotron-H's turned off */
    GS_SGLANG_SPEC_RADIX_OFF,          /* 0.5.9: turned off for every class */
    GS_SGLANG_SPEC_RADIX_REFUSED,      /* 0.5.10-0.5.13: a ValueError at startup under the default
                                          no_buffer strategy */
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
    bool prefill_graphs;   /* the reserve holds the piecewise prefill CUDA graphs (0.5.10 on) */
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
};

/* What the default fraction depends on beyond the release. */
struct gs_sglang_fraction_input {
    uint64_t total_bytes;    /* the driver's total: get_device_memory_capacity */
    uint64_t tensor, pipeline; /* server_args tp_size, pp_size */
    uint64_t attention_data; /* dp_size under --enable-dp-attention (0 or 1: off) */
    enum gs_spec_method spec;
    bool mla;                /* the model attends through MLA (its prefill graphs: 1.5 GiB) */
    bool rocm;               /* an AMD GPU (no prefill graphs by default) */
};

/* SGLang's default mem_fraction_static in thousandths as `release` sets it. */
uint64_t gs_sglang_default_fraction(const struct gs_sglang_release *release,
                                    const struct gs_sglang_fraction_input *in);

/* The prefill capture sizes SGLang's piecewise CUDA graphs take up to `max_tokens` (its
 * chunked prefill size): 4 to 32 by 4, to 256 by 16, to 512 by 32, to 1,024 by 64, to 4,096
 * by 256, then by 512, and max_tokens itself (58 up to 8,192). */
uint64_t gs_sglang_prefill_capture_sizes(uint64_t max_tokens);

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

struct gs_arch;
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
