#!/usr/bin/env bash
# bench/same-answers.sh - do two gpusizer builds give byte-identical answers?
#
#   bench/same-answers.sh OLD/gpusizer NEW/gpusizer
#
# For performance work: a change that should only make answers faster
# must not change one byte of what it answers. Starts both binaries on
# 127.0.0.1 (free ports, each on its own fresh catalog, answer cache off) and
# POSTs, for every catalog model, ten /v1/recommend request shapes (a rate
# with quantization and a budget, a batch without demand, latency targets with
# disaggregation and expert parallelism, long context across two nodes, a
# training deadline, purchase pricing under a GPU cap; and, for the options'
# estimate_request, which rewrites the request's own sections: an inference
# section with its own batch, dtype and sequence_tokens, a prompt/output split
# with overrides, a GPTQ group size, FSDP training with LoRA) and three /v1/fit
# shapes (8 x H100 serving, one L4, 4 x A100 training) and five /v1/estimate
# shapes (serving on an H100, without a GPU, tensor x pipeline on A100s, full
# training with ZeRO, QLoRA on an L4) to each; prints every request whose
# answers differ and exits 1 if any does.
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
recommend=(
'"inference":{"context_length":8192},"demand":{"output_tokens_per_s":5000,"prompt_tokens":2000,"output_tokens":500},"constraints":{"allow":{"quantization":true},"max_cost_per_hour":200}'
'"inference":{"context_length":4096,"batch_size":16}'
'"demand":{"requests_per_s":3,"prompt_tokens":1000,"output_tokens":300,"tpot_ms":40,"ttft_ms":800,"percentile":99},"constraints":{"allow":{"disaggregation":true,"quantization":true,"expert_parallelism":true}}'
'"inference":{"context_length":32768},"demand":{"output_tokens_per_s":20000,"prompt_tokens":8000,"output_tokens":1000,"tpot_ms":50},"constraints":{"allow":{"disaggregation":true},"max_nodes_per_replica":2}'
'"mode":"training","training":{"batch_size":1,"sequence_length":4096},"demand":{"training_tokens":1e10,"deadline_days":30}'
'"inference":{"context_length":2048},"constraints":{"max_gpus":4,"pricing":"purchase"}'
'"inference":{"batch_size":4,"kv_cache_dtype":"fp8","context_length":4096,"sequence_tokens":2048},"demand":{"output_tokens_per_s":3000,"prompt_tokens":1000,"output_tokens":200},"constraints":{"allow":{"quantization":true}}'
'"inference":{"prompt_tokens":1000,"output_tokens":500,"batch_size":2,"engine":"sglang"},"overrides":{"fragmentation_fraction":0.1}'
'"precision":{"weights":"gptq","group_size":64},"inference":{"context_length":8192,"batch_size":8}'
'"mode":"training","training":{"optimizer":"adamw","batch_size":2,"lora":{"rank":16}},"parallelism":{"zero_stage":"full_shard","fsdp_version":1,"fsdp_use_orig_params":true}'
)
fit=(
'"gpu":"h100","gpu_count":8,"inference":{"context_length":8192,"batch_size":8}'
'"gpu":"l4","inference":{"context_length":4096}'
'"gpu":"a100-80gb","gpu_count":4,"mode":"training","training":{"batch_size":1,"sequence_length":2048}'
)
estimate=(
'"gpu":"h100","inference":{"batch_size":32,"context_length":8192}'
'"inference":{"batch_size":4,"context_length":4096}'
'"gpu":"a100-80gb","inference":{"batch_size":8,"context_length":16384},"parallelism":{"tensor":4,"pipeline":2}'
'"mode":"training","gpu":"h100","training":{"batch_size":1,"sequence_length":4096,"activation_checkpointing":"selective"},"parallelism":{"tensor":8,"pipeline":2,"data":4,"zero_stage":1}'
'"mode":"training","gpu":"l4","training":{"method":"qlora","batch_size":2,"sequence_length":1024}'
)
ask() { curl -s -X POST "http://127.0.0.1:$1$2" -H 'Content-Type: application/json' -d "$3"; }
compared=0 differing=0
for m in $models; do
    for path in /v1/recommend /v1/fit /v1/estimate; do
        case $path in
        /v1/recommend) shapes=("${recommend[@]}") ;;
        /v1/fit) shapes=("${fit[@]}") ;;
        *) shapes=("${estimate[@]}") ;;
        esac
        for shape in "${shapes[@]}"; do
            body="{\"model\":\"$m\",$shape}"
            if [[ "$(ask "$port_a" "$path" "$body")" != "$(ask "$port_b" "$path" "$body")" ]]; then
                echo "differs: $path $body"
                differing=$((differing + 1))
            fi
            compared=$((compared + 1))
        done
    done
done
echo "compared $compared answers, $differing differ"
((differing == 0))
