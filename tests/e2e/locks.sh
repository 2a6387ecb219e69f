#!/bin/sh
# Locks end to end, on tests/locks and examples/locks:
#  1. each test's verdict under rc11 (and sc), as its comment says;
#     spin locks and C11 mutexes mean the same;
#  2. the text forms: parse re-prints herd's spellings, and the IR of each
#     lock test prints, reads back (ir --read) and prints the same bytes;
#  3. every misuse in tests/locks/bad is exit 2 with the one file:line:col
#     error expected.tsv names, nothing on stdout, and no output file left;
#  4. the detectors on the survey's JobServer: what each reports, nested,
#     and the lock hand-off named where it hides a pair from hb;
#  5. the C11 harness runs lock tests (no state outside the model's, counts
#     that add up), also gapped (--until-covered); so does the x86 asm
#     harness, and check-scheme holds on every lock test.
set -u
L=${LITMUSC:?LITMUSC must name the program under test}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fail=0
bad() { echo "FAIL $*"; fail=1; }

# 1. verdicts: FILE MODEL OBSERVATION
while read -r f m want; do
    got=$("$L" model --model "$m" "$root/$f" 2>"$tmp/err" | awk '$1 == "Observation" { print $3 }')
    [ "$got" = "$want" ] || bad "$f under $m: observation '$got', expected $want ($(head -1 "$tmp/err"))"
done <<'EOF'
examples/locks/lock-counter.litmus rc11 Never
examples/locks/lock-counter.litmus sc Never
examples/locks/pool-handoff.litmus rc11 Never
examples/locks/DCL.litmus rc11 Sometimes
examples/locks/DCL+rel+acq.litmus rc11 Never
examples/locks/JobServer.litmus rc11 Sometimes
tests/locks/c/mtx-MP.litmus rc11 Never
tests/locks/c/spin-MP.litmus rc11 Never
tests/locks/c/SB+onelock.litmus rc11 Never
tests/locks/c/SB+onelock.litmus sc Never
tests/locks/c/SB+twolocks.litmus rc11 Sometimes
tests/locks/c/SB+twolocks.litmus sc Never
tests/locks/c/trylock.litmus rc11 Sometimes
tests/locks/c/mtx-trylock.litmus rc11 Sometimes
EOF
# the lock-counter loses no update: one state, x=2
"$L" model "$root/examples/locks/lock-counter.litmus" > "$tmp/lc"
grep -qx '\[x\]=2;' "$tmp/lc" && [ "$(sed -n 's/^States //p' "$tmp/lc")" = 1 ] ||
    bad "lock-counter: states are not exactly [x]=2: $(cat "$tmp/lc")"
# a trylock that fails leaves r1 at -1; one that succeeds sees x either way
"$L" model "$root/tests/locks/c/trylock.litmus" | grep -c '^1:r0=' > "$tmp/n"
[ "$(cat "$tmp/n")" = 3 ] || bad "trylock: $(cat "$tmp/n") states, expected 3"
# spin_* and mtx_* are one semantics
"$L" model "$root/tests/locks/c/spin-MP.litmus" | sed -n '/^States/,/^[NO]/p' > "$tmp/spin"
"$L" model "$root/tests/locks/c/mtx-MP.litmus" | sed -n '/^States/,/^[NO]/p' > "$tmp/mtx"
cmp -s "$tmp/spin" "$tmp/mtx" || bad "spin-MP and mtx-MP differ"

