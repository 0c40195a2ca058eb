/*
 * summary.c - the short human-readable answers of `gpusizer estimate`, `fit` and
 * `recommend` (summary.h). A view of the response JSON: every figure is read from it
 * (bytes shown in GiB, counts with thousands separators) and nothing is computed but the
 * units; what is missing or malformed is skipped, so any response prints without harm.
 */
#include "cli/summary.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define GIB          1073741824.0
#define TEXT_LIMIT   150 /* bytes of a warning's or change's detail shown */
#define WARNINGS_MAX 3
#define FIXES_MAX    3
#define CHANGES_MAX  5
#define OPTIONS_MAX  10

/* ------------------------------------------------------------------ reading */

/* The member at `path` ("a/b/c") under `root`, NULL when any step is missing. */
static const json_t *get(const json_t *root, const char *path)
{
    const json_t *node = root;
    const char *p = path;
    while (node != NULL && json_is_object(node)) {
        const char *slash = strchr(p, '/');
        if (slash == NULL)
            return json_object_get(node, p);
        char key[64];
        const size_t n = (size_t)(slash - p);
        if (n >= sizeof(key))
            return NULL;
        memcpy(key, p, n);
        key[n] = '\0';
        node = json_object_get(node, key);
        p = slash + 1;
    }
    return NULL;
}

static const char *text_at(const json_t *root, const char *path)
{
    return json_string_value(get(root, path)); /* NULL unless a string */
}

static bool whole_at(const json_t *root, const char *path, json_int_t *out)
{
    const json_t *v = get(root, path);
    if (!json_is_integer(v))
        return false;
    *out = json_integer_value(v);
    return true;
}

static bool number_at(const json_t *root, const char *path, double *out)
{
    const json_t *v = get(root, path);
    if (!json_is_number(v))
        return false;
    *out = json_number_value(v);
    return true;
}

/* 1 true, 0 false, -1 missing. */
static int bool_at(const json_t *root, const char *path)
{
    const json_t *v = get(root, path);
    return json_is_boolean(v) ? json_is_true(v) : -1;
}

/* --------------------------------------------------------------- formatting */

static const char *gib(char *buf, size_t cap, double bytes)
{
    snprintf(buf, cap, "%.2f GiB", bytes / GIB);
    return buf;
}

/* 444560 -> "444,560". */
static const char *grouped(char *buf, size_t cap, json_int_t n)
{
    char digits[32];
    const uintmax_t magnitude = n < 0 ? (uintmax_t)0 - (uintmax_t)n : (uintmax_t)n;
    snprintf(digits, sizeof(digits), "%" PRIuMAX, magnitude);
    const size_t len = strlen(digits);
    size_t at = 0;
    if (n < 0 && at + 1 < cap)
        buf[at++] = '-';
    for (size_t i = 0; i < len && at + 2 < cap; i++) {
        if (i > 0 && (len - i) % 3 == 0)
            buf[at++] = ',';
        buf[at++] = digits[i];
    }
    buf[at] = '\0';
    return buf;
}

/* 8030261248 -> "8.03B", 124439808 -> "124.4M", 1e11 -> "100.00B". */
static const char *scaled(char *buf, size_t cap, double n)
{
    if (n >= 1e12)
        snprintf(buf, cap, "%.2fT", n / 1e12);
    else if (n >= 1e9)
        snprintf(buf, cap, "%.2fB", n / 1e9);
    else if (n >= 1e6)
        snprintf(buf, cap, "%.1fM", n / 1e6);
    else
        snprintf(buf, cap, "%.6g", n);
    return buf;
}

/* Writes `text`, cut at `limit` bytes on a UTF-8 character boundary with "...". */
static void clipped(FILE *out, const char *text, size_t limit)
{
    size_t len = strlen(text);
    if (len <= limit) {
        fputs(text, out);
        return;
    }
    len = limit;
    while (len > 0 && ((unsigned char)text[len] & 0xC0) == 0x80)
        len--; /* not inside a character */
    fprintf(out, "%.*s...", (int)len, text);
}

