/*
 * inference.h - the KV cache and what a serving engine will actually do
 * with a GPU (vLLM v1/kv_cache_interface.py, v1/worker/gpu_worker.py
 * determine_available_memory, v1/core/kv_cache_utils.py get_num_blocks).
 *
 * KV bytes per token follow vLLM's KV-cache specs, one per layer kind of the
 * layer-by-layer description: 2 * kv_heads_per_gpu * head_dim * dtype per
 * attention layer, with KV heads replicated when tensor parallelism exceeds
 * them; MLA caches one latent (kv_lora_rank + qk_rope_head_dim) per layer,
 * replicated on every tensor rank, and DeepSeek-V3.2's indexer adds its
 * fp8 keys; per-token-head quantized caches add fp32 scales; sliding-window
 * and chunked layers hold only their window (plus the batched tokens);
 * Mamba and linear-attention layers hold a fixed conv and recurrent state
 * per sequence; encoder-decoders add a cross-attention cache over the
 * encoder tokens. The engine's budget then
 * decides how many blocks of `block_size` tokens exist, and from them the
 * token capacity, the concurrency at the requested context and the context
 * at the requested concurrency.
 */
#ifndef GS_INFERENCE_H
#define GS_INFERENCE_H

#include "gs/arch.h"
#include "gs/gpu_view.h"
#include "gs/status.h"
#include "gs/runtime.h"
#include "gs/speculative.h"

/* The engines' release rules, defined by their modules (gs/vllm.h, gs/sglang.h). */
struct gs_vllm_release;
struct gs_sglang_release;

#include <stdbool.h>
#include <stdint.h>

/* The compress ratios a DeepSeek-V4.1 layer reads a KV source's cache at, plus one: 1 and 2
 * (compress_ratios entries 0, 1 or 2 - its reader, server/readers/deepseek_v41.c, refuses
 * others as inference/model.py's Attention does). */
#define GS_KV_READ_RATIOS 3

enum gs_kv_dtype {
    GS_KV_AUTO, /* the model's dtype */
    GS_KV_BF16,
    GS_KV_FP16,
    GS_KV_FP8, /* fp8 (e4m3), per-tensor scale */
    GS_KV_FP8_E5M2,
    GS_KV_INT8_PER_TOKEN_HEAD,
    GS_KV_FP8_PER_TOKEN_HEAD,
    GS_KV_FP8_DS_MLA,   /* DeepSeek's fp8 MLA cache: 656 bytes per layer per token */
    GS_KV_INT8,         /* int8 with a per-tensor scale */
    GS_KV_NVFP4_DS_MLA, /* DeepSeek-V4.1 in vLLM on compute capability 10.x: the window's entries
                           the 528-byte MXFP8 record (512 e4m3 + 16 e8m0 scales), the compressed
                           ones 288 bytes (512 e2m1 values + 32 e4m3 scales) */
    GS_KV_COUNT
};

const char *gs_kv_dtype_name(enum gs_kv_dtype dtype);

/* The cache an "fp8" request gives this architecture (NULL: none known):
 * fp8_ds_mla for DeepSeek's sparse-attention MLA models (an indexer in the
 * layers), whose fp8 request vLLM rewrites to that format
 * (vllm/model_executor/models/config.py, DeepseekV32ForCausalLM.
 * verify_and_update_config: is_v32 = hasattr(hf_config, "index_topk")); plain
 * fp8 for every other model, MLA included. */
enum gs_kv_dtype gs_kv_fp8_for(const struct gs_arch *arch);

enum gs_engine { GS_ENGINE_VLLM, GS_ENGINE_SGLANG, GS_ENGINE_TENSORRT_LLM, GS_ENGINE_TGI,
                 GS_ENGINE_GENERIC, GS_ENGINE_COUNT };

/* Layers of one windowed kind on one GPU (vLLM SlidingWindowSpec /
 * ChunkedLocalAttentionSpec). */
struct gs_kv_window {
    uint64_t window;      /* tokens */
    bool chunked;         /* chunked local attention rather than a sliding window */
    uint64_t layers;
    uint64_t token_bytes; /* per token, all these layers */
    /* the layers of this kind that read an earlier layer's cache (kv_shared), not in `layers`,
     * and what they would hold a token with a cache of their own (gs_kv_layout_with_shared) */
    uint64_t shared_layers, shared_token_bytes;
};

