/*
 * arch_fixture.h - architectures for tests, read from config.json text
 * through gpusizer's own readers (server/readers/), so every test sizes a
 * model exactly as a request with that config would.
 */
#ifndef GS_TEST_ARCH_FIXTURE_H
#define GS_TEST_ARCH_FIXTURE_H

#include "gs/activation.h"
#include "gs/arch.h"
#include "gs/estimate.h"
#include "gs/inference.h"
#include "gs/perf.h"

/* Reads `config_json` (a config.json text, printf-formatted with the
 * arguments); fails the running cmocka test with the reader's first error. */
struct gs_arch fixture_arch(const char *config_json, ...) __attribute__((format(printf, 1, 2)));

/* The same for a file under tests/fixtures/configs/ ("qwen3/Qwen__Qwen3-8B.json"). */
struct gs_arch fixture_arch_file(const char *relative_path);
/* The same with the config's member `key` set to the JSON `value` (a quantization_config). */
struct gs_arch fixture_arch_file_set(const char *relative_path, const char *key, const char *value);
/* The same inside the config's object member `object` (NULL: the config itself); a NULL `value`
 * removes `key`. */
struct gs_arch fixture_arch_file_set_in(const char *relative_path, const char *object,
                                        const char *key, const char *value);

/* A config of `model_type` with the Llama-style fields (head_dim 0: the
 * reader's default). */
struct gs_arch fixture_typed(const char *model_type, uint64_t hidden, uint64_t layers,
                             uint64_t heads, uint64_t kv_heads, uint64_t intermediate,
                             uint64_t vocab, bool tied, uint64_t head_dim);
struct gs_arch fixture_llama(uint64_t hidden, uint64_t layers, uint64_t heads, uint64_t kv_heads,
                             uint64_t intermediate, uint64_t vocab, bool tied);

/* DeepSeek-V3 (deepseek-ai/DeepSeek-V3 config.json, architecture fields;
 * no MTP layer) and Mixtral-8x7B (mistralai/Mixtral-8x7B-v0.1). */
/* The same config with `extra` members ("\"name\":value," each) before its last. */
struct gs_arch fixture_deepseek_v3_with(const char *extra);
struct gs_arch fixture_deepseek_v3(void);
struct gs_arch fixture_mixtral_8x7b(void);
/* A two-layer DeepSeek-V3 (MLA: h 64, 4 heads, Q/K heads of 16 + 8 rope, V of 16, both layers
 * dense, vocabulary 1,000) for hand computations. */
struct gs_arch fixture_small_mla(void);

/* Default parallelism and a request naming `framework` at `version` (major*100 + minor; 0: its
 * newest row). */
void fixture_framework_release(struct gs_parallelism *par, struct gs_training_knobs *knobs,
                               enum gs_framework framework, uint32_t version);

/* One sequence of `sequence_length` tokens in bf16 through `a`, no recomputation, over `par`,
 * under `rules`, through a fused attention kernel or (flash_attention false) eager attention. */
struct gs_activation_input fixture_one_sequence(const struct gs_arch *a,
                                                const struct gs_parallelism *par,
                                                const struct gs_framework_rules *rules,
                                                uint64_t sequence_length, bool flash_attention);

/* The assumption of an estimate named `name`, or NULL. */
const struct gs_assumption *fixture_assumption(const struct gs_estimate *e, const char *name);
/* Whether an estimate carries a warning of `code`. */
bool fixture_warned(const struct gs_estimate *e, const char *code);

/* A model given by its architecture, as a request with a config sends it. */
struct gs_model_spec fixture_spec(const struct gs_arch *arch);

/* A workload of `mode` in bf16 with the training and parallelism defaults;
 * serving fields unset. */
struct gs_workload fixture_workload(enum gs_mode mode);

/* LoRA of `rank` on q_proj and v_proj (PEFT's default targets for Llama), given as a request
 * gives it. */
void fixture_lora_qv(struct gs_training *training, uint64_t rank);

/* The parameter count of an architecture; fails the test on error. */
struct gs_param_count fixture_count(const struct gs_arch *arch);

/* Asserts that the components of a count but the MTP layers and the
 * buffers (embedding, attention, MLP, experts, norms, head, other, vision,
 * audio) sum to its total. */
void fixture_assert_parts_sum(const struct gs_param_count *count);

