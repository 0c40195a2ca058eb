/*
 * activation.h - training activation memory per GPU (Korthikanti et al. 2022,
 * "Reducing Activation Recomputation in Large Transformer Models", section 4).
 *
 * Per layer, the tensors autograd saves for backward, following Korthikanti
 * et al.'s accounting generalized to modern layers: norm and GEMM
 * inputs, Q/K/V and the attention output, the MLP's saved tensors (gated or
 * not), the attention core (softmax output and dropout for eager attention,
 * the fp32 log-sum-exp for flash attention), 1-byte dropout masks only when
 * the config's dropout is non-zero. Tensor parallelism divides the
 * partitioned terms, sequence parallelism the rest; context parallelism
 * splits the sequence.
 *
 * With a framework's rules (gs/framework.h) the count follows what its eager
 * code saves beyond that set: RMSNorm's fp32 input copy, K/V repeated to
 * every head, the contiguous copy o_proj reads, LoRA dropout copies; a
 * linear saves its input only when its weight trains, it carries an
 * adapter (without dropout), or a 4-bit base keeps it (bitsandbytes);
 * autocast keeps 16-bit copies of each linear's input and runs norms and
 * softmax in fp32; torch.compile fuses the pointwise chains so no fp32
 * intermediate and no MLP activation output is saved.
 *
 * Recomputation: Megatron's selective drops the attention core; torchtitan's
 * per-op policy keeps the layer input, every other matmul output and the
 * attention output; full keeps each layer's input plus one layer's working
 * set. The first pipeline stage holds min(p, micro-batches) micro-batches in
 * flight (§3.3), one under a device_map (parallelism.device_map: the stages run
 * in turn); the stage with the output layer holds the loss's logits
 * (§3.4, gs_loss_eighths_per_logit) - under a device_map GPU 0 when the head is
 * tied to the embedding, and GPU 0 also gets the returned logits' copy.
 */
#ifndef GS_ACTIVATION_H
#define GS_ACTIVATION_H

#include "gs/arch.h"
#include "gs/framework.h"
#include "gs/training.h"

#include <stdbool.h>
#include <stdint.h>

/* Which linear layers keep their input for backward. */
enum gs_trainable {
    GS_TRAIN_ALL,     /* full training: every weight has a gradient */
    GS_TRAIN_ADAPTERS /* LoRA/QLoRA: only adapters train (see gs_activation_input) */
};

struct gs_activation_input {
    const struct gs_arch *arch;
    uint64_t batch_size;      /* micro-batch per GPU */
    uint64_t sequence_length;
    uint64_t micro_batches;   /* gradient accumulation steps */
    uint64_t element_bytes;   /* 2 for 16-bit activations, 4 for fp32 */
    enum gs_recompute recompute;
    bool flash_attention;
    const struct gs_parallelism *parallelism;
    /* NULL: Megatron's textbook accounting (every linear trains, fused norms,
     * native GQA, no copies, fp32 logits loss of 2 + 8 bytes per logit) */
    const struct gs_framework_rules *rules;
    bool autocast;            /* torch.autocast: 16-bit linear inputs, fp32 norms and softmax */
    uint64_t residual_bytes;  /* the residual stream's element size (4 under autocast over fp32
                                 weights); 0 = element_bytes */
    enum gs_trainable trainable;
    const struct gs_training *adapters; /* with GS_TRAIN_ADAPTERS: LoRA targets and dropout */
    bool quantized_base;      /* QLoRA: the base linears are 4-bit */
    bool padding_mask;        /* the micro-batches carry padding tokens: under transformers'
                                 SDPA every layer takes the masked path (activation.c) */
    bool recurrent_torch;     /* Gated DeltaNet layers run transformers' torch fallback rather
                                 than flash-linear-attention and causal-conv1d */
    /* images a sample carries, each run through the vision towers (gs_tower, GS_PART_VISION) as
     * a sequence of `vision_patches` patches of `vision_pixels` pixel values; 0: text only */
    uint64_t vision_images, vision_patches, vision_pixels;
    uint64_t vision_tokens; /* the soft tokens an image yields, where its row holds more
                               (GS_MM_PADDED_ROW: fewer than the row's budget leave padding,
                               which the tower masks); 0 = the row's budget */
    uint64_t stream_width; /* the residual width the layers read: 0, the decoder's
                              hidden_size; set for a tower's own pass (gs_activation_bytes) */
    bool additive_mask;    /* the masked layers' mask is the model's own additive one at the
                              residual dtype, not transformers' boolean mask (Pixtral's block
                              mask); set for a tower's own pass */
};

