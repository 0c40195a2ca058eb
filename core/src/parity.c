/*
 * parity.c - other tools' memory formulas, reproduced (see gs/parity.h for the
 * code each line follows).
 */
#include "gs/parity.h"

#include "gs/units.h"

#include <string.h>

static uint64_t max_u64(uint64_t a, uint64_t b)
{
    return a > b ? a : b;
}

/* DeepSpeed multiplies host figures by additional_buffer_factor = 1.5:
 * x * 3 / 2, floored as the printed float would be. */
static uint64_t times_1_5(uint64_t x, bool *ovf)
{
    return gs_mul(x, 3, ovf) / 2;
}

bool gs_parity_deepspeed(uint64_t P, uint64_t largest, uint64_t gpn, uint64_t nodes,
                         struct gs_deepspeed_parity *out)
{
    bool ovf = false;
    memset(out, 0, sizeof(*out));
    gpn = gpn ? gpn : 1;
    nodes = nodes ? nodes : 1;
    out->gpus_per_node = gpn;
    out->nodes = nodes;
    const uint64_t total_gpus = gs_mul(nodes, gpn, &ovf);
    struct gs_deepspeed_row *r = out->rows;
    /* stage_1_and_2.py::estimate_zero2_model_states_mem_needs */
    r[0] = (struct gs_deepspeed_row){2, "offload_optimizer=cpu", gs_mul(2, P, &ovf),
                                     times_1_5(gs_mul(P, max_u64(gs_mul(4, total_gpus, &ovf), 16), &ovf), &ovf)};
    r[1] = (struct gs_deepspeed_row){2, "offload_optimizer=none",
                                     gs_add(gs_mul(2, P, &ovf), gs_mul(18, P, &ovf) / total_gpus, &ovf),
                                     times_1_5(gs_mul(gs_mul(P, 4, &ovf), gpn, &ovf), &ovf)};
    out->row_count = 2;
    if (largest != 0) {
        /* stage3.py::estimate_zero3_model_states_mem_needs; gpus_factor = 1/num_nodes */
        const uint64_t llm = gs_mul(4, largest, &ovf);
        const uint64_t host4 = gs_mul(4, gpn, &ovf);
        /* P * k * gpus_factor * 1.5 = P * k * 3 / (2 * nodes); max(4*gpn, k/nodes) for zero_init=0 */
        const uint64_t p18 = gs_mul(gs_mul(P, 18, &ovf), 3, &ovf) / gs_mul(2, nodes, &ovf);
        const uint64_t p16 = gs_mul(gs_mul(P, 16, &ovf), 3, &ovf) / gs_mul(2, nodes, &ovf);
        const uint64_t p18_noinit = nodes * host4 >= 18 ? times_1_5(gs_mul(P, host4, &ovf), &ovf) : p18;
        const uint64_t p16_noinit = nodes * host4 >= 16 ? times_1_5(gs_mul(P, host4, &ovf), &ovf) : p16;
        r[2] = (struct gs_deepspeed_row){3, "offload_param=cpu, offload_optimizer=cpu, zero_init=1",
                                         llm, p18};
        r[3] = (struct gs_deepspeed_row){3, "offload_param=cpu, offload_optimizer=cpu, zero_init=0",
                                         llm, p18_noinit};
        r[4] = (struct gs_deepspeed_row){3, "offload_param=none, offload_optimizer=cpu, zero_init=1",
                                         gs_add(llm, gs_mul(2, P, &ovf) / total_gpus, &ovf), p16};
        r[5] = (struct gs_deepspeed_row){3, "offload_param=none, offload_optimizer=cpu, zero_init=0",
                                         gs_add(llm, gs_mul(2, P, &ovf) / total_gpus, &ovf),
                                         p16_noinit};
        r[6] = (struct gs_deepspeed_row){3, "offload_param=none, offload_optimizer=none, zero_init=1",
                                         gs_add(llm, gs_mul(18, P, &ovf) / total_gpus, &ovf),
                                         times_1_5(gs_mul(gs_mul(largest, 4, &ovf), gpn, &ovf), &ovf)};
        r[7] = (struct gs_deepspeed_row){3, "offload_param=none, offload_optimizer=none, zero_init=0",
                                         gs_add(llm, gs_mul(18, P, &ovf) / total_gpus, &ovf),
                                         times_1_5(gs_mul(gs_mul(P, 4, &ovf), gpn, &ovf), &ovf)};
        out->row_count = 8;
    }
    return !ovf;
}

