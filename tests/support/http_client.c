/* http_client.c - libcurl requests for the integration tests (see http_client.h). */
#include "http_client.h"
#include "test_server.h"

#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static size_t on_body(char *data, size_t size, size_t n, void *userp)
{
    struct http_reply *r = userp;
    const size_t add = size * n;
    char *grown = realloc(r->body, r->length + add + 1);
    if (grown == NULL)
        return 0;
    memcpy(grown + r->length, data, add);
    r->body = grown;
    r->length += add;
    r->body[r->length] = '\0';
    return add;
}

/* Copies a header's value (without the line end) when the line is `name: value`. */
static void header_value(const char *line, size_t len, const char *name, char *out, size_t cap)
{
    const size_t n = strlen(name);
    if (len <= n + 2 || strncasecmp(line, name, n) != 0 || line[n] != ':')
        return;
    size_t v = len - n - 2;
    while (v > 0 && (line[n + 2 + v - 1] == '\r' || line[n + 2 + v - 1] == '\n'))
        v--;
    snprintf(out, cap, "%.*s", (int)v, line + n + 2);
}

static size_t on_header(char *data, size_t size, size_t n, void *userp)
{
    struct http_reply *r = userp;
    const size_t len = size * n;
    header_value(data, len, "Allow", r->allow, sizeof(r->allow));
    header_value(data, len, "ETag", r->etag, sizeof(r->etag));
    header_value(data, len, "Location", r->location, sizeof(r->location));
    header_value(data, len, "Retry-After", r->retry_after, sizeof(r->retry_after));
    header_value(data, len, "Catalog-Age", r->catalog_age, sizeof(r->catalog_age));
    header_value(data, len, "Link", r->link, sizeof(r->link));
    header_value(data, len, "X-Total-Count", r->total_count, sizeof(r->total_count));
    if (len > 17 && strncasecmp(data, "WWW-Authenticate:", 17) == 0)
        r->challenge = true;
    return len;
}

struct http_reply http_call(int port, const char *method, const char *path, const char *content_type,
                            const char *body, size_t body_length, const char *const *headers)
{
    struct http_reply r;
    memset(&r, 0, sizeof(r));
    r.status = -1;
    CURL *curl = curl_easy_init();
    if (curl == NULL)
        return r;
    char url[512], ct[160];
    snprintf(url, sizeof(url), "http://127.0.0.1:%d%s", port, path);
    struct curl_slist *list = curl_slist_append(NULL, "Expect:");
    if (content_type != NULL)
        snprintf(ct, sizeof(ct), "Content-Type: %s", content_type);
    else
        snprintf(ct, sizeof(ct), "Content-Type:"); /* no header at all */
    list = curl_slist_append(list, ct);
    for (const char *const *h = headers; h != NULL && *h != NULL; h++)
        list = curl_slist_append(list, *h);
    curl_easy_setopt(curl, CURLOPT_URL, url);
    curl_easy_setopt(curl, CURLOPT_NOPROXY, "*");
    curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, method);
    if (strcmp(method, "HEAD") == 0)
        curl_easy_setopt(curl, CURLOPT_NOBODY, 1L);
    if (body != NULL) {
        curl_easy_setopt(curl, CURLOPT_POSTFIELDS, body);
        curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)body_length);
    }
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, list);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &r);
    curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, on_header);
    curl_easy_setopt(curl, CURLOPT_HEADERDATA, &r);
    /* 30 s, longer for a slowed server (valgrind: 20 x, capped at 5 minutes) */
    const double timeout = 30 * test_server_time_factor();
    curl_easy_setopt(curl, CURLOPT_TIMEOUT, timeout < 300 ? (long)timeout : 300L);
    const CURLcode done = curl_easy_perform(curl);
    if (done != CURLE_OK)
        snprintf(r.error, sizeof(r.error), "%s", curl_easy_strerror(done));
    if (done == CURLE_OK) {
        curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &r.status);
        char *type = NULL;
        curl_easy_getinfo(curl, CURLINFO_CONTENT_TYPE, &type);
        if (type != NULL)
            snprintf(r.content_type, sizeof(r.content_type), "%s", type);
    }
    curl_slist_free_all(list);
    curl_easy_cleanup(curl);
    return r;
}
