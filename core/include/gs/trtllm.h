/*
 * trtllm.h - TensorRT-LLM's speculative decoding on the PyTorch backend (1.0 on): which mode a
 * request runs, and what it holds on one GPU - the draft's weights, the attention layers it adds
 * to the KV cache, the tokens a sequence holds beyond its context and the hidden-state buffers
 * the one-model drafts allocate before the memory profile (trtllm_draft.c; the engine module is
 * tensorrt_llm.c). Pure; nothing allocates.
 */
#ifndef GS_TRTLLM_H
#define GS_TRTLLM_H

#include "gs/inference.h"
#include "gs/speculative.h"
#include "gs/status.h"

#include <stdbool.h>
#include <stdint.h>

/* Whose speculative-decoding code a release runs (the release rows of tensorrt_llm.c). */
enum gs_trtllm_spec_rules {
    GS_TRTLLM_SPEC_UNSIZED, /* the TensorRT engine path (before 1.0): not sized */
    GS_TRTLLM_SPEC_1_0,     /* 1.0: EAGLE-3 one draft KV layer; MTP-Eagle keeps max_draft_len - 1
                               extra tokens */
    GS_TRTLLM_SPEC_1_1,     /* 1.1-1.2: EAGLE-3 and MTP-Eagle as many draft KV layers as draft
                               tokens (num_eagle_layers = max_draft_len); MTP-Eagle no extra
                               tokens */
    GS_TRTLLM_SPEC_1_3,     /* 1.3: a separate draft pool priced into every token; MTP-Eagle one
                               layer, EAGLE-3 its own layers; every one-model draft keeps
                               max_draft_len - 1 extra tokens */
};

/* The rules of release `version` (0: the newest modelled). */
enum gs_trtllm_spec_rules gs_trtllm_spec_rules_for(uint32_t version);

/* TensorRT-LLM's SpeculativeDecodingMode for a request. */
enum gs_trtllm_mode {
    GS_TRTLLM_MTP_EAGLE, /* MTP_EAGLE_ONE_MODEL: a checkpoint of one MTP layer, run k times */
    GS_TRTLLM_MTP,       /* MTP (vanilla): a checkpoint of several MTP layers, one a token */
    GS_TRTLLM_EAGLE3,    /* EAGLE3_ONE_MODEL (eagle3_one_model, the default) */
    GS_TRTLLM_DRAFT_TARGET,
    GS_TRTLLM_NGRAM,
};

struct gs_trtllm_spec {
    enum gs_trtllm_mode mode;
    const char *name;          /* the mode as TensorRT-LLM names it */
    enum gs_trtllm_spec_rules rules;
    uint64_t draft_tokens;     /* max_draft_len (k) */
    uint64_t mtp_layers;       /* MTP layers built (their weights) */
    uint64_t target_layers;    /* draft KV layers priced like the target's (get_num_spec_layers
                                  in the target's manager, or 1.3's draft pool of MTP layers) */
    bool own_layout;           /* ... or the draft's own layers in their own layout (1.3's
                                  EAGLE-3, a draft model) */
    uint64_t extra_kv_tokens;  /* get_num_extra_kv_tokens */
    uint64_t capture_layers;   /* the target's hidden states a one-model draft reads (EAGLE-3 3,
                                  MTP-Eagle 1; 0: no hidden-state buffer) */
    bool target_tokens;        /* 1.0-1.2: the budget becomes tokens at the target's layers alone
                                  (_get_kv_size_per_token) though the pool also holds the draft's */
};

/* The mode `method` runs for `target` with `tokens` draft tokens (0: not given) on release
 * `version`, or a 400 at the request's field: the engine path (before 1.0), EAGLE-1/2 and suffix
 * decoding (not in the PyTorch backend), pipeline parallelism (`pipeline` > 1; the feature
 * matrix's "No"), a hybrid target other than 1.3's MTP-Eagle on a Mamba-2 hybrid its V2
 * manager keeps (gs_trtllm_states_v2; the other speculative states are not modelled), mtp without
 * MTP layers or with a draft, eagle3 and draft_model without one, ngram with one, and EAGLE-3,
 * draft_model or ngram without num_speculative_tokens (max_draft_len has no default). */
enum gs_status gs_trtllm_spec_for(const struct gs_arch *target, const struct gs_draft *draft,
                                  enum gs_spec_method method, uint64_t tokens, uint32_t version,
                                  uint64_t pipeline, struct gs_trtllm_spec *out,
                                  struct gs_error *err);

/* Whether release `version` keeps `target`'s recurrent states in MambaHybridCacheManagerV2 (the
 * model defaults of its class pick it; tensorrt_llm.c). */
bool gs_trtllm_states_v2(const struct gs_arch *target, uint32_t version);

/* The speculative state buffers the V2 manager of a Mamba-2 or Gated DeltaNet target binds after
 * each pool it builds, outside the pool (trtllm_draft.c has the shapes), at max_batch_size
 * `batch` and `slots` state slots, tensor degree `tensor`, model dtype of `element` bytes and
 * the request's SSM cache dtype of `ssm_element` bytes (0: the config's, else the model's):
 * intermediate conv windows for every max_batch_size slot and draft step, and on Mamba-2 layers
 * with `replay` (SM 8.0 on) a replay history for every state slot, else intermediate SSM states
 * for every max_batch_size slot and draft step. 0 where `s` runs no draft or `target` has no
 * such layer. */
uint64_t gs_trtllm_spec_states(const struct gs_trtllm_spec *s, const struct gs_arch *target,
                               uint64_t tensor, uint64_t element, uint64_t ssm_element, bool replay,
                               uint64_t batch, uint64_t slots, bool *ovf);

/* Whether `tensor` ranks divide every Mamba-2 layer's n_groups of `target`, as the replay
 * strategy asserts ("replay state update requires mamba_n_groups divisible by tp_size"). */
bool gs_trtllm_replay_splits(const struct gs_arch *target, uint64_t tensor);

struct gs_weights_request;

/* What the draft holds on one GPU. */
struct gs_trtllm_draft {
    struct gs_trtllm_spec spec;
    uint64_t weights_bytes;     /* its weights at the target's tensor-parallel size */
    uint64_t cache_layers;      /* KV layers priced like the target's */
    uint64_t cache_token_bytes; /* ... or the draft's own layers' bytes a token */
};

/* The draft of `method` for `target`, the target's weights as `request` loads them and the KV
 * cache in `kv` (the checks of gs_trtllm_spec_for, and a draft whose layers attend through a
 * window or keep a recurrent state refused). */
enum gs_status gs_trtllm_draft(const struct gs_arch *target, const struct gs_draft *draft,
                               enum gs_spec_method method, uint64_t tokens, uint32_t version,
                               const struct gs_weights_request *request, enum gs_kv_dtype kv,
                               struct gs_trtllm_draft *out, struct gs_error *err);

/* The hidden-state buffers `s` allocates before the profile on a GPU of `target` in elements of
 * `element` bytes, max_num_tokens `tokens` and max_batch_size `batch` sequences of at most
 * `max_seq_len` tokens. */
uint64_t gs_trtllm_spec_buffers(const struct gs_trtllm_spec *s, const struct gs_arch *target,
                                uint64_t element, uint64_t tokens, uint64_t batch,
                                uint64_t max_seq_len, bool *ovf);

#endif
