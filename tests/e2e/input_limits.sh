#!/bin/sh
# Inputs that once crashed litmusc or kept it busy for minutes, each with
# what it does now:
#   - loops nested two deep under Unroll=500 (or --unroll 400) lower to a
#     chain of 250,000 blocks: verified without recursion (a stack overflow
#     in every command before), and a model run ends in exit 3 at a stated
#     limit; three deep under Unroll=1000 is exit 3 at the IR's block limit;
#   - a cat file nested 30,000 parentheses deep, a chain of 10,000 `^-1`
#     (stack overflows before) are exit 2 at the place the nesting passes
#     its limit; a union of 60,000 terms (quadratic before) loads at once;
#   - 200,000 locations: `ir` and `model` (a linear look-up per name
#     before, minutes) answer in seconds, `model` with its exit 3 for more
#     locations than a candidate may have; under ASan too (the locations'
#     array grew by one a location, and ASan's realloc copies it whole:
#     minutes for 50,000).
# Each takes a few seconds of CPU time at most here; the limits are ten
# times that.  The times are in bench/RESULTS.md ("Input limits").
set -u
L=${LITMUSC:?LITMUSC must name the program under test}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
export LITMUSC_CACHE="$tmp/cache"
. "$(cd "$(dirname "$0")/.." && pwd)/seed_cache.sh"
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# expect LABEL STATUS PATTERN CPU ARGS...: litmusc ARGS exits with STATUS
# within CPU seconds of CPU time (a loaded machine does not shorten that;
# ten times as much wall time stops a hang) and, unless PATTERN is empty,
# says PATTERN on stderr.
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

# 1. Nested do-while loops.
nested() {   # nested UNROLL-LINE
    cat <<EOF
C nested
$1
{ x=0; y=0; }
P0 (atomic_int* x, atomic_int* y) {
  int r0; int r1;
  do { do { r0 = atomic_load_explicit(x, memory_order_relaxed); } while (r0 == 5); r1 = atomic_load_explicit(y, memory_order_relaxed); } while (r1 == 5);
}
P1 (atomic_int* x) {
  atomic_store_explicit(x, 1, memory_order_relaxed);
}
exists (0:r0=0)
EOF
}
nested "Unroll=500" > "$tmp/nested500.litmus"
nested "" > "$tmp/nested.litmus"
reads="nested500.litmus:6:13: error: more than 64 reads on one path of a thread"
expect "ir --check, Unroll=500" 0 "" 30 ir --check "$tmp/nested500.litmus"
expect "model, Unroll=500" 3 "$reads" 30 model "$tmp/nested500.litmus"
expect "races, Unroll=500" 3 "$reads" 30 races "$tmp/nested500.litmus"
expect "model --unroll 400" 3 "more than 64 reads on one path" 30 model --unroll 400 "$tmp/nested.litmus"
# three deep: a billion blocks, stopped at the IR's limit
sed 's/do { do { r0/do { do { do { r0/; s/while (r0 == 5);/while (r0 == 5); } while (r0 == 6);/' \
    "$tmp/nested.litmus" > "$tmp/nested3.litmus"
expect "three loops deep, --unroll 1000" 3 "nested3.litmus:6:.*: error: the loop unrolls thread P0 to more than" \
    30 ir --check --unroll 1000 "$tmp/nested3.litmus"

# 2. Cat files nested past the parser's limit, and a long flat union.
sb="$here/../corpus/java/classic/SB.litmus"
awk 'BEGIN { printf "\"parens\"\nlet r = "; for (i = 0; i < 30000; i++) printf "(";
             printf "po"; for (i = 0; i < 30000; i++) printf ")"; printf "\nacyclic r as x\n" }' > "$tmp/parens.cat"
awk 'BEGIN { printf "\"inverses\"\nlet r = po"; for (i = 0; i < 10000; i++) printf "^-1";
             printf "\nacyclic r as x\n" }' > "$tmp/inverses.cat"
awk 'BEGIN { printf "\"union\"\nlet r = po"; for (i = 1; i < 60000; i++) printf " | po";
             printf "\nacyclic r as x\n" }' > "$tmp/union.cat"
expect "30,000 parentheses" 2 "parens.cat:2:508: error: nested too deeply (more than 500 levels)" 10 \
    model --model "$tmp/parens.cat" "$sb"
expect "10,000 inverses" 2 "inverses.cat:2:1511: error: nested too deeply (more than 500 levels)" 10 \
    model --model "$tmp/inverses.cat" "$sb"
expect "a union of 60,000 terms" 0 "" 10 model --model "$tmp/union.cat" "$sb"
grep -q "^Test " "$tmp/out" || fail "a union of 60,000 terms: no result printed"

# 3. 200,000 locations.
sh "$here/../../bench/gen_big_init.sh" 200000 > "$tmp/big.litmus"
expect "ir, 200000 locations" 0 "" 30 ir "$tmp/big.litmus"
grep -q '^loc x199999 ' "$tmp/out" || fail "ir, 200000 locations: x199999 not printed"
expect "model, 200000 locations" 3 "the test has 200000 locations; at most" 30 model "$tmp/big.litmus"

[ "$fails" -eq 0 ] || exit 1
echo "input_limits: ok"
