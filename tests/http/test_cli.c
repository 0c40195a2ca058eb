/*
 * test_cli.c - the command line of `gpusizer estimate`, `fit` and `recommend` (issue 34):
 * each command's --help; the request options against the same request sent as JSON on
 * stdin (the answers byte-identical, a refused request the same problem); options over a
 * request on stdin; the summary; usage errors (exit 2, naming the option); and the JSON
 * through a pipe or with --json exactly as jansson's indented dump, as before the options
 * existed. The summary as the default on a terminal is checked on a pseudo-terminal.
 *
 * Each command runs as a process on a temporary catalog, under the servers' wrapper when
 * one is set (scripts/valgrind-test.sh: a memory error or leak fails the exit status).
 *
 * usage: test_cli /path/to/gpusizer
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "test_files.h"
#include "test_server.h"

#include <errno.h>
#include <jansson.h>
#include <pty.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *binary;
static struct test_db db;
static char in_path[128], err_path[128], config_path[128];

struct result {
    int status; /* the exit status, -1 when it did not exit */
    char *out;  /* stdout, NUL-terminated */
    char *err;  /* stderr */
};

static void result_free(struct result *r)
{
    free(r->out);
    free(r->err);
}

/* All of `f`, NUL-terminated. */
static char *slurp(FILE *f)
{
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    assert_non_null(buf);
    for (;;) {
        const size_t n = fread(buf + len, 1, cap - len - 1, f);
        len += n;
        if (n == 0)
            break;
        if (len + 1 == cap) {
            cap *= 2;
            buf = realloc(buf, cap);
            assert_non_null(buf);
        }
    }
    buf[len] = '\0';
    return buf;
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    assert_int_equal(fputs(text, f) >= 0, 1);
    assert_int_equal(fclose(f), 0);
}

/* Runs `gpusizer <args> --db <catalog>` through sh with stdout a pipe, stdin `input` (NULL:
 * /dev/null, empty and not a terminal). */
static struct result run(const char *input, const char *args)
{
    if (input != NULL)
        write_file(in_path, input);
    char command[4096];
    snprintf(command, sizeof(command), "%s %s %s --db %s < %s 2> %s", test_server_wrapper(),
             binary, args, db.path, input != NULL ? in_path : "/dev/null", err_path);
    FILE *p = popen(command, "r");
    assert_non_null(p);
    struct result r;
    r.out = slurp(p);
    const int status = pclose(p);
    r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    FILE *e = fopen(err_path, "r");
    assert_non_null(e);
    r.err = slurp(e);
    fclose(e);
    return r;
}

/* Runs `gpusizer <args>` with stdout and stdin a pseudo-terminal; its output. */
static char *run_on_terminal(const char *args, int *exit_status)
{
    char command[4096];
    snprintf(command, sizeof(command), "%s %s %s --db %s 2>%s", test_server_wrapper(), binary,
             args, db.path, err_path);
    int master = -1;
    const pid_t pid = forkpty(&master, NULL, NULL, NULL);
    assert_true(pid >= 0);
    if (pid == 0) {
        execl("/bin/sh", "sh", "-c", command, (char *)NULL);
        _exit(127);
    }
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    assert_non_null(buf);
    for (;;) {
        const ssize_t n = read(master, buf + len, cap - len - 1);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break; /* EIO once the child has closed the terminal */
        len += (size_t)n;
        if (len + 1 == cap) {
            cap *= 2;
            buf = realloc(buf, cap);
            assert_non_null(buf);
        }
    }
    buf[len] = '\0';
    close(master);
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    *exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return buf;
}

/* The text is jansson's indented dump of a JSON value plus a newline, as the CLI always wrote. */
static void assert_cli_json(const char *text)
{
    json_error_t err;
    json_t *value = json_loads(text, 0, &err);
    if (value == NULL)
        fail_msg("not JSON (%s): %.200s", err.text, text);
    char *again = json_dumps(value, JSON_INDENT(2) | JSON_REAL_PRECISION(15));
    assert_non_null(again);
    const size_t n = strlen(again);
    assert_int_equal(strlen(text), n + 1);
    assert_memory_equal(text, again, n);
    assert_int_equal(text[n], '\n');
    free(again);
    json_decref(value);
}

