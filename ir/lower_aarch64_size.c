/* AArch64 tests that access one location with two sizes: herd7 7.57
 * without -variant mixed refuses them ("Illegal mixed-size test"), and
 * with it splits each access into bytes, which litmusc's one-value-per-
 * location model does not do.  So litmusc refuses them too, at the
 * access, once every thread is lowered.
 *
 * Each access's size comes from its source instruction (the IR access
 * carries its line and column); its location from its address: a constant
 * address names one, an address loaded from location P (a pointer chase,
 * `LDR X2,[X2]` then `LDR W0,[X2]`) names those P may hold (its initial
 * value and the constant addresses stored into it), an address computed
 * from those names theirs, and any other address may name every
 * location. */
#include <stdlib.h>
#include <string.h>
#include "frontend/frontend.h"
#include "ir/lower_int.h"
#include "util/mem.h"

typedef struct access {
    uint64_t locs;          /* the locations it may name, a bit each (all: ~0) */
    int bytes;
    int line, col;
} access;

/* The bytes of the access the thread's source instruction at LINE:COL
 * makes: its B or H suffix, else its data register's width; 0 if none. */
static int source_bytes(const fe_thread *ft, int line, int col)
{
    for (int i = 0; i < ft->na64; i++) {
        const fe_a64_instr *in = &ft->a64[i];
        if (in->line != line || in->col != col)
            continue;
        if (in->size)
            return in->size;
        const fe_a64_opnd *data = in->op == FE_A64_STXR ? &in->o[1] : &in->o[0];
        return data->wide ? 8 : 4;
    }
    return 0;
}

/* Bit of the location at address A, or every bit for an address past 64. */
static uint64_t loc_bit(ir_val a)
{
    int l = IR_ADDR_LOC(a);
    return l < 64 ? (uint64_t)1 << l : ~(uint64_t)0;
}

/* The instruction of TH that defines SSA value V, or NULL. */
static const ir_instr *def_of(const ir_thread *th, int v)
{
    for (int b = 0; b < th->nblocks; b++)
        for (int i = 0; i < th->blocks[b].ninstrs; i++)
            if (th->blocks[b].instrs[i].dst == v)
                return &th->blocks[b].instrs[i];
    return NULL;
}

/* What each location may hold as an address: its initial one and every
 * constant address stored into it; ~0 where something else is stored. */
static void pointees(const ir_test *t, uint64_t *held)
{
    for (int l = 0; l < t->nlocs && l < 64; l++)
        held[l] = IR_IS_ADDR(t->locs[l].init) ? loc_bit(t->locs[l].init) : 0;
    for (int th = 0; th < t->nthreads; th++)
        for (int b = 0; b < t->threads[th].nblocks; b++)
            for (int i = 0; i < t->threads[th].blocks[b].ninstrs; i++) {
                const ir_instr *in = &t->threads[th].blocks[b].instrs[i];
                if (in->op != IR_STORE && in->op != IR_RMW)
                    continue;
                uint64_t into = in->addr.kind == IR_OPND_IMM && IR_IS_ADDR(in->addr.imm) ? loc_bit(in->addr.imm)
                                                                                          : ~(uint64_t)0;
                uint64_t what = in->a.kind == IR_OPND_IMM
                                    ? (IR_IS_ADDR(in->a.imm) ? loc_bit(in->a.imm) : 0) : ~(uint64_t)0;
                for (int l = 0; l < t->nlocs && l < 64; l++)
                    if (into >> l & 1)
                        held[l] |= what;
            }
}

/* The locations an address V computed in TH may name: a constant address
 * its own; a value loaded from P what P may hold; arithmetic and phis the
 * union of their operands' (`ADD X5,X1,X3` with X3 a dependency's 0 names
 * X1's location); anything else (or a chain past DEPTH) every location. */
static uint64_t names(const ir_thread *th, ir_operand v, const uint64_t *held, int depth)
{
    if (v.kind == IR_OPND_IMM)
        return IR_IS_ADDR(v.imm) ? loc_bit(v.imm) : 0;
    const ir_instr *d = v.kind == IR_OPND_VAL && depth > 0 ? def_of(th, v.val) : NULL;
    if (!d)
        return ~(uint64_t)0;
    switch (d->op) {
    case IR_LOAD: case IR_RMW:
        if (d->addr.kind == IR_OPND_IMM && IR_IS_ADDR(d->addr.imm) && IR_ADDR_LOC(d->addr.imm) < 64)
            return held[IR_ADDR_LOC(d->addr.imm)];
        return ~(uint64_t)0;
    case IR_BIN:
        return names(th, d->a, held, depth - 1) | names(th, d->b, held, depth - 1);
    case IR_PHI: {
        uint64_t u = 0;
        for (int i = 0; i < d->nphi_args; i++)
            u |= names(th, d->phi_args[i], held, depth - 1);
        return u;
    }
    default:
        return ~(uint64_t)0;
    }
}

bool lw_aarch64_check_sizes(lw *w)
{
    const ir_test *t = w->t;
    uint64_t held[64];
    pointees(t, held);
    access *acc = NULL;
    size_t n = 0, cap = 0;
    bool ok = true;
    for (int th = 0; th < t->nthreads && ok; th++) {
        const ir_thread *it = &t->threads[th];
        for (int b = 0; b < it->nblocks && ok; b++)
            for (int i = 0; i < it->blocks[b].ninstrs && ok; i++) {
                const ir_instr *in = &it->blocks[b].instrs[i];
                if (in->op != IR_LOAD && in->op != IR_STORE && in->op != IR_RMW)
                    continue;
                access a = {names(it, in->addr, held, 16), source_bytes(&w->ft->threads[th], in->line, in->col),
                            in->line, in->col};
                if (!a.bytes)
                    continue;
                for (size_t k = 0; k < n && ok; k++) {
                    uint64_t both = acc[k].locs & a.locs;
                    if (!both || acc[k].bytes == a.bytes)
                        continue;
                    int l = 0;
                    while (l < 63 && !(both >> l & 1))
                        l++;
                    const char *name = l < t->nlocs ? t->locs[l].name : "a location";
                    fe_pos p = {a.line, a.col};
                    ok = lw_error(w, p, "mixed-size access to %s (%d byte%s here, %d at line %d): "
                                  "outside litmusc's AArch64 dialect", name, a.bytes, a.bytes == 1 ? "" : "s",
                                  acc[k].bytes, acc[k].line);
                }
                VEC_PUSH(acc, n, cap, a);
            }
    }
    free(acc);
    return ok;
}
