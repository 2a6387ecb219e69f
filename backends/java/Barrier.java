package litmusc.runner;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * A reusable barrier for the actor threads.  Waiting spins briefly, then
 * yields, then parks: spinning alone collapses as soon as there are more
 * threads than CPUs (or a CPU is taken away), so it must never be the only
 * way to wait.
 */
final class Barrier {
    private final int parties;
    private final int spinLimit;
    private final AtomicInteger arrived = new AtomicInteger();
    private volatile int generation;

    Barrier(int parties, boolean oversubscribed) {
        this.parties = parties;
        this.spinLimit = oversubscribed ? 0 : 1 << 16;
    }

    /** Wait for every party; the last to arrive runs LAST first. */
    void await(Runnable last) {
        int gen = generation;
        if (arrived.incrementAndGet() == parties) {
            arrived.set(0);
            if (last != null)
                last.run();
            generation = gen + 1;
            return;
        }
        waitWhile(gen);
    }

    private void waitWhile(int gen) {
        for (int spins = 0; generation == gen; spins++)
            backOff(spins, spinLimit);
    }

    /** Wait until COUNTER reaches TARGET, in the same escalating way. */
    static void awaitCount(AtomicInteger counter, int target, int spinLimit) {
        for (int spins = 0; counter.get() < target; spins++)
            backOff(spins, spinLimit);
    }

    /** One step of waiting, the SPINS-th: spin, then yield, then park. */
    private static void backOff(int spins, int spinLimit) {
        if (spins < spinLimit) {
            Thread.onSpinWait();
        } else if (spins < spinLimit + 64) {
            Thread.yield();
        } else {
            LockSupport.parkNanos(20_000);
        }
    }
}
