#!/usr/bin/env bash
# bench/compare.sh - gpusizer side by side with nginx serving the same bytes.
#
#   bench/compare.sh
#   BENCH_SECONDS=10 BENCH_ROUNDS=4 bench/compare.sh
#   BENCH_CASES="estimate-serving recommend" bench/compare.sh
#
# Builds a Release gpusizer (build-release/, as serve.sh makes), starts
# `gpusizer serve` on 127.0.0.1 (a free port, a temporary catalog, no access
# log) and a private nginx (its own temporary prefix and config, 127.0.0.1, a
# free port, one worker per CPU, no access log, keep-alive). For each case it
# first asks gpusizer for the response and saves the body as a static file that
# nginx serves with the same Content-Type (application/json); POSTs to nginx
# are answered from the file too (error_page 405 =200), and the bytes nginx
# returns are checked to be exactly gpusizer's. Then wrk (2 threads, 64
# connections, --latency, the POST bodies from Lua scripts) runs against each,
# in alternating A/B rounds (round 1: gpusizer then nginx, round 2: nginx then
# gpusizer, ...), as the machine is shared and noisy. Prints per case req/s,
# p50 and p99 of each (median over rounds) and gpusizer/nginx (the median of
# the rounds' ratios: compare these, not the absolute numbers).
#
# Cases: POST /v1/estimate serving (Llama-3.1-70B on an H100, batch 32 at 8k)
# and training (the README's 70B TP8 PP4 DP4), POST /v1/fit and
# POST /v1/recommend over the whole catalog (the README's examples),
# GET /v1/gpus and GET /v1/models.
# Targets (issue 18): estimate >= 0.6x nginx with p99 < 2 ms; recommend >= 0.2x.
# Every response must be 2xx: a run with non-2xx answers or socket errors
# (wrk's 2 s timeouts included) is flagged and the script exits 1.
#
# Environment: BENCH_SECONDS (per run, default 5), BENCH_ROUNDS (default 2),
# BENCH_CONNECTIONS (64), BENCH_THREADS (2), BENCH_CASES (default all),
# BENCH_BUILD_DIR (a gpusizer build to use instead of building build-release/).
# Needs wrk, nginx and curl: installed with apt-get when run as root.
# Targets 127.0.0.1 only; everything started is stopped on exit.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${BENCH_SECONDS:-5}
rounds=${BENCH_ROUNDS:-2}
conns=${BENCH_CONNECTIONS:-64}
threads=${BENCH_THREADS:-2}
all_cases="estimate-serving estimate-training fit recommend gpus models"
read -r -a cases <<<"${BENCH_CASES:-$all_cases}"