/* KV cache and recurrent state on one GPU, by layer kind. */
struct gs_kv_layout {
    uint64_t layer_token_bytes;  /* one attention layer, one token, one GPU (the first kind) */
    uint64_t full_layers;        /* full-attention (and MLA) layers on this GPU */
    uint64_t full_token_bytes;   /* per token, all of them */
    uint64_t window_layers;      /* sliding-window and chunked layers on this GPU */
    uint64_t sliding_window;     /* tokens: the largest window */
    size_t window_count;
    struct gs_kv_window windows[GS_BLOCKS_MAX];
    uint64_t indexer_token_bytes; /* sparse-attention indexer keys per token (all layers) */
    uint64_t topk_token_bytes;    /* of full_token_bytes, the layers that attend to a top-k
                                     selection (DeepSeek sparse attention: index_topk entries,
                                     each compress_ratio tokens on DeepSeek-V4) */
    uint64_t topk_tokens;         /* ... the tokens that selection spans (the largest such) */
    /* DeepSeek-V4.1's layers that read a KV source's compressed cache without holding it
     * (gs_attention.read_ratio): the bytes of one entry over those layers, by the ratio they
     * read (1 or 2), and the entries each selects */
    uint64_t read_entry_bytes[GS_KV_READ_RATIOS];
    uint64_t read_topk;
    uint64_t recurrent_layers;    /* Mamba / linear-attention layers on this GPU */
    uint64_t state_bytes_per_sequence; /* their fixed state, per sequence */
    uint64_t conv_row_bytes;     /* one more row of every such layer's convolution window (vLLM
                                    keeps kernel - 1 + num_speculative_tokens rows of a
                                    delta-rule or Mamba-2 layer's under speculative decoding:
                                    MambaStateShapeCalculator's num_spec) */
    bool state_rows_per_token;   /* every one of them a gated delta-rule mixer (GDN, KDA) or a
                                    Mamba-2 one, none a Mamba-1 or short-convolution layer */
    uint64_t cross_token_bytes;  /* encoder-decoder: per encoder token, all decoder layers */
    uint64_t bytes_per_token;    /* K/V (or latent) of every attention layer on this GPU, windowed
                                    ones included, as if every layer held every token */
    uint64_t bytes_per_token_total; /* across the tensor x pipeline group */
    /* Layers that read an earlier layer's cache (Gemma 3n / 4's num_kv_shared_layers) hold none
     * and are in no count above (vLLM gives them no KV cache spec); what they would hold were
     * they given their own, for an engine that allocates it anyway: the full-attention ones here
     * (and those of a window kind no other layer has), the window ones in windows[]. */
    uint64_t shared_full_layers, shared_full_token_bytes;
    uint64_t shared_token_bytes_total; /* all of them, across the tensor x pipeline group */
    /* DeepSeek sparse attention's layers that reuse an earlier layer's top-k (GLM-5.2's "shared"
     * indexer_types) keep no indexer keys and are not in indexer_token_bytes (vLLM and
     * TensorRT-LLM give them none); the keys they would hold a token, for an engine that keeps
     * them anyway (gs_kv_layout_with_shared_indexer) */
    uint64_t indexer_shared_layers, indexer_shared_token_bytes;
    /* Indexers that cache one key a pool of tokens (gs_attention.index_pool) are in
     * indexer_token_bytes at a key a pool, as vLLM stores them; what a key a token would add,
     * for an engine that keeps the pooled keys in a per-token buffer
     * (gs_kv_layout_with_unpooled_indexer) */
    uint64_t indexer_pooled_token_bytes;
};

/* Counts the kv-shared layers of `kv` as layers holding their own cache, as an engine that
 * allocates every layer's whatever it reads does (SGLang: its pools have a buffer for each of
 * num_effective_layers, and its hybrid layer lists count every layer); their share fields are
 * zeroed, so a second call changes nothing. */
void gs_kv_layout_with_shared(struct gs_kv_layout *kv);

/* Prices the pooled indexer keys of `kv` at a key a token (indexer_pooled_token_bytes into
 * indexer_token_bytes, then zeroed), as SGLang's cell charges them (pool_configurator.py
 * _compute_cell_size: index_head_dim + index_head_dim / 128 x 4 bytes a layer a token, whatever
 * index_kpool says). */
void gs_kv_layout_with_unpooled_indexer(struct gs_kv_layout *kv);

/* Counts the shared-indexer layers of `kv` as layers keeping indexer keys of their own, as an
 * engine whose pool allocates them for every sparse-attention layer does (SGLang before 0.5.18,
 * and its disaggregated workers after); zeroes their share fields, so a second call changes
 * nothing. */
void gs_kv_layout_with_shared_indexer(struct gs_kv_layout *kv);

/* `model_bytes`: bytes per element of the model dtype (for `auto`).
 * Errors: "/inference/kv_cache_dtype" for a dtype the architecture cannot use.
 * The layout is the pipeline stage's whose cache grows fastest. */
enum gs_status gs_kv_layout_for(const struct gs_arch *arch, enum gs_kv_dtype dtype,
                                uint64_t model_bytes, uint64_t tensor, uint64_t pipeline,
                                struct gs_kv_layout *out, struct gs_error *err);

/* The layout of pipeline stage `stage`; `pad_mla` pads each MLA entry to a
 * multiple of 256 bytes as vLLM's V0 did in 0.7.2-0.7.3 (cache_engine.py
 * _align_cache: 1,152 -> 1,280 bytes in bf16). */
