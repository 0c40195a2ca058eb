#!/usr/bin/env python3
"""gpu-cases.py - the measurements issue 31 still needs, one mechanism a case, on one CUDA GPU.

Prepared without a GPU (docs/training-peaks.md, "Not modelled yet", says which figure each case settles);
not run yet. Each case runs in its own Python process (so PYTORCH_CUDA_ALLOC_CONF and the allocator's
cache start clean), trains random weights from the configs below, and appends one JSON object to
$OUT/results.jsonl: the environment (GPU, torch, transformers, peft), the case's settings, and per step
torch.cuda.max_memory_allocated / max_memory_reserved (reset before each step), plus the bytes held after
loading. Compare each with gpusizer's per_gpu.peak_allocated_bytes / peak_reserved_bytes for the request
printed in the case's "request" member (POST it to /v1/estimate).

Cases:
  lengths-fixed      ms-swift's benchmark shape (Qwen-7B-Chat sized Llama, bf16 base, LoRA r8 on q/k/v in
                     fp32 under bf16 autocast, reentrant checkpointing, batch 1) at a fixed 2,048 tokens.
  lengths-varying    the same over 200 steps whose lengths follow swift's dataset (cls-fudan-news-zh: mean
                     3,234, sd 2,547 tokens; samples over 2,048 dropped, as truncation_strategy 'delete'):
                     allocated should stay at or under lengths-fixed; reserved grows (the allocator
                     replay in bench/allocator-lengths.py says by how much).
  lengths-expandable the varying run with PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True.
  offload-fsdp1      FSDP1 CPUOffload(offload_params=True) over one rank (FSDP1 runs NO_SHARD at world size
                     1; the offload path is the same): Llama-2-7B, bf16, LoRA r64 on q/k/v/gate/up/down
                     (fsdp_qlora's LoRA row), PEFT's fsdp_auto_wrap_policy, reentrant checkpointing, batch
                     10 x 2,048. What stays on the GPU under offload is the open question (7-22% under).
  nooffload-fsdp1    the same without offload, for the difference. (Their requests say full_shard at data
                     1: FSDP1 runs NO_SHARD there, the same bytes a GPU.)
  saved-tensors      what autograd saves in one forward, by storage (torch.autograd.graph.saved_tensors_hooks:
                     shape, stride, dtype, storage bytes), for a two-layer Llama 3.2 1B shape (32 heads, 8 KV
                     heads) in bf16 under SDPA, the same in fp32, and a Phi-3 shape (partial rotary 0.75):
                     whether SDPA keeps K/V at their 8 heads (use_gqa_in_sdpa; gpusizer's 4.56-5.x rows
                     and the Llama 3.2 1B H200 run say so) or repeated to 32, and whether o_proj's input
                     shares the attention output's storage (bf16 whole rotary) or is a copy (partial
                     rotary). In fp32 gpusizer expects torch's math kernel (enable_gqa, no fused fp32
                     kernel for grouped heads): K/V repeated and a (4, 32, 2048, 2048) fp32 softmax output
                     per layer. Also a Mistral shape with a 1,024 sliding window (the mask's path: K/V
                     repeated, a (4, 1, 2048, 2048) bf16 additive mask per layer) and grouped heads of 512
                     (K/V repeated, or the math kernel's scores on releases before PR #46960), and the
                     bf16 Llama shape over a padded batch (training.padding_mask: the same masked path
                     in every layer). Under eager attention: a GPT-OSS shape (softmax over the scores
                     and the sink at their own dtype: one (4, 16, 2048, 2049) bf16 output per layer,
                     no fp32 one) and a Gemma 2 shape (soft-capping: a bf16 tanh output beside the fp32
                     softmax and its bf16 copy per layer, and a (4, 2048, vocab) bf16 tanh output of
                     the logits). Under SDPA a DeepSeek-V3 shape (MLA: V a view of kv_b_proj's output,
                     whose whole (4, 2048, heads x 256) storage it keeps). A Qwen3-MoE shape (8 experts
                     of 512, top-2: 16,384 routed tokens a layer at 4 x 2,048), trained in full and with
                     LoRA on q/v (`-lora`): under transformers 5.x's default grouped_mm experts gpusizer
                     expects, per layer, a (16384, 2 x 512) gate_up output, a (16384, 512) SiLU output
                     and a (16384, 1024) expert output (the routing weight's product keeps it), plus in
                     full training a (16384, 1024) gathered input, a (16384, 512) product and the
                     router's (8192, 1024) input; with LoRA none of those three. A Qwen3.5 shape
                     (a Gated DeltaNet layer of 4 key heads and 8 value heads of 128, K = 512,
                     V = 1,024, C = 2,048 conv channels, then a full-attention layer), full bf16
                     training; the environment records whether flash-linear-attention and
                     causal-conv1d are installed. With them gpusizer expects (training.recurrent_kernels
                     "fused") the conv's (4, 2048, 2048) bf16 input, fla's normalized q and k
                     (4, 2048, 4, 128) bf16 with (4, 2048, 4) fp32 rstd, v (4, 2048, 8, 128) bf16, g's
                     (4, 2048, 8) fp32 cumsum, A (4, 2048, 8, 64) bf16, and the gated norm's fp32 input,
                     gate and SiLU output, (65536, 128) each; without them ("torch") fp32
                     (4, 8, 2048, 128) q/k copies, (4, 8, 32, 64, 128) padded and chunk tensors,
                     five (4, 8, 32, 64, 64) fp32 chunk matrices and 32 (4, 8, 128, 128) fp32
                     recurrent states, beside F.conv1d's (4, 2048, 2051) output. A Kimi Linear
                     shape (transformers' own kimi_linear: a Kimi Delta Attention layer of 8 heads of
                     128, K = V = 1,024, C = 3,072, then an MLA layer; dense MLPs), full bf16: with
                     fla and causal-conv1d gpusizer expects the concatenated (4, 2048, 3072) bf16 conv
                     input, q and k normalized (4, 2048, 8, 128) bf16 with (4, 2048, 8) fp32 rstd, v's
                     (4, 2048, 8, 128) bf16 copy, the gate and its cumsum (4, 2048, 8, 128) fp32 each,
                     beta (4, 2048, 8) fp32, Aqk and Akk (4, 2048, 8, 64) bf16 each; without them
                     (torch_chunk_kda) (4, 8, 2048, 128) fp32 q/k copies, (4, 8, 32, 64, 128) fp32
                     padded and chunk tensors, the grouped pairwise decays and decayed keys,
                     (4, 8, g, 64, 64, 128) fp32 over all 32 chunks, two (4, 8, 32, 64, 64) fp32
                     chunk matrices, the UT loop's clones and 32 (4, 8, 128, 128) fp32 states, beside
                     F.conv1d's (4, 3072, 2051) output (the environment says which ran; a release
                     without kimi_linear records the error).
  eager-backward     the last layer's attention backward under eager attention, isolated by tensor hooks
                     (its output's gradient arriving, its input's made): a two-layer Llama shape (32
                     heads of 64, vocabulary 32,000, so the loss's moment stays small) in pure bf16, full
                     training, one sequence of 8,192 tokens, eager and SDPA. gpusizer has no term for
                     this moment yet (docs/training-peaks.md, "Not modelled yet"); by the code read
                     (matmul's grad_P at bf16, the cast's fp32 gradient, softmax's backward output at
                     bf16, the probabilities' bf16 copy freed by the matmul's node) it holds about
                     4 B a score beyond the saved activations: 8.6 GB here, where SDPA holds the
                     gradients of Q, K and V.

  rms-norm           what torch.nn.RMSNorm saves for backward, by storage, on (4, 2048, 4096) inputs:
                     bf16 input and weight; under bf16 autocast an fp32 input with an fp32 weight (the
                     residual stream autocast keeps) and a bf16 input with an fp32 weight. From torch 2.9
                     (pytorch PR #153666) gpusizer expects the fused kernel where the dtypes match: the
                     input itself (no copy) and an fp32 (4, 2048, 1) rstd; the composite (torch <= 2.8,
                     and a bf16 input under an fp32 weight before torch 2.12) an fp32 copy of a 16-bit
                     input and the normalized tensor the weight multiplies (torchtitan 0.2's rows carry
                     no norm_fp32_copy; docs/training-peaks.md "What each layer saves").

  activations        what transformers' Python activations save, by storage, on a (4, 2048, 8192) input that
                     requires grad: gelu_new, gelu_fast, quick_gelu and xielu (ACT2CLS) in bf16, under bf16
                     autocast over fp32 parameters, and xielu with its alpha parameters frozen. gpusizer
                     expects (activation.c mlp_eager_bytes) in bf16: gelu_new 4 tensors of the input's size
                     (the input, tanh's output, 0.5 * x, 1 + tanh), gelu_fast 7, quick_gelu 2, xielu a
                     1-byte condition and 3 (the input, alpha_p * x, expm1's output) plus expm1(...) - x when
                     the alphas train; under autocast xielu's alpha_p * x, expm1's output and the difference
                     in fp32 and gelu_new's pow copy, tanh output and 1 + tanh in fp32.

  dequant-4bit       what bitsandbytes' MatMul4Bit holds while it runs, a 4-bit head of LitGPT's Llama 3 shape
                     (128,256 x 4,096, nf4) over a (1, 128, 4,096) bf16 chunk that requires grad, compute
                     dtype bf16: the forward's and the input gradient's peak over what was allocated before,
                     the weight quantized from an fp16 copy (Lightning's _Linear4bit.quantize) and from its
                     bf16 self (bitsandbytes >= 0.43.0 Params4bit). gpusizer (quant_state_fp16) expects the
                     fp16 source to hold the fp16 dequantized weight and its bf16 cast at once, 4 bytes a
                     weight (2.1 GB), and the bf16 source one bf16 copy, 2 bytes (1.05 GB), beside the
                     output or the gradient (1 MB). Needs bitsandbytes; without it the case records the
                     ImportError.

  vision-tower       images through Qwen2.5-VL's vision tower (the 3B checkpoint's vision_config: depth 32,
                     1,280 wide, patch 14, merge 2) over a two-layer decoder of the 3B's widths, bf16, one
                     sample of 4,096 tokens with 2 images of 1,024 tokens (64 x 64 patches each), three
                     AdamW steps each way: text only, then the same tokens with the images, in a full
                     fine-tune, a full fine-tune with the tower frozen, and LoRA r8 on all linears, each
                     with and without gradient checkpointing. The images' step peak less the text's is
                     what gpusizer's vision_activation_bytes (plus the tower's own gradients at
                     backward's end) should explain: with checkpointing 2 x 4,096 x 1,176 x 4 B of fp32
                     pixels, their bf16 cast in a full fine-tune, and 32 x 8,192 x 1,280 x 2 B of
                     checkpoints (709,623,808 B under LoRA; the request is in the record).

  vision-gemma3      images through Gemma 3's SigLIP tower (gemma-3-4b-it's vision_config: 27 layers, 1,152
                     wide, patch 14 over 896 x 896: 4,096 patches an image, pooled to 256 tokens) over a
                     two-layer decoder of its text widths, bf16, 4,096 tokens with 2 images, LoRA r8 on all
                     linears, with and without gradient checkpointing: the images' step peak less the
                     text's against gpusizer's vision_activation_bytes (with checkpointing 2 x 4,096 x 588
                     x 4 B of pixels and 27 x 8,192 x 1,152 x 2 B of checkpoints, 528,875,520 B).
  vision-pixtral     images through Mistral Small 3.1's Pixtral tower (4 of its 24 layers, 1,024 wide, patch
                     14 over 1,540 x 1,540: 12,100 patches an image) over a two-layer decoder of its text
                     widths, bf16, 8,192 tokens, LoRA r8 on all linears, SDPA, 1 and 2 images, with and
                     without checkpointing. The tower runs a batch's images as one sequence under a
                     block-diagonal (n, n) bf16 mask: gpusizer expects the mask kept once with
                     checkpointing (n^2 x 2 B) and, without it, SDPA's padded copy per layer where n is
                     not a multiple of 8 (1 image: 4 x 12,100 x 12,104 x 2 = 1,171,667,200 B) and the
                     one mask where it is (2 images: 24,200^2 x 2 = 1,171,280,000 B).
  vision-gemma4      images through Gemma 4's vision tower (gemma-4-E4B's: 16 layers of 768, clamped
                     linears) over two decoder layers of its text widths, bf16, 2,048 tokens, LoRA r8 on
                     all linears, SDPA, with and without checkpointing: an image of 280 soft tokens (all
                     2,520 patches of its row real) and one of 100 (900 real, the rest padding, masked).
                     The images' step peak less the text's against gpusizer's vision_activation_bytes
                     (280 tokens with checkpointing: 7,741,440 B of pixels, 2,822,400 of pooler weights,
                     16 checkpoints of 2,520 x 768 x 2 B; without, each layer's clamps too).
  moe-param-wrapper  PEFT's LoRA on transformers 5.x's fused MoE experts (PEFT 0.19 and later convert the
                     expert projections' names, 0.20 all-linear too, into target_parameters: a
                     ParamWrapper on gate_up_proj at rank 2r, down_proj and the router's gate.weight,
                     which gpusizer sizes from training.lora.peft_version 0.19 on, the default: the
                     warning lora_experts_param_wrapper). The Qwen3-MoE shape (2 layers of 1,024, 8 experts
                     of 512, top-2), batch 4 x 2,048, bf16, r8, no dropout: q/v alone, all-linear, and
                     the named projections; for each the PEFT config after injection, the trainable
                     count (all-linear: 114,688 attention and 737,408 expert and router adapters by
                     gpusizer's peft_expert_adapter_parameters), the tensors one forward saves by
                     storage (parameters apart: gpusizer expects each layer's merged expert weights,
                     8 x 1,024 x (2 x 512 + 512) + 8 x 1,024 elements at bf16, 25,182,208 B, and the
                     routed tokens' inputs) and a step's peak with and without checkpointing.
  vision-llama4      images through Llama 4's vision tower (Llama-4-Scout's vision_config: 34 layers of 1,408,
                     tiles of 336 x 336, 576 patches and the class embedding a row, 144 tokens a tile) over
                     two decoder layers of its text widths, bf16 (the pixels too: the patch embedding
                     takes them uncast), 4,096 tokens, LoRA r8 on all linears, SDPA, with and without
                     checkpointing: the 17-tile image and a 3-tile one. The images' step peak less the
                     text's against gpusizer's vision_activation_bytes (17 tiles checkpointed: 34 x 17 x
                     577 x 1,408 x 2 B and 17 x 338,688 x 2 B of pixels, 950,668,288 B).
  mllama-text        Llama 3.2 Vision on text alone (Llama-3.2-11B-Vision's vision tower, 32 + 8 layers, and
                     four self-attention text layers with one cross-attention layer after them) against
                     the same four layers as a LlamaForCausalLM, bf16, 2,048 tokens, LoRA r8 on q_proj and
                     v_proj, SDPA, no checkpointing: gpusizer expects the same activations (MllamaModel
                     runs neither the vision model nor the cross-attention layer without pixel_values);
                     each run's step peaks, what it held after loading, and its request.
  vision-mllama      images through Llama 3.2 Vision's encoders (Llama-3.2-11B-Vision's vision tower over five
                     text layers, the fourth cross-attention), bf16, 2,048 tokens, one image of 4 tiles,
                     LoRA r8 on all linears, SDPA, with and without gradient checkpointing: the image's
                     step peak less the text's against gpusizer's peak_allocated_bytes with the image
                     less without, 10,846,283,776 B checkpointed and 11,363,592,192 B not (of them
                     vision_activation_bytes, 10,829,506,560 and 10,803,275,776: the encoders, which
                     checkpointing does not reach, the projected states, the cross-attention mask and
                     the projector's input; the rest is the cross-attention layer's K/V, k_norm and
                     adapters over the 6,404 vision positions).
  mllama-cross       Llama 3.2 Vision's cross-attention layer over the images, one mechanism: the vision-mllama
                     shape, bf16, 2,048 tokens, LoRA r8 on the language model's q_proj and v_proj alone (the
                     tower and projector frozen: they run without a graph), SDPA, no checkpointing; steps
                     with text alone, one image and two. gpusizer's peaks for the recorded requests grow by
                     526,102,528 B from text to one image (the cross layer, its K and V repeated to 32
                     heads over 6,404 positions, the mask's copy padded to 6,408 keys, the fp32 pixels and
                     the projected states v_proj's adapter reads) and by 198,651,904 B from one image to
                     two (12,808 keys are 8-aligned: the kernels keep the one mask, no copy); the trainable
                     count is 532,480.
  shared-kv-gemma3n  Gemma 3n's KV-sharing layers under the installed transformers (from 5.6.0 they hold no
                     k_proj, v_proj or k_norm): a six-layer Gemma 3n text model of E2B's widths, two layers
                     sharing, bf16, LoRA r8 on all linears, 2,048 tokens: sum(p.numel()), the trainable
                     count, the step peaks and the request (framework_version the installed release's),
                     to compare with gpusizer's parameters (shared_kv_layers_without_kv_weights).

Usage: OUT=dir python3 bench/gpu-cases.py [--only case,case]   (needs torch, transformers, peft)
"""
import argparse
import json
import os
import random
import subprocess
import sys
import time

