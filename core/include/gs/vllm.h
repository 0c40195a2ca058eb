/*
 * vllm.h - how vLLM sizes its KV cache, release by release.
 *
 * One row per range of releases (gs_vllm_release) says which engine runs
 * (V0 or V1), how non-torch memory is counted, how the profile run picks its
 * tokens and sequences, whether MLA cache entries are padded, whether the
 * fused-MoE kernel shares its intermediate buffers, the batch defaults,
 * whether CUDA-graph memory is subtracted, how the profile run sizes MLA's
 * chunked-prefill context workspace and whether an MTP draft keeps its own
 * head. The rules behind each field are
 * quoted from vLLM's code, with their pull requests, in
 * docs/vllm-kv-budget-research.md; a new release is a new row.
 */
#ifndef GS_VLLM_H
#define GS_VLLM_H

#include "gs/arch.h"
#include "gs/engine.h"
#include "gs/runtime.h"
#include "gs/speculative.h"

#include <stdbool.h>
#include <stdint.h>

/* Releases are major * 10000 + minor * 100 + patch (0.6.4 = 604). */
#define GS_VLLM_OLDEST_MODELED 604   /* 0.6.4: before it, see gs_vllm_release */
#define GS_VLLM_LATEST_MODELED 2000  /* 0.20.x: 0.21 subtracts a CUDA-graph estimate */
#define GS_VLLM_FIRST_UNREAD 3100    /* 0.31.0: the first release whose changes were not read
                                        (docs/vllm-kv-budget-research.md section 18) */
#define GS_VLLM_MTP_SHARED_HEAD 1700 /* PR #34385 (opened 2026-02-11): the first release taken to
                                        carry it; estimated from the merge date */
#define GS_VLLM_GEMMA3N_MM_BUFFERS                                                                 \
    1001 /* PR #20495 (merged 2025-08-09, between 0.10.0 and 0.10.1): gemma3n_mm.py's              \
            Gemma3nForConditionalGeneration, whose __init__ keeps per_layer_embeddings; before it  \
            the class was gemma3n.py's text model, without them */
#define GS_VLLM_DSV4_EAGER_SCRATCH                                                                 \
    2700 /* PR #49236 (merged 2026-07-31): DeepseekV4EagerScratchPool; in 0.27.0 by third-party    \
            backport notes and a 0.27.1 source audit, not in 0.26.0 */
#define GS_VLLM_DSV4_EAGER_SCRATCH_REVERTED                                                        \
    2900 /* PR #52836 ("Revert DSv4 eager workspace reuse", merged 2026-08-19), after 0.28.0's     \
            branch (a project patching the 0.28.0 wheel, tag commit 2cf0a69, must find the pool    \
            to remove it); 0.29.0 was cut from later main */
#define GS_VLLM_DSV4_MTP_BUFFER_ON_DEMAND                                                          \
    2700 /* PR #50312 ("Fix redundant memory allocation and copy for dsv4 pp buffer, 448 MiB GPU   \
            memory saved"): DeepSeek-V4's _mtp_hidden_buffer only for a speculative method that    \
            reads it; placed in 0.27.0 by third-party backport notes (not in 0.26.0), the merge    \
            commit not read */

/* What the non-torch term of a release counts. */
enum gs_vllm_non_torch {
    GS_VLLM_NT_DEVICE, /* device-wide used memory minus torch's: the CUDA context too
                          (V0 up to 0.6.4, V1 0.8.0-0.9.1) */
    GS_VLLM_NT_GROWTH  /* growth since a baseline taken after the CUDA context: kernel modules
                          loaded while profiling and communication buffers (V0 from 0.6.5,
                          V1 from 0.9.2) */
};

/* Whether the profile run of an MLA model allocates the chunked-prefill
 * context workspace's up-projection (gs_vllm_mla_workspace_tokens). */
enum gs_vllm_mla_workspace {
    GS_VLLM_MLA_WS_NONE, /* no such allocation (V0 before 0.8) */
    GS_VLLM_MLA_WS_V0,   /* V0 0.8.x with chunked prefill or prefix caching: rows capped at
                            128k, the latent workspace itself kept */
    GS_VLLM_MLA_WS_V1    /* V1: every profile run, rows capped at 64k */
};

