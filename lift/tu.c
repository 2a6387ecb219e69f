/* The translation unit of a C litmus test, as Telechat writes it: the
 * locations are globals, a macro `#define x (&x)` makes each thread's
 * pointer parameter the global's address (a macro does not expand inside
 * its own expansion), and each register is stored to a global P<n>_<reg>
 * at the thread's end so the compiler cannot drop the load.  A batch of
 * tests shares one unit, each test's names under its own prefix
 * (`#define x (&t3_x)`), so that one compiler call builds them all. */
#include <ctype.h>
#include <stdlib.h>
#include "lift/lift.h"
#include "util/mem.h"

static bool c_ident(const char *s)
{
    if (!s || !(isalpha((unsigned char)*s) || *s == '_'))
        return false;
    for (; *s; s++)
        if (!(isalnum((unsigned char)*s) || *s == '_'))
            return false;
    return true;
}

/* The headers every unit starts with, once. */
/* Weak definitions: two objects of the same tests link into one program. */
#define WEAK " __attribute__((weak))"
#define TU_HEAD "#include <stdatomic.h>\n#include <stdint.h>\n"

char *lift_tu_part(const fe_test *ft, const ir_test *t, const char *prefix, bool weak, diag *d)
{
    strbuf b = {0};
    const char *p = prefix ? prefix : "";
    for (int i = 0; i < t->nlocs; i++) {
        const ir_loc *l = &t->locs[i];
        if (!c_ident(l->name) || l->type != IR_T_INT) {
            sb_free(&b);
            diag_error(d, t->file, 0, 0, "cc-check: location '%s' cannot be a C global", l->name);
            return NULL;
        }
        sb_printf(&b, "%s %s%s%s = %lld;\n", l->ctype ? l->ctype : "int", p, l->name, weak ? WEAK : "",
                  (long long)l->init);
    }
    for (int n = 0; n < t->nthreads; n++)
        for (int r = 0; r < t->threads[n].nfinal_regs; r++) {
            const char *reg = t->threads[n].final_regs[r].name;
            if (!c_ident(reg)) {
                sb_free(&b);
                diag_error(d, t->file, 0, 0, "cc-check: register '%s' cannot be a C name", reg);
                return NULL;
            }
            sb_printf(&b, "int %sP%d_%s%s;\n", p, n, reg, weak ? WEAK : "");
        }
    for (int n = 0; n < ft->nthreads && n < t->nthreads; n++) {
        const fe_thread *th = &ft->threads[n];
        for (int q = 0; q < th->nparams; q++)
            sb_printf(&b, "#define %s (&%s%s)\n", th->params[q].name, p, th->params[q].name);
        char *body = lift_tu_hoist(th->body_text ? th->body_text : "", &t->threads[n]);
        sb_printf(&b, "void %sP%d(void)\n{\n%s\n", p, n, body);
        free(body);
        for (int r = 0; r < t->threads[n].nfinal_regs; r++)
            sb_printf(&b, "  %sP%d_%s = %s;\n", p, n, t->threads[n].final_regs[r].name,
                      t->threads[n].final_regs[r].name);
        sb_add(&b, "}\n");
        for (int q = 0; q < th->nparams; q++)
            sb_printf(&b, "#undef %s\n", th->params[q].name);
    }
    return sb_take(&b);
}

char *lift_tu_head(void)
{
    return xstrdup(TU_HEAD);
}

char *lift_tu_text(const fe_test *ft, const ir_test *t, diag *d)
{
    char *part = lift_tu_part(ft, t, "", false, d);
    if (!part)
        return NULL;
    char *s = xasprintf("%s%s", TU_HEAD, part);
    free(part);
    return s;
}
