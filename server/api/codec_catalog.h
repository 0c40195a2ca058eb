/*
 * codec_catalog.h - catalog entries as the API writes them: JSON (and, for
 * GPUs, CSV) bodies -> validated struct catalog_model / catalog_gpu rows,
 * and GPU rows -> CSV.
 *
 * Validation collects every problem with a JSON Pointer relative to the
 * entry ("/memory_bytes"); a bulk caller prefixes the row ("/3"). The rules:
 * ids are lower-case slugs; every number has its source beside it (the
 * field named in the error); numbers are in range; dates are real calendar
 * dates, YYYY-MM-DD (codec_valid_date); text has no control characters
 * (codec_read_text); aliases are unique and differ from the id. Every write
 * path - PUT, PATCH, POST, bulk JSON and CSV, the price history - applies
 * these same rules, so whatever the catalog stores can be written back. A
 * model's config must be one gpusizer can read, its family is the config's
 * model_type, and a given parameter count must equal the config's exact
 * count.
 *
 * Read-only fields of the representation (etag, revision, created_at,
 * updated_at, sources, architecture) are accepted and ignored, so a client
 * can PUT back what it got.
 */
#ifndef GS_CODEC_CATALOG_H
#define GS_CODEC_CATALOG_H

#include "catalog.h"
#include "formats/csv.h"
#include "gs/status.h"

#include "gs/arch.h"

#include <jansson.h>
#include <stdbool.h>

/* A decoded model: `row` borrows strings from `doc` and owns `config_json`
 * and the alias array. Free with codec_model_row_free. */
struct codec_model_row {
    struct catalog_model row;
    json_t *doc;
    char *config_json;
    char family[GS_MODEL_TYPE_MAX]; /* the config's model_type; row.family points here */
};

/* Decodes a model body for `id` (the id from the path, already resolved to
 * the canonical id when the entry exists). `body` is borrowed (a reference
 * is kept in out->doc). */
enum gs_status codec_decode_model_row(const json_t *body, const char *id,
                                      struct codec_model_row *out, struct gs_error *err);
void codec_model_row_free(struct codec_model_row *row);

/* A decoded GPU: strings borrowed from `doc`, alias array owned. */
struct codec_gpu_row {
    struct catalog_gpu row;
    json_t *doc;
};

enum gs_status codec_decode_gpu_row(const json_t *body, const char *id, struct codec_gpu_row *out,
                                    struct gs_error *err);
void codec_gpu_row_free(struct codec_gpu_row *row);

/* The writable fields of a GPU, in CSV column order (NULL-terminated). */
extern const char *const codec_gpu_columns[];

/* One CSV record as the JSON object a client would have sent: empty cells
 * are null, "aliases" splits on ';', text cells lose the quote that
 * neutralised a formula on export (csv_text_value), and numeric cells must
 * be JSON numbers (optional '-', no leading zeros, optional fraction and
 * exponent: no '+', spaces, hex, inf or nan) and are read as JSON reads
 * them. Column names must be writable GPU fields. A cell holding a NUL byte
 * or bytes that are not UTF-8 is refused. Errors point at "/<column>" (the
 * header's at ""). New reference, or NULL with `err`. */
json_t *codec_gpu_csv_record(const struct csv_table *table, size_t row, struct gs_error *err);

/* Appends the header and one record per GPU. Text cells (names, sources,
 * dates, aliases) go through csv_write_text, which neutralises a formula;
 * numbers and booleans are written as they are. */
void codec_gpu_csv_header(struct buf *w);
void codec_gpu_csv_row(struct buf *w, const struct catalog_gpu *gpu);

/* A GPU or model's representation (as served) with a JSON merge patch (RFC
 * 7396) applied: a new reference, or NULL (with `err`) when the patch is not
 * an object. */
json_t *codec_merge_patch(const json_t *target, const json_t *patch, struct gs_error *err);

/* Whether `id` is a valid catalog id (lower-case slug, 1-64 characters). */
bool codec_valid_id(const char *id);

#define CODEC_TEXT_MAX   200  /* names, vendors, short labels, in bytes */
#define CODEC_SOURCE_MAX 2000 /* citations (every *_source, a price's source) */

/* The catalog's one text rule: reads `v` (absent or null = no text) as a
 * string of at most `max` bytes with no control characters (U+0000-U+001F,
 * U+007F). *out borrows the string, NULL when absent or empty. false with an
 * error at `where` when it is required and absent or empty, not a string,
 * too long, or holds a control character. */
bool codec_read_text(const json_t *v, const char *where, size_t max, bool required,
                     const char **out, struct gs_error *err);

/* The catalog's one date rule: `d` is a real calendar date YYYY-MM-DD
 * (Gregorian leap years, exactly ten characters, digits only) from
 * 1990-01-01 to 2200-12-31. */
bool codec_valid_date(const char *d);

/* Reads `v` (absent or null = no date, *out NULL) as a date string passing
 * codec_valid_date; *out borrows it. false with an error at `where`. */
bool codec_read_date(const json_t *v, const char *where, const char **out, struct gs_error *err);

/* A catalog GPU as the /v1/gpus items (new reference, NULL on OOM). */
json_t *codec_encode_gpu(const struct catalog_gpu *gpu);

#endif
