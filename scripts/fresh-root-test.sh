#!/usr/bin/env bash
# fresh-root-test.sh - the README's two commands on a fresh Debian 12, proven.
#
#   sudo scripts/fresh-root-test.sh [REPO_ROOT]
#
# Bootstraps a Debian 12 (bookworm) minbase root (debootstrap, cached as a tarball shared with
# tests/docker/smoke.sh), clones the repository under test into it at its HEAD commit (no build
# outputs, no node_modules: what a newcomer has after `git clone`), and inside it, as root:
#   1. runs `scripts/serve.sh`, waits for /healthz on 127.0.0.1, checks GET /v1/models lists the
#      seeded catalog, and stops the server with SIGTERM (it must exit 0);
#   2. runs `scripts/test.sh` (GPUSIZER_SKIP_DOCKER=1: no Docker smoke test inside;
#      GPUSIZER_IN_FRESH_ROOT=1: the test command inside does not start this stage again).
# Nothing else is installed into the root: every package and npm module the two commands need
# must be installed by them. The root only gets the host's network configuration (apt sources
# and Acquire settings, resolv.conf/hosts, npm's registry/proxy/CA settings, proxy variables),
# read from the host at run time, and a policy-rc.d so package scripts start no daemons.
# Every mount is unmounted and every process started in the root is stopped (by PID) on exit,
# even on failure. The last line is "fresh root: 1 passed, 0 failed" (or 0 passed, 1 failed).
#
# Environment:
#   GPUSIZER_CACHE                 cache dir (default $HOME/.cache/gpusizer): the bookworm
#                                  minbase tarball (as smoke.sh), and fresh-root/ with downloaded
#                                  .deb files and npm's cache so that a second run downloads less
#   GPUSIZER_REFRESH_BASE=1        debootstrap again even if the cached tarball exists
#   GPUSIZER_FRESH_ROOT_NO_CACHE=1 do not reuse downloaded .deb files or npm's cache
#   GPUSIZER_FRESH_ROOT_FUZZ_SECONDS  GPUSIZER_FUZZ_SECONDS inside (default 5)
#   GPUSIZER_FRESH_ROOT_LOAD_SECONDS  GPUSIZER_LOAD_SECONDS inside (default 15: the mixed-load test,
#                                  where GPUSIZER_FRESH_ROOT_CTEST_EXCLUDE lets it run)
#   GPUSIZER_FRESH_ROOT_CTEST_EXCLUDE  GPUSIZER_CTEST_EXCLUDE inside (default
#                                  ^(test_load|test_replicas|test_answers|test_hostile|
#                                  test_catalog_http|test_price_list)$: the tests that need
#                                  nothing of the machine that others there do not prove - the
#                                  load test, the hostile clients, the catalog's and the price
#                                  list's HTTP writers what test_http and test_catalog_write need,
#                                  the replicas PostgreSQL as test_catalog_pg does, the golden
#                                  answers nothing - and that run in full outside the root, with
#                                  their sanitizer and valgrind runs; empty runs every test inside)
#   GPUSIZER_FRESH_ROOT_VALGRIND_TESTS  GPUSIZER_VALGRIND_TESTS inside (default test_http: valgrind
#                                  installed and working on a fresh machine; the whole http set
#                                  runs under it once, outside the root)
#   GPUSIZER_FRESH_ROOT_SANITIZER_TESTS  GPUSIZER_SANITIZER_TESTS inside (default test_http: the
#                                  ASan/UBSan and TSan toolchains installed and working; their
#                                  full sets, and clang over the whole tree, run once, outside;
#                                  empty runs them all inside too)
#   GPUSIZER_FRESH_ROOT_TIMEOUT    seconds allowed for the whole stage (default 1200; a run takes
#                                  about 4-5 minutes on 2 cores)
#   GPUSIZER_FRESH_ROOT_PORT       first port to try for the server (default 18180)
#   GPUSIZER_KEEP_TMP=1            keep the temporary directory (root and logs) after the run
#   GPUSIZER_IN_FRESH_ROOT=1       set inside the root; this script then skips (no recursion)
set -euo pipefail

