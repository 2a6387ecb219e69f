/* Every fully annotated C edge, for a sampler that draws cycles at
 * random: each edge with its directions given and each annotation its
 * events can take (none included), spelled as gen_edge_name prints it,
 * so that each name parses back to the edge it came from.  Grouped by
 * kind (communications, program order, fences, dependencies, Rmw edges,
 * access fences), in the order they are generated here. */
#include <stdlib.h>
#include "gen/internal.h"

typedef struct vocab {
    const gen_arch *a;
    strbuf out;
} vocab;

static void add(vocab *v, const gen_edge *e)
{
    if (v->out.len)
        sb_addc(&v->out, ' ');
    gen_edge_name(v->a, e, &v->out);
}

/* E with every pair of annotations its source and target take. */
static void annotated(vocab *v, gen_edge e)
{
    for (int a1 = -1; a1 < v->a->natoms; a1++)
        for (int a2 = -1; a2 < v->a->natoms; a2++) {
            if (!gen_atom_applies(v->a, a1, gen_dir_src(&e)) || !gen_atom_applies(v->a, a2, gen_dir_tgt(&e)))
                continue;
            e.a1 = a1;
            e.a2 = a2;
            add(v, &e);
        }
}

static const int dirs[2] = {GD_W, GD_R};

/* Program-order-like edges (Po, a fence, an access fence) in every
 * direction, both between different locations and the same. */
static void po_like(vocab *v, gen_edge e)
{
    for (int diff = 1; diff >= 0; diff--)
        for (int i = 0; i < 2; i++)
            for (int j = 0; j < 2; j++) {
                e.diff = diff;
                e.src = dirs[i];
                e.tgt = dirs[j];
                annotated(v, e);
            }
}

static bool is_cas(int op)
{
    return op == GEN_OP_CAS || op == GEN_OP_CASW;
}

/* Each Rmw edge: every operation, kept or ignored result, each pair of
 * annotations that makes a C order, and a compare-exchange's every
 * failure order. */
static void rmw_edges(vocab *v)
{
    for (int op = 0; op < GEN_OP_LD; op++)
        for (int ig = 0; ig < 2; ig++) {
            if (ig && is_cas(op))
                continue;
            for (int r = 0; r < v->a->natoms; r++)
                for (int w = 0; w < v->a->natoms; w++) {
                    int mo = gen_rmw_order(r, w);
                    if (mo < 0)
                        continue;
                    gen_edge e = {.kind = GK_RMW, .src = GD_R, .tgt = GD_W, .op = op, .unused = ig,
                                  .a1 = r, .a2 = w};
                    e.fail = 0;
                    add(v, &e);
                    for (int f = 0; is_cas(op) && f < v->a->natoms; f++) {
                        strbuf b = {0};
                        e.fail = f + 1;
                        gen_edge_name(v->a, &e, &b);
                        gen_edge back;
                        /* only the orders C allows, each spelled once */
                        bool ok = gen_rmw_parse(v->a, b.s, &back) && back.fail == e.fail;
                        sb_free(&b);
                        if (ok)
                            add(v, &e);
                    }
                }
        }
}

/* Each access fence: every operation, order, failure order, Id, Ig and
 * Sh that make sense, in every direction and annotation. */
static void access_fences(vocab *v)
{
    for (int op = 0; op < GEN_NOPS; op++)
        for (int mo = 0; mo < v->a->natoms; mo++)
            for (int fail = 0; fail <= (is_cas(op) ? v->a->natoms : 0); fail++)
                for (int flags = 0; flags < 8; flags++) {
                    gen_edge e = {.kind = GK_FENCED, .afence = true, .op = op, .mo = mo, .fail = fail,
                                  .idem = flags & 1, .unused = flags >> 1 & 1, .shared = flags >> 2 & 1,
                                  .diff = true, .src = GD_W, .tgt = GD_R, .a1 = -1, .a2 = -1};
                    /* keep the fences whose name parses back to them */
                    strbuf b = {0};
                    gen_edge_name(v->a, &e, &b);
                    gen_edge back;
                    bool ok = gen_rmw_parse(v->a, b.s, &back) && gen_edge_equal(&back, &e);
                    sb_free(&b);
                    if (ok)
                        po_like(v, e);
                }
}

char *gen_c_vocabulary(void)
{
    vocab v = {.a = gen_arch_get(GEN_C)};
    for (int k = GK_RF; k <= GK_WS; k++)
        for (int ext = 1; ext >= 0; ext--) {
            gen_edge e = {.kind = k, .ext = ext};
            e.src = gen_dir_src(&e);
            e.tgt = gen_dir_tgt(&e);
            annotated(&v, e);
        }
    po_like(&v, (gen_edge){.kind = GK_PO});
    for (int f = 0; f < v.a->nfences; f++)
        po_like(&v, (gen_edge){.kind = GK_FENCED, .fence = f});
    for (int diff = 1; diff >= 0; diff--)
        for (int dp = 0; dp < 3; dp++)
            for (int t = 0; t < 2; t++) {
                unsigned mask = dirs[t] == GD_R ? v.a->dp_r : v.a->dp_w;
                if ((mask >> dp) & 1)
                    annotated(&v, (gen_edge){.kind = GK_DP, .diff = diff, .dp = dp, .src = GD_R, .tgt = dirs[t]});
            }
    rmw_edges(&v);
    access_fences(&v);
    return sb_take(&v.out);
}
