#!/bin/sh
# `litmusc gen` on the command line:
#  1. one cycle, one test: SB, MP and friends for X86, C and Java, named
#     as diy7 names them (tests/gen/names.tsv), the same test whichever
#     edge the cycle is written from, and a test litmusc reads back whose
#     verdict is the one herd7 gave for the corpus copy of it;
#  2. -o FILE;
#  3. the enumeration: one file per test, @all and index.tsv, no two tests
#     alike, --filter, the same output twice;
#  4. bad input: exit status 2, the position in the cycle, nothing written;
#  5. C's read-modify-writes and access fences: a test for each operation
#     in each order, as a Rmw edge and as a fence, that sc never shows
#     (the condition holds only on the cycle) and that a model keeping
#     nothing but atomicity can show (it holds on the cycle); herd7's
#     rc11 verdicts where HERD7 and HERD_LIBDIR name herd7 7.57; gcc -O2
#     through cc-check on a sample; --vocabulary.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../corpora.sh"
L=${LITMUSC:?LITMUSC must name the program under test}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
own="$corpora_root/tests/corpus"

# 1. Names.
n=0
grep -v '^#' "$here/../gen/names.tsv" > "$tmp/names"
while IFS='	' read -r arch cycle name; do
    n=$((n + 1))
    # shellcheck disable=SC2086
    "$L" gen --arch "$arch" $cycle > "$tmp/t.litmus" 2> "$tmp/err" || { fail "gen $arch $cycle: $(cat "$tmp/err")"; continue; }
    got=$(head -1 "$tmp/t.litmus")
    [ "$got" = "$arch $name" ] || fail "gen --arch $arch $cycle: header '$got', expected '$arch $name'"
    "$L" parse "$tmp/t.litmus" > /dev/null 2> "$tmp/err" || fail "$name ($arch) does not parse back: $(cat "$tmp/err")"
done < "$tmp/names"
[ "$n" -ge 25 ] || fail "only $n names checked"

# The tests of tests/corpus/*/classic are gen's output for tests/corpus/cycles.txt,
# verdicts and all: regenerating one gives the same bytes.
k=0
while IFS='|' read -r arch cycle; do
    case $arch in X86) d=x86 ;; C) d=c11 ;; Java) d=java ;; esac
    # shellcheck disable=SC2086
    "$L" gen --arch "$arch" $cycle > "$tmp/t.litmus" || { fail "gen $arch $cycle"; continue; }
    name=$(head -1 "$tmp/t.litmus" | cut -d' ' -f2)
    cmp -s "$tmp/t.litmus" "$own/$d/classic/$name.litmus" || fail "$d/classic/$name.litmus is not what gen makes of '$cycle'"
    k=$((k + 1))
done < "$own/cycles.txt"
[ "$k" -ge 40 ] || fail "only $k classic cycles regenerated"

# SB exactly, and the same test from a rotation of its cycle.
"$L" gen --arch X86 PodWR Fre PodWR Fre > "$tmp/sb1" || fail "gen SB"
"$L" gen --arch X86 Fre PodWR Fre PodWR > "$tmp/sb2" || fail "gen SB rotated"
cmp -s "$tmp/sb1" "$tmp/sb2" || fail "a rotation of SB's cycle gives another test"
grep -qx ' MOV \[x\],\$1  | MOV \[y\],\$1  ;' "$tmp/sb1" || fail "SB: first row"
grep -qx ' MOV EAX,\[y\] | MOV EAX,\[x\] ;' "$tmp/sb1" || fail "SB: second row"
grep -qx 'exists (0:EAX=0 /\\ 1:EAX=0)' "$tmp/sb1" || fail "SB: condition"
"$L" model "$tmp/sb1" | grep -qx 'Observation SB Sometimes 1 3' || fail "SB under x86tso is not Sometimes 1 3"
"$L" gen --arch C PodWWRlxRel RfeRelAcq PodRRAcqRlx FreRlxRlx > "$tmp/mp" || fail "gen C MP"
grep -q 'atomic_store_explicit(y,1,memory_order_release);' "$tmp/mp" || fail "C MP: release store"
grep -q 'int r0 = atomic_load_explicit(y,memory_order_acquire);' "$tmp/mp" || fail "C MP: acquire load"
grep -qx 'exists (1:r0=1 /\\ 1:r1=0)' "$tmp/mp" || fail "C MP: condition"
"$L" model "$tmp/mp" | grep -qx 'Observation MP+porlxrel+poacqrlx Never 0 3' || fail "C MP+rel+acq is not Never under rc11"
"$L" gen --arch Java PodWROpOp FreOpOp PodWROpOp FreOpOp > "$tmp/jsb" || fail "gen Java SB"
grep -q 'int r0 = Y.getOpaque();' "$tmp/jsb" || fail "Java SB: opaque read"
grep -qx '0:X=x; 0:Y=y;' "$tmp/jsb" || fail "Java SB: handles of thread 0"
"$L" model "$tmp/jsb" | grep -qx 'Observation SB+poopops Sometimes 1 3' || fail "Java opaque SB is not Sometimes under jam21"
"$L" gen --arch Java PodWRVoVo FreVoVo PodWRVoVo FreVoVo > "$tmp/jsbv" || fail "gen Java volatile SB"
"$L" model "$tmp/jsbv" | grep -qx 'Observation SB+povovos Never 0 4' || fail "Java volatile SB is not Never under jam21"
# one cycle given as one word, edges separated by spaces or commas
"$L" gen --arch X86 'PodWR,Fre PodWR Fre' > "$tmp/sb3" || fail "gen with a comma-separated cycle"
cmp -s "$tmp/sb1" "$tmp/sb3" || fail "a comma-separated cycle gives another test"

