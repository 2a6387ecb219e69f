/* The cat evaluator on AArch64 executions built by hand: herd's predefined
 * sets (A, L, Q, X, NoRet, the barriers), the register and branch events
 * a `catdep` model computes dependencies from (through registers and
 * through memory), variant tests and `try`, and litmusc's built-in aarch64
 * model on the classic shapes with the Arm model's verdicts (herd7 7.57
 * under aarch64.cat gives the same on the catalogue's tests of these
 * shapes: MP, MP+dmb.sy+addr, MP+popl+poap, LB+datas, SB+dmb.sys, CoRR,
 * LB+rel+CAS, and an exclusive pair broken by another thread's write).  With
 * HERD_LIBDIR naming herd's library, herd's own aarch64.cat is run on the
 * same executions and must agree. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "model/cat/cat.h"
#include "model/cat/cat_rel.h"
#include "util/mem.h"

/* ---- building executions ------------------------------------------------------ */
typedef struct xb {
    exec x;
    int poi[8];
    ir_instr ins[EXEC_MAX];     /* one instruction per event (two for an RMW's halves) */
} xb;

static xb *xb_new(void) { return xcalloc(1, sizeof(xb)); }

static int add_ev(xb *b, unsigned kind, int thread, int loc, ir_mode mode)
{
    int i = b->x.n++;
    exec_event *e = &b->x.ev[i];
    e->kind = kind;
    e->thread = thread;
    e->loc = loc;
    e->mode = mode;
    e->poi = thread >= 0 ? b->poi[thread]++ : 0;
    if (thread >= 0) {
        e->instr = &b->ins[i];
        for (int j = 0; j < i; j++)
            if (b->x.ev[j].thread == thread) er_add(&b->x.po, j, i);
    }
    return i;
}
static int iw(xb *b, int loc) { return add_ev(b, EV_W | EV_IW, -1, loc, IR_MODE_NONE); }
static int wr(xb *b, int th, int loc, ir_mode m) { return add_ev(b, EV_W, th, loc, m); }
static int rd(xb *b, int th, int loc, ir_mode m) { return add_ev(b, EV_R, th, loc, m); }
static int fence(xb *b, int th, ir_fence_kind k)
{
    int i = add_ev(b, EV_F, th, -1, IR_MODE_NONE);
    b->x.ev[i].fence = k;
    return i;
}
/* The read and write halves of one RMW instruction (herd: rmw, amo). */
static void rmw_pair(xb *b, int r, int w, ir_rmw_op op)
{
    b->x.ev[w].instr = b->x.ev[r].instr;
    b->x.ev[r].is_rmw = b->x.ev[w].is_rmw = true;
    b->x.ev[r].rmw_op = b->x.ev[w].rmw_op = op;
    er_add(&b->x.rmw, r, w);
    b->x.po.row[r].w[0] &= ~((uint64_t)1 << w);
}
static void rf(xb *b, int w, int r) { er_add(&b->x.rf, w, r); }
static void co_chain(xb *b, const int *ws, int n)
{
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) er_add(&b->x.co, ws[i], ws[j]);
    es_add(&b->x.fw, ws[n - 1]);
}

static cat_model *load_text(const char *text)
{
    diag d = {0};
    cat_model *m = cat_load_text(text, "t.cat", &d);
    if (!m) fail_msg("load: %d:%d %s", d.line, d.col, d.msg);
    return m;
}

/* The relation NAME that TEXT binds on X, as one word per row (events < 64). */
static void rel_of(const char *text, const exec *x, const char *name, uint64_t *rows)
{
    cat_model *m = load_text(text);
    cat_run *r = cat_run_new(m);
    exec_rel out;
    diag d = {0};
    if (!cat_run_relation(r, x, name, &out, &d)) fail_msg("%s: %s", name, d.msg);
    for (int i = 0; i < x->n; i++) rows[i] = out.row[i].w[0] & ((((uint64_t)1) << x->n) - 1);
    cat_run_free(r);
    cat_free(m);
}

