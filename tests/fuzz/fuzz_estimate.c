/*
 * fuzz_estimate.c - libFuzzer target: any bytes as the body of POST
 * /v1/estimate and POST /v1/fit, through the server's lenient JSON parser
 * and the request decoders, against the seeded catalog. Must never crash,
 * leak or trip a sanitizer; every answer is a response or a problem.
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
    if (service_estimate(svc, request, &response, &p) == 0)
        json_decref(response);
    response = NULL;
    problem_init(&p);
    if (sizing_fit(svc, request, &response, &p) == 0)
        json_decref(response);
    json_decref(request);
    return 0;
}