# 2. -o FILE and --name.
"$L" gen --arch X86 -o "$tmp/out.litmus" --name MySB PodWR Fre PodWR Fre > "$tmp/stdout" || fail "gen -o"
[ -s "$tmp/stdout" ] && fail "gen -o printed the test too"
head -1 "$tmp/out.litmus" | grep -qx 'X86 MySB' || fail "--name not used"

# 3. Enumeration.
"$L" gen --arch X86 --size 6 --safe 'PodWR,Rfe,Fre,Coe,MFencedWR' -o "$tmp/e1" 2> "$tmp/err" || fail "enumeration: $(cat "$tmp/err")"
grep -q '^litmusc gen: 7 tests in ' "$tmp/err" || fail "enumeration: expected 7 tests (diy7 makes 7): $(cat "$tmp/err")"
for t in SB SB+mfence+po SB+mfences 3.SB 3.SB+mfences; do
    [ -f "$tmp/e1/$t.litmus" ] || fail "enumeration lacks $t"
done
[ "$(wc -l < "$tmp/e1/@all")" -eq 7 ] || fail "@all does not list 7 files"
[ "$(tail -n +2 "$tmp/e1/index.tsv" | wc -l)" -eq 7 ] || fail "index.tsv does not list 7 tests"
head -1 "$tmp/e1/index.tsv" | grep -qx 'name	file	threads	cycle	relax	safe' || fail "index.tsv header"
grep -q '^SB	SB.litmus	2	PodWR Fre PodWR Fre	' "$tmp/e1/index.tsv" || fail "index.tsv has no SB row"
(cd "$tmp/e1" && "$L" model $(cat @all)) > "$tmp/e1.model" 2>&1 || fail "model over the enumeration"
[ "$(grep -c '^Observation ' "$tmp/e1.model")" -eq 7 ] || fail "model: not 7 results"
"$L" gen --arch X86 --size 6 --safe 'PodWR,Rfe,Fre,Coe,MFencedWR' -o "$tmp/e2" 2> /dev/null
diff -r "$tmp/e1" "$tmp/e2" > /dev/null || fail "two enumerations differ"
"$L" gen --arch X86 --size 6 --safe 'PodWR,Rfe,Fre,Coe,MFencedWR' --filter '^SB' -o "$tmp/e3" 2> /dev/null
[ "$(wc -l < "$tmp/e3/@all")" -eq 3 ] || fail "--filter '^SB' kept $(wc -l < "$tmp/e3/@all") tests, expected 3"
# relaxations: every test holds one, the others only safe edges
"$L" gen --arch C --size 4 --nprocs 2 --safe 'Rfe,Fre,Wse,PodWW,PodRR,PodWR,PodRW' --varatom Rlx,Acq,Rel,Sc \
    --mode critical -o "$tmp/c" 2> "$tmp/err" || fail "C enumeration"
grep -q '^litmusc gen: 378 tests in ' "$tmp/err" || fail "C mo2 enumeration: expected 378 tests (diy7's count): $(cat "$tmp/err")"
sort "$tmp/c/@all" | uniq -d | grep -q . && fail "C enumeration: a file listed twice"
"$L" gen --arch X86 --size 6 --relax PodWR --safe Fre --nprocs 4 -o "$tmp/p" 2> /dev/null
ls "$tmp/p" | grep -c '\.litmus$' | grep -qx 2 || fail "PodWR/Fre: expected 2 tests (diy7: 3.SB, 4.SB... )"

