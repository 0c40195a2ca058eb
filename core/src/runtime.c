/*
 * runtime.c - the CUDA context and communication buffers of one rank.
 */
#include "gs/runtime.h"

/* The CUDA context with lazy module loading: 287,047,680 bytes (pytorch
 * PR #86509). */
#define CUDA_CONTEXT_BYTES ((uint64_t)287047680)

/* NCCL's and the custom all-reduce's buffers on one tensor-parallel rank.
 * NCCL allocates NCCL_BUFFSIZE (4 MiB) per channel per peer connection
 * and protocol, linear in its channel count, which it raises to reach
 * NVLink bandwidth (NVIDIA/nccl #864, #986); vLLM's custom all-reduce adds
 * 16 MiB (custom_all_reduce.py, max_size 8 MiB, two IPC buffers). Per class,
 * from public startup logs (vLLM's non-torch figure minus its profile
 * growth, 0.16 GiB, see vllm.c, or measured directly):
 *   PCIe cards: 0.13 GiB measured directly around the process-group setup on
 *     4 x L4, NCCL only ("Init torch distributed ends. mem usage=0.13 GB",
 *     SGLang 0.4.3.post4, QwQ-32B log in tests/fixtures/calibration); vLLM
 *     issue #14447 (4 x 24 GB, V0 0.8) logs 0.20 GiB of non-torch memory in
 *     all, which leaves less than 0.16 GiB for its profile growth;
 *   NVLink, Ampere: 0.93 GiB on 8 x A100-SXM4-40GB (surajssd/llm-k8s
 *     deepseek-v2.5 log, V0 0.8.3) -> 0.77 GiB;
 *   NVLink/NVSwitch, Hopper and later: 2.07 GiB at TP 2 on H100 SXM in two
 *     vLLM 0.19.0 runs (llm-d planner logs, Mixtral-8x7B and gpt-oss-20b) ->
 *     1.91 GiB. SGLang measures the same buffers another way and agrees:
 *     "Init torch distributed ends. mem usage=1.77 GB" to "2.01 GB" on the
 *     ranks of 8 x H200 (sgl-project/sglang PR #11716's log).
 * floor(x x 2^30). */
#define COMM_PCIE_BYTES ((uint64_t)139586437)
#define COMM_NVLINK_BYTES ((uint64_t)826781204)
#define COMM_NVSWITCH_BYTES ((uint64_t)2050846883)
/* A rank whose group spans nodes adds NCCL's network buffers: 2.15 - 0.93 =
 * 1.22 GiB for the second node's workers in the deepseek-v2.5 log above. */
#define CROSS_NODE_BYTES ((uint64_t)1309965025)

uint64_t gs_runtime_cuda_context_bytes(void)
{
    return CUDA_CONTEXT_BYTES;
}

uint64_t gs_runtime_comm_bytes(enum gs_link link, uint64_t tensor, bool cross_node)
{
    uint64_t bytes = 0;
    if (tensor > 1)
        bytes += link == GS_LINK_NVSWITCH ? COMM_NVSWITCH_BYTES
                 : link == GS_LINK_NVLINK ? COMM_NVLINK_BYTES
                                          : COMM_PCIE_BYTES;
    if (cross_node)
        bytes += CROSS_NODE_BYTES;
    return bytes;
}
