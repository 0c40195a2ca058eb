/* speculative.c - speculative decoding method names (see gs/speculative.h). */
#include "gs/speculative.h"

#include <stddef.h>
#include <string.h>

static const char *const names[GS_SPEC_COUNT] = {"none",        "mtp",   "eagle", "eagle3",
                                                 "draft_model", "ngram", "suffix"};

const char *gs_spec_method_name(enum gs_spec_method method)
{
    return (unsigned)method < GS_SPEC_COUNT ? names[method] : "none";
}

bool gs_spec_method_parse(const char *name, enum gs_spec_method *out)
{
    for (size_t i = 1; i < GS_SPEC_COUNT; i++)
        if (strcmp(name, names[i]) == 0) {
            *out = (enum gs_spec_method)i;
            return true;
        }
    return false;
}
