/* sizing.c - /v1/recommend and /v1/fit (see sizing.h). */
#include "api/sizing.h"
#include "api/sizing_answer.h"
#include "api/sizing_request.h"
#include "formats/json_out.h"

#include "gs/advice.h"
#include "gs/capability.h"
#include "gs/cost.h"

#include "api/codec.h"
#include "api/codec_training.h"
#include "gs/plan.h"
#include "gs/recommend.h"
#include "formats/jsonv.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

/* ------------------------------------------------------------------ scratch */

/* Each thread's working memory for /v1/recommend and /v1/fit, kept between requests: the
 * sizing state (37 KiB with its memos), a candidate per catalog GPU and a plan per distinct
 * search (105 KiB for the seed catalog; a price list's offers of one GPU share one).
 * Allocated and freed per request they were the top of the heap, which glibc handed back
 * to the system every time (more than 128 KiB free) and the next request faulted in again:
 * perf put the page-fault handler at 3.5% of a recommendation. Freed when the thread
 * ends. */
struct scratch {
    struct sizing sizing;
    struct gs_recommend_entry *candidates;
    size_t capacity;
    struct gs_plan *plans; /* one per search: distinct GPUs but for the price */
    size_t plans_capacity;
};

static pthread_key_t scratch_key;
static pthread_once_t scratch_once = PTHREAD_ONCE_INIT;
static bool scratch_ready;

