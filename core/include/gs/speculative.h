/*
 * speculative.h - speculative decoding as a serving engine runs it: the
 * methods a request can name and what each costs the GPU.
 *
 * vLLM (--speculative-config): "mtp" loads the model's own multi-token
 * prediction layers (num_nextn_predict_layers) on every GPU, split over the
 * tensor ranks like a layer, sharing the target's embedding (and, from 0.17,
 * its head: PR #34385), and their attention layers join the target's KV
 * cache (one more layer per MTP layer in every block); "ngram" and "suffix"
 * propose on the CPU and change no GPU figure. SGLang
 * (--speculative-algorithm): the draft's weights and KV pool come out of
 * the reserve outside mem_fraction_static, which the default fraction
 * grows by 2 GiB (6 for STANDALONE, none for NGRAM from 0.5.3). The rules
 * and their sources are in core/src/estimate.c, core/src/sglang.c and
 * docs/vllm-kv-budget-research.md section 11.
 */
#ifndef GS_SPECULATIVE_H
#define GS_SPECULATIVE_H

#include <stdbool.h>

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

/* API name ("mtp", "eagle3", ...); "none" for GS_SPEC_NONE. */
const char *gs_spec_method_name(enum gs_spec_method method);
bool gs_spec_method_parse(const char *name, enum gs_spec_method *out);

#endif
