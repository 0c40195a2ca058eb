/*
 * cli.c - the `gpusizer` commands: `serve`, `estimate`, `fit`, `recommend` (a request as
 * options or JSON on stdin, the answer as JSON or a summary), `import` and `model-types`.
 *
 * Configuration comes from flags, then environment variables, then
 * defaults, so `gpusizer serve` with nothing set serves on :8080 with
 * ./gpusizer.db, created and seeded on first start.
 */
#include "cli/cli.h"
#include "cli/flags.h"
#include "cli/help.h"
#include "cli/summary.h"
#include "readers/model_types.h"

#include "formats/json_lenient.h"

#include "api/auth.h"
#include "catalog.h"
#include "catalog_pg.h"
#include "http/http.h"
#include "api/hub_import.h"
#include "api/store.h"
#include "formats/problem.h"
#include "api/service.h"
#include "api/sizing.h"

#include <errno.h>
#include <jansson.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#define DEFAULT_PORT      8080
#define DEFAULT_DB        "gpusizer.db"
#define DEFAULT_MAX_BODY  ((size_t)1 << 20)
#define STDIN_LIMIT       ((size_t)16 << 20)

struct options {
    const char *host;
    long port;
    const char *db;
    const char *database_url;           /* a PostgreSQL catalog instead of the file */
    const char *database_password_file; /* its password, when not in the URL */
    long threads;
    long max_body;
    const char *api_key_file;
    const char *positional[2]; /* arguments that are not --flag value pairs (import) */
    int positional_count;
};

static bool parse_long(const char *text, long min, long max, long *out)
{
    char *end = NULL;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (errno != 0 || end == text || *end != '\0' || v < min || v > max)
        return false;
    *out = v;
    return true;
}

/* The defaults and the environment's catalog settings; no checks. */
static void options_defaults(struct options *o)
{
    const char *env = NULL;
    o->host = (env = getenv("GPUSIZER_HOST")) != NULL && *env ? env : "0.0.0.0";
    o->db = (env = getenv("GPUSIZER_DB")) != NULL && *env ? env : DEFAULT_DB;
    o->database_url = (env = getenv("GPUSIZER_DATABASE_URL")) != NULL && *env ? env : NULL;
    o->database_password_file =
        (env = getenv("GPUSIZER_DATABASE_PASSWORD_FILE")) != NULL && *env ? env : NULL;
    o->port = DEFAULT_PORT;
    o->threads = 0;
    o->max_body = (long)DEFAULT_MAX_BODY;
    o->api_key_file = (env = getenv("GPUSIZER_API_KEY_FILE")) != NULL && *env ? env : NULL;
    o->positional_count = 0;
}