/* Which models a release runs on Model Runner V2 by default (vllm/config/vllm.py
 * use_v2_model_runner, _is_default_v2_model_runner_model). */
enum gs_vllm_runner_v2 {
    GS_VLLM_V2_NONE,
    GS_VLLM_V2_LISTED_PLAIN, /* a listed architecture, neither MoE nor quantized (0.22, 0.23) */
    GS_VLLM_V2_LISTED,       /* a listed architecture, MoE and quantized ones too (0.24) */
    GS_VLLM_V2_DENSE,        /* a listed architecture (a hybrid one only so), else every
                                generating model neither MoE nor hybrid nor attention-free
                                (PR #44443, 0.25) */
    GS_VLLM_V2_ALL           /* every generating model but the release's ROCm exclusions on an
                                AMD GPU (PR #53183, 0.29) */
};

/* What the profile run keeps of its multimodal dummy's encoder outputs (gs_vllm_mm_profile). */
enum gs_vllm_mm_expand {
    GS_VLLM_MM_EXPAND_NONE,   /* the outputs themselves */
    GS_VLLM_MM_EXPAND_BUDGET, /* each copied into zeros of encoder_budget rows (0.11.0) */
    GS_VLLM_MM_EXPAND_ITEM    /* each copied into zeros of the item's token count */
};

