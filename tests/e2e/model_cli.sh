#!/bin/sh
# litmusc model on the command line: herd's block for a known test, the
# default model per arch, --json, --notes, and bad input (exit 2 with
# file:line:col, nothing on stdout).
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../corpora.sh"
: "${LITMUSC:?set LITMUSC to the litmusc program}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fails=0
check() {   # check NAME COMMAND...: report a failed expectation
    name=$1
    shift
    if "$@"; then :; else echo "FAIL: $name"; fails=$((fails + 1)); fi
}

sb=$corpus_sb
"$LITMUSC" model "$sb" > "$tmp/sb" 2> "$tmp/err"
check "SB exits 0" test $? -eq 0
grep -v '^Time ' "$tmp/sb" > "$tmp/sb.notime"
check "SB under the default model (x86tso) is herd's block" cmp -s "$tmp/sb.notime" "${sb%.litmus}.x86tso.herd"
check "SB prints a Time line" grep -q '^Time SB [0-9]*\.[0-9][0-9]$' "$tmp/sb"

"$LITMUSC" model --model sc "$sb" "$sb" > "$tmp/two" 2>&1
check "two tests, two blocks" test "$(grep -c '^Test SB' "$tmp/two")" -eq 2
check "under sc SB is Never" grep -q '^Observation SB Never 0 3$' "$tmp/two"

mp="$corpora_root/tests/corpus/java/classic/MP+poplrel+poacqpl.litmus"
check "the Java MP test is in tests/corpus" test -f "$mp"
if [ -f "$mp" ]; then
    "$LITMUSC" model "$mp" > "$tmp/j" 2>&1
    grep -v '^Time ' "$tmp/j" > "$tmp/j.notime"
    check "Java defaults to jam21" cmp -s "$tmp/j.notime" "${mp%.litmus}.jam21.herd"
fi

"$LITMUSC" model --json "$sb" > "$tmp/json" 2>&1
check "--json names the test" grep -q '"test":"SB"' "$tmp/json"
check "--json gives the counts" grep -q '"positive":1,"negative":3' "$tmp/json"
check "--json says the set is not symbolic" grep -q '"symbolic":false' "$tmp/json"
check "--json is one object of schema litmusc/1" grep -q '^{"schema":"litmusc/1","command":"model","results":\[' "$tmp/json"
check "--json words are lower case" grep -q '"verdict":"ok","observation":"sometimes"' "$tmp/json"

# A racy C test: herd's block unchanged, the race named only with --notes.
cat > "$tmp/race.litmus" <<'LIT'
C MP+na
{ [x]=0; [y]=0; }
P0 (int* x, atomic_int* y) {
  *x = 1;
  atomic_store_explicit(y, 1, memory_order_relaxed);
}
P1 (int* x, atomic_int* y) {
  int r0 = atomic_load_explicit(y, memory_order_relaxed);
  int r1 = *x;
}
exists (1:r0=1 /\ 1:r1=0)
LIT
"$LITMUSC" model "$tmp/race.litmus" > "$tmp/r" 2>&1
check "racy MP is Undef" grep -q '^Undef$' "$tmp/r"
check "racy MP flags *undef*" grep -q '^Flag \*undef\*$' "$tmp/r"
check "no race line without --notes" sh -c "! grep -q 'data race' '$tmp/r'"
"$LITMUSC" model --notes "$tmp/race.litmus" > "$tmp/rn" 2>&1
check "--notes names the racing lines" grep -q 'data race between line 4: `.*` and line 9: `.*`' "$tmp/rn"

# Load buffering whose store writes `a | 1` (Java `||` is bitwise): the
# values form a cycle through rf that only the solver settles; plain
# accesses under jam21 allow it, so a = c = 1 is observable.
cat > "$tmp/lbodd.litmus" <<'LIT'
Java LbOdd
{ x=0; y=0; 0:X=x; 0:Y=y; 1:X=x; 1:Y=y; }
Thread0 { int a = X.get(); int b = a || 1; Y.set(b); }
Thread1 { int c = Y.get(); X.set(c); }
exists (0:a=1 /\ 1:c=1)
LIT
"$LITMUSC" model "$tmp/lbodd.litmus" > "$tmp/lb" 2>&1
check "LbOdd under jam21 is Ok" grep -q '^Ok$' "$tmp/lb"
check "LbOdd shows a=c=1" grep -q '^0:a=1; 1:c=1;$' "$tmp/lb"
check "LbOdd never shows an even a from the cycle" sh -c "! grep -q '^0:a=2;' '$tmp/lb'"
"$LITMUSC" model --notes "$tmp/lbodd.litmus" > "$tmp/lbn" 2>&1
check "--notes says the solver settled LbOdd" grep -q 'settled by the solver' "$tmp/lbn"
"$LITMUSC" model --json "$tmp/lbodd.litmus" > "$tmp/lbj" 2>&1
check "--json: LbOdd is symbolic" grep -q '"symbolic":true' "$tmp/lbj"
"$LITMUSC" model --model sc "$tmp/lbodd.litmus" > "$tmp/lbs" 2>&1
check "LbOdd under sc is Never" grep -q '^Observation LbOdd Never 0 3$' "$tmp/lbs"