OUT = os.environ.get("OUT", "/tmp/out")

QWEN7B_SHAPE = {  # Qwen-7B-Chat's shapes (config.json: hidden 4096, 32 layers, 32 heads, MLP 11008,
    # vocab 151,936, untied) as a LlamaForCausalLM: swift's remote QWenLMHeadModel is not installable offline
    "model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_size": 4096,
    "intermediate_size": 11008, "num_hidden_layers": 32, "num_attention_heads": 32,
    "num_key_value_heads": 32, "vocab_size": 151936, "tie_word_embeddings": False,
    "max_position_embeddings": 8192, "rms_norm_eps": 1e-06, "rope_theta": 10000.0, "hidden_act": "silu"}
LLAMA2_7B = {
    "model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_size": 4096,
    "intermediate_size": 11008, "num_hidden_layers": 32, "num_attention_heads": 32,
    "num_key_value_heads": 32, "vocab_size": 32000, "tie_word_embeddings": False,
    "max_position_embeddings": 4096, "rms_norm_eps": 1e-05, "rope_theta": 10000.0, "hidden_act": "silu"}

CASES = {
    "lengths-fixed": dict(config="qwen7b", lengths="fixed", steps=20, env={}),
    "lengths-varying": dict(config="qwen7b", lengths="varying", steps=200, env={}),
    "lengths-expandable": dict(config="qwen7b", lengths="varying", steps=200,
                               env={"PYTORCH_CUDA_ALLOC_CONF": "expandable_segments:True"}),
    "offload-fsdp1": dict(config="llama2-7b", offload=True, steps=3),
    "nooffload-fsdp1": dict(config="llama2-7b", offload=False, steps=3),
    "saved-tensors": dict(saved=True),
    "eager-backward": dict(eager_backward=True),
    "rms-norm": dict(rms_norm=True),
    "activations": dict(activations=True),
    "dequant-4bit": dict(dequant=True),
    "vision-tower": dict(vision=True),
    "vision-gemma3": dict(vlm="gemma3"),
    "vision-pixtral": dict(vlm="pixtral"),
    "moe-param-wrapper": dict(param_wrapper=True),
    "vision-gemma4": dict(gemma4=True),
    "vision-llama4": dict(llama4=True),
    "mllama-text": dict(mllama_text=True),
    "vision-mllama": dict(mllama_images=True),
    "shared-kv-gemma3n": dict(shared_kv=True),
    "mllama-cross": dict(mllama_cross=True),
}