# 2. text forms
for f in "$root"/tests/locks/c/*.litmus "$root"/examples/locks/*.litmus; do
    "$L" ir "$f" > "$tmp/a.ir" 2>"$tmp/err" || { bad "ir $f: $(head -1 "$tmp/err")"; continue; }
    grep -Eq '^    (%[0-9]+ = try)?(un)?lock\.(spin|mtx) &' "$tmp/a.ir" || bad "ir $f: no lock instruction printed"
    "$L" ir --read "$tmp/a.ir" > "$tmp/b.ir" 2>"$tmp/err" || { bad "ir --read $f: $(head -1 "$tmp/err")"; continue; }
    cmp -s "$tmp/a.ir" "$tmp/b.ir" || bad "ir $f: the text does not read back to the same bytes"
done
printf 'C herd-spellings\n{ }\nP0(mtx_t *m, spinlock_t *s, int *x) {\n  lock(m);\n  __lock(s);\n  *x = 1;\n  __unlock(s);\n  unlock(m);\n}\nexists ([x]=1)\n' > "$tmp/herd.litmus"
"$L" parse "$tmp/herd.litmus" > "$tmp/p" 2>"$tmp/err" || bad "parse of herd's lock spellings: $(cat "$tmp/err")"
for w in 'lock(m);' '__lock(s);' '__unlock(s);' 'unlock(m);'; do
    grep -qF "$w" "$tmp/p" || bad "parse does not re-print $w"
done
# an IR trylock without a result, and a lock with one, are refused
printf 'test "t"\narch C\nloc l int init 0\nthread 0 P0\n  b0:\n    trylock.spin &l\n    ret\nend\ncond exists true\n' > "$tmp/t.ir"
"$L" ir --read "$tmp/t.ir" > /dev/null 2>"$tmp/err"; rc=$?
[ "$rc" = 2 ] && grep -q 'a trylock needs a result' "$tmp/err" || bad "ir --read trylock without a result: exit $rc, $(cat "$tmp/err")"

# 3. misuse
while IFS='	' read -r file want; do
    (cd "$root/tests/locks/bad" && "$L" ir "$file" > "$tmp/out" 2> "$tmp/err"); rc=$?
    [ "$rc" = 2 ] || bad "$file: exit $rc, expected 2"
    [ -s "$tmp/out" ] && bad "$file: wrote to stdout"
    [ "$(cat "$tmp/err")" = "litmusc ir: $want" ] || bad "$file: '$(cat "$tmp/err")', expected '$want'"
    (cd "$root/tests/locks/bad" && "$L" emit --target c11 "$file" -o "$tmp/h.c" 2>/dev/null); rc=$?
    [ "$rc" = 2 ] && [ ! -e "$tmp/h.c" ] || bad "$file: emit exit $rc, or left $tmp/h.c"
done < "$root/tests/locks/bad/expected.tsv"
[ "$(grep -c '' "$root/tests/locks/bad/expected.tsv")" -ge 10 ] || bad "expected.tsv lost its rows"

# 4. detectors on JobServer: pairs by location, per detector
js=$root/examples/locks/JobServer.litmus
"$L" races --detector all "$js" > "$tmp/js" 2>"$tmp/err"
[ $? -le 1 ] || bad "races JobServer: $(cat "$tmp/err")"
for d in exact hb hybrid lockset; do
    got=$(awk -v d="$d" '$1 == "Race" && $3 == d { print $8 }' "$tmp/js" | sort -u | tr '\n' ' ')
    case $d in
    exact|hb) want="hits w " ;;
    *) want="data hits w " ;;
    esac
    [ "$got" = "$want" ] || bad "JobServer $d reports on '$got', expected '$want'"
done
grep -q '^Nested JobServer exact 3 <= hb 3 <= hybrid 4 <= lockset 4$' "$tmp/js" || bad "JobServer: $(grep Nested "$tmp/js")"
grep -q 'data.*missed by exact, hb: ordered by the lock hand-off from the unlock at line 13 to the lock at line 22' "$tmp/js" ||
    bad "JobServer: no Why line naming the pool's lock hand-off for data"
"$L" races --detector all "$root/examples/locks/DCL.litmus" > "$tmp/dcl" 2>"$tmp/err"
[ $? -le 1 ] || bad "races DCL (the nesting check): $(cat "$tmp/err")"
# the lock-protected counter: no detector reports anything
"$L" races --detector all "$root/examples/locks/lock-counter.litmus" | grep -q '^Nested lock-counter exact 0 <= hb 0 <= hybrid 0 <= lockset 0$' ||
    bad "lock-counter: a detector reports a pair"

# 5. native runs
for f in examples/locks/lock-counter.litmus tests/locks/c/trylock.litmus tests/locks/c/SB+twolocks.litmus; do
    "$L" run -s 2000 -r 3 --timeout 60 "$root/$f" > "$tmp/run" 2>"$tmp/err"; rc=$?
    [ "$rc" = 0 ] || { bad "run $f: exit $rc: $(head -3 "$tmp/err")"; continue; }
    grep -q FORBIDDEN "$tmp/run" && bad "run $f: a state the model forbids"
    sum=$(awk '$1 == "State" { s += $4 } END { print s + 0 }' "$tmp/run")
    [ "$sum" = 6000 ] || bad "run $f: state counts add up to $sum, not 6000"
done
"$L" run -s 1000 -r 20 --until-covered --timeout 60 "$root/tests/locks/c/trylock.litmus" > "$tmp/run" 2>"$tmp/err"; rc=$?
[ "$rc" = 0 ] && grep -q '^Coverage trylock 3/3' "$tmp/run" || bad "run --until-covered trylock: exit $rc, $(grep Coverage "$tmp/run")"
# RaceFuzzer on JobServer: the hybrid's pairs as targets; hits and w are
# confirmed on hardware (both accesses seen unordered), the pool's buffer,
# the lockset and hybrid false alarm, never is
"$L" run --race-fuzz -s 2000 -r 5 --timeout 120 "$js" > "$tmp/fz" 2>"$tmp/err"; rc=$?
[ "$rc" -le 1 ] || bad "run --race-fuzz JobServer: exit $rc: $(head -3 "$tmp/err")"
for loc in hits w; do
    grep -q "^RaceFuzz JobServer confirmed .* $loc <-> .* $loc count [1-9]" "$tmp/fz" || bad "race-fuzz: $loc not confirmed"
done
grep -q '^RaceFuzz JobServer unconfirmed .* data <-> .* data: no allowed state shows it' "$tmp/fz" ||
    bad "race-fuzz: the pool's buffer is not reported unconfirmed"
grep -q '^RaceFuzz JobServer confirmed .* data <->' "$tmp/fz" && bad "race-fuzz: confirmed the pool's false alarm"

# x86: a lock is an XCHG repeated until it reads the mutex free, an unlock
# a MOV; check-scheme holds for every lock test, the asm harness runs them,
# and the herd text says herd7 would need a loop for the wait
"$L" check-scheme --reparse --scheme c11-x86-mfence "$root"/examples/locks/*.litmus "$root"/tests/locks/c/*.litmus > "$tmp/cs" 2>&1 ||
    bad "check-scheme on the lock tests: $(tail -3 "$tmp/cs")"
grep -q '^check-scheme c11-x86-mfence: 11 tests, 11 pass, 0 fail, 0 errors$' "$tmp/cs" || bad "check-scheme: $(tail -1 "$tmp/cs")"
"$L" emit --target x86-litmus --scheme c11-x86-mfence "$root/examples/locks/lock-counter.litmus" > "$tmp/out" 2>"$tmp/err" ||
    bad "x86-litmus of lock-counter: $(cat "$tmp/err")"
grep -q '^ MOV EAX,\$1   | MOV EAX,\$1   ;$' "$tmp/out" && grep -q "XCHG \[l\],EAX" "$tmp/out" &&
    grep -q 'not runnable by herd7 7.57: thread 0.s XCHG at line 5 is a lock' "$tmp/out" || bad "x86-litmus of lock-counter: $(cat "$tmp/out")"
for f in examples/locks/lock-counter.litmus tests/locks/c/trylock.litmus; do
    "$L" run --target x86 -s 2000 -r 3 --timeout 60 "$root/$f" > "$tmp/run" 2>"$tmp/err"; rc=$?
    [ "$rc" = 0 ] || { bad "run --target x86 $f: exit $rc: $(head -3 "$tmp/err")"; continue; }
    grep -q FORBIDDEN "$tmp/run" && bad "run --target x86 $f: a state the model forbids"
done
"$L" run --target x86 -s 1000 -r 20 --until-covered --timeout 60 "$root/tests/locks/c/trylock.litmus" > "$tmp/run" 2>"$tmp/err"; rc=$?
[ "$rc" = 0 ] && grep -q '^Coverage trylock 3/3' "$tmp/run" || bad "run --target x86 --until-covered trylock: exit $rc"

# herd's lock tags, for a user's cat file: LK (LKR, LKW), LS, LF, UL.  A
# model that names them orders locks itself: its locks are herd's lock
# events, which neither read nor write the mutex (no R, W, M, rf), so a
# model that names them and orders nothing lets a lock-protected counter
# lose an update, as herd's sc.cat and rc11.cat do.
cat > "$tmp/tags.cat" <<'EOF2'
"lock tags"
include "sc.cat"
flag ~empty LS as took
flag ~empty LF as missed
flag ~empty ((LK | UL) & (M | R | W | RMW | A)) as access
flag ~empty (LKR | LKW) as linux
flag ~empty (UL & LK) as mixed
flag ~empty (LK & ~(LS | LF)) as neither
EOF2
"$L" model --model "$tmp/tags.cat" "$root/tests/locks/c/trylock.litmus" > "$tmp/tags" 2>&1
grep -q '^Flag took$' "$tmp/tags" && grep -q '^Flag missed$' "$tmp/tags" && ! grep -q '^Flag \(access\|linux\|mixed\|neither\)$' "$tmp/tags" ||
    bad "lock tags under a user's cat: $(cat "$tmp/tags")"
"$L" model --model "$tmp/tags.cat" "$root/examples/locks/lock-counter.litmus" > "$tmp/tags" 2>&1
grep -q '^Flag took$' "$tmp/tags" && ! grep -q '^Flag missed$' "$tmp/tags" || bad "lock tags on lock-counter: $(cat "$tmp/tags")"
grep -q '^Observation lock-counter Sometimes' "$tmp/tags" || bad "a model naming LK and ordering no lock kept the counter whole: $(cat "$tmp/tags")"
# the same model without the lock sets: locks are the acquire RMW and
# release write, and the counter never loses an update
printf '"no tags"\ninclude "sc.cat"\n' > "$tmp/notags.cat"
"$L" model --model "$tmp/notags.cat" "$root/examples/locks/lock-counter.litmus" > "$tmp/notags" 2>&1
grep -q '^Observation lock-counter Never' "$tmp/notags" || bad "sc.cat without lock sets on lock-counter: $(cat "$tmp/notags")"

[ "$fail" = 0 ] && echo "locks: all checks passed"
exit "$fail"
