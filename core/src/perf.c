/*
 * perf.c - roofline throughput and training time (see gs/perf.h for the
 * formulas and their papers).
 */
#include "gs/perf.h"
#include "gs/units.h"

#include <math.h>

void gs_efficiency_defaults(struct gs_efficiency *eff)
{
    eff->decode_bandwidth_permille = GS_DECODE_BANDWIDTH_PERMILLE;
    eff->decode_compute_permille = GS_DECODE_COMPUTE_PERMILLE;
    eff->prefill_permille = GS_PREFILL_PERMILLE;
    eff->training_mfu_permille = 0;
    eff->allreduce_latency_us = 0;
    eff->stack_bandwidth_permille = eff->stack_compute_permille = eff->stack_training_permille =
        1000;
    eff->per_vendor = true;
}

/* A generation's software stack against NVIDIA's, from a published comparison of the same
 * benchmark on both (each factor = the measured speed ratio over the ratio of the catalog's
 * peak figures, so that gpusizer's roofline reproduces the measured ratio). */
struct stack_row {
    enum gs_hw hw;
    uint16_t bandwidth, compute, training; /* thousandths */
    const char *source;
};

static const struct stack_row stack_rows[] = {
    /* Inference: MLPerf Inference v4.1, Llama 2 70B (FP8), offline and server: 8 x MI300X
     * "within 2-3%" of 8 x H100 (DGX H100) - 0.975 of its throughput with 5,300/3,350 = 1.582
     * times the memory bandwidth (0.975 / 1.582 = 0.616) and 1,307.4/989.5 = 1.321 times the
     * dense 16-bit peak, as FP8 (0.975 / 1.321 = 0.738). Training: MLPerf Training v5.0,
     * Llama 2 70B LoRA: 8 x MI325X "up to 8%" faster than 8 x H200, at 1.321 times the peak
     * (1.08 / 1.321 = 0.817). */
    {GS_HW_CDNA3, 616, 738, 817,
     "AMD Instinct MI300 series (CDNA 3): MLPerf Inference v4.1 Llama 2 70B, 8 x MI300X within "
     "2-3% of 8 x H100 (AMD, 'Engineering Insights: Unveiling MLPerf Results on AMD Instinct "
     "MI300X Accelerators', 2024): bandwidth 0.616 and compute 0.738 of NVIDIA's; MLPerf "
     "Training v5.0 Llama 2 70B LoRA, 8 x MI325X up to 8% faster than 8 x H200 (AMD, 'AMD "
     "Expands AI Momentum with First MLPerf Training Submission', June 2025): training MFU 0.817 "
     "of NVIDIA's"},
};

static const struct stack_row *stack_row_for(enum gs_hw hw)
{
    for (size_t i = 0; i < sizeof(stack_rows) / sizeof(stack_rows[0]); i++)
        if (stack_rows[i].hw == hw)
            return &stack_rows[i];
    return NULL;
}

void gs_efficiency_for_hw(struct gs_efficiency *eff, enum gs_hw hw)
{
    const struct stack_row *r = eff->per_vendor ? stack_row_for(hw) : NULL;
    eff->stack_bandwidth_permille = r != NULL ? r->bandwidth : 1000;
    eff->stack_compute_permille = r != NULL ? r->compute : 1000;
    eff->stack_training_permille = r != NULL ? r->training : 1000;
}

const char *gs_efficiency_hw_source(enum gs_hw hw)
{
    const struct stack_row *r = stack_row_for(hw);
    return r != NULL ? r->source : NULL;
}

/* An efficiency in thousandths, scaled by its stack factor. */
static double scaled(uint64_t permille, uint64_t stack)
{
    return (double)permille / 1000 * (double)(stack ? stack : 1000) / 1000;
}

double gs_perf_peak_flops(const struct gs_perf_gpu *gpu, enum gs_regime regime)
{
    double tflops = gpu->bf16_tflops > 0 ? gpu->bf16_tflops : gpu->fp16_tflops;
    if (regime == GS_REGIME_FP32 || regime == GS_REGIME_AMP)
        tflops /= 2; /* TF32 tensor cores run at half the 16-bit rate (A100, H100 datasheets) */
    return tflops * 1e12;
}