/* serve's and import's options: --flag value pairs, and positional arguments. */
static int parse_options(int argc, char **argv, struct options *o)
{
    const char *env = NULL;
    options_defaults(o);
    if ((env = getenv("PORT")) != NULL && *env && !parse_long(env, 0, 65535, &o->port)) {
        fprintf(stderr, "gpusizer: PORT=%s is not a port number\n", env);
        return -1;
    }
    if ((env = getenv("GPUSIZER_THREADS")) != NULL && *env &&
        !parse_long(env, 0, 1024, &o->threads)) {
        fprintf(stderr, "gpusizer: GPUSIZER_THREADS=%s is not a thread count\n", env);
        return -1;
    }
    for (int i = 2; i < argc; i += 2) { /* --flag value pairs, and positional arguments */
        const char *flag = argv[i];
        if (strncmp(flag, "--", 2) != 0) {
            if (o->positional_count == 2) {
                fprintf(stderr, "gpusizer %s: unexpected argument %s\n", argv[1], flag);
                return -1;
            }
            o->positional[o->positional_count++] = flag;
            i--; /* one word, not a pair */
            continue;
        }
        static const char *const known[] = {"--host", "--db", "--database-url",
                                            "--database-password-file", "--port", "--threads",
                                            "--api-key-file", "--max-body"};
        bool is_known = false;
        for (size_t k = 0; k < sizeof(known) / sizeof(known[0]); k++)
            is_known = is_known || strcmp(flag, known[k]) == 0;
        if (!is_known) {
            fprintf(stderr, "gpusizer %s: unknown option %s (gpusizer %s --help lists the "
                            "options)\n", argv[1], flag, argv[1]);
            return -1;
        }
        const char *value = i + 1 < argc ? argv[i + 1] : NULL;
        if (value == NULL) {
            fprintf(stderr, "gpusizer %s: %s needs a value\n", argv[1], flag);
            return -1;
        }
        bool ok = true;
        if (strcmp(flag, "--host") == 0)
            o->host = value;
        else if (strcmp(flag, "--db") == 0)
            o->db = value;
        else if (strcmp(flag, "--database-url") == 0)
            o->database_url = value;
        else if (strcmp(flag, "--database-password-file") == 0)
            o->database_password_file = value;
        else if (strcmp(flag, "--port") == 0)
            ok = parse_long(value, 0, 65535, &o->port);
        else if (strcmp(flag, "--threads") == 0)
            ok = parse_long(value, 0, 1024, &o->threads);
        else if (strcmp(flag, "--api-key-file") == 0)
            o->api_key_file = value;
        else
            ok = parse_long(value, 64, 1L << 30, &o->max_body);
        if (!ok) {
            fprintf(stderr, "gpusizer %s: bad value for %s: %s\n", argv[1], flag, value);
            return -1;
        }
    }
    return 0;
}

static void print_errors(const char *what, const struct gs_error *err)
{
    for (size_t i = 0; i < err->count; i++)
        fprintf(stderr, "gpusizer: %s: %s\n", what, err->items[i].detail);
}

/* The password in `path` (its first line), in `out`; false with a message. */
static bool read_password_file(const char *path, char *out, size_t cap)
{
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        fprintf(stderr, "gpusizer: cannot read the database password file %s: %s\n", path,
                strerror(errno));
        return false;
    }
    const bool got = fgets(out, (int)cap, f) != NULL;
    fclose(f);
    if (!got) {
        fprintf(stderr, "gpusizer: the database password file %s is empty\n", path);
        return false;
    }
    out[strcspn(out, "\r\n")] = '\0';
    return true;
}

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
}

/* Opens the catalog: PostgreSQL when a URL is set (waiting up to GPUSIZER_DATABASE_WAIT_S
 * for a database that is still starting, as beside it in docker compose or a Kubernetes
 * rollout), else the SQLite file. Errors name the file, never the URL (it may hold a
 * password). */
static int open_catalog(const struct options *o, struct catalog **catalog)
{
    struct gs_error err;
    gs_error_init(&err);
    if (o->database_url == NULL) {
        if (catalog_open(o->db, catalog, &err) == GS_OK)
            return 0;
        print_errors(o->db, &err);
        return -1;
    }
    if (!catalog_pg_is_url(o->database_url)) {
        fprintf(stderr, "gpusizer: the database URL must start with postgres:// or "
                        "postgresql://\n");
        return -1;
    }
    char password[1024] = "";
    if (o->database_password_file != NULL &&
        !read_password_file(o->database_password_file, password, sizeof(password)))
        return -1;
    long wait_s = 30;
    const char *w = getenv("GPUSIZER_DATABASE_WAIT_S");
    if (w != NULL && *w && !parse_long(w, 0, 3600, &wait_s)) {
        fprintf(stderr, "gpusizer: GPUSIZER_DATABASE_WAIT_S=%s is not a whole number of seconds "
                        "from 0 to 3600\n", w);
        return -1;
    }
    struct timespec start, now;
    clock_gettime(CLOCK_MONOTONIC, &start);
    for (long delay = 250;; delay = delay * 2 > 2000 ? 2000 : delay * 2) {
        gs_error_init(&err);
        enum gs_status st = catalog_open_location(
            o->database_url, o->database_password_file != NULL ? password : NULL, catalog, &err);
        clock_gettime(CLOCK_MONOTONIC, &now);
        if (st == GS_OK || st != GS_ERR_BUSY || now.tv_sec - start.tv_sec >= wait_s) {
            explicit_bzero(password, sizeof(password));
            if (st == GS_OK)
                return 0;
            print_errors("catalog (PostgreSQL)", &err);
            return -1;
        }
        fprintf(stderr, "gpusizer: waiting for the PostgreSQL catalog: %s\n",
                err.count ? err.items[0].detail : "unreachable");
        sleep_ms(delay);
    }
}

