/*
 * test_checkpoint_formats.c - the checkpoint's own precision: each
 * quantization scheme's config (snippets of published configs) read into
 * its weight format and the modules it leaves unquantized
 * (server/readers/reader.c models_read_checkpoint), NVIDIA ModelOpt's
 * hf_quant_config.json merged into a config (server/api/hub_import.c), NVFP4
 * tensors recognised in a safetensors header (server/hub/checkpoint_safetensors.c), and the
 * NVFP4 weight bytes of small models written out (core/src/weights.c).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "arch_fixture.h"
#include "hub/checkpoint.h"
#include "gs/weights.h"
#include "api/hub_import.h"
#include "readers/models.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PART(p) (1u << (p))

/* The checkpoint a config with this quantization_config text describes. */
static struct gs_checkpoint read_quant(const char *quantization_config)
{
    char text[2048];
    snprintf(text, sizeof(text), "{\"model_type\": \"llama\", \"quantization_config\": %s}",
             quantization_config);
    json_error_t jerr;
    json_t *config = json_loads(text, 0, &jerr);
    if (config == NULL)
        fail_msg("bad JSON (%s): %s", jerr.text, text);
    struct gs_checkpoint c;
    models_read_checkpoint(config, &c);
    json_decref(config);
    return c;
}

static void assert_format(const struct gs_checkpoint *c, enum gs_weight_format f,
                          uint64_t group_size, uint16_t parts)
{
    if (!c->quantized || c->format != f)
        fail_msg("expected %s, got %s (%s): %s", gs_weight_format_name(f),
                 gs_weight_format_name((enum gs_weight_format)c->format),
                 c->quantized ? "quantized" : "not sized", c->detail);
    assert_int_equal(c->group_size, group_size);
    assert_int_equal(c->unquantized_parts, parts);
}

/* nvidia/MiniMax-M2.5-NVFP4 config.json's quantization_config (the first
 * five of its 125 ignore entries): ModelOpt NVFP4, self_attn in bf16, the
 * router (block_sparse_moe.gate) unquantized anyway. */
static void test_modelopt_in_config(void **state)
{
    (void)state;
    const struct gs_checkpoint c = read_quant(
        "{\"config_groups\": {\"group_0\": {\"input_activations\": {\"dynamic\": false, "
        "\"num_bits\": 4, \"type\": \"float\", \"group_size\": 16}, \"weights\": {\"dynamic\": "
        "false, \"num_bits\": 4, \"type\": \"float\", \"group_size\": 16}, \"targets\": "
        "[\"Linear\"]}}, \"ignore\": [\"lm_head\", \"model.layers.0.block_sparse_moe.gate\", "
        "\"model.layers.0.self_attn*\", \"model.layers.1.block_sparse_moe.gate\", "
        "\"model.layers.1.self_attn*\"], \"quant_algo\": \"NVFP4\", \"kv_cache_scheme\": "
        "{\"dynamic\": false, \"num_bits\": 8, \"type\": \"float\"}, \"producer\": {\"name\": "
        "\"modelopt\", \"version\": \"0.0.1.dev507+gbb6639d33\"}, \"quant_method\": \"modelopt\"}");
    assert_format(&c, GS_WF_NVFP4, 16, PART(GS_PART_ATTENTION));
    assert_string_equal(c.unquantized_modules, "");
    assert_non_null(strstr(c.detail, "ModelOpt NVFP4"));
}

/* hf_quant_config.json files merged as the hub import merges them:
 * Qwen/Qwen3-32B-FP8-Static-PerTensor's (ModelOpt FP8, per-tensor scales),
 * nvidia/DeepSeek-V3.1-NVFP4's (its first five exclude entries: MLA's
 * latent projections one by one, o_proj left quantized) and
 * nvidia/DeepSeek-V4-Flash-NVFP4's (MIXED_PRECISION: NVFP4 routed experts,
 * two of its 43 quantized_layers). A config with its own
 * quantization_config keeps it. */
static void test_hf_quant_config_merged(void **state)
{
    (void)state;
    static const char *const files[] = {
        "{\"producer\": {\"name\": \"modelopt\", \"version\": \"0.31.0\"}, \"quantization\": "
        "{\"quant_algo\": \"FP8\", \"kv_cache_quant_algo\": \"FP8\", \"exclude_modules\": "
        "[\"lm_head\"]}}",
        "{\"producer\": {\"name\": \"modelopt\", \"version\": \"0.22.1.dev750+g59a703703\"}, "
        "\"quantization\": {\"quant_algo\": \"NVFP4\", \"kv_cache_quant_algo\": \"FP8\", "
        "\"group_size\": 16, \"exclude_modules\": [\"lm_head\", "
        "\"model.layers.0.self_attn.kv_a_proj_with_mqa\", \"model.layers.0.self_attn.kv_b_proj\", "
        "\"model.layers.0.self_attn.q_a_proj\", \"model.layers.0.self_attn.q_b_proj\"]}}",
        "{\"producer\": {\"name\": \"modelopt\", \"version\": \"dsv4-nvfp4-experts\"}, "
        "\"quantization\": {\"quant_algo\": \"MIXED_PRECISION\", \"kv_cache_quant_algo\": null, "
        "\"group_size\": 16, \"quantized_layers\": {\"layers.0.ffn.experts\": {\"quant_algo\": "
        "\"NVFP4\", \"group_size\": 16}, \"layers.1.ffn.experts\": {\"quant_algo\": \"NVFP4\", "
        "\"group_size\": 16}}, \"exclude_modules\": [\"*.attn.*\", \"*.ffn.shared_experts.*\", "
        "\"head\", \"mtp.*\"]}}",
    };
    struct gs_checkpoint c[3];
    for (size_t i = 0; i < 3; i++) {
        json_t *config = json_pack("{s:s}", "model_type", "llama");
        json_t *quant = json_loads(files[i], 0, NULL);
        assert_true(hub_import_merge_quant_config(config, quant));
        assert_string_equal(
            json_string_value(json_object_get(json_object_get(config, "quantization_config"),
                                              "quant_method")),
            "modelopt");
        models_read_checkpoint(config, &c[i]);
        json_decref(quant);
        json_decref(config);
    }
    assert_format(&c[0], GS_WF_FP8, 0, 0);
    assert_format(&c[1], GS_WF_NVFP4, 16, 0);
    assert_string_equal(c[1].unquantized_modules, ",kv_a_proj_with_mqa,kv_b_proj,q_a_proj,q_b_proj,");
    assert_format(&c[2], GS_WF_NVFP4, 16, PART(GS_PART_ATTENTION));
    assert_true(c[2].unquantized_shared_experts);
    assert_true(c[2].experts_only);

    json_t *config = json_loads("{\"quantization_config\": {\"quant_method\": \"fp8\", "
                                "\"weight_block_size\": [128, 128]}}",
                                0, NULL);
    json_t *quant = json_loads(files[1], 0, NULL);
    assert_true(hub_import_merge_quant_config(config, quant));
    struct gs_checkpoint kept;
    models_read_checkpoint(config, &kept);
    assert_format(&kept, GS_WF_FP8_BLOCK, 0, 0);
    json_decref(quant);
    json_decref(config);
}

