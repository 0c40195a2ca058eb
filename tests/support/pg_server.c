/*
 * pg_server.c - a private PostgreSQL server for tests (see pg_server.h).
 */
#define _GNU_SOURCE
#include "pg_server.h"

#include <arpa/inet.h>
#include <glob.h>
#include <grp.h>
#include <netinet/in.h>
#include <pwd.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* The newest installed major version's bin directory. */
static int find_bin(char *out, size_t cap)
{
    glob_t g;
    if (glob("/usr/lib/postgresql/*/bin/pg_ctl", 0, NULL, &g) != 0 || g.gl_pathc == 0) {
        fprintf(stderr, "pg_server: no /usr/lib/postgresql/*/bin/pg_ctl (scripts/deps.sh test "
                        "installs the postgresql package)\n");
        return -1;
    }
    int best = -1, best_major = -1;
    for (size_t i = 0; i < g.gl_pathc; i++) {
        const int major = atoi(g.gl_pathv[i] + strlen("/usr/lib/postgresql/"));
        if (major > best_major) {
            best_major = major;
            best = (int)i;
        }
    }
    const int n = snprintf(out, cap, "%.*s", (int)(strlen(g.gl_pathv[best]) - strlen("/pg_ctl")),
                           g.gl_pathv[best]);
    globfree(&g);
    return n > 0 && (size_t)n < cap ? 0 : -1;
}

static uint16_t free_port(void)
{
    const int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a;
    memset(&a, 0, sizeof(a));
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof(a);
    uint16_t port = 0;
    if (fd >= 0 && bind(fd, (struct sockaddr *)&a, sizeof(a)) == 0 &&
        getsockname(fd, (struct sockaddr *)&a, &len) == 0)
        port = ntohs(a.sin_port);
    if (fd >= 0)
        close(fd);
    return port;
}

/* Runs argv as the postgres user when root (else as ourselves); its output
 * goes to dir/cmd.log. Returns the exit status, -1 if it could not run. */
static int run(const struct pg_server *s, const char *const argv[])
{
    fflush(NULL); /* the child must not write the parent's buffered output again */
    const pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        char log[200];
        snprintf(log, sizeof(log), "%s.log", s->dir);
        if (freopen(log, "a", stdout) == NULL || dup2(fileno(stdout), 2) < 0)
            _exit(126);
        if (geteuid() == 0) {
            const struct passwd *pw = getpwnam("postgres");
            if (pw == NULL || setgroups(0, NULL) != 0 || setgid(pw->pw_gid) != 0 ||
                setuid(pw->pw_uid) != 0)
                _exit(126);
        }
        execv(argv[0], (char *const *)(uintptr_t)argv);
        _exit(127);
    }
    int status = 0;
    if (waitpid(pid, &status, 0) < 0)
        return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void show_log(const struct pg_server *s)
{
    char cmd[400];
    snprintf(cmd, sizeof(cmd), "tail -n 30 %s.log %s/server.log 1>&2", s->dir, s->dir);
    if (system(cmd) != 0)
        fprintf(stderr, "pg_server: no log to show\n");
}

static int ctl_start(struct pg_server *s)
{
    char pg_ctl[128], opts[256], logfile[160];
    snprintf(pg_ctl, sizeof(pg_ctl), "%s/pg_ctl", s->bin);
    snprintf(opts, sizeof(opts),
             "-p %u -k %s -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off "
             "-c max_connections=200",
             (unsigned)s->port, s->dir);
    snprintf(logfile, sizeof(logfile), "%s/server.log", s->dir);
    const char *argv[] = {pg_ctl, "-D", s->dir, "-o", opts, "-l", logfile, "-w", "-t", "60", "start", NULL};
    if (run(s, argv) != 0) {
        fprintf(stderr, "pg_server: pg_ctl start failed\n");
        show_log(s);
        return -1;
    }
    s->running = 1;
    return 0;
}

int pg_server_start(struct pg_server *s)
{
    memset(s, 0, sizeof(*s));
    if (find_bin(s->bin, sizeof(s->bin)) != 0)
        return -1;
    snprintf(s->dir, sizeof(s->dir), "/tmp/gs-pg-XXXXXX");
    if (mkdtemp(s->dir) == NULL) {
        perror("pg_server: mkdtemp");
        return -1;
    }
    if (geteuid() == 0) {
        const struct passwd *pw = getpwnam("postgres");
        if (pw == NULL || chown(s->dir, pw->pw_uid, pw->pw_gid) != 0) {
            fprintf(stderr, "pg_server: no postgres user to own %s\n", s->dir);
            return -1;
        }
    }
    chmod(s->dir, 0700);
    char initdb[128];
    snprintf(initdb, sizeof(initdb), "%s/initdb", s->bin);
    const char *argv[] = {initdb, "-D", s->dir, "-U", "postgres", "-A", "trust", "-E", "UTF8",
                    "--no-instructions", NULL};
    if (run(s, argv) != 0) {
        fprintf(stderr, "pg_server: initdb failed\n");
        show_log(s);
        return -1;
    }
    s->port = free_port();
    if (s->port == 0)
        return -1;
    snprintf(s->url, sizeof(s->url), "postgresql://postgres@127.0.0.1:%u/postgres",
             (unsigned)s->port);
    return ctl_start(s);
}

int pg_server_stop(struct pg_server *s)
{
    if (!s->running)
        return 0;
    char pg_ctl[128];
    snprintf(pg_ctl, sizeof(pg_ctl), "%s/pg_ctl", s->bin);
    const char *argv[] = {pg_ctl, "-D", s->dir, "-m", "fast", "-w", "stop", NULL};
    const int rc = run(s, argv);
    s->running = rc == 0 ? 0 : s->running;
    return rc == 0 ? 0 : -1;
}

int pg_server_restart(struct pg_server *s)
{
    return s->running ? 0 : ctl_start(s);
}

void pg_server_destroy(struct pg_server *s)
{
    if (s->dir[0] == '\0')
        return;
    pg_server_stop(s);
    char cmd[300];
    snprintf(cmd, sizeof(cmd), "rm -rf '%s' '%s.log'", s->dir, s->dir);
    if (system(cmd) != 0)
        fprintf(stderr, "pg_server: could not remove %s\n", s->dir);
    s->dir[0] = '\0';
}