struct gs_activation_result {
    uint64_t per_layer_bytes;   /* one layer, one micro-batch, as stored for backward */
    uint64_t layer_working_bytes; /* one layer's full saved set plus its backward's largest
                                     gradient pair: what backward holds for one layer at once */
    uint64_t layer_backward_bytes; /* what a layer's backward holds beyond what the layer
                                      stored, the largest layer's: its gradient pair (a counted
                                      scan's working set where larger) and what a selective
                                      recomputation recomputes; across pipeline stages, what
                                      that moment adds to total_bytes */
    uint64_t first_stage_bytes; /* the fullest stage before the last: its layers x its
                                   micro-batches in flight, p - s under 1F1B (the first stage
                                   with the encoders and the embedding inputs) */
    uint64_t last_stage_bytes;  /* one micro-batch of layers + the logits and loss */
    uint64_t stored_bytes;      /* saved activations on the most loaded stage, loss excluded */
    uint64_t logits_bytes;      /* what the loss and the final norms hold at the loss's
                                   backward, on the last stage */
    uint64_t logit_grads_bytes; /* the logits' gradient the loss hands the output head's
                                   backward, at the logits' dtype: every chunk's; under a fused
                                   linear-cross-entropy, which never holds the logits, the head
                                   input's gradient it makes instead */
    uint64_t loss_chunks;       /* the chunks the loss runs over the logits (1: one) */
    uint64_t logits_held_bytes; /* of logits_bytes, the logits the caller holds through the
                                   whole backward (LitGPT's fp32 chunks, a kept output) */
    uint64_t forward_logits_bytes; /* what the forward's end holds of its logits: the head's
                                      output at its dtype and, being made beside it, the
                                      caller's fp32 copy (Fabric's convert_output) */
    uint64_t head_dequant_bytes;   /* a 4-bit output head's backward: its weight dequantized for
                                      the input's gradient (with the cast to the compute dtype),
                                      one chunk at a time; 0 for a 16-bit head */
    uint64_t vision_bytes;         /* of first_stage_bytes, what the vision towers keep of a
                                      micro-batch's images (their layers' saved tensors and the
                                      pixel values; 0 for text) */
    bool vision_counted;           /* the images' bytes in the vision tower are counted: a tower
                                      gs_activation_vision_counted describes, or a tower described
                                      by its weights alone that this run does not train
                                      (gs_activation_vision_frozen) */
    uint64_t final_norm_bytes;  /* of logits_bytes, what the final norms, an adapted head's
                                   adapters and a trained head's input keep until the head's
                                   backward has run */
    uint64_t total_bytes;       /* the most loaded stage: stored + logits where they meet */
};

/* Whether the model's own transformers code runs, not compiled: what the recurrent scans' counts
 * follow (gs_activation_counts_scan). */
bool gs_activation_model_code(const struct gs_activation_input *in);

/* Whether the count follows block `b`'s recurrent scan (gs_recurrent.scan): a Gated DeltaNet
 * run by the model's own transformers code, not compiled. Other recurrent mixers are sized by
 * their projections alone. */
bool gs_activation_counts_scan(const struct gs_activation_input *in, const struct gs_block *b);

/* Whether the model's vision towers are described so that a micro-batch's images are counted
 * (gs_activation_input.vision_images): each a layer stack the walk reads (its norms give its
 * width), run on the images alone (not a cross-attended encoder), and the model's largest image
 * read (gs_arch.mm_image.patches). */
bool gs_activation_vision_counted(const struct gs_arch *arch);

/* Whether the model's vision tower is described by its weights alone, outside any layer stack
 * (Gemma 3n's MobileNetV5, weighed a stage at a time: its blocks differ in shape), and this run
 * does not train it: its weights, tensors no adapter targets, train only in a full fine-tune
 * that does not freeze the tower. It then runs without a graph and keeps nothing; what the
 * images cost is the pixel values the batch brings and what the adapted embedder after it keeps
 * (vision_bytes). */
bool gs_activation_vision_frozen(const struct gs_activation_input *in);

/* false when the arithmetic overflows 64 bits. */
bool gs_activation_bytes(const struct gs_activation_input *in, struct gs_activation_result *out);

/* What gs_activation_bytes reads of an input, by value: the input's scalars, the parallel
 * degrees it reads (tensor, pipeline, context, expert_tensor, sequence parallelism, the
 * stages and whether they are a device_map; not the data-parallel degree, the expert degree, the ZeRO stage or offload, which
 * move no activation), and copies of the rules and of the training section the adapters come
 * from. Equal keys are equal inputs; the structs are compared byte for byte, so unequal padding
 * can only make a memo miss, never answer another input. */
struct gs_activation_key {
    const struct gs_arch *arch;
    uint64_t batch_size, sequence_length, micro_batches, element_bytes, residual_bytes;
    uint64_t tensor, pipeline, context, expert, expert_tensor;
    uint64_t vision_images, vision_patches, vision_pixels, vision_tokens, stream_width;
    uint32_t recompute, trainable;
    bool flash_attention, autocast, quantized_base, padding_mask, sequence_parallel, has_rules,
        has_adapters, recurrent_torch, device_map, additive_mask;
    struct gs_stage_plan stages;
    struct gs_framework_rules rules; /* when has_rules */
    struct gs_training adapters;     /* when has_adapters */
};

#define GS_ACTIVATION_MEMO_ENTRIES 64

/* A plan search's memory of activation results: it sizes the same layers at every ZeRO stage,
 * offload and data-parallel degree it tries, and again at the next GPU count and type, where
 * the activations do not change. Memory the caller owns, zeroed before first use (the core
 * allocates nothing), for one thread at a time; the answers are the same without it. */
struct gs_activation_memo {
    unsigned count, next;                        /* entries in use; the next to replace when full */
    uint64_t hashes[GS_ACTIVATION_MEMO_ENTRIES]; /* a mix of each key's scalars, scanned first */
    struct gs_activation_memo_entry {
        struct gs_activation_key key;
        struct gs_activation_result result;
        bool ok; /* gs_activation_bytes' return */
    } entries[GS_ACTIVATION_MEMO_ENTRIES];
};

/* gs_activation_bytes through `memo` (NULL: computed every time). */
bool gs_activation_bytes_memo(const struct gs_activation_input *in, struct gs_activation_memo *memo,
                              struct gs_activation_result *out);

#endif
