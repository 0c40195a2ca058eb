/*
 * names.c - finding catalog entries by the names people type (see catalog.h):
 * GPUs as nvidia-smi, torch.cuda.get_device_name() and engine logs print them,
 * and models by the Hugging Face id of a variant, a re-published copy or a
 * quantized repository of a catalog model.
 */
#include "catalog.h"
#include "catalog_int.h"

#include "gs/precision.h"

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

/* ------------------------------------------------------------------ GPUs */

/* A GPU name with its brand words dropped, split into the model it names and
 * the qualifiers drivers append: "NVIDIA H100 80GB HBM3" is model "h100",
 * 80 GB, HBM3; "NVIDIA A100-SXM4-80GB" is "a100", SXM, 80 GB; "NVIDIA GeForce
 * RTX 5090" is "rtx5090". */
struct gpu_name {
    char base[64];       /* the model words run together, lower case */
    unsigned memory_gb;  /* 0: no memory given */
    char form[8];        /* "sxm", "pcie" or "" */
    char memory_type[8]; /* "hbm3", "gddr6x"... or "" */
};

/* Vendor and brand words: nvidia-smi prints "NVIDIA GeForce RTX 3090" and
 * "Tesla T4", ROCm "AMD Instinct MI300X"; the catalog names the part without
 * them. */
static bool is_brand_word(const char *w)
{
    static const char *const words[] = {"nvidia", "amd",      "intel",  "geforce",
                                        "tesla",  "instinct", "habana", NULL};
    for (const char *const *b = words; *b != NULL; b++)
        if (strcmp(w, *b) == 0)
            return true;
    return false;
}

static bool all_digits(const char *w, size_t n)
{
    if (n == 0)
        return false;
    for (size_t i = 0; i < n; i++)
        if (!isdigit((unsigned char)w[i]))
            return false;
    return true;
}

/* "80gb", "144g" -> 80, 144; 0 when the word is no memory size. */
static unsigned memory_word(const char *w)
{
    size_t digits = strspn(w, "0123456789");
    if (digits == 0 || digits > 4 ||
        (strcmp(w + digits, "gb") != 0 && strcmp(w + digits, "g") != 0))
        return 0;
    return (unsigned)strtoul(w, NULL, 10);
}

/* One word of a GPU name into `out`. `pending` is the length of a number the
 * previous word appended to the base, which a following "GB" makes a memory
 * size ("80 GB"). */
static void gpu_word(const char *w, struct gpu_name *out, size_t *pending)
{
    const size_t n = strlen(w);
    const size_t base_len = strlen(out->base);
    if (n == 0 || is_brand_word(w)) {
        *pending = 0;
        return;
    }
    if (strcmp(w, "gb") == 0 && *pending > 0) {
        out->memory_gb = (unsigned)strtoul(out->base + base_len - *pending, NULL, 10);
        out->base[base_len - *pending] = '\0';
        *pending = 0;
        return;
    }
    *pending = 0;
    if (memory_word(w) != 0) {
        out->memory_gb = memory_word(w);
    } else if (strncmp(w, "sxm", 3) == 0 && (n == 3 || all_digits(w + 3, n - 3))) {
        snprintf(out->form, sizeof(out->form), "sxm");
    } else if (strcmp(w, "pcie") == 0) {
        snprintf(out->form, sizeof(out->form), "pcie");
    } else if (strncmp(w, "hbm", 3) == 0 || strncmp(w, "gddr", 4) == 0 ||
               strncmp(w, "lpddr", 5) == 0) {
        snprintf(out->memory_type, sizeof(out->memory_type), "%s", w);
    } else if (base_len + n < sizeof(out->base)) {
        memcpy(out->base + base_len, w, n + 1);
        *pending = all_digits(w, n) ? n : 0;
    }
}

/* Splits `text` at anything but letters and digits, leaving out what is in
 * parentheses (the catalog's "NVIDIA A10G (AWS G5)"). */
static void parse_gpu_name(const char *text, struct gpu_name *out)
{
    memset(out, 0, sizeof(*out));
    char word[32];
    size_t n = 0, pending = 0;
    int depth = 0;
    for (const char *p = text;; p++) {
        const unsigned char c = (unsigned char)*p;
        if (c == '(')
            depth++;
        const bool in_word = c != '\0' && depth == 0 && isalnum(c);
        if (in_word && n + 1 < sizeof(word)) {
            word[n++] = (char)tolower(c);
        } else if (!in_word && n > 0) {
            word[n] = '\0';
            gpu_word(word, out, &pending);
            n = 0;
        }
        if (c == ')' && depth > 0)
            depth--;
        if (c == '\0')
            break;
    }
}

/* The first word of a catalog text column, lower case ("PCIe (dual-slot)" ->
 * "pcie", "HBM3e" -> "hbm3e"). */
