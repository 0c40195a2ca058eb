/*
 * test_codec.c - request decoding (pointers, hints, types), config reading,
 * problem bodies, and the seeded catalog's consistency: every model's stored
 * config must reproduce its published parameter count exactly.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "api/codec.h"
#include "api/codec_inference.h"
#include "api/service.h"
#include "catalog.h"
#include "formats/jsonv.h"
#include "formats/problem.h"
#include "gs/runtime.h"
#include "gs/units.h"
#include "readers/models.h"
#include "test_files.h"
#include "test_service.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static struct test_service fixture;

static int setup_group(void **state)
{
    (void)state;
    return test_service_open(&fixture, "gs-codec", true);
}

static int teardown_group(void **state)
{
    (void)state;
    test_service_close(&fixture);
    return 0;
}

/* Runs one estimate; returns the response or NULL with *p filled. */
static json_t *estimate(const char *request_text, struct problem *p)
{
    json_error_t jerr;
    json_t *request = json_loads(request_text, 0, &jerr);
    assert_non_null(request);
    json_t *response = NULL;
    problem_init(p);
    int rc = service_estimate(fixture.service, request, &response, p);
    json_decref(request);
    return rc == 0 ? response : NULL;
}

static json_int_t get_int(json_t *root, const char *path)
{
    /* path like "per_gpu.weights_bytes" */
    char buf[128];
    snprintf(buf, sizeof(buf), "%s", path);
    json_t *cur = root;
    for (char *tok = strtok(buf, "."); tok != NULL; tok = strtok(NULL, "."))
        cur = json_object_get(cur, tok);
    if (!json_is_integer(cur))
        fail_msg("%s is not an integer", path);
    return json_integer_value(cur);
}

/* The value of the assumption `name` of an answer, or -1 without it; whether `list` (assumptions
 * or warnings) has an entry whose `key` is `name` (both defined below, beside entry_named). */
static json_int_t assumption_value(const json_t *answer, const char *name);
static bool names(const json_t *list, const char *key, const char *name);
/* Whether the response warns `code` (defined below). */
static bool has_warning(json_t *response, const char *code);
/* The entry of `list` whose `key` is `name`, or NULL (defined below). */
static const json_t *entry_named(const json_t *list, const char *key, const char *name);

static void expect_error(const char *request, int status, const char *pointer, const char *needle)
{
    struct problem p;
    json_t *r = estimate(request, &p);
    if (r != NULL)
        fail_msg("expected an error for %s", request);
    assert_int_equal(p.status, status);
    for (size_t i = 0; i < p.errors.count; i++) {
        if (strcmp(p.errors.items[i].pointer, pointer) == 0 &&
            (needle == NULL || strstr(p.errors.items[i].detail, needle) != NULL))
            return;
    }
    for (size_t i = 0; i < p.errors.count; i++)
        fprintf(stderr, "  %s: %s\n", p.errors.items[i].pointer, p.errors.items[i].detail);
    fail_msg("no error at %s mentioning \"%s\" for %s", pointer, needle ? needle : "", request);
}

/* Seed consistency: the count computed from each stored config equals the
 * published count stored beside it (sources in db/migrations/0002_seed.sql). */
static void test_seed_configs_reproduce_published_counts(void **state)
{
    (void)state;
    struct catalog_snapshot *s = NULL;
    assert_int_equal(catalog_snapshot_load(fixture.catalog, &s, NULL), GS_OK);
    for (size_t i = 0; i < s->model_count; i++) {
        json_t *config = json_loads(s->models[i].config_json, 0, NULL);
        assert_non_null(config);
        struct gs_arch arch;
        struct gs_param_count count;
        assert_int_equal(models_read(config, "", &arch, NULL), GS_OK);
        assert_int_equal(gs_arch_count_params(&arch, &count, NULL), GS_OK);
        if (count.total != s->models[i].parameters)
            fail_msg("%s: config gives %llu, published %llu", s->models[i].id,
                     (unsigned long long)count.total, (unsigned long long)s->models[i].parameters);
        assert_string_equal(arch.model_type, s->models[i].family);
        json_decref(config);
    }
    catalog_snapshot_free(s);
}

/* The issue's acceptance cases, through the same path the API uses. */
static void test_acceptance_examples(void **state)
{
    (void)state;
    struct problem p;
    json_t *r = estimate(
        "{\"model\":{\"parameters\":7000000000},\"mode\":\"training\",\"precision\":{\"weights\":\"fp32\"}}",
        &p);
    assert_non_null(r);
    assert_int_equal(get_int(r, "per_gpu.weights_bytes"), 28000000000LL);
    assert_int_equal(get_int(r, "per_gpu.gradients_bytes"), 28000000000LL);
    assert_int_equal(get_int(r, "per_gpu.optimizer_bytes"), 56000000000LL);
    assert_int_equal(get_int(r, "gpu_count"), 1);
    json_decref(r);

    r = estimate("{\"model\":\"llama-3.1-8b\",\"gpu\":\"h100-sxm-80gb\"}", &p);
    assert_non_null(r);
    assert_int_equal(get_int(r, "model.parameters"), 8030261248LL);
    assert_string_equal(json_string_value(json_object_get(json_object_get(r, "model"), "source")),
                        "catalog");
    assert_int_equal(get_int(r, "per_gpu.weights_bytes"), 16060522496LL);
    json_t *fit = json_object_get(r, "fit");
    assert_true(json_is_true(json_object_get(fit, "fits")));
    assert_int_equal(get_int(r, "fit.usable_bytes"), 85029615042LL);
    assert_int_equal(get_int(r, "fit.headroom_bytes"),
                     85029615042LL - get_int(r, "per_gpu.total_bytes"));
    json_decref(r);
}

/* A Llama-3-8B config.json pasted as is (with keys gpusizer ignores) gives
 * 8,030,261,248, the meta-llama checkpoint's count (docs/parameter-counts.md,
 * Llama and Mistral). */
static void test_config_model(void **state)
{
    (void)state;
    struct problem p;
    json_t *r = estimate(
        "{\"model\":{\"config\":{\"architectures\":[\"LlamaForCausalLM\"],\"model_type\":\"llama\","
        "\"hidden_size\":4096,\"intermediate_size\":14336,\"num_hidden_layers\":32,"
        "\"num_attention_heads\":32,\"num_key_value_heads\":8,\"vocab_size\":128256,"
        "\"bos_token_id\":128000,\"rope_theta\":500000.0,\"head_dim\":null}},\"precision\":{\"weights\":\"fp16\"}}",
        &p);
    assert_non_null(r);
    assert_int_equal(get_int(r, "model.parameters"), 8030261248LL);
    assert_int_equal(get_int(r, "model.breakdown.lm_head"), 128256LL * 4096LL);
    json_decref(r);
}

/* Published parameter counts for every supported family, read from
 * config.json as published (aliases such as n_embd and d_model, and the
 * configuration classes' defaults, included). `active` is checked where a
 * published figure follows gpusizer's convention (docs/parameter-counts.md,
 * Active parameters: routed experts beyond top-k and an untied input embedding
 * excluded); 0 skips it. The formulas per family are in the same file. */
struct published_config {
    const char *model;
    const char *config;
    long long total;
    long long active;
    const char *source;
};

static const struct published_config published_configs[] = {
    {"gpt2", "{\"model_type\":\"gpt2\",\"n_embd\":768,\"n_layer\":12,\"n_head\":12,\"n_inner\":null,"
             "\"n_positions\":1024,\"vocab_size\":50257}",
     124439808LL, 0, "GPT-2 124M: num_parameters() of the HF gpt2 checkpoint, 124,439,808"},
    {"gpt2-xl", "{\"model_type\":\"gpt2\",\"n_embd\":1600,\"n_layer\":48,\"n_head\":25,"
                "\"n_positions\":1024,\"vocab_size\":50257}",
     1557611200LL, 0, "num_parameters() of the HF gpt2-xl checkpoint: 1,557,611,200"},
    {"EleutherAI/pythia-70m", "{\"model_type\":\"gpt_neox\",\"hidden_size\":512,\"num_hidden_layers\":6,"
                              "\"num_attention_heads\":8,\"intermediate_size\":2048,\"vocab_size\":50304,"
                              "\"max_position_embeddings\":2048,\"tie_word_embeddings\":false,"
                              "\"use_parallel_residual\":true}",
     70426624LL, 0, "Pythia model table / sum(p.numel()) of the HF checkpoint: 70,426,624"},
    {"facebook/opt-125m", "{\"model_type\":\"opt\",\"hidden_size\":768,\"num_hidden_layers\":12,"
                          "\"num_attention_heads\":12,\"ffn_dim\":3072,\"vocab_size\":50272,"
                          "\"max_position_embeddings\":2048,\"word_embed_proj_dim\":768,"
                          "\"do_layer_norm_before\":true}",
     125239296LL, 0, "HF model.num_parameters() of facebook/opt-125m: 125,239,296"},
    {"facebook/opt-350m (projections, no final norm)",
     "{\"model_type\":\"opt\",\"hidden_size\":1024,\"num_hidden_layers\":24,\"num_attention_heads\":16,"
     "\"ffn_dim\":4096,\"vocab_size\":50272,\"max_position_embeddings\":2048,"
     "\"word_embed_proj_dim\":512,\"do_layer_norm_before\":false}",
     331196416LL, 0, "HF model.num_parameters() of facebook/opt-350m: 331,196,416"},
    {"facebook/opt-1.3b", "{\"model_type\":\"opt\",\"hidden_size\":2048,\"num_hidden_layers\":24,"
                          "\"num_attention_heads\":32,\"ffn_dim\":8192,\"vocab_size\":50272,"
                          "\"max_position_embeddings\":2048,\"word_embed_proj_dim\":2048}",
     1315758080LL, 0, "HF model.num_parameters() of facebook/opt-1.3b: 1,315,758,080"},
    {"bigscience/bloom-560m", "{\"model_type\":\"bloom\",\"hidden_size\":1024,\"n_layer\":24,\"n_head\":16,"
                              "\"vocab_size\":250880}",
     559214592LL, 0, "BigScience model card of bloom-560m: 559,214,592 parameters"},
    {"bigscience/bloom-7b1", "{\"model_type\":\"bloom\",\"n_embed\":4096,\"n_layer\":30,\"num_attention_heads\":32,"
                             "\"vocab_size\":250880}",
     7069016064LL, 0, "BigScience model card of bloom-7b1: 7,069,016,064 parameters"},
    {"tiiuae/falcon-7b (MQA, parallel attention, tied)",
     "{\"model_type\":\"falcon\",\"hidden_size\":4544,\"n_head\":71,\"n_layer\":32,\"multi_query\":true,"
     "\"parallel_attn\":true,\"bias\":false,\"new_decoder_architecture\":false,\"vocab_size\":65024}",
     6921720704LL, 0, "tied head counted once (the Hub's 7,217,189,760 stores lm_head twice)"},
    {"mistralai/Mixtral-8x7B-v0.1", "{\"model_type\":\"mixtral\",\"hidden_size\":4096,\"num_hidden_layers\":32,"
                                    "\"num_attention_heads\":32,\"num_key_value_heads\":8,"
                                    "\"intermediate_size\":14336,\"num_local_experts\":8,"
                                    "\"num_experts_per_tok\":2,\"vocab_size\":32000}",
     46702792704LL, 12748853248LL, "Mixtral-8x7B checkpoint total; active less the input embedding"},
    {"Qwen/Qwen1.5-MoE-A2.7B", "{\"model_type\":\"qwen2_moe\",\"hidden_size\":2048,\"num_hidden_layers\":24,"
                               "\"num_attention_heads\":16,\"num_key_value_heads\":16,"
                               "\"intermediate_size\":5632,\"moe_intermediate_size\":1408,"
                               "\"shared_expert_intermediate_size\":5632,\"num_experts\":60,"
                               "\"num_experts_per_tok\":4,\"decoder_sparse_step\":1,"
                               "\"mlp_only_layers\":[],\"vocab_size\":151936,\"tie_word_embeddings\":false}",
     14315784192LL, 0, "keras-hub preset qwen1.5_moe_2.7b_en params: 14,315,784,192"},
    {"Qwen/Qwen3-30B-A3B", "{\"model_type\":\"qwen3_moe\",\"hidden_size\":2048,\"num_hidden_layers\":48,"
                           "\"num_attention_heads\":32,\"num_key_value_heads\":4,\"head_dim\":128,"
                           "\"intermediate_size\":6144,\"moe_intermediate_size\":768,\"num_experts\":128,"
                           "\"num_experts_per_tok\":8,\"decoder_sparse_step\":1,\"mlp_only_layers\":[],"
                           "\"vocab_size\":151936,\"tie_word_embeddings\":false}",
     30532122624LL, 0, "safetensors index total of Qwen/Qwen3-30B-A3B: 30,532,122,624"},
    {"deepseek-ai/DeepSeek-V3", "{\"model_type\":\"deepseek_v3\",\"hidden_size\":7168,\"num_hidden_layers\":61,"
                                "\"num_attention_heads\":128,\"num_key_value_heads\":128,\"q_lora_rank\":1536,"
                                "\"kv_lora_rank\":512,\"qk_nope_head_dim\":128,\"qk_rope_head_dim\":64,"
                                "\"v_head_dim\":128,\"intermediate_size\":18432,\"moe_intermediate_size\":2048,"
                                "\"n_routed_experts\":256,\"n_shared_experts\":1,\"num_experts_per_tok\":8,"
                                "\"first_k_dense_replace\":3,\"moe_layer_freq\":1,\"vocab_size\":129280,"
                                "\"tie_word_embeddings\":false}",
     671026404352LL, 36625603584LL, "DeepSeek-V3 report, arXiv 2412.19437 (671B / 37B activated)"},
    {"deepseek-ai/DeepSeek-V2", "{\"model_type\":\"deepseek_v2\",\"hidden_size\":5120,\"num_hidden_layers\":60,"
                                "\"num_attention_heads\":128,\"q_lora_rank\":1536,\"kv_lora_rank\":512,"
                                "\"qk_nope_head_dim\":128,\"qk_rope_head_dim\":64,\"v_head_dim\":128,"
                                "\"intermediate_size\":12288,\"moe_intermediate_size\":1536,"
                                "\"n_routed_experts\":160,\"n_shared_experts\":2,\"num_experts_per_tok\":6,"
                                "\"first_k_dense_replace\":1,\"moe_layer_freq\":1,\"vocab_size\":102400}",
     235741434880LL, 20851512320LL, "DeepSeek-V2 paper, arXiv 2405.04434 (236B / 21B)"},
    {"deepseek-ai/DeepSeek-V2-Lite (no q LoRA)",
     "{\"model_type\":\"deepseek_v2\",\"hidden_size\":2048,\"num_hidden_layers\":27,"
     "\"num_attention_heads\":16,\"q_lora_rank\":null,\"kv_lora_rank\":512,\"qk_nope_head_dim\":128,"
     "\"qk_rope_head_dim\":64,\"v_head_dim\":128,\"intermediate_size\":10944,"
     "\"moe_intermediate_size\":1408,\"n_routed_experts\":64,\"n_shared_experts\":2,"
     "\"num_experts_per_tok\":6,\"first_k_dense_replace\":1,\"vocab_size\":102400}",
     15706484224LL, 2451435008LL, "DeepSeek-V2-Lite model card (15.7B / 2.4B)"},
    {"t5-small", "{\"model_type\":\"t5\",\"d_model\":512,\"d_kv\":64,\"num_heads\":8,\"d_ff\":2048,"
                 "\"num_layers\":6,\"vocab_size\":32128,\"feed_forward_proj\":\"relu\"}",
     60506624LL, 0, "HF model card table / num_parameters() of t5-small: 60,506,624"},
    {"t5-large", "{\"model_type\":\"t5\",\"d_model\":1024,\"d_kv\":64,\"num_heads\":16,\"d_ff\":4096,"
                 "\"num_layers\":24,\"num_decoder_layers\":24,\"vocab_size\":32128}",
     737668096LL, 0, "HF model card table of t5-large: 737,668,096"},
    {"google/flan-t5-base (gated, untied)",
     "{\"model_type\":\"t5\",\"d_model\":768,\"d_kv\":64,\"num_heads\":12,\"d_ff\":2048,\"num_layers\":12,"
     "\"num_decoder_layers\":12,\"vocab_size\":32128,\"feed_forward_proj\":\"gated-gelu\","
     "\"tie_word_embeddings\":false}",
     247577856LL, 0, "model.num_parameters() of google/flan-t5-base: 247,577,856"},
    {"bert-base-uncased (BertModel, with pooler)",
     "{\"model_type\":\"bert\",\"hidden_size\":768,\"num_hidden_layers\":12,\"num_attention_heads\":12,"
     "\"intermediate_size\":3072,\"vocab_size\":30522,\"max_position_embeddings\":512,"
     "\"type_vocab_size\":2}",
     109482240LL, 0, "sum(p.numel()) of BertModel bert-base-uncased: 109,482,240"},
};

static void test_published_counts_from_configs(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof(published_configs) / sizeof(published_configs[0]); i++) {
        const struct published_config *pc = &published_configs[i];
        char request[2048];
        snprintf(request, sizeof(request), "{\"model\":{\"config\":%s}}", pc->config);
        struct problem p;
        json_t *r = estimate(request, &p);
        if (r == NULL)
            fail_msg("%s: %s %s", pc->model, p.errors.count ? p.errors.items[0].pointer : "",
                     p.errors.count ? p.errors.items[0].detail : p.title);
        if (get_int(r, "model.parameters") != pc->total)
            fail_msg("%s: got %lld, published %lld (%s)", pc->model,
                     (long long)get_int(r, "model.parameters"), pc->total, pc->source);
        if (pc->active != 0 && get_int(r, "model.active_parameters") != pc->active)
            fail_msg("%s: active %lld, published %lld (%s)", pc->model,
                     (long long)get_int(r, "model.active_parameters"), pc->active, pc->source);
        json_t *b = json_object_get(json_object_get(r, "model"), "breakdown");
        long long sum = 0;
        const char *key;
        json_t *v;
        /* every component but the MTP layers and the buffers sums to parameters */
        json_object_foreach(b, key, v) if (strcmp(key, "mtp") != 0 && strcmp(key, "buffers") != 0)
            sum += json_integer_value(v);
        assert_int_equal(sum, pc->total);
        assert_true(get_int(r, "model.largest_module_parameters") <= pc->total);
        json_decref(r);
    }
}

/* Family defaults from transformers: a Gemma-7B config without head_dim or
 * tie_word_embeddings still counts 8,537,680,896 (GemmaConfig defaults
 * head_dim=256, tie_word_embeddings=True; docs/parameter-counts.md, Gemma
 * and Gemma-2). */
static void test_gemma_config_defaults(void **state)
{
    (void)state;
    struct problem p;
    json_t *r = estimate("{\"model\":{\"config\":{\"model_type\":\"gemma\",\"hidden_size\":3072,"
                         "\"intermediate_size\":24576,\"num_hidden_layers\":28,"
                         "\"num_attention_heads\":16,\"num_key_value_heads\":16,"
                         "\"vocab_size\":256000}}}",
                         &p);
    assert_non_null(r);
    assert_int_equal(get_int(r, "model.parameters"), 8537680896LL);
    assert_int_equal(get_int(r, "model.breakdown.lm_head"), 0);
    json_decref(r);
}

/* LoRA through the API: a lora section alone means LoRA. Llama-3.1-8B, r = 16
 * on q_proj and v_proj: 32 layers x 16 x [(4096 + 4096) + (4096 + 1024)]
 * = 6,815,744 adapter parameters (r (d_in + d_out) per adapted linear, Hu et
 * al. 2021, LoRA; docs/training-memory.md, LoRA and QLoRA). */
