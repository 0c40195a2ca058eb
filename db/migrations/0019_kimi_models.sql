-- Schema version 19: the Kimi models server/models/kimi.c reads: Kimi-K2.5 (kimi_k25, a MoonViT
-- vision tower beside Kimi-K2's DeepSeek-V3-shaped text model), Kimi-K3 (kimi_k3, Kimi Delta
-- Attention layers beside gated MLA layers, latent-width experts, Block Attention Residuals and a
-- MoonViT tower) and Kimi-Linear-48B-A3B (kimi_linear, KDA beside MLA). Data only; no schema
-- change.
--
-- Conventions as in 0006_seed_models.sql: config_json is the Hugging Face config.json reduced to
-- the architecture fields (token ids, auto_map, generation defaults and the PretrainedConfig
-- bookkeeping a nested config carries dropped), quantization_config kept where the checkpoint
-- ships quantized (0007). `parameters` is the parameters() count of the stored config for the
-- class auto_map names (the repositories ship remote code), which tests/server/test_codec.c checks
-- for every row, written out by hand in tests/fixtures/configs/<model_type>/README.md.
-- parameters_basis is 'derived' for every row: the comment quotes the rounded public figure the
-- exact count agrees with.
--
-- Aliases: the Hugging Face ids of the instruct, base and quantized repositories that share each
-- architecture. NVIDIA's NVFP4 repackagings of Kimi-K2.5, K2.6 and K2.7-Code state the same text
-- and vision shapes as Kimi-K2.5 (their config.json files in ai-dynamo/aiconfigurator aic-core/src/aiconfigurator_core/model_configs), so they size as
-- this row (in the stored checkpoint format unless the request names a precision; importing the
-- hub id gives their exact bytes).
--
-- ON CONFLICT DO NOTHING, as in 0004: a row a user already added under one of these ids or
-- aliases is kept.

INSERT INTO models (id, name, hf_id, family, parameters, parameters_source, config_json, config_source,
                    publisher, parameters_basis) VALUES
