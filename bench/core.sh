#!/usr/bin/env bash
# bench/core.sh - nanoseconds per gs_estimate_compute call for representative
# training requests, from a Release build (build-release/, as serve.sh makes).
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build-release -DCMAKE_BUILD_TYPE=Release -DGPUSIZER_BUILD_TESTS=OFF >/dev/null
cmake --build build-release -j"$(nproc)" --target gs_bench_core >/dev/null
build-release/bench/gs_bench_core
