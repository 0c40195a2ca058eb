/*
 * model_support.h - which releases of a serving engine load a model class (the config's
 * architectures[0]): the release that first registered it, the one that dropped it, or none.
 *
 * An engine looks the class up in its model registry when it starts. Where the release has no
 * entry and no generic backend can take the class (TensorRT-LLM's PyTorch backend has none;
 * vLLM's Transformers backend refuses encoder-decoder models and classes without transformers'
 * attention interface, and the classes vLLM removed answer with their own error), the engine
 * fails at startup whatever the memory: gs_inference_compute answers "does not start" with the
 * reason as the binding (gs_inference_result.engine_refusal), so a plan search rejects the
 * layout as unsupported_by_engine. Where a generic backend may still take it (vLLM and SGLang
 * before the release that registered the class, or after vLLM removed it, for a model whose
 * every layer attends), the estimate stands, with the warning model_not_in_release. Classes not
 * listed load on every release gpusizer models; the table, its sources and how each release was
 * established are in core/src/model_support.c and docs/engines.md ("Which releases load the
 * model").
 */
#ifndef GS_MODEL_SUPPORT_H
#define GS_MODEL_SUPPORT_H

#include "gs/arch.h"
#include "gs/inference.h"

#include <stdbool.h>
#include <stdint.h>

/* Whether release `version` of `engine` (major x 10000 + minor x 100 + patch; 0: the newest
 * gpusizer models) loads `arch`'s class. NULL where it does or where gpusizer has not
 * established otherwise; else why not, with *refuses true where the engine fails at startup
 * and false where only a generic backend, whose memory gpusizer does not size, may run it. */
const char *gs_model_support(enum gs_engine engine, const struct gs_arch *arch, uint32_t version,
                             bool *refuses);

#endif
