/*
 * framework.c - the training frameworks' memory rules (see gs/framework.h).
 * Each row says what the framework's code does; the loss figures are
 * derived below from the tensors autograd keeps.
 */
#include "gs/framework.h"

#include <stddef.h>
#include <stdio.h>

struct row {
    enum gs_framework framework;
    uint32_t from; /* first release the row applies to, REL(major, minor, patch); 0 = any */
    struct gs_framework_rules rules;
};

#define REL(major, minor, patch) ((major)*10000u + (minor)*100u + (patch))

/* LitGPT's rows share everything but the data order and bitsandbytes' release. */
#define LITGPT_RULES \
    .framework = GS_FW_LITGPT, .loss = GS_LOSS_CHUNKED,\
    .logits_fp32_held = true, .loss_upcast = true, .loss_chunk_tokens = 128,\
    .norm_fp32_copy = true, .gqa_expanded = true, .query_contiguous = true,\
    .softmax_fp32 = true,\
    .qkv_fused_pinned = true, .lora_fused_qkv = true, .head_untied = true,\
    .model_without_dropout = true, .gate_up_apart = true,\
    .keeps_previous_graph = true, .quantizes_head = true, .quant_state_fp16 = true,\
    .moe_weights_after_experts = true, .foreach_step = true,\
    .fsdp_version = 1, .fsdp_no_sync = true, .fsdp_orig_params = true
#define LITGPT_SOURCE \
    "litgpt finetune/lora.py model(input_ids, lm_head_chunk_size=128) (chunks of "\
    "128 positions, x.split(128, dim=1)) and chunked_cross_entropy; Fabric "\
    "_FabricModule.forward precision.convert_output: the chunks the loop holds "\
    "through backward are fp32; litgpt RMSNorm x.float(); model.py "\
    "CausalSelfAttention: qkv = self.attn(x) split into views, q and k rotated "\
    "into new tensors, v passed as a view (it keeps qkv alive); k/v expanded "\
    "for SDPA under grouped queries; q = torch.cat((q_roped, q[..., rope_n_elem:]), "\
    "dim=-1) is contiguous, so y.reshape(B, T, C) of the transposed output "\
    "copies; lora.py LoRAQKVLinear: one lora_A (one dropout) for q/k/v, zero_pad's "\
    "index_copy keeps its source; bitsandbytes MatMul4Bit; torch.optim.AdamW "\
    "(foreach); Lightning FSDPStrategy (FSDP1: use_orig_params=True, each Block a "\
    "unit with its adapters); fabric.no_backward_sync (no_sync) while accumulating; "\
    "soft-capped attention by hand (F.softmax(scores, dtype=torch.float).to(q.dtype)); "\
    "GPT.__init__ builds lm_head apart from transformer.wte and "\
    "convert_hf_checkpoint.py copies a tied checkpoint's embedding into it "\
    "(state_dict[\"lm_head.weight\"] = state_dict[\"transformer.wte.weight\"]); "\
    "finetune/*.py refuse train.tie_embeddings; the loop's logits = model(...) keeps the "\
    "previous step's graph until the next forward returns; model.py has no dropout layer "\
    "(CausalSelfAttention: scaled_dot_product_attention(..., dropout_p=0.0)); LLaMAMLP "\
    "runs fc_1 and fc_2 apart (lora.py: each a LoRALinear), whatever the checkpoint fuses; "\
    "Fabric's BitsandbytesPrecision.convert_module replaces every nn.Linear, the head's "\
    "LoRALinear.linear among them, and _Linear4bit.quantize quantizes an fp16 copy "\
    "(weight.to(dtype=torch.half)): bitsandbytes MatMul4Bit's "\
    "F.dequantize_4bit(B, state).to(A.dtype) holds the fp16 and the bf16 weight at once"

