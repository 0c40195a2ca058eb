-- Schema version 18: the sparse- and compressed-attention models server/models/sparse_attention.c
-- reads - DeepSeek-V4-Flash and -Pro (deepseek_v4: a sliding window on every layer, compressed
-- entries beside it, hyper-connections, hash-routed first layers, MXFP4 experts) and GLM-5, GLM-5.1
-- and GLM-5.2 (glm_moe_dsa: DeepSeek-V3.2's latent attention and lightning indexer, shared across
-- layers in GLM-5.2) - and the Kimi-K2 rows counted as transformers 5 builds their class. Data only;
-- no schema change.
--
-- Conventions as in 0006_seed_models.sql: config_json is the Hugging Face config.json reduced to the
-- architecture fields (token ids, initializer_range, transformers_version, use_cache dropped),
-- quantization_config and expert_dtype kept where the checkpoint ships quantized (0007): DeepSeek-V4
-- is sized in its stored format, MXFP4 routed experts. `parameters` is the parameters() count of the
-- stored config as transformers 5 builds the class in architectures[0], which
-- tests/server/test_codec.c checks for every row, written out by hand in
-- tests/fixtures/configs/<model_type>/README.md. The checkpoints also store a multi-token-prediction
-- layer and the routers' buffers (e_score_correction_bias; DeepSeek-V4's tid2eid hash tables), which
-- transformers does not count as parameters; the comments give both. parameters_basis is 'derived':
-- the public figures are rounded.
--
-- Aliases: the Hugging Face ids of the base and quantized repositories that share each
-- architecture (their config.json files in ai-dynamo/aiconfigurator aic-core/src/aiconfigurator_core/model_configs; a quantized one sizes as this row's stored
-- format unless the request names a precision; importing the hub id gives its exact bytes).
--
-- ON CONFLICT DO NOTHING, as in 0004: a row a user already added under one of these ids or
-- aliases is kept.

INSERT INTO models (id, name, hf_id, family, parameters, parameters_source, config_json, config_source,
                    publisher, parameters_basis) VALUES
-- 284,332,230,231 = parameters() of the stored config (DeepseekV4ForCausalLM: 43 layers - 2 sliding
-- window, 21 compressed sparse with an indexer, 20 heavily compressed - 256 experts top 6 and a shared
-- expert, 4 hyper-connection streams; tests/fixtures/configs/deepseek_v4/README.md). The checkpoint
-- adds the MTP layer (6,610,048,891) and 2,337,280 router buffer values. Model card: "284B total,
-- 13B activated" (exact active without the input lookup: 13,270,091,351).
('deepseek-v4-flash', 'DeepSeek-V4-Flash', 'deepseek-ai/DeepSeek-V4-Flash', 'deepseek_v4', 284332230231,
 'exact count of config_json (DeepseekV4ForCausalLM: 43 x 6,576,416,374 per layer + 21 x 19,142,272 compressed sparse compressors and indexers + 20 x 4,260,352 heavily compressed compressors + 1,059,131,397 embedding, head, norm and hc_head; MTP layer and router buffers not parameters; fixture README hand count 284,332,230,231); model card 284B total / 13B activated',
 '{"architectures":["DeepseekV4ForCausalLM"],"model_type":"deepseek_v4","attention_bias":false,"attention_dropout":0.0,"expert_dtype":"fp4","hc_eps":1e-06,"hc_mult":4,"hc_sinkhorn_iters":20,"head_dim":512,"hidden_act":"silu","hidden_size":4096,"index_head_dim":128,"index_n_heads":64,"index_topk":512,"max_position_embeddings":1048576,"moe_intermediate_size":2048,"n_routed_experts":256,"n_shared_experts":1,"norm_topk_prob":true,"num_attention_heads":64,"num_experts_per_tok":6,"num_hidden_layers":43,"num_hash_layers":3,"num_key_value_heads":1,"num_nextn_predict_layers":1,"o_groups":8,"o_lora_rank":1024,"q_lora_rank":1024,"qk_rope_head_dim":64,"quantization_config":{"activation_scheme":"dynamic","fmt":"e4m3","quant_method":"fp8","scale_fmt":"ue8m0","weight_block_size":[128,128]},"rms_norm_eps":1e-06,"rope_scaling":{"beta_fast":32,"beta_slow":1,"factor":16,"original_max_position_embeddings":65536,"type":"yarn"},"rope_theta":10000,"routed_scaling_factor":1.5,"scoring_func":"sqrtsoftplus","sliding_window":128,"swiglu_limit":10.0,"tie_word_embeddings":false,"topk_method":"noaux_tc","torch_dtype":"bfloat16","vocab_size":129280,"compress_rope_theta":160000,"compress_ratios":[0,0,4,128,4,128,4,128,4,128,4,128,4,128,4,128,4,128,4,128,4,128,4,128,4,128,4,128,4,128,4,128,4,128,4,128,4,128,4,128,4,128,4,0]}',
 'deepseek-ai/DeepSeek-V4-Flash config.json on the Hugging Face Hub (copy: ai-dynamo/aiconfigurator aic-core/src/aiconfigurator_core/model_configs/deepseek-ai--DeepSeek-V4-Flash_config.json, commit 095f58a5; tests/fixtures/configs/deepseek_v4/deepseek-ai__DeepSeek-V4-Flash.json); token ids, initializer_range, transformers_version and use_cache dropped',
 'DeepSeek', 'derived'),