/* Opens the catalog and builds the service over a fresh snapshot. */
static int load_service(const struct options *o, struct catalog **catalog,
                        struct service **service)
{
    struct gs_error err;
    struct catalog_snapshot *snapshot = NULL;
    gs_error_init(&err);
    if (open_catalog(o, catalog) != 0)
        return -1;
    if (catalog_snapshot_load(*catalog, &snapshot, &err) != GS_OK) {
        print_errors("catalog", &err);
        catalog_close(*catalog);
        *catalog = NULL;
        return -1;
    }
    enum gs_status st = service_create(snapshot, service, &err);
    print_errors("catalog", &err); /* unusable rows are reported, not fatal */
    if (st != GS_OK) {
        catalog_close(*catalog);
        *catalog = NULL;
        return -1;
    }
    return 0;
}

/* GPUSIZER_AUTO_IMPORT: "1"/"true"/"yes"/"on" or "0"/"false"/"no"/"off"; else `fallback`. */
static bool auto_import_setting(bool fallback)
{
    const char *v = getenv("GPUSIZER_AUTO_IMPORT");
    if (v == NULL || v[0] == '\0')
        return fallback;
    if (strcmp(v, "1") == 0 || strcasecmp(v, "true") == 0 || strcasecmp(v, "yes") == 0 ||
        strcasecmp(v, "on") == 0)
        return true;
    if (strcmp(v, "0") == 0 || strcasecmp(v, "false") == 0 || strcasecmp(v, "no") == 0 ||
        strcasecmp(v, "off") == 0)
        return false;
    return fallback;
}

/* A whole number from the environment within [min, max]; 0 (the server's
 * default) when unset, with a warning when set but invalid. */
static unsigned env_unsigned(const char *name, long min, long max)
{
    const char *v = getenv(name);
    long n = 0;
    if (v == NULL || *v == '\0')
        return 0;
    if (!parse_long(v, min, max, &n)) {
        fprintf(stderr, "gpusizer: %s=%s is not a whole number from %ld to %ld; using the default\n",
                name, v, min, max);
        return 0;
    }
    return (unsigned)n;
}

