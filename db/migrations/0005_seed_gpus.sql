-- Schema version 5: the accelerator catalog grows from 4 to 25 entries, the
-- columns added by version 3 are filled for the first four, and GPU prices get
-- their first dated rows. Every number carries its source in the row itself
-- (the *_source columns) and is explained here. Nothing in this file changes the
-- schema.
--
-- Conventions (the same as 0002_seed.sql):
-- * memory_bytes is the marketed capacity in decimal bytes (80 GB = 80e9), as
--   in 0002. The "GB" on most of these parts is nearer binary GiB (AMD's ROCm
--   hardware table lists 192/256/128 for the MI300X/MI325X/MI250X in a column
--   headed "VRAM (GiB)"; the "80GB" H100 reports 79.22 GiB), so for every HBM
--   and GDDR6X part here the driver-reported total is LARGER than
--   memory_bytes (by up to 7%); only the GDDR6 parts with ECC or a driver
--   reservation (L4, L40S, T4, A10G) read slightly below it. Fit checks use
--   usable_memory_bytes, which is the real figure.
-- * usable_memory_bytes is the total the CUDA/ROCm driver reports
--   (torch.cuda.get_device_properties().total_memory or mem_get_info's total,
--   which vLLM logs), never the larger nvidia-smi MiB figure. Sources print it
--   in three ways:
--     - vLLM "total_gpu_memory (X GiB)", 2 decimals: floor(X * 2^30);
--     - Unsloth's banner "Max memory: X GB" and Unsloth notebooks' "GPU = ...
--       Max memory = X GB": round(total_memory / 1024^3, 3), i.e. GiB with 3
--       decimals despite the "GB" label: floor(X * 2^30);
--     - torch's repr "_CudaDeviceProperties(... total_memory=N MB ...)": N is
--       total_memory // 2^20 (MiB, truncated): N * 2^20, at most 1 MiB low.
--   The figure depends on the driver version (the same card reads ~0.1-0.2 GiB
--   apart across drivers, e.g. T4 14.56-14.76 GiB); where sources differ we
--   prefer a recent Linux figure and say which one we used. Unknown -> NULL.
-- * Dense tensor TFLOPS. NVIDIA datasheets mark Tensor Core figures "with
--   sparsity" (*); dense = half. AMD's ROCm tables list dense figures. FP16 is
--   the FP16 Tensor Core row; for GeForce cards it is the FP32-accumulate rate,
--   as bf16_tflops already is for the RTX 4090 in 0002. Volta/Turing have no
--   BF16 and Ampere/Volta/Turing no FP8: those stay NULL.
-- * interconnect_gb_s is GPU-to-GPU bandwidth per GPU, both directions, as the
--   vendor states it; pcie_gen is the host interface generation;
--   gpus_per_node is the usual server for that part, only with a source.
-- * Many spec figures below were confirmed through public copies of vendor
--   pages (spec tables quoted in GitHub files, documentation mirrors), not the
--   vendor PDFs themselves; the source text says so.
-- * Prices go into gpu_prices only; its triggers (0003) copy the latest row of
--   each kind into gpus.price_* / purchase_price_*. Undated sources are dated
--   2026-11-23 and say so.

-- ---------------------------------------------------------------------------
-- 1. The four GPUs of 0002: architecture, form factor, memory type, FP16,
--    interconnect, and the A100 80GB and RTX 4090 driver totals. Only rows
--    still at revision 1 (never changed through the API) are filled in, so a
--    user's own edits survive the upgrade; likewise the inserts below skip ids
--    and aliases a user already took, and a price is seeded only for a GPU
--    with no price of that kind yet.

-- H100 SXM: FP16 Tensor Core 1,979* -> 989.5 dense; NVLink 4 with 18 links per
-- GPU = 900 GB/s; PCIe Gen5 128 GB/s; DGX H100 = 8 GPUs.
UPDATE gpus SET
  architecture = 'Hopper', form_factor = 'SXM5', memory_type = 'HBM3',
  fp16_tflops = 989.5,
  spec_source = 'NVIDIA H100 Tensor Core GPU datasheet, H100 SXM column: 3.35TB/s, BF16 1,979, FP16 1,979 and FP8 3,958 TFLOPS with sparsity (dense = half), up to 700W (FP16 row as quoted from nvidia.com/en-us/data-center/h100 in public GitHub spec tables)',
  interconnect = 'NVLink 4 (18 links)', interconnect_gb_s = 900, pcie_gen = 5, gpus_per_node = 8,
  interconnect_source = 'NVIDIA H100 product page, H100 SXM column: "NVIDIA NVLink: 900GB/s, PCIe Gen5: 128GB/s", server options "NVIDIA DGX H100 with 8 GPUs" (spec table copied in public GitHub notes); 18 NVLink 4 links per GPU: stas00/ml-engineering network/README.md (NVLink table; nvidia-smi topo shows NV18 between the 8 GPUs of an H100 node)'
WHERE id = 'h100-sxm-80gb' AND revision = 1;

-- A100 SXM 80GB: FP16 Tensor Core 312 | 624*; NVLink 3 with 12 links = 600
-- GB/s; PCIe Gen4 64 GB/s; DGX A100 = 8 GPUs. Driver total 79.15 GiB ->
-- floor(79.15 * 2^30) = 84,986,665,369 bytes (the Unsloth banner in the same
-- log reads 79.151 GiB, the same figure).
UPDATE gpus SET
  architecture = 'Ampere', form_factor = 'SXM4', memory_type = 'HBM2e',
  fp16_tflops = 312,
  spec_source = 'NVIDIA A100 80GB datasheet, SXM column: 2,039GB/s, BF16 and FP16 Tensor Core 312 TFLOPS dense (624 with sparsity), 400W; no FP8 support (datasheet table copied in public GitHub notes)',
  usable_memory_bytes = 84986665369,
  usable_memory_source = 'vLLM 0.8.2 log on NVIDIA A100-SXM4-80GB: "total_gpu_memory (79.15GiB)" (datawhalechina/self-llm, models/Gemma3 GRPO tutorial; Unsloth banner in the same log: "Max memory: 79.151 GB")',
  interconnect = 'NVLink 3 (12 links)', interconnect_gb_s = 600, pcie_gen = 4, gpus_per_node = 8,
  interconnect_source = 'NVIDIA A100 80GB datasheet, SXM column: "NVLink: 600 GB/s; PCIe Gen4: 64 GB/s"; 12 NVLink 3 links per GPU and the 8-GPU DGX/HGX A100 node (nvidia-smi topo shows NV12 between 8 A100s): stas00/ml-engineering network/README.md'
