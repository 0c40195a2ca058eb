/*
 * flags.c - the request flags of `gpusizer estimate`, `fit` and `recommend`.
 *
 * One table: each row is a flag, the commands that take it, the request member
 * it sets (a path in the request JSON, never a member the API does not have),
 * its meaning and an example. Parsing checks every value before stdin is read;
 * applying sets the members on the request, replacing what stdin gave; --help
 * prints the rows of one command. Ranges are left to the API, so a value it
 * refuses is answered with the same problem JSON as the same value sent on stdin.
 */
#include "cli/flags.h"

#include "formats/json_lenient.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define CONFIG_LIMIT ((size_t)16 << 20) /* a config.json file, as stdin's limit */

enum flag_kind {
    KIND_STRING,      /* a string at path */
    KIND_LIST,        /* comma-separated strings: an array of them at path */
    KIND_WHOLE_LIST,  /* comma-separated whole numbers: an array of them at path */
    KIND_WHOLE,       /* a whole number at path */
    KIND_NUMBER,      /* a number at path */
    KIND_NUMBER_NONE, /* a number at path, or "none" for null */
    KIND_MODEL_ID,    /* model: "id" */
    KIND_HUB_ID,      /* model: {"hub_id": "org/name", "revision": "rev"} */
    KIND_CONFIG,      /* model: {"config": the file's JSON} */
    KIND_PARAMETERS,  /* model: {"parameters": N} */
    KIND_BATCH,       /* inference.batch_size, or training.batch_size in training mode */
    KIND_DB,          /* the catalog options */
    KIND_DATABASE_URL,
    KIND_PASSWORD_FILE,
    KIND_JSON, /* --json and --summary */
    KIND_SUMMARY,
    KIND_HELP,
};

#define ALL       (FLAGS_ESTIMATE | FLAGS_FIT | FLAGS_RECOMMEND)
#define ONE_GPU   (FLAGS_ESTIMATE | FLAGS_FIT)
#define RECOMMEND FLAGS_RECOMMEND

struct flags_spec {
    const char *group;   /* the help's heading for this row and those after it */
    const char *name;    /* "--context" */
    const char *metavar; /* "N"; NULL for a switch */
    enum flag_kind kind;
    const char *path;  /* the member set, "inference/context_length" */
    unsigned commands; /* enum flags_command bits */
    const char *help;  /* one line */
    const char *example;
};

