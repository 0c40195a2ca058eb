/* hub.c - a careful libcurl client of a Hugging Face hub (see hub.h). */
#include "hub/hub.h"

#include <curl/curl.h>
#include <jansson.h>
#include <pthread.h>

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#ifndef GPUSIZER_VERSION
#define GPUSIZER_VERSION "0"
#endif

#define HUB_USER_AGENT "gpusizer/" GPUSIZER_VERSION
#define HUB_URL_MAX    4096
#define HUB_FILE_MAX   1024
#define HUB_ERROR_BODY_MAX                                                                         \
    (64 * 1024) /* a 4xx/5xx or redirect body is read and dropped up to this */
#define HUB_TIMEOUT_MS_MAX 3600000L
#define HUB_BYTES_MAX      ((uint64_t)4 << 30)

static const char *const default_redirect_hosts[] = {
    "cdn-lfs.huggingface.co",
    "cdn-lfs.hf.co",
    "cdn-lfs-us-1.hf.co",
    "cas-bridge.xethub.hf.co",
};

/* ---- the once-init: libcurl and the key of each thread's cached handle ---- */

static pthread_once_t hub_once = PTHREAD_ONCE_INIT;
static bool hub_curl_ready;
static bool hub_key_ready;
static pthread_key_t hub_handle_key;

static void handle_destroy(void *handle)
{
    curl_easy_cleanup(handle);
}

static void hub_init_once(void)
{
    hub_curl_ready = curl_global_init(CURL_GLOBAL_DEFAULT) == CURLE_OK;
    if (hub_curl_ready)
        hub_key_ready = pthread_key_create(&hub_handle_key, handle_destroy) == 0;
}

bool hub_global_init(void)
{
    pthread_once(&hub_once, hub_init_once);
    return hub_curl_ready;
}

/* The thread's handle (reset when the last call released it), or a new one; *cached says
 * whether it stays with the thread. */
static CURL *handle_acquire(bool *cached)
{
    *cached = false;
    if (!hub_key_ready)
        return curl_easy_init();
    CURL *h = pthread_getspecific(hub_handle_key);
    if (h != NULL) {
        *cached = true;
        return h;
    }
    h = curl_easy_init();
    if (h != NULL && pthread_setspecific(hub_handle_key, h) == 0)
        *cached = true;
    return h;
}

/* A kept handle is reset now: it must not hold the call's error buffer, sink or header list
 * (all gone when the call returns). Reset keeps connections, DNS and TLS sessions. */
static void handle_release(CURL *h, bool cached)
{
    if (cached)
        curl_easy_reset(h);
    else
        curl_easy_cleanup(h);
}

void hub_thread_release(void)
{
    pthread_once(&hub_once, hub_init_once);
    if (!hub_key_ready)
        return;
    CURL *h = pthread_getspecific(hub_handle_key);
    if (h != NULL) {
        pthread_setspecific(hub_handle_key, NULL);
        curl_easy_cleanup(h);
    }
}

/* ---- validation ---- */

static bool is_alnum(char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9');
}

static bool is_hex(char ch)
{
    return (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'f') || (ch >= 'A' && ch <= 'F');
}

static bool is_sha(const char *s)
{
    size_t n = 0;
    while (n < 40 && is_hex(s[n]))
        n++;
    return n == 40 && s[40] == '\0';
}

/* One part of an id: [A-Za-z0-9._-]{1,96}, no "..", not starting or ending with . or -. */
static bool id_part_valid(const char *s, size_t n)
{
    if (n < 1 || n > 96)
        return false;
    if (s[0] == '.' || s[0] == '-' || s[n - 1] == '.' || s[n - 1] == '-')
        return false;
    for (size_t i = 0; i < n; i++) {
        if (!is_alnum(s[i]) && s[i] != '.' && s[i] != '_' && s[i] != '-')
            return false;
        if (s[i] == '.' && i + 1 < n && s[i + 1] == '.')
            return false;
    }
    return true;
}

bool hub_id_valid(const char *id)
{
    if (id == NULL)
        return false;
    const char *slash = strchr(id, '/');
    if (slash == NULL || strchr(slash + 1, '/') != NULL)
        return false;
    return id_part_valid(id, (size_t)(slash - id)) && id_part_valid(slash + 1, strlen(slash + 1));
}

bool hub_revision_valid(const char *revision)
{
    if (revision == NULL)
        return false;
    if (is_sha(revision))
        return true;
    const size_t n = strlen(revision);
    if (n < 1 || n > 128 || revision[0] == '/' || revision[n - 1] == '/')
        return false;
    if (strstr(revision, "..") != NULL || strstr(revision, "//") != NULL)
        return false;
    for (size_t i = 0; i < n; i++) {
        const char ch = revision[i];
        if (!is_alnum(ch) && ch != '.' && ch != '_' && ch != '-' && ch != '/')
            return false;
        /* a "." part: "./x", "x/./y", "x/." or "." alone */
        if (ch == '.' && (i == 0 || revision[i - 1] == '/') &&
            (i + 1 == n || revision[i + 1] == '/'))
            return false;
    }
    return true;
}

static bool file_char_valid(char ch)
{
    return is_alnum(ch) || (ch != '\0' && strchr("._+=,@~()[]-", ch) != NULL);
}

