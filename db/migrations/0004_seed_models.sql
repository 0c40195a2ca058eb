-- Schema version 4: the model catalog grows from 3 to 74 models, and every model
-- names its publisher. Data only; no schema change.
--
-- As in 0002_seed.sql, config_json is the Hugging Face config.json of the
-- repository in hf_id reduced to the architecture fields (token ids, auto_map,
-- quantization and similar keys dropped), and the comment above each row says
-- where `parameters` comes from. tests/server/test_codec.c checks that the count
-- gs_arch_count_params computes from every stored config equals `parameters`.
--
-- parameters_basis (0003_catalog.sql): 'published' rows carry an exact count
-- found in a public source (safetensors totals, GGUF parameter counts, model
-- cards, library preset metadata, the exact count of config_json (docs/model-readers.md)) that the stored config
-- reproduces. Where a checkpoint stores more than parameters() counts (a tied
-- head saved twice, rotary or router buffers) the parameters() count is stored
-- and the comment gives both. 'derived' rows had no exact published count; their
-- `parameters` is the exact count of the stored config.
--
-- Where a base checkpoint's total was not published, the total of its
-- instruction-tuned sibling with identical shapes is used and named.
--
-- ON CONFLICT DO NOTHING: a catalog upgraded from version 3 may already hold a
-- row a user added under one of these ids or aliases; that row is kept, as
-- tests/db/test_catalog.c expects of user rows. Only the key conflict is
-- skipped; any other constraint failure still aborts the migration.

-- Meta: Llama 2, Llama 3, 3.1, 3.2, 3.3.
INSERT INTO models (id, name, hf_id, family, parameters, parameters_source, config_json, config_source,
                    publisher, parameters_basis) VALUES
-- 6,738,415,616 = parameters() count (the exact count of config_json (docs/model-readers.md), Llama-2-7B row). The Hub's
-- safetensors total 6,738,417,664 also counts the 32 layers' rotary inv_freq buffers (32 x 64
-- = 2,048).
('llama-2-7b', 'Llama 2 7B', 'meta-llama/Llama-2-7b-hf', 'llama', 6738415616,
 'meta-llama/Llama-2-7b-hf Hugging Face safetensors total 6,738,417,664 (API safetensors.total, revision 01c7f73d) minus the 32 x 64 = 2,048 rotary inv_freq buffer values the checkpoint stores; the remaining 6,738,415,616 is the exact count of config_json (docs/model-readers.md) (Llama-2-7B) and equals the Llama formula applied to config_json',
 '{"architectures":["LlamaForCausalLM"],"model_type":"llama","hidden_size":4096,"intermediate_size":11008,"num_hidden_layers":32,"num_attention_heads":32,"num_key_value_heads":32,"hidden_act":"silu","max_position_embeddings":4096,"rms_norm_eps":1e-05,"rope_scaling":null,"tie_word_embeddings":false,"torch_dtype":"float16","vocab_size":32000}',
 'meta-llama/Llama-2-7b-hf config.json on the Hugging Face Hub',
 'Meta', 'published'),
-- 13,015,864,320 = parameters() count (the exact count of config_json (docs/model-readers.md), Llama-2-13B row). The Hub's
-- safetensors total 13,015,866,880 also counts the 40 layers' rotary inv_freq buffers (40 x 64
-- = 2,560).
('llama-2-13b', 'Llama 2 13B', 'meta-llama/Llama-2-13b-hf', 'llama', 13015864320,
 'meta-llama/Llama-2-13b-hf Hugging Face safetensors total 13,015,866,880 (API safetensors.total, revision 5c31dfb6) minus the 40 x 64 = 2,560 rotary inv_freq buffer values the checkpoint stores; the remaining 13,015,864,320 is the exact count of config_json (docs/model-readers.md) (Llama-2-13B) and equals the Llama formula applied to config_json',
 '{"architectures":["LlamaForCausalLM"],"model_type":"llama","hidden_size":5120,"intermediate_size":13824,"num_hidden_layers":40,"num_attention_heads":40,"num_key_value_heads":40,"hidden_act":"silu","max_position_embeddings":4096,"rms_norm_eps":1e-05,"rope_scaling":null,"tie_word_embeddings":false,"torch_dtype":"float16","vocab_size":32000}',
 'meta-llama/Llama-2-13b-hf config.json on the Hugging Face Hub',
 'Meta', 'published'),
-- 68,976,648,192 = parameters() count (the exact count of config_json (docs/model-readers.md), Llama-2-70B row). The Hub's
-- safetensors total 68,976,653,312 also counts the 80 layers' rotary inv_freq buffers (80 x 64
-- = 5,120).
('llama-2-70b', 'Llama 2 70B', 'meta-llama/Llama-2-70b-hf', 'llama', 68976648192,
 'meta-llama/Llama-2-70b-hf Hugging Face safetensors total 68,976,653,312 (API safetensors.total, revision 3aba440b) minus the 80 x 64 = 5,120 rotary inv_freq buffer values the checkpoint stores; the remaining 68,976,648,192 is the exact count of config_json (docs/model-readers.md) (Llama-2-70B) and equals the Llama formula applied to config_json',
 '{"architectures":["LlamaForCausalLM"],"model_type":"llama","hidden_size":8192,"intermediate_size":28672,"num_hidden_layers":80,"num_attention_heads":64,"num_key_value_heads":8,"hidden_act":"silu","max_position_embeddings":4096,"rms_norm_eps":1e-05,"rope_scaling":null,"tie_word_embeddings":false,"torch_dtype":"float16","vocab_size":32000}',
 'meta-llama/Llama-2-70b-hf config.json on the Hugging Face Hub',
 'Meta', 'published'),
-- 8,030,261,248 = safetensors total of meta-llama/Meta-Llama-3-8B (the exact count of config_json (docs/model-readers.md),
-- Llama-3-8B row).
('llama-3-8b', 'Llama 3 8B', 'meta-llama/Meta-Llama-3-8B', 'llama', 8030261248,
 'Hugging Face safetensors parameter total of meta-llama/Meta-Llama-3-8B (the exact count of config_json (docs/model-readers.md), Llama-3-8B); equals the Llama formula applied to config_json',
 '{"architectures":["LlamaForCausalLM"],"model_type":"llama","hidden_size":4096,"intermediate_size":14336,"num_hidden_layers":32,"num_attention_heads":32,"num_key_value_heads":8,"max_position_embeddings":8192,"rope_scaling":null,"attention_bias":false,"attention_dropout":0.0,"hidden_act":"silu","rms_norm_eps":1e-05,"rope_theta":500000.0,"tie_word_embeddings":false,"torch_dtype":"bfloat16","vocab_size":128256}',
 'meta-llama/Meta-Llama-3-8B config.json on the Hugging Face Hub',
 'Meta', 'published'),
-- 70,553,706,496 = safetensors total of Meta-Llama-3-70B, the same figure as Llama-3.1-70B in
-- 0002_seed.sql (identical shapes; only max_position_embeddings and rope_scaling differ).
('llama-3-70b', 'Llama 3 70B', 'meta-llama/Meta-Llama-3-70B', 'llama', 70553706496,
 'Hugging Face safetensors parameter total 70,553,706,496 of Meta-Llama-3-70B (recorded for its NousResearch/Meta-Llama-3-70B mirror) and of meta-llama/Llama-3.1-70B (0002_seed.sql), same architecture; equals the Llama formula applied to config_json',
 '{"architectures":["LlamaForCausalLM"],"model_type":"llama","hidden_size":8192,"intermediate_size":28672,"num_hidden_layers":80,"num_attention_heads":64,"num_key_value_heads":8,"max_position_embeddings":8192,"rope_scaling":null,"attention_bias":false,"attention_dropout":0.0,"hidden_act":"silu","rms_norm_eps":1e-05,"rope_theta":500000.0,"tie_word_embeddings":false,"torch_dtype":"bfloat16","vocab_size":128256}',
 'meta-llama/Meta-Llama-3-70B config.json on the Hugging Face Hub',
 'Meta', 'published'),
-- 405,853,388,800 = Hugging Face API safetensors.total of meta-llama/Llama-3.1-405B.
('llama-3.1-405b', 'Llama 3.1 405B', 'meta-llama/Llama-3.1-405B', 'llama', 405853388800,
 'meta-llama/Llama-3.1-405B Hugging Face API safetensors.total 405,853,388,800 (revision b906e4dc); equals the Llama formula applied to config_json',
 '{"architectures":["LlamaForCausalLM"],"model_type":"llama","hidden_size":16384,"intermediate_size":53248,"num_hidden_layers":126,"num_attention_heads":128,"num_key_value_heads":8,"max_position_embeddings":131072,"rope_scaling":{"factor":8.0,"low_freq_factor":1.0,"high_freq_factor":4.0,"original_max_position_embeddings":8192,"rope_type":"llama3"},"mlp_bias":false,"attention_bias":false,"attention_dropout":0.0,"hidden_act":"silu","rms_norm_eps":1e-05,"rope_theta":500000.0,"tie_word_embeddings":false,"torch_dtype":"bfloat16","vocab_size":128256}',
 'meta-llama/Llama-3.1-405B config.json on the Hugging Face Hub',
 'Meta', 'published'),
-- 1,235,814,400: the exact count of config_json (docs/model-readers.md) (Llama-3.2-1B row, tied head counted once); the same figure
-- is the safetensors total of meta-llama/Llama-3.2-1B-Instruct.
('llama-3.2-1b', 'Llama 3.2 1B', 'meta-llama/Llama-3.2-1B', 'llama', 1235814400,
 'the exact count of config_json (docs/model-readers.md) (Llama-3.2-1B, tied embeddings), also the safetensors total of meta-llama/Llama-3.2-1B-Instruct; equals the Llama formula applied to config_json',
 '{"architectures":["LlamaForCausalLM"],"model_type":"llama","hidden_size":2048,"intermediate_size":8192,"num_hidden_layers":16,"num_attention_heads":32,"num_key_value_heads":8,"head_dim":64,"max_position_embeddings":131072,"rope_scaling":{"factor":32.0,"low_freq_factor":1.0,"high_freq_factor":4.0,"original_max_position_embeddings":8192,"rope_type":"llama3"},"mlp_bias":false,"attention_bias":false,"attention_dropout":0.0,"hidden_act":"silu","rms_norm_eps":1e-05,"rope_theta":500000.0,"tie_word_embeddings":true,"torch_dtype":"bfloat16","vocab_size":128256}',
 'meta-llama/Llama-3.2-1B config.json on the Hugging Face Hub',
 'Meta', 'published'),
-- 3,212,749,824 = safetensors BF16 parameter total of meta-llama/Llama-3.2-3B-Instruct (same
-- shapes as the base model; the head is tied, so it is stored and counted once).
('llama-3.2-3b', 'Llama 3.2 3B', 'meta-llama/Llama-3.2-3B', 'llama', 3212749824,
 'Hugging Face safetensors total (safetensors.parameters.BF16) 3,212,749,824 of meta-llama/Llama-3.2-3B-Instruct, same architecture as the base model; equals the Llama formula applied to config_json',
 '{"architectures":["LlamaForCausalLM"],"model_type":"llama","hidden_size":3072,"intermediate_size":8192,"num_hidden_layers":28,"num_attention_heads":24,"num_key_value_heads":8,"head_dim":128,"max_position_embeddings":131072,"rope_scaling":{"factor":32.0,"low_freq_factor":1.0,"high_freq_factor":4.0,"original_max_position_embeddings":8192,"rope_type":"llama3"},"mlp_bias":false,"attention_bias":false,"attention_dropout":0.0,"hidden_act":"silu","rms_norm_eps":1e-05,"rope_theta":500000.0,"tie_word_embeddings":true,"torch_dtype":"bfloat16","vocab_size":128256}',
 'meta-llama/Llama-3.2-3B config.json on the Hugging Face Hub',
 'Meta', 'published'),
