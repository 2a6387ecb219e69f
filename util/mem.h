#ifndef LITMUSC_UTIL_MEM_H
#define LITMUSC_UTIL_MEM_H
/* Allocation that never returns NULL (aborts on exhaustion), growable
 * vectors, and a string builder. */
#include <stddef.h>
#include <stdarg.h>

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Growable array: `T *v = NULL; size_t n = 0, cap = 0; VEC_PUSH(v, n, cap, x);` */
#define VEC_PUSH(arr, len, cap, item)                                            \
    do {                                                                          \
        if ((len) == (cap)) {                                                     \
            (cap) = (cap) ? 2 * (cap) : 8;                                        \
            (arr) = xrealloc((arr), (cap) * sizeof *(arr));                      \
        }                                                                         \
        (arr)[(len)++] = (item);                                                  \
    } while (0)

/* Frees each of the N strings of V, then V. */
void strv_free(char **v, int n);

/* A KEY VALUE pair kept as text: a test's info lines, a log's Config
 * lines. */
typedef struct kv_pair {
    char *key, *value;
} kv_pair;

/* Frees each key and value of the N pairs of V, then V. */
void kv_free(kv_pair *v, int n);

typedef struct strbuf {
    char *s;      /* always NUL-terminated once anything was added */
    size_t len, cap;
} strbuf;

void sb_add(strbuf *b, const char *s);
void sb_addn(strbuf *b, const char *s, size_t n);
void sb_addc(strbuf *b, char c);
void sb_printf(strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sb_vprintf(strbuf *b, const char *fmt, va_list ap);
char *sb_take(strbuf *b);   /* returns the string ("" if empty) and resets b */
void sb_free(strbuf *b);

#endif
