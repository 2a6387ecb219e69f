/* Lowering entry point: the test's header, locations, initial state and
 * condition, then each thread through its architecture's lowering. */
#include <stdlib.h>
#include <string.h>
#include "frontend/frontend.h"
#include "isa/isa.h"
#include "ir/lower.h"
#include "ir/lower_int.h"
#include "util/mem.h"

/* isa/isa.h finds a test's instruction set by its fe_arch or ir_arch value:
 * both enums are made from ISA_LIST, so they agree with the table and with
 * each other up to the languages. */
_Static_assert((int)FE_ARCH_C == ISA_COUNT && (int)IR_ARCH_C == ISA_COUNT && (int)FE_ARCH_JAVA == (int)IR_ARCH_JAVA,
               "fe_arch and ir_arch begin with isa/isa.h's instruction sets, in its order");

#define ROW(id, stem) [ISA_##id] = {lw_##stem##_thread},
static const lw_isa_hooks hooks[ISA_COUNT] = {ISA_LIST(ROW)};
#undef ROW

static ir_arch arch_of(fe_arch a)
{
    switch (a) {
    case FE_ARCH_X86: return IR_ARCH_X86;
    case FE_ARCH_X86_64: return IR_ARCH_X86_64;
    case FE_ARCH_AARCH64: return IR_ARCH_AARCH64;
    case FE_ARCH_C: return IR_ARCH_C;
    case FE_ARCH_JAVA: return IR_ARCH_JAVA;
    }
    return IR_ARCH_C;
}

static bool value_of(lw *w, const fe_value *v, ir_val *out)
{
    if (v->kind == FE_VAL_ADDR) {
        if (!v->sym || !v->sym[0])
            return lw_error(w, v->pos, "missing location name");
        *out = IR_ADDR(lw_loc(w, v->sym));
    } else {
        *out = v->i;
    }
    return true;
}

/* Type of a location from a C type as written: pointers, 128-bit integers,
 * everything else an integer. */
void lw_set_ctype(ir_loc *l, const char *ctype)
{
    free(l->ctype);
    l->ctype = xstrdup(ctype);
    size_t n = strlen(ctype);
    l->type = n && ctype[n - 1] == '*' ? IR_T_PTR : strstr(ctype, "128") ? IR_T_INT128 : IR_T_INT;
    l->atomic = !strncmp(ctype, "atomic_", 7) || strstr(ctype, "_Atomic") != NULL;
}

static bool lower_init_mem(lw *w)
{
    for (int i = 0; i < w->ft->ninit; i++) {
        const fe_init *in = &w->ft->init[i];
        if (in->loc.kind != FE_LOC_MEM)
            continue;
        if (in->array_size > 0 && in->loc.index < 0 && w->ft->arch == FE_ARCH_X86_64) {
            if (!lw_x86_array_init(w, in))
                return false;
            continue;
        }
        if (in->array_size > 0 || in->loc.index >= 0)
            return lw_error(w, in->loc.pos, "array location %s is not supported", in->loc.name);
        int loc = lw_loc(w, in->loc.name);
        ir_val v = 0;
        if (in->has_value && !value_of(w, &in->value, &v))
            return false;
        ir_loc *l = &w->t->locs[loc];     /* after value_of, which may add locations */
        l->init = v;
        l->init_given = true;
        if (in->type)
            lw_set_ctype(l, in->type);
        if (l->type == IR_T_PTR && v != 0 && !IR_IS_ADDR(v))
            return lw_error(w, in->value.pos, "pointer %s starts with the integer %lld", in->loc.name,
                            (long long)v);
    }
    return true;
}

static bool lower_obs(lw *w, const fe_loc *l, ir_obs *o)
{
    memset(o, 0, sizeof *o);
    if (l->index >= 0)
        return lw_error(w, l->pos, "array cell %s[%d] is not supported", l->name, l->index);
    if (l->kind == FE_LOC_MEM) {
        const fe_init *a;
        int k;
        /* herd shows an array as t={1,-1}, which a cell's value is not */
        if (lw_x86_array_cell(w, ir_find_loc(w->t, l->name), &a, &k))
            return lw_error(w, l->pos, "array %s in the condition is not supported", l->name);
        o->kind = IR_OBS_MEM;
        o->thread = -1;
        o->loc = lw_loc(w, l->name);
        return true;
    }
    if (l->thread < 0 || l->thread >= w->ft->nthreads)
        return lw_error(w, l->pos, "%d:%s names thread %d, which the test does not have", l->thread, l->name,
                        l->thread);
    o->kind = IR_OBS_REG;
    o->thread = l->thread;
    o->loc = -1;
    o->reg = xstrdup(l->name);
    return true;
}