static uint64_t consistent(const char *model, const exec *x)
{
    diag d = {0};
    cat_model *m = cat_load(model, &d);
    if (!m) fail_msg("%s: %s", model, d.msg);
    cat_verdict v;
    if (!cat_check(m, x, &v, &d)) fail_msg("%s: %s", model, d.msg);
    cat_free(m);
    return v.consistent;
}

#define BIT(i) ((uint64_t)1 << (i))

/* ---- sets ------------------------------------------------------------------------ */
static void test_a64_sets(void **state)
{
    (void)state;
    xb *b = xb_new();
    iw(b, 0);
    iw(b, 1);
    int w = wr(b, 0, 0, IR_A64_REL);
    int f = fence(b, 0, IR_FENCE_DMB_ISHLD);
    int ra = rd(b, 0, 1, IR_A64_ACQ);
    int rq = rd(b, 0, 0, IR_A64_ACQPC);
    int d = fence(b, 0, IR_FENCE_DSB_ST);
    int i = fence(b, 0, IR_FENCE_ISB);
    int lx = rd(b, 1, 0, IR_A64_PLAIN);
    int sx = wr(b, 1, 0, IR_A64_PLAIN);
    b->ins[lx].excl = b->ins[sx].excl = true;
    er_add(&b->x.rmw, lx, sx);
    int nr = rd(b, 1, 1, IR_A64_PLAIN), nw = wr(b, 1, 1, IR_A64_PLAIN);
    rmw_pair(b, nr, nw, IR_RMW_ADD);
    b->ins[nr].noret = true;
    const char *text =
        "sets\n"
        "let a = [A]\nlet l = [L]\nlet q = [Q]\nlet x = [X]\nlet nr = [NoRet]\n"
        "let ishld = [DMB.ISHLD]\nlet dsbst = [DSB.ST]\nlet isb = [ISB]\nlet sy = [DMB.SY | DSB.SY]\n"
        "let am = amo\nlet rw = rmw\nlet inst = same-instance \\ id\n";
    uint64_t rows[EXEC_MAX];
    rel_of(text, &b->x, "a", rows);
    assert_true(rows[ra] == BIT(ra) && rows[rq] == 0 && rows[w] == 0);
    rel_of(text, &b->x, "l", rows);
    assert_true(rows[w] == BIT(w) && rows[ra] == 0);
    rel_of(text, &b->x, "q", rows);
    assert_true(rows[rq] == BIT(rq) && rows[ra] == 0);
    rel_of(text, &b->x, "x", rows);
    assert_true(rows[lx] == BIT(lx) && rows[sx] == BIT(sx) && rows[nr] == BIT(nr) && rows[nw] == BIT(nw));
    assert_true(rows[w] == 0 && rows[ra] == 0);
    rel_of(text, &b->x, "nr", rows);
    assert_true(rows[nr] == BIT(nr) && rows[lx] == 0);
    rel_of(text, &b->x, "ishld", rows);
    assert_true(rows[f] == BIT(f) && rows[d] == 0);
    rel_of(text, &b->x, "dsbst", rows);
    assert_true(rows[d] == BIT(d) && rows[f] == 0);
    rel_of(text, &b->x, "isb", rows);
    assert_true(rows[i] == BIT(i));
    rel_of(text, &b->x, "sy", rows);
    for (int k = 0; k < b->x.n; k++) assert_true(rows[k] == 0);
    /* rmw has both pairs, amo only the one of a single instruction */
    rel_of(text, &b->x, "rw", rows);
    assert_true(rows[lx] == BIT(sx) && rows[nr] == BIT(nw));
    rel_of(text, &b->x, "am", rows);
    assert_true(rows[lx] == 0 && rows[nr] == BIT(nw));
    rel_of(text, &b->x, "inst", rows);
    assert_true(rows[nr] == BIT(nw) && rows[nw] == BIT(nr) && rows[lx] == 0);
    free(b);
}

