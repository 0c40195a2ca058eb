/* csv.c - RFC 4180 parsing and writing (see csv.h). */
#include "formats/csv.h"

#include <stdlib.h>
#include <string.h>

/* Growable byte buffer for one field while parsing. */
struct field {
    char *text;
    size_t length, capacity;
};

static bool field_push(struct field *f, char c)
{
    if (f->length + 1 >= f->capacity) {
        size_t next = f->capacity ? f->capacity * 2 : 64;
        char *grown = realloc(f->text, next);
        if (grown == NULL)
            return false;
        f->text = grown;
        f->capacity = next;
    }
    f->text[f->length++] = c;
    f->text[f->length] = '\0';
    return true;
}

struct parser {
    char **cells;
    size_t *lengths;        /* of each cell, in bytes (a NUL byte included) */
    size_t count, capacity; /* cells */
    size_t *line;
    size_t rows, line_capacity;
    size_t columns;         /* 0 until the header ends */
    size_t in_row;          /* fields of the current record so far */
};

static bool push_cell(struct parser *p, struct field *f)
{
    if (p->count == p->capacity) {
        size_t next = p->capacity ? p->capacity * 2 : 256;
        char **grown = realloc(p->cells, next * sizeof(*grown));
        if (grown == NULL)
            return false;
        p->cells = grown;
        size_t *lengths = realloc(p->lengths, next * sizeof(*lengths));
        if (lengths == NULL)
            return false;
        p->lengths = lengths;
        p->capacity = next;
    }
    char *copy = f->text != NULL ? f->text : strdup("");
    if (copy == NULL)
        return false;
    p->lengths[p->count] = f->text != NULL ? f->length : 0;
    p->cells[p->count++] = copy;
    f->text = NULL;
    f->length = f->capacity = 0;
    p->in_row++;
    return true;
}

static bool start_row(struct parser *p, size_t line)
{
    if (p->rows == p->line_capacity) {
        size_t next = p->line_capacity ? p->line_capacity * 2 : 64;
        size_t *grown = realloc(p->line, next * sizeof(*grown));
        if (grown == NULL)
            return false;
        p->line = grown;
        p->line_capacity = next;
    }
    p->line[p->rows++] = line;
    p->in_row = 0;
    return true;
}

static void parser_free(struct parser *p)
{
    for (size_t i = 0; i < p->count; i++)
        free(p->cells[i]);
    free(p->cells);
    free(p->lengths);
    free(p->line);
}

/* Ends a record: the header fixes the width, later records must match it. */
static enum gs_status end_row(struct parser *p, size_t line, struct gs_error *err)
{
    if (p->columns == 0) {
        if (p->in_row > CSV_MAX_COLUMNS)
            return gs_error_add(err, GS_ERR_INVALID, "", "line %zu: more than %d columns", line,
                                CSV_MAX_COLUMNS);
        p->columns = p->in_row;
        return GS_OK;
    }
    if (p->in_row != p->columns)
        return gs_error_add(err, GS_ERR_INVALID, "", "line %zu: %zu fields where the header has %zu",
                            line, p->in_row, p->columns);
    if (p->rows > CSV_MAX_ROWS + 1)
        return gs_error_add(err, GS_ERR_TOO_LARGE, "", "more than %d records", CSV_MAX_ROWS);
    return GS_OK;
}

