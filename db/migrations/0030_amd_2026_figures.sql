-- Schema version 30: AMD Instinct MI325X's and MI355X's driver-reported totals and their
-- reference nodes' scale-out networks. Data only.
--
-- Both rows carried their marketed capacity only (usable_memory_bytes NULL: answers used
-- 256e9 and 288e9 bytes with the usable_memory_unknown warning) and no scale-out figure (plans
-- across nodes took the PCIe board class's default, one 100 Gb/s uplink shared by eight GPUs,
-- 1.56 GB/s a GPU: the answer warns scale_out_assumed). ROCm's GPU memory pool, as rocminfo
-- prints it, is what torch reports as total_memory: on the MI300X both read 196,592 MiB
-- (rocminfo "Size: 201310208(0xbffc000) KB", ROCm/hipBLASLt issue #1786; torch
-- "total_memory=196592MB", ROCm/ROCm issue #4203), the part's binary capacity less 16 MiB;
-- the MI325X and MI355X pools read the same way (256 GiB and 288 GiB less 16 MiB). Each
-- reference node has one 400 Gb/s NIC a GPU, as the MI300X's Azure node (0013).
--
-- Only rows still at revision 1, carrying the seed's name and no figure of their own, change;
-- PostgreSQL catalogs take it through their seed sync.

UPDATE gpus SET usable_memory_bytes = 274861129728,
    usable_memory_source = 'rocminfo on AMD Instinct MI325X (gfx942), the GPU pool "Segment: GLOBAL; FLAGS: EXTENDED FINE GRAINED ... Size: 268419072(0xfffc000) KB" (ROCm/rocm-systems issue #8263): 268,419,072 KiB = 274,861,129,728 bytes, 256 GiB less 16 MiB; on the MI300X the same pool is torch''s total_memory (201310208 KB, ROCm/hipBLASLt issue #1786; total_memory=196592MB, ROCm/ROCm issue #4203)'
WHERE id = 'mi325x' AND name = 'AMD Instinct MI325X' AND revision = 1
    AND usable_memory_bytes IS NULL;

UPDATE gpus SET usable_memory_bytes = 309220868096,
    usable_memory_source = 'rocminfo on AMD Instinct MI355X (gfx950), the GPU pool "Segment: GLOBAL; FLAGS: COARSE GRAINED ... Size: 301973504(0x11ffc000) KB" (ROCm/rocm-libraries issue #9055, ROCm/ATOM issue #1400): 301,973,504 KiB = 309,220,868,096 bytes (287.98 GiB), 288 GiB less 16 MiB; vLLM at --gpu-memory-utilization 0.95 requests 273.6 GiB of it (SemiAnalysisAI/InferenceX PR #2522)'
WHERE id = 'mi355x' AND name = 'AMD Instinct MI355X' AND revision = 1
    AND usable_memory_bytes IS NULL;

UPDATE gpus SET scale_out_gb_s = 50,
    scale_out_source = 'Supermicro AS-8126GS-TNMR with eight MI325X as submitted to MLPerf Training v5.1 (mlcommons/training_results_v5.1, MangoBoost/systems/AS-8126GS-TNMR.json): "8x BCM957608-P1400GDF00 (Thor2), Single-Port 400 Gb/s QSFP-DD PCI Express 5.0 x16 Ethernet Network Interface Card" (an OEM server, no cloud page found). 8 x 400 Gb/s / 8 GPUs = 400 Gb/s = 50 GB/s per GPU, one direction'
WHERE id = 'mi325x' AND name = 'AMD Instinct MI325X' AND revision = 1
    AND scale_out_gb_s IS NULL;

UPDATE gpus SET scale_out_gb_s = 50,
    scale_out_source = 'Crusoe MI355X nodes as submitted to MLPerf Inference v6.1 (mlcommons/inference_results_v6.1, closed/Crusoe/systems/512xMI355X_Crusoe_GPT.json): "8x AMD Pollara 400G RoCE per node (3200 Gbps aggregate/node)"; AMD ROCm docs, SGLang distributed inference with MoRI: "8x AMD Pensando Pollara 400 AI NICs per node, providing a dedicated 1:1 mapping between GPUs and network interfaces". 8 x 400 Gb/s / 8 GPUs = 400 Gb/s = 50 GB/s per GPU, one direction'
WHERE id = 'mi355x' AND name = 'AMD Instinct MI355X' AND revision = 1
    AND scale_out_gb_s IS NULL;
