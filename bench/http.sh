#!/usr/bin/env bash
# bench/http.sh - HTTP throughput and latency of a local gpusizer, with wrk.
#
#   bench/http.sh [build-dir] [seconds]
#
# Starts `gpusizer serve` on 127.0.0.1 (free port, temporary catalog), then
# runs wrk (2 threads, 50 connections, bounded duration) against /healthz
# (the floor: no JSON work), GET /v1/models (a pre-rendered body) and
# POST /v1/estimate (decode, compute, encode), twice each in alternation, as
# these machines are noisy. Compare the ratios, not the absolute numbers.
# Targets 127.0.0.1 only. Needs wrk (apt-get install wrk).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
seconds=${2:-5}
command -v wrk >/dev/null || { echo "bench/http.sh: needs wrk (apt-get install wrk)" >&2; exit 1; }

work=$(mktemp -d)
"$build/gpusizer" serve --host 127.0.0.1 --port 0 --db "$work/catalog.db" >"$work/out" 2>"$work/err" &
pid=$!
trap 'kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 50); do grep -q listening "$work/out" && break; sleep 0.1; done
port=$(sed -n 's/.*:\([0-9]*\)$/\1/p' "$work/out")
base="http://127.0.0.1:$port"

cat >"$work/estimate.lua" <<'LUA'
wrk.method = "POST"
wrk.body = '{"model":"llama-3.1-8b","mode":"training","precision":{"weights":"bf16"},"gpu":"h100-sxm-80gb"}'
wrk.headers["Content-Type"] = "application/json"
LUA

run() { # name, url, [script]
    local args=(-t2 -c50 -d"${seconds}s" --latency)
    [[ -n "${3:-}" ]] && args+=(-s "$3")
    wrk "${args[@]}" "$2" | awk -v name="$1" '
        /Requests\/sec/ {rps=$2} /^ +50%/ {p50=$2} /^ +99%/ {p99=$2} /Non-2xx/ {bad=$NF}
        END {printf "%-10s %10s req/s  p50 %-8s p99 %-8s%s\n", name, rps, p50, p99, bad ? "  NON-2XX " bad : ""}'
}

for round in 1 2; do
    echo "round $round"
    run healthz "$base/healthz"
    run models "$base/v1/models"
    run estimate "$base/v1/estimate" "$work/estimate.lua"
done
