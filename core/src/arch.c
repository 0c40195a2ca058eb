/*
 * arch.c - questions about a layer-by-layer description (see gs/arch.h):
 * which layers a pipeline stage holds, which layers route to experts, and
 * validation.
 */
#include "gs/arch.h"

#include "gs/units.h"

#include <string.h>

/* vllm/distributed/utils.py get_pp_indices: L // p layers per stage; the remainder goes one
 * layer each to the stages p-2, p-3, ... (the last stage, which also holds the head and
 * sampler, keeps the base share). Stage s's first layer and its count. */
static void vllm_stage(uint64_t L, uint64_t p, uint64_t s, uint64_t *start, uint64_t *n)
{
    const uint64_t base = L / p, extra = L % p, from = p - 1 - extra; /* first stage with more */
    *start = s * base + (s > from ? s - from : 0);
    *n = base + (extra > 0 && s >= from && s + 1 < p ? 1 : 0);
}

/* torchtitan _generate_llm_fqn_per_model_part: L + 2 slots, the embedding one of the first
 * stage's and the norm and head one of the last's; base = (L + 2) / p slots a stage and the
 * first (L + 2) % p stages one more. Stage s's first layer and its count. */
static void torchtitan_stage(uint64_t L, uint64_t p, uint64_t s, uint64_t *start, uint64_t *n)
{
    const uint64_t slots = L + 2, base = slots / p, extra = slots % p;
    *start = s * base + (s < extra ? s : extra) - (s > 0 ? 1 : 0);
    *n = base + (s < extra ? 1 : 0) - (s == 0 ? 1 : 0) - (s + 1 == p ? 1 : 0);
}

/* Under an interleaved torchtitan schedule: stage s's layers over its chunks, torchtitan's
 * split over the p v virtual stages, stage s holding s, s + p, ... (pipeline_parallel.py
 * _get_pp_rank_to_stage_indices_mapping, "loop" style) */
static uint64_t torchtitan_chunked(uint64_t L, uint64_t p, uint64_t v, uint64_t s)
{
    uint64_t layers = 0, start, n;
    for (uint64_t c = 0; c < v; c++) {
        torchtitan_stage(L, p * v, c * p + s, &start, &n);
        layers += n;
    }
    return layers;
}

/* Megatron-LM's split with `head` and `tail` layers on the end stages and the rest even over the
 * middle ones: stage s's first layer (s = p: L). */
static uint64_t megatron_first(uint64_t L, uint64_t p, uint64_t head, uint64_t tail, uint64_t s)
{
    const uint64_t middle = p > 2 ? (L - head - tail) / (p - 2) : 0;
    return s == 0 ? 0 : s >= p ? L : head + (s - 1) * middle;
}

bool gs_stage_megatron_ends(uint64_t L, uint64_t p, uint64_t *first_layers, uint64_t *last_layers)
{
    if (p < 2 || L < p || L % p == 0)
        return false;
    /* middle stages of m layers each, the first and last sharing the rest r = L - (p-2) m,
     * the first the smaller half; the fullest stage is max(m, ceil(r / 2)), at best
     * ceil(L / p), reached with m = ceil(L / p) whenever r leaves both ends a layer */
    bool found = false;
    uint64_t best = 0;
    for (uint64_t m = (L + p - 1) / p; m >= 1; m--) {
        if ((p - 2) * m > L)
            continue;
        const uint64_t r = L - (p - 2) * m;
        if (r < 2)
            continue;
        const uint64_t last = (r + 1) / 2, most = last > m ? last : m;
        if (!found || most < best) {
            found = true;
            best = most;
            *first_layers = r / 2;
            *last_layers = last;
        }
        if (p == 2)
            break; /* no middle stages: one split */
    }
    return found;
}

struct gs_stage_plan gs_stage_rule(enum gs_stage_split split)
{
    struct gs_stage_plan plan;
    memset(&plan, 0, sizeof(plan));
    plan.split = split;
    return plan;
}