static void first_word(const char *text, char *out, size_t size)
{
    size_t n = 0;
    for (; text != NULL && isalnum((unsigned char)text[n]) && n + 1 < size; n++)
        out[n] = (char)tolower((unsigned char)text[n]);
    out[n] = '\0';
}

/* How a catalog GPU answers a typed name: whether it fits, and whether one of
 * its own names is the bare model ("a100", "h100": the catalog's default for
 * a name that gives no memory or form factor). */
struct gpu_fit {
    bool fits;
    bool is_default;
};

/* A catalog GPU's names parsed, with the row's own qualifiers. */
struct parsed_gpu {
    size_t first, count;  /* its names (id, name, aliases) in catalog_gpu_names.names */
    unsigned marketed_gb; /* memory_bytes in decimal GB, rounded */
    char form[16];        /* first_word(form_factor), "sxm5" cut to "sxm" */
    char memory_type[16]; /* first_word(memory_type) */
};

/* Every GPU of one snapshot with its names parsed: the first lookup builds it and the
 * snapshot keeps it, since parsing each part's names on every request was a fifth of the
 * server's CPU under the mixed load (tests/http/test_load.c). */
struct catalog_gpu_names {
    struct parsed_gpu *gpus; /* one per snapshot GPU, in its order */
    struct gpu_name *names;
};

static struct catalog_gpu_names *gpu_names_build(const struct catalog_snapshot *s)
{
    size_t total = 0;
    for (size_t i = 0; i < s->gpu_count; i++)
        total += s->gpus[i].alias_count + 2;
    struct catalog_gpu_names *n = malloc(sizeof(*n) + s->gpu_count * sizeof(*n->gpus) +
                                         total * sizeof(*n->names));
    if (n == NULL)
        return NULL;
    n->gpus = (struct parsed_gpu *)(n + 1);
    n->names = (struct gpu_name *)(n->gpus + s->gpu_count);
    size_t at = 0;
    for (size_t i = 0; i < s->gpu_count; i++) {
        const struct catalog_gpu *g = &s->gpus[i];
        struct parsed_gpu *p = &n->gpus[i];
        p->first = at;
        p->count = g->alias_count + 2;
        for (size_t k = 0; k < p->count; k++) {
            const char *text = k == 0 ? g->id : k == 1 ? g->name : g->aliases[k - 2];
            parse_gpu_name(text != NULL ? text : "", &n->names[at++]);
        }
        first_word(g->form_factor, p->form, sizeof(p->form));
        first_word(g->memory_type, p->memory_type, sizeof(p->memory_type));
        if (strncmp(p->form, "sxm", 3) == 0)
            p->form[3] = '\0';
        p->marketed_gb = (unsigned)((g->memory_bytes + 500000000ULL) / 1000000000ULL);
    }
    return n;
}

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
    free(built);
    return n;
}

void catalog_gpu_names_free(struct catalog_gpu_names *names)
{
    free(names);
}

static bool fits_qualifiers(const struct gpu_name *typed, const struct gpu_name *name,
                            const struct parsed_gpu *g)
{
    if (typed->memory_gb != 0 && typed->memory_gb != g->marketed_gb &&
        typed->memory_gb != name->memory_gb)
        return false;
    if (typed->form[0] != '\0' && g->form[0] != '\0' && strcmp(typed->form, g->form) != 0 &&
        strcmp(typed->form, name->form) != 0)
        return false;
    if (typed->memory_type[0] != '\0' && g->memory_type[0] != '\0' &&
        strcmp(typed->memory_type, g->memory_type) != 0)
        return false;
    return true;
}

static struct gpu_fit gpu_fits(const struct gpu_name *typed, const struct catalog_gpu_names *all,
                               const struct parsed_gpu *g)
{
    struct gpu_fit fit = {false, false};
    for (size_t i = 0; i < g->count; i++) {
        const struct gpu_name *name = &all->names[g->first + i];
        if (name->base[0] == '\0' || strcmp(name->base, typed->base) != 0)
            continue;
        if (!fits_qualifiers(typed, name, g))
            continue;
        fit.fits = true;
        fit.is_default |=
            name->memory_gb == 0 && name->form[0] == '\0' && name->memory_type[0] == '\0';
    }
    return fit;
}

/* The catalog GPUs the typed name fits (the first few kept in `fitting`) and
 * the one it names: the only one, else the default among them. */
static void gpus_fitting(const struct catalog_snapshot *s, const char *typed,
                         struct catalog_gpu_lookup *out)
{
    struct gpu_name t;
    parse_gpu_name(typed, &t);
    const struct catalog_gpu_names *all = t.base[0] != '\0' ? gpu_names(s) : NULL;
    if (all == NULL)
        return;
    const struct catalog_gpu *fallback = NULL;
    size_t defaults = 0;
    for (size_t i = 0; i < s->gpu_count; i++) {
        const struct gpu_fit fit = gpu_fits(&t, all, &all->gpus[i]);
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
 * quantization_config their repositories carry (server/models/reader.c reads
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
