/* hub_fixture.c - a small Hugging Face hub for tests (see hub_fixture.h). */
#include "hub_fixture.h"

#include <jansson.h>
#include <microhttpd.h>
#include <pthread.h>

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#define FIXTURE_PATH_MAX 4096
#define SLOW_WAIT_S      3
#define OVERSIZED_BYTES  ((uint64_t)20 << 20)
#define READ_BLOCK       (64 * 1024)

struct hit {
    char *path;
    unsigned hits;
    unsigned auth_hits;
};

struct hub_fixture {
    struct MHD_Daemon *daemon;
    char *root;
    uint16_t port;
    char url[64];
    pthread_mutex_t lock; /* the counters and `stopping` */
    pthread_cond_t wake;  /* slow answers wait on it */
    bool stopping;
    struct hit *hits;
    size_t hit_count, hit_capacity;
};

/* ---- SHA-1 (FIPS 180-4), for the commit of a repository ---- */

struct sha1 {
    uint32_t h[5];
    uint64_t length;
    unsigned char block[64];
    size_t used;
};

static uint32_t rol32(uint32_t x, unsigned n)
{
    return (x << n) | (x >> (32 - n));
}

static void sha1_block(struct sha1 *s, const unsigned char *p)
{
    uint32_t w[80];
    for (int i = 0; i < 16; i++)
        w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
               (uint32_t)p[4 * i + 2] << 8 | (uint32_t)p[4 * i + 3];
    for (int i = 16; i < 80; i++)
        w[i] = rol32(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1);
    uint32_t a = s->h[0], b = s->h[1], c = s->h[2], d = s->h[3], e = s->h[4];
    for (int i = 0; i < 80; i++) {
        uint32_t f, k;
        if (i < 20) {
            f = (b & c) | (~b & d);
            k = 0x5A827999u;
        } else if (i < 40) {
            f = b ^ c ^ d;
            k = 0x6ED9EBA1u;
        } else if (i < 60) {
            f = (b & c) | (b & d) | (c & d);
            k = 0x8F1BBCDCu;
        } else {
            f = b ^ c ^ d;
            k = 0xCA62C1D6u;
        }
        const uint32_t t = rol32(a, 5) + f + e + k + w[i];
        e = d;
        d = c;
        c = rol32(b, 30);
        b = a;
        a = t;
    }
    s->h[0] += a;
    s->h[1] += b;
    s->h[2] += c;
    s->h[3] += d;
    s->h[4] += e;
}

static void sha1_update(struct sha1 *s, const void *data, size_t n)
{
    const unsigned char *p = data;
    s->length += n;
    while (n > 0) {
        size_t take = 64 - s->used < n ? 64 - s->used : n;
        memcpy(s->block + s->used, p, take);
        s->used += take;
        p += take;
        n -= take;
        if (s->used == 64) {
            sha1_block(s, s->block);
            s->used = 0;
        }
    }
}

void hub_fixture_commit(const char *repo_id, char out[41])
{
    struct sha1 s = {.h = {0x67452301u, 0xEFCDAB89u, 0x98BADCFEu, 0x10325476u, 0xC3D2E1F0u}};
    sha1_update(&s, repo_id, strlen(repo_id));
    const uint64_t bits = s.length * 8;
    const unsigned char one = 0x80, zero = 0;
    sha1_update(&s, &one, 1);
    while (s.used != 56)
        sha1_update(&s, &zero, 1);
    unsigned char tail[8];
    for (int i = 0; i < 8; i++)
        tail[i] = (unsigned char)(bits >> (56 - 8 * i));
    sha1_update(&s, tail, 8);
    for (int i = 0; i < 5; i++)
        snprintf(out + 8 * i, 9, "%08x", s.h[i]);
}

/* ---- counters ---- */

