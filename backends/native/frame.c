/* The program around the thread bodies: includes, reset and collect, the
 * lrt_test descriptor and main().  Both native targets share it, so their
 * programs differ only in how a thread's code is written. */
#include <stdlib.h>
#include <string.h>
#include "backends/native/native_internal.h"

static void frame_free(nat_frame *f)
{
    if (f->regs)
        for (int i = 0; i < f->t->nthreads; i++)
            free(f->regs[i]);
    free(f->regs);
    free(f->nregs);
    free(f->obs);
}

/* Output slot of register NAME in thread index TI, adding it if new. */
static int frame_slot(nat_frame *f, int ti, const char *name)
{
    for (int k = 0; k < f->nregs[ti]; k++)
        if (!strcmp(f->regs[ti][k], name))
            return k;
    f->regs[ti] = xrealloc(f->regs[ti], (size_t)(f->nregs[ti] + 1) * sizeof *f->regs[ti]);
    f->regs[ti][f->nregs[ti]] = (char *)name;
    return f->nregs[ti]++;
}

static void frame_init(nat_frame *f, const ir_test *t)
{
    memset(f, 0, sizeof *f);
    f->t = t;
    f->cells = t;
    f->obs = ir_observables(t, &f->nobs);
    f->regs = xcalloc((size_t)t->nthreads + 1, sizeof *f->regs);
    f->nregs = xcalloc((size_t)t->nthreads + 1, sizeof *f->nregs);
    for (int j = 0; j < f->nobs; j++) {
        const ir_obs *o = &f->obs[j];
        if (o->kind != IR_OBS_REG)
            continue;
        int ti = ir_find_thread(t, o->thread);
        if (ti >= 0 && ir_thread_find_reg(&t->threads[ti], o->reg) >= 0)
            frame_slot(f, ti, o->reg);
    }
}

static void emit_header(strbuf *b, const ir_test *t, const ir_test *cells, const char *target)
{
    sb_add(b, "/* litmusc native harness (");
    nat_comment(b, target);
    sb_add(b, " target)\n * test: ");
    nat_comment(b, t->name);
    sb_add(b, " (");
    nat_comment(b, ir_arch_name(t->arch));
    sb_add(b, ")\n");
    if (t->file) {
        sb_add(b, " * source: ");
        nat_comment(b, t->file);
        sb_add(b, "\n");
    }
    sb_add(b, " * Build with the runtime files (lrt*.c, lrt*.h): cc " NATIVE_CFLAGS
              " test.c lrt_*.c\n * Its output is the litmusc-histogram protocol. */\n");
    sb_add(b, "#include <stdatomic.h>\n#include <stdint.h>\n#include <string.h>\n#include \"lrt.h\"\n\n");
    sb_add(b, "/* Locations (cell index: name, cell type):\n");
    for (int l = 0; l < cells->nlocs; l++) {
        sb_printf(b, " *   %d: ", l);
        nat_comment(b, cells->locs[l].name);
        sb_printf(b, ", %s\n", nat_cell_type(cells, l));
    }
    sb_add(b, " */\n\n");
}

void nat_thread_open(strbuf *b, const nat_frame *f, int ti)
{
    if (f->gapped)
        sb_printf(b, "static inline void lt_gthread_%d(void *const *lt_c, int64_t *lt_out, "
                     "const uint32_t *lt_gap)\n{\n    (void)lt_gap;\n", ti);
    else
        sb_printf(b, "static void lt_thread_%d(void *const *lt_c, int64_t *lt_out)\n{\n", ti);
}

int nat_gap_position(int k)
{
    return k < NATIVE_GAPS ? k : NATIVE_GAPS - 1;
}

static void emit_cell(strbuf *b, const ir_test *t, int l)
{
    sb_printf(b, "(_Atomic %s *)lt_c[%d]", nat_cell_type(t, l), l);
}

static void emit_reset(strbuf *b, const ir_test *t)
{
    sb_add(b, "/* Every location back to its initial value. */\n");
    sb_add(b, "static void lt_reset(void *const *lt_c)\n{\n    (void)lt_c;\n");
    for (int l = 0; l < t->nlocs; l++) {
        sb_add(b, "    atomic_store_explicit(");
        emit_cell(b, t, l);
        sb_printf(b, ", (%s)", nat_cell_type(t, l));
        nat_int_lit(b, t->locs[l].init);
        sb_add(b, ", memory_order_relaxed);\n");
    }
    sb_add(b, "}\n\n");
}

