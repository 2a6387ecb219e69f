/* The values a model binds to top-level names, for pictures of executions
 * (herd's `-show`): a name is looked up among the bindings in force when
 * the model ends, the instructions it needs run besides those the checks
 * need (an unused `let` is otherwise never evaluated), and the value the
 * first consistent branch gives it is copied out.  Apart from the
 * evaluator: this only asks for values, it decides nothing. */
#include <stdlib.h>
#include <string.h>
#include "model/cat/cat_impl.h"
#include "util/mem.h"

static int find_slot(const cat_model *m, const char *name)
{
    for (int k = 0; k < m->ntop_names; k++)
        if (!strcmp(m->top_names[k], name)) return m->top_slots[k];
    return -1;
}

static bool is_relation(int kind)
{
    return kind == CV_REL || kind == CV_EMPTY || kind == CV_UNIV;
}

/* Slots of NAMES; false + diag naming the first the model does not bind. */
static bool find_slots(const cat_model *m, const char *const *names, int n, int *slots, diag *d)
{
    for (int k = 0; k < n; k++) {
        slots[k] = find_slot(m, names[k]);
        if (slots[k] < 0)
            return diag_error(d, NULL, 0, 0, "cannot show '%s': model %s defines no such name", names[k],
                              m->name);
    }
    return true;
}

/* Run R on X with the slots wanted; *REACHED says whether a consistent
 * branch was reached (and so OUT and KINDS filled). */
static bool run_wanted(cat_run *r, const exec *x, const int *slots, int n, exec_rel *out, int *kinds,
                       bool *reached, diag *d)
{
    bool *live = xcalloc((size_t)r->m->ntop + 1, sizeof *live);
    cat_liveness(r->m, slots, n, live);
    r->want = (cat_want){live, slots, n, out, kinds, false};
    cat_verdict v;
    bool ok = cat_run_check(r, x, &v, d);
    *reached = r->want.done;
    r->want = (cat_want){0};
    free(live);
    return ok;
}

static bool check_kinds(const cat_model *m, const char *const *names, int n, const int *kinds, diag *d)
{
    for (int k = 0; k < n; k++)
        if (!is_relation(kinds[k]))
            return diag_error(d, NULL, 0, 0, "cannot show '%s': in model %s it is a %s, not a relation",
                              names[k], m->name, cat_kind_name(kinds[k]));
    return true;
}

bool cat_model_check_relations(const cat_model *m, const char *const *names, int n, diag *d)
{
    if (n <= 0) return true;
    int *slots = xcalloc((size_t)n, sizeof *slots), *kinds = xcalloc((size_t)n, sizeof *kinds);
    int *found = xcalloc((size_t)n, sizeof *found), nfound = 0;
    exec_rel *out = xcalloc((size_t)n, sizeof *out);
    exec *x = xcalloc(1, sizeof *x);
    for (int k = 0; k < n; k++)
        if ((slots[k] = find_slot(m, names[k])) >= 0) found[nfound++] = slots[k];
    /* A dry run on no events, as at load time: every value keeps its kind
     * there.  A model whose `with` finds nothing to choose from never
     * reaches its end; its values are then checked when drawn. */
    cat_run *r = cat_run_new(m);
    r->dry = true;
    bool reached = false;
    bool ok = !nfound || run_wanted(r, x, found, nfound, out, kinds, &reached, d);
    cat_run_free(r);
    /* the first bad name as given */
    for (int k = 0, f = 0; ok && k < n; k++) {
        if (slots[k] < 0)
            ok = find_slots(m, &names[k], 1, &slots[k], d);
        else if (reached)
            ok = check_kinds(m, &names[k], 1, &kinds[f++], d);
    }
    free(x);
    free(out);
    free(found);
    free(kinds);
    free(slots);
    return ok;
}

bool cat_run_relations(cat_run *r, const exec *x, const char *const *names, int n, exec_rel *out, diag *d)
{
    if (n <= 0) return true;
    int *slots = xcalloc((size_t)n, sizeof *slots), *kinds = xcalloc((size_t)n, sizeof *kinds);
    bool reached = false;
    bool ok = find_slots(r->m, names, n, slots, d) && run_wanted(r, x, slots, n, out, kinds, &reached, d);
    if (ok && !reached)
        ok = diag_fail(d, "model %s rejects the execution whose '%s' was asked for", r->m->name, names[0]);
    if (ok)
        ok = check_kinds(r->m, names, n, kinds, d);
    free(kinds);
    free(slots);
    return ok;
}

bool cat_run_relation(cat_run *r, const exec *x, const char *name, exec_rel *out, diag *d)
{
    return cat_run_relations(r, x, &name, 1, out, d);
}
