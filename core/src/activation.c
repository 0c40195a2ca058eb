/*
 * activation.c - activation bytes per GPU (see gs/activation.h for the
 * model and docs/training-peaks.md for the code behind every term).
 */
#include "gs/activation.h"

#include "gs/units.h"

#include <string.h>

struct acc {
    bool ovf;
};

static uint64_t mul(struct acc *a, uint64_t x, uint64_t y)
{
    return gs_mul(x, y, &a->ovf);
}

static uint64_t add(struct acc *a, uint64_t x, uint64_t y)
{
    return gs_add(x, y, &a->ovf);
}

static uint64_t div_ceil(uint64_t n, uint64_t d)
{
    return gs_div_ceil(n, d ? d : 1);
}

/* Widths of what the token mixer saves per token: Q and the out-projection
 * input, K and V; a recurrent mixer (Mamba, Gated DeltaNet) saves its
 * in_proj output, the conv output and the gated output out_proj reads. */
static void mixer_widths(const struct gs_block *b, uint64_t *q, uint64_t *k, uint64_t *v,
                         uint64_t *o)
{
    const struct gs_attention *s = &b->attn;
    *q = *k = *v = *o = 0;
    switch ((enum gs_mixer)b->mixer) {
    case GS_MIXER_MLA: {
        const uint64_t qk = s->qk_nope_head_dim + s->qk_rope_head_dim;
        *q = *k = s->heads * qk;
        *v = *o = s->heads * s->v_head_dim;
        return;
    }
    case GS_MIXER_ATTENTION: {
        uint64_t widths[3];
        gs_attention_qkv_widths(s, widths);
        *q = widths[0];
        *k = widths[1];
        *v = widths[2];
        *o = s->heads * s->v_head_dim;
        /* a parallel hybrid (Falcon-H1) also runs a recurrent mixer beside attention */
        *q += b->rec.in_width;
        *k += b->rec.conv_channels;
        *v += b->rec.inner;
        *o += b->rec.inner;
        return;
    }
    case GS_MIXER_RECURRENT:
        *q = b->rec.in_width;
        *k = b->rec.conv_channels;
        *v = *o = b->rec.inner;
        return;
    case GS_MIXER_NONE:
        break;
    }
}

/* Where a linear layer reads its input from. */
enum role { ROLE_ATTN_IN, ROLE_OUT, ROLE_MLP_IN, ROLE_DOWN, ROLE_COUNT };

static bool is_body_linear(const struct gs_module *m)
{
    return m->kind == GS_MODULE_LINEAR && !(m->flags & GS_MOD_EXPERT) &&
           (m->part == GS_PART_ATTENTION || m->part == GS_PART_MLP);
}

/* Row-parallel layers (o_proj, down_proj) read the mixer's or the MLP's
 * output; the others read a norm's output. */
static enum role role_of(const struct gs_module *m)
{
    const bool mlp = m->part == GS_PART_MLP;
    if (m->split == GS_SPLIT_ROW)
        return mlp ? ROLE_DOWN : ROLE_OUT;
    return mlp ? ROLE_MLP_IN : ROLE_ATTN_IN;
}

/* What the linear layers of a block keep, by role. */
struct linears {
    bool saves[ROLE_COUNT];        /* some layer of the role keeps its input */
    uint64_t copies[ROLE_COUNT];   /* layers of the role that keep their own 16-bit copy
                                      (autocast casts per call) */
    uint64_t dropout[ROLE_COUNT];  /* what adapters keep of their input beyond the shared one
                                      (LoRA dropout output and mask, fp32 casts), per token */
    uint64_t masks[ROLE_COUNT];    /* of `dropout`, the LoRA dropout masks, per token (kept only
                                      where the input needs a gradient) */
    uint64_t direct[ROLE_COUNT];   /* adapters whose lora_A keeps the shared input itself (no
                                      dropout, no cast): what a layer whose input needs no
                                      gradient still keeps of it */
    bool adapted[ROLE_COUNT];      /* some layer of the role carries an adapter */
    uint64_t fused_delta;          /* LitGPT's fused QKV adapter: the adapted outputs' width,
                                      which zero_pad's index_copy keeps (gs_framework_rules
                                      lora_fused_qkv) */
    uint64_t dora_token;           /* DoRA: the base and adapter outputs its products keep, per
                                      token (dora_bytes) */
    uint64_t dora_layer;           /* DoRA with dropout: the weight copies F.linear keeps, per
                                      layer */
    uint64_t cross_copies;         /* of copies[ROLE_ATTN_IN], a cross-attention's k and v
                                      projections (GS_MOD_CROSS): copies of the encoder's output */
    /* a cross-attention-only layer's k and v projections (GS_MOD_CROSS in an attn.cross_only
     * block: Mllama's), which read the images' states rather than the layer's normed input and
     * are counted apart from ROLE_ATTN_IN, over those states' positions */
    bool cross_saves;       /* one of them keeps the states themselves (its weight trains, or an
                               adapter's lora_A reads them as they are) */
    bool cross_key_adapted; /* k_proj carries an adapter: the keys need a gradient */
    uint64_t cross_dropout; /* what their adapters keep of the states beyond them, a position */
    uint64_t cross_masks;   /* of cross_dropout, the LoRA dropout masks */
};

/* What DoRA keeps for backward in one adapted nn.Linear(d_in, d_out), beyond LoRA's
 * (peft/tuners/lora/dora.py DoraLinearLayer.forward, variants.py DoraLinearVariant.forward):
 * result_dora = (m / ||W + dW|| - 1) * base_result + m / ||W + dW|| * lora_result * scaling, the
 * magnitude m trainable, so each product keeps its full-size operand: base_result and
 * lora_B(lora_A(x)), d_out values a token each. Without dropout base_result is the base layer's
 * own output (the activation dtype); with dropout PEFT recomputes it as F.linear(x, W.to(x.dtype))
 * over the dropped input, at the adapter's dtype, and that linear keeps the weight it read - a
 * copy wherever the cast or a 4-bit base's dequantization makes one - until backward (torchtune's
 * DoRALinear keeps its base output, gs_framework_rules dora_recomputes_base). The norm
 * ||W + dW|| is detached: its full-size temporaries (the weight's cast, lora_B @ lora_A through
 * an identity, their sum) are gone before the layer's forward returns. `out_bytes` is the
 * adapter output's element size; `copy` whether W.to(x.dtype) is a new tensor. */
static void dora_bytes(struct acc *c, const struct gs_activation_input *in,
                       const struct gs_module *m, uint64_t e, uint64_t out_bytes, bool copy,
                       uint64_t count, struct linears *l)
{
    const bool recomputed = in->adapters->lora_dropout_permille > 0 &&
                            (in->rules == NULL || in->rules->dora_recomputes_base);
    const uint64_t base = recomputed ? out_bytes : e;
    l->dora_token = add(c, l->dora_token, mul(c, mul(c, base + out_bytes, m->out), count));
    if (recomputed && copy)
        l->dora_layer =
            add(c, l->dora_layer, mul(c, mul(c, mul(c, out_bytes, m->in), m->out), count));
}

/* Does this linear keep its input for backward? Full training: its weight
 * has a gradient. Adapters: a 4-bit base layer that saves its input whatever
 * trains (bitsandbytes MatMul4Bit before 0.43.2: ctx.tensors = (A, B); PR #1270
 * made it (None, B)), or an adapter whose lora_A reads the input itself (no
 * dropout); a frozen 16-bit layer needs only its weight for the input gradient. */
static bool linear_saves(const struct gs_activation_input *in, const struct gs_module *m,
                         bool adapted, bool cast)
{
    if (in->trainable == GS_TRAIN_ALL)
        return true;
    const bool quant_saves = in->rules == NULL || in->rules->quant_saves_input;
    if (in->quantized_base && (m->flags & GS_MOD_QUANT) && quant_saves)
        return true;
    return adapted && in->adapters->lora_dropout_permille == 0 && !cast;
}

/* Which of transformers' Mamba2 paths a GS_SCAN_MAMBA2_COMBINED block trains through: the
 * combined kernel (mamba_split_conv1d_scan_combined: conv, scan, gated norm and out_proj in one
 * autograd Function), Nemotron-H's path for a batch with padding (its cuda_kernels_forward takes
 * the combined function only when input_not_masked: causal_conv1d_fn, mamba_chunk_scan_combined,
 * then the norm and out_proj as modules), or the torch fallback (torch_forward's naive chunked
 * SSD, without mamba-ssm). */
enum mamba2_path { MAMBA2_COMBINED, MAMBA2_CHUNKED, MAMBA2_NAIVE };

static enum mamba2_path mamba2_path(const struct gs_activation_input *in, const struct gs_block *b)
{
    if (in->recurrent_torch)
        return MAMBA2_NAIVE;
    return in->padding_mask && b->rec.padded_unfused ? MAMBA2_CHUNKED : MAMBA2_COMBINED;
}

/* Whether the block's linear `m` runs as a module, so that an adapter on it runs: the fused
 * functions a counted scan trains through read some weights themselves (PEFT's layer hands
 * .weight over from its base layer) - Mamba2's mamba_split_conv1d_scan_combined out_proj's
 * (outproj_weight=self.out_proj.weight), Mamba's mamba_inner_fn x_proj's, dt_proj's and
 * out_proj's (its torch fallback calls the modules) - and an adapter there never runs. */
static bool adapter_runs(const struct gs_activation_input *in, const struct gs_block *b,
                         const struct gs_module *m)
{
    if (b->rec.inner == 0 || !gs_activation_counts_scan(in, b))
        return true;
    const bool out_proj = strcmp(m->name, "out_proj") == 0;
    if (b->rec.scan == GS_SCAN_MAMBA2_COMBINED)
        return !out_proj || mamba2_path(in, b) != MAMBA2_COMBINED;
    if (b->rec.scan == GS_SCAN_MAMBA1_INNER && !in->recurrent_torch)
        return !out_proj && strcmp(m->name, "x_proj") != 0 && strcmp(m->name, "dt_proj") != 0;
    return true;
}

/* The input width of the block's linear `name` (0 where the block has none). */
static uint64_t named_linear_in(const struct gs_block *b, const char *name)
{
    for (size_t i = 0; i < b->module_count; i++)
        if (b->modules[i].kind == GS_MODULE_LINEAR && strcmp(b->modules[i].name, name) == 0)
            return b->modules[i].in;
    return 0;
}

/* A low-rank gate's second stage in a Kimi Delta Attention layer (f_b_proj, g_b_proj): its input
 * is the first stage's narrow output, not the layer's normed input, and kimi_delta_bytes counts
 * it. */
static bool kimi_low_rank_stage(const struct gs_activation_input *in, const struct gs_block *b,
                                const struct gs_module *m)
{
    return b->rec.scan == GS_SCAN_KIMI_DELTA && m->split == GS_SPLIT_COLUMN &&
           m->in != in->arch->hidden_size;
}

/* What lora_A(lora_dropout(x)) keeps of an input element beyond x itself, where it keeps a
 * tensor of its own (`cast`: PEFT's fp32 copy of a 16-bit input; else the dropout's output):
 * that tensor at its dtype - under autocast lora_A's own 16-bit copy of an fp32 one - and, with
 * `mask`, nn.Dropout's 1-byte mask. */
static uint64_t adapter_copy_bytes(const struct gs_activation_input *in, bool cast, bool mask)
{
    const uint64_t seen = cast ? 4 : in->element_bytes;
    return (mask ? 1 : 0) + (in->autocast && seen == 4 ? 2 : seen);
}

/* What a cross-attention-only layer's k or v projection `m` keeps of the images' states
 * (struct linears cross_*): the states themselves where its weight trains or its adapter's
 * lora_A reads them uncast and undropped, else the adapter's own copy (adapter_copy_bytes).
 * DoRA's products over these positions (dora_bytes) are not counted. */
static void cross_linear(struct acc *c, const struct gs_activation_input *in,
                         const struct gs_module *m, bool adapted, bool cast, bool dropout,
                         uint64_t count, struct linears *l)
{
    if (linear_saves(in, m, adapted, cast))
        l->cross_saves = true;
    const size_t n = strlen(m->name);
    if (adapted && n >= 6 && strcmp(m->name + n - 6, "k_proj") == 0)
        l->cross_key_adapted = true;
    if (cast || dropout) {
        const uint64_t per = adapter_copy_bytes(in, cast, dropout);
        l->cross_dropout = add(c, l->cross_dropout, mul(c, mul(c, per, m->in), count));
        if (dropout)
            l->cross_masks = add(c, l->cross_masks, mul(c, m->in, count));
    }
}

static struct linears linears_of(struct acc *c, const struct gs_activation_input *in,
                                 const struct gs_block *b, uint64_t e)
{
    struct linears l;
    memset(&l, 0, sizeof(l));
    uint64_t attn_in_width = 0;
    for (size_t i = 0; i < b->module_count; i++) {
        const struct gs_module *m = &b->modules[i];
        if (!is_body_linear(m))
            continue;
        const enum role r = role_of(m);
        if (r == ROLE_ATTN_IN)
            attn_in_width = add(c, attn_in_width, mul(c, m->out, m->count ? m->count : 1));
        const bool adapted = in->trainable == GS_TRAIN_ADAPTERS &&
                             gs_lora_adapts(in->adapters, b, m) && adapter_runs(in, b, m);
        const uint64_t count = m->count ? m->count : 1;
        /* PEFT keeps adapters in fp32 (get_peft_model autocast_adapter_dtype=True) and casts
         * the input to them in each layer (LoraLayer._cast_input_dtype: x.to(lora_A.dtype)),
         * so each adapter reads its own fp32 copy of a 16-bit input */
        const bool cast = adapted && in->rules != NULL && in->rules->adapters_fp32 && e != 4;
        const bool dropout = adapted && in->adapters->lora_dropout_permille > 0;
        /* a low-rank gate's second stage keeps its own narrow input (kimi_delta_bytes), not
         * the role's shared one */
        const bool own_input = kimi_low_rank_stage(in, b, m) && gs_activation_counts_scan(in, b);
        if (b->attn.cross_only && (m->flags & GS_MOD_CROSS)) {
            cross_linear(c, in, m, adapted, cast, dropout, count, &l);
            continue;
        }
        if (linear_saves(in, m, adapted, cast) && !own_input) {
            l.saves[r] = true;
            l.copies[r] += count;
            if (m->flags & GS_MOD_CROSS)
                l.cross_copies += count;
        }
        if (adapted) {
            l.adapted[r] = true;
            if (!dropout && !cast && !own_input)
                l.direct[r] += count;
        }
        /* what lora_A(lora_dropout(x)) keeps beyond the shared input: nn.Dropout's 1-byte mask
         * and its output, or the cast copy; under autocast lora_A keeps its own 16-bit copy
         * of an fp32 input instead */
        /* LitGPT's LoRAQKVLinear adapts q, k and v with one lora_A over one dropout of the
         * input, and merges the adapters' outputs into the fused width with zero_pad, whose
         * index_copy saves its source for backward (derivatives.yaml: source.expand_as): the
         * adapted parts' width (gs_lora_width) */
        const bool fused = adapted && r == ROLE_ATTN_IN && in->rules != NULL &&
                           in->rules->lora_fused_qkv;
        if (fused)
            l.fused_delta = add(c, l.fused_delta, mul(c, gs_lora_width(in->adapters, b, m), count));
        if (adapted && in->adapters->lora_dora)
            dora_bytes(c, in, m, e, in->autocast ? 2 : cast ? 4 : e,
                       in->autocast || cast || (in->quantized_base && (m->flags & GS_MOD_QUANT)),
                       count, &l);
        if ((cast || dropout) && !(fused && l.fused_delta > mul(c, m->out, count))) {
            const uint64_t per = adapter_copy_bytes(in, cast, dropout);
            l.dropout[r] = add(c, l.dropout[r], mul(c, mul(c, per, m->in), fused ? 1 : count));
            if (dropout)
                l.masks[r] = add(c, l.masks[r], mul(c, m->in, fused ? 1 : count));
        }
    }
    /* with q, k and v all adapted there is nothing to pad: LoRAQKVLinear.zero_pad returns its
     * input as it is ("if all(self.enable_lora): return x"), and no index_copy keeps it */
    if (l.fused_delta == attn_in_width)
        l.fused_delta = 0;
    return l;
}

/* One layer's stored activations for one micro-batch on one GPU (no
 * recomputation), split into the parts tensor and sequence parallelism
 * divide. A layer with cross-attention adds a second attention block. */
struct layer_parts {
    uint64_t replicated;  /* divided by t only with sequence parallelism */
    uint64_t partitioned; /* divided by t */
    uint64_t core;        /* attention core, dropped by selective recomputation; divided by t */
    uint64_t grad_pair;   /* backward's two largest gradient tensors (the MLP's), divided by t */
};

/* The bytes one hidden norm saves per token. Fused norms (LayerNorm's
 * native kernel, Transformer Engine, compiled code) keep their input and
 * per-row statistics; an eager RMSNorm (LlamaRMSNorm, torchtune's and
 * LitGPT's) saves the fp32 copy of its input that pow and mul read, and,
 * when its weight trains, the normalized 16-bit tensor the weight multiplies (fp32 where the
 * model multiplies before casting back: OLMo 2's and GPT-OSS's (self.weight *
 * hidden_states).to(input_dtype)).
 * Autocast runs norms in fp32. */
static uint64_t norm_bytes_as(const struct gs_activation_input *in, const struct gs_module *m,
                              uint64_t residual, bool compiled)
{
    const struct gs_framework_rules *r = in->rules;
    /* A row without norm_fp32_copy whose norm is torch.nn.RMSNorm on torch 2.9 or later runs the
     * fused kernel, whose autograd formula saves the input itself and the per-row rstd
     * (derivatives.yaml _fused_rms_norm: input, weight, result1) when weight and input share a
     * dtype (layer_norm.cpp rms_norm_symint falls back to rms_norm_composite otherwise). They do
     * in the runs sized here: 16-bit weights on a 16-bit residual stream, or fp32 ones on the
     * fp32 stream autocast keeps (the residual adds promote the 16-bit branch outputs). */
    if (r != NULL && r->norm_fp32_copy && !compiled && !(m->flags & GS_MOD_BIAS))
        return 4 + (in->trainable != GS_TRAIN_ALL ? 0 : in->arch->norm_weight_fp32 ? 4 : residual);
    return in->autocast ? 4 : residual;
}

/* A norm inside the decoder blocks, compiled whenever the run compiles. */
static uint64_t norm_bytes(const struct gs_activation_input *in, const struct gs_module *m,
                           uint64_t residual)
{
    return norm_bytes_as(in, m, residual, in->rules != NULL && in->rules->compile);
}

/* Whether block `b` takes an earlier layer's K and V in this run rather than computing its own
 * (gs_attention.kv_shared from kv_shared_from on: Gemma4TextAttention.forward's
 * shared_kv_states[self.layer_type] in training too): the attention then keeps the earlier
 * layer's tensors, no new ones, and no k_norm or v_norm runs. Where the release is not known to
 * be transformers' (hf_release 0: DeepSpeed's rows over transformers' model code) the latest's
 * rule. */
static bool reuses_kv(const struct gs_activation_input *in, const struct gs_block *b)
{
    return in->rules != NULL && gs_attention_reuses_kv(&b->attn, in->rules->hf_release);
}

/* Whether `name` ends in `tail`. */
static bool ends_with(const char *name, const char *tail)
{
    const size_t n = strlen(name), k = strlen(tail);
    return n >= k && strcmp(name + n - k, tail) == 0;
}

/* The bytes per token a layer's q_norm and k_norm save: an RMSNorm over each head
 * (Qwen3RMSNorm on (b, s, heads, head_dim)) or over the whole projection (Olmo2's q_norm over
 * heads*head_dim) normalizes all of Q or K, so it saves what norm_bytes says per element of
 * Q's or K's full width (modeling_qwen3.py, modeling_olmo2.py Attention.forward). A v_norm
 * without a weight (gs_attention.v_norm: Gemma 3n's and Gemma 4's Gemma4RMSNorm(with_scale=
 * False), forward `self._norm(hidden_states.float())`, _norm `hidden_states *
 * torch.pow(hidden_states.pow(2).mean(-1, keepdim=True) + eps, -0.5)`) keeps the fp32 copy pow
 * and the product read, 4 bytes an element of V, and no normalized tensor (no weight to
 * multiply): its 16-bit output is V, which the attention keeps; compiled code keeps its input,
 * as compiled norms do. `queries` and `keys` select the norms of Q and of K and V (a
 * cross-attention's cover other positions). */
static uint64_t qk_norm_bytes_of(struct acc *c, const struct gs_activation_input *in,
                                 const struct gs_block *b, uint64_t e, bool queries, bool keys)
{
    if (b->mixer != GS_MIXER_ATTENTION)
        return 0;
    uint64_t bytes = 0;
    for (size_t i = 0; i < b->module_count; i++) {
        const struct gs_module *m = &b->modules[i];
        if (m->kind != GS_MODULE_NORM || m->part != GS_PART_ATTENTION)
            continue;
        const bool q =
            queries && (ends_with(m->name, "q_norm") || ends_with(m->name, "q_layernorm") ||
                        ends_with(m->name, "query_layernorm"));
        const bool k = keys && (ends_with(m->name, "k_norm") || ends_with(m->name, "k_layernorm") ||
                                ends_with(m->name, "key_layernorm"));
        const uint64_t heads = q ? b->attn.heads : k && !reuses_kv(in, b) ? b->attn.kv_heads : 0;
        bytes = add(c, bytes, mul(c, norm_bytes(in, m, e), mul(c, heads, b->attn.head_dim)));
    }
    const bool copies = in->rules != NULL && in->rules->norm_fp32_copy && !in->rules->compile;
    const uint64_t bare = copies || in->autocast ? 4 : e;
    if (keys && b->attn.v_norm && !reuses_kv(in, b)) {
        const uint64_t v = b->attn.v_head_dim ? b->attn.v_head_dim : b->attn.head_dim;
        bytes = add(c, bytes, mul(c, bare, mul(c, b->attn.kv_heads, v)));
    }
    /* a weightless norm of Q and K (gs_attention.qk_norm_bare: MuseGlimmerRMSNorm(with_scale=
     * False).forward, self._norm(hidden_states.float()), the same pow and product) keeps the
     * fp32 copy of each as v_norm does V's; the query's scaling after it (query_states *
     * qk_scale_factor, a Python number) keeps nothing */
    if (queries && b->attn.qk_norm_bare)
        bytes = add(c, bytes, mul(c, bare, mul(c, b->attn.heads, b->attn.head_dim)));
    if (keys && b->attn.qk_norm_bare && !reuses_kv(in, b))
        bytes = add(c, bytes, mul(c, bare, mul(c, b->attn.kv_heads, b->attn.head_dim)));
    return bytes;
}

/* Both: the bytes per token of Q's and K's (and V's) norms where they cover the same tokens. */
static uint64_t qk_norm_bytes(struct acc *c, const struct gs_activation_input *in,
                              const struct gs_block *b, uint64_t e)
{
    return qk_norm_bytes_of(c, in, b, e, true, true);
}

/* The bytes a token of an attention's output gate keeps (gs_attention.output_gate), one value a
 * channel or a head: sigmoid keeps its output for its backward (derivatives.yaml sigmoid:
 * result), the tensor the product keeps as the attention output's factor
 * (modeling_qwen3_next.py Qwen3NextAttention.forward: attn_output * torch.sigmoid(gate); Muse
 * Glimmer's and Step 3.7's the same over gate_proj's and g_proj's output); softplus over an fp32
 * copy keeps that copy (softplus: self) and the product its cast back (modeling_laguna.py
 * LagunaAttention.forward: F.softplus(self.g_proj(hidden_states).float()).to(attn_output.dtype)).
 */
static uint64_t output_gate_bytes(const struct gs_attention *s, uint64_t e)
{
    const uint64_t v = s->v_head_dim ? s->v_head_dim : s->head_dim;
    const uint64_t width = s->output_gate_per_head ? s->heads : s->heads * v;
    switch ((enum gs_output_gate)s->output_gate) {
    case GS_GATE_SIGMOID:
        return e * width;
    case GS_GATE_SOFTPLUS_FP32:
        return (4 + e) * width;
    case GS_GATE_NONE:
        break;
    }
    return 0;
}

/* What a block's clamped linears keep a token beyond what their linears keep (gs_block
 * clamped_linears: Gemma4ClippableLinear with use_clipped_linears, modeling_gemma4.py:
 * torch.clamp(hidden_states, self.input_min, self.input_max), self.linear(...), then
 * torch.clamp(hidden_states, self.output_min, self.output_max)). clamp with tensor bounds keeps
 * its input for the mask of its gradient (derivatives.yaml clamp.Tensor: clamp_backward(grad,
 * self, min, max)): the output clamp the linear's output, and the input clamp the tensor the
 * linear would have read, while the linear (or the LoRA adapter on `.linear`) keeps the clamped
 * copy it reads instead, one more input-sized tensor a linear (q, k and v, or gate and up, each
 * their own copy of a shared input). Counted where the layer records: in + out a linear, at the
 * activations' dtype. */
static uint64_t clamp_bytes(struct acc *c, const struct gs_block *b, uint64_t e)
{
    uint64_t widths = 0;
    for (size_t i = 0; i < b->module_count; i++) {
        const struct gs_module *m = &b->modules[i];
        if (m->kind == GS_MODULE_LINEAR && (m->flags & GS_MOD_WRAPPED))
            widths = add(c, widths, mul(c, add(c, m->in, m->out), m->count ? m->count : 1));
    }
    return mul(c, e, widths);
}

/* The bytes a layer's norm outputs cost as GEMM inputs, for one role. */
static uint64_t gemm_input_bytes(const struct gs_activation_input *in, const struct linears *l,
                                 enum role r, uint64_t residual)
{
    if (!l->saves[r])
        return 0;
    /* autocast casts an fp32 input to 16 bits in every linear call; a 16-bit
     * residual stream is passed through as it is */
    if (in->autocast && residual > 2)
        return 2 * l->copies[r];
    return residual;
}

