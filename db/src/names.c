/*
 * names.c - finding catalog entries by the names people type (see catalog.h):
 * ids and aliases, the tokens of a name, "did you mean" hints, GPUs as
 * nvidia-smi, torch.cuda.get_device_name() and engine logs print them
 * (gpu_names.h), and models by the Hugging Face id of a variant, a re-published
 * copy or a quantized repository of a catalog model.
 */
#include "catalog.h"

#include "gpu_names.h"
#include "snapshot.h"

#include "gs/precision.h"
#include "gs/text.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Whether `text` is printable ASCII: device names and Hugging Face ids are; a
 * control character, an escape or a non-ASCII letter is no spelling of one,
 * so the name rules below leave such text to the exact lookups. */
static bool printable_ascii(const char *text)
{
    for (const unsigned char *p = (const unsigned char *)text; *p != '\0'; p++)
        if (*p < 0x20 || *p > 0x7e)
            return false;
    return true;
}

/* Whether the n bytes at `w` are digits, and there are some. */
static bool all_digits(const char *w, size_t n)
{
    if (n == 0)
        return false;
    for (size_t i = 0; i < n; i++)
        if (!isdigit((unsigned char)w[i]))
            return false;
    return true;
}

/* ------------------------------------------------------- ids, aliases, tokens */

static bool matches(const char *id, char *const *aliases, size_t alias_count, const char *key)
{
    if (strcasecmp(id, key) == 0)
        return true;
    for (size_t i = 0; i < alias_count; i++) {
        if (strcasecmp(aliases[i], key) == 0)
            return true;
    }
    return false;
}

const struct catalog_model *catalog_snapshot_model(const struct catalog_snapshot *snapshot,
                                                   const char *id_or_alias)
{
    for (size_t i = 0; i < snapshot->model_count; i++) {
        const struct catalog_model *m = &snapshot->models[i];
        if (matches(m->id, m->aliases, m->alias_count, id_or_alias))
            return m;
    }
    return NULL;
}

const struct catalog_gpu *catalog_snapshot_gpu(const struct catalog_snapshot *snapshot,
                                               const char *id_or_alias)
{
    for (size_t i = 0; i < snapshot->gpu_count; i++) {
        const struct catalog_gpu *g = &snapshot->gpus[i];
        if (matches(g->id, g->aliases, g->alias_count, id_or_alias))
            return g;
    }
    return NULL;
}

/* How well an entry's id or one of its aliases matches `name` by tokens
 * (gs_text_token_match): the best score of its names, one more when a name
 * of it is wholly within what was typed ("h100" in "H100 80GB"), and
 * whether a name has exactly the typed tokens. */
struct entry_match {
    int valid, exact, score;
    size_t extra;
};

static struct entry_match entry_match(const char *name, const char *id, char *const *aliases,
                                      size_t alias_count)
{
    struct entry_match e = {0, 0, 0, 0};
    int covered = 0;
    for (size_t i = 0; i <= alias_count; i++) {
        const struct gs_token_match m = gs_text_token_match(name, i == 0 ? id : aliases[i - 1]);
        covered |= m.covered;
        if (!m.valid)
            continue;
        if (!e.valid || m.score > e.score || (m.score == e.score && m.extra < e.extra)) {
            e.valid = 1;
            e.score = m.score;
            e.extra = m.extra;
        }
        e.exact |= m.exact;
    }
    e.score += covered;
    return e;
}

/* Keeps `e` (entry `index`) when it beats *best. */
static void keep_better(struct entry_match e, size_t index, struct entry_match *best, size_t *at)
{
    if (!e.valid)
        return;
    if (!best->valid || e.score > best->score || (e.score == best->score && e.extra < best->extra)) {
        *best = e;
        *at = index;
    }
}

const struct catalog_model *catalog_snapshot_model_resolve(const struct catalog_snapshot *snapshot,
                                                           const char *name)
{
    const struct catalog_model *found = NULL;
    for (size_t i = 0; i < snapshot->model_count; i++) {
        const struct catalog_model *m = &snapshot->models[i];
        if (entry_match(name, m->id, m->aliases, m->alias_count).exact) {
            if (found != NULL)
                return NULL; /* two models answer: the name is ambiguous */
            found = m;
        }
    }
    return found;
}

/* ------------------------------------------------------------- did you mean */

