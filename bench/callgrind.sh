#!/usr/bin/env bash
# bench/callgrind.sh - instructions (callgrind Ir) and nanoseconds per call of
# the core estimate and of each API operation without HTTP, from a Release
# build (build-release/, as serve.sh makes).
#
#   bench/callgrind.sh              # every case
#   bench/callgrind.sh recommend    # some cases (gs_bench_calls list names them)
#
# For each case of bench/calls_bench.c (the requests bench/compare.sh sends):
#   - ns per call: CALLS_NATIVE calls natively, best and median of 5 rounds
#     (wall clock: noisy on a shared machine);
#   - Ir per call: CALLS_CG calls under valgrind --tool=callgrind with
#     --toggle-collect=bench_measured (a warm-up call and the catalog set-up
#     are not counted), total Ir / calls. Instruction counts barely move with
#     the machine's load, so compare these between commits.
# Cases: estimate-serving-core / estimate-training-core are gs_estimate_compute
# alone (Llama-3.1-70B serving on an H100, batch 32 at 8k; the README's 70B
# TP8 PP4 DP4 training); estimate-serving, estimate-training, fit and recommend
# (the whole catalog) are parse + decode + compute + encode of the POST body.
# Targets (issue 18): a core estimate < 1 us, a full-catalog recommend < 0.5 ms.
#
# Environment: CALLS_CG (default 200; recommend and fit use a tenth),
# CALLS_NATIVE (default 20000; recommend a hundredth), CALLGRIND_TOP=N also
# prints the N named functions with the most inclusive Ir of each case (where
# the instructions go: parsing, decoding, the core, encoding, json_dumps),
# CALLGRIND_KEEP=DIR keeps the callgrind.out files there. Needs valgrind
# (apt-get install valgrind).
set -euo pipefail
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || { echo "bench/callgrind.sh: needs valgrind (apt-get install valgrind)" >&2; exit 1; }
cg_calls=${CALLS_CG:-200}
native_calls=${CALLS_NATIVE:-20000}
top=${CALLGRIND_TOP:-0}

cmake -S . -B build-release -DCMAKE_BUILD_TYPE=Release -DGPUSIZER_BUILD_TESTS=OFF >/dev/null
cmake --build build-release -j"$(nproc)" --target gs_bench_calls >/dev/null
bin=build-release/bench/gs_bench_calls

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# one catalog for every run: seeding it is not what is measured
"$bin" estimate-training-core 0 1 "$work/catalog.db" >/dev/null

if (($# > 0)); then cases=("$@"); else mapfile -t cases < <("$bin" list); fi

printf '%-24s %12s %14s %14s %8s\n' case "Ir/call" "best ns/call" "median ns" "target"
for c in "${cases[@]}"; do
    n=$cg_calls native=$native_calls
    case $c in
    recommend) n=$(((cg_calls + 9) / 10)) native=$(((native_calls + 99) / 100)) ;;
    fit) n=$(((cg_calls + 9) / 10)) native=$(((native_calls + 9) / 10)) ;;
    esac
    read -r best median < <("$bin" "$c" "$native" 5 "$work/catalog.db" |
        sed -n 's/.*best_ns=\([0-9]*\) median_ns=\([0-9]*\).*/\1 \2/p')
    out="$work/callgrind.out.$c"
    valgrind --tool=callgrind --toggle-collect=bench_measured --callgrind-out-file="$out" \
        "$bin" "$c" "$n" 1 "$work/catalog.db" >/dev/null 2>"$work/valgrind.$c.log" ||
        { cat "$work/valgrind.$c.log" >&2; exit 1; }
    ir=$(sed -n 's/^summary: *\([0-9]*\).*/\1/p' "$out")
    per=$((ir / n))
    target=""
    case $c in
    estimate-*-core) ((best < 1000)) && target="<1us met" || target="<1us MISSED" ;;
    recommend) ((best < 500000)) && target="<0.5ms met" || target="<0.5ms MISSED" ;;
    esac
    printf '%-24s %12d %14d %14d %8s\n' "$c" "$per" "$best" "$median" "$target"
    if ((top > 0)); then
        # inclusive Ir per call of the named functions (jansson's static ones have no names)
        callgrind_annotate --inclusive=yes "$out" 2>/dev/null |
            awk -v n="$top" -v calls="$n" '
                /^-+$/ {dash++; next}
                dash < 3 || $1 !~ /^[0-9,]+$/ {next}
                {
                    ir = $1; gsub(",", "", ir)
                    fn = $0; sub(/^.*%\) +/, "", fn); sub(/ \[.*$/, "", fn); sub(/^.*:/, "", fn)
                    lib = $NF; sub(/^.*\//, "", lib); sub(/\]$/, "", lib)
                    if (fn ~ /^0x|'"'"'|TOTALS|below main|^main$|^bench_measured$|^one_call$|__libc_start|^_start$/) next
                    if (shown++ < n) printf "    %10d Ir/call incl. %s (%s)\n", ir / calls, fn, lib
                }'
    fi
    [[ -n ${CALLGRIND_KEEP:-} ]] && mkdir -p "$CALLGRIND_KEEP" && cp "$out" "$CALLGRIND_KEEP/"
done
echo "ns are wall clock on a possibly shared machine (best of 5 rounds); Ir are repeatable"