-- 70,553,706,496 = safetensors total of meta-llama/Llama-3.3-70B-Instruct (Llama 3.3 ships
-- only the instruction-tuned model; same shapes as Llama-3.1-70B).
('llama-3.3-70b', 'Llama 3.3 70B Instruct', 'meta-llama/Llama-3.3-70B-Instruct', 'llama', 70553706496,
 'Hugging Face safetensors total 70,553,706,496 of meta-llama/Llama-3.3-70B-Instruct; equals the Llama formula applied to config_json',
 '{"architectures":["LlamaForCausalLM"],"model_type":"llama","hidden_size":8192,"intermediate_size":28672,"num_hidden_layers":80,"num_attention_heads":64,"num_key_value_heads":8,"max_position_embeddings":131072,"rope_scaling":{"factor":8.0,"low_freq_factor":1.0,"high_freq_factor":4.0,"original_max_position_embeddings":8192,"rope_type":"llama3"},"mlp_bias":false,"attention_bias":false,"attention_dropout":0.0,"hidden_act":"silu","rms_norm_eps":1e-05,"rope_theta":500000.0,"tie_word_embeddings":false,"torch_dtype":"bfloat16","vocab_size":128256}',
 'meta-llama/Llama-3.3-70B-Instruct config.json on the Hugging Face Hub',
 'Meta', 'published')
ON CONFLICT (id) DO NOTHING;

-- Mistral AI: Mistral, Mistral NeMo, Mixtral.
INSERT INTO models (id, name, hf_id, family, parameters, parameters_source, config_json, config_source,
                    publisher, parameters_basis) VALUES
-- 7,248,023,552 = safetensors total of mistralai/Mistral-7B-v0.3: v0.1 plus the vocabulary
-- grown from 32000 to 32768 tokens (768 x 4096 x 2). No sliding window in v0.3.
('mistral-7b-v0.3', 'Mistral 7B v0.3', 'mistralai/Mistral-7B-v0.3', 'mistral', 7248023552,
 'Hugging Face safetensors total 7,248,023,552 of mistralai/Mistral-7B-v0.3 (and of Mistral-7B-Instruct-v0.3); equals the Mistral (Llama) formula applied to config_json',
 '{"architectures":["MistralForCausalLM"],"model_type":"mistral","attention_dropout":0.0,"hidden_act":"silu","hidden_size":4096,"intermediate_size":14336,"max_position_embeddings":32768,"num_attention_heads":32,"num_hidden_layers":32,"num_key_value_heads":8,"rms_norm_eps":1e-05,"rope_theta":1000000.0,"sliding_window":null,"tie_word_embeddings":false,"torch_dtype":"bfloat16","vocab_size":32768}',
 'mistralai/Mistral-7B-v0.3 config.json on the Hugging Face Hub',
 'Mistral AI', 'published'),
-- 12,247,782,400 = safetensors total of mistralai/Mistral-Nemo-Instruct-2407 (same shapes as
-- the base); llama.cpp reports the same n_params. head_dim 128 is explicit (32 x 128 != 5120).
('mistral-nemo-12b', 'Mistral NeMo 12B (Base 2407)', 'mistralai/Mistral-Nemo-Base-2407', 'mistral', 12247782400,
 'Hugging Face safetensors total 12,247,782,400 of mistralai/Mistral-Nemo-Instruct-2407 (same architecture as the base), also llama.cpp''s n_params for Mistral-Nemo GGUF files; equals the Mistral (Llama) formula applied to config_json',
 '{"architectures":["MistralForCausalLM"],"model_type":"mistral","attention_dropout":0.0,"head_dim":128,"hidden_act":"silu","hidden_size":5120,"intermediate_size":14336,"max_position_embeddings":1024000,"num_attention_heads":32,"num_hidden_layers":40,"num_key_value_heads":8,"rms_norm_eps":1e-05,"rope_theta":1000000.0,"sliding_window":null,"tie_word_embeddings":false,"torch_dtype":"bfloat16","vocab_size":131072}',
 'mistralai/Mistral-Nemo-Base-2407 config.json on the Hugging Face Hub',
 'Mistral AI', 'published'),
-- 46,702,792,704 = safetensors total of mistralai/Mixtral-8x7B-v0.1 (the exact count of config_json (docs/model-readers.md),
-- Mixtral).
('mixtral-8x7b', 'Mixtral 8x7B v0.1', 'mistralai/Mixtral-8x7B-v0.1', 'mixtral', 46702792704,
 'Hugging Face safetensors parameter total of mistralai/Mixtral-8x7B-v0.1 (the exact count of config_json (docs/model-readers.md), Mixtral); equals the Mixtral formula applied to config_json',
 '{"architectures":["MixtralForCausalLM"],"model_type":"mixtral","hidden_size":4096,"intermediate_size":14336,"max_position_embeddings":32768,"num_attention_heads":32,"num_experts_per_tok":2,"num_hidden_layers":32,"num_key_value_heads":8,"num_local_experts":8,"router_aux_loss_coef":0.02,"vocab_size":32000,"attention_dropout":0.0,"hidden_act":"silu","rms_norm_eps":1e-05,"rope_theta":1000000.0,"sliding_window":null,"tie_word_embeddings":false,"torch_dtype":"bfloat16"}',
 'mistralai/Mixtral-8x7B-v0.1 config.json on the Hugging Face Hub',
 'Mistral AI', 'published'),
-- 140,630,071,296 = safetensors total of mistralai/Mixtral-8x22B-Instruct-v0.1 (vocabulary
-- 32768). The community conversion of the base model with the 32000-token vocabulary
-- (mistral-community/Mixtral-8x22B-v0.1) totals 140,620,634,112 = this - 768 x 6144 x 2.
('mixtral-8x22b-instruct', 'Mixtral 8x22B Instruct v0.1', 'mistralai/Mixtral-8x22B-Instruct-v0.1', 'mixtral', 140630071296,
 'Hugging Face safetensors total 140,630,071,296 of mistralai/Mixtral-8x22B-Instruct-v0.1 (as recorded by a public model catalog, source: safetensors); equals the Mixtral formula applied to config_json',
 '{"architectures":["MixtralForCausalLM"],"model_type":"mixtral","hidden_size":6144,"intermediate_size":16384,"max_position_embeddings":65536,"num_attention_heads":48,"num_experts_per_tok":2,"num_hidden_layers":56,"num_key_value_heads":8,"num_local_experts":8,"router_aux_loss_coef":0.001,"vocab_size":32768,"attention_dropout":0.0,"hidden_act":"silu","rms_norm_eps":1e-05,"rope_theta":1000000.0,"sliding_window":null,"tie_word_embeddings":false,"torch_dtype":"bfloat16"}',
 'mistralai/Mixtral-8x22B-Instruct-v0.1 config.json on the Hugging Face Hub',
 'Mistral AI', 'published')
ON CONFLICT (id) DO NOTHING;

-- Alibaba Cloud: Qwen2.5 (q/k/v projections carry biases), Qwen MoE.
INSERT INTO models (id, name, hf_id, family, parameters, parameters_source, config_json, config_source,
                    publisher, parameters_basis) VALUES
-- 494,032,768 = safetensors total of Qwen/Qwen2.5-0.5B-Instruct (same shapes as the base),
-- also the exact count of config_json (docs/model-readers.md) (Qwen2-0.5B row, identical shapes). Tied head.
('qwen2.5-0.5b', 'Qwen2.5 0.5B', 'Qwen/Qwen2.5-0.5B', 'qwen2', 494032768,
 'Safetensors total 494,032,768 of Qwen/Qwen2.5-0.5B-Instruct (same architecture), also the exact count of config_json (docs/model-readers.md) (Qwen2-0.5B row, identical shapes); equals the Qwen2 formula (q/k/v biases) applied to config_json',
 '{"architectures":["Qwen2ForCausalLM"],"model_type":"qwen2","attention_dropout":0.0,"hidden_act":"silu","rope_theta":1000000.0,"use_sliding_window":false,"torch_dtype":"bfloat16","hidden_size":896,"intermediate_size":4864,"max_position_embeddings":32768,"max_window_layers":24,"num_attention_heads":14,"num_hidden_layers":24,"num_key_value_heads":2,"rms_norm_eps":1e-06,"sliding_window":32768,"tie_word_embeddings":true,"vocab_size":151936}',
 'Qwen/Qwen2.5-0.5B config.json on the Hugging Face Hub',
 'Alibaba Cloud', 'published'),
-- 1,543,714,304 = safetensors total of Qwen/Qwen2.5-1.5B-Instruct (same shapes). Tied head.
('qwen2.5-1.5b', 'Qwen2.5 1.5B', 'Qwen/Qwen2.5-1.5B', 'qwen2', 1543714304,
 'Safetensors total 1,543,714,304 of Qwen/Qwen2.5-1.5B-Instruct (same architecture); equals the Qwen2 formula (q/k/v biases) applied to config_json',
 '{"architectures":["Qwen2ForCausalLM"],"model_type":"qwen2","attention_dropout":0.0,"hidden_act":"silu","rope_theta":1000000.0,"use_sliding_window":false,"torch_dtype":"bfloat16","hidden_size":1536,"intermediate_size":8960,"max_position_embeddings":131072,"max_window_layers":28,"num_attention_heads":12,"num_hidden_layers":28,"num_key_value_heads":2,"rms_norm_eps":1e-06,"sliding_window":131072,"tie_word_embeddings":true,"vocab_size":151936}',
 'Qwen/Qwen2.5-1.5B config.json on the Hugging Face Hub',
 'Alibaba Cloud', 'published'),
-- 3,085,938,688 = safetensors total of Qwen/Qwen2.5-3B-Instruct (same shapes). Tied head.
('qwen2.5-3b', 'Qwen2.5 3B', 'Qwen/Qwen2.5-3B', 'qwen2', 3085938688,
 'Safetensors total 3,085,938,688 of Qwen/Qwen2.5-3B-Instruct (same architecture); equals the Qwen2 formula (q/k/v biases) applied to config_json',
 '{"architectures":["Qwen2ForCausalLM"],"model_type":"qwen2","attention_dropout":0.0,"hidden_act":"silu","rope_theta":1000000.0,"use_sliding_window":false,"torch_dtype":"bfloat16","hidden_size":2048,"intermediate_size":11008,"max_position_embeddings":32768,"max_window_layers":36,"num_attention_heads":16,"num_hidden_layers":36,"num_key_value_heads":2,"rms_norm_eps":1e-06,"sliding_window":32768,"tie_word_embeddings":true,"vocab_size":151936}',
 'Qwen/Qwen2.5-3B config.json on the Hugging Face Hub',
 'Alibaba Cloud', 'published'),
-- 7,615,616,512: the exact count of config_json (docs/model-readers.md) (Qwen2.5-7B row), also the safetensors total of
-- Qwen/Qwen2.5-7B-Instruct.
('qwen2.5-7b', 'Qwen2.5 7B', 'Qwen/Qwen2.5-7B', 'qwen2', 7615616512,
 'The exact count of config_json (docs/model-readers.md) (Qwen2.5-7B), also the safetensors total of Qwen/Qwen2.5-7B-Instruct; equals the Qwen2 formula (q/k/v biases) applied to config_json',
 '{"architectures":["Qwen2ForCausalLM"],"model_type":"qwen2","attention_dropout":0.0,"hidden_act":"silu","rope_theta":1000000.0,"use_sliding_window":false,"torch_dtype":"bfloat16","hidden_size":3584,"intermediate_size":18944,"max_position_embeddings":131072,"max_window_layers":28,"num_attention_heads":28,"num_hidden_layers":28,"num_key_value_heads":4,"rms_norm_eps":1e-06,"sliding_window":131072,"tie_word_embeddings":false,"vocab_size":152064}',
 'Qwen/Qwen2.5-7B config.json on the Hugging Face Hub',
 'Alibaba Cloud', 'published'),
-- 14,770,033,664 = GGUF general.parameter_count of Qwen2.5-14B conversions (llama.cpp reports
-- it as n_params for Qwen2.5-14B-Instruct GGUF files).
('qwen2.5-14b', 'Qwen2.5 14B', 'Qwen/Qwen2.5-14B', 'qwen2', 14770033664,
 'GGUF general.parameter_count 14,770,033,664 of Qwen2.5-14B conversions (llama.cpp n_params of Qwen2.5-14B-Instruct GGUF); equals the Qwen2 formula (q/k/v biases) applied to config_json',
 '{"architectures":["Qwen2ForCausalLM"],"model_type":"qwen2","attention_dropout":0.0,"hidden_act":"silu","rope_theta":1000000.0,"use_sliding_window":false,"torch_dtype":"bfloat16","hidden_size":5120,"intermediate_size":13824,"max_position_embeddings":131072,"max_window_layers":48,"num_attention_heads":40,"num_hidden_layers":48,"num_key_value_heads":8,"rms_norm_eps":1e-05,"sliding_window":131072,"tie_word_embeddings":false,"vocab_size":152064}',
 'Qwen/Qwen2.5-14B config.json on the Hugging Face Hub',
 'Alibaba Cloud', 'published'),
