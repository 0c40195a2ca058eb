-- Schema version 27: more releases people serve, each from its own published config.json, of
-- model types gpusizer reads (issue 30 item 6): Poolside's Laguna-S-2.1-FP8 (compressed-tensors
-- FP8 blocks), the Qwen2 and Qwen2.5 instruct models, Phi-3.5 and Phi-4 mini, SmolLM2, TinyLlama,
-- Code Llama, StarCoder2 7B and Gemma 2 JPN. Data only; no schema change.
--
-- Conventions as in 0026_quantized_releases.sql: config_json is the published config.json reduced
-- to the architecture fields (token ids, auto_map, transformers_version, use_cache,
-- initializer_range, pretraining_tp and _name_or_path dropped); quantization_config is kept, as
-- it sets the row's default weight format (server/models/reader.c models_read_checkpoint).
-- `parameters` is the parameters() count gs_arch_count_params gives for the stored config, which
-- tests/server/test_codec.c checks for every row; a release that shares its architecture fields
-- with a catalog row has that row's count (the comment names it). parameters_basis is 'derived'.
--
-- Where each config comes from: Laguna-S-2.1-FP8 is a verbatim copy kept by NVIDIA's
-- ai-dynamo/aiconfigurator; the others are MLC LLM's model presets
-- (python/mlc_llm/model/model_preset.py), Python literals of the Hub config.json files, chosen
-- where the preset names its repository (by key or _name_or_path), where its shapes name one size
-- (StarCoder2: hidden 4608 and 32 layers are the 7B's), and where its token ids tell the instruct
-- release from the base one (eos_token_id 151645 for Qwen2 instruct, bos 1 and eos 2 for SmolLM2
-- instruct). deepseek-ai/DeepSeek-R1 has no row of its own: its config's architecture fields and
-- quantization_config are DeepSeek-V3's, and 0010_names.sql already resolves it (and the id
-- deepseek-r1) to the deepseek-v3 row. The fixtures under
-- tests/fixtures/configs/<model_type>/ keep each copy; their READMEs say which is which. MLC's
-- Qwen1.5-1.8B-Chat preset is left out: it states tie_word_embeddings true where the Hub model
-- has an untied head (1,836,828,672 published against 1,525,663,744 for the preset).
--
-- Left out because the reader would size them in the wrong format: nvidia/Qwen3.6-27B-NVFP4,
-- nvidia/Qwen3.6-35B-A3B-NVFP4 and nvidia/NVIDIA-Nemotron-3.5-Lightning-30B-A3B-NVFP4
-- (ModelOpt MIXED_PRECISION of FP8 and W4A16_NVFP4 layers), nvidia/MiniMax-M3-NVFP4 (MXFP8 and
-- NVFP4 layers), RedHatAI/DeepSeek-V4-Flash-NVFP4-FP8 (NVFP4 experts beside FP8).
--
-- ON CONFLICT DO NOTHING, as in 0004: a row a user already added under one of these ids or
-- aliases is kept.

INSERT INTO models (id, name, hf_id, family, parameters, parameters_source, config_json, config_source,
                    publisher, parameters_basis) VALUES
