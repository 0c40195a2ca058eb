/* multimodal.c - placeholder table while the readers are written (not committed). */
#include "reader.h"

const struct model_type MODELS_MULTIMODAL[] = {
    {NULL, NULL, NULL},
};
