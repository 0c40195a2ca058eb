/* service.c - the estimate operation and catalog listings (see service.h). */
#include "service.h"

#include "hub_import.h"

#include "codec.h"
#include "hfconfig.h"

#include <stdlib.h>
#include <string.h>

struct rendered {
    char *text;
    size_t length;
};

struct service {
    int refs; /* atomic */
    struct catalog_snapshot *snapshot;
    struct rendered *model_items;
    struct rendered *gpu_items;
    struct gs_arch *archs;
    bool *arch_valid;
    struct gs_checkpoint_bytes *stored; /* imported models: what their headers say */
    char *models_body;
    size_t models_body_len;
    char *gpus_body;
    size_t gpus_body_len;
};

static struct catalog_snapshot empty_snapshot;

static void free_items(struct rendered *items, size_t n)
{
    for (size_t i = 0; items != NULL && i < n; i++)
        free(items[i].text);
    free(items);
}

void service_unref(struct service *service)
{
    if (service == NULL || __atomic_sub_fetch(&service->refs, 1, __ATOMIC_ACQ_REL) > 0)
        return;
    free_items(service->model_items, service->snapshot->model_count);
    free_items(service->gpu_items, service->snapshot->gpu_count);
    if (service->snapshot != &empty_snapshot)
        catalog_snapshot_free(service->snapshot);
    free(service->archs);
    free(service->arch_valid);
    free(service->stored);
    free(service->models_body);
    free(service->gpus_body);
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
    if (index >= service->snapshot->model_count || !service->arch_valid[index])
        return NULL;
    return &service->archs[index];
}

const char *service_model_item(const struct service *service, size_t index, size_t *length)
{
    *length = service->model_items[index].length;
    return service->model_items[index].text;
}

const char *service_gpu_item(const struct service *service, size_t index, size_t *length)
{
    *length = service->gpu_items[index].length;
    return service->gpu_items[index].text;
}

static void decode_archs(struct service *s, struct gs_error *err)
{
    for (size_t i = 0; i < s->snapshot->model_count; i++) {
        const struct catalog_model *m = &s->snapshot->models[i];
        json_error_t jerr;
        json_t *config = json_loads(m->config_json, 0, &jerr);
        struct gs_error local;
        gs_error_init(&local);
        enum gs_status st = config != NULL ? hfconfig_to_arch(config, "", &s->archs[i], &local)
                                           : GS_ERR_INVALID;
        if (st == GS_OK)
            st = gs_arch_validate(&s->archs[i], &local);
        s->arch_valid[i] = st == GS_OK;
        /* an import gpusizer cannot read the architecture of is sized by its headers alone */
        const bool imported = hub_checkpoint_bytes(m->checkpoint_json, &s->stored[i]);
        if (st != GS_OK && !imported)
            gs_error_add(err, st, "", "catalog model %s: config unusable (%s)", m->id,
                         local.count > 0 ? local.items[0].detail : jerr.text);
        json_decref(config);
    }
}

/* Renders every item once, then {"items": [...], "total": n} from them, so
 * listings cost a memcpy and filtered listings a concatenation. */
static bool render_items(struct service *s, bool models)
{
    const size_t n = models ? s->snapshot->model_count : s->snapshot->gpu_count;
    struct rendered *items = calloc(n > 0 ? n : 1, sizeof(*items));
    if (items == NULL)
        return false;
    if (models)
        s->model_items = items;
    else
        s->gpu_items = items;
    for (size_t i = 0; i < n; i++) {
        json_t *item = models ? codec_encode_model(&s->snapshot->models[i],
                                                   s->arch_valid[i] ? &s->archs[i] : NULL)
                              : codec_encode_gpu(&s->snapshot->gpus[i]);
        items[i].text = item != NULL ? json_dumps(item, CODEC_DUMP_FLAGS) : NULL;
        json_decref(item);
        if (items[i].text == NULL)
            return false;
        items[i].length = strlen(items[i].text);
    }
    return true;
}

static char *render_list(const struct service *s, bool models, size_t *length)
{
    const size_t n = models ? s->snapshot->model_count : s->snapshot->gpu_count;
    const struct rendered *items = models ? s->model_items : s->gpu_items;
    size_t total = 64;
    for (size_t i = 0; i < n; i++)
        total += items[i].length + 1;
    char *text = malloc(total);
    if (text == NULL)
        return NULL;
    size_t at = 0;
    memcpy(text, "{\"items\":[", 10);
    at = 10;
    for (size_t i = 0; i < n; i++) {
        if (i > 0)
            text[at++] = ',';
        memcpy(text + at, items[i].text, items[i].length);
        at += items[i].length;
    }
    at += (size_t)snprintf(text + at, total - at, "],\"total\":%zu}", n);
    *length = at;
    return text;
}

enum gs_status service_create(struct catalog_snapshot *snapshot, struct service **out,
                              struct gs_error *err)
{
    struct service *s = calloc(1, sizeof(*s));
    if (s == NULL) {
        catalog_snapshot_free(snapshot);
        return gs_error_add(err, GS_ERR_NOMEM, "", "out of memory");
    }
    s->refs = 1;
    s->snapshot = snapshot != NULL ? snapshot : &empty_snapshot;
    size_t n = s->snapshot->model_count;
    s->archs = calloc(n > 0 ? n : 1, sizeof(*s->archs));
    s->arch_valid = calloc(n > 0 ? n : 1, sizeof(*s->arch_valid));
    s->stored = calloc(n > 0 ? n : 1, sizeof(*s->stored));
    if (s->archs == NULL || s->arch_valid == NULL || s->stored == NULL)
        goto oom;
    decode_archs(s, err);
    if (!render_items(s, true) || !render_items(s, false))
        goto oom;
    s->models_body = render_list(s, true, &s->models_body_len);
    s->gpus_body = render_list(s, false, &s->gpus_body_len);
    if (s->models_body == NULL || s->gpus_body == NULL)
        goto oom;
    *out = s;
    return GS_OK;
oom:
    service_free(s);
    return gs_error_add(err, GS_ERR_NOMEM, "", "out of memory");
}

int service_estimate(const struct service *s, const json_t *request, json_t **response,
                     struct problem *problem)
{
    struct estimate_request req;
    struct gs_estimate est;
    struct gs_fit fit;
    struct codec_arch_table archs = {s->archs, s->arch_valid, s->stored};
    enum gs_status st = codec_decode_estimate(request, s->snapshot, &archs, &req, &problem->errors);
    if (st == GS_OK)
        st = gs_estimate_compute(&req.model, &req.workload, &est, &problem->errors);
    if (st == GS_OK && req.gpu != NULL) {
        struct gs_gpu gpu = {req.gpu->memory_bytes, req.gpu->usable_memory_bytes};
        st = gs_fit_check(est.per_gpu.total_bytes, &gpu, &fit, &problem->errors);
        if (st == GS_OK && est.has_serving)
            gs_fit_apply_serving(&fit, &est.serving);
    }
    if (st != GS_OK) {
        problem_from_status(problem, st);
        return -1;
    }
    *response = codec_encode_estimate(&req, &est, req.gpu != NULL ? &fit : NULL);
    if (*response == NULL) {
        problem_from_status(problem, GS_ERR_NOMEM);
        return -1;
    }
    return 0;
}

const char *service_models_body(const struct service *s, size_t *length)
{
    *length = s->models_body_len;
    return s->models_body;
}

const char *service_gpus_body(const struct service *s, size_t *length)
{
    *length = s->gpus_body_len;
    return s->gpus_body;
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
    out->archs = service->archs;
    out->valid = service->arch_valid;
    out->stored = service->stored;
}
