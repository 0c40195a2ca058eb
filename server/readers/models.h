/*
 * models.h - the entry points of the config readers: reading a config.json with the reader
 * its model_type (or architectures[0]) names, the generic reader of last resort, the reader
 * tables by lineage (the one list every supported-types list is generated from), and the
 * checkpoint's stored format. The readers' own toolkit is reader.h.
 */
#ifndef GS_MODELS_H
#define GS_MODELS_H

#include "readers/reader.h"

#include "gs/arch.h"
#include "gs/status.h"

#include <jansson.h>
#include <stddef.h>

/* Reads `model_type` or, failing that, `architectures[0]`, and runs the
 * reader; a type no reader names is read by the generic reader (arch->read_as
 * "generic", arch->approximate saying why). Errors point under `pointer`;
 * GS_ERR_UNKNOWN_MODEL at "<pointer>/model_type", listing what is supported,
 * when even the generic reader cannot read the config. */
enum gs_status models_read(const json_t *config, const char *pointer, struct gs_arch *out,
                           struct gs_error *err);

/* The reader tables by lineage, in the order they are listed to users. */
struct models_lineage {
    const char *label;              /* "multi-head latent attention" */
    const struct model_type *types; /* ends in a zeroed row */
};
const struct models_lineage *models_lineages(size_t *count);

/* The supported model_type names, comma separated. */
const char *models_supported(void);

/* The checkpoint's stored format from torch_dtype and quantization_config. */
void models_read_checkpoint(const json_t *config, struct gs_checkpoint *out);

#endif
