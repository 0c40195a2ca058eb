-- Schema version 10: names people type that the catalog did not answer.
--
-- DeepSeek-R1, R1-0528 and V3-0324 are checkpoints of DeepSeek-V3's
-- architecture: their config.json files name DeepseekV3ForCausalLM with
-- V3's dimensions (hidden 7168, 61 layers, 256 routed experts of 2048, 1
-- shared, MLA with kv_lora_rank 512) and the same 671B parameters (the
-- deepseek-ai/DeepSeek-R1 model card: "built on DeepSeek-V3-Base", 671B
-- total, 37B activated), so they size as deepseek-v3.
--
-- "a100" alone means the 80 GB SXM board, as "h100" means the 80 GB SXM
-- one (0002): the form most A100 servers and clouds carry (the DGX A100
-- 640GB and the p4de/ND A100 v4 instances); the other forms keep their own
-- ids and aliases.
INSERT INTO model_aliases (alias, model_id) VALUES
('deepseek-r1', 'deepseek-v3'),
('deepseek-ai/DeepSeek-R1', 'deepseek-v3'),
('deepseek-r1-0528', 'deepseek-v3'),
('deepseek-ai/DeepSeek-R1-0528', 'deepseek-v3'),
('deepseek-v3-0324', 'deepseek-v3'),
('deepseek-ai/DeepSeek-V3-0324', 'deepseek-v3');

INSERT INTO gpu_aliases (alias, gpu_id) VALUES
('a100', 'a100-sxm-80gb');
