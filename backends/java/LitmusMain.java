package litmusc.runner;

import java.io.BufferedOutputStream;
import java.io.FileOutputStream;
import java.io.FileDescriptor;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The standalone Java stress runner.  For each test class named on the
 * command line it runs the test's actors on R runs of S instances each and
 * prints the raw histogram protocol on stdout:
 *
 *   litmusc-histogram 1, config lines, outcome COUNT V1 .. Vn,
 *   iterations N, elapsed SECONDS, interrupted 0|1, end
 *
 * A run: every actor thread sweeps all S instances, stride by stride (the
 * actors meet at a counter after each stride, jcstress-style loose
 * batches, unless there are more actors than CPUs), then each thread
 * counts and resets its own slice of the instances.  On SIGINT/SIGTERM the
 * partial histogram of the test in progress is printed with interrupted 1;
 * counts always add up to the iterations printed.  A test still running
 * after --timeout seconds gets the same partial block, and then the JVM
 * exits with status 124: its actors may be stuck and no Java thread can be
 * stopped safely, so the caller starts a fresh JVM for the tests after it.
 *
 * Usage: LitmusMain [-s N] [-r N] [--stride N] [--time SECONDS] [--timeout SECONDS] CLASS...
 */
public final class LitmusMain {
    private static final Object PRINT_LOCK = new Object();
    private static final PrintStream OUT =
        new PrintStream(new BufferedOutputStream(new FileOutputStream(FileDescriptor.out), 1 << 16), false);
    private static boolean shuttingDown;
    private static volatile Session current;

    private LitmusMain() {
    }

    /** One test being run: its threads and the counts so far. */
    static final class Session {
        final LitmusCase tc;
        final int size, runs, stride, actors, cpus;
        final boolean oversubscribed;
        final long deadline;
        final Histogram total;
        long iterations;
        boolean printed;
        volatile boolean stop;
        boolean interrupted;
        int started;
        long t0, t1;
        final Barrier start, swept;
        final AtomicInteger progress = new AtomicInteger();

        Session(LitmusCase tc, int size, int runs, int stride, double seconds) {
            this.tc = tc;
            this.size = size;
            this.runs = runs;
            this.stride = Math.max(1, Math.min(stride, size));
            this.actors = tc.actors();
            this.cpus = Runtime.getRuntime().availableProcessors();
            this.oversubscribed = actors > cpus;
            this.deadline = seconds > 0 ? System.nanoTime() + (long) (seconds * 1e9) : Long.MAX_VALUE;
            this.total = new Histogram(tc.observables());
            this.start = new Barrier(actors, oversubscribed);
            this.swept = new Barrier(actors, oversubscribed);
        }

        /** Decided by the last actor to reach the start of a run. */
        void beginRun() {
            long now = System.nanoTime();
            if (started == 0)
                t0 = now;
            if (started >= runs || stop || now > deadline) {
                if (started < runs)
                    interrupted = true;
                stop = true;
                return;
            }
            started++;
            progress.set(0);
        }

        void worker(int w) {
            int[] values = new int[tc.observables()];
            Histogram local = new Histogram(tc.observables());
            int lo = (int) ((long) w * size / actors), hi = (int) ((long) (w + 1) * size / actors);
            int spin = oversubscribed ? 0 : 1 << 16;
            for (;;) {
                start.await(this::beginRun);
                if (stop)
                    return;
                int k = 0;
                for (int base = 0; base < size; base += stride, k++) {
                    tc.run(w, base, Math.min(size, base + stride));
                    if (!oversubscribed) {
                        progress.incrementAndGet();
                        Barrier.awaitCount(progress, actors * (k + 1), spin);
                    }
                }
                swept.await(null);
                for (int i = lo; i < hi; i++) {
                    tc.collect(i, values);
                    local.add(values, 1);
                }
                tc.reset(lo, hi);
                synchronized (this) {
                    total.merge(local);
                    iterations += hi - lo;
                    t1 = System.nanoTime();
                }
                local.clear();
            }
        }

        /** The protocol block for what has been counted so far. */
        synchronized void print(boolean interruptedNow) {
            if (printed)
                return;
            printed = true;
            OUT.println("litmusc-histogram 1");
            OUT.println("config test " + tc.name().replaceAll("[^\\x21-\\x7e]", "_"));
            OUT.println("config target java");
            OUT.println("config sync loose");
            OUT.println("config stride " + stride);
            OUT.println("config size " + size);
            OUT.println("config runs " + runs);
            OUT.println("config threads " + actors);
            OUT.println("config cpus " + cpus);
            OUT.println("config oversubscribed " + (oversubscribed ? 1 : 0));
            OUT.println("config jvm " + System.getProperty("java.vm.name", "?").replace(' ', '_') + "-"
                        + System.getProperty("java.vm.version", "?").replace(' ', '_'));
            total.print(OUT);
            OUT.println("iterations " + iterations);
            double elapsed = t1 > t0 ? (t1 - t0) / 1e9 : 0.0;
            OUT.println(String.format(java.util.Locale.ROOT, "elapsed %.6f", elapsed));
            OUT.println("interrupted " + (interruptedNow || interrupted ? 1 : 0));
            OUT.println("end");
            OUT.flush();
        }
    }