/* ---- dependencies a catdep model computes ----------------------------------------- */
/* Thread 0: r0 = x; y = r0 (data); r1 = y (local read successor of that
 * write); z[r1] read (addr on r1); a branch on r0 before w = 1 (ctrl). */
static xb *deps_shape(int *r0, int *wy, int *r1, int *rz, int *ww)
{
    xb *b = xb_new();
    for (int l = 0; l < 4; l++) iw(b, l);
    *r0 = rd(b, 0, 0, IR_A64_PLAIN);
    *wy = wr(b, 0, 1, IR_A64_PLAIN);
    *r1 = rd(b, 0, 1, IR_A64_PLAIN);
    *rz = rd(b, 0, 2, IR_A64_PLAIN);
    *ww = wr(b, 0, 3, IR_A64_PLAIN);
    er_add(&b->x.data, *r0, *wy);
    er_add(&b->x.addr, *r1, *rz);
    er_add(&b->x.ctrl, *r0, *ww);
    return b;
}

static const char deps_model[] =
    "deps\n"
    "catdep\n"
    "let lrs = [W]; ((po & loc) \\ ((po & loc); [W]; (po & loc))); [R]\n"
    "let rec flow = rf-reg | lrs | iico_data | flow; flow\n"
    "let src = [R | Rreg]; flow?\n"
    "let d = (src; [DATA]; iico_data+; [W]) \\ same-instance\n"
    "let a = [M]; (src; [Rreg \\ DATA]; iico_data+; [M]) \\ same-instance\n"
    "let c = [M]; (src; [BCC]; po) \\ same-instance; [M]\n"
    "let regs = [Rreg | Wreg | BCC]\n"
    "let rec pflow = flow | iico_ctrl | pflow; pflow\n"
    "let pa = [M]; ([R | Rreg]; pflow?; [Rreg \\ DATA]; iico_data+; [M]) \\ same-instance\n";

static void test_a64_catdep(void **state)
{
    (void)state;
    int r0, wy, r1, rz, ww;
    xb *b = deps_shape(&r0, &wy, &r1, &rz, &ww);
    uint64_t rows[EXEC_MAX];
    rel_of(deps_model, &b->x, "d", rows);
    for (int k = 0; k < b->x.n; k++) assert_true(rows[k] == (k == r0 ? BIT(wy) : 0));
    /* the address dependency reaches back through y to r0 */
    rel_of(deps_model, &b->x, "a", rows);
    for (int k = 0; k < b->x.n; k++) assert_true(rows[k] == (k == r0 || k == r1 ? BIT(rz) : 0));
    /* the branch is placed just before w: only w is controlled */
    rel_of(deps_model, &b->x, "c", rows);
    for (int k = 0; k < b->x.n; k++) assert_true(rows[k] == (k == r0 ? BIT(ww) : 0));
    /* A value r0 only picks (a CAS's kept Rs) that feeds z's address: a
     * pick dependency, through iico_ctrl, and no address dependency. */
    er_add(&b->x.pick_addr, r0, rz);
    rel_of(deps_model, &b->x, "a", rows);
    for (int k = 0; k < b->x.n; k++) assert_true(rows[k] == (k == r0 || k == r1 ? BIT(rz) : 0));
    assert_true(rows[r0] == BIT(rz));   /* through y, as before; not through the pick */
    rel_of(deps_model, &b->x, "pa", rows);
    assert_true(rows[r0] == BIT(rz) && rows[r1] == BIT(rz));
    b->x.pick_addr.row[r0] = es_none();
    er_add(&b->x.pick_addr, r1, ww);
    rel_of(deps_model, &b->x, "pa", rows);
    assert_true(rows[r1] == (BIT(rz) | BIT(ww)));
    rel_of(deps_model, &b->x, "a", rows);
    assert_true(rows[r1] == BIT(rz));
    b->x.pick_addr.row[r1] = es_none();
    /* A model without catdep sees no register events. */
    const char *plain = "plain\nlet regs = [Rreg | Wreg | BCC]\nlet d = data\n";
    rel_of(plain, &b->x, "regs", rows);
    for (int k = 0; k < b->x.n; k++) assert_true(rows[k] == 0);
    rel_of(plain, &b->x, "d", rows);
    assert_true(rows[r0] == BIT(wy));
    /* An LSE add carries its read into its write: a read that depends on
     * a later read of what it wrote depends on the add's read. */
    xb *c = xb_new();
    for (int l = 0; l < 2; l++) iw(c, l);
    int ar = rd(c, 0, 0, IR_A64_PLAIN), aw = wr(c, 0, 0, IR_A64_PLAIN);
    rmw_pair(c, ar, aw, IR_RMW_ADD);
    int rb = rd(c, 0, 0, IR_A64_PLAIN), rc = rd(c, 0, 1, IR_A64_PLAIN);
    er_add(&c->x.addr, rb, rc);
    rel_of(deps_model, &c->x, "a", rows);
    assert_true(rows[ar] == BIT(rc) && rows[rb] == BIT(rc));
    free(b);
    free(c);
}