T0=$SECONDS
passed=0
W=""
R=""
BGPID=""
SPID=""
CUR_LOG=""

log() { printf '[fresh-root %4ds] %s\n' "$((SECONDS - T0))" "$*"; }
ok() { printf 'ok - %s\n' "$*"; }
die() {
    printf 'not ok - %s\n' "$*" >&2
    exit 1
}

if [[ ${GPUSIZER_IN_FRESH_ROOT:-0} == 1 ]]; then
    echo "fresh-root-test.sh: skipped: already inside a fresh root (GPUSIZER_IN_FRESH_ROOT=1)" >&2
    echo "fresh root: skipped"
    exit 0
fi
if [[ $EUID -ne 0 ]]; then
    echo "fresh-root-test.sh: skipped: needs root (debootstrap, chroot and mounts); try: sudo $0" >&2
    echo "fresh root: skipped"
    exit 0
fi

# stop_pid PID SECONDS: SIGTERM, then SIGKILL after SECONDS.
stop_pid() {
    local pid=$1 i
    kill -0 "$pid" 2>/dev/null || return 0
    kill -TERM "$pid" 2>/dev/null
    for ((i = 0; i < $2 * 4; i++)); do
        kill -0 "$pid" 2>/dev/null || return 0
        sleep 0.25
    done
    kill -KILL "$pid" 2>/dev/null
}