struct gs_vllm_release {
    uint32_t from;              /* first release of the range */
    const char *name;           /* the range, for assumptions */
    bool v1;                    /* the V1 engine (the default from 0.8.0) */
    uint8_t non_torch;          /* enum gs_vllm_non_torch */
    uint64_t v0_chunked_tokens; /* V0's chunked-prefill token budget: 512, later 2048 */
    bool mla_pad;               /* V0 pads each MLA entry to a multiple of 256 bytes */
    bool moe_shared_cache;      /* fused_moe shares intermediate caches 1 and 3 */
    bool big_gpu_seqs_1024;     /* V1 defaults max_num_seqs to 1024 on GPUs of 70 GiB or more */
    bool graphs_subtracted;     /* a CUDA-graph estimate is subtracted from the budget */
    uint8_t mla_workspace;      /* enum gs_vllm_mla_workspace */
    bool mtp_own_head;          /* speculative mtp keeps the MTP layer's own head (before PR #34385) */
    const char *const *mtp_own_head_classes; /* model classes whose mtp drafter keeps each MTP
                                                layer's own head whatever mtp_own_head says
                                                (gs_vllm_mtp_own_head) */
    const char *const *router_fp32_classes;  /* model classes whose MoE router this release
                                                builds in fp32 beside the ones every release does
                                                (Nemotron-H's NemotronHMoE gate, 0.11.1-0.16) */
    const char *const *gate_linear_classes;  /* ... in fp32 except on CUDA SM 9.0 and 10.x, where
                                                GateLinear(force_fp32_compute) keeps the model
                                                dtype and computes fp32 logits in cuBLAS
                                                (fused_moe/router/gate_linear.py, PR #35121) */
    bool mtp_assistants;        /* speculative mtp takes a separate drafter that reads the target's
                                   KV cache, Gemma 4's assistants (models/gemma4_mtp.py, PR #41745);
                                   0.20 took them for draft_model and failed (issue #42005) */
    /* The profile run's dummy sampler, after the forward has returned (its tensors never meet
     * the layers' transients): bytes per (request x vocabulary) element alive at its peak -
     * V0's sort-based top-k/top-p 40, V1 with FlashInfer or the in-place Triton top-k/top-p 14,
     * V1's sort path 38 (docs/vllm-kv-budget-research.md section 12) */
    uint8_t sampler_logit_bytes;
    bool sampler_adds;          /* the sampler's bytes are added to the layer peak instead: the
                                   rule gpusizer keeps for engines other than vLLM */
    bool sampler_random_hidden; /* V1's _dummy_sampler_run replaces the requests' hidden rows by
                                   torch.rand_like of them, one more [requests, hidden] tensor */
    uint8_t v2_sampler_logit_bytes; /* the same per element on Model Runner V2, whose dummy
                                       requests are greedy with top-k and top-p off: the logits
                                       and an fp32 copy (6), the logits alone after PR #47711 (2) */
    bool gate_up_held;          /* eager model files hold the gated MLP's gate_up output through
                                   down_proj (LlamaMLP before PR #10339) */
    bool mxfp4_triton;          /* MXFP4 MoE on Hopper runs triton_kernels' matmul_ogs (bundled as
                                   a dependency by PR #28788), else Marlin */
    bool sampler_triton_scratch; /* the Triton top-k/top-p kernel caches a scratch buffer of
                                    min(SMs, requests) x vocabulary fp32 values (PR #33538) */
    bool moe_chunked_gather;    /* fused_experts_impl as read in 0.10: chunks of 32,768 tokens,
                                   w8a8 fp8 activations quantized per chunk, and under data
                                   parallelism every rank's tokens gathered into each MoE layer
                                   (naive dispatch) - gs_vllm_moe_activation_peak */
    bool moe_workspace_kept;    /* fused-MoE workspaces come from the global WorkspaceManager, grown
                                   to the profile run's tokens and never freed, so they are still
                                   allocated while the dummy sampler runs (v1/worker/workspace.py) */
    bool mamba_seqs_bounded;    /* with full CUDA graphs, a model with Mamba layers fails at startup
                                   when max_num_seqs exceeds the pool's blocks, one a decode
                                   sequence (config/compilation.py, PR #38270; 0.17-0.18 capped
                                   the capture sizes instead, PR #34571) */
    bool hybrid_prefix_caching; /* prefix caching is on by default for hybrid models (PR #50991,
                                   arg_utils._set_default_chunked_prefill_and_prefix_caching_args),
                                   their state in align mode whatever the class (the PR: "change
                                   the default mode to align") */
    bool hybrid_pages;          /* attention + recurrent models page through the hybrid allocator:
                                   one block size and page for both (V1's hybrid support, PR #20016) */
    bool prints_concurrency;    /* "GPU KV cache size" is max concurrency x max_model_len (0.21) */
    bool mm_pixels_fp32;        /* the profile's dummy pixels reach the GPU in float32 (the HF
                                   processor's dtype); later the processing context casts them */
    uint8_t mm_expand;          /* enum gs_vllm_mm_expand */
    bool mm_video_text_tokens;  /* Qwen3-VL's largest video is budgeted at 12.5 tokens per
                                   embedding (qwen3_vl.py get_max_video_tokens, 0.11) */
    bool vit_rotary_fp32;       /* Qwen's vision attention copies q, k and v contiguous,
                                   concatenates q and k and rotates them through fp32 copies
                                   (apply_rotary_pos_emb_vision as read at 0.11.0); later the
                                   Triton kernel rotates the bf16 pair */
    bool mm_video_by_model_len; /* the profile's dummy video is sized by max_model_len, not by
                                   max_num_batched_tokens (PR #25553, 0.11) */
    uint8_t runner_v2;          /* enum gs_vllm_runner_v2: which models run Model Runner V2 by
                                   default, which reserves nothing for CUDA graphs and profiles
                                   no multimodal encoder - gs_vllm_runs_v2 */
    const char *const *runner_v2_architectures; /* the class names V2 takes (NULL-terminated)
                                                   under the listed and dense rules */
    const char *const *runner_v2_rocm_excluded; /* class names that stay on V1 on an AMD GPU
                                                   (NULL-terminated) */
    bool v2_mm_profile;         /* V2's profile_run encodes the multimodal dummy (PR #47985) */
    bool v2_graphs_subtracted;  /* V2 subtracts its own CUDA-graph estimate (PR #53306) */
    bool huge_gpu_tokens;       /* vllm serve profiles 16,384 tokens on GPUs of 160 GiB or more
                                   (PR #51726) */
    bool bitsandbytes;          /* the bitsandbytes loader and quantization method are in the
                                   release (removed in 0.28) */
    uint64_t default_util_permille; /* gpu_memory_utilization default */
    const char *source;
};

/* Why vLLM release c->version refuses the request's mamba_ssm_dtype at its command line
 * (--mamba-ssm-cache-dtype: from 0.10.2 auto and float32, float16 from 0.13, bfloat16 from 0.22),
 * or NULL where it takes it. */
const char *gs_vllm_ssm_dtype_refusal(const struct gs_engine_config *c);

/* The startup failure of a hybrid model whose max_num_seqs is above its pool's blocks
 * (gs_vllm_release.mamba_seqs_bounded): the binding points at it. */
