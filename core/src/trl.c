/*
 * trl.c - TRL's SFTTrainer defaults by release (see gs/trl.h). Each row says which of
 * SFTConfig's and SFTTrainer's defaults a release has, read from trl/trainer/sft_config.py and
 * sft_trainer.py at the release's tag.
 */
#include "gs/trl.h"

#include <stddef.h>
#include <stdio.h>

/* SFTConfig max_length (trl/trainer/sft_config.py, 0.16 on; before, max_seq_length None, which
 * SFTTrainer set to min(tokenizer.model_max_length, 1024)) */
#define TRL_MAX_LENGTH 1024
/* transformers TrainingArguments per_device_train_batch_size, which SFTConfig keeps */
#define TRAINER_BATCH_SIZE 8

struct row {
    uint32_t from;         /* first release (major x 100 + minor) */
    bool bf16;             /* SFTConfig bf16 defaults to True (autocast) */
    bool checkpointing;    /* SFTConfig gradient_checkpointing defaults to True */
    bool chunked_nll;      /* SFTConfig loss_type defaults to chunked_nll */
    bool kbit_prepare;     /* a 4-bit or 8-bit model not sharded goes through PEFT's
                              prepare_model_for_kbit_training (fp32 non-quantized params) */
    bool quantized_bf16;   /* a quantized model's trainable parameters are cast to bf16 */
    bool zero3_base_dtype; /* under DeepSpeed ZeRO-3 a 16-bit model's adapters stay in its
                              dtype (get_peft_model autocast_adapter_dtype=False) */
    bool loads_fp32;       /* a model named by its id is loaded in fp32 */
};

static const struct row rows[] = {
    /* SFTConfig inherits TrainingArguments' bf16=False and gradient_checkpointing=False;
     * _prepare_peft_model runs prepare_model_for_kbit_training on a quantized model whose 4-bit
     * parameters are on the GPU (is_sharded_qlora: FSDP's and ZeRO-3's loading leaves them on
     * the CPU or the meta device) */
    {.from = 0, .kbit_prepare = true},
    /* 0.19: bf16=True (trl PR #3515, "New defaults: bf16=True") */
    {.from = 19, .bf16 = true, .kbit_prepare = true},
    /* 0.22: gradient_checkpointing=True (trl PR #3510) */
    {.from = 22, .bf16 = true, .checkpointing = true, .kbit_prepare = true},
    /* 0.26: no prepare_model_for_kbit_training; a quantized model's trainable parameters cast
     * to bf16 (trl PR #4577, "Clean up model preparation": param.data.to(torch.bfloat16)) */
    {.from = 26, .bf16 = true, .checkpointing = true, .quantized_bf16 = true},
    /* 0.27: create_model_from_path's dtype defaults to "float32" (trl PR #4778) */
    {.from = 27, .bf16 = true, .checkpointing = true, .quantized_bf16 = true, .loads_fp32 = true},
    /* 1.7: loss_type defaults to chunked_nll (trl PR #5846); ZeRO-3 + PEFT over a model that
     * is not quantized passes autocast_adapter_dtype=False (trl PR #6091) */
    {.from = 107,
     .bf16 = true,
     .checkpointing = true,
     .chunked_nll = true,
     .quantized_bf16 = true,
     .zero3_base_dtype = true,
     .loads_fp32 = true},
};

static const struct row *row_for(uint32_t version)
{
    const struct row *best = &rows[0];
    for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
        if (rows[i].from <= version)
            best = &rows[i];
    return best;
}

bool gs_trl_version_parse(const char *text, uint32_t *out)
{
    return gs_release_parse(text, true, out) && *out > 0;
}

