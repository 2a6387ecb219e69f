/* Symbolic thread values (see values.h). */
#include "model/paths/values.h"
#include <stdlib.h>
#include "util/mem.h"

void vp_free(vpool *p)
{
    free(p->e);
    p->e = NULL;
    p->n = p->cap = 0;
}

static int push(vpool *p, vexpr x)
{
    int n = p->n;
    size_t cap = (size_t)p->cap, len = (size_t)p->n;
    VEC_PUSH(p->e, len, cap, x);
    p->n = (int)len;
    p->cap = (int)cap;
    return n;
}

int vx_const(vpool *p, ir_val c)
{
    /* Small pools: share the constant if it was already made. */
    for (int i = 0; i < p->n; i++)
        if (p->e[i].op == VX_CONST && p->e[i].c == c && !p->e[i].pdeps)
            return i;
    vexpr x = {.op = VX_CONST, .c = c, .a = -1, .b = -1, .slot = -1};
    return push(p, x);
}

int vx_read(vpool *p, int slot)
{
    for (int i = 0; i < p->n; i++)
        if (p->e[i].op == VX_READ && p->e[i].slot == slot && !p->e[i].pdeps)
            return i;
    vexpr x = {.op = VX_READ, .slot = slot, .a = -1, .b = -1,
               .deps = slot < 64 ? (uint64_t)1 << slot : 0};
    return push(p, x);
}

int vx_bin(vpool *p, ir_binop op, int a, int b)
{
    if (vx_is_const(p, a) && vx_is_const(p, b)) {
        ir_val r = 0;
        if (!ir_binop_eval(op, p->e[a].c, p->e[b].c, &r))
            r = 0;
        return vx_picked(p, vx_const(p, r), p->e[a].pdeps | p->e[b].pdeps);
    }
    vexpr x = {.op = VX_BIN, .bop = op, .a = a, .b = b, .slot = -1,
               .deps = p->e[a].deps | p->e[b].deps, .pdeps = p->e[a].pdeps | p->e[b].pdeps};
    return push(p, x);
}

int vx_picked(vpool *p, int e, uint64_t slots)
{
    if ((p->e[e].pdeps | slots) == p->e[e].pdeps)
        return e;
    vexpr x = p->e[e];
    x.pdeps |= slots;
    return push(p, x);
}

bool vx_eval(const vpool *p, int e, const ir_val *vals, uint64_t known, ir_val *out)
{
    const vexpr *x = &p->e[e];
    if ((x->deps & ~known) != 0)
        return false;
    switch (x->op) {
    case VX_CONST:
        *out = x->c;
        return true;
    case VX_READ:
        *out = vals[x->slot];
        return true;
    case VX_BIN: {
        ir_val a, b, r = 0;
        if (!vx_eval(p, x->a, vals, known, &a) || !vx_eval(p, x->b, vals, known, &b))
            return false;
        if (!ir_binop_eval(x->bop, a, b, &r))
            r = 0;
        *out = r;
        return true;
    }
    }
    return false;
}