-- 32,763,876,352 = safetensors total of Qwen/Qwen2.5-32B-Instruct (same shapes).
('qwen2.5-32b', 'Qwen2.5 32B', 'Qwen/Qwen2.5-32B', 'qwen2', 32763876352,
 'Safetensors total 32,763,876,352 of Qwen/Qwen2.5-32B-Instruct (same architecture); equals the Qwen2 formula (q/k/v biases) applied to config_json',
 '{"architectures":["Qwen2ForCausalLM"],"model_type":"qwen2","attention_dropout":0.0,"hidden_act":"silu","rope_theta":1000000.0,"use_sliding_window":false,"torch_dtype":"bfloat16","hidden_size":5120,"intermediate_size":27648,"max_position_embeddings":131072,"max_window_layers":64,"num_attention_heads":40,"num_hidden_layers":64,"num_key_value_heads":8,"rms_norm_eps":1e-05,"sliding_window":131072,"tie_word_embeddings":false,"vocab_size":152064}',
 'Qwen/Qwen2.5-32B config.json on the Hugging Face Hub',
 'Alibaba Cloud', 'published'),
-- 72,706,203,648 = safetensors total of Qwen/Qwen2.5-72B-Instruct (same shapes). rms_norm_eps
-- is left out: its base-checkpoint value was not confirmed (it does not affect any count).
('qwen2.5-72b', 'Qwen2.5 72B', 'Qwen/Qwen2.5-72B', 'qwen2', 72706203648,
 'Safetensors total 72,706,203,648 of Qwen/Qwen2.5-72B-Instruct (same architecture); equals the Qwen2 formula (q/k/v biases) applied to config_json',
 '{"architectures":["Qwen2ForCausalLM"],"model_type":"qwen2","attention_dropout":0.0,"hidden_act":"silu","rope_theta":1000000.0,"use_sliding_window":false,"torch_dtype":"bfloat16","hidden_size":8192,"intermediate_size":29568,"max_position_embeddings":131072,"max_window_layers":80,"num_attention_heads":64,"num_hidden_layers":80,"num_key_value_heads":8,"sliding_window":131072,"tie_word_embeddings":false,"vocab_size":152064}',
 'Qwen/Qwen2.5-72B config.json on the Hugging Face Hub (rms_norm_eps left out: not confirmed for the base checkpoint)',
 'Alibaba Cloud', 'published'),
-- 14,315,784,192 = keras-hub preset qwen1.5_moe_2.7b_en params (base model, same shapes as the
-- chat model). 60 routed experts of width 1408, top-4, plus one gated shared expert of width
-- 5632 (shared_expert_gate is h x 1) in each of the 24 layers.
('qwen1.5-moe-a2.7b-chat', 'Qwen1.5-MoE-A2.7B Chat', 'Qwen/Qwen1.5-MoE-A2.7B-Chat', 'qwen2_moe', 14315784192,
 'keras-hub preset qwen1.5_moe_2.7b_en metadata params 14,315,784,192 (the base checkpoint; the chat model has the same shapes, and public tables list 14,315,784,192 for both); equals the Qwen2-MoE formula applied to config_json',
 '{"architectures":["Qwen2MoeForCausalLM"],"model_type":"qwen2_moe","hidden_size":2048,"intermediate_size":5632,"max_position_embeddings":32768,"max_window_layers":21,"moe_intermediate_size":1408,"num_attention_heads":16,"num_experts":60,"num_experts_per_tok":4,"num_hidden_layers":24,"num_key_value_heads":16,"shared_expert_intermediate_size":5632,"sliding_window":32768,"attention_dropout":0.0,"decoder_sparse_step":1,"hidden_act":"silu","norm_topk_prob":false,"rms_norm_eps":1e-06,"rope_theta":1000000.0,"router_aux_loss_coef":0.001,"tie_word_embeddings":false,"torch_dtype":"bfloat16","use_sliding_window":false,"vocab_size":151936}',
 'Qwen/Qwen1.5-MoE-A2.7B-Chat config.json on the Hugging Face Hub (as vendored in mlc-ai/mlc-llm model_preset.py)',
 'Alibaba Cloud', 'published'),
-- 57,408,658,944 = Hugging Face API safetensors.total of Qwen/Qwen2-57B-A14B.
('qwen2-57b-a14b', 'Qwen2-57B-A14B', 'Qwen/Qwen2-57B-A14B', 'qwen2_moe', 57408658944,
 'Qwen/Qwen2-57B-A14B Hugging Face API safetensors.total 57,408,658,944; equals the Qwen2-MoE formula applied to config_json',
 '{"architectures":["Qwen2MoeForCausalLM"],"model_type":"qwen2_moe","hidden_size":3584,"intermediate_size":18944,"max_position_embeddings":131072,"max_window_layers":28,"moe_intermediate_size":2560,"num_attention_heads":28,"num_experts":64,"num_experts_per_tok":8,"num_hidden_layers":28,"num_key_value_heads":4,"shared_expert_intermediate_size":20480,"sliding_window":131072,"attention_dropout":0.0,"decoder_sparse_step":1,"hidden_act":"silu","norm_topk_prob":false,"rms_norm_eps":1e-06,"rope_theta":1000000.0,"router_aux_loss_coef":0.001,"tie_word_embeddings":false,"torch_dtype":"bfloat16","use_sliding_window":false,"vocab_size":151936}',
 'Qwen/Qwen2-57B-A14B config.json on the Hugging Face Hub (as copied in NVIDIA/TensorRT-LLM''s Qwen-MoE test)',
 'Alibaba Cloud', 'published'),
-- 30,532,122,624 = safetensors total of Qwen/Qwen3-30B-A3B. Every layer is MoE
-- (mlp_only_layers empty), so intermediate_size 6144 names no module; q_norm/k_norm are 2 x
-- 128 per layer.
('qwen3-30b-a3b', 'Qwen3-30B-A3B', 'Qwen/Qwen3-30B-A3B', 'qwen3_moe', 30532122624,
 'Hugging Face safetensors total 30,532,122,624 of Qwen/Qwen3-30B-A3B; equals the Qwen3-MoE formula (q_norm/k_norm, all layers MoE) applied to config_json',
 '{"architectures":["Qwen3MoeForCausalLM"],"model_type":"qwen3_moe","hidden_size":2048,"intermediate_size":6144,"max_window_layers":48,"moe_intermediate_size":768,"num_attention_heads":32,"num_hidden_layers":48,"num_key_value_heads":4,"attention_bias":false,"attention_dropout":0.0,"decoder_sparse_step":1,"head_dim":128,"hidden_act":"silu","max_position_embeddings":40960,"mlp_only_layers":[],"norm_topk_prob":true,"num_experts":128,"num_experts_per_tok":8,"rms_norm_eps":1e-06,"rope_scaling":null,"rope_theta":1000000.0,"router_aux_loss_coef":0.001,"sliding_window":null,"tie_word_embeddings":false,"torch_dtype":"bfloat16","use_sliding_window":false,"vocab_size":151936}',
 'Qwen/Qwen3-30B-A3B config.json on the Hugging Face Hub',
 'Alibaba Cloud', 'published'),
-- 235,093,634,560 = safetensors total of Qwen/Qwen3-235B-A22B (94 MoE layers, 128 experts,
-- top-8).
('qwen3-235b-a22b', 'Qwen3-235B-A22B', 'Qwen/Qwen3-235B-A22B', 'qwen3_moe', 235093634560,
 'Hugging Face safetensors total 235,093,634,560 of Qwen/Qwen3-235B-A22B; equals the Qwen3-MoE formula applied to config_json',
 '{"architectures":["Qwen3MoeForCausalLM"],"model_type":"qwen3_moe","hidden_size":4096,"intermediate_size":12288,"max_window_layers":94,"moe_intermediate_size":1536,"num_attention_heads":64,"num_hidden_layers":94,"num_key_value_heads":4,"attention_bias":false,"attention_dropout":0.0,"decoder_sparse_step":1,"head_dim":128,"hidden_act":"silu","max_position_embeddings":40960,"mlp_only_layers":[],"norm_topk_prob":true,"num_experts":128,"num_experts_per_tok":8,"rms_norm_eps":1e-06,"rope_scaling":null,"rope_theta":1000000.0,"router_aux_loss_coef":0.001,"sliding_window":null,"tie_word_embeddings":false,"torch_dtype":"bfloat16","use_sliding_window":false,"vocab_size":151936}',
 'Qwen/Qwen3-235B-A22B config.json on the Hugging Face Hub',
 'Alibaba Cloud', 'published')
ON CONFLICT (id) DO NOTHING;

-- Google: Gemma (explicit head_dim, tied) and Gemma 2 (four RMSNorms per layer).
INSERT INTO models (id, name, hf_id, family, parameters, parameters_source, config_json, config_source,
                    publisher, parameters_basis) VALUES
-- 2,506,172,416: the exact count of config_json (docs/model-readers.md) (Gemma-2B row; explicit head_dim 256, tied embeddings).
('gemma-2b', 'Gemma 2B', 'google/gemma-2b', 'gemma', 2506172416,
 'the exact count of config_json (docs/model-readers.md) (Gemma-2B, matched against public safetensors totals); equals the Llama formula with head_dim 256 and tied embeddings applied to config_json',
 '{"architectures":["GemmaForCausalLM"],"model_type":"gemma","hidden_size":2048,"intermediate_size":16384,"num_attention_heads":8,"num_hidden_layers":18,"num_key_value_heads":1,"attention_bias":false,"attention_dropout":0.0,"head_dim":256,"hidden_act":"gelu","max_position_embeddings":8192,"rms_norm_eps":1e-06,"rope_scaling":null,"rope_theta":10000.0,"torch_dtype":"bfloat16","vocab_size":256000}',
 'google/gemma-2b config.json on the Hugging Face Hub',
 'Google', 'published'),
-- 8,537,680,896: the exact count of config_json (docs/model-readers.md) (Gemma-7B row; explicit head_dim 256, tied embeddings).
('gemma-7b', 'Gemma 7B', 'google/gemma-7b', 'gemma', 8537680896,
 'the exact count of config_json (docs/model-readers.md) (Gemma-7B, matched against public safetensors totals); equals the Llama formula with head_dim 256 and tied embeddings applied to config_json',
 '{"architectures":["GemmaForCausalLM"],"model_type":"gemma","hidden_size":3072,"intermediate_size":24576,"num_attention_heads":16,"num_hidden_layers":28,"num_key_value_heads":16,"attention_bias":false,"attention_dropout":0.0,"head_dim":256,"hidden_act":"gelu","max_position_embeddings":8192,"rms_norm_eps":1e-06,"rope_scaling":null,"rope_theta":10000.0,"torch_dtype":"bfloat16","vocab_size":256000}',
 'google/gemma-7b config.json on the Hugging Face Hub',
 'Google', 'published'),
-- 2,614,341,888: the exact count of config_json (docs/model-readers.md) (Gemma-2-2B), also the safetensors total of
-- google/gemma-2-2b-it.
('gemma-2-2b', 'Gemma 2 2B', 'google/gemma-2-2b', 'gemma2', 2614341888,
 'the exact count of config_json (docs/model-readers.md) (Gemma-2-2B), also the safetensors total of google/gemma-2-2b-it; equals the Gemma-2 formula (four RMSNorms per layer, tied) applied to config_json',
 '{"architectures":["Gemma2ForCausalLM"],"model_type":"gemma2","head_dim":256,"hidden_size":2304,"intermediate_size":9216,"num_attention_heads":8,"num_hidden_layers":26,"num_key_value_heads":4,"query_pre_attn_scalar":256,"attention_bias":false,"attention_dropout":0.0,"attn_logit_softcapping":50.0,"cache_implementation":"hybrid","final_logit_softcapping":30.0,"hidden_activation":"gelu_pytorch_tanh","max_position_embeddings":8192,"rms_norm_eps":1e-06,"rope_theta":10000.0,"sliding_window":4096,"vocab_size":256000}',
 'google/gemma-2-2b config.json on the Hugging Face Hub',
 'Google', 'published'),
