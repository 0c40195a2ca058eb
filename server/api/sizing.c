/* sizing.c - /v1/recommend and /v1/fit (see sizing.h). */
#define _GNU_SOURCE /* qsort_r */
#include "api/sizing.h"
#include "formats/json_out.h"

#include "gs/advice.h"
#include "gs/capability.h"
#include "gs/cost.h"

#include "api/codec.h"
#include "api/codec_training.h"
#include "gs/plan.h"
#include "gs/rank.h"
#include "formats/jsonv.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define GPU_LIST_MAX     1024 /* constraints.gpus entries */
#define DEFAULT_SEQUENCE 4096
#define DEFAULT_NODE     8

/* constraints.max_options' ceiling (see write_rejections) */
#define RECOMMEND_OPTIONS_MAX 1000

struct sizing {
    const json_t *body;       /* the request as sent (borrowed for the call) */
    struct estimate_request req;
    struct gs_estimate probe; /* the request on one GPU: model facts and assumptions */
    struct gs_demand demand;
    struct gs_plan_limits limits;
    struct gs_efficiency eff;
    bool purchase;
    double amortization_years;
    struct gs_tco_params tco; /* purchase pricing: the owned cost's components */
    struct gs_tco_params tco_integrated; /* the same for integrated GPUs (gs_tco_integrated) */
    uint64_t gpus_per_node; /* 0 = the catalog's */
    uint64_t max_options;   /* /v1/recommend: options listed (constraints.max_options) */
    const struct catalog_gpu **candidates; /* owned: the GPU types to rank (every catalog GPU
                                              unless constraints.gpus names some) */
    size_t candidate_count;
    uint64_t fit_count; /* /v1/fit: GPUs asked about (0 = not given) */
    bool sequence_defaulted, shape_defaulted, parallelism_ignored;
    bool context_defaulted; /* /v1/fit: no context_length given, the model's own limit taken */
    bool latency_defaulted; /* /v1/recommend: a rate demand without a TPOT target got the default */
    /* last: decode_sizing clears the members above and only the memos' counts */
    struct gs_weights_memo weights_memo; /* the model's weight bytes by layout, for every search */
    struct gs_kv_memo kv_memo;           /* and its KV cache layouts */
};

/* ------------------------------------------------------------------ scratch */

struct candidate {
    const struct catalog_gpu *gpu;
    struct gs_plan_gpu spec;
    struct gs_plan plan;
    enum gs_plan_reject why;
};

/* Each thread's working memory for /v1/recommend and /v1/fit, kept between requests: the
 * sizing state (37 KiB with its memos) and a plan per GPU type (105 KiB for the catalog).
 * Allocated and freed per request they were the top of the heap, which glibc handed back
 * to the system every time (more than 128 KiB free) and the next request faulted in again:
 * perf put the page-fault handler at 3.5% of a recommendation. Freed when the thread
 * ends. */
struct scratch {
    struct sizing sizing;
    struct candidate *candidates;
    size_t capacity;
};

static pthread_key_t scratch_key;
static pthread_once_t scratch_once = PTHREAD_ONCE_INIT;
static bool scratch_ready;

static void scratch_destroy(void *p)
{
    struct scratch *sc = p;
    if (sc != NULL)
        free(sc->candidates);
    free(sc);
}

static void scratch_create_key(void)
{
    scratch_ready = pthread_key_create(&scratch_key, scratch_destroy) == 0;
}

static struct scratch *thread_scratch(void)
{
    pthread_once(&scratch_once, scratch_create_key);
    if (!scratch_ready)
        return NULL;
    struct scratch *sc = pthread_getspecific(scratch_key);
    if (sc == NULL) {
        sc = calloc(1, sizeof(*sc));
        if (sc == NULL || pthread_setspecific(scratch_key, sc) != 0) {
            free(sc);
            return NULL;
        }
    }
    return sc;
}

/* The thread's sizing state for one request (decode_sizing clears it); NULL when out of
 * memory. */
static struct sizing *sizing_start(void)
{
    struct scratch *sc = thread_scratch();
    return sc != NULL ? &sc->sizing : NULL;
}

/* Room for n candidates (not cleared: every member is written per GPU); NULL when out of
 * memory. */
static struct candidate *candidates_for(size_t n)
{
    struct scratch *sc = thread_scratch();
    if (sc == NULL)
        return NULL;
    if (sc->capacity < n) {
        struct candidate *grown = realloc(sc->candidates, n * sizeof(*grown));
        if (grown == NULL)
            return NULL;
        sc->candidates = grown;
        sc->capacity = n;
    }
    return sc->candidates;
}

/* Frees what the request allocated; the state itself stays the thread's. */
static void sizing_end(struct sizing *s)
{
    if (s != NULL) {
        free(s->candidates);
        s->candidates = NULL;
    }
}

/* ------------------------------------------------------------------ decode */

/* Records a validation error and answers false, for the bool decoders. */
static bool refuse(struct gs_error *err, const char *pointer, const char *detail)
{
    gs_error_add(err, GS_ERR_INVALID, pointer, "%s", detail);
    return false;
}

static bool read_rate(const json_t *obj, const char *key, const char *base, double max, double *out,
                      struct gs_error *err)
{
    const json_t *v = json_object_get(obj, key);
    if (v == NULL)
        return true;
    char where[64];
    jsonv_pointer(where, sizeof(where), base, key);
    return jsonv_number(v, where, 0, max, out, err);
}

static bool read_count(const json_t *obj, const char *key, const char *base, uint64_t min,
                       uint64_t max, uint64_t *out, struct gs_error *err)
{
    const json_t *v = json_object_get(obj, key);
    if (v == NULL)
        return true;
    char where[64];
    jsonv_pointer(where, sizeof(where), base, key);
    return jsonv_uint(v, where, min, max, out, err);
}

static bool decode_demand(const json_t *d, struct sizing *s, struct gs_error *err)
{
    memset(&s->demand, 0, sizeof(s->demand));
    if (d == NULL)
        return true;
    static const char *const keys[] = {"output_tokens_per_s",
                                       "requests_per_s",
                                       "prompt_tokens",
                                       "output_tokens",
                                       "training_tokens",
                                       "deadline_days",
                                       "ttft_ms",
                                       "tpot_ms",
                                       "output_tokens_per_s_per_user",
                                       "percentile",
                                       NULL};
    if (!json_is_object(d))
        return refuse(err, "/demand", "must be an object");
    if (!jsonv_only_keys(d, "/demand", keys, err))
        return false;
    struct gs_demand *m = &s->demand;
    double tokens = 0, requests = 0;
    bool ok = read_rate(d, "output_tokens_per_s", "/demand", 1e12, &tokens, err);
    ok = read_rate(d, "requests_per_s", "/demand", 1e9, &requests, err) && ok;
    ok = read_count(d, "prompt_tokens", "/demand", 1, (uint64_t)1 << 24, &m->prompt_tokens, err) &&
         ok;
    ok = read_count(d, "output_tokens", "/demand", 1, (uint64_t)1 << 24, &m->output_tokens, err) &&
         ok;
    ok = read_rate(d, "training_tokens", "/demand", 1e16, &m->training_tokens, err) && ok;
    ok = read_rate(d, "deadline_days", "/demand", 36500, &m->deadline_days, err) && ok;
    double per_user = 0;
    uint64_t percentile = 50;
    ok = read_rate(d, "ttft_ms", "/demand", 3.6e6, &m->ttft_ms, err) && ok;
    const json_t *tpot = json_object_get(d, "tpot_ms");
    const bool no_latency_target = json_is_null(tpot);
    if (!no_latency_target)
        ok = read_rate(d, "tpot_ms", "/demand", 3.6e6, &m->tpot_ms, err) && ok;
    ok = read_rate(d, "output_tokens_per_s_per_user", "/demand", 1e6, &per_user, err) && ok;
    ok = read_count(d, "percentile", "/demand", 50, 99, &percentile, err) && ok;
    if (!ok)
        return false;
    if (percentile != 50 && percentile != 90 && percentile != 95 && percentile != 99)
        return refuse(err, "/demand/percentile", "must be 50, 90, 95 or 99");
    m->percentile = (unsigned)percentile;
    if (per_user > 0 && m->tpot_ms > 0)
        return refuse(err, "/demand/output_tokens_per_s_per_user",
                      "give tpot_ms or output_tokens_per_s_per_user, not both");
    if (per_user > 0)
        m->tpot_ms = 1000 / per_user;
    if (s->req.workload.mode == GS_MODE_TRAINING && (m->ttft_ms > 0 || m->tpot_ms > 0))
        return refuse(err, "/demand", "ttft_ms and tpot_ms are serving targets");
    const bool training = s->req.workload.mode == GS_MODE_TRAINING;
    if (tokens > 0 && requests > 0)
        return refuse(err, "/demand/requests_per_s",
                      "give output_tokens_per_s or requests_per_s, not both");
    if (training && (tokens > 0 || requests > 0 || m->prompt_tokens || m->output_tokens))
        return refuse(err, "/demand", "training demand is training_tokens and deadline_days");
    if (!training && (m->training_tokens > 0 || m->deadline_days > 0))
        return refuse(err, "/demand",
                      "inference demand is output_tokens_per_s or requests_per_s, with "
                      "prompt_tokens and output_tokens");
    if (training && m->deadline_days > 0 && m->training_tokens <= 0)
        return refuse(err, "/demand/training_tokens", "is required with deadline_days");
    if (training) {
        m->kind = m->training_tokens > 0 ? GS_DEMAND_TRAINING : GS_DEMAND_NONE;
    } else if (tokens > 0) {
        m->kind = GS_DEMAND_OUTPUT_TOKENS;
        m->rate = tokens;
    } else if (requests > 0) {
        m->kind = GS_DEMAND_REQUESTS;
        m->rate = requests;
    }
    /* a rate served to people: each of them sees the tokens stream at a readable pace unless
     * the request says otherwise (GS_DEMAND_DEFAULT_TPOT_MS) */
    if (!training && m->kind != GS_DEMAND_NONE && m->tpot_ms <= 0 && !no_latency_target) {
        m->tpot_ms = GS_DEMAND_DEFAULT_TPOT_MS;
        s->latency_defaulted = true;
    }
    return true;
}

