/* Edges: their directions, diy7's names for them, parsing a name back,
 * and diy7's order on edges.
 *
 * A name is a base (Rfe, PodWR, MFencedWR, DpAddrdW, Exch) optionally
 * followed by two annotations, of the source and target event
 * (PodWWRlxRel).  diy7 accepts several spellings of the same annotated
 * edge: "Na" or "P" for no annotation, and "A" for the arch's default
 * atomic one; parsing tries every spelling diy7 would print. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gen/internal.h"

int gen_dir_src(const gen_edge *e)
{
    switch (e->kind) {
    case GK_PO: case GK_FENCED: return e->src;
    case GK_DP: case GK_FR: case GK_RMW: return GD_R;
    case GK_WS: case GK_RF: return GD_W;
    }
    return GD_IRR;
}

int gen_dir_tgt(const gen_edge *e)
{
    switch (e->kind) {
    case GK_PO: case GK_FENCED: case GK_DP: return e->tgt;
    case GK_RF: return GD_R;
    case GK_WS: case GK_FR: case GK_RMW: return GD_W;
    }
    return GD_IRR;
}

/* Only program-order edges carry their own directions. */
void gen_set_src(gen_edge *e, int d)
{
    if (e->kind == GK_PO || e->kind == GK_FENCED)
        e->src = d;
}

void gen_set_tgt(gen_edge *e, int d)
{
    if (e->kind == GK_PO || e->kind == GK_FENCED || e->kind == GK_DP)
        e->tgt = d;
}

bool gen_is_com(const gen_edge *e)
{
    return e->kind == GK_RF || e->kind == GK_FR || e->kind == GK_WS;
}

bool gen_is_ext(const gen_edge *e)
{
    return gen_is_com(e) && e->ext;
}

bool gen_same_loc(const gen_edge *e)
{
    if (e->kind == GK_PO || e->kind == GK_FENCED || e->kind == GK_DP)
        return !e->diff;
    return true;
}

bool gen_atom_applies(const gen_arch *a, int atom, int dir)
{
    if (atom < 0 || dir == GD_IRR)
        return true;
    return ((dir == GD_W ? a->atom_w : a->atom_r) >> atom) & 1;
}

static const char *dir_char(int d)
{
    return d == GD_W ? "W" : d == GD_R ? "R" : "*";
}

static const char *const dp_names[] = {"Addr", "Data", "Ctrl"};

/* The base name; COMPAT selects diy7's older spellings (Ws, Rmw). */
static void base_name(const gen_arch *a, const gen_edge *e, bool compat, strbuf *out)
{
    const char *ie = e->ext ? "e" : "i";
    const char *sd = e->diff ? "d" : "s";
    switch (e->kind) {
    case GK_RF: sb_printf(out, "Rf%s", ie); break;
    case GK_FR: sb_printf(out, "Fr%s", ie); break;
    case GK_WS: sb_printf(out, "%s%s", compat ? "Ws" : "Co", ie); break;
    case GK_PO: sb_printf(out, "Po%s%s%s", sd, dir_char(e->src), dir_char(e->tgt)); break;
    case GK_FENCED:
        if (e->afence)
            gen_rmw_base(e, compat, out);
        else
            sb_add(out, a->fences[e->fence]);
        sb_printf(out, "%s%s%s", sd, dir_char(e->src), dir_char(e->tgt));
        break;
    case GK_DP: sb_printf(out, "Dp%s%s%s", dp_names[e->dp], sd, dir_char(e->tgt)); break;
    case GK_RMW:
        if (a->c_rmw)
            gen_rmw_base(e, compat, out);
        else
            sb_add(out, compat ? "Rmw" : "Exch");
        break;
    }
}

static const char *atom_or(const gen_arch *a, int atom, const char *none)
{
    return atom < 0 ? none : a->atoms[atom];
}

void gen_edge_name(const gen_arch *a, const gen_edge *e, strbuf *out)
{
    base_name(a, e, false, out);
    if (e->kind == GK_RMW && a->c_rmw)
        gen_rmw_annotations(a, e, out);
    else if (e->a1 >= 0 || e->a2 >= 0)
        sb_printf(out, "%s%s", atom_or(a, e->a1, a->plain), atom_or(a, e->a2, a->plain));
}