static const struct row rows[] = {
    /* transformers before 4.27 ran on PyTorch 1.x: Trainer calls model.zero_grad(), which
     * kept gradients allocated (set_to_none became the default in PyTorch 2.0, pytorch PR
     * #92731), and its default optimizer was transformers.AdamW ("adamw_hf"), a
     * per-parameter loop with no whole-model temporaries. The loss as in 4.27-4.45. */
    {GS_FW_TRANSFORMERS, 0,
     {.framework = GS_FW_TRANSFORMERS,
      .label = "transformers < 4.27 (HF Trainer on PyTorch 1.x)",
      .loss = GS_LOSS_FP32, .returns_fp32_logits = true, .loss_shift_copy = true,
      .loss_upcast = true, .norm_fp32_copy = true,
      .gqa_expanded = true, .quant_saves_input = true,
      .softmax_fp32 = true, .act2fn = true, .model_qkv_views = true, .dora_recomputes_base = true,
      .moe_weights_after_experts = true,
      .grads_persist = true,
      .fsdp_version = 1, .fsdp_no_sync = true,
      .source = "transformers modeling_*.py forward upcasts logits (logits.float()), copies "
                "the shifted logits (logits[..., :-1, :].contiguous()) for CrossEntropyLoss and "
                "returns them; Trainer.training_step runs backward on compute_loss's loss "
                "after it returned (the output dropped); Trainer model.zero_grad() on PyTorch "
                "1.x keeps gradients (pytorch PR #92731); optim adamw_hf loops per parameter; "
                "LlamaRMSNorm hidden_states.to(torch.float32); repeat_kv before eager/SDPA "
                "attention; bitsandbytes MatMul4Bit "
                "saves A; "
                "accumulation micro-batches under model.no_sync() (Trainer "
                "_no_sync_in_gradient_accumulation; no sync_each_batch)"}},
    /* 4.27-4.45: PyTorch 2 zero_grad(set_to_none=True); Trainer's default optimizer
     * adamw_torch (torch.optim.AdamW, foreach on CUDA). The model's forward returns fp32
     * logits and computes the loss over a contiguous copy of the shifted ones, but
     * Trainer.training_step calls `loss = self.compute_loss(model, inputs)` (which returns
     * the outputs only when return_outputs) and backward after it returned, so the
     * returned logits are gone at the loss's backward; a loop that keeps the output
     * (training.keeps_output) keeps them in fp32. */
    {GS_FW_TRANSFORMERS, REL(4, 27, 0),
     {.framework = GS_FW_TRANSFORMERS, .label = "transformers 4.27-4.45 (HF Trainer)",
      .loss = GS_LOSS_FP32, .returns_fp32_logits = true, .loss_shift_copy = true,
      .loss_upcast = true, .norm_fp32_copy = true,
      .gqa_expanded = true, .quant_saves_input = true,
      .softmax_fp32 = true, .act2fn = true, .model_qkv_views = true, .dora_recomputes_base = true,
      .moe_weights_after_experts = true,
      .foreach_step = true,
      .fsdp_version = 1, .fsdp_no_sync = true, .sync_each_batch_option = true,
      .source = "transformers <= 4.45 LlamaForCausalLM.forward: logits = logits.float(), "
                "shift_logits = logits[..., :-1, :].contiguous(), returned in "
                "CausalLMOutputWithPast; Trainer.training_step: loss = "
                "self.compute_loss(model, inputs), then backward (the output dropped); optim "
                "adamw_torch (torch.optim.AdamW, foreach); LlamaRMSNorm upcast; repeat_kv; "
                "LlamaSdpaAttention makes q contiguous only under a mask (the memory-efficient "
                "kernel then); bitsandbytes MatMul4Bit saves A; "
                "accumulation micro-batches under accelerator.accumulate(model), no_sync() "
                "unless GradientAccumulationPlugin(sync_each_batch=True) (passed from "
                "AcceleratorConfig.gradient_accumulation_kwargs, transformers PR #29589)"}},
    /* 4.46: the loss moved to ForCausalLMLoss, which upcasts inside and still copies the
     * shifted logits; forward returns the 16-bit logits, alive in the model's forward while
     * the loss runs: its forward holds them, the upcast, the copy and log_softmax's output
     * (14 bytes a logit), whether or not the caller keeps the output through backward. */
    {GS_FW_TRANSFORMERS, REL(4, 46, 0),
     {.framework = GS_FW_TRANSFORMERS, .label = "transformers 4.46-4.47 (HF Trainer)",
      .loss = GS_LOSS_FP32, .loss_shift_copy = true, .loss_upcast = true,
      .norm_fp32_copy = true, .gqa_expanded = true,
      .adapters_fp32 = true, .softmax_fp32 = true, .act2fn = true,
      .moe_weights_after_experts = true,
      .model_qkv_views = true,
      .dora_recomputes_base = true,
      .foreach_step = true,
      .fsdp_version = 1, .fsdp_no_sync = true,
      .source = "transformers/loss/loss_utils.py ForCausalLMLoss (4.46: logits = "
                "logits.float(), shift_logits = logits[..., :-1, :].contiguous()); the model "
                "returns the 16-bit logits; Trainer.training_step backward after compute_loss "
                "returned; optim adamw_torch; LlamaRMSNorm upcast; repeat_kv; LlamaSdpaAttention "
                "makes q contiguous only under a mask (the memory-efficient kernel then); "
                "bitsandbytes >= 0.43.2 MatMul4Bit keeps no input (PR #1270); "
                "every accumulating micro-batch under accelerator.no_sync whatever "
                "sync_each_batch says (trainer.py: context = functools.partial("
                "self.accelerator.no_sync, model=model) if i != len(batch_samples) - 1; "
                "transformers issue #29425)"}},
    /* 4.48: the attention functions moved to integrations/sdpa_attention.py, which makes
     * query, key and value contiguous before SDPA (a workaround for pytorch issue #112577), so
     * the flash kernel's output is laid out (batch, heads, seq, dim) and the model's
     * attn_output.transpose(1, 2).contiguous() copies it; removed by transformers PR #40315
     * (merged 2025-08-20, so from 4.56). The loss as in 4.46. */
    {GS_FW_TRANSFORMERS, REL(4, 48, 0),
     {.framework = GS_FW_TRANSFORMERS, .label = "transformers 4.48 (HF Trainer)",
      .loss = GS_LOSS_FP32, .loss_shift_copy = true, .loss_upcast = true,
      .norm_fp32_copy = true, .gqa_expanded = true, .query_contiguous = true,
      .adapters_fp32 = true, .softmax_fp32 = true, .act2fn = true,
      .moe_weights_after_experts = true,
      .model_qkv_views = true,
      .dora_recomputes_base = true,
      .foreach_step = true,
      .fsdp_version = 1, .fsdp_no_sync = true,
      .source = "transformers/loss/loss_utils.py ForCausalLMLoss (4.46: logits = "
                "logits.float(), shift_logits = logits[..., :-1, :].contiguous()); the model "
                "returns the 16-bit logits; Trainer.training_step backward after compute_loss "
                "returned; optim adamw_torch; LlamaRMSNorm upcast; integrations/sdpa_attention.py "
                "repeat_kv and query = query.contiguous() (until PR #40315); bitsandbytes "
                ">= 0.43.2 MatMul4Bit keeps no input (PR #1270); "
                "every accumulating micro-batch under accelerator.no_sync whatever "
                "sync_each_batch says (trainer.py: context = functools.partial("
                "self.accelerator.no_sync, model=model) if i != len(batch_samples) - 1; "
                "transformers issue #29425)"}},
    /* 4.49: ForCausalLMLoss pads the labels instead of copying the shifted logits
     * (transformers PR #35646, merged 2025-01-13, after 4.48.0), so the loss's backward is
     * its peak: 12 bytes a logit under the Trainer, which drops the output before backward;
     * 14 for a loop that keeps it. */
    {GS_FW_TRANSFORMERS, REL(4, 49, 0),
     {.framework = GS_FW_TRANSFORMERS, .label = "transformers 4.49-4.52 (HF Trainer)",
      .loss = GS_LOSS_FP32, .loss_upcast = true,
      .norm_fp32_copy = true, .gqa_expanded = true, .query_contiguous = true,
      .adapters_fp32 = true, .softmax_fp32 = true, .act2fn = true,
      .moe_weights_after_experts = true,
      .model_qkv_views = true,
      .dora_recomputes_base = true,
      .foreach_step = true,
      .fsdp_version = 1, .fsdp_no_sync = true,
      .source = "transformers/loss/loss_utils.py ForCausalLMLoss: logits.float(), labels = "
                "nn.functional.pad(labels, (0, 1), value=ignore_index) (PR #35646); "
                "Trainer.training_step backward after compute_loss returned the loss alone; "
                "optim adamw_torch; LlamaRMSNorm upcast; integrations/sdpa_attention.py repeat_kv "
                "and query = query.contiguous() (until PR #40315); bitsandbytes >= 0.43.2 "
                "MatMul4Bit keeps no input (PR #1270); "
                "every accumulating micro-batch under accelerator.no_sync whatever "
                "sync_each_batch says (trainer.py: context = functools.partial("
                "self.accelerator.no_sync, model=model) if i != len(batch_samples) - 1; "
                "transformers issue #29425)"}},
    /* 4.53: masks come from masking_utils.py (transformers PR #37866, the rewrite of the
     * masking logic; optimum-executorch PR #82 adapts to it "post 4.53"): SDPA gets a
     * boolean mask where one is needed, which aten turns into an additive one inside every
     * call (attention.cpp convert_boolean_attn_mask). Everything else as in 4.49. */
    {GS_FW_TRANSFORMERS, REL(4, 53, 0),
     {.framework = GS_FW_TRANSFORMERS, .label = "transformers 4.53-4.55 (HF Trainer)",
      .loss = GS_LOSS_FP32, .loss_upcast = true,
      .norm_fp32_copy = true, .gqa_expanded = true, .query_contiguous = true,
      .sdpa_bool_mask = true,
      .adapters_fp32 = true, .softmax_fp32 = true, .act2fn = true,
      .moe_weights_after_experts = true,
      .model_qkv_views = true,
      .dora_recomputes_base = true,
      .foreach_step = true,
      .fsdp_version = 1, .fsdp_no_sync = true,
      .source = "transformers/loss/loss_utils.py ForCausalLMLoss: logits.float(), labels = "
                "nn.functional.pad(labels, (0, 1), value=ignore_index) (PR #35646); "
                "Trainer.training_step backward after compute_loss returned the loss alone; "
                "optim adamw_torch; LlamaRMSNorm upcast; integrations/sdpa_attention.py repeat_kv "
                "and query = query.contiguous() (until PR #40315); masking_utils.py sdpa_mask "
                "(boolean); bitsandbytes >= 0.43.2 MatMul4Bit "
                "keeps no input (PR #1270); "
                "every accumulating micro-batch under accelerator.no_sync whatever "
                "sync_each_batch says (trainer.py: context = functools.partial("
                "self.accelerator.no_sync, model=model) if i != len(batch_samples) - 1; "
                "transformers issue #29425)"}},
    /* 4.56: sdpa_attention.py no longer makes the query contiguous (transformers PR #40315,
     * "Remove unnecessary contiguous calls for modern torch", merged 2025-08-20): a query
     * rotated by whole heads keeps the projection's (batch, seq, heads, dim) layout, so does
     * the flash kernel's output, and the model's transpose(1, 2).contiguous() copies nothing.
     * SDPA takes grouped K/V (sdpa_attention.py use_gqa_in_sdpa: enable_gqa=True with torch
     * >= 2.5 and no mask, transformers PR #39412, opened 2025-07-15; 4.56 is the first release
     * this table has it for, 4.54 and 4.55 may have it too and are sized with repeat_kv).
     * Everything else as in 4.49. */
    {GS_FW_TRANSFORMERS, REL(4, 56, 0),
     {.framework = GS_FW_TRANSFORMERS, .label = "transformers 4.56-4.x (HF Trainer)",
      .loss = GS_LOSS_FP32, .loss_upcast = true,
      .norm_fp32_copy = true, .gqa_expanded = true, .sdpa_gqa_native = true,
      .sdpa_bool_mask = true,
      .adapters_fp32 = true, .softmax_fp32 = true, .act2fn = true,
      .moe_weights_after_experts = true,
      .model_qkv_views = true,
      .dora_recomputes_base = true,
      .foreach_step = true,
      .fsdp_version = 1, .fsdp_no_sync = true,
      .source = "transformers/loss/loss_utils.py ForCausalLMLoss: logits.float(), labels = "
                "nn.functional.pad(labels, (0, 1), value=ignore_index) (PR #35646); "
                "Trainer.training_step backward after compute_loss returned the loss alone; "
                "optim adamw_torch; LlamaRMSNorm upcast; repeat_kv in eager attention; "
                "sdpa_attention.py use_gqa_in_sdpa (PR #39412) and the query as the model "
                "rotated it (PR #40315); bitsandbytes >= 0.43.2 MatMul4Bit keeps no input "
                "(PR #1270); "
                "every accumulating micro-batch under accelerator.no_sync whatever "
                "sync_each_batch says (trainer.py: context = functools.partial("
                "self.accelerator.no_sync, model=model) if i != len(batch_samples) - 1; "
                "transformers issue #29425)"}},
    /* 5.0: the loss as in 4.49 (the Trainer drops the model output before backward; a
     * plain loop that keeps only `.loss` is the same). The default optim is
     * adamw_torch_fused with torch >= 2.8 (training_args.py: default_optim), which steps
     * with no whole-model temporaries. SDPA takes grouped K/V natively
     * (integrations/sdpa_attention.py use_gqa_in_sdpa, torch >= 2.5 without a mask).
     * The accumulating micro-batches run under accelerator.no_sync as in 4.46, and from
     * accelerate 1.11 (PR #3762, the release current when transformers 5 came out) that
     * reaches FSDP2 too: Accelerator.no_sync calls model.set_requires_gradient_sync(False),
     * so fully_shard keeps every gradient unsharded until the last micro-batch
     * (_fsdp_param_group.py post_backward returns before the reduce-scatter when not
     * reduce_grads). Under 4.x, accelerate's no_sync looked for a `no_sync` method FSDP2
     * modules do not have, and every micro-batch was reduce-scattered. */
    {GS_FW_TRANSFORMERS, REL(5, 0, 0),
     {.framework = GS_FW_TRANSFORMERS, .label = "transformers 5.0-5.1 (HF Trainer)",
      .loss = GS_LOSS_FP32, .loss_upcast = true, .norm_fp32_copy = true,
      .gqa_expanded = true, .sdpa_gqa_native = true,
      .sdpa_bool_mask = true,
      .adapters_fp32 = true, .softmax_fp32 = true, .act2fn = true, .model_qkv_views = true,
      .moe_weights_after_experts = true, .bnb_skips_fused_experts = true,
      .dora_recomputes_base = true,
      .fsdp_version = 1, .fsdp_no_sync = true, .fsdp2_no_sync = true,
      .source = "transformers 5.x trainer.py compute_loss (loss only) then backward in "
                "training_step; loss/loss_utils.py ForCausalLMLoss: logits.float(), labels "
                "padded instead of shifted logits; training_args.py default_optim "
                "adamw_torch_fused (torch >= 2.8); modeling_llama.py eager_attention_forward "
                "softmax(dtype=torch.float32).to(query.dtype); LlamaRMSNorm upcast; "
                "bitsandbytes >= 0.43.2 MatMul4Bit keeps no input (PR #1270); every accumulating "
                "micro-batch under "
                "accelerator.no_sync whatever sync_each_batch says (transformers issue "
                "#29425), which under FSDP2 calls set_requires_gradient_sync(False) "
                "(accelerate >= 1.11, PR #3762)"}},
    /* 5.2: the Trainer asks the GradientAccumulationPlugin again and syncs every micro-batch
     * when sync_each_batch is set (transformers PR #43919, merged 2026-02-11; 5.1.0 was out
     * by 2026-02-06). Everything else as in 5.0. */
    {GS_FW_TRANSFORMERS, REL(5, 2, 0),
     {.framework = GS_FW_TRANSFORMERS, .label = "transformers 5.2-5.x (HF Trainer)",
      .loss = GS_LOSS_FP32, .loss_upcast = true, .norm_fp32_copy = true,
      .gqa_expanded = true, .sdpa_gqa_native = true,
      .sdpa_bool_mask = true,
      .adapters_fp32 = true, .softmax_fp32 = true, .act2fn = true, .model_qkv_views = true,
      .moe_weights_after_experts = true, .bnb_skips_fused_experts = true,
      .dora_recomputes_base = true,
      .fsdp_version = 1, .fsdp_no_sync = true, .fsdp2_no_sync = true,
      .sync_each_batch_option = true,
      .source = "transformers 5.x trainer.py compute_loss (loss only) then backward in "
                "training_step; loss/loss_utils.py ForCausalLMLoss: logits.float(), labels "
                "padded instead of shifted logits; training_args.py default_optim "
                "adamw_torch_fused (torch >= 2.8); modeling_llama.py eager_attention_forward "
                "softmax(dtype=torch.float32).to(query.dtype); LlamaRMSNorm upcast; "
                "bitsandbytes >= 0.43.2 MatMul4Bit keeps no input (PR #1270); accumulating "
                "micro-batches under "
                "accelerator.no_sync unless gradient_state.plugin_kwargs sync_each_batch "
                "(transformers PR #43919), which under FSDP2 calls "
                "set_requires_gradient_sync(False) (accelerate >= 1.11, PR #3762)"}},
    {GS_FW_TORCHTUNE, 0,
     {.framework = GS_FW_TORCHTUNE, .label = "torchtune", .loss = GS_LOSS_FP32,
      .loss_upcast = true, .loss_chunks = 8, .norm_fp32_copy = true, .gqa_expanded = true,
      .compile_blocks_only = true, .fsdp_version = 2,
      .model_without_dropout = true, .gate_up_apart = true, .qkv_apart = true,
      .source = "torchtune TransformerDecoder: output(h).float(), the recipe's _loss_step del "
                "logits; CEWithChunkedOutputLoss num_output_chunks = 8; modules/rms_norm.py "
                "x.float(); training/_compile.py compile_model compiles each layer, not the "
                "final norm; MultiHeadAttention expands k/v to every head before SDPA; rope on "
                "[b, s, n_h, h_d] before q.transpose(1, 2), so output.transpose(1, 2)"
                ".contiguous() copies nothing; torchao linear_nf4 keeps only the NF4 "
                "weight; zero_grad(set_to_none=True); recipe configs AdamW fused=True; FSDP2 "
                "fully_shard; every model builder passes attn_dropout=0.0 (the only dropout of "
                "its transformer layers; LoRA's own dropout apart); FeedForward's gate_proj and "
                "up_proj and MultiHeadAttention's q_proj, k_proj and v_proj are linears of their "
                "own (models/phi3/_component_builders.py; _convert_weights.py splits qkv_proj)"}},
    /* torchtitan before its first release (the commits of December 2024 to March 2025, among
     * them 9dec370 of its December 2024 benchmarks): the loss runs eager whatever `compile`
     * says (train.py: the loss's torch.compile commented out, "compiling loss function causes
     * CUDA errors", commit e8977b0, PR #755). Name it framework_version "0.0". SDPA in torch's
     * own order (flash first), which the per-op policy saves. Every release: torchtitan's own
     * models (models/llama3/model.py and the rest) have no dropout layer. */
    {GS_FW_TORCHTITAN, 0,
     {.framework = GS_FW_TORCHTITAN, .label = "torchtitan before 0.1 (the loss not compiled)",
      .model_without_dropout = true,
      .loss = GS_LOSS_FP32,
      .loss_upcast = true, .norm_fp32_copy = true, .gqa_expanded = true,
      .op_selective = true, .foreach_step = true, .expandable_segments = true,
      .loss_parallel = true, .fsdp_version = 2, .compile_blocks_only = true,
      .source = "torchtitan train.py cross_entropy(pred.flatten(0, 1).float(), ...) then del "
                "pred, under loss_parallel() when tensor-parallel (parallel_dims "
                "loss_parallel_enabled); the loss's torch.compile commented out (commit "
                "e8977b0); models/norms.py RMSNorm (self._norm(x.float())); apply_compile "
                "compiles each TransformerBlock, not the final norm; repeat_kv; "
                "apply_rotary_emb on (bs, seqlen, heads, dim) before xq.transpose(1, 2), so "
                "output.transpose(1, 2).contiguous() copies nothing; parallelize_llama.py "
                "selective_ac_option 'op' (_save_list: every other mm, SDPA's flash and "
                "efficient kernels); build_optimizers foreach=True; run_train.sh "
                "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True; FSDP2"}},
    /* 0.1 (from commit bbb1b61, April 2025, PR #1033): build_cross_entropy_loss wraps the loss
     * in torch.compile when the model is compiled; the rest as before (the FSDP layout, the
     * per-op policy and the loss parallel context are the same code at v0.1.0). On compute
     * capability 10.0 and up, cuDNN's attention goes first (PR #1209, May 2025), a kernel the
     * policy's save list does not name: its output is recomputed, not kept. */
    {GS_FW_TORCHTITAN, REL(0, 1, 0),
     {.framework = GS_FW_TORCHTITAN, .label = "torchtitan 0.1",
      .model_without_dropout = true, .loss = GS_LOSS_FP32,
      .loss_upcast = true, .norm_fp32_copy = true, .gqa_expanded = true,
      .op_selective = true, .loss_compiled = true, .foreach_step = true,
      .expandable_segments = true, .loss_parallel = true, .fsdp_version = 2,
      .compile_blocks_only = true, .cudnn_attention_first = GS_CUDNN_FIRST_BLACKWELL,
      .sac_recomputes_cudnn = true,
      .source = "torchtitan components/loss.py cross_entropy_loss (pred.flatten(0, 1).float()), "
                "build_cross_entropy_loss: torch.compile(loss_fn) when compile is on (PR "
                "#1033); train.py del pred before backward, loss_parallel() when "
                "tensor-parallel; torch.nn.RMSNorm (composite rms_norm upcasts to float on "
                "the torch 2.8 nightlies 0.1 pins); apply_compile compiles each "
                "TransformerBlock, not the final norm; repeat_kv; apply_rotary_emb before "
                "xq.transpose(1, 2); models/attention.py ScaledDotProductAttention: "
                "CUDNN_ATTENTION first if has_cuda_capability(10, 0); "
                "models/llama3/infra/parallelize.py selective_ac_option 'op' (_save_list: "
                "every other mm, SDPA's flash and efficient kernels, not cuDNN's); "
                "build_optimizers foreach=True; run_train.sh "
                "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True; FSDP2"}},
    /* 0.2.0 (from commit 83e6941, July 2025, PR #1094): apply_fsdp wraps the token embedding,
     * each block and [norm, output] apart, the last with reshard_after_forward False (its
     * backward comes next), and the root module with nothing left; the loss compiled from
     * compile.components (default ["model", "loss"]); ScaledDotProductAttentionWrapper puts
     * cuDNN's attention first on every GPU, still not in the policy's save list. v0.2.0
     * (October 2025) and later run on the torch nightly of their day (CI: pip install --pre
     * torch, 2.10.0.dev on), whose torch.nn.RMSNorm is fused on CUDA and keeps no fp32 copy
     * (no norm_fp32_copy: pytorch PR #153666, merged between July and August 2025, first in
     * 2.9; 0.1 pinned a 2.8 nightly of June 2025). */
    {GS_FW_TORCHTITAN, REL(0, 2, 0),
     {.framework = GS_FW_TORCHTITAN, .label = "torchtitan 0.2.0",
      .model_without_dropout = true, .loss = GS_LOSS_FP32,
      .loss_upcast = true, .gqa_expanded = true,
      .op_selective = true, .loss_compiled = true, .foreach_step = true,
      .expandable_segments = true, .loss_parallel = true, .fsdp_version = 2,
      .fsdp_root_split = true, .compile_blocks_only = true,
      .cudnn_attention_first = GS_CUDNN_FIRST, .sac_recomputes_cudnn = true,
      .source = "torchtitan components/loss.py build_cross_entropy_loss: torch.compile(loss_fn) "
                "when \"loss\" in compile.components; train.py del pred before backward, "
                "loss_parallel() when tensor-parallel; models/llama3/infra/parallelize.py "
                "apply_fsdp: fully_shard(model.tok_embeddings), each block, fully_shard([model."
                "norm, model.output], reshard_after_forward=False), fully_shard(model); "
                "apply_compile compiles each TransformerBlock, not the final norm; "
                "models/attention.py ScaledDotProductAttentionWrapper sdpa_backends "
                "[CUDNN_ATTENTION, FLASH_ATTENTION, EFFICIENT_ATTENTION]; _op_sac_save_list: "
                "every other mm, SDPA's flash and efficient kernels, not cuDNN's; "
                "torch.nn.RMSNorm on the torch nightlies from 2.10 it runs on: "
                "aten::_fused_rms_norm saves its input and rstd (pytorch PR #153666, in 2.9); "
                "repeat_kv; build_optimizers foreach=True; run_train.sh "
                "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True"}},
    /* 0.2.1 (December 2025): every SDPA kernel joins the per-op policy's save list (commit
     * b39377f9f, PR #2095, torchtitan issue #2091), cuDNN's included. */
    {GS_FW_TORCHTITAN, REL(0, 2, 1),
     {.framework = GS_FW_TORCHTITAN, .label = "torchtitan 0.2.1",
      .model_without_dropout = true, .loss = GS_LOSS_FP32,
      .loss_upcast = true, .gqa_expanded = true,
      .op_selective = true, .loss_compiled = true, .foreach_step = true,
      .expandable_segments = true, .loss_parallel = true, .fsdp_version = 2,
      .fsdp_root_split = true, .compile_blocks_only = true,
      .cudnn_attention_first = GS_CUDNN_FIRST,
      .source = "torchtitan 0.2.0's rules (components/loss.py, apply_fsdp's separate embedding "
                "and [norm, output] units, apply_compile per TransformerBlock, cuDNN's "
                "attention first, torch.nn.RMSNorm fused on its torch, repeat_kv); "
                "_op_sac_save_list adds _scaled_dot_product_cudnn_attention and every other "
                "SDPA kernel (PR #2095)"}},
    /* 0.2.2 (February 2026): grouped K/V go to SDPA as they are, enable_gqa=True, no repeat_kv
     * (commit ff0829c10, PR #2259; the backends CUDNN_ATTENTION, FLASH_ATTENTION, MATH). */
    {GS_FW_TORCHTITAN, REL(0, 2, 2),
     {.framework = GS_FW_TORCHTITAN, .label = "torchtitan 0.2.2",
      .model_without_dropout = true, .loss = GS_LOSS_FP32,
      .loss_upcast = true,
      .op_selective = true, .loss_compiled = true, .foreach_step = true,
      .expandable_segments = true, .loss_parallel = true, .fsdp_version = 2,
      .fsdp_root_split = true, .compile_blocks_only = true,
      .cudnn_attention_first = GS_CUDNN_FIRST,
      .source = "torchtitan 0.2.1's rules (components/loss.py, apply_fsdp's separate embedding "
                "and [norm, output] units, apply_compile per TransformerBlock, torch.nn.RMSNorm "
                "fused on its torch, every SDPA kernel in _op_sac_save_list); "
                "models/llama3/model/model.py Attention: F.scaled_dot_product_attention(..., "
                "enable_gqa=self.n_heads > self.n_kv_heads) on the grouped K/V (PR #2259)"}},
    /* The logits: model(input_ids, lm_head_chunk_size=128) returns x.split(128, dim=1)'s
     * chunks, which Fabric's module wrapper converts to fp32 (_FabricModule.forward:
     * precision.convert_output, to torch.get_default_dtype() under bf16-true and bf16-mixed
     * alike); the loop holds them through backward and chunked_cross_entropy's log_softmax
     * keeps its fp32 output per chunk. The head is a module of its own (litgpt/model.py
     * GPT.__init__: lm_head beside transformer.wte), and converting a checkpoint whose head is
     * tied copies the embedding into it (scripts/convert_hf_checkpoint.py, "if "lm_head.weight"
     * not in state_dict"): Llama 3.2 and Gemma train with V x d weights more than in
     * transformers (pretrain.py alone ties them, on train.tie_embeddings). */
    {GS_FW_LITGPT, 0,
     {LITGPT_RULES, .label = "lit-gpt (before LitGPT 0.2)", .longest_first = true,
      .quant_saves_input = true, .chunks_uncapped = true,
      .source = LITGPT_SOURCE "; finetune/lora.py get_batch(..., longest_seq_ix if iter_num "
                              "== 0): the longest sample first"}},
    /* 0.2 (the data refactor, PR #950, February 2024): DataLoaders of shuffled samples, so a
     * micro-batch at the longest can follow another, whose graph the loop's `logits` still
     * holds with every MatMul4Bit input (bitsandbytes 0.42.0 pinned) */
    {GS_FW_LITGPT, REL(0, 2, 0),
     {LITGPT_RULES, .label = "LitGPT 0.2-0.5.4", .quant_saves_input = true,
      .chunks_uncapped = true,
      .source = LITGPT_SOURCE "; get_dataloaders (shuffled); pyproject.toml "
                              "bitsandbytes==0.42.0; lora.py GPT.forward returns the head's "
                              "chunks before final_logit_softcapping"}},
    /* 0.5.5 (PR #1893, December 2024) pins bitsandbytes >= 0.44 on Linux, whose MatMul4Bit
     * keeps no input (ctx.tensors = (None, B), bitsandbytes PR #1270), and soft-caps each of the
     * head's chunks (commit 17a58dfa, PR #1891: clamp_head) */
    {GS_FW_LITGPT, REL(0, 5, 5),
     {LITGPT_RULES, .label = "LitGPT 0.5.5+",
      .source = LITGPT_SOURCE "; pyproject.toml bitsandbytes >=0.44 (MatMul4Bit keeps no "
                              "input); model.py GPT.forward: clamp_head(self.lm_head(x_i)) per "
                              "chunk"}},
    {GS_FW_MEGATRON, 0,
     {.framework = GS_FW_MEGATRON, .label = "Megatron-LM (Transformer Engine)",
      .loss = GS_LOSS_FP32, .loss_upcast = true, .grads_persist = true,
      .source = "Megatron-LM: vocab-parallel cross-entropy over fp32 logits "
                "(core/tensor_parallel/cross_entropy.py); Transformer Engine fused norms and "
                "native GQA attention; 'selective' recomputes the attention core (Korthikanti "
                "et al. 2022); the DDP wrapper's contiguous main_grad buffer lives for the "
                "whole run; fused Adam"}},
    {GS_FW_DEEPSPEED, 0,
     {.framework = GS_FW_DEEPSPEED, .label = "DeepSpeed engine (transformers model)",
      .loss = GS_LOSS_FP32, .keeps_16bit_logits = true, .loss_upcast = true,
      .norm_fp32_copy = true, .gqa_expanded = true, .sdpa_gqa_native = true,
      .sdpa_bool_mask = true,
      .softmax_fp32 = true, .act2fn = true, .model_qkv_views = true,
      .moe_weights_after_experts = true,
      .dora_recomputes_base = true, .grads_persist = true,
      .deepspeed_buckets = true,
      .source = "DeepSpeed ZeRO keeps its flat gradient partitions and IPG buckets "
                "(deepspeed/runtime/zero/stage_1_and_2.py, stage3.py) and steps with "
                "FusedAdam; the model is a transformers one (ForCausalLMLoss, LlamaRMSNorm "
                "upcast, repeat_kv in eager attention, SDPA with grouped K/V as in 4.56 on: "
                "sdpa_attention.py use_gqa_in_sdpa; bitsandbytes >= 0.43.2 MatMul4Bit keeps no "
                "input, PR #1270)"}},
};

