/* Compilers place a branch's block after the function's end and jump back
 * to the join (gcc -O1: `je L1d; L10: ...; ret; L1d: ...; jmp L10`).  The
 * IR has no backward edges, so each `jmp L` back to a label already passed
 * is replaced by a copy of the code from L to its block's end (the first
 * ret or jmp; a ret added where it falls off the thread's end), the copy's
 * own labels renamed.  That is the same program.  What stays backward
 * after that is a real loop (a conditional jump back, a retry loop), and is
 * refused by name. */
#include <stdlib.h>
#include <string.h>
#include "lift/lift.h"
#include "util/mem.h"

enum { PASSES = 8, MAX_ROWS = 4096 };

static bool is_label(const char *row) { return row[0] == 'L' && row[strlen(row) - 1] == ':'; }

/* The label a jump row names ("jmp L10" -> "L10"), or NULL. */
static const char *jump_target(const char *row)
{
    const char *sp = strchr(row, ' ');
    return row[0] == 'j' && sp && sp[1] == 'L' ? sp + 1 : NULL;
}

static int label_row(char **rows, int nr, const char *name)
{
    size_t n = strlen(name);
    for (int i = 0; i < nr; i++)
        if (is_label(rows[i]) && strlen(rows[i]) == n + 1 && !strncmp(rows[i], name, n))
            return i;
    return -1;
}

bool lift_layout(char ***rowsp, int *nrp, int th, const char *file, diag *d)
{
    for (int pass = 0, copies = 0;; pass++) {
        char **rows = *rowsp;
        int nr = *nrp, back = -1, to = -1;
        for (int i = 0; i < nr && back < 0; i++) {
            const char *tg = jump_target(rows[i]);
            int j = tg ? label_row(rows, nr, tg) : -1;
            if (j >= 0 && j < i)
                back = i, to = j;
        }
        if (back < 0)
            return true;
        if (strncmp(rows[back], "jmp ", 4) || pass == PASSES || nr > MAX_ROWS)
            return diag_error(d, file, 0, 0,
                              "cc-check: P%d: cannot lift '%s' (a loop: a jump back to %s that is not a branch's "
                              "join; loops are not unrolled)",
                              th, rows[back], rows[to]);
        /* The block from label TO to its end. */
        int end = to + 1;
        while (end < nr && strcmp(rows[end], "ret") && strncmp(rows[end], "jmp ", 4))
            end++;
        bool closed = end < nr;
        int len = (closed ? end + 1 : nr) - (to + 1);
        char **out = xcalloc((size_t)(nr + len + 2), sizeof *out);
        int no = 0;
        copies++;
        for (int i = 0; i < back; i++)
            out[no++] = rows[i];
        for (int k = to + 1; k < to + 1 + len; k++) {
            const char *r = rows[k];
            const char *tg = jump_target(r);
            int j = tg ? label_row(rows, nr, tg) : -1;
            if (is_label(r))
                out[no++] = xasprintf("%.*sc%d:", (int)strlen(r) - 1, r, copies);
            else if (j > to && j < to + 1 + len)
                out[no++] = xasprintf("%.*s%sc%d", (int)(tg - r), r, tg, copies);
            else
                out[no++] = xstrdup(r);
        }
        if (!closed)
            out[no++] = xstrdup("ret");
        free(rows[back]);
        for (int i = back + 1; i < nr; i++)
            out[no++] = rows[i];
        free(rows);
        *rowsp = out;
        *nrp = no;
    }
}