bool gs_stage_plan_same(const struct gs_stage_plan *a, const struct gs_stage_plan *b)
{
    if (a->split != b->split || gs_stage_chunks(a) != gs_stage_chunks(b))
        return false;
    if (a->split != GS_SPLIT_GIVEN)
        return true;
    return a->given_count == b->given_count && a->given_count <= GS_STAGES_GIVEN_MAX &&
           memcmp(a->given, b->given, a->given_count * sizeof(a->given[0])) == 0;
}

/* A listed partition: one count a stage, summing to L, none empty but the ends; under
 * interleaving one a virtual stage, any of them empty (Megatron-LM's layouts: "Empty stages are
 * allowed", docs/user-guide/features/pipeline_parallel_layout.md, whose DeepSeek-V3 layout
 * ends in a stage of the MTP layer and one of the loss). */
static bool given_fits(const struct gs_stage_plan *plan, uint64_t L, uint64_t p)
{
    const uint64_t v = gs_stage_chunks(plan), n = p * v;
    if (plan->given_count != n || n > GS_STAGES_GIVEN_MAX)
        return false;
    uint64_t sum = 0;
    for (uint64_t s = 0; s < n; s++) {
        if (plan->given[s] == 0 && s > 0 && s + 1 < n && v == 1)
            return false;
        sum += plan->given[s];
    }
    return sum == L;
}

/* A listed stage's layers: its own count, or under interleaving its chunks' (the virtual
 * stages s, s + p, ...). */
static uint64_t given_layers(const struct gs_stage_plan *plan, uint64_t p, uint64_t stage)
{
    uint64_t n = 0;
    for (uint64_t c = 0; c < gs_stage_chunks(plan); c++)
        n += plan->given[c * p + stage];
    return n;
}

bool gs_stage_range(const struct gs_stage_plan *plan, uint64_t L, uint64_t stages, uint64_t stage,
                    uint64_t *first, uint64_t *end)
{
    const uint64_t p = stages ? stages : 1;
    *first = 0;
    *end = 0;
    if (stage >= p)
        return false;
    if (plan->split == GS_SPLIT_GIVEN) {
        if (!given_fits(plan, L, p))
            return false;
        for (uint64_t s = 0; s < stage; s++)
            *first += given_layers(plan, p, s);
        *end = *first + given_layers(plan, p, stage);
        return true;
    }
    if (p == 1) {
        *end = L;
        return true;
    }
    if (L < p)
        return false;
    uint64_t start = 0, n = 0;
    switch (plan->split) {
    case GS_SPLIT_GIVEN:
        return false; /* placed above */
    case GS_SPLIT_DIVIDES:
        if (L % p != 0)
            return false;
        start = stage * (L / p);
        n = L / p;
        break;
    case GS_SPLIT_VLLM:
        vllm_stage(L, p, stage, &start, &n);
        break;
    case GS_SPLIT_DEVICE_MAP: /* placed later by bytes; a stand-in that fits any p <= L */
    case GS_SPLIT_TRTLLM: /* torch.tensor_split: the first L % p stages one layer more */
        n = L / p + (stage < L % p ? 1 : 0);
        start = stage * (L / p) + (stage < L % p ? stage : L % p);
        break;
    case GS_SPLIT_MEGATRON: {
        uint64_t head = L / p, tail = L / p;
        if (L % p != 0 && !gs_stage_megatron_ends(L, p, &head, &tail))
            return false;
        start = megatron_first(L, p, head, tail, stage);
        n = megatron_first(L, p, head, tail, stage + 1) - start;
        break;
    }
    case GS_SPLIT_TORCHTITAN: {
        /* L >= p >= 2 leaves every stage at least one slot, so the counts stay >= 0; under
         * interleaving the same over the p v virtual stages */
        const uint64_t v = gs_stage_chunks(plan);
        if (v == 1) {
            torchtitan_stage(L, p, stage, &start, &n);
            break;
        }
        if (L < p * v)
            return false;
        for (uint64_t s = 0; s < stage; s++)
            start += torchtitan_chunked(L, p, v, s);
        n = torchtitan_chunked(L, p, v, stage);
        break;
    }
    }
    *first = start;
    *end = start + n;
    return true;
}

