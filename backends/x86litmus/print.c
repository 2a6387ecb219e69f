/* Printing a compiled program as a herd X86 litmus test (herd7 7.57's X86 syntax):
 * Intel operand order, `$` immediates, one column per thread, the
 * condition rewritten from source registers onto x86 registers. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "backends/x86litmus/x86litmus.h"
#include "util/mem.h"

static void add_val(strbuf *b, const ir_test *t, ir_val v)
{
    char buf[96];
    ir_format_val(t, v, buf, sizeof buf);
    sb_add(b, buf);
}

static void add_opnd(strbuf *b, const x86_prog *p, int thread, const x86_opnd *o)
{
    switch (o->kind) {
    case X86_O_REG: sb_add(b, x86_reg_name(o->reg)); break;
    case X86_O_IMM: sb_printf(b, "$%lld", (long long)o->imm); break;
    case X86_O_MEM: sb_printf(b, "[%s]", p->target->locs[o->loc].name); break;
    case X86_O_MEM_REG: sb_printf(b, "[%s]", x86_reg_name(o->reg)); break;
    case X86_O_LABEL: sb_printf(b, "L%d_%d", thread, o->label); break;
    default: break;
    }
}

/* AT&T operand for X86_64: %rax, $1, (x), (%rbx), label. */
static void add_opnd64(strbuf *b, const x86_prog *p, int thread, const x86_opnd *o)
{
    switch (o->kind) {
    case X86_O_REG: sb_printf(b, "%%%s", x86_reg_name64(o->reg)); break;
    case X86_O_IMM: sb_printf(b, "$%lld", (long long)o->imm); break;
    case X86_O_MEM: sb_printf(b, "(%s)", p->target->locs[o->loc].name); break;
    case X86_O_MEM_REG: sb_printf(b, "(%%%s)", x86_reg_name64(o->reg)); break;
    case X86_O_LABEL: sb_printf(b, "L%d_%d", thread, o->label); break;
    default: break;
    }
}

/* X86_64 (herd's AT&T dialect): 64-bit `q` forms, source operand first,
 * except cmpxchg, which herd writes memory first. */
static char *instr64(const x86_prog *p, int thread, const x86_instr *in)
{
    strbuf b = {0};
    if (in->lock)
        sb_add(&b, "lock ");
    const char *name = x86_op_name(in->op);
    for (const char *c = name; *c; c++)
        sb_addc(&b, (char)tolower((unsigned char)*c));
    bool sized = in->op != X86_MFENCE && in->op != X86_LFENCE && in->op != X86_SFENCE && in->op != X86_JMP &&
                 in->op != X86_JE && in->op != X86_JNE;
    if (sized)
        sb_addc(&b, 'q');
    const x86_opnd *first = &in->src, *second = &in->dst;
    if (in->op == X86_CMPXCHG || in->src.kind == X86_O_NONE) {
        first = &in->dst;
        second = &in->src;
    }
    if (first->kind != X86_O_NONE) {
        sb_addc(&b, ' ');
        add_opnd64(&b, p, thread, first);
    }
    if (second->kind != X86_O_NONE) {
        sb_addc(&b, ',');
        add_opnd64(&b, p, thread, second);
    }
    return sb_take(&b);
}

char *x86litmus_instr(const x86_prog *p, int thread, const x86_instr *in)
{
    strbuf b = {0};
    if (in->op == X86_LABEL)
        return xstrdup("");
    if (p->x86_64)
        return instr64(p, thread, in);
    if (in->lock)
        sb_add(&b, "LOCK ");
    sb_add(&b, x86_op_name(in->op));
    if (in->dst.kind != X86_O_NONE) {
        sb_addc(&b, ' ');
        add_opnd(&b, p, thread, &in->dst);
    }
    if (in->src.kind != X86_O_NONE) {
        sb_addc(&b, ',');
        add_opnd(&b, p, thread, &in->src);
    }
    return sb_take(&b);
}

