/* codec_parity.c - parity modes in the API (see codec_parity.h). */
#include "api/codec_parity.h"

#include "gs/parity.h"
#include "formats/json_build.h"
#include "formats/jsonv.h"

#include <stdio.h>

static const char *const parity_names[] = {"deepspeed", "megatron", "accelerate", NULL};

bool codec_decode_parity(const json_t *value, struct estimate_request *req, struct gs_error *err)
{
    req->parity = CODEC_PARITY_NONE;
    if (value == NULL || json_is_null(value))
        return true;
    int index = 0;
    if (!jsonv_enum(value, "/parity", parity_names, &index, err))
        return false;
    req->parity = (enum codec_parity)(index + 1);
    if (req->parity == CODEC_PARITY_MEGATRON && !req->model.has_arch &&
        req->source == CODEC_MODEL_PARAMETERS) {
        gs_error_add(err, GS_ERR_INVALID, "/parity",
                     "Megatron's formula needs the architecture: name a catalog model or send its "
                     "config");
        return false;
    }
    return true;
}

static bool put(json_t *object, const char *key, json_t *value)
{
    return value != NULL && json_object_set_new(object, key, value) == 0;
}

static bool append(json_t *array, json_t *value)
{
    return value != NULL && json_array_append_new(array, value) == 0;
}

static double gib(uint64_t bytes)
{
    return (double)bytes / (double)((uint64_t)1 << 30);
}

static json_t *deepspeed(const struct estimate_request *req, const struct gs_estimate *est)
{
    const struct gs_parallelism *par = &req->workload.parallelism;
    const uint64_t world = est->gpu_count ? est->gpu_count : 1;
    const uint64_t gpn = par->gpus_per_node < world ? par->gpus_per_node : world;
    const uint64_t nodes = (world + gpn - 1) / gpn;
    struct gs_deepspeed_parity d;
    if (!gs_parity_deepspeed(est->parameters, est->has_breakdown ? est->params.largest_module : 0,
                             gpn, nodes, &d))
        return NULL;
    json_t *rows = json_array();
    for (size_t i = 0; rows != NULL && i < d.row_count; i++) {
        const struct gs_deepspeed_row *r = &d.rows[i];
        char printed[160];
        /* the estimators' own line: "per CPU | per GPU | Options", GiB printed as "GB" */
        snprintf(printed, sizeof(printed), "%.2fGB | %.2fGB | %s", gib(r->per_cpu_bytes),
                 gib(r->per_gpu_bytes), r->options);
        if (!append(rows, json_pack("{s:i, s:s, s:o, s:o, s:s}", "zero_stage", (int)r->zero_stage,
                                    "options", r->options, "per_gpu_bytes",
                                    json_build_u64(r->per_gpu_bytes), "per_cpu_bytes",
                                    json_build_u64(r->per_cpu_bytes), "printed", printed))) {
            json_decref(rows);
            return NULL;
        }
    }
    return json_pack("{s:s, s:I, s:I, s:o}", "tool", "deepspeed", "gpus_per_node", (json_int_t)gpn,
                     "nodes", (json_int_t)nodes, "rows", rows);
}

static json_t *megatron(const struct estimate_request *req)
{
    struct gs_megatron_parity m;
    if (!gs_parity_megatron(&req->model.arch, &req->workload.training, &req->workload.parallelism,
                            &m))
        return NULL;
    const bool dist = req->workload.parallelism.distributed_optimizer;
    json_t *o = json_pack(
        "{s:s, s:o, s:o, s:o, s:o, s:o}", "tool", "megatron", "padded_vocab_size",
        json_build_u64(m.padded_vocab), "parameters_on_most_loaded_shard",
        json_build_u64(m.parameters_on_most_loaded_shard), "expert_parameters_on_shard",
        json_build_u64(m.expert_parameters_on_shard), "with_distributed_optimizer_bytes",
        json_build_u64(dist ? m.weight_and_optimizer_bytes : m.weight_and_optimizer_bytes_other),
        "without_distributed_optimizer_bytes",
        json_build_u64(dist ? m.weight_and_optimizer_bytes_other : m.weight_and_optimizer_bytes));
    if (o != NULL && m.has_activations &&
        !(put(o, "activation_bytes", json_build_u64(m.activation_bytes)) &&
          put(o, "activation_path",
              json_string(m.sequence_parallel_path ? "sequence_parallel_selective"
                                                   : "without_sequence_parallel")))) {
        json_decref(o);
        return NULL;
    }
    return o;
}

static json_t *accelerate(const struct gs_estimate *est)
{
    struct gs_accelerate_parity acc;
    const uint64_t largest = est->has_breakdown ? est->params.largest_module : 0;
    gs_parity_accelerate(est->parameters, largest, &acc);
    json_t *rows = json_array();
    for (size_t i = 0; rows != NULL && i < 4; i++) {
        const struct gs_accelerate_row *r = &acc.rows[i];
        json_t *row = json_pack("{s:s, s:o, s:o, s:o}", "dtype", r->dtype, "total_size_bytes",
                                json_build_u64(r->total_size_bytes), "largest_layer_bytes",
                                largest ? json_build_u64(r->largest_layer_bytes) : json_null(),
                                "training_bytes",
                                r->has_training ? json_build_u64(r->training_bytes) : json_null());
        if (!append(rows, row)) {
            json_decref(rows);
            return NULL;
        }
    }
    return json_pack("{s:s, s:o}", "tool", "accelerate", "rows", rows);
}

json_t *codec_encode_parity(const struct estimate_request *req, const struct gs_estimate *est)
{
    switch (req->parity) {
    case CODEC_PARITY_DEEPSPEED:
        return deepspeed(req, est);
    case CODEC_PARITY_MEGATRON:
        return megatron(req);
    case CODEC_PARITY_ACCELERATE:
        return accelerate(est);
    case CODEC_PARITY_NONE:
        break;
    }
    return NULL;
}
