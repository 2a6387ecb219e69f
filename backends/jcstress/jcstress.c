/* jcstress test sources from IR and a behaviour set (see jcstress.h). */
#include "backends/jcstress/jcstress.h"
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "backends/java/javagen.h"

bool jcstress_interesting(const ir_test *t, bool cond)
{
    return t->quant == IR_Q_FORALL ? !cond : cond;
}

/* perm[k] = index in B's observables of our k-th observable. */
static int *match_observables(const javagen_names *n, const bset *b)
{
    if (b->nobs != n->nobs)
        return NULL;
    int *perm = xcalloc((size_t)n->nobs + 1, sizeof *perm);
    for (int k = 0; k < n->nobs; k++) {
        perm[k] = -1;
        for (int j = 0; j < b->nobs; j++)
            if (ir_obs_equal(&n->obs[k], &b->obs[j]))
                perm[k] = j;
        if (perm[k] < 0) {
            free(perm);
            return NULL;
        }
    }
    return perm;
}

/* jcstress matches ids as regular expressions: quote the metacharacters. */
static void regex_quoted(strbuf *out, const char *id)
{
    for (const char *p = id; *p; p++) {
        if (strchr("\\.[]{}()*+?^$|", *p))
            sb_addc(out, '\\');
        sb_addc(out, *p);
    }
}

static void result_class_name(strbuf *out, int nobs)
{
    if (nobs >= 1 && nobs <= 8) {
        for (int i = 0; i < nobs; i++)
            sb_addc(out, 'I');
        sb_add(out, "_Result");
    } else {
        sb_add(out, "Observed");
    }
}

/* A @Result class for counts jcstress ships no class for (0 or 9+). */
static void custom_result(strbuf *out, int nobs)
{
    sb_add(out, "    /* jcstress has no shipped result class for this many values. */\n");
    sb_add(out, "    @Result\n    public static class Observed implements java.io.Serializable {\n");
    for (int i = 1; i <= nobs; i++)
        sb_printf(out, "        public int r%d;\n", i);
    sb_add(out, "        public int jcstress_trap;\n\n");
    sb_add(out, "        @Override\n        public boolean equals(Object o) {\n");
    sb_add(out, "            if (this == o)\n                return true;\n");
    sb_add(out, "            if (!(o instanceof Observed))\n                return false;\n");
    sb_add(out, "            Observed that = (Observed) o;\n            return true");
    for (int i = 1; i <= nobs; i++)
        sb_printf(out, "\n                && r%d == that.r%d", i, i);
    sb_add(out, ";\n        }\n\n");
    sb_add(out, "        @Override\n        public int hashCode() {\n            int h = 0;\n");
    for (int i = 1; i <= nobs; i++)
        sb_printf(out, "            h = 31 * h + r%d;\n", i);
    sb_add(out, "            return h;\n        }\n\n");
    sb_add(out, "        @Override\n        public String toString() {\n            return \"\"");
    for (int i = 1; i <= nobs; i++)
        sb_printf(out, " + %sr%d", i > 1 ? "\", \" + " : "", i);
    sb_add(out, ";\n        }\n    }\n\n");
}

static void store_field(strbuf *out, void *ctx, int k, const char *expr)
{
    (void)ctx;
    sb_printf(out, "r.r%d = %s;", k + 1, expr);
}

static bool outcomes(strbuf *out, const ir_test *t, const javagen_names *n, const bset *b,
                     const int *perm, const char *model, diag *d)
{
    if (n->nobs == 0) {
        /* Nothing observed: every result prints as "", which jcstress takes
         * for the default case, so the default case is the verdict. */
        bool hot = b->nstates > 0 && jcstress_interesting(t, b->states[0].cond);
        const char *ex = b->nstates > 0 || b->undef ? (hot ? "ACCEPTABLE_INTERESTING" : "ACCEPTABLE")
                                                    : "FORBIDDEN";
        sb_printf(out, "@Outcome(expect = Expect.%s, desc = \"%s by ", ex,
                  *ex == 'F' ? "forbidden" : "allowed");
        javagen_string(out, model);
        sb_add(out, " (the test observes nothing)\")\n");
        return true;
    }
    ir_val *vals = xcalloc((size_t)n->nobs + 1, sizeof *vals);
    strbuf id = {0};
    for (int s = 0; s < b->nstates; s++) {
        for (int k = 0; k < n->nobs; k++) {
            vals[k] = b->states[s].vals[perm[k]];
            if (vals[k] < INT32_MIN || vals[k] > INT32_MAX || IR_IS_ADDR(vals[k])) {
                diag_error(d, t->file, 1, 1, "final value %" PRId64 " has no Java int form",
                           vals[k]);
                free(vals);
                sb_free(&id);
                return false;
            }
        }
        javagen_outcome_id(&id, vals, n->nobs);
        bool hot = jcstress_interesting(t, b->states[s].cond);
        sb_add(out, "@Outcome(id = \"");
        strbuf q = {0};
        regex_quoted(&q, id.s ? id.s : "");
        javagen_string(out, q.s ? q.s : "");
        sb_free(&q);
        sb_printf(out, "\", expect = Expect.%s, desc = \"allowed by ",
                  hot ? "ACCEPTABLE_INTERESTING" : "ACCEPTABLE");
        javagen_string(out, model);
        sb_printf(out, "%s\")\n", hot ? (t->quant == IR_Q_FORALL ? "; the forall condition fails"
                                                                 : "; the condition holds")
                                      : "");
        free(sb_take(&id));
    }
    free(vals);
    sb_free(&id);
    if (b->undef) {
        sb_add(out, "@Outcome(expect = Expect.ACCEPTABLE, desc = \"");
        javagen_string(out, model);
        sb_add(out, " flags a data race: the test is undefined, every outcome is acceptable\")\n");
    } else {
        sb_add(out, "@Outcome(expect = Expect.FORBIDDEN, desc = \"forbidden by ");
        javagen_string(out, model);
        sb_add(out, "\")\n");
    }
    return true;
}