/* Bytes per element of a dense MLP's width that eager PyTorch keeps, by activation:
 * - the activation's own saved tensors: silu/gelu save their input (1); relu its output,
 *   which the next op keeps anyway (0 more); relu2 relu's output, which square keeps (1);
 *   transformers' NewGELUActivation, 0.5 * x * (1 + tanh(sqrt(2/pi) * (x + 0.044715 *
 *   pow(x, 3)))) (activations.py), keeps x (pow), tanh's output, 0.5 * x and 1 + tanh (the
 *   last product keeps both factors): 4. Under autocast pow runs in fp32 (autocast's fp32
 *   op list), so x's copy, tanh's output and 1 + tanh are fp32 (4 + 4 + 2 + 4 bytes);
 *   FastGELUActivation, 0.5 * x * (1 + tanh(x * 0.7978845608 * (1 + 0.044715 * x * x))),
 *   products instead of pow: (0.044715 * x) * x keeps both factors, the product inside tanh
 *   keeps x * 0.79788 and 1 + ..., tanh its output and the last product 0.5 * x and 1 + tanh:
 *   7, none of them on autocast's lists; QuickGELUActivation, x * sigmoid(1.702 * x): x and
 *   the sigmoid's output, 2; XIELUActivation's Python path (without the xielu CUDA wheel),
 *   where(x > 0, alpha_p * x * x + beta * x, (expm1(min(x, eps)) - x) * alpha_n + beta * x):
 *   the 1-byte condition, x (the product with x and minimum keep it), alpha_p * x and expm1's
 *   output, and where the activation's own alpha parameters train (full training) expm1(...) -
 *   x for alpha_n's gradient: 3 + 1 byte, 4 + 1 trained. Under autocast alpha_p * x is fp32
 *   (alpha_p is a one-element fp32 parameter, not a 0-dim tensor, so it promotes), expm1 is
 *   on the fp32 list, and the output is fp32: x 2 + 1 + 4 + 4 (+ 4);
 *   GPT-OSS's experts' clamped GLU: the gate_up output (gate and up are clamped strided
 *   views), the clamped gate and the sigmoid's output: 4;
 * - gated (GLU): the product keeps the activation's output and up's output;
 * - the down projection's input when it keeps it (a plain MLP's relu output is kept by relu
 *   itself whether or not down does);
 * - a dropout before the down projection. */
static uint64_t mlp_eager_bytes(const struct gs_activation_input *in, const struct gs_block *b,
                                uint64_t e, bool down_saves)
{
    enum gs_act act = (enum gs_act)b->mlp.act;
    const bool python_op = act == GS_ACT_TANH_CHAIN || act == GS_ACT_FAST_GELU ||
                           act == GS_ACT_QUICK_GELU || act == GS_ACT_XIELU;
    if (python_op && !in->rules->act2fn) /* LitGPT, torchtune: F.gelu(x, "tanh") */
        act = GS_ACT_SAVES_INPUT;
    /* what autocast's fp32 ops make of a 16-bit input */
    const uint64_t wide = in->autocast ? 4 : e;
    uint64_t bytes = 0;
    switch (act) {
    case GS_ACT_TANH_CHAIN:
        bytes = in->autocast ? 4 + 4 + e + 4 : 4 * e;
        break;
    case GS_ACT_FAST_GELU:
        bytes = 7 * e;
        break;
    case GS_ACT_QUICK_GELU:
        bytes = 2 * e;
        break;
    case GS_ACT_XIELU:
        bytes = e + 1 + wide + wide + (in->trainable == GS_TRAIN_ALL ? wide : 0);
        break;
    case GS_ACT_RELU:
        bytes = 0;
        break;
    case GS_ACT_GPT_OSS_GLU:
        /* gate, up = gate_up[..., ::2], gate_up[..., 1::2]: clamp keeps its input, so the two
         * views pin the whole gate_up output (2); the clamped gate, which the product with the
         * sigmoid keeps, and the sigmoid's output (1 + 1); the product's other factor, up + 1,
         * comes below as a gated MLP's up output, and glu as its activation output */
        bytes = 4 * e;
        break;
    case GS_ACT_RELU2:
    case GS_ACT_SAVES_INPUT:
    case GS_ACT_COUNT:
        bytes = e;
        break;
    }
    /* the activation's output under autocast's fp32 chain is fp32 */
    const uint64_t out = act == GS_ACT_TANH_CHAIN || act == GS_ACT_XIELU ? wide : e;
    if (b->mlp.gated)
        bytes += out + e; /* the product keeps both factors */
    if (b->mlp.gated ? down_saves : down_saves || act == GS_ACT_RELU)
        bytes += e; /* under autocast, down's own 16-bit copy of an fp32 product */
    /* dropout before the down projection (T5's DenseReluDense, Whisper's activation_dropout):
     * its 1-byte mask; down keeps the dropout output in place of the tensor it read, except
     * that relu's own output stays kept beside it */
    if (in->arch->mlp_dropout) {
        bytes += 1;
        if (act == GS_ACT_RELU && !b->mlp.gated && down_saves)
            bytes += e;
    }
    return bytes;
}

/* The attention runs through transformers' sdpa_attention.py: multi-head and grouped
 * attention, and MLA, whose model code hands SDPA every head's K and V and the same mask
 * (modeling_deepseek_v3.py DeepseekV3Attention.forward: attention_interface(self, query_states,
 * key_states, value_states, attention_mask, ...)). */
static bool transformers_sdpa(const struct gs_activation_input *in, const struct gs_block *b)
{
    return in->rules != NULL && in->rules->transformers_sdpa && in->flash_attention &&
           (b->mixer == GS_MIXER_ATTENTION || b->mixer == GS_MIXER_MLA);
}

/* Whether a layer's attention gets a mask under transformers' SDPA: every layer when the
 * micro-batch carries padding (masking_utils.py _ignore_causal_mask_sdpa skips the mask only
 * when the padding mask is all ones; before 4.53 AttentionMaskConverter._ignore_causal_mask_sdpa
 * alike), and a sliding-window or chunked layer once the keys reach its window (skipped only
 * while kv_length < the window). */
static bool sdpa_masked(const struct gs_activation_input *in, const struct gs_block *b)
{
    if (!transformers_sdpa(in, b))
        return false;
    /* a position bias is passed as the call's float mask whatever else (sdpa_attention.py
     * create_position_bias_mask: torch.where(causal_mask, position_bias, min_dtype)) */
    return in->padding_mask || b->attn.position_bias ||
           (b->attn.span != GS_SPAN_FULL && b->attn.window &&
            in->sequence_length >= b->attn.window);
}

/* What a layer's position bias keeps (gs_attention.position_bias; modeling_inkling.py
 * InklingRelativeLogits.forward: rel_logits.gather(-1, gather_index), then masked_fill over
 * distance < 0 or beyond the extent): the gather keeps its int64 index, one (q, k) matrix expanded
 * over batch and heads, and masked_fill its boolean mask, 9 bytes a pair a layer. Under
 * transformers' SDPA the bias becomes the call's float mask (sdpa_masked), a (batch, heads, q, k)
 * tensor at the query's dtype the memory-efficient kernel keeps for the bias's gradient
 * (_scaled_dot_product_efficient_attention saves attn_bias), split with the heads; under eager
 * attention the sum with the scores keeps nothing more. `s` is a rank's share of the queries. */
static void position_bias_bytes(struct acc *c, const struct gs_activation_input *in,
                                const struct gs_block *b, uint64_t s, struct layer_parts *p)
{
    const uint64_t pairs = mul(c, s, in->sequence_length); /* a rank's queries, every key */
    p->replicated = add(c, p->replicated, mul(c, 9, pairs));
    if (!sdpa_masked(in, b))
        return;
    p->partitioned =
        add(c, p->partitioned,
            mul(c, mul(c, mul(c, in->batch_size, b->attn.heads), pairs), in->element_bytes));
}

/* Whether every masked SDPA call makes an additive copy of the mask at the query's dtype: a
 * boolean mask is converted inside each call (attention.cpp convert_boolean_attn_mask:
 * zeros_like in the query's dtype, masked_fill); an additive one (before 4.53, in the dtype of
 * the model's input embeddings) is cast per call when autocast runs the query at another dtype
 * (SDPA is on autocast's lower-precision list, which casts every floating argument), and padded
 * per call when its rows are not 8-element aligned (preprocess_mask: pad_bias). Otherwise the
 * one mask serves every layer. */
static bool mask_copied_per_call(const struct gs_activation_input *in)
{
    const uint64_t residual = in->residual_bytes ? in->residual_bytes : in->element_bytes;
    return (in->rules->sdpa_bool_mask && !in->additive_mask) || in->sequence_length % 8 != 0 ||
           residual != in->element_bytes;
}

/* One call's additive mask, (batch, 1, q, k) at the query's dtype, its rows padded to a
 * multiple of 8 elements where they are not (pad_bias keeps the padded storage). */
static uint64_t mask_copy_bytes(struct acc *c, const struct gs_activation_input *in)
{
    const uint64_t keys = in->sequence_length;
    const uint64_t row = mul(c, div_ceil(keys, 8), 8);
    return mul(c, mul(c, mul(c, in->element_bytes, in->batch_size), keys), row);
}

/* Whether the layers run transformers' model code: a transformers row, or DeepSpeed running a
 * transformers model. */
static bool transformers_model_code(const struct gs_framework_rules *r)
{
    return r != NULL && gs_framework_transformers_code(r->framework);
}

/* Whether transformers' eager attention runs the layer with the model's additive mask: a causal
 * decoder layer under transformers' model code (its eager path always gets the mask,
 * masking_utils.py eager_mask, before 4.53 _update_causal_mask), not a type whose eager path
 * adds a position bias too (T5, attention_eager_only: what it passes between layers is not
 * modelled). */
static bool transformers_eager_masked(const struct gs_activation_input *in,
                                      const struct gs_block *b)
{
    return transformers_model_code(in->rules) && !in->flash_attention &&
           b->mixer == GS_MIXER_ATTENTION && b->attn.cached && !in->arch->attention_eager_only;
}

/* The masks the model builds once per forward for its masked layers (one for full-attention
 * layers, one for sliding or chunked ones), where they outlive the forward: under full
 * recomputation each is an input of every checkpointed layer and stays until backward (SDPA's
 * boolean mask from 4.53, the additive one in the embeddings' dtype before and under eager
 * attention), and without it the additive SDPA mask every layer's kernel keeps where no call
 * copies it (eager attention adds it to its scores and keeps nothing of it). */
static uint64_t model_masks_bytes(struct acc *c, const struct gs_activation_input *in)
{
    const struct gs_arch *a = in->arch;
    bool full = false, local = false, eager = false;
    for (size_t k = 0; k < a->block_count; k++) {
        const struct gs_block *b = &a->blocks[k];
        const bool masked_sdpa = sdpa_masked(in, b);
        const bool masked_eager =
            in->recompute == GS_RECOMPUTE_FULL && transformers_eager_masked(in, b);
        if (!masked_sdpa && !masked_eager)
            continue;
        eager = eager || masked_eager;
        if (b->attn.span == GS_SPAN_FULL)
            full = true;
        else
            local = true;
    }
    if (!full && !local)
        return 0;
    const uint64_t residual = in->residual_bytes ? in->residual_bytes : in->element_bytes;
    uint64_t element = 0;
    if (eager)
        element = residual;
    else if (in->recompute == GS_RECOMPUTE_FULL)
        element = in->rules->sdpa_bool_mask ? 1 : residual;
    else if (!mask_copied_per_call(in))
        element = residual;
    const uint64_t keys = in->sequence_length;
    const uint64_t one = mul(c, mul(c, mul(c, element, in->batch_size), keys), keys);
    return mul(c, one, (full ? 1 : 0) + (local ? 1 : 0));
}

/* Which of a layer's tensors need a gradient. Every one does, except in the first layer of
 * adapter training, whose input (the frozen embedding's output) needs none: autograd then
 * records no op until one reads a trainable weight (an adapter), so what the ops before keep
 * is never saved (torch/csrc/autograd: a function is recorded only when an input requires a
 * gradient). Its attention needs one where an adapter reads the layer's normed input (q, k or
 * v: SDPA then keeps its inputs); the MLP's input where the attention's or o_proj's output
 * joins the residual stream it reads, which a parallel block's MLP never does (it reads the
 * layer's input); the MLP's inside where its input does, or an adapter of gate, up or fc1. */
struct grads {
    bool input, attention, mlp_input, mlp;
};

static struct grads grads_of(const struct gs_block *b, const struct linears *l, bool input_frozen)
{
    struct grads g = {true, true, true, true};
    if (!input_frozen)
        return g;
    g.input = false;
    g.attention = l->adapted[ROLE_ATTN_IN];
    g.mlp_input = !b->parallel_residual && (g.attention || l->adapted[ROLE_OUT]);
    g.mlp = g.mlp_input || l->adapted[ROLE_MLP_IN];
    return g;
}

/* The bytes a 4-bit weight takes while a matmul uses it dequantized: bitsandbytes' MatMul4Bit
 * runs F.dequantize_4bit(B, quant_state).to(A.dtype), whose first tensor has the dtype the
 * weight was quantized from (QuantState.dtype) and whose cast is a second one where that is not
 * the compute dtype. Quantized from the 16-bit weights themselves (bitsandbytes >= 0.43.0
 * Params4bit, torchao's to_nf4) it is one 16-bit copy; quantized from an fp16 copy (Lightning's
 * _Linear4bit.quantize, rules->quant_state_fp16) the fp16 tensor and its bf16 (gpusizer's 16-bit
 * pure regime) or fp32 cast are both alive at the cast. */
static uint64_t dequant_bytes_per_weight(const struct gs_activation_input *in)
{
    return in->rules != NULL && in->rules->quant_state_fp16 ? 2 + in->element_bytes : 2;
}

/* The weights of the block's largest 4-bit linear (0 without one). */
static uint64_t largest_quant_weight(const struct gs_block *b)
{
    uint64_t largest = 0;
    for (size_t i = 0; i < b->module_count; i++) {
        const struct gs_module *m = &b->modules[i];
        if (is_body_linear(m) && (m->flags & GS_MOD_QUANT) && m->in * m->out > largest)
            largest = m->in * m->out;
    }
    return largest;
}

/* Autocast over frozen fp32 weights (adapter training on an fp32 base, or a base
 * prepare_model_for_kbit_training made fp32, under torch.autocast): autocast caches its casts
 * only for leaves that require grad (aten autocast_mode.cpp cached_cast: arg.requires_grad()),
 * so each frozen weight is cast to 16 bits per call, and F.linear keeps that copy for its
 * input's gradient wherever the input needs one (a 4-bit base's linear is no autocast op:
 * bitsandbytes casts its input itself). The copies of one layer for one micro-batch, whole:
 * 2 bytes a weight of the base linears whose input needs a gradient (`g`). */
static uint64_t frozen_weight_copies(struct acc *c, const struct gs_activation_input *in,
                                     const struct gs_block *b, struct grads g)
{
    const uint64_t residual = in->residual_bytes ? in->residual_bytes : in->element_bytes;
    if (!in->autocast || residual != 4 || in->trainable != GS_TRAIN_ADAPTERS || in->rules == NULL)
        return 0;
    uint64_t weights = 0;
    for (size_t i = 0; i < b->module_count; i++) {
        const struct gs_module *m = &b->modules[i];
        if (!is_body_linear(m) || (in->quantized_base && (m->flags & GS_MOD_QUANT)))
            continue;
        const enum role r = role_of(m);
        /* q, k and v read the layer's normed input, o_proj the attention's output, gate and up
         * the MLP's input, down the MLP's inside */
        const bool needs = r == ROLE_ATTN_IN  ? g.input
                           : r == ROLE_OUT    ? g.attention
                           : r == ROLE_MLP_IN ? g.mlp_input
                                              : g.mlp;
        if (needs)
            weights = add(c, weights, mul(c, mul(c, m->in, m->out), m->count ? m->count : 1));
    }
    return mul(c, 2, weights);
}

/* What the linears of `r` keep of their shared input, per token: as gemm_input_bytes says where
 * it needs a gradient; else only adapters whose lora_A reads it itself (a 4-bit base's
 * MatMul4Bit is not recorded), and of their dropouts the outputs lora_A reads, not the masks. */
static uint64_t role_input_bytes(struct acc *c, const struct gs_activation_input *in,
                                 const struct linears *l, enum role r, uint64_t residual,
                                 uint64_t h, bool needs_grad)
{
    if (needs_grad)
        return add(c, mul(c, gemm_input_bytes(in, l, r, residual), h), l->dropout[r]);
    uint64_t kept = 0;
    if (l->direct[r])
        kept = in->autocast && residual > 2 ? 2 * l->direct[r] : residual;
    return add(c, mul(c, kept, h), l->dropout[r] - l->masks[r]);
}

/* Of what role_input_bytes counts, the bytes an element of the input tensor itself (not the
 * adapters' dropout outputs, each adapter's own). */
static uint64_t role_input_tensor(const struct gs_activation_input *in, const struct linears *l,
                                  enum role r, uint64_t residual, bool needs_grad)
{
    if (needs_grad)
        return gemm_input_bytes(in, l, r, residual);
    if (!l->direct[r])
        return 0;
    return in->autocast && residual > 2 ? 2 * l->direct[r] : residual;
}

/* What an adapted token embedding (gs_lora_embedding) keeps a token (peft/tuners/lora/layer.py
 * Embedding.forward: after_A = F.embedding(x, lora_embedding_A.T), at the adapters' dtype
 * (F.embedding returns its weight's: fp32 for PEFT's fp32 adapters, under autocast too, which
 * leaves embeddings alone), kept by the matmul with lora_embedding_B; the base output and the sum
 * keep nothing). DoRA's variant (variants.py DoraEmbeddingVariant, dora.py DoraEmbeddingLayer)
 * multiplies the trainable magnitude into the base output and into the adapter's product, which
 * keep them: the hidden width at the activation dtype and at the adapters'. */
static uint64_t embedding_adapter_bytes(const struct gs_activation_input *in)
{
    uint64_t rows = 0, width = 0;
    if (in->trainable != GS_TRAIN_ADAPTERS || in->adapters == NULL ||
        !gs_lora_embedding(in->arch, in->adapters, &rows, &width))
        return 0;
    const uint64_t adapter = in->rules != NULL && in->rules->adapters_fp32 ? 4 : in->element_bytes;
    const uint64_t rank = in->adapters->lora_rank ? in->adapters->lora_rank : 8;
    uint64_t per = rank * adapter;
    if (in->adapters->lora_dora)
        per += width * (in->element_bytes + adapter);
    return per;
}

/* Whether the first layer's input needs no gradient: adapter training, where the embedding is
 * frozen (PEFT, LitGPT and torchtune train no embedding under LoRA; PEFT adapts it only where a
 * target names it: gs_lora_embedding) and nothing makes its output require one. Checkpointing does
 * (PEFT's prepare_model_for_kbit_training and transformers' gradient_checkpointing_enable call
 * enable_input_require_grads for reentrant checkpoints), and under it a layer keeps its input
 * whatever it needs, so only runs without recomputation; the textbook accounting (no framework)
 * keeps every layer alike. */
static bool first_layer_frozen(const struct gs_activation_input *in)
{
    /* an adapted embedding (gs_lora_embedding) trains, so its output needs a gradient */
    return in->trainable == GS_TRAIN_ADAPTERS && in->recompute == GS_RECOMPUTE_NONE &&
           in->rules != NULL && in->arch->num_hidden_layers > 0 &&
           !(in->adapters != NULL && gs_lora_embedding(in->arch, in->adapters, NULL, NULL));
}

/* What the adapters on one routed expert keep a routed token, where the model code keeps experts
 * as nn.Linear modules PEFT adapts (gs_framework_expert_linears: transformers 4.x's ModuleList of
 * MLPs), by linears_of's rule for a dense layer: lora_A(lora_dropout(x)) keeps the dropout's
 * 1-byte mask (where x needs a gradient) and output, or PEFT's fp32 cast of x, one per adapted
 * projection; with neither, lora_A keeps x itself, which the frozen base does not: the expert's
 * gathered input for gate_proj and up_proj (hidden_states[None, top_x], one tensor for both:
 * *input_kept) and the product down_proj reads (*down_kept, mlp_eager_bytes' down_saves). DoRA's
 * outputs as dora_bytes counts them, and its weight copies (*dora_layer) once per expert. The
 * adapters' own r-wide outputs are not counted, as for dense layers. */
static uint64_t expert_adapter_bytes(struct acc *c, const struct gs_activation_input *in,
                                     const struct gs_block *b, struct grads g, bool *input_kept,
                                     bool *down_kept, uint64_t *dora_layer)
{
    *input_kept = *down_kept = false;
    *dora_layer = 0;
    if (in->trainable != GS_TRAIN_ADAPTERS || in->adapters == NULL || in->rules == NULL ||
        !gs_framework_expert_linears(in->rules))
        return 0;
    const uint64_t e = in->element_bytes;
    struct linears l;
    memset(&l, 0, sizeof(l));
    uint64_t bytes = 0;
    for (size_t i = 0; i < b->module_count; i++) {
        const struct gs_module *m = &b->modules[i];
        if (!gs_lora_adapts_expert(in->adapters, b, m))
            continue;
        const bool down = m->split == GS_SPLIT_ROW;
        const bool cast = in->rules->adapters_fp32 && e != 4;
        const bool dropout = in->adapters->lora_dropout_permille > 0;
        if (!cast && !dropout) {
            *(down ? down_kept : input_kept) = true;
        } else {
            const bool mask = dropout && (down ? g.mlp : g.mlp_input);
            bytes = add(c, bytes, mul(c, adapter_copy_bytes(in, cast, mask), m->in));
        }
        const uint64_t out_bytes = in->autocast ? 2 : cast ? 4 : e;
        const bool copy = in->autocast || cast || (in->quantized_base && (m->flags & GS_MOD_QUANT));
        if (in->adapters->lora_dora)
            dora_bytes(c, in, m, e, out_bytes, copy, 1, &l);
        *dora_layer = add(c, *dora_layer, mul(c, l.dora_layer, m->count ? m->count : 1));
        l.dora_layer = 0;
    }
    if (*input_kept)
        bytes = add(c, bytes, mul(c, e, in->arch->hidden_size));
    return add(c, bytes, l.dora_token);
}

/* What an adapter on the MoE block's router keeps a token, where the model code keeps the router
 * as an nn.Linear (gs_framework_expert_linears: transformers 4.x's `self.gate = nn.Linear`,
 * LitGPT's LoRALinear gate; 5.x's TopKRouter holds a bare weight no adapter wraps): as a dense
 * layer's adapter, lora_dropout's mask (where the input needs a gradient) and output, or PEFT's
 * fp32 cast; with neither, lora_A keeps the MLP's normed input, unless a dense linear of the block
 * keeps it already. */
static uint64_t router_adapter_bytes(struct acc *c, const struct gs_activation_input *in,
                                     const struct gs_block *b, const struct linears *l,
                                     struct grads g, uint64_t residual)
{
    if (in->trainable != GS_TRAIN_ADAPTERS || in->adapters == NULL || in->rules == NULL ||
        !gs_framework_expert_linears(in->rules))
        return 0;
    const uint64_t e = in->element_bytes, h = in->arch->hidden_size;
    for (size_t i = 0; i < b->module_count; i++) {
        const struct gs_module *m = &b->modules[i];
        if (!gs_module_is_router(b, m) || !gs_lora_adapts(in->adapters, b, m))
            continue;
        const bool cast = in->rules->adapters_fp32 && e != 4;
        const bool dropout = in->adapters->lora_dropout_permille > 0;
        if (cast || dropout)
            return mul(c, adapter_copy_bytes(in, cast, dropout && g.mlp_input), h);
        return l->saves[ROLE_MLP_IN] || l->direct[ROLE_MLP_IN]
                   ? 0
                   : mul(c, in->autocast ? 2 : residual, h);
    }
    return 0;
}

/* The ParamWrappers PEFT 0.19 and later put on block `b`'s fused experts in adapter training
 * (gs_lora_param_wrappers: PEFT's conversion of the v4 names under transformers 5.x). */
static unsigned param_wrappers(const struct gs_activation_input *in, const struct gs_block *b)
{
    if (in->trainable != GS_TRAIN_ADAPTERS || in->adapters == NULL || in->rules == NULL ||
        gs_framework_expert_linears(in->rules))
        return 0;
    return gs_lora_param_wrappers(in->adapters, b);
}

/* What PEFT's ParamWrappers on a MoE layer's fused experts keep and make (peft
 * tuners/lora/layer.py ParamWrapper.forward: _activate_lora registers an
 * nn.utils.parametrize parametrization, _LoraParameterProxy, whose forward is W + delta_weight,
 * and runs the experts under parametrize.cached()). Each access to the wrapped parameter in the
 * experts' forward (transformers integrations/moe.py grouped_mm_experts_forward:
 * self.gate_up_proj, self.down_proj, whole, into torch's grouped_mm) reads the merged tensor
 * W + delta at the weight's dtype (get_delta_weight casts the delta to the parameter's dtype),
 * one tensor the size of the parameter, which grouped_mm's autograd keeps for its input's
 * gradient wherever that input needs one (derivatives.yaml _grouped_mm: self's gradient reads
 * mat2, mat2's reads self): gate_up_proj's input is the layer's gathered input
 * (g.mlp_input), down_proj's the product after the activation, which needs one where the
 * gate_up_proj trains too. A router's wrapped weight (E x h) is kept likewise by F.linear where
 * its input needs a gradient, except an fp32 router's (F.linear on self.weight.type(
 * torch.float32) keeps that fp32 copy, counted with the router). Added to the layer's parts: every
 * MoE layer's until its backward without recomputation, one layer's at a time with it.
 *
 * Returned: what the backward of the largest wrapped parameter holds beyond the layer's parts.
 * grouped_mm's backward makes the merged weight's gradient (the weight's dtype) and releases
 * the merged weight it kept; the add passes the gradient to the delta, whose cast back to the
 * delta's dtype (ToCopyBackward) and the scaling's product (MulBackward) each make one more
 * tensor of the parameter's size, the previous one alive while the next is made, before the
 * einsum's backward reduces it to the rank. The delta's dtype: the einsum's over PEFT's fp32
 * adapters (rules->adapters_fp32, peft_model.py _cast_adapter_dtype), 16-bit under autocast
 * (einsum reaches bmm, on autocast's lower-precision list), else the adapters' = the weights'.
 * Peak: max(weight + delta, 2 x delta) bytes an element, less the merged weight released: 6
 * bytes an element for bf16 weights under fp32 adapters without autocast, 2 under autocast or
 * with 16-bit adapters. The forward's delta (the einsum's output and its scaled copy, then the
 * cast; made before the experts run, dropped after) peaks at about as many bytes beside fewer of
 * the layer's tensors, so this moment covers it. Under expert parallelism a rank merges its own
 * experts alone (E / ep of them: the parameters the ParamWrapper wraps are the rank's shard). */
