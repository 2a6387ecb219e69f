/* Reader for the IR text form (ir/README.md), the inverse of ir/print.c.
 * It checks syntax and names only; ir_verify checks the rest, so that the
 * verifier's own tests can be written as text.  This file holds the header
 * and thread grammar; the lexer is ir/read_lex.c, conditions ir/read_cond.c. */
#include <stdlib.h>
#include <string.h>
#include "ir/ir.h"
#include "ir/read_int.h"
#include "util/mem.h"

/* Location inits may name locations declared later: resolved at the end
 * of the header. */
typedef struct fixup {
    int loc;
    char *name;
    int line, col;
} fixup;

/* A phi's argument labels, checked against the predecessors once the
 * thread's blocks are all known. */
typedef struct phi_note {
    int block, instr;
    int *labels;
    int line, col;
} phi_note;

/* ---- header ---------------------------------------------------------------- */
static bool parse_loc(reader *r, fixup **fix, size_t *nfix, size_t *capfix)
{
    int line = r->tok.line, col = r->tok.col;
    char *name = rd_take_name(r, "a location name");
    if (!name)
        return false;
    if (ir_find_loc(r->t, name) >= 0) {
        rd_err(r, line, col, "location '%s' is declared twice", name);
        free(name);
        return false;
    }
    ir_type type;
    if (rd_is_word(r, "int"))
        type = IR_T_INT;
    else if (rd_is_word(r, "int128"))
        type = IR_T_INT128;
    else if (rd_is_word(r, "ptr"))
        type = IR_T_PTR;
    else {
        free(name);
        return rd_err_tok(r, "a type (int, int128, ptr)");
    }
    int idx = ir_add_loc(r->t, name, type);
    free(name);
    if (!rd_next(r))
        return false;
    ir_loc *l = &r->t->locs[idx];
    l->text_line = line;
    l->text_col = col;
    if (rd_is_word(r, "ctype")) {
        if (!rd_next(r) || !(l->ctype = rd_take_string(r, "a quoted C type")))
            return false;
    }
    if (rd_is_word(r, "atomic")) {
        l->atomic = true;
        if (!rd_next(r))
            return false;
    }
    if (!rd_expect_word(r, "init"))
        return false;
    if (rd_accept_punct(r, "&")) {
        fixup f = {idx, NULL, r->tok.line, r->tok.col};
        if (!(f.name = rd_take_name(r, "a location name")))
            return false;
        VEC_PUSH(*fix, *nfix, *capfix, f);
    } else if (r->failed || !rd_take_num(r, "a number or &location", &l->init)) {
        return false;
    }
    if (rd_is_word(r, "given")) {
        l->init_given = true;
        if (!rd_next(r))
            return false;
    }
    if (rd_is_word(r, "ends")) {
        l->end_flag = true;
        if (!rd_next(r) || !rd_take_int(r, "the id of the thread whose end it flags", &l->end_of))
            return false;
    }
    return true;
}

/* ---- threads ------------------------------------------------------------------ */
static bool take_operand(reader *r, ir_thread *th, ir_operand *o)
{
    if (rd_accept_punct(r, "%")) {
        int v = 0;
        if (!rd_take_int(r, "a value number", &v))
            return false;
        if (v < 0)
            return rd_err(r, r->tok.line, r->tok.col, "value numbers are not negative");
        *o = ir_value(v);
        if (v >= th->nvals)
            th->nvals = v + 1;
        return true;
    }
    if (r->failed)
        return false;
    if (rd_is_word(r, "none")) {
        *o = ir_none();
        return rd_next(r);
    }
    ir_val v = 0;
    if (!rd_take_val(r, &v))
        return false;
    *o = ir_imm(v);
    return true;
}

static bool parse_position(reader *r, ir_instr *in)
{
    if (!rd_accept_punct(r, "@"))
        return !r->failed;
    if (!rd_take_int(r, "a line number", &in->line) || !rd_expect_punct(r, ":") ||
        !rd_take_int(r, "a column number", &in->col))
        return false;
    if (r->tok.kind == T_STR)
        in->src = rd_take_string(r, "a quoted source text");
    return !r->failed;
}

