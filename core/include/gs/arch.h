/*
 * arch.h - a network described layer by layer, and its exact parameter count.
 *
 * A model is a stack of decoder layers, each an instance of one of a few
 * layer kinds (blocks): the block says what mixes tokens (attention - full,
 * sliding window, chunked, MLA with an optional sparse-attention indexer -,
 * a linear-attention or state-space mixer with a fixed state per sequence,
 * or nothing) and what transforms them (a dense MLP, routed experts, or
 * nothing), and lists every parameter tensor it owns as a module with its
 * transformers name, shape and tensor-parallel split. Around the stack sit
 * model-level modules (embeddings, final norms, head, projectors) and towers:
 * other stacks of blocks (an encoder, a vision or audio encoder, the
 * multi-token-prediction layers).
 *
 * Config readers (server/readers/) build this description from config.json;
 * every core module - parameter counts, weights per GPU, KV cache and
 * recurrent state, activations, throughput, parity - derives its numbers
 * from it and never from the model's name. The design follows llama.cpp's
 * per-layer hyperparameter arrays (llama-hparams.h) and vLLM v1's one cache
 * spec per layer kind (v1/kv_cache_interface.py).
 *
 * Counts are what `sum(p.numel() for p in model.parameters())` returns in
 * transformers for the class the config names: a tied embedding is counted
 * once (torch.nn.Module.parameters() yields a shared Parameter once). The description is plain data, fixed in
 * size, so the core stays allocation-free; builders in gs/arch_build.h fill
 * it.
 *
 * Error pointers written by this module are config field names
 * ("/hidden_size"); the caller prefixes where the config sits in its input.
 */
#ifndef GS_ARCH_H
#define GS_ARCH_H

