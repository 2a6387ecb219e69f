#!/bin/sh
# The standard schemes are sound on the whole C and Java corpus:
# check-scheme passes every test with c11-x86-xchg and c11-x86-mfence (C,
# against rc11) and java-x86-hotspot and java-x86-leading (Java, against
# jam21), and every X86 test compiles to itself.  One check-scheme process
# per corpus folder and scheme.
set -u
here=$(cd "$(dirname "$0")" && pwd)
corpus="$here/../../../shared/corpus"
L=${LITMUSC:?LITMUSC must name the program under test}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
total=0

# check_lang LANGDIR SCHEME...
check_lang() {
    langdir=$1
    shift
    for s in "$@"; do
        for dir in $(find "$corpus/$langdir" -name '*.litmus' -exec dirname {} \; | sort -u); do
            "$L" check-scheme -q --scheme "$s" "$dir"/*.litmus >"$tmp/out" 2>&1
            st=$?
            n=$(ls "$dir"/*.litmus | wc -l)
            total=$((total + n))
            if [ "$st" -ne 0 ] || ! grep -q "^check-scheme $s: $n tests, $n pass, 0 fail, 0 errors$" "$tmp/out"; then
                echo "FAIL: check-scheme --scheme $s on ${dir#$corpus/} (exit $st):"
                grep -v '^    ' "$tmp/out" | sed 's/^/    /'
                fails=$((fails + 1))
            fi
        done
    done
}

check_lang c11 c11-x86-xchg c11-x86-mfence
check_lang java java-x86-hotspot java-x86-leading

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

echo "scheme_corpus: $total checks, $fails folders failing"
[ "$total" -gt 1500 ] || { echo "FAIL: only $total checks (corpus missing?)"; exit 1; }
[ "$fails" -eq 0 ]