static bool decode_gpu_list(const json_t *list, const struct catalog_snapshot *snap,
                            struct sizing *s, struct gs_error *err)
{
    if (!json_is_array(list) || json_array_size(list) == 0 ||
        json_array_size(list) > GPU_LIST_MAX) {
        gs_error_add(err, GS_ERR_INVALID, "/constraints/gpus",
                     "must be a non-empty array of at most %d catalog GPU ids or aliases",
                     GPU_LIST_MAX);
        return false;
    }
    free(s->candidates);
    s->candidate_count = 0;
    s->candidates = calloc(json_array_size(list), sizeof(*s->candidates));
    if (s->candidates == NULL) {
        gs_error_add(err, GS_ERR_NOMEM, "/constraints/gpus", "out of memory");
        return false;
    }
    bool ok = true;
    size_t i;
    const json_t *v;
    json_array_foreach(list, i, v)
    {
        char where[64];
        snprintf(where, sizeof(where), "/constraints/gpus/%zu", i);
        const struct catalog_gpu *g =
            json_is_string(v) ? catalog_snapshot_gpu_lookup(snap, json_string_value(v)).gpu : NULL;
        if (g == NULL) {
            const char *hint =
                json_is_string(v) ? catalog_snapshot_gpu_suggest(snap, json_string_value(v)) : NULL;
            if (hint != NULL)
                gs_error_add(err, GS_ERR_INVALID, where,
                             "no such GPU in the catalog; did you mean \"%s\"?", hint);
            else
                gs_error_add(err, GS_ERR_INVALID, where,
                             "no such GPU in the catalog; GET /v1/gpus lists them");
            ok = false;
            continue;
        }
        bool seen = false;
        for (size_t k = 0; k < s->candidate_count; k++)
            seen = seen || s->candidates[k] == g;
        if (!seen)
            s->candidates[s->candidate_count++] = g;
    }
    return ok;
}

/* Reads allow.<key>, a non-empty array of allowed values, into a bit set:
 * names from `choices` (bit = index), or whole numbers 0..max when choices
 * is NULL. Absent leaves *set as it was. */
static bool read_set(const json_t *allow, const char *key, const char *const *choices,
                     uint64_t max, unsigned *set, struct gs_error *err)
{
    const json_t *v = json_object_get(allow, key);
    if (v == NULL)
        return true;
    char where[80];
    jsonv_pointer(where, sizeof(where), "/constraints/allow", key);
    if (!json_is_array(v) || json_array_size(v) == 0)
        return refuse(err, where, "must be a non-empty array of allowed values");
    bool ok = true;
    *set = 0;
    size_t i;
    const json_t *x;
    json_array_foreach(v, i, x)
    {
        char item[112];
        snprintf(item, sizeof(item), "%s/%zu", where, i);
        uint64_t n = 0;
        int index = 0;
        if (choices == NULL ? jsonv_uint(x, item, 0, max, &n, err)
                            : jsonv_enum(x, item, choices, &index, err))
            *set |= 1u << (choices == NULL ? (unsigned)n : (unsigned)index);
        else
            ok = false;
    }
    return ok;
}

static bool decode_allow(const json_t *a, struct sizing *s, struct gs_error *err)
{
    static const char *const keys[] = {
        "quantization", "zero_stages",   "activation_checkpointing", "offload", "expert_parallelism",
        "max_tensor",   "disaggregation", NULL};
    static const char *const recompute[] = {"none", "selective", "full", NULL};
    if (!json_is_object(a))
        return refuse(err, "/constraints/allow", "must be an object");
    if (!jsonv_only_keys(a, "/constraints/allow", keys, err))
        return false;
    struct gs_plan_limits *l = &s->limits;
    bool ok = true;
    const json_t *v;
    if ((v = json_object_get(a, "quantization")) != NULL)
        ok = jsonv_bool(v, "/constraints/allow/quantization", &l->allow_quantization, err) && ok;
    if ((v = json_object_get(a, "offload")) != NULL)
        ok = jsonv_bool(v, "/constraints/allow/offload", &l->allow_offload, err) && ok;
    if ((v = json_object_get(a, "expert_parallelism")) != NULL)
        ok = jsonv_bool(v, "/constraints/allow/expert_parallelism", &l->allow_expert, err) && ok;
    if ((v = json_object_get(a, "disaggregation")) != NULL)
        ok = jsonv_bool(v, "/constraints/allow/disaggregation", &l->allow_disaggregation, err) &&
             ok;
    ok = read_count(a, "max_tensor", "/constraints/allow", 1, 72, &l->max_tensor, err) && ok;
    ok = read_set(a, "zero_stages", NULL, 3, &l->zero_stages, err) && ok;
    ok = read_set(a, "activation_checkpointing", recompute, 0, &l->recompute, err) && ok;
    return ok;
}

/* constraints.tco: the owned cost's components (gs/cost.h), each overridable. */
static bool decode_tco(const json_t *t, struct sizing *s, struct gs_error *err)
{
    static const char *const keys[] = {"server_fraction",     "network_fraction",
                                       "power_draw_fraction", "host_watts_per_node",
                                       "network_watts_per_node", "pue",
                                       "usd_per_kwh",         NULL};
    if (!json_is_object(t))
        return refuse(err, "/constraints/tco", "must be an object");
    if (!jsonv_only_keys(t, "/constraints/tco", keys, err))
        return false;
    struct gs_tco_params *p = &s->tco;
    const char *b = "/constraints/tco";
    bool ok = read_rate(t, "server_fraction", b, 10, &p->server_fraction, err);
    ok = read_rate(t, "network_fraction", b, 10, &p->network_fraction, err) && ok;
    ok = read_rate(t, "power_draw_fraction", b, 2, &p->power_draw_fraction, err) && ok;
    ok = read_rate(t, "host_watts_per_node", b, 100000, &p->host_watts_per_node, err) && ok;
    ok = read_rate(t, "network_watts_per_node", b, 100000, &p->network_watts_per_node, err) && ok;
    ok = read_rate(t, "usd_per_kwh", b, 10, &p->usd_per_kwh, err) && ok;
    if (json_object_get(t, "pue") != NULL) {
        ok = read_rate(t, "pue", b, 5, &p->pue, err) && ok;
        if (ok && p->pue < 1)
            ok = refuse(err, "/constraints/tco/pue", "must be at least 1 (facility over IT power)");
    }
    return ok;
}

static bool decode_constraints(const json_t *c, const struct catalog_snapshot *snap,
                               struct sizing *s, struct gs_error *err)
{
    static const char *const keys[] = {
        "gpus",    "max_gpus",           "gpus_per_node", "max_cost_per_hour",
        "pricing", "amortization_years", "allow",         "max_nodes_per_replica", "tco",
        "max_options", NULL};
    static const char *const pricing[] = {"on_demand", "purchase", NULL};
    s->amortization_years = 3;
    gs_tco_defaults(&s->tco);
    if (c == NULL)
        return true;
    if (!json_is_object(c))
        return refuse(err, "/constraints", "must be an object");
    if (!jsonv_only_keys(c, "/constraints", keys, err))
        return false;
    bool ok = true;
    const json_t *v;
    if ((v = json_object_get(c, "gpus")) != NULL)
        ok = decode_gpu_list(v, snap, s, err) && ok;
    ok = read_count(c, "max_gpus", "/constraints", 1, 65536, &s->limits.max_gpus, err) && ok;
    ok = read_count(c, "gpus_per_node", "/constraints", 1, 72, &s->gpus_per_node, err) && ok;
    ok = read_count(c, "max_options", "/constraints", 1, RECOMMEND_OPTIONS_MAX, &s->max_options,
                    err) &&
         ok;
    ok = read_count(c, "max_nodes_per_replica", "/constraints", 1, 1024,
                    &s->limits.max_nodes_per_replica, err) &&
         ok;
    ok =
        read_rate(c, "max_cost_per_hour", "/constraints", 1e9, &s->limits.max_cost_per_hour, err) &&
        ok;
    if ((v = json_object_get(c, "pricing")) != NULL) {
        int basis = 0;
        if (jsonv_enum(v, "/constraints/pricing", pricing, &basis, err))
            s->purchase = basis == 1;
        else
            ok = false;
    }
    if ((v = json_object_get(c, "amortization_years")) != NULL) {
        ok = jsonv_number(v, "/constraints/amortization_years", 0, 20, &s->amortization_years,
                          err) &&
             ok;
        if (ok && !s->purchase) {
            gs_error_add(err, GS_ERR_INVALID, "/constraints/amortization_years",
                         "applies to \"pricing\": \"purchase\" only");
            ok = false;
        }
    }
    if ((v = json_object_get(c, "tco")) != NULL) {
        ok = decode_tco(v, s, err) && ok;
        if (ok && !s->purchase)
            ok = refuse(err, "/constraints/tco", "applies to \"pricing\": \"purchase\" only");
    }
    s->tco.amortization_years = s->amortization_years;
    if ((v = json_object_get(c, "allow")) != NULL)
        ok = decode_allow(v, s, err) && ok;
    return ok;
}