enum gs_status gs_kv_layout_stage(const struct gs_arch *arch, enum gs_kv_dtype dtype,
                                  uint64_t model_bytes, uint64_t tensor, uint64_t pipeline,
                                  uint64_t stage, bool pad_mla, struct gs_kv_layout *out,
                                  struct gs_error *err);

/* KV layouts already worked out for one architecture, by (dtype, element
 * bytes, tensor, pipeline, stage, MLA padding): a plan search sizes the same
 * few layouts on every GPU type. Like gs_weights_memo: owned by the caller,
 * one thread at a time, zeroed before its first use and whenever the
 * architecture changes; layouts that fail are not remembered. */
#define GS_KV_MEMO_ENTRIES 32
struct gs_kv_memo {
    unsigned count, next; /* entries in use; the next to replace when full */
    struct gs_kv_memo_entry {
        enum gs_kv_dtype dtype;
        bool pad_mla;
        uint64_t model_bytes, tensor, pipeline, stage;
        struct gs_stage_plan stages;
        struct gs_kv_layout layout;
    } entries[GS_KV_MEMO_ENTRIES];
};

/* gs_kv_layout_stage through `memo` (NULL: computed every time), the layers
 * falling to the stages as `stages` says (NULL: vLLM's get_pp_indices). */
enum gs_status gs_kv_layout_memo(const struct gs_arch *arch, enum gs_kv_dtype dtype,
                                 uint64_t model_bytes, uint64_t tensor, uint64_t pipeline,
                                 uint64_t stage, bool pad_mla,
                                 const struct gs_stage_plan *stages, struct gs_kv_memo *memo,
                                 struct gs_kv_layout *out, struct gs_error *err);

/* Which config key names an engine's recurrent-state dtype. */
enum gs_state_key {
    GS_STATE_KEY_ANY,   /* mamba_ssm_dtype or mamba_ssm_cache_dtype (config_state_bytes) */
    GS_STATE_KEY_CACHE, /* mamba_ssm_cache_dtype alone (cache_dtype_bytes) */
    GS_STATE_KEY_NONE,  /* neither: the engine's default */
};

/* Which recurrent states a dtype the request names reaches. */
enum gs_state_reach {
    GS_STATE_REACH_ALL,   /* every one (SGLang --mamba-ssm-dtype, TensorRT-LLM
                             kv_cache_config.mamba_ssm_cache_dtype) */
    GS_STATE_REACH_SSM,   /* vLLM --mamba-ssm-cache-dtype from 0.17: Mamba's and Gated DeltaNet's,
                             not those marked ssm_flag_ignored */
    GS_STATE_REACH_MAMBA, /* ... before 0.17: Mamba's alone (gated_delta_net_state_dtype took no
                             ssm dtype until PR #34489) */
};

/* How an engine keeps one sequence's recurrent states: the conv windows in `conv` bytes an
 * element, the recurrent states in `given` bytes where the request names a dtype (0: none) and
 * it reaches them (`reach`), else in the dtype the config names under `key`, else in `state`
 * bytes (conv > 0; state 0: fp32 where the reader marks fp32_state, else `conv`). */
struct gs_state_dtypes {
    uint64_t conv, state, given;
    enum gs_state_key key;
    enum gs_state_reach reach;
};

/* Whether the dtype the request names (d->given) reaches the state `r` (d->reach). */
bool gs_state_dtype_reaches(const struct gs_state_dtypes *d, const struct gs_recurrent *r);

/* One sequence's recurrent states over every layer of `arch` with a state, split over `tensor`
 * ranks, in the dtypes `d` says; *layers gets the layers counted. */
uint64_t gs_kv_state_bytes(const struct gs_arch *arch, uint64_t tensor,
                           const struct gs_state_dtypes *d, uint64_t *layers, bool *ovf);

/* Paged bytes one sequence of `context` tokens (with `encoder_tokens` for
 * cross-attention) holds, in blocks of `block_size`: full layers and the
 * indexer every token; sliding-window layers min(window - 1 +
 * batched_tokens, context) tokens plus one block (vLLM
 * SlidingWindowSpec.max_memory_usage_bytes); chunked layers min(chunk +
 * batched_tokens, context) (ChunkedLocalAttentionSpec); recurrent layers
 * their fixed state (MambaSpec). */
uint64_t gs_kv_sequence_bytes(const struct gs_kv_layout *kv, uint64_t context,
                              uint64_t encoder_tokens, uint64_t block_size,
                              uint64_t batched_tokens, bool *overflow);