static ir_cond *lower_prop(lw *w, const fe_prop *p)
{
    static const ir_cond_kind kinds[] = {
        [FE_P_TRUE] = IR_C_TRUE, [FE_P_FALSE] = IR_C_FALSE, [FE_P_ATOM] = IR_C_ATOM, [FE_P_NOT] = IR_C_NOT,
        [FE_P_AND] = IR_C_AND, [FE_P_OR] = IR_C_OR, [FE_P_IMPLIES] = IR_C_IMPLIES,
    };
    if (!p || (unsigned)p->kind > FE_P_IMPLIES) {
        lw_error(w, p ? p->pos : w->ft->cond.pos, "malformed condition");
        return NULL;
    }
    ir_cond *c = ir_cond_new(kinds[p->kind]);
    switch (p->kind) {
    case FE_P_ATOM:
        c->ne = p->ne;
        if (!lower_obs(w, &p->lhs, &c->lhs))
            goto fail;
        if (p->rhs_is_loc) {
            c->rhs_is_obs = true;
            if (!lower_obs(w, &p->rhs_loc, &c->rhs_obs))
                goto fail;
        } else if (!value_of(w, &p->rhs, &c->rhs)) {
            goto fail;
        }
        return c;
    case FE_P_NOT:
        if (!(c->l = lower_prop(w, p->l)))
            goto fail;
        return c;
    case FE_P_AND:
    case FE_P_OR:
    case FE_P_IMPLIES:
        if (!(c->l = lower_prop(w, p->l)) || !(c->r = lower_prop(w, p->r)))
            goto fail;
        return c;
    default:
        return c;
    }
fail:
    ir_cond_free(c);
    return NULL;
}

static bool lower_cond(lw *w)
{
    const fe_cond *fc = &w->ft->cond;
    ir_test *t = w->t;
    ir_cond *c = lower_prop(w, fc->prop);
    if (!c)
        return false;
    ir_cond_free(t->cond);
    t->cond = c;
    t->quant = fc->quant == FE_Q_FORALL ? IR_Q_FORALL : fc->quant == FE_Q_NOT_EXISTS ? IR_Q_NOT_EXISTS : IR_Q_EXISTS;
    /* The frontend reads an absent condition as `exists true`; herd's
     * meaning of it is forall (true), which is what it prints. */
    if (fc->quant == FE_Q_EXISTS && fc->prop->kind == FE_P_TRUE)
        t->quant = IR_Q_FORALL;
    if (fc->filter && !(t->filter = lower_prop(w, fc->filter)))
        return false;
    for (int i = 0; i < fc->nlocations; i++) {
        ir_obs o;
        if (!lower_obs(w, &fc->locations[i], &o))
            return false;
        ir_add_location(t, o);
        free(o.reg);
    }
    return true;
}

static void observed_in(lw *w, const ir_cond *c)
{
    if (!c)
        return;
    const ir_obs *os[2] = {&c->lhs, c->rhs_is_obs ? &c->rhs_obs : NULL};
    if (c->kind == IR_C_ATOM)
        for (int i = 0; i < 2; i++)
            if (os[i] && os[i]->kind == IR_OBS_REG && os[i]->thread == w->th->id)
                lw_add_reg(w, os[i]->reg, false);
    observed_in(w, c->l);
    observed_in(w, c->r);
}

static bool is_monitor(const lw *w, const char *loc)
{
    for (int i = 0; i < w->nmonitor_locs; i++)
        if (!strcmp(w->monitor_locs[i], loc))
            return true;
    return false;
}

