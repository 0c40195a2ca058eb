/*
 * csv.h - RFC 4180 CSV: parsing a whole document into cells and writing
 * fields, for the catalog's bulk exchange (GET /v1/gpus?format=csv,
 * POST /v1/gpus:bulk).
 *
 * Records end with CRLF or LF; fields are separated by commas; a field that
 * holds a comma, a quote or a line break is quoted, with quotes doubled. A
 * leading UTF-8 byte-order mark and one final line break are accepted. Every
 * record must have as many fields as the first (the header).
 *
 * Formula injection (OWASP "CSV injection"): a spreadsheet runs a cell that
 * starts with = + - @ TAB or CR. csv_write_text neutralises such text by
 * writing it as a quoted cell that starts with a single quote ('=1+2 becomes
 * "'=1+2"); csv_text_value undoes that on import, so text exported and
 * imported again is unchanged. Numbers are written with csv_write_field and
 * never prefixed (a negative number is a number, not a formula).
 */
#ifndef GS_CSV_H
#define GS_CSV_H

#include "formats/buf.h"
#include "gs/status.h"

#include <stdbool.h>
#include <stddef.h>

#define CSV_MAX_COLUMNS 64
#define CSV_MAX_ROWS    100000

/* Row 0 is the header. cells[r * columns + c] are NUL-terminated copies and
 * lengths[r * columns + c] their lengths in bytes: a cell that held a NUL
 * byte is longer than its strlen() (see csv_cell_has_nul). line[r] is the
 * 1-based line where record r starts. Owns everything. */
struct csv_table {
    size_t columns;
    size_t rows;
    char **cells;
    size_t *lengths;
    size_t *line;
};

/* Parses `length` bytes. On error nothing is allocated in `out` and `err`
 * says which line is wrong. */
enum gs_status csv_parse(const char *data, size_t length, struct csv_table *out,
                         struct gs_error *err);

void csv_table_free(struct csv_table *table);

/* Whether cell `index` (row * columns + column) of `table` holds a NUL byte,
 * which its NUL-terminated copy would silently cut short. */
bool csv_cell_has_nul(const struct csv_table *table, size_t index);

/* Writes one field (NULL = empty) to `out` as it is, quoting it when needed,
 * followed by a comma or, when `last`, by CRLF. For numbers, booleans and
 * header names; text from users goes through csv_write_text. */
void csv_write_field(struct buf *out, const char *text, bool last);

/* Writes one text field like csv_write_field, but neutralises a formula:
 * text whose first character after any single quotes is = + - @ TAB or CR
 * is written quoted with one more single quote in front ("'=1+2", "''=1+2"
 * for the text '=1+2), so a spreadsheet shows it as text. */
void csv_write_text(struct buf *out, const char *text, bool last);

/* The text a cell holds, undoing csv_write_text: a cell that starts with a
 * single quote followed (after any further quotes) by = + - @ TAB or CR
 * loses its first quote; any other cell is returned as it is. Returns a
 * pointer into `cell` (no allocation). */
const char *csv_text_value(const char *cell);

#endif