static bool knob(enum gs_knob k, bool fallback)
{
    return k == GS_KNOB_DEFAULT ? fallback : k == GS_KNOB_ON;
}

void gs_framework_resolve(const struct gs_training_knobs *knobs, enum gs_attn_impl attn_impl,
                          struct gs_framework_rules *out)
{
    const enum gs_framework fw = knobs->framework < GS_FW_COUNT ? knobs->framework
                                                                 : GS_FW_TRANSFORMERS;
    const bool given = knobs->framework_version || knobs->framework_version_given;
    /* (release, patch) ordered as one number; a release named without its patch is its .0 */
    const uint64_t version =
        given ? (uint64_t)knobs->framework_version * 100 + knobs->framework_patch : UINT64_MAX;
    const struct row *pick = NULL;
    for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
        if (rows[i].framework == fw && rows[i].from <= version)
            pick = &rows[i];
    *out = pick != NULL ? pick->rules : rows[0].rules;
    /* the per-model changes between transformers releases (gs_mlp.router_linear_from) read the
     * release itself */
    if (fw == GS_FW_TRANSFORMERS)
        out->hf_release = version >= UINT32_MAX ? UINT32_MAX : (uint32_t)version;
    /* transformers' model code by attention path: eager calls repeat_kv
     * (modeling_llama.py eager_attention_forward); SDPA repeats them too until the release
     * hands them over grouped (sdpa_attention.py use_gqa_in_sdpa, torch >= 2.5 without a
     * mask); flash_attention_2/3 (flash-attn takes grouped heads) and flex_attention
     * (enable_gqa=True) never repeat. The query.contiguous() of 4.48-4.55 is in
     * sdpa_attention.py alone: flash_attention.py hands flash-attn the rotated query as it
     * lies, laid out (batch, seq, heads, dim), and flash-attn's output follows it (mha_fwd:
     * out = torch::empty_like(q)). */
    if (gs_framework_transformers_code(fw)) {
        out->gqa_expanded =
            attn_impl == GS_ATTN_EAGER || (attn_impl == GS_ATTN_SDPA && !out->sdpa_gqa_native);
        if (attn_impl != GS_ATTN_SDPA)
            out->query_contiguous = false;
        out->transformers_sdpa = attn_impl == GS_ATTN_SDPA;
        /* transformers' MLA (DeepseekV3Attention.forward) pads V to the query/key head width
         * whenever flash attention is requested (is_flash_attention_requested: flash_attention_2
         * and _3); releases before it padded for flash_attention_2 alone, so flash_attention_3
         * on them is sized with the padding, a little high */
        out->flash_pads_mla_value = attn_impl == GS_ATTN_FLASH2 || attn_impl == GS_ATTN_FLASH3;
    }
    if (knobs->loss != GS_LOSS_DEFAULT)
        out->loss = knobs->loss;
    if (knobs->loss_chunks)
        out->loss_chunks = knobs->loss_chunks;
    if (out->loss == GS_LOSS_CHUNKED && out->loss_chunks == 0 && out->loss_chunk_tokens == 0)
        out->loss_chunks = 8; /* torchtune's num_output_chunks */
    out->compile = knob(knobs->compile, false);
    out->optimizer_in_backward = knob(knobs->optimizer_in_backward, false);
    out->activation_offloading = knob(knobs->activation_offloading, false);
    out->expandable_segments = knob(knobs->expandable_segments, out->expandable_segments);
    if (knobs->set_to_none != GS_KNOB_DEFAULT)
        out->grads_persist = knobs->set_to_none == GS_KNOB_OFF;
    if (knobs->fused_optimizer != GS_KNOB_DEFAULT)
        out->foreach_step = knobs->fused_optimizer == GS_KNOB_OFF;
    /* sync_each_batch: true where the loop has the switch; false where the loop accumulates
     * under a no-sync context at all (and then under FSDP2 too: the user's accelerate is
     * >= 1.11). A value the loop cannot follow leaves the row's behaviour, said by the
     * estimate. */
    out->sync_each_batch_ignored = false;
    if (knobs->sync_each_batch == GS_KNOB_ON) {
        if (out->sync_each_batch_option)
            out->fsdp_no_sync = out->fsdp2_no_sync = false;
        else
            out->sync_each_batch_ignored = out->fsdp_no_sync || out->fsdp2_no_sync;
    } else if (knobs->sync_each_batch == GS_KNOB_OFF) {
        if (out->fsdp_no_sync || out->sync_each_batch_option)
            out->fsdp_no_sync = out->fsdp2_no_sync = true;
        else
            out->sync_each_batch_ignored = true;
    }
    /* a loop that keeps `outputs` while `outputs.loss.backward()` runs holds the logits the
     * model returned: fp32 where its forward upcast them (transformers <= 4.45), 16-bit
     * after; fp32_retained and Fabric's converted output count them already */
    if (knobs->keeps_output != GS_KNOB_DEFAULT && out->loss != GS_LOSS_FP32_RETAINED &&
        !(out->logits_fp32_held && !out->returns_fp32_logits)) {
        const bool keeps = knobs->keeps_output == GS_KNOB_ON;
        if (out->returns_fp32_logits)
            out->logits_fp32_held = keeps;
        else
            out->keeps_16bit_logits = keeps;
    }
}