static void count_hit(struct hub_fixture *f, const char *path, bool auth)
{
    pthread_mutex_lock(&f->lock);
    struct hit *h = NULL;
    for (size_t i = 0; i < f->hit_count && h == NULL; i++)
        if (strcmp(f->hits[i].path, path) == 0)
            h = &f->hits[i];
    if (h == NULL && f->hit_count == f->hit_capacity) {
        size_t next = f->hit_capacity ? 2 * f->hit_capacity : 64;
        struct hit *grown = realloc(f->hits, next * sizeof(*grown));
        if (grown != NULL) {
            f->hits = grown;
            f->hit_capacity = next;
        }
    }
    if (h == NULL && f->hit_count < f->hit_capacity) {
        char *copy = strdup(path);
        if (copy != NULL) {
            h = &f->hits[f->hit_count++];
            *h = (struct hit){.path = copy};
        }
    }
    if (h != NULL) {
        h->hits++;
        h->auth_hits += auth ? 1 : 0;
    }
    pthread_mutex_unlock(&f->lock);
}

static unsigned hits_of(struct hub_fixture *f, const char *path, bool auth)
{
    unsigned n = 0;
    pthread_mutex_lock(&f->lock);
    for (size_t i = 0; i < f->hit_count; i++)
        if (strcmp(f->hits[i].path, path) == 0)
            n = auth ? f->hits[i].auth_hits : f->hits[i].hits;
    pthread_mutex_unlock(&f->lock);
    return n;
}

unsigned hub_fixture_hits(struct hub_fixture *f, const char *path)
{
    return hits_of(f, path, false);
}

unsigned hub_fixture_auth_hits(struct hub_fixture *f, const char *path)
{
    return hits_of(f, path, true);
}

void hub_fixture_reset_hits(struct hub_fixture *f)
{
    pthread_mutex_lock(&f->lock);
    for (size_t i = 0; i < f->hit_count; i++)
        free(f->hits[i].path);
    f->hit_count = 0;
    pthread_mutex_unlock(&f->lock);
}

/* ---- plain answers ---- */

struct extra_header {
    const char *name, *value;
};

static enum MHD_Result reply(struct MHD_Connection *conn, unsigned status, const char *type,
                             const char *body, const struct extra_header *extra, size_t n_extra)
{
    struct MHD_Response *resp = MHD_create_response_from_buffer(
        strlen(body), (void *)(uintptr_t)body, MHD_RESPMEM_MUST_COPY);
    if (resp == NULL)
        return MHD_NO;
    MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, type);
    for (size_t i = 0; i < n_extra; i++)
        if (extra[i].value != NULL)
            MHD_add_response_header(resp, extra[i].name, extra[i].value);
    enum MHD_Result ret = MHD_queue_response(conn, status, resp);
    MHD_destroy_response(resp);
    return ret;
}

/* A hub-style error: {"error": message} with X-Error-Code and X-Error-Message. */
static enum MHD_Result reply_error(struct MHD_Connection *conn, unsigned status, const char *code,
                                   const char *message)
{
    json_t *body = json_pack("{ss}", "error", message);
    char *text = body != NULL ? json_dumps(body, JSON_COMPACT) : NULL;
    json_decref(body);
    if (text == NULL)
        return MHD_NO;
    const struct extra_header extra[] = {{"X-Error-Code", code}, {"X-Error-Message", message}};
    enum MHD_Result ret = reply(conn, status, "application/json", text, extra, 2);
    free(text);
    return ret;
}

static enum MHD_Result reply_redirect(struct MHD_Connection *conn, const char *location)
{
    const struct extra_header extra[] = {{MHD_HTTP_HEADER_LOCATION, location}};
    return reply(conn, MHD_HTTP_FOUND, "text/plain", "Found. Redirecting\n", extra, 1);
}

/* ---- file bodies ---- */

enum source_kind { SOURCE_FILE, SOURCE_VIRTUAL, SOURCE_STREAM };

struct source {
    enum source_kind kind;
    int fd;     /* SOURCE_FILE */
    char *json; /* SOURCE_VIRTUAL: the header text as stored */
    size_t json_length;
    uint64_t total; /* the whole body's length */
    uint64_t start; /* the first byte this response sends */
};

