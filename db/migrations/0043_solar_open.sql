-- Schema version 43: Solar Open 100B (solar_open, Upstage, January 2026: GLM-4.5's routed layers in
-- all 48 layers - 128 experts top 8 and a shared one - beside Llama's attention, no MTP layer).
-- Data only; no schema change.
--
-- config_json: upstage/Solar-Open-100B's config.json as the Hub's page of the file shows it (the
-- January 2026 revision), key for key (tests/fixtures/configs/solar_open); loaders' fixtures of the
-- real file agree with it.
--
-- Conventions as in 0006_seed_models.sql: config_json the architecture fields (token ids,
-- auto_map, transformers_version, use_cache dropped); `parameters` the count of that config
-- (tests/server/test_codec.c checks every row), written out in the fixture README and held by
-- tests/server/test_models.c.
--
-- ON CONFLICT DO NOTHING, as in 0004: a row a user already added under one of these ids is kept.

INSERT INTO models (id, name, hf_id, family, parameters, parameters_source, config_json, config_source,
                    publisher, parameters_basis) VALUES
-- 102,651,793,408: embedding and untied head 1,610,612,736, attention 48 x 75,497,472, routed
-- experts 48 x 2,013,790,208, shared experts 48 x 15,728,640, norms 397,312.
('solar-open-100b', 'Solar Open 100B', 'upstage/Solar-Open-100B', 'solar_open', 102651793408,
 'exact count of config_json (SolarOpenForCausalLM; fixture README hand count); the card states 102.6B total, 12B active (the active count with the input embedding: 12,054,827,008)',
 '{"model_type":"solar_open","architectures":["SolarOpenForCausalLM"],"partial_rotary_factor":1.0,"hidden_size":4096,"num_hidden_layers":48,"num_attention_heads":64,"head_dim":128,"num_key_value_heads":8,"vocab_size":196608,"intermediate_size":10240,"moe_intermediate_size":1280,"rms_norm_eps":1e-05,"rope_theta":1000000,"max_position_embeddings":131072,"n_routed_experts":128,"n_shared_experts":1,"norm_topk_prob":true,"routed_scaling_factor":1.0,"num_experts_per_tok":8,"tie_word_embeddings":false,"torch_dtype":"bfloat16","first_k_dense_replace":0,"rope_scaling":{"type":"yarn","factor":2.0,"original_max_position_embeddings":65536}}',
 'upstage/Solar-Open-100B config.json on the Hugging Face Hub (the page of the file, January 2026 revision; tests/fixtures/configs/solar_open/upstage__Solar-Open-100B.json); token ids, auto_map, transformers_version, use_cache dropped',
 'Upstage', 'derived')
ON CONFLICT DO NOTHING;

INSERT INTO model_aliases (alias, model_id) VALUES
('upstage/Solar-Open-100B', 'solar-open-100b')
ON CONFLICT DO NOTHING;