/* Megatron's terms (theoretical_memory_usage.py,
 * compute_weight_and_optimizer_memory). */
struct megatron_terms {
    uint64_t tp_sharded, replicated, experts, embedding;
    bool untied;
};

/* Megatron's attention term for one block (megatron/training/theoretical_memory_usage.py): MLA
 * q_lora*(h + a*(nope+rope) + 1) + kv_lora*(h + a*(nope+v) + 1) + h*rope +
 * a*v*h; otherwise 2*h*h*((1 + k/a) * (a*d/h)) = 2*h*d*(a + k). A layer
 * kind Megatron's formula does not know (a recurrent mixer) counts its own
 * modules. */
static uint64_t megatron_attention(const struct gs_arch *a, const struct gs_block *b, bool *ovf)
{
    const uint64_t h = a->hidden_size;
    const struct gs_attention *s = &b->attn;
    if (b->mixer == GS_MIXER_MLA) {
        const uint64_t heads = s->heads, qk = s->qk_nope_head_dim + s->qk_rope_head_dim;
        uint64_t attn = s->q_lora_rank
                            ? gs_mul(s->q_lora_rank, gs_add(gs_add(h, gs_mul(heads, qk, ovf), ovf), 1, ovf), ovf)
                            : gs_mul(h, gs_mul(heads, qk, ovf), ovf);
        attn = gs_add(attn, gs_mul(s->kv_lora_rank,
                                   gs_add(gs_add(h, gs_mul(heads, s->qk_nope_head_dim + s->v_head_dim, ovf), ovf), 1, ovf),
                                   ovf),
                      ovf);
        return gs_add(attn, gs_add(gs_mul(h, s->qk_rope_head_dim, ovf),
                                   gs_mul(gs_mul(heads, s->v_head_dim, ovf), h, ovf), ovf),
                      ovf);
    }
    if (b->mixer == GS_MIXER_ATTENTION)
        return gs_mul(gs_mul(2, h, ovf), gs_mul(s->head_dim, s->heads + s->kv_heads, ovf), ovf);
    uint64_t n = 0;
    for (size_t i = 0; i < b->module_count; i++)
        if (b->modules[i].part == GS_PART_ATTENTION)
            n = gs_add(n, gs_module_parameters(&b->modules[i], ovf), ovf);
    return n;
}

/* Parameters per hidden unit of the block's norms: 2 for LayerNorm (weight
 * and bias), 1 for RMSNorm. */
static uint64_t norm_size(const struct gs_block *b)
{
    for (size_t i = 0; i < b->module_count; i++)
        if (b->modules[i].kind == GS_MODULE_NORM && b->modules[i].part == GS_PART_NORMS)
            return (b->modules[i].flags & GS_MOD_BIAS) ? 2 : 1;
    return 1;
}

static struct megatron_terms megatron_terms(const struct gs_arch *a, uint64_t padded_vocab,
                                            bool *ovf)
{
    struct megatron_terms m = {0, 0, 0, 0, !a->tie_word_embeddings};
    const uint64_t h = a->hidden_size;
    uint64_t counts[GS_BLOCKS_MAX], final_norm = 1;
    gs_arch_count_blocks(a, 0, a->num_hidden_layers, counts);
    for (size_t k = 0; k < a->block_count; k++) {
        const struct gs_block *b = &a->blocks[k];
        const uint64_t n = counts[k];
        if (n == 0)
            continue;
        final_norm = norm_size(b);
        const uint64_t attn = megatron_attention(a, b, ovf);
        /* 2*h*ffn*(3/2 if swiglu else 1) */
        const uint64_t factor = b->mlp.gated ? 3 : 2;
        uint64_t sharded = attn, replicated = gs_mul(gs_mul(2, h, ovf), norm_size(b), ovf);
        if (b->mlp.kind == GS_MLP_DENSE) {
            sharded = gs_add(sharded, gs_mul(gs_mul(factor, h, ovf), b->mlp.width, ovf), ovf);
        } else if (b->mlp.kind == GS_MLP_MOE) {
            sharded = gs_add(sharded, gs_mul(gs_mul(3, h, ovf), b->mlp.shared_width, ovf), ovf);
            replicated = gs_add(replicated, gs_mul(h, b->mlp.experts, ovf), ovf); /* router */
            const uint64_t routed = gs_mul(gs_mul(gs_mul(factor, h, ovf), b->mlp.width, ovf),
                                           b->mlp.experts, ovf);
            m.experts = gs_add(m.experts, gs_mul(routed, n, ovf), ovf);
        }
        m.tp_sharded = gs_add(m.tp_sharded, gs_mul(sharded, n, ovf), ovf);
        m.replicated = gs_add(m.replicated, gs_mul(replicated, n, ovf), ovf);
    }
    m.replicated = gs_add(m.replicated, gs_mul(h, final_norm, ovf), ovf);
    m.embedding = gs_mul(h, padded_vocab, ovf);
    return m;
}