static void source_free(void *cls)
{
    struct source *s = cls;
    if (s == NULL)
        return;
    if (s->fd >= 0)
        close(s->fd);
    free(s->json);
    free(s);
}

static ssize_t source_read(void *cls, uint64_t pos, char *buf, size_t max)
{
    struct source *s = cls;
    const uint64_t at = s->start + pos;
    if (at >= s->total)
        return MHD_CONTENT_READER_END_OF_STREAM;
    size_t n = s->total - at < max ? (size_t)(s->total - at) : max;
    if (s->kind == SOURCE_FILE) {
        ssize_t got = pread(s->fd, buf, n, (off_t)at);
        return got > 0 ? got : MHD_CONTENT_READER_END_WITH_ERROR;
    }
    if (s->kind == SOURCE_STREAM) {
        memset(buf, ' ', n);
        if (at == 0)
            buf[0] = '{';
        if (at + n == s->total)
            buf[n - 1] = '}';
        return (ssize_t)n;
    }
    for (size_t i = 0; i < n; i++) {
        const uint64_t k = at + i;
        if (k < 8)
            buf[i] = (char)(unsigned char)((uint64_t)s->json_length >> (8 * k));
        else if (k - 8 < s->json_length)
            buf[i] = s->json[k - 8];
        else
            buf[i] = 0;
    }
    return (ssize_t)n;
}

/* The text of a file (NUL-terminated), or NULL. */
static char *read_text(const char *path, size_t *length)
{
    char *text = NULL;
    FILE *fp = fopen(path, "rb");
    struct stat st;
    if (fp == NULL || fstat(fileno(fp), &st) != 0 || st.st_size < 0)
        goto out;
    text = malloc((size_t)st.st_size + 1);
    if (text == NULL)
        goto out;
    if (fread(text, 1, (size_t)st.st_size, fp) != (size_t)st.st_size) {
        free(text);
        text = NULL;
        goto out;
    }
    text[st.st_size] = '\0';
    *length = (size_t)st.st_size;
out:
    if (fp != NULL)
        fclose(fp);
    return text;
}

/* The largest data_offsets end of a safetensors header, or -1 when it is not one. */
static int64_t data_end(const char *text, size_t length)
{
    json_error_t jerr;
    json_t *root = json_loadb(text, length, 0, &jerr);
    int64_t end = json_is_object(root) ? 0 : -1;
    const char *key;
    json_t *value;
    json_object_foreach(root, key, value)
    {
        json_t *offsets = json_object_get(value, "data_offsets");
        json_int_t e = json_integer_value(json_array_get(offsets, 1));
        if (json_array_size(offsets) == 2 && e > end)
            end = e;
    }
    json_decref(root);
    return end;
}

static bool ends_with(const char *s, const char *suffix)
{
    const size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* A stored file, or the virtual X.safetensors; NULL when neither exists (*bad on a broken header).
 */
static struct source *source_open(const char *path, bool *bad)
{
    struct stat st;
    struct source *s = calloc(1, sizeof(*s));
    *bad = false;
    if (s == NULL)
        return NULL;
    s->fd = -1;
    if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
        s->kind = SOURCE_FILE;
        s->fd = open(path, O_RDONLY | O_CLOEXEC);
        s->total = (uint64_t)st.st_size;
        if (s->fd >= 0)
            return s;
        *bad = true;
        source_free(s);
        return NULL;
    }
    char header[FIXTURE_PATH_MAX];
    if (!ends_with(path, ".safetensors") ||
        snprintf(header, sizeof(header), "%s.header.json", path) >= (int)sizeof(header) ||
        stat(header, &st) != 0 || !S_ISREG(st.st_mode)) {
        source_free(s);
        return NULL;
    }
    s->kind = SOURCE_VIRTUAL;
    s->json = read_text(header, &s->json_length);
    const int64_t end = s->json != NULL ? data_end(s->json, s->json_length) : -1;
    if (end < 0) {
        *bad = true;
        source_free(s);
        return NULL;
    }
    s->total = 8 + (uint64_t)s->json_length + (uint64_t)end;
    return s;
}