double gs_perf_link_bytes_per_s(const struct gs_perf_gpu *gpu)
{
    if (gpu->interconnect_gb_s > 0)
        return gpu->interconnect_gb_s * 1e9 / 2;
    if (gpu->pcie_gen >= 5)
        return 64e9;
    return 32e9; /* PCIe 4.0 x16, one direction */
}

static double latency_seconds(const struct gs_perf_gpu *gpu, const struct gs_efficiency *eff)
{
    if (eff->allreduce_latency_us > 0)
        return eff->allreduce_latency_us * 1e-6;
    /* NCCL small-message all-reduce: on the order of 10 us over NVLink, more over PCIe [U] */
    return (gpu->interconnect_gb_s > 0 ? 10.0 : 25.0) * 1e-6;
}

/* Expected distinct experts a batch of `batch` tokens touches per layer with
 * uniform routing: E (1 - (1 - k/S)^B), S the router's E + Z outputs (identity experts,
 * gs_mlp.zero_experts, are picked as often as any and touch no weights). */
static double experts_touched(const struct gs_block *b, uint64_t batch)
{
    const double e = (double)b->mlp.experts, k = (double)b->mlp.top_k;
    const double slots = (double)gs_mlp_router_outputs(&b->mlp);
    if (e <= 0 || k <= 0)
        return 0;
    return e * (1 - pow(1 - k / slots, (double)batch));
}

/* A count that grows with the position - x at the context - bounded by `cap` (0: unbounded):
 * at the context, min(x, cap); with `mean`, its mean over the positions up to the context,
 * x / 2 while the bound is not reached, else cap - cap^2 / (2 x) (the ramp to the bound, then
 * the bound: the sum of min(p, cap) over p = 1..x, divided by x). */
static double grown(double x, double cap, bool mean)
{
    if (cap <= 0 || x <= cap)
        return mean ? x / 2 : x;
    return mean ? cap - cap * cap / (2 * x) : cap;
}

/* Attention FLOPs per token at a context of `context` tokens, QK^T and AV:
 * 4 * a * d per attended token on every attention layer; a sliding or
 * chunked layer attends at most its window, a recurrent layer a fixed
 * state (counted in its parameters). With `sparse` (the serving engines'
 * sparse kernels), DeepSeek sparse attention attends the entries its
 * indexer selected - index_topk latents (DeepSeek-V3.2, GLM-5), or beside
 * DeepSeek-V4's window index_topk compressed entries on its ratio-4 layers
 * and every entry on its ratio-128 ones - and the indexer scores every key:
 * 2 x index heads x index_head_dim a key (the DeepSeek-V3.2-Exp report's
 * "O(L^2) to O(Lk)" core attention beside its lightning indexer). MiniMax-M3's
 * sparse GQA layers attend index_topk tokens the same way: sparse_topk_blocks
 * blocks of sparse_block_size, the query's own block forced among them (vLLM
 * models/minimax_m3/common/ops/index_topk.py: local blocks scored 1e29 inside the
 * top-k; sparse_attn.py loops over the selected blocks), its own block counted
 * whole. Training (`sparse` false) counts attention dense, as transformers' eager
 * modeling computes the scores before masking them. With `mean`, the mean over a
 * sequence's positions up to `context` (a prefill's tokens, a training sample's):
 * half the context where nothing bounds what a token attends, more where a window
 * or a top-k does. */