static int setup(void **state)
{
    (void)state;
    if (test_db_make(&db, "gs-cli") != 0)
        return -1;
    snprintf(in_path, sizeof(in_path), "%s/request.json", db.dir);
    snprintf(err_path, sizeof(err_path), "%s/stderr.txt", db.dir);
    snprintf(config_path, sizeof(config_path), "%s/config.json", db.dir);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    unlink(in_path);
    unlink(err_path);
    unlink(config_path);
    test_db_remove(&db);
    return 0;
}

/* --help of each command: exit 0, usage and every option on stdout, with an example. */
static void test_help(void **state)
{
    (void)state;
    static const char *const common[] = {
        "--model",   "--hub-id", "--config", "--parameters", "--mode",   "--weights",
        "--engine",  "--context", "--batch", "--seq",        "--tensor", "--pipeline",
        "--json",    "--summary", "--db",    "e.g.",         NULL};
    static const char *const single_gpu[] = {"--gpu ", "--gpus", NULL};
    static const char *const demand[] = {"--tokens-per-s", "--tpot-ms", "--max-gpus",
                                         "--prompt-tokens", "--output-tokens", NULL};
    static const char *const commands[] = {"estimate", "fit", "recommend"};
    for (size_t c = 0; c < 3; c++) {
        char args[64], usage[64];
        snprintf(args, sizeof(args), "%s --help", commands[c]);
        snprintf(usage, sizeof(usage), "usage: gpusizer %s", commands[c]);
        struct result r = run(NULL, args);
        assert_int_equal(r.status, 0);
        assert_non_null(strstr(r.out, usage));
        for (size_t i = 0; common[i] != NULL; i++)
            if (strstr(r.out, common[i]) == NULL)
                fail_msg("%s --help does not name %s", commands[c], common[i]);
        const char *const *own = c == 2 ? demand : single_gpu;
        for (size_t i = 0; own[i] != NULL; i++)
            if (strstr(r.out, own[i]) == NULL)
                fail_msg("%s --help does not name %s", commands[c], own[i]);
        snprintf(args, sizeof(args), "%s -h", commands[c]);
        struct result h = run(NULL, args);
        assert_int_equal(h.status, 0);
        assert_string_equal(h.out, r.out);
        snprintf(args, sizeof(args), "help %s", commands[c]);
        struct result word = run(NULL, args);
        assert_int_equal(word.status, 0);
        assert_string_equal(word.out, r.out);
        result_free(&r);
        result_free(&h);
        result_free(&word);
    }
    static const char *const others[][2] = {{"serve --help", "--port"},
                                            {"import --help", "ORG/NAME"},
                                            {"model-types -h", "--markdown"}};
    for (size_t i = 0; i < 3; i++) {
        struct result r = run(NULL, others[i][0]);
        assert_int_equal(r.status, 0);
        assert_non_null(strstr(r.out, "usage: gpusizer"));
        assert_non_null(strstr(r.out, others[i][1]));
        result_free(&r);
    }
    struct result top = run(NULL, "--help");
    assert_int_equal(top.status, 0);
    static const char *const listed[] = {"estimate", "fit", "recommend", "serve", "import",
                                         "model-types"};
    for (size_t i = 0; i < 6; i++)
        assert_non_null(strstr(top.out, listed[i]));
    result_free(&top);
}

struct same_case {
    const char *command;
    const char *json;    /* the request on stdin */
    const char *options; /* the same request as options */
    int status;          /* 0 answered, 1 refused */
    bool heavy;          /* left out under a wrapper (valgrind: ~5 s a catalog command) */
};

