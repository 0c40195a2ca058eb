#!/usr/bin/env bash
# bench/footprint.sh - start-up time, resident memory and image size of gpusizer.
#
#   bench/footprint.sh
#   FOOTPRINT_STARTS=20 BENCH_SECONDS=10 bench/footprint.sh
#
# From a Release build (build-release/, as serve.sh makes), on 127.0.0.1:
#   - start-up: from launching `gpusizer serve` to its first 200 on /healthz
#     (polled from bash over /dev/tcp, no process spawned per try), median and
#     range of FOOTPRINT_STARTS starts (default 10) each with a fresh catalog
#     (migrations and seed run) and with an existing one, and the CPU time the
#     process had used by then (its threads' schedstat: what the machine's
#     load does not change);
#   - resident memory: VmRSS one second after start (idle), then while wrk
#     (2 threads, 64 connections) sends POST /v1/estimate (Llama-3.1-70B
#     serving, as bench/compare.sh) for BENCH_SECONDS (default 5): the peak
#     (VmHWM) and VmRSS after the load;
#   - the Docker image size, when an image gpusizer:latest, gpusizer or
#     gpusizer:smoke is in a reachable Docker daemon; otherwise it says how to
#     get it (tests/docker/smoke.sh builds the image with a private dockerd and
#     prints its size), or with FOOTPRINT_DOCKER=1 runs that script (as root;
#     minutes: it builds the image) and reports the size it prints.
# Targets (issue 18): first healthz < 50 ms, < 20 MB resident idle, image < 100 MB.
# Start-up figures depend on the disk and the machine's load: read them as a
# median, and run again on a quiet machine before trusting a change of a few ms.
#
# Environment: FOOTPRINT_STARTS, BENCH_SECONDS, BENCH_BUILD_DIR (a gpusizer
# build to use instead of building build-release/), FOOTPRINT_DOCKER=1.
# Needs wrk and curl (as root: apt-get install wrk curl). Everything started is
# stopped on exit.
set -euo pipefail
cd "$(dirname "$0")/.."
starts=${FOOTPRINT_STARTS:-10}
seconds=${BENCH_SECONDS:-5}
for tool in wrk curl; do
    command -v "$tool" >/dev/null ||
        { echo "bench/footprint.sh: needs $tool (as root: apt-get install $tool)" >&2; exit 1; }
done

# shellcheck source=bench/lib.sh
source bench/lib.sh
build=$(bench_build gpusizer)
bin=$build/gpusizer