static uint64_t param_wrapper_bytes(struct acc *c, const struct gs_activation_input *in,
                                    const struct gs_block *b, struct grads g, unsigned wrapped,
                                    struct layer_parts *p)
{
    const uint64_t weight = in->residual_bytes ? in->residual_bytes : in->element_bytes;
    /* under expert parallelism a rank's wrapped parameters are its own experts' (E / ep, as the
     * adapters are sharded with them) */
    const uint64_t ep = in->parallelism->expert > 1 ? in->parallelism->expert : 1;
    const uint64_t local = div_ceil(b->mlp.experts, ep), h = in->arch->hidden_size,
                   w = b->mlp.width;
    const uint64_t gate_up = mul(c, mul(c, local, h), 2 * w), down = mul(c, mul(c, local, h), w),
                   router = mul(c, gs_mlp_router_outputs(&b->mlp), h); /* every rank's */
    uint64_t merged = 0;
    if ((wrapped & GS_PEFT_MOE_GATE_UP) && g.mlp_input)
        merged = add(c, merged, gate_up);
    if ((wrapped & GS_PEFT_MOE_DOWN) && (g.mlp_input || (wrapped & GS_PEFT_MOE_GATE_UP)))
        merged = add(c, merged, down);
    if ((wrapped & GS_PEFT_MOE_ROUTER) && g.mlp_input && !b->mlp.router_fp32)
        merged = add(c, merged, router);
    p->partitioned = add(c, p->partitioned, mul(c, weight, merged));
    const uint64_t largest = (wrapped & GS_PEFT_MOE_GATE_UP) ? gate_up
                             : (wrapped & GS_PEFT_MOE_DOWN)  ? down
                                                             : router;
    const uint64_t delta = in->autocast ? 2 : in->rules->adapters_fp32 ? 4 : weight;
    const uint64_t chain = delta == weight              ? 2 * delta
                           : weight + delta > 2 * delta ? weight + delta
                                                        : 2 * delta;
    return mul(c, chain - weight, largest);
}

/* A MoE block whose code weighs each routed expert's output after the expert
 * (moe_weights_after_experts): transformers' Experts classes, whose eager loop and
 * integrations/moe.py grouped_mm_experts_forward (the 5.x default,
 * get_correct_experts_implementation) alike run each routed token's expert as a dense MLP over a
 * gathered copy of its input (hidden_states[token_idx]) and multiply the expert's output by its
 * routing weight (current_hidden_states * top_k_weights[token_idx, top_k_pos, None];
 * out_per_sample_g * sample_weights_g), as the 4.x SparseMoeBlock loops and LitGPT's LLaMAMoE do
 * (probs[token_idx, expert_idx, None] * expert(x[token_idx])). By autograd's rules, per routed
 * token:
 * - the gathered input and the product the down projection reads only when the experts train:
 *   a GEMM keeps its input for its weight's gradient alone and a gather only its indices, so
 *   frozen experts (adapter training: PEFT adapts nn.Linear modules, not the experts' 3D
 *   parameters) keep their activation's tensors alone (mlp_eager_bytes);
 * - the expert's output wherever the routing weights need a gradient: the router trains, or its
 *   input needs one (grads_of), the weights being the router's softmax of that input;
 * nothing where no gradient reaches the MLP. Under full training the router's linear keeps the
 * MLP's input too, which no other linear keeps where the block has no shared expert. Shared
 * experts are a dense MLP read as the dense branch reads one, and a sigmoid gate on them keeps
 * their output, and an fp32 router its fp32 copies. Not counted: the router's own outputs (a
 * softmax or sigmoid over the experts per token, and the top-k indices: 4 x experts + 8 x top-k
 * bytes a token). */
static uint64_t moe_after_experts(struct acc *c, const struct gs_activation_input *in,
                                  const struct gs_block *b, const struct linears *l, struct grads g,
                                  uint64_t tokens, uint64_t r, struct layer_parts *p)
{
    const uint64_t e = in->element_bytes, h = in->arch->hidden_size;
    const uint64_t residual = in->residual_bytes ? in->residual_bytes : e;
    const bool experts_train = in->trainable == GS_TRAIN_ALL;
    const unsigned wrapped = param_wrappers(in, b);
    const bool gate_up_trains = experts_train || (wrapped & GS_PEFT_MOE_GATE_UP);
    const bool down_trains = experts_train || (wrapped & GS_PEFT_MOE_DOWN);
    const bool router_trains = experts_train || (wrapped & GS_PEFT_MOE_ROUTER);
    p->replicated =
        add(c, p->replicated, mul(c, tokens, router_adapter_bytes(c, in, b, l, g, residual)));
    bool input_kept = false, down_kept = false;
    uint64_t dora_layer = 0;
    const uint64_t adapters =
        expert_adapter_bytes(c, in, b, g, &input_kept, &down_kept, &dora_layer);
    /* adapted experts train: the gradient reaches their gate and up through the activation */
    const bool adapted = adapters || input_kept || down_kept || dora_layer ||
                         (wrapped & (GS_PEFT_MOE_GATE_UP | GS_PEFT_MOE_DOWN));
    uint64_t per_routed = 0;
    if (experts_train || g.mlp || adapted)
        per_routed =
            add(c, mul(c, mlp_eager_bytes(in, b, e, down_trains || down_kept), b->mlp.width),
                add(c, mul(c, e, h), adapters));
    else if (router_trains) /* the routing weights' gradient reads the experts' outputs alone */
        per_routed = mul(c, e, h);
    p->partitioned = add(c, p->partitioned, dora_layer);
    if (gate_up_trains) /* the gathered input: r ranks' tokens under expert tensor parallelism */
        per_routed = add(c, per_routed, mul(c, mul(c, r, e), h));
    p->partitioned = add(c, p->partitioned, mul(c, mul(c, b->mlp.top_k, tokens), per_routed));
    if (router_trains && !l->saves[ROLE_MLP_IN]) {
        const uint64_t router_input = in->autocast && residual > 2 ? 2 : residual;
        p->replicated = add(c, p->replicated, mul(c, mul(c, router_input, tokens), h));
    }
    /* DeepSeek-V3's and GLM-4.5's routers (router_fp32: F.linear(hidden_states.type(
     * torch.float32), self.weight.type(torch.float32))): over 16-bit weights both casts are new
     * tensors, and the linear keeps the fp32 input for the weight's gradient (where the router
     * trains) and the fp32 weight, experts x hidden, for the input's (where the input needs
     * one). Under autocast the linear casts both back to 16 bits, and over fp32 weights the casts
     * are the tensors themselves: nothing more there. */
    if (b->mlp.router_fp32 && !in->autocast && e < 4) {
        if (router_trains)
            p->replicated = add(c, p->replicated, mul(c, mul(c, 4, tokens), h));
        if (experts_train || g.mlp_input)
            p->replicated =
                add(c, p->replicated, mul(c, mul(c, 4, gs_mlp_router_outputs(&b->mlp)), h));
    }
    if (b->mlp.shared_width) {
        const uint64_t per_width = !g.mlp ? (l->direct[ROLE_DOWN] ? e : 0)
                                          : mlp_eager_bytes(in, b, e, l->saves[ROLE_DOWN]);
        p->partitioned =
            add(c, p->partitioned, mul(c, mul(c, per_width, tokens), b->mlp.shared_width));
    }
    /* Qwen-MoE's gate on the shared expert (modeling_qwen2_moe.py Qwen2MoeSparseMoeBlock:
     * F.sigmoid(self.shared_expert_gate(hidden_states)) * shared_expert_output): the product
     * keeps the shared expert's output and the sigmoid's (one value a token), which sigmoid
     * keeps itself, wherever a gradient reaches the MLP */
    if (b->mlp.shared_gated && g.mlp)
        p->partitioned = add(c, p->partitioned, mul(c, tokens, add(c, mul(c, e, h), e)));
    return wrapped ? param_wrapper_bytes(c, in, b, g, wrapped, p) : 0;
}

bool gs_activation_model_code(const struct gs_activation_input *in)
{
    return in->rules != NULL && in->rules->model_qkv_views && !in->rules->compile;
}

bool gs_activation_counts_scan(const struct gs_activation_input *in, const struct gs_block *b)
{
    /* a parallel hybrid's attention block counts its Mamba2 half's scan (Falcon-H1) */
    const bool parallel = b->mixer == GS_MIXER_ATTENTION && b->rec.inner != 0 &&
                          b->rec.scan == GS_SCAN_MAMBA2_COMBINED;
    if ((b->mixer != GS_MIXER_RECURRENT && !parallel) || !gs_activation_model_code(in))
        return false;
    switch ((enum gs_scan)b->rec.scan) {
    case GS_SCAN_GATED_DELTA_RULE:
        return true;
    case GS_SCAN_GATED_DELTA_NEXT: /* fla's path or the older torch fallback */
        return true;
    case GS_SCAN_MAMBA2_COMBINED: /* the combined kernel, Nemotron-H's padded path, or the torch
                                     fallback (mamba2_path) */
        return true;
    case GS_SCAN_MAMBA1_INNER: /* the fused path (its training branch ignores a padding mask) or
                                  the sequential torch scan */
        return true;
    case GS_SCAN_MAMBA1_SELECTIVE: /* not the kernels under autocast over fp32 weights */
        return in->recurrent_torch || !(in->autocast && in->residual_bytes == 4);
    case GS_SCAN_KIMI_DELTA: /* fla's chunk_kda or the torch fallback torch_chunk_kda */
        return true;
    case GS_SCAN_SHORT_CONV: /* causal-conv1d's kernel (saves its input) or F.conv1d alike */
        return true;
    case GS_SCAN_PROJECTIONS:
        break;
    }
    return false;
}

/* Whether the block's linear `name` keeps its input for backward (linear_saves: its weight
 * trains, or its adapter, where it runs, reads the input itself). */
static bool named_linear_saves(const struct gs_activation_input *in, const struct gs_block *b,
                               const char *name)
{
    for (size_t i = 0; i < b->module_count; i++) {
        const struct gs_module *m = &b->modules[i];
        if (m->kind != GS_MODULE_LINEAR || strcmp(m->name, name) != 0)
            continue;
        const bool adapted = in->trainable == GS_TRAIN_ADAPTERS &&
                             gs_lora_adapts(in->adapters, b, m) && adapter_runs(in, b, m);
        const bool cast =
            adapted && in->rules != NULL && in->rules->adapters_fp32 && in->element_bytes != 4;
        return linear_saves(in, m, adapted, cast);
    }
    return false;
}

/* Whether a Mamba2 mixer has its gated RMSNorm (`norm`; Falcon-H1's only with mamba_rms_norm). */
static bool has_gated_norm(const struct gs_block *b)
{
    for (size_t i = 0; i < b->module_count; i++)
        if (b->modules[i].kind == GS_MODULE_NORM && strcmp(b->modules[i].name, "norm") == 0)
            return true;
    return false;
}

/* The groups a Mamba2 mixer's gated RMSNorm normalizes over (its B/C groups: group_size = inner /
 * ngroups), one fp32 rstd each a token; 0 without the norm (Falcon-H1's mamba_rms_norm false). */
static uint64_t gated_norm_groups(const struct gs_block *b)
{
    return has_gated_norm(b) ? gs_recurrent_groups(&b->rec) : 0;
}

/* What a Mamba2 mixer keeps for backward when transformers trains it through mamba-ssm's
 * mamba_split_conv1d_scan_combined (modeling_nemotron_h.py NemotronHMamba2Mixer and
 * modeling_granitemoehybrid.py GraniteMoeHybridMambaLayer cuda_kernels_forward: `if
 * self.training and cache_params is None`; mamba_ssm ops/triton/ssd_combined.py
 * MambaSplitConv1dScanCombinedFn.forward): ctx.save_for_backward(zxbcdt, ..., out_x, ...,
 * rstd, outproj_weight, ...) - the in_proj output whole (in_width, the activation dtype), the
 * scan's output before the gated RMSNorm (out_x, the inner width at x's dtype) and the norm's
 * fp32 rstd, one a token and group (_layer_norm_fwd with group_size = inner / ngroups); the conv's
 * output, the gate and the norm's output are recomputed in backward, and out_proj runs inside
 * (F.linear(out, outproj_weight)), so its input is never kept. Under autocast over fp32 weights
 * the function casts outproj_weight to the autocast dtype and saves that copy: inner x hidden at
 * 2 bytes a layer. A mixer without the gated norm (Falcon-H1's with mamba_rms_norm false:
 * rmsnorm_weight=None) gets out_x from the scan, which gates it itself, and no rstd. */
static uint64_t mamba2_combined_bytes(struct acc *c, const struct gs_activation_input *in,
                                      const struct gs_block *b, uint64_t tokens)
{
    const struct gs_recurrent *r = &b->rec;
    const uint64_t e = in->element_bytes;
    const uint64_t groups = gated_norm_groups(b);
    uint64_t bytes = mul(c, (r->in_width + r->inner) * e + groups * 4, tokens);
    if (in->autocast && in->residual_bytes == 4)
        bytes = add(c, bytes, mul(c, 2 * r->inner, in->arch->hidden_size));
    return bytes;
}

/* What a gated RMSNorm over the inner width keeps, a token, where its input is the fp32 scan output
 * and the gate a 16-bit (or, in fp32, the fp32 view of in_proj's) tensor: Zamba2RMSNormGated
 * (Nemotron-H) and MambaRMSNormGated (Mamba2, Granite 4) compute hidden_states.to(torch.float32) *
 * silu(gate.to(torch.float32)), pow(2).mean, * rsqrt(...), then weight * hidden_states.to(
 * input_dtype). Kept: the gate's fp32 copy, which silu keeps (in fp32 the view itself, part of
 * in_proj's output), silu's output and the product's other factor (`y32`, the caller's), the
 * product, which pow and the normalizing product keep, I x 4 each, rsqrt's output a group
 * (Zamba2RMSNormGated's and FalconH1RMSNormGated's variance is over each group) or a token
 * (MambaRMSNormGated's and BambaRMSNormGated's: pow(2).mean(-1) over the whole width,
 * gs_recurrent.norm_whole), and the normalized tensor at input_dtype where the weight trains. */
static uint64_t gated_norm_bytes(const struct gs_activation_input *in, const struct gs_block *b,
                                 uint64_t norm_dtype, bool gate_fp32)
{
    const uint64_t I = b->rec.inner;
    const uint64_t groups = gated_norm_groups(b);
    uint64_t per = (gate_fp32 ? 2 : 3) * I * 4 + (b->rec.norm_whole && groups ? 1 : groups) * 4;
    if (in->trainable == GS_TRAIN_ALL)
        per += I * norm_dtype;
    return per;
}

/* What Nemotron-H's Mamba2 mixer keeps over a batch with padding (modeling_nemotron_h.py
 * NemotronHMamba2Mixer.cuda_kernels_forward: the combined function needs input_not_masked, so
 * the kernels run one by one), by autograd's rules, per token with I the inner width, C = I + 2GN
 * the conv's channels, P in_proj's output, H heads, at the activation dtype unless said:
 * - in_proj's output whole, P: causal_conv1d_fn saves its input (CausalConv1dFn.forward:
 *   ctx.save_for_backward(x, ...)), the channel-last view hidden_states_B_C.transpose(1, 2),
 *   and mamba_chunk_scan_combined its dt, another view (in_proj reads the masked copy of its
 *   input, which replaces the norm's output it keeps);
 * - the conv's output, C: causal_conv1d_fwd's empty_like(x) is channel-last again (ATen
 *   empty_like keeps a non-dense layout's order), so after .transpose(1, 2) B and C are views
 *   with unit stride that mamba_chunk_scan_combined takes as they are and saves
 *   (MambaChunkScanCombinedFn.forward: ctx.save_for_backward(out if z is None else out_x, x, dt,
 *   dA_cumsum, A, B, C, D, z, dt_bias, ...), mamba_ssm ops/triton/ssd_combined.py);
 * - x, the masked copy (hidden_states * attention_mask[:, :, None]), I, and the scan's output
 *   (`out`, at x's dtype), I; dA_cumsum, fp32, H a token of the sequence padded to whole chunks
 *   ((batch, nheads, nchunks, chunk_size));
 * - the gated norm over the fp32 copy of the output (y.to(torch.float32), I x 4; in fp32 the
 *   output itself) and the gate (gated_norm_bytes), and out_proj's input, I, where it keeps it.
 * The chunk states, CB and the final states are the forward's temporaries (the backward
 * recomputes them). */
static uint64_t mamba2_chunked_bytes(struct acc *c, const struct gs_activation_input *in,
                                     const struct gs_block *b, uint64_t s, uint64_t tokens)
{
    const struct gs_recurrent *r = &b->rec;
    const uint64_t e = in->element_bytes, I = r->inner, H = r->state_heads;
    const uint64_t chunk = r->chunk ? r->chunk : 256;
    const uint64_t batch = s ? tokens / s : 0;
    const bool fp32 = e == 4;
    uint64_t per = (r->in_width + r->conv_channels + 2 * I) * e + (fp32 ? 0 : I * 4);
    per += gated_norm_bytes(in, b, e, fp32);
    if (named_linear_saves(in, b, "out_proj"))
        per += I * e;
    const uint64_t padded = mul(c, mul(c, div_ceil(s, chunk), chunk), batch);
    return add(c, mul(c, per, tokens), mul(c, H * 4, padded));
}

/* What a Mamba2 mixer keeps under transformers' torch fallback, torch_forward's naive chunked SSD
 * (modeling_mamba2.py Mamba2Mixer.torch_forward; NemotronHMamba2Mixer's and
 * GraniteMoeHybridMambaLayer's are copies), by autograd's rules (an op keeps the operands its
 * backward reads; sum, cumsum, cat, pad and repeat_interleave keep none), per token with I the
 * inner width (H heads of d), C = I + 2GN the conv's channels, P in_proj's output, N the state, l
 * the chunk length, at the activation dtype unless said:
 * - in_proj's output whole, P (F.conv1d keeps its input, a view of it); the conv's output, C, with
 *   its K - 1 padded positions a sequence, which silu keeps; dt + dt_bias, softplus's output and
 *   clamp's, H each (softplus and clamp keep their inputs, the products with dt the output; fp32
 *   under autocast, dt_bias being fp32);
 * - the fp32 copy of the input, hidden_states.reshape(...).float(), I x 4, which the product with
 *   dt keeps (in fp32 .float() is the view itself: silu's output whole, C x 4);
 * - in fp32 over the sequence padded to whole chunks (reshape_into_chunks pads, a copy even of
 *   nothing to pad: constant_pad_nd clones): the discretized input in chunks, I, which the
 *   products for Y_diag and the chunk states keep; B and C repeated to every head
 *   (repeat_interleave), H x N each, which G_intermediate's product keeps; L = exp(segment_sum(A)),
 *   G and M, (batch, chunks, l, l, heads): l x H each (exp keeps its output, the products their
 *   factors); decay_states and exp(A_cumsum), H each; B_decay, H x N; C_times_states.sum(-1),
 *   which the product with the decay keeps, I; y, I, which the gated norm's product keeps;
 *   where D trains (full training) the padded input D multiplies, I;
 * - the gated norm (gated_norm_bytes: y is fp32, so its normalized tensor is; Falcon-H1's
 *   FalconH1RMSNormGated, which normalizes before the gate by default, keeps as many: y, which
 *   pow keeps, the normalized and weighted tensors, the gate's fp32 copy and silu's output;
 *   without its norm silu's output, I) and out_proj's input, I, where it keeps it (the norm's
 *   output cast back to the input dtype);
 * - a sequence: the chunk states with the zeros before them (torch.cat) and new_states, which
 *   C_times_states's product keeps through its view, (chunks + 1) x I x N x 4 each, and
 *   decay_chunk, (chunks + 1)^2 x H x 4.
 * Under autocast over fp32 weights, F.conv1d's 16-bit copy of its weight, C x K x 2 a layer.
 * `transient` gets what the layer holds beyond them at its largest moment: in backward, each
 * broadcasting product's gradient with respect to both factors at the product's full shape
 * (MulBackward0 makes both before validate_outputs sums them down to the factors' shapes): for
 * G_intermediate (batch, chunks, l, l, H, N), 2 x l x H x N x 4 a padded token, for Y_diag's
 * and the chunk states' products 2 x l x I x 4 and 2 x I x N x 4, for new_states's
 * 2 x (chunks + 1)^2 x I x N x 4 a sequence; in forward, the locals alive until the mixer returns
 * (G_intermediate, M_intermediate, C_times_states, Y_diag, Y_off, D_residual), the larger. */
static uint64_t mamba2_naive_bytes(struct acc *c, const struct gs_activation_input *in,
                                   const struct gs_block *b, uint64_t s, uint64_t tokens,
                                   uint64_t *transient)
{
    const struct gs_recurrent *r = &b->rec;
    const uint64_t e = in->element_bytes, I = r->inner, C = r->conv_channels;
    const uint64_t H = r->state_heads, N = r->state_cols;
    const uint64_t K = r->conv_kernel ? r->conv_kernel : 1;
    const uint64_t l = r->chunk ? r->chunk : 256;
    const uint64_t batch = s ? tokens / s : 0;
    const uint64_t chunks = div_ceil(s, l);
    const uint64_t padded = mul(c, mul(c, chunks, l), batch);
    const bool full = in->trainable == GS_TRAIN_ALL;
    const bool amp = in->autocast && in->residual_bytes == 4;
    const bool fp32 = e == 4 && !amp;
    const uint64_t wide = amp ? 4 : e; /* the time step's tensors */
    uint64_t per = (r->in_width + C) * e + 3 * H * wide + (fp32 ? C * 4 : I * 4);
    /* Falcon-H1 without mamba_rms_norm gates y itself: y * silu(gate), silu's output at the
     * gate's dtype kept by the product (silu keeps the gate, a view of in_proj's output) */
    per += has_gated_norm(b) ? gated_norm_bytes(in, b, 4, fp32) : I * e;
    if (named_linear_saves(in, b, "out_proj"))
        per += I * e;
    const uint64_t per_padded = (3 * I + 3 * H * N + 3 * l * H + 2 * H + (full ? I : 0)) * 4;
    const uint64_t states = mul(c, mul(c, chunks + 1, I * N), 4);
    const uint64_t decay_chunk = mul(c, mul(c, chunks + 1, chunks + 1), H * 4);
    const uint64_t sequence = add(c, add(c, (K - 1) * C * e, mul(c, 2, states)), decay_chunk);
    uint64_t bytes = add(c, mul(c, per, tokens), mul(c, per_padded, padded));
    bytes = add(c, bytes, mul(c, sequence, batch));
    if (amp)
        bytes = add(c, bytes, 2 * C * K);
    /* the largest backward product pair, and the forward's locals */
    uint64_t pair = 2 * 4 * (l * H * N > l * I ? l * H * N : l * I);
    if (2 * 4 * I * N > pair)
        pair = 2 * 4 * I * N;
    uint64_t backward = mul(c, pair, padded);
    const uint64_t chunk_pair = mul(c, mul(c, mul(c, 2, chunks + 1), states), batch);
    if (chunk_pair > backward)
        backward = chunk_pair;
    const uint64_t forward = mul(c, (l * H * N + l * H + I * N + 3 * I) * 4, padded);
    *transient = backward > forward ? backward : forward;
    return bytes;
}

/* What Falcon-H1's Mamba2 half keeps beside its attention (modeling_falcon_h1.py
 * FalconH1DecoderLayer.forward, FalconH1Mixer.cuda_kernels_forward): the combined kernel's
 * tensors (mamba2_combined_bytes, over in_proj's output times the muP vector: the product
 * replaces the output, which the multiplication does not keep), or under the torch fallback
 * FalconH1Mixer.torch_forward's naive chunked SSD (mamba2_naive_bytes, the same code over the
 * same product, and `transient` its working set), and a second copy of the layer's
 * normed input: the mixer reads hidden_states * ssm_in_multiplier and the attention
 * hidden_states * attention_in_multiplier, two new tensors (a product with a number keeps
 * neither factor), so where in_proj and q, k or v both keep their inputs the layer holds two
 * copies of what a sequential block's linears share, hidden x the activation dtype a token (under
 * autocast over fp32 weights each linear keeps its own 16-bit cast, counted as such). */
static uint64_t parallel_mamba2_bytes(struct acc *c, const struct gs_activation_input *in,
                                      const struct gs_block *b, uint64_t s, uint64_t tokens,
                                      uint64_t *transient)
{
    uint64_t bytes = mamba2_path(in, b) == MAMBA2_NAIVE
                         ? mamba2_naive_bytes(c, in, b, s, tokens, transient)
                         : mamba2_combined_bytes(c, in, b, tokens);
    const bool attention_keeps = named_linear_saves(in, b, "q_proj") ||
                                 named_linear_saves(in, b, "k_proj") ||
                                 named_linear_saves(in, b, "v_proj");
    const bool amp = in->autocast && in->residual_bytes == 4; /* each linear keeps its own cast */
    if (attention_keeps && named_linear_saves(in, b, "in_proj") && !amp)
        bytes = add(c, bytes, mul(c, mul(c, in->element_bytes, in->arch->hidden_size), tokens));
    return bytes;
}