/* Asserts that reading `config_json` (under no JSON pointer prefix) fails
 * and that its first error names `pointer`. */
void fixture_assert_reader_error(const char *config_json, const char *pointer);

/* Asserts that reading `config_json` as a request's /model/config fails
 * with `status`, its errors at `pointers` (NULL-terminated) in that order
 * and no others. */
void fixture_assert_refused(const char *config_json, enum gs_status status,
                            const char *const *pointers);

/* The NULL-terminated list of JSON pointers fixture_assert_refused takes. */
#define FIXTURE_POINTERS(...) ((const char *const[]){__VA_ARGS__, NULL})

/* Decoder layers by mixer, and those whose MLP routes to experts. */
struct fixture_kinds {
    uint64_t attention, mla, recurrent, none, moe;
};
struct fixture_kinds fixture_layer_kinds(const struct gs_arch *arch);

/* Asserts every field of fixture_layer_kinds, and that the mixers account
 * for every decoder layer. */
void fixture_assert_kinds(const struct gs_arch *arch, struct fixture_kinds want);

/* The KV cache layout with the cache in `dtype` and the model in bf16, on
 * one GPU of a tensor group of `tensor` (one pipeline stage); fails the test
 * if there is none. */
struct gs_kv_layout fixture_layout_as(const struct gs_arch *arch, enum gs_kv_dtype dtype,
                                      uint64_t tensor);

/* The same with the cache in the model's dtype (GS_KV_AUTO). */
struct gs_kv_layout fixture_layout(const struct gs_arch *arch, uint64_t tensor);

/* Asserts fixture_layout's KV bytes per token and recurrent state bytes
 * per sequence at `tensor`. */
void fixture_assert_cache(const struct gs_arch *arch, uint64_t tensor, uint64_t token_bytes,
                          uint64_t state_bytes);

/* A bf16 vLLM serving workload: `batch` sequences of `context` tokens at
 * tensor parallelism `tensor` on GPUs of `gpu_bytes` (0: unset). */
struct gs_workload fixture_vllm_workload(uint64_t batch, uint64_t context, uint64_t tensor,
                                         uint64_t gpu_bytes);

/* The estimate of `workload` for a model given by `arch`; fails the test
 * with the first error. */
struct gs_estimate fixture_estimate(const struct gs_arch *arch, const struct gs_workload *workload);

/* Runs a vLLM serving estimate of `batch` sequences of 4096 tokens at
 * tensor parallelism `tensor` on GPUs of `gpu_bytes` and asserts what every
 * model's does: it serves with the layout fixture_layout gives, in 16-token
 * blocks; the cache it needs and holds per GPU is the batch times one
 * sequence's blocks (gs_kv_sequence_bytes: full layers and the indexer
 * every token, windowed layers their window, recurrent layers their state),
 * which lie between every layer holding only the full layers' tokens and
 * every layer holding all of them; the weights come to at least two bytes
 * per parameter over the group. Returns the sequence's bytes. */
uint64_t fixture_assert_vllm_serving(const struct gs_arch *arch, uint64_t batch, uint64_t tensor,
                                     uint64_t gpu_bytes);

/* A bf16 vLLM input of one 4,096-token sequence of `arch` at tensor parallelism `tensor` on GPUs
 * of `gpu_bytes`, the latest release's rules. */
struct gs_inference_input fixture_vllm_one_sequence(const struct gs_arch *arch, uint64_t tensor,
                                                    uint64_t gpu_bytes);

/* What the throughput tests compute by hand against: one sequence of `prompt` tokens of `arch`
 * (its cache laid out as `kv`) on one GPU of 3.35 TB/s and 989 dense bf16 TFLOPS, decode reads,
 * decode compute and prefill at full efficiency. */
struct fixture_perf {
    struct gs_perf_gpu gpu;
    struct gs_efficiency eff;
    struct gs_decode_input in;
};
void fixture_perf_one_sequence(struct fixture_perf *p, const struct gs_arch *arch,
                               const struct gs_kv_layout *kv, uint64_t prompt);

/* The vLLM input of the PR #10511 log: Meta-Llama-3-8B (`a`) in bf16, 16,060,522,496 bytes of
 * weights, one sequence of 8,192 tokens on one H100 of 79.22 GiB (85,061,827,297 bytes). */
struct gs_inference_input fixture_llama3_8b_on_h100(const struct gs_arch *a);

#endif
