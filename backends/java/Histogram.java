package litmusc.runner;

import java.io.PrintStream;
import java.util.Arrays;

/**
 * Counts of distinct outcomes (vectors of ints), in an open-addressing
 * table so that counting an outcome allocates nothing.  Outcomes print in
 * the order they were first seen.
 */
final class Histogram {
    private final int width;
    private int capacity = 64;
    private int[] keys;
    private long[] counts;
    private int[] order;     // slots in first-seen order
    private int size;
    private long total;

    Histogram(int width) {
        this.width = width;
        keys = new int[capacity * Math.max(width, 1)];
        counts = new long[capacity];
        order = new int[capacity];
    }

    long total() {
        return total;
    }

    int size() {
        return size;
    }

    private static int mix(int h) {
        h ^= h >>> 16;
        h *= 0x85ebca6b;
        h ^= h >>> 13;
        return h;
    }

    private int slotOf(int[] v, int[] ks, long[] cs, int cap) {
        int h = 17;
        for (int i = 0; i < width; i++)
            h = h * 31 + v[i];
        int slot = mix(h) & (cap - 1);
        for (;;) {
            if (cs[slot] == 0)
                return slot;
            boolean same = true;
            int base = slot * width;
            for (int i = 0; i < width && same; i++)
                same = ks[base + i] == v[i];
            if (same)
                return slot;
            slot = (slot + 1) & (cap - 1);
        }
    }

    void add(int[] v, long count) {
        if (count <= 0)
            return;
        if (2 * (size + 1) > capacity)
            grow();
        int slot = slotOf(v, keys, counts, capacity);
        if (counts[slot] == 0) {
            System.arraycopy(v, 0, keys, slot * width, width);
            order[size++] = slot;
        }
        counts[slot] += count;
        total += count;
    }

    private void grow() {
        int cap = capacity * 2;
        int[] ks = new int[cap * Math.max(width, 1)];
        long[] cs = new long[cap];
        int[] ord = new int[cap];
        int[] v = new int[width];
        for (int i = 0; i < size; i++) {
            int old = order[i];
            System.arraycopy(keys, old * width, v, 0, width);
            int slot = slotOf(v, ks, cs, cap);
            System.arraycopy(v, 0, ks, slot * width, width);
            cs[slot] = counts[old];
            ord[i] = slot;
        }
        keys = ks;
        counts = cs;
        order = ord;
        capacity = cap;
    }

    /** Add every count of OTHER to this one. */
    void merge(Histogram other) {
        int[] v = new int[width];
        for (int i = 0; i < other.size; i++) {
            int slot = other.order[i];
            System.arraycopy(other.keys, slot * width, v, 0, width);
            add(v, other.counts[slot]);
        }
    }

    void clear() {
        Arrays.fill(counts, 0);
        size = 0;
        total = 0;
    }

    /** The `outcome COUNT V1 ... Vn` lines of the protocol. */
    void print(PrintStream out) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < size; i++) {
            int slot = order[i];
            sb.setLength(0);
            sb.append("outcome ").append(counts[slot]);
            for (int k = 0; k < width; k++)
                sb.append(' ').append(keys[slot * width + k]);
            out.println(sb);
        }
    }
}