-- 3,821,079,552 = parameters() of the stored config, the count of the phi-3-mini-4k row.
('phi-3.5-mini-instruct', 'Phi-3.5-mini-instruct', 'microsoft/Phi-3.5-mini-instruct', 'phi3', 3821079552,
 'exact count of config_json (Phi3ForCausalLM; equals the phi-3-mini-4k row, whose layer shapes it shares (32 layers of 3072, fused qkv and gate_up, MLP 8192, vocabulary 32064, untied head); LongRoPE scaling adds no parameter; the model card gives 3.8B)',
 '{"architectures":["Phi3ForCausalLM"],"attention_bias":false,"attention_dropout":0.0,"embd_pdrop":0.0,"hidden_act":"silu","hidden_size":3072,"intermediate_size":8192,"max_position_embeddings":131072,"model_type":"phi3","num_attention_heads":32,"num_hidden_layers":32,"num_key_value_heads":32,"original_max_position_embeddings":4096,"resid_pdrop":0.0,"rms_norm_eps":1e-05,"rope_scaling":{"long_factor":[1.0800000429153442,1.1100000143051147,1.1399999856948853,1.340000033378601,1.5899999141693115,1.600000023841858,1.6200000047683716,2.620000123977661,3.2300000190734863,3.2300000190734863,4.789999961853027,7.400000095367432,7.700000286102295,9.09000015258789,12.199999809265137,17.670000076293945,24.46000099182129,28.57000160217285,30.420001983642578,30.840002059936523,32.590003967285156,32.93000411987305,42.320003509521484,44.96000289916992,50.340003967285156,50.45000457763672,57.55000305175781,57.93000411987305,58.21000289916992,60.1400032043457,62.61000442504883,62.62000274658203,62.71000289916992,63.1400032043457,63.1400032043457,63.77000427246094,63.93000411987305,63.96000289916992,63.970001220703125,64.02999877929688,64.06999969482422,64.08000183105469,64.12000274658203,64.41000366210938,64.4800033569336,64.51000213623047,64.52999877929688,64.83999633789062],"short_factor":[1.0,1.0199999809265137,1.0299999713897705,1.0299999713897705,1.0499999523162842,1.0499999523162842,1.0499999523162842,1.0499999523162842,1.0499999523162842,1.0699999332427979,1.0999999046325684,1.1099998950958252,1.1599998474121094,1.1599998474121094,1.1699998378753662,1.2899998426437378,1.339999794960022,1.679999828338623,1.7899998426437378,1.8199998140335083,1.8499997854232788,1.8799997568130493,1.9099997282028198,1.9399996995925903,1.9899996519088745,2.0199997425079346,2.0199997425079346,2.0199997425079346,2.0199997425079346,2.0199997425079346,2.0199997425079346,2.0299997329711914,2.0299997329711914,2.0299997329711914,2.0299997329711914,2.0299997329711914,2.0299997329711914,2.0299997329711914,2.0299997329711914,2.0299997329711914,2.0799996852874756,2.0899996757507324,2.189999580383301,2.2199995517730713,2.5899994373321533,2.729999542236328,2.749999523162842,2.8399994373321533],"type":"longrope"},"rope_theta":10000.0,"sliding_window":262144,"tie_word_embeddings":false,"torch_dtype":"bfloat16","vocab_size":32064}',
 'microsoft/Phi-3.5-mini-instruct config.json on the Hugging Face Hub (copy: mlc-ai/mlc-llm python/mlc_llm/model/model_preset.py, commit 79d603f0, preset "phi-3_5", a Python literal of the Hub file; tests/fixtures/configs/phi3/microsoft__Phi-3.5-mini-instruct.json)',
 'Microsoft', 'derived'),
-- 3,836,021,760 = parameters() of the stored config.
('phi-4-mini-instruct', 'Phi-4-mini-instruct', 'microsoft/Phi-4-mini-instruct', 'phi3', 3836021760,
 'exact count of config_json (Phi3ForCausalLM: 32 x 100,669,440 (qkv 3072 x 5120, o 3072 x 3072, gate_up 3072 x 16384, down 8192 x 3072, two norms) + tied embedding 200064 x 3072 + final norm; the model card gives 3.8B)',
 '{"architectures":["Phi3ForCausalLM"],"attention_bias":false,"attention_dropout":0.0,"embd_pdrop":0.0,"full_attn_mod":1,"hidden_act":"silu","hidden_size":3072,"intermediate_size":8192,"interpolate_factor":1,"lm_head_bias":false,"max_position_embeddings":131072,"mlp_bias":false,"model_type":"phi3","num_attention_heads":24,"num_hidden_layers":32,"num_key_value_heads":8,"original_max_position_embeddings":4096,"partial_rotary_factor":0.75,"resid_pdrop":0.0,"rms_norm_eps":1e-05,"rope_scaling":{"long_factor":[1,1.118320672,1.250641126,1.398617824,1.564103225,1.74916897,1.956131817,2.187582649,2.446418898,2.735880826,3.059592084,3.421605075,3.826451687,4.279200023,4.785517845,5.351743533,5.984965424,6.693110555,7.485043894,8.370679318,9.36110372,10.4687158,11.70738129,13.09260651,14.64173252,16.37415215,18.31155283,20.47818807,22.90118105,25.61086418,28.64115884,32.03,32.1,32.13,32.23,32.6,32.61,32.64,32.66,32.7,32.71,32.93,32.97,33.28,33.49,33.5,44.16,47.77],"short_factor":[1.0,1.0,1.0,1.0,1.0,1.0,1.0,1.0,1.0,1.0,1.0,1.0,1.0,1.0,1.0,1.0,1.0,1.0,1.0,1.0,1.0,1.0,1.0,1.0,1.0,1.0,1.0,1.0,1.0,1.0,1.0,1.0,1.0,1.0,1.0,1.0,1.0,1.0,1.0,1.0,1.0,1.0,1.0,1.0,1.0,1.0,1.0,1.0],"type":"longrope"},"rope_theta":10000.0,"sliding_window":262144,"tie_word_embeddings":true,"torch_dtype":"bfloat16","vocab_size":200064}',
 'microsoft/Phi-4-mini-instruct config.json on the Hugging Face Hub (copy: mlc-ai/mlc-llm python/mlc_llm/model/model_preset.py, commit 79d603f0, preset "phi-4", a Python literal of the Hub file; tests/fixtures/configs/phi3/microsoft__Phi-4-mini-instruct.json)',
 'Microsoft', 'derived'),
