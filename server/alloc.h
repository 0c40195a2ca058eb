/*
 * alloc.h - glibc malloc settings for a process that answers requests.
 *
 * A whole-catalog /v1/recommend works in about 250 KB of heap (the request's
 * sizing state, one plan per GPU type, the growing answer) and frees it all
 * at the end. With glibc's defaults the freed top of the heap beyond 128 KiB
 * goes back to the system on every such request and the next one faults the
 * pages in again: perf put the kernel's page-fault handler at 3.5% of a
 * recommendation (bench/calls_bench.c: 161 us per answer, 130 us with the
 * setting below). Resident memory still returns to its baseline after a
 * burst: the server trims explicitly (conn_guard.c, http.c).
 */
#ifndef GS_ALLOC_H
#define GS_ALLOC_H

/* Keeps up to 1 MiB of freed heap per arena instead of trimming it at once,
 * and serves blocks under 1 MiB from the heap rather than fresh mappings
 * (glibc fixes the mapping threshold once the trim threshold is set). Call
 * before starting threads. */
void alloc_tune_for_requests(void);

#endif
