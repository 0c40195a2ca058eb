/* auth.c - API key loading and constant-time checking (see auth.h). */
#include "api/auth.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define KEY_MAX 4096

struct auth {
    char *key; /* NULL: writes disabled */
    size_t length;
};

static char *trimmed_copy(const char *text, size_t n)
{
    while (n > 0 && isspace((unsigned char)*text)) {
        text++;
        n--;
    }
    while (n > 0 && isspace((unsigned char)text[n - 1]))
        n--;
    char *copy = malloc(n + 1);
    if (copy != NULL) {
        memcpy(copy, text, n);
        copy[n] = '\0';
    }
    return copy;
}

static char *read_key_file(const char *path, char *errbuf, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        snprintf(errbuf, errlen, "cannot read the API key file %s: %s", path, strerror(errno));
        return NULL;
    }
    char buf[KEY_MAX + 1];
    size_t n = fread(buf, 1, sizeof(buf), f);
    fclose(f);
    if (n > KEY_MAX) {
        snprintf(errbuf, errlen, "the API key file %s is larger than %d bytes", path, KEY_MAX);
        return NULL;
    }
    char *key = trimmed_copy(buf, n);
    if (key != NULL && key[0] == '\0') {
        free(key);
        snprintf(errbuf, errlen, "the API key file %s is empty", path);
        return NULL;
    }
    if (key == NULL)
        snprintf(errbuf, errlen, "out of memory");
    return key;
}

struct auth *auth_create(const char *env_key, const char *file, char *errbuf, size_t errlen)
{
    struct auth *a = calloc(1, sizeof(*a));
    if (a == NULL) {
        snprintf(errbuf, errlen, "out of memory");
        return NULL;
    }
    if (file != NULL && *file != '\0') {
        a->key = read_key_file(file, errbuf, errlen);
        if (a->key == NULL) {
            free(a);
            return NULL;
        }
    } else if (env_key != NULL && *env_key != '\0') {
        a->key = trimmed_copy(env_key, strlen(env_key));
        if (a->key == NULL || a->key[0] == '\0') {
            snprintf(errbuf, errlen, "GPUSIZER_API_KEY is blank");
            free(a->key);
            free(a);
            return NULL;
        }
    }
    a->length = a->key != NULL ? strlen(a->key) : 0;
    return a;
}

void auth_free(struct auth *auth)
{
    if (auth == NULL)
        return;
    if (auth->key != NULL) {
        volatile char *p = auth->key; /* do not leave the key in freed memory */
        for (size_t i = 0; i < auth->length; i++)
            p[i] = 0;
        free(auth->key);
    }
    free(auth);
}

bool auth_enabled(const struct auth *auth)
{
    return auth != NULL && auth->key != NULL;
}

/* Compares every byte of the stored key whatever the presented one is, so
 * the time taken does not depend on how long a matching prefix is. */
static bool same_key(const char *presented, size_t n, const char *key, size_t key_len)
{
    unsigned char diff = (unsigned char)(n != key_len);
    for (size_t i = 0; i < key_len; i++) {
        const unsigned char c = i < n ? (unsigned char)presented[i] : 0;
        diff |= (unsigned char)(c ^ (unsigned char)key[i]);
    }
    return diff == 0;
}

enum auth_verdict auth_check(const struct auth *auth, const char *authorization)
{
    if (!auth_enabled(auth))
        return AUTH_DISABLED;
    if (authorization == NULL)
        return AUTH_MISSING;
    while (*authorization == ' ')
        authorization++;
    if (strncasecmp(authorization, "Bearer", 6) != 0 || authorization[6] != ' ')
        return AUTH_WRONG;
    const char *token = authorization + 7;
    while (*token == ' ')
        token++;
    size_t n = strlen(token);
    while (n > 0 && token[n - 1] == ' ')
        n--;
    return same_key(token, n, auth->key, auth->length) ? AUTH_OK : AUTH_WRONG;
}
