/*
 * checkpoint_summary.h - what a checkpoint's headers add up to (checkpoint.h):
 * the stored element types and their names, the summary the readers fill
 * shard by shard, and the stored format decided once every shard is in.
 */
#ifndef GS_CHECKPOINT_SUMMARY_H
#define GS_CHECKPOINT_SUMMARY_H

#include "gs/precision.h"
#include "gs/status.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Stored element types: safetensors dtypes, then GGUF's ggml types. */
enum checkpoint_dtype {
    CK_F64, CK_F32, CK_F16, CK_BF16, CK_F8_E4M3, CK_F8_E5M2, CK_F8_E8M0,
    CK_I64, CK_I32, CK_I16, CK_I8, CK_U64, CK_U32, CK_U16, CK_U8, CK_BOOL,
    CK_GGUF_Q4_0, CK_GGUF_Q4_1, CK_GGUF_Q5_0, CK_GGUF_Q5_1, CK_GGUF_Q8_0,
    CK_GGUF_Q2_K, CK_GGUF_Q3_K, CK_GGUF_Q4_K, CK_GGUF_Q5_K, CK_GGUF_Q6_K, CK_GGUF_Q8_K,
    CK_GGUF_IQ, /* the i-quants, counted together */
    CK_GGUF_MXFP4,
    CK_DTYPE_COUNT
};

/* The name as safetensors or GGUF spells it ("BF16", "F8_E4M3", "Q4_K"). */
const char *checkpoint_dtype_name(enum checkpoint_dtype dtype);

/* Indices of checkpoint_summary.float_matrix_bytes (added). */
enum { CK_FLOAT_F32, CK_FLOAT_F16, CK_FLOAT_BF16, CK_FLOAT_F8, CK_FLOAT_COUNT };

/* Numbered decoder layers a summary tracks one by one. */
#define CHECKPOINT_LAYERS_MAX 512

/* seen_flags bits (detection state, see checkpoint_finish) */
enum {
    CK_SEEN_QWEIGHT = 1 << 0,
    CK_SEEN_QZEROS = 1 << 1,
    CK_SEEN_GPTQ_SCALES = 1 << 2,
    CK_SEEN_G_IDX = 1 << 3,
    CK_SEEN_LAYOUT_GPTQ = 1 << 4,
    CK_SEEN_LAYOUT_AWQ = 1 << 5,
    CK_SEEN_FP8_BLOCK128 = 1 << 6,
    CK_SEEN_FP8_SCALE_OTHER = 1 << 7,
    CK_SEEN_FP8_TENSOR = 1 << 8,
    CK_SEEN_FP8_CHANNEL = 1 << 9,
    CK_SEEN_MXFP4 = 1 << 10,
    CK_SEEN_BNB4 = 1 << 11,
    CK_SEEN_BNB4_NESTED = 1 << 12,
    CK_SEEN_BNB8 = 1 << 13,
    CK_SEEN_GGUF = 1 << 14,
    CK_SEEN_NVFP4 = 1 << 15,
};

struct checkpoint_summary {
    uint64_t files;          /* shards added */
    uint64_t tensors;
    uint64_t tensor_bytes;   /* every tensor as stored */
    uint64_t bytes_by_dtype[CK_DTYPE_COUNT];
    /* logical parameters: packed elements unpacked (GPTQ/AWQ int32 qweight holds 32/bits
     * values, mxfp4 *_blocks and bitsandbytes 4-bit uint8 hold two), while scales, zero
     * points, g_idx, absmax, quant maps and fp8 scale tensors are not parameters; nor are
     * buffers stored with the weights: a persisted "*.rotary_emb.inv_freq" and GGUF's
     * "rope_freqs.weight", whose bytes count in tensor_bytes only */
    uint64_t parameters;
    uint64_t quantization_bytes; /* the bytes of those scale/zero/index tensors */
    /* tensor parallelism splits matrices and keeps vectors whole on every rank (a
     * conservative split for an architecture gpusizer cannot read) */
    uint64_t matrix_bytes;   /* tensors of two or more dimensions */
    uint64_t vector_bytes;   /* tensors of zero or one dimension */
    /* by position: bytes of each numbered layer (".layers.N.", ".h.N.", ".blocks.N.",
     * ".layer.N.", GGUF's "blk.N."; the pattern may also start the name), and of everything
     * else (embeddings, head, final norm, vision or audio towers: a name containing "vision",
     * "visual", "audio", "image", "mm_projector" or "multi_modal" is never a decoder layer;
     * nor is an MTP tensor by name (mtp_bytes) or a layer index of CHECKPOINT_LAYERS_MAX or
     * more) */
    uint64_t layer_bytes[CHECKPOINT_LAYERS_MAX];
    uint64_t layers;         /* highest layer index seen + 1 */
    uint64_t other_bytes;
    /* of other_bytes, the multi-token-prediction layers' tensors by name: a dotted component
     * starting with "mtp" ("mtp.layers.0." in Qwen3.5 and Qwen3-Next, "mtp.0." in DeepSeek-V4,
     * "model.mtp_layers.0." in MiMo, "model.mtp.layers.0." in MiniMax-M3, ERNIE 4.5's
     * "mtp_block.0."). The engines' target model skips them (vLLM's
     * get_spec_layer_idx_from_weight_name in deepseek_v2.py, minimax_m3.py; mimo.py's
     * load_weights); MTP layers numbered past the decoder's (DeepSeek-V3's and GLM's
     * "model.layers.61.") are told apart only with the config (hub_ref_checkpoint_bytes). */
    uint64_t mtp_bytes;
    /* the stored format, detected from tensor names and dtypes (checkpoint_finish) */
    bool format_known;
    enum gs_weight_format format;
    uint64_t group_size;     /* GPTQ/AWQ (from the scales' shape), mxfp4 32; 0 otherwise */
    unsigned pack_bits;      /* GPTQ/AWQ bits per packed value; set before adding shards
                                (quantization_config.bits), 4 when 0 */
    /* GGUF only */
    /* general.file_type as llama-quantize names it ("Q4_K_M", "F16", "MXFP4_MOE"), its number
     * in decimal when llama.cpp has no name for it, "" if absent */
    char gguf_file_type[24];
    char gguf_architecture[32];
    /* detection state (internal, zero-initialised) */
    uint64_t seen_flags;
    /* added: bytes of unpacked float matrices by dtype (CK_FLOAT_*), for the dominant float
     * format when no quantization scheme is detected (internal, zero-initialised) */
    uint64_t float_matrix_bytes[CK_FLOAT_COUNT];
};

void checkpoint_summary_init(struct checkpoint_summary *s);

/* Decides the stored format once every shard is in: MXFP4 (group 32) for
 * *_blocks and *_scales; GPTQ (g_idx, or qweight [in*bits/32, out]) or AWQ
 * (qweight [in, out*bits/32], no g_idx), group_size from the scales' rows;
 * FP8_BLOCK (weight_scale_inv of 128x128 blocks), FP8_PER_CHANNEL, FP8 (one
 * weight_scale per tensor); NF4 / NF4_DQ (nested absmax) for bitsandbytes
 * 4-bit, INT8 for its SCB; else the float dtype holding most matrix bytes.
 * GGUF: the file type as GS_WF_GGUF_* (Q4_0, Q4_K_M, Q5_K_M, Q6_K, Q8_0),
 * F32/F16/BF16 as the float formats, MXFP4_MOE as MXFP4; any other file type
 * leaves format_known false (gguf_file_type still names it). */
void checkpoint_finish(struct checkpoint_summary *s);

#endif
