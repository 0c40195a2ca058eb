-- Schema version 6: 61 more models, of the model types gpusizer's readers added
-- (server/models/: Qwen3 and Qwen3-MoE, Gemma 3, Granite, SmolLM3, OLMo 2, Cohere
-- and Cohere2, InternLM2, Phi, Qwen v1, OLMoE, PhiMoE, MiniMax-M2, gpt-oss,
-- GLM-4-MoE, Kimi K2, DeepSeek-V3.2; the hybrid Jamba, Nemotron-H and
-- Qwen3-Next; the multimodal Gemma 3, Mistral 3, Mllama, Llama 4, Qwen2.5-VL
-- and Whisper). Data only; no schema change.
--
-- The conventions are those of 0004_seed_models.sql. config_json is the Hugging
-- Face config.json of the repository in hf_id reduced to the architecture fields
-- (token ids, auto_map, quantization_config, transformers_version and similar
-- keys dropped; a value JSON cannot hold, such as Nemotron-H's time_step_limit
-- [0.0, Infinity], is dropped too). Where no verbatim copy of a config.json was
-- found, the row stores the fields that were found, each from the source
-- config_source names, and says "reduced config, not the verbatim file". Configs
-- were found in the code index of public repositories; tests/fixtures/configs/
-- <model_type>/README.md records where each fixture came from and its hand count.
--
-- `parameters` is the count gs_arch_count_params gives for the stored config,
-- which tests/server/test_codec.c checks for every row; the fixtures' READMEs
-- reproduce it by hand from the transformers modeling code. parameters_basis is
-- 'published' only where an exact public total equals it (two rows: OLMo 2 13B
-- and Phi-2, whose safetensors index total_size divided by the float32 width is
-- the count). Every other row is 'derived': its comment quotes the rounded
-- public figure (model card, Hub page) that the exact count agrees with. Mixture
-- of experts checkpoints that also store a multi-token-prediction layer, router
-- bias buffers or FP8 scales (GLM-4.5, MiniMax-M2, Kimi K2, DeepSeek-V3.2) store
-- more than parameters() counts; the comments say so.
--
-- Fine-tuned, instruction-tuned or base siblings with identical shapes share one
-- config; their comment names the sibling whose config is stored.
--
-- ON CONFLICT DO NOTHING, as in 0004: a row a user already added under one of
-- these ids or aliases is kept.

INSERT INTO models (id, name, hf_id, family, parameters, parameters_source, config_json, config_source,
                    publisher, parameters_basis) VALUES
-- 596,049,920 = parameters() of the stored config (tied head counted once); published as "0.6B"
-- (model name and card; the card figure is recalled, not re-read).
('qwen3-0.6b', 'Qwen3-0.6B', 'Qwen/Qwen3-0.6B', 'qwen3', 596049920,
 'exact count of config_json (Qwen3 formula: per-head q_norm/k_norm, tied head); published as 0.6B',
 '{"architectures":["Qwen3ForCausalLM"],"attention_bias":false,"attention_dropout":0.0,"head_dim":128,"hidden_act":"silu","hidden_size":1024,"intermediate_size":3072,"max_position_embeddings":40960,"max_window_layers":28,"model_type":"qwen3","num_attention_heads":16,"num_hidden_layers":28,"num_key_value_heads":8,"rms_norm_eps":1e-06,"rope_scaling":null,"rope_theta":1000000,"sliding_window":null,"tie_word_embeddings":true,"torch_dtype":"bfloat16","use_sliding_window":false,"vocab_size":151936}',
 'Qwen/Qwen3-0.6B config.json on the Hugging Face Hub (copy: ai-dynamo/aiconfigurator aic-core/src/aiconfigurator_core/model_configs/Qwen--Qwen3-0.6B_config.json, commit 095f58a5)',
 'Alibaba Cloud', 'derived'),
-- 1,720,574,976 = parameters() of the stored config (tied head counted once); published as "1.7B"
-- (model name and card; the card figure is recalled, not re-read).
('qwen3-1.7b', 'Qwen3-1.7B', 'Qwen/Qwen3-1.7B', 'qwen3', 1720574976,
 'exact count of config_json (Qwen3 formula, tied head); published as 1.7B',
 '{"architectures":["Qwen3ForCausalLM"],"attention_bias":false,"attention_dropout":0.0,"head_dim":128,"hidden_act":"silu","hidden_size":2048,"intermediate_size":6144,"max_position_embeddings":40960,"max_window_layers":28,"model_type":"qwen3","num_attention_heads":16,"num_hidden_layers":28,"num_key_value_heads":8,"rms_norm_eps":1e-06,"rope_scaling":null,"rope_theta":1000000,"sliding_window":null,"tie_word_embeddings":true,"torch_dtype":"bfloat16","use_sliding_window":false,"vocab_size":151936}',
 'Qwen/Qwen3-1.7B config.json on the Hugging Face Hub (copy: ai-dynamo/aiconfigurator aic-core/src/aiconfigurator_core/model_configs/Qwen--Qwen3-1.7B_config.json, commit 095f58a5)',
 'Alibaba Cloud', 'derived'),
-- 4,022,468,096 = parameters() of the stored config (tied head counted once;
-- tests/fixtures/configs/qwen3/README.md hand count agrees); model card "4.0B".
('qwen3-4b', 'Qwen3-4B', 'Qwen/Qwen3-4B', 'qwen3', 4022468096,
 'exact count of config_json (Qwen3 formula, tied head; fixture README hand count 4,022,468,096); the model card gives 4.0B',
 '{"architectures":["Qwen3ForCausalLM"],"attention_bias":false,"attention_dropout":0.0,"head_dim":128,"hidden_act":"silu","hidden_size":2560,"intermediate_size":9728,"max_position_embeddings":40960,"max_window_layers":36,"model_type":"qwen3","num_attention_heads":32,"num_hidden_layers":36,"num_key_value_heads":8,"rms_norm_eps":1e-06,"rope_scaling":null,"rope_theta":1000000,"sliding_window":null,"tie_word_embeddings":true,"torch_dtype":"bfloat16","use_sliding_window":false,"vocab_size":151936}',
 'Qwen/Qwen3-4B config.json on the Hugging Face Hub (tests/fixtures/configs/qwen3/Qwen__Qwen3-4B.json, copied from kohya-ss/musubi-tuner; same values in code index file id 30247352769)',
 'Alibaba Cloud', 'derived'),
-- 8,190,735,360 = parameters() of the stored config; model card "8.2B, non-embedding 6.95B"
-- (tests/fixtures/configs/qwen3/README.md).
('qwen3-8b', 'Qwen3-8B', 'Qwen/Qwen3-8B', 'qwen3', 8190735360,
 'exact count of config_json (Qwen3 formula; fixture README hand count 8,190,735,360); the model card gives 8.2B, 6.95B non-embedding',
 '{"architectures":["Qwen3ForCausalLM"],"attention_bias":false,"attention_dropout":0.0,"head_dim":128,"hidden_act":"silu","hidden_size":4096,"intermediate_size":12288,"max_position_embeddings":40960,"max_window_layers":36,"model_type":"qwen3","num_attention_heads":32,"num_hidden_layers":36,"num_key_value_heads":8,"rms_norm_eps":1e-06,"rope_scaling":null,"rope_theta":1000000,"sliding_window":null,"tie_word_embeddings":false,"torch_dtype":"bfloat16","use_sliding_window":false,"vocab_size":151936}',
 'Qwen/Qwen3-8B config.json on the Hugging Face Hub (copy: ai-dynamo/aiconfigurator aic-core/src/aiconfigurator_core/model_configs/Qwen--Qwen3-8B_config.json, commit 095f58a5; identical to tests/fixtures/configs/qwen3/Qwen__Qwen3-8B.json)',
 'Alibaba Cloud', 'derived'),
-- 14,768,307,200 = parameters() of the stored config; the model card gives "14.8B"
-- (recalled, not re-read).
('qwen3-14b', 'Qwen3-14B', 'Qwen/Qwen3-14B', 'qwen3', 14768307200,
 'exact count of config_json (Qwen3 formula); the Qwen3-14B model card gives 14.8B (recalled)',
 '{"architectures":["Qwen3ForCausalLM"],"attention_bias":false,"attention_dropout":0.0,"head_dim":128,"hidden_act":"silu","hidden_size":5120,"intermediate_size":17408,"max_position_embeddings":40960,"max_window_layers":40,"model_type":"qwen3","num_attention_heads":40,"num_hidden_layers":40,"num_key_value_heads":8,"rms_norm_eps":1e-06,"rope_scaling":null,"rope_theta":1000000,"sliding_window":null,"tie_word_embeddings":false,"torch_dtype":"bfloat16","use_sliding_window":false,"vocab_size":151936}',
 'Qwen/Qwen3-14B config.json on the Hugging Face Hub (copy: code index file id 30247352769 (a collection of Hub config.json copies))',
 'Alibaba Cloud', 'derived'),
-- 32,762,123,264 = parameters() of the stored config; the model card gives "32.8B"
-- (recalled, not re-read).
('qwen3-32b', 'Qwen3-32B', 'Qwen/Qwen3-32B', 'qwen3', 32762123264,
 'exact count of config_json (Qwen3 formula); the Qwen3-32B model card gives 32.8B (recalled)',
 '{"architectures":["Qwen3ForCausalLM"],"attention_bias":false,"attention_dropout":0.0,"head_dim":128,"hidden_act":"silu","hidden_size":5120,"intermediate_size":25600,"max_position_embeddings":40960,"max_window_layers":64,"model_type":"qwen3","num_attention_heads":64,"num_hidden_layers":64,"num_key_value_heads":8,"rms_norm_eps":1e-06,"rope_scaling":null,"rope_theta":1000000,"sliding_window":null,"tie_word_embeddings":false,"torch_dtype":"bfloat16","use_sliding_window":false,"vocab_size":151936}',
 'Qwen/Qwen3-32B config.json on the Hugging Face Hub (copy: ai-dynamo/aiconfigurator aic-core/src/aiconfigurator_core/model_configs/Qwen--Qwen3-32B_config.json, commit 095f58a5; same values in code index file id 30247352769 (a collection of Hub config.json copies))',
 'Alibaba Cloud', 'derived'),
-- 480,154,875,392 = parameters() of the stored config (62 MoE layers, 160 experts, top-8); the
-- model card gives "480B total, 35B activated".
('qwen3-coder-480b-a35b-instruct', 'Qwen3-Coder-480B-A35B-Instruct', 'Qwen/Qwen3-Coder-480B-A35B-Instruct', 'qwen3_moe', 480154875392,
 'exact count of config_json (Qwen3-MoE formula, all layers MoE); published as 480B total / 35B active (model name; card recalled)',
 '{"architectures":["Qwen3MoeForCausalLM"],"attention_dropout":0.0,"decoder_sparse_step":1,"head_dim":128,"hidden_act":"silu","hidden_size":6144,"intermediate_size":8192,"max_position_embeddings":262144,"max_window_layers":62,"mlp_only_layers":[],"model_type":"qwen3_moe","moe_intermediate_size":2560,"norm_topk_prob":true,"num_attention_heads":96,"num_experts":160,"num_experts_per_tok":8,"num_hidden_layers":62,"num_key_value_heads":8,"qkv_bias":false,"rms_norm_eps":1e-06,"rope_scaling":null,"rope_theta":10000000,"router_aux_loss_coef":0.0,"shared_expert_intermediate_size":0,"sliding_window":null,"tie_word_embeddings":false,"torch_dtype":"bfloat16","use_qk_norm":true,"use_sliding_window":false,"vocab_size":151936}',
 'Qwen/Qwen3-Coder-480B-A35B-Instruct config.json on the Hugging Face Hub (copy: ai-dynamo/aiconfigurator aic-core/src/aiconfigurator_core/model_configs/Qwen--Qwen3-Coder-480B-A35B-Instruct_config.json, commit 095f58a5)',
 'Alibaba Cloud', 'derived'),
-- 999,885,952 = parameters() of the stored config (tied head;
-- tests/fixtures/configs/gemma3_text/README.md hand count agrees); model page "1B".
('gemma-3-1b-it', 'Gemma 3 1B IT', 'google/gemma-3-1b-it', 'gemma3_text', 999885952,
 'exact count of config_json (Gemma 3 text formula, per-head q/k norms, four norms per layer, tied head; fixture README hand count 999,885,952); published as 1B (model name)',
 '{"architectures":["Gemma3ForCausalLM"],"attention_bias":false,"attention_dropout":0.0,"attn_logit_softcapping":null,"cache_implementation":"hybrid","final_logit_softcapping":null,"head_dim":256,"hidden_activation":"gelu_pytorch_tanh","hidden_size":1152,"intermediate_size":6912,"max_position_embeddings":32768,"model_type":"gemma3_text","num_attention_heads":4,"num_hidden_layers":26,"num_key_value_heads":1,"query_pre_attn_scalar":256,"rms_norm_eps":1e-06,"rope_local_base_freq":10000,"rope_scaling":null,"rope_theta":1000000,"sliding_window":512,"sliding_window_pattern":6,"torch_dtype":"bfloat16","vocab_size":262144}',
 'google/gemma-3-1b-it config.json on the Hugging Face Hub (tests/fixtures/configs/gemma3_text/google__gemma-3-1b-it.json, copied from the JSON block in Liwink/gemma-jax models/README.md)',
 'Google', 'derived'),
