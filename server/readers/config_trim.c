/* config_trim.c - a pasted config.json without what its reading does not depend on
 * (config_trim.h). */
#include "readers/config_trim.h"

#include "readers/models.h"

#include <stdlib.h>
#include <string.h>

struct member {
    json_t *parent;   /* in the working copy */
    char *parent_key; /* NULL for a top-level member; owned, as is key (a removal frees the
                         working copy's own) */
    char *key;
    size_t bytes;
};

static size_t compact_size(const json_t *value)
{
    return json_dumpb(value, NULL, 0, JSON_COMPACT);
}

static int larger_first(const void *a, const void *b)
{
    const struct member *x = a, *y = b;
    if (x->bytes != y->bytes)
        return x->bytes < y->bytes ? 1 : -1;
    int c = strcmp(x->parent_key ? x->parent_key : "", y->parent_key ? y->parent_key : "");
    return c != 0 ? c : strcmp(x->key, y->key);
}

/* Whether `config` reads as `read`, byte for byte (models_read clears the struct first). */
static bool reads_as(const json_t *config, const struct gs_arch *read, struct gs_arch *scratch)
{
    struct gs_error err;
    memset(&err, 0, sizeof(err));
    return models_read(config, "", scratch, &err) == GS_OK &&
           memcmp(scratch, read, sizeof(*read)) == 0;
}

static bool add(struct member *out, size_t *n, size_t max, json_t *parent,
                const char *parent_key, const char *key, size_t bytes)
{
    if (*n >= max)
        return true;
    struct member *m = &out[*n];
    m->parent = parent;
    m->bytes = bytes;
    m->key = strdup(key);
    m->parent_key = parent_key ? strdup(parent_key) : NULL;
    if (m->key == NULL || (parent_key && m->parent_key == NULL)) {
        free(m->key);
        free(m->parent_key);
        return false;
    }
    (*n)++;
    return true;
}

/* The members worth trying, at most `max`: top-level ones and those one object down; false
 * when out of memory (*n counts those collected). */
static bool collect(json_t *copy, struct member *out, size_t max, size_t *n)
{
    enum { MIN_BYTES = 256 };
    const char *key;
    json_t *value;
    json_object_foreach(copy, key, value)
    {
        const size_t bytes = compact_size(value);
        if (bytes < MIN_BYTES)
            continue;
        if (!add(out, n, max, copy, NULL, key, bytes))
            return false;
        if (!json_is_object(value))
            continue;
        const char *inner_key;
        json_t *inner;
        json_object_foreach(value, inner_key, inner)
        {
            const size_t inner_bytes = compact_size(inner);
            if (inner_bytes >= MIN_BYTES && !add(out, n, max, value, key, inner_key, inner_bytes))
                return false;
        }
    }
    return true;
}

json_t *config_trim(const json_t *config, size_t *removed_bytes)
{
    *removed_bytes = 0;
    if (!json_is_object(config) || compact_size(config) <= CONFIG_TRIM_FROM_BYTES)
        return NULL;
    enum { COLLECTED = 4 * CONFIG_TRIM_TRIALS };
    json_t *work = json_deep_copy(config);
    struct member *members = calloc(COLLECTED, sizeof(*members));
    struct gs_arch *scratch = malloc(sizeof(*scratch)), *read = malloc(sizeof(*read));
    bool *dropped = calloc(COLLECTED, sizeof(*dropped));
    json_t *out = NULL;
    size_t n = 0;
    struct gs_error err;
    memset(&err, 0, sizeof(err));
    if (work == NULL || members == NULL || scratch == NULL || read == NULL || dropped == NULL ||
        models_read(config, "", read, &err) != GS_OK || !collect(work, members, COLLECTED, &n))
        goto done;
    qsort(members, n, sizeof(*members), larger_first);
    const size_t trials = n < CONFIG_TRIM_TRIALS ? n : CONFIG_TRIM_TRIALS;
    size_t any = 0;
    for (size_t i = 0; i < trials; i++) {
        struct member *m = &members[i];
        /* a member inside one already dropped is gone with it */
        json_t *parent = m->parent_key ? json_object_get(work, m->parent_key) : work;
        if (parent != m->parent)
            continue;
        json_t *value = json_object_get(parent, m->key);
        if (value == NULL)
            continue;
        json_incref(value);
        json_object_del(parent, m->key);
        if (reads_as(work, read, scratch)) {
            dropped[i] = true;
            any++;
            json_decref(value);
        } else if (json_object_set_new(parent, m->key, value) != 0) {
            goto done; /* out of memory: the working copy is no longer the config */
        }
    }
    if (any == 0)
        goto done;
    /* the result from the config as sent, so its members keep their order (the trials put
     * back what they kept at the end) */
    out = json_deep_copy(config);
    if (out == NULL)
        goto done;
    for (size_t i = 0; i < trials; i++) {
        if (!dropped[i])
            continue;
        json_t *parent = members[i].parent_key ? json_object_get(out, members[i].parent_key)
                                               : out;
        if (json_is_object(parent))
            json_object_del(parent, members[i].key);
    }
    if (!reads_as(out, read, scratch)) { /* never expected: echo the config as sent */
        json_decref(out);
        out = NULL;
        goto done;
    }
    const size_t before = compact_size(config), after = compact_size(out);
    *removed_bytes = before > after ? before - after : 0;
done:
    json_decref(work);
    for (size_t i = 0; members != NULL && i < n; i++) {
        free(members[i].key);
        free(members[i].parent_key);
    }
    free(members);
    free(scratch);
    free(read);
    free(dropped);
    return out;
}