bool gs_stage_bounds(const struct gs_stage_plan *plan, uint64_t L, uint64_t stages,
                     uint64_t *bounds)
{
    const uint64_t p = stages ? stages : 1;
    bounds[0] = 0;
    if (plan->split == GS_SPLIT_GIVEN) {
        if (!given_fits(plan, L, p))
            return false;
        for (uint64_t s = 0; s < p; s++)
            bounds[s + 1] = bounds[s] + given_layers(plan, p, s);
        return true;
    }
    if (p == 1) {
        bounds[1] = L;
        return true;
    }
    uint64_t head = 0, tail = 0, first, end;
    if (plan->split == GS_SPLIT_MEGATRON && L >= p && L % p != 0) {
        /* the ends once, not once a stage */
        if (!gs_stage_megatron_ends(L, p, &head, &tail))
            return false;
        for (uint64_t s = 1; s <= p; s++)
            bounds[s] = megatron_first(L, p, head, tail, s);
        return true;
    }
    for (uint64_t s = 0; s < p; s++) {
        if (!gs_stage_range(plan, L, p, s, &first, &end))
            return false;
        bounds[s + 1] = end;
    }
    return true;
}

uint64_t gs_stage_layers_max(const struct gs_stage_plan *plan, uint64_t L, uint64_t stages)
{
    const uint64_t p = stages ? stages : 1;
    if (p > GS_LAYERS_MAX || (p > L && plan->split != GS_SPLIT_GIVEN))
        return p == 1 ? L : 0;
    uint64_t bounds[GS_LAYERS_MAX + 1], most = 0;
    if (!gs_stage_bounds(plan, L, p, bounds))
        return 0;
    for (uint64_t s = 0; s < p; s++)
        if (bounds[s + 1] - bounds[s] > most)
            most = bounds[s + 1] - bounds[s];
    return most;
}

uint64_t gs_stage_chunks(const struct gs_stage_plan *plan)
{
    return plan->chunks > 1 ? plan->chunks : 1;
}

bool gs_stage_chunks_fit(const struct gs_stage_plan *plan, const uint64_t *bounds, uint64_t stages)
{
    const uint64_t v = gs_stage_chunks(plan);
    if (plan->split == GS_SPLIT_GIVEN || plan->split == GS_SPLIT_TORCHTITAN)
        return true; /* each chunk listed (given_fits), or placed by torchtitan's rule */
    for (uint64_t s = 0; s < stages && v > 1; s++)
        if ((bounds[s + 1] - bounds[s]) % v != 0)
            return false;
    return true;
}

void gs_stage_chunk_range(const struct gs_stage_plan *plan, const uint64_t *bounds, uint64_t L,
                          uint64_t stages, uint64_t stage, uint64_t chunk, uint64_t *first,
                          uint64_t *end)
{
    const uint64_t v = gs_stage_chunks(plan);
    if (v == 1) {
        *first = bounds[stage];
        *end = bounds[stage + 1];
        return;
    }
    if (plan->split == GS_SPLIT_GIVEN) { /* virtual stages listed in order, chunk c of stage s
                                            the (c p + s)-th */
        const uint64_t at = chunk * stages + stage;
        *first = 0;
        for (uint64_t j = 0; j < at; j++)
            *first += plan->given[j];
        *end = *first + plan->given[at];
        return;
    }
    if (plan->split == GS_SPLIT_TORCHTITAN) { /* its rule over the virtual stages */
        uint64_t n;
        torchtitan_stage(L, stages * v, chunk * stages + stage, first, &n);
        *end = *first + n;
        return;
    }
    *first = chunk * (L / v) + bounds[stage] / v;
    *end = *first + (bounds[stage + 1] - bounds[stage]) / v;
}