-- 999,885,952: config of the instruction-tuned sibling gemma-3-1b-it (same shapes), stored here
-- for the pre-trained checkpoint.
('gemma-3-1b-pt', 'Gemma 3 1B', 'google/gemma-3-1b-pt', 'gemma3_text', 999885952,
 'exact count of the gemma-3-1b-it config (identical shapes to the pre-trained checkpoint); published as 1B (model name)',
 '{"architectures":["Gemma3ForCausalLM"],"attention_bias":false,"attention_dropout":0.0,"attn_logit_softcapping":null,"cache_implementation":"hybrid","final_logit_softcapping":null,"head_dim":256,"hidden_activation":"gelu_pytorch_tanh","hidden_size":1152,"intermediate_size":6912,"max_position_embeddings":32768,"model_type":"gemma3_text","num_attention_heads":4,"num_hidden_layers":26,"num_key_value_heads":1,"query_pre_attn_scalar":256,"rms_norm_eps":1e-06,"rope_local_base_freq":10000,"rope_scaling":null,"rope_theta":1000000,"sliding_window":512,"sliding_window_pattern":6,"torch_dtype":"bfloat16","vocab_size":262144}',
 'google/gemma-3-1b-it config.json on the Hugging Face Hub (tests/fixtures/configs/gemma3_text/google__gemma-3-1b-it.json, copied from the JSON block in Liwink/gemma-jax models/README.md); the pre-trained sibling google/gemma-3-1b-pt has the same shapes',
 'Google', 'derived'),
-- 8,170,864,640 = parameters() of the stored config (tied head;
-- tests/fixtures/configs/granite/README.md hand count agrees); model card "8B".
('granite-3.3-8b-instruct', 'Granite 3.3 8B Instruct', 'ibm-granite/granite-3.3-8b-instruct', 'granite', 8170864640,
 'exact count of config_json (Granite formula, tied head; fixture README hand count 8,170,864,640); published as 8B',
 '{"architectures":["GraniteForCausalLM"],"attention_bias":false,"attention_dropout":0.0,"attention_multiplier":0.0078125,"embedding_multiplier":12.0,"hidden_act":"silu","hidden_size":4096,"intermediate_size":12800,"logits_scaling":16.0,"max_position_embeddings":131072,"mlp_bias":false,"model_type":"granite","num_attention_heads":32,"num_hidden_layers":40,"num_key_value_heads":8,"residual_multiplier":0.22,"rms_norm_eps":1e-05,"rope_scaling":null,"rope_theta":10000000.0,"tie_word_embeddings":true,"torch_dtype":"bfloat16","vocab_size":49159}',
 'ibm-granite/granite-3.3-8b-instruct config.json on the Hugging Face Hub (tests/fixtures/configs/granite/, from a config dump in code index file id 61558565367)',
 'IBM', 'derived'),
-- 2,533,531,648 = parameters() of the stored config (tied head); published "2.53B" (code index id
-- 68624493177, granite-3.1-2b "2_530_000_000 computed from AutoConfig").
('granite-3.1-2b-base', 'Granite 3.1 2B Base', 'ibm-granite/granite-3.1-2b-base', 'granite', 2533531648,
 'exact count of config_json (Granite formula, tied head); published as 2.53B',
 '{"architectures":["GraniteForCausalLM"],"model_type":"granite","hidden_size":2048,"intermediate_size":8192,"num_hidden_layers":40,"num_attention_heads":32,"num_key_value_heads":8,"vocab_size":49155,"rope_theta":5000000.0,"tie_word_embeddings":true}',
 'ibm-granite/granite-3.1-2b-base config.json fields (hidden 2048, intermediate 8192, 40 layers, 32 heads, 8 KV heads, vocab 49155, rope_theta 5e6) from a Rust test marked "Exact config from ibm-granite/granite-3.1-2b-base" (code index id 61124332828); tie_word_embeddings true as in the Granite 3.x configs (the 2.53B published size needs a tied head); reduced config, not the verbatim file',
 'IBM', 'derived'),
-- 2,533,531,648: the granite-3.1-2b-base config (same shapes); published "2.53B" for
-- granite-3.1-2b-instruct (code index id 68624493177).
('granite-3.1-2b-instruct', 'Granite 3.1 2B Instruct', 'ibm-granite/granite-3.1-2b-instruct', 'granite', 2533531648,
 'exact count of the granite-3.1-2b-base config (same shapes as the instruct checkpoint); published as 2.53B',
 '{"architectures":["GraniteForCausalLM"],"model_type":"granite","hidden_size":2048,"intermediate_size":8192,"num_hidden_layers":40,"num_attention_heads":32,"num_key_value_heads":8,"vocab_size":49155,"rope_theta":5000000.0,"tie_word_embeddings":true}',
 'ibm-granite/granite-3.1-2b-base config.json fields (hidden 2048, intermediate 8192, 40 layers, 32 heads, 8 KV heads, vocab 49155, rope_theta 5e6) from a Rust test marked "Exact config from ibm-granite/granite-3.1-2b-base" (code index id 61124332828); tie_word_embeddings true as in the Granite 3.x configs (the 2.53B published size needs a tied head); reduced config, not the verbatim file; granite-3.1-2b-instruct is its instruction-tuned sibling with the same shapes',
 'IBM', 'derived'),
-- 3,075,098,624 = parameters() of the stored config (tied head; no tie key, SmolLM3Config default
-- True). The mirror's two safetensors files hold 6,150,235,008 B = 2 x 3,075,098,624 + 37,760 B of
-- headers (tests/fixtures/configs/smollm3/README.md); HF page "3.08B".
('smollm3-3b', 'SmolLM3 3B', 'HuggingFaceTB/SmolLM3-3B', 'smollm3', 3075098624,
 'exact count of config_json (tied head); consistent with the safetensors file sizes of the HuggingFaceTB/SmolLM3-3B mirror (2 x 3,075,098,624 + 37,760 header bytes); HF page 3.08B',
 '{"architectures":["SmolLM3ForCausalLM"],"attention_bias":false,"attention_dropout":0.0,"hidden_act":"silu","hidden_size":2048,"intermediate_size":11008,"layer_types":["full_attention","full_attention","full_attention","full_attention","full_attention","full_attention","full_attention","full_attention","full_attention","full_attention","full_attention","full_attention","full_attention","full_attention","full_attention","full_attention","full_attention","full_attention","full_attention","full_attention","full_attention","full_attention","full_attention","full_attention","full_attention","full_attention","full_attention","full_attention","full_attention","full_attention","full_attention","full_attention","full_attention","full_attention","full_attention","full_attention"],"max_position_embeddings":65536,"max_window_layers":28,"mlp_bias":false,"model_type":"smollm3","no_rope_layer_interval":4,"no_rope_layers":[1,1,1,0,1,1,1,0,1,1,1,0,1,1,1,0,1,1,1,0,1,1,1,0,1,1,1,0,1,1,1,0,1,1,1,0],"num_attention_heads":16,"num_hidden_layers":36,"num_key_value_heads":4,"rms_norm_eps":1e-06,"rope_scaling":null,"rope_theta":5000000.0,"sliding_window":null,"torch_dtype":"bfloat16","use_sliding_window":false,"vocab_size":128256}',
 'HuggingFaceTB/SmolLM3-3B config.json on the Hugging Face Hub (tests/fixtures/configs/smollm3/, copy from the fetchwiki/HuggingFaceTB-SmolLM3-3B mirror)',
 'Hugging Face', 'derived'),
-- 1,484,916,736 = parameters() of the stored config (untied head, full-width q/k norms); published
-- as "1B" (model name).
('olmo-2-0425-1b', 'OLMo 2 1B', 'allenai/OLMo-2-0425-1B', 'olmo2', 1484916736,
 'exact count of config_json (OLMo 2 formula: full-width q_norm/k_norm, post-norms, untied head); published as 1B (model name)',
 '{"architectures":["Olmo2ForCausalLM"],"attention_bias":false,"attention_dropout":0.0,"hidden_act":"silu","hidden_size":2048,"intermediate_size":8192,"max_position_embeddings":4096,"model_type":"olmo2","num_attention_heads":16,"num_hidden_layers":16,"num_key_value_heads":16,"rms_norm_eps":1e-06,"rope_theta":500000.0,"tie_word_embeddings":false,"torch_dtype":"bfloat16","vocab_size":100352}',
 'allenai/OLMo-2-0425-1B config.json as mirrored in a Megatron-Bridge OLMo-2 test fixture ("Mirror of allenai/OLMo-2-0425-1B/config.json", code index id 56292883532); token ids dropped',
 'Ai2', 'derived'),
-- 7,298,617,344 = parameters() of the stored config; published as "7B" (model name).
('olmo-2-1124-7b', 'OLMo 2 7B', 'allenai/OLMo-2-1124-7B', 'olmo2', 7298617344,
 'exact count of config_json (OLMo 2 formula); published as 7B (model name)',
 '{"architectures":["Olmo2ForCausalLM"],"attention_bias":false,"attention_dropout":0.0,"hidden_act":"silu","hidden_size":4096,"intermediate_size":11008,"max_position_embeddings":4096,"model_type":"olmo2","num_attention_heads":32,"num_hidden_layers":32,"num_key_value_heads":32,"rms_norm_eps":1e-06,"rope_theta":500000.0,"tie_word_embeddings":false,"torch_dtype":"bfloat16","vocab_size":100352}',
 'allenai/OLMo-2-1124-7B config.json as mirrored in a Megatron-Bridge OLMo-2 test fixture ("Mirror of allenai/OLMo-2-1124-7B/config.json", code index id 56292883532); token ids dropped',
 'Ai2', 'derived'),
-- 7,298,617,344: config of the base sibling OLMo-2-1124-7B (same shapes).
('olmo-2-1124-7b-instruct', 'OLMo 2 7B Instruct', 'allenai/OLMo-2-1124-7B-Instruct', 'olmo2', 7298617344,
 'exact count of the OLMo-2-1124-7B config (same shapes as the Instruct checkpoint); published as 7B (model name)',
 '{"architectures":["Olmo2ForCausalLM"],"attention_bias":false,"attention_dropout":0.0,"hidden_act":"silu","hidden_size":4096,"intermediate_size":11008,"max_position_embeddings":4096,"model_type":"olmo2","num_attention_heads":32,"num_hidden_layers":32,"num_key_value_heads":32,"rms_norm_eps":1e-06,"rope_theta":500000.0,"tie_word_embeddings":false,"torch_dtype":"bfloat16","vocab_size":100352}',
 'the allenai/OLMo-2-1124-7B config (code index id 56292883532); the Instruct checkpoint is its fine-tune with the same shapes',
 'Ai2', 'derived'),
-- 13,716,198,400 = model.safetensors.index.json total_size 54,864,793,600 / 4 (float32 weights;
-- copy in mauer4/Attention-From-Scratch, commit 381a295f), and the parameters() count of the
-- stored config.
('olmo-2-1124-13b', 'OLMo 2 13B', 'allenai/OLMo-2-1124-13B', 'olmo2', 13716198400,
 'allenai/OLMo-2-1124-13B model.safetensors.index.json total_size 54,864,793,600 bytes / 4 (float32) = 13,716,198,400 (copy in mauer4/Attention-From-Scratch, commit 381a295f); equals the OLMo 2 formula applied to config_json',
 '{"architectures":["Olmo2ForCausalLM"],"attention_bias":false,"attention_dropout":0.0,"hidden_act":"silu","hidden_size":5120,"intermediate_size":13824,"max_position_embeddings":4096,"model_type":"olmo2","num_attention_heads":40,"num_hidden_layers":40,"num_key_value_heads":40,"rms_norm_eps":1e-06,"rope_scaling":null,"rope_theta":500000,"tie_word_embeddings":false,"torch_dtype":"float32","vocab_size":100352}',
 'allenai/OLMo-2-1124-13B config.json on the Hugging Face Hub (tests/fixtures/configs/olmo2/, verbatim copy in mauer4/Attention-From-Scratch weights/allenai/OLMo-2-1124-13B/config.json, commit 381a295f)',
 'Ai2', 'published'),
-- 13,716,198,400 = the exact total of the base sibling OLMo-2-1124-13B (same shapes; its
-- safetensors index total_size 54,864,793,600 / 4), and the parameters() count of the stored
-- config.
('olmo-2-1124-13b-instruct', 'OLMo 2 13B Instruct', 'allenai/OLMo-2-1124-13B-Instruct', 'olmo2', 13716198400,
 'allenai/OLMo-2-1124-13B (base sibling, same shapes) safetensors index total_size 54,864,793,600 / 4 = 13,716,198,400; equals the OLMo 2 formula applied to config_json',
 '{"architectures":["Olmo2ForCausalLM"],"attention_bias":false,"attention_dropout":0.0,"hidden_act":"silu","hidden_size":5120,"intermediate_size":13824,"max_position_embeddings":4096,"model_type":"olmo2","num_attention_heads":40,"num_hidden_layers":40,"num_key_value_heads":40,"rms_norm_eps":1e-06,"rope_scaling":null,"rope_theta":500000,"tie_word_embeddings":false,"torch_dtype":"bfloat16","vocab_size":100352}',
 'allenai/OLMo-2-1124-13B-Instruct config.json on the Hugging Face Hub (verbatim copy: mauer4/Attention-From-Scratch weights/allenai/OLMo-2-1124-13B-Instruct/config.json, commit 7b2eb954); _name_or_path and token ids dropped',
 'Ai2', 'published'),
-- 8,028,033,024 = parameters() of the stored config (tied head;
-- tests/fixtures/configs/cohere/README.md hand count agrees); HF page "8.03B".
('aya-23-8b', 'Aya 23 8B', 'CohereForAI/aya-23-8B', 'cohere', 8028033024,
 'exact count of config_json (Cohere formula: one weight-only LayerNorm per layer, parallel block, tied head; fixture README hand count 8,028,033,024); published as 8B',
 '{"architectures":["CohereForCausalLM"],"attention_bias":false,"attention_dropout":0.0,"hidden_act":"silu","hidden_size":4096,"intermediate_size":14336,"layer_norm_eps":1e-05,"logit_scale":0.0625,"max_position_embeddings":8192,"model_type":"cohere","num_attention_heads":32,"num_hidden_layers":32,"num_key_value_heads":8,"rope_theta":10000,"torch_dtype":"float16","use_qk_norm":false,"vocab_size":256000}',
 'CohereForAI/aya-23-8B config.json (tests/fixtures/configs/cohere/, from mlc-ai/mlc-llm model_preset.py "aya-23", commit 01ced331; shape identifies the 8B)',
 'Cohere', 'derived'),
