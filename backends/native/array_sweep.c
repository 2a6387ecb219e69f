/* Sweeps and the count for the array layout, without the cell table.
 * The runtime's table holds a pointer to every cell of every instance,
 * and each sweep read an instance's pointers from it before the
 * instance's accesses: as many bytes a sweep as the outputs it wrote,
 * and the count read them again.  In the array layout (one array per
 * location, the default) instance i's cell of location l is location
 * l's first cell plus i cells, so these compute it instead.  SB's default
 * run made 8-13% more iterations and about half again as many weak
 * outcomes a second with them while both vCPUs shared a core, 5-7% more
 * iterations while they were apart (2-vCPU AMD EPYC, bench/RESULTS.md,
 * native_ab).
 *
 * Each instance still runs the thread's own body: it gets its cells as
 * a small local array (lt_ci), which the compiler keeps in registers
 * once the body is inlined.  The count resets its instances after it has
 * counted them all, a location's cells at a time (memset where the
 * initial value is 0): with SB's two cells an instance reset one by one
 * between its outcomes, it made 8% fewer iterations a second on one core
 * and 7% fewer with the vCPUs apart.  The runtime installs these only
 * where the layout is the array one with cells of lt_test.cell_size
 * bytes. */
#include "backends/native/native_internal.h"

int nat_cell_width(const nat_frame *f)
{
    int width = 1;
    for (int l = 0; l < f->cells->nlocs; l++) {
        int size = nat_cell_size(f->cells, l);
        width = size > width ? size : width;
    }
    return width;
}

bool nat_has_array_sweeps(const nat_frame *f)
{
    return f->cells->nlocs > 0;
}

void nat_array_bases(strbuf *b, const nat_frame *f)
{
    sb_add(b, "    char *const ");
    for (int l = 0; l < f->cells->nlocs; l++)
        sb_printf(b, "%slt_b%d = (char *)lt_c[%d]", l ? ", *const " : "", l, l);
    sb_add(b, ";\n");
}

void nat_array_cells(strbuf *b, const nat_frame *f, const char *indent, const char *name, const char *inst)
{
    int width = nat_cell_width(f);
    sb_printf(b, "%svoid *const %s[%d] = {", indent, name, f->cells->nlocs);
    for (int l = 0; l < f->cells->nlocs; l++)
        sb_printf(b, "%slt_b%d + (%s) * %d", l ? ", " : "", l, inst, width);
    sb_add(b, "};\n");
}

void nat_emit_array_sweeps(strbuf *b, const nat_frame *f)
{
    if (!nat_has_array_sweeps(f))
        return;
    for (int i = 0; i < f->t->nthreads; i++) {
        sb_printf(b, "static void lt_asweep_%d(void *const *lt_c, int64_t *lt_out, size_t lt_lo, size_t lt_hi)\n{\n", i);
        nat_array_bases(b, f);
        sb_add(b, "    for (size_t lt_i = lt_lo; lt_i < lt_hi; lt_i++) {\n");
        nat_array_cells(b, f, "        ", "lt_ci", "lt_i");
        sb_printf(b, "        lt_thread_%d(lt_ci, lt_out + lt_i * %d);\n    }\n}\n\n", i, f->nregs[i]);
    }
}

void nat_array_fill(strbuf *b, const nat_frame *f)
{
    const ir_test *cells = f->cells;
    int width = nat_cell_width(f);
    sb_add(b, "    if (lt_reset_too && lt_hi > lt_lo) {\n");
    for (int l = 0; l < cells->nlocs; l++) {
        if (cells->locs[l].init == 0) {
            sb_printf(b, "        memset(lt_b%d + lt_lo * %d, 0, (lt_hi - lt_lo) * %d);\n", l, width, width);
            continue;
        }
        const char *ty = nat_cell_type(cells, l);
        sb_printf(b, "        for (size_t lt_k = lt_lo; lt_k < lt_hi; lt_k++)\n"
                     "            *(%s *)(void *)(lt_b%d + lt_k * %d) = (%s)", ty, l, width, ty);
        nat_int_lit(b, cells->locs[l].init);
        sb_add(b, ";\n");
    }
    sb_add(b, "    }\n");
}
