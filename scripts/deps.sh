#!/usr/bin/env bash
# deps.sh - install the Debian packages a task needs, only those missing.
#
#   scripts/deps.sh build    compiler, CMake and the libraries
#   scripts/deps.sh test     build + cmocka, Node.js/npm, Chromium
#
# Docker and debootstrap are installed by tests/docker/smoke.sh itself, which
# keeps the package scripts from starting a system dockerd with default
# (bridge, iptables) settings.
# Needs root to install; without root it only reports what is missing.
set -euo pipefail

build_pkgs=(build-essential cmake pkg-config libmicrohttpd-dev libjansson-dev libsqlite3-dev
            libcurl4-openssl-dev zlib1g-dev libpq-dev)
# clang + libFuzzer: tests/fuzz; postgresql: the server tests start privately (tests/support/pg_server.c)
test_pkgs=(libcmocka-dev chromium jq curl clang libclang-rt-14-dev valgrind postgresql)

want=("${build_pkgs[@]}")
if [[ "${1:-build}" == "test" ]]; then
    want+=("${test_pkgs[@]}")
    command -v node >/dev/null 2>&1 || want+=(nodejs)
    command -v npm >/dev/null 2>&1 || want+=(npm)
fi

missing=()
for pkg in "${want[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$pkg")
    fi
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

if [[ $(id -u) -ne 0 ]]; then
    echo "deps.sh: missing Debian packages: ${missing[*]}" >&2
    echo "deps.sh: run as root to install them, or: sudo apt-get install ${missing[*]}" >&2
    exit 1
fi
echo "deps.sh: installing ${missing[*]}" >&2
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