# A user's .cat file by path: its name, its flags after the counts (*undef*
# first, then by name), herd's include search among the built-in files.
cat > "$tmp/flags.cat" <<'CAT'
"flags test"
include "cos.cat"
flag ~empty (rf & ext) as zz-external
flag ~empty (po & loc) as aa-never
undefined_unless empty (rf & ext & (W * R)) \ (IW * R) as racy
acyclic po | rf | co | fr as sc
CAT
"$LITMUSC" model --model "$tmp/flags.cat" "$sb" > "$tmp/f" 2>&1
check "custom model runs" grep -q '^Test SB Allowed$' "$tmp/f"
check "custom model: Undef from undefined_unless" grep -q '^Undef$' "$tmp/f"
check "custom model: flags in herd's order" sh -c "sed -n '/^Positive/,/^Condition/p' '$tmp/f' | tr '\n' '|' | grep -q '^Positive: 0 Negative: 3|Flag \*undef\*|Flag zz-external|Condition'"
"$LITMUSC" model --json --model "$tmp/flags.cat" "$sb" > "$tmp/fj" 2>&1
check "custom model: --json names it" grep -q '"model":{"name":"flags"' "$tmp/fj"

# Bad input: a precise diagnostic, exit 2, nothing on stdout.
printf 'X86 Bad\n{ }\n P0 ;\n FOO [x] ;\nexists (0:EAX=1)\n' > "$tmp/bad.litmus"
"$LITMUSC" model "$tmp/bad.litmus" > "$tmp/out" 2> "$tmp/err"
check "bad test exits 2" test $? -eq 2
check "bad test: file:line:col: error:" grep -q "bad.litmus:[0-9]*:[0-9]*: error:" "$tmp/err"
check "bad test: nothing on stdout" test ! -s "$tmp/out"
"$LITMUSC" model --model "$tmp/missing.cat" "$sb" > "$tmp/out" 2> "$tmp/err"
check "missing model exits 2" test $? -eq 2
check "missing model: nothing on stdout" test ! -s "$tmp/out"
"$LITMUSC" model --frobnicate "$sb" > /dev/null 2>&1
check "unknown option exits 2" test $? -eq 2
"$LITMUSC" model > /dev/null 2>&1
check "no file exits 2" test $? -eq 2
# A good test after a bad one still gets its block.
"$LITMUSC" model "$tmp/bad.litmus" "$sb" > "$tmp/out" 2> /dev/null
check "exit 2 when one of several fails" test $? -eq 2
check "the good test still printed" grep -q '^Test SB Allowed' "$tmp/out"

# 9 threads each writing x: 9! coherence orders, past the search limit:
# exit 3 naming it, at once; 8 writes (8! orders) stay within it.
w9=$(awk 'BEGIN { printf "X86 W9\n{ x=0; }\n"; r = ""; p = "";
                 for (i = 0; i < 9; i++) { r = r (i ? " | " : " ") "P" i; p = p (i ? " | " : " ") "MOV [x],$" (i + 1) }
                 print r " ;"; print p " ;"; print "exists (x=1)" }')
printf '%s\n' "$w9" > "$tmp/w9.litmus"
timeout 60 "$LITMUSC" model "$tmp/w9.litmus" > "$tmp/w9.out" 2> "$tmp/w9.err"
check "9 writes to one location: exit 3 (got $?)" test $? -eq 3
check "the limit is named" grep -q 'location x has more than 100000 coherence orders (the search limit)' "$tmp/w9.err"
check "nothing on stdout past the limit" test ! -s "$tmp/w9.out"
printf '%s\n' "$w9" | sed 's/ | P8//; s/ | MOV \[x\],\$9//' > "$tmp/w8.litmus"
"$LITMUSC" model "$tmp/w8.litmus" > "$tmp/w8.out" 2> "$tmp/w8.err"
check "8 writes to one location: within the limit" grep -q '^Test W9 ' "$tmp/w8.out"