static const struct flags_spec table[] = {
    {"The model (one of these, or \"model\" in the JSON on stdin)", "--model", "ID", KIND_MODEL_ID,
     "model", ALL, "a catalog model id or alias, or a Hugging Face name [model]",
     "--model llama-3.1-8b, --model meta-llama/Llama-3.1-8B-Instruct"},
    {NULL, "--hub-id", "ORG/NAME[@REV]", KIND_HUB_ID, "model", ALL,
     "a Hugging Face repository, imported on first use [model.hub_id]",
     "--hub-id Qwen/Qwen2.5-7B-Instruct-AWQ@main"},
    {NULL, "--config", "FILE", KIND_CONFIG, "model", ALL,
     "a model's config.json as published [model.config]", "--config ./config.json"},
    {NULL, "--parameters", "N", KIND_PARAMETERS, "model", ALL,
     "a raw parameter count, no architecture [model.parameters]", "--parameters 7e9"},
    {"The workload", "--mode", "MODE", KIND_STRING, "mode", ALL,
     "inference (the default) or training [mode]", "--mode training"},
    {NULL, "--weights", "FORMAT", KIND_STRING, "precision/weights", ALL,
     "weight format: bf16, fp8, awq, gptq, nf4, q4_k_m, ... [precision.weights]", "--weights fp8"},
    {NULL, "--engine", "NAME", KIND_STRING, "inference/engine", ALL,
     "vllm, sglang, tensorrt_llm, tgi or generic [inference.engine]", "--engine vllm"},
    {NULL, "--context", "N", KIND_WHOLE, "inference/context_length", ALL,
     "tokens per sequence, prompt and answer [inference.context_length]", "--context 8192"},
    {NULL, "--batch", "N", KIND_BATCH, NULL, ALL,
     "sequences at once [inference.batch_size, or training.batch_size]", "--batch 16"},
    {NULL, "--seq", "N", KIND_WHOLE, "training/sequence_length", ALL,
     "training sequence length [training.sequence_length]", "--seq 4096"},
    {NULL, "--tensor", "N", KIND_WHOLE, "parallelism/tensor", ALL,
     "tensor-parallel degree [parallelism.tensor]", "--tensor 4"},
    {NULL, "--pipeline", "N", KIND_WHOLE, "parallelism/pipeline", ALL,
     "pipeline-parallel stages [parallelism.pipeline]", "--pipeline 2"},
    {NULL, "--stage-gpus", "ID,ID,...", KIND_LIST, "parallelism/stage_gpus", FLAGS_ESTIMATE,
     "each pipeline stage's GPU, in stage order, on unequal GPUs [parallelism.stage_gpus]",
     "--pipeline 2 --stage-gpus l4,l40s"},
    {NULL, "--stage-layers", "N,N,...", KIND_WHOLE_LIST, "parallelism/stage_layers", ONE_GPU,
     "the decoder layers of each pipeline stage, in stage order (VLLM_PP_LAYER_PARTITION, "
     "SGLANG_PP_LAYER_PARTITION) [parallelism.stage_layers]",
     "--stage-layers 48,45"},
    {NULL, "--virtual-stages", "N", KIND_WHOLE, "parallelism/virtual_stages", ALL,
     "training: model chunks per pipeline stage, an interleaved schedule (Megatron-LM "
     "--num-virtual-stages-per-pipeline-rank, torchtitan Interleaved1F1B); recommend runs it "
     "on the pipelines it searches [parallelism.virtual_stages]",
     "--pipeline 4 --virtual-stages 2"},
    {"The GPU", "--gpu", "ID", KIND_STRING, "gpu", ONE_GPU,
     "a catalog GPU id or alias, or the name nvidia-smi prints [gpu]",
     "--gpu h100-sxm-80gb, --gpu 'NVIDIA H100 80GB HBM3'"},
    {NULL, "--gpus", "N", KIND_WHOLE, "gpu_count", ONE_GPU,
     "how many GPUs of that type [gpu_count]", "--gpus 4"},
    {"The demand and constraints", "--tokens-per-s", "N", KIND_NUMBER, "demand/output_tokens_per_s",
     RECOMMEND, "generated tokens per second, all users together [demand.output_tokens_per_s]",
     "--tokens-per-s 5000"},
    {NULL, "--prompt-tokens", "N", KIND_WHOLE, "demand/prompt_tokens", RECOMMEND,
     "prompt tokens per request [demand.prompt_tokens]", "--prompt-tokens 2000"},
    {NULL, "--output-tokens", "N", KIND_WHOLE, "demand/output_tokens", RECOMMEND,
     "generated tokens per request [demand.output_tokens]", "--output-tokens 500"},
    {NULL, "--tpot-ms", "MS", KIND_NUMBER_NONE, "demand/tpot_ms", RECOMMEND,
     "time per output token each user sees, none for no target [demand.tpot_ms]", "--tpot-ms 40"},
    {NULL, "--max-gpus", "N", KIND_WHOLE, "constraints/max_gpus", RECOMMEND,
     "at most this many GPUs in an option [constraints.max_gpus]", "--max-gpus 16"},
    {"The output", "--json", NULL, KIND_JSON, NULL, ALL,
     "the response JSON (the default when stdout is not a terminal)", "--json | jq .warnings"},
    {NULL, "--summary", NULL, KIND_SUMMARY, NULL, ALL,
     "a short summary for people (the default on a terminal)", "--summary > answer.txt"},
    {NULL, "--help", NULL, KIND_HELP, NULL, ALL, "this help (also -h)", "-h"},
    {"The catalog (read when the request names a catalog model or GPU)", "--db", "PATH", KIND_DB,
     NULL, ALL, "the SQLite catalog, created on first use (env GPUSIZER_DB)", "--db ./gpusizer.db"},
    {NULL, "--database-url", "URL", KIND_DATABASE_URL, NULL, ALL,
     "a PostgreSQL catalog instead (env GPUSIZER_DATABASE_URL)",
     "--database-url postgres://gpusizer@db:5432/gpusizer"},
    {NULL, "--database-password-file", "FILE", KIND_PASSWORD_FILE, NULL, ALL,
     "its password, when the URL has none", "--database-password-file /run/secrets/db-password"},
};

