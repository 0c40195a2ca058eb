-- Names people serve models by: two checkpoints whose configs differ from the
-- catalog's rows of the same size, and the instruct and chat repositories of
-- catalog models that share their architecture. Data only; no schema change.
--
-- Conventions as in 0006_seed_models.sql: config_json is the published
-- config.json reduced to the architecture fields; `parameters` is the count
-- gs_arch_count_params gives for it (tests/server/test_codec.c checks every
-- row), written out below; parameters_basis 'derived' with the rounded public
-- figure it agrees with.
--
-- Quantized repositories ("-FP8", "-AWQ", "-GPTQ-Int4", "-bnb-4bit", a
-- re-publisher such as unsloth, RedHatAI or TheBloke) are not aliased here:
-- the name rule of db/src/names.c strips the suffix and the organisation,
-- finds the model of the architecture and sizes the weights in the format the
-- suffix states, with a model_resolved warning; an alias would hide both.
-- Dated releases whose config differs from the undated row (Qwen3-30B-A3B and
-- Qwen3-235B-A22B "-2507": max_position_embeddings 262144 and rope_theta 5e6
-- against 40960 and 1e6) are not aliased either: the rule resolves them to the
-- undated row with a warning that their context length may differ.
--
-- qwen3-4b-instruct-2507: the Qwen3-4B shapes (36 layers, hidden 2560, 32
-- query and 8 KV heads of 128, MLP 9728, vocabulary 151936, tied embedding)
-- with the 2507 release's 256K context (max_position_embeddings 262144,
-- rope_theta 5,000,000). Count (Qwen3ForCausalLM, transformers
-- models/qwen3/modeling_qwen3.py; vLLM model_executor/models/qwen3.py):
--   embedding 151936 x 2560                                 =   388,956,160
--   per layer: q 2560x4096 + k, v 2 x 2560x1024 + o 4096x2560
--              = 10,485,760 + 5,242,880 + 10,485,760       =    26,214,400
--              q_norm, k_norm 2 x 128                      =           256
--              MLP 3 x 2560 x 9728                         =    74,711,040
--              input and post-attention norms 2 x 2560      =         5,120
--              layer total                                  =   100,930,816
--   36 layers                                               = 3,633,509,376
--   final norm                                              =         2,560
--   lm_head tied to the embedding                           =             0
--   total                                                   = 4,022,468,096
-- the model card: "Number of Parameters: 4.0B; Non-Embedding: 3.6B"
-- (4,022,468,096 - 388,956,160 = 3,633,511,936).
--
-- mistral-7b-instruct-v0.2: Mistral 7B's shapes (32 layers, hidden 4096, 32
-- query and 8 KV heads of 128, MLP 14336, vocabulary 32000, untied head) with
-- the v0.2 release's attention: sliding_window null (full attention over the
-- 32768 positions) and rope_theta 1,000,000, where v0.1 has a 4096 window and
-- 1e4. Count (MistralForCausalLM, transformers models/mistral/modeling_mistral.py;
-- vLLM model_executor/models/llama.py, which serves MistralForCausalLM):
--   embedding and head 2 x 32000 x 4096                     =   262,144,000
--   per layer: q, o 2 x 4096x4096 + k, v 2 x 4096x1024      =    41,943,040
--              MLP 3 x 4096 x 14336                         =   176,160,768
--              two norms 2 x 4096                           =         8,192
--              layer total                                  =   218,112,000
--   32 layers                                               = 6,979,584,000
--   final norm                                              =         4,096
--   total                                                   = 7,241,732,096
-- the same tensors as mistral-7b-v0.1, whose safetensors total is 7,241,732,096
-- (0004); the Hub page of mistralai/Mistral-7B-Instruct-v0.2 shows "7.24B".
INSERT INTO models (id, name, hf_id, family, parameters, parameters_source, config_json, config_source,
                    publisher, parameters_basis) VALUES
('qwen3-4b-instruct-2507', 'Qwen3-4B-Instruct-2507', 'Qwen/Qwen3-4B-Instruct-2507', 'qwen3', 4022468096,
 'exact count of config_json (Qwen3 formula, tied head: 36 x 100,930,816 + 388,956,160 + 2,560, written out in db/migrations/0024_names.sql); the model card gives 4.0B, 3.6B non-embedding',
 '{"architectures":["Qwen3ForCausalLM"],"attention_bias":false,"attention_dropout":0.0,"head_dim":128,"hidden_act":"silu","hidden_size":2560,"intermediate_size":9728,"max_position_embeddings":262144,"max_window_layers":36,"model_type":"qwen3","num_attention_heads":32,"num_hidden_layers":36,"num_key_value_heads":8,"rms_norm_eps":1e-06,"rope_scaling":null,"rope_theta":5000000,"sliding_window":null,"tie_word_embeddings":true,"torch_dtype":"bfloat16","use_sliding_window":false,"vocab_size":151936}',
 'Qwen3-4B 2507 config.json as published on the Hugging Face Hub (copy: akougkas/warpio-cli warpio-docs/ai-docs/model_cards/qwen3:4b.md, commit 8dde6d21, a copy of the 2507 config: max_position_embeddings 262144, rope_theta 5000000); the Instruct-2507 and Thinking-2507 repositories publish the same architecture fields; the model card of Qwen/Qwen3-4B-Instruct-2507: 36 layers, 32 Q / 8 KV heads, 262,144 context',
 'Alibaba Cloud', 'derived'),