enum range_kind { RANGE_NONE, RANGE_OK, RANGE_UNSATISFIABLE };

static bool parse_u64(const char *p, const char **end, uint64_t *out)
{
    if (*p < '0' || *p > '9')
        return false;
    uint64_t x = 0;
    for (; *p >= '0' && *p <= '9'; p++) {
        if (x > (UINT64_MAX - 9) / 10)
            return false;
        x = x * 10 + (uint64_t)(*p - '0');
    }
    *end = p;
    *out = x;
    return true;
}

/* "bytes=a-b", "bytes=a-" or "bytes=-n"; anything else (several ranges too) is ignored. */
static enum range_kind range_parse(const char *h, uint64_t total, uint64_t *a, uint64_t *b)
{
    const char *p = NULL;
    uint64_t x = 0, y = 0;
    if (h == NULL || strncmp(h, "bytes=", 6) != 0)
        return RANGE_NONE;
    h += 6;
    if (*h == '-') {
        if (!parse_u64(h + 1, &p, &y) || *p != '\0')
            return RANGE_NONE;
        if (y == 0 || total == 0)
            return RANGE_UNSATISFIABLE;
        *a = y >= total ? 0 : total - y;
        *b = total - 1;
        return RANGE_OK;
    }
    if (!parse_u64(h, &p, &x) || *p != '-')
        return RANGE_NONE;
    if (p[1] == '\0') {
        y = UINT64_MAX;
    } else if (!parse_u64(p + 1, &p, &y) || *p != '\0' || y < x) {
        return RANGE_NONE;
    }
    if (x >= total)
        return RANGE_UNSATISFIABLE;
    *a = x;
    *b = y >= total ? total - 1 : y;
    return RANGE_OK;
}

static enum MHD_Result reply_source(struct MHD_Connection *conn, struct source *s, const char *path,
                                    const char *commit, bool honour_range)
{
    uint64_t a = 0, b = 0;
    char text[128];
    const char *range = MHD_lookup_connection_value(conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_RANGE);
    enum range_kind kind = honour_range ? range_parse(range, s->total, &a, &b) : RANGE_NONE;
    if (kind == RANGE_UNSATISFIABLE) {
        snprintf(text, sizeof(text), "bytes */%llu", (unsigned long long)s->total);
        source_free(s);
        const struct extra_header extra[] = {{MHD_HTTP_HEADER_CONTENT_RANGE, text}};
        return reply(conn, MHD_HTTP_RANGE_NOT_SATISFIABLE, "text/plain", "", extra, 1);
    }
    if (kind == RANGE_NONE) {
        a = 0;
        b = s->total - 1;
    }
    s->start = a;
    const uint64_t size = s->total == 0 ? 0 : b - a + 1;
    struct MHD_Response *resp =
        MHD_create_response_from_callback(size, READ_BLOCK, source_read, s, source_free);
    if (resp == NULL) {
        source_free(s);
        return MHD_NO;
    }
    MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE,
                            ends_with(path, ".json") ? "application/json"
                                                     : "application/octet-stream");
    MHD_add_response_header(resp, MHD_HTTP_HEADER_ACCEPT_RANGES, "bytes");
    if (commit != NULL)
        MHD_add_response_header(resp, "X-Repo-Commit", commit);
    if (kind == RANGE_OK) {
        snprintf(text, sizeof(text), "bytes %llu-%llu/%llu", (unsigned long long)a,
                 (unsigned long long)b, (unsigned long long)s->total);
        MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_RANGE, text);
    }
    enum MHD_Result ret =
        MHD_queue_response(conn, kind == RANGE_OK ? MHD_HTTP_PARTIAL_CONTENT : MHD_HTTP_OK, resp);
    MHD_destroy_response(resp);
    return ret;
}