/* Appends to `buf` (of `cap` bytes, `*at` used), cutting what does not fit. */
__attribute__((format(printf, 4, 5))) static void append(char *buf, size_t cap, size_t *at,
                                                         const char *format, ...)
{
    if (*at + 1 >= cap)
        return;
    va_list args;
    va_start(args, format);
    const int n = vsnprintf(buf + *at, cap - *at, format, args);
    va_end(args);
    if (n > 0)
        *at = *at + (size_t)n < cap ? *at + (size_t)n : cap - 1;
}

/* A plan's layout: "TP4 PP2 VPP2 DP2 EP8 ETP4 ZeRO-1 ...", the degrees above 1 (VPP the model
 * chunks of an interleaved schedule, Megatron-LM's name; a device_map's stages "device_map 2")
 * and the techniques used (", micro-batch 1 x 8 steps" where it accumulates), "TP1" when none;
 * `data` false leaves data parallelism out (inference shows it as replicas). */
static const char *layout(char *buf, size_t cap, const json_t *plan, bool data)
{
    static const struct {
        const char *key, *label;
    } degrees[] = {{"tensor", "TP"},  {"pipeline", "PP"}, {"virtual_stages", "VPP"}, {"data", "DP"},
                   {"context", "CP"}, {"expert", "EP"},   {"expert_tensor", "ETP"},
                   {"attention_data", "DP-attention "}};
    size_t at = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < sizeof(degrees) / sizeof(degrees[0]); i++) {
        json_int_t d = 0;
        if (!whole_at(plan, degrees[i].key, &d) || d <= 1 ||
            (!data && strcmp(degrees[i].key, "data") == 0))
            continue;
        const bool mapped = strcmp(degrees[i].key, "pipeline") == 0 &&
                            json_is_true(json_object_get(plan, "device_map"));
        append(buf, cap, &at, "%s%s%" PRIdMAX, at > 0 ? " " : "",
               mapped ? "device_map " : degrees[i].label, (intmax_t)d);
    }
    if (at == 0)
        append(buf, cap, &at, "TP1");
    json_int_t zero = 0;
    if (whole_at(plan, "zero_stage", &zero) && zero > 0)
        append(buf, cap, &at, " ZeRO-%" PRIdMAX, (intmax_t)zero);
    const char *ckpt = text_at(plan, "activation_checkpointing");
    if (ckpt != NULL && strcmp(ckpt, "none") != 0)
        append(buf, cap, &at, ", recompute %s", ckpt);
    const char *offload = text_at(plan, "offload");
    if (offload != NULL && strcmp(offload, "none") != 0)
        append(buf, cap, &at, ", offload %s", offload);
    json_int_t micro = 0, steps = 0;
    if (whole_at(plan, "micro_batch_size", &micro) &&
        whole_at(plan, "gradient_accumulation_steps", &steps) && steps > 1)
        append(buf, cap, &at, ", micro-batch %" PRIdMAX " x %" PRIdMAX " steps", (intmax_t)micro,
               (intmax_t)steps);
    return buf;
}

/* ------------------------------------------------------------------ sections */

/* "Model: Llama 3.1 8B (llama-3.1-8b), 8.03B parameters" */
static void model_line(FILE *out, const json_t *response)
{
    const json_t *model = get(response, "model");
    const char *name = text_at(model, "name");
    const char *id = text_at(model, "id");
    const char *source = text_at(model, "source");
    const char *family = text_at(model, "family");
    fputs("Model:     ", out);
    if (name != NULL)
        fprintf(out, "%s%s%s%s", name, id != NULL ? " (" : "", id != NULL ? id : "",
                id != NULL ? ")" : "");
    else if (id != NULL)
        fputs(id, out);
    else if (source != NULL && strcmp(source, "config") == 0)
        fprintf(out, "a config.json%s%s", family != NULL ? ", family " : "",
                family != NULL ? family : "");
    else if (source != NULL && strcmp(source, "parameters") == 0)
        fputs("a parameter count", out);
    else
        fputs("(unnamed)", out);
    json_int_t n = 0;
    char a[48], b[48];
    if (whole_at(model, "parameters", &n))
        fprintf(out, ", %s parameters (%s)", scaled(a, sizeof(a), (double)n),
                grouped(b, sizeof(b), n));
    fputc('\n', out);
}