-- 1,026,879,376,368 = parameters() of the stored config (KimiK25ForConditionalGeneration): the
-- text model 1,026,408,232,448 is Kimi-K2's (the remote DeepseekV3 registers the router's
-- e_score_correction_bias as a Parameter; tests/fixtures/configs/kimi_k2/README.md reconciles it
-- with the checkpoint's element count) plus the MoonViT tower and patchmerger projector
-- 471,143,920 (tests/fixtures/configs/kimi_k25/README.md). Moonshot's card: "1T total, 32B
-- activated"; the exact active count without the input lookup and the tower is 31,687,095,808.
-- The checkpoint stores the routed experts as INT4 (compressed-tensors, group 32), kept below.
('kimi-k2.5', 'Kimi K2.5', 'moonshotai/Kimi-K2.5', 'kimi_k25', 1026879376368,
 'exact count of config_json (KimiK25ForConditionalGeneration: Kimi-K2 DeepseekV3 text model 1,026,408,232,448 with the router bias as a Parameter, MoonViT 27 x 15,239,504 + patch and position tables 5,397,120 + final LayerNorm 2,304 + patchmerger 54,277,888; fixture README hand count 1,026,879,376,368); published as 1T total / 32B active',
 '{"architectures":["KimiK25ForConditionalGeneration"],"dtype":"bfloat16","model_type":"kimi_k25","text_config":{"architectures":["DeepseekV3ForCausalLM"],"attention_bias":false,"attention_dropout":0.0,"aux_loss_alpha":0.001,"dtype":"bfloat16","first_k_dense_replace":1,"hidden_act":"silu","hidden_size":7168,"intermediate_size":18432,"kv_lora_rank":512,"max_position_embeddings":262144,"model_type":"kimi_k2","moe_intermediate_size":2048,"moe_layer_freq":1,"n_group":1,"n_routed_experts":384,"n_shared_experts":1,"norm_topk_prob":true,"num_attention_heads":64,"num_experts_per_tok":8,"num_hidden_layers":61,"num_key_value_heads":64,"num_nextn_predict_layers":0,"q_lora_rank":1536,"qk_nope_head_dim":128,"qk_rope_head_dim":64,"quantization_config":{"config_groups":{"group_0":{"input_activations":null,"output_activations":null,"targets":["Linear"],"weights":{"actorder":null,"block_structure":null,"dynamic":false,"group_size":32,"num_bits":4,"observer":"minmax","observer_kwargs":{},"strategy":"group","symmetric":true,"type":"int"}}},"format":"pack-quantized","ignore":["lm_head","re:.*self_attn.*","re:.*shared_experts.*","re:.*mlp\\.(gate|up|gate_up|down)_proj.*"],"kv_cache_scheme":null,"quant_method":"compressed-tensors","quantization_status":"compressed"},"rms_norm_eps":1e-05,"rope_scaling":{"beta_fast":32.0,"beta_slow":1.0,"factor":64.0,"mscale":1.0,"mscale_all_dim":1.0,"original_max_position_embeddings":4096,"type":"yarn"},"rope_theta":50000.0,"routed_scaling_factor":2.827,"scoring_func":"sigmoid","seq_aux":true,"tie_word_embeddings":false,"topk_group":1,"topk_method":"noaux_tc","v_head_dim":128,"vocab_size":163840},"tie_word_embeddings":false,"vision_config":{"init_pos_emb_height":64,"init_pos_emb_time":4,"init_pos_emb_width":64,"merge_kernel_size":[2,2],"merge_type":"sd2_tpool","mm_hidden_size":1152,"mm_projector_type":"patchmerger","patch_size":14,"pos_emb_type":"divided_fixed","projector_hidden_act":"gelu","projector_ln_eps":1e-05,"text_hidden_size":7168,"video_attn_type":"spatial_temporal","vt_hidden_size":1152,"vt_intermediate_size":4304,"vt_num_attention_heads":16,"vt_num_hidden_layers":27}}',
 'moonshotai/Kimi-K2.5 config.json on the Hugging Face Hub (copy: ai-dynamo/aiconfigurator aic-core/src/aiconfigurator_core/model_configs/moonshotai--Kimi-K2.5_config.json, commit 095f58a5; tests/fixtures/configs/kimi_k25/moonshotai__Kimi-K2.5.json); auto_map and the nested configs'' bookkeeping dropped, INT4 quantization_config kept',
 'Moonshot AI', 'derived'),