/* compressed-tensors schemes (vLLM compressed_tensors.py): NVFP4 (W4A4:
 * activations quantized too) and NVFP4A16 (format nvfp4-pack-quantized, as
 * vLLM's CompressedTensorsW4A16Fp4 documents it), W8A8 int8 and fp8 with
 * dynamic per-token activations, and moonshotai/Kimi-K2.5's W4A16 (int4
 * groups of 32, its ignore list: attention, shared experts and dense MLPs
 * in bf16). */
static void test_compressed_tensors(void **state)
{
    (void)state;
    struct gs_checkpoint c = read_quant(
        "{\"quant_method\": \"compressed-tensors\", \"format\": \"nvfp4-pack-quantized\", "
        "\"config_groups\": {\"group_0\": {\"targets\": [\"Linear\"], \"weights\": {\"num_bits\": "
        "4, \"type\": \"float\", \"strategy\": \"tensor_group\", \"group_size\": 16, "
        "\"symmetric\": true, \"dynamic\": false}, \"input_activations\": {\"num_bits\": 4, "
        "\"type\": \"float\", \"strategy\": \"tensor_group\", \"group_size\": 16, \"dynamic\": "
        "\"local\"}}}, \"ignore\": [\"lm_head\"]}");
    assert_format(&c, GS_WF_NVFP4, 16, 0);
    assert_non_null(strstr(c.detail, "NVFP4:"));
    c = read_quant("{\"quant_method\": \"compressed-tensors\", \"format\": \"nvfp4-pack-quantized\", "
                   "\"config_groups\": {\"group_0\": {\"targets\": [\"Linear\"], \"weights\": "
                   "{\"num_bits\": 4, \"type\": \"float\", \"strategy\": \"tensor_group\", "
                   "\"group_size\": 16, \"scale_dtype\": \"torch.float8_e4m3fn\"}, "
                   "\"input_activations\": null}}, \"ignore\": [\"lm_head\", "
                   "\"re:.*mlp.gate$\"]}");
    assert_format(&c, GS_WF_NVFP4, 16, 0);
    assert_non_null(strstr(c.detail, "NVFP4A16"));
    c = read_quant("{\"quant_method\": \"compressed-tensors\", \"format\": \"int-quantized\", "
                   "\"config_groups\": {\"group_0\": {\"targets\": [\"Linear\"], \"weights\": "
                   "{\"num_bits\": 8, \"type\": \"int\", \"strategy\": \"channel\", "
                   "\"symmetric\": true, \"dynamic\": false}, \"input_activations\": {\"num_bits\": "
                   "8, \"type\": \"int\", \"strategy\": \"token\", \"dynamic\": true}}}, "
                   "\"ignore\": [\"lm_head\"]}");
    assert_format(&c, GS_WF_INT8, 0, 0);
    assert_non_null(strstr(c.detail, "W8A8 int8"));
    c = read_quant("{\"quant_method\": \"compressed-tensors\", \"format\": "
                   "\"float-quantized\", \"config_groups\": {\"group_0\": {\"targets\": "
                   "[\"Linear\"], \"weights\": {\"num_bits\": 8, \"type\": \"float\", "
                   "\"strategy\": \"channel\", \"dynamic\": false}, \"input_activations\": "
                   "{\"num_bits\": 8, \"type\": \"float\", \"strategy\": \"token\", \"dynamic\": "
                   "true}}}, \"ignore\": [\"lm_head\"]}");
    assert_format(&c, GS_WF_FP8_PER_CHANNEL, 0, 0);
    c = read_quant(
        "{\"config_groups\": {\"group_0\": {\"input_activations\": null, \"output_activations\": "
        "null, \"targets\": [\"Linear\"], \"weights\": {\"actorder\": null, \"block_structure\": "
        "null, \"dynamic\": false, \"group_size\": 32, \"num_bits\": 4, \"observer\": \"minmax\", "
        "\"observer_kwargs\": {}, \"strategy\": \"group\", \"symmetric\": true, \"type\": "
        "\"int\"}}}, \"format\": \"pack-quantized\", \"ignore\": [\"lm_head\", "
        "\"re:.*self_attn.*\", \"re:.*shared_experts.*\", "
        "\"re:.*mlp\\\\.(gate|up|gate_up|down)_proj.*\"], \"kv_cache_scheme\": null, "
        "\"quant_method\": \"compressed-tensors\", \"quantization_status\": \"compressed\"}");
    assert_format(&c, GS_WF_AWQ, 32, PART(GS_PART_ATTENTION) | PART(GS_PART_MLP));
    /* moonshotai/Kimi-K3's text_config quantization_config (its config_groups as published):
     * MXFP4 (mxfp4-pack-quantized, e2m1 and a uint8 e8m0 scale a 32), routed experts only */
    c = read_quant(
        "{\"config_groups\": {\"group_0\": {\"format\": \"mxfp4-pack-quantized\", "
        "\"input_activations\": null, \"output_activations\": null, \"targets\": [\"Linear\"], "
        "\"weights\": {\"actorder\": null, \"block_structure\": null, \"dynamic\": false, "
        "\"group_size\": 32, \"num_bits\": 4, \"observer\": \"minmax\", \"observer_kwargs\": "
        "{}, \"scale_dtype\": \"torch.uint8\", \"strategy\": \"group\", \"symmetric\": true, "
        "\"type\": \"float\", \"zp_dtype\": null}}}, \"format\": \"mxfp4-pack-quantized\", "
        "\"ignore\": [\"re:.*self_attn.*\", \"re:.*shared_experts.*\", "
        "\"re:.*mlp\\\\.(gate|up|gate_up|down)_proj.*\", \"re:.*lm_head.*\", "
        "\"re:.*vision_tower.*\", \"re:.*mm_projector.*\"], \"quant_method\": "
        "\"compressed-tensors\", \"quantization_status\": \"compressed\"}");
    assert_format(&c, GS_WF_MXFP4, 32, PART(GS_PART_ATTENTION) | PART(GS_PART_MLP));
    assert_non_null(strstr(c.detail, "MXFP4:"));
    /* nvidia/Qwen3-32B-FP8-Static-PerTensor's config.json: ModelOpt's export without a
     * quant_method, its producer and quant_algo saying what it is */
    c = read_quant("{\"config_groups\": {\"group_0\": {\"input_activations\": {\"dynamic\": "
                   "false, \"num_bits\": 8, \"type\": \"float\"}, \"weights\": {\"dynamic\": "
                   "false, \"num_bits\": 8, \"type\": \"float\"}}}, \"ignore\": [\"lm_head\"], "
                   "\"quant_algo\": \"FP8\", \"kv_cache_scheme\": \"FP8\", \"producer\": "
                   "{\"name\": \"modelopt\", \"version\": \"0.31.0\"}}");
    assert_format(&c, GS_WF_FP8, 0, 0);
}