/* 20 MiB of "{", spaces and "}", sent chunked. */
static enum MHD_Result reply_oversized(struct MHD_Connection *conn)
{
    struct source *s = calloc(1, sizeof(*s));
    if (s == NULL)
        return MHD_NO;
    s->kind = SOURCE_STREAM;
    s->fd = -1;
    s->total = OVERSIZED_BYTES;
    struct MHD_Response *resp = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, READ_BLOCK,
                                                                  source_read, s, source_free);
    if (resp == NULL) {
        source_free(s);
        return MHD_NO;
    }
    MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, "application/json");
    enum MHD_Result ret = MHD_queue_response(conn, MHD_HTTP_OK, resp);
    MHD_destroy_response(resp);
    return ret;
}

/* ---- requests ---- */

/* One request, its path split: org, name, and the revision and file where the route has them. */
struct request {
    struct hub_fixture *f;
    struct MHD_Connection *conn;
    const char *url;
    bool api; /* /api/models/... (else resolve or cdn-files) */
    const char *org, *name, *revision, *file;
    bool authorized;
};

/* Parts of a relative path: none empty, "." or "..". */
static bool path_safe(const char *p)
{
    if (p == NULL || *p == '\0')
        return false;
    for (const char *s = p;;) {
        const char *slash = strchr(s, '/');
        const size_t n = slash != NULL ? (size_t)(slash - s) : strlen(s);
        if (n == 0 || (n == 1 && s[0] == '.') || (n == 2 && s[0] == '.' && s[1] == '.'))
            return false;
        if (slash == NULL)
            return true;
        s = slash + 1;
    }
}

/* Cuts the next "/"-terminated part off *rest. */
static char *next_part(char **rest)
{
    char *p = *rest;
    char *slash = p != NULL ? strchr(p, '/') : NULL;
    if (slash == NULL)
        return NULL;
    *slash = '\0';
    *rest = slash + 1;
    return p;
}

