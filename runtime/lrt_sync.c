/* Waiting: clocks, spin waits that cannot livelock, and the barrier that
 * separates the phases of a run.
 *
 * Spinning is the fastest way to meet another thread that is running on
 * another CPU, and the worst when it is not: a spinning thread then burns
 * the time slice its peer needs.  So every wait here yields once it is
 * told the machine is oversubscribed, or once it has spun for far longer
 * than any instance takes (the peer must have been descheduled). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include <limits.h>
#include <sched.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <linux/futex.h>
#include <sys/syscall.h>
#endif
#include "lrt_internal.h"

/* Spins before a wait concludes its peer is not running. */
enum { SPIN_BUDGET = 1 << 16, BARRIER_SPINS = 1 << 14 };

uint64_t lrt_ticks(void)
{
#if defined(__x86_64__) || defined(__i386__)
    return __builtin_ia32_rdtsc();
#else
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
#endif
}

double lrt_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void lrt_lock_yield(void)
{
    sched_yield();
}

void lrt_pause(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield" ::: "memory");
#endif
}

/* One step of a wait that has not ended yet: yield when oversubscribed or
 * once the spin budget is spent, else (with PAUSE) a spin-loop hint. */
static inline void wait_step(unsigned *spins, bool yield, bool pause)
{
    if (yield || ++*spins > SPIN_BUDGET)
        sched_yield();
    else if (pause)
        lrt_pause();
}

void lrt_wait_flag(_Atomic uint32_t *flag, uint32_t val, bool yield)
{
    /* No pause in the spin: the waiter must leave the moment the flag
     * rises, or the thread that raised it is ahead by the pause. */
    unsigned spins = 0;
    while (atomic_load_explicit(flag, memory_order_acquire) != val)
        wait_step(&spins, yield, false);
}

void lrt_wait_ticks(uint64_t target, bool yield)
{
    unsigned spins = 0;
    while (lrt_ticks() < target)
        wait_step(&spins, yield, true);
}

void lrt_wait_reach(_Atomic uint64_t *counter, uint64_t val, bool yield)
{
    unsigned spins = 0;
    while (atomic_load_explicit(counter, memory_order_acquire) < val)
        wait_step(&spins, yield, true);
}

static void futex_wait(_Atomic uint32_t *addr, uint32_t val)
{
#ifdef __linux__
    syscall(SYS_futex, (uint32_t *)addr, FUTEX_WAIT_PRIVATE, val, NULL, NULL, 0);
#else
    (void)addr;
    (void)val;
    sched_yield();
#endif
}

static void futex_wake_all(_Atomic uint32_t *addr)
{
#ifdef __linux__
    syscall(SYS_futex, (uint32_t *)addr, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
#else
    (void)addr;
#endif
}

void lrt_barrier_init(lrt_barrier *b, uint32_t n, bool yield)
{
    atomic_init(&b->count, 0);
    atomic_init(&b->gen, 0);
    atomic_init(&b->sleepers, 0);
    b->n = n;
    b->yield = yield;
}

void lrt_barrier_wait(lrt_barrier *b, void (*serial)(void *), void *arg)
{
    uint32_t gen = atomic_load_explicit(&b->gen, memory_order_acquire);
    if (atomic_fetch_add_explicit(&b->count, 1, memory_order_acq_rel) + 1 == b->n) {
        /* Last to arrive: decide for everyone, then open the barrier. */
        if (serial)
            serial(arg);
        atomic_store_explicit(&b->count, 0, memory_order_relaxed);
        atomic_fetch_add_explicit(&b->gen, 1, memory_order_acq_rel);
        if (atomic_load_explicit(&b->sleepers, memory_order_seq_cst))
            futex_wake_all(&b->gen);
        return;
    }
    if (!b->yield)
        for (unsigned i = 0; i < BARRIER_SPINS; i++) {
            if (atomic_load_explicit(&b->gen, memory_order_acquire) != gen)
                return;
            lrt_pause();
        }
    atomic_fetch_add_explicit(&b->sleepers, 1, memory_order_seq_cst);
    /* futex_wait returns at once if gen already moved on, so a wake-up
     * cannot be lost between the check and the sleep. */
    while (atomic_load_explicit(&b->gen, memory_order_acquire) == gen)
        futex_wait(&b->gen, gen);
    atomic_fetch_sub_explicit(&b->sleepers, 1, memory_order_seq_cst);
}
