/*
 * test_models_deepseek_v41.c - the reader of server/readers/deepseek_v41.c (DeepSeek-V4.1):
 * the parameter count against the checkpoint's (the written-out inventory of
 * tests/fixtures/configs/deepseek_v41/README.md, equal to the Hub's safetensors total), the
 * stored bytes against the index's total_size, each layer's role (KV sources, indexers,
 * Engram), the cache a token adds, where each engine keeps the Engram tables, reader errors
 * and the refusal of training.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "arch_fixture.h"
#include "gs/capability.h"
#include "gs/engine.h"
#include "gs/estimate.h"
#include "gs/inference.h"
#include "gs/perf.h"
#include "gs/vllm.h"
#include "gs/weights.h"

#include <math.h>
#include <string.h>

#define FLASH "deepseek_v41/deepseek-ai__DeepSeek-V4.1-Flash.json"

/* One 4,096-token sequence of `a` on one GPU of `engine`. */
static struct gs_inference_input one_sequence(const struct gs_arch *a, enum gs_engine engine)
{
    struct gs_inference_input in;
    memset(&in, 0, sizeof(in));
    in.arch = a;
    in.batch_size = 1;
    in.context_length = 4096;
    in.tensor = in.pipeline = 1;
    in.model_bytes = 2;
    in.engine.engine = engine;
    return in;
}

/* README "Exact count": 551,880,835,184 backbone + 196,613,849,600 Engram table values +
 * 485,268,480 vision = 748,979,953,264; the DSpark layers 14,225,362,530 (with them the Hub's
 * 763,205,315,794). Active: the total less 40 x 378 idle experts of 35,389,440, the token
 * embedding 661,913,600, the Engram tables (lookups, never active) and the vision tower:
 * 16,130,588,784 (the DSpark layers' markov_head lookup is not in the total, so not taken from
 * it). No buffers: the router biases are parameters in inference/model.py. */
static void test_deepseek_v41_counts(void **state)
{
    (void)state;
    const struct gs_arch a = fixture_arch_file(FLASH);
    const struct gs_param_count c = fixture_count(&a);
    assert_int_equal(c.total, 748979953264ULL);
    assert_int_equal(c.mtp, 14225362530ULL);
    assert_int_equal(c.total + c.mtp, 763205315794ULL);
    assert_int_equal(c.buffers, 0);
    assert_int_equal(c.vision, 485268480ULL);
    assert_int_equal(c.active, 748979953264ULL - 40ULL * 378 * 35389440 - 661913600ULL -
                                   196613849600ULL - 485268480ULL);
    fixture_assert_parts_sum(&c);
    assert_non_null(a.training_refusal);
}

/* Bytes as stored (README "Stored bytes"): the index's total_size 510,286,023,000 less the
 * DSpark layers (7,932,874,632: gs_weights_bytes leaves out the MTP towers) and less 5,007,360
 * of the fp8 linears' block scales (6,676,480 e8m0 bytes at 32x32, sized as 1,669,120 at four
 * bytes a 128x128 block). With the tables in host memory a tensor rank holds 1/TP of their
 * 202,758,032,400 bytes fewer (24 buckets split by rows, rounded up per bucket). */
static void test_deepseek_v41_stored_bytes(void **state)
{
    (void)state;
    const struct gs_arch a = fixture_arch_file(FLASH);
    assert_true(a.checkpoint.quantized);
    assert_int_equal(a.checkpoint.part_format[GS_PART_EXPERTS], GS_WF_MXFP4);
    assert_int_equal(a.checkpoint.part_format[GS_PART_OTHER], GS_WF_FP8_BLOCK);
    const struct gs_param_count c = fixture_count(&a);
    struct gs_weights_request r = {.format = GS_WF_MXFP4, .tensor = 1, .pipeline = 1};
    struct gs_error err;
    gs_error_init(&err);
    uint64_t bytes = 0, host = 0;
    assert_int_equal(gs_weights_bytes(&a, &c, &r, &bytes, &err), GS_OK);
    assert_int_equal(bytes, 510286023000ULL - 7932874632ULL - 5007360ULL);
    bool ovf = false;
    assert_true(gs_weights_has_host_tables(&a));
    assert_int_equal(gs_weights_host_table_bytes(&a, &r, &ovf), 202758032400ULL);
    r.host_tables = true;
    assert_int_equal(gs_weights_bytes(&a, &c, &r, &host, &err), GS_OK);
    assert_int_equal(bytes - host, 202758032400ULL);
    /* TP 8: each of the 24 buckets of layer 1 (16,000,257 rows) keeps 2,000,033 rows a rank,
     * layer 14's (16,000,695 and a rest of 2) 2,000,087 and 1, at 264 bytes a row */
    r.tensor = 8;
    r.host_tables = false;
    assert_int_equal(gs_weights_host_table_bytes(&a, &r, &ovf),
                     264ULL * (24ULL * 2000033 + 24ULL * 2000087 + 1));
    assert_false(ovf);
}

