-- Schema version 16: the H100 SXM5 80GB's driver-reported total, as current
-- drivers report it. 0002 took 79.22 GiB from vLLM's logs of late 2024 (PR
-- #10511, PR #12126). Logs of 2026 read 79.19 GiB for the same part: vLLM 0.19.0
-- prints "total_memory=79.19GiB" in every one of the llm-d planner's accuracy
-- runs on "NVIDIA H100 80GB HBM3" (llm-d-incubation/llm-d-planner commit
-- d3121e05, accuracy/results/v0.19.0/logs; quoted in
-- tests/fixtures/calibration/vllm-llmd-planner-logs.json), and PyTorch's
-- out-of-memory messages of 2026 say "GPU 0 has a total capacity of 79.19
-- GiB". The figure moves with the driver (0005's conventions: prefer a recent
-- Linux figure and say which one): floor(79.19 x 2^30) = 85,029,615,042 bytes.
--
-- Only a row still at revision 1, carrying the seed's name and the old figure,
-- is changed; PostgreSQL catalogs take it through their seed sync.

UPDATE gpus SET usable_memory_bytes = 85029615042,
    usable_memory_source = 'vLLM 0.19.0 logs total_memory=79.19GiB on NVIDIA H100 80GB HBM3 (llm-d-incubation/llm-d-planner accuracy runs, 2026-04; 79.22GiB in vLLM PR #10511''s log of 2024 under an older driver)'
WHERE id = 'h100-sxm-80gb' AND name = 'NVIDIA H100 SXM5 80GB' AND revision = 1
    AND usable_memory_bytes = 85061827297;
