/*
 * model_types.h - the config.json model types gpusizer reads, as the answer
 * of GET /v1/model-types and as the Markdown list in the README, both
 * generated from the reader tables (server/readers/reader.h models_lineages),
 * so no list of types is kept by hand anywhere.
 */
#ifndef GS_MODEL_TYPES_H
#define GS_MODEL_TYPES_H

#include <stddef.h>

/* The JSON answer of GET /v1/model-types: {"items": [{"model_type", "architecture", "lineage"}],
 * "total"}. Built on first use and kept for the life of the process (thread-safe); NULL only
 * when out of memory. */
const char *model_types_json(size_t *length);

/* The README's list: one Markdown bullet per lineage. A new text the caller frees; NULL when
 * out of memory. */
char *model_types_markdown(void);

#endif
