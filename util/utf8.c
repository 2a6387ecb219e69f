#include "util/utf8.h"

static int cont(unsigned char c) { return (c & 0xc0) == 0x80; }

size_t utf8_seq_len(const unsigned char *p)
{
    unsigned char c = p[0];
    if (c < 0x80)
        return 1;
    if (c >= 0xc2 && c <= 0xdf)
        return cont(p[1]) ? 2 : 0;
    if (c >= 0xe0 && c <= 0xef) {
        if (!cont(p[1]) || !cont(p[2]))
            return 0;
        if (c == 0xe0 && p[1] < 0xa0)       /* overlong */
            return 0;
        if (c == 0xed && p[1] >= 0xa0)      /* a surrogate */
            return 0;
        return 3;
    }
    if (c >= 0xf0 && c <= 0xf4) {
        if (!cont(p[1]) || !cont(p[2]) || !cont(p[3]))
            return 0;
        if (c == 0xf0 && p[1] < 0x90)       /* overlong */
            return 0;
        if (c == 0xf4 && p[1] >= 0x90)      /* past U+10FFFF */
            return 0;
        return 4;
    }
    return 0;
}
