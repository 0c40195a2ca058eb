-- Schema version 2: the first catalog entries. Every number carries its source
-- in the row itself (the *_source columns) and is explained here.
--
-- Models: config_json is the Hugging Face config.json of the repository named
-- in hf_id, reduced to the architecture fields (unused keys such as token ids
-- dropped). parameters is the published count; tests/server/test_codec.c checks it
-- equals the count gs_arch_count_params computes from the stored config.

INSERT INTO models (id, name, hf_id, family, parameters, parameters_source, config_json, config_source) VALUES
-- 8,030,261,248 = safetensors total of meta-llama/Meta-Llama-3-8B, same
-- architecture (the exact count of config_json (docs/model-readers.md), Llama-3-8B row).
('llama-3.1-8b', 'Llama 3.1 8B', 'meta-llama/Llama-3.1-8B', 'llama', 8030261248,
 'Hugging Face safetensors parameter total for the Llama 3/3.1 8B architecture (the exact count of config_json (docs/model-readers.md), Llama-3-8B); equals the Llama formula applied to config_json',
 '{"architectures":["LlamaForCausalLM"],"model_type":"llama","hidden_size":4096,"intermediate_size":14336,"num_hidden_layers":32,"num_attention_heads":32,"num_key_value_heads":8,"vocab_size":128256,"max_position_embeddings":131072,"rms_norm_eps":1e-05,"rope_theta":500000.0,"rope_scaling":{"factor":8.0,"low_freq_factor":1.0,"high_freq_factor":4.0,"original_max_position_embeddings":8192,"rope_type":"llama3"},"attention_bias":false,"mlp_bias":false,"tie_word_embeddings":false,"hidden_act":"silu","torch_dtype":"bfloat16"}',
 'meta-llama/Llama-3.1-8B config.json on the Hugging Face Hub'),
-- 70,553,706,496 = 141,107,412,992 bytes (model.safetensors.index.json
-- metadata.total_size of meta-llama/Llama-3.1-70B, all tensors bf16) / 2.
('llama-3.1-70b', 'Llama 3.1 70B', 'meta-llama/Llama-3.1-70B', 'llama', 70553706496,
 'meta-llama/Llama-3.1-70B model.safetensors.index.json total_size 141,107,412,992 bytes of bf16 tensors / 2; equals the Llama formula applied to config_json',
 '{"architectures":["LlamaForCausalLM"],"model_type":"llama","hidden_size":8192,"intermediate_size":28672,"num_hidden_layers":80,"num_attention_heads":64,"num_key_value_heads":8,"vocab_size":128256,"max_position_embeddings":131072,"rms_norm_eps":1e-05,"rope_theta":500000.0,"rope_scaling":{"factor":8.0,"low_freq_factor":1.0,"high_freq_factor":4.0,"original_max_position_embeddings":8192,"rope_type":"llama3"},"attention_bias":false,"mlp_bias":false,"tie_word_embeddings":false,"hidden_act":"silu","torch_dtype":"bfloat16"}',
 'meta-llama/Llama-3.1-70B config.json on the Hugging Face Hub'),
-- 7,241,732,096: the exact count of config_json (docs/model-readers.md) (Mistral row), matched against public
-- safetensors totals.
('mistral-7b-v0.1', 'Mistral 7B v0.1', 'mistralai/Mistral-7B-v0.1', 'mistral', 7241732096,
 'Hugging Face safetensors parameter total of mistralai/Mistral-7B-v0.1 (the exact count of config_json (docs/model-readers.md), Mistral row)',
 '{"architectures":["MistralForCausalLM"],"model_type":"mistral","hidden_size":4096,"intermediate_size":14336,"num_hidden_layers":32,"num_attention_heads":32,"num_key_value_heads":8,"vocab_size":32000,"max_position_embeddings":32768,"sliding_window":4096,"rms_norm_eps":1e-05,"rope_theta":10000.0,"tie_word_embeddings":false,"hidden_act":"silu","torch_dtype":"bfloat16"}',
 'mistralai/Mistral-7B-v0.1 config.json on the Hugging Face Hub');