/* Megatron's ffn_hidden_size: the dense MLP width (a MoE model's dense
 * layers, or its experts' width when every layer routes). */
static uint64_t megatron_ffn(const struct gs_arch *a)
{
    uint64_t moe = 0;
    for (size_t k = 0; k < a->block_count; k++) {
        if (a->blocks[k].mlp.kind == GS_MLP_DENSE)
            return a->blocks[k].mlp.width;
        if (a->blocks[k].mlp.kind == GS_MLP_MOE && moe == 0)
            moe = a->blocks[k].mlp.width;
    }
    return moe;
}

/* Megatron bytes per parameter: 18 without the distributed optimizer,
 * 6 + 12/dp with it (num_bytes_per_parameter). */
static uint64_t megatron_bytes(uint64_t params, bool distributed, uint64_t dp, bool *ovf)
{
    if (!distributed)
        return gs_mul(params, 18, ovf);
    return gs_add(gs_mul(params, 6, ovf), gs_mul(params, 12, ovf) / (dp ? dp : 1), ovf);
}

/* The pipeline schedule's factor on the first stage's activations: the interleaved schedule's
 * memory penalty, 1 + (p - 1) / (p v) (interleaved_schedule_memory_penalty), or, without
 * interleaving, m / p when fewer micro-batches than stages are in flight. */
static uint64_t megatron_schedule(uint64_t total, const struct gs_parallelism *par, uint64_t m,
                                  bool *ovf)
{
    const uint64_t p = par->pipeline ? par->pipeline : 1, v = gs_stage_chunks(&par->stages);
    if (p > 1 && v > 1)
        return gs_mul(total, gs_add(gs_mul(p, v, ovf), p - 1, ovf), ovf) / gs_mul(p, v, ovf);
    if (m < p) /* non-interleaved schedule with fewer micro-batches than stages */
        return gs_mul(total, m, ovf) / p;
    return total;
}

/* compute_activation_memory (sequence parallel + selective) and
 * compute_activation_memory_without_sp. */
static uint64_t megatron_activations(const struct gs_arch *a, const struct gs_training *tr,
                                     const struct gs_parallelism *par, uint64_t padded_vocab,
                                     bool sp_path, bool *ovf)
{
    const uint64_t s = tr->sequence_length, b = tr->batch_size, h = a->hidden_size;
    const uint64_t t = par->tensor, p = par->pipeline, L = a->num_hidden_layers;
    const uint64_t sbh = gs_mul(gs_mul(s, b, ovf), h, ovf);
    const uint64_t m = tr->gradient_accumulation_steps ? tr->gradient_accumulation_steps : 1;
    uint64_t total;
    if (sp_path) {
        /* sbh * (18 + 4*ffn/h) per layer, x L (p micro-batches x L/p layers) */
        uint64_t per_layer = gs_add(gs_mul(sbh, 18, ovf), gs_mul(gs_mul(gs_mul(s, b, ovf), 4, ovf), megatron_ffn(a), ovf), ovf);
        total = gs_mul(per_layer, L, ovf);
        total = gs_add(total, gs_mul(gs_mul(gs_mul(8, s, ovf), b, ovf), p, ovf), ovf); /* embedding input */
        total = gs_add(total, gs_mul(sbh, p, ovf), ovf);                             /* embedding dropout */
        if (p == 1) /* output layer and loss, fp32 logits */
            total = gs_add(total, gs_add(gs_mul(4, sbh, ovf),
                                         gs_mul(gs_mul(gs_mul(4, s, ovf), b, ovf), padded_vocab, ovf), ovf),
                           ovf);
        total = megatron_schedule(total, par, m, ovf);
        return total / t;
    }
    /* sbh * (10 + 24/t) per layer, not divided by t afterwards */
    uint64_t per_layer = gs_add(gs_mul(sbh, 10, ovf), gs_mul(sbh, 24, ovf) / t, ovf);
    total = gs_mul(per_layer, L, ovf);
    total = gs_add(total, gs_mul(gs_mul(gs_mul(8, s, ovf), b, ovf), p, ovf), ovf);
    total = gs_add(total, gs_mul(sbh, p, ovf), ovf);
    if (p == 1) /* fp16 logits */
        total = gs_add(total, gs_mul(2, gs_add(gs_mul(gs_mul(s, b, ovf), padded_vocab, ovf) / t, sbh, ovf), ovf),
                       ovf);
    total = megatron_schedule(total, par, m, ovf);
    return gs_mul(total, 105, ovf) / 100; /* the path's 1.05 overhead factor */
}