    /** Exit status after a test ran past --timeout (as timeout(1) uses). */
    static final int TIMED_OUT = 124;

    private static void runTest(Session s, double timeout) throws InterruptedException {
        s.tc.allocate(s.size);
        Thread[] threads = new Thread[s.actors];
        for (int w = 0; w < s.actors; w++) {
            final int id = w;
            threads[w] = new Thread(() -> s.worker(id), "actor" + w);
            threads[w].setDaemon(true);
        }
        for (Thread t : threads)
            t.start();
        long limit = timeout > 0 ? System.nanoTime() + (long) (timeout * 1e9) : Long.MAX_VALUE;
        for (Thread t : threads) {
            while (t.isAlive()) {
                long left = limit - System.nanoTime();
                if (left <= 0) {
                    timedOut(s, timeout);
                    return;
                }
                t.join(Math.max(1, Math.min(left / 1000000, 1000)));
            }
        }
        synchronized (PRINT_LOCK) {
            if (!shuttingDown)
                s.print(false);
        }
    }

    /** The partial block of S, then the end of this JVM (the shutdown hook
     *  prints nothing more: the block is printed once). */
    private static void timedOut(Session s, double timeout) {
        synchronized (PRINT_LOCK) {
            s.stop = true;
            s.print(true);
            OUT.flush();
            System.err.println("litmusc java runner: " + s.tc.name() + " ran past the " + timeout + " s time limit");
            System.err.flush();
            Runtime.getRuntime().halt(TIMED_OUT);
        }
    }

    private static double secondsArg(String[] args, int i) {
        if (i >= args.length)
            usage("missing value after " + args[i - 1]);
        try {
            double v = Double.parseDouble(args[i]);
            if (!(v >= 0))
                usage("value out of range: " + args[i]);
            return v;
        } catch (NumberFormatException e) {
            usage("not a number: " + args[i]);
            return 0;
        }
    }

    private static int intArg(String[] args, int i) {
        if (i >= args.length)
            usage("missing value after " + args[i - 1]);
        try {
            String v = args[i];
            int mul = 1;
            if (v.endsWith("k") || v.endsWith("K")) {
                mul = 1000;
                v = v.substring(0, v.length() - 1);
            } else if (v.endsWith("M")) {
                mul = 1000000;
                v = v.substring(0, v.length() - 1);
            }
            long n = Long.parseLong(v) * mul;
            if (n < 1 || n > Integer.MAX_VALUE)
                usage("value out of range: " + args[i]);
            return (int) n;
        } catch (NumberFormatException e) {
            usage("not a number: " + args[i]);
            return 0;
        }
    }

    private static void usage(String why) {
        System.err.println("litmusc java runner: " + why);
        System.err.println("usage: LitmusMain [-s N] [-r N] [--stride N] [--time SECONDS] [--timeout SECONDS] CLASS...");
        System.exit(2);
    }

    public static void main(String[] args) throws Exception {
        int size = 10000, runs = 10, stride = 256;
        double seconds = 0, timeout = 0;
        List<String> classes = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
            case "-s": size = intArg(args, ++i); break;
            case "-r": runs = intArg(args, ++i); break;
            case "--stride": stride = intArg(args, ++i); break;
            case "--time": seconds = secondsArg(args, ++i); break;
            case "--timeout": timeout = secondsArg(args, ++i); break;
            default:
                if (args[i].startsWith("-"))
                    usage("unknown option " + args[i]);
                classes.add(args[i]);
            }
        }
        if (classes.isEmpty())
            usage("no test class given");
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            synchronized (PRINT_LOCK) {
                shuttingDown = true;
                Session s = current;
                if (s != null) {
                    s.stop = true;
                    s.print(true);
                }
                OUT.flush();
            }
        }, "litmusc-interrupt"));
        for (String name : classes) {
            LitmusCase tc;
            try {
                tc = (LitmusCase) Class.forName(name).getDeclaredConstructor().newInstance();
            } catch (ReflectiveOperationException | ClassCastException e) {
                System.err.println("litmusc java runner: cannot load " + name + ": " + e);
                System.exit(3);
                return;
            }
            Session s = new Session(tc, size, runs, stride, seconds);
            current = s;
            runTest(s, timeout);
        }
        synchronized (PRINT_LOCK) {
            current = null;
            OUT.flush();
        }
    }
}
