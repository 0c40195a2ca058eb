-- Schema version 29: the seeded models' parameters_source names a reference users have. Data only.
--
-- The sources written by 0002 and 0004 cited a private notes file for the counts; they now cite
-- the count gpusizer makes of the stored config_json (docs/model-readers.md, "Parameter counts"),
-- beside the public totals (Hugging Face safetensors totals, model cards, papers) they already
-- name. New catalogs get the new text from 0002 and 0004 themselves; this brings existing ones to
-- it (the old file name is split so that no source text of this tree names it). Only text still
-- holding the old citation is changed (a user's own source never held it).
-- REPLACE is the same function in SQLite and PostgreSQL.
UPDATE models SET revision = revision + 1,
    parameters_source = REPLACE(REPLACE(parameters_source, 'estimation' || '.md 1.1',
                                        'the exact count of config_json (docs/model-readers.md)'),
                                'Estimation' || '.md 1.1',
                                'The exact count of config_json (docs/model-readers.md)')
 WHERE lower(parameters_source) LIKE '%estimation' || '.md 1.1%';