INSERT INTO model_aliases (alias, model_id) VALUES
('meta-llama/Llama-3.1-8B', 'llama-3.1-8b'),
('meta-llama/Meta-Llama-3.1-8B', 'llama-3.1-8b'),
('llama3.1-8b', 'llama-3.1-8b'),
('meta-llama/Llama-3.1-70B', 'llama-3.1-70b'),
('meta-llama/Meta-Llama-3.1-70B', 'llama-3.1-70b'),
('llama3.1-70b', 'llama-3.1-70b'),
('mistralai/Mistral-7B-v0.1', 'mistral-7b-v0.1'),
('mistral-7b', 'mistral-7b-v0.1');

-- Accelerators. memory_bytes is the marketed capacity in decimal bytes
-- (80 GB = 80e9). usable_memory_bytes is what CUDA reports as total
-- (torch.cuda total_memory, logged by vLLM as total_gpu_memory); null where no
-- public log states it, and fit checks then fall back to the marketed figure
-- with a warning. Logged GiB figures have two decimals, so the byte value is
-- floor(GiB * 2^30) and may differ from the true total by up to 0.005 GiB.
-- Dense TFLOPS for NVIDIA are the datasheet "with sparsity" figures halved.
INSERT INTO gpus (id, name, vendor, memory_bytes, memory_source, usable_memory_bytes, usable_memory_source,
                  memory_bandwidth_gb_s, bf16_tflops, fp8_tflops, tdp_watts, spec_source,
                  price_per_hour, price_source, price_date) VALUES
-- 79.22 GiB -> 85,061,827,297 bytes.
('h100-sxm-80gb', 'NVIDIA H100 SXM5 80GB', 'NVIDIA', 80000000000,
 'NVIDIA H100 Tensor Core GPU datasheet, H100 SXM column: 80GB HBM3',
 85061827297, 'vLLM logs total_gpu_memory 79.22GiB on H100 SXM (vllm-project/vllm PR #10511, PR #12126)',
 3350, 989.5, 1979, 700,
 'NVIDIA H100 Tensor Core GPU datasheet, H100 SXM column: 3.35TB/s, BF16 1,979 and FP8 3,958 TFLOPS with sparsity, up to 700W',
 2.49, 'Lambda on-demand 1x H100 SXM, via computespec.pages.dev cloud GPU pricing page (third-party; undated, the aggregator states its data is current as of Q1 2026)', NULL),
('a100-sxm-80gb', 'NVIDIA A100 SXM4 80GB', 'NVIDIA', 80000000000,
 'NVIDIA A100 80GB datasheet, SXM column: 80GB HBM2e',
 NULL, NULL,
 2039, 312, NULL, 400,
 'NVIDIA A100 80GB datasheet, SXM column: 2,039GB/s, BF16 312 TFLOPS dense (624 with sparsity), 400W; no FP8 support',
 NULL, NULL, NULL),
-- 44.42 GiB -> 47,695,611,822 bytes.
('l40s', 'NVIDIA L40S', 'NVIDIA', 48000000000,
 'NVIDIA L40S datasheet: 48GB GDDR6 with ECC',
 47695611822, 'vLLM log total_gpu_memory 44.42GiB on L40S (vllm-project/vllm issue #15815)',
 864, 362.05, 733, 350,
 'NVIDIA L40S datasheet: 864GB/s, BF16 362.05 dense (733 with sparsity), FP8 733 dense (1,466 with sparsity), 350W',
 NULL, NULL, NULL),
('rtx-4090', 'NVIDIA GeForce RTX 4090', 'NVIDIA', 24000000000,
 'NVIDIA Ada Lovelace architecture whitepaper, RTX 4090: 24GB GDDR6X',
 NULL, NULL,
 1008, 165.2, 330.3, 450,
 'NVIDIA Ada Lovelace architecture whitepaper, appendix table: 1,008GB/s, BF16 165.2 TFLOPS dense with FP32 accumulate, FP8 330.3 dense, 450W',
 NULL, NULL, NULL);

INSERT INTO gpu_aliases (alias, gpu_id) VALUES
('h100', 'h100-sxm-80gb'),
('h100-sxm5-80gb', 'h100-sxm-80gb'),
('h100-sxm', 'h100-sxm-80gb'),
('a100-80gb', 'a100-sxm-80gb'),
('a100-sxm4-80gb', 'a100-sxm-80gb'),
('l40s-48gb', 'l40s'),
('rtx4090', 'rtx-4090'),
('geforce-rtx-4090', 'rtx-4090');
