#ifndef LITMUSC_GEN_LANG_H
#define LITMUSC_GEN_LANG_H
/* The thread bodies of C and Java tests, which differ only in how an
 * access and a fence are spelled: gen/emit_lang.c walks a
 * thread (registers, dependencies, the `if` of a control dependency)
 * and calls these hooks for the words. */
#include "gen/internal.h"

/* One atomic call of C: a read-modify-write of the cycle (its read and
 * write events) or an access fence. */
typedef struct gen_rmw_call {
    int op;             /* GEN_OP_* */
    int mo, fail;       /* orders, as atoms; FAIL for a compare-exchange */
    const char *loc;
    const char *addr;   /* address dependency register, or NULL */
    int reg;            /* result register, -1 when the result is not kept */
    int operand;        /* value added, stored, exchanged, desired ... */
    const char *expected;   /* compare-exchange: the location of the expected value */
} gen_rmw_call;

/* Locations a thread uses beyond the cycle's: access fence locations
 * and compare-exchange expected values, with their initial values. */
enum { GEN_EXTRA_MAX = 2 * GEN_MAX_EDGES };
typedef struct gen_extras {
    int n;
    char name[GEN_EXTRA_MAX][16];
    bool atomic[GEN_EXTRA_MAX];
    int init[GEN_EXTRA_MAX];
} gen_extras;

typedef struct gen_lang {
    /* "int r0 = atomic_load_explicit(x,memory_order_acquire);"; ADDR is
     * the register an address dependency comes from, or NULL. */
    void (*load)(strbuf *out, const gen_arch *a, int reg, const char *loc, int atom, const char *addr);
    /* DATA is the register a data dependency comes from, or NULL. */
    void (*store)(strbuf *out, const gen_arch *a, const char *loc, int v, int atom, const char *addr,
                  const char *data);
    void (*fence)(strbuf *out, const gen_arch *a, int fence);
    /* NULL where the language has no read-modify-write */
    void (*rmw)(strbuf *out, const gen_arch *a, const gen_rmw_call *call);
} gen_lang;

/* Thread P's statements (indented by two spaces per level) into OUT, and
 * its register terms of the condition appended to FIN. */
bool gen_lang_thread(const gen_cycle *c, const gen_lang *l, int p, strbuf *out, gen_final *fin, int *nfin,
                     gen_extras *x, diag *d);
/* The locations thread P accesses, as a bit set. */
unsigned long long gen_thread_locs(const gen_cycle *c, int p);

#endif