#define TABLE_SIZE (sizeof(table) / sizeof(table[0]))

bool flags_command_named(const char *name, enum flags_command *command)
{
    if (strcmp(name, "estimate") == 0)
        *command = FLAGS_ESTIMATE;
    else if (strcmp(name, "fit") == 0)
        *command = FLAGS_FIT;
    else if (strcmp(name, "recommend") == 0)
        *command = FLAGS_RECOMMEND;
    else
        return false;
    return true;
}

static const char *command_name(enum flags_command command)
{
    return command == FLAGS_FIT ? "fit" : command == FLAGS_RECOMMEND ? "recommend" : "estimate";
}

/* ------------------------------------------------------------------ values */

/* A finite decimal number, the whole text (no hexadecimal, no inf or nan). */
static bool parse_number(const char *text, double *out)
{
    char *end = NULL;
    if (strpbrk(text, "xXpP") != NULL)
        return false;
    errno = 0;
    const double v = strtod(text, &end);
    if (errno != 0 || end == text || *end != '\0' || !isfinite(v))
        return false;
    *out = v;
    return true;
}

/* A whole number, the whole text: digits, or a number such as 7e9 that is whole. */
static bool parse_whole(const char *text, json_int_t *out)
{
    char *end = NULL;
    errno = 0;
    const long long v = strtoll(text, &end, 10);
    if (errno == 0 && end != text && *end == '\0') {
        *out = (json_int_t)v;
        return true;
    }
    double d = 0;
    if (!parse_number(text, &d) || d != floor(d) || fabs(d) > 9007199254740992.0)
        return false; /* 2^53: past it a double no longer holds every whole number */
    *out = (json_int_t)d;
    return true;
}

static bool is_none(const char *text)
{
    return strcmp(text, "none") == 0 || strcmp(text, "null") == 0;
}

/* One item of a comma-separated list: a string, or (`whole`) a whole number; NULL when out of
 * memory, not UTF-8, or not a whole number. */
static json_t *list_item(const char *at, size_t n, bool whole)
{
    if (!whole)
        return json_stringn(at, n);
    char item[32];
    json_int_t value = 0;
    if (n == 0 || n >= sizeof(item))
        return NULL;
    memcpy(item, at, n);
    item[n] = '\0';
    return parse_whole(item, &value) ? json_integer(value) : NULL;
}

/* "a,b,c" as ["a", "b", "c"] (empty strings kept, for the server to refuse), or "48,45" as
 * [48, 45] (`whole`); NULL when an item cannot be read (list_item) or out of memory. */
static json_t *split_list(const char *text, bool whole)
{
    json_t *list = json_array();
    for (const char *at = text; list != NULL;) {
        const char *comma = strchr(at, ',');
        const size_t n = comma != NULL ? (size_t)(comma - at) : strlen(at);
        json_t *item = list_item(at, n, whole);
        if (item == NULL || json_array_append_new(list, item) != 0) {
            json_decref(list);
            return NULL;
        }
        if (comma == NULL)
            break;
        at = comma + 1;
    }
    return list;
}