bool hub_file_valid(const char *file)
{
    if (file == NULL)
        return false;
    const size_t n = strlen(file);
    if (n < 1 || n > HUB_FILE_MAX)
        return false;
    size_t start = 0;
    for (size_t i = 0; i <= n; i++) {
        if (i < n && file[i] != '/') {
            if (!file_char_valid(file[i]))
                return false;
            continue;
        }
        const size_t len = i - start;
        if (len == 0 || (len == 1 && file[start] == '.') ||
            (len == 2 && file[start] == '.' && file[start + 1] == '.'))
            return false;
        start = i + 1;
    }
    return true;
}

/* ---- URLs ---- */

struct origin {
    char scheme[8];
    char host[256];
    long port;
};

/* Scheme (http/https only), host (lower case) and port of an absolute URL.
 * `strict` also refuses userinfo, a query, a fragment, and any byte outside
 * printable ASCII, for a URL given by the operator. */
static bool origin_parse(const char *url, struct origin *o, bool strict)
{
    bool ok = false;
    char *scheme = NULL, *host = NULL, *port = NULL, *part = NULL;
    CURLU *u = curl_url();
    if (u == NULL)
        return false;
    if (strict) {
        /* exactly "http://" or "https://" and then the host (libcurl would take "http:///x") */
        const size_t skip = strncasecmp(url, "http://", 7) == 0    ? 7
                            : strncasecmp(url, "https://", 8) == 0 ? 8
                                                                   : 0;
        if (skip == 0 || url[skip] == '/' || url[skip] == '\0')
            goto out;
        for (const char *p = url; *p != '\0'; p++)
            if ((unsigned char)*p <= 0x20 || (unsigned char)*p >= 0x7f || *p == '?' || *p == '#' ||
                *p == '\\')
                goto out;
    }
    if (curl_url_set(u, CURLUPART_URL, url, 0) != CURLUE_OK)
        goto out;
    if (curl_url_get(u, CURLUPART_SCHEME, &scheme, 0) != CURLUE_OK ||
        curl_url_get(u, CURLUPART_HOST, &host, 0) != CURLUE_OK ||
        curl_url_get(u, CURLUPART_PORT, &port, CURLU_DEFAULT_PORT) != CURLUE_OK)
        goto out;
    if (strcasecmp(scheme, "http") != 0 && strcasecmp(scheme, "https") != 0)
        goto out;
    if (host[0] == '\0' || strlen(host) >= sizeof(o->host))
        goto out;
    if (strict) {
        if (curl_url_get(u, CURLUPART_USER, &part, 0) != CURLUE_NO_USER)
            goto out;
        if (curl_url_get(u, CURLUPART_PASSWORD, &part, 0) != CURLUE_NO_PASSWORD)
            goto out;
        if (curl_url_get(u, CURLUPART_QUERY, &part, 0) != CURLUE_NO_QUERY)
            goto out;
        if (curl_url_get(u, CURLUPART_FRAGMENT, &part, 0) != CURLUE_NO_FRAGMENT)
            goto out;
    }
    snprintf(o->scheme, sizeof(o->scheme), "%s",
             strcasecmp(scheme, "https") == 0 ? "https" : "http");
    for (size_t i = 0; host[i] != '\0'; i++)
        o->host[i] = (char)((host[i] >= 'A' && host[i] <= 'Z') ? host[i] - 'A' + 'a' : host[i]);
    o->host[strlen(host)] = '\0';
    o->port = strtol(port, NULL, 10);
    ok = true;
out:
    curl_free(part);
    curl_free(port);
    curl_free(host);
    curl_free(scheme);
    curl_url_cleanup(u);
    return ok;
}

static bool same_origin(const struct origin *a, const struct origin *b)
{
    return strcmp(a->scheme, b->scheme) == 0 && strcmp(a->host, b->host) == 0 && a->port == b->port;
}

/* Percent-encodes everything but unreserved characters (and "/" when `keep_slash`). */
static bool url_append(char *out, size_t cap, size_t *len, const char *s, bool keep_slash)
{
    static const char hex[] = "0123456789ABCDEF";
    for (; *s != '\0'; s++) {
        const unsigned char ch = (unsigned char)*s;
        const bool plain = is_alnum((char)ch) || ch == '-' || ch == '.' || ch == '_' || ch == '~' ||
                           (keep_slash && ch == '/');
        if (*len + (plain ? 1 : 3) >= cap)
            return false;
        if (plain) {
            out[(*len)++] = (char)ch;
        } else {
            out[(*len)++] = '%';
            out[(*len)++] = hex[ch >> 4];
            out[(*len)++] = hex[ch & 15];
        }
    }
    out[*len] = '\0';
    return true;
}

static bool url_literal(char *out, size_t cap, size_t *len, const char *s)
{
    const size_t n = strlen(s);
    if (*len + n >= cap)
        return false;
    memcpy(out + *len, s, n + 1);
    *len += n;
    return true;
}

