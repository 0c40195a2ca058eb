/* hub_import.c - a model by its Hugging Face id (hub_import.h). */
#define _GNU_SOURCE /* strcasestr */
#include "api/hub_import.h"

#include "hub/checkpoint.h"
#include "readers/models.h"
#include "formats/json_lenient.h"
#include "formats/jsonv.h"
#include "hub/sha256.h"

#include "gs/arch.h"
#include "gs/weights.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

/* Shards one checkpoint may have (DeepSeek-V3 has 163; the largest public ones a few hundred). */
#define SHARDS_MAX 2048
/* First bytes read of a GGUF file; more when its metadata is longer. */
#define GGUF_FIRST_READ ((uint64_t)1 << 20)
#define CONFIG_TEXT_MAX 4096

/* ------------------------------------------------------------ outcomes */

static int hub_problem(struct problem *p, const struct hub_result *r, const char *what)
{
    switch (r->outcome) {
    case HUB_NOT_FOUND:
        problem_set(p, 404, "hub-not-found", "Not found on the hub", "%s: %s", what, r->detail);
        break;
    case HUB_GATED:
        problem_set(p, 403, "hub-gated", "The repository is gated or private", "%s: %s", what,
                    r->detail);
        break;
    case HUB_TIMEOUT:
        problem_set(p, 502, "hub-timeout", "The hub did not answer in time", "%s: %s", what,
                    r->detail);
        break;
    case HUB_TOO_LARGE:
        problem_set(p, 502, "hub-too-large", "The hub sent more than gpusizer reads", "%s: %s",
                    what, r->detail);
        break;
    case HUB_REDIRECT_REFUSED:
        problem_set(p, 502, "hub-redirect-refused",
                    "The hub redirected to a host gpusizer does not follow", "%s: %s", what,
                    r->detail);
        break;
    case HUB_NOMEM:
        problem_set(p, 503, "out-of-memory", "Out of memory", "%s", what);
        break;
    case HUB_MALFORMED:
        problem_set(p, 502, "hub-malformed", "The hub's answer is not what it should be",
                    "%s: %s", what, r->detail);
        break;
    default:
        problem_set(p, 502, "hub-failed", "The hub failed", "%s: %s (upstream status %ld)", what,
                    r->detail, r->upstream_status);
        break;
    }
    return -1;
}

static bool listed(const struct hub_repo *repo, const char *name)
{
    for (size_t i = 0; i < repo->file_count; i++)
        if (strcmp(repo->files[i], name) == 0)
            return true;
    return false;
}