/* A fence kind: one word, or AArch64's two (dmb.ish, dsb.oshst). */
static bool take_fence(reader *r, int *out)
{
    if (r->tok.kind == T_WORD && (!strcmp(r->tok.text, "dmb") || !strcmp(r->tok.text, "dsb"))) {
        char name[32];
        snprintf(name, sizeof name, "%s.", r->tok.text);
        if (!rd_next(r) || !rd_expect_punct(r, "."))
            return false;
        if (r->tok.kind == T_WORD && strlen(r->tok.text) < 16)
            strcat(name, r->tok.text);
        if ((*out = ir_fence_from_name(name)) < 0)
            return rd_err_tok(r, "a barrier domain (sy, ish, ishld, ...)");
        return rd_next(r);
    }
    return rd_take_enum(r, ir_fence_from_name, "a fence kind", out);
}

static bool parse_instr(reader *r, ir_thread *th, int block, phi_note **notes, size_t *nnotes, size_t *capnotes)
{
    int line = r->tok.line, col = r->tok.col;
    int dst = -1;
    if (rd_accept_punct(r, "%")) {
        if (!rd_take_int(r, "a value number", &dst) || !rd_expect_punct(r, "="))
            return false;
        if (dst < 0)
            return rd_err(r, line, col, "value numbers are not negative");
        if (dst >= th->nvals)
            th->nvals = dst + 1;
    }
    if (r->failed)
        return false;
    if (r->tok.kind != T_WORD)
        return rd_err_tok(r, "an instruction");
    char *opname = xstrdup(r->tok.text);
    int opline = r->tok.line, opcol = r->tok.col;
    bool ok = rd_next(r);
    ir_instr in;
    memset(&in, 0, sizeof in);
    in.dst = dst;
    in.flag = -1;
    in.addr = in.a = in.b = ir_none();
    in.then_block = in.else_block = -1;
    int e = 0;
    int *labels = NULL;
    if (!ok) {
    } else if (!strcmp(opname, "load") || !strcmp(opname, "store")) {
        in.op = opname[0] == 'l' ? IR_LOAD : IR_STORE;
        ok = rd_expect_punct(r, ".") && rd_take_enum(r, ir_mode_from_name, "an access mode", &e);
        in.mode = (ir_mode)e;
        ok = ok && take_operand(r, th, &in.addr);
        if (ok && in.op == IR_STORE)
            ok = rd_expect_punct(r, ",") && take_operand(r, th, &in.a);
        if (ok && rd_accept_punct(r, ",")) {
            ok = rd_expect_word(r, "excl");
            in.excl = true;
        }
    } else if (!strcmp(opname, "rmw")) {
        in.op = IR_RMW;
        ok = rd_expect_punct(r, ".") && rd_take_enum(r, ir_rmw_from_name, "an rmw operation", &e);
        in.rmw_op = (ir_rmw_op)e;
        ok = ok && rd_expect_punct(r, ".") && rd_take_enum(r, ir_mode_from_name, "an access mode", &e);
        in.mode = (ir_mode)e;
        ok = ok && take_operand(r, th, &in.addr) && rd_expect_punct(r, ",");
        if (ok && in.rmw_op == IR_RMW_CAS) {
            ok = rd_expect_word(r, "expected") && take_operand(r, th, &in.b) && rd_expect_punct(r, ",") &&
                 rd_expect_word(r, "new") && take_operand(r, th, &in.a);
            while (ok && rd_accept_punct(r, ",")) {
                if (rd_is_word(r, "fail")) {
                    ok = rd_next(r) && rd_take_enum(r, ir_mode_from_name, "an access mode", &e);
                    in.fail_mode = (ir_mode)e;
                } else if (rd_is_word(r, "weak")) {
                    in.weak = true;
                    ok = rd_next(r);
                } else if (rd_is_word(r, "noret")) {
                    in.noret = true;
                    ok = rd_next(r);
                } else if (rd_is_word(r, "ok")) {
                    int fl = r->tok.line, fc = r->tok.col;
                    ok = rd_next(r) && rd_expect_punct(r, "%") && rd_take_int(r, "a value number", &in.flag);
                    if (ok && in.flag < 0)
                        ok = rd_err(r, fl, fc, "value numbers are not negative");
                    if (ok && in.flag >= th->nvals)
                        th->nvals = in.flag + 1;
                } else {
                    ok = rd_err_tok(r, "'fail', 'weak', 'noret' or 'ok'");
                }
            }
        } else if (ok) {
            ok = take_operand(r, th, &in.a);
            while (ok && rd_accept_punct(r, ",")) {
                if (rd_is_word(r, "noret"))
                    in.noret = true;
                else if (!rd_is_word(r, "waits"))
                    ok = rd_err_tok(r, "'waits' or 'noret'");
                else
                    in.waits = true;
                ok = ok && rd_next(r);
            }
        }
    } else if (!strcmp(opname, "lock") || !strcmp(opname, "trylock") || !strcmp(opname, "unlock")) {
        in.op = opname[0] == 'u' ? IR_UNLOCK : IR_LOCK;
        if ((opname[0] == 't') != (dst >= 0))
            ok = rd_err(r, opline, opcol, dst >= 0 ? "only a trylock has a result" : "a trylock needs a result");
        ok = ok && rd_expect_punct(r, ".") && rd_take_enum(r, ir_lock_from_name, "a lock kind", &e);
        in.lock = (ir_lock_kind)e;
        ok = ok && take_operand(r, th, &in.addr);
    } else if (!strcmp(opname, "fence")) {
        in.op = IR_FENCE;
        ok = rd_expect_punct(r, ".") && take_fence(r, &e);
        in.fence = (ir_fence_kind)e;
        if (ok && rd_accept_punct(r, ".")) {
            ok = rd_take_enum(r, ir_mode_from_name, "an access mode", &e);
            in.mode = (ir_mode)e;
        }
    } else if (ir_binop_from_name(opname) >= 0) {
        in.op = IR_BIN;
        in.binop = (ir_binop)ir_binop_from_name(opname);
        ok = take_operand(r, th, &in.a) && rd_expect_punct(r, ",") && take_operand(r, th, &in.b);
    } else if (!strcmp(opname, "phi")) {
        in.op = IR_PHI;
        size_t n = 0, cap = 0, nl = 0, capl = 0;
        ir_operand *args = NULL;
        while (ok && rd_is_punct(r, "[")) {
            ir_operand o;
            int lbl;
            ok = rd_next(r) && take_operand(r, th, &o) && rd_expect_punct(r, ",") && rd_take_label(r, &lbl) &&
                 rd_expect_punct(r, "]");
            if (ok) {
                VEC_PUSH(args, n, cap, o);
                VEC_PUSH(labels, nl, capl, lbl);
                if (!rd_is_punct(r, ","))
                    break;
                ok = rd_next(r);
                if (ok && !rd_is_punct(r, "["))
                    ok = rd_err_tok(r, "'['");
            }
        }
        in.phi_args = args;
        in.nphi_args = (int)n;
    } else if (!strcmp(opname, "br")) {
        in.op = IR_BR;
        ok = take_operand(r, th, &in.a) && rd_expect_punct(r, ",") && rd_take_label(r, &in.then_block) &&
             rd_expect_punct(r, ",") && rd_take_label(r, &in.else_block);
        if (ok && rd_accept_punct(r, ",")) {
            ok = rd_expect_word(r, "select");
            in.select = true;
        }
    } else if (!strcmp(opname, "jmp")) {
        in.op = IR_JMP;
        ok = rd_take_label(r, &in.then_block);
    } else if (!strcmp(opname, "ret")) {
        in.op = IR_RET;
    } else if (!strcmp(opname, "cut")) {
        in.op = IR_CUT;
        int bound = 0;
        ok = rd_take_int(r, "the unrolling bound", &bound);
        in.a = ir_imm(bound);
        if (ok && rd_accept_punct(r, ",")) {
            ok = rd_expect_word(r, "spin");
            in.spin = true;
        }
    } else {
        ok = rd_err(r, opline, opcol, "unknown instruction '%s'", opname);
    }
    free(opname);
    ok = ok && parse_position(r, &in);
    if (!ok) {
        free(in.phi_args);
        free(in.src);
        free(labels);
        return false;
    }
    in.text_line = line;
    in.text_col = col;
    ir_instr *slot = ir_emit(th, block, in.op);
    *slot = in;
    if (in.op == IR_PHI) {
        phi_note note = {block, th->blocks[block].ninstrs - 1, labels, line, col};
        VEC_PUSH(*notes, *nnotes, *capnotes, note);
    }
    return true;
}