/*
 * Bytes per logit at the loss's peak, per GPU's vocabulary share:
 * - fp32_retained (a loop that keeps fp32 logits the model returned, as
 *   torchtune's recipes did before they deleted them): the fp32 logits (4),
 *   log_softmax's saved output (4), its gradient (4) and the gradient of
 *   its input (4): 16.
 * - fp32 (torchtune, torchtitan, transformers): the upcast copy is not
 *   saved (log_softmax saves its output), so log_softmax output, its
 *   gradient and the input gradient: 12; plus what the caller holds of the
 *   model's output: 2 for 16-bit logits (14), 4 where the model returned
 *   them in fp32 (transformers <= 4.45: 16). Where the loss copies the
 *   shifted logits (transformers <= 4.48) its forward holds, at
 *   log_softmax, the returned logits (4 in fp32; 2 in 16 bits plus the
 *   4-byte upcast), the copy (4) and log_softmax's output (4): 12 or 14,
 *   so 4.46-4.48 hold 14 at the loss whether or not the caller keeps the
 *   output.
 * - chunked: each chunk's loss runs on its own. Eager, every chunk's saved
 *   log_softmax output stays until backward (4 with the fp32 upcast, 2
 *   without), plus one chunk's gradients at a time (8, or 4, over the
 *   chunks); compiled (torch.compile on the chunk loss), the fused kernel
 *   keeps only its 16-bit input (2) and one chunk's 16-bit gradient (2 over
 *   the chunks). The logits count once more when the caller holds them and
 *   the kernel does not already keep them: 2 in 16 bits, 4 when the caller's
 *   copy is fp32 (LitGPT's loop over Fabric's converted output: 4 + 4 + 8 /
 *   chunks).
 * - fused linear-cross-entropy (Liger, Cut Cross-Entropy): the logits are
 *   computed and reduced chunk by chunk inside the kernel: 0 (the input and
 *   weight gradients it makes are the head's moment, train_peak.c).
 * - chunked_nll (TRL's SFTTrainer): one checkpointed chunk of 256 tokens at a
 *   time, whatever the sequence: a working set, not bytes a logit (activation.c
 *   trl_chunked_nll_bytes).
 * - fp32 compiled with the model (torchtitan >= 0.1 under compile:
 *   torch.compile(cross_entropy_loss)): Inductor fuses the upcast, log_softmax and
 *   nll_loss into row reductions, and AOT autograd's partitioner saves what backward
 *   reads at least cost (torch/_functorch/partitioners.py
 *   min_cut_rematerialization_partition: pointwise ops recomputed, a reduction's
 *   small output saved): the 16-bit input (2) and the rows' max and log-sum-exp; the
 *   backward recomputes the softmax in one kernel and writes the input's gradient at
 *   the input's dtype (2): 4, as the compiled chunked loss below with one chunk. Under
 *   loss parallel it is sized as eager (below): what Dynamo makes of DTensor's
 *   loss_parallel handlers was not read.
 * - loss parallel (torchtitan under tensor parallelism: the logits stay
 *   sharded over the vocabulary and F.cross_entropy runs DTensor's handlers,
 *   torch/distributed/tensor/parallel/loss.py): the forward's _log_softmax
 *   decomposition holds the fp32 input, `shifted` and its exp (12, with the
 *   caller's 16-bit logits 14); the backward, fused for nll_loss and
 *   log_softmax (_nll_loss_and_log_softmax_backward), holds log_softmax's
 *   saved output, `grad_input = torch.zeros_like(x)`, `torch.exp(x)` and
 *   their sum at once, then the sum and its product with grad_output: 16,
 *   against the fused ATen kernels' 12 (20 where the caller keeps fp32
 *   logits).
 */