# Processes whose root directory is the fresh root (or below it) were started by this script.
kill_root_procs() {
    local p r
    [[ -n $R ]] || return 0
    for p in /proc/[0-9]*; do
        r=$(readlink "$p/root" 2>/dev/null) || continue
        [[ $r == "$R" || $r == "$R"/* ]] && kill -KILL "${p#/proc/}" 2>/dev/null
    done
    return 0
}

mounts_below() { awk -v w="$1" 'index($2, w "/") == 1 { print $2 }' /proc/self/mounts | sort -r; }

finish() {
    local rc=$? i m
    set +e
    trap - EXIT INT TERM
    [[ -z $SPID ]] || stop_pid "$SPID" 10
    [[ -z $BGPID ]] || stop_pid "$BGPID" 10
    [[ -z $SPID ]] || wait "$SPID" 2>/dev/null
    [[ -z $BGPID ]] || wait "$BGPID" 2>/dev/null
    if [[ $rc -ne 0 && -n $CUR_LOG && -f $CUR_LOG ]]; then
        echo "--- ${CUR_LOG##*/} (last 60 lines) ---" >&2
        tail -n 60 "$CUR_LOG" >&2
    fi
    if [[ -n $W && -d $W ]]; then
        for ((i = 0; i < 3; i++)); do
            kill_root_procs
            sleep 0.5
        done
        for ((i = 0; i < 3; i++)); do
            while read -r m; do
                umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null
            done < <(mounts_below "$W")
            [[ -z $(mounts_below "$W") ]] && break
            sleep 1
        done
        if [[ -n $(mounts_below "$W") ]]; then
            echo "still mounted below $W (not removing it):" >&2
            mounts_below "$W" >&2
        elif [[ ${GPUSIZER_KEEP_TMP:-0} == 1 ]]; then
            echo "kept $W" >&2
        else
            for ((i = 0; i < 5; i++)); do
                rm -rf --one-file-system "$W" 2>/dev/null && break
                sleep 1
            done
            [[ ! -e $W ]] || echo "could not remove $W completely" >&2
        fi
    fi
    log "done in $((SECONDS - T0)) s"
    if [[ $rc -eq 0 && $passed -eq 1 ]]; then
        echo "fresh root: 1 passed, 0 failed"
    else
        echo "fresh root: 0 passed, 1 failed"
        [[ $rc -ne 0 ]] || rc=1
    fi
    exit "$rc"
}
trap finish EXIT
trap 'echo "fresh-root-test.sh: interrupted (SIGINT)" >&2; exit 130' INT
trap 'echo "fresh-root-test.sh: terminated (SIGTERM)" >&2; exit 143' TERM

# run_bg LOGFILE CMD...: in the background (so that INT/TERM reach the trap at once), output to
# LOGFILE.
run_bg() {
    local rc=0
    CUR_LOG=$1
    shift
    "$@" >"$CUR_LOG" 2>&1 &
    BGPID=$!
    wait "$BGPID" || rc=$?
    BGPID=""
    return "$rc"
}

ROOT=${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
ROOT=$(cd "$ROOT" && pwd)
[[ -f $ROOT/CMakeLists.txt && -x $ROOT/scripts/serve.sh && -x $ROOT/scripts/test.sh ]] ||
    die "$ROOT is not the gpusizer repository root (needs CMakeLists.txt, scripts/serve.sh, scripts/test.sh)"
DEADLINE=$((SECONDS + ${GPUSIZER_FRESH_ROOT_TIMEOUT:-1200}))

missing=()
command -v debootstrap >/dev/null 2>&1 || missing+=(debootstrap)
command -v git >/dev/null 2>&1 || missing+=(git)
command -v jq >/dev/null 2>&1 || missing+=(jq)
command -v curl >/dev/null 2>&1 || missing+=(curl)
if ((${#missing[@]})); then
    log "installing on the host: ${missing[*]}"
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
        --no-install-recommends "${missing[@]}" >/dev/null; } || die "apt-get install ${missing[*]} failed"
fi

COMMIT=$(git -C "$ROOT" rev-parse --verify HEAD) || die "$ROOT: no commit checked out"
if [[ -n $(git -C "$ROOT" status --porcelain --untracked-files=no 2>/dev/null) ]]; then
    log "note: uncommitted changes in $ROOT are not tested; the root gets commit $COMMIT"
fi

CACHE=${GPUSIZER_CACHE:-$HOME/.cache/gpusizer}
BASE_TAR=$CACHE/bookworm-minbase.tar
mkdir -p "$CACHE"
W=$(mktemp -d /tmp/gpusizer-fresh-root.XXXXXX)
R=$W/root
mkdir -p "$R"

# ---------------------------------------------------------------------------
# the root: debootstrap minbase bookworm (cached tarball, the same one smoke.sh builds)
# ---------------------------------------------------------------------------
if [[ ${GPUSIZER_REFRESH_BASE:-0} == 1 || ! -s $BASE_TAR ]]; then
    log "debootstrap --variant=minbase bookworm (cache: $BASE_TAR)"
    run_bg "$W/debootstrap.log" debootstrap --variant=minbase bookworm "$W/bootstrap" ||
        die "debootstrap failed"
    # As tests/docker/smoke.sh: no downloaded .debs, package lists or docs in the tarball.
    tar -C "$W/bootstrap" --exclude='./var/cache/apt/archives/*.deb' --exclude='./var/lib/apt/lists/*' \
        --exclude='./usr/share/doc/*' --exclude='./usr/share/man/*' --exclude='./usr/share/locale/*' \
        -cf "$BASE_TAR.tmp.$$" .
    mv -f "$BASE_TAR.tmp.$$" "$BASE_TAR"
    rm -rf --one-file-system "$W/bootstrap"
else
    log "using cached base root $BASE_TAR"
fi
tar -C "$R" -xf "$BASE_TAR" || die "cannot unpack $BASE_TAR"
[[ -x $R/bin/bash && -x $R/usr/bin/apt-get ]] || die "$BASE_TAR is not a Debian root"
grep -q '^VERSION_CODENAME=bookworm$' "$R/etc/os-release" || die "$BASE_TAR is not Debian 12 (bookworm)"
ok "Debian 12 minbase root in $R"

# ---------------------------------------------------------------------------
# the host's network configuration, read at run time
# ---------------------------------------------------------------------------
# apt: the host's sources (its mirror) and Acquire settings (proxies, validity checks).
shopt -s nullglob
if [[ -s /etc/apt/sources.list || -n $(echo /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources) ]]; then
    rm -f "$R/etc/apt/sources.list" "$R"/etc/apt/sources.list.d/*
    [[ ! -s /etc/apt/sources.list ]] || cp /etc/apt/sources.list "$R/etc/apt/sources.list"
    for f in /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
        cp "$f" "$R/etc/apt/sources.list.d/"
    done
    # Keyrings the sources name that the root does not have yet.
    while read -r k; do
        [[ -e $R$k || ! -f $k ]] || install -D -m 0644 "$k" "$R$k"
    done < <(cat "$R/etc/apt/sources.list" "$R"/etc/apt/sources.list.d/* 2>/dev/null |
        grep -oE '(Signed-By:[[:space:]]*|signed-by=)/[^] ,]+' | sed -E 's/^(Signed-By:[[:space:]]*|signed-by=)//' | sort -u)
fi
for f in /etc/apt/apt.conf /etc/apt/apt.conf.d/*; do
    [[ -f $f ]] && grep -qi 'Acquire' "$f" && install -D -m 0644 "$f" "$R$f"
done
shopt -u nullglob
cp -L /etc/resolv.conf "$R/etc/resolv.conf"
cp -L /etc/hosts "$R/etc/hosts"

# npm: the registry, proxy and CA settings npm uses on the host (never credentials).
mkdir -p "$R/etc/gpusizer-fresh-root"
npmrc=$R/root/.npmrc
: >"$npmrc"
chmod 0600 "$npmrc"
carry_env=()
for v in http_proxy https_proxy no_proxy all_proxy HTTP_PROXY HTTPS_PROXY NO_PROXY ALL_PROXY; do
    [[ -z ${!v:-} ]] || carry_env+=("$v=${!v}")
done
while IFS='=' read -r v _; do
    [[ ${v,,} =~ auth|token|pass|cert|key ]] && continue
    carry_env+=("$v=${!v}")
done < <(env | grep -E '^npm_config_[A-Za-z0-9_-]+=' || true)
if [[ -n ${NODE_EXTRA_CA_CERTS:-} && -f ${NODE_EXTRA_CA_CERTS} ]]; then
    cp -L "$NODE_EXTRA_CA_CERTS" "$R/etc/gpusizer-fresh-root/node-extra-ca.pem"
    carry_env+=(NODE_EXTRA_CA_CERTS=/etc/gpusizer-fresh-root/node-extra-ca.pem)
fi
if command -v npm >/dev/null 2>&1 && npm_json=$(cd / && npm config list --json 2>/dev/null); then
    while IFS=$'\t' read -r key val; do
        case $key in
        cafile)
            [[ -f $val ]] || continue
            cp -L "$val" "$R/etc/gpusizer-fresh-root/npm-cafile.pem"
            val=/etc/gpusizer-fresh-root/npm-cafile.pem
            ;;
        esac
        printf '%s=%s\n' "$key" "$val" >>"$npmrc"
    done < <(jq -r 'to_entries[]
        | select(.key | test("^(registry|@[^:]+:registry|cafile|ca|proxy|https-proxy|noproxy|strict-ssl|replace-registry-host)$"))
        | select(.value != null and .value != "" and .value != [""] and .value != [])
        | [.key, (if (.value | type) == "array" then (.value | join(",")) else (.value | tostring) end)] | @tsv' \
        <<<"$npm_json")
fi
ok "host network configuration carried into the root: apt sources, resolv.conf, hosts, npm ($(grep -c . "$npmrc" || true) settings), ${#carry_env[@]} environment variables"

# Chroot-only settings, not install steps: package scripts must not start daemons in the root
# (there is no init; a daemon would outlive the stage), and dpkg need not fsync every file of a
# root that is thrown away.
printf '#!/bin/sh\nexit 101\n' >"$R/usr/sbin/policy-rc.d"
chmod 0755 "$R/usr/sbin/policy-rc.d"
echo force-unsafe-io >"$R/etc/dpkg/dpkg.cfg.d/gpusizer-fresh-root-unsafe-io"

# ---------------------------------------------------------------------------
# the newcomer's clone: the commit under test, nothing else
# ---------------------------------------------------------------------------
git clone -q --no-hardlinks --no-checkout "$ROOT" "$R/root/gpusizer" || die "git clone failed"
git -C "$R/root/gpusizer" -c advice.detachedHead=false checkout -q --detach "$COMMIT" ||
    die "git checkout $COMMIT failed"
ok "cloned $ROOT at $COMMIT into /root/gpusizer"

# ---------------------------------------------------------------------------
# mounts
# ---------------------------------------------------------------------------
mount -t proc proc "$R/proc"
mount -t sysfs sysfs "$R/sys"
mount --bind /dev "$R/dev"
mount --bind /dev/pts "$R/dev/pts"
mount -t tmpfs -o mode=1777,size=2g shm "$R/dev/shm" # Chromium's shared memory
use_cache=0
if [[ ${GPUSIZER_FRESH_ROOT_NO_CACHE:-0} != 1 ]]; then
    mkdir -p "$CACHE/fresh-root/apt-archives/partial" "$CACHE/fresh-root/npm"
    exec {lockfd}>"$CACHE/fresh-root/lock"
    if flock -n "$lockfd"; then
        mkdir -p "$R/var/cache/apt/archives" "$R/root/.npm"
        mount --bind "$CACHE/fresh-root/apt-archives" "$R/var/cache/apt/archives"
        mount --bind "$CACHE/fresh-root/npm" "$R/root/.npm"
        use_cache=1
    else
        log "another fresh-root run holds $CACHE/fresh-root; downloading without the cache"
    fi
fi
ok "mounted /proc, /sys, /dev, /dev/pts, /dev/shm$( ((use_cache)) && echo ', download caches')"

# "${IN_ROOT[@]}" [VAR=VALUE...] chroot "$R" CMD...: a newcomer's root login environment, plus the
# host's network settings.
IN_ROOT=(env -i HOME=/root USER=root LOGNAME=root SHELL=/bin/bash LANG=C.UTF-8 TERM=dumb
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin "${carry_env[@]}")
remaining() { echo $((DEADLINE - SECONDS)); }

# ---------------------------------------------------------------------------
# 1. scripts/serve.sh
# ---------------------------------------------------------------------------
port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
PORT=${GPUSIZER_FRESH_ROOT_PORT:-18180}
for ((i = 0; i < 50; i++)); do
    port_in_use "$PORT" || break
    PORT=$((PORT + 1))
done
port_in_use "$PORT" && die "no free port found from ${GPUSIZER_FRESH_ROOT_PORT:-18180}"

log "1/2 scripts/serve.sh (PORT=$PORT; log: $W/serve.log)"
t1=$SECONDS
CUR_LOG=$W/serve.log
# env, chroot, bash and serve.sh each exec the next: $SPID ends up being the server itself.
"${IN_ROOT[@]}" PORT="$PORT" chroot "$R" /bin/bash -c 'cd /root/gpusizer && exec scripts/serve.sh' \
    >"$CUR_LOG" 2>&1 &
SPID=$!
BASE_URL=http://127.0.0.1:$PORT
CURL=(curl -sS --noproxy '*' --max-time 5)
while ! "${CURL[@]}" -o /dev/null "$BASE_URL/healthz" 2>/dev/null; do
    if ! kill -0 "$SPID" 2>/dev/null; then
        wait "$SPID" && rc=0 || rc=$?
        SPID=""
        die "scripts/serve.sh exited with status $rc before answering on $BASE_URL/healthz"
    fi
    (($(remaining) > 0)) || die "scripts/serve.sh: no answer on $BASE_URL/healthz within the stage's time limit"
    sleep 1
done
health=$("${CURL[@]}" "$BASE_URL/healthz") || die "GET /healthz failed"
jq -e '.status == "ok"' >/dev/null <<<"$health" || die "GET /healthz: $health"
ok "scripts/serve.sh: /healthz answers on 127.0.0.1:$PORT after $((SECONDS - t1)) s"
models=$("${CURL[@]}" -w '\n%{http_code}' "$BASE_URL/v1/models") || die "GET /v1/models failed"
status=${models##*$'\n'}
models=${models%$'\n'*}
[[ $status == 200 ]] || die "GET /v1/models: status $status: ${models:0:400}"
jq -e '(.items | length) > 0 and .total == (.items | length) and all(.items[]; (.id | type) == "string")' \
    >/dev/null <<<"$models" || die "GET /v1/models lists no models: ${models:0:400}"
ok "GET /v1/models lists $(jq '.items | length' <<<"$models") models from the seeded ./gpusizer.db"
kill -TERM "$SPID"
for ((i = 0; i < 60; i++)); do
    kill -0 "$SPID" 2>/dev/null || break
    sleep 0.25
done
kill -0 "$SPID" 2>/dev/null && die "the server did not stop within 15 s of SIGTERM"
wait "$SPID" && rc=0 || rc=$?
SPID=""
[[ $rc -eq 0 ]] || die "the server exited with status $rc on SIGTERM, expected 0"
ok "server stopped cleanly on SIGTERM ($((SECONDS - t1)) s for step 1)"

# ---------------------------------------------------------------------------
# 2. scripts/test.sh
# ---------------------------------------------------------------------------
left=$(remaining)
((left > 60)) || die "no time left for scripts/test.sh (GPUSIZER_FRESH_ROOT_TIMEOUT)"
CTEST_EXCLUDE=${GPUSIZER_FRESH_ROOT_CTEST_EXCLUDE-'^(test_load|test_replicas|test_answers|test_hostile|test_catalog_http|test_price_list)$'}
log "2/2 scripts/test.sh (GPUSIZER_CTEST_EXCLUDE=$CTEST_EXCLUDE, GPUSIZER_SKIP_DOCKER=1, GPUSIZER_FUZZ_SECONDS=${GPUSIZER_FRESH_ROOT_FUZZ_SECONDS:-5}, GPUSIZER_VALGRIND_TESTS=${GPUSIZER_FRESH_ROOT_VALGRIND_TESTS-test_http}, GPUSIZER_SANITIZER_TESTS=${GPUSIZER_FRESH_ROOT_SANITIZER_TESTS-test_http}; log: $W/test.log; limit ${left} s)"
t2=$SECONDS
# timeout signals its whole process group: the test command and everything it started.
rc=0
run_bg "$W/test.log" timeout -k 20 "$left" "${IN_ROOT[@]}" GPUSIZER_SKIP_DOCKER=1 GPUSIZER_IN_FRESH_ROOT=1 \
    GPUSIZER_FUZZ_SECONDS="${GPUSIZER_FRESH_ROOT_FUZZ_SECONDS:-5}" \
    GPUSIZER_LOAD_SECONDS="${GPUSIZER_FRESH_ROOT_LOAD_SECONDS:-15}" \
    GPUSIZER_VALGRIND_TESTS="${GPUSIZER_FRESH_ROOT_VALGRIND_TESTS-test_http}" \
    GPUSIZER_SANITIZER_TESTS="${GPUSIZER_FRESH_ROOT_SANITIZER_TESTS-test_http}" \
    GPUSIZER_CTEST_EXCLUDE="$CTEST_EXCLUDE" \
    chroot "$R" /bin/bash -c 'cd /root/gpusizer && exec scripts/test.sh' || rc=$?
((rc != 124 && rc != 137)) || die "scripts/test.sh did not finish within the stage's time limit"
((rc == 0)) || die "scripts/test.sh exited with status $rc"
grep -E '^test\.sh: \[|tests passed|tests failed' "$W/test.log" | sed 's/^/    /'
ok "scripts/test.sh passed in $((SECONDS - t2)) s"
CUR_LOG=""
# Keep the .deb cache from growing: drop packages the archive no longer has.
((use_cache == 0)) || "${IN_ROOT[@]}" chroot "$R" apt-get -qq autoclean >/dev/null 2>&1 || true
passed=1