static double attention_flops(const struct gs_arch *a, double context, bool sparse, bool mean)
{
    uint64_t counts[GS_BLOCKS_MAX];
    gs_arch_count_blocks(a, 0, a->num_hidden_layers, counts);
    double flops = 0;
    for (size_t k = 0; k < a->block_count; k++) {
        const struct gs_block *b = &a->blocks[k];
        if (counts[k] == 0 || (b->mixer != GS_MIXER_ATTENTION && b->mixer != GS_MIXER_MLA))
            continue;
        const bool windowed = b->attn.span != GS_SPAN_FULL && b->attn.window > 0;
        double span = grown(context, windowed ? (double)b->attn.window : 0, mean);
        /* DeepSeek-V4.1's reading layers: the source's entries, its top-k selection */
        const bool reads = b->attn.compress_ratio == 0 && b->attn.read_ratio > 0;
        const double ratio = (double)(reads ? b->attn.read_ratio : b->attn.compress_ratio);
        const double topk = (double)(reads ? b->attn.read_topk : b->attn.index_topk);
        double keys = 0; /* what the indexer scores, at the context */
        if (sparse && b->mixer == GS_MIXER_MLA && ratio > 0) {
            keys = context / ratio; /* DeepSeek-V4's compressed entries, beside the window */
            span += grown(keys, topk, mean);
        } else if (sparse && gs_block_selects_topk(b) && topk > 0) {
            /* Qwen3.8-Flash-Next's QSA indexer scores its pooled keys, one an index_pool
             * tokens (Qwen4ExpTextQSAIndexer: the mean of each pool, then the top blocks) */
            const bool pooled = b->mixer == GS_MIXER_ATTENTION && b->attn.index_pool > 1;
            keys = pooled ? context / (double)b->attn.index_pool : context;
            span = grown(context, topk, mean);
        }
        const double scored = keys > 0 ? grown(keys, (double)b->attn.index_candidates, mean) : 0;
        flops += 4.0 * (double)counts[k] * (double)b->attn.heads * (double)b->attn.head_dim * span;
        if (b->attn.index_heads)
            flops += 2.0 * (double)counts[k] * (double)b->attn.index_heads *
                     (double)b->attn.index_head_dim * scored;
    }
    return flops;
}

/* Bytes of cache one sequence reads in a decode step at `context` tokens:
 * full-attention layers over every token (DeepSeek's sparse attention over
 * the tokens its index_topk selected entries span - on DeepSeek-V4's ratio-4
 * layers index_topk compressed entries, its ratio-128 ones every entry - and
 * its indexer over every key), windowed layers over their window, recurrent
 * layers their fixed state. */
static double cache_read_bytes(const struct gs_decode_input *in, double context)
{
    const struct gs_kv_layout *kv = in->kv;
    if (kv == NULL)
        return context * (double)in->kv_bytes_per_token_per_gpu;
    const double selected =
        kv->topk_tokens && (double)kv->topk_tokens < context ? (double)kv->topk_tokens : context;
    const uint64_t topk =
        kv->topk_token_bytes < kv->full_token_bytes ? kv->topk_token_bytes : kv->full_token_bytes;
    double bytes = context * (double)(kv->full_token_bytes - topk) + selected * (double)topk +
                   context * (double)kv->indexer_token_bytes;
    for (size_t i = 0; i < kv->window_count; i++) {
        const double w = (double)kv->windows[i].window;
        bytes += (w < context ? w : context) * (double)kv->windows[i].token_bytes;
    }
    /* DeepSeek-V4.1's layers that read a KV source's cache: read_topk of its entries each */
    for (uint64_t r = 1; r < GS_KV_READ_RATIOS; r++) {
        const double entries = context / (double)r;
        const double read = (double)kv->read_topk < entries ? (double)kv->read_topk : entries;
        bytes += read * (double)kv->read_entry_bytes[r];
    }
    return bytes + (double)kv->state_bytes_per_sequence;
}

static double decode_bandwidth(const struct gs_perf_gpu *gpu, const struct gs_efficiency *eff)
{
    return gpu->memory_bandwidth_gb_s * 1e9 *
           scaled(eff->decode_bandwidth_permille, eff->stack_bandwidth_permille);
}

bool gs_perf_can_decode(const struct gs_perf_gpu *gpu, const struct gs_efficiency *eff)
{
    return decode_bandwidth(gpu, eff) > 0 && gs_perf_peak_flops(gpu, GS_REGIME_BF16_MIXED) > 0;
}

double gs_perf_prefill_seconds(const struct gs_decode_input *in, const struct gs_perf_gpu *gpu,
                               const struct gs_efficiency *eff)
{
    if (!gs_perf_can_decode(gpu, eff))
        return 0;
    const double peak = gs_perf_peak_flops(gpu, GS_REGIME_BF16_MIXED);
    const double prefill_rate = peak * scaled(eff->prefill_permille, eff->stack_compute_permille);
    const double t = (double)(in->tensor ? in->tensor : 1);
    const double p = (double)(in->pipeline ? in->pipeline : 1);
    const double prompt = (double)in->prompt_tokens;
    const double prefill_flops = 2.0 * (double)in->active_parameters * prompt +
                                 attention_flops(in->arch, prompt, true, true) * prompt;
    return prefill_flops / (t * p * prefill_rate);
}

