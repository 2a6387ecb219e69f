/* Building and freeing an ir_test; predecessor lists. */
#include <stdlib.h>
#include <string.h>
#include "ir/ir.h"
#include "util/free_each.h"
#include "util/mem.h"

/* ir_find_loc's index over t->locs by name: open addressing, each slot a
 * location's index + 1 (0: empty), the capacity a power of two at least
 * twice the locations, so that a test with 200,000 locations is read in
 * linear time rather than one scan of all of them per name. */
struct ir_loc_index {
    int *slot;
    size_t cap;
    int n;                  /* locations indexed: t->locs[0 .. n-1] */
    /* Room in t->locs as ir_add_loc last grew it (doubling: a realloc a
     * location is quadratic under ASan, whose realloc always copies), for
     * the array at LOCS_AT only; one grown by hand is grown afresh. */
    const ir_loc *locs_at;
    int locs_cap;
};

ir_test *ir_test_new(const char *name, ir_arch arch)
{
    ir_test *t = xcalloc(1, sizeof *t);
    t->name = xstrdup(name ? name : "");
    t->arch = arch;
    /* herd's meaning of an absent condition: forall (true). */
    t->quant = IR_Q_FORALL;
    t->cond = ir_cond_new(IR_C_TRUE);
    return t;
}

void ir_cond_free(ir_cond *c)
{
    if (!c)
        return;
    ir_cond_free(c->l);
    ir_cond_free(c->r);
    free(c->lhs.reg);
    free(c->rhs_obs.reg);
    free(c);
}

static void reg_clear(ir_reg *r) { free(r->name); free(r->ctype); }

static void instr_clear(ir_instr *in)
{
    free(in->phi_args);
    free(in->src);
}

static void block_clear(ir_block *bl)
{
    FREE_EACH(bl->instrs, bl->ninstrs, instr_clear);
    free(bl->preds);
}

static void thread_clear(ir_thread *th)
{
    FREE_EACH(th->blocks, th->nblocks, block_clear);
    free(th->name);
    FREE_EACH(th->init_regs, th->ninit_regs, reg_clear);
    FREE_EACH(th->final_regs, th->nfinal_regs, reg_clear);
}

static void loc_clear(ir_loc *l)
{
    free(l->name);
    free(l->ctype);
}

static void obs_clear(ir_obs *o) { free(o->reg); }

void ir_test_free(ir_test *t)
{
    if (!t)
        return;
    free(t->name);
    free(t->file);
    free(t->doc);
    kv_free(t->info, t->ninfo);
    FREE_EACH(t->locs, t->nlocs, loc_clear);
    FREE_EACH(t->threads, t->nthreads, thread_clear);
    ir_cond_free(t->cond);
    ir_cond_free(t->filter);
    FREE_EACH(t->locations, t->nlocations, obs_clear);
    free(t->hash);
    if (t->loc_index)
        free(t->loc_index->slot);
    free(t->loc_index);
    free(t);
}

static size_t name_hash(const char *s)
{
    uint64_t h = 14695981039346656037u;      /* FNV-1a */
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211u;
    return (size_t)h;
}

/* The slot holding NAME, or the empty slot where it would go. */
static size_t index_probe(const ir_test *t, const char *name)
{
    const struct ir_loc_index *x = t->loc_index;
    size_t i = name_hash(name) & (x->cap - 1);
    while (x->slot[i] && strcmp(t->locs[x->slot[i] - 1].name, name))
        i = (i + 1) & (x->cap - 1);
    return i;
}

/* Index t->locs[I]; a name already there keeps its first location. */
static void index_put(ir_test *t, int i)
{
    size_t s = index_probe(t, t->locs[i].name);
    if (!t->loc_index->slot[s])
        t->loc_index->slot[s] = i + 1;
}

/* Index t->locs[N-1]: growing (and rehashing) at half full, and indexing
 * all N afresh where locations were added without ir_add_loc. */
static void index_add(ir_test *t, int n)
{
    struct ir_loc_index *x = t->loc_index;
    if ((size_t)n * 2 > x->cap || x->n != n - 1) {
        while ((size_t)n * 2 > x->cap)
            x->cap = x->cap ? x->cap * 2 : 64;
        free(x->slot);
        x->slot = xcalloc(x->cap, sizeof *x->slot);
        for (x->n = 0; x->n < n - 1; x->n++)
            index_put(t, x->n);
    }
    index_put(t, n - 1);
    x->n = n;
}

int ir_find_loc(const ir_test *t, const char *name)
{
    if (t->loc_index && t->loc_index->n == t->nlocs) {
        int s = t->loc_index->slot[index_probe(t, name)];
        return s - 1;
    }
    for (int i = 0; i < t->nlocs; i++)         /* a test built without ir_add_loc */
        if (!strcmp(t->locs[i].name, name))
            return i;
    return -1;
}

int ir_add_loc(ir_test *t, const char *name, ir_type type)
{
    int i = ir_find_loc(t, name);
    if (i >= 0)
        return i;
    if (!t->loc_index)
        t->loc_index = xcalloc(1, sizeof *t->loc_index);
    struct ir_loc_index *x = t->loc_index;
    if (x->locs_at != t->locs || x->n != t->nlocs || t->nlocs >= x->locs_cap) {
        x->locs_cap = t->nlocs < 8 ? 16 : 2 * t->nlocs;
        t->locs = xrealloc(t->locs, (size_t)x->locs_cap * sizeof *t->locs);
        x->locs_at = t->locs;
    }
    ir_loc *l = &t->locs[t->nlocs];
    memset(l, 0, sizeof *l);
    l->name = xstrdup(name);
    l->type = type;
    t->nlocs++;
    index_add(t, t->nlocs);
    return t->nlocs - 1;
}

