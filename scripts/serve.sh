#!/usr/bin/env bash
# serve.sh - set up, build and run gpusizer with no configuration.
#
# Installs missing Debian packages (when run as root), builds a release
# binary in build-release/, and serves on $PORT (default 8080) with the
# catalog in ./gpusizer.db (created and seeded on first start). Extra
# arguments go to `gpusizer serve` (e.g. --port 9000 --db /tmp/catalog.db).
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/deps.sh build
cmake -S . -B build-release -DCMAKE_BUILD_TYPE=Release -DGPUSIZER_BUILD_TESTS=OFF >/dev/null
cmake --build build-release -j"$(nproc)" >/dev/null
exec build-release/gpusizer serve "$@"
