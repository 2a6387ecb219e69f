/* Compilers place a branch's block after the function's end and jump back
 * to the join (gcc -O1: `je L1d; L10: ...; ret; L1d: ...; jmp L10`).  The
 * IR has no backward edges, so each `jmp L` back to a label already passed
 * is replaced by a copy of the code from L to its block's end (the first
 * ret or jmp; a ret added where it falls off the thread's end), the copy's
 * own labels renamed.  That is the same program.  A conditional jump back
 * is a loop (a lock cmpxchg retry loop): it is unrolled --unroll times
 * (herd7 bounds loops the same way, with -unroll), the last copy's jump
 * back going to a store of 1 to cc_unroll and the thread's end, so that a
 * run needing more iterations shows as cc_unroll=1 and is not lost. */
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

/* Row R of a copy: a label or a jump to a label inside rows [LO, HI) of
 * ROWS gets the suffix SFX; anything else as it is. */
static char *copy_row(char **rows, int nr, const char *r, int lo, int hi, const char *sfx)
{
    const char *tg = jump_target(r);
    int j = tg ? label_row(rows, nr, tg) : -1;
    if (is_label(r))
        return xasprintf("%.*s%s:", (int)strlen(r) - 1, r, sfx);
    if (j >= lo && j < hi)
        return xasprintf("%.*s%s%s", (int)(tg - r), r, tg, sfx);
    return xstrdup(r);
}

/* Unroll the loop `L: BODY; jcc L` (label row TO, jump row BACK) UNROLL
 * times: each copy's jcc goes forward to the next copy, the last one's to
 * a row that sets cc_unroll to 1 and ends the thread, which the caller
 * checks no state reaches. */
static char **unroll_loop(char **rows, int nr, int to, int back, int unroll, int id, int *no)
{
    char **out = xcalloc((size_t)(nr + unroll * (back - to + 3) + 4), sizeof *out);
    int n = 0;
    const char *jcc = rows[back];
    size_t mlen = (size_t)(strchr(jcc, ' ') - jcc);
    for (int i = 0; i <= to; i++)
        out[n++] = rows[i];
    for (int k = 0; k < unroll; k++) {
        char sfx[32];
        snprintf(sfx, sizeof sfx, "u%dk%d", id, k);
        if (k > 0)
            out[n++] = xasprintf("%.*s%s:", (int)strlen(rows[to]) - 1, rows[to], sfx);
        for (int i = to + 1; i < back; i++)
            out[n++] = k ? copy_row(rows, nr, rows[i], to + 1, back, sfx) : xstrdup(rows[i]);
        if (k + 1 < unroll)
            out[n++] = xasprintf("%.*s %.*su%dk%d", (int)mlen, jcc, (int)strlen(rows[to]) - 1, rows[to], id, k + 1);
        else
            out[n++] = xasprintf("%.*s Lcut%d", (int)mlen, jcc, id);
        out[n++] = xasprintf("jmp Lexit%d", id);
    }
    for (int i = to + 1; i < back; i++)
        free(rows[i]);                          /* the first copy took duplicates */
    out[n++] = xasprintf("Lcut%d:", id);
    out[n++] = xstrdup("movl $1, cc_unroll(%rip)");
    out[n++] = xstrdup("ret");
    out[n++] = xasprintf("Lexit%d:", id);
    free(rows[back]);
    for (int i = back + 1; i < nr; i++)
        out[n++] = rows[i];
    free(rows);
    *no = n;
    return out;
}

bool lift_layout(char ***rowsp, int *nrp, int th, int unroll, bool *unrolled, const char *file, diag *d)
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
        if (pass == PASSES || nr > MAX_ROWS)
            return diag_error(d, file, 0, 0,
                              "cc-check: P%d: cannot lift '%s' (a loop back to %.*s, nested or too long to unroll "
                              "%d times)",
                              th, rows[back], (int)strlen(rows[to]) - 1, rows[to], unroll);
        /* The block from label TO to its end. */
        int end = to + 1;
        while (end < nr && strcmp(rows[end], "ret") && strncmp(rows[end], "jmp ", 4))
            end++;
        if (strncmp(rows[back], "jmp ", 4) || end == back) {
            /* A conditional jump back, or one that closes its own block: a
             * loop (a lock cmpxchg retry loop) */
            if (unroll < 1)
                return diag_error(d, file, 0, 0, "cc-check: P%d: cannot lift '%s' (a loop, and --unroll is 0)", th,
                                  rows[back]);
            *rowsp = unroll_loop(rows, nr, to, back, unroll, ++copies, nrp);
            *unrolled = true;
            continue;
        }
        bool closed = end < nr;
        int len = (closed ? end + 1 : nr) - (to + 1);
        char **out = xcalloc((size_t)(nr + len + 2), sizeof *out);
        int no = 0;
        copies++;
        for (int i = 0; i < back; i++)
            out[no++] = rows[i];
        char sfx[16];
        snprintf(sfx, sizeof sfx, "c%d", copies);
        for (int k = to + 1; k < to + 1 + len; k++)
            out[no++] = copy_row(rows, nr, rows[k], to + 1, to + 1 + len, sfx);
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
