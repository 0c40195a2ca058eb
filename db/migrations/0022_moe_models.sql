-- Schema version 22: the 2025-26 mixture-of-experts families server/models/moe.c reads
-- (Tencent Hunyuan dense and MoE, Xiaomi MiMo-V2-Flash) and the MiniMax-M2 successor M2.7,
-- which decoder.c's minimax_m2 reader reads unchanged. Data only; no schema change.
--
-- Conventions as in 0006_seed_models.sql: config_json is the Hugging Face config.json reduced
-- to the architecture fields (token ids, auto_map, the unused vision keys of Hunyuan's shared
-- config class and similar keys dropped), quantization_config kept where the checkpoint ships
-- quantized (0007); `parameters` is the parameters() count of the stored config, which
-- tests/server/test_codec.c checks for every row, written out by hand in
-- tests/fixtures/configs/<model_type>/README.md. parameters_basis is 'derived' for every row:
-- the comment quotes the rounded public figure the exact count agrees with.
--
-- Aliases: the Hugging Face ids of the base, instruct and quantized repositories that share
-- each architecture (the quantized ones size as the stored config's format unless the request
-- names a precision; importing the hub id gives their exact bytes).
--
-- ON CONFLICT DO NOTHING, as in 0004: a row a user already added under one of these ids or
-- aliases is kept.

INSERT INTO models (id, name, hf_id, family, parameters, parameters_source, config_json, config_source,
                    publisher, parameters_basis) VALUES
-- 80,393,183,232 = parameters() of the stored config (HunYuanMoEV1ForCausalLM: 64 experts and a
-- shared MLP of 3072, router gate.wg, per-head query/key RMSNorms, tied head;
-- tests/fixtures/configs/hunyuan_v1_moe/README.md); Tencent's README "80B total, 13B active".
('hunyuan-a13b-instruct', 'Hunyuan-A13B-Instruct', 'tencent/Hunyuan-A13B-Instruct', 'hunyuan', 80393183232,
 'exact count of config_json (HunYuanMoEV1ForCausalLM: 32 layers of GQA 32/8 with head_dim RMSNorms, 64 routed experts top 8 and one shared MLP, all 3072 wide; tied head; fixture README hand count 80,393,183,232); published as 80B total / 13B active',
 '{"architectures":["HunYuanMoEV1ForCausalLM"],"attention_bias":false,"attention_dropout":0.1,"attention_head_dim":128,"cla_share_factor":2,"group_limited_greedy":false,"hidden_act":"silu","hidden_size":4096,"intermediate_size":3072,"kv_lora_rank":null,"max_position_embeddings":32768,"mlp_bias":false,"model_type":"hunyuan","moe_drop_tokens":false,"moe_intermediate_size":[3072,3072,3072,3072,3072,3072,3072,3072,3072,3072,3072,3072,3072,3072,3072,3072,3072,3072,3072,3072,3072,3072,3072,3072,3072,3072,3072,3072,3072,3072,3072,3072],"moe_layer_num_skipped":0,"moe_random_routing_dropped_token":false,"moe_topk":[8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8,8],"n_group":null,"norm_topk_prob":true,"norm_type":"rms","num_attention_heads":32,"num_experts":64,"num_hidden_layers":32,"num_key_value_heads":8,"num_shared_expert":[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1],"org_vocab_size":128167,"pretraining_tp":1,"q_lora_rank":null,"qk_nope_head_dim":null,"qk_rope_head_dim":null,"rms_norm_eps":1e-05,"rope_scaling":{"alpha":1000.0,"beta_fast":32,"beta_slow":1,"factor":1.0,"mscale":1.0,"mscale_all_dim":1.0,"type":"dynamic"},"rope_theta":10000.0,"routed_scaling_factor":1.0,"tie_word_embeddings":true,"topk_group":null,"torch_dtype":"bfloat16","use_cla":false,"use_mixed_mlp_moe":true,"use_mla":false,"use_qk_norm":true,"use_rotary_pos_emb":true,"v_head_dim":null,"vocab_size":128167}',
 'config.json of Tencent''s Hunyuan-A13B release (GitHub Tencent-Hunyuan/Hunyuan-A13B models/config.json, copy: tianyu1412/Hunyuan-A13B commit df832ebc; tests/fixtures/configs/hunyuan_v1_moe/tencent__Hunyuan-A13B-Instruct.json); model_type hunyuan, read by its class',
 'Tencent', 'derived'),