void gs_arch_count_stage_blocks(const struct gs_arch *a, const struct gs_stage_plan *plan,
                                const uint64_t *bounds, uint64_t stages, uint64_t stage,
                                uint64_t counts[GS_BLOCKS_MAX])
{
    const uint64_t v = gs_stage_chunks(plan);
    if (v == 1) {
        gs_arch_count_blocks(a, bounds[stage], bounds[stage + 1], counts);
        return;
    }
    uint64_t part[GS_BLOCKS_MAX], first, end;
    memset(counts, 0, sizeof(uint64_t) * GS_BLOCKS_MAX);
    for (uint64_t c = 0; c < v; c++) {
        gs_stage_chunk_range(plan, bounds, a->num_hidden_layers, stages, stage, c, &first, &end);
        gs_arch_count_blocks(a, first, end, part);
        for (size_t k = 0; k < GS_BLOCKS_MAX; k++)
            counts[k] += part[k];
    }
}

void gs_arch_stage(const struct gs_arch *a, const struct gs_stage_plan *plan, uint64_t stages,
                   uint64_t stage, uint64_t *first, uint64_t *end)
{
    const uint64_t p = stages ? stages : 1;
    if (p == 1 || stage >= p) {
        *first = 0;
        *end = stage >= p && p > 1 ? 0 : a->num_hidden_layers;
        return;
    }
    if (plan != NULL && gs_stage_range(plan, a->num_hidden_layers, p, stage, first, end))
        return;
    static const struct gs_stage_plan vllm = {.split = GS_SPLIT_VLLM};
    gs_stage_range(&vllm, a->num_hidden_layers, p, stage, first, end);
}

void gs_arch_count_blocks(const struct gs_arch *a, uint64_t first, uint64_t end,
                          uint64_t counts[GS_BLOCKS_MAX])
{
    if (first == 0 && end >= a->num_hidden_layers && a->num_hidden_layers <= GS_LAYERS_MAX) {
        /* the whole stack: the builders keep these counts */
        memcpy(counts, a->block_layers, sizeof(uint64_t) * GS_BLOCKS_MAX);
        return;
    }
    memset(counts, 0, sizeof(uint64_t) * GS_BLOCKS_MAX);
    if (end > a->num_hidden_layers)
        end = a->num_hidden_layers;
    if (end > GS_LAYERS_MAX)
        end = GS_LAYERS_MAX;
    const uint8_t only = a->num_hidden_layers ? a->layer_block[0] : GS_BLOCKS_MAX;
    if (only < GS_BLOCKS_MAX && a->block_layers[only] == a->num_hidden_layers) {
        /* one kind of layer (most dense models): a pipeline stage's count is its length */
        counts[only] = end > first ? end - first : 0;
        return;
    }
    for (uint64_t l = first; l < end; l++) {
        const uint8_t b = a->layer_block[l];
        if (b < GS_BLOCKS_MAX)
            counts[b]++;
    }
}

void gs_arch_weight_counts(const struct gs_arch *a, uint64_t counts[GS_BLOCKS_MAX])
{
    for (size_t b = 0; b < GS_BLOCKS_MAX; b++)
        if (a->block_weight_layers[b] != 0 && counts[b] > a->block_weight_layers[b])
            counts[b] = a->block_weight_layers[b];
}

void gs_arch_count_weight_blocks(const struct gs_arch *a, uint64_t first, uint64_t end,
                                 uint64_t counts[GS_BLOCKS_MAX])
{
    gs_arch_count_blocks(a, first, end, counts);
    gs_arch_weight_counts(a, counts);
}

uint64_t gs_arch_moe_layers(const struct gs_arch *a)
{
    uint64_t counts[GS_BLOCKS_MAX], n = 0;
    gs_arch_count_blocks(a, 0, a->num_hidden_layers, counts);
    for (size_t b = 0; b < a->block_count; b++)
        if (a->blocks[b].mlp.kind == GS_MLP_MOE)
            n += counts[b];
    return n;
}

