-- Schema version 15: each GPU's streaming-multiprocessor count, which vLLM's
-- Triton top-k/top-p sampler sizes its cached scratch buffer by (4 bytes x
-- min(SMs, requests) x vocabulary per GPU, kept from the profile run on:
-- vllm/v1/sample/ops/topk_topp_triton.py, PR #33538), so the serving budget
-- counts it (core/src/vllm.c).
--
-- sm_count is what CUDA reports as multiProcessorCount (torch.cuda
-- get_device_properties().multi_processor_count): NVIDIA's published SM count,
-- or its CUDA cores divided by the cores per SM of the architecture (128 for
-- Ampere GA10x, Ada, Hopper and Blackwell; 64 for Volta, Turing and A100's
-- GA100). sm_count_source names the document and gives the arithmetic; like the
-- other sourced numbers (0003, 0013) it is required whenever the count is set.
--
-- Seeded only into rows still at revision 1 and still carrying the seed's
-- name. Left NULL: a10g (AWS publishes no SM or CUDA-core count for it), b200,
-- gb200 and jetson-agx-thor (no published count found in NVIDIA's documents),
-- and the AMD and Intel parts (vLLM's Triton sampler path is CUDA's).

ALTER TABLE gpus ADD COLUMN sm_count INTEGER CHECK (sm_count IS NULL OR sm_count BETWEEN 1 AND 1024);
ALTER TABLE gpus ADD COLUMN sm_count_source TEXT;

CREATE TRIGGER gpus_sm_count_source_insert BEFORE INSERT ON gpus
WHEN NEW.sm_count IS NOT NULL AND NEW.sm_count_source IS NULL
BEGIN
    SELECT RAISE(ABORT, 'a GPU number without its source');
END;

CREATE TRIGGER gpus_sm_count_source_update BEFORE UPDATE ON gpus
WHEN NEW.sm_count IS NOT NULL AND NEW.sm_count_source IS NULL
BEGIN
    SELECT RAISE(ABORT, 'a GPU number without its source');
END;

UPDATE gpus SET sm_count = s.sms, sm_count_source = s.source
FROM (SELECT column1 AS id, column2 AS name, column3 AS sms, column4 AS source FROM (VALUES
('h100-sxm-80gb', 'NVIDIA H100 SXM5 80GB', 132,
 'NVIDIA H100 Tensor Core GPU Architecture whitepaper: 132 SMs in the H100 SXM5 (of the full GH100''s 144); 16,896 FP32 CUDA cores / 128 per SM'),
('h100-pcie-80gb', 'NVIDIA H100 PCIe 80GB', 114,
 'NVIDIA H100 Tensor Core GPU Architecture whitepaper: 114 SMs in the H100 PCIe; 14,592 FP32 CUDA cores / 128 per SM'),
('h100-nvl-94gb', 'NVIDIA H100 NVL 94GB', 132,
 'NVIDIA H100 NVL: the H100 SXM5 configuration on a PCIe card, 16,896 FP32 CUDA cores (NVIDIA H100 datasheet) / 128 per Hopper SM = 132'),
('h200-sxm-141gb', 'NVIDIA H200 SXM 141GB', 132,
 'NVIDIA H200: the GH100 of the H100 SXM5 with HBM3e, 16,896 FP32 CUDA cores / 128 per Hopper SM = 132 (NVIDIA H200 datasheet; H100 architecture whitepaper for 128 cores per SM)'),
('gh200', 'NVIDIA GH200 Grace Hopper Superchip (96GB HBM3)', 132,
 'NVIDIA Grace Hopper Superchip Architecture whitepaper: the GH200''s Hopper GPU is the 132-SM H100 configuration'),
('gh200-144gb', 'NVIDIA GH200 Grace Hopper Superchip (144GB HBM3e)', 132,
 'NVIDIA Grace Hopper Superchip Architecture whitepaper: the GH200''s Hopper GPU is the 132-SM H100 configuration'),
('a100-sxm-80gb', 'NVIDIA A100 SXM4 80GB', 108,
 'NVIDIA A100 Tensor Core GPU Architecture whitepaper: 108 SMs in the A100 (of the full GA100''s 128); 6,912 FP32 CUDA cores / 64 per SM'),
('a100-sxm-40gb', 'NVIDIA A100 SXM4 40GB', 108,
 'NVIDIA A100 Tensor Core GPU Architecture whitepaper: 108 SMs in the A100; 6,912 FP32 CUDA cores / 64 per SM'),
('a100-pcie-80gb', 'NVIDIA A100 PCIe 80GB', 108,
 'NVIDIA A100 Tensor Core GPU Architecture whitepaper: 108 SMs in the A100 (the PCIe card carries the same GPU); 6,912 FP32 CUDA cores / 64 per SM'),
('a100-pcie-40gb', 'NVIDIA A100 PCIe 40GB', 108,
 'NVIDIA A100 Tensor Core GPU Architecture whitepaper: 108 SMs in the A100 (the PCIe card carries the same GPU); 6,912 FP32 CUDA cores / 64 per SM'),
('l40s', 'NVIDIA L40S', 142,
 'NVIDIA L40S datasheet: 18,176 CUDA cores / 128 per Ada SM (NVIDIA Ada GPU Architecture whitepaper) = 142'),
('rtx-6000-ada', 'NVIDIA RTX 6000 Ada Generation', 142,
 'NVIDIA RTX 6000 Ada Generation datasheet: 18,176 CUDA cores / 128 per Ada SM (NVIDIA Ada GPU Architecture whitepaper) = 142'),
('rtx-4090', 'NVIDIA GeForce RTX 4090', 128,
 'NVIDIA Ada GPU Architecture whitepaper: 128 SMs in the GeForce RTX 4090; 16,384 CUDA cores / 128 per SM'),
('l4', 'NVIDIA L4', 58,
 'NVIDIA L4 datasheet: 7,424 CUDA cores / 128 per Ada SM (NVIDIA Ada GPU Architecture whitepaper) = 58'),
('a10', 'NVIDIA A10', 72,
 'NVIDIA A10 datasheet: 9,216 FP32 CUDA cores / 128 per GA10x SM (NVIDIA Ampere GA102 GPU Architecture whitepaper) = 72'),
('rtx-a6000', 'NVIDIA RTX A6000', 84,
 'NVIDIA RTX A6000 datasheet: 10,752 CUDA cores / 128 per GA10x SM (NVIDIA Ampere GA102 GPU Architecture whitepaper) = 84'),
('rtx-3090', 'NVIDIA GeForce RTX 3090', 82,
 'NVIDIA Ampere GA102 GPU Architecture whitepaper: 82 SMs in the GeForce RTX 3090; 10,496 CUDA cores / 128 per SM'),
('t4', 'NVIDIA T4', 40,
 'NVIDIA Turing GPU Architecture whitepaper and T4 datasheet: 2,560 CUDA cores / 64 per Turing SM = 40'),
('v100-sxm-16gb', 'NVIDIA Tesla V100 SXM2 16GB', 80,
 'NVIDIA Tesla V100 GPU Architecture whitepaper: 80 SMs in the Tesla V100; 5,120 FP32 CUDA cores / 64 per SM'),
('v100-sxm-32gb', 'NVIDIA Tesla V100 SXM2 32GB', 80,
 'NVIDIA Tesla V100 GPU Architecture whitepaper: 80 SMs in the Tesla V100; 5,120 FP32 CUDA cores / 64 per SM'),
('gb10', 'NVIDIA GB10 (DGX Spark)', 48,
 'NVIDIA DGX Spark: "6,144 CUDA cores" (NVIDIA DGX Spark product page and hardware overview) / 128 per Blackwell SM = 48')
)) AS s
WHERE gpus.id = s.id AND gpus.name = s.name AND gpus.revision = 1 AND gpus.sm_count IS NULL;