/* Cells of one thread: a label is merged into the instruction after it. */
static char **thread_cells(const x86_prog *p, const x86_thread *th, int *n)
{
    char **cells = NULL;
    size_t len = 0, cap = 0;
    char *pending = NULL;
    for (int i = 0; i < th->ncode; i++) {
        const x86_instr *in = &th->code[i];
        if (in->op == X86_LABEL) {
            if (pending)
                VEC_PUSH(cells, len, cap, pending);
            pending = xasprintf("L%d_%d:", th->id, in->label);
            continue;
        }
        char *text = x86litmus_instr(p, th->id, in);
        if (pending) {
            char *c = xasprintf("%s %s", pending, text);
            free(pending);
            free(text);
            pending = NULL;
            text = c;
        }
        VEC_PUSH(cells, len, cap, text);
    }
    if (pending)
        VEC_PUSH(cells, len, cap, pending);
    *n = (int)len;
    return cells;
}

/* An observable in x86 terms: thread:REG, or [x]. */
static bool add_obs(strbuf *b, const x86_prog *p, const ir_obs *o, bool bracket)
{
    if (o->kind == IR_OBS_MEM) {
        sb_printf(b, bracket ? "[%s]" : "%s", p->target->locs[o->loc].name);
        return true;
    }
    x86_reg r = x86_prog_lookup(p, o->thread, o->reg);
    if (r == X86_NOREG)
        return false;
    sb_printf(b, "%d:%s", o->thread, x86_prog_reg_name(p, r));
    return true;
}

static bool add_cond(strbuf *b, const x86_prog *p, const ir_cond *c)
{
    switch (c->kind) {
    case IR_C_TRUE: sb_add(b, "true"); return true;
    case IR_C_FALSE: sb_add(b, "false"); return true;
    case IR_C_ATOM:
        if (c->ne)
            sb_add(b, "~(");
        if (!add_obs(b, p, &c->lhs, true))
            return false;
        sb_addc(b, '=');
        if (c->rhs_is_obs) {
            if (!add_obs(b, p, &c->rhs_obs, true))
                return false;
        } else {
            add_val(b, p->target, c->rhs);
        }
        if (c->ne)
            sb_addc(b, ')');
        return true;
    case IR_C_NOT:
        sb_add(b, "~(");
        if (!add_cond(b, p, c->l))
            return false;
        sb_addc(b, ')');
        return true;
    default: {
        const char *op = c->kind == IR_C_AND ? " /\\ " : c->kind == IR_C_OR ? " \\/ " : " => ";
        sb_addc(b, '(');
        if (!add_cond(b, p, c->l))
            return false;
        sb_add(b, op);
        if (!add_cond(b, p, c->r))
            return false;
        sb_addc(b, ')');
        return true;
    }
    }
}

/* herd test names allow letters, digits and _ / . - + [ ] : only. */
static char *herd_name(const char *name)
{
    char *s = xstrdup(name && *name ? name : "T");
    for (char *p = s; *p; p++)
        if (!isalnum((unsigned char)*p) && !strchr("_/.-+[]:", *p))
            *p = '_';
    return s;
}

/* Comments must not close early: drop "*)" and "(*" from copied text. */
static void add_comment_text(strbuf *b, const char *s)
{
    for (; *s; s++) {
        if ((s[0] == '*' && s[1] == ')') || (s[0] == '(' && s[1] == '*')) {
            sb_addc(b, s[0]);
            sb_addc(b, ' ');
            continue;
        }
        sb_addc(b, isprint((unsigned char)*s) ? *s : '?');
    }
}

