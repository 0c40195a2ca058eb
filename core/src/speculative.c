/* speculative.c - speculative decoding method names (see gs/speculative.h). */
#include "gs/speculative.h"

#include <stddef.h>

const char *const gs_spec_method_names[GS_SPEC_COUNT] = {"mtp",   "eagle", "eagle3", "draft_model",
                                                        "ngram", "suffix", NULL};

const char *gs_spec_method_name(enum gs_spec_method method)
{
    return method > GS_SPEC_NONE && (unsigned)method < GS_SPEC_COUNT
               ? gs_spec_method_names[method - GS_SPEC_MTP]
               : "none";
}
