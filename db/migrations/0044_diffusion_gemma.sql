-- Schema version 44: DiffusionGemma 26B-A4B (diffusion_gemma, Google, June 2026: a block-diffusion
-- LM on Gemma 4 26B-A4B - an encoder pass over the prompt writes the cache, a decoder denoises a
-- 256-token canvas over it; the weights are Gemma 4 26B-A4B's once plus a self-conditioning MLP).
-- Data only; no schema change.
--
-- config_json: google/diffusiongemma-26B-A4B-it's config.json as the mlx-community repack carries
-- it (tests/fixtures/configs/diffusion_gemma: its two quantization keys removed), which agrees with
-- every other copy of the upstream file found; token ids, initializer_range, transformers_version,
-- the repack's nested generation_config and the vision config's serialization defaults (labels,
-- output flags) dropped.
--
-- Conventions as in 0006_seed_models.sql: `parameters` the count of config_json
-- (tests/server/test_codec.c checks every row), written out in the fixture README and held by
-- test_diffusion_gemma; it is the upstream checkpoint index's total_parameters.
--
-- ON CONFLICT DO NOTHING, as in 0004: a row a user already added under one of these ids is kept.

INSERT INTO models (id, name, hf_id, family, parameters, parameters_source, config_json, config_source,
                    publisher, parameters_basis) VALUES
-- 25,823,778,864: Gemma 4 26B-A4B's 25,805,933,872 (text 25,233,141,760 + vision 572,792,112)
-- + the self-conditioning MLP 17,844,992.
('diffusiongemma-26b-a4b-it', 'DiffusionGemma 26B-A4B', 'google/diffusiongemma-26B-A4B-it', 'diffusion_gemma', 25823778864,
 'exact count of config_json (DiffusionGemmaForBlockDiffusion; fixture README); the upstream model.safetensors.index.json total_parameters 25,823,778,864 (total_size 51,647,562,456 bytes, bf16, with 62 buffer tensors); the card states 25.2B total (its text model), 3.8B active',
 '{"architectures":["DiffusionGemmaForBlockDiffusion"],"canvas_length":256,"dtype":"bfloat16","model_type":"diffusion_gemma","text_config":{"attention_bias":false,"attention_dropout":0.0,"dtype":"bfloat16","final_logit_softcapping":30.0,"global_head_dim":512,"head_dim":256,"hidden_activation":"gelu_pytorch_tanh","hidden_size":2816,"intermediate_size":2112,"layer_types":["sliding_attention","sliding_attention","sliding_attention","sliding_attention","sliding_attention","full_attention","sliding_attention","sliding_attention","sliding_attention","sliding_attention","sliding_attention","full_attention","sliding_attention","sliding_attention","sliding_attention","sliding_attention","sliding_attention","full_attention","sliding_attention","sliding_attention","sliding_attention","sliding_attention","sliding_attention","full_attention","sliding_attention","sliding_attention","sliding_attention","sliding_attention","sliding_attention","full_attention"],"max_position_embeddings":262144,"model_type":"diffusion_gemma_text","moe_intermediate_size":704,"num_attention_heads":16,"num_experts":128,"num_global_key_value_heads":2,"num_hidden_layers":30,"num_key_value_heads":8,"rms_norm_eps":1e-06,"rope_parameters":{"full_attention":{"partial_rotary_factor":0.25,"rope_theta":1000000.0,"rope_type":"proportional"},"sliding_attention":{"rope_theta":10000.0,"rope_type":"default"}},"sliding_window":1024,"tie_word_embeddings":true,"top_k_experts":8,"use_bidirectional_attention":"vision","vocab_size":262144},"tie_word_embeddings":true,"vision_config":{"attention_bias":false,"attention_dropout":0.0,"default_output_length":280,"dtype":"bfloat16","global_head_dim":72,"head_dim":72,"hidden_activation":"gelu_pytorch_tanh","hidden_size":1152,"intermediate_size":4304,"max_position_embeddings":131072,"model_type":"gemma4_vision","num_attention_heads":16,"num_hidden_layers":27,"num_key_value_heads":16,"patch_size":16,"pooling_kernel_size":3,"position_embedding_size":10240,"rms_norm_eps":1e-06,"rope_parameters":{"rope_theta":100.0,"rope_type":"default"},"standardize":true,"use_clipped_linears":false},"vision_soft_tokens_per_image":280}',
 'google/diffusiongemma-26B-A4B-it config.json as mlx-community/diffusiongemma-26B-A4B-it-4bit carries it (copy: Algorythm-Canada/OpenJevSwift Fixtures/model/config.json, commit 401f7671; tests/fixtures/configs/diffusion_gemma/config.json); quantization keys, token ids, initializer_range, transformers_version, generation_config and the vision config''s serialization defaults dropped',
 'Google', 'derived')
ON CONFLICT DO NOTHING;

INSERT INTO model_aliases (alias, model_id) VALUES
('google/diffusiongemma-26B-A4B-it', 'diffusiongemma-26b-a4b-it')
ON CONFLICT DO NOTHING;