enum gs_status csv_parse(const char *data, size_t length, struct csv_table *out,
                         struct gs_error *err)
{
    struct parser p;
    struct field f = {NULL, 0, 0};
    memset(&p, 0, sizeof(p));
    memset(out, 0, sizeof(*out));
    size_t i = 0, line = 1, row_line = 1;
    enum gs_status st = GS_OK;
    bool oom = false;
    if (length >= 3 && memcmp(data, "\xEF\xBB\xBF", 3) == 0)
        i = 3;
    if (i == length)
        return gs_error_add(err, GS_ERR_INVALID, "", "the CSV is empty; it needs a header line");
    if (!start_row(&p, 1))
        oom = true;
    while (!oom && st == GS_OK && i < length) {
        char c = data[i];
        if (c == '"' && f.length == 0 && f.text == NULL) {
            /* a quoted field: up to the closing quote, "" is a quote */
            size_t start_line = line;
            i++;
            if (!field_push(&f, '\0')) { /* an empty quoted field is still a field */
                oom = true;
                break;
            }
            f.length = 0;
            for (;;) {
                if (i == length) {
                    st = gs_error_add(err, GS_ERR_INVALID, "",
                                      "line %zu: a quoted field is never closed", start_line);
                    break;
                }
                if (data[i] == '"') {
                    if (i + 1 < length && data[i + 1] == '"') {
                        oom = !field_push(&f, '"');
                        i += 2;
                        continue;
                    }
                    i++;
                    break;
                }
                if (data[i] == '\n')
                    line++;
                oom = !field_push(&f, data[i++]);
                if (oom)
                    break;
            }
            if (st != GS_OK || oom)
                break;
            if (i < length && data[i] != ',' && data[i] != '\n' && data[i] != '\r')
                st = gs_error_add(err, GS_ERR_INVALID, "",
                                  "line %zu: text after a quoted field's closing quote", line);
            continue;
        }
        if (c == ',') {
            oom = !push_cell(&p, &f);
            i++;
        } else if (c == '\r' || c == '\n') {
            if (c == '\r' && (i + 1 >= length || data[i + 1] != '\n')) {
                st = gs_error_add(err, GS_ERR_INVALID, "", "line %zu: a carriage return alone",
                                  line);
                break;
            }
            i += c == '\r' ? 2 : 1;
            oom = !push_cell(&p, &f);
            if (!oom)
                st = end_row(&p, row_line, err);
            line++;
            row_line = line;
            if (!oom && st == GS_OK && i < length)
                oom = !start_row(&p, line);
        } else if (c == '"') {
            st = gs_error_add(err, GS_ERR_INVALID, "",
                              "line %zu: a quote inside an unquoted field (quote the whole field "
                              "and double the quote)",
                              line);
        } else {
            oom = !field_push(&f, c);
            i++;
        }
    }
    /* the last record when the data does not end with a line break */
    if (!oom && st == GS_OK && length > 0 && data[length - 1] != '\n') {
        oom = !push_cell(&p, &f);
        if (!oom)
            st = end_row(&p, row_line, err);
    }
    free(f.text);
    if (oom)
        st = gs_error_add(err, GS_ERR_NOMEM, "", "out of memory reading the CSV");
    if (st != GS_OK) {
        parser_free(&p);
        return st;
    }
    out->columns = p.columns;
    out->rows = p.columns ? p.count / p.columns : 0;
    out->cells = p.cells;
    out->lengths = p.lengths;
    out->line = p.line;
    return GS_OK;
}

void csv_table_free(struct csv_table *t)
{
    if (t == NULL)
        return;
    for (size_t i = 0; i < t->rows * t->columns; i++)
        free(t->cells[i]);
    free(t->cells);
    free(t->lengths);
    free(t->line);
    memset(t, 0, sizeof(*t));
}

bool csv_cell_has_nul(const struct csv_table *t, size_t index)
{
    return strlen(t->cells[index]) != t->lengths[index];
}

/* Writes `text` quoted, quotes doubled, after `prefix`. */
static void put_quoted(struct buf *w, const char *prefix, const char *text)
{
    buf_put(w, "\"", 1);
    buf_put(w, prefix, strlen(prefix));
    for (const char *p = text; *p != '\0'; p++) {
        if (*p == '"')
            buf_put(w, "\"\"", 2);
        else
            buf_put(w, p, 1);
    }
    buf_put(w, "\"", 1);
}

void csv_write_field(struct buf *w, const char *text, bool last)
{
    if (text == NULL)
        text = "";
    if (strpbrk(text, ",\"\r\n") == NULL)
        buf_put(w, text, strlen(text));
    else
        put_quoted(w, "", text);
    buf_put(w, last ? "\r\n" : ",", last ? 2 : 1);
}

/* Whether a spreadsheet would read `text` as a formula once any single
 * quotes in front of it are gone (OWASP: = + - @ TAB CR). Counting the
 * quotes makes the escape reversible: '=x is written ''=x. */
static bool formula_after_quotes(const char *text)
{
    while (*text == '\'')
        text++;
    return *text != '\0' && strchr("=+-@\t\r", *text) != NULL;
}

void csv_write_text(struct buf *w, const char *text, bool last)
{
    if (text == NULL || !formula_after_quotes(text)) {
        csv_write_field(w, text, last);
        return;
    }
    put_quoted(w, "'", text);
    buf_put(w, last ? "\r\n" : ",", last ? 2 : 1);
}

const char *csv_text_value(const char *cell)
{
    return cell[0] == '\'' && formula_after_quotes(cell) ? cell + 1 : cell;
}