-- 34,980,831,232 = parameters() of the stored config (tied head;
-- tests/fixtures/configs/cohere/README.md hand count agrees); model card "35 billion parameters".
('c4ai-command-r-v01', 'Command R (v01)', 'CohereForAI/c4ai-command-r-v01', 'cohere', 34980831232,
 'exact count of config_json (Cohere formula, tied head); the model card gives 35 billion',
 '{"architectures":["CohereForCausalLM"],"model_type":"cohere","hidden_size":8192,"intermediate_size":22528,"num_hidden_layers":40,"num_attention_heads":64,"num_key_value_heads":64,"layer_norm_eps":1e-05,"logit_scale":0.0625,"rope_theta":8000000.0,"use_qk_norm":false,"tie_word_embeddings":true,"vocab_size":256000,"max_position_embeddings":8192}',
 'CohereForAI/c4ai-command-r-v01 config fields from a COHERE_CONFIG preset dict (code index id 55805448694, keys embed_dim/num_layers/num_heads/num_kv_heads/mlp_dim/norm_eps/tie_embeddings mapped to the HF names); the same values and max_position_embeddings 8192 in a Rust test config (code index id 66506734381); reduced config, not the verbatim file',
 'Cohere', 'derived'),
-- 32,296,476,672 = parameters() of the stored config (GQA, 8 KV heads; tied head); published as
-- "32B".
('c4ai-command-r-08-2024', 'Command R 08-2024', 'CohereForAI/c4ai-command-r-08-2024', 'cohere', 32296476672,
 'exact count of config_json (Cohere formula, tied head); published as 32B',
 '{"architectures":["CohereForCausalLM"],"model_type":"cohere","hidden_size":8192,"intermediate_size":24576,"num_hidden_layers":40,"num_attention_heads":64,"num_key_value_heads":8,"layer_norm_eps":1e-05,"logit_scale":0.0625,"rope_theta":4000000.0,"use_qk_norm":false,"tie_word_embeddings":true,"vocab_size":256000}',
 'CohereForAI/c4ai-command-r-08-2024 config fields from a COHERE_CONFIG preset dict (code index id 55805448694, keys embed_dim/num_layers/num_heads/num_kv_heads/mlp_dim/norm_eps/tie_embeddings mapped to the HF names); reduced config, not the verbatim file',
 'Cohere', 'derived'),
-- 103,809,822,720 = parameters() of the stored config (tied head); the model card gives "104
-- billion parameters".
('c4ai-command-r-plus', 'Command R+', 'CohereForAI/c4ai-command-r-plus', 'cohere', 103809822720,
 'exact count of config_json (Cohere formula, tied head); the model card gives 104B (recalled)',
 '{"architectures":["CohereForCausalLM"],"model_type":"cohere","hidden_size":12288,"intermediate_size":33792,"num_hidden_layers":64,"num_attention_heads":96,"num_key_value_heads":8,"layer_norm_eps":1e-05,"logit_scale":0.8333333333333334,"rope_theta":75000000.0,"use_qk_norm":false,"tie_word_embeddings":true,"vocab_size":256000}',
 'CohereForAI/c4ai-command-r-plus config fields from a COHERE_CONFIG preset dict (code index id 55805448694, keys embed_dim/num_layers/num_heads/num_kv_heads/mlp_dim/norm_eps/tie_embeddings mapped to the HF names); reduced config, not the verbatim file',
 'Cohere', 'derived'),
-- 8,028,033,024 = parameters() of the stored config (tied head;
-- tests/fixtures/configs/cohere2/README.md hand count agrees); HF page "8.03B", card "7 billion".
('c4ai-command-r7b-12-2024', 'Command R7B 12-2024', 'CohereForAI/c4ai-command-r7b-12-2024', 'cohere2', 8028033024,
 'exact count of config_json (Cohere2 formula, tied head; fixture README hand count 8,028,033,024); published as 8.03B (card: 7 billion)',
 '{"architectures":["Cohere2ForCausalLM"],"attention_bias":false,"head_dim":128,"hidden_act":"silu","hidden_size":4096,"intermediate_size":14336,"layer_norm_eps":1e-05,"logit_scale":0.25,"max_position_embeddings":132096,"model_type":"cohere2","num_attention_heads":32,"num_hidden_layers":32,"num_key_value_heads":8,"order_of_interleaved_layers":"local_attn_first","position_embedding_type":"rope_gptj","rope_theta":50000.0,"rotary_pct":1.0,"sliding_window":4096,"sliding_window_pattern":4,"tie_word_embeddings":true,"use_gated_activation":true,"vocab_size":256000}',
 'CohereForAI/c4ai-command-r7b-12-2024 config fields (tests/fixtures/configs/cohere2/: a COHERE2_CONFIG preset, code index id 56084358836, plus cited keys); reconstructed subset, not the verbatim file',
 'Cohere', 'derived'),
-- 7,737,708,544 = parameters() of the stored config (fused wqkv, untied output;
-- tests/fixtures/configs/internlm2/README.md hand count agrees); HF page "7.74B".
('internlm2.5-7b-chat', 'InternLM2.5 7B Chat', 'internlm/internlm2_5-7b-chat', 'internlm2', 7737708544,
 'exact count of config_json (InternLM2 formula; fixture README hand count 7,737,708,544); published as 7.74B',
 '{"architectures":["InternLM2ForCausalLM"],"attn_implementation":"eager","bias":false,"hidden_act":"silu","hidden_size":4096,"intermediate_size":14336,"max_position_embeddings":32768,"model_type":"internlm2","num_attention_heads":32,"num_hidden_layers":32,"num_key_value_heads":8,"rms_norm_eps":1e-05,"rope_scaling":{"type":"dynamic","factor":2.0},"rope_theta":1000000,"tie_word_embeddings":false,"torch_dtype":"bfloat16","vocab_size":92544}',
 'internlm/internlm2_5-7b-chat config.json (tests/fixtures/configs/internlm2/, quoted in an LMDeploy tutorial, code index id 8133980470)',
 'Shanghai AI Laboratory', 'derived'),
-- 1,418,270,720 = parameters() of the stored config (biased lm_head, untied); the model card says "1.3
-- billion parameters" (recalled, not re-read).
('phi-1_5', 'Phi-1.5', 'microsoft/phi-1_5', 'phi', 1418270720,
 'exact count of config_json (Phi formula: biased projections, one LayerNorm per layer, biased lm_head); the model card gives 1.3 billion (recalled)',
 '{"architectures":["PhiForCausalLM"],"attention_dropout":0.0,"embd_pdrop":0.0,"hidden_act":"gelu_new","hidden_size":2048,"intermediate_size":8192,"layer_norm_eps":1e-05,"max_position_embeddings":2048,"model_type":"phi","num_attention_heads":32,"num_hidden_layers":24,"num_key_value_heads":32,"partial_rotary_factor":0.5,"qk_layernorm":false,"resid_pdrop":0.0,"rope_scaling":null,"rope_theta":10000.0,"tie_word_embeddings":false,"torch_dtype":"float16","vocab_size":51200}',
 'microsoft/phi-1_5 configuration as printed by transformers (PhiConfig dump with _name_or_path microsoft/phi-1_5 and the parameter shapes, code index id 1270800079); token ids dropped',
 'Microsoft', 'derived'),
-- 2,779,683,840 = model.safetensors.index.json total_size 11,118,735,360 / 4 (float32; copy in
-- gmadiyar00/tapssp-project), and the parameters() count of the stored config.
('phi-2', 'Phi-2', 'microsoft/phi-2', 'phi', 2779683840,
 'microsoft/phi-2 model.safetensors.index.json total_size 11,118,735,360 bytes / 4 (float32) = 2,779,683,840 (copy in gmadiyar00/tapssp-project); equals the Phi formula applied to config_json',
 '{"architectures":["PhiForCausalLM"],"attention_dropout":0.0,"embd_pdrop":0.0,"hidden_act":"gelu_new","hidden_size":2560,"intermediate_size":10240,"layer_norm_eps":1e-05,"max_position_embeddings":2048,"model_type":"phi","num_attention_heads":32,"num_hidden_layers":32,"num_key_value_heads":32,"partial_rotary_factor":0.4,"qk_layernorm":false,"resid_pdrop":0.1,"rope_scaling":null,"rope_theta":10000.0,"tie_word_embeddings":false,"torch_dtype":"float16","vocab_size":51200}',
 'microsoft/phi-2 config.json on the Hugging Face Hub (tests/fixtures/configs/phi/, verbatim copy in henryhmko/VLM_interpretability phi-2/config.json, commit 53ca1a97)',
 'Microsoft', 'published'),
-- 7,721,324,544 = parameters() of the stored config (c_attn with bias, halved intermediate_size;
-- tests/fixtures/configs/qwen/README.md hand count agrees); model card "7B" (7.7B).
('qwen-7b', 'Qwen-7B', 'Qwen/Qwen-7B', 'qwen', 7721324544,
 'exact count of config_json (Qwen v1 formula; fixture README hand count 7,721,324,544); published as 7.7B',
 '{"architectures":["QWenLMHeadModel"],"attn_dropout_prob":0.0,"bf16":false,"emb_dropout_prob":0.0,"fp16":false,"fp32":false,"hidden_size":4096,"intermediate_size":22016,"kv_channels":128,"layer_norm_epsilon":1e-06,"max_position_embeddings":32768,"model_type":"qwen","no_bias":true,"num_attention_heads":32,"num_hidden_layers":32,"onnx_safe":null,"rotary_emb_base":10000,"rotary_pct":1.0,"scale_attn_weights":true,"seq_length":8192,"tie_word_embeddings":false,"tokenizer_class":"QWenTokenizer","use_dynamic_ntk":true,"use_flash_attn":"auto","use_logn_attn":true,"vocab_size":151936}',
 'Qwen/Qwen-7B config.json (tests/fixtures/configs/qwen/: fields from a Levanter test get_config(), code index id 910551238, auto_map from a Go config test)',
 'Alibaba Cloud', 'derived'),
-- 7,721,324,544: config of the base sibling Qwen-7B (same shapes).
('qwen-7b-chat', 'Qwen-7B-Chat', 'Qwen/Qwen-7B-Chat', 'qwen', 7721324544,
 'exact count of the Qwen-7B config (same shapes as the Chat checkpoint); published as 7.7B',
 '{"architectures":["QWenLMHeadModel"],"attn_dropout_prob":0.0,"bf16":false,"emb_dropout_prob":0.0,"fp16":false,"fp32":false,"hidden_size":4096,"intermediate_size":22016,"kv_channels":128,"layer_norm_epsilon":1e-06,"max_position_embeddings":32768,"model_type":"qwen","no_bias":true,"num_attention_heads":32,"num_hidden_layers":32,"onnx_safe":null,"rotary_emb_base":10000,"rotary_pct":1.0,"scale_attn_weights":true,"seq_length":8192,"tie_word_embeddings":false,"tokenizer_class":"QWenTokenizer","use_dynamic_ntk":true,"use_flash_attn":"auto","use_logn_attn":true,"vocab_size":151936}',
 'Qwen/Qwen-7B config.json (tests/fixtures/configs/qwen/: fields from a Levanter test get_config(), code index id 910551238, auto_map from a Go config test); Qwen-7B-Chat is its fine-tune with the same shapes',
 'Alibaba Cloud', 'derived'),
-- 6,919,161,856 = parameters() of the stored config (64 experts, top-8, full-width q/k norms;
-- tests/fixtures/configs/olmoe/README.md hand count agrees); paper "6.9B total, 1.3B active".
('olmoe-1b-7b-0924', 'OLMoE 1B-7B (0924)', 'allenai/OLMoE-1B-7B-0924', 'olmoe', 6919161856,
 'exact count of config_json (OLMoE formula; fixture README hand count 6,919,161,856); the paper gives 6.9B total / 1.3B active',
 '{"architectures":["OlmoeForCausalLM"],"attention_bias":false,"attention_dropout":0.0,"clip_qkv":null,"hidden_act":"silu","hidden_size":2048,"intermediate_size":1024,"max_position_embeddings":4096,"model_type":"olmoe","norm_topk_prob":false,"num_attention_heads":16,"num_experts":64,"num_experts_per_tok":8,"num_hidden_layers":16,"num_key_value_heads":16,"rms_norm_eps":1e-05,"rope_scaling":null,"rope_theta":10000.0,"router_aux_loss_coef":0.01,"tie_word_embeddings":false,"torch_dtype":"bfloat16","vocab_size":50304}',
 'allenai/OLMoE-1B-7B-0924 config (tests/fixtures/configs/olmoe/: rebuilt field by field from a test stating the real routing shape, the NVIDIA Megatron-Bridge page and the OlmoeConfig defaults)',
 'Ai2', 'derived'),
-- 6,919,161,856: config of the base sibling OLMoE-1B-7B-0924 (same shapes).
('olmoe-1b-7b-0924-instruct', 'OLMoE 1B-7B Instruct (0924)', 'allenai/OLMoE-1B-7B-0924-Instruct', 'olmoe', 6919161856,
 'exact count of the OLMoE-1B-7B-0924 config (same shapes as the Instruct checkpoint); published as 6.9B',
 '{"architectures":["OlmoeForCausalLM"],"attention_bias":false,"attention_dropout":0.0,"clip_qkv":null,"hidden_act":"silu","hidden_size":2048,"intermediate_size":1024,"max_position_embeddings":4096,"model_type":"olmoe","norm_topk_prob":false,"num_attention_heads":16,"num_experts":64,"num_experts_per_tok":8,"num_hidden_layers":16,"num_key_value_heads":16,"rms_norm_eps":1e-05,"rope_scaling":null,"rope_theta":10000.0,"router_aux_loss_coef":0.01,"tie_word_embeddings":false,"torch_dtype":"bfloat16","vocab_size":50304}',
 'allenai/OLMoE-1B-7B-0924 config (tests/fixtures/configs/olmoe/: rebuilt field by field from a test stating the real routing shape, the NVIDIA Megatron-Bridge page and the OlmoeConfig defaults); the Instruct checkpoint is its fine-tune with the same shapes',
 'Ai2', 'derived'),