/* Does REST spell the annotations (A1, A2) in one of diy7's four ways? */
bool gen_annotations_match(const gen_arch *a, int a1, int a2, const char *rest)
{
    char buf[64];
    if (a1 < 0 && a2 < 0)
        return rest[0] == '\0';
    snprintf(buf, sizeof buf, "%s%s", atom_or(a, a1, a->plain), atom_or(a, a2, a->plain));
    if (!strcmp(buf, rest))
        return true;
    if ((a1 < 0) != (a2 < 0)) {
        snprintf(buf, sizeof buf, "%s%s", atom_or(a, a1, "P"), atom_or(a, a2, "P"));
        if (!strcmp(buf, rest))
            return true;
    }
    if (a->as_a >= 0 && (a1 == a->as_a || a2 == a->as_a)) {
        const char *s1 = a1 == a->as_a ? "A" : atom_or(a, a1, a->plain);
        const char *s2 = a2 == a->as_a ? "A" : atom_or(a, a2, a->plain);
        snprintf(buf, sizeof buf, "%s%s", s1, s2);
        if (!strcmp(buf, rest))
            return true;
        if ((a1 < 0) != (a2 < 0)) {
            s1 = a1 == a->as_a ? "A" : "P";
            s2 = a2 == a->as_a ? "A" : "P";
            snprintf(buf, sizeof buf, "%s%s", s1, s2);
            if (!strcmp(buf, rest))
                return true;
        }
    }
    return false;
}

/* Try E's spellings (base names BASES[0..NB-1]) against S; annotations
 * are allowed when ANNOTATED. */
static bool try_edge(const gen_arch *a, gen_edge e, const char *const *bases, int nb, bool annotated,
                     const char *s, gen_edge *out)
{
    for (int b = 0; b < nb; b++) {
        size_t len = strlen(bases[b]);
        if (strncmp(s, bases[b], len))
            continue;
        const char *rest = s + len;
        if (!*rest) {
            e.a1 = e.a2 = -1;
            *out = e;
            return true;
        }
        if (!annotated)
            continue;
        for (int a1 = -1; a1 < a->natoms; a1++)
            for (int a2 = -1; a2 < a->natoms; a2++) {
                if (!gen_atom_applies(a, a1, gen_dir_src(&e)) || !gen_atom_applies(a, a2, gen_dir_tgt(&e)))
                    continue;
                if (gen_annotations_match(a, a1, a2, rest)) {
                    e.a1 = a1;
                    e.a2 = a2;
                    *out = e;
                    return true;
                }
            }
    }
    return false;
}