-- 1,100,048,384 = parameters() of the stored config.
('tinyllama-1.1b-chat-v1.0', 'TinyLlama 1.1B Chat v1.0', 'TinyLlama/TinyLlama-1.1B-Chat-v1.0', 'llama', 1100048384,
 'exact count of config_json (LlamaForCausalLM: 22 x 44,044,288 (GQA 32/4 of 64, MLP 5632) + embedding and untied head 2 x 32000 x 2048 + final norm; the model card gives 1.1B)',
 '{"architectures":["LlamaForCausalLM"],"attention_bias":false,"hidden_act":"silu","hidden_size":2048,"intermediate_size":5632,"max_position_embeddings":2048,"model_type":"llama","num_attention_heads":32,"num_hidden_layers":22,"num_key_value_heads":4,"rms_norm_eps":1e-05,"rope_scaling":null,"rope_theta":10000.0,"tie_word_embeddings":false,"torch_dtype":"bfloat16","vocab_size":32000}',
 'TinyLlama/TinyLlama-1.1B-Chat-v1.0 config.json on the Hugging Face Hub (copy: mlc-ai/mlc-llm python/mlc_llm/model/model_preset.py, commit 79d603f0, preset "tinyllama_1b_chat_v1.0", a Python literal of the Hub file; tests/fixtures/configs/llama/TinyLlama__TinyLlama-1.1B-Chat-v1.0.json)',
 'TinyLlama', 'derived'),
-- 6,738,546,688 = parameters() of the stored config.
('codellama-7b', 'Code Llama 7B', 'codellama/CodeLlama-7b-hf', 'llama', 6738546688,
 'exact count of config_json (LlamaForCausalLM: the llama-2-7b shapes with a 32016-token vocabulary, 6,738,415,616 + 2 x 16 x 4096; the Hub page gives 6.74B)',
 '{"architectures":["LlamaForCausalLM"],"hidden_act":"silu","hidden_size":4096,"intermediate_size":11008,"max_position_embeddings":16384,"model_type":"llama","num_attention_heads":32,"num_hidden_layers":32,"num_key_value_heads":32,"rms_norm_eps":1e-05,"rope_scaling":null,"rope_theta":1000000,"tie_word_embeddings":false,"torch_dtype":"bfloat16","vocab_size":32016}',
 'codellama/CodeLlama-7b-hf config.json on the Hugging Face Hub (copy: mlc-ai/mlc-llm python/mlc_llm/model/model_preset.py, commit 79d603f0, preset "codellama_7b", a Python literal of the Hub file; tests/fixtures/configs/llama/codellama__CodeLlama-7b-hf.json)',
 'Meta', 'derived'),
-- 13,016,028,160 = parameters() of the stored config.
('codellama-13b', 'Code Llama 13B', 'codellama/CodeLlama-13b-hf', 'llama', 13016028160,
 'exact count of config_json (LlamaForCausalLM: the llama-2-13b shapes with a 32016-token vocabulary, 13,015,864,320 + 2 x 16 x 5120; the Hub page gives 13B)',
 '{"architectures":["LlamaForCausalLM"],"hidden_act":"silu","hidden_size":5120,"intermediate_size":13824,"max_position_embeddings":16384,"model_type":"llama","num_attention_heads":40,"num_hidden_layers":40,"num_key_value_heads":40,"rms_norm_eps":1e-05,"rope_scaling":null,"rope_theta":1000000,"tie_word_embeddings":false,"torch_dtype":"bfloat16","vocab_size":32016}',
 'codellama/CodeLlama-13b-hf config.json on the Hugging Face Hub (copy: mlc-ai/mlc-llm python/mlc_llm/model/model_preset.py, commit 79d603f0, preset "codellama_13b", a Python literal of the Hub file; tests/fixtures/configs/llama/codellama__CodeLlama-13b-hf.json)',
 'Meta', 'derived'),
