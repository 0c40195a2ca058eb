-- GPUs of 2025-26 that serving logs name and the catalog lacked: the GeForce
-- RTX 50 series (5090, 5080, 5070 Ti, 5060 Ti 16 GB), the RTX 40 and 30 cards
-- still common on desks (4080, 4070 Ti, 4060 Ti 16 GB, 3060 12 GB, 3080 10 GB),
-- the export parts (H20, H800, A800, L20), RTX PRO 6000 Blackwell in its Server
-- and Workstation editions, Blackwell Ultra (B300, GB300) and AMD's MI350X and
-- MI355X. Data only; no schema change.
--
-- Conventions as in 0005, 0009, 0013 and 0015: memory_bytes is the marketed
-- capacity in decimal bytes; usable_memory_bytes is the total the CUDA driver
-- reports (torch total_memory), from a public log, with its arithmetic: the
-- Unsloth banner "Max memory: X GB" is round(total_memory / 2^30, 3), so
-- floor(X x 2^30); a vLLM "X GiB" total likewise. Where no such log was found it
-- is NULL (the fit then uses memory_bytes and warns usable_memory_unknown):
-- rtx-5080, rtx-5070-ti, rtx-5060-ti-16gb, rtx-4070-ti, rtx-3080-10gb, h800,
-- a800-sxm-80gb, l20, rtx-pro-6000-workstation, b300, gb300, mi350x, mi355x. A
-- torch repr "total_memory=N MB" is N x 2^20 (at most 1 MiB low).
--
-- Dense Tensor Core TFLOPS. GeForce cards run FP16/BF16 (and FP8) with FP32
-- accumulate at half the FP16-accumulate rate, and bf16_tflops / fp16_tflops /
-- fp8_tflops are the FP32-accumulate rates, as for rtx-4090 and rtx-3090 (0005).
-- NVIDIA publishes one "AI TOPS" figure per GeForce card: FP8 with sparsity for
-- Ada (RTX 4090: 1,321 = 8 x its 165.2 dense FP16 with FP32 accumulate, Ada
-- whitepaper), FP4 with sparsity for Blackwell (RTX 5090: 3,352 = 16 x its 209.5
-- dense FP16 with FP32 accumulate, RTX Blackwell whitepaper). The other cards'
-- rates are their AI TOPS divided the same way; each row shows the division.
-- The RTX PRO (professional) cards run FP32 accumulate at the full rate, so
-- their FP16 is AI TOPS (FP4, sparse) / 8 and FP8 AI TOPS / 4, as the RTX 6000
-- Ada's FP8 728.5 is its 1,457 AI TOPS (FP8, sparse) / 2 (0005).
--
-- sm_count as in 0015: CUDA cores / 128 per SM (Ampere GA10x, Ada, Blackwell),
-- or the SM count NVIDIA states; for h20 the count CUDA reports (NVIDIA
-- publishes none); NULL where none was found (l20, b300, gb300) and for AMD
-- parts.
--
-- The nvidia-smi and torch names of these parts ("NVIDIA GeForce RTX 5090",
-- "NVIDIA RTX PRO 6000 Blackwell Server Edition", "NVIDIA B300 SXM6 AC",
-- "NVIDIA H20") resolve by the name rule of db/src/names.c (brand words,
-- case, separators, memory and form-factor suffixes set aside); the aliases
-- below are the short names people type and the spellings that rule cannot
-- derive ("ac" of the B300's device name). The 300 W "Max-Q" workstation
-- card is not in the catalog and has no alias.
--
-- Rows skip ids a user already took (ON CONFLICT DO NOTHING), as in 0005.
INSERT INTO gpus (id, name, vendor, memory_bytes, memory_source,
                  usable_memory_bytes, usable_memory_source,
                  memory_bandwidth_gb_s, bf16_tflops, fp16_tflops, fp8_tflops, tdp_watts, spec_source,
                  architecture, form_factor, memory_type,
                  interconnect, interconnect_gb_s, pcie_gen, gpus_per_node, interconnect_source,
                  sm_count, sm_count_source) VALUES
-- rtx-5090: 3,352 AI TOPS / 16 = 209.5 FP16/BF16, / 8 = 419 FP8 (both FP32
-- accumulate, dense). Driver total 31.342 GiB -> floor(31.342 x 2^30) =
-- 33,653,216,247 bytes (nvidia-smi shows 32607 MiB, the larger NVML figure).
('rtx-5090', 'NVIDIA GeForce RTX 5090', 'NVIDIA', 32000000000,
 'NVIDIA GeForce RTX 5090 product page and RTX Blackwell GPU architecture whitepaper: 32 GB GDDR7, 512-bit',
 33653216247, 'Unsloth 2026.6.1 banner "NVIDIA GeForce RTX 5090. Num GPUs = 1. Max memory: 31.342 GB. Platform: Linux." (torch 2.11.0+cu130; the same 31.342 with Unsloth 2026.6.7 / torch 2.10.0+cu128) in public GitHub notebooks: floor(31.342 x 2^30); 2025 banners on older drivers read 31.356-31.357',
 1792, 209.5, 209.5, 419, 575,
 'NVIDIA RTX Blackwell GPU architecture whitepaper, appendix (GeForce RTX 5090): 1,792 GB/s, 3,352 AI TOPS (FP4 with sparsity), FP16 Tensor with FP32 accumulate 209.5 | 419* TFLOPS, total graphics power 575 W; FP8 with FP32 accumulate = 3,352 / 8 = 419 dense (spec table also in spheron.network/blog/nvidia-rtx-5090-specs: 1,792 GB/s, FP16 838.4 and FP8 1,676.8 sparse with FP16 accumulate, 575 W)',
 'Blackwell (sm_120)', 'PCIe (consumer card)', 'GDDR7',
 'PCIe only (no NVLink)', NULL, 5, NULL,
 'GeForce RTX 5090: PCI Express Gen 5 x16 host interface, no NVLink (NVIDIA product page; spheron.network RTX 5090 datasheet table "PCIe Generation: Gen 5 x16")',
 170, 'NVIDIA RTX Blackwell whitepaper: 170 SMs in the GeForce RTX 5090; 21,760 CUDA cores / 128 per SM'),
-- rtx-5080: 1,801 AI TOPS / 16 = 112.6 FP16/BF16, / 8 = 225.1 FP8.
('rtx-5080', 'NVIDIA GeForce RTX 5080', 'NVIDIA', 16000000000,
 'NVIDIA GeForce RTX 5080 product page: 16 GB GDDR7, 256-bit',
 NULL, NULL,
 960, 112.6, 112.6, 225.1, 360,
 'NVIDIA GeForce RTX 5080 product page / RTX Blackwell whitepaper: 1,801 AI TOPS (FP4 with sparsity), 960 GB/s (30 Gbps x 256-bit), total graphics power 360 W; FP16 with FP32 accumulate = 1,801 / 16 = 112.6 dense, FP8 = 1,801 / 8 = 225.1 dense (the RTX 5090''s ratios, see the header)',
 'Blackwell (sm_120)', 'PCIe (consumer card)', 'GDDR7',
 'PCIe only (no NVLink)', NULL, 5, NULL,
 'GeForce RTX 5080: PCI Express Gen 5 x16, no NVLink (NVIDIA product page)',
 84, 'NVIDIA GeForce RTX 5080 product page: 10,752 CUDA cores / 128 per Blackwell SM = 84'),
-- rtx-5070-ti: 1,406 AI TOPS / 16 = 87.9, / 8 = 175.8.
('rtx-5070-ti', 'NVIDIA GeForce RTX 5070 Ti', 'NVIDIA', 16000000000,
 'NVIDIA GeForce RTX 5070 Ti product page: 16 GB GDDR7, 256-bit',
 NULL, NULL,
 896, 87.9, 87.9, 175.8, 300,
 'NVIDIA GeForce RTX 5070 Ti product page: 1,406 AI TOPS (FP4 with sparsity), 896 GB/s (28 Gbps x 256-bit), total graphics power 300 W; FP16 with FP32 accumulate = 1,406 / 16 = 87.9 dense, FP8 = 1,406 / 8 = 175.8 dense',
 'Blackwell (sm_120)', 'PCIe (consumer card)', 'GDDR7',
 'PCIe only (no NVLink)', NULL, 5, NULL,
 'GeForce RTX 5070 Ti: PCI Express Gen 5 x16, no NVLink (NVIDIA product page)',
 70, 'NVIDIA GeForce RTX 5070 Ti product page: 8,960 CUDA cores / 128 per Blackwell SM = 70'),
-- rtx-5060-ti-16gb: 759 AI TOPS / 16 = 47.4, / 8 = 94.9. The 8 GB card has
-- the same name in nvidia-smi; only the 16 GB one is in the catalog.
('rtx-5060-ti-16gb', 'NVIDIA GeForce RTX 5060 Ti 16GB', 'NVIDIA', 16000000000,
 'NVIDIA GeForce RTX 5060 Ti product page: 16 GB or 8 GB GDDR7, 128-bit; this row is the 16 GB card',
 NULL, NULL,
 448, 47.4, 47.4, 94.9, 180,
 'NVIDIA GeForce RTX 5060 Ti product page: 759 AI TOPS (FP4 with sparsity), 448 GB/s (28 Gbps x 128-bit), total graphics power 180 W; FP16 with FP32 accumulate = 759 / 16 = 47.4 dense, FP8 = 759 / 8 = 94.9 dense',
 'Blackwell (sm_120)', 'PCIe (consumer card, x8)', 'GDDR7',
 'PCIe only (no NVLink)', NULL, 5, NULL,
 'GeForce RTX 5060 Ti: PCI Express Gen 5 x8, no NVLink (NVIDIA product page)',
 36, 'NVIDIA GeForce RTX 5060 Ti product page: 4,608 CUDA cores / 128 per Blackwell SM = 36'),
-- rtx-4080: Ada whitepaper 97.5 | 194.9* FP16 with FP32 accumulate (780 AI
-- TOPS / 8), FP8 with FP32 accumulate 194.9 dense. Driver total 15.99 GiB ->
-- floor(15.99 x 2^30) = 17,169,131,765 bytes.
('rtx-4080', 'NVIDIA GeForce RTX 4080', 'NVIDIA', 16000000000,
 'NVIDIA GeForce RTX 4080 product page: 16 GB GDDR6X, 256-bit',
 17169131765, 'vLLM 0.26.0 on an RTX 4080 16 GB (WSL2), the author''s transcription of vLLM''s startup memory line: "14.39 GiB = 15.99 总量 x 0.9" (total 15.99 GiB, 16376 MiB in nvidia-smi) in a public GitHub experiment log "Phase 1 实验记录：vLLM 基线" (2026-08-02); floor(15.99 x 2^30). WSL2 reserves no more than native Linux on this figure as far as the log shows; one log only',
 716.8, 97.5, 97.5, 194.9, 320,
 'NVIDIA Ada Lovelace architecture whitepaper, appendix (GeForce RTX 4080 16GB): 716.8 GB/s (22.4 Gbps x 256-bit), FP16 Tensor with FP32 accumulate 97.5 | 194.9* TFLOPS, FP8 with FP32 accumulate 194.9 | 389.9*, 780 AI TOPS (FP8 with sparsity), total graphics power 320 W',
 'Ada Lovelace', 'PCIe (consumer card)', 'GDDR6X',
 'PCIe only (no NVLink)', NULL, 4, NULL,
 'GeForce RTX 4080: PCI Express Gen 4 x16; Ada GeForce cards have no NVLink',
 76, 'NVIDIA Ada whitepaper: 76 SMs in the GeForce RTX 4080 16GB; 9,728 CUDA cores / 128 per SM'),
-- rtx-4070-ti: 641 AI TOPS / 8 = 80.1 FP16, / 4 = 160.3 FP8.
('rtx-4070-ti', 'NVIDIA GeForce RTX 4070 Ti', 'NVIDIA', 12000000000,
 'NVIDIA GeForce RTX 4070 Ti product page: 12 GB GDDR6X, 192-bit',
 NULL, NULL,
 504, 80.1, 80.1, 160.3, 285,
 'NVIDIA GeForce RTX 4070 Ti product page: 641 AI TOPS (FP8 with sparsity), 504 GB/s (21 Gbps x 192-bit), total graphics power 285 W; FP16 with FP32 accumulate = 641 / 8 = 80.1 dense, FP8 with FP32 accumulate = 641 / 4 = 160.3 dense (the RTX 4090''s ratios, see the header)',
 'Ada Lovelace', 'PCIe (consumer card)', 'GDDR6X',
 'PCIe only (no NVLink)', NULL, 4, NULL,
 'GeForce RTX 4070 Ti: PCI Express Gen 4 x16; Ada GeForce cards have no NVLink',
 60, 'NVIDIA GeForce RTX 4070 Ti product page: 7,680 CUDA cores / 128 per Ada SM = 60'),
-- rtx-4060-ti-16gb: 353 AI TOPS / 8 = 44.1, / 4 = 88.3. Driver total 15.572
-- GiB -> floor(15.572 x 2^30) = 16,720,307,683 bytes.
('rtx-4060-ti-16gb', 'NVIDIA GeForce RTX 4060 Ti 16GB', 'NVIDIA', 16000000000,
 'NVIDIA GeForce RTX 4060 Ti product page: 16 GB or 8 GB GDDR6, 128-bit; this row is the 16 GB card',
 16720307683, 'Unsloth 2025.11.6 banner "NVIDIA GeForce RTX 4060 Ti. Num GPUs = 1. Max memory: 15.572 GB. Platform: Linux." (torch 2.7.1+cu128; 15.572 GiB is the 16 GB card) in a public GitHub notebook: floor(15.572 x 2^30)',
 288, 44.1, 44.1, 88.3, 165,
 'NVIDIA GeForce RTX 4060 Ti product page: 353 AI TOPS (FP8 with sparsity), 288 GB/s (18 Gbps x 128-bit), total graphics power 165 W (16 GB); FP16 with FP32 accumulate = 353 / 8 = 44.1 dense, FP8 = 353 / 4 = 88.3 dense',
 'Ada Lovelace', 'PCIe (consumer card, x8)', 'GDDR6',
 'PCIe only (no NVLink)', NULL, 4, NULL,
 'GeForce RTX 4060 Ti: PCI Express Gen 4 x8; Ada GeForce cards have no NVLink',
 34, 'NVIDIA GeForce RTX 4060 Ti product page: 4,352 CUDA cores / 128 per Ada SM = 34'),
-- rtx-3060-12gb: GA106, FP16 with FP32 accumulate 25.6 | 51.2*; no FP8.
-- Driver total 11.747 GiB -> floor(11.747 x 2^30) = 12,613,245,206 bytes.
('rtx-3060-12gb', 'NVIDIA GeForce RTX 3060 12GB', 'NVIDIA', 12000000000,
 'NVIDIA GeForce RTX 3060 product page: 12 GB GDDR6, 192-bit (an 8 GB 128-bit card shares the name; this row is the 12 GB one)',
 12613245206, 'Unsloth 2025.5.7 banner "NVIDIA GeForce RTX 3060. Num GPUs = 1. Max memory: 11.747 GB. Platform: Linux." (torch 2.7.0+cu126) in a public GitHub notebook: floor(11.747 x 2^30); Windows banners read 12.0 (WDDM reports differently), and a torch repr on another machine "total_memory=11900MB"',
 360, 25.6, 25.6, NULL, 170,
 'NVIDIA GeForce RTX 3060 product page: 360 GB/s (15 Gbps x 192-bit), 170 W, 12.74 FP32 TFLOPS; GA10x GeForce Tensor Cores give FP16 with FP32 accumulate at 2 x the FP32 rate (RTX 3090: 71 vs 35.6 TFLOPS, whitepaper Table 9): 2 x 12.74 = 25.5, quoted as 25.6 (51.2 with sparsity); Ampere has no FP8',
 'Ampere', 'PCIe (consumer card)', 'GDDR6',
 'PCIe only (no NVLink)', NULL, 4, NULL,
 'GeForce RTX 3060: PCI Express Gen 4 x16, no NVLink (only the RTX 3090 of the GA10x GeForce cards has an NVLink bridge)',
 28, 'NVIDIA GeForce RTX 3060 product page: 3,584 CUDA cores / 128 per GA10x SM = 28 (a torch repr of an RTX 3060 prints multi_processor_count=28)'),
-- rtx-3080-10gb: GA102 whitepaper Table 9 (RTX 3080): FP16 with FP32
-- accumulate 59.5 | 119*.
('rtx-3080-10gb', 'NVIDIA GeForce RTX 3080 10GB', 'NVIDIA', 10000000000,
 'NVIDIA Ampere GA102 whitepaper, Table 9 (GeForce RTX 3080): 10 GB GDDR6X, 320-bit (a 12 GB card shares the name; this row is the 10 GB one)',
 NULL, NULL,
 760, 59.5, 59.5, NULL, 320,
 'NVIDIA Ampere GA102 GPU architecture whitepaper, Table 9 (GeForce RTX 3080): 760 GB/s (19 Gbps x 320-bit), FP16 and BF16 Tensor with FP32 accumulate 59.5 | 119* TFLOPS, total graphics power 320 W; Ampere has no FP8',
 'Ampere', 'PCIe (consumer card)', 'GDDR6X',
 'PCIe only (no NVLink)', NULL, 4, NULL,
 'GeForce RTX 3080: PCI Express Gen 4 x16, no NVLink bridge (GA102 whitepaper: NVLink on the RTX 3090 only)',
 68, 'NVIDIA Ampere GA102 whitepaper, Table 9: 68 SMs in the GeForce RTX 3080; 8,704 CUDA cores / 128 per SM'),
-- h20: Hopper with fewer SMs for export: BF16/FP16 148, FP8 296 dense.
-- torch total_memory=97285MB -> 97285 x 2^20 = 102,010,716,160 bytes (at
-- most 1 MiB low); multi_processor_count=78 in the same repr.
('h20', 'NVIDIA H20', 'NVIDIA', 96000000000,
 'NVIDIA HGX H20 specifications (Tom''s Hardware launch table): 96 GB HBM3; vllm-project/recipes PR #12 serves on "8 x H20 (96 GB)"',
 102010716160, 'torch repr "_CudaDeviceProperties(name=''NVIDIA H20'', major=9, minor=0, total_memory=97285MB, multi_processor_count=78)" quoted in comments of Triton attention kernels in public GitHub code (several copies): 97285 x 2^20',
 4000, 148, 148, 296, 400,
 'NVIDIA HGX H20 specifications as listed at launch (Tom''s Hardware, "New Nvidia AI GPUs designed to get around US export bans come to China: H20, L20 and L2", spec table from the Vipera listing): 96 GB HBM3, 4.0 TB/s, INT8/FP8 Tensor 296 TFLOPS, BF16/FP16 Tensor 148 TFLOPS (dense: H100 SXM''s 989.5 x ~15%), 60 MB L2; 400 W TDP (willitrunai.com H20 page: "400W TDP (vs. H100''s 700W)")',
 'Hopper', 'SXM5', 'HBM3',
 'NVLink 4 (NVSwitch)', 900, 5, 8,
 'HGX H20: NVLink 900 GB/s kept from the H100 (Tom''s Hardware launch table; 1cnz.cn: "支持超快速NVLink 900GB/s鏈接并采用SXM板卡形式,以匹配英偉達8路HGX服務器規格"), PCIe Gen5 x16; 8 GPUs per HGX board (vllm-project/recipes PR #12 runs 8 x H20 with -dp 8)',
 78, 'torch multi_processor_count=78 on an NVIDIA H20 (the repr quoted for usable_memory_source); Geekbench 6 reads the same 78 SMs (as reported by Wccftech and zangshuxian.com); NVIDIA publishes no count'),
-- h800: the H100 SXM with NVLink cut to 400 GB/s for export; compute and
-- memory are the H100 SXM's (1,979* BF16/FP16 -> 989.5, 3,958* FP8 -> 1,979).
('h800', 'NVIDIA H800 SXM5 80GB', 'NVIDIA', 80000000000,
 'NVIDIA H800 product brief: 80 GB HBM3 (the H100 SXM memory)',
 NULL, NULL,
 3350, 989.5, 989.5, 1979, 700,
 'NVIDIA H800 Tensor Core GPU product brief (as quoted in public spec tables): 3.35 TB/s, BF16/FP16 1,979 and FP8 3,958 TFLOPS with sparsity (dense = half), up to 700 W, i.e. the H100 SXM''s figures (h100-sxm-80gb)',
 'Hopper', 'SXM5', 'HBM3',
 'NVLink 4 (8 links)', 400, 5, 8,
 'NVIDIA H800 product brief: NVLink 400 GB/s (against the H100 SXM''s 900), PCIe Gen5 128 GB/s; HGX H800 boards of 8 GPUs (DeepSeek-V3 technical report: "cluster equipped with 2048 NVIDIA H800 GPUs", 8 per node, NVLink within the node)',
 132, 'NVIDIA H800 SXM5: the H100 SXM5''s GH100 with 132 SMs (16,896 CUDA cores / 128 per SM, H100 architecture whitepaper)'),
-- a800-sxm-80gb: the A100 SXM4 80GB with NVLink cut to 400 GB/s.
('a800-sxm-80gb', 'NVIDIA A800 SXM4 80GB', 'NVIDIA', 80000000000,
 'NVIDIA A800 product brief: 80 GB HBM2e (the A100 80GB SXM memory)',
 NULL, NULL,
 2039, 312, 312, NULL, 400,
 'NVIDIA A800 Tensor Core GPU datasheet (as quoted in public spec tables): 2,039 GB/s, BF16/FP16 Tensor Core 312 TFLOPS dense (624 with sparsity), 400 W, the A100 80GB SXM figures; no FP8',
 'Ampere', 'SXM4', 'HBM2e',
 'NVLink 3 (8 links)', 400, 4, 8,
 'NVIDIA A800 datasheet: NVLink 400 GB/s (against the A100''s 600), PCIe Gen4 64 GB/s; HGX A800 boards of 8 GPUs',
 108, 'NVIDIA A100 Tensor Core GPU architecture whitepaper: 108 SMs in the A100 (GA100), which the A800 keeps'),
-- l20: Ada, for export: 119.5 FP16/BF16 and 239 FP8 dense.
('l20', 'NVIDIA L20', 'NVIDIA', 48000000000,
 'NVIDIA L20 PCIe (Tom''s Hardware H20/L20/L2 launch table): 48 GB GDDR6 with ECC',
 NULL, NULL,
 864, 119.5, 119.5, 239, NULL,
 'NVIDIA L20 PCIe specifications as listed at launch (Tom''s Hardware H20/L20/L2 table, from the Vipera listing): 48 GB GDDR6 with ECC, 864 GB/s, INT8/FP8 Tensor 239 TFLOPS, BF16/FP16 Tensor 119.5 TFLOPS, 96 MB L2; board power not in that table -> NULL',
 'Ada Lovelace', 'PCIe (dual-slot)', 'GDDR6 (ECC)',
 'PCIe only (no NVLink)', NULL, 4, NULL,
 'NVIDIA L20: PCIe 4.0 x16 card (1cnz.cn on the L20 and L2: "同樣采用了PCIe 4.0 x16的板卡形式"), no NVLink',
 NULL, NULL),
-- rtx-pro-6000-server: 4,000 AI TOPS (FP4, sparse) / 8 = 500 FP16/BF16,
-- / 4 = 1,000 FP8 (professional cards: full-rate FP32 accumulate). Driver
-- total 94.971 GiB -> floor(94.971 x 2^30) = 101,974,334,767 bytes.
('rtx-pro-6000-server', 'NVIDIA RTX PRO 6000 Blackwell Server Edition', 'NVIDIA', 96000000000,
 'NVIDIA RTX PRO 6000 Blackwell Server Edition datasheet: 96 GB GDDR7 with ECC, 512-bit',
 101974334767, 'Unsloth 2026.3.17 banner "NVIDIA RTX PRO 6000 Blackwell Server Edition. Num GPUs = 1. Max memory: 94.971 GB. Platform: Linux." (torch 2.10.0+cu128, a Kaggle competition discussion copied to public GitHub) and the same 94.971 with Unsloth 2026.4.8 / torch 2.10.0: floor(94.971 x 2^30)',
 1792, 500, 500, 1000, 600,
 'NVIDIA RTX PRO 6000 Blackwell (GTC 2025 announcement, as reported by VideoCardz via gpu.name and topcpu.net): 188 SMs, 24,064 CUDA cores, 4,000 AI TOPS (FP4 with sparsity), 125 FP32 TFLOPS, 96 GB GDDR7 on 512 bits at 28 Gbps = 1,792 GB/s, the memory configuration the same in the Workstation, Max-Q and Server editions; up to 600 W; FP16/BF16 = 4,000 / 8 = 500 dense and FP8 = 4,000 / 4 = 1,000 dense (professional Blackwell: FP32 accumulate at the full rate, see the header)',
 'Blackwell (sm_120)', 'PCIe (dual-slot, passive server card)', 'GDDR7 (ECC)',
 'PCIe only (no NVLink)', NULL, 5, 8,
 'NVIDIA RTX PRO 6000 Blackwell Server Edition datasheet: PCIe Gen 5 x16, no NVLink; RTX PRO servers of 8 GPUs (vllm-project/vllm PR #29240 serves GLM-4.6-FP8 with --tensor-parallel-size 8 on RTX PRO 6000 Server Edition; vllm issue #32109 lists 8 such GPUs in one node)',
 188, 'NVIDIA RTX PRO 6000 Blackwell datasheets: 24,064 CUDA cores / 128 per Blackwell SM = 188'),
-- rtx-pro-6000-workstation: the same GB202 board for desks; no public log of
-- its driver total was found (the Server Edition's 94.971 GiB is likely but
-- not shown), so usable_memory_bytes stays NULL.
('rtx-pro-6000-workstation', 'NVIDIA RTX PRO 6000 Blackwell Workstation Edition', 'NVIDIA', 96000000000,
 'NVIDIA RTX PRO 6000 Blackwell Workstation Edition datasheet: 96 GB GDDR7 with ECC, 512-bit',
 NULL, NULL,
 1792, 500, 500, 1000, 600,
 'NVIDIA RTX PRO 6000 Blackwell Workstation Edition (GTC 2025 announcement, as reported by VideoCardz via gpu.name): 24,064 CUDA cores, 96 GB GDDR7, 512-bit, 1,792 GB/s, 600 W, 4,000 AI TOPS (FP4 with sparsity); FP16/BF16 = 4,000 / 8 = 500 dense and FP8 = 4,000 / 4 = 1,000 dense (as for the Server Edition)',
 'Blackwell (sm_120)', 'PCIe (dual-slot workstation)', 'GDDR7 (ECC)',
 'PCIe only (no NVLink)', NULL, 5, NULL,
 'NVIDIA RTX PRO 6000 Blackwell Workstation Edition datasheet: PCIe Gen 5 x16, no NVLink',
 188, 'NVIDIA RTX PRO 6000 Blackwell datasheets: 24,064 CUDA cores / 128 per Blackwell SM = 188'),
-- b300: HGX B300 totals for 8 GPUs: 2.3 TB HBM3e -> 288 GB each; FP16/BF16
-- 36 PFLOPS and FP8 72 PFLOPS with sparsity -> 2,250 and 4,500 dense each;
-- NVLink 14.4 TB/s -> 1,800 GB/s each.
('b300', 'NVIDIA B300 (HGX B300)', 'NVIDIA', 288000000000,
 'NVIDIA HGX B300: up to 2.3 TB HBM3e for 8 GPUs, 288 GB per GPU (fibermall.com HGX B300 table; glennklockwood.com: "288 GB HBM3e (8 stacks, 12-high)"); nvidia-smi names the part "NVIDIA B300 SXM6 AC", and a public TensorRT-LLM test report lists "8x NVIDIA B300 SXM6 AC (275 GB each)", a rounded driver figure not precise enough for usable_memory_bytes',
 NULL, NULL,
 7700, 2250, 2250, 4500, 1100,
 'NVIDIA HGX B300 specifications (as tabulated by fibermall.com and glennklockwood.com/garden/processors/B300): FP16/BF16 36 PFLOPS and FP8 72 PFLOPS with sparsity for 8 GPUs -> 2,250 and 4,500 dense per GPU; per-GPU table of verda.com/blog/gb300-nvl72-architecture: B300 FP8 4.5 and FP16/BF16 2.25 PFLOPS dense, 7.7 TB/s, max TDP 1.1 kW',
 'Blackwell Ultra (sm_103)', 'SXM6 (HGX B300 baseboard)', 'HBM3e',
 'NVLink 5 (NVSwitch)', 1800, 6, 8,
 'NVIDIA HGX B300 (fibermall.com table): total NVLink 14.4 TB/s, NVSwitch GPU-to-GPU 1.8 TB/s, 8 GPUs per board; PCIe Gen6 to the host (glennklockwood.com: "Upgrade to PCIe Gen6")',
 NULL, NULL),
-- gb300: per GPU 2,500 FP16/BF16 and 5,000 FP8 dense (rack 360 PFLOPS FP8
-- dense / 72 = 5,000).
('gb300', 'NVIDIA GB300 (per Blackwell Ultra GPU, GB300 NVL72)', 'NVIDIA', 288000000000,
 'GB300 NVL72: 20 TB HBM3e for 72 GPUs, 288 GB HBM3e per Blackwell Ultra GPU (glennklockwood.com/garden/processors/B300; server-parts.eu "288GB HBM3e Memory"); the Grace CPU''s LPDDR5X is not counted',
 NULL, NULL,
 8000, 2500, 2500, 5000, 1400,
 'GB300 NVL72 per-GPU figures (verda.com/blog/gb300-nvl72-architecture, dense): FP8 5 PFLOPS, FP16/BF16 2.5 PFLOPS, 8 TB/s, max TDP 1.4 kW; rack aggregate FP8 360 PFLOPS dense, 20 TB HBM at 576 TB/s (the same page; glennklockwood.com: "360 PF FP8 for training", "20 TB HBM at 576 TB/s")',
 'Blackwell Ultra (sm_103)', 'Grace Blackwell Ultra Superchip (2 GPUs + 1 Grace CPU)', 'HBM3e',
 'NVLink 5 (NVSwitch, 72-GPU domain)', 1800, 6, 4,
 'GB300 NVL72: 18 NVLink switches at 130 TB/s for 72 GPUs (1.8 TB/s per GPU); one compute tray is one board with two Grace CPUs and four Blackwell Ultra GPUs (glennklockwood.com/garden/processors/B300)',
 NULL, NULL),
-- mi350x and mi355x: AMD's figures are dense (sparsity doubles them).
('mi350x', 'AMD Instinct MI350X', 'AMD', 288000000000,
 'AMD Instinct MI350X (Tom''s Hardware, ISC 2025): 288 GB HBM3E',
 NULL, NULL,
 8000, 2307.2, 2307.2, 4614.4, 1000,
 'AMD Instinct MI350X (ISC 2025, Tom''s Hardware "AMD''s Instinct MI355X accelerator will reportedly consume 1,400 watts"): 288 GB HBM3E at 8 TB/s, 1000 W air cooled, FP4/FP6 18.45 PFLOPS with sparsity -> 9.23 dense; CDNA halves the rate per doubling of width (mi300x: FP8 2,614.9 = 2 x FP16 1,307.4), so FP8 4,614.4 and FP16/BF16 2,307.2 dense',
 'CDNA 4', 'OAM', 'HBM3E',
 'AMD Infinity Fabric (7 links)', 1075.2, 5, 8,
 'AMD Instinct MI350X: 8 OAM modules per platform, each with 7 Infinity Fabric links to the others at ~153 GB/s each (humeconsulting.co "AMD MI355X: Strong Node-Level Inference": "Infinity Fabric/XGMI provides ~153 GB/s"; Tom''s Hardware: scale-up "limited to eight GPUs") = 7 x 153.6 = 1,075.2 GB/s, the MI300X''s 7-link topology (mi300x, 0013) with faster links; PCIe Gen5 x16 to the host',
 NULL, NULL),
('mi355x', 'AMD Instinct MI355X', 'AMD', 288000000000,
 'AMD Instinct MI355X (Tom''s Hardware and The Register, June 2025): 288 GB HBM3E',
 NULL, NULL,
 8000, 2516.6, 2516.6, 5033.2, 1400,
 'AMD Instinct MI355X (ISC 2025, Tom''s Hardware as above; The Register 2025-06-12 "AMD''s MI355X is a 1.4 kW liquid-cooled monster"): 288 GB HBM3E at 8 TB/s, up to 1400 W, FP4/FP6 20.1 PFLOPS with sparsity -> 10.07 dense, so FP8 5,033.2 and FP16/BF16 2,516.6 dense (halving per width, as for mi350x)',
 'CDNA 4', 'OAM', 'HBM3E',
 'AMD Infinity Fabric (7 links)', 1075.2, 5, 8,
 'AMD Instinct MI355X: 8 OAM modules per platform, each with 7 Infinity Fabric links to the others at ~153 GB/s each (humeconsulting.co "AMD MI355X: Strong Node-Level Inference": "Infinity Fabric/XGMI provides ~153 GB/s"; Tom''s Hardware: scale-up "limited to eight GPUs") = 7 x 153.6 = 1,075.2 GB/s, the MI300X''s 7-link topology (mi300x, 0013) with faster links; PCIe Gen5 x16 to the host',
 NULL, NULL)
ON CONFLICT DO NOTHING;

-- Short names and the device names the rule above does not derive.
INSERT INTO gpu_aliases (alias, gpu_id) VALUES
('rtx5090', 'rtx-5090'),
('geforce-rtx-5090', 'rtx-5090'),
('rtx5080', 'rtx-5080'),
('geforce-rtx-5080', 'rtx-5080'),
('rtx5070ti', 'rtx-5070-ti'),
('rtx-5070ti', 'rtx-5070-ti'),
('rtx-5060-ti', 'rtx-5060-ti-16gb'),
('rtx5060ti', 'rtx-5060-ti-16gb'),
('rtx4080', 'rtx-4080'),
('geforce-rtx-4080', 'rtx-4080'),
('rtx4070ti', 'rtx-4070-ti'),
('rtx-4070ti', 'rtx-4070-ti'),
('rtx-4060-ti', 'rtx-4060-ti-16gb'),
('rtx4060ti', 'rtx-4060-ti-16gb'),
('rtx-3060', 'rtx-3060-12gb'),
('rtx3060', 'rtx-3060-12gb'),
('rtx-3080', 'rtx-3080-10gb'),
('rtx3080', 'rtx-3080-10gb'),
('h20-96gb', 'h20'),
('nvidia-h20', 'h20'),
('h800-sxm', 'h800'),
('h800-80gb', 'h800'),
('a800', 'a800-sxm-80gb'),
('a800-80gb', 'a800-sxm-80gb'),
('l20-48gb', 'l20'),
('nvidia-l20', 'l20'),
('rtx-pro-6000', 'rtx-pro-6000-server'),
('rtx-pro-6000-blackwell', 'rtx-pro-6000-server'),
('rtx-pro-6000-server-edition', 'rtx-pro-6000-server'),
('rtx-pro-6000-workstation-edition', 'rtx-pro-6000-workstation'),
('b300-sxm6-ac', 'b300'),
('b300-288gb', 'b300'),
('gb300-nvl72', 'gb300'),
('nvidia-gb300', 'gb300'),
('instinct-mi350x', 'mi350x'),
('mi350x-288gb', 'mi350x'),
('instinct-mi355x', 'mi355x'),
('mi355x-288gb', 'mi355x')
ON CONFLICT DO NOTHING;