double gs_perf_request_seconds_floor(const struct gs_decode_input *in, const struct gs_perf_gpu *gpu,
                                     const struct gs_efficiency *eff)
{
    if (!gs_perf_can_decode(gpu, eff))
        return 0;
    const double compute = gs_perf_peak_flops(gpu, GS_REGIME_BF16_MIXED) *
                           scaled(eff->decode_compute_permille, eff->stack_compute_permille);
    const double t = (double)(in->tensor ? in->tensor : 1);
    const double p = (double)(in->pipeline ? in->pipeline : 1);
    const double flops_per_token =
        2.0 * (double)in->active_parameters +
        attention_flops(in->arch, (double)in->prompt_tokens, true, false);
    return gs_perf_prefill_seconds(in, gpu, eff) +
           (double)in->output_tokens * flops_per_token / (t * p * compute);
}

bool gs_perf_decode(const struct gs_decode_input *in, const struct gs_perf_gpu *gpu,
                    const struct gs_efficiency *eff, struct gs_decode_result *out)
{
    if (!gs_perf_can_decode(gpu, eff) || in->batch == 0)
        return false;
    const double bw = decode_bandwidth(gpu, eff);
    const double peak = gs_perf_peak_flops(gpu, GS_REGIME_BF16_MIXED);
    const double compute = peak * scaled(eff->decode_compute_permille, eff->stack_compute_permille);
    const double t = (double)(in->tensor ? in->tensor : 1);
    const double p = (double)(in->pipeline ? in->pipeline : 1);
    const double batch = (double)in->batch;
    /* decode runs over contexts from the prompt to prompt + output: the mean, unless a
     * later point is asked for */
    const double into = in->output_fraction > 0 ? in->output_fraction : 0.5;
    const double context = (double)in->prompt_tokens + (double)in->output_tokens * into;

    /* weights read per step: all but the untouched routed experts */
    double weights = (double)in->weights_bytes_per_gpu;
    out->experts_touched = 0;
    const struct gs_block *moe = gs_arch_moe_block(in->arch);
    if (in->expert_parameters > 0 && in->total_parameters > 0 && moe != NULL) {
        /* with expert parallelism over data-parallel ranks, every rank's tokens reach the
         * experts this rank holds */
        const uint64_t dpa = in->attention_data > 1 ? in->attention_data : 1;
        out->experts_touched = experts_touched(moe, in->batch * dpa);
        const double share = (double)in->expert_parameters / (double)in->total_parameters;
        const double touched = out->experts_touched / (double)moe->mlp.experts;
        weights = weights * (1 - share) + weights * share * touched;
    }
    /* p stages in turn, each with 1/p of the batch in flight: the weights are read p times a
     * cycle on each GPU, the KV cache once */
    out->memory_seconds = (p * weights + batch * cache_read_bytes(in, context)) / bw;
    const double flops_per_token =
        2.0 * (double)in->active_parameters + attention_flops(in->arch, context, true, false);
    out->compute_seconds = batch * flops_per_token / (t * p * compute);
    /* tensor parallelism: two ring all-reduces of the bf16 hidden state per layer */
    out->comm_seconds = 0;
    if (in->tensor > 1) {
        const double layers = (double)in->arch->num_hidden_layers;
        const double bytes = (batch / p) * (double)in->arch->hidden_size * 2;
        const double ring = 2 * (t - 1) / t * bytes / gs_perf_link_bytes_per_s(gpu);
        out->comm_seconds = 2 * layers * (latency_seconds(gpu, eff) + ring);
    }
    /* expert parallelism over data-parallel attention ranks: each MoE layer dispatches its
     * tokens' hidden states to their top-k experts' ranks and combines them back (the
     * all-to-all of DeepEP or NCCL), (g - 1)/g of them leaving the rank */
    if (in->attention_data > 1 && moe != NULL) {
        const double g = (double)in->attention_data;
        const double layers = (double)gs_arch_moe_layers(in->arch);
        const double bytes = batch * (double)moe->mlp.top_k * (double)in->arch->hidden_size * 2 *
                             (g - 1) / g;
        out->comm_seconds += 2 * layers * (latency_seconds(gpu, eff) +
                                           bytes / gs_perf_link_bytes_per_s(gpu));
    }
    out->step_seconds = fmax(out->memory_seconds, out->compute_seconds) + out->comm_seconds;
    out->decode_tokens_per_s = batch / out->step_seconds;

    const double prompt = (double)in->prompt_tokens;
    out->prefill_seconds = gs_perf_prefill_seconds(in, gpu, eff);
    out->prefill_tokens_per_s = out->prefill_seconds > 0 ? prompt / out->prefill_seconds : 0;
    /* prefill-decode interference (DistServe, Zhong et al., OSDI 2024, 2.2; Sarathi-Serve,
     * Agrawal et al., OSDI 2024): a replica that prefills and decodes on the same GPUs
     * prefills `batch` new prompts while its batch makes output_tokens steps, and those
     * prompts' work (chunked into the steps, or run between them) stretches the time between
     * tokens. vLLM's benchmark measures exactly this mean: TPOT = (latency - TTFT) /
     * (output_len - 1) (vllm/benchmarks/serve.py). */
    out->tpot_seconds =
        out->step_seconds + batch * out->prefill_seconds / (double)(in->output_tokens ? in->output_tokens : 1);
    /* each request: its prefill, then its share of output_tokens decode steps */
    const double per_request =
        out->prefill_seconds + (double)in->output_tokens * out->step_seconds / batch;
    out->requests_per_s = per_request > 0 ? 1 / per_request : 0;
    out->output_tokens_per_s = out->requests_per_s * (double)in->output_tokens;
    return true;
}

