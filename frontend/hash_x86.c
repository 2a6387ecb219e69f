/* x86's part of herd's test hash (fe_compute_hash in hash.c): the program
 * table as herd's TestHash prints it, for X86 and X86_64. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "frontend/frontend.h"
#include "frontend/internal.h"
#include "util/mem.h"

/* x86: canonical instructions, labels renamed L00, L01, ... in the sorted
 * order of their names (herd walks a string set). */
void fe_digest_x86(const fe_test *t, unsigned char out[16])
{
    fe_labels labels = {0};
    for (int i = 0; i < t->nthreads; i++)
        for (int j = 0; j < t->threads[i].ncode; j++) {
            const fe_x86_instr *in = &t->threads[i].code[j];
            fe_labels_add(&labels, in->label);
            if (in->dst.kind == FE_XO_LABEL)
                fe_labels_add(&labels, in->dst.name);
        }
    fe_labels_sort(&labels);
    fe_column *cols = xcalloc((size_t)(t->nthreads ? t->nthreads : 1), sizeof *cols);
    for (int i = 0; i < t->nthreads; i++) {
        const fe_thread *th = &t->threads[i];
        for (int j = 0; j < th->ncode; j++) {
            fe_x86_instr in = th->code[j];
            char renamed[16];
            if (fe_labels_rename(&labels, in.label, ":", renamed))
                fe_col_add(&cols[i], xstrdup(renamed));
            if (in.op == FE_X86_EMPTY)
                continue;
            if (in.dst.kind == FE_XO_LABEL && fe_labels_rename(&labels, in.dst.name, "", renamed))
                in.dst.name = renamed;
            strbuf b = {0};
            fe_print_x86_instr(&b, t, &in, true);
            fe_col_add(&cols[i], sb_take(&b));
        }
    }
    fe_digest_columns(cols, t->nthreads, out);
    free(cols);
    free(labels.names);
}
