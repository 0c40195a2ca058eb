#!/usr/bin/env bash
# serve.sh - set up, build and run gpusizer with no configuration.
#
# Installs missing Debian packages (when run as root), builds a release
# binary in build-release/, and serves on $PORT (default 8080) with the
# catalog in ./gpusizer.db (created and seeded on first start). Extra
# arguments go to `gpusizer serve` (e.g. --port 9000 --db /tmp/catalog.db).
# Each step is announced on stderr; the server then runs in the foreground
# (exec, so its PID is this script's) until Ctrl-C or SIGTERM.
set -euo pipefail
cd "$(dirname "$0")/.."

say() { echo "serve.sh: $*" >&2; }

# The port and catalog the server will use, for the messages: the arguments, else the
# environment, else the defaults (as gpusizer serve resolves them).
port="${PORT:-8080}"
db="${GPUSIZER_DB:-./gpusizer.db}"
[[ -n "${GPUSIZER_DATABASE_URL:-}" ]] && db="the PostgreSQL catalog of GPUSIZER_DATABASE_URL"
args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do
    case "${args[i]}" in
    --port) port="${args[i + 1]:-$port}" ;;
    --db) db="${args[i + 1]:-$db}" ;;
    --database-url) db="a PostgreSQL catalog" ;;
    esac
done

say "checking the Debian packages the build needs (installing the missing ones as root)"
scripts/deps.sh build
say "configuring the release build in build-release/"
cmake -S . -B build-release -DCMAKE_BUILD_TYPE=Release -DGPUSIZER_BUILD_TESTS=OFF >/dev/null
if [[ -x build-release/gpusizer ]]; then
    say "building build-release/gpusizer (only what changed)"
else
    say "building build-release/gpusizer (the first build takes a few minutes)"
fi
cmake --build build-release -j"$(nproc)" >/dev/null
if [[ "$port" == 0 ]]; then
    say "starting gpusizer on a free port (it prints its URL), catalog $db"
else
    say "starting gpusizer on http://localhost:$port/ (the web form; the API under /v1/), catalog $db"
fi
say "Ctrl-C stops it; build-release/gpusizer --help lists the command-line tools"
exec build-release/gpusizer serve "$@"
