/* One cc-check configuration end to end, for `litmusc cc-check` and for
 * campaigns alike: write the translation unit, compile it, read each
 * thread's function from the object, lift them to an X86_64 litmus test,
 * read that back, run it under x86tso and compare its states with the
 * source's.  How far it got (compiled, lifted) is kept beside the verdict,
 * so that a report can count each stage. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "frontend/frontend.h"
#include "ir/lower.h"
#include "lift/lift.h"
#include "model/model.h"
#include "util/file.h"
#include "util/mem.h"

const char *lift_verdict_name(lift_verdict v)
{
    static const char *const names[] = {"same", "stronger", "bug", "refused"};
    return names[v];
}

void lift_result_free(lift_result *r)
{
    free(r->text);
    free(r->herd_note);
    if (r->cb)
        bset_free(r->cb);
    if (r->ct)
        ir_test_free(r->ct);
    free(r->bad);
    memset(r, 0, sizeof *r);
}

char *lift_state_text(const lift_result *r, int i)
{
    strbuf b = {0};
    for (int k = 0; k < r->cb->nobs; k++)
        sb_printf(&b, "%s%s=%lld;", k ? " " : "", r->ct->locs[r->cb->obs[k].loc].name,
                  (long long)r->cb->states[i].vals[k]);
    return sb_take(&b);
}

/* R->cb without the states where the run was cut (cc_unroll=1): an
 * AArch64 store-exclusive that failed past the cut. */
static void drop_cut_states(lift_result *r)
{
    int k = 0;
    while (k < r->cb->nobs && !(r->cb->obs[k].kind == IR_OBS_MEM &&
                                !strcmp(r->ct->locs[r->cb->obs[k].loc].name, LIFT_UNROLL_LOC)))
        k++;
    if (k == r->cb->nobs)
        return;
    int n = 0;
    for (int i = 0; i < r->cb->nstates; i++) {
        if (r->cb->states[i].vals[k])
            free(r->cb->states[i].vals);
        else
            r->cb->states[n++] = r->cb->states[i];
    }
    r->cb->nstates = n;
}

/* The lifted TEXT read back and run under TSO into R; false + D if not. */
static bool run_lifted(const ir_test *t, const model *tso, lift_target tg, const char *cc, const char *cflags,
                       int unroll, lift_result *r, diag *d)
{
    fe_test *cft = fe_parse(r->text, strlen(r->text), t->name, d);
    r->ct = cft ? ir_lower(cft, d) : NULL;
    if (cft)
        fe_test_free(cft);
    if (!r->ct) {
        /* The lifter wrote something the X86_64 frontend cannot read: ours to fix. */
        char msg[DIAG_MSG_MAX];
        diag_format(d, msg, sizeof msg);
        *d = (diag){0};
        return diag_fail(d, "cc-check: %s %s %s: the lifted %s test does not read back: %s", t->name, cc, cflags,
                         lift_target_get(tg)->name, msg);
    }
    r->lifted = true;
    if (!(r->cb = model_run(tso, r->ct, d)))
        return false;
    if (lift_target_get(tg)->cuts_loops) {
        drop_cut_states(r);
        return true;
    }
    /* A run that needed more loop iterations than unrolled stored 1 to cc_unroll. */
    for (int k = 0; k < r->cb->nobs; k++)
        if (r->cb->obs[k].kind == IR_OBS_MEM && !strcmp(r->ct->locs[r->cb->obs[k].loc].name, LIFT_UNROLL_LOC))
            for (int i = 0; i < r->cb->nstates; i++)
                if (r->cb->states[i].vals[k])
                    return diag_fail(d, "cc-check: %s %s %s: a loop needs more than %d iterations on some run "
                                        "(--unroll %d is not enough)",
                                     t->name, cc, cflags, unroll, unroll);
    return true;
}

bool lift_check(const fe_test *ft, const ir_test *t, const struct bset *sb, const struct model *tso, const char *cc,
                const char *cflags, int unroll, lift_result *r, diag *d)
{
    return lift_check_target(ft, t, sb, tso, LIFT_X86_64, cc, cflags, unroll, LIFT_CC_TIMEOUT_S, r, d);
}

/* Compile T's translation unit with CC CFLAGS in a private folder under
 * $TMPDIR and read each thread's function from the object into FUNCS;
 * the folder is gone when this returns. */
static bool compile_and_read(const fe_test *ft, const ir_test *t, lift_target tg, const char *cc,
                             const char *cflags, double timeout_s, lift_func *funcs, lift_result *r, diag *d)
{
    char *dir = file_temp_dir("litmusc-cc");
    if (!dir)
        return diag_fail(d, "cc-check: cannot make a temporary folder: %s (set TMPDIR)", strerror(errno));
    char *src = xasprintf("%s/t.c", dir), *obj = xasprintf("%s/t.o", dir);
    char *tu = lift_tu_text(ft, t, d);
    bool ok = tu && file_write_atomic(src, tu, strlen(tu));
    if (tu && !ok)
        diag_fail(d, "cc-check: cannot write %s: %s", src, strerror(errno));
    ok = ok && lift_compile_target(cc, cflags, tg, src, obj, timeout_s, dir, d);
    r->compiled = ok;
    for (int n = 0; ok && n < t->nthreads; n++) {
        char fn[16];
        snprintf(fn, sizeof fn, "P%d", n);
        ok = lift_elf_func_for(obj, fn, lift_target_get(tg)->machine, &funcs[n], d);
    }
    free(tu);
    file_remove_tree(dir);
    free(src), free(obj), free(dir);
    return ok;
}