static bool read_fraction(const json_t *e, const char *key, uint64_t *permille,
                          struct gs_error *err)
{
    double x = 0;
    if (json_object_get(e, key) == NULL)
        return true;
    char where[64];
    jsonv_pointer(where, sizeof(where), "/efficiency", key);
    if (!read_rate(e, key, "/efficiency", 1, &x, err))
        return false;
    if (x < 0.001)
        return refuse(err, where, "must be at least 0.001");
    *permille = (uint64_t)llround(x * 1000);
    return true;
}

static bool decode_efficiency(const json_t *e, struct sizing *s, struct gs_error *err)
{
    static const char *const keys[] = {"decode_bandwidth", "decode_compute",       "prefill",
                                       "training_mfu",     "allreduce_latency_us", NULL};
    gs_efficiency_defaults(&s->eff);
    if (e == NULL)
        return true;
    if (!json_is_object(e))
        return refuse(err, "/efficiency", "must be an object");
    if (!jsonv_only_keys(e, "/efficiency", keys, err))
        return false;
    bool ok = read_fraction(e, "decode_bandwidth", &s->eff.decode_bandwidth_permille, err);
    ok = read_fraction(e, "decode_compute", &s->eff.decode_compute_permille, err) && ok;
    ok = read_fraction(e, "prefill", &s->eff.prefill_permille, err) && ok;
    ok = read_fraction(e, "training_mfu", &s->eff.training_mfu_permille, err) && ok;
    ok = read_rate(e, "allreduce_latency_us", "/efficiency", 1e4, &s->eff.allreduce_latency_us,
                   err) &&
         ok;
    return ok;
}

/* Fills what the search needs and the request left out: a serving section
 * from the demand's prompt and output lengths, a training shape. */
static bool complete_workload(struct sizing *s, struct gs_error *err)
{
    struct gs_workload *w = &s->req.workload;
    struct gs_demand *d = &s->demand;
    if (w->mode == GS_MODE_INFERENCE && s->req.gpu != NULL && !w->serving.present)
        return true; /* /v1/fit without serving settings: weights and overhead against capacity */
    if (w->mode == GS_MODE_INFERENCE) {
        const bool rate = d->kind == GS_DEMAND_OUTPUT_TOKENS || d->kind == GS_DEMAND_REQUESTS;
        if (!w->serving.present) {
            if (!d->prompt_tokens || !d->output_tokens)
                return refuse(err, "/inference",
                              "is required (batch_size and context_length), or give "
                              "demand.prompt_tokens and demand.output_tokens");
            w->serving.present = true;
            w->serving.batch_size = 1;
            w->serving.context_length = d->prompt_tokens + d->output_tokens;
            w->serving.prompt_tokens = d->prompt_tokens;
        }
        if (!d->prompt_tokens || !d->output_tokens) {
            if (rate && (d->prompt_tokens || d->output_tokens))
                return refuse(err, "/demand", "give both prompt_tokens and output_tokens");
            /* the request's split when it gave one, else half and half */
            const uint64_t ctx = w->serving.context_length;
            d->prompt_tokens = w->serving.prompt_tokens ? w->serving.prompt_tokens : (ctx + 1) / 2;
            d->output_tokens = ctx > d->prompt_tokens ? ctx - d->prompt_tokens : 1;
            s->shape_defaulted = !w->serving.prompt_tokens;
        }
        if (d->prompt_tokens + d->output_tokens > w->serving.context_length) {
            gs_error_add(err, GS_ERR_INVALID, "/demand/output_tokens",
                         "prompt_tokens + output_tokens exceed inference.context_length %llu",
                         (unsigned long long)w->serving.context_length);
            return false;
        }
        /* each sequence holds its prompt and answer in the paged cache; context_length stays
         * the admission limit (max_model_len) */
        if (!w->serving.sequence_tokens)
            w->serving.sequence_tokens = d->prompt_tokens + d->output_tokens;
    } else {
        if (!w->training.sequence_length) {
            w->training.sequence_length = DEFAULT_SEQUENCE;
            s->sequence_defaulted = true;
        }
        if (!w->training.batch_size)
            w->training.batch_size = 1;
    }
    return true;
}

static bool parallelism_given(const struct gs_parallelism *p)
{
    return p->tensor > 1 || p->pipeline > 1 || p->data > 1 || p->context > 1 || p->expert > 1 ||
           p->zero_stage != 0 || p->offload != GS_OFFLOAD_NONE || p->distributed_optimizer;
}

/* Decodes the whole request. `fit` selects /v1/fit's members. */
static enum gs_status decode_sizing(const struct service *svc, const json_t *body, bool fit,
                                    struct sizing *s, struct gs_error *err)
{
    /* all but the memos' entries, read only below their counts (32 KiB of the 37) */
    memset(s, 0, offsetof(struct sizing, weights_memo));
    s->weights_memo.count = s->weights_memo.next = 0;
    s->kv_memo.count = s->kv_memo.next = 0;
    s->body = body;
    gs_plan_limits_defaults(&s->limits);
    gs_efficiency_defaults(&s->eff);
    if (!json_is_object(body))
        return gs_error_add(err, GS_ERR_INVALID, "", "the request body must be a JSON object");
    /* members of the other endpoints get a pointed message, the rest the usual hint; every
     * problem of the request is collected before answering */
    json_t *base = json_copy((json_t *)(uintptr_t)body);
    if (base == NULL)
        return gs_error_add(err, GS_ERR_NOMEM, "", "out of memory");
    bool ok = true;
    if (!fit && json_object_get(body, "gpu") != NULL) {
        gs_error_add(
            err, GS_ERR_INVALID, "/gpu",
            "name candidate GPUs in constraints.gpus (all by default); /v1/fit takes one gpu");
        json_object_del(base, "gpu");
        ok = false;
    }
    if (json_object_get(body, "parity") != NULL) {
        gs_error_add(err, GS_ERR_INVALID, "/parity", "is used by /v1/estimate only");
        json_object_del(base, "parity");
        ok = false;
    }
    if (!jsonv_only_keys(base, "", fit ? codec_fit_keys : codec_recommend_keys, err)) {
        json_decref(base);
        return GS_ERR_INVALID;
    }
    const char *const extra[] = {"demand", "constraints", "efficiency", "gpu_count"};
    for (size_t i = 0; i < 4; i++)
        json_object_del(base, extra[i]);
    /* /v1/fit answers "how long a context" without one: the engine's default max_model_len,
     * the model's own limit, is set once the model is known (1 until then) */
    json_t *inference = json_object_get(base, "inference");
    if (fit && json_is_object(inference) && json_object_get(inference, "context_length") == NULL &&
        json_object_get(inference, "prompt_tokens") == NULL &&
        json_object_get(inference, "output_tokens") == NULL) {
        /* base is a shallow copy: the request's own inference object stays as sent */
        json_t *own = json_deep_copy(inference);
        if (own == NULL || json_object_set_new(own, "context_length", json_integer(1)) != 0 ||
            json_object_set_new(base, "inference", own) != 0) {
            json_decref(base);
            return gs_error_add(err, GS_ERR_NOMEM, "", "out of memory");
        }
        s->context_defaulted = true;
    }
    const struct catalog_snapshot *snap = service_snapshot(svc);
    struct codec_arch_table archs;
    service_arch_table(svc, &archs);
    enum gs_status st = codec_decode_estimate(base, snap, &archs, &s->req, err);
    json_decref(base);
    if (st != GS_OK && st != GS_ERR_INVALID)
        return st;
    ok = ok && st == GS_OK;
    /* a config sent with the request is counted once for the whole search (catalog models
     * come counted); on failure the first estimate reports the config's errors */
    if (ok && !s->req.model.counted)
        (void)gs_model_spec_count(&s->req.model, NULL);
    if (ok && s->context_defaulted) {
        const uint64_t limit = s->req.model.has_arch ? s->req.model.arch.max_model_len : 0;
        if (limit == 0)
            return gs_error_add(err, GS_ERR_INVALID, "/inference/context_length",
                                "is required: the model's config gives no maximum position "
                                "(max_position_embeddings) to take as the context");
        s->req.workload.serving.context_length = limit;
    }
    s->req.model.weights_memo = &s->weights_memo; /* zeroed with s; one model per request */
    s->req.model.kv_memo = &s->kv_memo;
    if (fit) {
        if (st == GS_OK && s->req.gpu == NULL)
            ok = refuse(err, "/gpu", "is required: the GPU type to fit on");
        ok = read_count(body, "gpu_count", "", 1, 65536, &s->fit_count, err) && ok;
        if (!ok)
            return GS_ERR_INVALID;
        s->limits.max_gpus = s->fit_count > 1024 ? s->fit_count : 1024;
    } else {
        ok = decode_demand(json_object_get(body, "demand"), s, err) && ok;
        ok = decode_constraints(json_object_get(body, "constraints"), snap, s, err) && ok;
        gs_tco_integrated(&s->tco, &s->tco_integrated);
        ok = decode_efficiency(json_object_get(body, "efficiency"), s, err) && ok;
        if (!ok)
            return GS_ERR_INVALID;
        if (s->candidates == NULL) { /* every catalog GPU, however many the catalog holds */
            s->candidates = calloc(snap->gpu_count ? snap->gpu_count : 1, sizeof(*s->candidates));
            if (s->candidates == NULL)
                return gs_error_add(err, GS_ERR_NOMEM, "", "out of memory");
            for (size_t i = 0; i < snap->gpu_count; i++)
                s->candidates[s->candidate_count++] = &snap->gpus[i];
        }
        s->parallelism_ignored = parallelism_given(&s->req.workload.parallelism);
    }
    if (!complete_workload(s, err))
        return GS_ERR_INVALID;
    /* the request on one GPU: validates it, and gives the model facts (and for /v1/fit
     * what /v1/estimate says of it on that GPU) */
    struct gs_workload one = s->req.workload;
    gs_parallelism_defaults(&one.parallelism);
    if (!fit)
        one.gpu.total_bytes = 0;
    return gs_estimate_compute(&s->req.model, &one, &s->probe, err);
}

