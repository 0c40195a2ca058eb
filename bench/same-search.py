#!/usr/bin/env python3
"""bench/same-search.py - do two gpusizer builds search training plans alike?

    bench/same-search.py OLD/gpusizer NEW/gpusizer [COUNT] [SEED]

For work on the training plan search (core/src/plan_training.c): a change that
should only make the search faster must not change one byte of what it answers.
bench/same-answers.sh asks fixed request shapes for every catalog model; this asks
COUNT (default 300) random training questions, drawn from SEED (default 1):
/v1/recommend and /v1/fit over catalog models with random sequence lengths
(16 to 1M tokens), batches, full or LoRA training, frameworks, ZeRO and FSDP,
limits (GPU caps up to 65,536, ZeRO stages, recomputation, offload, expert
parallelism, accumulation) and training demands whose deadlines range from easy
to impossible, the corners where a search runs through every count. It starts
both binaries on 127.0.0.1 (free ports, fresh catalogs, answer cache off), prints
each request whose answers differ and exits 1 if any does; it also prints the
seconds each binary spent answering.
"""
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request


def start(binary, work, name):
    out = open(os.path.join(work, name + ".out"), "w+")
    env = dict(os.environ, GPUSIZER_ANSWER_CACHE_MIB="0")
    proc = subprocess.Popen(
        [binary, "serve", "--host", "127.0.0.1", "--port", "0", "--db",
         os.path.join(work, name + ".db")],
        stdout=out, stderr=subprocess.DEVNULL, env=env)
    for _ in range(200):
        out.seek(0)
        m = re.search(r"listening on http://127\.0\.0\.1:(\d+)", out.read())
        if m:
            return proc, int(m.group(1))
        time.sleep(0.1)
    proc.kill()
    sys.exit(f"{binary} did not start")


def post(port, path, body):
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=body,
                                 headers={"Content-Type": "application/json"})
    t0 = time.monotonic()
    try:
        with urllib.request.urlopen(req, timeout=600) as r:
            status, data = r.status, r.read()
    except urllib.error.HTTPError as e:
        status, data = e.code, e.read()
    return status, data, time.monotonic() - t0


def models(port):
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/v1/models?limit=1000") as r:
        doc = json.load(r)
    items = doc.get("models", doc.get("items", doc)) if isinstance(doc, dict) else doc
    return sorted(m["id"] for m in items if isinstance(m, dict) and "id" in m)


def question(rng, ids):
    training = {"sequence_length": rng.choice([16, 128, 2048, 4096, 8192, 32768, 131072,
                                               1048576])}
    if rng.random() < 0.7:
        training["batch_size"] = rng.choice([1, 2, 3, 4, 8, 12, 16, 64])
    if rng.random() < 0.3:
        training["lora"] = {"rank": rng.choice([8, 16, 64])}
    if rng.random() < 0.3:
        training["framework"] = rng.choice(["deepspeed", "megatron", "torchtitan",
                                            "transformers", "torchtune", "litgpt"])
    req = {"model": rng.choice(ids), "mode": "training", "training": training}
    if rng.random() < 0.2:
        req["parallelism"] = {"zero_stage": rng.choice([1, 2, 3, "full_shard"])}
    allow = {}
    if rng.random() < 0.3:
        allow["expert_parallelism"] = True
    if rng.random() < 0.3:
        allow["offload"] = True
    if rng.random() < 0.2:
        allow["zero_stages"] = rng.sample([0, 1, 2, 3], rng.randint(1, 3))
    if rng.random() < 0.2:
        allow["activation_checkpointing"] = rng.sample(["none", "selective", "full"],
                                                       rng.randint(1, 2))
    if rng.random() < 0.15:
        allow["gradient_accumulation"] = False
    constraints = {}
    if allow:
        constraints["allow"] = allow
    if rng.random() < 0.3:
        constraints["max_gpus"] = rng.choice([8, 64, 256, 1024, 4096, 65536])
    if rng.random() < 0.3:
        constraints["pricing"] = "purchase"
    if constraints:
        req["constraints"] = constraints
    path = "/v1/recommend"
    if rng.random() < 0.25:
        path = "/v1/fit"
        req.pop("constraints", None)
        req["gpu"] = rng.choice(["h100", "a100-80gb", "l4", "h200", "b200", "mi300x"])
        if rng.random() < 0.5:
            req["gpu_count"] = rng.choice([1, 2, 8, 16, 64])
    elif rng.random() < 0.7:
        req["demand"] = {"training_tokens": rng.choice([1e8, 1e9, 1e10, 1e11, 1e12]),
                         "deadline_days": rng.choice([0.5, 1, 7, 14, 90])}
    return path, req


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    old, new = sys.argv[1], sys.argv[2]
    count = int(sys.argv[3]) if len(sys.argv) > 3 else 300
    seed = int(sys.argv[4]) if len(sys.argv) > 4 else 1
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as work:
        a, port_a = start(old, work, "a")
        b, port_b = start(new, work, "b")
        try:
            ids = models(port_a)
            differ, spent_a, spent_b = 0, 0.0, 0.0
            statuses = {}
            for i in range(count):
                path, req = question(rng, ids)
                body = json.dumps(req).encode()
                sa, da, ta = post(port_a, path, body)
                sb, db, tb = post(port_b, path, body)
                spent_a += ta
                spent_b += tb
                statuses[sb] = statuses.get(sb, 0) + 1
                if (sa, da) != (sb, db):
                    differ += 1
                    print(f"differ #{i} {path} {body.decode()}")
            print(f"{count} questions, {differ} differ; statuses "
                  f"{dict(sorted(statuses.items()))}; seconds answering: "
                  f"old {spent_a:.1f}, new {spent_b:.1f}")
            return 1 if differ else 0
        finally:
            a.kill()
            b.kill()


if __name__ == "__main__":
    sys.exit(main())