extern const char gs_vllm_refusal_mamba_seqs[];

/* The rules of `version` (0 = the latest modeled). Releases before 0.6.4
 * get the 0.6.4 row: their accounting (everything resident after the profile
 * run) is not predictable, and gs_vllm_modeled says so. */
const struct gs_vllm_release *gs_vllm_release_for(uint32_t version);

/* Whether vLLM's mtp drafter on this release keeps the MTP layers' own heads for `arch`: the
 * release's rule (mtp_own_head) or the model's drafter (mtp_own_head_classes). */
bool gs_vllm_mtp_own_head(const struct gs_vllm_release *release, const struct gs_arch *arch);
bool gs_vllm_modeled(uint32_t version);

/* The same for a layout: 0.8.0-0.9.1 fall back to the V0 engine for pipeline
 * parallelism (V1 had no pipeline support outside Ray then; the
 * deepseek-v2.5 log in tests/fixtures/calibration runs 0.8.3 as V0). */
const struct gs_vllm_release *gs_vllm_release_for_layout(uint32_t version, uint64_t pipeline);

/* What the profile run processes: `tokens` in `seqs` dummy requests. */
struct gs_vllm_profile {
    uint64_t tokens, seqs;
    bool chunked_prefill;
};

struct gs_vllm_profile_input {
    uint64_t gpu_total_bytes;
    bool gpu_is_a100;
    uint64_t max_model_len;
    bool sliding_window;        /* the model has windowed layers */
    bool mla;
    bool multimodal;
    uint64_t max_num_batched_tokens, max_num_seqs; /* 0 = the release's default */
    uint8_t chunked_prefill;    /* GS_CHUNKED_PREFILL_* */
    bool offline;               /* the Python LLM class (UsageContext.LLM_CLASS), not vllm serve */
};

/* V0 (EngineArgs.create_engine_config, SchedulerConfig): chunked prefill on
 * by default only past 32,768 tokens of context without windowed layers
 * (and from 0.7 not for MLA or multimodal models); the profile then runs
 * v0_chunked_tokens, else max(max_model_len, 2048), in 256 sequences. V1
 * (get_batch_defaults): 8,192 tokens and 1,024 (earlier 256) sequences on
 * GPUs of 70 GiB or more other than A100, 2,048 and 256 otherwise, for vllm
 * serve; the Python LLM class profiles 16,384 and 8,192 tokens; without
 * chunked prefill max(max_model_len, tokens); never more than
 * max_num_seqs x max_model_len tokens nor more sequences than tokens. */
void gs_vllm_profile(const struct gs_vllm_release *release,
                     const struct gs_vllm_profile_input *in, struct gs_vllm_profile *out);

/* Rows of MLA's chunked-prefill context workspace the profile run sizes
 * for (0 = none): min(max(8 x max_model_len, 4 x max_num_seqs x
 * block_size), cap), the cap 128k tokens in V0 0.8.x (only with chunked
 * prefill or prefix caching on: attention/backends/mla/common.py
 * MLACommonState) and 64k in V1, which also keeps at least one block per
 * sequence (MLACommonMetadataBuilder.determine_chunked_prefill_workspace_size). */
uint64_t gs_vllm_mla_workspace_tokens(const struct gs_vllm_release *release,
                                      uint64_t max_model_len, uint64_t max_num_seqs,
                                      uint64_t block_size, bool chunked_prefill,
                                      bool prefix_caching);

/* The profile run's torch peak on one GPU of a stage holding the layers
 * counted in `counts`: the largest layer kind's transients for `tokens`
 * tokens (the attention phase or the MLP phase, whichever is larger; a
 * routed layer's fused-MoE caches), plus, on the last stage, the sampler
 * over `seqs` requests (bf16 logits, their fp32 copy and probabilities:
 * 10 bytes per vocabulary entry). An MLA model with `mla_workspace_tokens`
 * rows also allocates, at the start of every MLA layer, the up-projected
 * context a workspace of that many rows would need ([rows, heads / tensor,
 * qk_nope + v] in bf16), next to the layer's inputs and latent
 * projections; in V0 the latent workspace ([rows, kv_lora + rope]) is kept
 * for the whole run, and the up-projection stays allocated (a local of
 * MLACommonImpl.forward) under the prefill's own transients, which V0 MLA
 * layers are charged with or without a workspace. */