/* The engine's knobs; zero fields take the engine's shipped defaults. */
struct gs_engine_config {
    enum gs_engine engine;
    uint64_t gpu_memory_utilization_permille; /* vLLM, default 900 */
    uint64_t free_memory_fraction_permille;   /* TensorRT-LLM, default 900 */
    uint64_t mem_fraction_static_permille;    /* SGLang, default by GPU size and parallelism */
    uint64_t cuda_memory_fraction_permille;   /* TGI, default 1000 */
    uint64_t max_mamba_cache_size;            /* SGLang --max-mamba-cache-size: a hybrid's state
                                                 slots (0: from the ratio) */
    uint64_t mamba_full_memory_ratio_permille; /* SGLang --mamba-full-memory-ratio x 1000, the
                                                  states' share against the attention cache's
                                                  (0: 900) */
    bool one_kv_pool;                          /* SGLang --disable-hybrid-swa-memory: every
                                                  layer's cache in one pool, sliding-window
                                                  layers too */
    uint64_t swa_full_tokens_ratio_permille;   /* SGLang --swa-full-tokens-ratio x 1000: a hybrid
                                                  sliding-window model's window-pool tokens per
                                                  full-pool token (0: 800) */
    uint8_t mamba_ssm_bytes;                   /* the recurrent states' element size the request
                                                  names (SGLang --mamba-ssm-dtype, vLLM
                                                  --mamba-ssm-cache-dtype, TensorRT-LLM
                                                  mamba_ssm_cache_dtype); 0: the engine's default */
    bool mamba_ssm_float16;                    /* ... and that dtype is float16, not bfloat16 */
    uint64_t block_size;                      /* default per engine */
    uint64_t max_num_batched_tokens;          /* vLLM server defaults by GPU */
    uint64_t max_num_seqs;
    bool has_non_torch_bytes, has_activation_bytes, has_cuda_graph_bytes;
    uint64_t non_torch_bytes, activation_bytes, cuda_graph_bytes; /* overrides */
    uint32_t version;             /* engine release: major * 10000 + minor * 100 + patch
                                     (vLLM 0.6.4 = 604, 0.19.0 = 1900); 0 = the latest modeled */
    bool enforce_eager;           /* vLLM --enforce-eager: no CUDA graphs */
    uint8_t chunked_prefill;      /* GS_CHUNKED_PREFILL_*: the engine's default, on or off */
    uint8_t prefix_caching;       /* GS_CHUNKED_PREFILL_* values too: vLLM
                                     --enable-prefix-caching (V0's default off) */
    bool has_kv_cache_memory_bytes;
    uint64_t kv_cache_memory_bytes; /* vLLM --kv-cache-memory-bytes: the pool, bypassing the fraction */
    uint64_t cpu_offload_bytes;   /* vLLM --cpu-offload-gb: weights kept in host memory */
    uint8_t engram_tables;        /* GS_TABLES_*: where DeepSeek-V4.1's Engram tables live - the
                                     engine's default (gs_engram_tables_on_host), the GPU, or
                                     pinned host memory */
    uint8_t all2all;              /* enum gs_all2all: vLLM --all2all-backend under expert
                                     parallelism */
    uint8_t spec_method;          /* enum gs_spec_method: speculative decoding, GS_SPEC_NONE off */
    uint64_t spec_tokens;         /* its num_speculative_tokens (0: not given) */
    uint8_t mm_no_items;          /* vLLM --limit-mm-per-prompt: the modalities (GS_MM_IMAGE,
                                     GS_MM_VIDEO) limited to 0 items, which the profile skips */
    uint8_t model_runner;         /* vLLM VLLM_USE_V2_MODEL_RUNNER: GS_RUNNER_DEFAULT (the
                                     release's rule, gs_vllm_runs_v2), GS_RUNNER_V1, GS_RUNNER_V2 */
    uint8_t entrypoint;           /* vLLM's usage context: GS_ENTRY_SERVE (vllm serve, the
                                     OpenAI-compatible server; the default) or GS_ENTRY_OFFLINE
                                     (the Python LLM class), whose batch defaults differ */
    uint64_t cuda_graph_max_bs;   /* SGLang --cuda-graph-max-bs (0: the GPU class's default) */
    uint8_t disaggregation;       /* SGLang --disaggregation-mode: enum gs_sglang_role
                                     (GS_SGLANG_ROLE_NONE, _PREFILL, _DECODE) */
};

enum { GS_ENTRY_SERVE, GS_ENTRY_OFFLINE };

enum { GS_TABLES_DEFAULT, GS_TABLES_DEVICE, GS_TABLES_HOST };

enum { GS_RUNNER_DEFAULT, GS_RUNNER_V1, GS_RUNNER_V2 };

enum { GS_MM_IMAGE = 1, GS_MM_VIDEO = 2 };

enum { GS_CHUNKED_PREFILL_DEFAULT, GS_CHUNKED_PREFILL_ON, GS_CHUNKED_PREFILL_OFF };

