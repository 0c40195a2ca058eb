/*
 * hub.h - a careful client of a Hugging Face hub (the public hub, a mirror
 * or a self-hosted one): repository metadata, small JSON files, and byte
 * ranges of large files, never whole weights.
 *
 * Only the configured host is asked; redirects are followed only to hosts
 * in an allowlist (the hub's own CDNs) and at most HUB_REDIRECTS_MAX times;
 * every body is capped; a token is sent only to the configured host and
 * never logged or echoed. libcurl is initialised once (hub_global_init);
 * each call uses its own easy handle, so calls are thread-safe, and a
 * thread keeps its handle for connection reuse.
 *
 * Details of the contract (server/hub/hub.c):
 * - Handles: one cached easy handle per thread (a pthread key created by
 *   hub_global_init), reset at the end of every call so no option leaks
 *   from one call to the next while connections, DNS and TLS sessions are
 *   reused. A thread's handle is freed when the thread exits; a thread that
 *   does not exit (main) may call hub_thread_release. Without the key (it
 *   could not be created) every call uses and frees a handle of its own.
 * - Redirects are never followed by libcurl: each Location (relative ones
 *   resolved against the URL asked) is checked and asked by hand, at most
 *   HUB_REDIRECTS_MAX times (one more is HUB_REDIRECT_REFUSED). A redirect
 *   may go to the base URL's host or a redirect_hosts entry (exact,
 *   case-insensitive), over http or https, and over https only when the base
 *   URL is https. The Authorization header goes only to the base URL's
 *   origin (scheme, host and port), and never again once a redirect has left
 *   that origin.
 * - total_timeout_ms is one budget for a whole call, redirects included;
 *   connect_timeout_ms bounds each connection.
 * - Outcomes: 200 (206 for a range) HUB_OK; 404 HUB_NOT_FOUND, the detail
 *   naming the hub's X-Error-Code (RepoNotFound, RevisionNotFound,
 *   EntryNotFound); 401 with X-Error-Code RepoNotFound (what the hub answers
 *   for an unknown or private repository asked without a token) also
 *   HUB_NOT_FOUND, the detail mentioning the token; other 401/403
 *   HUB_GATED; any other status HUB_UPSTREAM (416, a range past the end of
 *   the file, included). Arguments that fail hub_id_valid,
 *   hub_revision_valid or hub_file_valid are HUB_NOT_FOUND without a
 *   request (no such repository can exist); a base_url that is not a valid
 *   http(s) URL is HUB_UNREACHABLE. upstream_status is the last HTTP status
 *   seen (a redirect's when one is refused).
 * - Nothing is logged. The detail never holds the token, the query string
 *   of a redirect (signed CDN URLs) or text from a body.
 */
#ifndef GS_HUB_H
#define GS_HUB_H

#include "formats/buf.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HUB_REDIRECTS_MAX 5
#define HUB_HOSTS_MAX 8

struct hub_config {
    char base_url[256];        /* GPUSIZER_HUB_URL; default https://huggingface.co (no slash at end) */
    char token[256];           /* GPUSIZER_HUB_TOKEN, else HF_TOKEN; "" = none */
    long connect_timeout_ms;   /* GPUSIZER_HUB_CONNECT_TIMEOUT_MS, default 5000 */
    long total_timeout_ms;     /* GPUSIZER_HUB_TIMEOUT_MS, default 30000, per request */
    long import_deadline_ms;   /* GPUSIZER_HUB_IMPORT_DEADLINE_MS, default 120000: one whole
                                  import (its index, config and every shard header) */
    uint64_t max_json_bytes;   /* config.json, index, metadata: default 8 MiB */
    uint64_t max_header_bytes; /* one safetensors/GGUF header: default 64 MiB */
    /* hosts a redirect may go to, besides the base URL's host (default: the public hub's CDN
     * hosts - cdn-lfs.huggingface.co, cdn-lfs.hf.co, cdn-lfs-us-1.hf.co, cas-bridge.xethub.hf.co);
     * GPUSIZER_HUB_REDIRECT_HOSTS, comma-separated, replaces them */
    char redirect_hosts[HUB_HOSTS_MAX][128];
    size_t redirect_host_count;
};

/* Defaults, then the environment. hub_config_from_env changes only the
 * fields whose variable is set and valid, and keeps the current value
 * otherwise: GPUSIZER_HUB_URL must be http or https with a host, and no
 * userinfo, query or fragment (trailing slashes are dropped; a path prefix
 * is kept); a token must be printable ASCII without spaces (an empty
 * GPUSIZER_HUB_TOKEN falls back to HF_TOKEN); timeouts are 1..3600000 ms;
 * byte caps are 1..4 GiB; GPUSIZER_HUB_REDIRECT_HOSTS is up to
 * HUB_HOSTS_MAX host names or IP literals separated by commas (spaces
 * around them ignored, stored lower case), and an empty value allows none. */