need=()
command -v wrk >/dev/null || need+=(wrk)
command -v nginx >/dev/null || [[ -x /usr/sbin/nginx ]] || need+=(nginx-light)
command -v curl >/dev/null || need+=(curl)
if ((${#need[@]} > 0)); then
    if ((EUID == 0)) && command -v apt-get >/dev/null; then
        echo "installing ${need[*]}"
        apt-get update -qq >/dev/null
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
    else
        echo "bench/compare.sh: needs ${need[*]} (as root: apt-get install ${need[*]})" >&2
        exit 1
    fi
fi
nginx_bin=$(command -v nginx || echo /usr/sbin/nginx)

# shellcheck source=bench/lib.sh
source bench/lib.sh
build=$(bench_build gpusizer)

work=$(mktemp -d)
gs_pid="" nginx_pid=""
# shellcheck disable=SC2317 # called by the trap
cleanup() {
    set +e
    for pid in $gs_pid $nginx_pid; do kill -TERM "$pid" 2>/dev/null; done
    for pid in $gs_pid $nginx_pid; do wait "$pid" 2>/dev/null; done
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# gpusizer
GPUSIZER_ACCESS_LOG=0 "$build/gpusizer" serve --host 127.0.0.1 --port 0 --db "$work/catalog.db" \
    >"$work/gpusizer.out" 2>"$work/gpusizer.err" &
gs_pid=$!
for _ in $(seq 100); do grep -q listening "$work/gpusizer.out" && break; sleep 0.1; done
gs_port=$(sed -n 's/.*:\([0-9]*\)$/\1/p' "$work/gpusizer.out")
[[ -n $gs_port ]] || { cat "$work/gpusizer.err" >&2; echo "bench/compare.sh: gpusizer did not start" >&2; exit 1; }
gs="http://127.0.0.1:$gs_port"

# the cases: gpusizer's path, the POST body (none: GET), the Content-Type it answers with
declare -A path body ctype
path[estimate-serving]=/v1/estimate
body[estimate-serving]='{"model":"llama-3.1-70b","gpu":"h100","inference":{"batch_size":32,"context_length":8192}}'
path[estimate-training]=/v1/estimate
body[estimate-training]='{"model":"llama-3.1-70b","mode":"training","training":{"batch_size":1,"sequence_length":4096,"activation_checkpointing":"selective"},"parallelism":{"tensor":8,"pipeline":4,"data":4,"sequence_parallel":true,"zero_stage":1},"gpu":"h100"}'
path[fit]=/v1/fit
body[fit]='{"model":"llama-3.1-70b","gpu":"h100","inference":{"batch_size":32,"context_length":8192}}'
path[recommend]=/v1/recommend
body[recommend]='{"model":"llama-3.1-70b","inference":{"context_length":8192},"demand":{"output_tokens_per_s":5000,"prompt_tokens":2000,"output_tokens":500},"constraints":{"allow":{"quantization":true},"max_cost_per_hour":200}}'
path[gpus]=/v1/gpus
body[gpus]=""
path[models]=/v1/models
body[models]=""

mkdir -p "$work/www" "$work/nginx/logs"
for c in "${cases[@]}"; do
    [[ -n ${path[$c]:-} ]] || { echo "bench/compare.sh: unknown case $c (cases: $all_cases)" >&2; exit 1; }
    args=(-sS -o "$work/www/$c.json" -w '%{http_code} %{content_type}\n')
    if [[ -n ${body[$c]} ]]; then
        printf '%s' "${body[$c]}" >"$work/$c.body"
        args+=(-H 'Content-Type: application/json' --data-binary "@$work/$c.body")
        # wrk sends the same body, in a Lua long string
        printf 'wrk.method = "POST"\nwrk.body = [==[%s]==]\nwrk.headers["Content-Type"] = "application/json"\n' \
            "${body[$c]}" >"$work/$c.lua"
    fi
    read -r code type < <(curl "${args[@]}" "$gs${path[$c]}")
    [[ $code == 200 && $type == application/json* ]] ||
        { echo "bench/compare.sh: $c: gpusizer answered $code $type" >&2; exit 1; }
    ctype[$c]=$type
done
chmod -R a+rX "$work" # nginx's workers may run as nobody

# nginx: its own prefix, foreground (its pid is ours to stop), one worker per CPU
nginx_port=$(free_port) || exit 1
cat >"$work/nginx/nginx.conf" <<EOF
worker_processes $(nproc);
daemon off;
pid $work/nginx/nginx.pid;
error_log $work/nginx/logs/error.log warn;
events { worker_connections 4096; }
http {
    access_log off;
    sendfile on;
    tcp_nopush on;
    keepalive_timeout 65;
    keepalive_requests 100000000;
    types { application/json json; }
    default_type application/json;
    client_body_temp_path $work/nginx/body;
    server {
        listen 127.0.0.1:$nginx_port;
        root $work/www;
        etag off;
        # nginx answers POST to a static file with 405: serve the file instead
        location / { error_page 405 =200 \$uri; }
    }
}
EOF
"$nginx_bin" -p "$work/nginx/" -c "$work/nginx/nginx.conf" -e "$work/nginx/logs/error.log" \
    >"$work/nginx/out" 2>&1 &
nginx_pid=$!
for _ in $(seq 100); do port_free "$nginx_port" || break; sleep 0.1; done
port_free "$nginx_port" && { cat "$work/nginx/out" "$work/nginx/logs/error.log" >&2; echo "bench/compare.sh: nginx did not start" >&2; exit 1; }
ngx="http://127.0.0.1:$nginx_port"

# nginx must answer every case with exactly gpusizer's bytes and type
for c in "${cases[@]}"; do
    args=(-sS -o "$work/$c.nginx" -w '%{http_code} %{content_type}\n')
    [[ -n ${body[$c]} ]] && args+=(-H 'Content-Type: application/json' --data-binary "@$work/$c.body")
    read -r code type < <(curl "${args[@]}" "$ngx/$c.json")
    [[ $code == 200 && $type == "${ctype[$c]}" ]] ||
        { echo "bench/compare.sh: $c: nginx answered $code $type (gpusizer: ${ctype[$c]})" >&2; exit 1; }
    cmp -s "$work/$c.nginx" "$work/www/$c.json" ||
        { echo "bench/compare.sh: $c: nginx's body differs from gpusizer's" >&2; exit 1; }
    printf '%-18s %8d bytes  %s %s (nginx: /%s.json, same bytes)\n' "$c" \
        "$(stat -c %s "$work/www/$c.json")" "$([[ -n ${body[$c]} ]] && echo POST || echo GET)" "${path[$c]}" "$c"
done

# one wrk run: prints "rps p50_ms p99_ms bad" (bad = non-2xx + socket errors)
run() { # server url [lua]
    local args=(-t"$threads" -c"$conns" -d"${seconds}s" --latency)
    [[ -n ${3:-} ]] && args+=(-s "$3")
    wrk "${args[@]}" "$2" >"$work/wrk.last" 2>&1 || true
    awk 'function ms(v) {
             if (v ~ /us$/) return v / 1000; if (v ~ /ms$/) return v + 0
             if (v ~ /m$/) return v * 60000; if (v ~ /s$/) return v * 1000; return v }
         /Requests\/sec/ {rps = $2}
         /^ +50%/ {p50 = ms($2)} /^ +99%/ {p99 = ms($2)}
         /Non-2xx/ {non2xx += $NF}
         /Socket errors/ {for (i = 4; i <= NF; i += 2) {v = $i; sub(",", "", v); sock += v}; what = $0}
         END {printf "%s %.3f %.3f %d %d %s\n", rps ? rps : 0, p50, p99, non2xx + sock, non2xx, what}' "$work/wrk.last"
}

echo "wrk -t$threads -c$conns -d${seconds}s --latency, $rounds rounds, $(nproc) CPUs (shared with wrk)"
: >"$work/results"
for ((r = 1; r <= rounds; r++)); do
    order="gpusizer nginx"
    ((r % 2 == 0)) && order="nginx gpusizer"
    for c in "${cases[@]}"; do
        lua=""
        [[ -n ${body[$c]} ]] && lua=$work/$c.lua
        for s in $order; do
            if [[ $s == gpusizer ]]; then url=$gs${path[$c]}; else url=$ngx/$c.json; fi
            read -r rps p50 p99 bad non2xx sock < <(run "$s" "$url" "$lua")
            printf 'round %d %-18s %-8s %10.0f req/s  p50 %7.3f ms  p99 %7.3f ms%s\n' "$r" "$c" "$s" \
                "$rps" "$p50" "$p99" "$( ((bad > 0)) && echo "  ERRORS: non-2xx $non2xx, $sock")"
            echo "$c $s $r $rps $p50 $p99 $bad" >>"$work/results"
        done
    done
done

echo
printf '%-18s | %10s %8s %8s | %10s %8s %8s | %6s | %s\n' case "gs req/s" "p50 ms" "p99 ms" \
    "nginx r/s" "p50 ms" "p99 ms" ratio targets
failed=0
for c in "${cases[@]}"; do
    line=$(awk -v c="$c" '
        function median(a, len,   i, j, t) {
            for (i = 2; i <= len; i++)
                for (j = i; j > 1 && a[j - 1] > a[j]; j--) {t = a[j]; a[j] = a[j - 1]; a[j - 1] = t}
            return len % 2 ? a[(len + 1) / 2] : (a[len / 2] + a[len / 2 + 1]) / 2
        }
        $1 == c {
            k = ($2 == "gpusizer") ? "g" : "n"
            cnt[k]++; rps[k, cnt[k]] = $4; p50[k, cnt[k]] = $5; p99[k, cnt[k]] = $6
            bad += $7; byround[$3, k] = $4; seen[$3] = 1
        }
        END {
            m = 0
            for (i in seen) if (byround[i, "n"] > 0) ratio[++m] = byround[i, "g"] / byround[i, "n"]
            for (s = 1; s <= 2; s++) {
                k = (s == 1) ? "g" : "n"
                for (i = 1; i <= cnt[k]; i++) {a[i] = rps[k, i]; b[i] = p50[k, i]; d[i] = p99[k, i]}
                printf "%.0f %.3f %.3f ", median(a, cnt[k]), median(b, cnt[k]), median(d, cnt[k])
            }
            printf "%.3f %d\n", median(ratio, m), bad
        }' "$work/results")
    read -r g_rps g50 g99 n_rps n50 n99 ratio bad <<<"$line"
    verdict=""
    case $c in
    estimate-*)
        verdict="ratio>=0.6 $(awk -v x="$ratio" 'BEGIN {if (x >= 0.6) print "met"; else print "MISSED"}'),"
        verdict+=" p99<2ms $(awk -v x="$g99" 'BEGIN {if (x < 2) print "met"; else print "MISSED"}')" ;;
    recommend) verdict="ratio>=0.2 $(awk -v x="$ratio" 'BEGIN {if (x >= 0.2) print "met"; else print "MISSED"}')" ;;
    esac
    ((bad > 0)) && { verdict+=" ERRORS (non-2xx or socket): $bad"; failed=1; }
    printf '%-18s | %10s %8s %8s | %10s %8s %8s | %6s | %s\n' "$c" "$g_rps" "$g50" "$g99" \
        "$n_rps" "$n50" "$n99" "$ratio" "$verdict"
done
echo "medians over $rounds alternating rounds; ratio = median of the rounds' gpusizer/nginx req/s"
exit "$failed"
