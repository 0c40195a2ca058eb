/*
 * moe.c - mixture-of-experts decoders of 2025-26 with their own routers and layouts (Hunyuan, Ling/Bailing, ...) (see reader.h).
 */
#include "reader.h"

const struct model_type MODELS_MOE[] = {
    {NULL, NULL, NULL},
};