QWEN3_MOE_SHAPE = {"model_type": "qwen3_moe", "architectures": ["Qwen3MoeForCausalLM"], "hidden_size": 1024,
                   "intermediate_size": 2048, "moe_intermediate_size": 512, "num_experts": 8,
                   "num_experts_per_tok": 2, "num_hidden_layers": 2, "num_attention_heads": 8,
                   "num_key_value_heads": 4, "head_dim": 128, "vocab_size": 32000,
                   "tie_word_embeddings": False, "max_position_embeddings": 8192, "hidden_act": "silu"}

SAVED_SHAPES = {  # two layers each, so that the per-layer storages repeat and stand out
    "llama3.2-1b-bf16": ({"model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_size": 2048,
                          "intermediate_size": 8192, "num_hidden_layers": 2, "num_attention_heads": 32,
                          "num_key_value_heads": 8, "head_dim": 64, "vocab_size": 128256,
                          "tie_word_embeddings": True, "max_position_embeddings": 8192,
                          "rope_theta": 500000.0, "hidden_act": "silu"}, "bfloat16"),
    "llama3.2-1b-fp32": (None, "float32"),
    # a padded batch (the last sequence's final 100 tokens are padding, attention_mask 0): transformers'
    # SDPA takes the masked path in both layers (training.padding_mask): K/V repeated to 32 heads, the
    # memory-efficient kernel (no o_proj copy) and a (4, 1, 2048, 2048) bf16 additive mask per layer
    "llama3.2-1b-bf16-padded": (None, "bfloat16"),
    # a sliding window shorter than the sequence: transformers builds the mask, so SDPA should show K/V
    # repeated to 32 heads, the memory-efficient kernel and a (4, 1, 2048, 2048) additive mask per layer
    "mistral-sliding-bf16": ({"model_type": "mistral", "architectures": ["MistralForCausalLM"],
                              "hidden_size": 2048, "intermediate_size": 8192, "num_hidden_layers": 2,
                              "num_attention_heads": 32, "num_key_value_heads": 8, "head_dim": 64,
                              "sliding_window": 1024, "vocab_size": 32000, "tie_word_embeddings": False,
                              "max_position_embeddings": 8192, "hidden_act": "silu"}, "bfloat16"),
    # grouped heads of 512 (Gemma 4's full-attention width): K/V repeated and the memory-efficient
    # kernel (transformers PR #46960), or, before it, the math kernel's fp32 score matrix
    "wide-heads-bf16": ({"model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_size": 2048,
                         "intermediate_size": 8192, "num_hidden_layers": 2, "num_attention_heads": 8,
                         "num_key_value_heads": 2, "head_dim": 512, "vocab_size": 32000,
                         "tie_word_embeddings": False, "max_position_embeddings": 8192,
                         "hidden_act": "silu"}, "bfloat16"),
    "phi3-partial-rotary-bf16": ({"model_type": "phi3", "architectures": ["Phi3ForCausalLM"],
                                  "hidden_size": 3072, "intermediate_size": 8192, "num_hidden_layers": 2,
                                  "num_attention_heads": 24, "num_key_value_heads": 8, "vocab_size": 200064,
                                  "tie_word_embeddings": True, "max_position_embeddings": 131072,
                                  "partial_rotary_factor": 0.75, "hidden_act": "silu"}, "bfloat16"),
    # GPT-OSS's eager attention (its default: no SDPA path): gpusizer keeps 2 B a score in bf16
    "gpt-oss-eager-bf16": ({"model_type": "gpt_oss", "architectures": ["GptOssForCausalLM"],
                            "hidden_size": 1024, "intermediate_size": 1024, "num_hidden_layers": 2,
                            "num_attention_heads": 16, "num_key_value_heads": 4, "head_dim": 64,
                            "num_local_experts": 4, "num_experts_per_tok": 2, "sliding_window": 128,
                            "layer_types": ["sliding_attention", "full_attention"], "vocab_size": 32000,
                            "tie_word_embeddings": False, "max_position_embeddings": 8192}, "bfloat16",
                           "eager"),
    # Gemma 2's soft-capping under eager attention: tanh keeps its output (scores and logits)
    "gemma2-eager-bf16": ({"model_type": "gemma2", "architectures": ["Gemma2ForCausalLM"],
                           "hidden_size": 1024, "intermediate_size": 4096, "num_hidden_layers": 2,
                           "num_attention_heads": 8, "num_key_value_heads": 4, "head_dim": 128,
                           "sliding_window": 4096, "attn_logit_softcapping": 50.0,
                           "final_logit_softcapping": 30.0, "vocab_size": 32000,
                           "max_position_embeddings": 8192}, "bfloat16", "eager"),
    # MLA under SDPA: V split from kv_b_proj's output beside the no-rope keys
    "deepseek-v3-sdpa-bf16": ({"model_type": "deepseek_v3", "architectures": ["DeepseekV3ForCausalLM"],
                               "hidden_size": 1024, "intermediate_size": 2048, "num_hidden_layers": 2,
                               "num_attention_heads": 8, "num_key_value_heads": 8, "q_lora_rank": 256,
                               "kv_lora_rank": 256, "qk_nope_head_dim": 128, "qk_rope_head_dim": 64,
                               "v_head_dim": 128, "first_k_dense_replace": 2, "n_routed_experts": 4,
                               "num_experts_per_tok": 2, "moe_intermediate_size": 512,
                               "n_shared_experts": 1, "vocab_size": 32000, "tie_word_embeddings": False,
                               "max_position_embeddings": 8192}, "bfloat16"),
    # routed experts under transformers' Experts code: what trains decides what a routed token keeps
    "qwen3-moe-bf16": (QWEN3_MOE_SHAPE, "bfloat16"),
    "qwen3-moe-bf16-lora": (QWEN3_MOE_SHAPE, "bfloat16"),
    # a Gated DeltaNet layer, then full attention: fla's saved tensors, or the torch fallback's
    "qwen3.5-gdn-bf16": ({"model_type": "qwen3_5_text", "architectures": ["Qwen3_5ForCausalLM"],
                          "hidden_size": 1024, "intermediate_size": 2048, "num_hidden_layers": 2,
                          "layer_types": ["linear_attention", "full_attention"],
                          "num_attention_heads": 8, "num_key_value_heads": 2, "head_dim": 128,
                          "linear_num_key_heads": 4, "linear_num_value_heads": 8,
                          "linear_key_head_dim": 128, "linear_value_head_dim": 128,
                          "linear_conv_kernel_dim": 4, "vocab_size": 32000,
                          "tie_word_embeddings": False, "max_position_embeddings": 8192}, "bfloat16"),
    # a Kimi Delta Attention layer, then MLA: fla's chunk_kda saved set, or torch_chunk_kda's. The
    # config carries the checkpoint's linear_attn_config and the flat names other releases read
    "kimi-linear-kda-bf16": ({"model_type": "kimi_linear", "architectures": ["KimiLinearForCausalLM"],
                              "hidden_size": 1024, "intermediate_size": 2048, "num_hidden_layers": 2,
                              "num_attention_heads": 8, "num_key_value_heads": 8, "kv_lora_rank": 256,
                              "q_lora_rank": None, "qk_nope_head_dim": 128, "qk_rope_head_dim": 64,
                              "v_head_dim": 128, "mla_use_nope": True, "first_k_dense_replace": 2,
                              "num_experts": 4, "num_experts_per_token": 2, "moe_intermediate_size": 512,
                              "mlp_layer_types": ["dense", "dense"],
                              "layer_types": ["linear_attention", "full_attention"],
                              "linear_attn_config": {"num_heads": 8, "head_dim": 128,
                                                     "short_conv_kernel_size": 4, "kda_layers": [1],
                                                     "full_attn_layers": [2]},
                              "linear_num_heads": 8, "linear_head_dim": 128, "linear_num_key_heads": 8,
                              "linear_num_value_heads": 8, "linear_key_head_dim": 128,
                              "linear_value_head_dim": 128, "linear_conv_kernel_dim": 4,
                              "vocab_size": 32000, "tie_word_embeddings": False,
                              "model_max_length": 8192}, "bfloat16"),
}


def lora_qv(model):
    """PEFT LoRA r8 on q_proj and v_proj, no dropout: the base (experts included) frozen."""
    from peft import LoraConfig, get_peft_model
    return get_peft_model(model, LoraConfig(r=8, lora_alpha=16, lora_dropout=0.0,
                                            target_modules=["q_proj", "v_proj"]))


def run_saved():
    """Every tensor autograd saves in one forward (batch 4 x 2,048), grouped by storage."""
    import torch
    results = {}
    for name, (cfgd, dtype, *attn) in SAVED_SHAPES.items():
        cfgd = cfgd or SAVED_SHAPES["llama3.2-1b-bf16"][0]
        try:
            model = build(cfgd, getattr(torch, dtype), attn[0] if attn else "sdpa")
        except Exception as exc:  # a model type this transformers release does not have
            results[name] = {"error": repr(exc)[:500]}
            continue
        if name.endswith("-lora"):
            model = lora_qv(model)
        model.train()
        ids = torch.randint(0, cfgd["vocab_size"], (4, 2048), device="cuda")
        mask = torch.ones_like(ids)
        labels = ids.clone()
        if name.endswith("-padded"):
            mask[-1, -100:] = 0
            labels[-1, -100:] = -100
        storages = {}

        def pack(t):
            key = t.untyped_storage().data_ptr()
            entry = storages.setdefault(key, {"storage_bytes": t.untyped_storage().nbytes(), "views": []})
            view = [list(t.shape), list(t.stride()), str(t.dtype)]
            if view not in entry["views"] and len(entry["views"]) < 8:
                entry["views"].append(view)
            return t

        with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
            loss = model(input_ids=ids, attention_mask=mask, labels=labels).loss
        loss.backward()
        results[name] = sorted(storages.values(), key=lambda e: -e["storage_bytes"])
        del model, loss, ids
        torch.cuda.empty_cache()
    return {"saved": results}