char *jcstress_generate(const ir_test *t, const bset *b, const jcstress_opts *o, diag *d)
{
    javagen_names n;
    if (!javagen_prepare(t, &n, d))
        return NULL;
    int *perm = match_observables(&n, b);
    if (!perm) {
        javagen_names_free(&n, t);
        diag_fail(d, "%s: the behaviour set does not describe the test's observables", t->file);
        return NULL;
    }
    const char *cls = o->class_name;
    strbuf res = {0};
    result_class_name(&res, n.nobs);
    strbuf out = {0};

    sb_add(&out, "// Generated by litmusc from ");
    javagen_comment(&out, t->file ? t->file : t->name);
    sb_add(&out, "\n// Outcome ids: \"");
    for (int k = 0; k < n.nobs; k++) {
        const ir_obs *ob = &n.obs[k];
        if (k)
            sb_add(&out, ", ");
        if (ob->kind == IR_OBS_REG) {
            char *r = xasprintf("%d:%s", ob->thread, ob->reg);
            javagen_comment(&out, r);
            free(r);
        } else {
            sb_add(&out, "[");
            javagen_comment(&out, t->locs[ob->loc].name);
            sb_add(&out, "]");
        }
    }
    sb_add(&out, "\"\n");
    sb_printf(&out, "package %s;\n\n", o->package);
    sb_add(&out, "import java.lang.invoke.MethodHandles;\nimport java.lang.invoke.VarHandle;\n");
    static const char *const ann[] = {"Actor", "Arbiter", "Description", "Expect",
                                      "JCStressTest", "Outcome", "Result", "State", NULL};
    for (int i = 0; ann[i]; i++)
        sb_printf(&out, "import org.openjdk.jcstress.annotations.%s;\n", ann[i]);
    if (n.nobs >= 1 && n.nobs <= 8)
        sb_printf(&out, "import org.openjdk.jcstress.infra.results.%s;\n", res.s);
    sb_add(&out, "\n@JCStressTest\n@Description(\"litmus test ");
    javagen_string(&out, t->name);
    sb_add(&out, ", behaviour set under ");
    javagen_string(&out, o->model);
    char *cond = ir_format_cond(t);
    sb_add(&out, ": ");
    javagen_string(&out, cond);
    free(cond);
    sb_add(&out, "\")\n");
    if (!outcomes(&out, t, &n, b, perm, o->model, d)) {
        sb_free(&out);
        sb_free(&res);
        free(perm);
        javagen_names_free(&n, t);
        return NULL;
    }
    sb_printf(&out, "@State\npublic class %s {\n", cls);
    javagen_handles(&out, t, &n, cls, "    ");
    sb_add(&out, "\n");
    for (int i = 0; i < t->nlocs; i++) {
        if (t->locs[i].init)
            sb_printf(&out, "    int %s = %" PRId64 ";\n", n.field[i], t->locs[i].init);
        else
            sb_printf(&out, "    int %s;\n", n.field[i]);
    }
    javagen_lock_fields(&out, t, &n, "    ");
    sb_add(&out, "\n");
    if (n.nobs < 1 || n.nobs > 8)
        custom_result(&out, n.nobs);
    javagen_thread_opts to = {"this", "        ", store_field, NULL};
    for (int ti = 0; ti < t->nthreads; ti++) {
        sb_printf(&out, "    @Actor\n    public void actor%d(%s r) {\n", t->threads[ti].id, res.s);
        javagen_thread_body(&out, t, &n, ti, &to);
        sb_add(&out, "    }\n\n");
    }
    bool mem = false;
    for (int k = 0; k < n.nobs; k++)
        mem |= n.obs[k].kind == IR_OBS_MEM;
    if (mem) {
        sb_printf(&out, "    @Arbiter\n    public void arbiter(%s r) {\n", res.s);
        for (int k = 0; k < n.nobs; k++)
            if (n.obs[k].kind == IR_OBS_MEM)
                sb_printf(&out, "        r.r%d = this.%s;\n", k + 1, n.field[n.obs[k].loc]);
        sb_add(&out, "    }\n");
    }
    sb_add(&out, "}\n");
    sb_free(&res);
    free(perm);
    javagen_names_free(&n, t);
    return sb_take(&out);
}