static void scratch_destroy(void *p)
{
    struct scratch *sc = p;
    if (sc != NULL) {
        free(sc->candidates);
        free(sc->plans);
    }
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

/* The thread's sizing state for one request (sizing_request_decode clears it); NULL when out of
 * memory. */
static struct sizing *sizing_start(void)
{
    struct scratch *sc = thread_scratch();
    return sc != NULL ? &sc->sizing : NULL;
}

/* Room for n candidates (not cleared: every member is written per GPU); NULL when out of
 * memory. */
static struct gs_recommend_entry *candidates_for(size_t n)
{
    struct scratch *sc = thread_scratch();
    if (sc == NULL)
        return NULL;
    if (sc->capacity < n) {
        struct gs_recommend_entry *grown = realloc(sc->candidates, n * sizeof(*grown));
        if (grown == NULL)
            return NULL;
        sc->candidates = grown;
        sc->capacity = n;
    }
    return sc->candidates;
}

/* The thread's plan at `index`, room made for it (grown by half again); NULL when out of
 * memory. Not cleared: the search writes every member. (gs_recommend_memory.plan) */
static struct gs_plan *plan_at(void *ctx, size_t index)
{
    (void)ctx;
    struct scratch *sc = thread_scratch();
    if (sc == NULL)
        return NULL;
    if (sc->plans_capacity <= index) {
        size_t want = sc->plans_capacity + sc->plans_capacity / 2;
        if (want <= index)
            want = index + 16;
        struct gs_plan *grown = realloc(sc->plans, want * sizeof(*grown));
        if (grown == NULL)
            return NULL;
        sc->plans = grown;
        sc->plans_capacity = want;
    }
    return &sc->plans[index];
}

/* Frees what the request allocated; the state itself stays the thread's. */
static void sizing_end(struct sizing *s)
{
    if (s != NULL) {
        free(s->candidates);
        s->candidates = NULL;
        json_decref(s->echo_config);
        s->echo_config = NULL;
    }
}

/* ------------------------------------------------------------- recommend */

/* The answer's size is bounded whatever the catalog holds (a bulk-loaded catalog may have
 * thousands of GPU types): the cheapest `constraints.max_options` options (50 unless
 * given, at most 1,000), the first 100 rejected GPU types in catalog order, and the counts
 * of both in full (options_total, rejected_total, rejected_by_reason). */
#define RECOMMEND_OPTIONS_DEFAULT 50
#define RECOMMEND_REJECTED_LISTED 100

static void write_rejections(struct json_writer *w, const struct sizing *s,
                             const struct gs_recommend_entry *cands, size_t n)
{
    enum { REASONS = GS_REJECT_COUNT };
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
        json_w_member_string(w, "gpu", s->candidates[i]->id);
        json_w_member_string(w, "name", s->candidates[i]->name);
        json_w_member_string(w, "reason", gs_plan_reject_code(cands[i].why));
        json_w_member_string(w, "detail", sizing_answer_reject_detail(cands[i].why, s));
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

/* The ranks of the options a warning names ("#1, #3 (337)"): the first 12, each with its value
 * when it has one; `count` counts them all. */
struct option_list {
    char text[160];
    size_t used, count;
};

static void option_list_add(struct option_list *l, size_t rank, uint64_t value)
{
    if (l->count++ >= 12 || l->used >= sizeof(l->text))
        return;
    const int len = value ? snprintf(l->text + l->used, sizeof(l->text) - l->used, "%s#%zu (%llu)",
                                     l->used ? ", " : "", rank, (unsigned long long)value)
                          : snprintf(l->text + l->used, sizeof(l->text) - l->used, "%s#%zu",
                                     l->used ? ", " : "", rank);
    l->used += len > 0 ? (size_t)len : 0;
}

/* The warning `code` naming the options of `l`, when there are any: "options #1, #3 (337)
 * <verb> only <rest>" ("option ... <verb>s" for one). */
static void option_list_warning(struct json_writer *w, const char *code,
                                const struct option_list *l, const char *verb, const char *rest)
{
    if (l->count == 0)
        return;
    char detail[600];
    snprintf(detail, sizeof(detail), "option%s %s%s %s%s only %s", l->count == 1 ? "" : "s",
             l->text, l->count > 12 ? ", ..." : "", verb, l->count == 1 ? "s" : "", rest);
    codec_write_warning(w, code, detail);
}

static void write_recommendation(struct json_writer *w, const struct sizing *s,
                                 struct gs_recommend_entry *cands, size_t n,
                                 const struct gs_plan *plans)
{
    const bool training = s->req.workload.mode == GS_MODE_TRAINING;
    struct gs_recommend_entry **ok_list = calloc(n ? n : 1, sizeof(*ok_list));
    if (ok_list == NULL) {
        w->failed = true;
        return;
    }
    const size_t good = gs_recommend_order(cands, n, ok_list);
    json_w_begin_object(w);
    json_w_key(w, "model");
    codec_write_model_result(w, &s->req, &s->probe);
    json_w_member_string(w, "mode", training ? "training" : "inference");
    json_w_key(w, "demand");
    json_w_take(w, sizing_answer_demand(s));
    json_w_key(w, "pricing");
    json_w_begin_object(w);
    json_w_member_string(w, "basis", s->purchase ? "purchase" : "on_demand");
    json_w_key(w, "amortization_years");
    sizing_answer_nullable_real(w, s->purchase, s->amortization_years);
    json_w_end_object(w);
    json_w_key(w, "options");
    json_w_begin_array(w);
    size_t marketed = 0, assumed_network = 0;
    char network[512] = ""; /* the options whose figures rest on an assumed network */
    size_t network_used = 0;
    struct option_list synced = {0};  /* the options that fit only with sync_each_batch */
    struct option_list lowered = {0}; /* the options that start only with max_num_seqs lowered */
    const size_t listed = s->max_options ? s->max_options : RECOMMEND_OPTIONS_DEFAULT;
    for (size_t i = 0; i < good && i < listed && !w->failed; i++) {
        const struct catalog_gpu *gpu = s->candidates[ok_list[i] - cands];
        struct gs_plan plan; /* at the option's own price */
        gs_recommend_plan(ok_list[i], &plans[ok_list[i]->searched], &s->limits, &plan);
        sizing_answer_option(w, s, gpu, &ok_list[i]->spec, &plan, i + 1);
        if (!gpu->usable_memory_bytes)
            marketed++;
        if (plan.sync_each_batch)
            option_list_add(&synced, i + 1, 0);
        if (plan.max_num_seqs)
            option_list_add(&lowered, i + 1, plan.max_num_seqs);
        bool assumed = false;
        const double link = gs_plan_scale_out(&ok_list[i]->spec, &assumed);
        if (assumed && gs_plan_crosses_nodes(&plan, &ok_list[i]->spec) &&
            assumed_network++ < 6 && network_used < sizeof(network)) {
            const int len = snprintf(network + network_used, sizeof(network) - network_used,
                                     "%s%s (#%zu, %.3g GB/s)", network_used ? ", " : "",
                                     gpu->id, i + 1, link / 1e9);
            network_used += len > 0 ? (size_t)len : 0;
        }
    }
    json_w_end_array(w);
    json_w_key(w, "options_total");
    json_w_u64(w, good);
    write_rejections(w, s, cands, n);
    json_w_key(w, "assumptions");
    sizing_answer_assumptions(w, s, false);
    json_w_key(w, "warnings");
    json_w_begin_array(w);
    if (marketed > 0)
        codec_write_warning(
            w, "usable_memory_unknown",
            "some options' GPUs have no driver-reported capacity in the catalog; their "
            "marketed capacity was used");
    if (assumed_network > 0) {
        char detail[800];
        snprintf(detail, sizeof(detail),
                 "%zu option%s cross%s nodes (a job or replica over several, or a disaggregated "
                 "plan's KV transfer) on a GPU the catalog gives no scale-out network for, so "
                 "the board class's default per GPU was taken: %s%s; set the GPU's "
                 "scale_out_gb_s for figures that hold",
                 assumed_network, assumed_network == 1 ? "" : "s",
                 assumed_network == 1 ? "es" : "", network, assumed_network > 6 ? ", ..." : "");
        codec_write_warning(w, "scale_out_assumed", detail);
    }
    option_list_warning(w, "sync_each_batch_planned", &synced, "fit",
                        "with every micro-batch's gradients reduce-scattered (plan.sync_each_batch: "
                        "accelerate's GradientAccumulationPlugin(sync_each_batch=True), the HF "
                        "Trainer's accelerator_config gradient_accumulation_kwargs); under FSDP's "
                        "default no_sync() accumulation the whole gradient is held unsharded and "
                        "they do not fit");
    option_list_warning(w, "max_num_seqs_planned", &lowered, "start",
                        "with max_num_seqs lowered to what the pool holds (plan.max_num_seqs, in "
                        "the estimate_request): at the engine's default the engine fails at "
                        "startup (vLLM from 0.19 with a hybrid model: 'max_num_seqs exceeds "
                        "available Mamba cache blocks'), so serve with that setting");
    if (s->echo_config != NULL) {
        char detail[256];
        snprintf(detail, sizeof(detail),
                 "each option's estimate_request carries the config without the members "
                 "gpusizer does not read (%zu bytes fewer); it reads as the same model",
                 s->echo_trimmed_bytes);
        codec_write_warning(w, "config_trimmed", detail);
    }
    if (s->parallelism_ignored)
        codec_write_warning(
            w, "parallelism_ignored",
            s->req.workload.parallelism.stages.chunks > 1
                ? "the search chooses the parallel layout; of the request's parallelism section "
                  "only virtual_stages was used (the interleaved schedule its pipelined layouts "
                  "run where they can)"
                : "the search chooses the parallel layout; the request's parallelism section "
                  "was not used");
    sizing_answer_probe_warnings(w, s);
    json_w_end_array(w);
    json_w_end_object(w);
    free(ok_list);
}

/* The text of an answer the operation wrote, or the problem it met (its status). */
static enum gs_status answer(struct json_writer *w, enum gs_status st, char **text,
                             size_t *length, struct problem *problem)
{
    if (st == GS_OK) {
        *text = json_w_finish(w, length);
        if (*text == NULL)
            st = GS_ERR_NOMEM;
    } else {
        json_w_discard(w);
    }
    if (st != GS_OK)
        problem_from_status(problem, st);
    return st;
}

static uint64_t budget_ms; /* set once before the server's threads start */

void sizing_set_budget_ms(uint64_t ms)
{
    budget_ms = ms;
}

static uint64_t monotonic_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

/* gs_recommend_memory.stop: past the time budget, between two GPU types */
struct budget_clock {
    uint64_t started;
};

static bool over_budget(void *ctx, size_t next)
{
    (void)next;
    const struct budget_clock *clock = ctx;
    return budget_ms && monotonic_ms() - clock->started > budget_ms;
}

enum gs_status sizing_recommend_text(const struct service *svc, const json_t *request,
                                     char **text, size_t *length, struct problem *problem)
{
    struct json_writer w;
    memset(&w, 0, sizeof(w));
    struct sizing *s = sizing_start();
    struct gs_recommend_entry *cands = NULL;
    size_t *slots = NULL;
    enum gs_status st =
        s != NULL ? sizing_request_decode(svc, request, false, s, &problem->errors) : GS_ERR_NOMEM;
    const size_t n = st == GS_OK ? s->candidate_count : 0;
    if (st == GS_OK) {
        cands = candidates_for(n ? n : 1);
        slots = calloc(gs_recommend_slots(n), sizeof(*slots));
        if (cands == NULL || slots == NULL)
            st = GS_ERR_NOMEM;
        s->limits.price_required = true; /* an unpriced GPU goes to `rejected` (no_price) */
    }
    for (size_t i = 0; st == GS_OK && i < n; i++) {
        sizing_request_plan_gpu(s, s->candidates[i], &cands[i].spec);
        cands[i].id = s->candidates[i]->id;
    }
    struct budget_clock clock = {budget_ms ? monotonic_ms() : 0};
    const struct gs_recommend_memory memory = {slots, gs_recommend_slots(n), plan_at, over_budget,
                                               &clock};
    size_t searches = 0, done = 0;
    if (st == GS_OK)
        st = gs_recommend_search(&s->req.model, &s->req.workload, &s->limits, &s->demand, &s->eff,
                                 &s->memo, cands, n, &memory, &searches, &done, &problem->errors);
    free(slots);
    if (st == GS_ERR_BUSY) {
        json_w_discard(&w);
        problem_set(problem, 503, "search-budget", "The search ran past its time budget",
                    "the search of %zu GPU types passed its budget of %llu ms after %zu of "
                    "them; name fewer in constraints.gpus (or a smaller max_gpus), or ask the "
                    "operator for a larger GPUSIZER_COMPUTE_BUDGET_MS",
                    n, (unsigned long long)budget_ms, done);
        sizing_end(s);
        return GS_ERR_BUSY;
    }
    if (st == GS_OK) {
        const struct gs_plan *plans = searches ? plan_at(NULL, 0) : NULL;
        write_recommendation(&w, s, cands, n, plans);
    }
    sizing_end(s);
    return answer(&w, st, text, length, problem);
}

enum gs_status sizing_recommend(const struct service *svc, const json_t *request,
                                json_t **response, struct problem *problem)
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
        sizing_answer_plan(w, p, c->workload.mode == GS_MODE_TRAINING);
        json_w_key(w, "per_gpu");
        codec_write_memory(w, &p->estimate.per_gpu);
        json_w_member_int(w, "headroom_bytes", (json_int_t)p->headroom_bytes);
        json_w_member_u64(w, "usable_bytes", g->view.total_bytes);
    }
    json_w_end_object(w);
}

