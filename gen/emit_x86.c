/* An X86 test for a placed cycle, laid out as diy7 prints it: one
 * column per thread, MOV for plain accesses, MOV then XCHG for an
 * annotated (atomic) write and for an exchange, MFENCE after an access
 * whose edge is fenced. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gen/internal.h"

static const char *const regs[] = {"EAX", "EBX", "ECX", "EDX", "ESI", "EDI"};
enum { NREGS = sizeof regs / sizeof *regs };

typedef struct column {
    char *ins[4 * GEN_MAX_EDGES];
    int n;
} column;

static void add(column *col, char *s)
{
    col->ins[col->n++] = s;
}

bool gen_emit_x86(const gen_cycle *c, const gen_header *h, strbuf *out, diag *d)
{
    column cols[GEN_MAX_EDGES];
    gen_final fin[2 * GEN_MAX_EDGES];
    int nfin = 0;
    if (!gen_memory_finals(c, fin, &nfin, d))
        return false;
    memset(cols, 0, sizeof cols);
    bool ok = true;
    for (int p = 0; p < c->nprocs && ok; p++) {
        int nreg = 0;
        for (int i = c->proc_start[p]; i < c->proc_start[p + 1]; i++) {
            const gen_event *ev = &c->ev[i];
            char loc[8];
            gen_loc_name(ev->loc, loc, sizeof loc);
            const char *reg = NULL;
            bool uses_reg = ev->dir == GD_R || ev->atom >= 0;
            if (ev->rmw && ev->dir == GD_W)
                uses_reg = false;       /* the exchange was emitted with its read */
            if (uses_reg) {
                if (nreg == NREGS) {
                    ok = gen_edge_error(d, c, i, "thread %d needs more than %d registers", p, NREGS);
                    break;
                }
                reg = regs[nreg++];
            }
            if (ev->rmw && ev->dir == GD_R) {
                int w = c->ev[(i + 1) % c->n].v;
                add(&cols[p], xasprintf("MOV %s,$%d", reg, w));
                add(&cols[p], xasprintf("XCHG [%s],%s", loc, reg));
            } else if (ev->rmw) {
                /* nothing: part of the exchange above */
            } else if (ev->dir == GD_R) {
                add(&cols[p], xasprintf("MOV %s,[%s]", reg, loc));
            } else if (ev->atom >= 0) {
                add(&cols[p], xasprintf("MOV %s,$%d", reg, ev->v));
                add(&cols[p], xasprintf("XCHG [%s],%s", loc, reg));
            } else {
                add(&cols[p], xasprintf("MOV [%s],$%d", loc, ev->v));
            }
            if (c->e[i].kind == GK_FENCED)
                add(&cols[p], xstrdup("MFENCE"));
            if (ev->dir == GD_R && gen_show_read(c, i)) {
                gen_final *f = &fin[nfin++];
                memset(f, 0, sizeof *f);
                f->proc = p;
                snprintf(f->reg, sizeof f->reg, "%s", reg);
                f->v = ev->v;
            }
        }
    }
    if (ok) {
        sb_printf(out, "X86 %s\n\"%s\"\n%s{\n}\n", h->name, h->com, h->info);
        int width[GEN_MAX_EDGES], rows = 0;
        for (int p = 0; p < c->nprocs; p++) {
            char head[16];
            snprintf(head, sizeof head, "P%d", p);
            width[p] = (int)strlen(head);
            for (int k = 0; k < cols[p].n; k++)
                if ((int)strlen(cols[p].ins[k]) > width[p])
                    width[p] = (int)strlen(cols[p].ins[k]);
            if (cols[p].n > rows)
                rows = cols[p].n;
        }
        for (int r = -1; r < rows; r++) {
            for (int p = 0; p < c->nprocs; p++) {
                char head[16];
                snprintf(head, sizeof head, "P%d", p);
                const char *cell = r < 0 ? head : r < cols[p].n ? cols[p].ins[r] : "";
                sb_printf(out, "%s %-*s ", p ? "|" : "", width[p], cell);
            }
            sb_add(out, ";\n");
        }
        sb_add(out, "exists (");
        gen_print_condition(fin, nfin, out);
        sb_add(out, ")\n");
    }
    for (int p = 0; p < c->nprocs; p++)
        for (int k = 0; k < cols[p].n; k++)
            free(cols[p].ins[k]);
    return ok;
}