WHERE id = 'a100-sxm-80gb' AND revision = 1;

-- L40S: FP16 Tensor Core 362.05 | 733* (the datasheet's dense figure, quoted
-- with FP16 accumulate); PCIe Gen4 x16; no NVLink.
UPDATE gpus SET
  architecture = 'Ada Lovelace', form_factor = 'PCIe (dual-slot)', memory_type = 'GDDR6 (ECC)',
  fp16_tflops = 362.05,
  spec_source = 'NVIDIA L40S datasheet: 864GB/s, BF16 and FP16 Tensor Core 362.05 dense (733 with sparsity), FP8 733 dense (1,466 with sparsity), 350W (datasheet table "FP16 Tensor Core 362.05 I 733*" quoted in public GitHub notes)',
  interconnect = 'PCIe only (no NVLink)', pcie_gen = 4,
  interconnect_source = 'NVIDIA L40S datasheet: "PCIe Gen4 x16: 64GB/s bidirectional", "NVLink Support: No" (as quoted in public GitHub notes)'
WHERE id = 'l40s' AND revision = 1;

-- RTX 4090: FP16 Tensor with FP32 accumulate 165.2 | 330.4* (Ada whitepaper
-- Table 2), PCIe 4.0 x16, no NVLink on Ada GeForce. Driver total 23.527 GiB on
-- Linux -> floor(23.527 * 2^30) = 25,261,923,893 bytes. (A Windows/WDDM torch
-- print reads 24563 MiB and one 2026 Linux log 23.51 GiB; we use the Linux
-- figure seen twice.)
UPDATE gpus SET
  architecture = 'Ada Lovelace', form_factor = 'PCIe (consumer card)', memory_type = 'GDDR6X',
  fp16_tflops = 165.2,
  spec_source = 'NVIDIA Ada Lovelace architecture whitepaper, appendix table: 1,008GB/s, BF16 165.2 TFLOPS dense with FP32 accumulate, FP8 330.3 dense, 450W; FP16 Tensor with FP32 accumulate 165.2 | 330.4* (Table 2, as quoted in public GitHub notes)',
  usable_memory_bytes = 25261923893,
  usable_memory_source = 'Unsloth banner "NVIDIA GeForce RTX 4090. Num GPUs = 1. Max memory: 23.527 GB. Platform: Linux." (torch total_memory / 2^30) in two public notebooks (Unsloth 2025.6.3 / torch 2.7.0 and Unsloth 2025.9.7 / torch 2.8.0)',
  interconnect = 'PCIe only (no NVLink)', pcie_gen = 4,
  interconnect_source = 'RTX 4090 host interface PCIe 4.0 x16 (public GitHub GPU comparison tables); Ada GeForce cards have no NVLink'
WHERE id = 'rtx-4090' AND revision = 1;

