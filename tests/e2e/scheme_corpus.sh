#!/bin/sh
# check: long
# The standard schemes are sound on the whole C and Java corpus (but for one
# finding of the x86 model, below):
# check-scheme passes every test with c11-x86-xchg and c11-x86-mfence (C,
# against rc11) and java-x86-hotspot and java-x86-leading (Java, against
# jam21), and every X86 test compiles to itself.  One check-scheme process
# per corpus folder and scheme.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../corpora.sh"
L=${LITMUSC:?LITMUSC must name the program under test}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
total=0

# One known finding, which is the x86 model's and not the schemes': in
# herd 7.57's x86tso.cat (and litmusc's, which matches it) the read and
# write halves of a locked instruction are not ordered by po, so uniproc
# lets a LOCK XADD read a write that is coherence-after its own.  Java
# Z6.U's getAndAdd then shows 1:r1=1 /\ 1:r2=1 (and 3/3), which JAM21
# forbids.  With the halves added to uniproc (the cat file below, as herd
# HEAD's amo does) the test passes.
known_fail="Z6.U"
z6u_witnesses='1:r1=1 /\ 1:r2=1 /\ 2:r1=0|1:r1=1 /\ 1:r2=1 /\ 2:r1=1|1:r1=3 /\ 1:r2=3 /\ 2:r1=0|1:r1=3 /\ 1:r2=3 /\ 2:r1=1'

# check_lang LANGDIR SCHEME...
check_lang() {
    langdir=$1
    shift
    for s in "$@"; do
        for dir in $(find "$corpus/$langdir" -name '*.litmus' -exec dirname {} \; | sort -u); do
            # the shared corpus's c11popl15 fig6 needs more candidate
            # executions than the model's default budget allows
            "$L" check-scheme -q --max-candidates 0 --scheme "$s" "$dir"/*.litmus >"$tmp/out" 2>&1
            st=$?
            n=$(ls "$dir"/*.litmus | wc -l)
            total=$((total + n))
            nk=0
            for k in $known_fail; do
                [ -f "$dir/$k.litmus" ] && nk=$((nk + 1))
            done
            want="^check-scheme $s: $n tests, $((n - nk)) pass, $nk fail, 0 errors$"
            wst=0
            [ "$nk" -gt 0 ] && wst=1
            got_fail=$(grep '^FAIL ' "$tmp/out" | sed 's/^FAIL \([^:]*\):.*/\1/' | sort | tr '\n' ' ')
            want_fail=""
            for k in $known_fail; do
                [ -f "$dir/$k.litmus" ] && want_fail="$want_fail$k "
            done
            if [ "$st" -ne "$wst" ] || ! grep -q "$want" "$tmp/out" || [ "$got_fail" != "$want_fail" ]; then
                echo "FAIL: check-scheme --scheme $s on ${dir#$corpus/} (exit $st, failing: $got_fail):"
                grep -v '^    ' "$tmp/out" | sed 's/^/    /'
                fails=$((fails + 1))
            elif [ "$nk" -gt 0 ]; then
                w=$(grep '^  witness: ' "$tmp/out" | sed 's/^  witness: //' | tr '\n' '|' | sed 's/|$//')
                if [ "$w" != "$z6u_witnesses" ]; then
                    echo "FAIL: Z6.U under $s: witnesses changed: $w"
                    fails=$((fails + 1))
                fi
            fi
        done
    done
}

need=0
for corpus in $(corpora); do
check_lang c11 c11-x86-xchg c11-x86-mfence
check_lang java java-x86-hotspot java-x86-leading
need=$((need + $(corpus_min "$corpus") * 3 / 2))

# X86 tests through the identity compilation (the path native x86 harnesses
# take), read back through the frontend: nothing the source forbids, and
# the same behaviour in-process and after the read-back.
for dir in $(find "$corpus/x86" -name '*.litmus' -exec dirname {} \; | sort -u); do
    n=$(ls "$dir"/*.litmus | wc -l)
    total=$((total + n))
    "$L" check-scheme -q --reparse --scheme x86-identity --source-model x86tso "$dir"/*.litmus >"$tmp/out" 2>&1
    st=$?
    if [ "$st" -ne 0 ] || ! grep -q "^check-scheme x86-identity: $n tests, $n pass, 0 fail, 0 errors$" "$tmp/out"; then
        echo "FAIL: identity compilation of ${dir#$corpus/} (exit $st):"
        grep -v '^    ' "$tmp/out" | sed 's/^/    /'
        fails=$((fails + 1))
    fi
done
done

# The finding is the model's: with the locked halves in uniproc, Z6.U passes.
z6u="$corpora_root/../shared/corpus/java/ecoop/c11/repairing-sc/Z6.U.litmus"
[ -f "$z6u" ] || { echo "note: no shared corpus, so no Z6.U"; z6u=; }
printf '"x86 TSO, locked halves in uniproc"\ninclude "x86tso.cat"\nacyclic po-loc | rf | co | fr | rmw as uniproc-rmw\n' >"$tmp/x86tso-rmw.cat"
for s in java-x86-hotspot java-x86-leading; do
    [ -n "$z6u" ] || break
    if ! "$L" check-scheme -q --target-model "$tmp/x86tso-rmw.cat" --scheme "$s" \
        "$z6u" >"$tmp/out" 2>&1; then
        echo "FAIL: Z6.U under $s still fails with the locked halves in uniproc:"
        sed 's/^/    /' "$tmp/out"
        fails=$((fails + 1))
    fi
done

echo "scheme_corpus: $total checks, $fails folders failing"
[ "$total" -gt "$need" ] || { echo "FAIL: only $total checks (corpus missing?)"; exit 1; }
[ "$fails" -eq 0 ]