/* The first `max` warnings: "  - code: detail". */
static void warnings(FILE *out, const json_t *response, size_t max)
{
    const json_t *list = get(response, "warnings");
    const size_t n = json_array_size(list);
    if (n == 0)
        return;
    fputs("Warnings:\n", out);
    for (size_t i = 0; i < n && i < max; i++) {
        const json_t *w = json_array_get(list, i);
        const char *code = text_at(w, "code");
        const char *detail = text_at(w, "detail");
        fprintf(out, "  - %s%s", code != NULL ? code : "warning", detail != NULL ? ": " : "");
        if (detail != NULL)
            clipped(out, detail, TEXT_LIMIT);
        fputc('\n', out);
    }
    if (n > max)
        fprintf(out, "  (%zu more in --json)\n", n - max);
}

/* "weights 14.96 GiB" and so on, the components above zero, then the total. */
static void memory_lines(FILE *out, const json_t *per_gpu)
{
    static const struct {
        const char *key, *label;
    } parts[] = {{"weights_bytes", "weights"},         {"kv_cache_bytes", "KV cache"},
                 {"activations_bytes", "activations"}, {"gradients_bytes", "gradients"},
                 {"optimizer_bytes", "optimizer"},     {"overhead_bytes", "overhead"}};
    char buf[48];
    for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
        double bytes = 0;
        if (number_at(per_gpu, parts[i].key, &bytes) && (bytes > 0 || i == 0))
            fprintf(out, "  %-13s %14s\n", parts[i].label, gib(buf, sizeof(buf), bytes));
    }
}

/* ------------------------------------------------------------------ estimate */

static void estimate_workload(FILE *out, const json_t *r)
{
    const char *mode = text_at(r, "mode");
    const char *weights = text_at(r, "precision/weights");
    const char *regime = text_at(r, "precision/regime");
    fprintf(out, "Workload:  %s", mode != NULL ? mode : "?");
    if (weights != NULL)
        fprintf(out, ", %s weights", weights);
    if (regime != NULL)
        fprintf(out, ", regime %s", regime);
    json_int_t batch = 0, tokens = 0;
    char a[32];
    const char *engine = text_at(r, "inference/engine");
    if (engine != NULL)
        fprintf(out, ", %s", engine);
    if (whole_at(r, "inference/batch_size", &batch) &&
        whole_at(r, "inference/context_length", &tokens))
        fprintf(out, ", batch %" PRIdMAX " x %s tokens", (intmax_t)batch,
                grouped(a, sizeof(a), tokens));
    if (whole_at(r, "training/batch_size", &batch) &&
        whole_at(r, "training/sequence_length", &tokens))
        fprintf(out, ", batch %" PRIdMAX " x %s tokens", (intmax_t)batch,
                grouped(a, sizeof(a), tokens));
    const char *optimizer = text_at(r, "training/optimizer");
    if (optimizer != NULL)
        fprintf(out, ", %s", optimizer);
    const json_t *parallelism = get(r, "parallelism");
    char plan[160];
    if (json_is_object(parallelism) &&
        strcmp(layout(plan, sizeof(plan), parallelism, true), "TP1") != 0)
        fprintf(out, ", %s", plan);
    fputc('\n', out);
}

/* Pipeline stages: the layers each holds, runs of equal stages folded ("Stages:    6, 8 x6, 7
 * layers"), as parallelism.stage_layers (training) or inference.stage_layers lists them. */
static void estimate_stages(FILE *out, const json_t *r)
{
    const json_t *layers = get(r, "parallelism/stage_layers");
    if (layers == NULL)
        layers = get(r, "inference/stage_layers");
    const size_t n = json_is_array(layers) ? json_array_size(layers) : 0;
    if (n < 2)
        return;
    char buf[256];
    size_t at = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < n;) {
        const json_int_t v = json_integer_value(json_array_get(layers, i));
        size_t run = 1;
        while (i + run < n && json_integer_value(json_array_get(layers, i + run)) == v)
            run++;
        if (run > 1)
            append(buf, sizeof(buf), &at, "%s%" PRIdMAX " x%zu", i > 0 ? ", " : "", (intmax_t)v,
                   run);
        else
            append(buf, sizeof(buf), &at, "%s%" PRIdMAX, i > 0 ? ", " : "", (intmax_t)v);
        i += run;
    }
    const json_t *chunks = get(r, "parallelism/virtual_stages");
    if (json_is_integer(chunks))
        fprintf(out, "Stages:    %s layers, in %" PRIdMAX " interleaved chunks each\n", buf,
                (intmax_t)json_integer_value(chunks));
    else
        fprintf(out, "Stages:    %s layers\n", buf);
}

