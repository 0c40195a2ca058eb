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
