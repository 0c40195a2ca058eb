/* sizing.c - /v1/recommend and /v1/fit (see sizing.h). */
#define _GNU_SOURCE /* qsort_r */
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
#include "gs/rank.h"
#include "formats/jsonv.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

/* ------------------------------------------------------------------ scratch */

/* One catalog GPU in a recommendation. Its plan is the search of the first GPU with the same
 * search inputs but for the price (`searched`, an index in the thread's plans), priced at its
 * own (gs_plan_reprice) where it is read. */
struct candidate {
    const struct catalog_gpu *gpu;
    struct gs_plan_gpu spec;
    size_t searched;
    enum gs_plan_reject why; /* at its own price */
    double rank_cost;        /* gs_rank_cost at its own price, when why is GS_REJECT_NONE */
    uint64_t gpu_count;
};

/* Each thread's working memory for /v1/recommend and /v1/fit, kept between requests: the
 * sizing state (37 KiB with its memos), a candidate per catalog GPU and a plan per distinct
 * search (105 KiB for the seed catalog; a price list's offers of one GPU share one).
 * Allocated and freed per request they were the top of the heap, which glibc handed back
 * to the system every time (more than 128 KiB free) and the next request faulted in again:
 * perf put the page-fault handler at 3.5% of a recommendation. Freed when the thread
 * ends. */
