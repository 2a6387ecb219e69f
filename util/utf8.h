#ifndef LITMUSC_UTIL_UTF8_H
#define LITMUSC_UTIL_UTF8_H
/* UTF-8 validation for writers of text formats (JSON, HTML) that must not
 * pass invalid bytes from a path or a database through. */
#include <stddef.h>

/* The length (1-4) of the well-formed UTF-8 sequence at P (RFC 3629: no
 * overlong forms, no surrogates, nothing past U+10FFFF), or 0 when the
 * bytes there are not one.  P points at a NUL-terminated string. */
size_t utf8_seq_len(const unsigned char *p);

#endif
