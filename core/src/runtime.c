/*
 * runtime.c - the CUDA context and communication buffers of one rank.
 */
#include "gs/runtime.h"

#include "gs/units.h"

/* NCCL's and the custom all-reduce's buffers on one tensor-parallel rank.
 * NCCL allocates NCCL_BUFFSIZE (4 MiB) per channel per peer connection
 * and protocol, linear in its channel count, which it raises to reach
 * NVLink bandwidth (NVIDIA/nccl #864, #986); vLLM's custom all-reduce adds
 * its IPC buffers (CUSTOM_AR_BYTES). Per class, from public startup logs
 * (vLLM's non-torch figure minus its profile growth, 0.16 GiB, see vllm.c,
 * or measured directly):
 *   PCIe cards: 0.13 GiB measured directly around the process-group setup on
 *     4 x L4, NCCL only ("Init torch distributed ends. mem usage=0.13 GB",
 *     SGLang 0.4.3.post4, QwQ-32B log in tests/fixtures/calibration); vLLM
 *     issue #14447 (4 x 24 GB, V0 0.8) logs 0.20 GiB of non-torch memory in
 *     all, which leaves less than 0.16 GiB for its profile growth;
 *   NVLink, Ampere: 0.89 GiB on the first rank of 8 x A100-SXM4-40GB
 *     (surajssd/llm-k8s deepseek-v2.5 run over sockets, V0 0.8.3: one
 *     NCCL communicator for the tensor group, the pipeline group's socket
 *     buffers being host memory; the printed workers are quoted in
 *     tests/fixtures/calibration/vllm-startup-logs.json and
 *     test_nvlink_communicator checks this figure against them) -> 0.73 GiB;
 *   NVLink/NVSwitch, Hopper and later: 2.07 GiB at TP 2 on H100 SXM in two
 *     vLLM 0.19.0 runs (llm-d planner logs, Mixtral-8x7B and gpt-oss-20b) ->
 *     1.91 GiB. SGLang measures the same buffers another way and agrees:
 *     "Init torch distributed ends. mem usage=1.77 GB" to "2.01 GB" on the
 *     ranks of 8 x H200 (sgl-project/sglang PR #11716's log).
 * floor(x x 2^30). */
#define COMM_PCIE_BYTES ((uint64_t)139586437)
#define COMM_NVLINK_BYTES ((uint64_t)783831531)
#define COMM_NVSWITCH_BYTES ((uint64_t)2050846883)
/* vLLM's custom all-reduce (custom_all_reduce.py) cudaMallocs two IPC
 * buffers outside torch, meta_size() + max_size and max_size with max_size
 * 8 MiB; the allocator hands out 2 MiB pages: 10 + 8 MiB. */
#define CUSTOM_AR_BYTES ((uint64_t)18 * 1024 * 1024)
/* A rank whose groups span nodes over InfiniBand: NCCL registers its network
 * receive buffers in device memory for GPUDirect RDMA ("NET/IB/.../GDRDMA";
 * over sockets they stay in host memory). The deepseek-v2.5 runs above, the
 * same layout over InfiniBand and over sockets, differ by 0.04, 0.03 and
 * 0.04 GiB on the three workers they print: 0.04 GiB (test_nvlink_communicator). */
#define CROSS_NODE_BYTES ((uint64_t)42949672)

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

/* NCCL point-to-point receive buffers, one connection per channel per peer,
 * set up on the first send or receive with that peer for all of
 * p2pnChannelsPerPeer channels (enqueue.cc: "Mark channels that need
 * pre-connect"). Over NVLink NCCL reads (P2P/IPC/read): the receiver holds
 * the LL and LL128 buffers, 512 KiB and 4,800 KiB, with its ncclRecvMem
 * header, rounded up to CUDA_IPC_MIN, 2 MiB (transport/p2p.cc p2pRecvSetup,
 * NCCL 2.21): 6 MiB per connection. NVLink boards get 32 channels per peer
 * (ncclTopoComputeP2pChannels: the next power of two of the coll channels,
 * 24 on A100, 32 on H100; "32 p2p channels per peer" in the deepseek-v2.5
 * log). */
#define P2P_RECV_CONNECTION_BYTES ((uint64_t)6 * 1024 * 1024)
#define P2P_CHANNELS_PER_PEER 32

/* One more NCCL communicator for the tensor group, by class, without the
 * custom all-reduce's buffers:
 *   Ampere NVLink: the class figure above, one communicator (the first
 *     stage of the deepseek-v2.5 run gathers nothing);
 *   Hopper NVSwitch: the class figure comes from V1 runs, whose profile
 *     creates more than one communicator's worth; one communicator is what
 *     the tensor group's setup leaves before vLLM 0.19's init snapshot -
 *     "non_torch_memory=1.51GiB" at TP 2 against 0.51 (the CUDA context) at
 *     TP 1 on the llm-d planner's H100s (Llama-3.1-8B, Qwen2.5-7B and
 *     Qwen2.5-72B runs in tests/fixtures/calibration): 1.00 GiB. */