/* {base}/api/models/{id}/revision/{rev} (file NULL) or {base}/{id}/resolve/{rev}/{file}. */
static bool build_url(const struct hub_config *c, const char *id, const char *revision,
                      const char *file, char *out, size_t cap)
{
    size_t len = 0;
    if (cap == 0)
        return false;
    out[0] = '\0';
    bool ok = url_literal(out, cap, &len, c->base_url);
    while (ok && len > 0 && out[len - 1] == '/') /* a hand-set base URL may end in "/" */
        out[--len] = '\0';
    if (file == NULL) {
        ok = ok && url_literal(out, cap, &len, "/api/models/") &&
             url_append(out, cap, &len, id, true) && url_literal(out, cap, &len, "/revision/") &&
             url_append(out, cap, &len, revision, false);
    } else {
        ok = ok && url_literal(out, cap, &len, "/") && url_append(out, cap, &len, id, true) &&
             url_literal(out, cap, &len, "/resolve/") &&
             url_append(out, cap, &len, revision, false) && url_literal(out, cap, &len, "/") &&
             url_append(out, cap, &len, file, true);
    }
    if (!ok)
        out[0] = '\0';
    return ok;
}

void hub_file_url(const struct hub_config *c, const char *id, const char *revision,
                  const char *file, char *out, size_t cap)
{
    struct origin base;
    if (cap == 0)
        return;
    out[0] = '\0';
    if (!hub_id_valid(id) || !hub_revision_valid(revision) ||
        (file != NULL && !hub_file_valid(file)) || !origin_parse(c->base_url, &base, true))
        return;
    build_url(c, id, revision, file, out, cap);
}

/* ---- configuration ---- */

void hub_config_defaults(struct hub_config *c)
{
    memset(c, 0, sizeof(*c));
    snprintf(c->base_url, sizeof(c->base_url), "https://huggingface.co");
    c->connect_timeout_ms = 5000;
    c->total_timeout_ms = 30000;
    c->import_deadline_ms = 120000;
    c->max_json_bytes = (uint64_t)8 << 20;
    c->max_header_bytes = (uint64_t)64 << 20;
    for (size_t i = 0; i < sizeof(default_redirect_hosts) / sizeof(default_redirect_hosts[0]); i++)
        snprintf(c->redirect_hosts[i], sizeof(c->redirect_hosts[i]), "%s",
                 default_redirect_hosts[i]);
    c->redirect_host_count = sizeof(default_redirect_hosts) / sizeof(default_redirect_hosts[0]);
}

/* A base URL as given, checked, without trailing slashes. */
static bool base_url_set(struct hub_config *c, const char *value)
{
    char url[sizeof(c->base_url)];
    struct origin o;
    size_t n = strlen(value);
    if (n >= sizeof(url))
        return false;
    memcpy(url, value, n + 1);
    while (n > 0 && url[n - 1] == '/')
        url[--n] = '\0';
    if (!origin_parse(url, &o, true))
        return false;
    memcpy(c->base_url, url, n + 1);
    return true;
}

static bool token_valid(const char *t)
{
    const size_t n = strlen(t);
    if (n < 1 || n >= sizeof(((struct hub_config *)NULL)->token))
        return false;
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)t[i] <= 0x20 || (unsigned char)t[i] >= 0x7f)
            return false; /* no spaces, CR or LF: the token goes into a header line */
    return true;
}

static bool env_long(const char *name, long lo, long hi, long *out)
{
    const char *v = getenv(name);
    if (v == NULL || *v < '0' || *v > '9')
        return false;
    char *end = NULL;
    errno = 0;
    const long x = strtol(v, &end, 10);
    if (errno != 0 || *end != '\0' || x < lo || x > hi)
        return false;
    *out = x;
    return true;
}

static bool env_bytes(const char *name, uint64_t *out)
{
    const char *v = getenv(name);
    if (v == NULL || *v < '0' || *v > '9')
        return false;
    char *end = NULL;
    errno = 0;
    const unsigned long long x = strtoull(v, &end, 10);
    if (errno != 0 || *end != '\0' || x < 1 || x > HUB_BYTES_MAX)
        return false;
    *out = (uint64_t)x;
    return true;
}

/* A host name ([A-Za-z0-9.-], labels not starting or ending with "-") or a bracketed IPv6 literal.
 */
static bool host_valid(const char *h, size_t n)
{
    if (n < 1 || n >= sizeof(((struct hub_config *)NULL)->redirect_hosts[0]))
        return false;
    if (h[0] == '[') {
        if (n < 4 || h[n - 1] != ']')
            return false;
        for (size_t i = 1; i + 1 < n; i++)
            if (!is_hex(h[i]) && h[i] != ':' && h[i] != '.')
                return false;
        return true;
    }
    for (size_t i = 0; i < n; i++) {
        if (!is_alnum(h[i]) && h[i] != '.' && h[i] != '-')
            return false;
        if (h[i] == '-' && (i == 0 || h[i - 1] == '.' || i + 1 == n || h[i + 1] == '.'))
            return false;
        if (h[i] == '.' && (i == 0 || h[i - 1] == '.'))
            return false;
    }
    return true;
}

static bool redirect_hosts_set(struct hub_config *c, const char *value)
{
    char hosts[HUB_HOSTS_MAX][sizeof(c->redirect_hosts[0])];
    size_t count = 0;
    const char *p = value;
    while (*p != '\0') {
        while (*p == ' ' || *p == '\t' || *p == ',')
            p++;
        if (*p == '\0')
            break;
        const char *start = p;
        while (*p != '\0' && *p != ',')
            p++;
        size_t n = (size_t)(p - start);
        while (n > 0 && (start[n - 1] == ' ' || start[n - 1] == '\t'))
            n--;
        if (count == HUB_HOSTS_MAX || !host_valid(start, n))
            return false;
        for (size_t i = 0; i < n; i++)
            hosts[count][i] =
                (char)((start[i] >= 'A' && start[i] <= 'Z') ? start[i] - 'A' + 'a' : start[i]);
        hosts[count][n] = '\0';
        count++;
    }
    memcpy(c->redirect_hosts, hosts, count * sizeof(hosts[0]));
    c->redirect_host_count = count;
    return true;
}

