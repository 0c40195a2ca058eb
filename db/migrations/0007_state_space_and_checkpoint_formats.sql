-- Schema version 7: the state-space models (Mamba, Mamba-2), and the stored format of
-- the checkpoints that are published quantized. Data only; no schema change.
--
-- Conventions as in 0004/0006: config_json is the Hugging Face config.json reduced to
-- the architecture fields (token ids and the like dropped; Mamba-Codestral's
-- time_step_limit [0.0, Infinity] dropped as JSON cannot hold it), `parameters` the
-- parameters() count of the stored config (tests/server/test_codec.c checks every
-- row), with the hand arithmetic in tests/fixtures/configs/<model_type>/README.md.
--
-- quantization_config: 0004 and 0006 dropped it from the stored configs, so the
-- catalog entries of checkpoints that ship quantized were sized in bf16 when a
-- request named no precision. gpusizer now sizes such a request in the format the
-- checkpoint stores (server/models/reader.c, models_read_checkpoint), so the
-- published quantization_config is put back, exactly as the config.json files carry
-- it (copies in tests/fixtures/configs/: deepseek_v32, kimi_k2, gpt_oss, minimax_m2):
--   DeepSeek-V3, DeepSeek-V3.2(-Exp), Kimi K2: fp8 e4m3 with 128x128 block scales;
--   gpt-oss: MXFP4 routed experts, attention, router, embeddings and head in bf16;
--   MiniMax-M2/M2.5: fp8 with 128x128 block scales.
-- Only rows still at their seeded revision are changed: an entry a user edited
-- through the API is theirs.

INSERT INTO models (id, name, hf_id, family, parameters, parameters_source, config_json, config_source,
                    publisher, parameters_basis) VALUES
-- 129,135,360 = parameters() of the stored config; published as "129M" (tests/fixtures/configs/mamba/README.md).
('mamba-130m', 'Mamba 130M', 'state-spaces/mamba-130m-hf', 'mamba', 129135360,
 'exact count of config_json (Mamba mixer: in_proj, conv1d with bias, x_proj/dt_proj or the Mamba-2 dt_bias/A_log/D and gated norm, out_proj; one RMSNorm per layer; tests/fixtures/configs/mamba/README.md); the Hugging Face page shows 129M',
 '{"architectures":["MambaForCausalLM"],"conv_kernel":4,"d_inner":1536,"d_model":768,"expand":2,"fused_add_norm":true,"hidden_act":"silu","hidden_size":768,"intermediate_size":1536,"layer_norm_epsilon":1e-05,"model_type":"mamba","n_layer":24,"num_hidden_layers":24,"pad_vocab_size_multiple":8,"rescale_prenorm_residual":false,"residual_in_fp32":true,"rms_norm":true,"ssm_cfg":{},"state_size":16,"time_step_floor":0.0001,"time_step_init_scheme":"random","time_step_max":0.1,"time_step_min":0.001,"time_step_rank":48,"time_step_scale":1.0,"torch_dtype":"float32","use_bias":false,"use_conv_bias":true,"vocab_size":50280}',
 'state-spaces/mamba-130m-hf config.json on the Hugging Face Hub (tests/fixtures/configs/mamba/state-spaces__mamba-130m-hf.json; its README names the copies)',
 'State Spaces', 'derived'),
-- 2,768,345,600 = parameters() of the stored config; published as "2.77B" (tests/fixtures/configs/mamba/README.md).
('mamba-2.8b', 'Mamba 2.8B', 'state-spaces/mamba-2.8b-hf', 'mamba', 2768345600,
 'exact count of config_json (Mamba mixer: in_proj, conv1d with bias, x_proj/dt_proj or the Mamba-2 dt_bias/A_log/D and gated norm, out_proj; one RMSNorm per layer; tests/fixtures/configs/mamba/README.md); the Hugging Face page shows 2.77B',
 '{"architectures":["MambaForCausalLM"],"conv_kernel":4,"expand":2,"fused_add_norm":true,"hidden_act":"silu","hidden_size":2560,"intermediate_size":5120,"layer_norm_epsilon":1e-05,"model_type":"mamba","n_layer":64,"num_hidden_layers":64,"pad_vocab_size_multiple":8,"rescale_prenorm_residual":false,"residual_in_fp32":true,"rms_norm":true,"state_size":16,"time_step_floor":0.0001,"time_step_init_scheme":"random","time_step_max":0.1,"time_step_min":0.001,"time_step_rank":160,"time_step_scale":1.0,"torch_dtype":"float32","use_bias":false,"use_conv_bias":true,"vocab_size":50280}',
 'state-spaces/mamba-2.8b-hf config.json on the Hugging Face Hub (tests/fixtures/configs/mamba/state-spaces__mamba-2.8b-hf.json; its README names the copies)',
 'State Spaces', 'derived'),
