/* Which CPUs the harness may use, and pinning a thread to one. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include <sched.h>
#include <unistd.h>
#include "lrt_internal.h"

int lrt_cpu_list(int *cpus, int max)
{
    int n = 0;
#ifdef CPU_SETSIZE
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) == 0)
        for (int c = 0; c < CPU_SETSIZE && n < max; c++)
            if (CPU_ISSET(c, &set))
                cpus[n++] = c;
#endif
    if (n == 0) {
        long online = sysconf(_SC_NPROCESSORS_ONLN);
        for (int c = 0; c < online && n < max; c++)
            cpus[n++] = c;
    }
    if (n == 0)
        cpus[n++] = 0;
    return n;
}

/* Failure to pin is not fatal: the run is still valid, only less
 * controlled (a container may forbid some CPUs). */
void lrt_pin_self(int cpu, const int *all, int nall)
{
#ifdef CPU_SETSIZE
    cpu_set_t set;
    CPU_ZERO(&set);
    if (cpu >= 0 && cpu < CPU_SETSIZE)
        CPU_SET(cpu, &set);
    else
        for (int i = 0; i < nall; i++)
            if (all[i] >= 0 && all[i] < CPU_SETSIZE)
                CPU_SET(all[i], &set);
    (void)sched_setaffinity(0, sizeof set, &set);
#else
    (void)cpu;
    (void)all;
    (void)nall;
#endif
}