void hub_config_from_env(struct hub_config *c)
{
    const char *v = getenv("GPUSIZER_HUB_URL");
    if (v != NULL)
        base_url_set(c, v);
    v = getenv("GPUSIZER_HUB_TOKEN");
    if (v == NULL || *v == '\0')
        v = getenv("HF_TOKEN");
    if (v != NULL && token_valid(v))
        snprintf(c->token, sizeof(c->token), "%s", v);
    long ms = 0;
    if (env_long("GPUSIZER_HUB_CONNECT_TIMEOUT_MS", 1, HUB_TIMEOUT_MS_MAX, &ms))
        c->connect_timeout_ms = ms;
    if (env_long("GPUSIZER_HUB_TIMEOUT_MS", 1, HUB_TIMEOUT_MS_MAX, &ms))
        c->total_timeout_ms = ms;
    if (env_long("GPUSIZER_HUB_IMPORT_DEADLINE_MS", 1, HUB_TIMEOUT_MS_MAX, &ms))
        c->import_deadline_ms = ms;
    env_bytes("GPUSIZER_HUB_MAX_JSON_BYTES", &c->max_json_bytes);
    env_bytes("GPUSIZER_HUB_MAX_HEADER_BYTES", &c->max_header_bytes);
    v = getenv("GPUSIZER_HUB_REDIRECT_HOSTS");
    if (v != NULL)
        redirect_hosts_set(c, v);
}

/* ---- results ---- */

/* Fills `res`; a detail that would contain the token (it never should) is replaced. */
__attribute__((format(printf, 5, 6))) static enum hub_outcome
result_set(struct hub_result *res, const struct hub_config *c, enum hub_outcome outcome,
           long status, const char *fmt, ...)
{
    va_list ap;
    res->outcome = outcome;
    res->upstream_status = status;
    va_start(ap, fmt);
    vsnprintf(res->detail, sizeof(res->detail), fmt, ap);
    va_end(ap);
    if (strlen(c->token) >= 8 && strstr(res->detail, c->token) != NULL)
        snprintf(res->detail, sizeof(res->detail),
                 "the Hugging Face hub request failed (the details are withheld)");
    return outcome;
}

/* ---- one transfer ---- */

/* What a transfer writes into and what it saw. */
struct sink {
    CURL *h;
    struct buf *out;
    bool range;
    uint64_t offset, length; /* the range asked for */
    uint64_t cap;            /* bytes a body may bring (a ranged 200: offset + length) */
    long status;             /* 0 until the first body byte */
    uint64_t seen;           /* body bytes of a 200/206 received */
    uint64_t kept;           /* of them, appended */
    uint64_t dropped;        /* body bytes of any other status */
    bool too_large, complete, nomem, error_body_cut;
    char error_code[48]; /* X-Error-Code, letters and digits only */
    bool has_content_range;
    uint64_t content_range_start;
};

static size_t sink_write(char *ptr, size_t size, size_t nmemb, void *userdata)
{
    struct sink *s = userdata;
    const size_t n = size * nmemb;
    if (s->status == 0)
        curl_easy_getinfo(s->h, CURLINFO_RESPONSE_CODE, &s->status);
    if (s->status != 200 && s->status != 206) {
        s->dropped += n;
        if (s->dropped > HUB_ERROR_BODY_MAX) {
            s->error_body_cut = true;
            return 0;
        }
        return n;
    }
    size_t at = 0;
    if (s->range && s->status == 200) {
        if (s->offset + s->length > s->cap) {
            s->too_large = true;
            return 0;
        }
        if (s->seen < s->offset) {
            const uint64_t skip = s->offset - s->seen < n ? s->offset - s->seen : n;
            s->seen += skip;
            at = (size_t)skip;
        }
    }
    size_t take = n - at;
    if (s->range) {
        if (s->length - s->kept < take)
            take = (size_t)(s->length - s->kept);
    } else if (s->kept + take > s->cap) {
        s->too_large = true;
        return 0;
    }
    buf_put(s->out, ptr + at, take);
    if (s->out->failed) {
        s->nomem = true;
        return 0;
    }
    s->seen += take;
    s->kept += take;
    if (at + take < n) {
        s->complete = true; /* the range is complete and the server sends more: stop */
        return 0;
    }
    return n;
}

static bool header_is(const char *line, size_t n, const char *name, const char **value)
{
    const size_t k = strlen(name);
    if (n <= k || strncasecmp(line, name, k) != 0 || line[k] != ':')
        return false;
    *value = line + k + 1;
    return true;
}

