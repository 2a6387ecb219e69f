/* C's read-modify-writes and the fences made of atomic accesses: their
 * names, parsed and printed.
 *
 * diy7's C has the Rmw edge (printed Exch), an exchange between the read
 * and the write it is made of, its memory order given by the annotations
 * of the two events: litmusc reads the pair as one C order (RlxRlx
 * relaxed, AcqRlx acquire, ConRlx consume, RlxRel release, AcqRel
 * acq_rel, ScSc seq_cst).  Beyond diy7, the operation follows the base
 * name (RmwAdd, RmwSub, RmwAnd, RmwOr, RmwXor, RmwCas, RmwCasW; Exch or
 * RmwXchg for the exchange), "Ig" says the result is not kept, and a
 * compare-exchange may name its failure order after the two annotations
 * (RmwCasAcqRelRlx).
 *
 * An access fence stands where a fence would: Fence, the operation (the
 * RMWs above, Ld or St), "Id" for an operand that leaves the value as it
 * is (add, sub, or, xor 0; and -1; exchange, store, compare-exchange the
 * value the location holds), "Ig", the order, a compare-exchange's
 * failure order, and "Sh" when the location is the one every thread's
 * shared access fences use rather than the thread's own; then d or s and
 * the directions as for any fence: FenceAddIgScdWR. */
#include <string.h>
#include "gen/internal.h"

const char *const gen_op_names[GEN_NOPS] = {"Xchg", "Add", "Sub", "And", "Or", "Xor", "Cas", "CasW", "Ld", "St"};

/* C atoms: Acq Rel AR Sc Rlx Con (gen/arch.c). */
enum { ACQ = 0, REL = 1, AR = 2, SC = 3, RLX = 4, CON = 5 };

int gen_rmw_order(int r, int w)
{
    if (r == RLX && w == RLX)
        return RLX;
    if (r == ACQ && w == RLX)
        return ACQ;
    if (r == CON && w == RLX)
        return CON;
    if (r == RLX && w == REL)
        return REL;
    if (r == ACQ && w == REL)
        return AR;
    if (r == SC && w == SC)
        return SC;
    return -1;
}

/* How strong the read part of an order is: a failure order may be no
 * stronger than the success order's (C17 7.17.7.4). */
static int read_rank(int mo)
{
    switch (mo) {
    case RLX: case REL: return 0;
    case CON: return 1;
    case ACQ: case AR: return 2;
    case SC: return 3;
    }
    return -1;
}

int gen_rmw_fail_order(int mo, int fail)
{
    if (fail > 0)
        return fail - 1;
    return mo == AR ? ACQ : mo == REL ? RLX : mo;
}

static bool is_cas(int op)
{
    return op == GEN_OP_CAS || op == GEN_OP_CASW;
}

/* Is FAIL (an atom) a failure order C allows after success order MO? */
static bool fail_ok(int mo, int fail)
{
    return (fail == RLX || fail == ACQ || fail == SC || fail == CON) && read_rank(fail) <= read_rank(mo);
}

/* The failure field for FAIL after MO: 0 when it is C's default. */
static int fail_field(int mo, int fail)
{
    return fail == gen_rmw_fail_order(mo, 0) ? 0 : fail + 1;
}

static const char *const order_words[] = {"Acq", "Rel", "AR", "Sc", "Rlx", "Con"};

/* Does S start with W?  Then *S moves past it. */
static bool eat(const char **s, const char *w)
{
    size_t n = strlen(w);
    if (strncmp(*s, w, n))
        return false;
    *s += n;
    return true;
}

/* The operation word at *S (CasW before Cas), or -1. */
static int eat_op(const char **s, int nops)
{
    if (eat(s, "CasW"))
        return GEN_OP_CASW;
    for (int op = 0; op < nops; op++)
        if (op != GEN_OP_CASW && eat(s, gen_op_names[op]))
            return op;
    return -1;
}

static int eat_order(const char **s)
{
    for (int k = 0; k < 6; k++)
        if (eat(s, order_words[k]))
            return k;
    return -1;
}

/* Annotations A1 A2 in one of diy7's spellings, for direction src/tgt. */
static bool match_annotations(const gen_arch *a, gen_edge *e, const char *rest)
{
    for (int a1 = -1; a1 < a->natoms; a1++)
        for (int a2 = -1; a2 < a->natoms; a2++) {
            if (!gen_atom_applies(a, a1, gen_dir_src(e)) || !gen_atom_applies(a, a2, gen_dir_tgt(e)))
                continue;
            if (gen_annotations_match(a, a1, a2, rest)) {
                e->a1 = a1;
                e->a2 = a2;
                return true;
            }
        }
    return false;
}

/* "Exch", "Rmw", "RmwXchg", "RmwAdd" ..., then Ig, then annotations and
 * a compare-exchange's failure order. */