static bool starts_instr(const reader *r)
{
    if (rd_is_punct(r, "%"))
        return true;
    if (r->tok.kind != T_WORD)
        return false;
    const char *s = r->tok.text;
    if (!strcmp(s, "final") || !strcmp(s, "end"))
        return false;
    return !(s[0] == 'b' && rd_is_digit(s[1]) && rd_peekc(r, 0) == ':');
}

/* Put each phi's arguments in the order of the block's predecessors. */
static bool order_phis(reader *r, ir_thread *th, phi_note *notes, size_t nnotes)
{
    for (size_t i = 0; i < nnotes; i++) {
        ir_block *bl = &th->blocks[notes[i].block];
        ir_instr *in = &bl->instrs[notes[i].instr];
        for (int k = 0; k < in->nphi_args; k++) {
            bool found = false;
            for (int p = 0; p < bl->npreds && !found; p++)
                found = bl->preds[p] == notes[i].labels[k];
            if (!found)
                return rd_err(r, notes[i].line, notes[i].col,
                           "phi argument from b%d, which is not a predecessor of b%d", notes[i].labels[k],
                           notes[i].block);
        }
        if (in->nphi_args != bl->npreds)
            continue;   /* the verifier reports the mismatch */
        ir_operand *sorted = xmalloc((size_t)in->nphi_args * sizeof *sorted + 1);
        for (int p = 0; p < bl->npreds; p++) {
            int found = -1;
            for (int k = 0; k < in->nphi_args && found < 0; k++)
                if (notes[i].labels[k] == bl->preds[p])
                    found = k;
            if (found < 0) {
                free(sorted);
                return rd_err(r, notes[i].line, notes[i].col, "phi has no argument from predecessor b%d",
                           bl->preds[p]);
            }
            sorted[p] = in->phi_args[found];
        }
        free(in->phi_args);
        in->phi_args = sorted;
    }
    return true;
}