static bool repo_dir(const struct request *r, char *dir, size_t cap)
{
    struct stat st;
    return snprintf(dir, cap, "%s/%s/%s", r->f->root, r->org, r->name) < (int)cap &&
           stat(dir, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool revision_known(const struct request *r, char commit[41])
{
    char id[512];
    snprintf(id, sizeof(id), "%.200s/%.200s", r->org, r->name);
    hub_fixture_commit(id, commit);
    return strcmp(r->revision, "main") == 0 || strcmp(r->revision, commit) == 0;
}

/* The repository and revision exist; otherwise answers the hub's 404 into *ret. */
static bool repo_check(const struct request *r, char *dir, size_t cap, char commit[41],
                       enum MHD_Result *ret)
{
    if (!repo_dir(r, dir, cap)) {
        *ret = reply_error(r->conn, MHD_HTTP_NOT_FOUND, "RepoNotFound", "Repository not found");
        return false;
    }
    if (!revision_known(r, commit)) {
        *ret = reply_error(r->conn, MHD_HTTP_NOT_FOUND, "RevisionNotFound",
                           "Invalid rev id: the revision does not exist");
        return false;
    }
    return true;
}

struct names {
    char **v;
    size_t n, cap;
    bool failed;
};

static void names_add(struct names *names, const char *name)
{
    if (names->n == names->cap) {
        size_t next = names->cap ? 2 * names->cap : 32;
        char **grown = realloc(names->v, next * sizeof(*grown));
        if (grown == NULL) {
            names->failed = true;
            return;
        }
        names->v = grown;
        names->cap = next;
    }
    char *copy = strdup(name);
    if (copy == NULL)
        names->failed = true;
    else
        names->v[names->n++] = copy;
}

static void list_files(const char *dir, const char *rel, struct names *out)
{
    DIR *d = opendir(dir);
    if (d == NULL)
        return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        char path[FIXTURE_PATH_MAX], name[FIXTURE_PATH_MAX];
        struct stat st;
        if (snprintf(path, sizeof(path), "%s/%s", dir, e->d_name) >= (int)sizeof(path) ||
            snprintf(name, sizeof(name), "%s%s%s", rel, *rel ? "/" : "", e->d_name) >=
                (int)sizeof(name) ||
            stat(path, &st) != 0)
            continue;
        if (S_ISDIR(st.st_mode)) {
            list_files(path, name, out);
        } else if (S_ISREG(st.st_mode)) {
            if (ends_with(name, ".safetensors.header.json"))
                name[strlen(name) - strlen(".header.json")] = '\0';
            names_add(out, name);
        }
    }
    closedir(d);
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static enum MHD_Result answer_api(const struct request *r)
{
    char dir[FIXTURE_PATH_MAX], commit[41], id[512];
    enum MHD_Result ret = MHD_NO;
    if (!repo_check(r, dir, sizeof(dir), commit, &ret))
        return ret;
    struct names names = {0};
    list_files(dir, "", &names);
    if (names.n > 0)
        qsort(names.v, names.n, sizeof(*names.v), compare_names);
    snprintf(id, sizeof(id), "%.200s/%.200s", r->org, r->name);
    json_t *siblings = json_array();
    for (size_t i = 0; i < names.n; i++)
        if (i == 0 || strcmp(names.v[i], names.v[i - 1]) != 0)
            json_array_append_new(siblings, json_pack("{ss}", "rfilename", names.v[i]));
    json_t *body = json_pack("{sssssssbso}", "id", id, "modelId", id, "sha", commit, "private", 0,
                             "siblings", siblings);
    char *text = body != NULL && !names.failed ? json_dumps(body, JSON_COMPACT) : NULL;
    if (text != NULL)
        ret = reply(r->conn, MHD_HTTP_OK, "application/json", text, NULL, 0);
    free(text);
    json_decref(body);
    for (size_t i = 0; i < names.n; i++)
        free(names.v[i]);
    free(names.v);
    return ret;
}

static enum MHD_Result answer_file(const struct request *r, const char *dir, const char *commit,
                                   bool honour_range)
{
    char path[FIXTURE_PATH_MAX];
    bool bad = false;
    if (!path_safe(r->file) ||
        snprintf(path, sizeof(path), "%s/%s", dir, r->file) >= (int)sizeof(path))
        return reply_error(r->conn, MHD_HTTP_NOT_FOUND, "EntryNotFound", "Entry not found");
    struct source *s = source_open(path, &bad);
    if (s == NULL && bad)
        return reply(r->conn, MHD_HTTP_INTERNAL_SERVER_ERROR, "text/plain",
                     "the fixture could not read the file\n", NULL, 0);
    if (s == NULL)
        return reply_error(r->conn, MHD_HTTP_NOT_FOUND, "EntryNotFound", "Entry not found");
    return reply_source(r->conn, s, r->file, commit, honour_range);
}

static enum MHD_Result answer_resolve(const struct request *r, bool honour_range)
{
    char dir[FIXTURE_PATH_MAX], commit[41];
    enum MHD_Result ret = MHD_NO;
    if (!repo_check(r, dir, sizeof(dir), commit, &ret))
        return ret;
    return answer_file(r, dir, commit, honour_range);
}

static void slow_wait(struct hub_fixture *f)
{
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += SLOW_WAIT_S;
    pthread_mutex_lock(&f->lock);
    while (!f->stopping)
        if (pthread_cond_timedwait(&f->wake, &f->lock, &until) == ETIMEDOUT)
            break;
    pthread_mutex_unlock(&f->lock);
}

/* The behaviour of the request's organisation; false when it has none here. */
static bool behaviour(const struct request *r, enum MHD_Result *ret)
{
    char location[FIXTURE_PATH_MAX + 64], message[512];
    const char *org = r->org;
    if (strcmp(org, "gated") == 0 || strcmp(org, "forbidden") == 0) {
        const bool gated = org[0] == 'g';
        if (gated)
            snprintf(message, sizeof(message),
                     "Access to model %.100s/%.100s is restricted. You must have access to it and be "
                     "authenticated to access it. Please log in.",
                     r->org, r->name);
        else
            snprintf(message, sizeof(message),
                     "Access to model %.80s/%.80s is restricted and you are not in the authorized "
                     "list. Visit https://huggingface.co/%.80s/%.80s to ask for access.",
                     r->org, r->name, r->org, r->name);
        *ret = reply_error(r->conn, gated ? MHD_HTTP_UNAUTHORIZED : MHD_HTTP_FORBIDDEN, "GatedRepo",
                           message);
    } else if (strcmp(org, "private") == 0) {
        *ret = reply_error(r->conn, r->authorized ? MHD_HTTP_NOT_FOUND : MHD_HTTP_UNAUTHORIZED,
                           "RepoNotFound", "Repository not found");
    } else if (strcmp(org, "flaky") == 0) {
        *ret = reply(r->conn, MHD_HTTP_SERVICE_UNAVAILABLE, "text/plain", "Service Unavailable\n",
                     NULL, 0);
    } else if (strcmp(org, "redirect-out") == 0) {
        snprintf(location, sizeof(location), "http://127.0.0.2:%u%s", (unsigned)r->f->port, r->url);
        *ret = reply_redirect(r->conn, location);
    } else if (strcmp(org, "loop") == 0) {
        *ret = reply_redirect(r->conn, r->url);
    } else if (strcmp(org, "cdn") == 0 && !r->api) {
        snprintf(location, sizeof(location), "http://localhost:%u/cdn-files/%s/%s/%s",
                 (unsigned)r->f->port, r->org, r->name, r->file);
        *ret = reply_redirect(r->conn, location);
    } else if (strcmp(org, "oversized") == 0 && !r->api && strcmp(r->file, "config.json") == 0) {
        *ret = reply_oversized(r->conn);
    } else if (strcmp(org, "badjson") == 0 && r->api) {
        *ret = reply(r->conn, MHD_HTTP_OK, "application/json",
                     "{\"sha\": \"0123456789abcdef\", \"siblings\": [{\"rfilename\": ", NULL, 0);
    } else if (strcmp(org, "norange") == 0 && !r->api) {
        *ret = answer_resolve(r, false);
    } else {
        return false;
    }
    return true;
}

static enum MHD_Result route(struct request *r, char *path)
{
    char *rest = NULL;
    enum MHD_Result ret = MHD_NO;
    bool cdn = false;
    if (strncmp(path, "/api/models/", 12) == 0) {
        rest = path + 12;
        r->api = true;
    } else if (strncmp(path, "/cdn-files/", 11) == 0) {
        rest = path + 11;
        cdn = true;
    } else {
        rest = path + 1;
    }
    r->org = next_part(&rest);
    char *name_end = rest != NULL ? strchr(rest, '/') : NULL;
    r->name = rest;
    if (r->org == NULL || name_end == NULL || !path_safe(r->org) || strchr(r->org, '/') != NULL)
        return reply(r->conn, MHD_HTTP_NOT_FOUND, "text/plain", "no such path\n", NULL, 0);
    *name_end = '\0';
    rest = name_end + 1;
    if (!path_safe(r->name))
        return reply(r->conn, MHD_HTTP_NOT_FOUND, "text/plain", "no such path\n", NULL, 0);
    if (cdn) {
        char dir[FIXTURE_PATH_MAX];
        r->file = rest;
        if (!repo_dir(r, dir, sizeof(dir)))
            return reply_error(r->conn, MHD_HTTP_NOT_FOUND, "RepoNotFound", "Repository not found");
        return answer_file(r, dir, NULL, true);
    }
    const char *verb = next_part(&rest);
    if (r->api) {
        if (verb == NULL || strcmp(verb, "revision") != 0 || *rest == '\0')
            return reply(r->conn, MHD_HTTP_NOT_FOUND, "text/plain", "no such path\n", NULL, 0);
        r->revision = rest;
    } else {
        r->revision = next_part(&rest);
        if (verb == NULL || strcmp(verb, "resolve") != 0 || r->revision == NULL || *rest == '\0')
            return reply(r->conn, MHD_HTTP_NOT_FOUND, "text/plain", "no such path\n", NULL, 0);
        r->file = rest;
    }
    if (strcmp(r->org, "slow") == 0)
        slow_wait(r->f);
    if (behaviour(r, &ret))
        return ret;
    return r->api ? answer_api(r) : answer_resolve(r, true);
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *conn, const char *url,
                                  const char *method, const char *version, const char *upload_data,
                                  size_t *upload_data_size, void **con_cls)
{
    static int
        seen_headers; /* a marker, never written: *con_cls points at it after the first call */
    struct hub_fixture *f = cls;
    (void)version;
    (void)upload_data;
    if (*con_cls == NULL) {
        /* the headers only: answering now would make MHD close the connection */
        *con_cls = &seen_headers;
        return MHD_YES;
    }
    if (*upload_data_size > 0) {
        *upload_data_size = 0; /* a body is read and dropped; the answer comes at the end */
        return MHD_YES;
    }
    const char *auth =
        MHD_lookup_connection_value(conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_AUTHORIZATION);
    count_hit(f, url, auth != NULL);
    if (strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0) {
        const struct extra_header extra[] = {{MHD_HTTP_HEADER_ALLOW, "GET, HEAD"}};
        return reply(conn, MHD_HTTP_METHOD_NOT_ALLOWED, "text/plain", "", extra, 1);
    }
    char path[FIXTURE_PATH_MAX];
    if (snprintf(path, sizeof(path), "%s", url) >= (int)sizeof(path) || path[0] != '/')
        return reply(conn, MHD_HTTP_NOT_FOUND, "text/plain", "no such path\n", NULL, 0);
    struct request r = {.f = f, .conn = conn, .url = url, .authorized = auth != NULL};
    return route(&r, path);
}

/* ---- the daemon ---- */

int hub_fixture_start(const char *root, struct hub_fixture **out)
{
    struct sockaddr_in addr;
    struct hub_fixture *f = calloc(1, sizeof(*f));
    *out = NULL;
    if (f == NULL)
        return -1;
    f->root = strdup(root);
    if (f->root == NULL || pthread_mutex_init(&f->lock, NULL) != 0) {
        free(f->root);
        free(f);
        return -1;
    }
    if (pthread_cond_init(&f->wake, NULL) != 0) {
        pthread_mutex_destroy(&f->lock);
        free(f->root);
        free(f);
        return -1;
    }
    memset(&addr, 0, sizeof(addr));
    addr.sin_family = AF_INET;
    addr.sin_port = 0;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    f->daemon =
        MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_THREAD_PER_CONNECTION, 0, NULL,
                         NULL, &on_request, f, MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&addr,
                         MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)30, MHD_OPTION_END);
    const union MHD_DaemonInfo *info =
        f->daemon != NULL ? MHD_get_daemon_info(f->daemon, MHD_DAEMON_INFO_BIND_PORT) : NULL;
    if (info == NULL || info->port == 0) {
        hub_fixture_stop(f);
        return -1;
    }
    f->port = info->port;
    snprintf(f->url, sizeof(f->url), "http://127.0.0.1:%u", (unsigned)f->port);
    *out = f;
    return 0;
}

void hub_fixture_stop(struct hub_fixture *f)
{
    if (f == NULL)
        return;
    pthread_mutex_lock(&f->lock);
    f->stopping = true;
    pthread_cond_broadcast(&f->wake);
    pthread_mutex_unlock(&f->lock);
    if (f->daemon != NULL)
        MHD_stop_daemon(f->daemon);
    hub_fixture_reset_hits(f);
    free(f->hits);
    pthread_cond_destroy(&f->wake);
    pthread_mutex_destroy(&f->lock);
    free(f->root);
    free(f);
}

uint16_t hub_fixture_port(const struct hub_fixture *f)
{
    return f->port;
}

const char *hub_fixture_url(const struct hub_fixture *f)
{
    return f->url;
}