/* AutoRound (GPTQ's layout unless it says AWQ's), bitsandbytes 4-bit nf4 and
 * fp4 (the same bytes) with and without double quantization and 8-bit,
 * mxfp4 (gpt-oss: experts only), ModelOpt W4A8_AWQ, and a method gpusizer
 * does not size (left unquantized, said in the detail). The fp8 lists of
 * Qwen3-FP8 and GLM-5-FP8 name norms and routers only: nothing more kept. */
static void test_other_methods(void **state)
{
    (void)state;
    struct gs_checkpoint c = read_quant("{\"quant_method\": \"auto-round\", \"bits\": 4, "
                                        "\"group_size\": 128, \"sym\": true, \"packing_format\": "
                                        "\"auto_round:auto_gptq\"}");
    assert_format(&c, GS_WF_GPTQ, 128, 0);
    c = read_quant("{\"quant_method\": \"auto-round\", \"bits\": 4, \"group_size\": 64, "
                   "\"packing_format\": \"auto_round:auto_awq\"}");
    assert_format(&c, GS_WF_AWQ, 64, 0);
    c = read_quant("{\"quant_method\": \"auto-round\", \"bits\": 2, \"group_size\": 64}");
    assert_false(c.quantized);
    c = read_quant("{\"quant_method\": \"bitsandbytes\", \"load_in_4bit\": true, "
                   "\"bnb_4bit_quant_type\": \"fp4\", \"bnb_4bit_use_double_quant\": false}");
    assert_format(&c, GS_WF_NF4, 0, 0);
    assert_non_null(strstr(c.detail, "4-bit fp4"));
    c = read_quant("{\"quant_method\": \"bitsandbytes\", \"_load_in_4bit\": true, "
                   "\"bnb_4bit_quant_type\": \"nf4\", \"bnb_4bit_use_double_quant\": true, "
                   "\"llm_int8_skip_modules\": [\"lm_head\", \"mlp.experts\"]}");
    assert_format(&c, GS_WF_NF4_DQ, 0, PART(GS_PART_EXPERTS));
    c = read_quant("{\"quant_method\": \"bitsandbytes\", \"load_in_8bit\": true}");
    assert_format(&c, GS_WF_INT8, 0, 0);
    c = read_quant("{\"quant_method\": \"mxfp4\", \"modules_to_not_convert\": "
                   "[\"model.layers.*.self_attn\", \"model.layers.*.mlp.router\", "
                   "\"model.embed_tokens\", \"lm_head\"]}");
    assert_format(&c, GS_WF_MXFP4, 0, 0);
    assert_true(c.experts_only);
    c = read_quant("{\"quant_method\": \"modelopt\", \"quant_algo\": \"W4A8_AWQ\", "
                   "\"exclude_modules\": [\"lm_head\"]}");
    assert_format(&c, GS_WF_AWQ, 128, 0);
    c = read_quant("{\"quant_method\": \"hqq\", \"nbits\": 4}");
    assert_false(c.quantized);
    assert_non_null(strstr(c.detail, "hqq"));
    c = read_quant("{\"activation_scheme\": \"dynamic\", \"modules_to_not_convert\": [\"lm_head\", "
                   "\"model.layers.0.input_layernorm\", \"model.layers.0.mlp.gate\", "
                   "\"model.layers.0.self_attn.indexer.k_norm\", "
                   "\"model.layers.0.self_attn.indexer.k_norm.bias\", "
                   "\"model.layers.1.self_attn.kv_a_layernorm\", "
                   "\"model.layers.2.mlp.gate.e_score_correction_bias\"], \"quant_method\": "
                   "\"fp8\", \"weight_block_size\": [128, 128]}");
    assert_format(&c, GS_WF_FP8_BLOCK, 0, 0);
    assert_string_equal(c.unquantized_modules, "");
}

