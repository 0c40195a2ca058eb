/*
 * gpu_names.c - parsing GPU names and a snapshot's index of them (see gpu_names.h): the
 * name rule db/src/names.c looks GPUs up by.
 */
#include "gpu_names.h"

#include "catalog.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
void gpu_names_parse(const char *text, struct gpu_name *out)
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

struct catalog_gpu_names *gpu_names_build(const struct catalog_snapshot *s)
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
            gpu_names_parse(text != NULL ? text : "", &n->names[at++]);
        }
        first_word(g->form_factor, p->form, sizeof(p->form));
        first_word(g->memory_type, p->memory_type, sizeof(p->memory_type));
        if (strncmp(p->form, "sxm", 3) == 0)
            p->form[3] = '\0';
        p->marketed_gb = (unsigned)((g->memory_bytes + 500000000ULL) / 1000000000ULL);
    }
    return n;
}

void gpu_names_free(struct catalog_gpu_names *names)
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

struct gpu_fit gpu_names_fit(const struct catalog_gpu_names *all, size_t gpu,
                             const struct gpu_name *typed)
{
    const struct parsed_gpu *g = &all->gpus[gpu];
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
