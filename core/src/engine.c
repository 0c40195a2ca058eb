/*
 * engine.c - the helpers the serving-engine modules share (see gs/engine.h):
 * fractions of a byte count, a sequence's recurrent states in an engine's
 * dtypes, vLLM's server batch defaults, the profiled activation peak, the
 * allocator's rounding of the weights.
 */
#include "gs/engine.h"

#include "gs/units.h"
#include "gs/weights.h"

#include <stddef.h>
#include <string.h>

uint64_t gs_engine_permille_of(uint64_t bytes, uint64_t permille, bool *ovf)
{
    /* bytes * permille / 1000 without overflow for realistic sizes */
    return gs_add(gs_mul(bytes / 1000, permille, ovf), (bytes % 1000) * permille / 1000, ovf);
}

void gs_engine_state_bytes(const struct gs_inference_input *in, const struct gs_state_dtypes *d,
                           struct gs_kv_layout *kv)
{
    if (kv->recurrent_layers == 0)
        return;
    bool ovf = false;
    uint64_t layers = 0;
    const uint64_t all = gs_kv_state_bytes(in->arch, in->tensor ? in->tensor : 1, d, &layers, &ovf);
    if (ovf || layers == 0)
        return;
    kv->state_bytes_per_sequence =
        layers == kv->recurrent_layers ? all : all / layers * kv->recurrent_layers;
}

void gs_engine_server_batch_defaults(const struct gs_inference_input *in,
                                     struct gs_inference_result *out)
{
    const struct gs_engine_config *c = &in->engine;
    const bool large = in->gpu.total_bytes >= (uint64_t)70 * GS_GIB && !in->gpu.is_a100;
    out->max_num_batched_tokens = c->max_num_batched_tokens ? c->max_num_batched_tokens
                                                            : (large ? 8192 : 2048);
    out->max_num_seqs = c->max_num_seqs ? c->max_num_seqs : (large ? 1024 : 256);
}


/* The weights request of this worker's stage: its format, tensor ranks and stages. */
static struct gs_weights_request stage_request(const struct gs_inference_input *in,
                                               const struct gs_engine_stage *stage)
{
    return (struct gs_weights_request){(enum gs_weight_format)in->weight_format,
                                       in->group_size,
                                       stage->tensor,
                                       stage->pipeline,
                                       in->experts_only,
                                       in->expert,
                                       in->stages,
                                       in->host_tables};
}

uint64_t gs_engine_segment_slack(const struct gs_inference_input *in,
                                 const struct gs_engine_stage *stage, bool *ovf)
{
    const struct gs_weights_request wr = stage_request(in, stage);
    uint64_t copies[GS_BLOCKS_MAX];
    memcpy(copies, stage->counts, sizeof(copies));
    gs_arch_weight_counts(in->arch, copies);
    return gs_weights_segment_slack(in->arch, &wr, copies, stage->first_stage, stage->last_stage,
                                    ovf);
}

uint64_t gs_engine_fp8_marlin_growth(const struct gs_inference_input *in,
                                     const struct gs_engine_stage *stage, bool *ovf)
{
    const struct gs_weights_request wr = stage_request(in, stage);
    return gs_weights_fp8_marlin_growth(in->arch, &wr, stage->counts, stage->first_stage,
                                        stage->last_stage, ovf);
}

uint64_t gs_engine_router_fp32_growth(const struct gs_inference_input *in,
                                      const struct gs_engine_stage *stage, bool *ovf)
{
    const struct gs_weights_request wr = stage_request(in, stage);
    return gs_weights_router_fp32_growth(in->arch, &wr, stage->counts, ovf);
}

uint64_t gs_engine_kv_slot_bytes(const struct gs_inference_input *in,
                                 const struct gs_engine_stage *stage, bool shared_projections,
                                 bool *ovf)
{
    const struct gs_weights_request wr = stage_request(in, stage);
    return gs_weights_kv_slot_bytes(in->arch, &wr, stage->counts, shared_projections, ovf);
}

bool gs_engine_has_windows(const struct gs_arch *a)
{
    for (size_t k = 0; k < a->block_count; k++)
        if (a->block_layers[k] && a->blocks[k].attn.span != GS_SPAN_FULL && a->blocks[k].attn.window)
            return true;
    return false;
}

bool gs_engine_has_towers(const struct gs_arch *a)
{
    for (size_t i = 0; i < a->tower_count; i++)
        if (a->towers[i].part == GS_PART_VISION || a->towers[i].part == GS_PART_AUDIO)
            return true;
    return false;
}

bool gs_engine_engram_tables_on_host(enum gs_engine engine, uint32_t version, uint8_t asked)
{
    if (asked != GS_TABLES_DEFAULT)
        return asked == GS_TABLES_HOST;
    switch (engine) {
    case GS_ENGINE_VLLM:
        /* vllm/config/engram.py EngramConfig.cpu_offload defaults to VLLM_PLE_CPU_OFFLOAD
         * ("enabled by default"): the shards in pinned host memory, read over UVA
         * (models/deepseek_v41/nvidia/engram.py ParallelEngramEmbedding, models/qwen4_exp
         * nvidia/ngram_embedding.py Qwen4ExpPLEPinnedHostEmbedding; --engram-config
         * '{"cpu_offload": false}' keeps them on the GPU). 0.29, the first release with
         * Qwen3.8-Flash-Next's table, kept its rows on the GPU (PLEVocabParallelEmbedding):
         * cpu_offload came with PR #54371, "defaults to false", if 0.29 has it at all (a
         * vllm-ascend shim says it has no EngramConfig); the default was on by PR #57910's
         * thread (2026-09-21), the release after */
        return version == 0 || version >= GS_VLLM_ENGRAM_HOST_DEFAULT;
    case GS_ENGINE_TENSORRT_LLM:
        /* _torch/models/modeling_deepseekv41.py DeepseekV41Engram: "Pinned-CPU FP8 lookup",
         * ShardedFp8MultiHeadEmbedding's table shards stay in pinned CPU memory */
        return true;
    default:
        /* SGLang layers/engram.py EngramEmbedding: rows sharded over the tensor group in device
         * memory unless SGLANG_ENABLE_DSV41_ENGRAM_HOST_TABLE; models/qwen4_exp.py
         * Qwen4ExpNGramEmbedding likewise unless --ple-offload-embedding (off by default); other
         * engines do not load them */
        return false;
    }
}

void gs_engine_kv_dtype_notes(const struct gs_inference_result *r, const struct gs_engine_notes *n)
{
    if (r->kv_dtype_detail != NULL && n->assume)
        n->assume(n->ctx, "kv_cache_dtype", r->kv_dtype_detail, r->kv_dtype_source);
    if (r->kv_dtype_warning != NULL && n->warn)
        n->warn(n->ctx, "kv_cache_dtype_may_not_start", r->kv_dtype_warning);
}