EAGER_BACKWARD_SHAPE = {"model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_size": 2048,
                        "intermediate_size": 8192, "num_hidden_layers": 2, "num_attention_heads": 32,
                        "num_key_value_heads": 8, "head_dim": 64, "vocab_size": 32000,
                        "tie_word_embeddings": False, "max_position_embeddings": 8192,
                        "rope_theta": 500000.0, "hidden_act": "silu"}


def run_eager_backward():
    """Memory moments of one full bf16 step, the last layer's attention backward apart."""
    import torch
    results = {}
    for attn in ("eager", "sdpa"):
        model = build(EAGER_BACKWARD_SHAPE, torch.bfloat16, attn)
        model.train()
        attention = model.model.layers[-1].self_attn
        marks = {}

        def mark(name):
            def hook(grad):
                torch.cuda.synchronize()
                marks[name] = {"peak_since_last_mark": torch.cuda.max_memory_allocated(),
                               "allocated": torch.cuda.memory_allocated()}
                torch.cuda.reset_peak_memory_stats()
            return hook

        def forward_hook(module, args, kwargs, output):
            if torch.is_grad_enabled():
                output[0].register_hook(mark("attention_backward_starts"))
                kwargs["hidden_states"].register_hook(mark("attention_backward_ends"))

        handle = attention.register_forward_hook(forward_hook, with_kwargs=True)
        ids = torch.randint(0, EAGER_BACKWARD_SHAPE["vocab_size"], (1, 8192), device="cuda")
        steps = []
        for _ in range(2):  # the first allocates cuBLAS's workspace and the gradients
            torch.cuda.reset_peak_memory_stats()
            loss = model(input_ids=ids, labels=ids).loss
            torch.cuda.synchronize()
            after_forward = torch.cuda.memory_allocated()
            peak_forward = torch.cuda.max_memory_allocated()
            torch.cuda.reset_peak_memory_stats()
            loss.backward()
            torch.cuda.synchronize()
            steps.append({"after_forward": after_forward, "peak_forward": peak_forward,
                          "marks": dict(marks), "peak_after_last_mark": torch.cuda.max_memory_allocated(),
                          "after_backward": torch.cuda.memory_allocated()})
            del loss
        handle.remove()
        results[attn] = {"steps": steps, "request": {
            "model": {"config": EAGER_BACKWARD_SHAPE}, "mode": "training", "precision": {"weights": "bf16"},
            "training": {"batch_size": 1, "sequence_length": 8192, "regime": "bf16_pure", "optimizer": "adamw",
                         "attn_implementation": attn, "method": "full", "framework": "transformers",
                         "framework_version": "5.17"}}}
        del model, ids
        torch.cuda.empty_cache()
    return {"eager_backward": results}


def run_rms_norm():
    """torch.nn.RMSNorm's saved tensors by storage, the input's and the weight's marked."""
    import torch
    results = {"fused_backward_op": hasattr(torch.ops.aten, "_fused_rms_norm_backward")}
    for name, (x_dtype, w_dtype, amp) in {
            "bf16": (torch.bfloat16, torch.bfloat16, False),
            "fp32-input-fp32-weight-autocast": (torch.float32, torch.float32, True),
            "bf16-input-fp32-weight-autocast": (torch.bfloat16, torch.float32, True)}.items():
        norm = torch.nn.RMSNorm(4096, eps=1e-5, device="cuda", dtype=w_dtype)
        x = torch.randn(4, 2048, 4096, device="cuda", dtype=x_dtype, requires_grad=True)
        own = {x.untyped_storage().data_ptr(): "input", norm.weight.untyped_storage().data_ptr(): "weight"}
        storages = {}

        def pack(t):
            key = t.untyped_storage().data_ptr()
            entry = storages.setdefault(key, {"storage_bytes": t.untyped_storage().nbytes(),
                                              "is": own.get(key, "new"), "views": []})
            view = [list(t.shape), list(t.stride()), str(t.dtype)]
            if view not in entry["views"]:
                entry["views"].append(view)
            return t

        torch.cuda.synchronize()
        before = torch.cuda.memory_allocated()
        with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t), \
                torch.autocast("cuda", dtype=torch.bfloat16, enabled=amp):
            y = norm(x)
        torch.cuda.synchronize()
        results[name] = {"saved": sorted(storages.values(), key=lambda e: -e["storage_bytes"]),
                         "held_after_forward_less_output": torch.cuda.memory_allocated() - before
                         - y.untyped_storage().nbytes(), "output_dtype": str(y.dtype),
                         "grad_fn": type(y.grad_fn).__name__}
        y.float().sum().backward()
        del norm, x, y
        torch.cuda.empty_cache()
    return {"rms_norm": results}


def run_activations():
    """The saved tensors of transformers' Python activations, by storage, the input's marked."""
    import torch
    from transformers import activations
    results = {}
    for name in ("gelu_new", "gelu_fast", "quick_gelu", "xielu"):
        for regime, (dtype, amp, frozen) in {"bf16": (torch.bfloat16, False, False),
                                             "fp32-params-autocast": (torch.float32, True, False),
                                             "bf16-frozen-params": (torch.bfloat16, False, True)}.items():
            key = "%s/%s" % (name, regime)
            try:
                if name == "xielu":
                    act = activations.ACT2CLS["xielu"](dtype=dtype).cuda()
                else:
                    act = activations.ACT2FN[name]
                    act = act.cuda() if hasattr(act, "cuda") else act
            except Exception as exc:  # a release without this activation
                results[key] = {"error": repr(exc)[:300]}
                continue
            if hasattr(act, "parameters"):
                for p in act.parameters():
                    p.requires_grad_(not frozen)
            # under autocast the activation reads a linear's 16-bit output
            x = torch.randn(4, 2048, 8192, device="cuda", dtype=torch.bfloat16, requires_grad=True)
            own = {x.untyped_storage().data_ptr(): "input"}
            storages = {}

            def pack(t):
                k = t.untyped_storage().data_ptr()
                entry = storages.setdefault(k, {"storage_bytes": t.untyped_storage().nbytes(),
                                                "is": own.get(k, "new"), "views": []})
                view = [list(t.shape), list(t.stride()), str(t.dtype)]
                if view not in entry["views"]:
                    entry["views"].append(view)
                return t

            with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t), \
                    torch.autocast("cuda", dtype=torch.bfloat16, enabled=amp):
                y = act(x)
            big = [e for e in storages.values() if e["storage_bytes"] >= 4 * 2048 * 8192]
            results[key] = {"saved": sorted(storages.values(), key=lambda e: -e["storage_bytes"]),
                            "saved_bytes_per_element": sum(e["storage_bytes"] for e in big) / (4 * 2048 * 8192),
                            "output_dtype": str(y.dtype)}
            y.float().sum().backward()
            del x, y, act
            torch.cuda.empty_cache()
    return {"activations": results}


def run_dequant():
    """MatMul4Bit's transient over a 4-bit head, quantized from fp16 and from bf16, bf16 compute."""
    import torch
    import bitsandbytes as bnb
    vocab, width = 128256, 4096
    results = {"bitsandbytes": bnb.__version__}
    for source in (torch.float16, torch.bfloat16):
        weight = (torch.randn(vocab, width, device="cuda") * 0.02).to(source)
        packed, state = bnb.functional.quantize_4bit(weight, blocksize=64, quant_type="nf4")
        del weight
        torch.cuda.empty_cache()
        x = torch.randn(1, 128, width, device="cuda", dtype=torch.bfloat16, requires_grad=True)
        before = torch.cuda.memory_allocated()
        torch.cuda.reset_peak_memory_stats()
        out = bnb.matmul_4bit(x, packed.t(), quant_state=state)
        forward = torch.cuda.max_memory_allocated() - before
        grad = torch.ones_like(out)
        before = torch.cuda.memory_allocated()
        torch.cuda.reset_peak_memory_stats()
        out.backward(grad)
        backward = torch.cuda.max_memory_allocated() - before
        results[str(source).replace("torch.", "from_")] = {
            "quant_state_dtype": str(state.dtype), "forward_peak_over_before": forward,
            "backward_peak_over_before": backward, "weights": vocab * width}
        del x, out, grad, packed, state
        torch.cuda.empty_cache()
    return {"dequant": results}


def bf16_model(cls, cfgd, **kwargs):
    """Random weights for `cfgd` in bf16 on the GPU (`dtype` from transformers 4.56, `torch_dtype` before)."""
    import torch
    from transformers import AutoConfig
    cfg = AutoConfig.for_model(**cfgd)
    with torch.device("cuda"):
        try:
            return cls._from_config(cfg, dtype=torch.bfloat16, **kwargs)
        except TypeError:
            return cls._from_config(cfg, torch_dtype=torch.bfloat16, **kwargs)


def peak_steps(model, opt, forward, steps=3):
    """`steps` training steps of forward(model)'s loss: each step's max_memory_allocated."""
    import torch
    peaks = []
    for _ in range(steps):
        torch.cuda.reset_peak_memory_stats()
        loss = forward(model)
        loss.backward()
        opt.step()
        opt.zero_grad(set_to_none=True)
        torch.cuda.synchronize()
        peaks.append(torch.cuda.max_memory_allocated())
        del loss
    return peaks


def text_and_image_steps(model, opt, text_step, image_step):
    """Three steps of text alone, then three with the images: each step's max_memory_allocated."""
    return {kind: peak_steps(model, opt, forward)
            for kind, forward in (("text", text_step), ("images", image_step))}


def image_record(held, runs, cfgd, training):
    """One run's record: its steps, the images' peak less the text's, and the request to size it."""
    return {"held_after_load": held, "text_steps": runs["text"], "image_steps": runs["images"],
            "images_less_text": max(runs["images"]) - max(runs["text"]),
            "request": {"model": {"config": cfgd}, "mode": "training",
                        "precision": {"weights": "bf16"}, "training": training}}