struct gs_inference_input {
    const struct gs_arch *arch;
    struct gs_kv_memo *kv_memo; /* optional: this architecture's layouts (NULL = none) */
    uint64_t weights_bytes;   /* on the most loaded GPU */
    uint64_t batch_size;      /* concurrent sequences */
    uint64_t context_length;  /* tokens per sequence (prompt + output): the engine's max_model_len */
    uint64_t sequence_tokens; /* tokens each sequence actually holds in the paged cache, at most
                                 context_length; 0 = context_length */
    uint64_t prompt_tokens;   /* encoder tokens for encoder-decoders; 0 = context */
    uint64_t tensor, pipeline;
    struct gs_stage_plan stages; /* how the layers fall to the pipeline stages (gs/arch.h); the
                                    zero value is vLLM's get_pp_indices */
    enum gs_kv_dtype kv_dtype;
    uint64_t model_bytes;     /* bytes per element of the model dtype */
    struct gs_gpu_view gpu;   /* the GPU (total_bytes 0: none named); its link is how the
                                 tensor-parallel group talks */
    uint8_t weight_format;    /* enum gs_weight_format the weights are served in */
    uint64_t group_size;      /* GPTQ/AWQ group size; 0 = 128 */
    bool experts_only;        /* only routed experts are in weight_format (gpt-oss mxfp4) */
    bool host_tables;         /* the Engram tables are in host memory (gs_weights_request) */
    bool cross_node;          /* the worker's groups span nodes */
    uint64_t data;            /* data-parallel ranks (vLLM --data-parallel-size): each has its
                                 own KV cache, and a MoE layer runs every rank's tokens; 0/1 none */
    uint64_t expert;          /* the expert-parallel group (vLLM --enable-expert-parallel); 0/1 none */
    bool expert_cross_node;   /* that group spans nodes */
    const struct gs_draft *draft; /* speculative decoding: the draft model the request names
                                     (NULL: none, or the model's own MTP layers) */
    uint64_t draft_layers; /* speculative decoding (vLLM, SGLang, TensorRT-LLM): draft attention
                              layers whose cache joins this GPU's (their weights are in
                              weights_bytes) */
    uint64_t draft_token_bytes; /* their bytes per token; 0: each like the model's full-attention
                                   layers (MTP) */
    uint64_t draft_window;      /* tokens: the draft layers attend within this sliding window, each
                                   like the model's layers of that window, and join them (Step
                                   3.5's MTP layers); 0: full attention */
    uint64_t draft_transient_bytes; /* what the draft holds when the engine sizes the pool and
                                       frees after (SGLang: its own embedding and head,
                                       gs_sglang_draft); not in weights_bytes */
    bool has_stage;           /* size the worker of pipeline stage `stage` (else the stage
                                 whose cache grows fastest, with the full model's profile) */
    uint64_t stage;
    struct gs_engine_config engine;
};

struct gs_budget {
    const char *rule;            /* the engine's rule, in words */
    uint64_t total_bytes;        /* the GPU's reported capacity */
    uint64_t fraction_permille;  /* utilization / memory fraction used */
    uint64_t requested_bytes;    /* what the engine claims before KV */
    uint64_t weights_bytes;      /* as the engine loads them (rope_cache_bytes included) */
    uint64_t rope_cache_bytes;   /* rotary cos/sin tables created with the model (vLLM, SGLang) */
    uint64_t model_buffer_bytes; /* other buffers vLLM's model allocates when it is created
                                    (gs_arch.token_buffer_width), in weights_bytes */
    uint64_t sparse_buffer_bytes; /* sparse attention's buffers vLLM's model (and its mtp
                                     drafter) allocates when it is created: DeepSeek's
                                     (gs_vllm_sparse_buffer_bytes, gs_vllm_dsv4_scratch_bytes)
                                     and MiniMax-M3's (gs_vllm_block_topk_buffer_bytes), in
                                     weights_bytes */
    uint64_t layout_bytes;       /* what the engine's kernels add to the weights as loaded (vLLM's
                                    MXFP4 MoE padding and swizzled scales) */
    uint64_t kv_slot_bytes; /* K and V slots vLLM's and SGLang's fused QKV linears hold beyond the
                               model's modules (gs_weights_kv_slot_bytes: Gemma 4), in
                               weights_bytes */
    uint64_t router_fp32_bytes;   /* what the MoE routers weigh more as the engine creates them, in
                                     fp32 whatever the model's dtype (vLLM for some classes), in
                                     weights_bytes */
    uint64_t segment_slack_bytes; /* the caching allocator's rounding of the weight tensors, where
                                     the engine reads free memory (SGLang, TGI) */
    uint64_t draft_transient_bytes; /* held by a speculative draft when the pool is sized and
                                       freed after: taken from the pool, not in weights_bytes */
    uint64_t activation_bytes;   /* profiled peak */
    uint64_t non_torch_bytes;    /* CUDA context, NCCL, cuBLAS */
    uint64_t cuda_graph_bytes;
    int64_t kv_bytes;            /* left for the KV cache, negative when nothing is */
    const char *refusal;         /* why the engine refuses to start, where its own check does
                                    (else NULL: kv_bytes <= 0 says it) */
};

