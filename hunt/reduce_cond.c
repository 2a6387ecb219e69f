/* A reduced test's condition, printed by frontend/print.c's printer but
 * without the atoms on what the reduction dropped: the reducer never
 * frees nodes of the tree it edits, so it leaves them out here instead. */
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

/* Does P name anything (a condition of true or false names nothing)? */
static bool has_atom(const fe_prop *p)
{
    return p && (p->kind == FE_P_ATOM || has_atom(p->l) || has_atom(p->r));
}

bool hunt_red_cond_kept(const fe_test *t, fe_prop_keep keep, void *ctx)
{
    return !has_atom(t->cond.prop) || fe_prop_kept(t->cond.prop, keep, ctx);
}

void hunt_red_print_cond(strbuf *b, const fe_test *t, fe_prop_keep keep, void *ctx)
{
    const fe_cond *c = &t->cond;
    if (c->nlocations) {
        sb_add(b, "locations [");
        for (int i = 0; i < c->nlocations; i++) {
            print_loc(b, &c->locations[i], false);
            sb_add(b, i + 1 < c->nlocations ? "; " : ";");
        }
        sb_add(b, "]\n");
    }
    if (c->filter) {
        sb_add(b, "filter ");
        fe_print_prop(b, c->filter, NULL, NULL);
        sb_addc(b, '\n');
    }
    static const char *const q[] = {"exists", "~exists", "forall"};
    sb_printf(b, "%s (", q[c->quant]);
    if (c->prop)
        fe_print_prop(b, c->prop, keep, ctx);
    else
        sb_add(b, "true");
    sb_add(b, ")\n");
}