#include "gs/precision.h"
#include "gs/status.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Limits of the description. The deepest published decoders have 126
 * (Llama-3.1-405B) to 118 (Nemotron-H-56B) layers; a config beyond these is
 * refused with a clear message, not truncated. Heterogeneous stacks need
 * more kinds of layer than a hybrid's two or three: Llama-3.3-Nemotron-
 * Super-49B (nemotron-nas) has 8 distinct (attention, FFN width) blocks,
 * DeepSeek-V4 one per compression ratio and routing, with MTP beside them.
 * Qwen3-Omni has five stacks beside its decoder (audio and vision encoders,
 * the talker, its code predictor, code2wav's transformer) and 33 model-level
 * modules. */
#define GS_LAYERS_MAX 512
#define GS_BLOCKS_MAX 12
#define GS_BLOCK_MODULES_MAX 32
#define GS_ARCH_MODULES_MAX 40
#define GS_TOWERS_MAX 6
#define GS_MODEL_TYPE_MAX 40
#define GS_ARCHITECTURE_MAX 64
#define GS_APPROXIMATE_MAX 1024

/* Largest value accepted for any single dimension; beyond this a config is
 * a typo, not a model, and is rejected before any arithmetic. */
#define GS_ARCH_DIM_MAX ((uint64_t)1 << 24)

/* Which component of model.breakdown a module's parameters count under. */
enum gs_part {
    GS_PART_EMBEDDING, /* token, position and token-type embeddings */
    GS_PART_ATTENTION, /* token mixers: attention, MLA, linear attention, SSM, and their norms inside */
    GS_PART_MLP,       /* dense MLPs and shared experts */
    GS_PART_EXPERTS,   /* routed experts and their routers */
    GS_PART_NORMS,     /* every norm outside the mixers */
    GS_PART_LM_HEAD,   /* 0 when tied to the embedding */
    GS_PART_OTHER,     /* poolers, embedding projections */
    GS_PART_VISION,    /* a vision encoder and its projector */
    GS_PART_AUDIO,     /* an audio encoder */
    GS_PART_MTP,       /* multi-token-prediction layers: stored, not built by transformers */
    GS_PART_COUNT
};

enum gs_module_kind {
    GS_MODULE_LINEAR,    /* nn.Linear(in, out): in*out (+ out with a bias) */
    GS_MODULE_EMBEDDING, /* nn.Embedding(in rows, out wide) */
    GS_MODULE_NORM,      /* out weights (+ out biases for LayerNorm) */
    GS_MODULE_TENSOR     /* any other parameter: in*out elements (convolutions, sinks, A_log) */
};

/* How tensor parallelism splits a module (vLLM/Megatron parallel linears). */
enum gs_split {
    GS_SPLIT_NONE,   /* replicated on every tensor rank */
    GS_SPLIT_COLUMN, /* output features split (q, gate/up, in_proj, embedding rows) */
    GS_SPLIT_ROW,    /* input features split (o_proj, down_proj, out_proj) */
    GS_SPLIT_KV,     /* k or v projection: KV heads split, replicated past the KV heads */
    GS_SPLIT_QKV     /* fused q,k,v: the q part split, the k/v parts as GS_SPLIT_KV */
};

#define GS_MOD_BIAS   (1u << 0) /* a bias (linear) or shift (LayerNorm) vector of `out` */
#define GS_MOD_EXPERT (1u << 1) /* one per routed expert (count = experts; a token uses top_k) */
#define GS_MOD_QUANT  (1u << 2) /* a linear weight formats quantize (the body's projections) */
#define GS_MOD_TOKENS (1u << 3) /* the token embedding: a lookup, not compute */
#define GS_MOD_LOOKUP (1u << 4) /* another table read by token id (Gemma's per-layer embeddings):
                                   a lookup, never active, whether or not the head is tied */
#define GS_MOD_PART                                                                                \
    (1u << 6)                   /* a part of a projection the checkpoint fuses, run apart as the   \
                                   training framework builds it (its name "fused.part"): a LoRA    \
                                   target names it by either name */
#define GS_MOD_CROSS                                                                               \
    (1u << 7) /* reads an encoder's output: a cross-attention's k or v                             \
                 projection, run over the encoder's positions */
#define GS_MOD_WRAPPED                                                                             \
    (1u << 8) /* a linear the model code builds as an nn.Module holding its nn.Linear at           \
                 `.linear` (Gemma 4's towers: Gemma4ClippableLinear clamps around it): a LoRA      \
                 target reaches the inner linear as "<name>.linear" (training.c lora_matches) */
#define GS_MOD_BUFFER (1u << 5) /* a tensor the checkpoint stores but transformers registers as a
                                   buffer (DeepSeek's e_score_correction_bias, DeepSeek-V4's
                                   tid2eid): weighed at 4 bytes an element (fp32 biases, int32
                                   tables in vLLM), counted in `buffers`, not in `total` */
#define GS_MOD_KV_OWN                                                                              \
    (1u << 9) /* a layer's own key or value projection or key norm in a model whose last layers    \
                 share an earlier layer's keys and values (Gemma 3n, Gemma 4): a KV-sharing layer  \
                 (gs_attention.kv_shared) has these in transformers' model code only in the        \
                 releases before gs_attention.kv_shared_from (est_training_model adds or drops     \
                 them by the run's release) */

#define GS_MOD_BARE                                                                                \
    (1u << 10) /* a norm without a weight (nanochat's NanoChatRMSNorm, Llama 4's L2 norm):         \
                  it normalizes - its saved tensors are a norm's - and holds no parameter */
#define GS_MOD_FP32                                                                                \
    (1u << 11) /* a parameter the checkpoint stores in fp32 and the engines keep so (DeepSeek's    \
                  inference/model.py: hyper-connection mixes, attention sinks, the router's        \
                  bias), 4 bytes an element whatever the request's format */
#define GS_MOD_FP8_ROWS                                                                            \
    (1u << 12) /* a table the checkpoint stores in fp8 e4m3 with one e8m0 scale per 32 values of a \
                  row, loaded as stored whatever the request's format (DeepSeek-V4.1's Engram      \
                  tables: a 256-wide row is 264 bytes, vLLM engram_table_bytes) */
#define GS_MOD_HOST_TABLE                                                                          \
    (1u << 13) /* an Engram table an engine may keep in host memory (gs_weights_request            \
                  host_tables): with it set, the GPU holds none of it */
#define GS_MOD_FP8_TENSOR                                                                          \
    (1u << 14) /* a table the checkpoint stores in fp8 e4m3 with one scale for the whole tensor,   \
                  loaded as stored whatever the request's format: 1 byte an element (Qwen3.8-      \
                  Flash-Next's n-gram table in its FP8 and NVFP4 releases, which vLLM and SGLang   \
                  keep in fp8 and dequantize a looked-up row at a time) */

struct gs_module {
    const char *name;  /* transformers' attribute name ("q_proj"); static storage */
    uint8_t kind : 4;  /* enum gs_module_kind */
    uint8_t split : 4; /* enum gs_split */
    uint8_t part;      /* enum gs_part */
    uint16_t flags;    /* GS_MOD_* */
    /* 32-bit so a block of 32 modules stays small (the server keeps a description of every
     * catalog model, and each request one): every dimension is within GS_ARCH_DIM_MAX and
     * the builders refuse (arch->overflow) a value past UINT32_MAX */
    uint32_t in, out;  /* see enum gs_module_kind */
    uint32_t count;    /* instances; routed experts: the number of experts */
};

enum gs_mixer {
    GS_MIXER_NONE,      /* an MLP-only layer (Nemotron-H '-') */
    GS_MIXER_ATTENTION, /* MHA/GQA/MQA with an explicit head_dim */
    GS_MIXER_MLA,       /* DeepSeek's multi-head latent attention */
    GS_MIXER_RECURRENT  /* linear attention (Gated DeltaNet) or a Mamba mixer: a state per sequence */
};

enum gs_span {
    GS_SPAN_FULL,    /* every earlier token */
    GS_SPAN_SLIDING, /* the last `window` tokens */
    GS_SPAN_CHUNKED  /* tokens of the same `window`-token chunk (Llama 4 local layers) */
};

/* How an attention gates its output before o_proj (gs_attention.output_gate). */
enum gs_output_gate {
    GS_GATE_NONE,
    GS_GATE_SIGMOID,      /* attn_output * sigmoid(gate) (Qwen3-Next's and Qwen3.5's second half
                             of q_proj, Muse Glimmer's gate_proj, Step 3.5's g_proj a head) */
    GS_GATE_SOFTPLUS_FP32 /* attn_output * softplus(gate.float()).to(dtype) (Laguna's g_proj) */
};

struct gs_attention {
    uint64_t heads, kv_heads;
    uint64_t head_dim;       /* query/key width per head */
    uint64_t v_head_dim;     /* value width per head (= head_dim but for MLA) */
    uint8_t span;            /* enum gs_span */
    uint64_t window;         /* sliding window or chunk, tokens */
    bool cached;             /* false: bidirectional encoder attention, no KV cache */
    bool cross;              /* the layer also attends to an encoder's output through a second
                                attention of the same shape, cached over the encoder tokens */
    bool cross_only;         /* with `cross`: the layer attends only to the encoder's output
                                (Mllama's cross-attention layers), caching no text tokens */
    bool nope;               /* no rotary embedding on this layer (NoPE); memory is unchanged */
    bool qkv_views;          /* the model's code splits one fused QKV projection's output into
                                views (Phi3Attention's qkv[..., :query_pos] slices, GPT-NeoX's
                                chunk, Qwen-1's split): a V that reaches the attention kernel as
                                such a view keeps the whole output alive (training); in MLA,
                                V is split from kv_b_proj's output beside the no-rope keys */
    bool rotary_partial;     /* the model's code rotates the first rotary_dim values of each
                                head and concatenates the rest back (transformers
                                apply_rotary_pos_emb with partial_rotary_factor or rotary_dim:
                                torch.cat([q_embed, q_pass], dim=-1)), so Q reaches the
                                attention kernel as a new contiguous (batch, heads, seq, dim)
                                tensor (training) */
    bool kv_shared;          /* the layer attends over an earlier layer's keys and values
                                (Gemma 3n/4 num_kv_shared_layers; vLLM kv_sharing_target_layer_name):
                                it caches nothing of its own */
    uint32_t kv_shared_from; /* with kv_shared: the transformers release (GS_HF_RELEASE) from
                                which the layer takes the earlier layer's K and V in training too
                                (Gemma 4 5.5.2, PR #45312; Gemma 3n 5.6.0, PR #45489); before it,
                                run without a cache, it computed its own */
    bool v_norm;             /* the model normalizes V per head with an RMSNorm that has no
                                weight (Gemma 3n's and Gemma 4's v_norm, with_scale=False), which
                                keeps its input's fp32 copy in training (no parameter to list)
                                wherever the layer computes its own V */
    bool qk_norm_bare;       /* the same weightless RMSNorm over each head of Q and of K (Muse
                                Glimmer's qk_norm, MuseGlimmerRMSNorm(with_scale=False)): an
                                fp32 copy of each in training */
    uint8_t output_gate;     /* enum gs_output_gate: the attention's output is multiplied by a
                                gate before o_proj; training keeps the gate and the product */
    bool output_gate_per_head; /* one gate value a head, not a channel */
    bool position_bias;        /* the layer computes a dense bias over every (query, key) pair of
                                  each head and adds it to the scores (Inkling's
                                  InklingRelativeLogits: no rotary embedding): under transformers'
                                  SDPA it is the float mask of a masked call, which the kernel keeps
                                  for its gradient (training) */
    /* multi-head latent attention */
    uint64_t q_lora_rank, kv_lora_rank, qk_nope_head_dim, qk_rope_head_dim;
    /* DeepSeek sparse attention: a lightning indexer with its own key cache (also on GQA
     * attention blocks: MiniMax-M3, one bf16 key of index_head_dim per token) */
    uint64_t index_heads, index_head_dim, index_topk;
    uint64_t index_block; /* tokens one selected entry spans where the indexer scores and picks
                             blocks (MiniMax-M3's sparse_block_size: index_topk is
                             sparse_topk_blocks of them); 0 = one token (DeepSeek) */
    uint64_t index_pool;  /* tokens one indexer key stands for where the indexer gates every
                             index_pool consecutive keys into one before caching it (GLM-5.3-Flash's
                             index_kpool with index_kpool_compress: vLLM's Glm5NextIndexerCache
                             keeps one key a pool, tokens_per_state = index_kpool; Qwen3.8-Flash-
                             Next's QSA indexer beside GQA attention, indexer_compress_ratio: the
                             mean of each pool's keys, scored and cached); 0 = a key a token */
    /* DeepSeek-V4 (an MLA block with a sliding window): besides the last `window` tokens the
     * layer caches one compressed entry per `compress_ratio` tokens over the whole context,
     * and its indexer (index_heads) one key per compressed entry; 0 = the window only */
    uint64_t compress_ratio;
    /* DeepSeek-V4.1: a layer that reads an earlier KV source's compressed cache (one entry per
     * read_ratio tokens, compress_ratios[l]) without writing one, attending index_topk of its
     * entries (read_topk) beside its window; 0 = none. Such a layer holds no compressed entries,
     * and an indexer on it (index_keys_shared) scores the source's keys without keeping any */
    uint64_t read_ratio, read_topk;
    bool index_keys_shared;
    uint64_t index_candidates; /* the keys the layer's indexer scores at most: DeepSeek-V4.1's
                                  indexers after candidate_source_layer_id score within the
                                  candidate_topk_blocks x candidate_block_size positions that
                                  layer selected; 0 = every key */
};

/* A fixed-size state per sequence (vLLM's MambaSpec): a causal-convolution
 * window and a recurrent state. Set on GS_MIXER_RECURRENT blocks, and on
 * attention blocks of parallel hybrids that run a Mamba mixer beside
 * attention in the same layer (Falcon-H1). */
struct gs_recurrent {
    uint64_t conv_channels, conv_kernel; /* conv state: channels x (kernel - 1) */
    uint64_t state_heads;                /* the recurrent state: heads x rows x cols */
    uint64_t state_rows, state_cols;
    uint64_t in_width;                   /* in_proj output per token (activations) */
    uint64_t inner;                      /* the width out_proj reads (activations) */
    uint64_t dt_rank;                    /* Mamba v1: x_proj's time-step rank (dt_proj's input) */
    uint64_t chunk;                      /* Mamba2: the SSD scan's chunk length (the config's
                                            chunk_size; 0 = 256, Mamba2Config's default) */
    bool fp32_state;                     /* the recurrent state is kept in fp32 */
    uint8_t config_state_bytes;          /* bytes an element of the recurrent state the config
                                            names (mamba_ssm_dtype, mamba_ssm_cache_dtype: 4
                                            float32, 2 bfloat16 or float16); 0 where it names
                                            none and each engine keeps its own default */
    uint8_t cache_dtype_bytes;           /* ... the same named by mamba_ssm_cache_dtype alone (the
                                            key TensorRT-LLM reads), 0 where absent */
    bool ssm_flag_ignored;               /* vLLM's --mamba-ssm-cache-dtype does not reach this
                                            state: Kimi Delta Attention's (fp32 always), a
                                            lightning layer's or ZAYA CCA's single state
                                            (mamba_utils.py kda_state_dtype,
                                            linear_attention_state_dtype, cca_state_dtype take
                                            no ssm dtype) */
    bool delta_rule;                     /* a gated delta-rule mixer (Gated DeltaNet, Kimi Delta
                                            Attention) rather than a selective SSM (Mamba) */
    bool mamba2;                         /* a Mamba-2 (SSD) mixer, whose state shape vLLM works out
                                            in MambaStateShapeCalculator.mamba2_state_shape */
    uint8_t scan;                        /* enum gs_scan: whose code the training count follows */
    bool padded_unfused;                 /* a padded batch leaves the fused training path
                                            (Nemotron-H's input_not_masked) */
    bool norm_whole;                     /* the torch path's gated RMSNorm normalizes the whole
                                            inner width (MambaRMSNormGated, BambaRMSNormGated:
                                            one rstd a token), not each B/C group
                                            (Zamba2RMSNormGated, FalconH1RMSNormGated) */
    bool conv_fp32;                      /* the short convolutions run over an fp32 copy of
                                            their input, which the convolution keeps (Inkling's
                                            InklingShortConvolution: hidden_states.float()) */
    bool kernels_off;                    /* the config turns the fused kernels off (Jamba's
                                            use_mamba_kernels false): transformers runs its torch
                                            fallback unless the request asks for the kernels */
    uint64_t tensor_groups;              /* the mixer's output norm normalizes in this many groups,
                                            which tensor ranks split whole (Bailing's g_norm,
                                            group_norm_size: vLLM BailingMoELinearAttention asserts
                                            group_norm_size % tp_size == 0): tensor parallelism
                                            must divide it; 0 = no such limit */
};

/* What training counts of a recurrent mixer's scan. */
enum gs_scan {
    GS_SCAN_PROJECTIONS,      /* its projections, conv and out_proj input only: the scan's own
                                 saved tensors are not counted (the estimate warns) */
    GS_SCAN_GATED_DELTA_RULE, /* transformers' Qwen3_5GatedDeltaNet: causal conv, fla's
                                 chunk_gated_delta_rule or the torch fallback
                                 torch_chunk_gated_delta_rule, the eager gated RMSNorm
                                 (activation.c gated_delta_bytes) */
    GS_SCAN_MAMBA2_COMBINED,  /* transformers' Mamba2-family mixers that train through mamba-ssm's
                                 mamba_split_conv1d_scan_combined (conv, scan, gated RMSNorm and
                                 out_proj in one autograd Function: activation.c
                                 mamba2_combined_bytes); Nemotron-H over a padded batch runs the
                                 kernels one by one (mamba2_chunked_bytes) and, without mamba-ssm,
                                 torch_forward's naive chunked SSD (mamba2_naive_bytes) */
    GS_SCAN_GATED_DELTA_NEXT, /* transformers' Qwen3NextGatedDeltaNet with flash-linear-attention:
                                 q and k repeated to the value heads before fla's
                                 chunk_gated_delta_rule, fla's FusedRMSNormGated (activation.c
                                 gated_delta_bytes); its older torch fallback is not counted */
    GS_SCAN_MAMBA1_INNER,     /* transformers' MambaMixer, which trains through mamba-ssm's
                                 mamba_inner_fn (conv, x_proj, dt_proj, scan and out_proj in one
                                 autograd Function: activation.c mamba1_inner_bytes); its
                                 sequential torch fallback is not counted */
    GS_SCAN_MAMBA1_SELECTIVE, /* transformers' JambaMambaMixer: causal-conv1d's causal_conv1d_fn,
                                 x_proj, the dt/B/C RMSNorms, dt_proj and mamba-ssm's
                                 selective_scan_fn as separate ops (activation.c
                                 mamba1_selective_bytes); its torch fallback is not counted, nor
                                 autocast over fp32 weights, which the scan kernel refuses */
    GS_SCAN_KIMI_DELTA,       /* transformers' KimiLinearDeltaAttention (models/kimi_linear):
                                 causal-conv1d over the concatenated q, k and v, the per-channel
                                 forget gate, fla's chunk_kda, the eager sigmoid-gated RMSNorm
                                 (activation.c kimi_delta_bytes), or without them its torch
                                 functions (causal_conv1d_fn's F.conv1d, torch_chunk_kda) */
    GS_SCAN_SHORT_CONV,       /* a gated short convolution and no scan (transformers' Lfm2ShortConv:
                                 in_proj to B, C and x, B * x, a depthwise causal conv, C * y,
                                 out_proj), whose saved tensors are its widths: in_width (B, C and
                                 x, alive as views the products keep), conv_channels (the conv's
                                 input) and inner (its output and out_proj's input) */
};

enum gs_mlp_kind { GS_MLP_NONE, GS_MLP_DENSE, GS_MLP_MOE };

/* What an MLP's activation function keeps for backward in eager PyTorch, by the function
 * the config names (hidden_act, activation_function, feed_forward_proj). */
enum gs_act {
    GS_ACT_SAVES_INPUT, /* one ATen op that saves its input: silu, gelu, gelu(approximate=
                           "tanh"), quick_gelu's sigmoid path... (the default) */
    GS_ACT_TANH_CHAIN,  /* transformers' NewGELUActivation: the tanh formula in Python ops,
                           each keeping its tensors (gelu_new) */
    GS_ACT_FAST_GELU,   /* transformers' FastGELUActivation: the same formula written with
                           products in place of pow (gelu_fast) */
    GS_ACT_QUICK_GELU,  /* transformers' QuickGELUActivation: x * sigmoid(1.702 * x) */
    GS_ACT_XIELU,       /* transformers' XIELUActivation in Python (xielu: Apertus) */
    GS_ACT_RELU,        /* relu saves its output, which the next op keeps anyway */
    GS_ACT_RELU2,       /* relu then square: relu's output, which square keeps (relu2) */
    GS_ACT_GPT_OSS_GLU, /* GPT-OSS's experts (modeling_gpt_oss.py GptOssExperts._apply_gate):
                           clamped gate and up, gate * sigmoid(gate * alpha), (up + 1) * glu */
    GS_ACT_COUNT
};

struct gs_mlp {
    uint8_t kind;          /* enum gs_mlp_kind */
    uint8_t act;           /* enum gs_act */
    bool gated;            /* SwiGLU/GeGLU: gate, up, down */
    uint64_t width;        /* dense width, or each routed expert's */
    uint64_t experts, top_k;
    uint64_t zero_experts; /* identity experts the router also scores (gs_moe.zero_experts) */
    uint64_t shared_width; /* shared experts as one MLP of this width; 0 = none */
    bool shared_gated;     /* the shared expert's output is scaled by sigmoid(Linear(h, 1))
                              (Qwen-MoE's shared_expert_gate) */
    bool router_fp32;      /* the router runs F.linear(hidden_states.type(torch.float32),
                              self.weight.type(torch.float32)) (DeepSeek-V3, GLM-4.5) */
    bool experts_fused;    /* gs_moe.experts_fused: 3D expert parameters in 4.x releases too */
    bool router_parameter; /* gs_moe.router_parameter: the router's weight is a bare parameter,
                              which no LoRA target adapts */
    uint32_t router_linear_from, router_linear_until; /* gs_moe's: the transformers releases
                              whose router is an nn.Linear (training.c router_bare) */
};

/* One kind of layer. */
struct gs_block {
    uint8_t mixer;         /* enum gs_mixer */
    struct gs_attention attn;
    struct gs_recurrent rec;
    struct gs_mlp mlp;
    bool parallel_residual; /* attention and MLP both read the layer's input (through their
                               norms) and add to it (GPTNeoXLayer with use_parallel_residual,
                               Falcon's parallel_attn or new architecture, Phi, Cohere,
                               StableLM's use_parallel_residual), rather than the MLP reading
                               the attention's residual sum */
    bool norms_share_input; /* parallel residual with a norm per branch, each over the layer's
                               input (GPTNeoXLayer with use_parallel_residual, Falcon's ln_attn
                               and ln_mlp): a norm that saves its input saves the same tensor */
    bool clamped_linears;   /* its wrapped linears (GS_MOD_WRAPPED) clamp their input and their
                               output between tensor bounds (Gemma4ClippableLinear with
                               use_clipped_linears): training keeps both clamps' inputs */
    uint8_t gated_branches; /* branches whose output a scalar parameter's tanh scales before
                               the residual sum (Mllama's cross-attention layers:
                               cross_attn_attn_gate.tanh() * hidden_states, and the MLP's
                               cross_attn_mlp_gate; its global vision layers' gate_attn and
                               gate_ffn): where the gate trains, the product keeps the branch's
                               output for the gate's gradient */
    size_t module_count;
    struct gs_module modules[GS_BLOCK_MODULES_MAX];
};

/* How a vision tower runs a micro-batch's images. */
enum gs_mm_layout {
    GS_MM_PER_IMAGE,    /* each image a sequence of its own, its tokens setting its patches
                           (Qwen-VL: cu_seqlens, merge^2 patches a token) */
    GS_MM_CROPS,        /* each image whole crops of exactly `tokens` tokens (crop_tokens where
                           set), each a sequence of `patches` of its own (Gemma 3: the image and
                           its pan-and-scan crops, each image_size square, mm_tokens_per_image
                           tokens; Llama 4: its tiles and the global tile, 144 tokens each) */
    GS_MM_ONE_SEQUENCE, /* every image of the micro-batch concatenated into one sequence, kept
                           apart by a block-diagonal additive mask under SDPA and eager attention
                           and by cu_seqlens under flash-attn (transformers' PixtralVisionModel) */
    GS_MM_PADDED_ROW,   /* each image one batch row of `patches` positions whatever its tokens
                           (Gemma 4: the processor pads every image's patches to max_soft_tokens
                           x pooling_kernel_size^2, positions -1, and the tower masks the
                           padding); `tokens` is the processor's default budget of soft tokens */
    GS_MM_CROSS_TILES   /* each image its processor's every tile, padded ones included, run as
                           one sequence of `patches` + class_positions positions under an additive
                           mask through encoder towers that activation checkpointing does not
                           reach, read by the decoder's cross-attention layers rather than placed
                           in the text, where the image is one token (Llama 3.2 Vision) */
};

/* One multimodal item at the largest size its processor accepts. Where the processor's largest
 * item is not read but the tower's forward is (Qwen3-Omni), `tokens` is 0 and `patches` and
 * `pixels` are one token's: the patches merged into it and their pixel values. */
struct gs_mm_item {
    uint64_t tokens;  /* its embeddings, the prompt tokens it takes; 0 = none read */
    uint64_t pixels;  /* pixel values the processor hands the encoder */
    uint64_t patches; /* the vision tower's sequence: patches before merging (0: the tower's
                         forward is not modelled for this model) */
    uint8_t layout;   /* enum gs_mm_layout: how the tower runs the images */
    /* GS_MM_CROPS where the item is several crops: the tokens one crop yields, `patches` and
     * `pixels` being the whole item's (Llama 4: 144 a tile of its 17-tile image); 0: `tokens`,
     * the item one crop */
    uint64_t crop_tokens;
    /* positions the tower adds to each sequence beyond its patches, which carry no pixels
     * (Llama 4's class embedding, torch.cat([patches, class_embedding]): 1; Llama 3.2 Vision's
     * class embedding and padding to a multiple of 8 in each of its 4 tiles: 32) */
    uint8_t class_positions;
    /* the tower takes the pixel values in the model's dtype, uncast (Llama4UnfoldConvolution's
     * nn.Linear: the batch must bring them so), not the processor's fp32 */
    bool pixels_model_dtype;
    /* the tower's 2-D position table, position_table positions an axis, read through a one-hot
     * matmul in the transformers releases before position_one_hot_until (Gemma 4 before 5.10.1:
     * F.one_hot(positions).to(table) @ table, replaced by F.embedding in PR #46176), whose
     * one-hot the matmul keeps for the table's gradient; 0: none */
    uint64_t position_table;
    uint32_t position_one_hot_until;
    /* the positions the decoder's cross-attention layers (attn.cross_only) read an image at: its
     * every tile's, padded ones included, class embedding's and patches' (Llama 3.2 Vision: 4 x
     * 1,601, the vision model's output with its padding sliced off); 0 where the image is placed
     * in the text */
    uint64_t cross_positions;
};

/* A stack of `layers` identical blocks outside the decoder: an encoder
 * (counted in its modules' own parts), a vision or audio tower, the MTP
 * layers (counted under `part`). */
struct gs_tower {
    const char *name;
    uint8_t block;
    uint8_t part;        /* GS_PART_COUNT: each module's own part */
    uint64_t layers;
    bool encoder;        /* the decoder's cross-attention reads its output */
    uint64_t positions;  /* the positions an encoder runs a sample whatever the decoder's length
                            (Whisper: max_source_positions, its 3,000 mel frames halved by
                            conv2's stride); 0: the request's sequence length (T5's inputs) */
    uint64_t conv_channels; /* an audio front-end before the encoder's layers: two 3-wide
                               convolutions with a GELU after each, the first over this many
                               input channels (mel bins) at 2 x positions frames, the second of
                               stride 2 (WhisperEncoder.forward: gelu(conv1(x)), gelu(conv2(.)));
                               0: none */
};

/* How the published checkpoint stores its weights, from the config's
 * torch_dtype and quantization_config; sizing uses it when a request names
 * no precision. */
struct gs_checkpoint {
    bool quantized;          /* a quantization_config gpusizer can size */
    uint8_t format;          /* enum gs_weight_format */
    uint64_t group_size;     /* GPTQ/AWQ */
    bool experts_only;       /* only routed experts are quantized (gpt-oss mxfp4) */
    uint16_t unquantized_parts; /* 1 << enum gs_part: parts the scheme's ignore/exclude list keeps
                                   at the checkpoint dtype (NVFP4 releases' self_attn, dense
                                   MLPs); embeddings, head, norms and routers never quantize */
    bool unquantized_shared_experts; /* the list keeps the shared experts ("*.shared_experts*")
                                        but not, by that entry, the dense MLPs beside them
                                        (GLM-5.3-Flash-NVFP4: layers 0-2's MLPs are NVFP4) */
    char unquantized_modules[96]; /* attention projections the list names one by one, ","
                                     before and after each ("," "kv_b_proj" "," "q_a_proj" ",") */
    uint8_t unquantized_mtp_layers; /* the MTP layers the list keeps whole at the checkpoint
                                       dtype ("mtp*": NVIDIA's NVFP4 releases of Qwen3.5 and
                                       Nemotron 3.5): bit i layer i (0-7; a later layer named
                                       alone is not kept), UINT8_MAX every layer */
    char detail[256];        /* what the config says, for the assumption; also set (with
                                quantized false) for a quantization_config gpusizer cannot size */
    /* A mixed-precision checkpoint (ModelOpt MIXED_PRECISION's quantized_layers: Qwen3.6's
     * NVFP4 releases store attention in FP8 beside NVFP4 MLPs and head): 1 << enum gs_part for
     * each part whose body linears (and head) it stores in part_format[part]; served as
     * stored, every other linear stays at the checkpoint dtype (vLLM
     * ModelOptMixedPrecisionConfig.get_quant_method: a layer quantized_layers does not list is
     * unquantized). 0: `format` rules as above. */
    uint16_t mixed_parts;
    uint8_t part_format[GS_PART_COUNT]; /* enum gs_weight_format */
};

/* A rotary cos/sin table a serving engine builds when it creates the model
 * and keeps on every GPU: vLLM's get_rope makes one per distinct rope
 * (head size, rotary dim, max_position, scaling, dtype), shared by the layers
 * that use it (rotary_embedding/__init__.py _ROPE_DICT), of `rows` positions
 * x `dim` values (cos and sin, rotary_dim / 2 each; RotaryEmbeddingBase.
 * _compute_cos_sin_cache). Read from the config by models_read. */
struct gs_rope_table {
    uint64_t rows; /* positions the table covers (by rope scaling type) */
    uint64_t dim;  /* the rotary dimension */
};

#define GS_ROPE_TABLES_MAX 2

struct gs_arch {
    char model_type[GS_MODEL_TYPE_MAX]; /* as the config names it; shown, never branched on */
    char architecture[GS_ARCHITECTURE_MAX]; /* architectures[0] as the config names it
                                               ("Qwen3ForCausalLM"); "" when it names none. Read
                                               only where an engine selects by class name
                                               (vLLM's Model Runner V2 lists, 0.22-0.24; its
                                               classes that declare
                                               SupportsMambaPrefixCaching; SGLang's Mamba
                                               radix-cache strategies) */
    char read_as[GS_MODEL_TYPE_MAX];    /* the layout it was read as, when the reader had to
                                           go by architectures[0]; "generic" for the reader of
                                           last resort; "" otherwise */
    char approximate[GS_APPROXIMATE_MAX]; /* why the counts are approximate (the generic reader
                                             and the keys it left out); "" when exact */
    struct gs_checkpoint checkpoint;
    uint64_t hidden_size;
    uint64_t vocab_size;
    uint64_t max_position_embeddings;   /* 0 when the config does not say */
    uint64_t max_model_len;             /* the longest context vLLM accepts by default:
                                           max_position_embeddings, times a linear, dynamic
                                           or yarn rope_scaling factor; 0 = unknown */
    bool tie_word_embeddings;
    bool logits;                        /* the model ends in vocabulary logits (not encoder-only) */
    uint64_t drafts_for_hidden;         /* a drafter that runs only beside its target, reading the
                                           target's KV cache (layers with q projections alone) and
                                           the target's hidden states of this width (Gemma 4's
                                           assistants: pre_projection 2 x this -> hidden); 0 for a
                                           model that runs on its own */
    bool draft_gathers_head;            /* as a vLLM drafter it keeps a whole gathered copy of its
                                           vocabulary-split head on every tensor rank past one
                                           (Gemma4MTP's centroid path, _get_full_lm_head_weight) */
    bool attention_dropout;             /* non-zero attention-probability dropout */
    bool hidden_dropout;                /* non-zero residual/hidden dropout */
    bool embedding_dropout;             /* non-zero dropout on the token embedding's output
                                           (GPT-2's and Phi's embd_pdrop, StarCoder2's
                                           embedding_dropout; BERT, T5 and GPT-NeoX reuse
                                           their hidden dropout there, Llama-style decoders
                                           and OPT have none) */
    bool residual_fp32;                 /* the blocks add into an fp32 residual stream whatever
                                           the weights' dtype (MambaConfig's and Mamba2Config's
                                           residual_in_fp32, true by default): each layer after
                                           the first takes an fp32 input */
    bool norm_weight_fp32;              /* its RMSNorm multiplies the weight in fp32 and casts
                                           after (Olmo2RMSNorm, GptOssRMSNorm), so the weight's
                                           gradient keeps the fp32 normalized tensor */
    bool mlp_dropout;                   /* dropout inside the MLP, before the down projection
                                           (T5's dropout_rate, Whisper's activation_dropout) */
    /* DiffusionGemma: canvas_length, the tokens a request denoises at once (vLLM keeps a
     * self-conditioning embedding and a structured-output bitmask of that many rows a request
     * slot, gs_vllm_diffusion_buffer_bytes, and its sampler reads that many rows of logits a
     * request); 0 for autoregressive models */
    uint64_t diffusion_canvas;
    const char *training_refusal;       /* why no training of the type is sized (static
                                           storage; NULL: training is sized): a model no
                                           training framework builds (DeepSeek-V4.1) */
    bool attention_eager_only;          /* transformers has no fused attention path for the
                                           type (a bias added to the scores: T5) */
    bool attention_no_sdpa;             /* transformers has no SDPA path for the type, which
                                           then runs eager by default; flash and flex paths
                                           exist (GPT-OSS's attention sinks) */
    bool eager_sink_lse;                /* its eager attention applies the sinks after the
                                           softmax as sigmoid(logsumexp(scores) - sink) x output
                                           (GraniteSWA's eager_attention_forward): logsumexp
                                           keeps the masked scores, the scaling the unscaled
                                           output */
    bool eager_softmax_native;          /* its eager attention runs softmax at the scores' dtype
                                           (GPT-2's and BERT's eager_attention_forward), not
                                           upcast to fp32 as Llama's and T5's are */
    bool attn_logit_softcap;            /* eager attention soft-caps its scores, tanh(s / c) x c
                                           (Gemma 2's attn_logit_softcapping): tanh keeps its
                                           output for backward */
    bool final_logit_softcap;           /* the model soft-caps its logits the same way (Gemma 2,
                                           3n and 4's final_logit_softcapping): a kept tanh
                                           output of the logits' size */
    bool overflow;                      /* a builder ran out of room: refused by validation */
    /* a model with a vision tower: its config's vision_config.num_hidden_layers and hidden_size
     * read literally (24 and 1024 when missing), as SGLang's adjust_mem_fraction_for_vlm reads
     * them (gs/sglang.h); 0 without a vision_config */
    uint64_t vision_config_layers, vision_config_hidden;
    /* the largest image and the largest video the model's processor accepts, the dummies
     * vLLM's V1 profile run chooses between (MultiModalBudget: the modality with the most
     * tokens per item); tokens 0 where not read */
    struct gs_mm_item mm_image, mm_video;
    /* elements of one encoder output row (0: hidden_size); Qwen3-VL's rows concatenate the
     * merger's output and its DeepStack levels' (qwen3_vl.py _process_image_input) */
    uint64_t mm_embed_width;
    uint64_t mm_deepstack;     /* DeepStack levels among the row's parts */
    uint64_t mm_patch_kept;    /* elements per patch the vision tower keeps through its forward
                                  (Qwen3-VL's interpolated position embeddings: its width) */
    bool mm_video_timestamps;  /* a video's prompt puts "<t seconds>" text before each frame
                                  group (Qwen3VLProcessor), which vLLM 0.11 budgets as 12.5 tokens
                                  per embedding */
    bool mm_video_fills_context; /* mm_video is one group of two frames at the largest image size,
                                    and the largest video has as many groups as fit the context
                                    (Qwen2-VL's processing: frames counted until max_model_len) */
    /* the decoder stack */
    uint64_t num_hidden_layers;
    uint8_t layer_block[GS_LAYERS_MAX];
    uint64_t block_layers[GS_BLOCKS_MAX]; /* layers of each block, kept by the builders */
    /* the copies of each block's weights the model stores, where its layers share them (0: one
     * a layer, as in most models): Zamba2's shared transformer blocks, applied at every hybrid
     * layer with one set of weights per num_mem_blocks (modeling_zamba2.py Zamba2Model.__init__
     * builds the blocks once and hands the same module to each layer); the weights, their
     * gradients, optimizer states and LoRA adapters count the copies, activations and the KV
     * cache every layer (gs_arch_count_weight_blocks) */
    uint64_t block_weight_layers[GS_BLOCKS_MAX];
    size_t block_count;
    struct gs_block blocks[GS_BLOCKS_MAX];
    size_t tower_count;
    struct gs_tower towers[GS_TOWERS_MAX];
    size_t module_count;                 /* model-level modules */
    struct gs_module modules[GS_ARCH_MODULES_MAX];
    /* the decoder's rotary tables (a Gemma 3 global and local rope: two); none without rope */
    size_t rope_table_count;
    struct gs_rope_table rope_tables[GS_ROPE_TABLES_MAX];
    /* the decoder's rope is multimodal (M-RoPE, rope_scaling.mrope_section: t/h/w positions):
     * vLLM builds table 0 as an MRotaryEmbedding, over 4 x its rows (rotary_embedding/mrope.py
     * MRotaryEmbedding.__init__: cache_max_position_num = max_position_embeddings * 4) */
    bool rope_mrope;
    /* elements per scheduled token of the buffers vLLM's model allocates when it is created and
     * keeps, so "Model loading took" includes them: Qwen3-VL's DeepStack input embeddings,
     * max_num_batched_tokens x text hidden_size per DeepStack level in the model dtype; Gemma 3n's
     * and Gemma 4's multimodal wrappers' per-layer inputs, layers x hidden_size_per_layer_input; 0
     * for most models */
    uint64_t token_buffer_width;
    uint32_t token_buffer_since; /* the vLLM release (gs_vllm version) from which the model
                                    allocates them; 0: every release that serves it */
    /* DeepSeek-V4 and V4.1: elements per scheduled token of the residual streams before the final
     * hyper-connection head that vLLM's model keeps for an MTP draft (_mtp_hidden_buffer,
     * max_num_batched_tokens x hc_mult x hidden_size, model dtype, last pipeline stage; when,
     * gs_vllm_sparse_buffer_bytes); 0 for other models */
    uint64_t mtp_hidden_width;
    /* DeepSeek-V4.1: candidate_topk_blocks where candidate_source_layer_id is set (vLLM's
     * candidate_block_buffer, gs_vllm_sparse_buffer_bytes), and its Engram layers' (the blocks
     * holding a GS_MOD_HOST_TABLE lookup) hash columns a token, (engram_max_ngram_size - 1) x
     * engram_n_heads, of engram_head_dim values each (vLLM's staged rows,
     * gs_vllm_engram_staging_bytes); 0 for other models */
    uint64_t candidate_blocks;
    uint64_t engram_hash_cols, engram_head_dim;
};

/* Parameter counts by component; the components but `mtp` and `buffers` sum to `total`. */
struct gs_param_count {
    uint64_t total;
    uint64_t embedding;
    uint64_t attention;
    uint64_t mlp;
    uint64_t experts;
    uint64_t norms;
    uint64_t lm_head;
    uint64_t other;
    uint64_t vision;
    uint64_t audio;
    uint64_t mtp;       /* stored in the checkpoint beyond `total` (transformers skips them) */
    uint64_t buffers;   /* elements of checkpoint tensors transformers registers as buffers
                           (GS_MOD_BUFFER), outside `mtp`: stored and weighed, not in `total` */
    uint64_t active;    /* used per token, as MoE model cards count "activated" parameters
                           (DeepSeek-V3: 671B total, 37B activated): routed experts beyond top-k, an
                           untied input embedding and vision/audio towers excluded */
    uint64_t largest_module; /* parameters of the largest single module (ZeRO-3 gathers it whole) */
};

/* How a framework assigns decoder layers to pipeline stages (the first stage
 * also holds the embedding, the last the final norm and the head):
 * - VLLM (the zero value): vllm/distributed/utils.py get_pp_indices, L / p
 *   each and the remainder one layer each to the stages before the last
 *   (SGLang's get_pp_indices is the same);
 * - DIVIDES: L / p each, and p must divide L (a framework without a splitter
 *   of its own);
 * - TRTLLM: tensorrt_llm/mapping.py pp_layers, torch.tensor_split: L / p
 *   each and the remainder one layer each to the first stages;
 * - MEGATRON: L / p each when p divides L (transformer_block.py
 *   get_num_layers_to_build); otherwise the first and last stages take what
 *   the even middle stages leave (--decoder-first-pipeline-num-layers and
 *   --decoder-last-pipeline-num-layers, each at least one layer), chosen so
 *   that no stage holds more than it must, the first the smaller share;
 * - TORCHTITAN: torchtitan/distributed/pipeline_parallel.py
 *   _generate_llm_fqn_per_model_part with its defaults
 *   (pipeline_parallel_first_stage_less_layers and ..._last_stage_less_layers
 *   1): the embedding and the head each count as one layer, (L + 2) / p
 *   slots a stage and the remainder one more each to the first stages;
 * - GIVEN: the counts a request lists, stage by stage (vLLM's
 *   VLLM_PP_LAYER_PARTITION, SGLang's SGLANG_PP_LAYER_PARTITION, Megatron-LM's
 *   --pipeline-model-parallel-layout, torchtitan's module_fqns_per_model_part):
 *   as many as the stages, summing to L; only the first and the last may be
 *   0 (a stage of the embedding alone, or of the head alone). */
enum gs_stage_split {
    GS_SPLIT_VLLM,
    GS_SPLIT_DIVIDES,
    GS_SPLIT_MEGATRON,
    GS_SPLIT_TORCHTITAN,
    GS_SPLIT_TRTLLM,
    GS_SPLIT_GIVEN,
    GS_SPLIT_DEVICE_MAP /* transformers' device_map="auto": by the modules' bytes, which only
                           the training estimate knows (gs/device_map.h); it lists the counts
                           as GIVEN, and until then the layers fall as TRTLLM's */
};

/* A split rule, with the counts GS_SPLIT_GIVEN places, and the model chunks a stage runs
 * under an interleaved schedule (Megatron-LM --num-virtual-stages-per-pipeline-rank, formerly
 * --virtual-pipeline-model-parallel-size): chunk c of stage s is the (c p + s)-th of the p x
 * chunks virtual stages. Under a rule each stage's layers, as the rule places them, fall into
 * `chunks` equal chunks (Megatron-LM transformer_layer.py get_transformer_layer_offset: chunk
 * c of stage s starts at c L / chunks + the earlier stages' layers / chunks); listed, `given`
 * holds the p x chunks virtual stages' counts in that order (Megatron-LM
 * --pipeline-model-parallel-layout: pipeline_parallel_layer_layout.py reads its list as
 * layout[vpp_rank * pp_size + pp_rank]). A stage's layers are then its chunks', and the
 * [first, end) of gs_stage_range and gs_stage_bounds span their count, not their places. */
#define GS_STAGES_GIVEN_MAX 128
#define GS_STAGE_CHUNKS_MAX 64
struct gs_stage_plan {
    enum gs_stage_split split;
    uint32_t given_count;                /* GS_SPLIT_GIVEN: stages listed (x chunks) */
    uint16_t given[GS_STAGES_GIVEN_MAX]; /* GS_SPLIT_GIVEN: each (virtual) stage's decoder
                                            layers */
    uint16_t chunks;                     /* model chunks a stage; 0 and 1: one (no interleaving) */
};

/* The model chunks a stage runs under `plan` (1 without interleaving). */
uint64_t gs_stage_chunks(const struct gs_stage_plan *plan);

/* Whether every stage's layers, as `bounds` (gs_stage_bounds) gives them for `stages` stages,
 * fall into the plan's chunks evenly (Megatron-LM transformer_block.py get_num_layers_to_build
 * asserts it); a listed plan lists its chunks. */
bool gs_stage_chunks_fit(const struct gs_stage_plan *plan, const uint64_t *bounds, uint64_t stages);

/* Decoder layers [first, end) of chunk `chunk` of stage `stage`, from the stages' `bounds`
 * (gs_stage_bounds, `layers` decoder layers in all); the whole stage without interleaving.
 * The chunks must fit (gs_stage_chunks_fit). */
void gs_stage_chunk_range(const struct gs_stage_plan *plan, const uint64_t *bounds,
                          uint64_t layers, uint64_t stages, uint64_t stage, uint64_t chunk,
                          uint64_t *first, uint64_t *end);

/* The plan of a rule that lists nothing (any split but GS_SPLIT_GIVEN). */
struct gs_stage_plan gs_stage_rule(enum gs_stage_split split);

/* Whether two plans place the layers alike (the same rule; the same counts when listed). */
bool gs_stage_plan_same(const struct gs_stage_plan *a, const struct gs_stage_plan *b);

/* Decoder layers [first, end) on pipeline stage `stage` of `stages` under
 * `plan`, for a model of `layers` decoder layers. False when the split
 * cannot place the layers on that many stages (the rules above; every
 * split needs at most as many stages as layers), with [0, 0). */
bool gs_stage_range(const struct gs_stage_plan *plan, uint64_t layers, uint64_t stages,
                    uint64_t stage, uint64_t *first, uint64_t *end);

/* Every stage's first layer at once: bounds[s] .. bounds[s + 1] are stage s's
 * layers, `bounds` holding stages + 1 entries (stages <= GS_LAYERS_MAX); false
 * as gs_stage_range. */
bool gs_stage_bounds(const struct gs_stage_plan *plan, uint64_t layers, uint64_t stages,
                     uint64_t *bounds);

/* The most decoder layers any stage holds under `plan` (0 when it cannot place them). */
uint64_t gs_stage_layers_max(const struct gs_stage_plan *plan, uint64_t layers, uint64_t stages);

/* Megatron's uneven split of `layers` over `stages` that p does not divide:
 * the first and last stages' layers (the middle ones hold the rest evenly).
 * False when p divides the layers (the default split needs no flags) or no
 * such split exists. */
bool gs_stage_megatron_ends(uint64_t layers, uint64_t stages, uint64_t *first_layers,
                            uint64_t *last_layers);

/* Decoder layers [first, end) on pipeline stage `stage` of `stages`, split
 * as `plan` says (NULL: as vLLM's get_pp_indices does, GS_SPLIT_VLLM); a
 * plan that cannot place the layers (refused before) gives vLLM's split. */
void gs_arch_stage(const struct gs_arch *arch, const struct gs_stage_plan *plan, uint64_t stages,
                   uint64_t stage, uint64_t *first, uint64_t *end);

/* Layers of each block in [first, end); `counts` has GS_BLOCKS_MAX entries. */
void gs_arch_count_blocks(const struct gs_arch *arch, uint64_t first, uint64_t end,
                          uint64_t counts[GS_BLOCKS_MAX]);

/* The copies of each block's weights those layers hold: gs_arch_count_blocks' counts, each at
 * most the block's stored copies (block_weight_layers) - a stage that runs a shared block
 * holds it whole. */
void gs_arch_count_weight_blocks(const struct gs_arch *arch, uint64_t first, uint64_t end,
                                 uint64_t counts[GS_BLOCKS_MAX]);

/* Turns layer counts of blocks into the weight copies they hold (in place). */
void gs_arch_weight_counts(const struct gs_arch *arch, uint64_t counts[GS_BLOCKS_MAX]);

/* Layers of each block on pipeline stage `stage`, over all its chunks (gs_stage_chunk_range),
 * from the stages' `bounds`. */
void gs_arch_count_stage_blocks(const struct gs_arch *arch, const struct gs_stage_plan *plan,
                                const uint64_t *bounds, uint64_t stages, uint64_t stage,
                                uint64_t counts[GS_BLOCKS_MAX]);

/* Decoder layers whose MLP routes tokens to experts. */
uint64_t gs_arch_moe_layers(const struct gs_arch *arch);

/* The token embedding (the first model-level module flagged GS_MOD_TOKENS: vocabulary rows
 * by its width), or NULL for a model without one. */
const struct gs_module *gs_arch_token_embedding(const struct gs_arch *arch);

/* The output widths of an attention's query, key and value projections: heads x head_dim,
 * kv_heads x head_dim, kv_heads x v_head_dim (`widths` in that order). */
void gs_attention_qkv_widths(const struct gs_attention *attention, uint64_t widths[3]);

/* Whether a layer of `attention` takes an earlier layer's keys and values in training under
 * transformers release `hf_release` (GS_HF_RELEASE; 0 the latest) rather than computing its
 * own: a KV-sharing layer (kv_shared) from kv_shared_from on. */
bool gs_attention_reuses_kv(const struct gs_attention *attention, uint32_t hf_release);

/* Whether block `b` holds K/V weights of its own (GS_MOD_KV_OWN: k_proj, v_proj, k_norm). */
bool gs_block_holds_kv_own(const struct gs_block *b);

/* The block whose keys and values a KV-sharing block `b` reads: one that computes its own
 * (gs_block_holds_kv_own) with the same span, head size and KV heads (transformers' and vLLM's
 * kv_shared_layer_index: the last earlier layer of the same layer type). NULL if none. */
const struct gs_block *gs_arch_kv_source(const struct gs_arch *arch, const struct gs_block *b);

/* The routed-expert block with the most experts, or NULL for dense models. */
const struct gs_block *gs_arch_moe_block(const struct gs_arch *arch);

/* Whether `m` is MoE block `b`'s router: the linear of the experts' part that is not an expert
 * and scores each expert (gs_build_moe's `gate`, `router`, ...: one output an expert). A latent
 * MoE's projections into and out of the experts' width (Nemotron-H's fc1_latent_proj and
 * fc2_latent_proj, Kimi K3's routed_expert_down_proj and up_proj) are the experts' part too, and
 * are not routers: their width is the latent one. */
bool gs_module_is_router(const struct gs_block *b, const struct gs_module *m);

/* The router's outputs: the routed experts and the identity experts it also scores
 * (gs_mlp.zero_experts). */
uint64_t gs_mlp_router_outputs(const struct gs_mlp *mlp);

/* A Mamba-2 mixer's n_groups, the B and C groups its conv channels hold past the inner width
 * (conv_dim = inner + 2 x n_groups x d_state: modeling_mamba2.py Mamba2Mixer, vLLM
 * MambaStateShapeCalculator.mamba2_state_shape); 0 where the channels hold none. */
uint64_t gs_recurrent_groups(const struct gs_recurrent *rec);

/* Whether any decoder layer uses multi-head latent attention. */
bool gs_arch_has_mla(const struct gs_arch *arch);

/* Whether architectures[0] is one of `names` (NULL-terminated; NULL: none): where an engine
 * selects by model class. */
bool gs_arch_class_in(const struct gs_arch *arch, const char *const *names);

/* Whether architectures[0] is a DeepSeek-V4 class - the model or its MTP / DSpark drafts (SGLang
 * configs/model_config.py is_deepseek_v4; vLLM builds every one on DeepseekV4Attention): where an
 * engine's rules for DeepSeek-V4 apply. */
bool gs_arch_is_deepseek_v4(const struct gs_arch *arch);

/* DeepSeek-V4.1 (DeepseekV41ForCausalLM): V4's entries, written only by its KV-source layers
 * and read by the others, with Engram tables - engines size it with rules of its own. */
bool gs_arch_is_deepseek_v41(const struct gs_arch *arch);

/* Whether block `b` attends an indexer's top-k selection when the serving engines' sparse kernels
 * run it: DeepSeek sparse attention over MLA (DeepSeek-V3.2, GLM-5, DeepSeek-V4 and V4.1; the
 * count is index_topk, or a V4.1 reading layer's read_topk) and MiniMax-M3's GQA with a lightning
 * indexer (index_heads: sparse_topk_blocks x sparse_block_size tokens). */
bool gs_block_selects_topk(const struct gs_block *b);

/* Whether block `b` holds a lookup table an engine may keep in host memory (a GS_MOD_HOST_TABLE
 * module: DeepSeek-V4.1's Engram layers). */
bool gs_block_has_host_table(const struct gs_block *b);

/* Whether any decoder block is DeepSeek sparse attention over MLA (index_topk set: DeepSeek-V3.2,
 * GLM-5, DeepSeek-V4, whose first layers attend through their window only). */
bool gs_arch_has_sparse_mla(const struct gs_arch *arch);

/* The first decoder block with attention (MLA included), or NULL. */
const struct gs_block *gs_arch_attention_block(const struct gs_arch *arch);

/* Whether every decoder layer attends (MLA included) and none keeps a recurrent state: neither
 * a hybrid (a recurrent layer, or a parallel hybrid's Mamba mixer beside attention) nor
 * attention-free. */
bool gs_arch_attention_only(const struct gs_arch *arch);

/* Bytes of the decoder's rotary cos/sin tables at `element_bytes` per value
 * (the model dtype in vLLM; fp32 in SGLang on CUDA). `ovf` is sticky. */
uint64_t gs_arch_rope_table_bytes(const struct gs_arch *arch, uint64_t element_bytes, bool *ovf);

/* Parameters of one module (all its instances). `ovf` is sticky. */
uint64_t gs_module_parameters(const struct gs_module *module, bool *ovf);

/* Checks the description: dimensions present and within GS_ARCH_DIM_MAX,
 * heads divisible by KV heads, top-k within the experts, layers within
 * GS_LAYERS_MAX. Collects every problem. */
enum gs_status gs_arch_validate(const struct gs_arch *arch, struct gs_error *err);

/* Parameters of one decoder layer of block `block` by part, as
 * gs_arch_count_params counts them (a layer's lookup tables under
 * `embedding`), and those a token uses (`active`: routed experts beyond
 * top-k and lookups excluded); largest_module 0; all 0 for a block out of
 * range. `ovf` is sticky. */
void gs_arch_count_block(const struct gs_arch *arch, size_t block, struct gs_param_count *out,
                         bool *ovf);

/* Validates, then counts. `out` is written only on GS_OK. */
enum gs_status gs_arch_count_params(const struct gs_arch *arch, struct gs_param_count *out,
                                    struct gs_error *err);

#endif