#define SECOND_COMM_HOPPER_BYTES ((uint64_t)1073741824 - CUSTOM_AR_BYTES)

uint64_t gs_runtime_gather_root_bytes(enum gs_link link, uint64_t tensor, bool *overflow)
{
    if (tensor < 2 || link == GS_LINK_PCIE)
        return 0;
    const uint64_t comm = link == GS_LINK_NVSWITCH ? SECOND_COMM_HOPPER_BYTES
                                                   : COMM_NVLINK_BYTES - CUSTOM_AR_BYTES;
    const uint64_t p2p =
        gs_mul(gs_mul(tensor - 1, P2P_CHANNELS_PER_PEER, overflow), P2P_RECV_CONNECTION_BYTES,
               overflow);
    return gs_add(comm, p2p, overflow);
}

static const char *const all2all_names[GS_ALL2ALL_COUNT] = {
    [GS_ALL2ALL_NCCL] = "allgather_reducescatter",
    [GS_ALL2ALL_DEEPEP_HT] = "deepep_high_throughput",
    [GS_ALL2ALL_DEEPEP_LL] = "deepep_low_latency",
};

const char *gs_all2all_name(enum gs_all2all backend)
{
    return backend < GS_ALL2ALL_COUNT ? all2all_names[backend] : "";
}

/* vLLM's DeepEP managers (vllm/distributed/device_communicators/all2all.py)
 * give deep_ep.Buffer num_nvl_bytes = VLLM_DEEPEP_BUFFER_SIZE_MB MiB
 * (vllm/envs.py, default 1024); high throughput adds an RDMA buffer of the
 * same size when the group spans nodes, low latency one of
 * get_low_latency_rdma_size_hint(VLLM_MOE_DP_CHUNK_SIZE = 256 tokens per
 * rank, hidden, ranks, experts). DeepEP allocates both outside torch when
 * the first MoE layer runs, in the profile run, so vLLM counts them as
 * non-torch memory. */
#define DEEPEP_BUFFER_BYTES ((uint64_t)1024 * GS_MIB)
#define DEEPEP_DISPATCH_TOKENS ((uint64_t)256)

/* DeepEP csrc/config.hpp LowLatencyLayout: a dispatch message is an int4
 * header and the token in bf16 or in fp8 with one float scale per 128
 * channels, whichever is larger; a combine message the token in bf16 with
 * a bf16 pair per 128 channels (LogFMT). Two (odd/even) send, receive and
 * signaling buffers; the hint rounds up past a 128-byte boundary. */
static uint64_t deepep_low_latency_rdma(uint64_t hidden, uint64_t experts, bool *ovf)
{
    const uint64_t t = DEEPEP_DISPATCH_TOKENS, scales = hidden / 128;
    const uint64_t bf16 = gs_mul(hidden, 2, ovf);
    const uint64_t fp8 = gs_add(hidden, gs_mul(scales, 4, ovf), ovf);
    const uint64_t dispatch_msg = 16 + (bf16 > fp8 ? bf16 : fp8);
    const uint64_t combine_msg = gs_add(bf16, gs_mul(scales, 4, ovf), ovf);
    const uint64_t et = gs_mul(experts, t, ovf);
    const uint64_t send_d = gs_mul(t, dispatch_msg, ovf), send_c = gs_mul(et, combine_msg, ovf);
    const uint64_t recv_d = gs_mul(et, dispatch_msg, ovf), recv_c = send_c;
    const uint64_t send = send_d > send_c ? send_d : send_c;
    const uint64_t recv = recv_d > recv_c ? recv_d : recv_c;
    const uint64_t signaling = gs_mul(experts, 4, ovf);
    const uint64_t total = gs_mul(gs_add(gs_add(send, recv, ovf), signaling, ovf), 2, ovf);
    return gs_mul((total + 128) / 128, 128, ovf);
}

uint64_t gs_runtime_all2all_bytes(enum gs_all2all backend, uint64_t hidden, uint64_t experts,
                                  bool cross_node, bool *overflow)
{
    switch (backend) {
    case GS_ALL2ALL_DEEPEP_HT:
        return cross_node ? 2 * DEEPEP_BUFFER_BYTES : DEEPEP_BUFFER_BYTES;
    case GS_ALL2ALL_DEEPEP_LL:
        return gs_add(DEEPEP_BUFFER_BYTES, deepep_low_latency_rdma(hidden, experts, overflow),
                      overflow);
    case GS_ALL2ALL_NCCL:
    case GS_ALL2ALL_COUNT:
        break;
    }
    return 0;
}