/* What a Mamba (v1) mixer keeps for backward when transformers trains it through mamba-ssm's
 * mamba_inner_fn (modeling_mamba.py MambaMixer.cuda_kernels_forward: `if self.training and
 * cache_params is None`, which passes x_proj's, dt_proj's and out_proj's weights, not the
 * modules, and ignores a padding mask; mamba_ssm ops/selective_scan_interface.py
 * MambaInnerFn.forward, checkpoint_lvl 1), per token with I the inner width, N the state size
 * and R the time-step rank, at the activation dtype:
 * - xz, in_proj's output made contiguous in (batch, 2I, seq) (in_proj(...).transpose(1, 2) is
 *   not, so `xz = xz.contiguous()` copies it), 2I;
 * - x_dbl = F.linear(conv1d_out, x_proj_weight), R + 2N; B and C rearranged out of it with
 *   .contiguous(), N each; the scan's output before the gate (`out`, empty_like(delta)), I;
 *   the conv's output and delta are recomputed in backward (conv1d_out, delta = None, None), and
 *   the gated output is only F.linear's input inside the function, so nothing keeps it;
 * and per sequence the scan's intermediate states (selective_scan.cpp selective_scan_fwd:
 * x = zeros({batch, dim, n_chunks, dstate * 2}) at A's dtype, fp32, n_chunks = ceil(seqlen /
 * 2048)). Per layer: A = -torch.exp(self.A_log.float()), I x N x 4 (and exp's output, which exp
 * keeps where A_log trains); over 16-bit weights the fp32 copies the kernel requires of D,
 * dt_proj's bias and conv1d's bias (TORCH_CHECK(D.scalar_type() == at::ScalarType::Float)),
 * I x 4 each; under autocast over fp32 weights the function's bf16 copies of x_proj's,
 * dt_proj's and out_proj's weights (x_proj_weight.to(dtype=torch.get_autocast_gpu_dtype())). */
static uint64_t mamba1_inner_bytes(struct acc *c, const struct gs_activation_input *in,
                                   const struct gs_block *b, uint64_t s, uint64_t tokens)
{
    const struct gs_recurrent *r = &b->rec;
    const uint64_t e = in->element_bytes, I = r->inner, N = r->state_rows, R = r->dt_rank;
    const uint64_t h = in->arch->hidden_size;
    const uint64_t batch = s ? tokens / s : 0;
    uint64_t bytes = mul(c, (3 * I + R + 4 * N) * e, tokens);
    bytes = add(c, bytes, mul(c, mul(c, I * 2 * N * 4, div_ceil(s, 2048)), batch));
    bytes = add(c, bytes, mul(c, I * N * 4, in->trainable == GS_TRAIN_ALL ? 2 : 1));
    if (in->autocast && in->residual_bytes == 4) { /* fp32 weights under autocast */
        bytes = add(c, bytes, mul(c, 2, mul(c, R + 2 * N, I)));
        bytes = add(c, bytes, mul(c, 2, add(c, mul(c, I, R), mul(c, h, I))));
    } else if (e != 4) {     /* 16-bit weights */
        uint64_t copies = 2; /* D and dt_proj's bias */
        for (size_t i = 0; i < b->module_count; i++)
            copies += strcmp(b->modules[i].name, "conv1d.bias") == 0 ? 1 : 0;
        bytes = add(c, bytes, mul(c, copies, I * 4));
    }
    return bytes;
}

/* What Jamba's Mamba mixer keeps for backward (transformers modeling_jamba.py
 * JambaMambaMixer.cuda_kernels_forward, which calls the kernels one by one because its dt, B and
 * C RMSNorms sit between them), by autograd's rules, per token with I the inner width, N the
 * state size and R the time-step rank, at the activation dtype:
 * - in_proj's output whole, 2I: causal_conv1d_fn saves its input (causal-conv1d
 *   causal_conv1d_interface.py CausalConv1dFn.forward: ctx.save_for_backward(x, ...)), a view of
 *   in_proj(...).transpose(1, 2) that it takes as it is (channel-last: x.stride(1) == 1); over a
 *   padded batch the mixer masks it first (hidden_states * attention_mask), a copy of I;
 * - the conv's output, I, where x_proj keeps its input: causal_conv1d_fwd allocates it
 *   torch::empty_like(x), which lays a non-dense input's output out densely in the same
 *   order (ATen TensorFactories.cpp empty_like: infer_dense_strides), channel-last again;
 * - selective_scan_fn (mamba_ssm ops/selective_scan_interface.py SelectiveScanFn.forward) copies
 *   what is not contiguous along the sequence and saves it: u (the channel-last conv output), I;
 *   delta (dt_proj(...).transpose(1, 2)), I; B and C (the norms' (batch, seq, N) outputs
 *   transposed), N each; z (the gate, the other half of in_proj's output), I; and the scan's
 *   output before the gate (`out`, empty_like(delta)), I; out_proj reads the gated output, I, and
 *   keeps it where it keeps its input;
 * - the three RMSNorms (JambaRMSNorm: hidden_states.to(torch.float32), pow, rsqrt, the product,
 *   cast back, times the weight): the fp32 copy pow and the product keep, R + 2N at 4 bytes (in
 *   fp32 the .to is the split view itself, and x_proj's output, R + 2N, is kept whole: the same
 *   bytes), rsqrt's fp32 output, one a norm, and, where the norms' weights train, the normalized
 *   tensor the weight multiplies, R + 2N; dt_proj keeps its input, R, where it keeps its input;
 * and per sequence the scan's fp32 chunk states, I x 2N x 4 per 2,048 tokens (selective_scan.cpp
 * selective_scan_fwd); per layer A = -torch.exp(self.A_log.float()), I x N x 4 (and exp's output
 * where A_log trains), and over 16-bit weights the fp32 copies the kernel requires of D
 * (self.D.float()) and dt_proj's bias (time_proj_bias.float()), I x 4 each. Under autocast over
 * fp32 weights the norms return fp32 B and C (an fp32 weight times a 16-bit tensor), which
 * selective_scan_fwd refuses (TORCH_CHECK(B.scalar_type() == input_type)): not counted there. */
static uint64_t mamba1_selective_bytes(struct acc *c, const struct gs_activation_input *in,
                                       const struct gs_block *b, uint64_t s, uint64_t tokens)
{
    const struct gs_recurrent *r = &b->rec;
    const uint64_t e = in->element_bytes, I = r->inner, N = r->state_rows, R = r->dt_rank;
    const uint64_t batch = s ? tokens / s : 0;
    const bool full = in->trainable == GS_TRAIN_ALL;
    uint64_t widths = (in->padding_mask ? I : 2 * I) + 4 * I + 2 * N;
    if (full)
        widths += R + 2 * N;
    if (named_linear_saves(in, b, "x_proj"))
        widths += I;
    if (named_linear_saves(in, b, "dt_proj"))
        widths += R;
    if (named_linear_saves(in, b, "out_proj"))
        widths += I;
    uint64_t bytes = mul(c, widths * e + (R + 2 * N) * 4 + 3 * 4, tokens);
    bytes = add(c, bytes, mul(c, mul(c, I * 2 * N * 4, div_ceil(s, 2048)), batch));
    bytes = add(c, bytes, mul(c, I * N * 4, full ? 2 : 1));
    if (e != 4)
        bytes = add(c, bytes, 2 * I * 4);
    return bytes;
}

/* What a Mamba (v1) mixer keeps for backward under transformers' torch fallback, the sequential
 * scan of MambaMixer.slow_forward (modeling_mamba.py; JambaMambaMixer.slow_forward alike with its
 * dt, B and C RMSNorms, `normed`), by autograd's rules, per token with I the inner width, N the
 * state size, R the time-step rank, at the activation dtype unless said:
 * - in_proj's output whole, 2I: the conv (F.conv1d saves its input, a view of
 *   in_proj(...).transpose(1, 2)) and act(gate) (silu keeps its input, the other half) keep it;
 *   over a padded batch the conv reads a masked copy, I more;
 * - the conv's output, whose first s of s + K - 1 positions silu reads and keeps (K - 1 more a
 *   sequence), I; silu's output, I, which hidden_states * self.D keeps where D trains and x_proj
 *   where it keeps its input (a copy when a micro-batch of several sequences folds the transposed
 *   input for the weight's gradient: aten matmul should_fold), and its fp32 copy
 *   (hidden_states[..., None].float(), I x 4) the product with discrete_B keeps;
 * - x_proj's output whole, R + 2N: C's per-step slices, which each step's matmul keeps, are views
 *   of it (Jamba: the norms' fp32 copies, R + 2N at 4 bytes, their rsqrt outputs, the normalized
 *   copies where the weights train, R + 2N, C's normed output, N, dt_proj's input, R, where it
 *   keeps it);
 * - dt_proj's output, I, which softplus keeps (under autocast softplus runs in fp32: its fp32
 *   copy), and softplus's output, I (fp32 under autocast), which the products with A and B keep;
 * - in fp32, (batch, inner, seq, state): discrete_A (exp keeps its output), I x N x 4, and
 *   discrete_B (the product with the input keeps it), I x N x 4; B.float(), N x 4;
 * - the loop's state after each step (discrete_A[:, :, i] * ssm_state keeps the previous one),
 *   I x N x 4 a token (the first step's zeros at the input's dtype), and its copy at the input's
 *   dtype that the matmul with C keeps (ssm_state.to(dtype): in fp32 the state itself), I x N;
 * - the gated output's factors, scan_output + hidden_states * D and act(gate), I each (the sum
 *   fp32 under autocast, D being fp32), and out_proj's input, I, where it keeps it;
 * and per layer A (and exp's output where A_log trains), I x N x 4, and under autocast over fp32
 * weights the conv weight's 16-bit copy. deltaB_u and each step's output live only until the
 * mixer returns. `transient` gets the backward's working set beyond them, 4 x I x N x 4 a token:
 * each step's discrete_A[:, :, i] and deltaB_u[:, :, i] are selects, whose backward makes a zeroed
 * (batch, inner, seq, state) gradient with the step's slice filled in (aten select_backward), which
 * the engine adds into each tensor's input buffer (input_buffer.cpp accumulate), so through the
 * loop's backward two fp32 buffers of that shape and one step's full-size gradient are alive;
 * deltaB_u's product then makes its two factors' gradients at that shape (MulBackward0 before
 * validate_outputs sums them down) beside discrete_A's buffer and its own: four. */
static uint64_t mamba1_sequential_bytes(struct acc *c, const struct gs_activation_input *in,
                                        const struct gs_block *b, uint64_t s, uint64_t tokens,
                                        bool normed, uint64_t *transient)
{
    const struct gs_recurrent *r = &b->rec;
    const uint64_t e = in->element_bytes, I = r->inner, N = r->state_rows, R = r->dt_rank;
    const uint64_t K = r->conv_kernel ? r->conv_kernel : 1;
    const uint64_t batch = s ? tokens / s : 0;
    const bool full = in->trainable == GS_TRAIN_ALL;
    const bool amp = in->autocast && in->residual_bytes == 4;
    const bool fp32 = e == 4 && !amp;
    /* softplus's input and output and the gated sum: fp32 under autocast */
    const uint64_t wide = amp ? 4 : e;
    /* in_proj's output, the conv's, act(gate)'s, at the activation dtype */
    uint64_t widths = 2 * I + I + I + (in->padding_mask ? I : 0);
    if (full) /* silu's output, which the product with D keeps */
        widths += I;
    /* x_proj's input: a view of silu's output for one sequence, counted where the product with
     * D or (fp32) the product with discrete_B keeps that output; a folded copy for several */
    if (named_linear_saves(in, b, "x_proj") && (batch > 1 || !(full || fp32)))
        widths += I;
    if (named_linear_saves(in, b, "out_proj"))
        widths += I;
    uint64_t per = widths * e + 3 * I * wide;
    per += 2 * I * N * 4 + (fp32 && full ? 0 : I * 4);
    if (normed) {
        per += (R + 2 * N) * 4 + 3 * 4 + N * e + N * 4;
        if (full)
            per += (R + 2 * N) * e;
        if (named_linear_saves(in, b, "dt_proj"))
            per += R * e;
    } else {
        per += (R + 2 * N) * e + (fp32 ? 0 : N * 4);
    }
    per += fp32 ? I * N * 4 : I * N * e; /* the state's copy (fp32: the state itself) */
    uint64_t bytes = mul(c, per, tokens);
    /* a sequence: the conv's extra positions, the first state's zeros and, but in fp32 (counted
     * above), the states the next step keeps */
    const uint64_t states = fp32 ? 0 : mul(c, s ? s - 1 : 0, I * N * 4);
    const uint64_t sequence = add(c, (K - 1) * I * e + I * N * (amp ? 4 : e), states);
    bytes = add(c, bytes, mul(c, sequence, batch));
    bytes = add(c, bytes, mul(c, I * N * 4, full ? 2 : 1));
    if (amp)
        bytes = add(c, bytes, 2 * I * K);
    *transient = mul(c, 4 * I * N * 4, tokens);
    return bytes;
}

/* What a Gated DeltaNet layer keeps for backward under transformers' own code
 * (modeling_qwen3_5.py Qwen3_5GatedDeltaNet.forward; Qwen3-Next's differs: fla's
 * FusedRMSNormGated where installed, and an older torch fallback), by autograd's rules (an op
 * keeps the operands its backward reads; an autograd.Function what it saves), per token with
 * Hv value heads of dv, Hk key heads of dk, V = Hv x dv, K = Hk x dk, C = 2K + V conv channels:
 * - the conv's input, C (CausalConv1dFn saves x; F.conv1d its input, under autocast its 16-bit
 *   copy); beta = b.sigmoid(), Hv (sigmoid keeps its output); g = -A_log.float().exp() *
 *   F.softplus(a.float() + dt_bias): softplus keeps its fp32 input, Hv x 4, and the product its
 *   fp32 output where A_log trains;
 * - Qwen3_5RMSNormGated: the fp32 copy of the kernel's output (pow and the product keep it),
 *   V x 4, rsqrt's output, Hv x 4 (one a head), the normalized 16-bit copy where the weight
 *   trains, V, the fp32 gate (silu keeps its input), V x 4, the weighted output (the product
 *   with the gate keeps it, at the weight's dtype: fp32 under autocast), V, and silu's output,
 *   V x 4; out_proj's input, V, where it keeps it;
 * - flash-linear-attention (fla/ops/gated_delta_rule/chunk.py ChunkGatedDeltaRuleFunction,
 *   use_qk_l2norm_in_kernel): save_for_backward(q, q_rstd, k, k_rstd, v, g, beta, A, ...): the
 *   l2-normalized q and k, K each (l2norm_fwd: the input's dtype; fla >= 0.5 takes Hk heads),
 *   their fp32 rstd, Hk x 4 each, v as input_guard's contiguous copy, V, g's chunk-local cumsum
 *   (fp32), Hv x 4, beta (the sigmoid's output), and A (solve_tril at k's dtype), Hv x 64;
 * - the torch fallback (torch_chunk_gated_delta_rule): q and k repeated to Hv heads and cast to
 *   fp32, which l2norm keeps, Hv x dk x 4 each, with its rsqrt output, Hv x 4 each; then over the
 *   sequence padded to a multiple of 64, per token and value head in fp32: the padded q, k, v
 *   and beta, k_beta, k_cumdecay, the decayed q and k (dk wide: 6; dv wide: v, the solved
 *   new_values and each chunk's v_new: 3), 64 wide: the pairwise decay's exp, k_beta @ k^T,
 *   q @ k^T (each product keeps its factors), the UT system solve_triangular keeps and the
 *   intra-chunk attention the scan reads (5), and three exp outputs (the decay of k_beta, q and
 *   k); per 64-token chunk, the recurrent state it multiplies, Hv x dk x dv x 4, and the chunk's
 *   decay; F.conv1d's padded output (s + kernel - 1 positions), which silu keeps.
 * Qwen3-Next's layer (modeling_qwen3_next.py Qwen3NextGatedDeltaNet.forward,
 * GS_SCAN_GATED_DELTA_NEXT) differs on fla's path, the one counted for it: q and k are repeated to
 * the Hv value heads (repeat_interleave) before the kernel, which then saves them normalized at Hv
 * x dk with Hv rstd each; and with fla installed the gated norm is fla's FusedRMSNormGated
 * (fla/modules/fused_norm_gate.py LayerNormGatedFunction: save_for_backward(residual_out, g,
 * weight, bias, mean, rstd) - without a residual its 16-bit input, the kernel's output, V; the
 * gate z, V, a reshape copy of the projection's split; one fp32 rstd a row, Hv x 4), whose
 * weight gradient reads those alone. Without fla its older torch fallback
 * (modeling_qwen3_next.py torch_chunk_gated_delta_rule) l2-normalizes q and k at the input dtype
 * before the fp32 casts: l2norm keeps its input, the repeat's copies, Hv x dk each (with one key
 * head a value head views of silu's output, which stays whole, C), and its rsqrt, Hv each, at
 * the activation dtype, and the casts are not kept; per padded token and value head in fp32: the
 * scaled q, the padded k, k_beta, k_beta times the decay, k_cumdecay, and each chunk's decayed q
 * and k (dk wide: 7), the padded v, v_beta and v_new (dv wide: 3), the decay's exp, its tril that
 * the products read, k_beta @ k^T, the transformed UT system, each chunk's q @ k^T and its
 * masked product (64 wide: 6), beta and three exp outputs; per chunk and value head the state
 * and, from the UT transform's 63-step loop of in-place row updates, every step's cloned row and
 * block, which its product keeps (sum of i + i^2 for i < 64: 87,360 floats). Its gated norm is
 * Qwen3NextRMSNormGated, Qwen3.5's code.
 * Backward's transients (fla's recomputed chunk states, the fallbacks' gradients) are not
 * counted. */
static uint64_t gated_delta_bytes(struct acc *c, const struct gs_activation_input *in,
                                  const struct gs_block *b, const struct linears *l, uint64_t s,
                                  uint64_t tokens)
{
    const struct gs_recurrent *r = &b->rec;
    const uint64_t e = in->element_bytes, chunk = 64;
    const bool full = in->trainable == GS_TRAIN_ALL;
    const uint64_t hv = r->state_heads, dk = r->state_cols, dv = r->state_rows;
    const uint64_t v = r->inner, conv = r->conv_channels;
    const uint64_t key = conv > v ? (conv - v) / 2 : 0;
    const uint64_t hk = dk ? key / dk : 0;
    const uint64_t weight = in->autocast ? 4 : e; /* the gated norm's weight, as stored */
    const bool next = r->scan == GS_SCAN_GATED_DELTA_NEXT;
    uint64_t per = conv * e + hv * e + hv * 4 * (full ? 2 : 1);
    if (next && !in->recurrent_torch) /* fla's FusedRMSNormGated: its input, the gate and rstd */
        per += 2 * v * e + hv * 4;
    else /* Qwen3_5RMSNormGated, or without fla Qwen3NextRMSNormGated, the same code */
        per += v * 4 + hv * 4 + (full ? v * e : 0) + v * 4 + v * weight + v * 4;
    if (l->saves[ROLE_OUT] || l->direct[ROLE_OUT])
        per += v * e;
    if (!in->recurrent_torch) {
        /* Qwen3-Next repeats q and k to every value head */
        const uint64_t qk_heads = next ? hv : hk;
        per += 2 * qk_heads * dk * e + 2 * qk_heads * 4 + v * e + hv * 4 + hv * chunk * e;
        return mul(c, per, tokens);
    }
    const uint64_t batch = s ? tokens / s : 0;
    const uint64_t chunks = div_ceil(s, chunk);
    const uint64_t padded = mul(c, mul(c, chunks, chunk), batch);
    uint64_t per_padded, per_chunk = hv * (dk * dv * 4 + 4);
    if (next) {
        /* l2norm at the input dtype keeps q and k as they come, the repeat's copies or (one
         * key head a value head) views of silu's output, which stays whole, and its rsqrt */
        per += (hv > hk ? 2 * hv * dk * e : conv * e) + 2 * hv * e;
        per_padded = hv * ((7 * dk + 3 * dv) * 4 + 6 * chunk * 4 + 4 * 4);
        /* the UT loop's clones: row i (i) and block i (i x i) for i = 1 .. chunk - 1 */
        per_chunk += hv * 4 * ((chunk - 1) * chunk / 2 + (chunk - 1) * chunk * (2 * chunk - 1) / 6);
    } else {
        per += hv * (2 * dk * 4 + 2 * 4);
        per_padded = hv * ((6 * dk + 3 * dv) * 4 + 5 * chunk * 4 + 3 * 4 + 4);
    }
    uint64_t bytes = mul(c, per, tokens);
    bytes = add(c, bytes,
                mul(c, conv * e, mul(c, s + (r->conv_kernel ? r->conv_kernel - 1 : 0), batch)));
    bytes = add(c, bytes, mul(c, per_padded, padded));
    return add(c, bytes, mul(c, per_chunk, mul(c, chunks, batch)));
}

/* What a Kimi Delta Attention layer keeps for backward under transformers' own code
 * (models/kimi_linear/modeling_kimi_linear.py KimiLinearDeltaAttention.forward, which hands the
 * scan to flash-linear-attention's chunk_kda where fla is installed:
 * use_kernel_func_from_hub_with_fallback("chunk_kda", "fla")), by autograd's rules, per token
 * with H key heads of dk, Hv value heads of dv, K = H x dk, V = Hv x dv, C = 2K + V:
 * - causal-conv1d over torch.cat of the q, k and v projections: CausalConv1dFn saves its input,
 *   C at the activation dtype;
 * - the forget gate: forget_gate_up(forget_gate_down(x)) (the checkpoint's f_a_proj and
 *   f_b_proj) reshaped to (Hv, dk), then -A_log.exp() * F.softplus(gate.float() + dt_bias):
 *   softplus keeps its fp32 input, Hv x dk x 4, and the product its fp32 output where A_log
 *   trains; the product's output is chunk_kda's g; beta_proj's output .float().sigmoid(), Hv x 4
 *   (sigmoid keeps its output, which chunk_kda saves as well);
 * - fla ops/kda/chunk.py ChunkKDAFunction.forward (0.5.0 to 0.5.2, use_qk_l2norm_in_kernel,
 *   the gate and beta computed outside, disable_recompute false: w, u, qg, kg, v_new and h are
 *   dropped): save_for_backward(q, q_rstd, k, k_rstd, v, g_cumsum, g_input, beta, Aqk, Akk)
 *   (before 0.5 g_input was saved only when the kernel computed the gate, 4 Hv dk less):
 *   q and k l2-normalized at their dtype (l2norm_fwd: empty_like), K each, their fp32 rstd, H x 4
 *   each, v as input_guard's contiguous copy (a view of the conv's output split three ways), V,
 *   the gate's chunk-local cumsum (chunk_local_cumsum: fp32), Hv x dk x 4, the gate as handed
 *   over, Hv x dk x 4, beta, and Aqk and Akk (chunk_kda_fwd_intra: Hv x 64 at k's dtype);
 * - KimiLinearRMSNormGated (eager, sigmoid): the fp32 copy of the kernel's output, V x 4 (pow and
 *   the product keep it), rsqrt's output, Hv x 4, the normalized copy at the input dtype where
 *   the weight trains, V, the weighted output (at the weight's dtype: fp32 under autocast), V,
 *   which the product with the gate keeps, and sigmoid's fp32 output, V x 4 (sigmoid keeps its
 *   output, not the gate's fp32 copy); o_proj's input, V, where it keeps it;
 * - the low-rank gates' second stages (f_b_proj, g_b_proj) keep their narrow input where they
 *   keep their input.
 * Without fla and causal-conv1d (in->recurrent_torch) the same file's torch functions run:
 * causal_conv1d_fn's F.conv1d keeps its input and silu the padded output (s + kernel - 1
 * positions, the [:, :, :seq_len] slice a view of it), and torch_chunk_kda (Kimi's heads: H = Hv)
 * keeps, where fla's saved set was:
 * - per token, q and k in fp32 (transpose(1, 2).contiguous().to(torch.float32)), which l2norm's
 *   products keep, K x 4 each, with rsqrt's output, H x 4 each (the division by sqrt(dk) and
 *   F.pad keep nothing; the caller's gate is not kept);
 * - per token of the sequence padded to whole 64-token chunks and per head, in fp32: the padded q,
 *   k, v and beta, k_beta and v_beta (the products with beta keep their factors; the chunk matmuls
 *   keep k_beta and v_beta), the cumulative decay's exp, k_beta * cum_decay and k_cumdecay (the
 *   matmuls read them), and from the chunk loop each chunk's v_new, q_i * cum_decay, key_decay's
 *   exp and k_i * key_decay: 9 dk and 3 dv wide and beta; the UT system after torch.eye's add and
 *   qk_attn, whose chunk views the loop's matmuls keep, 64 each; and the grouped intra-chunk step's
 *   pairwise decays (exp keeps its output) and decayed keys (both matmuls keep them), (chunk x
 *   chunk x dk) a chunk and head each, 64 x dk a padded token, the largest part;
 * - per chunk and head, the UT transform's 63-step loop of cloned rows and blocks, which its
 *   products keep (sum of i + i^2 for i < 64: 87,360 floats), the recurrent state each chunk's
 *   products read (the zeros of the first included), dk x dv x 4, and the state's decay, dk x 4.
 * Backward's transients (chunk_kda_bwd recomputes w, u and the chunk states; the torch path's
 * gradients of a group's pairwise decays, bounded by its 2^26-element groups) are not counted. */
