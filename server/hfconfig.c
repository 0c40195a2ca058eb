/*
 * hfconfig.c - config.json -> struct gs_arch (see hfconfig.h): the entry
 * point the codecs call; the readers themselves live in server/models/.
 */
#include "hfconfig.h"

#include "models/reader.h"

enum gs_status hfconfig_to_arch(const json_t *config, const char *pointer, struct gs_arch *out,
                                struct gs_error *err)
{
    return models_read(config, pointer, out, err);
}

const char *hfconfig_supported(void)
{
    return models_supported();
}