/* NVFP4 bytes of one linear: in·out/2 (e2m1 pairs) + out·in/16 (fp8 scales)
 * + 8 (the fp32 weight_scale_2 and input_scale). */
static uint64_t nvfp4(uint64_t in, uint64_t out)
{
    return in * out / 2 + out * (in / 16) + 8;
}

static uint64_t weights(const struct gs_arch *a, enum gs_weight_format f, uint64_t tensor)
{
    const struct gs_param_count c = fixture_count(a);
    const struct gs_weights_request r = {.format = f, .tensor = tensor, .pipeline = 1};
    struct gs_error err;
    gs_error_init(&err);
    uint64_t bytes = 0;
    assert_int_equal(gs_weights_bytes(a, &c, &r, &bytes, &err), GS_OK);
    return bytes;
}

/* A small Llama (H 1024, 2 layers, 8 heads, 2 KV heads of 128, intermediate
 * 4096, V 1000, untied) stored as ModelOpt NVFP4 with self_attn excluded.
 * MLP per layer: gate and up nvfp4(1024, 4096) = 524,288 · 4 + 4096 · 64 + 8
 * = 2,359,304 each, down nvfp4(4096, 1024) = 2,097,152 + 262,144 + 8 =
 * 2,359,304: 7,077,912. Attention in bf16: (1024² + 1024 · 256) · 2 · 2 =
 * 5,242,880. Norms 2 · 1024 · 2 = 4,096. Layer 12,324,888; × 2 + embedding and
 * head 2 · 1000 · 1024 · 2 + final norm 2,048 = 28,747,824. Asked for nvfp4
 * on the same model without the checkpoint's list, attention is NVFP4 too:
 * q and o nvfp4(1024, 1024) = 589,832, k and v nvfp4(1024, 256) = 147,464,
 * 1,474,592 a layer: 2 · (7,077,912 + 1,474,592 + 4,096) + 4,098,048 =
 * 21,211,248. TP 2 (the checkpoint's own): MLP halves its outputs or inputs:
 * gate/up nvfp4(1024, 2048) = 1,179,656 each, down nvfp4(2048, 1024) =
 * 1,179,656; attention 2,621,440 in bf16; norms 4,096; embedding and head
 * split by rows, 1,024,000 each: 2 · (3,538,968 + 2,621,440 + 4,096) +
 * 2,048,000 + 2,048 = 14,379,056. */
static void test_nvfp4_weight_bytes(void **state)
{
    (void)state;
#define LLAMA_1024                                                                                 \
    "{\"model_type\": \"llama\", \"hidden_size\": 1024, \"num_hidden_layers\": 2,"                 \
    " \"num_attention_heads\": 8, \"num_key_value_heads\": 2, \"intermediate_size\": 4096,"         \
    " \"vocab_size\": 1000, \"tie_word_embeddings\": false%s}"
    const struct gs_arch stored = fixture_arch(
        LLAMA_1024,
        ", \"quantization_config\": {\"quant_method\": \"modelopt\", \"quantization\": "
        "{\"quant_algo\": \"NVFP4\", \"group_size\": 16, \"exclude_modules\": [\"lm_head\", "
        "\"model.layers.0.self_attn*\", \"model.layers.1.self_attn*\"]}}");
    assert_int_equal(nvfp4(1024, 4096), 2359304);
    assert_int_equal(weights(&stored, GS_WF_NVFP4, 1), 28747824ULL);
    assert_int_equal(weights(&stored, GS_WF_NVFP4, 2), 14379056ULL);
    const struct gs_arch plain = fixture_arch(LLAMA_1024, "");
    assert_int_equal(nvfp4(1024, 1024), 589832);
    assert_int_equal(weights(&plain, GS_WF_NVFP4, 1), 21211248ULL);
}

/* ModelOpt MIXED_PRECISION a part at a time, as NVIDIA's Qwen3.6-27B-NVFP4 stores itself
 * (quantized_layers: self_attn and linear_attn in FP8, the MLPs and lm_head in W4A16_NVFP4;
 * a layer the list omits stays 16-bit, vLLM ModelOptMixedPrecisionConfig.get_quant_method).
 * LLAMA_1024 so stored: attention q and o 1024 x 1024 + a 4-byte scale = 1,048,580 each, k
 * and v 1024 x 256 + 4 = 262,148 each: 2,621,456 a layer; the MLP NVFP4 7,077,912 (above);
 * norms 4,096: 9,703,464 a layer, 19,406,928 for two. Embedding bf16 2,048,000, the head
 * NVFP4 nvfp4(1024, 1000) = 512,000 + 64,000 + 8 = 576,008, final norm 2,048: 22,032,984.
 * Layers in a format gpusizer does not size (MXFP8, MiniMax-M3-NVFP4's attention and MLPs)
 * or one part in two formats leave the checkpoint unsized, in bf16, the detail naming why. */
