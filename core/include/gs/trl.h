/*
 * trl.h - TRL's SFTTrainer over a transformers model: the defaults its SFTConfig and its model
 * preparation put on a run, by TRL release. A request that names training.trl_version gets
 * them wherever it says nothing itself: bf16 autocast (0.19), gradient checkpointing (0.22),
 * the chunked_nll loss (1.7), micro-batches padded to their longest sample (its collator), how a
 * quantized model's adapters are prepared (prepare_model_for_kbit_training before 0.26, bf16
 * adapters from it), and the dtype a model named by its id is loaded in (fp32 from 0.27).
 *
 * One table row per release where a default changed (trl.c), each naming the change. Pure
 * data and pure functions; nothing allocates.
 */
#ifndef GS_TRL_H
#define GS_TRL_H

#include "gs/precision.h"
#include "gs/status.h"
#include "gs/training.h"

#include <stdbool.h>
#include <stdint.h>

/* What gs_trl_resolve put on a request (gs_training.trl_applied), one bit each. */
enum gs_trl_default {
    GS_TRL_AUTOCAST = 1u << 0,      /* SFTConfig bf16=True: the forward under autocast */
    GS_TRL_PURE_BF16 = 1u << 1,     /* bf16 parameters stepped as they are (no master copy) */
    GS_TRL_CHECKPOINTING = 1u << 2, /* SFTConfig gradient_checkpointing=True */
    GS_TRL_CHUNKED_NLL = 1u << 3,   /* SFTConfig loss_type chunked_nll */
    GS_TRL_PADDING = 1u << 4,       /* DataCollatorForLanguageModeling pads to the longest */
    GS_TRL_KBIT_PREPARED = 1u << 5, /* prepare_model_for_kbit_training on a 4-bit model */
    GS_TRL_ADAPTERS_BF16 = 1u << 6, /* the adapters in bf16 rather than PEFT's fp32 */
    GS_TRL_KBIT_8BIT = 1u << 7,     /* an 8-bit model prepared too: its fp32 casts not counted */
    GS_TRL_BATCH = 1u << 8,         /* TrainingArguments per_device_train_batch_size=8 */
    GS_TRL_SEQUENCE = 1u << 9,      /* SFTConfig max_length=1024 (the truncation length) */
};

/* "1.7", "0.26.2" -> 107, 26 (major x 100 + minor); false when not a release string. */
bool gs_trl_version_parse(const char *text, uint32_t *out);

/* The dtype SFTTrainer loads a model named by its id in (SFTTrainer(model="org/name")), for a
 * request that gives no precision: fp32 from 0.27 (create_model_from_path's dtype default);
 * before, from_pretrained's own default, fp32 under transformers 4.x (framework_version below
 * 5.0) and the checkpoint's dtype from 5.0. False where it keeps the checkpoint's (the
 * caller's default); *detail and *source (may be NULL) get the sentence to say and its code. */
bool gs_trl_model_dtype(const struct gs_training *training, enum gs_dtype *out, const char **detail,
                        const char **source);

/* Puts TRL's defaults on `training` (a request's, after its own fields) for its weights
 * `weights` and layout `parallelism`, wherever the request left a field to the default:
 * method (as the estimate resolves it), regime, activation checkpointing, loss, padding,
 * prepare_model_for_kbit_training, micro-batch and sequence length. Each applied field is then
 * given (its *_given flag set), so the request reads as explicit from here on (a second call
 * changes nothing) and its bit is added to training->trl_applied, which the estimate's notes
 * read. The request decoder calls it once, after the training, parallelism and precision
 * sections. Nothing where training->trl is false. GS_ERR_INVALID (pointer
 * /training/trl_version) for a framework other than transformers' (transformers, deepspeed). */
enum gs_status gs_trl_resolve(struct gs_training *training,
                              const struct gs_parallelism *parallelism, enum gs_dtype weights,
                              struct gs_error *err);

/* Derives again the defaults that follow the weights and the method (the regime, the QLoRA
 * preparation) for `training` after gs_trl_resolve, once a change (gs/advice.h) moved either;
 * the request's own fields stay. Nothing where training->trl is false. */
void gs_trl_redo(struct gs_training *training, const struct gs_parallelism *parallelism,
                 enum gs_dtype weights);

/* What the answer says of an applied default: a stable name (the assumption's; for
 * GS_TRL_KBIT_8BIT the warning's code), the sentence and the code it follows. */
struct gs_trl_note {
    const char *name, *detail, *source;
};
/* The note for one bit of gs_trl_default; NULL for anything else. */
const struct gs_trl_note *gs_trl_default_note(enum gs_trl_default bit);

#endif