/* ---------------------------------------------------------------- GPUs */

static double real_or_zero(struct catalog_real r)
{
    return r.present ? r.value : 0;
}

/* An integrated GPU's purchase price and TDP are its whole system's (gs/cost.h). */
static bool integrated(const struct catalog_gpu *g)
{
    return g->unified_memory.present && g->unified_memory.value != 0;
}

static const struct gs_tco_params *tco_params(const struct sizing *s, const struct catalog_gpu *g)
{
    return integrated(g) ? &s->tco_integrated : &s->tco;
}

static void plan_gpu(const struct sizing *s, const struct catalog_gpu *g, struct gs_plan_gpu *out)
{
    memset(out, 0, sizeof(*out));
    codec_gpu_view(g, &out->view);
    out->gpus_per_node = s->gpus_per_node           ? s->gpus_per_node
                         : g->gpus_per_node.present ? (uint64_t)g->gpus_per_node.value
                                                    : DEFAULT_NODE;
    out->perf.memory_bandwidth_gb_s = real_or_zero(g->memory_bandwidth_gb_s);
    out->perf.bf16_tflops = real_or_zero(g->bf16_tflops);
    out->perf.fp16_tflops = real_or_zero(g->fp16_tflops);
    out->perf.interconnect_gb_s = real_or_zero(g->interconnect_gb_s);
    out->scale_out_bytes_per_s = real_or_zero(g->scale_out_gb_s) * 1e9;
    out->perf.pcie_gen = g->pcie_gen.present ? (unsigned)g->pcie_gen.value : 0;
    if (s->purchase && g->purchase_price.present) {
        struct gs_tco tco;
        gs_tco_compute(tco_params(s, g), g->purchase_price.value, real_or_zero(g->tdp_watts),
                       out->gpus_per_node, &tco);
        out->has_price = true;
        out->price_per_gpu_hour = tco.per_hour;
    } else if (!s->purchase && g->price_per_hour.present) {
        out->has_price = true;
        out->price_per_gpu_hour = g->price_per_hour.value;
    }
}

/* ---------------------------------------------------------------- encode */


/* Answers are written as text (json_out.h's writer), not built as trees: a whole-catalog
 * recommendation has hundreds of members, and building, dumping and freeing its tree was a
 * third of the request. The irregular parts (the model, the assumptions, each option's
 * estimate_request) are still built as small trees and written in place. */

static void write_plan(struct json_writer *w, const struct gs_plan *p, bool training)
{
    json_w_begin_object(w);
    json_w_member_int(w, "tensor", (json_int_t)p->tensor);
    json_w_member_int(w, "pipeline", (json_int_t)p->pipeline);
    json_w_member_int(w, "data", (json_int_t)p->data);
    json_w_member_int(w, "expert", (json_int_t)p->expert);
    json_w_member_int(w, "zero_stage", (json_int_t)p->zero_stage);
    json_w_member_string(w, "activation_checkpointing", codec_recompute_name(p->recompute));
    json_w_member_string(w, "offload", codec_offload_name(p->offload));
    if (training) {
        json_w_member_bool(w, "sequence_parallel", p->tensor > 1);
    } else {
        json_w_member_int(w, "attention_data",
                   (json_int_t)(p->attention_data > 1 ? p->attention_data : 1));
    }
    json_w_end_object(w);
}

static void write_throughput(struct json_writer *w, const struct gs_plan *p, bool training)
{
    json_w_begin_object(w);
    if (training) {
        const struct gs_train_result *t = &p->train;
        json_w_member_real(w, "tokens_per_s", t->tokens_per_s);
        json_w_member_real(w, "wall_clock_hours", t->seconds / 3600);
        json_w_member_real(w, "wall_clock_days", t->seconds / 86400);
        json_w_member_real(w, "gpu_hours", t->gpu_hours);
        json_w_member_real(w, "mfu", t->mfu);
        json_w_member_real(w, "bubble_factor", t->bubble_factor);
        json_w_member_real(w, "recompute_factor", t->hardware_factor);
        json_w_member_real(w, "flops_per_token", t->flops_per_token);
        json_w_member_real(w, "comm_factor", t->comm_factor);
        json_w_end_object(w);
        return;
    }
    const struct gs_decode_result *d = &p->decode;
    json_w_member_int(w, "batch_per_replica", (json_int_t)p->batch_per_replica);
    json_w_member_real(w, "decode_tokens_per_s", d->decode_tokens_per_s * (double)p->replicas);
    json_w_member_real(w, "output_tokens_per_s", p->output_tokens_per_s);
    json_w_member_real(w, "requests_per_s", p->requests_per_s);
    json_w_member_real(w, "prefill_tokens_per_s", p->prefill_tokens_per_s);
    json_w_member_real(w, "ttft_ms", p->ttft_seconds * 1000);
    json_w_member_real(w, "tpot_ms", p->tpot_seconds * 1000);
    json_w_key(w, "per_replica");
    json_w_begin_object(w);
    json_w_member_real(w, "decode_tokens_per_s", d->decode_tokens_per_s);
    json_w_member_real(w, "output_tokens_per_s", d->output_tokens_per_s);
    json_w_member_real(w, "requests_per_s", d->requests_per_s);
    json_w_member_real(w, "prefill_tokens_per_s", d->prefill_tokens_per_s);
    json_w_member_real(w, "step_seconds", d->step_seconds);
    json_w_member_real(w, "memory_seconds", d->memory_seconds);
    json_w_member_real(w, "compute_seconds", d->compute_seconds);
    json_w_member_real(w, "comm_seconds", d->comm_seconds);
    json_w_member_real(w, "prefill_seconds", d->prefill_seconds);
    json_w_end_object(w);
    if (p->disaggregated)
        json_w_member_real(w, "kv_transfer_ms", p->kv_transfer_seconds * 1000);
    if (p->decode.experts_touched > 0)
        json_w_member_real(w, "experts_touched_per_layer", p->decode.experts_touched);
    json_w_end_object(w);
}

/* After its key: v, or null when not present. */
static void write_nullable_real(struct json_writer *w, bool present, double v)
{
    if (present)
        json_w_real(w, v);
    else
        json_w_null(w);
}

/* Member `key` of the request, as it was sent, when present. */
static void copy_member(struct json_writer *w, const json_t *body, const char *key)
{
    const json_t *v = json_object_get(body, key);
    if (v != NULL) {
        json_w_key_text(w, key);
        json_w_value(w, v);
    }
}

/* A member the answer sets in an object of the request (see write_patched). */
struct patch {
    const char *key;
    enum { PATCH_U64, PATCH_STRING, PATCH_DELETE } kind;
    uint64_t u64;
    const char *string;
};

static void write_patch_value(struct json_writer *w, const struct patch *p)
{
    if (p->kind == PATCH_U64)
        json_w_u64(w, p->u64);
    else
        json_w_string(w, p->string);
}

/* Section `given` of the request (NULL: absent) with the patches applied in order, as
 * jansson's json_object_set and json_object_del would leave a copy of it: a member set that
 * was there keeps its place, a new one goes last (in the patches' order), a deleted one is
 * gone. A patch list never names a key twice. */
static void write_patched(struct json_writer *w, const json_t *given, const struct patch *patches,
                          size_t n)
{
    if (given != NULL && !json_is_object(given)) { /* decode_sizing lets none through */
        w->failed = true;
        return;
    }
    bool placed[8] = {false};
    if (n > sizeof(placed) / sizeof(placed[0])) {
        w->failed = true;
        return;
    }
    json_w_begin_object(w);
    const char *key;
    const json_t *value;
    json_object_foreach((json_t *)(uintptr_t)given, key, value) {
        size_t i = 0;
        while (i < n && strcmp(patches[i].key, key) != 0)
            i++;
        if (i < n)
            placed[i] = true;
        if (i < n && patches[i].kind == PATCH_DELETE)
            continue;
        json_w_key_text(w, key);
        if (i < n)
            write_patch_value(w, &patches[i]);
        else
            json_w_value(w, value);
    }
    for (size_t i = 0; i < n; i++) {
        if (placed[i] || patches[i].kind == PATCH_DELETE)
            continue;
        json_w_key_text(w, patches[i].key);
        write_patch_value(w, &patches[i]);
    }
    json_w_end_object(w);
}

/* The /v1/estimate request that reproduces an option: the request's model,
 * precision, engine knobs, training settings and overrides, with the
 * option's GPU, layout, precision and batch. Posted as it is, it answers
 * with the option's per_gpu figures and fit. */
