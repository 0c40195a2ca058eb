# bench/lib.sh - sourced by the benchmark scripts (not run on its own).
#
# bench_build TARGET...: prints the directory of the gpusizer build to measure -
# $BENCH_BUILD_DIR when set, else build-release/ (Release, tests off, as
# scripts/serve.sh makes it) after building TARGETs there.
bench_build() {
    if [[ -n ${BENCH_BUILD_DIR:-} ]]; then
        echo "$BENCH_BUILD_DIR"
        return
    fi
    cmake -S . -B build-release -DCMAKE_BUILD_TYPE=Release -DGPUSIZER_BUILD_TESTS=OFF >/dev/null
    cmake --build build-release -j"$(nproc)" --target "$@" >/dev/null
    echo build-release
}
