/*
 * cli.h - the `gpusizer` command line: `serve`, and `estimate`, which reads
 * the request JSON of POST /v1/estimate on stdin and writes the same
 * response (or problem) JSON on stdout.
 */
#ifndef GS_CLI_H
#define GS_CLI_H

/* Runs the program; returns the process exit status. */
int cli_main(int argc, char **argv);

#endif
