#ifndef LITMUSC_BACKENDS_NATIVE_H
#define LITMUSC_BACKENDS_NATIVE_H
/* Native stress harnesses: a standalone C program per test that runs the
 * test's threads many times on real hardware and prints the histogram of
 * final states.
 *
 * The generated source holds only the test: one function per thread (C11
 * atomics, or x86 inline asm) and its gapped twin (a spin before each
 * access, for the gapped runs of --until-covered), a reset and a collect
 * function, and a descriptor handed to the runtime (runtime/lrt.h), which
 * owns everything else: worker threads, placement, synchronisation, memory
 * layout, outcome counting, timing, signals and the output.
 *
 * Building a harness:
 *   1. write native_generate()'s text as DIR/test.c;
 *   2. write every file of native_runtime_file(0..) as DIR/<basename>;
 *   3. cc NATIVE_CFLAGS -o DIR/test DIR/test.c DIR/<each runtime .c> NATIVE_LDLIBS
 *      (gcc or clang; the files also compile with -Wall -Wextra -Werror).
 *
 * The program's command line (all optional):
 *   -s N            instances per run (size of the test; default 100000, k/M suffixes)
 *   -r N            runs (default 10); a run = reset S instances, run, count
 *   --sync MODE     how the threads meet on the instances:
 *                   timebase chunk c of --chunk instances starts at tick
 *                            t0 + c*period + the thread's delay (rdtsc;
 *                            t0 agreed when the run starts; default)
 *                   loose    each thread sweeps the S instances, waiting for
 *                            the others every --chunk instances (jcstress
 *                            style)
 *                   user     one spin flag per instance, set by thread i mod N
 *   --affinity MODE none | incr (worker w on CPU w mod cpus; default) |
 *                   random (a fresh CPU permutation every run)
 *   --layout MODE   array (one array per location; default) | packed (an
 *                   instance's cells adjacent) | line (one cell per cache
 *                   line) | shuffle (cells on lines, slots shuffled every run)
 *   --chunk N       instances swept without waiting (default: timebase 64,
 *                   loose 256; 0: timebase one chunk, loose never wait)
 *   --cpus N        CPUs to use (default: those the process may run on)
 *   --seed N        random seed (default: from the clock); printed as config
 *   --period N|auto timebase: ticks between chunks; auto (default) adapts
 *                   it run by run to keep the threads together
 *   --delay N|auto  timebase: per-thread delays, redrawn every run from
 *                   [0, N]; auto (default) = [0, period/chunk/2]
 *   --time SECONDS  stop after this much wall time (at a run boundary)
 *   -h, --help
 * Test threads are assigned to the persistent workers at random in every
 * run.  With more test threads than CPUs the program never spins unbounded:
 * waits fall back to sched_yield and futexes.
 *
 * Its stdout is the raw histogram protocol, and nothing else:
 *   litmusc-histogram 1
 *   config KEY VALUE          (sync, affinity, layout, size, runs, threads,
 *                              cpus, oversubscribed, seed; loose and
 *                              timebase: chunk; timebase: period (N, or
 *                              "auto" and the last period), delay, aligned
 *                              (share of chunks the threads began together);
 *                              until-covered: gapped N (runs made with gaps,
 *                              when any); schedules: schedules N directed D,
 *                              folded, switched (schedules with lanes of two
 *                              threads or more, with a switch), laned N)
 *   outcome COUNT V1 ... Vn   (Vi: the i-th of ir_observables(), decimal int64;
 *                              addresses are IR_ADDR(loc) values)
 *   iterations N              (= sum of COUNTs = completed runs * S)
 *   elapsed SECONDS           (%.6f, wall clock of the runs)
 *   interrupted 0|1           (1: stopped early by SIGINT/SIGTERM; still valid;
 *                              --time stops early too but reads 0)
 *   end
 * Exit status: 0, or 2 for a bad command line (message on stderr), 3 when
 * the machine refuses (no memory, no threads).
 *
 * Semantics of the C11 target:
 *   C tests keep their memory orders; non-atomic accesses become volatile
 *   accesses (or relaxed atomics with plain_as_relaxed), so each is emitted
 *   exactly once as a plain machine access.
 *   Java: plain as non-atomic, opaque -> relaxed, acquire/release as such,
 *   volatile -> seq_cst; fullFence -> seq_cst fence, acquire/loadLoad ->
 *   acquire fence, release/storeStore -> release fence.
 *   x86 source tests: loads acquire, stores release, locked -> seq_cst,
 *   MFENCE -> seq_cst fence (what x86-TSO gives them).
 * Arithmetic wraps in 64 bits; division or remainder by zero yields 0. */
#include <stdbool.h>
#include "ir/ir.h"
#include "util/diag.h"
#include "util/embed.h"

typedef enum native_target { NATIVE_C11, NATIVE_X86 } native_target;

typedef struct native_opts {
    native_target target;
    /* C11: non-atomic (plain) accesses as relaxed atomics instead of
     * volatile accesses (`--plain relaxed`). */
    bool plain_as_relaxed;
    /* x86 target, C or Java test: compilation scheme name (as accepted by
     * backends/x86/x86.h); NULL = the default scheme for the arch.  Ignored
     * for x86 source tests, which map instruction for instruction. */
    const char *scheme;
} native_opts;

/* Defaults: C11, plain as volatile, default scheme. */
void native_opts_init(native_opts *o);

/* The complete C source of a standalone harness program for T (it links
 * the runtime).  malloc'd; NULL + diag (status 2) if T cannot be emitted
 * for the target, e.g. an x86 instruction the target has no form for. */
char *native_generate(const ir_test *t, const native_opts *o, diag *d);

/* The runtime sources the program must be compiled with: the I-th file, or
 * NULL past the last.  Paths are "runtime/NAME" (NAME = *.c or *.h). */
const embed_file *native_runtime_file(int i);

/* Write DATA to PATH through a temporary file in the same folder and a
 * rename, so PATH is either complete or untouched.  false + diag (3). */
bool native_write_file(const char *path, const char *data, size_t len, diag *d);
/* Write every runtime file into folder DIR (which must exist). */
bool native_write_runtime(const char *dir, diag *d);
/* A file name for test NAME: letters, digits, '_', '-', '.' and '+' kept,
 * anything else '_', never empty or starting with '.'; malloc'd. */
char *native_file_stem(const char *name);

/* Gap slots of a gapped thread body (runtime/lrt.h's LRT_GAPS). */
#define NATIVE_GAPS 8

/* Flags to compile and link a generated program with its runtime. */
#define NATIVE_CFLAGS "-O2 -std=c11 -pthread"
#define NATIVE_LDLIBS "-pthread"

/* First line of the program's output. */
#define NATIVE_PROTOCOL_MAGIC "litmusc-histogram 1"

#endif