/* Every edge of the arch, with its names, handed to try_edge. */
static bool parse_on(const gen_arch *a, const char *s, gen_edge *out)
{
    static const int dirs[] = {GD_W, GD_R, GD_IRR};
    strbuf b1 = {0}, b2 = {0};
    bool found = false;
    if (gen_rmw_parse(a, s, out))
        return true;
#define TRY(e, annotated)                                                           \
    do {                                                                            \
        b1.len = b2.len = 0;                                                        \
        base_name(a, &(e), false, &b1);                                             \
        base_name(a, &(e), true, &b2);                                              \
        const char *names[2] = {b1.s, b2.s};                                        \
        if (try_edge(a, (e), names, strcmp(b1.s, b2.s) ? 2 : 1, (annotated), s, out)) { \
            found = true;                                                           \
            goto done;                                                              \
        }                                                                           \
    } while (0)
    for (int k = GK_RF; k <= GK_WS; k++)
        for (int ext = 0; ext < 2; ext++) {
            gen_edge e = {.kind = k, .ext = ext};
            e.src = gen_dir_src(&e);
            e.tgt = gen_dir_tgt(&e);
            TRY(e, true);
        }
    if (a->rmw) {
        gen_edge e = {.kind = GK_RMW, .src = GD_R, .tgt = GD_W};
        TRY(e, false);
    }
    for (int diff = 0; diff < 2; diff++)
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++) {
                gen_edge e = {.kind = GK_PO, .diff = diff, .src = dirs[i], .tgt = dirs[j]};
                TRY(e, true);
                for (int f = 0; f < a->nfences; f++) {
                    gen_edge g = {.kind = GK_FENCED, .diff = diff, .src = dirs[i], .tgt = dirs[j], .fence = f};
                    TRY(g, true);
                }
                /* "Fenced**": the strongest fence, never annotated */
                gen_edge g = {.kind = GK_FENCED, .diff = diff, .src = dirs[i], .tgt = dirs[j], .fence = a->strong,
                              .a1 = -1, .a2 = -1};
                char alias[16];
                snprintf(alias, sizeof alias, "Fence%s%s%s", diff ? "d" : "s", dir_char(dirs[i]), dir_char(dirs[j]));
                const char *names[1] = {alias};
                if (try_edge(a, g, names, 1, false, s, out)) {
                    found = true;
                    goto done;
                }
            }
    for (int diff = 0; diff < 2; diff++)
        for (int dp = 0; dp < 3; dp++)
            for (int t = 0; t < 2; t++) {
                unsigned mask = dirs[t] == GD_R ? a->dp_r : a->dp_w;
                if (!((mask >> dp) & 1))
                    continue;
                gen_edge e = {.kind = GK_DP, .diff = diff, .dp = dp, .src = GD_R, .tgt = dirs[t]};
                TRY(e, true);
            }
    /* diy7's default dependencies: Dpd* and DpdR (address), DpdW (data),
     * CtrldR and CtrldW (control), each only where the arch has it. */
    for (int diff = 0; diff < 2; diff++) {
        const char *sd = diff ? "d" : "s";
        struct { const char *tag; int dp; int tgt; unsigned mask; } defs[] = {
            {"Dp", GEN_DP_ADDR, GD_IRR, a->dp_r & a->dp_w}, {"Dp", GEN_DP_ADDR, GD_R, a->dp_r},
            {"Ctrl", GEN_DP_CTRL, GD_R, a->dp_r}, {"Dp", GEN_DP_DATA, GD_W, a->dp_w},
            {"Ctrl", GEN_DP_CTRL, GD_W, a->dp_w},
        };
        for (size_t i = 0; i < sizeof defs / sizeof *defs; i++) {
            if (!((defs[i].mask >> defs[i].dp) & 1))
                continue;
            char alias[16];
            snprintf(alias, sizeof alias, "%s%s%s", defs[i].tag, sd, dir_char(defs[i].tgt));
            gen_edge e = {.kind = GK_DP, .diff = diff, .dp = defs[i].dp, .src = GD_R, .tgt = defs[i].tgt};
            const char *names[1] = {alias};
            if (try_edge(a, e, names, 1, false, s, out)) {
                found = true;
                goto done;
            }
        }
    }
#undef TRY
done:
    sb_free(&b1);
    sb_free(&b2);
    return found;
}

int gen_edge_parse(const gen_arch *a, const char *s, gen_edge *out)
{
    if (!*s || strlen(s) > 40)
        return 0;
    if (parse_on(a, s, out))
        return 1;
    for (int id = GEN_X86; id <= GEN_JAVA; id++) {
        gen_edge tmp;
        if ((gen_arch_id)id != a->id && parse_on(gen_arch_get(id), s, &tmp))
            return -1;
    }
    return 0;
}

/* Directions as OCaml orders the constructors Irr < NoDir < Dir W < Dir R. */
static int dir_rank(int d)
{
    return d == GD_IRR ? 0 : d == GD_W ? 2 : 3;
}

static int cmp_int(int x, int y)
{
    return x < y ? -1 : x > y;
}

/* OCaml's compare on diy7's edge record {edge; a1; a2}: constructor
 * first (Rf < Fr < Ws < Po < Fenced < Dp < Rmw), then its fields, then
 * the annotations (none before any). */