-- 9,241,705,984: the exact count of config_json (docs/model-readers.md) (Gemma-2-9B), also the safetensors total of
-- google/gemma-2-9b-it.
('gemma-2-9b', 'Gemma 2 9B', 'google/gemma-2-9b', 'gemma2', 9241705984,
 'the exact count of config_json (docs/model-readers.md) (Gemma-2-9B), also the safetensors total of google/gemma-2-9b-it; equals the Gemma-2 formula (four RMSNorms per layer, tied) applied to config_json',
 '{"architectures":["Gemma2ForCausalLM"],"model_type":"gemma2","head_dim":256,"hidden_size":3584,"intermediate_size":14336,"num_attention_heads":16,"num_hidden_layers":42,"num_key_value_heads":8,"query_pre_attn_scalar":256,"attention_bias":false,"attention_dropout":0.0,"attn_logit_softcapping":50.0,"cache_implementation":"hybrid","final_logit_softcapping":30.0,"hidden_activation":"gelu_pytorch_tanh","max_position_embeddings":8192,"rms_norm_eps":1e-06,"rope_theta":10000.0,"sliding_window":4096,"vocab_size":256000}',
 'google/gemma-2-9b config.json on the Hugging Face Hub',
 'Google', 'published'),
-- 27,227,128,320: the Hugging Face safetensors total of google/gemma-2-27b-it (same
-- architecture as the base).
('gemma-2-27b', 'Gemma 2 27B', 'google/gemma-2-27b', 'gemma2', 27227128320,
 'the Hugging Face safetensors total of google/gemma-2-27b-it (same architecture as the base); equals the Gemma-2 formula (four RMSNorms per layer, tied) applied to config_json',
 '{"architectures":["Gemma2ForCausalLM"],"model_type":"gemma2","head_dim":128,"hidden_size":4608,"intermediate_size":36864,"num_attention_heads":32,"num_hidden_layers":46,"num_key_value_heads":16,"query_pre_attn_scalar":144,"attention_bias":false,"attention_dropout":0.0,"attn_logit_softcapping":50.0,"cache_implementation":"hybrid","final_logit_softcapping":30.0,"hidden_activation":"gelu_pytorch_tanh","max_position_embeddings":8192,"rms_norm_eps":1e-06,"rope_theta":10000.0,"sliding_window":4096,"vocab_size":256000}',
 'google/gemma-2-27b config.json on the Hugging Face Hub',
 'Google', 'published')
ON CONFLICT (id) DO NOTHING;

-- Microsoft: Phi-3 (fused qkv_proj and gate_up_proj, Llama shapes).
INSERT INTO models (id, name, hf_id, family, parameters, parameters_source, config_json, config_source,
                    publisher, parameters_basis) VALUES
-- 3,821,079,552: the exact count of config_json (docs/model-readers.md) (Phi-3-mini row) = safetensors total of
-- microsoft/Phi-3-mini-4k-instruct. Fused qkv_proj and gate_up_proj have the Llama shapes.
('phi-3-mini-4k', 'Phi-3-mini-4k-instruct', 'microsoft/Phi-3-mini-4k-instruct', 'phi3', 3821079552,
 'the exact count of config_json (docs/model-readers.md) (Phi-3-mini), also the Hugging Face safetensors total of microsoft/Phi-3-mini-4k-instruct; equals the Phi-3 (Llama) formula applied to config_json',
 '{"architectures":["Phi3ForCausalLM"],"model_type":"phi3","hidden_size":3072,"intermediate_size":8192,"num_attention_heads":32,"num_hidden_layers":32,"num_key_value_heads":32,"attention_dropout":0.0,"embd_pdrop":0.0,"hidden_act":"silu","max_position_embeddings":4096,"original_max_position_embeddings":4096,"resid_pdrop":0.0,"rms_norm_eps":1e-05,"rope_scaling":null,"rope_theta":10000.0,"sliding_window":2047,"tie_word_embeddings":false,"torch_dtype":"bfloat16","vocab_size":32064}',
 'microsoft/Phi-3-mini-4k-instruct config.json on the Hugging Face Hub (as vendored in mlc-ai/mlc-llm model_preset.py)',
 'Microsoft', 'published'),
-- 13,960,238,080: derived from the config (no exact published total found; the model card says
-- 14B). A third-party benchmark table records the same 13,960,238,080 for a copy of the model.
('phi-3-medium-4k', 'Phi-3-medium-4k-instruct', 'microsoft/Phi-3-medium-4k-instruct', 'phi3', 13960238080,
 'derived: exact count of the stored config with the Phi-3 (Llama) formula (the exact count of config_json (docs/model-readers.md)); no exact published total was found (the model card says 14B); a public benchmark table records 13,960,238,080 for unsloth/Phi-3-medium-4k-instruct, which agrees',
 '{"architectures":["Phi3ForCausalLM"],"model_type":"phi3","hidden_size":5120,"intermediate_size":17920,"num_attention_heads":40,"num_hidden_layers":40,"num_key_value_heads":10,"attention_dropout":0.0,"embd_pdrop":0.0,"hidden_act":"silu","max_position_embeddings":4096,"original_max_position_embeddings":4096,"resid_pdrop":0.0,"rms_norm_eps":1e-05,"rope_scaling":null,"rope_theta":10000.0,"sliding_window":2047,"tie_word_embeddings":false,"torch_dtype":"bfloat16","vocab_size":32064}',
 'microsoft/Phi-3-medium-4k-instruct config.json on the Hugging Face Hub',
 'Microsoft', 'derived')
ON CONFLICT (id) DO NOTHING;

-- TII: Falcon (tied head; checkpoints also store lm_head.weight).
INSERT INTO models (id, name, hf_id, family, parameters, parameters_source, config_json, config_source,
                    publisher, parameters_basis) VALUES
-- 6,921,720,704 = parameters() count, tied head once (the exact count of config_json (docs/model-readers.md), Falcon-7B). The Hub
-- lists 7,217,189,760 because the checkpoint also stores lm_head.weight (65024 x 4544).
('falcon-7b', 'Falcon 7B', 'tiiuae/falcon-7b', 'falcon', 6921720704,
 'the exact count of config_json (docs/model-readers.md) (Falcon-7B): the Hub total 7,217,189,760 minus the 65,024 x 4,544 = 295,469,056 lm_head.weight the checkpoint stores separately although it is tied; equals the Falcon formula applied to config_json',
 '{"architectures":["FalconForCausalLM"],"model_type":"falcon","hidden_size":4544,"multi_query":true,"new_decoder_architecture":false,"num_attention_heads":71,"num_hidden_layers":32,"parallel_attn":true,"alibi":false,"apply_residual_connection_post_layernorm":false,"attention_dropout":0.0,"bias":false,"hidden_dropout":0.0,"layer_norm_epsilon":1e-05,"torch_dtype":"bfloat16","vocab_size":65024}',
 'tiiuae/falcon-7b config.json on the Hugging Face Hub',
 'TII', 'published'),
-- 41,303,293,952 = parameters() count, tied head once. The safetensors total 41,835,970,560
-- also counts the separately stored lm_head.weight (65024 x 8192 = 532,676,608), as for
-- Falcon-7B (the exact count of config_json (docs/model-readers.md), where this total was still listed as derived).
('falcon-40b', 'Falcon 40B', 'tiiuae/falcon-40b', 'falcon', 41303293952,
 'Hugging Face safetensors total 41,835,970,560 of tiiuae/falcon-40b (as recorded by a public model catalog, source: safetensors) minus the 65,024 x 8,192 = 532,676,608 lm_head.weight the checkpoint stores separately although it is tied; equals the Falcon formula (new decoder architecture, 8 KV heads) applied to config_json',
 '{"architectures":["FalconForCausalLM"],"model_type":"falcon","hidden_size":8192,"multi_query":true,"new_decoder_architecture":true,"num_attention_heads":128,"num_hidden_layers":60,"num_kv_heads":8,"parallel_attn":true,"alibi":false,"apply_residual_connection_post_layernorm":false,"attention_dropout":0.0,"bias":false,"hidden_dropout":0.0,"layer_norm_epsilon":1e-05,"torch_dtype":"bfloat16","vocab_size":65024}',
 'tiiuae/falcon-40b config.json on the Hugging Face Hub',
 'TII', 'published')
ON CONFLICT (id) DO NOTHING;

-- Meta: OPT (learned positions with 2 extra rows, tied head).
INSERT INTO models (id, name, hf_id, family, parameters, parameters_source, config_json, config_source,
                    publisher, parameters_basis) VALUES
-- 125,239,296 = parameters() count of facebook/opt-125m as printed in public pruning
-- documentation (positions have 2048 + 2 rows; head tied).
('opt-125m', 'OPT 125M', 'facebook/opt-125m', 'opt', 125239296,
 'sum(p.numel()) of the Hugging Face OPTForCausalLM facebook/opt-125m, 125,239,296, as printed in public model-pruning documentation (and listed for its peft-internal-testing/opt-125m copy); equals the OPT formula applied to config_json',
 '{"architectures":["OPTForCausalLM"],"model_type":"opt","activation_dropout":0.0,"activation_function":"relu","attention_dropout":0.0,"do_layer_norm_before":true,"dropout":0.1,"enable_bias":true,"layerdrop":0.0,"max_position_embeddings":2048,"torch_dtype":"float16","vocab_size":50272,"ffn_dim":3072,"hidden_size":768,"num_attention_heads":12,"num_hidden_layers":12,"word_embed_proj_dim":768}',
 'facebook/opt-125m config.json on the Hugging Face Hub',
 'Meta', 'published'),
-- 331,196,416: the exact count of config_json (docs/model-readers.md) (OPT-350m; word_embed_proj_dim 512 adds project_in/out,
-- post-LayerNorm, so no final LayerNorm).
('opt-350m', 'OPT 350M', 'facebook/opt-350m', 'opt', 331196416,
 'the exact count of config_json (docs/model-readers.md) (OPT-350m: project_in/project_out, no final LayerNorm); equals the OPT formula applied to config_json',
 '{"architectures":["OPTForCausalLM"],"model_type":"opt","activation_dropout":0.0,"activation_function":"relu","attention_dropout":0.0,"do_layer_norm_before":false,"dropout":0.1,"enable_bias":true,"layerdrop":0.0,"max_position_embeddings":2048,"torch_dtype":"float16","vocab_size":50272,"ffn_dim":4096,"hidden_size":1024,"num_attention_heads":16,"num_hidden_layers":24,"word_embed_proj_dim":512}',
 'facebook/opt-350m config.json on the Hugging Face Hub (as copied in EasyDeL''s OPT presets)',
 'Meta', 'published'),
-- 1,315,758,080: the exact count of config_json (docs/model-readers.md) (OPT-1.3B row).
('opt-1.3b', 'OPT 1.3B', 'facebook/opt-1.3b', 'opt', 1315758080,
 'the exact count of config_json (docs/model-readers.md) (OPT-1.3B); equals the OPT formula applied to config_json',
 '{"architectures":["OPTForCausalLM"],"model_type":"opt","activation_dropout":0.0,"activation_function":"relu","attention_dropout":0.0,"do_layer_norm_before":true,"dropout":0.1,"enable_bias":true,"layerdrop":0.0,"max_position_embeddings":2048,"torch_dtype":"float16","vocab_size":50272,"ffn_dim":8192,"hidden_size":2048,"num_attention_heads":32,"num_hidden_layers":24,"word_embed_proj_dim":2048}',
 'facebook/opt-1.3b config.json on the Hugging Face Hub (as copied in EasyDeL''s OPT presets)',
 'Meta', 'published'),
-- 6,658,473,984: derived from the config (the exact count of config_json (docs/model-readers.md) gives the same, marked derived);
-- no exact published total found (the OPT paper says 6.7B).
('opt-6.7b', 'OPT 6.7B', 'facebook/opt-6.7b', 'opt', 6658473984,
 'derived: exact count of the stored config with the OPT formula (the exact count of config_json (docs/model-readers.md), where OPT-6.7B is also derived); no exact published total was found (the OPT paper says 6.7B)',
 '{"architectures":["OPTForCausalLM"],"model_type":"opt","activation_dropout":0.0,"activation_function":"relu","attention_dropout":0.0,"do_layer_norm_before":true,"dropout":0.1,"enable_bias":true,"layerdrop":0.0,"max_position_embeddings":2048,"torch_dtype":"float16","vocab_size":50272,"ffn_dim":16384,"hidden_size":4096,"num_attention_heads":32,"num_hidden_layers":32,"word_embed_proj_dim":4096,"_remove_final_layer_norm":false}',
 'facebook/opt-6.7b config.json on the Hugging Face Hub (as copied in EasyDeL''s OPT presets)',
 'Meta', 'derived'),
