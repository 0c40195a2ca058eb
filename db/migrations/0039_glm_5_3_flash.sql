-- Schema version 39: GLM-5.3-Flash (glm5_next, August 2026: 34 Kimi Delta Attention layers beside
-- 11 NoPE sparse-MLA layers whose indexer pools its keys 4 at a time, 288 experts top 8 and a
-- shared one, four residual streams (mHC), GLM-OCR's vision tower) as its bf16 checkpoint,
-- zai-org/GLM-5.3-Flash-BF16. Data only; no schema change.
--
-- The Hub's zai-org/GLM-5.3-Flash is the FP8 checkpoint, and no verbatim copy of its
-- quantization_config was found: its shard headers say only the experts, the dense MLPs and the
-- MLA layers' q_a_proj, q_b_proj, kv_a_proj_with_mqa and o_proj are fp8
-- (tests/fixtures/configs/glm5_next/README.md), which zai's FP8 configs state as a per-layer
-- modules_to_not_convert list (GLM-5.2-FP8's, 0026). Rather than a list written from those
-- sums, the FP8 row waits for the file; a user posting its config.json gets it read as stated.
--
-- Conventions as in 0006_seed_models.sql and 0018_sparse_attention_models.sql: config_json the
-- architecture fields (token ids, initializer_range, transformers_version, use_cache dropped);
-- `parameters` the count of that config (tests/server/test_codec.c checks every row), written out
-- in the fixture README and held by test_glm53_flash_counts; the MTP layer and the routers'
-- correction biases apart.
--
-- ON CONFLICT DO NOTHING, as in 0004: a row a user already added under one of these ids is kept.

INSERT INTO models (id, name, hf_id, family, parameters, parameters_source, config_json, config_source,
                    publisher, parameters_basis) VALUES
-- 313,890,426,878: text 313,326,799,870 (34 KDA layers, 11 MLA layers with their indexers, 3 dense
-- and 42 routed MLPs, the hyper-connections, the untied embedding and head) + the vision tower
-- 563,627,008; the MTP layer 7,432,592,416 and 12,096 correction biases apart, which bring it to
-- the card's 321,323,031,390.
('glm-5.3-flash-bf16', 'GLM-5.3-Flash (BF16)', 'zai-org/GLM-5.3-Flash-BF16', 'glm5_next', 313890426878,
 'exact count of config_json (Glm5NextForConditionalGeneration: text 313,326,799,870 + vision 563,627,008; MTP layer 7,432,592,416 and 12,096 correction biases not counted; fixture README hand count 313,890,426,878); with them 321,323,031,390, as the unsloth/GLM-5.3-Flash-FP8 card states and the FP8 checkpoint''s shard headers sum; published as 320B total, 18B active (transformers PR #48342)',
 '{"architectures":["Glm5NextForConditionalGeneration"],"text_config":{"attention_bias":false,"attention_dropout":0.0,"dtype":"bfloat16","first_k_dense_replace":3,"hc_eps":1e-06,"hc_mult":4,"hc_sinkhorn_iters":20,"head_dim":0,"hidden_act":"silu","hidden_size":4096,"index_head_dim":128,"index_kpool":4,"index_kpool_always_select_tail":true,"index_kpool_compress":true,"index_n_heads":32,"index_topk":2048,"index_share_for_mtp_iteration":true,"indexer_rope_interleave":true,"indexer_types":["full","full","full","full","full","full","full","full","full","full","full","full","full","full","full","full","full","full","full","full","full","full","full","full","full","full","full","full","full","full","full","full","full","full","full","full","full","full","full","full","full","full","full","full","full"],"intermediate_size":12288,"kv_lora_rank":512,"layer_types":["linear_attention","linear_attention","linear_attention","deepseek_sparse_attention","linear_attention","linear_attention","linear_attention","deepseek_sparse_attention","linear_attention","linear_attention","linear_attention","deepseek_sparse_attention","linear_attention","linear_attention","linear_attention","deepseek_sparse_attention","linear_attention","linear_attention","linear_attention","deepseek_sparse_attention","linear_attention","linear_attention","linear_attention","deepseek_sparse_attention","linear_attention","linear_attention","linear_attention","deepseek_sparse_attention","linear_attention","linear_attention","linear_attention","deepseek_sparse_attention","linear_attention","linear_attention","linear_attention","deepseek_sparse_attention","linear_attention","linear_attention","linear_attention","deepseek_sparse_attention","linear_attention","linear_attention","linear_attention","deepseek_sparse_attention","linear_attention"],"linear_attn_config":{"num_heads":64,"gate_lower_bound":-5.0,"head_dim":128,"short_conv_kernel_size":4,"kda_layers":[0,1,2,4,5,6,8,9,10,12,13,14,16,17,18,20,21,22,24,25,26,28,29,30,32,33,34,36,37,38,40,41,42,44],"full_attn_layers":[3,7,11,15,19,23,27,31,35,39,43]},"max_position_embeddings":1048576,"mhc":true,"mla_use_nope":true,"mlp_layer_types":["dense","dense","dense","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse"],"model_type":"glm5_next_text","moe_intermediate_size":2048,"moe_router_dtype":"float32","n_group":1,"n_routed_experts":288,"n_shared_experts":1,"norm_topk_prob":true,"num_attention_heads":64,"num_experts_per_tok":8,"num_hidden_layers":45,"num_key_value_heads":64,"num_nextn_predict_layers":1,"output_router_logits":false,"q_lora_rank":1536,"qk_head_dim":256,"qk_nope_head_dim":256,"qk_rope_head_dim":0,"rms_norm_eps":1e-05,"routed_scaling_factor":2.5,"router_aux_loss_coef":0.001,"scoring_func":"sigmoid","swiglu_limit":10.0,"tie_word_embeddings":false,"topk_group":1,"topk_method":"noaux_tc","v_head_dim":256,"vocab_size":154880},"vision_config":{"attention_bias":true,"attention_dropout":0.0,"depth":24,"hidden_act":"silu","hidden_size":1024,"image_size":448,"in_channels":3,"intermediate_size":4096,"model_type":"glm5_next_vision","num_heads":16,"out_hidden_size":4096,"patch_size":14,"projection_intermediate_size":10240,"rms_norm_eps":1e-05,"spatial_merge_size":2,"swiglu_limit":10.0,"temporal_patch_size":2},"tie_word_embeddings":false,"model_type":"glm5_next"}',
 'zai-org/GLM-5.3-Flash config.json architecture on the Hugging Face Hub (copy: TorchMoE/MoE-Infinity tests/fixtures/glm_5_3_flash/config.json, commit 4dac1bbc; tests/fixtures/configs/glm5_next/zai-org__GLM-5.3-Flash.json); token ids, initializer_range, transformers_version, use_cache dropped',
 'Zhipu AI', 'derived')
ON CONFLICT DO NOTHING;

INSERT INTO model_aliases (alias, model_id) VALUES
('zai-glm-5.3-flash-bf16', 'glm-5.3-flash-bf16')
ON CONFLICT DO NOTHING;
