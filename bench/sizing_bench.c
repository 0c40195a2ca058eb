/*
 * sizing_bench.c - server time of one /v1/recommend or /v1/fit over the whole
 * seeded catalog (a benchmark program, not a test: run it through
 * bench/sizing.sh).
 *
 * Builds the catalog in a temporary file, then times sizing_recommend and
 * sizing_fit - request decoding, the plan search over every GPU, ranking
 * and response encoding, everything but the socket - for representative
 * requests: best and median of rounds of at least 0.3 s each, as these
 * machines are shared and noisy.
 */
#include "catalog.h"
#include "formats/problem.h"
#include "api/service.h"
#include "api/sizing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

typedef enum gs_status (*operation)(const struct service *, const json_t *, json_t **,
                                    struct problem *);

struct bench_case {
    const char *name;
    operation op;
    const char *request;
};

static const struct bench_case cases[] = {
    {"recommend: Llama-3.1-70B serving, 5k output tokens/s, all GPUs", sizing_recommend,
     "{\"model\":\"llama-3.1-70b\",\"inference\":{\"context_length\":8192},\"demand\":"
     "{\"output_tokens_per_s\":5000,\"prompt_tokens\":2000,\"output_tokens\":500}}"},
    {"recommend: the same with quantization allowed (6 precision variants)", sizing_recommend,
     "{\"model\":\"llama-3.1-70b\",\"inference\":{\"context_length\":8192},\"demand\":"
     "{\"output_tokens_per_s\":5000,\"prompt_tokens\":2000,\"output_tokens\":500},"
     "\"constraints\":{\"allow\":{\"quantization\":true}}}"},
    {"recommend: DeepSeek-V3 serving (MLA, 256 experts), all GPUs", sizing_recommend,
     "{\"model\":\"deepseek-v3\",\"precision\":{\"weights\":\"fp8_block\"},\"inference\":"
     "{\"context_length\":16384},\"demand\":{\"requests_per_s\":20,\"prompt_tokens\":4000,"
     "\"output_tokens\":1000}}"},
    {"recommend: Llama-3.1-70B training, 1e11 tokens in 14 days, all GPUs", sizing_recommend,
     "{\"model\":\"llama-3.1-70b\",\"mode\":\"training\",\"training\":{\"sequence_length\":4096,"
     "\"batch_size\":1,\"gradient_accumulation_steps\":16},\"demand\":{\"training_tokens\":1e11,"
     "\"deadline_days\":14}}"},
    {"recommend: Mixtral-8x7B training, 2e10 tokens in 7 days, all GPUs", sizing_recommend,
     "{\"model\":\"mixtral-8x7b\",\"mode\":\"training\",\"training\":{\"sequence_length\":4096},"
     "\"demand\":{\"training_tokens\":2e10,\"deadline_days\":7}}"},
    {"fit: Llama-3.1-70B, batch 32 at 8k, on one H100 (with changes)", sizing_fit,
     "{\"model\":\"llama-3.1-70b\",\"gpu\":\"h100\",\"inference\":{\"batch_size\":32,"
     "\"context_length\":8192}}"},
    {"fit: Llama-3.1-8B training on an RTX 4090 (with changes)", sizing_fit,
     "{\"model\":\"llama-3.1-8b\",\"mode\":\"training\",\"gpu\":\"rtx-4090\",\"training\":"
     "{\"sequence_length\":2048,\"batch_size\":4}}"},
};

static int compare(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(void)
{
    char dir[] = "/tmp/gs-bench-XXXXXX", path[64];
    if (mkdtemp(dir) == NULL)
        return 1;
    snprintf(path, sizeof(path), "%s/catalog.db", dir);
    struct catalog *catalog = NULL;
    struct catalog_snapshot *snap = NULL;
    struct service *service = NULL;
    if (catalog_open(path, &catalog, NULL) != GS_OK ||
        catalog_snapshot_load(catalog, &snap, NULL) != GS_OK ||
        service_create(snap, &service, NULL) != GS_OK) {
        fprintf(stderr, "cannot build the catalog\n");
        return 1;
    }
    printf("catalog: %zu models, %zu GPUs\n", service_model_count(service),
           service_gpu_count(service));
    printf("%-72s %10s %10s %8s\n", "request", "best ms", "median ms", "options");
    for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
        json_t *request = json_loads(cases[c].request, 0, NULL);
        double rounds[7];
        size_t options = 0;
        for (int r = 0; r < 7; r++) {
            int calls = 0;
            const double start = now_ms();
            double elapsed = 0;
            do {
                json_t *response = NULL;
                struct problem p;
                problem_init(&p);
                if (cases[c].op(service, request, &response, &p) != 0) {
                    fprintf(stderr, "%s: %d %s\n", cases[c].name, p.status, p.title);
                    return 1;
                }
                /* encoding is part of the answer: time it too */
                char *text = json_dumps(response, JSON_COMPACT);
                free(text);
                const json_t *list = json_object_get(response, "options");
                options = list != NULL ? json_array_size(list)
                                       : json_array_size(json_object_get(response, "changes"));
                json_decref(response);
                calls++;
                elapsed = now_ms() - start;
            } while (elapsed < 300);
            rounds[r] = elapsed / calls;
        }
        qsort(rounds, 7, sizeof(rounds[0]), compare);
        printf("%-72s %10.3f %10.3f %8zu\n", cases[c].name, rounds[0], rounds[3], options);
        json_decref(request);
    }
    service_free(service);
    catalog_close(catalog);
    char file[96];
    const char *suffixes[] = {"", "-wal", "-shm"};
    for (int i = 0; i < 3; i++) {
        snprintf(file, sizeof(file), "%s%s", path, suffixes[i]);
        unlink(file);
    }
    rmdir(dir);
    return 0;
}
