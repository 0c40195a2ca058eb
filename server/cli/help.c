/*
 * help.c - the help texts of `gpusizer`, `serve`, `import`, `model-types` and `version`:
 * usage, every option with its meaning and an example, on stdout.
 */
#include "cli/help.h"

#include <string.h>

static const char usage[] =
    "usage: gpusizer <command> [options]\n"
    "\n"
    "commands:\n"
    "  estimate     the memory a model and workload need per GPU, and whether it fits a GPU\n"
    "  fit          does it fit one GPU type: the verdict, the fewest GPUs, the largest batch\n"
    "               and context, what to change\n"
    "  recommend    every catalog GPU ranked by cost: count, layout, throughput, $/hour\n"
    "  serve        run the HTTP API and the web form (http://localhost:8080/)\n"
    "  import       add a model to the catalog from the Hugging Face hub\n"
    "  model-types  the config.json model types gpusizer reads\n"
    "  version      print the version\n"
    "\n"
    "estimate, fit and recommend take the request as options (--model, --gpu, --context, ...)\n"
    "or as the API's JSON on stdin, or both (the options win); they print a short summary on a\n"
    "terminal and the response JSON otherwise (or with --json).\n"
    "\n"
    "gpusizer <command> --help (or gpusizer help <command>) shows a command's options.\n"
    "\n"
    "examples:\n"
    "  gpusizer estimate --model llama-3.1-8b --gpu h100-sxm-80gb --context 8192 --batch 16\n"
    "  echo '{\"model\":\"mistral-7b-v0.1\",\"mode\":\"training\"}' | gpusizer estimate\n"
    "  gpusizer serve --port 9000\n";

static const char serve_help[] =
    "usage: gpusizer serve [options]\n"
    "\n"
    "Runs the HTTP API (/v1/estimate, /v1/fit, /v1/recommend, the catalog) and the web form.\n"
    "Options come first, then environment variables, then defaults: with nothing set it serves\n"
    "on :8080 with ./gpusizer.db, created and seeded on first start. SIGINT or SIGTERM stop it.\n"
    "\n"
    "options:\n"
    "  --host ADDR              address to bind (env GPUSIZER_HOST, default 0.0.0.0)\n"
    "                           e.g. --host 127.0.0.1\n"
    "  --port N                 port, 0 for any free one (env PORT, default 8080)\n"
    "                           e.g. --port 9000\n"
    "  --db PATH                the SQLite catalog, created on first use (env GPUSIZER_DB,\n"
    "                           default ./gpusizer.db)\n"
    "                           e.g. --db /var/lib/gpusizer/catalog.db\n"
    "  --database-url URL       a shared PostgreSQL catalog instead (env GPUSIZER_DATABASE_URL;\n"
    "                           migrated and seeded on first use, safe with many replicas\n"
    "                           starting at once; GPUSIZER_DATABASE_WAIT_S: how long to wait\n"
    "                           for the database at start, default 30)\n"
    "                           e.g. --database-url postgres://gpusizer@db:5432/gpusizer\n"
    "  --database-password-file FILE\n"
    "                           its password when the URL has none (env\n"
    "                           GPUSIZER_DATABASE_PASSWORD_FILE; PGPASSWORD and ~/.pgpass\n"
    "                           work too)\n"
    "                           e.g. --database-password-file /run/secrets/db-password\n"
    "  --threads N              HTTP worker threads (env GPUSIZER_THREADS, default one per CPU)\n"
    "                           e.g. --threads 8\n"
    "  --max-body BYTES         the largest request body accepted (default 1048576)\n"
    "                           e.g. --max-body 4194304\n"
    "  --api-key-file FILE      the API key that allows catalog writes (env\n"
    "                           GPUSIZER_API_KEY_FILE, or the key itself in GPUSIZER_API_KEY);\n"
    "                           without a key catalog writes are refused (403)\n"
    "                           e.g. --api-key-file /run/secrets/gpusizer-key\n"
    "  -h, --help               this help\n"
    "\n"
    "example:\n"
    "  GPUSIZER_API_KEY=secret gpusizer serve --port 9000 --db ./catalog.db\n";

static const char import_help[] =
    "usage: gpusizer import ORG/NAME[@REVISION] [FILE.gguf] [options]\n"
    "\n"
    "Reads a model's config.json and checkpoint headers from the Hugging Face hub, stores it\n"
    "in the catalog, and prints the catalog entry (JSON). FILE.gguf picks one file of a\n"
    "GGUF-only repository. The hub: env GPUSIZER_HUB_URL; a token: GPUSIZER_HUB_TOKEN or\n"
    "HF_TOKEN. estimate, fit and recommend import a {\"hub_id\": ...} model (--hub-id) on first\n"
    "use unless GPUSIZER_AUTO_IMPORT=0.\n"
    "\n"
    "options:\n"
    "  --db PATH                the SQLite catalog (env GPUSIZER_DB, default ./gpusizer.db)\n"
    "                           e.g. --db ./gpusizer.db\n"
    "  --database-url URL       a PostgreSQL catalog instead (env GPUSIZER_DATABASE_URL)\n"
    "                           e.g. --database-url postgres://gpusizer@db:5432/gpusizer\n"
    "  --database-password-file FILE\n"
    "                           its password when the URL has none\n"
    "                           e.g. --database-password-file /run/secrets/db-password\n"
    "  -h, --help               this help\n"
    "\n"
    "examples:\n"
    "  gpusizer import Qwen/Qwen2.5-7B-Instruct\n"
    "  gpusizer import bartowski/Llama-3.2-1B-Instruct-GGUF Llama-3.2-1B-Instruct-Q4_K_M.gguf\n";

static const char model_types_help[] =
    "usage: gpusizer model-types [--markdown]\n"
    "\n"
    "Lists the config.json model types gpusizer reads, as GET /v1/model-types answers (JSON).\n"
    "\n"
    "options:\n"
    "  --markdown               the README's list instead (scripts/model-types.sh writes it)\n"
    "                           e.g. gpusizer model-types --markdown > types.md\n"
    "  -h, --help               this help\n";

static const char version_help[] =
    "usage: gpusizer version\n"
    "\n"
    "Prints the version (also gpusizer --version).\n";

bool help_usage(FILE *out)
{
    fputs(usage, out);
    return fflush(out) == 0 && !ferror(out);
}

bool help_command(const char *command, FILE *out)
{
    const char *text = strcmp(command, "serve") == 0         ? serve_help
                       : strcmp(command, "import") == 0      ? import_help
                       : strcmp(command, "model-types") == 0 ? model_types_help
                       : strcmp(command, "version") == 0     ? version_help
                                                             : NULL;
    if (text == NULL)
        return false;
    fputs(text, out);
    fflush(out);
    return true;
}
