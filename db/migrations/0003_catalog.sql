-- Schema version 3: the full catalog. Accelerators gain interconnect, node
-- size, architecture and FP16 columns; models gain their publisher; both gain a
-- revision that every write bumps (the ETag's input); GPU prices get a history.
--
-- Cross-column "a number needs its source" rules cannot be added to an existing
-- table's CHECK constraints in SQLite, so the new ones are triggers.

ALTER TABLE models ADD COLUMN publisher TEXT;            -- organisation that released the model
-- 'published': `parameters` is a count published for the checkpoint (its
-- safetensors total, the model card or paper, the exact count of config_json (docs/model-readers.md)) and the
-- stored config reproduces it exactly; 'derived': no exact published count was
-- found, so `parameters` is the exact count of the stored config.
ALTER TABLE models ADD COLUMN parameters_basis TEXT NOT NULL DEFAULT 'published'
    CHECK (parameters_basis IN ('published', 'derived'));
ALTER TABLE models ADD COLUMN revision INTEGER NOT NULL DEFAULT 1 CHECK (revision > 0);

ALTER TABLE gpus ADD COLUMN architecture TEXT;           -- 'Hopper', 'CDNA 3', 'Gaudi 2', ...
ALTER TABLE gpus ADD COLUMN form_factor TEXT;            -- 'SXM5', 'PCIe', 'OAM', ...
ALTER TABLE gpus ADD COLUMN memory_type TEXT;            -- 'HBM3', 'GDDR6', ...
ALTER TABLE gpus ADD COLUMN fp16_tflops REAL CHECK (fp16_tflops IS NULL OR fp16_tflops > 0); -- dense
ALTER TABLE gpus ADD COLUMN interconnect TEXT;           -- 'NVLink 4', 'Infinity Fabric', 'PCIe only', ...
ALTER TABLE gpus ADD COLUMN interconnect_gb_s REAL CHECK (interconnect_gb_s IS NULL OR interconnect_gb_s > 0); -- per GPU, GPU-to-GPU, both directions
ALTER TABLE gpus ADD COLUMN pcie_gen INTEGER CHECK (pcie_gen IS NULL OR pcie_gen BETWEEN 1 AND 7);
ALTER TABLE gpus ADD COLUMN gpus_per_node INTEGER CHECK (gpus_per_node IS NULL OR gpus_per_node BETWEEN 1 AND 72);
ALTER TABLE gpus ADD COLUMN interconnect_source TEXT;    -- interconnect, bandwidth, PCIe, node size
ALTER TABLE gpus ADD COLUMN revision INTEGER NOT NULL DEFAULT 1 CHECK (revision > 0);

CREATE TRIGGER gpus_sources_insert BEFORE INSERT ON gpus
WHEN (NEW.interconnect_gb_s IS NOT NULL OR NEW.pcie_gen IS NOT NULL OR NEW.gpus_per_node IS NOT NULL)
     AND NEW.interconnect_source IS NULL
  OR NEW.fp16_tflops IS NOT NULL AND NEW.spec_source IS NULL
BEGIN
    SELECT RAISE(ABORT, 'a GPU number without its source');
END;

CREATE TRIGGER gpus_sources_update BEFORE UPDATE ON gpus
WHEN (NEW.interconnect_gb_s IS NOT NULL OR NEW.pcie_gen IS NOT NULL OR NEW.gpus_per_node IS NOT NULL)
     AND NEW.interconnect_source IS NULL
  OR NEW.fp16_tflops IS NOT NULL AND NEW.spec_source IS NULL
BEGIN
    SELECT RAISE(ABORT, 'a GPU number without its source');
END;

-- Every price a GPU has had: on-demand USD per GPU-hour or purchase USD per
-- GPU, from an effective date, with its source. The current price is the row
-- with the latest effective date (the latest recorded among equal dates);
-- gpus.price_per_hour / purchase_price and their source and date columns are
-- a copy of it that the triggers below keep, so readers need no join. A row
-- dated before the latest one is history only: it never touches the current
-- price (which may also have been withdrawn, set to NULL, since).
CREATE TABLE gpu_prices (
    id             INTEGER PRIMARY KEY,
    gpu_id         TEXT NOT NULL REFERENCES gpus(id) ON DELETE CASCADE,
    kind           TEXT NOT NULL CHECK (kind IN ('on_demand', 'purchase')),
    usd            REAL NOT NULL CHECK (usd > 0),
    effective_date TEXT NOT NULL CHECK (effective_date GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
    source         TEXT NOT NULL CHECK (length(source) > 0),
    recorded_at    TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
) STRICT;

CREATE INDEX gpu_prices_current ON gpu_prices (gpu_id, kind, effective_date, id);

CREATE TRIGGER gpu_prices_current_on_demand AFTER INSERT ON gpu_prices
WHEN NEW.kind = 'on_demand'
 AND NOT EXISTS (SELECT 1 FROM gpu_prices p WHERE p.gpu_id = NEW.gpu_id AND p.kind = NEW.kind
                  AND p.id <> NEW.id AND p.effective_date > NEW.effective_date)
BEGIN
    UPDATE gpus SET (price_per_hour, price_source, price_date) =
        (SELECT usd, source, effective_date FROM gpu_prices
          WHERE gpu_id = NEW.gpu_id AND kind = 'on_demand'
          ORDER BY effective_date DESC, id DESC LIMIT 1)
    WHERE id = NEW.gpu_id;
END;

CREATE TRIGGER gpu_prices_current_purchase AFTER INSERT ON gpu_prices
WHEN NEW.kind = 'purchase'
 AND NOT EXISTS (SELECT 1 FROM gpu_prices p WHERE p.gpu_id = NEW.gpu_id AND p.kind = NEW.kind
                  AND p.id <> NEW.id AND p.effective_date > NEW.effective_date)
BEGIN
    UPDATE gpus SET (purchase_price, purchase_price_source, purchase_price_date) =
        (SELECT usd, source, effective_date FROM gpu_prices
          WHERE gpu_id = NEW.gpu_id AND kind = 'purchase'
          ORDER BY effective_date DESC, id DESC LIMIT 1)
    WHERE id = NEW.gpu_id;
END;

-- Prices already in the catalog become its first history rows. Undated seed
-- prices are dated by the day this schema version was written, and say so.
INSERT INTO gpu_prices (gpu_id, kind, usd, effective_date, source)
SELECT id, 'on_demand', price_per_hour, coalesce(price_date, '2026-11-23'),
       price_source || CASE WHEN price_date IS NULL THEN ' (undated source; dated when recorded)' ELSE '' END
  FROM gpus WHERE price_per_hour IS NOT NULL;
INSERT INTO gpu_prices (gpu_id, kind, usd, effective_date, source)
SELECT id, 'purchase', purchase_price, coalesce(purchase_price_date, '2026-11-23'),
       purchase_price_source || CASE WHEN purchase_price_date IS NULL THEN ' (undated source; dated when recorded)' ELSE '' END
  FROM gpus WHERE purchase_price IS NOT NULL;

CREATE INDEX models_family ON models (family);
CREATE INDEX gpus_vendor ON gpus (vendor);