/* The profile-like peak gpusizer charges engines other than vLLM (TGI,
 * TensorRT-LLM, generic): the latest vLLM row's layer transients with the
 * first version's sampler term (logits, an fp32 copy and probabilities at 10
 * bytes per request x vocabulary element) added on top, as their logs were
 * calibrated with. */
const struct gs_vllm_release *gs_vllm_other_engine_profile(void);

uint64_t gs_vllm_activation_peak(const struct gs_arch *arch, const struct gs_vllm_release *release,
                                 const uint64_t counts[GS_BLOCKS_MAX], uint64_t tokens,
                                 uint64_t seqs, uint64_t tensor, uint64_t mla_workspace_tokens,
                                 uint64_t gpu_sm_count, bool last_stage, bool *overflow);

/* How vLLM's fused MoE runs on one rank, beyond gs_vllm_activation_peak's defaults. */
enum gs_vllm_fp8_act {
    GS_VLLM_FP8_ACT_NONE,    /* the experts take 16-bit activations (or weight-only kernels) */
    GS_VLLM_FP8_ACT_TENSOR,  /* fp8 w8a8 with one activation scale a tensor */
    GS_VLLM_FP8_ACT_GROUP128 /* fp8 w8a8 with an fp32 scale per 128-element group (block fp8) */
};

struct gs_vllm_moe_run {
    uint64_t data;          /* data-parallel ranks whose tokens every rank's experts run (FusedMoE's
                               naive or all-gather dispatch); 0/1: this rank's own */
    uint64_t width_divisor; /* the experts' widths divided by: 1 under expert parallelism (whole
                               experts), else tensor x data; 0: the tensor degree */
    uint8_t fp8_activations; /* enum gs_vllm_fp8_act */
};

/* gs_vllm_activation_peak with the MoE layers run as `moe` says: the experts run data x
 * `tokens` tokens in chunks of VLLM_FUSED_MOE_CHUNK_SIZE (32,768) beside the gathered hidden
 * states and router logits, and w8a8 fp8 kernels hold fp8 copies of each chunk's input and
 * intermediate activations. A zeroed `moe` gives gs_vllm_activation_peak. */
uint64_t gs_vllm_moe_activation_peak(const struct gs_arch *arch,
                                     const struct gs_vllm_release *release,
                                     const uint64_t counts[GS_BLOCKS_MAX], uint64_t tokens,
                                     uint64_t seqs, uint64_t tensor,
                                     uint64_t mla_workspace_tokens, uint64_t gpu_sm_count,
                                     bool last_stage, const struct gs_vllm_moe_run *moe,
                                     bool *overflow);

/* Bytes vLLM's MXFP4 MoE kernels add to the experts' checkpoint bytes on
 * one GPU of hardware `hw` (enum gs_hw), over the MoE layers in `counts`
 * with `tensor` ranks (or `expert` ranks holding whole experts):
 *   - Triton (Hopper, release->mxfp4_triton): the expert width padded to a
 *     multiple of 64 (values and scales); the scales swizzled for Hopper
 *     (rows padded to 256) into PrecisionConfig while the loaded scales stay
 *     registered; biases widened to fp32 (mxfp4.py
 *     Mxfp4MoEMethod.process_weights_after_loading, _swizzle_mxfp4);
 *   - Marlin (other NVIDIA GPUs before Blackwell, and Hopper before the
 *     Triton path): width padded to 128 and hidden size to 256, repacked in
 *     place with one-byte scales.
 * Blackwell's FlashInfer paths and other vendors: 0 (not modelled). */
uint64_t gs_vllm_mxfp4_layout_bytes(const struct gs_arch *arch,
                                    const struct gs_vllm_release *release, uint8_t hw,
                                    const uint64_t counts[GS_BLOCKS_MAX], uint64_t tensor,
                                    uint64_t expert, bool *overflow);