/* How the engine keeps a recurrent layer's states (vLLM's mamba_cache_mode). */
enum gs_state_cache {
    GS_STATE_CACHE_NONE,  /* the running state only (prefix caching off) */
    GS_STATE_CACHE_ALIGN, /* and the state at the last block boundary a step crossed */
    GS_STATE_CACHE_ALL,   /* and the state at every block boundary */
    GS_STATE_CACHE_COUNT
};

/* vLLM's name for it ("none", "align", "all"); "" out of range. */
const char *gs_state_cache_name(enum gs_state_cache mode);

/* An engine's paged layout where a block is not block_size tokens of every layer alike:
 * vLLM's hybrid allocator for attention + recurrent models (gs_engine_ops.pages). Every
 * group draws its blocks from one pool; a block holds `group_layers` layer slots of
 * `page_bytes` each. */
struct gs_kv_pages {
    uint64_t page_bytes;   /* one layer slot of one block; 0: the plain layout (no pages) */
    uint64_t group_layers; /* layer slots per block: every group's layer count */
    uint64_t full_groups;  /* groups of full-attention layers */
    uint64_t state_groups; /* groups of recurrent layers */
    uint64_t state_blocks; /* blocks a recurrent group takes per sequence; 0: one per
                              block_size tokens, as attention does (vLLM mamba_cache_mode all) */
    uint64_t state_page_bytes; /* a recurrent layer's state, before padding to page_bytes */
    uint8_t state_cache;   /* enum gs_state_cache */
};