/* Layer roles (inference/model.py: a Compressor only on a KV source, an Indexer on the index
 * sources owning wk only on a KV source, Engram at engram_layer_ids): 4 layers write a
 * compressed cache (3 at ratio 2, layer 20 at 1), 4 own indexer keys, the rest hold the
 * window alone. */
static void test_deepseek_v41_layers(void **state)
{
    (void)state;
    const struct gs_arch a = fixture_arch_file(FLASH);
    assert_int_equal(a.num_hidden_layers, 40);
    uint64_t at[3] = {0, 0, 0}, owners = 0, indexers = 0, engram = 0;
    for (uint64_t l = 0; l < a.num_hidden_layers; l++) {
        const struct gs_block *b = &a.blocks[a.layer_block[l]];
        assert_int_equal(b->mixer, GS_MIXER_MLA);
        assert_int_equal(b->attn.window, 128);
        assert_true(b->attn.compress_ratio <= 2);
        at[b->attn.compress_ratio]++;
        owners += b->attn.index_heads != 0 && !b->attn.index_keys_shared;
        indexers += b->attn.index_heads != 0;
        for (size_t i = 0; i < b->module_count; i++)
            engram += strcmp(b->modules[i].name, "engram.wkv") == 0;
        const bool source = l == 2 || l == 8 || l == 14 || l == 20;
        assert_int_equal(b->attn.compress_ratio, source ? (l == 20 ? 1 : 2) : 0);
        assert_int_equal(b->attn.index_heads != 0 && !b->attn.index_keys_shared, source);
        /* a layer that is not a source reads the cache its compress_ratios entry names */
        assert_int_equal(b->attn.read_ratio, source || l < 2 ? 0 : (l < 20 ? 2 : 1));
    }
    assert_int_equal(at[0], 36);
    assert_int_equal(at[2], 3);
    assert_int_equal(at[1], 1);
    assert_int_equal(owners, 4);
    assert_int_equal(indexers, 8);
    assert_int_equal(engram, 2);
    assert_int_equal(gs_weights_mtp_layers(&a), 3);
}

/* Bytes a token adds in bf16 at any tensor degree (one latent head, replicated): every layer's
 * window entry of 512 elements (2 x 512 bytes, counted per token before the window caps it),
 * 1,024 / 2 on each ratio-2 source and 1,024 on layer 20 (2,560 growing with the context), and
 * the owners' indexer keys, 128 fp8 values and an fp32 scale per compressed entry whatever the
 * cache's dtype (vLLM DeepseekV4IndexerCache, _indexer_k_cache_head_dim): 3 x 66 + 132. */
static void test_deepseek_v41_cache(void **state)
{
    (void)state;
    const struct gs_arch a = fixture_arch_file(FLASH);
    for (uint64_t t = 1; t <= 8; t *= 8) {
        struct gs_kv_layout kv;
        assert_int_equal(gs_kv_layout_for(&a, GS_KV_BF16, 2, t, 1, &kv, NULL), GS_OK);
        assert_int_equal(kv.full_token_bytes, 3 * 512 + 1024);
        assert_int_equal(kv.bytes_per_token, 40 * 1024 + 3 * 512 + 1024);
        assert_int_equal(kv.indexer_token_bytes, 3 * 66 + 132);
        assert_int_equal(kv.window_layers, 40);
        /* nvfp4_ds_mla: 528-byte window entries, 288-byte compressed ones */
        assert_int_equal(gs_kv_layout_for(&a, GS_KV_NVFP4_DS_MLA, 2, t, 1, &kv, NULL), GS_OK);
        assert_int_equal(kv.full_token_bytes, 3 * 144 + 288);
        assert_int_equal(kv.bytes_per_token, 40 * 528 + 3 * 144 + 288);
    }
    /* a model without DeepSeek-V4's compressed entries has no nvfp4_ds_mla cache */
    const struct gs_arch v3 = fixture_deepseek_v3();
    struct gs_kv_layout kv;
    struct gs_error err;
    gs_error_init(&err);
    assert_int_equal(gs_kv_layout_for(&v3, GS_KV_NVFP4_DS_MLA, 2, 1, 1, &kv, &err), GS_ERR_INVALID);
    assert_string_equal(err.items[0].pointer, "/inference/kv_cache_dtype");
}