void gs_attention_qkv_widths(const struct gs_attention *s, uint64_t widths[3])
{
    widths[0] = s->heads * s->head_dim;
    widths[1] = s->kv_heads * s->head_dim;
    widths[2] = s->kv_heads * s->v_head_dim;
}

bool gs_attention_reuses_kv(const struct gs_attention *s, uint32_t hf_release)
{
    return s->kv_shared && (hf_release == 0 || hf_release >= s->kv_shared_from);
}

bool gs_block_holds_kv_own(const struct gs_block *b)
{
    for (size_t i = 0; i < b->module_count; i++)
        if (b->modules[i].flags & GS_MOD_KV_OWN)
            return true;
    return false;
}

const struct gs_block *gs_arch_kv_source(const struct gs_arch *a, const struct gs_block *b)
{
    for (size_t k = 0; k < a->block_count; k++) {
        const struct gs_block *s = &a->blocks[k];
        if (s->mixer == GS_MIXER_ATTENTION && !s->attn.kv_shared && s->attn.span == b->attn.span &&
            s->attn.head_dim == b->attn.head_dim && s->attn.kv_heads == b->attn.kv_heads &&
            gs_block_holds_kv_own(s))
            return s;
    }
    return NULL;
}

const struct gs_module *gs_arch_token_embedding(const struct gs_arch *a)
{
    for (size_t i = 0; i < a->module_count; i++)
        if (a->modules[i].flags & GS_MOD_TOKENS)
            return &a->modules[i];
    return NULL;
}

const struct gs_block *gs_arch_moe_block(const struct gs_arch *a)
{
    const struct gs_block *best = NULL;
    uint64_t counts[GS_BLOCKS_MAX];
    gs_arch_count_blocks(a, 0, a->num_hidden_layers, counts);
    for (size_t b = 0; b < a->block_count; b++) {
        const struct gs_block *k = &a->blocks[b];
        if (counts[b] > 0 && k->mlp.kind == GS_MLP_MOE && k->mlp.experts > 0 &&
            (best == NULL || k->mlp.experts > best->mlp.experts))
            best = k;
    }
    return best;
}

bool gs_module_is_router(const struct gs_block *b, const struct gs_module *m)
{
    return m->kind == GS_MODULE_LINEAR && m->part == GS_PART_EXPERTS &&
           !(m->flags & GS_MOD_EXPERT) && m->out == gs_mlp_router_outputs(&b->mlp);
}

uint64_t gs_mlp_router_outputs(const struct gs_mlp *mlp)
{
    return mlp->experts + mlp->zero_experts;
}

uint64_t gs_recurrent_groups(const struct gs_recurrent *rec)
{
    return rec->state_cols && rec->conv_channels > rec->inner
               ? (rec->conv_channels - rec->inner) / (2 * rec->state_cols)
               : 0;
}

bool gs_arch_class_in(const struct gs_arch *a, const char *const *names)
{
    for (const char *const *name = names; name && *name; name++)
        if (strcmp(*name, a->architecture) == 0)
            return true;
    return false;
}

bool gs_arch_is_deepseek_v4(const struct gs_arch *a)
{
    static const char *const classes[] = {"DeepseekV4ForCausalLM", "DeepseekV4ForCausalLMNextN",
                                          "DeepseekV4ForCausalLMDSpark", NULL};
    return a != NULL && gs_arch_class_in(a, classes);
}

bool gs_arch_is_deepseek_v41(const struct gs_arch *a)
{
    static const char *const classes[] = {"DeepseekV41ForCausalLM", NULL};
    return a != NULL && gs_arch_class_in(a, classes);
}

bool gs_arch_has_mla(const struct gs_arch *a)
{
    const struct gs_block *b = gs_arch_attention_block(a);
    return b != NULL && b->mixer == GS_MIXER_MLA;
}

