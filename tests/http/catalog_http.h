/*
 * catalog_http.h - what the two halves of test_catalog_http share: the three servers
 * on one catalog (writers A and B with the API key, a read-only one without), the
 * request helpers, and the cases of catalog_csv.c the runner lists.
 */
#ifndef GS_TEST_CATALOG_HTTP_H
#define GS_TEST_CATALOG_HTTP_H

#include "http_client.h"
#include "test_server.h"

#include <jansson.h>

#define KEY "test-key-0123456789"
#define AUTH "Authorization: Bearer " KEY

#define reply http_reply

extern struct test_server writer_a, writer_b, read_only;

/* One request to `s`; up to two extra "Name: value" headers. */
struct reply call(const struct test_server *s, const char *method, const char *path,
                  const char *type, const char *body, const char *h1, const char *h2);
/* The reply's body as JSON (new reference); fails the test when it is not JSON. */
json_t *parse(const struct reply *r);
/* Fails the test unless the reply has `status`. */
void expect_status(struct reply *r, long status);
/* GET `path` from `s`: 200 and a JSON body, returned (new reference). */
json_t *get_json(const struct test_server *s, const char *path);
/* The CSV line of GPU `id` in an export, without its line end (a new string), or NULL. */
char *csv_line(const char *csv, const char *id);

/* catalog_csv.c */
void test_noop_writes_keep_etags(void **state);
void test_csv_export_is_complete(void **state);
void test_csv_formula_injection(void **state);
void test_price_validation(void **state);
void test_price_round_trip(void **state);
void test_csv_cells(void **state);
void test_names_people_type(void **state);

#endif