# 4. Bad input.
bad() {  # expected-message-part command...
    want=$1
    shift
    rm -rf "$tmp/bad.out"
    "$@" > "$tmp/bad.stdout" 2> "$tmp/bad.err"
    st=$?
    [ "$st" -eq 2 ] || fail "$*: exit status $st, expected 2"
    grep -qF -- "$want" "$tmp/bad.err" || fail "$*: message '$(cat "$tmp/bad.err")' lacks '$want'"
    [ -s "$tmp/bad.stdout" ] && fail "$*: printed on stdout"
    [ -e "$tmp/bad.out" ] && fail "$*: wrote $tmp/bad.out"
}
bad "litmusc gen: error: edge 3 'PodXY': unknown relaxation" "$L" gen --arch X86 -o "$tmp/bad.out" PodWR Fre PodXY Fre
bad "no external communication edge" "$L" gen --arch X86 -o "$tmp/bad.out" PodWR PodRW
bad "edge 2 'Fre': its target is a write, but edge 3 'PodRR' starts from a read" \
    "$L" gen --arch X86 -o "$tmp/bad.out" PodWR Fre PodRR Fre
bad "edge 1 'DpAddrdW': X86 cannot express this edge" "$L" gen --arch X86 -o "$tmp/bad.out" DpAddrdW Rfe PodRW Rfe
bad "edge 1 'DpAddrdW': Java cannot express this edge" "$L" gen --arch Java -o "$tmp/bad.out" DpAddrdW Rfe PodRW Rfe
bad "edge 2 'MFencedWR': C cannot express this edge" "$L" gen --arch C -o "$tmp/bad.out" Fre MFencedWR Fre PodWR
bad "--size '0': expected a positive number" "$L" gen --arch X86 --size 0 --safe Fre -o "$tmp/bad.out"
bad "--size '-3'" "$L" gen --arch X86 --size -3 --safe Fre -o "$tmp/bad.out"
bad "relaxation 1 'PodQQ': unknown relaxation" "$L" gen --arch X86 --size 4 --relax PodQQ -o "$tmp/bad.out"
bad "--filter '(': " "$L" gen --arch X86 --size 4 --safe 'PodWR,Fre' --filter '(' -o "$tmp/bad.out"
bad "unknown --arch 'ARM'" "$L" gen --arch ARM PodWR Fre PodWR Fre
bad "--arch X86|C|Java is required" "$L" gen PodWR Fre PodWR Fre
bad "no edges" "$L" gen --arch X86
bad "location x is written 3 times" "$L" gen --arch X86 -o "$tmp/bad.out" Coe PodWW Coe Coe PodWW Coe
bad "edge 2 'PodRRAcqAcq': its annotation Acq contradicts Rlx of edge 1 'RfeRlxRlx'" \
    "$L" gen --arch C -o "$tmp/bad.out" RfeRlxRlx PodRRAcqAcq FreRlxRlx PodWW
# an unwritable output is an environment failure, and leaves nothing
"$L" gen --arch X86 -o "$tmp/no/such/dir/x.litmus" PodWR Fre PodWR Fre 2> "$tmp/err"
[ $? -eq 3 ] || fail "unwritable -o: exit status is not 3"
grep -q 'No such file or directory' "$tmp/err" || fail "unwritable -o: no OS reason: $(cat "$tmp/err")"

bad "edge 2 'Rmw': a C read-modify-write is atomic: give its memory order" \
    "$L" gen --arch C -o "$tmp/bad.out" PodWR Rmw Rfe PodRW Coe
bad "same in either coherence order" "$L" gen --arch C -o "$tmp/bad.out" \
    PodRRRlxRlx RmwAndIgRlxRlx RfeRlxRlx RmwAndIgRlxRlx PodWWRlxRlx RfeRlxRlx
bad "edge 2 'RmwCasIgRlxRlx': unknown relaxation" "$L" gen --arch C -o "$tmp/bad.out" \
    PodWRRlxRlx RmwCasIgRlxRlx RfeRlxRlx PodRWRlxRlx CoeRlxRlx
bad "--vocabulary is for --arch C" "$L" gen --arch X86 --vocabulary

# 5. C read-modify-writes and access fences.
mkdir "$tmp/rmw"
m=0
for op in Exch RmwAdd RmwSub RmwAnd RmwOr RmwXor RmwCas RmwCasW ExchIg RmwAddIg RmwXorIg RmwOrIg; do
    for an in RlxRlx AcqRlx ConRlx RlxRel AcqRel ScSc; do
        "$L" gen --arch C -o "$tmp/rmw/S-$op$an.litmus" PodWR "$op$an" Rfe PodRWRlxRlx CoeRlxRlx ||
            fail "gen S with $op$an"
        m=$((m + 1))
    done