QWEN2_5_VL_SHAPE = {  # Qwen2.5-VL-3B-Instruct's config.json with two decoder layers
    "model_type": "qwen2_5_vl", "architectures": ["Qwen2_5_VLForConditionalGeneration"],
    "hidden_size": 2048, "intermediate_size": 11008, "num_hidden_layers": 2, "num_attention_heads": 16,
    "num_key_value_heads": 2, "vocab_size": 151936, "tie_word_embeddings": True, "rms_norm_eps": 1e-06,
    "rope_theta": 1000000.0, "max_position_embeddings": 128000, "hidden_act": "silu",
    "image_token_id": 151655, "video_token_id": 151656, "vision_start_token_id": 151652,
    "vision_end_token_id": 151653, "rope_scaling": {"type": "mrope", "mrope_section": [16, 24, 24]},
    "vision_config": {"depth": 32, "hidden_act": "silu", "hidden_size": 1280, "intermediate_size": 3420,
                      "num_heads": 16, "in_chans": 3, "out_hidden_size": 2048, "patch_size": 14,
                      "spatial_merge_size": 2, "spatial_patch_size": 14, "window_size": 112,
                      "fullatt_block_indexes": [7, 15, 23, 31], "tokens_per_second": 2,
                      "temporal_patch_size": 2}}


def run_vision():
    """A step's peak with and without 2 images through Qwen2.5-VL's vision tower."""
    import torch
    from peft import LoraConfig, get_peft_model
    import transformers
    cls = getattr(transformers, "Qwen2_5_VLForConditionalGeneration")
    seq, images, side = 4096, 2, 64  # 64 x 64 patches an image, merged 2 x 2: 1,024 tokens
    tokens = side * side // 4
    cfgd = QWEN2_5_VL_SHAPE
    g = torch.Generator(device="cuda").manual_seed(0)
    ids = torch.randint(0, 150000, (1, seq), device="cuda", generator=g)
    at = 0
    for _ in range(images):  # <|vision_start|> then the image's tokens, as the processor lays them
        ids[0, at] = cfgd["vision_start_token_id"]
        ids[0, at + 1:at + 1 + tokens] = cfgd["image_token_id"]
        ids[0, at + 1 + tokens] = cfgd["vision_end_token_id"]
        at += tokens + 2
    text = torch.randint(0, 150000, (1, seq), device="cuda", generator=g)
    pixels = torch.randn(images * side * side, 3 * 2 * 14 * 14, device="cuda", generator=g)
    grid = torch.tensor([[1, side, side]] * images, device="cuda")
    results = {}
    for mode in ("full", "full-frozen-tower", "lora-all-linear"):
        for checkpointing in (True, False):
            model = bf16_model(cls, cfgd)
            if checkpointing:
                model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
            if mode == "full-frozen-tower":
                tower = getattr(model, "visual", None) or model.model.visual  # 4.52 moved it
                for p in tower.parameters():
                    p.requires_grad_(False)
            if mode == "lora-all-linear":
                if checkpointing:
                    model.enable_input_require_grads()
                model = get_peft_model(model, LoraConfig(r=8, lora_alpha=16, target_modules="all-linear"))
            opt = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=1e-5)
            model.train()
            held = torch.cuda.memory_allocated()
            runs = text_and_image_steps(
                model, opt, lambda m: m(input_ids=text, labels=text).loss,
                lambda m: m(input_ids=ids, labels=ids, pixel_values=pixels, image_grid_thw=grid).loss)
            training = {"batch_size": 1, "sequence_length": seq, "images_per_sample": images,
                        "image_tokens": tokens, "optimizer": "adamw", "regime": "bf16_pure",
                        "activation_checkpointing": "full" if checkpointing else "none",
                        "method": "lora" if mode.startswith("lora") else "full"}
            if mode == "lora-all-linear":
                training["lora"] = {"rank": 8, "targets": "all_linear"}
            if mode == "full-frozen-tower":
                training["freeze_vision_tower"] = True
            results["%s%s" % (mode, "-checkpointing" if checkpointing else "")] = image_record(
                held, runs, cfgd, training)
            del model, opt
            torch.cuda.empty_cache()
    return {"vision": results}


GEMMA3_VL_SHAPE = {  # gemma-3-4b-it's config.json with two decoder layers
    "model_type": "gemma3", "architectures": ["Gemma3ForConditionalGeneration"],
    "mm_tokens_per_image": 256, "image_token_index": 262144, "boi_token_index": 255999,
    "eoi_token_index": 256000,
    "text_config": {"model_type": "gemma3_text", "hidden_size": 2560, "intermediate_size": 10240,
                    "num_hidden_layers": 2, "num_attention_heads": 8, "num_key_value_heads": 4,
                    "head_dim": 256, "vocab_size": 262208, "sliding_window": 1024,
                    "query_pre_attn_scalar": 256, "rope_theta": 1000000.0,
                    "rope_local_base_freq": 10000.0, "max_position_embeddings": 131072},
    "vision_config": {"model_type": "siglip_vision_model", "hidden_size": 1152, "intermediate_size": 4304,
                      "num_hidden_layers": 27, "num_attention_heads": 16, "image_size": 896,
                      "patch_size": 14, "num_channels": 3, "vision_use_head": False,
                      "hidden_act": "gelu_pytorch_tanh", "layer_norm_eps": 1e-06}}

PIXTRAL_VL_SHAPE = {  # Mistral-Small-3.1-24B-Instruct's config.json, two decoder and four vision layers
    "model_type": "mistral3", "architectures": ["Mistral3ForConditionalGeneration"],
    "image_token_index": 10, "spatial_merge_size": 2, "vision_feature_layer": -1,
    "multimodal_projector_bias": False, "projector_hidden_act": "gelu",
    "text_config": {"model_type": "mistral", "hidden_size": 5120, "intermediate_size": 32768,
                    "num_hidden_layers": 2, "num_attention_heads": 32, "num_key_value_heads": 8,
                    "head_dim": 128, "vocab_size": 131072, "max_position_embeddings": 131072,
                    "rope_theta": 1000000000.0, "sliding_window": None, "rms_norm_eps": 1e-05},
    "vision_config": {"model_type": "pixtral", "hidden_size": 1024, "intermediate_size": 4096,
                      "num_hidden_layers": 4, "num_attention_heads": 16, "head_dim": 64,
                      "image_size": 1540, "patch_size": 14, "num_channels": 3, "hidden_act": "silu",
                      "rope_theta": 10000.0}}


def lora_image_run(cls, cfgd, checkpointing, text_step, image_step, training):
    """One VLM run, LoRA r8 on all linears under SDPA, with or without checkpointing: its steps with
    text alone and with the images (text_step and image_step take the model), and its request."""
    import torch
    from peft import LoraConfig, get_peft_model
    model = bf16_model(cls, cfgd, attn_implementation="sdpa")
    if checkpointing:
        model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
        model.enable_input_require_grads()
    model = get_peft_model(model, LoraConfig(r=8, lora_alpha=16, target_modules="all-linear"))
    opt = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=1e-5)
    model.train()
    held = torch.cuda.memory_allocated()
    runs = text_and_image_steps(model, opt, text_step, image_step)
    training = dict(training, optimizer="adamw", regime="bf16_pure", attn_implementation="sdpa",
                    method="lora", lora={"rank": 8, "targets": "all_linear"},
                    activation_checkpointing="full" if checkpointing else "none")
    del model, opt
    torch.cuda.empty_cache()
    return image_record(held, runs, cfgd, training)