/* Whether `text` is a value the kind takes; the message names what it needs. */
static bool value_ok(enum flag_kind kind, const char *text, const char **need)
{
    json_int_t whole = 0;
    double number = 0;
    switch (kind) {
    case KIND_WHOLE:
    case KIND_BATCH:
    case KIND_PARAMETERS:
        *need = "a whole number";
        return parse_whole(text, &whole);
    case KIND_NUMBER:
        *need = "a number";
        return parse_number(text, &number);
    case KIND_NUMBER_NONE:
        *need = "a number, or none";
        return is_none(text) || parse_number(text, &number);
    case KIND_HUB_ID:
        *need = "org/name[@revision]";
        return strchr(text, '/') != NULL;
    case KIND_WHOLE_LIST: {
        *need = "whole numbers separated by commas";
        json_t *list = split_list(text, true);
        json_decref(list);
        return list != NULL;
    }
    default:
        *need = "a value";
        return text[0] != '\0';
    }
}

static bool is_model(enum flag_kind kind)
{
    return kind == KIND_MODEL_ID || kind == KIND_HUB_ID || kind == KIND_CONFIG ||
           kind == KIND_PARAMETERS;
}

/* ----------------------------------------------------------------- parsing */

/* The row named `name` (`length` bytes of it) for any command, NULL when none. */
static const struct flags_spec *find(const char *name, size_t length, unsigned commands)
{
    for (size_t i = 0; i < TABLE_SIZE; i++)
        if ((table[i].commands & commands) != 0 && strlen(table[i].name) == length &&
            strncmp(table[i].name, name, length) == 0)
            return &table[i];
    return NULL;
}

static enum flags_result usage_error(const struct flags_request *out)
{
    fprintf(stderr, "(gpusizer %s --help lists the options)\n", out->name);
    return FLAGS_USAGE;
}

/* Records one flag and its value (checked); FLAGS_USAGE with a message. */
static enum flags_result take(struct flags_request *out, const struct flags_spec *spec,
                              const char *value, const struct flags_spec **model)
{
    const char *need = NULL;
    if (spec->metavar != NULL && !value_ok(spec->kind, value, &need)) {
        fprintf(stderr, "gpusizer %s: %s takes %s, not \"%s\" ", out->name, spec->name, need,
                value);
        return usage_error(out);
    }
    switch (spec->kind) {
    case KIND_DB:
        out->db = value;
        return FLAGS_PARSED;
    case KIND_DATABASE_URL:
        out->database_url = value;
        return FLAGS_PARSED;
    case KIND_PASSWORD_FILE:
        out->database_password_file = value;
        return FLAGS_PARSED;
    case KIND_JSON:
    case KIND_SUMMARY: {
        const enum flags_output want =
            spec->kind == KIND_JSON ? FLAGS_OUTPUT_JSON : FLAGS_OUTPUT_SUMMARY;
        if (out->output != FLAGS_OUTPUT_AUTO && out->output != want) {
            fprintf(stderr, "gpusizer %s: --json and --summary: give one ", out->name);
            return usage_error(out);
        }
        out->output = want;
        return FLAGS_PARSED;
    }
    default:
        break;
    }
    if (is_model(spec->kind)) {
        if (*model != NULL && *model != spec) {
            fprintf(stderr, "gpusizer %s: %s and %s both name the model: give one ", out->name,
                    (*model)->name, spec->name);
            return usage_error(out);
        }
        *model = spec;
    }
    if (out->count == FLAGS_MAX) {
        fprintf(stderr, "gpusizer %s: more than %d options ", out->name, FLAGS_MAX);
        return usage_error(out);
    }
    out->set[out->count].spec = spec;
    out->set[out->count].value = value;
    out->count++;
    return FLAGS_PARSED;
}