static void emit_collect(strbuf *b, const nat_frame *f)
{
    const ir_test *t = f->t;
    const ir_test *cells = f->cells;
    sb_add(b, "/* The outcome of one instance: the observables in ir_observables order. */\n");
    sb_add(b, "static void lt_collect(void *const *lt_c, int64_t *const *lt_o, int64_t *lt_v)\n{\n");
    sb_add(b, "    (void)lt_c;\n    (void)lt_o;\n    (void)lt_v;\n");
    for (int j = 0; j < f->nobs; j++) {
        const ir_obs *o = &f->obs[j];
        sb_printf(b, "    lt_v[%d] = ", j);
        if (o->kind == IR_OBS_MEM) {
            sb_add(b, "(int64_t)atomic_load_explicit(");
            emit_cell(b, cells, o->loc);
            sb_add(b, ", memory_order_relaxed); /* [");
            nat_comment(b, t->locs[o->loc].name);
            sb_add(b, "] */\n");
            continue;
        }
        int ti = ir_find_thread(t, o->thread);
        int k = -1;
        for (int i = 0; ti >= 0 && i < f->nregs[ti]; i++)
            if (!strcmp(f->regs[ti][i], o->reg))
                k = i;
        /* A register the thread never has reads 0, as in herd. */
        if (k < 0)
            sb_add(b, "0;");
        else
            sb_printf(b, "lt_o[%d][%d];", ti, k);
        sb_printf(b, " /* %d:", o->thread);
        nat_comment(b, o->reg);
        sb_add(b, " */\n");
    }
    sb_add(b, "}\n\n");
}

/* Counting: the outcome width is a constant here, so the comparison
 * with the previous outcome unrolls.  ARRAY: lt_acount_range, which
 * computes each instance's cells (backends/native/array_sweep.c) where
 * lt_count_range reads them from the cell table. */
static void emit_count_range(strbuf *b, const nat_frame *f, bool array)
{
    const ir_test *t = f->t;
    int nlocs = f->cells->nlocs;
    int w = f->nobs ? f->nobs : 1;
    sb_printf(b,
              "static void lt_%scount_range(void *const *lt_c, int64_t *const *lt_o, size_t lt_lo,\n"
              "                           size_t lt_hi, int lt_reset_too, lrt_tally *lt_t)\n{\n",
              array ? "a" : "");
    if (array)
        nat_array_bases(b, f);
    sb_printf(b,
              "    int64_t lt_cur[%d] = {0}, lt_v[%d];\n    uint64_t lt_run = 0;\n"
              "    for (size_t lt_i = lt_lo; lt_i < lt_hi; lt_i++) {\n"
              "        int64_t *lt_oi[%d];\n", w, w, t->nthreads);
    for (int i = 0; i < t->nthreads; i++)
        sb_printf(b, "        lt_oi[%d] = lt_o[%d] + lt_i * %d;\n", i, i, f->nregs[i]);
    if (array)
        nat_array_cells(b, f, "        ", "lt_ci", "lt_i");
    else
        sb_printf(b, "        void *const *lt_ci = lt_c + lt_i * %d;\n", nlocs);
    sb_add(b, "        lt_collect(lt_ci, lt_oi, lt_v);\n");
    if (!array)
        sb_add(b, "        if (lt_reset_too)\n            lt_reset(lt_ci);\n");
    sb_add(b, "        if (lt_run");
    for (int j = 0; j < f->nobs; j++)
        sb_printf(b, " && lt_v[%d] == lt_cur[%d]", j, j);
    sb_add(b, ") {\n            lt_run++;\n            continue;\n        }\n"
              "        if (lt_run)\n            lrt_tally_add(lt_t, lt_cur, lt_run);\n");
    for (int j = 0; j < f->nobs; j++)
        sb_printf(b, "        lt_cur[%d] = lt_v[%d];\n", j, j);
    sb_add(b, "        lt_run = 1;\n    }\n    if (lt_run)\n        lrt_tally_add(lt_t, lt_cur, lt_run);\n");
    if (array)
        nat_array_fill(b, f);
    sb_add(b, "}\n\n");
}

/* The per-instance functions again as loops over a range of instances,
 * with constant strides, so that the compiler inlines each body and the
 * runtime makes one call per chunk instead of one per instance. */
static void emit_ranges(strbuf *b, const nat_frame *f)
{
    const ir_test *t = f->t;
    int nlocs = f->cells->nlocs;
    for (int i = 0; i < t->nthreads; i++)
        sb_printf(b,
                  "static void lt_sweep_%d(void *const *lt_c, int64_t *lt_out, size_t lt_lo, size_t lt_hi)\n"
                  "{\n    for (size_t lt_i = lt_lo; lt_i < lt_hi; lt_i++)\n"
                  "        lt_thread_%d(lt_c + lt_i * %d, lt_out + lt_i * %d);\n}\n\n",
                  i, i, nlocs, f->nregs[i]);
    for (int i = 0; i < t->nthreads; i++)
        sb_printf(b,
                  "static void lt_gsweep_%d(void *const *lt_c, int64_t *lt_out, size_t lt_lo, size_t lt_hi,\n"
                  "                         const uint32_t *lt_gap)\n"
                  "{\n    for (size_t lt_i = lt_lo; lt_i < lt_hi; lt_i++)\n"
                  "        lt_gthread_%d(lt_c + lt_i * %d, lt_out + lt_i * %d, lt_gap);\n}\n\n",
                  i, i, nlocs, f->nregs[i]);
    sb_printf(b,
              "static void lt_reset_range(void *const *lt_c, size_t lt_lo, size_t lt_hi)\n"
              "{\n    for (size_t lt_i = lt_lo; lt_i < lt_hi; lt_i++)\n"
              "        lt_reset(lt_c + lt_i * %d);\n}\n\n", nlocs);
    nat_emit_array_sweeps(b, f);
    emit_count_range(b, f, false);
    if (nat_has_array_sweeps(f))
        emit_count_range(b, f, true);
}