def run_vlm(kind):
    """A step's peak with and without images through Gemma 3's or Pixtral's tower, LoRA on all linears."""
    import torch
    import transformers
    gemma = kind == "gemma3"
    cfgd = GEMMA3_VL_SHAPE if gemma else PIXTRAL_VL_SHAPE
    cls = getattr(transformers, cfgd["architectures"][0])
    seq = 4096 if gemma else 8192
    side = 896 if gemma else 1540
    tokens = 256 if gemma else (side // 14 // 2) ** 2
    image_id = cfgd["image_token_index"]
    g = torch.Generator(device="cuda").manual_seed(0)
    results = {}
    for images in ((2,) if gemma else (1, 2)):
        ids = torch.randint(100, 100000, (1, seq), device="cuda", generator=g)
        ids[0, 1:1 + images * tokens] = image_id  # the images' tokens, together after the first
        text = torch.randint(100, 100000, (1, seq), device="cuda", generator=g)
        pixels = torch.rand(images, 3, side, side, device="cuda", generator=g)  # fp32, as processors
        extra = ({"token_type_ids": (ids == image_id).long()} if gemma else
                 {"image_sizes": torch.tensor([[side, side]] * images, device="cuda")})
        plain = {"token_type_ids": torch.zeros_like(text)} if gemma else {}
        for checkpointing in (True, False):
            results["%d-images%s" % (images, "-checkpointing" if checkpointing else "")] = lora_image_run(
                cls, cfgd, checkpointing, lambda m: m(input_ids=text, labels=text, **plain).loss,
                lambda m: m(input_ids=ids, labels=ids, pixel_values=pixels, **extra).loss,
                {"batch_size": 1, "sequence_length": seq, "images_per_sample": images,
                 "image_tokens": tokens})
    return {"vlm": kind, "results": results}


GEMMA4_VL_SHAPE = {  # gemma-4-E4B-it's config.json with two decoder layers of their own KV, no audio
    "model_type": "gemma4", "architectures": ["Gemma4ForConditionalGeneration"], "audio_config": None,
    "tie_word_embeddings": True, "vision_soft_tokens_per_image": 280,
    "text_config": {"model_type": "gemma4_text", "attention_k_eq_v": False, "enable_moe_block": False,
                    "final_logit_softcapping": 30.0, "global_head_dim": 512, "head_dim": 256,
                    "hidden_activation": "gelu_pytorch_tanh", "hidden_size": 2560,
                    "hidden_size_per_layer_input": 256, "intermediate_size": 10240,
                    "layer_types": ["sliding_attention", "full_attention"], "max_position_embeddings": 131072,
                    "num_attention_heads": 8, "num_hidden_layers": 2, "num_key_value_heads": 2,
                    "num_kv_shared_layers": 0, "rms_norm_eps": 1e-06, "sliding_window": 512,
                    "use_double_wide_mlp": False, "vocab_size": 262144, "vocab_size_per_layer_input": 262144,
                    "rope_parameters": {"full_attention": {"partial_rotary_factor": 0.25,
                                                           "rope_theta": 1000000.0,
                                                           "rope_type": "proportional"},
                                        "sliding_attention": {"rope_theta": 10000.0, "rope_type": "default"}}},
    "vision_config": {"model_type": "gemma4_vision", "head_dim": 64, "hidden_size": 768,
                      "intermediate_size": 3072, "num_attention_heads": 12, "num_hidden_layers": 16,
                      "num_key_value_heads": 12, "patch_size": 16, "pooling_kernel_size": 3,
                      "position_embedding_size": 10240, "use_clipped_linears": True}}


def gemma4_image(soft_w, soft_h, budget=280, k=3):
    """One image as Gemma4ImageProcessor hands it: (1, budget x k^2, 768) fp32 patches in [0, 1] and
    their (x, y) positions, padding patches at -1 (pad_along_first_dim)."""
    import torch
    w, h = soft_w * k, soft_h * k
    n, rows = w * h, budget * k * k
    pixels = torch.zeros(1, rows, 3 * 16 * 16, device="cuda")
    pixels[0, :n] = torch.rand(n, 3 * 16 * 16, device="cuda")
    positions = torch.full((1, rows, 2), -1, dtype=torch.long, device="cuda")
    ys, xs = torch.meshgrid(torch.arange(h, device="cuda"), torch.arange(w, device="cuda"), indexing="ij")
    positions[0, :n, 0] = xs.reshape(-1)
    positions[0, :n, 1] = ys.reshape(-1)
    return pixels, positions


def run_gemma4():
    """Images through Gemma 4's vision tower (padded rows, clamped linears, the pooler), LoRA on all
    linears, with and without checkpointing: a full image (280 soft tokens, 14 x 20, all 2,520
    patches real) and a small one (100 tokens, 10 x 10: 900 real, 1,620 padding, masked)."""
    import torch
    import transformers
    cfgd = GEMMA4_VL_SHAPE
    cls = getattr(transformers, cfgd["architectures"][0])
    image_id = transformers.AutoConfig.for_model(**cfgd).image_token_id  # 258,880 by default
    seq = 2048
    g = torch.Generator(device="cuda").manual_seed(0)
    text = torch.randint(100, 100000, (1, seq), device="cuda", generator=g)
    results = {}
    for tokens, (soft_w, soft_h) in ((280, (20, 14)), (100, (10, 10))):
        pixels, positions = gemma4_image(soft_w, soft_h)
        ids = text.clone()
        ids[0, 1:1 + tokens] = image_id
        for checkpointing in (True, False):
            results["%d-tokens%s" % (tokens, "-checkpointing" if checkpointing else "")] = lora_image_run(
                cls, cfgd, checkpointing, lambda m: m(input_ids=text, labels=text).loss,
                lambda m: m(input_ids=ids, labels=ids, pixel_values=pixels,
                            image_position_ids=positions).loss,
                {"batch_size": 1, "sequence_length": seq, "images_per_sample": 1, "image_tokens": tokens})
    return {"vlm": "gemma4", "results": results}


LLAMA4_VL_SHAPE = {  # Llama-4-Scout-17B-16E-Instruct's config.json with two decoder layers
    "model_type": "llama4", "architectures": ["Llama4ForConditionalGeneration"], "image_token_index": 200092,
    "tie_word_embeddings": False,
    "text_config": {"model_type": "llama4_text", "hidden_size": 5120, "intermediate_size": 8192,
                    "intermediate_size_mlp": 16384, "num_hidden_layers": 2, "num_attention_heads": 40,
                    "num_key_value_heads": 8, "head_dim": 128, "num_local_experts": 16,
                    "num_experts_per_tok": 1, "interleave_moe_layer_step": 1, "vocab_size": 202048,
                    "attention_chunk_size": 8192, "max_position_embeddings": 10485760,
                    "rope_theta": 500000.0, "use_qk_norm": True, "rms_norm_eps": 1e-05},
    "vision_config": {"model_type": "llama4_vision_model", "hidden_size": 1408, "intermediate_size": 5632,
                      "num_hidden_layers": 34, "num_attention_heads": 16, "num_channels": 3,
                      "image_size": 336, "patch_size": 14, "pixel_shuffle_ratio": 0.5,
                      "projector_input_dim": 4096, "projector_output_dim": 4096,
                      "vision_output_dim": 4096, "rope_theta": 10000, "norm_eps": 1e-05,
                      "vision_feature_layer": -1, "vision_feature_select_strategy": "default"}}


def run_llama4():
    """Images through Llama 4's vision tower (tiles as batch rows, the class embedding), LoRA on all
    linears, with and without checkpointing: 17 tiles (vLLM's dummy image) and 3."""
    import torch
    import transformers
    cfgd = LLAMA4_VL_SHAPE
    cls = getattr(transformers, cfgd["architectures"][0])
    seq, image_id = 4096, cfgd["image_token_index"]
    g = torch.Generator(device="cuda").manual_seed(0)
    text = torch.randint(100, 100000, (1, seq), device="cuda", generator=g)
    results = {}
    for tiles in (17, 3):
        # bf16: Llama4UnfoldConvolution's nn.Linear takes the pixels as they come
        pixels = torch.rand(tiles, 3, 336, 336, device="cuda", generator=g).to(torch.bfloat16)
        ids = text.clone()
        ids[0, 1:1 + tiles * 144] = image_id
        for checkpointing in (True, False):
            results["%d-tiles%s" % (tiles, "-checkpointing" if checkpointing else "")] = lora_image_run(
                cls, cfgd, checkpointing, lambda m: m(input_ids=text, labels=text).loss,
                lambda m: m(input_ids=ids, labels=ids, pixel_values=pixels).loss,
                {"batch_size": 1, "sequence_length": seq, "images_per_sample": 1,
                 "image_tokens": tiles * 144})
    return {"vlm": "llama4", "results": results}


MLLAMA_TEXT_SHAPE = {  # Llama-3.2-11B-Vision's config.json with five text layers, the fourth cross-attention
    "model_type": "mllama", "architectures": ["MllamaForConditionalGeneration"], "image_token_index": 128256,
    "text_config": {"model_type": "mllama_text_model", "hidden_size": 4096, "intermediate_size": 14336,
                    "num_hidden_layers": 5, "num_attention_heads": 32, "num_key_value_heads": 8,
                    "vocab_size": 128256, "cross_attention_layers": [3], "rope_theta": 500000.0,
                    "max_position_embeddings": 131072, "rms_norm_eps": 1e-05, "tie_word_embeddings": False,
                    "rope_scaling": {"factor": 8.0, "high_freq_factor": 4.0, "low_freq_factor": 1.0,
                                     "original_max_position_embeddings": 8192, "rope_type": "llama3"}},
    "vision_config": {"model_type": "mllama_vision_model", "hidden_size": 1280, "intermediate_size": 5120,
                      "num_hidden_layers": 32, "num_global_layers": 8, "attention_heads": 16,
                      "image_size": 560, "patch_size": 14, "max_num_tiles": 4, "vision_output_dim": 7680,
                      "intermediate_layers_indices": [3, 7, 15, 23, 30]}}


def lora_text_run(model, cfgd, seq, training):
    """A LoRA run over text alone: its step peaks, what it held after loading, and its request."""
    import torch
    vocab = cfgd.get("text_config", cfgd)["vocab_size"]
    ids = torch.randint(100, vocab, (1, seq), device="cuda")
    opt = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=1e-5)
    model.train()
    held = torch.cuda.memory_allocated()
    steps = peak_steps(model, opt, lambda m: m(input_ids=ids, labels=ids).loss)
    trainable = sum(p.numel() for p in model.parameters() if p.requires_grad)
    parameters = sum(p.numel() for p in model.parameters())
    del opt
    return {"held_after_load": held, "steps": steps, "step_less_held": max(steps) - held,
            "parameters": parameters, "trainable": trainable,
            "request": {"model": {"config": cfgd}, "mode": "training", "precision": {"weights": "bf16"},
                        "training": training}}


def run_mllama_text():
    """Llama 3.2 Vision on text alone against the same self-attention layers as a Llama."""
    import torch
    import transformers
    from peft import LoraConfig, get_peft_model
    training = {"batch_size": 1, "sequence_length": 2048, "optimizer": "adamw", "regime": "bf16_pure",
                "attn_implementation": "sdpa", "method": "lora", "activation_checkpointing": "none",
                "framework": "transformers",
                "framework_version": ".".join(transformers.__version__.split(".")[:2]),
                "lora": {"rank": 8, "targets": ["q_proj", "v_proj"]}}
    text = MLLAMA_TEXT_SHAPE["text_config"]
    llama = {"model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_size": 4096,
             "intermediate_size": 14336, "num_hidden_layers": 4, "num_attention_heads": 32,
             "num_key_value_heads": 8, "vocab_size": 128256, "tie_word_embeddings": False,
             "rope_theta": 500000.0, "max_position_embeddings": 131072, "rms_norm_eps": 1e-05,
             "rope_scaling": text["rope_scaling"], "hidden_act": "silu"}
    results = {}
    for name, cfgd in (("mllama", MLLAMA_TEXT_SHAPE), ("llama", llama)):
        cls = getattr(transformers, cfgd["architectures"][0])
        model = bf16_model(cls, cfgd, attn_implementation="sdpa")
        model = get_peft_model(model, LoraConfig(r=8, lora_alpha=16, target_modules=["q_proj", "v_proj"]))
        results[name] = lora_text_run(model, cfgd, 2048, training)
        del model
        torch.cuda.empty_cache()
    return {"mllama_text": results}


