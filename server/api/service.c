/* service.c - the estimate operation and catalog listings (see service.h). */
#include "api/service.h"
#include "api/answer_cache.h"
#include "formats/json_out.h"

#include "formats/gzip.h"
#include "hub/hub_ref.h"

#include "api/codec.h"
#include "api/codec_catalog.h"
#include "gs/weights.h"
#include "readers/models.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Rendered JSON text, shared by the services built one from another (an
 * unchanged catalog row keeps its item; an unchanged table keeps its listing). */
struct packed {
    size_t length;
    unsigned char data[];
};

struct rendered {
    int refs; /* atomic */
    /* listings only, made on first use and then shared (atomic; 0 / NULL until then) */
    uint64_t tag;          /* a hash of the text, never 0 */
    struct packed *gzip;   /* the text gzip'd */
    size_t length;
    char text[];
};

/* A model row's description, shared like its rendered item: a write to one row leaves
 * every other row's 15 KiB description where it is instead of copying it. */
struct derived {
    struct codec_catalog_arch row; /* first: the table hands out &row */
    int refs;                      /* atomic */
};

struct service {
    int refs; /* atomic */
    struct catalog_snapshot *snapshot;
    struct rendered **model_items;
    struct rendered **gpu_items;
    struct codec_catalog_arch **models; /* each the `row` of a struct derived */
    struct rendered *models_body;
    struct rendered *gpus_body;
    struct answer_cache *answers; /* the one mutable part (internally locked); NULL = off */
};

static size_t answer_cache_bytes = SERVICE_ANSWER_CACHE_DEFAULT;

void service_set_answer_cache_bytes(size_t bytes)
{
    answer_cache_bytes = bytes;
}

struct answer_cache *service_answers(const struct service *service)
{
    return service->answers;
}

static struct catalog_snapshot empty_snapshot;

/* Takes `text` (malloc'd, NUL-terminated) into a new rendered block; NULL on failure. */
static struct rendered *rendered_take(char *text, size_t length)
{
    struct rendered *r = text != NULL ? malloc(sizeof(*r) + length + 1) : NULL;
    if (r != NULL) {
        r->refs = 1;
        r->tag = 0;
        r->gzip = NULL;
        r->length = length;
        memcpy(r->text, text, length + 1);
    }
    free(text);
    return r;
}

static struct rendered *rendered_ref(struct rendered *r)
{
    __atomic_add_fetch(&r->refs, 1, __ATOMIC_RELAXED);
    return r;
}

static void rendered_unref(struct rendered *r)
{
    if (r != NULL && __atomic_sub_fetch(&r->refs, 1, __ATOMIC_ACQ_REL) == 0) {
        free(r->gzip);
        free(r);
    }
}

static void derived_unref(struct codec_catalog_arch *row)
{
    struct derived *d = (struct derived *)row;
    if (d != NULL && __atomic_sub_fetch(&d->refs, 1, __ATOMIC_ACQ_REL) == 0)
        free(d);
}

static void free_items(struct rendered **items, size_t n)
{
    for (size_t i = 0; items != NULL && i < n; i++)
        rendered_unref(items[i]);
    free(items);
}

void service_unref(struct service *service)
{
    if (service == NULL || __atomic_sub_fetch(&service->refs, 1, __ATOMIC_ACQ_REL) > 0)
        return;
    free_items(service->model_items, service->snapshot->model_count);
    free_items(service->gpu_items, service->snapshot->gpu_count);
    for (size_t i = 0; service->models != NULL && i < service->snapshot->model_count; i++)
        derived_unref(service->models[i]);
    free(service->models);
    if (service->snapshot != &empty_snapshot)
        catalog_snapshot_free(service->snapshot);
    rendered_unref(service->models_body);
    rendered_unref(service->gpus_body);
    answer_cache_free(service->answers);
    free(service);
}

void service_free(struct service *service)
{
    service_unref(service);
}

struct service *service_ref(struct service *service)
{
    __atomic_add_fetch(&service->refs, 1, __ATOMIC_RELAXED);
    return service;
}

const struct catalog_snapshot *service_snapshot(const struct service *service)
{
    return service->snapshot;
}

const struct gs_arch *service_model_arch(const struct service *service, size_t index)
{
    if (index >= service->snapshot->model_count || !service->models[index]->valid)
        return NULL;
    return &service->models[index]->arch;
}

const char *service_model_item(const struct service *service, size_t index, size_t *length)
{
    *length = service->model_items[index]->length;
    return service->model_items[index]->text;
}

const char *service_gpu_item(const struct service *service, size_t index, size_t *length)
{
    *length = service->gpu_items[index]->length;
    return service->gpu_items[index]->text;
}