static void write_estimate_request(struct json_writer *w, const struct sizing *s,
                                   const struct catalog_gpu *g, const struct gs_plan_gpu *pg,
                                   const struct gs_plan *p)
{
    const struct gs_workload *wl = &s->req.workload;
    const bool training = wl->mode == GS_MODE_TRAINING;
    json_w_begin_object(w);
    json_w_member_string(w, "mode", training ? "training" : "inference");
    json_w_member_string(w, "gpu", g->id);
    copy_member(w, s->body, "model");
    copy_member(w, s->body, "overrides");
    if (training) {
        copy_member(w, s->body, "precision");
        const struct patch train[] = {
            {"batch_size", PATCH_U64, wl->training.batch_size, NULL},
            {"sequence_length", PATCH_U64, wl->training.sequence_length, NULL},
            {"activation_checkpointing", PATCH_STRING, 0, codec_recompute_name(p->recompute)},
        };
        json_w_key(w, "training");
        write_patched(w, json_object_get(s->body, "training"), train, 3);
        json_w_key(w, "parallelism");
        json_w_begin_object(w);
        json_w_member_int(w, "tensor", (json_int_t)p->tensor);
        json_w_member_int(w, "pipeline", (json_int_t)p->pipeline);
        json_w_member_int(w, "data", (json_int_t)p->data);
        json_w_member_int(w, "expert", (json_int_t)(p->expert ? p->expert : 1));
        json_w_member_string(w, "offload", codec_offload_name(p->offload));
        json_w_member_bool(w, "sequence_parallel", p->tensor > 1);
        json_w_member_int(w, "gpus_per_node", (json_int_t)pg->gpus_per_node);
        static const char *const fsdp_names[] = {"no_shard", NULL, "shard_grad_op", "full_shard"};
        if (wl->parallelism.fsdp && p->zero_stage != 1)
            json_w_member_string(w, "zero_stage", p->zero_stage < 4 ? fsdp_names[p->zero_stage] : NULL);
        else
            json_w_member_int(w, "zero_stage", (json_int_t)p->zero_stage);
        if (wl->parallelism.fsdp && (p->zero_stage == 1 || wl->parallelism.fsdp_version))
            json_w_member_int(w, "fsdp_version",
                       wl->parallelism.fsdp_version ? wl->parallelism.fsdp_version : 2);
        if (wl->parallelism.fsdp_use_orig_params) {
            json_w_member_bool(w, "fsdp_use_orig_params", true);
        }
        json_w_end_object(w);
        json_w_end_object(w);
        return;
    }
    /* the checkpoint's own format (gpt-oss's experts-only MXFP4, a GPTQ group size) is what
     * an estimate without a precision sizes; a format the search chose is named */
    if (!(wl->format_from_checkpoint && p->format == gs_workload_format(wl))) {
        json_w_key(w, "precision");
        json_w_begin_object(w);
        json_w_member_string(w, "weights", gs_weight_format_name(p->format));
        const json_t *given = json_object_get(json_object_get(s->body, "precision"), "group_size");
        if (given != NULL && p->format == gs_workload_format(wl)) {
            json_w_key(w, "group_size");
            json_w_value(w, given);
        }
        json_w_end_object(w);
    }
    const json_t *section = json_object_get(s->body, "inference");
    const bool split = section != NULL && json_object_get(section, "prompt_tokens") != NULL;
    /* the batch the option's figures hold (core/src/plan.c: the planned batch under a rate
     * or latency demand, else the request's) */
    struct patch inf[6] = {
        {"batch_size", PATCH_U64, p->estimate_batch ? p->estimate_batch : wl->serving.batch_size,
         NULL},
        {"kv_cache_dtype", PATCH_STRING, 0, gs_kv_dtype_name(p->kv_dtype)},
    };
    size_t n = 2;
    if (!split && wl->serving.prompt_tokens &&
        wl->serving.prompt_tokens <= wl->serving.context_length) {
        /* the prompt/answer split the search used (an encoder-decoder caches the prompt) */
        inf[n++] = (struct patch){"context_length", PATCH_DELETE, 0, NULL};
        inf[n++] = (struct patch){"prompt_tokens", PATCH_U64, wl->serving.prompt_tokens, NULL};
        inf[n++] = (struct patch){"output_tokens", PATCH_U64,
                                  wl->serving.context_length - wl->serving.prompt_tokens, NULL};
    } else if (!split) {
        inf[n++] = (struct patch){"context_length", PATCH_U64, wl->serving.context_length, NULL};
    }
    if (wl->serving.sequence_tokens && wl->serving.sequence_tokens < wl->serving.context_length)
        inf[n++] = (struct patch){"sequence_tokens", PATCH_U64, wl->serving.sequence_tokens, NULL};
    json_w_key(w, "inference");
    write_patched(w, section, inf, n);
    json_w_key(w, "parallelism");
    json_w_begin_object(w);
    json_w_member_int(w, "tensor", (json_int_t)p->tensor);
    json_w_member_int(w, "pipeline", (json_int_t)p->pipeline);
    if (p->attention_data > 1) {
        json_w_member_int(w, "data", (json_int_t)p->attention_data);
        json_w_member_int(w, "expert", (json_int_t)p->expert);
    }
    json_w_end_object(w);
    json_w_end_object(w);
}

static void write_option(struct json_writer *w, const struct sizing *s, const struct catalog_gpu *g,
                         const struct gs_plan_gpu *pg, const struct gs_plan *p, size_t rank)
{
    const bool training = s->req.workload.mode == GS_MODE_TRAINING;
    json_w_begin_object(w);
    json_w_member_int(w, "rank", (json_int_t)rank);
    json_w_member_string(w, "gpu", g->id);
    json_w_member_string(w, "name", g->name);
    json_w_member_int(w, "gpu_count", (json_int_t)p->gpu_count);
    json_w_member_int(w, "nodes", (json_int_t)p->nodes);
    json_w_member_int(w, "gpus_per_node", (json_int_t)pg->gpus_per_node);
    json_w_key(w, "plan");
    write_plan(w, p, training);
    json_w_key(w, "per_gpu");
    codec_write_memory(w, &p->estimate.per_gpu);
    if (!training) {
        json_w_member_int(w, "replicas", (json_int_t)p->replicas);
        json_w_member_bool(w, "disaggregated", p->disaggregated);
        json_w_member_int(w, "prefill_replicas", (json_int_t)p->prefill_replicas);
        json_w_key(w, "precision");
        json_w_begin_object(w);
        json_w_member_string(w, "weights", gs_weight_format_name(p->format));
        json_w_member_string(w, "kv_cache_dtype", gs_kv_dtype_name(p->kv_dtype));
        json_w_end_object(w);
    }
    json_w_member_u64(w, "usable_bytes", pg->view.total_bytes);
    json_w_member_u64(w, "limit_bytes", p->limit_bytes);
    json_w_member_int(w, "headroom_bytes", (json_int_t)p->headroom_bytes);
    json_w_key(w, "price_per_gpu_hour");
    write_nullable_real(w, p->has_price, p->price_per_gpu_hour);
    json_w_key(w, "cost_per_hour");
    write_nullable_real(w, p->has_price, p->cost_per_hour);
    if (p->has_price && s->purchase) {
        struct gs_tco t;
        gs_tco_compute(tco_params(s, g), g->purchase_price.value, real_or_zero(g->tdp_watts),
                       pg->gpus_per_node, &t);
        json_w_key(w, "tco");
        json_w_begin_object(w);
        json_w_member_real(w, "gpu_usd", t.gpu_usd);
        json_w_member_real(w, "server_usd", t.server_usd);
        json_w_member_real(w, "network_usd", t.network_usd);
        json_w_member_real(w, "amortization_years", s->tco.amortization_years);
        json_w_member_real(w, "capital_per_gpu_hour", t.capital_per_hour);
        json_w_key(w, "facility_watts_per_gpu");
        write_nullable_real(w, t.has_power, t.facility_watts);
        json_w_member_real(w, "power_per_gpu_hour", t.power_per_hour);
        json_w_member_real(w, "per_gpu_hour", t.per_hour);
        json_w_end_object(w);
    }
    if (p->has_price) {
        const char *src = s->purchase ? g->purchase_price_source : g->price_source;
        const char *date = s->purchase ? g->purchase_price_date : g->price_date;
        json_w_member_string(w, "price_source", src != NULL ? src : "");
        json_w_key(w, "price_date");
        if (date != NULL)
            json_w_string(w, date);
        else
            json_w_null(w);
    }
    if (p->has_throughput) {
        json_w_key(w, "throughput");
        write_throughput(w, p, training);
    }
    if (training && p->has_throughput && p->has_price) {
        json_w_member_real(w, "total_cost", p->total_cost);
        json_w_member_real(w, "gpu_hours", p->train.gpu_hours);
    }
    if (!training && p->has_price && p->has_throughput && p->output_tokens_per_s > 0)
        json_w_member_real(w, "cost_per_million_tokens", p->cost_per_million_tokens);
    if (training && p->offload != GS_OFFLOAD_NONE)
        json_w_member_u64(w, "host_bytes", p->estimate.host_bytes_per_node);
    json_w_key(w, "estimate_request");
    write_estimate_request(w, s, g, pg, p);
    json_w_end_object(w);
}

