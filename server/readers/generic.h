/*
 * generic.h - the reader of last resort, for a config no reader table names (generic.c).
 */
#ifndef GS_MODELS_GENERIC_H
#define GS_MODELS_GENERIC_H

#include "readers/reader.h"

#include <jansson.h>
#include <stddef.h>

/* The reader of last resort (generic.c), for a config no table row names:
 * the Llama layout from the standard keys (layer_types, sliding_window,
 * experts, MLA, linear attention, text_config nesting), its counts
 * approximate. models_generic_missing counts the keys it cannot do without
 * (hidden_size, num_hidden_layers, num_attention_heads, vocab_size, an MLP
 * width, num_experts_per_tok with experts), and one more for a key that states a structure it
 * would misread (experts it cannot count, Mamba layers); models_read_generic reports each
 * as GS_ERR_UNKNOWN_MODEL at its pointer; models_generic_unread writes the
 * keys it neither read nor knows to be harmless, comma separated. */
size_t models_generic_missing(const json_t *config);
void models_read_generic(struct model_reader *r, struct gs_arch *arch);
void models_generic_unread(const json_t *config, char *out, size_t cap);

#endif
