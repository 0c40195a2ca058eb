/*
 * fuzz_estimate.c - libFuzzer target: any bytes as the body of POST
 * /v1/estimate and POST /v1/fit, through the server's lenient JSON parser
 * and the request decoders, against the seeded catalog. Must never crash,
 * leak or trip a sanitizer; every answer is a response or a problem, and the
 * server's JSON writer writes the request, answer and problem exactly as
 * jansson's json_dumps does.
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
    int rc = service_estimate(svc, request, &response, &p);
    fuzz_check_answer(rc, response, &p);
    json_decref(response);
    response = NULL;
    problem_init(&p);
    rc = sizing_fit(svc, request, &response, &p);
    fuzz_check_answer(rc, response, &p);
    json_decref(response);
    json_decref(request);
    return 0;
}