/* Decodes model `i`'s stored config once, into a new s->models[i]; false when out of memory.
 * `config` is the row's config_json parsed (NULL when it is not JSON, `jerr` saying why). */
static bool decode_arch(struct service *s, size_t i, const json_t *config,
                        const json_error_t *jerr, struct gs_error *err)
{
    const struct catalog_model *m = &s->snapshot->models[i];
    struct derived *d = calloc(1, sizeof(*d));
    if (d == NULL)
        return false;
    d->refs = 1;
    s->models[i] = &d->row;
    struct gs_error local;
    gs_error_init(&local);
    enum gs_status st = config != NULL ? models_read(config, "", &d->row.arch, &local)
                                       : GS_ERR_INVALID;
    if (st == GS_OK) /* validates, then counts */
        st = gs_arch_count_params(&d->row.arch, &d->row.counts, &local);
    bool ovf = false;
    for (size_t b = 0; st == GS_OK && b < d->row.arch.block_count; b++)
        gs_arch_count_block(&d->row.arch, b, &d->row.block_counts[b], &ovf);
    d->row.valid = st == GS_OK && !ovf;
    /* an import gpusizer cannot read the architecture of is sized by its headers alone; one it
     * can tells the MTP layers numbered past the decoder's by the config */
    const bool imported = hub_ref_checkpoint_bytes(
        m->checkpoint_json, d->row.valid ? d->row.arch.num_hidden_layers : 0,
        d->row.valid ? gs_weights_mtp_layers(&d->row.arch) : 0, &d->row.stored);
    if (st != GS_OK && !imported)
        gs_error_add(err, st, "", "catalog model %s: config unusable (%s)", m->id,
                     local.count > 0 ? local.items[0].detail : jerr->text);
    return true;
}

static struct rendered *render_item(const struct service *s, bool models, size_t i,
                                    json_t *config)
{
    json_t *item = models ? codec_encode_model(&s->snapshot->models[i],
                                               s->models[i]->valid ? &s->models[i]->arch : NULL,
                                               config)
                          : codec_encode_gpu(&s->snapshot->gpus[i]);
    char *text = item != NULL ? json_out_dumps(item, NULL) : NULL;
    json_decref(item);
    return rendered_take(text, text != NULL ? strlen(text) : 0);
}

/* {"items": [...], "total": n} from the rendered items, so listings cost a memcpy
 * and filtered listings a concatenation. */
static struct rendered *render_list(const struct service *s, bool models)
{
    const size_t n = models ? s->snapshot->model_count : s->snapshot->gpu_count;
    struct rendered *const *items = models ? s->model_items : s->gpu_items;
    size_t total = 64;
    for (size_t i = 0; i < n; i++)
        total += items[i]->length + 1;
    struct rendered *r = malloc(sizeof(*r) + total);
    if (r == NULL)
        return NULL;
    r->refs = 1;
    r->tag = 0;
    r->gzip = NULL;
    memcpy(r->text, "{\"items\":[", 10);
    size_t at = 10;
    for (size_t i = 0; i < n; i++) {
        if (i > 0)
            r->text[at++] = ',';
        memcpy(r->text + at, items[i]->text, items[i]->length);
        at += items[i]->length;
    }
    at += (size_t)snprintf(r->text + at, total - at, "],\"total\":%zu}", n);
    r->length = at;
    return r;
}

/* Index of the row of `prev` that is row `i` of `s` shared, advancing *at through prev
 * (both sorted by id); SIZE_MAX when the row is new or changed. */
static size_t shared_row(const struct service *s, const struct service *prev, bool models,
                         size_t i, size_t *at)
{
    if (prev == NULL)
        return SIZE_MAX;
    const struct catalog_snapshot *a = s->snapshot, *b = prev->snapshot;
    const size_t n = models ? b->model_count : b->gpu_count;
    const char *id = models ? a->models[i].id : a->gpus[i].id;
    while (*at < n && strcmp(models ? b->models[*at].id : b->gpus[*at].id, id) < 0)
        (*at)++;
    if (*at == n)
        return SIZE_MAX;
    const bool same = models ? catalog_model_same_row(&a->models[i], &b->models[*at])
                             : catalog_gpu_same_row(&a->gpus[i], &b->gpus[*at]);
    return same ? *at : SIZE_MAX;
}

/* Decodes and renders the rows of one table, taking what `prev` already derived
 * from a shared row; the listing is shared too when the table did not change. */