-- 12,853,473,280: derived from the config; no exact published total found (the OPT paper says
-- 13B).
('opt-13b', 'OPT 13B', 'facebook/opt-13b', 'opt', 12853473280,
 'derived: exact count of the stored config with the OPT formula (the exact count of config_json (docs/model-readers.md)); no exact published total was found (the OPT paper says 13B)',
 '{"architectures":["OPTForCausalLM"],"model_type":"opt","activation_dropout":0.0,"activation_function":"relu","attention_dropout":0.0,"do_layer_norm_before":true,"dropout":0.1,"enable_bias":true,"layerdrop":0.0,"max_position_embeddings":2048,"torch_dtype":"float16","vocab_size":50272,"ffn_dim":20480,"hidden_size":5120,"num_attention_heads":40,"num_hidden_layers":40,"word_embed_proj_dim":5120,"_remove_final_layer_norm":false}',
 'facebook/opt-13b config.json on the Hugging Face Hub (as copied in EasyDeL''s OPT presets)',
 'Meta', 'derived'),
-- 65,719,701,504: derived from the config; no exact published total found (the OPT paper says
-- 66B).
('opt-66b', 'OPT 66B', 'facebook/opt-66b', 'opt', 65719701504,
 'derived: exact count of the stored config with the OPT formula (the exact count of config_json (docs/model-readers.md)); no exact published total was found (the OPT paper says 66B)',
 '{"architectures":["OPTForCausalLM"],"model_type":"opt","activation_dropout":0.0,"activation_function":"relu","attention_dropout":0.0,"do_layer_norm_before":true,"dropout":0.1,"enable_bias":true,"layerdrop":0.0,"max_position_embeddings":2048,"torch_dtype":"float16","vocab_size":50272,"ffn_dim":36864,"hidden_size":9216,"num_attention_heads":72,"num_hidden_layers":64,"word_embed_proj_dim":9216,"_remove_final_layer_norm":false}',
 'facebook/opt-66b config.json on the Hugging Face Hub (as copied in EasyDeL''s OPT presets)',
 'Meta', 'derived')
ON CONFLICT (id) DO NOTHING;

-- BigScience: BLOOM (ALiBi, tied head).
INSERT INTO models (id, name, hf_id, family, parameters, parameters_source, config_json, config_source,
                    publisher, parameters_basis) VALUES
-- 559,214,592: the exact count of config_json (docs/model-readers.md) (BLOOM row; ALiBi, so no position table; tied head).
('bloom-560m', 'BLOOM 560M', 'bigscience/bloom-560m', 'bloom', 559214592,
 'the exact count of config_json (docs/model-readers.md) (BLOOM-560M); equals the BLOOM formula applied to config_json',
 '{"architectures":["BloomForCausalLM"],"model_type":"bloom","n_embed":1024,"n_layer":24,"num_attention_heads":16,"apply_residual_connection_post_layernorm":false,"attention_dropout":0.0,"hidden_dropout":0.0,"layer_norm_epsilon":1e-05,"vocab_size":250880}',
 'bigscience/bloom-560m config.json on the Hugging Face Hub',
 'BigScience', 'published'),
-- 7,069,016,064: the exact count of config_json (docs/model-readers.md) (BLOOM row; ALiBi, so no position table; tied head).
('bloom-7b1', 'BLOOM 7B1', 'bigscience/bloom-7b1', 'bloom', 7069016064,
 'the exact count of config_json (docs/model-readers.md) (BLOOM-7B1); equals the BLOOM formula applied to config_json',
 '{"architectures":["BloomForCausalLM"],"model_type":"bloom","n_embed":4096,"n_layer":30,"num_attention_heads":32,"apply_residual_connection_post_layernorm":false,"attention_dropout":0.0,"hidden_dropout":0.0,"layer_norm_epsilon":1e-05,"vocab_size":250880}',
 'bigscience/bloom-7b1 config.json on the Hugging Face Hub',
 'BigScience', 'published'),
-- 176,247,271,424: the exact count of config_json (docs/model-readers.md) (BLOOM row; ALiBi, so no position table; tied head).
('bloom-176b', 'BLOOM 176B', 'bigscience/bloom', 'bloom', 176247271424,
 'the exact count of config_json (docs/model-readers.md) (BLOOM-176B); the BLOOM paper''s hyperparameter table gives 176,247M; equals the BLOOM formula applied to config_json',
 '{"architectures":["BloomForCausalLM"],"model_type":"bloom","hidden_size":14336,"n_head":112,"n_layer":70,"apply_residual_connection_post_layernorm":false,"attention_dropout":0.0,"hidden_dropout":0.0,"layer_norm_epsilon":1e-05,"vocab_size":250880}',
 'bigscience/bloom config.json on the Hugging Face Hub',
 'BigScience', 'published')
ON CONFLICT (id) DO NOTHING;

-- OpenAI: GPT-2 (Conv1D with biases, learned positions, tied head).
INSERT INTO models (id, name, hf_id, family, parameters, parameters_source, config_json, config_source,
                    publisher, parameters_basis) VALUES
-- 124,439,808 = keras-hub preset gpt2_base_en params and the exact count of config_json (docs/model-readers.md).
('gpt2', 'GPT-2 (124M)', 'openai-community/gpt2', 'gpt2', 124439808,
 'keras-hub GPT-2 preset gpt2_base_en metadata params 124,439,808 and the exact count of config_json (docs/model-readers.md); equals the GPT-2 formula applied to config_json',
 '{"architectures":["GPT2LMHeadModel"],"model_type":"gpt2","n_embd":768,"n_head":12,"n_layer":12,"activation_function":"gelu_new","attn_pdrop":0.1,"embd_pdrop":0.1,"layer_norm_epsilon":1e-05,"n_ctx":1024,"n_positions":1024,"resid_pdrop":0.1,"vocab_size":50257}',
 'openai-community/gpt2 config.json on the Hugging Face Hub (as vendored in mlc-ai/mlc-llm model_preset.py)',
 'OpenAI', 'published'),
-- 354,823,168 = keras-hub preset gpt2_medium_en params.
('gpt2-medium', 'GPT-2 Medium', 'openai-community/gpt2-medium', 'gpt2', 354823168,
 'keras-hub GPT-2 preset gpt2_medium_en metadata params 354,823,168; equals the GPT-2 formula applied to config_json',
 '{"architectures":["GPT2LMHeadModel"],"model_type":"gpt2","n_embd":1024,"n_head":16,"n_layer":24,"activation_function":"gelu_new","attn_pdrop":0.1,"embd_pdrop":0.1,"layer_norm_epsilon":1e-05,"n_ctx":1024,"n_positions":1024,"resid_pdrop":0.1,"vocab_size":50257}',
 'openai-community/gpt2-medium config.json on the Hugging Face Hub (as vendored in mlc-ai/mlc-llm model_preset.py)',
 'OpenAI', 'published'),
-- 774,030,080 = keras-hub preset gpt2_large_en params.
('gpt2-large', 'GPT-2 Large', 'openai-community/gpt2-large', 'gpt2', 774030080,
 'keras-hub GPT-2 preset gpt2_large_en metadata params 774,030,080; equals the GPT-2 formula applied to config_json',
 '{"architectures":["GPT2LMHeadModel"],"model_type":"gpt2","n_embd":1280,"n_head":20,"n_layer":36,"activation_function":"gelu_new","attn_pdrop":0.1,"embd_pdrop":0.1,"layer_norm_epsilon":1e-05,"n_ctx":1024,"n_positions":1024,"resid_pdrop":0.1,"vocab_size":50257}',
 'openai-community/gpt2-large config.json on the Hugging Face Hub',
 'OpenAI', 'published'),
-- 1,557,611,200 = keras-hub preset gpt2_extra_large_en params and the exact count of config_json (docs/model-readers.md).
('gpt2-xl', 'GPT-2 XL', 'openai-community/gpt2-xl', 'gpt2', 1557611200,
 'keras-hub GPT-2 preset gpt2_extra_large_en metadata params 1,557,611,200 and the exact count of config_json (docs/model-readers.md); equals the GPT-2 formula applied to config_json',
 '{"architectures":["GPT2LMHeadModel"],"model_type":"gpt2","n_embd":1600,"n_head":25,"n_layer":48,"activation_function":"gelu_new","attn_pdrop":0.1,"embd_pdrop":0.1,"layer_norm_epsilon":1e-05,"n_ctx":1024,"n_positions":1024,"resid_pdrop":0.1,"vocab_size":50257}',
 'openai-community/gpt2-xl config.json on the Hugging Face Hub',
 'OpenAI', 'published')
ON CONFLICT (id) DO NOTHING;

-- EleutherAI: Pythia and GPT-NeoX (rotary, untied embed_out).
INSERT INTO models (id, name, hf_id, family, parameters, parameters_source, config_json, config_source,
                    publisher, parameters_basis) VALUES
-- 70,426,624 = Pythia README model table (non-embedding 18,915,328; embedding and untied
-- embed_out are 2 x 50304 x 512).
('pythia-70m', 'Pythia 70M', 'EleutherAI/pythia-70m', 'gpt_neox', 70426624,
 'Pythia README model table: 70,426,624 parameters (18,915,328 non-embedding); equals the GPT-NeoX formula (untied embed_out) applied to config_json',
 '{"architectures":["GPTNeoXForCausalLM"],"model_type":"gpt_neox","hidden_size":512,"intermediate_size":2048,"num_attention_heads":8,"num_hidden_layers":6,"vocab_size":50304,"hidden_act":"gelu","layer_norm_eps":1e-05,"max_position_embeddings":2048,"rotary_emb_base":10000,"rotary_pct":0.25,"tie_word_embeddings":false,"use_parallel_residual":true}',
 'EleutherAI/pythia-70m config.json on the Hugging Face Hub',
 'EleutherAI', 'published'),
-- 162,322,944 = Pythia README model table (non-embedding 85,056,000; embedding and untied
-- embed_out are 2 x 50304 x 768).
('pythia-160m', 'Pythia 160M', 'EleutherAI/pythia-160m', 'gpt_neox', 162322944,
 'Pythia README model table: 162,322,944 parameters (85,056,000 non-embedding); equals the GPT-NeoX formula (untied embed_out) applied to config_json',
 '{"architectures":["GPTNeoXForCausalLM"],"model_type":"gpt_neox","hidden_size":768,"intermediate_size":3072,"num_attention_heads":12,"num_hidden_layers":12,"vocab_size":50304,"hidden_act":"gelu","layer_norm_eps":1e-05,"max_position_embeddings":2048,"rotary_emb_base":10000,"rotary_pct":0.25,"tie_word_embeddings":false,"use_parallel_residual":true}',
 'EleutherAI/pythia-160m config.json on the Hugging Face Hub',
 'EleutherAI', 'published'),
-- 405,334,016 = Pythia README model table (non-embedding 302,311,424; embedding and untied
-- embed_out are 2 x 50304 x 1024).
('pythia-410m', 'Pythia 410M', 'EleutherAI/pythia-410m', 'gpt_neox', 405334016,
 'Pythia README model table: 405,334,016 parameters (302,311,424 non-embedding); equals the GPT-NeoX formula (untied embed_out) applied to config_json',
 '{"architectures":["GPTNeoXForCausalLM"],"model_type":"gpt_neox","hidden_size":1024,"intermediate_size":4096,"num_attention_heads":16,"num_hidden_layers":24,"vocab_size":50304,"hidden_act":"gelu","layer_norm_eps":1e-05,"max_position_embeddings":2048,"rotary_emb_base":10000,"rotary_pct":0.25,"tie_word_embeddings":false,"use_parallel_residual":true}',
 'EleutherAI/pythia-410m config.json on the Hugging Face Hub',
 'EleutherAI', 'published'),
