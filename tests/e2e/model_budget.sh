#!/bin/sh
# The model's budget (--max-candidates, --model-timeout/--timeout): tests of
# a few hundred bytes whose candidate executions no machine can search stop
# with exit 3 and a message naming the budget, in seconds, under every
# command that runs a model; a test within the budget is unchanged by it,
# and the count is exact at its edge.
#   - X86: 4 threads storing and loading one location, 780 bytes: the
#     default budget (1,000,000 candidates) stops it in about 2 s of CPU
#     time, where the search limit took 19 s and more;
#   - Java: 100 stores to one location under one monitor, from two threads;
#   - C: one writer and 62 readers of one location (63 threads: 2^62
#     reads-from maps).
# Limits are on CPU time (ulimit -t), which a loaded machine does not shorten.
set -u
L=${LITMUSC:?LITMUSC must name the program under test}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
export LITMUSC_CACHE="$tmp/cache"
. "$(cd "$(dirname "$0")/.." && pwd)/seed_cache.sh"
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
cands="more than 1000000 candidate executions, the model's budget (--max-candidates N raises it"

# expect LABEL STATUS PATTERN CPU ARGS...: as in input_limits.sh
expect() {
    label=$1 want=$2 pattern=$3 cpu=$4
    shift 4
    (ulimit -t "$cpu" && exec timeout $((cpu * 10)) "$L" "$@") > "$tmp/out" 2> "$tmp/err"
    rc=$?
    if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ] || [ "$rc" -eq 152 ]; then
        fail "$label: stopped after ${cpu}s of CPU time (exit $rc)"
    elif [ "$rc" -ne "$want" ]; then
        fail "$label: exit $rc, expected $want: $(head -c 300 "$tmp/err")"
    elif [ -n "$pattern" ] && ! grep -q -- "$pattern" "$tmp/err"; then
        fail "$label: no '$pattern' in: $(head -c 300 "$tmp/err")"
    fi
}

awk 'BEGIN {
    print "X86 StoresLoads4"; print "\"4 threads storing and loading x\""; print "{ x=0; }"
    print " P0           | P1           | P2           | P3           ;"
    split("EAX EBX ECX EDX", r, " ")
    for (i = 1; i <= 4; i++) {
        line = ""; rl = ""
        for (t = 0; t < 4; t++) {
            line = line sprintf(" %-12s%s", sprintf("MOV [x],$%d", t * 10 + i), t < 3 ? "|" : ";")
            rl = rl sprintf(" %-12s%s", sprintf("MOV %s,[x]", r[i]), t < 3 ? "|" : ";")
        }
        print line; print rl
    }
    c = ""
    for (t = 0; t < 4; t++) for (i = 1; i <= 4; i++) c = c sprintf("%s%d:%s=0", c == "" ? "" : " /\\ ", t, r[i])
    print "exists (" c ")"
}' > "$tmp/x86.litmus"
awk 'BEGIN {
    print "Java SyncStores100"; print "\"100 stores to x under one monitor, from two threads, and a reader\""
    print "{ x=0; 0:X=x; 0:M=m; 1:X=x; 1:M=m; 2:X=x; 2:M=m; }"
    v = 1
    for (t = 0; t < 2; t++) {
        printf "Thread%d {\n  synchronized (M) {\n", t
        for (i = 0; i < 50; i++) printf "    X.set(%d);\n", v++
        print "  }\n}"
    }
    print "Thread2 {\n  synchronized (M) {\n    int r0 = X.get();\n  }\n}"
    print "exists ([x]=1)"
}' > "$tmp/java.litmus"
awk 'BEGIN {
    print "C Readers62"; print "\"one writer and 62 readers of x\""; print "{ x=0; }"
    print "P0 (atomic_int* x) {\n  atomic_store_explicit(x, 1, memory_order_relaxed);\n}"
    for (t = 1; t < 63; t++)
        printf "P%d (atomic_int* x) {\n  int r0 = atomic_load_explicit(x, memory_order_relaxed);\n}\n", t
    print "exists (1:r0=0 /\\ 62:r0=1)"
}' > "$tmp/c.litmus"

# 1. The default budget, and smaller ones given.
expect "X86, default budget" 3 "StoresLoads4: $cands" 10 model "$tmp/x86.litmus"
expect "Java, --max-candidates 100000" 3 "SyncStores100: more than 100000 candidate executions" 10 \
    model --max-candidates 100000 "$tmp/java.litmus"
expect "Java, --timeout 1" 3 "SyncStores100: no answer within 1 s of CPU time, the model's time budget" 10 \
    model --timeout 1 "$tmp/java.litmus"
expect "C, --max-candidates 100000" 3 "Readers62: more than 100000 candidate executions" 10 \
    model --max-candidates 100000 "$tmp/c.litmus"
expect "C, --model-timeout 1" 3 "Readers62: no answer within 1 s of CPU time" 10 \
    model --model-timeout 1 "$tmp/c.litmus"

# 2. Every command that runs a model keeps to it.
few="Readers62: more than 1000 candidate executions, the model's budget"
expect "races" 3 "$few" 10 races --max-candidates 1000 "$tmp/c.litmus"
expect "check-scheme" 3 "$few" 10 check-scheme --scheme c11-x86-mfence --max-candidates 1000 "$tmp/c.litmus"
expect "run" 3 "$few" 10 run --max-candidates 1000 "$tmp/c.litmus"
if command -v cc > /dev/null 2>&1; then
    expect "cc-check" 3 "$few" 10 cc-check --max-candidates 1000 "$tmp/c.litmus"
else
    echo "SKIP: cc-check (no cc)"
fi
expect "races --timeout" 3 "Readers62: no answer within 1 s" 10 races --timeout 1 "$tmp/c.litmus"
expect "run --model-timeout" 3 "Readers62: no answer within 1 s" 10 run --model-timeout 1 "$tmp/c.litmus"

# 3. At its edge: 2+2W has 4 candidates under x86tso.
w22="$here/../corpus/x86/classic/2+2W.litmus"
expect "2+2W, --max-candidates 4" 0 "" 10 model --max-candidates 4 "$w22"
grep -q "^Observation 2+2W Never 0 3" "$tmp/out" || fail "2+2W under its budget: $(grep Observation "$tmp/out")"
expect "2+2W, --max-candidates 3" 3 "2+2W: more than 3 candidate executions" 10 model --max-candidates 3 "$w22"
grep -q "^Test " "$tmp/out" && fail "2+2W past its budget printed a result"
expect "2+2W, no limits" 0 "" 10 model --max-candidates 0 --timeout 0 "$w22"

# 4. Usage.
expect "--max-candidates x" 2 "max-candidates takes a whole number" 10 model --max-candidates x "$w22"
expect "--max-candidates -1" 2 "max-candidates takes a whole number" 10 model --max-candidates -1 "$w22"
expect "--timeout -1" 2 "model-timeout takes a number of seconds" 10 model --timeout -1 "$w22"
"$L" model --help | grep -q "default 1000000, 0: no limit" || fail "model --help does not state the default"

[ "$fails" -eq 0 ] || exit 1
echo "model_budget: ok"
