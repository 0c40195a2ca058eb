/*
 * reader.h - the toolkit readers use to read config.json into a layer-by-layer
 * description (the entry point that chooses a reader is models.h).
 *
 * One reader per model type, each a function that fills a struct gs_arch
 * with the builders of gs/arch_build.h. Readers live in this folder grouped
 * by lineage (decoder.c: Llama-style decoders and their MoE variants;
 * mla.c: DeepSeek's latent attention; classic.c: GPT-2 era models and
 * encoders; hybrid.c: Mamba, linear attention and hybrids; multimodal.c:
 * vision and audio models), and each file exports a table of the model
 * types it reads. Adding a model type is a row in one table and a function
 * beside it; nothing else in gpusizer changes.
 *
 * The toolkit here reads fields the way the transformers configuration
 * classes do (aliases, defaults, nulls meaning "the default") and writes
 * errors with JSON pointers to the field the config actually used.
 */
#ifndef GS_MODELS_READER_H
#define GS_MODELS_READER_H

#include "gs/arch.h"
#include "gs/arch_build.h"
#include "gs/status.h"

#include <jansson.h>

#define READER_POINTER_MAX 160

struct model_reader {
    const json_t *config;             /* the object fields are read from */
    char pointer[READER_POINTER_MAX]; /* where it sits in the request */
    struct gs_error *err;
    bool ok;
};

typedef void (*model_read_fn)(struct model_reader *r, struct gs_arch *arch);

struct model_type {
    const char *model_type;   /* config.json model_type */
    const char *architecture; /* architectures[0] it goes by ("LlamaForCausalLM") */
    model_read_fn read;
};

/* The tables, each ending in a zeroed row. */
extern const struct model_type MODELS_DECODER[];
extern const struct model_type MODELS_MLA[];
extern const struct model_type MODELS_CLASSIC[];
extern const struct model_type MODELS_HYBRID[];
extern const struct model_type MODELS_MULTIMODAL[];
extern const struct model_type MODELS_QWEN[];
extern const struct model_type MODELS_SPARSE_ATTENTION[];
extern const struct model_type MODELS_DEEPSEEK_V41[];
extern const struct model_type MODELS_KIMI[];
extern const struct model_type MODELS_GEMMA[];
extern const struct model_type MODELS_HETEROGENEOUS[];
extern const struct model_type MODELS_MOE[];
extern const struct model_type MODELS_INKLING[];

#define NAMES(...) ((const char *const[]){__VA_ARGS__, NULL})

/* The member `name` unless absent or null. */
const json_t *rd_get(const struct model_reader *r, const char *name);

/* A dimension under the first of `names` present and not null; `fallback`
 * when none is (an error when `required`). Checked to be an integer in
 * 0..GS_ARCH_DIM_MAX (1.. when required). */
uint64_t rd_dim(struct model_reader *r, const char *const *names, bool required, uint64_t fallback);

/* A size that cannot be zero (a width, a head count, a divisor such as
 * moe_layer_freq or n_groups): as rd_dim, optional, but when given it must be
 * at least 1 (an error at its pointer), so a hostile or broken config is a 400
 * rather than a model sized with a zero. */
uint64_t rd_size(struct model_reader *r, const char *const *names, uint64_t fallback);

/* A boolean member, or `fallback`. */
bool rd_flag(struct model_reader *r, const char *name, bool fallback);

/* A number member (Infinity and NaN read as null, so `fallback`). */
double rd_number(struct model_reader *r, const char *name, double fallback);

/* Whether a soft-capping member (attn_logit_softcapping, final_logit_softcapping) is set: a
 * positive number; null or 0 is off; `absent` when the config omits it (the configuration
 * class's default). */
bool rd_softcap(const struct model_reader *r, const char *name, bool absent);

/* A string member, or NULL. */
const char *rd_string(const struct model_reader *r, const char *name);

/* Bytes an element of the torch dtype a config names ("float32" 4, "bfloat16" and "float16"
 * 2); 0 for NULL or another name. */
uint8_t rd_dtype_bytes(const char *dtype);
/* A classification head's width: num_labels, else the size of id2label, else 2
 * (PretrainedConfig's default). */
uint64_t rd_labels(const struct model_reader *r);
/* The config's architectures[0] ("BertForMaskedLM"), NULL when it names none. */
const char *rd_architecture(const struct model_reader *r);

/* Whether any of `names` is a non-zero dropout probability. */
bool rd_dropout(const struct model_reader *r, const char *const *names);
/* As rd_dropout, but `absent` when the config names none of them: the configuration class's
 * default (GPT2Config, BertConfig and T5Config default their dropouts to 0.1). */
bool rd_dropout_or(const struct model_reader *r, const char *const *names, bool absent);

/* A nested config object (text_config, vision_config): true and *sub set
 * when present; false (no error) when absent. */
bool rd_sub(struct model_reader *r, const char *name, struct model_reader *sub);

/* Records an error at the member `name` (or the config itself for ""). */
void rd_fail(struct model_reader *r, const char *name, enum gs_status status, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* An array member of strings or integers: its length, 0 when absent; *out
 * borrows it. A member of another type is an error. */
size_t rd_array(struct model_reader *r, const char *name, const json_t **out);

/* A per-layer list of two kinds (layer_types "sliding_attention"/"full_attention",
 * mlp_layer_types "sparse"/"dense", ...) into out[]: true where the entry is `match`. False
 * when absent (or the reader has failed); an error at `name` when it is not `layers` entries
 * of the two. */
bool rd_kind_list(struct model_reader *r, const char *name, const char *match, const char *other,
                  uint64_t layers, bool out[GS_LAYERS_MAX]);

/* A positive integer member of `o`, or `fallback`. */
uint64_t rd_member_u64(const json_t *o, const char *name, uint64_t fallback);

/* The largest still image a Qwen-VL processor takes (Qwen2VLImageProcessor's smart_resize):
 * max_pixels / (patch x merge)^2 embeddings of merge^2 patches, each of channels x temporal x
 * patch^2 values (a still image is repeated to temporal_patch_size frames). All zero when the
 * bound admits no embedding or the sizes pass 64 bits. */
struct gs_mm_item rd_qwen_vl_item(uint64_t max_pixels, uint64_t channels, uint64_t temporal,
                                  uint64_t patch, uint64_t merge);

#endif