static void test_lora_through_the_api(void **state)
{
    (void)state;
    struct problem p;
    json_t *r = estimate("{\"model\":\"llama-3.1-8b\",\"mode\":\"training\",\"training\":{\"lora\":"
                         "{\"rank\":16,\"targets\":[\"q_proj\",\"v_proj\"]}}}",
                         &p);
    assert_non_null(r);
    assert_int_equal(get_int(r, "model.trainable_parameters"), 6815744LL);
    assert_string_equal(json_string_value(json_object_get(json_object_get(r, "training"), "method")),
                        "lora");
    /* fp32 adapters (PEFT autocast): 4 + 4 + 8 bytes each; the bf16 base 2 bytes each */
    assert_int_equal(get_int(r, "per_gpu.gradients_bytes"), 4 * 6815744LL);
    assert_int_equal(get_int(r, "per_gpu.weights_bytes"), 2 * 8030261248LL + 4 * 6815744LL);
    json_decref(r);
}

/* PEFT's own spelling of the every-linear shorthand (target_modules="all-linear",
 * peft/utils/constants.py INCLUDE_LINEAR_LAYERS_SHORTHAND) names the same targets as
 * all_linear, alone or in a list: Llama-3.1-8B, r = 8, every linear of the 32 layers:
 * 8 x 32 x [(4096 + 4096) + 2 (4096 + 1024) + (4096 + 4096) + 2 (4096 + 14336)
 * + (14336 + 4096)] = 20,971,520. Other spellings stay 400s. */
static void test_lora_all_linear_spellings(void **state)
{
    (void)state;
    static const char *const requests[] = {
        "{\"model\":\"llama-3.1-8b\",\"mode\":\"training\",\"training\":{\"lora\":"
        "{\"rank\":8,\"targets\":\"all-linear\"}}}",
        "{\"model\":\"llama-3.1-8b\",\"mode\":\"training\",\"training\":{\"lora\":"
        "{\"rank\":8,\"targets\":[\"all_linear\"]}}}",
        "{\"model\":\"llama-3.1-8b\",\"mode\":\"training\",\"training\":{\"lora\":"
        "{\"rank\":8,\"targets\":[\"q_proj\",\"all-linear\"]}}}",
    };
    struct problem p;
    for (size_t i = 0; i < sizeof(requests) / sizeof(requests[0]); i++) {
        json_t *r = estimate(requests[i], &p);
        assert_non_null(r);
        assert_int_equal(get_int(r, "model.trainable_parameters"), 20971520LL);
        json_decref(r);
    }
    expect_error("{\"model\":\"llama-3.1-8b\",\"mode\":\"training\",\"training\":"
                 "{\"lora\":{\"targets\":\"all-linears\"}}}",
                 400, "/training/lora/targets", "all_linear");
}

/* PEFT casts an adapter's input to the adapter's dtype only where they differ
 * (tuners_utils.py BaseTunerLayer._cast_input_dtype), so fp32 adapters (PEFT's
 * autocast_adapter_dtype, the default regime) keep an fp32 copy of their input each, and
 * adapters a 16-bit regime keeps in bf16 (TRL's SFTTrainer for a quantized model) keep none.
 * Llama-3.1-8B LoRA r 16 on every linear, 1 x 2,048, no dropout, per layer and token: the fp32
 * copies are q, k, v 3 x 4 x 4096, o 4 x 4096, gate and up 2 x 4 x 4096, down 4 x 14336 =
 * 155,648 B; bf16 adapters keep the 16-bit inputs, shared: the attention's and the MLP's
 * 2 x 4096 each and down's 2 x 14336 = 45,056 (o_proj's input, the attention output, is the
 * kernel's either way). 110,592 x 2,048 x 32 layers = 7,247,757,312 B less. */
static void test_lora_16bit_adapters_cast_nothing(void **state)
{
    (void)state;
#define LORA_REGIME(regime)                                                                        \
    "{\"model\":\"llama-3.1-8b\",\"mode\":\"training\",\"training\":{\"batch_size\":1,"            \
    "\"sequence_length\":2048,\"lora\":{\"rank\":16,\"targets\":\"all_linear\"}" regime "}}"
    struct problem p;
    json_t *fp32 = estimate(LORA_REGIME(""), &p);
    assert_non_null(fp32);
    static const char *const sixteen[] = {LORA_REGIME(",\"regime\":\"bf16_pure\""),
                                          LORA_REGIME(",\"regime\":\"bf16_mixed\"")};
    for (size_t i = 0; i < 2; i++) {
        json_t *r = estimate(sixteen[i], &p);
        assert_non_null(r);
        assert_int_equal(get_int(fp32, "per_gpu.activations_bytes") -
                             get_int(r, "per_gpu.activations_bytes"),
                         7247757312LL);
        json_decref(r);
    }
#undef LORA_REGIME
    json_decref(fp32);
}

/* training.prepare_model_for_kbit_training through the API: QLoRA only; Llama-3.1-8B's
 * embedding and head (2 x 128,256 x 4,096) and 65 norms of 4,096 = 1,050,939,392 parameters go
 * from 2 to 4 bytes (test_kbit_prepared in tests/core/test_framework.c writes the rest out). */
static void test_kbit_prepared_field(void **state)
{
    (void)state;
    struct problem p;
    json_t *r = estimate("{\"model\":\"llama-3.1-8b\",\"mode\":\"training\",\"precision\":"
                         "{\"weights\":\"int4\"},\"training\":{\"method\":\"qlora\","
                         "\"batch_size\":1,\"sequence_length\":512,"
                         "\"prepare_model_for_kbit_training\":true}}",
                         &p);
    assert_non_null(r);
    assert_int_equal(assumption_value(r, "kbit_prepared_fp32_bytes"), 2101878784LL);
    json_decref(r);
    expect_error("{\"model\":\"llama-3.1-8b\",\"mode\":\"training\",\"training\":"
                 "{\"method\":\"lora\",\"prepare_model_for_kbit_training\":true}}",
                 400, "/training/prepare_model_for_kbit_training", "method qlora");
    expect_error("{\"model\":\"llama-3.1-8b\",\"mode\":\"training\",\"training\":"
                 "{\"prepare_model_for_kbit_training\":1}}",
                 400, "/training/prepare_model_for_kbit_training", NULL);
}

/* training.loss "chunked_nll" (TRL's SFTTrainer loss_type): echoed, and refused where TRL
 * refuses it (an adapter on lm_head) or where it does not run (another framework's loop);
 * test_trl_chunked_nll in tests/core/test_training.c writes its bytes out. */
static void test_trl_chunked_nll_field(void **state)
{
    (void)state;
    struct problem p;
    json_t *r = estimate("{\"model\":\"llama-3.1-8b\",\"mode\":\"training\",\"training\":"
                         "{\"batch_size\":1,\"sequence_length\":8192,\"loss\":\"chunked_nll\","
                         "\"lora\":{\"rank\":16}}}",
                         &p);
    assert_non_null(r);
    assert_string_equal(json_string_value(json_object_get(json_object_get(r, "training"), "loss")),
                        "chunked_nll");
    json_decref(r);
    static const char *const refused[] = {
        "{\"model\":\"llama-3.1-8b\",\"mode\":\"training\",\"training\":{\"loss\":"
        "\"chunked_nll\",\"lora\":{\"targets\":[\"q_proj\",\"lm_head\"]}}}",
        "{\"model\":\"llama-3.1-8b\",\"mode\":\"training\",\"training\":{\"loss\":"
        "\"chunked_nll\",\"framework\":\"torchtune\"}}",
    };
    expect_error(refused[0], 400, "/training/loss", "lm_head");
    expect_error(refused[1], 400, "/training/loss", "torchtune");
}

/* training.trl_version (TRL's SFTTrainer): its defaults wherever the request says nothing,
 * echoed in the answer's training section as the estimate used them, each with its note; the
 * request's own fields kept; a model named by its id loaded in fp32 from 0.27, and before it
 * as transformers' from_pretrained loads it (fp32 on 4.x, the checkpoint's dtype from 5.0).
 * tests/core/test_trl.c checks each release's row. */
static const char *str_at(const json_t *answer, const char *section, const char *key)
{
    return json_string_value(json_object_get(json_object_get(answer, section), key));
}

/* The training settings and precision an answer says it sized. */
static void assert_sized(const json_t *answer, const char *checkpointing, const char *padding,
                         const char *loss, const char *weights, const char *regime)
{
    assert_string_equal(str_at(answer, "training", "activation_checkpointing"), checkpointing);
    assert_string_equal(str_at(answer, "training", "padding"), padding);
    assert_string_equal(str_at(answer, "training", "loss"), loss);
    assert_string_equal(str_at(answer, "precision", "weights"), weights);
    assert_string_equal(str_at(answer, "precision", "regime"), regime);
}

static void test_trl_version_field(void **state)
{
    (void)state;
    struct problem p;
    json_t *r = estimate("{\"model\":\"llama-3.1-8b\",\"mode\":\"training\",\"training\":"
                         "{\"batch_size\":2,\"sequence_length\":1024,\"lora\":{\"rank\":16},"
                         "\"trl_version\":\"1.7.1\"}}",
                         &p);
    assert_non_null(r);
    assert_string_equal(str_at(r, "training", "trl_version"), "1.7");
    assert_sized(r, "full", "longest", "chunked_nll", "fp32", "amp");
    const json_t *notes = json_object_get(r, "assumptions");
    static const char *const applied[] = {"trl_autocast", "trl_gradient_checkpointing",
                                          "trl_chunked_nll", "trl_padding"};
    for (size_t i = 0; i < sizeof(applied) / sizeof(applied[0]); i++)
        assert_true(names(notes, "name", applied[i]));
    assert_false(names(notes, "name", "trl_bf16_adapters"));
    assert_false(names(notes, "name", "trl_batch_size")); /* the request gave its shape */
    const json_t *precision = entry_named(notes, "name", "precision");
    assert_non_null(strstr(json_string_value(json_object_get(precision, "detail")), "fp32"));
    json_decref(r);

    /* the README's example: no shape given, TRL's 8 x 1,024 */
    r = estimate("{\"model\":\"llama-3.1-8b\",\"mode\":\"training\",\"training\":"
                 "{\"trl_version\":\"1.7\",\"lora\":{\"rank\":16}}}",
                 &p);
    assert_non_null(r);
    assert_int_equal(get_int(r, "training.batch_size"), 8);
    assert_int_equal(get_int(r, "training.sequence_length"), 1024);
    assert_true(names(json_object_get(r, "assumptions"), "name", "trl_batch_size"));
    assert_true(names(json_object_get(r, "assumptions"), "name", "trl_sequence_length"));
    json_decref(r);

    /* the request's own fields win, and leave no note */
    r = estimate("{\"model\":\"llama-3.1-8b\",\"mode\":\"training\",\"precision\":{\"weights\":"
                 "\"bf16\"},\"training\":{\"batch_size\":2,\"sequence_length\":1024,\"lora\":{},"
                 "\"regime\":\"bf16_pure\",\"activation_checkpointing\":\"none\",\"padding\":"
                 "\"max_length\",\"loss\":\"fp32\",\"trl_version\":\"1.7\"}}",
                 &p);
    assert_non_null(r);
    assert_sized(r, "none", "max_length", "fp32", "bf16", "bf16_pure");
    notes = json_object_get(r, "assumptions");
    assert_false(names(notes, "name", "trl_autocast"));
    assert_false(names(notes, "name", "trl_gradient_checkpointing"));
    assert_false(names(notes, "name", "trl_padding"));
    json_decref(r);

    /* before 0.27 the model loads as from_pretrained does */
    static const struct {
        const char *extra, *weights;
    } loads[] = {{"", "bf16"},
                 {",\"framework_version\":\"5.2\"", "bf16"},
                 {",\"framework\":\"transformers\",\"framework_version\":\"4.57\"", "fp32"}};
    for (size_t i = 0; i < sizeof(loads) / sizeof(loads[0]); i++) {
        char body[512];
        snprintf(body, sizeof(body),
                 "{\"model\":\"llama-3.1-8b\",\"mode\":\"training\",\"training\":{\"lora\":{},"
                 "\"framework\":\"transformers\",\"trl_version\":\"0.26\"%s}}",
                 loads[i].extra);
        r = estimate(body, &p);
        assert_non_null(r);
        assert_string_equal(str_at(r, "precision", "weights"), loads[i].weights);
        json_decref(r);
    }

    expect_error("{\"model\":\"llama-3.1-8b\",\"mode\":\"training\",\"training\":"
                 "{\"trl_version\":1.7}}",
                 400, "/training/trl_version", "TRL release");
    expect_error("{\"model\":\"llama-3.1-8b\",\"mode\":\"training\",\"training\":"
                 "{\"trl_version\":\"latest\"}}",
                 400, "/training/trl_version", "TRL release");
    expect_error("{\"model\":\"llama-3.1-8b\",\"mode\":\"training\",\"training\":"
                 "{\"trl_version\":\"1.7\",\"framework\":\"torchtune\"}}",
                 400, "/training/trl_version", "torchtune");
}

/* Dropout masks only when the config's dropout is non-zero (1-byte masks as
 * Korthikanti et al. 2022, Table 2, count them; docs/training-peaks.md, What
 * each layer saves and Attention: `training.attn_implementation`). GPT-2
 * small (h 768, 12 layers, 12 heads), s = 1024, b = 1, eager
 * attention: attn_pdrop/resid_pdrop 0.1 add per layer two 1-byte hidden masks
 * (2 * 1024 * 768 = 1,572,864) and, on the attention scores, a 1-byte mask
 * plus the 2-byte dropout output (3 * 12 * 1024^2 = 37,748,736), and once the
 * embedding-dropout mask (embd_pdrop, GPT2Model.drop: 1024 * 768 = 786,432):
 * 12 * 39,321,600 + 786,432 = 472,645,632 bytes more than with 0.0. The embedding's dropout
 * has its own key: with embd_pdrop 0.0 and the others 0.1, its mask alone is gone. */
static void test_dropout_from_config(void **state)
{
    (void)state;
#define GPT2_DROPOUT(p, e)                                                                         \
    "{\"model\":{\"config\":{\"model_type\":\"gpt2\",\"n_embd\":768,\"n_layer\":12,"               \
    "\"n_head\":12,\"vocab_size\":50257,\"attn_pdrop\":" p ",\"resid_pdrop\":" p                   \
    ",\"embd_pdrop\":" e "}},"                                                                     \
    "\"mode\":\"training\",\"training\":{\"batch_size\":1,\"sequence_length\":1024,"               \
    "\"flash_attention\":false}}"
    const char *with = GPT2_DROPOUT("0.1", "0.1");
    const char *without = GPT2_DROPOUT("0.0", "0.0");
    const char *layers_only = GPT2_DROPOUT("0.1", "0.0");
    struct problem p;
    json_t *a = estimate(with, &p);
    json_t *b = estimate(without, &p);
    assert_non_null(a);
    assert_non_null(b);
    assert_int_equal(get_int(a, "per_gpu.activations_bytes") - get_int(b, "per_gpu.activations_bytes"),
                     472645632LL);
    json_t *c = estimate(layers_only, &p);
    assert_non_null(c);
    assert_int_equal(get_int(a, "per_gpu.activations_bytes") -
                         get_int(c, "per_gpu.activations_bytes"),
                     786432LL);
    json_decref(a);
    json_decref(b);
    json_decref(c);
}

/* StarCoder2 names its dropouts its own way (modeling_starcoder2.py): residual_dropout on
 * Starcoder2Attention's output after o_proj and on Starcoder2MLP's after c_proj, and
 * embedding_dropout on Starcoder2Model's embeddings (bigcode/starcoder2-7b: 0.1 each). A
 * two-layer shape (hidden 256) trained in full, 1 x 1,024 tokens, SDPA: each dropout keeps a
 * 1-byte mask, 2 x 2 layers x 1,024 x 256 = 1,048,576 B on the residual branches and
 * 1,024 x 256 = 262,144 B on the embeddings, which train; under LoRA (q and v) the embeddings
 * are frozen and their dropout keeps no mask (its input needs no gradient). */
static void test_starcoder2_dropout(void **state)
{
    (void)state;
#define STARCODER2(residual, embedding, lora)                                                    \
    "{\"model\":{\"config\":{\"model_type\":\"starcoder2\",\"architectures\":"                 \
    "[\"Starcoder2ForCausalLM\"],\"hidden_size\":256,\"intermediate_size\":1024,"                \
    "\"num_hidden_layers\":2,\"num_attention_heads\":4,\"num_key_value_heads\":2,"                \
    "\"vocab_size\":1000,\"hidden_act\":\"gelu_pytorch_tanh\",\"use_bias\":true,"               \
    "\"residual_dropout\":" residual ",\"embedding_dropout\":" embedding "}},"                    \
    "\"mode\":\"training\",\"training\":{\"batch_size\":1,\"sequence_length\":1024,"              \
    "\"framework\":\"transformers\"" lora "}}"
    static const struct {
        const char *residual, *embedding, *lora;
        json_int_t more;
    } cases[] = {{"0.1", "0.1", "", 1048576 + 262144},
                 {"0.1", "0.0", "", 1048576},
                 {"0.0", "0.1", "", 262144},
                 {"0.1", "0.1", ",\"method\":\"lora\"", 1048576}};
    struct problem p;
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        char with[1024], without[1024];
        snprintf(with, sizeof(with), STARCODER2("%s", "%s", "%s"), cases[i].residual,
                 cases[i].embedding, cases[i].lora);
        snprintf(without, sizeof(without), STARCODER2("0.0", "0.0", "%s"), cases[i].lora);
        json_t *a = estimate(with, &p), *b = estimate(without, &p);
        assert_non_null(a);
        assert_non_null(b);
        assert_int_equal(get_int(a, "training.phases.backward_start.activations_bytes") -
                             get_int(b, "training.phases.backward_start.activations_bytes"),
                         cases[i].more);
        json_decref(a);
        json_decref(b);
    }
#undef STARCODER2
}

/* Whisper's dropouts by their keys (modeling_whisper.py WhisperEncoderLayer and
 * WhisperDecoderLayer): `dropout` after the attentions and after fc2, and on the embeddings;
 * `activation_dropout` only after fc1's activation. A small Whisper shape (d_model 256, 2 + 2
 * layers, ffn 1,024) trained in full, batch 1 x 64 target tokens, without checkpointing; the
 * encoder runs its 1,500 positions whatever the transcript's length (WhisperEncoder.forward
 * refuses other feature lengths). 1-byte masks:
 * - activation_dropout: 1,024 x (2 x 1,500 + 2 x 64) = 3,203,072 B;
 * - dropout: the encoder layers' two residual masks 2 x 256 x 1,500 x 2 = 1,536,000, the
 *   decoder layers' three (self-attention, cross-attention, fc2) 3 x 256 x 64 x 2 = 98,304, the
 *   decoder's embeddings 256 x 64 = 16,384 and the encoder's input 256 x 1,500 = 384,000:
 *   2,034,688 B. */
static void test_whisper_dropout_keys(void **state)
{
    (void)state;
#define WHISPER(dropout, activation)                                                               \
    "{\"model\":{\"config\":{\"model_type\":\"whisper\",\"architectures\":"                        \
    "[\"WhisperForConditionalGeneration\"],\"d_model\":256,\"encoder_layers\":2,"                  \
    "\"decoder_layers\":2,\"encoder_attention_heads\":4,\"decoder_attention_heads\":4,"            \
    "\"encoder_ffn_dim\":1024,\"decoder_ffn_dim\":1024,\"num_mel_bins\":80,"                       \
    "\"vocab_size\":1000,\"max_source_positions\":1500,\"max_target_positions\":448,"              \
    "\"activation_function\":\"gelu\",\"dropout\":" dropout ",\"activation_dropout\":" activation  \
    "}},\"mode\":\"training\",\"training\":{\"batch_size\":1,"                                     \
    "\"sequence_length\":64,\"framework\":\"transformers\"}}"
    static const char *const bodies[] = {WHISPER("0.0", "0.0"), WHISPER("0.0", "0.1"),
                                         WHISPER("0.1", "0.0"), WHISPER("0.1", "0.1")};
#undef WHISPER
    json_int_t act[4];
    struct problem p;
    for (size_t i = 0; i < 4; i++) {
        json_t *r = estimate(bodies[i], &p);
        assert_non_null(r);
        act[i] = get_int(r, "training.phases.backward_start.activations_bytes");
        json_decref(r);
    }
    assert_int_equal(act[1] - act[0], 3203072);
    assert_int_equal(act[2] - act[0], 2034688);
    assert_int_equal(act[3] - act[0], 3203072 + 2034688);
}