-- 1,011,781,632 = Pythia README model table (non-embedding 805,736,448; embedding and untied
-- embed_out are 2 x 50304 x 2048).
('pythia-1b', 'Pythia 1B', 'EleutherAI/pythia-1b', 'gpt_neox', 1011781632,
 'Pythia README model table: 1,011,781,632 parameters (805,736,448 non-embedding); equals the GPT-NeoX formula (untied embed_out) applied to config_json',
 '{"architectures":["GPTNeoXForCausalLM"],"model_type":"gpt_neox","hidden_size":2048,"intermediate_size":8192,"num_attention_heads":8,"num_hidden_layers":16,"vocab_size":50304,"hidden_act":"gelu","layer_norm_eps":1e-05,"max_position_embeddings":2048,"rotary_emb_base":10000,"rotary_pct":0.25,"tie_word_embeddings":false,"use_parallel_residual":true}',
 'EleutherAI/pythia-1b config.json on the Hugging Face Hub',
 'EleutherAI', 'published'),
-- 1,414,647,808 = Pythia README model table (non-embedding 1,208,602,624; embedding and untied
-- embed_out are 2 x 50304 x 2048).
('pythia-1.4b', 'Pythia 1.4B', 'EleutherAI/pythia-1.4b', 'gpt_neox', 1414647808,
 'Pythia README model table: 1,414,647,808 parameters (1,208,602,624 non-embedding); equals the GPT-NeoX formula (untied embed_out) applied to config_json',
 '{"architectures":["GPTNeoXForCausalLM"],"model_type":"gpt_neox","hidden_size":2048,"intermediate_size":8192,"num_attention_heads":16,"num_hidden_layers":24,"vocab_size":50304,"hidden_act":"gelu","layer_norm_eps":1e-05,"max_position_embeddings":2048,"rotary_emb_base":10000,"rotary_pct":0.25,"tie_word_embeddings":false,"use_parallel_residual":true}',
 'EleutherAI/pythia-1.4b config.json on the Hugging Face Hub',
 'EleutherAI', 'published'),
-- 2,775,208,960 = Pythia README model table (non-embedding 2,517,652,480; embedding and untied
-- embed_out are 2 x 50304 x 2560).
('pythia-2.8b', 'Pythia 2.8B', 'EleutherAI/pythia-2.8b', 'gpt_neox', 2775208960,
 'Pythia README model table: 2,775,208,960 parameters (2,517,652,480 non-embedding); equals the GPT-NeoX formula (untied embed_out) applied to config_json',
 '{"architectures":["GPTNeoXForCausalLM"],"model_type":"gpt_neox","hidden_size":2560,"intermediate_size":10240,"num_attention_heads":32,"num_hidden_layers":32,"vocab_size":50304,"hidden_act":"gelu","layer_norm_eps":1e-05,"max_position_embeddings":2048,"rotary_emb_base":10000,"rotary_pct":0.25,"tie_word_embeddings":false,"use_parallel_residual":true}',
 'EleutherAI/pythia-2.8b config.json on the Hugging Face Hub',
 'EleutherAI', 'published'),
-- 6,857,302,016 = Pythia README model table (non-embedding 6,444,163,072; embedding and untied
-- embed_out are 2 x 50432 x 4096).
('pythia-6.9b', 'Pythia 6.9B', 'EleutherAI/pythia-6.9b', 'gpt_neox', 6857302016,
 'Pythia README model table: 6,857,302,016 parameters (6,444,163,072 non-embedding); equals the GPT-NeoX formula (untied embed_out) applied to config_json',
 '{"architectures":["GPTNeoXForCausalLM"],"model_type":"gpt_neox","hidden_size":4096,"intermediate_size":16384,"num_attention_heads":32,"num_hidden_layers":32,"vocab_size":50432,"hidden_act":"gelu","layer_norm_eps":1e-05,"max_position_embeddings":2048,"rotary_emb_base":10000,"rotary_pct":0.25,"tie_word_embeddings":false,"use_parallel_residual":true}',
 'EleutherAI/pythia-6.9b config.json on the Hugging Face Hub',
 'EleutherAI', 'published'),
-- 11,846,072,320 = Pythia README model table (non-embedding 11,327,027,200; embedding and
-- untied embed_out are 2 x 50688 x 5120).
('pythia-12b', 'Pythia 12B', 'EleutherAI/pythia-12b', 'gpt_neox', 11846072320,
 'Pythia README model table: 11,846,072,320 parameters (11,327,027,200 non-embedding); equals the GPT-NeoX formula (untied embed_out) applied to config_json',
 '{"architectures":["GPTNeoXForCausalLM"],"model_type":"gpt_neox","hidden_size":5120,"intermediate_size":20480,"num_attention_heads":40,"num_hidden_layers":36,"vocab_size":50688,"hidden_act":"gelu","layer_norm_eps":1e-05,"max_position_embeddings":2048,"rotary_emb_base":10000,"rotary_pct":0.25,"tie_word_embeddings":false,"use_parallel_residual":true}',
 'EleutherAI/pythia-12b config.json on the Hugging Face Hub',
 'EleutherAI', 'published'),
-- 20,554,567,680 = number of parameters in the EleutherAI/gpt-neox-20b model card.
('gpt-neox-20b', 'GPT-NeoX-20B', 'EleutherAI/gpt-neox-20b', 'gpt_neox', 20554567680,
 'EleutherAI/gpt-neox-20b model card: number of parameters 20,554,567,680; equals the GPT-NeoX formula applied to config_json',
 '{"architectures":["GPTNeoXForCausalLM"],"model_type":"gpt_neox","attention_probs_dropout_prob":0,"hidden_act":"gelu_fast","hidden_dropout_prob":0,"hidden_size":6144,"intermediate_size":24576,"layer_norm_eps":1e-05,"max_position_embeddings":2048,"num_attention_heads":64,"num_hidden_layers":44,"rotary_emb_base":10000,"rotary_pct":0.25,"tie_word_embeddings":false,"torch_dtype":"float16","use_parallel_residual":true,"vocab_size":50432}',
 'EleutherAI/gpt-neox-20b config.json on the Hugging Face Hub',
 'EleutherAI', 'published')
ON CONFLICT (id) DO NOTHING;

-- DeepSeek: MLA attention and DeepSeek-MoE.
INSERT INTO models (id, name, hf_id, family, parameters, parameters_source, config_json, config_source,
                    publisher, parameters_basis) VALUES
-- 235,741,434,880: the exact count of config_json (docs/model-readers.md) DeepSeek table (paper: 236B total, 21B activated).
('deepseek-v2', 'DeepSeek-V2', 'deepseek-ai/DeepSeek-V2', 'deepseek_v2', 235741434880,
 'the exact count of config_json (docs/model-readers.md) DeepSeek table (DeepSeek-V2, 236B total / 21B activated in the paper); equals the MLA + DeepSeek-MoE formula applied to config_json',
 '{"architectures":["DeepseekV2ForCausalLM"],"model_type":"deepseek_v2","hidden_size":5120,"intermediate_size":12288,"moe_intermediate_size":1536,"n_routed_experts":160,"num_attention_heads":128,"num_hidden_layers":60,"num_key_value_heads":128,"q_lora_rank":1536,"routed_scaling_factor":16.0,"topk_method":"group_limited_greedy","n_group":8,"topk_group":3,"attention_bias":false,"attention_dropout":0.0,"first_k_dense_replace":1,"hidden_act":"silu","kv_lora_rank":512,"max_position_embeddings":163840,"moe_layer_freq":1,"n_shared_experts":2,"num_experts_per_tok":6,"qk_nope_head_dim":128,"qk_rope_head_dim":64,"rms_norm_eps":1e-06,"rope_scaling":{"beta_fast":32,"beta_slow":1,"factor":40,"mscale":0.707,"mscale_all_dim":0.707,"original_max_position_embeddings":4096,"type":"yarn"},"rope_theta":10000,"scoring_func":"softmax","tie_word_embeddings":false,"torch_dtype":"bfloat16","v_head_dim":128,"vocab_size":102400}',
 'deepseek-ai/DeepSeek-V2 config.json on the Hugging Face Hub',
 'DeepSeek', 'published'),
-- 15,706,484,224: the exact count of config_json (docs/model-readers.md) DeepSeek table (15.7B total, 2.4B activated; q_lora_rank
-- null).
('deepseek-v2-lite', 'DeepSeek-V2-Lite', 'deepseek-ai/DeepSeek-V2-Lite', 'deepseek_v2', 15706484224,
 'the exact count of config_json (docs/model-readers.md) DeepSeek table (DeepSeek-V2-Lite, 15.7B total / 2.4B activated in the model card); equals the MLA + DeepSeek-MoE formula (no q LoRA) applied to config_json',
 '{"architectures":["DeepseekV2ForCausalLM"],"model_type":"deepseek_v2","hidden_size":2048,"intermediate_size":10944,"moe_intermediate_size":1408,"n_routed_experts":64,"num_attention_heads":16,"num_hidden_layers":27,"num_key_value_heads":16,"q_lora_rank":null,"routed_scaling_factor":1.0,"topk_method":"greedy","n_group":1,"topk_group":1,"attention_bias":false,"attention_dropout":0.0,"first_k_dense_replace":1,"hidden_act":"silu","kv_lora_rank":512,"max_position_embeddings":163840,"moe_layer_freq":1,"n_shared_experts":2,"num_experts_per_tok":6,"qk_nope_head_dim":128,"qk_rope_head_dim":64,"rms_norm_eps":1e-06,"rope_scaling":{"beta_fast":32,"beta_slow":1,"factor":40,"mscale":0.707,"mscale_all_dim":0.707,"original_max_position_embeddings":4096,"type":"yarn"},"rope_theta":10000,"scoring_func":"softmax","tie_word_embeddings":false,"torch_dtype":"bfloat16","v_head_dim":128,"vocab_size":102400}',
 'deepseek-ai/DeepSeek-V2-Lite config.json on the Hugging Face Hub (as vendored in mlc-ai/mlc-llm model_preset.py)',
 'DeepSeek', 'published'),
-- 671,026,404,352 = parameters() count (the exact count of config_json (docs/model-readers.md) DeepSeek table). The checkpoint
-- stores 58 x 256 = 14,848 more (e_score_correction_bias, a buffer): 671,026,419,200. The
-- Hub's 684,531,386,000 also includes the MTP layer 61 (ignored by transformers) and FP8
-- scales.
('deepseek-v3', 'DeepSeek-V3', 'deepseek-ai/DeepSeek-V3', 'deepseek_v3', 671026404352,
 'the exact count of config_json (docs/model-readers.md) DeepSeek table: HF parameters() count of DeepSeek-V3 (671B total / 37B activated in the paper); checkpoint audits report 671,026,419,200 because the checkpoint also stores the 58 x 256 e_score_correction_bias buffer values, and the Hub total 684,531,386,000 further includes the MTP layer and FP8 scale tensors; equals the MLA + DeepSeek-MoE formula applied to config_json',
 '{"architectures":["DeepseekV3ForCausalLM"],"model_type":"deepseek_v3","attention_bias":false,"attention_dropout":0.0,"first_k_dense_replace":3,"hidden_act":"silu","hidden_size":7168,"intermediate_size":18432,"kv_lora_rank":512,"max_position_embeddings":163840,"moe_intermediate_size":2048,"moe_layer_freq":1,"n_group":8,"n_routed_experts":256,"n_shared_experts":1,"norm_topk_prob":true,"num_attention_heads":128,"num_experts_per_tok":8,"num_hidden_layers":61,"num_key_value_heads":128,"num_nextn_predict_layers":1,"q_lora_rank":1536,"qk_nope_head_dim":128,"qk_rope_head_dim":64,"rms_norm_eps":1e-06,"rope_scaling":{"beta_fast":32,"beta_slow":1,"factor":40,"mscale":1.0,"mscale_all_dim":1.0,"original_max_position_embeddings":4096,"type":"yarn"},"rope_theta":10000,"routed_scaling_factor":2.5,"scoring_func":"sigmoid","tie_word_embeddings":false,"topk_group":4,"topk_method":"noaux_tc","torch_dtype":"bfloat16","v_head_dim":128,"vocab_size":129280}',
 'deepseek-ai/DeepSeek-V3 config.json on the Hugging Face Hub (quantization_config dropped)',
 'DeepSeek', 'published')
ON CONFLICT (id) DO NOTHING;

-- Google: T5 (ReLU, tied) and Flan-T5 (T5 v1.1: gated-GELU, untied), encoder-decoder.
INSERT INTO models (id, name, hf_id, family, parameters, parameters_source, config_json, config_source,
                    publisher, parameters_basis) VALUES
