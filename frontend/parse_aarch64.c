/* AArch64 programs: herd's table whose first row names the threads
 * `P0 | P1 ;` and whose other rows hold one cell per thread,
 * `[LBL:] [INSTR operands]`, ended by ';'.  Each cell is read by the
 * dialect's own cell reader (aarch64_lex.h); this file cuts the table
 * into cells and checks labels.  Also the register hooks of the init and
 * the condition. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "frontend/aarch64_lex.h"
#include "frontend/internal.h"
#include "isa/isa.h"
#include "util/mem.h"

typedef struct table {
    const char *p, *end;
    int line, col;
    const char *file;
    diag *d;
} table;

/* One cell: its text [s, e) from position LINE:COL, and the character
 * that ends it ('|', ';', or 0 at the end of the program).  A comment
 * (* *) after the instruction is left out of the cell; one inside it is
 * refused. */
typedef struct cell {
    const char *s, *e;
    int line, col;
    char term;
} cell;

static bool next_cell(table *tb, cell *out)
{
    bool unterminated;
    tb->p = skip_blanks(tb->p, tb->end, &tb->line, &tb->col, LX_ML_COMMENTS, &unterminated);
    if (unterminated)
        return diag_error(tb->d, tb->file, tb->line, tb->col, "unterminated comment");
    out->s = tb->p;
    out->line = tb->line;
    out->col = tb->col;
    const char *last = tb->p;   /* one past the last character that is no blank or comment */
    while (tb->p < tb->end && *tb->p != '|' && *tb->p != ';') {
        if (tb->p[0] == '(' && tb->p + 1 < tb->end && tb->p[1] == '*') {
            tb->p = skip_blanks(tb->p, tb->end, &tb->line, &tb->col, LX_ML_COMMENTS, &unterminated);
            if (unterminated)
                return diag_error(tb->d, tb->file, tb->line, tb->col, "unterminated comment");
            continue;
        }
        if (!isspace((unsigned char)*tb->p))
            last = tb->p + 1;
        advance_pos(tb->p, tb->p + 1, &tb->line, &tb->col);
        tb->p++;
    }
    out->e = last;
    for (const char *q = out->s; q < out->e; q++)
        if (q[0] == '(' && q + 1 < out->e && q[1] == '*')
            return diag_error(tb->d, tb->file, out->line, out->col, "a comment inside an instruction");
    out->term = tb->p < tb->end ? *tb->p : 0;
    if (tb->p < tb->end) {
        advance_pos(tb->p, tb->p + 1, &tb->line, &tb->col);
        tb->p++;
    }
    return true;
}

/* The first row: P0 | P1 | ... ; */
static bool thread_row(table *tb, fe_test *t)
{
    size_t n = 0, cap = 0;
    for (;;) {
        cell c;
        if (!next_cell(tb, &c))
            return false;
        size_t len = (size_t)(c.e - c.s);
        bool ok = len >= 2 && len <= 5 && c.s[0] == 'P';
        int id = 0;
        for (size_t i = 1; ok && i < len; i++) {
            ok = isdigit((unsigned char)c.s[i]);
            id = id * 10 + (c.s[i] - '0');
        }
        if (!ok)
            return diag_error(tb->d, tb->file, c.line, c.col, "expected a thread name P%d", (int)n);
        if (id != (int)n)
            return diag_error(tb->d, tb->file, c.line, c.col, "threads must be P0, P1, ... in order (expected P%d)",
                              (int)n);
        fe_thread th;
        memset(&th, 0, sizeof th);
        th.id = id;
        th.name = xstrndup(c.s, len);
        th.pos.line = c.line;
        th.pos.col = c.col;
        VEC_PUSH(t->threads, n, cap, th);
        t->nthreads = (int)n;
        if (c.term == ';')
            return true;
        if (c.term != '|')
            return diag_error(tb->d, tb->file, tb->line, tb->col, "expected '|' or ';' after the thread names");
    }
}