static void emit_descriptor(strbuf *b, const nat_frame *f)
{
    const ir_test *t = f->t;
    sb_printf(b, "static const int lt_nout[%d] = {", t->nthreads);
    for (int i = 0; i < t->nthreads; i++)
        sb_printf(b, "%s%d", i ? ", " : "", f->nregs[i]);
    sb_printf(b, "};\nstatic const lrt_thread_fn lt_threads[%d] = {", t->nthreads);
    for (int i = 0; i < t->nthreads; i++)
        sb_printf(b, "%slt_thread_%d", i ? ", " : "", i);
    /* not const: lt_pick_sweeps may put the wide sweeps in */
    sb_printf(b, "};\nstatic lrt_sweep_fn lt_sweeps[%d] = {", t->nthreads);
    for (int i = 0; i < t->nthreads; i++)
        sb_printf(b, "%slt_sweep_%d", i ? ", " : "", i);
    sb_printf(b, "};\nstatic const lrt_gap_sweep_fn lt_gsweeps[%d] = {", t->nthreads);
    for (int i = 0; i < t->nthreads; i++)
        sb_printf(b, "%slt_gsweep_%d", i ? ", " : "", i);
    /* what each thread may load and store: where a lane may leave out the
     * fence between two threads (runtime/lrt.h) */
    strbuf stores = {0};
    sb_add(b, "};\nstatic const uint64_t lt_loads[] = {");
    for (int i = 0; i < t->nthreads; i++) {
        uint64_t ld, st;
        ir_thread_accesses(&t->threads[i], &ld, &st);
        sb_printf(b, "%s0x%llxu", i ? ", " : "", (unsigned long long)ld);
        sb_printf(&stores, "%s0x%llxu", i ? ", " : "", (unsigned long long)st);
    }
    sb_printf(b, "};\nstatic const uint64_t lt_stores[] = {%s", stores.s ? stores.s : "");
    sb_free(&stores);
    bool array = nat_has_array_sweeps(f);
    if (array) {
        /* not const either: lt_pick_sweeps may put the wide ones in */
        sb_printf(b, "};\nstatic lrt_sweep_fn lt_asweeps[%d] = {", t->nthreads);
        for (int i = 0; i < t->nthreads; i++)
            sb_printf(b, "%slt_asweep_%d", i ? ", " : "", i);
    }
    sb_add(b, "};\nstatic const lrt_test lt_test = {\n    ");
    nat_cstring(b, t->name);
    sb_printf(b, ", %d, %d, %d, lt_nout, lt_threads, lt_reset, lt_collect,\n"
                 "    lt_sweeps, lt_reset_range, lt_count_range, %d, lt_gsweeps, lt_loads, lt_stores,\n"
                 "    %s\n};\n\n",
              t->nthreads, f->cells->nlocs, f->nobs, nat_cell_width(f),
              array ? "lt_asweeps, lt_acount_range" : "NULL, NULL");
    nat_emit_pick_sweeps(b, f);
    sb_add(b, "int main(int argc, char **argv)\n{\n    lt_pick_sweeps();\n"
              "    return lrt_main(&lt_test, argc, argv);\n}\n");
}

char *nat_program(const ir_test *t, const ir_test *cells, const char *target,
                  const char *extra_decls, nat_body_fn body, void *ctx, diag *d)
{
    if (!cells)
        cells = t;
    if (t->nthreads < 1)
        return diag_error(d, t->file ? t->file : t->name, 0, 0, "the test has no threads"), NULL;
    if (t->nthreads > 32) {
        int line = 0, col = 0;
        ir_thread_pos(t, 32, &line, &col);
        return diag_error(d, t->file ? t->file : t->name, line, col,
                          "%d threads: native harnesses support at most 32 (%s is the 33rd)", t->nthreads,
                          t->threads[32].name), NULL;
    }
    nat_frame f;
    frame_init(&f, t);
    f.cells = cells;
    if (f.nobs > 256) {
        frame_free(&f);
        return diag_error(d, t->file ? t->file : t->name, 0, 0,
                          "%d observables: native harnesses support at most 256", f.nobs), NULL;
    }
    strbuf b = {0};
    emit_header(&b, t, cells, target);
    nat_emit_wide_prelude(&b, &f);
    if (extra_decls)
        sb_add(&b, extra_decls);
    /* Each thread twice: as it is, and with gaps for the gapped runs. */
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < t->nthreads; i++) {
            f.gapped = pass == 1;
            if (!body(&b, &f, i, ctx, d)) {
                sb_free(&b);
                frame_free(&f);
                return NULL;
            }
            sb_add(&b, "\n");
        }
    emit_reset(&b, cells);
    emit_collect(&b, &f);
    emit_ranges(&b, &f);
    nat_emit_wide_sweeps(&b, &f);
    emit_descriptor(&b, &f);
    frame_free(&f);
    return sb_take(&b);
}
