/*
 * gpu_names.h - GPU names as drivers and people print them, parsed: the brand words
 * (NVIDIA, GeForce, Tesla, AMD Instinct) dropped, case and separators set aside, and the
 * memory ("80GB"), form factor ("SXM4", "PCIe") and memory type ("HBM3") split off; and,
 * per snapshot, the index of every catalog GPU's names parsed once (names.c builds it on a
 * snapshot's first lookup; the snapshot keeps and frees it, snapshot.h).
 */
#ifndef GS_GPU_NAMES_H
#define GS_GPU_NAMES_H

#include <stdbool.h>
#include <stddef.h>

struct catalog_snapshot;

/* A GPU name with its brand words dropped, split into the model it names and
 * the qualifiers drivers append: "NVIDIA H100 80GB HBM3" is model "h100",
 * 80 GB, HBM3; "NVIDIA A100-SXM4-80GB" is "a100", SXM, 80 GB; "NVIDIA GeForce
 * RTX 5090" is "rtx5090". */
struct gpu_name {
    char base[64];       /* the model words run together, lower case */
    unsigned memory_gb;  /* 0: no memory given */
    char form[8];        /* "sxm", "pcie" or "" */
    char memory_type[8]; /* "hbm3", "gddr6x"... or "" */
};

/* Parses `text` into *out. */
void gpu_names_parse(const char *text, struct gpu_name *out);

/* Every GPU of a snapshot with its names (id, name, aliases) parsed, in the snapshot's
 * order. */
struct catalog_gpu_names;

/* The index of the snapshot's GPUs (borrowed while building; the index keeps no pointer
 * into it): a new one the caller frees with gpu_names_free, NULL when out of memory. */
struct catalog_gpu_names *gpu_names_build(const struct catalog_snapshot *s);

/* NULL is a no-op. */
void gpu_names_free(struct catalog_gpu_names *names);

/* How a catalog GPU answers a typed name: whether it fits, and whether one of
 * its own names is the bare model ("a100", "h100": the catalog's default for
 * a name that gives no memory or form factor). */
struct gpu_fit {
    bool fits;
    bool is_default;
};

/* How GPU `gpu` (an index into the snapshot the index was built from) answers `typed`. */
struct gpu_fit gpu_names_fit(const struct catalog_gpu_names *all, size_t gpu,
                             const struct gpu_name *typed);

#endif