-- 7,285,403,648 = parameters() of the stored config; published as "7.29B" (tests/fixtures/configs/mamba2/README.md).
('mamba-codestral-7b-v0.1', 'Mamba-Codestral 7B v0.1', 'mistralai/Mamba-Codestral-7B-v0.1', 'mamba2', 7285403648,
 'exact count of config_json (Mamba-2 mixer: in_proj, conv1d with bias, x_proj/dt_proj or the Mamba-2 dt_bias/A_log/D and gated norm, out_proj; one RMSNorm per layer; tests/fixtures/configs/mamba2/README.md); the Hugging Face page shows 7.29B and the model card 7,285,403,648 (recalled, not re-read)',
 '{"architectures":["Mamba2ForCausalLM"],"chunk_size":256,"conv_kernel":4,"expand":2,"head_dim":64,"hidden_act":"silu","hidden_size":4096,"intermediate_size":8192,"layer_norm_epsilon":1e-05,"model_type":"mamba2","n_groups":8,"norm_before_gate":true,"num_heads":128,"num_hidden_layers":64,"rescale_prenorm_residual":false,"residual_in_fp32":true,"rms_norm":true,"state_size":128,"tie_word_embeddings":false,"time_step_floor":0.0001,"time_step_init_scheme":"random","time_step_max":0.1,"time_step_min":0.001,"time_step_rank":256,"time_step_scale":1.0,"torch_dtype":"bfloat16","use_bias":false,"use_conv_bias":true,"vocab_size":32768}',
 'mistralai/Mamba-Codestral-7B-v0.1 config.json on the Hugging Face Hub (tests/fixtures/configs/mamba2/mistralai__Mamba-Codestral-7B-v0.1.json; its README names the copies)',
 'Mistral AI', 'derived')
ON CONFLICT DO NOTHING;

INSERT INTO model_aliases (alias, model_id) VALUES
('state-spaces/mamba-130m-hf', 'mamba-130m'),
('state-spaces/mamba-2.8b-hf', 'mamba-2.8b'),
('mistralai/Mamba-Codestral-7B-v0.1', 'mamba-codestral-7b-v0.1'),
('mamba-codestral-7b', 'mamba-codestral-7b-v0.1'),
('codestral-mamba', 'mamba-codestral-7b-v0.1')
ON CONFLICT DO NOTHING;

UPDATE models SET revision = revision + 1, config_json = json_set(config_json, '$.quantization_config',
    json('{"activation_scheme":"dynamic","fmt":"e4m3","quant_method":"fp8","weight_block_size":[128,128]}'))
 WHERE id IN ('deepseek-v3', 'kimi-k2-instruct', 'kimi-k2-base', 'minimax-m2', 'minimax-m2.5')
   AND revision = 1 AND json_extract(config_json, '$.quantization_config') IS NULL;
UPDATE models SET revision = revision + 1, config_json = json_set(config_json, '$.quantization_config',
    json('{"activation_scheme":"dynamic","fmt":"e4m3","quant_method":"fp8","scale_fmt":"ue8m0","weight_block_size":[128,128]}'))
 WHERE id IN ('deepseek-v3.2', 'deepseek-v3.2-exp')
   AND revision = 1 AND json_extract(config_json, '$.quantization_config') IS NULL;
UPDATE models SET revision = revision + 1, config_json = json_set(config_json, '$.quantization_config',
    json('{"modules_to_not_convert":["model.layers.*.self_attn","model.layers.*.mlp.router","model.embed_tokens","lm_head"],"quant_method":"mxfp4"}'))
 WHERE id IN ('gpt-oss-20b', 'gpt-oss-120b')
   AND revision = 1 AND json_extract(config_json, '$.quantization_config') IS NULL;
