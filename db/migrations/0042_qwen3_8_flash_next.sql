-- Schema version 42: Qwen3.8-Flash-Next (qwen4_exp, August 2026: 36 Gated DeltaNet layers beside
-- 12 gated-attention layers with a QSA indexer over pooled keys, 512 experts top 10 and a gated
-- shared expert in every layer, gated residuals over four streams, a 320-million-row n-gram hash
-- table in layer 1, Qwen3.5's vision tower) as its BF16 checkpoint, Qwen/Qwen3.8-Flash-Next.
-- Data only; no schema change.
--
-- config_json: the text_config as transcribed from the FP8 release's config.json
-- (Qwen/Qwen3.8-Flash-Next-FP8 at 236dfdf2) without its quantization_config, and the vision and
-- top-level fields as loaders' fixtures copy RadixArk/Qwen3.8-Flash-Next-NVFP4's
-- (tests/fixtures/configs/qwen4_exp/README.md); no byte-for-byte copy of the Hub's file was found.
-- The FP8 release is not added: the transcription of its quantization_config keeps
-- modules_to_not_convert to ["lm_head"], where the file lists every 16-bit module by name (943
-- entries by a loader's test of it; only the routed experts and the n-gram table are fp8), and no
-- full copy was found. A user posting that config.json gets it read as stated, the table in fp8.
--
-- Conventions as in 0006_seed_models.sql and 0039_glm_5_3_flash.sql: config_json the architecture
-- fields (token ids, initializer_range, use_cache dropped); `parameters` the count of that config
-- (tests/server/test_codec.c checks every row), written out in the fixture README and held by
-- test_qwen38_flash_next_counts; the MTP layer apart.
--
-- ON CONFLICT DO NOTHING, as in 0004: a row a user already added under one of these ids is kept.

INSERT INTO models (id, name, hf_id, family, parameters, parameters_source, config_json, config_source,
                    publisher, parameters_basis) VALUES
-- 177,392,830,576: text 176,943,899,520 (of which the n-gram table 51,200,245,760) + the vision
-- tower 448,931,056; the MTP layer 2,607,150,848 apart, which brings it to 179,999,981,424.
('qwen3.8-flash-next', 'Qwen3.8-Flash-Next', 'Qwen/Qwen3.8-Flash-Next', 'qwen4_exp', 177392830576,
 'exact count of config_json (Qwen4ExpForConditionalGeneration: text 176,943,899,520, of which the PLE n-gram table 320,001,536 x 160 = 51,200,245,760, + vision 448,931,056; MTP layer 2,607,150,848 not counted; fixture README hand count); with it 179,999,981,424, the 180B the release is named by (125.7B without the n-gram table and the vision tower)',
 '{"architectures":["Qwen4ExpForConditionalGeneration"],"model_type":"qwen4_exp","tie_word_embeddings":false,"text_config":{"model_type":"qwen4_exp_text","attention_bias":false,"attention_dropout":0.0,"dtype":"bfloat16","full_attention_interval":4,"hc_count":4,"hc_lowrank":320,"head_dim":256,"heads_per_ngram":8,"hidden_act":"silu","hidden_size":2560,"indexer_budget":2048,"indexer_compress_ratio":4,"indexer_head_dim":128,"indexer_kv_heads":1,"indexer_n_heads":4,"layer_types":["linear_attention","linear_attention","linear_attention","full_attention","linear_attention","linear_attention","linear_attention","full_attention","linear_attention","linear_attention","linear_attention","full_attention","linear_attention","linear_attention","linear_attention","full_attention","linear_attention","linear_attention","linear_attention","full_attention","linear_attention","linear_attention","linear_attention","full_attention","linear_attention","linear_attention","linear_attention","full_attention","linear_attention","linear_attention","linear_attention","full_attention","linear_attention","linear_attention","linear_attention","full_attention","linear_attention","linear_attention","linear_attention","full_attention","linear_attention","linear_attention","linear_attention","full_attention","linear_attention","linear_attention","linear_attention","full_attention"],"linear_conv_kernel_dim":4,"linear_key_head_dim":128,"linear_num_key_heads":16,"linear_num_value_heads":48,"linear_value_head_dim":128,"make_ngram_vocab_size_divisible_by":128,"mamba_ssm_dtype":"float32","max_position_embeddings":262144,"moe_intermediate_size":640,"mtp":{"hybrid":true,"layer_types":["full_attention"],"mtp_use_hidden_state_from_layer":null,"num_hidden_layers":1,"rope_theta":10000000},"mtp_num_hidden_layers":1,"mtp_use_dedicated_embeddings":false,"ngram_size":3,"ngram_vocab_size_base":20000000,"num_attention_heads":24,"num_experts":512,"num_experts_per_tok":10,"num_hidden_layers":48,"num_key_value_heads":2,"output_gate_type":"sigmoid","output_router_logits":false,"partial_rotary_factor":0.25,"ple_conv_kernel_size":4,"ple_embed_dim":2560,"ple_layer_ids":[2],"rms_norm_eps":1e-06,"rope_parameters":{"mrope_interleaved":true,"mrope_section":[11,11,10],"partial_rotary_factor":0.25,"rope_theta":10000000,"rope_type":"default"},"router_aux_loss_coef":0.001,"shared_expert_intermediate_size":640,"split_ngram_parts":128,"tie_word_embeddings":false,"vocab_size":248320},"vision_config":{"depth":27,"hidden_size":1152,"intermediate_size":4304,"num_heads":16,"out_hidden_size":2560,"patch_size":16,"spatial_merge_size":2,"temporal_patch_size":2}}',
 'Qwen/Qwen3.8-Flash-Next config.json architecture: text_config as transcribed from Qwen/Qwen3.8-Flash-Next-FP8 (revision 236dfdf2) without its quantization_config, vision and top-level fields as copied from RadixArk/Qwen3.8-Flash-Next-NVFP4 (tests/fixtures/configs/qwen4_exp/config.json); token ids, initializer_range, use_cache dropped',
 'Alibaba Cloud', 'derived')
ON CONFLICT DO NOTHING;

INSERT INTO model_aliases (alias, model_id) VALUES
('Qwen/Qwen3.8-Flash-Next', 'qwen3.8-flash-next')
ON CONFLICT DO NOTHING;