-- 33,744,232,448 = parameters() of the stored config.
('codellama-34b', 'Code Llama 34B', 'codellama/CodeLlama-34b-hf', 'llama', 33744232448,
 'exact count of config_json (LlamaForCausalLM: 48 x 692,076,544 (q, o 8192 x 8192, k, v 8192 x 1024, MLP 3 x 8192 x 22016, two norms) + 2 x 32016 x 8192 + final norm; the Hub page gives 33.7B)',
 '{"architectures":["LlamaForCausalLM"],"hidden_act":"silu","hidden_size":8192,"intermediate_size":22016,"max_position_embeddings":16384,"model_type":"llama","num_attention_heads":64,"num_hidden_layers":48,"num_key_value_heads":8,"rms_norm_eps":1e-05,"rope_scaling":null,"rope_theta":1000000,"tie_word_embeddings":false,"torch_dtype":"bfloat16","vocab_size":32016}',
 'codellama/CodeLlama-34b-hf config.json on the Hugging Face Hub (copy: mlc-ai/mlc-llm python/mlc_llm/model/model_preset.py, commit 79d603f0, preset "codellama_34b", a Python literal of the Hub file; tests/fixtures/configs/llama/codellama__CodeLlama-34b-hf.json)',
 'Meta', 'derived'),
-- 2,614,341,888 = parameters() of the stored config, the count of the gemma-2-2b row.
('gemma-2-2b-jpn-it', 'Gemma 2 2B JPN IT', 'google/gemma-2-2b-jpn-it', 'gemma2', 2614341888,
 'exact count of config_json (Gemma2ForCausalLM; equals the gemma-2-2b row, whose layer shapes it shares (26 layers of 2304, 8 query and 4 KV heads of 256, GeGLU 9216, vocabulary 256000, tied head))',
 '{"architectures":["Gemma2ForCausalLM"],"attention_bias":false,"attention_dropout":0.0,"attn_logit_softcapping":50.0,"cache_implementation":"hybrid","dtype":"bfloat16","final_logit_softcapping":30.0,"head_dim":256,"hidden_activation":"gelu_pytorch_tanh","hidden_size":2304,"intermediate_size":9216,"max_position_embeddings":8192,"model_type":"gemma2","num_attention_heads":8,"num_hidden_layers":26,"num_key_value_heads":4,"query_pre_attn_scalar":224,"rms_norm_eps":1e-06,"rope_theta":10000.0,"sliding_window":4096,"torch_dtype":"bfloat16","vocab_size":256000}',
 'google/gemma-2-2b-jpn-it config.json on the Hugging Face Hub (copy: mlc-ai/mlc-llm python/mlc_llm/model/model_preset.py, commit 79d603f0, preset "gemma2_2b-jpn", a Python literal of the Hub file; tests/fixtures/configs/gemma2/google__gemma-2-2b-jpn-it.json)',
 'Google', 'derived'),
-- 494,032,768 = parameters() of the stored config, the count of the qwen2.5-0.5b row.
('qwen2-0.5b-instruct', 'Qwen2-0.5B-Instruct', 'Qwen/Qwen2-0.5B-Instruct', 'qwen2', 494032768,
 'exact count of config_json (Qwen2ForCausalLM; equals the qwen2.5-0.5b row, whose layer shapes it shares (24 layers of 896, 14 query and 2 KV heads with q/k/v biases, MLP 4864, tied head); the model card gives 0.49B)',
 '{"architectures":["Qwen2ForCausalLM"],"attention_dropout":0.0,"hidden_act":"silu","hidden_size":896,"intermediate_size":4864,"max_position_embeddings":32768,"max_window_layers":24,"model_type":"qwen2","num_attention_heads":14,"num_hidden_layers":24,"num_key_value_heads":2,"rms_norm_eps":1e-06,"rope_theta":1000000.0,"sliding_window":32768,"tie_word_embeddings":true,"torch_dtype":"bfloat16","use_sliding_window":false,"vocab_size":151936}',
 'Qwen/Qwen2-0.5B-Instruct config.json on the Hugging Face Hub (copy: mlc-ai/mlc-llm python/mlc_llm/model/model_preset.py, commit 79d603f0, preset "qwen2_0_5b", a Python literal of the Hub file; tests/fixtures/configs/qwen2/Qwen__Qwen2-0.5B-Instruct.json)',
 'Alibaba Cloud', 'derived'),
