-- Schema version 35: Llama 4 Maverick (llama4, Llama4ForConditionalGeneration, April 2025), which
-- server/readers read as Llama 4 Scout: 128 experts on every other layer (interleave_moe_layer_step
-- 2), dense MLPs of 16,384 between them. Data only; no schema change.
--
-- Conventions as in 0006_seed_models.sql (config_json the architecture fields, use_cache dropped;
-- `parameters` the parameters() count transformers builds, which tests/server/test_codec.c checks for
-- every row). The Hub file is gated and no verbatim copy of it was found: the text config is NVIDIA
-- aiconfigurator's copy (which has no vision_config), the vision config the one TensorRT-LLM's
-- Maverick test quotes, whose depth that test overrides - 34 is Scout's
-- (tests/fixtures/configs/llama4/README.md says which field comes from where).
--
-- ON CONFLICT DO NOTHING, as in 0004: a row a user already added under one of these ids is kept.

INSERT INTO models (id, name, hf_id, family, parameters, parameters_source, config_json, config_source,
                    publisher, parameters_basis) VALUES
-- 401,583,781,376 = text 400,711,848,960 (24 dense layers, 24 of 128 experts top 1 with a shared
-- expert) + vision 850,960,896 + projector 20,971,520 (tests/fixtures/configs/llama4/README.md);
-- Meta "17B active, 128 experts, 400B total" (exact active without the input embedding
-- 16,150,205,440).
('llama-4-maverick-17b-128e-instruct', 'Llama 4 Maverick 17B-128E Instruct', 'meta-llama/Llama-4-Maverick-17B-128E-Instruct', 'llama4', 401583781376,
 'exact count of config_json (Llama 4 text: 24 dense layers x 314,583,040 + 24 MoE layers x 16,295,536,640 with attention and norms + embedding, head and norm 2,068,976,640; vision 850,960,896 and projector 20,971,520 as Scout''s; fixture README hand count 401,583,781,376); published as 400B total / 17B active',
 '{"architectures":["Llama4ForConditionalGeneration"],"model_type":"llama4","text_config":{"attention_bias":false,"attention_chunk_size":8192,"attention_dropout":0.0,"head_dim":128,"hidden_act":"silu","hidden_size":5120,"interleave_moe_layer_step":2,"intermediate_size":8192,"intermediate_size_mlp":16384,"max_position_embeddings":1048576,"model_type":"llama4_text","num_attention_heads":40,"num_experts_per_tok":1,"num_hidden_layers":48,"num_key_value_heads":8,"num_local_experts":128,"output_router_logits":false,"rms_norm_eps":1e-05,"rope_scaling":null,"rope_theta":500000.0,"router_aux_loss_coef":0.001,"torch_dtype":"bfloat16","use_qk_norm":false,"vocab_size":202048},"torch_dtype":"bfloat16","vision_config":{"attention_dropout":0.0,"hidden_act":"gelu","hidden_size":1408,"image_size":336,"initializer_range":0.02,"intermediate_size":5632,"model_type":"llama4_vision_model","multi_modal_projector_bias":false,"norm_eps":1e-05,"num_attention_heads":16,"num_channels":3,"num_hidden_layers":34,"patch_size":14,"pixel_shuffle_ratio":0.5,"projector_dropout":0.0,"projector_input_dim":4096,"projector_output_dim":4096,"rope_theta":10000,"torch_dtype":"bfloat16","vision_feature_layer":-1,"vision_feature_select_strategy":"default","vision_output_dim":4096}}',
 'meta-llama/Llama-4-Maverick-17B-128E-Instruct config.json: text_config as ai-dynamo/aiconfigurator keeps it (aic-core/src/aiconfigurator_core/model_configs/meta-llama--Llama-4-Maverick-17B-128E-Instruct_config.json, commit 095f58a5; tests/fixtures/configs/llama4/), vision_config as NVIDIA/TensorRT-LLM tests/unittest/_torch/modeling/test_modeling_llama_min_latency.py quotes it (LLAMA_4_MAVERICK_TWO_LAYER_CONFIG) with Scout''s 34 layers; use_cache dropped',
 'Meta', 'derived')
ON CONFLICT DO NOTHING;

-- The pre-trained Llama-4-Maverick-17B-128E has the instruct model's shapes (Meta's model card gives
-- both as 17B active / 400B total with 128 experts); the Ollama tag names the instruct model.
INSERT INTO model_aliases (alias, model_id) VALUES
('meta-llama/Llama-4-Maverick-17B-128E-Instruct', 'llama-4-maverick-17b-128e-instruct'),
('meta-llama/Llama-4-Maverick-17B-128E', 'llama-4-maverick-17b-128e-instruct'),
('llama-4-maverick', 'llama-4-maverick-17b-128e-instruct'),
('llama4-maverick', 'llama-4-maverick-17b-128e-instruct'),
('llama4:maverick', 'llama-4-maverick-17b-128e-instruct')
ON CONFLICT DO NOTHING;