-- 1,572,997,179,491 = parameters() of the stored config (61 layers: 30 compressed sparse, 31 heavily
-- compressed; 384 experts top 6; tests/fixtures/configs/deepseek_v4/README.md); with the MTP layer
-- (25,840,145,979) 1,598,837,325,470. Model card: "1.6T total, 49B activated" (exact active
-- 48,852,379,747).
('deepseek-v4-pro', 'DeepSeek-V4-Pro', 'deepseek-ai/DeepSeek-V4-Pro', 'deepseek_v4', 1572997179491,
 'exact count of config_json (DeepseekV4ForCausalLM: 61 x 25,737,248,950 per layer + 30 x 31,397,504 compressed sparse compressors and indexers + 31 x 7,406,080 heavily compressed compressors + 1,853,479,941 model-level; fixture README hand count 1,572,997,179,491); model card 1.6T total (1,598,837,325,470 with the MTP layer) / 49B activated',
 '{"architectures":["DeepseekV4ForCausalLM"],"model_type":"deepseek_v4","attention_bias":false,"attention_dropout":0.0,"expert_dtype":"fp4","hc_eps":1e-06,"hc_mult":4,"hc_sinkhorn_iters":20,"head_dim":512,"hidden_act":"silu","hidden_size":7168,"index_head_dim":128,"index_n_heads":64,"index_topk":1024,"max_position_embeddings":1048576,"moe_intermediate_size":3072,"n_routed_experts":384,"n_shared_experts":1,"norm_topk_prob":true,"num_attention_heads":128,"num_experts_per_tok":6,"num_hidden_layers":61,"num_hash_layers":3,"num_key_value_heads":1,"num_nextn_predict_layers":1,"o_groups":16,"o_lora_rank":1024,"q_lora_rank":1536,"qk_rope_head_dim":64,"quantization_config":{"activation_scheme":"dynamic","fmt":"e4m3","quant_method":"fp8","scale_fmt":"ue8m0","weight_block_size":[128,128]},"rms_norm_eps":1e-06,"rope_scaling":{"beta_fast":32,"beta_slow":1,"factor":16,"original_max_position_embeddings":65536,"type":"yarn"},"rope_theta":10000,"routed_scaling_factor":2.5,"scoring_func":"sqrtsoftplus","sliding_window":128,"swiglu_limit":10.0,"tie_word_embeddings":false,"topk_method":"noaux_tc","torch_dtype":"bfloat16","vocab_size":129280,"compress_rope_theta":160000,"compress_ratios":[128,128,4,128,4,128,4,128,4,128,4,128,4,128,4,128,4,128,4,128,4,128,4,128,4,128,4,128,4,128,4,128,4,128,4,128,4,128,4,128,4,128,4,128,4,128,4,128,4,128,4,128,4,128,4,128,4,128,4,128,4,0]}',
 'deepseek-ai/DeepSeek-V4-Pro config.json on the Hugging Face Hub (copy: ai-dynamo/aiconfigurator aic-core/src/aiconfigurator_core/model_configs/deepseek-ai--DeepSeek-V4-Pro_config.json, commit 095f58a5; tests/fixtures/configs/deepseek_v4/deepseek-ai__DeepSeek-V4-Pro.json); token ids, initializer_range, transformers_version and use_cache dropped',
 'DeepSeek', 'derived'),
