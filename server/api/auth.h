/*
 * auth.h - the API key that guards catalog writes.
 *
 * The key comes from GPUSIZER_API_KEY or from a file (GPUSIZER_API_KEY_FILE or
 * --api-key-file; surrounding whitespace trimmed). With no key configured,
 * writes are disabled (403), never open. Requests present the key as
 * "Authorization: Bearer <key>"; the comparison takes the same time whatever
 * the presented key shares with the real one. The key is never logged or
 * echoed back.
 */
#ifndef GS_AUTH_H
#define GS_AUTH_H

#include <stdbool.h>
#include <stddef.h>

struct auth;

/* Loads the key: `file` (may be NULL) wins over `env_key` (may be NULL).
 * Returns NULL and writes a message to errbuf when the file cannot be read
 * or is empty; an absent key gives an auth that refuses every write. */
struct auth *auth_create(const char *env_key, const char *file, char *errbuf, size_t errlen);
void auth_free(struct auth *auth);

bool auth_enabled(const struct auth *auth);

enum auth_verdict { AUTH_OK, AUTH_DISABLED, AUTH_MISSING, AUTH_WRONG };

/* Checks an Authorization header value (NULL when absent). */
enum auth_verdict auth_check(const struct auth *auth, const char *authorization);

#endif
