#!/usr/bin/env bash
# calibrate.sh - gpusizer's vLLM, SGLang, TensorRT-LLM and TGI KV capacity against the real startup logs in
# tests/fixtures/calibration/ (each naming its public source): prints one line
# per run and stores the summary (runs, how many within 5% and 10%, median and
# worst absolute error) in bench/calibration.json (vLLM),
# bench/calibration-sglang.json, bench/calibration-tensorrt-llm.json and
# bench/calibration-tgi.json and (vLLM 0.11-0.26, tests/fixtures/calibration/vllm-2026-startup-logs.json)
# bench/calibration-vllm-2026.json; and the
# training peaks against the measured runs of training-measured.json (within 15%
# and 25%, median and worst, per framework) in bench/calibration-training.json.
# The server reports those figures as kv_cache.accuracy and training.accuracy,
# and tests/server/test_calibration.c fails when
# the stored file and a fresh measurement disagree, so the figure is always
# measured, never typed.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build-release -DCMAKE_BUILD_TYPE=Release -DGPUSIZER_BUILD_TESTS=ON >/dev/null
cmake --build build-release -j"$(nproc)" --target test_calibration >/dev/null
GS_CALIBRATION_REPORT=1 build-release/tests/test_calibration | grep -v '^\[' | tee /tmp/gs-calibration.$$
grep '^{"engine":"vllm"' /tmp/gs-calibration.$$ > bench/calibration.json
grep '^{"engine":"sglang"' /tmp/gs-calibration.$$ > bench/calibration-sglang.json
grep '^{"engine":"tensorrt_llm"' /tmp/gs-calibration.$$ > bench/calibration-tensorrt-llm.json
grep '^{"engine":"tgi"' /tmp/gs-calibration.$$ > bench/calibration-tgi.json
grep '^{"engine":"vllm_2026"' /tmp/gs-calibration.$$ > bench/calibration-vllm-2026.json
grep '^{"frameworks"' /tmp/gs-calibration.$$ > bench/calibration-training.json
rm -f /tmp/gs-calibration.$$
echo "stored bench/calibration.json, bench/calibration-sglang.json, bench/calibration-tensorrt-llm.json, bench/calibration-tgi.json, bench/calibration-vllm-2026.json and bench/calibration-training.json"
