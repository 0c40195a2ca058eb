/* embedded.c - lookup in the tables of compiled-in files (see embedded.h). */
#include "embedded.h"

#include <string.h>

const struct gs_embedded_file *gs_embedded_find(const struct gs_embedded_file *table,
                                                const char *name)
{
    for (const struct gs_embedded_file *f = table; f->name != NULL; f++) {
        if (strcmp(f->name, name) == 0)
            return f;
    }
    return NULL;
}