('mistral-7b-instruct-v0.2', 'Mistral 7B Instruct v0.2', 'mistralai/Mistral-7B-Instruct-v0.2', 'mistral', 7241732096,
 'exact count of config_json (32 x 218,112,000 + 262,144,000 + 4,096, written out in db/migrations/0024_names.sql); the same tensors as Mistral-7B-v0.1, whose safetensors total is 7,241,732,096; the Hub page gives 7.24B',
 '{"architectures":["MistralForCausalLM"],"attention_dropout":0.0,"hidden_act":"silu","hidden_size":4096,"intermediate_size":14336,"max_position_embeddings":32768,"model_type":"mistral","num_attention_heads":32,"num_hidden_layers":32,"num_key_value_heads":8,"rms_norm_eps":1e-05,"rope_theta":1000000.0,"sliding_window":null,"tie_word_embeddings":false,"torch_dtype":"bfloat16","vocab_size":32000}',
 'mistralai/Mistral-7B-Instruct-v0.2 config.json on the Hugging Face Hub (architecture fields; sliding_window null, rope_theta 1000000.0, max_position_embeddings 32768 and vocab_size 32000 as a public GitHub architecture census quotes the file, and as vLLM serves it)',
 'Mistral AI', 'derived')
ON CONFLICT (id) DO NOTHING;

-- Repository ids of the new rows and of the instruct/chat checkpoints of
-- catalog models with the same config shapes (instruction tuning changes no
-- tensor) and the same context settings: Llama 2 chat, Llama 3/3.1/3.2
-- Instruct, Qwen2.5-0.5B Instruct (3B Instruct has its own row, 0027), Mistral and Mixtral Instruct, Gemma 2 it,
-- checked field by field against the rows' stored configs (layers, widths,
-- heads, vocabulary, tying, max_position_embeddings, rope). Qwen2.5-7B, 14B,
-- 32B and 72B Instruct publish max_position_embeddings 32768 where the base
-- rows store 131072, so they get no alias: the name rule resolves them to the
-- base row by their tokens, with the model_resolved warning. Llama-3.1-8B-
-- Instruct keeps resolving that way too (same shapes; the web form's test
-- shows the warning for it).
INSERT INTO model_aliases (alias, model_id) VALUES
('Qwen/Qwen3-4B-Instruct-2507', 'qwen3-4b-instruct-2507'),
('qwen3-4b-2507', 'qwen3-4b-instruct-2507'),
('qwen3:4b-instruct-2507', 'qwen3-4b-instruct-2507'),
('Qwen/Qwen3-4B-Thinking-2507', 'qwen3-4b-instruct-2507'),
('mistralai/Mistral-7B-Instruct-v0.2', 'mistral-7b-instruct-v0.2'),
('mistral-7b-instruct-v0.2-hf', 'mistral-7b-instruct-v0.2'),
('meta-llama/Llama-2-7b-chat-hf', 'llama-2-7b'),
('meta-llama/Llama-2-13b-chat-hf', 'llama-2-13b'),
('meta-llama/Llama-2-70b-chat-hf', 'llama-2-70b'),
('meta-llama/Meta-Llama-3-8B-Instruct', 'llama-3-8b'),
('meta-llama/Meta-Llama-3-70B-Instruct', 'llama-3-70b'),
('meta-llama/Llama-3.1-70B-Instruct', 'llama-3.1-70b'),
('meta-llama/Meta-Llama-3.1-70B-Instruct', 'llama-3.1-70b'),
('meta-llama/Llama-3.1-405B-Instruct', 'llama-3.1-405b'),
('meta-llama/Meta-Llama-3.1-405B-Instruct', 'llama-3.1-405b'),
('meta-llama/Llama-3.2-1B-Instruct', 'llama-3.2-1b'),
('meta-llama/Llama-3.2-3B-Instruct', 'llama-3.2-3b'),
('Qwen/Qwen2.5-0.5B-Instruct', 'qwen2.5-0.5b'),
('mistralai/Mistral-7B-Instruct-v0.1', 'mistral-7b-v0.1'),
('mistralai/Mistral-7B-Instruct-v0.3', 'mistral-7b-v0.3'),
('mistralai/Mixtral-8x7B-Instruct-v0.1', 'mixtral-8x7b'),
('google/gemma-2-2b-it', 'gemma-2-2b'),
('google/gemma-2-9b-it', 'gemma-2-9b'),
('google/gemma-2-27b-it', 'gemma-2-27b')
ON CONFLICT (alias) DO NOTHING;
