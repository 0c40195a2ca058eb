-- Schema version 14: models imported from a Hugging Face hub by their id
-- (POST /v1/models:import, gpusizer import). Such a model keeps, besides its
-- config.json:
--   hub_revision     the revision asked for ("main", a tag, a commit), so the
--                    same id at another revision is another import;
--   checkpoint_json  what its safetensors or GGUF headers say: tensor count,
--                    bytes as stored (all, by dtype, matrices and vectors, by
--                    layer), the exact parameter count, the stored format;
--   provenance_json  hub id, revision and the commit it resolved to, the URLs
--                    read, when, and the sha256 of the config and of each
--                    header, so the figures can be re-checked.
-- Models from the seed or from PUT have NULL in all three.

ALTER TABLE models ADD COLUMN hub_revision TEXT;
ALTER TABLE models ADD COLUMN checkpoint_json TEXT
    CHECK (checkpoint_json IS NULL OR json_valid(checkpoint_json));
ALTER TABLE models ADD COLUMN provenance_json TEXT
    CHECK (provenance_json IS NULL OR json_valid(provenance_json));
