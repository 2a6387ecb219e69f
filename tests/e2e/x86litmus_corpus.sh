#!/bin/sh
# Every C and Java test of the corpus compiles with every shipped scheme for
# its language to an X86 litmus test that litmusc's own frontend reads back
# and lowers to IR.  One emit and one read-back per corpus folder and scheme.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../corpora.sh"
L=${LITMUSC:?LITMUSC must name the program under test}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
total=0

# run_group LANGDIR SCHEME...
run_group() {
    langdir=$1
    shift
    for dir in $(find "$corpus/$langdir" -name '*.litmus' -exec dirname {} \; | sort -u); do
        set -- $schemes
        for s in "$@"; do
            out="$tmp/$s/$(printf '%s' "${dir#$corpus/}" | tr '/' '_')"
            mkdir -p "$out"
            n=$(ls "$dir"/*.litmus | wc -l)
            if ! "$L" emit --target x86-litmus --scheme "$s" "$dir"/*.litmus -o "$out" 2>"$tmp/err"; then
                # Find every test that does not compile.
                for f in "$dir"/*.litmus; do
                    if ! "$L" emit --target x86-litmus --scheme "$s" "$f" -o "$tmp/one.litmus" 2>"$tmp/err1"; then
                        echo "FAIL: emit --scheme $s ${f#$corpus/}: $(head -1 "$tmp/err1")"
                        fails=$((fails + 1))
                    fi
                done
                continue
            fi
            got=$(ls "$out"/*.litmus | wc -l)
            if [ "$got" -ne "$n" ]; then
                echo "FAIL: emit --scheme $s ${dir#$corpus/}: $got files for $n tests"
                fails=$((fails + 1))
            fi
            total=$((total + n))
            if ! "$L" ir "$out"/*.litmus >/dev/null 2>"$tmp/err"; then
                for f in "$out"/*.litmus; do
                    if ! "$L" ir "$f" >/dev/null 2>"$tmp/err1"; then
                        echo "FAIL: the X86 frontend rejects the $s compilation of $(basename "$f"): $(head -1 "$tmp/err1")"
                        fails=$((fails + 1))
                    fi
                done
            fi
        done
    done
}

need=0
for corpus in $(corpora); do
    schemes="c11-x86-xchg c11-x86-mfence broken-c11-x86-plainsc"
    run_group c11
    schemes="java-x86-hotspot java-x86-leading broken-java-x86-nofence"
    run_group java
    need=$((need + $(corpus_min "$corpus") * 3 / 2))
done

echo "x86litmus_corpus: $total compilations, $fails failures"
[ "$total" -gt "$need" ] || { echo "FAIL: only $total compilations (corpus missing?)"; exit 1; }
[ "$fails" -eq 0 ]
