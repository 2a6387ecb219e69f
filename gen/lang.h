#ifndef LITMUSC_GEN_LANG_H
#define LITMUSC_GEN_LANG_H
/* The thread bodies of C and Java tests, which differ only in how an
 * access and a fence are spelled: gen/emit_lang.c walks a
 * thread (registers, dependencies, the `if` of a control dependency)
 * and calls these hooks for the words. */
#include "gen/internal.h"

typedef struct gen_lang {
    /* "int r0 = atomic_load_explicit(x,memory_order_acquire);"; ADDR is
     * the register an address dependency comes from, or NULL. */
    void (*load)(strbuf *out, const gen_arch *a, int reg, const char *loc, int atom, const char *addr);
    /* DATA is the register a data dependency comes from, or NULL. */
    void (*store)(strbuf *out, const gen_arch *a, const char *loc, int v, int atom, const char *addr,
                  const char *data);
    void (*fence)(strbuf *out, const gen_arch *a, int fence);
} gen_lang;

/* Thread P's statements (indented by two spaces per level) into OUT, and
 * its register terms of the condition appended to FIN. */
bool gen_lang_thread(const gen_cycle *c, const gen_lang *l, int p, strbuf *out, gen_final *fin, int *nfin,
                     diag *d);
/* The locations thread P accesses, as a bit set. */
unsigned long long gen_thread_locs(const gen_cycle *c, int p);

#endif
