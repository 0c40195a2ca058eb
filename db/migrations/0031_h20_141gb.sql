-- Schema version 31: the NVIDIA H20 in its 141 GB HBM3e version ("NVIDIA H20-3e" to
-- nvidia-smi and torch), and the H20 96 GB row's sources corrected. Data only.
--
-- The H20 ships in two memory versions. The 96 GB one (h20, 0023) reports 97,285 MiB to
-- torch; the 141 GB one carries the H200's HBM3e and reports the H200's total: nvidia-smi
-- prints "NVIDIA H20-3e, 143771 MiB" (environment tables in public GitHub repositories,
-- several), the figure it prints for an H200, whose torch total is 143,156 MiB
-- (h200-sxm-141gb, 0005). vllm-project/recipes PR #12 ran Qwen3-Coder-480B-A35B-FP8 on
-- "H20 8 nodes" and logged the KV memory vLLM had at two utilizations: 48.66 GiB at 0.90
-- and 55.65 GiB at 0.95 (the same run otherwise). vLLM's budget is utilization x total less
-- what does not change with it, so 0.05 x total = 6.99 GiB and the total is 139.8 GiB
-- (+-0.2 for the logs' rounding): the 141 GB version, not the 96 GB one (89.4 GiB). 0023
-- cited that PR for the 96 GB row; the citation moves here.
--
-- NVIDIA publishes no datasheet for the 141 GB version. The compute is the H20's (the same
-- 78-SM die: its CUDA count is 78 SMs too); the bandwidth is taken as the H20's 4.0 TB/s,
-- which the environment tables give for it, and no higher figure with a source was found.

INSERT INTO gpus (id, name, vendor, memory_bytes, memory_source,
                  usable_memory_bytes, usable_memory_source,
                  memory_bandwidth_gb_s, bf16_tflops, fp16_tflops, fp8_tflops, tdp_watts, spec_source,
                  architecture, form_factor, memory_type,
                  interconnect, interconnect_gb_s, pcie_gen, gpus_per_node, interconnect_source,
                  sm_count, sm_count_source) VALUES
('h20-3e', 'NVIDIA H20-3e', 'NVIDIA', 141000000000,
 'The H20''s 141 GB HBM3e version: nvidia-smi "NVIDIA H20-3e, 143771 MiB" in public environment tables (e.g. "8 x NVIDIA H20-3e, Hopper Architecture (sm_90, x86_64, 141 GiB)"), the H200''s 141 GB; sgl-project/sglang PR #36904 runs "8x NVIDIA H20-3e (sm_90, 140 GB each)" in one node',
 150109945856, 'nvidia-smi reads 143771 MiB on an H20-3e as on an H200, whose torch total_memory is 143156 MB (h200-sxm-141gb): 143156 x 2^20. Checked by vllm-project/recipes PR #12 (vLLM 0.10.1, 8 x H20, Qwen3-Coder-480B-A35B-FP8): available KV 48.66 GiB at --gpu-memory-utilization 0.90 and 55.65 GiB at 0.95, so 0.05 x total = 6.99 GiB and total = 139.8 GiB (this figure: 139.80 GiB)',
 4000, 148, 148, 296, 400,
 'No NVIDIA datasheet for the 141 GB version. Compute is the H20 die''s (h20: BF16/FP16 148, FP8 296 TFLOPS dense, 400 W), as public environment tables list it for the H20-3e ("BF16 Tensor Core 148 TFLOPS", "SM90a, 78 SM per GPU"); bandwidth the H20''s 4.0 TB/s, which those tables give for the H20-3e ("~4.0 TB/s (HBM3e)"); no other figure with a source was found',
 'Hopper', 'SXM5', 'HBM3e',
 'NVLink 4 (NVSwitch)', 900, 5, 8,
 'H20-3e nodes of 8 GPUs with NVLink 4 in a full mesh (public environment tables: "8 x NVIDIA H20-3e", "NV18 full-mesh (all GPU pairs connected)", "NVLink 4.0, NV18 (18 links/GPU, 900 GB/s total/GPU)"; sgl-project/sglang PR #36904: "8x NVIDIA H20-3e ... single node"); vllm-project/recipes PR #12 serves with -dp 8 on one such node',
 78, 'a public validated-configuration table for 8 x NVIDIA H20-3e: "Architecture | SM90a, 78 SM per GPU" (the H20''s count, h20)')
ON CONFLICT DO NOTHING;

-- The id is the device name's model ("NVIDIA H20-3e"), not "h20-141gb": a name whose model
-- word is "h20" would make nvidia-smi's "NVIDIA H20", which is the 96 GB part, fit both rows.
INSERT INTO gpu_aliases (alias, gpu_id) VALUES
('h20-3e-141gb', 'h20-3e')
ON CONFLICT DO NOTHING;

-- The 96 GB row cited PR #12 for its memory and its node; that run had the 141 GB version.
UPDATE gpus SET memory_source = 'NVIDIA HGX H20 specifications (Tom''s Hardware launch table): 96 GB HBM3'
WHERE id = 'h20' AND name = 'NVIDIA H20' AND revision = 1
    AND memory_source LIKE '%recipes PR #12%';

UPDATE gpus SET interconnect_source = 'HGX H20: NVLink 900 GB/s kept from the H100 (Tom''s Hardware launch table; 1cnz.cn: "支持超快速NVLink 900GB/s鏈接并采用SXM板卡形式,以匹配英偉達8路HGX服務器規格"), PCIe Gen5 x16; 8 GPUs per HGX board'
WHERE id = 'h20' AND name = 'NVIDIA H20' AND revision = 1
    AND interconnect_source LIKE '%recipes PR #12%';
