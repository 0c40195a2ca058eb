/*
 * fuzz_sizing.c - libFuzzer target: any bytes as the body of POST
 * /v1/recommend, ranked over the whole seeded catalog.
 */
#include "fuzz_common.h"
#include "problem.h"
#include "sizing.h"

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size); /* libFuzzer calls it */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const struct service *svc = fuzz_service();
    json_t *request = fuzz_request(data, size);
    if (request == NULL)
        return 0;
    json_t *response = NULL;
    struct problem p;
    problem_init(&p);
    if (sizing_recommend(svc, request, &response, &p) == 0)
        json_decref(response);
    json_decref(request);
    return 0;
}