bool gs_trl_model_dtype(const struct gs_training *training, enum gs_dtype *out, const char **detail,
                        const char **source)
{
    if (!training->trl)
        return false;
    const struct gs_training_knobs *k = &training->framework;
    const char *d = NULL, *s = NULL;
    if (row_for(training->trl_version)->loads_fp32) {
        d = "no precision given: weights in fp32, as TRL's SFTTrainer (0.27 on) loads a model "
            "named by its id unless model_init_kwargs gives a dtype; give precision.weights "
            "for a model loaded another way (bf16 for dtype=\"auto\" or torch.bfloat16)";
        s = "trl/trainer/utils.py create_model_from_path: dtype = kwargs.get(\"dtype\", "
            "\"float32\") (trl PR #4778)";
    } else if (k->framework_version != 0 && k->framework_version < 500 &&
               k->framework == GS_FW_TRANSFORMERS) {
        d = "no precision given: weights in fp32, as TRL's SFTTrainer before 0.27 passes no "
            "dtype and transformers 4.x's from_pretrained loads fp32 by default; give "
            "precision.weights for a model loaded another way";
        s = "transformers 4.x modeling_utils.py from_pretrained (torch_dtype defaults to "
            "float32; \"auto\" from 5.0, transformers PR #42805)";
    } else {
        return false;
    }
    *out = GS_DTYPE_FP32;
    if (detail != NULL)
        *detail = d;
    if (source != NULL)
        *source = s;
    return true;
}

/* Whether the run is DeepSpeed's ZeRO-3 (TRL reads args.deepspeed_plugin.zero_stage). */
static bool deepspeed_zero3(const struct gs_training *t, const struct gs_parallelism *p)
{
    const bool deepspeed =
        t->framework.framework == GS_FW_DEEPSPEED || (!t->framework.framework_given && !p->fsdp);
    return deepspeed && p->zero_stage == 3;
}

/* The regime TRL's defaults make, for a request that names none: what the trainable
 * parameters are stored in and whether bf16=True runs the forward under autocast. Sets the
 * bits it follows in *applied; GS_REGIME_NONE where the generic default holds. */
static enum gs_regime regime_for(const struct row *r, const struct gs_training *t,
                                 const struct gs_parallelism *p, enum gs_dtype weights,
                                 uint32_t *applied)
{
    const bool adapters = t->method != GS_METHOD_FULL;
    const bool quantized = gs_dtype_is_quantized(weights);
    const bool sixteen = weights == GS_DTYPE_BF16 || weights == GS_DTYPE_FP16;
    if (adapters) {
        /* the adapters in 16 bits: cast so (quantized, 0.26 on), or created in the base's
         * dtype (a sharded 4-bit model before 0.26; a 16-bit model under ZeRO-3 from 1.7) */
        const bool bf16_adapters =
            (quantized && r->quantized_bf16) ||
            (weights == GS_DTYPE_INT4 && r->kbit_prepare && p->zero_stage == 3) ||
            (sixteen && r->zero3_base_dtype && deepspeed_zero3(t, p));
        if (bf16_adapters) {
            *applied |= GS_TRL_ADAPTERS_BF16 | GS_TRL_PURE_BF16;
            return GS_REGIME_BF16_PURE;
        }
        /* PEFT's fp32 adapters (autocast_adapter_dtype=True), under autocast where bf16=True */
        if (r->bf16) {
            *applied |= GS_TRL_AUTOCAST;
            return GS_REGIME_AMP;
        }
        return GS_REGIME_NONE;
    }
    if (weights == GS_DTYPE_BF16) {
        /* the Trainer steps the model's own bf16 parameters: no master copy */
        *applied |= GS_TRL_PURE_BF16;
        return GS_REGIME_BF16_PURE;
    }
    if (weights == GS_DTYPE_FP32 && r->bf16) {
        *applied |= GS_TRL_AUTOCAST;
        return GS_REGIME_AMP;
    }
    return GS_REGIME_NONE;
}