static size_t sink_header(char *ptr, size_t size, size_t nmemb, void *userdata)
{
    struct sink *s = userdata;
    const size_t n = size * nmemb;
    const char *v = NULL;
    if (n >= 5 && strncmp(ptr, "HTTP/", 5) == 0) { /* a new response: forget the last one's */
        s->error_code[0] = '\0';
        s->has_content_range = false;
    } else if (header_is(ptr, n, "X-Error-Code", &v)) {
        size_t k = 0;
        for (; v < ptr + n && k + 1 < sizeof(s->error_code); v++)
            if (is_alnum(*v))
                s->error_code[k++] = *v;
        s->error_code[k] = '\0';
    } else if (header_is(ptr, n, "Content-Range", &v)) {
        char text[128];
        const size_t len =
            (size_t)(ptr + n - v) < sizeof(text) - 1 ? (size_t)(ptr + n - v) : sizeof(text) - 1;
        memcpy(text, v, len);
        text[len] = '\0';
        unsigned long long start = 0;
        s->has_content_range = sscanf(text, " bytes %llu-", &start) == 1;
        s->content_range_start = start;
    }
    return n;
}

static long now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* What was asked, for the details: "config.json in org/name at main" or "org/name at main". */
struct ask {
    const struct hub_config *c;
    const char *id, *revision, *file;
    bool range;
    uint64_t offset, length, cap;
};

static enum hub_outcome map_curl_error(const struct ask *a, CURLcode rc, long status,
                                       const char *errbuf, struct hub_result *res)
{
    const char *why = errbuf[0] != '\0' ? errbuf : curl_easy_strerror(rc);
    switch (rc) {
    case CURLE_OPERATION_TIMEDOUT:
        return result_set(res, a->c, HUB_TIMEOUT, status,
                          "the Hugging Face hub did not answer in time (%ld ms connect, %ld ms in "
                          "all): %s",
                          a->c->connect_timeout_ms, a->c->total_timeout_ms, why);
    case CURLE_OUT_OF_MEMORY:
        return result_set(res, a->c, HUB_NOMEM, status, "out of memory asking the hub");
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_RESOLVE_PROXY:
    case CURLE_COULDNT_CONNECT:
    case CURLE_UNSUPPORTED_PROTOCOL:
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_PEER_FAILED_VERIFICATION:
    case CURLE_SSL_CERTPROBLEM:
    case CURLE_SSL_CIPHER:
    case CURLE_SSL_CACERT_BADFILE:
    case CURLE_SSL_ENGINE_NOTFOUND:
    case CURLE_SSL_ENGINE_SETFAILED:
    case CURLE_SSL_ENGINE_INITFAILED:
    case CURLE_SSL_CRL_BADFILE:
    case CURLE_SSL_ISSUER_ERROR:
    case CURLE_SSL_PINNEDPUBKEYNOTMATCH:
    case CURLE_SSL_INVALIDCERTSTATUS:
    case CURLE_SSL_CLIENTCERT:
    case CURLE_USE_SSL_FAILED:
        return result_set(res, a->c, HUB_UNREACHABLE, status,
                          "the Hugging Face hub could not be reached: %s", why);
    default:
        return result_set(res, a->c, HUB_UPSTREAM, status,
                          "the Hugging Face hub's answer broke off: %s", why);
    }
}

static void describe(const struct ask *a, char *out, size_t cap)
{
    if (a->file != NULL)
        snprintf(out, cap, "%s in %s at %s", a->file, a->id, a->revision);
    else
        snprintf(out, cap, "%s at %s", a->id, a->revision);
}

static enum hub_outcome map_status(const struct ask *a, const struct sink *s, long status,
                                   struct hub_result *res)
{
    char what[200];
    describe(a, what, sizeof(what));
    const char *code = s->error_code;
    const bool repo_missing = strcmp(code, "RepoNotFound") == 0;
    if (status == 404 || ((status == 401 || status == 403) && repo_missing)) {
        if (repo_missing)
            return result_set(res, a->c, HUB_NOT_FOUND, status,
                              "repository %s was not found on the hub (RepoNotFound)%s", a->id,
                              status == 404 ? ""
                                            : "; if it is private, set GPUSIZER_HUB_TOKEN or "
                                              "HF_TOKEN to a token with access");
        if (strcmp(code, "RevisionNotFound") == 0)
            return result_set(res, a->c, HUB_NOT_FOUND, status,
                              "revision %s was not found in %s (RevisionNotFound)", a->revision,
                              a->id);
        if (strcmp(code, "EntryNotFound") == 0)
            return result_set(res, a->c, HUB_NOT_FOUND, status,
                              "%s was not found in %s at %s (EntryNotFound)",
                              a->file != NULL ? a->file : "the file", a->id, a->revision);
        return result_set(res, a->c, HUB_NOT_FOUND, status, "%s was not found on the hub%s%s%s",
                          what, code[0] != '\0' ? " (" : "", code, code[0] != '\0' ? ")" : "");
    }
    if (status == 401 || status == 403)
        return result_set(res, a->c, HUB_GATED, status,
                          "%s: the repository is gated or private (HTTP %ld%s%s); set "
                          "GPUSIZER_HUB_TOKEN or HF_TOKEN to a token with access",
                          a->id, status, code[0] != '\0' ? ", " : "", code);
    if (status == 416)
        return result_set(res, a->c, HUB_UPSTREAM, status,
                          "bytes %llu-%llu of %s are past the end of the file (HTTP 416)",
                          (unsigned long long)a->offset,
                          (unsigned long long)(a->offset + a->length - 1), what);
    return result_set(res, a->c, HUB_UPSTREAM, status,
                      "the Hugging Face hub answered HTTP %ld for %s%s%s%s", status, what,
                      code[0] != '\0' ? " (" : "", code, code[0] != '\0' ? ")" : "");
}

