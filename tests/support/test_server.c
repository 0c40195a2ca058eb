/* test_server.c - a real gpusizer server for the integration tests (see test_server.h). */
#include "test_server.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

enum { WRAPPER_WORDS = 32 };

/* Whether the tests, and so the server, are sanitizer-instrumented: gcc
 * names it with __SANITIZE_*__, clang with __has_feature. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define INSTRUMENTED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define INSTRUMENTED 1
#endif
#endif
#ifndef INSTRUMENTED
#define INSTRUMENTED 0
#endif

static int failures; /* atomically */

int test_server_failures(void)
{
    return __atomic_load_n(&failures, __ATOMIC_ACQUIRE);
}

static int failed(void)
{
    __atomic_add_fetch(&failures, 1, __ATOMIC_ACQ_REL);
    return -1;
}

const char *test_server_wrapper(void)
{
    const char *w = getenv("GPUSIZER_TEST_SERVER_WRAPPER");
    return w != NULL ? w : "";
}

bool test_server_wrapped(void)
{
    const char *w = getenv("GPUSIZER_TEST_SERVER_WRAPPER");
    return w != NULL && w[strspn(w, " \t")] != '\0';
}

bool test_server_instrumented(void)
{
    return INSTRUMENTED;
}

long test_server_rss_kib(const struct test_server *s)
{
    char path[64], line[256];
    snprintf(path, sizeof(path), "/proc/%d/status", (int)s->pid);
    FILE *f = fopen(path, "r");
    long kib = -1;
    while (f != NULL && fgets(line, sizeof(line), f) != NULL)
        if (strncmp(line, "VmRSS:", 6) == 0)
            kib = strtol(line + 6, NULL, 10);
    if (f != NULL)
        fclose(f);
    return kib;
}

