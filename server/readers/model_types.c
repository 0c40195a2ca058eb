/*
 * model_types.c - the supported model types, generated from the reader
 * tables (see model_types.h).
 */
#include "readers/model_types.h"

#include "formats/buf.h"
#include "formats/json_out.h"
#include "readers/models.h"

#include <jansson.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static char *types_json;
static size_t types_json_length;
static pthread_once_t types_once = PTHREAD_ONCE_INIT;

static void build_json(void)
{
    json_t *root = json_object();
    json_t *items = json_array();
    size_t count = 0, total = 0;
    const struct models_lineage *lineages = models_lineages(&count);
    bool ok = root != NULL && items != NULL;
    for (size_t l = 0; ok && l < count; l++)
        for (const struct model_type *m = lineages[l].types; ok && m->model_type != NULL; m++) {
            json_t *item = json_pack("{s:s}", "model_type", m->model_type);
            /* a type read by its model_type only (kimi_k2) has no class of its own */
            if (item != NULL && m->architecture != NULL)
                ok = json_object_set_new(item, "architecture", json_string(m->architecture)) == 0;
            ok = ok && item != NULL &&
                 json_object_set_new(item, "lineage", json_string(lineages[l].label)) == 0;
            if (!ok)
                json_decref(item);
            else /* takes the item, freeing it on failure */
                ok = json_array_append_new(items, item) == 0;
            total++;
        }
    ok = ok && json_object_set(root, "items", items) == 0 &&
         json_object_set_new(root, "total", json_integer((json_int_t)total)) == 0;
    if (ok)
        types_json = json_out_dumps(root, &types_json_length);
    json_decref(items);
    json_decref(root);
}

const char *model_types_json(size_t *length)
{
    pthread_once(&types_once, build_json);
    *length = types_json != NULL ? types_json_length : 0;
    return types_json;
}

static void put(struct buf *out, const char *text)
{
    buf_put(out, text, strlen(text));
}

/* README lines wrap before this column, continuing under the bullet's text. */
#define MARKDOWN_WIDTH 100

char *model_types_markdown(void)
{
    struct buf out = {0};
    size_t count = 0;
    const struct models_lineage *lineages = models_lineages(&count);
    for (size_t l = 0; l < count; l++) {
        if (lineages[l].types[0].model_type == NULL)
            continue;
        put(&out, "- ");
        put(&out, lineages[l].label);
        put(&out, ":");
        size_t column = 3 + strlen(lineages[l].label);
        for (const struct model_type *m = lineages[l].types; m->model_type != NULL; m++) {
            const bool last = m[1].model_type == NULL;
            const size_t width = strlen(m->model_type) + 4; /* " `type`" and "," or "." */
            if (column + width > MARKDOWN_WIDTH) {
                put(&out, "\n ");
                column = 1;
            }
            put(&out, " `");
            put(&out, m->model_type);
            put(&out, last ? "`.\n" : "`,");
            column += width;
        }
    }
    if (out.failed) {
        free(out.data);
        return NULL;
    }
    return out.data;
}