/* Whether the run of digits at `run` (n of them) is also a run of digits in `text`. */
static bool has_digit_run(const char *text, const char *run, size_t n)
{
    for (const char *p = text; *p != '\0';) {
        const size_t k = strspn(p, "0123456789");
        if (k == n && strncmp(p, run, n) == 0)
            return true;
        p += k > 0 ? k : 1;
    }
    return false;
}

/* How many of the digit runs of `typed` `candidate` has, and whether it lacks
 * one that is a model number (three digits or more: "5090" of "rtx5090"),
 * which a near spelling must keep: an RTX 5090 is no RTX 3090. */
static size_t shared_digits(const char *typed, const char *candidate, bool *misses_number)
{
    size_t shared = 0;
    *misses_number = false;
    for (const char *p = typed; *p != '\0';) {
        const size_t k = strspn(p, "0123456789");
        if (k > 0 && has_digit_run(candidate, p, k))
            shared++;
        else if (k >= 3)
            *misses_number = true;
        p += k > 0 ? k : 1;
    }
    return shared;
}

/* Keeps the better of `candidate` and *best: close in spelling, the typed model
 * numbers kept, then the most digit runs in common, then the nearest. */
static void consider(const char *name, const char *candidate, const char **best, size_t *best_d,
                     size_t *best_shared)
{
    size_t d = 0;
    bool misses_number = false;
    if (!gs_text_is_close(name, candidate, &d))
        return;
    const size_t shared = shared_digits(name, candidate, &misses_number);
    if (misses_number)
        return;
    if (*best == NULL || shared > *best_shared || (shared == *best_shared && d < *best_d)) {
        *best = candidate;
        *best_d = d;
        *best_shared = shared;
    }
}

const char *catalog_snapshot_model_suggest(const struct catalog_snapshot *snapshot,
                                           const char *name)
{
    struct entry_match best = {0, 0, 0, 0};
    size_t at = 0;
    for (size_t i = 0; i < snapshot->model_count; i++) {
        const struct catalog_model *m = &snapshot->models[i];
        keep_better(entry_match(name, m->id, m->aliases, m->alias_count), i, &best, &at);
    }
    if (best.valid)
        return snapshot->models[at].id;
    const char *closest = NULL;
    size_t best_d = (size_t)-1, best_shared = 0;
    for (size_t i = 0; i < snapshot->model_count; i++) {
        const struct catalog_model *m = &snapshot->models[i];
        consider(name, m->id, &closest, &best_d, &best_shared);
        for (size_t j = 0; j < m->alias_count; j++)
            consider(name, m->aliases[j], &closest, &best_d, &best_shared);
    }
    return closest;
}

const char *catalog_snapshot_gpu_suggest(const struct catalog_snapshot *snapshot, const char *name)
{
    struct entry_match best = {0, 0, 0, 0};
    size_t at = 0;
    for (size_t i = 0; i < snapshot->gpu_count; i++) {
        const struct catalog_gpu *g = &snapshot->gpus[i];
        keep_better(entry_match(name, g->id, g->aliases, g->alias_count), i, &best, &at);
    }
    if (best.valid)
        return snapshot->gpus[at].id;
    /* a name that fits several parts and is the default of none ("V100") */
    const struct catalog_gpu_lookup by_name = catalog_snapshot_gpu_lookup(snapshot, name);
    if (by_name.fits > 0)
        return by_name.gpu != NULL ? by_name.gpu->id : by_name.fitting[0]->id;
    const char *closest = NULL;
    size_t best_d = (size_t)-1, best_shared = 0;
    for (size_t i = 0; i < snapshot->gpu_count; i++) {
        const struct catalog_gpu *g = &snapshot->gpus[i];
        consider(name, g->id, &closest, &best_d, &best_shared);
        for (size_t j = 0; j < g->alias_count; j++)
            consider(name, g->aliases[j], &closest, &best_d, &best_shared);
    }
    return closest;
}

/* ------------------------------------------------ GPUs by their device names */

/* The snapshot's parsed names, built on first use (snapshots are read from many threads:
 * the first to finish publishes its index, the others free theirs); NULL when out of
 * memory. */
