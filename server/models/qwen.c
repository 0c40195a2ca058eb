/*
 * qwen.c - Qwen3-VL, Qwen3-Omni and Qwen3.5: vision-language and hybrid (Gated DeltaNet) Qwen models (see reader.h).
 */
#include "reader.h"

const struct model_type MODELS_QWEN[] = {
    {NULL, NULL, NULL},
};