static bool lower_thread(lw *w, int index)
{
    const fe_test *ft = w->ft;
    w->ft_th = &ft->threads[index];
    w->th = &w->t->threads[index];
    for (int i = 0; i < w->nregs; i++)
        free(w->regs[i]);
    w->nregs = 0;
    w->block = ir_add_block(w->th);
    /* Initial registers. */
    for (int i = 0; i < ft->ninit; i++) {
        const fe_init *in = &ft->init[i];
        if (in->loc.kind != FE_LOC_REG || in->loc.thread != w->th->id)
            continue;
        ir_val v = 0;
        if (in->has_value && !value_of(w, &in->value, &v))
            return false;
        /* A Java handle bound to a monitor is no register: only
         * synchronized names it, and the lock names the monitor itself. */
        if (in->has_value && in->value.kind == FE_VAL_ADDR && is_monitor(w, in->value.sym))
            continue;
        ir_set_init_reg(w->th, in->loc.name, ir_imm(v));
    }
    for (int i = 0; i < w->th->ninit_regs; i++) {
        const ir_reg *r = &w->th->init_regs[i];
        bool handle = ft->arch == FE_ARCH_JAVA && IR_IS_ADDR(r->value.imm);
        lw_add_reg(w, r->name, handle);
    }
    /* Registers the final state shows: unwritten ones read their initial value. */
    observed_in(w, w->t->cond);
    observed_in(w, w->t->filter);
    for (int i = 0; i < w->t->nlocations; i++) {
        const ir_obs *o = &w->t->locations[i];
        if (o->kind == IR_OBS_REG && o->thread == w->th->id)
            lw_add_reg(w, o->reg, false);
    }
    bool ok;
    const isa *machine = isa_of(ft->arch);
    if (machine)
        ok = hooks[machine->id].thread(w);
    else if (ft->arch == FE_ARCH_C)
        ok = lw_c_thread(w);
    else
        ok = lw_java_thread(w);
    if (!ok)
        return false;
    if (w->block < 0)
        return lw_error(w, w->ft_th->pos, "thread %d never reaches its end", w->th->id);
    if (lw_thread_is_joined(ft, w->th->id))
        lw_mark_end(w);
    lw_set_src(w, w->ft_th->pos, NULL);
    w->line = w->col = 0;
    lw_emit(w, IR_RET);
    for (int r = 0; r < w->nregs; r++)
        if (!w->hidden[r])
            ir_set_final_reg(w->th, w->regs[r], w->cur[r]);
    /* A typed register (AArch64's `int8_t 0:X1`) is shown in its type. */
    for (int i = 0; machine && machine->typed_state && i < ft->ninit; i++) {
        const fe_init *in = &ft->init[i];
        if (in->loc.kind == FE_LOC_REG && in->loc.thread == w->th->id && in->type)
            ir_set_reg_ctype(w->th, in->loc.name, in->type);
    }
    return true;
}

static void lw_free(lw *w)
{
    for (int i = 0; i < w->nregs; i++)
        free(w->regs[i]);
    free(w->regs);
    free(w->hidden);
    free(w->cur);
    free(w->src);
    free(w->monitors);
    free(w->monitor_locs);
}

int ir_lower_unroll = 2;

/* herd's `Unroll=N` info line sets the test's bound; else the default. */
static bool lower_unroll(lw *w)
{
    w->unroll = ir_lower_unroll;
    for (int i = 0; i < w->ft->ninfo; i++) {
        const fe_info *in = &w->ft->info[i];
        if (strcmp(in->key, "Unroll"))
            continue;
        char *end;
        long v = strtol(in->value, &end, 10);
        if (end == in->value || *end || v < 1 || v > 1000)
            return lw_error(w, in->pos, "Unroll=%s: the bound is a number from 1 to 1000", in->value);
        w->unroll = (int)v;
    }
    return true;
}

ir_test *ir_lower(const fe_test *ft, diag *d)
{
    ir_test *t = ir_test_new(ft->name, arch_of(ft->arch));
    lw w = {.ft = ft, .t = t, .d = d};
    w.monitor_locs = fe_monitor_locs(ft, &w.nmonitor_locs);
    t->file = xstrdup(ft->file ? ft->file : "");
    if (ft->doc)
        t->doc = xstrdup(ft->doc);
    for (int i = 0; i < ft->ninfo; i++)
        ir_add_info(t, ft->info[i].key, ft->info[i].value);
    if (ft->hash[0])
        t->hash = xstrdup(ft->hash);
    bool ok = lower_unroll(&w) && lower_init_mem(&w) && lower_cond(&w) && lw_check_joins(&w);
    for (int i = 0; ok && i < ft->ninit; i++) {
        const fe_init *in = &ft->init[i];
        if (in->loc.kind == FE_LOC_REG && (in->loc.thread < 0 || in->loc.thread >= ft->nthreads))
            ok = lw_error(&w, in->loc.pos, "%d:%s names thread %d, which the test does not have", in->loc.thread,
                          in->loc.name, in->loc.thread);
    }
    for (int i = 0; ok && i < ft->nthreads; i++) {
        if (ft->threads[i].id != i)
            ok = lw_error(&w, ft->threads[i].pos, "thread %s is out of order (expected thread %d)",
                          ft->threads[i].name, i);
        else
            ir_add_thread(t, i, ft->threads[i].name);
    }
    for (int i = 0; ok && i < ft->nthreads; i++)
        ok = lower_thread(&w, i);
    lw_free(&w);
    if (ok) {
        ir_finish(t);
        ok = ir_verify_structure(t, d);
        if (!ok)
            d->status = 3;      /* the lowering built invalid IR: an internal error */
        /* A lock misuse is the test's own fault (exit 2). */
        ok = ok && ir_check_locks(t, d);
    }
    if (!ok) {
        ir_test_free(t);
        return NULL;
    }
    return t;
}