/* vLLM's DeepSeek-V4.1 attention (_resolve_dsv4_kv_cache_dtype): auto and fp8 resolve to the
 * layer's packed format - on a GPU that is not compute capability 10.x the 584-byte fp8_ds_mla
 * entry - 40 window entries and 3 x 584 / 2 + 584 compressed ones a token,
 * 24,820 bytes - with the assumption saying why; a 16-bit cache is sized as asked (1,024-byte
 * rows: 43,520) with the warning that the packed layouts stop at startup. */
static void test_deepseek_v41_vllm_cache_dtype(void **state)
{
    (void)state;
    const struct gs_arch a = fixture_arch_file(FLASH);
    struct gs_inference_input in = one_sequence(&a, GS_ENGINE_VLLM);
    struct gs_inference_result r;
    const struct {
        enum gs_kv_dtype asked, held;
        uint64_t token_bytes;
        bool assumed, warned;
    } cases[] = {
        {GS_KV_AUTO, GS_KV_FP8_DS_MLA, 24820, true, false},
        {GS_KV_FP8, GS_KV_FP8_DS_MLA, 24820, true, false},
        {GS_KV_FP8_DS_MLA, GS_KV_AUTO, 24820, false, false},
        {GS_KV_BF16, GS_KV_AUTO, 43520, false, true},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        in.kv_dtype = cases[i].asked;
        assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
        assert_int_equal(r.kv_dtype, cases[i].held);
        assert_int_equal(r.kv.bytes_per_token, cases[i].token_bytes);
        assert_int_equal(r.kv_dtype_detail != NULL, cases[i].assumed);
        assert_int_equal(r.kv_dtype_warning != NULL, cases[i].warned);
    }
    /* nvfp4_ds_mla off compute capability 10.x: sized as asked, with the warning */
    in.kv_dtype = GS_KV_NVFP4_DS_MLA;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_int_equal(r.kv.bytes_per_token, 21840);
    assert_non_null(r.kv_dtype_warning);
    /* compute capability 10.x from 0.31 (and the release not named): mega attention's
     * nvfp4_ds_mla, 40 x 528 + 3 x 288 / 2 + 288 = 21,840; 0.30 keeps fp8_ds_mla here */
    in.gpu.hw = GS_HW_BLACKWELL;
    in.gpu.sm_major = 10;
    const uint32_t versions[] = {0, 3100, 3000};
    for (size_t i = 0; i < 3; i++) {
        in.engine.version = versions[i];
        in.kv_dtype = GS_KV_AUTO;
        assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
        assert_int_equal(r.kv_dtype, i < 2 ? GS_KV_NVFP4_DS_MLA : GS_KV_FP8_DS_MLA);
        assert_int_equal(r.kv.bytes_per_token, i < 2 ? 21840 : 24820);
        assert_null(r.kv_dtype_warning);
    }
    /* RTX PRO 6000 (12.x): FlashInfer's SM120 class, fp8_ds_mla */
    in.engine.version = 0;
    in.gpu.sm_major = 12;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_int_equal(r.kv_dtype, GS_KV_FP8_DS_MLA);
}

/* The buffers vLLM's DeepSeek-V4.1 model allocates with itself beside the top-k indices (index_topk
 * 512 int32 a token), by hand at T = 8,192 tokens: candidate_block_buffer, candidate_topk_blocks
 * 2,048 int32 a token on every GPU = 67,108,864 bytes; the staged Engram rows of layers 1 and 14,
 * (4 - 1) x 8 = 24 hash columns of 256 bf16 values split over the tensor ranks: TP 1 2 x 8,192 x
 * 24 x 256 x 2 = 201,326,592, TP 4 (6 columns) 50,331,648, TP 16 (ceil(24 / 16) = 2) 16,777,216;
 * a pipeline stage of layers 0-9 holds layer 1's alone, 100,663,296 at TP 1. */
