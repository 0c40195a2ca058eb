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

# port_free PORT: nothing answers on 127.0.0.1:PORT.
port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# free_port: prints a port on 127.0.0.1 nothing listens on, below the kernel's ephemeral
# range - a port that earlier connections (wrk's) left in TIME_WAIT answers no connect but
# cannot be bound (EADDRINUSE). Fails when none is found in 200 tries.
free_port() {
    local low p
    low=$(cut -f1 /proc/sys/net/ipv4/ip_local_port_range 2>/dev/null || echo 32768)
    ((low > 12000)) || low=32768
    for _ in $(seq 200); do
        p=$((10000 + RANDOM % (low - 10000)))
        port_free "$p" && { echo "$p"; return 0; }
    done
    echo "no free port on 127.0.0.1" >&2
    return 1
}