/* Checks a redirect target; fills `to` when it may be asked. */
static bool redirect_allowed(const struct hub_config *c, const struct origin *base,
                             const char *target, struct origin *to, struct hub_result *res,
                             long status)
{
    if (!origin_parse(target, to, false)) {
        result_set(res, c, HUB_REDIRECT_REFUSED, status,
                   "the hub redirected to a URL that is not http or https");
        return false;
    }
    if (strcmp(base->scheme, "https") == 0 && strcmp(to->scheme, "https") != 0) {
        result_set(res, c, HUB_REDIRECT_REFUSED, status,
                   "the hub redirected from https to plain http (host %s); refused", to->host);
        return false;
    }
    bool listed = strcmp(to->host, base->host) == 0;
    for (size_t i = 0; !listed && i < c->redirect_host_count && i < HUB_HOSTS_MAX; i++)
        listed = strcasecmp(to->host, c->redirect_hosts[i]) == 0;
    if (!listed) {
        result_set(res, c, HUB_REDIRECT_REFUSED, status,
                   "the hub redirected to host %s, which is not the hub's and not in "
                   "GPUSIZER_HUB_REDIRECT_HOSTS; refused",
                   to->host);
        return false;
    }
    return true;
}

/* Sets the options of one hop; false on out of memory. */
static bool hop_setup(CURL *h, const struct ask *a, const char *url, struct curl_slist *headers,
                      long budget_ms, struct sink *s, char *errbuf)
{
    const long connect_ms =
        a->c->connect_timeout_ms < budget_ms ? a->c->connect_timeout_ms : budget_ms;
    bool ok = curl_easy_setopt(h, CURLOPT_URL, url) == CURLE_OK;
    ok = ok && curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https") == CURLE_OK;
    ok = ok && curl_easy_setopt(h, CURLOPT_REDIR_PROTOCOLS_STR, "http,https") == CURLE_OK;
    ok = ok && curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 0L) == CURLE_OK;
    ok = ok && curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L) == CURLE_OK;
    ok = ok && curl_easy_setopt(h, CURLOPT_HTTPGET, 1L) == CURLE_OK;
    ok = ok && curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, connect_ms) == CURLE_OK;
    ok = ok && curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, budget_ms) == CURLE_OK;
    ok = ok && curl_easy_setopt(h, CURLOPT_USERAGENT, HUB_USER_AGENT) == CURLE_OK;
    ok = ok && curl_easy_setopt(h, CURLOPT_HTTPHEADER, headers) == CURLE_OK;
    ok = ok && curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, sink_write) == CURLE_OK;
    ok = ok && curl_easy_setopt(h, CURLOPT_WRITEDATA, s) == CURLE_OK;
    ok = ok && curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, sink_header) == CURLE_OK;
    ok = ok && curl_easy_setopt(h, CURLOPT_HEADERDATA, s) == CURLE_OK;
    ok = ok && curl_easy_setopt(h, CURLOPT_ERRORBUFFER, errbuf) == CURLE_OK;
    errbuf[0] = '\0';
    return ok;
}

/* The Range header, and the Authorization header too for the base origin. */
static bool headers_build(const struct ask *a, struct curl_slist **plain, struct curl_slist **auth)
{
    char line[320];
    struct curl_slist *next = NULL;
    if (a->range) {
        snprintf(line, sizeof(line), "Range: bytes=%llu-%llu", (unsigned long long)a->offset,
                 (unsigned long long)(a->offset + a->length - 1));
        if ((next = curl_slist_append(*plain, line)) == NULL)
            return false;
        *plain = next;
        if ((next = curl_slist_append(*auth, line)) == NULL)
            return false;
        *auth = next;
    }
    if (a->c->token[0] != '\0') {
        snprintf(line, sizeof(line), "Authorization: Bearer %s", a->c->token);
        next = curl_slist_append(*auth, line);
        memset(line, 0, sizeof(line));
        if (next == NULL)
            return false;
        *auth = next;
    }
    return true;
}

/* An allowed redirect's target into *next (a new string): false with `res` filled otherwise. */
static bool redirect_next(const struct ask *a, const struct origin *base, CURL *h, long status,
                          int hop, char **next, struct hub_result *res)
{
    char *target = NULL;
    struct origin to;
    curl_easy_getinfo(h, CURLINFO_REDIRECT_URL, &target); /* relative Locations resolved */
    if (target == NULL) {
        result_set(res, a->c, HUB_UPSTREAM, status, "the hub answered HTTP %ld without a Location",
                   status);
        return false;
    }
    if (hop >= HUB_REDIRECTS_MAX) {
        result_set(res, a->c, HUB_REDIRECT_REFUSED, status,
                   "the hub redirected more than %d times; refused", HUB_REDIRECTS_MAX);
        return false;
    }
    if (!redirect_allowed(a->c, base, target, &to, res, status))
        return false;
    *next = strdup(target);
    if (*next == NULL) {
        result_set(res, a->c, HUB_NOMEM, status, "out of memory asking the hub");
        return false;
    }
    return true;
}