/* The changes in core's order: those that fit (gentlest first), then the
 * rest, closest to fitting first. */
static void write_changes(struct json_writer *w, struct sizing *s,
                          const struct gs_plan_limits *own, const struct gs_plan_gpu *g,
                          uint64_t count)
{
    struct gs_fit_outcome *outcomes = calloc(GS_ADVICE_MAX, sizeof(*outcomes));
    if (outcomes == NULL) {
        w->failed = true;
        return;
    }
    const size_t n = gs_advice_evaluate(&s->req.model, &s->req.workload, own, g, &s->eff, count,
                                        &s->memo, outcomes, GS_ADVICE_MAX);
    json_w_begin_array(w);
    for (size_t i = 0; i < n; i++)
        write_change(w, &outcomes[i], g);
    json_w_end_array(w);
    free(outcomes);
}

enum gs_status sizing_fit_text(const struct service *svc, const json_t *request, char **text,
                               size_t *length, struct problem *problem)
{
    struct json_writer w;
    memset(&w, 0, sizeof(w));
    struct sizing *s = sizing_start();
    enum gs_status st =
        s != NULL ? sizing_request_decode(svc, request, true, s, &problem->errors) : GS_ERR_NOMEM;
    if (st != GS_OK)
        goto out;
    struct gs_plan_gpu g;
    sizing_request_plan_gpu(s, s->req.gpu, &g);
    struct gs_plan_limits own;
    gs_advice_own_limits(&s->req.workload, s->limits.max_gpus, &own);
    struct gs_fit_verdict verdict_storage;
    struct gs_fit_verdict *v = &verdict_storage;
    st = gs_advice_fit(&s->req.model, &s->req.workload, &g, &own, &s->eff, s->fit_count,
                       &s->memo, v, &problem->errors);
    if (st != GS_OK)
        goto out;
    const bool training = s->req.workload.mode == GS_MODE_TRAINING;
    const uint64_t count = v->count;
    const struct gs_plan *verdict = gs_fit_plan(v, v->plan);
    json_w_begin_object(&w);
    json_w_key(&w, "model");
    codec_write_model_result(&w, &s->req, &s->probe);
    json_w_member_string(&w, "mode", training ? "training" : "inference");
    json_w_member_string(&w, "gpu", s->req.gpu->id);
    json_w_member_string(&w, "name", s->req.gpu->name);
    json_w_member_u64(&w, "usable_bytes", g.view.total_bytes);
    json_w_member_int(&w, "gpu_count", (json_int_t)count);
    json_w_member_bool(&w, "fits", v->fits);
    json_w_member_bool(&w, "layout_given", v->layout_given);
    json_w_key(&w, "plan");
    if (verdict != NULL) {
        sizing_answer_plan(&w, verdict, training);
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
    if (v->why_least == GS_REJECT_NONE)
        json_w_int(&w, (json_int_t)v->least.gpu_count);
    else
        json_w_null(&w);
    json_w_key(&w, "min_plan");
    if (v->why_least == GS_REJECT_NONE) {
        sizing_answer_plan(&w, &v->least, training);
    } else {
        json_w_null(&w);
        /* why no GPU count of this type will do, in the words /v1/recommend uses */
        json_w_key(&w, "min_plan_reason");
        json_w_begin_object(&w);
        json_w_member_string(&w, "code", gs_plan_reject_code(v->why_least));
        json_w_member_string(&w, "detail", sizing_answer_reject_detail(v->why_least, s));
        json_w_member_int(&w, "max_gpus", (json_int_t)s->limits.max_gpus);
        json_w_end_object(&w);
    }
    if (v->alternative) {
        /* another layout of the same GPUs that fits, as an alternative to the request's */
        json_w_key(&w, "alternative_plan");
        sizing_answer_plan(&w, &v->at, training);
        json_w_key(&w, "alternative_per_gpu");
        codec_write_memory(&w, &v->at.estimate.per_gpu);
    }
    const bool has_max = v->max_at != GS_FIT_NONE;
    json_w_key(&w, "max_batch");
    if (has_max)
        json_w_int(&w, (json_int_t)v->max_batch);
    else
        json_w_null(&w);
    json_w_key(&w, "max_context");
    if (has_max)
        json_w_int(&w, (json_int_t)v->max_context);
    else
        json_w_null(&w);
    /* only when the verdict's own count does not fit: the request's own layout (GS_FIT_OWN)
     * that fits is at gpu_count */
    if (has_max && v->max_at == GS_FIT_LEAST)
        json_w_member_int(&w, "max_at_gpu_count", (json_int_t)gs_fit_plan(v, v->max_at)->gpu_count);
    json_w_key(&w, "changes");
    write_changes(&w, s, &own, &g, count);
    json_w_key(&w, "assumptions");
    sizing_answer_assumptions(&w, s, true);
    json_w_key(&w, "warnings");
    json_w_begin_array(&w);
    if (!s->req.gpu->usable_memory_bytes)
        codec_write_warning(
            &w, "usable_memory_unknown",
            "the catalog has no driver-reported capacity for this GPU; its marketed "
            "capacity was used");
    sizing_answer_probe_warnings(&w, s);
    json_w_end_array(&w);
    json_w_end_object(&w);
out:
    sizing_end(s);
    return answer(&w, st, text, length, problem);
}

enum gs_status sizing_fit(const struct service *svc, const json_t *request,
                          json_t **response, struct problem *problem)
{
    return service_answer_tree(sizing_fit_text, svc, request, response, problem);
}