static void estimate_gpu(FILE *out, const json_t *r)
{
    json_int_t count = 1;
    whole_at(r, "gpu_count", &count);
    const json_t *fit = get(r, "fit");
    const char *name = text_at(fit, "name");
    const char *id = text_at(fit, "gpu");
    double usable = 0;
    char a[48];
    if (id == NULL) {
        fprintf(out, "GPU:       none named (--gpu for a verdict), %" PRIdMAX " GPU%s\n",
                (intmax_t)count, count == 1 ? "" : "s");
        return;
    }
    fprintf(out, "GPU:       %s%s%s%s, %" PRIdMAX " GPU%s", name != NULL ? name : id,
            name != NULL ? " (" : "", name != NULL ? id : "", name != NULL ? ")" : "",
            (intmax_t)count, count == 1 ? "" : "s");
    if (number_at(fit, "usable_bytes", &usable))
        fprintf(out, ", %s usable each", gib(a, sizeof(a), usable));
    fputc('\n', out);
}

static void estimate_total(FILE *out, const json_t *r)
{
    char a[48], b[48];
    double total = 0, limit = 0;
    if (!number_at(r, "per_gpu/total_bytes", &total))
        return;
    fprintf(out, "  %-13s %14s", "total", gib(a, sizeof(a), total));
    const char *basis = text_at(r, "fit/basis");
    if (number_at(r, "fit/limit_bytes", &limit))
        fprintf(out, "   of a %s limit%s", gib(b, sizeof(b), limit),
                basis != NULL && strcmp(basis, "engine_budget") == 0 ? " (the engine's budget)"
                                                                     : "");
    fputc('\n', out);
    const char *phase = text_at(r, "per_gpu/peak_phase");
    if (phase != NULL)
        fprintf(out, "  (the peak is at %s)\n", phase);
}

static void estimate_verdict(FILE *out, const json_t *r)
{
    const int fits = bool_at(r, "fit/fits");
    if (fits < 0)
        return;
    const int starts = bool_at(r, "starts");
    const int holds = bool_at(r, "holds_batch");
    const char *binding = text_at(r, "binding_constraint");
    double headroom = 0;
    char a[48];
    const bool has_headroom = number_at(r, "fit/headroom_bytes", &headroom);
    fputs("Fits:      ", out);
    if (starts == 0)
        fputs("no: the engine would not start", out);
    else if (starts == 1 && holds == 0)
        fputs("partly: the engine starts but queues part of the batch", out);
    else if (fits == 1)
        fputs(starts == 1 ? "yes: the engine starts and holds the batch" : "yes", out);
    else
        fputs("no", out);
    if (has_headroom)
        fprintf(out, ", %s %s", gib(a, sizeof(a), headroom < 0 ? -headroom : headroom),
                headroom < 0 ? "short" : "to spare");
    if (binding != NULL && fits != 1) {
        fputs(" (", out);
        clipped(out, binding, TEXT_LIMIT);
        fputc(')', out);
    }
    fputc('\n', out);
}

static void estimate_kv(FILE *out, const json_t *r)
{
    const json_t *kv = get(r, "kv_cache");
    double per_token = 0;
    if (!number_at(kv, "bytes_per_token", &per_token))
        return;
    char a[32], b[32], c[32];
    if (per_token >= 1048576)
        fprintf(out, "KV cache:  %.2f MiB per token", per_token / 1048576.0);
    else
        fprintf(out, "KV cache:  %.1f KiB per token", per_token / 1024.0);
    json_int_t tokens = 0, concurrency = 0, context = 0, length = 0;
    if (whole_at(kv, "max_tokens", &tokens))
        fprintf(out, ", capacity %s tokens", grouped(a, sizeof(a), tokens));
    const bool has_concurrency = whole_at(kv, "max_concurrency", &concurrency);
    const bool has_context = whole_at(kv, "max_context", &context);
    if (has_concurrency || has_context)
        fputs("\n          ", out);
    if (has_concurrency) {
        fprintf(out, " max concurrency %s", grouped(b, sizeof(b), concurrency));
        if (whole_at(r, "inference/context_length", &length))
            fprintf(out, " at %s tokens", grouped(c, sizeof(c), length));
    }
    if (has_context)
        fprintf(out, "%s max context %s", has_concurrency ? "," : "",
                grouped(a, sizeof(a), context));
    fputc('\n', out);
}

