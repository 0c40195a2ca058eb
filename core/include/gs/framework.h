/*
 * framework.h - what a training framework does with memory that the model
 * alone does not say: how the loss holds the logits, which tensors an eager
 * layer saves for backward beyond the textbook set, what "selective"
 * checkpointing keeps, whether gradients outlive the step, how the
 * optimizer steps, how parameters are sharded, how the allocator is set up.
 *
 * One table row per framework (and per transformers release where the rule
 * changed); each row names the code it follows. A request may override every
 * default with its own field (gs_training_knobs); gs_framework_resolve
 * applies them. Pure data and pure functions; nothing allocates.
 */
#ifndef GS_FRAMEWORK_H
#define GS_FRAMEWORK_H

#include "gs/capability.h"

#include <stdbool.h>
#include <stdint.h>

enum gs_framework {
    GS_FW_TRANSFORMERS, /* HF Trainer / TRL / accelerate over a transformers model */
    GS_FW_TORCHTUNE,
    GS_FW_TORCHTITAN,
    GS_FW_LITGPT,
    GS_FW_MEGATRON,
    GS_FW_DEEPSPEED, /* the DeepSpeed engine over a transformers model */
    GS_FW_COUNT
};

/* How the loss holds the logits (bytes per logit in gs_framework.h's
 * gs_loss_bytes_per_logit). */
enum gs_loss {
    GS_LOSS_DEFAULT,       /* the framework's */
    GS_LOSS_FP32_RETAINED, /* fp32 logits returned by forward and kept through backward */
    GS_LOSS_FP32,          /* upcast inside the loss */
    GS_LOSS_CHUNKED,       /* the logits in chunks, each upcast and reduced on its own */
    GS_LOSS_FUSED,         /* fused linear-cross-entropy: logits never materialised whole */
    GS_LOSS_CHUNKED_NLL,   /* TRL's SFTTrainer chunked_nll: the head and the cross-entropy over
                              checkpointed chunks of 256 tokens (activation.c) */
    GS_LOSS_COUNT
};

/* The attention implementation, by transformers' attn_implementation names (one source:
 * gs_attn_impl_names). Eager materializes the score matrix; the others run a kernel that
 * keeps only its log-sum-exp (torch SDPA's flash or memory-efficient kernel, FlashAttention
 * 2/3, FlexAttention). */
enum gs_attn_impl {
    /* transformers' default (PreTrainedModel._check_and_adjust_attn_implementation) */
    GS_ATTN_SDPA,
    GS_ATTN_EAGER,
    GS_ATTN_FLASH2,
    GS_ATTN_FLASH3,
    GS_ATTN_FLEX,
    GS_ATTN_COUNT
};

/* A tri-state request knob: not given, or given true/false. */
enum gs_knob { GS_KNOB_DEFAULT, GS_KNOB_OFF, GS_KNOB_ON };

/* What a request may say about the framework; zero = defaults. */
struct gs_training_knobs {
    enum gs_framework framework;
    bool framework_given;
    uint32_t framework_version;   /* major*100 + minor ("4.45" -> 445, torchtitan's "0.1" -> 1);
                                     0 = the latest modelled unless framework_version_given */
    uint32_t framework_patch;     /* the release's third number ("0.2.2" -> 2); 0 when not given */
    bool framework_version_given; /* the request named a release, "0.0" included (torchtitan's
                                     commits before its first release) */
    enum gs_loss loss;
    uint64_t loss_chunks;       /* chunked loss: chunks per micro-batch; 0 = the framework's */
    enum gs_knob compile, optimizer_in_backward, activation_offloading, expandable_segments,
        set_to_none, fused_optimizer;
    enum gs_knob keeps_output;  /* the loop holds the model's output (its logits) through
                                   backward: `outputs = model(**batch); outputs.loss.backward()` */
    enum gs_knob sync_each_batch; /* FSDP reduce-scatters every micro-batch's gradients
                                     (accelerate's GradientAccumulationPlugin sync_each_batch)
                                     rather than accumulating them unsharded in no_sync();
                                     false: the accumulating micro-batches skip the sync under
                                     FSDP1 and FSDP2 alike. Applied where the framework's loop
                                     has the switch (sync_each_batch_option), or where it
                                     states what the loop does anyway; otherwise ignored and
                                     said (sync_each_batch_ignored) */
};