static bool parse_rmw_edge(const gen_arch *a, const char *s, gen_edge *out)
{
    gen_edge e = {.kind = GK_RMW, .src = GD_R, .tgt = GD_W, .a1 = -1, .a2 = -1};
    if (eat(&s, "Exch"))
        e.op = GEN_OP_XCHG;
    else if (eat(&s, "Rmw")) {
        const char *t = s;
        int op = eat_op(&t, GEN_OP_LD);
        if (op >= 0) {
            e.op = op;
            s = t;
        }
    } else
        return false;
    e.unused = eat(&s, "Ig");
    if (e.unused && is_cas(e.op))
        return false;       /* a compare-exchange shows it succeeded by its result */
    if (!*s) {
        *out = e;
        return true;
    }
    if (match_annotations(a, &e, s)) {
        *out = e;
        return true;
    }
    if (!is_cas(e.op))
        return false;
    size_t len = strlen(s);
    for (int f = 0; f < 6; f++) {
        size_t fl = strlen(order_words[f]);
        if (len <= fl || strcmp(s + len - fl, order_words[f]))
            continue;
        char head[64];
        if (len - fl >= sizeof head)
            return false;
        memcpy(head, s, len - fl);
        head[len - fl] = '\0';
        gen_edge g = e;
        if (!match_annotations(a, &g, head) || g.a1 < 0 || g.a2 < 0)
            continue;
        int mo = gen_rmw_order(g.a1, g.a2);
        if (mo < 0 || !fail_ok(mo, f))
            return false;
        g.fail = fail_field(mo, f);
        *out = g;
        return true;
    }
    return false;
}

static int dir_of(char c)
{
    return c == 'W' ? GD_W : c == 'R' ? GD_R : c == '*' ? GD_IRR : -1;
}

/* "Fence", operation, Id, Ig, order, failure order, Sh, d|s, directions,
 * annotations. */
static bool parse_access_fence(const gen_arch *a, const char *s, gen_edge *out)
{
    gen_edge e = {.kind = GK_FENCED, .afence = true, .a1 = -1, .a2 = -1};
    if (!eat(&s, "Fence") || (e.op = eat_op(&s, GEN_NOPS)) < 0)
        return false;
    e.idem = eat(&s, "Id");
    e.unused = eat(&s, "Ig");
    if ((e.mo = eat_order(&s)) < 0)
        return false;
    if (is_cas(e.op)) {
        const char *t = s;
        int f = eat_order(&t);
        if (f >= 0) {
            if (!fail_ok(e.mo, f))
                return false;
            e.fail = fail_field(e.mo, f);
            s = t;
        }
    }
    e.shared = eat(&s, "Sh");
    switch (e.op) {
    case GEN_OP_LD:
        if (e.idem || !gen_atom_applies(a, e.mo, GD_R))
            return false;
        break;
    case GEN_OP_ST:
        if (e.unused || !gen_atom_applies(a, e.mo, GD_W))
            return false;
        break;
    default:
        break;
    }
    if (s[0] != 'd' && s[0] != 's')
        return false;
    e.diff = s[0] == 'd';
    if (!s[1] || !s[2] || (e.src = dir_of(s[1])) < 0 || (e.tgt = dir_of(s[2])) < 0)
        return false;
    s += 3;
    if (!*s) {
        *out = e;
        return true;
    }
    if (!match_annotations(a, &e, s))
        return false;
    *out = e;
    return true;
}

bool gen_rmw_parse(const gen_arch *a, const char *s, gen_edge *out)
{
    if (!a->c_rmw)
        return false;
    return parse_rmw_edge(a, s, out) || parse_access_fence(a, s, out);
}

void gen_rmw_base(const gen_edge *e, bool compat, strbuf *out)
{
    if (e->kind == GK_RMW) {
        if (e->op == GEN_OP_XCHG)
            sb_add(out, compat ? "Rmw" : "Exch");
        else
            sb_printf(out, "Rmw%s", gen_op_names[e->op]);
        if (e->unused)
            sb_add(out, "Ig");
        return;
    }
    sb_printf(out, "Fence%s%s%s%s", gen_op_names[e->op], e->idem ? "Id" : "", e->unused ? "Ig" : "",
              order_words[e->mo]);
    if (e->fail)
        sb_add(out, order_words[e->fail - 1]);
    if (e->shared)
        sb_add(out, "Sh");
}

void gen_rmw_annotations(const gen_arch *a, const gen_edge *e, strbuf *out)
{
    if (e->a1 < 0 && e->a2 < 0)
        return;
    sb_printf(out, "%s%s", e->a1 < 0 ? a->plain : a->atoms[e->a1], e->a2 < 0 ? a->plain : a->atoms[e->a2]);
    if (e->kind == GK_RMW && e->fail)
        sb_add(out, order_words[e->fail - 1]);
}

static int cmp_int(int x, int y)
{
    return x < y ? -1 : x > y;
}

int gen_rmw_cmp(const gen_edge *x, const gen_edge *y)
{
    int c;
    if ((c = cmp_int(x->afence, y->afence)) || (c = cmp_int(x->op, y->op)) || (c = cmp_int(x->mo, y->mo)) ||
        (c = cmp_int(x->fail, y->fail)) || (c = cmp_int(x->unused, y->unused)) ||
        (c = cmp_int(x->idem, y->idem)))
        return c;
    return cmp_int(x->shared, y->shared);
}
