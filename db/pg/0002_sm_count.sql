-- Schema version 2 of the PostgreSQL catalog: each GPU's streaming-multiprocessor
-- count and its source, as db/migrations/0015_sm_count.sql adds them to the
-- SQLite catalog (whose seed the PostgreSQL catalog copies).
ALTER TABLE gpus ADD COLUMN sm_count BIGINT CHECK (sm_count IS NULL OR sm_count BETWEEN 1 AND 1024);
ALTER TABLE gpus ADD COLUMN sm_count_source TEXT;
ALTER TABLE gpus ADD CONSTRAINT "an SM count without its source"
    CHECK (sm_count IS NULL OR sm_count_source IS NOT NULL);