static bool derive_table(struct service *s, const struct service *prev, bool models,
                         struct gs_error *err)
{
    const size_t n = models ? s->snapshot->model_count : s->snapshot->gpu_count;
    struct rendered **items = calloc(n > 0 ? n : 1, sizeof(*items));
    if (items == NULL)
        return false;
    if (models)
        s->model_items = items;
    else
        s->gpu_items = items;
    size_t at = 0, reused = 0;
    for (size_t i = 0; i < n; i++) {
        const size_t j = shared_row(s, prev, models, i, &at);
        if (j != SIZE_MAX) {
            if (models) {
                struct derived *d = (struct derived *)prev->models[j];
                __atomic_add_fetch(&d->refs, 1, __ATOMIC_RELAXED);
                s->models[i] = &d->row;
            }
            items[i] = rendered_ref(models ? prev->model_items[j] : prev->gpu_items[j]);
            reused++;
            continue;
        }
        /* a model's config is parsed once, for its description and its listing item: with the
         * catalog's 240-odd configs parsing is most of building a service (each write) */
        json_error_t jerr;
        json_t *config = models ? json_loads(s->snapshot->models[i].config_json, 0, &jerr) : NULL;
        if (models && !decode_arch(s, i, config, &jerr, err)) {
            json_decref(config);
            return false;
        }
        items[i] = render_item(s, models, i, config);
        json_decref(config);
        if (items[i] == NULL)
            return false;
    }
    const size_t prev_n = prev == NULL ? 0
                          : models     ? prev->snapshot->model_count
                                       : prev->snapshot->gpu_count;
    struct rendered **body = models ? &s->models_body : &s->gpus_body;
    if (prev != NULL && reused == n && prev_n == n)
        *body = rendered_ref(models ? prev->models_body : prev->gpus_body);
    else
        *body = render_list(s, models);
    return *body != NULL;
}

enum gs_status service_create_next(const struct service *prev, struct catalog_snapshot *snapshot,
                                   struct service **out, struct gs_error *err)
{
    struct service *s = calloc(1, sizeof(*s));
    if (s == NULL) {
        catalog_snapshot_free(snapshot);
        return gs_error_add(err, GS_ERR_NOMEM, "", "out of memory");
    }
    s->refs = 1;
    s->snapshot = snapshot != NULL ? snapshot : &empty_snapshot;
    size_t n = s->snapshot->model_count;
    s->models = calloc(n > 0 ? n : 1, sizeof(*s->models));
    s->answers = answer_cache_create(answer_cache_bytes); /* NULL (no caching) is fine */
    if (s->models == NULL || !derive_table(s, prev, true, err) ||
        !derive_table(s, prev, false, err)) {
        service_free(s);
        return gs_error_add(err, GS_ERR_NOMEM, "", "out of memory");
    }
    *out = s;
    return GS_OK;
}

enum gs_status service_create(struct catalog_snapshot *snapshot, struct service **out,
                              struct gs_error *err)
{
    return service_create_next(NULL, snapshot, out, err);
}

enum gs_status service_estimate_text(const struct service *s, const json_t *request,
                                     char **text, size_t *length, struct problem *problem)
{
    struct estimate_request req;
    struct gs_estimate est;
    struct gs_fit fit;
    struct codec_arch_table archs = {(const struct codec_catalog_arch *const *)s->models};
    enum gs_status st = codec_decode_estimate(request, s->snapshot, &archs, &req, &problem->errors);
    if (st == GS_OK)
        st = gs_estimate_compute(&req.model, &req.workload, &est, &problem->errors);
    /* "gpu_count" (as /v1/fit and the web page send it) names the GPUs the layout takes; an
     * estimate sizes the layout in parallelism, so the two must agree */
    if (st == GS_OK && req.gpu_count != 0 && req.gpu_count != est.gpu_count)
        st = gs_error_add(&problem->errors, GS_ERR_INVALID, "/gpu_count",
                          "is %llu, but the layout in parallelism takes %llu GPU%s (tensor x "
                          "pipeline x data, with the serving replicas); name a layout of that "
                          "many in parallelism, or ask /v1/fit, which chooses one for a GPU count",
                          (unsigned long long)req.gpu_count, (unsigned long long)est.gpu_count,
                          est.gpu_count == 1 ? "" : "s");
    /* stages on unequal GPUs: the answer's figures are the binding stage's, on its GPU */
    if (st == GS_OK && est.has_serving && req.workload.stage_gpu_count > est.serving.binding_stage)
        req.fit_gpu = req.stage_gpu[est.serving.binding_stage];
    const struct catalog_gpu *fit_gpu = req.fit_gpu != NULL ? req.fit_gpu : req.gpu;
    if (st == GS_OK && fit_gpu != NULL) {
        struct gs_gpu gpu = {fit_gpu->memory_bytes, fit_gpu->usable_memory_bytes};
        st = gs_fit_check(est.per_gpu.total_bytes, &gpu, &fit, &problem->errors);
        if (st == GS_OK && est.has_serving)
            gs_fit_apply_serving(&fit, &est.serving);
    }
    if (st != GS_OK) {
        problem_from_status(problem, st);
        return st;
    }
    struct json_writer w = {.data = NULL};
    codec_write_estimate(&w, &req, &est, req.gpu != NULL ? &fit : NULL);
    *text = json_w_finish(&w, length);
    if (*text == NULL) {
        problem_from_status(problem, GS_ERR_NOMEM);
        return GS_ERR_NOMEM;
    }
    return GS_OK;
}