def run_mllama_images():
    """One image of 4 tiles through Llama 3.2 Vision, LoRA on all linears, with and without checkpointing."""
    import torch
    import transformers
    cfgd = MLLAMA_TEXT_SHAPE
    cls = getattr(transformers, cfgd["architectures"][0])
    seq, image_id = 2048, cfgd["image_token_index"]
    g = torch.Generator(device="cuda").manual_seed(0)
    text = torch.randint(100, 100000, (1, seq), device="cuda", generator=g)
    ids = text.clone()
    ids[0, 1] = image_id
    labels = ids.masked_fill(ids == image_id, -100)  # the image token is past the head's vocabulary
    pixels = torch.rand(1, 1, 4, 3, 560, 560, device="cuda", generator=g)  # fp32, as the processor
    extra = {"aspect_ratio_ids": torch.tensor([[6]], device="cuda"),  # 2 x 2 tiles ([2, 2] is id 6)
             "aspect_ratio_mask": torch.ones(1, 1, 4, dtype=torch.long, device="cuda"),
             "cross_attention_mask": torch.ones(1, seq, 1, 4, dtype=torch.long, device="cuda")}
    results = {}
    for checkpointing in (True, False):
        results["1-image%s" % ("-checkpointing" if checkpointing else "")] = lora_image_run(
            cls, cfgd, checkpointing, lambda m: m(input_ids=text, labels=text).loss,
            lambda m: m(input_ids=ids, labels=labels, pixel_values=pixels, **extra).loss,
            {"batch_size": 1, "sequence_length": seq, "images_per_sample": 1})
    return {"vlm": "mllama", "results": results}


def run_mllama_cross():
    """Llama 3.2 Vision's cross-attention layer over one and two images, the vision tower frozen."""
    import torch
    import transformers
    from peft import LoraConfig, get_peft_model
    cfgd = MLLAMA_TEXT_SHAPE
    cls = getattr(transformers, cfgd["architectures"][0])
    seq, image_id = 2048, cfgd["image_token_index"]
    model = bf16_model(cls, cfgd, attn_implementation="sdpa")
    # a full-match regex: the language model's projections, not the tower's of the same names
    model = get_peft_model(model, LoraConfig(r=8, lora_alpha=16,
                                             target_modules=r".*language_model.*\.(q_proj|v_proj)"))
    opt = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=1e-5)
    model.train()
    held = torch.cuda.memory_allocated()
    g = torch.Generator(device="cuda").manual_seed(0)
    text = torch.randint(100, 100000, (1, seq), device="cuda", generator=g)

    def image_step(n):
        ids = text.clone()
        ids[0, 1:1 + n] = image_id
        labels = ids.masked_fill(ids == image_id, -100)
        pixels = torch.rand(1, n, 4, 3, 560, 560, device="cuda", generator=g)  # fp32, as the processor
        extra = {"aspect_ratio_ids": torch.full((1, n), 6, device="cuda"),  # 2 x 2 tiles each
                 "aspect_ratio_mask": torch.ones(1, n, 4, dtype=torch.long, device="cuda"),
                 "cross_attention_mask": torch.ones(1, seq, n, 4, dtype=torch.long, device="cuda")}
        return lambda m: m(input_ids=ids, labels=labels, pixel_values=pixels, **extra).loss

    steps = {"text": peak_steps(model, opt, lambda m: m(input_ids=text, labels=text).loss)}
    for n in (1, 2):
        steps["%d-image" % n] = peak_steps(model, opt, image_step(n))
    trainable = sum(p.numel() for p in model.parameters() if p.requires_grad)
    training = {"batch_size": 1, "sequence_length": seq, "optimizer": "adamw", "regime": "bf16_pure",
                "attn_implementation": "sdpa", "method": "lora", "activation_checkpointing": "none",
                "framework": "transformers",
                "framework_version": ".".join(transformers.__version__.split(".")[:2]),
                "freeze_vision_tower": True, "lora": {"rank": 8, "targets": ["q_proj", "v_proj"]}}
    requests = {}
    for kind, images in (("text", 0), ("1-image", 1), ("2-image", 2)):
        t = dict(training, images_per_sample=images) if images else training
        requests[kind] = {"model": {"config": cfgd}, "mode": "training", "precision": {"weights": "bf16"},
                          "training": t}
    del model, opt
    torch.cuda.empty_cache()
    return {"mllama_cross": {"held_after_load": held, "steps": steps, "trainable": trainable,
                             "one_image_less_text": max(steps["1-image"]) - max(steps["text"]),
                             "two_images_less_one": max(steps["2-image"]) - max(steps["1-image"]),
                             "requests": requests}}


GEMMA3N_TEXT_SHAPE = {  # gemma-3n-E2B's text widths, six layers, the last two sharing keys and values
    "model_type": "gemma3n_text", "architectures": ["Gemma3nForCausalLM"], "hidden_size": 2048,
    "intermediate_size": [8192] * 6, "num_hidden_layers": 6, "num_attention_heads": 8,
    "num_key_value_heads": 2, "head_dim": 256, "vocab_size": 262400, "vocab_size_per_layer_input": 262144,
    "hidden_size_per_layer_input": 256, "altup_num_inputs": 4, "laurel_rank": 64,
    "num_kv_shared_layers": 2, "sliding_window": 512, "activation_sparsity_pattern": [0.0] * 6,
    "layer_types": ["sliding_attention", "sliding_attention", "full_attention",
                    "sliding_attention", "sliding_attention", "full_attention"],
    "max_position_embeddings": 32768}


def run_shared_kv():
    """Gemma 3n's KV-sharing layers' weights under the installed transformers, LoRA on all linears."""
    import torch
    import transformers
    from peft import LoraConfig, get_peft_model
    cfgd = GEMMA3N_TEXT_SHAPE
    cls = getattr(transformers, cfgd["architectures"][0])
    model = bf16_model(cls, cfgd, attn_implementation="sdpa")
    shared = [i for i, layer in enumerate(model.model.layers)
              if getattr(layer.self_attn, "is_kv_shared_layer", False)]
    own = {i: sorted(n for n in ("k_proj", "v_proj", "k_norm") if hasattr(model.model.layers[i].self_attn, n))
           for i in shared}
    base = sum(p.numel() for p in model.parameters())
    model = get_peft_model(model, LoraConfig(r=8, lora_alpha=16, target_modules="all-linear"))
    training = {"batch_size": 1, "sequence_length": 2048, "optimizer": "adamw", "regime": "bf16_pure",
                "attn_implementation": "sdpa", "method": "lora", "activation_checkpointing": "none",
                "framework": "transformers",
                "framework_version": transformers.__version__.split(".dev")[0],
                "lora": {"rank": 8, "targets": "all_linear"}}
    record = lora_text_run(model, cfgd, 2048, training)
    record.update({"base_parameters": base, "shared_layers": shared, "shared_layers_own_modules": own})
    del model
    torch.cuda.empty_cache()
    return {"shared_kv": record}


def saved_storages(model, forward):
    """The tensors one forward saves for backward, by storage: the non-parameter ones' bytes and the
    largest twelve (shape, dtype, whether a parameter's)."""
    import torch
    params = {p.untyped_storage().data_ptr() for p in model.parameters()}
    storages = {}

    def pack(t):
        key = t.untyped_storage().data_ptr()
        storages.setdefault(key, {"storage_bytes": t.untyped_storage().nbytes(), "shape": list(t.shape),
                                  "dtype": str(t.dtype), "parameter": key in params})
        return t

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        loss = forward()
    loss.backward()
    entries = sorted(storages.values(), key=lambda e: -e["storage_bytes"])
    return {"saved_bytes": sum(e["storage_bytes"] for e in entries if not e["parameter"]),
            "largest": entries[:12]}


def run_param_wrapper():
    """PEFT's LoRA on fused experts (target_parameters) against LoRA on q/v, one shape, three targets."""
    import peft
    import torch
    from peft import LoraConfig, get_peft_model
    peft_release = ".".join(peft.__version__.split(".")[:2])  # the request's peft_version
    targets = {"qv": ["q_proj", "v_proj"], "all-linear": "all-linear",
               "named": ["q_proj", "v_proj", "gate_proj", "up_proj", "down_proj"]}
    request_targets = {"qv": ["q_proj", "v_proj"], "all-linear": "all_linear",
                       "named": ["q_proj", "v_proj", "gate_proj", "up_proj", "down_proj"]}
    g = torch.Generator(device="cuda").manual_seed(0)
    ids = torch.randint(0, QWEN3_MOE_SHAPE["vocab_size"], (4, 2048), device="cuda", generator=g)
    results = {}
    for name, target in targets.items():
        for checkpointing in (False, True):
            key = name + ("-checkpointing" if checkpointing else "")
            try:
                model = build(QWEN3_MOE_SHAPE, torch.bfloat16)
                if checkpointing:
                    model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
                    model.enable_input_require_grads()
                model = get_peft_model(model, LoraConfig(r=8, lora_alpha=16, lora_dropout=0.0,
                                                         target_modules=target))
            except Exception as exc:  # PEFT before 0.19 finds no gate_proj on 5.x; 0.19 breaks all-linear
                results[key] = {"error": "%s: %s" % (type(exc).__name__, str(exc)[:400])}
                continue
            cfg = model.peft_config["default"]
            record = {"target_modules": sorted(cfg.target_modules) if isinstance(cfg.target_modules, set)
                      else cfg.target_modules,
                      "target_parameters": sorted(cfg.target_parameters or []),
                      "rank_pattern": dict(cfg.rank_pattern or {}),
                      "trainable": sum(p.numel() for p in model.parameters() if p.requires_grad)}
            model.train()
            opt = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=1e-5)
            if not checkpointing:
                record.update(saved_storages(model, lambda: model(input_ids=ids, labels=ids).loss))
                opt.zero_grad(set_to_none=True)
            record["steps"] = peak_steps(model, opt, lambda m: m(input_ids=ids, labels=ids).loss)
            record["request"] = {
                "model": {"config": QWEN3_MOE_SHAPE}, "mode": "training", "precision": {"weights": "bf16"},
                "training": {"batch_size": 4, "sequence_length": 2048, "optimizer": "adamw",
                             "regime": "bf16_pure", "attn_implementation": "sdpa", "method": "lora",
                             "lora": {"rank": 8, "targets": request_targets[name],
                                      "peft_version": peft_release},
                             "activation_checkpointing": "full" if checkpointing else "none"}}
            results[key] = record
            del model, opt
            torch.cuda.empty_cache()
    return {"param_wrapper": results}