static int cmd_serve(const struct options *o)
{
    struct catalog *catalog = NULL;
    struct service *service = NULL;
    struct store *store = NULL;
    struct http_server *server = NULL;
    char errbuf[256];
    sigset_t stop_signals;

    /* Block the stop signals before any thread starts, so every worker
     * inherits the mask and only sigwait below sees them. */
    sigemptyset(&stop_signals);
    sigaddset(&stop_signals, SIGINT);
    sigaddset(&stop_signals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stop_signals, NULL);
    signal(SIGPIPE, SIG_IGN);

    struct auth *auth = auth_create(getenv("GPUSIZER_API_KEY"), o->api_key_file, errbuf,
                                    sizeof(errbuf));
    if (auth == NULL) {
        fprintf(stderr, "gpusizer: %s\n", errbuf);
        return 1;
    }
    const char *cache_mib = getenv("GPUSIZER_ANSWER_CACHE_MIB");
    long mib = SERVICE_ANSWER_CACHE_DEFAULT >> 20;
    if (cache_mib != NULL && *cache_mib && !parse_long(cache_mib, 0, 1024, &mib)) {
        fprintf(stderr, "gpusizer: GPUSIZER_ANSWER_CACHE_MIB=%s is not a whole number from 0 "
                        "to 1024; using the default\n", cache_mib);
        mib = SERVICE_ANSWER_CACHE_DEFAULT >> 20;
    }
    service_set_answer_cache_bytes((size_t)mib << 20);
    if (load_service(o, &catalog, &service) != 0) {
        auth_free(auth);
        return 1;
    }
    struct gs_error err;
    gs_error_init(&err);
    if (store_create(catalog, service, &store, &err) != GS_OK) {
        print_errors("store", &err);
        auth_free(auth);
        return 1;
    }
    struct http_config cfg = {o->host, (uint16_t)o->port, (unsigned)o->threads,
                              (size_t)o->max_body, 30, NULL, auto_import_setting(false),
                              env_unsigned("GPUSIZER_MAX_CONNECTIONS", 1, 1000000),
                              env_unsigned("GPUSIZER_MAX_CONNECTIONS_PER_IP", 1, 1000000),
                              env_unsigned("GPUSIZER_HEADER_TIMEOUT_S", 1, 3600),
                              env_unsigned("GPUSIZER_BODY_TIMEOUT_S", 1, 3600),
                              (uint64_t)env_unsigned("GPUSIZER_MAX_BUFFERED_MIB", 1, 1 << 20)
                                  << 20,
                              getenv("GPUSIZER_ACCESS_LOG"), getenv("GPUSIZER_CORS_ORIGINS"),
                              env_unsigned("GPUSIZER_WRITE_THREADS", 1, 64),
                              env_unsigned("GPUSIZER_COMPUTE_THREADS", 1, 1024),
                              env_unsigned("GPUSIZER_COMPUTE_QUEUE", 1, 100000),
                              env_unsigned("GPUSIZER_COMPUTE_BUDGET_MS", 1, 3600000),
                              env_unsigned("GPUSIZER_IMPORT_THREADS", 1, 64)};
    if (!http_start(&cfg, store, auth, &server, errbuf, sizeof(errbuf))) {
        fprintf(stderr, "gpusizer: %s\n", errbuf);
        store_free(store);
        auth_free(auth);
        return 1;
    }
    const char *shown = strchr(o->host, ':') != NULL ? NULL : o->host;
    if (shown != NULL)
        printf("gpusizer listening on http://%s:%u\n", shown, (unsigned)http_port(server));
    else
        printf("gpusizer listening on http://[%s]:%u\n", o->host, (unsigned)http_port(server));
    printf("gpusizer catalog writes %s\n",
           auth_enabled(auth) ? "enabled (API key configured)" : "disabled (no API key)");
    fflush(stdout);

    int sig = 0;
    sigwait(&stop_signals, &sig);
    fprintf(stderr, "gpusizer: %s received, stopping\n", sig == SIGINT ? "SIGINT" : "SIGTERM");
    http_stop(server);
    store_free(store);
    auth_free(auth);
    return 0;
}

/* Reads all of stdin (up to STDIN_LIMIT) into a new NUL-terminated buffer. */
static char *read_stdin(size_t *length)
{
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap);
    while (buf != NULL) {
        size_t n = fread(buf + len, 1, cap - len - 1, stdin);
        len += n;
        if (n == 0 || len > STDIN_LIMIT)
            break;
        if (len + 1 == cap) {
            char *grown = realloc(buf, cap * 2);
            if (grown == NULL) {
                free(buf);
                return NULL;
            }
            buf = grown;
            cap *= 2;
        }
    }
    if (buf != NULL)
        buf[len] = '\0';
    *length = len;
    return buf;
}

static int print_json(const json_t *value)
{
    if (json_dumpf(value, stdout, JSON_INDENT(2) | JSON_REAL_PRECISION(15)) != 0)
        return -1;
    fputc('\n', stdout);
    return fflush(stdout) == 0 ? 0 : -1;
}

