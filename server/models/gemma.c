/*
 * gemma.c - Gemma 4 and Gemma 3n: dense and MoE Gemma with per-layer embeddings, shared KV, vision and audio towers (see reader.h).
 */
#include "reader.h"

const struct model_type MODELS_GEMMA[] = {
    {NULL, NULL, NULL},
};