enum gs_status gs_trl_resolve(struct gs_training *training,
                              const struct gs_parallelism *parallelism, enum gs_dtype weights,
                              struct gs_error *err)
{
    struct gs_training *t = training;
    if (!t->trl)
        return GS_OK;
    const struct gs_training_knobs *k = &t->framework;
    if (k->framework_given && k->framework != GS_FW_TRANSFORMERS && k->framework != GS_FW_DEEPSPEED)
        return gs_error_add(err, GS_ERR_INVALID, "/training/trl_version",
                            "TRL's SFTTrainer is the HF Trainer over a transformers model "
                            "(framework transformers, or deepspeed under it), not %s",
                            gs_framework_name(k->framework));
    const struct row *r = row_for(t->trl_version);
    uint32_t applied = 0;
    /* the method as the estimate resolves it: a 4-bit base trains QLoRA adapters */
    if (!t->method_given && weights == GS_DTYPE_INT4)
        t->method = GS_METHOD_QLORA;
    else if (!t->method_given && gs_dtype_is_quantized(weights))
        t->method = GS_METHOD_LORA;
    /* before 0.26, a quantized model whose weights are on the GPU (not FSDP's or ZeRO-3's
     * sharded loading) goes through prepare_model_for_kbit_training; under bf16=True,
     * peft_module_casting_to_bf16 then puts the embeddings and the head back in bf16 (names
     * lm_head, embed_tokens, wte, wpe) and the norms in fp32 */
    const bool prepared =
        r->kbit_prepare && t->method != GS_METHOD_FULL && parallelism->zero_stage != 3;
    if (prepared && t->method == GS_METHOD_QLORA && !t->kbit_given) {
        t->kbit_prepared = true;
        t->kbit_given = true;
        t->kbit_head_16bit = r->bf16;
        applied |= GS_TRL_KBIT_PREPARED;
    } else if (prepared && weights == GS_DTYPE_INT8) {
        applied |= GS_TRL_KBIT_8BIT;
    }
    if (t->regime == GS_REGIME_NONE)
        t->regime = regime_for(r, t, parallelism, weights, &applied);
    if (r->checkpointing && !t->recompute_given) {
        t->recompute = GS_RECOMPUTE_FULL;
        t->recompute_given = true;
        applied |= GS_TRL_CHECKPOINTING;
    }
    if (r->chunked_nll && t->framework.loss == GS_LOSS_DEFAULT) {
        t->framework.loss = GS_LOSS_CHUNKED_NLL;
        applied |= GS_TRL_CHUNKED_NLL;
    }
    if (!t->padding_given) {
        t->padding = GS_PADDING_LONGEST;
        t->padding_given = true;
        applied |= GS_TRL_PADDING;
    }
    /* the shape a run gets when its script says nothing: TRL truncates every sample to
     * max_length, and the Trainer takes per_device_train_batch_size samples a micro-batch */
    if (t->sequence_length == 0) {
        t->sequence_length = TRL_MAX_LENGTH;
        applied |= GS_TRL_SEQUENCE;
    }
    if (t->batch_size == 0) {
        t->batch_size = TRAINER_BATCH_SIZE;
        applied |= GS_TRL_BATCH;
    }
    t->trl_applied |= applied;
    return GS_OK;
}

void gs_trl_redo(struct gs_training *training, const struct gs_parallelism *parallelism,
                 enum gs_dtype weights)
{
    struct gs_training *t = training;
    if (!t->trl)
        return;
    const uint32_t regime_bits = GS_TRL_AUTOCAST | GS_TRL_PURE_BF16 | GS_TRL_ADAPTERS_BF16;
    if (t->trl_applied & regime_bits)
        t->regime = GS_REGIME_NONE;
    if (t->trl_applied & GS_TRL_KBIT_PREPARED) {
        t->kbit_prepared = false;
        t->kbit_given = false;
        t->kbit_head_16bit = false;
    }
    t->trl_applied &= ~(regime_bits | GS_TRL_KBIT_PREPARED | GS_TRL_KBIT_8BIT);
    struct gs_error err;
    gs_error_init(&err);
    /* the framework, the one thing it refuses, was checked when the request was read */
    (void)gs_trl_resolve(t, parallelism, weights, &err);
}