static int print_problem(const struct problem *p)
{
    json_t *body = problem_to_json(p);
    int rc = body != NULL ? print_json(body) : -1;
    json_decref(body);
    return rc;
}

/* A request naming a model by its hub id. */
static bool names_hub_model(const json_t *request)
{
    const json_t *model = json_object_get(request, "model");
    return json_is_object(model) && json_object_get(model, "hub_id") != NULL;
}

/* The catalog is opened only when the request names a catalog entry, so
 * sizing a raw config leaves no file behind. */
static bool needs_catalog(const json_t *request)
{
    return json_is_string(json_object_get(request, "model")) ||
           json_is_string(json_object_get(request, "gpu")) || names_hub_model(request);
}


typedef enum gs_status (*json_operation)(const struct service *service, const json_t *request,
                                         json_t **response, struct problem *problem);

/* Whether `text` holds nothing but JSON whitespace. */
static bool blank(const char *text)
{
    return text[strspn(text, " \t\r\n")] == '\0';
}

/* The request: the JSON on stdin (read unless stdin is a terminal and options give the
 * request), with the options' members over it. 0; 1 with the problem printed, as for a bad
 * body; 2 with a message on stderr (an option's file). */
static int read_request(const struct flags_request *flags, json_t **request)
{
    struct problem p;
    problem_init(&p);
    *request = NULL;
    const bool terminal = isatty(STDIN_FILENO) == 1;
    size_t length = 0;
    char *input = NULL;
    if (!terminal || flags->count == 0) {
        if (terminal)
            fprintf(stderr, "gpusizer %s: reading a JSON request on stdin, Ctrl-D to end it "
                            "(gpusizer %s --help: the options instead)\n",
                    flags->name, flags->name);
        input = read_stdin(&length);
        if (input == NULL || length > STDIN_LIMIT) {
            problem_set(&p, 413, "payload-too-large", "Payload too large",
                        "stdin is limited to %zu bytes", STDIN_LIMIT);
            free(input);
            print_problem(&p);
            return 1;
        }
    }
    if (flags->count > 0 && (input == NULL || blank(input))) {
        *request = json_object(); /* the options alone */
    } else {
        json_error_t jerr;
        *request = json_load_lenient(input, length, JSON_REJECT_DUPLICATES, &jerr);
        if (*request == NULL) {
            problem_set(&p, 400, "malformed-json", "The body is not valid JSON",
                        "line %d, column %d: %s", jerr.line, jerr.column, jerr.text);
            gs_error_add(&p.errors, GS_ERR_INVALID, "", "%s", jerr.text);
            free(input);
            print_problem(&p);
            return 1;
        }
    }
    free(input);
    if (*request == NULL) {
        fprintf(stderr, "gpusizer %s: out of memory\n", flags->name);
        return 1;
    }
    /* a request that is not an object is left as it is: the API answers it */
    if (flags->count > 0 && json_is_object(*request) && !flags_apply(flags, *request)) {
        json_decref(*request);
        *request = NULL;
        return 2;
    }
    return 0;
}

/* The answer: JSON as ever when asked (--json) or when stdout is not a terminal (a pipe, a
 * file), else the summary. 0, or -1 when writing failed. */
static int print_answer(const struct flags_request *flags, const json_t *response)
{
    const bool summary = flags->output == FLAGS_OUTPUT_SUMMARY ||
                         (flags->output == FLAGS_OUTPUT_AUTO && isatty(STDOUT_FILENO) == 1);
    if (!summary)
        return print_json(response);
    switch (flags->command) {
    case FLAGS_FIT:
        return summary_fit(response, stdout) ? 0 : -1;
    case FLAGS_RECOMMEND:
        return summary_recommend(response, stdout) ? 0 : -1;
    default:
        return summary_estimate(response, stdout) ? 0 : -1;
    }
}

