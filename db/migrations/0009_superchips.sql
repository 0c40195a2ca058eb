-- Schema version 9: superchip and unified-memory GPUs that were missing:
-- NVIDIA Jetson AGX Thor (T5000), GH200 Grace Hopper in its 96GB HBM3 and
-- 144GB HBM3e forms, and GB200 (one row per Blackwell GPU). Nothing in this
-- file changes the schema. Conventions as in 0005 and 0008: memory_bytes is
-- the marketed capacity in decimal bytes; usable_memory_bytes is the total the
-- CUDA driver reports, with the arithmetic in its source text; dense Tensor Core
-- TFLOPS (NVIDIA's figures marked "with sparsity" halved); unknown -> NULL.
--
-- unified_memory, decided by how vLLM measures free memory on the part
-- (vllm/utils/mem_utils.py, MemorySnapshot.measure):
-- * Jetson AGX Thor: 1. The GPU is integrated and has no memory of its own:
--   the CUDA total is the host's MemTotal (125748 MiB), nvidia-smi shows no
--   framebuffer, and vLLM lists compute capability (11, 0) as "Thor" among
--   its shared-system-memory devices ((8, 7), (11, 0), (12, 1): Orin, Thor,
--   Spark), later replaced by the device's is_integrated flag (PR #35356);
--   either way it takes psutil's available host memory as free.
-- * GH200 (both): 0, stated rather than left NULL. The Hopper GPU's HBM is its
--   own memory and the CUDA total is that HBM alone (95.00 GiB on the 96GB
--   part, against a Grace CPU with 480 GB or 120 GB of LPDDR5X). vLLM measures
--   free memory with cudaMemGetInfo on it: compute capability 9.0 is not in
--   the tuple above, and GH200 reports cudaDevAttrIntegrated 0 (deviceQuery:
--   "Integrated GPU sharing Host Memory: No"), which is what the later
--   is_integrated test reads, although PR #35356's description names GH200
--   among UMA systems. A plain cudaMalloc (torch) stops at the HBM: the
--   NVIDIA blog cited below shows the OOM at "total capacity of 95.00 GiB";
--   the LPDDR5X over NVLink-C2C is reached only through managed/system
--   allocations, which the estimate does not count. The warning that unified
--   memory brings (the engine's share must be free in host memory) does not
--   apply; what can still lower cudaMemGetInfo's free figure on GH200 is the
--   reclaimable OS memory vLLM issue #35313 describes (74.9 of 142.5 GiB free).
-- * GB200: 0, for the same reasons: the CUDA total is the Blackwell GPU's HBM
--   (184.31 GiB), not the Grace CPU's LPDDR5X, and compute capability 10.0 is
--   not in vLLM's shared-memory tuple. An integrated device reports the host's
--   memory as its total, as GB10 (121.69 GiB) and Thor (125748 MiB) do.
--
-- Link classes (server/codec.c codec_gpu_link): GH200 ('NVLink 4', Hopper) and
-- GB200 ('NVLink 5', Blackwell) map to the Hopper-and-later NVLink class; the
-- Thor's interconnect names no NVLink (one GPU per module) and maps to PCIe,
-- which only matters for a tensor group of one.
--
-- Per row, the derivations:
-- jetson-agx-thor: 125748 MiB -> 125748 x 2^20 = 131,856,334,848 bytes
--   (the figure is truncated to the MiB, so at most 1 MiB low). FP8 517 TFLOPS
--   dense as NVIDIA states it (1035 with sparsity); FP16 517 with sparsity ->
--   258.5 dense; no BF16 figure stated -> NULL. 130 W is the module's maximum
--   (MAXN) power, CPU and memory included.
-- gh200: 95.00 GiB -> floor(95.00 x 2^30) = 102,005,473,280 bytes = 97280 MiB
--   exactly, which OpenCL reports on a GH200 480GB. A GH200 120GB on CSCS Alps
--   reads 101,468,602,368 bytes (94.50 GiB) in deviceQuery (CUDA 12.9): the
--   same GPU on another driver; the 95.00 GiB reading is NVIDIA's own. Compute
--   is the H100 SXM's (same 132 SMs at 1980 MHz): 1,979* -> 989.5 BF16/FP16,
--   3,958* -> 1,979 FP8. 1000 W is the module (CPU + GPU + memory).
-- gh200-144gb: 142.50 GiB -> floor(142.50 x 2^30) = 153,008,209,920 bytes.
--   Bandwidth was announced as 5 TB/s in August 2023; the shipping figure was
--   not found -> NULL.
-- gb200: 184.31 GiB -> floor(184.31 x 2^30) = 197,901,355,581 bytes.
--   Per-GPU FP16/BF16 5 PFLOPS and FP8 10 PFLOPS with sparsity -> 2,500 and
--   5,000 dense (the HGX B200 column of the same table, 4.5 and 9, is the b200
--   row's 2,250 and 4,500). One node (compute tray, one OS and host memory)
--   holds 4 GPUs; the NVLink domain spans the rack's 72, which the per-node
--   planner does not model.
INSERT INTO gpus (id, name, vendor, memory_bytes, memory_source,
                  usable_memory_bytes, usable_memory_source,
                  memory_bandwidth_gb_s, bf16_tflops, fp16_tflops, fp8_tflops, tdp_watts, spec_source,
                  architecture, form_factor, memory_type, unified_memory,
                  interconnect, interconnect_gb_s, pcie_gen, gpus_per_node, interconnect_source) VALUES
('jetson-agx-thor', 'NVIDIA Jetson AGX Thor (T5000)', 'NVIDIA', 128000000000,
 'NVIDIA Jetson T5000 module: "128GB LPDDR5x DRAM 4266 MHz 256-bit, 273 GB/s" shared by the CPU and the GPU (RidgeRun Jetson AGX Thor SoM overview, developer.ridgerun.com/wiki/index.php/NVIDIA_Jetson_AGX_Thor/Introduction/SoM_Overview); "128 GB 256-bit LPDDR5X, 273 GB/s" from NVIDIA''s Jetson Thor launch blog (huggingface/huggingface.js PR #1710); "T5000 ... 128 GB LPDDR5X unified @ 273 GB/s" (antirez/ds4 PR #716)',
 131856334848, 'Unified memory as the CUDA driver reports it on Jetson AGX Thor: llama.cpp prints "Device 0: NVIDIA Thor, compute capability 11.0, VMM: yes, VRAM: 125748 MiB" (cudaDeviceProp.totalGlobalMem / 2^20; public GitHub write-up on out-of-core inference on Thor, JetPack 7.2 / CUDA 13.0: "122.8 GiB unified coherent memory"); the same 125748 MiB is the host''s MemTotal and nvidia-smi reports memory.total "[N/A]" (mudler/vllm.cpp docs/bench-evidence/vllm-gguf-plugin-thor-20260903/rc-job-40a1d8dd.log, driver 595.78); 125748 x 2^20 (at most 1 MiB low). Unified: vLLM lists compute capability (11, 0) as Thor among the devices whose free memory is psutil''s available host memory (vllm-project/vllm vllm/utils/mem_utils.py)',
 273, NULL, 258.5, 517, 130,
 'NVIDIA Jetson Thor launch blog (developer.nvidia.com/blog/introducing-nvidia-jetson-thor-the-ultimate-platform-for-physical-ai) as quoted in huggingface/huggingface.js PR #1710: "2070 TFLOPS (Sparse FP4) 1035 TFLOPS (Dense FP4 | Sparse FP8 | Sparse INT8) 517 TFLOPs (Dense FP8 | Sparse FP16)", "128 GB 256-bit LPDDR5X, 273 GB/s" -> FP8 517 dense, FP16 517 / 2 = 258.5 dense; no BF16 figure stated -> NULL; T5000 "2070 FP4 TFLOPS / 1035 FP8 TFLOPS" (RidgeRun SoM overview table); Jetson Thor Series Modules Data Sheet: Total Module Power 130 W in MAXN (as quoted in forums.developer.nvidia.com/t/inquiry-regarding-standalone-soc-power-consumption-for-jetson-thor-t5000-vs-module-tdp/357535)',
 'Blackwell (sm_110)', 'Jetson module (T5000, AGX Thor Developer Kit)', 'LPDDR5X (unified with the CPU)', 1,
 'None (one integrated GPU per module)', NULL, NULL, 1,
 'Jetson T5000: one Blackwell GPU (2560 CUDA cores, 96 fifth-generation Tensor Cores) per module, integrated with the CPU (RidgeRun Jetson AGX Thor SoM overview table); no GPU-to-GPU link'),
('gh200', 'NVIDIA GH200 Grace Hopper Superchip (96GB HBM3)', 'NVIDIA', 96000000000,
 'NVIDIA Technical Blog, "Accelerate Large-Scale LLM Inference and KV Cache Offload with CPU-GPU Memory Sharing" (2025-09-05, developer.nvidia.com/blog/accelerate-large-scale-llm-inference-and-kv-cache-offload-with-cpu-gpu-memory-sharing/): the GH200 "utilizes the 96 GB of high-bandwidth GPU memory and accesses the 480 GB of LPDDR memory connected to the CPU"; the Grace CPU''s LPDDR5X (480GB or 120GB: device names "NVIDIA GH200 480GB", "NVIDIA GH200 120GB") is not counted',
 102005473280, 'PyTorch on a GH200 (96 GB): "GPU 0 has a total capacity of 95.00 GiB" (NVIDIA Technical Blog above, 2025-09-05); OpenCL on an NVIDIA GH200 480GB, driver 555.42.06: "97280 MB VRAM" = 95.00 GiB (mredenti/PowerCapping configuration/OpenCL_benchmark.md); floor(95.00 x 2^30). nvidia-smi shows 97871MiB (the larger NVML figure); a GH200 120GB on CSCS Alps reads 101468602368 bytes (94.50 GiB) in deviceQuery with CUDA 12.9 (public GitHub CUDA-course notes), a lower reading on another system. Not unified: the total is the HBM alone; deviceQuery on GH200 shows "Integrated GPU sharing Host Memory: No", and vLLM measures free memory with cudaMemGetInfo on compute capability 9.0 (vllm-project/vllm vllm/utils/mem_utils.py; PR #35356 tests is_integrated)',
 4000, 989.5, 989.5, 1979, 1000,
 'The GH200''s GPU is an H100 ("a 72-core ARM-based Grace CPU with an H100 Hopper GPU", spheron.network/blog/nvidia-gh200-guide) with the H100 SXM''s 132 SMs at 1980 MHz (OpenCL on GH200 480GB: "132 at 1980 MHz", mredenti/PowerCapping configuration/OpenCL_benchmark.md), so the H100 SXM Tensor Core rates apply: BF16 and FP16 1,979, FP8 3,958 TFLOPS with sparsity -> 989.5 and 1,979 dense (h100-sxm-80gb, 0002/0005); 96GB HBM3 at 4 TB/s (NVIDIA''s August 2023 GH200 announcement as reported by nishikiout.net/entry/2023/08/09/143040: "96GB HBM3@4TB/s", and svethardware.cz); module power (Grace CPU, GPU and memory) up to 1000 W (artificial-intelligence-wiki.com NVIDIA Grace Hopper guide; nvidia-smi shows power caps of 900 W and 700 W on GH200 480GB nodes in public GitHub logs)',
 'Hopper', 'Grace Hopper Superchip (1 GPU + 1 Grace CPU)', 'HBM3', 0,
 'NVLink 4 (18 links)', 900, NULL, 4,
 'The H100''s NVLink 4: 18 links, 900 GB/s per GPU (stas00/ml-engineering network/README.md; "NVLink 4 a 900 GB/s" for Grace Hopper, geektopia.es 2022-03-22), besides NVLink-C2C at 900 GB/s to the Grace CPU (NVIDIA Technical Blog, 2025-09-05); 4 GH200 per node: NVIDIA''s quad-GH200 node for JUPITER ("una configuración de nodo con cuatro GH200", geektopia.es 2023-11-13) and CSCS Alps, 2,688 GH200 nodes with 10,752 GPUs (eth-cscs/cscs-docs PR #118, docs/alps/hardware.md); single-GH200 cloud instances and GH200 NVL2 pairs also exist'),
('gh200-144gb', 'NVIDIA GH200 Grace Hopper Superchip (144GB HBM3e)', 'NVIDIA', 144000000000,
 'NVIDIA GH200 with HBM3e: the device names itself "NVIDIA GH200 144G HBM3e" (vllm-project/vllm issues #18390 and #37096); 144 GB of HBM3e, announced in August 2023 with 141 GB usable (svethardware.cz: "z 96 GB na nynějších 144 GB ... jen 141 GB"; nishikiout.net/entry/2023/08/09/143040)',
 153008209920, 'vLLM on a GH200: "Free memory on device cuda:0 (74.9/142.5 GiB) on startup is less than desired GPU memory utilization (0.9, 128.25 GiB)" (vllm-project/vllm issue #35313, quoted in PR #35356; the report names DGX Spark and GH200, and only the 144GB GH200 totals 142.5 GiB: a DGX Spark reads 121.69 and a 96GB GH200 95.00); vLLM prints round(x, 2), so 142.5 = 142.50 GiB (0.9 x 142.50 = 128.25 agrees); floor(142.50 x 2^30). nvidia-smi on a GH200 144G HBM3e reads 146831 MiB (driver 580.173.02, public GitHub notes). Not unified, as for gh200: the total is the HBM alone and vLLM measures free memory with cudaMemGetInfo on compute capability 9.0 (vllm/utils/mem_utils.py)',
 NULL, 989.5, 989.5, 1979, 1000,
 'Same H100 GPU and module as gh200: BF16 and FP16 1,979, FP8 3,958 TFLOPS with sparsity -> 989.5 and 1,979 dense; module up to 1000 W (artificial-intelligence-wiki.com NVIDIA Grace Hopper guide). Bandwidth: announced as 5 TB/s in August 2023 (nishikiout.net, svethardware.cz); the shipping figure was not found -> NULL',
 'Hopper', 'Grace Hopper Superchip (1 GPU + 1 Grace CPU)', 'HBM3e', 0,
 'NVLink 4 (18 links)', 900, NULL, 2,
 'The H100''s NVLink 4: 18 links, 900 GB/s per GPU (stas00/ml-engineering network/README.md), besides NVLink-C2C to the Grace CPU; 2 per node: vllm-project/vllm issue #37096 lists "GPU 0: NVIDIA GH200 144G HBM3e GPU 1: NVIDIA GH200 144G HBM3e" in one node (a GH200 NVL2 pair)'),
('gb200', 'NVIDIA GB200 (per Blackwell GPU, GB200 NVL72)', 'NVIDIA', 186000000000,
 'NVIDIA GB200 NVL72 product page, individual Blackwell GPU: "186GB HBM3E | 8TB/s" (spec table copied at zdszero.github.io/Computer/Artificial_Intelligence/Hardware.html and in public GitHub notes); up to 372 GB HBM3e per GB200 superchip of 2 GPUs (Supermicro GB200 NVL72 SuperCluster datasheet); "accelerator_memory_capacity": "186 GB" (mlcommons/inference_results_v6.1 closed/Crusoe/systems/GB200-NVL72_GB200-186GB_aarch64x16_Dynamo.json)',
 197901355581, 'PyTorch on 4x NVIDIA GB200 (vLLM 0.21, TP=4): "GPU 3 has a total capacity of 184.31 GiB" (vllm-project/vllm issue #43951; the same figure in the reporter''s comment on PR #41268); floor(184.31 x 2^30). nvidia-smi shows 189471MiB per NVIDIA GB200 (the larger NVML figure). Not unified: the total is the GPU''s HBM alone, not the Grace CPU''s LPDDR5X, and vLLM measures free memory with cudaMemGetInfo on compute capability 10.0 (vllm-project/vllm vllm/utils/mem_utils.py)',
 8000, 2500, 2500, 5000, 1200,
 'NVIDIA GB200 NVL72 product page, individual Blackwell GPU: "FP8/FP6 Tensor Core 10 PFLOPS", "FP16/BF16 Tensor Core 5 PFLOPS" with sparsity (dense = half: 5,000 and 2,500 TFLOPS; the HGX B200 column reads 9 and 4.5, the b200 row''s 4,500 and 2,250 dense), "186GB HBM3E | 8TB/s", "Max Thermal Design Power (TDP) Configurable up to 1,200W" (table copied at zdszero.github.io/Computer/Artificial_Intelligence/Hardware.html and in public GitHub notes); "Compute per GPU (BF16) 2,500 TFLOP/s" in a public GH200/GB200 comparison table',
 'Blackwell', 'Grace Blackwell Superchip (2 GPUs + 1 Grace CPU)', 'HBM3e', 0,
 'NVLink 5 (18 links, NVL72 switch domain)', 1800, NULL, 4,
 'NVIDIA GB200 NVL72: fifth-generation NVLink 1.8 TB/s per GPU, 72 GPUs in one NVLink domain, "Total NVLink Bandwidth 130 TB/s" (table copied at zdszero.github.io/Computer/Artificial_Intelligence/Hardware.html); 4 GPUs per node: "accelerators_per_node": 4, "Full NVLink mesh within each 4-GPU node (NV18 via NVSwitch, confirmed via nvidia-smi topo -m)" (mlcommons/inference_results_v6.1 closed/Crusoe/systems/GB200-NVL72_GB200-186GB_aarch64x16_Dynamo.json); vllm-project/vllm issue #43951 runs TP=4 on one 4-GPU host')
ON CONFLICT DO NOTHING;

INSERT INTO gpu_aliases (alias, gpu_id) VALUES
('jetson-thor', 'jetson-agx-thor'),
('jetson-t5000', 'jetson-agx-thor'),
('nvidia-thor', 'jetson-agx-thor'),
('gh200-96gb', 'gh200'),
('gh200-480gb', 'gh200'),
('gh200-120gb', 'gh200'),
('nvidia-gh200', 'gh200'),
('gh200-hbm3e', 'gh200-144gb'),
('gh200-144g-hbm3e', 'gh200-144gb'),
('gb200-186gb', 'gb200'),
('gb200-nvl72', 'gb200'),
('nvidia-gb200', 'gb200')
ON CONFLICT DO NOTHING;