static double train_mfu(const struct gs_train_input *in, const struct gs_efficiency *eff)
{
    uint64_t permille = eff->training_mfu_permille;
    if (permille == 0)
        permille = in->moe ? GS_TRAIN_MFU_MOE_PERMILLE : GS_TRAIN_MFU_DENSE_PERMILLE;
    return scaled(permille, eff->stack_training_permille);
}

/* Model FLOPs per token, and the hardware's extra work per model FLOP. */
static void work_per_token(const struct gs_train_input *in, double *model, double *hardware)
{
    const double n = (double)in->flop_parameters;
    /* LoRA/QLoRA: forward 2N and the activation gradients 2N; the frozen weights get none */
    *model = (in->method == GS_METHOD_FULL ? 6.0 : 4.0) * n;
    /* full recomputation runs the forward pass again: 8N of hardware work for 6N of model work */
    *hardware = in->recompute == GS_RECOMPUTE_FULL ? (*model + 2.0 * n) / *model : 1.0;
}

double gs_perf_train_attention_share(const struct gs_arch *arch, uint64_t sequence,
                                     uint64_t flop_parameters, bool adapters)
{
    if (flop_parameters == 0 || sequence == 0)
        return 0;
    const double counted = (adapters ? 4.0 : 6.0) * (double)flop_parameters;
    return 3.0 * attention_flops(arch, (double)sequence, false, true) / counted;
}

/* 1F1B's idle share is (p - 1) / (m + p - 1) of a step: the bubble is p - 1 micro-batch
 * slots against m of work. An interleaved schedule (v model chunks a stage, Megatron-LM's
 * --num-virtual-stages-per-pipeline-rank, torch's ScheduleInterleaved1F1B) fills and drains
 * the pipeline a chunk at a time, each chunk 1/v of the stage's work, so the bubble shrinks
 * to (p - 1) / v slots (Narayanan et al. 2021, "Efficient Large-Scale Language Model Training
 * on GPU Clusters Using Megatron-LM", section 2.2.2: bubble time fraction (1/v) (p - 1) / m).
 * Its point-to-point traffic grows v-fold with it, which this model does not weigh (it counts
 * no pipeline sends at all: one activation a micro-batch and stage boundary, small beside the
 * tensor and data-parallel collectives above). */
static double bubble(const struct gs_train_input *in)
{
    const double p = (double)(in->pipeline ? in->pipeline : 1);
    /* a device_map's GPUs work one after another: each is busy 1/p of the step, a 1F1B
     * pipeline of one micro-batch (accelerate's docs call it naive pipeline parallelism) */
    if (in->in_turn)
        return 1.0 / p;
    const double m = (double)(in->micro_batches ? in->micro_batches : 1);
    const double v = (double)(in->virtual_stages > 1 ? in->virtual_stages : 1);
    return p > 1 ? v * m / (v * m + p - 1) : 1.0;
}

/* A pipeline moves every micro-batch at its slowest stage's pace (GPipe, Huang et al. 2019,
 * section 2.2: the stages are partitioned to balance their computation; Megatron-LM's
 * --decoder-last-pipeline-num-layers and account_for_loss_in_pipeline_split and torchtitan's
 * pipeline_parallel_last_stage_less_layers exist to lighten the stage with the head): the other
 * stages wait the difference. The mean stage's work over the busiest's. */
