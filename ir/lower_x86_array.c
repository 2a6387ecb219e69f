/* Arrays of the X86_64 init, `int64_t t[2]={1,-1};`, as herd's tests
 * write them (herd's A009: `0:rax=t; 0:rbx=1;` and `movq
 * 0(%rax,%ebx,8),%rcx` reads t's second cell).
 *
 * Each cell is a location of its own: `t` is the first (its address is the
 * array's, which a register of the init or `(t)` names), `t[I]` the others.
 * An access from a cell's address plus a displacement and an index register
 * is to the cell that many bytes on, the elements' size being their C
 * type's; the offset must be known when the thread is lowered (registers
 * of the init and constants), since a location is chosen then.  An offset
 * read from memory, one that falls between two cells or outside the array
 * is refused by name. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "frontend/frontend.h"
#include "ir/lower_int.h"
#include "util/mem.h"

/* Bytes of an element of C type TYPE as herd's X86_64 lays it out: the
 * width in the name (int8_t ... uint64_t), char, short, long and
 * pointers; int and the rest 4. */
static int elem_size(const char *type)
{
    if (!type)
        return 4;
    size_t n = strlen(type);
    if (n && type[n - 1] == '*')
        return 8;
    if (strstr(type, "128"))
        return 16;
    if (strstr(type, "64") || strstr(type, "long"))
        return 8;
    if (strstr(type, "16") || strstr(type, "short"))
        return 2;
    if (strstr(type, "int8") || strstr(type, "char"))
        return 1;
    return 4;
}

char *lw_array_cell_name(const char *array, int index)
{
    return index ? xasprintf("%s[%d]", array, index) : xstrdup(array);
}

bool lw_x86_array_init(lw *w, const fe_init *in)
{
    if (in->nelems > in->array_size)
        return lw_error(w, in->loc.pos, "array %s has %d cells but %d values", in->loc.name, in->array_size,
                        in->nelems);
    for (int i = 0; i < in->array_size; i++) {
        char *name = lw_array_cell_name(in->loc.name, i);
        int loc = lw_loc(w, name);
        free(name);
        ir_val v = 0;
        if (i < in->nelems) {
            const fe_value *e = &in->elems[i];
            v = e->kind == FE_VAL_ADDR ? IR_ADDR(lw_loc(w, e->sym)) : e->i;
        }
        ir_loc *l = &w->t->locs[loc];     /* after lw_loc, which may move the array */
        l->init = v;
        l->init_given = true;
        if (in->type)
            lw_set_ctype(l, in->type);
    }
    return true;
}

/* The array init declaring NAME, or NULL. */
static const fe_init *array_named(const fe_test *ft, const char *name, size_t len)
{
    for (int i = 0; i < ft->ninit; i++) {
        const fe_init *in = &ft->init[i];
        if (in->loc.kind == FE_LOC_MEM && in->array_size > 0 && strlen(in->loc.name) == len &&
            !strncmp(in->loc.name, name, len))
            return in;
    }
    return NULL;
}

bool lw_x86_array_cell(const lw *w, int loc, const fe_init **array, int *index)
{
    if (loc < 0 || loc >= w->t->nlocs)
        return false;
    const char *name = w->t->locs[loc].name;
    size_t n = strlen(name);
    const fe_init *a = array_named(w->ft, name, n);
    if (a) {
        *array = a;
        *index = 0;
        return true;
    }
    const char *br = strchr(name, '[');
    if (!br || n < 3 || name[n - 1] != ']' || !(a = array_named(w->ft, name, (size_t)(br - name))))
        return false;
    *array = a;
    *index = atoi(br + 1);
    return true;
}

bool lw_x86_array_at(lw *w, const fe_init *array, int index, ir_operand offset, fe_pos pos, ir_operand *out)
{
    const char *name = array->loc.name;
    if (offset.kind != IR_OPND_IMM)
        return lw_error(w, pos,
                        "an offset into array %s that depends on a value read from memory is not supported", name);
    int size = elem_size(array->type);
    ir_val k = offset.imm;
    if (k % size)
        return lw_error(w, pos, "offset %lld into array %s falls between its %d-byte cells", (long long)k,
                        name, size);
    ir_val cell = k / size;
    if (cell >= -(ir_val)index && cell < array->array_size - index)
        cell += index;
    else
        return lw_error(w, pos, "offset %lld is outside array %s[%d]", (long long)k, name, array->array_size);
    char *cname = lw_array_cell_name(name, (int)cell);
    *out = ir_imm(IR_ADDR(lw_loc(w, cname)));
    free(cname);
    return true;
}
