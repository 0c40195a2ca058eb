/*
 * engine.h - a serving engine as a module.
 *
 * Each engine - vLLM (vllm.c), SGLang (sglang.c), TensorRT-LLM
 * (tensorrt_llm.c), TGI (tgi.c) and gpusizer's generic profile
 * (generic_engine.c) - fills one table of operations, the way curl's protocol
 * handlers or SQLite's VFS do; gs_inference_compute and gs_estimate run them
 * in this order and name no engine:
 *   defaults - the release's rules and the batch the engine profiles with
 *              (block size, tokens, sequences);
 *   pages    - its paged layout where a block is not block_size tokens of
 *              every layer alike (optional: vLLM's hybrid allocator);
 *   load     - what the engine holds beside its KV pool, as it measures it:
 *              the weights as loaded (rotary tables, buffers, kernel layouts,
 *              allocator rounding), the profiled activation peak and the
 *              memory outside torch;
 *   pool     - the rule that turns the GPU's memory into the KV budget;
 *   capacity - the capacity as the engine prints it, where that is not
 *              blocks x block size (optional);
 *   notes    - the release, the profile and the sources behind the answer.
 * engines.c lists the modules (gs/engines.h); engine.c holds the helpers they
 * share (below). A new engine is one file and one entry in that list; a new
 * release is a row in its file. Pure; nothing allocates.
 */
#ifndef GS_ENGINE_H
#define GS_ENGINE_H

#include "gs/inference.h"

#include <stdbool.h>
#include <stdint.h>

/* The worker the budget is worked out for: the layers its profile passes
 * through (counts per block kind) and where it sits in the pipeline. */
struct gs_engine_stage {
    const uint64_t *counts; /* GS_BLOCKS_MAX entries */
    uint64_t first, end;    /* its layers, [first, end) */
    uint64_t tensor, pipeline;
    bool first_stage, last_stage;
};

/* Where an engine writes the text behind its answer (gs_estimate's
 * assumptions and warnings); any function may be NULL. */
struct gs_engine_notes {
    void *ctx;
    void (*assume)(void *ctx, const char *name, const char *detail, const char *source);
    void (*assume_value)(void *ctx, const char *name, uint64_t value, const char *detail,
                         const char *source);
    void (*warn)(void *ctx, const char *code, const char *detail);
};

/* What an engine does with speculative decoding. */
enum gs_engine_spec {
    GS_ENGINE_SPEC_NONE,      /* not sized for this engine: refused */
    GS_ENGINE_SPEC_RESERVE,   /* the draft lives outside the pool's fraction (SGLang) */
    GS_ENGINE_SPEC_IN_BUDGET, /* the draft's weights and cache come out of the budget (vLLM) */
    GS_ENGINE_SPEC_MODULE     /* the engine's own module sizes it (TensorRT-LLM: gs/trtllm.h) */
};

struct gs_engine_ops {
    enum gs_engine engine;
    const char *name;          /* as the API spells it */
    uint64_t block_size;       /* tokens per KV block as the engine ships */
    const char *budget_source; /* the code its pool rule follows */
    const char *block_source;  /* where its block size comes from */
    const char *rope_source;   /* where its rotary tables come from (rope_cache_bytes) */
    const char *slack_detail;  /* how it sees the allocator's rounding (segment_slack_bytes) */
    bool cpu_offload;          /* has --cpu-offload-gb */
    bool sizes_each_stage;     /* under pipeline parallelism the least roomy stage's pool binds
                                  every worker (vLLM: the smallest num_blocks of all ranks) */
    bool no_pipeline;          /* shards over tensor ranks only: no pipeline stages (TGI) */
    bool slack_in_non_torch;   /* the allocator's rounding of the weights, where it counts, is
                                  in its non-torch term rather than in the weights */
    bool refuses_long_context; /* refuses a context above the model's max_model_len */
    bool lowers_long_context;  /* starts with its maximum sequence length lowered to what the
                                  cache holds where one sequence of the context does not fit
                                  (TensorRT-LLM), rather than refusing to start (vLLM) */
    enum gs_engine_spec spec;
    /* The first release whose changes were not read (0: no bound): a request naming it or a
     * later one is answered with the newest rules read and the warning unread_detail, code
     * engine_release_not_modeled. */
    uint32_t first_unread;
    const char *unread_detail;
    /* Where a layout that does not start or hold its batch with the engine's default
     * max_num_seqs can with it lowered (the result's seqs_bound), what lowering it does (the
     * change and fix lower_max_num_seqs); NULL where it cannot. */
    const char *lower_seqs_detail;

