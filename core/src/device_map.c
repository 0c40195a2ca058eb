/*
 * device_map.c - transformers' device_map="auto" placement (gs/device_map.h): the greedy
 * walk of infer_auto_device_map over get_balanced_memory's budgets.
 */
#include "gs/device_map.h"

#include <string.h>

/* The modules in the order infer_auto_device_map meets them once the decoder is split into its
 * children: 0 the embedding, 1..L the layers, L + 1 the final norm, L + 2 an untied head. */
static uint64_t module_bytes(const struct gs_device_map_input *in, uint64_t k)
{
    if (k == 0)
        return in->embedding_bytes;
    if (k <= in->layers)
        return in->layer_bytes[k - 1];
    return k == in->layers + 1 ? in->norm_bytes : in->head_bytes;
}

static uint64_t add_sat(uint64_t a, uint64_t b)
{
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/* Where the walk stands: the current GPU and what it holds. */
struct cursor {
    uint64_t gpus, per_gpu; /* the map's GPUs; get_balanced_memory's budget */
    uint64_t gpu, used;
};

/* Whether `bytes` more fit on the current GPU, GPU 0 keeping `reserve` free (accelerate's
 * main device); the last GPU takes what is left (its max_memory is all it has). */
static bool fits(const struct cursor *at, uint64_t bytes, uint64_t reserve)
{
    if (at->gpu + 1 == at->gpus)
        return true;
    const uint64_t kept = at->gpu == 0 ? reserve : 0;
    return at->per_gpu >= kept && add_sat(at->used, bytes) <= at->per_gpu - kept;
}

bool gs_device_map_place(const struct gs_device_map_input *in, struct gs_device_map *out)
{
    memset(out, 0, sizeof(*out));
    const uint64_t p = in->gpus, L = in->layers;
    if (p < 2 || p > GS_STAGES_GIVEN_MAX || L == 0 || L > GS_LAYERS_MAX || in->layer_bytes == NULL)
        return false;
    const uint64_t count = L + (in->head_tied ? 2 : 3);
    /* after[k]: the largest module after module k, the room GPU 0 keeps while k is placed
     * (infer_auto_device_map's max_layer_size: the largest of the modules still to treat, the
     * module being placed excluded; a tied head counts nothing, compute_module_sizes skipping
     * tied keys) */
    uint64_t after[GS_LAYERS_MAX + 3];
    uint64_t total = 0, largest = 0;
    for (uint64_t k = count; k-- > 0;) {
        after[k] = largest;
        const uint64_t b = module_bytes(in, k);
        largest = b > largest ? b : largest;
        total = add_sat(total, b);
    }
    /* get_balanced_memory: model size // GPUs + int(1.25 x max(no-split block, mean leaf)) */
    const uint64_t block =
        in->no_split_bytes > in->mean_leaf_bytes ? in->no_split_bytes : in->mean_leaf_bytes;
    if (block > UINT64_MAX / 5)
        return false;
    out->per_gpu_bytes = add_sat(total / p, block * 5 / 4);
    if (in->bitsandbytes) /* adjust_max_memory: val * 0.90 */
        out->per_gpu_bytes = out->per_gpu_bytes / 10 * 9 + out->per_gpu_bytes % 10 * 9 / 10;
    const uint64_t per_gpu = out->per_gpu_bytes;

    bool holds[GS_STAGES_GIVEN_MAX] = {false};
    struct cursor at = {.gpus = p, .per_gpu = per_gpu};
    /* the decoder whole (embedding, layers, norm), before infer_auto_device_map splits it into
     * its children: on GPU 0 if it fits beside the room for the head */
    uint64_t decoder = 0;
    for (uint64_t k = 0; k <= L + 1; k++)
        decoder = add_sat(decoder, module_bytes(in, k));
    uint64_t k = 0;
    bool layers_split = false;
    if (fits(&at, decoder, after[L + 1])) {
        at.used = decoder;
        out->layers_on[0] = (uint16_t)L;
        holds[0] = true;
        k = L + 2;
    }
    while (k < count) {
        /* the layers whole (the ModuleList), once the embedding is placed, on the current GPU
         * if they fit beside the room for what follows them (else split, once) */
        if (k == 1 && !layers_split) {
            layers_split = true;
            uint64_t body = 0;
            for (uint64_t j = 1; j <= L; j++)
                body = add_sat(body, in->layer_bytes[j - 1]);
            if (fits(&at, body, after[L])) {
                at.used = add_sat(at.used, body);
                out->layers_on[at.gpu] = (uint16_t)(out->layers_on[at.gpu] + L);
                holds[at.gpu] = true;
                k = L + 1;
                continue;
            }
        }
        const uint64_t b = module_bytes(in, k);
        if (!fits(&at, b, after[k])) {
            /* not here: on to the next GPU, never back (current_device only grows) */
            at.gpu++;
            at.used = 0;
            continue;
        }
        at.used = add_sat(at.used, b);
        holds[at.gpu] = true;
        if (k >= 1 && k <= L)
            out->layers_on[at.gpu]++;
        /* get_module_size_with_ties: a tied head goes with the embedding */
        if (k == 0 && in->head_tied)
            out->head_gpu = at.gpu;
        if (k == L + 2)
            out->head_gpu = at.gpu;
        k++;
    }
    for (uint64_t g = 0; g < p; g++)
        if (!holds[g]) {
            out->unused_gpu = g;
            return false;
        }
    return true;
}
