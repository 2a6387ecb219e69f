/* Observables and conditions: herd's order of the items of a final state,
 * evaluation of a condition on a state, and herd's printed forms of
 * conditions, states and values. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ir/ir.h"
#include "ir/text.h"
#include "util/mem.h"

bool ir_obs_equal(const ir_obs *a, const ir_obs *b)
{
    if (a->kind != b->kind)
        return false;
    if (a->kind == IR_OBS_MEM)
        return a->loc == b->loc;
    return a->thread == b->thread && a->reg && b->reg && !strcmp(a->reg, b->reg);
}

/* herd orders an architecture's registers by the declaration order of its
 * register type; names outside these tables (symbolic registers) come
 * after them, by name. */
static const char *const x86_regs[] = {
    "EAX", "EBX", "ECX", "EDX", "ESI", "EDI", "EBP", "ESP", "EIP", "ZF", "SF", "CF", NULL,
};
/* X86_64: RIP, CS, then the integer registers by base (whatever the width
 * written), then the xmm registers. */
static const char *const x86_64_regs[] = {
    "rip", "cs", "rax", "rbx", "rcx", "rdx", "rsi", "rdi", "rbp", "rsp",
    "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15",
    "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", NULL,
};

/* AArch64: the general registers by number (X2 before X10), as herd's
 * register type declares them. */
static const char *const aarch64_regs[] = {
    "X0", "X1", "X2", "X3", "X4", "X5", "X6", "X7", "X8", "X9", "X10", "X11", "X12", "X13", "X14", "X15",
    "X16", "X17", "X18", "X19", "X20", "X21", "X22", "X23", "X24", "X25", "X26", "X27", "X28", "X29", "X30",
    NULL,
};

static int reg_rank(const char *const *table, const char *name)
{
    for (int i = 0; table[i]; i++)
        if (!strcmp(table[i], name))
            return i;
    return 1000;
}

static int reg_compare(ir_arch arch, const char *a, const char *b)
{
    const char *const *table = arch == IR_ARCH_X86      ? x86_regs
                               : arch == IR_ARCH_X86_64 ? x86_64_regs
                               : arch == IR_ARCH_AARCH64 ? aarch64_regs
                                                         : NULL;
    if (table) {
        int ra = reg_rank(table, a), rb = reg_rank(table, b);
        if (ra != rb)
            return ra < rb ? -1 : 1;
    }
    return strcmp(a, b);
}

int ir_obs_compare(const ir_test *t, const ir_obs *a, const ir_obs *b)
{
    if (a->kind != b->kind)
        return a->kind == IR_OBS_REG ? -1 : 1;     /* registers before memory */
    if (a->kind == IR_OBS_REG) {
        if (a->thread != b->thread)
            return a->thread < b->thread ? -1 : 1;
        return reg_compare(t->arch, a->reg, b->reg);
    }
    if (a->loc == b->loc)
        return 0;
    const char *na = a->loc >= 0 && a->loc < t->nlocs ? t->locs[a->loc].name : "";
    const char *nb = b->loc >= 0 && b->loc < t->nlocs ? t->locs[b->loc].name : "";
    int c = strcmp(na, nb);
    return c ? c : (a->loc < b->loc ? -1 : 1);
}

typedef struct obs_set {
    ir_obs *v;
    size_t n, cap;
} obs_set;

static void obs_add(obs_set *s, const ir_obs *o)
{
    for (size_t i = 0; i < s->n; i++)
        if (ir_obs_equal(&s->v[i], o))
            return;
    VEC_PUSH(s->v, s->n, s->cap, *o);
}

static void obs_collect(obs_set *s, const ir_cond *c)
{
    if (!c)
        return;
    if (c->kind == IR_C_ATOM) {
        obs_add(s, &c->lhs);
        if (c->rhs_is_obs)
            obs_add(s, &c->rhs_obs);
        return;
    }
    obs_collect(s, c->l);
    obs_collect(s, c->r);
}

static const ir_test *sort_test;    /* qsort has no context argument */
static int obs_qsort_cmp(const void *a, const void *b)
{
    return ir_obs_compare(sort_test, a, b);
}

ir_obs *ir_observables(const ir_test *t, int *n)
{
    obs_set s = {0};
    obs_collect(&s, t->cond);
    for (int i = 0; i < t->nlocations; i++)
        obs_add(&s, &t->locations[i]);
    sort_test = t;
    if (s.n > 1)
        qsort(s.v, s.n, sizeof *s.v, obs_qsort_cmp);
    *n = (int)s.n;
    if (!s.v)
        s.v = xmalloc(sizeof *s.v);   /* callers may always free() the result */
    return s.v;
}

ir_obs *ir_filter_observables(const ir_test *t, int *n)
{
    int nshown;
    ir_obs *shown = ir_observables(t, &nshown);
    obs_set f = {0};
    obs_collect(&f, t->filter);
    obs_set out = {0};
    for (size_t i = 0; i < f.n; i++) {
        bool seen = false;
        for (int j = 0; j < nshown && !seen; j++)
            seen = ir_obs_equal(&f.v[i], &shown[j]);
        if (!seen)
            VEC_PUSH(out.v, out.n, out.cap, f.v[i]);
    }
    free(shown);
    free(f.v);
    sort_test = t;
    if (out.n > 1)
        qsort(out.v, out.n, sizeof *out.v, obs_qsort_cmp);
    *n = (int)out.n;
    if (!out.v)
        out.v = xmalloc(sizeof *out.v);
    return out.v;
}