uint64_t gs_loss_eighths_per_logit(const struct gs_framework_rules *r, uint64_t chunks,
                                   uint64_t tensor)
{
    const uint64_t u = GS_LOSS_BYTES_UNIT;
    const uint64_t sharded = r->loss_parallel && tensor > 1 ? 4 : 0; /* loss parallel's extra */
    chunks = chunks ? chunks : 1;
    switch (r->loss) {
    case GS_LOSS_FP32_RETAINED:
        return (16 + sharded) * u;
    case GS_LOSS_FP32: {
        if (r->compile && r->loss_compiled && !sharded)
            return (2 + 2 + (r->logits_fp32_held ? 4 : 0)) * u;
        const uint64_t backward =
            12 + sharded + (r->logits_fp32_held ? 4 : r->keeps_16bit_logits ? 2 : 0);
        const uint64_t forward = r->loss_shift_copy ? (r->returns_fp32_logits ? 4 : 2 + 4) + 4 + 4
                                                    : 0;
        return (backward > forward ? backward : forward) * u;
    }
    case GS_LOSS_CHUNKED:
        if (r->compile)
            return 2 * u + (2 * u + chunks - 1) / chunks;
        return (r->logits_fp32_held ? 4 * u : r->keeps_16bit_logits ? 2 * u : 0) +
               (r->loss_upcast ? 4 : 2) * u + ((r->loss_upcast ? 8 : 4) * u + chunks - 1) / chunks;
    case GS_LOSS_FUSED:
    case GS_LOSS_CHUNKED_NLL: /* a working set of one chunk, not per logit: activation.c */
        return 0;
    case GS_LOSS_DEFAULT:
    case GS_LOSS_COUNT:
        break;
    }
    return 16 * u;
}

