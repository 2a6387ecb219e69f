package litmusc.runner;

/**
 * One litmus test as the standalone runner drives it.  litmusc generates a
 * subclass per test: an array of instances of the test's memory, one
 * method per thread that sweeps a range of instances, and the final values
 * of an instance in the order of the test's observables.
 */
public abstract class LitmusCase {
    /** The litmus test's name. */
    public abstract String name();

    /** Number of threads (actors) of the test. */
    public abstract int actors();

    /** Number of observed values per instance. */
    public abstract int observables();

    /** Allocate N instances holding the initial values. */
    public abstract void allocate(int n);

    /** Give instances [from, to) their initial values again. */
    public abstract void reset(int from, int to);

    /** Run thread ACTOR of the test on every instance in [from, to). */
    public abstract void run(int actor, int from, int to);

    /** The observed values of instance I, once every actor is done with it. */
    public abstract void collect(int i, int[] values);
}