static bool lookup(const ir_obs *o, const ir_obs *obs, const ir_val *vals, int n, ir_val *v)
{
    for (int i = 0; i < n; i++)
        if (ir_obs_equal(o, &obs[i])) {
            *v = vals[i];
            return true;
        }
    *v = 0;
    return false;
}

bool ir_cond_eval(const ir_cond *c, const ir_obs *obs, const ir_val *vals, int n)
{
    switch (c->kind) {
    case IR_C_TRUE: return true;
    case IR_C_FALSE: return false;
    case IR_C_ATOM: {
        ir_val l, r = c->rhs;
        lookup(&c->lhs, obs, vals, n, &l);
        if (c->rhs_is_obs)
            lookup(&c->rhs_obs, obs, vals, n, &r);
        return (l == r) != c->ne;
    }
    case IR_C_NOT: return !ir_cond_eval(c->l, obs, vals, n);
    case IR_C_AND: return ir_cond_eval(c->l, obs, vals, n) && ir_cond_eval(c->r, obs, vals, n);
    case IR_C_OR: return ir_cond_eval(c->l, obs, vals, n) || ir_cond_eval(c->r, obs, vals, n);
    case IR_C_IMPLIES: return !ir_cond_eval(c->l, obs, vals, n) || ir_cond_eval(c->r, obs, vals, n);
    }
    return false;
}

void ir_format_val(const ir_test *t, ir_val v, char *buf, size_t size)
{
    if (IR_IS_ADDR(v) && IR_ADDR_LOC(v) >= 0 && IR_ADDR_LOC(v) < t->nlocs)
        snprintf(buf, size, "%s", t->locs[IR_ADDR_LOC(v)].name);
    else
        snprintf(buf, size, "%" PRId64, v);
}

static void add_obs(strbuf *b, const ir_test *t, const ir_obs *o)
{
    if (o->kind == IR_OBS_REG)
        sb_printf(b, "%d:%s", o->thread, o->reg ? o->reg : "?");
    else
        sb_printf(b, "[%s]", o->loc >= 0 && o->loc < t->nlocs ? t->locs[o->loc].name : "?");
}

char *ir_format_obs(const ir_test *t, const ir_obs *o)
{
    strbuf b = {0};
    add_obs(&b, t, o);
    return sb_take(&b);
}

/* herd's printer (ConstrGen.pp_prop) parenthesises a sub-proposition by the
 * connective above it: /\ under \/ and a chain of one connective stay bare;
 * \/ under /\, and => under or over either, get parentheses. */
enum { CTX_TOP, CTX_AND, CTX_OR, CTX_IMPLIES };

static bool needs_paren(int above, int here)
{
    switch (above) {
    case CTX_TOP: return false;
    case CTX_IMPLIES: return here != CTX_IMPLIES;
    case CTX_AND: return here != CTX_AND;
    case CTX_OR: return here == CTX_IMPLIES;
    }
    return false;
}

static void add_atom(strbuf *b, const ir_test *t, const ir_cond *c)
{
    char val[64];
    add_obs(b, t, &c->lhs);
    sb_addc(b, '=');
    if (c->rhs_is_obs) {
        add_obs(b, t, &c->rhs_obs);
    } else {
        ir_format_val(t, c->rhs, val, sizeof val);
        sb_add(b, val);
    }
}

static void add_prop(strbuf *b, const ir_test *t, const ir_cond *c, int above)
{
    int here;
    const char *op;
    switch (c->kind) {
    case IR_C_TRUE: sb_add(b, "true"); return;
    case IR_C_FALSE: sb_add(b, "false"); return;
    case IR_C_ATOM:
        if (c->ne) {        /* herd parses `a != v` as not (a=v) */
            sb_add(b, "not (");
            add_atom(b, t, c);
            sb_addc(b, ')');
        } else {
            add_atom(b, t, c);
        }
        return;
    case IR_C_NOT:
        sb_add(b, "not (");
        add_prop(b, t, c->l, CTX_TOP);
        sb_addc(b, ')');
        return;
    case IR_C_AND: here = CTX_AND; op = " /\\ "; break;
    case IR_C_OR: here = CTX_OR; op = " \\/ "; break;
    default: here = CTX_IMPLIES; op = " => "; break;
    }
    ir_text_add_binary(b, t, c, add_prop, needs_paren(above, here), op, here, here);
}

char *ir_format_cond(const ir_test *t)
{
    strbuf b = {0};
    sb_printf(&b, "%s (", ir_quant_name(t->quant));
    if (t->cond)
        add_prop(&b, t, t->cond, CTX_TOP);
    else
        sb_add(&b, "true");
    sb_addc(&b, ')');
    return sb_take(&b);
}

char *ir_format_state(const ir_test *t, const ir_obs *obs, const ir_val *vals, int n)
{
    strbuf b = {0};
    char val[64];
    for (int i = 0; i < n; i++) {
        if (i)
            sb_addc(&b, ' ');
        add_obs(&b, t, &obs[i]);
        if (ir_obs_unsigned64(t, &obs[i]) && !IR_IS_ADDR(vals[i]))
            snprintf(val, sizeof val, "%" PRIu64, (uint64_t)vals[i]);   /* herd: a uint64_t unsigned */
        else
            ir_format_val(t, vals[i], val, sizeof val);
        sb_printf(&b, "=%s;", val);
    }
    return sb_take(&b);
}