/* Images through Qwen2.5-VL-7B's vision tower (depth 32, 1,280 wide; a token 4 patches of 1,176
 * pixel values), LoRA on all linears (the tower's too) with gradient checkpointing, 2 images of
 * 1,024 tokens in a 4,096-token sample: the fp32 pixels 2 x 4,096 x 1,176 x 4 = 38,535,168 and
 * each checkpointed vision layer's bf16 input, 32 x 8,192 x 1,280 x 2 = 671,088,640: 709,623,808.
 * With the tower frozen (freeze_vision_tower) it keeps nothing: the pixels alone. The request's
 * images are echoed; image_tokens below 1, images or a frozen tower on a text model are 400s at
 * their pointers. */
static void test_training_images(void **state)
{
    (void)state;
#define VL(model, images)                                                                          \
    "{\"model\":\"" model "\",\"mode\":\"training\",\"training\":{\"method\":\"lora\","            \
    "\"batch_size\":1,\"sequence_length\":4096,\"activation_checkpointing\":\"full\"" images "}}"
    struct problem p;
    json_t *r = estimate(
        VL("qwen2.5-vl-7b-instruct", ",\"images_per_sample\":2,\"image_tokens\":1024"), &p);
    assert_non_null(r);
    assert_int_equal(assumption_value(r, "vision_activation_bytes"), 709623808);
    assert_int_equal(get_int(r, "training.images_per_sample"), 2);
    assert_int_equal(get_int(r, "training.image_tokens"), 1024);
    json_decref(r);
    /* frozen (freeze_vision_tower), the tower keeps nothing: the pixels alone */
    r = estimate(VL("qwen2.5-vl-7b-instruct", ",\"images_per_sample\":2,\"image_tokens\":1024,"
                                              "\"freeze_vision_tower\":true"),
                 &p);
    assert_non_null(r);
    assert_int_equal(assumption_value(r, "vision_activation_bytes"), 38535168);
    assert_true(
        json_is_true(json_object_get(json_object_get(r, "training"), "freeze_vision_tower")));
    json_decref(r);
    /* Qwen3-VL-8B (depth 27, 1,152 wide, patch 16: 1,536 pixel values a patch), a full fine-tune:
     * pixels 8,192 x 1,536 x 4 = 50,331,648, their bf16 cast 25,165,824, 27 checkpoints of 8,192 x
     * 1,152 x 2 = 509,607,936: 585,105,408 */
    r = estimate("{\"model\":\"qwen3-vl-8b-instruct\",\"mode\":\"training\",\"training\":{"
                 "\"batch_size\":1,\"sequence_length\":4096,\"activation_checkpointing\":\"full\","
                 "\"images_per_sample\":2,\"image_tokens\":1024}}",
                 &p);
    assert_non_null(r);
    assert_int_equal(assumption_value(r, "vision_activation_bytes"), 585105408);
    json_decref(r);
    /* Qwen3-Omni's thinker runs Qwen3-VL-MoE's tower (Qwen3OmniMoeVisionEncoder), here of
     * Qwen3-VL-8B's shape: the same request, the same bytes; without image_tokens a 400 (its
     * processor's largest image is not read) */
    r = estimate("{\"model\":\"qwen3-omni-30b-a3b-instruct\",\"mode\":\"training\",\"training\":{"
                 "\"batch_size\":1,\"sequence_length\":4096,\"activation_checkpointing\":\"full\","
                 "\"images_per_sample\":2,\"image_tokens\":1024}}",
                 &p);
    assert_non_null(r);
    assert_int_equal(assumption_value(r, "vision_activation_bytes"), 585105408);
    assert_false(has_warning(r, "vision_activations_not_estimated"));
    json_decref(r);
    expect_error("{\"model\":\"qwen3-omni-30b-a3b-instruct\",\"mode\":\"training\",\"training\":{"
                 "\"batch_size\":1,\"sequence_length\":4096,\"images_per_sample\":2}}",
                 400, "/training/image_tokens", "give the tokens each image takes");
    /* Gemma 3 4B's SigLIP tower (27 layers, 1,152 wide, patch 14 over 896 x 896: 4,096 patches
     * of 588 pixel values a crop, pooled to 256 tokens), LoRA on all linears (the tower's q/k/v,
     * out_proj, fc1 and fc2 too) with checkpointing, 2 images of one crop each: pixels 2 x 4,096
     * x 588 x 4 = 19,267,584 and 27 checkpoints of 2 x 4,096 x 1,152 x 2 = 509,607,936:
     * 528,875,520. 512 tokens an image is the image and a pan-and-scan crop, two sequences of
     * 4,096 patches: twice that. A count that is no whole number of crops is a 400. */
    r = estimate(VL("gemma-3-4b-it", ",\"images_per_sample\":2"), &p);
    assert_non_null(r);
    assert_int_equal(assumption_value(r, "vision_activation_bytes"), 528875520);
    assert_int_equal(get_int(r, "training.image_tokens"), 256);
    assert_false(has_warning(r, "vision_activations_not_estimated"));
    json_decref(r);
    r = estimate(VL("gemma-3-4b-it", ",\"images_per_sample\":2,\"image_tokens\":512"), &p);
    assert_non_null(r);
    assert_int_equal(assumption_value(r, "vision_activation_bytes"), 1057751040);
    json_decref(r);
    expect_error(VL("gemma-3-4b-it", ",\"images_per_sample\":1,\"image_tokens\":300"), 400,
                 "/training/image_tokens", "multiple of 256");
    /* Mistral Small 3.1's Pixtral tower (24 layers, 1,024 wide, patch 14 over 1,540 x 1,540:
     * 110^2 = 12,100 patches of 588 pixel values an image, merged 2 x 2 into 3,025 tokens) runs
     * every image of the batch as one sequence. 2 images, LoRA on all linears, checkpointing:
     * pixels 2 x 12,100 x 588 x 4 = 56,918,400, 24 checkpoints of 24,200 x 1,024 x 2 =
     * 1,189,478,400, and under SDPA the block-diagonal mask, 24,200^2 x 2 = 1,171,280,000, an
     * input of every checkpointed layer: 2,417,676,800. Under flash-attn (cu_seqlens) no mask:
     * 1,246,396,800. Without checkpointing the mask is SDPA's to keep, once (24,200 is a multiple
     * of 8: no copy per call): flash-attn's figure and 1,171,280,000 more. One image, 12,100
     * patches, is not 8-aligned: every layer's SDPA call pads its own copy, which the kernel
     * keeps (preprocess_mask), 24 x 12,100 x 12,104 x 2 = 7,030,003,200 over flash-attn's. */
#define MISTRAL3_N(images, attn, checkpointing)                                                    \
    "{\"model\":\"mistral-small-3.1-24b-instruct\",\"mode\":\"training\",\"training\":{"           \
    "\"method\":\"lora\",\"batch_size\":1,\"sequence_length\":8192,\"images_per_sample\":" images  \
    ",\"attn_implementation\":\"" attn "\",\"activation_checkpointing\":\"" checkpointing "\"}}"
#define MISTRAL3(attn, checkpointing) MISTRAL3_N("2", attn, checkpointing)
    static const struct {
        const char *body;
        json_int_t vision;
    } pixtral[] = {
        {MISTRAL3("sdpa", "full"), 2417676800},
        {MISTRAL3("flash_attention_2", "full"), 1246396800},
    };
    for (size_t i = 0; i < sizeof(pixtral) / sizeof(pixtral[0]); i++) {
        r = estimate(pixtral[i].body, &p);
        assert_non_null(r);
        assert_int_equal(assumption_value(r, "vision_activation_bytes"), pixtral[i].vision);
        json_decref(r);
    }
    r = estimate(MISTRAL3("sdpa", "none"), &p);
    assert_non_null(r);
    const json_int_t masked = assumption_value(r, "vision_activation_bytes");
    json_decref(r);
    r = estimate(MISTRAL3("flash_attention_2", "none"), &p);
    assert_non_null(r);
    assert_int_equal(masked - assumption_value(r, "vision_activation_bytes"), 1171280000);
    json_decref(r);
    r = estimate(MISTRAL3_N("1", "sdpa", "none"), &p);
    assert_non_null(r);
    const json_int_t copied = assumption_value(r, "vision_activation_bytes");
    json_decref(r);
    r = estimate(MISTRAL3_N("1", "flash_attention_2", "none"), &p);
    assert_non_null(r);
    assert_int_equal(copied - assumption_value(r, "vision_activation_bytes"), 7030003200);
    json_decref(r);
#undef MISTRAL3
#undef MISTRAL3_N
    r = estimate(VL("qwen2.5-vl-7b-instruct", ""), &p);
    assert_non_null(r);
    assert_int_equal(assumption_value(r, "vision_activation_bytes"), -1);
    assert_null(json_object_get(json_object_get(r, "training"), "image_tokens"));
    json_decref(r);
    expect_error(VL("qwen2.5-vl-7b-instruct", ",\"images_per_sample\":1,\"image_tokens\":0"), 400,
                 "/training/image_tokens", NULL);
    expect_error(VL("llama-3.1-8b", ",\"images_per_sample\":1,\"image_tokens\":64"), 400,
                 "/training/images_per_sample", "no vision tower");
    expect_error(VL("llama-3.1-8b", ",\"freeze_vision_tower\":true"), 400,
                 "/training/freeze_vision_tower", "no vision tower");
#undef VL
}

/* PEFT 0.19 and later (0.20 for all-linear) turn targets naming a converted MoE type's expert
 * projections or router into LoRA on its fused parameters under transformers 5.x
 * (_convert_peft_config_moe: a ParamWrapper on gate_up_proj at rank 2r, down_proj and the
 * router's gate.weight), sized as such through the API. Qwen3-30B-A3B (48 layers of 2,048, 128
 * experts of 768) at r 16: per layer 2 x 16 x 128 x (2,048 + 2 x 768) + 16 x 128 x (768 +
 * 2,048) + 16 x (2,048 + 128) = 20,482,048, times 48, in lora_adapter_parameters beside q, k, v
 * and o's 48 x 16 x (2 x (2,048 + 4,096) + 2 x (2,048 + 512)) = 13,369,344; one layer's merged
 * weights 128 x 2,048 x (2 x 768 + 768) + 128 x 2,048 elements at 2 bytes. Qwen1.5-MoE-A2.7B's
 * shared expert (gate_proj, up_proj and down_proj of 5,632 over 2,048, 24 layers) loses its
 * adapters to the conversion: 3 x 16 x (2,048 + 5,632) x 24 = 8,847,360. peft_version 0.18 sizes
 * the experts frozen. */
static void test_lora_fused_experts_peft(void **state)
{
    (void)state;
#define MOE_LORA(model, extra, targets)                                                            \
    "{\"model\":\"" model "\",\"mode\":\"training\",\"training\":{\"method\":\"lora\","            \
    "\"batch_size\":1,\"sequence_length\":2048,\"lora\":{\"rank\":16" extra                        \
    ",\"targets\":" targets "}}}"
    struct problem p;
    json_t *r = estimate(MOE_LORA("qwen3-30b-a3b", "", "\"all_linear\""), &p);
    assert_non_null(r);
    assert_int_equal(assumption_value(r, "peft_expert_adapter_parameters"), 48 * 20482048);
    assert_int_equal(assumption_value(r, "lora_adapter_parameters"), 48 * 20482048 + 13369344);
    assert_int_equal(assumption_value(r, "peft_expert_merged_weight_bytes"),
                     2 * (128LL * 2048 * 3 * 768 + 128 * 2048));
    assert_int_equal(assumption_value(r, "peft_converted_module_adapters"), -1);
    assert_true(has_warning(r, "lora_experts_param_wrapper"));
    json_decref(r);
    /* PEFT 0.18: the experts frozen, q, k, v and o alone */
    r = estimate(MOE_LORA("qwen3-30b-a3b", ",\"peft_version\":\"0.18.1\"", "\"all_linear\""), &p);
    assert_non_null(r);
    assert_int_equal(assumption_value(r, "lora_adapter_parameters"), 13369344);
    assert_int_equal(assumption_value(r, "peft_expert_adapter_parameters"), -1);
    assert_false(has_warning(r, "lora_experts_param_wrapper"));
    json_decref(r);
    /* the attention projections alone convert nothing */
    r = estimate(MOE_LORA("qwen3-30b-a3b", "", "[\"q_proj\",\"v_proj\"]"), &p);
    assert_non_null(r);
    assert_false(has_warning(r, "lora_experts_param_wrapper"));
    assert_int_equal(assumption_value(r, "peft_expert_adapter_parameters"), -1);
    json_decref(r);
    /* transformers 4.x keeps each expert an nn.Linear, which PEFT wraps as such: no conversion */
    r = estimate("{\"model\":\"qwen3-30b-a3b\",\"mode\":\"training\",\"training\":{\"method\":"
                 "\"lora\",\"batch_size\":1,\"sequence_length\":2048,\"framework\":"
                 "\"transformers\",\"framework_version\":\"4.57\",\"lora\":{\"rank\":16}}}",
                 &p);
    assert_non_null(r);
    assert_false(has_warning(r, "lora_experts_param_wrapper"));
    json_decref(r);
    /* GPT-OSS is no type PEFT converts */
    r = estimate(MOE_LORA("gpt-oss-20b", "", "\"all_linear\""), &p);
    assert_non_null(r);
    assert_false(has_warning(r, "lora_experts_param_wrapper"));
    json_decref(r);
    /* a shared expert's linears lose the names PEFT converts */
    r = estimate(MOE_LORA("qwen1.5-moe-a2.7b-chat", "", "\"all_linear\""), &p);
    assert_non_null(r);
    assert_int_equal(assumption_value(r, "peft_converted_module_adapters"), 8847360);
    json_decref(r);
    /* PEFT's own errors: one of the fused pair alone, 0.19's all-linear, what ParamWrapper
     * refuses; before 0.19 the names reach no nn.Linear of 5.x's model */
    expect_error(MOE_LORA("qwen3-30b-a3b", "", "[\"q_proj\",\"up_proj\"]"), 400,
                 "/training/lora/targets", "without also targeting gate_proj");
    expect_error(MOE_LORA("qwen3-30b-a3b", ",\"peft_version\":\"0.19\"", "\"all_linear\""), 400,
                 "/training/lora/targets", "PEFT 0.20 resolves all-linear first");
    expect_error(MOE_LORA("qwen3-30b-a3b", ",\"dropout\":0.05", "[\"down_proj\"]"), 400,
                 "/training/lora/dropout", "lora_dropout != 0");
    expect_error(MOE_LORA("qwen3-30b-a3b", ",\"use_dora\":true", "[\"gate\"]"), 400,
                 "/training/lora/use_dora", "use_dora=True");
    expect_error(MOE_LORA("qwen3-30b-a3b", ",\"peft_version\":\"0.18\"",
                          "[\"gate_proj\",\"up_proj\",\"down_proj\"]"),
                 400, "/training/lora/targets", "PEFT before 0.19");
    expect_error(MOE_LORA("qwen3-30b-a3b", ",\"peft_version\":\"0.x\"", "[\"q_proj\"]"), 400,
                 "/training/lora/peft_version", NULL);
    /* GPT-OSS's experts, fused in every release and in no conversion, are no target at all */
    expect_error(MOE_LORA("gpt-oss-20b", "", "[\"down_proj\"]"), 400, "/training/lora/targets",
                 "as fused 3D parameters, not the nn.Linear modules LoRA wraps");
#undef MOE_LORA
}

/* Gemma 4's vision and audio towers build their projections as Gemma4ClippableLinear, an
 * nn.Module holding its nn.Linear at .linear (modeling_gemma4.py), which stock PEFT refuses as a
 * target ("Target module Gemma4ClippableLinear(...) is not supported": LoraModel.
 * _create_new_module; PEFT issue #3129), while its inner linear ("q_proj.linear", as PEFT matches
 * a name's dotted tail) and all-linear adapt. Gemma 4 E4B at r 16: the language model's 42 layers
 * of 2,560 (35 sliding, q_proj to 8 x 256 = 2,048; 7 full, to 8 x 512 = 4,096; v_proj in the 24
 * layers that compute their own KV, 20 sliding to 2 x 256 = 512 and 4 full to 2 x 512 = 1,024):
 * 16 x (35 x 4,608 + 7 x 6,656 + 20 x 3,072 + 4 x 3,584) = 16 x 283,648 = 4,538,368; the
 * towers' q_proj and v_proj (vision 16 layers of 768, audio 12 of 1,024): 16 x (16 x 2 x 1,536
 * + 12 x 2 x 2,048) = 1,572,864, refused under the bare names and adapted as their .linear. */
static void test_lora_wrapped_linears(void **state)
{
    (void)state;
#define GEMMA4_LORA(targets)                                                                       \
    "{\"model\":\"gemma-4-e4b\",\"mode\":\"training\",\"training\":{\"method\":\"lora\","          \
    "\"batch_size\":1,\"sequence_length\":2048,\"lora\":{\"rank\":16,\"targets\":" targets "}}}"
    struct problem p;
    json_t *r = estimate(GEMMA4_LORA("[\"q_proj\",\"v_proj\"]"), &p);
    assert_non_null(r);
    assert_int_equal(assumption_value(r, "lora_adapter_parameters"), 4538368);
    assert_int_equal(assumption_value(r, "lora_refused_wrapper_parameters"), 1572864);
    assert_true(has_warning(r, "lora_targets_reach_wrapped_linears"));
    json_decref(r);
    r = estimate(
        GEMMA4_LORA("[\"q_proj\",\"v_proj\",\"q_proj.linear\",\"self_attn.v_proj.linear\"]"), &p);
    assert_non_null(r);
    assert_int_equal(assumption_value(r, "lora_adapter_parameters"), 4538368 + 1572864);
    assert_int_equal(assumption_value(r, "lora_refused_wrapper_parameters"), -1);
    assert_false(has_warning(r, "lora_targets_reach_wrapped_linears"));
    json_decref(r);
    /* "linear" names every inner linear: vision 16 x (4 x 1,536 + 3 x 3,840), audio 12 x (4 x
     * 2,048 + 4 x 5,120 + 3,072 + 2,048), times 16 */
    r = estimate(GEMMA4_LORA("[\"linear\"]"), &p);
    assert_non_null(r);
    assert_int_equal(assumption_value(r, "lora_adapter_parameters"),
                     16 * (16 * (4 * 1536 + 3 * 3840) + 12 * (4 * 2048 + 4 * 5120 + 3072 + 2048)));
    json_decref(r);
    r = estimate(GEMMA4_LORA("\"all_linear\""), &p);
    assert_non_null(r);
    assert_false(has_warning(r, "lora_targets_reach_wrapped_linears"));
    json_decref(r);
    /* the nn.Linear modules outside the layers adapt as the layers' do: per_layer_model_projection
     * (2,560 -> 42 x 256) and the two embedders' embedding_projection (768 and 1,536 -> 2,560) */
    r = estimate(GEMMA4_LORA("[\"per_layer_model_projection\",\"embedding_projection\"]"), &p);
    assert_non_null(r);
    assert_int_equal(assumption_value(r, "lora_adapter_parameters"),
                     16 * ((2560 + 10752) + (768 + 2560) + (1536 + 2560)));
    json_decref(r);
    /* a name reaching nothing else is a 400 naming the inner linear; PEFT's suffix rule holds
     * at a dot ("attn.v_proj.linear" is no tail of "self_attn.v_proj.linear") */
    expect_error(GEMMA4_LORA("[\"post\"]"), 400, "/training/lora/targets", "\"post.linear\"");
    expect_error(GEMMA4_LORA("[\"attn.v_proj.linear\"]"), 400, "/training/lora/targets",
                 "v_proj.linear, o_proj.linear");
#undef GEMMA4_LORA
}