static void test_deepseek_v41_vllm_buffers(void **state)
{
    (void)state;
    const struct gs_arch a = fixture_arch_file(FLASH);
    bool ovf = false;
    const uint64_t t = 8192;
    assert_int_equal(gs_vllm_sparse_buffer_bytes(&a, 0, GS_SPEC_NONE, t, 2, true, &ovf),
                     t * 512 * 4 + t * 2048 * 4);
    uint64_t counts[GS_BLOCKS_MAX];
    gs_arch_count_blocks(&a, 0, a.num_hidden_layers, counts);
    assert_int_equal(gs_vllm_engram_staging_bytes(&a, t, 1, counts, &ovf), 201326592);
    assert_int_equal(gs_vllm_engram_staging_bytes(&a, t, 4, counts, &ovf), 50331648);
    assert_int_equal(gs_vllm_engram_staging_bytes(&a, t, 16, counts, &ovf), 16777216);
    gs_arch_count_blocks(&a, 0, 10, counts);
    assert_int_equal(gs_vllm_engram_staging_bytes(&a, t, 1, counts, &ovf), 100663296);
    /* a model without Engram layers stages nothing */
    const struct gs_arch v4 = fixture_arch_file("deepseek_v4/deepseek-ai__DeepSeek-V4-Flash.json");
    gs_arch_count_blocks(&v4, 0, v4.num_hidden_layers, counts);
    assert_int_equal(gs_vllm_engram_staging_bytes(&v4, t, 1, counts, &ovf), 0);
    assert_false(ovf);

    /* in an estimate: with the weights vLLM loads */
    struct gs_inference_input in = one_sequence(&a, GS_ENGINE_VLLM);
    in.gpu.total_bytes = 150000000000ULL;
    in.tensor = 4;
    struct gs_inference_result r;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    const uint64_t n = r.max_num_batched_tokens;
    assert_int_equal(r.budget.model_buffer_bytes, 2 * n * 6 * 256 * 2);
    assert_int_equal(r.budget.sparse_buffer_bytes, n * (512 + 2048) * 4);
}

/* SGLang (0.5.21 on) keeps DeepSeek-V4.1 in DeepSeek-V4's pools and their 584-byte entries
 * (SGLANG_DSV4_KV_LAYOUT "v4" by default): the entry is sized so, the pools' structure is not,
 * and the answer says so (kv_pool_not_modeled). */
static void test_deepseek_v41_sglang(void **state)
{
    (void)state;
    const struct gs_arch a = fixture_arch_file(FLASH);
    struct gs_inference_input in = one_sequence(&a, GS_ENGINE_SGLANG);
    struct gs_inference_result r;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_int_equal(r.kv_dtype, GS_KV_FP8_DS_MLA);
    assert_int_equal(r.kv.bytes_per_token, 24820);
    assert_non_null(r.pool_not_modeled);
    /* DeepSeek-V4 is sized in its pools: no such warning */
    const struct gs_arch v4 = fixture_arch_file("deepseek_v4/deepseek-ai__DeepSeek-V4-Flash.json");
    in.arch = &v4;
    assert_int_equal(gs_inference_compute(&in, &r, NULL), GS_OK);
    assert_null(r.pool_not_modeled);
}

/* Throughput (perf.c): a layer that reads a KV source's cache without holding it attends its
 * window and index_topk 512 of the source's entries, and an index source after layer 20 scores
 * only the 2,048 x 8 candidate positions. At a 131,072-token context in fp8_ds_mla (584 bytes)
 * a decode step of one sequence reads 40 x 128 windows, the 1,024 tokens the sources' top-k
 * spans (1,460 bytes a token over the four), every indexer key (330 a token), and 512 entries
 * of each of the 15 layers reading a ratio-2 cache and the 19 reading layer 20's: 57,905,152
 * bytes. Prefill FLOPs a token at 131,072 tokens (4 x 64 heads x 512 a attended entry, 2 x 32 x
 * 128 a scored key): layers 0-1 128 entries; the ratio-2 sources 640 and 65,536 keys; layer 20
 * 640 and 131,072 keys; 30 reading layers 640; layers 24, 28, 32, 36 640 and 16,384 keys -
 * 6,442,450,944. A prefill's token attends the mean over its positions (perf.c grown): the
 * window 128 - 128^2 / 262,144 = 127.9375; 512 of a ratio-2 cache 512 - 512^2 / 131,072 = 510,
 * of layer 20's 511; the ratio-2 sources' keys 32,768, layer 20's 65,536, the candidates 16,384 -
 * 16,384^2 / 262,144 = 15,360: 131,072 x (2 x 127.9375 + 18 x 637.9375 + 20 x 638.9375) + 8,192
 * x (3 x 32,768 + 65,536 + 4 x 15,360) = 5,059,051,520. */
