-- Schema version 8: GPUs whose memory is the host's (unified memory: the CPU
-- and the GPU share one LPDDR pool, as on NVIDIA's GB10 in the DGX Spark and
-- on Jetson). On these, the CUDA driver reports the host's memory, and vLLM
-- measures what is free from the operating system's available memory
-- (MemorySnapshot.measure takes psutil.virtual_memory().available on
-- integrated GPUs; vLLM issues #48140 and #46307 and the MiaAI-Lab
-- GLM-5.3-Flash-EXL3-2x-DGX-Sparks issue #47 show the check and its misses):
-- the engine's share must be free in host memory when it starts, and the
-- operating system and every other process draw on the same pool.
--
-- unified_memory is NULL where not stated (every earlier row: discrete GPUs
-- with their own memory), 1 for unified. Its source is usable_memory_source.
ALTER TABLE gpus ADD COLUMN unified_memory INTEGER CHECK (unified_memory IN (0, 1));

INSERT INTO gpus (id, name, vendor, memory_bytes, memory_source,
                  usable_memory_bytes, usable_memory_source,
                  memory_bandwidth_gb_s, tdp_watts, spec_source,
                  architecture, form_factor, memory_type, unified_memory,
                  interconnect, interconnect_gb_s, pcie_gen, gpus_per_node, interconnect_source) VALUES
('gb10', 'NVIDIA GB10 (DGX Spark)', 'NVIDIA', 128000000000,
 'NVIDIA DGX Spark product page and hardware guide: "128 GB LPDDR5x unified" memory shared by the Grace CPU and the Blackwell GPU (as tabulated at ai-infrastructure.net/dgx-spark, verified against the NVIDIA pages June 2026)',
 130663642562, 'Unified memory as the CUDA driver reports it on DGX Spark: "121.69 GiB unified LPDDR5X" (llamastash/llamastash issue #80, vLLM 0.28 on GB10, driver 580.173.02) and "CUDA free caps at ~102/121.69 GiB" (MiaAI-Lab/GLM-5.3-Flash-EXL3-2x-DGX-Sparks issue #47); vLLM issue #56824: "121.7 GiB unified memory"; floor(121.69 x 2^30)',
 273, 140,
 'NVIDIA DGX Spark product page: 273 GB/s LPDDR5x; GB10 about 140 W TDP (ai-infrastructure.net/dgx-spark, from the NVIDIA product page and DGX Spark hardware guide); BF16 tensor throughput not published as a dense figure -> NULL',
 'Blackwell (sm_121)', 'Desktop system (GB10 superchip)', 'LPDDR5X (unified with the CPU)', 1,
 'ConnectX-7, 2 x 200 GbE (no NVLink between units)', NULL, NULL, 1,
 'NVIDIA DGX Spark: one GB10 per unit, two units clustered over dual ConnectX-7 200 GbE QSFP (dgx-spark.warehack.ing hardware page; ai-infrastructure.net/dgx-spark)');

INSERT INTO gpu_aliases (alias, gpu_id) VALUES
('dgx-spark', 'gb10'),
('nvidia-gb10', 'gb10');