static void estimate_fixes(FILE *out, const json_t *r)
{
    const json_t *list = get(r, "fixes");
    const size_t n = json_array_size(list);
    if (n == 0)
        return;
    fputs("Fixes:\n", out);
    for (size_t i = 0; i < n && i < FIXES_MAX; i++) {
        const json_t *f = json_array_get(list, i);
        const char *change = text_at(f, "change");
        const char *detail = text_at(f, "detail");
        json_int_t value = 0, concurrency = 0;
        fprintf(out, "  - %s", change != NULL ? change : "change");
        if (whole_at(f, "value", &value))
            fprintf(out, " %" PRIdMAX, (intmax_t)value);
        if (detail != NULL) {
            fputs(": ", out);
            clipped(out, detail, TEXT_LIMIT);
        }
        const int holds = bool_at(f, "holds_batch");
        const int starts = bool_at(f, "starts");
        fputs(holds == 1    ? " -> holds the batch"
              : starts == 1 ? " -> starts, queues part of the batch"
                            : " -> still does not start",
              out);
        if (whole_at(f, "max_concurrency", &concurrency) && concurrency > 0)
            fprintf(out, ", %" PRIdMAX " sequences at once", (intmax_t)concurrency);
        fputc('\n', out);
    }
    if (n > FIXES_MAX)
        fprintf(out, "  (%zu more in --json)\n", n - FIXES_MAX);
}

static int finish(FILE *out)
{
    return fflush(out) == 0 && !ferror(out) ? 0 : -1;
}

static int write_estimate(FILE *out, const json_t *r)
{
    model_line(out, r);
    estimate_workload(out, r);
    estimate_stages(out, r);
    estimate_gpu(out, r);
    fputs("Memory per GPU:\n", out);
    memory_lines(out, get(r, "per_gpu"));
    estimate_total(out, r);
    estimate_verdict(out, r);
    estimate_kv(out, r);
    warnings(out, r, WARNINGS_MAX);
    estimate_fixes(out, r);
    return finish(out);
}

/* ----------------------------------------------------------------------- fit */

static void fit_changes(FILE *out, const json_t *r)
{
    const json_t *list = get(r, "changes");
    const size_t n = json_array_size(list);
    if (n == 0)
        return;
    fputs("Changes:\n", out);
    for (size_t i = 0; i < n && i < CHANGES_MAX; i++) {
        const json_t *c = json_array_get(list, i);
        const char *change = text_at(c, "change");
        const char *detail = text_at(c, "detail");
        json_int_t count = 0, value = 0;
        char a[48], plan[160];
        fprintf(out, "  %-5s %s", bool_at(c, "fits") == 1 ? "fits" : "no",
                change != NULL ? change : "change");
        if (whole_at(c, "value", &value))
            fprintf(out, " %" PRIdMAX, (intmax_t)value);
        if (whole_at(c, "gpu_count", &count)) {
            fprintf(out, " (%" PRIdMAX " GPU%s", (intmax_t)count, count == 1 ? "" : "s");
            if (json_is_object(get(c, "plan")))
                fprintf(out, ", %s", layout(plan, sizeof(plan), get(c, "plan"), true));
            fputc(')', out);
        }
        if (detail != NULL) {
            fputs(": ", out);
            clipped(out, detail, TEXT_LIMIT);
        }
        double total = 0;
        if (number_at(c, "per_gpu/total_bytes", &total))
            fprintf(out, "; %s per GPU", gib(a, sizeof(a), total));
        fputc('\n', out);
    }
    if (n > CHANGES_MAX)
        fprintf(out, "  (%zu more in --json)\n", n - CHANGES_MAX);
}