enum flags_result flags_parse(enum flags_command command, int argc, char **argv,
                              struct flags_request *out)
{
    memset(out, 0, sizeof(*out));
    out->command = command;
    out->name = command_name(command);
    out->output = FLAGS_OUTPUT_AUTO;
    const struct flags_spec *model = NULL;
    for (int i = 2; i < argc; i++) {
        const char *arg = argv[i];
        if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
            flags_help(command, stdout);
            return FLAGS_HELP;
        }
        if (arg[0] == '-' && strncmp(arg, "--", 2) != 0) {
            fprintf(stderr, "gpusizer %s: unknown option %s ", out->name, arg);
            return usage_error(out);
        }
        if (strncmp(arg, "--", 2) != 0 || arg[2] == '\0') {
            fprintf(stderr,
                    "gpusizer %s: unexpected argument \"%s\": the request is options, "
                    "or JSON on stdin ",
                    out->name, arg);
            return usage_error(out);
        }
        const char *eq = strchr(arg, '=');
        const size_t length = eq != NULL ? (size_t)(eq - arg) : strlen(arg);
        const struct flags_spec *spec = find(arg, length, command);
        if (spec == NULL) {
            const bool other = find(arg, length, ALL) != NULL;
            fprintf(stderr, "gpusizer %s: %s option %.*s ", out->name, other ? "no" : "unknown",
                    (int)length, arg);
            if (other)
                fprintf(stderr, "for %s; another command takes it ", out->name);
            return usage_error(out);
        }
        const char *value = NULL;
        if (spec->metavar == NULL) {
            if (eq != NULL) {
                fprintf(stderr, "gpusizer %s: %s takes no value ", out->name, spec->name);
                return usage_error(out);
            }
        } else if (eq != NULL) {
            value = eq + 1;
        } else if (i + 1 < argc) {
            value = argv[++i];
        } else {
            fprintf(stderr, "gpusizer %s: %s needs a value, %s ", out->name, spec->name,
                    spec->metavar);
            return usage_error(out);
        }
        const enum flags_result r = take(out, spec, value, &model);
        if (r != FLAGS_PARSED)
            return r;
    }
    return FLAGS_PARSED;
}

/* ---------------------------------------------------------------- applying */

/* Sets `value` (stolen) at `path` ("a/b/c") under `root`, making (or replacing with) objects
 * on the way. 0, or -1 (no memory). */
static int set_path(json_t *root, const char *path, json_t *value)
{
    json_t *node = root;
    const char *p = path;
    for (;;) {
        const char *slash = strchr(p, '/');
        if (slash == NULL)
            return json_object_set_new(node, p, value);
        char key[64];
        const size_t n = (size_t)(slash - p);
        if (n >= sizeof(key)) {
            json_decref(value);
            return -1;
        }
        memcpy(key, p, n);
        key[n] = '\0';
        json_t *child = json_object_get(node, key);
        if (!json_is_object(child)) {
            child = json_object();
            if (child == NULL || json_object_set_new(node, key, child) != 0) {
                json_decref(value);
                return -1;
            }
        }
        node = child;
        p = slash + 1;
    }
}

/* The file's JSON (NaN and Infinity read as null, as in a request); NULL with a message. */
static json_t *load_config(const struct flags_request *f, const char *path)
{
    FILE *file = fopen(path, "rb");
    if (file == NULL) {
        fprintf(stderr, "gpusizer %s: --config %s: %s\n", f->name, path, strerror(errno));
        return NULL;
    }
    size_t cap = 65536, len = 0;
    char *text = malloc(cap);
    bool too_big = false;
    while (text != NULL) {
        len += fread(text + len, 1, cap - len, file);
        if (len < cap)
            break;
        if (cap >= CONFIG_LIMIT) {
            too_big = true;
            break;
        }
        char *grown = realloc(text, cap * 2);
        if (grown == NULL) {
            free(text);
            text = NULL;
            break;
        }
        text = grown;
        cap *= 2;
    }
    const bool read_error = ferror(file) != 0;
    fclose(file);
    if (text == NULL || too_big || read_error) {
        fprintf(stderr, "gpusizer %s: --config %s: %s\n", f->name, path,
                text == NULL ? "out of memory"
                : too_big    ? "larger than 16 MiB"
                             : "read error");
        free(text);
        return NULL;
    }
    json_error_t err;
    json_t *config = json_load_lenient(text, len, JSON_REJECT_DUPLICATES, &err);
    free(text);
    if (config == NULL)
        fprintf(stderr, "gpusizer %s: --config %s: line %d, column %d: %s\n", f->name, path,
                err.line, err.column, err.text);
    return config;
}

