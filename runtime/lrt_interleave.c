/* Interleavings: one worker runs all of a test's threads on one instance
 * the way one CPU does when it switches between them.  Each thread runs
 * on a stack of its own (a coroutine); its gapped body stops at every gap
 * of LRT_SWITCH (lrt_switch), and the worker goes on with the next piece
 * of the interleaving.  On one CPU each thread's accesses happen in its
 * program order and every load sees the latest store before it, so an
 * instance shows exactly the sequentially consistent execution the
 * interleaving spells, on every instance: a state the model allows by
 * some interleaving (all 2541 of fig6's x86 states) needs one instance of
 * its schedule, where timing on two CPUs showed a third of them in 1M.
 * Nothing is made up: the code that runs is the test's own, in an order a
 * machine with one CPU may run it. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include <stdlib.h>
#include <ucontext.h>
#include "lrt_internal.h"

/* A thread's stack: its gapped body, lrt_switch and the context switch
 * need a few hundred bytes; sanitizers' frames are larger. */
enum { INTERLEAVE_STACK = 256 * 1024 };

struct lrt_interleaver {
    int nthreads;
    char *stacks;
    ucontext_t scheduler;
    ucontext_t thread[LRT_MAX_THREADS];
    bool done[LRT_MAX_THREADS];
    int current;
    lrt_interleave_body body;
    void *arg;
};

/* The interleaving this worker is running, if any: lrt_switch asks. */
static _Thread_local lrt_interleaver *running;

lrt_interleaver *lrt_interleaver_new(int nthreads)
{
    lrt_interleaver *il = calloc(1, sizeof *il);
    if (!il)
        return NULL;
    il->nthreads = nthreads;
    il->stacks = malloc((size_t)nthreads * INTERLEAVE_STACK);
    if (!il->stacks) {
        free(il);
        return NULL;
    }
    return il;
}

void lrt_interleaver_free(lrt_interleaver *il)
{
    if (!il)
        return;
    free(il->stacks);
    free(il);
}

/* A thread's coroutine: its body, then back to the scheduler (uc_link). */
static void thread_entry(void)
{
    lrt_interleaver *il = running;
    int u = il->current;
    il->body(u, il->arg);
    il->done[u] = true;
}

/* Thread U on from where it stopped, up to its next switch or its end. */
static bool run_piece(lrt_interleaver *il, int u)
{
    if (il->done[u])
        return true;
    il->current = u;
    return swapcontext(&il->scheduler, &il->thread[u]) == 0;
}

/* A context C that starts thread_entry on STACK and ends in LINK.  What
 * is used after getcontext is read through volatile copies: getcontext
 * may return twice, though here it never does (the context is only ever
 * entered at thread_entry). */
static bool new_context(ucontext_t *c, char *stack, ucontext_t *link)
{
    ucontext_t *volatile vc = c, *volatile vlink = link;
    char *volatile vstack = stack;
    if (getcontext(c))
        return false;
    vc->uc_stack.ss_sp = vstack;
    vc->uc_stack.ss_size = INTERLEAVE_STACK;
    vc->uc_link = vlink;
    makecontext(vc, thread_entry, 0);
    return true;
}

bool lrt_interleave(lrt_interleaver *il, const unsigned char *piece, int npieces, lrt_interleave_body body,
                    void *arg)
{
    il->body = body;
    il->arg = arg;
    for (int u = 0; u < il->nthreads; u++) {
        if (!new_context(&il->thread[u], il->stacks + (size_t)u * INTERLEAVE_STACK, &il->scheduler))
            return false;
        il->done[u] = false;
    }
    running = il;
    bool ok = true;
    for (int q = 0; ok && q < npieces; q++)
        ok = run_piece(il, piece[q]);
    /* what the pieces left: a thread whose last piece ran to a switch its
     * schedule did not expect, or that no piece names, runs to its end */
    for (int u = 0; ok && u < il->nthreads; u++)
        while (ok && !il->done[u])
            ok = run_piece(il, u);
    running = NULL;
    return ok;
}

bool lrt_interleave_switch(void)
{
    lrt_interleaver *il = running;
    if (!il)
        return false;
    (void)swapcontext(&il->thread[il->current], &il->scheduler);
    return true;
}