static void test_mixed_precision_parts(void **state)
{
    (void)state;
#define MIXED_LAYERS(attn_algo, mlp_algo)                                                          \
    ", \"quantization_config\": {\"quant_method\": \"modelopt\", \"quant_algo\":"                  \
    " \"MIXED_PRECISION\", \"quantized_layers\": {"                                                \
    "\"model.layers.0.self_attn.q_proj\": {\"quant_algo\": \"" attn_algo "\"},"                    \
    "\"model.layers.0.self_attn.k_proj\": {\"quant_algo\": \"FP8\"},"                              \
    "\"model.layers.1.self_attn.v_proj\": {\"quant_algo\": \"FP8\"},"                              \
    "\"model.layers.0.mlp.down_proj\": {\"quant_algo\": \"" mlp_algo "\", \"group_size\": 16},"    \
    "\"model.layers.1.mlp.gate_proj\": {\"quant_algo\": \"W4A16_NVFP4\", \"group_size\": 16},"     \
    "\"lm_head\": {\"quant_algo\": \"W4A16_NVFP4\", \"group_size\": 16}}}"
    const struct gs_arch a = fixture_arch(LLAMA_1024, MIXED_LAYERS("FP8", "W4A16_NVFP4"));
    assert_format(&a.checkpoint, GS_WF_NVFP4, 16, 0);
    assert_false(a.checkpoint.experts_only);
    assert_int_equal(a.checkpoint.mixed_parts,
                     PART(GS_PART_ATTENTION) | PART(GS_PART_MLP) | PART(GS_PART_LM_HEAD));
    assert_int_equal(a.checkpoint.part_format[GS_PART_ATTENTION], GS_WF_FP8);
    assert_int_equal(a.checkpoint.part_format[GS_PART_MLP], GS_WF_NVFP4);
    assert_non_null(strstr(a.checkpoint.detail, "token mixers FP8 (per tensor), dense and shared "
                                                "MLPs NVFP4, head NVFP4; every other linear "
                                                "16-bit"));
    assert_int_equal(nvfp4(1024, 1000), 576008);
    assert_int_equal(weights(&a, GS_WF_NVFP4, 1), 22032984ULL);
    /* asked for another format, every body linear takes it, as for any checkpoint */
    const struct gs_arch plain = fixture_arch(LLAMA_1024, "");
    assert_int_equal(weights(&a, GS_WF_FP8, 1), weights(&plain, GS_WF_FP8, 1));

    const struct gs_arch other = fixture_arch(LLAMA_1024, MIXED_LAYERS("W4A8_MXFP4_FP8", "NVFP4"));
    assert_false(other.checkpoint.quantized);
    assert_non_null(strstr(other.checkpoint.detail, "its W4A8_MXFP4_FP8 layers, "
                                                    "model.layers.0.self_attn.q_proj among them"));
    const struct gs_arch two = fixture_arch(LLAMA_1024, MIXED_LAYERS("FP8", "FP8"));
    assert_false(two.checkpoint.quantized);
    assert_non_null(strstr(two.checkpoint.detail, "its dense and shared MLPs in two formats"));
    /* routers and embeddings stay 16-bit whatever a list says: they set no part's format */
    const struct gs_arch routed = fixture_arch(
        LLAMA_1024, ", \"quantization_config\": {\"quant_method\": \"modelopt\", \"quant_algo\":"
                    " \"MIXED_PRECISION\", \"quantized_layers\": {"
                    "\"model.layers.0.mlp.down_proj\": {\"quant_algo\": \"NVFP4\"},"
                    "\"model.layers.0.mlp.gate\": {\"quant_algo\": \"FP8\"},"
                    "\"model.embed_tokens\": {\"quant_algo\": \"FP8\"}}}");
    assert_format(&routed.checkpoint, GS_WF_NVFP4, 16, 0);
    assert_int_equal(routed.checkpoint.mixed_parts, PART(GS_PART_MLP));
#undef MIXED_LAYERS
}

/* quant_method fp8 without weight_block_size (Mistral Small 4's static FP8, convert_mistral4_
 * weight_to_hf.py: weight_block_size None, modules_to_not_convert the tower, projector and head):
 * vLLM's Fp8LinearMethod.create_weights keeps one fp32 weight_scale a tensor
 * (PerTensorScaleParameter), not one a row. LLAMA_1024 so stored, the head kept: q and o 1024^2 +
 * 4 each, k and v 1024 x 256 + 4 each, gate/up/down 1024 x 4096 + 4 each = 15,204,380, the norms
 * 4,096: 15,208,476 a layer; 2 x 15,208,476 + embedding and head 2 x 2,048,000 + 2,048 =
 * 34,515,000 (a scale a row instead would be 2 x (4 x 11,776 - 28) = 94,152 B more). */
static void test_fp8_per_tensor(void **state)
{
    (void)state;
    const struct gs_arch a = fixture_arch(
        LLAMA_1024, ", \"quantization_config\": {\"quant_method\": \"fp8\", \"activation_scheme\":"
                    " \"static\", \"weight_block_size\": null, \"modules_to_not_convert\":"
                    " [\"model.vision_tower\", \"model.multi_modal_projector\", \"lm_head\"]}");
    assert_format(&a.checkpoint, GS_WF_FP8, 0, 0);
    assert_non_null(strstr(a.checkpoint.detail, "per-tensor fp32 scale"));
    assert_int_equal(weights(&a, GS_WF_FP8, 1), 34515000ULL);
}

/* fp8's own ignore list is ignored_layers (vLLM Fp8Config.from_config: modules_to_not_convert
 * only where ignored_layers is absent or empty): MiMo-V2.5's names every o_proj. */
static void test_fp8_ignored_layers(void **state)
{
    (void)state;
    struct gs_checkpoint c = read_quant(
        "{\"quant_method\": \"fp8\", \"weight_block_size\": [128, 128], \"ignored_layers\":"
        " [\"model.layers.0.self_attn.o_proj\", \"model.layers.1.self_attn.o_proj\"],"
        " \"modules_to_not_convert\": [\"model.layers.0.self_attn.q_proj\"]}");
    assert_format(&c, GS_WF_FP8_BLOCK, 0, 0);
    assert_string_equal(c.unquantized_modules, ",o_proj,");
    c = read_quant("{\"quant_method\": \"fp8\", \"weight_block_size\": [128, 128],"
                   " \"ignored_layers\": [], \"modules_to_not_convert\":"
                   " [\"model.layers.0.self_attn.q_proj\"]}");
    assert_string_equal(c.unquantized_modules, ",q_proj,");
}