static double stage_balance(const struct gs_train_input *in)
{
    const uint64_t p = in->pipeline ? in->pipeline : 1;
    /* stages that run in turn wait for nobody: the step is the sum of their work */
    if (p < 2 || in->stage_flop_parameters == 0 || in->in_turn)
        return 1.0;
    const double mean = (double)in->flop_parameters / (double)p;
    const double balance = mean / (double)in->stage_flop_parameters;
    return balance < 1.0 ? balance : 1.0;
}

/* The passes over a micro-batch that run a layer's collectives: forward and backward, and the
 * forward again under full recomputation (Megatron-LM's CheckpointFunction reruns the layer's
 * forward, its communication included: Korthikanti et al. 2022, section 4). */
static double comm_passes(const struct gs_train_input *in)
{
    return in->recompute == GS_RECOMPUTE_FULL ? 3 : 2;
}

/* The tensor-parallel collectives a rank runs in one pass over a micro-batch, over its pipeline
 * stage's layers: one around attention and one around the MLP on a dense layer (Megatron-LM's
 * g in forward, f in backward, Shoeybi et al. 2019 section 3; under sequence parallelism an
 * all-gather and a reduce-scatter, the same bytes); on a MoE layer the one around attention,
 * and the shared experts' where the layer has them (Megatron-LM shared_experts.py
 * SharedExpertMLP: gather_from_sequence_parallel_region and
 * reduce_scatter_to_sequence_parallel_region over the tensor group). Its routed experts take
 * their tokens from the dispatcher instead (moe_layer.py: the token dispatcher works over the
 * expert groups, expt_tp for the experts' tensor split), counted with the all-to-alls and the
 * expert-tensor gathers. */
static double tensor_collectives(const struct gs_train_input *in)
{
    const double p = (double)(in->pipeline ? in->pipeline : 1);
    const uint64_t moe = in->moe_layers < in->layers ? in->moe_layers : in->layers;
    const double dense = (double)(in->layers - moe);
    return (2 * dense + (double)moe * (in->shared_experts ? 2 : 1)) / p;
}

/* The top-k routed copies of a rank's tokens in a step, 16 bits a value, once for each pass
 * that moves them (dispatch and combine in forward, their gradients in backward, the forward
 * again under full recomputation): its pipeline stage's MoE layers, its tensor (sequence)
 * share of one replica's tokens. */
static double routed_pass_bytes(const struct gs_train_input *in)
{
    const double dp = (double)(in->data_parallel ? in->data_parallel : 1);
    const double t = (double)(in->tensor ? in->tensor : 1);
    const double p = (double)(in->pipeline ? in->pipeline : 1);
    return 2 * comm_passes(in) * (double)in->moe_layers / p * in->tokens_per_step / (dp * t) *
           (double)in->top_k * (double)in->hidden * 2;
}