/* One note per default, in the order of the bits. */
static const struct gs_trl_note notes[] = {
    {"trl_autocast",
     "TRL's SFTConfig sets bf16=True (0.19 on): the forward runs under autocast over "
     "fp32 trainable parameters (PEFT's fp32 adapters, or a model loaded in fp32), "
     "sized as regime amp",
     "trl/trainer/sft_config.py bf16 default True (trl PR #3515); peft "
     "get_peft_model autocast_adapter_dtype=True"},
    {"trl_bf16_parameters",
     "the trainable parameters are bf16 and the Trainer steps them as they are: "
     "gradients and optimizer states in bf16, no fp32 master copy (regime bf16_pure); "
     "where bf16=True runs autocast it casts no matmul over bf16 weights, and the ops "
     "it runs in fp32 (layer_norm, softmax) are counted at 16 bits",
     "transformers Trainer (no master weights outside DeepSpeed/FSDP mixed "
     "precision); aten autocast_mode.cpp cached_cast returns a tensor already in the "
     "target dtype"},
    {"trl_gradient_checkpointing",
     "TRL's SFTConfig sets gradient_checkpointing=True (0.22 on): every decoder layer "
     "recomputed in the backward (activation_checkpointing full)",
     "trl/trainer/sft_config.py gradient_checkpointing default True (trl PR #3510)"},
    {"trl_chunked_nll",
     "TRL's SFTConfig loss_type defaults to chunked_nll (1.7 on): the head and the "
     "cross-entropy over checkpointed chunks of 256 tokens (loss chunked_nll; "
     "loss_type nll is loss fp32)",
     "trl/trainer/sft_config.py __post_init__: loss_type = \"nll\" if "
     "use_liger_kernel else \"chunked_nll\" (trl PR #5846)"},
    {"trl_padding",
     "TRL's DataCollatorForLanguageModeling pads each micro-batch to its longest "
     "sample (padding longest, the longest reaching sequence_length); with packing "
     "or padding_free say padding max_length",
     "trl/trainer/sft_trainer.py DataCollatorForLanguageModeling (\"dynamically "
     "padded to the maximum length of a batch\")"},
    {"trl_prepare_model_for_kbit_training",
     "before 0.26 SFTTrainer ran PEFT's prepare_model_for_kbit_training on a 4-bit "
     "model not sharded by FSDP or ZeRO-3 (every parameter but the 4-bit weights in "
     "fp32); under bf16=True peft_module_casting_to_bf16 then put the embeddings and "
     "the head back in bf16",
     "trl/trainer/sft_trainer.py (0.21) _prepare_peft_model, trl/models/utils.py "
     "(0.22-0.25) prepare_peft_model: prepare_model_for_kbit_training unless "
     "is_sharded_qlora, then peft_module_casting_to_bf16"},
    {"trl_bf16_adapters",
     "the adapters are bf16: SFTTrainer casts a quantized model's trainable "
     "parameters to bf16 (0.26 on); before, a 4-bit model sharded by FSDP or ZeRO-3 "
     "got autocast_adapter_dtype=False, as a 16-bit model under DeepSpeed ZeRO-3 does "
     "from 1.7",
     "trl/trainer/sft_trainer.py: param.data = param.data.to(torch.bfloat16) for a "
     "quantized model (trl PR #4577); get_peft_model(..., "
     "autocast_adapter_dtype=False) (sharded QLoRA; ZeRO-3, trl PR #6091)"},
    {"trl_8bit_prepared_not_counted",
     "before 0.26 SFTTrainer also ran prepare_model_for_kbit_training on an 8-bit "
     "model, casting its other parameters (embeddings, norms, head) to fp32: not "
     "counted here (sized at 16 bits)",
     "trl/models/utils.py prepare_peft_model: is_qlora covers is_loaded_in_8bit"},
    {"trl_batch_size",
     "no batch_size given: 8 samples a micro-batch, the Trainer's per_device_train_batch_size "
     "default, which SFTConfig keeps",
     "transformers training_args.py per_device_train_batch_size default 8"},
    {"trl_sequence_length",
     "no sequence_length given: 1,024 tokens, SFTConfig's max_length, to which TRL truncates "
     "every sample (the longest micro-batch reaches it)",
     "trl/trainer/sft_config.py max_length default 1024 (0.16 on; before, SFTTrainer set "
     "max_seq_length to min(tokenizer.model_max_length, 1024))"},
};

const struct gs_trl_note *gs_trl_default_note(enum gs_trl_default bit)
{
    for (size_t i = 0; i < sizeof(notes) / sizeof(notes[0]); i++)
        if (bit == (enum gs_trl_default)(1u << i))
            return &notes[i];
    return NULL;
}
