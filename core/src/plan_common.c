/*
 * plan_common.c - what both plan searches share (see plan_common.h): node sizes, the GPU counts
 * tried, layout validity, the network a group of GPUs talks over, and pricing a plan.
 */
#include "plan_common.h"

#include "gs/capability.h"

uint64_t plan_node_size(const struct gs_plan_gpu *gpu)
{
    return gpu->gpus_per_node ? gpu->gpus_per_node : 8;
}

uint64_t plan_max_tensor(const struct gs_plan_gpu *gpu, const struct gs_plan_limits *l)
{
    const uint64_t node = plan_node_size(gpu);
    return l->max_tensor && l->max_tensor < node ? l->max_tensor : node;
}

/* GPU counts in the order they are tried: every count up to a node, then
 * whole nodes. */
size_t plan_gpu_counts(uint64_t node, uint64_t max, uint64_t counts[PLAN_COUNTS_MAX])
{
    size_t n = 0;
    for (uint64_t c = 1; c < node && c <= max && n < PLAN_COUNTS_MAX; c++)
        counts[n++] = c;
    for (uint64_t k = 1; k * node <= max && n < PLAN_COUNTS_MAX; k++)
        counts[n++] = k * node;
    return n;
}

bool plan_layout_valid(const struct gs_model_spec *m, const struct gs_parallelism *par)
{
    if (!m->has_arch)
        return par->tensor == 1 && par->pipeline == 1 && par->expert == 1;
    return gs_parallelism_validate(par, &m->arch, NULL) == GS_OK;
}

uint64_t plan_nodes_for(uint64_t gpus, uint64_t node)
{
    return (gpus + node - 1) / node;
}

void plan_price(const struct gs_plan_gpu *gpu, struct gs_plan *plan)
{
    plan->has_price = gpu->has_price;
    if (!gpu->has_price)
        return;
    plan->price_per_gpu_hour = gpu->price_per_gpu_hour;
    plan->cost_per_hour = gpu->price_per_gpu_hour * (double)plan->gpu_count;
    if (plan->output_tokens_per_s > 0)
        plan->cost_per_million_tokens = plan->cost_per_hour / (plan->output_tokens_per_s * 3600) * 1e6;
    if (plan->train.gpu_hours > 0)
        plan->total_cost = plan->train.gpu_hours * gpu->price_per_gpu_hour;
}

/* The node's network per GPU, one direction, when the catalog has no figure
 * for the GPU: one 400 Gb/s NIC per GPU on Hopper and Blackwell NVSwitch
 * boards (NVIDIA DGX H100: eight ConnectX-7 400 Gb/s), one 200 Gb/s per GPU
 * on A100 boards (DGX A100: eight HDR 200 Gb/s), one 100 Gb/s uplink per
 * node for PCIe servers (AWS g5.48xlarge: 100 Gbps for eight A10G). */
static double default_scale_out(const struct gs_plan_gpu *g, uint64_t node)
{
    switch ((enum gs_link)g->view.link) {
    case GS_LINK_NVSWITCH:
        return 400e9 / 8;
    case GS_LINK_NVLINK:
        return 200e9 / 8;
    case GS_LINK_PCIE:
    default:
        return 100e9 / 8 / (double)node;
    }
}

double gs_plan_scale_out(const struct gs_plan_gpu *gpu, bool *assumed)
{
    *assumed = !(gpu->scale_out_bytes_per_s > 0);
    return *assumed ? default_scale_out(gpu, plan_node_size(gpu)) : gpu->scale_out_bytes_per_s;
}

bool gs_plan_crosses_nodes(const struct gs_plan *plan, const struct gs_plan_gpu *gpu)
{
    if (plan->disaggregated) /* kv_transfer_seconds: each prompt's cache crosses to a decode
                                pool, on another node unless both pools fit one */
        return plan->nodes > 1;
    if (plan->estimate.has_peak) /* a training estimate: the job's data-parallel traffic */
        return plan->nodes > 1;
    const uint64_t dpa = plan->attention_data ? plan->attention_data : 1;
    return plan->tensor * plan->pipeline * dpa > plan_node_size(gpu);
}

/* The data-parallel group's slowest link per GPU, one direction: NVLink or PCIe
 * within a node; across nodes, the node's network: the GPU's scale-out figure
 * (the catalog's scale_out_gb_s), else the board class's default above. */
double plan_group_link(const struct gs_plan_gpu *g, uint64_t gpus)
{
    const double intra = gs_perf_link_bytes_per_s(&g->perf);
    const uint64_t node = plan_node_size(g);
    if (gpus <= node)
        return intra;
    const double inter =
        g->scale_out_bytes_per_s > 0 ? g->scale_out_bytes_per_s : default_scale_out(g, node);
    return inter < intra ? inter : intra;
}
