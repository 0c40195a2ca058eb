#!/usr/bin/env bash
# bench/sizing.sh - server time of /v1/recommend and /v1/fit over the whole
# seeded catalog (every GPU, every plan), from a Release build.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build-release -DCMAKE_BUILD_TYPE=Release -DGPUSIZER_BUILD_TESTS=OFF >/dev/null
cmake --build build-release -j"$(nproc)" --target gs_bench_sizing >/dev/null
build-release/bench/gs_bench_sizing
