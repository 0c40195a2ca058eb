/*
 * kimi.c - Moonshot Kimi: K2.5 (vision + DeepSeek-V3 text), Kimi-Linear and K3 (KDA linear attention beside MLA) (see reader.h).
 */
#include "reader.h"

const struct model_type MODELS_KIMI[] = {
    {NULL, NULL, NULL},
};