/* Buffers vLLM's DeepSeek sparse-attention models allocate when they are created - inside
 * load_model's profiler, so the logged weights include them - for `tokens`
 * (max_num_batched_tokens) scheduled tokens: topk_indices_buffer, index_topk int32 a token, on
 * every GPU (deepseek_v2.py DeepseekV2Model.__init__ when the config has index_topk -
 * DeepSeek-V3.2, GLM-5 - and DeepseekV4Model / DeepseekV41Model, as every release that serves
 * them builds it), and an mtp draft's model one more (DeepSeek-V4's drafter) or one a MTP layer
 * (the deepseek_mtp drafter of DeepSeek-V3.2 and GLM-5); DeepSeek-V4.1's candidate_block_buffer,
 * arch->candidate_blocks int32 a token on every GPU; and on
 * the last pipeline stage DeepSeek-V4's _mtp_hidden_buffer,
 * arch->mtp_hidden_width model-dtype values a token (hc_mult x hidden_size: the residual streams
 * before the final hyper-connection head, kept for an MTP draft) - always before
 * GS_VLLM_DSV4_MTP_BUFFER_ON_DEMAND, from it (and where no release is named) only when `spec`
 * reads it (SpeculativeConfig use_eagle() - mtp, eagle, eagle3 - or uses_draft_model()). */
uint64_t gs_vllm_sparse_buffer_bytes(const struct gs_arch *arch, uint32_t version,
                                     enum gs_spec_method spec, uint64_t tokens,
                                     uint64_t model_bytes, bool last_stage, bool *overflow);

/* Bytes of the rows vLLM's DeepSeek-V4.1 model stages for its Engram layers on a GPU
 * (models/deepseek_v41/common/engram.py Engram._init_staging: "Persistent storage keeps lookup
 * addresses stable across graph replays"): per Engram layer among the stage's `counts`,
 * staged_rows, bf16, `tokens` (max_num_batched_tokens) x part_n_hash_cols (the hash columns,
 * arch->engram_hash_cols, split over `tensor` ranks, rounded up) x engram_head_dim - wherever the
 * tables live (host tables are read into them). An Engram group that shards the tables over data
 * parallel ranks (its dp_size) stages every rank's tokens; gpusizer sizes the default, unsharded.
 */
uint64_t gs_vllm_engram_staging_bytes(const struct gs_arch *arch, uint64_t tokens, uint64_t tensor,
                                      const uint64_t counts[GS_BLOCKS_MAX], bool *overflow);

/* DiffusionGemma's per-request buffers vLLM's model state allocates before the pool is sized,
 * for max_num_seqs request slots: a self-conditioning embedding (canvas x hidden_size fp32) and a
 * structured-output bitmask (canvas x ceil(vocab / 32) int32) each; 0 for other models. */
uint64_t gs_vllm_diffusion_buffer_bytes(const struct gs_arch *a, uint64_t max_num_seqs, bool *ovf);

/* Bytes of the block top-k buffer MiniMax-M3's model allocates with itself on every GPU
 * (vllm/models/minimax_m3/nvidia/model.py MiniMaxM3Model.__init__, PR #45892, in M3's first
 * release 0.24.0): topk_indices_buffer, int32, max(1, sparse_num_index_heads / `tensor`) index
 * heads x max_num_batched_tokens (`tokens`, rounded up to a multiple of 4 on NVIDIA GPUs; the
 * ROCm model does not round) x sparse_topk_blocks - one per model, shared by every sparse layer
 * and by the mtp draft (llm_base_proposer.py rebinds the drafter's to the target's). 0 for a
 * model whose attention blocks pick no blocks (arch->blocks' attn.index_block). */
uint64_t gs_vllm_block_topk_buffer_bytes(const struct gs_arch *arch, uint64_t tokens,
                                         uint64_t tensor, bool rocm, bool *overflow);

/* Bytes of the eager scratch pool vLLM's DeepSeek-V4 model allocates with itself on each GPU in
 * the releases [GS_VLLM_DSV4_EAGER_SCRATCH, GS_VLLM_DSV4_EAGER_SCRATCH_REVERTED)
 * (vllm/models/deepseek_v4/eager_scratch.py DeepseekV4EagerScratchPool, built in nvidia/model.py
 * DeepseekV4Model.__init__ unless micro-batching is on): a bf16 query output of `tokens`
 * (max_num_batched_tokens) x the padded query heads a rank x head_dim, and one store the size of
 * the largest of three families that alias it - the fp4 indexer's queries (index heads x
 * (index_head_dim / 2 + index_head_dim / 32 + 4) bytes a token), the global top-k indices
 * ((index_topk + 1) int32) and the compressor's fp32 scratch (head_dim fp32). The query heads are
 * padded as the attention class does: FlashMLA's (compute capability 9.x and 10.x) to 64 or 128,
 * FlashInfer's SM120 class (12.x) to the next of 8, 16, 32, 64, 128. 0 for other models and
 * releases (`version` 0, the latest, included) and on ROCm (the NVIDIA model builds it). */