static int write_fit(FILE *out, const json_t *r)
{
    char a[48], b[48], plan[160];
    model_line(out, r);
    const char *mode = text_at(r, "mode");
    const char *name = text_at(r, "name");
    const char *id = text_at(r, "gpu");
    double usable = 0, total = 0, limit = 0, headroom = 0;
    json_int_t count = 1, fewest = 0, batch = 0, context = 0, at = 0;
    whole_at(r, "gpu_count", &count);
    fprintf(out, "Workload:  %s\n", mode != NULL ? mode : "?");
    if (id != NULL) {
        fprintf(out, "GPU:       %s%s%s%s", name != NULL ? name : id, name != NULL ? " (" : "",
                name != NULL ? id : "", name != NULL ? ")" : "");
        if (number_at(r, "usable_bytes", &usable))
            fprintf(out, ", %s usable each", gib(a, sizeof(a), usable));
        fputc('\n', out);
    }
    const int fits = bool_at(r, "fits");
    const bool has_total = number_at(r, "per_gpu/total_bytes", &total);
    fprintf(out, "Verdict:   %s on %" PRIdMAX " GPU%s", fits == 1 ? "fits" : "does not fit",
            (intmax_t)count, count == 1 ? "" : "s");
    if (fits == 1 && json_is_object(get(r, "plan")))
        fprintf(out, " (%s)", layout(plan, sizeof(plan), get(r, "plan"), true));
    if (has_total)
        fprintf(out, ": %s per GPU", gib(a, sizeof(a), total));
    if (number_at(r, "limit_bytes", &limit))
        fprintf(out, " of a %s limit", gib(b, sizeof(b), limit));
    if (number_at(r, "headroom_bytes", &headroom))
        fprintf(out, ", %s %s", gib(a, sizeof(a), headroom < 0 ? -headroom : headroom),
                headroom < 0 ? "short" : "to spare");
    fputc('\n', out);
    if (json_is_object(get(r, "alternative_plan"))) {
        fprintf(out, "Instead:   %s", layout(plan, sizeof(plan), get(r, "alternative_plan"), true));
        if (number_at(r, "alternative_per_gpu/total_bytes", &total))
            fprintf(out, ", %s per GPU", gib(a, sizeof(a), total));
        fputc('\n', out);
    }
    fputs("Memory per GPU:\n", out);
    memory_lines(out, get(r, "per_gpu"));
    if (has_total)
        fprintf(out, "  %-13s %14s\n", "total", gib(a, sizeof(a), total));
    if (whole_at(r, "min_gpu_count", &fewest)) {
        fprintf(out, "Fewest:    %" PRIdMAX " GPU%s", (intmax_t)fewest, fewest == 1 ? "" : "s");
        if (json_is_object(get(r, "min_plan")))
            fprintf(out, " (%s)", layout(plan, sizeof(plan), get(r, "min_plan"), true));
        fputc('\n', out);
    } else {
        const char *why = text_at(r, "min_plan_reason/detail");
        fputs("Fewest:    no count of this GPU fits", out);
        if (why != NULL) {
            fputs(": ", out);
            clipped(out, why, TEXT_LIMIT);
        }
        fputc('\n', out);
    }
    const bool has_batch = whole_at(r, "max_batch", &batch);
    const bool has_context = whole_at(r, "max_context", &context);
    if (has_batch || has_context) {
        /* training: the micro-batch at the asked sequence, the sequence at the asked micro-batch
         * (as the web page's facts say) */
        const bool training = mode != NULL && strcmp(mode, "training") == 0;
        fputs("Largest:  ", out);
        if (has_batch)
            fprintf(out, " %s %s", training ? "micro-batch" : "batch",
                    grouped(a, sizeof(a), batch));
        if (has_context)
            fprintf(out, "%s %s %s tokens", has_batch ? "," : "", training ? "sequence" : "context",
                    grouped(b, sizeof(b), context));
        if (whole_at(r, "max_at_gpu_count", &at))
            fprintf(out, " (on %" PRIdMAX " GPUs)", (intmax_t)at);
        fputc('\n', out);
    }
    fit_changes(out, r);
    warnings(out, r, WARNINGS_MAX);
    return finish(out);
}

/* ----------------------------------------------------------------- recommend */