-- 1,543,714,304 = parameters() of the stored config, the count of the qwen2.5-1.5b row.
('qwen2-1.5b-instruct', 'Qwen2-1.5B-Instruct', 'Qwen/Qwen2-1.5B-Instruct', 'qwen2', 1543714304,
 'exact count of config_json (Qwen2ForCausalLM; equals the qwen2.5-1.5b row, whose layer shapes it shares (28 layers of 1536, 12 query and 2 KV heads, MLP 8960, tied head); the model card gives 1.5B)',
 '{"architectures":["Qwen2ForCausalLM"],"attention_dropout":0.0,"hidden_act":"silu","hidden_size":1536,"intermediate_size":8960,"max_position_embeddings":32768,"max_window_layers":28,"model_type":"qwen2","num_attention_heads":12,"num_hidden_layers":28,"num_key_value_heads":2,"rms_norm_eps":1e-06,"rope_theta":1000000.0,"sliding_window":32768,"tie_word_embeddings":true,"torch_dtype":"bfloat16","use_sliding_window":false,"vocab_size":151936}',
 'Qwen/Qwen2-1.5B-Instruct config.json on the Hugging Face Hub (copy: mlc-ai/mlc-llm python/mlc_llm/model/model_preset.py, commit 79d603f0, preset "qwen2_1_5b", a Python literal of the Hub file; tests/fixtures/configs/qwen2/Qwen__Qwen2-1.5B-Instruct.json)',
 'Alibaba Cloud', 'derived'),
-- 7,615,616,512 = parameters() of the stored config, the count of the qwen2.5-7b row.
('qwen2-7b-instruct', 'Qwen2-7B-Instruct', 'Qwen/Qwen2-7B-Instruct', 'qwen2', 7615616512,
 'exact count of config_json (Qwen2ForCausalLM; equals the qwen2.5-7b row, whose layer shapes it shares (28 layers of 3584, 28 query and 4 KV heads, MLP 18944, vocabulary 152064, untied head); the model card gives 7.6B)',
 '{"architectures":["Qwen2ForCausalLM"],"attention_dropout":0.0,"hidden_act":"silu","hidden_size":3584,"intermediate_size":18944,"max_position_embeddings":32768,"max_window_layers":28,"model_type":"qwen2","num_attention_heads":28,"num_hidden_layers":28,"num_key_value_heads":4,"rms_norm_eps":1e-06,"rope_theta":1000000.0,"sliding_window":131072,"tie_word_embeddings":false,"torch_dtype":"bfloat16","use_sliding_window":false,"vocab_size":152064}',
 'Qwen/Qwen2-7B-Instruct config.json on the Hugging Face Hub (copy: mlc-ai/mlc-llm python/mlc_llm/model/model_preset.py, commit 79d603f0, preset "qwen2_7b", a Python literal of the Hub file; tests/fixtures/configs/qwen2/Qwen__Qwen2-7B-Instruct.json)',
 'Alibaba Cloud', 'derived'),
-- 3,085,938,688 = parameters() of the stored config, the count of the qwen2.5-3b row.
('qwen2.5-3b-instruct', 'Qwen2.5-3B-Instruct', 'Qwen/Qwen2.5-3B-Instruct', 'qwen2', 3085938688,
 'exact count of config_json (Qwen2ForCausalLM; equals the qwen2.5-3b row, whose layer shapes it shares; that row cites the safetensors total 3,085,938,688 of this repository)',
 '{"architectures":["Qwen2ForCausalLM"],"attention_dropout":0.0,"hidden_act":"silu","hidden_size":2048,"intermediate_size":11008,"max_position_embeddings":32768,"max_window_layers":70,"model_type":"qwen2","num_attention_heads":16,"num_hidden_layers":36,"num_key_value_heads":2,"rms_norm_eps":1e-06,"rope_theta":1000000.0,"sliding_window":32768,"tie_word_embeddings":true,"torch_dtype":"bfloat16","use_sliding_window":false,"vocab_size":151936}',
 'Qwen/Qwen2.5-3B-Instruct config.json on the Hugging Face Hub (copy: mlc-ai/mlc-llm python/mlc_llm/model/model_preset.py, commit 79d603f0, preset "qwen2.5_3b", a Python literal of the Hub file; tests/fixtures/configs/qwen2/Qwen__Qwen2.5-3B-Instruct.json)',
 'Alibaba Cloud', 'derived'),