-- 60,506,624 = KerasNLP preset t5_small params (encoder + decoder, shared tied embedding).
('t5-small', 'T5 Small', 'google-t5/t5-small', 't5', 60506624,
 'KerasNLP T5 preset t5_small metadata params 60,506,624; equals the T5 formula (shared embedding, tied head, ReLU feed-forward) applied to config_json',
 '{"model_type":"t5","d_ff":2048,"d_model":512,"num_heads":8,"num_layers":6,"d_kv":64,"dropout_rate":0.1,"layer_norm_epsilon":1e-06,"n_positions":512,"relative_attention_num_buckets":32,"vocab_size":32128}',
 'google-t5/t5-small config.json on the Hugging Face Hub (the legacy t5-small repository)',
 'Google', 'published'),
-- 222,903,552 = KerasNLP preset t5_base params (encoder + decoder, shared tied embedding).
('t5-base', 'T5 Base', 'google-t5/t5-base', 't5', 222903552,
 'KerasNLP T5 preset t5_base metadata params 222,903,552; equals the T5 formula (shared embedding, tied head, ReLU feed-forward) applied to config_json',
 '{"model_type":"t5","d_ff":3072,"d_model":768,"num_heads":12,"num_layers":12,"d_kv":64,"dropout_rate":0.1,"layer_norm_epsilon":1e-06,"n_positions":512,"relative_attention_num_buckets":32,"vocab_size":32128}',
 'google-t5/t5-base config.json on the Hugging Face Hub (the legacy t5-base repository)',
 'Google', 'published'),
-- 737,668,096 = KerasNLP preset t5_large params (encoder + decoder, shared tied embedding).
('t5-large', 'T5 Large', 'google-t5/t5-large', 't5', 737668096,
 'KerasNLP T5 preset t5_large metadata params 737,668,096; equals the T5 formula (shared embedding, tied head, ReLU feed-forward) applied to config_json',
 '{"model_type":"t5","d_ff":4096,"d_model":1024,"num_heads":16,"num_layers":24,"d_kv":64,"dropout_rate":0.1,"layer_norm_epsilon":1e-06,"n_positions":512,"relative_attention_num_buckets":32,"vocab_size":32128}',
 'google-t5/t5-large config.json on the Hugging Face Hub (the legacy t5-large repository)',
 'Google', 'published'),
-- 2,851,598,336 = KerasNLP preset t5_3b params (encoder + decoder, shared tied embedding).
('t5-3b', 'T5 3B', 'google-t5/t5-3b', 't5', 2851598336,
 'KerasNLP T5 preset t5_3b metadata params 2,851,598,336; equals the T5 formula (shared embedding, tied head, ReLU feed-forward) applied to config_json',
 '{"model_type":"t5","d_ff":16384,"d_model":1024,"num_heads":32,"num_layers":24,"d_kv":128,"dropout_rate":0.1,"layer_norm_epsilon":1e-06,"n_positions":512,"relative_attention_num_buckets":32,"vocab_size":32128}',
 'google-t5/t5-3b config.json on the Hugging Face Hub (the legacy t5-3b repository)',
 'Google', 'published'),
-- 76,961,152 = model.num_parameters() of google/flan-t5-small (public Flan-T5 size table; T5
-- v1.1 layout: gated-GELU feed-forward and an untied lm_head).
('flan-t5-small', 'Flan-T5 Small', 'google/flan-t5-small', 't5', 76961152,
 'model.num_parameters() of google/flan-t5-small, 76,961,152, as listed in a public Flan-T5 fine-tuning table (small 76,961,152 / base 247,577,856 / large 783,150,080 / xl 2,849,757,184 / xxl 11,135,332,352); equals the T5 formula (gated-GELU feed-forward, untied head) applied to config_json',
 '{"architectures":["T5ForConditionalGeneration"],"model_type":"t5","d_ff":1024,"d_model":512,"num_decoder_layers":8,"num_heads":6,"num_layers":8,"d_kv":64,"dense_act_fn":"gelu_new","dropout_rate":0.1,"feed_forward_proj":"gated-gelu","is_gated_act":true,"layer_norm_epsilon":1e-06,"n_positions":512,"relative_attention_max_distance":128,"relative_attention_num_buckets":32,"tie_word_embeddings":false,"torch_dtype":"float32","vocab_size":32128}',
 'google/flan-t5-small config.json on the Hugging Face Hub',
 'Google', 'published'),
-- 247,577,856 = model.num_parameters() of google/flan-t5-base (public Flan-T5 size table; T5
-- v1.1 layout: gated-GELU feed-forward and an untied lm_head).
('flan-t5-base', 'Flan-T5 Base', 'google/flan-t5-base', 't5', 247577856,
 'model.num_parameters() of google/flan-t5-base, 247,577,856, as listed in a public Flan-T5 fine-tuning table (small 76,961,152 / base 247,577,856 / large 783,150,080 / xl 2,849,757,184 / xxl 11,135,332,352); equals the T5 formula (gated-GELU feed-forward, untied head) applied to config_json',
 '{"architectures":["T5ForConditionalGeneration"],"model_type":"t5","d_ff":2048,"d_model":768,"num_decoder_layers":12,"num_heads":12,"num_layers":12,"d_kv":64,"dense_act_fn":"gelu_new","dropout_rate":0.1,"feed_forward_proj":"gated-gelu","is_gated_act":true,"layer_norm_epsilon":1e-06,"n_positions":512,"relative_attention_max_distance":128,"relative_attention_num_buckets":32,"tie_word_embeddings":false,"torch_dtype":"float32","vocab_size":32128}',
 'google/flan-t5-base config.json on the Hugging Face Hub',
 'Google', 'published'),
-- 783,150,080 = model.num_parameters() of google/flan-t5-large (public Flan-T5 size table; T5
-- v1.1 layout: gated-GELU feed-forward and an untied lm_head).
('flan-t5-large', 'Flan-T5 Large', 'google/flan-t5-large', 't5', 783150080,
 'model.num_parameters() of google/flan-t5-large, 783,150,080, as listed in a public Flan-T5 fine-tuning table (small 76,961,152 / base 247,577,856 / large 783,150,080 / xl 2,849,757,184 / xxl 11,135,332,352); equals the T5 formula (gated-GELU feed-forward, untied head) applied to config_json',
 '{"architectures":["T5ForConditionalGeneration"],"model_type":"t5","d_ff":2816,"d_model":1024,"num_decoder_layers":24,"num_heads":16,"num_layers":24,"d_kv":64,"dense_act_fn":"gelu_new","dropout_rate":0.1,"feed_forward_proj":"gated-gelu","is_gated_act":true,"layer_norm_epsilon":1e-06,"n_positions":512,"relative_attention_max_distance":128,"relative_attention_num_buckets":32,"tie_word_embeddings":false,"torch_dtype":"float32","vocab_size":32128}',
 'google/flan-t5-large config.json on the Hugging Face Hub',
 'Google', 'published'),
-- 2,849,757,184 = model.num_parameters() of google/flan-t5-xl (public Flan-T5 size table; T5
-- v1.1 layout: gated-GELU feed-forward and an untied lm_head).
('flan-t5-xl', 'Flan-T5 XL', 'google/flan-t5-xl', 't5', 2849757184,
 'model.num_parameters() of google/flan-t5-xl, 2,849,757,184, as listed in a public Flan-T5 fine-tuning table (small 76,961,152 / base 247,577,856 / large 783,150,080 / xl 2,849,757,184 / xxl 11,135,332,352); equals the T5 formula (gated-GELU feed-forward, untied head) applied to config_json',
 '{"architectures":["T5ForConditionalGeneration"],"model_type":"t5","d_ff":5120,"d_model":2048,"num_decoder_layers":24,"num_heads":32,"num_layers":24,"d_kv":64,"dense_act_fn":"gelu_new","dropout_rate":0.1,"feed_forward_proj":"gated-gelu","is_gated_act":true,"layer_norm_epsilon":1e-06,"n_positions":512,"relative_attention_max_distance":128,"relative_attention_num_buckets":32,"tie_word_embeddings":false,"torch_dtype":"float32","vocab_size":32128}',
 'google/flan-t5-xl config.json on the Hugging Face Hub',
 'Google', 'published'),
-- 11,135,332,352 = model.num_parameters() of google/flan-t5-xxl (public Flan-T5 size table; T5
-- v1.1 layout: gated-GELU feed-forward and an untied lm_head).
('flan-t5-xxl', 'Flan-T5 XXL', 'google/flan-t5-xxl', 't5', 11135332352,
 'model.num_parameters() of google/flan-t5-xxl, 11,135,332,352, as listed in a public Flan-T5 fine-tuning table (small 76,961,152 / base 247,577,856 / large 783,150,080 / xl 2,849,757,184 / xxl 11,135,332,352); equals the T5 formula (gated-GELU feed-forward, untied head) applied to config_json',
 '{"architectures":["T5ForConditionalGeneration"],"model_type":"t5","d_ff":10240,"d_model":4096,"num_decoder_layers":24,"num_heads":64,"num_layers":24,"d_kv":64,"dense_act_fn":"gelu_new","dropout_rate":0.1,"feed_forward_proj":"gated-gelu","is_gated_act":true,"layer_norm_epsilon":1e-06,"n_positions":512,"relative_attention_max_distance":128,"relative_attention_num_buckets":32,"tie_word_embeddings":false,"vocab_size":32128}',
 'google/flan-t5-xxl config.json on the Hugging Face Hub',
 'Google', 'published')
ON CONFLICT (id) DO NOTHING;

-- Google: BERT, encoder only (BertModel with pooler, as published counts use).
INSERT INTO models (id, name, hf_id, family, parameters, parameters_source, config_json, config_source,
                    publisher, parameters_basis) VALUES
-- 109,482,240 = keras-hub preset bert_base_en_uncased params: BertModel (embeddings, encoder,
-- pooler). The checkpoint also stores the pre-training heads (cls.*), which are not counted.
('bert-base-uncased', 'BERT Base (uncased)', 'google-bert/bert-base-uncased', 'bert', 109482240,
 'keras-hub BERT preset bert_base_en_uncased metadata params 109,482,240 (encoder with pooler, as BertModel counts); equals the BERT formula applied to config_json',
 '{"architectures":["BertForMaskedLM"],"model_type":"bert","hidden_size":768,"intermediate_size":3072,"num_attention_heads":12,"num_hidden_layers":12,"vocab_size":30522,"attention_probs_dropout_prob":0.1,"hidden_act":"gelu","hidden_dropout_prob":0.1,"layer_norm_eps":1e-12,"max_position_embeddings":512,"position_embedding_type":"absolute","type_vocab_size":2}',
 'google-bert/bert-base-uncased config.json on the Hugging Face Hub',
 'Google', 'published'),
-- 335,141,888 = keras-hub preset bert_large_en_uncased params: BertModel (embeddings, encoder,
-- pooler). The checkpoint also stores the pre-training heads (cls.*), which are not counted.
('bert-large-uncased', 'BERT Large (uncased)', 'google-bert/bert-large-uncased', 'bert', 335141888,
 'keras-hub BERT preset bert_large_en_uncased metadata params 335,141,888 (encoder with pooler, as BertModel counts); equals the BERT formula applied to config_json',
 '{"architectures":["BertForMaskedLM"],"model_type":"bert","hidden_size":1024,"intermediate_size":4096,"num_attention_heads":16,"num_hidden_layers":24,"vocab_size":30522,"attention_probs_dropout_prob":0.1,"hidden_act":"gelu","hidden_dropout_prob":0.1,"layer_norm_eps":1e-12,"max_position_embeddings":512,"position_embedding_type":"absolute","type_vocab_size":2}',
 'google-bert/bert-large-uncased config.json on the Hugging Face Hub',
 'Google', 'published'),
-- 108,310,272 = keras-hub preset bert_base_en params: BertModel (embeddings, encoder, pooler).
-- The checkpoint also stores the pre-training heads (cls.*), which are not counted.
('bert-base-cased', 'BERT Base (cased)', 'google-bert/bert-base-cased', 'bert', 108310272,
 'keras-hub BERT preset bert_base_en metadata params 108,310,272 (encoder with pooler, as BertModel counts); equals the BERT formula applied to config_json',
 '{"architectures":["BertForMaskedLM"],"model_type":"bert","hidden_size":768,"intermediate_size":3072,"num_attention_heads":12,"num_hidden_layers":12,"vocab_size":28996,"attention_probs_dropout_prob":0.1,"hidden_act":"gelu","hidden_dropout_prob":0.1,"layer_norm_eps":1e-12,"max_position_embeddings":512,"position_embedding_type":"absolute","type_vocab_size":2}',
 'google-bert/bert-base-cased config.json on the Hugging Face Hub',
 'Google', 'published'),