bool gs_block_selects_topk(const struct gs_block *b)
{
    return b->mixer == GS_MIXER_MLA || (b->mixer == GS_MIXER_ATTENTION && b->attn.index_heads > 0);
}

bool gs_block_has_host_table(const struct gs_block *b)
{
    for (size_t i = 0; i < b->module_count; i++)
        if (b->modules[i].flags & GS_MOD_HOST_TABLE)
            return true;
    return false;
}

bool gs_arch_has_sparse_mla(const struct gs_arch *a)
{
    for (size_t b = 0; a != NULL && b < a->block_count; b++)
        if (a->blocks[b].mixer == GS_MIXER_MLA && a->blocks[b].attn.index_topk > 0)
            return true;
    return false;
}

const struct gs_block *gs_arch_attention_block(const struct gs_arch *a)
{
    uint64_t counts[GS_BLOCKS_MAX];
    gs_arch_count_blocks(a, 0, a->num_hidden_layers, counts);
    for (size_t b = 0; b < a->block_count; b++)
        if (counts[b] > 0 &&
            (a->blocks[b].mixer == GS_MIXER_ATTENTION || a->blocks[b].mixer == GS_MIXER_MLA))
            return &a->blocks[b];
    return NULL;
}

bool gs_arch_attention_only(const struct gs_arch *a)
{
    uint64_t counts[GS_BLOCKS_MAX];
    gs_arch_count_blocks(a, 0, a->num_hidden_layers, counts);
    bool any = false;
    for (size_t b = 0; b < a->block_count; b++) {
        const struct gs_block *k = &a->blocks[b];
        if (counts[b] == 0)
            continue;
        if ((k->mixer != GS_MIXER_ATTENTION && k->mixer != GS_MIXER_MLA) ||
            k->rec.conv_channels != 0 || k->rec.state_heads != 0)
            return false;
        any = true;
    }
    return any;
}

uint64_t gs_arch_rope_table_bytes(const struct gs_arch *a, uint64_t element_bytes, bool *ovf)
{
    uint64_t bytes = 0;
    for (size_t i = 0; i < a->rope_table_count && i < GS_ROPE_TABLES_MAX; i++)
        bytes = gs_add(bytes, gs_mul(gs_mul(a->rope_tables[i].rows, a->rope_tables[i].dim, ovf),
                                     element_bytes, ovf),
                       ovf);
    return bytes;
}

uint64_t gs_module_parameters(const struct gs_module *m, bool *ovf)
{
    uint64_t n;
    switch ((enum gs_module_kind)m->kind) {
    case GS_MODULE_LINEAR:
        n = gs_add(gs_mul(m->in, m->out, ovf), (m->flags & GS_MOD_BIAS) ? m->out : 0, ovf);
        break;
    case GS_MODULE_NORM:
        n = (m->flags & GS_MOD_BARE) ? 0 : gs_mul(m->out, (m->flags & GS_MOD_BIAS) ? 2 : 1, ovf);
        break;
    case GS_MODULE_EMBEDDING:
    case GS_MODULE_TENSOR:
    default:
        n = gs_mul(m->in, m->out, ovf);
        break;
    }
    return gs_mul(n, m->count ? m->count : 1, ovf);
}

/* A required dimension: positive and at most GS_ARCH_DIM_MAX. */
static void require(const char *field, uint64_t value, struct gs_error *err, bool *ok)
{
    if (value == 0) {
        gs_error_add(err, GS_ERR_INVALID, field, "must be a positive integer");
        *ok = false;
    } else if (value > GS_ARCH_DIM_MAX) {
        gs_error_add(err, GS_ERR_RANGE, field, "%llu is larger than any real model uses (limit %llu)",
                     (unsigned long long)value, (unsigned long long)GS_ARCH_DIM_MAX);
        *ok = false;
    }
}