/* {"hub_id": "org/name"} with "revision" when the text has @revision. */
static json_t *hub_model(const char *text)
{
    const char *at = strchr(text, '@');
    json_t *id = at != NULL ? json_stringn(text, (size_t)(at - text)) : json_string(text);
    json_t *model = json_object();
    if (model == NULL || json_object_set_new(model, "hub_id", id) != 0 ||
        (at != NULL && json_object_set_new(model, "revision", json_string(at + 1)) != 0)) {
        json_decref(model);
        return NULL;
    }
    return model;
}

/* One member object {key: value}, value stolen. */
static json_t *wrap(const char *key, json_t *value)
{
    json_t *object = json_object();
    if (object == NULL || json_object_set_new(object, key, value) != 0) {
        json_decref(object);
        return NULL;
    }
    return object;
}

/* A number as the person wrote it: whole numbers stay integers. */
static json_t *number_value(const char *text)
{
    json_int_t whole = 0;
    double number = 0;
    if (is_none(text))
        return json_null();
    if (parse_whole(text, &whole) && strpbrk(text, ".eE") == NULL)
        return json_integer(whole);
    return parse_number(text, &number) ? json_real(number) : NULL;
}

/* training when --mode says so, else when the request's mode does. */
static bool training_mode(const struct flags_request *f, const json_t *request)
{
    const char *mode = json_string_value(json_object_get(request, "mode"));
    for (size_t i = 0; i < f->count; i++)
        if (strcmp(f->set[i].spec->name, "--mode") == 0)
            mode = f->set[i].value;
    return mode != NULL && strcmp(mode, "training") == 0;
}

bool flags_apply(const struct flags_request *f, json_t *request)
{
    const bool training = training_mode(f, request);
    for (size_t i = 0; i < f->count; i++) {
        const struct flags_spec *spec = f->set[i].spec;
        const char *text = f->set[i].value;
        const char *path = spec->path;
        json_int_t whole = 0;
        json_t *value = NULL;
        switch (spec->kind) {
        case KIND_STRING:
        case KIND_MODEL_ID:
            value = json_string(text);
            if (value == NULL) {
                fprintf(stderr, "gpusizer %s: %s: the value is not UTF-8\n", f->name, spec->name);
                return false;
            }
            break;
        case KIND_WHOLE:
            value = parse_whole(text, &whole) ? json_integer(whole) : NULL;
            break;
        case KIND_LIST:
            value = split_list(text, false);
            break;
        case KIND_WHOLE_LIST:
            value = split_list(text, true);
            break;
        case KIND_BATCH:
            path = training ? "training/batch_size" : "inference/batch_size";
            value = parse_whole(text, &whole) ? json_integer(whole) : NULL;
            break;
        case KIND_NUMBER:
        case KIND_NUMBER_NONE:
            value = number_value(text);
            break;
        case KIND_PARAMETERS:
            value = parse_whole(text, &whole) ? wrap("parameters", json_integer(whole)) : NULL;
            break;
        case KIND_HUB_ID:
            value = hub_model(text);
            if (value == NULL) {
                fprintf(stderr, "gpusizer %s: --hub-id: the value is not UTF-8\n", f->name);
                return false;
            }
            break;
        case KIND_CONFIG: {
            json_t *config = load_config(f, text);
            if (config == NULL)
                return false;
            value = wrap("config", config);
            break;
        }
        default:
            continue; /* not a request member */
        }
        if (value == NULL || path == NULL || set_path(request, path, value) != 0) {
            fprintf(stderr, "gpusizer %s: %s: out of memory\n", f->name, spec->name);
            return false;
        }
    }
    return true;
}

/* -------------------------------------------------------------------- help */

static const char *const intro_estimate =
    "Sizes one model and workload: the memory each GPU needs, by component, with every\n"
    "assumption named; with --gpu, whether it fits, and for a serving engine whether it starts,\n"
    "the KV-cache capacity and the smallest fixes when it does not.\n";

