/*
 * weights.h - weight storage formats and the bytes one GPU holds for them
 * (each format's packing in its library: vLLM's quantization layers, bitsandbytes
 * functional.py, ggml-common.h): plain fp32/bf16/fp16, fp8 (per tensor, per channel,
 * 128x128 blocks), LLM.int8, GPTQ and AWQ int4 with a group size, bnb nf4
 * (with or without double quantization), GGUF types, MXFP4, and plain int4.
 *
 * Quantized formats store the body's linear weights (modules flagged
 * GS_MOD_QUANT in the layer-by-layer description) quantized; embeddings, the
 * output head, norms, routers, biases and vision/audio towers stay 16-bit,
 * counted as such. Tensor parallelism splits each module as its description
 * says (column-parallel by output, row-parallel by input, KV heads
 * replicated when there are fewer than ranks, as vLLM's QKVParallelLinear);
 * pipeline parallelism gives each stage its layers as vLLM's get_pp_indices
 * does, the first stage also holding the embedding and towers and the last
 * the final norm and head; the most loaded stage is reported.
 */
#ifndef GS_WEIGHTS_H
#define GS_WEIGHTS_H

#include "gs/arch.h"
#include "gs/precision.h"
#include "gs/status.h"

#include <stdbool.h>
#include <stdint.h>


/* API name ("gptq", "q4_k_m", ...); never NULL. */
const char *gs_weight_format_name(enum gs_weight_format format);
bool gs_weight_format_parse(const char *name, enum gs_weight_format *out);

/* The plain element type a format stands for in training (QLoRA's 4-bit
 * base is int4); GS_DTYPE_COUNT when it cannot be a training base. */
enum gs_dtype gs_weight_format_training_dtype(enum gs_weight_format format);

/* GPTQ and AWQ take a group size (default 128). */
bool gs_weight_format_grouped(enum gs_weight_format format);

/* The fp8 formats (per tensor, per channel, 128 x 128 blocks): what fp8 kernels, or Marlin's
 * weight-only fp8 on GPUs without them, run. */
bool gs_weight_format_fp8(enum gs_weight_format format);

struct gs_weights_request {
    enum gs_weight_format format;
    uint64_t group_size;  /* GPTQ/AWQ; 0 = 128 */
    uint64_t tensor;      /* tensor-parallel degree, >= 1 */
    uint64_t pipeline;    /* pipeline stages, >= 1 */
    bool experts_only;    /* only routed experts are stored in the format, the rest 16-bit
                             (gpt-oss's mxfp4 checkpoint: modules_to_not_convert) */
    uint64_t expert;      /* expert parallelism: routed experts whole, spread over this many
                             ranks (vLLM --enable-expert-parallel); 0 or 1 = split by tensor */
    struct gs_stage_plan stages; /* how the layers fall to the pipeline stages (gs/arch.h); the
                                    zero value is vLLM's get_pp_indices */
    bool host_tables; /* the Engram tables (GS_MOD_HOST_TABLE) are in host memory: none of
                         them on the GPU (gs_weights_host_table_bytes weighs them) */
};

/* Weight bytes already worked out for one architecture, by request. A plan
 * search sizes the same few layouts on every GPU type and precision variant
 * (hundreds of estimates, a handful of distinct weight requests); an
 * estimate given a memo (gs_model_spec.weights_memo) weighs each request
 * once. Owned by the caller, used by one thread at a time, zeroed before its
 * first use and whenever the architecture changes. Requests that fail are
 * not remembered (they are computed again, with their errors). */
#define GS_WEIGHTS_MEMO_ENTRIES 48
#define GS_WEIGHTS_MEMO_STAGES 16 /* per-stage bytes kept for up to this many stages */
struct gs_weights_memo {
    unsigned count, next; /* entries in use; the next to replace when full */
    struct gs_weights_memo_entry {
        struct gs_weights_request request;
        uint64_t most; /* gs_weights_bytes */
        bool has_stages;
        uint64_t stages[GS_WEIGHTS_MEMO_STAGES]; /* every stage's, when has_stages */
    } entries[GS_WEIGHTS_MEMO_ENTRIES];
};

/* gs_weights_bytes into *most and, when `each` is not NULL, every pipeline
 * stage's bytes into each (`request->pipeline` entries, at most the layers:
 * all stages are weighed in one pass); `memo` may be NULL. */
enum gs_status gs_weights_bytes_memo(const struct gs_arch *arch,
                                     const struct gs_weights_request *request,
                                     struct gs_weights_memo *memo, uint64_t *most, uint64_t *each,
                                     struct gs_error *err);

