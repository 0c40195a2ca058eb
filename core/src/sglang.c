/*
 * sglang.c - SGLang's default fraction and pre-load baseline.
 */
#include "gs/sglang.h"

#include "gs/units.h"

uint64_t gs_sglang_default_fraction_permille(uint64_t total_bytes, uint64_t tensor,
                                             uint64_t pipeline)
{
    /* sglang server_args.py: mem_fraction_static = round((gpu_mem - reserved) / gpu_mem, 3),
     * gpu_mem in MiB, reserved for activations and CUDA graphs by GPU size, growing with
     * the parallel size tp * pp */
    const uint64_t mib = total_bytes / GS_MIB;
    const uint64_t parallel = tensor * pipeline;
    uint64_t reserved_x10; /* MiB x 10, to keep the tenths of a GiB exact */
    if (mib < 35 * 1024)
        reserved_x10 = (28 * 1024) + parallel * 1024; /* (2.8 + parallel/10) GiB */
    else if (mib < 90 * 1024)
        reserved_x10 = (95 * 1024) + parallel * 5 * 1024; /* (9.5 + parallel/2) GiB */
    else if (mib < 160 * 1024)
        reserved_x10 = (120 * 1024) + parallel * 5 * 1024; /* (12 + parallel/2) GiB */
    else
        reserved_x10 = 320 * 1024; /* 32 GiB */
    if (mib == 0 || reserved_x10 >= mib * 10)
        return 1;
    /* permille, rounded half up */
    return ((mib * 10 - reserved_x10) * 1000 + mib * 5) / (mib * 10);
}

uint64_t gs_sglang_preload_bytes(enum gs_link link, uint64_t tensor, bool cross_node)
{
    /* model_runner.init_torch_distributed: get_available_gpu_memory after
     * init_distributed_environment and initialize_model_parallel, whose
     * pynccl and custom all-reduce communicators allocate their buffers */
    return GS_CUDA_CONTEXT_BYTES + gs_runtime_comm_bytes(link, tensor, cross_node);
}
