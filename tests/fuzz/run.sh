#!/usr/bin/env bash
# run.sh - one bounded fuzz run of a libFuzzer target, as the test command
# runs it: first every regression input kept in the repository (each must
# pass), then `seconds` of fuzzing from the seed corpora. New inputs go to a
# temporary directory, never into the repository; a crash prints the input
# to copy into tests/fuzz/regressions/<target>/.
#
#   tests/fuzz/run.sh BINARY TARGET SECONDS SEED_DIR...
#
# A longer run: GPUSIZER_FUZZ_SECONDS=3600 scripts/test.sh, or call this
# script directly with a larger SECONDS. Build the targets as scripts/test.sh does (-O1 with
# the sanitizers): the 10-second limit on one input assumes it.
set -euo pipefail
bin=$1 target=$2 seconds=$3
shift 3
root=$(cd "$(dirname "$0")/../.." && pwd)
regress="$root/tests/fuzz/regressions/$target"
work=$(mktemp -d "/tmp/gs-fuzz-$target.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/corpus"
# each under the fuzzing's own limit on one input: a timeout found once stays fixed
if compgen -G "$regress/*" >/dev/null; then
    "$bin" -timeout=10 -rss_limit_mb=2048 "$regress"/* 2>&1 | tail -3
fi
seeds=()
for d in "$@"; do
    [[ -d "$d" ]] && seeds+=("$d")
done
if ! "$bin" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
        -print_final_stats=1 -artifact_prefix="$work/" "$work/corpus" "${seeds[@]}" \
        >"$work/log" 2>&1; then
    tail -40 "$work/log"
    for crash in "$work"/crash-* "$work"/leak-* "$work"/timeout-* "$work"/oom-*; do
        [[ -e "$crash" ]] || continue
        mkdir -p "/tmp/gs-fuzz-findings/$target"
        cp "$crash" "/tmp/gs-fuzz-findings/$target/"
        echo "fuzz: $target found $(basename "$crash"); kept in /tmp/gs-fuzz-findings/$target;" \
             "fix it and add it to tests/fuzz/regressions/$target/" >&2
    done
    exit 1
fi
grep -E "stat::number_of_executed_units|stat::peak_rss_mb" "$work/log" | sed "s/^/fuzz $target: /"