/* Routed experts under LoRA by transformers release: before 5.0 each expert is nn.Linear modules
 * (modeling_qwen3_moe.py: self.experts = nn.ModuleList of Qwen3MoeMLP), which PEFT's all-linear
 * adapts, and gpusizer counts their adapters; 5.x fuses them into 3D parameters PEFT before 0.19
 * leaves alone (peft_version 0.18 here; test_lora_fused_experts_peft has the later releases).
 * Qwen3-30B-A3B (hidden 2,048, 128 experts of 768, 48 layers), r16: each expert's gate_proj and
 * up_proj 16 x (2,048 + 768) and down_proj 16 x (768 + 2,048), 135,168 parameters, x 128 x 48 =
 * 830,472,192 among the adapters; q_proj alone none; on 5.x none; GPT-OSS, whose experts are 3D
 * parameters in 4.x too, none. Qwen1.5-MoE-A2.7B (hidden 2,048, 60 experts of 1,408 beside a
 * shared expert of 5,632, 24 layers) with down_proj named: the shared expert's, 16 x (5,632 +
 * 2,048) x 24 = 2,949,120, and the routed experts' 16 x (1,408 + 2,048) x 60 x 24 = 79,626,240:
 * 82,575,360. Qwen3-30B-A3B has no dense MLP: on 4.x gate_proj names its routed experts' alone
 * (16 x (2,048 + 768) x 128 x 48 = 276,824,064), on 5.x no linear at all (a 400). */
static void test_expert_adapters_by_release(void **state)
{
    (void)state;
#define MOE_LORA(model, version, targets)                                                          \
    "{\"model\":\"" model "\",\"mode\":\"training\",\"training\":{\"method\":\"lora\","            \
    "\"batch_size\":1,\"sequence_length\":1024,\"framework\":\"transformers\","                    \
    "\"framework_version\":\"" version "\",\"lora\":{\"rank\":16,\"peft_version\":\"0.18\","       \
    "\"targets\":" targets "}}}"
    static const struct {
        const char *body;
        json_int_t experts;
    } cases[] = {
        {MOE_LORA("qwen3-30b-a3b", "4.46", "[\"all_linear\"]"), 830472192},
        {MOE_LORA("qwen1.5-moe-a2.7b-chat", "4.46", "[\"down_proj\"]"), 79626240},
        {MOE_LORA("qwen3-30b-a3b", "4.46", "[\"q_proj\"]"), 0},
        {MOE_LORA("qwen3-30b-a3b", "5.17", "[\"all_linear\"]"), 0},
        {MOE_LORA("gpt-oss-20b", "4.56", "[\"all_linear\"]"), 0},
        {MOE_LORA("qwen3-30b-a3b", "4.46", "[\"gate_proj\"]"), 276824064},
    };
    struct problem p;
    json_int_t all_experts = 0, all_dense = 0;
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        json_t *r = estimate(cases[i].body, &p);
        assert_non_null(r);
        assert_int_equal(assumption_value(r, "expert_adapter_parameters"),
                         cases[i].experts > 0 ? cases[i].experts : -1);
        if (i == 0)
            all_experts = assumption_value(r, "lora_adapter_parameters");
        if (i == 1)
            assert_int_equal(assumption_value(r, "lora_adapter_parameters"), 82575360);
        if (i == 3)
            all_dense = assumption_value(r, "lora_adapter_parameters");
        if (i == 5)
            assert_int_equal(assumption_value(r, "lora_adapter_parameters"), 276824064);
        json_decref(r);
    }
    /* and the router's, an nn.Linear on 4.x and a Qwen3MoeTopKRouter's bare weight on 5.x:
     * 16 x (2,048 + 128) x 48 = 1,671,168 */
    assert_int_equal(all_experts - all_dense, 830472192 + 1671168);
    /* a target that names only routed experts names no linear of 5.x's model */
    json_t *r = estimate(MOE_LORA("qwen3-30b-a3b", "5.17", "[\"gate_proj\"]"), &p);
    assert_null(r);
    assert_int_equal(p.status, 400);
#undef MOE_LORA
}

/* T5-3B (d_model 1024, 32 heads x 128 = 4,096, d_ff 16,384, relu, dropout_rate 0.1 by default)
 * under autocast over fp32 weights (regime amp), batch 4 x 512 tokens, by hand from
 * modeling_t5.py (T5LayerNorm, T5Attention, T5DenseActDense, T5LayerCrossAttention), per token:
 * - each T5LayerNorm over the fp32 residual keeps its input (pow's operand: .to(float32) of an fp32
 *   tensor is the tensor itself) and the fp32 product the weight multiplies: 8 x 1,024 = 8,192;
 * - autocast casts that fp32 output to bf16 once per linear call, and each linear keeps its copy:
 *   2 x 1,024 = 2,048 a call (q, k, v and wi; in the decoder also the cross-attention's q, and its
 *   k and v over the encoder's output);
 * - Q and K (the scores' matmul), V (the matmul with the probabilities) in bf16: 3 x 8,192; o's
 *   input, the contiguous copy of the attention output: 8,192;
 * - a score (32 heads x 512 keys a token): softmax(scores.float()) keeps its fp32 output (4), the
 *   dropout its mask (1) and the matmul with V the dropout output (2): 7 x 16,384 = 114,688;
 * - the MLP: relu's output (2), the dropout mask (1), wo's bf16 copy of the fp32 cast the model
 *   makes for its fp32 weight (2): 5 x 16,384 = 81,920;
 * - a 1-byte dropout mask on each residual branch: two in an encoder layer, three in a decoder
 *   layer (after self-attention, cross-attention and the MLP).
 * Encoder layer: 2 x 8,192 + 4 x 2,048 + 32,768 + 114,688 + 81,920 + 2 x 1,024 = 256,000;
 * decoder layer: 3 x 8,192 + 7 x 2,048 + 2 x (32,768 + 114,688) + 81,920 + 3 x 1,024 = 418,816;
 * x 2,048 tokens. The H200 run of this shape (tests/fixtures/calibration/h200-training.json,
 * t5-3b-amp-b4s512) is within 0.1% with them. Measured here as what one more layer of each
 * stack adds at backward start. */
static void test_t5_layers_under_autocast(void **state)
{
    (void)state;
    static const char *const shapes[] = {"24, \"num_decoder_layers\": 24",
                                         "23, \"num_decoder_layers\": 24",
                                         "24, \"num_decoder_layers\": 23"};
    json_int_t bytes[3];
    for (size_t i = 0; i < 3; i++) {
        char request[1024];
        snprintf(
            request, sizeof(request),
            "{\"model\":{\"config\":{\"model_type\":\"t5\",\"d_model\":1024,\"d_ff\":16384,"
            "\"d_kv\":128,\"num_heads\":32,\"vocab_size\":32128,\"feed_forward_proj\":"
            "\"relu\",\"num_layers\": %s}},\"mode\":\"training\",\"precision\":{\"weights\":"
            "\"fp32\"},\"training\":{\"batch_size\":4,\"sequence_length\":512,"
            "\"regime\":\"amp\",\"framework\":\"transformers\",\"framework_version\":\"5.17\"}}",
            shapes[i]);
        struct problem p;
        json_t *r = estimate(request, &p);
        assert_non_null(r);
        bytes[i] = get_int(r, "training.phases.backward_start.activations_bytes");
        json_decref(r);
    }
    assert_int_equal(bytes[0] - bytes[1], 256000LL * 2048);
    assert_int_equal(bytes[0] - bytes[2], 418816LL * 2048);
}

/* torchtitan's patch releases through the API: "0.2" is 0.2.0, "0.2.1" and "0.2.2" each select
 * their own row (the training_framework assumption names it), and a release past the last
 * modelled one its latest row. */
static void test_torchtitan_patch_releases(void **state)
{
    (void)state;
    static const struct {
        const char *version, *label;
    } cases[] = {{"0.2", "torchtitan 0.2.0"},
                 {"0.2.1", "torchtitan 0.2.1"},
                 {"0.2.2", "torchtitan 0.2.2"},
                 {"0.2.9", "torchtitan 0.2.2"},
                 {"0.1.0", "torchtitan 0.1"}};
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        char request[512];
        snprintf(request, sizeof(request),
                 "{\"model\":{\"config\":{\"model_type\":\"llama\",\"hidden_size\":4096,"
                 "\"intermediate_size\":14336,\"num_hidden_layers\":32,"
                 "\"num_attention_heads\":32,\"num_key_value_heads\":8,\"vocab_size\":128256}},"
                 "\"mode\":\"training\",\"training\":{\"batch_size\":1,\"sequence_length\":"
                 "4096,\"framework\":\"torchtitan\",\"framework_version\":\"%s\"}}",
                 cases[i].version);
        struct problem p;
        json_t *r = estimate(request, &p);
        assert_non_null(r);
        const json_t *a =
            entry_named(json_object_get(r, "assumptions"), "name", "training_framework");
        assert_non_null(a);
        assert_string_equal(json_string_value(json_object_get(a, "detail")), cases[i].label);
        json_decref(r);
    }
}

/* Parity through the API with a pasted Llama-2-7B config on 8 GPUs: the
 * DeepSpeed rows print as DeepSpeed's estimate_zero2/zero3_model_states_mem_needs
 * compute them ("26.67GB" per GPU for ZeRO-2 without offload, "14.61GB" for
 * ZeRO-3 without offload; docs/parity.md, DeepSpeed's ZeRO estimators). */
static void test_deepspeed_parity_through_the_api(void **state)
{
    (void)state;
    struct problem p;
    json_t *r = estimate(
        "{\"model\":{\"config\":{\"model_type\":\"llama\",\"hidden_size\":4096,\"intermediate_size\":11008,"
        "\"num_hidden_layers\":32,\"num_attention_heads\":32,\"vocab_size\":32000}},"
        "\"mode\":\"training\",\"parallelism\":{\"data\":8},\"parity\":\"deepspeed\"}",
        &p);
    assert_non_null(r);
    json_t *rows = json_object_get(json_object_get(r, "parity"), "rows");
    assert_int_equal(json_array_size(rows), 8);
    assert_string_equal(json_string_value(json_object_get(json_array_get(rows, 1), "printed")),
                        "301.23GB | 26.67GB | offload_optimizer=none");
    assert_string_equal(json_string_value(json_object_get(json_array_get(rows, 6), "printed")),
                        "5.86GB | 14.61GB | offload_param=none, offload_optimizer=none, zero_init=1");
    json_decref(r);
}

static void test_validation_errors(void **state)
{
    (void)state;
    expect_error("[]", 400, "", "JSON object");
    expect_error("{}", 400, "/model", "required");
    expect_error("{\"model\":\"llama-3.1-8b\",\"precison\":{}}", 400, "/precison",
                 "did you mean \"precision\"");
    expect_error("{\"model\":\"llama-3.1-8b\",\"colour\":1}", 400, "/colour", "allowed here");
    expect_error("{\"model\":\"lama-3.1-8b\"}", 400, "/model", "did you mean \"llama-3.1-8b\"");
    expect_error("{\"model\":\"nope\"}", 400, "/model", "GET /v1/models");
    expect_error("{\"model\":\"llama-3.1-8b\",\"gpu\":\"h10\"}", 400, "/gpu", "did you mean");
    expect_error("{\"model\":\"llama-3.1-8b\",\"gpu\":5}", 400, "/gpu", "string");
    expect_error("{\"model\":42}", 400, "/model", "got an integer");
    expect_error("{\"model\":{\"parameters\":-5}}", 400, "/model/parameters", "at least 1");
    expect_error("{\"model\":{\"parameters\":1.5}}", 400, "/model/parameters", "whole number");
    expect_error("{\"model\":{\"parameters\":\"7B\"}}", 400, "/model/parameters", "integer");
    expect_error("{\"model\":{\"parameters\":1e30}}", 400, "/model/parameters", "at most");
    expect_error("{\"model\":{\"parameters\":7,\"config\":{}}}", 400, "/model", "not both");
    expect_error("{\"model\":{\"params\":7}}", 400, "/model/params", "did you mean \"parameters\"");
    expect_error("{\"model\":{\"config\":{\"model_type\":\"rwkv7\"}}}", 422,
                 "/model/config/model_type", "is not one gpusizer can read; supported: llama");
    expect_error("{\"model\":{\"config\":{\"model_type\":\"rwkv7\","
                 "\"architectures\":[\"Rwkv7ForCausalLM\"]}}}",
                 422, "/model/config/model_type", "{\"parameters\": N}");
    expect_error("{\"model\":{\"config\":{\"model_type\":\"llama\",\"hidden_size\":4096}}}", 400,
                 "/model/config/num_hidden_layers", "required");
    expect_error("{\"model\":{\"config\":{\"model_type\":\"llama\",\"hidden_size\":true,"
                 "\"num_hidden_layers\":1,\"num_attention_heads\":1,\"intermediate_size\":1,"
                 "\"vocab_size\":1}}}",
                 400, "/model/config/hidden_size", "integer");
    expect_error("{\"model\":{\"config\":{\"model_type\":\"llama\",\"hidden_size\":64,"
                 "\"num_hidden_layers\":1,\"num_attention_heads\":4,\"num_key_value_heads\":3,"
                 "\"intermediate_size\":1,\"vocab_size\":1}}}",
                 400, "/model/config/num_key_value_heads", "multiple");
    expect_error("{\"model\":\"llama-3.1-8b\",\"mode\":\"train\"}", 400, "/mode",
                 "did you mean \"training\"");
    expect_error("{\"model\":\"llama-3.1-8b\",\"precision\":\"bf16\"}", 400, "/precision", "object");
    expect_error("{\"model\":\"llama-3.1-8b\",\"precision\":{}}", 400, "/precision/weights",
                 "required");
    expect_error("{\"model\":\"llama-3.1-8b\",\"mode\":\"training\",\"precision\":{\"weights\":\"int4\"},"
                 "\"training\":{\"method\":\"full\"}}",
                 400, "/training/method", "lora or qlora");
    expect_error("{\"model\":{\"parameters\":7000000000},\"mode\":\"training\",\"precision\":{\"weights\":\"int4\"}}",
                 400, "/training/method", "architecture");
    expect_error("{\"model\":\"llama-3.1-8b\",\"training\":{\"batch_size\":1}}", 400, "/training",
                 "training");
    expect_error("{\"model\":\"llama-3.1-8b\",\"mode\":\"training\",\"training\":{\"batch\":1}}", 400,
                 "/training/batch", "did you mean \"batch_size\"");
    expect_error("{\"model\":\"llama-3.1-8b\",\"mode\":\"training\",\"parallelism\":{\"tensor\":3}}", 400,
                 "/parallelism/tensor", "divide");
    expect_error("{\"model\":\"llama-3.1-8b\",\"mode\":\"training\",\"training\":{\"framework\":"
                 "\"deepspeed\"},\"parallelism\":{\"pipeline\":5}}",
                 400, "/parallelism/pipeline", "32 layers");
    expect_error("{\"model\":\"llama-3.1-8b\",\"mode\":\"training\",\"training\":{\"framework\":"
                 "\"torchtune\"},\"parallelism\":{\"pipeline\":2}}",
                 400, "/parallelism/pipeline", "torchtune has no pipeline parallelism");
    /* transformers' stages are a device_map: one process, nothing beside it */
    expect_error("{\"model\":\"llama-3.1-8b\",\"mode\":\"training\",\"training\":{\"framework\":"
                 "\"transformers\"},\"parallelism\":{\"pipeline\":2,\"data\":2}}",
                 400, "/parallelism/data", "in any distributed mode");
    expect_error("{\"model\":\"llama-3.1-8b\",\"mode\":\"training\",\"parallelism\":{\"pipeline\":33}}",
                 400, "/parallelism/pipeline", "every stage needs at least one layer");
    expect_error("{\"model\":\"llama-3.1-8b\",\"mode\":\"training\",\"parallelism\":{\"zero_stage\":4}}", 400,
                 "/parallelism/zero_stage", "at most 3");
    expect_error("{\"model\":\"llama-3.1-8b\",\"mode\":\"training\",\"parallelism\":{\"zero_stage\":\"full_shrd\"}}",
                 400, "/parallelism/zero_stage", "did you mean \"full_shard\"");
    expect_error("{\"model\":\"llama-3.1-8b\",\"mode\":\"training\",\"training\":{\"method\":\"full\","
                 "\"lora\":{\"rank\":8}}}",
                 400, "/training/lora", "lora or qlora");
    expect_error("{\"model\":\"llama-3.1-8b\",\"overrides\":{\"fragmentation_fraction\":2}}", 400,
                 "/overrides/fragmentation_fraction", "from 0 to 1");
    /* the framework knobs (gs/framework.h) */
    expect_error("{\"model\":\"llama-3.1-8b\",\"mode\":\"training\",\"training\":{\"framework\":"
                 "\"torchtitn\"}}",
                 400, "/training/framework", "did you mean \"torchtitan\"");
    expect_error("{\"model\":\"llama-3.1-8b\",\"mode\":\"training\",\"training\":{"
                 "\"framework_version\":\"4.45\"}}",
                 400, "/training/framework_version", "transformers");
    expect_error("{\"model\":\"llama-3.1-8b\",\"mode\":\"training\",\"training\":{\"framework\":"
                 "\"transformers\",\"framework_version\":\"v4\"}}",
                 400, "/training/framework_version", "release");
    /* torchtitan's releases are 0.x ("0.0": its commits before 0.1.0); others have none */
    expect_error("{\"model\":\"llama-3.1-8b\",\"mode\":\"training\",\"training\":{\"framework\":"
                 "\"torchtitan\",\"framework_version\":\"latest\"}}",
                 400, "/training/framework_version", "torchtitan release");
    expect_error("{\"model\":\"llama-3.1-8b\",\"mode\":\"training\",\"training\":{\"framework\":"
                 "\"torchtune\",\"framework_version\":\"0.6\"}}",
                 400, "/training/framework_version", "torchtitan");
    expect_error("{\"model\":\"llama-3.1-8b\",\"mode\":\"training\",\"training\":{\"framework\":"
                 "\"transformers\",\"framework_version\":\"0.1\"}}",
                 400, "/training/framework_version", "release");
    expect_error("{\"model\":\"llama-3.1-8b\",\"mode\":\"training\",\"training\":{\"loss\":"
                 "\"fp16\"}}",
                 400, "/training/loss", "fp32");
    expect_error("{\"model\":\"llama-3.1-8b\",\"mode\":\"training\",\"training\":{\"compile\":1}}",
                 400, "/training/compile", "true or false");
    expect_error("{\"model\":\"llama-3.1-8b\",\"mode\":\"training\",\"training\":{\"lora\":{"
                 "\"dropout\":1.5}}}",
                 400, "/training/lora/dropout", "probability");
    expect_error("{\"model\":\"llama-3.1-8b\",\"mode\":\"training\",\"training\":{\"lora\":{"
                 "\"use_dora\":\"yes\"}}}",
                 400, "/training/lora/use_dora", "true or false");
    expect_error("{\"model\":\"llama-3.1-8b\",\"mode\":\"training\",\"parallelism\":{"
                 "\"fsdp_version\":2,\"fsdp_use_orig_params\":true}}",
                 400, "/parallelism/fsdp_use_orig_params", "FSDP1");
    expect_error("{\"model\":\"llama-3.1-8b\",\"mode\":\"training\",\"parallelism\":{"
                 "\"fsdp_version\":3}}",
                 400, "/parallelism/fsdp_version", "at most 2");
    expect_error("{\"model\":\"mixtral-8x7b-instruct-v0.1\",\"mode\":\"training\",\"parallelism\":{"
                 "\"expert_tensor\":0}}",
                 400, "/parallelism/expert_tensor", "at least 1");
    expect_error("{\"model\":\"mixtral-8x7b-instruct-v0.1\",\"mode\":\"training\",\"training\":{"
                 "\"framework\":\"megatron\"},\"parallelism\":{\"tensor\":2,\"expert\":2}}",
                 400, "/parallelism/expert", "--expert-tensor-parallel-size");
    expect_error("{\"model\":\"mixtral-8x7b-instruct-v0.1\",\"mode\":\"training\",\"training\":{"
                 "\"framework\":\"torchtitan\"},\"parallelism\":{\"tensor\":2,\"expert_tensor\":2}}",
                 400, "/parallelism/expert_tensor", "torchtitan");
    expect_error("{\"model\":\"mixtral-8x7b-instruct-v0.1\",\"mode\":\"training\",\"parallelism\":{"
                 "\"tensor\":2,\"expert\":2,\"expert_tensor\":2}}",
                 400, "/parallelism/expert", "expert_tensor 1 keeps experts whole");
    /* TGI has no pipeline stages */
    expect_error("{\"model\":\"llama-3.1-8b\",\"inference\":{\"engine\":\"tgi\","
                 "\"context_length\":8192},\"parallelism\":{\"pipeline\":2}}",
                 400, "/parallelism/pipeline", "tensor ranks only");
    /* parallelism.stage_layers: one count a stage, summing to the decoder layers (32 here) */
    expect_error("{\"model\":\"llama-3.1-8b\",\"mode\":\"training\",\"parallelism\":{"
                 "\"stage_layers\":[16,15]}}",
                 400, "/parallelism/stage_layers", "32 decoder layers");
    expect_error("{\"model\":\"llama-3.1-8b\",\"mode\":\"training\",\"parallelism\":{"
                 "\"pipeline\":4,\"stage_layers\":[16,16]}}",
                 400, "/parallelism/stage_layers", "pipeline is 4");
    expect_error("{\"model\":\"llama-3.1-8b\",\"mode\":\"training\",\"parallelism\":{"
                 "\"stage_layers\":[16,-1]}}",
                 400, "/parallelism/stage_layers/1", NULL);
    expect_error("{\"model\":\"llama-3.1-8b\",\"mode\":\"training\",\"parallelism\":{"
                 "\"stage_layers\":[]}}",
                 400, "/parallelism/stage_layers", "1 to 128");
    expect_error("{\"model\":{\"parameters\":7000000000},\"mode\":\"training\",\"parallelism\":{"
                 "\"stage_layers\":[16,16]}}",
                 400, "/parallelism/stage_layers", "architecture");
}

