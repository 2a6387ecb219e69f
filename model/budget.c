/* The meter of a model run's budget (budget.h). */
#include <time.h>
#include "model/budget.h"

/* The CPU time of the calling thread: the run's own work, which a loaded
 * machine does not shorten (the model runs in one thread, and never waits). */
static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void model_meter_start(model_meter *m, const model_budget *b, const char *test, diag *d)
{
    *m = (model_meter){.budget = *b, .test = test ? test : "", .d = d};
    if (b->timeout > 0)
        m->deadline = now() + b->timeout;
}

bool model_meter_count(model_meter *m, uint64_t n)
{
    if (!m)
        return true;
    if (m->spent)
        return false;
    m->candidates += n;
    if (m->budget.max_candidates && m->candidates > m->budget.max_candidates) {
        m->spent = true;
        diag_fail(m->d, "%s: more than %llu candidate executions, the model's budget (--max-candidates N "
                  "raises it, 0 lifts it)", m->test, (unsigned long long)m->budget.max_candidates);
        return false;
    }
    return model_meter_tick(m);
}

bool model_meter_tick(model_meter *m)
{
    if (!m)
        return true;
    if (m->spent)
        return false;
    /* reading the clock costs about as much as a small candidate; every
     * 64th step keeps the overshoot well under a millisecond */
    if (!m->deadline || ++m->ticks < 64)
        return true;
    m->ticks = 0;
    if (now() < m->deadline)
        return true;
    m->spent = true;
    diag_fail(m->d, "%s: no answer within %g s of CPU time, the model's time budget (--model-timeout SEC raises it, "
              "0 lifts it)", m->test, m->budget.timeout);
    return false;
}