bool gs_framework_has_releases(enum gs_framework framework)
{
    for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
        if (rows[i].framework == framework && rows[i].from > 0)
            return true;
    return false;
}

bool gs_framework_adapts_qkv_parts(enum gs_framework framework)
{
    for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
        if (rows[i].framework == framework && rows[i].rules.lora_fused_qkv)
            return true;
    return false;
}

bool gs_framework_expert_linears(const struct gs_framework_rules *rules)
{
    /* LitGPT's lora.py LLaMAMoE: self.experts = nn.ModuleList(LLaMAMLP(...)), each MLP's fc_1,
     * fc_2 and proj a LoRALinear (lora_mlp adapts them all) */
    return (rules->act2fn && !rules->bnb_skips_fused_experts) ||
           rules->framework == GS_FW_LITGPT;
}

bool gs_framework_transformers_code(enum gs_framework fw)
{
    return fw == GS_FW_TRANSFORMERS || fw == GS_FW_DEEPSPEED;
}

const char *gs_framework_name(enum gs_framework f)
{
    static const char *const names[GS_FW_COUNT] = {
        [GS_FW_TRANSFORMERS] = "transformers", [GS_FW_TORCHTUNE] = "torchtune",
        [GS_FW_TORCHTITAN] = "torchtitan",     [GS_FW_LITGPT] = "litgpt",
        [GS_FW_MEGATRON] = "megatron",         [GS_FW_DEEPSPEED] = "deepspeed",
    };
    return f < GS_FW_COUNT ? names[f] : "";
}