/* MXFP8 (ModelOpt; vLLM ModelOptMxFp8Config create_weights: float8_e4m3fn [out, in] and an e8m0
 * byte a 32 inputs [out, in / 32]), alone and as MiniMax-M3-NVFP4 mixes it with NVFP4. On
 * LLAMA_1024: attention q and o 1024^2 + 1024 x 32 = 1,081,344 each, k and v 1024 x 256 +
 * 256 x 32 = 270,336 each: 2,703,360 a layer. All MXFP8: gate and up 1024 x 4096 + 4096 x 32
 * = 4,325,376 each, down 4096 x 1024 + 1024 x 128 = 4,325,376: 12,976,128; a layer 2,703,360 +
 * 12,976,128 + 4,096 norms = 15,683,584, two 31,367,168, embedding and head 16-bit 4,096,000,
 * final norm 2,048: 35,465,216. Attention MXFP8 beside NVFP4 MLPs (7,077,912), the head
 * unlisted: 2 x (2,703,360 + 7,077,912 + 4,096) + 4,096,000 + 2,048 = 23,668,784; the
 * checkpoint's format is its narrowest part's, NVFP4. */
static void test_mxfp8(void **state)
{
    (void)state;
    const struct gs_arch whole = fixture_arch(
        LLAMA_1024,
        ", \"quantization_config\": {\"quant_method\": \"modelopt\", \"quantization\": "
        "{\"quant_algo\": \"MXFP8\", \"kv_cache_quant_algo\": null, \"exclude_modules\": "
        "[\"lm_head\"]}}");
    assert_format(&whole.checkpoint, GS_WF_MXFP8, 0, 0);
    assert_int_equal(weights(&whole, GS_WF_MXFP8, 1), 35465216ULL);
    assert_string_equal(gs_weight_format_name(GS_WF_MXFP8), "mxfp8");
    const struct gs_arch mixed = fixture_arch(
        LLAMA_1024,
        ", \"quantization_config\": {\"quant_method\": \"modelopt\", \"quant_algo\":"
        " \"MIXED_PRECISION\", \"quantized_layers\": {"
        "\"language_model.model.layers.0.self_attn.q_proj\": {\"quant_algo\": \"MXFP8\"},"
        "\"language_model.model.layers.0.mlp.down_proj\": {\"quant_algo\": \"NVFP4\","
        " \"group_size\": 16}}}");
    assert_format(&mixed.checkpoint, GS_WF_NVFP4, 16, 0);
    assert_int_equal(mixed.checkpoint.part_format[GS_PART_ATTENTION], GS_WF_MXFP8);
    assert_non_null(
        strstr(mixed.checkpoint.detail, "token mixers MXFP8, dense and shared MLPs NVFP4"));
    assert_int_equal(weights(&mixed, GS_WF_NVFP4, 1), 23668784ULL);
}

/* DeepSeek-V3.1-NVFP4's list names MLA's latent projections one by one:
 * they stay bf16, o_proj is NVFP4. On the generic reader's MLA (H 1024, 8
 * heads, q_lora 256, kv_lora 128, nope 64, rope 32, v 64, intermediate
 * 2048, 2 layers, V 1000, untied): q_a 1024 · 256 · 2 + q_b 256 · 768 · 2 +
 * kv_a 1024 · 160 · 2 + kv_b 128 · 1024 · 2 + o nvfp4(512, 1024) = 294,920 +
 * the latent norms (256 + 128) · 2 = 1,803,016; MLP 2 · nvfp4(1024, 2048) +
 * nvfp4(2048, 1024) = 3,538,968; norms 4,096; × 2 layers + 4,096,000 + 2,048
 * = 14,790,208. */
static void test_nvfp4_named_projections(void **state)
{
    (void)state;
    const struct gs_arch a = fixture_arch(
        "{\"model_type\": \"acme_mla\", \"hidden_size\": 1024, \"num_hidden_layers\": 2,"
        " \"num_attention_heads\": 8, \"q_lora_rank\": 256, \"kv_lora_rank\": 128,"
        " \"qk_nope_head_dim\": 64, \"qk_rope_head_dim\": 32, \"v_head_dim\": 64,"
        " \"intermediate_size\": 2048, \"vocab_size\": 1000, \"quantization_config\":"
        " {\"quant_method\": \"modelopt\", \"quant_algo\": \"NVFP4\", \"exclude_modules\":"
        " [\"lm_head\", \"model.layers.0.self_attn.kv_a_proj_with_mqa\","
        " \"model.layers.0.self_attn.kv_b_proj\", \"model.layers.0.self_attn.q_a_proj\","
        " \"model.layers.0.self_attn.q_b_proj\"]}}");
    assert_int_equal(nvfp4(512, 1024), 294920);
    assert_int_equal(weights(&a, GS_WF_NVFP4, 1), 14790208ULL);
}

/* Nemotron-H names its attention layers `mixer`s as it does its Mamba layers: NVIDIA's
 * Nemotron-3-Nano-30B-A3B-NVFP4 excludes each attention layer's q/k/v/o_proj by path
 * (backbone.layers.5.mixer.q_proj), which keeps them 16-bit. Nano's 6 attention layers (h 2,688,
 * 32 heads and 2 KV heads of 128): 16-bit 2 x (2,688 x 4,096 + 2 x 2,688 x 256 + 4,096 x 2,688)
 * = 46,792,704 a layer where NVFP4 stores nvfp4(2,688, 4,096) + 2 nvfp4(2,688, 256) +
 * nvfp4(4,096, 2,688) = 13,160,480: 6 x 33,632,224 = 201,793,344 B more. A Mamba mixer's
 * in_proj the list names in one layer stays NVFP4 (a layer kind holds every Mamba layer); the
 * conv1d and the router's gate were never quantized. */
