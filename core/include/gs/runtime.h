/*
 * runtime.h - memory a serving process holds outside torch's allocator
 * whatever the engine: the CUDA context and the collectives' buffers.
 *
 * Engines differ in when they look (vLLM measures non-torch growth around
 * its profile run, SGLang the free memory after setting up its process
 * groups); what is resident is the same, so both rules read it here.
 */
#ifndef GS_RUNTIME_H
#define GS_RUNTIME_H

#include <stdbool.h>
#include <stdint.h>

/* How GPUs of a layout talk: decides the communication buffers. */
enum gs_link {
    GS_LINK_PCIE,     /* PCIe cards (L40S, L4, RTX): NCCL over PCIe, few channels */
    GS_LINK_NVLINK,   /* NVLink boards before Hopper (A100 SXM, bridges) */
    GS_LINK_NVSWITCH  /* Hopper and Blackwell NVLink/NVSwitch boards */
};

/* The CUDA context with lazy module loading (PyTorch >= 1.13, CUDA >=
 * 11.7): 287,047,680 bytes measured in pytorch/pytorch PR #86509. */
#define GS_CUDA_CONTEXT_BYTES ((uint64_t)287047680)
/* PyTorch's cuBLAS workspace on Hopper: 32 MiB (pytorch/pytorch PR #120925);
 * the pre-Hopper default is about 8 MiB, so this is the larger of the two. */
#define GS_CUBLAS_WORKSPACE_BYTES ((uint64_t)32 * 1024 * 1024)

/* NCCL's and the custom all-reduce's buffers on one rank of a tensor group
 * of `tensor` ranks over `link` (0 for one rank), plus NCCL's network
 * buffers when the group spans nodes. The figures and their sources are in
 * runtime.c. */
uint64_t gs_runtime_comm_bytes(enum gs_link link, uint64_t tensor, bool cross_node);

/* What gathering a tensor to the first rank of a `tensor`-rank group with
 * torch.distributed.gather leaves on that rank: torch's own NCCL
 * communicator for the group (created lazily by its first collective, a
 * second one beside the engine's own, measured per class in runtime.c) and
 * NCCL's point-to-point receive buffers from
 * every other rank (runtime.c). Over NVLink only: where GPUs have no
 * peer-to-peer path NCCL goes through host memory (vLLM issue #15815's 2 x
 * L40S and issue #13061's 2 x RTX 4090 V0 logs print 0.30 and 0.25 GiB of
 * non-torch memory in all on that rank), and PCIe peer-to-peer is not
 * measured. */
uint64_t gs_runtime_gather_root_bytes(enum gs_link link, uint64_t tensor, bool *overflow);

/* vLLM's expert-parallel all-to-all (--all2all-backend). */
enum gs_all2all {
    GS_ALL2ALL_NCCL,            /* allgather_reducescatter or naive: collectives over NCCL's
                                   buffers, nothing more */
    GS_ALL2ALL_DEEPEP_HT,       /* deepep_high_throughput */
    GS_ALL2ALL_DEEPEP_LL,       /* deepep_low_latency */
    GS_ALL2ALL_COUNT
};

const char *gs_all2all_name(enum gs_all2all backend);

/* The all-to-all buffers on one rank of an expert group (see runtime.c):
 * none over NCCL; DeepEP's NVLink buffer, plus its RDMA buffer when the
 * group spans nodes (high throughput) or always (low latency, sized for
 * `hidden` and `experts`). */
uint64_t gs_runtime_all2all_bytes(enum gs_all2all backend, uint64_t hidden, uint64_t experts,
                                  bool cross_node, bool *overflow);

#endif
