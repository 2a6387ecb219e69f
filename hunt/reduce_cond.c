/* A reduced test's condition, printed as frontend/print.c prints one but
 * without the atoms on what the reduction dropped: the reducer never
 * frees nodes of the tree it edits, so it leaves them out here instead. */
#include <inttypes.h>
#include "hunt/internal.h"

/* As frontend/print.c writes a location: the reduced test must read back
 * as the frontend's printer would have written it. */
static void print_loc(strbuf *b, const fe_loc *l, bool brackets)
{
    if (l->kind == FE_LOC_REG && l->symbolic)
        sb_printf(b, "%%%s", l->name);
    else if (l->kind == FE_LOC_REG)
        sb_printf(b, "%d:%s", l->thread, l->text ? l->text : l->name);
    else if (l->index >= 0)
        sb_printf(b, "%s[%d]", l->name, l->index);
    else if (brackets)
        sb_printf(b, "[%s]", l->name);
    else
        sb_add(b, l->name);
}

/* A value with its spelling, which herd's hash covers. */
static void print_value(strbuf *b, const fe_value *v)
{
    if (v->kind == FE_VAL_ADDR)
        sb_add(b, v->sym);
    else if (v->text)
        sb_add(b, v->text);
    else
        sb_printf(b, "%" PRId64, v->i);
}

typedef struct pctx {
    hunt_atom_gone gone;
    void *ctx;
} pctx;

/* Does P hold an atom that is gone? */
static bool holds_gone(const fe_prop *p, const pctx *c)
{
    if (!p)
        return false;
    if (p->kind == FE_P_ATOM)
        return c->gone && c->gone(p, c->ctx);
    return holds_gone(p->l, c) || holds_gone(p->r, c);
}

/* Is anything of P left: an and with one side left is that side. */
static bool left(const fe_prop *p, const pctx *c)
{
    if (p->kind == FE_P_AND)
        return left(p->l, c) || left(p->r, c);
    return !holds_gone(p, c);
}

/* P's precedence as printed: what is left of it, not what it was. */
static int level(const fe_prop *p, const pctx *c)
{
    switch (p->kind) {
    case FE_P_OR: return 1;
    case FE_P_AND:
        /* an and with one side gone prints as that side */
        if (!left(p->l, c))
            return level(p->r, c);
        if (!left(p->r, c))
            return level(p->l, c);
        return 2;
    case FE_P_IMPLIES: return 3;
    default: return 5;
    }
}

/* P at least at level MINLVL (parenthesised below it), gone atoms left out. */
static void print_prop(strbuf *b, const fe_prop *p, int minlvl, const pctx *c)
{
    if (p->kind == FE_P_AND && (!left(p->l, c) || !left(p->r, c))) {
        print_prop(b, left(p->l, c) ? p->l : p->r, minlvl, c);
        return;
    }
    int lvl = level(p, c);
    bool paren = lvl < minlvl;
    if (paren)
        sb_addc(b, '(');
    switch (p->kind) {
    case FE_P_TRUE: sb_add(b, "true"); break;
    case FE_P_FALSE: sb_add(b, "false"); break;
    case FE_P_ATOM:
        print_loc(b, &p->lhs, true);
        sb_add(b, p->ne ? "!=" : "=");
        if (p->rhs_is_loc)
            print_loc(b, &p->rhs_loc, true);
        else
            print_value(b, &p->rhs);
        break;
    case FE_P_NOT:
        sb_add(b, "~");
        print_prop(b, p->l, 5, c);
        break;
    case FE_P_AND:
    case FE_P_OR:
    case FE_P_IMPLIES: {
        static const struct { const char *op; int l, r; } bin[] = {
            [FE_P_AND] = {" /\\ ", 2, 3}, [FE_P_OR] = {" \\/ ", 1, 2}, [FE_P_IMPLIES] = {" => ", 4, 3},
        };
        print_prop(b, p->l, bin[p->kind].l, c);
        sb_add(b, bin[p->kind].op);
        print_prop(b, p->r, bin[p->kind].r, c);
        break;
    }
    }
    if (paren)
        sb_addc(b, ')');
}

/* Does P name anything (a condition of true or false names nothing)? */
static bool has_atom(const fe_prop *p)
{
    return p && (p->kind == FE_P_ATOM || has_atom(p->l) || has_atom(p->r));
}

bool hunt_red_cond_kept(const fe_test *t, hunt_atom_gone masked, void *ctx)
{
    pctx pc = {masked, ctx};
    return !has_atom(t->cond.prop) || left(t->cond.prop, &pc);
}

void hunt_red_print_cond(strbuf *b, const fe_test *t, hunt_atom_gone masked, void *ctx)
{
    const fe_cond *c = &t->cond;
    pctx pc = {masked, ctx};
    if (c->nlocations) {
        sb_add(b, "locations [");
        for (int i = 0; i < c->nlocations; i++) {
            print_loc(b, &c->locations[i], false);
            sb_add(b, i + 1 < c->nlocations ? "; " : ";");
        }
        sb_add(b, "]\n");
    }
    pctx none = {0};
    if (c->filter) {
        sb_add(b, "filter ");
        print_prop(b, c->filter, 0, &none);
        sb_addc(b, '\n');
    }
    static const char *const q[] = {"exists", "~exists", "forall"};
    sb_printf(b, "%s (", q[c->quant]);
    if (c->prop && left(c->prop, &pc))
        print_prop(b, c->prop, 0, &pc);
    else
        sb_add(b, "true");
    sb_add(b, ")\n");
}