static void recommend_demand(FILE *out, const json_t *r, bool training)
{
    const json_t *d = get(r, "demand");
    double rate = 0, tpot = 0, tokens = 0, days = 0;
    json_int_t prompt = 0, output = 0, percentile = 0;
    char a[32], b[32];
    if (!json_is_object(d) || json_object_size(d) == 0)
        return;
    fputs("Demand:   ", out);
    if (training) {
        if (number_at(d, "training_tokens", &tokens))
            fprintf(out, " %s training tokens", scaled(a, sizeof(a), tokens));
        if (number_at(d, "deadline_days", &days))
            fprintf(out, " within %.4g days", days);
        fputc('\n', out);
        return;
    }
    if (number_at(d, "output_tokens_per_s", &rate))
        fprintf(out, " %s output tokens/s", scaled(a, sizeof(a), rate));
    else if (number_at(d, "requests_per_s", &rate))
        fprintf(out, " %.6g requests/s", rate);
    else
        fputs(" memory only (no rate)", out);
    if (whole_at(d, "prompt_tokens", &prompt) && whole_at(d, "output_tokens", &output))
        fprintf(out, ", requests of %s prompt + %s output tokens", grouped(a, sizeof(a), prompt),
                grouped(b, sizeof(b), output));
    if (number_at(d, "tpot_ms", &tpot))
        fprintf(out, ", TPOT %.4g ms", tpot);
    if (whole_at(d, "percentile", &percentile) && number_at(d, "tpot_ms", &tpot))
        fprintf(out, " (p%" PRIdMAX ")", (intmax_t)percentile);
    fputc('\n', out);
}

/* "options: 12, 36 GPUs rejected (no_price 23, misses_latency 8)" */
static void recommend_counts(FILE *out, const json_t *r, size_t shown)
{
    json_int_t options = 0, rejected = 0;
    if (!whole_at(r, "options_total", &options))
        options = (json_int_t)json_array_size(get(r, "options"));
    fprintf(out, "Options:   %" PRIdMAX " that qualify, cheapest first", (intmax_t)options);
    if ((json_int_t)shown < options)
        fprintf(out, " (the first %zu shown)", shown);
    if (whole_at(r, "rejected_total", &rejected) && rejected > 0) {
        fprintf(out, "; %" PRIdMAX " rejected", (intmax_t)rejected);
        const json_t *by = get(r, "rejected_by_reason");
        for (size_t i = 0; i < json_array_size(by); i++) {
            const char *reason = text_at(json_array_get(by, i), "reason");
            json_int_t n = 0;
            if (reason != NULL && whole_at(json_array_get(by, i), "count", &n))
                fprintf(out, "%s%s %" PRIdMAX, i == 0 ? " (" : ", ", reason, (intmax_t)n);
        }
        if (json_array_size(by) > 0)
            fputc(')', out);
    }
    fputc('\n', out);
}

/* The layout of an inference option: the plan, then its replicas or pools. */
static const char *option_layout(char *buf, size_t cap, const json_t *o, bool training)
{
    layout(buf, cap, get(o, "plan"), training);
    if (training)
        return buf;
    json_int_t replicas = 0, prefill = 0;
    size_t at = strlen(buf);
    if (bool_at(o, "disaggregated") == 1 && whole_at(o, "replicas", &replicas) &&
        whole_at(o, "prefill_replicas", &prefill))
        append(buf, cap, &at, ", %" PRIdMAX " decode + %" PRIdMAX " prefill", (intmax_t)replicas,
               (intmax_t)prefill);
    else if (whole_at(o, "replicas", &replicas) && replicas > 1)
        append(buf, cap, &at, " x %" PRIdMAX, (intmax_t)replicas);
    return buf;
}

