#!/bin/sh
# run --race-fuzz (RaceFuzzer on hardware): the hybrid detector's pairs are
# the targets; the run aims at the states that prove a target's accesses
# ran unordered, and a target is confirmed only when one was observed.
#  - MP with a plain x and a release/acquire flag: both pairs are confirmed
#    (a flag read of 0 leaves both unordered), with counts no larger than
#    the iterations, and the run stops once those states are covered.
#  - The same with the read of x guarded by the flag: the x pair is the
#    hybrid's false alarm (no state proves it) and says so; the flag pair
#    is confirmed.
#  - JSON carries the same verdicts, and validates against the schema
#    when python3-jsonschema is there.
#  - A test with no pair to target says so and runs as a plain run.
set -u
: "${LITMUSC:?set LITMUSC to the litmusc program}"
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
export LITMUSC_CACHE="$tmp/cache"
. "$(cd "$(dirname "$0")/.." && pwd)/seed_cache.sh"
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
command -v "${CC:-cc}" > /dev/null 2>&1 || { echo "SKIP: no C compiler"; exit 77; }

cat > "$tmp/mp.litmus" <<'LIT'
C MP+na+rel
{ x = 0; y = 0; }
P0 (int *x, atomic_int *y) {
  *x = 1;
  atomic_store_explicit(y, 1, memory_order_release);
}
P1 (int *x, atomic_int *y) {
  int r0 = atomic_load_explicit(y, memory_order_acquire);
  int r1 = *x;
}
exists (1:r0=1 /\ 1:r1=0)
LIT
sed -e 's/^C MP+na+rel/C MP+guard/' -e 's/^  int r1 = \*x;/  int r1 = -1;\n  if (r0 == 1) { r1 = *x; }/' \
    "$tmp/mp.litmus" > "$tmp/guard.litmus"
grep -q 'if (r0 == 1)' "$tmp/guard.litmus" || fail "could not write the guarded test"

"$LITMUSC" run --race-fuzz -s 1000 -r 20 --max-iterations 1M "$tmp/mp.litmus" > "$tmp/mp.out" 2> "$tmp/mp.err"
st=$?
[ "$st" -eq 0 ] || fail "MP+na+rel: exit $st: $(head -3 "$tmp/mp.err")"
grep -q '^RaceFuzz MP+na+rel targets 2 confirmed 2 ' "$tmp/mp.out" || fail "MP+na+rel: not 2 of 2 confirmed: $(grep RaceFuzz "$tmp/mp.out")"
[ "$(grep -c '^RaceFuzz MP+na+rel confirmed ' "$tmp/mp.out")" -eq 2 ] || fail "MP+na+rel: two confirmed lines expected"
iters=$(sed -n 's/^Config MP+na+rel .* iterations=\([0-9]*\)$/\1/p' "$tmp/mp.out")
[ -n "$iters" ] || fail "MP+na+rel: no iterations in the Config line"
for c in $(sed -n 's/^RaceFuzz MP+na+rel confirmed .* count \([0-9]*\) states [0-9]*$/\1/p' "$tmp/mp.out"); do
    [ "$c" -ge 1 ] && [ "$c" -le "${iters:-0}" ] || fail "MP+na+rel: count $c of $iters iterations"
done
grep -q 'until-covered=2 ' "$tmp/mp.out" || fail "MP+na+rel: the run did not aim at the 2 proving states"

"$LITMUSC" run --race-fuzz -s 1000 -r 20 --max-iterations 1M "$tmp/guard.litmus" > "$tmp/g.out" 2> "$tmp/g.err"
st=$?
[ "$st" -eq 0 ] || fail "MP+guard: exit $st: $(head -3 "$tmp/g.err")"
grep -q '^RaceFuzz MP+guard targets 2 confirmed 1 ' "$tmp/g.out" || fail "MP+guard: not 1 of 2 confirmed: $(grep RaceFuzz "$tmp/g.out")"
grep -q '^RaceFuzz MP+guard unconfirmed P0:0 .* W na x <-> P1:1 .* R na x: no allowed state shows it: .*(a false alarm of the hybrid)$' "$tmp/g.out" ||
    fail "MP+guard: the x pair is not named a false alarm: $(grep 'RaceFuzz.*unconfirmed' "$tmp/g.out")"
grep -q '^RaceFuzz MP+guard confirmed P0:1 .* W rel y <-> P1:0 .* R acq y count [1-9]' "$tmp/g.out" ||
    fail "MP+guard: the flag pair is not confirmed"

"$LITMUSC" run --race-fuzz --json -s 1000 -r 20 --max-iterations 1M "$tmp/guard.litmus" > "$tmp/g.json" 2> "$tmp/gj.err"
python3 - "$tmp/g.json" <<'PY' || fail "MP+guard --json: $(head -3 "$tmp/gj.err")"
import json, sys
r = json.load(open(sys.argv[1]))["results"][0]["run"]
f = {t["a"]["location"]: t for t in r["race_fuzz"]}
assert not f["x"]["confirmed"] and f["x"]["proving_states"] == 0 and "false alarm" in f["x"]["why"], f["x"]
assert f["y"]["confirmed"] and 1 <= f["y"]["count"] <= r["iterations"] and "why" not in f["y"], f["y"]
PY
if python3 -c 'import jsonschema' 2> /dev/null; then
    python3 - "$here/../../harness/litmusc.schema.json" "$tmp/g.json" <<'PY' || fail "MP+guard --json does not validate"
import json, sys, jsonschema
jsonschema.validate(json.load(open(sys.argv[2])), json.load(open(sys.argv[1])))
PY
fi

# one thread: nothing to target, a plain run of -r runs
cat > "$tmp/one.litmus" <<'LIT'
C One
{ x = 0; }
P0 (atomic_int *x) {
  atomic_store_explicit(x, 1, memory_order_relaxed);
  int r0 = atomic_load_explicit(x, memory_order_relaxed);
}
exists (0:r0=1)
LIT
"$LITMUSC" run --race-fuzz -s 100 -r 3 "$tmp/one.litmus" > "$tmp/one.out" 2> "$tmp/one.err"
st=$?
[ "$st" -eq 0 ] || fail "One: exit $st: $(head -3 "$tmp/one.err")"
grep -q '^RaceFuzz One targets 0 confirmed 0 ' "$tmp/one.out" || fail "One: no targets line"
grep -q ' iterations=300$' "$tmp/one.out" || fail "One: not a plain run of 3 runs of 100: $(grep '^Config' "$tmp/one.out")"

[ "$fails" -eq 0 ] && echo "race_fuzz: all checks passed"
[ "$fails" -eq 0 ]
