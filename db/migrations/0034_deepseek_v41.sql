-- Schema version 34: DeepSeek-V4.1-Flash (deepseek_v41, DeepseekV41ForCausalLM, September 2026), which
-- server/readers/deepseek_v41.c reads: DeepSeek-V4's latent attention with a compressed cache written
-- only by four KV-source layers and read by the others, Engram n-gram tables on two layers,
-- hyper-connections, MXFP4 experts, three DSpark draft layers and a vision tower. Data only; no
-- schema change.
--
-- Conventions as in 0018_sparse_attention_models.sql, with two differences the model forces. No
-- transformers class builds it, so `parameters` is the count of the checkpoint as DeepSeek's
-- inference/model.py builds it, the DSpark layers apart as every MTP layer is (the fixture README
-- tests/fixtures/configs/deepseek_v41/README.md writes it out; tests/server/test_codec.c checks it;
-- with the DSpark layers it is the Hub's safetensors total, 763,205,315,794). And no verbatim copy of
-- its config.json was found: config_json is the file's fields as public ports of the model quote them
-- at revision dba1be0a (token ids dropped, quantization_config kept: fp8 in 32x32 blocks, MXFP4
-- experts), every architecture field confirmed by the tensor inventory, which reproduces the
-- checkpoint index's total_size (510,286,023,000 bytes) to the byte.
--
-- ON CONFLICT DO NOTHING, as in 0004: a row a user already added under one of these ids is kept.

INSERT INTO models (id, name, hf_id, family, parameters, parameters_source, config_json, config_source,
                    publisher, parameters_basis) VALUES
-- 748,979,953,264 = 551,880,835,184 backbone + 196,613,849,600 Engram table values + 485,268,480
-- vision; DSpark layers 14,225,362,530 apart. Model card: "552B backbone" and "196B Engram"
-- (exact active 16,130,588,784; card "16B per decode token").
('deepseek-v4.1-flash', 'DeepSeek-V4.1-Flash', 'deepseek-ai/DeepSeek-V4.1-Flash', 'deepseek_v41', 748979953264,
 'exact count of config_json as inference/model.py builds it (40 layers x 13,754,511,990 + compressors, indexers and Engram projections on their layers + embedding, head and norm = 551,880,835,184 backbone; Engram tables 196,613,849,600; vision 485,268,480; DSpark layers 14,225,362,530 not in it; fixture README hand count); model card 552B backbone + 196B Engram; Hub safetensors total 763,205,315,794 with DSpark',
 '{"architectures":["DeepseekV41ForCausalLM"],"model_type":"deepseek_v41","dtype":"bfloat16","quantization_config":{"quant_method":"fp8","activation_scheme":"dynamic","weight_block_size":[32,32],"scale_fmt":"ue8m0","expert_dtype":"fp4"},"text_config":{"model_type":"deepseek_v41_text","vocab_size":129280,"hidden_size":5120,"moe_intermediate_size":2304,"num_hidden_layers":40,"num_attention_heads":64,"num_key_value_heads":1,"head_dim":512,"qk_rope_head_dim":64,"q_lora_rank":1280,"o_lora_rank":1024,"o_groups":8,"hidden_act":"silu","swiglu_limit":10.0,"rms_norm_eps":1e-20,"attention_bias":false,"max_position_embeddings":1048576,"rope_theta":10000,"rope_scaling":{"rope_type":"yarn","factor":16,"beta_fast":32,"beta_slow":1,"original_max_position_embeddings":65536},"n_routed_experts":384,"n_shared_experts":1,"num_experts_per_tok":6,"scoring_func":"sqrtsoftplus","topk_method":"noaux_tc","norm_topk_prob":true,"routed_scaling_factor":1.5,"sliding_window":128,"compress_ratios":[0,0,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1],"compress_rope_theta":160000,"kv_source_layer_ids":[2,8,14,20],"index_source_layer_ids":[2,8,14,20,24,28,32,36],"index_n_heads":32,"index_head_dim":128,"index_topk":512,"candidate_source_layer_id":20,"candidate_topk_blocks":2048,"candidate_block_size":8,"hc_mult":4,"hc_sinkhorn_iters":20,"hc_eps":1e-06,"engram_layer_ids":[1,14],"engram_num_embeddings":[384006168,384016682],"engram_max_ngram_size":4,"engram_vocab_size":16000000,"engram_n_heads":8,"engram_head_dim":256,"engram_compressed_vocab_size":99092,"num_nextn_predict_layers":3,"dspark_block_size":5,"dspark_target_layer_ids":[37,38,39],"dspark_markov_rank":256,"dspark_n_routed_experts":128,"dspark_num_experts_per_tok":3},"vision_config":{"model_type":"deepseek_v41_vision","num_hidden_layers":32,"hidden_size":1024,"num_attention_heads":16,"intermediate_size":2816,"patch_size":14,"rope_theta":10000,"downsample_ratio":3,"max_image_tokens":1024,"min_pixels":295936,"max_wh_ratio":null}}',
 'deepseek-ai/DeepSeek-V4.1-Flash config.json on the Hugging Face Hub (revision dba1be0a40aa45a94ad051997016db3960a90277), its fields as public ports of the model quote them (no verbatim copy found; tests/fixtures/configs/deepseek_v41/README.md); token ids dropped, quantization_config kept',
 'DeepSeek', 'derived')
ON CONFLICT DO NOTHING;

INSERT INTO model_aliases (alias, model_id) VALUES
('deepseek-ai/DeepSeek-V4.1-Flash', 'deepseek-v4.1-flash'),
('deepseek-v4.1-flash-748b', 'deepseek-v4.1-flash')
ON CONFLICT DO NOTHING;