static bool parse_reg_binding(reader *r, ir_thread *th, bool final)
{
    int line = r->tok.line, col = r->tok.col;
    char *name = rd_take_name(r, "a register name");
    if (!name)
        return false;
    ir_operand o;
    bool ok = rd_expect_punct(r, "=") && take_operand(r, th, &o);
    if (ok) {
        const ir_reg *regs = final ? th->final_regs : th->init_regs;
        int n = final ? th->nfinal_regs : th->ninit_regs;
        for (int i = 0; i < n && ok; i++)
            if (!strcmp(regs[i].name, name))
                ok = rd_err(r, line, col, "register %s is bound twice", name);
    }
    char *ctype = NULL;
    if (ok && final && rd_is_word(r, "ctype"))
        ok = rd_next(r) && (ctype = rd_take_string(r, "a quoted C type")) != NULL;
    if (ok) {
        if (final)
            ir_set_final_reg(th, name, o);
        else
            ir_set_init_reg(th, name, o);
        if (ctype)
            ir_set_reg_ctype(th, name, ctype);
    }
    free(ctype);
    free(name);
    return ok;
}

static bool parse_thread(reader *r)
{
    int line = r->tok.line, col = r->tok.col;
    int id;
    if (!rd_take_int(r, "a thread number", &id))
        return false;
    char *name = rd_take_name(r, "a thread name");
    if (!name)
        return false;
    if (id != r->t->nthreads) {
        free(name);
        return rd_err(r, line, col, "thread %d out of order (expected thread %d)", id, r->t->nthreads);
    }
    ir_thread *th = ir_add_thread(r->t, id, name);
    free(name);
    th->text_line = line;
    th->text_col = col;
    while (rd_is_word(r, "init"))
        if (!rd_next(r) || !parse_reg_binding(r, th, false))
            return false;
    phi_note *notes = NULL;
    size_t nnotes = 0, capnotes = 0;
    bool ok = !r->failed;
    while (ok && r->tok.kind == T_WORD && r->tok.text[0] == 'b' && rd_peekc(r, 0) == ':') {
        int lbl, lline = r->tok.line, lcol = r->tok.col;
        ok = rd_take_label(r, &lbl) && rd_expect_punct(r, ":");
        if (ok && lbl != th->nblocks)
            ok = rd_err(r, lline, lcol, "block b%d out of order (expected b%d)", lbl, th->nblocks);
        if (!ok)
            break;
        int b = ir_add_block(th);
        th->blocks[b].text_line = lline;
        th->blocks[b].text_col = lcol;
        while (ok && starts_instr(r))
            ok = parse_instr(r, th, b, &notes, &nnotes, &capnotes);
    }
    while (ok && rd_is_word(r, "final"))
        ok = rd_next(r) && parse_reg_binding(r, th, true);
    ok = ok && rd_expect_word(r, "end");
    if (ok) {
        ir_finish(r->t);
        ok = order_phis(r, th, notes, nnotes);
    }
    for (size_t i = 0; i < nnotes; i++)
        free(notes[i].labels);
    free(notes);
    return ok;
}

