#!/usr/bin/env bash
# bench/same-answers.sh - do two gpusizer builds give byte-identical answers?
#
#   bench/same-answers.sh OLD/gpusizer NEW/gpusizer
#
# For performance work: a change that should only make answers faster
# must not change one byte of what it answers. Starts both binaries on
# 127.0.0.1 (free ports, each on its own fresh catalog, answer cache off) and
# POSTs, for every catalog model, the request shapes of tests/fixtures/answers/shapes.tsv
# (test_answers checks the same shapes against a golden file in CI; this script compares two
# builds and prints the requests whose answers differ): ten /v1/recommend shapes (a rate
# with quantization and a budget, a batch without demand, latency targets with
# disaggregation and expert parallelism, long context across two nodes, a
# training deadline, purchase pricing under a GPU cap; and, for the options'
# estimate_request, which rewrites the request's own sections: an inference
# section with its own batch, dtype and sequence_tokens, a prompt/output split
# with overrides, a GPTQ group size, FSDP training with LoRA) and three /v1/fit
# shapes (8 x H100 serving, one L4, 4 x A100 training) and seven /v1/estimate
# shapes (serving on an H100, without a GPU, tensor x pipeline on A100s, full
# training with ZeRO, QLoRA on an L4, SGLang with the model's MTP draft on an
# H200, TensorRT-LLM on an H100) to each; prints every request whose answers
# differ and exits 1 if any does.
set -euo pipefail
(($# == 2)) || { echo "usage: bench/same-answers.sh OLD_GPUSIZER NEW_GPUSIZER" >&2; exit 2; }
old=$1 new=$2
work=$(mktemp -d)
pids=()
trap 'kill "${pids[@]}" 2>/dev/null || true; rm -rf "$work"' EXIT
start() { # binary name -> sets port_<name>
    GPUSIZER_ANSWER_CACHE_MIB=0 "$1" serve --host 127.0.0.1 --port 0 --db "$work/$2.db" \
        >"$work/$2.out" 2>"$work/$2.err" &
    pids+=($!)
    for _ in $(seq 100); do
        port=$(sed -n 's|.*listening on http://127.0.0.1:\([0-9]*\).*|\1|p' "$work/$2.out")
        [[ -n $port ]] && curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && break
        sleep 0.1
    done
    [[ -n $port ]] || { echo "$1 did not start" >&2; cat "$work/$2.err" >&2; exit 1; }
    printf -v "port_$2" '%s' "$port"
}
start "$old" a
start "$new" b
models=$(curl -s "http://127.0.0.1:$port_a/v1/models?limit=1000" |
    python3 -c 'import json,sys; print("\n".join(m["id"] for m in json.load(sys.stdin)["items"]))')
# The request shapes test_answers checks against its golden file (one source for both).
shapes_file="$(dirname "$0")/../tests/fixtures/answers/shapes.tsv"
mapfile -t shape_lines < <(grep -v '^#' "$shapes_file" | grep .)
ask() { curl -s -X POST "http://127.0.0.1:$1$2" -H 'Content-Type: application/json' -d "$3"; }
compared=0 differing=0
for m in $models; do
    for line in "${shape_lines[@]}"; do
        path=${line%%$'\t'*} shape=${line#*$'\t'}
        body="{\"model\":\"$m\",$shape}"
        if [[ "$(ask "$port_a" "$path" "$body")" != "$(ask "$port_b" "$path" "$body")" ]]; then
            echo "differs: $path $body"
            differing=$((differing + 1))
        fi
        compared=$((compared + 1))
    done
done
echo "compared $compared answers, $differing differ"
((differing == 0))