-- 41,873,153,344 = parameters() of the stored config (16 experts, top-2, LayerNorm with bias,
-- biased lm_head; tests/fixtures/configs/phimoe/README.md hand count agrees); "6.6B active" (Azure
-- card), HF badge "41.9B".
('phi-3.5-moe-instruct', 'Phi-3.5-MoE Instruct', 'microsoft/Phi-3.5-MoE-instruct', 'phimoe', 41873153344,
 'exact count of config_json (PhiMoE formula; fixture README hand count 41,873,153,344); published as 41.9B total / 6.6B active',
 '{"architectures":["PhiMoEForCausalLM"],"model_type":"phimoe","vocab_size":32064,"hidden_size":4096,"intermediate_size":6400,"num_hidden_layers":32,"num_attention_heads":32,"num_key_value_heads":8,"num_local_experts":16,"num_experts_per_tok":2,"max_position_embeddings":131072,"original_max_position_embeddings":4096,"sliding_window":131072,"rope_theta":10000.0,"rms_norm_eps":1e-05,"attention_bias":true,"lm_head_bias":true,"hidden_dropout":0.0,"hidden_act":"silu","router_aux_loss_coef":0.0,"router_jitter_noise":0.01,"input_jitter_noise":0.01,"torch_dtype":"bfloat16","tie_word_embeddings":false}',
 'microsoft/Phi-3.5-MoE-instruct config.json fields as asserted by a test that loads the published file (code index id 41338317673; tests/fixtures/configs/phimoe/); longrope factor lists omitted; reduced config, not the verbatim file',
 'Microsoft', 'derived'),
-- 228,689,748,992 = parameters() of the stored config (62 layers, 256 experts, top-8, no MTP;
-- tests/fixtures/configs/minimax_m2/README.md hand count agrees); transformers docs "230 billion
-- total, 10 billion active" (the gap is the MTP modules).
('minimax-m2', 'MiniMax-M2', 'MiniMaxAI/MiniMax-M2', 'minimax_m2', 228689748992,
 'exact count of config_json (MiniMax-M2 formula: full-width q/k norms, routing bias a buffer, MTP not built; fixture README hand count 228,689,748,992); published as 230B total / 10B active',
 '{"architectures":["MiniMaxM2ForCausalLM"],"model_type":"minimax_m2","head_dim":128,"hidden_act":"silu","hidden_size":3072,"intermediate_size":1536,"max_position_embeddings":196608,"mtp_transformer_layers":1,"num_mtp_modules":3,"num_attention_heads":48,"num_key_value_heads":8,"num_hidden_layers":62,"num_local_experts":256,"num_experts_per_tok":8,"qk_norm_type":"per_layer","rms_norm_eps":1e-06,"rope_theta":5000000,"rotary_dim":64,"scoring_func":"sigmoid","shared_intermediate_size":0,"tie_word_embeddings":false,"use_mtp":true,"use_qk_norm":true,"use_routing_bias":true,"vocab_size":200064}',
 'architecture fields of a MiniMax-M2 family config.json (tests/fixtures/configs/minimax_m2/MiniMaxAI__MiniMax-M2.reduced.json: the M2.5 copy in code index id 62530921554; same geometry as M2 per the transformers docs 230B/10B); reduced config, not the verbatim M2 file',
 'MiniMax', 'derived'),
-- 228,689,748,992 = parameters() of the stored config (the MTP modules are not built by
-- transformers).
('minimax-m2.5', 'MiniMax-M2.5', 'MiniMaxAI/MiniMax-M2.5', 'minimax_m2', 228689748992,
 'exact count of config_json (MiniMax-M2 formula, MTP not built); published as 230B total / 10B active',
 '{"architectures":["MiniMaxM2ForCausalLM"],"model_type":"minimax_m2","num_hidden_layers":62,"hidden_size":3072,"num_attention_heads":48,"num_key_value_heads":8,"head_dim":128,"intermediate_size":1536,"vocab_size":200064,"num_experts_per_tok":8,"num_local_experts":256,"max_position_embeddings":196608,"rope_theta":5000000,"rotary_dim":64,"hidden_act":"silu","rms_norm_eps":1e-06,"tie_word_embeddings":false,"use_qk_norm":true,"qk_norm_type":"per_layer","use_routing_bias":true,"use_mtp":true,"mtp_transformer_layers":1,"num_mtp_modules":3,"shared_intermediate_size":0,"scoring_func":"sigmoid"}',
 'MiniMaxAI/MiniMax-M2.5 config.json on the Hugging Face Hub (copy: ai-dynamo/aiconfigurator aic-core/src/aiconfigurator_core/model_configs/MiniMaxAI--MiniMax-M2.5_config.json, commit 095f58a5); quantization_config and auto_map dropped',
 'MiniMax', 'derived'),
-- 20,914,757,184 = parameters() of the stored config (24 layers, 32 experts with biases, attention
-- sinks; tests/fixtures/configs/gpt_oss/README.md hand count agrees); model card / paper "20.91B
-- total, 3.61B active".
('gpt-oss-20b', 'gpt-oss-20b', 'openai/gpt-oss-20b', 'gpt_oss', 20914757184,
 'exact count of config_json (gpt-oss formula; fixture README hand count 20,914,757,184); the gpt-oss model card gives 20.91B total / 3.61B active',
 '{"architectures":["GptOssForCausalLM"],"attention_bias":true,"attention_dropout":0.0,"experts_per_token":4,"head_dim":64,"hidden_act":"silu","hidden_size":2880,"initial_context_length":4096,"intermediate_size":2880,"layer_types":["sliding_attention","full_attention","sliding_attention","full_attention","sliding_attention","full_attention","sliding_attention","full_attention","sliding_attention","full_attention","sliding_attention","full_attention","sliding_attention","full_attention","sliding_attention","full_attention","sliding_attention","full_attention","sliding_attention","full_attention","sliding_attention","full_attention","sliding_attention","full_attention"],"max_position_embeddings":131072,"model_type":"gpt_oss","num_attention_heads":64,"num_experts_per_tok":4,"num_hidden_layers":24,"num_key_value_heads":8,"num_local_experts":32,"rms_norm_eps":1e-05,"rope_scaling":{"beta_fast":32.0,"beta_slow":1.0,"factor":32.0,"original_max_position_embeddings":4096,"rope_type":"yarn","truncate":false},"rope_theta":150000,"router_aux_loss_coef":0.9,"sliding_window":128,"swiglu_limit":7.0,"tie_word_embeddings":false,"vocab_size":201088}',
 'openai/gpt-oss-20b config.json on the Hugging Face Hub (copy: ai-dynamo/aiconfigurator aic-core/src/aiconfigurator_core/model_configs/openai--gpt-oss-20b_config.json, commit 095f58a5); quantization_config (MXFP4 experts) dropped',
 'OpenAI', 'derived'),
-- 116,829,156,672 = parameters() of the stored config (36 layers, 128 experts;
-- tests/fixtures/configs/gpt_oss/README.md hand count agrees); model card / paper "116.83B total,
-- 5.13B active".
('gpt-oss-120b', 'gpt-oss-120b', 'openai/gpt-oss-120b', 'gpt_oss', 116829156672,
 'exact count of config_json (gpt-oss formula; fixture README hand count 116,829,156,672); the gpt-oss model card gives 116.83B total / 5.13B active',
 '{"architectures":["GptOssForCausalLM"],"attention_bias":true,"attention_dropout":0.0,"experts_per_token":4,"head_dim":64,"hidden_act":"silu","hidden_size":2880,"initial_context_length":4096,"intermediate_size":2880,"layer_types":["sliding_attention","full_attention","sliding_attention","full_attention","sliding_attention","full_attention","sliding_attention","full_attention","sliding_attention","full_attention","sliding_attention","full_attention","sliding_attention","full_attention","sliding_attention","full_attention","sliding_attention","full_attention","sliding_attention","full_attention","sliding_attention","full_attention","sliding_attention","full_attention","sliding_attention","full_attention","sliding_attention","full_attention","sliding_attention","full_attention","sliding_attention","full_attention","sliding_attention","full_attention","sliding_attention","full_attention"],"max_position_embeddings":131072,"model_type":"gpt_oss","num_attention_heads":64,"num_experts_per_tok":4,"num_hidden_layers":36,"num_key_value_heads":8,"num_local_experts":128,"rms_norm_eps":1e-05,"rope_scaling":{"beta_fast":32.0,"beta_slow":1.0,"factor":32.0,"original_max_position_embeddings":4096,"rope_type":"yarn","truncate":false},"rope_theta":150000,"router_aux_loss_coef":0.9,"sliding_window":128,"swiglu_limit":7.0,"tie_word_embeddings":false,"vocab_size":201088}',
 'openai/gpt-oss-120b config.json on the Hugging Face Hub (copy: ai-dynamo/aiconfigurator aic-core/src/aiconfigurator_core/model_configs/openai--gpt-oss-120b_config.json, commit 095f58a5); quantization_config (MXFP4 experts) dropped',
 'OpenAI', 'derived'),
-- 106,852,245,504 = parameters() of the stored config (1 dense + 45 MoE layers, 128 experts + 1
-- shared; MTP layer not built; tests/fixtures/configs/glm4_moe/README.md hand count agrees); card
-- "106 billion total, 12 billion active".
('glm-4.5-air', 'GLM-4.5-Air', 'zai-org/GLM-4.5-Air', 'glm4_moe', 106852245504,
 'exact count of config_json (GLM-4-MoE formula, router bias a buffer, MTP not built; fixture README hand count 106,852,245,504); the model card gives 106B total / 12B active',
 '{"architectures":["Glm4MoeForCausalLM"],"attention_bias":true,"attention_dropout":0.0,"head_dim":128,"hidden_act":"silu","hidden_size":4096,"partial_rotary_factor":0.5,"intermediate_size":10944,"max_position_embeddings":131072,"model_type":"glm4_moe","moe_intermediate_size":1408,"norm_topk_prob":true,"num_attention_heads":96,"n_group":1,"topk_group":1,"n_routed_experts":128,"n_shared_experts":1,"routed_scaling_factor":1.0,"num_experts_per_tok":8,"first_k_dense_replace":1,"num_hidden_layers":46,"num_key_value_heads":8,"rms_norm_eps":1e-05,"rope_scaling":null,"rope_theta":1000000,"num_nextn_predict_layers":1,"tie_word_embeddings":false,"torch_dtype":"bfloat16","use_qk_norm":false,"vocab_size":151552}',
 'zai-org/GLM-4.5-Air config.json on the Hugging Face Hub (tests/fixtures/configs/glm4_moe/, copy in triple-mu/aiconfigurator src/aiconfigurator/model_configs/zai-org--GLM-4.5-Air_config.json, commit ba4dfe36)',
 'Zhipu AI', 'derived'),
-- 106,852,245,504: config of the post-trained sibling GLM-4.5-Air (same shapes).
('glm-4.5-air-base', 'GLM-4.5-Air-Base', 'zai-org/GLM-4.5-Air-Base', 'glm4_moe', 106852245504,
 'exact count of the GLM-4.5-Air config (same shapes as the base checkpoint); the model card gives 106B total / 12B active',
 '{"architectures":["Glm4MoeForCausalLM"],"attention_bias":true,"attention_dropout":0.0,"head_dim":128,"hidden_act":"silu","hidden_size":4096,"partial_rotary_factor":0.5,"intermediate_size":10944,"max_position_embeddings":131072,"model_type":"glm4_moe","moe_intermediate_size":1408,"norm_topk_prob":true,"num_attention_heads":96,"n_group":1,"topk_group":1,"n_routed_experts":128,"n_shared_experts":1,"routed_scaling_factor":1.0,"num_experts_per_tok":8,"first_k_dense_replace":1,"num_hidden_layers":46,"num_key_value_heads":8,"rms_norm_eps":1e-05,"rope_scaling":null,"rope_theta":1000000,"num_nextn_predict_layers":1,"tie_word_embeddings":false,"torch_dtype":"bfloat16","use_qk_norm":false,"vocab_size":151552}',
 'zai-org/GLM-4.5-Air config.json on the Hugging Face Hub (tests/fixtures/configs/glm4_moe/, copy in triple-mu/aiconfigurator src/aiconfigurator/model_configs/zai-org--GLM-4.5-Air_config.json, commit ba4dfe36); GLM-4.5-Air-Base is the pre-trained checkpoint with the same shapes',
 'Zhipu AI', 'derived'),
-- 352,797,814,784 = parameters() of the stored config (MTP layer 92 not built by transformers);
-- card "355 billion total, 32 billion active" (tests/fixtures/configs/glm4_moe/README.md), which
-- includes the MTP layer.
('glm-4.5', 'GLM-4.5', 'zai-org/GLM-4.5', 'glm4_moe', 352797814784,
 'exact count of config_json (GLM-4-MoE formula, MTP not built); the model card gives 355B total / 32B active (with the MTP layer)',
 '{"architectures":["Glm4MoeForCausalLM"],"model_type":"glm4_moe","attention_bias":true,"first_k_dense_replace":3,"head_dim":128,"hidden_act":"silu","hidden_size":5120,"intermediate_size":12288,"max_position_embeddings":131072,"moe_intermediate_size":1536,"n_routed_experts":160,"n_shared_experts":1,"norm_topk_prob":true,"num_attention_heads":96,"num_experts_per_tok":8,"num_hidden_layers":92,"num_key_value_heads":8,"num_nextn_predict_layers":1,"partial_rotary_factor":0.5,"rope_theta":1000000.0,"routed_scaling_factor":2.5,"tie_word_embeddings":false,"use_qk_norm":true,"vocab_size":151552}',
 'GLM-4.5/4.6 architecture fields (92 layers = 3 dense + 89 MoE, hidden 5120, FFN 12288, MoE FFN 1536, 160 routed + 1 shared experts, top-8, scaling 2.5, 96 heads, 8 KV heads, head_dim 128, QKV bias, QK norm, partial rotary 0.5, rope base 1e6, vocab 151552, untied): zyzshishui/slime scripts/models/glm4.5-355B-A32B.sh and the GLM-4.7 "official full config" in code index id 61106028606 (same architecture); max_position_embeddings 131072 from a GLM-4.5 355B test config (code index id 19810911295); reduced config, not the verbatim file',
 'Zhipu AI', 'derived'),