/* The rules one run follows, after defaults and overrides. */
struct gs_framework_rules {
    enum gs_framework framework;
    const char *label;          /* "transformers 4.49-4.x (HF Trainer)" */
    enum gs_loss loss;
    bool keeps_16bit_logits;    /* the model returns 16-bit logits its caller keeps (fp32 loss) */
    bool loss_upcast;           /* the loss upcasts to fp32 before log-softmax */
    uint64_t loss_chunks;       /* chunks per micro-batch (chunked loss), 0 = by positions */
    uint64_t loss_chunk_tokens; /* sequence positions per chunk when loss_chunks is 0 (the
                                   logits split along the sequence: every chunk holds that many
                                   positions of each sequence of the micro-batch) */
    bool logits_fp32_held;      /* the caller holds the logits converted to fp32 (Lightning
                                   Fabric's precision plugin converts a module's output) */
    bool returns_fp32_logits;   /* the model's forward upcasts the logits and returns them in
                                   fp32 (transformers <= 4.45 logits.float()): a loop that keeps
                                   its output keeps them in fp32 */
    bool loss_shift_copy;       /* the loss copies the shifted fp32 logits (logits[..., :-1,
                                   :].contiguous(), transformers <= 4.48), so its forward holds
                                   the returned logits, their upcast, the copy and log_softmax's
                                   output at once */
    bool qkv_fused_pinned;      /* one fused QKV projection whose V (a view of its output) reaches
                                   the attention kernel as it is, keeping the whole output
                                   alive beside the rotated Q and K copies (multi-head models) */
    bool model_qkv_views;       /* the config's own model code runs (transformers modeling_*.py
                                   or its remote code), so a block's fused QKV is split into
                                   views as that code does (gs_attention.qkv_views) */
    bool head_untied;           /* the model keeps its own output head: a checkpoint whose head is
                                   tied to the token embedding is loaded as two matrices */
    bool qkv_apart;             /* the framework's attention runs the query, key and value
                                   projections as three linears (torchtune's MultiHeadAttention
                                   q_proj, k_proj, v_proj) where the checkpoint fuses them
                                   (Phi-3's qkv_proj) */
    bool chunks_uncapped;       /* the head's logit chunks come back without the model's final
                                   logit soft-capping (litgpt/lora.py GPT.forward before 0.5.5
                                   returns [self.lm_head(x_i) for x_i in x.split(...)] ahead of
                                   it; commit 17a58dfa caps each chunk) */
    bool gate_up_apart;         /* the framework's MLP runs the gate and the up projection as
                                   two linears (LitGPT's LLaMAMLP fc_1 and fc_2, each its own
                                   LoRALinear) where the checkpoint fuses them (Phi-3's
                                   gate_up_proj) */
    bool model_without_dropout; /* the framework trains its own implementation of the
                                   architecture, which has no dropout layer whatever the
                                   checkpoint's config.json says (its dropout fields are not
                                   read); LoRA's own dropout stays */
    bool lora_fused_qkv;        /* LoRA on the fused QKV projection is one adapter: a single
                                   dropout of its input, and the zero-padded merge keeps the
                                   adapters' output (index_copy saves its source) */
    bool norm_fp32_copy;        /* eager RMSNorm upcasts: its fp32 input is saved (false where
                                   the eager norm is torch.nn.RMSNorm on torch >= 2.9, whose
                                   aten::_fused_rms_norm saves its input itself and a per-row
                                   rstd, pytorch PR #153666) */
    bool compile_blocks_only;   /* `compile` wraps each decoder block in torch.compile, not the
                                   model (torchtitan apply_compile, torchtune compile_model): the
                                   model-level norm before the head runs eager */
    bool gqa_expanded;          /* K and V are repeated to every query head before attention
                                   (resolved for the attention path: gs_framework_resolve) */
    bool transformers_sdpa;     /* the attention runs through transformers' sdpa_attention.py
                                   (resolved for the attention path: gs_framework_resolve), with
                                   its masks and its use_gqa_in_sdpa (activation.c says what that
                                   keeps) */
    bool flash_pads_mla_value;  /* transformers' MLA attention (modeling_deepseek_v3.py and the
                                   types copied from it) pads V to the query/key head width for
                                   flash-attn and slices the output back: the kernel keeps V and
                                   its output at that width, and o_proj reads a copy (resolved
                                   for the attention path: gs_framework_resolve) */
    bool sdpa_gqa_native;       /* transformers' SDPA path hands grouped K/V to the kernel
                                   (integrations/sdpa_attention.py use_gqa_in_sdpa, PR #39412:
                                   torch >= 2.5, no padding mask); before it, repeat_kv */
    bool sdpa_bool_mask;        /* transformers hands SDPA a boolean mask (masking_utils.py
                                   sdpa_mask, from 4.53, PR #37866), which aten turns into an
                                   additive one inside every call (attention.cpp
                                   convert_boolean_attn_mask): a copy per masked layer. Before
                                   it one additive mask in the model's dtype, built once per
                                   forward (_update_causal_mask), served every layer */
    bool act2fn;                /* activations are transformers' ACT2FN modules (gelu_new in
                                   Python ops); other frameworks' model code calls ATen's */
    uint32_t hf_release;        /* the transformers release whose model code the run trains
                                   (REL, major x 10,000 + minor x 100 + patch): the one named,
                                   UINT32_MAX for the latest; 0 where that is not known to be
                                   transformers' (another framework's own models, DeepSpeed's
                                   rows) */
    bool bnb_skips_fused_experts;   /* QLoRA leaves routed experts 16-bit: the model keeps them as
                                       fused 3D nn.Parameters (transformers >= 5.0,
                                       use_experts_implementation), and bitsandbytes' 4-bit
                                       conversion replaces nn.Linear modules only (bitsandbytes
                                       issue #1849, open) */
    bool moe_weights_after_experts; /* the MoE block multiplies each routed expert's output by
                                   its routing weight after the expert (transformers'
                                   SparseMoeBlock loops and Experts classes, LitGPT's
                                   LLaMAMoE): that product keeps the expert's output while
                                   the weights need a gradient, and frozen experts keep no
                                   input of theirs */
    bool adapters_fp32;         /* LoRA adapters kept in fp32, each casting its input (PEFT
                                   >= 0.12 autocast_adapter_dtype) */
    bool dora_recomputes_base;  /* DoRA under dropout recomputes the base output from the
                                   dropped input and keeps the weight it read (PEFT
                                   DoraLinearVariant.forward); torchtune's DoRALinear keeps the
                                   base output it computed before the dropout */
    bool softmax_fp32;          /* eager attention's softmax runs in fp32 and is cast back for
                                   the matmul with V (transformers eager_attention_forward) */
    bool query_contiguous;      /* the framework hands the attention kernel a contiguous
                                   (batch, heads, seq, dim) query (transformers 4.48-4.55
                                   sdpa_attention.py query.contiguous(); LitGPT's rope ends in
                                   torch.cat): a flash kernel's output, laid out like its query,
                                   is then copied when the transposed output is made contiguous
                                   for o_proj */
    bool quant_saves_input;     /* a 4-bit base linear saves its input for backward whether or
                                   not it is adapted (bitsandbytes MatMul4Bit before 0.43.2, PR
                                   #1270; later ones and torchao's NF4 linear keep only the
                                   weight) */
    bool quantizes_head;        /* QLoRA quantizes the output head too: Lightning Fabric's
                                   BitsandbytesPrecision replaces every nn.Linear it finds (no
                                   ignore_modules from LitGPT's finetune scripts), LitGPT's
                                   lm_head (a LoRALinear's nn.Linear) among them; transformers'
                                   conversion keeps lm_head 16-bit (get_keys_to_not_convert) */
    bool quant_state_fp16;      /* the 4-bit weights were quantized from an fp16 copy (Lightning's
                                   _Linear4bit.quantize: weight.to(dtype=torch.half)), so they
                                   dequantize to fp16 and bitsandbytes' MatMul4Bit casts that to
                                   the compute dtype, both alive at the cast
                                   (F.dequantize_4bit(B, state).to(A.dtype)) */
    bool keeps_previous_graph;  /* the loop binds the model's output to a variable it rebinds
                                   only when the next micro-batch's forward returns (LitGPT's
                                   `logits = model(...)`), so the previous step's graph lives
                                   through that forward, and with it what a custom autograd
                                   function keeps on its ctx rather than saving for backward
                                   (bitsandbytes MatMul4Bit's ctx.tensors = (A, B) before
                                   0.43.2): autograd never frees those after backward */
    bool longest_first;         /* the longest micro-batch is the step's first, which no
                                   previous graph precedes (lit-gpt's get_batch(...,
                                   longest_seq_ix if iter_num == 0)) */
    bool op_selective;          /* "selective" checkpointing means the per-op policy */
    uint8_t cudnn_attention_first; /* enum gs_cudnn_first: where the framework puts cuDNN's
                                      attention first among SDPA's backends */
    bool sac_recomputes_cudnn;     /* the per-op policy's save list has no
                                      aten::_scaled_dot_product_cudnn_attention, so where that
                                      kernel runs its output is recomputed in backward */
    bool sac_recomputes_attention; /* resolved for the GPU (gs_framework_resolve_gpu): the
                                      per-op policy keeps no attention output where cuDNN's
                                      kernel can run (activation.c says where) */
    bool loss_compiled;         /* compile (the request's `compile`) wraps the loss function in
                                   torch.compile too (torchtitan >= 0.1: build_cross_entropy_loss;
                                   from 0.2 compile.components, default ["model", "loss"]), so
                                   Inductor fuses the fp32 upcast, log_softmax and nll_loss */
    bool loss_parallel;         /* under tensor parallelism the cross-entropy runs on the
                                   vocabulary shards (DTensor's loss_parallel,
                                   torch/distributed/tensor/parallel/loss.py), whose
                                   decomposed backward holds 16 bytes a logit */
    bool grads_persist;         /* gradients stay allocated between steps */
    bool foreach_step;          /* optimizer.step() allocates foreach temporaries */
    bool expandable_segments;   /* PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True */
    bool deepspeed_buckets;     /* ZeRO stages run by DeepSpeed (its buckets) rather than FSDP */
    bool fsdp_no_sync;          /* under FSDP1 the micro-batches before the last of an
                                   accumulation run inside no_sync(), which accumulates every
                                   unit's gradient unsharded until the syncing micro-batch */
    bool fsdp2_no_sync;         /* the same accumulation reaches FSDP2: the loop's no_sync
                                   calls set_requires_gradient_sync(False), and every trainable
                                   parameter's gradient stays unsharded (accelerate >= 1.11
                                   Accelerator.no_sync) */
    bool sync_each_batch_option; /* the loop honours sync_each_batch (the HF Trainer through
                                   accelerate's GradientAccumulationPlugin, where it asks) */
    bool sync_each_batch_ignored; /* resolved: the request's sync_each_batch names what this
                                     release's loop cannot do; the rows' behaviour is kept */
    bool fsdp_orig_params;      /* the framework's FSDP1 keeps the original parameters
                                   (use_orig_params=True) with each layer's adapters in the
                                   layer's unit, whatever the request says */
    unsigned fsdp_version;      /* the FSDP the framework wraps with: 1 FlatParameter, 2 DTensor */
    bool fsdp_root_split;       /* the token embedding and [norm, output] are FSDP units of their
                                   own, the latter kept gathered from its forward to its backward,
                                   and the root module holds no parameter (torchtitan >= 0.2
                                   apply_fsdp, PR #1094); otherwise the root unit holds both */
    bool compile, optimizer_in_backward, activation_offloading;
    const char *source;         /* the code the row follows */
};