static void validate_attention(const struct gs_block *b, struct gs_error *err, bool *ok)
{
    const struct gs_attention *s = &b->attn;
    require("/num_attention_heads", s->heads, err, ok);
    if (b->mixer == GS_MIXER_MLA) {
        require("/kv_lora_rank", s->kv_lora_rank, err, ok);
        /* a latent without a rotary part is allowed (GLM-5.3-Flash's NoPE MLA: qk_rope_head_dim
         * 0), a head without width is not */
        require("/qk_nope_head_dim", s->qk_nope_head_dim + s->qk_rope_head_dim, err, ok);
        require("/v_head_dim", s->v_head_dim, err, ok);
        return;
    }
    require("/head_dim", s->head_dim, err, ok);
    require("/num_key_value_heads", s->kv_heads, err, ok);
    if (*ok && s->heads % s->kv_heads != 0) {
        gs_error_add(err, GS_ERR_INVALID, "/num_key_value_heads",
                     "num_attention_heads (%llu) must be a multiple of num_key_value_heads (%llu)",
                     (unsigned long long)s->heads, (unsigned long long)s->kv_heads);
        *ok = false;
    }
    if (s->span != GS_SPAN_FULL)
        require("/sliding_window", s->window, err, ok);
}

static void validate_block(const struct gs_block *b, struct gs_error *err, bool *ok)
{
    if (b->mixer == GS_MIXER_ATTENTION || b->mixer == GS_MIXER_MLA)
        validate_attention(b, err, ok);
    if (b->mlp.kind == GS_MLP_MOE) {
        require("/num_experts", b->mlp.experts, err, ok);
        require("/num_experts_per_tok", b->mlp.top_k, err, ok);
        if (*ok && b->mlp.top_k > b->mlp.experts) {
            gs_error_add(err, GS_ERR_INVALID, "/num_experts_per_tok",
                         "routes each token to %llu experts but there are only %llu",
                         (unsigned long long)b->mlp.top_k, (unsigned long long)b->mlp.experts);
            *ok = false;
        }
    }
    for (size_t i = 0; i < b->module_count; i++) {
        const struct gs_module *m = &b->modules[i];
        if (m->in > GS_ARCH_DIM_MAX || m->out > GS_ARCH_DIM_MAX || m->count > GS_ARCH_DIM_MAX) {
            gs_error_add(err, GS_ERR_RANGE, "", "module %s is %llu x %llu, larger than any real "
                         "model uses", m->name, (unsigned long long)m->in,
                         (unsigned long long)m->out);
            *ok = false;
        }
    }
}

enum gs_status gs_arch_validate(const struct gs_arch *a, struct gs_error *err)
{
    bool ok = true;
    require("/hidden_size", a->hidden_size, err, &ok);
    require("/vocab_size", a->vocab_size, err, &ok);
    require("/num_hidden_layers", a->num_hidden_layers, err, &ok);
    if (a->num_hidden_layers > GS_LAYERS_MAX) {
        gs_error_add(err, GS_ERR_UNSUPPORTED, "/num_hidden_layers",
                     "%llu layers: gpusizer describes at most %d (the deepest published decoders "
                     "have about 126)",
                     (unsigned long long)a->num_hidden_layers, GS_LAYERS_MAX);
        return GS_ERR_UNSUPPORTED;
    }
    if (a->overflow)
        return gs_error_add(err, GS_ERR_UNSUPPORTED, "",
                            "the architecture has more kinds of layers or modules than gpusizer "
                            "describes (%d kinds of layer, %d modules each)",
                            GS_BLOCKS_MAX, GS_BLOCK_MODULES_MAX);
    if (!ok)
        return GS_ERR_INVALID;
    for (uint64_t l = 0; l < a->num_hidden_layers; l++) {
        if (a->layer_block[l] >= a->block_count)
            return gs_error_add(err, GS_ERR_INTERNAL, "", "layer %llu names no layer kind",
                                (unsigned long long)l);
    }
    for (size_t b = 0; b < a->block_count; b++)
        validate_block(&a->blocks[b], err, &ok);
    return ok ? GS_OK : GS_ERR_INVALID;
}