static bool ends_with(const char *s, const char *suffix)
{
    const size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcasecmp(s + n - m, suffix) == 0;
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* ------------------------------------------------------------ the import */

struct shard_note {
    char name[256];
    char sha256[65];
    uint64_t header_bytes;
};

struct import {
    const struct hub_config *cfg;
    const struct hub_ref *req;
    struct hub_repo repo;
    struct buf config;
    char config_sha256[65];
    json_t *config_doc;          /* config.json, or one built from GGUF metadata */
    bool config_from_gguf;
    char gguf_config[CONFIG_TEXT_MAX];
    const char *shards[SHARDS_MAX];
    size_t shard_count;
    bool gguf;
    struct shard_note *notes;
    struct checkpoint_summary sum;
    struct problem *problem;
    char fetched_at[32];
};

static int fetch(struct import *im, const char *file, uint64_t offset, uint64_t length,
                 uint64_t cap, struct buf *out)
{
    struct hub_result r;
    memset(&r, 0, sizeof(r));
    memset(out, 0, sizeof(*out));
    if (hub_fetch(im->cfg, im->req->hub_id, im->repo.sha, file, offset, length, cap, out, &r) !=
        HUB_OK) {
        free(out->data);
        memset(out, 0, sizeof(*out));
        char what[320];
        snprintf(what, sizeof(what), "reading %s", file);
        return hub_problem(im->problem, &r, what);
    }
    if (out->failed) {
        free(out->data);
        memset(out, 0, sizeof(*out));
        problem_set(im->problem, 503, "out-of-memory", "Out of memory", "reading %s", file);
        return -1;
    }
    return 0;
}

/* The shards the index names, once each, in name order. */
static int index_shards(struct import *im)
{
    struct buf index;
    if (fetch(im, "model.safetensors.index.json", 0, 0, im->cfg->max_json_bytes, &index) != 0)
        return -1;
    json_error_t jerr;
    json_t *doc = json_loadb(index.data != NULL ? index.data : "", index.length, 0, &jerr);
    free(index.data);
    const json_t *map = json_object_get(doc, "weight_map");
    if (!json_is_object(map)) {
        json_decref(doc);
        problem_set(im->problem, 502, "hub-malformed", "The hub's answer is not what it should be",
                    "model.safetensors.index.json has no weight_map object");
        return -1;
    }
    const char *key;
    json_t *value;
    int rc = 0;
    json_object_foreach((json_t *)(uintptr_t)map, key, value)
    {
        const char *file = json_string_value(value);
        if (file == NULL || !hub_ref_file_valid(file) || !ends_with(file, ".safetensors")) {
            problem_set(im->problem, 502, "hub-malformed",
                        "The hub's answer is not what it should be",
                        "model.safetensors.index.json maps %.80s to something that is not a "
                        "safetensors file of the repository",
                        key);
            rc = -1;
            break;
        }
        bool seen = false;
        for (size_t i = 0; i < im->shard_count && !seen; i++)
            seen = strcmp(im->shards[i], file) == 0;
        if (seen)
            continue;
        /* the file list owns the names the shards point to */
        const char *owned = NULL;
        for (size_t i = 0; i < im->repo.file_count && owned == NULL; i++)
            if (strcmp(im->repo.files[i], file) == 0)
                owned = im->repo.files[i];
        if (owned == NULL) {
            problem_set(im->problem, 502, "hub-malformed",
                        "The hub's answer is not what it should be",
                        "the index names %.120s, which the repository does not list", file);
            rc = -1;
            break;
        }
        if (im->shard_count == SHARDS_MAX) {
            problem_set(im->problem, 422, "checkpoint-too-large",
                        "The checkpoint has too many shards", "more than %d shard files",
                        SHARDS_MAX);
            rc = -1;
            break;
        }
        im->shards[im->shard_count++] = owned;
    }
    json_decref(doc);
    if (rc == 0 && im->shard_count == 0) {
        problem_set(im->problem, 502, "hub-malformed", "The hub's answer is not what it should be",
                    "model.safetensors.index.json names no shard");
        rc = -1;
    }
    qsort(im->shards, im->shard_count, sizeof(im->shards[0]), compare_names);
    return rc;
}

/* Which files hold the weights: the index's shards, model.safetensors, any
 * top-level safetensors file, else one GGUF file. */
static int choose_files(struct import *im)
{
    const struct hub_repo *repo = &im->repo;
    if (listed(repo, "model.safetensors.index.json"))
        return index_shards(im);
    if (listed(repo, "model.safetensors")) {
        for (size_t i = 0; i < repo->file_count; i++)
            if (strcmp(repo->files[i], "model.safetensors") == 0)
                im->shards[im->shard_count++] = repo->files[i];
        return 0;
    }
    for (size_t i = 0; i < repo->file_count && im->shard_count < SHARDS_MAX; i++)
        if (strchr(repo->files[i], '/') == NULL && ends_with(repo->files[i], ".safetensors") &&
            hub_ref_file_valid(repo->files[i]))
            im->shards[im->shard_count++] = repo->files[i];
    if (im->shard_count > 0) {
        qsort(im->shards, im->shard_count, sizeof(im->shards[0]), compare_names);
        return 0;
    }
    /* GGUF: the file asked for, else the Q4_K_M one, else the first by name */
    const char *pick = NULL;
    for (size_t i = 0; i < repo->file_count; i++) {
        const char *f = repo->files[i];
        if (!ends_with(f, ".gguf") || !hub_ref_file_valid(f))
            continue;
        if (im->req->file[0] != '\0') {
            if (strcmp(f, im->req->file) == 0)
                pick = f;
            continue;
        }
        if (strcasestr(f, "q4_k_m") != NULL) {
            if (pick == NULL || strcasestr(pick, "q4_k_m") == NULL || strcmp(f, pick) < 0)
                pick = f;
        } else if (pick == NULL || (strcasestr(pick, "q4_k_m") == NULL && strcmp(f, pick) < 0)) {
            pick = f;
        }
    }
    if (im->req->file[0] != '\0' && pick == NULL) {
        problem_set(im->problem, 404, "hub-not-found", "Not found on the hub",
                    "%s has no file %s", im->req->hub_id, im->req->file);
        return -1;
    }
    if (pick == NULL) {
        problem_set(im->problem, 422, "no-checkpoint", "No checkpoint gpusizer can read",
                    "%s@%s has no safetensors or GGUF file", im->req->hub_id, im->req->revision);
        return -1;
    }
    im->shards[im->shard_count++] = pick;
    im->gguf = true;
    return 0;
}

static int checkpoint_problem(struct import *im, const char *file, const struct gs_error *err)
{
    problem_set(im->problem, 502, "malformed-checkpoint",
                "The checkpoint's header is not what its format says", "%s%s%s: %s", file,
                err->count > 0 && err->items[0].pointer[0] ? " " : "",
                err->count > 0 ? err->items[0].pointer : "",
                err->count > 0 ? err->items[0].detail : "unreadable");
    return -1;
}

static int read_safetensors(struct import *im, size_t i)
{
    const char *file = im->shards[i];
    struct shard_note *note = &im->notes[i];
    snprintf(note->name, sizeof(note->name), "%s", file);
    struct buf head;
    if (fetch(im, file, 0, 8, 8, &head) != 0)
        return -1;
    struct gs_error err;
    gs_error_init(&err);
    uint64_t length = 0;
    enum gs_status st = head.length == 8
                            ? checkpoint_safetensors_length((const uint8_t *)head.data,
                                                            im->cfg->max_header_bytes, &length, &err)
                            : gs_error_add(&err, GS_ERR_INVALID, "",
                                           "the file is shorter than a safetensors header");
    free(head.data);
    if (st != GS_OK)
        return checkpoint_problem(im, file, &err);
    struct buf header;
    if (fetch(im, file, 8, length, length, &header) != 0)
        return -1;
    if (header.length != length) {
        free(header.data);
        gs_error_add(&err, GS_ERR_INVALID, "", "the header ends after %zu of its %llu bytes",
                     header.length, (unsigned long long)length);
        return checkpoint_problem(im, file, &err);
    }
    sha256_hex(header.data, header.length, note->sha256);
    note->header_bytes = length;
    st = checkpoint_add_safetensors(&im->sum, header.data, header.length, &err);
    free(header.data);
    return st == GS_OK ? 0 : checkpoint_problem(im, file, &err);
}

static int read_gguf(struct import *im)
{
    const char *file = im->shards[0];
    struct shard_note *note = &im->notes[0];
    snprintf(note->name, sizeof(note->name), "%s", file);
    uint64_t want = GGUF_FIRST_READ;
    const unsigned pack_bits = im->sum.pack_bits;
    for (int attempt = 0; attempt < 8; attempt++) {
        struct buf b;
        if (fetch(im, file, 0, want, want, &b) != 0)
            return -1;
        struct gs_error err;
        gs_error_init(&err);
        size_t needed = 0;
        checkpoint_summary_init(&im->sum);
        im->sum.pack_bits = pack_bits;
        enum gs_status st = checkpoint_add_gguf(&im->sum, (const uint8_t *)b.data, b.length,
                                                &needed, im->gguf_config, sizeof(im->gguf_config),
                                                &err);
        if (st != GS_OK) {
            free(b.data);
            return checkpoint_problem(im, file, &err);
        }
        if (needed == 0) {
            sha256_hex(b.data, b.length, note->sha256);
            note->header_bytes = b.length;
            free(b.data);
            return 0;
        }
        const bool short_file = b.length < want;
        free(b.data);
        if (short_file || needed <= want || needed > im->cfg->max_header_bytes) {
            gs_error_add(&err, GS_ERR_INVALID, "",
                         short_file ? "the file ends inside its header"
                                    : "the header is longer than gpusizer reads");
            return checkpoint_problem(im, file, &err);
        }
        want = needed;
    }
    struct gs_error err;
    gs_error_init(&err);
    gs_error_add(&err, GS_ERR_INVALID, "", "the header never ends");
    return checkpoint_problem(im, file, &err);
}

bool hub_import_merge_quant_config(json_t *config, const json_t *hf_quant_config)
{
    if (!json_is_object(config) || !json_is_object(hf_quant_config))
        return false;
    if (json_is_object(json_object_get(config, "quantization_config")))
        return true;
    const json_t *inner = json_object_get(hf_quant_config, "quantization");
    if (!json_is_object(inner))
        inner = hf_quant_config; /* a flat file names quant_algo at the top */
    json_t *q = json_deep_copy(inner);
    if (q == NULL || json_object_set_new(q, "quant_method", json_string("modelopt")) != 0 ||
        json_object_set_new(config, "quantization_config", q) != 0) {
        json_decref(q);
        return false;
    }
    return true;
}

/* NVIDIA's ModelOpt releases (FP8, NVFP4) state their quantization in
 * hf_quant_config.json beside config.json (vLLM reads it in
 * get_quant_config): fetched when listed and config.json names none. */
static int read_quant_config(struct import *im)
{
    if (!listed(&im->repo, "hf_quant_config.json") ||
        json_object_get(im->config_doc, "quantization_config") != NULL)
        return 0;
    struct buf text;
    if (fetch(im, "hf_quant_config.json", 0, 0, im->cfg->max_json_bytes, &text) != 0)
        return -1;
    json_error_t jerr;
    json_t *doc = json_load_lenient(text.data != NULL ? text.data : "", text.length, 0, &jerr);
    free(text.data);
    if (!json_is_object(doc)) {
        json_decref(doc);
        problem_set(im->problem, 502, "hub-malformed", "The hub's answer is not what it should be",
                    "hf_quant_config.json is not a JSON object (line %d: %s)", jerr.line,
                    jerr.text);
        return -1;
    }
    const bool merged = hub_import_merge_quant_config(im->config_doc, doc);
    json_decref(doc);
    if (!merged) {
        problem_set(im->problem, 503, "out-of-memory", "Out of memory",
                    "merging hf_quant_config.json");
        return -1;
    }
    return 0;
}

static int read_config(struct import *im)
{
    if (!listed(&im->repo, "config.json"))
        return 0;
    if (fetch(im, "config.json", 0, 0, im->cfg->max_json_bytes, &im->config) != 0)
        return -1;
    sha256_hex(im->config.data != NULL ? im->config.data : "", im->config.length,
               im->config_sha256);
    json_error_t jerr;
    im->config_doc = json_load_lenient(im->config.data != NULL ? im->config.data : "",
                                       im->config.length, 0, &jerr);
    if (!json_is_object(im->config_doc)) {
        problem_set(im->problem, 502, "hub-malformed", "The hub's answer is not what it should be",
                    "config.json is not a JSON object (line %d: %s)", jerr.line, jerr.text);
        return -1;
    }
    /* GPTQ/AWQ pack 32/bits values per int32 (quantization_config.bits) */
    const json_t *q = json_object_get(im->config_doc, "quantization_config");
    const json_t *bits = json_object_get(q, "bits");
    if (json_is_integer(bits) && json_integer_value(bits) > 0 && json_integer_value(bits) <= 8)
        im->sum.pack_bits = (unsigned)json_integer_value(bits);
    return read_quant_config(im);
}

static json_t *summary_json(const struct checkpoint_summary *s)
{
    json_t *by = json_object();
    json_t *layers = json_array();
    for (int d = 0; by != NULL && d < CK_DTYPE_COUNT; d++)
        if (s->bytes_by_dtype[d] > 0)
            json_object_set_new(by, checkpoint_dtype_name((enum checkpoint_dtype)d),
                                json_integer((json_int_t)s->bytes_by_dtype[d]));
    for (uint64_t i = 0; layers != NULL && i < s->layers && i < CHECKPOINT_LAYERS_MAX; i++)
        json_array_append_new(layers, json_integer((json_int_t)s->layer_bytes[i]));
    return json_pack("{s:o, s:I, s:o, s:I, s:I, s:I, s:I, s:I, s:o, s:I, s:I, s:o, s:I, s:I}",
                     "format",
                     s->format_known ? json_string(gs_weight_format_name(s->format)) : json_null(),
                     "group_size", (json_int_t)s->group_size, "gguf_file_type",
                     s->gguf_file_type[0] ? json_string(s->gguf_file_type) : json_null(), "files",
                     (json_int_t)s->files, "tensors", (json_int_t)s->tensors, "parameters",
                     (json_int_t)s->parameters, "tensor_bytes", (json_int_t)s->tensor_bytes,
                     "quantization_bytes", (json_int_t)s->quantization_bytes, "bytes_by_dtype", by,
                     "matrix_bytes", (json_int_t)s->matrix_bytes, "vector_bytes",
                     (json_int_t)s->vector_bytes, "layer_bytes", layers, "other_bytes",
                     (json_int_t)s->other_bytes, "mtp_bytes", (json_int_t)s->mtp_bytes);
}

static json_t *provenance_json(const struct import *im)
{
    char url[768];
    json_t *files = json_array();
    for (size_t i = 0; files != NULL && i < im->shard_count; i++) {
        hub_file_url(im->cfg, im->req->hub_id, im->repo.sha, im->notes[i].name, url, sizeof(url));
        json_array_append_new(files, json_pack("{s:s, s:s, s:s, s:I}", "file", im->notes[i].name,
                                               "url", url, "header_sha256", im->notes[i].sha256,
                                               "header_bytes",
                                               (json_int_t)im->notes[i].header_bytes));
    }
    json_t *config = json_null();
    if (im->config.data != NULL) {
        hub_file_url(im->cfg, im->req->hub_id, im->repo.sha, "config.json", url, sizeof(url));
        config = json_pack("{s:s, s:s, s:I}", "url", url, "sha256", im->config_sha256, "bytes",
                           (json_int_t)im->config.length);
    }
    return json_pack("{s:s, s:s, s:s, s:s, s:s, s:o, s:o, s:b}", "hub_id", im->req->hub_id,
                     "revision", im->req->revision, "commit", im->repo.sha, "hub_url",
                     im->cfg->base_url, "fetched_at", im->fetched_at, "config", config, "files",
                     files, "config_from_gguf", im->config_from_gguf);
}

struct put_arg {
    const struct catalog_model *row;
    struct catalog_precondition pre;
    struct catalog_put_result *out;
};

static enum gs_status put_model(struct catalog *catalog, void *arg, struct gs_error *err)
{
    struct put_arg *a = arg;
    return catalog_model_put(catalog, a->row, &a->pre, a->out, err);
}

/* Reads the architecture when gpusizer can; the family and parameter count
 * either way. */
static void describe(struct import *im, char family[GS_MODEL_TYPE_MAX], uint64_t *parameters,
                     char *source, size_t cap)
{
    struct gs_arch arch;
    struct gs_param_count count;
    struct gs_error err;
    gs_error_init(&err);
    const json_t *mt = json_object_get(im->config_doc, "model_type");
    bool known = im->config_doc != NULL &&
                 models_read(im->config_doc, "", &arch, &err) == GS_OK &&
                 arch.approximate[0] == '\0' && /* the headers' count is exact; a generic read is not */
                 gs_arch_validate(&arch, &err) == GS_OK &&
                 gs_arch_count_params(&arch, &count, &err) == GS_OK && count.total > 0;
    if (known) {
        snprintf(family, GS_MODEL_TYPE_MAX, "%s", arch.model_type);
        *parameters = count.total;
        snprintf(source, cap,
                 "the config.json of %s at commit %s reproduces %llu parameters; the checkpoint's "
                 "headers count %llu (checkpoint.parameters)",
                 im->req->hub_id, im->repo.sha, (unsigned long long)count.total,
                 (unsigned long long)im->sum.parameters);
        return;
    }
    if (json_is_string(mt))
        snprintf(family, GS_MODEL_TYPE_MAX, "%s", json_string_value(mt));
    else if (im->sum.gguf_architecture[0])
        snprintf(family, GS_MODEL_TYPE_MAX, "%s", im->sum.gguf_architecture);
    else
        snprintf(family, GS_MODEL_TYPE_MAX, "unknown");
    *parameters = im->sum.parameters;
    snprintf(source, cap,
             "counted from the tensors in the checkpoint's headers (%s at commit %s); gpusizer "
             "cannot read this architecture, so only the weights are sized",
             im->req->hub_id, im->repo.sha);
}

static int store_import(struct import *im, struct store *store, struct catalog_put_result *out)
{
    char id[200], family[GS_MODEL_TYPE_MAX], source[512], config_url[768];
    hub_ref_catalog_id(im->req->hub_id, id, sizeof(id));
    uint64_t parameters = 0;
    describe(im, family, &parameters, source, sizeof(source));
    if (parameters == 0) {
        problem_set(im->problem, 422, "no-checkpoint", "No checkpoint gpusizer can read",
                    "%s@%s: its headers name no tensors", im->req->hub_id, im->req->revision);
        return -1;
    }
    json_t *ck = summary_json(&im->sum), *prov = provenance_json(im);
    char *ck_text = ck != NULL ? json_dumps(ck, JSON_COMPACT) : NULL;
    char *prov_text = prov != NULL ? json_dumps(prov, JSON_COMPACT) : NULL;
    /* a repository without config.json (GGUF of an architecture gpusizer cannot map) keeps
     * its family as the config, so every entry's config names a model_type */
    json_t *fallback = im->config_doc == NULL ? json_pack("{s:s}", "model_type", family) : NULL;
    char *config_text =
        json_dumps(im->config_doc != NULL ? im->config_doc : fallback,
                   JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(fallback);
    json_decref(ck);
    json_decref(prov);
    int rc = -1;
    if (ck_text == NULL || prov_text == NULL || config_text == NULL) {
        problem_set(im->problem, 503, "out-of-memory", "Out of memory", "storing the import");
        goto out;
    }
    if (im->config.data != NULL)
        hub_file_url(im->cfg, im->req->hub_id, im->repo.sha, "config.json", config_url,
                     sizeof(config_url));
    else
        hub_file_url(im->cfg, im->req->hub_id, im->repo.sha, im->shards[0], config_url,
                     sizeof(config_url));
    const char *slash = strchr(im->req->hub_id, '/');
    char publisher[100];
    snprintf(publisher, sizeof(publisher), "%.*s", (int)(slash - im->req->hub_id),
             im->req->hub_id);
    struct catalog_model row;
    memset(&row, 0, sizeof(row));
    row.id = id;
    row.name = (char *)(uintptr_t)(slash + 1);
    row.hf_id = (char *)(uintptr_t)im->req->hub_id;
    row.publisher = publisher;
    row.family = family;
    row.parameters = parameters;
    row.parameters_basis = (char *)(uintptr_t) "derived";
    row.parameters_source = source;
    row.config_json = config_text;
    row.config_source = config_url;
    row.hub_revision = (char *)(uintptr_t)im->req->revision;
    row.checkpoint_json = ck_text;
    row.provenance_json = prov_text;
    struct put_arg arg = {&row, {im->req->if_match, false}, out};
    struct gs_error err;
    gs_error_init(&err);
    const enum gs_status st = store_write(store, put_model, &arg, &err);
    if (st != GS_OK) {
        im->problem->errors = err;
        problem_from_status(im->problem, st);
        goto out;
    }
    rc = 0;
out:
    free(ck_text);
    free(prov_text);
    free(config_text);
    return rc;
}

static long mono_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

enum gs_status hub_import_run(const struct hub_config *cfg, struct store *store,
                              const struct hub_ref *req, struct catalog_put_result *out,
                              struct problem *problem)
{
    if (!hub_global_init()) {
        problem_set(problem, 503, "hub-unavailable", "The hub client could not start",
                    "libcurl failed to initialise");
        return problem_status(problem);
    }
    if (!hub_id_valid(req->hub_id) || !hub_revision_valid(req->revision)) {
        problem_set(problem, 400, "invalid-request", "The request is not valid",
                    "the hub id or revision is not one gpusizer accepts");
        return problem_status(problem);
    }
    const long started_ms = mono_ms();
    struct import *im = calloc(1, sizeof(*im));
    if (im == NULL) {
        problem_set(problem, 503, "out-of-memory", "Out of memory", "starting the import");
        return problem_status(problem);
    }
    im->cfg = cfg;
    im->req = req;
    im->problem = problem;
    checkpoint_summary_init(&im->sum);
    const time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(im->fetched_at, sizeof(im->fetched_at), "%Y-%m-%dT%H:%M:%SZ", &tm);
    int rc = -1;
    struct hub_result r;
    memset(&r, 0, sizeof(r));
    if (hub_repo_info(cfg, req->hub_id, req->revision, &im->repo, &r) != HUB_OK) {
        char what[340];
        snprintf(what, sizeof(what), "%s at %s", req->hub_id, req->revision);
        hub_problem(problem, &r, what);
        goto out;
    }
    if (read_config(im) != 0 || choose_files(im) != 0)
        goto out;
    im->notes = calloc(im->shard_count, sizeof(*im->notes));
    if (im->notes == NULL) {
        problem_set(problem, 503, "out-of-memory", "Out of memory", "reading the shards");
        goto out;
    }
    if (im->gguf) {
        if (read_gguf(im) != 0)
            goto out;
        if (im->config_doc == NULL && im->gguf_config[0] != '\0') {
            json_error_t jerr;
            im->config_doc = json_loads(im->gguf_config, 0, &jerr);
            im->config_from_gguf = im->config_doc != NULL;
        }
    } else {
        for (size_t i = 0; i < im->shard_count; i++) {
            /* one import, however many shards, ends by its deadline: past it the answer is
             * an error rather than minutes of a connection held open */
            if (i > 0 && mono_ms() - started_ms > cfg->import_deadline_ms) {
                problem_set(problem, 502, "hub-timeout", "The import took too long",
                            "%zu of %zu safetensors headers read in %ld s, the import's limit "
                            "(GPUSIZER_HUB_IMPORT_DEADLINE_MS); nothing was stored",
                            i, im->shard_count, cfg->import_deadline_ms / 1000);
                goto out;
            }
            if (read_safetensors(im, i) != 0)
                goto out;
        }
    }
    checkpoint_finish(&im->sum);
    rc = store_import(im, store, out);
out:
    json_decref(im->config_doc);
    free(im->config.data);
    free(im->notes);
    hub_repo_free(&im->repo);
    free(im);
    return rc == 0 ? GS_OK : problem_status(problem);
}

/* ------------------------------------------------------------ HTTP */

void hub_import_api(const struct hub_config *cfg, struct store *store,
                    const struct api_request *req, struct api_response *resp)
{
    json_t *body = api_parse_body(req, resp);
    if (body == NULL)
        return;
    struct hub_ref ir;
    if (!hub_ref_decode(body, "", NULL, &ir, &resp->problem.errors)) {
        json_decref(body);
        problem_from_status(&resp->problem, GS_ERR_INVALID);
        resp->status = resp->problem.status;
        return;
    }
    json_decref(body);
    ir.if_match = req->if_match;
    struct catalog_put_result put;
    memset(&put, 0, sizeof(put));
    if (hub_import_run(cfg, store, &ir, &put, &resp->problem) != 0) {
        resp->status = resp->problem.status;
        return;
    }
    struct service *now = store_acquire(store);
    const struct catalog_model *m = catalog_snapshot_model(service_snapshot(now), put.id);
    size_t length = 0;
    const char *text =
        m != NULL ? service_model_item(now, (size_t)(m - service_snapshot(now)->models), &length)
                  : NULL;
    json_t *item = text != NULL ? json_loadb(text, length, 0, NULL) : NULL;
    store_release(now);
    snprintf(resp->etag, sizeof(resp->etag), "%s", put.etag);
    if (put.created)
        snprintf(resp->location, sizeof(resp->location), "/v1/models/%s", put.id);
    if (item == NULL) {
        api_fail(resp, GS_ERR_NOMEM);
        return;
    }
    api_json(resp, put.created ? 201 : 200, item);
}

/* Whether a sizing request names a hub model the catalog lacks, to be imported first;
 * `ir` gets what to import. */
static bool import_needed(bool auto_import, const json_t *request, const struct service *service,
                          struct hub_ref *ir)
{
    const json_t *model = json_object_get(request, "model");
    if (!auto_import || !json_is_object(model) || json_object_get(model, "hub_id") == NULL)
        return false;
    struct gs_error ignored;
    gs_error_init(&ignored);
    static const char *const sizing_keys[] = {NULL};
    if (!hub_ref_decode(model, "/model", sizing_keys, ir, &ignored))
        return false; /* the decoder reports it with the rest of the request */
    return hub_ref_find(service_snapshot(service), ir->hub_id, ir->revision) == NULL;
}

bool hub_import_pending(bool auto_import, const json_t *request, const struct service *service)
{
    struct hub_ref ir;
    return import_needed(auto_import, request, service, &ir);
}

enum gs_status hub_import_prepare(const struct hub_config *cfg, struct store *store,
                                  bool auto_import, const json_t *request,
                                  struct service **service, struct problem *problem)
{
    struct hub_ref ir;
    if (!import_needed(auto_import, request, *service, &ir))
        return GS_OK;
    struct catalog_put_result put;
    memset(&put, 0, sizeof(put));
    const enum gs_status st = hub_import_run(cfg, store, &ir, &put, problem);
    if (st != GS_OK)
        return st;
    store_release(*service);
    *service = store_acquire(store);
    return GS_OK;
}