static const char *const intro_fit =
    "Does it fit one GPU type? The verdict on --gpus GPUs (default 1), the fewest GPUs that\n"
    "fit, the largest batch and context, and the changes that make it fit.\n";

static const char *const intro_recommend =
    "Ranks the catalog's GPUs by what the workload costs on each: GPU, count, parallel layout,\n"
    "throughput, $/hour and memory per GPU, cheapest first, and the GPUs that do not qualify\n"
    "with why. Without a rate (--tokens-per-s) the options are sized for memory only.\n";

static const char *const examples_estimate =
    "  gpusizer estimate --model llama-3.1-8b --gpu h100-sxm-80gb --engine vllm --context 8192 \\\n"
    "      --batch 16\n"
    "  gpusizer estimate --config config.json --mode training --batch 4 --seq 4096 --gpu h100\n"
    "  echo '{\"model\":\"llama-3.1-70b\",\"inference\":{\"kv_cache_dtype\":\"fp8\"}}' |\n"
    "      gpusizer estimate --gpu h100 --tensor 4 --context 8192 --batch 64 --summary\n";

static const char *const examples_fit =
    "  gpusizer fit --model llama-3.1-70b --gpu h100 --context 8192 --batch 32\n"
    "  gpusizer fit --model llama-3.1-8b --mode training --gpu a100-sxm-80gb --gpus 8 \\\n"
    "      --batch 8 --seq 4096\n";

static const char *const examples_recommend =
    "  gpusizer recommend --model llama-3.1-70b --context 8192 --tokens-per-s 5000 \\\n"
    "      --prompt-tokens 2000 --output-tokens 500\n"
    "  gpusizer recommend --model llama-3.1-8b --context 4096 --tokens-per-s 2000 \\\n"
    "      --tpot-ms 20 --max-gpus 8\n";

bool flags_help(enum flags_command command, FILE *out)
{
    const char *name = command_name(command);
    fprintf(out, "usage: gpusizer %s [options] [< request.json]\n\n", name);
    fputs(command == FLAGS_FIT         ? intro_fit
          : command == FLAGS_RECOMMEND ? intro_recommend
                                       : intro_estimate,
          out);
    fprintf(out,
            "\nThe request is the JSON POST /v1/%s takes, read on stdin when stdin is not a\n"
            "terminal; the options set its common members (in brackets), over stdin's. The\n"
            "rest (training regime, engine knobs, constraints, ...) goes in the JSON.\n",
            name);
    const char *group = NULL;
    for (size_t i = 0; i < TABLE_SIZE; i++) {
        const struct flags_spec *s = &table[i];
        if (s->group != NULL)
            group = s->group;
        if ((s->commands & (unsigned)command) == 0)
            continue;
        if (group != NULL) {
            fprintf(out, "\n%s:\n", group);
            group = NULL;
        }
        char left[64];
        snprintf(left, sizeof(left), "%s%s%s", s->name, s->metavar != NULL ? " " : "",
                 s->metavar != NULL ? s->metavar : "");
        if (strlen(left) > 24)
            fprintf(out, "  %s\n  %-24s %s\n", left, "", s->help);
        else
            fprintf(out, "  %-24s %s\n", left, s->help);
        fprintf(out, "  %-24s e.g. %s\n", "", s->example);
    }
    fputs("\nOutput: the response JSON, byte for byte as without options, when stdout is not a\n"
          "terminal (a pipe, a file) or with --json; on a terminal, or with --summary, a short\n"
          "summary of the same answer. A refused request prints the problem JSON (RFC 9457,\n"
          "a JSON pointer to each offending member) and exits 1; a mistake in the options\n"
          "exits 2.\n\nExamples:\n",
          out);
    fputs(command == FLAGS_FIT         ? examples_fit
          : command == FLAGS_RECOMMEND ? examples_recommend
                                       : examples_estimate,
          out);
    return fflush(out) == 0 && !ferror(out);
}