/* Bytes of weights on the most loaded GPU, for a model with an
 * architecture. Checks that tensor parallelism does not split a
 * quantization group (vLLM: input_size_per_partition % group_size == 0),
 * with a pointer at "/parallelism/tensor". */
enum gs_status gs_weights_bytes(const struct gs_arch *arch, const struct gs_param_count *params,
                                const struct gs_weights_request *request, uint64_t *out,
                                struct gs_error *err);

/* Bytes of weights on one GPU of pipeline stage `stage` (0 .. pipeline - 1). */
enum gs_status gs_weights_bytes_stage(const struct gs_arch *arch, const struct gs_weights_request *request,
                                      uint64_t stage, uint64_t *out, struct gs_error *err);

/* Bytes one GPU holds for the model's multi-token-prediction layers (the
 * GS_PART_MTP tower) when vLLM serves with --speculative-config method mtp:
 * each layer split over the tensor ranks as the model's layers are (the
 * requested format for its quantized modules, the fusion projection as the
 * description builds it; served as stored, the layers the checkpoint's
 * ignore list keeps - struct gs_checkpoint.unquantized_mtp_layers - at its
 * dtype), without the token embedding, which the draft shares with the target
 * (llm_base_proposer.py _maybe_share_embeddings: "Detected MTP model.
 * Sharing target model embedding weights"), and with its own copy of the
 * head when `own_head` (releases before vLLM PR #34385 kept
 * shared_head.head). 0 when the architecture has no MTP layers. */
enum gs_status gs_weights_mtp_bytes(const struct gs_arch *arch, const struct gs_weights_request *request,
                                    bool own_head, uint64_t *out, struct gs_error *err);

/* Bytes one GPU holds for a draft model's decoder layers and final norms
 * (no embedding, no head), split over `request->tensor` ranks: what an
 * EAGLE head adds besides the pieces gs_estimate names (fc, its own head). */
/* Whether the model has Engram tables an engine may keep in host memory (GS_MOD_HOST_TABLE). */
bool gs_weights_has_host_tables(const struct gs_arch *arch);

/* Bytes of those tables one tensor rank of `request` holds, over every layer (what it keeps in
 * host memory when request->host_tables, or on the GPU otherwise). Sets *overflow on overflow. */
uint64_t gs_weights_host_table_bytes(const struct gs_arch *arch,
                                     const struct gs_weights_request *request, bool *overflow);

enum gs_status gs_weights_layers_bytes(const struct gs_arch *arch,
                                       const struct gs_weights_request *request, uint64_t *out,
                                       struct gs_error *err);

/* Bytes one GPU holds for an EAGLE head as vLLM's and SGLang's llama_eagle.py and
 * llama_eagle3.py (and TensorRT-LLM's Eagle3DraftModel) build it, without the token embedding (the
 * target's): its decoder layers and final norm (gs_weights_layers_bytes) and fc, whole in 16 bits -
 * nn.Linear(2 x hidden, hidden) for EAGLE, from 3 x `target_hidden` (0: its own hidden size) for
 * EAGLE-3, whose first layer's q/k/v also read [embeddings, hidden] (2 x hidden inputs) and which
 * keeps a hidden_norm. With `head_vocab` > 0 (EAGLE-3) its own head over that vocabulary, split
 * over the tensor ranks, and the draft-to-target id map of `map_element` bytes a row (vLLM's and
 * SGLang's int64 8; TensorRT-LLM's d2t int32 4, none where the vocabularies match). */
enum gs_status gs_weights_eagle_bytes(const struct gs_arch *arch, bool eagle3,
                                      uint64_t target_hidden, uint64_t head_vocab,
                                      uint64_t map_element,
                                      const struct gs_weights_request *request, uint64_t *out,
                                      struct gs_error *err);

/* The number of MTP layers the architecture stores (num_nextn_predict_layers). */
uint64_t gs_weights_mtp_layers(const struct gs_arch *arch);

/* The sliding window the MTP layers attend within (Step 3.5's), 0 when they attend over every
 * token or there are none. */
uint64_t gs_weights_mtp_window(const struct gs_arch *arch);

/* What fp8 weights (`request->format` fp8, fp8_per_channel or fp8_block)
 * grow by on one GPU of a stage when they run on Marlin's weight-only fp8
 * kernel (NVIDIA GPUs without fp8 tensor cores, compute capability below
 * 8.9): the values are repacked in place (gptq_marlin_repack, 4 a 32-bit
 * word), but the scales become Marlin's - block scales (one fp32 per 128 x
 * 128) one per 128 inputs and output column, per-tensor ones one per output
 * column, in the model's 16-bit dtype (vLLM and SGLang
 * quantization/utils/marlin_utils_fp8.py prepare_fp8_layer_for_marlin and
 * prepare_moe_fp8_layer_for_marlin). 2 x out x ceil(in / 128) bytes for a
 * block-quantized linear against 4 x ceil(out / 128) x ceil(in / 128): 1.5%
 * of its fp8 bytes. Per-channel scales shrink (2 bytes a column for 4):
 * the result is 0 where the stage's scales do not grow. `counts` and the
 * stages as for gs_weights_segment_slack; 0 for other formats. */