/* A cell's optional label and instruction. */
static bool parse_cell(table *tb, const cell *c, fe_thread *th, int row)
{
    fe_a64_instr in;
    memset(&in, 0, sizeof in);
    in.row = row;
    in.line = c->line;
    in.col = c->col;
    a64_cell r;
    bool ok = a64_cell_init(&r, c->s, c->e, c->line, c->col, tb->file, tb->d);
    if (ok && r.cur.kind == A64_IDENT) {
        /* `L0:` starts the cell: a label */
        a64_cell look = r;
        if (a64_next(&look) && a64_is(&look, ':')) {
            in.label = xstrndup(r.cur.s, (size_t)r.cur.len);
            r = look;
            ok = a64_next(&r);
        } else if (look.failed) {
            ok = false;
        }
    }
    if (ok && r.cur.kind != A64_EOF)
        ok = a64_parse_instr(&r, &in);
    if (!ok) {
        fe_a64_instr_clear(&in);
        return false;
    }
    size_t n = (size_t)th->na64, cap = n;
    VEC_PUSH(th->a64, n, cap, in);
    th->na64 = (int)n;
    return true;
}

/* Labels are local to a thread: defined once; jumps name one of them. */
static bool check_labels(table *tb, const fe_thread *th)
{
    for (int i = 0; i < th->na64; i++) {
        const fe_a64_instr *in = &th->a64[i];
        for (int j = 0; in->label && j < i; j++)
            if (th->a64[j].label && !strcmp(th->a64[j].label, in->label))
                return diag_error(tb->d, tb->file, in->line, in->col, "label %s defined twice in %s", in->label,
                                  th->name);
        for (int k = 0; k < in->nops; k++) {
            const fe_a64_opnd *o = &in->o[k];
            if (o->kind != FE_AO_LABEL)
                continue;
            bool found = false;
            for (int j = 0; j < th->na64; j++)
                found = found || (th->a64[j].label && !strcmp(th->a64[j].label, o->label));
            if (!found)
                return diag_error(tb->d, tb->file, o->line, o->col, "unknown label '%s' in %s", o->label,
                                  th->name);
        }
    }
    return true;
}

/* Only blanks and comments are left (TB itself does not move). */
static bool at_end(const table *tb)
{
    int line = tb->line, col = tb->col;
    bool unterminated;
    const char *q = skip_blanks(tb->p, tb->end, &line, &col, LX_ML_COMMENTS, &unterminated);
    return !unterminated && q >= tb->end;
}

bool fe_parse_aarch64(fe_test *t, const section *s, const char *file, diag *d)
{
    table tb = {s->p, s->end, s->line, s->col, file, d};
    if (at_end(&tb))
        return diag_error(d, file, tb.line, tb.col, "expected the program (a row of threads 'P0 | P1 ;')");
    if (!thread_row(&tb, t))
        return false;
    int row = 0;
    for (;;) {
        if (at_end(&tb))
            break;
        for (int i = 0; i < t->nthreads; i++) {
            cell c;
            if (!next_cell(&tb, &c) || !parse_cell(&tb, &c, &t->threads[i], row))
                return false;
            bool last = i + 1 == t->nthreads;
            if (c.term == (last ? ';' : '|'))
                continue;
            if (c.term == ';')
                return diag_error(d, file, c.line, c.col, "row has %d cells but the test has %d threads", i + 1,
                                  t->nthreads);
            if (c.term == '|')
                return diag_error(d, file, c.line, c.col, "row has more cells than the test has threads (%d)",
                                  t->nthreads);
            return diag_error(d, file, tb.line, tb.col, "expected ';' at the end of the row");
        }
        row++;
    }
    t->nrows = row;
    for (int i = 0; i < t->nthreads; i++)
        if (!check_labels(&tb, &t->threads[i]))
            return false;
    return true;
}

/* The registers an init or condition may name: X0-X30 (W<n> is read as
 * the same register). */
bool fe_reg_known_aarch64(const fe_test *t, const fe_loc *l)
{
    bool narrow;
    return fe_reg_canon_aarch64(t, l->name, &narrow) != NULL;
}

/* herd names a general register by its 64-bit spelling X<n> in a state;
 * a W<n> there is the same register, shown as X<n>. */
const char *fe_reg_canon_aarch64(const fe_test *t, const char *name, bool *narrow)
{
    static const char *const xregs[31] = {
        "X0", "X1", "X2", "X3", "X4", "X5", "X6", "X7", "X8", "X9", "X10", "X11", "X12", "X13", "X14", "X15",
        "X16", "X17", "X18", "X19", "X20", "X21", "X22", "X23", "X24", "X25", "X26", "X27", "X28", "X29", "X30",
    };
    (void)t;
    *narrow = false;
    a64_tok tk = {A64_IDENT, name, (int)strlen(name), 0, 0, 0};
    int r;
    bool wide;
    if (!a64_reg_of(&tk, &r, &wide) || r == FE_A64_ZR || toupper((unsigned char)name[0]) != name[0])
        return NULL;
    return xregs[r];
}
