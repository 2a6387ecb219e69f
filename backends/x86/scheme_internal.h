#ifndef LITMUSC_BACKENDS_X86_SCHEME_INTERNAL_H
#define LITMUSC_BACKENDS_X86_SCHEME_INTERNAL_H
/* The parsed form of a compilation scheme, shared by the parser
 * (scheme.c) and the rewriter (scheme_apply.c).  Not part of the public
 * interface: users see schemes only through backends/x86/x86.h. */
#include <stdint.h>
#include "backends/x86/x86.h"

typedef enum scheme_kind { SK_LOAD, SK_STORE, SK_RMW, SK_FENCE, SK_COUNT } scheme_kind;

/* One element of an instruction sequence. */
typedef enum scheme_item_kind {
    /* The access itself (exactly one in a load, store or rmw rule). */
    SI_MOV,             /* load or store as MOV */
    SI_XCHG,            /* store or xchg RMW as XCHG */
    SI_LOCK_XADD,       /* add/sub RMW, or a load as LOCK XADD of 0 */
    SI_LOCK_CMPXCHG,    /* cas RMW, or and/or/xor as a LOCK CMPXCHG loop */
    SI_LOCK_OP,         /* LOCK ADD/SUB/AND/OR/XOR on the location: result unused */
    /* Barriers (none in the access's place). */
    SI_MFENCE, SI_LFENCE, SI_SFENCE,
    SI_LOCK_ADD_SCRATCH,/* LOCK ADD [scratch],$0 on a thread-private location */
} scheme_item_kind;

typedef struct scheme_item {
    scheme_item_kind kind;
    ir_rmw_op op;       /* SI_LOCK_OP */
} scheme_item;

typedef struct scheme_rule {
    scheme_kind kind;
    uint32_t modes;     /* bit m set: matches ir_mode m */
    uint32_t ops;       /* SK_RMW: bit per ir_rmw_op */
    uint32_t fences;    /* SK_FENCE: bit per ir_fence_kind */
    scheme_item *items;
    int nitems;
    int line;           /* in the scheme file, for messages */
} scheme_rule;

struct x86_scheme {
    char *name;
    char *file;
    ir_arch arch;
    scheme_rule *rules;
    int nrules;
};

/* The first rule of S matching this access, or NULL.  MODE is the access
 * mode (fences: C order, else IR_MODE_NONE); OP and FENCE as relevant. */
const scheme_rule *scheme_match(const x86_scheme *s, scheme_kind kind, ir_mode mode,
                                ir_rmw_op op, ir_fence_kind fence);
/* Index of the access item in R, or -1 (fence rules). */
int scheme_rule_access(const scheme_rule *r);
const char *scheme_kind_name(scheme_kind k);  /* "load" "store" "rmw" "fence" */

#endif