static uint64_t kimi_delta_bytes(struct acc *c, const struct gs_activation_input *in,
                                 const struct gs_block *b, const struct linears *l, uint64_t s,
                                 uint64_t tokens)
{
    const struct gs_recurrent *r = &b->rec;
    const uint64_t e = in->element_bytes, chunk = 64;
    const bool full = in->trainable == GS_TRAIN_ALL;
    const uint64_t hv = r->state_heads, dk = r->state_cols, dv = r->state_rows;
    const uint64_t v = r->inner, conv = r->conv_channels;
    const uint64_t key = conv > v ? (conv - v) / 2 : 0;
    const uint64_t hk = dk ? key / dk : 0;
    const uint64_t gate = hv * dk;
    const uint64_t weight = in->autocast ? 4 : e; /* the gated norm's weight, as stored */
    uint64_t per = conv * e + gate * 4 * (full ? 2 : 1) + hv * 4;
    per += v * 4 + hv * 4 + (full ? v * e : 0) + v * weight + v * 4;
    if (l->saves[ROLE_OUT] || l->direct[ROLE_OUT])
        per += v * e;
    static const char *const stages[] = {"f_b_proj", "g_b_proj"};
    for (size_t i = 0; i < sizeof(stages) / sizeof(stages[0]); i++)
        if (named_linear_saves(in, b, stages[i]))
            per += named_linear_in(b, stages[i]) * e;
    if (!in->recurrent_torch) {
        per += 2 * key * e + 2 * hk * 4 + v * e + 2 * gate * 4 + 2 * hv * chunk * e;
        return mul(c, per, tokens);
    }
    per += 2 * key * 4 + 2 * hk * 4;
    const uint64_t batch = s ? tokens / s : 0;
    const uint64_t chunks = div_ceil(s, chunk);
    const uint64_t padded = mul(c, mul(c, chunks, chunk), batch);
    const uint64_t per_padded = hv * 4 * (9 * dk + 3 * dv + 2 * chunk + 2 * chunk * dk + 1);
    const uint64_t clones = (chunk - 1) * chunk / 2 + (chunk - 1) * chunk * (2 * chunk - 1) / 6;
    const uint64_t per_chunk = hv * 4 * (clones + dk * dv + dk);
    uint64_t bytes = mul(c, per, tokens);
    bytes = add(c, bytes,
                mul(c, conv * e, mul(c, s + (r->conv_kernel ? r->conv_kernel - 1 : 0), batch)));
    bytes = add(c, bytes, mul(c, per_padded, padded));
    return add(c, bytes, mul(c, per_chunk, mul(c, chunks, batch)));
}

/* The residual width the layers read: the decoder's hidden_size, or a tower's own in its pass
 * (gs_activation_input.stream_width). */
static uint64_t stream_width(const struct gs_activation_input *in)
{
    return in->stream_width ? in->stream_width : in->arch->hidden_size;
}

/* The positions an encoder runs a sample whatever the decoder's length (gs_tower.positions:
 * Whisper's 1,500); 0 where the model has no such encoder. */
static uint64_t encoder_positions(const struct gs_arch *a)
{
    for (size_t i = 0; i < a->tower_count; i++)
        if (a->towers[i].encoder && a->towers[i].positions)
            return a->towers[i].positions;
    return 0;
}

/* The positions a cross-attention-only layer (attn.cross_only) reads a sample's images at
 * (gs_mm_item.cross_positions each; 0 without images): MllamaModel.forward reshapes the
 * projected vision states to (batch, images x tiles x 1,601, hidden), and
 * MllamaTextCrossAttention.forward projects its keys and values from them
 * (key_states.view(bsz, -1, num_key_value_heads, head_dim)). */
static uint64_t cross_image_positions(struct acc *c, const struct gs_activation_input *in)
{
    return mul(c, in->vision_images, in->arch->mm_image.cross_positions);
}

/* Whether each SDPA call copies the cross-attention mask (mask_copied_per_call's rule for an
 * additive mask): its rows are not 8-element aligned over `keys` (preprocess_mask: pad_bias),
 * or autocast runs the query at another dtype than the model's, in which the mask is built
 * (_prepare_cross_attention_mask: .to(dtype)). */
static bool cross_mask_copied(const struct gs_activation_input *in, uint64_t keys)
{
    const uint64_t residual = in->residual_bytes ? in->residual_bytes : in->element_bytes;
    return keys % 8 != 0 || residual != in->element_bytes;
}

/* The cross-attention mask, (batch, 1, text, keys) at `element` bytes, its rows padded to a
 * multiple of 8 elements where `padded` (pad_bias keeps the padded storage). */
static uint64_t cross_mask_bytes(struct acc *c, const struct gs_activation_input *in, uint64_t keys,
                                 uint64_t element, bool padded)
{
    const uint64_t row = padded ? mul(c, div_ceil(keys, 8), 8) : keys;
    return mul(c, mul(c, mul(c, element, in->batch_size), in->sequence_length), row);
}

static bool cross_states_need_grad(const struct gs_activation_input *in);

/* The residual streams of a block with hyper-connections - DeepSeek-V4's, V4.1's and
 * GLM-5.3-Flash's mHC (the block's hc.fn is (2 + n) n x n h, one a site) or Qwen3.8-Flash-Next's
 * gated residuals (hyper_connection.hc_norm over the n h streams, one a site: `gated` set where
 * not NULL) - and, where `sites` is not NULL, its sites (two: the attention's and the MLP's); 1
 * and 0 for a plain residual. */
static uint64_t hc_streams(const struct gs_block *b, uint64_t h, uint64_t *sites, bool *gated)
{
    for (size_t i = 0; i < b->module_count && h; i++) {
        const struct gs_module *m = &b->modules[i];
        const bool mhc = m->name != NULL && strcmp(m->name, "hc.fn") == 0;
        const bool residual = m->name != NULL && strcmp(m->name, "hyper_connection.hc_norm") == 0;
        if ((mhc || residual) && m->out % h == 0 && (m->out > h || residual)) {
            if (sites != NULL)
                *sites = m->count ? m->count : 1;
            if (gated != NULL)
                *gated = residual;
            return m->out / h;
        }
    }
    if (sites != NULL)
        *sites = 0;
    if (gated != NULL)
        *gated = false;
    return 1;
}

/* A gated residual's modules among `mods`, those named `prefix` + "hc_norm",
 * "input_mix_weight_down" and "block_inject_weight" ("hyper_connection." in a layer,
 * "hyper_connection_mixer." for the model's final mixer); norm NULL where there is none. */
struct gated_residual {
    const struct gs_module *norm;
    uint64_t lowrank;
    bool inject;
};

static struct gated_residual gated_residual_of(const struct gs_module *mods, size_t count,
                                               const char *prefix)
{
    struct gated_residual g = {NULL, 0, false};
    const size_t k = strlen(prefix);
    for (size_t i = 0; i < count; i++) {
        const char *name = mods[i].name;
        if (name == NULL || strncmp(name, prefix, k) != 0)
            continue;
        if (strcmp(name + k, "hc_norm") == 0)
            g.norm = &mods[i];
        else if (strcmp(name + k, "input_mix_weight_down") == 0)
            g.lowrank = mods[i].out;
        else if (strcmp(name + k, "block_inject_weight") == 0)
            g.inject = true;
    }
    return g;
}

/* What one of Qwen3.8-Flash-Next's gated residual sites saves per token (transformers
 * Qwen4ExpTextGatedResidual.forward and Qwen4ExpTextDecoderLayer.forward, over the n h streams
 * x): hc_norm (Qwen4ExpTextRMSNorm, weight applied as 1 + w in fp32) keeps what norm_bytes says
 * of an element; its output cast back to x's dtype, which input_mix_weight_down and
 * block_inject_weight read and the mix's product keeps, at the residual's dtype (and under
 * autocast the linears' 16-bit copies where their weights train); the silu after the down
 * projection keeps its lowrank-wide input, input_mix_weight_up its output where it trains; the
 * sigmoid its n h output (the mix); with an injection (a layer's sites; the final mixer has
 * none) the injection's product the sublayer's h-wide output and the n weights. The mix's mean
 * and the residual add keep nothing. Where the layer's input needs no gradient (the first layer
 * under LoRA) only the injection weights are kept. */
static uint64_t gated_residual_site_bytes(struct acc *c, const struct gs_activation_input *in,
                                          const struct gated_residual *g, uint64_t n, uint64_t h,
                                          uint64_t residual, bool input_frozen)
{
    const uint64_t lin = in->autocast ? 2 : in->element_bytes; /* a linear's output */
    const uint64_t streams = mul(c, n, h);
    uint64_t per = g->inject ? mul(c, lin, n) : 0;
    if (input_frozen || g->norm == NULL)
        return per;
    const bool trains = in->trainable == GS_TRAIN_ALL;
    per = add(c, per, mul(c, norm_bytes(in, g->norm, residual), streams));
    per = add(c, per, mul(c, residual, streams));
    if (in->autocast && trains)
        per = add(c, per, mul(c, 2, mul(c, streams, g->inject ? 2 : 1)));
    per = add(c, per, mul(c, lin, mul(c, g->lowrank, trains ? 2 : 1)));
    per = add(c, per, mul(c, lin, streams));
    if (g->inject)
        per = add(c, per, mul(c, lin, h));
    return per;
}

/* What Qwen3.8-Flash-Next's PLE layer keeps per token (transformers Qwen4ExpTextPLELayer.forward,
 * over the n h streams x, in the block holding ple.key_proj): norm_query keeps what norm_bytes
 * says of an element of x; key_proj's output normed (norm_key, kept where the key path trains)
 * and the normed query are each kept by their product, key_normed at a linear's dtype and the
 * query at the residual's (the query only where the key path needs a gradient); value_proj's
 * h-wide output by sigmoid(gate) x value; norm_conv its elements of the gated values; the
 * depthwise convolution its padded input and the silu after it the convolution's output, n h
 * each at a linear's dtype. key_proj and value_proj keep the looked-up rows (ple_embed_dim) where
 * they train - one shared input, or under autocast a 16-bit copy each. The per-stream gate (n
 * values and their sqrt and sign) is left out. Nothing where neither the weights train nor
 * the streams need a gradient. */
static uint64_t ple_bytes(struct acc *c, const struct gs_activation_input *in,
                          const struct gs_block *b, uint64_t h, uint64_t residual,
                          bool input_frozen)
{
    const struct gs_module *key = NULL, *norms = NULL;
    for (size_t i = 0; i < b->module_count; i++) {
        const char *name = b->modules[i].name;
        if (name != NULL && strcmp(name, "ple.key_proj") == 0)
            key = &b->modules[i];
        else if (name != NULL && strcmp(name, "ple.norm_key_norm_query_norm_conv") == 0)
            norms = &b->modules[i];
    }
    const bool trains = in->trainable == GS_TRAIN_ALL;
    if (key == NULL || norms == NULL || (input_frozen && !trains))
        return 0;
    const uint64_t lin = in->autocast ? 2 : in->element_bytes;
    const uint64_t streams = key->out, norm = norm_bytes(in, norms, residual);
    uint64_t per = mul(c, add(c, mul(c, 2, norm), mul(c, 3, lin)), streams);
    per = add(c, per, mul(c, lin, h));
    if (trains) {
        per = add(c, per, mul(c, add(c, norm, residual), streams));
        per = add(c, per, mul(c, key->in, in->autocast ? 4 : residual));
    }
    return per;
}

/* What a hyper-connection site saves per token (transformers DeepseekV4HyperConnection, which
 * Glm5NextTextHyperConnection is, and DeepseekV4DecoderLayer.forward): input_norm, an
 * unweighted RMSNorm, over hidden_streams.flatten(2).float() keeps that fp32 copy of the n x h
 * streams (the stream itself where it is fp32 already); F.linear(flat, fn.float()) keeps its
 * input where fn trains (full training; a 16-bit copy under autocast); the collapse
 * (pre.unsqueeze(-1) * hidden_streams) and the stream mix torch.matmul(comb, hidden_states) keep
 * the streams at the residual's dtype (and matmul a 16-bit copy under autocast over an fp32
 * stream); post.unsqueeze(-1) * output keeps the sublayer's h-wide output. Where the layer's
 * input needs no gradient (the first layer under LoRA) the streams' ops keep nothing. pre, post
 * and comb (n + n + n^2 values) are left out. */
static uint64_t hc_site_bytes(struct acc *c, const struct gs_activation_input *in, uint64_t n,
                              uint64_t h, uint64_t residual, bool input_frozen)
{
    const uint64_t streams = mul(c, n, h);
    uint64_t per = mul(c, in->autocast ? 2 : in->element_bytes, h);
    if (input_frozen)
        return per;
    per = add(c, per, mul(c, residual, streams));
    if (residual < 4)
        per = add(c, per, mul(c, 4, streams));
    if (in->autocast && residual > 2)
        per = add(c, per, mul(c, 2, streams));
    if (in->trainable == GS_TRAIN_ALL)
        per = add(c, per, mul(c, in->autocast ? 2 : 4, streams));
    return per;
}