uint64_t gs_weights_fp8_marlin_growth(const struct gs_arch *arch,
                                      const struct gs_weights_request *request,
                                      const uint64_t counts[GS_BLOCKS_MAX], bool first_stage,
                                      bool last_stage, bool *overflow);

/* What the routers of the MoE layers `counts` gives weigh beyond their bytes in the request's
 * format when the engine creates them in fp32 whatever the model's dtype (vLLM's
 * Glm4MoE.gate, MiniMaxM2MoE.gate, ...: nn.Linear(dtype=torch.float32) or
 * ReplicatedLinear(params_dtype=torch.float32), the checkpoint's 16-bit values upcast by the
 * loader's copy_): 4 bytes an element against what gs_weights_bytes counts (the model's 16
 * bits: routers never quantize), on one GPU (a router is whole on every rank). 0 for an fp32
 * model. */
uint64_t gs_weights_router_fp32_growth(const struct gs_arch *arch,
                                       const struct gs_weights_request *request,
                                       const uint64_t counts[GS_BLOCKS_MAX], bool *overflow);

/* What a fused QKV linear that always holds a K and a V slot (vLLM's QKVParallelLinear, which
 * Gemma4Attention builds in every layer, vllm/model_executor/models/gemma4.py) allocates beyond
 * the description's modules, on one GPU of the stage whose layers `counts` gives, in the
 * request's format: a KV-sharing layer described without K/V weights of its own
 * (GS_MOD_KV_OWN) holds those of the layer it reads (gs_arch_kv_source), its k_norm included -
 * only the k_norm where `shared_projections` is false (an engine that builds such a layer a
 * Q-only projection: TensorRT-LLM); a layer whose one K/V projection serves as both (Gemma 4's
 * attention_k_eq_v full layers: the loader copies k_proj into the V slot) holds a V slot as large
 * as its K. 0 for other models. */
uint64_t gs_weights_kv_slot_bytes(const struct gs_arch *arch, const struct gs_weights_request *r,
                                  const uint64_t counts[GS_BLOCKS_MAX], bool shared_projections,
                                  bool *overflow);

/* What PyTorch's CUDA caching allocator reserves beyond the weight tensors
 * one GPU of a stage holds (c10/cuda/CUDACachingAllocator.cpp
 * get_allocation_size: a request of kMinLargeAlloc, 10 MiB, or more gets a
 * segment of its size rounded up to kRoundLarge, 2 MiB; the remainder stays
 * with the tensor's segment - not split off at 1 MiB or less, and no later
 * weight of that size takes it over). Engines that size their cache from
 * the device's free memory (SGLang, TGI) see it as used; vLLM counts
 * allocated bytes and does not. The tensors are the engine's parameters:
 * q/k/v fused into one (QKVParallelLinear), each gated MLP's gate and up
 * projections into one (MergedColumnParallelLinear) - generally, the
 * column-parallel linears of a block's part that read the same input - and
 * a MoE layer's routed experts into two (w13 and w2); the rest one each.
 * Tensors between 1 and 10 MiB share 20 MiB segments (kLargeBuffer) and
 * smaller ones 2 MiB ones: at most a segment's tail, not counted; biases
 * are such small tensors; a quantized linear's scales are counted with its
 * weight. `counts` are the blocks of the stage (gs_arch_count_blocks);
 * the first stage also holds the embedding, towers and projectors, the last
 * the final norm and head. */
uint64_t gs_weights_segment_slack(const struct gs_arch *arch,
                                  const struct gs_weights_request *request,
                                  const uint64_t counts[GS_BLOCKS_MAX], bool first_stage,
                                  bool last_stage, bool *overflow);

/* The bytes the caching allocator rounds one `bytes` request up by, as
 * above: 0 below 10 MiB. */
uint64_t gs_torch_segment_rounding(uint64_t bytes);

/* The same for a raw parameter count (no shapes): every parameter at the
 * format's rate, split evenly over tensor x pipeline ranks. */
uint64_t gs_weights_bytes_raw(uint64_t parameters, const struct gs_weights_request *request,
                              bool *overflow);

#endif
