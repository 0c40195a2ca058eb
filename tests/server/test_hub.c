/*
 * test_hub.c - the hub client (server/hub/hub.h) against the fixture hub
 * (tests/support/hub_fixture.h) on 127.0.0.1: repository information,
 * whole and ranged fetches, caps, gated and missing repositories, timeouts,
 * redirects (refused, allowlisted, looping) and where the token goes,
 * upstream errors, malformed bodies, validation, the environment, and
 * concurrent calls.
 */
#define _GNU_SOURCE /* nftw */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "hub/hub.h"
#include "hub_fixture.h"

#include <errno.h>
#include <ftw.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define TINY     "fixture-tests/tiny"
#define TINY_SHA "9064213e69f601dd698f99c21d9532e2b4913394" /* sha1sum of "fixture-tests/tiny" */
#define TINY_DIR GS_HUB_FIXTURES "/fixture-tests/tiny"
#define TOKEN    "hf_fixtureSECRETtoken0123456789"

/* The fixture over the tree, and one over a temporary root holding cdn/ and norange/ repositories.
 */
static struct hub_fixture *hub;
static struct hub_fixture *scratch;
static char scratch_root[64];

static const char scratch_config[] = "{\"model_type\": \"llama\", \"hidden_size\": 8}\n";

static char *read_file(const char *path, size_t *length)
{
    FILE *fp = fopen(path, "rb");
    assert_non_null(fp);
    char *text = calloc(1, 1 << 16);
    assert_non_null(text);
    *length = fread(text, 1, (1 << 16) - 1, fp);
    fclose(fp);
    return text;
}

static void write_file(const char *path, const char *text, size_t length)
{
    FILE *fp = fopen(path, "wb");
    assert_non_null(fp);
    assert_int_equal(fwrite(text, 1, length, fp), length);
    fclose(fp);
}

/* Writes <scratch_root>/<rel>, making its directories. */
static void scratch_put(const char *rel, const char *text, size_t length)
{
    char path[512];
    snprintf(path, sizeof(path), "%s/%s", scratch_root, rel);
    for (char *p = path + strlen(scratch_root) + 1; (p = strchr(p, '/')) != NULL; p++) {
        *p = '\0';
        assert_true(mkdir(path, 0700) == 0 || errno == EEXIST);
        *p = '/';
    }
    write_file(path, text, length);
}

#define MIRROR_API "mirror/tiny/api/models/a/"

static void scratch_make(void)
{
    size_t header_length = 0;
    char *header = read_file(TINY_DIR "/model.safetensors.header.json", &header_length);
    snprintf(scratch_root, sizeof(scratch_root), "/tmp/gs-hub-XXXXXX");
    assert_non_null(mkdtemp(scratch_root));
    scratch_put("cdn/tiny/config.json", scratch_config, strlen(scratch_config));
    scratch_put("cdn/tiny/model.safetensors.header.json", header, header_length);
    scratch_put("norange/tiny/config.json", scratch_config, strlen(scratch_config));
    scratch_put("norange/tiny/model.safetensors.header.json", header, header_length);
    /* a hub under a path prefix whose api answers are stored files: {base}/mirror/tiny/resolve/main
     */
    const char *answers[][2] = {
        {MIRROR_API "ok/revision/main",
         "{\"sha\": \"ABCDEF0123456789ABCDEF0123456789ABCDEF01\", \"siblings\": "
         "[{\"rfilename\": \"config.json\"}, {\"rfilename\": \"a/b.safetensors\"}]}"},
        {MIRROR_API "ok/revision/" TINY_SHA,
         "{\"sha\": \"abcdef0123456789abcdef0123456789abcdef01\", \"siblings\": []}"},
        {MIRROR_API "nosha/revision/main", "{\"id\": \"a/nosha\", \"siblings\": []}"},
        {MIRROR_API "badsha/revision/main", "{\"sha\": \"xyz\", \"siblings\": []}"},
        {MIRROR_API "nosiblings/revision/main",
         "{\"sha\": \"abcdef0123456789abcdef0123456789abcdef01\"}"},
        {MIRROR_API "badsibling/revision/main",
         "{\"sha\": \"abcdef0123456789abcdef0123456789abcdef01\", \"siblings\": [{\"name\": 1}]}"},
        {MIRROR_API "array/revision/main", "[1, 2]"},
    };
    for (size_t i = 0; i < sizeof(answers) / sizeof(answers[0]); i++)
        scratch_put(answers[i][0], answers[i][1], strlen(answers[i][1]));
    /* one file over HUB_FILES_MAX */
    size_t cap = 64 * (HUB_FILES_MAX + 2), n = 0;
    char *many = malloc(cap);
    assert_non_null(many);
    n +=
        (size_t)snprintf(many + n, cap - n,
                         "{\"sha\": \"abcdef0123456789abcdef0123456789abcdef01\", \"siblings\": [");
    for (int i = 0; i <= HUB_FILES_MAX; i++)
        n +=
            (size_t)snprintf(many + n, cap - n, "%s{\"rfilename\": \"f%d.json\"}", i ? "," : "", i);
    n += (size_t)snprintf(many + n, cap - n, "]}");
    scratch_put(MIRROR_API "many/revision/main", many, n);
    free(many);
    free(header);
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(path);
}