/* A variant's or hub id's name resolves to the catalog model with the same
 * tokens, with a model_resolved warning; a size that differs is a 400 with
 * a hint that keeps the size. */
static void test_model_names_by_tokens(void **state)
{
    (void)state;
    struct problem p;
    json_t *r = estimate("{\"model\":\"meta-llama/Llama-3.1-8B-Instruct\"}", &p);
    assert_non_null(r);
    assert_string_equal(json_string_value(json_object_get(json_object_get(r, "model"), "id")),
                        "llama-3.1-8b");
    bool warned = false;
    size_t i;
    const json_t *w;
    json_array_foreach(json_object_get(r, "warnings"), i, w) {
        warned |= strcmp(json_string_value(json_object_get(w, "code")), "model_resolved") == 0;
    }
    assert_true(warned);
    json_decref(r);
    /* a quantization suffix is set aside and sizes the weights (tests/server/test_names.c) */
    expect_error("{\"model\":\"Llama-3.1-70B-Instruct-abliterated\"}", 400, "/model",
                 "did you mean \"llama-3.1-70b\"");
    expect_error("{\"model\":\"llama-3.1-8b\",\"gpu\":\"V100\"}", 400, "/gpu",
                 "v100-sxm-16gb, v100-sxm-32gb");
}

/* True if the estimate's warnings carry `code`. */
static bool has_warning(json_t *response, const char *code)
{
    size_t i;
    json_t *w;
    json_array_foreach(json_object_get(response, "warnings"), i, w) {
        if (strcmp(json_string_value(json_object_get(w, "code")), code) == 0)
            return true;
    }
    return false;
}

/* Gemma 4 31B's ten full-attention layers have 32 heads of 512 over 4 KV heads: under SDPA they
 * are sized as transformers runs them from PR #46960 (K/V repeated, the memory-efficient kernel),
 * and the estimate says what releases before it keep more on torch's math kernel, the score
 * matrix in fp32 (torch >= 2.5's math kernel upcasts 16-bit inputs): 10 x 32 x 8,192^2 x 4 B =
 * 85,899,345,920 at one sequence of 8,192. Not under flash_attention_2 (no SDPA), nor in a 4.x
 * release without use_gqa_in_sdpa. In fp32 the math kernel runs every grouped layer of up to 256
 * (Llama 3.1 8B), and the estimate says so (sdpa_math_kernel); not in bf16. */
static void test_sdpa_wide_heads_warning(void **state)
{
    (void)state;
#define GEMMA4_REQUEST(training)                                                                   \
    "{\"model\":\"gemma-4-31b-it\",\"mode\":\"training\",\"training\":{\"batch_size\":1,"          \
    "\"sequence_length\":8192" training "}}"
    struct problem p;
    json_t *r = estimate(GEMMA4_REQUEST(""), &p);
    assert_non_null(r);
    assert_true(has_warning(r, "sdpa_head_dim_over_256"));
    assert_int_equal(assumption_value(r, "sdpa_math_kernel_scores_bytes"), 85899345920LL);
    assert_false(has_warning(r, "sdpa_math_kernel"));
    json_decref(r);
    r = estimate("{\"model\":\"llama-3.1-8b\",\"mode\":\"training\",\"precision\":{"
                 "\"weights\":\"fp32\"},\"training\":{\"batch_size\":1,\"sequence_length\":8192}}",
                 &p);
    assert_non_null(r);
    assert_true(has_warning(r, "sdpa_math_kernel"));
    json_decref(r);
    r = estimate(GEMMA4_REQUEST(",\"attn_implementation\":\"flash_attention_2\""), &p);
    assert_non_null(r);
    assert_false(has_warning(r, "sdpa_head_dim_over_256"));
    json_decref(r);
    r = estimate(GEMMA4_REQUEST(",\"framework\":\"transformers\",\"framework_version\":\"4.50\""),
                 &p);
    assert_non_null(r);
    assert_false(has_warning(r, "sdpa_head_dim_over_256"));
    json_decref(r);
#undef GEMMA4_REQUEST
}

/* training.attn_implementation takes transformers' names; flash_attention is its older
 * spelling (true: flash_attention_2, false: eager) and a disagreement is a 400; T5, whose
 * transformers code has only an eager path, is sized eager with a warning. */
static void test_attention_implementation(void **state)
{
    (void)state;
#define ATTN_REQUEST(training)                                                                     \
    "{\"model\":\"llama-3.1-8b\",\"mode\":\"training\",\"training\":{\"batch_size\":1,"              \
    "\"sequence_length\":1024" training "}}"
    struct problem p;
    json_t *r = estimate(ATTN_REQUEST(""), &p);
    assert_non_null(r);
    const json_t *t = json_object_get(r, "training");
    assert_string_equal(json_string_value(json_object_get(t, "attn_implementation")), "sdpa");
    assert_true(json_is_true(json_object_get(t, "flash_attention")));
    /* what backward starts on (the peak can be backward's end, where the embedding's gradient,
     * larger than a layer's working set, holds no activation) */
    const json_int_t sdpa = get_int(r, "training.phases.backward_start.activations_bytes");
    json_decref(r);

    r = estimate(ATTN_REQUEST(",\"attn_implementation\":\"eager\""), &p);
    assert_non_null(r);
    t = json_object_get(r, "training");
    assert_string_equal(json_string_value(json_object_get(t, "attn_implementation")), "eager");
    assert_true(json_is_false(json_object_get(t, "flash_attention")));
    assert_true(get_int(r, "training.phases.backward_start.activations_bytes") >
                sdpa); /* the score matrices */
    json_decref(r);

    r = estimate(ATTN_REQUEST(",\"flash_attention\":true"), &p);
    assert_non_null(r);
    assert_string_equal(json_string_value(json_object_get(json_object_get(r, "training"),
                                                          "attn_implementation")),
                        "flash_attention_2");
    json_decref(r);

    assert_null(estimate(ATTN_REQUEST(",\"flash_attention\":true,\"attn_implementation\":\"eager\""),
                         &p));
    assert_int_equal(p.status, 400);
    assert_string_equal(p.errors.items[0].pointer, "/training/flash_attention");
    assert_null(estimate(ATTN_REQUEST(",\"attn_implementation\":\"xformers\""), &p));
    assert_int_equal(p.status, 400);
    assert_string_equal(p.errors.items[0].pointer, "/training/attn_implementation");

    r = estimate("{\"model\":\"t5-small\",\"mode\":\"training\",\"training\":{"
                 "\"batch_size\":1,\"sequence_length\":512}}",
                 &p);
    assert_non_null(r);
    assert_string_equal(json_string_value(json_object_get(json_object_get(r, "training"),
                                                          "attn_implementation")),
                        "eager");
    assert_true(has_warning(r, "attention_eager_only"));
    json_decref(r);

    /* GPT-OSS has no SDPA path (attention sinks): transformers' default runs it eager; a flash
     * or flex request keeps the kernel */
    r = estimate("{\"model\":\"gpt-oss-20b\",\"mode\":\"training\",\"training\":{"
                 "\"batch_size\":1,\"sequence_length\":2048}}",
                 &p);
    assert_non_null(r);
    assert_string_equal(
        json_string_value(json_object_get(json_object_get(r, "training"), "attn_implementation")),
        "eager");
    assert_true(has_warning(r, "attention_no_sdpa"));
    json_decref(r);
    r = estimate("{\"model\":\"gpt-oss-20b\",\"mode\":\"training\",\"training\":{"
                 "\"batch_size\":1,\"sequence_length\":2048,"
                 "\"attn_implementation\":\"flash_attention_3\"}}",
                 &p);
    assert_non_null(r);
    assert_string_equal(
        json_string_value(json_object_get(json_object_get(r, "training"), "attn_implementation")),
        "flash_attention_3");
    assert_false(has_warning(r, "attention_no_sdpa"));
    json_decref(r);
#undef ATTN_REQUEST
}

/* training.padding takes the tokenizer's names: "max_length" (the default, echoed) leaves the
 * answer as it was; "longest" sizes the longest micro-batch, the same bytes, and warns that the
 * reserved figure grows over a run; another name is a 400 at its pointer. */
static void test_padding(void **state)
{
    (void)state;
#define PAD_REQUEST(training)                                                                      \
    "{\"model\":\"llama-3.1-8b\",\"mode\":\"training\",\"training\":{"                              \
    "\"batch_size\":1,\"sequence_length\":1024" training "}}"
    struct problem p;
    json_t *r = estimate(PAD_REQUEST(""), &p);
    assert_non_null(r);
    assert_string_equal(json_string_value(json_object_get(json_object_get(r, "training"),
                                                          "padding")),
                        "max_length");
    assert_false(has_warning(r, "reserved_grows_with_lengths"));
    const json_int_t total = get_int(r, "per_gpu.total_bytes");
    json_decref(r);

    r = estimate(PAD_REQUEST(",\"padding\":\"longest\""), &p);
    assert_non_null(r);
    assert_string_equal(json_string_value(json_object_get(json_object_get(r, "training"),
                                                          "padding")),
                        "longest");
    assert_true(has_warning(r, "reserved_grows_with_lengths"));
    assert_int_equal(get_int(r, "per_gpu.total_bytes"), total);
    json_decref(r);

    assert_null(estimate(PAD_REQUEST(",\"padding\":\"do_not_pad\""), &p));
    assert_int_equal(p.status, 400);
    assert_string_equal(p.errors.items[0].pointer, "/training/padding");
#undef PAD_REQUEST
}

/* A training request for `model`, 2 x 1,024 tokens, with `extra` training members. */
static json_t *kernels_estimate(const char *model, const char *extra, struct problem *p)
{
    char request[512];
    snprintf(request, sizeof(request),
             "{\"model\":\"%s\",\"mode\":\"training\",\"training\":{\"batch_size\":2,"
             "\"sequence_length\":1024%s}}",
             model, extra);
    return estimate(request, p);
}

/* training.recurrent_kernels: a model with Gated DeltaNet layers (Qwen3.5) or Mamba2 layers
 * (Nemotron-H, Mamba2) is sized with the fused kernels unless the request names the torch
 * fallback; the echo says which, a warning says it was assumed, the Gated DeltaNet fallback keeps
 * more, Mamba2's fallback and Nemotron-H's padded batches warn that their scan is not counted,
 * another name is a 400 at its pointer, and a model without such layers echoes nothing. */
static void test_recurrent_kernels(void **state)
{
    (void)state;
    static const char torch[] = ",\"recurrent_kernels\":\"torch\"";
    static const struct {
        const char *model, *extra;
        const char *echo; /* training.recurrent_kernels, NULL: absent */
        bool assumed, uncounted;
    } cases[] = {
        {"qwen3.5-0.8b", "", "fused", true, false},
        {"qwen3.5-0.8b", torch, "torch", false, false},
        /* Mamba2 layers: counted through mamba-ssm's combined function, under the torch
         * fallback (its naive chunked SSD) and, for Nemotron-H, over a padded batch (the
         * kernels one by one) */
        {"nemotron-h-8b-base-8k", "", "fused", true, false},
        {"nemotron-h-8b-base-8k", torch, "torch", false, false},
        {"nemotron-h-8b-base-8k", ",\"padding_mask\":true", "fused", true, false},
        {"mamba-codestral-7b-v0.1", "", "fused", true, false},
        {"llama-3.1-8b", torch, NULL, false, false},
    };
    struct problem p;
    json_int_t activations[sizeof(cases) / sizeof(cases[0])];
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        json_t *r = kernels_estimate(cases[i].model, cases[i].extra, &p);
        assert_non_null(r);
        const json_t *echo = json_object_get(json_object_get(r, "training"), "recurrent_kernels");
        if (cases[i].echo == NULL)
            assert_null(echo);
        else
            assert_string_equal(json_string_value(echo), cases[i].echo);
        assert_int_equal(has_warning(r, "recurrent_kernels_assumed"), cases[i].assumed);
        assert_int_equal(has_warning(r, "recurrent_scan_not_counted"), cases[i].uncounted);
        activations[i] = get_int(r, "per_gpu.activations_bytes");
        if (i == 4) /* the padded batch says the Mamba2 layers are part of its cost */
            assert_true(names(json_object_get(r, "assumptions"), "name", "padding_mask_mamba2"));
        json_decref(r);
    }
    assert_true(activations[1] > activations[0]); /* the Gated DeltaNet fallback keeps more */
    /* Mamba2's naive scan keeps many times the combined kernel's; the padded path more too */
    assert_true(activations[3] > 4 * activations[2]);
    assert_true(activations[4] > activations[2]);

    assert_null(kernels_estimate("qwen3.5-0.8b", ",\"recurrent_kernels\":\"triton\"", &p));
    assert_int_equal(p.status, 400);
    assert_string_equal(p.errors.items[0].pointer, "/training/recurrent_kernels");
}

/* training.padding_mask: padded micro-batches under transformers' SDPA take the masked path in
 * every layer. Llama 3.1 8B (32 layers, 32 heads, 8 KV heads of 128), 2 x 1,024 tokens padded to
 * their longest (the default then): K/V repeated to every head, 2 x 24 x 128 x 2 B x 2,048
 * tokens = 25,165,824 a layer, and aten's additive copy of the boolean mask, 2 B x 2 x 1,024^2 =
 * 4,194,304: 29,360,128 x 32 = 939,524,096 B. Off, or under flash_attention_2, nothing more. */
static void test_padding_mask_field(void **state)
{
    (void)state;
#define MASK_REQUEST(training)                                                                     \
    "{\"model\":\"llama-3.1-8b\",\"mode\":\"training\",\"training\":{"                             \
    "\"batch_size\":2,\"sequence_length\":1024" training "}}"
    struct problem p;
    json_t *r = estimate(MASK_REQUEST(""), &p);
    assert_non_null(r);
    assert_true(json_is_false(json_object_get(json_object_get(r, "training"), "padding_mask")));
    assert_false(has_warning(r, "padding_mask_sdpa"));
    const json_int_t unpadded = get_int(r, "per_gpu.total_bytes");
    json_decref(r);

    r = estimate(MASK_REQUEST(",\"padding\":\"longest\""), &p);
    assert_non_null(r);
    assert_true(json_is_true(json_object_get(json_object_get(r, "training"), "padding_mask")));
    assert_true(has_warning(r, "padding_mask_sdpa"));
    assert_int_equal(assumption_value(r, "padding_mask_activation_bytes"), 939524096LL);
    assert_true(get_int(r, "per_gpu.total_bytes") > unpadded);
    json_decref(r);

    r = estimate(MASK_REQUEST(",\"padding\":\"longest\",\"padding_mask\":false"), &p);
    assert_non_null(r);
    assert_false(has_warning(r, "padding_mask_sdpa"));
    assert_int_equal(get_int(r, "per_gpu.total_bytes"), unpadded);
    json_decref(r);

    r = estimate(
        MASK_REQUEST(",\"padding_mask\":true,\"attn_implementation\":\"flash_attention_2\""), &p);
    assert_non_null(r);
    assert_true(json_is_true(json_object_get(json_object_get(r, "training"), "padding_mask")));
    assert_false(has_warning(r, "padding_mask_sdpa"));
    json_decref(r);

    assert_null(estimate(MASK_REQUEST(",\"padding_mask\":\"yes\""), &p));
    assert_int_equal(p.status, 400);
    assert_string_equal(p.errors.items[0].pointer, "/training/padding_mask");
#undef MASK_REQUEST
}

/* Parallel residual with a LayerNorm per branch: both read the layer's input (GPTNeoXLayer with
 * use_parallel_residual; FalconDecoderLayer's ln_attn and ln_mlp), and native_layer_norm saves its
 * input, so the two norms keep one tensor. A Pythia-shaped model (hidden 512, 6 layers), pure
 * bf16, batch 2 x 1,024: sequential residual keeps the second norm's own input, 2,048 tokens x
 * 6 layers x 512 x 2 B = 12,582,912 B more at backward start. Falcon's new architecture with
 * two norms (ln_attn and ln_mlp over the same input) keeps their two outputs, one for
 * query_key_value and one for dense_h_to_4h; with one (num_ln_in_parallel_attn 1,
 * FalconDecoderLayer: mlp_layernorm_out = attention_layernorm_out) both linears keep the same
 * tensor, the same 12,582,912 B less. */