-- 134,515,008 = parameters() of the stored config.
('smollm2-135m-instruct', 'SmolLM2-135M-Instruct', 'HuggingFaceTB/SmolLM2-135M-Instruct', 'llama', 134515008,
 'exact count of config_json (LlamaForCausalLM: 30 x 3,540,096 (GQA 9/3 of 64, MLP 1536) + tied embedding 49152 x 576 + final norm; the model card gives 135M)',
 '{"architectures":["LlamaForCausalLM"],"attention_bias":false,"attention_dropout":0.0,"hidden_act":"silu","hidden_size":576,"intermediate_size":1536,"is_llama_config":true,"max_position_embeddings":8192,"mlp_bias":false,"model_type":"llama","num_attention_heads":9,"num_hidden_layers":30,"num_key_value_heads":3,"rms_norm_eps":1e-05,"rope_interleaved":false,"rope_scaling":null,"rope_theta":100000,"tie_word_embeddings":true,"torch_dtype":"bfloat16","transformers.js_config":{"kv_cache_dtype":{"q4f16":"float16","fp16":"float16"}},"vocab_size":49152}',
 'HuggingFaceTB/SmolLM2-135M-Instruct config.json on the Hugging Face Hub (copy: mlc-ai/mlc-llm python/mlc_llm/model/model_preset.py, commit 79d603f0, preset "smollm2_135m", a Python literal of the Hub file; tests/fixtures/configs/llama/HuggingFaceTB__SmolLM2-135M-Instruct.json)',
 'Hugging Face', 'derived'),
-- 7,173,923,840 = parameters() of the stored config.
('starcoder2-7b', 'StarCoder2 7B', 'bigcode/starcoder2-7b', 'starcoder2', 7173923840,
 'exact count of config_json (Starcoder2ForCausalLM: 32 x 217,106,944 (q, k, v, o and the ungated MLP of 18432 with biases, two LayerNorms) + tied embedding 49152 x 4608 + final LayerNorm, written out in tests/fixtures/configs/starcoder2/README.md; the Hub page gives 7.17B)',
 '{"activation_function":"gelu","architectures":["Starcoder2ForCausalLM"],"attention_dropout":0.1,"attention_softmax_in_fp32":true,"embedding_dropout":0.1,"hidden_act":"gelu_pytorch_tanh","hidden_size":4608,"intermediate_size":18432,"layer_norm_epsilon":1e-05,"max_position_embeddings":16384,"mlp_type":"default","model_type":"starcoder2","norm_epsilon":1e-05,"norm_type":"layer_norm","num_attention_heads":36,"num_hidden_layers":32,"num_key_value_heads":4,"residual_dropout":0.1,"rope_theta":1000000,"scale_attention_softmax_in_fp32":true,"scale_attn_weights":true,"sliding_window":4096,"torch_dtype":"bfloat16","use_bias":true,"vocab_size":49152}',
 'bigcode/starcoder2-7b config.json on the Hugging Face Hub (copy: mlc-ai/mlc-llm python/mlc_llm/model/model_preset.py, commit 79d603f0, preset "starcoder2", a Python literal of the Hub file; tests/fixtures/configs/starcoder2/bigcode__starcoder2-7b.json)',
 'BigCode', 'derived'),