-- 743,911,199,232 = parameters() of the stored config (GlmMoeDsaForCausalLM: 3 dense and 75 routed
-- MLA layers, an indexer on every layer; tests/fixtures/configs/glm_moe_dsa/README.md); the
-- checkpoint adds the MTP layer 78 (11,856,086,016) and 75 x 256 correction biases. Model card:
-- "744B parameters (40B active)" (exact active 40,833,126,912).
('glm-5', 'GLM-5', 'zai-org/GLM-5', 'glm_moe_dsa', 743911199232,
 'exact count of config_json (GlmMoeDsaForCausalLM: 3 x 400,898,816 dense + 75 x 9,877,404,416 routed layers, each with MLA 165,022,208 and indexer 9,371,904, + embedding, head and norm 1,903,171,584; MTP not built; fixture README hand count 743,911,199,232); model card 744B / 40B active',
 '{"architectures":["GlmMoeDsaForCausalLM"],"model_type":"glm_moe_dsa","attention_bias":false,"attention_dropout":0.0,"dtype":"bfloat16","first_k_dense_replace":3,"hidden_act":"silu","head_dim":64,"hidden_size":6144,"index_head_dim":128,"index_n_heads":32,"index_topk":2048,"indexer_rope_interleave":true,"intermediate_size":12288,"kv_lora_rank":512,"max_position_embeddings":202752,"moe_intermediate_size":2048,"moe_layer_freq":1,"n_group":1,"n_routed_experts":256,"n_shared_experts":1,"norm_topk_prob":true,"num_attention_heads":64,"num_experts_per_tok":8,"num_hidden_layers":78,"num_key_value_heads":64,"num_nextn_predict_layers":1,"q_lora_rank":2048,"qk_head_dim":256,"qk_nope_head_dim":192,"qk_rope_head_dim":64,"rms_norm_eps":1e-05,"rope_interleave":true,"rope_parameters":{"rope_theta":1000000,"rope_type":"default"},"routed_scaling_factor":2.5,"scoring_func":"sigmoid","tie_word_embeddings":false,"topk_group":1,"topk_method":"noaux_tc","v_head_dim":256,"vocab_size":154880}',
 'zai-org/GLM-5 config.json on the Hugging Face Hub (copy: ai-dynamo/aiconfigurator aic-core/src/aiconfigurator_core/model_configs/zai-org--GLM-5_config.json, commit 095f58a5; tests/fixtures/configs/glm_moe_dsa/zai-org__GLM-5.json); token ids, initializer_range, transformers_version, use_cache and pretraining_tp dropped',
 'Zhipu AI', 'derived'),
-- 743,911,199,232: GLM-5's shapes (tests/fixtures/configs/glm_moe_dsa/README.md).
('glm-5.1', 'GLM-5.1', 'zai-org/GLM-5.1', 'glm_moe_dsa', 743911199232,
 'exact count of config_json (the GLM-5 formula: every architecture field equals GLM-5''s; fixture README hand count 743,911,199,232); published as 744B / 40B active',
 '{"architectures":["GlmMoeDsaForCausalLM"],"model_type":"glm_moe_dsa","attention_bias":false,"attention_dropout":0.0,"dtype":"bfloat16","first_k_dense_replace":3,"hidden_act":"silu","head_dim":64,"hidden_size":6144,"index_head_dim":128,"index_n_heads":32,"index_topk":2048,"indexer_rope_interleave":true,"intermediate_size":12288,"kv_lora_rank":512,"max_position_embeddings":202752,"moe_intermediate_size":2048,"moe_layer_freq":1,"n_group":1,"n_routed_experts":256,"n_shared_experts":1,"norm_topk_prob":true,"num_attention_heads":64,"num_experts_per_tok":8,"num_hidden_layers":78,"num_key_value_heads":64,"num_nextn_predict_layers":1,"q_lora_rank":2048,"qk_head_dim":256,"qk_nope_head_dim":192,"qk_rope_head_dim":64,"rms_norm_eps":1e-05,"rope_interleave":true,"rope_parameters":{"rope_theta":1000000,"rope_type":"default"},"routed_scaling_factor":2.5,"scoring_func":"sigmoid","tie_word_embeddings":false,"topk_group":1,"topk_method":"noaux_tc","v_head_dim":256,"vocab_size":154880}',
 'zai-org/GLM-5.1 config.json on the Hugging Face Hub (copy: ai-dynamo/aiconfigurator aic-core/src/aiconfigurator_core/model_configs/zai-org--GLM-5.1_config.json, commit 095f58a5; tests/fixtures/configs/glm_moe_dsa/zai-org__GLM-5.1.json); token ids, initializer_range, transformers_version, use_cache and pretraining_tp dropped',
 'Zhipu AI', 'derived'),