/* ---- language ------------------------------------------------------------------- */
static void test_a64_variants_try(void **state)
{
    (void)state;
    int r0, wy, r1, rz, ww;
    xb *b = deps_shape(&r0, &wy, &r1, &rz, &ww);
    /* No variant is set, as in herd7 without -variant. */
    const char *text =
        "variants\n"
        "let v1 = if \"vmsa\" then _ else 0\n"
        "let v2 = if not \"DIC\" && not \"IDC\" then po else 0\n"
        "let v3 = if \"ETS2\" || \"memtag\" || \"ifetch\" then po else 0\n"
        "let v4 = try NoSuchSet with emptyset\n"
        "let v5 = [v4] | (if \"ExS\" && not \"EOS\" then po else 0)\n"
        "let v6 = try DMB.ISH with po\n"
        "empty v1 | v3 | v5 | [v6] as all-off\n"
        "~empty v2 as not-is-true\n";
    cat_model *m = load_text(text);
    cat_verdict v;
    diag d = {0};
    assert_true(cat_check(m, &b->x, &v, &d));
    assert_int_equal(v.consistent, 1);
    cat_free(m);
    /* `with x from S`, S a set of relations built by matching on pairs of
     * a relation, as herd's enumerations.cat chooses an order per pair. */
    const char *with =
        "choices\n"
        "let rec both (rs, ps) = match ps with\n"
        "  || {} -> rs\n"
        "  || p ++ rest -> let r = p ++ 0 in both (map (fun x -> x | r) rs | map (fun x -> x | r^-1) rs, rest)\n"
        "  end\n"
        "let pairs = [R]; po; [R]\n"
        "with o from both ({0}, pairs)\n"
        "acyclic o as ok\n";
    m = load_text(with);
    assert_true(cat_check(m, &b->x, &v, &d));
    /* three pairs of reads, each either way: 8 choices, of which the two
     * cyclic ones fail the check */
    assert_int_equal(v.consistent, 6);
    cat_free(m);
    free(b);
}

/* ---- the aarch64 model on classic shapes ------------------------------------------ */
/* MP: thread 0 writes x then y, thread 1 reads y = 1 then x = 0.  BAR0
 * between the writes (or none), the writes' and reads' modes, and a
 * dependency or barrier on the reading side. */
enum { MP_NONE, MP_ADDR, MP_DMBLD, MP_CTRL, MP_CTRLISB };
static xb *mp(ir_fence_kind bar0, bool use_bar0, ir_mode wy_m, ir_mode ry_m, int reader)
{
    xb *b = xb_new();
    int ix = iw(b, 0), iy = iw(b, 1);
    int wx = wr(b, 0, 0, IR_A64_PLAIN);
    if (use_bar0) fence(b, 0, bar0);
    int wy = wr(b, 0, 1, wy_m);
    int ry = rd(b, 1, 1, ry_m);
    if (reader == MP_DMBLD) fence(b, 1, IR_FENCE_DMB_LD);
    int isb = reader == MP_CTRLISB ? fence(b, 1, IR_FENCE_ISB) : -1;
    int rx = rd(b, 1, 0, IR_A64_PLAIN);
    if (reader == MP_ADDR) er_add(&b->x.addr, ry, rx);
    if (reader == MP_CTRL || reader == MP_CTRLISB) {
        er_add(&b->x.ctrl, ry, rx);
        if (isb >= 0) er_add(&b->x.ctrl, ry, isb);
    }
    rf(b, wy, ry);
    rf(b, ix, rx);
    co_chain(b, (int[]){ix, wx}, 2);
    co_chain(b, (int[]){iy, wy}, 2);
    return b;
}