# N threads each writing x and y: N!^2 candidates.  7 (25 million) is
# past the model's default budget (1,000,000 candidates): exit 3 naming it,
# at once; 6 (518400) stays within it.
wxy() {
    awk -v n="$1" 'BEGIN { printf "X86 W%dx2\n{ }\n", n; r = ""; p = ""; q = "";
        for (i = 0; i < n; i++) { s = i ? " | " : " "; r = r s "P" i; p = p s "MOV [x],$" (i + 1); q = q s "MOV [y],$" (i + 1) }
        print r " ;"; print p " ;"; print q " ;"; print "exists (x=1 /\\ y=1)" }'
}
wxy 7 > "$tmp/w7.litmus"
timeout 60 "$LITMUSC" model "$tmp/w7.litmus" > "$tmp/w7.out" 2> "$tmp/w7.err"
check "7 writes to each of two locations: exit 3 (got $?)" test $? -eq 3
check "the budget is named" grep -q "W7x2: more than 1000000 candidate executions, the model's budget" "$tmp/w7.err"
check "nothing on stdout past the search limit" test ! -s "$tmp/w7.out"
wxy 6 > "$tmp/w6.litmus"
"$LITMUSC" model "$tmp/w6.litmus" > "$tmp/w6.out" 2> "$tmp/w6.err"
check "6 writes to each of two locations: within the limit" grep -q '^Test W6x2 Allowed' "$tmp/w6.out"

# Past 64 events a relation row takes two words.  One thread storing
# 1..N to x, another reading x twice: coherence leaves every pair r0 <= r1,
# (N+1)(N+2)/2 states, never r0=N with r1=0.  N=66 (69 events) crosses the
# old limit of 64 and puts the last stores in the second word; N=130 (133
# events) is past the limit of 128: exit 3 naming it.
long() {
    awk -v n="$1" 'BEGIN { printf "C L%d\n\n{}\n\nP0 (atomic_int* x) {\n", n;
        for (i = 1; i <= n; i++) printf "  atomic_store_explicit(x,%d,memory_order_relaxed);\n", i;
        printf "}\n\nP1 (atomic_int* x) {\n  int r0 = atomic_load_explicit(x,memory_order_relaxed);\n";
        printf "  int r1 = atomic_load_explicit(x,memory_order_relaxed);\n}\n\nexists (1:r0=%d /\\ 1:r1=0)\n", n }'
}
long 66 > "$tmp/l66.litmus"
"$LITMUSC" model --model rc11 "$tmp/l66.litmus" > "$tmp/l66.out" 2> "$tmp/l66.err"
check "69 events: exit 0 (got $?)" test $? -eq 0
check "69 events: all 2278 states" grep -q '^States 2278$' "$tmp/l66.out"
check "69 events: a read of the last store then of it again" grep -q '^1:r0=66; 1:r1=66;$' "$tmp/l66.out"
check "69 events: the first store, then the last" grep -q '^1:r0=1; 1:r1=66;$' "$tmp/l66.out"
check "69 events: never the last store, then the initial value" grep -q '^Observation L66 Never 0 2278$' "$tmp/l66.out"
check "69 events: no r0 > r1" test "$(awk -F'[=;]' '/^1:r0=/ && $2 + 0 > $4 + 0' "$tmp/l66.out" | wc -l)" -eq 0
"$LITMUSC" model --json --model rc11 "$tmp/l66.litmus" > "$tmp/l66.json" 2>&1
check "--json counts the 69 events" grep -q '"events":69,' "$tmp/l66.json"
long 130 > "$tmp/l130.litmus"
"$LITMUSC" model "$tmp/l130.litmus" > "$tmp/l130.out" 2> "$tmp/l130.err"
check "133 events: exit 3 (got $?)" test $? -eq 3
check "133 events: the limit is named" grep -qF \
    "l130.litmus:6:3: the test has 133 events; at most 128 are supported (thread P0 brings it past the limit)" "$tmp/l130.err"
check "133 events: nothing on stdout" test ! -s "$tmp/l130.out"

# 65 reads on one path of a thread: past the read-slot limit, exit 3 naming it
{
    printf 'C reads65\n{ }\nP0(atomic_int *x) {\n'
    i=0
    while [ "$i" -lt 65 ]; do
        printf '  int r%d = atomic_load_explicit(x, memory_order_relaxed);\n' "$i"
        i=$((i + 1))
    done
    printf '}\nexists (0:r0=1)\n'
} > "$tmp/r65.litmus"
"$LITMUSC" model "$tmp/r65.litmus" > "$tmp/r65.out" 2> "$tmp/r65.err"
check "65 reads: exit 3 (got $?)" test $? -eq 3
check "65 reads: the limit is named" grep -qF \
    "r65.litmus:68:3: error: more than 64 reads on one path of a thread: at most 64 are supported (thread P0)" "$tmp/r65.err"
check "65 reads: nothing on stdout" test ! -s "$tmp/r65.out"

[ "$fails" -eq 0 ] && echo "model_cli: all checks passed"
[ "$fails" -eq 0 ]
