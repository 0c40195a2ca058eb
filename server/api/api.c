/* api.c - response helpers for the plain-data HTTP exchange (see api.h). */
#include "api/api.h"
#include "formats/json_lenient.h"
#include "formats/json_out.h"

#include <stdlib.h>
#include <string.h>

void api_response_init(struct api_response *r)
{
    memset(r, 0, sizeof(*r));
    r->status = 500;
    problem_init(&r->problem);
}

void api_fail(struct api_response *r, enum gs_status status)
{
    problem_from_status(&r->problem, status);
    r->status = r->problem.status;
    free(r->body);
    r->body = NULL;
    r->borrowed = NULL;
}

bool api_json(struct api_response *r, int status, json_t *value)
{
    char *text = value != NULL ? json_out_dumps(value, NULL) : NULL;
    json_decref(value);
    if (text == NULL) {
        api_fail(r, GS_ERR_NOMEM);
        return false;
    }
    free(r->body);
    r->body = text;
    r->borrowed = NULL;
    r->length = strlen(text);
    r->status = status;
    r->content_type = "application/json";
    return true;
}

const char *api_arg(const struct api_request *req, const char *key)
{
    for (size_t i = 0; i < req->arg_count; i++) {
        if (strcmp(req->args[i].key, key) == 0)
            return req->args[i].value;
    }
    return NULL;
}

json_t *api_parse_body(const struct api_request *req, struct api_response *resp)
{
    json_error_t jerr;
    json_t *body = json_load_lenient(req->body != NULL ? req->body : "", req->body_length,
                              JSON_REJECT_DUPLICATES, &jerr);
    if (body == NULL) {
        problem_set(&resp->problem, 400, "malformed-json", "The body is not valid JSON",
                    "line %d, column %d: %s", jerr.line, jerr.column, jerr.text);
        gs_error_add(&resp->problem.errors, GS_ERR_INVALID, "", "%s", jerr.text);
        resp->status = 400;
    }
    return body;
}