/* Where a framework sets cuDNN's attention first in SDPA's backend priority. */
enum gs_cudnn_first {
    GS_CUDNN_NOT_FIRST,       /* torch's own order: flash first (torch <= 2.8) */
    GS_CUDNN_FIRST_BLACKWELL, /* on compute capability >= 10.0 (torchtitan 0.1:
                                 has_cuda_capability(10, 0), PR #1209) */
    GS_CUDNN_FIRST            /* on every GPU (torchtitan 0.2 ScaledDotProductAttentionWrapper) */
};

/* The framework's rules for a release, with the request's overrides applied,
 * for transformers' attention path `attn_impl`: eager repeats grouped K/V
 * (eager_attention_forward's repeat_kv), SDPA repeats them unless the release
 * hands them over grouped (sdpa_gqa_native), flash_attention_2/3 and flex take
 * them grouped; the query.contiguous() of 4.48-4.55 is SDPA's alone. */
void gs_framework_resolve(const struct gs_training_knobs *knobs, enum gs_attn_impl attn_impl,
                          struct gs_framework_rules *out);

/* Resolves the rules that depend on the GPU: sac_recomputes_attention, where cuDNN's attention
 * runs first on `hw` (a catalog generation; GS_HW_UNKNOWN with `gpu_named` false: no GPU named,
 * taken as a datacenter NVIDIA one) and 16-bit attention inputs. */