ir_thread *ir_add_thread(ir_test *t, int id, const char *name)
{
    t->threads = xrealloc(t->threads, (size_t)(t->nthreads + 1) * sizeof *t->threads);
    ir_thread *th = &t->threads[t->nthreads++];
    memset(th, 0, sizeof *th);
    th->id = id;
    th->name = xstrdup(name ? name : "");
    return th;
}

int ir_add_block(ir_thread *th)
{
    VEC_PUSH(th->blocks, th->nblocks, th->cap, ((ir_block){0}));
    return th->nblocks - 1;
}

int ir_new_val(ir_thread *th)
{
    return th->nvals++;
}

ir_instr *ir_emit(ir_thread *th, int block, ir_op op)
{
    ir_block *bl = &th->blocks[block];
    ir_instr in;
    memset(&in, 0, sizeof in);
    in.op = op;
    in.dst = -1;
    in.flag = -1;
    in.addr = in.a = in.b = ir_none();
    in.then_block = in.else_block = -1;
    VEC_PUSH(bl->instrs, bl->ninstrs, bl->cap, in);
    return &bl->instrs[bl->ninstrs - 1];
}

/* Insert or replace NAME in a register list kept sorted by name (strcmp). */
static void set_reg(ir_reg **regs, int *n, const char *name, ir_operand v)
{
    int lo = 0, hi = *n;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        int c = strcmp((*regs)[mid].name, name);
        if (c == 0) {
            (*regs)[mid].value = v;
            return;
        }
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    *regs = xrealloc(*regs, (size_t)(*n + 1) * sizeof **regs);
    memmove(*regs + lo + 1, *regs + lo, (size_t)(*n - lo) * sizeof **regs);
    (*regs)[lo].name = xstrdup(name);
    (*regs)[lo].value = v;
    (*regs)[lo].ctype = NULL;
    (*n)++;
}

void ir_set_final_reg(ir_thread *th, const char *name, ir_operand v)
{
    set_reg(&th->final_regs, &th->nfinal_regs, name, v);
}

void ir_set_init_reg(ir_thread *th, const char *name, ir_operand v)
{
    set_reg(&th->init_regs, &th->ninit_regs, name, v);
}

/* A typed register's type goes with its final binding, which the state shows. */
void ir_set_reg_ctype(ir_thread *th, const char *name, const char *ctype)
{
    int r = ir_thread_find_reg(th, name);
    if (r < 0)
        return;
    free(th->final_regs[r].ctype);
    th->final_regs[r].ctype = ctype ? xstrdup(ctype) : NULL;
}

int ir_thread_find_reg(const ir_thread *th, const char *name)
{
    for (int i = 0; i < th->nfinal_regs; i++)
        if (!strcmp(th->final_regs[i].name, name))
            return i;
    return -1;
}

int ir_find_thread(const ir_test *t, int id)
{
    for (int i = 0; i < t->nthreads; i++)
        if (t->threads[i].id == id)
            return i;
    return -1;
}

ir_cond *ir_cond_new(ir_cond_kind kind)
{
    return ir_cond_join(kind, NULL, NULL);
}

ir_cond *ir_cond_join(ir_cond_kind kind, ir_cond *l, ir_cond *r)
{
    ir_cond *c = xcalloc(1, sizeof *c);
    c->kind = kind;
    c->l = l;
    c->r = r;
    c->lhs.thread = c->rhs_obs.thread = -1;
    c->lhs.loc = c->rhs_obs.loc = -1;
    return c;
}

void ir_add_info(ir_test *t, const char *key, const char *value)
{
    t->info = xrealloc(t->info, (size_t)(t->ninfo + 1) * sizeof *t->info);
    t->info[t->ninfo].key = xstrdup(key);
    t->info[t->ninfo].value = xstrdup(value);
    t->ninfo++;
}

void ir_add_location(ir_test *t, ir_obs o)
{
    t->locations = xrealloc(t->locations, (size_t)(t->nlocations + 1) * sizeof *t->locations);
    if (o.reg)
        o.reg = xstrdup(o.reg);
    t->locations[t->nlocations++] = o;
}

/* Predecessors in increasing block order, one entry per incoming edge
 * (a BR whose two targets coincide contributes two). */
void ir_finish(ir_test *t)
{
    for (int ti = 0; ti < t->nthreads; ti++) {
        ir_thread *th = &t->threads[ti];
        for (int b = 0; b < th->nblocks; b++) {
            free(th->blocks[b].preds);
            th->blocks[b].preds = NULL;
            th->blocks[b].npreds = 0;
        }
        for (int b = 0; b < th->nblocks; b++) {
            ir_block *bl = &th->blocks[b];
            if (bl->ninstrs == 0)
                continue;
            const ir_instr *last = &bl->instrs[bl->ninstrs - 1];
            int succ[2], ns = 0;
            if (last->op == IR_BR) {
                succ[ns++] = last->then_block;
                succ[ns++] = last->else_block;
            } else if (last->op == IR_JMP) {
                succ[ns++] = last->then_block;
            }
            for (int s = 0; s < ns; s++) {
                if (succ[s] < 0 || succ[s] >= th->nblocks)
                    continue;   /* the verifier reports it */
                ir_block *to = &th->blocks[succ[s]];
                to->preds = xrealloc(to->preds, (size_t)(to->npreds + 1) * sizeof *to->preds);
                to->preds[to->npreds++] = b;
            }
        }
    }
}
