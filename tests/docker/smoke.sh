#!/usr/bin/env bash
# Docker image smoke test for gpusizer.
#
#   sudo bash tests/docker/smoke.sh [REPO_ROOT]
#
# No Docker engine runs on our CI machines and no registry is reachable, so this script
# brings its own: it debootstraps a Debian bookworm minbase rootfs (cached as a tarball),
# starts a private dockerd (no bridge, no iptables, no IP forwarding) on a socket in a
# temporary directory, imports the rootfs as local/bookworm-minbase:latest, builds
# docker/Dockerfile on top of it, runs the image with --network host and checks the service,
# then runs it again on a private PostgreSQL (password authentication, read-only root filesystem).
# Everything it starts is stopped by PID and everything it creates is removed on exit, even
# on failure. The last line is "docker smoke: 1 passed, 0 failed" (or 0 passed, 1 failed).
#
# Environment:
#   GPUSIZER_CACHE           cache dir for the base tarball (default $HOME/.cache/gpusizer)
#   GPUSIZER_REFRESH_BASE=1  debootstrap again even if the cached tarball exists
#   GPUSIZER_SMOKE_PORT      first port to try (default 18099; the next free one is used)
#   GPUSIZER_IMAGE_MAX_MB    fail if the image is larger (default 100)
#   GPUSIZER_KEEP_TMP=1      keep the temporary directory (logs) after the run
set -euo pipefail

readonly BASE_IMAGE=local/bookworm-minbase:latest
readonly IMAGE=gpusizer:smoke
readonly CONTAINER=gpusizer-smoke
readonly CONTAINER_PG=gpusizer-smoke-pg
readonly VOLUME=gpusizer-smoke-data
# The docker.io client: its `build` talks BuildKit to the docker.io daemon without buildx.
readonly DOCKER=/usr/bin/docker

passed=0
W=""
PGW=""
PG_BIN=""
DPID=""
BGPID=""
T0=$SECONDS

log() { printf '[smoke %3ds] %s\n' "$((SECONDS - T0))" "$*"; }
ok() { printf 'ok - %s\n' "$*"; }
die() {
    printf 'not ok - %s\n' "$*" >&2
    exit 1
}

# Long steps run in the background so that INT/TERM reach the trap at once, and the trap can
# cancel them by PID (a cancelled `docker build` client cancels the build in the daemon).
# run_bg LOGFILE CMD...: output goes to LOGFILE (not the caller's redirection, which would
# also swallow what the trap prints).
run_bg() {
    local rc=0 out=$1
    shift
    "$@" >"$out" 2>&1 &
    BGPID=$!
    wait "$BGPID" || rc=$?
    BGPID=""
    return "$rc"
}