static void assert_same(const struct same_case *c, const char *stdin_with_options)
{
    char args[1024];
    snprintf(args, sizeof(args), "%s", c->command);
    struct result want = run(c->json, args);
    if (want.status != c->status)
        fail_msg("%s < %s: exit %d, %s", c->command, c->json, want.status, want.err);
    snprintf(args, sizeof(args), "%s %s", c->command, c->options);
    struct result got = run(stdin_with_options, args);
    if (got.status != c->status || strcmp(got.out, want.out) != 0)
        fail_msg("gpusizer %s (stdin %s): exit %d, the answer differs from %s's\n%.400s\n%s",
                 args, stdin_with_options != NULL ? stdin_with_options : "none", got.status,
                 c->json, got.out, got.err);
    assert_cli_json(got.out);
    result_free(&want);
    result_free(&got);
}

/* Options give the same answer, byte for byte, as the same request as JSON on stdin. */
static void test_options_equal_stdin(void **state)
{
    (void)state;
    write_file(config_path,
               "{\"model_type\": \"llama\", \"hidden_size\": 2048, \"intermediate_size\": 8192,"
               " \"num_hidden_layers\": 16, \"num_attention_heads\": 32,"
               " \"num_key_value_heads\": 8, \"vocab_size\": 128256, \"tie_word_embeddings\": true,"
               " \"rope_theta\": NaN}");
    char config_request[512], config_options[256];
    snprintf(config_request, sizeof(config_request),
             "{\"model\": {\"config\": {\"model_type\": \"llama\", \"hidden_size\": 2048,"
             " \"intermediate_size\": 8192, \"num_hidden_layers\": 16,"
             " \"num_attention_heads\": 32, \"num_key_value_heads\": 8, \"vocab_size\": 128256,"
             " \"tie_word_embeddings\": true, \"rope_theta\": null}},"
             " \"gpu\": \"l4\", \"inference\": {\"context_length\": 4096, \"batch_size\": 4}}");
    snprintf(config_options, sizeof(config_options),
             "--config %s --gpu l4 --context 4096 --batch 4", config_path);
    const struct same_case cases[] = {
        {"estimate",
         "{\"model\": \"llama-3.1-8b\", \"mode\": \"inference\", \"precision\": {\"weights\": "
         "\"bf16\"}, \"gpu\": \"h100-sxm-80gb\", \"inference\": {\"engine\": \"vllm\", "
         "\"batch_size\": 16, \"context_length\": 8192}}",
         "--model llama-3.1-8b --mode inference --weights bf16 --gpu h100-sxm-80gb "
         "--engine vllm --batch 16 --context 8192", 0, false},
        {"estimate",
         "{\"model\": \"llama-3.1-8b\", \"mode\": \"training\", \"training\": {\"batch_size\": 2,"
         " \"sequence_length\": 4096}, \"gpu\": \"NVIDIA H100 80GB HBM3\"}",
         "--mode training --model=llama-3.1-8b --batch 2 --seq 4096 "
         "--gpu 'NVIDIA H100 80GB HBM3'", 0, false},
        {"estimate",
         "{\"model\": \"llama-3.1-70b\", \"gpu\": \"h100\", \"gpu_count\": 4, \"parallelism\": "
         "{\"tensor\": 4, \"pipeline\": 1}, \"inference\": {\"batch_size\": 8, "
         "\"context_length\": 4096}}",
         "--model llama-3.1-70b --gpu h100 --gpus 4 --tensor 4 --pipeline 1 --batch 8 "
         "--context 4096", 0, true},
        {"estimate",
         "{\"model\": {\"parameters\": 7000000000}, \"mode\": \"training\", \"precision\": "
         "{\"weights\": \"fp32\"}}",
         "--parameters 7e9 --mode training --weights fp32", 0, false},
        {"estimate", config_request, config_options, 0, false},
        {"estimate",
         "{\"model\": \"llama-3.1-8b\", \"parallelism\": {\"pipeline\": 2, \"stage_gpus\": "
         "[\"l4\", \"l40s\"]}, \"inference\": {\"context_length\": 8192}}",
         "--model llama-3.1-8b --pipeline 2 --stage-gpus l4,l40s --context 8192", 0, false},
        {"estimate", "{\"model\": \"llama-3.1-8b\", \"inference\": {\"batch_size\": 0}}",
         "--model llama-3.1-8b --batch 0", 1, false},
        {"estimate", "{\"model\": \"llama-3.1-8b\", \"precision\": {\"weights\": \"fp9\"}}",
         "--model llama-3.1-8b --weights fp9", 1, true},
        {"fit",
         "{\"model\": \"llama-3.1-70b\", \"gpu\": \"h100\", \"inference\": {\"batch_size\": 32,"
         " \"context_length\": 8192}}",
         "--model llama-3.1-70b --gpu h100 --batch 32 --context 8192", 0, false},
        {"recommend",
         "{\"model\": \"llama-3.1-70b\", \"inference\": {\"context_length\": 8192}, \"demand\": "
         "{\"output_tokens_per_s\": 5000, \"prompt_tokens\": 2000, \"output_tokens\": 500}, "
         "\"constraints\": {\"max_gpus\": 16}}",
         "--model llama-3.1-70b --context 8192 --tokens-per-s 5000 --prompt-tokens 2000 "
         "--output-tokens 500 --max-gpus 16", 0, false},
        {"recommend",
         "{\"model\": \"llama-3.1-8b\", \"inference\": {\"context_length\": 4096}, \"demand\": "
         "{\"output_tokens_per_s\": 2000, \"tpot_ms\": 20}}",
         "--model llama-3.1-8b --context 4096 --tokens-per-s 2000 --tpot-ms 20", 0, true},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
        if (!cases[i].heavy || !test_server_wrapped())
            assert_same(&cases[i], NULL);

    /* options over a request on stdin: theirs win, the rest of stdin's stays */
    const struct same_case over = {
        "estimate",
        "{\"model\": \"llama-3.1-8b\", \"gpu\": \"h100-sxm-80gb\", \"inference\": "
        "{\"engine\": \"vllm\", \"kv_cache_dtype\": \"fp8\", \"batch_size\": 16, "
        "\"context_length\": 8192}}",
        "--model llama-3.1-8b --gpu h100-sxm-80gb --batch 16 --context 8192", 0, false};
    assert_same(&over, "{\"model\": \"mistral-7b-v0.1\", \"gpu\": \"l4\", \"inference\": "
                       "{\"engine\": \"vllm\", \"kv_cache_dtype\": \"fp8\", \"batch_size\": 2}}");
    /* a blank stdin with options is no request of its own */
    assert_same(&cases[0], "  \n");
}

/* --summary: the model id, the GPU and a total in GiB; fit's verdict; recommend's table. */
static void test_summary(void **state)
{
    (void)state;
    struct result r = run(NULL, "estimate --model llama-3.1-8b --gpu h100-sxm-80gb --engine vllm "
                                "--context 8192 --batch 16 --summary");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "llama-3.1-8b"));
    assert_non_null(strstr(r.out, "h100-sxm-80gb"));
    const char *total = strstr(r.out, "total");
    assert_non_null(total);
    assert_non_null(strstr(total, "GiB"));
    assert_non_null(strstr(r.out, "KV cache"));
    assert_true(r.out[0] != '{');
    result_free(&r);

    /* a request on stdin, summarized */
    r = run("{\"model\": \"llama-3.1-70b\", \"mode\": \"training\", \"training\": "
            "{\"batch_size\": 1, \"sequence_length\": 4096}, \"parallelism\": {\"tensor\": 8, "
            "\"pipeline\": 2, \"data\": 2, \"zero_stage\": 1}, \"gpu\": \"h100\"}",
            "estimate --summary");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "llama-3.1-70b"));
    assert_non_null(strstr(r.out, "TP8 PP2 DP2 ZeRO-1"));
    assert_non_null(strstr(r.out, "optimizer"));
    assert_non_null(strstr(r.out, "Stages:    40 x2 layers"));
    result_free(&r);

    /* DeepSeek-V3's 61 layers over 8 Megatron stages: the uneven ends */
    r = run("{\"model\": \"deepseek-v3\", \"mode\": \"training\", \"training\": "
            "{\"batch_size\": 1, \"sequence_length\": 4096}, \"parallelism\": {\"pipeline\": 8, "
            "\"expert\": 8, \"data\": 8}}",
            "estimate --summary");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "Stages:    6, 8 x6, 7 layers"));
    result_free(&r);

    /* served over three TensorRT-LLM stages: the remainder to the first (mapping.py pp_layers) */
    r = run("{\"model\": \"deepseek-v3\", \"gpu\": \"h200\", \"inference\": {\"engine\": "
            "\"tensorrt_llm\", \"batch_size\": 8, \"context_length\": 32768}, \"parallelism\": "
            "{\"tensor\": 8, \"pipeline\": 3}}",
            "estimate --summary");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "Stages:    21, 20 x2 layers"));
    result_free(&r);
    /* vLLM's own split of the same (20, 21, 20), and the stages a flag lists */
    r = run(NULL, "estimate --model deepseek-v3 --gpu h200 --engine vllm --context 32768 "
                  "--batch 8 --tensor 8 --pipeline 3 --summary");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "Stages:    20, 21, 20 layers"));
    result_free(&r);
    r = run(NULL, "estimate --model deepseek-v3 --gpu h200 --engine vllm --context 32768 "
                  "--batch 8 --tensor 8 --stage-layers 21,20,20 --summary");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "Stages:    21, 20 x2 layers"));
    result_free(&r);
    /* trained under Megatron-LM's interleaved schedule, two chunks a stage */
    r = run("{\"training\": {\"gradient_accumulation_steps\": 8}}",
            "estimate --model llama-3.1-8b --mode training --seq 4096 --batch 1 --pipeline 4 "
            "--virtual-stages 2 --summary");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "Stages:    8 x4 layers, in 2 interleaved chunks each"));
    result_free(&r);
    /* the HF Trainer's stages are a device_map, split by bytes (transformers' balanced map) */
    r = run("{\"training\": {\"framework\": \"transformers\"}}",
            "estimate --model llama-3.1-8b --mode training --pipeline 2 --summary");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, ", device_map 2\n"));
    assert_non_null(strstr(r.out, "Stages:    14, 18 layers"));
    result_free(&r);
    /* where no single change fits, fit proposes them together, and the layout names the
     * micro-batch it accumulates */
    r = run("{\"training\": {\"framework\": \"transformers\", \"method\": \"lora\"}}",
            "fit --model llama-2-70b --mode training --seq 8192 --batch 8 --gpu h100-sxm-80gb "
            "--summary");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "fits  more_gpus_full_recomputation ("));
    assert_non_null(strstr(r.out, "recompute full, micro-batch "));
    assert_non_null(strstr(r.out, "no    full_recomputation_accumulation (1 GPU, TP1, recompute "
                                  "full, micro-batch 1 x 8 steps)"));
    result_free(&r);
    /* a training fit's largest figures are a micro-batch and a sequence */
    r = run("{}", "fit --model llama-3.1-8b --mode training --seq 4096 --batch 4 "
                  "--gpu h100-sxm-80gb --summary");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "Largest:   micro-batch "));
    assert_non_null(strstr(r.out, " tokens (on "));
    result_free(&r);
    /* recommend runs the schedule on the pipelines it searches, and the layout names it */
    r = run("{\"training\": {\"gradient_accumulation_steps\": 16, \"framework\": \"megatron\"}, "
            "\"demand\": {\"training_tokens\": 1e11, \"deadline_days\": 20}}",
            "recommend --model llama-3.1-70b --mode training --seq 4096 --batch 1 "
            "--virtual-stages 2 --summary");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, " PP2 VPP2 "));
    result_free(&r);
    r = run(NULL, "estimate --model deepseek-v3 --stage-layers 21,x");
    assert_int_not_equal(r.status, 0);
    assert_non_null(strstr(r.err, "whole numbers separated by commas"));
    result_free(&r);

    r = run(NULL, "fit --model llama-3.1-70b --gpu h100 --context 8192 --batch 32 --summary");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "Verdict:"));
    assert_non_null(strstr(r.out, "Fewest:"));
    assert_non_null(strstr(r.out, "Changes:"));
    result_free(&r);

    r = run(NULL, "recommend --model llama-3.1-70b --context 8192 --tokens-per-s 5000 --summary");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "tok/s/user"));
    assert_non_null(strstr(r.out, "$/hour"));
    assert_non_null(strstr(r.out, "  1  "));
    result_free(&r);

    /* a refused request is the problem JSON whatever the output asked for */
    r = run(NULL, "estimate --model llama-3.1-8b --batch 0 --summary");
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.out, "/inference/batch_size"));
    assert_cli_json(r.out);
    result_free(&r);
}