-- 743,377,000,704 = parameters() of the stored config: GLM-5's shapes, but indexer_types keeps an
-- indexer on 21 layers and 57 reuse the previous full layer's top-k (57 x 9,371,904 fewer;
-- tests/fixtures/configs/glm_moe_dsa/README.md). Exact active 40,298,928,384.
('glm-5.2', 'GLM-5.2', 'zai-org/GLM-5.2', 'glm_moe_dsa', 743377000704,
 'exact count of config_json (the GLM-5 formula with an indexer on the 21 "full" layers of indexer_types; fixture README hand count 743,377,000,704); published as 744B / 40B active',
 '{"architectures":["GlmMoeDsaForCausalLM"],"model_type":"glm_moe_dsa","attention_bias":false,"attention_dropout":0.0,"dtype":"bfloat16","first_k_dense_replace":3,"head_dim":192,"hidden_act":"silu","hidden_size":6144,"index_head_dim":128,"index_n_heads":32,"index_share_for_mtp_iteration":true,"index_skip_topk_offset":3,"index_topk":2048,"index_topk_freq":4,"index_topk_pattern":null,"indexer_rope_interleave":true,"indexer_types":["full","full","full","shared","shared","shared","full","shared","shared","shared","full","shared","shared","shared","full","shared","shared","shared","full","shared","shared","shared","full","shared","shared","shared","full","shared","shared","shared","full","shared","shared","shared","full","shared","shared","shared","full","shared","shared","shared","full","shared","shared","shared","full","shared","shared","shared","full","shared","shared","shared","full","shared","shared","shared","full","shared","shared","shared","full","shared","shared","shared","full","shared","shared","shared","full","shared","shared","shared","full","shared","shared","shared"],"intermediate_size":12288,"kv_lora_rank":512,"max_position_embeddings":1048576,"mlp_layer_types":["dense","dense","dense","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse"],"moe_intermediate_size":2048,"moe_layer_freq":1,"moe_router_dtype":"float32","n_group":1,"n_routed_experts":256,"n_shared_experts":1,"norm_topk_prob":true,"num_attention_heads":64,"num_experts_per_tok":8,"num_hidden_layers":78,"num_key_value_heads":64,"num_nextn_predict_layers":1,"q_lora_rank":2048,"qk_head_dim":256,"qk_nope_head_dim":192,"qk_rope_head_dim":64,"rms_norm_eps":1e-05,"rope_interleave":true,"rope_parameters":{"rope_theta":8000000,"rope_type":"default"},"routed_scaling_factor":2.5,"scoring_func":"sigmoid","tie_word_embeddings":false,"topk_group":1,"topk_method":"noaux_tc","v_head_dim":256,"vocab_size":154880}',
 'zai-org/GLM-5.2 config.json on the Hugging Face Hub (copy: ai-dynamo/aiconfigurator aic-core/src/aiconfigurator_core/model_configs/zai-org--GLM-5.2_config.json, commit 095f58a5; tests/fixtures/configs/glm_moe_dsa/zai-org__GLM-5.2.json); token ids, initializer_range, transformers_version, use_cache and pretraining_tp dropped',
 'Zhipu AI', 'derived')
ON CONFLICT DO NOTHING;

INSERT INTO model_aliases (alias, model_id) VALUES
('deepseek-ai/DeepSeek-V4-Flash', 'deepseek-v4-flash'),
('deepseek-ai/DeepSeek-V4-Flash-Base', 'deepseek-v4-flash'),
('deepseek-v4-flash-284b', 'deepseek-v4-flash'),
('deepseek-ai/DeepSeek-V4-Pro', 'deepseek-v4-pro'),
('deepseek-v4-pro-1.6t', 'deepseek-v4-pro'),
('zai-org/GLM-5', 'glm-5'),
('glm-5-744b', 'glm-5'),
('zai-org/GLM-5.1', 'glm-5.1'),
('zai-org/GLM-5.2', 'glm-5.2')
ON CONFLICT DO NOTHING;

-- Kimi K2 (model_type kimi_k2, architectures[0] DeepseekV3ForCausalLM): transformers 5's
-- DeepseekV3TopkRouter registers e_score_correction_bias as a buffer, so parameters() is
-- 1,026,408,209,408, the 0006 figure less 60 x 384 = 23,040 bias values (the repository's remote
-- modeling_deepseek.py made them Parameters); the checkpoint still stores them, and model.breakdown
-- shows them as buffers (tests/fixtures/configs/kimi_k2/README.md gives both counts). Only rows still
-- at their seeded count are changed: an entry a user edited through the API is theirs.
UPDATE models SET revision = revision + 1, parameters = 1026408209408,
    parameters_source = 'exact count of config_json as transformers 5 builds DeepseekV3ForCausalLM (DeepSeek-V3 MLA/MoE formula, the router''s e_score_correction_bias a buffer: 1,026,408,232,448 with the 23,040 bias values the checkpoint stores); reconciles with the 1,026,470,731,056 elements a model-info report lists for the fp8 checkpoint (minus those biases, weight_scale_inv and inv_freq); the model card gives 1T total / 32B active'
 WHERE id IN ('kimi-k2-instruct', 'kimi-k2-base') AND parameters = 1026408232448;