/* LB: each thread reads one location and writes the other; both read 1. */
static xb *lb(bool deps)
{
    xb *b = xb_new();
    int ix = iw(b, 0), iy = iw(b, 1);
    int rx = rd(b, 0, 0, IR_A64_PLAIN), wy = wr(b, 0, 1, IR_A64_PLAIN);
    int ry = rd(b, 1, 1, IR_A64_PLAIN), wx = wr(b, 1, 0, IR_A64_PLAIN);
    if (deps) {
        er_add(&b->x.data, rx, wy);
        er_add(&b->x.data, ry, wx);
    }
    rf(b, wx, rx);
    rf(b, wy, ry);
    co_chain(b, (int[]){ix, wx}, 2);
    co_chain(b, (int[]){iy, wy}, 2);
    return b;
}

/* SB: both threads read the initial value. */
static xb *sb(bool dmb)
{
    xb *b = xb_new();
    int ix = iw(b, 0), iy = iw(b, 1);
    int wx = wr(b, 0, 0, IR_A64_PLAIN);
    if (dmb) fence(b, 0, IR_FENCE_DMB_SY);
    int ry = rd(b, 0, 1, IR_A64_PLAIN);
    int wy = wr(b, 1, 1, IR_A64_PLAIN);
    if (dmb) fence(b, 1, IR_FENCE_DMB_SY);
    int rx = rd(b, 1, 0, IR_A64_PLAIN);
    rf(b, iy, ry);
    rf(b, ix, rx);
    co_chain(b, (int[]){ix, wx}, 2);
    co_chain(b, (int[]){iy, wy}, 2);
    return b;
}

/* CoRR: thread 1 reads the new value, then the old one. */
static xb *corr(void)
{
    xb *b = xb_new();
    int ix = iw(b, 0);
    int wx = wr(b, 0, 0, IR_A64_PLAIN);
    int r1 = rd(b, 1, 0, IR_A64_PLAIN), r2 = rd(b, 1, 0, IR_A64_PLAIN);
    rf(b, wx, r1);
    rf(b, ix, r2);
    co_chain(b, (int[]){ix, wx}, 2);
    return b;
}

/* An exclusive pair on x with another thread's write co-between: the
 * store succeeds only if no write came in between. */
static xb *excl_broken(void)
{
    xb *b = xb_new();
    int ix = iw(b, 0);
    int lx = rd(b, 0, 0, IR_A64_PLAIN), sx = wr(b, 0, 0, IR_A64_PLAIN);
    b->ins[lx].excl = b->ins[sx].excl = true;
    er_add(&b->x.rmw, lx, sx);
    int w = wr(b, 1, 0, IR_A64_PLAIN);
    rf(b, ix, lx);
    co_chain(b, (int[]){ix, w, sx}, 3);
    return b;
}

/* The model's verdict, and herd's aarch64.cat's when HERD_LIBDIR has it. */
static void expect(xb *b, uint64_t want, const char *what)
{
    uint64_t got = consistent("aarch64", &b->x);
    if (got != want) fail_msg("aarch64 on %s: %llu, want %llu", what, (unsigned long long)got, (unsigned long long)want);
    const char *lib = getenv("HERD_LIBDIR");
    if (lib && *lib) {
        char path[4096];
        snprintf(path, sizeof path, "%s/aarch64.cat", lib);
        FILE *f = fopen(path, "r");
        if (f) {
            fclose(f);
            got = consistent(path, &b->x);
            if (got != want) fail_msg("herd's aarch64.cat on %s: %llu, want %llu", what, (unsigned long long)got,
                                      (unsigned long long)want);
        }
    }
    free(b);
}