static bool parse_test(reader *r)
{
    if (!rd_expect_word(r, "test"))
        return false;
    char *name = rd_take_string(r, "the quoted test name");
    if (!name || !rd_expect_word(r, "arch")) {
        free(name);
        return false;
    }
    int arch = 0;
    if (!rd_take_enum(r, ir_arch_from_name, "an architecture (X86, X86_64, C, Java)", &arch)) {
        free(name);
        return false;
    }
    r->t = ir_test_new(name, (ir_arch)arch);
    free(name);
    r->t->file = xstrdup(r->file);
    for (;;) {
        if (rd_is_word(r, "doc")) {
            free(r->t->doc);
            if (!rd_next(r) || !(r->t->doc = rd_take_string(r, "a quoted doc string")))
                return false;
        } else if (rd_is_word(r, "info")) {
            char *k = NULL, *v = NULL;
            bool ok = rd_next(r) && (k = rd_take_string(r, "a quoted key")) &&
                      (v = rd_take_string(r, "a quoted value"));
            if (ok)
                ir_add_info(r->t, k, v);
            free(k);
            free(v);
            if (!ok)
                return false;
        } else if (rd_is_word(r, "hash")) {
            free(r->t->hash);
            if (!rd_next(r) || !(r->t->hash = rd_take_string(r, "a quoted hash")))
                return false;
        } else {
            break;
        }
    }
    fixup *fix = NULL;
    size_t nfix = 0, capfix = 0;
    bool ok = !r->failed;
    while (ok && rd_is_word(r, "loc"))
        ok = rd_next(r) && parse_loc(r, &fix, &nfix, &capfix);
    for (size_t i = 0; i < nfix; i++) {
        int target = ir_find_loc(r->t, fix[i].name);
        if (ok && target < 0)
            ok = rd_err(r, fix[i].line, fix[i].col, "unknown location '%s'", fix[i].name);
        if (ok)
            r->t->locs[fix[i].loc].init = IR_ADDR(target);
        free(fix[i].name);
    }
    free(fix);
    while (ok && rd_is_word(r, "thread"))
        ok = rd_next(r) && parse_thread(r);
    if (!ok)
        return false;
    r->t->cond_line = r->tok.line;
    r->t->cond_col = r->tok.col;
    if (!rd_expect_word(r, "cond"))
        return false;
    if (rd_is_word(r, "exists")) {
        r->t->quant = IR_Q_EXISTS;
    } else if (rd_is_word(r, "forall")) {
        r->t->quant = IR_Q_FORALL;
    } else if (rd_is_punct(r, "~")) {
        if (!rd_next(r))
            return false;
        if (!rd_is_word(r, "exists"))
            return rd_err_tok(r, "'exists'");
        r->t->quant = IR_Q_NOT_EXISTS;
    } else {
        return rd_err_tok(r, "a quantifier (exists, ~exists, forall)");
    }
    if (!rd_next(r))
        return false;
    ir_cond *c = rd_parse_or(r);
    if (!c)
        return false;
    ir_cond_free(r->t->cond);
    r->t->cond = c;
    if (rd_is_word(r, "filter")) {
        r->t->filter_line = r->tok.line;
        r->t->filter_col = r->tok.col;
        if (!rd_next(r) || !(r->t->filter = rd_parse_or(r)))
            return false;
    }
    if (rd_is_word(r, "locations")) {
        r->t->locations_line = r->tok.line;
        r->t->locations_col = r->tok.col;
        if (!rd_next(r))
            return false;
        while (r->tok.kind == T_NUM || rd_is_punct(r, "[")) {
            ir_obs o;
            if (!rd_take_obs(r, &o))
                return false;
            ir_add_location(r->t, o);
            free(o.reg);
        }
    }
    if (r->tok.kind != T_EOF)
        return rd_err_tok(r, "the end of the text");
    return true;
}

ir_test *ir_read(const char *text, const char *file, diag *d)
{
    return ir_read_at(text, file, 1, d);
}

ir_test *ir_read_at(const char *text, const char *file, int first_line, diag *d)
{
    reader r = {.s = text, .line = first_line, .col = 1, .file = file ? file : "", .d = d};
    bool ok = rd_next(&r) && parse_test(&r);
    free(r.tok.text);
    if (!ok || r.failed) {
        if (!r.failed)
            diag_error(d, r.file, r.tok.line, r.tok.col, "invalid IR text");
        ir_test_free(r.t);
        return NULL;
    }
    return r.t;
}