static void scratch_remove(void)
{
    nftw(scratch_root, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static int setup_group(void **state)
{
    (void)state;
    setenv("no_proxy", "*", 1); /* the tests talk to 127.0.0.1 and localhost only */
    unsetenv("http_proxy");
    unsetenv("https_proxy");
    unsetenv("all_proxy");
    unsetenv("ALL_PROXY");
    if (!hub_global_init())
        return -1;
    scratch_make();
    if (hub_fixture_start(GS_HUB_FIXTURES, &hub) != 0)
        return -1;
    return hub_fixture_start(scratch_root, &scratch);
}

static int teardown_group(void **state)
{
    (void)state;
    hub_fixture_stop(hub);
    hub_fixture_stop(scratch);
    scratch_remove();
    hub_thread_release();
    return 0;
}

/* A config for `f`: its URL, no token, short timeouts, no redirect hosts. */
static struct hub_config config_for(const struct hub_fixture *f)
{
    struct hub_config c;
    hub_config_defaults(&c);
    snprintf(c.base_url, sizeof(c.base_url), "%s", hub_fixture_url(f));
    c.connect_timeout_ms = 2000;
    c.total_timeout_ms = 10000;
    c.redirect_host_count = 0;
    return c;
}

static long now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void test_validation(void **state)
{
    (void)state;
    const char *good_ids[] = {"meta-llama/Llama-3.1-8B-Instruct",
                              "Qwen/Qwen3-30B-A3B-FP8",
                              "openai/gpt-oss-20b",
                              "a/b",
                              "google/gemma-3-27b-it",
                              "mistralai/Mistral-7B-v0.1",
                              "org_x/name_y"};
    for (size_t i = 0; i < sizeof(good_ids) / sizeof(good_ids[0]); i++)
        assert_true(hub_id_valid(good_ids[i]));
    const char *bad_ids[] = {"../x",  "a/b/c",  "a",          "a/..",   "a/b?x",  "a b/c",
                             "a/b c", "a/%2e",  "%2e/b",      "/a/b",   "a/b/",   "",
                             "a/.b",  "a/b.",   "-a/b",       "a/b-",   "a/x..y", "a//b",
                             "a/b#c", "a/b\\c", "a/\xc3\xa9", "a/b\nc", ".a/b"};
    for (size_t i = 0; i < sizeof(bad_ids) / sizeof(bad_ids[0]); i++)
        assert_false(hub_id_valid(bad_ids[i]));
    assert_false(hub_id_valid(NULL));
    char long_part[100];
    memset(long_part, 'x', 97);
    long_part[97] = '\0';
    char id[210];
    snprintf(id, sizeof(id), "org/%s", long_part);
    assert_false(hub_id_valid(id));
    long_part[96] = '\0';
    snprintf(id, sizeof(id), "org/%s", long_part);
    assert_true(hub_id_valid(id));

    const char *good_revs[] = {"main",           "v1.0",
                               "refs/pr/1",      "refs/convert/parquet",
                               TINY_SHA,         "0123456789ABCDEF0123456789abcdef01234567",
                               "release_2024-01"};
    for (size_t i = 0; i < sizeof(good_revs) / sizeof(good_revs[0]); i++)
        assert_true(hub_revision_valid(good_revs[i]));
    const char *bad_revs[] = {"",       "../main", "a/../b", "/main", "main/",   "a//b", ".",
                              "./main", "a/./b",   "a/.",    "ma in", "a?b",     "a#b",  "%2e%2e",
                              "a\\b",   "a:b",     "main\n", "a@{1}", "\xc3\xa9"};
    for (size_t i = 0; i < sizeof(bad_revs) / sizeof(bad_revs[0]); i++)
        assert_false(hub_revision_valid(bad_revs[i]));
    assert_false(hub_revision_valid(NULL));
    char long_rev[140];
    memset(long_rev, 'r', 129);
    long_rev[129] = '\0';
    assert_false(hub_revision_valid(long_rev));

    const char *good_files[] = {"config.json", "original/params.json",
                                "model-00001-of-00004.safetensors", "x/y/z.gguf", ".gitattributes"};
    for (size_t i = 0; i < sizeof(good_files) / sizeof(good_files[0]); i++)
        assert_true(hub_file_valid(good_files[i]));
    const char *bad_files[] = {"",    "/etc/passwd", "../x", "a/../b",   "a//b", "a/",  "./a",
                               "a b", "a?b",         "a#b",  "%2e%2e/x", "a\\b", "a\nb"};
    for (size_t i = 0; i < sizeof(bad_files) / sizeof(bad_files[0]); i++)
        assert_false(hub_file_valid(bad_files[i]));
}

static void test_urls(void **state)
{
    (void)state;
    struct hub_config c;
    char url[512];
    hub_config_defaults(&c);
    hub_file_url(&c, "Qwen/Qwen3-30B-A3B-FP8", "main", "config.json", url, sizeof(url));
    assert_string_equal(url,
                        "https://huggingface.co/Qwen/Qwen3-30B-A3B-FP8/resolve/main/config.json");
    hub_file_url(&c, "org/name", "refs/pr/1", "original/params.json", url, sizeof(url));
    assert_string_equal(
        url, "https://huggingface.co/org/name/resolve/refs%2Fpr%2F1/original/params.json");
    hub_file_url(&c, "org/name", "refs/pr/1", NULL, url, sizeof(url));
    assert_string_equal(url, "https://huggingface.co/api/models/org/name/revision/refs%2Fpr%2F1");
    hub_file_url(&c, "org/name", "main", "a(1)+b.json", url, sizeof(url));
    assert_string_equal(url, "https://huggingface.co/org/name/resolve/main/a%281%29%2Bb.json");
    snprintf(c.base_url, sizeof(c.base_url), "http://127.0.0.1:9/hub/");
    hub_file_url(&c, "org/name", "main", "config.json", url, sizeof(url));
    assert_string_equal(url, "http://127.0.0.1:9/hub/org/name/resolve/main/config.json");
    hub_config_defaults(&c);
    hub_file_url(&c, "../x", "main", "config.json", url, sizeof(url));
    assert_string_equal(url, "");
    hub_file_url(&c, "org/name", "main", "config.json", url, 20);
    assert_string_equal(url, "");
    /* a token never appears in a URL */
    snprintf(c.token, sizeof(c.token), "%s", TOKEN);
    hub_file_url(&c, "org/name", "main", "config.json", url, sizeof(url));
    assert_null(strstr(url, TOKEN));
}

static void clear_env(void)
{
    const char *names[] = {"GPUSIZER_HUB_URL",
                           "GPUSIZER_HUB_TOKEN",
                           "HF_TOKEN",
                           "GPUSIZER_HUB_CONNECT_TIMEOUT_MS",
                           "GPUSIZER_HUB_TIMEOUT_MS",
                           "GPUSIZER_HUB_MAX_JSON_BYTES",
                           "GPUSIZER_HUB_MAX_HEADER_BYTES",
                           "GPUSIZER_HUB_REDIRECT_HOSTS"};
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        unsetenv(names[i]);
}

static void test_config_env(void **state)
{
    (void)state;
    struct hub_config c;
    clear_env();
    hub_config_defaults(&c);
    hub_config_from_env(&c);
    assert_string_equal(c.base_url, "https://huggingface.co");
    assert_string_equal(c.token, "");
    assert_int_equal(c.connect_timeout_ms, 5000);
    assert_int_equal(c.total_timeout_ms, 30000);
    assert_int_equal(c.max_json_bytes, 8u << 20);
    assert_int_equal(c.max_header_bytes, 64u << 20);
    assert_int_equal(c.redirect_host_count, 4);
    assert_string_equal(c.redirect_hosts[0], "cdn-lfs.huggingface.co");
    assert_string_equal(c.redirect_hosts[3], "cas-bridge.xethub.hf.co");

    setenv("GPUSIZER_HUB_URL", "http://127.0.0.1:8999/mirror//", 1);
    setenv("HF_TOKEN", "hf_fromHF", 1);
    setenv("GPUSIZER_HUB_CONNECT_TIMEOUT_MS", "250", 1);
    setenv("GPUSIZER_HUB_TIMEOUT_MS", "1500", 1);
    setenv("GPUSIZER_HUB_MAX_JSON_BYTES", "1048576", 1);
    setenv("GPUSIZER_HUB_MAX_HEADER_BYTES", "2097152", 1);
    setenv("GPUSIZER_HUB_REDIRECT_HOSTS", " LocalHost , cdn.example.org,[::1]", 1);
    hub_config_defaults(&c);
    hub_config_from_env(&c);
    assert_string_equal(c.base_url, "http://127.0.0.1:8999/mirror");
    assert_string_equal(c.token, "hf_fromHF");
    assert_int_equal(c.connect_timeout_ms, 250);
    assert_int_equal(c.total_timeout_ms, 1500);
    assert_int_equal(c.max_json_bytes, 1048576);
    assert_int_equal(c.max_header_bytes, 2097152);
    assert_int_equal(c.redirect_host_count, 3);
    assert_string_equal(c.redirect_hosts[0], "localhost");
    assert_string_equal(c.redirect_hosts[1], "cdn.example.org");
    assert_string_equal(c.redirect_hosts[2], "[::1]");

    /* GPUSIZER_HUB_TOKEN wins over HF_TOKEN; an empty one falls back */
    setenv("GPUSIZER_HUB_TOKEN", "hf_fromGPUSIZER", 1);
    hub_config_from_env(&c);
    assert_string_equal(c.token, "hf_fromGPUSIZER");
    setenv("GPUSIZER_HUB_TOKEN", "", 1);
    hub_config_from_env(&c);
    assert_string_equal(c.token, "hf_fromHF");

    /* invalid values are ignored: the defaults stay */
    const char *bad_urls[] = {"ftp://example.org",
                              "https://user:pw@example.org",
                              "https://user@example.org",
                              "https://example.org/?x=1",
                              "https://example.org/#f",
                              "example.org",
                              "https://",
                              "http:///x",
                              "https://exa mple.org",
                              "file:///etc/passwd",
                              "https://example.org:99999"};
    for (size_t i = 0; i < sizeof(bad_urls) / sizeof(bad_urls[0]); i++) {
        clear_env();
        setenv("GPUSIZER_HUB_URL", bad_urls[i], 1);
        hub_config_defaults(&c);
        hub_config_from_env(&c);
        assert_string_equal(c.base_url, "https://huggingface.co");
    }
    clear_env();
    setenv("GPUSIZER_HUB_TOKEN", "hf_bad\r\nX-Injected: 1", 1);
    setenv("GPUSIZER_HUB_CONNECT_TIMEOUT_MS", "-5", 1);
    setenv("GPUSIZER_HUB_TIMEOUT_MS", "12abc", 1);
    setenv("GPUSIZER_HUB_MAX_JSON_BYTES", "0", 1);
    setenv("GPUSIZER_HUB_MAX_HEADER_BYTES", "99999999999999999999999", 1);
    setenv("GPUSIZER_HUB_REDIRECT_HOSTS", "good.example.org,bad host", 1);
    hub_config_defaults(&c);
    hub_config_from_env(&c);
    assert_string_equal(c.token, "");
    assert_int_equal(c.connect_timeout_ms, 5000);
    assert_int_equal(c.total_timeout_ms, 30000);
    assert_int_equal(c.max_json_bytes, 8u << 20);
    assert_int_equal(c.max_header_bytes, 64u << 20);
    assert_int_equal(c.redirect_host_count, 4);
    /* an empty list allows no other host */
    setenv("GPUSIZER_HUB_REDIRECT_HOSTS", "", 1);
    hub_config_from_env(&c);
    assert_int_equal(c.redirect_host_count, 0);
    clear_env();
}

static void test_repo_info(void **state)
{
    (void)state;
    struct hub_config c = config_for(hub);
    struct hub_repo repo;
    struct hub_result res;
    const char *revisions[] = {"main", TINY_SHA};
    for (size_t k = 0; k < 2; k++) {
        assert_int_equal(hub_repo_info(&c, TINY, revisions[k], &repo, &res), HUB_OK);
        assert_int_equal(res.outcome, HUB_OK);
        assert_int_equal(res.upstream_status, 200);
        assert_string_equal(repo.sha, TINY_SHA);
        assert_int_equal(repo.file_count, 3);
        assert_string_equal(repo.files[0], "config.json");
        assert_string_equal(repo.files[1], "model.safetensors");
        assert_string_equal(repo.files[2], "original/params.json");
        hub_repo_free(&repo);
        assert_null(repo.files);
        assert_int_equal(repo.file_count, 0);
    }
    /* the fixture's SHA-1 against sha1sum */
    char commit[41];
    hub_fixture_commit(TINY, commit);
    assert_string_equal(commit, TINY_SHA);
    hub_fixture_commit("", commit);
    assert_string_equal(commit, "da39a3ee5e6b4b0d3255bfef95601890afd80709");
    hub_fixture_commit("The quick brown fox jumps over the lazy dog", commit);
    assert_string_equal(commit, "2fd4e1c67a2d28fced849ee1bb76e7391b93eb12");
    /* no token configured: none is sent */
    assert_int_equal(hub_fixture_auth_hits(hub, "/api/models/" TINY "/revision/main"), 0);
}

static void test_fetch_config(void **state)
{
    (void)state;
    struct hub_config c = config_for(hub);
    struct hub_result res;
    struct buf out = {0};
    size_t length = 0;
    char *expected = read_file(TINY_DIR "/config.json", &length);
    buf_put(&out, "prefix:", 7);
    assert_int_equal(hub_fetch(&c, TINY, "main", "config.json", 0, 0, 0, &out, &res), HUB_OK);
    assert_int_equal(res.upstream_status, 200);
    assert_int_equal(out.length, 7 + length);
    assert_memory_equal(out.data, "prefix:", 7);
    assert_memory_equal(out.data + 7, expected, length);
    /* a nested file, at the commit */
    out.length = 0;
    assert_int_equal(hub_fetch(&c, TINY, TINY_SHA, "original/params.json", 0, 0, 0, &out, &res),
                     HUB_OK);
    assert_string_equal(out.data, "{\"dim\": 8, \"n_layers\": 1}\n");
    assert_int_equal(hub_fixture_hits(hub, "/" TINY "/resolve/main/config.json"), 1);
    free(out.data);
    free(expected);
}

static uint64_t le64(const unsigned char *p)
{
    uint64_t x = 0;
    for (int i = 7; i >= 0; i--)
        x = x << 8 | p[i];
    return x;
}

/* The first 8 bytes of the virtual safetensors, then its header by that length, then tail bytes. */
static void check_safetensors(const struct hub_config *c, const char *id)
{
    struct hub_result res;
    struct buf out = {0};
    size_t length = 0;
    char *header = read_file(TINY_DIR "/model.safetensors.header.json", &length);
    assert_int_equal(hub_fetch(c, id, "main", "model.safetensors", 0, 8, 0, &out, &res), HUB_OK);
    assert_int_equal(out.length, 8);
    const uint64_t n = le64((const unsigned char *)out.data);
    assert_int_equal(n, length);
    out.length = 0;
    assert_int_equal(hub_fetch(c, id, "main", "model.safetensors", 8, n, 1 << 20, &out, &res),
                     HUB_OK);
    assert_int_equal(out.length, length);
    assert_memory_equal(out.data, header, length);
    /* the data is zeros, up to data_offsets' largest end (272) */
    out.length = 0;
    assert_int_equal(hub_fetch(c, id, "main", "model.safetensors", 8 + n + 256, 64, 0, &out, &res),
                     HUB_OK);
    assert_int_equal(out.length, 16); /* the file ends inside the range */
    for (size_t i = 0; i < out.length; i++)
        assert_int_equal(out.data[i], 0);
    free(out.data);
    free(header);
}

static void test_range_safetensors(void **state)
{
    (void)state;
    struct hub_config c = config_for(hub);
    struct hub_result res;
    struct buf out = {0};
    check_safetensors(&c, TINY);
    /* a range past the end: 416, an upstream error, and `out` untouched */
    buf_put(&out, "keep", 4);
    assert_int_equal(hub_fetch(&c, TINY, "main", "model.safetensors", 100000, 8, 0, &out, &res),
                     HUB_UPSTREAM);
    assert_int_equal(res.upstream_status, 416);
    assert_int_equal(out.length, 4);
    assert_string_equal(out.data, "keep");
    free(out.data);
}

static void test_range_ignored(void **state)
{
    (void)state;
    /* norange/ answers 200 with the whole file: skipped and cut by the client */
    struct hub_config c = config_for(scratch);
    check_safetensors(&c, "norange/tiny");
    /* reading up to the range would pass the cap */
    struct hub_result res;
    struct buf out = {0};
    assert_int_equal(
        hub_fetch(&c, "norange/tiny", "main", "model.safetensors", 300, 100, 200, &out, &res),
        HUB_TOO_LARGE);
    assert_int_equal(out.length, 0);
    free(out.data);
}

static void test_too_large(void **state)
{
    (void)state;
    struct hub_config c = config_for(hub);
    struct hub_result res;
    struct buf out = {0};
    const long t0 = now_ms();
    assert_int_equal(
        hub_fetch(&c, "oversized/model", "main", "config.json", 0, 0, 1 << 20, &out, &res),
        HUB_TOO_LARGE);
    assert_true(now_ms() - t0 < 5000);
    assert_int_equal(res.upstream_status, 200);
    assert_int_equal(out.length, 0);
    assert_non_null(strstr(res.detail, "1048576"));
    /* the config's cap when `cap` is 0 */
    c.max_json_bytes = 100;
    assert_int_equal(hub_fetch(&c, TINY, "main", "config.json", 0, 0, 0, &out, &res),
                     HUB_TOO_LARGE);
    assert_int_equal(out.length, 0);
    /* exactly at the cap is fine */
    size_t length = 0;
    free(read_file(TINY_DIR "/config.json", &length));
    assert_int_equal(hub_fetch(&c, TINY, "main", "config.json", 0, 0, length, &out, &res), HUB_OK);
    assert_int_equal(out.length, length);
    out.length = 0;
    assert_int_equal(hub_fetch(&c, TINY, "main", "config.json", 0, 0, length - 1, &out, &res),
                     HUB_TOO_LARGE);
    /* a range over the cap is refused without asking */
    c.max_header_bytes = 64;
    hub_fixture_reset_hits(hub);
    assert_int_equal(hub_fetch(&c, TINY, "main", "model.safetensors", 8, 65, 0, &out, &res),
                     HUB_TOO_LARGE);
    assert_int_equal(res.upstream_status, 0);
    assert_int_equal(hub_fixture_hits(hub, "/" TINY "/resolve/main/model.safetensors"), 0);
    /* repository information over its cap */
    c.max_json_bytes = 16;
    struct hub_repo repo;
    assert_int_equal(hub_repo_info(&c, TINY, "main", &repo, &res), HUB_TOO_LARGE);
    assert_null(repo.files);
    free(out.data);
}

static void check_gated_detail(const struct hub_result *res)
{
    assert_non_null(strstr(res->detail, "GPUSIZER_HUB_TOKEN"));
    assert_non_null(strstr(res->detail, "HF_TOKEN"));
    assert_null(strstr(res->detail, TOKEN));
    assert_null(strstr(res->detail, "SECRET"));
}

static void test_gated(void **state)
{
    (void)state;
    struct hub_config c = config_for(hub);
    struct hub_result res;
    struct hub_repo repo;
    struct buf out = {0};
    snprintf(c.token, sizeof(c.token), "%s", TOKEN);
    assert_int_equal(hub_repo_info(&c, "gated/model", "main", &repo, &res), HUB_GATED);
    assert_int_equal(res.upstream_status, 401);
    check_gated_detail(&res);
    assert_int_equal(hub_fetch(&c, "gated/model", "main", "config.json", 0, 0, 0, &out, &res),
                     HUB_GATED);
    assert_int_equal(res.upstream_status, 401);
    check_gated_detail(&res);
    assert_int_equal(hub_repo_info(&c, "forbidden/model", "main", &repo, &res), HUB_GATED);
    assert_int_equal(res.upstream_status, 403);
    check_gated_detail(&res);
    assert_int_equal(
        hub_fetch(&c, "forbidden/model", "main", "model.safetensors", 0, 8, 0, &out, &res),
        HUB_GATED);
    assert_int_equal(res.upstream_status, 403);
    check_gated_detail(&res);
    /* the token went to the hub's own host */
    assert_int_equal(hub_fixture_auth_hits(hub, "/api/models/gated/model/revision/main"), 1);
    /* an unknown or private repository asked without a token: the hub's 401 RepoNotFound */
    c.token[0] = '\0';
    assert_int_equal(hub_repo_info(&c, "private/model", "main", &repo, &res), HUB_NOT_FOUND);
    assert_int_equal(res.upstream_status, 401);
    assert_non_null(strstr(res.detail, "RepoNotFound"));
    assert_non_null(strstr(res.detail, "HF_TOKEN"));
    assert_int_equal(out.length, 0);
    free(out.data);
}

static void test_not_found(void **state)
{
    (void)state;
    struct hub_config c = config_for(hub);
    struct hub_result res;
    struct hub_repo repo;
    struct buf out = {0};
    assert_int_equal(hub_repo_info(&c, "fixture-tests/absent", "main", &repo, &res), HUB_NOT_FOUND);
    assert_int_equal(res.upstream_status, 404);
    assert_non_null(strstr(res.detail, "RepoNotFound"));
    assert_int_equal(hub_repo_info(&c, TINY, "v9", &repo, &res), HUB_NOT_FOUND);
    assert_non_null(strstr(res.detail, "RevisionNotFound"));
    assert_int_equal(
        hub_repo_info(&c, TINY, "0000000000000000000000000000000000000000", &repo, &res),
        HUB_NOT_FOUND);
    assert_non_null(strstr(res.detail, "RevisionNotFound"));
    assert_int_equal(hub_fetch(&c, TINY, "main", "tokenizer.json", 0, 0, 0, &out, &res),
                     HUB_NOT_FOUND);
    assert_non_null(strstr(res.detail, "EntryNotFound"));
    assert_non_null(strstr(res.detail, "tokenizer.json"));
    assert_int_equal(hub_fetch(&c, TINY, "v9", "config.json", 0, 0, 0, &out, &res), HUB_NOT_FOUND);
    assert_non_null(strstr(res.detail, "RevisionNotFound"));
    assert_int_equal(
        hub_fetch(&c, "fixture-tests/absent", "main", "config.json", 0, 0, 0, &out, &res),
        HUB_NOT_FOUND);
    assert_non_null(strstr(res.detail, "RepoNotFound"));
    /* invalid arguments never reach the hub */
    hub_fixture_reset_hits(hub);
    assert_int_equal(hub_repo_info(&c, "../x", "main", &repo, &res), HUB_NOT_FOUND);
    assert_int_equal(res.upstream_status, 0);
    assert_int_equal(hub_fetch(&c, TINY, "a/../b", "config.json", 0, 0, 0, &out, &res),
                     HUB_NOT_FOUND);
    assert_int_equal(hub_fetch(&c, TINY, "main", "../../etc/passwd", 0, 0, 0, &out, &res),
                     HUB_NOT_FOUND);
    assert_int_equal(hub_fixture_hits(hub, "/api/models/../x/revision/main"), 0);
    assert_int_equal(out.length, 0);
    free(out.data);
}

static void test_timeout(void **state)
{
    (void)state;
    struct hub_config c = config_for(hub);
    struct hub_result res;
    struct hub_repo repo;
    c.total_timeout_ms = 500;
    const long t0 = now_ms();
    assert_int_equal(hub_repo_info(&c, "slow/model", "main", &repo, &res), HUB_TIMEOUT);
    const long elapsed = now_ms() - t0;
    assert_true(elapsed >= 450);
    assert_true(elapsed < 1500);
    assert_int_equal(res.outcome, HUB_TIMEOUT);
}

static void test_unreachable(void **state)
{
    (void)state;
    struct hub_config c = config_for(hub);
    struct hub_result res;
    struct buf out = {0};
    snprintf(c.base_url, sizeof(c.base_url), "http://127.0.0.1:1");
    assert_int_equal(hub_fetch(&c, TINY, "main", "config.json", 0, 0, 0, &out, &res),
                     HUB_UNREACHABLE);
    assert_int_equal(res.upstream_status, 0);
    /* a hand-made config with an invalid URL */
    snprintf(c.base_url, sizeof(c.base_url), "gopher://127.0.0.1");
    assert_int_equal(hub_fetch(&c, TINY, "main", "config.json", 0, 0, 0, &out, &res),
                     HUB_UNREACHABLE);
    assert_int_equal(out.length, 0);
    free(out.data);
}

static void test_redirect_refused(void **state)
{
    (void)state;
    struct hub_config c = config_for(hub);
    struct hub_result res;
    struct hub_repo repo;
    struct buf out = {0};
    snprintf(c.token, sizeof(c.token), "%s", TOKEN);
    assert_int_equal(
        hub_fetch(&c, "redirect-out/model", "main", "config.json", 0, 0, 0, &out, &res),
        HUB_REDIRECT_REFUSED);
    assert_int_equal(res.upstream_status, 302);
    assert_non_null(strstr(res.detail, "127.0.0.2"));
    assert_int_equal(hub_repo_info(&c, "redirect-out/model", "main", &repo, &res),
                     HUB_REDIRECT_REFUSED);
    /* a loop: HUB_REDIRECTS_MAX redirects followed, the next one refused */
    hub_fixture_reset_hits(hub);
    assert_int_equal(hub_fetch(&c, "loop/model", "main", "config.json", 0, 0, 0, &out, &res),
                     HUB_REDIRECT_REFUSED);
    assert_int_equal(res.upstream_status, 302);
    assert_int_equal(hub_fixture_hits(hub, "/loop/model/resolve/main/config.json"),
                     HUB_REDIRECTS_MAX + 1);
    /* the same host: the token still goes (the base origin) */
    assert_int_equal(hub_fixture_auth_hits(hub, "/loop/model/resolve/main/config.json"),
                     HUB_REDIRECTS_MAX + 1);
    /* cdn/ sends the client to localhost, which is not allowed here */
    c = config_for(scratch);
    assert_int_equal(hub_fetch(&c, "cdn/tiny", "main", "config.json", 0, 0, 0, &out, &res),
                     HUB_REDIRECT_REFUSED);
    assert_non_null(strstr(res.detail, "localhost"));
    assert_int_equal(hub_fixture_hits(scratch, "/cdn-files/cdn/tiny/config.json"), 0);
    assert_int_equal(out.length, 0);
    free(out.data);
}

static void test_redirect_cdn(void **state)
{
    (void)state;
    struct hub_config c = config_for(scratch);
    struct hub_result res;
    struct buf out = {0};
    snprintf(c.token, sizeof(c.token), "%s", TOKEN);
    snprintf(c.redirect_hosts[0], sizeof(c.redirect_hosts[0]), "localhost");
    c.redirect_host_count = 1;
    hub_fixture_reset_hits(scratch);
    assert_int_equal(hub_fetch(&c, "cdn/tiny", "main", "config.json", 0, 0, 0, &out, &res), HUB_OK);
    assert_int_equal(out.length, strlen(scratch_config));
    assert_memory_equal(out.data, scratch_config, out.length);
    /* the token went to the hub, not to the CDN host */
    assert_int_equal(hub_fixture_hits(scratch, "/cdn/tiny/resolve/main/config.json"), 1);
    assert_int_equal(hub_fixture_auth_hits(scratch, "/cdn/tiny/resolve/main/config.json"), 1);
    assert_int_equal(hub_fixture_hits(scratch, "/cdn-files/cdn/tiny/config.json"), 1);
    assert_int_equal(hub_fixture_auth_hits(scratch, "/cdn-files/cdn/tiny/config.json"), 0);
    /* ranges through the redirect */
    check_safetensors(&c, "cdn/tiny");
    assert_int_equal(hub_fixture_auth_hits(scratch, "/cdn-files/cdn/tiny/model.safetensors"), 0);
    assert_int_equal(hub_fixture_hits(scratch, "/cdn-files/cdn/tiny/model.safetensors"), 3);
    free(out.data);
}

static void test_upstream_and_malformed(void **state)
{
    (void)state;
    struct hub_config c = config_for(hub);
    struct hub_result res;
    struct hub_repo repo;
    struct buf out = {0};
    assert_int_equal(hub_repo_info(&c, "flaky/model", "main", &repo, &res), HUB_UPSTREAM);
    assert_int_equal(res.upstream_status, 503);
    assert_int_equal(hub_fetch(&c, "flaky/model", "main", "config.json", 0, 0, 0, &out, &res),
                     HUB_UPSTREAM);
    assert_int_equal(res.upstream_status, 503);
    assert_non_null(strstr(res.detail, "503"));
    assert_int_equal(hub_repo_info(&c, "badjson/model", "main", &repo, &res), HUB_MALFORMED);
    assert_null(repo.files);
    assert_int_equal(repo.file_count, 0);
    free(out.data);
}

static void test_repo_answers(void **state)
{
    (void)state;
    struct hub_config c = config_for(scratch);
    struct hub_result res;
    struct hub_repo repo;
    /* a base URL with a path prefix, whose api answers are the stored files above */
    snprintf(c.base_url, sizeof(c.base_url), "%s/mirror/tiny/resolve/main",
             hub_fixture_url(scratch));
    assert_int_equal(hub_repo_info(&c, "a/ok", "main", &repo, &res), HUB_OK);
    assert_string_equal(repo.sha, "abcdef0123456789abcdef0123456789abcdef01");
    assert_int_equal(repo.file_count, 2);
    assert_string_equal(repo.files[1], "a/b.safetensors");
    hub_repo_free(&repo);
    /* asked by commit, answered with another */
    assert_int_equal(hub_repo_info(&c, "a/ok", TINY_SHA, &repo, &res), HUB_MALFORMED);
    const char *malformed[] = {"a/nosha", "a/badsha", "a/nosiblings", "a/badsibling", "a/array"};
    for (size_t i = 0; i < sizeof(malformed) / sizeof(malformed[0]); i++) {
        assert_int_equal(hub_repo_info(&c, malformed[i], "main", &repo, &res), HUB_MALFORMED);
        assert_int_equal(res.upstream_status, 200);
        assert_null(repo.files);
        assert_int_equal(repo.file_count, 0);
    }
    assert_int_equal(hub_repo_info(&c, "a/many", "main", &repo, &res), HUB_TOO_LARGE);
    assert_null(repo.files);
}

struct worker {
    const struct hub_config *c;
    int failures;
};

static void *worker_run(void *arg)
{
    struct worker *w = arg;
    size_t length = 0;
    char *expected = read_file(TINY_DIR "/config.json", &length);
    for (int i = 0; i < 10; i++) {
        struct hub_result res;
        struct hub_repo repo;
        struct buf out = {0};
        if (hub_repo_info(w->c, TINY, "main", &repo, &res) != HUB_OK ||
            strcmp(repo.sha, TINY_SHA) != 0 || repo.file_count != 3)
            w->failures++;
        hub_repo_free(&repo);
        if (hub_fetch(w->c, TINY, "main", "config.json", 0, 0, 0, &out, &res) != HUB_OK ||
            out.length != length || memcmp(out.data, expected, length) != 0)
            w->failures++;
        out.length = 0;
        if (hub_fetch(w->c, TINY, "main", "model.safetensors", 0, 8, 0, &out, &res) != HUB_OK ||
            out.length != 8 || le64((const unsigned char *)out.data) != 189)
            w->failures++;
        free(out.data);
    }
    free(expected);
    return NULL; /* the thread's cached handle is freed as it exits */
}

static void test_concurrency(void **state)
{
    (void)state;
    struct hub_config c = config_for(hub);
    pthread_t threads[8];
    struct worker workers[8];
    hub_fixture_reset_hits(hub);
    for (int i = 0; i < 8; i++) {
        workers[i] = (struct worker){.c = &c};
        assert_int_equal(pthread_create(&threads[i], NULL, worker_run, &workers[i]), 0);
    }
    for (int i = 0; i < 8; i++) {
        assert_int_equal(pthread_join(threads[i], NULL), 0);
        assert_int_equal(workers[i].failures, 0);
    }
    assert_int_equal(hub_fixture_hits(hub, "/" TINY "/resolve/main/config.json"), 80);
    assert_int_equal(hub_fixture_hits(hub, "/api/models/" TINY "/revision/main"), 80);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_validation),
        cmocka_unit_test(test_urls),
        cmocka_unit_test(test_config_env),
        cmocka_unit_test(test_repo_info),
        cmocka_unit_test(test_fetch_config),
        cmocka_unit_test(test_range_safetensors),
        cmocka_unit_test(test_range_ignored),
        cmocka_unit_test(test_too_large),
        cmocka_unit_test(test_gated),
        cmocka_unit_test(test_not_found),
        cmocka_unit_test(test_timeout),
        cmocka_unit_test(test_unreachable),
        cmocka_unit_test(test_redirect_refused),
        cmocka_unit_test(test_redirect_cdn),
        cmocka_unit_test(test_upstream_and_malformed),
        cmocka_unit_test(test_repo_answers),
        cmocka_unit_test(test_concurrency),
    };
    return cmocka_run_group_tests(tests, setup_group, teardown_group);
}
