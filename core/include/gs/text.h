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

#endif
