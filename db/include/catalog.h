/*
 * catalog.h - the catalog of models and accelerators: an SQLite file (the
 * default), or a PostgreSQL database several replicas share.
 *
 * catalog_open() creates the file if needed, turns on WAL and a busy timeout,
 * and applies the embedded migrations (db/migrations/NNNN_*.sql, keyed by
 * PRAGMA user_version), which also seed the first entries. Given a
 * postgres:// URL it opens the PostgreSQL catalog instead (catalog_pg.h:
 * migrations under an advisory lock, the same seed, once). A struct catalog
 * is one connection: use it from one thread at a time.
 *
 * Reads for estimates go through a snapshot: catalog_snapshot_load() copies
 * every row into plain structs once, so the request path never touches SQL.
 * A snapshot is immutable and owned by whoever loaded it.
 */
#ifndef GS_CATALOG_H
#define GS_CATALOG_H

#include "gs/status.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct catalog;

/* A nullable number as stored (SQL NULL -> present = false). */
struct catalog_real {
    bool present;
    double value;
};

/* Quoted strong entity tag of a catalog row: "\"<16 hex digits>\"". */
#define CATALOG_ETAG_MAX 24

struct catalog_model {
    char *id;
    char *name;
    char *hf_id;             /* NULL when unknown */
    char *publisher;         /* NULL when unknown */
    char *family;
    uint64_t parameters;     /* the exact count of config_json (see parameters_basis) */
    char *parameters_basis;  /* "published" (a published count reproduced) or "derived" */
    char *parameters_source;
    char *config_json;       /* Hugging Face config.json (architecture fields) */
    char *config_source;
    /* imported from a hub (NULL otherwise): the revision asked for, what the checkpoint's
     * headers say (JSON object) and where it all came from (JSON object); a put leaves an
     * existing entry's three as they are when checkpoint_json is NULL */
    char *hub_revision;
    char *checkpoint_json;
    char *provenance_json;
    char **aliases;
    size_t alias_count;
    uint64_t revision;       /* bumped by every write */
    char *created_at;
    char *updated_at;
    char etag[CATALOG_ETAG_MAX];
};

struct catalog_gpu {
    char *id;
    char *name;
    char *vendor;
    uint64_t memory_bytes;         /* marketed capacity */
    char *memory_source;
    uint64_t usable_memory_bytes;  /* 0 when unknown (SQL NULL) */
    char *usable_memory_source;    /* NULL when unknown */
    struct catalog_real memory_bandwidth_gb_s;
    struct catalog_real bf16_tflops;
    struct catalog_real fp8_tflops;
    struct catalog_real tdp_watts;
    struct catalog_real fp16_tflops;
    char *spec_source;
    char *architecture;            /* NULL when unknown, likewise the text fields below */
    char *form_factor;
    char *memory_type;
    struct catalog_real unified_memory; /* 1: CPU and GPU share one memory (GB10, Jetson) */
    char *interconnect;
    struct catalog_real interconnect_gb_s;
    struct catalog_real pcie_gen;
    struct catalog_real gpus_per_node;
    char *interconnect_source;
    struct catalog_real scale_out_gb_s; /* per GPU, to other nodes, one direction (GB/s) */
    char *scale_out_source;
    struct catalog_real sm_count;  /* streaming multiprocessors (CUDA multiProcessorCount) */
    char *sm_count_source;
    struct catalog_real price_per_hour;
    char *price_source;
    char *price_date;
    struct catalog_real purchase_price;
    char *purchase_price_source;
    char *purchase_price_date;
    char **aliases;
    size_t alias_count;
    uint64_t revision;
    char *created_at;
    char *updated_at;
    char etag[CATALOG_ETAG_MAX];
};

/* Rows sorted by id (byte order). Holds every string in it: alone, or
 * together with the snapshots a refresh shared unchanged rows with. */