const char *gs_loss_name(enum gs_loss l)
{
    static const char *const names[GS_LOSS_COUNT] = {
        [GS_LOSS_DEFAULT] = "",         [GS_LOSS_FP32_RETAINED] = "fp32_retained",
        [GS_LOSS_FP32] = "fp32",        [GS_LOSS_CHUNKED] = "chunked",
        [GS_LOSS_FUSED] = "fused",      [GS_LOSS_CHUNKED_NLL] = "chunked_nll",
    };
    return l < GS_LOSS_COUNT ? names[l] : "";
}

bool gs_release_parse(const char *text, bool zero_major, uint32_t *out)
{
    unsigned major = 0, minor = 0;
    int used = 0;
    if (text == NULL || sscanf(text, "%3u.%3u%n", &major, &minor, &used) != 2 || minor > 99 ||
        (major == 0 && !zero_major) || major > 99)
        return false;
    const char *rest = text + used;
    if (*rest != '\0' && *rest != '.')
        return false;
    for (const char *p = *rest ? rest + 1 : rest; *p; p++)
        if ((*p < '0' || *p > '9') && *p != '.' && *p != '+' && *p != '-' &&
            !(*p >= 'a' && *p <= 'z'))
            return false;
    *out = major * 100 + minor;
    return true;
}