void hub_config_defaults(struct hub_config *c);
void hub_config_from_env(struct hub_config *c);

/* Once per process, before threads start; false when libcurl cannot start.
 * hub_repo_info and hub_fetch call it too (it runs once), so forgetting it
 * is safe. */
bool hub_global_init(void);

/* Frees the calling thread's cached easy handle now (the next call makes a
 * new one). Threads that exit need not call it; main may, before exit. */
void hub_thread_release(void);

/* Strict patterns: an id is "org/name" of [A-Za-z0-9._-] parts (1-96
 * characters each, no "..", not starting or ending with . or -); a revision
 * is a branch or tag name of [A-Za-z0-9._/-] (1-128, no "..", no leading
 * "/") or a 40-hex commit. A revision also has no trailing "/", no "//" and
 * no "." part; "refs/pr/1" and "refs/convert/parquet" are valid (the hub's
 * pull-request and conversion refs) and are sent with their slashes
 * percent-encoded, as huggingface_hub does. */
bool hub_id_valid(const char *id);
bool hub_revision_valid(const char *revision);

/* A file path inside a repository: 1-1024 characters, "/"-separated parts
 * of [A-Za-z0-9._+=,@~()[]-] (no empty, "." or ".." part, so no leading or
 * trailing "/"). Each part is percent-encoded in the URL anyway. */
bool hub_file_valid(const char *file);

enum hub_outcome {
    HUB_OK,
    HUB_NOT_FOUND,      /* 404: no such repository, revision or file */
    HUB_GATED,          /* 401/403: gated or private; a token with access is needed */
    HUB_UPSTREAM,       /* 5xx or an unexpected status from the hub */
    HUB_TIMEOUT,        /* connect or total timeout */
    HUB_TOO_LARGE,      /* a body over its cap */
    HUB_REDIRECT_REFUSED, /* a redirect to a host outside the allowlist, or too many */
    HUB_UNREACHABLE,    /* DNS, connection refused, TLS */
    HUB_MALFORMED,      /* a body that is not what the hub promises */
    HUB_NOMEM,
};

struct hub_result {
    enum hub_outcome outcome;
    long upstream_status;  /* the hub's HTTP status (0 when none) */
    char detail[256];      /* a sentence for the user; never contains the token */
};

/* A repository at a revision: its commit and file names. */
#define HUB_FILES_MAX 4096
struct hub_repo {
    char sha[41];          /* the commit the revision resolves to */
    char **files;          /* rfilename of every sibling; free with hub_repo_free */
    size_t file_count;
};

/* GET {base}/api/models/{id}/revision/{revision}: the commit and the file
 * list ("sha", "siblings[].rfilename"), the body capped at max_json_bytes.
 * HUB_MALFORMED when the body is not JSON, "sha" is not 40 hex digits (it is
 * stored lower case) or differs from a 40-hex revision asked for, or
 * "siblings" is not an array of objects with a string "rfilename";
 * HUB_TOO_LARGE when it lists more than HUB_FILES_MAX files (a partial list
 * would hide shards). `out` is zeroed first and holds nothing on failure. */
enum hub_outcome hub_repo_info(const struct hub_config *c, const char *id, const char *revision,
                               struct hub_repo *out, struct hub_result *res);
void hub_repo_free(struct hub_repo *r);

/* GET {base}/{id}/resolve/{revision}/{file}: the whole body up to `cap`
 * bytes (HUB_TOO_LARGE beyond), or with `length` > 0 the bytes [offset,
 * offset + length) by a Range request (a server that ignores Range and
 * sends more is cut off at `length`). Appends to `out` (the caller frees
 * out->data).
 *
 * `cap` 0 means the config's max_json_bytes for a whole body and its
 * max_header_bytes for a range. A range longer than `cap` is HUB_TOO_LARGE
 * without a request. A 206 must carry a Content-Range starting at `offset`
 * (else HUB_MALFORMED). A 200 to a range request (the server ignored Range)
 * is accepted: the first `offset` bytes are skipped and the transfer stops
 * after `length` more, provided offset + length <= cap (HUB_TOO_LARGE
 * otherwise, as that many bytes would have to be read). A file that ends
 * inside the range yields fewer than `length` bytes, with HUB_OK. On any
 * outcome but HUB_OK, `out` is left as it was (its length restored). */
enum hub_outcome hub_fetch(const struct hub_config *c, const char *id, const char *revision,
                           const char *file, uint64_t offset, uint64_t length, uint64_t cap,
                           struct buf *out, struct hub_result *res);

/* The URL the two calls above would ask first, for provenance (no token):
 * hub_fetch's with a file, hub_repo_info's with `file` NULL; "" when an
 * argument is invalid or the URL does not fit in `cap`. */
void hub_file_url(const struct hub_config *c, const char *id, const char *revision,
                  const char *file, char *out, size_t cap);

#endif
