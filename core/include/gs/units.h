/*
 * units.h - byte units and overflow-checked unsigned 64-bit arithmetic.
 *
 * Every memory figure in gpusizer is an integer number of bytes. The checked
 * helpers take a sticky `overflow` flag instead of returning a status, so a
 * formula can be written as one expression and checked once at the end:
 *
 *     bool ovf = false;
 *     uint64_t attn = gs_add(gs_mul(h, q, &ovf), gs_mul(2, kv, &ovf), &ovf);
 *     if (ovf) return GS_ERR_RANGE;
 *
 * On overflow the result saturates at UINT64_MAX and the flag is set.
 */
#ifndef GS_UNITS_H
#define GS_UNITS_H

#include <stdbool.h>
#include <stdint.h>

#define GS_KIB ((uint64_t)1 << 10)
#define GS_MIB ((uint64_t)1 << 20)
#define GS_GIB ((uint64_t)1 << 30)
#define GS_GB  ((uint64_t)1000000000)

static inline uint64_t gs_add(uint64_t a, uint64_t b, bool *overflow)
{
    uint64_t r;
    if (__builtin_add_overflow(a, b, &r)) {
        *overflow = true;
        return UINT64_MAX;
    }
    return r;
}

static inline uint64_t gs_mul(uint64_t a, uint64_t b, bool *overflow)
{
    uint64_t r;
    if (__builtin_mul_overflow(a, b, &r)) {
        *overflow = true;
        return UINT64_MAX;
    }
    return r;
}

/* A non-negative byte count computed in double (a rate or a share), truncated to whole bytes
 * (0 below 1); from 9007199254740991 * 2048, the largest double below 2^64, on it saturates
 * at UINT64_MAX. */
static inline uint64_t gs_bytes_from_double(double v)
{
    if (!(v > 0))
        return 0;
    return v < 18446744073709549568.0 ? (uint64_t)v : UINT64_MAX;
}

/* Ceiling division; `d` must not be 0. */
static inline uint64_t gs_div_ceil(uint64_t n, uint64_t d)
{
    return n / d + (n % d != 0);
}

#endif