/* Mistakes in the options: exit 2, a message naming the option, nothing on stdout. */
static void test_usage_errors(void **state)
{
    (void)state;
    static const char *const cases[][2] = {
        {"estimate --model llama-3.1-8b --frobnicate 3", "--frobnicate"},
        {"fit --model llama-3.1-8b --gpu l4 --batch many", "--batch"},
        {"estimate --model llama-3.1-8b --context", "--context"},
        {"recommend --model llama-3.1-8b --gpu h100", "--gpu"},
        {"estimate --model llama-3.1-8b --config x.json", "--config"},
        {"estimate --model llama-3.1-8b --json --summary", "--summary"},
        {"estimate --model llama-3.1-8b stray", "stray"},
        {"estimate -x", "-x"},
        {"estimate --config /nonexistent/config.json", "/nonexistent/config.json"},
        {"serve --frobnicate 1", "--frobnicate"},
        {"model-types --frobnicate", "--frobnicate"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct result r = run(NULL, cases[i][0]);
        if (r.status != 2 || strstr(r.err, cases[i][1]) == NULL || r.out[0] != '\0')
            fail_msg("gpusizer %s: exit %d, stderr %s", cases[i][0], r.status, r.err);
        result_free(&r);
    }
}

/* Through a pipe the answer is the JSON, as ever; --json gives the same. */
static void test_pipe_is_json(void **state)
{
    (void)state;
    const char *request = "{\"model\": \"mistral-7b-v0.1\", \"mode\": \"training\"}";
    struct result piped = run(request, "estimate");
    assert_int_equal(piped.status, 0);
    assert_cli_json(piped.out);
    assert_non_null(strstr(piped.out, "\"per_gpu\""));
    struct result json = run(request, "estimate --json");
    assert_int_equal(json.status, 0);
    assert_string_equal(json.out, piped.out);
    result_free(&piped);
    result_free(&json);
    /* a malformed request: the problem, as before */
    struct result bad = run("{\"model\": ", "estimate");
    assert_int_equal(bad.status, 1);
    assert_non_null(strstr(bad.out, "malformed-json"));
    assert_cli_json(bad.out);
    result_free(&bad);
}

/* On a terminal the summary is the default; --json still gives the JSON. */
static void test_terminal(void **state)
{
    (void)state;
    int status = -1;
    char *text = run_on_terminal("estimate --model llama-3.1-8b --gpu l4 --context 4096", &status);
    assert_int_equal(status, 0);
    assert_non_null(strstr(text, "Model:"));
    assert_non_null(strstr(text, "llama-3.1-8b"));
    assert_non_null(strstr(text, "GiB"));
    assert_null(strstr(text, "\"per_gpu\""));
    free(text);
    text = run_on_terminal("estimate --model llama-3.1-8b --gpu l4 --context 4096 --json",
                           &status);
    assert_int_equal(status, 0);
    assert_true(text[0] == '{');
    assert_non_null(strstr(text, "\"per_gpu\""));
    free(text);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s /path/to/gpusizer\n", argv[0]);
        return 2;
    }
    binary = argv[1];
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_help),
        cmocka_unit_test(test_options_equal_stdin),
        cmocka_unit_test(test_summary),
        cmocka_unit_test(test_usage_errors),
        cmocka_unit_test(test_pipe_is_json),
        cmocka_unit_test(test_terminal),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
