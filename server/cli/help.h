/*
 * help.h - the help texts of `gpusizer` and of the commands that take no request: `serve`,
 * `import`, `model-types`, `version`. (estimate, fit and recommend print theirs from their
 * flag table, cli/flags.h.)
 */
#ifndef GS_CLI_HELP_H
#define GS_CLI_HELP_H

#include <stdbool.h>
#include <stdio.h>

/* `gpusizer --help`: the commands, one line each. False when writing failed. */
bool help_usage(FILE *out);

/* The help of `command` ("serve", "import", "model-types", "version") on `out`; false when
 * the command has none here. */
bool help_command(const char *command, FILE *out);

#endif
