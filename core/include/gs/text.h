/*
 * text.h - small string helpers shared by every layer: the edit distance
 * behind "did you mean" hints.
 */
#ifndef GS_TEXT_H
#define GS_TEXT_H

#include <stddef.h>

/* Longest string gs_edit_distance compares; longer inputs are never "close". */
#define GS_TEXT_DISTANCE_MAX_LEN 64

/* Levenshtein distance between `a` and `b`, ignoring ASCII case. Returns
 * (size_t)-1 when either string is longer than GS_TEXT_DISTANCE_MAX_LEN. */
size_t gs_edit_distance(const char *a, const char *b);

/* true when `candidate` is a plausible misspelling of `typed`: an edit
 * distance of at most 1 for short words, up to two fifths of the length for
 * longer ones ("params" -> "parameters"), or one being a prefix of the other. */
int gs_text_is_close(const char *typed, const char *candidate, size_t *distance);

/* How a typed model or GPU name compares with a catalog name, token by
 * token: both are lower-cased, a hub organisation ("meta-llama/") dropped,
 * split at anything but letters, digits and '.', and where a word of three
 * letters or more meets its version ("llama3.1" -> llama 3.1; "h100",
 * "mi300x" and "r1" stay whole); variant words (instruct, chat, it, base,
 * hf) are ignored. */
struct gs_token_match {
    int valid;      /* a name token matches (not only a number) and every token with a digit
                       in `typed` (a size, a version, a memory) is in `candidate` */
    int exact;      /* the same tokens on both sides */
    int covered;    /* every token of `candidate` is in `typed` ("h100" in "H100 80GB") */
    int score;      /* 2 x shared tokens - tokens only in `typed` - tokens only in `candidate` */
    size_t extra;   /* tokens only in `candidate` */
};

struct gs_token_match gs_text_token_match(const char *typed, const char *candidate);

#endif