char *x86litmus_print(const x86_prog *p)
{
    const ir_test *t = p->target;
    strbuf b = {0};
    char *name = herd_name(p->source->name);
    sb_printf(&b, "%s %s\n", p->x86_64 ? "X86_64" : "X86", name);
    free(name);
    sb_add(&b, "(* compiled by litmusc from the ");
    sb_add(&b, ir_arch_name(p->source->arch));
    sb_add(&b, " test ");
    add_comment_text(&b, p->source->name);
    sb_add(&b, " with scheme ");
    add_comment_text(&b, p->scheme);
    sb_add(&b, " *)\n(* register map:");
    for (int i = 0; i < p->nmap; i++) {
        sb_printf(&b, " %d:", p->map[i].thread);
        add_comment_text(&b, p->map[i].src);
        sb_printf(&b, "=%d:%s", p->map[i].thread, x86_prog_reg_name(p, p->map[i].reg));
    }
    if (!p->nmap)
        sb_add(&b, " (none)");
    sb_add(&b, " *)\n");
    if (p->x86_64)
        sb_add(&b, "(* X86_64: herd7 7.57 runs CMPXCHG only in this mode *)\n");
    if (!p->herd_ok) {
        sb_add(&b, "(* not runnable by herd7 7.57: ");
        add_comment_text(&b, p->herd_note ? p->herd_note : "");
        sb_add(&b, " *)\n");
    }
    sb_add(&b, "{");
    for (int i = 0; i < t->nlocs; i++) {
        sb_printf(&b, " %s=", t->locs[i].name);
        add_val(&b, t, t->locs[i].init);
        sb_addc(&b, ';');
    }
    for (int ti = 0; ti < p->nthreads; ti++)
        for (int i = 0; i < p->threads[ti].ninits; i++) {
            sb_printf(&b, " %d:%s=", p->threads[ti].id, x86_prog_reg_name(p, p->threads[ti].inits[i].reg));
            add_val(&b, t, p->threads[ti].inits[i].val);
            sb_addc(&b, ';');
        }
    sb_add(&b, " }\n");
    /* The program in columns, each padded to its widest cell. */
    int n = p->nthreads, rows = 1;
    char ***cells = xcalloc((size_t)n + 1, sizeof *cells);
    int *ncells = xcalloc((size_t)n + 1, sizeof *ncells);
    int *width = xcalloc((size_t)n + 1, sizeof *width);
    for (int ti = 0; ti < n; ti++) {
        cells[ti] = thread_cells(p, &p->threads[ti], &ncells[ti]);
        char head[32];
        width[ti] = snprintf(head, sizeof head, "P%d", p->threads[ti].id);
        for (int k = 0; k < ncells[ti]; k++)
            if ((int)strlen(cells[ti][k]) > width[ti])
                width[ti] = (int)strlen(cells[ti][k]);
        if (ncells[ti] + 1 > rows)
            rows = ncells[ti] + 1;
    }
    for (int r = 0; r < rows; r++) {
        for (int ti = 0; ti < n; ti++) {
            char head[32];
            const char *text = "";
            if (r == 0) {
                snprintf(head, sizeof head, "P%d", p->threads[ti].id);
                text = head;
            } else if (r - 1 < ncells[ti]) {
                text = cells[ti][r - 1];
            }
            sb_printf(&b, "%s %-*s ", ti ? "|" : "", width[ti], text);
        }
        sb_add(&b, ";\n");
    }
    for (int ti = 0; ti < n; ti++) {
        for (int k = 0; k < ncells[ti]; k++)
            free(cells[ti][k]);
        free(cells[ti]);
    }
    free(cells);
    free(ncells);
    free(width);
    /* Condition: [locations [...]] [filter P] Q */
    bool ok = true;
    if (t->nlocations) {
        sb_add(&b, "locations [");
        for (int i = 0; i < t->nlocations; i++) {
            ok = ok && add_obs(&b, p, &t->locations[i], false);
            sb_add(&b, "; ");
        }
        b.len -= 1;
        b.s[b.len] = 0;
        sb_add(&b, "]\n");
    }
    if (t->filter) {
        sb_add(&b, "filter ");
        ok = ok && add_cond(&b, p, t->filter);
        sb_addc(&b, '\n');
    }
    sb_add(&b, t->quant == IR_Q_EXISTS ? "exists " : t->quant == IR_Q_NOT_EXISTS ? "~exists " : "forall ");
    if (t->cond->kind == IR_C_AND || t->cond->kind == IR_C_OR || t->cond->kind == IR_C_IMPLIES) {
        ok = ok && add_cond(&b, p, t->cond);
    } else {
        sb_addc(&b, '(');
        ok = ok && add_cond(&b, p, t->cond);
        sb_addc(&b, ')');
    }
    sb_addc(&b, '\n');
    (void)ok;   /* every observed register is mapped by construction */
    return sb_take(&b);
}

char *x86litmus_map_text(const x86_prog *p)
{
    strbuf b = {0};
    sb_printf(&b, "# register map of %s compiled with %s: source register, x86 register\n",
              p->source->name, p->scheme);
    for (int i = 0; i < p->nmap; i++)
        sb_printf(&b, "%d:%s %d:%s\n", p->map[i].thread, p->map[i].src, p->map[i].thread,
                  x86_prog_reg_name(p, p->map[i].reg));
    return sb_take(&b);
}
