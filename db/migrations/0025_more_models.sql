-- Schema version 25: more 2025-26 models the readers of server/models/moe.c read: MiniMax-M3
-- (minimax_m3: GQA with MiniMax Sparse Attention's lightning indexer, 128 experts) and LG's
-- EXAONE-4.0-1.2B (exaone4). Data only; no schema change.
--
-- Conventions as in 0006_seed_models.sql: config_json is the Hugging Face config.json reduced to
-- the architecture fields; `parameters` is the parameters() count of the stored config, which
-- tests/server/test_codec.c checks for every row, written out by hand in
-- tests/fixtures/configs/<model_type>/README.md. parameters_basis is 'derived': the comment quotes
-- the rounded public figure the exact count is compared with.
--
-- Aliases: the Hugging Face ids of the repositories that share each architecture.
--
-- ON CONFLICT DO NOTHING, as in 0004: a row a user already added under one of these ids or
-- aliases is kept.

INSERT INTO models (id, name, hf_id, family, parameters, parameters_source, config_json, config_source,
                    publisher, parameters_basis) VALUES
-- 426,174,565,632 = the tensors vLLM's MiniMax-M3 text model builds from the stored config
-- (transformers has no class for it): 60 layers of GQA 64/4 with per-head Gemma q/k norms, the
-- lightning indexer on the 57 sparse layers, 3 dense SwiGLU layers of 12288, 57 layers of 128
-- experts top 4 and a shared expert of 3072; untied head; routing bias a buffer; MTP and the
-- vision tower not described by this config (tests/fixtures/configs/minimax_m3/README.md).
-- Model card "~428B parameters, ~23B activated" with the vision tower and MTP.
('minimax-m3', 'MiniMax-M3', 'MiniMaxAI/MiniMax-M3', 'minimax_m3', 426174565632,
 'exact count of config_json as vLLM builds the text model (minimax_m3 model.py: GQA 64/4 with per-head q/k norms, indexer index_q/index_k on 57 sparse layers, 3 dense layers of 12288, 57 MoE layers of 128 experts top 4 plus a shared expert of 3072, untied head; routing bias a buffer; MTP and vision tower not counted; fixture README hand count 426,174,565,632); published as ~428B total / ~23B active with the vision tower',
 '{"architectures":["MiniMaxM3ForCausalLM"],"attention_output_gate":false,"dense_intermediate_size":12288,"first_k_dense_replace":3,"head_dim":128,"hidden_act":"swigluoai","hidden_size":6144,"intermediate_size":3072,"max_position_embeddings":1048576,"model_type":"minimax_m3","moe_intermediate_size":3072,"moe_layer_freq":[0,0,0,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1],"n_shared_experts":1,"num_attention_heads":64,"num_experts_per_tok":4,"num_hidden_layers":60,"num_key_value_heads":4,"num_local_experts":128,"num_mtp_modules":7,"num_nextn_predict_layers":1,"partial_rotary_factor":0.5,"qk_norm_type":"per_head","rms_norm_eps":1e-06,"rope_theta":5000000,"rotary_dim":64,"routed_scaling_factor":2.0,"scoring_func":"sigmoid","shared_intermediate_size":3072,"sparse_attention_config":{"sparse_attention_freq":[0,0,0,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1],"sparse_block_size":128,"sparse_disable_index_value":[0,0,0,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1],"sparse_index_dim":128,"sparse_init_block":0,"sparse_local_block":1,"sparse_num_index_heads":4,"sparse_score_type":"max","sparse_topk_blocks":16,"use_sparse_attention":true},"swiglu_alpha":1.702,"swiglu_limit":7.0,"tie_word_embeddings":false,"torch_dtype":"bfloat16","use_gemma_norm":true,"use_qk_norm":true,"use_routing_bias":true,"vocab_size":200064}',
 'MiniMaxAI/MiniMax-M3 text config (copy: ai-dynamo/aiconfigurator aic-core/src/aiconfigurator_core/model_configs/MiniMaxAI--MiniMax-M3_config.json, commit 095f58a5; tests/fixtures/configs/minimax_m3/MiniMaxAI__MiniMax-M3.json); the Hub release nests it under text_config beside a vision tower',
 'MiniMax', 'derived'),
-- 1,279,391,488 = parameters() of the stored config (Exaone4ForCausalLM: 30 layers of GQA 32/8 with
-- per-head q/k norms and post-sublayer norms, SwiGLU 4096, tied head;
-- tests/fixtures/configs/exaone4/README.md); model card "1.07B without embeddings" = 1,069,676,288.
('exaone-4.0-1.2b', 'EXAONE-4.0-1.2B', 'LGAI-EXAONE/EXAONE-4.0-1.2B', 'exaone4', 1279391488,
 'exact count of config_json (Exaone4ForCausalLM: 30 layers of GQA 32/8, head_dim 64, per-head q/k RMSNorms, post-attention and post-feedforward norms, SwiGLU 4096, every layer global, tied head; fixture README hand count 1,279,391,488); model card 1.07B without embeddings',
 '{"architectures":["Exaone4ForCausalLM"],"attention_dropout":0.0,"dtype":"bfloat16","head_dim":64,"hidden_act":"silu","hidden_size":2048,"intermediate_size":4096,"layer_types":["full_attention","full_attention","full_attention","full_attention","full_attention","full_attention","full_attention","full_attention","full_attention","full_attention","full_attention","full_attention","full_attention","full_attention","full_attention","full_attention","full_attention","full_attention","full_attention","full_attention","full_attention","full_attention","full_attention","full_attention","full_attention","full_attention","full_attention","full_attention","full_attention","full_attention"],"max_position_embeddings":65536,"model_type":"exaone4","num_attention_heads":32,"num_hidden_layers":30,"num_key_value_heads":8,"rms_norm_eps":1e-05,"rope_scaling":{"factor":16.0,"high_freq_factor":4.0,"low_freq_factor":1.0,"original_max_position_embeddings":8192,"rope_type":"llama3"},"rope_theta":1000000.0,"sliding_window":null,"sliding_window_pattern":null,"tie_word_embeddings":true,"vocab_size":102400}',
 'architecture fields of EXAONE-4.0-1.2B from the published config.json of a W4A16 quantization of it (GitHub his0si/EXAONE-4.0-1.2B model/config.json, commit 1840ff90; tests/fixtures/configs/exaone4/his0si__EXAONE-4.0-1.2B.json) with its quantization_config and token ids dropped; every field the LGAI model card states agrees; reduced config, not LGAI''s own file',
 'LG AI Research', 'derived')
ON CONFLICT DO NOTHING;

INSERT INTO model_aliases (alias, model_id) VALUES
('MiniMaxAI/MiniMax-M3', 'minimax-m3'),
('unsloth/MiniMax-M3', 'minimax-m3'),
('LGAI-EXAONE/EXAONE-4.0-1.2B', 'exaone-4.0-1.2b')
ON CONFLICT DO NOTHING;