-- 7,504,568,320 = parameters() of the stored config (HunYuanDenseV1ForCausalLM, tied head;
-- tests/fixtures/configs/hunyuan_v1_dense/README.md); published as "7B" (Hub page 7.5B, recalled).
('hunyuan-7b-instruct', 'Hunyuan-7B-Instruct', 'tencent/Hunyuan-7B-Instruct', 'hunyuan_v1_dense', 7504568320,
 'exact count of config_json (HunYuanDenseV1ForCausalLM: 32 layers of GQA 32/8 with head_dim RMSNorms, SwiGLU 14336, tied head; fixture README hand count 7,504,568,320); published as 7B',
 '{"architectures":["HunYuanDenseV1ForCausalLM"],"model_type":"hunyuan_v1_dense","attention_bias":false,"attention_head_dim":128,"head_dim":128,"hidden_act":"silu","hidden_size":4096,"intermediate_size":14336,"max_position_embeddings":262144,"mlp_bias":false,"num_attention_heads":32,"num_hidden_layers":32,"num_key_value_heads":8,"rms_norm_eps":1e-05,"rope_scaling":{"alpha":1000.0,"factor":1.0,"type":"dynamic"},"rope_theta":10000.0,"tie_word_embeddings":true,"torch_dtype":"bfloat16","use_cla":false,"use_qk_norm":true,"vocab_size":128167}',
 'architecture fields of tencent/Hunyuan-7B-Instruct (tests/fixtures/configs/hunyuan_v1_dense/tencent__Hunyuan-7B-Instruct.reduced.json; its README names the sources of each field); reduced config, not the verbatim file',
 'Tencent', 'derived'),
-- 228,689,748,992 = parameters() of the stored config (MiniMax-M2 formula, MTP modules not built
-- by transformers; tests/fixtures/configs/minimax_m2/README.md); published as 230B total / 10B active.
('minimax-m2.7', 'MiniMax-M2.7', 'MiniMaxAI/MiniMax-M2.7', 'minimax_m2', 228689748992,
 'exact count of config_json (MiniMax-M2 formula: full-width q/k norms, routing bias a buffer, MTP not built; fixture README hand count 228,689,748,992); published as 230B total / 10B active',
 '{"architectures":["MiniMaxM2ForCausalLM"],"attn_type_list":[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1],"dtype":"bfloat16","head_dim":128,"hidden_act":"silu","hidden_size":3072,"intermediate_size":1536,"max_position_embeddings":204800,"model_type":"minimax_m2","mtp_transformer_layers":1,"num_attention_heads":48,"num_experts_per_tok":8,"num_hidden_layers":62,"num_key_value_heads":8,"num_local_experts":256,"num_mtp_modules":3,"qk_norm_type":"per_layer","quantization_config":{"activation_scheme":"dynamic","fmt":"float8_e4m3fn","quant_method":"fp8","weight_block_size":[128,128],"modules_to_not_convert":["gate","e_score_correction_bias","lm_head"]},"rms_norm_eps":1e-06,"rope_theta":5000000,"rotary_dim":64,"scoring_func":"sigmoid","shared_intermediate_size":0,"tie_word_embeddings":false,"use_mtp":true,"use_qk_norm":true,"use_routing_bias":true,"vocab_size":200064}',
 'MiniMaxAI/MiniMax-M2.7 config.json on the Hugging Face Hub (copy: ai-dynamo/aiconfigurator aic-core/src/aiconfigurator_core/model_configs/MiniMaxAI--MiniMax-M2.7_config.json, commit 095f58a5; tests/fixtures/configs/minimax_m2/MiniMaxAI__MiniMax-M2.7.json); auto_map dropped, fp8 quantization_config kept',
 'MiniMax', 'derived'),