static const char *reject_detail(enum gs_plan_reject why, const struct sizing *s)
{
    switch (why) {
    case GS_REJECT_DOES_NOT_FIT:
        return s->req.workload.mode == GS_MODE_TRAINING
                   ? "does not fit even at max_gpus with the allowed techniques"
                   : "no replica of up to max_gpus GPUs starts and holds the batch at the context";
    case GS_REJECT_MISSES_DEMAND:
        return s->req.workload.mode == GS_MODE_TRAINING
                   ? "fits, but cannot finish the training tokens by the deadline within max_gpus"
                   : "fits, but cannot reach the demanded rate within max_gpus";
    case GS_REJECT_OVER_BUDGET:
        return "the cheapest plan costs more per hour than max_cost_per_hour";
    case GS_REJECT_NO_PRICE:
        return s->purchase ? "no purchase price in the catalog"
                           : "no on-demand price in the catalog";
    case GS_REJECT_NO_THROUGHPUT:
        return "the catalog lacks the memory bandwidth or dense FLOPS figures the demand needs";
    case GS_REJECT_COMM_BOUND:
        return "every layout that fits waits on its tensor-parallel all-reduces longer than it "
               "reads the weights and cache or computes (PCIe or too little memory per GPU)";
    case GS_REJECT_UNSUPPORTED:
        return "the GPU has no kernels for the requested weight format or KV-cache dtype "
               "(a warning on /v1/estimate names the rule)";
    case GS_REJECT_MISSES_LATENCY:
        return "no layout within max_gpus meets the ttft_ms/tpot_ms targets, even one sequence "
               "at a time";
    case GS_REJECT_NONE:
        break;
    }
    return "";
}

static bool add_note(struct json_writer *w, const char *name, const char *detail,
                     const char *source, double value)
{
    json_w_begin_object(w);
    json_w_member_string(w, "name", name);
    json_w_member_string(w, "detail", detail);
    json_w_member_string(w, "source", source);
    if (!isnan(value))
        json_w_member_real(w, "value", value);
    json_w_end_object(w);
    return !w->failed;
}

/* The search's own assumptions, then the estimate's. */
static void write_assumptions(struct json_writer *w, const struct sizing *s, bool fit)
{
    json_w_begin_array(w);
    bool ok = true;
    const bool training = s->req.workload.mode == GS_MODE_TRAINING;
    char detail[1024];
    if (fit) {
        /* /v1/fit prices nothing and measures no speed: the layout rule and the estimate's own */
        if (s->context_defaulted)
            ok = add_note(w, "context_length",
                          "the request gave no context_length: the model's own limit "
                          "(max_position_embeddings with its rope scaling), which vLLM takes as "
                          "max_model_len by default; max_batch is at that context and max_context "
                          "at the request's batch",
                          "vLLM config _get_and_verify_max_len",
                          (double)s->req.workload.serving.context_length);
    } else if (ok && !training) {
        if (s->latency_defaulted)
            ok = add_note(w, "tpot_target",
                          "the demand gave no latency target: every option holds this time per "
                          "output token (25 tokens/s each user sees); give demand.tpot_ms or "
                          "output_tokens_per_s_per_user to change it, \"tpot_ms\": null for none",
                          "MLPerf Inference interactive target for its 70B chat model "
                          "(mlcommons/inference loadgen/mlperf.conf: "
                          "llama2-70b-interactive.Server.tpot_latency = 40)",
                          GS_DEMAND_DEFAULT_TPOT_MS);
        ok = ok && add_note(w, "decode_bandwidth_efficiency",
                      "decode steps read the weights and the batch's KV cache at this share of "
                      "the GPU's memory bandwidth",
                      "gpusizer default [U]: a realistic share of memory bandwidth, 0.6-0.8",
                      (double)s->eff.decode_bandwidth_permille / 1000) &&
             add_note(w, "decode_compute_efficiency",
                      "large decode batches run their FLOPs at this share of dense BF16 peak",
                      "gpusizer default [U]", (double)s->eff.decode_compute_permille / 1000) &&
             add_note(w, "prefill_efficiency",
                      "prompts are processed at this share of dense BF16 peak (compute-bound, "
                      "2 N_active T + 2 L T^2 a d FLOPs)",
                      "gpusizer default [U]: compute-bound prefill at half of dense peak",
                      (double)s->eff.prefill_permille / 1000) &&
             add_note(w, "batch_per_replica",
                      "each replica runs as many sequences as its KV cache holds at the context, "
                      "at most max_num_seqs; throughput is reported at that batch",
                      "vLLM scheduling (max_num_seqs) and the engine's KV budget", NAN) &&
             add_note(w, "demand_tokens",
                      "output_tokens_per_s counts generated tokens; each request prefills "
                      "prompt_tokens and then decodes output_tokens at the mean context",
                      "gpusizer convention", NAN) &&
             add_note(w, "tensor_parallel_communication",
                      "two ring all-reduces of the bf16 hidden state per layer per step, over "
                      "half the catalog's two-way interconnect figure (PCIe x16 when none)",
                      "Shoeybi et al. 2019 (Megatron-LM, arXiv 1909.08053): two all-reduces per "
                      "layer",
                      s->eff.allreduce_latency_us > 0 ? s->eff.allreduce_latency_us : 10);
        if (ok && s->shape_defaulted)
            ok = add_note(w, "request_shape",
                          "the demand gave no prompt and output lengths: "
                          "half the context each",
                          "gpusizer default", NAN);
    } else if (ok) {
        ok = add_note(w, "training_mfu",
                      "model FLOPs utilization (6 N D counted, 4 N D with LoRA): 0.40 for dense "
                      "models, 0.30 for MoE unless given",
                      "Narayanan et al. 2021 (arXiv 2104.04473) and Llama 2 (arXiv 2307.09288): "
                      "35-45% dense at scale (Megatron 41-48%, Llama 2 39-43%), "
                      "20-35% MoE [U]",
                      s->eff.training_mfu_permille ? (double)s->eff.training_mfu_permille / 1000
                                                   : NAN) &&
             add_note(w, "pipeline_bubble",
                      "1F1B pipelines idle (p - 1) / (m + p - 1) of the time, m the gradient "
                      "accumulation micro-batches",
                      "Narayanan et al. 2021 (arXiv 2104.04473): a 1F1B bubble of (p-1)/m of "
                      "the step", NAN) &&
             add_note(w, "recompute_cost",
                      "full recomputation runs the forward pass again (8 N D of work for 6 N D); "
                      "selective recomputation is taken as free",
                      "Narayanan et al. 2021 (arXiv 2104.04473)", NAN) &&
             add_note(w, "peak_flops",
                      "dense BF16 (FP16 where BF16 is not listed); fp32 and AMP regimes on TF32 "
                      "at half of it",
                      "the catalog's spec_source per GPU", NAN);
        if (ok && s->sequence_defaulted)
            ok = add_note(w, "training_shape",
                          "the request gave no sequence_length: 4096 tokens, micro-batch 1",
                          "gpusizer default", DEFAULT_SEQUENCE);
    }
    if (ok && !fit) {
        if (s->purchase)
            snprintf(detail, sizeof(detail),
                     "owned cost per GPU-hour: the purchase price plus %g x it for the server and "
                     "%g x both for the network, over %g years of continuous use, plus %.0f%% of "
                     "the GPU's TDP and its share of %g W host and %g W network per node at PUE "
                     "%g and $%g per kWh (each in constraints.tco); an integrated GPU (unified "
                     "memory: GB10, Jetson) is bought with its host, so its price and TDP are the "
                     "whole system's: no server share and no host watts",
                     s->tco.server_fraction, s->tco.network_fraction, s->amortization_years,
                     s->tco.power_draw_fraction * 100, s->tco.host_watts_per_node,
                     s->tco.network_watts_per_node, s->tco.pue, s->tco.usd_per_kwh);
        else
            snprintf(detail, sizeof(detail),
                     "the catalog's current on-demand price per GPU-hour for every GPU of an "
                     "option");
        ok = add_note(w, "pricing", detail,
                      "the catalog's price history (GET /v1/gpus/{id}/prices)", NAN);
    }
    if (ok) {
        ok = add_note(w, "gpus_per_node",
                      "tensor parallelism stays within a node: the catalog's GPUs per node, 8 "
                      "where it has none, unless constraints.gpus_per_node says otherwise",
                      "Narayanan et al. 2021 (arXiv 2104.04473): tensor parallelism within a "
                      "node (8 GPUs on HGX/DGX)", NAN);
    }
    if (ok)
        codec_write_assumption_items(w, &s->req, &s->probe);
    json_w_end_array(w);
}

/* The estimate's warnings for the request, less the one asking for a GPU
 * (the search sizes every candidate on its own GPU). */
static void write_probe_warnings(struct json_writer *w, const struct sizing *s)
{
    for (size_t i = 0; i < s->probe.warning_count; i++)
        if (strcmp(s->probe.warnings[i].code, "engine_budget_needs_gpu") != 0)
            codec_write_warning(w, s->probe.warnings[i].code, s->probe.warnings[i].detail);
}

