#!/bin/sh
# litmusc races on the command line: the exact lines for a C test with
# two races, a Java test (benign), an X86 test (none) and a race-free C
# test; the exit statuses (1 for a C race only); --model; --json; and bad
# input (exit 2 with file:line:col, an unknown model, no files).
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../corpora.sh"
: "${LITMUSC:?set LITMUSC to the litmusc program}"
L=$LITMUSC
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

cd "$tmp" || exit 1
cat > lb.litmus <<'LIT'
C LB+na
{ [x]=0; [y]=0; }
P0 (int* x, int* y) {
  int r0 = *x;
  *y = 1;
}
P1 (int* x, int* y) {
  int r1 = *y;
  *x = 1;
}
exists (0:r0=1 /\ 1:r1=1)
LIT
cat > rmw.litmus <<'LIT'
C RMW+na
{ [x]=0; }
P0 (atomic_int* x) {
  int r0 = atomic_fetch_add_explicit(x, 1, memory_order_acq_rel);
}
P1 (int* x) {
  *x = 2;
}
exists (0:r0=2)
LIT
cp "$corpora_root/examples/java/MP+rel+acq.litmus" jmp.litmus
cp "$corpora_root/examples/x86/SB.litmus" sb.litmus
cp "$corpora_root/examples/c/MP+rel+acq.litmus" mp.litmus

"$L" races lb.litmus rmw.litmus > out 2> err
rc=$?
[ "$rc" -eq 1 ] || fail "racy C tests: exit $rc, want 1: $(cat err)"
cat > want <<'OUT'
Race LB+na P0:0 (lb.litmus:4:3) R na x <-> P1:1 (lb.litmus:9:3) W na x in execution 1
Race LB+na P0:1 (lb.litmus:5:3) W na y <-> P1:0 (lb.litmus:8:3) R na y in execution 1
Races LB+na 2
Race RMW+na P0:0 (rmw.litmus:4:3) RW acq_rel x <-> P1:0 (rmw.litmus:7:3) W na x in execution 1
Races RMW+na 1
OUT
cmp -s want out || { fail "C races:"; diff want out | head -10; }

"$L" races jmp.litmus sb.litmus mp.litmus > out 2> err
rc=$?
[ "$rc" -eq 0 ] || fail "Java, X86 and race-free C: exit $rc, want 0: $(cat err)"
cat > want <<'OUT'
Race MP+rel+acq Thread0:0 (jmp.litmus:3:11) W plain x <-> Thread1:1 (jmp.litmus:4:36) R plain x in execution 1 (benign: Java defines plain races)
Races MP+rel+acq 1
Races SB 0
Races MP+rel+acq 0
OUT
cmp -s want out || { fail "Java, X86, race-free C:"; diff want out | head -10; }

# the same races under sc
"$L" races --model sc lb.litmus > out 2>&1
grep -q '^Races LB+na 2$' out || fail "--model sc: $(cat out)"

# --json: the pairs, the first execution and how many race (all 3 of
# rc11: no-thin-air forbids the fourth, where both reads read 1)
"$L" races --json lb.litmus > json 2> err
grep -q '^{"schema":"litmusc/1","command":"races","results":\[' json || fail "--json: $(head -c 200 json)"
grep -q '"races":\[{"a":{"thread":"P0","index":0,"line":4,"col":3,"access":"R","mode":"na","location":"x","source":"int r0 = \*x;"},"b":{"thread":"P1","index":1,"line":9,"col":3,"access":"W","mode":"na","location":"x","source":"\*x = 1;"},"benign":false,"execution":1,"executions":3}' json ||
    fail "--json: the first pair: $(grep -o '"races":.*' json | head -c 400)"

# bad input
printf 'C Bad\n{ }\nP0 (int* x) {\n  *x = 1 &&& 2;\n}\nexists (x=1)\n' > bad.litmus
"$L" races bad.litmus > out 2> err
rc=$?
[ "$rc" -eq 2 ] || fail "bad.litmus: exit $rc, want 2"
[ -s out ] && fail "bad.litmus: wrote to stdout: $(cat out)"
grep -Eq '^litmusc races: bad\.litmus:4:[0-9]+: error: ' err || fail "bad.litmus: $(cat err)"
"$L" races --model nosuch lb.litmus mp.litmus > out 2> err
rc=$?
[ "$rc" -eq 2 ] || fail "unknown model: exit $rc, want 2"
[ "$(cat err)" = "litmusc races: error: unknown model 'nosuch' (built-in models: sc, x86tso, x86tso-rmw, rc11, rc11-lb, jam21, aarch64, jls04; or give a .cat file)" ] ||
    fail "unknown model: $(cat err)"
"$L" races missing.litmus > out 2> err
[ $? -eq 2 ] && grep -q '^litmusc races: missing.litmus: error: cannot open' err || fail "missing file: $(cat err)"
"$L" races > out 2> err
[ $? -eq 2 ] && grep -q '^usage: litmusc races' err || fail "no files: not a usage error"
# a race still wins over a bad file, as run's forbidden state does
"$L" races bad.litmus lb.litmus > out 2> err
[ $? -eq 1 ] || fail "a bad file and a racy one: not exit 1"
grep -q '^Races LB+na 2$' out || fail "a bad file stopped the next one"

# Past 64 events (hb rows of two words): 66 plain stores to x in P0, one
# plain read in P1, 68 events; each store races with the read.
awk 'BEGIN { printf "C N66\n\n{}\n\nP0 (int* x) {\n"; for (i = 1; i <= 66; i++) printf "  *x = %d;\n", i;
             printf "}\n\nP1 (int* x) {\n  int r0 = *x;\n}\n\nexists (1:r0=66)\n" }' > n66.litmus
"$LITMUSC" races n66.litmus > out 2>&1
[ $? -eq 1 ] || fail "68 events with races: not exit 1"
grep -q '^Races N66 66$' out || fail "68 events: not 66 races"
grep -q '^Race N66 P0:65 (n66.litmus:71:3) W na x <-> P1:0 (n66.litmus:75:3) R na x' out ||
    fail "68 events: the last store (event 66, in the second word) does not race with the read"

[ "$fails" -eq 0 ] || exit 1
echo "races_cli: all checks passed"
