/*
 * multimodal.h - the vision towers of multimodal.c that readers of other lineages build beside
 * their own language models (GLM-5.3-Flash's, sparse_attention.c, is GLM-OCR's tower).
 */
#ifndef GS_READERS_MULTIMODAL_H
#define GS_READERS_MULTIMODAL_H

#include "readers/reader.h"

#include <stdint.h>

/* Where a tower departs from GLM-OCR's: the vision_config key that sizes the patch merger's
 * gated MLP (GLM-OCR's is out_hidden_size x in_channels wide), and the pixels of the largest
 * image the model's processor takes (smart_resize's max_pixels over its temporal_patch_size
 * frames), which bounds an image's tokens. A NULL form is GLM-OCR's own. */
struct glm_vision_form {
    const char *merger_width_key;
    uint64_t max_pixels;
};

/* GlmOcrVisionModel (transformers models/glm_ocr/modular_glm_ocr.py) from vision_config `v`:
 * the patch embedding, the blocks (qkv and proj biased as attention_bias says, q/k norms over
 * head_dim, a gated MLP intermediate_size wide), post_layernorm, the downsampling convolution
 * and the patch merger, as a vision tower and model-level modules of `a`, with the image the
 * processor's largest makes (a->mm_image) and the width of what it hands the language model
 * (a->mm_embed_width). Errors at `v`'s pointers. */
void glm_ocr_vision_read(struct model_reader *v, struct gs_arch *a,
                         const struct glm_vision_form *form);

#endif