static json_t *encode_demand(const struct sizing *s)
{
    const struct gs_demand *d = &s->demand;
    if (s->req.workload.mode == GS_MODE_TRAINING)
        return json_pack("{s:o, s:o}", "training_tokens",
                         d->training_tokens > 0 ? json_real(d->training_tokens) : json_null(),
                         "deadline_days",
                         d->deadline_days > 0 ? json_real(d->deadline_days) : json_null());
    return json_pack(
        "{s:o, s:o, s:I, s:I, s:o, s:o, s:i}", "output_tokens_per_s",
        d->kind == GS_DEMAND_OUTPUT_TOKENS ? json_real(d->rate) : json_null(), "requests_per_s",
        d->kind == GS_DEMAND_REQUESTS ? json_real(d->rate) : json_null(), "prompt_tokens",
        (json_int_t)d->prompt_tokens, "output_tokens", (json_int_t)d->output_tokens, "ttft_ms",
        d->ttft_ms > 0 ? json_real(d->ttft_ms) : json_null(), "tpot_ms",
        d->tpot_ms > 0 ? json_real(d->tpot_ms) : json_null(), "percentile",
        d->percentile ? (int)d->percentile : 50);
}

/* ------------------------------------------------------------- recommend */

/* The answer's size is bounded whatever the catalog holds (a bulk-loaded catalog may have
 * thousands of GPU types): the cheapest `constraints.max_options` options (50 unless
 * given, at most 1,000), the first 100 rejected GPU types in catalog order, and the counts
 * of both in full (options_total, rejected_total, rejected_by_reason). */
#define RECOMMEND_OPTIONS_DEFAULT 50
#define RECOMMEND_REJECTED_LISTED 100

static void write_rejections(struct json_writer *w, const struct sizing *s,
                             const struct candidate *cands, size_t n)
{
    enum { REASONS = GS_REJECT_COMM_BOUND + 1 };
    uint64_t by_reason[REASONS] = {0};
    uint64_t total = 0;
    json_w_key(w, "rejected");
    json_w_begin_array(w);
    for (size_t i = 0; i < n; i++) {
        if (cands[i].why == GS_REJECT_NONE)
            continue;
        if ((unsigned)cands[i].why < REASONS)
            by_reason[cands[i].why]++;
        if (total++ >= RECOMMEND_REJECTED_LISTED)
            continue;
        json_w_begin_object(w);
        json_w_member_string(w, "gpu", cands[i].gpu->id);
        json_w_member_string(w, "name", cands[i].gpu->name);
        json_w_member_string(w, "reason", gs_plan_reject_code(cands[i].why));
        json_w_member_string(w, "detail", reject_detail(cands[i].why, s));
        json_w_end_object(w);
    }
    json_w_end_array(w);
    json_w_key(w, "rejected_total");
    json_w_u64(w, total);
    json_w_key(w, "rejected_by_reason");
    json_w_begin_array(w);
    for (unsigned r = 1; r < REASONS; r++) {
        if (by_reason[r] == 0)
            continue;
        json_w_begin_object(w);
        json_w_member_string(w, "reason", gs_plan_reject_code((enum gs_plan_reject)r));
        json_w_key(w, "count");
        json_w_u64(w, by_reason[r]);
        json_w_end_object(w);
    }
    json_w_end_array(w);
}

static int compare_candidates(const void *a, const void *b, void *arg)
{
    const struct candidate *x = *(const struct candidate *const *)a;
    const struct candidate *y = *(const struct candidate *const *)b;
    return gs_rank_compare(&x->plan, x->gpu->id, &y->plan, y->gpu->id, *(const bool *)arg);
}

static void write_recommendation(struct json_writer *w, const struct sizing *s,
                                 struct candidate *cands, size_t n)
{
    const bool training = s->req.workload.mode == GS_MODE_TRAINING;
    struct candidate **ok_list = calloc(n ? n : 1, sizeof(*ok_list));
    if (ok_list == NULL) {
        w->failed = true;
        return;
    }
    size_t good = 0;
    for (size_t i = 0; i < n; i++) {
        if (cands[i].why == GS_REJECT_NONE && !cands[i].plan.has_price)
            cands[i].why = GS_REJECT_NO_PRICE;
        if (cands[i].why == GS_REJECT_NONE)
            ok_list[good++] = &cands[i];
    }
    bool training_arg = training;
    qsort_r(ok_list, good, sizeof(*ok_list), compare_candidates, &training_arg);
    json_w_begin_object(w);
    json_w_key(w, "model");
    codec_write_model_result(w, &s->req, &s->probe);
    json_w_member_string(w, "mode", training ? "training" : "inference");
    json_w_key(w, "demand");
    json_w_take(w, encode_demand(s));
    json_w_key(w, "pricing");
    json_w_begin_object(w);
    json_w_member_string(w, "basis", s->purchase ? "purchase" : "on_demand");
    json_w_key(w, "amortization_years");
    write_nullable_real(w, s->purchase, s->amortization_years);
    json_w_end_object(w);
    json_w_key(w, "options");
    json_w_begin_array(w);
    size_t marketed = 0;
    const size_t listed = s->max_options ? s->max_options : RECOMMEND_OPTIONS_DEFAULT;
    for (size_t i = 0; i < good && i < listed && !w->failed; i++) {
        write_option(w, s, ok_list[i]->gpu, &ok_list[i]->spec, &ok_list[i]->plan, i + 1);
        if (!ok_list[i]->gpu->usable_memory_bytes)
            marketed++;
    }
    json_w_end_array(w);
    json_w_key(w, "options_total");
    json_w_u64(w, good);
    write_rejections(w, s, cands, n);
    json_w_key(w, "assumptions");
    write_assumptions(w, s, false);
    json_w_key(w, "warnings");
    json_w_begin_array(w);
    if (marketed > 0)
        codec_write_warning(
            w, "usable_memory_unknown",
            "some options' GPUs have no driver-reported capacity in the catalog; their "
            "marketed capacity was used");
    if (s->parallelism_ignored)
        codec_write_warning(
            w, "parallelism_ignored",
            "the search chooses the parallel layout; the request's parallelism section "
            "was not used");
    write_probe_warnings(w, s);
    json_w_end_array(w);
    json_w_end_object(w);
    free(ok_list);
}

/* The text of an answer the operation wrote, or the problem it met (-1). */
static int answer(struct json_writer *w, enum gs_status st, char **text, size_t *length,
                  struct problem *problem)
{
    if (st == GS_OK) {
        *text = json_w_finish(w, length);
        if (*text == NULL)
            st = GS_ERR_NOMEM;
    } else {
        json_w_discard(w);
    }
    if (st != GS_OK) {
        problem_from_status(problem, st);
        return -1;
    }
    return 0;
}

/* GPU types whose search inputs are the same bytes (gs_plan_gpu: the GPU as the search sees
 * it, its node and its price) get the same plan; a catalog bulk-loaded with many entries of
 * one GPU at one price (one per provider or region, say) is searched once per distinct entry,
 * not once per row. An open-addressed table of candidate indices keyed by a hash of the
 * spec's bytes (plan_gpu zeroes the struct first, so equal specs are equal bytes). */
struct same_spec {
    size_t *slots; /* candidate index + 1, 0 = empty */
    size_t mask;
};

static bool same_spec_init(struct same_spec *t, size_t n)
{
    size_t size = 16;
    while (size < 2 * n)
        size *= 2;
    t->slots = calloc(size, sizeof(*t->slots));
    t->mask = size - 1;
    return t->slots != NULL;
}

/* The first candidate before `i` with i's spec, or i itself (then recorded). */
static size_t same_spec_find(struct same_spec *t, const struct candidate *cands, size_t i)
{
    const unsigned char *bytes = (const unsigned char *)&cands[i].spec;
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (size_t k = 0; k < sizeof(cands[i].spec); k++)
        h = (h ^ bytes[k]) * 1099511628211ull;
    for (size_t slot = h & t->mask;; slot = (slot + 1) & t->mask) {
        if (t->slots[slot] == 0) {
            t->slots[slot] = i + 1;
            return i;
        }
        const size_t j = t->slots[slot] - 1;
        if (memcmp(&cands[j].spec, &cands[i].spec, sizeof(cands[i].spec)) == 0)
            return j;
    }
}

int sizing_recommend_text(const struct service *svc, const json_t *request, char **text,
                          size_t *length, struct problem *problem)
{
    struct json_writer w;
    memset(&w, 0, sizeof(w));
    struct sizing *s = sizing_start();
    struct candidate *cands = NULL;
    enum gs_status st =
        s != NULL ? decode_sizing(svc, request, false, s, &problem->errors) : GS_ERR_NOMEM;
    if (st == GS_OK) {
        cands = candidates_for(s->candidate_count ? s->candidate_count : 1);
        if (cands == NULL)
            st = GS_ERR_NOMEM;
        s->limits.price_required = true; /* an unpriced GPU goes to `rejected` (no_price) */
        s->limits.workload_validated = true; /* decode_sizing computed s->probe */
    }
    struct same_spec seen = {NULL, 0};
    if (st == GS_OK && !same_spec_init(&seen, s->candidate_count))
        st = GS_ERR_NOMEM;
    for (size_t i = 0; st == GS_OK && i < s->candidate_count; i++) {
        cands[i].gpu = s->candidates[i];
        plan_gpu(s, s->candidates[i], &cands[i].spec);
        const size_t twin = same_spec_find(&seen, cands, i);
        if (twin != i) { /* searched already: the same inputs give the same plan */
            cands[i].plan = cands[twin].plan;
            cands[i].why = cands[twin].why;
            continue;
        }
        st = gs_plan_search(&s->req.model, &s->req.workload, &cands[i].spec, &s->limits, &s->demand,
                            &s->eff, 0, &cands[i].plan, &cands[i].why, &problem->errors);
    }
    free(seen.slots);
    if (st == GS_OK)
        write_recommendation(&w, s, cands, s->candidate_count);
    sizing_end(s);
    return answer(&w, st, text, length, problem);
}