def swift_lengths(steps, max_length, seed=0):
    """Sample lengths as swift saw them: the dataset's distribution, longer ones deleted."""
    rng = random.Random(seed)
    out = []
    while len(out) < steps:
        n = int(round(rng.gauss(3234.4, 2547.5)))
        if 1 <= n <= max_length:
            out.append(n)
    return out


def environment():
    import torch
    import transformers
    import peft
    import importlib.util
    return {"gpu": torch.cuda.get_device_name(0), "torch": torch.__version__,
            "cuda": torch.version.cuda, "transformers": transformers.__version__, "peft": peft.__version__,
            "alloc_conf": os.environ.get("PYTORCH_CUDA_ALLOC_CONF", ""),
            # the Gated DeltaNet path transformers takes (training.recurrent_kernels)
            "fla": importlib.util.find_spec("fla") is not None,
            "causal_conv1d": importlib.util.find_spec("causal_conv1d") is not None}


def build(cfgd, dtype, attn="sdpa"):
    import torch
    from transformers import AutoConfig, AutoModelForCausalLM
    cfg = AutoConfig.for_model(**cfgd)
    cfg.use_cache = False
    with torch.device("cuda"):
        try:
            model = AutoModelForCausalLM.from_config(cfg, dtype=dtype, attn_implementation=attn)
        except TypeError:
            model = AutoModelForCausalLM.from_config(cfg, torch_dtype=dtype, attn_implementation=attn)
    return model


def run_lengths(case):
    """ms-swift 1.x's step: loss from the model under bf16 autocast, backward, AdamW on the adapters."""
    import torch
    from peft import LoraConfig, get_peft_model
    model = build(QWEN7B_SHAPE, torch.bfloat16)
    model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": True})
    model.enable_input_require_grads()
    model = get_peft_model(model, LoraConfig(r=8, lora_alpha=32, lora_dropout=0.05,
                                             target_modules=["q_proj", "k_proj", "v_proj"]))
    for p in model.parameters():  # swift keeps PEFT's adapters in fp32 (autocast_adapter_dtype)
        if p.requires_grad:
            p.data = p.data.float()
    opt = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=1e-4, foreach=True)
    model.train()
    held = torch.cuda.memory_allocated()
    lengths = [2048] * case["steps"] if case["lengths"] == "fixed" else swift_lengths(case["steps"], 2048)
    g = torch.Generator(device="cuda").manual_seed(0)
    steps = []
    torch.cuda.reset_peak_memory_stats()
    for n in lengths:
        ids = torch.randint(0, QWEN7B_SHAPE["vocab_size"], (1, n), device="cuda", generator=g)
        torch.cuda.reset_peak_memory_stats()
        with torch.autocast("cuda", dtype=torch.bfloat16):
            loss = model(input_ids=ids, labels=ids).loss
        loss.backward()
        opt.step()
        opt.zero_grad(set_to_none=True)
        torch.cuda.synchronize()
        steps.append({"tokens": n, "peak_allocated": torch.cuda.max_memory_allocated(),
                      "peak_reserved": torch.cuda.max_memory_reserved()})
        del loss, ids
    request = {"model": {"config": QWEN7B_SHAPE}, "mode": "training", "precision": {"weights": "bf16"},
               "training": {"batch_size": 1, "sequence_length": 2048, "activation_checkpointing": "full",
                            "regime": "amp", "optimizer": "adamw", "attn_implementation": "sdpa",
                            "method": "lora", "lora": {"rank": 8, "targets": ["q_proj", "k_proj", "v_proj"],
                                                       "dropout": 0.05},
                            "padding": "max_length" if case["lengths"] == "fixed" else "longest",
                            "fused_optimizer": False}}
    return {"held_after_load": held, "steps": steps,
            "run_peak_allocated": max(s["peak_allocated"] for s in steps),
            "run_peak_reserved": torch.cuda.max_memory_reserved(), "request": request}


def run_fsdp1(case):
    """fsdp_qlora's LoRA step under FSDP1 on one rank, with or without CPUOffload(offload_params=True)."""
    import torch
    import torch.distributed as dist
    from torch.distributed.fsdp import CPUOffload, FullyShardedDataParallel as FSDP
    from peft import LoraConfig, get_peft_model
    from peft.utils.other import fsdp_auto_wrap_policy
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29517")
    dist.init_process_group("nccl", rank=0, world_size=1)
    torch.cuda.set_device(0)
    with torch.device("cpu"):
        from transformers import AutoConfig, AutoModelForCausalLM
        cfg = AutoConfig.for_model(**LLAMA2_7B)
        cfg.use_cache = False
        try:
            model = AutoModelForCausalLM.from_config(cfg, dtype=torch.bfloat16, attn_implementation="sdpa")
        except TypeError:
            model = AutoModelForCausalLM.from_config(cfg, torch_dtype=torch.bfloat16,
                                                     attn_implementation="sdpa")
    model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": True})
    model.enable_input_require_grads()
    model = get_peft_model(model, LoraConfig(r=64, lora_alpha=16, lora_dropout=0.1,
                                             target_modules=["q_proj", "k_proj", "v_proj", "gate_proj",
                                                             "up_proj", "down_proj"]))
    model = model.to(torch.bfloat16)
    model = FSDP(model, auto_wrap_policy=fsdp_auto_wrap_policy(model), use_orig_params=False,
                 limit_all_gathers=True, device_id=torch.cuda.current_device(),
                 cpu_offload=CPUOffload(offload_params=case["offload"]))
    opt = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=1e-4, foreach=True)
    model.train()
    held = torch.cuda.memory_allocated()
    g = torch.Generator(device="cuda").manual_seed(0)
    ids = torch.randint(0, LLAMA2_7B["vocab_size"], (10, 2048), device="cuda", generator=g)
    steps = []
    for _ in range(case["steps"]):
        torch.cuda.reset_peak_memory_stats()
        output = model(input_ids=ids, labels=ids)  # fsdp_qlora's loop keeps its output through backward
        loss = output.loss
        loss.backward()
        opt.step()
        opt.zero_grad(set_to_none=True)
        output = None
        torch.cuda.synchronize()
        steps.append({"peak_allocated": torch.cuda.max_memory_allocated(),
                      "peak_reserved": torch.cuda.max_memory_reserved(),
                      "after_step_allocated": torch.cuda.memory_allocated()})
        del loss
    dist.destroy_process_group()
    request = {"model": {"config": LLAMA2_7B}, "mode": "training", "precision": {"weights": "bf16"},
               "training": {"batch_size": 10, "sequence_length": 2048, "activation_checkpointing": "full",
                            "regime": "bf16_pure", "optimizer": "adamw", "attn_implementation": "sdpa",
                            "method": "lora", "framework": "transformers", "framework_version": "5.17",
                            "keeps_output": True,
                            "lora": {"rank": 64, "dropout": 0.1,
                                     "targets": ["q_proj", "k_proj", "v_proj", "up_proj", "down_proj",
                                                 "gate_proj"]}},
               "parallelism": {"data": 1, "zero_stage": "full_shard", "fsdp_version": 1}}
    if case["offload"]:
        request["parallelism"]["offload"] = "optimizer_and_params"
    return {"held_after_wrap": held, "steps": steps, "request": request}


def child(name):
    case = CASES[name]
    t = time.time()
    record = {"id": name, "case": {k: v for k, v in case.items() if k != "env"}, "env": case.get("env", {})}
    try:
        record["environment"] = environment()
        record.update(run_saved() if case.get("saved") else
                      run_eager_backward() if case.get("eager_backward") else
                      run_rms_norm() if case.get("rms_norm") else
                      run_activations() if case.get("activations") else
                      run_dequant() if case.get("dequant") else
                      run_vision() if case.get("vision") else
                      run_vlm(case["vlm"]) if case.get("vlm") else
                      run_param_wrapper() if case.get("param_wrapper") else
                      run_gemma4() if case.get("gemma4") else
                      run_llama4() if case.get("llama4") else
                      run_mllama_text() if case.get("mllama_text") else
                      run_mllama_images() if case.get("mllama_images") else
                      run_shared_kv() if case.get("shared_kv") else
                      run_mllama_cross() if case.get("mllama_cross") else
                      run_fsdp1(case) if "offload" in case else run_lengths(case))
        record["ok"] = True
    except Exception as exc:  # a failed case is recorded, the next one still runs
        record["ok"] = False
        record["error"] = "%s: %s" % (type(exc).__name__, exc)
    record["seconds"] = round(time.time() - t, 1)
    with open(os.path.join(OUT, "results.jsonl"), "a") as f:
        f.write(json.dumps(record) + "\n")
    print(name, "ok" if record["ok"] else record["error"], record["seconds"], "s", flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", default=",".join(CASES))
    ap.add_argument("--child")
    args = ap.parse_args()
    os.makedirs(OUT, exist_ok=True)
    if args.child:
        child(args.child)
        return
    for name in args.only.split(","):
        if name not in CASES:
            sys.exit("unknown case %s (have %s)" % (name, ", ".join(CASES)))
        env = dict(os.environ, **CASES[name].get("env", {}))
        subprocess.run([sys.executable, os.path.abspath(__file__), "--child", name], env=env, check=False)


if __name__ == "__main__":
    main()