-- 352,797,814,784: config of the post-trained sibling GLM-4.5 (same shapes).
('glm-4.5-base', 'GLM-4.5-Base', 'zai-org/GLM-4.5-Base', 'glm4_moe', 352797814784,
 'exact count of the GLM-4.5 config (same shapes as the base checkpoint); published as 355B total / 32B active (with MTP)',
 '{"architectures":["Glm4MoeForCausalLM"],"model_type":"glm4_moe","attention_bias":true,"first_k_dense_replace":3,"head_dim":128,"hidden_act":"silu","hidden_size":5120,"intermediate_size":12288,"max_position_embeddings":131072,"moe_intermediate_size":1536,"n_routed_experts":160,"n_shared_experts":1,"norm_topk_prob":true,"num_attention_heads":96,"num_experts_per_tok":8,"num_hidden_layers":92,"num_key_value_heads":8,"num_nextn_predict_layers":1,"partial_rotary_factor":0.5,"rope_theta":1000000.0,"routed_scaling_factor":2.5,"tie_word_embeddings":false,"use_qk_norm":true,"vocab_size":151552}',
 'GLM-4.5/4.6 architecture fields (92 layers = 3 dense + 89 MoE, hidden 5120, FFN 12288, MoE FFN 1536, 160 routed + 1 shared experts, top-8, scaling 2.5, 96 heads, 8 KV heads, head_dim 128, QKV bias, QK norm, partial rotary 0.5, rope base 1e6, vocab 151552, untied): zyzshishui/slime scripts/models/glm4.5-355B-A32B.sh and the GLM-4.7 "official full config" in code index id 61106028606 (same architecture); max_position_embeddings 131072 from a GLM-4.5 355B test config (code index id 19810911295); GLM-4.5-Base is the pre-trained checkpoint with the same shapes; reduced config',
 'Zhipu AI', 'derived'),
-- 352,797,814,784 = parameters() of the stored config (same architecture as GLM-4.5; MTP not
-- built); published as "355B" (xorbitsai/inference glm-4.6.rst).
('glm-4.6', 'GLM-4.6', 'zai-org/GLM-4.6', 'glm4_moe', 352797814784,
 'exact count of config_json (GLM-4-MoE formula, MTP not built); published as 355B (with the MTP layer)',
 '{"architectures":["Glm4MoeForCausalLM"],"model_type":"glm4_moe","attention_bias":true,"first_k_dense_replace":3,"head_dim":128,"hidden_act":"silu","hidden_size":5120,"intermediate_size":12288,"max_position_embeddings":202752,"moe_intermediate_size":1536,"n_routed_experts":160,"n_shared_experts":1,"norm_topk_prob":true,"num_attention_heads":96,"num_experts_per_tok":8,"num_hidden_layers":92,"num_key_value_heads":8,"num_nextn_predict_layers":1,"partial_rotary_factor":0.5,"rope_theta":1000000.0,"routed_scaling_factor":2.5,"tie_word_embeddings":false,"use_qk_norm":true,"vocab_size":151552}',
 'GLM-4.5/4.6 architecture fields (92 layers = 3 dense + 89 MoE, hidden 5120, FFN 12288, MoE FFN 1536, 160 routed + 1 shared experts, top-8, scaling 2.5, 96 heads, 8 KV heads, head_dim 128, QKV bias, QK norm, partial rotary 0.5, rope base 1e6, vocab 151552, untied): zyzshishui/slime scripts/models/glm4.5-355B-A32B.sh and the GLM-4.7 "official full config" in code index id 61106028606 (same architecture); max_position_embeddings 202752 and rms_norm_eps from a GLM-4.6 configuration manifest with _name_or_path zai-org/GLM-4.6 (andreidhoang/stanford-ai LLM/glm-4.6-training-pipeline/docs/GLM-4.6_DEEP_DIVE.md) and xorbitsai/inference doc/source/models/builtin/llm/glm-4.6.rst (context 202752); reduced config, not the verbatim file',
 'Zhipu AI', 'derived'),
-- 1,026,408,232,448 = parameters() of the stored config (61 MLA layers, 384 experts;
-- tests/fixtures/configs/kimi_k2/README.md). A model-info report counts 1,026,470,731,056 stored
-- elements = 1,026,408,232,448 + 62,495,192 fp8 weight_scale_inv + 3,416 rotary inv_freq
-- (reconciled there by hand); card "1 trillion total, 32 billion activated".
('kimi-k2-instruct', 'Kimi K2 Instruct', 'moonshotai/Kimi-K2-Instruct', 'kimi_k2', 1026408232448,
 'exact count of config_json (DeepSeek-V3 MLA/MoE formula with the remote code''s e_score_correction_bias parameter); reconciles with the 1,026,470,731,056 elements a model-info report lists for the fp8 checkpoint (minus weight_scale_inv and inv_freq); the model card gives 1T total / 32B active',
 '{"architectures":["DeepseekV3ForCausalLM"],"attention_bias":false,"attention_dropout":0.0,"aux_loss_alpha":0.001,"first_k_dense_replace":1,"hidden_act":"silu","hidden_size":7168,"intermediate_size":18432,"kv_lora_rank":512,"max_position_embeddings":131072,"model_type":"kimi_k2","moe_intermediate_size":2048,"moe_layer_freq":1,"n_group":1,"n_routed_experts":384,"n_shared_experts":1,"norm_topk_prob":true,"num_attention_heads":64,"num_experts_per_tok":8,"num_hidden_layers":61,"num_key_value_heads":64,"num_nextn_predict_layers":0,"q_lora_rank":1536,"qk_nope_head_dim":128,"qk_rope_head_dim":64,"rms_norm_eps":1e-06,"rope_theta":50000.0,"routed_scaling_factor":2.827,"rope_scaling":{"beta_fast":1.0,"beta_slow":1.0,"factor":32.0,"mscale":1.0,"mscale_all_dim":1.0,"original_max_position_embeddings":4096,"type":"yarn"},"scoring_func":"sigmoid","seq_aux":true,"tie_word_embeddings":false,"topk_group":1,"topk_method":"noaux_tc","torch_dtype":"bfloat16","v_head_dim":128,"vocab_size":163840}',
 'moonshotai/Kimi-K2-Instruct config.json on the Hugging Face Hub (copy: ai-dynamo/aiconfigurator aic-core/src/aiconfigurator_core/model_configs/moonshotai--Kimi-K2-Instruct_config.json, commit 095f58a5; tests/fixtures/configs/kimi_k2/ has the same file from a model-info report, code index id 62698259723); auto_map and quantization_config dropped',
 'Moonshot AI', 'derived'),
-- 1,026,408,232,448: config of the post-trained sibling Kimi-K2-Instruct (same shapes).
('kimi-k2-base', 'Kimi K2 Base', 'moonshotai/Kimi-K2-Base', 'kimi_k2', 1026408232448,
 'exact count of the Kimi-K2-Instruct config (same shapes as the base checkpoint); the model card gives 1T total / 32B active',
 '{"architectures":["DeepseekV3ForCausalLM"],"attention_bias":false,"attention_dropout":0.0,"aux_loss_alpha":0.001,"first_k_dense_replace":1,"hidden_act":"silu","hidden_size":7168,"intermediate_size":18432,"kv_lora_rank":512,"max_position_embeddings":131072,"model_type":"kimi_k2","moe_intermediate_size":2048,"moe_layer_freq":1,"n_group":1,"n_routed_experts":384,"n_shared_experts":1,"norm_topk_prob":true,"num_attention_heads":64,"num_experts_per_tok":8,"num_hidden_layers":61,"num_key_value_heads":64,"num_nextn_predict_layers":0,"q_lora_rank":1536,"qk_nope_head_dim":128,"qk_rope_head_dim":64,"rms_norm_eps":1e-06,"rope_theta":50000.0,"routed_scaling_factor":2.827,"rope_scaling":{"beta_fast":1.0,"beta_slow":1.0,"factor":32.0,"mscale":1.0,"mscale_all_dim":1.0,"original_max_position_embeddings":4096,"type":"yarn"},"scoring_func":"sigmoid","seq_aux":true,"tie_word_embeddings":false,"topk_group":1,"topk_method":"noaux_tc","torch_dtype":"bfloat16","v_head_dim":128,"vocab_size":163840}',
 'moonshotai/Kimi-K2-Instruct config.json on the Hugging Face Hub (copy: ai-dynamo/aiconfigurator aic-core/src/aiconfigurator_core/model_configs/moonshotai--Kimi-K2-Instruct_config.json, commit 095f58a5; tests/fixtures/configs/kimi_k2/ has the same file from a model-info report, code index id 62698259723); auto_map and quantization_config dropped; Kimi-K2-Base is the pre-trained checkpoint with the same shapes',
 'Moonshot AI', 'derived'),
-- 671,877,929,216 = parameters() of the stored config (61 MLA layers with the sparse-attention
-- indexer, 3 dense + 58 MoE; MTP layer 61 not built;
-- tests/fixtures/configs/deepseek_v32/README.md). The checkpoint's 685,396,921,376 stored elements
-- = 671,877,929,216 + 14,848 router biases + 13,477,385,728 MTP + 41,591,584 fp8 scales
-- (reconciled there by hand); published "671B total, 37B active".
('deepseek-v3.2', 'DeepSeek-V3.2', 'deepseek-ai/DeepSeek-V3.2', 'deepseek_v32', 671877929216,
 'exact count of config_json (DeepSeek-V3.2 formula: MLA + indexer, router bias a buffer, MTP not built); reconciles with the checkpoint''s 685,396,921,376 stored elements (tests/fixtures/configs/deepseek_v32/README.md); published as 671B / 37B active',
 '{"architectures":["DeepseekV32ForCausalLM"],"attention_bias":false,"attention_dropout":0.0,"ep_size":1,"first_k_dense_replace":3,"hidden_act":"silu","hidden_size":7168,"index_head_dim":128,"index_n_heads":64,"index_topk":2048,"intermediate_size":18432,"kv_lora_rank":512,"max_position_embeddings":163840,"model_type":"deepseek_v32","moe_intermediate_size":2048,"moe_layer_freq":1,"n_group":8,"n_routed_experts":256,"n_shared_experts":1,"norm_topk_prob":true,"num_attention_heads":128,"num_experts_per_tok":8,"num_hidden_layers":61,"num_key_value_heads":128,"num_nextn_predict_layers":1,"q_lora_rank":1536,"qk_nope_head_dim":128,"qk_rope_head_dim":64,"rms_norm_eps":1e-06,"rope_scaling":{"beta_fast":32,"beta_slow":1,"factor":40,"mscale":1.0,"mscale_all_dim":1.0,"original_max_position_embeddings":4096,"type":"yarn"},"rope_theta":10000,"routed_scaling_factor":2.5,"scoring_func":"sigmoid","tie_word_embeddings":false,"topk_group":4,"topk_method":"noaux_tc","torch_dtype":"bfloat16","v_head_dim":128,"vocab_size":129280}',
 'deepseek-ai/DeepSeek-V3.2 config.json on the Hugging Face Hub (copy: ai-dynamo/aiconfigurator aic-core/src/aiconfigurator_core/model_configs/deepseek-ai--DeepSeek-V3.2_config.json, commit 095f58a5; tests/fixtures/configs/deepseek_v32/ holds the same file from a model-info report, code index id 62736905881); quantization_config dropped',
 'DeepSeek', 'derived'),
-- 671,877,929,216: config of DeepSeek-V3.2 (same architecture: the DeepseekV32Config defaults,
-- documented for V3.2-Exp, equal this file).
('deepseek-v3.2-exp', 'DeepSeek-V3.2-Exp', 'deepseek-ai/DeepSeek-V3.2-Exp', 'deepseek_v32', 671877929216,
 'exact count of the DeepSeek-V3.2 config (same architecture as V3.2-Exp); published as 671B / 37B active',
 '{"architectures":["DeepseekV32ForCausalLM"],"attention_bias":false,"attention_dropout":0.0,"ep_size":1,"first_k_dense_replace":3,"hidden_act":"silu","hidden_size":7168,"index_head_dim":128,"index_n_heads":64,"index_topk":2048,"intermediate_size":18432,"kv_lora_rank":512,"max_position_embeddings":163840,"model_type":"deepseek_v32","moe_intermediate_size":2048,"moe_layer_freq":1,"n_group":8,"n_routed_experts":256,"n_shared_experts":1,"norm_topk_prob":true,"num_attention_heads":128,"num_experts_per_tok":8,"num_hidden_layers":61,"num_key_value_heads":128,"num_nextn_predict_layers":1,"q_lora_rank":1536,"qk_nope_head_dim":128,"qk_rope_head_dim":64,"rms_norm_eps":1e-06,"rope_scaling":{"beta_fast":32,"beta_slow":1,"factor":40,"mscale":1.0,"mscale_all_dim":1.0,"original_max_position_embeddings":4096,"type":"yarn"},"rope_theta":10000,"routed_scaling_factor":2.5,"scoring_func":"sigmoid","tie_word_embeddings":false,"topk_group":4,"topk_method":"noaux_tc","torch_dtype":"bfloat16","v_head_dim":128,"vocab_size":129280}',
 'deepseek-ai/DeepSeek-V3.2 config.json on the Hugging Face Hub (copy: ai-dynamo/aiconfigurator aic-core/src/aiconfigurator_core/model_configs/deepseek-ai--DeepSeek-V3.2_config.json, commit 095f58a5; tests/fixtures/configs/deepseek_v32/ holds the same file from a model-info report, code index id 62736905881); quantization_config dropped; DeepSeek-V3.2-Exp has the same architecture (transformers DeepseekV32Config, documented with checkpoint deepseek-ai/DeepSeek-V3.2-Exp, defaults to every value of this file); its own file was not found',
 'DeepSeek', 'derived'),