static const struct catalog_gpu_names *gpu_names(const struct catalog_snapshot *s)
{
    struct catalog_gpu_names **slot = catalog_snapshot_gpu_names_slot(s);
    struct catalog_gpu_names *n = slot != NULL ? __atomic_load_n(slot, __ATOMIC_ACQUIRE) : NULL;
    if (n != NULL || slot == NULL)
        return n;
    struct catalog_gpu_names *built = gpu_names_build(s);
    if (built == NULL)
        return NULL;
    if (__atomic_compare_exchange_n(slot, &n, built, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
        return built;
    gpu_names_free(built);
    return n;
}

/* The catalog GPUs the typed name fits (the first few kept in `fitting`) and
 * the one it names: the only one, else the default among them. */
static void gpus_fitting(const struct catalog_snapshot *s, const char *typed,
                         struct catalog_gpu_lookup *out)
{
    struct gpu_name t;
    gpu_names_parse(typed, &t);
    const struct catalog_gpu_names *all = t.base[0] != '\0' ? gpu_names(s) : NULL;
    if (all == NULL)
        return;
    const struct catalog_gpu *fallback = NULL;
    size_t defaults = 0;
    for (size_t i = 0; i < s->gpu_count; i++) {
        const struct gpu_fit fit = gpu_names_fit(all, i, &t);
        if (!fit.fits)
            continue;
        if (fit.is_default) {
            defaults++;
            fallback = &s->gpus[i];
        }
        if (out->fits < CATALOG_GPU_FITS_MAX)
            out->fitting[out->fits] = &s->gpus[i];
        out->fits++;
    }
    if (out->fits == 1)
        out->gpu = out->fitting[0];
    else if (defaults == 1)
        out->gpu = fallback;
}

struct catalog_gpu_lookup catalog_snapshot_gpu_lookup(const struct catalog_snapshot *snapshot,
                                                      const char *typed)
{
    struct catalog_gpu_lookup out;
    memset(&out, 0, sizeof(out));
    const struct catalog_gpu *exact = catalog_snapshot_gpu(snapshot, typed);
    if (printable_ascii(typed))
        gpus_fitting(snapshot, typed, &out);
    if (exact != NULL) {
        /* an id names one part; an alias such as "a100" may stand for several, of which
         * it is the default */
        if (strcasecmp(exact->id, typed) == 0 || out.gpu != exact)
            out.fits = 1;
        out.gpu = exact;
        return out;
    }
    if (out.gpu == NULL && out.fits < 2)
        out.fits = 0;
    return out;
}

/* ---------------------------------------------------------------- models */

/* A quantization suffix of a Hugging Face repository name and the weight
 * format its publisher stores behind it. Longer suffixes come first so
 * "-FP8-Dynamic" is not read as "-FP8". */
struct quant_suffix {
    const char *suffix;
    bool sized;
    enum gs_weight_format format;
    uint64_t group_size;
    const char *meaning;
};

/* What each publisher's suffix means, from their model cards and the
 * quantization_config their repositories carry (server/readers/checkpoint_format.c reads
 * the same configs the same way):
 * - "-AWQ" (Qwen, casperhansen, TheBloke): AutoAWQ 4-bit, group size 128;
 * - "-GPTQ-Int4" (Qwen) and TheBloke's "-GPTQ" main branch: GPTQ 4-bit, group
 *   size 128; "-GPTQ-Int8": 8-bit GPTQ, which gpusizer does not size;
 * - "-FP8-Dynamic" (RedHatAI/neuralmagic llm-compressor FP8_DYNAMIC): fp8
 *   weights with a scale per output channel;
 * - "-FP8": Qwen's own FP8 repositories use 128x128 block scales
 *   (quant_method fp8, weight_block_size); RedHatAI's and NVIDIA's (ModelOpt)
 *   one scale per tensor - see fp8_format;
 * - "-W4A16" (llm-compressor): 4-bit int in groups of 128, sized like AWQ;
 *   "-W8A8"/"-W8A16": 8-bit int weights;
 * - "-bnb-4bit" (unsloth): bitsandbytes nf4 with double quantization;
 *   "-bnb-8bit": LLM.int8;
 * - "-NVFP4" (NVIDIA ModelOpt, RedHatAI): NVFP4 on every quantizable layer
 *   (which modules a release excludes is in its hf_quant_config.json, read
 *   when the repository is imported);
 * - "-FP4" (NVFP4 or MXFP4?), "-MXFP4" on a model that is not gpt-oss, "-GGUF":
 *   not formats gpusizer sizes from a name (a GGUF repository holds one file
 *   per quantization). */
static const struct quant_suffix quant_suffixes[] = {
    {"unsloth-bnb-4bit", true, GS_WF_NF4_DQ, 0,
     "bitsandbytes 4-bit nf4 with double quantization (unsloth's dynamic quants keep a few "
     "layers in 16 bits)"},
    {"bnb-4bit", true, GS_WF_NF4_DQ, 0, "bitsandbytes 4-bit nf4 with double quantization"},
    {"bnb-8bit", true, GS_WF_INT8, 0, "bitsandbytes 8-bit (LLM.int8)"},
    {"FP8-Dynamic", true, GS_WF_FP8_PER_CHANNEL, 0, "fp8 e4m3 weights with per-channel scales"},
    {"FP8-Static-PerTensor", true, GS_WF_FP8, 0, "fp8 e4m3 weights with one scale per tensor"},
    {"FP8-Static", true, GS_WF_FP8, 0, "fp8 e4m3 weights with one scale per tensor"},
    {"FP8-block", true, GS_WF_FP8_BLOCK, 0, "fp8 e4m3 weights with 128x128 block scales"},
    {"FP8", true, GS_WF_FP8, 0, "fp8 e4m3 weights with one scale per tensor"},
    {"GPTQ-Int4", true, GS_WF_GPTQ, 128, "GPTQ 4-bit, group size 128"},
    {"GPTQ-Int8", false, GS_WF_BF16, 0,
     "8-bit GPTQ, which is not a format gpusizer sizes; weights sized in bf16"},
    {"GPTQ", true, GS_WF_GPTQ, 128, "GPTQ 4-bit, group size 128"},
    {"AWQ-4bit", true, GS_WF_AWQ, 128, "AWQ 4-bit, group size 128"},
    {"AWQ", true, GS_WF_AWQ, 128, "AWQ 4-bit, group size 128"},
    {"int4-AutoRound", true, GS_WF_GPTQ, 128, "AutoRound 4-bit in GPTQ format, group size 128"},
    {"W4A16-G128", true, GS_WF_AWQ, 128, "4-bit int weights in groups of 128"},
    {"W4A16", true, GS_WF_AWQ, 128, "4-bit int weights in groups of 128"},
    {"W8A8", true, GS_WF_INT8, 0, "8-bit int weights with per-channel scales"},
    {"W8A16", true, GS_WF_INT8, 0, "8-bit int weights with per-channel scales"},
    {"NVFP4", true, GS_WF_NVFP4, 16,
     "NVFP4 (e2m1, an fp8 scale per 16) on every quantizable layer; a release's "
     "exclude_modules may keep attention in 16 bits"},
    {"FP4", false, GS_WF_BF16, 0,
     "4-bit float, which gpusizer does not size from a name; weights sized in bf16"},
    {"MXFP4", false, GS_WF_BF16, 0,
     "MXFP4, which gpusizer does not size from a name; weights sized in bf16"},
    {"GGUF", false, GS_WF_BF16, 0,
     "GGUF files, one per quantization; weights sized in bf16 (name the file's format in "
     "precision, e.g. q4_k_m)"},
};

/* Publishers whose "-FP8" repositories hold 128x128 block-scaled weights
 * (quant_method fp8 with weight_block_size [128, 128]): Qwen's own, and
 * unsloth's copies of them. */
static bool fp8_is_block(const char *org, size_t org_len)
{
    return (org_len == 4 && strncasecmp(org, "Qwen", 4) == 0) ||
           (org_len == 7 && strncasecmp(org, "unsloth", 7) == 0);
}

/* Whether `name` (n bytes) ends in "-<suffix>" or "_<suffix>", any case. */
static bool ends_with_suffix(const char *name, size_t n, const char *suffix)
{
    const size_t k = strlen(suffix);
    if (n <= k + 1)
        return false;
    const char sep = name[n - k - 1];
    return (sep == '-' || sep == '_') && strncasecmp(name + n - k, suffix, k) == 0;
}

/* Strips a quantization suffix from `stem` (in place) and says what it means. */
static void strip_quant_suffix(char *stem, const char *org, size_t org_len,
                               struct catalog_name_quant *q)
{
    const size_t n = strlen(stem);
    for (size_t i = 0; i < sizeof(quant_suffixes) / sizeof(quant_suffixes[0]); i++) {
        const struct quant_suffix *s = &quant_suffixes[i];
        if (!ends_with_suffix(stem, n, s->suffix))
            continue;
        const size_t k = strlen(s->suffix);
        q->stated = true;
        q->sized = s->sized;
        q->format = (uint8_t)s->format;
        q->group_size = s->group_size;
        snprintf(q->suffix, sizeof(q->suffix), "%s", stem + n - k);
        snprintf(q->detail, sizeof(q->detail), "%s", s->meaning);
        if (s->format == GS_WF_FP8 && strcasecmp(s->suffix, "FP8") == 0 &&
            fp8_is_block(org, org_len)) {
            q->format = GS_WF_FP8_BLOCK;
            snprintf(q->detail, sizeof(q->detail), "fp8 e4m3 weights with 128x128 block scales");
        }
        stem[n - k - 1] = '\0';
        return;
    }
}

/* A release date at the end of a name: "-2507" (Qwen3 2507), "-0324"
 * (DeepSeek-V3-0324), four digits. Stripped into `date` when present. */
static bool strip_date(char *stem, char *date, size_t size)
{
    const size_t n = strlen(stem);
    if (n < 6 || (stem[n - 5] != '-' && stem[n - 5] != '_') || !all_digits(stem + n - 4, 4))
        return false;
    snprintf(date, size, "%s", stem + n - 4);
    stem[n - 5] = '\0';
    return true;
}

/* The part of a repository id after its organisation. */
static const char *repo_name(const char *id)
{
    const char *slash = strrchr(id, '/');
    return slash != NULL ? slash + 1 : id;
}

/* The one model with an alias or hf_id whose repository name is `stem`
 * (a re-publisher's copy: "RedHatAI/Meta-Llama-3.1-8B-Instruct" is
 * "meta-llama/Meta-Llama-3.1-8B-Instruct"), else NULL. */
static const struct catalog_model *by_repo_name(const struct catalog_snapshot *s, const char *stem)
{
    const struct catalog_model *found = NULL;
    for (size_t i = 0; i < s->model_count; i++) {
        const struct catalog_model *m = &s->models[i];
        bool hit = m->hf_id != NULL && strcasecmp(repo_name(m->hf_id), stem) == 0;
        for (size_t j = 0; j < m->alias_count && !hit; j++)
            hit = strcasecmp(repo_name(m->aliases[j]), stem) == 0;
        if (hit && found != NULL && found != m)
            return NULL; /* two models answer: not this rule's to choose */
        if (hit)
            found = m;
    }
    return found;
}

/* The model `org`/`stem` names: its id or alias with or without the
 * organisation, the repository name of an alias, then the tokens. */
static const struct catalog_model *find_stem(const struct catalog_snapshot *s, const char *org,
                                             size_t org_len, const char *stem)
{
    char full[256];
    const struct catalog_model *m = NULL;
    const size_t stem_len = strlen(stem);
    if (org_len > 0 && org_len + stem_len + 2 <= sizeof(full)) {
        /* "org/stem", the room checked above (snprintf's truncation warning cannot see it) */
        memcpy(full, org, org_len);
        full[org_len] = '/';
        memcpy(full + org_len + 1, stem, stem_len + 1);
        m = catalog_snapshot_model(s, full);
    }
    if (m == NULL)
        m = catalog_snapshot_model(s, stem);
    if (m == NULL)
        m = by_repo_name(s, stem);
    if (m == NULL)
        m = catalog_snapshot_model_resolve(s, stem);
    return m;
}

struct catalog_model_lookup catalog_snapshot_model_lookup(const struct catalog_snapshot *snapshot,
                                                          const char *typed)
{
    struct catalog_model_lookup out;
    memset(&out, 0, sizeof(out));
    const char *name = repo_name(typed);
    const size_t org_len = name > typed ? (size_t)(name - typed - 1) : 0;
    char stem[192];
    if (strlen(name) >= sizeof(stem) || !printable_ascii(typed)) {
        out.model = catalog_snapshot_model(snapshot, typed);
        return out;
    }
    snprintf(stem, sizeof(stem), "%s", name);
    strip_quant_suffix(stem, typed, org_len, &out.quant);
    out.model = catalog_snapshot_model(snapshot, typed);
    if (out.model != NULL) {
        /* the catalog's own id is that checkpoint; an alias may name a quantized copy of it */
        if (strcasecmp(out.model->id, typed) == 0)
            memset(&out.quant, 0, sizeof(out.quant));
        return out;
    }
    out.model = find_stem(snapshot, typed, org_len, stem);
    if (out.model == NULL && strip_date(stem, out.date, sizeof(out.date)))
        out.model = find_stem(snapshot, typed, org_len, stem);
    if (out.model == NULL) {
        memset(&out, 0, sizeof(out));
        return out;
    }
    out.resolved = true;
    return out;
}