static struct layer_parts layer(struct acc *c, const struct gs_activation_input *in,
                                const struct gs_block *b, bool input_frozen)
{
    const struct gs_arch *a = in->arch;
    const struct gs_framework_rules *rules = in->rules;
    const bool compiled = rules != NULL && rules->compile;
    const uint64_t e = in->element_bytes, h = stream_width(in);
    const uint64_t residual = in->residual_bytes ? in->residual_bytes : e;
    const uint64_t s = div_ceil(in->sequence_length, in->parallelism->context);
    const uint64_t tokens = mul(c, s, in->batch_size);
    /* a cross-attention's keys and values cover the encoder's positions (Whisper's 1,500 a
     * sample whatever the transcript's length), elsewhere the decoder's own */
    const uint64_t encoder_len = encoder_positions(a);
    const uint64_t cross_keys = encoder_len ? encoder_len : in->sequence_length;
    const uint64_t cross_tokens = encoder_len ? mul(c, encoder_len, in->batch_size) : tokens;
    /* a cross-attention-only layer's keys and values cover the images' positions instead */
    const uint64_t image_keys = b->attn.cross_only ? cross_image_positions(c, in) : 0;
    const uint64_t image_rows = mul(c, image_keys, in->batch_size);
    uint64_t q, k, v, o;
    mixer_widths(b, &q, &k, &v, &o);
    const struct linears l = linears_of(c, in, b, e);
    const struct grads g = grads_of(b, &l, input_frozen);
    struct layer_parts p = {0, 0, 0, 0};
    /* a parallel hybrid whose Mamba2 half is counted by its kernel (Falcon-H1): the attention's
     * widths alone here, the Mamba2 half's below */
    const bool parallel_scan =
        b->mixer == GS_MIXER_ATTENTION && b->rec.inner && gs_activation_counts_scan(in, b);
    if (parallel_scan) {
        q -= b->rec.in_width;
        k -= b->rec.conv_channels;
        v -= b->rec.inner;
        o -= b->rec.inner;
    }

    /* norms and the GEMM inputs they feed (QKV input, MLP input). Norms over one shared input
     * that keep it as it is (LayerNorm's native kernel saves its input; an fp32 input's
     * .to(torch.float32) is the tensor itself) keep one tensor between them; the fp32 copy an
     * eager RMSNorm or autocast makes of a 16-bit input is each norm's own. The first norm
     * reads the layer's input, and so do all of a parallel block's; a sequential block's
     * second (of two) reads the attention's residual sum; more (Gemma's around the attention
     * and the MLP) are kept whatever the first layer's input needs. */
    uint64_t instances = 0;
    for (size_t i = 0; i < b->module_count; i++) {
        const struct gs_module *m = &b->modules[i];
        if (m->kind == GS_MODULE_NORM && m->part == GS_PART_NORMS && m->out == h)
            instances += m->count ? m->count : 1;
    }
    uint64_t per_token = 0, seen = 0;
    bool input_kept = false;
    for (size_t i = 0; i < b->module_count; i++) {
        const struct gs_module *m = &b->modules[i];
        if (m->kind != GS_MODULE_NORM || m->part != GS_PART_NORMS || m->out != h)
            continue;
        const uint64_t bytes = norm_bytes(in, m, residual);
        const uint64_t n = m->count ? m->count : 1;
        uint64_t count = 0;
        for (uint64_t j = 0; j < n; j++, seen++) {
            const bool reads_input = seen == 0 || b->parallel_residual;
            const bool kept = reads_input ? g.input : instances == 2 ? g.mlp_input : true;
            count += kept ? 1 : 0;
        }
        if (b->norms_share_input && bytes == residual && count) {
            count = input_kept ? 0 : 1;
            input_kept = true;
        }
        per_token = add(c, per_token, mul(c, bytes, count));
    }
    p.replicated = mul(c, mul(c, per_token, tokens), h);
    uint64_t mlp_in = role_input_bytes(c, in, &l, ROLE_MLP_IN, residual, h, g.mlp_input);
    /* a parallel block with one norm (PhiDecoderLayer, GPT-J, Cohere, Falcon's parallel_attn,
     * LitGPT's shared_attention_norm) hands the attention and the MLP the same normed tensor:
     * kept by both, it is held once, unless each linear casts its own copy (autocast over an
     * fp32 stream) */
    if (b->parallel_residual && instances == 1 && !(in->autocast && residual > 2)) {
        const uint64_t attn_tensor = role_input_tensor(in, &l, ROLE_ATTN_IN, residual, g.input);
        const uint64_t mlp_tensor = role_input_tensor(in, &l, ROLE_MLP_IN, residual, g.mlp_input);
        mlp_in -= mul(c, attn_tensor < mlp_tensor ? attn_tensor : mlp_tensor, h);
    }
    p.replicated =
        add(c, p.replicated,
            mul(c, tokens, role_input_bytes(c, in, &l, ROLE_ATTN_IN, residual, h, g.input)));
    /* under autocast the cross-attention's k and v each keep their own 16-bit copy of the
     * encoder's output (gemm_input_bytes), over the encoder's positions, not the decoder's */
    if (b->attn.cross && !b->attn.cross_only && l.cross_copies && cross_tokens != tokens &&
        g.input && in->autocast && residual > 2) {
        const uint64_t per = mul(c, 2 * l.cross_copies, h);
        p.replicated = add(c, p.replicated, mul(c, per, cross_tokens));
        const uint64_t at_decoder = mul(c, per, tokens);
        p.replicated -= at_decoder < p.replicated ? at_decoder : p.replicated;
    }
    p.replicated = add(c, p.replicated, mul(c, tokens, mlp_in));
    /* 1-byte masks on the residual branches: after attention and after the MLP, and after a
     * second (cross-)attention where the block has one (T5LayerCrossAttention.forward:
     * hidden_states + self.dropout(attention_output[0]); WhisperDecoderLayer.forward, after
     * encoder_attn) */
    if (a->hidden_dropout)
        p.replicated = add(c, p.replicated,
                           mul(c, mul(c, b->attn.cross && !b->attn.cross_only ? 3 : 2, tokens), h));
    /* hyper-connections: each site's saved streams (hc_site_bytes, gated_residual_site_bytes) */
    uint64_t hc_sites = 0;
    bool gated = false;
    const uint64_t hc_n = hc_streams(b, h, &hc_sites, &gated);
    if (hc_sites && gated) {
        const struct gated_residual gr =
            gated_residual_of(b->modules, b->module_count, "hyper_connection.");
        p.replicated =
            add(c, p.replicated,
                mul(c, mul(c, hc_sites, tokens),
                    gated_residual_site_bytes(c, in, &gr, hc_n, h, residual, input_frozen)));
    } else if (hc_sites) {
        p.replicated = add(c, p.replicated,
                           mul(c, mul(c, hc_sites, tokens),
                               hc_site_bytes(c, in, hc_n, h, residual, input_frozen)));
    }
    /* the PLE layer holds the n-gram table, a host table: other blocks skip the name search */
    if (gs_block_has_host_table(b))
        p.replicated =
            add(c, p.replicated, mul(c, tokens, ple_bytes(c, in, b, h, residual, input_frozen)));

    /* transformers' masked SDPA path (sdpa_masked): sdpa_attention.py repeats grouped K/V
     * (use_gqa_in_sdpa is false under a mask), and SDPA, which the flash kernel cannot serve with
     * a mask, runs the memory-efficient kernel: its output is (batch, seq, heads, dim), so
     * o_proj gets no copy; the mask copy each call makes, where it makes one, is the kernel's
     * to keep (_scaled_dot_product_efficient_attention saves attn_bias) */
    const bool hf_sdpa = transformers_sdpa(in, b);
    /* a cross-attention layer over images always gets their mask (MllamaModel.forward:
     * cross_attention_mask, from the processor's), and its copy per call is of that mask */
    const bool cross_masked = hf_sdpa && b->attn.cross_only;
    const bool masked = sdpa_masked(in, b) || cross_masked;
    if (masked && !cross_masked && !b->attn.position_bias && mask_copied_per_call(in) &&
        g.attention)
        p.replicated = add(c, p.replicated, mask_copy_bytes(c, in));
    if (cross_masked && cross_mask_copied(in, image_keys) && g.attention)
        p.replicated =
            add(c, p.replicated, cross_mask_bytes(c, in, image_keys, in->element_bytes, true));
    /* Heads wider than 256: no fused kernel broadcasts grouped K/V there, so sdpa_attention.py
     * repeats them (transformers PR #46960, merged 2026-06-29: use_gqa_in_sdpa is false above
     * 256; releases before it passed enable_gqa, and SDPA ran the math kernel, which repeats them
     * too: the estimate warns, sdpa_head_dim_over_256) */
    const bool wide_heads = hf_sdpa && b->attn.head_dim > 256;
    /* fp32 with grouped K/V handed over (enable_gqa): only the flash and cuDNN kernels take
     * grouped heads (aten sdp_utils check_batch_size_and_num_heads_dense: the memory-efficient
     * kernel needs equal heads), and neither runs fp32, so SDPA runs its math kernel: K/V repeated
     * (pre_process_group_query_attention_input), the fp32 softmax output kept for the matmul with
     * V - what eager attention keeps (the estimate warns, sdpa_math_kernel) */
    const bool math_kernel = hf_sdpa && rules->sdpa_gqa_native && !masked && !wide_heads &&
                             b->mixer == GS_MIXER_ATTENTION && e == 4 && !in->autocast &&
                             b->attn.kv_heads && b->attn.kv_heads < b->attn.heads;
    const bool fused = in->flash_attention && !math_kernel;
    const bool kv_expanded =
        rules != NULL && (rules->gqa_expanded || masked || wide_heads || math_kernel);

    /* Q, K, V as the attention kernel saves them; repeated to every head when the framework
     * expands grouped K/V before calling it */
    if (kv_expanded && b->mixer == GS_MIXER_ATTENTION && b->attn.kv_heads &&
        b->attn.kv_heads < b->attn.heads) {
        k += (b->attn.heads - b->attn.kv_heads) * b->attn.head_dim;
        v += (b->attn.heads - b->attn.kv_heads) * b->attn.v_head_dim;
    }
    /* a layer that takes an earlier layer's K and V keeps those tensors, counted there; only
     * the copies repeated to every head are its own */
    if (b->mixer == GS_MIXER_ATTENTION && reuses_kv(in, b) && !kv_expanded)
        k = v = 0;
    uint64_t widths = q + k + v;
    /* a cross-attention-only layer's K and V: over the images' positions (below) */
    const uint64_t image_kv = b->attn.cross_only ? k + v : 0;
    widths -= image_kv;
    /* transformers' MLA under flash-attn (flash_pads_mla_value): F.pad makes a V as wide as Q
     * and K, which the kernel keeps, and the kernel's output (kept too) has that width; the
     * output is sliced back to v_head_dim and reshaped, a copy, for o_proj */
    const bool mla_padded = rules != NULL && rules->flash_pads_mla_value && fused &&
                            b->mixer == GS_MIXER_MLA && b->attn.head_dim > b->attn.v_head_dim;
    if (mla_padded)
        widths += q - v;
    /* elsewhere MLA's V reaches the kernel (or eager attention's matmul) as a view of
     * kv_b_proj's output, split from the no-rope keys (modeling_deepseek_v3.py: k_pass,
     * value_states = torch.split(k_pass, [qk_nope_head_dim, v_head_dim], dim=-1)): keeping V
     * keeps that output whole, its no-rope keys too (flash-attn's padded V is a copy) */
    else if (rules != NULL && rules->model_qkv_views && b->mixer == GS_MIXER_MLA &&
             b->attn.qkv_views && !compiled)
        widths += b->attn.heads * b->attn.qk_nope_head_dim;
    /* V reaching the kernel as a view of a fused QKV output keeps that whole output alive
     * beside the rotated Q and K copies: LitGPT's code for every model (model.py
     * CausalSelfAttention.forward: qkv.split, apply_rope makes new q and k), and the model's
     * own code where the block splits its fused projection into views (transformers
     * modeling_phi3.py Phi3Attention.forward: value_states = qkv[..., query_pos + ...:], then
     * apply_rotary_pos_emb returns new q and k; SDPA's and flash's backward save their value
     * argument). Not where the framework repeats grouped K/V first (repeat_kv's reshape of
     * an expand copies; LitGPT expands under grouped queries), nor where Q and K are views as
     * well (no rotary: GPT-2's c_attn split, already counted as q + k + v), nor compiled */
    const bool gqa = b->attn.kv_heads != 0 && b->attn.kv_heads < b->attn.heads;
    const bool v_view = rules != NULL && b->mixer == GS_MIXER_ATTENTION &&
                        (rules->qkv_fused_pinned ||
                         (rules->model_qkv_views && b->attn.qkv_views && !b->attn.nope &&
                          !compiled));
    if (v_view && !(kv_expanded && gqa))
        widths += q + k;
    /* the attention output: flash attention's backward reads it; eager attention's does not,
     * so then only o_proj keeps it, when it needs its input. o_proj gets a copy of its own only
     * where the framework's attn_output.transpose(1, 2).contiguous() (or LitGPT's reshape)
     * copies: where the kernel's output is laid out (batch, heads, seq, dim). The flash kernel
     * lays its output out like its query (aten flash_api.cpp mha_fwd: out =
     * at::empty_like(q_padded)), and a query rotated by whole heads keeps the projection's
     * (batch, seq, heads, dim) layout (an elementwise op's output follows its first operand:
     * q * cos + rotate_half(q) * sin); it becomes (batch, heads, seq, dim) when the framework
     * makes it contiguous or the model's partial rotary concatenates it. Without autocast an
     * fp32 query takes the memory-efficient kernel, whose output is always (batch, seq, heads,
     * dim) (attention.cu _efficient_attention_forward: res = at::empty({B, M, num_heads, Kv})).
     * Compiled code keeps no such copy. */
    const bool mixer_attends = b->mixer == GS_MIXER_ATTENTION || b->mixer == GS_MIXER_MLA;
    const bool out_saved =
        rules == NULL || (fused && mixer_attends) || l.saves[ROLE_OUT] || !mixer_attends;
    if (mla_padded)
        widths += q + (l.saves[ROLE_OUT] ? o : 0);
    else if (out_saved)
        widths += o;
    const bool query_contiguous =
        rules != NULL &&
        (rules->query_contiguous || (rules->model_qkv_views && b->attn.rotary_partial));
    /* the flash kernel takes heads up to 256 wide (aten sdp_utils check_head_dim_size_flash);
     * wider ones run the memory-efficient kernel */
    const bool output_like_query = fused && (e == 2 || in->autocast) && b->attn.head_dim <= 256;
    if (query_contiguous && output_like_query && !compiled && !masked &&
        b->mixer == GS_MIXER_ATTENTION && l.saves[ROLE_OUT])
        widths += o;
    /* an output gate (gs_attention.output_gate): the product keeps the attention output,
     * reshaped, for the gate's gradient, and the gate for the output's; o_proj then keeps the
     * product, a tensor of its own, where it keeps its input, and where it does not, the
     * attention output the product keeps is one more unless the kernel keeps it already
     * (out_saved). The gate's projection keeps the normed input q_proj keeps. */
    uint64_t gate_bytes = 0;
    if (b->attn.output_gate != GS_GATE_NONE && b->mixer == GS_MIXER_ATTENTION) {
        widths += l.saves[ROLE_OUT] || !out_saved ? o : 0;
        gate_bytes = output_gate_bytes(&b->attn, e);
    }
    /* an attention nothing before needs a gradient for (grads_of): the kernel keeps nothing,
     * o_proj's adapter its input */
    const bool attention_kept = g.attention || !mixer_attends;
    if (!attention_kept)
        widths = l.direct[ROLE_OUT] ? o : 0;
    p.partitioned = mul(c, mul(c, e, tokens), widths);
    if (attention_kept)
        p.partitioned = add(c, p.partitioned, mul(c, tokens, gate_bytes));
    if (attention_kept && b->mixer == GS_MIXER_ATTENTION && b->attn.position_bias)
        position_bias_bytes(c, in, b, s, &p);
    /* short convolutions over fp32 copies (gs_recurrent.conv_fp32): the copy each keeps is 4
     * bytes an element where the widths count e */
    if (attention_kept && b->mixer == GS_MIXER_ATTENTION && b->rec.conv_fp32 && e < 4)
        p.partitioned = add(c, p.partitioned, mul(c, mul(c, 4 - e, tokens), b->rec.conv_channels));
    if (attention_kept)
        p.partitioned = add(c, p.partitioned, mul(c, mul(c, e, image_rows), image_kv));
    const bool scan = attention_kept && gs_activation_counts_scan(in, b);
    uint64_t scan_transient = 0; /* the scan's backward or forward moment beyond what it keeps */
    const bool mamba1 =
        b->rec.scan == GS_SCAN_MAMBA1_INNER || b->rec.scan == GS_SCAN_MAMBA1_SELECTIVE;
    if (scan &&
        (b->rec.scan == GS_SCAN_GATED_DELTA_RULE || b->rec.scan == GS_SCAN_GATED_DELTA_NEXT))
        p.partitioned = gated_delta_bytes(c, in, b, &l, s, tokens);
    else if (scan && b->rec.scan == GS_SCAN_KIMI_DELTA)
        p.partitioned = kimi_delta_bytes(c, in, b, &l, s, tokens);
    else if (parallel_scan)
        p.partitioned =
            add(c, p.partitioned, parallel_mamba2_bytes(c, in, b, s, tokens, &scan_transient));
    else if (scan && b->rec.scan == GS_SCAN_MAMBA2_COMBINED)
        p.partitioned = mamba2_path(in, b) == MAMBA2_NAIVE
                            ? mamba2_naive_bytes(c, in, b, s, tokens, &scan_transient)
                        : mamba2_path(in, b) == MAMBA2_CHUNKED
                            ? mamba2_chunked_bytes(c, in, b, s, tokens)
                            : mamba2_combined_bytes(c, in, b, tokens);
    else if (scan && mamba1 && in->recurrent_torch)
        p.partitioned = mamba1_sequential_bytes(
            c, in, b, s, tokens, b->rec.scan == GS_SCAN_MAMBA1_SELECTIVE, &scan_transient);
    else if (scan && b->rec.scan == GS_SCAN_MAMBA1_INNER)
        p.partitioned = mamba1_inner_bytes(c, in, b, s, tokens);
    else if (scan && b->rec.scan == GS_SCAN_MAMBA1_SELECTIVE)
        p.partitioned = mamba1_selective_bytes(c, in, b, s, tokens);
    /* eager q/k norms (fused kernels keep their input); a cross-attention layer's k_norm over
     * the images' positions, where the keys need a gradient (k_proj trains or is adapted, or
     * the states it reads need one): otherwise autograd records nothing of it */
    if (rules != NULL && attention_kept && b->attn.cross_only) {
        const uint64_t queries = qk_norm_bytes_of(c, in, b, e, true, false);
        p.partitioned = add(c, p.partitioned, mul(c, tokens, queries));
        const bool key_grad =
            in->trainable == GS_TRAIN_ALL || l.cross_key_adapted || cross_states_need_grad(in);
        if (key_grad)
            p.partitioned = add(c, p.partitioned,
                                mul(c, image_rows, qk_norm_bytes_of(c, in, b, e, false, true)));
    } else if (rules != NULL && attention_kept) {
        p.partitioned = add(c, p.partitioned, mul(c, tokens, qk_norm_bytes(c, in, b, e)));
    }
    if (rules != NULL && attention_kept && b->clamped_linears)
        p.partitioned = add(c, p.partitioned, mul(c, tokens, clamp_bytes(c, b, e)));
    /* o_proj's and down's adapters: their dropout masks only where the input needs a gradient
     * (adapters that never run under a fused scan are left out: adapter_runs) */
    const uint64_t out_copies = l.dropout[ROLE_OUT] - (attention_kept ? 0 : l.masks[ROLE_OUT]);
    const uint64_t down_copies = l.dropout[ROLE_DOWN] - (g.mlp ? 0 : l.masks[ROLE_DOWN]);
    p.partitioned = add(c, p.partitioned, mul(c, tokens, add(c, out_copies, down_copies)));
    /* a cross-attention layer's k and v adapters' copies of the images' states, their dropout
     * masks only where the states need a gradient */
    if (l.cross_dropout)
        p.partitioned = add(
            c, p.partitioned,
            mul(c, image_rows,
                cross_states_need_grad(in) ? l.cross_dropout : l.cross_dropout - l.cross_masks));
    /* a gate that trains keeps its branch's output (gs_block.gated_branches): tanh(gate) * x
     * saves x for the gate's gradient (derivatives.yaml mul: grad * other) */
    if (b->gated_branches && in->trainable == GS_TRAIN_ALL)
        p.replicated =
            add(c, p.replicated, mul(c, mul(c, mul(c, b->gated_branches, e), tokens), h));
    p.partitioned = add(c, p.partitioned, mul(c, mul(c, e, tokens), l.fused_delta));
    p.partitioned = add(c, p.partitioned, add(c, mul(c, tokens, l.dora_token), l.dora_layer));
    p.partitioned = add(c, p.partitioned, frozen_weight_copies(c, in, b, g));

    if (b->mlp.kind == GS_MLP_MOE) {
        const uint64_t r = in->parallelism->expert_tensor ? in->parallelism->expert_tensor : 1;
        uint64_t wrapper_chain = 0; /* PEFT's ParamWrappers' gradient chain (param_wrapper_bytes) */
        if (rules != NULL && rules->moe_weights_after_experts && !compiled) {
            wrapper_chain = moe_after_experts(c, in, b, &l, g, tokens, r, &p);
        } else {
            /* each token goes through top-k experts (gate out, up out, act out, down input),
             * plus its copies in the dispatch buffer. With each expert split over r tensor
             * ranks (parallelism.expert_tensor) a rank's experts see its r-rank group's tokens:
             * the dispatcher all-gathers them over the group (Megatron-LM token_dispatcher.py
             * MoEAlltoAllTokenDispatcher, gather_from_sequence_parallel_region over expt_tp)
             * and the grouped MLP keeps that gathered input for its weight gradient - r times
             * a rank's own copies - while its intermediates are 1/r of the width for r times
             * the tokens, the same bytes */
            const uint64_t n = b->mlp.gated ? 4 : 2;
            const uint64_t routed = mul(c, mul(c, mul(c, n, e), tokens), b->mlp.width);
            p.partitioned = add(c, p.partitioned, mul(c, b->mlp.top_k, routed));
            p.partitioned = add(c, p.partitioned,
                                mul(c, mul(c, mul(c, mul(c, r, b->mlp.top_k), e), tokens), h));
            if (b->mlp.shared_width)
                p.partitioned = add(c, p.partitioned,
                                    mul(c, mul(c, mul(c, 4, e), tokens), b->mlp.shared_width));
        }
        p.grad_pair = mul(c, mul(c, mul(c, 2 * b->mlp.top_k, e), tokens), b->mlp.width);
        p.grad_pair = add(c, p.grad_pair, wrapper_chain);
    } else if (b->mlp.kind == GS_MLP_DENSE) {
        /* gated: the activation keeps the gate output, the product keeps the activation
         * output and the up output (compiled code recomputes the activation), down_proj
         * keeps the product when it needs its input; plain: the activation keeps fc1's
         * output, fc2 keeps the activation output */
        /* an MLP nothing before needs a gradient for (grads_of): down's adapter keeps the
         * product it reads, nothing else is recorded */
        const uint64_t per_width = !g.mlp ? (l.direct[ROLE_DOWN] ? e : 0)
                                   : rules == NULL || compiled
                                       ? e * ((b->mlp.gated ? (compiled ? 2 : 3) : 1) +
                                              (l.saves[ROLE_DOWN] || rules == NULL ? 1 : 0))
                                       : mlp_eager_bytes(in, b, e, l.saves[ROLE_DOWN]);
        p.partitioned = add(c, p.partitioned, mul(c, mul(c, per_width, tokens), b->mlp.width));
        p.grad_pair = mul(c, mul(c, mul(c, b->mlp.gated ? 2 : 1, e), tokens), b->mlp.width);
    }
    /* a 4-bit base's backward dequantizes each weight for its input's gradient (bitsandbytes
     * MatMul4Bit.backward: torch.matmul(grad_output, F.dequantize_4bit(B,
     * ctx.state).to(grad_output.dtype)); torchao's linear_nf4 alike), one linear at a time: the
     * largest, beside the layer's gradients */
    if (in->quantized_base)
        p.grad_pair =
            add(c, p.grad_pair, mul(c, dequant_bytes_per_weight(in), largest_quant_weight(b)));
    /* the mixer's backward runs apart from the MLP's: the larger of the two moments */
    if (scan_transient > p.grad_pair)
        p.grad_pair = scan_transient;
    /* a cross-attention layer's backward makes the keys' and values' gradients over the images'
     * positions at the shape the kernel took them (repeated to every head where K/V were) */
    const uint64_t image_kv_grads = attention_kept ? mul(c, mul(c, e, image_rows), image_kv) : 0;
    if (image_kv_grads > p.grad_pair)
        p.grad_pair = image_kv_grads;

    uint64_t per_score = 0; /* eager attention: what it keeps a score */
    if (mixer_attends && attention_kept) {
        const uint64_t heads = b->attn.heads;
        if (fused) {
            p.core = mul(c, mul(c, 4, heads), tokens); /* fp32 softmax_lse */
        } else {
            /* softmax's saved output a*s_q*s_k*b, then what the matmul with V keeps of its
             * input. Llama's and T5's eager code (transformers eager_attention_forward:
             * softmax(..., dtype=torch.float32).to(query.dtype)) runs softmax in fp32 and casts
             * the probabilities back; GPT-2's and BERT's run it at the scores' dtype, which
             * autocast makes fp32 (softmax is on its fp32 list). Dropout keeps a 1-byte mask
             * (native_dropout's backward needs nothing else); the matmul keeps the tensor it
             * reads at its own dtype: the dropout output, the cast copy, or, under autocast,
             * its own 16-bit copy of an fp32 input - a tensor only one op reads is not kept */
            const uint64_t keys = b->attn.cross_only ? image_keys : in->sequence_length;
            const uint64_t scores = mul(c, mul(c, heads, tokens), keys);
            const bool cast_back = rules != NULL && rules->softmax_fp32 && !a->eager_softmax_native;
            const uint64_t soft = in->autocast || cast_back ? 4 : e;
            const uint64_t matmul = in->autocast ? 2 : e;
            uint64_t per = soft + (a->attention_dropout ? 1 + matmul : soft != matmul ? matmul : 0);
            /* Gemma 2's eager code soft-caps the scores before the mask and softmax
             * (modeling_gemma2.py: attn_weights / softcap, torch.tanh, * softcap): tanh keeps
             * its output at the scores' dtype (16-bit under autocast) */
            if (a->attn_logit_softcap && rules != NULL)
                per += in->autocast ? 2 : e;
            p.core = mul(c, per, scores);
            /* GraniteSWA's eager code (modeling_granite_swa.py eager_attention_forward): lse =
             * torch.logsumexp(attn_weights) keeps the masked scores for its backward (an fp32
             * copy under autocast, logsumexp being on its fp32 list) and its result; sink_scale
             * = (lse - sinks).to(float32).sigmoid() keeps its fp32 output; attn_output *
             * sink_scale.to(dtype) keeps both factors: the unscaled output (heads x head_dim a
             * token, 16-bit under autocast) and the per-head scale */
            if (a->eager_sink_lse && rules != NULL) {
                const uint64_t m = in->autocast ? 2 : e;
                per += in->autocast ? 4 : e;
                p.core =
                    add(c, mul(c, per, scores),
                        mul(c, mul(c, heads, tokens),
                            add(c, mul(c, b->attn.head_dim, m), (in->autocast ? 4 : e) + 4 + m)));
            }
            per_score = per;
        }
    }
    if (b->attn.cross && !b->attn.cross_only) { /* a second attention block (its own Q/K/V/O
                                                   and core; its norm among the block's norms),
                                                   K and V over the encoder's positions */
        p.partitioned = add(c, p.partitioned,
                            mul(c, e, add(c, mul(c, tokens, q + o), mul(c, cross_tokens, k + v))));
        const uint64_t cross_core =
            per_score ? mul(c, per_score, mul(c, mul(c, b->attn.heads, tokens), cross_keys))
                      : p.core;
        p.core = add(c, p.core, cross_core);
    }
    return p;
}

/* Whether the per-op policy recomputes block `b`'s attention rather than keep its output: where
 * the framework puts cuDNN's attention first on this GPU and its save list does not name that
 * kernel (gs_framework_resolve_gpu), and the block's attention is one cuDNN's kernel takes:
 * plain multi-head attention (not MLA's unequal Q/K and V heads), heads of at most 128, a
 * multiple of 8 (sdp_utils.cpp check_cudnn_tensor_shapes; 256 on compute capability 9.0 with
 * cuDNN 9.10, not counted), no sliding window, sinks or soft-capping (torchtitan runs those
 * through FlexAttention, whose kernel the save list names). */
static bool op_selective_recomputes_attention(const struct gs_activation_input *in,
                                              const struct gs_block *b)
{
    const struct gs_arch *a = in->arch;
    const uint64_t v = b->attn.v_head_dim ? b->attn.v_head_dim : b->attn.head_dim;
    return in->rules != NULL && in->rules->sac_recomputes_attention &&
           b->mixer == GS_MIXER_ATTENTION && b->attn.head_dim <= 128 && v <= 128 &&
           b->attn.head_dim % 8 == 0 && v % 8 == 0 && b->attn.window == 0 &&
           !a->attention_no_sdpa && !a->attention_eager_only && !a->attn_logit_softcap;
}

/* torchtitan's per-op policy (parallelize_llama.py _save_list): the layer's
 * input, the output of every other matmul counted in forward order within
 * the layer (the 1st, 3rd, ...; routed experts run grouped kernels, not
 * counted), and the attention kernel's output and log-sum-exp.
 * Eager, the policy caches every MUST_SAVE output as the op runs
 * (torch/utils/checkpoint.py _CachingTorchDispatchMode), needed or not. A
 * compiled block (apply_compile after apply_ac) hands the policy to AOT
 * autograd's partitioner, which saves only what backward or its
 * recomputation reads: the down projection's output, which feeds nothing but
 * the residual add that ends the block, is not kept. */
static uint64_t op_selective_partitioned(struct acc *c, const struct gs_activation_input *in,
                                         const struct gs_block *b, uint64_t tokens)
{
    const uint64_t t = in->parallelism->tensor;
    const bool compiled = in->rules != NULL && in->rules->compile;
    uint64_t n = 0, bytes = 0;
    for (size_t i = 0; i < b->module_count; i++) {
        const struct gs_module *m = &b->modules[i];
        if (!is_body_linear(m))
            continue;
        if (n++ % 2 != 0)
            continue;
        if (compiled && role_of(m) == ROLE_DOWN)
            continue;
        const uint64_t width = m->split == GS_SPLIT_ROW ? m->out : div_ceil(m->out, t);
        bytes = add(c, bytes, mul(c, mul(c, in->element_bytes, tokens), width));
    }
    if ((b->mixer == GS_MIXER_ATTENTION || b->mixer == GS_MIXER_MLA) &&
        !op_selective_recomputes_attention(in, b)) {
        uint64_t q, k, v, o;
        mixer_widths(b, &q, &k, &v, &o);
        bytes = add(c, bytes, mul(c, mul(c, in->element_bytes, tokens), div_ceil(o, t)));
        bytes = add(c, bytes, mul(c, mul(c, 4, tokens), div_ceil(b->attn.heads, t)));
    }
    return bytes;
}

/* Stored bytes of one layer under the recomputation mode; `working` gets
 * the full (unrecomputed) size plus backward's gradient pair, which
 * backward needs for one layer at a time. */
static uint64_t stored(struct acc *c, const struct gs_activation_input *in,
                       const struct gs_block *b, struct layer_parts p, uint64_t *working)
{
    const struct gs_parallelism *par = in->parallelism;
    const uint64_t t = par->tensor;
    const uint64_t replicated = par->sequence_parallel ? div_ceil(p.replicated, t) : p.replicated;
    const uint64_t partitioned = div_ceil(p.partitioned, t), core = div_ceil(p.core, t);
    *working = add(c, add(c, replicated, partitioned), core);
    *working = add(c, *working, div_ceil(p.grad_pair, t));
    const uint64_t s = div_ceil(in->sequence_length, par->context);
    const uint64_t tokens = mul(c, s, in->batch_size);
    uint64_t residual = in->residual_bytes ? in->residual_bytes : in->element_bytes;
    /* a checkpoint keeps the layer's input as it comes: fp32 where the model keeps its residual
     * stream so (MambaBlock.forward: residual = residual.to(torch.float32) when
     * residual_in_fp32, and residual + hidden_states stays fp32). The first layer takes the
     * 16-bit embedding; it is counted at fp32 as well, one layer's input of slack. */
    if (in->arch->residual_fp32 && residual < 4)
        residual = 4;
    /* with hyper-connections the layer's input is its n residual streams */
    const uint64_t streams = hc_streams(b, stream_width(in), NULL, NULL);
    uint64_t input = mul(c, mul(c, mul(c, tokens, stream_width(in)), streams), residual);
    if (par->sequence_parallel)
        input = div_ceil(input, t);
    enum gs_recompute mode = in->recompute;
    if (mode == GS_RECOMPUTE_SELECTIVE && in->rules != NULL && in->rules->op_selective)
        mode = GS_RECOMPUTE_OP_SELECTIVE;
    switch (mode) {
    case GS_RECOMPUTE_SELECTIVE:
        return add(c, replicated, partitioned);
    case GS_RECOMPUTE_FULL: /* the layer input only (the checkpoint) */
        return input;
    case GS_RECOMPUTE_OP_SELECTIVE:
        return add(c, input, op_selective_partitioned(c, in, b, tokens));
    case GS_RECOMPUTE_NONE:
        break;
    }
    return add(c, add(c, replicated, partitioned), core);
}

/* Stored bytes of `layers` layers of each block, and the largest single
 * layer's working set. */
static uint64_t blocks_stored(struct acc *c, const struct gs_activation_input *in,
                              const uint64_t counts[GS_BLOCKS_MAX], uint64_t *working,
                              uint64_t *first_layer)
{
    const struct gs_arch *a = in->arch;
    uint64_t sum = 0;
    for (size_t k = 0; k < a->block_count; k++) {
        if (counts[k] == 0)
            continue;
        uint64_t w = 0;
        const struct gs_block *b = &a->blocks[k];
        const uint64_t one = stored(c, in, b, layer(c, in, b, false), &w);
        if (*first_layer == 0)
            *first_layer = one;
        if (w > *working)
            *working = w;
        sum = add(c, sum, mul(c, one, counts[k]));
    }
    return sum;
}

/* What a stage's layers keep, from one layer of each block (`one`) and the stage's
 * layers of each (`counts`); `first_layer` takes the first block's one layer, if still 0. */
static uint64_t stage_stored(struct acc *c, const struct gs_arch *a, const uint64_t *one,
                             const uint64_t counts[GS_BLOCKS_MAX], uint64_t *first_layer)
{
    uint64_t sum = 0;
    for (size_t k = 0; k < a->block_count; k++) {
        if (counts[k] == 0)
            continue;
        if (*first_layer == 0)
            *first_layer = one[k];
        sum = add(c, sum, mul(c, one[k], counts[k]));
    }
    return sum;
}

/* The chunks the framework's loss runs over the logits (1 when it runs once). */
static uint64_t loss_chunks(const struct gs_activation_input *in)
{
    const struct gs_framework_rules *r = in->rules;
    if (r == NULL || r->loss != GS_LOSS_CHUNKED)
        return 1;
    uint64_t chunks = r->loss_chunks;
    if (chunks == 0 && r->loss_chunk_tokens) /* the logits split along the sequence */
        chunks = div_ceil(div_ceil(in->sequence_length, in->parallelism->context),
                          r->loss_chunk_tokens);
    return chunks ? chunks : 1;
}

/* The logits on this GPU's vocabulary share, `tokens` tokens' (0 without a vocabulary head). */
static uint64_t logit_count(struct acc *c, const struct gs_activation_input *in, uint64_t tokens)
{
    const struct gs_arch *a = in->arch;
    return a->logits ? mul(c, tokens, div_ceil(a->vocab_size, in->parallelism->tensor)) : 0;
}

/* The tokens one chunk of TRL's chunked_nll loss takes (trl/trainer/sft_trainer.py
 * _CHUNKED_LM_HEAD_CHUNK_SIZE). */
#define TRL_CHUNK_TOKENS 256

/* What TRL's chunked_nll loss holds at its peak (trl/trainer/sft_trainer.py
 * _chunked_cross_entropy_loss, SFTConfig's default loss_type from TRL 1.7, PR #5846): the model
 * stops at the last hidden states; the valid tokens' rows are packed (hidden[order], a copy at
 * the hidden states' dtype, which the chunks read, so checkpoint keeps it until backward) and
 * each chunk of 256 runs _chunk under torch.utils.checkpoint (use_reentrant=False): logits =
 * h.float() @ w.float().t(), log_softmax, nll_loss. A chunk's backward recomputes it and holds
 * at once the fp32 copy of the head's weight the matmul saved for the input's gradient
 * (w.float(): vocabulary x hidden x 4; none where the head is fp32 already), log_softmax's saved
 * output, the gradient nll_loss hands it and the logits' gradient its backward makes (3 x 256 x
 * vocabulary x 4), tanh's output where the config soft-caps the logits, and a trained head's
 * fp32 weight gradient with its cast to a 16-bit head's dtype (vocabulary x hidden x (4 + 2)); the
 * packed rows' gradient fills a buffer of their size, chunk by chunk (SliceBackward's zeros,
 * summed). Under autocast (the Trainer's bf16=True, TRL's default) the matmul is on autocast's
 * lower-precision list: it casts the fp32 weight copy to 16 bits (both alive at the cast, 6
 * bytes a weight, in forward and again in the recomputation) and saves that copy, and its
 * logits' gradient is 16-bit: the larger of the cast's moment and the backward's (the 16-bit
 * weight, log_softmax's fp32 output and gradient, the fp32 and 16-bit logits gradients: 14 bytes
 * a logit). Every valid token counted: a completion-only loss packs fewer. */
static uint64_t trl_chunked_nll_bytes(struct acc *c, const struct gs_activation_input *in,
                                      uint64_t tokens)
{
    const struct gs_arch *a = in->arch;
    const uint64_t h = a->hidden_size, vocab = div_ceil(a->vocab_size, in->parallelism->tensor);
    const uint64_t residual = in->residual_bytes ? in->residual_bytes : in->element_bytes;
    const uint64_t chunk = tokens < TRL_CHUNK_TOKENS ? tokens : TRL_CHUNK_TOKENS;
    const uint64_t weights = mul(c, vocab, h), logits = mul(c, chunk, vocab);
    const uint64_t fp32_copy = residual != 4 ? 4 : 0; /* w.float() copies a 16-bit head */
    uint64_t bytes = in->autocast ? mul(c, 14, logits) : mul(c, 12, logits);
    if (a->final_logit_softcap)
        bytes = add(c, bytes, mul(c, 4, logits));
    if (in->autocast) {
        bytes = add(c, bytes, mul(c, 2, weights));
        const uint64_t cast = mul(c, fp32_copy + 2, weights);
        bytes = bytes > cast ? bytes : cast;
    } else {
        bytes = add(c, bytes, mul(c, fp32_copy, weights));
    }
    /* a trained head's weight gradient: fp32 from the fp32 matmul, then cast to a 16-bit head's
     * dtype; under autocast 16-bit from the matmul, then cast back to fp32 */
    if (in->trainable == GS_TRAIN_ALL)
        bytes =
            add(c, bytes, mul(c, in->autocast ? 2 + 4 : 4 + (fp32_copy ? residual : 0), weights));
    return add(c, bytes, mul(c, mul(c, 2 * residual, tokens), h));
}