    /* out->block_size, max_num_batched_tokens, max_num_seqs (and seqs_cap where that number
     * bounds the sequences running at once) and the release rules (out->release,
     * out->sglang_release) from the request and the engine's defaults. */
    void (*defaults)(const struct gs_inference_input *in, struct gs_inference_result *out);
    /* Optional: the engine's own view of out->kv - out->pages (and the block size it implies)
     * for layouts whose blocks are not block_size tokens of every layer alike (vLLM), the
     * element sizes it keeps recurrent states in (SGLang). */
    void (*pages)(const struct gs_inference_input *in, struct gs_inference_result *out);
    /* out->budget's weights (given them less any offload on entry), activation, rotary,
     * buffer, layout and slack terms, and the engine's own non-torch figure in *non_torch. */
    void (*load)(const struct gs_inference_input *in, const struct gs_engine_stage *stage,
                 struct gs_inference_result *out, uint64_t *non_torch, bool *ovf);
    /* Whether a CUDA-graph figure counts against the pool (NULL: it does). */
    bool (*graphs_subtracted)(const struct gs_inference_result *out);
    /* out->budget's rule, fraction, requested and kv bytes, `used` being the weights,
     * activations, non-torch and counted graph bytes. */
    void (*pool)(const struct gs_inference_input *in, struct gs_inference_result *out,
                 uint64_t used, bool *ovf);
    /* Optional: blocks, max_tokens and reported_tokens as the engine prints them from
     * `available` bytes (reported_tokens is max_tokens on entry). */
    void (*capacity)(const struct gs_inference_input *in, struct gs_inference_result *out,
                     uint64_t available);
    /* Optional: where the engine keeps recurrent (Mamba, linear-attention) states in a pool of
     * their own carved from `available` bytes before it sizes the attention cache:
     * out->state_slots, state_pool_bytes and state_seqs, and the bytes left for attention in
     * *attention; false where it keeps none here. */
    bool (*state_pool)(const struct gs_inference_input *in, struct gs_inference_result *out,
                       uint64_t available, uint64_t *attention);
    /* Optional: where the engine keeps the sliding-window layers' cache in a pool of its own
     * beside the full layers', both carved from `available` bytes by its own rule (SGLang's
     * hybrid SWA memory): out->blocks, max_tokens and reported_tokens for the full layers'
     * pool, window_pool_tokens, window_seq_tokens and window_ratio_permille; false where it
     * keeps one pool here. */
    bool (*window_pool)(const struct gs_inference_input *in, struct gs_inference_result *out,
                        uint64_t available);
    /* Optional: what the engine allocates from its pool's size once the pool is sized, outside
     * the pool (SGLang's request-to-token table): out->request_table_rows and
     * request_table_bytes. Called where a GPU was named. */
    void (*tables)(const struct gs_inference_input *in, struct gs_inference_result *out);
    /* Optional: the release and profile behind an answer. */
    void (*notes)(const struct gs_engine_config *c, const struct gs_inference_result *r,
                  uint64_t expert, const struct gs_engine_notes *n);
    /* Optional: why the engine fails at startup here whatever the memory - no loader for the
     * weights' format, no kernel or attention backend for this model on this GPU generation
     * (in->gpu.hw) - or NULL. The answer is then "does not start" with this as the binding and
     * the warning unsupported_by_engine. */
    const char *(*refusal)(const struct gs_inference_input *in,
                           const struct gs_inference_result *out);
    /* Optional: why an engine that has the memory for one sequence still fails at startup with
     * the settings this memory leaves (a setting above what the pool holds), or NULL. The answer
     * is then "does not start" with this as the binding; another layout, GPU or setting may
     * start (the plan search goes on). Where the setting is max_num_seqs, *max_seqs is set to
     * the most it may be for the engine to start on this pool (else left 0). */
    const char *(*start_bound)(const struct gs_inference_input *in,
                               const struct gs_inference_result *out, uint64_t *max_seqs);
    /* Optional: where this release runs weights of `weight_format` (enum gs_weight_format) on
     * a GPU generation `hw` (enum gs_hw) whose row in the capability table (gs/capability.h)
     * says no kernel runs them: the rule and its source; NULL where the table stands. */
    const char *(*runs_beyond_table)(uint32_t version, uint8_t hw, uint8_t weight_format);
    /* Optional: the detail of the assumption behind budget.layout_bytes for a GPU of kind
     * `hw` and weights of format `weight_format` (enum gs_weight_format). */
    const char *(*layout_detail)(const struct gs_inference_result *r, uint8_t hw,
                                 uint8_t weight_format);
    /* Optional (spec RESERVE): the note on a draft, or an error for a method it lacks. */
    enum gs_status (*speculative)(const struct gs_engine_config *c,
                                  const struct gs_engine_notes *n, struct gs_error *err);
};