-- 2,779,931,834,976 = parameters() of the stored config (KimiK3ForConditionalGeneration around
-- modeling_kimi_linear.KimiLinearForCausalLM: 69 KDA and 24 gated MLA layers, 896 latent-width
-- experts top 16, 2 shared experts, Block AttnRes; MoonViT tower 447,358,976;
-- tests/fixtures/configs/kimi_k3/README.md); NVIDIA's aiconfigurator model notes "2.8T". Active
-- without the input lookup and the tower: 104,189,612,640. The checkpoint stores the routed
-- experts as MXFP4 (compressed-tensors), kept below.
('kimi-k3', 'Kimi K3', 'moonshotai/Kimi-K3', 'kimi_k3', 2779931834976,
 'exact count of config_json (KimiK3ForConditionalGeneration: text 2,779,484,476,000 - 69 KDA layers of 443,740,384, 24 gated MLA layers of 232,196,096, dense layer 0, 92 latent MoE layers, AttnRes norms and projections - plus MoonViT 447,358,976; fixture README hand count 2,779,931,834,976); published as 2.8T',
 '{"architectures":["KimiK3ForConditionalGeneration"],"dtype":"bfloat16","model_type":"kimi_k3","text_config":{"activation_situ_beta":4.0,"activation_situ_linear_beta":25.0,"architectures":["KimiLinearForCausalLM"],"attn_res_block_size":12,"dtype":"bfloat16","first_k_dense_replace":1,"hidden_act":"situ","hidden_size":7168,"intermediate_size":33792,"kv_lora_rank":512,"latent_moe_use_norm":true,"linear_attn_config":{"full_attn_layers":[4,8,12,16,20,24,28,32,36,40,44,48,52,56,60,64,68,72,76,80,84,88,92,93],"gate_lower_bound":-5.0,"head_dim":128,"kda_layers":[1,2,3,5,6,7,9,10,11,13,14,15,17,18,19,21,22,23,25,26,27,29,30,31,33,34,35,37,38,39,41,42,43,45,46,47,49,50,51,53,54,55,57,58,59,61,62,63,65,66,67,69,70,71,73,74,75,77,78,79,81,82,83,85,86,87,89,90,91],"num_heads":96,"short_conv_kernel_size":4,"use_full_rank_gate":true},"max_position_embeddings":1048576,"mla_use_nope":true,"mla_use_output_gate":true,"model_type":"kimi_linear","moe_intermediate_size":3072,"moe_layer_freq":1,"moe_renormalize":true,"moe_router_activation_func":"sigmoid","num_attention_heads":96,"num_expert_group":1,"num_experts":896,"num_experts_per_token":16,"num_hidden_layers":93,"num_key_value_heads":96,"num_nextn_predict_layers":0,"num_shared_experts":2,"q_lora_rank":1536,"qk_nope_head_dim":128,"qk_rope_head_dim":64,"quantization_config":{"config_groups":{"group_0":{"format":"mxfp4-pack-quantized","input_activations":null,"output_activations":null,"targets":["Linear"],"weights":{"actorder":null,"block_structure":null,"dynamic":false,"group_size":32,"num_bits":4,"observer":"minmax","observer_kwargs":{},"scale_dtype":"torch.uint8","strategy":"group","symmetric":true,"type":"float","zp_dtype":null}}},"format":"mxfp4-pack-quantized","global_compression_ratio":null,"ignore":["re:.*self_attn.*","re:.*shared_experts.*","re:.*mlp\\.(gate|up|gate_up|down)_proj.*","re:.*lm_head.*","re:.*vision_tower.*","re:.*mm_projector.*"],"kv_cache_scheme":null,"quant_method":"compressed-tensors","quantization_status":"compressed"},"rms_norm_eps":1e-05,"routed_expert_hidden_size":3584,"routed_scaling_factor":1.0,"tie_word_embeddings":false,"topk_group":1,"topk_method":"noaux_tc","use_grouped_topk":true,"v_head_dim":128,"vocab_size":163840},"tie_word_embeddings":false,"vision_config":{"activation_func":"gelu_pytorch_tanh","attn_bias":false,"init_pos_emb_height":64,"init_pos_emb_time":4,"init_pos_emb_width":64,"linear_bias":false,"merge_kernel_size":[2,2],"merge_type":"sd2_tpool","mlp_type":"mlp2","mm_hidden_size":1024,"mm_projector_type":"patchmergerv2","norm_type":"rmsnorm","patch_embed_proj_bias":false,"patch_size":14,"pos_emb_interpolation_mode":"bilinear","pos_emb_type":"divided_fixed","projector_hidden_act":"gelu","projector_ln_eps":1e-05,"qkv_hidden_size":1536,"text_hidden_size":7168,"vt_hidden_size":1024,"vt_intermediate_size":4096,"vt_num_attention_heads":12,"vt_num_hidden_layers":27}}',
 'moonshotai/Kimi-K3 config.json on the Hugging Face Hub (copy: ai-dynamo/aiconfigurator aic-core/src/aiconfigurator_core/model_configs/moonshotai--Kimi-K3_config.json, commit 095f58a5; tests/fixtures/configs/kimi_k3/moonshotai__Kimi-K3.json); auto_map and the nested configs'' bookkeeping dropped, MXFP4 quantization_config kept',
 'Moonshot AI', 'derived'),
