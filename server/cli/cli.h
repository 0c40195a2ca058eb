/*
 * cli.h - the `gpusizer` command line: `serve`; `estimate`, `fit` and `recommend`, which
 * take the request JSON of POST /v1/<command> on stdin and/or as options (cli/flags.h) and
 * write the same response (or problem) JSON on stdout, or on a terminal a summary of it
 * (cli/summary.h); `import` and `model-types`.
 */
#ifndef GS_CLI_H
#define GS_CLI_H

/* Runs the program; returns the process exit status. */
int cli_main(int argc, char **argv);

#endif