/* Bytes the loss holds at its backward: tokens x the GPU's vocabulary share
 * x the loss's bytes per logit (textbook: 16-bit logits, fp32 upcast, fp32
 * gradient = 2 + 8). */
static uint64_t loss_bytes(struct acc *c, const struct gs_activation_input *in, uint64_t tokens)
{
    const uint64_t logits = logit_count(c, in, tokens);
    if (logits == 0)
        return 0;
    if (in->rules == NULL)
        return mul(c, logits, in->element_bytes + 8);
    if (in->rules->loss == GS_LOSS_CHUNKED_NLL)
        return trl_chunked_nll_bytes(c, in, tokens);
    const uint64_t loss = div_ceil(
        mul(c, logits,
            gs_loss_eighths_per_logit(in->rules, loss_chunks(in), in->parallelism->tensor)),
        GS_LOSS_BYTES_UNIT);
    /* soft-capped logits (Gemma2ForCausalLM.forward: logits / cap, torch.tanh, * cap; LitGPT's
     * do_softcapping per chunk alike): the divisions by a number keep nothing, tanh keeps its
     * output, at the logits' dtype, until its backward after the loss's (LitGPT before 0.5.5
     * returns the chunks uncapped: chunks_uncapped); a fused linear-cross-entropy caps inside
     * its kernel. torchtune's Gemma2FinalNorm caps the final
     * norm's output instead, a hidden-wide tensor */
    const enum gs_framework fw = in->rules->framework;
    const bool caps_logits =
        fw == GS_FW_TRANSFORMERS || fw == GS_FW_DEEPSPEED || fw == GS_FW_LITGPT;
    if (in->arch->final_logit_softcap && caps_logits && !in->rules->chunks_uncapped &&
        in->rules->loss != GS_LOSS_FUSED)
        return add(c, loss, mul(c, logits, in->element_bytes));
    return loss;
}

/* What an encoder's convolutional front-end (gs_tower.conv_channels: Whisper's conv1 over the
 * mel bins at 2P frames, GELU, conv2 of stride 2 down to P positions, GELU) keeps a sample, outside
 * any checkpointed layer. Where the convolutions train: conv1 its input (the features) and conv2
 * its input (the first GELU's output) for their weights' gradients, each GELU its input (the
 * convolutions' outputs): mels x 2P + d x 2P + d x 2P + d x P values. Under autocast conv1d runs
 * at 16 bits (autocast's lower-precision list: it keeps its 16-bit copy of the fp32 features),
 * and GELU at its input's 16 bits; otherwise at the activations' dtype. Frozen (adapter training:
 * all_linear adapts no convolution) nothing needs a gradient there: the features need none, and
 * nothing is kept. */
static uint64_t conv_frontend_bytes(struct acc *c, const struct gs_activation_input *in,
                                    const struct gs_tower *tw)
{
    if (tw->conv_channels == 0 || tw->positions == 0 || in->trainable != GS_TRAIN_ALL)
        return 0;
    const uint64_t e = in->autocast ? 2 : in->element_bytes, d = in->arch->hidden_size;
    const uint64_t frames = mul(c, 2, tw->positions);
    const uint64_t values =
        add(c, mul(c, add(c, tw->conv_channels, mul(c, 2, d)), frames), mul(c, d, tw->positions));
    return mul(c, e, values);
}

/* The residual width of a tower's layers: its block's norms' (GS_PART_NORMS); 0 where the block
 * has none the layer walk reads (a tower whose layers are described for their weights alone). */
static uint64_t tower_width(const struct gs_arch *a, const struct gs_tower *tw)
{
    const struct gs_block *b = &a->blocks[tw->block];
    for (size_t i = 0; i < b->module_count; i++)
        if (b->modules[i].kind == GS_MODULE_NORM && b->modules[i].part == GS_PART_NORMS)
            return b->modules[i].out;
    return 0;
}

/* Whether autograd records a tower's layers: every weight trains, or an adapter sits in its
 * block (all_linear, or a target naming its linears: Qwen2.5-VL's vision MLP is gate_proj,
 * up_proj and down_proj). A tower nothing in trains runs without a graph: the image features
 * enter the decoder needing no gradient (masked_scatter into the embeddings), and nothing in it
 * is kept, as in a tower the request freezes (freeze_vision_tower). */
static bool tower_records(const struct gs_activation_input *in, const struct gs_tower *tw)
{
    if (in->adapters != NULL && in->adapters->freeze_vision_tower)
        return false;
    if (in->trainable == GS_TRAIN_ALL)
        return true;
    const struct gs_block *b = &in->arch->blocks[tw->block];
    for (size_t i = 0; i < b->module_count; i++)
        if (gs_lora_adapts(in->adapters, b, &b->modules[i]))
            return true;
    return false;
}

/* Whether the vision tower's output needs a gradient: some vision tower records. */
static bool vision_records(const struct gs_activation_input *in)
{
    const struct gs_arch *a = in->arch;
    for (size_t i = 0; i < a->tower_count; i++)
        if (a->towers[i].part == GS_PART_VISION && a->towers[i].block < a->block_count &&
            tower_records(in, &a->towers[i]))
            return true;
    return false;
}

/* Whether a linear outside the layers of the vision part (a projector: Mllama's
 * multi_modal_projector) trains: its weight, where every weight does and the request does not
 * freeze the tower and its projector, or an adapter (gs_lora_adapts). */
static bool projector_trains(const struct gs_activation_input *in, const struct gs_module *m)
{
    if (m->kind != GS_MODULE_LINEAR || m->part != GS_PART_VISION)
        return false;
    if (in->trainable == GS_TRAIN_ALL)
        return in->adapters == NULL || !in->adapters->freeze_vision_tower;
    return in->trainable == GS_TRAIN_ADAPTERS && in->adapters != NULL &&
           gs_lora_adapts(in->adapters, NULL, m);
}

/* What the vision part's linears outside the layers that train (projector_trains: Mllama's
 * multi_modal_projector, Gemma 3n's embedding_projection) keep of their input, `rows` positions
 * of it: the input itself where the weight trains or an adapter's lora_A reads it as it is, and
 * an adapter's dropout or fp32 copy where it makes one, with the dropout's mask where the input
 * needs a gradient (`input_grad`: the tower records). */
static uint64_t projector_input_bytes(struct acc *c, const struct gs_activation_input *in,
                                      uint64_t rows, bool input_grad)
{
    const uint64_t e = in->element_bytes;
    uint64_t bytes = 0;
    for (size_t i = 0; i < in->arch->module_count; i++) {
        const struct gs_module *m = &in->arch->modules[i];
        if (!projector_trains(in, m))
            continue;
        const bool adapted = in->trainable == GS_TRAIN_ADAPTERS;
        const bool cast = adapted && in->rules != NULL && in->rules->adapters_fp32 && e != 4;
        const bool dropout = adapted && in->adapters->lora_dropout_permille > 0;
        uint64_t per = linear_saves(in, m, adapted, cast) ? e : 0;
        if (cast || dropout)
            per += adapter_copy_bytes(in, cast, dropout && input_grad);
        bytes = add(c, bytes, mul(c, mul(c, rows, m->in), per));
    }
    return bytes;
}

/* Whether the states the cross-attention layers read from the images need a gradient: the
 * vision tower records, or the projector that makes them trains. */
static bool cross_states_need_grad(const struct gs_activation_input *in)
{
    if (vision_records(in))
        return true;
    for (size_t i = 0; i < in->arch->module_count; i++)
        if (projector_trains(in, &in->arch->modules[i]))
            return true;
    return false;
}

/* What a micro-batch's images keep once for the cross-attention layers that read them
 * (GS_MM_CROSS_TILES), beside what each layer keeps of them (layer(): K and V, k_norm, the
 * adapters' copies, the mask's copy per call):
 * - the projected states, (batch, positions, hidden) at the activations' dtype, one tensor that
 *   every cross layer's k_proj and v_proj read, where one of them keeps it (struct linears
 *   cross_saves) or full recomputation holds it as each checkpointed layer's input
 *   (GradientCheckpointingLayer.__call__ passes cross_attention_states to the checkpoint);
 * - the cross-attention mask, (batch, 1, text, positions) in the model's dtype
 *   (_prepare_cross_attention_mask: repeat_interleave over each tile's positions, .to(dtype);
 *   MllamaModel.forward then indexes it by position, a copy), where SDPA's kernels keep the one
 *   tensor (no copy per call: cross_mask_copied) or the checkpoints hold it;
 * - the projector's input, the vision model's output with its intermediate layers'
 *   (vision_output_dim wide), where the projector's weight trains or its adapter's lora_A reads
 *   it as it is, and the adapter's dropout or fp32 copy (with its mask where the tower records)
 *   where it makes one. */
static uint64_t cross_states_bytes(struct acc *c, const struct gs_activation_input *in)
{
    const struct gs_arch *a = in->arch;
    const struct gs_block *cb = NULL;
    for (size_t k = 0; k < a->block_count && cb == NULL; k++)
        if (a->blocks[k].mixer == GS_MIXER_ATTENTION && a->blocks[k].attn.cross_only)
            cb = &a->blocks[k];
    const uint64_t keys = cross_image_positions(c, in);
    if (cb == NULL || keys == 0)
        return 0;
    const uint64_t e = in->element_bytes;
    const uint64_t residual = in->residual_bytes ? in->residual_bytes : e;
    const uint64_t rows = mul(c, in->batch_size, keys);
    const bool full = in->recompute == GS_RECOMPUTE_FULL;
    const struct linears l = linears_of(c, in, cb, e);
    uint64_t bytes = 0;
    if (l.cross_saves || full)
        bytes = mul(c, mul(c, rows, a->hidden_size), e);
    if (full || (transformers_sdpa(in, cb) && !cross_mask_copied(in, keys)))
        bytes = add(c, bytes, cross_mask_bytes(c, in, keys, residual, false));
    return add(c, bytes, projector_input_bytes(c, in, rows, vision_records(in)));
}

bool gs_activation_vision_frozen(const struct gs_activation_input *in)
{
    const struct gs_arch *a = in->arch;
    for (size_t i = 0; i < a->tower_count; i++)
        if (a->towers[i].part == GS_PART_VISION)
            return false;
    bool weights = false;
    for (size_t i = 0; i < a->module_count; i++)
        if (a->modules[i].part == GS_PART_VISION && a->modules[i].kind == GS_MODULE_TENSOR)
            weights = true;
    const bool frozen = in->adapters != NULL && in->adapters->freeze_vision_tower;
    return weights && a->mm_image.pixels != 0 && (in->trainable != GS_TRAIN_ALL || frozen);
}

/* What a micro-batch's images keep where the vision tower is described by its weights alone and
 * this run does not train it (gs_activation_vision_frozen): the pixel values, fp32 as the
 * processor makes them (Gemma3nImageProcessor: each image 3 x 768 x 768), and what the adapted
 * linears after the tower keep over each image's tokens (gs_mm_item.tokens, the embedder's
 * input: Gemma3nMultimodalEmbedder's embedding_projection, which all-linear adapts): lora_A's
 * input as it is, or its dropout or fp32 copy, without the dropout's mask (the frozen tower's
 * output needs no gradient). Not counted: the post-projection norm's fp32 copy of the adapter's
 * output (Gemma3nRMSNorm without scale), which its description does not carry. */
static uint64_t frozen_vision_bytes(struct acc *c, const struct gs_activation_input *in)
{
    const struct gs_arch *a = in->arch;
    const uint64_t images = mul(c, in->batch_size, in->vision_images);
    const uint64_t pixels = mul(c, mul(c, images, a->mm_image.pixels), 4);
    return add(c, pixels, projector_input_bytes(c, in, mul(c, images, a->mm_image.tokens), false));
}

bool gs_activation_vision_counted(const struct gs_arch *a)
{
    bool any = false;
    for (size_t i = 0; i < a->tower_count; i++) {
        const struct gs_tower *tw = &a->towers[i];
        if (tw->part != GS_PART_VISION || tw->block >= a->block_count)
            continue;
        /* an encoder tower is the images' only where they run through it alone (a
         * cross-attended image's: GS_MM_CROSS_TILES) */
        if ((tw->encoder && a->mm_image.layout != GS_MM_CROSS_TILES) || tower_width(a, tw) == 0)
            return false;
        any = true;
    }
    return any && a->mm_image.patches != 0;
}

/* A tower that runs every image of the micro-batch as one sequence (GS_MM_ONE_SEQUENCE:
 * transformers' PixtralVisionModel.forward concatenates the images' patches, torch.cat(...)
 * .unsqueeze(0)) sets `own` to that sequence, batch 1, and returns the block-diagonal mask it
 * keeps. Under flash-attn the images stay apart by cu_seqlens, with no mask: sequences of their
 * own, as `own` has them. Otherwise generate_block_attention_mask makes one (n, n) additive mask
 * at the patches' dtype (torch.full(..., torch.finfo(dtype).min), zeros on each image's block),
 * which eager attention adds to every head's scores (n^2 of them a head) and SDPA, which runs
 * the memory-efficient kernel under a mask, keeps for backward (the masked path, sdpa_masked,
 * with its copy per call where the rows are not 8-element aligned, preprocess_mask). The one
 * mask stays until backward where the kernel keeps it itself or, under full recomputation, as
 * an input of every checkpointed layer; eager attention without recomputation keeps nothing of
 * it. */
static uint64_t one_sequence(struct acc *c, const struct gs_activation_input *in,
                             struct gs_activation_input *own, uint64_t images)
{
    const bool hf = transformers_model_code(in->rules);
    const bool sdpa = hf && in->rules->transformers_sdpa && in->flash_attention;
    if (hf && in->flash_attention && !sdpa)
        return 0; /* flash-attn: cu_seqlens, per image */
    own->batch_size = 1;
    own->sequence_length = mul(c, images, in->vision_patches);
    own->padding_mask = sdpa;
    own->additive_mask = true;
    const bool kept = in->recompute == GS_RECOMPUTE_FULL || (sdpa && !mask_copied_per_call(own));
    if (!kept)
        return 0;
    const uint64_t n = own->sequence_length;
    const uint64_t residual = in->residual_bytes ? in->residual_bytes : in->element_bytes;
    return mul(c, mul(c, n, n), residual);
}

/* A tower that runs each image as one row padded to the processor's budget (GS_MM_PADDED_ROW,
 * Gemma 4): a row the image leaves part padding is masked (Gemma4VisionModel.forward:
 * attention_mask=~padding_positions; create_bidirectional_mask skips the mask only where no
 * position is padding, _ignore_bidirectional_mask_sdpa), which the layers then take as a padded
 * batch's mask (`own`). Returns what the pooler keeps (Gemma4VisionPooler._avg_pool_by_positions:
 * weights = F.one_hot(kernel_idxs, length).float() / k^2, output = weights.transpose(1, 2) @
 * hidden_states.float()): the matmul keeps the fp32 one-hot weights, patches x soft tokens a row,
 * for the hidden states' gradient (the weights need none, so the hidden states' fp32 copy is not
 * kept). */
static uint64_t padded_rows(struct acc *c, const struct gs_activation_input *in,
                            struct gs_activation_input *own, uint64_t images)
{
    const struct gs_mm_item *it = &in->arch->mm_image;
    const uint64_t unit = it->tokens ? it->patches / it->tokens : 0;
    const uint64_t row_tokens = unit ? in->vision_patches / unit : 0;
    own->padding_mask = in->vision_tokens != 0 && in->vision_tokens < row_tokens;
    return mul(c, mul(c, mul(c, images, in->vision_patches), row_tokens), 4);
}

/* A tower that runs each image's tiles as one sequence under an additive mask, through layers
 * no checkpointing reaches (GS_MM_CROSS_TILES, Llama 3.2 Vision: MllamaVisionModel.forward builds
 * one (n, n) mask an image in the model's dtype, _prepare_aspect_ratio_attention_mask: the
 * padded tiles and each tile's padding positions at the dtype's minimum, and runs its
 * `transformer` and `global_transformer`, whose MllamaVisionEncoderLayer is a plain nn.Module,
 * not a GradientCheckpointingLayer) sets `own` so, and returns the masks SDPA keeps: its
 * memory-efficient kernel, which a mask sends it to, saves the one mask as its attn_bias
 * (eager attention's add keeps nothing of it). */
static uint64_t cross_tiles(struct acc *c, const struct gs_activation_input *in,
                            struct gs_activation_input *own, uint64_t images)
{
    own->recompute = GS_RECOMPUTE_NONE;
    own->padding_mask = true;
    own->additive_mask = true;
    const bool sdpa =
        transformers_model_code(in->rules) && in->rules->transformers_sdpa && in->flash_attention;
    if (!sdpa)
        return 0;
    const uint64_t n = own->sequence_length;
    const uint64_t residual = in->residual_bytes ? in->residual_bytes : in->element_bytes;
    return mul(c, mul(c, images, mul(c, n, n)), residual);
}

/* What a micro-batch's images keep in the vision towers (gs_activation_vision_counted), beside
 * the pixel values the batch brings (processor output, fp32: Qwen2VLImageProcessor), each image
 * a sequence of its own: Qwen2.5-VL's vision attention runs per image (cu_seqlens; the eager and
 * SDPA paths split the patches by image, flash-attn takes the lengths), Gemma 3's SigLIP tower
 * takes each image or pan-and-scan crop as a batch row, so a layer sees batch x images sequences
 * of `vision_patches` patches at the tower's width. Where the tower records
 * (tower_records), its layers keep what the decoder's layer walk keeps at that width, under the
 * same checkpointing (Qwen2_5_VisionTransformerPretrainedModel's blocks checkpoint when
 * gradient checkpointing is on), and where its weights train the patch embedding's Conv3d keeps
 * its input, the pixels cast to 16 bits (PatchEmbed.forward:
 * self.proj(hidden_states.to(dtype=target_dtype)), or autocast's cast). The
 * merger's few tensors (its norm, two linears and GELU over the merged tokens, a fraction of
 * what one layer keeps) are not counted. */
static uint64_t vision_bytes(struct acc *c, const struct gs_activation_input *in, uint64_t *working,
                             uint64_t *first_layer)
{
    const struct gs_arch *a = in->arch;
    if (in->vision_images != 0 && gs_activation_vision_frozen(in))
        return frozen_vision_bytes(c, in);
    if (in->vision_images == 0 || in->vision_patches == 0 || !gs_activation_vision_counted(a))
        return 0;
    const uint64_t images = mul(c, in->batch_size, in->vision_images);
    const uint64_t pixels = mul(c, mul(c, images, in->vision_patches), in->vision_pixels);
    /* the processor's fp32, or the model's dtype where the tower takes them uncast (Llama 4's
     * patch embedding: F.linear on bf16 weights refuses fp32 input outside autocast) */
    const uint64_t model_bytes = in->residual_bytes ? in->residual_bytes : in->element_bytes;
    uint64_t bytes = mul(c, pixels, a->mm_image.pixels_model_dtype ? model_bytes : 4);
    bool records = false, mask_kept = false;
    for (size_t i = 0; i < a->tower_count; i++) {
        const struct gs_tower *tw = &a->towers[i];
        if (tw->part != GS_PART_VISION || tw->block >= a->block_count || !tower_records(in, tw))
            continue;
        records = true;
        struct gs_activation_input own = *in;
        own.batch_size = images;
        /* with the class embedding's position (Llama4VisionModel.forward: torch.cat) */
        own.sequence_length = in->vision_patches + a->mm_image.class_positions;
        own.stream_width = tower_width(a, tw);
        own.padding_mask = false; /* an image has no padding */
        if (a->mm_image.layout == GS_MM_ONE_SEQUENCE)
            bytes = add(c, bytes, one_sequence(c, in, &own, images));
        if (a->mm_image.layout == GS_MM_PADDED_ROW)
            bytes = add(c, bytes, padded_rows(c, in, &own, images));
        if (a->mm_image.layout == GS_MM_CROSS_TILES) {
            const uint64_t mask = cross_tiles(c, in, &own, images);
            bytes = add(c, bytes, mask_kept ? 0 : mask); /* one mask an image for both towers */
            mask_kept = true;
        }
        uint64_t counts[GS_BLOCKS_MAX] = {0};
        counts[tw->block] = tw->layers;
        bytes = add(c, bytes, blocks_stored(c, &own, counts, working, first_layer));
    }
    /* the Conv3d's input at 16 bits: PatchEmbed's cast to 16-bit weights, or autocast's own copy
     * over fp32 weights (conv3d is on its lower-precision list); in an fp32 run the pixels
     * themselves */
    if (records && in->trainable == GS_TRAIN_ALL && in->element_bytes == 2)
        bytes = add(c, bytes, mul(c, pixels, 2));
    if (a->mm_image.layout == GS_MM_CROSS_TILES)
        bytes = add(c, bytes, cross_states_bytes(c, in));
    /* a position table read through a one-hot matmul (gs_mm_item.position_one_hot_until) keeps
     * the one-hot, x and y over every position of the row, where the table trains: in the
     * table's dtype (.to(self.position_embedding_table)), or autocast's 16-bit copy */
    const uint32_t release = in->rules != NULL ? in->rules->hf_release : 0;
    if (records && in->trainable == GS_TRAIN_ALL && a->mm_image.position_table && release != 0 &&
        release < a->mm_image.position_one_hot_until)
        bytes =
            add(c, bytes,
                mul(c, mul(c, mul(c, images, in->vision_patches), 2 * a->mm_image.position_table),
                    in->element_bytes));
    return bytes;
}

/* What the model-level norms of the hidden width (LlamaRMSNorm model.norm, GPT-2's ln_f,
 * BERT's embedding LayerNorm) keep per token, as a layer's norms do: compiled when the whole
 * model is (transformers' torch_compile, LitGPT), eager where compile wraps each block alone
 * (torchtitan apply_compile: torch.compile(transformer_block) for each of model.layers;
 * torchtune compile_model: each TransformerSelfAttentionLayer), the norm outside them. */
static uint64_t final_norm_bytes(struct acc *c, const struct gs_activation_input *in)
{
    const struct gs_arch *a = in->arch;
    const uint64_t residual = in->residual_bytes ? in->residual_bytes : in->element_bytes;
    const struct gs_framework_rules *r = in->rules;
    const bool compiled = r != NULL && r->compile && !r->compile_blocks_only;
    uint64_t bytes = 0;
    for (size_t i = 0; i < a->module_count; i++) {
        const struct gs_module *m = &a->modules[i];
        if (m->kind == GS_MODULE_NORM && m->part == GS_PART_NORMS && m->out == a->hidden_size)
            bytes = add(c, bytes,
                        mul(c, mul(c, norm_bytes_as(in, m, residual, compiled), m->out),
                            m->count ? m->count : 1));
    }
    /* Qwen3.8-Flash-Next's hyper_connection_mixer, which collapses the streams for the head
     * where a final norm would stand: one gated residual site without an injection */
    const struct gated_residual g =
        gated_residual_of(a->modules, a->module_count, "hyper_connection_mixer.");
    if (g.norm != NULL && a->hidden_size && g.norm->out % a->hidden_size == 0)
        bytes = add(c, bytes,
                    gated_residual_site_bytes(c, in, &g, g.norm->out / a->hidden_size,
                                              a->hidden_size, residual, false));
    return bytes;
}

/* What an adapted output head (gs_lora_head) keeps per token until its backward, by the rule
 * linears_of applies to a layer's adapters: lora_A(lora_dropout(x)) keeps the dropout's mask
 * and output, or PEFT's fp32 cast of x; with neither, lora_A saves x itself, which the frozen
 * head would not. The head's input is the whole hidden state on every tensor rank. Its
 * logits-sized forward temporaries (lora_B's output, its scaled copy, the sum) are freed
 * before the loss runs, and its backward's (the scaled gradient) stay under the loss's own
 * backward, so neither moves the peak. With DoRA the head keeps what a layer's DoRA keeps
 * (dora_bytes): two logits-sized outputs a token. The whole of it, for `tokens` tokens. */
static uint64_t head_adapter_bytes(struct acc *c, const struct gs_activation_input *in,
                                   uint64_t tokens)
{
    uint64_t width = 0, vocab = 0;
    if (in->trainable != GS_TRAIN_ADAPTERS || in->adapters == NULL ||
        !gs_lora_head(in->arch, in->adapters, &width, &vocab))
        return 0;
    const uint64_t e = in->element_bytes;
    const bool cast = in->rules != NULL && in->rules->adapters_fp32 && e != 4;
    const bool dropout = in->adapters->lora_dropout_permille > 0;
    const uint64_t per_token =
        !cast && !dropout ? mul(c, e, width) : mul(c, adapter_copy_bytes(in, cast, dropout), width);
    uint64_t bytes = mul(c, tokens, per_token);
    if (in->adapters->lora_dora) {
        struct linears l;
        memset(&l, 0, sizeof(l));
        const struct gs_module head = {.kind = GS_MODULE_LINEAR, .in = width, .out = vocab};
        dora_bytes(c, in, &head, e, in->autocast ? 2 : cast ? 4 : e, in->autocast || cast, 1, &l);
        bytes = add(c, bytes, add(c, mul(c, tokens, l.dora_token), l.dora_layer));
    }
    return bytes;
}

/* Whether the output head is a 4-bit linear: QLoRA under a framework that quantizes it too
 * (rules->quantizes_head: Lightning's BitsandbytesPrecision replaces LitGPT's lm_head with the
 * other linears). */
static bool head_quantized(const struct gs_activation_input *in)
{
    return in->arch->logits && in->quantized_base && in->trainable == GS_TRAIN_ADAPTERS &&
           in->rules != NULL && in->rules->quantizes_head;
}

/* What a 4-bit head's MatMul4Bit keeps of its input where it keeps inputs at all
 * (rules->quant_saves_input: ctx.tensors = (A, B) before bitsandbytes 0.43.2): LitGPT's chunks
 * are views of the final norm's output (x.split), so all of it, at the compute dtype; none
 * where the head's adapter keeps that tensor itself (lora_A reading x, head_adapter_bytes).
 * The whole, for `tokens` tokens. */