/* LB+rel+CAS: thread 0 reads y and releases x; thread 1 reads x and, with
 * an expected value computed from it (PICK) or a constant, CASes y; both
 * reads see the other thread's write. */
static xb *lb_rel_cas(bool pick)
{
    xb *b = xb_new();
    int ix = iw(b, 0), iy = iw(b, 1);
    int ry = rd(b, 0, 1, IR_A64_PLAIN), wx = wr(b, 0, 0, IR_A64_REL);
    int rx = rd(b, 1, 0, IR_A64_PLAIN);
    int cr = rd(b, 1, 1, IR_A64_PLAIN), cw = wr(b, 1, 1, IR_A64_PLAIN);
    rmw_pair(b, cr, cw, IR_RMW_CAS);
    if (pick) er_add(&b->x.pick, rx, cw);
    rf(b, cw, ry);
    rf(b, wx, rx);
    rf(b, iy, cr);
    co_chain(b, (int[]){ix, wx}, 2);
    co_chain(b, (int[]){iy, cw}, 2);
    return b;
}

static void test_aarch64_model(void **state)
{
    (void)state;
    expect(mp(IR_FENCE_DMB_SY, false, IR_A64_PLAIN, IR_A64_PLAIN, MP_NONE), 1, "MP");
    expect(mp(IR_FENCE_DMB_SY, true, IR_A64_PLAIN, IR_A64_PLAIN, MP_NONE), 1, "MP+dmb.sy+po");
    expect(mp(IR_FENCE_DMB_SY, true, IR_A64_PLAIN, IR_A64_PLAIN, MP_ADDR), 0, "MP+dmb.sy+addr");
    expect(mp(IR_FENCE_DMB_ST, true, IR_A64_PLAIN, IR_A64_PLAIN, MP_DMBLD), 0, "MP+dmb.st+dmb.ld");
    expect(mp(IR_FENCE_DMB_LD, true, IR_A64_PLAIN, IR_A64_PLAIN, MP_DMBLD), 1, "MP+dmb.ld+dmb.ld");
    expect(mp(IR_FENCE_DMB_SY, true, IR_A64_PLAIN, IR_A64_PLAIN, MP_CTRL), 1, "MP+dmb.sy+ctrl");
    expect(mp(IR_FENCE_DMB_SY, true, IR_A64_PLAIN, IR_A64_PLAIN, MP_CTRLISB), 0, "MP+dmb.sy+ctrlisb");
    expect(mp(IR_FENCE_DMB_SY, false, IR_A64_REL, IR_A64_ACQ, MP_NONE), 0, "MP+popl+poap");
    expect(mp(IR_FENCE_DMB_SY, false, IR_A64_REL, IR_A64_ACQPC, MP_NONE), 0, "MP+popl+poq");
    expect(mp(IR_FENCE_DMB_SY, false, IR_A64_REL, IR_A64_PLAIN, MP_NONE), 1, "MP+popl+po");
    expect(lb(false), 1, "LB");
    expect(lb(true), 0, "LB+datas");
    expect(sb(false), 1, "SB");
    expect(sb(true), 0, "SB+dmb.sys");
    expect(corr(), 0, "CoRR");
    expect(excl_broken(), 0, "an exclusive pair with a write between");
    /* A CAS's compare picks its write: the read its expected value comes
     * from is ordered before the write (herd's pick dependency). */
    expect(lb_rel_cas(true), 0, "LB+rel+CAS");
    expect(lb_rel_cas(false), 1, "LB+rel+CAS with a constant expected value");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a64_sets),
        cmocka_unit_test(test_a64_catdep),
        cmocka_unit_test(test_a64_variants_try),
        cmocka_unit_test(test_aarch64_model),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
