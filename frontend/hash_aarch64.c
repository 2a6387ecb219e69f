/* AArch64's part of herd's test hash (fe_compute_hash in hash.c): the
 * program table as herd's TestHash prints it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "frontend/frontend.h"
#include "frontend/internal.h"
#include "util/mem.h"

/* AArch64: each instruction as herd prints it, labels renamed as x86's
 * are (L00, L01, ... in the sorted order of their names). */
void fe_digest_aarch64(const fe_test *t, unsigned char out[16])
{
    char **labels = NULL;
    size_t nl = 0, cl = 0;
    for (int i = 0; i < t->nthreads; i++)
        for (int j = 0; j < t->threads[i].na64; j++) {
            const fe_a64_instr *in = &t->threads[i].a64[j];
            const char *names[2] = {in->label, NULL};
            for (int k = 0; k < in->nops; k++)
                if (in->o[k].kind == FE_AO_LABEL)
                    names[1] = in->o[k].label;
            for (int k = 0; k < 2; k++) {
                bool seen = !names[k];
                for (size_t m = 0; !seen && m < nl; m++)
                    seen = !strcmp(labels[m], names[k]);
                if (!seen)
                    VEC_PUSH(labels, nl, cl, (char *)names[k]);
            }
        }
    if (nl)
        qsort(labels, nl, sizeof *labels, fe_str_cmp);
    fe_column *cols = xcalloc((size_t)(t->nthreads ? t->nthreads : 1), sizeof *cols);
    for (int i = 0; i < t->nthreads; i++) {
        const fe_thread *th = &t->threads[i];
        for (int j = 0; j < th->na64; j++) {
            const fe_a64_instr *in = &th->a64[j];
            char renamed[16] = "";
            for (size_t m = 0; m < nl; m++) {
                if (in->label && !strcmp(labels[m], in->label))
                    fe_col_add(&cols[i], xasprintf("L%02d:", (int)m));
                for (int k = 0; k < in->nops; k++)
                    if (in->o[k].kind == FE_AO_LABEL && !strcmp(labels[m], in->o[k].label))
                        snprintf(renamed, sizeof renamed, "L%02d", (int)m);
            }
            if (in->op == FE_A64_EMPTY)
                continue;
            strbuf b = {0};
            fe_print_a64_instr(&b, in, renamed[0] ? renamed : NULL);
            fe_col_add(&cols[i], sb_take(&b));
        }
    }
    fe_digest_columns(cols, t->nthreads, out);
    free(cols);
    free(labels);
}