static uint64_t quant_head_input_bytes(struct acc *c, const struct gs_activation_input *in,
                                       uint64_t tokens)
{
    if (!head_quantized(in) || !in->rules->quant_saves_input)
        return 0;
    uint64_t width = 0, vocab = 0;
    if (in->adapters != NULL && gs_lora_head(in->arch, in->adapters, &width, &vocab) &&
        in->adapters->lora_dropout_permille == 0 &&
        !(in->rules->adapters_fp32 && in->element_bytes != 4))
        return 0;
    return mul(c, mul(c, tokens, in->arch->hidden_size), in->element_bytes);
}

/* What a 4-bit head's backward dequantizes, for each chunk's input gradient in turn
 * (MatMul4Bit.backward: F.dequantize_4bit(B, ctx.state).to(grad_output.dtype)): its whole
 * vocabulary share at dequant_bytes_per_weight. 0 for a 16-bit head. */
static uint64_t quant_head_dequant_bytes(struct acc *c, const struct gs_activation_input *in)
{
    if (!head_quantized(in))
        return 0;
    const uint64_t vocab = div_ceil(in->arch->vocab_size, in->parallelism->tensor);
    return mul(c, mul(c, vocab, in->arch->hidden_size), dequant_bytes_per_weight(in));
}

/* The logits the caller holds through backward, as gs_loss_eighths_per_logit counts them at the
 * loss's: LitGPT's fp32 chunks (Fabric's convert_output, bound to the loop's `logits`), the
 * 16-bit output a loop keeps. Still held when the head's backward runs. */
static uint64_t logits_held_bytes(struct acc *c, const struct gs_activation_input *in,
                                  uint64_t tokens)
{
    const struct gs_framework_rules *r = in->rules;
    if (r == NULL || (r->loss != GS_LOSS_FP32 && r->loss != GS_LOSS_CHUNKED))
        return 0;
    const uint64_t per_logit = r->logits_fp32_held ? 4 : r->keeps_16bit_logits ? 2 : 0;
    return mul(c, logit_count(c, in, tokens), per_logit);
}

/* What a trained output head keeps until its backward: its input, for the weight's gradient
 * (F.linear saves the input when the weight requires grad; a frozen head saves none, above).
 * That input is the final norm's output, a tensor of its own (the norm's last multiply by its
 * weight makes it). The whole sequence on every tensor rank: under sequence parallelism the
 * head's ColwiseParallel input is all-gathered from the norm's sequence shards (torchtitan
 * parallelize_llama.py apply_tp: "norm": SequenceParallel(), "output": ColwiseParallel with
 * input_layouts=Shard(1)). None under a fused linear-cross-entropy, whose kernel makes the
 * input's gradient in forward instead (the head's moment, train_peak.c). */
static uint64_t head_input_bytes(struct acc *c, const struct gs_activation_input *in,
                                 uint64_t tokens)
{
    const struct gs_arch *a = in->arch;
    if (!a->logits || in->trainable != GS_TRAIN_ALL ||
        (in->rules != NULL &&
         (in->rules->loss == GS_LOSS_FUSED || in->rules->loss == GS_LOSS_CHUNKED_NLL)))
        return 0;
    return mul(c, mul(c, tokens, a->hidden_size), in->element_bytes);
}

/* What a masked-LM head's transform keeps until its backward: BERT's BertLMPredictionHead runs
 * BertPredictionHeadTransform (dense h -> h, ACT2FN[hidden_act], LayerNorm) before the decoder
 * (modeling_bert.py), so, trained, the dense keeps its input (the last layer's output, which no
 * layer keeps) and the activation what it keeps (GELU its input, the dense's output); the
 * LayerNorm's input is a model-level norm's (final_norm_bytes) and the decoder's input the
 * head's (head_input_bytes). The transform is the model-level head linear of the hidden width
 * (gs_module in == out == hidden_size, GS_PART_LM_HEAD). The whole, for `tokens` tokens. */
static uint64_t head_transform_bytes(struct acc *c, const struct gs_activation_input *in,
                                     uint64_t tokens)
{
    const struct gs_arch *a = in->arch;
    if (!a->logits || in->trainable != GS_TRAIN_ALL || in->rules == NULL || a->block_count == 0)
        return 0;
    const uint64_t e = in->element_bytes, h = a->hidden_size;
    uint64_t per_token = 0;
    for (size_t i = 0; i < a->module_count; i++) {
        const struct gs_module *m = &a->modules[i];
        if (m->kind != GS_MODULE_LINEAR || m->part != GS_PART_LM_HEAD || m->in != h || m->out != h)
            continue;
        /* the activation as an ungated MLP's of width h whose next linear keeps nothing of it
         * (the LayerNorm keeps its output, counted above); relu keeps only that output */
        struct gs_block act = {.mlp = {.kind = GS_MLP_DENSE, .act = a->blocks[0].mlp.act}};
        const bool relu = a->blocks[0].mlp.act == GS_ACT_RELU;
        const uint64_t act_kept = relu ? 0 : mlp_eager_bytes(in, &act, e, false);
        per_token = add(c, per_token, mul(c, add(c, e, act_kept), h));
    }
    return mul(c, tokens, per_token);
}

/* The micro-batches an interleaved schedule runs through one chunk before the next: Megatron-LM's
 * microbatch_group_size_per_vp_stage, by default p (schedules.py get_schedule_table);
 * torch.distributed.pipelining's ScheduleInterleaved1F1B (torchtitan's), m over max(1, m / p)
 * rounds (schedules.py microbatches_per_round). */
static uint64_t interleaved_group(const struct gs_activation_input *in, uint64_t p, uint64_t m)
{
    if (in->rules != NULL && in->rules->framework == GS_FW_TORCHTITAN)
        return m / (m / p > 1 ? m / p : 1);
    return p;
}

/* Forwards stage `s` of `p` keeps before its first backward under an interleaved schedule with
 * `v` model chunks a stage, `m` micro-batches and groups of `g` (Megatron-LM schedules.py
 * get_pp_rank_microbatches; torch's ScheduleInterleaved1F1B get_rank_warmup_ops, the same
 * rule): its warm-up, 2 (p - s - 1) + (v - 1) g forwards, and the first forward of the steady
 * state; all m v of them when the warm-up takes every one. */
static uint64_t interleaved_held(uint64_t p, uint64_t v, uint64_t m, uint64_t g, uint64_t s)
{
    const uint64_t warmup = 2 * (p - s - 1) + (v - 1) * g, total = m * v;
    return warmup >= total ? total : warmup + 1;
}

/* Of the first `held` forwards a stage runs, those of chunk `chunk`: the schedule runs the
 * chunks in turn, g micro-batches each (Megatron-LM get_schedule_table; torch's forward stage
 * index ((step // microbatches_per_round) % v) * p + rank). */
static uint64_t chunk_forwards(uint64_t held, uint64_t g, uint64_t v, uint64_t chunk)
{
    const uint64_t round = g * v, r = held % round, start = chunk * g;
    const uint64_t rest = r > start ? (r - start < g ? r - start : g) : 0;
    return held / round * g + rest;
}

/* Whether a vision tower or decoder layer runs in a micro-batch: a layer that attends only to
 * a vision encoder's output (attn.cross_only: Mllama's cross-attention layers) and the vision
 * encoder itself run only on samples that carry images (MllamaModel.forward runs vision_model
 * only `if pixel_values is not None`; MllamaTextModel.forward `continue`s past a cross-attention
 * layer when cross_attention_states is None). */
static bool runs_without_images(const struct gs_block *b)
{
    return !(b->mixer == GS_MIXER_ATTENTION && b->attn.cross_only);
}

/* gs_arch_count_blocks over the layers that run in this micro-batch (runs_without_images). */
static void count_run_blocks(const struct gs_activation_input *in, uint64_t first, uint64_t end,
                             uint64_t counts[GS_BLOCKS_MAX])
{
    const struct gs_arch *a = in->arch;
    gs_arch_count_blocks(a, first, end, counts);
    for (size_t k = 0; in->vision_images == 0 && k < a->block_count; k++)
        if (!runs_without_images(&a->blocks[k]))
            counts[k] = 0;
}

/* Whether encoder tower `tw` runs over the decoder's positions (or its own fixed ones: Whisper's):
 * not a vision encoder (Mllama's local and global transformers, whose output the cross-attention
 * layers read), which runs only on images, over their positions, where vision_bytes counts it. */
static bool encoder_walked_with_text(const struct gs_tower *tw)
{
    return tw->part != GS_PART_VISION;
}

bool gs_activation_bytes(const struct gs_activation_input *in, struct gs_activation_result *out)
{
    memset(out, 0, sizeof(*out)); /* the padding too: equal inputs give byte-equal results */
    struct acc c = {false};
    const struct gs_arch *a = in->arch;
    const struct gs_parallelism *par = in->parallelism;
    const uint64_t p = par->pipeline ? par->pipeline : 1;
    const uint64_t m = in->micro_batches ? in->micro_batches : 1;
    /* a device_map (naive pipeline parallelism) runs one micro-batch through the GPUs in turn,
     * its backward before the next micro-batch's forward (the HF Trainer's loop) */
    const bool in_turn = par->device_map;
    const uint64_t in_flight = in_turn ? 1 : m < p ? m : p;
    const uint64_t s = div_ceil(in->sequence_length, par->context);
    const uint64_t tokens = mul(&c, s, in->batch_size);

    /* Every stage but the last holds its layers' saved tensors for the micro-batches in flight
     * on it, p - s under 1F1B (the first the most), the last one micro-batch's and the loss.
     * The fullest stage before the last counts: under an even split the first; under
     * torchtitan's, which gives the first stage one layer less for the embedding, it can be
     * the second. The first stage also runs the encoder towers and keeps the token ids. */
    uint64_t working = 0, backward = 0, per_layer = 0, counts[GS_BLOCKS_MAX];
    /* one layer of each block the decoder uses, stored once (what a stage keeps is linear in
     * its layers of each block) */
    uint64_t one[GS_BLOCKS_MAX] = {0};
    count_run_blocks(in, 0, a->num_hidden_layers, counts);
    for (size_t k = 0; k < a->block_count; k++) {
        if (counts[k] == 0)
            continue;
        uint64_t w = 0;
        one[k] = stored(&c, in, &a->blocks[k], layer(&c, in, &a->blocks[k], false), &w);
        if (w > working)
            working = w;
        /* what the layer's backward holds beyond what it stored: its gradient pair, and what a
         * selective recomputation recomputes (the attention core; torchtitan's per-op policy,
         * the ops it does not save) */
        if (w > one[k] && w - one[k] > backward)
            backward = w - one[k];
    }
    /* the stages' layers (validation has placed them: p <= L <= GS_LAYERS_MAX) */
    uint64_t bounds[GS_LAYERS_MAX + 1] = {0, a->num_hidden_layers};
    if (p > 1 && (p > GS_LAYERS_MAX ||
                  !gs_stage_bounds(&par->stages, a->num_hidden_layers, p, bounds)))
        return false;
    const uint64_t v = gs_stage_chunks(&par->stages);
    count_run_blocks(in, bounds[0], bounds[1], counts);
    uint64_t per_stage = stage_stored(&c, a, one, counts, &per_layer);
    if (first_layer_frozen(in) && bounds[1] > 0) {
        /* the first layer reads the frozen embedding's output (grads_of); on the first stage
         * unless that holds the embedding alone (torchtitan's split) */
        const struct gs_block *b0 = &a->blocks[a->layer_block[0]];
        uint64_t unused = 0;
        const uint64_t first = stored(&c, in, b0, layer(&c, in, b0, true), &unused);
        const uint64_t usual = one[a->layer_block[0]];
        per_stage = add(&c, per_stage - (usual < per_stage ? usual : per_stage), first);
    }
    uint64_t towers = 0;
    for (size_t i = 0; i < a->tower_count; i++) {
        const struct gs_tower *tw = &a->towers[i];
        if (!tw->encoder || tw->block >= a->block_count || !encoder_walked_with_text(tw))
            continue;
        uint64_t tower_counts[GS_BLOCKS_MAX] = {0};
        tower_counts[tw->block] = div_ceil(tw->layers, p);
        /* an encoder of fixed positions (Whisper's) runs them whatever the decoder's length */
        struct gs_activation_input own = *in;
        if (tw->positions)
            own.sequence_length = tw->positions;
        towers = add(&c, towers, blocks_stored(&c, &own, tower_counts, &working, &per_layer));
        towers = add(&c, towers, mul(&c, in->batch_size, conv_frontend_bytes(&c, in, tw)));
    }
    out->vision_bytes = vision_bytes(&c, in, &working, &per_layer);
    out->vision_counted = gs_activation_vision_counted(a) || gs_activation_vision_frozen(in);
    towers = add(&c, towers, out->vision_bytes);
    per_stage = add(&c, per_stage, towers);
    /* token ids (int64) and, with embedding dropout, its 1-byte mask, which native_dropout
     * keeps only where its input needs a gradient (derivatives.yaml native_dropout: result1
     * for input's backward): a trained embedding, or a frozen one whose output something makes
     * require grad (first_layer_frozen) */
    uint64_t embedding_in = mul(&c, 8, tokens);
    if (a->embedding_dropout && !first_layer_frozen(in)) {
        embedding_in = add(&c, embedding_in, mul(&c, tokens, a->hidden_size));
        /* an encoder drops out its own input too (T5Stack's dropout on the encoder's
         * embeddings, WhisperEncoder's on the convolutions' output plus positions) */
        for (size_t i = 0; i < a->tower_count; i++) {
            const struct gs_tower *tw = &a->towers[i];
            if (!tw->encoder || tw->block >= a->block_count || !encoder_walked_with_text(tw))
                continue;
            const uint64_t own = tw->positions ? mul(&c, in->batch_size, tw->positions) : tokens;
            embedding_in = add(&c, embedding_in, mul(&c, own, a->hidden_size));
        }
    }
    embedding_in = add(&c, embedding_in, mul(&c, tokens, embedding_adapter_bytes(in)));
    embedding_in = add(&c, embedding_in, model_masks_bytes(&c, in));
    /* activation offloading (torchtune OffloadActivations) moves every saved tensor to the
     * host as forward makes it and brings each back for its layer's backward */
    const bool offloaded = in->rules != NULL && in->rules->activation_offloading;
    uint64_t fullest = mul(&c, add(&c, offloaded ? 0 : per_stage, embedding_in), in_flight);
    uint64_t last_stage = per_stage;
    if (v > 1) {
        /* an interleaved schedule (validation: pipeline > 1, whole chunks): each stage keeps
         * its held forwards' chunks */
        fullest = 0;
        const uint64_t g = interleaved_group(in, p, m);
        for (uint64_t k = 0; k < p; k++) {
            const uint64_t held = interleaved_held(p, v, m, g, k);
            uint64_t mine = 0, unused = 0, first, end;
            for (uint64_t ch = 0; ch < v; ch++) {
                gs_stage_chunk_range(&par->stages, bounds, a->num_hidden_layers, p, k, ch, &first,
                                     &end);
                count_run_blocks(in, first, end, counts);
                uint64_t chunk = offloaded ? 0 : stage_stored(&c, a, one, counts, &unused);
                if (k == 0 && ch == 0) /* the first chunk runs the towers and the embedding */
                    chunk = add(&c, chunk, add(&c, towers, embedding_in));
                mine = add(&c, mine, mul(&c, chunk, chunk_forwards(held, g, v, ch)));
            }
            if (k + 1 == p)
                last_stage = mine;
            else if (mine > fullest)
                fullest = mine;
        }
    } else if (p > 1) {
        uint64_t unused = 0;
        for (uint64_t k = 1; k + 1 < p && !offloaded; k++) {
            count_run_blocks(in, bounds[k], bounds[k + 1], counts);
            const uint64_t flight = in_turn ? 1 : m < p - k ? m : p - k;
            const uint64_t mine = mul(&c, stage_stored(&c, a, one, counts, &unused), flight);
            if (mine > fullest)
                fullest = mine;
        }
        count_run_blocks(in, bounds[p - 1], bounds[p], counts);
        last_stage = stage_stored(&c, a, one, counts, &unused);
    }
    if (offloaded) {
        per_stage = 0;
        last_stage = 0;
    }
    for (size_t k = 0; per_layer == 0 && k < a->block_count; k++)
        per_layer = one[k]; /* a first stage of the embedding alone (torchtitan's split) */

    out->per_layer_bytes = per_layer;
    out->layer_working_bytes = working;
    out->layer_backward_bytes = backward;
    out->first_stage_bytes = fullest;
    out->stored_bytes = p > 1 && last_stage > out->first_stage_bytes ? last_stage
                                                                     : out->first_stage_bytes;
    if (in->recompute == GS_RECOMPUTE_FULL)
        out->first_stage_bytes = add(&c, out->first_stage_bytes, working);

    out->logits_bytes = loss_bytes(&c, in, tokens);
    /* the model's final norms run after the last layer (model.norm): they keep what a layer's
     * norm keeps (norm_bytes: an eager RMSNorm's fp32 copy of its input), on the sequence
     * shard under sequence parallelism as a layer's norms do, outside any checkpointed layer,
     * until the head's backward reaches them; with the head's input (its adapters', or the
     * whole input of a trained head); offloaded with the rest */
    uint64_t norms_kept = mul(&c, tokens, final_norm_bytes(&c, in));
    if (in->parallelism->sequence_parallel)
        norms_kept = div_ceil(norms_kept, in->parallelism->tensor);
    const uint64_t final_norms =
        offloaded ? 0
                  : add(&c, add(&c, norms_kept, head_adapter_bytes(&c, in, tokens)),
                        add(&c,
                            add(&c, head_input_bytes(&c, in, tokens),
                                head_transform_bytes(&c, in, tokens)),
                            quant_head_input_bytes(&c, in, tokens)));
    out->logits_bytes = add(&c, out->logits_bytes, final_norms);
    out->final_norm_bytes = final_norms;
    out->loss_chunks = loss_chunks(in);
    /* the gradient of the logits, at their dtype (the head's 16-bit output, fp32 only in an
     * fp32 regime), that the head's backward reads. A fused linear-cross-entropy never holds
     * it: it makes the head's input gradient instead, whole, beside the weight gradient
     * (Liger's fused_linear_cross_entropy_forward: grad_input = torch.zeros_like(_input) and
     * grad_weight = torch.zeros_like(weight), filled chunk by chunk in forward and saved for
     * backward; Cut Cross-Entropy makes both in its backward) */
    /* TRL's chunked_nll makes the head's weight gradient inside each chunk, and its input's
     * gradient whole, as the fused kernel does (trl_chunked_nll_bytes) */
    const bool fused = in->rules != NULL &&
                       (in->rules->loss == GS_LOSS_FUSED || in->rules->loss == GS_LOSS_CHUNKED_NLL);
    out->logit_grads_bytes = !a->logits ? 0
                             : fused ? mul(&c, mul(&c, tokens, a->hidden_size), in->element_bytes)
                                     : mul(&c, logit_count(&c, in, tokens), in->element_bytes);
    out->head_dequant_bytes = quant_head_dequant_bytes(&c, in);
    out->logits_held_bytes = fused ? 0 : logits_held_bytes(&c, in, tokens);
    /* Fabric's _FabricModule.forward: output = precision.convert_output(output) makes the fp32
     * chunks while the head's own are still bound to `output` */
    out->forward_logits_bytes =
        in->rules != NULL && in->rules->logits_fp32_held && in->element_bytes != 4
            ? add(&c, out->logit_grads_bytes, out->logits_held_bytes)
            : out->logit_grads_bytes;
    /* under a device_map a head tied to the embedding runs on GPU 0 with it (accelerate keeps
     * tied weights on one device: infer_auto_device_map get_module_size_with_ties), the final
     * norm's output copied back to it, so the logits and the loss are GPU 0's; an untied head's
     * logits come back to GPU 0 all the same: the root module's hook returns the model's output
     * on its input's device (accelerate hooks.py: attach_align_device_hook_on_blocks gives the
     * root AlignDevicesHook(io_same_device=True), post_forward send_to_device), a copy of the
     * logits at their dtype alive on GPU 0 from the forward's end (none where a fused loss
     * returns no logits: Liger's, TRL's chunked_nll) */
    const bool head_first = in_turn && p > 1 && a->tie_word_embeddings;
    const uint64_t norm_kept_last = offloaded ? 0 : norms_kept; /* the final norm stays last */
    if (in_turn && p > 1 && a->logits) {
        if (head_first)
            out->first_stage_bytes =
                add(&c, out->first_stage_bytes, out->logits_bytes - norm_kept_last);
        else if (!fused)
            out->first_stage_bytes = add(
                &c, out->first_stage_bytes,
                mul(&c, logit_count(&c, in, tokens),
                    in->rules != NULL && in->rules->returns_fp32_logits ? 4 : in->element_bytes));
    }
    out->last_stage_bytes =
        add(&c, p > 1 ? last_stage : per_stage, head_first ? norm_kept_last : out->logits_bytes);
    if (in->recompute == GS_RECOMPUTE_FULL)
        out->last_stage_bytes = add(&c, out->last_stage_bytes, working);
    if (p == 1) /* one stage holds both */
        out->total_bytes = add(&c, out->first_stage_bytes, out->logits_bytes);
    else
        out->total_bytes = out->first_stage_bytes > out->last_stage_bytes ? out->first_stage_bytes
                                                                          : out->last_stage_bytes;
    if (p > 1) {
        /* across stages the last layer's backward is a stage's moment: the first stage's beside
         * its saved tensors, the last's once its loss's buffers are freed; what it adds to
         * total_bytes (a device_map's stages, run in turn, and a recomputed layer's working set,
         * counted in the stages already, are left as they were) */
        uint64_t excess = 0;
        if (!in_turn && in->recompute != GS_RECOMPUTE_FULL) {
            const uint64_t first = add(&c, out->first_stage_bytes, backward);
            const uint64_t loss = out->logits_bytes;
            const uint64_t last =
                add(&c, out->last_stage_bytes, backward > loss ? backward - loss : 0);
            const uint64_t most = first > last ? first : last;
            excess = most > out->total_bytes ? most - out->total_bytes : 0;
        }
        out->layer_backward_bytes = excess;
    }
    return !c.ovf;
}

/* A 64-bit mix of the key's scalars (the boost hash_combine step), to pass over most entries
 * without comparing them whole. */
static uint64_t key_mix(uint64_t h, uint64_t v)
{
    return h ^ (v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2));
}

/* Fills *k from `in`; returns the mix of its scalars. */
static uint64_t make_key(const struct gs_activation_input *in, struct gs_activation_key *k)
{
    const struct gs_parallelism *par = in->parallelism;
    memset(k, 0, sizeof(*k)); /* padding too: equal inputs make equal bytes */
    k->arch = in->arch;
    k->batch_size = in->batch_size;
    k->sequence_length = in->sequence_length;
    k->micro_batches = in->micro_batches;
    k->element_bytes = in->element_bytes;
    k->residual_bytes = in->residual_bytes;
    k->tensor = par->tensor;
    k->pipeline = par->pipeline;
    k->context = par->context;
    k->expert = par->expert;
    k->expert_tensor = par->expert_tensor;
    k->vision_images = in->vision_images;
    k->vision_patches = in->vision_patches;
    k->vision_pixels = in->vision_pixels;
    k->vision_tokens = in->vision_tokens;
    k->stream_width = in->stream_width;
    k->recompute = (uint32_t)in->recompute;
    k->trainable = (uint32_t)in->trainable;
    k->flash_attention = in->flash_attention;
    k->autocast = in->autocast;
    k->quantized_base = in->quantized_base;
    k->padding_mask = in->padding_mask;
    k->additive_mask = in->additive_mask;
    k->recurrent_torch = in->recurrent_torch;
    k->sequence_parallel = par->sequence_parallel;
    k->device_map = par->device_map;
    k->stages = par->stages;
    if (in->rules != NULL) {
        k->has_rules = true;
        k->rules = *in->rules;
    }
    if (in->adapters != NULL) {
        k->has_adapters = true;
        k->adapters = *in->adapters;
    }
    const uint64_t scalars[] = {
        (uint64_t)(uintptr_t)in->arch,
        k->batch_size,
        k->sequence_length,
        k->micro_batches,
        k->element_bytes,
        k->residual_bytes,
        k->tensor,
        k->pipeline,
        k->context,
        k->expert,
        k->expert_tensor,
        k->vision_images,
        k->vision_patches,
        k->recompute,
        k->trainable,
        gs_stage_chunks(&k->stages),
        (uint64_t)k->additive_mask << 6 | (uint64_t)k->recurrent_torch << 5 |
            (uint64_t)k->padding_mask << 4 | (uint64_t)k->flash_attention << 3 |
            (uint64_t)k->autocast << 2 | (uint64_t)k->quantized_base << 1 | k->sequence_parallel};
    uint64_t h = 0;
    for (size_t i = 0; i < sizeof(scalars) / sizeof(scalars[0]); i++)
        h = key_mix(h, scalars[i]);
    return h;
}

bool gs_activation_bytes_memo(const struct gs_activation_input *in, struct gs_activation_memo *memo,
                              struct gs_activation_result *out)
{
    if (memo == NULL)
        return gs_activation_bytes(in, out);
    struct gs_activation_key key;
    const uint64_t hash = make_key(in, &key);
    for (unsigned i = 0; i < memo->count; i++) {
        const struct gs_activation_memo_entry *e = &memo->entries[i];
        if (memo->hashes[i] == hash && memcmp(&e->key, &key, sizeof(key)) == 0) {
            *out = e->result;
            return e->ok;
        }
    }
    struct gs_activation_memo_entry *e = &memo->entries[memo->next];
    e->ok = gs_activation_bytes(in, out);
    memcpy(&e->key, &key, sizeof(key)); /* byte for byte, padding too */
    e->result = *out;
    memo->hashes[memo->next] = hash;
    memo->next = (memo->next + 1) % GS_ACTIVATION_MEMO_ENTRIES;
    if (memo->count < GS_ACTIVATION_MEMO_ENTRIES)
        memo->count++;
    return e->ok;
}