static void test_deepseek_v41_throughput(void **state)
{
    (void)state;
    const struct gs_arch a = fixture_arch_file(FLASH);
    struct gs_kv_layout kv;
    assert_int_equal(gs_kv_layout_for(&a, GS_KV_FP8_DS_MLA, 2, 1, 1, &kv, NULL), GS_OK);
    assert_int_equal(kv.read_entry_bytes[2], 15 * 584);
    assert_int_equal(kv.read_entry_bytes[1], 19 * 584);
    assert_int_equal(kv.read_topk, 512);
    assert_int_equal(kv.topk_token_bytes, 1460);
    struct fixture_perf p;
    fixture_perf_one_sequence(&p, &a, &kv, 131072);
    struct gs_decode_result r;
    assert_true(gs_perf_decode(&p.in, &p.gpu, &p.eff, &r));
    const double read = 57905152.0;
    if (fabs(r.memory_seconds - read / 3350e9) > 1e-9 * read / 3350e9)
        fail_msg("memory_seconds %.9g, want %.9g", r.memory_seconds, read / 3350e9);
    const double peak = gs_perf_peak_flops(&p.gpu, GS_REGIME_BF16_MIXED);
    const double want = 5059051520.0 * 131072 / peak;
    const double got = gs_perf_prefill_seconds(&p.in, &p.gpu, &p.eff);
    if (fabs(got - want) > 1e-9 * want)
        fail_msg("prefill %.9g s, want %.9g", got, want);
}

/* Where the tables live by default: pinned host memory in vLLM from 0.30 (EngramConfig.
 * cpu_offload; 0.29 kept Qwen3.8-Flash-Next's on the GPU) and TensorRT-LLM
 * (DeepseekV41Engram), the GPU in SGLang (EngramEmbedding); a request's choice wins. */
static void test_deepseek_v41_engram_placement(void **state)
{
    (void)state;
    assert_true(gs_engine_engram_tables_on_host(GS_ENGINE_VLLM, 0, GS_TABLES_DEFAULT));
    assert_true(gs_engine_engram_tables_on_host(GS_ENGINE_VLLM, 3000, GS_TABLES_DEFAULT));
    assert_false(gs_engine_engram_tables_on_host(GS_ENGINE_VLLM, 2901, GS_TABLES_DEFAULT));
    assert_true(gs_engine_engram_tables_on_host(GS_ENGINE_TENSORRT_LLM, 0, GS_TABLES_DEFAULT));
    assert_false(gs_engine_engram_tables_on_host(GS_ENGINE_SGLANG, 0, GS_TABLES_DEFAULT));
    assert_false(gs_engine_engram_tables_on_host(GS_ENGINE_VLLM, 0, GS_TABLES_DEVICE));
    assert_true(gs_engine_engram_tables_on_host(GS_ENGINE_VLLM, 2900, GS_TABLES_HOST));
    assert_true(gs_engine_engram_tables_on_host(GS_ENGINE_SGLANG, 0, GS_TABLES_HOST));
}

/* An estimate at TP 8 on 141 GB: vLLM keeps the tables in host memory (the assumption
 * engram_host_bytes gives a rank's shard, 264 x (24 x 2,000,033 + 24 x 2,000,087 + 1) =
 * 25,344,760,584), so its weights are that much below SGLang's, which holds them; naming
 * engram_tables moves them either way. */
