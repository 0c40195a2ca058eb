/*
 * sparse_attention.c - sparse and compressed latent attention: DeepSeek-V4, GLM-5 (glm_moe_dsa), LongCat-Flash (see reader.h).
 */
#include "reader.h"

const struct model_type MODELS_SPARSE_ATTENTION[] = {
    {NULL, NULL, NULL},
};