-- ---------------------------------------------------------------------------
-- 2. Twenty-one more accelerators (the 20 asked for plus the PCIe A10).
--
-- Per row, the derivations:
-- h100-pcie-80gb: BF16/FP16 1,513* -> 756.5, FP8 3,026* -> 1,513; TDP is
--   "300-350W" configurable, 350 = the maximum (product brief). Driver total:
--   torch total_memory=81008MB -> 81008 * 2^20 = 84,943,044,608 bytes.
-- h100-nvl-94gb: BF16/FP16 1,671* -> 835.5, FP8 3,341* -> 1,670.5; TDP
--   "350-400W" configurable, 400 = maximum. 93.115 GiB -> 99,981,469,941.
-- h200-sxm-141gb: same compute as H100 SXM (1,979*/3,958*). torch
--   total_memory=143156MB -> 150,109,945,856 bytes (= 139.80 GiB; an Unsloth
--   banner on another H200 reads 139.801 GB, the same figure).
-- b200: NVIDIA publishes 8-GPU totals: DGX B200 1,440GB and 64TB/s -> 180GB
--   and 8TB/s per GPU; HGX B200 FP16/BF16 36 PFLOPS and FP8 72 PFLOPS with
--   sparsity -> 2,250 and 4,500 dense per GPU. 192GB was quoted at the 2024
--   announcement; the shipping figure is 180GB. torch total_memory=182642MB
--   -> 191,514,017,792 bytes (178.36 GiB: NVIDIA's "180GB" is ~GiB).
-- a100-sxm-40gb: 312 | 624*; 39.394 GiB (Unsloth 2025.2.15) ->
--   42,298,985,414 bytes (vLLM logs 39.38 GiB on an A100 40GB; older drivers
--   read up to 39.56 GiB).
-- a100-pcie-80gb: 79.151 GiB -> 84,987,739,111 bytes.
-- a100-pcie-40gb: torch total_memory=40326MB -> 42,284,875,776 bytes.
-- l4: BF16/FP16 242* -> 121, FP8 485* -> 242.5. 22.161 GiB -> 23,795,192,561.
-- a10g: NVIDIA publishes no A10G datasheet; the A10's figures (600GB/s, 125
--   TFLOPS, 150W) are not assumed. torch total_memory=22587MB ->
--   23,684,186,112 bytes.
-- t4: "65 FP16 TFLOPS" mixed precision (Turing has no sparsity: dense as
--   printed), no BF16/FP8. 14.563 GiB -> 15,636,902,182 bytes.
-- v100-sxm-16gb / -32gb: "Tensor Performance 125 TFLOPS" (SXM2) FP16, no
--   BF16/FP8; NVLink 2: 6 links x 25 GB/s per direction = 300 GB/s both ways.
--   16GB: torch total_memory=16160MB -> 16,944,988,160 bytes. 32GB SXM2: no
--   driver figure found (the 32510MB seen is a V100-PCIE-32GB) -> NULL.
-- rtx-3090: GA102 whitepaper Table 9: FP16 and BF16 with FP32 accumulate
--   71 | 142*; NVLink 3 bridge: four x4 links, 112.5 GB/s total between two
--   GPUs. vLLM "Free memory on device (22.93/23.56 GiB)" -> floor(23.56 * 2^30)
--   = 25,297,357,373 bytes (another vLLM log reads 23.58 GiB).
-- rtx-6000-ada: datasheet "Tensor Performance 1,457.0 TFLOPS" = FP8 with
--   sparsity -> 728.5 dense; no BF16/FP16 figure on the datasheet -> NULL.
--   torch total_memory=48622MB -> 50,983,862,272 bytes.
-- rtx-a6000: GA102 whitepaper Table 3 "Peak BF16 Tensor TFLOPS with FP32
--   Accumulate 154.8/309.6" (the datasheet rounds the sparse figure to 309.7);
--   FP16 the same. torch total_memory=48676MB -> 51,040,485,376.
-- a10 (the PCIe A10, not AWS's A10G): datasheet "BFLOAT16 Tensor Core 125 TF |
--   250 TF*" -> 125 dense, FP16 the same; no driver figure found -> NULL.
-- mi300x: ROCm mi300.md dense Matrix FP16/BF16 1,307.4, FP8 2,614.9, 5.3TB/s;
--   7 Infinity Fabric links to the other 7 GPUs of the platform at 128 GB/s
--   peak each = 896 GB/s. torch total_memory=196592MB -> 206,141,652,992
--   bytes (191.98 GiB; 192 decimal GB would be 192e9).
-- mi325x: same CDNA 3 compute as MI300X (1,307.4 / 2,614.9), 6TB/s, 1000W;
--   no driver figure found -> NULL.
-- mi250x: 383 TFLOPS FP16/BF16 for the whole module (2 GCDs); 3.28TB/s;
--   560W. ROCm exposes the two GCDs as two 64 GiB devices (torch
--   total_memory=65520MB each on LUMI), so no single-device total is stored.
-- gaudi2: Intel Hot Chips 2024: BF16 432 TFLOPS, 96GB, 2.46TB/s, 600W, PCIe
--   64GB/s bidirectional (= Gen4 x16), embedded NIC 4.8Tb/s bidirectional
--   (24 x 100GbE) = 600 GB/s. FP8 is quoted as 865 or 835 TFLOPS by
--   different secondary sources -> NULL.
-- gaudi3: Intel Hot Chips 2024: BF16 and FP8 matrix 1,835 TFLOPS, 128GB,
--   3.67TB/s, 900W (air-cooled OAM), PCIe Gen5 x16, networking 1,200 GB/s
--   bidirectional (24 x 200GbE; 21 of them are scale-up ports = 1,050 GB/s
--   inside an HLS-3 box per Intel's docs). FP16 matrix not stated -> NULL.
INSERT INTO gpus (id, name, vendor, memory_bytes, memory_source,
                  usable_memory_bytes, usable_memory_source,
                  memory_bandwidth_gb_s, bf16_tflops, fp16_tflops, fp8_tflops, tdp_watts, spec_source,
                  architecture, form_factor, memory_type,
                  interconnect, interconnect_gb_s, pcie_gen, gpus_per_node, interconnect_source) VALUES
('h100-pcie-80gb', 'NVIDIA H100 PCIe 80GB', 'NVIDIA', 80000000000,
 'NVIDIA H100 datasheet, H100 PCIe column: 80GB HBM2e',
 84943044608, 'torch.cuda.get_device_properties on NVIDIA H100 PCIe: "total_memory=81008MB" (torch 2.0.1, public GitHub snippet)',
 2000, 756.5, 756.5, 1513, 350,
 'NVIDIA H100 datasheet, H100 PCIe column: BF16 and FP16 Tensor Core 1,513 and FP8 3,026 TFLOPS with sparsity (dense = half), 2TB/s (datasheet table quoted in public GitHub notes; dense 756/1,513 also in stas00/ml-engineering compute/accelerator/README.md); H100 PCIe product brief PB-11133-001_v02 (Nov 2022, copy at manuals.plus): maximum TDP 350 W, memory bandwidth greater than 2,000 GB/s',
 'Hopper', 'PCIe (dual-slot)', 'HBM2e',
 'NVLink bridge (pairs)', 600, 5, NULL,
 'NVIDIA H100 datasheet, H100 PCIe column: NVLink 600 GB/s (bridge), PCIe Gen5 (as quoted in public GitHub spec notes); product brief PB-11133-001: "dual-slot 10.5 inch PCI Express Gen5 card"'),
('h100-nvl-94gb', 'NVIDIA H100 NVL 94GB', 'NVIDIA', 94000000000,
 'NVIDIA H100 product page, H100 NVL column: 94GB HBM3',
 99981469941, 'Unsloth-notebook print "GPU = NVIDIA H100 NVL. Max memory = 93.115 GB." (round(total_memory / 1024^3, 3)) in a public padding-free training write-up (TRL SFT, Llama-3.1-8B)',
 3900, 835.5, 835.5, 1670.5, 400,
 'NVIDIA H100 NVL datasheet (PNY-hosted h100-nvl-datasheet.pdf) and H100 product page NVL column: BF16 and FP16 Tensor Core 1,671, FP8 3,341 TFLOPS with sparsity (dense = half), 94GB, 3.9TB/s (quoted in public GitHub notes); TDP 350-400W configurable, 400W maximum (stas00/ml-engineering power table)',
 'Hopper', 'PCIe (dual-slot, NVLink bridge pairs)', 'HBM3',
 'NVLink 4 bridge (pairs)', 600, 5, NULL,
 'NVIDIA H100 product page, H100 NVL column: "NVIDIA NVLink: 600GB/s, PCIe Gen5: 128GB/s", server options "Partner and NVIDIA-Certified Systems with 1-8 GPUs" (spec table copied in public GitHub notes)'),
('h200-sxm-141gb', 'NVIDIA H200 SXM 141GB', 'NVIDIA', 141000000000,
 'NVIDIA H200 product page, H200 SXM column: "GPU Memory 141GB" HBM3e',
 150109945856, 'torch.cuda.get_device_properties on NVIDIA H200: "total_memory=143156MB" (ai-bot-pro/achatbot, deploy/modal/src/llm/vllm/vlm/skywork_r1v.py); Unsloth banner on an H200 "Max memory: 139.801 GB" agrees',
 4800, 989.5, 989.5, 1979, 700,
 'NVIDIA H200 product page (nvidia.com/en-us/data-center/h200), H200 SXM column: "GPU Memory Bandwidth 4.8TB/s", "BFLOAT16 Tensor Core 1,979 TFLOPS", "FP16 Tensor Core 1,979 TFLOPS", "FP8 Tensor Core 3,958 TFLOPS" with sparsity (dense = half), "Max Thermal Design Power (TDP) Up to 700W (configurable)" (quoted in public GitHub code)',
 'Hopper', 'SXM5', 'HBM3e',
 'NVLink 4 (18 links)', 900, 5, 8,
 'NVLink 4 900 GB/s and the 8-GPU HGX H200 board: NVIDIA H200 announcement as reported by geektopia.es (2023-11-13: "NVLink 4 de 900 GB/s", "HGX H200 que incluye ocho"); 18 links per GPU and "H200 SXM lists PCIe Gen5 at 128GBps": stas00/ml-engineering network/README.md'),
('b200', 'NVIDIA B200 (HGX/DGX B200)', 'NVIDIA', 180000000000,
 'NVIDIA DGX B200: 1,440GB total GPU memory for 8 GPUs = 180GB HBM3e each (192GB was quoted at the 2024 announcement)',
 191514017792, 'torch.cuda.get_device_properties on NVIDIA B200: "total_memory=182642MB" (ai-bot-pro/achatbot, deploy/modal/src/llm/vllm/vlm/skywork_r1v.py)',
 8000, 2250, 2250, 4500, 1000,
 'NVIDIA DGX B200 / HGX B200 pages (8-GPU totals divided by 8): 64TB/s -> 8TB/s; FP16/BF16 36 PFLOPS and FP8 72 PFLOPS with sparsity -> 2,250 and 4,500 TFLOPS dense per GPU (as recorded in public GitHub notes citing nvidia.com/en-us/data-center/dgx-b200 and /hgx; same dense figures in stas00/ml-engineering compute/accelerator/README.md); TDP 1000W (ml-engineering power table)',
 'Blackwell', 'SXM (HGX B200 baseboard)', 'HBM3e',
 'NVLink 5 (18 links)', 1800, NULL, 8,
 'NVLink 5: 18 links, 1,800 GB/s duplex per B200 (stas00/ml-engineering network/README.md NVLink table); DGX B200 ships 8 GPUs'),
('a100-sxm-40gb', 'NVIDIA A100 SXM4 40GB', 'NVIDIA', 40000000000,
 'NVIDIA A100 (40GB) datasheet, SXM column: 40GB HBM2',
 42298985414, 'Unsloth 2025.2.15 banner "GPU: NVIDIA A100-SXM4-40GB. Max memory: 39.394 GB. Platform: Linux." (torch total_memory / 2^30); vLLM logs "total_gpu_memory (39.38GiB)" on an A100 40GB (vllm-project/vllm issue #16570)',
 1555, 312, 312, NULL, 400,
 'NVIDIA A100 Tensor Core GPU datasheet: BF16 and FP16 Tensor Core 312 TFLOPS dense (624 with sparsity), SXM max TDP 400W; 1,555GB/s for the 40GB HBM2 part (public copies of the datasheet table; glennklockwood.com A100 notes: 1.555 TB/s, 400 W maximum); no FP8',
 'Ampere', 'SXM4', 'HBM2',
 'NVLink 3 (12 links)', 600, 4, 8,
 'NVIDIA A100 datasheet: NVLink 600GB/s, PCIe Gen4 64GB/s (glennklockwood.com: "300+300 GB/s NVLink", "32+32 GB/s PCIe Gen4"); 12 NVLink 3 links and the 8-GPU DGX/HGX A100 node: stas00/ml-engineering network/README.md'),
('a100-pcie-80gb', 'NVIDIA A100 PCIe 80GB', 'NVIDIA', 80000000000,
 'NVIDIA A100 80GB datasheet, PCIe column: 80GB HBM2e',
 84987739111, 'Unsloth-notebook print "GPU = NVIDIA A100 80GB PCIe. Max memory = 79.151 GB." (round(total_memory / 1024^3, 3), public GitHub training log)',
 1935, 312, 312, NULL, 300,
 'NVIDIA A100 80GB datasheet, PCIe column: "GPU Memory Bandwidth 1,935 GB/s", BF16 and FP16 Tensor Core 312 TFLOPS dense (624 with sparsity), "Max Thermal Design Power 300 W" (datasheet table copied in public GitHub notes); no FP8',
 'Ampere', 'PCIe (dual-slot)', 'HBM2e',
 'NVLink 3 bridge (2 GPUs)', 600, 4, NULL,
 'NVIDIA A100 80GB datasheet, PCIe column: "NVLink Bridge for 2 GPUs: 600 GB/s; PCIe Gen4: 64 GB/s" (copied in public GitHub notes)'),
('a100-pcie-40gb', 'NVIDIA A100 PCIe 40GB', 'NVIDIA', 40000000000,
 'NVIDIA A100 40GB PCIe product brief PB-10137-001 (Sept 2020): 40GB HBM2',
 42284875776, 'torch.cuda.get_device_properties on NVIDIA A100-PCIE-40GB: "total_memory=40326MB" (torch 1.9.0+cu111, public GitHub notes)',
 1555, 312, 312, NULL, 250,
 'NVIDIA A100 (40GB) datasheet, PCIe column: BF16 and FP16 Tensor Core 312 TFLOPS dense (624 with sparsity), 1,555GB/s ("A100 40GB PCIe is advertised at 1,555GB/s", karpathy/llm.c kernels), max TDP 250W (thundercompute.com A100 spec table); no FP8',
 'Ampere', 'PCIe (dual-slot)', 'HBM2',
 'NVLink 3 bridge (2 GPUs)', NULL, 4, NULL,
 'PCIe 4.0 x16 card (NVIDIA product brief PB-10137-001: "dual-slot 10.5 inch PCI Express Gen4 card"; the brief has an NVLink Bridge Support section, bridge bandwidth for the 40GB PCIe not confirmed -> NULL)'),
('l4', 'NVIDIA L4', 'NVIDIA', 24000000000,
 'NVIDIA L4 datasheet: 24GB GDDR6',
 23795192561, 'Unsloth 2025.8.8 banner "NVIDIA L4. Num GPUs = 1. Max memory: 22.161 GB. Platform: Linux." (torch total_memory / 2^30); Unsloth 2024.8 on another L4 read 22.168',
 300, 121, 121, 242.5, 72,
 'NVIDIA L4 datasheet (nvidia.com/en-us/data-center/l4; Cisco-hosted copy): "FP16 Tensor Core 242 teraFLOPS*", "BFLOAT16 Tensor Core 242 teraFLOPS*", "FP8 Tensor Core 485 teraFLOPs*" (* with sparsity, "one-half lower without"), 300GB/s, 72W (quoted in public GitHub notes)',
 'Ada Lovelace', 'PCIe (single-slot, low-profile)', 'GDDR6',
 'PCIe only (no NVLink)', NULL, 4, NULL,
 'NVIDIA L4 datasheet: PCIe Gen4 x16 (as tabulated in public GitHub spec notes citing resources.nvidia.com/en-us-l4/l4-datasheet)'),
('a10g', 'NVIDIA A10G (AWS G5)', 'NVIDIA', 24000000000,
 'AWS EC2 G5 instance documentation: 24 GB of memory per NVIDIA A10G',
 23684186112, 'torch.cuda.get_device_properties on NVIDIA A10G: "total_memory=22587MB" (TorchCodec docs, CUDA decoding tutorial output, torch 2.15 nightly cu130); an Unsloth 2024.8 banner reads 21.988 GB on an older driver',
 NULL, NULL, NULL, NULL, NULL, NULL,
 'Ampere', NULL, 'GDDR6',
 NULL, NULL, NULL, NULL, NULL),
('t4', 'NVIDIA T4', 'NVIDIA', 16000000000,
 'NVIDIA T4 product page: 16 GB GDDR6',
 15636902182, 'Unsloth banner "Tesla T4. Num GPUs = 1. Max memory: 14.563 GB. Platform: Linux." (torch total_memory / 2^30), in many public notebooks (Unsloth 2026.4-2026.7, torch 2.10-2.11; also on AWS g4dn.4xlarge); older drivers read 14.74-14.76 GiB (total_memory=15109MB)',
 320, NULL, 65, NULL, 70,
 'NVIDIA T4 product page (nvidia.com/en-us/data-center/tesla-t4): "Mixed Precision (FP16/FP32) 65 FP16 TFLOPS", "320+ GB/s", 70 W (quoted in public GitHub notes); Turing has no BF16 or FP8',
 'Turing', 'PCIe (low-profile)', 'GDDR6',
 'PCIe only', NULL, NULL, NULL, NULL),
('v100-sxm-16gb', 'NVIDIA Tesla V100 SXM2 16GB', 'NVIDIA', 16000000000,
 'NVIDIA Tesla V100 datasheet: 16GB HBM2',
 16944988160, 'torch.cuda.get_device_properties on Tesla V100-SXM2-16GB: "total_memory=16160MB" (several public GitHub logs, torch 1.7-1.8, e.g. YOLOv5 setup output)',
 900, NULL, 125, NULL, 300,
 'NVIDIA Tesla V100 datasheet: "Tensor Performance 125 TFLOPS" (SXM2, FP16), "Max Power 300 W", 900 GB/s (quoted in public GitHub code citing volta-v100-datasheet-update-us-1165301-r5.pdf); Volta has no BF16 or FP8',
 'Volta', 'SXM2', 'HBM2',
 'NVLink 2 (6 links)', 300, 3, NULL,
 'Dell EMC Ready Solutions for AI reference guide: V100-SXM2 has 6 NVLinks at 25 GB/s per direction (150 GB/s uni-directional, i.e. 300 GB/s both ways) and host PCIe 32 GB/s bidirectional (Gen3 x16); NVLink 2 / 6 links / 300 GB/s duplex also in stas00/ml-engineering network/README.md'),
('v100-sxm-32gb', 'NVIDIA Tesla V100 SXM2 32GB', 'NVIDIA', 32000000000,
 'NVIDIA Tesla V100 datasheet: 32GB HBM2',
 NULL, NULL,
 900, NULL, 125, NULL, 300,
 'NVIDIA Tesla V100 datasheet: "Tensor Performance 125 TFLOPS" (SXM2, FP16), "Max Power 300 W", 900 GB/s for both 16GB and 32GB (quoted in public GitHub code); Volta has no BF16 or FP8',
 'Volta', 'SXM2', 'HBM2',
 'NVLink 2 (6 links)', 300, 3, NULL,
 'Dell EMC Ready Solutions for AI reference guide: V100-SXM2 6 NVLinks at 25 GB/s per direction (300 GB/s both ways), host PCIe 32 GB/s bidirectional (Gen3 x16); stas00/ml-engineering network/README.md NVLink table'),
('rtx-3090', 'NVIDIA GeForce RTX 3090', 'NVIDIA', 24000000000,
 'NVIDIA GeForce RTX 3090: 24GB GDDR6X (Tom''s Hardware / Tom''s Guide spec tables)',
 25297357373, 'vLLM log on 8x RTX 3090: "Free memory on device (22.93/23.56 GiB) on startup" (wtdcode/vllm-backport issue #34); vllm-project/vllm issue #10517 logs total_gpu_memory=23.58GiB',
 936, 71, 71, NULL, 350,
 'NVIDIA Ampere GA102 whitepaper, Appendix A Table 9 (RTX 3090): FP16 and BF16 Tensor with FP32 accumulate 71 | 142* TFLOPS, 936 GB/s (quoted in public GitHub notes); Tom''s Hardware spec table: 936 GB/s, total board power 350 W; Ampere has no FP8',
 'Ampere', 'PCIe (consumer card)', 'GDDR6X',
 'NVLink 3 bridge (pairs)', 112.5, 4, NULL,
 'NVIDIA Ampere GA102 whitepaper: "GA102 GPUs utilize NVIDIA''s third-generation NVLink interface, which includes four x4 links ... 112.5 GB/sec total bandwidth between two GPUs"; PCIe Gen 4 (whitepaper section "PCIe Gen 4"; RTX 3090 PCIe 4.0 x16 in public GitHub tables)'),
('rtx-6000-ada', 'NVIDIA RTX 6000 Ada Generation', 'NVIDIA', 48000000000,
 'NVIDIA RTX 6000 Ada datasheet: 48GB GDDR6 with ECC',
 50983862272, 'torch.cuda.get_device_properties on NVIDIA RTX 6000 Ada Generation: "total_memory=48622MB" (torch 2.3.0+cu121, public GitHub snippet)',
 960, NULL, NULL, 728.5, 300,
 'NVIDIA RTX 6000 Ada datasheet (proviz-print-rtx6000-datasheet-web-2504660.pdf): "Tensor Performance 1,457.0 TFLOPS" = FP8 with sparsity (dense = half), 960 GB/s, max power 300W (quoted in public GitHub notes); no dense BF16/FP16 figure on the datasheet',
 'Ada Lovelace', 'PCIe (dual-slot workstation)', 'GDDR6 (ECC)',
 NULL, NULL, NULL, NULL, NULL),
('rtx-a6000', 'NVIDIA RTX A6000', 'NVIDIA', 48000000000,
 'NVIDIA RTX A6000 datasheet: 48 GB GDDR6 with ECC',
 51040485376, 'torch.cuda.get_device_properties on NVIDIA RTX A6000: "total_memory=48676MB" (pytorch/ao, torchao/prototype/hqq/README.md)',
 768, 154.8, 154.8, NULL, 300,
 'NVIDIA Ampere GA102 whitepaper Table 3 (RTX A6000): "Peak BF16 Tensor TFLOPS with FP32 Accumulate 154.8/309.6" (dense/sparse; FP16 the same), as quoted in public GitHub notes; RTX A6000 datasheet: "Tensor Performance 309.7 TFLOPS" (with sparsity), 768 GB/s, 300W (quoted in public GitHub notes and a paper citing the datasheet: "309.7 TFLOPS and a 300W TDP"); Ampere has no FP8',
 'Ampere', 'PCIe (dual-slot workstation)', 'GDDR6 (ECC)',
 'NVLink 3 bridge (pairs)', 112.5, 4, NULL,
 'NVIDIA Ampere GA102 whitepaper (v2.0, updated with RTX A6000): third-generation NVLink "112.5 GB/sec total bandwidth between two GPUs", PCIe Gen 4'),
('a10', 'NVIDIA A10', 'NVIDIA', 24000000000,
 'NVIDIA A10 datasheet: 24GB GDDR6',
 NULL, NULL,
 600, 125, 125, NULL, 150,
 'NVIDIA A10 datasheet: "BFLOAT16 Tensor Core 125 TF | 250 TF*" (* with sparsity; FP16 Tensor Core the same), 600 GB/s (quoted in public GitHub notes citing nvidia.com/en-us/data-center/products/a10-gpu); max power 150 W (sysrqmts.com A10 PCIe spec page); Ampere has no FP8',
 'Ampere', 'PCIe (single-slot)', 'GDDR6',
 'PCIe only', NULL, 4, NULL,
 'A10 host interface PCIe 4.0 x16 (sysrqmts.com A10 PCIe spec page; public GitHub GPU tables list the A10 24GB PCIe at 64 GB/s PCIe)'),
('mi300x', 'AMD Instinct MI300X', 'AMD', 192000000000,
 'AMD Instinct MI300X: 192 GB HBM3 (stored as decimal GB; ROCm docs/reference/gpu-arch-specs.rst lists 192 in its "VRAM (GiB)" column, which would be 206,158,430,208 bytes)',
 206141652992, 'torch.cuda.get_device_properties on AMD Instinct MI300X: "total_memory=196592MB" (ROCm/ROCm issue #4203, torch 2.6 / ROCm 6.2.4; same figure in a torch 2.3 log)',
 5300, 1307.4, 1307.4, 2614.9, 750,
 'ROCm docs/conceptual/gpu-arch/mi300.md: peak "Matrix FP16 1307.4", "Matrix BF16 1307.4", "Matrix FP8 2614.9" TFLOPS (dense), "peak memory bandwidth of the GPU is 5.3 TB per second"; 750 W total board power (stas00/ml-engineering power table)',
 'CDNA 3', 'OAM', 'HBM3',
 'Infinity Fabric (7 peer links)', 896, 5, 8,
 'ROCm mi300.md node-level architecture: eight MI300X OAMs, "PCIe Gen 5 x16" to the host, "seven ... AMD Infinity Fabric links ... to form a fully connected 8-GPU system"; AMD "Peak Infinity Fabric Link Bandwidth" 128 GB/s x 7 = 896 GB/s (stas00/ml-engineering network/README.md; AMD launch slides "Infinity Fabric ... 896 GB/s")'),
('mi325x', 'AMD Instinct MI325X', 'AMD', 256000000000,
 'AMD Instinct MI325X: 256 GB HBM3E (stored as decimal GB; ROCm gpu-arch-specs.rst lists 256 in its "VRAM (GiB)" column)',
 NULL, NULL,
 6000, 1307.4, 1307.4, 2614.9, 1000,
 'AMD MI325X specifications as quoted by awesomeagents.ai: 6,000 GB/s, "FP16 / BF16 1,307.4 TFLOPS", "FP8 Performance 2,614.9 TFLOPS" (dense; 5,229.8 with sparsity), same CDNA 3 compute as MI300X; 1000 W total board power (stas00/ml-engineering power table; 6.00 TB/s in its memory table)',
 'CDNA 3', 'OAM', 'HBM3E',
 'Infinity Fabric (7 peer links)', 896, 5, 8,
 'AMD MI325X platform: eight MI325X OAMs, "PCIe Gen 5 interface with 16 lanes", "Seven Infinity Fabric links ensuring full connectivity between eight GPUs" (wiaix.com product summary); 128 GB/s per link x 7 = 896 GB/s (stas00/ml-engineering network/README.md)'),
('mi250x', 'AMD Instinct MI250X', 'AMD', 128000000000,
 'AMD Instinct MI250X: 128 GB HBM2e over two GCDs (ROCm gpu-arch-specs.rst: 128 in the "VRAM (GiB)" column, 220 CUs = 110 per GCD); ROCm shows each GCD as its own 64 GiB device',
 NULL, NULL,
 3280, 383, 383, NULL, 560,
 'stas00/ml-engineering compute/accelerator/README.md (vendor spec tables): MI250X fp16/bf16 383 TFLOPS dense for both GCDs, 128 GB HBM2e at 3.28 TB/s, TDP 560 W; CDNA 2 has no FP8',
 'CDNA 2', 'OAM (2 GCDs)', 'HBM2e',
 'Infinity Fabric', NULL, NULL, NULL, NULL),
('gaudi2', 'Intel Gaudi 2 (HL-225H)', 'Intel', 96000000000,
 'Intel Gaudi 2: 96 GB HBM2E (Intel Hot Chips 2024 Gaudi product table; Hugging Face Transformers docs "96GB on Gaudi 2")',
 NULL, NULL,
 2460, 432, NULL, NULL, 600,
 'Intel, "Intel Gaudi 3 AI Accelerator: Architected for Gen AI Training and Inference" (Hot Chips, August 2024), product table: Gaudi 2 TDP (OAM) 600W, peak compute (BF16) 432 TFLOPs, HBM 96 GB, peak HBM BW 2.46 TB/s',
 'Gaudi 2', 'OAM', 'HBM2E',
 'RoCE v2 (24x 100GbE on-chip)', 600, 4, 8,
 'Intel Hot Chips 2024 table: Gaudi 2 embedded NIC BW (bi-directional) 4.8 Tb/s = 600 GB/s over 24 x 100GbE RoCE ports (HLS-Gaudi2: 21 ports to the other 7 cards, 3 scale-out; stas00/ml-engineering network/README.md), peak PCIe BW (bi-directional) 64 GB/s = PCIe Gen4 x16; 8 Gaudi per server (Hugging Face Transformers Intel Gaudi docs)'),
('gaudi3', 'Intel Gaudi 3 (HL-325L OAM)', 'Intel', 128000000000,
 'Intel Gaudi 3: 128 GB HBM2e (Intel Hot Chips 2024 spec table)',
 NULL, NULL,
 3670, 1835, NULL, 1835, 900,
 'Intel, "Intel Gaudi 3 AI Accelerator: Architected for Gen AI Training and Inference" (Hot Chips, August 2024): BF16 Matrix TFLOPs 1835, FP8 Matrix TFLOPs 1835, HBM bandwidth 3.67 TB/s, TDP (OAM) 900W air-cooled (1200W liquid)',
 'Gaudi 3', 'OAM', 'HBM2e',
 'RoCE v2 (24x 200GbE on-chip)', 1200, 5, 8,
 'Intel Hot Chips 2024: "Networking 1200 GB/s bidirectional" over 24 x 200GbE RoCE ports, "Host Interface PCIe Gen5 x16"; Intel Gaudi docs (Network Configuration): 21 scale-up ports to the other 7 Gaudi 3 in an HLS-3 box = 1050 GB/s bidirectional, 3 scale-out; 8 Gaudi per server (Hugging Face Transformers Intel Gaudi docs)')
ON CONFLICT DO NOTHING;

-- ---------------------------------------------------------------------------
-- 3. Aliases: accelerators.json ids that differ from ours, and short names.
-- (0002 already has h100, h100-sxm5-80gb, h100-sxm, a100-80gb,
-- a100-sxm4-80gb, l40s-48gb, rtx4090, geforce-rtx-4090.)
INSERT INTO gpu_aliases (alias, gpu_id) VALUES
('h100-pcie', 'h100-pcie-80gb'),
('h100-nvl', 'h100-nvl-94gb'),
('h200', 'h200-sxm-141gb'),
('h200-sxm', 'h200-sxm-141gb'),
('h200-141gb', 'h200-sxm-141gb'),
('b200-180gb', 'b200'),
('b200-sxm', 'b200'),
('a100-40gb', 'a100-sxm-40gb'),
('a100-sxm4-40gb', 'a100-sxm-40gb'),
('a100-80gb-pcie', 'a100-pcie-80gb'),
('a100-40gb-pcie', 'a100-pcie-40gb'),
('l4-24gb', 'l4'),
('nvidia-l4', 'l4'),
('a10g-24gb', 'a10g'),
('a10-24gb', 'a10'),
('nvidia-a10', 'a10'),
('t4-16gb', 't4'),
('tesla-t4', 't4'),
('v100-16gb', 'v100-sxm-16gb'),
('v100-sxm2-16gb', 'v100-sxm-16gb'),
('v100-32gb', 'v100-sxm-32gb'),
('v100-sxm2-32gb', 'v100-sxm-32gb'),
('rtx3090', 'rtx-3090'),
('geforce-rtx-3090', 'rtx-3090'),
('rtx6000-ada', 'rtx-6000-ada'),
('rtx-6000-ada-generation', 'rtx-6000-ada'),
('a6000', 'rtx-a6000'),
('rtxa6000', 'rtx-a6000'),
('mi300x-192gb', 'mi300x'),
('instinct-mi300x', 'mi300x'),
('mi325x-256gb', 'mi325x'),
('instinct-mi325x', 'mi325x'),
('mi250x-128gb', 'mi250x'),
('instinct-mi250x', 'mi250x'),
('gaudi-2', 'gaudi2'),
('hl-225h', 'gaudi2'),
('gaudi-3', 'gaudi3'),
('hl-325l', 'gaudi3')
ON CONFLICT DO NOTHING;

-- ---------------------------------------------------------------------------
-- 4. Prices. On-demand: USD per GPU-hour from one named provider list price
-- (a single-GPU instance, so per GPU = the instance price). Purchase: USD per
-- GPU. The 2026-09-25 quotes come from one public note that read each
-- provider's pricing page on that date ("All values checked 2026-09-25").
-- h100-sxm-80gb keeps its 0003 row. No price is recorded where no single dated
-- provider price was found (ranges across providers are not prices).
INSERT INTO gpu_prices (gpu_id, kind, usd, effective_date, source)
SELECT v.column1, v.column2, v.column3, v.column4, v.column5 FROM (VALUES
('t4', 'on_demand', 0.526, '2026-09-25',
 'AWS g4dn.xlarge (1x T4), us-east-1 Linux on-demand $0.526/h = $0.526 per GPU-hour (AWS list price via instances.vantage.sh, in a public GitHub GPU price-sources note checked 2026-09-25)'),
('a10g', 'on_demand', 1.006, '2026-09-25',
 'AWS g5.xlarge (1x A10G), us-east-1 Linux on-demand $1.006/h = $1.006 per GPU-hour (AWS list price via instances.vantage.sh, public GitHub GPU price-sources note checked 2026-09-25; factualminds.com gives the same $1.006/hr for June 2026)'),
('l4', 'on_demand', 0.49, '2026-09-25',
 'RunPod L4 Secure Cloud, 1 GPU, $0.49/h (runpod.io/pricing, as read in a public GitHub GPU price-sources note checked 2026-09-25)'),
('l40s', 'on_demand', 1.09, '2026-09-25',
 'RunPod L40S Secure Cloud, 1 GPU, $1.09/h (runpod.io/pricing, public GitHub GPU price-sources note checked 2026-09-25)'),
('a100-sxm-80gb', 'on_demand', 1.59, '2026-09-25',
 'RunPod A100 SXM 80GB Secure Cloud, 1 GPU, $1.59/h (runpod.io/pricing, public GitHub GPU price-sources note checked 2026-09-25)'),
('h200-sxm-141gb', 'on_demand', 4.59, '2026-09-25',
 'RunPod H200 Secure Cloud, 1 GPU, $4.59/h (runpod.io/pricing, public GitHub GPU price-sources note checked 2026-09-25)'),
('b200', 'on_demand', 6.79, '2026-09-25',
 'RunPod B200 Secure Cloud, 1 GPU, $6.79/h (runpod.io/pricing, public GitHub GPU price-sources note checked 2026-09-25; Lambda 1x B200 $6.99/h on the same date)'),
('mi300x', 'on_demand', 2.39, '2026-09-25',
 'RunPod 1x MI300X Secure Cloud, $2.39/h (runpod.io/gpu-models/mi300x, public GitHub GPU price-sources note checked 2026-09-25)'),
('h100-pcie-80gb', 'on_demand', 2.86, '2026-05-07',
 'Lambda 1x H100 PCIe instance, $2.86/h (techbytes.app serverless GPU pricing matrix, "Prices verified on May 7, 2026 from official vendor pricing")'),
('a10', 'on_demand', 0.86, '2026-05-07',
 'Lambda 1x A10 instance, $0.86/h (techbytes.app serverless GPU pricing matrix, "Prices verified on May 7, 2026 from official vendor pricing")'),
('h100-nvl-94gb', 'on_demand', 3.07, '2026-11-23',
 'RunPod H100 NVL, 1 GPU, $3.07/h (gpu.blog/gpus/nvidia-h100-nvl, third-party) (undated source; dated when recorded)'),
('rtx-4090', 'purchase', 1599, '2022-10-12',
 'NVIDIA GeForce RTX 4090 launch price $1,599 (Founders Edition), on sale October 12, 2022 (Tom''s Guide; PC Gamer 2022-09-21; Tom''s Hardware review 2022-10-11)'),
('rtx-3090', 'purchase', 1499, '2020-09-24',
 'NVIDIA GeForce RTX 3090 launch price $1,499, launch date September 24, 2020 (Tom''s Hardware spec table as republished; Tom''s Guide: RTX 3090 starting price $1,499)'),
('gaudi3', 'purchase', 15625, '2024-06-01',
 'Intel list price given at Computex, June 2024 (month -> first of month): kit of 8 Gaudi 3 accelerators with baseboard $125,000, / 8 = $15,625 per accelerator including a share of the baseboard (y-ic.de; The Next Platform 2024-06-13 on Intel''s Computex list prices)')) AS v
 WHERE EXISTS (SELECT 1 FROM gpus g WHERE g.id = v.column1)
   AND NOT EXISTS (SELECT 1 FROM gpu_prices p WHERE p.gpu_id = v.column1 AND p.kind = v.column2);
