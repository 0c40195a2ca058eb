-- Schema version 32: Jamba 1.5 Mini's stored config drops an unverified use_mamba_kernels. Data
-- only.
--
-- The seeded config_json (0006_seed_models.sql) came from a test helper's copy of the Hub's
-- config.json whose use_mamba_kernels false the helper's author may have set for a kernel-less
-- test (tests/fixtures/configs/jamba/README.md). The flag picks the training path gpusizer sizes
-- (false: transformers' sequential torch scan, JambaMambaMixer.slow_forward, many times the
-- kernels' tensors), so the unverified value is dropped and JambaConfig's default, true, applies
-- (configuration_jamba.py). Only the row still holding the seeded text is changed: an entry a
-- user edited through the API is theirs. REPLACE is the same function in SQLite and PostgreSQL.
UPDATE models SET revision = revision + 1,
    config_json = REPLACE(config_json, ',"use_mamba_kernels":false', ''),
    config_source = config_source || ', without its unverified use_mamba_kernels (JambaConfig''s default, true, applies)'
 WHERE id = 'jamba-1.5-mini' AND config_json LIKE '%,"use_mamba_kernels":false,%';