/* Lift FUNCS (thread n's function in FUNCS[n]), read the lifted test
 * back, run it and compare its states with the source's into R. */
static bool lift_funcs(const ir_test *t, const struct bset *sb, const struct model *tso, lift_target tg,
                       const lift_func *funcs, const char *cc, const char *cflags, int unroll, lift_result *r,
                       diag *d)
{
    const lift_target_row *row = lift_target_get(tg);
    const char *b = strrchr(cc, '/');
    bool clang = !strncmp(b ? b + 1 : cc, "clang", 5) && *row->clang_flag;
    char *origin = xasprintf("%s%s%s -c -fno-pic%s%s %s", cc, clang ? " " : "", clang ? row->clang_flag : "",
                             *row->cflags ? " " : "", row->cflags, cflags);
    bool ok;
    ok = (r->text = row->text(t, funcs, unroll, origin, &r->herd_note, d)) != NULL;
    free(origin);
    ok = ok && run_lifted(t, tso, tg, cc, cflags, unroll, r, d);
    if (ok) {
        bool same = false;
        r->nbad = lift_compare(t, sb, r->ct, r->cb, &r->bad, &same);
        r->verdict = r->nbad ? LIFT_BUG : same ? LIFT_SAME : LIFT_STRONGER;
    }
    return ok;
}

bool lift_check_within(const fe_test *ft, const ir_test *t, const struct bset *sb, const struct model *tso,
                       const char *cc, const char *cflags, int unroll, double timeout_s, lift_result *r, diag *d)
{
    return lift_check_target(ft, t, sb, tso, LIFT_X86_64, cc, cflags, unroll, timeout_s, r, d);
}

bool lift_check_target(const fe_test *ft, const ir_test *t, const struct bset *sb, const struct model *model,
                       lift_target tg, const char *cc, const char *cflags, int unroll, double timeout_s,
                       lift_result *r, diag *d)
{
    memset(r, 0, sizeof *r);
    r->verdict = LIFT_REFUSED;
    if (!lift_target_get(tg)->cuts_loops && ir_test_mutexes(t))
        /* lift_tu_part's lock waits in a loop, which x86's lifter unrolls,
         * failing a run that needs more turns: a wait can need any number */
        return diag_error(d, t->file, 0, 0, "cc-check: %s: a lock test, which the x86_64 lifter cannot check: it "
                          "unrolls each loop --unroll times, and a lock's wait can need any number of turns "
                          "(--target aarch64 lifts it)", t->name);
    lift_func *funcs = xcalloc((size_t)t->nthreads, sizeof *funcs);
    bool ok = compile_and_read(ft, t, tg, cc, cflags, timeout_s, funcs, r, d);
    ok = ok && lift_funcs(t, sb, model, tg, funcs, cc, cflags, unroll, r, d);
    for (int n = 0; n < t->nthreads; n++)
        lift_func_free(&funcs[n]);
    free(funcs);
    return ok;
}

/* Each reloc of F that names one of PREFIX's symbols, renamed to the name
 * without it (t3_x -> x, t3_P0_r0 -> P0_r0), as the lifter knows them. */
static void unprefix(lift_func *f, const char *prefix)
{
    size_t n = strlen(prefix);
    for (int i = 0; n && i < f->nrelocs; i++)
        if (!strncmp(f->relocs[i].sym, prefix, n))
            memmove(f->relocs[i].sym, f->relocs[i].sym + n, strlen(f->relocs[i].sym + n) + 1);
    for (int i = 0; n && i < f->nsyms; i++)
        if (!strncmp(f->syms[i].name, prefix, n))
            memmove(f->syms[i].name, f->syms[i].name + n, strlen(f->syms[i].name + n) + 1);
    if (n && !strncmp(f->name, prefix, n))
        memmove(f->name, f->name + n, strlen(f->name + n) + 1);
}

bool lift_check_objects(const ir_test *t, const struct bset *sb, const struct model *tso, const char *const *objs,
                        const char *prefix, const char *cc, const char *cflags, int unroll, lift_result *r, diag *d)
{
    return lift_check_objects_target(t, sb, tso, LIFT_X86_64, objs, prefix, cc, cflags, unroll, r, d);
}

bool lift_check_objects_target(const ir_test *t, const struct bset *sb, const struct model *tso, lift_target tg,
                               const char *const *objs, const char *prefix, const char *cc, const char *cflags,
                               int unroll, lift_result *r, diag *d)
{
    memset(r, 0, sizeof *r);
    r->verdict = LIFT_REFUSED;
    r->compiled = true;
    lift_func *funcs = xcalloc((size_t)t->nthreads, sizeof *funcs);
    bool ok = true;
    for (int n = 0; ok && n < t->nthreads; n++) {
        char fn[160];
        snprintf(fn, sizeof fn, "%sP%d", prefix ? prefix : "", n);
        ok = lift_elf_func_for(objs[n], fn, lift_target_get(tg)->machine, &funcs[n], d);
        if (ok)
            unprefix(&funcs[n], prefix ? prefix : "");
    }
    ok = ok && lift_funcs(t, sb, tso, tg, funcs, cc, cflags, unroll, r, d);
    for (int n = 0; n < t->nthreads; n++)
        lift_func_free(&funcs[n]);
    free(funcs);
    return ok;
}
