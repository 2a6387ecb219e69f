#ifndef LITMUSC_UTIL_DIAG_H
#define LITMUSC_UTIL_DIAG_H
/* Diagnostics.  Stages never print: they record the first error in a diag
 * and return failure; the command line prints it as
 *   file:line:col: error: message
 * and exits with status 2 (bad input) or 3 (internal/environment). */
#include <stdbool.h>

enum { DIAG_MSG_MAX = 512 };

typedef struct diag {
    bool set;
    int status;         /* exit status the CLI should use: 2 or 3 */
    char file[256];
    int line, col;      /* 1-based; 0 when unknown */
    char msg[DIAG_MSG_MAX];
} diag;

/* Record an error at file:line:col (only the first error is kept).
 * Returns false so callers can write `return diag_error(...)`. */
bool diag_error(diag *d, const char *file, int line, int col, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
/* The same with exit status 3 (environment or internal failure). */
bool diag_fail(diag *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Format as "file:line:col: error: msg" (parts that are unknown are omitted). */
void diag_format(const diag *d, char *buf, int size);

#endif