-- 361,821,120 = parameters() of the stored config.
('smollm2-360m-instruct', 'SmolLM2-360M-Instruct', 'HuggingFaceTB/SmolLM2-360M-Instruct', 'llama', 361821120,
 'exact count of config_json (LlamaForCausalLM: 32 x 9,832,320 (GQA 15/5 of 64, MLP 2560) + tied embedding 49152 x 960 + final norm; the model card gives 360M)',
 '{"architectures":["LlamaForCausalLM"],"attention_bias":false,"attention_dropout":0.0,"hidden_act":"silu","hidden_size":960,"intermediate_size":2560,"is_llama_config":true,"max_position_embeddings":8192,"mlp_bias":false,"model_type":"llama","num_attention_heads":15,"num_hidden_layers":32,"num_key_value_heads":5,"rms_norm_eps":1e-05,"rope_interleaved":false,"rope_scaling":null,"rope_theta":100000,"tie_word_embeddings":true,"torch_dtype":"bfloat16","transformers.js_config":{"kv_cache_dtype":{"q4f16":"float16","fp16":"float16"}},"vocab_size":49152}',
 'HuggingFaceTB/SmolLM2-360M-Instruct config.json on the Hugging Face Hub (copy: mlc-ai/mlc-llm python/mlc_llm/model/model_preset.py, commit 79d603f0, preset "smollm2_360m", a Python literal of the Hub file; tests/fixtures/configs/llama/HuggingFaceTB__SmolLM2-360M-Instruct.json)',
 'Hugging Face', 'derived'),
-- 117,561,977,600 = parameters() of the stored config.
('laguna-s-2.1-fp8', 'Laguna S 2.1 FP8', 'poolside/Laguna-S-2.1-FP8', 'laguna', 117561977600,
 'exact count of config_json (Laguna formula of tests/fixtures/configs/laguna/README.md: 12 global layers of 48 heads (44,187,904) and 36 sliding of 72 (63,136,000), dense MLP 12288 in layer 0 (113,246,208), 47 MoE layers of 256 experts of 1024 top 10 with a shared expert (2,426,142,976), norms, embedding and untied head 2 x 100352 x 3072; fixture README hand count 117,561,977,600); sized by default as fp8_block (its quantization_config)',
 '{"architectures":["LagunaForCausalLM"],"attention_bias":false,"attention_dropout":0.0,"decoder_sparse_step":1,"gating":"per-head","gating_types":["per_head","per_head","per_head","per_head","per_head","per_head","per_head","per_head","per_head","per_head","per_head","per_head","per_head","per_head","per_head","per_head","per_head","per_head","per_head","per_head","per_head","per_head","per_head","per_head","per_head","per_head","per_head","per_head","per_head","per_head","per_head","per_head","per_head","per_head","per_head","per_head","per_head","per_head","per_head","per_head","per_head","per_head","per_head","per_head","per_head","per_head","per_head","per_head"],"head_dim":128,"hidden_size":3072,"intermediate_size":12288,"layer_types":["full_attention","sliding_attention","sliding_attention","sliding_attention","full_attention","sliding_attention","sliding_attention","sliding_attention","full_attention","sliding_attention","sliding_attention","sliding_attention","full_attention","sliding_attention","sliding_attention","sliding_attention","full_attention","sliding_attention","sliding_attention","sliding_attention","full_attention","sliding_attention","sliding_attention","sliding_attention","full_attention","sliding_attention","sliding_attention","sliding_attention","full_attention","sliding_attention","sliding_attention","sliding_attention","full_attention","sliding_attention","sliding_attention","sliding_attention","full_attention","sliding_attention","sliding_attention","sliding_attention","full_attention","sliding_attention","sliding_attention","sliding_attention","full_attention","sliding_attention","sliding_attention","sliding_attention"],"max_position_embeddings":262144,"mlp_layer_types":["dense","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse","sparse"],"mlp_only_layers":[0],"model_type":"laguna","moe_apply_router_weight_on_input":false,"moe_intermediate_size":1024,"moe_routed_scaling_factor":2.5,"moe_router_logit_softcapping":0.0,"norm_topk_prob":true,"num_attention_heads":48,"num_attention_heads_per_layer":[48,72,72,72,48,72,72,72,48,72,72,72,48,72,72,72,48,72,72,72,48,72,72,72,48,72,72,72,48,72,72,72,48,72,72,72,48,72,72,72,48,72,72,72,48,72,72,72],"num_experts":256,"num_experts_per_tok":10,"num_hidden_layers":48,"num_key_value_heads":8,"quantization_config":{"config_groups":{"group_0":{"format":"float-quantized","input_activations":{"actorder":null,"block_structure":null,"dynamic":true,"group_size":128,"num_bits":8,"observer":null,"observer_kwargs":{},"scale_dtype":null,"strategy":"group","symmetric":true,"type":"float","zp_dtype":null},"output_activations":null,"targets":["Linear"],"weights":{"actorder":null,"block_structure":[128,128],"dynamic":false,"group_size":null,"num_bits":8,"observer":"memoryless_minmax","observer_kwargs":{},"scale_dtype":null,"strategy":"block","symmetric":true,"type":"float","zp_dtype":null}}},"format":"float-quantized","global_compression_ratio":null,"ignore":["lm_head","model.layers.0.mlp.gate_proj","model.layers.0.mlp.up_proj","model.layers.0.mlp.down_proj","re:.*\\.self_attn\\.q_proj$","re:.*\\.self_attn\\.k_proj$","re:.*\\.self_attn\\.v_proj$","re:.*\\.self_attn\\.o_proj$","re:.*\\.self_attn\\.g_proj$","re:.*\\.mlp\\.gate$","re:.*\\.mlp\\.shared_expert\\.gate_proj$","re:.*\\.mlp\\.shared_expert\\.up_proj$","re:.*\\.mlp\\.shared_expert\\.down_proj$"],"kv_cache_scheme":{"actorder":null,"block_structure":null,"dynamic":false,"group_size":null,"num_bits":8,"observer":"minmax","observer_kwargs":{},"scale_dtype":null,"strategy":"tensor","symmetric":true,"type":"float","zp_dtype":null},"quant_method":"compressed-tensors","quantization_status":"compressed","sparsity_config":{},"transform_config":{},"version":"0.14.1.dev11+gf2ee47b"},"rms_norm_eps":1e-06,"rope_parameters":{"full_attention":{"rope_theta":500000.0,"rope_type":"yarn","factor":32.0,"original_max_position_embeddings":8192,"beta_slow":1.0,"beta_fast":32.0,"attention_factor":1.3465735902799727,"partial_rotary_factor":0.5},"sliding_attention":{"rope_type":"default","rope_theta":10000.0,"partial_rotary_factor":1.0}},"router_aux_loss_coef":0.0,"shared_expert_intermediate_size":1024,"sliding_window":512,"tie_word_embeddings":false,"torch_dtype":"bfloat16","vocab_size":100352}',
 'poolside/Laguna-S-2.1-FP8 config.json on the Hugging Face Hub (copy: ai-dynamo/aiconfigurator aic-core/src/aiconfigurator_core/model_configs/poolside--Laguna-S-2.1-FP8_config.json, commit 1cab08cb; tests/fixtures/configs/laguna/poolside__Laguna-S-2.1-FP8.json); quantization_config kept',
 'Poolside', 'derived')