enum gs_status service_answer_tree(service_text_operation writes, const struct service *s,
                                   const json_t *request, json_t **response,
                                   struct problem *problem)
{
    char *text = NULL;
    size_t length = 0;
    const enum gs_status st = writes(s, request, &text, &length, problem);
    if (st != GS_OK)
        return st;
    *response = json_loadb(text, length, 0, NULL);
    free(text);
    if (*response == NULL) {
        problem_from_status(problem, GS_ERR_NOMEM);
        return GS_ERR_NOMEM;
    }
    return GS_OK;
}

enum gs_status service_estimate(const struct service *s, const json_t *request,
                                json_t **response, struct problem *problem)
{
    return service_answer_tree(service_estimate_text, s, request, response, problem);
}

/* A 64-bit hash of the text, eight bytes at a time (an entity tag, not a defence: the
 * catalog's writers are trusted with keys). */
static uint64_t text_hash(const char *text, size_t length)
{
    uint64_t h = 0x9e3779b97f4a7c15ULL ^ length;
    size_t i = 0;
    for (; i + 8 <= length; i += 8) {
        uint64_t w;
        memcpy(&w, text + i, 8);
        h = (h ^ w) * 0xff51afd7ed558ccdULL;
        h ^= h >> 32;
    }
    uint64_t tail = 0;
    memcpy(&tail, text + i, length - i);
    h = (h ^ tail) * 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 29;
    return h != 0 ? h : 1;
}

void service_text_etag(const char *text, size_t length, char out[24])
{
    snprintf(out, 24, "\"%016llx\"", (unsigned long long)text_hash(text, length));
}

void service_listing(const struct service *s, bool models, bool want_gzip,
                     struct service_listing *out)
{
    struct rendered *r = models ? s->models_body : s->gpus_body;
    out->body = r->text;
    out->length = r->length;
    /* racing first users compute the same tag; one pointer wins the gzip form */
    uint64_t tag = __atomic_load_n(&r->tag, __ATOMIC_RELAXED);
    if (tag == 0) {
        tag = text_hash(r->text, r->length);
        __atomic_store_n(&r->tag, tag, __ATOMIC_RELAXED);
    }
    snprintf(out->etag, sizeof(out->etag), "\"%016llx\"", (unsigned long long)tag);
    out->gzip = NULL;
    out->gzip_length = 0;
    if (!want_gzip)
        return;
    struct packed *p = __atomic_load_n(&r->gzip, __ATOMIC_ACQUIRE);
    if (p == NULL) {
        size_t n = 0;
        unsigned char *data = gzip_compress(r->text, r->length, 6, &n);
        struct packed *made = data != NULL ? malloc(sizeof(*made) + n) : NULL;
        if (made != NULL) {
            made->length = n;
            memcpy(made->data, data, n);
            struct packed *none = NULL;
            if (__atomic_compare_exchange_n(&r->gzip, &none, made, false, __ATOMIC_ACQ_REL,
                                            __ATOMIC_ACQUIRE))
                p = made;
            else {
                free(made);
                p = none;
            }
        }
        free(data);
    }
    if (p != NULL) {
        out->gzip = p->data;
        out->gzip_length = p->length;
    }
}

const char *service_models_body(const struct service *s, size_t *length)
{
    *length = s->models_body->length;
    return s->models_body->text;
}

const char *service_gpus_body(const struct service *s, size_t *length)
{
    *length = s->gpus_body->length;
    return s->gpus_body->text;
}

size_t service_model_count(const struct service *s)
{
    return s->snapshot->model_count;
}

size_t service_gpu_count(const struct service *s)
{
    return s->snapshot->gpu_count;
}

void service_arch_table(const struct service *service, struct codec_arch_table *out)
{
    out->models = (const struct codec_catalog_arch *const *)service->models;
}