double test_server_time_factor(void)
{
    const char *f = getenv("GPUSIZER_TEST_TIME_FACTOR");
    if (f != NULL && *f != '\0') {
        const double v = strtod(f, NULL);
        if (v >= 1)
            return v;
    }
    if (test_server_wrapped())
        return 20;
    return INSTRUMENTED ? 5 : 1;
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

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

/* Waits up to `seconds` for `pid` to exit; its wait status, or -1 when it
 * is still running. */
static int wait_exit(pid_t pid, double seconds)
{
    const double until = now_s() + seconds;
    for (;;) {
        int status = 0;
        const pid_t r = waitpid(pid, &status, WNOHANG);
        if (r == pid)
            return status;
        if (r < 0 && errno != EINTR)
            return 0x7f00; /* not our child any more: report it as a failure */
        if (now_s() >= until)
            return -1;
        usleep(10000);
    }
}

static void report_status(pid_t pid, int status)
{
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return;
    if (WIFEXITED(status))
        fprintf(stderr, "test_server: server %d exited with status %d%s\n", (int)pid,
                WEXITSTATUS(status),
                test_server_wrapped() ? " (under GPUSIZER_TEST_SERVER_WRAPPER: its error exit code "
                                        "means memory errors or definite leaks, listed above)"
                                      : "");
    else if (WIFSIGNALED(status))
        fprintf(stderr, "test_server: server %d killed by signal %d\n", (int)pid, WTERMSIG(status));
}

/* Reads the first line the server writes to `fd`, for at most `seconds`.
 * true when a whole line arrived. */
static bool read_line(int fd, char *line, size_t size, double seconds)
{
    const double until = now_s() + seconds;
    size_t n = 0;
    while (n + 1 < size) {
        const double left = until - now_s();
        if (left <= 0)
            return false;
        struct pollfd p = {.fd = fd, .events = POLLIN};
        const int ready = poll(&p, 1, (int)(left * 1000) + 1);
        if (ready < 0 && errno == EINTR)
            continue;
        if (ready <= 0)
            return false;
        const ssize_t r = read(fd, line + n, 1);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return false; /* the server exited before naming its port */
        if (line[n++] == '\n')
            break;
    }
    line[n] = '\0';
    return n > 0 && line[n - 1] == '\n';
}

int test_server_start(struct test_server *s, const char *binary, const char *db_path,
                      const char *api_key)
{
    s->pid = 0;
    s->port = 0;
    char key_var[256];
    if (api_key != NULL)
        snprintf(key_var, sizeof(key_var), "GPUSIZER_API_KEY=%s", api_key);
    /* the wrapper's words, then the server's own argv */
    char wrapper[1024] = "";
    const char *w = getenv("GPUSIZER_TEST_SERVER_WRAPPER");
    if (w != NULL)
        snprintf(wrapper, sizeof(wrapper), "%s", w);
    char *argv[WRAPPER_WORDS + 12];
    size_t argc = 0;
    char *save = NULL;
    for (char *word = strtok_r(wrapper, " \t", &save); word != NULL;
         word = strtok_r(NULL, " \t", &save)) {
        if (argc == WRAPPER_WORDS) {
            fprintf(stderr, "test_server: GPUSIZER_TEST_SERVER_WRAPPER has more than %d words\n",
                    WRAPPER_WORDS);
            return failed();
        }
        argv[argc++] = word;
    }
    const bool wrapped = argc > 0;
    char a0[] = "gpusizer", a1[] = "serve", a2[] = "--host", a3[] = "127.0.0.1", a4[] = "--port",
         a5[] = "0", a6[] = "--db", a8[] = "--threads", a9[] = "4";
    char path[256], program[256], url_flag[] = "--database-url";
    snprintf(path, sizeof(path), "%s", db_path);
    snprintf(program, sizeof(program), "%s", binary);
    /* a postgres:// URL names a shared PostgreSQL catalog instead of a file */
    const bool url = strncmp(db_path, "postgres", 8) == 0;
    char *server_args[] = {wrapped ? program : a0, a1, a2, a3, a4, a5, url ? url_flag : a6,
                           path, a8, a9, NULL};
    memcpy(argv + argc, server_args, sizeof(server_args));

    char **env = server_env(api_key != NULL ? key_var : NULL);
    int out[2];
    if (env == NULL || pipe(out) != 0) {
        free(env);
        return failed();
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, out[1], STDOUT_FILENO);
    posix_spawn_file_actions_addclose(&fa, out[0]);
    pid_t pid = 0;
    const int rc = wrapped ? posix_spawnp(&pid, argv[0], &fa, NULL, argv, env)
                           : posix_spawn(&pid, binary, &fa, NULL, argv, env);
    posix_spawn_file_actions_destroy(&fa);
    free(env);
    close(out[1]);
    if (rc != 0) {
        fprintf(stderr, "test_server: cannot start %s: %s\n", argv[0], strerror(rc));
        close(out[0]);
        return failed();
    }
    /* the first line names the port; the server writes nothing else we need */
    char line[256];
    const bool got = read_line(out[0], line, sizeof(line), 10 * test_server_time_factor());
    close(out[0]);
    const char *colon = got ? strrchr(line, ':') : NULL;
    const int port = colon != NULL ? atoi(colon + 1) : 0;
    if (port <= 0) {
        fprintf(stderr, "test_server: %s did not name its port\n", binary);
        kill(pid, SIGKILL);
        waitpid(pid, NULL, 0);
        return failed();
    }
    s->pid = pid;
    s->port = port;
    return 0;
}

int test_server_stop(struct test_server *s)
{
    if (s->pid <= 0)
        return 0; /* never started (its start failed the test) or already stopped */
    const pid_t pid = s->pid;
    s->pid = 0;
    kill(pid, SIGTERM);
    /* memcheck's leak check at exit takes seconds of its own */
    int status = wait_exit(pid, 30 * test_server_time_factor());
    if (status == -1) {
        fprintf(stderr, "test_server: server %d still running after SIGTERM; killing it\n", (int)pid);
        kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
    }
    report_status(pid, status);
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : failed();
}