-- 51,570,323,328 = parameters() of the stored config (28 Mamba + 4 attention layers, 16 MoE
-- layers; tests/fixtures/configs/jamba/README.md hand count agrees); card "12B active / 52B
-- total".
('jamba-1.5-mini', 'Jamba 1.5 Mini', 'ai21labs/AI21-Jamba-1.5-Mini', 'jamba', 51570323328,
 'exact count of config_json (Jamba formula; fixture README hand count 51,570,323,328); the model card gives 52B total / 12B active',
 '{"architectures":["JambaForCausalLM"],"attention_dropout":0.0,"attn_layer_offset":4,"attn_layer_period":8,"expert_layer_offset":1,"expert_layer_period":2,"hidden_act":"silu","hidden_size":4096,"intermediate_size":14336,"mamba_conv_bias":true,"mamba_d_conv":4,"mamba_d_state":16,"mamba_dt_rank":256,"mamba_expand":2,"mamba_proj_bias":false,"max_position_embeddings":262144,"model_type":"jamba","num_attention_heads":32,"num_experts":16,"num_experts_per_tok":2,"num_hidden_layers":32,"num_key_value_heads":8,"num_logits_to_keep":1,"rms_norm_eps":1e-06,"router_aux_loss_coef":0.001,"sliding_window":null,"tie_word_embeddings":false,"torch_dtype":"bfloat16","use_mamba_kernels":false,"vocab_size":65536}',
 'ai21labs/AI21-Jamba-1.5-Mini config.json (tests/fixtures/configs/jamba/)',
 'AI21 Labs', 'derived'),
-- 8,100,852,736 = parameters() of the stored config (24 Mamba-2 + 4 attention + 24 MLP layers;
-- tests/fixtures/configs/nemotron_h/README.md hand count agrees); HF page "8.1B".
('nemotron-h-8b-base-8k', 'Nemotron-H 8B Base 8K', 'nvidia/Nemotron-H-8B-Base-8K', 'nemotron_h', 8100852736,
 'exact count of config_json (Nemotron-H formula; fixture README hand count 8,100,852,736); published as 8B',
 '{"architectures":["NemotronHForCausalLM"],"attention_bias":false,"attention_dropout":0.0,"attention_head_dim":128,"chunk_size":128,"conv_kernel":4,"expand":2,"hidden_act":"relu2","hidden_dropout":0.0,"hidden_size":4096,"hybrid_override_pattern":"M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M-","intermediate_size":21504,"layer_norm_epsilon":1e-05,"mamba_head_dim":64,"mamba_hidden_act":"silu","mamba_num_heads":128,"mamba_proj_bias":false,"max_position_embeddings":8192,"mlp_bias":false,"mlp_hidden_act":"relu2","model_type":"nemotron_h","n_groups":8,"num_attention_heads":32,"num_hidden_layers":52,"num_key_value_heads":8,"num_logits_to_keep":1,"rescale_prenorm_residual":true,"residual_in_fp32":false,"rms_norm_eps":1e-05,"ssm_state_size":128,"tie_word_embeddings":false,"torch_dtype":"bfloat16","use_bias":false,"use_conv_bias":true,"use_mamba_kernels":true,"vocab_size":131072}',
 'nvidia/Nemotron-H-8B-Base-8K config.json fields (tests/fixtures/configs/nemotron_h/)',
 'NVIDIA', 'derived'),
-- 56,324,350,464 = parameters() of the stored config; published as "56B".
('nemotron-h-56b-base-8k', 'Nemotron-H 56B Base 8K', 'nvidia/Nemotron-H-56B-Base-8K', 'nemotron_h', 56324350464,
 'exact count of config_json (Nemotron-H formula); published as 56B',
 '{"architectures":["NemotronHForCausalLM"],"attention_bias":false,"attention_dropout":0.0,"attention_head_dim":128,"chunk_size":128,"conv_kernel":4,"expand":2,"hidden_dropout":0.0,"hidden_size":8192,"hybrid_override_pattern":"M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M-","intermediate_size":32768,"layer_norm_epsilon":1e-05,"mamba_head_dim":64,"mamba_hidden_act":"silu","mamba_num_heads":256,"mamba_proj_bias":false,"max_position_embeddings":8192,"mlp_bias":false,"mlp_hidden_act":"relu2","model_type":"nemotron_h","n_groups":8,"num_attention_heads":64,"num_hidden_layers":118,"num_key_value_heads":8,"num_logits_to_keep":1,"rescale_prenorm_residual":true,"residual_in_fp32":false,"rms_norm_eps":1e-05,"sliding_window":null,"ssm_state_size":256,"tie_word_embeddings":false,"time_step_floor":0.0001,"time_step_max":0.1,"time_step_min":0.001,"time_step_rank":512,"torch_dtype":"bfloat16","use_bias":false,"use_conv_bias":true,"use_mamba_kernels":true,"vocab_size":131072}',
 'nvidia/Nemotron-H-56B-Base-8K config.json on the Hugging Face Hub (copy: ai-dynamo/aiconfigurator aic-core/src/aiconfigurator_core/model_configs/nvidia--Nemotron-H-56B-Base-8K_config.json, commit 095f58a5); auto_map and the non-JSON time_step_limit dropped',
 'NVIDIA', 'derived'),
-- 79,674,391,296 = parameters() of the stored config (36 Gated DeltaNet + 12 gated attention
-- layers, 512 experts; MTP not built; tests/fixtures/configs/qwen3_next/README.md hand count
-- agrees); published "80B total, 3B active".
('qwen3-next-80b-a3b-thinking', 'Qwen3-Next-80B-A3B-Thinking', 'Qwen/Qwen3-Next-80B-A3B-Thinking', 'qwen3_next', 79674391296,
 'exact count of config_json (Qwen3-Next formula; fixture README hand count 79,674,391,296); published as 80B total / 3B active',
 '{"architectures":["Qwen3NextForCausalLM"],"attention_dropout":0.0,"decoder_sparse_step":1,"full_attention_interval":4,"head_dim":256,"hidden_act":"silu","hidden_size":2048,"intermediate_size":5120,"linear_conv_kernel_dim":4,"linear_key_head_dim":128,"linear_num_key_heads":16,"linear_num_value_heads":32,"linear_value_head_dim":128,"max_position_embeddings":262144,"mlp_only_layers":[],"model_type":"qwen3_next","moe_intermediate_size":512,"norm_topk_prob":true,"num_attention_heads":16,"num_experts":512,"num_experts_per_tok":10,"num_hidden_layers":48,"num_key_value_heads":2,"partial_rotary_factor":0.25,"rms_norm_eps":1e-06,"rope_scaling":null,"rope_theta":10000000,"router_aux_loss_coef":0.001,"shared_expert_intermediate_size":512,"tie_word_embeddings":false,"torch_dtype":"bfloat16","use_sliding_window":false,"vocab_size":151936}',
 'Qwen/Qwen3-Next-80B-A3B-Thinking config.json (tests/fixtures/configs/qwen3_next/; also ai-dynamo/aiconfigurator src/aiconfigurator/model_configs/Qwen--Qwen3-Next-80B-A3B-Thinking_config.json, commit 1b7cfb10)',
 'Alibaba Cloud', 'derived'),
-- 79,674,391,296: config of the Thinking sibling (same shapes).
('qwen3-next-80b-a3b-instruct', 'Qwen3-Next-80B-A3B-Instruct', 'Qwen/Qwen3-Next-80B-A3B-Instruct', 'qwen3_next', 79674391296,
 'exact count of the Qwen3-Next-80B-A3B-Thinking config (same shapes as the Instruct checkpoint); published as 80B total / 3B active',
 '{"architectures":["Qwen3NextForCausalLM"],"attention_dropout":0.0,"decoder_sparse_step":1,"full_attention_interval":4,"head_dim":256,"hidden_act":"silu","hidden_size":2048,"intermediate_size":5120,"linear_conv_kernel_dim":4,"linear_key_head_dim":128,"linear_num_key_heads":16,"linear_num_value_heads":32,"linear_value_head_dim":128,"max_position_embeddings":262144,"mlp_only_layers":[],"model_type":"qwen3_next","moe_intermediate_size":512,"norm_topk_prob":true,"num_attention_heads":16,"num_experts":512,"num_experts_per_tok":10,"num_hidden_layers":48,"num_key_value_heads":2,"partial_rotary_factor":0.25,"rms_norm_eps":1e-06,"rope_scaling":null,"rope_theta":10000000,"router_aux_loss_coef":0.001,"shared_expert_intermediate_size":512,"tie_word_embeddings":false,"torch_dtype":"bfloat16","use_sliding_window":false,"vocab_size":151936}',
 'Qwen/Qwen3-Next-80B-A3B-Thinking config.json (tests/fixtures/configs/qwen3_next/; also ai-dynamo/aiconfigurator src/aiconfigurator/model_configs/Qwen--Qwen3-Next-80B-A3B-Thinking_config.json, commit 1b7cfb10); the Instruct checkpoint has the same shapes',
 'Alibaba Cloud', 'derived'),
-- 4,300,079,472 = parameters() of the stored config (text 3,880,263,168 + SigLIP vision and
-- projector 419,816,304; tests/fixtures/configs/gemma3/README.md hand count agrees); published as
-- "4B" (4.3B).
('gemma-3-4b-it', 'Gemma 3 4B IT', 'google/gemma-3-4b-it', 'gemma3', 4300079472,
 'exact count of config_json (Gemma 3 text + SigLIP vision + projector; fixture README hand count 4,300,079,472); published as 4B',
 '{"architectures":["Gemma3ForConditionalGeneration"],"mm_tokens_per_image":256,"model_type":"gemma3","text_config":{"hidden_size":2560,"intermediate_size":10240,"model_type":"gemma3_text","num_hidden_layers":34,"rope_scaling":{"factor":8.0,"rope_type":"linear"},"sliding_window":1024},"torch_dtype":"bfloat16","vision_config":{"hidden_size":1152,"image_size":896,"intermediate_size":4304,"model_type":"siglip_vision_model","num_attention_heads":16,"num_hidden_layers":27,"patch_size":14,"vision_use_head":false}}',
 'google/gemma-3-4b-it config.json (tests/fixtures/configs/gemma3/: reconstructed from two partial copies; the published file omits fields equal to the Gemma3TextConfig / SiglipVisionConfig defaults)',
 'Google', 'derived'),
-- 4,300,079,472: config of the instruction-tuned sibling gemma-3-4b-it (same shapes).
('gemma-3-4b-pt', 'Gemma 3 4B', 'google/gemma-3-4b-pt', 'gemma3', 4300079472,
 'exact count of the gemma-3-4b-it config (same shapes as the pre-trained checkpoint); published as 4B',
 '{"architectures":["Gemma3ForConditionalGeneration"],"mm_tokens_per_image":256,"model_type":"gemma3","text_config":{"hidden_size":2560,"intermediate_size":10240,"model_type":"gemma3_text","num_hidden_layers":34,"rope_scaling":{"factor":8.0,"rope_type":"linear"},"sliding_window":1024},"torch_dtype":"bfloat16","vision_config":{"hidden_size":1152,"image_size":896,"intermediate_size":4304,"model_type":"siglip_vision_model","num_attention_heads":16,"num_hidden_layers":27,"patch_size":14,"vision_use_head":false}}',
 'google/gemma-3-4b-it config.json (tests/fixtures/configs/gemma3/: reconstructed from two partial copies; the published file omits fields equal to the Gemma3TextConfig / SiglipVisionConfig defaults); gemma-3-4b-pt is the pre-trained checkpoint with the same shapes',
 'Google', 'derived'),
-- 24,011,361,280 = parameters() of the stored config (text 23,572,403,200 + Pixtral vision and
-- projector; tests/fixtures/configs/mistral3/README.md hand count agrees); published as "24B".
('mistral-small-3.1-24b-instruct', 'Mistral Small 3.1 24B Instruct', 'mistralai/Mistral-Small-3.1-24B-Instruct-2503', 'mistral3', 24011361280,
 'exact count of config_json (Mistral text + Pixtral vision + projector; fixture README hand count 24,011,361,280); published as 24B',
 '{"architectures":["Mistral3ForConditionalGeneration"],"model_type":"mistral3","multimodal_projector_bias":false,"projector_hidden_act":"gelu","spatial_merge_size":2,"text_config":{"attention_dropout":0.0,"head_dim":128,"hidden_act":"silu","hidden_size":5120,"intermediate_size":32768,"max_position_embeddings":131072,"model_type":"mistral","num_attention_heads":32,"num_hidden_layers":40,"num_key_value_heads":8,"rms_norm_eps":1e-05,"rope_theta":1000000000.0,"sliding_window":null,"vocab_size":131072},"torch_dtype":"bfloat16","vision_config":{"attention_dropout":0.0,"head_dim":64,"hidden_act":"silu","hidden_size":1024,"image_size":1540,"intermediate_size":4096,"model_type":"pixtral","num_attention_heads":16,"num_channels":3,"num_hidden_layers":24,"patch_size":14,"rope_theta":10000.0},"vision_feature_layer":-1}',
 'mistralai/Mistral-Small-3.1-24B-Instruct-2503 config.json (tests/fixtures/configs/mistral3/)',
 'Mistral AI', 'derived'),
