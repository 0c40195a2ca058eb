/* text.c - edit distance for suggestions (see gs/text.h). */
#include "gs/text.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

size_t gs_edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > GS_TEXT_DISTANCE_MAX_LEN || lb > GS_TEXT_DISTANCE_MAX_LEN)
        return (size_t)-1;
    size_t row[GS_TEXT_DISTANCE_MAX_LEN + 1];
    for (size_t j = 0; j <= lb; j++)
        row[j] = j;
    for (size_t i = 1; i <= la; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t up = row[j];
            size_t cost = tolower((unsigned char)a[i - 1]) == tolower((unsigned char)b[j - 1]) ? 0 : 1;
            size_t best = diag + cost;
            if (up + 1 < best)
                best = up + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[lb];
}

int gs_text_is_close(const char *typed, const char *candidate, size_t *distance)
{
    size_t lt = strlen(typed), lc = strlen(candidate);
    size_t d = gs_edit_distance(typed, candidate);
    if (d == (size_t)-1)
        return 0;
    if (distance != NULL)
        *distance = d;
    size_t shorter = lt < lc ? lt : lc;
    if (shorter >= 3 && strncasecmp(typed, candidate, shorter) == 0)
        return 1;
    size_t longest = lt > lc ? lt : lc;
    size_t allowed = longest <= 4 ? 1 : longest * 2 / 5;
    return d <= allowed;
}

#define TOKENS_MAX 16
#define TOKEN_LEN 24

struct tokens {
    size_t n;
    char t[TOKENS_MAX][TOKEN_LEN];
};

static int is_alpha(char c)
{
    return (c >= 'a' && c <= 'z');
}

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* Words that name a checkpoint's variant, not its architecture. */
static int is_variant(const char *t)
{
    static const char *const words[] = {"instruct", "chat", "it", "base", "hf", NULL};
    for (const char *const *w = words; *w != NULL; w++)
        if (strcmp(t, *w) == 0)
            return 1;
    return 0;
}

static void push(struct tokens *out, const char *start, size_t len)
{
    if (len == 0 || out->n >= TOKENS_MAX)
        return;
    if (len >= TOKEN_LEN)
        len = TOKEN_LEN - 1;
    char *t = out->t[out->n];
    memcpy(t, start, len);
    t[len] = '\0';
    while (len > 0 && t[len - 1] == '.') /* "v0.1." -> "v0.1" */
        t[--len] = '\0';
    if (len > 0 && !is_variant(t))
        out->n++;
}

static void tokenize(const char *s, struct tokens *out)
{
    char buf[128];
    size_t n = 0;
    const char *slash = strrchr(s, '/');
    if (slash != NULL)
        s = slash + 1;
    for (; *s && n + 1 < sizeof(buf); s++)
        buf[n++] = (char)tolower((unsigned char)*s);
    buf[n] = '\0';
    out->n = 0;
    size_t start = 0, letters = 0;
    for (size_t i = 0; i <= n; i++) {
        const char c = buf[i];
        const int word = is_alpha(c) || is_digit(c) || c == '.';
        if (!word) {
            push(out, buf + start, i - start);
            start = i + 1;
            letters = 0;
        } else if (i > start && is_alpha(buf[i - 1]) && is_digit(c) && letters > 2) {
            /* a word then its version ("llama3.1", "qwen2.5"); a short prefix is part of the
             * name ("h100", "mi300x", "r1") */
            push(out, buf + start, i - start);
            start = i;
            letters = 0;
        } else if (is_alpha(c) && letters == i - start) {
            letters++;
        }
    }
}

static int has_token(const struct tokens *set, const char *t)
{
    for (size_t i = 0; i < set->n; i++)
        if (strcmp(set->t[i], t) == 0)
            return 1;
    return 0;
}

static int has_digit(const char *t)
{
    for (; *t; t++)
        if (is_digit(*t))
            return 1;
    return 0;
}

struct gs_token_match gs_text_token_match(const char *typed, const char *candidate)
{
    struct gs_token_match m = {0, 0, 0, 0, 0};
    struct tokens q, c;
    tokenize(typed, &q);
    tokenize(candidate, &c);
    size_t shared = 0, shared_words = 0, only_q = 0;
    int numbers_kept = 1;
    for (size_t i = 0; i < q.n; i++) {
        if (has_token(&c, q.t[i])) {
            shared++;
            shared_words += !has_digit(q.t[i]) || !is_digit(q.t[i][0]);
        } else {
            only_q++;
            if (has_digit(q.t[i]))
                numbers_kept = 0;
        }
    }
    for (size_t i = 0; i < c.n; i++)
        if (!has_token(&q, c.t[i]))
            m.extra++;
    m.valid = shared_words > 0 && numbers_kept;
    m.exact = m.valid && only_q == 0 && m.extra == 0;
    m.covered = shared > 0 && m.extra == 0;
    m.score = (int)(2 * shared) - (int)only_q - (int)m.extra;
    return m;
}