-- 333,579,264 = keras-hub preset bert_large_en params: BertModel (embeddings, encoder,
-- pooler). The checkpoint also stores the pre-training heads (cls.*), which are not counted.
('bert-large-cased', 'BERT Large (cased)', 'google-bert/bert-large-cased', 'bert', 333579264,
 'keras-hub BERT preset bert_large_en metadata params 333,579,264 (encoder with pooler, as BertModel counts); equals the BERT formula applied to config_json',
 '{"architectures":["BertForMaskedLM"],"model_type":"bert","hidden_size":1024,"intermediate_size":4096,"num_attention_heads":16,"num_hidden_layers":24,"vocab_size":28996,"attention_probs_dropout_prob":0.1,"hidden_act":"gelu","hidden_dropout_prob":0.1,"layer_norm_eps":1e-12,"max_position_embeddings":512,"position_embedding_type":"absolute","type_vocab_size":2}',
 'google-bert/bert-large-cased config.json on the Hugging Face Hub',
 'Google', 'published')
ON CONFLICT (id) DO NOTHING;

-- The three models seeded by 0002_seed.sql get their publisher (unless one was
-- already set). Like every write, this bumps the row's revision.
UPDATE models SET publisher = 'Meta', revision = revision + 1,
                  updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
 WHERE id IN ('llama-3.1-8b', 'llama-3.1-70b') AND publisher IS NULL;
UPDATE models SET publisher = 'Mistral AI', revision = revision + 1,
                  updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
 WHERE id = 'mistral-7b-v0.1' AND publisher IS NULL;

-- Aliases: each model's Hugging Face repository id and the short names people
-- type. Matching is case-insensitive; no alias repeats another alias or a model id.
INSERT INTO model_aliases (alias, model_id) VALUES
('meta-llama/Llama-2-7b-hf', 'llama-2-7b'),
('llama2-7b', 'llama-2-7b'),
('llama-2-7b-hf', 'llama-2-7b'),
('meta-llama/Llama-2-13b-hf', 'llama-2-13b'),
('llama2-13b', 'llama-2-13b'),
('llama-2-13b-hf', 'llama-2-13b'),
('meta-llama/Llama-2-70b-hf', 'llama-2-70b'),
('llama2-70b', 'llama-2-70b'),
('llama-2-70b-hf', 'llama-2-70b'),
('meta-llama/Meta-Llama-3-8B', 'llama-3-8b'),
('llama3-8b', 'llama-3-8b'),
('meta-llama-3-8b', 'llama-3-8b'),
('meta-llama/Meta-Llama-3-70B', 'llama-3-70b'),
('llama3-70b', 'llama-3-70b'),
('meta-llama-3-70b', 'llama-3-70b'),
('meta-llama/Llama-3.1-405B', 'llama-3.1-405b'),
('meta-llama/Meta-Llama-3.1-405B', 'llama-3.1-405b'),
('llama3.1-405b', 'llama-3.1-405b'),
('meta-llama/Llama-3.2-1B', 'llama-3.2-1b'),
('llama3.2-1b', 'llama-3.2-1b'),
('meta-llama/Llama-3.2-3B', 'llama-3.2-3b'),
('llama3.2-3b', 'llama-3.2-3b'),
('meta-llama/Llama-3.3-70B-Instruct', 'llama-3.3-70b'),
('llama3.3-70b', 'llama-3.3-70b'),
('llama-3.3-70b-instruct', 'llama-3.3-70b'),
('mistralai/Mistral-7B-v0.3', 'mistral-7b-v0.3'),
('mistral-7b-v3', 'mistral-7b-v0.3'),
('mistralai/Mistral-Nemo-Base-2407', 'mistral-nemo-12b'),
('mistral-nemo', 'mistral-nemo-12b'),
('mistral-nemo-base-2407', 'mistral-nemo-12b'),
('mistralai/Mixtral-8x7B-v0.1', 'mixtral-8x7b'),
('mixtral', 'mixtral-8x7b'),
('mixtral-8x7b-v0.1', 'mixtral-8x7b'),
('mistralai/Mixtral-8x22B-Instruct-v0.1', 'mixtral-8x22b-instruct'),
('mixtral-8x22b', 'mixtral-8x22b-instruct'),
('mixtral-8x22b-instruct-v0.1', 'mixtral-8x22b-instruct'),
('Qwen/Qwen2.5-0.5B', 'qwen2.5-0.5b'),
('qwen2.5:0.5b', 'qwen2.5-0.5b'),
('qwen25-0.5b', 'qwen2.5-0.5b'),
('Qwen/Qwen2.5-1.5B', 'qwen2.5-1.5b'),
('qwen2.5:1.5b', 'qwen2.5-1.5b'),
('qwen25-1.5b', 'qwen2.5-1.5b'),
('Qwen/Qwen2.5-3B', 'qwen2.5-3b'),
('qwen2.5:3b', 'qwen2.5-3b'),
('qwen25-3b', 'qwen2.5-3b'),
('Qwen/Qwen2.5-7B', 'qwen2.5-7b'),
('qwen2.5:7b', 'qwen2.5-7b'),
('qwen25-7b', 'qwen2.5-7b'),
('Qwen/Qwen2.5-14B', 'qwen2.5-14b'),
('qwen2.5:14b', 'qwen2.5-14b'),
('qwen25-14b', 'qwen2.5-14b'),
('Qwen/Qwen2.5-32B', 'qwen2.5-32b'),
('qwen2.5:32b', 'qwen2.5-32b'),
('qwen25-32b', 'qwen2.5-32b'),
('Qwen/Qwen2.5-72B', 'qwen2.5-72b'),
('qwen2.5:72b', 'qwen2.5-72b'),
('qwen25-72b', 'qwen2.5-72b'),
('Qwen/Qwen1.5-MoE-A2.7B-Chat', 'qwen1.5-moe-a2.7b-chat'),
('qwen1.5-moe-chat', 'qwen1.5-moe-a2.7b-chat'),
('qwen-moe-a2.7b-chat', 'qwen1.5-moe-a2.7b-chat'),
('Qwen/Qwen2-57B-A14B', 'qwen2-57b-a14b'),
('qwen2-moe-57b', 'qwen2-57b-a14b'),
('qwen2:57b', 'qwen2-57b-a14b'),
('Qwen/Qwen3-30B-A3B', 'qwen3-30b-a3b'),
('qwen3:30b', 'qwen3-30b-a3b'),
('qwen3-moe-30b', 'qwen3-30b-a3b'),
('Qwen/Qwen3-235B-A22B', 'qwen3-235b-a22b'),
('qwen3:235b', 'qwen3-235b-a22b'),
('qwen3-moe-235b', 'qwen3-235b-a22b'),
('google/gemma-2b', 'gemma-2b'),
('gemma:2b', 'gemma-2b'),
('google/gemma-7b', 'gemma-7b'),
('gemma:7b', 'gemma-7b'),
('google/gemma-2-2b', 'gemma-2-2b'),
('gemma2-2b', 'gemma-2-2b'),
('gemma2:2b', 'gemma-2-2b'),
('google/gemma-2-9b', 'gemma-2-9b'),
('gemma2-9b', 'gemma-2-9b'),
('gemma2:9b', 'gemma-2-9b'),
('google/gemma-2-27b', 'gemma-2-27b'),
('gemma2-27b', 'gemma-2-27b'),
('gemma2:27b', 'gemma-2-27b'),
('microsoft/Phi-3-mini-4k-instruct', 'phi-3-mini-4k'),
('phi-3-mini', 'phi-3-mini-4k'),
('phi3-mini', 'phi-3-mini-4k'),
('microsoft/Phi-3-medium-4k-instruct', 'phi-3-medium-4k'),
('phi-3-medium', 'phi-3-medium-4k'),
('phi3-medium', 'phi-3-medium-4k'),
('tiiuae/falcon-7b', 'falcon-7b'),
('falcon:7b', 'falcon-7b'),
('tiiuae/falcon-40b', 'falcon-40b'),
('falcon:40b', 'falcon-40b'),
('facebook/opt-125m', 'opt-125m'),
('opt125m', 'opt-125m'),
('facebook/opt-350m', 'opt-350m'),
('opt350m', 'opt-350m'),
('facebook/opt-1.3b', 'opt-1.3b'),
('opt1.3b', 'opt-1.3b'),
('facebook/opt-6.7b', 'opt-6.7b'),
('opt6.7b', 'opt-6.7b'),
('facebook/opt-13b', 'opt-13b'),
('opt13b', 'opt-13b'),
('facebook/opt-66b', 'opt-66b'),
('opt66b', 'opt-66b'),
('bigscience/bloom-560m', 'bloom-560m'),
('bloom560m', 'bloom-560m'),
('bigscience/bloom-7b1', 'bloom-7b1'),
('bloom-7b', 'bloom-7b1'),
('bloom-7.1b', 'bloom-7b1'),
('bigscience/bloom', 'bloom-176b'),
('bloom', 'bloom-176b'),
('openai-community/gpt2', 'gpt2'),
('gpt-2', 'gpt2'),
('gpt2-small', 'gpt2'),
('openai-community/gpt2-medium', 'gpt2-medium'),
('gpt-2-medium', 'gpt2-medium'),
('openai-community/gpt2-large', 'gpt2-large'),
('gpt-2-large', 'gpt2-large'),
('openai-community/gpt2-xl', 'gpt2-xl'),
('gpt-2-xl', 'gpt2-xl'),
('EleutherAI/pythia-70m', 'pythia-70m'),
('pythia70m', 'pythia-70m'),
('EleutherAI/pythia-160m', 'pythia-160m'),
('pythia160m', 'pythia-160m'),
('EleutherAI/pythia-410m', 'pythia-410m'),
('pythia410m', 'pythia-410m'),
('EleutherAI/pythia-1b', 'pythia-1b'),
('pythia1b', 'pythia-1b'),
('EleutherAI/pythia-1.4b', 'pythia-1.4b'),
('pythia1.4b', 'pythia-1.4b'),
('EleutherAI/pythia-2.8b', 'pythia-2.8b'),
('pythia2.8b', 'pythia-2.8b'),
('EleutherAI/pythia-6.9b', 'pythia-6.9b'),
('pythia6.9b', 'pythia-6.9b'),
('EleutherAI/pythia-12b', 'pythia-12b'),
('pythia12b', 'pythia-12b'),
('EleutherAI/gpt-neox-20b', 'gpt-neox-20b'),
('neox-20b', 'gpt-neox-20b'),
('gptneox-20b', 'gpt-neox-20b'),
('deepseek-ai/DeepSeek-V2', 'deepseek-v2'),
('deepseekv2', 'deepseek-v2'),
('deepseek-ai/DeepSeek-V2-Lite', 'deepseek-v2-lite'),
('deepseekv2-lite', 'deepseek-v2-lite'),
('deepseek-ai/DeepSeek-V3', 'deepseek-v3'),
('deepseekv3', 'deepseek-v3'),
('google-t5/t5-small', 't5-small'),
('t5small', 't5-small'),
('google-t5/t5-base', 't5-base'),
('t5base', 't5-base'),
('google-t5/t5-large', 't5-large'),
('t5large', 't5-large'),
('google-t5/t5-3b', 't5-3b'),
('t53b', 't5-3b'),
('google/flan-t5-small', 'flan-t5-small'),
('flant5-small', 'flan-t5-small'),
('google/flan-t5-base', 'flan-t5-base'),
('flant5-base', 'flan-t5-base'),
('google/flan-t5-large', 'flan-t5-large'),
('flant5-large', 'flan-t5-large'),
('google/flan-t5-xl', 'flan-t5-xl'),
('flant5-xl', 'flan-t5-xl'),
('google/flan-t5-xxl', 'flan-t5-xxl'),
('flant5-xxl', 'flan-t5-xxl'),
('google-bert/bert-base-uncased', 'bert-base-uncased'),
('bert-base', 'bert-base-uncased'),
('bert', 'bert-base-uncased'),
('google-bert/bert-large-uncased', 'bert-large-uncased'),
('bert-large', 'bert-large-uncased'),
('google-bert/bert-base-cased', 'bert-base-cased'),
('google-bert/bert-large-cased', 'bert-large-cased')
ON CONFLICT (alias) DO NOTHING;