struct gs_inference_result {
    const struct gs_vllm_release *release; /* vLLM: the release rules applied (gs/vllm.h) */
    const struct gs_sglang_release *sglang_release; /* SGLang: the release rules applied
                                                       (gs/sglang.h) */
    bool pad_mla;                          /* the engine pads each MLA cache entry (vLLM V0
                                              0.7.2-0.7.3): the layout is sized so */
    bool chunked_prefill;                  /* vLLM: the profile run's setting */
    uint64_t mla_workspace_tokens;         /* vLLM, MLA models: the chunked-prefill context
                                              workspace rows the profile run sizes for */
    uint64_t mm_profile_bytes;             /* vLLM V1, multimodal models: what the profile
                                              run's dummy images or video add to its peak (in
                                              budget.activation_bytes; gs_vllm_mm_profile) */
    uint64_t mm_profile_tokens;            /* its tokens per item as vLLM budgets them */
    bool mm_profile_video;                 /* the dummy is a video */
    bool model_runner_v2;                  /* vLLM: the model runs Model Runner V2 (no CUDA-graph
                                              reserve, no encoder profile; gs_vllm_runs_v2) */
    uint64_t binding_stage;                /* under pipeline parallelism with every stage
                                              sized: the stage whose pool binds */
    uint64_t moe_gathered_tokens;          /* vLLM, MoE under data parallelism: the tokens each
                                              rank's experts ran in the profile (every rank's);
                                              counted in budget.activation_bytes where the
                                              release's MoE path was read, else 0 */
    bool moe_gather_not_modeled;           /* vLLM, MoE under data parallelism on a release whose
                                              MoE path was not read: the gather is not counted */
    bool loader_removed;                   /* vLLM: the release has no loader for the weights'
                                              format (bitsandbytes from 0.28) */
    const char *engine_refusal;            /* why the engine does not start on this GPU whatever
                                              the memory (gs_engine_ops.refusal, or a release
                                              without the model's class: gs_model_support), else
                                              NULL */
    const char *model_refusal;             /* the release has no class for the model and no
                                              backend of it takes the model (gs_model_support):
                                              the engine_refusal, known without a GPU, else NULL */
    const char *release_lacks_model;       /* the release has not registered the model's class
                                              and only a generic backend, not sized, may run it
                                              (gs_model_support), else NULL */
    uint64_t workspace_reserve_bytes;      /* TensorRT-LLM 1.3: the fp8 context-MLA attention
                                              workspace held back from the pool */
    uint64_t v2_penalty_bytes;             /* vLLM Model Runner V2: the sampler's penalty state,
                                              [max_num_seqs, vocabulary] kept from load on (in
                                              budget.activation_bytes) */
    uint64_t kv_groups, kv_group_layers;   /* vLLM's hybrid allocator: groups, layers per group */
    struct gs_kv_layout kv;
    uint64_t block_size, max_num_batched_tokens, max_num_seqs;
    enum gs_kv_dtype kv_dtype;    /* the cache's format as the engine resolves the request's
                                     kv_cache_dtype for this model (SGLang keeps DeepSeek-V4's in
                                     fp8 whatever "auto" says); GS_KV_AUTO: as the request asks */
    const char *kv_dtype_detail;  /* ... where it is not the request's, why (the assumption
                                     kv_cache_dtype) and the code it follows; NULL otherwise */
    const char *kv_dtype_source;
    const char *kv_dtype_warning; /* ... where the engine stops at startup with the request's
                                     kv_cache_dtype for this model in some releases or with its
                                     default attention backend, which and why (the warning
                                     kv_cache_dtype_may_not_start); NULL otherwise */
    const char *pool_not_modeled; /* why the engine's pools for this model are not sized as it
                                     keeps them (the warning kv_pool_not_modeled), or NULL */
    const char *seqs_cap;         /* where max_num_seqs bounds the sequences the engine runs at
                                     once whatever the cache holds, what it is (the warning
                                     batch_exceeds_max_num_seqs); NULL where it does not */
    uint64_t kv_priced_token_bytes; /* where the engine counts its pool's tokens at another
                                       price than what a token holds (bytes_per_token +
                                       indexer_token_bytes): that price, one token on this GPU,
                                       so the pool holds max_tokens x what a token holds (SGLang
                                       before 0.5.17 prices DeepSeek sparse attention's fp8
                                       entries unscaled); 0: the same */
    uint64_t kv_unbudgeted_bytes;   /* ... and what that pool holds past budget.kv_bytes: memory
                                       outside the engine's budget, in per_gpu.overhead_bytes */
    uint64_t kv_needed_bytes;     /* batch x one sequence at the context */
    bool has_budget;              /* a GPU was named: budget.kv_bytes and below are set */
    struct gs_budget budget;      /* activation, non-torch and graph terms always set */
    struct gs_kv_pages pages;
    uint64_t blocks, max_tokens;
    uint64_t request_table_rows;    /* SGLang: the request-to-token table's rows (requests it can
                                       run, its padding and a decode worker's extra rows) */
    uint64_t request_table_bytes;   /* ... and its bytes, allocated after the pool outside the
                                       fraction (gs_engine_ops.tables); 0: no such table */
    uint64_t window_pool_tokens;    /* where the engine keeps the sliding-window layers' cache in a
                                       pool of its own beside the full layers' (gs_engine_ops.
                                       window_pool, SGLang's hybrid SWA memory): its tokens, a
                                       token being one of every window layer (max_tokens is then
                                       the full layers' pool); 0: one pool */
    uint64_t window_seq_tokens;     /* ... and the most of them one running sequence holds */
    uint64_t window_ratio_permille; /* ... and the ratio of its tokens to the full pool's, x 1000 */
    bool window_chunk_cap;          /* ... sized from the running requests rather than the ratio
                                       (SGLang's SWAChunkCapPoolConfigurator) */
    bool window_dsv4;               /* ... DeepSeek-V4's pools (SGLang's DSV4PoolConfigurator):
                                       max_tokens the tokens of capacity, each a window-pool
                                       share, compressed entries, indexer keys and compressor
                                       states (gs_sglang_dsv4_pool) */
    uint64_t dsv4_token_bytes;      /* ... what one token of that capacity costs as the
                                       configurator prices it, rounded up */
    uint64_t dsv4_state_bytes;      /* ... the ratio-128 compressor states taken from the budget
                                       before the tokens (0.5.15 on); 0: none */
    uint64_t state_slots;         /* where the engine keeps recurrent states in a pool of their own
                                     (gs_engine_ops.state_pool, SGLang's Mamba pool): its slots */
    uint64_t state_pool_bytes;    /* ... and its bytes as the engine allocates them, taken from
                                     budget.kv_bytes before the attention cache is sized (less
                                     state_unbudgeted_bytes); 0: no such pool */
    uint64_t state_seqs;          /* ... and the sequences those slots run at once */
    const char *state_binding;    /* ... and why it leaves the engine no room to start, where it
                                     does not (NULL: the generic reason) */
    bool state_split;             /* ... a share of the budget split with the attention pool by a
                                     typical step (TensorRT-LLM's V2 hybrid manager), not a fixed
                                     cost */
    const char *ssm_dtype_ignored; /* why some of the recurrent states keep another dtype than the
                                      request's mamba_ssm_dtype (vLLM); NULL: it reaches them all */
    uint64_t seq_extra_tokens;     /* tokens each sequence holds in the paged cache beyond its
                                      context: TensorRT-LLM's draft tokens and
                                      num_extra_kv_tokens under speculative decoding */
    const char *spec_mode;         /* the engine's name for its speculative mode (TensorRT-LLM) */
    bool spec_target_tokens;       /* ... whose release turns the budget into tokens at the target's
                                      layers alone though the pool holds the draft's too */
    bool spec_graph_buffers;       /* ... whose release copies the draft's hidden-state buffer for
                                      every CUDA graph it captures (not counted) */
    uint64_t spec_buffer_bytes;    /* the draft's buffers allocated before the profile
                                      (TensorRT-LLM's hidden states), in budget.weights_bytes */
    uint64_t state_spec_tokens;   /* ... under speculative decoding, the draft tokens a running
                                     request's intermediate states hold (SGLang's
                                     speculative_num_draft_tokens) */
    uint64_t state_spec_bytes;    /* ... and those states' bytes, also held beside the pool;
                                     0: none */
    uint64_t state_unbudgeted_bytes; /* ... of state_pool_bytes and state_spec_bytes, what the
                                        engine allocates past what its budget took from
                                        budget.kv_bytes (SGLang's padding slot before 0.5.17,
                                        draft states some releases do not budget): memory
                                        outside the fraction, in per_gpu.overhead_bytes */
    uint64_t state_slot_charged_bytes; /* ... one sequence's states as the budget charges them,
                                          where that is not kv.state_bytes_per_sequence (SGLang
                                          under pipeline parallelism); 0 otherwise */
    uint64_t state_slot_held_bytes;    /* ... and as each slot of the pool holds them, where that
                                          is not kv.state_bytes_per_sequence; 0 otherwise */
    uint64_t state_decode_extra;       /* ... on a --disaggregation-mode decode worker, the extra
                                          slots it keeps for requests still arriving from prefill
                                          workers (in state_pool_bytes where the release adds
                                          them) */
    uint64_t state_request_slots;    /* ... the slots a running request takes: 1 without the
                                        engine's prefix (radix) cache for the states, more with it */
    /* SGLang with its default mem_fraction_static from 0.5.3 (the reserve rule): what the
     * reserve outside the fraction was sized from (gs_sglang_reserve); sglang_reserve_bytes 0
     * where no such reserve applies */
    uint64_t sglang_reserve_bytes;       /* the whole reserve */
    int64_t sglang_chunked_prefill_size; /* the chunked prefill size it read (-1: off) */
    uint64_t sglang_cuda_graph_max_bs;   /* ... and the decode graphs' largest batch */
    uint64_t sglang_activation_tokens;   /* ... the tokens of its activation term */
    uint64_t sglang_prefill_graph_bytes; /* ... what it keeps for the prefill CUDA graphs */
    uint64_t sglang_prefill_sizes;       /* ... their capture sizes (0: none, or MLA's flat term) */
    uint64_t sglang_deepep_bytes;        /* ... what it keeps for DeepEP (--moe-a2a-backend) */
    bool sglang_prefill_deepep;          /* ... its prefill graphs in DeepEP's 8-aligned sizes */
    const char *sglang_prefill_graphs_off; /* why the release captures none here (NULL: it
                                              does, or has none) */
    bool sglang_fraction_forced;           /* SGLang set mem_fraction_static itself for the model
                                              (0.5.3's 0.8 for DeepSeek sparse attention) */
    uint64_t draft_pool_bytes;    /* TensorRT-LLM 1.3 on a V2 hybrid: the one-model draft's own
                                     manager's share of the budget, carved out before the target's
                                     state/attention split (_split_kv_cache_budget_for_draft) */
    uint64_t spec_state_bytes;    /* TensorRT-LLM: the target's speculative state buffers (the
                                     Mamba-2 replay history and intermediate conv windows) bound
                                     after its final pool, outside the budget; 0: none */
    uint64_t spec_state_profiled_bytes; /* ... as bound after the estimation pool, in the
                                           profile's peak (budget.weights_bytes) */
    uint64_t reported_tokens;     /* the capacity as the engine's startup log prints it (vLLM
                                     from 0.21: max concurrency x max_model_len) */
    uint64_t max_concurrency;     /* sequences at the requested context */
    uint64_t max_context;         /* tokens per sequence at the requested batch */
    bool starts;                  /* the engine starts: one sequence of the context fits */
    uint64_t seqs_bound;          /* where it does not start only for max_num_seqs above what its
                                     pool holds (gs_engine_ops.start_bound), or where the
                                     recurrent states it reserves for max_num_seqs sequences
                                     keep the batch out (TensorRT-LLM's state_pool): the most it
                                     may be; 0 otherwise */
    bool holds_batch;             /* ... and the KV cache holds the whole batch at once */
    const char *binding;          /* why not, when !holds_batch */
};

/* Runs the engine's rule. Error pointers under "/inference". */
enum gs_status gs_inference_compute(const struct gs_inference_input *in,
                                    struct gs_inference_result *out, struct gs_error *err);

/* True when `weights_bytes` of weights on a GPU of `gpu_total_bytes` leave the engine of `c`
 * no KV cache whatever the rest of the workload: every engine rule gives the weights and the
 * cache together at most the GPU's total (a fraction of it, or of what is free), and the
 * weights count in full, less --cpu-offload-gb, with only additions after. gs_inference_compute
 * would answer has_budget with starts and holds_batch false (a pool given outright, vLLM
 * --kv-cache-memory-bytes, still needs the weights beside it). False when a given fraction is
 * above 1 or no GPU is named. */
/* The binding gs_inference_compute gives when the budget leaves no KV cache (kv_bytes <= 0). */
extern const char gs_binding_no_cache[];

bool gs_inference_weights_leave_no_cache(const struct gs_engine_config *c, uint64_t weights_bytes,
                                         uint64_t gpu_total_bytes);

#endif
