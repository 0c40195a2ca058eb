/*
 * arch_count.c - exact parameter counts from a layer-by-layer description.
 *
 * The count is the sum of every module's parameters (gs_module_parameters:
 * nn.Linear(in, out) = in*out (+ out with bias), nn.Embedding = rows*width,
 * LayerNorm = 2h, RMSNorm = h), each block's modules times the decoder
 * layers of that kind, plus towers and model-level modules. The formulas
 * and the published counts they reproduce are in tests/fixtures/configs/<type>/README.md;
 * tests/core/test_arch.c and tests/server/test_models.c check one or more
 * published models per model type.
 */
#include "gs/arch.h"

#include "gs/units.h"

#include <string.h>

struct tally {
    bool ovf;
    uint64_t largest;
    uint64_t parts[GS_PART_COUNT];
    uint64_t inactive; /* routed experts a token does not use */
    uint64_t tokens;   /* the token embedding */
    uint64_t lookups;  /* other tables read by token id (GS_MOD_LOOKUP) */
    uint64_t buffers;  /* stored tensors transformers registers as buffers (GS_MOD_BUFFER) */
};

/* Adds `layers` copies of a module under its part (or `part` when a tower
 * overrides it); tracks the largest single module and the experts a token
 * skips. */
static void add_module(struct tally *t, const struct gs_module *m, const struct gs_block *b,
                       uint64_t layers, uint8_t part)
{
    if (layers == 0)
        return;
    const uint8_t where = part < GS_PART_COUNT ? part : m->part;
    if ((m->flags & GS_MOD_BUFFER) && where != GS_PART_MTP) {
        /* stored, not a parameter; an MTP layer's whole tensors count as stored already */
        t->buffers = gs_add(t->buffers, gs_mul(gs_module_parameters(m, &t->ovf), layers, &t->ovf),
                            &t->ovf);
        return;
    }
    const uint64_t n = gs_module_parameters(m, &t->ovf);
    const uint64_t one = n / (m->count ? m->count : 1);
    if (one > t->largest)
        t->largest = one;
    t->parts[where] = gs_add(t->parts[where], gs_mul(n, layers, &t->ovf), &t->ovf);
    if ((m->flags & GS_MOD_EXPERT) && b != NULL && b->mlp.experts > b->mlp.top_k &&
        where == GS_PART_EXPERTS)
        t->inactive = gs_add(t->inactive,
                             gs_mul(gs_mul(one, b->mlp.experts - b->mlp.top_k, &t->ovf), layers,
                                    &t->ovf),
                             &t->ovf);
    if (m->flags & GS_MOD_TOKENS)
        t->tokens = gs_add(t->tokens, n, &t->ovf);
    if ((m->flags & GS_MOD_LOOKUP) && where != GS_PART_MTP) /* not in `total` either */
        t->lookups = gs_add(t->lookups, gs_mul(n, layers, &t->ovf), &t->ovf);
}

static void add_block(struct tally *t, const struct gs_block *b, uint64_t layers, uint8_t part)
{
    for (size_t i = 0; i < b->module_count; i++)
        add_module(t, &b->modules[i], b, layers, part);
}

/* A tally's parts into a count (total without the MTP layers transformers skips); the
 * model-level fields (active, largest_module, buffers) are the callers'. */
static void count_parts(struct tally *t, struct gs_param_count *c)
{
    memset(c, 0, sizeof(*c));
    c->embedding = t->parts[GS_PART_EMBEDDING];
    c->attention = t->parts[GS_PART_ATTENTION];
    c->mlp = t->parts[GS_PART_MLP];
    c->experts = t->parts[GS_PART_EXPERTS];
    c->norms = t->parts[GS_PART_NORMS];
    c->lm_head = t->parts[GS_PART_LM_HEAD];
    c->other = t->parts[GS_PART_OTHER];
    c->vision = t->parts[GS_PART_VISION];
    c->audio = t->parts[GS_PART_AUDIO];
    c->mtp = t->parts[GS_PART_MTP];
    for (int p = 0; p < GS_PART_COUNT; p++)
        if (p != GS_PART_MTP)
            c->total = gs_add(c->total, t->parts[p], &t->ovf);
}

void gs_arch_count_block(const struct gs_arch *a, size_t block, struct gs_param_count *out,
                         bool *ovf)
{
    struct tally t;
    memset(&t, 0, sizeof(t));
    if (block < a->block_count)
        add_block(&t, &a->blocks[block], 1, GS_PART_COUNT);
    count_parts(&t, out);
    /* as gs_arch_count_params: the routed experts a token skips and the lookup tables
     * (read, not multiplied) do no work */
    const uint64_t idle = gs_add(t.inactive, t.lookups, &t.ovf);
    out->active = out->total > idle ? out->total - idle : 0;
    if (t.ovf)
        *ovf = true;
}

enum gs_status gs_arch_count_params(const struct gs_arch *a, struct gs_param_count *out,
                                    struct gs_error *err)
{
    enum gs_status st = gs_arch_validate(a, err);
    if (st != GS_OK)
        return st;
    struct tally t;
    memset(&t, 0, sizeof(t));
    uint64_t counts[GS_BLOCKS_MAX];
    gs_arch_count_weight_blocks(a, 0, a->num_hidden_layers, counts);
    for (size_t b = 0; b < a->block_count; b++)
        add_block(&t, &a->blocks[b], counts[b], GS_PART_COUNT);
    for (size_t i = 0; i < a->tower_count; i++) {
        const struct gs_tower *tw = &a->towers[i];
        if (tw->block < a->block_count)
            add_block(&t, &a->blocks[tw->block], tw->layers, tw->part);
    }
    for (size_t i = 0; i < a->module_count; i++)
        add_module(&t, &a->modules[i], NULL, 1, GS_PART_COUNT);

    struct gs_param_count c;
    count_parts(&t, &c);
    c.buffers = t.buffers;
    /* routed experts beyond top-k, an untied input
     * lookup and the vision/audio encoders (not run per text token) are not
     * active */
    uint64_t inactive = gs_add(gs_add(t.inactive, c.vision, &t.ovf), c.audio, &t.ovf);
    inactive = gs_add(inactive, t.lookups, &t.ovf); /* per-layer embeddings: read, not multiplied */
    if (!a->tie_word_embeddings || !a->logits)
        inactive = gs_add(inactive, t.tokens, &t.ovf);
    c.active = c.total > inactive ? c.total - inactive : 0;
    c.largest_module = t.largest;
    if (t.ovf)
        return gs_error_add(err, GS_ERR_RANGE, "", "the parameter count overflows 64 bits");
    *out = c;
    return GS_OK;
}
