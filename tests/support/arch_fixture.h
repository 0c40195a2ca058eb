/*
 * arch_fixture.h - architectures for tests, read from config.json text
 * through gpusizer's own readers (server/models/), so every test sizes a
 * model exactly as a request with that config would.
 */
#ifndef GS_TEST_ARCH_FIXTURE_H
#define GS_TEST_ARCH_FIXTURE_H

#include "gs/arch.h"
#include "gs/estimate.h"

/* Reads `config_json` (a config.json text, printf-formatted with the
 * arguments); fails the running cmocka test with the reader's first error. */
struct gs_arch fixture_arch(const char *config_json, ...) __attribute__((format(printf, 1, 2)));

/* The same for a file under tests/fixtures/configs/ ("qwen3/Qwen__Qwen3-8B.json"). */
struct gs_arch fixture_arch_file(const char *relative_path);

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

/* A model given by its architecture, as a request with a config sends it. */
struct gs_model_spec fixture_spec(const struct gs_arch *arch);

/* A workload of `mode` in bf16 with the training and parallelism defaults;
 * serving fields unset. */
struct gs_workload fixture_workload(enum gs_mode mode);

/* The parameter count of an architecture; fails the test on error. */
struct gs_param_count fixture_count(const struct gs_arch *arch);

#endif