ON CONFLICT DO NOTHING;

-- Each release's Hugging Face id; Qwen/Qwen2.5-3B-Instruct moves here from 0024_names.sql, which
-- pointed it at qwen2.5-3b.
INSERT INTO model_aliases (alias, model_id) VALUES
('microsoft/Phi-3.5-mini-instruct', 'phi-3.5-mini-instruct'),
('microsoft/Phi-4-mini-instruct', 'phi-4-mini-instruct'),
('TinyLlama/TinyLlama-1.1B-Chat-v1.0', 'tinyllama-1.1b-chat-v1.0'),
('codellama/CodeLlama-7b-hf', 'codellama-7b'),
('codellama/CodeLlama-13b-hf', 'codellama-13b'),
('codellama/CodeLlama-34b-hf', 'codellama-34b'),
('google/gemma-2-2b-jpn-it', 'gemma-2-2b-jpn-it'),
('Qwen/Qwen2-0.5B-Instruct', 'qwen2-0.5b-instruct'),
('Qwen/Qwen2-1.5B-Instruct', 'qwen2-1.5b-instruct'),
('Qwen/Qwen2-7B-Instruct', 'qwen2-7b-instruct'),
('Qwen/Qwen2.5-3B-Instruct', 'qwen2.5-3b-instruct'),
('HuggingFaceTB/SmolLM2-135M-Instruct', 'smollm2-135m-instruct'),
('bigcode/starcoder2-7b', 'starcoder2-7b'),
('HuggingFaceTB/SmolLM2-360M-Instruct', 'smollm2-360m-instruct'),
('poolside/Laguna-S-2.1-FP8', 'laguna-s-2.1-fp8')
ON CONFLICT DO NOTHING;
