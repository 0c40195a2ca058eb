/* sizing_answer.c - the pieces of a /v1/recommend or /v1/fit answer (see sizing_answer.h). */
#include "api/sizing_answer.h"

#include "gs/perf.h"

#include "api/codec.h"
#include "api/codec_training.h"
#include "formats/json_out.h"
#include "gs/advice.h"
#include "gs/capability.h"
#include "gs/cost.h"
#include "gs/plan.h"
#include "gs/rank.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- encode */


/* Answers are written as text (json_out.h's writer), not built as trees: a whole-catalog
 * recommendation has hundreds of members, and building, dumping and freeing its tree was a
 * third of the request. The irregular parts (the model, the assumptions, each option's
 * estimate_request) are still built as small trees and written in place. */

void sizing_answer_plan(struct json_writer *w, const struct gs_plan *p, bool training)
{
    json_w_begin_object(w);
    json_w_member_int(w, "tensor", (json_int_t)p->tensor);
    json_w_member_int(w, "pipeline", (json_int_t)p->pipeline);
    json_w_member_int(w, "data", (json_int_t)p->data);
    json_w_member_int(w, "expert", (json_int_t)p->expert);
    if (training && p->expert_tensor)
        json_w_member_int(w, "expert_tensor", (json_int_t)p->expert_tensor);
    if (training && p->pipeline > 1 && p->estimate.device_map)
        json_w_member_bool(w, "device_map", true);
    if (training && p->pipeline > 1 && gs_stage_chunks(&p->estimate.stages) > 1)
        json_w_member_int(w, "virtual_stages", (json_int_t)gs_stage_chunks(&p->estimate.stages));
    json_w_member_int(w, "zero_stage", (json_int_t)p->zero_stage);
    json_w_member_string(w, "activation_checkpointing", codec_recompute_name(p->recompute));
    json_w_member_string(w, "offload", codec_offload_name(p->offload));
    if (training) {
        json_w_member_bool(w, "sequence_parallel", p->tensor > 1);
        json_w_member_int(w, "micro_batch_size", (json_int_t)p->micro_batch);
        json_w_member_int(w, "gradient_accumulation_steps", (json_int_t)p->accumulation_steps);
        if (p->sync_each_batch)
            json_w_member_bool(w, "sync_each_batch", true);
    } else {
        json_w_member_int(w, "attention_data",
                   (json_int_t)(p->attention_data > 1 ? p->attention_data : 1));
        if (p->max_num_seqs) /* the search lowered it for the engine to start */
            json_w_member_u64(w, "max_num_seqs", p->max_num_seqs);
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
        if (p->pipeline > 1)
            json_w_member_real(w, "stage_balance", t->stage_balance);
        json_w_member_real(w, "recompute_factor", t->hardware_factor);
        json_w_member_real(w, "flops_per_token", t->flops_per_token);
        json_w_member_real(w, "comm_factor", t->comm_factor);
        if (t->data_parallel_bytes)
            json_w_member_u64(w, "data_parallel_bytes_per_step", t->data_parallel_bytes);
        if (t->expert_bytes)
            json_w_member_u64(w, "expert_all_to_all_bytes_per_step", t->expert_bytes);
        if (t->expert_tensor_bytes)
            json_w_member_u64(w, "expert_tensor_bytes_per_step", t->expert_tensor_bytes);
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
void sizing_answer_nullable_real(struct json_writer *w, bool present, double v)
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
    enum { PATCH_U64, PATCH_STRING, PATCH_TRUE, PATCH_DELETE } kind;
    uint64_t u64;
    const char *string;
};

static void write_patch_value(struct json_writer *w, const struct patch *p)
{
    if (p->kind == PATCH_U64)
        json_w_u64(w, p->u64);
    else if (p->kind == PATCH_TRUE)
        json_w_bool(w, true);
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
    if (given != NULL && !json_is_object(given)) { /* sizing_request_decode lets none through */
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
    if (s->echo_config != NULL) { /* {"config": ...} is the only form that is trimmed */
        json_w_key(w, "model");
        json_w_begin_object(w);
        json_w_key(w, "config");
        json_w_value(w, s->echo_config);
        json_w_end_object(w);
    } else {
        copy_member(w, s->body, "model");
    }
    copy_member(w, s->body, "overrides");
    if (training) {
        copy_member(w, s->body, "precision");
        struct patch train[5] = {
            {"batch_size", PATCH_U64, p->micro_batch ? p->micro_batch : wl->training.batch_size,
             NULL},
            {"sequence_length", PATCH_U64, wl->training.sequence_length, NULL},
            {"activation_checkpointing", PATCH_STRING, 0, codec_recompute_name(p->recompute)},
        };
        size_t n = 3;
        const uint64_t asked = wl->training.gradient_accumulation_steps
                                   ? wl->training.gradient_accumulation_steps
                                   : 1;
        if (p->accumulation_steps && p->accumulation_steps != asked) /* the search split the batch */
            train[n++] = (struct patch){"gradient_accumulation_steps", PATCH_U64,
                                        p->accumulation_steps, NULL};
        if (p->sync_each_batch) /* the search reduce-scatters every micro-batch */
            train[n++] = (struct patch){"sync_each_batch", PATCH_TRUE, 0, NULL};
        json_w_key(w, "training");
        write_patched(w, json_object_get(s->body, "training"), train, n);
        json_w_key(w, "parallelism");
        json_w_begin_object(w);
        json_w_member_int(w, "tensor", (json_int_t)p->tensor);
        json_w_member_int(w, "pipeline", (json_int_t)p->pipeline);
        json_w_member_int(w, "data", (json_int_t)p->data);
        json_w_member_int(w, "expert", (json_int_t)(p->expert ? p->expert : 1));
        if (p->expert_tensor)
            json_w_member_int(w, "expert_tensor", (json_int_t)p->expert_tensor);
        const uint64_t chunks = gs_stage_chunks(&p->estimate.stages);
        if (p->pipeline > 1 && chunks > 1)
            json_w_member_int(w, "virtual_stages", (json_int_t)chunks);
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
    struct patch inf[7] = {
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
    if (p->max_num_seqs) /* the search lowered it for the engine to start */
        inf[n++] = (struct patch){"max_num_seqs", PATCH_U64, p->max_num_seqs, NULL};
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

void sizing_answer_option(struct json_writer *w, const struct sizing *s,
                          const struct catalog_gpu *g, const struct gs_plan_gpu *pg,
                          const struct gs_plan *p, size_t rank)
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
    sizing_answer_plan(w, p, training);
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
    sizing_answer_nullable_real(w, p->has_price, p->price_per_gpu_hour);
    json_w_key(w, "cost_per_hour");
    sizing_answer_nullable_real(w, p->has_price, p->cost_per_hour);
    if (p->has_price && s->purchase) {
        struct gs_tco t;
        gs_tco_compute(sizing_request_tco(s, g), g->purchase_price.value, sizing_request_real(g->tdp_watts),
                       pg->gpus_per_node, &t);
        json_w_key(w, "tco");
        json_w_begin_object(w);
        json_w_member_real(w, "gpu_usd", t.gpu_usd);
        json_w_member_real(w, "server_usd", t.server_usd);
        json_w_member_real(w, "network_usd", t.network_usd);
        json_w_member_real(w, "amortization_years", s->tco.amortization_years);
        json_w_member_real(w, "capital_per_gpu_hour", t.capital_per_hour);
        json_w_key(w, "facility_watts_per_gpu");
        sizing_answer_nullable_real(w, t.has_power, t.facility_watts);
        json_w_member_real(w, "power_per_gpu_hour", t.power_per_hour);
        json_w_member_real(w, "per_gpu_hour", t.per_hour);
        const struct gs_tco_params *params = sizing_request_tco(s, g);
        json_w_member_real(w, "utilization", params->utilization);
        json_w_member_real(w, "staff_usd_per_gpu_year", params->staff_usd_per_gpu_year);
        json_w_member_real(w, "staff_per_gpu_hour", t.staff_per_hour);
        json_w_member_real(w, "cost_of_capital", params->cost_of_capital);
        /* the option as a purchase: every GPU with its host and network share, and a month */
        json_w_member_real(w, "upfront_usd", t.upfront_usd * (double)p->gpu_count);
        json_w_member_real(w, "per_month_usd", t.per_month * (double)p->gpu_count);
        /* against renting the same GPU at the catalog's on-demand price */
        const bool rent = g->price_per_hour.present && g->price_per_hour.value > 0;
        json_w_key(w, "rent_per_gpu_hour");
        sizing_answer_nullable_real(w, rent, rent ? g->price_per_hour.value : 0);
        const double breakeven =
            rent ? gs_tco_breakeven_utilization(&t, params, g->price_per_hour.value) : 0;
        json_w_key(w, "breakeven_utilization");
        sizing_answer_nullable_real(w, breakeven > 0, breakeven);
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

const char *sizing_answer_reject_detail(enum gs_plan_reject why, const struct sizing *s)
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
    case GS_REJECT_ENGINE:
        return "the serving engine fails at startup on this GPU whatever the memory: the "
               "release has no class for the model, or no loader, kernel or attention backend "
               "for it or its weight format there (the warning unsupported_by_engine names it)";
    case GS_REJECT_NONE:
    case GS_REJECT_COUNT:
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
/* The efficiencies by vendor: NVIDIA's are the defaults; each other generation with a
 * published comparison reaches its share of them (gs_efficiency_for_hw), named with its
 * source; the rest are taken as NVIDIA's, which the note says. */
static bool add_vendor_note(struct json_writer *w, const struct sizing *s)
{
    if (!s->eff.per_vendor)
        return add_note(w, "vendor_efficiency",
                        "efficiency.per_vendor is false: every GPU at the efficiencies above",
                        "the request", NAN);
    const char *cdna3 = gs_efficiency_hw_source(GS_HW_CDNA3);
    char detail[512];
    struct gs_efficiency e = s->eff;
    gs_efficiency_for_hw(&e, GS_HW_CDNA3);
    snprintf(detail, sizeof(detail),
             "the efficiencies above are NVIDIA's; AMD CDNA 3 GPUs (MI300X, MI325X) reach %.3f of "
             "them in decode bandwidth, %.3f in compute and %.3f in training MFU, as published "
             "benchmarks compare them; other generations (AMD CDNA 2 and 4, Intel Gaudi) have no such "
             "comparison and are taken at NVIDIA's; efficiency.per_vendor false turns this off",
             (double)e.stack_bandwidth_permille / 1000, (double)e.stack_compute_permille / 1000,
             (double)e.stack_training_permille / 1000);
    return add_note(w, "vendor_efficiency", detail, cdna3 != NULL ? cdna3 : "", NAN);
}

void sizing_answer_assumptions(struct json_writer *w, const struct sizing *s, bool fit)
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
        snprintf(detail, sizeof(detail),
                 "the demand gave no latency target: every option holds this time per output "
                 "token (%.3g tokens/s each user sees); give demand.tpot_ms or "
                 "output_tokens_per_s_per_user to change it, \"tpot_ms\": null for none",
                 1000.0 / GS_DEMAND_DEFAULT_TPOT_MS);
        if (s->latency_defaulted)
            ok = add_note(w, "tpot_target", detail,
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
        if (ok)
            ok = add_vendor_note(w, s);
    } else if (ok) {
        /* the attention products the counted work leaves out, for this model and sequence */
        const struct gs_training *tr = &s->req.workload.training;
        const double share =
            s->req.model.has_arch
                ? gs_perf_train_attention_share(&s->req.model.arch, tr->sequence_length,
                                                s->probe.has_breakdown ? s->probe.params.active
                                                                       : s->probe.parameters,
                                                tr->method != GS_METHOD_FULL)
                : 0;
        char counted[200];
        snprintf(counted, sizeof(counted),
                 "attention's QK^T and AV are not counted: %.1f%% more work at %llu tokens",
                 share * 100, (unsigned long long)tr->sequence_length);
        ok = add_note(w, "training_flops",
                      share > 0 ? counted
                                : "attention's QK^T and AV are not counted (no architecture "
                                  "to count them by)",
                      "6 N D, Kaplan et al. 2020 (arXiv 2001.08361); the causal attention "
                      "products, forward 4 a d a attended token on each attention layer and "
                      "backward twice that, as in PaLM's MFU (arXiv 2204.02311, appendix B), "
                      "whose count takes the whole sequence instead of its causal half",
                      share > 0 ? share : NAN);
        snprintf(detail, sizeof(detail),
                 "model FLOPs utilization (6 N D counted, 4 N D with LoRA): %.2f for dense "
                 "models, %.2f for MoE unless given",
                 GS_TRAIN_MFU_DENSE_PERMILLE / 1000.0, GS_TRAIN_MFU_MOE_PERMILLE / 1000.0);
        ok = ok && add_note(w, "training_mfu", detail,
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
        if (ok && s->limits.allow_accumulation)
            ok = add_note(w, "gradient_accumulation",
                          "where the request's micro-batch does not fit a layout, the largest "
                          "smaller one that does (halving batch_size), with the gradient "
                          "accumulation steps that keep the global batch; each option's plan "
                          "names its micro_batch_size and gradient_accumulation_steps. "
                          "Throughput is counted per token, so a smaller micro-batch costs only "
                          "its pipeline bubble: the lower efficiency of small matrix products is "
                          "not modelled. constraints.allow.gradient_accumulation false keeps the "
                          "batch as asked",
                          "Megatron-LM --micro-batch-size and --global-batch-size; transformers "
                          "TrainingArguments.gradient_accumulation_steps",
                          NAN);
        if (ok)
            ok = add_vendor_note(w, s);
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
void sizing_answer_probe_warnings(struct json_writer *w, const struct sizing *s)
{
    codec_write_request_warnings(w, &s->req);
    for (size_t i = 0; i < s->probe.warning_count; i++)
        if (strcmp(s->probe.warnings[i].code, "engine_budget_needs_gpu") != 0)
            codec_write_warning(w, s->probe.warnings[i].code, s->probe.warnings[i].detail);
}

json_t *sizing_answer_demand(const struct sizing *s)
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