/* Reads the request (options and stdin), runs `operation`, prints the answer. */
static int cmd_compute(const struct options *o, json_operation operation, bool always_catalog,
                       const struct flags_request *flags)
{
    struct problem p;
    problem_init(&p);
    json_t *request = NULL;
    const int read = read_request(flags, &request);
    if (read != 0)
        return read;
    struct catalog *catalog = NULL;
    struct service *service = NULL;
    int rc = 1;
    struct gs_error err;
    gs_error_init(&err);
    struct store *store = NULL;
    if (always_catalog || needs_catalog(request)) {
        if (load_service(o, &catalog, &service) != 0)
            goto out;
        if (names_hub_model(request)) {
            /* a hub model may be imported first: through a store, as the server does */
            if (store_create(catalog, service, &store, &err) != GS_OK) {
                print_errors("store", &err);
                catalog = NULL;
                service = NULL;
                goto out;
            }
            catalog = NULL;
            service = store_acquire(store);
            struct hub_config hub;
            hub_config_defaults(&hub);
            hub_config_from_env(&hub);
            if (hub_import_prepare(&hub, store, auto_import_setting(true), request, &service,
                                   &p) != 0) {
                print_problem(&p);
                goto out;
            }
        }
    } else if (service_create(NULL, &service, &err) != GS_OK) {
        print_errors("estimate", &err);
        goto out;
    }
    json_t *response = NULL;
    if (operation(service, request, &response, &p) == 0) {
        rc = print_answer(flags, response) == 0 ? 0 : 1;
        json_decref(response);
    } else {
        print_problem(&p);
    }
out:
    json_decref(request);
    if (store != NULL) {
        store_release(service);
        store_free(store);
    } else {
        service_free(service);
        catalog_close(catalog);
    }
    return rc;
}

/* gpusizer import org/name[@revision] [file.gguf] */
static int cmd_import(const struct options *o, const char *spec, const char *file)
{
    struct hub_ref req;
    memset(&req, 0, sizeof(req));
    const char *at = strchr(spec, '@');
    snprintf(req.hub_id, sizeof(req.hub_id), "%.*s", at != NULL ? (int)(at - spec) : (int)strlen(spec),
             spec);
    snprintf(req.revision, sizeof(req.revision), "%s", at != NULL ? at + 1 : "main");
    if (file != NULL)
        snprintf(req.file, sizeof(req.file), "%s", file);
    if (!hub_id_valid(req.hub_id) || !hub_revision_valid(req.revision)) {
        fprintf(stderr, "gpusizer: %s is not org/name[@revision]\n", spec);
        return 2;
    }
    struct catalog *catalog = NULL;
    struct service *service = NULL;
    struct store *store = NULL;
    struct gs_error err;
    gs_error_init(&err);
    if (load_service(o, &catalog, &service) != 0)
        return 1;
    if (store_create(catalog, service, &store, &err) != GS_OK) {
        print_errors("store", &err);
        return 1;
    }
    struct hub_config hub;
    hub_config_defaults(&hub);
    hub_config_from_env(&hub);
    struct problem p;
    problem_init(&p);
    struct catalog_put_result put;
    memset(&put, 0, sizeof(put));
    int rc = 1;
    if (hub_import_run(&hub, store, &req, &put, &p) != 0) {
        print_problem(&p);
    } else {
        struct service *now = store_acquire(store);
        const struct catalog_snapshot *snap = service_snapshot(now);
        const struct catalog_model *m = catalog_snapshot_model(snap, put.id);
        size_t length = 0;
        const char *text =
            m != NULL ? service_model_item(now, (size_t)(m - snap->models), &length) : NULL;
        if (text != NULL) {
            fwrite(text, 1, length, stdout);
            fputc('\n', stdout);
            rc = 0;
        }
        store_release(now);
    }
    store_free(store);
    return rc;
}

/* The model types the readers know: GET /v1/model-types's JSON, or with --markdown the README's
 * list (scripts/model-types.sh writes it there; a test checks it is current). */