static void test_nemotron_h_excluded_attention(void **state)
{
    (void)state;
    static const char file[] = "nemotron_h/nvidia__NVIDIA-Nemotron-3-Nano-30B-A3B-BF16.json";
    const struct gs_arch whole = fixture_arch_file_set(
        file, "quantization_config",
        "{\"quant_method\": \"modelopt\", \"quant_algo\": \"NVFP4\", \"exclude_modules\":"
        " [\"lm_head\", \"backbone.layers.0.mixer.conv1d\", \"backbone.layers.1.mixer.gate\"]}");
    const struct gs_arch kept = fixture_arch_file_set(
        file, "quantization_config",
        "{\"quant_method\": \"modelopt\", \"quant_algo\": \"NVFP4\", \"exclude_modules\":"
        " [\"lm_head\", \"backbone.layers.0.mixer.conv1d\", \"backbone.layers.1.mixer.gate\","
        " \"backbone.layers.0.mixer.in_proj\", \"backbone.layers.0.mixer.out_proj\","
        " \"backbone.layers.5.mixer.q_proj\", \"backbone.layers.5.mixer.k_proj\","
        " \"backbone.layers.5.mixer.v_proj\", \"backbone.layers.5.mixer.o_proj\"]}");
    assert_int_equal(nvfp4(2688, 4096) + 2 * nvfp4(2688, 256) + nvfp4(4096, 2688), 13160480);
    assert_int_equal(weights(&kept, GS_WF_NVFP4, 1) - weights(&whole, GS_WF_NVFP4, 1),
                     6ULL * (46792704 - 13160480));
    assert_non_null(strstr(kept.checkpoint.detail, "the attention projections q_proj, k_proj, "
                                                   "v_proj, o_proj in 16-bit"));
}

/* Qwen3.5-397B-A17B with an NVFP4 exclude list of lm_head and `more` (", entry, ..."). */
static struct gs_arch qwen397_excluding(const char *more)
{
    char q[256];
    snprintf(q, sizeof(q),
             "{\"quant_method\": \"modelopt\", \"quant_algo\": \"NVFP4\", "
             "\"exclude_modules\": [\"lm_head\"%s]}",
             more);
    return fixture_arch_file_set("qwen3_5_moe/Qwen__Qwen3.5-397B-A17B.json", "quantization_config",
                                 q);
}

/* The MTP layers an ignore list keeps whole: NVIDIA's NVFP4 releases of Qwen3.5 exclude
 * "mtp.layers.0*" (Qwen3.5-397B-A17B-NVFP4) or "mtp*" (Qwen3.5-122B-A10B-NVFP4, Nemotron 3.5),
 * which vLLM's ModelOpt is_layer_excluded matches against the drafter's prefixes, so the MTP
 * layer loads unquantized. Qwen3.5-397B's MTP layer at TP 8 (h 4,096; 512 experts of 1,024, a
 * shared expert of 1,024; 32 heads of 256 with the output gate, 2 KV heads, one a rank), kept:
 * experts 512 x 3 x 4,096 x 1,024 / 8 x 2 B = 1,610,612,736, shared expert 3,145,728, the
 * router 512 x 4,096 x 2 = 4,194,304 and shared_expert_gate 8,192 (replicated), q 4,096 x
 * 2,048 x 2 = 16,777,216, k and v 4,096 x 256 x 2 each = 4,194,304, o 1,024 x 4,096 x 2 =
 * 8,388,608, q/k norms 1,024, fc (2h -> h split by columns) 512 x 8,192 x 2 = 8,388,608, five
 * norms 40,960: 1,655,751,680. Stored in NVFP4 instead: each expert's gate and up
 * nvfp4(4,096, 128) and down nvfp4(128, 4,096), 294,920 each, x 3 x 512 = 452,997,120; the
 * shared expert 884,760; q nvfp4(4,096, 2,048) = 4,718,600, k and v nvfp4(4,096, 256) =
 * 589,832 each, o nvfp4(1,024, 4,096) = 2,359,304; the rest as above: 474,772,536. An entry
 * naming a module inside the layer, or the weights asked in another format, keep nothing. */
static void test_mtp_layers_excluded(void **state)
{
    (void)state;
    static const char *const entries[] = {", \"mtp.layers.0*\"", ", \"mtp*\"", ", \"re:^mtp.*\"",
                                          ", \"language_model.mtp.*\"", ", \"mtp.layers.*\""};
    static const char *const none[] = {"", ", \"mtp.layers.0.mlp.experts\"", ", \"mtp.layers.1*\""};
    const struct gs_weights_request nv = {.format = GS_WF_NVFP4, .tensor = 8, .pipeline = 1};
    const struct gs_weights_request fp8 = {.format = GS_WF_FP8, .tensor = 8, .pipeline = 1};
    uint64_t bytes = 0, asked_fp8 = 0, plain_fp8 = 0;
    struct gs_error err;
    gs_error_init(&err);
    for (size_t i = 0; i < sizeof(entries) / sizeof(entries[0]); i++) {
        const struct gs_arch a = qwen397_excluding(entries[i]);
        assert_int_equal(a.checkpoint.unquantized_mtp_layers, i == 0 ? 1 : UINT8_MAX);
        assert_int_equal(gs_weights_mtp_bytes(&a, &nv, false, &bytes, &err), GS_OK);
        assert_int_equal(bytes, 1655751680ULL);
        assert_int_equal(gs_weights_mtp_bytes(&a, &fp8, false, &asked_fp8, &err), GS_OK);
        assert_non_null(strstr(a.checkpoint.detail, i == 0 ? "keeps MTP layer 0 in 16-bit"
                                                           : "keeps the MTP layers in 16-bit"));
    }
    assert_int_equal(nvfp4(4096, 128), 294920);
    assert_int_equal(nvfp4(128, 4096), 294920);
    assert_int_equal(nvfp4(4096, 2048), 4718600);
    for (size_t i = 0; i < sizeof(none) / sizeof(none[0]); i++) {
        const struct gs_arch a = qwen397_excluding(none[i]);
        assert_int_equal(gs_weights_mtp_bytes(&a, &nv, false, &bytes, &err), GS_OK);
        assert_int_equal(bytes, 474772536ULL);
        assert_int_equal(gs_weights_mtp_bytes(&a, &fp8, false, &plain_fp8, &err), GS_OK);
        assert_int_equal(plain_fp8, asked_fp8);
    }
    /* the list's kinds joined as a list, MiniMax-M2.5-NVFP4's attention beside the MTP layers */
    const struct gs_checkpoint c =
        read_quant("{\"quant_method\": \"modelopt\", \"quant_algo\": \"NVFP4\", "
                   "\"exclude_modules\": [\"model.layers.0.self_attn*\", \"model.layers.1.mlp*\", "
                   "\"mtp*\"]}");
    assert_non_null(strstr(c.detail, "; the ignore list keeps attention, dense and shared MLPs "
                                     "and the MTP layers in 16-bit"));
}

