-- PostgreSQL schema version 1: the catalog as the SQLite migrations leave it
-- at their version 14 (db/migrations/0001-0014), in PostgreSQL's terms. Every
-- rule SQLite enforces with a CHECK or a trigger is a CHECK or a trigger
-- here, so a write one backend refuses the other refuses too:
-- * STRICT tables -> typed columns; json_valid(x) -> a cast to jsonb in a
--   CHECK (a text that is not JSON fails the insert);
-- * COLLATE NOCASE aliases -> a unique index on lower(alias);
-- * "a GPU number without its source" (triggers in SQLite 0003 and 0013) ->
--   CHECK constraints with the same message as their names;
-- * the current price follows the latest dated history row (SQLite 0011's
--   triggers) -> one AFTER INSERT trigger;
-- * timestamps are ISO-8601 text with milliseconds and a Z, as SQLite's
--   strftime('%Y-%m-%dT%H:%M:%fZ') writes them.
-- The seed is not repeated here: a new PostgreSQL catalog is filled with a
-- copy of the embedded SQLite catalog's rows (db/src/catalog_pg.c), which
-- gpusizer_seeded and gpusizer_seed_rows record, and later seeds are
-- brought in the same way.

CREATE FUNCTION gpusizer_now() RETURNS text LANGUAGE sql STABLE AS
$$ SELECT to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') $$;

CREATE FUNCTION gpusizer_is_json(t text) RETURNS boolean LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
    PERFORM t::jsonb;
    RETURN true;
EXCEPTION WHEN others THEN
    RETURN false;
END $$;

CREATE TABLE models (
    id                TEXT PRIMARY KEY,
    name              TEXT NOT NULL,
    hf_id             TEXT,
    family            TEXT NOT NULL,
    parameters        BIGINT NOT NULL CHECK (parameters > 0),
    parameters_source TEXT NOT NULL,
    config_json       TEXT NOT NULL CHECK (gpusizer_is_json(config_json)),
    config_source     TEXT NOT NULL,
    created_at        TEXT NOT NULL DEFAULT gpusizer_now(),
    updated_at        TEXT NOT NULL DEFAULT gpusizer_now(),
    publisher         TEXT,
    parameters_basis  TEXT NOT NULL DEFAULT 'published'
                      CHECK (parameters_basis IN ('published', 'derived')),
    revision          BIGINT NOT NULL DEFAULT 1 CHECK (revision > 0),
    hub_revision      TEXT,
    checkpoint_json   TEXT CHECK (checkpoint_json IS NULL OR gpusizer_is_json(checkpoint_json)),
    provenance_json   TEXT CHECK (provenance_json IS NULL OR gpusizer_is_json(provenance_json))
);
CREATE INDEX models_family ON models (family);

CREATE TABLE model_aliases (
    alias    TEXT NOT NULL,
    model_id TEXT NOT NULL REFERENCES models(id) ON DELETE CASCADE
);
CREATE UNIQUE INDEX model_aliases_alias ON model_aliases (lower(alias));

CREATE TABLE gpus (
    id                    TEXT PRIMARY KEY,
    name                  TEXT NOT NULL,
    vendor                TEXT NOT NULL,
    memory_bytes          BIGINT NOT NULL CHECK (memory_bytes > 0),
    memory_source         TEXT NOT NULL,
    usable_memory_bytes   BIGINT CHECK (usable_memory_bytes > 0),
    usable_memory_source  TEXT,
    memory_bandwidth_gb_s DOUBLE PRECISION,
    bf16_tflops           DOUBLE PRECISION,
    fp8_tflops            DOUBLE PRECISION,
    tdp_watts             BIGINT,
    spec_source           TEXT,
    price_per_hour        DOUBLE PRECISION,
    price_source          TEXT,
    price_date            TEXT,
    purchase_price        DOUBLE PRECISION,
    purchase_price_source TEXT,
    purchase_price_date   TEXT,
    created_at            TEXT NOT NULL DEFAULT gpusizer_now(),
    updated_at            TEXT NOT NULL DEFAULT gpusizer_now(),
    architecture          TEXT,
    form_factor           TEXT,
    memory_type           TEXT,
    fp16_tflops           DOUBLE PRECISION CHECK (fp16_tflops IS NULL OR fp16_tflops > 0),
    interconnect          TEXT,
    interconnect_gb_s     DOUBLE PRECISION CHECK (interconnect_gb_s IS NULL OR interconnect_gb_s > 0),
    pcie_gen              BIGINT CHECK (pcie_gen IS NULL OR pcie_gen BETWEEN 1 AND 7),
    gpus_per_node         BIGINT CHECK (gpus_per_node IS NULL OR gpus_per_node BETWEEN 1 AND 72),
    interconnect_source   TEXT,
    revision              BIGINT NOT NULL DEFAULT 1 CHECK (revision > 0),
    unified_memory        BIGINT CHECK (unified_memory IN (0, 1)),
    scale_out_gb_s        DOUBLE PRECISION CHECK (scale_out_gb_s IS NULL OR scale_out_gb_s > 0),
    scale_out_source      TEXT,
    CHECK (usable_memory_bytes IS NULL OR usable_memory_source IS NOT NULL),
    CHECK (memory_bandwidth_gb_s IS NULL AND bf16_tflops IS NULL AND fp8_tflops IS NULL
           AND tdp_watts IS NULL OR spec_source IS NOT NULL),
    CHECK (price_per_hour IS NULL OR price_source IS NOT NULL),
    CHECK (purchase_price IS NULL OR purchase_price_source IS NOT NULL),
    CONSTRAINT "a GPU number without its source" CHECK (
        NOT ((interconnect_gb_s IS NOT NULL OR pcie_gen IS NOT NULL OR gpus_per_node IS NOT NULL)
             AND interconnect_source IS NULL
             OR fp16_tflops IS NOT NULL AND spec_source IS NULL
             OR scale_out_gb_s IS NOT NULL AND scale_out_source IS NULL))
);
CREATE INDEX gpus_vendor ON gpus (vendor);

