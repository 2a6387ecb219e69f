/* Values seen through a C type, as herd7 7.57 shows and compares a final
 * state (herd/archExtra_herd.ml: pp_typed, mask_type): a location or a
 * register declared `int8_t` shows its low byte sign-extended, `uint16_t`
 * its low 16 bits, and one declared with no type is herd's default, `int`,
 * 32 bits signed.  Only an instruction set whose row says typed_state
 * (AArch64) is seen so; the others show the values as computed. */
#include <string.h>
#include "isa/isa.h"
#include "ir/ir.h"

/* herd's TestType.size_of and is_signed on a 64-bit machine: `long` is a
 * Word there too.  A pointer, or a type herd does not size, is 8 bytes
 * (left as it is). */
int ir_ctype_bytes(const char *ctype, bool *sgn)
{
    static const struct { const char *name; int bytes; bool sgn; } types[] = {
        {"int", 4, true}, {"long", 4, true}, {"int32_t", 4, true}, {"uint32_t", 4, false},
        {"atomic_t", 4, false}, {"char", 1, true}, {"int8_t", 1, true}, {"uint8_t", 1, false},
        {"short", 2, true}, {"int16_t", 2, true}, {"uint16_t", 2, false},
        {"int64_t", 8, true}, {"uint64_t", 8, false}, {"intptr_t", 8, true}, {"uintptr_t", 8, false},
        {"pteval_t", 8, false},
    };
    *sgn = true;
    if (!ctype)
        ctype = "int";
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (!strcmp(ctype, types[i].name)) {
            *sgn = types[i].sgn;
            return types[i].bytes;
        }
    return 8;
}

/* V cut to its low BYTES bytes, then sign-extended when SGN: what a
 * value of that width holds, as one 64-bit number. */
ir_val ir_val_cast(ir_val v, int bytes, bool sgn)
{
    if (bytes <= 0 || bytes >= 8)
        return v;
    int bits = 8 * bytes;
    uint64_t mask = ((uint64_t)1 << bits) - 1, u = (uint64_t)v & mask;
    if (sgn && (u >> (bits - 1)) & 1)
        u |= ~mask;
    return (ir_val)u;
}

/* The C type an observable is declared with (NULL: none), when T's
 * instruction set sees values through types; false when it does not. */
static bool obs_ctype(const ir_test *t, const ir_obs *o, const char **ctype)
{
    const isa *m = isa_of((int)t->arch);
    *ctype = NULL;
    if (!m || !m->typed_state)
        return false;
    if (o->kind == IR_OBS_MEM) {
        if (o->loc >= 0 && o->loc < t->nlocs)
            *ctype = t->locs[o->loc].ctype;
        return true;
    }
    int th = ir_find_thread(t, o->thread);
    int r = th >= 0 && o->reg ? ir_thread_find_reg(&t->threads[th], o->reg) : -1;
    if (r >= 0)
        *ctype = t->threads[th].final_regs[r].ctype;
    return true;
}

ir_val ir_obs_shown(const ir_test *t, const ir_obs *o, ir_val v)
{
    const char *ctype;
    bool sgn = true;
    if (IR_IS_ADDR(v) || !obs_ctype(t, o, &ctype))
        return v;
    size_t n = ctype ? strlen(ctype) : 0;
    if (n && ctype[n - 1] == '*')
        return v;
    int nb = ir_ctype_bytes(ctype, &sgn);
    return ir_val_cast(v, nb, sgn);
}

bool ir_obs_unsigned64(const ir_test *t, const ir_obs *o)
{
    const char *ctype;
    bool sgn = true;
    if (!obs_ctype(t, o, &ctype) || !ctype)
        return false;
    return ir_ctype_bytes(ctype, &sgn) == 8 && !sgn && strcmp(ctype, "pteval_t") && !strchr(ctype, '*');
}

/* ir_cond_eval on values already seen through their types (ir_obs_shown):
 * the constant an observable is compared with is seen through the same
 * type, as herd masks both sides (constraints.ml), so that `0:X0=255` and
 * `0:X0=-1` both hold of an int8_t register holding 0xff. */
bool ir_cond_holds(const ir_test *t, const ir_cond *c, const ir_obs *obs, const ir_val *vals, int n)
{
    switch (c->kind) {
    case IR_C_ATOM:
        if (!c->rhs_is_obs) {
            ir_cond atom = *c;
            atom.rhs = ir_obs_shown(t, &c->lhs, c->rhs);
            return ir_cond_eval(&atom, obs, vals, n);
        }
        return ir_cond_eval(c, obs, vals, n);
    case IR_C_NOT: return !ir_cond_holds(t, c->l, obs, vals, n);
    case IR_C_AND: return ir_cond_holds(t, c->l, obs, vals, n) && ir_cond_holds(t, c->r, obs, vals, n);
    case IR_C_OR: return ir_cond_holds(t, c->l, obs, vals, n) || ir_cond_holds(t, c->r, obs, vals, n);
    case IR_C_IMPLIES: return !ir_cond_holds(t, c->l, obs, vals, n) || ir_cond_holds(t, c->r, obs, vals, n);
    default: return ir_cond_eval(c, obs, vals, n);
    }
}
