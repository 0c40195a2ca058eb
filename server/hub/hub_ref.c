/* hub_ref.c - a model named by its Hugging Face id (hub_ref.h). */
#include "hub/hub_ref.h"

#include "formats/jsonv.h"

#include "gs/weights.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *const import_keys[] = {"hub_id", "revision", "file", NULL};

static bool copy_text(const json_t *v, const char *pointer, char *out, size_t cap,
                      struct gs_error *err)
{
    if (!json_is_string(v)) {
        gs_error_add(err, GS_ERR_INVALID, pointer, "must be a string, got %s", jsonv_type_name(v));
        return false;
    }
    const char *s = json_string_value(v);
    if (strlen(s) >= cap) {
        gs_error_add(err, GS_ERR_INVALID, pointer, "is longer than %zu characters", cap - 1);
        return false;
    }
    snprintf(out, cap, "%s", s);
    return true;
}

/* A file name inside a repository: relative, no "..", no control characters. */
bool hub_ref_file_valid(const char *name)
{
    if (name == NULL || name[0] == '\0' || name[0] == '/' || strlen(name) > 250 ||
        strstr(name, "..") != NULL)
        return false;
    for (const char *c = name; *c; c++)
        if (!isalnum((unsigned char)*c) && strchr("._-/+", *c) == NULL)
            return false;
    return true;
}

bool hub_ref_decode(const json_t *obj, const char *base, const char *const *extra,
                    struct hub_ref *out, struct gs_error *err)
{
    memset(out, 0, sizeof(*out));
    snprintf(out->revision, sizeof(out->revision), "main");
    char where[96];
    if (!json_is_object(obj)) {
        gs_error_add(err, GS_ERR_INVALID, base,
                     "must be an object such as {\"hub_id\": \"org/name\"}");
        return false;
    }
    const char *key;
    json_t *value;
    bool ok = true;
    json_object_foreach((json_t *)(uintptr_t)obj, key, value)
    {
        bool known = false;
        for (size_t i = 0; import_keys[i] != NULL && !known; i++)
            known = strcmp(key, import_keys[i]) == 0;
        for (size_t i = 0; extra != NULL && extra[i] != NULL && !known; i++)
            known = strcmp(key, extra[i]) == 0;
        if (!known) {
            jsonv_pointer(where, sizeof(where), base, key);
            gs_error_add(err, GS_ERR_INVALID, where,
                         "is not a field here; a hub model takes hub_id, revision and file");
            ok = false;
        }
    }
    jsonv_pointer(where, sizeof(where), base, "hub_id");
    const json_t *id = json_object_get(obj, "hub_id");
    if (id == NULL) {
        gs_error_add(err, GS_ERR_INVALID, where, "is required: the repository id, org/name");
        ok = false;
    } else if (copy_text(id, where, out->hub_id, sizeof(out->hub_id), err)) {
        if (!hub_id_valid(out->hub_id)) {
            gs_error_add(err, GS_ERR_INVALID, where,
                         "must be a Hugging Face repository id, org/name of letters, digits, "
                         "'.', '_' and '-'");
            ok = false;
        }
    } else {
        ok = false;
    }
    const json_t *rev = json_object_get(obj, "revision");
    jsonv_pointer(where, sizeof(where), base, "revision");
    if (rev != NULL && !json_is_null(rev)) {
        if (!copy_text(rev, where, out->revision, sizeof(out->revision), err)) {
            ok = false;
        } else if (!hub_revision_valid(out->revision)) {
            gs_error_add(err, GS_ERR_INVALID, where,
                         "must be a branch or tag name or a 40-hex commit");
            ok = false;
        }
    }
    const json_t *file = json_object_get(obj, "file");
    jsonv_pointer(where, sizeof(where), base, "file");
    if (file != NULL && !json_is_null(file)) {
        if (!copy_text(file, where, out->file, sizeof(out->file), err)) {
            ok = false;
        } else if (!hub_ref_file_valid(out->file) ||
                   strcasecmp(out->file + (strlen(out->file) > 5 ? strlen(out->file) - 5 : 0),
                              ".gguf") != 0) {
            gs_error_add(err, GS_ERR_INVALID, where,
                         "must name a .gguf file of the repository (for GGUF-only repositories)");
            ok = false;
        }
    }
    return ok;
}

void hub_ref_catalog_id(const char *hub_id, char *out, size_t cap)
{
    size_t n = 0;
    for (const char *c = hub_id; *c && n + 2 < cap; c++) {
        if (*c == '/') {
            out[n++] = '-';
            out[n++] = '-';
        } else {
            out[n++] = (char)tolower((unsigned char)*c);
        }
    }
    out[n] = '\0';
}

const struct catalog_model *hub_ref_find(const struct catalog_snapshot *snapshot,
                                         const char *hub_id, const char *revision)
{
    const struct catalog_model *seeded = NULL;
    for (size_t i = 0; snapshot != NULL && i < snapshot->model_count; i++) {
        const struct catalog_model *m = &snapshot->models[i];
        if (m->hf_id == NULL || strcasecmp(m->hf_id, hub_id) != 0)
            continue;
        if (m->hub_revision != NULL && strcmp(m->hub_revision, revision) == 0)
            return m;
        if (m->hub_revision == NULL && seeded == NULL)
            seeded = m;
    }
    return strcmp(revision, "main") == 0 ? seeded : NULL;
}

/* ------------------------------------------------------------ the core's view */

static uint64_t member_u64(const json_t *o, const char *key)
{
    const json_t *v = json_object_get(o, key);
    return json_is_integer(v) && json_integer_value(v) > 0 ? (uint64_t)json_integer_value(v) : 0;
}

bool hub_ref_checkpoint_bytes(const char *checkpoint_json, uint64_t decoder_layers,
                              uint64_t mtp_layers, struct gs_checkpoint_bytes *out)
{
    memset(out, 0, sizeof(*out));
    if (checkpoint_json == NULL)
        return false;
    json_t *doc = json_loads(checkpoint_json, 0, NULL);
    const json_t *format = json_object_get(doc, "format");
    bool ok = json_is_object(doc) && json_is_string(format) &&
              gs_weight_format_parse(json_string_value(format), &out->format);
    if (ok) {
        out->parameters = member_u64(doc, "parameters");
        out->tensor_bytes = member_u64(doc, "tensor_bytes");
        out->matrix_bytes = member_u64(doc, "matrix_bytes");
        out->vector_bytes = member_u64(doc, "vector_bytes");
        out->other_bytes = member_u64(doc, "other_bytes");
        uint64_t mtp = member_u64(doc, "mtp_bytes");
        const json_t *layers = json_object_get(doc, "layer_bytes");
        size_t i;
        const json_t *v;
        json_array_foreach(layers, i, v)
        {
            if (!json_is_integer(v) || json_integer_value(v) < 0)
                continue;
            const uint64_t bytes = (uint64_t)json_integer_value(v);
            out->layer_bytes += bytes;
            if (decoder_layers > 0 && i >= decoder_layers && i - decoder_layers < mtp_layers)
                mtp = mtp + bytes < mtp ? UINT64_MAX : mtp + bytes;
        }
        out->layers = json_array_size(layers);
        out->mtp_bytes = mtp < out->tensor_bytes ? mtp : 0; /* a stored row that says otherwise
                                                               is not believed */
        ok = out->tensor_bytes > 0;
    }
    out->present = ok;
    json_decref(doc);
    return ok;
}