static void test_parallel_residual_norms(void **state)
{
    (void)state;
#define NEOX_REQUEST(parallel)                                                                     \
    "{\"model\":{\"config\":{\"architectures\":[\"GPTNeoXForCausalLM\"],\"model_type\":"         \
    "\"gpt_neox\",\"hidden_size\":512,\"intermediate_size\":2048,\"num_attention_heads\":8,"       \
    "\"num_hidden_layers\":6,\"vocab_size\":50304,\"rotary_pct\":0.25,"                            \
    "\"max_position_embeddings\":2048,\"use_parallel_residual\":" parallel "}},"                   \
    "\"mode\":\"training\",\"precision\":{\"weights\":\"bf16\"},\"training\":{\"batch_size\":2,"   \
    "\"sequence_length\":1024,\"regime\":\"bf16_pure\"}}"
    struct problem p;
    json_t *shared = estimate(NEOX_REQUEST("true"), &p);
    assert_non_null(shared);
    json_t *apart = estimate(NEOX_REQUEST("false"), &p);
    assert_non_null(apart);
    assert_int_equal(get_int(apart, "training.phases.backward_start.activations_bytes") -
                         get_int(shared, "training.phases.backward_start.activations_bytes"),
                     2048LL * 6 * 512 * 2);
    json_decref(shared);
    json_decref(apart);
#undef NEOX_REQUEST
#define FALCON_REQUEST(norms)                                                                      \
    "{\"model\":{\"config\":{\"architectures\":[\"FalconForCausalLM\"],\"model_type\":"          \
    "\"falcon\",\"hidden_size\":512,\"num_attention_heads\":8,\"num_kv_heads\":2,"                 \
    "\"num_hidden_layers\":6,\"vocab_size\":65024,\"new_decoder_architecture\":true,"              \
    "\"num_ln_in_parallel_attn\":" norms "}},"                                                     \
    "\"mode\":\"training\",\"precision\":{\"weights\":\"bf16\"},\"training\":{\"batch_size\":2,"   \
    "\"sequence_length\":1024,\"regime\":\"bf16_pure\"}}"
    json_t *two = estimate(FALCON_REQUEST("2"), &p);
    assert_non_null(two);
    json_t *one = estimate(FALCON_REQUEST("1"), &p);
    assert_non_null(one);
    assert_int_equal(get_int(two, "training.phases.backward_start.activations_bytes") -
                         get_int(one, "training.phases.backward_start.activations_bytes"),
                     2048LL * 6 * 512 * 2);
    json_decref(two);
    json_decref(one);
#undef FALCON_REQUEST
}

/* BERT's head follows architectures (modeling_bert.py): bert-base-uncased as BertModel with
 * its pooler is 109,482,240 parameters (the catalog's count); BertForMaskedLM drops the pooler
 * (768 x 768 + 768 = 590,592) for the prediction head's transform (590,592), its LayerNorm
 * (1,536) and the decoder's vocabulary bias (30,522; the decoder weight is tied):
 * 109,482,240 + 1,536 + 30,522 = 109,514,298, what PyTorch counts for the model
 * AutoModelForMaskedLM builds; BertForSequenceClassification adds a 2-label classifier
 * (768 x 2 + 2): 109,483,778. Only the masked-LM head ends in vocabulary logits. */
static void test_bert_heads(void **state)
{
    (void)state;
#define BERT(cls)                                                                                  \
    "{\"model\":{\"config\":{\"architectures\":[\"" cls "\"],\"model_type\":\"bert\","             \
    "\"hidden_size\":768,\"intermediate_size\":3072,\"num_attention_heads\":12,"                \
    "\"num_hidden_layers\":12,\"vocab_size\":30522}},\"mode\":\"training\",\"training\":{"        \
    "\"batch_size\":1,\"sequence_length\":512}}"
    const char *const classes[] = {"BertModel", "BertForMaskedLM",
                                   "BertForSequenceClassification"};
    const json_int_t counts[] = {109482240, 109514298, 109483778};
    json_int_t logits[3];
    for (int i = 0; i < 3; i++) {
        char text[1024];
        snprintf(text, sizeof(text), BERT("%s"), classes[i]);
        struct problem p;
        json_t *r = estimate(text, &p);
        assert_non_null(r);
        assert_int_equal(get_int(r, "model.parameters"), counts[i]);
        logits[i] = get_int(r, "per_gpu.activations_bytes");
        json_decref(r);
    }
    /* 512 tokens x 30,522 logits x 12 bytes (transformers 5.x's loss) and the head's inputs */
    assert_true(logits[1] - logits[0] >= 512LL * 30522 * 12);
    assert_int_equal(logits[2], logits[0]);
#undef BERT
}

/* The framework fields reach the core: a torchtune request with a chunked,
 * compiled loss answers with that loss, the peak fields and the phase. */
static void test_training_framework_fields(void **state)
{
    (void)state;
    struct problem p;
    json_t *r = estimate("{\"model\":\"llama-3.1-8b\",\"mode\":\"training\",\"training\":{"
                            "\"framework\":\"torchtune\",\"loss\":\"chunked\",\"compile\":true,"
                            "\"batch_size\":2,\"sequence_length\":4096,"
                            "\"activation_checkpointing\":\"op_selective\"}}",
                         &p);
    assert_non_null(r);
    const json_t *training = json_object_get(r, "training");
    assert_string_equal(json_string_value(json_object_get(training, "framework")), "torchtune");
    assert_string_equal(json_string_value(json_object_get(training, "loss")), "chunked");
    assert_string_equal(json_string_value(json_object_get(training, "activation_checkpointing")),
                        "op_selective");
    const json_t *per_gpu = json_object_get(r, "per_gpu");
    const json_int_t allocated = json_integer_value(json_object_get(per_gpu, "peak_allocated_bytes"));
    const json_int_t reserved = json_integer_value(json_object_get(per_gpu, "peak_reserved_bytes"));
    assert_true(allocated > 0 && reserved > allocated);
    assert_true(json_integer_value(json_object_get(per_gpu, "total_bytes")) > reserved);
    assert_non_null(json_string_value(json_object_get(per_gpu, "peak_phase")));
    const json_t *accuracy = json_object_get(training, "accuracy");
    assert_string_equal(json_string_value(json_object_get(accuracy, "peak")), "calibrated");
    assert_non_null(json_object_get(json_object_get(accuracy, "calibration"), "framework"));
    json_decref(r);
    /* keeps_output: a loop that holds the model's output through backward keeps its bf16
     * logits, 2 x 2,048 x 128,256 = 525,336,576 bytes more at the loss's backward */
#define KEEPS_OUTPUT_BODY \
        "{\"model\":\"llama-3.1-8b\",\"mode\":\"training\",\"training\":{" \
        "\"framework\":\"transformers\",\"framework_version\":\"5.13\"," \
        "\"method\":\"lora\",\"batch_size\":1," \
        "\"sequence_length\":2048%s}}"
    char body[512];
    snprintf(body, sizeof(body), KEEPS_OUTPUT_BODY, "");
    json_t *dropped = estimate(body, &p);
    snprintf(body, sizeof(body), KEEPS_OUTPUT_BODY, ",\"keeps_output\":true");
    json_t *kept = estimate(body, &p);
    assert_non_null(dropped);
    assert_non_null(kept);
    assert_string_equal(json_string_value(json_object_get(json_object_get(kept, "per_gpu"),
                                                          "peak_phase")),
                        "backward_start");
    assert_int_equal(get_int(kept, "per_gpu.peak_allocated_bytes") -
                         get_int(dropped, "per_gpu.peak_allocated_bytes"),
                     525336576);
    json_decref(dropped);
    json_decref(kept);
    snprintf(body, sizeof(body), KEEPS_OUTPUT_BODY, ",\"keeps_output\":1");
    expect_error(body, 400, "/training/keeps_output", "true or false");
#undef KEEPS_OUTPUT_BODY
    /* sync_each_batch: FSDP1 accumulation under the Trainer keeps the unsharded gradients
     * (fsdp1_no_sync_gradient_bytes, the whole bf16 model: 8,030,261,248 x 2) unless every
     * micro-batch is reduce-scattered */
#define SYNC_BODY \
        "{\"model\":\"llama-3.1-8b\",\"mode\":\"training\",\"training\":{" \
        "\"framework\":\"transformers\",\"batch_size\":1,\"sequence_length\":2048," \
        "\"gradient_accumulation_steps\":4%s},\"parallelism\":{\"data\":8," \
        "\"zero_stage\":\"full_shard\"}}"
    snprintf(body, sizeof(body), SYNC_BODY, "");
    json_t *no_sync = estimate(body, &p);
    assert_non_null(no_sync);
    assert_int_equal(assumption_value(no_sync, "fsdp1_no_sync_gradient_bytes"), 16060522496LL);
    snprintf(body, sizeof(body), SYNC_BODY, ",\"sync_each_batch\":true");
    json_t *each = estimate(body, &p);
    assert_non_null(each);
    assert_int_equal(assumption_value(each, "fsdp1_no_sync_gradient_bytes"), -1);
    assert_true(get_int(no_sync, "per_gpu.peak_allocated_bytes") >
                get_int(each, "per_gpu.peak_allocated_bytes"));
    json_decref(no_sync);
    json_decref(each);
    /* the Trainer of 5.1 ignores it (transformers issue #29425): sized as it runs, and said */
    snprintf(body, sizeof(body), SYNC_BODY,
             ",\"framework_version\":\"5.1\",\"sync_each_batch\":true");
    json_t *ignored = estimate(body, &p);
    assert_non_null(ignored);
    assert_int_equal(assumption_value(ignored, "fsdp1_no_sync_gradient_bytes"), 16060522496LL);
    assert_true(has_warning(ignored, "sync_each_batch_ignored"));
    json_decref(ignored);
    snprintf(body, sizeof(body), SYNC_BODY, ",\"sync_each_batch\":\"yes\"");
    expect_error(body, 400, "/training/sync_each_batch", "true or false");
#undef SYNC_BODY
    /* FSDP2 under transformers 5 (accelerate >= 1.11 set_requires_gradient_sync(False)): the
     * same whole bf16 gradient, per trainable parameter */
    json_t *fsdp2 = estimate(
        "{\"model\":\"llama-3.1-8b\",\"mode\":\"training\",\"training\":{"
        "\"framework\":\"transformers\",\"batch_size\":1,\"sequence_length\":2048,"
        "\"gradient_accumulation_steps\":4},\"parallelism\":{\"data\":8,"
        "\"zero_stage\":\"full_shard\",\"fsdp_version\":2}}",
        &p);
    assert_non_null(fsdp2);
    assert_int_equal(assumption_value(fsdp2, "fsdp2_no_sync_gradient_bytes"), 16060522496LL);
    assert_int_equal(assumption_value(fsdp2, "fsdp1_no_sync_gradient_bytes"), -1);
    json_decref(fsdp2);
}

static void test_problem_body_shape(void **state)
{
    (void)state;
    struct problem p;
    problem_init(&p);
    problem_set(&p, 400, "invalid-request", "The request is not valid", "two %s", "errors");
    gs_error_add(&p.errors, GS_ERR_INVALID, "/a~1b", "bad");
    json_t *body = problem_to_json(&p);
    assert_non_null(body);
    assert_string_equal(json_string_value(json_object_get(body, "type")),
                        "urn:gpusizer:problem:invalid-request");
    assert_int_equal(json_integer_value(json_object_get(body, "status")), 400);
    assert_string_equal(json_string_value(json_object_get(body, "detail")), "two errors");
    json_t *errors = json_object_get(body, "errors");
    assert_int_equal(json_array_size(errors), 1);
    assert_string_equal(json_string_value(json_object_get(json_array_get(errors, 0), "pointer")),
                        "/a~1b");
    json_decref(body);
}

/* An operation that filled a problem returns problem_status(problem) (server/README.md,
 * "Return conventions"): every core status a problem is made from comes back as itself,
 * except those that share an HTTP status - the 400s as GS_ERR_INVALID, the 500s as
 * GS_ERR_INTERNAL; a problem never stands for GS_OK; a 503 that is not out of memory is
 * GS_ERR_BUSY. */
static void test_problem_status_round_trip(void **state)
{
    (void)state;
    for (enum gs_status st = GS_ERR_INVALID; st <= GS_ERR_UPSTREAM; st++) {
        struct problem p;
        problem_init(&p);
        problem_from_status(&p, st);
        const enum gs_status back = problem_status(&p);
        if (st == GS_ERR_UNSUPPORTED || st == GS_ERR_RANGE)
            assert_int_equal(back, GS_ERR_INVALID);
        else if (st == GS_ERR_DB)
            assert_int_equal(back, GS_ERR_INTERNAL);
        else
            assert_int_equal(back, st);
    }
    struct problem p;
    problem_init(&p);
    assert_int_equal(problem_status(&p), GS_ERR_INTERNAL);
    problem_set(&p, 503, "search-budget", "The search ran past its time budget", NULL);
    assert_int_equal(problem_status(&p), GS_ERR_BUSY);
    problem_set(&p, 502, "hub-timeout", "The import took too long", NULL);
    assert_int_equal(problem_status(&p), GS_ERR_UPSTREAM);
}

static void test_pointer_escaping(void **state)
{
    (void)state;
    char out[64];
    jsonv_pointer(out, sizeof(out), "/model", "a/b~c");
    assert_string_equal(out, "/model/a~1b~0c");
    jsonv_pointer(out, 8, "/x", "abcdefghij");
    assert_int_equal(strlen(out), 7);
}

/* Regression: BLOOM configs carry no MLP width (BloomMLP is always 4h), and
 * it was left at 0, dropping the MLP from Megatron parity. bloom-7b1 by
 * Megatron's formula (no biases, padded vocabulary 250,880 = 1960 x 128):
 * L(12h^2 + 4h) + V h + 2h = 30 (12 x 4096^2 + 4 x 4096) + 250,880 x 4096 +
 * 8,192 = 6,040,289,280 + 1,027,604,480 + 8,192 = 7,067,901,952. */
static void test_bloom_mlp_width(void **state)
{
    (void)state;
    struct problem p;
    json_t *r = estimate("{\"model\":{\"config\":{\"model_type\":\"bloom\",\"n_embed\":4096,"
                         "\"n_layer\":30,\"num_attention_heads\":32,\"vocab_size\":250880}},"
                         "\"mode\":\"training\",\"parity\":\"megatron\"}",
                         &p);
    assert_non_null(r);
    assert_int_equal(get_int(r, "parity.parameters_on_most_loaded_shard"), 7067901952LL);
    json_decref(r);
}

static void test_catalog_listings(void **state)
{
    (void)state;
    size_t len = 0;
    json_t *models = json_loads(service_models_body(fixture.service, &len), 0, NULL);
    assert_non_null(models);
    /* the seed's 138 models (db/migrations/0002, 0004, 0006 and 0007), every one with a readable architecture,
     * and its config shipped so a client can PUT the entry back */
    assert_true(json_integer_value(json_object_get(models, "total")) >= 40);
    json_t *model;
    size_t m;
    json_array_foreach(json_object_get(models, "items"), m, model)
    {
        assert_non_null(json_object_get(model, "architecture"));
        assert_true(json_is_object(json_object_get(model, "config")));
        /* an MLP width, but for models whose layers have none (Mamba) */
        json_t *arch = json_object_get(model, "architecture");
        bool mlp = false;
        size_t k;
        json_t *kind;
        json_array_foreach(json_object_get(arch, "layer_kinds"), k, kind)
            mlp = mlp || strcmp(json_string_value(json_object_get(kind, "mlp")), "none") != 0;
        assert_true(json_integer_value(json_object_get(arch, "intermediate_size")) > 0 || !mlp);
        assert_true(json_array_size(json_object_get(arch, "layer_kinds")) > 0);
        assert_non_null(json_string_value(json_object_get(model, "etag")));
    }
    json_decref(models);
    json_t *gpus = json_loads(service_gpus_body(fixture.service, &len), 0, NULL);
    assert_non_null(gpus);
    json_t *item;
    size_t i;
    json_array_foreach(json_object_get(gpus, "items"), i, item)
    {
        json_t *sources = json_object_get(item, "sources");
        assert_non_null(json_object_get(sources, "memory_bytes"));
        if (!json_is_null(json_object_get(item, "bf16_tflops")))
            assert_non_null(json_object_get(sources, "bf16_tflops"));
    }
    json_decref(gpus);
}

/* The link class of a catalog GPU as the core sees it. */
static uint8_t link_of(const struct catalog_gpu *g)
{
    struct gs_gpu_view view;
    codec_gpu_view(g, &view);
    return view.link;
}

/* Superchips (db/migrations/0009): GH200 and GB200 boards are Hopper-and-later
 * NVLink boards; a Thor module and a GB10 (whose row names NVLink only to deny
 * it) talk over no NVLink. Serving on the unified-memory Thor warns that the
 * engine's share must be free in host memory; on a GH200, whose HBM is its own,
 * it does not. */
static void test_superchips(void **state)
{
    (void)state;
    struct catalog_snapshot *s = NULL;
    assert_int_equal(catalog_snapshot_load(fixture.catalog, &s, NULL), GS_OK);
    assert_int_equal(link_of(catalog_snapshot_gpu(s, "gh200")), GS_LINK_NVSWITCH);
    assert_int_equal(link_of(catalog_snapshot_gpu(s, "gh200-144gb")), GS_LINK_NVSWITCH);
    assert_int_equal(link_of(catalog_snapshot_gpu(s, "gb200")), GS_LINK_NVSWITCH);
    assert_int_equal(link_of(catalog_snapshot_gpu(s, "jetson-agx-thor")), GS_LINK_PCIE);
    assert_int_equal(link_of(catalog_snapshot_gpu(s, "gb10")), GS_LINK_PCIE);
    assert_int_equal(link_of(catalog_snapshot_gpu(s, "h100-sxm-80gb")), GS_LINK_NVSWITCH);
    /* the engines' ROCm paths by vendor, whatever generation the capability table knows (the
     * MI355X's CDNA 4 is not in it) */
    struct gs_gpu_view view;
    codec_gpu_view(catalog_snapshot_gpu(s, "mi355x"), &view);
    assert_true(view.rocm);
    codec_gpu_view(catalog_snapshot_gpu(s, "mi300x"), &view);
    assert_true(view.rocm);
    codec_gpu_view(catalog_snapshot_gpu(s, "h100-sxm-80gb"), &view);
    assert_false(view.rocm);
    catalog_snapshot_free(s);

    struct problem p;
    json_t *r = estimate("{\"model\":\"llama-3.1-8b\",\"gpu\":\"jetson-thor\","
                         "\"inference\":{\"engine\":\"vllm\",\"context_length\":8192,\"batch_size\":4}}",
                         &p);
    assert_non_null(r);
    assert_true(has_warning(r, "unified_memory"));
    json_decref(r);
    r = estimate("{\"model\":\"llama-3.1-8b\",\"gpu\":\"gh200\","
                 "\"inference\":{\"engine\":\"vllm\",\"context_length\":8192,\"batch_size\":4}}",
                 &p);
    assert_non_null(r);
    assert_false(has_warning(r, "unified_memory"));
    json_decref(r);

    /* cards with display outputs (the catalog's form factor: consumer or workstation): the
     * memory a desktop holds is not counted unless memory_in_use_bytes says it */
    s = NULL; /* the warning's premise, from the seeded rows */
    assert_int_equal(catalog_snapshot_load(fixture.catalog, &s, NULL), GS_OK);
    codec_gpu_view(catalog_snapshot_gpu(s, "rtx-4090"), &view);
    assert_true(view.display);
    codec_gpu_view(catalog_snapshot_gpu(s, "rtx-6000-ada"), &view);
    assert_true(view.display);
    codec_gpu_view(catalog_snapshot_gpu(s, "l40s"), &view);
    assert_false(view.display);
    codec_gpu_view(catalog_snapshot_gpu(s, "gb10"), &view);
    assert_false(view.display);
    catalog_snapshot_free(s);
    const struct {
        const char *gpu, *knob;
        bool warned;
    } cases[] = {{"rtx-4090", "", true},
                 {"rtx-4090", ",\"memory_in_use_bytes\":600000000", false},
                 {"l40s", "", false}};
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        char body[256];
        snprintf(body, sizeof(body),
                 "{\"model\":\"llama-3.1-8b\",\"gpu\":\"%s\",\"inference\":"
                 "{\"context_length\":8192%s}}",
                 cases[i].gpu, cases[i].knob);
        r = estimate(body, &p);
        assert_non_null(r);
        assert_int_equal(has_warning(r, "display_memory_not_counted"), cases[i].warned);
        json_decref(r);
    }
}

/* SGLang's multimodal reduction reads the config's vision_config keys as
 * spelled: Qwen2.5-VL's config says `depth: 32`, not num_hidden_layers, so
 * SGLang takes 24 layers of 1280. The default release runs no prefill CUDA
 * graphs for a multimodal class outside its lists, so its 0.834 on an H100 (a
 * text model's 0.829 without 58 x 8 MiB of graphs) x 0.896563 = 0.748; Llama 4
 * Scout's 34 x 1408: x 0.790616 = 0.659; a text model keeps 0.829; an explicit
 * mem_fraction_static is never changed. */