struct catalog_snapshot_rows;
struct catalog_snapshot {
    struct catalog_model *models;
    size_t model_count;
    struct catalog_gpu *gpus;
    size_t gpu_count;
    struct catalog_snapshot_rows *rows; /* the catalog's own: who else holds each row */
};

/* The schema version the embedded migrations bring a catalog to. */
int catalog_schema_latest(void);

/* Opens (creating if absent) and migrates the catalog at `path`. On success
 * *out is a new handle the caller closes with catalog_close(). */
enum gs_status catalog_open(const char *path, struct catalog **out, struct gs_error *err);

/* Opens the catalog `location` names: a postgres:// or postgresql:// URL selects a
 * PostgreSQL catalog (its password: the URL's, else `password` unless NULL, else libpq's
 * PGPASSWORD or password file), anything else an SQLite file. Errors never repeat the URL. */
enum gs_status catalog_open_location(const char *location, const char *password,
                                     struct catalog **out, struct gs_error *err);

/* "sqlite" or "postgresql". */
const char *catalog_backend(const struct catalog *catalog);

/* Another process's writes to a shared (PostgreSQL) catalog, learnt on a second
 * connection (LISTEN; catalog_pg.h): catalog_watch_wait waits up to `timeout_ms` and sets
 * *changed when a change was announced - or the watch reconnected, since announcements
 * made meanwhile are lost; GS_ERR_BUSY (after waiting) while the database is unreachable.
 * catalog_watch_version reads the change counter over the watch's connection. An SQLite
 * catalog has no watch (GS_ERR_UNSUPPORTED): compare catalog_data_version instead. Use a
 * watch from one thread. */
struct catalog_watch;
enum gs_status catalog_watch_open(struct catalog *catalog, struct catalog_watch **out,
                                  struct gs_error *err);
enum gs_status catalog_watch_wait(struct catalog_watch *watch, int timeout_ms, bool *changed,
                                  struct gs_error *err);
enum gs_status catalog_watch_version(struct catalog_watch *watch, long long *out,
                                     struct gs_error *err);
void catalog_watch_close(struct catalog_watch *watch);

/* Opens like catalog_open but migrates only up to `version` (tests of upgrades). */
enum gs_status catalog_open_at_version(const char *path, int version, struct catalog **out,
                                       struct gs_error *err);

/* Closes the connection and finalizes its statements. NULL is a no-op. */
void catalog_close(struct catalog *catalog);

/* PRAGMA user_version of the open catalog. */
enum gs_status catalog_schema_version(struct catalog *catalog, int *out, struct gs_error *err);

/* Counts rows with one cheap query each: the readiness probe. */
enum gs_status catalog_ping(struct catalog *catalog, size_t *models, size_t *gpus,
                            struct gs_error *err);

/* Copies every model and GPU into a new snapshot (*out, caller frees). */
enum gs_status catalog_snapshot_load(struct catalog *catalog, struct catalog_snapshot **out,
                                     struct gs_error *err);

/* A snapshot of the catalog as it is now, built from `prev` (borrowed; NULL
 * loads everything): rows whose id, revision and creation time are unchanged
 * are shared with `prev` instead of read again, so after one write the cost is
 * one cheap scan of ids and revisions plus the changed rows. `prev` stays
 * valid and independent: either may be freed first, from any thread. A schema
 * version other than prev's (a migration by another process) reads everything. */
enum gs_status catalog_snapshot_refresh(struct catalog *catalog,
                                        const struct catalog_snapshot *prev,
                                        struct catalog_snapshot **out, struct gs_error *err);

/* Frees a snapshot; rows another snapshot still holds stay with it. NULL is a no-op. */
void catalog_snapshot_free(struct catalog_snapshot *snapshot);

/* Whether two rows of live snapshots are one shared row (so everything
 * derived from one holds for the other). */
bool catalog_model_same_row(const struct catalog_model *a, const struct catalog_model *b);
bool catalog_gpu_same_row(const struct catalog_gpu *a, const struct catalog_gpu *b);