-- 49,122,675,072 = parameters() of the stored config as transformers 5 builds
-- KimiLinearForCausalLM (20 KDA and 7 MLA layers, 256 experts top 8 and one shared expert; the
-- router's e_score_correction_bias, 26 x 256 = 6,656 values, is a buffer there and an
-- nn.Parameter in the repository's modeling_kimi.py, whose count is 49,122,681,728;
-- tests/fixtures/configs/kimi_linear/README.md); the model card: "48B total, 3B activated"
-- (exact active without the input lookup 3,106,965,888).
('kimi-linear-48b-a3b-instruct', 'Kimi Linear 48B A3B Instruct', 'moonshotai/Kimi-Linear-48B-A3B-Instruct', 'kimi_linear', 49122675072,
 'exact count of config_json (transformers 5 KimiLinearForCausalLM: 20 KDA layers of 39,514,272, 7 MLA layers of 29,114,880, dense layer 0, 26 MoE layers of 1,819,607,040 with the router bias a buffer, untied head; fixture README hand count 49,122,675,072, the remote code 49,122,681,728); published as 48B total / 3B active',
 '{"architectures":["KimiLinearForCausalLM"],"dtype":"bfloat16","first_k_dense_replace":1,"head_dim":72,"hidden_act":"silu","hidden_size":2304,"intermediate_size":9216,"kv_lora_rank":512,"linear_attn_config":{"full_attn_layers":[4,8,12,16,20,24,27],"head_dim":128,"kda_layers":[1,2,3,5,6,7,9,10,11,13,14,15,17,18,19,21,22,23,25,26],"num_heads":32,"short_conv_kernel_size":4},"mla_use_nope":true,"model_max_length":1048576,"model_type":"kimi_linear","moe_intermediate_size":1024,"moe_layer_freq":1,"moe_renormalize":true,"moe_router_activation_func":"sigmoid","num_attention_heads":32,"num_expert_group":1,"num_experts":256,"num_experts_per_token":8,"num_hidden_layers":27,"num_key_value_heads":32,"num_nextn_predict_layers":0,"num_shared_experts":1,"q_lora_rank":null,"qk_nope_head_dim":128,"qk_rope_head_dim":64,"rms_norm_eps":1e-05,"rope_scaling":null,"rope_theta":10000.0,"routed_scaling_factor":2.446,"tie_word_embeddings":false,"topk_group":1,"use_grouped_topk":true,"v_head_dim":128,"vocab_size":163840}',
 'architecture fields of moonshotai/Kimi-Linear-48B-A3B-Instruct config.json (tests/fixtures/configs/kimi_linear/moonshotai__Kimi-Linear-48B-A3B-Instruct.json, joined from two partial copies its README names); reduced config, not the verbatim file',
 'Moonshot AI', 'derived')
ON CONFLICT DO NOTHING;

INSERT INTO model_aliases (alias, model_id) VALUES
('moonshotai/Kimi-K2.5', 'kimi-k2.5'),
('kimi-k2.5-1t', 'kimi-k2.5'),
('moonshotai/Kimi-K3', 'kimi-k3'),
('kimi-k3-2.8t', 'kimi-k3'),
('moonshotai/Kimi-Linear-48B-A3B-Instruct', 'kimi-linear-48b-a3b-instruct'),
('moonshotai/Kimi-Linear-48B-A3B-Base', 'kimi-linear-48b-a3b-instruct'),
('cyankiwi/Kimi-Linear-48B-A3B-Instruct-AWQ-4bit', 'kimi-linear-48b-a3b-instruct'),
('kimi-linear', 'kimi-linear-48b-a3b-instruct'),
('kimi-linear-48b-a3b', 'kimi-linear-48b-a3b-instruct')
ON CONFLICT DO NOTHING;
