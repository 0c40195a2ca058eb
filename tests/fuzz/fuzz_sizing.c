/*
 * fuzz_sizing.c - libFuzzer target: any bytes as the body of POST
 * /v1/recommend, ranked over the whole seeded catalog; the server's JSON writer
 * checked against json_dumps on the request, answer and problem.
 */
#include "fuzz_common.h"
#include "formats/problem.h"
#include "api/sizing.h"

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size); /* libFuzzer calls it */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const struct service *svc = fuzz_service();
    json_t *request = fuzz_request(data, size);
    if (request == NULL)
        return 0;
    fuzz_check_dump(request);
    json_t *response = NULL;
    struct problem p;
    problem_init(&p);
    const int rc = sizing_recommend(svc, request, &response, &p);
    fuzz_check_answer(rc, response, &p);
    json_decref(response);
    json_decref(request);
    return 0;
}