done
for f in FenceXchg FenceAddIg FenceSubIdIg FenceAndId FenceOrIdIg FenceXorIg FenceCas FenceCasWIg FenceLd FenceSt; do
    for mo in Rlx AR Sc; do
        for sh in '' Sh; do
            e="$f$mo${sh}dWRRlxRlx"
            "$L" gen --arch C -o "$tmp/rmw/$e.litmus" "$e" FreRlxRlx "$e" FreRlxRlx 2> /dev/null || continue
            m=$((m + 1))
        done
    done
done
for op in RmwAdd RmwCasW ExchIg; do
    "$L" gen --arch C -o "$tmp/rmw/M-$op.litmus" PodWWRlxRel RfeRelRlx "${op}RlxRlx" RfeRlxAcq PodRRAcqRlx FreRlxRlx ||
        fail "gen MP through $op"
done
[ "$m" -ge 100 ] || fail "only $m read-modify-write tests made"
printf '%s\n' 'include "cos.cat"' 'empty rmw & (fre; coe) as atomic' > "$tmp/atomic.cat"
"$L" model --model sc "$tmp"/rmw/*.litmus > "$tmp/sc.out" || fail "model --model sc on the read-modify-write tests"
"$L" model --model "$tmp/atomic.cat" "$tmp"/rmw/*.litmus > "$tmp/at.out" || fail "model atomic.cat"
total=$(ls "$tmp"/rmw/*.litmus | wc -l)
[ "$(grep -c '^Observation .* Never ' "$tmp/sc.out")" -eq "$total" ] ||
    fail "sc shows some read-modify-write test: $(grep '^Observation' "$tmp/sc.out" | grep -v Never | head -3)"
[ "$(grep -c '^Observation .* Sometimes ' "$tmp/at.out")" -eq "$total" ] ||
    fail "a condition no execution meets: $(grep '^Observation' "$tmp/at.out" | grep -v Sometimes | head -3)"
# SB with an RMW as a fence on a location both threads update: seq_cst forbids, relaxed allows
"$L" model "$tmp/rmw/FenceXchgScShdWRRlxRlx.litmus" | grep -q '^Observation .* Never ' || fail "SB+fencexchgscsh is not Never under rc11"
"$L" model "$tmp/rmw/FenceXchgRlxShdWRRlxRlx.litmus" | grep -q '^Observation .* Sometimes ' ||
    fail "SB+fencexchgrlxsh is not Sometimes under rc11"
if [ -n "${HERD7:-}" ] && [ -n "${HERD_LIBDIR:-}" ]; then
    for f in "$tmp"/rmw/*.litmus; do
        a=$("$HERD7" -set-libdir "$HERD_LIBDIR" -model rc11.cat "$f" 2> /dev/null | awk '/^States/ {s=$2} /^Observation/ {print $3, $4, $5, s}')
        b=$("$L" model "$f" | awk '/^States/ {s=$2} /^Observation/ {print $3, $4, $5, s}')
        [ "$a" = "$b" ] || fail "$(basename "$f"): herd7 '$a', litmusc '$b'"
    done
else
    echo "SKIP: herd7 comparison of the read-modify-write tests (set HERD7 and HERD_LIBDIR)"
fi
if command -v gcc > /dev/null 2>&1; then
    export LITMUSC_CACHE="$tmp/cache"
    for f in S-RmwCasScSc FenceAddIgScShdWRRlxRlx FenceOrIdIgRlxdWRRlxRlx; do
        "$L" cc-check --cc gcc --cflags -O2 "$tmp/rmw/$f.litmus" > "$tmp/cc.out" 2>&1
        grep -Eq ': (same|stronger) ' "$tmp/cc.out" || fail "cc-check gcc -O2 $f: $(cat "$tmp/cc.out")"
    done
else
    echo "SKIP: cc-check of the read-modify-write tests (no gcc)"
fi
"$L" gen --arch C --vocabulary > "$tmp/vocab" || fail "--vocabulary"
[ "$(wc -l < "$tmp/vocab")" -ge 80000 ] || fail "--vocabulary: $(wc -l < "$tmp/vocab") names"
for w in ExchRlxRlx RmwCasWScScRlx FenceAddIdIgScShdWRRlxRlx PodWRNaSc; do
    grep -qx "$w" "$tmp/vocab" || fail "--vocabulary lacks $w"
done

[ "$fails" -eq 0 ] || { echo "gen_cli: $fails failure(s)"; exit 1; }
echo "gen_cli: $n names, $k classic tests, enumeration, bad input and $total read-modify-write tests ok"