static void test_deepseek_v41_engram_estimate(void **state)
{
    (void)state;
    const struct gs_arch a = fixture_arch_file(FLASH);
    const uint64_t shard = 264ULL * (24ULL * 2000033 + 24ULL * 2000087 + 1);
    struct gs_workload w = fixture_vllm_workload(1, 8192, 8, 141ULL * 1000 * 1000 * 1000);
    struct gs_estimate host = fixture_estimate(&a, &w);
    const struct gs_assumption *g = fixture_assumption(&host, "engram_host_bytes");
    assert_non_null(g);
    assert_int_equal(g->value, shard);
    assert_null(fixture_assumption(&host, "engram_device_bytes"));
    w.serving.engine.engram_tables = GS_TABLES_DEVICE;
    struct gs_estimate device = fixture_estimate(&a, &w);
    assert_non_null(fixture_assumption(&device, "engram_device_bytes"));
    assert_int_equal(device.per_gpu.weights_bytes - host.per_gpu.weights_bytes, shard);
    w.serving.engine.engram_tables = GS_TABLES_DEFAULT;
    w.serving.engine.engine = GS_ENGINE_SGLANG;
    struct gs_estimate sglang = fixture_estimate(&a, &w);
    assert_int_equal(sglang.per_gpu.weights_bytes, device.per_gpu.weights_bytes);
}

/* A training request is refused at /mode: nothing trains the class. */
static void test_deepseek_v41_no_training(void **state)
{
    (void)state;
    const struct gs_arch a = fixture_arch_file(FLASH);
    struct gs_model_spec m = fixture_spec(&a);
    struct gs_workload w = fixture_workload(GS_MODE_TRAINING);
    struct gs_estimate e;
    struct gs_error err;
    gs_error_init(&err);
    assert_int_equal(gs_estimate_compute(&m, &w, &e, &err), GS_ERR_UNSUPPORTED);
    assert_string_equal(err.items[0].pointer, "/mode");
}

static void test_deepseek_v41_reader_errors(void **state)
{
    (void)state;
    /* no text_config */
    fixture_assert_reader_error("{\"model_type\":\"deepseek_v41\",\"hidden_size\":64}",
                                "/text_config");
    /* a small model: layer 1 a KV source at ratio 1, an Engram table on layer 0 */
#define SMALL_V41(rows, sources)                                                                   \
    "{\"model_type\":\"deepseek_v41\",\"text_config\":{\"hidden_size\":256,"                       \
    "\"vocab_size\":1000,\"num_hidden_layers\":2,\"num_attention_heads\":8,\"head_dim\":64,"       \
    "\"q_lora_rank\":64,\"o_groups\":2,\"o_lora_rank\":32,\"index_n_heads\":4,"                    \
    "\"index_head_dim\":32,\"qk_rope_head_dim\":16,\"n_routed_experts\":4,"                        \
    "\"num_experts_per_tok\":2,\"moe_intermediate_size\":64,\"compress_ratios\":[0,1],"            \
    "\"kv_source_layer_ids\":" sources ",\"index_source_layer_ids\":[1],"                          \
    "\"engram_layer_ids\":[0],\"engram_num_embeddings\":[" rows "]}}"
    const struct gs_arch small = fixture_arch(SMALL_V41("48", "[1]"));
    assert_int_equal(small.num_hidden_layers, 2);
    /* a table past 24 x 16,777,216 rows; a KV source whose compress_ratios entry is 0 */
    fixture_assert_reader_error(SMALL_V41("1000000000", "[1]"),
                                "/text_config/engram_num_embeddings");
    fixture_assert_reader_error(SMALL_V41("48", "[0]"), "/text_config/kv_source_layer_ids");
#undef SMALL_V41
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_deepseek_v41_counts),
        cmocka_unit_test(test_deepseek_v41_stored_bytes),
        cmocka_unit_test(test_deepseek_v41_layers),
        cmocka_unit_test(test_deepseek_v41_cache),
        cmocka_unit_test(test_deepseek_v41_vllm_cache_dtype),
        cmocka_unit_test(test_deepseek_v41_vllm_buffers),
        cmocka_unit_test(test_deepseek_v41_sglang),
        cmocka_unit_test(test_deepseek_v41_throughput),
        cmocka_unit_test(test_deepseek_v41_engram_placement),
        cmocka_unit_test(test_deepseek_v41_engram_estimate),
        cmocka_unit_test(test_deepseek_v41_no_training),
        cmocka_unit_test(test_deepseek_v41_reader_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