static int write_recommend(FILE *out, const json_t *r)
{
    const char *mode = text_at(r, "mode");
    const bool training = mode != NULL && strcmp(mode, "training") == 0;
    const json_t *options = get(r, "options");
    const size_t n = json_array_size(options);
    const size_t shown = n < OPTIONS_MAX ? n : OPTIONS_MAX;
    model_line(out, r);
    fprintf(out, "Workload:  %s\n", mode != NULL ? mode : "?");
    recommend_demand(out, r, training);
    recommend_counts(out, r, shown);
    int gpu_width = 3, layout_width = 6;
    char buf[160];
    for (size_t i = 0; i < shown; i++) {
        const json_t *o = json_array_get(options, i);
        const char *gpu = text_at(o, "gpu");
        const int w = gpu != NULL ? (int)strlen(gpu) : 1;
        const int l = (int)strlen(option_layout(buf, sizeof(buf), o, training));
        gpu_width = w > gpu_width ? (w > 40 ? 40 : w) : gpu_width;
        layout_width = l > layout_width ? (l > 60 ? 60 : l) : layout_width;
    }
    if (shown > 0) {
        fprintf(out, "\n%3s  %-*s %5s  %-*s %11s %9s %9s  %s\n", "#", gpu_width, "GPU", "GPUs",
                layout_width, "layout", training ? "days" : "tok/s/user", "$/hour",
                training ? "total $" : "$/Mtok", "memory per GPU");
    }
    for (size_t i = 0; i < shown; i++) {
        const json_t *o = json_array_get(options, i);
        const char *gpu = text_at(o, "gpu");
        json_int_t rank = (json_int_t)i + 1, count = 0;
        double first = 0, second = 0, third = 0, total = 0, usable = 0;
        char col1[32] = "-", col2[32] = "-", col3[32] = "-", a[48], b[48];
        whole_at(o, "rank", &rank);
        whole_at(o, "gpu_count", &count);
        if (training && number_at(o, "throughput/wall_clock_days", &first))
            snprintf(col1, sizeof(col1), "%.1f", first);
        if (!training && number_at(o, "throughput/tpot_ms", &first) && first > 0)
            snprintf(col1, sizeof(col1), "%.1f", 1000.0 / first); /* tokens/s each user sees */
        if (number_at(o, "cost_per_hour", &second))
            snprintf(col2, sizeof(col2), "%.2f", second);
        if (training && number_at(o, "total_cost", &third))
            snprintf(col3, sizeof(col3), "%.0f", third);
        if (!training && number_at(o, "cost_per_million_tokens", &third))
            snprintf(col3, sizeof(col3), "%.3f", third);
        fprintf(out, "%3" PRIdMAX "  %-*.*s %5" PRIdMAX "  %-*.*s %11s %9s %9s  ", (intmax_t)rank,
                gpu_width, gpu_width, gpu != NULL ? gpu : "?", (intmax_t)count, layout_width,
                layout_width, option_layout(buf, sizeof(buf), o, training), col1, col2, col3);
        if (number_at(o, "per_gpu/total_bytes", &total) && number_at(o, "usable_bytes", &usable))
            fprintf(out, "%s of %s", gib(a, sizeof(a), total), gib(b, sizeof(b), usable));
        fputc('\n', out);
    }
    if (n > shown)
        fprintf(out, "(%zu more in --json)\n", n - shown);
    if (shown > 0)
        fputc('\n', out);
    warnings(out, r, WARNINGS_MAX);
    return finish(out);
}

/* ------------------------------------------------------------------ output */

typedef int (*summary_writer)(FILE *out, const json_t *response);

/* Writes the view in memory, then to `out` with control characters (escape sequences in a
 * catalog name, say) shown as '?', so the terminal shows text and nothing else. */
static int render(summary_writer write, const json_t *response, FILE *out)
{
    char *text = NULL;
    size_t length = 0;
    FILE *memory = open_memstream(&text, &length);
    if (memory == NULL)
        return -1;
    const int rc = write(memory, response);
    if (fclose(memory) != 0 || rc != 0 || text == NULL) {
        free(text);
        return -1;
    }
    for (size_t i = 0; i < length; i++) {
        const unsigned char c = (unsigned char)text[i];
        fputc((c < 0x20 && c != '\n') || c == 0x7f ? '?' : c, out);
    }
    free(text);
    return fflush(out) == 0 && !ferror(out) ? 0 : -1;
}

bool summary_estimate(const json_t *response, FILE *out)
{
    return render(write_estimate, response, out) == 0;
}

bool summary_fit(const json_t *response, FILE *out)
{
    return render(write_fit, response, out) == 0;
}

bool summary_recommend(const json_t *response, FILE *out)
{
    return render(write_recommend, response, out) == 0;
}
