/*
 * device_map.h - how transformers' device_map="auto" lays a model over one process's GPUs
 * (accelerate's "naive pipeline parallelism": each GPU holds a run of whole decoder layers and
 * they run one after another). The placement is transformers' own (integrations/
 * accelerate.py, derived from accelerate's utils/modeling.py):
 *
 * - get_balanced_memory: per GPU, the model's bytes / GPUs plus a buffer of
 *   int(1.25 x max(the first no-split block - a decoder layer - , the mean leaf module)); every
 *   GPU but the last is held to that, the last to what it has;
 * - infer_auto_device_map: the modules in order (the token embedding, each decoder layer,
 *   the final norm, the head), each on the current GPU while it fits, else on the next;
 *   GPU 0 (a "main device") keeps room for the largest module still to place; a head tied to
 *   the embedding goes with it (its weight is counted once, with the embedding).
 *
 * Sizes are what compute_module_sizes counts: each parameter's numel x its element size, a
 * quantizer's for the weights it quantizes (bitsandbytes 4-bit: 0.5 byte,
 * HfQuantizer.param_element_size). Not modelled: a GPU's own limit when the balanced share
 * exceeds it (max_memory from torch.cuda.mem_get_info, x 0.9 under bitsandbytes), where the
 * weights alone then nearly fill every GPU and training does not fit anyway.
 */
#ifndef GS_DEVICE_MAP_H
#define GS_DEVICE_MAP_H

#include "gs/arch.h"

#include <stdbool.h>
#include <stdint.h>

struct gs_device_map_input {
    uint64_t gpus;               /* GPUs the map spans, 2..GS_STAGES_GIVEN_MAX */
    uint64_t layers;             /* decoder layers, 1..GS_LAYERS_MAX */
    const uint64_t *layer_bytes; /* each decoder layer's size, in order */
    uint64_t embedding_bytes;    /* what precedes the layers: the token embedding (with the
                                    encoder towers that run before it) */
    uint64_t norm_bytes;         /* the final norm */
    uint64_t head_bytes;         /* the output head; 0 when tied to the embedding */
    bool head_tied;              /* the head shares the embedding's weight: placed with it */
    uint64_t no_split_bytes;     /* get_balanced_memory's block: the largest of the first
                                    decoder layer of each layer class */
    uint64_t mean_leaf_bytes;    /* the mean size of the modules that hold parameters */
};

struct gs_device_map {
    uint16_t layers_on[GS_STAGES_GIVEN_MAX]; /* decoder layers on each GPU, in order */
    uint64_t head_gpu;                       /* the GPU the head (and the loss) runs on */
    uint64_t per_gpu_bytes;                  /* get_balanced_memory's budget for GPUs before
                                                the last */
    uint64_t unused_gpu;                     /* false return: the first GPU left without a
                                                module */
};

/* Places the model as device_map="auto" does. False when a GPU is left without any module
 * (out->unused_gpu: too many GPUs for the model's modules), or on bad input. */
bool gs_device_map_place(const struct gs_device_map_input *in, struct gs_device_map *out);

#endif