/* Helpers the modules share. */

/* segment_slack_bytes as the engines that read the device's free memory see it. */
#define GS_ENGINE_SLACK_FREE_MEMORY                                                            \
    "PyTorch's caching allocator rounds each weight tensor of 10 MiB or more up to a multiple " \
    "of 2 MiB; this engine reads the device's free memory, so the rounding counts with the "   \
    "weights it loads (the engine's tensors: q/k/v and gate/up fused, a MoE layer's experts "  \
    "in two) and in overhead_bytes"

/* bytes x permille / 1000, exact for realistic sizes. */
uint64_t gs_engine_permille_of(uint64_t bytes, uint64_t permille, bool *ovf);

/* Sets kv->state_bytes_per_sequence to one sequence's recurrent states in the engine's dtypes
 * `d` (gs_kv_state_bytes), on this GPU's share of the layers: the model's states scaled to the
 * stage's recurrent layers (the layers' states are alike). Leaves it as it is where the model
 * keeps none. */
void gs_engine_state_bytes(const struct gs_inference_input *in, const struct gs_state_dtypes *d,
                           struct gs_kv_layout *kv);

/* vLLM's OpenAI-server batch defaults (EngineArgs.get_batch_defaults), which
 * the engines without a profile rule of their own take: 8192 tokens and 1024
 * sequences on GPUs of 70 GiB or more other than A100, 2048 and 256
 * otherwise; the request's own figures win. */
void gs_engine_server_batch_defaults(const struct gs_inference_input *in,
                                     struct gs_inference_result *out);

/* vLLM's first release whose n-gram tables default to pinned host memory (EngramConfig) */
#define GS_VLLM_ENGRAM_HOST_DEFAULT 3000

/* Whether `engine` at `version` (0: the latest) keeps a model's n-gram tables - DeepSeek-V4.1's
 * Engram tables, Qwen3.8-Flash-Next's PLE table - in pinned host memory, as `asked`
 * (GS_TABLES_*) names or, by default, as the engine's own default places them. */
bool gs_engine_engram_tables_on_host(enum gs_engine engine, uint32_t version, uint8_t asked);

/* The notes of a cache format the engine resolved for the model (gs_inference_result.kv_dtype):
 * the assumption kv_cache_dtype where kv_dtype_detail says why, the warning
 * kv_cache_dtype_may_not_start where kv_dtype_warning says which releases or backends stop. */
void gs_engine_kv_dtype_notes(const struct gs_inference_result *r, const struct gs_engine_notes *n);

/* The caching allocator's rounding of this worker's weight tensors
 * (gs_weights_segment_slack). */
uint64_t gs_engine_segment_slack(const struct gs_inference_input *in,
                                 const struct gs_engine_stage *stage, bool *ovf);

/* What this worker's fp8 weights grow by on Marlin's weight-only kernel
 * (gs_weights_fp8_marlin_growth). */
uint64_t gs_engine_fp8_marlin_growth(const struct gs_inference_input *in,
                                     const struct gs_engine_stage *stage, bool *ovf);

/* What this worker's MoE routers weigh more when the engine keeps them in fp32
 * (gs_weights_router_fp32_growth). */
uint64_t gs_engine_router_fp32_growth(const struct gs_inference_input *in,
                                      const struct gs_engine_stage *stage, bool *ovf);

/* The K and V slots this worker's fused QKV linears hold beyond the model's modules
 * (gs_weights_kv_slot_bytes; `shared_projections`: a KV-sharing layer holds K and V slots). */
uint64_t gs_engine_kv_slot_bytes(const struct gs_inference_input *in,
                                 const struct gs_engine_stage *stage, bool shared_projections,
                                 bool *ovf);

/* Whether any decoder layer attends through a window / the model has a
 * vision or audio tower. */
bool gs_engine_has_windows(const struct gs_arch *a);
bool gs_engine_has_towers(const struct gs_arch *a);

#endif