/* What one hop's answer means: true with `res` filled when the call is over, false with
 * *next set when an allowed redirect is to be asked. */
static bool hop_answer(const struct ask *a, const struct origin *base, CURL *h,
                       const struct sink *s, CURLcode rc, const char *errbuf, int hop, char **next,
                       struct hub_result *res)
{
    char what[200];
    long status = 0;
    curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status);
    if (s->nomem) {
        result_set(res, a->c, HUB_NOMEM, status, "out of memory reading the hub's answer");
        return true;
    }
    if (s->too_large) {
        describe(a, what, sizeof(what));
        if (a->range)
            result_set(res, a->c, HUB_TOO_LARGE, status,
                       "%s: the server ignored the byte range, and reading up to its end would "
                       "pass the cap of %llu bytes",
                       what, (unsigned long long)a->cap);
        else
            result_set(res, a->c, HUB_TOO_LARGE, status, "%s is larger than the cap of %llu bytes",
                       what, (unsigned long long)a->cap);
        return true;
    }
    /* a write error is ours when the range was complete or an error body was cut short */
    if (rc != CURLE_OK && !s->complete && !(rc == CURLE_WRITE_ERROR && s->error_body_cut)) {
        map_curl_error(a, rc, status, errbuf, res);
        return true;
    }
    if (status >= 300 && status < 400 && status != 304)
        return !redirect_next(a, base, h, status, hop, next, res);
    if (status == 206 && a->range && (!s->has_content_range || s->content_range_start != a->offset))
        result_set(res, a->c, HUB_MALFORMED, status,
                   "the hub answered a byte range without a matching Content-Range");
    else if (status == 200 || (status == 206 && a->range))
        result_set(res, a->c, HUB_OK, status, "ok");
    else
        map_status(a, s, status, res);
    return true;
}

/* Asks `first_url`, following allowed redirects by hand; maps the outcome into `res`. */
static enum hub_outcome transfer(const struct ask *a, const char *first_url, struct buf *out,
                                 struct hub_result *res)
{
    struct origin base, here;
    struct curl_slist *plain = NULL, *auth = NULL;
    char errbuf[CURL_ERROR_SIZE];
    bool cached = false;
    CURL *h = NULL;
    char *url = NULL;
    const size_t start_length = out->length;

    if (!origin_parse(a->c->base_url, &base, true)) {
        result_set(res, a->c, HUB_UNREACHABLE, 0,
                   "the hub URL is not a valid http(s) URL without credentials or a query");
        goto out;
    }
    if (!hub_global_init()) {
        result_set(res, a->c, HUB_UNREACHABLE, 0, "libcurl could not be initialised");
        goto out;
    }
    h = handle_acquire(&cached);
    url = strdup(first_url);
    if (h == NULL || url == NULL || !headers_build(a, &plain, &auth)) {
        result_set(res, a->c, HUB_NOMEM, 0, "out of memory asking the hub");
        goto out;
    }
    const long deadline = now_ms() + a->c->total_timeout_ms;
    bool left_base = false; /* once off the base origin, the token is never sent again */
    for (int hop = 0;; hop++) {
        struct sink s = {.h = h,
                         .out = out,
                         .range = a->range,
                         .offset = a->offset,
                         .length = a->length,
                         .cap = a->cap};
        const long budget = deadline - now_ms();
        char *next = NULL;
        if (budget <= 0) {
            result_set(res, a->c, HUB_TIMEOUT, 0,
                       "the Hugging Face hub did not answer within %ld ms", a->c->total_timeout_ms);
            break;
        }
        if (!origin_parse(url, &here, false)) {
            result_set(res, a->c, HUB_UNREACHABLE, 0, "the hub URL could not be parsed");
            break;
        }
        left_base = left_base || !same_origin(&here, &base);
        if (!hop_setup(h, a, url, left_base ? plain : auth, budget, &s, errbuf)) {
            result_set(res, a->c, HUB_NOMEM, 0, "out of memory asking the hub");
            break;
        }
        const CURLcode rc = curl_easy_perform(h);
        if (hop_answer(a, &base, h, &s, rc, errbuf, hop, &next, res))
            break;
        free(url);
        url = next;
    }
out:
    if (res->outcome != HUB_OK) {
        out->length = start_length;
        if (out->data != NULL)
            out->data[start_length] = '\0';
    }
    if (h != NULL)
        handle_release(h, cached);
    curl_slist_free_all(plain);
    curl_slist_free_all(auth);
    free(url);
    return res->outcome;
}

/* ---- the two calls ---- */

static bool arguments_valid(const struct hub_config *c, const char *id, const char *revision,
                            const char *file, bool with_file, struct hub_result *res)
{
    if (!hub_id_valid(id)) {
        result_set(res, c, HUB_NOT_FOUND, 0,
                   "not a Hugging Face repository id: expected org/name of letters, digits, "
                   "'.', '_' and '-'");
        return false;
    }
    if (!hub_revision_valid(revision)) {
        result_set(res, c, HUB_NOT_FOUND, 0,
                   "not a valid revision: expected a branch or tag name, or a 40-hex commit");
        return false;
    }
    if (with_file && !hub_file_valid(file)) {
        result_set(res, c, HUB_NOT_FOUND, 0, "not a valid file path in a repository");
        return false;
    }
    return true;
}

