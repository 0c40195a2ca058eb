/*
 * speculative.h - speculative decoding as a serving engine runs it: the
 * methods a request can name and what each costs the GPU.
 *
 * vLLM (--speculative-config): "mtp" loads the model's own multi-token
 * prediction layers (num_nextn_predict_layers) on every GPU, split over the
 * tensor ranks like a layer, sharing the target's embedding (and, from 0.17,
 * its head: PR #34385), and their attention layers join the target's KV
 * cache (one more layer per MTP layer in every block) - or, from 0.21, a
 * Gemma 4 assistant the request names as the draft, whose layers read the
 * target's cache and add none (gs_arch.drafts_for_hidden); "eagle", "eagle3" and
 * "draft_model" load the draft the request names (struct gs_draft) at the
 * target's tensor-parallel size, its attention layers joining the cache the
 * same way; "ngram" and "suffix" propose on the CPU and change no GPU
 * figure. SGLang
 * (--speculative-algorithm): before 0.5.14 the draft's weights and KV pool
 * come out of the reserve outside mem_fraction_static, which the default
 * fraction grows by 2 GiB (6 for STANDALONE, none for NGRAM from 0.5.3);
 * from 0.5.14 they come out of the fraction (gs_sglang_draft). The rules
 * and their sources are in core/src/estimate_serving.c, core/src/sglang.c,
 * core/src/sglang_draft.c and
 * docs/vllm-kv-budget-research.md section 11.
 */
#ifndef GS_SPECULATIVE_H
#define GS_SPECULATIVE_H

#include <stdbool.h>
#include <stdint.h>

enum gs_spec_method {
    GS_SPEC_NONE,
    GS_SPEC_MTP,         /* vLLM mtp (deepseek_mtp), SGLang NEXTN / EAGLE with the MTP head */
    GS_SPEC_EAGLE,       /* an EAGLE head */
    GS_SPEC_EAGLE3,      /* an EAGLE-3 head */
    GS_SPEC_DRAFT_MODEL, /* a separate small model (vLLM draft_model, SGLang STANDALONE) */
    GS_SPEC_NGRAM,       /* prompt lookup, no draft model */
    GS_SPEC_SUFFIX,      /* vLLM suffix decoding, no draft model */
    GS_SPEC_COUNT
};

/* A draft model the request names (eagle, eagle3, draft_model): its
 * architecture as its config.json describes it, how its weights are stored,
 * and for an EAGLE-3 head the vocabulary it predicts and the width of the
 * target's hidden states it reads. Borrowed: owned by the request. */
struct gs_arch;
struct gs_draft {
    const struct gs_arch *arch;
    uint8_t format;          /* enum gs_weight_format of its weights */
    uint64_t group_size;     /* GPTQ/AWQ */
    uint64_t draft_vocab;    /* EAGLE-3 draft_vocab_size (0: the config's vocab_size) */
    uint64_t target_hidden;  /* EAGLE-3 target_hidden_size (0: the config's hidden_size) */
};

/* The API names from GS_SPEC_MTP on, in enum order, NULL-terminated (the
 * codec decodes inference.speculative.method against it). */
extern const char *const gs_spec_method_names[];

/* API name ("mtp", "eagle3", ...); "none" for GS_SPEC_NONE. */
const char *gs_spec_method_name(enum gs_spec_method method);

/* The first release of `engine` (enum gs_engine; major x 10000 + minor x 100 + patch) that builds
 * `target`'s own MTP layers as a draft - from a `quantized` checkpoint (ModelOpt FP8 or NVFP4
 * weights) where that came later - with that release's name in *name and the file and PR that
 * brought it in *source; 0 (and nothing set) where gpusizer has not established one. */
uint32_t gs_spec_mtp_since(int engine, const struct gs_arch *target, bool quantized,
                           const char **name, const char **source);

#endif
