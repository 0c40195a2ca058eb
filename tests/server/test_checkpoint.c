/*
 * test_checkpoint.c - server/hub/checkpoint*.c on the fixture hub repositories
 * (tests/fixtures/hub/, whose README.md names each source): parameters and
 * stored bytes of real checkpoints read from their safetensors and GGUF
 * headers alone, the detected format, layers, and malformed headers.
 *
 * The fixtures are read from disk: a `X.safetensors.header.json` file is the
 * header text the virtual X.safetensors stores, fed as is to
 * checkpoint_add_safetensors; a `.gguf` fixture is the file's header bytes.
 * Every sharded repository is also checked against its index (each tensor in
 * the shard the weight_map names, total_size the bytes of all), and every
 * config.json against the headers (the config's parameter count, through
 * gpusizer's own readers, equals the count from the tensors).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "gs/arch.h"
#include "hub/checkpoint.h"
#include "hub/hub_ref.h"
#include "readers/models.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef GS_HUB_FIXTURES
#error "GS_HUB_FIXTURES must name tests/fixtures/hub"
#endif

/* ---- helpers ----------------------------------------------------------------------------- */

static char *slurp(const char *relative, size_t *length)
{
    char path[1024];
    snprintf(path, sizeof(path), "%s/%s", GS_HUB_FIXTURES, relative);
    FILE *f = fopen(path, "rb");
    if (!f)
        fail_msg("cannot open %s", path);
    fseek(f, 0, SEEK_END);
    const long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *data = malloc((size_t)n + 1);
    assert_non_null(data);
    assert_int_equal(fread(data, 1, (size_t)n, f), (size_t)n);
    data[n] = '\0';
    fclose(f);
    *length = (size_t)n;
    return data;
}

