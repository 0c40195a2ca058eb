/* test_server.c - a real gpusizer server for the integration tests (see test_server.h). */
#include "test_server.h"

#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* The current environment without GPUSIZER_API_KEY*, plus `key_var` when
 * given; no access log unless the test asks for one (GPUSIZER_ACCESS_LOG),
 * so the tests' output stays readable. */
static char **server_env(char *key_var)
{
    static char quiet[] = "GPUSIZER_ACCESS_LOG=0";
    size_t n = 0;
    while (environ[n] != NULL)
        n++;
    char **env = calloc(n + 3, sizeof(*env));
    if (env == NULL)
        return NULL;
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (strncmp(environ[i], "GPUSIZER_API_KEY", 16) != 0)
            env[k++] = environ[i];
    if (key_var != NULL)
        env[k++] = key_var;
    if (getenv("GPUSIZER_ACCESS_LOG") == NULL)
        env[k++] = quiet;
    return env;
}

int test_server_start(struct test_server *s, const char *binary, const char *db_path,
                      const char *api_key)
{
    char key_var[256];
    if (api_key != NULL)
        snprintf(key_var, sizeof(key_var), "GPUSIZER_API_KEY=%s", api_key);
    char **env = server_env(api_key != NULL ? key_var : NULL);
    int out[2];
    if (env == NULL || pipe(out) != 0) {
        free(env);
        return -1;
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, out[1], STDOUT_FILENO);
    posix_spawn_file_actions_addclose(&fa, out[0]);
    char a0[] = "gpusizer", a1[] = "serve", a2[] = "--host", a3[] = "127.0.0.1", a4[] = "--port",
         a5[] = "0", a6[] = "--db", a8[] = "--threads", a9[] = "4";
    char path[256];
    snprintf(path, sizeof(path), "%s", db_path);
    char *argv[] = {a0, a1, a2, a3, a4, a5, a6, path, a8, a9, NULL};
    const int rc = posix_spawn(&s->pid, binary, &fa, NULL, argv, env);
    posix_spawn_file_actions_destroy(&fa);
    free(env);
    close(out[1]);
    if (rc != 0) {
        close(out[0]);
        return -1;
    }
    /* the first line names the port; the server writes nothing else we need */
    FILE *f = fdopen(out[0], "r");
    char line[256];
    const bool got = f != NULL && fgets(line, sizeof(line), f) != NULL;
    if (f != NULL)
        fclose(f);
    if (!got)
        return -1;
    const char *colon = strrchr(line, ':');
    s->port = colon != NULL ? atoi(colon + 1) : 0;
    return s->port > 0 ? 0 : -1;
}

int test_server_stop(struct test_server *s)
{
    int status = 0;
    if (s->pid > 0) {
        kill(s->pid, SIGTERM);
        waitpid(s->pid, &status, 0);
        s->pid = 0;
    }
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}
