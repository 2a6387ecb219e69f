/* Sweeps whose outputs leave four at a time.  A thread's sweep stores
 * each instance's registers to its output slots, and on x86 every store
 * takes a store-buffer entry until it commits, in order, behind the test's
 * own stores.  The test's stores wait there for their lines, which the
 * other threads hold, so the buffer fills, and the thread stalls, twice as
 * early as the test alone would make it: SB's threads (one store and one
 * output each) stayed ahead of each other's stores for about 23 instances
 * of a chunk, after which the weak outcome fell from 20% of the instances
 * to 8% (2-vCPU AMD EPYC, vCPUs sharing a core).  Four outputs in one
 * 32-byte store: SB's default run made 38% more iterations and 15% more
 * weak outcomes a second (60 rounds of `-r 100` taking turns with the
 * plain sweep, bench/native_ab.sh).
 *
 * Only the sweep changes: each instance still runs the thread's own body
 * (inlined, its outputs kept in registers), the instances of a block one
 * after the other, and the plain sweep (lt_sweep_*) takes the instances
 * short of a block.  AVX2 is the compiler's to target for these functions
 * alone and the CPU's to have: lt_pick_sweeps installs them at start-up
 * where it does, and everywhere else the plain sweeps run. */
#include <stdio.h>
#include "backends/native/native_internal.h"

/* Instances per block for a thread with N outputs, so that a block's
 * outputs fill whole 32-byte stores and stay few enough for registers;
 * 0: no wide sweep (the plain one serves). */
static int block_of(int n)
{
    if (n == 1 || n == 2)
        return 4 / n;
    return n == 4 || n == 8 ? 1 : 0;
}

/* Whether any thread of F has a wide sweep: else no prelude, which
 * would leave lt_put4 unused. */
static bool any_wide(const nat_frame *f)
{
    for (int i = 0; i < f->t->nthreads; i++)
        if (block_of(f->nregs[i]))
            return true;
    return false;
}

void nat_emit_wide_prelude(strbuf *b, const nat_frame *f)
{
    if (!any_wide(f))
        return;
    sb_add(b, "/* Outputs four at a time (lt_wsweep_*): one store-buffer entry for four.\n"
              " * Only where the compiler can target AVX2 for them; lt_pick_sweeps\n"
              " * installs them where the CPU has it. */\n"
              "#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))\n"
              "#include <immintrin.h>\n"
              "#define LT_WIDE __attribute__((target(\"avx2\")))\n"
              "LT_WIDE static inline void lt_put4(int64_t *lt_d, int64_t lt_v0, int64_t lt_v1, int64_t lt_v2,\n"
              "                                   int64_t lt_v3)\n"
              "{\n"
              "    _mm256_storeu_si256((__m256i *)(void *)lt_d, _mm256_set_epi64x(lt_v3, lt_v2, lt_v1, lt_v0));\n"
              "}\n"
              "#endif\n\n");
}

/* Thread I's wide sweep: lt_wsweep_I over the cell table, or with ARRAY
 * lt_awsweep_I, which computes the cells (backends/native/array_sweep.c);
 * the instances short of a block go to the matching plain sweep. */
static void emit_wide_sweep(strbuf *b, const nat_frame *f, int i, bool array)
{
    int nlocs = f->cells->nlocs;
    int n = f->nregs[i], k = block_of(n);
    const char *a = array ? "a" : "";
    sb_printf(b,
              "LT_WIDE static void lt_%swsweep_%d(void *const *lt_c, int64_t *lt_out, size_t lt_lo, size_t lt_hi)\n{\n",
              a, i);
    if (array)
        nat_array_bases(b, f);
    sb_printf(b, "    size_t lt_i = lt_lo;\n"
                 "    for (; lt_i + %d <= lt_hi; lt_i += %d) {\n        int64_t lt_blk[%d];\n",
              k, k, k * n);
    for (int j = 0; j < k; j++) {
        if (array) {
            char name[16], inst[24];
            snprintf(name, sizeof name, "lt_ci%d", j);
            snprintf(inst, sizeof inst, "lt_i + %d", j);
            nat_array_cells(b, f, "        ", name, inst);
            sb_printf(b, "        lt_thread_%d(lt_ci%d, lt_blk + %d);\n", i, j, j * n);
        } else {
            sb_printf(b, "        lt_thread_%d(lt_c + (lt_i + %d) * %d, lt_blk + %d);\n", i, j, nlocs, j * n);
        }
    }
    for (int g = 0; g < k * n; g += 4)
        sb_printf(b, "        lt_put4(lt_out + lt_i * %d + %d, lt_blk[%d], lt_blk[%d], lt_blk[%d], lt_blk[%d]);\n",
                  n, g, g, g + 1, g + 2, g + 3);
    sb_printf(b, "    }\n    lt_%ssweep_%d(lt_c, lt_out, lt_i, lt_hi);\n}\n\n", a, i);
}

void nat_emit_wide_sweeps(strbuf *b, const nat_frame *f)
{
    if (!any_wide(f))
        return;
    sb_add(b, "#ifdef LT_WIDE\n");
    for (int i = 0; i < f->t->nthreads; i++) {
        if (!block_of(f->nregs[i]))
            continue;
        emit_wide_sweep(b, f, i, false);
        if (nat_has_array_sweeps(f))
            emit_wide_sweep(b, f, i, true);
    }
    sb_add(b, "#endif\n\n");
}

void nat_emit_pick_sweeps(strbuf *b, const nat_frame *f)
{
    sb_add(b, "/* The wide sweeps where the CPU has AVX2 (see lt_put4). */\n"
              "static void lt_pick_sweeps(void)\n{\n#ifdef LT_WIDE\n"
              "    __builtin_cpu_init();\n    if (!__builtin_cpu_supports(\"avx2\"))\n        return;\n");
    for (int i = 0; i < f->t->nthreads; i++) {
        if (!block_of(f->nregs[i]))
            continue;
        sb_printf(b, "    lt_sweeps[%d] = lt_wsweep_%d;\n", i, i);
        if (nat_has_array_sweeps(f))
            sb_printf(b, "    lt_asweeps[%d] = lt_awsweep_%d;\n", i, i);
    }
    sb_add(b, "#endif\n}\n\n");
}