static void test_sglang_vision_configs(void **state)
{
    (void)state;
    static const struct {
        const char *model;
        double fraction;
    } rows[] = {{"qwen2.5-vl-7b-instruct", 0.748},
                {"llama-4-scout-17b-16e-instruct", 0.659},
                {"llama-3.1-8b", 0.829}};
    char text[320];
    for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        snprintf(text, sizeof(text),
                 "{\"model\":\"%s\",\"gpu\":\"h100\",\"inference\":{\"engine\":\"sglang\","
                 "\"batch_size\":1,\"context_length\":4096}}",
                 rows[i].model);
        struct problem p;
        json_t *r = estimate(text, &p);
        assert_non_null(r);
        const double f = json_number_value(json_object_get(json_object_get(r, "budget"), "fraction"));
        if (f != rows[i].fraction)
            fail_msg("%s: fraction %.3f, want %.3f", rows[i].model, f, rows[i].fraction);
        json_decref(r);
    }
    struct problem p;
    json_t *r = estimate("{\"model\":\"qwen2.5-vl-7b-instruct\",\"gpu\":\"h100\",\"inference\":"
                         "{\"engine\":\"sglang\",\"mem_fraction_static\":0.9,\"batch_size\":1,"
                         "\"context_length\":4096}}",
                         &p);
    assert_non_null(r);
    assert_true(json_number_value(json_object_get(json_object_get(r, "budget"), "fraction")) == 0.9);
    json_decref(r);
}

/* SGLang's server arguments the default mem_fraction_static reads (0.5.20 on an H100, 81,121
 * MiB, Llama 3.1 8B at TP 1; test_engine_rules test_sglang_reserve_arguments by hand): the
 * defaults' 13,904 MiB reserve -> 0.829; a decode worker's 2,048 activation tokens and no prefill
 * graphs, under the 10 GiB floor -> 0.874; a prefill worker without decode graphs -> 0.835;
 * --cuda-graph-max-bs 512 -> 0.822; chunked prefill off (max_prefill_tokens 16,384, no prefill
 * sizes) -> 0.683; DeepEP (all2all_backend's DeepEP values: --moe-a2a-backend deepep) 38 prefill
 * sizes x 8, 1 GiB more and 2 GiB above the floor: 512 + 12,288 + 512 + 128 + 304 + 1,024 + 2,048
 * = 16,816 -> 0.793. The role is echoed; another role is a 400 naming the field; vLLM ignores it.
 */
static void test_sglang_server_arguments(void **state)
{
    (void)state;
    static const struct {
        const char *knobs;
        double fraction;
        json_int_t reserve_mib, prefill_graph_mib;
        const char *role;
    } rows[] = {{"", 0.829, 13904, 464, NULL},
                {",\"disaggregation_mode\":\"decode\"", 0.874, 10240, 0, "decode"},
                {",\"disaggregation_mode\":\"prefill\"", 0.835, 13392, 464, "prefill"},
                {",\"disaggregation_mode\":\"null\"", 0.829, 13904, 464, NULL},
                {",\"cuda_graph_max_bs\":512", 0.822, 14416, 464, NULL},
                {",\"enable_chunked_prefill\":false", 0.683, 25728, 0, NULL},
                {",\"max_num_batched_tokens\":4096", 0.874, 10240, 400, NULL},
                {",\"all2all_backend\":\"deepep_low_latency\"", 0.793, 16816, 304, NULL}};
    char text[320];
    for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        snprintf(
            text, sizeof(text),
            "{\"model\":\"llama-3.1-8b\",\"gpu\":\"h100\",\"inference\":{\"engine\":\"sglang\","
            "\"engine_version\":\"0.5.20\",\"context_length\":8192%s}}",
            rows[i].knobs);
        struct problem p;
        json_t *r = estimate(text, &p);
        assert_non_null(r);
        const double f =
            json_number_value(json_object_get(json_object_get(r, "budget"), "fraction"));
        if (f != rows[i].fraction)
            fail_msg("%s: fraction %.3f, want %.3f", rows[i].knobs, f, rows[i].fraction);
        assert_int_equal(assumption_value(r, "mem_fraction_reserve_bytes"),
                         rows[i].reserve_mib * (json_int_t)GS_MIB);
        assert_int_equal(assumption_value(r, "prefill_graph_reserve_bytes"),
                         rows[i].prefill_graph_mib * (json_int_t)GS_MIB);
        const json_t *role =
            json_object_get(json_object_get(r, "inference"), "disaggregation_mode");
        if (rows[i].role == NULL)
            assert_null(role);
        else
            assert_string_equal(json_string_value(role), rows[i].role);
        json_decref(r);
    }
    expect_error("{\"model\":\"llama-3.1-8b\",\"gpu\":\"h100\",\"inference\":{\"engine\":"
                 "\"sglang\",\"context_length\":8192,\"disaggregation_mode\":\"both\"}}",
                 400, "/inference/disaggregation_mode", NULL);
    expect_error("{\"model\":\"llama-3.1-8b\",\"gpu\":\"h100\",\"inference\":{\"engine\":"
                 "\"sglang\",\"context_length\":8192,\"cuda_graph_max_bs\":0}}",
                 400, "/inference/cuda_graph_max_bs", NULL);
    /* --swa-full-tokens-ratio: (0, 1] as server_args.py checks it; gpt-oss-20b's window pool
     * is that share of its full pool's tokens (test_sglang_hybrid_swa_pools) */
    static const char *const bad_ratios[] = {"0", "-0.5", "1.5", "\"0.8\""};
    for (size_t i = 0; i < sizeof(bad_ratios) / sizeof(bad_ratios[0]); i++) {
        snprintf(text, sizeof(text),
                 "{\"model\":\"gpt-oss-20b\",\"gpu\":\"h100\",\"inference\":{\"engine\":"
                 "\"sglang\",\"context_length\":8192,\"swa_full_tokens_ratio\":%s}}",
                 bad_ratios[i]);
        expect_error(text, 400, "/inference/swa_full_tokens_ratio", NULL);
    }
    struct problem p;
    for (int half = 0; half < 2; half++) {
        snprintf(text, sizeof(text),
                 "{\"model\":\"gpt-oss-20b\",\"gpu\":\"h100\",\"inference\":{\"engine\":"
                 "\"sglang\",\"context_length\":8192%s}}",
                 half ? ",\"swa_full_tokens_ratio\":0.5" : "");
        json_t *r = estimate(text, &p);
        assert_non_null(r);
        const json_int_t full = get_int(r, "kv_cache.max_tokens");
        assert_int_equal(get_int(r, "kv_cache.reported_tokens"), full);
        assert_int_equal(assumption_value(r, "window_pool_tokens"),
                         half ? full / 2 : full * 8 / 10);
        json_decref(r);
    }
    /* --disable-hybrid-swa-memory: one pool of every layer's 2,048 B a token (24 layers) */
    json_t *one = estimate("{\"model\":\"gpt-oss-20b\",\"gpu\":\"h100\",\"inference\":{"
                           "\"engine\":\"sglang\",\"context_length\":8192,"
                           "\"disable_hybrid_swa_memory\":true}}",
                           &p);
    assert_non_null(one);
    assert_int_equal(get_int(one, "kv_cache.max_tokens"), get_int(one, "budget.kv_bytes") / 49152);
    json_decref(one);
    expect_error("{\"model\":\"gpt-oss-20b\",\"gpu\":\"h100\",\"inference\":{\"engine\":"
                 "\"sglang\",\"context_length\":8192,\"disable_hybrid_swa_memory\":1}}",
                 400, "/inference/disable_hybrid_swa_memory", NULL);
    json_t *plain = estimate("{\"model\":\"llama-3.1-8b\",\"gpu\":\"h100\",\"inference\":"
                             "{\"context_length\":8192}}",
                             &p);
    json_t *decode = estimate("{\"model\":\"llama-3.1-8b\",\"gpu\":\"h100\",\"inference\":"
                              "{\"context_length\":8192,\"disaggregation_mode\":\"decode\"}}",
                              &p);
    assert_non_null(plain);
    assert_non_null(decode);
    assert_int_equal(get_int(plain, "budget.kv_bytes"), get_int(decode, "budget.kv_bytes"));
    assert_null(json_object_get(json_object_get(decode, "inference"), "disaggregation_mode"));
    json_decref(plain);
    json_decref(decode);
}

/* inference.engine_version: major.minor[.patch[.fourth]] with an optional
 * .postN (SGLang's "0.4.3.post4", vLLM's "0.6.6.post1") - the release's own
 * rules - or a pre-release (TensorRT-LLM's "1.3.0rc25"), a nightly's .devN and a
 * +local label, read as the release they lead to; nothing else. */
static void test_engine_versions(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        uint32_t want; /* 0 = refused */
    } rows[] = {
        {"0.19.0", 1900},       {"v0.6.4", 604},          {"0.10.1.1", 1001},
        {"0.4.3.post4", 403},   {"0.6.6.post1", 606},     {"3.3", 30300},
        {"0.5.post2", 500},     {"0.4.3.post", 0},        {"0.4.3.post4x", 0},
        {"0.4.3post4", 0},      {"post1", 0},             {"0", 0},
        {"0.0", 0},             {"1.2.3.4.5", 0},         {"0.100.0", 0},
        {"0.4.3.rc1", 0},       {"", 0},
        {"1.3.0rc25", 10300},   {"1.4rc1", 10400},        {"0.27.0rc1", 2700},
        {"0.22.1rc1.dev16+ge9499996d", 2201},             {"0.22.1.dev16", 2201},
        {"1.3.0rc25.post1", 10300},                       {"0.9.0a1", 900},
        {"1.3.0rc", 0},         {"1.3.0rc25x", 0},        {"0.22.1+", 0},
        {"0.22.1.dev", 0},      {"0.22.1+g-1", 0},        {"1.3.0b", 0},
    };
    for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        uint32_t v = 0;
        const bool ok = codec_parse_engine_version(rows[i].text, &v);
        if (ok != (rows[i].want != 0) || (ok && v != rows[i].want))
            fail_msg("%s: %s %u", rows[i].text, ok ? "accepted" : "refused", (unsigned)v);
    }
}

/* The entry of `list` (assumptions or warnings) whose `key` is `name`, or NULL. */
static const json_t *entry_named(const json_t *list, const char *key, const char *name)
{
    size_t i;
    const json_t *a;
    json_array_foreach(list, i, a) {
        const char *value = json_string_value(json_object_get(a, key));
        if (value != NULL && strcmp(value, name) == 0)
            return a;
    }
    return NULL;
}

static bool names(const json_t *list, const char *key, const char *name)
{
    return entry_named(list, key, name) != NULL;
}

/* The value of the assumption `name` of an answer, or -1 without it. */
static json_int_t assumption_value(const json_t *answer, const char *name)
{
    const json_t *a = entry_named(json_object_get(answer, "assumptions"), "name", name);
    return a != NULL ? json_integer_value(json_object_get(a, "value")) : -1;
}

/* inference.enable_prefix_caching (vLLM --enable-prefix-caching): for an
 * MLA model on 0.8.x's V0 engine (pipeline parallelism) the profile run then
 * sizes MLA's chunked-prefill context workspace, 8 x max_model_len = 65,536
 * rows at 8,192 tokens (assumption mla_workspace_tokens), and keeps the
 * latent workspace itself, 65,536 x 576 x 2 bytes; off (V0's default) it
 * does neither. Not a boolean: 400 naming the field. */
static void test_prefix_caching_knob(void **state)
{
    (void)state;
#define PREFIX_CACHING_BODY \
        "{\"model\":\"deepseek-v3\",\"gpu\":\"h200\",\"precision\":{\"weights\":\"fp8\"}," \
        "\"parallelism\":{\"tensor\":8,\"pipeline\":2},\"inference\":{\"engine\":\"vllm\"," \
        "\"engine_version\":\"0.8.3\",\"context_length\":8192,\"enable_prefix_caching\":%s}}"
    char body[512];
    struct problem p;
    snprintf(body, sizeof(body), PREFIX_CACHING_BODY, "true");
    json_t *on = estimate(body, &p);
    assert_non_null(on);
    snprintf(body, sizeof(body), PREFIX_CACHING_BODY, "false");
    json_t *off = estimate(body, &p);
    assert_non_null(off);
    const json_int_t a_on = get_int(on, "budget.activation_peak_bytes");
    const json_int_t a_off = get_int(off, "budget.activation_peak_bytes");
    assert_true(a_on >= a_off + 65536 * 576 * 2);
    assert_int_equal(assumption_value(on, "mla_workspace_tokens"), 65536);
    assert_int_equal(assumption_value(off, "mla_workspace_tokens"), -1);
    json_decref(on);
    json_decref(off);
    snprintf(body, sizeof(body), PREFIX_CACHING_BODY, "\"yes\"");
    expect_error(body, 400, "/inference/enable_prefix_caching", "true or false");
#undef PREFIX_CACHING_BODY
}

/* SGLang's hybrid state knobs as the API reads them: max_mamba_cache_size 40 gives 40 state
 * slots (assumption state_slots), mamba_ssm_dtype bfloat16 Qwen3.5-27B's 78,446,592-byte slot
 * (kv_cache.state_bytes_per_sequence; 153,944,064 in fp32), mamba_full_memory_ratio 0.3 fewer
 * slots than the default 0.9; a ratio of 0 or above 100 and an unknown dtype are 400s naming the
 * field. On vLLM 0.21 float16 gives the same bf16-sized slot and bfloat16, which its
 * --mamba-ssm-cache-dtype takes from 0.22, is a 400. */
static void test_sglang_state_knobs_decoded(void **state)
{
    (void)state;
#define STATE_KNOB_BODY                                                                            \
    "{\"model\":\"qwen3.5-27b\",\"gpu\":\"h200\",\"inference\":{\"engine\":\"sglang\","            \
    "\"context_length\":8192%s}}"
    char body[512];
    struct problem p;
    snprintf(body, sizeof(body), STATE_KNOB_BODY, "");
    json_t *plain = estimate(body, &p);
    assert_non_null(plain);
    snprintf(body, sizeof(body), STATE_KNOB_BODY, ",\"max_mamba_cache_size\":40");
    json_t *given = estimate(body, &p);
    assert_non_null(given);
    assert_int_equal(assumption_value(given, "state_slots"), 40);
    snprintf(body, sizeof(body), STATE_KNOB_BODY, ",\"mamba_ssm_dtype\":\"bfloat16\"");
    json_t *bf16 = estimate(body, &p);
    assert_non_null(bf16);
    assert_int_equal(get_int(plain, "kv_cache.state_bytes_per_sequence"), 153944064);
    assert_int_equal(get_int(bf16, "kv_cache.state_bytes_per_sequence"), 78446592);
    snprintf(body, sizeof(body), STATE_KNOB_BODY, ",\"mamba_full_memory_ratio\":0.3");
    json_t *low = estimate(body, &p);
    assert_non_null(low);
    assert_true(assumption_value(low, "state_slots") < assumption_value(plain, "state_slots"));
    json_decref(plain);
    json_decref(given);
    json_decref(bf16);
    json_decref(low);
    snprintf(body, sizeof(body), STATE_KNOB_BODY, ",\"mamba_full_memory_ratio\":0");
    expect_error(body, 400, "/inference/mamba_full_memory_ratio", "above 0");
    snprintf(body, sizeof(body), STATE_KNOB_BODY, ",\"mamba_full_memory_ratio\":101");
    expect_error(body, 400, "/inference/mamba_full_memory_ratio", "at most 100");
    snprintf(body, sizeof(body), STATE_KNOB_BODY, ",\"mamba_ssm_dtype\":\"fp8\"");
    expect_error(body, 400, "/inference/mamba_ssm_dtype", "float32, bfloat16, float16");
#undef STATE_KNOB_BODY
    /* vLLM's --mamba-ssm-cache-dtype: float16 from 0.13, bfloat16 from 0.22 */
#define VLLM_SSM_BODY                                                                              \
    "{\"model\":\"qwen3.5-27b\",\"gpu\":\"h200\",\"inference\":{\"engine\":\"vllm\","              \
    "\"engine_version\":\"0.21.0\",\"context_length\":8192,\"mamba_ssm_dtype\":\"%s\"}}"
    snprintf(body, sizeof(body), VLLM_SSM_BODY, "float16");
    json_t *fp16 = estimate(body, &p);
    assert_non_null(fp16);
    assert_int_equal(get_int(fp16, "kv_cache.state_bytes_per_sequence"), 78446592);
    json_decref(fp16);
    snprintf(body, sizeof(body), VLLM_SSM_BODY, "bfloat16");
    expect_error(body, 400, "/inference/mamba_ssm_dtype", "bfloat16 from 0.22");
#undef VLLM_SSM_BODY
}

/* inference.limit_mm_per_prompt (vLLM --limit-mm-per-prompt): Qwen3-VL-30B-A3B on vLLM 0.11.0
 * profiles its video (153,600 tokens, the output copied into zeros of the whole encoder
 * budget); limited to no video it profiles the image (16,384 tokens), and the pool grows by
 * the difference. Counts and {"count": n} are read; other members and modalities are refused
 * at their pointer. */
static void test_mm_limit_knob(void **state)
{
    (void)state;
#define MM_LIMIT_BODY \
        "{\"model\":\"qwen3-vl-30b-a3b-instruct\",\"gpu\":\"rtx-3090\"," \
        "\"parallelism\":{\"tensor\":4},\"inference\":{\"engine\":\"vllm\"," \
        "\"engine_version\":\"0.11.0\",\"context_length\":65536%s}}"
    char body[512];
    struct problem p;
    snprintf(body, sizeof(body), MM_LIMIT_BODY, "");
    json_t *video = estimate(body, &p);
    assert_non_null(video);
    snprintf(body, sizeof(body), MM_LIMIT_BODY, ",\"limit_mm_per_prompt\":{\"video\":0}");
    json_t *image = estimate(body, &p);
    assert_non_null(image);
    snprintf(body, sizeof(body), MM_LIMIT_BODY,
             ",\"limit_mm_per_prompt\":{\"video\":{\"count\":0},\"image\":2}");
    json_t *image2 = estimate(body, &p);
    assert_non_null(image2);
    assert_true(get_int(image, "kv_cache.max_tokens") > get_int(video, "kv_cache.max_tokens"));
    assert_int_equal(get_int(image, "kv_cache.max_tokens"), get_int(image2, "kv_cache.max_tokens"));
    assert_int_equal(assumption_value(video, "mm_profile_video_tokens"), 153600);
    assert_int_equal(assumption_value(image, "mm_profile_image_tokens"), 16384);
    json_decref(video);
    json_decref(image);
    json_decref(image2);
    snprintf(body, sizeof(body), MM_LIMIT_BODY, ",\"limit_mm_per_prompt\":{\"vid\":0}");
    expect_error(body, 400, "/inference/limit_mm_per_prompt/vid", "video");
    snprintf(body, sizeof(body), MM_LIMIT_BODY, ",\"limit_mm_per_prompt\":{\"image\":-1}");
    expect_error(body, 400, "/inference/limit_mm_per_prompt/image", "at least 0");
    snprintf(body, sizeof(body), MM_LIMIT_BODY,
             ",\"limit_mm_per_prompt\":{\"image\":{\"width\":512}}");
    expect_error(body, 400, "/inference/limit_mm_per_prompt/image/width", "count");
    snprintf(body, sizeof(body), MM_LIMIT_BODY, ",\"limit_mm_per_prompt\":1");
    expect_error(body, 400, "/inference/limit_mm_per_prompt", "object");
#undef MM_LIMIT_BODY
}

/* inference.model_runner (VLLM_USE_V2_MODEL_RUNNER): a dense model on vLLM 0.26 runs V2 by
 * default (assumption model_runner, warning cuda_graphs_not_reserved); "v1" puts it back on V1,
 * which warns that its graph estimate is not modelled. */
