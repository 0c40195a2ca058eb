#!/usr/bin/env bash
# model-types.sh - writes the README's list of supported model types from the reader tables
# (server/readers/), between the model-types markers. With --check, changes nothing and fails
# when the README's list differs (tests/CMakeLists.txt runs it as test_model_types_doc).
# Usage: scripts/model-types.sh [--check] [path/to/gpusizer]
set -euo pipefail
cd "$(dirname "$0")/.."
check=0
if [[ "${1:-}" == --check ]]; then check=1; shift; fi
bin=${1:-build/gpusizer}
list=$("$bin" model-types --markdown)
want=$(awk -v list="$list" '
    /<!-- model-types:begin -->/ { print; print list; skip = 1; next }
    /<!-- model-types:end -->/   { skip = 0 }
    !skip { print }' README.md)
if (( check )); then
    if [[ "$want" != "$(cat README.md)" ]]; then
        echo "README.md's model-type list is stale: run scripts/model-types.sh" >&2
        diff <(cat README.md) <(printf '%s\n' "$want") >&2 || true
        exit 1
    fi
    echo "README.md lists the model types the readers read"
    exit 0
fi
printf '%s\n' "$want" > README.md
