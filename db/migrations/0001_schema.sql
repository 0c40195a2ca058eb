-- Schema version 1: models and accelerators, each number next to its source.
-- Applied by db/src/migrate.c inside one transaction; user_version becomes 1.

CREATE TABLE models (
    id                TEXT PRIMARY KEY,          -- lower-case catalog id, e.g. 'llama-3.1-8b'
    name              TEXT NOT NULL,
    hf_id             TEXT,                      -- Hugging Face repository id
    family            TEXT NOT NULL,             -- config model_type
    parameters        INTEGER NOT NULL CHECK (parameters > 0),
    parameters_source TEXT NOT NULL,
    config_json       TEXT NOT NULL CHECK (json_valid(config_json)),
    config_source     TEXT NOT NULL,
    created_at        TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    updated_at        TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
) STRICT;

CREATE TABLE model_aliases (
    alias    TEXT PRIMARY KEY COLLATE NOCASE,
    model_id TEXT NOT NULL REFERENCES models(id) ON DELETE CASCADE
) STRICT;

CREATE TABLE gpus (
    id                    TEXT PRIMARY KEY,
    name                  TEXT NOT NULL,
    vendor                TEXT NOT NULL,
    memory_bytes          INTEGER NOT NULL CHECK (memory_bytes > 0),   -- marketed capacity
    memory_source         TEXT NOT NULL,
    usable_memory_bytes   INTEGER CHECK (usable_memory_bytes > 0),     -- driver-reported total
    usable_memory_source  TEXT,
    memory_bandwidth_gb_s REAL,
    bf16_tflops           REAL,                                        -- dense
    fp8_tflops            REAL,                                        -- dense
    tdp_watts             INTEGER,
    spec_source           TEXT,                                        -- bandwidth, TFLOPS, TDP
    price_per_hour        REAL,                                        -- on-demand USD per GPU-hour
    price_source          TEXT,
    price_date            TEXT,
    purchase_price        REAL,                                        -- USD per GPU
    purchase_price_source TEXT,
    purchase_price_date   TEXT,
    created_at            TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    updated_at            TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    CHECK (usable_memory_bytes IS NULL OR usable_memory_source IS NOT NULL),
    CHECK (memory_bandwidth_gb_s IS NULL AND bf16_tflops IS NULL AND fp8_tflops IS NULL
           AND tdp_watts IS NULL OR spec_source IS NOT NULL),
    CHECK (price_per_hour IS NULL OR price_source IS NOT NULL),
    CHECK (purchase_price IS NULL OR purchase_price_source IS NOT NULL)
) STRICT;

CREATE TABLE gpu_aliases (
    alias  TEXT PRIMARY KEY COLLATE NOCASE,
    gpu_id TEXT NOT NULL REFERENCES gpus(id) ON DELETE CASCADE
) STRICT;
