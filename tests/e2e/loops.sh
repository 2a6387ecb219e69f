#!/bin/sh
# Loops and join end to end (tests/loops, see its README): the spin-loop
# corpus against herd7 7.57 byte for byte under rc11 and sc; the bound
# (default 2, Unroll=N, --unroll N) and what happens past it (a spin loop
# loses nothing: the same states under every bound; any other loop that a
# consistent execution runs past it stops the model with status 3, or with
# --cut-loops is dropped, as herd7 drops it: tests/loops/cut); loops
# the lowering refuses; Java's join (the IR's end flag, the errors, the
# detectors' join edge); and every target that would run the code for real
# refusing the test (status 2, nothing written), while check-scheme takes it.
set -u
: "${LITMUSC:?set LITMUSC to the litmusc program}"
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
. "$here/../corpora.sh"
dir=$root/tests/loops
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
export LITMUSC_CACHE="$tmp/cache"
. "$(cd "$(dirname "$0")/.." && pwd)/seed_cache.sh"
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# 1. The corpus: litmusc's whole herd block (Time aside) is herd7's, "Loop"
#    verdict prefix, witness counts and hash included.
n=0
for model in rc11 sc; do
    "$LITMUSC" model --model $model "$dir"/corpus/*.litmus > "$tmp/all.$model" 2> "$tmp/err.$model" ||
        fail "model --model $model over the corpus: $(head -2 "$tmp/err.$model")"
    herd_split_blocks "$tmp/all.$model" "$tmp/$model"
    for f in "$dir"/corpus/*.litmus; do
        name=$(basename "$f" .litmus)
        n=$((n + 1))
        cmp -s "$tmp/$model/$name" "$dir/corpus/$name.$model.herd" ||
            { fail "$name under $model differs from herd7:"; diff "$tmp/$model/$name" "$dir/corpus/$name.$model.herd" | head -8; }
    done
done
[ "$n" -ge 100 ] || fail "only $n corpus comparisons"
grep -q '^Loop ' "$tmp/all.rc11" || fail "no Loop verdict in the corpus"

# 2. A spin loop's bound changes nothing but where the cut is: the same
#    states and verdict under --unroll 1, 2 and 4.
for f in "$dir"/corpus/MP+spin+na+relacq.litmus "$dir"/corpus/LB+spin+rlxrlx+rlxrlx.litmus \
         "$dir"/corpus/WRC+spin+rlxrlx.litmus "$dir"/corpus/ISA2+spin+relacq.litmus; do
    for u in 1 2 4; do
        "$LITMUSC" model --unroll $u "$f" | sed -n '/^States/,/^Witnesses/p' | sed 's/^Loop //' > "$tmp/u$u"
    done
    cmp -s "$tmp/u1" "$tmp/u2" && cmp -s "$tmp/u2" "$tmp/u4" || fail "$(basename "$f"): states change with the bound"
done
"$LITMUSC" ir --unroll 4 "$dir/corpus/MP+spin+na+relacq.litmus" | grep -q '^    cut 4, spin ' ||
    fail "ir --unroll 4 does not unroll four times"

# 3. Past the bound.  A counting loop is no spin loop: status 3, at the loop.
"$LITMUSC" model "$dir/c/counter.litmus" > "$tmp/out" 2> "$tmp/err"
[ $? = 3 ] && grep -q "counter.litmus:7:3: error: the loop runs past its bound of 2 iterations in an execution the model allows" "$tmp/err" &&
    [ ! -s "$tmp/out" ] || fail "counter.litmus: $(cat "$tmp/err")"
"$LITMUSC" model --unroll 6 "$dir/c/counter.litmus" > /dev/null 2> "$tmp/err"
[ $? = 3 ] && grep -q "bound of 6 iterations" "$tmp/err" || fail "counter.litmus --unroll 6: $(cat "$tmp/err")"
"$LITMUSC" model "$dir/c/store+loop.litmus" > /dev/null 2> "$tmp/err"
[ $? = 3 ] && grep -q "store+loop.litmus:5:3: error: the loop runs past its bound" "$tmp/err" ||
    fail "store+loop.litmus: $(cat "$tmp/err")"
# ... but only a consistent execution counts: after a spin that saw x = 1,
# coherence keeps x at 1 and the counting loop never runs (herd7's states)
"$LITMUSC" model "$dir/c/counter+after.litmus" > "$tmp/out" 2> "$tmp/err"
[ $? = 0 ] && grep -q '^States 1$' "$tmp/out" && grep -q '^1:n=0;$' "$tmp/out" && grep -q '^Loop Ok$' "$tmp/out" ||
    fail "counter+after.litmus: $(cat "$tmp/out" "$tmp/err")"
# A loop settled without reading needs a bound as big as its count.
"$LITMUSC" model "$dir/c/fixed3.litmus" > "$tmp/out" 2>&1
grep -q '^States 4$' "$tmp/out" && grep -q '^1:r=3;$' "$tmp/out" && grep -q '^Ok$' "$tmp/out" ||
    fail "fixed3.litmus (Unroll=3): $(cat "$tmp/out")"
grep -v '^Unroll=' "$dir/c/fixed3.litmus" > "$tmp/fixed.litmus"
"$LITMUSC" model "$tmp/fixed.litmus" > "$tmp/out" 2> "$tmp/err"
[ $? = 2 ] && grep -q "fixed.litmus:6:3: error: the loop does not end within its bound of 2 iterations whatever the thread reads" "$tmp/err" &&
    [ ! -s "$tmp/out" ] || fail "fixed3 without Unroll: $(cat "$tmp/err")"
"$LITMUSC" model --unroll 3 "$tmp/fixed.litmus" | grep -q '^States 4$' || fail "fixed3 with --unroll 3"
# do-while, which herd7's C lacks: the states of the while form
"$LITMUSC" model "$dir/c/MP+dospin.litmus" | sed -n '/^States/,/^Loop/p' > "$tmp/a"
"$LITMUSC" model "$dir/corpus/MP+spin+na+relacq.litmus" | sed -n '/^States/,/^Loop/p' > "$tmp/b"
cmp -s "$tmp/a" "$tmp/b" || fail "MP+dospin's states are not MP+spin+na+relacq's"
for bad in "--unroll 0" "--unroll x" "--unroll 1001"; do
    "$LITMUSC" model $bad "$dir/c/counter.litmus" > /dev/null 2> "$tmp/err"
    [ $? = 2 ] && grep -q "takes a number from 1 to 1000" "$tmp/err" || fail "model $bad: $(cat "$tmp/err")"
done
printf 'C U\nUnroll=many\n{ x=0; }\nP0 (atomic_int* x) { }\nexists (x=0)\n' > "$tmp/u.litmus"
"$LITMUSC" model "$tmp/u.litmus" > /dev/null 2> "$tmp/err"
[ $? = 2 ] && grep -q "u.litmus:2:1: error: Unroll=many: the bound is a number from 1 to 1000" "$tmp/err" ||
    fail "Unroll=many: $(cat "$tmp/err")"

# 3b. --cut-loops: herd7's way past the bound, executions dropped.  Each
#     test in tests/loops/cut (retry loops that write, counting loops) gives
#     herd7 7.57's block byte for byte (herd7 -unroll 1, as their Unroll=1
#     line says), a warning at the loop on stderr, and JSON that says the
#     set may be incomplete; without the flag each is status 3.
ncut=0
for f in "$dir"/cut/*.litmus; do
    name=$(basename "$f" .litmus)
    for model in rc11 sc; do
        herd=$dir/cut/$name.$model.herd
        [ -s "$herd" ] || { fail "$name: no $name.$model.herd"; continue; }
        "$LITMUSC" model --cut-loops --model $model "$f" > "$tmp/out" 2> "$tmp/err" ||
            fail "$name --cut-loops under $model: status $? $(cat "$tmp/err")"
        grep -v '^Time ' "$tmp/out" > "$tmp/a"
        grep -v '^Time ' "$herd" > "$tmp/b"
        cmp -s "$tmp/a" "$tmp/b" || fail "$name under $model --cut-loops is not herd7's: $(diff "$tmp/a" "$tmp/b" | head -6)"
        grep -q "^$f:[0-9]*:[0-9]*: warning: the loop runs past its bound of 1 iteration in an execution the model allows; such executions are dropped" "$tmp/err" ||
            fail "$name --cut-loops: no warning at the loop: $(cat "$tmp/err")"
        ncut=$((ncut + 1))
    done
    "$LITMUSC" model "$f" > "$tmp/out" 2> "$tmp/err"
    [ $? = 3 ] && [ ! -s "$tmp/out" ] && grep -q -- "--cut-loops, in model and races" "$tmp/err" ||
        fail "$name without --cut-loops: $(cat "$tmp/out" "$tmp/err")"
done
[ "$ncut" -ge 8 ] || fail "only $ncut --cut-loops comparisons"
# races takes it too: the lock-protected counter has no race in the
# executions within the bound, and says which loop it cut.
"$LITMUSC" races --cut-loops "$dir/cut/xchg-counter.litmus" > "$tmp/out" 2> "$tmp/err"
[ $? = 0 ] && grep -q '^Races xchg-counter 0$' "$tmp/out" && grep -q "xchg-counter.litmus:12:3: warning: the loop runs past its bound" "$tmp/err" ||
    fail "races --cut-loops: $(cat "$tmp/out" "$tmp/err")"
"$LITMUSC" races --detector all --cut-loops "$dir/cut/xchg-counter.litmus" > "$tmp/out" 2> /dev/null
[ $? = 0 ] && grep -q '^Nested xchg-counter exact 0 <= hb 0 <= ' "$tmp/out" || fail "races --detector all --cut-loops: $(cat "$tmp/out")"
"$LITMUSC" races "$dir/cut/xchg-counter.litmus" > /dev/null 2>&1
[ $? = 3 ] || fail "races without --cut-loops on a test-and-set lock: not status 3"
"$LITMUSC" model --json --cut-loops "$dir/cut/xchg-lock.litmus" 2> /dev/null | grep -q '"loop":true,"complete":false' ||
    fail "--cut-loops JSON does not say the set may be incomplete"
"$LITMUSC" model --json --cut-loops "$dir/corpus/MP+spin+na+relacq.litmus" 2> "$tmp/err" | grep -q '"loop":true,"complete":true' &&
    [ ! -s "$tmp/err" ] || fail "a spin loop under --cut-loops: not complete, or a warning: $(cat "$tmp/err")"

# 4. Join.  The joined thread ends with a volatile write to its end flag,
#    which the IR marks; the errors are the test's (status 2, at the join).
"$LITMUSC" ir "$root/tests/jls04/CTC19.litmus" > "$tmp/ir" 2>&1
grep -q '^loc Thread2_ended int init 0 ends 2$' "$tmp/ir" && grep -q 'store.volatile &Thread2_ended, 1 ' "$tmp/ir" &&
    grep -q 'load.volatile &Thread2_ended ' "$tmp/ir" || fail "CTC19's IR: $(head -20 "$tmp/ir")"
"$LITMUSC" ir --read "$tmp/ir" | cmp -s - "$tmp/ir" || fail "CTC19's IR does not read back to itself"
join_err() {   # join_err TEXT WANT
    printf '%s' "$1" > "$tmp/j.litmus"
    "$LITMUSC" model "$tmp/j.litmus" > "$tmp/out" 2> "$tmp/err"
    [ $? = 2 ] && grep -qF "$2" "$tmp/err" && [ ! -s "$tmp/out" ] || fail "join error '$2': $(cat "$tmp/err")"
}
join_err 'Java J
{ x=0; 0:X=x; }
Thread0 { Thread5.join(); }
exists (x=0)
' "j.litmus:3:11: error: Thread5.join(): the test has no thread Thread5"
join_err 'Java J
{ x=0; }
Thread0 { Thread0.join(); }
exists (x=0)
' "j.litmus:3:11: error: Thread0.join(): a thread cannot join itself"
join_err 'Java J
{ x=0; }
Thread0 { Thread1.join(); }
Thread1 { Thread0.join(); }
exists (x=0)
' "error: thread Thread1 is in a cycle of joins"
# A Java loop that writes: jam21 finds a consistent run past the bound
# (status 3); jls04, whose justifications weigh every execution, cannot
# weigh one it cuts (status 3 too, saying so).
printf 'Java W\n{ x=0; y=0; 0:X=x; 0:Y=y; 1:X=x; 1:Y=y; }\nThread0 { while (Y.get() == 0) { X.set(1); } }\nThread1 { int r0 = X.get(); Y.set(1); }\nexists (1:r0=1)\n' > "$tmp/w.litmus"
"$LITMUSC" model --model jam21 "$tmp/w.litmus" > /dev/null 2> "$tmp/err"
[ $? = 3 ] && grep -q "w.litmus:3:11: error: the loop runs past its bound of 2 iterations" "$tmp/err" ||
    fail "a writing Java loop under jam21: $(cat "$tmp/err")"
"$LITMUSC" model --model jls04 "$tmp/w.litmus" > /dev/null 2> "$tmp/err"
[ $? = 3 ] && grep -q "w.litmus:3:11: error: jls04 cannot weigh this loop: its iterations do more than read" "$tmp/err" ||
    fail "a writing Java loop under jls04: $(cat "$tmp/err")"
# Detectors: the join orders thread 2's write of x before thread 0's read,
# which the hybrid's limited happens-before includes (the survey's start
# and join); lockset, which knows no order, reports the pair.
"$LITMUSC" races --detector all "$root/tests/jls04/CTC19.litmus" > "$tmp/races" 2>&1
grep -q '^Nested CTC19 exact [0-9]* <= hb [0-9]* <= hybrid [0-9]* <= lockset [0-9]*$' "$tmp/races" ||
    fail "CTC19's detectors do not nest: $(cat "$tmp/races")"
grep -q 'R plain x <-> Thread2:1 .* W plain x: missed by exact, hb, hybrid: ordered by the join at line 4 (it returns once thread Thread2 has ended)' "$tmp/races" ||
    fail "CTC19: no join Why line: $(grep Why "$tmp/races" | head -3)"
grep -q 'Thread2_ended' "$tmp/races" && fail "CTC19: the end flag is reported as an access"

# 5. What runs the code for real refuses a cut (status 2, at the loop, no
#    file left); check-scheme models the compiled x86 and takes it.
f="$dir/corpus/MP+spin+na+relacq.litmus"
for target in c11 x86 x86-litmus; do
    extra=; [ $target = c11 ] || extra="--scheme c11-x86-mfence"
    "$LITMUSC" emit --target $target $extra -o "$tmp/out.$target" "$f" > /dev/null 2> "$tmp/err"
    [ $? = 2 ] && grep -q "MP+spin+na+relacq.litmus:11:3: error: .* cannot run this loop" "$tmp/err" &&
        [ ! -e "$tmp/out.$target" ] || fail "emit --target $target: $(cat "$tmp/err")"
done
for target in java jcstress; do
    "$LITMUSC" emit --target $target -o "$tmp/out.$target" "$root/tests/jls04/CTC14.litmus" > /dev/null 2> "$tmp/err"
    [ $? = 2 ] && grep -q "CTC14.litmus:5:27: error: a Java target cannot run this loop" "$tmp/err" &&
        [ ! -e "$tmp/out.$target" ] || fail "emit --target $target: $(cat "$tmp/err")"
done
"$LITMUSC" run -s 10 -r 1 "$f" > "$tmp/out" 2> "$tmp/err"
[ $? = 2 ] && grep -q "cannot run this loop" "$tmp/err" || fail "run: $(cat "$tmp/err")"
"$LITMUSC" check-scheme --scheme c11-x86-mfence -q "$dir"/corpus/*.litmus > "$tmp/cs" 2>&1 ||
    fail "check-scheme over the corpus: $(tail -3 "$tmp/cs")"
grep -q ': 52 tests, 52 pass, 0 fail, 0 errors$' "$tmp/cs" || fail "check-scheme: $(tail -1 "$tmp/cs")"
"$LITMUSC" check-scheme --scheme java-x86-hotspot --source-model jls04 "$root/tests/jls04/CTC14.litmus" > "$tmp/cs" 2>&1 &&
    grep -q '^pass CTC14: 1 x86 states, all among the 1 allowed by jls04$' "$tmp/cs" || fail "check-scheme CTC14: $(cat "$tmp/cs")"

[ "$fails" = 0 ] && echo "loops: ok ($n corpus comparisons, $ncut with --cut-loops)"
[ "$fails" = 0 ]
