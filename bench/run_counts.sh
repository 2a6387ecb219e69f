# Sourced by the native benchmarks.
# run_counts FILE: "ITERATIONS SECONDS POSITIVE" of the "run" object in the
# one-test document `litmusc run --json` wrote to FILE (schema litmusc/1;
# "model" has a "positive" of its own, so only what follows "run": counts).
run_counts() {
    tr ',' '\n' <"$1" | awk -F: '/"run":\{/ { run = 1 } !run { next }
        $1 == "\"iterations\"" && n == "" { n = $2 } $1 == "\"seconds\"" && e == "" { e = $2 }
        $1 == "\"positive\"" && p == "" { p = $2 } END { print n, e, p }'
}
