/*
 * sha256.h - SHA-256 (FIPS 180-4) for provenance: the digests of the
 * config.json and checkpoint headers an import read, so anyone can check
 * the figures came from those bytes.
 */
#ifndef GS_SHA256_H
#define GS_SHA256_H

#include <stddef.h>
#include <stdint.h>

/* The digest of `length` bytes as 64 lower-case hex characters and a NUL. */
void sha256_hex(const void *data, size_t length, char out[65]);

#endif