CREATE TABLE gpu_aliases (
    alias  TEXT NOT NULL,
    gpu_id TEXT NOT NULL REFERENCES gpus(id) ON DELETE CASCADE
);
CREATE UNIQUE INDEX gpu_aliases_alias ON gpu_aliases (lower(alias));

CREATE TABLE gpu_prices (
    id             BIGSERIAL PRIMARY KEY,
    gpu_id         TEXT NOT NULL REFERENCES gpus(id) ON DELETE CASCADE,
    kind           TEXT NOT NULL CHECK (kind IN ('on_demand', 'purchase')),
    usd            DOUBLE PRECISION NOT NULL CHECK (usd > 0),
    effective_date TEXT NOT NULL CHECK (effective_date ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'),
    source         TEXT NOT NULL CHECK (length(source) > 0),
    recorded_at    TEXT NOT NULL DEFAULT gpusizer_now()
);
CREATE INDEX gpu_prices_current ON gpu_prices (gpu_id, kind, effective_date, id);

-- A new history row that is the latest of its kind becomes the GPU's current price.
CREATE FUNCTION gpu_prices_current() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    latest gpu_prices%ROWTYPE;
BEGIN
    IF EXISTS (SELECT 1 FROM gpu_prices p WHERE p.gpu_id = NEW.gpu_id AND p.kind = NEW.kind
                AND p.id <> NEW.id AND p.effective_date > NEW.effective_date) THEN
        RETURN NULL;
    END IF;
    SELECT * INTO latest FROM gpu_prices
     WHERE gpu_id = NEW.gpu_id AND kind = NEW.kind
     ORDER BY effective_date DESC, id DESC LIMIT 1;
    IF NEW.kind = 'on_demand' THEN
        UPDATE gpus SET price_per_hour = latest.usd, price_source = latest.source,
                        price_date = latest.effective_date
         WHERE id = NEW.gpu_id;
    ELSE
        UPDATE gpus SET purchase_price = latest.usd, purchase_price_source = latest.source,
                        purchase_price_date = latest.effective_date
         WHERE id = NEW.gpu_id;
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER gpu_prices_current AFTER INSERT ON gpu_prices
    FOR EACH ROW EXECUTE FUNCTION gpu_prices_current();

-- The embedded SQLite seed this catalog was filled from, one row per seeding: the first copy,
-- then each later gpusizer whose SQLite migrations changed the seed brought those changes in
-- (db/src/catalog_pg.c, sync_seed); the latest row says which seed the catalog holds.
CREATE TABLE gpusizer_seeded (
    sqlite_schema_version INT NOT NULL,
    seeded_at             TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- Which entries came from the seed, at which revision: an entry whose revision is still the one
-- recorded here was never written by a user, so a newer seed may update or remove it; one a
-- user wrote (a later revision), deleted (absent from its table) or created (absent here) is
-- the user's and is left alone.
CREATE TABLE gpusizer_seed_rows (
    kind     TEXT NOT NULL CHECK (kind IN ('models', 'gpus')),
    id       TEXT NOT NULL,
    revision BIGINT NOT NULL,
    PRIMARY KEY (kind, id)
);

-- Every change to the catalog's tables, by anyone (gpusizer or plain SQL), bumps the change
-- counter and notifies channel gpusizer_catalog with it: replicas LISTEN and refresh their
-- snapshot, and compare the counter periodically in case a notification was missed (a
-- replica that was disconnected). One trigger per statement, not per row.
CREATE TABLE gpusizer_changes (
    one     BOOLEAN PRIMARY KEY DEFAULT true CHECK (one),
    version BIGINT NOT NULL
);
INSERT INTO gpusizer_changes (version) VALUES (0);

CREATE FUNCTION gpusizer_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    v BIGINT;
BEGIN
    UPDATE gpusizer_changes SET version = version + 1 RETURNING version INTO v;
    PERFORM pg_notify('gpusizer_catalog', v::text);
    RETURN NULL;
END $$;
CREATE TRIGGER models_changed AFTER INSERT OR UPDATE OR DELETE ON models
    FOR EACH STATEMENT EXECUTE FUNCTION gpusizer_changed();
CREATE TRIGGER model_aliases_changed AFTER INSERT OR UPDATE OR DELETE ON model_aliases
    FOR EACH STATEMENT EXECUTE FUNCTION gpusizer_changed();
CREATE TRIGGER gpus_changed AFTER INSERT OR UPDATE OR DELETE ON gpus
    FOR EACH STATEMENT EXECUTE FUNCTION gpusizer_changed();
CREATE TRIGGER gpu_aliases_changed AFTER INSERT OR UPDATE OR DELETE ON gpu_aliases
    FOR EACH STATEMENT EXECUTE FUNCTION gpusizer_changed();
CREATE TRIGGER gpu_prices_changed AFTER INSERT OR UPDATE OR DELETE ON gpu_prices
    FOR EACH STATEMENT EXECUTE FUNCTION gpusizer_changed();
