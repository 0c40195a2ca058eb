#!/usr/bin/env bash
# valgrind-test.sh - the integration tests (ctest label http) with every
# `gpusizer serve` they start running under valgrind memcheck: a memory
# error or a definite leak in the server makes it exit 99, which fails its
# test (tests/support/test_server.c, GPUSIZER_TEST_SERVER_WRAPPER). A plain
# RelWithDebInfo build without sanitizers, in build-valgrind/ or the build
# directory GPUSIZER_VALGRIND_BUILD names (scripts/test.sh passes its own
# build/, the same plain RelWithDebInfo build, so as not to compile it twice).
#
# Timing bounds in the tests are scaled by test_server_time_factor() (20
# under a wrapper; GPUSIZER_TEST_TIME_FACTOR overrides it). Suppressions,
# for third-party libraries only, are in tests/valgrind.supp.
#
# GPUSIZER_VALGRIND_TESTS, when set, is the space-separated names of the tests
# to build and run (default: every test labelled http); the fresh-root stage
# runs test_http there, which proves valgrind installs and runs on a fresh
# machine, while the full set runs once, outside it.
set -euo pipefail
cd "$(dirname "$0")/.."

command -v valgrind >/dev/null || { echo "valgrind-test.sh: valgrind is not installed" >&2; exit 1; }
jobs=$(nproc)
dir="${GPUSIZER_VALGRIND_BUILD:-build-valgrind}"
cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
only="${GPUSIZER_VALGRIND_TESTS:-}"
if [[ -n "$only" ]]; then
    read -r -a names <<<"$only"
    cmake --build "$dir" -j"$jobs" --target gpusizer "${names[@]}"
    select=(-R "^($(IFS='|'; echo "${names[*]}"))\$")
else
    cmake --build "$dir" -j"$jobs"
    select=(-L http)
fi

# No quoting inside the wrapper: test_server.c splits it on spaces.
# Uninitialised values are reported either way; where they came from (--track-origins=yes, which
# made test_catalog_http take 102 s instead of 63) only with GPUSIZER_VALGRIND_TRACK_ORIGINS=1, to
# diagnose a report.
origins=""
[[ "${GPUSIZER_VALGRIND_TRACK_ORIGINS:-0}" == 1 ]] && origins="--track-origins=yes"
export GPUSIZER_TEST_SERVER_WRAPPER="valgrind --tool=memcheck --leak-check=full \
--errors-for-leak-kinds=definite --show-leak-kinds=definite --error-exitcode=99 \
$origins --num-callers=40 --vgdb=no --suppressions=$PWD/tests/valgrind.supp"
# Lighter workloads where memcheck would bring a test near its ctest TIMEOUT on a busy 2-core
# machine: test_load's mixed phase runs 10 s (not 45) without its rate and RSS checks, as in the
# sanitizer stages (memcheck sets the pace, and the RSS it would check is memcheck's);
# test_hostile's four concurrent PATCH writers send 20 each (not 60: ~30 s under memcheck, of the
# test's 120 s TIMEOUT). Everything else runs its full workload; test_catalog_http's writers can be
# lightened too (GPUSIZER_TEST_WRITER_CLIENTS, GPUSIZER_TEST_WRITER_ROUNDS) if ever needed.
export GPUSIZER_LOAD_SECONDS=10 GPUSIZER_LOAD_STRICT=0 GPUSIZER_TEST_PATCHES=20
# Each test is bounded by its ctest TIMEOUT (tests/CMakeLists.txt). As many at a time as there are
# cores: memcheck serialises each server's threads onto one core, so two tests' servers fill two
# (222 s for the http set on 2 cores against 321 s one at a time), and the timing bounds are scaled
# by 20 under the wrapper; test_load and test_replicas, whose bounds and servers want the machine
# to themselves, are RUN_SERIAL (tests/CMakeLists.txt) and run alone.
(cd "$dir" && ctest --output-on-failure -j"$jobs" "${select[@]}")
