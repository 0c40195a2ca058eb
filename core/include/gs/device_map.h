/*
 * device_map.h - how transformers' device_map="auto" lays a model over one process's GPUs
 * (accelerate's "naive pipeline parallelism": each GPU holds a run of whole decoder layers and
 * they run one after another). The placement is transformers' own (integrations/
 * accelerate.py, derived from accelerate's utils/modeling.py):
 *
 * - get_balanced_memory: per GPU, the model's bytes / GPUs plus a buffer of
 *   int(1.25 x max(the first no-split block - a decoder layer - , the mean leaf module)); every
 *   GPU but the last is held to that, the last to what it has; a bitsandbytes quantizer then
 *   takes 0.9 of every budget ("need more space for buffers that are created during
 *   quantization": adjust_max_memory in quantizer_bnb_4bit.py and quantizer_bnb_8bit.py);
 * - infer_auto_device_map: the modules in order (the token embedding, each decoder layer,
 *   the final norm, the head), each on the current GPU while it fits, else on the next;
 *   GPU 0 (a "main device") keeps room for the largest module still to place; a head tied to
 *   the embedding goes with it (its weight is counted once, with the embedding).
 *
 * Sizes are what compute_module_sizes counts: each parameter's numel x its element size, a
 * quantizer's for the weights it quantizes (bitsandbytes 4-bit: 0.5 byte,
 * HfQuantizer.param_element_size). Not modelled: a GPU's own limit when the balanced share
 * exceeds it (max_memory from torch.cuda.mem_get_info), where the weights alone then nearly fill
 * every GPU; and the reserved-but-unused memory _get_device_map adds to each GPU's budget (the
 * caching allocator's 2 MiB block left by get_max_memory's probe tensor), which moves a layer
 * only where one ends within 2 MiB of a budget.
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
    bool bitsandbytes;           /* a bitsandbytes quantizer loads it: 0.9 of each budget */
    uint64_t no_split_bytes;     /* get_balanced_memory's block: the largest of the first
                                    decoder layer of each layer class */
    uint64_t mean_leaf_bytes;    /* the mean size of the modules that hold parameters */
};

struct gs_device_map {
    uint16_t layers_on[GS_STAGES_GIVEN_MAX]; /* decoder layers on each GPU, in order */
    uint64_t head_gpu;                       /* the GPU the head (and the loss) runs on */
    uint64_t per_gpu_bytes;                  /* the budget of each GPU before the last:
                                                get_balanced_memory's, x 0.9 under
                                                bitsandbytes */
    uint64_t unused_gpu;                     /* false return: the first GPU left without a
                                                module */
};

/* Places the model as device_map="auto" does. False when a GPU is left without any module
 * (out->unused_gpu: too many GPUs for the model's modules), or on bad input. */
bool gs_device_map_place(const struct gs_device_map_input *in, struct gs_device_map *out);

#endif
