#!/usr/bin/env bash
# test.sh - set up and run every test: unit, integration, OpenAPI lint,
# contract validation, browser, Docker image smoke test, then the unit and
# integration tests again under AddressSanitizer + UndefinedBehaviorSanitizer,
# the integration tests under ThreadSanitizer and under valgrind memcheck, then each libFuzzer target (clang, ASan + UBSan) for a bounded time
# (GPUSIZER_FUZZ_SECONDS each, default 20; tests/fuzz/run.sh), then the README's two commands in a
# freshly bootstrapped Debian 12 root (scripts/fresh-root-test.sh; root only).
#
# Installs missing Debian packages and npm dev dependencies when run as root.
# The Docker smoke test needs root (it runs a private dockerd); without root
# it is skipped with a message. GPUSIZER_SKIP_DOCKER=1 skips it explicitly.
set -euo pipefail
cd "$(dirname "$0")/.."

# stage NAME: when each stage starts, seconds into the run (CI's wall time has a limit; this says
# where it goes)
stage() { echo "test.sh: [${SECONDS} s] $*" >&2; }

stage "packages and Node dependencies"
scripts/deps.sh test
# Debian 12 ships Node.js 18; Playwright and the pinned Redocly need 20 or later. Then Node 20
# comes from the npm registry itself (the `node` package carries the binary) into build-tools/.
node_major=$(node -e 'process.stdout.write(process.versions.node.split(".")[0])' 2>/dev/null || echo 0)
if (( node_major < 20 )); then
    echo "test.sh: Node.js $(node --version 2>/dev/null || echo none) is older than 20; installing Node 20 into build-tools/" >&2
    npm install --no-audit --no-fund --loglevel=error --prefix build-tools node@20
    export PATH="$PWD/build-tools/node_modules/.bin:$PATH"
fi
npm ci --no-audit --no-fund --loglevel=error

docker_test=OFF
if [[ $(id -u) -eq 0 && "${GPUSIZER_SKIP_DOCKER:-0}" != 1 ]]; then
    docker_test=ON
else
    echo "test.sh: skipping the Docker smoke test (needs root; GPUSIZER_SKIP_DOCKER=${GPUSIZER_SKIP_DOCKER:-0})" >&2
fi

jobs=$(nproc)
stage "build, then the tests (ctest)"
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGPUSIZER_NODE_TESTS=ON \
    -DGPUSIZER_DOCKER_TEST="$docker_test" -DNODE="$(command -v node)" -DNPX="$(command -v npx)" \
    >/dev/null
cmake --build build -j"$jobs"
# GPUSIZER_CTEST_EXCLUDE, when set, is a ctest -E expression of tests this first run leaves out
# (the fresh-root stage leaves out those that need nothing of a fresh machine the others there do
# not prove, and that run in full outside it: scripts/fresh-root-test.sh).
excluded=()
if [[ -n "${GPUSIZER_CTEST_EXCLUDE:-}" ]]; then
    excluded=(-E "$GPUSIZER_CTEST_EXCLUDE")
fi
# As many tests at a time as there are cores; docker_smoke, test_load and test_replicas, whose
# builds, rates and servers want the machine to themselves, are RUN_SERIAL (tests/CMakeLists.txt).
(cd build && ctest --output-on-failure -j"$jobs" "${excluded[@]}")

# GPUSIZER_SANITIZER_TESTS, when set, is the space-separated names of the tests the ASan/UBSan
# and TSan stages build and run (default: every unit, http and cli test under ASan, every http
# test under TSan, and the whole tree). The fresh-root stage runs test_http there, which proves
# the sanitizer toolchains install and run on a fresh machine, while the full sets run once,
# outside it (as GPUSIZER_VALGRIND_TESTS does for valgrind).
sanitized=()
if [[ -n "${GPUSIZER_SANITIZER_TESTS:-}" ]]; then
    read -r -a sanitized <<<"$GPUSIZER_SANITIZER_TESTS"