-- 24,011,361,280: config of the Instruct sibling (same shapes).
('mistral-small-3.1-24b-base', 'Mistral Small 3.1 24B Base', 'mistralai/Mistral-Small-3.1-24B-Base-2503', 'mistral3', 24011361280,
 'exact count of the Mistral-Small-3.1-24B-Instruct-2503 config (same shapes as the base checkpoint); published as 24B',
 '{"architectures":["Mistral3ForConditionalGeneration"],"model_type":"mistral3","multimodal_projector_bias":false,"projector_hidden_act":"gelu","spatial_merge_size":2,"text_config":{"attention_dropout":0.0,"head_dim":128,"hidden_act":"silu","hidden_size":5120,"intermediate_size":32768,"max_position_embeddings":131072,"model_type":"mistral","num_attention_heads":32,"num_hidden_layers":40,"num_key_value_heads":8,"rms_norm_eps":1e-05,"rope_theta":1000000000.0,"sliding_window":null,"vocab_size":131072},"torch_dtype":"bfloat16","vision_config":{"attention_dropout":0.0,"head_dim":64,"hidden_act":"silu","hidden_size":1024,"image_size":1540,"intermediate_size":4096,"model_type":"pixtral","num_attention_heads":16,"num_channels":3,"num_hidden_layers":24,"patch_size":14,"rope_theta":10000.0},"vision_feature_layer":-1}',
 'mistralai/Mistral-Small-3.1-24B-Instruct-2503 config.json (tests/fixtures/configs/mistral3/); the Base-2503 checkpoint has the same shapes',
 'Mistral AI', 'derived'),
-- 10,670,220,835 = parameters() of the stored config (text 9,775,192,080 with 8 cross-attention
-- layers + vision 863,567,379 incl. projector; tests/fixtures/configs/mllama/README.md hand count
-- agrees); published as "11B" (10.6B).
('llama-3.2-11b-vision-instruct', 'Llama 3.2 11B Vision Instruct', 'meta-llama/Llama-3.2-11B-Vision-Instruct', 'mllama', 10670220835,
 'exact count of config_json (Mllama text + vision + projector; fixture README hand count 10,670,220,835); published as 11B',
 '{"architectures":["MllamaForConditionalGeneration"],"model_type":"mllama","text_config":{"cross_attention_layers":[3,8,13,18,23,28,33,38],"hidden_act":"silu","hidden_size":4096,"intermediate_size":14336,"max_position_embeddings":131072,"model_type":"mllama_text_model","num_attention_heads":32,"num_hidden_layers":40,"num_key_value_heads":8,"rms_norm_eps":1e-05,"rope_scaling":{"factor":8.0,"high_freq_factor":4.0,"low_freq_factor":1.0,"original_max_position_embeddings":8192,"rope_type":"llama3"},"rope_theta":500000.0,"tie_word_embeddings":false,"vocab_size":128256},"torch_dtype":"bfloat16","vision_config":{"attention_heads":16,"hidden_act":"gelu","hidden_size":1280,"image_size":560,"intermediate_layers_indices":[3,7,15,23,30],"intermediate_size":5120,"max_num_tiles":4,"model_type":"mllama_vision_model","norm_eps":1e-05,"num_channels":3,"num_global_layers":8,"num_hidden_layers":32,"patch_size":14,"supported_aspect_ratios":[[1,1],[1,2],[1,3],[1,4],[2,1],[2,2],[3,1],[4,1]],"vision_output_dim":7680}}',
 'meta-llama/Llama-3.2-11B-Vision-Instruct config fields (tests/fixtures/configs/mllama/: reconstructed subset of the gated file, PretrainedConfig noise keys dropped)',
 'Meta', 'derived'),
-- 10,670,220,835: config of the Instruct sibling (same shapes).
('llama-3.2-11b-vision', 'Llama 3.2 11B Vision', 'meta-llama/Llama-3.2-11B-Vision', 'mllama', 10670220835,
 'exact count of the Llama-3.2-11B-Vision-Instruct config (same shapes as the pre-trained checkpoint); published as 11B',
 '{"architectures":["MllamaForConditionalGeneration"],"model_type":"mllama","text_config":{"cross_attention_layers":[3,8,13,18,23,28,33,38],"hidden_act":"silu","hidden_size":4096,"intermediate_size":14336,"max_position_embeddings":131072,"model_type":"mllama_text_model","num_attention_heads":32,"num_hidden_layers":40,"num_key_value_heads":8,"rms_norm_eps":1e-05,"rope_scaling":{"factor":8.0,"high_freq_factor":4.0,"low_freq_factor":1.0,"original_max_position_embeddings":8192,"rope_type":"llama3"},"rope_theta":500000.0,"tie_word_embeddings":false,"vocab_size":128256},"torch_dtype":"bfloat16","vision_config":{"attention_heads":16,"hidden_act":"gelu","hidden_size":1280,"image_size":560,"intermediate_layers_indices":[3,7,15,23,30],"intermediate_size":5120,"max_num_tiles":4,"model_type":"mllama_vision_model","norm_eps":1e-05,"num_channels":3,"num_global_layers":8,"num_hidden_layers":32,"patch_size":14,"supported_aspect_ratios":[[1,1],[1,2],[1,3],[1,4],[2,1],[2,2],[3,1],[4,1]],"vision_output_dim":7680}}',
 'meta-llama/Llama-3.2-11B-Vision-Instruct config fields (tests/fixtures/configs/mllama/: reconstructed subset of the gated file, PretrainedConfig noise keys dropped); the pre-trained Llama-3.2-11B-Vision has the same shapes',
 'Meta', 'derived'),
-- 108,641,793,536 = parameters() of the stored config (text 107,769,861,120 + vision 850,960,896;
-- tests/fixtures/configs/llama4/README.md hand count agrees); Meta "17B active, 16 experts, 109B
-- total".
('llama-4-scout-17b-16e-instruct', 'Llama 4 Scout 17B-16E Instruct', 'meta-llama/Llama-4-Scout-17B-16E-Instruct', 'llama4', 108641793536,
 'exact count of config_json (Llama 4 text MoE + vision; fixture README hand count 108,641,793,536); published as 109B total / 17B active',
 '{"architectures":["Llama4ForConditionalGeneration"],"model_type":"llama4","text_config":{"attention_bias":false,"attention_chunk_size":8192,"attention_dropout":0.0,"head_dim":128,"hidden_act":"silu","hidden_size":5120,"interleave_moe_layer_step":1,"intermediate_size":8192,"intermediate_size_mlp":16384,"max_position_embeddings":10485760,"model_type":"llama4_text","num_attention_heads":40,"num_experts_per_tok":1,"num_hidden_layers":48,"num_key_value_heads":8,"num_local_experts":16,"rms_norm_eps":1e-05,"rope_scaling":{"factor":16.0,"high_freq_factor":1.0,"low_freq_factor":1.0,"original_max_position_embeddings":8192,"rope_type":"llama3"},"rope_theta":500000.0,"router_aux_loss_coef":0.001,"torch_dtype":"bfloat16","use_qk_norm":true,"vocab_size":202048},"torch_dtype":"bfloat16","vision_config":{"attention_dropout":0.0,"hidden_act":"gelu","hidden_size":1408,"image_size":336,"intermediate_size":5632,"model_type":"llama4_vision_model","multi_modal_projector_bias":false,"norm_eps":1e-05,"num_attention_heads":16,"num_channels":3,"num_hidden_layers":34,"patch_size":14,"pixel_shuffle_ratio":0.5,"projector_dropout":0.0,"projector_input_dim":4096,"projector_output_dim":4096,"rope_theta":10000,"torch_dtype":"bfloat16","vision_feature_layer":-1,"vision_feature_select_strategy":"default","vision_output_dim":4096}}',
 'meta-llama/Llama-4-Scout-17B-16E-Instruct config.json (tests/fixtures/configs/llama4/)',
 'Meta', 'derived'),
-- 108,641,793,536: config of the Instruct sibling (same shapes).
('llama-4-scout-17b-16e', 'Llama 4 Scout 17B-16E', 'meta-llama/Llama-4-Scout-17B-16E', 'llama4', 108641793536,
 'exact count of the Llama-4-Scout-17B-16E-Instruct config (same shapes as the pre-trained checkpoint); published as 109B total / 17B active',
 '{"architectures":["Llama4ForConditionalGeneration"],"model_type":"llama4","text_config":{"attention_bias":false,"attention_chunk_size":8192,"attention_dropout":0.0,"head_dim":128,"hidden_act":"silu","hidden_size":5120,"interleave_moe_layer_step":1,"intermediate_size":8192,"intermediate_size_mlp":16384,"max_position_embeddings":10485760,"model_type":"llama4_text","num_attention_heads":40,"num_experts_per_tok":1,"num_hidden_layers":48,"num_key_value_heads":8,"num_local_experts":16,"rms_norm_eps":1e-05,"rope_scaling":{"factor":16.0,"high_freq_factor":1.0,"low_freq_factor":1.0,"original_max_position_embeddings":8192,"rope_type":"llama3"},"rope_theta":500000.0,"router_aux_loss_coef":0.001,"torch_dtype":"bfloat16","use_qk_norm":true,"vocab_size":202048},"torch_dtype":"bfloat16","vision_config":{"attention_dropout":0.0,"hidden_act":"gelu","hidden_size":1408,"image_size":336,"intermediate_size":5632,"model_type":"llama4_vision_model","multi_modal_projector_bias":false,"norm_eps":1e-05,"num_attention_heads":16,"num_channels":3,"num_hidden_layers":34,"patch_size":14,"pixel_shuffle_ratio":0.5,"projector_dropout":0.0,"projector_input_dim":4096,"projector_output_dim":4096,"rope_theta":10000,"torch_dtype":"bfloat16","vision_feature_layer":-1,"vision_feature_select_strategy":"default","vision_output_dim":4096}}',
 'meta-llama/Llama-4-Scout-17B-16E-Instruct config.json (tests/fixtures/configs/llama4/); the pre-trained Llama-4-Scout-17B-16E has the same shapes',
 'Meta', 'derived'),
-- 3,754,622,976 = parameters() of the stored config (tied LLM head + vision tower;
-- tests/fixtures/configs/qwen2_5_vl/README.md hand count agrees); HF page "3.75B".
('qwen2.5-vl-3b-instruct', 'Qwen2.5-VL-3B-Instruct', 'Qwen/Qwen2.5-VL-3B-Instruct', 'qwen2_5_vl', 3754622976,
 'exact count of config_json (Qwen2 text + Qwen2.5-VL vision; fixture README hand count 3,754,622,976); published as 3.75B',
 '{"architectures":["Qwen2_5_VLForConditionalGeneration"],"attention_dropout":0.0,"hidden_act":"silu","hidden_size":2048,"intermediate_size":11008,"max_position_embeddings":128000,"max_window_layers":70,"model_type":"qwen2_5_vl","num_attention_heads":16,"num_hidden_layers":36,"num_key_value_heads":2,"rms_norm_eps":1e-06,"rope_theta":1000000.0,"sliding_window":32768,"tie_word_embeddings":true,"torch_dtype":"bfloat16","use_sliding_window":false,"vision_config":{"depth":32,"hidden_act":"silu","hidden_size":1280,"intermediate_size":3420,"num_heads":16,"in_chans":3,"out_hidden_size":2048,"patch_size":14,"spatial_merge_size":2,"spatial_patch_size":14,"window_size":112,"fullatt_block_indexes":[7,15,23,31],"tokens_per_second":2,"temporal_patch_size":2},"rope_scaling":{"type":"mrope","mrope_section":[16,24,24]},"vocab_size":151936}',
 'Qwen/Qwen2.5-VL-3B-Instruct config.json (tests/fixtures/configs/qwen2_5_vl/: a verbatim JSON block in a model-config note)',
 'Alibaba Cloud', 'derived'),
-- 8,292,166,656 = parameters() of the stored config (tests/fixtures/configs/qwen2_5_vl/README.md
-- hand count agrees); HF page "8.29B".
('qwen2.5-vl-7b-instruct', 'Qwen2.5-VL-7B-Instruct', 'Qwen/Qwen2.5-VL-7B-Instruct', 'qwen2_5_vl', 8292166656,
 'exact count of config_json (Qwen2 text + Qwen2.5-VL vision; fixture README hand count 8,292,166,656); published as 8.29B',
 '{"architectures":["Qwen2_5_VLForConditionalGeneration"],"attention_dropout":0.0,"hidden_act":"silu","hidden_size":3584,"intermediate_size":18944,"max_position_embeddings":128000,"max_window_layers":28,"model_type":"qwen2_5_vl","num_attention_heads":28,"num_hidden_layers":28,"num_key_value_heads":4,"rms_norm_eps":1e-06,"rope_theta":1000000.0,"sliding_window":32768,"tie_word_embeddings":false,"torch_dtype":"bfloat16","use_sliding_window":false,"vision_config":{"depth":32,"hidden_act":"silu","hidden_size":1280,"intermediate_size":3420,"num_heads":16,"in_chans":3,"out_hidden_size":3584,"patch_size":14,"spatial_merge_size":2,"spatial_patch_size":14,"window_size":112,"fullatt_block_indexes":[7,15,23,31],"tokens_per_second":2,"temporal_patch_size":2},"rope_scaling":{"type":"mrope","mrope_section":[16,24,24]},"vocab_size":152064}',
 'Qwen/Qwen2.5-VL-7B-Instruct config.json (tests/fixtures/configs/qwen2_5_vl/)',
 'Alibaba Cloud', 'derived'),
