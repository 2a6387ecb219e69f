/* The translation unit of a C litmus test, as Telechat writes it: the
 * locations are globals, a macro `#define x (&x)` makes each thread's
 * pointer parameter the global's address (a macro does not expand inside
 * its own expansion), and each register is stored to a global P<n>_<reg>
 * at the thread's end so the compiler cannot drop the load.  A batch of
 * tests shares one unit, each test's names under its own prefix
 * (`#define x (&t3_x)`), so that one compiler call builds them all. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
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

/* Why NAME cannot be a global (and a macro) of the translation unit, or
 * NULL: a C keyword (GNU's too), a name the unit's own P<n> functions and
 * P<n>_<reg> globals take, one of <stdatomic.h> or <stdint.h>, or one
 * reserved to the implementation.  The compiler would otherwise fail on a
 * temporary file with a message about code the user never wrote. */
static const char *clash(const char *name)
{
    static const char *const keywords[] = {
        "auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else", "enum",
        "extern", "float", "for", "goto", "if", "inline", "int", "long", "register", "restrict", "return",
        "short", "signed", "sizeof", "static", "struct", "switch", "typedef", "union", "unsigned", "void",
        "volatile", "while", "asm", "typeof", "alignas", "alignof", "bool", "true", "false", "nullptr",
        "static_assert", "thread_local", "constexpr", "typeof_unqual", NULL};
    for (int i = 0; keywords[i]; i++)
        if (!strcmp(name, keywords[i]))
            return "a C keyword";
    if (name[0] == 'P' && isdigit((unsigned char)name[1])) {
        const char *p = name + 1;
        while (isdigit((unsigned char)*p))
            p++;
        if (!*p)
            return "the name of a thread's function in the translation unit";
        if (*p == '_')
            return "the form P<n>_<reg> of the translation unit's register globals";
    }
    if (name[0] == '_' && (name[1] == '_' || isupper((unsigned char)name[1])))
        return "reserved to the C implementation";
    static const char *const prefixes[] = {"memory_order", "atomic_", "ATOMIC_", "kill_dependency", "SIZE_",
                                           "PTRDIFF_", "SIG_ATOMIC_", "WCHAR_", "WINT_", NULL};
    for (int i = 0; prefixes[i]; i++)
        if (!strncmp(name, prefixes[i], strlen(prefixes[i])))
            return "a name of <stdatomic.h> or <stdint.h>";
    /* int8_t ... uintmax_t and their limits INT8_MAX ... UINTMAX_C */
    size_t n = strlen(name);
    bool lower = !strncmp(name, "int", 3) || !strncmp(name, "uint", 4);
    bool upper = !strncmp(name, "INT", 3) || !strncmp(name, "UINT", 4);
    if ((lower && n > 2 && !strcmp(name + n - 2, "_t")) ||
        (upper && ((n > 4 && (!strcmp(name + n - 4, "_MAX") || !strcmp(name + n - 4, "_MIN"))) ||
                   (n > 2 && !strcmp(name + n - 2, "_C")) || strstr(name, "_WIDTH"))) ||
        !strcmp(name, "size_t") || !strcmp(name, "wchar_t") || !strcmp(name, "ptrdiff_t"))
        return "a name of <stdatomic.h> or <stdint.h>";
    return NULL;
}

/* Where location NAME is first written: its init entry, else a thread
 * parameter of that name, else the first thread. */
static fe_pos name_pos(const fe_test *ft, const char *name)
{
    for (int i = 0; i < ft->ninit; i++)
        if (ft->init[i].loc.name && !strcmp(ft->init[i].loc.name, name))
            return ft->init[i].loc.pos;
    for (int n = 0; n < ft->nthreads; n++)
        for (int p = 0; p < ft->threads[n].nparams; p++)
            if (!strcmp(ft->threads[n].params[p].name, name))
                return ft->threads[n].params[p].pos;
    fe_pos none = {1, 1};
    return ft->nthreads ? ft->threads[0].pos : none;
}

/* The headers every unit starts with, once. */
/* Weak definitions: two objects of the same tests link into one program. */
#define WEAK " __attribute__((weak))"
#define TU_HEAD "#include <stdatomic.h>\n#include <stdint.h>\n"

/* A test's locks as a spin lock built on the atomics: the lock an acquire
 * exchange repeated until it reads 0 (free), the unlock a release store
 * of 0, a trylock one exchange, 1 when it took the lock (as the IR's
 * trylock); mtx_t and spinlock_t atomic ints.  The wait is a jump back,
 * which the AArch64 lifter cuts: the runs kept are those that find the
 * lock free when they take it, the only runs herd's and litmusc's locks
 * have.  Once per unit, however many of a batch's tests take locks. */
static const char locks_text[] =
    "#ifndef LITMUSC_CC_LOCKS\n#define LITMUSC_CC_LOCKS\n"
    "typedef atomic_int mtx_t;\ntypedef atomic_int spinlock_t;\n"
    "#define cc_lock_(l) do { } while (atomic_exchange_explicit((l), 1, memory_order_acquire))\n"
    "#define cc_unlock_(l) atomic_store_explicit((l), 0, memory_order_release)\n"
    "#define cc_trylock_(l) (!atomic_exchange_explicit((l), 1, memory_order_acquire))\n"
    "#define mtx_lock(l) cc_lock_(l)\n#define mtx_unlock(l) cc_unlock_(l)\n#define mtx_trylock(l) cc_trylock_(l)\n"
    "#define spin_lock(l) cc_lock_(l)\n#define spin_unlock(l) cc_unlock_(l)\n"
    "#define spin_trylock(l) cc_trylock_(l)\n#define __lock(l) cc_lock_(l)\n#define __unlock(l) cc_unlock_(l)\n"
    "#define __trylock(l) cc_trylock_(l)\n#define lock(l) cc_lock_(l)\n#define unlock(l) cc_unlock_(l)\n"
    "#endif\n";

char *lift_tu_part(const fe_test *ft, const ir_test *t, const char *prefix, bool weak, diag *d)
{
    strbuf b = {0};
    const char *p = prefix ? prefix : "";
    if (ir_test_mutexes(t))
        sb_add(&b, locks_text);
    for (int i = 0; i < t->nlocs; i++) {
        const ir_loc *l = &t->locs[i];
        if (!c_ident(l->name) || l->type != IR_T_INT) {
            sb_free(&b);
            diag_error(d, t->file, 0, 0, "cc-check: location '%s' cannot be a C global", l->name);
            return NULL;
        }
        const char *why = clash(l->name);
        if (why) {
            sb_free(&b);
            fe_pos at = name_pos(ft, l->name);
            diag_error(d, t->file, at.line, at.col, "cc-check: location '%s' cannot be a global of the "
                       "translation unit the compilers are given: it is %s; rename it", l->name, why);
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