fi
# sanitizer_build DIR: the tree, or only the server and the chosen tests
sanitizer_build() {
    if ((${#sanitized[@]} > 0)); then
        cmake --build "$1" -j"$jobs" --target gpusizer "${sanitized[@]}"
    else
        cmake --build "$1" -j"$jobs"
    fi
}
# sanitizer_select LABELS: ctest's selection, the chosen tests or the labels
sanitizer_select() {
    if ((${#sanitized[@]} > 0)); then
        echo "-R ^($(IFS='|'; echo "${sanitized[*]}"))\$"
    else
        echo "-L $1"
    fi
}

stage "AddressSanitizer + UndefinedBehaviorSanitizer: build, then the tests"
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DGPUSIZER_SANITIZE=ON >/dev/null
sanitizer_build build-asan
# (the mixed-load test runs 10 s there, without its rate checks: instrumentation sets the pace;
# as many tests at a time as there are cores; test_load, test_replicas and test_hostile alone: RUN_SERIAL)
# shellcheck disable=SC2046 # the selection is two words
(cd build-asan && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
    UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 GPUSIZER_LOAD_SECONDS=10 GPUSIZER_LOAD_STRICT=0 \
    ctest --output-on-failure -j"$jobs" $(sanitizer_select 'unit|http|cli'))

# ThreadSanitizer over the integration tests: many concurrent clients and writers against real
# servers (a data race makes the server exit non-zero, which fails its test). Built with clang,
# which also proves the whole tree (every target) builds warning-free with clang, not only gcc.
stage "ThreadSanitizer (clang): build, then the http tests"
cmake -S . -B build-tsan -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=Debug \
    "-DCMAKE_C_FLAGS=-fsanitize=thread -fno-omit-frame-pointer" >/dev/null
sanitizer_build build-tsan
# shellcheck disable=SC2046
(cd build-tsan && TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 \
    GPUSIZER_LOAD_SECONDS=10 GPUSIZER_LOAD_STRICT=0 ctest --output-on-failure $(sanitizer_select http))

# The integration tests with every server under valgrind memcheck (a memory error or a definite
# leak fails the test).
# (in build/, the plain RelWithDebInfo build above: memcheck runs its binaries as they are)
stage "valgrind memcheck: the http tests"
GPUSIZER_VALGRIND_BUILD=build scripts/valgrind-test.sh

# Fuzzing: every library instrumented for coverage and sanitizers, each target replaying its
# regression inputs and then fuzzing for a bounded time (tests/fuzz/). At -O1, as libFuzzer's
# documentation builds its targets ("clang -g -O1 -fsanitize=fuzzer,address"): the sanitizers
# see the same bugs, an input runs several times faster (more of them in the time, and the
# 10-second limit on one input measures the code, not -O0).
stage "libFuzzer targets: build, then replay and fuzz"
CC=clang cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=Debug -DGPUSIZER_FUZZ=ON \
    -DGPUSIZER_FUZZ_SECONDS="${GPUSIZER_FUZZ_SECONDS:-20}" \
    "-DCMAKE_C_FLAGS=-O1 -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined" \
    >/dev/null
cmake --build build-fuzz -j"$jobs" --target fuzz_estimate fuzz_sizing fuzz_config fuzz_checkpoint \
    fuzz_catalog_write
(cd build-fuzz && ctest --output-on-failure -L fuzz -j"$jobs")

# The README's two commands in a freshly bootstrapped Debian 12 root (debootstrap minbase bookworm;
# needs root, else skipped with a message). The test command inside runs with GPUSIZER_IN_FRESH_ROOT=1,
# which keeps it from starting this stage again; GPUSIZER_SKIP_FRESH_ROOT=1 skips it explicitly.
if [[ "${GPUSIZER_IN_FRESH_ROOT:-0}" != 1 && "${GPUSIZER_SKIP_FRESH_ROOT:-0}" != 1 ]]; then
    stage "the README's two commands in a fresh Debian 12 root"
    scripts/fresh-root-test.sh
fi
stage "done"