bool gs_parity_megatron(const struct gs_arch *a, const struct gs_training *tr,
                        const struct gs_parallelism *par, struct gs_megatron_parity *out)
{
    bool ovf = false;
    memset(out, 0, sizeof(*out));
    const uint64_t t = par->tensor ? par->tensor : 1, p = par->pipeline ? par->pipeline : 1;
    const uint64_t e = par->expert ? par->expert : 1, c = par->context ? par->context : 1;
    const uint64_t dp = par->data ? par->data : 1;
    const uint64_t world = gs_mul(gs_mul(t, p, &ovf), gs_mul(c, dp, &ovf), &ovf);
    /* make_vocab_size_divisible_by = 128, times t (build_tokenizer.py) */
    const uint64_t multiple = gs_mul(128, t, &ovf);
    out->padded_vocab = gs_mul(gs_div_ceil(a->vocab_size, multiple), multiple, &ovf);
    const struct megatron_terms m = megatron_terms(a, out->padded_vocab, &ovf);
    uint64_t tp_part = gs_add(m.tp_sharded / p, m.embedding, &ovf);
    if (m.untied && p == 1)
        tp_part = gs_add(tp_part, m.embedding, &ovf);
    tp_part /= t;
    const uint64_t rep_part = m.replicated / p;
    /* --expert-tensor-parallel-size, tensor when not given (arguments.py) */
    const uint64_t etp = par->expert_tensor ? par->expert_tensor : t;
    const uint64_t exp_part = m.experts / p / gs_mul(e, etp, &ovf);
    const uint64_t expert_dp = world / gs_mul(gs_mul(e, etp, &ovf), p, &ovf);
    out->parameters_on_most_loaded_shard = gs_add(tp_part, rep_part, &ovf);
    out->expert_parameters_on_shard = exp_part;
    const bool dist = par->distributed_optimizer;
    out->weight_and_optimizer_bytes =
        gs_add(megatron_bytes(out->parameters_on_most_loaded_shard, dist, dp, &ovf),
               megatron_bytes(exp_part, dist, expert_dp, &ovf), &ovf);
    out->weight_and_optimizer_bytes_other =
        gs_add(megatron_bytes(out->parameters_on_most_loaded_shard, !dist, dp, &ovf),
               megatron_bytes(exp_part, !dist, expert_dp, &ovf), &ovf);
    if (tr->batch_size && tr->sequence_length) {
        out->has_activations = true;
        out->sequence_parallel_path = par->sequence_parallel && tr->recompute == GS_RECOMPUTE_SELECTIVE;
        out->activation_bytes = megatron_activations(a, tr, par, out->padded_vocab,
                                                     out->sequence_parallel_path, &ovf);
    }
    return !ovf;
}

void gs_parity_accelerate(uint64_t N, uint64_t largest, struct gs_accelerate_parity *out)
{
    /* estimate.py: sizes from the fp32 model (4N bytes), /2 for 16-bit, /4
     * int8, /8 int4; estimate_training_usage takes the maximum of model,
     * gradients, optimizer and step: 16N for fp32, 8N for fp16/bf16. */
    const uint64_t fp32 = 4 * N, layer32 = 4 * largest;
    out->rows[0] = (struct gs_accelerate_row){"float32", fp32, layer32, true, 16 * N};
    out->rows[1] = (struct gs_accelerate_row){"float16/bfloat16", fp32 / 2, layer32 / 2, true, 8 * N};
    out->rows[2] = (struct gs_accelerate_row){"int8", fp32 / 4, layer32 / 4, false, 0};
    out->rows[3] = (struct gs_accelerate_row){"int4", fp32 / 8, layer32 / 8, false, 0};
}