static void test_model_runner_field(void **state)
{
    (void)state;
#define RUNNER_BODY \
        "{\"model\":\"qwen2.5-7b\",\"gpu\":\"h100\",\"inference\":{\"engine\":\"vllm\"," \
        "\"engine_version\":\"0.26.0\",\"context_length\":8192%s}}"
    char body[512];
    struct problem p;
    snprintf(body, sizeof(body), RUNNER_BODY, "");
    json_t *v2 = estimate(body, &p);
    assert_non_null(v2);
    assert_true(names(json_object_get(v2, "assumptions"), "name", "model_runner"));
    assert_true(names(json_object_get(v2, "warnings"), "code", "cuda_graphs_not_reserved"));
    assert_false(names(json_object_get(v2, "warnings"), "code", "cuda_graphs_not_estimated"));
    snprintf(body, sizeof(body), RUNNER_BODY, ",\"model_runner\":\"v1\"");
    json_t *v1 = estimate(body, &p);
    assert_non_null(v1);
    assert_false(names(json_object_get(v1, "assumptions"), "name", "model_runner"));
    assert_true(names(json_object_get(v1, "warnings"), "code", "cuda_graphs_not_estimated"));
    json_decref(v1);
    json_decref(v2);
    snprintf(body, sizeof(body), RUNNER_BODY, ",\"model_runner\":\"v3\"");
    expect_error(body, 400, "/inference/model_runner", "v2");
#undef RUNNER_BODY
}

/* The releases after 0.26: on 0.29 Model Runner V2 subtracts its own graph estimate, so the
 * answer warns that it is not modelled (not that none is reserved); a release past those read
 * says so, for every engine; 0.28 has no bitsandbytes loader for an nf4 checkpoint. */
static void test_vllm_releases_after_0_26(void **state)
{
    (void)state;
#define LATE_BODY \
        "{\"model\":\"qwen2.5-7b\",\"gpu\":\"h100\",%s\"inference\":{\"engine\":\"vllm\"," \
        "\"engine_version\":\"%s\",\"context_length\":8192}}"
    char body[512];
    struct problem p;
    snprintf(body, sizeof(body), LATE_BODY, "", "0.29.0");
    json_t *v29 = estimate(body, &p);
    assert_non_null(v29);
    assert_true(names(json_object_get(v29, "assumptions"), "name", "model_runner"));
    assert_false(names(json_object_get(v29, "warnings"), "code", "cuda_graphs_not_reserved"));
    assert_true(names(json_object_get(v29, "warnings"), "code", "cuda_graphs_not_estimated"));
    assert_false(names(json_object_get(v29, "warnings"), "code", "engine_release_not_modeled"));
    snprintf(body, sizeof(body), LATE_BODY, "", "0.31.0");
    json_t *v31 = estimate(body, &p);
    assert_non_null(v31);
    assert_true(names(json_object_get(v31, "warnings"), "code", "engine_release_not_modeled"));
    snprintf(body, sizeof(body), LATE_BODY, "\"precision\":{\"weights\":\"nf4\"},", "0.28.0");
    json_t *nf4 = estimate(body, &p);
    assert_non_null(nf4);
    assert_true(names(json_object_get(nf4, "warnings"), "code", "unsupported_by_engine"));
    assert_true(json_is_false(json_object_get(nf4, "starts")));
    snprintf(body, sizeof(body), LATE_BODY, "\"precision\":{\"weights\":\"nf4\"},", "0.27.1");
    json_t *nf4_27 = estimate(body, &p);
    assert_non_null(nf4_27);
    assert_false(names(json_object_get(nf4_27, "warnings"), "code", "unsupported_by_engine"));
    assert_true(json_is_true(json_object_get(nf4_27, "starts")));
    json_decref(v29);
    json_decref(v31);
    json_decref(nf4);
    json_decref(nf4_27);
#undef LATE_BODY
    /* SGLang past 0.5.20 and TensorRT-LLM past 1.3 were not read either */
    static const char *const unread[][3] = {{"sglang", "0.5.21", "0.5.20.post1"},
                                            {"tensorrt_llm", "1.4.0rc1", "1.3.0rc27"}};
    for (size_t i = 0; i < 2; i++)
        for (size_t j = 1; j < 3; j++) {
            snprintf(body, sizeof(body),
                     "{\"model\":\"qwen2.5-7b\",\"gpu\":\"h100\",\"inference\":{\"engine\":"
                     "\"%s\",\"engine_version\":\"%s\",\"context_length\":8192}}",
                     unread[i][0], unread[i][j]);
            json_t *a = estimate(body, &p);
            assert_non_null(a);
            assert_int_equal(names(json_object_get(a, "warnings"), "code",
                                   "engine_release_not_modeled"),
                             j == 1);
            json_decref(a);
        }
}

/* inference.entrypoint: vLLM's usage context sets the profile's default tokens
 * (get_batch_defaults): on an RTX 4080 vllm serve profiles 2,048, the Python LLM class
 * 8,192, and the pool shrinks by exactly the larger activation peak. */
static void test_entrypoint_field(void **state)
{
    (void)state;
#define ENTRY_BODY \
        "{\"model\":\"qwen2.5-7b\",\"gpu\":\"rtx-4080\",\"precision\":{\"weights\":\"awq\"}," \
        "\"inference\":{\"engine\":\"vllm\",\"engine_version\":\"0.26.0\"," \
        "\"context_length\":32768,\"model_runner\":\"v1\"%s}}"
    char body[512];
    struct problem p;
    snprintf(body, sizeof(body), ENTRY_BODY, "");
    json_t *serve = estimate(body, &p);
    assert_non_null(serve);
    assert_int_equal(assumption_value(serve, "profile_tokens"), 2048);
    assert_true(names(json_object_get(serve, "assumptions"), "name", "entrypoint"));
    snprintf(body, sizeof(body), ENTRY_BODY, ",\"entrypoint\":\"offline\"");
    json_t *offline = estimate(body, &p);
    assert_non_null(offline);
    assert_int_equal(assumption_value(offline, "profile_tokens"), 8192);
    const long long grown = get_int(offline, "budget.activation_peak_bytes") -
                            get_int(serve, "budget.activation_peak_bytes");
    assert_true(grown > 0);
    assert_int_equal(get_int(serve, "budget.kv_bytes") - get_int(offline, "budget.kv_bytes"),
                     grown);
    json_decref(offline);
    json_decref(serve);
    /* an explicit max_num_batched_tokens wins */
    snprintf(body, sizeof(body), ENTRY_BODY,
             ",\"entrypoint\":\"offline\",\"max_num_batched_tokens\":2048");
    json_t *given = estimate(body, &p);
    assert_non_null(given);
    assert_int_equal(assumption_value(given, "profile_tokens"), 2048);
    json_decref(given);
    snprintf(body, sizeof(body), ENTRY_BODY, ",\"entrypoint\":\"llm\"");
    expect_error(body, 400, "/inference/entrypoint", "offline");
#undef ENTRY_BODY
}

/* inference.speculative (vLLM --speculative-config, SGLang
 * --speculative-algorithm): decoded with pointers at each field; vLLM's mtp
 * adds DeepSeek-V3's MTP layer (weights and one KV layer), and so does TensorRT-LLM's
 * MTP-Eagle (and 3 tokens a sequence at 2 draft tokens); engines and methods gpusizer cannot
 * size are refused with the reason. */
static void test_speculative_field(void **state)
{
    (void)state;
#define SPEC_BODY(engine, spec) \
    "{\"model\":\"deepseek-v3\",\"gpu\":\"h200\",\"precision\":{\"weights\":\"fp8\"}," \
    "\"parallelism\":{\"tensor\":8},\"inference\":{\"engine\":\"" engine "\"," \
    "\"context_length\":8192,\"speculative\":" spec "}}"
    expect_error(SPEC_BODY("vllm", "\"mtp\""), 400, "/inference/speculative", "object");
    expect_error(SPEC_BODY("vllm", "{}"), 400, "/inference/speculative/method", "required");
    expect_error(SPEC_BODY("vllm", "{\"method\":\"medusa\"}"), 400,
                 "/inference/speculative/method", "mtp");
    expect_error(SPEC_BODY("vllm", "{\"method\":\"mtp\",\"num_speculative_tokens\":0}"), 400,
                 "/inference/speculative/num_speculative_tokens", "at least 1");
    expect_error(SPEC_BODY("vllm", "{\"method\":\"mtp\",\"drafter\":1}"), 400,
                 "/inference/speculative/drafter", "did you mean \"draft\"");
    expect_error(SPEC_BODY("vllm", "{\"method\":\"eagle3\"}"), 400,
                 "/inference/speculative/draft", "needs the draft");
    expect_error(SPEC_BODY("vllm", "{\"method\":\"draft_model\",\"draft\":\"nope-1b\"}"), 400,
                 "/inference/speculative/draft", "no model");
    expect_error(SPEC_BODY("vllm", "{\"method\":\"draft_model\",\"draft\":7}"), 400,
                 "/inference/speculative/draft", "catalog id");
    expect_error(SPEC_BODY("vllm", "{\"method\":\"eagle\",\"draft\":{\"cfg\":{}}}"), 400,
                 "/inference/speculative/draft/cfg", "allowed here");
    expect_error(SPEC_BODY("vllm", "{\"method\":\"eagle\",\"draft\":{\"hub_id\":\"a/b\"}}"),
                 400, "/inference/speculative/draft/hub_id", "import it first");
    expect_error(SPEC_BODY("vllm", "{\"method\":\"mtp\",\"draft\":\"llama-3.2-1b\"}"), 400,
                 "/inference/speculative/draft", "own MTP layers");
    expect_error(SPEC_BODY("vllm", "{\"method\":\"ngram\",\"draft\":\"llama-3.2-1b\"}"), 400,
                 "/inference/speculative/draft", "no draft model");
    expect_error(SPEC_BODY("tgi", "{\"method\":\"ngram\"}"), 400, "/inference/speculative",
                 "sglang and tensorrt_llm");
    expect_error(SPEC_BODY("tensorrt_llm", "{\"method\":\"eagle\",\"num_speculative_tokens\":3,"
                                           "\"draft\":\"llama-3.2-1b\"}"),
                 400, "/inference/speculative/method", "not eagle");
    expect_error(SPEC_BODY("tensorrt_llm", "{\"method\":\"draft_model\","
                                           "\"draft\":\"llama-3.2-1b\"}"),
                 400, "/inference/speculative/num_speculative_tokens", "max_draft_len");
    expect_error(SPEC_BODY("sglang", "{\"method\":\"suffix\"}"), 400,
                 "/inference/speculative/method", "no suffix");
    struct problem p;
    json_t *plain = estimate(SPEC_BODY("vllm", "null"), &p);
    json_t *mtp = estimate(SPEC_BODY("vllm", "{\"method\":\"mtp\",\"num_speculative_tokens\":2}"),
                           &p);
    assert_non_null(plain);
    assert_non_null(mtp);
    assert_int_equal(get_int(plain, "kv_cache.bytes_per_token"), 61 * 1152);
    assert_int_equal(get_int(mtp, "kv_cache.bytes_per_token"), 62 * 1152);
    assert_true(get_int(mtp, "per_gpu.weights_bytes") > get_int(plain, "per_gpu.weights_bytes"));
    assert_true(get_int(mtp, "kv_cache.max_tokens") < get_int(plain, "kv_cache.max_tokens"));
    json_decref(plain);
    json_decref(mtp);
    /* TensorRT-LLM's MTP-Eagle: one draft KV layer (1.3), 2 - 1 + 2 tokens a sequence more */
    mtp = estimate(SPEC_BODY("tensorrt_llm", "{\"method\":\"mtp\",\"num_speculative_tokens\":2}"),
                   &p);
    assert_non_null(mtp);
    assert_int_equal(get_int(mtp, "kv_cache.bytes_per_token"), 62 * 1152);
    assert_int_equal(assumption_value(mtp, "speculative_extra_tokens"), 3);
    assert_true(assumption_value(mtp, "speculative_buffer_bytes") > 0);
    json_decref(mtp);
    /* an EAGLE-3 head from its config.json, and a catalog model as the draft */
    plain = estimate(SPEC_BODY("vllm", "null"), &p);
    json_t *e3 = estimate(
        SPEC_BODY("vllm", "{\"method\":\"eagle3\",\"draft\":{\"config\":{\"model_type\":\"llama\","
                          "\"hidden_size\":7168,\"num_hidden_layers\":1,\"num_attention_heads\":56,"
                          "\"num_key_value_heads\":8,\"intermediate_size\":18432,"
                          "\"vocab_size\":129280,\"draft_vocab_size\":32000}}}"),
        &p);
    assert_non_null(plain);
    if (e3 == NULL)
        fail_msg("%s %s", p.errors.count ? p.errors.items[0].pointer : "",
                 p.errors.count ? p.errors.items[0].detail : "");
    /* DeepSeek-V3's MLA cache is 1152 bytes a layer; the head's GQA layer at TP 8 adds
     * 1 KV head x 128 x 2 x 2 = 512 */
    assert_int_equal(get_int(e3, "kv_cache.bytes_per_token"), 61 * 1152 + 512);
    assert_true(get_int(e3, "per_gpu.weights_bytes") > get_int(plain, "per_gpu.weights_bytes"));
    json_decref(e3);
    json_decref(plain);
    /* a target with sliding-window layers: gpt-oss-20b (12 sliding + 12 full layers of 2,048
     * bytes per token at TP 1) with an EAGLE-3 head of the same page size: the head's layer
     * joins the full kind, 13 full + 12 sliding, which vLLM's hybrid allocator cuts into
     * groups of 13 (13 < 1.5 x 12), the sliding kind padded to 13 (kv_cache_utils.py: "We pad
     * it to (13 sw, 13 full)"): each block 13 layers x 16 tokens x 2,048 bytes, two groups */
    json_t *oss = estimate(
        "{\"model\":\"gpt-oss-20b\",\"gpu\":\"h100\",\"inference\":{\"engine\":\"vllm\","
        "\"engine_version\":\"0.19.0\",\"context_length\":8192,\"speculative\":{\"method\":"
        "\"eagle3\",\"draft\":{\"config\":{\"model_type\":\"llama\",\"hidden_size\":2880,"
        "\"num_hidden_layers\":1,\"num_attention_heads\":64,\"num_key_value_heads\":8,"
        "\"head_dim\":64,\"intermediate_size\":17280,\"vocab_size\":201088,"
        "\"draft_vocab_size\":64000}}}}}",
        &p);
    assert_non_null(oss);
    assert_int_equal(get_int(oss, "kv_cache.bytes_per_token"), 25 * 2048);
    assert_int_equal(get_int(oss, "kv_cache.full_attention_layers"), 13);
    assert_int_equal(get_int(oss, "kv_cache.window_layers"), 12);
    const json_int_t blocks = get_int(oss, "kv_cache.blocks");
    assert_int_equal(blocks, get_int(oss, "budget.kv_bytes") / (16 * 2048) / 13);
    assert_int_equal(get_int(oss, "kv_cache.max_tokens"), blocks / 2 * 16);
    json_decref(oss);
    /* SGLang: the default fraction makes room for the draft (0.5.10), or the draft comes out of
     * the fraction (the default release, 0.5.20): its weights, its own embedding and head
     * (budget.draft_transient_bytes: 2 x 16,160 x 7,168 x 2 at TP 8) and one more MLA layer */
    for (int release = 0; release < 2; release++) {
        plain = estimate(release ? SPEC_BODY("sglang", "null")
                                 : SPEC_BODY("sglang\",\"engine_version\":\"0.5.10", "null"),
                         &p);
        mtp = estimate(
            release ? SPEC_BODY("sglang", "{\"method\":\"mtp\"}")
                    : SPEC_BODY("sglang\",\"engine_version\":\"0.5.10", "{\"method\":\"mtp\"}"),
            &p);
        assert_non_null(plain);
        assert_non_null(mtp);
        assert_true(get_int(mtp, "budget.kv_bytes") < get_int(plain, "budget.kv_bytes"));
        assert_int_equal(get_int(mtp, "kv_cache.bytes_per_token"), (release ? 62 : 61) * 1152);
        assert_int_equal(get_int(mtp, "budget.draft_transient_bytes"), release ? 463339520 : 0);
        const double f_mtp =
            json_real_value(json_object_get(json_object_get(mtp, "budget"), "fraction"));
        const double f_plain =
            json_real_value(json_object_get(json_object_get(plain, "budget"), "fraction"));
        assert_int_equal(f_mtp == f_plain, release);
        /* the answer says why, citing SGLang's code */
        bool cited = false;
        size_t i;
        json_t *a;
        json_array_foreach(json_object_get(mtp, "assumptions"), i, a)
        {
            if (strcmp(json_string_value(json_object_get(a, "name")), "speculative_decoding") == 0)
                cited = strstr(json_string_value(json_object_get(a, "source")),
                               release ? "kv_cache_configurator.py" : "server_args.py") &&
                        strstr(json_string_value(json_object_get(a, "detail")),
                               release ? "mem_fraction_static" : "reserve");
        }
        assert_true(cited);
        json_decref(plain);
        json_decref(mtp);
    }
#undef SPEC_BODY
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_seed_configs_reproduce_published_counts),
        cmocka_unit_test(test_acceptance_examples),
        cmocka_unit_test(test_config_model),
        cmocka_unit_test(test_gemma_config_defaults),
        cmocka_unit_test(test_published_counts_from_configs),
        cmocka_unit_test(test_lora_through_the_api),
        cmocka_unit_test(test_lora_all_linear_spellings),
        cmocka_unit_test(test_lora_16bit_adapters_cast_nothing),
        cmocka_unit_test(test_kbit_prepared_field),
        cmocka_unit_test(test_trl_chunked_nll_field),
        cmocka_unit_test(test_trl_version_field),
        cmocka_unit_test(test_dropout_from_config),
        cmocka_unit_test(test_starcoder2_dropout),
        cmocka_unit_test(test_whisper_dropout_keys),
        cmocka_unit_test(test_expert_adapters_by_release),
        cmocka_unit_test(test_training_images),
        cmocka_unit_test(test_lora_wrapped_linears),
        cmocka_unit_test(test_lora_fused_experts_peft),
        cmocka_unit_test(test_t5_layers_under_autocast),
        cmocka_unit_test(test_torchtitan_patch_releases),
        cmocka_unit_test(test_sdpa_wide_heads_warning),
        cmocka_unit_test(test_deepspeed_parity_through_the_api),
        cmocka_unit_test(test_validation_errors),
        cmocka_unit_test(test_training_framework_fields),
        cmocka_unit_test(test_attention_implementation),
        cmocka_unit_test(test_padding),
        cmocka_unit_test(test_recurrent_kernels),
        cmocka_unit_test(test_padding_mask_field),
        cmocka_unit_test(test_parallel_residual_norms),
        cmocka_unit_test(test_bert_heads),
        cmocka_unit_test(test_model_names_by_tokens),
        cmocka_unit_test(test_problem_body_shape),
        cmocka_unit_test(test_problem_status_round_trip),
        cmocka_unit_test(test_engine_versions),
        cmocka_unit_test(test_prefix_caching_knob),
        cmocka_unit_test(test_sglang_state_knobs_decoded),
        cmocka_unit_test(test_mm_limit_knob),
        cmocka_unit_test(test_model_runner_field),
        cmocka_unit_test(test_vllm_releases_after_0_26),
        cmocka_unit_test(test_entrypoint_field),
        cmocka_unit_test(test_speculative_field),
        cmocka_unit_test(test_sglang_vision_configs),
        cmocka_unit_test(test_sglang_server_arguments),
        cmocka_unit_test(test_pointer_escaping),
        cmocka_unit_test(test_catalog_listings),
        cmocka_unit_test(test_bloom_mlp_width),
        cmocka_unit_test(test_superchips),
    };
    return cmocka_run_group_tests(tests, setup_group, teardown_group);
}
