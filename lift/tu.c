/* The translation unit of a C litmus test, as Telechat writes it: the
 * locations are globals, a macro `#define x (&x)` makes each thread's
 * pointer parameter the global's address (a macro does not expand inside
 * its own expansion), and each register is stored to a global P<n>_<reg>
 * at the thread's end so the compiler cannot drop the load. */
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

char *lift_tu_text(const fe_test *ft, const ir_test *t, diag *d)
{
    strbuf b = {0};
    sb_add(&b, "#include <stdatomic.h>\n#include <stdint.h>\n");
    for (int i = 0; i < t->nlocs; i++) {
        const ir_loc *l = &t->locs[i];
        if (!c_ident(l->name) || l->type != IR_T_INT) {
            sb_free(&b);
            diag_error(d, t->file, 0, 0, "cc-check: location '%s' cannot be a C global", l->name);
            return NULL;
        }
        sb_printf(&b, "%s %s = %lld;\n", l->ctype ? l->ctype : "int", l->name, (long long)l->init);
    }
    for (int n = 0; n < t->nthreads; n++)
        for (int r = 0; r < t->threads[n].nfinal_regs; r++) {
            const char *reg = t->threads[n].final_regs[r].name;
            if (!c_ident(reg)) {
                sb_free(&b);
                diag_error(d, t->file, 0, 0, "cc-check: register '%s' cannot be a C name", reg);
                return NULL;
            }
            sb_printf(&b, "int P%d_%s;\n", n, reg);
        }
    for (int n = 0; n < ft->nthreads && n < t->nthreads; n++) {
        const fe_thread *th = &ft->threads[n];
        for (int p = 0; p < th->nparams; p++)
            sb_printf(&b, "#define %s (&%s)\n", th->params[p].name, th->params[p].name);
        char *body = lift_tu_hoist(th->body_text ? th->body_text : "", &t->threads[n]);
        sb_printf(&b, "void P%d(void)\n{\n%s\n", n, body);
        free(body);
        for (int r = 0; r < t->threads[n].nfinal_regs; r++)
            sb_printf(&b, "  P%d_%s = %s;\n", n, t->threads[n].final_regs[r].name,
                      t->threads[n].final_regs[r].name);
        sb_add(&b, "}\n");
        for (int p = 0; p < th->nparams; p++)
            sb_printf(&b, "#undef %s\n", th->params[p].name);
    }
    return sb_take(&b);
}