int sizing_recommend(const struct service *svc, const json_t *request, json_t **response,
                     struct problem *problem)
{
    return service_answer_tree(sizing_recommend_text, svc, request, response, problem);
}

/* ------------------------------------------------------------------- fit */

static void write_change(struct json_writer *w, const struct gs_fit_outcome *out,
                         const struct gs_plan_gpu *g)
{
    const struct gs_fit_change *c = &out->change;
    const struct gs_plan *p = &out->plan;
    json_w_begin_object(w);
    json_w_member_string(w, "change", c->code);
    json_w_member_string(w, "detail", c->detail);
    json_w_member_bool(w, "fits", out->fits);
    if (c->value)
        json_w_member_int(w, "value", (json_int_t)c->value);
    if (out->sized) {
        json_w_member_int(w, "gpu_count", (json_int_t)p->gpu_count);
        json_w_key(w, "plan");
        write_plan(w, p, c->workload.mode == GS_MODE_TRAINING);
        json_w_key(w, "per_gpu");
        codec_write_memory(w, &p->estimate.per_gpu);
        json_w_member_int(w, "headroom_bytes", (json_int_t)p->headroom_bytes);
        json_w_member_u64(w, "usable_bytes", g->view.total_bytes);
    }
    json_w_end_object(w);
}

/* The changes in core's order: those that fit (gentlest first), then the
 * rest, closest to fitting first. */
static void write_changes(struct json_writer *w, const struct sizing *s,
                          const struct gs_plan_limits *own, const struct gs_plan_gpu *g,
                          uint64_t count)
{
    struct gs_fit_outcome *outcomes = calloc(GS_ADVICE_MAX, sizeof(*outcomes));
    if (outcomes == NULL) {
        w->failed = true;
        return;
    }
    const size_t n = gs_advice_evaluate(&s->req.model, &s->req.workload, own, g, &s->eff, count,
                                        outcomes, GS_ADVICE_MAX);
    json_w_begin_array(w);
    for (size_t i = 0; i < n; i++)
        write_change(w, &outcomes[i], g);
    json_w_end_array(w);
    free(outcomes);
}

int sizing_fit_text(const struct service *svc, const json_t *request, char **text, size_t *length,
                    struct problem *problem)
{
    struct json_writer w;
    memset(&w, 0, sizeof(w));
    struct sizing *s = sizing_start();
    enum gs_status st =
        s != NULL ? decode_sizing(svc, request, true, s, &problem->errors) : GS_ERR_NOMEM;
    if (st != GS_OK)
        goto out;
    struct gs_plan_gpu g;
    plan_gpu(s, s->req.gpu, &g);
    struct gs_plan_limits own;
    gs_advice_own_limits(&s->req.workload, s->limits.max_gpus, &own);
    struct gs_demand none = {.kind = GS_DEMAND_NONE};
    /* a training layout named in parallelism is judged as it is, on the GPUs it takes */
    const bool layout_given = gs_advice_layout_given(&s->req.workload);
    const uint64_t world = gs_parallelism_world(&s->req.workload.parallelism);
    if (layout_given && s->fit_count && s->fit_count != world) {
        st = gs_error_add(&problem->errors, GS_ERR_INVALID, "/gpu_count",
                          "is %llu, but the layout in parallelism takes %llu GPUs (tensor x "
                          "pipeline x context x data); give that count or leave gpu_count out",
                          (unsigned long long)s->fit_count, (unsigned long long)world);
        goto out;
    }
    const uint64_t count = layout_given ? world : s->fit_count ? s->fit_count : 1;
    struct gs_plan own_plan;
    if (layout_given) {
        st = gs_advice_own_layout(&s->req.model, &s->req.workload, &g, &own_plan,
                                  &problem->errors);
        if (st != GS_OK)
            goto out;
    }
    struct gs_plan at, least;
    enum gs_plan_reject why_at = GS_REJECT_DOES_NOT_FIT, why_least = GS_REJECT_DOES_NOT_FIT;
    struct gs_plan_limits checked = own; /* decode_sizing computed s->probe; the changes' own
                                            workloads (gs_advice_evaluate) are checked anew */
    checked.workload_validated = true;
    st = gs_plan_search(&s->req.model, &s->req.workload, &g, &checked, &none, &s->eff, count, &at,
                        &why_at, &problem->errors);
    if (st == GS_OK)
        st = gs_plan_search(&s->req.model, &s->req.workload, &g, &checked, &none, &s->eff, 0,
                            &least, &why_least, &problem->errors);
    if (st != GS_OK)
        goto out;
    const bool fits = layout_given ? own_plan.headroom_bytes >= 0 : why_at == GS_REJECT_NONE;
    const bool training = s->req.workload.mode == GS_MODE_TRAINING;
    /* the layout the verdict is about: the request's own, else the best found at the count */
    const struct gs_plan *verdict = layout_given ? &own_plan : &at;
    json_w_begin_object(&w);
    json_w_key(&w, "model");
    codec_write_model_result(&w, &s->req, &s->probe);
    json_w_member_string(&w, "mode", training ? "training" : "inference");
    json_w_member_string(&w, "gpu", s->req.gpu->id);
    json_w_member_string(&w, "name", s->req.gpu->name);
    json_w_member_u64(&w, "usable_bytes", g.view.total_bytes);
    json_w_member_int(&w, "gpu_count", (json_int_t)count);
    json_w_member_bool(&w, "fits", fits);
    json_w_member_bool(&w, "layout_given", layout_given);
    json_w_key(&w, "plan");
    if (fits || layout_given) {
        write_plan(&w, verdict, training);
        json_w_key(&w, "per_gpu");
        codec_write_memory(&w, &verdict->estimate.per_gpu);
        json_w_member_u64(&w, "limit_bytes", verdict->limit_bytes);
        json_w_member_int(&w, "headroom_bytes", (json_int_t)verdict->headroom_bytes);
    } else {
        /* the request as sized on one GPU shows how far off it is */
        json_w_null(&w);
        json_w_key(&w, "per_gpu");
        codec_write_memory(&w, &s->probe.per_gpu);
    }
    json_w_key(&w, "min_gpu_count");
    if (why_least == GS_REJECT_NONE)
        json_w_int(&w, (json_int_t)least.gpu_count);
    else
        json_w_null(&w);
    json_w_key(&w, "min_plan");
    if (why_least == GS_REJECT_NONE) {
        write_plan(&w, &least, training);
    } else {
        json_w_null(&w);
        /* why no GPU count of this type will do, in the words /v1/recommend uses */
        json_w_key(&w, "min_plan_reason");
        json_w_begin_object(&w);
        json_w_member_string(&w, "code", gs_plan_reject_code(why_least));
        json_w_member_string(&w, "detail", reject_detail(why_least, s));
        json_w_member_int(&w, "max_gpus", (json_int_t)s->limits.max_gpus);
        json_w_end_object(&w);
    }
    if (layout_given && !fits && why_at == GS_REJECT_NONE) {
        /* another layout of the same GPUs that fits, as an alternative to the request's */
        json_w_key(&w, "alternative_plan");
        write_plan(&w, &at, training);
        json_w_key(&w, "alternative_per_gpu");
        codec_write_memory(&w, &at.estimate.per_gpu);
    }
    /* the largest batch and context at the verdict's layout (or the smallest that fits) */
    const struct gs_plan *ref = fits ? verdict : why_least == GS_REJECT_NONE ? &least : NULL;
    bool has_max = false;
    json_int_t max_batch = 0, max_context = 0;
    if (ref != NULL && !training && ref->estimate.has_serving) {
        /* every replica of the layout holds its own sequences */
        has_max = true;
        max_batch = (json_int_t)(ref->estimate.serving.max_concurrency *
                                 (ref->replicas ? ref->replicas : 1));
        max_context = (json_int_t)ref->estimate.serving.max_context;
    } else if (ref != NULL && training) {
        has_max = true;
        max_batch = (json_int_t)gs_advice_max_batch(&s->req.model, &s->req.workload, ref, &g, 4096);
        max_context = (json_int_t)gs_advice_max_sequence(&s->req.model, &s->req.workload, ref, &g,
                                                         (uint64_t)1 << 22);
    }
    json_w_key(&w, "max_batch");
    if (has_max)
        json_w_int(&w, max_batch);
    else
        json_w_null(&w);
    json_w_key(&w, "max_context");
    if (has_max)
        json_w_int(&w, max_context);
    else
        json_w_null(&w);
    if (ref != NULL && ref != &at && has_max)
        json_w_member_int(&w, "max_at_gpu_count", (json_int_t)ref->gpu_count);
    json_w_key(&w, "changes");
    write_changes(&w, s, &own, &g, count);
    json_w_key(&w, "assumptions");
    write_assumptions(&w, s, true);
    json_w_key(&w, "warnings");
    json_w_begin_array(&w);
    if (!s->req.gpu->usable_memory_bytes)
        codec_write_warning(
            &w, "usable_memory_unknown",
            "the catalog has no driver-reported capacity for this GPU; its marketed "
            "capacity was used");
    write_probe_warnings(&w, s);
    json_w_end_array(&w);
    json_w_end_object(&w);
out:
    sizing_end(s);
    return answer(&w, st, text, length, problem);
}

int sizing_fit(const struct service *svc, const json_t *request, json_t **response,
               struct problem *problem)
{
    return service_answer_tree(sizing_fit_text, svc, request, response, problem);
}