uint32_t gs_release_patch(const char *text)
{
    unsigned major = 0, minor = 0, patch = 0;
    if (text == NULL || sscanf(text, "%3u.%3u.%3u", &major, &minor, &patch) != 3)
        return 0;
    return patch > 99 ? 99 : patch;
}

/* torch's cuDNN attention runs on NVIDIA compute capabilities 8.0 to 12.1
 * (sdp_utils.cpp check_cudnn_hardware_support: sm80..sm121) and 16-bit inputs
 * (check_dtypes_low_precision); the head-size limit is the block's
 * (activation.c). */
void gs_framework_resolve_gpu(struct gs_framework_rules *rules, enum gs_hw hw, bool gpu_named,
                              bool attention_16bit)
{
    const bool cudnn_capable = hw == GS_HW_AMPERE || hw == GS_HW_ADA || hw == GS_HW_HOPPER ||
                               hw == GS_HW_BLACKWELL || (!gpu_named && hw == GS_HW_UNKNOWN);
    bool first = false;
    switch ((enum gs_cudnn_first)rules->cudnn_attention_first) {
    case GS_CUDNN_FIRST:
        first = cudnn_capable;
        break;
    case GS_CUDNN_FIRST_BLACKWELL:
        first = hw == GS_HW_BLACKWELL;
        break;
    case GS_CUDNN_NOT_FIRST:
        break;
    }
    rules->sac_recomputes_attention =
        rules->op_selective && rules->sac_recomputes_cudnn && first && attention_16bit;
}

bool gs_framework_version_parse(const char *text, uint32_t *out)
{
    return gs_release_parse(text, false, out);
}