static enum hub_outcome parse_repo(const struct hub_config *c, const char *revision,
                                   const struct buf *body, struct hub_repo *out,
                                   struct hub_result *res)
{
    enum hub_outcome oc = HUB_OK;
    json_error_t jerr;
    json_t *root = json_loadb(body->data != NULL ? body->data : "", body->length, 0, &jerr);
    json_t *sha = json_object_get(root, "sha");
    json_t *siblings = json_object_get(root, "siblings");
    if (!json_is_object(root) || !json_is_string(sha) || !json_is_array(siblings)) {
        oc = result_set(res, c, HUB_MALFORMED, 200,
                        "the hub's repository information is not JSON with \"sha\" and "
                        "\"siblings\"");
        goto out;
    }
    if (!is_sha(json_string_value(sha)) ||
        (is_sha(revision) && strcasecmp(revision, json_string_value(sha)) != 0)) {
        oc = result_set(res, c, HUB_MALFORMED, 200,
                        "the hub's \"sha\" is not the 40-hex commit asked for");
        goto out;
    }
    const size_t n = json_array_size(siblings);
    if (n > HUB_FILES_MAX) {
        oc = result_set(res, c, HUB_TOO_LARGE, 200, "the repository lists %zu files, over %d", n,
                        HUB_FILES_MAX);
        goto out;
    }
    for (size_t i = 0; i < 40; i++) {
        const char ch = json_string_value(sha)[i];
        out->sha[i] = (char)(ch >= 'A' && ch <= 'F' ? ch - 'A' + 'a' : ch);
    }
    out->sha[40] = '\0';
    out->files = calloc(n > 0 ? n : 1, sizeof(*out->files));
    if (out->files == NULL) {
        oc = result_set(res, c, HUB_NOMEM, 200, "out of memory reading the file list");
        goto out;
    }
    for (size_t i = 0; i < n; i++) {
        json_t *name = json_object_get(json_array_get(siblings, i), "rfilename");
        if (!json_is_string(name) || strlen(json_string_value(name)) != json_string_length(name)) {
            oc = result_set(res, c, HUB_MALFORMED, 200,
                            "a sibling in the hub's file list has no string \"rfilename\"");
            goto out;
        }
        out->files[i] = strdup(json_string_value(name));
        if (out->files[i] == NULL) {
            oc = result_set(res, c, HUB_NOMEM, 200, "out of memory reading the file list");
            goto out;
        }
        out->file_count = i + 1;
    }
out:
    json_decref(root);
    if (oc != HUB_OK) {
        hub_repo_free(out);
        memset(out, 0, sizeof(*out));
    }
    return oc;
}

enum hub_outcome hub_repo_info(const struct hub_config *c, const char *id, const char *revision,
                               struct hub_repo *out, struct hub_result *res)
{
    struct hub_result local;
    struct buf body = {0};
    char url[HUB_URL_MAX];
    enum hub_outcome oc;
    if (res == NULL)
        res = &local;
    memset(res, 0, sizeof(*res));
    memset(out, 0, sizeof(*out));
    if (!arguments_valid(c, id, revision, NULL, false, res))
        return res->outcome;
    if (!build_url(c, id, revision, NULL, url, sizeof(url)))
        return result_set(res, c, HUB_UNREACHABLE, 0, "the hub URL is too long");
    const struct ask a = {.c = c, .id = id, .revision = revision, .cap = c->max_json_bytes};
    oc = transfer(&a, url, &body, res);
    if (oc == HUB_OK)
        oc = parse_repo(c, revision, &body, out, res);
    free(body.data);
    return oc;
}

void hub_repo_free(struct hub_repo *r)
{
    if (r == NULL)
        return;
    for (size_t i = 0; i < r->file_count; i++)
        free(r->files[i]);
    free(r->files);
    r->files = NULL;
    r->file_count = 0;
}

enum hub_outcome hub_fetch(const struct hub_config *c, const char *id, const char *revision,
                           const char *file, uint64_t offset, uint64_t length, uint64_t cap,
                           struct buf *out, struct hub_result *res)
{
    struct hub_result local;
    char url[HUB_URL_MAX];
    if (res == NULL)
        res = &local;
    memset(res, 0, sizeof(*res));
    if (!arguments_valid(c, id, revision, file, true, res))
        return res->outcome;
    if (cap == 0)
        cap = length > 0 ? c->max_header_bytes : c->max_json_bytes;
    if (length > 0 && (length > cap || offset > UINT64_MAX - length))
        return result_set(res, c, HUB_TOO_LARGE, 0,
                          "%llu bytes of %s were asked for, over the cap of %llu",
                          (unsigned long long)length, file, (unsigned long long)cap);
    if (length > SIZE_MAX / 2 || cap > SIZE_MAX / 2)
        return result_set(res, c, HUB_TOO_LARGE, 0, "the cap is too large for this machine");
    if (!build_url(c, id, revision, file, url, sizeof(url)))
        return result_set(res, c, HUB_UNREACHABLE, 0, "the hub URL is too long");
    const struct ask a = {.c = c,
                          .id = id,
                          .revision = revision,
                          .file = file,
                          .range = length > 0,
                          .offset = offset,
                          .length = length,
                          .cap = cap};
    return transfer(&a, url, out, res);
}