-- 308,778,768,832 = parameters() of the stored config (MiMoV2FlashForCausalLM: 9 full and 39 sliding
-- attention layers with K 192 / V 128 heads and sinks, 47 layers of 256 experts, no shared expert;
-- tests/fixtures/configs/mimo_v2_flash/README.md); model card "309B total, 15B active".
('mimo-v2-flash', 'MiMo-V2-Flash', 'XiaomiMiMo/MiMo-V2-Flash', 'mimo_v2_flash', 308778768832,
 'exact count of config_json (MiMoV2FlashForCausalLM: hybrid full/sliding attention with a narrower value head and sinks, DeepSeek-V3 router without shared experts; MTP layers not built; fixture README hand count 308,778,768,832); published as 309B total / 15B active',
 '{"architectures":["MiMoV2FlashForCausalLM"],"model_type":"mimo_v2_flash","num_hidden_layers":48,"hidden_size":4096,"num_attention_heads":64,"num_key_value_heads":4,"head_dim":192,"v_head_dim":128,"intermediate_size":16384,"vocab_size":152576,"max_position_embeddings":262144,"rope_theta":5000000,"swa_rope_theta":10000,"partial_rotary_factor":0.334,"sliding_window":128,"sliding_window_size":128,"attention_chunk_size":128,"swa_num_attention_heads":64,"swa_num_key_value_heads":8,"swa_head_dim":192,"swa_v_head_dim":128,"hybrid_layer_pattern":[0,1,1,1,1,0,1,1,1,1,1,0,1,1,1,1,1,0,1,1,1,1,1,0,1,1,1,1,1,0,1,1,1,1,1,0,1,1,1,1,1,0,1,1,1,1,1,0],"moe_layer_freq":[0,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1],"moe_intermediate_size":2048,"n_routed_experts":256,"n_shared_experts":null,"num_experts_per_tok":8,"norm_topk_prob":true,"scoring_func":"sigmoid","n_group":1,"topk_group":1,"topk_method":"noaux_tc","routed_scaling_factor":null,"hidden_act":"silu","layernorm_epsilon":1e-05,"attention_dropout":0.0,"attention_bias":false,"attention_value_scale":0.707,"add_swa_attention_sink_bias":true,"add_full_attention_sink_bias":false,"tie_word_embeddings":false,"torch_dtype":"bfloat16","quantization_config":{"activation_scheme":"dynamic","fmt":"e4m3","quant_method":"fp8","weight_block_size":[128,128]}}',
 'XiaomiMiMo/MiMo-V2-Flash config.json on the Hugging Face Hub (copy: ai-dynamo/aiconfigurator aic-core/src/aiconfigurator_core/model_configs/XiaomiMiMo--MiMo-V2-Flash_config.json, commit 095f58a5; tests/fixtures/configs/mimo_v2_flash/XiaomiMiMo__MiMo-V2-Flash.json); fp8 quantization_config kept',
 'Xiaomi', 'derived')
ON CONFLICT DO NOTHING;

INSERT INTO model_aliases (alias, model_id) VALUES
('tencent/Hunyuan-A13B-Instruct', 'hunyuan-a13b-instruct'),
('tencent/Hunyuan-A13B-Pretrain', 'hunyuan-a13b-instruct'),
('tencent/Hunyuan-A13B-Instruct-FP8', 'hunyuan-a13b-instruct'),
('tencent/Hunyuan-A13B-Instruct-GPTQ-Int4', 'hunyuan-a13b-instruct'),
('hunyuan-a13b', 'hunyuan-a13b-instruct'),
('tencent/Hunyuan-7B-Instruct', 'hunyuan-7b-instruct'),
('tencent/Hunyuan-7B-Pretrain', 'hunyuan-7b-instruct'),
('tencent/Hunyuan-7B-Instruct-FP8', 'hunyuan-7b-instruct'),
('tencent/Hunyuan-7B-Instruct-GPTQ-Int4', 'hunyuan-7b-instruct'),
('tencent/Hunyuan-7B-Instruct-AWQ-Int4', 'hunyuan-7b-instruct'),
('hunyuan-7b', 'hunyuan-7b-instruct'),
('MiniMaxAI/MiniMax-M2.7', 'minimax-m2.7'),
('cyankiwi/MiniMax-M2.7-AWQ-4bit', 'minimax-m2.7'),
('minimax-m2.7-230b', 'minimax-m2.7'),
('RedHatAI/MiniMax-M2.5-NVFP4', 'minimax-m2.5'),
('XiaomiMiMo/MiMo-V2-Flash', 'mimo-v2-flash'),
('XiaomiMiMo/MiMo-V2-Flash-Base', 'mimo-v2-flash')
ON CONFLICT DO NOTHING;