-- 241,734,912 = parameters() of the stored config (encoder + decoder, proj_out tied;
-- tests/fixtures/configs/whisper/README.md hand count agrees); HF page "242M", card 244M.
('whisper-small', 'Whisper small', 'openai/whisper-small', 'whisper', 241734912,
 'exact count of config_json (Whisper formula, tied proj_out; fixture README hand count 241,734,912); published as 242M',
 '{"activation_dropout":0.0,"activation_function":"gelu","architectures":["WhisperForConditionalGeneration"],"attention_dropout":0.0,"d_model":768,"decoder_attention_heads":12,"decoder_ffn_dim":3072,"decoder_layerdrop":0.0,"decoder_layers":12,"dropout":0.0,"encoder_attention_heads":12,"encoder_ffn_dim":3072,"encoder_layerdrop":0.0,"encoder_layers":12,"init_std":0.02,"is_encoder_decoder":true,"max_length":448,"max_source_positions":1500,"max_target_positions":448,"model_type":"whisper","num_hidden_layers":12,"num_mel_bins":80,"scale_embedding":false,"torch_dtype":"float32","vocab_size":51865}',
 'openai/whisper-small config.json, snapshot 973afd24 (tests/fixtures/configs/whisper/); forced_decoder_ids, suppress_tokens and token ids dropped',
 'OpenAI', 'derived'),
-- 1,543,490,560 = parameters() of the stored config (tests/fixtures/configs/whisper/README.md hand
-- count agrees); card 1550M, HF page "1.54B".
('whisper-large-v3', 'Whisper large-v3', 'openai/whisper-large-v3', 'whisper', 1543490560,
 'exact count of config_json (Whisper formula, tied proj_out; fixture README hand count 1,543,490,560); published as 1.54B',
 '{"activation_dropout":0.0,"activation_function":"gelu","apply_spec_augment":false,"architectures":["WhisperForConditionalGeneration"],"attention_dropout":0.0,"classifier_proj_size":256,"d_model":1280,"decoder_attention_heads":20,"decoder_ffn_dim":5120,"decoder_layerdrop":0.0,"decoder_layers":32,"dropout":0.0,"encoder_attention_heads":20,"encoder_ffn_dim":5120,"encoder_layerdrop":0.0,"encoder_layers":32,"init_std":0.02,"is_encoder_decoder":true,"mask_feature_length":10,"mask_feature_min_masks":0,"mask_feature_prob":0.0,"mask_time_length":10,"mask_time_min_masks":2,"mask_time_prob":0.05,"max_length":448,"max_source_positions":1500,"max_target_positions":448,"median_filter_width":7,"model_type":"whisper","num_hidden_layers":32,"num_mel_bins":128,"scale_embedding":false,"torch_dtype":"float16","use_weighted_layer_sum":false,"vocab_size":51866}',
 'openai/whisper-large-v3 configuration as printed by WhisperConfig.from_pretrained, snapshot 06f233fe (tests/fixtures/configs/whisper/); token-id fields dropped',
 'OpenAI', 'derived')
ON CONFLICT (id) DO NOTHING;

-- Aliases: each model's Hugging Face repository id and the short names people
-- type. Matching is case-insensitive; no alias repeats another alias or a model id.
INSERT INTO model_aliases (alias, model_id) VALUES
('Qwen/Qwen3-0.6B', 'qwen3-0.6b'),
('qwen3:0.6b', 'qwen3-0.6b'),
('Qwen/Qwen3-1.7B', 'qwen3-1.7b'),
('qwen3:1.7b', 'qwen3-1.7b'),
('Qwen/Qwen3-4B', 'qwen3-4b'),
('qwen3:4b', 'qwen3-4b'),
('Qwen/Qwen3-8B', 'qwen3-8b'),
('qwen3:8b', 'qwen3-8b'),
('Qwen/Qwen3-14B', 'qwen3-14b'),
('qwen3:14b', 'qwen3-14b'),
('Qwen/Qwen3-32B', 'qwen3-32b'),
('qwen3:32b', 'qwen3-32b'),
('Qwen/Qwen3-Coder-480B-A35B-Instruct', 'qwen3-coder-480b-a35b-instruct'),
('qwen3-coder:480b', 'qwen3-coder-480b-a35b-instruct'),
('qwen3-coder-480b', 'qwen3-coder-480b-a35b-instruct'),
('google/gemma-3-1b-it', 'gemma-3-1b-it'),
('gemma3:1b', 'gemma-3-1b-it'),
('gemma-3-1b-instruct', 'gemma-3-1b-it'),
('google/gemma-3-1b-pt', 'gemma-3-1b-pt'),
('gemma-3-1b', 'gemma-3-1b-pt'),
('ibm-granite/granite-3.3-8b-instruct', 'granite-3.3-8b-instruct'),
('granite3.3:8b', 'granite-3.3-8b-instruct'),
('granite-3.3-8b', 'granite-3.3-8b-instruct'),
('ibm-granite/granite-3.1-2b-base', 'granite-3.1-2b-base'),
('granite3.1:2b-base', 'granite-3.1-2b-base'),
('ibm-granite/granite-3.1-2b-instruct', 'granite-3.1-2b-instruct'),
('granite3.1:2b', 'granite-3.1-2b-instruct'),
('granite-3.1-2b', 'granite-3.1-2b-instruct'),
('HuggingFaceTB/SmolLM3-3B', 'smollm3-3b'),
('smollm3', 'smollm3-3b'),
('smollm3:3b', 'smollm3-3b'),
('allenai/OLMo-2-0425-1B', 'olmo-2-0425-1b'),
('olmo2:1b', 'olmo-2-0425-1b'),
('olmo-2-1b', 'olmo-2-0425-1b'),
('allenai/OLMo-2-1124-7B', 'olmo-2-1124-7b'),
('olmo2:7b', 'olmo-2-1124-7b'),
('olmo-2-7b', 'olmo-2-1124-7b'),
('allenai/OLMo-2-1124-7B-Instruct', 'olmo-2-1124-7b-instruct'),
('olmo-2-7b-instruct', 'olmo-2-1124-7b-instruct'),
('allenai/OLMo-2-1124-13B', 'olmo-2-1124-13b'),
('olmo2:13b', 'olmo-2-1124-13b'),
('olmo-2-13b', 'olmo-2-1124-13b'),
('allenai/OLMo-2-1124-13B-Instruct', 'olmo-2-1124-13b-instruct'),
('olmo-2-13b-instruct', 'olmo-2-1124-13b-instruct'),
('CohereForAI/aya-23-8B', 'aya-23-8b'),
('aya:8b', 'aya-23-8b'),
('aya-23:8b', 'aya-23-8b'),
('CohereForAI/c4ai-command-r-v01', 'c4ai-command-r-v01'),
('command-r', 'c4ai-command-r-v01'),
('command-r-v01', 'c4ai-command-r-v01'),
('command-r:35b', 'c4ai-command-r-v01'),
('CohereForAI/c4ai-command-r-08-2024', 'c4ai-command-r-08-2024'),
('command-r-08-2024', 'c4ai-command-r-08-2024'),
('command-r:32b', 'c4ai-command-r-08-2024'),
('CohereForAI/c4ai-command-r-plus', 'c4ai-command-r-plus'),
('command-r-plus', 'c4ai-command-r-plus'),
('command-r+', 'c4ai-command-r-plus'),
('CohereForAI/c4ai-command-r7b-12-2024', 'c4ai-command-r7b-12-2024'),
('command-r7b', 'c4ai-command-r7b-12-2024'),
('command-r7b-12-2024', 'c4ai-command-r7b-12-2024'),
('internlm/internlm2_5-7b-chat', 'internlm2.5-7b-chat'),
('internlm2.5:7b', 'internlm2.5-7b-chat'),
('internlm2_5-7b-chat', 'internlm2.5-7b-chat'),
('microsoft/phi-1_5', 'phi-1_5'),
('phi-1.5', 'phi-1_5'),
('phi1.5', 'phi-1_5'),
('microsoft/phi-2', 'phi-2'),
('phi2', 'phi-2'),
('Qwen/Qwen-7B', 'qwen-7b'),
('qwen:7b', 'qwen-7b'),
('qwen1-7b', 'qwen-7b'),
('Qwen/Qwen-7B-Chat', 'qwen-7b-chat'),
('qwen:7b-chat', 'qwen-7b-chat'),
('allenai/OLMoE-1B-7B-0924', 'olmoe-1b-7b-0924'),
('olmoe', 'olmoe-1b-7b-0924'),
('olmoe-1b-7b', 'olmoe-1b-7b-0924'),
('allenai/OLMoE-1B-7B-0924-Instruct', 'olmoe-1b-7b-0924-instruct'),
('olmoe-instruct', 'olmoe-1b-7b-0924-instruct'),
('microsoft/Phi-3.5-MoE-instruct', 'phi-3.5-moe-instruct'),
('phi-3.5-moe', 'phi-3.5-moe-instruct'),
('phi3.5-moe', 'phi-3.5-moe-instruct'),
('MiniMaxAI/MiniMax-M2', 'minimax-m2'),
('minimax-m2-230b', 'minimax-m2'),
('MiniMaxAI/MiniMax-M2.5', 'minimax-m2.5'),
('openai/gpt-oss-20b', 'gpt-oss-20b'),
('gpt-oss:20b', 'gpt-oss-20b'),
('openai/gpt-oss-120b', 'gpt-oss-120b'),
('gpt-oss:120b', 'gpt-oss-120b'),
('zai-org/GLM-4.5-Air', 'glm-4.5-air'),
('glm4.5-air', 'glm-4.5-air'),
('glm-4.5-air-106b', 'glm-4.5-air'),
('zai-org/GLM-4.5-Air-Base', 'glm-4.5-air-base'),
('glm4.5-air-base', 'glm-4.5-air-base'),
('zai-org/GLM-4.5', 'glm-4.5'),
('glm4.5', 'glm-4.5'),
('glm-4.5-355b', 'glm-4.5'),
('zai-org/GLM-4.5-Base', 'glm-4.5-base'),
('glm4.5-base', 'glm-4.5-base'),
('zai-org/GLM-4.6', 'glm-4.6'),
('glm4.6', 'glm-4.6'),
('moonshotai/Kimi-K2-Instruct', 'kimi-k2-instruct'),
('kimi-k2', 'kimi-k2-instruct'),
('moonshotai/Kimi-K2-Base', 'kimi-k2-base'),
('deepseek-ai/DeepSeek-V3.2', 'deepseek-v3.2'),
('deepseek-v32', 'deepseek-v3.2'),
('deepseekv3.2', 'deepseek-v3.2'),
('deepseek-ai/DeepSeek-V3.2-Exp', 'deepseek-v3.2-exp'),
('deepseek-v32-exp', 'deepseek-v3.2-exp'),
('ai21labs/AI21-Jamba-1.5-Mini', 'jamba-1.5-mini'),
('jamba-mini', 'jamba-1.5-mini'),
('jamba1.5-mini', 'jamba-1.5-mini'),
('nvidia/Nemotron-H-8B-Base-8K', 'nemotron-h-8b-base-8k'),
('nemotron-h-8b', 'nemotron-h-8b-base-8k'),
('nvidia/Nemotron-H-56B-Base-8K', 'nemotron-h-56b-base-8k'),
('nemotron-h-56b', 'nemotron-h-56b-base-8k'),
('Qwen/Qwen3-Next-80B-A3B-Thinking', 'qwen3-next-80b-a3b-thinking'),
('qwen3-next-thinking', 'qwen3-next-80b-a3b-thinking'),
('Qwen/Qwen3-Next-80B-A3B-Instruct', 'qwen3-next-80b-a3b-instruct'),
('qwen3-next', 'qwen3-next-80b-a3b-instruct'),
('qwen3-next-80b', 'qwen3-next-80b-a3b-instruct'),
('google/gemma-3-4b-it', 'gemma-3-4b-it'),
('gemma3:4b', 'gemma-3-4b-it'),
('google/gemma-3-4b-pt', 'gemma-3-4b-pt'),
('gemma-3-4b', 'gemma-3-4b-pt'),
('mistralai/Mistral-Small-3.1-24B-Instruct-2503', 'mistral-small-3.1-24b-instruct'),
('mistral-small3.1', 'mistral-small-3.1-24b-instruct'),
('mistral-small-3.1-24b-instruct-2503', 'mistral-small-3.1-24b-instruct'),
('mistralai/Mistral-Small-3.1-24B-Base-2503', 'mistral-small-3.1-24b-base'),
('mistral-small-3.1-24b-base-2503', 'mistral-small-3.1-24b-base'),
('meta-llama/Llama-3.2-11B-Vision-Instruct', 'llama-3.2-11b-vision-instruct'),
('llama3.2-vision:11b', 'llama-3.2-11b-vision-instruct'),
('llama-3.2-11b-vision-instruct-hf', 'llama-3.2-11b-vision-instruct'),
('meta-llama/Llama-3.2-11B-Vision', 'llama-3.2-11b-vision'),
('llama3.2-11b-vision', 'llama-3.2-11b-vision'),
('meta-llama/Llama-4-Scout-17B-16E-Instruct', 'llama-4-scout-17b-16e-instruct'),
('llama4-scout', 'llama-4-scout-17b-16e-instruct'),
('llama4:scout', 'llama-4-scout-17b-16e-instruct'),
('llama-4-scout', 'llama-4-scout-17b-16e-instruct'),
('meta-llama/Llama-4-Scout-17B-16E', 'llama-4-scout-17b-16e'),
('llama-4-scout-base', 'llama-4-scout-17b-16e'),
('Qwen/Qwen2.5-VL-3B-Instruct', 'qwen2.5-vl-3b-instruct'),
('qwen2.5-vl:3b', 'qwen2.5-vl-3b-instruct'),
('qwen25-vl-3b', 'qwen2.5-vl-3b-instruct'),
('Qwen/Qwen2.5-VL-7B-Instruct', 'qwen2.5-vl-7b-instruct'),
('qwen2.5-vl:7b', 'qwen2.5-vl-7b-instruct'),
('qwen25-vl-7b', 'qwen2.5-vl-7b-instruct'),
('openai/whisper-small', 'whisper-small'),
('whisper:small', 'whisper-small'),
('openai/whisper-large-v3', 'whisper-large-v3'),
('whisper:large-v3', 'whisper-large-v3'),
('whisper-large', 'whisper-large-v3')
ON CONFLICT (alias) DO NOTHING;