bool gs_perf_train(const struct gs_train_input *in, const struct gs_perf_gpu *gpu,
                   const struct gs_efficiency *eff, struct gs_train_result *out)
{
    const double peak = gs_perf_peak_flops(gpu, in->regime);
    if (peak <= 0 || in->gpus == 0 || in->flop_parameters == 0)
        return false;
    work_per_token(in, &out->flops_per_token, &out->hardware_factor);
    out->bubble_factor = bubble(in);
    out->stage_balance = stage_balance(in);
    out->mfu = train_mfu(in, eff);
    /* Data parallelism sends, per optimizer step and rank, the gradients reduced and, with
     * ZeRO-3 or FSDP, the weights gathered, as many times a step as the framework runs them
     * (estimate_training.c data_parallel_bytes). The frameworks overlap it with compute (DDP
     * buckets, FSDP prefetch), so it costs time only beyond the step's compute: the GPUs then
     * compute compute / communication of it. */
    out->comm_factor = 1;
    const double compute = in->tokens_per_step > 0
                               ? in->tokens_per_step * out->flops_per_token * out->hardware_factor /
                                     ((double)in->gpus * peak * out->mfu * out->bubble_factor *
                                      out->stage_balance)
                               : 0;
    double busy = compute;
    /* tensor parallelism's collectives (tensor_collectives, each pass), on the critical path:
     * ring all-reduces of tokens x hidden 16-bit values, one replica's tokens over the step */
    if (compute > 0 && in->tensor > 1 && in->tensor_link_bytes_per_s > 0 && in->layers) {
        const double t = (double)in->tensor;
        const double dp = (double)(in->data_parallel ? in->data_parallel : 1);
        const double tokens = in->tokens_per_step / dp; /* one replica's, all micro-batches */
        const double bytes = tokens * (double)in->hidden * 2;
        busy += tensor_collectives(in) * comm_passes(in) * 2 * (t - 1) / t * bytes /
                in->tensor_link_bytes_per_s;
    }
    /* expert parallelism: each MoE layer dispatches every token's hidden state to its top-k
     * experts' ranks and combines the outputs back, in forward, and both again for their
     * gradients in backward (Megatron-LM token_dispatcher.py MoEAlltoAllTokenDispatcher:
     * token_permutation and token_unpermutation, an all-to-all each; the forward again under
     * full recomputation), (g - 1)/g of it leaving the rank, on the critical path like the
     * tensor all-reduces. A rank holds its pipeline stage's layers and its tensor (sequence)
     * share of one replica's tokens, in 16 bits. */
    out->expert_bytes = 0;
    if (compute > 0 && in->expert > 1 && in->moe_layers && in->expert_link_bytes_per_s > 0) {
        const double g = (double)in->expert;
        const double sent = routed_pass_bytes(in) * (g - 1) / g;
        out->expert_bytes = gs_bytes_from_double(sent);
        busy += sent / in->expert_link_bytes_per_s;
    }
    /* expert tensor parallelism: after the dispatch each MoE layer all-gathers the tokens
     * routed to its experts over the expert's tensor ranks and reduce-scatters the partial
     * outputs before the combine (Megatron-LM token_dispatcher.py MoEAlltoAllTokenDispatcher:
     * gather_from_sequence_parallel_region and reduce_scatter_to_sequence_parallel_region over
     * the expt_tp group), and the reverse for their gradients in backward (the forward again
     * under full recomputation). A rank receives its share of the routed tokens, top-k copies
     * of its tensor (sequence) share of one replica's tokens, and sends it to each of the
     * r - 1 other ranks of the group in a ring, 16 bits a value. */
    out->expert_tensor_bytes = 0;
    if (compute > 0 && in->expert_tensor > 1 && in->moe_layers &&
        in->expert_tensor_link_bytes_per_s > 0) {
        const double sent = routed_pass_bytes(in) * (double)(in->expert_tensor - 1);
        out->expert_tensor_bytes = gs_bytes_from_double(sent);
        busy += sent / in->expert_tensor_link_bytes_per_s;
    }
    out->data_parallel_bytes = 0;
    if (in->data_parallel > 1 && in->link_bytes_per_s > 0 && compute > 0) {
        out->data_parallel_bytes = in->data_parallel_bytes;
        const double comm = (double)in->data_parallel_bytes / in->link_bytes_per_s;
        if (comm > busy)
            busy = comm;
    }
    if (busy > compute && compute > 0)
        out->comm_factor = compute / busy;
    out->mfu *= out->comm_factor;
    /* MFU counts model FLOPs only, so recomputation lowers the useful rate */
    out->tokens_per_s = (double)in->gpus * peak * out->mfu * out->bubble_factor *
                        out->stage_balance / (out->flops_per_token * out->hardware_factor);
    out->seconds = in->tokens / out->tokens_per_s;
    out->gpu_hours = out->seconds * (double)in->gpus / 3600;
    return true;
}

uint64_t gs_perf_train_gpus_for(const struct gs_train_input *in, const struct gs_perf_gpu *gpu,
                                const struct gs_efficiency *eff, double seconds)
{
    const double peak = gs_perf_peak_flops(gpu, in->regime);
    if (peak <= 0 || seconds <= 0)
        return 0;
    double model = 0, hardware = 1;
    work_per_token(in, &model, &hardware);
    const double per_gpu =
        peak * train_mfu(in, eff) * bubble(in) * stage_balance(in) / (model * hardware);
    const double needed = ceil(in->tokens / (per_gpu * seconds) - 1e-9);
    return needed < 1 ? 1 : needed > 1e12 ? (uint64_t)1e12 : (uint64_t)needed;
}
