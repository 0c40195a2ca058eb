/*
 * hfconfig.h - reading a Hugging Face config.json into a struct gs_arch.
 *
 * A config is a foreign document: members gpusizer does not use are ignored,
 * not rejected. Fields it needs are type-checked with pointers under the
 * `pointer` given (e.g. "/model/config/hidden_size"). The reader is chosen
 * by model_type, else by architectures[0] (arch->read_as then names the
 * layout used); an unknown type is GS_ERR_UNKNOWN_MODEL. The checkpoint's
 * stored format (quantization_config) is read into arch->checkpoint.
 */
#ifndef GS_HFCONFIG_H
#define GS_HFCONFIG_H

#include "gs/arch.h"
#include "gs/status.h"

#include <jansson.h>

/* Borrows `config`. Fills *out and returns GS_OK, or collects every problem
 * found and returns the first failing status. Architecture-level checks
 * (divisibility, limits) are left to gs_arch_validate. */
enum gs_status hfconfig_to_arch(const json_t *config, const char *pointer, struct gs_arch *out,
                                struct gs_error *err);

/* The model_type names gpusizer reads, comma separated. */
const char *hfconfig_supported(void);

#endif