/* nvidia/GLM-5.3-Flash-NVFP4's hf_quant_config.json excludes each routed layer's
 * "model.language_model.layers.N.mlp.shared_experts*" and no dense MLP: its first three layers'
 * MLPs are NVFP4 while the shared experts stay bf16. An entry naming the shared experts keeps
 * them alone. DeepSeek-V3's shapes (H 7168, a shared expert 2048 wide on each of the 58 routed
 * layers, a dense MLP 18,432 wide on the first 3): each shared expert kept in bf16 holds
 * 3 x 7168 x 2048 x 2 bytes where NVFP4 holds 2 x nvfp4(7168, 2048) + nvfp4(2048, 7168). */
static void test_shared_experts_excluded(void **state)
{
    (void)state;
#define NVFP4_EXCLUDING(list)                                                                      \
    "\"quantization_config\":{\"quant_method\":\"modelopt\",\"quant_algo\":\"NVFP4\","             \
    "\"group_size\":16,\"exclude_modules\":[" list "]},"
    char extra[512];
    snprintf(extra, sizeof(extra), NVFP4_EXCLUDING("\"lm_head\""));
    const struct gs_arch none = fixture_deepseek_v3_with(extra);
    snprintf(extra, sizeof(extra),
             NVFP4_EXCLUDING("\"model.language_model.layers.3.mlp.shared_experts*\",\"lm_head\""));
    const struct gs_arch shared = fixture_deepseek_v3_with(extra);
    assert_true(shared.checkpoint.unquantized_shared_experts);
    assert_int_equal(shared.checkpoint.unquantized_parts, 0);
    assert_non_null(strstr(shared.checkpoint.detail, "keeps shared experts in 16-bit"));
    const uint64_t h = 7168, s = 2048;
    const uint64_t one = 3 * h * s * 2 - (2 * nvfp4(h, s) + nvfp4(s, h));
    assert_int_equal(weights(&shared, GS_WF_NVFP4, 1) - weights(&none, GS_WF_NVFP4, 1), 58 * one);
    /* a dense MLP's entry keeps the dense MLPs and the shared experts, as before */
    snprintf(extra, sizeof(extra), NVFP4_EXCLUDING("\"model.layers.0.mlp*\""));
#undef NVFP4_EXCLUDING
    const struct gs_arch dense = fixture_deepseek_v3_with(extra);
    assert_int_equal(dense.checkpoint.unquantized_parts, PART(GS_PART_MLP));
    assert_true(weights(&dense, GS_WF_NVFP4, 1) > weights(&shared, GS_WF_NVFP4, 1));
}

static char *slurp(const char *relative)
{
    char path[512];
    snprintf(path, sizeof(path), "%s/%s", GS_HUB_FIXTURES, relative);
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        fail_msg("cannot open %s", path);
    static char text[65536];
    const size_t n = fread(text, 1, sizeof(text) - 1, f);
    fclose(f);
    text[n] = '\0';
    return text;
}

/* tests/fixtures/hub/README.md, modelopt-tests/tiny-llama-nvfp4: the header's
 * uint8 MLP weights beside fp8 scales are NVFP4; two values a byte make
 * 1,692,928 parameters; the scales and fp32 scalars are not parameters; the
 * tensors hold 2,255,408 bytes, what the config sizes with its
 * hf_quant_config.json merged in. */
static void test_nvfp4_header(void **state)
{
    (void)state;
    const char *header = slurp("modelopt-tests/tiny-llama-nvfp4/model.safetensors.header.json");
    struct checkpoint_summary s;
    checkpoint_summary_init(&s);
    struct gs_error err;
    gs_error_init(&err);
    assert_int_equal(checkpoint_add_safetensors(&s, header, strlen(header), &err), GS_OK);
    checkpoint_finish(&s);
    assert_true(s.format_known);
    assert_int_equal(s.format, GS_WF_NVFP4);
    assert_int_equal(s.group_size, 16);
    assert_int_equal(s.parameters, 1692928ULL);
    assert_int_equal(s.tensor_bytes, 2255408ULL);

    json_t *config = json_loads(slurp("modelopt-tests/tiny-llama-nvfp4/config.json"), 0, NULL);
    json_t *quant =
        json_loads(slurp("modelopt-tests/tiny-llama-nvfp4/hf_quant_config.json"), 0, NULL);
    assert_true(hub_import_merge_quant_config(config, quant));
    char *text = json_dumps(config, 0);
    const struct gs_arch a = fixture_arch("%s", text);
    free(text);
    json_decref(quant);
    json_decref(config);
    assert_int_equal(a.checkpoint.format, GS_WF_NVFP4);
    assert_int_equal(fixture_count(&a).total, 1692928ULL);
    assert_int_equal(weights(&a, GS_WF_NVFP4, 1), 2255408ULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_modelopt_in_config),
        cmocka_unit_test(test_hf_quant_config_merged),
        cmocka_unit_test(test_shared_experts_excluded),
        cmocka_unit_test(test_compressed_tensors),
        cmocka_unit_test(test_other_methods),
        cmocka_unit_test(test_nvfp4_weight_bytes),
        cmocka_unit_test(test_mixed_precision_parts),
        cmocka_unit_test(test_mxfp8),
        cmocka_unit_test(test_fp8_per_tensor),
        cmocka_unit_test(test_fp8_ignored_layers),
        cmocka_unit_test(test_nvfp4_named_projections),
        cmocka_unit_test(test_nemotron_h_excluded_attention),
        cmocka_unit_test(test_mtp_layers_excluded),
        cmocka_unit_test(test_nvfp4_header),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