struct scratch {
    struct sizing sizing;
    struct candidate *candidates;
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

/* The thread's plans with room for the one at `index` (grown by half again); NULL when out of
 * memory. Not cleared: the search writes every member. */
static struct gs_plan *plans_for(size_t index)
{
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
    return sc->plans;
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

static int compare_candidates(const void *a, const void *b, void *arg)
{
    const struct candidate *x = *(const struct candidate *const *)a;
    const struct candidate *y = *(const struct candidate *const *)b;
    (void)arg;
    return gs_rank_compare_figures(x->rank_cost, x->gpu_count, x->gpu->id, y->rank_cost,
                                   y->gpu_count, y->gpu->id);
}

static void write_recommendation(struct json_writer *w, const struct sizing *s,
                                 struct candidate *cands, size_t n, const struct gs_plan *plans)
{
    const bool training = s->req.workload.mode == GS_MODE_TRAINING;
    struct candidate **ok_list = calloc(n ? n : 1, sizeof(*ok_list));
    if (ok_list == NULL) {
        w->failed = true;
        return;
    }
    size_t good = 0;
    for (size_t i = 0; i < n; i++) {
        if (cands[i].why == GS_REJECT_NONE && !cands[i].spec.has_price)
            cands[i].why = GS_REJECT_NO_PRICE;
        if (cands[i].why == GS_REJECT_NONE)
            ok_list[good++] = &cands[i];
    }
    qsort_r(ok_list, good, sizeof(*ok_list), compare_candidates, NULL);
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
    size_t marketed = 0;
    const size_t listed = s->max_options ? s->max_options : RECOMMEND_OPTIONS_DEFAULT;
    for (size_t i = 0; i < good && i < listed && !w->failed; i++) {
        struct gs_plan plan = plans[ok_list[i]->searched]; /* at the option's own price */
        gs_plan_reprice(&ok_list[i]->spec, &s->limits, GS_REJECT_NONE, &plan);
        sizing_answer_option(w, s, ok_list[i]->gpu, &ok_list[i]->spec, &plan, i + 1);
        if (!ok_list[i]->gpu->usable_memory_bytes)
            marketed++;
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
            "the search chooses the parallel layout; the request's parallelism section "
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

/* GPU types whose search inputs are the same bytes but for the price (gs_plan_gpu: the GPU as
 * the search sees it, its node, whether it has a price) get the same plan, at their own price
 * (gs_plan_reprice): a catalog bulk-loaded with many entries of one GPU (a row per provider or
 * region, each at its price) is searched once per GPU, not once per row. An open-addressed
 * table of candidate indices keyed by a hash of those bytes (plan_gpu zeroes the struct
 * first, so equal inputs are equal bytes). */
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

/* The search inputs of a candidate: its spec's bytes with the price taken out. */
static void search_key(const struct candidate *c, struct gs_plan_gpu *key)
{
    memcpy(key, &c->spec, sizeof(*key));
    key->price_per_gpu_hour = 0;
}

/* The first candidate before `i` with i's search inputs, or i itself (then recorded). */
static size_t same_spec_find(struct same_spec *t, const struct candidate *cands, size_t i)
{
    struct gs_plan_gpu key, other;
    search_key(&cands[i], &key);
    const unsigned char *bytes = (const unsigned char *)&key;
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (size_t k = 0; k < sizeof(key); k++)
        h = (h ^ bytes[k]) * 1099511628211ull;
    for (size_t slot = h & t->mask;; slot = (slot + 1) & t->mask) {
        if (t->slots[slot] == 0) {
            t->slots[slot] = i + 1;
            return i;
        }
        const size_t j = t->slots[slot] - 1;
        search_key(&cands[j], &other);
        if (memcmp(&other, &key, sizeof(key)) == 0)
            return j;
    }
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

enum gs_status sizing_recommend_text(const struct service *svc, const json_t *request,
                                     char **text, size_t *length, struct problem *problem)
{
    struct json_writer w;
    memset(&w, 0, sizeof(w));
    struct sizing *s = sizing_start();
    struct candidate *cands = NULL;
    enum gs_status st =
        s != NULL ? sizing_request_decode(svc, request, false, s, &problem->errors) : GS_ERR_NOMEM;
    if (st == GS_OK) {
        cands = candidates_for(s->candidate_count ? s->candidate_count : 1);
        if (cands == NULL)
            st = GS_ERR_NOMEM;
        s->limits.price_required = true; /* an unpriced GPU goes to `rejected` (no_price) */
    }
    struct same_spec seen = {NULL, 0};
    if (st == GS_OK && !same_spec_init(&seen, s->candidate_count))
        st = GS_ERR_NOMEM;
    const uint64_t started = budget_ms ? monotonic_ms() : 0;
    const bool training = st == GS_OK && s->req.workload.mode == GS_MODE_TRAINING;
    struct gs_plan *plans = NULL;
    size_t searches = 0;
    for (size_t i = 0; st == GS_OK && i < s->candidate_count; i++) {
        if (budget_ms && i > 0 && monotonic_ms() - started > budget_ms) {
            free(seen.slots);
            json_w_discard(&w);
            problem_set(problem, 503, "search-budget",
                        "The search ran past its time budget",
                        "the search of %zu GPU types passed its budget of %llu ms after %zu of "
                        "them; name fewer in constraints.gpus (or a smaller max_gpus), or ask the "
                        "operator for a larger GPUSIZER_COMPUTE_BUDGET_MS",
                        s->candidate_count, (unsigned long long)budget_ms, i);
            sizing_end(s);
            return GS_ERR_BUSY;
        }
        struct candidate *c = &cands[i];
        c->gpu = s->candidates[i];
        sizing_request_plan_gpu(s, s->candidates[i], &c->spec);
        const size_t twin = same_spec_find(&seen, cands, i);
        if (twin != i) { /* searched already: the same inputs give the same plan */
            c->searched = cands[twin].searched;
            struct gs_plan plan = plans[c->searched];
            c->why = gs_plan_reprice(&c->spec, &s->limits, cands[twin].why, &plan);
            c->rank_cost = gs_rank_cost(&plan, training);
            c->gpu_count = plan.gpu_count;
            continue;
        }
        plans = plans_for(searches);
        if (plans == NULL) {
            st = GS_ERR_NOMEM;
            break;
        }
        c->searched = searches++;
        struct gs_plan *plan = &plans[c->searched];
        st = gs_plan_search(&s->req.model, &s->req.workload, &c->spec, &s->limits, &s->demand,
                            &s->eff, 0, &s->memo, plan, &c->why, &problem->errors);
        c->rank_cost = gs_rank_cost(plan, training);
        c->gpu_count = plan->gpu_count;
    }
    free(seen.slots);
    if (st == GS_OK)
        write_recommendation(&w, s, cands, s->candidate_count, plans);
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
    if (has_max && v->max_at != GS_FIT_AT)
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

