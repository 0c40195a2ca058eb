/*
 * heterogeneous.c - decoders whose layers differ in shape: Nemotron-NAS (DeciLM) and Laguna (see reader.h).
 */
#include "reader.h"

const struct model_type MODELS_HETEROGENEOUS[] = {
    {NULL, NULL, NULL},
};