finish() {
    local rc=$? i
    set +e
    trap - EXIT INT TERM
    if [[ -n $BGPID ]] && kill -0 "$BGPID" 2>/dev/null; then
        kill -TERM "$BGPID" 2>/dev/null
        for ((i = 0; i < 40; i++)); do
            kill -0 "$BGPID" 2>/dev/null || break
            sleep 0.25
        done
        kill -KILL "$BGPID" 2>/dev/null
        wait "$BGPID" 2>/dev/null
    fi
    if [[ $rc -ne 0 && -n $W && -S $W/docker.sock ]]; then
        if [[ -n $("$DOCKER" ps -aq --filter "name=^${CONTAINER}\$" 2>/dev/null) ]]; then
            echo "--- container logs (last 40 lines) ---" >&2
            "$DOCKER" logs --tail 40 "$CONTAINER" >&2 2>&1
            echo "--- container health log ---" >&2
            "$DOCKER" inspect -f '{{json .State.Health}}' "$CONTAINER" >&2 2>&1
        fi
    fi
    if [[ $rc -ne 0 && -n $W && -f $W/dockerd.log ]]; then
        echo "--- dockerd log (last 15 lines before shutdown) ---" >&2
        tail -n 15 "$W/dockerd.log" >&2
    fi
    if [[ $rc -ne 0 && -n $W && -S $W/docker.sock && -n $("$DOCKER" ps -aq --filter "name=^${CONTAINER_PG}\$" 2>/dev/null) ]]; then
        echo "--- PostgreSQL replica container logs (last 40 lines) ---" >&2
        "$DOCKER" logs --tail 40 "$CONTAINER_PG" >&2 2>&1
    fi
    if [[ -n $DPID ]] && kill -0 "$DPID" 2>/dev/null; then
        "$DOCKER" rm -f "$CONTAINER" "$CONTAINER_PG" >/dev/null 2>&1
        kill -TERM "$DPID" 2>/dev/null
        for ((i = 0; i < 60; i++)); do
            kill -0 "$DPID" 2>/dev/null || break
            sleep 0.25
        done
        if kill -0 "$DPID" 2>/dev/null; then
            echo "dockerd (pid $DPID) ignored SIGTERM for 15 s; sending SIGKILL" >&2
            kill -KILL "$DPID" 2>/dev/null
        fi
        wait "$DPID" 2>/dev/null
    fi
    if [[ -n $PGW && -d $PGW ]]; then
        runuser -u postgres -- "$PG_BIN/pg_ctl" -D "$PGW/data" -m immediate stop >/dev/null 2>&1
        rm -rf "$PGW"
    fi
    if [[ -n $W && -d $W ]]; then
        # dockerd's managed containerd normally exits with it; if dockerd was killed, stop
        # that containerd by the PID it recorded (never by name).
        local cpid
        cpid=$(cat "$W/exec/containerd/containerd.pid" 2>/dev/null || true)
        if [[ $cpid =~ ^[0-9]+$ ]] && kill -0 "$cpid" 2>/dev/null &&
            grep -qa -- "$W" "/proc/$cpid/cmdline" 2>/dev/null; then
            kill -TERM "$cpid" 2>/dev/null
            sleep 1
        fi
        # Leftovers of an interrupted run (build steps, debootstrap's dpkg): processes whose
        # root directory lies below $W were started by this script; stop them by PID.
        local p r
        for p in /proc/[0-9]*; do
            r=$(readlink "$p/root" 2>/dev/null) || continue
            [[ $r == "$W"/* ]] && kill -KILL "${p#/proc/}" 2>/dev/null
        done
        umount "$W/exec/netns/default" 2>/dev/null
        # Anything else still mounted below $W (overlays, shm) goes before rm, deepest first.
        local m
        while read -r m; do
            umount -l "$m" 2>/dev/null
        done < <(awk -v w="$W" 'index($2, w "/") == 1 { print $2 }' /proc/self/mounts | sort -r)
        if [[ ${GPUSIZER_KEEP_TMP:-0} == 1 ]]; then
            echo "kept $W" >&2
        else
            for ((i = 0; i < 5; i++)); do
                rm -rf --one-file-system "$W" 2>/dev/null && break
                sleep 1
            done
            [[ ! -e $W ]] || echo "could not remove $W completely" >&2
        fi
    fi
    if [[ $rc -eq 0 && $passed -eq 1 ]]; then
        echo "docker smoke: 1 passed, 0 failed"
    else
        echo "docker smoke: 0 passed, 1 failed"
        [[ $rc -ne 0 ]] || rc=1
    fi
    exit "$rc"
}
trap finish EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# ---------------------------------------------------------------------------
# preconditions
# ---------------------------------------------------------------------------
if [[ $EUID -ne 0 ]]; then
    echo "smoke.sh: must run as root (it starts a private dockerd and runs debootstrap); try: sudo bash $0" >&2
    exit 1
fi

ROOT=${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
ROOT=$(cd "$ROOT" && pwd)
[[ -f $ROOT/CMakeLists.txt && -f $ROOT/docker/Dockerfile ]] ||
    die "$ROOT is not the gpusizer repository root (needs CMakeLists.txt and docker/Dockerfile)"
cd "$ROOT"

missing=()
[[ -x $DOCKER && -x /usr/sbin/dockerd ]] || missing+=(docker.io)
command -v debootstrap >/dev/null 2>&1 || missing+=(debootstrap)
command -v jq >/dev/null 2>&1 || missing+=(jq)
command -v curl >/dev/null 2>&1 || missing+=(curl)
if ((${#missing[@]})); then
    log "installing ${missing[*]}"
    # Keep package scripts from starting a system dockerd/containerd with default flags
    # (bridge, iptables rules, IP forwarding): only the private daemon below may run.
    policy_added=0
    if [[ ! -e /usr/sbin/policy-rc.d ]]; then
        printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d
        chmod 0755 /usr/sbin/policy-rc.d
        policy_added=1
    fi
    install_rc=0
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
        --no-install-recommends "${missing[@]}" >/dev/null; } || install_rc=$?
    ((policy_added == 0)) || rm -f /usr/sbin/policy-rc.d
    ((install_rc == 0)) || die "apt-get install ${missing[*]} failed"
fi

CACHE=${GPUSIZER_CACHE:-$HOME/.cache/gpusizer}
BASE_TAR=$CACHE/bookworm-minbase.tar
mkdir -p "$CACHE"

W=$(mktemp -d /tmp/gpusizer-docker.XXXXXX)
export DOCKER_HOST=unix://$W/docker.sock DOCKER_BUILDKIT=1
# A private client config: no credential helpers or proxies from ~/.docker.
export DOCKER_CONFIG=$W/client
mkdir -p "$DOCKER_CONFIG"

# ---------------------------------------------------------------------------
# base image rootfs (cached)
# ---------------------------------------------------------------------------
if [[ ${GPUSIZER_REFRESH_BASE:-0} == 1 || ! -s $BASE_TAR ]]; then
    log "debootstrap --variant=minbase bookworm (cache: $BASE_TAR)"
    run_bg "$W/debootstrap.log" debootstrap --variant=minbase bookworm "$W/rootfs" || {
        tail -n 20 "$W/debootstrap.log" >&2
        die "debootstrap failed"
    }
    tar -C "$W/rootfs" --exclude='./var/cache/apt/archives/*.deb' --exclude='./var/lib/apt/lists/*' \
        --exclude='./usr/share/doc/*' --exclude='./usr/share/man/*' --exclude='./usr/share/locale/*' \
        -cf "$BASE_TAR.tmp.$$" .
    mv -f "$BASE_TAR.tmp.$$" "$BASE_TAR"
    rm -rf --one-file-system "$W/rootfs"
else
    log "using cached base rootfs $BASE_TAR"
fi

# ---------------------------------------------------------------------------
# private dockerd
# ---------------------------------------------------------------------------
log "starting private dockerd in $W"
dockerd --data-root "$W/data" --exec-root "$W/exec" --pidfile "$W/dockerd.pid" -H "$DOCKER_HOST" \
    --bridge=none --iptables=false --ip-forward=false --ip-masq=false >"$W/dockerd.log" 2>&1 &
DPID=$!
for ((i = 0; ; i++)); do
    "$DOCKER" info >/dev/null 2>&1 && break
    kill -0 "$DPID" 2>/dev/null || die "dockerd exited during start-up"
    ((i < 240)) || die "dockerd did not answer within 60 s"
    sleep 0.25
done
ok "private dockerd up (pid $DPID)"

"$DOCKER" import - "$BASE_IMAGE" <"$BASE_TAR" >/dev/null || die "docker import of the base rootfs failed"
ok "imported $BASE_IMAGE"

# ---------------------------------------------------------------------------
# build
# ---------------------------------------------------------------------------
log "building $IMAGE (log: $W/build.log)"
t_build=$SECONDS
if ! run_bg "$W/build.log" "$DOCKER" build --progress=plain --network host \
    --build-arg BASE="$BASE_IMAGE" \
    --build-arg REVISION="$(git -C "$ROOT" rev-parse -q --verify --short HEAD 2>/dev/null || echo unknown)" \
    -f docker/Dockerfile -t "$IMAGE" .; then
    tail -n 40 "$W/build.log" >&2
    die "docker build failed"
fi
ok "docker build in $((SECONDS - t_build)) s"

# ---------------------------------------------------------------------------
# run
# ---------------------------------------------------------------------------
port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
PORT=${GPUSIZER_SMOKE_PORT:-18099}
for ((i = 0; i < 50; i++)); do
    port_in_use "$PORT" || break
    PORT=$((PORT + 1))
done
port_in_use "$PORT" && die "no free port found from ${GPUSIZER_SMOKE_PORT:-18099}"

"$DOCKER" volume create "$VOLUME" >/dev/null
"$DOCKER" run -d --name "$CONTAINER" --network host -e PORT="$PORT" \
    -v "$VOLUME:/var/lib/gpusizer" "$IMAGE" >/dev/null || die "docker run failed"
BASE_URL=http://127.0.0.1:$PORT
log "container $CONTAINER started, waiting for $BASE_URL/healthz"

CURL=(curl -sS --noproxy '*' --max-time 5)
for ((i = 0; ; i++)); do
    "${CURL[@]}" -o /dev/null "$BASE_URL/healthz" 2>/dev/null && break
    [[ $("$DOCKER" inspect -f '{{.State.Running}}' "$CONTAINER") == true ]] ||
        die "container exited before answering (exit code $("$DOCKER" inspect -f '{{.State.ExitCode}}' "$CONTAINER"))"
    ((i < 120)) || die "no answer on $BASE_URL/healthz within 30 s"
    sleep 0.25
done
ok "service answers on port $PORT"

# request METHOD PATH [BODY] -> sets $status and $body
request() {
    local out
    if [[ $# -ge 3 ]]; then
        out=$("${CURL[@]}" -X "$1" -H 'Content-Type: application/json' --data-binary "$3" \
            -w '\n%{http_code}' "$BASE_URL$2") || die "$1 $2: curl failed"
    else
        out=$("${CURL[@]}" -X "$1" -w '\n%{http_code}' "$BASE_URL$2") || die "$1 $2: curl failed"
    fi
    status=${out##*$'\n'}
    body=${out%$'\n'*}
}
# expect DESCRIPTION JQ_FILTER: the filter must be true on $body
expect() {
    jq -e "$2" >/dev/null 2>&1 <<<"$body" || die "$1: $2 is not true; status $status, body: ${body:0:600}"
    ok "$1"
}

request GET /healthz
[[ $status == 200 ]] || die "GET /healthz: status $status"
expect 'GET /healthz is {"status":"ok"}' '. == {"status":"ok"}'

request GET /readyz
[[ $status == 200 ]] || die "GET /readyz: status $status, body: $body"
expect 'GET /readyz: catalog seeded in the volume' '.status == "ready" and .models >= 3 and .gpus >= 4'

request POST /v1/estimate '{"model":{"parameters":7000000000},"mode":"training","precision":{"weights":"fp32"}}'
[[ $status == 200 ]] || die "POST /v1/estimate (7e9 fp32 training): status $status, body: ${body:0:600}"
expect 'estimate 7e9 params fp32 training: weights 28e9, gradients 28e9, optimizer 56e9' \
    '.per_gpu.weights_bytes == 28000000000 and .per_gpu.gradients_bytes == 28000000000
     and .per_gpu.optimizer_bytes == 56000000000'

request POST /v1/estimate '{"model":"llama-3.1-8b","gpu":"h100-sxm-80gb"}'
[[ $status == 200 ]] || die "POST /v1/estimate (llama-3.1-8b on h100): status $status, body: ${body:0:600}"
expect 'estimate llama-3.1-8b on h100-sxm-80gb: 8030261248 parameters, fits' \
    '.model.parameters == 8030261248 and .fit.gpu == "h100-sxm-80gb" and .fit.fits == true'

# ---------------------------------------------------------------------------
# image and container properties
# ---------------------------------------------------------------------------
user=$("$DOCKER" image inspect -f '{{.Config.User}}' "$IMAGE")
[[ -n $user && ${user%%:*} != root && ${user%%:*} != 0 ]] || die "image user is '${user:-<empty>}', not a non-root user"
cpid=$("$DOCKER" inspect -f '{{.State.Pid}}' "$CONTAINER")
uid=$(awk '/^Uid:/ { print $2 }' "/proc/$cpid/status")
[[ $uid != 0 ]] || die "the server process runs as uid 0"
ok "runs as non-root (image user $user, process uid $uid)"

hc=$("$DOCKER" image inspect -f '{{if .Config.Healthcheck}}{{json .Config.Healthcheck.Test}}{{end}}' "$IMAGE")
[[ -n $hc && $hc != null ]] || die "image has no HEALTHCHECK"
ok "image has a HEALTHCHECK"

"$DOCKER" exec "$CONTAINER" test -s /var/lib/gpusizer/gpusizer.db ||
    die "no catalog at /var/lib/gpusizer/gpusizer.db in the container"
ok "catalog written to the /var/lib/gpusizer volume"

log "waiting for docker to report the container healthy"
for ((i = 0; ; i++)); do
    health=$("$DOCKER" inspect -f '{{.State.Health.Status}}' "$CONTAINER")
    [[ $health == healthy ]] && break
    [[ $health != unhealthy ]] || die "container health: unhealthy"
    ((i < 120)) || die "container health still '$health' after 60 s"
    sleep 0.5
done
ok "container health: healthy"

size=$("$DOCKER" image inspect -f '{{.Size}}' "$IMAGE")
size_mb=$(((size + 500000) / 1000000))
max_mb=${GPUSIZER_IMAGE_MAX_MB:-100}
((size_mb <= max_mb)) || die "image is $size_mb MB, over the $max_mb MB budget"
ok "image size $size_mb MB ($size bytes; budget $max_mb MB)"

"$DOCKER" stop -t 10 "$CONTAINER" >/dev/null
code=$("$DOCKER" inspect -f '{{.State.ExitCode}}' "$CONTAINER")
[[ $code == 0 ]] || die "server exited with $code on SIGTERM (docker stop), expected 0"
ok "docker stop: clean exit on SIGTERM"

# ---------------------------------------------------------------------------
# the image as a replica of a shared PostgreSQL catalog (issue 16), as the Kubernetes manifests
# run it: read-only root filesystem, the database password from a file, a write that outlives
# the container
# ---------------------------------------------------------------------------
PG_BIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
[[ -n $PG_BIN && -x $PG_BIN/pg_ctl ]] ||
    die "no PostgreSQL server binaries (scripts/deps.sh test installs postgresql)"
PGW=$(mktemp -d /tmp/gpusizer-smoke-pg.XXXXXX)
chmod 0755 "$PGW"
chown postgres "$PGW"
readonly DB_PASSWORD=smoke-db-secret
printf '%s\n' "$DB_PASSWORD" >"$PGW/db-password"
chmod 0644 "$PGW/db-password"
PGPORT=15432
while port_in_use "$PGPORT"; do PGPORT=$((PGPORT + 1)); done
run_bg "$PGW/initdb.log" runuser -u postgres -- "$PG_BIN/initdb" -D "$PGW/data" -U postgres \
    -A scram-sha-256 --pwfile="$PGW/db-password" -E UTF8 ||
    die "initdb failed: $(tail -n 5 "$PGW/initdb.log")"
run_bg "$PGW/start.log" runuser -u postgres -- "$PG_BIN/pg_ctl" -D "$PGW/data" -l "$PGW/server.log" \
    -o "-p $PGPORT -k $PGW -c listen_addresses=127.0.0.1 -c fsync=off" -w start ||
    die "PostgreSQL did not start: $(tail -n 5 "$PGW/server.log")"
ok "PostgreSQL on 127.0.0.1:$PGPORT with password authentication"

PG_URL=postgresql://postgres@127.0.0.1:$PGPORT/postgres
run_pg_replica() {
    "$DOCKER" run -d --name "$CONTAINER_PG" --network host --read-only --tmpfs /tmp \
        -e PORT="$PORT" -e GPUSIZER_DATABASE_URL="$PG_URL" \
        -e GPUSIZER_DATABASE_PASSWORD_FILE=/run/secrets/db-password -e GPUSIZER_API_KEY=smoke-key \
        -v "$PGW/db-password:/run/secrets/db-password:ro" "$IMAGE" >/dev/null ||
        die "docker run (PostgreSQL replica) failed"
    for ((i = 0; ; i++)); do
        "${CURL[@]}" -o /dev/null "$BASE_URL/healthz" 2>/dev/null && break
        [[ $("$DOCKER" inspect -f '{{.State.Running}}' "$CONTAINER_PG") == true ]] ||
            die "the PostgreSQL replica exited before answering"
        ((i < 120)) || die "no answer from the PostgreSQL replica within 30 s"
        sleep 0.25
    done
}
run_pg_replica
request GET /readyz
[[ $status == 200 ]] || die "GET /readyz (PostgreSQL): status $status, body: $body"
expect 'PostgreSQL replica: migrated and seeded the database, reachable' \
    '.catalog.backend == "postgresql" and .catalog.reachable == true and .models >= 3 and .gpus >= 4'
out=$("${CURL[@]}" -X PATCH -H 'Authorization: Bearer smoke-key' \
    -H 'Content-Type: application/merge-patch+json' \
    --data-binary '{"price_per_hour": 1.23, "price_source": "docker smoke"}' \
    -w '\n%{http_code}' "$BASE_URL/v1/gpus/l4") || die "PATCH /v1/gpus/l4: curl failed"
[[ ${out##*$'\n'} == 200 ]] || die "PATCH /v1/gpus/l4 on the PostgreSQL replica: ${out:0:600}"
ok "a price written through the read-only container"
"$DOCKER" rm -f "$CONTAINER_PG" >/dev/null
run_pg_replica
request GET /v1/gpus/l4
expect 'a new container serves the price from PostgreSQL' '.price_per_hour == 1.23'
if "$DOCKER" logs "$CONTAINER_PG" 2>&1 | grep -qF -- "$DB_PASSWORD"; then
    die "the database password appears in the container's log"
fi
ok "the database password is not in the log"
"$DOCKER" stop -t 10 "$CONTAINER_PG" >/dev/null
code=$("$DOCKER" inspect -f '{{.State.ExitCode}}' "$CONTAINER_PG")
[[ $code == 0 ]] || die "the PostgreSQL replica exited with $code on SIGTERM, expected 0"
ok "PostgreSQL replica: clean exit on SIGTERM"

log "done in $((SECONDS - T0)) s"
passed=1