work=$(mktemp -d)
pid=""
stop() {
    [[ -n $pid ]] || return 0
    kill -TERM "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    pid=""
}
# shellcheck disable=SC2317 # called by the trap
cleanup() {
    set +e
    stop
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

mkfifo "$work/pause"
exec 4<>"$work/pause"

port=$(free_port) || exit 1

# 0 when /healthz answers 200 (one try, from bash: no process per try)
healthz() {
    local line
    exec 3<>"/dev/tcp/127.0.0.1/$port" || return 1
    printf 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n' >&3
    IFS= read -r -t 2 line <&3 || line=""
    exec 3<&-
    [[ $line == "HTTP/1."?" 200"* ]]
}

# starts the server on catalog $1, prints microseconds to the first healthz 200
# and the CPU time its threads had used by then (schedstat: the part of the
# wall time that does not depend on the machine's load)
start() {
    local t0 t1 cpu
    t0=${EPOCHREALTIME/./}
    GPUSIZER_ACCESS_LOG=0 "$bin" serve --host 127.0.0.1 --port "$port" --db "$1" \
        >"$work/out" 2>"$work/err" &
    pid=$!
    until healthz 2>/dev/null; do
        read -r -t 0.001 -u 4 _ || true # a 1 ms pause without a process (the fifo stays empty)
        kill -0 "$pid" 2>/dev/null || { cat "$work/err" >&2; echo "bench/footprint.sh: gpusizer exited" >&2; exit 1; }
        if ((${EPOCHREALTIME/./} - t0 > 30000000)); then echo "bench/footprint.sh: no healthz in 30 s" >&2; exit 1; fi
    done
    t1=${EPOCHREALTIME/./}
    cpu=$(cat /proc/"$pid"/task/*/schedstat 2>/dev/null | awk '{ns += $1} END {printf "%d", ns / 1000}')
    echo "$((t1 - t0)) $cpu"
}

# "median min max" in ms of the microsecond figures in column $1 of stdin
stats() {
    awk -v c="$1" '{print $c}' | sort -n | awk '{v[NR] = $1} END {
        m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
        printf "%.1f %.1f %.1f\n", m / 1000, v[1] / 1000, v[NR] / 1000 }'
}

kib() { awk -v k="$2" '$1 == k ":" {print $2}' "/proc/$1/status"; }

: >"$work/fresh" && : >"$work/existing"
for ((i = 1; i <= starts; i++)); do
    start "$work/fresh-$i.db" >>"$work/fresh"
    stop
    rm -f "$work/fresh-$i.db"*
done
start "$work/catalog.db" >/dev/null # create it once
stop
for ((i = 1; i <= starts; i++)); do
    start "$work/catalog.db" >>"$work/existing"
    stop
done
read -r fresh_med fresh_min fresh_max < <(stats 1 <"$work/fresh")
read -r ex_med ex_min ex_max < <(stats 1 <"$work/existing")
read -r fresh_cpu _ _ < <(stats 2 <"$work/fresh")
read -r ex_cpu _ _ < <(stats 2 <"$work/existing")

# memory: idle, then under wrk
start "$work/catalog.db" >/dev/null
sleep 1
idle=$(kib "$pid" VmRSS)
threads=$(kib "$pid" Threads)
cat >"$work/estimate.lua" <<'LUA'
wrk.method = "POST"
wrk.body = '{"model":"llama-3.1-70b","gpu":"h100","inference":{"batch_size":32,"context_length":8192}}'
wrk.headers["Content-Type"] = "application/json"
LUA
wrk -t2 -c64 -d"${seconds}s" -s "$work/estimate.lua" "http://127.0.0.1:$port/v1/estimate" >"$work/wrk" 2>&1 &
wrk_pid=$!
peak_rss=0
while kill -0 "$wrk_pid" 2>/dev/null; do
    r=$(kib "$pid" VmRSS) && ((r > peak_rss)) && peak_rss=$r
    sleep 0.2
done
wait "$wrk_pid" || true
hwm=$(kib "$pid" VmHWM)
((peak_rss > hwm)) && hwm=$peak_rss # VmHWM can lag the per-thread RSS counters
after=$(kib "$pid" VmRSS)
rps=$(awk '/Requests\/sec/ {print $2}' "$work/wrk")
non2xx=$(awk '/Non-2xx/ {print $NF}' "$work/wrk")
stop

mb() { awk -v k="$1" 'BEGIN {printf "%.1f MB (%.1f MiB)", k * 1024 / 1e6, k / 1024}'; }
verdict() { awk -v x="$1" -v t="$2" 'BEGIN {if (x < t) print "met"; else print "MISSED"}'; }

printf '%-58s %s\n' "measure" "figure (target)"
printf '%-58s %s ms, range %s-%s, CPU %s ms (< 50 ms: %s)\n' \
    "start to first healthz, fresh catalog (median of $starts)" \
    "$fresh_med" "$fresh_min" "$fresh_max" "$fresh_cpu" "$(verdict "$fresh_med" 50)"
printf '%-58s %s ms, range %s-%s, CPU %s ms (< 50 ms: %s)\n' \
    "start to first healthz, existing catalog (median of $starts)" \
    "$ex_med" "$ex_min" "$ex_max" "$ex_cpu" "$(verdict "$ex_med" 50)"
printf '%-58s %s (< 20 MB: %s)\n' "resident idle (VmRSS 1 s after start, $threads threads)" \
    "$(mb "$idle")" "$(verdict "$((idle * 1024))" 20000000)"
printf '%-58s %s peak (VmHWM), %s after\n' "resident under load (${seconds} s wrk estimate, 64 conns)" \
    "$(mb "$hwm")" "$(mb "$after")"
printf '%-58s %s req/s%s\n' "  (that load)" "${rps:-?}" "${non2xx:+, NON-2XX $non2xx}"

size=""
if command -v docker >/dev/null && docker info >/dev/null 2>&1; then
    for image in gpusizer:latest gpusizer:smoke; do
        size=$(docker image inspect -f '{{.Size}}' "$image" 2>/dev/null) && { echo "image: $image"; break; }
        size=""
    done
fi
if [[ -z $size && ${FOOTPRINT_DOCKER:-0} == 1 ]]; then
    if ((EUID != 0)); then
        echo "FOOTPRINT_DOCKER=1 needs root (tests/docker/smoke.sh starts a private dockerd)" >&2
    else
        echo "building the image with tests/docker/smoke.sh (minutes)..."
        bash tests/docker/smoke.sh >"$work/smoke" 2>&1 || true
        size=$(sed -n 's/.*image size [0-9]* MB (\([0-9]*\) bytes.*/\1/p' "$work/smoke")
        [[ -n $size ]] || { tail -n 20 "$work/smoke" >&2; echo "tests/docker/smoke.sh printed no size" >&2; }
    fi
fi
if [[ -n $size ]]; then
    printf '%-58s %s MB (%s bytes) (< 100 MB: %s)\n' "Docker image size" "$(((size + 500000) / 1000000))" \
        "$size" "$(verdict "$size" 100000000)"
else
    printf '%-58s %s\n' "Docker image size" \
        "no local image: sudo bash tests/docker/smoke.sh prints it ('ok - image size N MB'), or FOOTPRINT_DOCKER=1 $0"
fi