/* The entity tag of a row: a hash of its id, revision and creation time, so a
 * row deleted and created again never repeats an old tag. */
void catalog_etag(const char *id, uint64_t revision, const char *created_at,
                  char out[CATALOG_ETAG_MAX]);

/* Finds by id or alias, ignoring ASCII case. Borrowed pointers into the
 * snapshot, or NULL. */
const struct catalog_model *catalog_snapshot_model(const struct catalog_snapshot *snapshot,
                                                   const char *id_or_alias);
const struct catalog_gpu *catalog_snapshot_gpu(const struct catalog_snapshot *snapshot,
                                               const char *id_or_alias);

/* The known ids (and aliases) closest to `name` by edit distance, for "did
 * you mean" hints; NULL when nothing is close. Borrowed. */
/* The one model whose id or an alias has exactly the tokens of `name`
 * (gs_text_token_match: case, separators, a hub organisation and variant
 * words such as Instruct aside), or NULL when none or several do. */
const struct catalog_model *catalog_snapshot_model_resolve(const struct catalog_snapshot *snapshot,
                                                           const char *name);

/* "Did you mean": the entry sharing the most tokens with `name` (every size
 * or version typed must match), else the closest by edit distance. */
const char *catalog_snapshot_model_suggest(const struct catalog_snapshot *snapshot,
                                           const char *name);
const char *catalog_snapshot_gpu_suggest(const struct catalog_snapshot *snapshot,
                                         const char *name);

/* A GPU by the name nvidia-smi, torch.cuda.get_device_name() or an engine log
 * prints (db/src/names.c): an id or alias first, then the name with its brand
 * words (NVIDIA, GeForce, Tesla, AMD Instinct), case and separators set aside
 * and its memory ("80GB"), form factor ("SXM4", "PCIe") and memory type
 * ("HBM3") checked against each part's row. A name that fits several parts
 * takes the one whose own bare name it is (the default: "A100" is the 80 GB
 * SXM board), and says how many it fits. */
#define CATALOG_GPU_FITS_MAX 6
struct catalog_gpu_lookup {
    const struct catalog_gpu *gpu; /* NULL: none, or several without a default */
    size_t fits;                   /* parts the name fits; > 1: `gpu` is the default of them */
    const struct catalog_gpu *fitting[CATALOG_GPU_FITS_MAX]; /* the first of them */
};
struct catalog_gpu_lookup catalog_snapshot_gpu_lookup(const struct catalog_snapshot *snapshot,
                                                      const char *typed);

/* What a repository name's quantization suffix says ("-AWQ", "-FP8",
 * "-GPTQ-Int4", "-bnb-4bit"): the weight format its checkpoint stores. */
struct catalog_name_quant {
    bool stated;          /* the name ends in a quantization suffix */
    bool sized;           /* ... whose format gpusizer sizes (format, group_size) */
    uint8_t format;       /* enum gs_weight_format */
    uint64_t group_size;  /* GPTQ/AWQ */
    char suffix[32];      /* as typed */
    char detail[128];     /* what the suffix is taken to mean */
};

/* A model by the Hugging Face id of a variant of a catalog model: its id or
 * alias first (an id is that checkpoint; an alias may be a quantized copy,
 * whose suffix `quant` reads); else the name less a quantization
 * suffix, matched with and without its organisation (a re-publisher such as
 * unsloth, RedHatAI or TheBloke), by an alias's repository name, by its tokens
 * (catalog_snapshot_model_resolve), and last without a release date
 * ("-2507"). */
struct catalog_model_lookup {
    const struct catalog_model *model; /* NULL: none */
    bool resolved;                     /* by the name rule, not an id or alias */
    struct catalog_name_quant quant;   /* what the name's suffix says (not for an id) */
    char date[8];                      /* a release date the rule set aside, or "" */
};
struct catalog_model_lookup catalog_snapshot_model_lookup(const struct catalog_snapshot *snapshot,
                                                          const char *typed);

#endif
