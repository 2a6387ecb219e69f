#ifndef LITMUSC_UTIL_MD5_H
#define LITMUSC_UTIL_MD5_H
/* MD5 (RFC 1321).  Needed only to reproduce herd's test hash, which is
 * defined in terms of MD5 digests; it is not used for anything secret. */
#include <stddef.h>
#include <stdint.h>

typedef struct md5_ctx {
    uint32_t a, b, c, d;
    uint64_t nbytes;
    unsigned char buf[64];
    size_t nbuf;
} md5_ctx;

void md5_init(md5_ctx *c);
void md5_update(md5_ctx *c, const void *data, size_t len);
void md5_final(md5_ctx *c, unsigned char out[16]);
/* One-shot digest of LEN bytes. */
void md5(const void *data, size_t len, unsigned char out[16]);
/* 32 lower-case hex digits and a NUL. */
void md5_hex(const unsigned char digest[16], char out[33]);

#endif