int gen_edge_poly_cmp(const gen_edge *x, const gen_edge *y)
{
    int c = cmp_int(x->kind, y->kind);
    if (c)
        return c;
    switch (x->kind) {
    case GK_RF: case GK_FR: case GK_WS:
        c = cmp_int(x->ext, y->ext);    /* Int < Ext */
        break;
    case GK_PO:
        if (!(c = cmp_int(x->diff, y->diff)) && !(c = cmp_int(dir_rank(x->src), dir_rank(y->src))))
            c = cmp_int(dir_rank(x->tgt), dir_rank(y->tgt));
        break;
    case GK_FENCED:
        /* access fences after the arch's fences */
        if (x->afence || y->afence) {
            if ((c = gen_rmw_cmp(x, y)))
                break;
        }
        if (!(c = cmp_int(x->fence, y->fence)) && !(c = cmp_int(x->diff, y->diff)) &&
            !(c = cmp_int(dir_rank(x->src), dir_rank(y->src))))
            c = cmp_int(dir_rank(x->tgt), dir_rank(y->tgt));
        break;
    case GK_DP:
        if (!(c = cmp_int(x->dp, y->dp)) && !(c = cmp_int(x->diff, y->diff)))
            c = cmp_int(dir_rank(x->tgt), dir_rank(y->tgt));
        break;
    case GK_RMW:
        c = gen_rmw_cmp(x, y);
        break;
    }
    if (c)
        return c;
    /* None is an immediate, Some a block: None < Some, then by atom */
    if ((c = cmp_int(x->a1 >= 0, y->a1 >= 0)) || (c = cmp_int(x->a1, y->a1)))
        return c;
    if ((c = cmp_int(x->a2 >= 0, y->a2 >= 0)) || (c = cmp_int(x->a2, y->a2)))
        return c;
    return 0;
}

bool gen_edge_equal(const gen_edge *x, const gen_edge *y)
{
    return gen_edge_poly_cmp(x, y) == 0;
}

static int cmp_str(const void *x, const void *y)
{
    return strcmp(*(char *const *)x, *(char *const *)y);
}

/* Every plain spelling, for --list: generated the way parse_on walks. */
char *gen_edge_list(gen_arch_id id)
{
    const gen_arch *a = gen_arch_get(id);
    static const int dirs[] = {GD_W, GD_R, GD_IRR};
    char **names = NULL;
    size_t n = 0, cap = 0;
    strbuf b = {0};
#define ADD(e)                                   \
    do {                                         \
        b.len = 0;                               \
        base_name(a, &(e), false, &b);           \
        VEC_PUSH(names, n, cap, xstrdup(b.s));   \
    } while (0)
    for (int k = GK_RF; k <= GK_WS; k++)
        for (int ext = 0; ext < 2; ext++) {
            gen_edge e = {.kind = k, .ext = ext};
            ADD(e);
        }
    if (a->rmw) {
        gen_edge e = {.kind = GK_RMW};
        ADD(e);
    }
    if (a->c_rmw) {
        /* the Rmw edges, and each access fence in each order without its
         * modifiers (Id, Ig, Sh, a failure order) */
        for (int op = 0; op < GEN_OP_LD; op++)
            for (int ig = 0; ig < 2; ig++) {
                gen_edge e = {.kind = GK_RMW, .op = op, .unused = ig};
                if (!ig || (op != GEN_OP_CAS && op != GEN_OP_CASW))
                    ADD(e);
            }
        for (int op = 0; op < GEN_NOPS; op++)
            for (int mo = 0; mo < a->natoms; mo++)
                for (int diff = 0; diff < 2; diff++) {
                    if ((op == GEN_OP_LD && !gen_atom_applies(a, mo, GD_R)) ||
                        (op == GEN_OP_ST && !gen_atom_applies(a, mo, GD_W)))
                        continue;
                    gen_edge g = {.kind = GK_FENCED, .afence = true, .op = op, .mo = mo, .diff = diff,
                                  .src = GD_IRR, .tgt = GD_IRR};
                    ADD(g);
                }
    }
    for (int diff = 0; diff < 2; diff++)
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++) {
                gen_edge e = {.kind = GK_PO, .diff = diff, .src = dirs[i], .tgt = dirs[j]};
                ADD(e);
                for (int f = 0; f < a->nfences; f++) {
                    gen_edge g = {.kind = GK_FENCED, .diff = diff, .src = dirs[i], .tgt = dirs[j], .fence = f};
                    ADD(g);
                }
            }
    for (int diff = 0; diff < 2; diff++)
        for (int dp = 0; dp < 3; dp++)
            for (int t = 0; t < 2; t++) {
                unsigned mask = dirs[t] == GD_R ? a->dp_r : a->dp_w;
                if ((mask >> dp) & 1) {
                    gen_edge e = {.kind = GK_DP, .diff = diff, .dp = dp, .tgt = dirs[t]};
                    ADD(e);
                }
            }
#undef ADD
    qsort(names, n, sizeof *names, cmp_str);
    b.len = 0;
    for (size_t i = 0; i < n; i++) {
        sb_printf(&b, "%s%s", i ? " " : "", names[i]);
        free(names[i]);
    }
    free(names);
    return sb_take(&b);
}