void gs_framework_resolve_gpu(struct gs_framework_rules *rules, enum gs_hw hw, bool gpu_named,
                              bool attention_16bit);
/* Bytes per logit the loss holds at its peak (its backward, or its forward
 * where that holds more), over one GPU's share of the vocabulary (see
 * framework.c for each rule's derivation). `chunks` is
 * the number of chunks per micro-batch for a chunked loss, `tensor` the
 * tensor-parallel degree the vocabulary is split over. In 1/8 bytes so
 * 2 + 2/8 stays exact. */
#define GS_LOSS_BYTES_UNIT 8
uint64_t gs_loss_eighths_per_logit(const struct gs_framework_rules *rules, uint64_t chunks,
                                   uint64_t tensor);

/* Whether the framework's rules change between its releases (framework_version selects
 * among them). */
bool gs_framework_has_releases(enum gs_framework framework);

/* Whether the framework adapts the query, key and value parts of one attention projection one
 * by one (its rows' lora_fused_qkv: LitGPT's LoRAQKVLinear, lora_query, lora_key and
 * lora_value), so that a LoRA target can name a part of a fused projection (gs_lora_qkv_parts). */
bool gs_framework_adapts_qkv_parts(enum gs_framework framework);

/* Whether the rules' model code keeps routed experts as nn.Linear modules, which LoRA adapts
 * where a target names them: transformers' own modeling code (act2fn) before 5.0 (a ModuleList
 * of MLPs a layer, modeling_qwen3_moe.py Qwen3MoeSparseMoeBlock, modeling_mixtral.py; PEFT's
 * all-linear), and LitGPT's (lora.py LLaMAMoE: a ModuleList of LLaMAMLP, whose linears are
 * LoRALinear under lora_mlp); from transformers 5.0 the experts are fused 3D parameters
 * (bnb_skips_fused_experts) that PEFT leaves alone. Models whose experts are 3D in every release
 * (gs_block mlp.experts_fused) have none. */
bool gs_framework_expert_linears(const struct gs_framework_rules *rules);

/* Whether framework `fw` trains transformers' model code (the HF Trainer, TRL, accelerate, and
 * the DeepSpeed engine over a transformers model), with PEFT's LoRA over it; the others run
 * their own models. */
bool gs_framework_transformers_code(enum gs_framework fw);

/* "transformers", "fp32_retained", ...; never NULL. */
const char *gs_framework_name(enum gs_framework framework);
const char *gs_loss_name(enum gs_loss loss);

/* Parses "4.45" or "4.46.3" into 445 / 446; false when not a release string. */
bool gs_framework_version_parse(const char *text, uint32_t *out);
/* The same for any package's release, "0.26" -> 26 where zero_major allows a 0.x release. */
bool gs_release_parse(const char *text, bool zero_major, uint32_t *out);
/* Its third number, "0.2.2" -> 2 (0 when there is none, or it does not start with a digit;
 * at most 99). Call on a text gs_release_parse accepted. */
uint32_t gs_release_patch(const char *text);

#endif
