-- Schema version 28: the catalog's BERT entries name the class they count. Data only.
--
-- Their config_json is the Hub's config.json, whose architectures names BertForMaskedLM (the
-- class the checkpoint was saved from), while the entries count BertModel, the encoder with its
-- pooler, as keras-hub's presets do (0004_seed_models.sql). gpusizer now reads architectures to
-- size the head a config names (server/models/classic.c read_bert: BertForMaskedLM adds the
-- masked-LM head and its vocabulary logits, which a masked-LM training run holds at its loss;
-- BertForSequenceClassification a classifier), so the stored configs say BertModel, keeping each
-- entry's count and sizing what the entry describes. Only rows still holding the seeded config
-- are changed: an entry a user edited through the API is theirs. REPLACE is the same function in
-- SQLite and PostgreSQL.
UPDATE models SET revision = revision + 1,
    config_json = REPLACE(config_json, '"architectures":["BertForMaskedLM"]',
                          '"architectures":["BertModel"]'),
    config_source = config_source || ', architectures set to BertModel (the class the entry counts: the encoder with its pooler)'
 WHERE id IN ('bert-base-uncased', 'bert-large-uncased', 'bert-base-cased', 'bert-large-cased')
   AND config_json LIKE '%"architectures":["BertForMaskedLM"]%';
