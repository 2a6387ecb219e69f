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
    fe_labels labels = {0};
    for (int i = 0; i < t->nthreads; i++)
        for (int j = 0; j < t->threads[i].na64; j++) {
            const fe_a64_instr *in = &t->threads[i].a64[j];
            fe_labels_add(&labels, in->label);
            const char *target = NULL;
            for (int k = 0; k < in->nops; k++)
                if (in->o[k].kind == FE_AO_LABEL)
                    target = in->o[k].label;
            fe_labels_add(&labels, target);
        }
    fe_labels_sort(&labels);
    fe_column *cols = xcalloc((size_t)(t->nthreads ? t->nthreads : 1), sizeof *cols);
    for (int i = 0; i < t->nthreads; i++) {
        const fe_thread *th = &t->threads[i];
        for (int j = 0; j < th->na64; j++) {
            const fe_a64_instr *in = &th->a64[j];
            char defined[16], renamed[16] = "";
            if (fe_labels_rename(&labels, in->label, ":", defined))
                fe_col_add(&cols[i], xstrdup(defined));
            for (int k = 0; k < in->nops; k++)
                if (in->o[k].kind == FE_AO_LABEL)
                    fe_labels_rename(&labels, in->o[k].label, "", renamed);
            if (in->op == FE_A64_EMPTY)
                continue;
            strbuf b = {0};
            fe_print_a64_instr(&b, in, renamed[0] ? renamed : NULL);
            fe_col_add(&cols[i], sb_take(&b));
        }
    }
    fe_digest_columns(cols, t->nthreads, out);
    free(cols);
    free(labels.names);
}
