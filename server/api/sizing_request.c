/* sizing_request.c - a /v1/recommend or /v1/fit request decoded (see sizing_request.h). */
#include "api/sizing_request.h"

#include "readers/config_trim.h"

#include "api/codec.h"
#include "api/codec_training.h"
#include "formats/jsonv.h"
#include "gs/cost.h"
#include "gs/plan.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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
    static const char *const keys[] = {"quantization",
                                       "zero_stages",
                                       "activation_checkpointing",
                                       "offload",
                                       "expert_parallelism",
                                       "max_tensor",
                                       "disaggregation",
                                       "gradient_accumulation",
                                       "sync_each_batch",
                                       "lower_max_num_seqs",
                                       NULL};
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
    if ((v = json_object_get(a, "gradient_accumulation")) != NULL)
        ok = jsonv_bool(v, "/constraints/allow/gradient_accumulation", &l->allow_accumulation,
                        err) &&
             ok;
    if ((v = json_object_get(a, "sync_each_batch")) != NULL)
        ok = jsonv_bool(v, "/constraints/allow/sync_each_batch", &l->allow_sync_each_batch,
                        err) &&
             ok;
    if ((v = json_object_get(a, "lower_max_num_seqs")) != NULL)
        ok = jsonv_bool(v, "/constraints/allow/lower_max_num_seqs", &l->allow_lower_max_num_seqs,
                        err) &&
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
                                       "usd_per_kwh",         "utilization",
                                       "staff_usd_per_gpu_year", "cost_of_capital",
                                       NULL};
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
    ok = read_rate(t, "staff_usd_per_gpu_year", b, 1e7, &p->staff_usd_per_gpu_year, err) && ok;
    ok = read_rate(t, "cost_of_capital", b, 1, &p->cost_of_capital, err) && ok;
    if (json_object_get(t, "utilization") != NULL) {
        ok = read_rate(t, "utilization", b, 1, &p->utilization, err) && ok;
        if (ok && p->utilization <= 0)
            ok = refuse(err, "/constraints/tco/utilization",
                        "must be above 0 (the share of hours the GPUs do paid work)");
    }
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
                                       "training_mfu",     "allreduce_latency_us", "per_vendor",
                                       NULL};
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
    const json_t *v = json_object_get(e, "per_vendor");
    if (v != NULL)
        ok = jsonv_bool(v, "/efficiency/per_vendor", &s->eff.per_vendor, err) && ok;
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
enum gs_status sizing_request_decode(const struct service *svc, const json_t *body, bool fit,
                                     struct sizing *s, struct gs_error *err)
{
    /* all but the memos' entries, read only below their counts (120 KiB of the 160): a
     * memo is for one model, and this request's may lie where the last one's did */
    memset(s, 0, offsetof(struct sizing, memo));
    s->memo.weights.count = s->memo.weights.next = 0;
    s->memo.kv.count = s->memo.kv.next = 0;
    s->memo.activation.count = s->memo.activation.next = 0;
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
    if (s->req.workload.stage_gpu_count)
        return gs_error_add(err, GS_ERR_INVALID, "/parallelism/stage_gpus",
                            fit ? "is for /v1/estimate: /v1/fit chooses the layout on one GPU type"
                                : "is for /v1/estimate: /v1/recommend chooses the GPUs and the "
                                  "layout");
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
        if (s->req.source == CODEC_MODEL_CONFIG)
            s->echo_config = config_trim(json_object_get(json_object_get(body, "model"), "config"),
                                         &s->echo_trimmed_bytes);
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

double sizing_request_real(struct catalog_real r)
{
    return r.present ? r.value : 0;
}

/* An integrated GPU's purchase price and TDP are its whole system's (gs/cost.h). */
bool sizing_request_integrated(const struct catalog_gpu *g)
{
    return g->unified_memory.present && g->unified_memory.value != 0;
}

const struct gs_tco_params *sizing_request_tco(const struct sizing *s, const struct catalog_gpu *g)
{
    return sizing_request_integrated(g) ? &s->tco_integrated : &s->tco;
}

void sizing_request_plan_gpu(const struct sizing *s, const struct catalog_gpu *g,
                             struct gs_plan_gpu *out)
{
    memset(out, 0, sizeof(*out));
    codec_gpu_view(g, &out->view);
    out->gpus_per_node = s->gpus_per_node           ? s->gpus_per_node
                         : g->gpus_per_node.present ? (uint64_t)g->gpus_per_node.value
                                                    : DEFAULT_NODE;
    out->perf.memory_bandwidth_gb_s = sizing_request_real(g->memory_bandwidth_gb_s);
    out->perf.bf16_tflops = sizing_request_real(g->bf16_tflops);
    out->perf.fp16_tflops = sizing_request_real(g->fp16_tflops);
    out->perf.interconnect_gb_s = sizing_request_real(g->interconnect_gb_s);
    out->scale_out_bytes_per_s = sizing_request_real(g->scale_out_gb_s) * 1e9;
    out->perf.pcie_gen = g->pcie_gen.present ? (unsigned)g->pcie_gen.value : 0;
    if (s->purchase && g->purchase_price.present) {
        struct gs_tco tco;
        gs_tco_compute(sizing_request_tco(s, g), g->purchase_price.value, sizing_request_real(g->tdp_watts),
                       out->gpus_per_node, &tco);
        out->has_price = true;
        out->price_per_gpu_hour = tco.per_hour;
    } else if (!s->purchase && g->price_per_hour.present) {
        out->has_price = true;
        out->price_per_gpu_hour = g->price_per_hour.value;
    }
}