static int cmd_model_types(int argc, char **argv)
{
    const bool markdown = argc == 3 && strcmp(argv[2], "--markdown") == 0;
    if (argc > 3 || (argc == 3 && !markdown)) {
        fprintf(stderr, "gpusizer model-types: unknown option %s (usage: gpusizer model-types "
                        "[--markdown])\n", argv[strcmp(argv[2], "--markdown") == 0 ? 3 : 2]);
        return 2;
    }
    if (markdown) {
        char *text = model_types_markdown();
        if (text == NULL)
            return 1;
        fputs(text, stdout);
        free(text);
        return 0;
    }
    size_t length = 0;
    const char *json = model_types_json(&length);
    if (json == NULL)
        return 1;
    fwrite(json, 1, length, stdout);
    fputc('\n', stdout);
    return 0;
}

/* Whether the arguments after the command ask for its help. */
static bool asks_help(int argc, char **argv)
{
    for (int i = 2; i < argc; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
            return true;
    return false;
}

/* gpusizer estimate|fit|recommend [options] [< request.json] */
static int cmd_request(enum flags_command command, int argc, char **argv)
{
    struct flags_request flags;
    switch (flags_parse(command, argc, argv, &flags)) {
    case FLAGS_HELP:
        return 0;
    case FLAGS_USAGE:
        return 2;
    default:
        break;
    }
    struct options o;
    options_defaults(&o);
    if (flags.db != NULL)
        o.db = flags.db;
    if (flags.database_url != NULL)
        o.database_url = flags.database_url;
    if (flags.database_password_file != NULL)
        o.database_password_file = flags.database_password_file;
    /* recommend and fit read the GPUs from the catalog */
    if (command == FLAGS_RECOMMEND)
        return cmd_compute(&o, sizing_recommend, true, &flags);
    if (command == FLAGS_FIT)
        return cmd_compute(&o, sizing_fit, true, &flags);
    return cmd_compute(&o, service_estimate, false, &flags);
}

int cli_main(int argc, char **argv)
{
    struct options o;
    enum flags_command command;
    if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
        (strcmp(argv[1], "help") == 0 && argc == 2)) {
        help_usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    if (strcmp(argv[1], "help") == 0) { /* gpusizer help <command> */
        if (flags_command_named(argv[2], &command))
            return flags_help(command, stdout) ? 0 : 1;
        if (help_command(argv[2], stdout))
            return 0;
        fprintf(stderr, "gpusizer: no command %s (gpusizer --help lists them)\n", argv[2]);
        return 2;
    }
    if (flags_command_named(argv[1], &command))
        return cmd_request(command, argc, argv);
    if (asks_help(argc, argv) && help_command(argv[1], stdout))
        return 0;
    if (strcmp(argv[1], "version") == 0 || strcmp(argv[1], "--version") == 0) {
        printf("gpusizer %s\n", GPUSIZER_VERSION);
        return 0;
    }
    if (strcmp(argv[1], "model-types") == 0)
        return cmd_model_types(argc, argv);
    if (strcmp(argv[1], "serve") != 0 && strcmp(argv[1], "import") != 0) {
        fprintf(stderr, "gpusizer: unknown command %s (gpusizer --help lists the commands)\n",
                argv[1]);
        return 2;
    }
    if (parse_options(argc, argv, &o) != 0)
        return 2;
    if (strcmp(argv[1], "serve") == 0) {
        if (o.positional_count > 0) {
            fprintf(stderr, "gpusizer serve: unexpected argument %s (gpusizer serve --help lists "
                            "the options)\n", o.positional[0]);
            return 2;
        }
        return cmd_serve(&o);
    }
    if (o.positional_count < 1 || o.positional_count > 2) {
        fprintf(stderr, "usage: gpusizer import org/name[@revision] [file.gguf] (gpusizer import "
                        "--help)\n");
        return 2;
    }
    return cmd_import(&o, o.positional[0], o.positional_count > 1 ? o.positional[1] : NULL);
}
