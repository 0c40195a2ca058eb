/*
 * flags.h - the request flags of `gpusizer estimate`, `fit` and `recommend`.
 *
 * Each flag sets one member of the JSON request POST /v1/<command> takes
 * (--context sets inference.context_length, --gpus gpu_count, ...), so a person
 * need not write the JSON; flags_apply lays them over a request read on stdin,
 * the flags winning. One table (flags.c) drives the parsing, the members set
 * and the --help text.
 */
#ifndef GS_CLI_FLAGS_H
#define GS_CLI_FLAGS_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* The commands that take a request; bits, so a flag can name several. */
enum flags_command {
    FLAGS_ESTIMATE = 1u,
    FLAGS_FIT = 2u,
    FLAGS_RECOMMEND = 4u,
};

/* JSON or a summary: AUTO is JSON unless stdout is a terminal. */
enum flags_output {
    FLAGS_OUTPUT_AUTO,
    FLAGS_OUTPUT_JSON,
    FLAGS_OUTPUT_SUMMARY,
};

enum flags_result {
    FLAGS_PARSED, /* go on */
    FLAGS_HELP,   /* --help was printed: exit 0 */
    FLAGS_USAGE,  /* a message is on stderr: exit 2 */
};

#define FLAGS_MAX 64 /* request members one command line may set */

struct flags_spec; /* a row of the table in flags.c */

struct flags_setting {
    const struct flags_spec *spec;
    const char *value; /* argv's text; NULL for a switch */
};

struct flags_request {
    enum flags_command command;
    const char *name; /* "estimate" */
    enum flags_output output;
    const char *db; /* the catalog options, NULL unless given */
    const char *database_url;
    const char *database_password_file;
    struct flags_setting set[FLAGS_MAX]; /* request members, in argv's order */
    size_t count;
};

/* The command named `name` ("estimate", "fit", "recommend") in *command; false for any other. */
bool flags_command_named(const char *name, enum flags_command *command);

/* Parses argv[2..] of `gpusizer <command> ...`: `--flag value`, `--flag=value` and switches.
 * Every value is checked here (a number where one is needed), so a mistake is reported before
 * stdin is read. */
enum flags_result flags_parse(enum flags_command command, int argc, char **argv,
                              struct flags_request *out);

/* Sets the members the flags name on `request` (a JSON object), over its own. False after a
 * message on stderr (a --config file that cannot be read, no memory). */
bool flags_apply(const struct flags_request *flags, json_t *request);

/* Writes `gpusizer <command> --help`: usage, every option with its meaning and an example,
 * the output rule and examples. False when writing failed. */
bool flags_help(enum flags_command command, FILE *out);

#endif