uint64_t gs_vllm_dsv4_scratch_bytes(const struct gs_arch *arch, uint32_t version, uint64_t tokens,
                                    uint64_t tensor, uint8_t sm_major, bool rocm, bool *overflow);

/* Non-torch memory on the least roomy GPU of a stage: the profile growth
 * (vllm.c), the communication buffers (runtime.h), where the release
 * counts device-wide the CUDA context, and on the last stage of a V0
 * engine what the logits gather leaves on its first tensor rank
 * (gs_runtime_gather_root_bytes). */
uint64_t gs_vllm_non_torch(const struct gs_vllm_release *release, enum gs_link link,
                           uint64_t tensor, bool cross_node, bool last_stage, bool *overflow);

/* Whether `release` runs this model on Model Runner V2 by default: its rule above, matched on
 * the config's architectures[0] where the rule lists class names, for a generating model,
 * unless a feature V2 lacks sends it to V1 - among those gpusizer sizes, speculative decoding
 * other than EAGLE, EAGLE-3 and MTP (_get_v2_model_runner_unsupported_features). The request's
 * model_runner (VLLM_USE_V2_MODEL_RUNNER) decides first, V2 from 0.21 on. */
bool gs_vllm_runs_v2(const struct gs_inference_input *in, const struct gs_vllm_release *release);

/* The multimodal dummy of V1's profile run (gpu_model_runner.py profile_run) on the worker
 * that runs the encoder: the modality with the most tokens per item (MultiModalBudget), as
 * many items as the encoder budget max(max_num_batched_tokens, tokens per item) holds, encoded
 * in one call before the text run. Its pixels and encoder outputs (expanded by the release's
 * rule, gs_vllm_mm_expand) stay referenced through the text run and the sampler, so the
 * profile's peak is the larger of the text peak plus what is kept and the tower's own forward
 * (where the model gives its patches: the pixels, their cast, the position embeddings, one
 * block's working set over every patch and the DeepStack levels, or the final concatenation).
 * A modality in `no_items` (GS_MM_*: --limit-mm-per-prompt 0) is not profiled. A video that
 * fills the context (mm_video_fills_context) takes max_model_len / its group's tokens groups, at
 * least 1 and at most 7 (Qwen2-VL's 14 frames), from 0.11; earlier releases built it from
 * max_num_batched_tokens, one group.
 * `e` is the model dtype's bytes, `t` the tensor-parallel degree (the tower's linears are
 * sharded as the decoder's; Qwen's all_gather_interleave of the full QKV on each rank under TP,
 * 0.8.5-0.11.0 until PR #28271, is not counted). */
struct gs_vllm_mm_profile {
    uint64_t added_bytes;   /* what the dummy adds to `text_peak` */
    uint64_t encoder_bytes; /* the tower's forward peak (0 where not modelled) */
    uint64_t item_tokens;   /* tokens per item as vLLM budgets them; 0 = no dummy */
    bool video;             /* the dummy is a video */
};
struct gs_vllm_mm_profile gs_vllm_mm_profile(const struct gs_arch *arch,
                                             const struct gs_vllm_release *release,
                                             uint64_t max_num_batched_tokens,
                                             uint64_t max_model_len, uint64_t t, uint64_t e,
                                             uint64_t text_peak, uint8_t no_items, bool *ovf);

/* The profiled activation peak of a worker with `release`'s profile, the sampler included
 * when `sampler` (the request's own figure when it gives one): gs_vllm_activation_peak over
 * the stage's layers, which every engine module takes (the others with
 * gs_vllm_other_engine_profile). */
uint64_t gs_vllm_engine_peak(const struct gs_inference_input *in,
                             const struct gs_engine_stage *stage,
                             const struct gs_inference_result *out,
                             const struct gs_vllm_release *release, bool sampler, bool *ovf);

#endif