static void add_header(struct checkpoint_summary *s, const char *repo, const char *file)
{
    char relative[512];
    size_t n = 0;
    snprintf(relative, sizeof(relative), "%s/%s.header.json", repo, file);
    char *text = slurp(relative, &n);
    struct gs_error err;
    gs_error_init(&err);
    const enum gs_status st = checkpoint_add_safetensors(s, text, n, &err);
    if (st != GS_OK)
        fail_msg("%s: %s %s", relative, err.count ? err.items[0].pointer : "",
                 err.count ? err.items[0].detail : "");
    free(text);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Adds every shard model.safetensors.index.json names, and checks the index against them. */
static void add_indexed(struct checkpoint_summary *s, const char *repo)
{
    char relative[512];
    size_t n = 0;
    snprintf(relative, sizeof(relative), "%s/model.safetensors.index.json", repo);
    char *text = slurp(relative, &n);
    json_error_t jerr;
    json_t *index = json_loadb(text, n, 0, &jerr);
    assert_non_null(index);
    const json_t *map = json_object_get(index, "weight_map");
    assert_true(json_is_object(map));
    const char *shards[32];
    size_t count = 0;
    const char *key;
    const json_t *value;
    json_object_foreach((json_t *)(uintptr_t)map, key, value)
    {
        const char *file = json_string_value(value);
        size_t i = 0;
        while (i < count && strcmp(shards[i], file) != 0)
            i++;
        if (i == count) {
            assert_true(count < 32);
            shards[count++] = file;
        }
    }
    qsort(shards, count, sizeof(shards[0]), by_name);
    size_t tensors = 0;
    for (size_t i = 0; i < count; i++) {
        char header_path[512];
        size_t hn = 0;
        snprintf(header_path, sizeof(header_path), "%s/%s.header.json", repo, shards[i]);
        char *header_text = slurp(header_path, &hn);
        json_t *header = json_loadb(header_text, hn, 0, &jerr);
        assert_non_null(header);
        json_object_foreach(header, key, value)
        {
            if (strcmp(key, "__metadata__") == 0)
                continue;
            const char *file = json_string_value(json_object_get(map, key));
            if (!file || strcmp(file, shards[i]) != 0)
                fail_msg("%s: %s is in %s, the index says %s", repo, key, shards[i],
                         file ? file : "nothing");
            tensors++;
        }
        json_decref(header);
        free(header_text);
        add_header(s, repo, shards[i]);
    }
    assert_int_equal(tensors, json_object_size(map));
    assert_int_equal(s->files, count);
    const json_t *total = json_object_get(json_object_get(index, "metadata"), "total_size");
    assert_int_equal((uint64_t)json_integer_value(total), s->tensor_bytes);
    json_decref(index);
    free(text);
}

/* The parameters of the repository's config.json, through gpusizer's readers. */
static uint64_t config_parameters(const char *repo_or_text, bool is_text)
{
    json_error_t jerr;
    json_t *config = NULL;
    if (is_text) {
        config = json_loads(repo_or_text, 0, &jerr);
    } else {
        char relative[512];
        size_t n = 0;
        snprintf(relative, sizeof(relative), "%s/config.json", repo_or_text);
        char *text = slurp(relative, &n);
        config = json_loadb(text, n, 0, &jerr);
        free(text);
    }
    if (!config)
        fail_msg("%s: not JSON: %s", is_text ? "config" : repo_or_text, jerr.text);
    struct gs_arch arch;
    struct gs_param_count count;
    struct gs_error err;
    gs_error_init(&err);
    enum gs_status st = models_read(config, "", &arch, &err);
    if (st == GS_OK)
        st = gs_arch_count_params(&arch, &count, &err);
    json_decref(config);
    if (st != GS_OK)
        fail_msg("%s: %s %s", is_text ? repo_or_text : repo_or_text,
                 err.count ? err.items[0].pointer : "", err.count ? err.items[0].detail : "");
    return count.total;
}

static uint64_t sum_layers(const struct checkpoint_summary *s)
{
    uint64_t total = 0;
    for (uint64_t i = 0; i < CHECKPOINT_LAYERS_MAX; i++)
        total += s->layer_bytes[i];
    return total;
}

/* What every summary satisfies. */
static void check_invariants(const struct checkpoint_summary *s)
{
    assert_int_equal(s->matrix_bytes + s->vector_bytes, s->tensor_bytes);
    assert_int_equal(sum_layers(s) + s->other_bytes, s->tensor_bytes);
    uint64_t by_dtype = 0;
    for (int d = 0; d < CK_DTYPE_COUNT; d++)
        by_dtype += s->bytes_by_dtype[d];
    assert_int_equal(by_dtype, s->tensor_bytes);
    for (uint64_t i = s->layers; i < CHECKPOINT_LAYERS_MAX; i++)
        assert_int_equal(s->layer_bytes[i], 0);
}

/* ---- (a) meta-llama/Llama-3.1-8B-Instruct, bf16, 4 shards ------------------------------------ */

static void test_llama31_8b_bf16(void **state)
{
    (void)state;
    struct checkpoint_summary s;
    checkpoint_summary_init(&s);
    add_indexed(&s, "meta-llama/Llama-3.1-8B-Instruct");
    checkpoint_finish(&s);
    check_invariants(&s);
    /* Published exactly: index total_size 16,060,522,496 bytes, all bf16, / 2.
     * Arithmetic: embed 128256 x 4096 = 525,336,576, lm_head the same; per layer q 4096^2 =
     * 16,777,216, k and v 1024 x 4096 = 4,194,304 each, o 16,777,216, gate/up/down 14336 x 4096
     * = 58,720,256 each, 2 norms 4096 each: 218,112,000 per layer, x 32 = 6,979,584,000; final
     * norm 4096. 2 x 525,336,576 + 6,979,584,000 + 4,096 = 8,030,261,248. */
    assert_int_equal(s.parameters, 8030261248ULL);
    assert_int_equal(config_parameters("meta-llama/Llama-3.1-8B-Instruct", false), 8030261248ULL);
    /* bytes: 2 per parameter: 16,060,522,496 */
    assert_int_equal(s.tensor_bytes, 16060522496ULL);
    assert_int_equal(s.bytes_by_dtype[CK_BF16], 16060522496ULL);
    assert_int_equal(s.tensors, 291); /* 32 x 9 + embed, norm, lm_head */
    assert_int_equal(s.files, 4);
    assert_int_equal(s.quantization_bytes, 0);
    /* vectors: 65 norms x 4096 x 2 = 532,480 */
    assert_int_equal(s.vector_bytes, 532480);
    assert_int_equal(s.layers, 32);
    assert_int_equal(s.layer_bytes[0], 436224000ULL); /* 218,112,000 x 2 */
    assert_int_equal(s.layer_bytes[31], 436224000ULL);
    /* embed + lm_head 2 x 1,050,673,152 + final norm 8,192 */
    assert_int_equal(s.other_bytes, 2101354496ULL);
    assert_true(s.format_known);
    assert_int_equal(s.format, GS_WF_BF16);
    assert_int_equal(s.group_size, 0);
}

/* ---- (b) Qwen/Qwen3-30B-A3B-FP8, fp8 per 128x128 block, MoE -----------------------------------
 */

static void test_qwen3_moe_fp8_block(void **state)
{
    (void)state;
    struct checkpoint_summary s;
    checkpoint_summary_init(&s);
    add_indexed(&s, "Qwen/Qwen3-30B-A3B-FP8");
    checkpoint_finish(&s);
    check_invariants(&s);
    /* Arithmetic (the model card publishes "30.5B in total"): per layer attention q 4096 x 2048
     * = 8,388,608, k and v 512 x 2048 = 1,048,576 each, o 8,388,608, q/k norms 2 x 128; router
     * 128 x 2048 = 262,144; 128 experts x 3 x 768 x 2048 = 603,979,776; 2 norms 4,096:
     * 623,120,640 per layer, x 48 = 29,909,790,720; embed and lm_head 151936 x 2048 =
     * 311,164,928 each; final norm 2,048: 30,532,122,624. The weight_scale_inv tensors are not
     * parameters. */
    assert_int_equal(s.parameters, 30532122624ULL);
    assert_true(s.parameters >= 30450000000ULL && s.parameters < 30550000000ULL);
    assert_int_equal(config_parameters("Qwen/Qwen3-30B-A3B-FP8", false), 30532122624ULL);
    /* Bytes per layer: fp8 weights 18,874,368 (attention) + 603,979,776 (experts); bf16 block
     * scales q [32,16] 1,024, k and v [4,16] 128 each, o [16,32] 1,024, per expert gate and up
     * [6,16] and down [16,6] 192 each (576 x 128 = 73,728): 76,032; bf16 q/k norms 512, router
     * 524,288, norms 8,192. 623,463,168 x 48 = 29,926,232,064, + embed and lm_head 2 x
     * 622,329,856 + norm 4,096 = 31,170,895,872. */
    assert_int_equal(s.tensor_bytes, 31170895872ULL);
    assert_int_equal(s.quantization_bytes, 48ULL * 76032);
    assert_int_equal(s.bytes_by_dtype[CK_F8_E4M3], 48ULL * (18874368 + 603979776));
    assert_int_equal(s.layers, 48);
    assert_int_equal(s.layer_bytes[47], 623463168ULL);
    assert_int_equal(s.tensors, 37491); /* 48 x (8 + 3 + 768 + 2) + 3 */
    assert_true(s.format_known);
    assert_int_equal(s.format, GS_WF_FP8_BLOCK);
    assert_int_equal(s.group_size, 0);
}

/* ---- (c) TheBloke/Llama-2-7B-GPTQ, 4-bit, group 128, with g_idx ------------------------------ */

static void test_llama2_gptq(void **state)
{
    (void)state;
    struct checkpoint_summary s;
    checkpoint_summary_init(&s);
    s.pack_bits = 4; /* quantization_config.bits */
    add_header(&s, "TheBloke/Llama-2-7B-GPTQ", "model.safetensors");
    checkpoint_finish(&s);
    check_invariants(&s);
    /* Logical parameters, as Llama-2-7b-hf ("6.74B"): embed and lm_head 32000 x 4096 =
     * 131,072,000 each; per layer 4 x 4096^2 + 3 x 4096 x 11008 + 2 x 4096 = 202,383,360, x 32 =
     * 6,476,267,520; norm 4,096: 6,738,415,616. Each qweight int32 holds 8 of them. */
    assert_int_equal(s.parameters, 6738415616ULL);
    assert_int_equal(config_parameters("TheBloke/Llama-2-7B-GPTQ", false), 6738415616ULL);
    /* Bytes, per layer:
     *   q,k,v,o (in 4096, out 4096): qweight [512,4096] x 4 = 8,388,608, qzeros [32,512] x 4 =
     *     65,536, scales [32,4096] x 2 = 262,144, g_idx [4096] x 4 = 16,384: 8,732,672, x 4 =
     *     34,930,688
     *   gate, up (in 4096, out 11008): qweight [512,11008] 22,544,384, qzeros [32,1376]
     *     176,128, scales [32,11008] 704,512, g_idx 16,384: 23,441,408, x 2 = 46,882,816
     *   down (in 11008, out 4096): qweight [1376,4096] 22,544,384, qzeros [86,512] 176,128,
     *     scales [86,4096] 704,512, g_idx [11008] 44,032: 23,469,056
     *   2 fp16 norms 16,384
     * 105,298,944 per layer, x 32 = 3,369,566,208; fp16 embed and lm_head 2 x 262,144,000;
     * norm 8,192: 3,893,862,400. */
    assert_int_equal(s.tensor_bytes, 3893862400ULL);
    assert_int_equal(s.layer_bytes[7], 105298944ULL);
    /* qzeros, scales and g_idx: (4 x 344,064 + 2 x 896,896 + 924,672) x 32 */
    assert_int_equal(s.quantization_bytes, 32ULL * 4094976);
    assert_int_equal(s.bytes_by_dtype[CK_I32],
                     32ULL * (4 * (8388608 + 65536 + 16384) + 2 * (22544384 + 176128 + 16384) +
                              (22544384 + 176128 + 44032)));
    assert_int_equal(s.layers, 32);
    assert_true(s.format_known);
    assert_int_equal(s.format, GS_WF_GPTQ);
    assert_int_equal(s.group_size, 128);
}

/* ---- (d) openai/gpt-oss-20b, mxfp4 experts ----------------------------------------------------
 */

static void test_gpt_oss_mxfp4(void **state)
{
    (void)state;
    struct checkpoint_summary s;
    checkpoint_summary_init(&s);
    add_indexed(&s, "openai/gpt-oss-20b");
    checkpoint_finish(&s);
    check_invariants(&s);
    /* Published: card "21B parameters", paper 20.91B; arithmetic (tests/fixtures/configs/
     * gpt_oss/README.md): 24 layers x 823,186,976 + embed and lm_head 2 x 579,133,440 + norm
     * 2,880 = 20,914,757,184. The *_blocks U8 tensors hold two 4-bit values per byte. */
    assert_int_equal(s.parameters, 20914757184ULL);
    assert_true(s.parameters >= 20905000000ULL && s.parameters < 20915000000ULL);
    assert_int_equal(config_parameters("openai/gpt-oss-20b", false), 20914757184ULL);
    /* Published exactly: the index's total_size, 13,761,264,768 (checked in add_indexed too). */
    assert_int_equal(s.tensor_bytes, 13761264768ULL);
    /* e8m0 scales: gate_up [32,5760,90] 16,588,800 + down [32,2880,90] 8,294,400 per layer */
    assert_int_equal(s.quantization_bytes, 24ULL * (16588800 + 8294400));
    assert_int_equal(s.bytes_by_dtype[CK_U8], 24ULL * (265420800 + 16588800 + 132710400 + 8294400));
    assert_int_equal(s.layers, 24);
    assert_int_equal(s.layer_bytes[0], 476863552ULL);
    assert_true(s.format_known);
    assert_int_equal(s.format, GS_WF_MXFP4);
    assert_int_equal(s.group_size, 32);
}

/* ---- (e) google/gemma-3-4b-it, language model + vision tower --------------------------------- */

static void test_gemma3_multimodal(void **state)
{
    (void)state;
    struct checkpoint_summary s;
    checkpoint_summary_init(&s);
    add_indexed(&s, "google/gemma-3-4b-it");
    checkpoint_finish(&s);
    check_invariants(&s);
    /* Published "4.3B"; arithmetic (tests/fixtures/configs/gemma3/README.md): text
     * 3,880,263,168 + vision 416,866,032 + projector 2,950,272 = 4,300,079,472. */
    assert_int_equal(s.parameters, 4300079472ULL);
    assert_int_equal(config_parameters("google/gemma-3-4b-it", false), 4300079472ULL);
    assert_int_equal(s.tensor_bytes, 8600158944ULL);
    /* decoder layers: the 34 of the language model; the 27 vision encoder layers count as
     * other bytes: vision 2 x 416,866,032 + projector 2 x 2,950,272 + embed 2 x 671,252,480 +
     * final norm 5,120 */
    assert_int_equal(s.layers, 34);
    assert_int_equal(s.layer_bytes[33], 2ULL * 94382592);
    assert_int_equal(s.other_bytes, 2ULL * (416866032 + 2950272 + 671252480 + 2560));
    assert_true(s.format_known);
    assert_int_equal(s.format, GS_WF_BF16);
}

/* ---- (f) bartowski/Llama-3.2-1B-Instruct-GGUF, Q4_K_M -----------------------------------------
 */

#define GGUF_FIXTURE "bartowski/Llama-3.2-1B-Instruct-GGUF/Llama-3.2-1B-Instruct-Q4_K_M.gguf"

static void test_gguf_q4_k_m(void **state)
{
    (void)state;
    size_t n = 0, needed = 99;
    uint8_t *bytes = (uint8_t *)slurp(GGUF_FIXTURE, &n);
    struct checkpoint_summary s;
    checkpoint_summary_init(&s);
    char config[2048];
    struct gs_error err;
    gs_error_init(&err);
    assert_int_equal(checkpoint_add_gguf(&s, bytes, n, &needed, config, sizeof(config), &err),
                     GS_OK);
    assert_int_equal(needed, 0);
    checkpoint_finish(&s);
    check_invariants(&s);
    /* Published: Llama-3.2-1B's safetensors, 2,471,628,800 bf16 bytes / 2 ("1.24B"):
     * embed 128256 x 2048 = 262,668,288 (tied); per layer q 2048^2 + k, v 512 x 2048 + o 2048^2
     * + 3 x 2048 x 8192 + 2 x 2048 = 60,821,504, x 16 = 973,144,064; norm 2,048. rope_freqs
     * (32 floats) is not a parameter. */
    assert_int_equal(s.parameters, 1235814400ULL);
    assert_int_equal(config_parameters(config, true), 1235814400ULL);
    /* Bytes (ggml type traits): token_embd Q6_K 262,668,288 / 256 x 210 = 215,470,080; per
     * layer attn_q and attn_output Q4_K 4,194,304 / 256 x 144 = 2,359,296 each, attn_k 589,824,
     * ffn_gate and ffn_up 9,437,184 each, attn_v and ffn_down Q4_K (589,824; 9,437,184) or
     * Q6_K in the 8 use_more_bits layers (860,160; 13,762,560), 2 F32 norms 16,384:
     * 16 x 34,226,176 + 8 x (270,336 + 4,325,376) = 584,384,512; output_norm 8,192, rope_freqs
     * 128: 799,862,912 (the published file, ~808 MB, adds its ~8 MB tokenizer header). */
    assert_int_equal(s.tensor_bytes, 799862912ULL);
    assert_int_equal(s.bytes_by_dtype[CK_GGUF_Q6_K], 215470080ULL + 8ULL * (860160 + 13762560));
    assert_int_equal(s.bytes_by_dtype[CK_F32], 33ULL * 8192 + 128);
    assert_int_equal(s.tensors, 147);
    assert_int_equal(s.layers, 16);
    assert_string_equal(s.gguf_file_type, "Q4_K_M");
    assert_string_equal(s.gguf_architecture, "llama");
    assert_true(s.format_known);
    assert_int_equal(s.format, GS_WF_GGUF_Q4_K_M);
    /* the config from the metadata */
    json_error_t jerr;
    json_t *c = json_loads(config, 0, &jerr);
    assert_non_null(c);
    assert_string_equal(json_string_value(json_object_get(c, "model_type")), "llama");
    assert_int_equal(json_integer_value(json_object_get(c, "hidden_size")), 2048);
    assert_int_equal(json_integer_value(json_object_get(c, "num_hidden_layers")), 16);
    assert_int_equal(json_integer_value(json_object_get(c, "intermediate_size")), 8192);
    assert_int_equal(json_integer_value(json_object_get(c, "num_attention_heads")), 32);
    assert_int_equal(json_integer_value(json_object_get(c, "num_key_value_heads")), 8);
    assert_int_equal(json_integer_value(json_object_get(c, "head_dim")), 64);
    assert_int_equal(json_integer_value(json_object_get(c, "max_position_embeddings")), 131072);
    assert_int_equal(json_integer_value(json_object_get(c, "vocab_size")), 128256);
    assert_true(json_number_value(json_object_get(c, "rms_norm_eps")) == 1e-05);
    assert_true(json_number_value(json_object_get(c, "rope_theta")) == 500000.0);
    assert_true(json_is_true(json_object_get(c, "tie_word_embeddings")));
    assert_string_equal(json_string_value(json_object_get(c, "torch_dtype")), "bfloat16");
    json_decref(c);
    free(bytes);
}

/* A truncated GGUF asks for more, never reads past what it has, and leaves the summary alone
 * until the whole header is there; the caller's loop ends with the full file's summary. */
static void test_gguf_truncated(void **state)
{
    (void)state;
    size_t n = 0;
    uint8_t *full = (uint8_t *)slurp(GGUF_FIXTURE, &n);
    size_t have = 64, rounds = 0, needed = 0;
    struct checkpoint_summary s;
    struct gs_error err;
    for (;;) {
        /* a copy of exactly `have` bytes, so ASan catches any read past it */
        uint8_t *part = malloc(have);
        assert_non_null(part);
        memcpy(part, full, have);
        checkpoint_summary_init(&s);
        gs_error_init(&err);
        assert_int_equal(checkpoint_add_gguf(&s, part, have, &needed, NULL, 0, &err), GS_OK);
        free(part);
        rounds++;
        if (needed == 0)
            break;
        assert_true(needed > have);
        assert_int_equal(s.tensors, 0);
        assert_int_equal(s.files, 0);
        have = needed < n ? needed : n;
    }
    assert_true(rounds > 2);
    assert_int_equal(s.tensor_bytes, 799862912ULL);
    assert_int_equal(s.parameters, 1235814400ULL);
    /* a header cut inside the tensor infos asks for at least twice as much */
    checkpoint_summary_init(&s);
    assert_int_equal(checkpoint_add_gguf(&s, full, n - 100, &needed, NULL, 0, &err), GS_OK);
    assert_true(needed >= 2 * (n - 100));
    free(full);
}

/* ---- (g) zai-org/GLM-4.7-Flash, bf16, its MTP layer stored as model.layers.47 ---------------
 * (the fixture README's hand count: tests/fixtures/configs/glm4_moe_lite/README.md) */

static void test_glm47_flash_mtp_layer(void **state)
{
    (void)state;
    struct checkpoint_summary s;
    checkpoint_summary_init(&s);
    add_indexed(&s, "zai-org/GLM-4.7-Flash");
    checkpoint_finish(&s);
    check_invariants(&s);
    /* the report's inventory: 9,703 tensors, 31,221,488,576 elements; bf16 but the 47 routers'
     * 64 fp32 e_score_correction_bias values: 2 x 31,221,485,568 + 4 x 3,008 bytes */
    assert_int_equal(s.tensors, 9703);
    assert_int_equal(s.parameters, 31221488576ULL);
    assert_int_equal(s.tensor_bytes, 62442983168ULL);
    assert_int_equal(s.bytes_by_dtype[CK_F32], 47 * 64 * 4);
    assert_true(s.format_known);
    assert_int_equal(s.format, GS_WF_BF16);
    /* the MTP layer is numbered: 48 layers, the last the MoE layer (635,311,360 values and the
     * bias's 64) with eh_proj 2,048 x 4,096, three norms and its own embed_tokens and
     * shared_head.head (2 x 154,880 x 2,048): 1,278,094,656 values, 2,556,189,440 bytes; no
     * name says MTP here */
    assert_int_equal(s.layers, 48);
    assert_int_equal(s.layer_bytes[1], 2 * 635311360ULL + 4 * 64); /* the bias a buffer */
    assert_int_equal(s.layer_bytes[47], 2556189440ULL);
    assert_int_equal(s.mtp_bytes, 0);
    /* what transformers builds leaves layer 47 out (_keys_to_ignore_on_load_unexpected) */
    assert_int_equal(config_parameters("zai-org/GLM-4.7-Flash", false), 29943390976ULL);
}

/* What an import stored, for the core: the layers from num_hidden_layers on, as many as the
 * config's MTP layers, join the MTP tensors found by name. Hand-written rows: 4 layers of 100
 * bytes and a fifth of 70, 30 bytes named mtp, 200 outside the layers. */
static void test_stored_mtp_bytes(void **state)
{
    (void)state;
    const char *row = "{\"format\": \"bf16\", \"parameters\": 335, \"tensor_bytes\": 670, "
                      "\"matrix_bytes\": 600, \"vector_bytes\": 70, \"layer_bytes\": [100, 100, "
                      "100, 100, 70], \"other_bytes\": 200, \"mtp_bytes\": 30}";
    struct gs_checkpoint_bytes ck;
    /* an architecture gpusizer cannot read: the named ones only */
    assert_true(hub_ref_checkpoint_bytes(row, 0, 0, &ck));
    assert_int_equal(ck.tensor_bytes, 670);
    assert_int_equal(ck.layer_bytes, 470);
    assert_int_equal(ck.layers, 5);
    assert_int_equal(ck.mtp_bytes, 30);
    /* 4 decoder layers and one MTP layer: layer 4 is it */
    assert_true(hub_ref_checkpoint_bytes(row, 4, 1, &ck));
    assert_int_equal(ck.mtp_bytes, 100);
    /* 5 decoder layers: nothing past them */
    assert_true(hub_ref_checkpoint_bytes(row, 5, 1, &ck));
    assert_int_equal(ck.mtp_bytes, 30);
    /* 3 decoder layers and one MTP layer: layer 3 only, not layer 4 */
    assert_true(hub_ref_checkpoint_bytes(row, 3, 1, &ck));
    assert_int_equal(ck.mtp_bytes, 130);
    /* a row from before the field: none by name */
    assert_true(hub_ref_checkpoint_bytes("{\"format\": \"bf16\", \"tensor_bytes\": 10, "
                                         "\"layer_bytes\": [4, 4, 2]}",
                                         2, 1, &ck));
    assert_int_equal(ck.mtp_bytes, 2);
    /* nor are layers whose sum passes 64 bits (it would wrap to 5) */
    assert_true(hub_ref_checkpoint_bytes("{\"format\": \"bf16\", \"tensor_bytes\": 10, "
                                         "\"layer_bytes\": [1, 9223372036854775807, "
                                         "9223372036854775807, 7]}",
                                         1, 3, &ck));
    assert_int_equal(ck.mtp_bytes, 0);
    /* a row whose MTP bytes are not below its total is not believed */
    assert_true(hub_ref_checkpoint_bytes("{\"format\": \"bf16\", \"tensor_bytes\": 10, "
                                         "\"mtp_bytes\": 10}",
                                         0, 0, &ck));
    assert_int_equal(ck.mtp_bytes, 0);
}

/* ---- (h) malformed headers ------------------------------------------------------------------- */

static void test_bad_header_fixture(void **state)
{
    (void)state;
    size_t n = 0;
    char *text = slurp("broken/bad-header/model.safetensors.header.json", &n);
    struct checkpoint_summary s;
    checkpoint_summary_init(&s);
    struct gs_error err;
    gs_error_init(&err);
    assert_int_equal(checkpoint_add_safetensors(&s, text, n, &err), GS_ERR_INVALID);
    assert_int_equal(err.count, 1);
    assert_string_equal(err.items[0].pointer, "/model.layers.0.self_attn.q_proj.weight");
    assert_non_null(strstr(err.items[0].detail, "hold 4096 bytes"));
    assert_non_null(strstr(err.items[0].detail, "BF16 [64, 64] takes 8192"));
    /* nothing was added */
    assert_int_equal(s.tensors, 0);
    assert_int_equal(s.files, 0);
    free(text);
}

struct bad_case {
    const char *json;
    enum gs_status status;
    const char *pointer;
    const char *detail; /* a part of the sentence */
};

static void test_malformed_safetensors(void **state)
{
    (void)state;
    static const struct bad_case cases[] = {
        {"{\"w\":{\"dtype\":\"F4\",\"shape\":[2],\"data_offsets\":[0,1]}}", GS_ERR_INVALID, "/w",
         "unknown dtype \"F4\""},
        {"{\"a/b~c\":{\"dtype\":\"BF16\",\"shape\":[2],\"data_offsets\":[0,3]}}", GS_ERR_INVALID,
         "/a~1b~0c", "hold 3 bytes"},
        {"{\"w\":{\"dtype\":\"F32\",\"shape\":[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1],"
         "\"data_offsets\":[0,4]}}",
         GS_ERR_INVALID, "/w", "17 dimensions"},
        {"{\"w\":{\"dtype\":\"F32\",\"shape\":[-1],\"data_offsets\":[0,4]}}", GS_ERR_INVALID, "/w",
         "shape[0]"},
        {"{\"w\":{\"dtype\":\"F32\",\"shape\":[1125899906842624],\"data_offsets\":[0,4]}}",
         GS_ERR_INVALID, "/w", "2^48"},
        {"{\"w\":{\"dtype\":\"U8\",\"shape\":[281474976710656,281474976710656],"
         "\"data_offsets\":[0,4]}}",
         GS_ERR_INVALID, "/w", "overflows"},
        {"{\"w\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[8,0]}}", GS_ERR_INVALID, "/w",
         "end before"},
        {"{\"w\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0]}}", GS_ERR_INVALID, "/w",
         "two non-negative"},
        {"{\"w\":{\"dtype\":\"F32\",\"shape\":2,\"data_offsets\":[0,8]}}", GS_ERR_INVALID, "/w",
         "shape must be"},
        {"{\"w\":[1]}", GS_ERR_INVALID, "/w", "must be an object"},
        /* a gap, then an overlap */
        {"{\"a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]},"
         "\"b\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[16,24]}}",
         GS_ERR_INVALID, "/b", "leave a gap"},
        {"{\"a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]},"
         "\"b\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[4,8]}}",
         GS_ERR_INVALID, "/b", "overlap"},
        {"{\"a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[8,16]}}", GS_ERR_INVALID, "/a",
         "ends at 0"},
        {"[1,2]", GS_ERR_INVALID, "", "must be a JSON object"},
        {"{\"w\":", GS_ERR_INVALID, "", "not valid JSON"},
        {"{\"w\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,4]},"
         "\"w\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[4,8]}}",
         GS_ERR_INVALID, "", "duplicate"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct checkpoint_summary s;
        checkpoint_summary_init(&s);
        struct gs_error err;
        gs_error_init(&err);
        const enum gs_status st =
            checkpoint_add_safetensors(&s, cases[i].json, strlen(cases[i].json), &err);
        if (st != cases[i].status || err.count != 1 ||
            strcmp(err.items[0].pointer, cases[i].pointer) != 0 ||
            !strstr(err.items[0].detail, cases[i].detail))
            fail_msg("case %zu: status %d, %s %s", i, (int)st,
                     err.count ? err.items[0].pointer : "", err.count ? err.items[0].detail : "");
        assert_int_equal(s.tensors, 0);
    }
    /* a valid header with an empty tensor, a scalar and metadata */
    const char *ok = "{\"__metadata__\":{\"format\":\"pt\"},"
                     "\"e\":{\"dtype\":\"F32\",\"shape\":[0,4],\"data_offsets\":[0,0]},"
                     "\"s\":{\"dtype\":\"F64\",\"shape\":[],\"data_offsets\":[0,8]}}   ";
    struct checkpoint_summary s;
    checkpoint_summary_init(&s);
    assert_int_equal(checkpoint_add_safetensors(&s, ok, strlen(ok), NULL), GS_OK);
    assert_int_equal(s.tensors, 2);
    assert_int_equal(s.tensor_bytes, 8);
    assert_int_equal(s.parameters, 1);
    assert_int_equal(s.vector_bytes, 8);
}

static void test_header_length(void **state)
{
    (void)state;
    uint64_t length = 0;
    struct gs_error err;
    gs_error_init(&err);
    const uint8_t ok[8] = {0x10, 0x27, 0, 0, 0, 0, 0, 0}; /* 10,000 */
    const uint8_t huge[8] = {0, 0, 0, 0, 0, 0x01, 0, 0};  /* 2^40 */
    const uint8_t zero[8] = {0};
    const uint8_t all[8] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
    assert_int_equal(checkpoint_safetensors_length(ok, 64u << 20, &length, &err), GS_OK);
    assert_int_equal(length, 10000);
    assert_int_equal(checkpoint_safetensors_length(huge, 64u << 20, &length, &err),
                     GS_ERR_TOO_LARGE);
    assert_int_equal(checkpoint_safetensors_length(all, 64u << 20, &length, &err),
                     GS_ERR_TOO_LARGE);
    assert_int_equal(checkpoint_safetensors_length(zero, 64u << 20, &length, &err), GS_ERR_INVALID);
    assert_int_equal(length, 10000);
    assert_int_equal(err.count, 3);
}

/* ---- synthetic GGUF files -------------------------------------------------------------------- */

struct bytes {
    uint8_t data[4096];
    size_t len;
};

static void put(struct bytes *b, const void *p, size_t n)
{
    assert_true(b->len + n <= sizeof(b->data));
    memcpy(b->data + b->len, p, n);
    b->len += n;
}

static void put_u32(struct bytes *b, uint32_t v)
{
    const uint8_t x[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    put(b, x, 4);
}

static void put_u64(struct bytes *b, uint64_t v)
{
    put_u32(b, (uint32_t)v);
    put_u32(b, (uint32_t)(v >> 32));
}

static void put_str(struct bytes *b, const char *s)
{
    put_u64(b, strlen(s));
    put(b, s, strlen(s));
}

static void kv_str(struct bytes *b, const char *key, const char *value)
{
    put_str(b, key);
    put_u32(b, 8);
    put_str(b, value);
}

static void kv_u32(struct bytes *b, const char *key, uint32_t value)
{
    put_str(b, key);
    put_u32(b, 4);
    put_u32(b, value);
}

static void tensor_info(struct bytes *b, const char *name, uint64_t d0, uint64_t d1, uint32_t type,
                        uint64_t offset)
{
    put_str(b, name);
    put_u32(b, d1 ? 2 : 1);
    put_u64(b, d0);
    if (d1)
        put_u64(b, d1);
    put_u32(b, type);
    put_u64(b, offset);
}

/* A two-tensor qwen2 GGUF of file type `ftype`, its matrix of ggml type `type`. */
static void tiny_gguf(struct bytes *b, uint32_t version, uint32_t ftype, uint32_t type,
                      uint64_t second_offset)
{
    memset(b, 0, sizeof(*b));
    put(b, "GGUF", 4);
    put_u32(b, version);
    put_u64(b, 2);
    put_u64(b, 5);
    kv_str(b, "general.architecture", "qwen2");
    kv_u32(b, "general.file_type", ftype);
    kv_u32(b, "qwen2.embedding_length", 256);
    kv_u32(b, "qwen2.block_count", 1);
    /* a nested array: arrays of arrays of u8 */
    put_str(b, "x.nested");
    put_u32(b, 9);
    put_u32(b, 9);
    put_u64(b, 2);
    for (int i = 0; i < 2; i++) {
        put_u32(b, 0);
        put_u64(b, 3);
        put(b, "abc", 3);
    }
    tensor_info(b, "blk.0.attn_q.weight", 256, 256, type, 0);
    tensor_info(b, "output.weight", 256, 0, 0, second_offset);
}

static void test_gguf_malformed(void **state)
{
    (void)state;
    struct bytes b;
    struct checkpoint_summary s;
    struct gs_error err;
    size_t needed = 0;
    char config[512];

    /* Q8_0: 65,536 values / 32 x 34 = 69,632 bytes; the F32 vector follows at 69,632 */
    tiny_gguf(&b, 3, 7, 8, 69632);
    checkpoint_summary_init(&s);
    gs_error_init(&err);
    assert_int_equal(checkpoint_add_gguf(&s, b.data, b.len, &needed, config, sizeof(config), &err),
                     GS_OK);
    assert_int_equal(needed, 0);
    checkpoint_finish(&s);
    assert_int_equal(s.tensor_bytes, 69632 + 1024);
    assert_int_equal(s.parameters, 65536 + 256);
    assert_int_equal(s.layer_bytes[0], 69632);
    assert_int_equal(s.layers, 1);
    assert_string_equal(s.gguf_file_type, "Q8_0");
    assert_int_equal(s.format, GS_WF_GGUF_Q8_0);
    assert_true(s.format_known);
    assert_non_null(strstr(config, "\"model_type\":\"qwen2\""));
    assert_non_null(strstr(config, "\"tie_word_embeddings\":false"));
    assert_null(strstr(config, "\"vocab_size\"")); /* no tokens, no vocab_size key, no token_embd */

    /* a file type without a GS_WF_GGUF_* format: named, format unknown */
    tiny_gguf(&b, 2, 26, 21, 256 * 256 / 256 * 110);
    checkpoint_summary_init(&s);
    assert_int_equal(checkpoint_add_gguf(&s, b.data, b.len, &needed, NULL, 0, &err), GS_OK);
    checkpoint_finish(&s);
    assert_string_equal(s.gguf_file_type, "IQ3_S");
    assert_false(s.format_known);
    assert_int_equal(s.bytes_by_dtype[CK_GGUF_IQ], 256 * 110);

    /* an offset that does not follow the previous tensor */
    tiny_gguf(&b, 3, 7, 8, 4096);
    checkpoint_summary_init(&s);
    gs_error_init(&err);
    assert_int_equal(checkpoint_add_gguf(&s, b.data, b.len, &needed, NULL, 0, &err),
                     GS_ERR_INVALID);
    assert_string_equal(err.items[0].pointer, "/output.weight");
    assert_int_equal(s.tensors, 0);

    /* an unknown ggml type */
    tiny_gguf(&b, 3, 7, 31, 0);
    gs_error_init(&err);
    assert_int_equal(checkpoint_add_gguf(&s, b.data, b.len, &needed, NULL, 0, &err),
                     GS_ERR_INVALID);
    assert_string_equal(err.items[0].pointer, "/blk.0.attn_q.weight");
    tiny_gguf(&b, 3, 7, 77, 0);
    gs_error_init(&err);
    assert_int_equal(checkpoint_add_gguf(&s, b.data, b.len, &needed, NULL, 0, &err),
                     GS_ERR_UNSUPPORTED);

    /* version 1, big-endian, bad magic */
    tiny_gguf(&b, 1, 7, 8, 69632);
    assert_int_equal(checkpoint_add_gguf(&s, b.data, b.len, &needed, NULL, 0, &err),
                     GS_ERR_UNSUPPORTED);
    tiny_gguf(&b, 0x03000000, 7, 8, 69632);
    assert_int_equal(checkpoint_add_gguf(&s, b.data, b.len, &needed, NULL, 0, &err),
                     GS_ERR_UNSUPPORTED);
    tiny_gguf(&b, 3, 7, 8, 69632);
    b.data[0] = 'X';
    assert_int_equal(checkpoint_add_gguf(&s, b.data, b.len, &needed, NULL, 0, &err),
                     GS_ERR_INVALID);

    /* truncated anywhere: GS_OK and a larger length asked */
    tiny_gguf(&b, 3, 7, 8, 69632);
    for (size_t cut = 0; cut < b.len; cut++) {
        uint8_t *part = malloc(cut ? cut : 1);
        assert_non_null(part);
        memcpy(part, b.data, cut);
        checkpoint_summary_init(&s);
        gs_error_init(&err);
        assert_int_equal(checkpoint_add_gguf(&s, part, cut, &needed, NULL, 0, &err), GS_OK);
        assert_true(needed > cut);
        assert_int_equal(s.tensors, 0);
        free(part);
    }

    /* a first dimension that is not a multiple of the block */
    memset(&b, 0, sizeof(b));
    put(&b, "GGUF", 4);
    put_u32(&b, 3);
    put_u64(&b, 1);
    put_u64(&b, 0);
    tensor_info(&b, "w", 100, 2, 12, 0);
    gs_error_init(&err);
    assert_int_equal(checkpoint_add_gguf(&s, b.data, b.len, &needed, NULL, 0, &err),
                     GS_ERR_INVALID);
    assert_non_null(strstr(err.items[0].detail, "multiple of the 256-element block"));
}

/* ---- synthetic safetensors headers: format detection ------------------------------------------
 */

struct header {
    json_t *root;
    uint64_t offset;
};

static void tensor(struct header *h, const char *name, const char *dtype, unsigned size,
                   const uint64_t *dims, size_t n)
{
    json_t *shape = json_array();
    uint64_t count = 1;
    for (size_t i = 0; i < n; i++) {
        json_array_append_new(shape, json_integer((json_int_t)dims[i]));
        count *= dims[i];
    }
    json_t *offsets =
        json_pack("[II]", (json_int_t)h->offset, (json_int_t)(h->offset + count * size));
    h->offset += count * size;
    json_object_set_new(
        h->root, name,
        json_pack("{s:s,s:o,s:o}", "dtype", dtype, "shape", shape, "data_offsets", offsets));
}

#define T(h, name, dtype, size, ...)                                                               \
    tensor(h, name, dtype, size, (const uint64_t[]){__VA_ARGS__},                                  \
           sizeof((const uint64_t[]){__VA_ARGS__}) / sizeof(uint64_t))

static struct checkpoint_summary finish_header(struct header *h, unsigned pack_bits)
{
    struct checkpoint_summary s;
    checkpoint_summary_init(&s);
    s.pack_bits = pack_bits;
    char *text = json_dumps(h->root, JSON_COMPACT);
    struct gs_error err;
    gs_error_init(&err);
    if (checkpoint_add_safetensors(&s, text, strlen(text), &err) != GS_OK)
        fail_msg("%s %s", err.items[0].pointer, err.items[0].detail);
    free(text);
    json_decref(h->root);
    checkpoint_finish(&s);
    check_invariants(&s);
    return s;
}

static void test_formats_synthetic(void **state)
{
    (void)state;
    struct header h;
    struct checkpoint_summary s;

    /* AWQ (AutoAWQ GEMM): qweight [in, out/8], qzeros [in/g, out/8], scales [in/g, out] */
    h = (struct header){json_object(), 0};
    T(&h, "model.layers.0.mlp.down_proj.qweight", "I32", 4, 1024, 512);
    T(&h, "model.layers.0.mlp.down_proj.qzeros", "I32", 4, 16, 512);
    T(&h, "model.layers.0.mlp.down_proj.scales", "F16", 2, 16, 4096);
    s = finish_header(&h, 0);
    assert_int_equal(s.format, GS_WF_AWQ);
    assert_int_equal(s.group_size, 64);
    assert_int_equal(s.parameters, 1024ULL * 4096);
    assert_int_equal(s.quantization_bytes, 16 * 512 * 4 + 16 * 4096 * 2);

    /* GPTQ 8-bit without g_idx, told by the layout [in*8/32, out] */
    h = (struct header){json_object(), 0};
    T(&h, "layers.0.q.qweight", "I32", 4, 256, 1024);
    T(&h, "layers.0.q.qzeros", "I32", 4, 8, 256);
    T(&h, "layers.0.q.scales", "F16", 2, 8, 1024);
    s = finish_header(&h, 8);
    assert_int_equal(s.format, GS_WF_GPTQ);
    assert_int_equal(s.group_size, 128);
    assert_int_equal(s.parameters, 1024ULL * 1024);

    /* fp8 per tensor and per channel (weight_scale), with activation and KV scales */
    h = (struct header){json_object(), 0};
    T(&h, "model.layers.0.self_attn.q_proj.weight", "F8_E4M3", 1, 256, 128);
    T(&h, "model.layers.0.self_attn.q_proj.weight_scale", "F32", 4, 1);
    T(&h, "model.layers.0.self_attn.q_proj.input_scale", "F32", 4, 1);
    T(&h, "model.layers.0.self_attn.k_scale", "F32", 4, 1);
    s = finish_header(&h, 0);
    assert_int_equal(s.format, GS_WF_FP8);
    assert_int_equal(s.parameters, 256 * 128);
    assert_int_equal(s.quantization_bytes, 12);
    h = (struct header){json_object(), 0};
    T(&h, "model.layers.0.mlp.up_proj.weight", "F8_E4M3", 1, 256, 128);
    T(&h, "model.layers.0.mlp.up_proj.weight_scale", "F32", 4, 256, 1);
    s = finish_header(&h, 0);
    assert_int_equal(s.format, GS_WF_FP8_PER_CHANNEL);

    /* fp8 scales that are neither per tensor, per row nor 128x128 blocks: format unknown */
    h = (struct header){json_object(), 0};
    T(&h, "x.weight", "F8_E4M3", 1, 256, 256);
    T(&h, "x.weight_scale_inv", "F32", 4, 4, 4);
    s = finish_header(&h, 0);
    assert_false(s.format_known);

    /* bitsandbytes nf4 with double quantization */
    h = (struct header){json_object(), 0};
    T(&h, "model.layers.0.mlp.up_proj.weight", "U8", 1, 8192, 1);
    T(&h, "model.layers.0.mlp.up_proj.weight.absmax", "U8", 1, 256);
    T(&h, "model.layers.0.mlp.up_proj.weight.quant_map", "F32", 4, 16);
    T(&h, "model.layers.0.mlp.up_proj.weight.nested_absmax", "F32", 4, 1);
    T(&h, "model.layers.0.mlp.up_proj.weight.nested_quant_map", "F32", 4, 256);
    T(&h, "model.layers.0.mlp.up_proj.weight.quant_state.bitsandbytes__nf4", "U8", 1, 96);
    s = finish_header(&h, 0);
    assert_int_equal(s.format, GS_WF_NF4_DQ);
    assert_int_equal(s.parameters, 16384);
    assert_int_equal(s.quantization_bytes, 256 + 64 + 4 + 1024 + 96);

    /* bitsandbytes nf4 without nesting, and LLM.int8 */
    h = (struct header){json_object(), 0};
    T(&h, "a.weight", "U8", 1, 64, 1);
    T(&h, "a.weight.quant_state.bitsandbytes__fp4", "U8", 1, 8);
    s = finish_header(&h, 0);
    assert_int_equal(s.format, GS_WF_NF4);
    assert_int_equal(s.parameters, 128);
    h = (struct header){json_object(), 0};
    T(&h, "a.weight", "I8", 1, 64, 32);
    T(&h, "a.SCB", "F32", 4, 64);
    T(&h, "a.weight_format", "U8", 1);
    s = finish_header(&h, 0);
    assert_int_equal(s.format, GS_WF_INT8);
    assert_int_equal(s.parameters, 64 * 32);
    assert_int_equal(s.quantization_bytes, 257);

    /* plain floats: the dtype of most matrix bytes (fp32 norms do not decide) */
    h = (struct header){json_object(), 0};
    T(&h, "transformer.h.0.attn.c_attn.weight", "F16", 2, 64, 192);
    T(&h, "transformer.h.0.ln_1.weight", "F32", 4, 4096);
    T(&h, "transformer.h.11.ln_1.weight", "F32", 4, 64);
    T(&h, "transformer.h.0.attn.rotary_emb.inv_freq", "F32", 4, 16);
    s = finish_header(&h, 0);
    assert_int_equal(s.format, GS_WF_FP16);
    assert_int_equal(s.layers, 12);
    assert_int_equal(s.parameters, 64 * 192 + 4096 + 64); /* inv_freq is a buffer */
    h = (struct header){json_object(), 0};
    T(&h, "w", "F32", 4, 8, 8);
    T(&h, "visual.blocks.3.w", "BF16", 2, 8, 8);
    s = finish_header(&h, 0);
    assert_int_equal(s.format, GS_WF_FP32);
    assert_int_equal(s.layers, 0);
    assert_int_equal(s.other_bytes, 256 + 128);

    /* nothing but vectors: no format */
    h = (struct header){json_object(), 0};
    T(&h, "n", "BF16", 2, 8);
    s = finish_header(&h, 0);
    assert_false(s.format_known);
}

/* MTP layers by name (checkpoint_summary.mtp_bytes): Qwen3.5's "mtp.layers.0." and "mtp.fc",
 * MiMo's "model.mtp_layers.0.", MiniMax-M3's "model.mtp.layers.0." - out of the numbered
 * layers, in other_bytes and mtp_bytes; a component that only contains "mtp" is not one. */
static void test_mtp_by_name(void **state)
{
    (void)state;
    struct header h = {json_object(), 0};
    T(&h, "model.layers.0.self_attn.q_proj.weight", "BF16", 2, 64, 64);
    T(&h, "mtp.layers.0.self_attn.q_proj.weight", "BF16", 2, 64, 64);
    T(&h, "mtp.fc.weight", "BF16", 2, 64, 128);
    T(&h, "model.mtp_layers.0.input_proj.weight", "BF16", 2, 64, 128);
    T(&h, "model.mtp.layers.0.mlp.down_proj.weight", "BF16", 2, 64, 32);
    T(&h, "model.layers.1.mlp.gate_mtp.weight", "BF16", 2, 8);
    const struct checkpoint_summary s = finish_header(&h, 0);
    check_invariants(&s);
    assert_int_equal(s.mtp_bytes, 2 * (64 * 64 + 64 * 128 + 64 * 128 + 64 * 32));
    assert_int_equal(s.layers, 2);
    assert_int_equal(s.layer_bytes[0], 2 * 64 * 64);
    assert_int_equal(s.layer_bytes[1], 2 * 8);
    assert_int_equal(s.other_bytes, s.mtp_bytes);
}

static void test_dtype_names(void **state)
{
    (void)state;
    assert_string_equal(checkpoint_dtype_name(CK_BF16), "BF16");
    assert_string_equal(checkpoint_dtype_name(CK_F8_E4M3), "F8_E4M3");
    assert_string_equal(checkpoint_dtype_name(CK_GGUF_Q4_K), "Q4_K");
    assert_string_equal(checkpoint_dtype_name(CK_GGUF_MXFP4), "MXFP4");
    assert_string_equal(checkpoint_dtype_name(CK_DTYPE_COUNT), "?");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_llama31_8b_bf16),       cmocka_unit_test(test_qwen3_moe_fp8_block),
        cmocka_unit_test(test_llama2_gptq),           cmocka_unit_test(test_gpt_oss_mxfp4),
        cmocka_unit_test(test_gemma3_multimodal),     cmocka_unit_test(test_gguf_q4_k_m),
        cmocka_unit_test(test_gguf_truncated),        cmocka_unit_test(test_bad_header_fixture),
        cmocka_unit_test(test_malformed_safetensors), cmocka_unit_test(test_header_length),
        cmocka_unit_test(test_gguf_malformed),        cmocka_unit_test(test_formats_synthetic),
        cmocka_unit_test(test_dtype_names),           cmocka_unit_test(test_glm47_flash_mtp_layer),
        cmocka_unit_test(test_stored_mtp_bytes),      cmocka_unit_test(test_mtp_by_name),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
