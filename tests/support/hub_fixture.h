/*
 * hub_fixture.h - a small Hugging Face hub for tests, served by libmicrohttpd
 * on 127.0.0.1 (a free port) from a directory of repositories.
 *
 * Layout: a repository is the directory <root>/<org>/<name>/. Its commit is
 * the SHA-1 hex of the text "<org>/<name>"; the revisions "main" and that
 * commit resolve, any other is 404 with X-Error-Code: RevisionNotFound.
 *
 *   GET /api/models/<org>/<name>/revision/<rev>
 *       200 {"id", "modelId", "sha", "private": false, "siblings": [{"rfilename"}]}:
 *       every regular file under the directory (relative paths, sorted), a
 *       file X.safetensors.header.json listed as X.safetensors; an unknown
 *       repository is 404 with X-Error-Code: RepoNotFound.
 *   GET|HEAD /<org>/<name>/resolve/<rev>/<file>
 *       a stored file as it is; or a virtual X.safetensors when
 *       X.safetensors.header.json exists: the 8-byte little-endian length of
 *       the JSON text as stored, the text, then zero bytes up to the largest
 *       data_offsets end in it. Range: bytes=a-b, a- and -n give 206 with
 *       Content-Range: bytes a-b/total, an unsatisfiable range 416 with
 *       Content-Range naming only the total; Content-Length always,
 *       X-Repo-Commit and Accept-Ranges: bytes too. A missing file is 404
 *       with X-Error-Code: EntryNotFound.
 *   GET|HEAD /cdn-files/<org>/<name>/<file>
 *       the same file from <root>/<org>/<name>/ with no behaviour applied
 *       (the target of the cdn/ redirect).
 *   Other methods 405; other paths 404.
 *
 * Behaviours by organisation (the repository directory may be absent):
 *   gated/...        401 on everything, X-Error-Code: GatedRepo, a body like the hub's
 *   forbidden/...    403 on everything, X-Error-Code: GatedRepo
 *   private/...      401 X-Error-Code: RepoNotFound without Authorization, 404
 *                    RepoNotFound with it (the hub's answer for a private repository)
 *   slow/...         waits 3 s (less when the fixture stops), then answers normally
 *   oversized/...    resolve of config.json: 200, 20 MiB of "{", spaces, "}" sent
 *                    chunked (no Content-Length: this one stream has no length)
 *   redirect-out/... 302 to http://127.0.0.2:PORT/<same path>
 *   cdn/...          resolve: 302 to http://localhost:PORT/cdn-files/<org>/<name>/<file>
 *   loop/...         302 to the same path (a relative Location)
 *   flaky/...        503 on everything
 *   badjson/...      the api endpoint answers 200 with text that is not JSON
 *   norange/...      resolve ignores Range (200 with the whole file)
 *
 * Every request is counted by its path (as decoded by libmicrohttpd, no
 * query), and separately when it carried an Authorization header. The
 * handlers run in a thread per connection; the counters are locked.
 */
#ifndef GS_HUB_FIXTURE_H
#define GS_HUB_FIXTURE_H

#include <stdint.h>

struct hub_fixture;

/* Serves `root` (a directory) on 127.0.0.1 and a free port. 0 on success. */
int hub_fixture_start(const char *root, struct hub_fixture **out);

/* Stops the daemon (waking slow answers) and frees the fixture; NULL is a no-op. */
void hub_fixture_stop(struct hub_fixture *f);

uint16_t hub_fixture_port(const struct hub_fixture *f);

/* "http://127.0.0.1:PORT", valid until hub_fixture_stop. */
const char *hub_fixture_url(const struct hub_fixture *f);

/* Requests seen for `path` (e.g. "/org/name/resolve/main/config.json"), and of
 * them those that carried an Authorization header. */
unsigned hub_fixture_hits(struct hub_fixture *f, const char *path);
unsigned hub_fixture_auth_hits(struct hub_fixture *f, const char *path);

/* Forgets every count. */
void hub_fixture_reset_hits(struct hub_fixture *f);

/* The commit of a repository: SHA-1 hex of "<org>/<name>" into out[41]. */
void hub_fixture_commit(const char *repo_id, char out[41]);

#endif
